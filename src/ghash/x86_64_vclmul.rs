//! GHASH with VPCLMULQDQ on 512-bit (AVX-512) and 256-bit (AVX2) registers: the safe
//! wrappers of `asm/x86_64/ghash_vclmul.S`, 16 blocks per reduction (four blocks per zmm
//! register, two per ymm register).
//!
//! Rust 1.85 (our MSRV) cannot enable the `vpclmulqdq` and `avx512*` target features, so the
//! wide kernels are assembly; the tokens [`VpclmulAvx512`] and [`VpclmulAvx2`] are what prove
//! their instructions exist. Everything else comes from the PCLMULQDQ kernel
//! (`x86_64_clmul.rs`), which these backends own one of (built from its own [`Clmul`] token):
//!
//! - the powers of `H`: the assembly reads the clmul kernel's [`Powers`] table (twisted
//!   powers `H^16..H^1` and their Karatsuba halves, layout in that file's docs);
//! - the last `nblocks % 16` blocks of a call, and so every message shorter than 16 blocks,
//!   where one 16-block group does not fit (eight-block groups and a tail, same arithmetic).
//!
//! The clmul key wipes the powers when it is dropped, with this key.

use super::Kernel;
use super::x86_64_clmul::{self as clmul, ClmulKey, Powers};
use crate::cpu::arch::{Clmul, VpclmulAvx2, VpclmulAvx512};

unsafe extern "sysv64" {
    /// `y ← GHASH(y, data)` over `nblocks` blocks at `data` (`nblocks % 16 == 0`) with the
    /// powers `p`. Needs VPCLMULQDQ, PCLMULQDQ, AVX, AVX2, AVX512F/VL/BW.
    fn simdcrypt_ghash_vclmul512(
        y: *mut [u8; 16],
        p: *const Powers,
        data: *const u8,
        nblocks: usize,
    );
    /// As `simdcrypt_ghash_vclmul512` with ymm registers: needs VPCLMULQDQ, PCLMULQDQ, AVX,
    /// AVX2.
    fn simdcrypt_ghash_vclmul256(
        y: *mut [u8; 16],
        p: *const Powers,
        data: *const u8,
        nblocks: usize,
    );
}

/// Blocks per group of the assembly kernels.
const GROUP: usize = 16;

/// The signature shared by the entry points.
type GhashFn = unsafe extern "sysv64" fn(*mut [u8; 16], *const Powers, *const u8, usize);

/// `y ← GHASH(y, data)`: the whole 16-block groups with `f`, the rest with the clmul kernel.
///
/// # Safety
/// The CPU must have the features `f` needs.
unsafe fn update(f: GhashFn, c: &ClmulKey, y: &mut [u8; 16], data: &[u8]) {
    debug_assert_eq!(data.len() % 16, 0);
    let n = data.len() / (16 * GROUP) * (16 * GROUP);
    let (wide, rest) = data.split_at(n);
    if !wide.is_empty() {
        // SAFETY: `y` is 16 writable bytes, `c.powers()` the 512-byte table the kernel reads,
        // `wide` is `wide.len() / 16` whole blocks (a multiple of 16), only read; the features
        // are the caller's promise.
        unsafe { f(y, c.powers(), wide.as_ptr(), wide.len() / 16) };
    }
    if !rest.is_empty() {
        c.update(y, rest);
    }
}

/// A GHASH key for the 512-bit kernel (and the clmul kernel for the rest).
#[derive(Clone)]
pub(crate) struct Vclmul512 {
    _t: VpclmulAvx512,
    c: ClmulKey,
}

/// Expands `h` for the 512-bit kernel.
pub(crate) fn new512(t: VpclmulAvx512, c: Clmul, h: &[u8; 16]) -> Vclmul512 {
    Vclmul512 {
        _t: t,
        c: clmul::new(c, h),
    }
}

impl Vclmul512 {
    /// For the stitched AES-GCM kernel (`src/aead/aes_gcm/x86_64_vaes.rs`), which reads the
    /// same table: the token and the powers of `H`.
    pub(crate) fn gcm_parts(&self) -> (VpclmulAvx512, &Powers) {
        (self._t, self.c.powers())
    }
}

impl Kernel for Vclmul512 {
    #[inline]
    fn update(&self, y: &mut [u8; 16], data: &[u8]) {
        // SAFETY: the token in `self` proves the features.
        unsafe { update(simdcrypt_ghash_vclmul512, &self.c, y, data) }
    }
}

/// A GHASH key for the 256-bit kernel (and the clmul kernel for the rest).
#[derive(Clone)]
pub(crate) struct Vclmul256 {
    _t: VpclmulAvx2,
    c: ClmulKey,
}

/// Expands `h` for the 256-bit kernel.
pub(crate) fn new256(t: VpclmulAvx2, c: Clmul, h: &[u8; 16]) -> Vclmul256 {
    Vclmul256 {
        _t: t,
        c: clmul::new(c, h),
    }
}

impl Vclmul256 {
    /// For the stitched AES-GCM kernel (`src/aead/aes_gcm/x86_64_vaes_avx2.rs`), which reads
    /// the same table: the token and the powers of `H`.
    pub(crate) fn gcm_parts(&self) -> (VpclmulAvx2, &Powers) {
        (self._t, self.c.powers())
    }
}

impl Kernel for Vclmul256 {
    #[inline]
    fn update(&self, y: &mut [u8; 16], data: &[u8]) {
        // SAFETY: the token in `self` proves the features.
        unsafe { update(simdcrypt_ghash_vclmul256, &self.c, y, data) }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::x86_64_clmul::tests::{
        bytes, check_mv, cross_check, ref_ghash, special_keys, token as clmul_token,
    };
    use super::*;
    use crate::abi_test::abi_call;
    use crate::cpu::Features;
    use std::vec::Vec;

    fn t512() -> Option<(VpclmulAvx512, Clmul)> {
        let t = Features::hardware()
            .get::<VpclmulAvx512>()
            .zip(clmul_token());
        if t.is_none() {
            std::eprintln!("vpclmul-avx512: CPU lacks VPCLMULQDQ or AVX-512; kernel not tested");
        }
        t
    }

    fn t256() -> Option<(VpclmulAvx2, Clmul)> {
        let t = Features::hardware().get::<VpclmulAvx2>().zip(clmul_token());
        if t.is_none() {
            std::eprintln!("vpclmul-avx2: CPU lacks VPCLMULQDQ or AVX2; kernel not tested");
        }
        t
    }

    /// Lengths 0..=3 blocks past one, two and three groups, and every tail.
    fn lens() -> Vec<usize> {
        (0..=51).chain([64, 100, 255, 256, 257]).collect()
    }

    #[test]
    fn vclmul512() {
        let Some((v, c)) = t512() else { return };
        check_mv(|h| new512(v, c, h));
        cross_check(|h| new512(v, c, h), &lens());
        special_keys(|h| new512(v, c, h));
    }

    #[test]
    fn vclmul256() {
        let Some((v, c)) = t256() else { return };
        check_mv(|h| new256(v, c, h));
        cross_check(|h| new256(v, c, h), &lens());
        special_keys(|h| new256(v, c, h));
    }

    /// One ABI-checked call of each entry point per length, its result checked against the
    /// reference; the kernels read only the blocks they are given (an unaligned buffer).
    fn abi(f: GhashFn, c: Clmul) {
        for n in [0usize, 16, 32, 48] {
            let h: [u8; 16] = bytes(n as u64 + 40, 16).try_into().unwrap();
            let key = clmul::new(c, &h);
            let buf = bytes(n as u64, n * 16 + 1);
            let data = &buf[1..];
            let y0 = [0x3c; 16];
            let mut y = y0;
            let args = [
                core::ptr::from_mut(&mut y) as usize,
                core::ptr::from_ref(key.powers()) as usize,
                data.as_ptr() as usize,
                n,
            ];
            // SAFETY: the caller's token proves the features; the arguments are what `update`
            // passes: 16 writable bytes, the powers table, `n` blocks (a multiple of 16).
            let (_, rep) = unsafe { abi_call(f as *const (), &args) };
            rep.assert_clean();
            assert_eq!(y, ref_ghash(&h, &y0, data), "{n} blocks");
        }
    }

    /// Every backend the dispatch reaches on this machine, through `Key`, against the
    /// portable kernel; the walk is vpclmul-avx512 → vpclmul-avx2 → clmul → ctmul-avx2 →
    /// ctmul-64.
    #[test]
    fn all_backends_against_portable() {
        use super::super::{Backend, Key};
        let names: Vec<&str> = crate::cpu::backends::<Backend>(Features::hardware())
            .map(|b| b.0)
            .collect();
        if t512().is_some() {
            assert_eq!(
                names,
                [
                    "vpclmul-avx512",
                    "vpclmul-avx2",
                    "clmul",
                    "ctmul-avx2",
                    "ctmul-64"
                ]
            );
        }
        for (name, f) in crate::cpu::backends::<Backend>(Features::hardware()) {
            for blocks in [
                0usize, 1, 7, 8, 15, 16, 17, 31, 32, 33, 47, 48, 49, 64, 95, 256,
            ] {
                let h: [u8; 16] = bytes(blocks as u64 + 900, 16).try_into().unwrap();
                let (k, soft) = (Key::new(f, &h), Key::new(Features::none(), &h));
                assert_eq!(k.backend(), name);
                let data = bytes(blocks as u64 + 901, blocks * 16);
                let (mut y, mut want) = ([0xa5; 16], [0xa5; 16]);
                k.update(&mut y, &data);
                soft.update(&mut want, &data);
                assert_eq!(y, want, "{name}, {blocks} blocks");
            }
        }
    }

    #[test]
    fn abi_512() {
        let Some((_v, c)) = t512() else { return };
        abi(simdcrypt_ghash_vclmul512, c);
    }

    #[test]
    fn abi_256() {
        let Some((_v, c)) = t256() else { return };
        abi(simdcrypt_ghash_vclmul256, c);
    }
}
