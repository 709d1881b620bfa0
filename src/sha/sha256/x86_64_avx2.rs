//! SHA-256 compression for x86_64 CPUs with AVX2 and BMI2 but without SHA-NI (Intel Haswell
//! to Comet Lake and Cascade Lake; every AMD Zen has SHA-NI), and the same code with an EVEX
//! message schedule for CPUs that also have AVX-512VL (Intel Skylake-SP to Cooper Lake; the
//! later Intel cores with AVX-512 have SHA-NI). Both are also used when `sha` is masked.
//!
//! # Two kernels, one body
//!
//! `compress_body!` is written once and expanded in two `#[target_feature]` functions that
//! differ only in the message-schedule step they pass it:
//!
//! - `hash_avx2` ([`Avx2Bmi2`], the "avx2" backend), with `schedule_avx2!` (below);
//! - `hash_avx512` ([`Avx2Bmi2`] and [`Avx512Bmi2`], the "avx512" backend), with
//!   `schedule_evex!`: EVEX instructions on ymm registers, `vprord` rotations and the
//!   three-input `vpternlogd`, 20 vector instructions per group of four words instead of 30,
//!   which leaves more of the vector ALU ports to the scalar rounds.
//!
//! Both use the rounds of `round!`, ordered so that each of their two dependency chains ends
//! in one add after Σ (4 dependent steps instead of 5, see there).
//!
//! With these rounds, the EVEX schedule measured 1–3% faster at 16 KiB and 5–9% at 64 bytes than
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
//! Blocks go in pairs. The message schedule of FIPS 180-4 §6.2.2 step 1 runs on 256-bit
//! vectors whose low 128-bit lane holds four words of the first block and whose high lane
//! holds the same four words of the second, so one pass of vector code schedules both. Each
//! group `G[j] = W[4j..4j+4]` gets `K[4j..4j+4]` added (broadcast to both lanes) and is stored
//! to a 512-byte stack buffer (one of two, see below):
//!
//! ```text
//! wk[8j + 0..8j + 4] = W[4j..4j+4] + K[4j..4j+4] of the first block
//! wk[8j + 4..8j + 8] = the same for the second block
//! ```
//!
//! The rounds (§6.2.2 step 3) are scalar and read `W[t] + K[t]` from there, first all 64 for
//! the first block, then for the second. The vector code for the *next* pair is written in
//! among these rounds (one group of four words per 8 rounds, over both blocks), into a second
//! buffer: the two are independent, and the out-of-order core runs them side by side (with the
//! AVX2 schedule, the whole schedule first, then the rounds, measured 5–10% slower at 16 KiB;
//! four groups at a time every 32 rounds 3–4% slower). With BMI2 the rotations of Σ0/Σ1
//! compile to `rorx`, which leaves the flags and its source alone. An odd last block is
//! scheduled in both lanes (the vector work costs the same) and the second pass of rounds is
//! skipped; the block count is public.
//!
//! ## The schedule step, four words at a time
//!
//! For `t = 4j`, `W[t+i] = σ1(W[t+i-2]) + W[t+i-7] + σ0(W[t+i-15]) + W[t+i-16]`. The last
//! three terms come from earlier groups (`alignr` builds the groups shifted by one word). The
//! σ1 term of `W[t+2]`, `W[t+3]` needs `W[t]`, `W[t+1]` of the same group, so it is done in
//! two halves.
//!
//! - AVX2 (`schedule_avx2!`) has no 32-bit rotate; σ1 uses the 64-bit-shift trick: with a word
//!   duplicated into both halves of a quadword, a 64-bit right shift by `n` leaves `ROTR^n` of
//!   it in the low half, so `σ1(x) = ROTR^17 ^ ROTR^19 ^ SHR^10` costs three shifts on
//!   `[x, x]`, and the two halves are blended.
//! - EVEX (`schedule_evex!`): σ1 of all four words of `G[j-1]`, whose words 2 and 3
//!   (`W[t-2]`, `W[t-1]`) a byte shift moves to words 0 and 1 with zeros above, then σ1 of the
//!   new `W[t]`, `W[t+1]`, moved up to words 2 and 3 with zeros below. Adding the zeros leaves
//!   the other half alone, so no blend is needed.
//!
//! # Constant time
//!
//! Nothing here branches on or indexes by message or state data: addresses depend on the
//! round and block numbers only. The instructions on secret data (`add`, `sub`, `and`, `xor`,
//! `rorx`, `vpaddd`, `vpalignr`, `vpshufd`, `vpblendd`, `vpslld`, `vpsrld`, `vpsrlq`, `vpxor`,
//! `vprord`, `vpsrldq`, `vpslldq`, `vpternlogd`, `vpshufb`, loads and stores) have
//! data-independent timing. Valgrind cannot run AVX-512, so the constant-time CI run masks
//! `avx512f` and checks `hash_avx2`; it runs the same body and rounds, and differs only in
//! the schedule instructions listed.

use core::arch::x86_64::*;

use super::{K, big_sigma0, big_sigma1};
use crate::cpu::arch::{Avx2Bmi2, Avx512Bmi2};

/// Compresses whole 64-byte blocks into `state`.
#[inline]
pub(super) fn compress(t: Avx2Bmi2, state: &mut [u32; 8], blocks: &[u8]) {
    debug_assert_eq!(blocks.len() % 64, 0);
    // SAFETY: the token proves that the CPU has every feature `hash_avx2` enables.
    unsafe { hash_avx2(t, state, blocks) }
}

/// [`compress`] with the EVEX message schedule.
#[inline]
pub(super) fn compress_avx512(t: Avx2Bmi2, k: Avx512Bmi2, state: &mut [u32; 8], blocks: &[u8]) {
    debug_assert_eq!(blocks.len() % 64, 0);
    // SAFETY: the tokens prove that the CPU has every feature `hash_avx512` enables and
    // every EVEX instruction its `asm!` uses (AVX512F, AVX512VL).
    unsafe { hash_avx512(t, k, state, blocks) }
}

/// `$x` through an empty `asm!`: the compiler cannot see that it is `$x`, so it cannot
/// reassociate the sums of `round!` across it, which could lengthen again the dependency
/// chains that they are ordered to shorten. It emits no instruction.
macro_rules! opaque {
    ($x:expr) => {{
        let mut v: u32 = $x;
        core::arch::asm!(
            "/* {0:e} */",
            inout(reg) v,
            options(pure, nomem, nostack, preserves_flags)
        );
        v
    }};
}

/// One round of §6.2.2 step 3, with the names rotated by the caller instead of moving the
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
/// carrying `b ^ c`), in alternated runs: SHA-256 3–22% faster, at every size from 16 bytes
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

/// Eight rounds reading `W + K` from `$p` (groups of 4 words at stride 8: `$p[0..4]`,
/// `$p[8..12]`); the names come back to where they started.
macro_rules! rounds8 {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident,
     $bc:ident, $p:expr) => {
        rounds8!($a, $b, $c, $d, $e, $f, $g, $h, $bc, $p; ())
    };
    // The same with a statement of other work placed after round 4 (a group of the next
    // schedule, see `compress_body!`).
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident,
     $bc:ident, $p:expr; $s:expr) => {{
        let p: *const u32 = $p;
        round!($a, $b, $c, $d, $e, $f, $g, $h, $bc, p.read());
        round!($h, $a, $b, $c, $d, $e, $f, $g, $bc, p.add(1).read());
        round!($g, $h, $a, $b, $c, $d, $e, $f, $bc, p.add(2).read());
        round!($f, $g, $h, $a, $b, $c, $d, $e, $bc, p.add(3).read());
        $s;
        round!($e, $f, $g, $h, $a, $b, $c, $d, $bc, p.add(8).read());
        round!($d, $e, $f, $g, $h, $a, $b, $c, $bc, p.add(9).read());
        round!($c, $d, $e, $f, $g, $h, $a, $b, $bc, p.add(10).read());
        round!($b, $c, $d, $e, $f, $g, $h, $a, $bc, p.add(11).read());
    }};
}

/// 64 rounds over one block's `W + K` words, 4 per group at stride 8 starting at `wk`.
///
/// # Safety
/// `wk` must point at 4 readable words at each of the offsets `8j` for `j < 16`.
#[inline(always)]
unsafe fn rounds(state: &mut [u32; 8], wk: *const u32) {
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    let mut bc = (b ^ c, b & c);
    for i in 0..8 {
        // SAFETY: the caller guarantees 4 words at each of `wk + 8j`; chunk `i` reads
        // groups `j = 2i` and `2i + 1`, `i < 8`.
        unsafe { rounds8!(a, b, c, d, e, f, g, h, bc, wk.add(16 * i)) };
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(v);
    }
}

/// `σ1` of dwords 0 and 2 of a vector whose quadwords are `[x, x]` (see the module docs); the
/// results are in dwords 0 and 2, dwords 1 and 3 are garbage.
macro_rules! sigma1_dup {
    ($x:expr) => {{
        let x = $x;
        _mm256_xor_si256(
            _mm256_xor_si256(_mm256_srli_epi64::<17>(x), _mm256_srli_epi64::<19>(x)),
            _mm256_srli_epi32::<10>(x),
        )
    }};
}

/// `σ0` of every dword: `ROTR^7 ^ ROTR^18 ^ SHR^3`.
macro_rules! sigma0 {
    ($x:expr) => {{
        let x = $x;
        let r = _mm256_xor_si256(
            _mm256_xor_si256(_mm256_srli_epi32::<7>(x), _mm256_srli_epi32::<18>(x)),
            _mm256_srli_epi32::<3>(x),
        );
        let l = _mm256_xor_si256(_mm256_slli_epi32::<25>(x), _mm256_slli_epi32::<14>(x));
        _mm256_xor_si256(r, l)
    }};
}

/// The next group from the previous four (`$x0` oldest), in both lanes.
macro_rules! schedule_avx2 {
    ($x0:expr, $x1:expr, $x2:expr, $x3:expr) => {{
        let w15 = _mm256_alignr_epi8::<4>($x1, $x0); // W[t-15..t-11]
        let w7 = _mm256_alignr_epi8::<4>($x3, $x2); // W[t-7..t-3]
        let s = _mm256_add_epi32(_mm256_add_epi32($x0, w7), sigma0!(w15));
        // W[t], W[t+1]: σ1 of W[t-2], W[t-1] (dwords 2, 3 of $x3).
        let lo = sigma1_dup!(_mm256_shuffle_epi32::<0b11_11_10_10>($x3));
        let s1 = _mm256_add_epi32(s, _mm256_shuffle_epi32::<0b11_11_10_00>(lo));
        // W[t+2], W[t+3]: σ1 of the W[t], W[t+1] just made.
        let hi = sigma1_dup!(_mm256_shuffle_epi32::<0b01_01_00_00>(s1));
        let s2 = _mm256_add_epi32(s, _mm256_shuffle_epi32::<0b10_00_00_00>(hi));
        _mm256_blend_epi32::<0b1100_1100>(s1, s2)
    }};
}

/// The next group from the previous four (`$x0` oldest), in both lanes. EVEX on ymm0-15
/// (`ymm_reg`): `vprord` rotates, `vpternlogd` with table 0x96 (`a ^ b ^ c`) folds the two
/// xors of σ into one instruction.
macro_rules! schedule_evex {
    ($x0:expr, $x1:expr, $x2:expr, $x3:expr) => {{
        let w: __m256i;
        core::arch::asm!(
            // W[t-15..t-11]; σ0 = ROTR^7 ^ ROTR^18 ^ SHR^3
            "vpalignr {t0}, {x1}, {x0}, 4",
            "vprord {t1}, {t0}, 7",
            "vprord {t2}, {t0}, 18",
            "vpsrld {t0}, {t0}, 3",
            "vpternlogd {t0}, {t1}, {t2}, 0x96",
            // + W[t-7..t-3] + W[t-16..t-12]
            "vpalignr {t1}, {x3}, {x2}, 4",
            "vpaddd {t0}, {t0}, {t1}",
            "vpaddd {t0}, {t0}, {x0}",
            // σ1 = ROTR^17 ^ ROTR^19 ^ SHR^10 of every word of X[j-1]; those of W[t-2],
            // W[t-1] (words 2, 3) moved down to words 0, 1 with zeros above: W[t], W[t+1].
            "vprord {t1}, {x3}, 17",
            "vprord {t2}, {x3}, 19",
            "vpsrld {t3}, {x3}, 10",
            "vpternlogd {t1}, {t2}, {t3}, 0x96",
            "vpsrldq {t1}, {t1}, 8",
            "vpaddd {t0}, {t0}, {t1}",
            // σ1 of W[t], W[t+1] (words 0, 1) moved up to words 2, 3: W[t+2], W[t+3].
            "vprord {t1}, {t0}, 17",
            "vprord {t2}, {t0}, 19",
            "vpsrld {t3}, {t0}, 10",
            "vpternlogd {t1}, {t2}, {t3}, 0x96",
            "vpslldq {t1}, {t1}, 8",
            "vpaddd {w}, {t0}, {t1}",
            x0 = in(ymm_reg) $x0,
            x1 = in(ymm_reg) $x1,
            x2 = in(ymm_reg) $x2,
            x3 = in(ymm_reg) $x3,
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
/// words (§3.1).
macro_rules! load {
    ($pa:expr, $pb:expr, $off:expr) => {
        _mm256_shuffle_epi8(
            _mm256_loadu2_m128i($pb.add($off).cast(), $pa.add($off).cast()),
            _mm256_set_epi8(
                12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, //
                12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3,
            ),
        )
    };
}

/// Stores group `$j` plus `K[4j..4j+4]` (in both lanes) at `$out + 8j`.
macro_rules! put {
    ($out:expr, $j:expr, $x:expr) => {{
        let k = _mm256_broadcastsi128_si256(_mm_loadu_si128(K.as_ptr().add(4 * $j).cast()));
        _mm256_storeu_si256($out.add(8 * $j).cast(), _mm256_add_epi32($x, k));
    }};
}

/// Group `$j` from the previous four (`$x0` oldest), which it replaces, stored.
macro_rules! group {
    ($s:ident, $out:expr, $j:expr, $x0:ident, $x1:ident, $x2:ident, $x3:ident) => {{
        $x0 = $s!($x0, $x1, $x2, $x3);
        put!($out, $j, $x0);
    }};
}

/// Groups `$j..$j + 4` (`$j` a multiple of 4, at least 4) from the previous four, stored.
macro_rules! schedule4 {
    ($s:ident, $out:expr, $j:expr, $x0:ident, $x1:ident, $x2:ident, $x3:ident) => {{
        $x0 = $s!($x0, $x1, $x2, $x3);
        put!($out, $j, $x0);
        $x1 = $s!($x1, $x2, $x3, $x0);
        put!($out, $j + 1, $x1);
        $x2 = $s!($x2, $x3, $x0, $x1);
        put!($out, $j + 2, $x2);
        $x3 = $s!($x3, $x0, $x1, $x2);
        put!($out, $j + 3, $x3);
    }};
}

/// Two schedule buffers of 128 words (see the module docs): the rounds of one pair of blocks
/// read one while the vector units fill the other for the next pair. 16-byte alignment needs
/// no stack realignment (which would take `rbp`, and the rounds need every register); the
/// 32-byte stores are unaligned ones.
#[repr(C, align(16))]
struct Wk2([[u32; 128]; 2]);

/// The body of `hash_avx2` and `hash_avx512` (see the module docs), with `$s` the schedule
/// step (`schedule_avx2` or `schedule_evex`); `$state` and `$blocks` are theirs. It must be
/// expanded in a function with the features of [`Avx2Bmi2`] enabled and, for
/// `schedule_evex`, on a CPU with AVX512F and AVX512VL.
macro_rules! compress_body {
    ($s:ident, $state:ident, $blocks:ident) => {{
        let state: &mut [u32; 8] = $state;
        let blocks: &[u8] = $blocks;
        let n = blocks.len() / 64;
        if n == 0 {
            return;
        }
        // Never read before written: every word of a buffer is stored before its rounds run.
        let mut wk = core::mem::MaybeUninit::<Wk2>::uninit();
        let buf = wk.as_mut_ptr().cast::<u32>();
        let base = blocks.as_ptr();
        // SAFETY: blocks 0 (and 1 when n > 1) lie inside `blocks`; the loads are unaligned.
        // `K` has 64 words and group `j < 16` reads `K[4j..4j+4]`. The stores write
        // words `8j..8j+8` of buffer 0 (`buf` points at `Wk2`, two buffers of 128 words). The
        // intrinsics' features are enabled here.
        unsafe {
            let pa = base;
            let pb = if n > 1 { pa.add(64) } else { pa };
            let out = buf;
            let mut x0 = load!(pa, pb, 0);
            let mut x1 = load!(pa, pb, 16);
            let mut x2 = load!(pa, pb, 32);
            let mut x3 = load!(pa, pb, 48);
            put!(out, 0, x0);
            put!(out, 1, x1);
            put!(out, 2, x2);
            put!(out, 3, x3);
            for j in [4, 8, 12] {
                schedule4!($s, out, j, x0, x1, x2, x3);
            }
        }
        let mut i = 0;
        let mut cur = 0;
        while i < n {
            let two = i + 1 < n;
            let cur_p = buf.wrapping_add(128 * cur).cast_const();
            if i + 2 < n {
                // Both blocks of this pair (`two` holds), with the schedule of the next pair
                // (blocks i + 2 and i + 3, or i + 2 twice) spread over their rounds: the two are
                // independent, so the out-of-order core overlaps them.
                //
                // SAFETY: blocks i + 2 (and i + 3 when it exists) lie inside `blocks`. The
                // rounds read buffer `cur` at offsets `8j..8j+8`, `j < 16`; the stores write
                // buffer `cur ^ 1` as in the first pair above.
                unsafe {
                    let pa = base.add(64 * (i + 2));
                    let pb = if i + 3 < n { pa.add(64) } else { pa };
                    let out = buf.add(128 * (cur ^ 1));
                    // First block: lane 0. The next schedule goes in one group per 8 rounds
                    // (after round 4) rather than in bursts of four groups, so that the
                    // scheduler's window always holds both vector and scalar work (measured
                    // 3-4% faster at 16 KiB).
                    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
                    let mut bc = (b ^ c, b & c);
                    rounds8!(a, b, c, d, e, f, g, h, bc, cur_p);
                    let mut x0 = load!(pa, pb, 0);
                    let mut x1 = load!(pa, pb, 16);
                    let mut x2 = load!(pa, pb, 32);
                    let mut x3 = load!(pa, pb, 48);
                    put!(out, 0, x0);
                    put!(out, 1, x1);
                    put!(out, 2, x2);
                    put!(out, 3, x3);
                    rounds8!(a, b, c, d, e, f, g, h, bc, cur_p.add(16);
                        group!($s, out, 4, x0, x1, x2, x3));
                    rounds8!(a, b, c, d, e, f, g, h, bc, cur_p.add(32);
                        group!($s, out, 5, x1, x2, x3, x0));
                    rounds8!(a, b, c, d, e, f, g, h, bc, cur_p.add(48);
                        group!($s, out, 6, x2, x3, x0, x1));
                    rounds8!(a, b, c, d, e, f, g, h, bc, cur_p.add(64);
                        group!($s, out, 7, x3, x0, x1, x2));
                    rounds8!(a, b, c, d, e, f, g, h, bc, cur_p.add(80);
                        group!($s, out, 8, x0, x1, x2, x3));
                    rounds8!(a, b, c, d, e, f, g, h, bc, cur_p.add(96);
                        group!($s, out, 9, x1, x2, x3, x0));
                    rounds8!(a, b, c, d, e, f, g, h, bc, cur_p.add(112);
                        group!($s, out, 10, x2, x3, x0, x1));
                    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
                        *s = s.wrapping_add(v);
                    }
                    // Second block: lane 1.
                    let q = cur_p.add(4);
                    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
                    let mut bc = (b ^ c, b & c);
                    rounds8!(a, b, c, d, e, f, g, h, bc, q;
                        group!($s, out, 11, x3, x0, x1, x2));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(16);
                        group!($s, out, 12, x0, x1, x2, x3));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(32);
                        group!($s, out, 13, x1, x2, x3, x0));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(48);
                        group!($s, out, 14, x2, x3, x0, x1));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(64);
                        group!($s, out, 15, x3, x0, x1, x2));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(80));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(96));
                    rounds8!(a, b, c, d, e, f, g, h, bc, q.add(112));
                    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
                        *s = s.wrapping_add(v);
                    }
                }
            } else {
                // SAFETY: buffer `cur` has 128 words; lane 0 is offsets `8j..8j+4` and lane 1
                // offsets `8j+4..8j+8`, `j < 16`.
                unsafe {
                    rounds(state, cur_p);
                    if two {
                        rounds(state, cur_p.add(4));
                    }
                }
            }
            i += 2;
            cur ^= 1;
        }
        // The buffers hold message-derived words: clear the ones used (the second only when
        // there were more than two blocks) with volatile 16-byte stores; the byte-wise `wipe`
        // would cost more than a block's rounds on short messages.
        let used = if n > 2 { 2 } else { 1 };
        let p = buf.cast::<__m128i>();
        for j in 0..used * 32 {
            // SAFETY: `Wk2` is 16-byte aligned and holds 2 × 512 bytes; store `j` is inside
            // it.
            unsafe { core::ptr::write_volatile(p.add(j), _mm_setzero_si128()) };
        }
    }};
}

#[target_feature(enable = "avx2,avx,bmi2")]
unsafe fn hash_avx2(_t: Avx2Bmi2, state: &mut [u32; 8], blocks: &[u8]) {
    compress_body!(schedule_avx2, state, blocks)
}

/// With the EVEX schedule: the [`Avx512Bmi2`] token proves AVX512F and AVX512VL for its
/// `asm!`.
#[target_feature(enable = "avx2,avx,bmi2")]
unsafe fn hash_avx512(_t: Avx2Bmi2, _k: Avx512Bmi2, state: &mut [u32; 8], blocks: &[u8]) {
    compress_body!(schedule_evex, state, blocks)
}
