//! Shared by the integration tests: the strict vector reader ([`vectors`]) and the helper that
//! runs a test on every backend the machine has ([`for_each_backend`]), which fails when a
//! backend the CPU supports was not exercised (DESIGN.md, house rule 7).
//!
//! Each test crate uses part of this module.
#![allow(dead_code)]

pub mod vectors;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use simdcrypt::cpu::Features;
use simdcrypt::sha::{Digest, Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};

/// A hash of `simdcrypt::sha` with the inherent functions the tests need (they are not in
/// the `Digest` trait).
pub trait Hash: Digest + 'static {
    /// The primitive's name in `simdcrypt::kernels()` (`"sha256"`, `"sha512-224"`, ...).
    const NAME: &'static str;
    /// `H::backends(features)`.
    fn backends(features: Features) -> Vec<(&'static str, Features)>;
    /// `H::backend_for(features)`.
    fn backend_for(features: Features) -> &'static str;
    /// `H::new()` (best kernel, `SIMDCRYPT_DISABLE` applied).
    fn new_default() -> Self;
}

macro_rules! hash {
    ($($t:ident => $name:literal),* $(,)?) => {$(
        impl Hash for $t {
            const NAME: &'static str = $name;
            fn backends(features: Features) -> Vec<(&'static str, Features)> {
                $t::backends(features).collect()
            }
            fn backend_for(features: Features) -> &'static str {
                $t::backend_for(features)
            }
            fn new_default() -> Self {
                $t::new()
            }
        }
    )*};
}

hash! {
    Sha1 => "sha1",
    Sha224 => "sha224",
    Sha256 => "sha256",
    Sha384 => "sha384",
    Sha512 => "sha512",
    Sha512_224 => "sha512-224",
    Sha512_256 => "sha512-256",
}

/// Calls `H` on each of the seven hashes (a generic "for all hashes" loop).
#[macro_export]
macro_rules! for_each_hash {
    ($f:ident) => {{
        use simdcrypt::sha::*;
        $f::<Sha1>();
        $f::<Sha224>();
        $f::<Sha256>();
        $f::<Sha384>();
        $f::<Sha512>();
        $f::<Sha512_224>();
        $f::<Sha512_256>();
    }};
}

/// Which backends ran, per hash, in this test process (for reports and the coverage test).
static RAN: Mutex<BTreeMap<&'static str, BTreeSet<&'static str>>> = Mutex::new(BTreeMap::new());

/// Runs `f(name, features)` once for every backend of `H` reachable from
/// `Features::detect()` (best first, `"soft"` last), where `features` makes `H::new_with`
/// pick that backend. Afterwards it checks, independently of simdcrypt's own detection
/// ([`expected_backends`]), that every backend the CPU supports ran, and panics otherwise.
pub fn for_each_backend<H: Hash>(mut f: impl FnMut(&'static str, Features)) {
    let mut ran = BTreeSet::new();
    for (name, features) in H::backends(Features::detect()) {
        let h = H::new_with(features);
        assert_eq!(
            h.backend(),
            name,
            "{}: backends() promised {name} for {features:?}",
            H::NAME
        );
        assert!(ran.insert(name), "{}: backend {name} listed twice", H::NAME);
        f(name, features);
    }
    RAN.lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(H::NAME)
        .or_default()
        .extend(ran.iter().copied());
    check_coverage(H::NAME, &ran);
}

/// Panics unless `ran` holds every backend [`expected_backends`] lists for `hash`.
pub fn check_coverage(hash: &str, ran: &BTreeSet<&'static str>) {
    let expected = expected_backends(hash);
    let missing: Vec<&str> = expected
        .iter()
        .copied()
        .filter(|b| !ran.contains(b))
        .collect();
    assert!(
        missing.is_empty(),
        "{hash}: backend(s) {missing:?} not exercised: the CPU supports them (std detection, \
         SIMDCRYPT_DISABLE={:?}) but simdcrypt offered only {ran:?}",
        std::env::var("SIMDCRYPT_DISABLE").ok()
    );
}

/// The backends every run ought to exercise so far in this process, per hash.
pub fn ran_so_far() -> BTreeMap<&'static str, BTreeSet<&'static str>> {
    RAN.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The backends of `hash` (a [`Hash::NAME`]) this CPU supports, by std's feature detection
/// (not simdcrypt's), less those that need a feature `SIMDCRYPT_DISABLE` names. `"soft"` is
/// always there.
///
/// Each entry is written here from the kernels' requirements, not read from simdcrypt:
/// x86_64 SHA-NI needs sha+sse4.1+ssse3 (sse2 is baseline), AVX2 needs avx2+bmi2 (and avx);
/// aarch64 SHA-1/SHA-256 need FEAT_SHA1+FEAT_SHA256 (std "sha2"), SHA-512 needs FEAT_SHA512
/// (std "sha3"); armv7 SHA-1/SHA-256 need the AArch32 SHA1/SHA2 hwcaps (which work on NEON
/// registers, so NEON too), the SHA-512 kernel needs NEON.
pub fn expected_backends(hash: &str) -> Vec<&'static str> {
    let disabled = env_disabled();
    let mut out = vec!["soft"];
    for (backend, supported, needs) in hardware_backends(hash) {
        if supported && !needs.iter().any(|n| disabled.contains(*n)) {
            out.push(backend);
        }
    }
    out
}

/// `SIMDCRYPT_DISABLE` as a set of feature names (trimmed, lower case, aliases expanded).
pub fn env_disabled() -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    let Ok(v) = std::env::var("SIMDCRYPT_DISABLE") else {
        return set;
    };
    for raw in v.split(',') {
        let n = raw.trim().to_ascii_lowercase();
        let expanded: &[&str] = match n.as_str() {
            // The aliases simdcrypt documents, for the architecture they belong to.
            #[cfg(target_arch = "x86_64")]
            "sha-ni" | "shani" | "sha_ni" => &["sha"],
            #[cfg(target_arch = "x86_64")]
            "sse4_1" => &["sse4.1"],
            #[cfg(target_arch = "x86_64")]
            "avx-512" | "avx512" => &["avx512f"],
            #[cfg(any(target_arch = "aarch64", target_arch = "arm"))]
            "asimd" => &["neon"],
            #[cfg(any(target_arch = "aarch64", target_arch = "arm"))]
            "crypto" => &["aes", "pmull", "sha1", "sha2"],
            _ => &[],
        };
        if expanded.is_empty() {
            set.insert(n);
        } else {
            set.extend(expanded.iter().map(|s| s.to_string()));
        }
    }
    set
}

type HwBackend = (&'static str, bool, &'static [&'static str]);

#[cfg(target_arch = "x86_64")]
fn hardware_backends(hash: &str) -> Vec<HwBackend> {
    let shani = std::is_x86_feature_detected!("sha")
        && std::is_x86_feature_detected!("sse4.1")
        && std::is_x86_feature_detected!("ssse3");
    let avx2 = std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("bmi2");
    const SHANI: &[&str] = &["sha", "sse2", "ssse3", "sse4.1"];
    const AVX2: &[&str] = &["avx2", "avx", "bmi2"];
    match hash {
        "sha1" => vec![("sha-ni", shani, SHANI)],
        "sha224" | "sha256" => vec![("sha-ni", shani, SHANI), ("avx2", avx2, AVX2)],
        "sha384" | "sha512" | "sha512-224" | "sha512-256" => vec![("avx2", avx2, AVX2)],
        _ => panic!("unknown hash {hash}"),
    }
}

#[cfg(target_arch = "aarch64")]
fn hardware_backends(hash: &str) -> Vec<HwBackend> {
    let sha2 = std::arch::is_aarch64_feature_detected!("sha2");
    let sha3 = std::arch::is_aarch64_feature_detected!("sha3");
    match hash {
        "sha1" => vec![("armv8-ce", sha2, &["sha1", "neon"])],
        "sha224" | "sha256" => vec![("armv8-ce", sha2, &["sha2", "neon"])],
        "sha384" | "sha512" | "sha512-224" | "sha512-256" => {
            vec![("armv8.2-sha512", sha3, &["sha512", "neon"])]
        }
        _ => panic!("unknown hash {hash}"),
    }
}

#[cfg(target_arch = "arm")]
fn hardware_backends(hash: &str) -> Vec<HwBackend> {
    let (hwcap, hwcap2) = arm_hwcaps();
    // Linux arch/arm/include/uapi/asm/hwcap.h: HWCAP_NEON = 1 << 12; HWCAP2_SHA1 = 1 << 2,
    // HWCAP2_SHA2 = 1 << 3.
    let neon = hwcap & (1 << 12) != 0;
    let sha1 = neon && hwcap2 & (1 << 2) != 0;
    let sha2 = neon && hwcap2 & (1 << 3) != 0;
    match hash {
        "sha1" => vec![("armv7-ce", sha1, &["sha1", "neon"])],
        "sha224" | "sha256" => vec![("armv7-ce", sha2, &["sha2", "neon"])],
        "sha384" | "sha512" | "sha512-224" | "sha512-256" => {
            vec![("armv7-neon", neon, &["neon"])]
        }
        _ => panic!("unknown hash {hash}"),
    }
}

/// `(AT_HWCAP, AT_HWCAP2)` from the C library (not /proc, so that the `CROSS_HWCAP_HIDE`
/// shim of `scripts/cross-test`, which wraps `getauxval`, applies as it does to simdcrypt).
#[cfg(all(target_arch = "arm", target_os = "linux"))]
fn arm_hwcaps() -> (u64, u64) {
    use core::ffi::c_ulong;
    unsafe extern "C" {
        fn getauxval(kind: c_ulong) -> c_ulong;
    }
    const AT_HWCAP: c_ulong = 16;
    const AT_HWCAP2: c_ulong = 26;
    // SAFETY: glibc's getauxval has no preconditions; it returns 0 for an absent entry.
    let hw = unsafe { getauxval(AT_HWCAP) };
    // SAFETY: as above.
    let hw2 = unsafe { getauxval(AT_HWCAP2) };
    (u64::from(hw), u64::from(hw2))
}

#[cfg(all(target_arch = "arm", not(target_os = "linux")))]
fn arm_hwcaps() -> (u64, u64) {
    (0, 0)
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64", target_arch = "arm")))]
fn hardware_backends(hash: &str) -> Vec<HwBackend> {
    let _ = hash;
    Vec::new()
}

/// Bytes as lower-case hex, for messages.
pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
