//! SHA-1 compression (FIPS 180-4 §6.1.2) with the ARMv8 Cryptographic Extension: SHA1C,
//! SHA1P, SHA1M, SHA1H, SHA1SU0 and SHA1SU1 (Arm ARM, DDI 0487, C7.2 "Alphabetical list of
//! A64 Advanced SIMD and floating-point instructions"), through `core::arch::aarch64`.
//!
//! # Lane layout
//! Lane 0 is the least significant 32 bits of a 128-bit vector.
//! - `abcd`: lanes 0, 1, 2, 3 = working variables a, b, c, d (§6.1.2 step 2). The fifth
//!   variable, e, is a scalar `u32`. This is the layout SHA1C/P/M read: X<31:0> = a, ...,
//!   X<127:96> = d, and the scalar operand is e.
//! - `w0..w3`: four consecutive message-schedule words W[4j..4j+4] (§6.1.2 step 1) in lanes
//!   0..3, for the group j of four rounds the variable holds now; `w{j mod 4}` holds group j.
//!
//! # One group of four rounds
//! SHA1C (rounds 0–19, Ch), SHA1P (rounds 20–39 and 60–79, Parity) and SHA1M (rounds 40–59,
//! Maj) each run four rounds of §6.1.2 step 3 on `abcd`, e and the four words W[t] + K[t], and
//! return the new a, b, c, d. They do not return the new e: after four rounds e is
//! ROTL^30 of the a the group started with (e ← d ← c ← ROTL^30(b) ← a), which SHA1H computes
//! from lane 0 of the old `abcd`.
//!
//! # Message schedule
//! W[t] = ROTL^1(W[t-3] ⊕ W[t-8] ⊕ W[t-14] ⊕ W[t-16]) for 16 ≤ t < 80. For the four words
//! W[t..t+4]: SHA1SU0(W[t-16..], W[t-12..], W[t-8..]) gives W[t-16] ⊕ W[t-14] ⊕ W[t-8] per lane,
//! and SHA1SU1(that, W[t-4..]) folds in W[t-3] and rotates, taking the last lane's
//! W[t-3] = W[t] from its own first lane.
//!
//! Constant time: nothing here branches on data or uses it as a memory index; the timing of
//! the SHA instructions themselves is the core's (no lookup tables are involved).

use core::arch::aarch64::{
    uint32x4_t, vaddq_u32, vdupq_n_u32, vgetq_lane_u32, vld1q_u8, vld1q_u32, vreinterpretq_u32_u8,
    vrev32q_u8, vsha1cq_u32, vsha1h_u32, vsha1mq_u32, vsha1pq_u32, vsha1su0q_u32, vsha1su1q_u32,
    vst1q_u32,
};

use crate::cpu::arch::Sha1Ce;

/// FIPS 180-4 §4.2.1: K for rounds 0–19, 20–39, 40–59 and 60–79.
const K: [u32; 4] = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6];

/// Compresses whole 64-byte blocks into `state` (H0..H4) with the SHA1 instructions.
#[inline]
pub(super) fn compress(token: Sha1Ce, state: &mut [u32; 5], blocks: &[u8]) {
    // SAFETY: `token` proves the CPU has the SHA1 and NEON instructions `compress_ce` enables.
    unsafe { compress_ce(token, state, blocks) }
}

#[target_feature(enable = "sha2,neon")]
unsafe fn compress_ce(_t: Sha1Ce, state: &mut [u32; 5], blocks: &[u8]) {
    // SAFETY: the caller's token proves the enabled features. Every load reads 16 bytes at
    // offset 0, 16, 32 or 48 of a 64-byte chunk, or the first four words of `state`; the store
    // writes the first four words of `state`. NEON loads/stores of u8/u32 need no alignment
    // beyond the element's.
    unsafe {
        // Four big-endian words (FIPS 180-4 §3.1, §5.2.1) from 16 bytes.
        macro_rules! load_be {
            ($p:expr) => {
                vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8($p)))
            };
        }

        let k0: uint32x4_t = vdupq_n_u32(K[0]);
        let k1: uint32x4_t = vdupq_n_u32(K[1]);
        let k2: uint32x4_t = vdupq_n_u32(K[2]);
        let k3: uint32x4_t = vdupq_n_u32(K[3]);

        let mut abcd = vld1q_u32(state.as_ptr());
        let mut e = state[4];

        for block in blocks.chunks_exact(64) {
            let p = block.as_ptr();
            let mut w0 = load_be!(p);
            let mut w1 = load_be!(p.add(16));
            let mut w2 = load_be!(p.add(32));
            let mut w3 = load_be!(p.add(48));
            let (abcd_in, e_in) = (abcd, e);

            // Defined here, after the variables they name (macro_rules hygiene).
            // Four rounds of operation `$op` with constant `$k` on the words in `$w`.
            macro_rules! rounds4 {
                ($op:ident, $k:expr, $w:expr) => {{
                    let wk = vaddq_u32($w, $k);
                    let e_next = vsha1h_u32(vgetq_lane_u32::<0>(abcd));
                    abcd = $op(abcd, e, wk);
                    e = e_next;
                }};
            }
            // `$w0` (group j) becomes group j + 4 from groups j, j+1, j+2, j+3.
            macro_rules! schedule {
                ($w0:ident, $w1:ident, $w2:ident, $w3:ident) => {
                    $w0 = vsha1su1q_u32(vsha1su0q_u32($w0, $w1, $w2), $w3);
                };
            }

            // Rounds 0–19: Ch, K[0]. Each line: one group of four rounds, then the words
            // sixteen rounds ahead replace the ones just used.
            rounds4!(vsha1cq_u32, k0, w0); // rounds 0..4
            schedule!(w0, w1, w2, w3); // W[16..20]
            rounds4!(vsha1cq_u32, k0, w1); // rounds 4..8
            schedule!(w1, w2, w3, w0); // W[20..24]
            rounds4!(vsha1cq_u32, k0, w2);
            schedule!(w2, w3, w0, w1); // W[24..28]
            rounds4!(vsha1cq_u32, k0, w3);
            schedule!(w3, w0, w1, w2); // W[28..32]
            rounds4!(vsha1cq_u32, k0, w0); // rounds 16..20
            schedule!(w0, w1, w2, w3); // W[32..36]
            // Rounds 20–39: Parity, K[1].
            rounds4!(vsha1pq_u32, k1, w1);
            schedule!(w1, w2, w3, w0); // W[36..40]
            rounds4!(vsha1pq_u32, k1, w2);
            schedule!(w2, w3, w0, w1); // W[40..44]
            rounds4!(vsha1pq_u32, k1, w3);
            schedule!(w3, w0, w1, w2); // W[44..48]
            rounds4!(vsha1pq_u32, k1, w0);
            schedule!(w0, w1, w2, w3); // W[48..52]
            rounds4!(vsha1pq_u32, k1, w1); // rounds 36..40
            schedule!(w1, w2, w3, w0); // W[52..56]
            // Rounds 40–59: Maj, K[2].
            rounds4!(vsha1mq_u32, k2, w2);
            schedule!(w2, w3, w0, w1); // W[56..60]
            rounds4!(vsha1mq_u32, k2, w3);
            schedule!(w3, w0, w1, w2); // W[60..64]
            rounds4!(vsha1mq_u32, k2, w0);
            schedule!(w0, w1, w2, w3); // W[64..68]
            rounds4!(vsha1mq_u32, k2, w1);
            schedule!(w1, w2, w3, w0); // W[68..72]
            rounds4!(vsha1mq_u32, k2, w2); // rounds 56..60
            schedule!(w2, w3, w0, w1); // W[72..76]
            // Rounds 60–79: Parity, K[3]; the schedule ends with W[76..80].
            rounds4!(vsha1pq_u32, k3, w3);
            schedule!(w3, w0, w1, w2); // W[76..80]
            rounds4!(vsha1pq_u32, k3, w0);
            rounds4!(vsha1pq_u32, k3, w1);
            rounds4!(vsha1pq_u32, k3, w2);
            rounds4!(vsha1pq_u32, k3, w3); // rounds 76..80

            // §6.1.2 step 4: H(i) = working variables + H(i-1).
            abcd = vaddq_u32(abcd, abcd_in);
            e = e.wrapping_add(e_in);
        }

        vst1q_u32(state.as_mut_ptr(), abcd);
        state[4] = e;
    }
}
