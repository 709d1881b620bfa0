//! aarch64 detection: `getauxval(AT_HWCAP)` on Linux (bits from the kernel's
//! `arch/arm64/include/uapi/asm/hwcap.h`), `cpufeatures` (sysctl) elsewhere.
//!
//! Rust's target features are coarser than the hwcaps: `aes` covers AES and PMULL, `sha2`
//! covers SHA-1 and SHA-256, `sha3` covers SHA-3 and SHA-512. The table keeps the hwcaps
//! apart (a user can mask `pmull` alone) and maps each to the target feature a kernel enables.

use super::FeatureInfo;

const fn f(
    name: &'static str,
    target_feature: &'static str,
    std_name: Option<&'static str>,
    description: &'static str,
) -> FeatureInfo {
    FeatureInfo {
        name,
        target_feature,
        std_name,
        description,
    }
}

/// The aarch64 feature table (bit order).
pub(crate) const TABLE: &[FeatureInfo] = &[
    f("neon", "neon", Some("neon"), "Advanced SIMD (NEON)"),
    f("aes", "aes", Some("aes"), "ARMv8 AES instructions"),
    f(
        "pmull",
        "aes",
        Some("pmull"),
        "ARMv8 PMULL (64-bit carry-less multiply)",
    ),
    f("sha1", "sha2", None, "ARMv8 SHA-1 instructions"),
    f("sha2", "sha2", Some("sha2"), "ARMv8 SHA-256 instructions"),
    f("sha3", "sha3", None, "ARMv8.2 SHA-3 instructions"),
    f(
        "sha512",
        "sha3",
        Some("sha3"),
        "ARMv8.2 SHA-512 instructions",
    ),
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
    /// ARMv8 SHA-1 instructions.
    Sha1Ce = "sha1,neon";
    /// ARMv8 SHA-256 instructions.
    Sha256Ce = "sha2,neon";
    /// ARMv8.2 SHA-512 instructions.
    Sha512Ce = "sha512,neon";
    /// ARMv8 AES instructions (AESE/AESD/AESMC/AESIMC on NEON registers).
    AesCe = "aes,neon";
    /// Advanced SIMD alone: the vector-permute (`tbl`) AES kernel.
    Neon = "neon";
    /// ARMv8 PMULL/PMULL2 (64-bit carry-less multiply): the GHASH kernel.
    Pmull = "pmull,neon";
}

/// Detected features as bits of `TABLE`.
#[cfg(target_os = "linux")]
pub(crate) fn detect() -> u64 {
    // SAFETY: getauxval has no preconditions; it returns 0 for an unknown type.
    let hw = unsafe { libc::getauxval(libc::AT_HWCAP) };
    let on = |n: u32| hw & (1 << n) != 0;
    collect(&[
        ("neon", on(1)),
        ("aes", on(3)),
        ("pmull", on(4)),
        ("sha1", on(5)),
        ("sha2", on(6)),
        ("sha3", on(17)),
        ("sha512", on(21)),
    ])
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn detect() -> u64 {
    cpufeatures::new!(has_aes, "aes");
    cpufeatures::new!(has_sha2, "sha2");
    cpufeatures::new!(has_sha3, "sha3");
    let aes = has_aes::get();
    let sha2 = has_sha2::get();
    let sha3 = has_sha3::get();
    collect(&[
        ("neon", true), // mandatory on aarch64 with an OS that saves its registers
        ("aes", aes),
        ("pmull", aes),
        ("sha1", sha2),
        ("sha2", sha2),
        ("sha3", sha3),
        ("sha512", sha3),
    ])
}

fn collect(present: &[(&str, bool)]) -> u64 {
    let mut bits = 0;
    for &(name, on) in present {
        if on {
            if let Some(b) = super::bit_of(name.as_bytes()) {
                bits |= 1 << b;
            }
        }
    }
    bits
}

#[cfg(test)]
pub(crate) fn std_detect(name: &str) -> bool {
    extern crate std;
    match name {
        "neon" => std::arch::is_aarch64_feature_detected!("neon"),
        "aes" => std::arch::is_aarch64_feature_detected!("aes"),
        "pmull" => std::arch::is_aarch64_feature_detected!("pmull"),
        "sha2" => std::arch::is_aarch64_feature_detected!("sha2"),
        "sha3" => std::arch::is_aarch64_feature_detected!("sha3"),
        _ => panic!("no std name {name}"),
    }
}

/// Our answer for a std feature name: std's `sha2` is SHA-1 and SHA-256 together, its `sha3`
/// is SHA-3 and SHA-512 together, its `aes` is AES and PMULL together.
#[cfg(test)]
pub(crate) fn std_detected(std_name: &str, f: super::Features) -> bool {
    match std_name {
        "sha2" => f.has("sha1") && f.has("sha2"),
        "sha3" => f.has("sha3") && f.has("sha512"),
        "aes" => f.has("aes") && f.has("pmull"),
        n => f.has(n),
    }
}
