//! x86_64 detection: CPUID leaves 1 and 7, and XGETBV, so that AVX and AVX-512 count only when
//! the OS saves their registers (a VM may advertise AVX-512 in CPUID yet leave it disabled in
//! XCR0; using it would raise #UD).
//!
//! CPUID bit positions: Intel SDM vol. 2A, CPUID, tables 3-10/3-11 (leaf 1) and 3-8 (leaf 7).
//! XCR0 bits: SDM vol. 1, 13.3: 1 SSE, 2 AVX, 5 opmask, 6 ZMM_Hi256, 7 Hi16_ZMM.

use super::FeatureInfo;

const fn f(name: &'static str, description: &'static str) -> FeatureInfo {
    FeatureInfo {
        name,
        target_feature: name,
        std_name: Some(name),
        description,
    }
}

/// The x86_64 feature table (bit order). Names are the `#[target_feature]` names.
pub(crate) const TABLE: &[FeatureInfo] = &[
    f("sse2", "SSE2 (baseline on x86_64)"),
    f("ssse3", "SSSE3 (pshufb byte shuffles)"),
    f("sse4.1", "SSE4.1"),
    f("sse4.2", "SSE4.2"),
    f("avx", "AVX (256-bit registers, OS-enabled)"),
    f("avx2", "AVX2 (256-bit integer SIMD)"),
    f("bmi1", "BMI1"),
    f("bmi2", "BMI2 (rorx, mulx)"),
    f("adx", "ADX (adcx/adox)"),
    f("aes", "AES-NI"),
    f("pclmulqdq", "PCLMULQDQ (carry-less multiply)"),
    f("sha", "SHA-NI (SHA-1/SHA-256 instructions)"),
    f("avx512f", "AVX-512 Foundation (OS-enabled)"),
    f("avx512vl", "AVX-512 VL"),
    f("avx512bw", "AVX-512 BW"),
    f("avx512dq", "AVX-512 DQ"),
    f("avx512ifma", "AVX-512 IFMA (52-bit multiply)"),
    f("vaes", "VAES (AES on 256/512-bit vectors)"),
    f("vpclmulqdq", "VPCLMULQDQ (carry-less multiply on vectors)"),
    f("gfni", "GFNI"),
];

/// `SIMDCRYPT_DISABLE` aliases: OpenSSL-ish spellings users type.
pub(crate) fn alias(name: &str) -> Option<&'static str> {
    Some(match name {
        "aesni" | "aes-ni" => "aes",
        "clmul" | "pclmul" => "pclmulqdq",
        "sha-ni" | "shani" | "sha_ni" => "sha",
        "avx512" | "avx-512" => "avx512f",
        "sse4_1" => "sse4.1",
        "sse4_2" => "sse4.2",
        _ => return None,
    })
}

crate::cpu::tokens! {
    /// SHA-NI with the SSE levels its kernels use.
    ShaNi = "sha,sse2,ssse3,sse4.1";
    /// AVX2 with BMI2 (`rorx`): the message-schedule-vectorised SHA-2 kernels.
    Avx2Bmi2 = "avx2,avx,bmi2";
    /// AES-NI with the SSE levels its kernels use (`pshufb` for the CTR counter).
    AesNi = "aes,sse2,ssse3,sse4.1";
    /// VAES on 256-bit registers (assembly kernels; the key schedule is AES-NI's).
    // Used by assembly kernels only (build.rs: `simdcrypt_asm`).
    #[cfg_attr(not(simdcrypt_asm), allow(dead_code))]
    VaesAvx2 = "vaes,aes,avx2,avx";
    /// VAES on 512-bit registers (assembly kernels; the key schedule is AES-NI's). Listed
    /// first, `avx512vl` is the key that `backends()` drops to step down to VAES on ymm: it
    /// keeps `avx512f`, which the bitsliced AVX-512 AES further down needs.
    // Used by assembly kernels only (build.rs: `simdcrypt_asm`).
    #[cfg_attr(not(simdcrypt_asm), allow(dead_code))]
    VaesAvx512 = "avx512vl,avx512f,avx512bw,vaes,aes,avx2,avx";
    /// SSSE3 byte shuffles: the vector-permute AES kernel.
    Ssse3 = "ssse3,sse2";
    /// AVX2 alone: the bitsliced AES kernel (logic, shifts and byte shuffles on 256 bits).
    Avx2 = "avx2,avx";
    /// PCLMULQDQ with `pshufb` (SSSE3): the 128-bit GHASH kernel.
    Clmul = "pclmulqdq,sse2,ssse3";
    /// VPCLMULQDQ on 512-bit registers (assembly GHASH kernel; powers of H from `Clmul`'s code).
    /// Keyed by `avx512vl` as `VaesAvx512` is (the AES-GCM pairs step both the same way).
    // Used by assembly kernels only (build.rs: `simdcrypt_asm`).
    #[cfg_attr(not(simdcrypt_asm), allow(dead_code))]
    VpclmulAvx512 = "avx512vl,avx512f,avx512bw,vpclmulqdq,pclmulqdq,avx2,avx";
    /// VPCLMULQDQ on 256-bit registers (assembly GHASH kernel; powers of H from `Clmul`'s code).
    // Used by assembly kernels only (build.rs: `simdcrypt_asm`).
    #[cfg_attr(not(simdcrypt_asm), allow(dead_code))]
    VpclmulAvx2 = "vpclmulqdq,pclmulqdq,avx2,avx";
    /// SSE2 alone (the x86_64 baseline): the 4-way ChaCha20 kernel with shift rotations.
    Sse2 = "sse2";
    /// AVX-512 on zmm and ymm/xmm with EVEX (`vprold`): ChaCha20 and Poly1305 assembly kernels.
    // Used by assembly kernels only (build.rs: `simdcrypt_asm`).
    #[cfg_attr(not(simdcrypt_asm), allow(dead_code))]
    Avx512 = "avx512f,avx512vl,avx2,avx";
    /// AVX alone (VEX encoding): the stitched AES-NI + PCLMULQDQ AES-GCM assembly kernel.
    // Used by assembly kernels only (build.rs: `simdcrypt_asm`).
    #[cfg_attr(not(simdcrypt_asm), allow(dead_code))]
    Avx = "avx";
    /// AVX-512 with byte shuffles on zmm (`vpshufb`, AVX512BW): the bitsliced AES assembly kernel.
    // Used by assembly kernels only (build.rs: `simdcrypt_asm`).
    #[cfg_attr(not(simdcrypt_asm), allow(dead_code))]
    Avx512Bw = "avx512f,avx512bw,avx2,avx";
    /// AVX-512 IFMA (52-bit multiply-add): the Poly1305 IFMA assembly kernel.
    // Used by assembly kernels only (build.rs: `simdcrypt_asm`).
    #[cfg_attr(not(simdcrypt_asm), allow(dead_code))]
    Avx512Ifma = "avx512ifma,avx512f,avx512vl,avx2,avx";
    /// AVX-512 on ymm/xmm (`vprorq`, `vpternlogq`) with BMI2 (`rorx`): SHA-2 kernels whose
    /// message schedule uses EVEX rotations and three-input logic.
    Avx512Bmi2 = "avx512f,avx512vl,avx2,avx,bmi2";
    /// GFNI affine transforms on zmm with `vpternlogd` and byte shuffles, and BMI2 (`bzhi`
    /// masks): the AES kernel for CPUs (or VMs) that show GFNI but hide AES-NI. Keyed by
    /// `gfni`, and without `avx512vl`, which the walk of `backends()` has dropped by then.
    // Used by assembly kernels only (build.rs: `simdcrypt_asm`).
    #[cfg_attr(not(simdcrypt_asm), allow(dead_code))]
    GfniAvx512 = "gfni,avx512f,avx512bw,avx2,avx,bmi2";
}

const fn bit(reg: u32, n: u32) -> bool {
    reg & (1 << n) != 0
}

/// Detected features as bits of `TABLE`.
// `__cpuid` is a safe function in newer Rust but `unsafe` on our MSRV (1.85).
#[allow(unused_unsafe)]
pub(crate) fn detect() -> u64 {
    use core::arch::x86_64::{__cpuid, __cpuid_count};
    // SAFETY: CPUID exists on every x86_64 CPU; leaf 0 reports the highest leaf.
    let max_leaf = unsafe { __cpuid(0) }.eax;
    // SAFETY: leaf 1 exists on every x86_64 CPU.
    let l1 = unsafe { __cpuid(1) };
    let l7 = if max_leaf >= 7 {
        // SAFETY: leaf 7 exists (max_leaf >= 7).
        unsafe { __cpuid_count(7, 0) }
    } else {
        // SAFETY: leaf 0 always exists; its values are replaced below.
        let mut r = unsafe { __cpuid(0) };
        r.ebx = 0;
        r.ecx = 0;
        r.edx = 0;
        r
    };
    let osxsave = bit(l1.ecx, 27);
    let xcr0 = if osxsave { xgetbv0() } else { 0 };
    let os_avx = xcr0 & 0b110 == 0b110;
    let os_avx512 = os_avx && xcr0 & 0b1110_0000 == 0b1110_0000;

    let avx = os_avx && bit(l1.ecx, 28);
    let avx512f = os_avx512 && bit(l7.ebx, 16);
    let present = [
        ("sse2", bit(l1.edx, 26)),
        ("ssse3", bit(l1.ecx, 9)),
        ("sse4.1", bit(l1.ecx, 19)),
        ("sse4.2", bit(l1.ecx, 20)),
        ("avx", avx),
        ("avx2", avx && bit(l7.ebx, 5)),
        ("bmi1", bit(l7.ebx, 3)),
        ("bmi2", bit(l7.ebx, 8)),
        ("adx", bit(l7.ebx, 19)),
        ("aes", bit(l1.ecx, 25)),
        ("pclmulqdq", bit(l1.ecx, 1)),
        ("sha", bit(l7.ebx, 29)),
        ("avx512f", avx512f),
        ("avx512vl", avx512f && bit(l7.ebx, 31)),
        ("avx512bw", avx512f && bit(l7.ebx, 30)),
        ("avx512dq", avx512f && bit(l7.ebx, 17)),
        ("avx512ifma", avx512f && bit(l7.ebx, 21)),
        // VEX/EVEX-encoded: usable only with OS AVX state.
        ("vaes", avx && bit(l7.ecx, 9)),
        ("vpclmulqdq", avx && bit(l7.ecx, 10)),
        ("gfni", bit(l7.ecx, 8)),
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

/// XCR0. Call only when CPUID.1:ECX.OSXSAVE is set.
fn xgetbv0() -> u64 {
    let (lo, hi): (u32, u32);
    // SAFETY: the caller checked OSXSAVE, so XGETBV exists and is enabled; ECX = 0 selects
    // XCR0. The instruction touches no memory and no flags.
    unsafe {
        core::arch::asm!("xgetbv", in("ecx") 0u32, out("eax") lo, out("edx") hi,
            options(nomem, nostack, preserves_flags));
    }
    (u64::from(hi) << 32) | u64::from(lo)
}

/// What std says of a feature (for the test that ties the table to `#[target_feature]`).
#[cfg(test)]
pub(crate) fn std_detect(name: &str) -> bool {
    extern crate std;
    match name {
        "sse2" => std::is_x86_feature_detected!("sse2"),
        "ssse3" => std::is_x86_feature_detected!("ssse3"),
        "sse4.1" => std::is_x86_feature_detected!("sse4.1"),
        "sse4.2" => std::is_x86_feature_detected!("sse4.2"),
        "avx" => std::is_x86_feature_detected!("avx"),
        "avx2" => std::is_x86_feature_detected!("avx2"),
        "bmi1" => std::is_x86_feature_detected!("bmi1"),
        "bmi2" => std::is_x86_feature_detected!("bmi2"),
        "adx" => std::is_x86_feature_detected!("adx"),
        "aes" => std::is_x86_feature_detected!("aes"),
        "pclmulqdq" => std::is_x86_feature_detected!("pclmulqdq"),
        "sha" => std::is_x86_feature_detected!("sha"),
        "avx512f" => std::is_x86_feature_detected!("avx512f"),
        "avx512vl" => std::is_x86_feature_detected!("avx512vl"),
        "avx512bw" => std::is_x86_feature_detected!("avx512bw"),
        "avx512dq" => std::is_x86_feature_detected!("avx512dq"),
        "avx512ifma" => std::is_x86_feature_detected!("avx512ifma"),
        "vaes" => std::is_x86_feature_detected!("vaes"),
        "vpclmulqdq" => std::is_x86_feature_detected!("vpclmulqdq"),
        "gfni" => std::is_x86_feature_detected!("gfni"),
        _ => panic!("no std name {name}"),
    }
}

/// Our answer for a std feature name.
#[cfg(test)]
pub(crate) fn std_detected(std_name: &str, f: super::Features) -> bool {
    f.has(std_name)
}
