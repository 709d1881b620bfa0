//! Shared by the integration tests: the strict vector reader ([`vectors`]) and the helpers that
//! run a test on every backend the machine has ([`for_each_backend`] for hashes,
//! [`for_each_cipher_backend`] for AES), which fail when a backend the CPU supports was not
//! exercised (DESIGN.md, house rule 7).
//!
//! Each test crate uses part of this module.
#![allow(dead_code)]

pub mod chacha;
pub mod gcm;
pub mod gcm_ref;
pub mod json;
pub mod vectors;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use simdcrypt::aes::{Aes128, Aes192, Aes256, BlockCipher};
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

/// An AES key type of `simdcrypt::aes` (`Aes128`, `Aes192`, `Aes256`) with the inherent
/// functions the tests need (they are not in the `BlockCipher` trait).
pub trait Cipher: BlockCipher + core::fmt::Debug + Sized + 'static {
    /// The primitive's name for coverage reports (`"aes128"`, ...).
    const NAME: &'static str;
    /// `C::backends(features)`.
    fn backends(features: Features) -> Vec<(&'static str, Features)>;
    /// `C::backend_for(features)`.
    fn backend_for(features: Features) -> &'static str;
    /// `C::new_with(features, key)`; panics unless `key.len() == C::KEY_LEN`.
    fn with(features: Features, key: &[u8]) -> Self;
    /// `C::from_slice(key)` (best kernel, `SIMDCRYPT_DISABLE` applied).
    fn from_slice(key: &[u8]) -> Result<Self, simdcrypt::Error>;
    /// `C::encrypt_block`.
    fn encrypt_block(&self, block: &mut [u8; 16]);
    /// `C::decrypt_block`.
    fn decrypt_block(&self, block: &mut [u8; 16]);
    /// `C::encrypt_blocks`.
    fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]);
    /// `C::decrypt_blocks`.
    fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]);
}

macro_rules! cipher {
    ($($t:ident => $name:literal),* $(,)?) => {$(
        impl Cipher for $t {
            const NAME: &'static str = $name;
            fn backends(features: Features) -> Vec<(&'static str, Features)> {
                $t::backends(features).collect()
            }
            fn backend_for(features: Features) -> &'static str {
                $t::backend_for(features)
            }
            fn with(features: Features, key: &[u8]) -> Self {
                let key = key.try_into().unwrap_or_else(|_| {
                    panic!("{}: key of {} bytes", $name, key.len())
                });
                $t::new_with(features, key)
            }
            fn from_slice(key: &[u8]) -> Result<Self, simdcrypt::Error> {
                $t::from_slice(key)
            }
            fn encrypt_block(&self, block: &mut [u8; 16]) {
                $t::encrypt_block(self, block)
            }
            fn decrypt_block(&self, block: &mut [u8; 16]) {
                $t::decrypt_block(self, block)
            }
            fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
                $t::encrypt_blocks(self, blocks)
            }
            fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
                $t::decrypt_blocks(self, blocks)
            }
        }
    )*};
}

cipher! {
    Aes128 => "aes128",
    Aes192 => "aes192",
    Aes256 => "aes256",
}

/// Calls `f` on each of the three AES key sizes (a generic "for all ciphers" loop).
#[macro_export]
macro_rules! for_each_cipher {
    ($f:ident) => {{
        use simdcrypt::aes::*;
        $f::<Aes128>();
        $f::<Aes192>();
        $f::<Aes256>();
    }};
}

/// Which backends ran, per primitive, in this test process (for reports and the coverage test).
static RAN: Mutex<BTreeMap<&'static str, BTreeSet<&'static str>>> = Mutex::new(BTreeMap::new());

/// Runs `f(name, features)` once for every backend of `H` reachable from
/// `Features::detect()` (best first, `"soft"` last), where `features` makes `H::new_with`
/// pick that backend. Afterwards it checks, independently of simdcrypt's own detection
/// ([`expected_backends`]), that every backend the CPU supports ran, and panics otherwise.
pub fn for_each_backend<H: Hash>(f: impl FnMut(&'static str, Features)) {
    run_on_backends(
        H::NAME,
        H::backends(Features::detect()),
        |features| H::new_with(features).backend(),
        f,
    );
}

/// [`for_each_backend`] for an AES key size: runs `f(name, features)` once for every kernel of
/// `C` reachable from `Features::detect()` (best first, the portable one last), where
/// `C::with(features, key)` picks that kernel, then checks that every kernel the CPU supports
/// ran ([`expected_backends`]) and panics otherwise.
pub fn for_each_cipher_backend<C: Cipher>(f: impl FnMut(&'static str, Features)) {
    let key = vec![0u8; C::KEY_LEN];
    run_on_backends(
        C::NAME,
        C::backends(Features::detect()),
        |features| C::with(features, &key).backend(),
        f,
    );
}

/// The loop behind [`for_each_backend`] and [`for_each_cipher_backend`]: `backend_of(features)`
/// builds an object with `features` and returns the backend it reports.
fn run_on_backends(
    primitive: &'static str,
    backends: Vec<(&'static str, Features)>,
    backend_of: impl Fn(Features) -> &'static str,
    mut f: impl FnMut(&'static str, Features),
) {
    let mut ran = BTreeSet::new();
    for (name, features) in backends {
        assert_eq!(
            backend_of(features),
            name,
            "{primitive}: backends() promised {name} for {features:?}"
        );
        assert!(ran.insert(name), "{primitive}: backend {name} listed twice");
        f(name, features);
    }
    RAN.lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(primitive)
        .or_default()
        .extend(ran.iter().copied());
    check_coverage(primitive, &ran);
}

/// Panics unless `ran` holds every backend [`expected_backends`] lists for `hash` (a
/// [`Hash::NAME`], [`Cipher::NAME`], AES-GCM or ChaCha20-Poly1305 name). AES-GCM backends are
/// pairs `"<aes>+<ghash>"`, ChaCha20-Poly1305 ones `"<chacha20>+<poly1305>"`: each half counts
/// as a kernel that ran.
pub fn check_coverage(hash: &str, ran: &BTreeSet<&'static str>) {
    let expected = expected_backends(hash);
    let ran_kernels: BTreeSet<&'static str> = if is_gcm(hash) || is_chacha_poly(hash) {
        ran.iter()
            .flat_map(|n| {
                let (aes, ghash) = n
                    .split_once('+')
                    .unwrap_or_else(|| panic!("{hash}: backend {n:?} is not a pair \"<a>+<b>\""));
                [aes, ghash]
            })
            .collect()
    } else {
        ran.clone()
    };
    let missing: Vec<&str> = expected
        .iter()
        .copied()
        .filter(|b| !ran_kernels.contains(b))
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

/// The backends of `hash` (a [`Hash::NAME`] or [`Cipher::NAME`]) this CPU supports, by std's
/// feature detection (not simdcrypt's), less those that need a feature `SIMDCRYPT_DISABLE`
/// names. The portable kernel (`"soft"` for hashes, `"bitsliced-64"`/`"bitsliced-32"` for
/// AES, `"ctmul-64"`/`"ctmul-32"` for GHASH) is always there. For AES-GCM
/// (`"aes128-gcm"`, ...) the list holds the AES kernels followed by the GHASH kernels (the
/// primitive `"ghash"`): every one of them must appear in some `"<aes>+<ghash>"` pair.
///
/// Each entry is written here from the kernels' requirements, not read from simdcrypt:
/// x86_64 SHA-NI needs sha+sse4.1+ssse3 (sse2 is baseline), AVX2 needs avx2+bmi2 (and avx);
/// aarch64 SHA-1/SHA-256 need FEAT_SHA1+FEAT_SHA256 (std "sha2"), the NEON SHA-256 kernel
/// (schedule on NEON, scalar rounds) NEON, SHA-512 needs FEAT_SHA512 (std "sha3"); armv7 SHA-1/SHA-256 need the AArch32 SHA1/SHA2 hwcaps (which work on NEON
/// registers, so NEON too), the SHA-512 kernel needs NEON. AES: see `aes_backends`.
///
/// ChaCha20 (`"chacha20"`) and Poly1305 (`"poly1305"`): x86_64 AVX-512 kernels need
/// avx512f+avx512vl with AVX2 (the IFMA Poly1305 kernel also avx512ifma), AVX2 ones avx2+avx,
/// the SSSE3 ChaCha20 kernel ssse3 (sse2 is baseline, and the SSE2 kernel needs only that);
/// the aarch64 and armv7 kernels need NEON. The AEADs (`"chacha20-poly1305"`,
/// `"xchacha20-poly1305"`, `"openssh-chacha20-poly1305"`) list the ChaCha20 kernels followed
/// by the Poly1305 kernels, like AES-GCM.
pub fn expected_backends(hash: &str) -> Vec<&'static str> {
    if is_gcm(hash) {
        let mut out = expected_backends("aes128");
        out.extend(expected_backends("ghash"));
        return out;
    }
    if is_chacha_poly(hash) {
        let mut out = expected_backends("chacha20");
        out.extend(expected_backends("poly1305"));
        return out;
    }
    let disabled = env_disabled();
    let mut out = vec![portable_backend(hash)];
    for (backend, supported, needs) in hardware_backends(hash) {
        if supported && !needs.iter().any(|n| disabled.contains(*n)) {
            out.push(backend);
        }
    }
    out
}

/// The portable kernel's name for `primitive` on this target (for AES-GCM, the pair of the
/// portable AES and GHASH kernels).
pub fn portable_backend(primitive: &str) -> &'static str {
    if is_chacha_poly(primitive) {
        if cfg!(target_pointer_width = "64") {
            "soft+soft-64"
        } else {
            "soft+soft-32"
        }
    } else if primitive == "poly1305" {
        if cfg!(target_pointer_width = "64") {
            "soft-64"
        } else {
            "soft-32"
        }
    } else if is_gcm(primitive) {
        if cfg!(target_pointer_width = "64") {
            "bitsliced-64+ctmul-64"
        } else {
            "bitsliced-32+ctmul-32"
        }
    } else if primitive == "ghash" {
        if cfg!(target_pointer_width = "64") {
            "ctmul-64"
        } else {
            "ctmul-32"
        }
    } else if is_aes(primitive) {
        if cfg!(target_pointer_width = "64") {
            "bitsliced-64"
        } else {
            "bitsliced-32"
        }
    } else {
        "soft"
    }
}

fn is_aes(primitive: &str) -> bool {
    matches!(primitive, "aes128" | "aes192" | "aes256")
}

fn is_gcm(primitive: &str) -> bool {
    matches!(primitive, "aes128-gcm" | "aes192-gcm" | "aes256-gcm")
}

fn is_chacha_poly(primitive: &str) -> bool {
    matches!(
        primitive,
        "chacha20-poly1305" | "xchacha20-poly1305" | "openssh-chacha20-poly1305"
    )
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
            #[cfg(target_arch = "x86_64")]
            "aesni" | "aes-ni" => &["aes"],
            #[cfg(target_arch = "x86_64")]
            "clmul" | "pclmul" => &["pclmulqdq"],
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

/// Whether simdcrypt's assembly kernels are built in: build.rs sets `cfg(simdcrypt_asm)` (for
/// this test crate as for the library) only on ELF targets other than `none`, and not under
/// `SIMDCRYPT_NO_ASM=1`. An assembly-only kernel (`vaes-*`, `gfni-avx512`, `bitsliced-avx512`,
/// `vpclmul-*`, ChaCha20 `avx512`, Poly1305 `avx512`/`avx512-ifma`) needs it as it needs its
/// CPU features: without it the CPU's support for that kernel does not make it expected. On
/// armv7 every kernel but the portable ones is assembly.
#[cfg(any(target_arch = "x86_64", target_arch = "arm"))]
const ASM: bool = cfg!(simdcrypt_asm);

#[cfg(target_arch = "x86_64")]
fn hardware_backends(hash: &str) -> Vec<HwBackend> {
    if is_aes(hash) {
        return aes_backends();
    }
    if hash == "ghash" {
        return ghash_backends();
    }
    if hash == "chacha20" || hash == "poly1305" {
        return chacha_poly_backends(hash);
    }
    let shani = std::is_x86_feature_detected!("sha")
        && std::is_x86_feature_detected!("sse4.1")
        && std::is_x86_feature_detected!("ssse3");
    let avx2 = std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("bmi2");
    let avx512 = avx2
        && std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512vl");
    const SHANI: &[&str] = &["sha", "sse2", "ssse3", "sse4.1"];
    const AVX2: &[&str] = &["avx2", "avx", "bmi2"];
    const AVX512: &[&str] = &["avx512f", "avx512vl", "avx2", "avx", "bmi2"];
    match hash {
        "sha1" => vec![("sha-ni", shani, SHANI)],
        "sha224" | "sha256" => vec![
            ("sha-ni", shani, SHANI),
            ("avx512", avx512, AVX512),
            ("avx2", avx2, AVX2),
        ],
        "sha384" | "sha512" | "sha512-224" | "sha512-256" => {
            vec![("avx512", avx512, AVX512), ("avx2", avx2, AVX2)]
        }
        _ => panic!("unknown hash {hash}"),
    }
}

#[cfg(target_arch = "aarch64")]
fn hardware_backends(hash: &str) -> Vec<HwBackend> {
    if is_aes(hash) {
        return aes_backends();
    }
    if hash == "ghash" {
        return ghash_backends();
    }
    if hash == "chacha20" || hash == "poly1305" {
        // Both kernels are "neon" (FEAT_AdvSIMD).
        let neon = std::arch::is_aarch64_feature_detected!("neon");
        return vec![("neon", neon, &["neon"])];
    }
    let sha2 = std::arch::is_aarch64_feature_detected!("sha2");
    let sha3 = std::arch::is_aarch64_feature_detected!("sha3");
    let neon = std::arch::is_aarch64_feature_detected!("neon");
    match hash {
        "sha1" => vec![("armv8-ce", sha2, &["sha1", "neon"])],
        "sha224" | "sha256" => vec![
            ("armv8-ce", sha2, &["sha2", "neon"]),
            ("neon", neon, &["neon"]),
        ],
        "sha384" | "sha512" | "sha512-224" | "sha512-256" => {
            vec![("armv8.2-sha512", sha3, &["sha512", "neon"])]
        }
        _ => panic!("unknown hash {hash}"),
    }
}

#[cfg(target_arch = "arm")]
fn hardware_backends(hash: &str) -> Vec<HwBackend> {
    if is_aes(hash) {
        return aes_backends();
    }
    if hash == "ghash" {
        return ghash_backends();
    }
    let (hwcap, hwcap2) = arm_hwcaps();
    if hash == "chacha20" || hash == "poly1305" {
        // Both kernels are "armv7-neon" (asm, HWCAP_NEON = 1 << 12).
        return vec![("armv7-neon", ASM && hwcap & (1 << 12) != 0, &["neon"])];
    }
    // Linux arch/arm/include/uapi/asm/hwcap.h: HWCAP_NEON = 1 << 12; HWCAP2_SHA1 = 1 << 2,
    // HWCAP2_SHA2 = 1 << 3.
    let neon = ASM && hwcap & (1 << 12) != 0;
    let sha1 = neon && hwcap2 & (1 << 2) != 0;
    let sha2 = neon && hwcap2 & (1 << 3) != 0;
    match hash {
        "sha1" => vec![
            ("armv7-ce", sha1, &["sha1", "neon"]),
            ("armv7-neon", neon, &["neon"]),
        ],
        "sha224" | "sha256" => vec![
            ("armv7-ce", sha2, &["sha2", "neon"]),
            ("armv7-neon", neon, &["neon"]),
        ],
        "sha384" | "sha512" | "sha512-224" | "sha512-256" => {
            vec![("armv7-neon", neon, &["neon"])]
        }
        _ => panic!("unknown hash {hash}"),
    }
}

/// The AES kernels of x86_64, best first (the portable one is added by [`expected_backends`]):
/// VAES on zmm needs vaes+aes with AVX-512 F/VL/BW and AVX2; VAES on ymm needs vaes+aes+avx2;
/// AES-NI needs aes with SSE2..SSE4.1; the bitsliced AVX-512 kernel needs avx512f, avx512bw
/// and AVX2; the bitsliced AVX2 kernel needs avx2 (and avx); vpaes needs SSSE3.
#[cfg(target_arch = "x86_64")]
fn aes_backends() -> Vec<HwBackend> {
    use std::is_x86_feature_detected as has;
    let vaes_avx2 = ASM && has!("vaes") && has!("aes") && has!("avx2") && has!("avx");
    let vaes_avx512 = vaes_avx2 && has!("avx512f") && has!("avx512vl") && has!("avx512bw");
    let aesni = has!("aes") && has!("sse2") && has!("ssse3") && has!("sse4.1");
    let avx2 = has!("avx2") && has!("avx");
    let ssse3 = has!("ssse3") && has!("sse2");
    vec![
        (
            "vaes-avx512",
            vaes_avx512,
            &[
                "avx512f", "avx512vl", "avx512bw", "vaes", "aes", "avx2", "avx",
            ],
        ),
        ("vaes-avx2", vaes_avx2, &["vaes", "aes", "avx2", "avx"]),
        ("aes-ni", aesni, &["aes", "sse2", "ssse3", "sse4.1"]),
        (
            "gfni-avx512",
            ASM && avx2 && has!("gfni") && has!("avx512f") && has!("avx512bw") && has!("bmi2"),
            &["gfni", "avx512f", "avx512bw", "avx2", "avx", "bmi2"],
        ),
        (
            "bitsliced-avx512",
            ASM && avx2 && has!("avx512f") && has!("avx512bw"),
            &["avx512f", "avx512bw", "avx2", "avx"],
        ),
        ("bitsliced-avx2", avx2, &["avx2", "avx"]),
        ("vpaes-ssse3", ssse3, &["ssse3", "sse2"]),
    ]
}

/// The ChaCha20 or Poly1305 kernels of x86_64, best first (the portable one is added by
/// [`expected_backends`]): see there for what each needs.
#[cfg(target_arch = "x86_64")]
fn chacha_poly_backends(primitive: &str) -> Vec<HwBackend> {
    use std::is_x86_feature_detected as has;
    let avx2 = has!("avx2") && has!("avx");
    let avx512 = ASM && avx2 && has!("avx512f") && has!("avx512vl");
    let ifma = avx512 && has!("avx512ifma");
    const AVX512: &[&str] = &["avx512f", "avx512vl", "avx2", "avx"];
    const AVX2: &[&str] = &["avx2", "avx"];
    match primitive {
        "chacha20" => vec![
            ("avx512", avx512, AVX512),
            ("avx2", avx2, AVX2),
            ("ssse3", has!("ssse3"), &["ssse3", "sse2"]),
            ("sse2", has!("sse2"), &["sse2"]),
        ],
        "poly1305" => vec![
            (
                "avx512-ifma",
                ifma,
                &["avx512ifma", "avx512f", "avx512vl", "avx2", "avx"],
            ),
            ("avx512", avx512, AVX512),
            ("avx2", avx2, AVX2),
        ],
        _ => panic!("unknown primitive {primitive}"),
    }
}

/// The AES kernels of aarch64: ARMv8 AESE/AESD (FEAT_AES, std "aes"), the NEON bitsliced
/// kernel (which runs the serial modes and short calls on its vpaes-neon key).
#[cfg(target_arch = "aarch64")]
fn aes_backends() -> Vec<HwBackend> {
    let neon = std::arch::is_aarch64_feature_detected!("neon");
    let aes = neon && std::arch::is_aarch64_feature_detected!("aes");
    vec![
        ("armv8-ce", aes, &["aes", "neon"]),
        ("bitsliced-neon", neon, &["neon"]),
    ]
}

/// The AES kernels of armv7: the AArch32 AES instructions (HWCAP2_AES, on NEON registers),
/// the NEON bitsliced kernel.
#[cfg(target_arch = "arm")]
fn aes_backends() -> Vec<HwBackend> {
    let (hwcap, hwcap2) = arm_hwcaps();
    // Linux arch/arm/include/uapi/asm/hwcap.h: HWCAP_NEON = 1 << 12, HWCAP2_AES = 1 << 0.
    let neon = ASM && hwcap & (1 << 12) != 0;
    let aes = neon && hwcap2 & 1 != 0;
    vec![
        ("armv7-ce", aes, &["aes", "neon"]),
        ("bitsliced-neon", neon, &["neon"]),
    ]
}

/// The GHASH kernels of x86_64, best first (the portable one is added by
/// [`expected_backends`]): VPCLMULQDQ on zmm needs vpclmulqdq+pclmulqdq with AVX-512 F/VL/BW
/// and AVX2; on ymm vpclmulqdq+pclmulqdq+avx2; the 128-bit kernel needs pclmulqdq with SSE2 and
/// SSSE3 (`pshufb` for the byte reflection); the constant-time `vpmuludq` kernel needs avx2+avx.
#[cfg(target_arch = "x86_64")]
fn ghash_backends() -> Vec<HwBackend> {
    use std::is_x86_feature_detected as has;
    let vpclmul_avx2 =
        ASM && has!("vpclmulqdq") && has!("pclmulqdq") && has!("avx2") && has!("avx");
    let vpclmul_avx512 = vpclmul_avx2 && has!("avx512f") && has!("avx512vl") && has!("avx512bw");
    let clmul = has!("pclmulqdq") && has!("sse2") && has!("ssse3");
    vec![
        (
            "vpclmul-avx512",
            vpclmul_avx512,
            &[
                "avx512f",
                "avx512vl",
                "avx512bw",
                "vpclmulqdq",
                "pclmulqdq",
                "avx2",
                "avx",
            ],
        ),
        (
            "vpclmul-avx2",
            vpclmul_avx2,
            &["vpclmulqdq", "pclmulqdq", "avx2", "avx"],
        ),
        ("clmul", clmul, &["pclmulqdq", "sse2", "ssse3"]),
        ("ctmul-avx2", has!("avx2") && has!("avx"), &["avx2", "avx"]),
    ]
}

/// The GHASH kernels of aarch64: PMULL/PMULL2 (FEAT_PMULL; std reports it as part of "aes"),
/// then the NEON kernel built on the 8-bit polynomial multiply (base AdvSIMD).
#[cfg(target_arch = "aarch64")]
fn ghash_backends() -> Vec<HwBackend> {
    let neon = std::arch::is_aarch64_feature_detected!("neon");
    let pmull = neon && std::arch::is_aarch64_feature_detected!("aes");
    vec![
        ("pmull", pmull, &["pmull", "neon"]),
        ("neon-pmull8", neon, &["neon"]),
    ]
}

/// The GHASH kernels of armv7: `vmull.p64` (HWCAP2_PMULL, on NEON registers), then the NEON
/// `vmull.p8` kernel.
#[cfg(target_arch = "arm")]
fn ghash_backends() -> Vec<HwBackend> {
    let (hwcap, hwcap2) = arm_hwcaps();
    // Linux arch/arm/include/uapi/asm/hwcap.h: HWCAP_NEON = 1 << 12, HWCAP2_PMULL = 1 << 1.
    let neon = ASM && hwcap & (1 << 12) != 0;
    let pmull = neon && hwcap2 & (1 << 1) != 0;
    vec![
        ("armv7-pmull", pmull, &["pmull", "neon"]),
        ("armv7-neon", neon, &["neon"]),
    ]
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
