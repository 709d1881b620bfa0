//! # simdcrypt
//!
//! Hand-tuned, constant-time cryptographic kernels with run-time CPU dispatch: SHA-1 and the
//! SHA-2 family, HMAC, HKDF, AES (ECB, CBC, CTR, IGE), AES-GCM, ChaCha20, Poly1305 and the
//! ChaCha20-Poly1305 AEADs (RFC 8439, XChaCha20, OpenSSH). Every primitive has a portable,
//! constant-time kernel; on x86_64, aarch64 and 32-bit ARM it picks, once per object, the
//! fastest kernel the CPU supports.
//!
//! ```
//! use simdcrypt::sha::Sha256;
//!
//! let d = Sha256::digest(b"abc");
//! assert_eq!(d[..4], [0xba, 0x78, 0x16, 0xbf]);
//!
//! let mut h = Sha256::new();
//! h.update(b"a");
//! h.update(b"bc");
//! assert_eq!(h.backend().is_empty(), false); // e.g. "sha-ni", "armv8-ce" or "soft"
//! assert_eq!(h.finalize(), d);
//! ```
//!
//! ## Choosing kernels
//!
//! [`cpu::features()`] tells what was detected; [`kernels()`] which kernel each primitive
//! would use now. The environment variable `SIMDCRYPT_DISABLE` (comma-separated feature
//! names, e.g. `sha,avx2`) makes features count as absent for the whole process, like
//! `OPENSSL_ia32cap`. In-process, pass a reduced [`cpu::Features`] to a `new_with`
//! constructor:
//!
//! ```
//! use simdcrypt::{cpu::Features, sha::Sha256};
//!
//! let portable = Sha256::new_with(Features::none());
//! assert_eq!(portable.backend(), "soft");
//! for (name, features) in Sha256::backends(Features::detect()) {
//!     let mut h = Sha256::new_with(features);
//!     assert_eq!(h.backend(), name);
//!     h.update(b"abc");
//!     assert_eq!(h.finalize(), Sha256::digest(b"abc"));
//! }
//! ```
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(clippy::undocumented_unsafe_blocks)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[cfg(test)]
mod abi_test;
pub mod aead;
pub mod aes;
pub mod chacha20;
pub mod compat;
pub mod cpu;
mod ct;
mod error;
mod ghash;
pub mod hkdf;
pub mod hmac;
mod kernels;
pub mod poly1305;
pub mod sha;
mod tag;
mod wipe;
#[cfg(feature = "zeroize")]
#[cfg_attr(docsrs, doc(cfg(feature = "zeroize")))]
mod zeroize_on_drop;

pub use error::Error;
pub use kernels::{Kernel, kernels, kernels_with};
pub use tag::Tag;

/// Valgrind client requests for the constant-time test `tests/ct.rs`. Present only in builds
/// with `--cfg simdcrypt_ctgrind`; not part of the API.
#[cfg(simdcrypt_ctgrind)]
#[doc(hidden)]
pub use ct::valgrind as __ctgrind;
