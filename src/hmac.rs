//! HMAC (RFC 2104, FIPS 198-1) over any hash of [`crate::sha`].
//!
//! ```
//! use simdcrypt::{hmac::Hmac, sha::Sha256};
//!
//! let mut m = Hmac::<Sha256>::new(b"key");
//! m.update(b"The quick brown fox jumps over the lazy dog");
//! let tag = m.clone().finalize(); // a `Tag`: its `==` is constant-time
//! assert_eq!(tag.as_ref()[..4], [0xf7, 0xbc, 0x83, 0xf4]);
//! assert!(m.verify(tag.as_ref()).is_ok());
//! assert!(Hmac::<Sha256>::new(b"other key").verify(tag.as_ref()).is_err());
//! ```

use crate::cpu::Features;
use crate::sha::Digest;
use crate::wipe::{wipe, wipe_slice};
use crate::{Error, Tag};

/// The largest block of the hashes in this crate (SHA-384/512).
const MAX_BLOCK: usize = 128;

/// An HMAC computation keyed with one key.
#[derive(Clone)]
pub struct Hmac<H: Digest> {
    inner: H,
    outer: H,
}

impl<H: Digest> Hmac<H> {
    /// HMAC with `key` (any length; keys longer than a block are hashed first, RFC 2104 §2).
    pub fn new(key: &[u8]) -> Self {
        Self::new_with(key, Features::detect())
    }

    /// The hash's block and output fit the key buffer (true of every hash of the sealed
    /// [`Digest`]; a compile-time check, not a run-time panic).
    const FITS: () = assert!(H::BLOCK_LEN <= MAX_BLOCK && H::OUTPUT_LEN <= H::BLOCK_LEN);

    /// HMAC with `key`, using the best kernel within `features`.
    pub fn new_with(key: &[u8], features: Features) -> Self {
        let () = Self::FITS;
        let bl = H::BLOCK_LEN;
        let mut k = [0u8; MAX_BLOCK];
        if key.len() > bl {
            let mut h = H::new_with(features);
            h.update(key);
            let mut d = h.finalize();
            k[..H::OUTPUT_LEN].copy_from_slice(d.as_ref());
            wipe_slice(d.as_mut());
        } else {
            k[..key.len()].copy_from_slice(key);
        }
        let mut inner = H::new_with(features);
        let mut outer = H::new_with(features);
        let mut pad = [0u8; MAX_BLOCK];
        for (p, k) in pad.iter_mut().zip(&k).take(bl) {
            *p = k ^ 0x36;
        }
        inner.update(&pad[..bl]);
        for (p, k) in pad.iter_mut().zip(&k).take(bl) {
            *p = k ^ 0x5c;
        }
        outer.update(&pad[..bl]);
        wipe(&mut k);
        wipe(&mut pad);
        Hmac { inner, outer }
    }

    /// Absorbs `data`.
    pub fn update(&mut self, data: &[u8]) {
        self.inner.update(data);
    }

    /// The tag, as a [`Tag`] whose `==` is constant-time (its bytes: [`Tag::into_bytes`]).
    pub fn finalize(self) -> Tag<H::Output> {
        Tag::new(self.finalize_bytes())
    }

    /// The tag as plain bytes (HKDF's blocks and PRK).
    pub(crate) fn finalize_bytes(self) -> H::Output {
        let Hmac { inner, mut outer } = self;
        let mut d = inner.finalize();
        outer.update(d.as_ref());
        wipe_slice(d.as_mut());
        outer.finalize()
    }

    /// Checks `tag` (the full tag length) in constant time: `Err(AuthenticationFailed)` if
    /// it differs or has another length.
    pub fn verify(self, tag: &[u8]) -> Result<(), Error> {
        let mut d = self.finalize_bytes();
        let ok = crate::ct::eq(d.as_ref(), tag);
        wipe_slice(d.as_mut());
        if ok {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }

    /// The tag of `data` under `key`, in one call.
    pub fn mac(key: &[u8], data: &[u8]) -> Tag<H::Output> {
        let mut m = Self::new(key);
        m.update(data);
        m.finalize()
    }

    /// The kernel of the underlying hash.
    pub fn backend(&self) -> &'static str {
        self.inner.backend()
    }
}

impl<H: Digest> core::fmt::Debug for Hmac<H> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Hmac")
            .field("backend", &self.backend())
            .finish_non_exhaustive()
    }
}
