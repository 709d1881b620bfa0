//! 32-bit ARM detection: `getauxval(AT_HWCAP)` bit 12 (NEON) and `AT_HWCAP2` bits 0-3 (AES,
//! PMULL, SHA1, SHA2), from the kernel's `arch/arm/include/uapi/asm/hwcap.h`.
//!
//! Rust's 32-bit ARM feature detection and NEON/crypto intrinsics are unstable, so the kernels
//! for this target are assembly (`asm/arm/*.S`); tokens still guard every call.

use super::FeatureInfo;

const fn f(name: &'static str, description: &'static str) -> FeatureInfo {
    FeatureInfo {
        name,
        target_feature: name,
        std_name: None,
        description,
    }
}

/// The 32-bit ARM feature table (bit order).
pub(crate) const TABLE: &[FeatureInfo] = &[
    f("neon", "NEON (Advanced SIMD)"),
    f("aes", "AArch32 AES instructions"),
    f("pmull", "AArch32 VMULL.P64"),
    f("sha1", "AArch32 SHA-1 instructions"),
    f("sha2", "AArch32 SHA-256 instructions"),
];

/// `SIMDCRYPT_DISABLE` aliases.
pub(crate) fn alias(name: &str) -> Option<&'static str> {
    Some(match name {
        "asimd" => "neon",
        "crypto" => "aes,pmull,sha1,sha2",
        _ => return None,
    })
}

crate::cpu::tokens! {
    /// AArch32 SHA-1 instructions (they use the NEON register file).
    // Used by assembly kernels only (build.rs: `simdcrypt_asm`).
    #[cfg_attr(not(simdcrypt_asm), allow(dead_code))]
    ArmSha1 = "sha1,neon";
    /// AArch32 SHA-256 instructions.
    // Used by assembly kernels only (build.rs: `simdcrypt_asm`).
    #[cfg_attr(not(simdcrypt_asm), allow(dead_code))]
    ArmSha2 = "sha2,neon";
    /// NEON (the SHA-512 kernel).
    // Used by assembly kernels only (build.rs: `simdcrypt_asm`).
    #[cfg_attr(not(simdcrypt_asm), allow(dead_code))]
    ArmNeon = "neon";
    /// AArch32 AES instructions (AESE/AESD/AESMC/AESIMC on NEON registers).
    // Used by assembly kernels only (build.rs: `simdcrypt_asm`).
    #[cfg_attr(not(simdcrypt_asm), allow(dead_code))]
    ArmAes = "aes,neon";
    /// AArch32 VMULL.P64 (64-bit carry-less multiply): the GHASH kernel.
    // Used by assembly kernels only (build.rs: `simdcrypt_asm`).
    #[cfg_attr(not(simdcrypt_asm), allow(dead_code))]
    ArmPmull = "pmull,neon";
}

/// Detected features as bits of `TABLE`.
#[cfg(target_os = "linux")]
pub(crate) fn detect() -> u64 {
    // SAFETY: getauxval has no preconditions; it returns 0 for an unknown type.
    let hw = unsafe { libc::getauxval(libc::AT_HWCAP) };
    // SAFETY: as above.
    let hw2 = unsafe { libc::getauxval(libc::AT_HWCAP2) };
    let neon = hw & (1 << 12) != 0;
    let present = [
        ("neon", neon),
        // The crypto instructions work on NEON registers: without NEON they are unusable.
        ("aes", neon && hw2 & 1 != 0),
        ("pmull", neon && hw2 & 2 != 0),
        ("sha1", neon && hw2 & 4 != 0),
        ("sha2", neon && hw2 & 8 != 0),
    ];
    let mut bits = 0;
    for (name, on) in present {
        if on {
            if let Some(b) = super::bit_of(name.as_bytes()) {
                bits |= 1 << b;
            }
        }
    }
    bits
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn detect() -> u64 {
    0
}
