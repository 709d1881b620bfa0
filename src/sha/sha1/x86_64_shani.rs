//! SHA-1 compression with the Intel SHA extensions (SHA-NI): `sha1rnds4`, `sha1nexte`,
//! `sha1msg1`, `sha1msg2` (Intel SDM vol. 2; Gulley et al., "Intel SHA Extensions", Intel
//! white paper, 2013, for the register conventions).
//!
//! # Layout
//!
//! The instructions keep words in *descending* dword order:
//!
//! ```text
//! abcd = [a, b, c, d]                  (dword 3 = a, …, dword 0 = d)
//! G[j] = [W[4j], W[4j+1], W[4j+2], W[4j+3]]   (dword 3 = W[4j])
//! ```
//!
//! so a message group is its 16 bytes fully reversed (which also makes each word big-endian,
//! FIPS 180-4 §3.1). `sha1rnds4::<F>(abcd, x)` does four rounds of §6.1.2 step 3 with round
//! function and constant `F` (0: Ch/K0 for rounds 0–19, 1: Parity/K1, 2: Maj/K2, 3:
//! Parity/K3), where `x` holds `e + W[t]` in dword 3 and `W[t+1..t+4]` below it.
//!
//! After four rounds `e` equals `ROTL^30` of the `a` of four rounds earlier (`a` moves to `b`,
//! is rotated into `c`, then moves to `d` and `e`), and `sha1nexte(abcd_before, G)` computes
//! exactly that plus `W[t]` into dword 3 of `G`. So only `abcd` and its copy from the previous
//! group are carried; `e` itself is never held.
//!
//! The schedule (§6.1.2 step 1), `W[t] = ROTL^1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16])`, for
//! `j >= 4`:
//!
//! ```text
//! G[j] = sha1msg2(sha1msg1(G[j-4], G[j-3]) ^ G[j-2], G[j-1])
//! ```
//!
//! `sha1msg1` xors `W[t-16+i] ^ W[t-14+i]`, the xor adds `W[t-8+i]`, and `sha1msg2` adds
//! `W[t-3+i]` (from `G[j-1]` or the words it has just made) and rotates.
//!
//! `finish` takes the whole blocks of the message where they lie, then the padded last block
//! or two (FIPS 180-4 §5.1.1), made 16 bytes at a time in registers
//! (`super::super::x86_64_pad`) and fed to the same rounds: no block buffer is written, read
//! back or wiped. Nothing here branches on or indexes by message or state data: the padding's
//! branches and table offsets depend only on the length.

use core::arch::x86_64::*;

use crate::cpu::arch::ShaNi;
use crate::sha::x86_64_pad::block64_chunks;

/// Compresses whole 64-byte blocks into `state`.
#[inline]
pub(super) fn compress(t: ShaNi, state: &mut [u32; 5], blocks: &[u8]) {
    debug_assert_eq!(blocks.len() % 64, 0);
    // SAFETY: the token proves that the CPU has every feature `hash_shani` enables.
    unsafe { hash_shani(t, state, blocks, None) }
}

/// Compresses the whole blocks of `data`, then its last `data.len() % 64` bytes padded for a
/// message of `bit_len` bits (FIPS 180-4 §5.1.1), the padded block(s) built in registers.
#[inline]
pub(super) fn finish(t: ShaNi, state: &mut [u32; 5], data: &[u8], bit_len: u64) {
    // SAFETY: the token proves that the CPU has every feature `hash_shani` enables.
    unsafe { hash_shani(t, state, data, Some(bit_len)) }
}

/// The next message group from the previous four (`$g0` oldest).
macro_rules! schedule {
    ($g0:expr, $g1:expr, $g2:expr, $g3:expr) => {
        _mm_sha1msg2_epu32(_mm_xor_si128(_mm_sha1msg1_epu32($g0, $g1), $g2), $g3)
    };
}

/// Four rounds with message group `$g` and round function `$f`: `$prev` is `abcd` before
/// the previous four rounds, from which `sha1nexte` derives `e`.
macro_rules! rounds4 {
    ($abcd:ident, $prev:ident, $g:expr, $f:literal) => {{
        let ew = _mm_sha1nexte_epu32($prev, $g);
        $prev = $abcd;
        $abcd = _mm_sha1rnds4_epu32::<$f>($abcd, ew);
    }};
}

/// The blocks of `data`, then, with `last = Some(bit_len)`, its padded tail (see
/// `super::super::x86_64_pad`); with `None` a partial last block is ignored.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
unsafe fn hash_shani(_t: ShaNi, state: &mut [u32; 5], data: &[u8], last: Option<u64>) {
    let whole = data.len() / 64;
    let tail = &data[64 * whole..];
    // The padding needs 9 bytes after the tail: 0x80 and the 64-bit length.
    let (n, bits) = match last {
        None => (whole, 0),
        Some(b) if tail.len() + 9 > 64 => (whole + 2, b),
        Some(b) => (whole + 1, b),
    };
    // SAFETY: every load and store below stays inside `state` (its first 16 bytes), block
    // `i < whole` of `data`, or the tail (`tail_chunk!` reads only inside it and its two
    // 32-byte tables); all are unaligned accesses. The intrinsics' features (SHA, SSE2, SSSE3,
    // SSE4.1) are enabled on this function.
    unsafe {
        // Reverse all 16 bytes: dword 3 gets the first word, big-endian.
        let rev = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);

        let mut abcd = _mm_shuffle_epi32::<0b00_01_10_11>(_mm_loadu_si128(state.as_ptr().cast()));
        // e in dword 3, zeros below (they are added to W[1..4] in the first group).
        let mut e0 = _mm_set_epi32(state[4] as i32, 0, 0, 0);

        for i in 0..n {
            let (r0, r1, r2, r3) = block64_chunks!(data, whole, tail, i, n, bits);
            let save_abcd = abcd;

            let mut g0 = _mm_shuffle_epi8(r0, rev);
            let mut g1 = _mm_shuffle_epi8(r1, rev);
            let mut g2 = _mm_shuffle_epi8(r2, rev);
            let mut g3 = _mm_shuffle_epi8(r3, rev);

            // Rounds 0-3: e is known, add it directly.
            let mut prev = abcd;
            abcd = _mm_sha1rnds4_epu32::<0>(abcd, _mm_add_epi32(e0, g0));
            // Each group is scheduled three steps before the rounds that use it, so that
            // `sha1msg2` (a long latency, one issue every four cycles here) runs ahead.
            g0 = schedule!(g0, g1, g2, g3);
            rounds4!(abcd, prev, g1, 0);
            g1 = schedule!(g1, g2, g3, g0);
            rounds4!(abcd, prev, g2, 0);
            g2 = schedule!(g2, g3, g0, g1);
            rounds4!(abcd, prev, g3, 0);
            g3 = schedule!(g3, g0, g1, g2);
            rounds4!(abcd, prev, g0, 0);
            g0 = schedule!(g0, g1, g2, g3);
            rounds4!(abcd, prev, g1, 1);
            g1 = schedule!(g1, g2, g3, g0);
            rounds4!(abcd, prev, g2, 1);
            g2 = schedule!(g2, g3, g0, g1);
            rounds4!(abcd, prev, g3, 1);
            g3 = schedule!(g3, g0, g1, g2);
            rounds4!(abcd, prev, g0, 1);
            g0 = schedule!(g0, g1, g2, g3);
            rounds4!(abcd, prev, g1, 1);
            g1 = schedule!(g1, g2, g3, g0);
            rounds4!(abcd, prev, g2, 2);
            g2 = schedule!(g2, g3, g0, g1);
            rounds4!(abcd, prev, g3, 2);
            g3 = schedule!(g3, g0, g1, g2);
            rounds4!(abcd, prev, g0, 2);
            g0 = schedule!(g0, g1, g2, g3);
            rounds4!(abcd, prev, g1, 2);
            g1 = schedule!(g1, g2, g3, g0);
            rounds4!(abcd, prev, g2, 2);
            g2 = schedule!(g2, g3, g0, g1);
            rounds4!(abcd, prev, g3, 3);
            g3 = schedule!(g3, g0, g1, g2);
            rounds4!(abcd, prev, g0, 3);
            rounds4!(abcd, prev, g1, 3);
            rounds4!(abcd, prev, g2, 3);
            rounds4!(abcd, prev, g3, 3);

            // §6.1.2 step 4. The final e is ROTL^30 of `prev`'s a; add the old e to it.
            e0 = _mm_sha1nexte_epu32(prev, e0);
            abcd = _mm_add_epi32(abcd, save_abcd);
        }

        _mm_storeu_si128(
            state.as_mut_ptr().cast(),
            _mm_shuffle_epi32::<0b00_01_10_11>(abcd),
        );
        state[4] = _mm_extract_epi32::<3>(e0) as u32;
    }
}
