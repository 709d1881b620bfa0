//! SHA-512 compression (FIPS 180-4 §6.4.2) with the ARMv8.2 SHA512 instructions (FEAT_SHA512):
//! SHA512H, SHA512H2, SHA512SU0 and SHA512SU1 (Arm ARM, DDI 0487, C7.2), through
//! `core::arch::aarch64`. SHA-384 and SHA-512/t use it with other initial values.
//!
//! # Lane layout
//! Lane 0 ("lo") is the least significant 64 bits of a 128-bit vector, lane 1 ("hi") the
//! other; `[x, y]` below means lo = x, hi = y.
//! - The working variables (§6.4.2 step 2) live in four pairs in memory order,
//!   `ab = [a, b]`, `cd = [c, d]`, `ef = [e, f]`, `gh = [g, h]`, so plain loads of H0..H7 give
//!   them.
//! - `w0..w7`: two consecutive schedule words `[W[2j], W[2j+1]]` (§6.4.2 step 1) for the pair
//!   of rounds j the variable holds now; `w{j mod 8}` holds pair j.
//!
//! # Two rounds (rounds t and t+1 of §6.4.2 step 3)
//! With T1(t) = h + Σ1(e) + Ch(e, f, g) + K[t] + W[t] and T2 = Σ0(a) + Maj(a, b, c), the
//! Arm ARM pseudocode of the two instructions reads:
//! - `SHA512H(Vd, Vn, Vm)`: Vd = [g + K[t+1] + W[t+1], h + K[t] + W[t]] (its hi lane is the
//!   round-t part of T1 that needs no e, f, g; lo is round t+1's, whose h is today's g),
//!   Vn = [f, g], Vm = [d, e]. It computes T1(t) in hi, then e' = d + T1(t) internally, then
//!   T1(t+1) with (e', e, f) as (e, f, g) in lo: the result is `[T1(t+1), T1(t)]`.
//! - `SHA512H2(Vd, Vn, Vm)`: Vd = `[T1(t+1), T1(t)]`, Vn = [c, d] (it reads c), Vm = [a, b].
//!   It computes a' = T1(t) + T2(a, b, c) in hi, then a'' = T1(t+1) + T2(a', a, b) in lo:
//!   the result is `[a'', a']`.
//!
//! After the two rounds the variables are (a'', a', a, b, e'', e', e, f), with
//! e'' = c + T1(t+1) and e' = d + T1(t), i.e. `[e'', e'] = cd + [T1(t+1), T1(t)]`. So the
//! pairs become `ab ← [a'', a']`, `cd ← ab`, `ef ← cd + T1s`, `gh ← ef`: no shuffling but the
//! two `EXT`s that form `[f, g]` and `[d, e]`, and one that swaps K + W.
//!
//! # Message schedule
//! W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] for 16 ≤ t < 80. For `[W[t], W[t+1]]`:
//! SHA512SU0(W[t-16..t-14], W[t-14..t-12]) gives W[t-16..] + σ0(W[t-15..t-13]);
//! SHA512SU1(that, W[t-2..t], W[t-7..t-5]) adds σ1(W[t-2..t]) and W[t-7..t-5], where the
//! pair W[t-7], W[t-6] straddles two schedule vectors and is formed with `EXT`.
//!
//! Constant time: nothing here branches on data or uses it as a memory index; the timing of
//! the SHA instructions themselves is the core's (no lookup tables are involved).

use core::arch::aarch64::{
    vaddq_u64, vextq_u64, vld1q_u8, vld1q_u64, vreinterpretq_u64_u8, vrev64q_u8, vsha512h2q_u64,
    vsha512hq_u64, vsha512su0q_u64, vsha512su1q_u64, vst1q_u64,
};

use super::K;
use crate::cpu::arch::Sha512Ce;

/// Compresses whole 128-byte blocks into `state` (H0..H7) with the SHA512 instructions.
#[inline]
pub(super) fn compress(token: Sha512Ce, state: &mut [u64; 8], blocks: &[u8]) {
    // SAFETY: `token` proves the CPU has the SHA512 and NEON instructions `compress_ce`
    // enables.
    unsafe { compress_ce(token, state, blocks) }
}

#[target_feature(enable = "sha3,neon")]
unsafe fn compress_ce(_t: Sha512Ce, state: &mut [u64; 8], blocks: &[u8]) {
    // SAFETY: the caller's token proves the enabled features. Every load reads 16 bytes at
    // offset 16i (i < 8) of a 128-byte chunk, at word 2j (j < 40) of the 80-word `K`, or at
    // word 0, 2, 4 or 6 of `state`; the stores write words 0..8 of `state`. NEON
    // loads/stores of u8/u64 need no alignment beyond the element's.
    unsafe {
        // Two big-endian words (FIPS 180-4 §3.1, §5.2.2) from 16 bytes.
        macro_rules! load_be {
            ($p:expr) => {
                vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8($p)))
            };
        }

        let mut ab = vld1q_u64(state.as_ptr());
        let mut cd = vld1q_u64(state.as_ptr().add(2));
        let mut ef = vld1q_u64(state.as_ptr().add(4));
        let mut gh = vld1q_u64(state.as_ptr().add(6));

        for block in blocks.chunks_exact(128) {
            let p = block.as_ptr();
            let mut w0 = load_be!(p);
            let mut w1 = load_be!(p.add(16));
            let mut w2 = load_be!(p.add(32));
            let mut w3 = load_be!(p.add(48));
            let mut w4 = load_be!(p.add(64));
            let mut w5 = load_be!(p.add(80));
            let mut w6 = load_be!(p.add(96));
            let mut w7 = load_be!(p.add(112));
            let (ab_in, cd_in, ef_in, gh_in) = (ab, cd, ef, gh);

            // Defined here, after the variables they name (macro_rules hygiene).
            // Rounds 2j and 2j+1 on the words in `$w` (see the module docs).
            macro_rules! rounds2 {
                ($j:expr, $w:expr) => {{
                    let kw = vaddq_u64($w, vld1q_u64(K.as_ptr().add(2 * $j)));
                    // [g + K[t+1] + W[t+1], h + K[t] + W[t]]
                    let hkw = vaddq_u64(vextq_u64::<1>(kw, kw), gh);
                    let fg = vextq_u64::<1>(ef, gh);
                    let de = vextq_u64::<1>(cd, ef);
                    let t1 = vsha512hq_u64(hkw, fg, de); // [T1(t+1), T1(t)]
                    let a2 = vsha512h2q_u64(t1, cd, ab); // [a'', a']
                    gh = ef;
                    ef = vaddq_u64(cd, t1); // [e'', e']
                    cd = ab;
                    ab = a2;
                }};
            }
            // `$w0` (pair j) becomes pair j + 8, from pairs j, j+1 (σ0), j+4 and j+5 (the
            // straddling W[t-7], W[t-6]) and j+7 (σ1).
            macro_rules! schedule {
                ($w0:ident, $w1:ident, $w4:ident, $w5:ident, $w7:ident) => {
                    $w0 = vsha512su1q_u64(vsha512su0q_u64($w0, $w1), $w7, vextq_u64::<1>($w4, $w5));
                };
            }
            // Pairs $j..$j+8; with `schedule`, each also computes the words 16 rounds ahead.
            macro_rules! rounds16 {
                ($j:expr $(, $schedule:ident)?) => {
                    rounds2!($j, w0);
                    $($schedule!(w0, w1, w4, w5, w7);)?
                    rounds2!($j + 1, w1);
                    $($schedule!(w1, w2, w5, w6, w0);)?
                    rounds2!($j + 2, w2);
                    $($schedule!(w2, w3, w6, w7, w1);)?
                    rounds2!($j + 3, w3);
                    $($schedule!(w3, w4, w7, w0, w2);)?
                    rounds2!($j + 4, w4);
                    $($schedule!(w4, w5, w0, w1, w3);)?
                    rounds2!($j + 5, w5);
                    $($schedule!(w5, w6, w1, w2, w4);)?
                    rounds2!($j + 6, w6);
                    $($schedule!(w6, w7, w2, w3, w5);)?
                    rounds2!($j + 7, w7);
                    $($schedule!(w7, w0, w3, w4, w6);)?
                };
            }

            rounds16!(0, schedule); // rounds 0..16, W[16..32]
            rounds16!(8, schedule); // rounds 16..32, W[32..48]
            rounds16!(16, schedule); // rounds 32..48, W[48..64]
            rounds16!(24, schedule); // rounds 48..64, W[64..80]
            rounds16!(32); // rounds 64..80

            // §6.4.2 step 4: H(i) = working variables + H(i-1).
            ab = vaddq_u64(ab, ab_in);
            cd = vaddq_u64(cd, cd_in);
            ef = vaddq_u64(ef, ef_in);
            gh = vaddq_u64(gh, gh_in);
        }

        vst1q_u64(state.as_mut_ptr(), ab);
        vst1q_u64(state.as_mut_ptr().add(2), cd);
        vst1q_u64(state.as_mut_ptr().add(4), ef);
        vst1q_u64(state.as_mut_ptr().add(6), gh);
    }
}
