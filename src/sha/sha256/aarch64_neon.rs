//! SHA-256 compression (FIPS 180-4 §6.2.2) for aarch64 cores without the SHA-256 instructions
//! (Cortex-A53/A72 parts without the crypto extension, e.g. Raspberry Pi 3 and 4): the message
//! schedule runs four words at a time on Advanced SIMD, the rounds on general registers.
//!
//! # Why split the work
//! A round of §6.2.2 step 3 is a chain of scalar additions and rotations that a vector unit
//! cannot shorten, but the schedule (step 1, 48 of the 64 words) is four independent words at
//! a time once the σ1 dependency inside a group is split in two (below). On NEON it leaves the
//! integer pipes to the rounds; the two streams are independent, so an in-order dual-issue
//! core pairs them and an out-of-order core overlaps them. OpenSSL made the same split for its
//! aarch64 code (`crypto/sha/asm/sha512-armv8.pl`, "NEON stuff", October 2016 note).
//!
//! # Layout
//! `x0..x3` hold four consecutive groups of the schedule, W[4j..4j+4] in lanes 0..3 (lane 0 is
//! the least significant 32 bits). For each group the vector code adds K[4j..4j+4] and stores
//! the sums to `wk[4j..4j+4]`, a 64-word buffer on the stack; round t reads `wk[t]`. The four
//! groups of one block's rounds 16j..16j+16 are stored before those rounds and the next four
//! groups are computed among them (the compiler interleaves the independent streams; the
//! buffer has a slot per round, so no store waits for a load of an earlier round).
//!
//! # One schedule step
//! With x0 = W[t-16..t-12], x1 = W[t-12..t-8], x2 = W[t-8..t-4], x3 = W[t-4..t] and
//! W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16]:
//! - `ext(x0, x1, 1)` = W[t-15..t-11] and `ext(x2, x3, 1)` = W[t-7..t-3], so
//!   s = x0 + W[t-7..t-3] + σ0(W[t-15..t-11]) is everything but σ1, four lanes at once;
//! - W[t], W[t+1] = low half of s + σ1(W[t-2], W[t-1]) (the high half of x3), 64-bit vectors;
//! - W[t+2], W[t+3] = high half of s + σ1(W[t], W[t+1]).
//!
//! NEON has no rotate: ROTR^n(x) is a right shift by n with the low n bits then inserted from a
//! left shift by 32 − n (`USHR` then `SLI`).
//!
//! # Speed (llvm-mca model estimates, `scripts/mca`, cycles/byte; no hardware measured)
//! This kernel: A53 22.8, A55 16.4, A57/A72 8.7, ThunderX2 16.0. The portable kernel (`soft`,
//! a rolled round loop): 33.6, 32.1, 21.8, 29.0, so this one is dispatched before it. OpenSSL's
//! scalar aarch64 code, measured: A53 15.5, A57 11.6, ThunderX2 13.2 (`sha512-armv8.pl`). A
//! fully unrolled scalar variant of the same rounds (schedule on general registers; tried, not
//! kept) models at 16.5, 16.2, 10.6, 15.3: ahead of this kernel on the in-order A53, even on
//! the A55, behind it on the A57/A72 — OpenSSL's note reports the same shape ("marginal" on
//! A53, about 10 % on A57). The in-order models are 1.3–3x pessimistic in absolute terms.
//!
//! # Wiping
//! `wk` holds message-derived words (for HMAC, words of the padded key): it is zeroed with the
//! stores `crate::wipe` keeps after the last block.
//!
//! Constant time: the vector instructions (`LD1`, `REV32`, `EXT`, `USHR`, `SLI`, `EOR`, `ADD`,
//! `ST1`) and the scalar ones (`ADD`, `EOR`, `AND`, `BIC`, `ORR`, `ROR`, loads of `wk`) have
//! data-independent timing; addresses depend on the round and block numbers only, and no branch
//! depends on data (the block count is public).

use core::arch::aarch64::{
    uint32x2_t, uint32x4_t, vadd_u32, vaddq_u32, vcombine_u32, veor_u32, veorq_u32, vextq_u32,
    vget_high_u32, vget_low_u32, vld1q_u8, vld1q_u32, vreinterpretq_u32_u8, vrev32q_u8, vshr_n_u32,
    vshrq_n_u32, vsli_n_u32, vsliq_n_u32, vst1q_u32,
};

use super::{K, big_sigma0, big_sigma1};
use crate::cpu::arch::Neon;
use crate::wipe::wipe;

/// Compresses whole 64-byte blocks into `state` (H0..H7).
#[inline]
pub(super) fn compress(token: Neon, state: &mut [u32; 8], blocks: &[u8]) {
    // SAFETY: `token` proves the CPU has the Advanced SIMD instructions `compress_neon`
    // enables.
    unsafe { compress_neon(token, state, blocks) }
}

#[target_feature(enable = "neon")]
unsafe fn compress_neon(_t: Neon, state: &mut [u32; 8], blocks: &[u8]) {
    let mut wk = [0u32; 64];
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;

    for block in blocks.chunks_exact(64) {
        // SAFETY: the caller's token proves NEON. The loads read 16 bytes at offset 0, 16, 32
        // or 48 of the 64-byte `block` and at word 4j (j < 16) of the 64-word `K`; the stores
        // write words 4j..4j+4 (j < 16) of the 64-word `wk`, and the volatile loads read its
        // word t < 64. NEON loads and stores of u8/u32 need no alignment beyond the element's.
        unsafe {
            // Four big-endian words (§3.1, §5.2.1) from 16 bytes.
            macro_rules! load_be {
                ($p:expr) => {
                    vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8($p)))
                };
            }
            let p = block.as_ptr();
            let mut x0 = load_be!(p);
            let mut x1 = load_be!(p.add(16));
            let mut x2 = load_be!(p.add(32));
            let mut x3 = load_be!(p.add(48));

            // wk[4j..4j+4] = group j + K[4j..4j+4].
            macro_rules! store_wk {
                ($j:expr, $x:expr) => {
                    vst1q_u32(
                        wk.as_mut_ptr().add(4 * $j),
                        vaddq_u32($x, vld1q_u32(K.as_ptr().add(4 * $j))),
                    )
                };
            }
            // ROTR^n of each lane, on 4 or 2 lanes (the `SLI` amount is 32 − n).
            macro_rules! rotr_q {
                ($x:expr, $n:literal, $l:literal) => {
                    vsliq_n_u32::<$l>(vshrq_n_u32::<$n>($x), $x)
                };
            }
            macro_rules! rotr_d {
                ($x:expr, $n:literal, $l:literal) => {
                    vsli_n_u32::<$l>(vshr_n_u32::<$n>($x), $x)
                };
            }
            // σ0 (§4.1.2 (4.6)) of four lanes, σ1 ((4.7)) of two.
            macro_rules! small_sigma0_q {
                ($x:expr) => {{
                    let x: uint32x4_t = $x;
                    veorq_u32(
                        veorq_u32(rotr_q!(x, 7, 25), rotr_q!(x, 18, 14)),
                        vshrq_n_u32::<3>(x),
                    )
                }};
            }
            macro_rules! small_sigma1_d {
                ($x:expr) => {{
                    let x: uint32x2_t = $x;
                    veor_u32(
                        veor_u32(rotr_d!(x, 17, 15), rotr_d!(x, 19, 13)),
                        vshr_n_u32::<10>(x),
                    )
                }};
            }
            // `$x0` (group j) becomes group j + 4 from groups j..j+3 (module docs).
            macro_rules! schedule {
                ($x0:ident, $x1:ident, $x2:ident, $x3:ident) => {{
                    let s = vaddq_u32(
                        vaddq_u32($x0, vextq_u32::<1>($x2, $x3)),
                        small_sigma0_q!(vextq_u32::<1>($x0, $x1)),
                    );
                    let lo = vadd_u32(vget_low_u32(s), small_sigma1_d!(vget_high_u32($x3)));
                    let hi = vadd_u32(vget_high_u32(s), small_sigma1_d!(lo));
                    $x0 = vcombine_u32(lo, hi);
                }};
            }
            // Round t (§6.2.2 step 3) with the names rotated instead of the values moved: the
            // new e lands in `$d`, the new a in `$h`. `wk[t]` is read with a volatile load:
            // otherwise the compiler forwards the vector store and moves each word from a
            // vector lane to a general register (`UMOV`), which models slower on the in-order
            // cores (A53: 23.6 against 22.8 cycles/byte, `scripts/mca`).
            macro_rules! round {
                ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident,
                 $h:ident, $t:expr) => {{
                    let ch = (($f ^ $g) & $e) ^ $g;
                    let maj = (($a ^ $b) & ($b ^ $c)) ^ $b;
                    let t1 = $h
                        .wrapping_add(wk.as_ptr().add($t).read_volatile())
                        .wrapping_add(ch)
                        .wrapping_add(big_sigma1($e));
                    $d = $d.wrapping_add(t1);
                    $h = t1.wrapping_add(big_sigma0($a)).wrapping_add(maj);
                }};
            }
            // `$x0` (group `$j` − 4) becomes group `$j` and goes to `wk` with its K added.
            macro_rules! next {
                ($x0:ident, $x1:ident, $x2:ident, $x3:ident, $j:expr) => {
                    schedule!($x0, $x1, $x2, $x3);
                    store_wk!($j, $x0);
                };
            }
            // Rounds 16i..16i+16; with `next`, also groups 4i+4..4i+8 of the schedule, one
            // after every four rounds.
            macro_rules! rounds16 {
                ($i:expr $(, $next:ident)?) => {
                    round!(a, b, c, d, e, f, g, h, 16 * $i);
                    round!(h, a, b, c, d, e, f, g, 16 * $i + 1);
                    round!(g, h, a, b, c, d, e, f, 16 * $i + 2);
                    round!(f, g, h, a, b, c, d, e, 16 * $i + 3);
                    $($next!(x0, x1, x2, x3, 4 * $i + 4);)?
                    round!(e, f, g, h, a, b, c, d, 16 * $i + 4);
                    round!(d, e, f, g, h, a, b, c, 16 * $i + 5);
                    round!(c, d, e, f, g, h, a, b, 16 * $i + 6);
                    round!(b, c, d, e, f, g, h, a, 16 * $i + 7);
                    $($next!(x1, x2, x3, x0, 4 * $i + 5);)?
                    round!(a, b, c, d, e, f, g, h, 16 * $i + 8);
                    round!(h, a, b, c, d, e, f, g, 16 * $i + 9);
                    round!(g, h, a, b, c, d, e, f, 16 * $i + 10);
                    round!(f, g, h, a, b, c, d, e, 16 * $i + 11);
                    $($next!(x2, x3, x0, x1, 4 * $i + 6);)?
                    round!(e, f, g, h, a, b, c, d, 16 * $i + 12);
                    round!(d, e, f, g, h, a, b, c, 16 * $i + 13);
                    round!(c, d, e, f, g, h, a, b, 16 * $i + 14);
                    round!(b, c, d, e, f, g, h, a, 16 * $i + 15);
                    $($next!(x3, x0, x1, x2, 4 * $i + 7);)?
                };
            }

            store_wk!(0, x0);
            store_wk!(1, x1);
            store_wk!(2, x2);
            store_wk!(3, x3);
            rounds16!(0, next); // rounds 0..16, W[16..32]
            rounds16!(1, next); // rounds 16..32, W[32..48]
            rounds16!(2, next); // rounds 32..48, W[48..64]
            rounds16!(3); // rounds 48..64
        }

        // §6.2.2 step 4: H(i) = working variables + H(i-1).
        for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *s = s.wrapping_add(v);
        }
        [a, b, c, d, e, f, g, h] = *state;
    }
    wipe(&mut wk);
}
