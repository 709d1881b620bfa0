//! Authenticated encryption with associated data.
//!
//! - [`Aes128Gcm`], [`Aes192Gcm`], [`Aes256Gcm`]: AES-GCM (NIST SP 800-38D) with 96-bit nonces
//!   and 128-bit tags, plus a lower-level interface for other IV and tag lengths (NIST GCMVS).
//! - [`ChaCha20Poly1305`] (RFC 8439 §2.8, 96-bit nonces) and [`XChaCha20Poly1305`]
//!   (draft-irtf-cfrg-xchacha, 192-bit nonces that may be random).
//! - [`OpenSshChaCha20Poly1305`]: chacha20-poly1305@openssh.com, with the packet-level
//!   interface an SSH transport needs (`decrypt_length`, `seal_in_place`, `open_in_place`).
//!
//! Every AEAD here has the same shape: `seal_in_place_detached(nonce, aad, in_out)` encrypts
//! `in_out` in place and returns the tag; `open_in_place_detached(nonce, aad, in_out, tag)`
//! checks the tag in constant time and decrypts. A failed open returns `Err` and leaves
//! `in_out` all zero: never partial or unauthenticated plaintext. With the `alloc` feature,
//! `seal` and `open` return a `Vec<u8>` (ciphertext ‖ tag, and plaintext).
//!
//! A nonce must never repeat under one key: for GCM a repeat reveals the XOR of the two
//! plaintexts and lets an attacker forge tags.
// `deny`, not `forbid`: the stitched AES-GCM kernels' wrappers (`aes_gcm/<arch>_<ext>.rs`)
// allow it for themselves; everything else here stays free of `unsafe`.
#![deny(unsafe_code)]

use crate::Error;

/// Seal and open with the tag beside the text in one buffer, for an AEAD type whose
/// `seal_in_place_detached` and `open_in_place_detached` take a nonce of `$n` bytes and a
/// 16-byte tag.
macro_rules! in_place {
    ($t:ident, $n:literal) => {
        impl $t {
            /// Encrypts the plaintext in `in_out` in place and appends the 16-byte tag: the
            /// buffer ends as ciphertext ‖ tag (ring's `seal_in_place_append_tag`). Any buffer
            /// that can grow works: a `Vec<u8>`, or a fixed-capacity one without `alloc`. On
            /// error nothing is appended and `in_out` is unchanged.
            ///
            /// ```
            #[doc = concat!("use simdcrypt::aead::", stringify!($t), ";")]
            ///
            #[doc = concat!("let aead = ", stringify!($t), "::new_from_slice(&[7u8; ", stringify!($t), "::KEY_LEN])?;")]
            #[doc = concat!("let nonce = [1u8; ", stringify!($t), "::NONCE_LEN];")]
            /// let mut buf = b"hello".to_vec();
            /// aead.seal_in_place_append_tag(&nonce, b"header", &mut buf)?;
            #[doc = concat!("assert_eq!(buf.len(), 5 + ", stringify!($t), "::TAG_LEN);")]
            /// let plain = aead.open_in_place(&nonce, b"header", &mut buf)?;
            /// assert_eq!(plain, b"hello");
            /// # Ok::<(), simdcrypt::Error>(())
            /// ```
            pub fn seal_in_place_append_tag<B>(
                &self,
                nonce: &[u8; $n],
                aad: &[u8],
                in_out: &mut B,
            ) -> Result<(), Error>
            where
                B: AsMut<[u8]> + for<'a> Extend<&'a u8> + ?Sized,
            {
                let tag = self.seal_in_place_detached(nonce, aad, in_out.as_mut())?;
                in_out.extend(tag.iter());
                Ok(())
            }

            /// Checks and decrypts ciphertext ‖ 16-byte tag in place and returns the plaintext:
            /// the first `in_out.len() − 16` bytes of `in_out` (ring's `open_in_place`).
            /// `Err(InvalidLength)` if `in_out` is shorter than a tag,
            /// `Err(AuthenticationFailed)` if the tag does not match; on any error all of
            /// `in_out` is zero.
            pub fn open_in_place<'a>(
                &self,
                nonce: &[u8; $n],
                aad: &[u8],
                in_out: &'a mut [u8],
            ) -> Result<&'a mut [u8], Error> {
                open_split(in_out, |text, tag| self.open_in_place_detached(nonce, aad, text, tag))
            }
        }
    };
}

/// Opens ciphertext ‖ 16-byte tag in `in_out` with `open` (a detached open, which zeroes the
/// text on failure) and returns the plaintext; on any error all of `in_out` is zero.
fn open_split(
    in_out: &mut [u8],
    open: impl FnOnce(&mut [u8], &[u8; 16]) -> Result<(), Error>,
) -> Result<&mut [u8], Error> {
    let Some(text_len) = in_out.len().checked_sub(16) else {
        crate::wipe::wipe_slice(in_out);
        return Err(Error::InvalidLength);
    };
    let (text, tag) = in_out.split_at_mut(text_len);
    let mut t = [0u8; 16];
    t.copy_from_slice(tag);
    if let Err(e) = open(text, &t) {
        crate::wipe::wipe_slice(tag);
        return Err(e);
    }
    Ok(text)
}

/// `KEY_LEN`, `NONCE_LEN`, `TAG_LEN` and `new_from_slice` for a type with `new(&[u8; $k])`.
macro_rules! lengths {
    ($t:ident, $k:literal, $n:literal) => {
        impl $t {
            /// Key length in bytes.
            pub const KEY_LEN: usize = $k;
            /// Nonce length in bytes.
            pub const NONCE_LEN: usize = $n;
            /// Tag length in bytes.
            pub const TAG_LEN: usize = 16;

            /// Like [`Self::new`] for a key given as a slice: `Err(InvalidLength)` unless it
            /// is exactly [`Self::KEY_LEN`] bytes long.
            pub fn new_from_slice(key: &[u8]) -> Result<Self, Error> {
                let key: &[u8; $k] = key.try_into().map_err(|_| Error::InvalidLength)?;
                Ok(Self::new(key))
            }
        }
    };
}

mod aes_gcm;
mod algorithm;
mod chacha20_poly1305;
mod openssh;
mod xchacha;

in_place!(Aes128Gcm, 12);
in_place!(Aes192Gcm, 12);
in_place!(Aes256Gcm, 12);
in_place!(ChaCha20Poly1305, 12);
in_place!(XChaCha20Poly1305, 24);
lengths!(ChaCha20Poly1305, 32, 12);
lengths!(XChaCha20Poly1305, 32, 24);

pub use aes_gcm::{Aes128Gcm, Aes192Gcm, Aes256Gcm, AesGcmKey, GcmShortTag};
pub use algorithm::{
    AES_128_GCM, AES_192_GCM, AES_256_GCM, Algorithm, CHACHA20_POLY1305, Key, XCHACHA20_POLY1305,
};
pub use chacha20_poly1305::ChaCha20Poly1305;
pub use openssh::OpenSshChaCha20Poly1305;
pub use xchacha::XChaCha20Poly1305;
