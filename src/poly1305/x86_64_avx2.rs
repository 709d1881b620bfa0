//! Poly1305 (RFC 8439 §2.5) with AVX2: four interleaved Horner lanes in radix 2^26, each step
//! absorbing up to four groups of four blocks with precomputed powers of `r`.
//!
//! # Math
//!
//! For blocks `m_1..m_n` (each with its 2^128 bit) the accumulator becomes
//! `h' = (h + m_1)·r^n + m_2·r^(n-1) + … + m_n·r mod p`, p = 2^130 − 5. Lane `e` (0..4) takes
//! the blocks `m_{4i+e+1}`, so each lane runs Horner's rule with `r^4` per block, and a step of
//! `n` groups of four blocks (`n = 4`, or 2 while the key has only the powers up to `r^8`)
//! aggregates `n` of those: `A_e ← (A_e + m_0)·r^(4n) + m_1·r^(4(n−1)) + … + m_(n−1)·r^4`
//! (`m_j` the lane's block of group `j`), except in the last step, where group `j` of lane `e`
//! is multiplied by `r^(4(n−j)−π(e))` instead (the last block by `r`); then
//! `h' = A_0 + … + A_3` (lane 0 starts from `h`, the others from 0). This is the r-power
//! Horner scheme of Goll and Gueron, "Vectorization of Poly1305 message authentication code"
//! (2015), with one carry per step instead of one per group: the vector units, not latency,
//! bound the loop (a step of four groups is 220 vector operations with the word tables below,
//! 271 without, against a dependency chain of about 30 cycles; Golden Cove issues three
//! vector operations a cycle), so the aim is fewest operations per block.
//!
//! A lane holds its accumulator in five 26-bit limbs, one per 64-bit element of five vectors
//! `H0..H4` (value `Σ H_i·2^(26i)`), so that `vpmuludq` (32×32 → 64 bits, reading only the low
//! half of each element) forms the limb products. With `s_i = 5·r_i` (2^130 ≡ 5 mod p) the
//! product `d = h·r mod p` is
//!
//! ```text
//! d0 = h0 r0 + h1 s4 + h2 s3 + h3 s2 + h4 s1
//! d1 = h0 r1 + h1 r0 + h2 s4 + h3 s3 + h4 s2
//! d2 = h0 r2 + h1 r1 + h2 r0 + h3 s4 + h4 s3
//! d3 = h0 r3 + h1 r2 + h2 r1 + h3 r0 + h4 s4
//! d4 = h0 r4 + h1 r3 + h2 r2 + h3 r1 + h4 r0
//! ```
//!
//! and a step sums these products over its groups before one carry. With the powers up to
//! `r^16` (the "wide" tables), a step that more steps follow takes its groups after the first
//! not as limbs but as four 32-bit words `w_a` per block (`m = Σ w_a·2^(32a)`, plus 2^128):
//! `m·R = Σ_a w_a·(2^(32a)·R mod p)`, each term five `vpmuludq` of the word (< 2^32) by the
//! limbs of a precomputed `2^(32a)·R mod p`, with no `s_i` terms and no splitting of the
//! message into limbs, and the 2^128 bits of those groups one precomputed sum (see
//! [`step_dw`]).
//!
//! Bounds (the tables are checked to hold them, `vector_tables_match`): every multiplier limb
//! is below 2^26 + 2^10, so `s_i < 2^28.33`. A step's input `h` has limbs below 2^26 except
//! `h4` below 2^26 + 2^10 (entering from the canonical state: `h4 < 2^27`); adding the first
//! group's message limbs (< 2^26, limb 4 < 2^25) keeps every limb below 2^27.33. So the first
//! group's products are below 2^55.66 and its five-term sums below 2^57.98; a later group in
//! limbs (< 2^26) adds sums below 2^56.65 each, in words twelve products below 2^58.0001 over
//! three groups. Every `d_k` stays below 2^59.1 ([`step`]) or 2^61.7 ([`step_dw`]). The carry
//! is one chain `d3→d4→·5→d0→d1→d2→d3→d4`: each carry is below 2^35.8, the last one (out of a
//! limb already below 2^26 + 2^35.8) below 2^10, so the limbs come out below 2^26 except `d4`
//! (below 2^26 + 2^10), the bound the next step assumed.
//!
//! # Layout
//!
//! A group of four blocks (64 bytes) is two 32-byte loads `A = (m_1, m_2)`, `B = (m_3, m_4)`;
//! `vpunpcklqdq` and `vpunpckhqdq` give the low and high 64-bit halves in the element order
//! `(m_1, m_3, m_2, m_4)`. So element `e` holds block `π(e)`, `π = (0, 2, 1, 3)`, and the
//! last-step multipliers of group `j` of a four-group step are
//! `(r^(16−4j), r^(14−4j), r^(15−4j), r^(13−4j))` in element order ([`Avx2Tables`]). A call of
//! `G` groups goes in steps of `k` groups (4 with the wide tables, else 2): a first step of
//! `(G − 1) mod k + 1` groups, then full ones (see [`blocks_avx2`]).
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
/// Emerald Rapids Xeon with the earlier eight-lane loop (cycles/byte, portable vs the vector
/// path): 4 blocks 0.74 vs 0.85, 6 blocks 0.74 vs 0.83, 8 blocks 0.74 vs 0.57.
const MIN_BLOCKS: usize = 8;

/// Below this many blocks a call also goes through the portable kernel while the key has no
/// tables yet (`poly1305::VECTOR_MIN_BYTES` relies on this value). Making them ([`tables_avx2`]) costs about 80 cycles, and a fresh key's first
/// vector call about 130 more than the portable kernel for the same 8 blocks (measured); the
/// vector loop wins that back (about 0.4 cycles/byte over the portable kernel) from about
/// 24 blocks. Measured on an Emerald Rapids Xeon, fresh key, whole MAC (cycles, portable vs
/// vector path): 20 blocks 294 vs 324, 24 blocks 342 vs 350, 28 blocks 380 vs 364,
/// 32 blocks 430 vs 390, 64 blocks 790 vs 552 (with the earlier eight-lane loop; the present
/// one measured the same to 5% faster on whole MACs of 448–640 bytes). A key lives for one
/// message, so most short messages never pay for them.
pub(super) const FIRST_MIN_BLOCKS: usize = 28;

/// From this many groups of four blocks a call makes the wide tables (powers `r^9..=r^16` and
/// the word multipliers, [`tables_wide_avx2`]) if the key lacks them, and the loop goes four
/// groups a step instead of two. Measured on an Emerald Rapids Xeon, fresh key, whole MAC
/// (MB/s, threshold 16 vs 32 groups): 1024 bytes 3 445 vs 3 944; (32 vs 64 groups): 2048
/// bytes about equal (5 030–5 200 both), 2560 bytes 5 620–5 650 vs 5 500–5 590, 3072 bytes
/// 5 975 vs 5 885.
const WIDE_MIN_GROUPS: usize = 32;

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
#[cfg(any(test, simdcrypt_asm))]
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
#[cfg(any(test, simdcrypt_asm))]
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
    #[cfg(test)]
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

/// The nine multiplier rows of [`Mults<4>`] as 32-bit words (`vpmuludq` reads only the low
/// half of each 64-bit element), two rows per 32-byte vector: row `j` of element `e` is
/// `w[j / 2][2e + j % 2]`. A 32-byte load at byte `32·(j / 2) + 4·(j % 2)` puts row `j` in the
/// low halves and other words of the table in the high halves, which `vpmuludq` ignores:
/// loads instead of shuffles, at 160 rather than 288 bytes (the key's size costs short
/// messages a few cycles, see `poly1305::Inner`).
#[repr(C, align(32))]
#[derive(Clone, Copy)]
struct Packed {
    w: [[u32; 8]; 5],
}

impl Packed {
    /// The rows of `m` (each below 2^32: limbs below 2^26 + 2^10 and five times them).
    fn new(m: &Mults<4>) -> Self {
        let mut w = [[0u32; 8]; 5];
        for (j, row) in m.v.iter().enumerate() {
            for (e, &x) in row.iter().enumerate() {
                w[j / 2][2 * e + j % 2] = x as u32;
            }
        }
        Packed { w }
    }

    /// Row `j` of element `e`.
    #[cfg(test)]
    fn get(&self, j: usize, e: usize) -> u64 {
        u64::from(self.w[j / 2][2 * e + j % 2])
    }

    /// The nine rows of element 0 (the power that [`Avx2Tables::steady`] broadcasts).
    fn first(&self) -> [u32; 9] {
        core::array::from_fn(|j| self.w[j / 2][j % 2])
    }
}

/// The multipliers of the vector loop (element orders as in the module docs). A step of `n`
/// groups (at most `k`: 4 with the wide tables, else 2) uses the last `n` entries of an array:
/// its group `t` takes entry `4 − n + t`.
#[derive(Clone)]
pub(super) struct Avx2Tables {
    /// `steady[t]`: the nine rows of `r^(16−4t)` (`r^16, r^12, r^8, r^4`), broadcast to every
    /// element by `vpbroadcastd` (a load): the multipliers of a step that more steps follow.
    steady: [[u32; 9]; 4],
    /// `last[t]`: `(r^(16−4t), r^(14−4t), r^(15−4t), r^(13−4t))`, the multipliers of the last
    /// step (`(r^16, r^14, r^15, r^13)` … `(r^4, r^2, r^3, r^1)`).
    last: [Packed; 4],
    /// `dw[t − 1][5a + k]`: limb `k` of `2^(32a)·r^(16−4t) mod p` (`a = 0..4`, `t = 1..4`),
    /// broadcast like `steady`: the multipliers of 32-bit word `a` of a block in group
    /// `t ≥ 1` of a step that more steps follow (see [`step_dw`]). Made with the wide tables.
    dw: [[u32; 20]; 3],
    /// `hb[t − 1]`: limbs of `Σ_{t ≤ u < 4} 2^128·r^(16−4u)` (`t = 1..4`): the 2^128 bits of
    /// groups `t..4` of such a step, which [`step_dw`] adds once.
    hb: [[u32; 5]; 3],
    /// Whether entries 0 and 1 of `steady` and `last` (the powers `r^9..=r^16`), `dw` and `hb`
    /// are made.
    wide: bool,
}

impl Avx2Tables {
    /// All zero, for [`tables_avx2`] (entries 2, 3) and [`tables_wide_avx2`] (entries 0, 1) to
    /// fill in place.
    fn zero() -> Self {
        Avx2Tables {
            steady: [[0; 9]; 4],
            last: [Packed { w: [[0; 8]; 5] }; 4],
            dw: [[0; 20]; 3],
            hb: [[0; 5]; 3],
            wide: false,
        }
    }

    /// Entry `i` of both arrays from the multipliers `m` of the last step.
    fn set(&mut self, i: usize, m: &Mults<4>) {
        self.last[i] = Packed::new(m);
        self.steady[i] = self.last[i].first();
    }

    /// The same tables (all entries) by the portable multiplication (the tests' reference for
    /// [`tables_avx2`] and [`tables_wide_avx2`]).
    #[cfg(test)]
    fn new(r: &[u64; 2]) -> Self {
        let mut pw = powers26::<16>(r);
        let mut t = Avx2Tables::zero();
        for (i, k) in [16, 12, 8, 4].into_iter().enumerate() {
            let mut m = Mults::new([&pw[k - 1], &pw[k - 3], &pw[k - 2], &pw[k - 4]]);
            t.set(i, &m);
            m.wipe();
        }
        t.wide = true;
        crate::wipe::wipe(&mut pw);
        t
    }
}

impl Drop for Avx2Tables {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.steady);
        crate::wipe::wipe(&mut self.dw);
        crate::wipe::wipe(&mut self.hb);
        for m in self.last.iter_mut() {
            crate::wipe::wipe(&mut m.w);
        }
    }
}

/// The AVX2 kernel's key: the portable kernel for short calls and tails, and the multipliers
/// of the vector loop, computed at the first call long enough to use them (the powers up to
/// `r^8`), and the powers up to `r^16` and the word tables at the first call of at least
/// [`WIDE_MIN_GROUPS`] groups.
///
/// Lazily, because a key lives for one message: expanding the table costs about 80 cycles
/// (measured), and the first vector call about 130 more, more than what a 64-byte message
/// costs the portable kernel, and short messages never reach the vector loop.
#[derive(Clone)]
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
        if !tables.wide && nblocks / 4 >= WIDE_MIN_GROUPS {
            // SAFETY: the token in `self` proves AVX2 and AVX; entries 2 and 3 are made.
            unsafe { tables_wide_avx2(self.t, tables) };
        }
        // SAFETY: the token in `self` proves AVX2 and AVX; `wide` is a non-empty whole number
        // of 64-byte groups.
        unsafe { blocks_avx2(self.t, tables, st, wide) };
        if !rest.is_empty() {
            self.soft.blocks(st, rest);
        }
    }

    /// Only once the tables were made has the vector code (intrinsics, which spill powers of
    /// `r`) run for this key; before, every call went to the portable kernel.
    fn may_spill(&self) -> bool {
        self.tables.is_some()
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

/// The nine rows of the [`Packed`] at `$p` (a `*const Packed`), each in the low halves of a
/// vector: loads at bytes `32·(j / 2) + 4·(j % 2)`, all within the 160 bytes (the last,
/// row 7 at byte 100, ends at 132).
macro_rules! rows_packed {
    ($p:expr) => {{
        let p = $p.cast::<u8>();
        [
            _mm256_load_si256(p.cast()),
            _mm256_loadu_si256(p.add(4).cast()),
            _mm256_load_si256(p.add(32).cast()),
            _mm256_loadu_si256(p.add(36).cast()),
            _mm256_load_si256(p.add(64).cast()),
            _mm256_loadu_si256(p.add(68).cast()),
            _mm256_load_si256(p.add(96).cast()),
            _mm256_loadu_si256(p.add(100).cast()),
            _mm256_load_si256(p.add(128).cast()),
        ]
    }};
}

/// The nine rows at `$p` (a `*const [u32; 9]`) broadcast to every 32-bit word (`vpbroadcastd`
/// from memory, a load): the low half of each element is the row, as `vpmuludq` reads it.
macro_rules! rows_bcast {
    ($p:expr) => {{
        let p = $p.cast::<u32>();
        [
            _mm256_set1_epi32(p.read() as i32),
            _mm256_set1_epi32(p.add(1).read() as i32),
            _mm256_set1_epi32(p.add(2).read() as i32),
            _mm256_set1_epi32(p.add(3).read() as i32),
            _mm256_set1_epi32(p.add(4).read() as i32),
            _mm256_set1_epi32(p.add(5).read() as i32),
            _mm256_set1_epi32(p.add(6).read() as i32),
            _mm256_set1_epi32(p.add(7).read() as i32),
            _mm256_set1_epi32(p.add(8).read() as i32),
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
        $h = carry_lazy!([d0, d1, d2, d3, d4], $mask);
    }};
}

/// The lazy carry of five limb vectors (each limb below 2^58): two chains, interleaved,
/// `d0→d1→d2→d3→d4` and `d3→d4→5·→d0→d1`; every limb comes out below 2^26 except `d1` and
/// `d4` (below 2^26 + 2^10), and the value changes by a multiple of p.
macro_rules! carry_lazy {
    ($d:expr, $mask:expr) => {{
        let [d0, d1, d2, d3, d4] = $d;
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
        [d0, d1, d2, d3, d4]
    }};
}

/// `$x·2^(32a) mod p` on limb vectors (each limb below 2^26 + 2^10), `a = 1..=4`, with
/// `$b = 6a` and `$b2 = 6a + 2`: 2^(32a) = 2^(26a)·2^(6a), so limb `i` moves to `i + a` times
/// 2^(6a), and a limb that passes limb 4 wraps to `i + a − 5` times 5 (2^130 ≡ 5), as
/// `(x << 6a) + (x << (6a + 2))`; every limb is then below 5·2^50.01 < 2^52.4, and
/// [`carry_lazy`] brings them below 2^26 + 2^10 again.
macro_rules! mul_2_32a {
    ($x:expr, $a:literal, $b:literal, $b2:literal, $mask:expr) => {{
        let x = $x;
        let mut y = [_mm256_setzero_si256(); 5];
        for i in 0..5 {
            let v = _mm256_slli_epi64::<$b>(x[i]);
            if i + $a < 5 {
                y[i + $a] = v;
            } else {
                y[i + $a - 5] = _mm256_add_epi64(v, _mm256_slli_epi64::<$b2>(x[i]));
            }
        }
        carry_lazy!(y, $mask)
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

/// The tables of [`Avx2Tables`] up to `r^8` (entries 2 and 3) computed in the vector unit: one
/// scalar multiplication (`r^2`) and two vector ones in sequence instead of seven scalar ones,
/// with the results already in the element-per-power layout of [`Mults`] (measured: about 80
/// cycles, against about 350 for the scalar powers `r^1..=r^12` and their layout that it
/// replaces).
///
/// With `P = (r, r^2, r^3, r^4)` (one power per element, five limb vectors):
/// `(r^3, r^4) = (r, r^2)·r^2` gives `P`, and `Q = P·r^4 = (r^5, …, r^8)`, each product by the
/// lazy-carry multiplication `mul_carry!`, whose outputs are below 2^26 + 2^10 per limb: valid
/// multipliers under the bounds of the module docs. The tables hold
/// `(r^4k, r^4k-2, r^4k-1, r^4k-3)`, i.e. elements `(3, 1, 2, 0)` of `P` and `Q` (`vpermq`
/// immediate `0b00_10_01_11`), and `r^4`, `r^8` (element 3 of `P`, `Q`) in every element.
#[target_feature(enable = "avx2,avx")]
unsafe fn tables_avx2(_t: Avx2, r: &[u64; 2], t: &mut Avx2Tables) {
    let s1 = r[1] + (r[1] >> 2);
    let mut r2 = [r[0], r[1], 0];
    soft64::block(&mut r2, r, s1, [0, 0], 0);
    let mut l1 = carry26(to_limbs26(&[r[0], r[1], 0]));
    let mut l2 = carry26(to_limbs26(&r2));
    let mut m = [Mults::<4> { v: [[0; 4]; 9] }; 2];
    // SAFETY: the features are enabled here; the stores write the nine 32-byte-aligned rows of
    // each of the two `Mults<4>` of `m` (contiguous: `repr(C)`, 288 bytes each).
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
        let mut q = p;
        mul_carry!(q, mults_of!(perm5!(p, 0b11_11_11_11)), mask);
        let dst = m.as_mut_ptr().cast::<__m256i>();
        for (k, l) in [perm5!(q, 0b00_10_01_11), perm5!(p, 0b00_10_01_11)]
            .into_iter()
            .enumerate()
        {
            for (i, v) in mults_of!(l).into_iter().enumerate() {
                _mm256_store_si256(dst.add(9 * k + i), v);
            }
        }
    }
    t.set(2, &m[0]);
    t.set(3, &m[1]);
    m[0].wipe();
    m[1].wipe();
    crate::wipe::wipe(&mut r2);
    crate::wipe::wipe(&mut l1);
    crate::wipe::wipe(&mut l2);
}

/// Entries 0 and 1 of [`Avx2Tables`] (the powers `r^9..=r^16`) from entries 2 and 3: two
/// independent vector multiplications by `r^8` (`steady[2]`),
/// `last[1] = last[3]·r^8 = (r^12, r^10, r^11, r^9)` and `last[0] = last[2]·r^8`, by
/// `mul_carry!` (limbs below 2^26 + 2^10, as the module docs require of multipliers); `steady`
/// takes element 0 (`r^12`, `r^16`). Needs entries 2 and 3.
#[target_feature(enable = "avx2,avx")]
unsafe fn tables_wide_avx2(tok: Avx2, t: &mut Avx2Tables) {
    let mut m = [Mults::<4> { v: [[0; 4]; 9] }; 2];
    // SAFETY: the features are enabled here; the loads read the rows of `t.steady[2]`,
    // `t.last[2]` and `t.last[3]` (within them, see `rows_packed!`); the stores write the nine
    // 32-byte-aligned rows of each of the two `Mults<4>` of `m` (contiguous: `repr(C)`,
    // 288 bytes each).
    unsafe {
        let mask = _mm256_set1_epi64x(M26 as i64);
        // Rows loaded with their high halves cleared (`mul_carry!` and `mults_of!` add them).
        let z = _mm256_setzero_si256();
        let r8 = rows_bcast!(&raw const t.steady[2]);
        let r8 = [
            _mm256_blend_epi32::<0b1010_1010>(r8[0], z),
            _mm256_blend_epi32::<0b1010_1010>(r8[1], z),
            _mm256_blend_epi32::<0b1010_1010>(r8[2], z),
            _mm256_blend_epi32::<0b1010_1010>(r8[3], z),
            _mm256_blend_epi32::<0b1010_1010>(r8[4], z),
            _mm256_blend_epi32::<0b1010_1010>(r8[5], z),
            _mm256_blend_epi32::<0b1010_1010>(r8[6], z),
            _mm256_blend_epi32::<0b1010_1010>(r8[7], z),
            _mm256_blend_epi32::<0b1010_1010>(r8[8], z),
        ];
        let a = rows_packed!(&raw const t.last[3]);
        let b = rows_packed!(&raw const t.last[2]);
        let mut a = [
            _mm256_blend_epi32::<0b1010_1010>(a[0], z),
            _mm256_blend_epi32::<0b1010_1010>(a[1], z),
            _mm256_blend_epi32::<0b1010_1010>(a[2], z),
            _mm256_blend_epi32::<0b1010_1010>(a[3], z),
            _mm256_blend_epi32::<0b1010_1010>(a[4], z),
        ];
        let mut b = [
            _mm256_blend_epi32::<0b1010_1010>(b[0], z),
            _mm256_blend_epi32::<0b1010_1010>(b[1], z),
            _mm256_blend_epi32::<0b1010_1010>(b[2], z),
            _mm256_blend_epi32::<0b1010_1010>(b[3], z),
            _mm256_blend_epi32::<0b1010_1010>(b[4], z),
        ];
        mul_carry!(a, r8, mask);
        mul_carry!(b, r8, mask);
        let dst = m.as_mut_ptr().cast::<__m256i>();
        for (k, l) in [b, a].into_iter().enumerate() {
            for (i, v) in mults_of!(l).into_iter().enumerate() {
                _mm256_store_si256(dst.add(9 * k + i), v);
            }
        }
    }
    t.set(0, &m[0]);
    t.set(1, &m[1]);
    m[0].wipe();
    m[1].wipe();
    // SAFETY: the token proves AVX2 and AVX; entries 0..4 of `steady` are made.
    unsafe { tables_dw_avx2(tok, t) };
    t.wide = true;
}

/// `dw` and `hb` of [`Avx2Tables`] from `steady`: the vector `V = (r^16, r^12, r^8, r^4)`
/// (element `t` = entry `t`) times `2^(32a)`, `a = 1..=4`, four independent
/// [`mul_2_32a`]: `V·2^(32a)` (`a < 4`) gives `dw`, `V·2^128` the suffix sums of `hb` (each
/// below 3·(2^26 + 2^10)).
#[target_feature(enable = "avx2,avx")]
unsafe fn tables_dw_avx2(_t: Avx2, t: &mut Avx2Tables) {
    let mut out = [[[0u64; 4]; 5]; 5];
    // SAFETY: the features are enabled here; the stores write the five 32-byte rows of each
    // `[[u64; 4]; 5]` of `out`.
    unsafe {
        let mask = _mm256_set1_epi64x(M26 as i64);
        let s = &t.steady;
        // Limb `i` of the four steady powers, one per element.
        macro_rules! limb {
            ($i:literal) => {
                _mm256_set_epi64x(
                    s[3][$i] as i64,
                    s[2][$i] as i64,
                    s[1][$i] as i64,
                    s[0][$i] as i64,
                )
            };
        }
        let v = [limb!(0), limb!(1), limb!(2), limb!(3), limb!(4)];
        // Four independent products (not a chain of four): the latency is one.
        let w = [
            v,
            mul_2_32a!(v, 1, 6, 8, mask),
            mul_2_32a!(v, 2, 12, 14, mask),
            mul_2_32a!(v, 3, 18, 20, mask),
            mul_2_32a!(v, 4, 24, 26, mask),
        ];
        for (o, l) in out.iter_mut().zip(w) {
            for (row, x) in o.iter_mut().zip(l) {
                _mm256_storeu_si256(row.as_mut_ptr().cast(), x);
            }
        }
    }
    for e in 1..4 {
        for (a, o) in out[..4].iter().enumerate() {
            for (k, row) in o.iter().enumerate() {
                t.dw[e - 1][5 * a + k] = row[e] as u32;
            }
        }
        for (h, row) in t.hb[e - 1].iter_mut().zip(out[4].iter()) {
            *h = row[e..].iter().map(|&x| x as u32).sum();
        }
    }
    crate::wipe::wipe(&mut out);
}

/// Splits the four blocks at `$p` into exact limbs `[m0, m1, m2, m3, m4]` (each below 2^26,
/// `m4` with the block's 2^128 bit at 2^24, so below 2^25), element `e` holding block `π(e)`,
/// `π = (0, 2, 1, 3)`.
///
/// `lo`, `hi` are the low and high halves of the blocks (two 32-byte loads, `vpunpck{l,h}qdq`);
/// `m0 = lo & M`, `m1 = (lo >> 26) & M`, `m2 = ((lo >> 52) | (hi << 12)) & M`,
/// `m3 = (hi >> 14) & M`, `m4 = (hi >> 40) | 2^24`: 13 operations. A variant with one
/// operation fewer (a third vector of bits 32..96 from loads at bytes 4 and 28, and
/// `vpblendd` of loads at bytes `o`, `o + 24` in place of the unpacks) measured 7–8% slower
/// at 16 KiB and 1–3% slower in the AEAD; probably because its unaligned loads cross cache
/// lines (this machine has no performance counters to confirm it).
macro_rules! split4 {
    ($p:expr, $mask:expr, $hibit:expr) => {{
        let p: *const u8 = $p;
        let a = _mm256_loadu_si256(p.cast());
        let b = _mm256_loadu_si256(p.add(32).cast());
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
            _mm256_or_si256(_mm256_srli_epi64::<40>(hi), $hibit),
        ]
    }};
}

/// The five limb sums `d_k` of the product of the limb vectors `$m` by the nine multiplier
/// rows `$r` (`[r0, r1, r2, r3, r4, s1, s2, s3, s4]`, read in the low halves): 25 `vpmuludq`
/// and 20 adds (formulas in the module docs).
macro_rules! prod5 {
    ($m:expr, $r:expr) => {{
        let [m0, m1, m2, m3, m4] = $m;
        let [r0, r1, r2, r3, r4, s1, s2, s3, s4] = $r;
        [
            dot5!(m0, r0, m1, s4, m2, s3, m3, s2, m4, s1),
            dot5!(m0, r1, m1, r0, m2, s4, m3, s3, m4, s2),
            dot5!(m0, r2, m1, r1, m2, r0, m3, s4, m4, s3),
            dot5!(m0, r3, m1, r2, m2, r1, m3, r0, m4, s4),
            dot5!(m0, r4, m1, r3, m2, r2, m3, r1, m4, r0),
        ]
    }};
}

/// The carry after a step's sums, one chain `d3→d4→·5→d0→d1→d2→d3→d4` (bounds in the module
/// docs), as the five limbs. `|c| e` is the carry out of `d4` times 5 (`e` in terms of `c`).
macro_rules! carry_chain {
    ($d0:ident, $d1:ident, $d2:ident, $d3:ident, $d4:ident, $mask:expr, |$c:ident| $five:expr) => {{
        let c = _mm256_srli_epi64::<26>($d3);
        $d3 = _mm256_and_si256($d3, $mask);
        $d4 = _mm256_add_epi64($d4, c);
        let $c = _mm256_srli_epi64::<26>($d4);
        $d4 = _mm256_and_si256($d4, $mask);
        $d0 = _mm256_add_epi64($d0, $five);
        let c = _mm256_srli_epi64::<26>($d0);
        $d0 = _mm256_and_si256($d0, $mask);
        $d1 = _mm256_add_epi64($d1, c);
        let c = _mm256_srli_epi64::<26>($d1);
        $d1 = _mm256_and_si256($d1, $mask);
        $d2 = _mm256_add_epi64($d2, c);
        let c = _mm256_srli_epi64::<26>($d2);
        $d2 = _mm256_and_si256($d2, $mask);
        $d3 = _mm256_add_epi64($d3, c);
        let c = _mm256_srli_epi64::<26>($d3);
        $d3 = _mm256_and_si256($d3, $mask);
        $d4 = _mm256_add_epi64($d4, c);
        [$d0, $d1, $d2, $d3, $d4]
    }};
}

/// One step of the loop: `$h ← (h + m_0)·T_0 + m_1·T_1 + … + m_(n−1)·T_(n−1)` lane-wise,
/// carried, for the `n ≥ 1` groups at `$p` and the `n` multiplier tables at `$t` (a pointer to
/// the first), whose rows the macro `$rows` loads. The carry is one chain
/// `d3→d4→·5→d0→d1→d2→d3→d4` (bounds in the module docs); the `·5` is a `vpmuludq` by 5
/// (`c4 < 2^31`).
macro_rules! step {
    ($h:ident, $p:expr, $t:expr, $n:expr, $rows:ident, $mask:expr, $hibit:expr, $five:expr) => {{
        let p: *const u8 = $p;
        let t = $t;
        let mut m = split4!(p, $mask, $hibit);
        for i in 0..5 {
            m[i] = _mm256_add_epi64(m[i], $h[i]);
        }
        let [mut d0, mut d1, mut d2, mut d3, mut d4] = prod5!(m, $rows!(t));
        for j in 1..$n {
            let e = prod5!(split4!(p.add(64 * j), $mask, $hibit), $rows!(t.add(j)));
            d0 = _mm256_add_epi64(d0, e[0]);
            d1 = _mm256_add_epi64(d1, e[1]);
            d2 = _mm256_add_epi64(d2, e[2]);
            d3 = _mm256_add_epi64(d3, e[3]);
            d4 = _mm256_add_epi64(d4, e[4]);
        }
        $h = carry_chain!(d0, d1, d2, d3, d4, $mask, |c| vpmuludq!(c, $five));
    }};
}

/// A step that more steps follow, with the word tables: `$h ← (h + m_0)·r^(4n) +
/// Σ_{j=1}^{n−1} m_j·r^(4(n−j))` lane-wise, carried, for the `n ≥ 2` groups at `$p`; `$e`
/// the table entry of group 0 (`4 − n`). Group 0 goes as in [`step`]; a later group as its
/// four 32-bit words `w_a` (block = `Σ w_a·2^(32a)`, plus 2^128): words 0 and 2 of each block
/// are the low halves of `lo` and `hi` (as in [`split4`]), words 1 and 3 those of `lo >> 32`
/// and `hi >> 32` (`vpmuludq` ignores the high halves), and `w_a·(2^(32a)·r^(4(n−j)) mod p)` is
/// five `vpmuludq` by the limbs of `dw[e + j − 1]`, no limbs and no `·5` terms: 4 operations,
/// 20 multiplies and 20 adds against 13 + 25 + 25. The 2^128 bits of groups `1..n` are one add
/// of `hb[e]`.
///
/// Bounds: `(h + m_0)` limbs below 2^27.4 times multipliers below 2^28.4 give group 0 below
/// 2^58.1 per limb sum; a later group adds four products below 2^32·2^26.01 per limb sum,
/// so with three of them and `hb` every `d_k < 2^61.7`. The carry is the chain of [`step`]
/// with `5·c4` as `c4 + (c4 << 2)` (`c4` may reach 2^35.7 here, beyond `vpmuludq`'s 32 bits):
/// `c ≤ 2^35.8` into each limb, and the last `d3 → d4` carries at most 2^10, so the limbs
/// come out below 2^26 except `d4` (below 2^26 + 2^10).
macro_rules! step_dw {
    ($h:ident, $p:expr, $k:expr, $e:expr, $n:expr, $mask:expr, $hibit:expr) => {{
        let p: *const u8 = $p;
        let k: &Avx2Tables = $k;
        let e: usize = $e;
        let mut m = split4!(p, $mask, $hibit);
        for i in 0..5 {
            m[i] = _mm256_add_epi64(m[i], $h[i]);
        }
        let [mut d0, mut d1, mut d2, mut d3, mut d4] =
            prod5!(m, rows_bcast!(k.steady.as_ptr().add(e)));
        for j in 1..$n {
            let q = p.add(64 * j);
            let u = k.dw.as_ptr().add(e + j - 1).cast::<u32>();
            let x = _mm256_loadu_si256(q.cast());
            let y = _mm256_loadu_si256(q.add(32).cast());
            let lo = _mm256_unpacklo_epi64(x, y);
            let hi = _mm256_unpackhi_epi64(x, y);
            let words = [
                lo,
                _mm256_srli_epi64::<32>(lo),
                hi,
                _mm256_srli_epi64::<32>(hi),
            ];
            for (a, w) in words.into_iter().enumerate() {
                let u = u.add(5 * a);
                d0 = _mm256_add_epi64(d0, vpmuludq!(w, _mm256_set1_epi32(u.read() as i32)));
                d1 = _mm256_add_epi64(d1, vpmuludq!(w, _mm256_set1_epi32(u.add(1).read() as i32)));
                d2 = _mm256_add_epi64(d2, vpmuludq!(w, _mm256_set1_epi32(u.add(2).read() as i32)));
                d3 = _mm256_add_epi64(d3, vpmuludq!(w, _mm256_set1_epi32(u.add(3).read() as i32)));
                d4 = _mm256_add_epi64(d4, vpmuludq!(w, _mm256_set1_epi32(u.add(4).read() as i32)));
            }
        }
        let c = k.hb.as_ptr().add(e).cast::<u32>();
        d0 = _mm256_add_epi64(d0, _mm256_set1_epi64x(c.read() as i64));
        d1 = _mm256_add_epi64(d1, _mm256_set1_epi64x(c.add(1).read() as i64));
        d2 = _mm256_add_epi64(d2, _mm256_set1_epi64x(c.add(2).read() as i64));
        d3 = _mm256_add_epi64(d3, _mm256_set1_epi64x(c.add(3).read() as i64));
        d4 = _mm256_add_epi64(d4, _mm256_set1_epi64x(c.add(4).read() as i64));
        $h = carry_chain!(d0, d1, d2, d3, d4, $mask, |c| {
            _mm256_add_epi64(c, _mm256_slli_epi64::<2>(c))
        });
    }};
}

/// The vector loop over `data` (a non-empty whole number of 64-byte groups).
///
/// Steps of `k` groups (`k = 4` with the wide tables, else 2), four Horner lanes: the first
/// step takes `f = (groups − 1) mod k + 1` groups, then full steps follow. A step that more
/// steps follow multiplies its group `t` by `steady[4 − n + t]` (`r^(4(n−t))` for a step of
/// `n` groups: the block four after the step's last in the lane is the next step's first);
/// the last step by `last[4 − n + t]`, which gives the last block `r^1`. With the wide tables
/// a step that more steps follow (of at least two groups) goes through [`step_dw`], others
/// through [`step`]. The lanes are summed at the end.
#[target_feature(enable = "avx2,avx")]
unsafe fn blocks_avx2(_t: Avx2, k: &Avx2Tables, st: &mut State, data: &[u8]) {
    debug_assert!(!data.is_empty() && data.len() % 64 == 0);
    let groups = data.len() / 64;
    let kk = if k.wide { 4 } else { 2 };
    let first = (groups - 1) % kk + 1;
    let full = (groups - first) / kk;
    let mut hl = to_limbs26(&st.h);
    let mut out = [[0u64; 4]; 5];
    // SAFETY: the features are enabled here. Tables: a step of `n ≤ kk` groups reads entries
    // `4 − n .. 4` of `k.steady` or `k.last`, and `step_dw!` entries `4 − n .. 3` of `k.dw`
    // and `k.hb` (which hold 3); entries 0, 1 and the word tables only when `kk = 4`, i.e.
    // made. The loads of `rows_packed!` stay within their `Packed`, which is 32-byte aligned.
    // Data: the first step reads groups `0..first`, full step `i` groups
    // `first + kk·i .. first + kk·(i + 1)`, `groups` groups in all, each as two unaligned
    // 32-byte loads at bytes 0 and 32 of the group. The stores write the five 32-byte rows of
    // `out`.
    unsafe {
        let mask = _mm256_set1_epi64x(M26 as i64);
        let hibit = _mm256_set1_epi64x(1 << 24);
        let five = _mm256_set1_epi64x(5);
        let mut h = [
            _mm256_set_epi64x(0, 0, 0, hl[0] as i64),
            _mm256_set_epi64x(0, 0, 0, hl[1] as i64),
            _mm256_set_epi64x(0, 0, 0, hl[2] as i64),
            _mm256_set_epi64x(0, 0, 0, hl[3] as i64),
            _mm256_set_epi64x(0, 0, 0, hl[4] as i64),
        ];
        let steady = k.steady.as_ptr();
        let last = k.last.as_ptr();
        let mut p = data.as_ptr();
        if full == 0 {
            step!(
                h,
                p,
                last.add(4 - first),
                first,
                rows_packed,
                mask,
                hibit,
                five
            );
        } else {
            if k.wide && first > 1 {
                step_dw!(h, p, k, 4 - first, first, mask, hibit);
            } else {
                step!(
                    h,
                    p,
                    steady.add(4 - first),
                    first,
                    rows_bcast,
                    mask,
                    hibit,
                    five
                );
            }
            p = p.add(64 * first);
            for _ in 1..full {
                if k.wide {
                    step_dw!(h, p, k, 0, 4, mask, hibit);
                } else {
                    step!(h, p, steady.add(4 - kk), kk, rows_bcast, mask, hibit, five);
                }
                p = p.add(64 * kk);
            }
            step!(h, p, last.add(4 - kk), kk, rows_packed, mask, hibit, five);
        }
        for (o, v) in out.iter_mut().zip(h) {
            _mm256_storeu_si256(o.as_mut_ptr().cast(), v);
        }
    }
    // The sum of the lanes (each limb below 2^27: the sums stay far below 2^63).
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
            lengths_against_portable(&mut k, &r, &mut rng, trial, 0..=max_blocks, 7);
        }
    }

    /// `k` (key `r`) against the portable kernel for every block count in `lens`, on an
    /// accumulator from `rng.h`: random (even `trial`) or all-ones (odd) messages, in one call
    /// and in two calls split at block `(n·cut_mul + trial) mod (n + 1)`.
    pub(crate) fn lengths_against_portable<K: Kernel>(
        k: &mut K,
        r: &[u64; 2],
        rng: &mut Rng,
        trial: u64,
        lens: impl Iterator<Item = usize>,
        cut_mul: usize,
    ) {
        for n in lens {
            let data = if trial % 2 == 1 {
                std::vec![0xff; 16 * n]
            } else {
                rng.bytes(16 * n)
            };
            let h0 = rng.h(trial + n as u64);
            let mut want = State { h: h0 };
            soft64::new(r).blocks(&mut want, &data);
            let mut got = State { h: h0 };
            k.blocks(&mut got, &data);
            assert!(got.h[2] <= 7, "trial {trial}, {n} blocks: {:?}", got.h);
            assert_eq!(reduce(got.h), reduce(want.h), "trial {trial}, {n} blocks");
            // The same message in two calls, split at a block boundary.
            let cut = 16 * ((n * cut_mul + trial as usize) % (n + 1));
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

    /// [`tables_avx2`] and [`tables_wide_avx2`] against [`Avx2Tables::new`], element by
    /// element modulo p, and their limbs within the multiplier bounds of the module docs.
    #[test]
    fn vector_tables_match() {
        let Some(t) = token() else { return };
        let mut rng = Rng(0x7ab);
        for i in 0..200 {
            let r = rng.r(i % 4 == 0);
            let mut got = Avx2Tables::zero();
            // SAFETY: the token proves AVX2 and AVX.
            unsafe { tables_avx2(t, &r, &mut got) };
            assert!(!got.wide);
            // SAFETY: as above; entries 2 and 3 are made.
            unsafe { tables_wide_avx2(t, &mut got) };
            assert!(got.wide);
            let want = Avx2Tables::new(&r);
            for (g, w) in got.last.iter().zip(want.last.iter()) {
                for e in 0..4 {
                    let gl: [u64; 5] = core::array::from_fn(|k| g.get(k, e));
                    let wl: [u64; 5] = core::array::from_fn(|k| w.get(k, e));
                    assert!(
                        gl.iter().all(|&l| l < (1 << 26) + (1 << 10)),
                        "{i} {e} {gl:?}"
                    );
                    for (k, l) in gl.iter().enumerate().skip(1) {
                        assert_eq!(g.get(4 + k, e), 5 * l);
                    }
                    assert_eq!(
                        reduce(from_limbs26(gl)),
                        reduce(from_limbs26(wl)),
                        "{i} {e}"
                    );
                }
            }
            // `steady[t]` is element 0 of `last[t]` (r^16, r^12, r^8, r^4).
            for (s, l) in got.steady.iter().zip(got.last.iter()) {
                for (j, &x) in s.iter().enumerate() {
                    assert_eq!(u64::from(x), l.get(j, 0));
                }
            }
            // `dw[t − 1]` holds 2^(32a)·r^(16−4t), `hb[t − 1]` Σ_{u ≥ t} 2^128·r^(16−4u): checked
            // by `mul26` (an independent multiplication) and the portable powers.
            let pw = powers26::<16>(&r);
            let two32 = to_limbs26(&[1 << 32, 0, 0]);
            let two128 = to_limbs26(&[0, 0, 1]);
            for e in 1..4 {
                let mut x = pw[15 - 4 * e];
                let mut sum = [0u64; 5];
                for u in e..4 {
                    let y = mul26(&pw[15 - 4 * u], &two128);
                    for (s, v) in sum.iter_mut().zip(y) {
                        *s += v;
                    }
                }
                for a in 0..4 {
                    let gl: [u64; 5] =
                        core::array::from_fn(|k| u64::from(got.dw[e - 1][5 * a + k]));
                    assert!(gl.iter().all(|&l| l < (1 << 26) + (1 << 10)), "{i} {e} {a}");
                    assert_eq!(
                        reduce(from_limbs26(gl)),
                        reduce(from_limbs26(x)),
                        "{i} {e} {a}"
                    );
                    x = mul26(&x, &two32);
                }
                let gl: [u64; 5] = core::array::from_fn(|k| u64::from(got.hb[e - 1][k]));
                assert!(gl.iter().all(|&l| l < 3 * ((1 << 26) + (1 << 10))));
                assert_eq!(
                    reduce(from_limbs26(gl)),
                    reduce(from_limbs26(sum)),
                    "{i} {e}"
                );
            }
        }
    }

    /// A key whose tables stop at `r^8` (two groups a step) against the portable kernel, for
    /// every length below [`WIDE_MIN_GROUPS`] groups (which would make the wide tables), in one
    /// call and split; the wide tables are covered by `avx2_against_portable` (its warm-up call
    /// makes them).
    #[test]
    fn avx2_narrow_tables() {
        let Some(t) = token() else { return };
        let mut rng = Rng(0x0a22);
        for trial in 0..8u64 {
            let r = rng.r(trial % 3 == 0);
            let mut k = new(t, &r);
            let mut tab = Avx2Tables::zero();
            // SAFETY: the token proves AVX2 and AVX.
            unsafe { tables_avx2(t, &r, &mut tab) };
            k.tables = Some(tab);
            lengths_against_portable(&mut k, &r, &mut rng, trial, 0..4 * WIDE_MIN_GROUPS, 3);
            assert!(!k.tables.as_ref().is_some_and(|t| t.wide));
        }
    }

    #[test]
    fn avx2_against_portable() {
        let Some(t) = token() else { return };
        cross_check(|r| new(t, r), 3 * 4 + 4 + 3);
        cross_check(|r| new(t, r), 4 * 4 * 3 + 4 + 3);
    }
}
