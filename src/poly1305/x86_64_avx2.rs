//! Poly1305 (RFC 8439 §2.5) with AVX2: eight interleaved Horner lanes (two vectors of four)
//! in radix 2^26.
//!
//! # Math
//!
//! For blocks `m_1..m_n` (each with its 2^128 bit) the accumulator becomes
//! `h' = (h + m_1)·r^n + m_2·r^(n-1) + … + m_n·r mod p`, p = 2^130 − 5. With `n = 8k`, lane
//! `j` (0..8) takes the blocks `m_{8i+j+1}`, `i = 0..k`, and runs Horner's rule with `r^8`:
//! `A_j ← (A_j + m)·r^8`, except in the last step, where it multiplies by `r^(8-j)` instead;
//! then `h' = A_0 + … + A_7` (lane 0 starts from `h`, the others from 0). This is the r-power
//! Horner scheme of Goll and Gueron, "Vectorization of Poly1305 message authentication code"
//! (2015). Eight lanes rather than four: one vector's step (multiply, sum, carry) is a chain of
//! about 20 cycles, which two independent vectors overlap (measured 0.67 → 0.33 cycles/byte).
//!
//! A lane holds its accumulator in five 26-bit limbs, one per 64-bit element of five vectors
//! `H0..H4` (value `Σ H_i·2^(26i)`), so that `vpmuludq` (32×32 → 64 bits) forms the limb
//! products. With `s_i = 5·r_i` (2^130 ≡ 5 mod p) the product `d = h·r mod p` is
//!
//! ```text
//! d0 = h0 r0 + h1 s4 + h2 s3 + h3 s2 + h4 s1
//! d1 = h0 r1 + h1 r0 + h2 s4 + h3 s3 + h4 s2
//! d2 = h0 r2 + h1 r1 + h2 r0 + h3 s4 + h4 s3
//! d3 = h0 r3 + h1 r2 + h2 r1 + h3 r0 + h4 s4
//! d4 = h0 r4 + h1 r3 + h2 r2 + h3 r1 + h4 r0
//! ```
//!
//! Bounds: the multipliers' limbs are below 2^26 (+2^9 for limb 1, see [`carry26`]), so
//! `s_i < 2^28.4`; after the lazy carry below each `h_i < 2^26 + 2^10`, and adding a message limb
//! (< 2^26) keeps it below 2^27.1. Every product is below 2^55.5 and each `d_i` below 2^58.
//! The carry is the interleaved partial one (two chains, `d0→d1→d2→d3→d4` and `d3→d4→·5→d0→d1`),
//! which leaves every limb below 2^26 except `d1` and `d4` (below 2^26 + 2^10): the limbs stay
//! well inside 32 bits for the next round.
//!
//! # Layout
//!
//! Four blocks are two 32-byte loads `A = (m_1, m_2)`, `B = (m_3, m_4)`; `vpunpcklqdq` and
//! `vpunpckhqdq` give the low and high 64-bit halves in the element order
//! `(m_1, m_3, m_2, m_4)`. So element `e` holds block `π(e)`, `π = (0, 2, 1, 3)`, and the
//! last-step multipliers of the two vectors `h` (blocks 1–4 of eight) and `g` (blocks 5–8) are
//! `(r^8, r^6, r^7, r^5)` and `(r^4, r^2, r^3, r^1)` in element order ([`Avx2Tables`]). An odd
//! number of groups starts with a single group in `h`, multiplied by `r^4` in every element
//! (its blocks precede those of `h` in the first pair by four), and then goes in pairs (see
//! [`blocks_avx2`]); a call of one group multiplies it by `(r^4, r^2, r^3, r^1)`.
//!
//! The accumulator enters from the canonical [`State`] (three words, < 2^131) as limbs in
//! lane 0 and leaves as the sum of the lanes, carried and packed back into three words (< 2^131).
//! Calls with fewer than [`MIN_BLOCKS`] blocks (or [`FIRST_MIN_BLOCKS`] before the first vector
//! call, which makes the tables) and the last `n mod 4` blocks of a call go through the
//! portable 64-bit kernel (`soft64`).
//!
//! Constant time: only the block count steers branches and addresses; the arithmetic is
//! multiplies, adds, shifts and masks.

use core::arch::x86_64::*;

use super::{Kernel, State, soft64};
use crate::cpu::arch::Avx2;
use soft64::Soft64;

/// 2^26 − 1.
pub(super) const M26: u64 = (1 << 26) - 1;

/// Below this many blocks a call goes entirely through the portable kernel. Measured on an
/// Emerald Rapids Xeon (cycles/byte, portable vs the vector path): 4 blocks 0.74 vs 0.85,
/// 6 blocks 0.74 vs 0.83, 8 blocks 0.74 vs 0.57.
const MIN_BLOCKS: usize = 8;

/// Below this many blocks a call also goes through the portable kernel while the key has no
/// tables yet. Making them ([`tables_avx2`]) costs about 80 cycles, and a fresh key's first
/// vector call about 130 more than the portable kernel for the same 8 blocks (measured); the
/// vector loop wins that back (about 0.4 cycles/byte over the portable kernel) from about
/// 24 blocks. Measured on an Emerald Rapids Xeon, fresh key, whole MAC (cycles, portable vs
/// vector path): 20 blocks 294 vs 324, 24 blocks 342 vs 350, 28 blocks 380 vs 364,
/// 32 blocks 430 vs 390, 64 blocks 790 vs 552. A key lives for one message, so most short
/// messages never pay for them.
pub(super) const FIRST_MIN_BLOCKS: usize = 28;

/// `h` (three words, < 2^131) as five 26-bit limbs; the top one takes bits 104..131 (< 2^27).
#[inline]
pub(super) fn to_limbs26(h: &[u64; 3]) -> [u64; 5] {
    [
        h[0] & M26,
        (h[0] >> 26) & M26,
        ((h[0] >> 52) | (h[1] << 12)) & M26,
        (h[1] >> 14) & M26,
        (h[1] >> 40) | (h[2] << 24),
    ]
}

/// One carry pass over five limbs (each below 2^63): limbs 0, 2, 3, 4 come out below 2^26 and
/// limb 1 below 2^26 + 2^14 (below 2^26 + 2^9 when every input limb is below 2^58, as the
/// products of [`mul26`] are). The value changes by a multiple of p.
#[inline]
pub(super) fn carry26(mut l: [u64; 5]) -> [u64; 5] {
    for i in 0..4 {
        l[i + 1] += l[i] >> 26;
        l[i] &= M26;
    }
    let c = l[4] >> 26;
    l[4] &= M26;
    l[0] += c * 5;
    l[1] += l[0] >> 26;
    l[0] &= M26;
    l
}

/// Five limbs (each below 2^63) carried and packed into the canonical three words (< 2^131:
/// after [`carry26`] the value is below 2^130 + 2^40).
#[inline]
pub(super) fn from_limbs26(l: [u64; 5]) -> [u64; 3] {
    let l = carry26(l);
    let mut acc = u128::from(l[0]) + (u128::from(l[1]) << 26) + (u128::from(l[2]) << 52);
    let w0 = acc as u64;
    acc >>= 64;
    acc += (u128::from(l[3]) << 14) + (u128::from(l[4]) << 40);
    [w0, acc as u64, (acc >> 64) as u64]
}

/// `a·b mod p` (not fully reduced) on 26-bit limbs, each input limb below 2^27; the result as
/// [`carry26`] leaves it. A second, independent multiplication for the tests.
#[cfg(test)]
pub(super) fn mul26(a: &[u64; 5], b: &[u64; 5]) -> [u64; 5] {
    let s = [0, 5 * b[1], 5 * b[2], 5 * b[3], 5 * b[4]];
    // d_k = Σ_{i+j=k} a_i b_j + 5·Σ_{i+j=k+5} a_i b_j.
    let mut d = [0u64; 5];
    for (k, dk) in d.iter_mut().enumerate() {
        for (i, &ai) in a.iter().enumerate() {
            let f = if i <= k { b[k - i] } else { s[k + 5 - i] };
            *dk += ai * f;
        }
    }
    carry26(d)
}

/// The powers `r^1..=r^N` as canonical words (index `i` holds `r^(i+1)`), by the portable
/// kernel's multiplication (`soft64::block` with a zero block and no 2^128 bit: `h ← h·r`),
/// about ten cycles a power: key setup happens once per message, and for short messages it
/// is most of the cost.
pub(super) fn powers<const N: usize>(r: &[u64; 2]) -> [[u64; 3]; N] {
    let s1 = r[1] + (r[1] >> 2);
    let mut p = [[0u64; 3]; N];
    p[0] = [r[0], r[1], 0];
    for i in 1..N {
        let mut h = p[i - 1];
        soft64::block(&mut h, r, s1, [0, 0], 0);
        p[i] = h;
    }
    p
}

/// The powers `r^1..=r^N` as 26-bit limbs as [`carry26`] leaves them (index `i` holds
/// `r^(i+1)`).
pub(super) fn powers26<const N: usize>(r: &[u64; 2]) -> [[u64; 5]; N] {
    let mut pw = powers::<N>(r);
    let mut p = [[0u64; 5]; N];
    for (l, w) in p.iter_mut().zip(pw.iter()) {
        *l = carry26(to_limbs26(w));
    }
    crate::wipe::wipe(&mut pw);
    p
}

/// Multipliers of one Horner step in `vpmuludq` layout: `v[i]` (i < 5) is limb `i` of each
/// element's power, `v[5 + i - 1]` (i = 1..4) five times limb `i`, as 64-bit elements.
#[repr(C, align(32))]
#[derive(Clone, Copy)]
pub(super) struct Mults<const L: usize> {
    pub(super) v: [[u64; L]; 9],
}

impl<const L: usize> Mults<L> {
    /// Element `e` gets `pw[e]`.
    pub(super) fn new(pw: [&[u64; 5]; L]) -> Self {
        let mut v = [[0u64; L]; 9];
        for (e, p) in pw.iter().enumerate() {
            for i in 0..5 {
                v[i][e] = p[i];
            }
            for i in 1..5 {
                v[4 + i][e] = 5 * p[i];
            }
        }
        Mults { v }
    }

    pub(super) fn wipe(&mut self) {
        crate::wipe::wipe(&mut self.v);
    }
}

/// The multipliers of the vector loop (element orders as in the module docs).
pub(super) struct Avx2Tables {
    /// `r^8` in every element: the step of both sets of lanes.
    step: Mults<4>,
    /// `r^4` in every element: the step of a first single group.
    r4: Mults<4>,
    /// `(r^8, r^6, r^7, r^5)`.
    p8: Mults<4>,
    /// `(r^4, r^2, r^3, r^1)`.
    p4: Mults<4>,
}

impl Avx2Tables {
    /// All zero, for [`tables_avx2`] to fill in place.
    fn zero() -> Self {
        let z = Mults::<4> { v: [[0; 4]; 9] };
        Avx2Tables {
            step: z,
            r4: z,
            p8: z,
            p4: z,
        }
    }

    /// The same tables by the portable multiplication (the tests' reference for
    /// [`tables_avx2`]).
    #[cfg(test)]
    fn new(r: &[u64; 2]) -> Self {
        let mut pw = powers26::<8>(r);
        let p = |a: usize, b: usize, c: usize, d: usize| {
            Mults::new([&pw[a - 1], &pw[b - 1], &pw[c - 1], &pw[d - 1]])
        };
        let t = Avx2Tables {
            step: p(8, 8, 8, 8),
            r4: p(4, 4, 4, 4),
            p8: p(8, 6, 7, 5),
            p4: p(4, 2, 3, 1),
        };
        crate::wipe::wipe(&mut pw);
        t
    }
}

impl Drop for Avx2Tables {
    fn drop(&mut self) {
        self.step.wipe();
        self.r4.wipe();
        self.p8.wipe();
        self.p4.wipe();
    }
}

/// The AVX2 kernel's key: the portable kernel for short calls and tails, and the multipliers
/// of the vector loop, computed at the first call long enough to use them.
///
/// Lazily, because a key lives for one message: expanding the table costs about 80 cycles
/// (measured), and the first vector call about 130 more, more than what a 64-byte message
/// costs the portable kernel, and short messages never reach the vector loop.
pub(crate) struct Avx2Key {
    t: Avx2,
    soft: Soft64,
    r: [u64; 2],
    tables: Option<Avx2Tables>,
}

/// A key for the AVX2 kernel (the tables come at the first long call).
pub(crate) fn new(t: Avx2, r: &[u64; 2]) -> Avx2Key {
    Avx2Key {
        t,
        soft: soft64::new(r),
        r: *r,
        tables: None,
    }
}

impl Drop for Avx2Key {
    fn drop(&mut self) {
        // The tables, when made, wipe themselves.
        crate::wipe::wipe(&mut self.r);
    }
}

impl Kernel for Avx2Key {
    fn blocks(&mut self, st: &mut State, data: &[u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        let nblocks = data.len() / 16;
        if nblocks < MIN_BLOCKS || (nblocks < FIRST_MIN_BLOCKS && self.tables.is_none()) {
            self.soft.blocks(st, data);
            return;
        }
        let (wide, rest) = data.split_at(nblocks / 4 * 64);
        let tables = match &mut self.tables {
            Some(t) => t,
            none => {
                let t = none.insert(Avx2Tables::zero());
                // SAFETY: the token in `self` proves AVX2 and AVX.
                unsafe { tables_avx2(self.t, &self.r, t) };
                t
            }
        };
        // SAFETY: the token in `self` proves AVX2 and AVX; `wide` is a non-empty whole number
        // of 64-byte groups.
        unsafe { blocks_avx2(self.t, tables, st, wide) };
        if !rest.is_empty() {
            self.soft.blocks(st, rest);
        }
    }
}

/// `vpmuludq` through `asm!`. `_mm256_mul_epu32` is lowered by LLVM to a 64-bit multiply of
/// masked operands; on our loop-carried limbs it dropped the masks and then, unable to prove the
/// high halves zero, emitted the three-multiply 64×64 sequence (120 instead of 50 `vpmuludq` per
/// eight blocks, measured). The instruction ignores the high halves by definition, as we want.
macro_rules! vpmuludq {
    ($a:expr, $b:expr) => {{
        let d: __m256i;
        core::arch::asm!("vpmuludq {d}, {a}, {b}", d = lateout(ymm_reg) d, a = in(ymm_reg) $a,
            b = in(ymm_reg) $b, options(pure, nomem, nostack, preserves_flags));
        d
    }};
}

/// Loads the nine multiplier vectors of `m`.
macro_rules! mults {
    ($m:expr) => {{
        let p = $m.v.as_ptr().cast::<__m256i>();
        [
            _mm256_load_si256(p),
            _mm256_load_si256(p.add(1)),
            _mm256_load_si256(p.add(2)),
            _mm256_load_si256(p.add(3)),
            _mm256_load_si256(p.add(4)),
            _mm256_load_si256(p.add(5)),
            _mm256_load_si256(p.add(6)),
            _mm256_load_si256(p.add(7)),
            _mm256_load_si256(p.add(8)),
        ]
    }};
}

/// `a0·b0 + … + a4·b4` on 64-bit elements (32×32-bit products), as a tree of adds. Macros
/// rather than closures: on Rust 1.85 a closure does not inherit the function's target
/// features, so neither the `asm!` ymm operands nor the intrinsics would be available to it.
macro_rules! dot5 {
    ($a0:expr, $b0:expr, $a1:expr, $b1:expr, $a2:expr, $b2:expr, $a3:expr, $b3:expr,
     $a4:expr, $b4:expr) => {
        _mm256_add_epi64(
            _mm256_add_epi64(vpmuludq!($a0, $b0), vpmuludq!($a1, $b1)),
            _mm256_add_epi64(
                _mm256_add_epi64(vpmuludq!($a2, $b2), vpmuludq!($a3, $b3)),
                vpmuludq!($a4, $b4),
            ),
        )
    };
}

/// `h ← (h + m)·(power)` lane-wise with the lazy carry (see the module docs); `$r` the nine
/// multiplier vectors `[r0, r1, r2, r3, r4, s1, s2, s3, s4]`.
macro_rules! mul_carry {
    ($h:ident, $r:expr, $mask:expr) => {{
        let [r0, r1, r2, r3, r4, s1, s2, s3, s4] = $r;
        let [h0, h1, h2, h3, h4] = $h;
        let d0 = dot5!(h0, r0, h1, s4, h2, s3, h3, s2, h4, s1);
        let d1 = dot5!(h0, r1, h1, r0, h2, s4, h3, s3, h4, s2);
        let d2 = dot5!(h0, r2, h1, r1, h2, r0, h3, s4, h4, s3);
        let d3 = dot5!(h0, r3, h1, r2, h2, r1, h3, r0, h4, s4);
        let d4 = dot5!(h0, r4, h1, r3, h2, r2, h3, r1, h4, r0);
        // Two carry chains, interleaved: d0→d1→d2→d3→d4 and d3→d4→5·→d0→d1.
        let c = _mm256_srli_epi64::<26>(d0);
        let d0 = _mm256_and_si256(d0, $mask);
        let d1 = _mm256_add_epi64(d1, c);
        let c = _mm256_srli_epi64::<26>(d3);
        let d3 = _mm256_and_si256(d3, $mask);
        let d4 = _mm256_add_epi64(d4, c);
        let c = _mm256_srli_epi64::<26>(d1);
        let d1 = _mm256_and_si256(d1, $mask);
        let d2 = _mm256_add_epi64(d2, c);
        let c = _mm256_srli_epi64::<26>(d4);
        let d4 = _mm256_and_si256(d4, $mask);
        let d0 = _mm256_add_epi64(d0, _mm256_add_epi64(c, _mm256_slli_epi64::<2>(c)));
        let c = _mm256_srli_epi64::<26>(d2);
        let d2 = _mm256_and_si256(d2, $mask);
        let d3 = _mm256_add_epi64(d3, c);
        let c = _mm256_srli_epi64::<26>(d0);
        let d0 = _mm256_and_si256(d0, $mask);
        let d1 = _mm256_add_epi64(d1, c);
        let c = _mm256_srli_epi64::<26>(d3);
        let d3 = _mm256_and_si256(d3, $mask);
        let d4 = _mm256_add_epi64(d4, c);
        $h = [d0, d1, d2, d3, d4];
    }};
}

/// Splits the four blocks at `$p` into limbs: `(m_1, m_3, m_2, m_4)` in element order.
macro_rules! load4 {
    ($p:expr, $mask:expr, $hibit:expr) => {{
        let a = _mm256_loadu_si256($p.cast());
        let b = _mm256_loadu_si256($p.add(32).cast());
        let lo = _mm256_unpacklo_epi64(a, b);
        let hi = _mm256_unpackhi_epi64(a, b);
        [
            _mm256_and_si256(lo, $mask),
            _mm256_and_si256(_mm256_srli_epi64::<26>(lo), $mask),
            _mm256_and_si256(
                _mm256_or_si256(_mm256_srli_epi64::<52>(lo), _mm256_slli_epi64::<12>(hi)),
                $mask,
            ),
            _mm256_and_si256(_mm256_srli_epi64::<14>(hi), $mask),
            // Bits 104..128 of the block, and its 2^128 bit at 2^24 of limb 4.
            _mm256_or_si256(_mm256_srli_epi64::<40>(hi), $hibit),
        ]
    }};
}

/// `$h += $m` limb-wise.
macro_rules! add5 {
    ($h:ident, $m:expr) => {{
        let m = $m;
        for i in 0..5 {
            $h[i] = _mm256_add_epi64($h[i], m[i]);
        }
    }};
}

/// The nine multiplier vectors `[l0, l1, l2, l3, l4, 5·l1, 5·l2, 5·l3, 5·l4]` of the limb
/// vectors `$l` (`5·x = 4·x + x`).
macro_rules! mults_of {
    ($l:expr) => {{
        let [l0, l1, l2, l3, l4] = $l;
        [
            l0,
            l1,
            l2,
            l3,
            l4,
            _mm256_add_epi64(l1, _mm256_slli_epi64::<2>(l1)),
            _mm256_add_epi64(l2, _mm256_slli_epi64::<2>(l2)),
            _mm256_add_epi64(l3, _mm256_slli_epi64::<2>(l3)),
            _mm256_add_epi64(l4, _mm256_slli_epi64::<2>(l4)),
        ]
    }};
}

/// Each limb vector of `$l` with its elements permuted by the `vpermq` immediate `$imm`.
macro_rules! perm5 {
    ($l:expr, $imm:literal) => {{
        let l = $l;
        [
            _mm256_permute4x64_epi64::<$imm>(l[0]),
            _mm256_permute4x64_epi64::<$imm>(l[1]),
            _mm256_permute4x64_epi64::<$imm>(l[2]),
            _mm256_permute4x64_epi64::<$imm>(l[3]),
            _mm256_permute4x64_epi64::<$imm>(l[4]),
        ]
    }};
}

/// The tables of [`Avx2Tables`] computed in the vector unit: one scalar multiplication (`r^2`)
/// and two vector ones in sequence instead of eleven scalar ones, with the results already in
/// the element-per-power layout of [`Mults`] (measured: about 80 cycles, against about 350
/// for the scalar powers `r^1..=r^12` and their layout that it replaces).
///
/// With `P = (r, r^2, r^3, r^4)` (one power per element, five limb vectors):
/// `(r^3, r^4) = (r, r^2)·r^2` gives `P`, and `Q = P·r^4 = (r^5, …, r^8)`, each product by the
/// lazy-carry multiplication of the loop (`mul_carry!`), whose outputs are below 2^26 + 2^10
/// per limb: valid multipliers under the bounds of the module docs. The tables hold
/// `(r^4k, r^4k-2, r^4k-1, r^4k-3)`, i.e. elements `(3, 1, 2, 0)` of `P` and `Q` (`vpermq`
/// immediate `0b00_10_01_11`), and `r^4`, `r^8` (element 3 of `P`, `Q`) in every element.
#[target_feature(enable = "avx2,avx")]
unsafe fn tables_avx2(_t: Avx2, r: &[u64; 2], t: &mut Avx2Tables) {
    let s1 = r[1] + (r[1] >> 2);
    let mut r2 = [r[0], r[1], 0];
    soft64::block(&mut r2, r, s1, [0, 0], 0);
    let mut l1 = carry26(to_limbs26(&[r[0], r[1], 0]));
    let mut l2 = carry26(to_limbs26(&r2));
    // SAFETY: the features are enabled here; the stores write the nine 32-byte-aligned rows of
    // each `Mults<4>` of `t`.
    unsafe {
        let mask = _mm256_set1_epi64x(M26 as i64);
        // (r, r^2, r, r^2) and r^2 in every element.
        let mut x = [
            _mm256_set_epi64x(l2[0] as i64, l1[0] as i64, l2[0] as i64, l1[0] as i64),
            _mm256_set_epi64x(l2[1] as i64, l1[1] as i64, l2[1] as i64, l1[1] as i64),
            _mm256_set_epi64x(l2[2] as i64, l1[2] as i64, l2[2] as i64, l1[2] as i64),
            _mm256_set_epi64x(l2[3] as i64, l1[3] as i64, l2[3] as i64, l1[3] as i64),
            _mm256_set_epi64x(l2[4] as i64, l1[4] as i64, l2[4] as i64, l1[4] as i64),
        ];
        let sq = mults_of!([
            _mm256_set1_epi64x(l2[0] as i64),
            _mm256_set1_epi64x(l2[1] as i64),
            _mm256_set1_epi64x(l2[2] as i64),
            _mm256_set1_epi64x(l2[3] as i64),
            _mm256_set1_epi64x(l2[4] as i64),
        ]);
        let p = x;
        mul_carry!(x, sq, mask);
        // P: elements 0, 1 from (r, r^2), elements 2, 3 from the product (r^3, r^4).
        let p = [
            _mm256_blend_epi32::<0b1111_0000>(p[0], x[0]),
            _mm256_blend_epi32::<0b1111_0000>(p[1], x[1]),
            _mm256_blend_epi32::<0b1111_0000>(p[2], x[2]),
            _mm256_blend_epi32::<0b1111_0000>(p[3], x[3]),
            _mm256_blend_epi32::<0b1111_0000>(p[4], x[4]),
        ];
        let r4 = perm5!(p, 0b11_11_11_11);
        let mut q = p;
        mul_carry!(q, mults_of!(r4), mask);
        for (m, l) in [
            (&mut t.step, perm5!(q, 0b11_11_11_11)),
            (&mut t.r4, r4),
            (&mut t.p8, perm5!(q, 0b00_10_01_11)),
            (&mut t.p4, perm5!(p, 0b00_10_01_11)),
        ] {
            let dst = m.v.as_mut_ptr().cast::<__m256i>();
            for (i, v) in mults_of!(l).into_iter().enumerate() {
                _mm256_store_si256(dst.add(i), v);
            }
        }
    }
    crate::wipe::wipe(&mut r2);
    crate::wipe::wipe(&mut l1);
    crate::wipe::wipe(&mut l2);
}

/// The vector loop over `data` (a non-empty whole number of 64-byte groups).
///
/// Groups go in pairs, eight blocks, in two sets of lanes `h` (blocks 1..4 of the pair) and
/// `g` (blocks 5..8), each stepped by `r^8`. The last pair multiplies by
/// `(r^8, r^6, r^7, r^5)` and `(r^4, r^2, r^3, r^1)`. With an odd number of groups (at least
/// three) the first group goes alone into `h` and is multiplied by `r^4`: block `j` of it is
/// four blocks before block `j` of `h`'s first pair, so it needs four more powers of `r` than
/// that block gets, and Horner's rule supplies the rest. A call of one group multiplies it by
/// `(r^4, r^2, r^3, r^1)`. The lanes of both sets are summed at the end.
#[target_feature(enable = "avx2,avx")]
unsafe fn blocks_avx2(_t: Avx2, k: &Avx2Tables, st: &mut State, data: &[u8]) {
    debug_assert!(!data.is_empty() && data.len() % 64 == 0);
    let groups = data.len() / 64;
    let pairs = groups / 2;
    let odd = groups % 2 == 1;
    let mut hl = to_limbs26(&st.h);
    let mut out = [[0u64; 4]; 5];
    // SAFETY: the features are enabled here. The `Mults` are 32-byte aligned and hold nine
    // vectors each; a first single group (when `odd`) reads the 64 bytes at 0 of `data`, pair
    // `i < pairs` the 128 bytes at `64·odd + 128 i` (unaligned loads; `64 groups` bytes in
    // all); the stores write the five 32-byte rows of `out`.
    unsafe {
        let mask = _mm256_set1_epi64x(M26 as i64);
        let hibit = _mm256_set1_epi64x(1 << 24);
        let z = _mm256_setzero_si256();
        let mut h = [
            _mm256_set_epi64x(0, 0, 0, hl[0] as i64),
            _mm256_set_epi64x(0, 0, 0, hl[1] as i64),
            _mm256_set_epi64x(0, 0, 0, hl[2] as i64),
            _mm256_set_epi64x(0, 0, 0, hl[3] as i64),
            _mm256_set_epi64x(0, 0, 0, hl[4] as i64),
        ];
        let mut p = data.as_ptr();
        if pairs > 0 {
            let mut g = [z; 5];
            let rs = mults!(k.step);
            if odd {
                add5!(h, load4!(p, mask, hibit));
                mul_carry!(h, mults!(k.r4), mask);
                p = p.add(64);
            }
            for i in 0..pairs {
                let q = p.add(128 * i);
                add5!(h, load4!(q, mask, hibit));
                add5!(g, load4!(q.add(64), mask, hibit));
                if i + 1 < pairs {
                    mul_carry!(h, rs, mask);
                    mul_carry!(g, rs, mask);
                } else {
                    mul_carry!(h, mults!(k.p8), mask);
                    mul_carry!(g, mults!(k.p4), mask);
                }
            }
            add5!(h, g);
        } else {
            // One group: `h` (the entering accumulator in lane 0) goes with its first block.
            add5!(h, load4!(p, mask, hibit));
            mul_carry!(h, mults!(k.p4), mask);
        }
        for (o, v) in out.iter_mut().zip(h) {
            _mm256_storeu_si256(o.as_mut_ptr().cast(), v);
        }
    }
    // The sum of the lanes (each limb below 2^28: the sums stay far below 2^63).
    for (l, o) in hl.iter_mut().zip(out.iter()) {
        *l = o[0] + o[1] + o[2] + o[3];
    }
    st.h = from_limbs26(hl);
    crate::wipe::wipe(&mut hl);
    crate::wipe::wipe(&mut out);
}

#[cfg(test)]
pub(super) mod tests {
    extern crate std;
    use super::*;
    use crate::cpu::Features;
    use std::vec::Vec;

    /// SplitMix64 bytes (Steele, Lea, Flood 2014): a fixed, irregular test pattern.
    pub(crate) struct Rng(pub(crate) u64);
    impl Rng {
        pub(crate) fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        pub(crate) fn bytes(&mut self, n: usize) -> Vec<u8> {
            (0..n).map(|_| self.next() as u8).collect()
        }
        /// A clamped r (RFC 8439 §2.5); `all_ones` sets every bit clamping leaves.
        pub(crate) fn r(&mut self, all_ones: bool) -> [u64; 2] {
            let (a, b) = if all_ones {
                (u64::MAX, u64::MAX)
            } else {
                (self.next(), self.next())
            };
            [a & 0x0fff_fffc_0fff_ffff, b & 0x0fff_fffc_0fff_fffc]
        }
        /// Any canonical accumulator (h[2] up to 7), including the all-ones extremes.
        pub(crate) fn h(&mut self, kind: u64) -> [u64; 3] {
            match kind % 4 {
                0 => [u64::MAX, u64::MAX, 7],
                1 => [0, 0, 0],
                _ => [self.next(), self.next(), self.next() % 8],
            }
        }
    }

    /// `h mod p` (the canonical value is any representative below 2^131).
    pub(crate) fn reduce(h: [u64; 3]) -> [u64; 3] {
        let v = (u128::from(h[1]) << 64) | u128::from(h[0]);
        // h = v + h2·2^128; p = 2^130 - 5. Reduce with u128 pieces: value = hi·2^130 + lo.
        let hi = (h[2] >> 2) as u128; // < 2
        let lo2 = h[2] & 3;
        let mut v2 = lo2;
        let (mut v, c) = v.overflowing_add(hi * 5);
        v2 += u64::from(c);
        // Now value = v2·2^128 + v < 2^130 + 5; subtract p at most once.
        let ge = v2 > 3 || (v2 == 3 && v >= (u128::MAX - 4));
        if ge {
            // value - p = value - 2^130 + 5
            let (nv, c) = v.overflowing_add(5);
            v = nv;
            v2 = v2 + u64::from(c) - 4;
        }
        [v as u64, (v >> 64) as u64, v2]
    }

    pub(crate) fn token() -> Option<Avx2> {
        let t = Features::hardware().get::<Avx2>();
        if t.is_none() {
            std::eprintln!("poly1305 avx2: CPU lacks AVX2; kernel not tested");
        }
        t
    }

    /// `k` (after a call that makes its tables) against the portable kernel: random and extreme
    /// keys and accumulators, every length `0..=max_blocks` blocks, several message patterns
    /// (all-ones blocks give the largest limbs), one call and split calls.
    pub(crate) fn cross_check<K: Kernel>(mk: impl Fn(&[u64; 2]) -> K, max_blocks: usize) {
        let mut rng = Rng(0x5eed);
        for trial in 0..6u64 {
            let r = rng.r(trial % 3 == 0);
            let mut k = mk(&r);
            // Keys make their tables at the first long call; one of 320 blocks (the most any
            // kernel waits for: `AVX512_FIRST_MIN_BLOCKS`) makes them, so every length below
            // runs the vector paths. The fresh-key paths are covered by `fresh_check` and
            // `all_backends_against_portable`.
            let mut warm = State::default();
            k.blocks(&mut warm, &[0x5a; 16 * 320]);
            let mut want_warm = State::default();
            soft64::new(&r).blocks(&mut want_warm, &[0x5a; 16 * 320]);
            assert_eq!(
                reduce(warm.h),
                reduce(want_warm.h),
                "trial {trial}, warm-up"
            );
            for n in 0..=max_blocks {
                let data = if trial % 2 == 1 {
                    std::vec![0xff; 16 * n]
                } else {
                    rng.bytes(16 * n)
                };
                let h0 = rng.h(trial + n as u64);
                let mut want = State { h: h0 };
                soft64::new(&r).blocks(&mut want, &data);
                let mut got = State { h: h0 };
                k.blocks(&mut got, &data);
                assert!(got.h[2] <= 7, "trial {trial}, {n} blocks: {:?}", got.h);
                assert_eq!(reduce(got.h), reduce(want.h), "trial {trial}, {n} blocks");
                // The same message in two calls, split at a block boundary.
                let cut = 16 * ((n * 7 + trial as usize) % (n + 1));
                let mut got2 = State { h: h0 };
                k.blocks(&mut got2, &data[..cut]);
                k.blocks(&mut got2, &data[cut..]);
                assert_eq!(
                    reduce(got2.h),
                    reduce(want.h),
                    "trial {trial}, {n}, cut {cut}"
                );
            }
        }
    }

    /// FRESH keys of `mk` (no warm-up call: the first call makes the tables, or not, as the
    /// thresholds decide) against the portable kernel for every block count `0..=140`: random
    /// and all-ones clamped `r`, random and extreme accumulators (`h[2]` up to 7), random and
    /// all-ones messages, in one call and in two calls split at a block boundary.
    pub(crate) fn fresh_check<K: Kernel>(mk: impl Fn(&[u64; 2]) -> K) {
        let mut rng = Rng(0xf2e5);
        for trial in 0..4u64 {
            for n in 0..=140usize {
                let r = rng.r((trial + n as u64) % 3 == 0);
                let data = if (trial + n as u64) % 4 == 1 {
                    std::vec![0xff; 16 * n]
                } else {
                    rng.bytes(16 * n)
                };
                let h0 = rng.h(trial * 3 + n as u64);
                let mut want = State { h: h0 };
                soft64::new(&r).blocks(&mut want, &data);
                let mut got = State { h: h0 };
                mk(&r).blocks(&mut got, &data);
                assert!(got.h[2] <= 7, "trial {trial}, {n} blocks: {:?}", got.h);
                assert_eq!(reduce(got.h), reduce(want.h), "trial {trial}, {n} blocks");
                let cut = 16 * ((n * 5 + trial as usize * 17) % (n + 1));
                let mut k = mk(&r);
                let mut got2 = State { h: h0 };
                k.blocks(&mut got2, &data[..cut]);
                k.blocks(&mut got2, &data[cut..]);
                assert!(got2.h[2] <= 7);
                assert_eq!(
                    reduce(got2.h),
                    reduce(want.h),
                    "trial {trial}, {n} blocks, cut {cut}"
                );
            }
        }
    }

    #[test]
    fn avx2_fresh_keys() {
        let Some(t) = token() else { return };
        fresh_check(|r| new(t, r));
    }

    #[test]
    fn limbs_round_trip() {
        let mut rng = Rng(7);
        for i in 0..1000 {
            let h = rng.h(i);
            assert_eq!(reduce(from_limbs26(to_limbs26(&h))), reduce(h));
        }
    }

    /// `Σ (m_i + 2^128)·r^(n+1-i)` from [`powers26`] and [`mul26`] equals the portable kernel's
    /// Horner evaluation from h = 0 (an independent implementation of the same sum).
    #[test]
    fn powers_match_portable() {
        let mut rng = Rng(11);
        for i in 0..50 {
            let r = rng.r(i % 5 == 0);
            let pw = powers26::<16>(&r);
            for n in 1..=16 {
                let data = if i % 7 == 0 {
                    std::vec![0xff; 16 * n]
                } else {
                    rng.bytes(16 * n)
                };
                let mut want = State { h: [0; 3] };
                soft64::new(&r).blocks(&mut want, &data);
                let mut sum = [0u64; 5];
                for (j, b) in data.chunks_exact(16).enumerate() {
                    let m = [
                        u64::from_le_bytes(b[..8].try_into().unwrap()),
                        u64::from_le_bytes(b[8..].try_into().unwrap()),
                        1,
                    ];
                    let t = mul26(&to_limbs26(&m), &pw[n - 1 - j]);
                    for (s, x) in sum.iter_mut().zip(t) {
                        *s += x;
                    }
                }
                assert_eq!(reduce(from_limbs26(sum)), reduce(want.h), "{i} {n}");
            }
        }
    }

    /// [`tables_avx2`] against [`Avx2Tables::new`], element by element modulo p, and its
    /// limbs within the multiplier bounds of the module docs.
    #[test]
    fn vector_tables_match() {
        let Some(t) = token() else { return };
        let mut rng = Rng(0x7ab);
        for i in 0..200 {
            let r = rng.r(i % 4 == 0);
            let mut got = Avx2Tables::zero();
            // SAFETY: the token proves AVX2 and AVX.
            unsafe { tables_avx2(t, &r, &mut got) };
            let want = Avx2Tables::new(&r);
            for (g, w) in [
                (&got.step, &want.step),
                (&got.r4, &want.r4),
                (&got.p8, &want.p8),
                (&got.p4, &want.p4),
            ] {
                for e in 0..4 {
                    let gl: [u64; 5] = core::array::from_fn(|k| g.v[k][e]);
                    let wl: [u64; 5] = core::array::from_fn(|k| w.v[k][e]);
                    assert!(
                        gl.iter().all(|&l| l < (1 << 26) + (1 << 10)),
                        "{i} {e} {gl:?}"
                    );
                    for (k, l) in gl.iter().enumerate().skip(1) {
                        assert_eq!(g.v[4 + k][e], 5 * l);
                    }
                    assert_eq!(
                        reduce(from_limbs26(gl)),
                        reduce(from_limbs26(wl)),
                        "{i} {e}"
                    );
                }
            }
        }
    }

    #[test]
    fn avx2_against_portable() {
        let Some(t) = token() else { return };
        cross_check(|r| new(t, r), 3 * 4 + 4 + 3);
        cross_check(|r| new(t, r), 40);
    }
}
