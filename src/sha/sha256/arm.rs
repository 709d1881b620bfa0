//! SHA-256 on the AArch32 crypto extension (SHA256H/H2/SU0/SU1): the safe wrapper of
//! `asm/arm/sha256_armv8.S` (32-bit ARM NEON and crypto intrinsics are unstable in Rust).
//!
//! The assembly function is not a `#[target_feature]` fn, so the `ArmSha2` token argument of
//! [`compress`] is what proves the instructions exist; the `extern` declaration stays private
//! to this file.

use crate::cpu::arch::ArmSha2;

unsafe extern "C" {
    /// asm/arm/sha256_armv8.S. Needs SHA2 + NEON. Compresses `nblocks` 64-byte blocks at
    /// `data` (any alignment) into `state` (a..h, 4-byte aligned); `nblocks == 0` is a no-op.
    fn simdcrypt_sha256_block_armv8(state: *mut u32, data: *const u8, nblocks: usize);
}

/// Compresses whole 64-byte blocks into `state` (FIPS 180-4 §6.2.2).
pub(super) fn compress(_t: ArmSha2, state: &mut [u32; 8], blocks: &[u8]) {
    debug_assert_eq!(blocks.len() % 64, 0);
    let nblocks = blocks.len() / 64;
    // SAFETY: the token proves SHA2 and NEON were detected; `state` is 8 aligned u32 words,
    // exclusively borrowed; the kernel reads exactly `nblocks * 64 <= blocks.len()` bytes of
    // `blocks` and nothing else, and writes only `state`.
    unsafe { simdcrypt_sha256_block_armv8(state.as_mut_ptr(), blocks.as_ptr(), nblocks) }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::abi_test::abi_call;
    use crate::cpu::Features;
    use std::vec::Vec;

    fn token() -> Option<ArmSha2> {
        let t = Features::hardware().get::<ArmSha2>();
        if t.is_none() {
            std::eprintln!("sha256 armv7-ce: CPU has no SHA2 instructions; kernel not tested");
        }
        t
    }

    /// xorshift64*: reproducible test bytes.
    fn bytes(seed: u64, n: usize) -> Vec<u8> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x >> 12;
                x ^= x << 25;
                x ^= x >> 27;
                (x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8
            })
            .collect()
    }

    fn states() -> Vec<[u32; 8]> {
        let mut v = std::vec![
            super::super::IV256,
            super::super::IV224,
            [0; 8],
            [u32::MAX; 8]
        ];
        for seed in 1..4u64 {
            let b = bytes(seed * 7919, 32);
            let mut s = [0u32; 8];
            for (w, c) in s.iter_mut().zip(b.chunks_exact(4)) {
                *w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            }
            v.push(s);
        }
        v
    }

    #[test]
    fn matches_soft() {
        let Some(t) = token() else { return };
        for (si, st) in states().into_iter().enumerate() {
            for n in 0..=9usize {
                // One byte of offset: the kernel must not assume alignment.
                let buf = bytes(1000 + 31 * n as u64 + si as u64, n * 64 + 1);
                let blocks = &buf[1..];
                let mut want = st;
                super::super::soft::compress(&mut want, blocks);
                let mut got = st;
                compress(t, &mut got, blocks);
                assert_eq!(got, want, "state {si}, {n} blocks");
            }
        }
    }

    /// The dispatch picks this kernel exactly when the CPU has it (and nothing better).
    #[test]
    fn dispatch_selects_it() {
        use crate::cpu::Dispatch;
        let b = <super::super::Backend as Dispatch>::select(Features::hardware());
        assert_eq!(b.name() == "armv7-ce", token().is_some(), "{}", b.name());
    }

    #[test]
    fn abi() {
        let Some(_t) = token() else { return };
        for n in [0usize, 1, 3] {
            let data = bytes(42 + n as u64, n * 64);
            let mut want = super::super::IV256;
            super::super::soft::compress(&mut want, &data);
            let mut got = super::super::IV256;
            let args = [got.as_mut_ptr() as usize, data.as_ptr() as usize, n];
            // SAFETY: the token proves the instructions exist; the arguments are a valid
            // state and `n` blocks of data, as `compress` passes them.
            let (_, rep) = unsafe { abi_call(simdcrypt_sha256_block_armv8 as *const (), &args) };
            rep.assert_clean();
            assert_eq!(got, want, "{n} blocks");
        }
    }
}
