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

mod aes_gcm;
mod chacha20_poly1305;
mod openssh;
mod xchacha;

pub use aes_gcm::{Aes128Gcm, Aes192Gcm, Aes256Gcm};
pub use chacha20_poly1305::ChaCha20Poly1305;
pub use openssh::OpenSshChaCha20Poly1305;
pub use xchacha::XChaCha20Poly1305;
