//! SHA-512 on plain ARMv7 NEON (64-bit lanes in d registers): the safe wrapper of
//! `asm/arm/sha512_neon.S` (32-bit ARM NEON intrinsics are unstable in Rust). For ARMv7
//! boards without the crypto extension (Cortex-A7/A9/A15); SHA-384 and SHA-512/t use it too.
//!
//! The assembly function is not a `#[target_feature]` fn, so the `ArmNeon` token argument of
//! [`compress`] is what proves the instructions exist; the `extern` declaration stays private
//! to this file.

use crate::cpu::arch::ArmNeon;

unsafe extern "C" {
    /// asm/arm/sha512_neon.S. Needs NEON. Compresses `nblocks` 128-byte blocks at `data` (any
    /// alignment) into `state` (a..h, 8-byte aligned); `nblocks == 0` is a no-op.
    fn simdcrypt_sha512_block_neon(state: *mut u64, data: *const u8, nblocks: usize);
}

/// Compresses whole 128-byte blocks into `state` (FIPS 180-4 §6.4.2).
pub(super) fn compress(_t: ArmNeon, state: &mut [u64; 8], blocks: &[u8]) {
    debug_assert_eq!(blocks.len() % 128, 0);
    let nblocks = blocks.len() / 128;
    // SAFETY: the token proves NEON was detected; `state` is 8 aligned u64 words, exclusively
    // borrowed; the kernel reads exactly `nblocks * 128 <= blocks.len()` bytes of `blocks`
    // and nothing else, and writes only `state`.
    unsafe { simdcrypt_sha512_block_neon(state.as_mut_ptr(), blocks.as_ptr(), nblocks) }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::abi_test::abi_call;
    use crate::cpu::Features;
    use crate::sha::test_util::bytes;

    fn token() -> Option<ArmNeon> {
        let t = Features::hardware().get::<ArmNeon>();
        if t.is_none() {
            std::eprintln!("sha512 armv7-neon: CPU has no NEON; kernel not tested");
        }
        t
    }

    #[test]
    fn abi() {
        let Some(_t) = token() else { return };
        for n in [0usize, 1, 3] {
            let data = bytes(42 + n as u64, n * 128);
            let mut want = super::super::IV512;
            super::super::soft::compress(&mut want, &data);
            let mut got = super::super::IV512;
            let args = [got.as_mut_ptr() as usize, data.as_ptr() as usize, n];
            // SAFETY: the token proves NEON exists; the arguments are a valid state and `n`
            // blocks of data, as `compress` passes them.
            let (_, rep) = unsafe { abi_call(simdcrypt_sha512_block_neon as *const (), &args) };
            rep.assert_clean();
            assert_eq!(got, want, "{n} blocks");
        }
    }
}
