//! SHA-256 compression with the Intel SHA extensions (SHA-NI): `sha256rnds2`, `sha256msg1`,
//! `sha256msg2` (Intel SDM vol. 2; Gulley et al., "Intel SHA Extensions", Intel white paper,
//! 2013, for the register conventions).
//!
//! # Layout
//!
//! `sha256rnds2` does two rounds of FIPS 180-4 §6.2.2 step 3. It keeps the eight working
//! variables in two registers, dword 3 first:
//!
//! ```text
//! abef = [a, b, e, f]   (dword 3 = a, dword 2 = b, dword 1 = e, dword 0 = f)
//! cdgh = [c, d, g, h]   (dword 3 = c, dword 2 = d, dword 1 = g, dword 0 = h)
//! ```
//!
//! and takes `W[t] + K[t]` in dword 0 and `W[t+1] + K[t+1]` in dword 1 of its third operand.
//! It returns the new `abef`; the new `cdgh` is the old `abef` (two rounds shift a, b into c,
//! d and e, f into g, h). So four rounds are two calls with the two registers swapping roles
//! and the upper half of the `W + K` vector moved down.
//!
//! The message schedule (§6.2.2 step 1) runs on groups of four words, `G[j] = W[4j..4j+4]`
//! in dwords 0..3. For `j >= 4`:
//!
//! ```text
//! sha256msg1(G[j-4], G[j-3])          = W[t-16+i] + σ0(W[t-15+i])           (i = 0..3)
//! + alignr(G[j-1], G[j-2], 4 bytes)   = W[t-7+i]
//! sha256msg2(that, G[j-1])            adds σ1(W[t-2+i]), using the words it has just made
//! ```
//!
//! with `t = 4j`.
//!
//! `finish` takes the whole blocks of the message where they lie, then the padded last block
//! or two (FIPS 180-4 §5.1.1), made 16 bytes at a time in registers
//! (`super::super::x86_64_pad`) and fed to the same rounds: no block buffer is written, read
//! back or wiped. Nothing here branches on or indexes by message or state data: the padding's
//! branches and table offsets depend only on the length.

use core::arch::x86_64::*;

use super::K;
use crate::cpu::arch::ShaNi;
use crate::sha::x86_64_pad::block64_chunks;

/// Compresses whole 64-byte blocks into `state`.
#[inline]
pub(super) fn compress(t: ShaNi, state: &mut [u32; 8], blocks: &[u8]) {
    debug_assert_eq!(blocks.len() % 64, 0);
    // SAFETY: the token proves that the CPU has every feature `hash_shani` enables.
    unsafe { hash_shani(t, state, blocks, None) }
}

/// Compresses the whole blocks of `data`, then its last `data.len() % 64` bytes padded for a
/// message of `bit_len` bits (FIPS 180-4 §5.1.1), the padded block(s) built in registers.
#[inline]
pub(super) fn finish(t: ShaNi, state: &mut [u32; 8], data: &[u8], bit_len: u64) {
    // SAFETY: the token proves that the CPU has every feature `hash_shani` enables.
    unsafe { hash_shani(t, state, data, Some(bit_len)) }
}

/// Four rounds `4j..4j+4` with message group `$m` (FIPS 180-4 §6.2.2 steps 3–4 are in
/// `sha256rnds2`); `$abef`, `$cdgh` are updated in place.
macro_rules! rounds4 {
    ($abef:ident, $cdgh:ident, $m:expr, $j:expr) => {{
        // `K` has 64 entries and `$j < 16`, so the 16 bytes
        // read are inside it; the load is unaligned.
        let k = _mm_loadu_si128(K.as_ptr().add(4 * $j).cast());
        let wk = _mm_add_epi32($m, k);
        $cdgh = _mm_sha256rnds2_epu32($cdgh, $abef, wk);
        // Rounds 4j+2, 4j+3 take dwords 2, 3 of `wk` in dwords 0, 1.
        let wk_hi = _mm_shuffle_epi32::<0b00_00_11_10>(wk);
        $abef = _mm_sha256rnds2_epu32($abef, $cdgh, wk_hi);
    }};
}

/// The next message group from the previous four (`$g0` oldest).
macro_rules! schedule {
    ($g0:expr, $g1:expr, $g2:expr, $g3:expr) => {{
        let s0 = _mm_sha256msg1_epu32($g0, $g1);
        let w7 = _mm_alignr_epi8::<4>($g3, $g2);
        _mm_sha256msg2_epu32(_mm_add_epi32(s0, w7), $g3)
    }};
}

/// The blocks of `data`, then, with `last = Some(bit_len)`, its padded tail (see
/// `super::super::x86_64_pad`); with `None` a partial last block is ignored.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
unsafe fn hash_shani(_t: ShaNi, state: &mut [u32; 8], data: &[u8], last: Option<u64>) {
    let whole = data.len() / 64;
    let tail = &data[64 * whole..];
    // The padding needs 9 bytes after the tail: 0x80 and the 64-bit length.
    let (n, bits) = match last {
        None => (whole, 0),
        Some(b) if tail.len() + 9 > 64 => (whole + 2, b),
        Some(b) => (whole + 1, b),
    };
    // SAFETY: every load and store below stays inside `state` (32 bytes), `K` (256 bytes),
    // block `i < whole` of `data`, or the tail (`tail_chunk!` reads only inside it and its two
    // 32-byte tables); all are unaligned accesses. The intrinsics' features (SHA, SSE2, SSSE3,
    // SSE4.1) are enabled on this function.
    unsafe {
        // Big-endian words (§3.1): reverse the bytes of each dword.
        let bswap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);

        let abcd = _mm_loadu_si128(state.as_ptr().cast());
        let efgh = _mm_loadu_si128(state.as_ptr().add(4).cast());
        let dcba = _mm_shuffle_epi32::<0b00_01_10_11>(abcd);
        let hgfe = _mm_shuffle_epi32::<0b00_01_10_11>(efgh);
        let mut abef = _mm_unpackhi_epi64(hgfe, dcba); // [f, e, b, a] from dword 0
        let mut cdgh = _mm_unpacklo_epi64(hgfe, dcba); // [h, g, d, c] from dword 0

        for i in 0..n {
            let (r0, r1, r2, r3) = block64_chunks!(data, whole, tail, i, n, bits);
            let save_abef = abef;
            let save_cdgh = cdgh;

            let mut g0 = _mm_shuffle_epi8(r0, bswap);
            let mut g1 = _mm_shuffle_epi8(r1, bswap);
            let mut g2 = _mm_shuffle_epi8(r2, bswap);
            let mut g3 = _mm_shuffle_epi8(r3, bswap);

            rounds4!(abef, cdgh, g0, 0);
            rounds4!(abef, cdgh, g1, 1);
            rounds4!(abef, cdgh, g2, 2);
            rounds4!(abef, cdgh, g3, 3);
            // Groups 4..15, four at a time so that the names rotate back to g0..g3.
            for j in [4usize, 8] {
                g0 = schedule!(g0, g1, g2, g3);
                rounds4!(abef, cdgh, g0, j);
                g1 = schedule!(g1, g2, g3, g0);
                rounds4!(abef, cdgh, g1, j + 1);
                g2 = schedule!(g2, g3, g0, g1);
                rounds4!(abef, cdgh, g2, j + 2);
                g3 = schedule!(g3, g0, g1, g2);
                rounds4!(abef, cdgh, g3, j + 3);
            }
            g0 = schedule!(g0, g1, g2, g3);
            rounds4!(abef, cdgh, g0, 12);
            g1 = schedule!(g1, g2, g3, g0);
            rounds4!(abef, cdgh, g1, 13);
            g2 = schedule!(g2, g3, g0, g1);
            rounds4!(abef, cdgh, g2, 14);
            g3 = schedule!(g3, g0, g1, g2);
            rounds4!(abef, cdgh, g3, 15);

            // §6.2.2 step 4: add the working variables to the previous hash value.
            abef = _mm_add_epi32(abef, save_abef);
            cdgh = _mm_add_epi32(cdgh, save_cdgh);
        }

        let dcba = _mm_unpackhi_epi64(cdgh, abef); // [d, c, b, a]
        let hgfe = _mm_unpacklo_epi64(cdgh, abef); // [h, g, f, e]
        _mm_storeu_si128(
            state.as_mut_ptr().cast(),
            _mm_shuffle_epi32::<0b00_01_10_11>(dcba),
        );
        _mm_storeu_si128(
            state.as_mut_ptr().add(4).cast(),
            _mm_shuffle_epi32::<0b00_01_10_11>(hgfe),
        );
    }
}
