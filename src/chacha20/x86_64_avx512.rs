//! ChaCha20 (RFC 8439 §2.3) with AVX-512: the safe wrapper of `asm/x86_64/chacha_avx512.S`.
//!
//! Rust 1.85 (our MSRV) cannot enable the `avx512*` target features, so the kernel is
//! assembly; the token [`Avx512`] proves its instructions (AVX512F, AVX512VL, AVX2, AVX)
//! exist. The assembly picks its layout by the block count (its header has the details):
//! 16 blocks per pass in zmm registers (one state word per register, `vprold` rotations)
//! for 9 blocks and more, and for 1–8 blocks the rows of the state matrix with one block
//! per 128-bit lane (at the latency of a single block): one set of rows on ymm for 1–2
//! blocks (so one- and two-block calls never touch a zmm register), one set on zmm for 3–4,
//! two interleaved sets on zmm for 5–8.
//!
//! The assembly has no stack frame; the 16-block passes keep 64 bytes of words derived from
//! the key and nonce (the first column round of columns 1–3, the same for every block) in
//! the red zone below the stack pointer and zero them before returning, so it leaves no copy
//! of the state or keystream in memory.

use crate::cpu::arch::Avx512;

unsafe extern "sysv64" {
    /// XORs the keystream of blocks `state[12]`, `state[12] + 1`, … (mod 2^32) into the
    /// `nblocks` 64-byte blocks at `data`, in place. Reads `state` (16 words), never writes
    /// it. Needs AVX512F, AVX512VL, AVX2, AVX.
    fn simdcrypt_chacha20_avx512(state: *const [u32; 16], data: *mut u8, nblocks: usize);
}

/// XORs the keystream of blocks `state[12]`, `state[12] + 1`, … into `data` (whole 64-byte
/// blocks, in place) and advances `state[12]` by the block count, wrapping at 2^32.
pub(super) fn xor_blocks(_t: Avx512, state: &mut [u32; 16], data: &mut [u8]) {
    debug_assert!(data.len() % 64 == 0);
    let nblocks = data.len() / 64;
    // SAFETY: the token proves the features. The kernel reads the 16 words of `state` and
    // reads and writes exactly the `nblocks` whole blocks of `data` (exclusively borrowed);
    // it uses only caller-saved registers and the red zone (checked by the ABI test below).
    unsafe { simdcrypt_chacha20_avx512(state, data.as_mut_ptr(), nblocks) };
    state[12] = state[12].wrapping_add(nblocks as u32);
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::x86_64_sse2::check;
    use super::*;
    use crate::cpu::Features;

    fn token() -> Option<Avx512> {
        let t = Features::hardware().get::<Avx512>();
        if t.is_none() {
            std::eprintln!("avx512: CPU lacks AVX512F/VL; kernel not tested");
        }
        t
    }

    #[test]
    fn vectors_and_cross_check() {
        let Some(t) = token() else { return };
        let k = |s: &mut [u32; 16], d: &mut [u8]| xor_blocks(t, s, d);
        check::rfc8439(&k);
        // Every path (1–2, 3–4, 5–8, 9–15 blocks, 16-block passes), every count 0..=17 (each
        // path boundary), and three strides past.
        check::cross_check(&k, 3 * 16 + 3);
    }

    /// The entry point through the ABI harness: callee-saved registers, stack pointer and
    /// direction flag survive every path; the output matches the portable kernel.
    #[cfg(target_os = "linux")]
    #[test]
    fn abi() {
        use crate::abi_test::abi_call;
        let Some(_t) = token() else { return };
        // Every count across the path boundaries (rows 1–2, 3–4, 5–8; vertical 9–15, 16,
        // 16 + tail) and two passes plus a tail.
        for n in (0usize..=17).chain([24, 32, 33]) {
            let st = check::state(&[n as u8; 32], u32::MAX - 3, &[7; 12]);
            let data = check::bytes(n as u64, 64 * n);
            let mut got = data.clone();
            let args = [st.as_ptr() as usize, got.as_mut_ptr() as usize, n];
            // SAFETY: the token proves the features; the arguments are what `xor_blocks`
            // passes: 16 state words, `n` blocks of data.
            let (_, rep) = unsafe { abi_call(simdcrypt_chacha20_avx512 as *const (), &args) };
            rep.assert_clean();
            let mut want = data;
            super::super::soft::xor_blocks(&mut st.clone(), &mut want);
            assert_eq!(got, want, "{n} blocks");
        }
    }
}
