//! Authenticated encryption with associated data.
//!
//! - [`Aes128Gcm`], [`Aes192Gcm`], [`Aes256Gcm`]: AES-GCM (NIST SP 800-38D) with 96-bit nonces
//!   and 128-bit tags, plus a lower-level interface for other IV and tag lengths (NIST GCMVS).
//!
//! Every AEAD here has the same shape: `seal_in_place_detached(nonce, aad, in_out)` encrypts
//! `in_out` in place and returns the tag; `open_in_place_detached(nonce, aad, in_out, tag)`
//! checks the tag in constant time and decrypts. A failed open returns `Err` and leaves
//! `in_out` all zero: never partial or unauthenticated plaintext. With the `alloc` feature,
//! `seal` and `open` return a `Vec<u8>` (ciphertext ‖ tag, and plaintext).
//!
//! A nonce must never repeat under one key: for GCM a repeat reveals the XOR of the two
//! plaintexts and lets an attacker forge tags.
#![forbid(unsafe_code)]

mod aes_gcm;

pub use aes_gcm::{Aes128Gcm, Aes192Gcm, Aes256Gcm};
