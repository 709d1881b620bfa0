//! SHA-1 on 32-bit ARM: the safe wrappers of `asm/arm/sha1_armv8.S` (the AArch32 crypto
//! extension: SHA1C/P/M/H/SU0/SU1) and `asm/arm/sha1_neon.S` (plain NEON message schedule,
//! integer rounds, for ARMv7 boards without the crypto extension) (32-bit ARM NEON and crypto
//! intrinsics are unstable in Rust).
//!
//! The assembly functions are not `#[target_feature]` fns, so the `ArmSha1` / `ArmNeon` token
//! argument of [`compress`] / [`compress_neon`] is what proves the instructions exist; the
//! `extern` declarations stay private to this file.

use crate::cpu::arch::{ArmNeon, ArmSha1};

unsafe extern "C" {
    /// asm/arm/sha1_armv8.S. Needs SHA1 + NEON. Compresses `nblocks` 64-byte blocks at
    /// `data` (any alignment) into `state` (a..e, 4-byte aligned); `nblocks == 0` is a no-op.
    fn simdcrypt_sha1_block_armv8(state: *mut u32, data: *const u8, nblocks: usize);
    /// asm/arm/sha1_neon.S. Needs NEON. Same contract as `simdcrypt_sha1_block_armv8`.
    fn simdcrypt_sha1_block_neon(state: *mut u32, data: *const u8, nblocks: usize);
}

/// Compresses whole 64-byte blocks into `state` (FIPS 180-4 §6.1.2).
pub(super) fn compress(_t: ArmSha1, state: &mut [u32; 5], blocks: &[u8]) {
    debug_assert_eq!(blocks.len() % 64, 0);
    let nblocks = blocks.len() / 64;
    // SAFETY: the token proves SHA1 and NEON were detected; `state` is 5 aligned u32 words,
    // exclusively borrowed; the kernel reads exactly `nblocks * 64 <= blocks.len()` bytes of
    // `blocks` and nothing else, and writes only `state`.
    unsafe { simdcrypt_sha1_block_armv8(state.as_mut_ptr(), blocks.as_ptr(), nblocks) }
}

/// Compresses whole 64-byte blocks into `state` (FIPS 180-4 §6.1.2) with the NEON kernel.
pub(super) fn compress_neon(_t: ArmNeon, state: &mut [u32; 5], blocks: &[u8]) {
    debug_assert_eq!(blocks.len() % 64, 0);
    let nblocks = blocks.len() / 64;
    // SAFETY: the token proves NEON was detected; `state` is 5 aligned u32 words, exclusively
    // borrowed; the kernel reads exactly `nblocks * 64 <= blocks.len()` bytes of `blocks` and
    // nothing else (its own stack frame aside), and writes only `state`.
    unsafe { simdcrypt_sha1_block_neon(state.as_mut_ptr(), blocks.as_ptr(), nblocks) }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::abi_test::abi_call;
    use crate::cpu::Features;
    use crate::sha::test_util::bytes;

    fn token() -> Option<ArmSha1> {
        let t = Features::hardware().get::<ArmSha1>();
        if t.is_none() {
            std::eprintln!("sha1 armv7-ce: CPU has no SHA1 instructions; kernel not tested");
        }
        t
    }

    fn token_neon() -> Option<ArmNeon> {
        let t = Features::hardware().get::<ArmNeon>();
        if t.is_none() {
            std::eprintln!("sha1 armv7-neon: CPU has no NEON; kernel not tested");
        }
        t
    }

    /// Calls `kernel` through the ABI harness on 0, 1, 2 and 3 blocks and checks the result
    /// against the portable kernel and the registers against the ABI and clearing rules.
    fn abi_check(kernel: *const ()) {
        for n in [0usize, 1, 2, 3] {
            let data = bytes(42 + n as u64, n * 64);
            let mut want = super::super::IV;
            super::super::soft::compress(&mut want, &data);
            let mut got = super::super::IV;
            let args = [got.as_mut_ptr() as usize, data.as_ptr() as usize, n];
            // SAFETY: the caller's token proves the instructions exist; the arguments are a
            // valid state and `n` blocks of data, as `compress` passes them.
            let (_, rep) = unsafe { abi_call(kernel, &args) };
            rep.assert_clean();
            assert_eq!(got, want, "{n} blocks");
        }
    }

    #[test]
    fn abi() {
        let Some(_t) = token() else { return };
        abi_check(simdcrypt_sha1_block_armv8 as *const ());
    }

    #[test]
    fn abi_neon() {
        let Some(_t) = token_neon() else { return };
        abi_check(simdcrypt_sha1_block_neon as *const ());
    }
}
