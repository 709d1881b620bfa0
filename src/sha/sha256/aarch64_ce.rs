//! SHA-256 compression (FIPS 180-4 §6.2.2) with the ARMv8 Cryptographic Extension: SHA256H,
//! SHA256H2, SHA256SU0 and SHA256SU1 (Arm ARM, DDI 0487, C7.2; pseudocode functions
//! `SHA256hash`, `SHAchoose`, `SHAmajority`, `SHAhashSIGMA0/1`), through `core::arch::aarch64`.
//!
//! # Lane layout
//! Lane 0 is the least significant 32 bits of a 128-bit vector.
//! - `abcd`: lanes 0..3 = working variables a, b, c, d; `efgh`: lanes 0..3 = e, f, g, h
//!   (§6.2.2 step 2). The state H0..H7 is stored in that order, so two plain loads give both.
//! - `w0..w3`: four consecutive schedule words W[4j..4j+4] (§6.2.2 step 1) in lanes 0..3, for
//!   the group j of four rounds the variable holds now; `w{j mod 4}` holds group j.
//!
//! # One group of four rounds
//! `SHA256hash(X = abcd, Y = efgh, W = W[t..t+4] + K[t..t+4])` runs four rounds of §6.2.2
//! step 3 and returns either the new abcd (SHA256H) or the new efgh (SHA256H2). Both must see
//! the *old* abcd and efgh, so SHA256H2 takes the copy of abcd made before SHA256H.
//!
//! # Message schedule
//! W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] for 16 ≤ t < 64. For W[t..t+4]:
//! SHA256SU0(W[t-16..], W[t-12..]) adds σ0 of the words one lane on (W[t-15..t-11]);
//! SHA256SU1(that, W[t-8..], W[t-4..]) adds W[t-7..t-3] and σ1(W[t-2..t+2]), taking
//! W[t], W[t+1] for the upper two lanes from its own lower two.
//!
//! Constant time: nothing here branches on data or uses it as a memory index; the timing of
//! the SHA instructions themselves is the core's (no lookup tables are involved).

use core::arch::aarch64::{
    vaddq_u32, vld1q_u8, vld1q_u32, vreinterpretq_u32_u8, vrev32q_u8, vsha256h2q_u32,
    vsha256hq_u32, vsha256su0q_u32, vsha256su1q_u32, vst1q_u32,
};

use super::K;
use crate::cpu::arch::Sha256Ce;

/// Compresses whole 64-byte blocks into `state` (H0..H7) with the SHA256 instructions.
#[inline]
pub(super) fn compress(token: Sha256Ce, state: &mut [u32; 8], blocks: &[u8]) {
    // SAFETY: `token` proves the CPU has the SHA256 and NEON instructions `compress_ce`
    // enables.
    unsafe { compress_ce(token, state, blocks) }
}

#[target_feature(enable = "sha2,neon")]
unsafe fn compress_ce(_t: Sha256Ce, state: &mut [u32; 8], blocks: &[u8]) {
    // SAFETY: the caller's token proves the enabled features. Every load reads 16 bytes at
    // offset 0, 16, 32 or 48 of a 64-byte chunk, at word 4j (j < 16) of the 64-word `K`, or
    // at word 0 or 4 of `state`; the stores write words 0..8 of `state`. NEON loads/stores
    // of u8/u32 need no alignment beyond the element's.
    unsafe {
        // Four big-endian words (FIPS 180-4 §3.1, §5.2.1) from 16 bytes.
        macro_rules! load_be {
            ($p:expr) => {
                vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8($p)))
            };
        }

        let mut abcd = vld1q_u32(state.as_ptr());
        let mut efgh = vld1q_u32(state.as_ptr().add(4));

        for block in blocks.chunks_exact(64) {
            let p = block.as_ptr();
            let mut w0 = load_be!(p);
            let mut w1 = load_be!(p.add(16));
            let mut w2 = load_be!(p.add(32));
            let mut w3 = load_be!(p.add(48));
            let (abcd_in, efgh_in) = (abcd, efgh);

            // Defined here, after the variables they name (macro_rules hygiene).
            // Rounds 4g..4g+4 on the words in `$w`.
            macro_rules! rounds4 {
                ($g:expr, $w:expr) => {{
                    let wk = vaddq_u32($w, vld1q_u32(K.as_ptr().add(4 * $g)));
                    let abcd_old = abcd;
                    abcd = vsha256hq_u32(abcd, efgh, wk);
                    efgh = vsha256h2q_u32(efgh, abcd_old, wk);
                }};
            }
            // `$w0` (group j) becomes group j + 4 from groups j, j+1, j+2, j+3.
            macro_rules! schedule {
                ($w0:ident, $w1:ident, $w2:ident, $w3:ident) => {
                    $w0 = vsha256su1q_u32(vsha256su0q_u32($w0, $w1), $w2, $w3);
                };
            }
            // Groups $g..$g+4; with `schedule`, each also computes the words 16 rounds ahead.
            macro_rules! rounds16 {
                ($g:expr $(, $schedule:ident)?) => {
                    rounds4!($g, w0);
                    $($schedule!(w0, w1, w2, w3);)?
                    rounds4!($g + 1, w1);
                    $($schedule!(w1, w2, w3, w0);)?
                    rounds4!($g + 2, w2);
                    $($schedule!(w2, w3, w0, w1);)?
                    rounds4!($g + 3, w3);
                    $($schedule!(w3, w0, w1, w2);)?
                };
            }

            rounds16!(0, schedule); // rounds 0..16, W[16..32]
            rounds16!(4, schedule); // rounds 16..32, W[32..48]
            rounds16!(8, schedule); // rounds 32..48, W[48..64]
            rounds16!(12); // rounds 48..64

            // §6.2.2 step 4: H(i) = working variables + H(i-1).
            abcd = vaddq_u32(abcd, abcd_in);
            efgh = vaddq_u32(efgh, efgh_in);
        }

        vst1q_u32(state.as_mut_ptr(), abcd);
        vst1q_u32(state.as_mut_ptr().add(4), efgh);
    }
}
