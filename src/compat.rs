//! The RustCrypto traits, implemented on simdcrypt's types.
//!
//! Four optional cargo features, off by default and named after the trait crates, implement
//! the current generation of the [RustCrypto](https://github.com/RustCrypto) traits — `digest`
//! 0.11, `aead` 0.6, `cipher` 0.5 and `universal-hash` 0.6 (all MSRV 1.85, like this crate) —
//! so code written against those traits runs on simdcrypt's kernels unchanged:
//!
//! ```toml
//! simdcrypt = { version = "0.1", features = ["digest", "aead", "cipher", "universal-hash"] }
//! ```
//!
//! The impls are thin: each trait method calls the type's own method (the same kernels, the
//! same dispatch, chosen once per object as [`Features::detect`](crate::cpu::Features::detect)
//! allows), converting only between `hybrid_array::Array` and `[u8; N]`. An object made with a
//! `new_with` constructor keeps its kernel when used through the traits.
//!
//! | Trait | Types | Feature |
//! |---|---|---|
//! | `digest::{Update, FixedOutput, FixedOutputReset, Reset, HashMarker, OutputSizeUser}`, `crypto_common::BlockSizeUser`; hence `digest::Digest` and `DynDigest` | [`Sha1`](crate::sha::Sha1), [`Sha224`](crate::sha::Sha224), [`Sha256`](crate::sha::Sha256), [`Sha384`](crate::sha::Sha384), [`Sha512`](crate::sha::Sha512), [`Sha512_224`](crate::sha::Sha512_224), [`Sha512_256`](crate::sha::Sha512_256) | `digest` |
//! | `digest::{Update, FixedOutput, MacMarker, KeyInit}`; hence `digest::Mac` | [`Hmac<H>`](crate::hmac::Hmac) for each `H` above | `digest` |
//! | `aead::{AeadCore, AeadInOut, KeyInit}`; hence `AeadInPlace` and (with `alloc`) `Aead` | [`Aes128Gcm`](crate::aead::Aes128Gcm), [`Aes192Gcm`](crate::aead::Aes192Gcm), [`Aes256Gcm`](crate::aead::Aes256Gcm), [`ChaCha20Poly1305`](crate::aead::ChaCha20Poly1305), [`XChaCha20Poly1305`](crate::aead::XChaCha20Poly1305) | `aead` |
//! | `cipher::{BlockCipherEncrypt, BlockCipherDecrypt, KeyInit, BlockSizeUser}` | [`Aes128`](crate::aes::Aes128), [`Aes192`](crate::aes::Aes192), [`Aes256`](crate::aes::Aes256) | `cipher` |
//! | `cipher::{StreamCipher, StreamCipherSeek, KeyIvInit}` | [`Ctr<Aes128>`](crate::aes::Ctr), `Ctr<Aes192>`, `Ctr<Aes256>` (128-bit big-endian counter: RustCrypto's `ctr::Ctr128BE`), [`ChaCha20`](crate::chacha20::ChaCha20) (RFC 8439, counter from 0: `chacha20::ChaCha20`) | `cipher` |
//! | `universal_hash::{UniversalHash, KeyInit}` | [`Poly1305`](crate::poly1305::Poly1305) | `universal-hash` |
//!
//! Not implemented:
//! - `UniversalHash` for GHASH: GHASH is internal to AES-GCM, not a public type.
//! - `Reset` for `Hmac` and `Poly1305`: neither keeps its key (HMAC keeps only the keyed
//!   states, Poly1305 nothing it could restart from), so they have `Mac`/`UniversalHash`
//!   without the `*_reset` methods.
//! - `OpenSshChaCha20Poly1305`: its packet format (encrypted length, sequence-number nonce)
//!   fits no AEAD trait.
//!
//! Errors map to the traits' own: an AEAD failure (bad tag, message too long) is
//! `aead::Error`, and as in simdcrypt's API a failed open leaves the output all zero. A stream
//! cipher's keystream limit (2^32 blocks per nonce for ChaCha20, 2^128 for CTR) is reported by
//! `StreamCipher::check_remaining` and the `try_*` methods; the panicking methods panic there,
//! as the trait documents.
//!
//! # The previous generation (`digest` 0.10, `aead` 0.5, `cipher` 0.4)
//!
//! Not implemented, on purpose. Most of crates.io still depends on it, but:
//! - a crate that takes a `D: digest::Digest` from 0.10 cannot mix it with a 0.11 type anyway,
//!   and the ecosystem is moving as a whole (RustCrypto's `sha2`, `aes-gcm`, `hmac`,
//!   `chacha20poly1305` and `rustls`' RustCrypto provider have all released on the new
//!   traits); a second set of features would have to follow two `hybrid-array`/`generic-array`
//!   type systems and two `inout` versions for as long as simdcrypt supports it;
//! - users of the old traits get the same kernels through simdcrypt's own API, which is small
//!   (`new`, `update`, `finalize`; `seal_in_place_detached`, `open_in_place_detached`) and
//!   wraps in a few lines where a crate needs the old trait.
//!
//! If demand shows, the old generation can be added later behind features such as
//! `digest010`, as thin as these, without touching the ones here.
//!
//! # Examples
//!
//! Generic code that names only the traits:
//!
//! ```
//! # #[cfg(all(feature = "digest", feature = "aead"))] {
//! use aead::{AeadInOut, KeyInit as _};
//! use digest::{Digest, Mac};
//!
//! fn hex_digest<D: Digest>(data: &[u8]) -> [u8; 4] {
//!     D::digest(data)[..4].try_into().unwrap()
//! }
//! assert_eq!(hex_digest::<simdcrypt::sha::Sha256>(b"abc"), [0xba, 0x78, 0x16, 0xbf]);
//!
//! fn tag<M: Mac + digest::KeyInit>(key: &[u8], msg: &[u8]) -> Vec<u8> {
//!     let mut m = <M as digest::KeyInit>::new_from_slice(key).unwrap();
//!     m.update(msg);
//!     m.finalize().into_bytes().to_vec()
//! }
//! let t = tag::<simdcrypt::hmac::Hmac<simdcrypt::sha::Sha256>>(b"key", b"The quick brown fox jumps over the lazy dog");
//! assert_eq!(t[..4], [0xf7, 0xbc, 0x83, 0xf4]);
//!
//! fn roundtrip<A: AeadInOut + aead::KeyInit>(key: &[u8], msg: &mut [u8]) -> bool {
//!     let a = A::new_from_slice(key).unwrap();
//!     let nonce = aead::Nonce::<A>::default();
//!     let tag = a.encrypt_inout_detached(&nonce, b"aad", msg.into()).unwrap();
//!     a.decrypt_inout_detached(&nonce, b"aad", msg.into(), &tag).is_ok()
//! }
//! assert!(roundtrip::<simdcrypt::aead::Aes256Gcm>(&[7; 32], &mut [1, 2, 3]));
//! # }
//! ```

#[cfg(feature = "aead")]
mod aead;
#[cfg(feature = "cipher")]
mod cipher;
#[cfg(feature = "digest")]
mod digest;
#[cfg(feature = "universal-hash")]
mod universal_hash;
