//! GHASH (NIST SP 800-38D §6.4): the universal hash of GCM, multiplication by the hash key
//! `H` in GF(2^128) modulo x^128 + x^7 + x^2 + x + 1, in GCM's reflected bit order: the
//! leftmost bit of a block (the most significant bit of byte 0) is the coefficient of x^0
//! (SP 800-38D §6.3).
//!
//! `Y_i = (Y_{i-1} ⊕ X_i) · H` over 16-byte blocks `X_i`. Each key picks its kernel once (the
//! [`Backend`] enum, chosen in `select`); the kernel owns its precomputed powers of `H` in its
//! own format and wipes them on drop.
//!
//! Internal: used by [`crate::aead`]'s AES-GCM.

use crate::cpu::{Dispatch, Features};

#[cfg(target_arch = "aarch64")]
mod aarch64_neon;
#[cfg(target_arch = "aarch64")]
mod aarch64_pmull;
#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64_poly;
#[cfg(all(target_arch = "arm", simdcrypt_asm))]
mod arm;
#[cfg(all(
    test,
    any(target_arch = "aarch64", all(target_arch = "arm", simdcrypt_asm))
))]
mod arm_kat;
mod soft;
#[cfg(target_arch = "x86_64")]
mod x86_64_avx2;
#[cfg(target_arch = "x86_64")]
mod x86_64_clmul;
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
mod x86_64_vclmul;

/// The powers table of the x86_64 kernels, which the stitched AES-GCM kernel also reads.
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
pub(crate) use x86_64_clmul::Powers;

/// What every GHASH kernel provides, on `H` expanded in that kernel's format.
///
/// `y` is the running value `Y` as the 16 bytes SP 800-38D writes (the block's byte order; no
/// byte reversal), `data` whole 16-byte blocks (`data.len() % 16 == 0`; callers pad, as GCM
/// pads the AAD and the ciphertext with zeros). A kernel value is built only from the token of
/// its CPU features; its methods are the safe wrappers of its `#[target_feature]` code.
pub(crate) trait Kernel {
    /// `y ← (…((y ⊕ X_1)·H ⊕ X_2)·H … ⊕ X_n)·H` for the blocks `X_i` of `data`.
    fn update(&self, y: &mut [u8; 16], data: &[u8]);
}

/// The GHASH kernels, best first. `select` is the one place that chooses.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Backend {
    /// VPCLMULQDQ on 512-bit registers, 16 blocks per reduction (assembly).
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    VpclmulAvx512(crate::cpu::arch::VpclmulAvx512, crate::cpu::arch::Clmul),
    /// VPCLMULQDQ on 256-bit registers, 16 blocks per reduction (assembly).
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    VpclmulAvx2(crate::cpu::arch::VpclmulAvx2, crate::cpu::arch::Clmul),
    /// PCLMULQDQ on 128-bit registers, 8 blocks per reduction.
    #[cfg(target_arch = "x86_64")]
    Clmul(crate::cpu::arch::Clmul),
    /// AVX2 without PCLMULQDQ: constant-time carry-less multiplication by `vpmuludq` on
    /// operands with their bits spread out (the "ctmul" idea), 16 blocks per reduction.
    #[cfg(target_arch = "x86_64")]
    Avx2Ctmul(crate::cpu::arch::Avx2),
    /// PMULL/PMULL2 on aarch64, 8 blocks per reduction.
    #[cfg(target_arch = "aarch64")]
    Pmull(crate::cpu::arch::Pmull),
    /// NEON alone on aarch64: 64-bit carry-less multiplies from the 8-bit PMULL, 8 blocks per
    /// reduction.
    #[cfg(target_arch = "aarch64")]
    NeonPmull8(crate::cpu::arch::Neon),
    /// VMULL.P64 on 32-bit ARM (asm/arm/ghash_armv8.S).
    #[cfg(all(target_arch = "arm", simdcrypt_asm))]
    ArmPmull(crate::cpu::arch::ArmPmull),
    /// NEON alone on 32-bit ARM: 64-bit carry-less multiplies from VMULL.P8
    /// (asm/arm/ghash_neon.S).
    #[cfg(all(target_arch = "arm", simdcrypt_asm))]
    ArmNeon(crate::cpu::arch::ArmNeon),
    /// Portable constant-time carry-less multiplication by integer multiplies with the
    /// operands' bits spread out (BearSSL's "ctmul" idea), on the machine word.
    Soft,
}

impl Dispatch for Backend {
    fn select(f: Features) -> Self {
        #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
        if let (Some(v), Some(c)) = (
            f.get::<crate::cpu::arch::VpclmulAvx512>(),
            f.get::<crate::cpu::arch::Clmul>(),
        ) {
            return Backend::VpclmulAvx512(v, c);
        }
        #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
        if let (Some(v), Some(c)) = (
            f.get::<crate::cpu::arch::VpclmulAvx2>(),
            f.get::<crate::cpu::arch::Clmul>(),
        ) {
            return Backend::VpclmulAvx2(v, c);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = f.get::<crate::cpu::arch::Clmul>() {
            return Backend::Clmul(t);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = f.get::<crate::cpu::arch::Avx2>() {
            return Backend::Avx2Ctmul(t);
        }
        #[cfg(target_arch = "aarch64")]
        if let Some(t) = f.get::<crate::cpu::arch::Pmull>() {
            return Backend::Pmull(t);
        }
        #[cfg(target_arch = "aarch64")]
        if let Some(t) = f.get::<crate::cpu::arch::Neon>() {
            return Backend::NeonPmull8(t);
        }
        #[cfg(all(target_arch = "arm", simdcrypt_asm))]
        if let Some(t) = f.get::<crate::cpu::arch::ArmPmull>() {
            return Backend::ArmPmull(t);
        }
        #[cfg(all(target_arch = "arm", simdcrypt_asm))]
        if let Some(t) = f.get::<crate::cpu::arch::ArmNeon>() {
            return Backend::ArmNeon(t);
        }
        let _ = f;
        Backend::Soft
    }

    fn name(self) -> &'static str {
        match self {
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::VpclmulAvx512(..) => "vpclmul-avx512",
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::VpclmulAvx2(..) => "vpclmul-avx2",
            #[cfg(target_arch = "x86_64")]
            Backend::Clmul(_) => "clmul",
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2Ctmul(_) => "ctmul-avx2",
            #[cfg(target_arch = "aarch64")]
            Backend::Pmull(_) => "pmull",
            #[cfg(target_arch = "aarch64")]
            Backend::NeonPmull8(_) => "neon-pmull8",
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmPmull(_) => "armv7-pmull",
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmNeon(_) => "armv7-neon",
            Backend::Soft => {
                if cfg!(target_pointer_width = "64") {
                    "ctmul-64"
                } else {
                    "ctmul-32"
                }
            }
        }
    }

    fn key(self) -> u64 {
        match self {
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::VpclmulAvx512(..) => {
                <crate::cpu::arch::VpclmulAvx512 as crate::cpu::Token>::KEY
            }
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::VpclmulAvx2(..) => <crate::cpu::arch::VpclmulAvx2 as crate::cpu::Token>::KEY,
            #[cfg(target_arch = "x86_64")]
            Backend::Clmul(_) => <crate::cpu::arch::Clmul as crate::cpu::Token>::KEY,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2Ctmul(_) => <crate::cpu::arch::Avx2 as crate::cpu::Token>::KEY,
            #[cfg(target_arch = "aarch64")]
            Backend::Pmull(_) => <crate::cpu::arch::Pmull as crate::cpu::Token>::KEY,
            #[cfg(target_arch = "aarch64")]
            Backend::NeonPmull8(_) => <crate::cpu::arch::Neon as crate::cpu::Token>::KEY,
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmPmull(_) => <crate::cpu::arch::ArmPmull as crate::cpu::Token>::KEY,
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmNeon(_) => <crate::cpu::arch::ArmNeon as crate::cpu::Token>::KEY,
            Backend::Soft => 0,
        }
    }
}

/// `H` expanded for the chosen kernel.
// On 32-bit ARM the assembly kernels keep only H·x^-1 (16 bytes) beside the portable kernel's
// tables; on x86_64 the AVX2 ctmul kernel's table (its powers split into 32-bit classes) is
// several times the clmul kernels' 512 bytes. A key is built once per AES-GCM key, so the
// variant sizes do not matter.
#[cfg_attr(
    any(target_arch = "arm", target_arch = "x86_64"),
    allow(clippy::large_enum_variant)
)]
#[derive(Clone)]
enum Inner {
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    VpclmulAvx512(x86_64_vclmul::Vclmul512),
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    VpclmulAvx2(x86_64_vclmul::Vclmul256),
    #[cfg(target_arch = "x86_64")]
    Clmul(x86_64_clmul::ClmulKey),
    #[cfg(target_arch = "x86_64")]
    Avx2Ctmul(x86_64_avx2::Avx2Key),
    #[cfg(target_arch = "aarch64")]
    Pmull(aarch64_pmull::PmullKey),
    #[cfg(target_arch = "aarch64")]
    NeonPmull8(aarch64_neon::NeonKey),
    #[cfg(all(target_arch = "arm", simdcrypt_asm))]
    ArmPmull(arm::ArmPmullKey),
    #[cfg(all(target_arch = "arm", simdcrypt_asm))]
    ArmNeon(arm::ArmNeonKey),
    #[cfg(target_pointer_width = "64")]
    Soft64(soft::Soft64),
    #[cfg(target_pointer_width = "32")]
    Soft32(soft::Soft32),
}

/// A GHASH key: the kernel chosen once, with its powers of `H`.
#[derive(Clone)]
pub(crate) struct Key {
    inner: Inner,
    backend: Backend,
    /// AVX, for the stitched AES-GCM kernel on the PCLMULQDQ key, which is VEX-encoded
    /// (`src/aead/aes_gcm/x86_64_aesni.rs`).
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    avx: Option<crate::cpu::arch::Avx>,
}

/// `on_kernel!(key, k => expr)`: `expr` with `k` bound to the key's kernel (static dispatch).
macro_rules! on_kernel {
    ($self:expr, $k:ident => $body:expr) => {
        match &$self.inner {
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Inner::VpclmulAvx512($k) => $body,
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Inner::VpclmulAvx2($k) => $body,
            #[cfg(target_arch = "x86_64")]
            Inner::Clmul($k) => $body,
            #[cfg(target_arch = "x86_64")]
            Inner::Avx2Ctmul($k) => $body,
            #[cfg(target_arch = "aarch64")]
            Inner::Pmull($k) => $body,
            #[cfg(target_arch = "aarch64")]
            Inner::NeonPmull8($k) => $body,
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Inner::ArmPmull($k) => $body,
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Inner::ArmNeon($k) => $body,
            #[cfg(target_pointer_width = "64")]
            Inner::Soft64($k) => $body,
            #[cfg(target_pointer_width = "32")]
            Inner::Soft32($k) => $body,
        }
    };
}

impl Key {
    /// Expands `h` (= E_K(0^128)) for the kernel that `f` selects.
    pub(crate) fn new(f: Features, h: &[u8; 16]) -> Key {
        let backend = Backend::select(f);
        let inner = match backend {
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::VpclmulAvx512(v, c) => Inner::VpclmulAvx512(x86_64_vclmul::new512(v, c, h)),
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::VpclmulAvx2(v, c) => Inner::VpclmulAvx2(x86_64_vclmul::new256(v, c, h)),
            #[cfg(target_arch = "x86_64")]
            Backend::Clmul(t) => Inner::Clmul(x86_64_clmul::new(t, h)),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2Ctmul(t) => Inner::Avx2Ctmul(x86_64_avx2::new(t, h)),
            #[cfg(target_arch = "aarch64")]
            Backend::Pmull(t) => Inner::Pmull(aarch64_pmull::new(t, h)),
            #[cfg(target_arch = "aarch64")]
            Backend::NeonPmull8(t) => Inner::NeonPmull8(aarch64_neon::new(t, h)),
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmPmull(t) => Inner::ArmPmull(arm::new_pmull(t, h)),
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmNeon(t) => Inner::ArmNeon(arm::new_neon(t, h)),
            #[cfg(target_pointer_width = "64")]
            Backend::Soft => Inner::Soft64(soft::new64(h)),
            #[cfg(target_pointer_width = "32")]
            Backend::Soft => Inner::Soft32(soft::new32(h)),
        };
        Key {
            inner,
            backend,
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            avx: f.get::<crate::cpu::arch::Avx>(),
        }
    }

    /// See [`Kernel::update`].
    #[inline]
    pub(crate) fn update(&self, y: &mut [u8; 16], data: &[u8]) {
        debug_assert!(data.len() % 16 == 0);
        on_kernel!(self, k => k.update(y, data))
    }

    /// The kernel's name (e.g. `"clmul"`, `"ctmul-64"`).
    pub(crate) fn backend(&self) -> &'static str {
        self.backend.name()
    }

    /// If this key is for the 512-bit VPCLMULQDQ kernel: its token and powers of `H`, for the
    /// stitched AES-GCM kernel (`src/aead/aes_gcm/x86_64_vaes.rs`).
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    #[inline]
    pub(crate) fn vclmul512_parts(&self) -> Option<(crate::cpu::arch::VpclmulAvx512, &Powers)> {
        match &self.inner {
            Inner::VpclmulAvx512(k) => Some(k.gcm_parts()),
            _ => None,
        }
    }

    /// If this key is for the PMULL kernel: its token, `H^8..H^1` and their Karatsuba folds
    /// (`src/ghash/aarch64_pmull.rs`), for the stitched AES-GCM kernel
    /// (`src/aead/aes_gcm/aarch64_ce.rs`).
    #[cfg(target_arch = "aarch64")]
    #[inline]
    pub(crate) fn pmull_parts(&self) -> Option<aarch64_pmull::GcmParts<'_>> {
        match &self.inner {
            Inner::Pmull(k) => Some(k.gcm_parts()),
            _ => None,
        }
    }

    /// If this key is for the 256-bit VPCLMULQDQ kernel: its token and powers of `H`, for the
    /// stitched AES-GCM kernel (`src/aead/aes_gcm/x86_64_vaes_avx2.rs`).
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    #[inline]
    pub(crate) fn vclmul256_parts(&self) -> Option<(crate::cpu::arch::VpclmulAvx2, &Powers)> {
        match &self.inner {
            Inner::VpclmulAvx2(k) => Some(k.gcm_parts()),
            _ => None,
        }
    }

    /// If this key is for the 128-bit PCLMULQDQ kernel and AVX was detected with it: its
    /// token, the `Avx` token and the powers of `H`, for the stitched
    /// AES-GCM kernel (`src/aead/aes_gcm/x86_64_aesni.rs`).
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    #[inline]
    pub(crate) fn clmul_parts(
        &self,
    ) -> Option<(crate::cpu::arch::Clmul, crate::cpu::arch::Avx, &Powers)> {
        match (&self.inner, self.backend, self.avx) {
            (Inner::Clmul(k), Backend::Clmul(t), Some(a)) => Some((t, a, k.powers())),
            _ => None,
        }
    }
}
