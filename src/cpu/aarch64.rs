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

/// `HWCAP_CPUID` (`arch/arm64/include/uapi/asm/hwcap.h`): the kernel emulates EL0 reads of
/// the ID registers, MIDR_EL1 among them.
#[cfg(target_os = "linux")]
const HWCAP_CPUID: libc::c_ulong = 1 << 11;

/// The core model, by the rules of `aarch64_cores` (sysfs first, then `mrs`; see there why).
#[cfg(target_os = "linux")]
pub(crate) fn identify() -> super::aarch64_cores::Identified {
    use super::aarch64_cores::Identified;
    #[cfg(feature = "std")]
    {
        let id = identify_sysfs();
        if id != Identified::Unknown {
            return id;
        }
    }
    // SAFETY: getauxval has no preconditions; it returns 0 for an unknown type.
    let hw = unsafe { libc::getauxval(libc::AT_HWCAP) };
    if hw & HWCAP_CPUID == 0 {
        return Identified::Unknown;
    }
    let midr: u64;
    // SAFETY: with HWCAP_CPUID the kernel traps and emulates this EL0 read of MIDR_EL1
    // (Documentation/arch/arm64/cpu-feature-registers.rst) instead of raising SIGILL; the
    // instruction reads a system register into a general register and nothing else.
    unsafe {
        core::arch::asm!(
            "mrs {}, midr_el1",
            out(reg) midr,
            options(nomem, nostack, preserves_flags)
        );
    }
    Identified::Same {
        midr,
        cpus: 1,
        sysfs: false,
    }
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn identify() -> super::aarch64_cores::Identified {
    super::aarch64_cores::Identified::Unknown
}

/// Every online CPU's `regs/identification/midr_el1` under `/sys/devices/system/cpu`
/// (`cpuN` directories; offline CPUs have no such file and are skipped). `Unknown` when
/// there is none (no sysfs, kernel before 4.11, qemu-user on another architecture).
#[cfg(all(target_os = "linux", feature = "std"))]
fn identify_sysfs() -> super::aarch64_cores::Identified {
    extern crate std;
    use std::string::String;
    use std::vec::Vec;
    let Ok(dir) = std::fs::read_dir("/sys/devices/system/cpu") else {
        return super::aarch64_cores::Identified::Unknown;
    };
    let mut texts: Vec<Option<String>> = Vec::new();
    for entry in dir.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        let is_cpu = name
            .strip_prefix("cpu")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if !is_cpu {
            continue;
        }
        let path = entry.path().join("regs/identification/midr_el1");
        match std::fs::read(&path) {
            Ok(bytes) => texts.push(String::from_utf8(bytes).ok()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            // Present but unreadable: a core of unknown model.
            Err(_) => texts.push(None),
        }
    }
    super::aarch64_cores::combine_sysfs(texts.iter().map(|t| t.as_deref()))
}

/// The tuning bits of the identified core.
pub(crate) fn tuning() -> u64 {
    super::aarch64_cores::tuning(identify().core())
}

/// `cpu::core()` on aarch64.
pub(crate) fn core_info() -> super::CoreInfo {
    use super::aarch64_cores::{Identified, changes};
    let id = identify();
    let core = id.core();
    let (midr, source) = match id {
        Identified::Unknown => (
            None,
            "MIDR_EL1 not readable (no sysfs midr_el1 files, no HWCAP_CPUID): default order",
        ),
        Identified::Mixed { first, .. } => (
            Some(first),
            "CPUs of different models (big.LITTLE) or an unreadable midr_el1 file: default order",
        ),
        Identified::Same { midr, sysfs, .. } => (
            Some(midr),
            match (sysfs, core.is_some()) {
                (true, true) => "MIDR_EL1 of every CPU (sysfs), all this model",
                (true, false) => {
                    "MIDR_EL1 of every CPU (sysfs); a model without per-core figures: default order"
                }
                (false, true) => {
                    "MIDR_EL1 of the current CPU, read by mrs (emulated for EL0: HWCAP_CPUID)"
                }
                (false, false) => {
                    "MIDR_EL1 of the current CPU, read by mrs (emulated for EL0: HWCAP_CPUID); a model without per-core figures: default order"
                }
            },
        ),
    };
    super::CoreInfo {
        name: core.map(|c| c.name()),
        midr,
        source,
        changes: changes(core),
    }
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
