//! XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03 §2.3 and §2.4): ChaCha20-Poly1305 with a
//! 192-bit nonce, long enough to be chosen at random.
//!
//! Per message, HChaCha20 (§2.2) turns the key and the first 16 bytes of the nonce into a
//! subkey; RFC 8439's AEAD then runs under that subkey with the 96-bit nonce
//! `0x00000000 ‖ nonce[16..24]` (§2.3.1: "the first 4 bytes [are] zeroes"). Everything after
//! the subkey, kernels included, is `chacha20_poly1305`'s.
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use super::chacha20_poly1305::{Backend, open, seal, too_long};
use crate::Error;
use crate::chacha20::hchacha20;
use crate::cpu::{self, Dispatch, Features};
use crate::wipe::{wipe, wipe_slice};

/// The subkey and words 12–15 (block counter 0, then `0 ‖ nonce[16..24]`) for one message.
fn derive(key: &[u8; 32], nonce: &[u8; 24]) -> ([u8; 32], [u32; 4]) {
    let mut n16 = [0u8; 16];
    n16.copy_from_slice(&nonce[..16]);
    let subkey = hchacha20(key, &n16);
    let w = |i: usize| u32::from_le_bytes([nonce[i], nonce[i + 1], nonce[i + 2], nonce[i + 3]]);
    (subkey, [0, 0, w(16), w(20)])
}

/// XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03): a 32-byte key, 24-byte nonces, 16-byte
/// tags. The key is wiped on drop, and so is each message's subkey.
///
/// The nonce may be chosen at random: by the birthday bound, 2^80 random 192-bit nonces
/// collide with probability about 2^-33. A nonce must still never repeat under one key.
///
/// ```
/// use simdcrypt::aead::XChaCha20Poly1305;
///
/// // draft-irtf-cfrg-xchacha-03, Appendix A.3.1
/// let key: [u8; 32] = core::array::from_fn(|i| 0x80 + i as u8);
/// let nonce: [u8; 24] = core::array::from_fn(|i| 0x40 + i as u8);
/// let aad = [0x50, 0x51, 0x52, 0x53, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7];
/// let plaintext = b"Ladies and Gentlemen of the class of '99: If I could offer you only one \
///                   tip for the future, sunscreen would be it.";
///
/// let aead = XChaCha20Poly1305::new(&key);
/// let mut buf = *plaintext;
/// let tag = aead.seal_in_place_detached(&nonce, &aad, &mut buf)?;
/// assert_eq!(buf[..8], [0xbd, 0x6d, 0x17, 0x9d, 0x3e, 0x83, 0xd4, 0x3b]);
/// assert_eq!(tag, [0xc0, 0x87, 0x59, 0x24, 0xc1, 0xc7, 0x98, 0x79,
///                  0x47, 0xde, 0xaf, 0xd8, 0x78, 0x0a, 0xcf, 0x49]);
///
/// aead.open_in_place_detached(&nonce, &aad, &mut buf, &tag)?;
/// assert_eq!(&buf, plaintext);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct XChaCha20Poly1305 {
    key: [u8; 32],
    backend: Backend,
}

impl XChaCha20Poly1305 {
    /// A key for the fastest ChaCha20 and Poly1305 kernels this CPU has (less
    /// `SIMDCRYPT_DISABLE`).
    #[inline]
    pub fn new(key: &[u8; 32]) -> Self {
        Self::new_with(Features::detect(), key)
    }

    /// A key for the kernels that `features` selects.
    pub fn new_with(features: Features, key: &[u8; 32]) -> Self {
        XChaCha20Poly1305 {
            key: *key,
            backend: Backend::select(features),
        }
    }

    /// Encrypts `in_out` in place under `nonce`, authenticating it and `aad`; returns the
    /// 16-byte tag. `Err(MessageTooLong)` for a text longer than (2^32 − 1)·64 bytes, with
    /// `in_out` unchanged.
    pub fn seal_in_place_detached(
        &self,
        nonce: &[u8; 24],
        aad: &[u8],
        in_out: &mut [u8],
    ) -> Result<[u8; 16], Error> {
        if too_long(in_out.len()) {
            return Err(Error::MessageTooLong);
        }
        let (mut subkey, tail) = derive(&self.key, nonce);
        let tag = seal(self.backend, &subkey, tail, aad, in_out);
        wipe(&mut subkey);
        Ok(tag)
    }

    /// Checks `tag` over `aad` and the ciphertext `in_out` in constant time and, if it
    /// matches, leaves the plaintext in `in_out`. On any error `in_out` is all zero.
    pub fn open_in_place_detached(
        &self,
        nonce: &[u8; 24],
        aad: &[u8],
        in_out: &mut [u8],
        tag: &[u8; 16],
    ) -> Result<(), Error> {
        if too_long(in_out.len()) {
            wipe_slice(in_out);
            return Err(Error::MessageTooLong);
        }
        let (mut subkey, tail) = derive(&self.key, nonce);
        let r = open(self.backend, &subkey, tail, aad, in_out, tag);
        wipe(&mut subkey);
        r
    }

    /// Encrypts `plaintext` and returns ciphertext ‖ 16-byte tag.
    #[cfg(feature = "alloc")]
    pub fn seal(&self, nonce: &[u8; 24], aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
        if too_long(plaintext.len()) {
            return Err(Error::MessageTooLong);
        }
        let mut out = Vec::with_capacity(plaintext.len() + 16);
        out.extend_from_slice(plaintext);
        let tag = self.seal_in_place_detached(nonce, aad, &mut out)?;
        out.extend_from_slice(&tag);
        Ok(out)
    }

    /// Checks and decrypts ciphertext ‖ 16-byte tag; returns the plaintext.
    /// `Err(InvalidLength)` if `ct_and_tag` is shorter than a tag,
    /// `Err(AuthenticationFailed)` if the tag does not match.
    #[cfg(feature = "alloc")]
    pub fn open(&self, nonce: &[u8; 24], aad: &[u8], ct_and_tag: &[u8]) -> Result<Vec<u8>, Error> {
        let Some(ct_len) = ct_and_tag.len().checked_sub(16) else {
            return Err(Error::InvalidLength);
        };
        let (ct, tag) = ct_and_tag.split_at(ct_len);
        let tag: &[u8; 16] = tag.try_into().map_err(|_| Error::InvalidLength)?;
        let mut out = Vec::from(ct);
        self.open_in_place_detached(nonce, aad, &mut out, tag)?;
        Ok(out)
    }

    /// The ChaCha20 and Poly1305 kernels of this key, as `"<chacha20>+<poly1305>"`.
    pub fn backend(&self) -> &'static str {
        self.backend.name()
    }

    /// The kernels a key made with `features` would use.
    pub fn backend_for(features: Features) -> &'static str {
        Backend::select(features).name()
    }

    /// Every (ChaCha20, Poly1305) kernel pair reachable from `features`, best first (the same
    /// walk as [`ChaCha20Poly1305::backends`](super::ChaCha20Poly1305::backends)).
    pub fn backends(features: Features) -> impl Iterator<Item = (&'static str, Features)> {
        cpu::backends::<Backend>(features)
    }
}

impl Drop for XChaCha20Poly1305 {
    fn drop(&mut self) {
        wipe(&mut self.key);
    }
}

impl core::fmt::Debug for XChaCha20Poly1305 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Never the key.
        f.debug_struct("XChaCha20Poly1305")
            .field("backend", &self.backend())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::aead::ChaCha20Poly1305;
    use std::vec::Vec;

    /// The construction of §2.3: the same as ChaCha20-Poly1305 under the subkey with nonce
    /// `0^4 ‖ nonce[16..]`, on every pair.
    #[test]
    fn is_chacha20_poly1305_under_the_subkey() {
        let key: [u8; 32] = core::array::from_fn(|i| (i * 5 + 1) as u8);
        let nonce: [u8; 24] = core::array::from_fn(|i| (0xf0 - i * 3) as u8);
        let mut n16 = [0u8; 16];
        n16.copy_from_slice(&nonce[..16]);
        let subkey = hchacha20(&key, &n16);
        let mut n12 = [0u8; 12];
        n12[4..].copy_from_slice(&nonce[16..]);
        for (name, f) in XChaCha20Poly1305::backends(Features::detect()) {
            let x = XChaCha20Poly1305::new_with(f, &key);
            let c = ChaCha20Poly1305::new_with(f, &subkey);
            assert_eq!(x.backend(), name);
            for len in [0usize, 1, 16, 64, 65, 200, 1000] {
                let pt: Vec<u8> = (0..len).map(|i| i as u8).collect();
                let mut a = pt.clone();
                let mut b = pt.clone();
                let ta = x.seal_in_place_detached(&nonce, b"ad", &mut a).unwrap();
                let tb = c.seal_in_place_detached(&n12, b"ad", &mut b).unwrap();
                assert_eq!((&a, ta), (&b, tb), "{name} len {len}");
                x.open_in_place_detached(&nonce, b"ad", &mut a, &ta)
                    .unwrap();
                assert_eq!(a, pt);
            }
        }
    }
}
