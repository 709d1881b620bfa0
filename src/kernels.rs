//! `kernels()`: which kernel each primitive would use now.

use crate::cpu::Features;
use crate::{aead, aes, chacha20, poly1305, sha};

/// One primitive and the kernel it would use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kernel {
    /// The primitive, as `openssl speed` spells it (`sha256`, `aes-128-gcm`, …).
    pub primitive: &'static str,
    /// The backend name its objects report through `backend()`.
    pub backend: &'static str,
}

/// For each implemented primitive, the kernel that a new object would use now (with this
/// CPU and `SIMDCRYPT_DISABLE`).
pub fn kernels() -> impl Iterator<Item = Kernel> {
    kernels_with(Features::detect())
}

/// Like [`kernels`], for a given feature set.
pub fn kernels_with(f: Features) -> impl Iterator<Item = Kernel> {
    let list = [
        ("sha1", sha::Sha1::backend_for(f)),
        ("sha224", sha::Sha224::backend_for(f)),
        ("sha256", sha::Sha256::backend_for(f)),
        ("sha384", sha::Sha384::backend_for(f)),
        ("sha512", sha::Sha512::backend_for(f)),
        ("sha512-224", sha::Sha512_224::backend_for(f)),
        ("sha512-256", sha::Sha512_256::backend_for(f)),
        ("aes-128", aes::Aes128::backend_for(f)),
        ("aes-192", aes::Aes192::backend_for(f)),
        ("aes-256", aes::Aes256::backend_for(f)),
        ("aes-128-gcm", aead::Aes128Gcm::backend_for(f)),
        ("aes-192-gcm", aead::Aes192Gcm::backend_for(f)),
        ("aes-256-gcm", aead::Aes256Gcm::backend_for(f)),
        ("chacha20", chacha20::ChaCha20::backend_for(f)),
        ("poly1305", poly1305::Poly1305::backend_for(f)),
        ("chacha20-poly1305", aead::ChaCha20Poly1305::backend_for(f)),
        (
            "xchacha20-poly1305",
            aead::XChaCha20Poly1305::backend_for(f),
        ),
    ];
    list.into_iter()
        .map(|(primitive, backend)| Kernel { primitive, backend })
}
