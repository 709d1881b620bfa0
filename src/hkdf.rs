//! HKDF (RFC 5869) over any hash of [`crate::sha`] (SHA-256, SHA-384 and SHA-512 are the
//! usual choices).
//!
//! ```
//! use simdcrypt::{hkdf::Hkdf, sha::Sha256};
//!
//! // RFC 5869 A.1
//! let ikm = [0x0b; 22];
//! let salt: Vec<u8> = (0x00..=0x0c).collect();
//! let info: Vec<u8> = (0xf0..=0xf9).collect();
//! let mut okm = [0u8; 42];
//! Hkdf::<Sha256>::new(&salt, &ikm).expand(&info, &mut okm)?;
//! assert_eq!(okm[..4], [0x3c, 0xb2, 0x5f, 0x25]);
//! // More than 255 hash lengths is an error, not a panic.
//! assert!(Hkdf::<Sha256>::new(&salt, &ikm).expand(&info, &mut [0u8; 255 * 32 + 1]).is_err());
//! # Ok::<(), simdcrypt::Error>(())
//! ```

use crate::Error;
use crate::cpu::Features;
use crate::hmac::Hmac;
use crate::sha::Digest;

/// An HKDF pseudorandom key, ready to expand.
#[derive(Clone)]
pub struct Hkdf<H: Digest> {
    prk: Hmac<H>,
}

impl<H: Digest> Hkdf<H> {
    /// HKDF-Extract(salt, ikm) (RFC 5869 §2.2). An empty salt means a string of zero bytes,
    /// which HMAC's zero padding makes the same thing.
    pub fn new(salt: &[u8], ikm: &[u8]) -> Self {
        Self::extract(salt, ikm).1
    }

    /// HKDF-Extract with the best kernel within `features` (tests and benches use it to
    /// reach every backend).
    pub fn new_with(salt: &[u8], ikm: &[u8], features: Features) -> Self {
        Self::extract_with(salt, ikm, features).1
    }

    /// HKDF-Extract, returning the PRK itself too.
    pub fn extract(salt: &[u8], ikm: &[u8]) -> (H::Output, Self) {
        Self::extract_with(salt, ikm, Features::detect())
    }

    fn extract_with(salt: &[u8], ikm: &[u8], f: Features) -> (H::Output, Self) {
        let mut m = Hmac::<H>::new_with(salt, f);
        m.update(ikm);
        let prk = m.finalize_bytes();
        (
            prk,
            Hkdf {
                prk: Hmac::new_with(prk.as_ref(), f),
            },
        )
    }

    /// Starts from a PRK made elsewhere; it must be at least one hash length long.
    pub fn from_prk(prk: &[u8]) -> Result<Self, Error> {
        if prk.len() < H::OUTPUT_LEN {
            return Err(Error::InvalidLength);
        }
        Ok(Hkdf {
            prk: Hmac::new(prk),
        })
    }

    /// HKDF-Expand(PRK, info, L) into `okm` (L = `okm.len()`, at most 255 hash lengths).
    pub fn expand(&self, info: &[u8], okm: &mut [u8]) -> Result<(), Error> {
        self.expand_multi_info(&[info], okm)
    }

    /// HKDF-Expand with `info` given in pieces, hashed as their concatenation without
    /// copying it: TLS 1.3's `HkdfLabel` (RFC 8446 §7.1) is a length, a label and a context,
    /// each its own slice. `Err(InvalidLength)` for more than 255 hash lengths.
    ///
    /// ```
    /// use simdcrypt::{hkdf::Hkdf, sha::Sha256};
    ///
    /// let hkdf = Hkdf::<Sha256>::new(b"salt", b"input key material");
    /// let (mut a, mut b) = ([0u8; 16], [0u8; 16]);
    /// hkdf.expand(b"tls13 key", &mut a)?;
    /// hkdf.expand_multi_info(&[b"tls13 ", b"key"], &mut b)?;
    /// assert_eq!(a, b);
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn expand_multi_info(&self, info: &[&[u8]], okm: &mut [u8]) -> Result<(), Error> {
        if okm.len() > 255 * H::OUTPUT_LEN {
            return Err(Error::InvalidLength);
        }
        let mut prev: Option<H::Output> = None;
        for (i, chunk) in okm.chunks_mut(H::OUTPUT_LEN).enumerate() {
            let mut m = self.prk.clone();
            if let Some(p) = &prev {
                m.update(p.as_ref());
            }
            for piece in info {
                m.update(piece);
            }
            m.update(&[(i + 1) as u8]);
            let t = m.finalize_bytes();
            chunk.copy_from_slice(&t.as_ref()[..chunk.len()]);
            prev = Some(t);
        }
        if let Some(mut p) = prev {
            crate::wipe::wipe_slice(p.as_mut());
        }
        Ok(())
    }
}

impl<H: Digest> core::fmt::Debug for Hkdf<H> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Hkdf").finish_non_exhaustive()
    }
}
