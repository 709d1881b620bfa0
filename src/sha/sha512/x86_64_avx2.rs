//! SHA-512 compression for x86_64 CPUs with AVX2 and BMI2, and the same code with an EVEX
//! message schedule for CPUs that also have AVX-512VL (also used for SHA-384, SHA-512/224 and
//! SHA-512/256).
//!
//! # Two kernels, one body
//!
//! `hash_body!` is written once and expanded in two `#[target_feature]` functions that differ
//! only in the message-schedule step they pass it:
//!
//! - `hash_avx2` ([`Avx2Bmi2`], the "avx2" backend: Haswell to Cascade Lake, Zen 1–3 and any
//!   other CPU without AVX-512), with `schedule_avx2!`: AVX2 has no 64-bit rotate, so each
//!   `ROTR^n` is a right shift, a left shift and an xor (folded into the xors of σ);
//! - `hash_avx512` ([`Avx2Bmi2`] and [`Avx512Bmi2`], the "avx512" backend), with
//!   `schedule_evex!`: EVEX instructions on ymm registers, `vprorq` rotations and the
//!   three-input `vpternlogq`, 13 vector instructions per step instead of 23, which leaves more
//!   of the vector ALU ports to the scalar rounds.
//!
//! Both use the rounds of `round!`, ordered so that each of their two dependency chains ends
//! in one add after Σ (4 dependent steps instead of 5, see there).
//!
//! With these rounds, the EVEX schedule measured 1–3% faster at 16 KiB and 4–5% at 64 bytes than
//! the AVX2 schedule on an Emerald Rapids Xeon (`sha` masked, alternated runs, a shared machine:
//! ±5%).
//!
//! Rust 1.85 (our MSRV) cannot enable the `avx512*` target features, so the EVEX instructions
//! are written in `asm!` blocks, and the Rust code around them is compiled for AVX2 and BMI2
//! (`#[target_feature]` of the [`Avx2Bmi2`] token); the [`Avx512Bmi2`] token, passed along,
//! proves that the CPU has AVX512F and AVX512VL for the `asm!`. The blocks use only ymm0–15
//! (the `ymm_reg` class; ymm16–31 belong to `zmm_reg`, which needs `avx512f` enabled), never
//! a zmm register.
//!
//! # Layout
//!
//! Blocks go in pairs. The message schedule of FIPS 180-4 §6.4.2 step 1 runs on 256-bit
//! vectors whose low 128-bit lane holds two words of the first block and whose high lane
//! holds the same two words of the second. Each pair of words `X[j] = W[2j..2j+2]` gets
//! `K[2j..2j+2]` added (broadcast to both lanes) and is stored to a 1280-byte stack buffer
//! (one of two):
//!
//! ```text
//! wk[4j + 0..4j + 2] = W[2j..2j+2] + K[2j..2j+2] of the first block
//! wk[4j + 2..4j + 4] = the same for the second block
//! ```
//!
//! The rounds (§6.4.2 step 3) are scalar and read `W[t] + K[t]` from there, first all 80 for
//! the first block, then for the second. The vector code for the *next* pair is written in
//! among these rounds (two steps of two words per 8 rounds, over both blocks), into a second
//! buffer: the two are independent, and the out-of-order core runs them side by side (eight
//! steps at a time every 32 rounds measured 5–6% slower at 16 KiB with the AVX2 schedule).
//! With BMI2 the rotations of Σ0/Σ1 compile to `rorx`. An odd last block is scheduled in both
//! lanes and the second pass of rounds skipped; the block count is public.
//!
//! ## The padded blocks and short messages
//!
//! `finish` takes the whole blocks of the message where they lie, then the padded last block
//! or two (FIPS 180-4 §5.1.2), built 16 bytes at a time in registers
//! (`super::super::x86_64_pad`) and stored to a small buffer with one 16-byte store per chunk,
//! from which the schedule's 16-byte loads are forwarded; they run as the last blocks.
//!
//! With one or two blocks in all (messages shorter than 240 bytes) there is no next pair to
//! schedule, so the pair schedules itself among the rounds of its first block: one step after
//! every two rounds, 16 words ahead of the rounds that read them. A single block (messages
//! shorter than 112 bytes) is scheduled the same way with the block in both lanes, but only
//! the low lane is stored, `W + K` in order (80 words: half as much to wipe), and a padded
//! block is made straight in registers, without the buffer. (Four words of the one block per
//! step, across both lanes with σ1 applied in two halves, measured about 8% slower at 64 bytes
//! with the AVX2 schedule and was dropped.)
//!
//! The schedule buffers and the padded blocks hold message-derived words and are zeroed
//! before returning.
//!
//! ## The schedule step, two words at a time
//!
//! For `t = 2j`, `W[t+i] = σ1(W[t+i-2]) + W[t+i-7] + σ0(W[t+i-15]) + W[t+i-16]`, `i = 0, 1`.
//! With two words per step every term comes from earlier steps: `W[t-2..t]` is `X[j-1]`,
//! `W[t-16..t-14]` is `X[j-8]`, and `alignr` by one word gives `W[t-7..t-5]` from
//! `X[j-4], X[j-3]` and `W[t-15..t-13]` from `X[j-8], X[j-7]`.
//!
//! # Constant time
//!
//! Nothing here branches on or indexes by message or state data: addresses depend on the
//! round and block numbers only. The instructions on secret data (`add`, `sub`, `and`, `xor`,
//! `rorx`, `vpaddq`, `vpalignr`, `vpsllq`, `vpsrlq`, `vpor`, `vpxor`, `vprorq`, `vpternlogq`,
//! `vpshufb`, loads and stores) have data-independent timing. Valgrind cannot run AVX-512, so
//! the constant-time CI run masks `avx512f` and checks `hash_avx2`; it runs the same body and
//! rounds, and differs only in the schedule instructions listed.

use core::arch::x86_64::*;

use super::{K, big_sigma0, big_sigma1};
use crate::cpu::arch::{Avx2Bmi2, Avx512Bmi2};
use crate::sha::x86_64_pad::tail_chunk;

/// Compresses whole 128-byte blocks into `state`.
#[inline]
pub(super) fn compress(t: Avx2Bmi2, state: &mut [u64; 8], blocks: &[u8]) {
    debug_assert_eq!(blocks.len() % 128, 0);
    // SAFETY: the token proves that the CPU has every feature `hash_avx2` enables.
    unsafe { hash_avx2(t, state, blocks, None) }
}

/// Compresses the whole blocks of `data`, then its last `data.len() % 128` bytes padded for
/// a message of `bit_len` bits (FIPS 180-4 §5.1.2).
#[inline]
pub(super) fn finish(t: Avx2Bmi2, state: &mut [u64; 8], data: &[u8], bit_len: u128) {
    // SAFETY: the token proves that the CPU has every feature `hash_avx2` enables.
    unsafe { hash_avx2(t, state, data, Some(bit_len)) }
}

/// [`compress`] with the EVEX message schedule.
#[inline]
pub(super) fn compress_avx512(t: Avx2Bmi2, k: Avx512Bmi2, state: &mut [u64; 8], blocks: &[u8]) {
    debug_assert_eq!(blocks.len() % 128, 0);
    // SAFETY: the tokens prove that the CPU has every feature `hash_avx512` enables and every
    // EVEX instruction its `asm!` uses (AVX512F, AVX512VL).
    unsafe { hash_avx512(t, k, state, blocks, None) }
}

/// [`finish`] with the EVEX message schedule.
#[inline]
pub(super) fn finish_avx512(
    t: Avx2Bmi2,
    k: Avx512Bmi2,
    state: &mut [u64; 8],
    data: &[u8],
    bit_len: u128,
) {
    // SAFETY: as in `compress_avx512`.
    unsafe { hash_avx512(t, k, state, data, Some(bit_len)) }
}

/// `$x` through an empty `asm!`: the compiler cannot see that it is `$x`, so it cannot
/// reassociate the sums of `round!` across it, which could lengthen again the dependency
/// chains that they are ordered to shorten. It emits no instruction.
macro_rules! opaque {
    ($x:expr) => {{
        let mut v: u64 = $x;
        core::arch::asm!(
            "/* {0} */",
            inout(reg) v,
            options(pure, nomem, nostack, preserves_flags)
        );
        v
    }};
}

/// One round of §6.4.2 step 3, with the names rotated by the caller instead of moving the
/// values: `T1 = h + Σ1(e) + Ch(e, f, g) + K[t] + W[t]`, `T2 = Σ0(a) + Maj(a, b, c)`, new
/// `e = d + T1` (stored in `$d`), new `a = T1 + T2` (stored in `$h`).
///
/// The rounds are bound by two dependency chains, not by the ALU ports: new `e` from `e`, new `a`
/// from `a`. Summed in the order of the formulas (`T1`, then `d + T1`, and `T1 + (Σ0 + Maj)`), each
/// is 5 cycles long: 3 for Σ (`rorx`, `xor`, `xor`), then two adds. Here every term that does not
/// wait for Σ is added first, so that each chain ends in one add after Σ:
///
/// - new `e = ((d + W[t] + K[t] + h) + Ch(e, f, g)) + Σ1(e)`: `d`, `h` and `W + K` are known
///   before `e`, and `Ch = ((f ^ g) & e) ^ g` two instructions after it, before Σ1;
/// - `T1 = new e - d`;
/// - `Maj(a, b, c) = (a & (b ^ c)) + (b & c)`: the two terms never have a bit in common (where
///   `b & c` is 1, `b ^ c` is 0), so their xor is their sum. `$bc` carries `(b ^ c, b & c)`,
///   this round's `(a ^ b, a & b)`;
/// - new `a = ((T1 + (b & c)) + (a & (b ^ c))) + Σ0(a)`.
///
/// That is 4 cycles per chain for two more instructions per round (24 instead of 22, moves
/// not counted).
///
/// Measured with the AVX2 schedule on an Emerald Rapids Xeon with `sha` and `avx512f` masked
/// (`SIMDCRYPT_DISABLE`), against the formula order (with `Maj = b ^ ((a ^ b) & (b ^ c))`, `$bc`
/// carrying `b ^ c`), in alternated runs: SHA-512 5–15% faster, at every size from 16 bytes
/// to 16 KiB.
macro_rules! round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident,
     $bc:ident, $wk:expr) => {{
        let du = opaque!($d.wrapping_add($wk).wrapping_add($h));
        let ch = (($f ^ $g) & $e) ^ $g;
        let x = opaque!(du.wrapping_add(ch));
        let en = opaque!(x.wrapping_add(big_sigma1($e)));
        let t1 = en.wrapping_sub($d);
        $d = en;
        let y = opaque!(t1.wrapping_add($bc.1));
        let y = opaque!(y.wrapping_add($a & $bc.0));
        // After a block's last round this pair goes unused.
        #[allow(unused_assignments)]
        {
            $bc = ($a ^ $b, $a & $b);
        }
        $h = y.wrapping_add(big_sigma0($a));
    }};
}

/// Eight rounds reading `W + K` from `$p` (pairs of words at stride 4: `$p[0..2]`,
/// `$p[4..6]`, `$p[8..10]`, `$p[12..14]`); the names come back to where they started.
macro_rules! rounds8 {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident,
     $bc:ident, $p:expr) => {
        rounds8!($a, $b, $c, $d, $e, $f, $g, $h, $bc, $p; (); ())
    };
    // The same with two statements of other work placed after rounds 2 and 6 (the next
    // schedule steps, see `hash_body!`).
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident,
     $bc:ident, $p:expr; $s1:expr; $s2:expr) => {
        rounds8!($a, $b, $c, $d, $e, $f, $g, $h, $bc, $p; $s1; (); $s2; ())
    };
    // The same with four statements, one after every two rounds.
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident,
     $bc:ident, $p:expr; $s1:expr; $s2:expr; $s3:expr; $s4:expr) => {
        rounds8!(@stride 4, $a, $b, $c, $d, $e, $f, $g, $h, $bc, $p; $s1; $s2; $s3; $s4)
    };
    // Pairs of words at stride `$st` (4 here, 2 for [`rounds8c`]).
    (@stride $st:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident,
     $h:ident, $bc:ident, $p:expr; $s1:expr; $s2:expr; $s3:expr; $s4:expr) => {{
        let p: *const u64 = $p;
        round!($a, $b, $c, $d, $e, $f, $g, $h, $bc, p.read());
        round!($h, $a, $b, $c, $d, $e, $f, $g, $bc, p.add(1).read());
        $s1;
        round!($g, $h, $a, $b, $c, $d, $e, $f, $bc, p.add($st).read());
        round!($f, $g, $h, $a, $b, $c, $d, $e, $bc, p.add($st + 1).read());
        $s2;
        round!($e, $f, $g, $h, $a, $b, $c, $d, $bc, p.add(2 * $st).read());
        round!($d, $e, $f, $g, $h, $a, $b, $c, $bc, p.add(2 * $st + 1).read());
        $s3;
        round!($c, $d, $e, $f, $g, $h, $a, $b, $bc, p.add(3 * $st).read());
        round!($b, $c, $d, $e, $f, $g, $h, $a, $bc, p.add(3 * $st + 1).read());
        $s4;
    }};
}

/// Eight rounds reading `W + K` from `$p[0..8]` (one block's words in order, as the
/// single-block path stores them), with a statement of other work after every two rounds.
macro_rules! rounds8c {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident,
     $bc:ident, $p:expr) => {
        rounds8c!($a, $b, $c, $d, $e, $f, $g, $h, $bc, $p; (); (); (); ())
    };
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident,
     $bc:ident, $p:expr; $s1:expr; $s2:expr; $s3:expr; $s4:expr) => {
        rounds8!(@stride 2, $a, $b, $c, $d, $e, $f, $g, $h, $bc, $p; $s1; $s2; $s3; $s4)
    };
}

/// 80 rounds over one block's `W + K` words, 2 per step at stride 4 starting at `wk`.
///
/// # Safety
/// `wk` must point at 2 readable words at each of the offsets `4j` for `j < 40`.
#[inline(always)]
unsafe fn rounds(state: &mut [u64; 8], wk: *const u64) {
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    let mut bc = (b ^ c, b & c);
    for i in 0..10 {
        // SAFETY: the caller guarantees 2 words at each of `wk + 4j`; chunk `i` reads
        // steps `j = 4i..4i + 4`, `i < 10`.
        unsafe { rounds8!(a, b, c, d, e, f, g, h, bc, wk.add(16 * i)) };
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(v);
    }
}

/// `ROTR^n` of every quadword (`$l = 64 - n`).
macro_rules! rotr {
    ($x:expr, $n:literal, $l:literal) => {
        _mm256_or_si256(_mm256_srli_epi64::<$n>($x), _mm256_slli_epi64::<$l>($x))
    };
}

/// The next pair of words from `X[j-8]` (`$x0`), `X[j-7]`, `X[j-4]`, `X[j-3]`, `X[j-1]`, in
/// both lanes.
macro_rules! schedule_avx2 {
    ($x0:expr, $x1:expr, $x4:expr, $x5:expr, $x7:expr) => {{
        let w15 = _mm256_alignr_epi8::<8>($x1, $x0); // W[t-15], W[t-14]
        let w7 = _mm256_alignr_epi8::<8>($x5, $x4); // W[t-7], W[t-6]
        // σ0 = ROTR^1 ^ ROTR^8 ^ SHR^7
        let s0 = _mm256_xor_si256(
            _mm256_xor_si256(rotr!(w15, 1, 63), rotr!(w15, 8, 56)),
            _mm256_srli_epi64::<7>(w15),
        );
        // σ1 = ROTR^19 ^ ROTR^61 ^ SHR^6 of W[t-2], W[t-1]
        let x7 = $x7;
        let s1 = _mm256_xor_si256(
            _mm256_xor_si256(rotr!(x7, 19, 45), rotr!(x7, 61, 3)),
            _mm256_srli_epi64::<6>(x7),
        );
        _mm256_add_epi64(_mm256_add_epi64($x0, w7), _mm256_add_epi64(s0, s1))
    }};
}

/// The next pair of words from `X[j-8]` (`$x0`), `X[j-7]`, `X[j-4]`, `X[j-3]`, `X[j-1]`, in
/// both lanes. EVEX on ymm0-15 (`ymm_reg`): `vprorq` rotates, `vpternlogq` with table 0x96
/// (`a ^ b ^ c`) folds the two xors of σ into one instruction.
macro_rules! schedule_evex {
    ($x0:expr, $x1:expr, $x4:expr, $x5:expr, $x7:expr) => {{
        let w: __m256i;
        core::arch::asm!(
            // W[t-15], W[t-14]; σ0 = ROTR^1 ^ ROTR^8 ^ SHR^7
            "vpalignr {t0}, {x1}, {x0}, 8",
            "vprorq {t1}, {t0}, 1",
            "vprorq {t2}, {t0}, 8",
            "vpsrlq {t0}, {t0}, 7",
            "vpternlogq {t0}, {t1}, {t2}, 0x96",
            // σ1 = ROTR^19 ^ ROTR^61 ^ SHR^6 of W[t-2], W[t-1]
            "vprorq {t1}, {x7}, 19",
            "vprorq {t2}, {x7}, 61",
            "vpsrlq {t3}, {x7}, 6",
            "vpternlogq {t1}, {t2}, {t3}, 0x96",
            // W[t-7], W[t-6]
            "vpalignr {t2}, {x5}, {x4}, 8",
            "vpaddq {t0}, {t0}, {t1}",
            "vpaddq {w}, {x0}, {t2}",
            "vpaddq {w}, {w}, {t0}",
            x0 = in(ymm_reg) $x0,
            x1 = in(ymm_reg) $x1,
            x4 = in(ymm_reg) $x4,
            x5 = in(ymm_reg) $x5,
            x7 = in(ymm_reg) $x7,
            t0 = out(ymm_reg) _,
            t1 = out(ymm_reg) _,
            t2 = out(ymm_reg) _,
            t3 = out(ymm_reg) _,
            w = lateout(ymm_reg) w,
            options(pure, nomem, nostack, preserves_flags),
        );
        w
    }};
}

/// Bytes `$off..$off + 16` of blocks `$pa` (low lane) and `$pb` (high lane), as big-endian
/// quadwords (§3.1).
macro_rules! load {
    ($pa:expr, $pb:expr, $off:expr) => {
        _mm256_shuffle_epi8(
            _mm256_loadu2_m128i($pb.add($off).cast(), $pa.add($off).cast()),
            _mm256_set_epi8(
                8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, //
                8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
            ),
        )
    };
}

/// Stores step `$j` plus `K[2j..2j+2]` (in both lanes) at `$out + 4j`.
macro_rules! put {
    ($out:expr, $j:expr, $x:expr) => {{
        let k = _mm256_broadcastsi128_si256(_mm_loadu_si128(K.as_ptr().add(2 * $j).cast()));
        _mm256_storeu_si256($out.add(4 * $j).cast(), _mm256_add_epi64($x, k));
    }};
}

/// Stores the low lane of step `$j` plus `K[2j..2j+2]` at `$out + 2j`: the single-block
/// layout, `W + K` in order.
macro_rules! put1 {
    ($out:expr, $j:expr, $x:expr) => {{
        let k = _mm_loadu_si128(K.as_ptr().add(2 * $j).cast());
        let x = _mm256_castsi256_si128($x);
        _mm_storeu_si128($out.add(2 * $j).cast(), _mm_add_epi64(x, k));
    }};
}

/// Single-block step `$j` (see `step!`), its low lane stored by `put1!`.
macro_rules! step1 {
    ($s:ident, $out:expr, $j:expr, $x0:ident, $x1:ident, $x4:ident, $x5:ident, $x7:ident) => {{
        $x0 = $s!($x0, $x1, $x4, $x5, $x7);
        put1!($out, $j, $x0);
    }};
}

/// Step `$j` from `X[j-8]` (`$x0`, which it replaces), `X[j-7]`, `X[j-4]`, `X[j-3]`, `X[j-1]`,
/// stored.
macro_rules! step {
    ($s:ident, $out:expr, $j:expr, $x0:ident, $x1:ident, $x4:ident, $x5:ident, $x7:ident) => {{
        $x0 = $s!($x0, $x1, $x4, $x5, $x7);
        put!($out, $j, $x0);
    }};
}

/// Steps `$j..$j + 8` (`$j` a multiple of 8, at least 8) from the previous eight, stored.
macro_rules! schedule8 {
    ($s:ident, $out:expr, $j:expr, $x0:ident, $x1:ident, $x2:ident, $x3:ident,
     $x4:ident, $x5:ident, $x6:ident, $x7:ident) => {{
        $x0 = $s!($x0, $x1, $x4, $x5, $x7);
        put!($out, $j, $x0);
        $x1 = $s!($x1, $x2, $x5, $x6, $x0);
        put!($out, $j + 1, $x1);
        $x2 = $s!($x2, $x3, $x6, $x7, $x1);
        put!($out, $j + 2, $x2);
        $x3 = $s!($x3, $x4, $x7, $x0, $x2);
        put!($out, $j + 3, $x3);
        $x4 = $s!($x4, $x5, $x0, $x1, $x3);
        put!($out, $j + 4, $x4);
        $x5 = $s!($x5, $x6, $x1, $x2, $x4);
        put!($out, $j + 5, $x5);
        $x6 = $s!($x6, $x7, $x2, $x3, $x5);
        put!($out, $j + 6, $x6);
        $x7 = $s!($x7, $x0, $x3, $x4, $x6);
        put!($out, $j + 7, $x7);
    }};
}

/// Loads steps 0..8 of two blocks into `$x0..$x7` and stores them.
macro_rules! load8 {
    ($out:expr, $pa:expr, $pb:expr, $x0:ident, $x1:ident, $x2:ident, $x3:ident,
     $x4:ident, $x5:ident, $x6:ident, $x7:ident) => {{
        $x0 = load!($pa, $pb, 0);
        $x1 = load!($pa, $pb, 16);
        $x2 = load!($pa, $pb, 32);
        $x3 = load!($pa, $pb, 48);
        $x4 = load!($pa, $pb, 64);
        $x5 = load!($pa, $pb, 80);
        $x6 = load!($pa, $pb, 96);
        $x7 = load!($pa, $pb, 112);
        put!($out, 0, $x0);
        put!($out, 1, $x1);
        put!($out, 2, $x2);
        put!($out, 3, $x3);
        put!($out, 4, $x4);
        put!($out, 5, $x5);
        put!($out, 6, $x6);
        put!($out, 7, $x7);
    }};
}

/// Clears what holds message-derived data: the first `$stores` 32-byte units of the schedule
/// buffers at `$buf` (a `Wk2`, 80 units) and, in the second form, the first `$nchunks <= 16`
/// chunks of the padded blocks at `$fin`. Plain vector stores (byte-wise volatile writes would
/// cost more than a block's rounds on short messages), then an empty `asm!` that is given the
/// address and may read the memory behind it, so that the stores cannot be dropped as dead (as
/// `crate::wipe` does).
macro_rules! wipe {
    ($buf:expr, $stores:expr) => {{
        let p = $buf.cast::<__m256i>();
        for j in 0..$stores {
            _mm256_storeu_si256(p.add(j), _mm256_setzero_si256());
        }
        core::arch::asm!("/* {0} */", in(reg) p, options(nostack, preserves_flags, readonly));
    }};
    ($buf:expr, $stores:expr, $fin:expr, $nchunks:expr) => {{
        for c in 0..$nchunks {
            _mm_store_si128($fin.add(c), _mm_setzero_si128());
        }
        core::arch::asm!("/* {0} */", in(reg) $fin, options(nostack, preserves_flags, readonly));
        wipe!($buf, $stores);
    }};
}

/// Two schedule buffers of 160 words (see the module docs): the rounds of one pair of blocks
/// read one while the vector units fill the other for the next pair. 16-byte alignment needs
/// no stack realignment (which would take `rbp`, and the rounds need every register); the
/// 32-byte stores are unaligned ones.
#[repr(C, align(16))]
struct Wk2([[u64; 160]; 2]);

/// The body of `hash_avx2` and `hash_avx512` (see the module docs), with `$s` the schedule
/// step (`schedule_avx2` or `schedule_evex`); `$state`, `$data` and `$last` are theirs. It
/// must be expanded in a function with the features of [`Avx2Bmi2`] enabled and, for
/// `schedule_evex`, on a CPU with AVX512F and AVX512VL.
macro_rules! hash_body {
    ($s:ident, $state:ident, $data:ident, $last:ident) => {{
        let state: &mut [u64; 8] = $state;
        let data: &[u8] = $data;
        let last: Option<u128> = $last;
        let nd = data.len() / 128;
        let tail = &data[128 * nd..];
        // The padding needs 17 bytes after the tail: 0x80 and the 128-bit length.
        let (n, bits) = match last {
            None => (nd, 0),
            Some(b) if tail.len() + 17 > 128 => (nd + 2, b),
            Some(b) => (nd + 1, b),
        };
        if n == 0 {
            return;
        }
        // The padded block(s) after the `nd` blocks of `data`, built 16 bytes at a time in
        // registers (`super::super::x86_64_pad`) and stored with one 16-byte store per chunk, from
        // which the schedule's 16-byte loads of them are forwarded.
        let mut fin = core::mem::MaybeUninit::<[__m128i; 16]>::uninit();
        let finp = fin.as_mut_ptr().cast::<__m128i>();
        // A single padded block (no whole block before it) is built straight into registers
        // below instead.
        let nchunks = if n == 1 { 0 } else { 8 * (n - nd) };
        for c in 0..nchunks {
            // SAFETY: `tail_chunk!` reads only inside `tail` and its two 32-byte tables; store `c`
            // is inside `fin` (16 chunks of 16 bytes, 16-byte aligned). SSE2 and SSSE3 are implied
            // by AVX2, enabled here.
            unsafe {
                let mut v = tail_chunk!(tail, c);
                if c + 1 == nchunks {
                    // The length, big-endian, in the last 16 bytes.
                    let hi = ((bits >> 64) as u64).swap_bytes();
                    let lo = (bits as u64).swap_bytes();
                    v = _mm_or_si128(v, _mm_set_epi64x(lo as i64, hi as i64));
                }
                _mm_store_si128(finp.add(c), v);
            }
        }
        let base = data.as_ptr();
        // Block `k < n`: in `data`, or one of the padded blocks. Public indices only.
        let block = |k: usize| -> *const u8 {
            if k < nd {
                base.wrapping_add(128 * k)
            } else {
                finp.cast::<u8>().wrapping_add(128 * (k - nd)).cast_const()
            }
        };
        // Never read before written: every word of a buffer is stored before its rounds run.
        let mut wk = core::mem::MaybeUninit::<Wk2>::uninit();
        let buf = wk.as_mut_ptr().cast::<u64>();
        let (mut x0, mut x1, mut x2, mut x3, mut x4, mut x5, mut x6, mut x7);
        if n == 1 {
            // One block (every message shorter than 112 bytes): the schedule of the pair path
            // with the block in both lanes, but only the low lane stored, in order (80 words), so
            // that there is half as much to wipe. Its steps go in among the rounds as there.
            //
            // SAFETY: with `nd == 1` the block is the 128 bytes of `data`; otherwise it is built
            // here in registers (`tail_chunk!` reads only inside `tail` and its two 32-byte
            // tables). `K` has 80 words and step `j < 40` reads `K[2j..2j+2]`; the stores write
            // words `2j..2j+2` of buffer 0 (160 words) and the rounds read words `0..80` after
            // they were stored. The intrinsics' features are enabled here.
            unsafe {
                let bswap = _mm256_set_epi8(
                    8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, //
                    8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
                );
                let mut r = [_mm_setzero_si128(); 8];
                if nd == 1 {
                    for (i, r) in r.iter_mut().enumerate() {
                        *r = _mm_loadu_si128(base.add(16 * i).cast());
                    }
                } else {
                    for (i, r) in r.iter_mut().enumerate() {
                        *r = tail_chunk!(tail, i);
                    }
                    // The length, big-endian, in the last 16 bytes.
                    let hi = ((bits >> 64) as u64).swap_bytes();
                    let lo = (bits as u64).swap_bytes();
                    r[7] = _mm_or_si128(r[7], _mm_set_epi64x(lo as i64, hi as i64));
                }
                let w = |i: usize| _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(r[i]), bswap);
                let (mut x0, mut x1, mut x2, mut x3) = (w(0), w(1), w(2), w(3));
                let (mut x4, mut x5, mut x6, mut x7) = (w(4), w(5), w(6), w(7));
                let out = buf;
                put1!(out, 0, x0);
                put1!(out, 1, x1);
                put1!(out, 2, x2);
                put1!(out, 3, x3);
                put1!(out, 4, x4);
                put1!(out, 5, x5);
                put1!(out, 6, x6);
                put1!(out, 7, x7);
                let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
                let mut bc = (b ^ c, b & c);
                rounds8c!(a, b, c, d, e, f, g, h, bc, out;
                    step1!($s, out, 8, x0, x1, x4, x5, x7);
                    step1!($s, out, 9, x1, x2, x5, x6, x0);
                    step1!($s, out, 10, x2, x3, x6, x7, x1);
                    step1!($s, out, 11, x3, x4, x7, x0, x2));
                rounds8c!(a, b, c, d, e, f, g, h, bc, out.add(8);
                    step1!($s, out, 12, x4, x5, x0, x1, x3);
                    step1!($s, out, 13, x5, x6, x1, x2, x4);
                    step1!($s, out, 14, x6, x7, x2, x3, x5);
                    step1!($s, out, 15, x7, x0, x3, x4, x6));
                rounds8c!(a, b, c, d, e, f, g, h, bc, out.add(16);
                    step1!($s, out, 16, x0, x1, x4, x5, x7);
                    step1!($s, out, 17, x1, x2, x5, x6, x0);
                    step1!($s, out, 18, x2, x3, x6, x7, x1);
                    step1!($s, out, 19, x3, x4, x7, x0, x2));
                rounds8c!(a, b, c, d, e, f, g, h, bc, out.add(24);
                    step1!($s, out, 20, x4, x5, x0, x1, x3);
                    step1!($s, out, 21, x5, x6, x1, x2, x4);
                    step1!($s, out, 22, x6, x7, x2, x3, x5);
                    step1!($s, out, 23, x7, x0, x3, x4, x6));
                rounds8c!(a, b, c, d, e, f, g, h, bc, out.add(32);
                    step1!($s, out, 24, x0, x1, x4, x5, x7);
                    step1!($s, out, 25, x1, x2, x5, x6, x0);
                    step1!($s, out, 26, x2, x3, x6, x7, x1);
                    step1!($s, out, 27, x3, x4, x7, x0, x2));
                rounds8c!(a, b, c, d, e, f, g, h, bc, out.add(40);
                    step1!($s, out, 28, x4, x5, x0, x1, x3);
                    step1!($s, out, 29, x5, x6, x1, x2, x4);
                    step1!($s, out, 30, x6, x7, x2, x3, x5);
                    step1!($s, out, 31, x7, x0, x3, x4, x6));
                rounds8c!(a, b, c, d, e, f, g, h, bc, out.add(48);
                    step1!($s, out, 32, x0, x1, x4, x5, x7);
                    step1!($s, out, 33, x1, x2, x5, x6, x0);
                    step1!($s, out, 34, x2, x3, x6, x7, x1);
                    step1!($s, out, 35, x3, x4, x7, x0, x2));
                rounds8c!(a, b, c, d, e, f, g, h, bc, out.add(56);
                    step1!($s, out, 36, x4, x5, x0, x1, x3);
                    step1!($s, out, 37, x5, x6, x1, x2, x4);
                    step1!($s, out, 38, x6, x7, x2, x3, x5);
                    step1!($s, out, 39, x7, x0, x3, x4, x6));
                rounds8c!(a, b, c, d, e, f, g, h, bc, out.add(64));
                rounds8c!(a, b, c, d, e, f, g, h, bc, out.add(72));
                for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
                    *s = s.wrapping_add(v);
                }
                // 80 words: 20 stores of 32 bytes; `fin` was not used.
                wipe!(buf, 20);
            }
            return;
        }
        if n <= 2 {
            // One pair (or one block in both lanes): its own schedule goes in among the rounds of
            // the first block, one step (two words of both blocks) after every two rounds, 16 words
            // ahead of the rounds that read them, so that the vector work overlaps the scalar
            // rounds instead of going before them.
            //
            // SAFETY: `block(0)` and, when n == 2, `block(1)` are 128 readable bytes (in `data`
            // or `fin`, whose chunks are all written above); the loads are unaligned. `K` has 80
            // words and step `j < 40` reads `K[2j..2j+2]`. The stores write words `4j..4j+4` of
            // buffer 0; the rounds read lane 0 (`4j..4j+2`), then lane 1 (`4j+2..4j+4`), `j < 40`,
            // after they were stored. The intrinsics' features are enabled here.
            unsafe {
                let pa = block(0);
                let pb = if n > 1 { block(1) } else { pa };
                let out = buf;
                load8!(out, pa, pb, x0, x1, x2, x3, x4, x5, x6, x7);
                let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
                let mut bc = (b ^ c, b & c);
                rounds8!(a, b, c, d, e, f, g, h, bc, out;
                    step!($s, out, 8, x0, x1, x4, x5, x7);
                    step!($s, out, 9, x1, x2, x5, x6, x0);
                    step!($s, out, 10, x2, x3, x6, x7, x1);
                    step!($s, out, 11, x3, x4, x7, x0, x2));
                rounds8!(a, b, c, d, e, f, g, h, bc, out.add(16);
                    step!($s, out, 12, x4, x5, x0, x1, x3);
                    step!($s, out, 13, x5, x6, x1, x2, x4);
                    step!($s, out, 14, x6, x7, x2, x3, x5);
                    step!($s, out, 15, x7, x0, x3, x4, x6));
                rounds8!(a, b, c, d, e, f, g, h, bc, out.add(32);
                    step!($s, out, 16, x0, x1, x4, x5, x7);
                    step!($s, out, 17, x1, x2, x5, x6, x0);
                    step!($s, out, 18, x2, x3, x6, x7, x1);
                    step!($s, out, 19, x3, x4, x7, x0, x2));
                rounds8!(a, b, c, d, e, f, g, h, bc, out.add(48);
                    step!($s, out, 20, x4, x5, x0, x1, x3);
                    step!($s, out, 21, x5, x6, x1, x2, x4);
                    step!($s, out, 22, x6, x7, x2, x3, x5);
                    step!($s, out, 23, x7, x0, x3, x4, x6));
                rounds8!(a, b, c, d, e, f, g, h, bc, out.add(64);
                    step!($s, out, 24, x0, x1, x4, x5, x7);
                    step!($s, out, 25, x1, x2, x5, x6, x0);
                    step!($s, out, 26, x2, x3, x6, x7, x1);
                    step!($s, out, 27, x3, x4, x7, x0, x2));
                rounds8!(a, b, c, d, e, f, g, h, bc, out.add(80);
                    step!($s, out, 28, x4, x5, x0, x1, x3);
                    step!($s, out, 29, x5, x6, x1, x2, x4);
                    step!($s, out, 30, x6, x7, x2, x3, x5);
                    step!($s, out, 31, x7, x0, x3, x4, x6));
                rounds8!(a, b, c, d, e, f, g, h, bc, out.add(96);
                    step!($s, out, 32, x0, x1, x4, x5, x7);
                    step!($s, out, 33, x1, x2, x5, x6, x0);
                    step!($s, out, 34, x2, x3, x6, x7, x1);
                    step!($s, out, 35, x3, x4, x7, x0, x2));
                rounds8!(a, b, c, d, e, f, g, h, bc, out.add(112);
                    step!($s, out, 36, x4, x5, x0, x1, x3);
                    step!($s, out, 37, x5, x6, x1, x2, x4);
                    step!($s, out, 38, x6, x7, x2, x3, x5);
                    step!($s, out, 39, x7, x0, x3, x4, x6));
                rounds8!(a, b, c, d, e, f, g, h, bc, out.add(128));
                rounds8!(a, b, c, d, e, f, g, h, bc, out.add(144));
                for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
                    *s = s.wrapping_add(v);
                }
                if n == 2 {
                    let q = out.add(2).cast_const();
                    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
                    let mut bc = (b ^ c, b & c);
                    rounds8!(a, b, c, d, e, f, g, h, bc, q);
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(16));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(32));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(48));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(64));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(80));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(96));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(112));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(128));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(144));
                    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
                        *s = s.wrapping_add(v);
                    }
                }
            }
            // SAFETY: as for the wipe at the end.
            unsafe { wipe!(buf, 40, finp, nchunks) };
            return;
        }
        // SAFETY: blocks 0 and 1 are 128 readable bytes each (`n > 2`); the loads are unaligned.
        // `K` has 80 words and step `j < 40` reads `K[2j..2j+2]`. The stores write words
        // `4j..4j+4` of buffer 0 (`buf` points at `Wk2`, two buffers of 160 words). The
        // intrinsics' features are enabled here.
        unsafe {
            let pa = block(0);
            let pb = block(1);
            let out = buf;
            load8!(out, pa, pb, x0, x1, x2, x3, x4, x5, x6, x7);
            for j in [8, 16, 24, 32] {
                schedule8!($s, out, j, x0, x1, x2, x3, x4, x5, x6, x7);
            }
        }
        let mut i = 0;
        let mut cur = 0;
        while i < n {
            let two = i + 1 < n;
            let cur_p = buf.wrapping_add(160 * cur).cast_const();
            if i + 2 < n {
                // Both blocks of this pair (`two` holds), with the schedule of the next pair
                // (blocks i + 2 and i + 3, or i + 2 twice) spread over their rounds: the two are
                // independent, so the out-of-order core overlaps them.
                //
                // SAFETY: blocks i + 2 (and i + 3 when it exists) are 128 readable bytes. The
                // rounds read buffer `cur` at offsets `4j..4j+4`, `j < 40`; the stores write
                // buffer `cur ^ 1` as in the first pair above.
                unsafe {
                    let pa = block(i + 2);
                    let pb = if i + 3 < n { block(i + 3) } else { pa };
                    let out = buf.add(160 * (cur ^ 1));
                    // First block: lane 0. The next schedule goes in two steps per 8 rounds
                    // (after rounds 2 and 6) rather than in bursts, so that the scheduler's
                    // window always holds both vector and scalar work (measured 5-6% faster at
                    // 16 KiB than eight steps after every 32 rounds).
                    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
                    let mut bc = (b ^ c, b & c);
                    rounds8!(a, b, c, d, e, f, g, h, bc, cur_p);
                    load8!(out, pa, pb, x0, x1, x2, x3, x4, x5, x6, x7);
                    rounds8!(a, b, c, d, e, f, g, h, bc, cur_p.add(16);
                        step!($s, out, 8, x0, x1, x4, x5, x7);
                        step!($s, out, 9, x1, x2, x5, x6, x0));
                    rounds8!(a, b, c, d, e, f, g, h, bc, cur_p.add(32);
                        step!($s, out, 10, x2, x3, x6, x7, x1);
                        step!($s, out, 11, x3, x4, x7, x0, x2));
                    rounds8!(a, b, c, d, e, f, g, h, bc, cur_p.add(48);
                        step!($s, out, 12, x4, x5, x0, x1, x3);
                        step!($s, out, 13, x5, x6, x1, x2, x4));
                    rounds8!(a, b, c, d, e, f, g, h, bc, cur_p.add(64);
                        step!($s, out, 14, x6, x7, x2, x3, x5);
                        step!($s, out, 15, x7, x0, x3, x4, x6));
                    rounds8!(a, b, c, d, e, f, g, h, bc, cur_p.add(80);
                        step!($s, out, 16, x0, x1, x4, x5, x7);
                        step!($s, out, 17, x1, x2, x5, x6, x0));
                    rounds8!(a, b, c, d, e, f, g, h, bc, cur_p.add(96);
                        step!($s, out, 18, x2, x3, x6, x7, x1);
                        step!($s, out, 19, x3, x4, x7, x0, x2));
                    rounds8!(a, b, c, d, e, f, g, h, bc, cur_p.add(112);
                        step!($s, out, 20, x4, x5, x0, x1, x3);
                        step!($s, out, 21, x5, x6, x1, x2, x4));
                    rounds8!(a, b, c, d, e, f, g, h, bc, cur_p.add(128);
                        step!($s, out, 22, x6, x7, x2, x3, x5);
                        step!($s, out, 23, x7, x0, x3, x4, x6));
                    rounds8!(a, b, c, d, e, f, g, h, bc, cur_p.add(144);
                        step!($s, out, 24, x0, x1, x4, x5, x7);
                        step!($s, out, 25, x1, x2, x5, x6, x0));
                    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
                        *s = s.wrapping_add(v);
                    }
                    // Second block: lane 1.
                    let q = cur_p.add(2);
                    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
                    let mut bc = (b ^ c, b & c);
                    rounds8!(a, b, c, d, e, f, g, h, bc, q;
                        step!($s, out, 26, x2, x3, x6, x7, x1);
                        step!($s, out, 27, x3, x4, x7, x0, x2));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(16);
                        step!($s, out, 28, x4, x5, x0, x1, x3);
                        step!($s, out, 29, x5, x6, x1, x2, x4));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(32);
                        step!($s, out, 30, x6, x7, x2, x3, x5);
                        step!($s, out, 31, x7, x0, x3, x4, x6));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(48);
                        step!($s, out, 32, x0, x1, x4, x5, x7);
                        step!($s, out, 33, x1, x2, x5, x6, x0));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(64);
                        step!($s, out, 34, x2, x3, x6, x7, x1);
                        step!($s, out, 35, x3, x4, x7, x0, x2));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(80);
                        step!($s, out, 36, x4, x5, x0, x1, x3);
                        step!($s, out, 37, x5, x6, x1, x2, x4));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(96);
                        step!($s, out, 38, x6, x7, x2, x3, x5);
                        step!($s, out, 39, x7, x0, x3, x4, x6));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(112));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(128));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(144));
                    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
                        *s = s.wrapping_add(v);
                    }
                }
            } else {
                // SAFETY: buffer `cur` has 160 words; lane 0 is offsets `4j..4j+2` and lane 1
                // offsets `4j+2..4j+4`, `j < 40`.
                unsafe {
                    rounds(state, cur_p);
                    if two {
                        rounds(state, cur_p.add(2));
                    }
                }
            }
            i += 2;
            cur ^= 1;
        }
        // SAFETY: `buf` points at `wk` (2 × 1280 bytes, 16-byte aligned) and `finp` at `fin`
        // (16 chunks of 16 bytes, 16-byte aligned), both alive; see `wipe!` for the counts.
        unsafe { wipe!(buf, 80, finp, nchunks) };
    }};
}

/// The blocks of `data`, then, with `last = Some(bit_len)`, its padded tail; with `None` a
/// partial last block is ignored.
#[target_feature(enable = "avx2,avx,bmi2")]
unsafe fn hash_avx2(_t: Avx2Bmi2, state: &mut [u64; 8], data: &[u8], last: Option<u128>) {
    hash_body!(schedule_avx2, state, data, last)
}

/// The blocks of `data`, then, with `last = Some(bit_len)`, its padded tail; with `None` a
/// partial last block is ignored. With the EVEX schedule: the [`Avx512Bmi2`] token proves
/// AVX512F and AVX512VL for its `asm!`.
#[target_feature(enable = "avx2,avx,bmi2")]
unsafe fn hash_avx512(
    _t: Avx2Bmi2,
    _k: Avx512Bmi2,
    state: &mut [u64; 8],
    data: &[u8],
    last: Option<u128>,
) {
    hash_body!(schedule_evex, state, data, last)
}
