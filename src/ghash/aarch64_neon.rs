//! GHASH on aarch64 Advanced SIMD alone, for cores without FEAT_PMULL (Cortex-A53/A72 parts
//! without the crypto extension, e.g. Raspberry Pi 3 and 4): every 64×64-bit carry-less
//! product is built from the 8-bit polynomial multiply of base AdvSIMD (`PMULL`/`PMULL2` on
//! `.8b`/`.16b` → `.8h`; `vmull_p8`, `vmull_high_p8`), the method of Câmara, Gouvêa, López
//! and Dahab, "Fast Software Polynomial Multiplication on ARM Processors Using the NEON
//! Engine" (2013), as in the armv7 kernel (asm/arm/ghash_neon.S).
//!
//! # Bit order
//! As in `aarch64_pmull.rs`: `RBIT` on each byte and a little-endian view put the coefficient
//! of x^i of a block at bit i (byte j holds x^(8j)..x^(8j+7), bit k of the byte being
//! x^(8j+k)). In that order an 8-bit polynomial multiply of two bytes is their ordinary
//! product, and everything below is plain polynomial arithmetic.
//!
//! # 64×64 from 8×8
//! With a = Σ a_i·x^(8i) and b = Σ b_j·x^(8j) (bytes, i, j = 0..7), a·b = Σ a_i·b_j·x^(8(i+j)).
//! One `PMULL .8b` gives, in 16-bit lane i, a_i·b_i: the terms with i = j, already at their
//! place x^(16i). Let rot_k(v) rotate the bytes of a 64-bit value up by k (lane i holds
//! v_(i−k mod 8)). For k = 1, 2, 3
//!
//!   X_k = pmull8(rot_k(a), b) ⊕ pmull8(a, rot_k(b)),   lane i = a_(i−k)·b_i ⊕ a_i·b_(i−k).
//!
//! A lane i ≥ k holds the terms with |i − j| = k whose sum of byte indices is 2i − k: they
//! belong at x^(16i − 8k), so X_k moves down by 8k bits. A lane i < k holds wrapped terms
//! (index i − k + 8) that belong 64 bits higher, at x^(16i − 8k + 64): those k lanes (the low
//! 16k bits of X_k) are first moved up by 64 bits. For k = 4 a single product
//! X_4 = pmull8(a, rot_4(b)) already holds every term with |i − j| = 4: lanes 4..7 (high half)
//! belong at x^(16(i−4) + 32), lanes 0..3 (low half) at x^(16i + 32), so the contribution is
//! (low half ⊕ high half)·x^32. In all
//!
//!   a·b = pmull8(a, b) ⊕ X_1/x^8 ⊕ X_2/x^16 ⊕ X_3/x^24 ⊕ (X_4,lo ⊕ X_4,hi)·x^32
//!
//! (the divisions exact after the wrap fix): 8 byte multiplies. A vector holds two 64-bit
//! operands, so `PMULL` and `PMULL2` on the same registers give two 64×64 products at once,
//! 16 byte multiplies for two.
//!
//! # 128×128, reduction, aggregation
//! Karatsuba (three 64×64 products per block: lo = a0·b0, hi = a1·b1 in one pair, the middle
//! product (a0 + a1)(b0 + b1) paired with the next block's) as in `aarch64_pmull.rs`, and the
//! same aggregated reduction: `Y_{i+8} = (Y_i + X_1)·H^8 + X_2·H^7 + … + X_8·H`, the 8 products
//! summed unreduced and reduced once; H^1..H^8 and their Karatsuba folds are precomputed.
//! The reduction modulo p = x^128 + x^7 + x^2 + x + 1 uses x^128 ≡ x^7 + x^2 + x + 1 with
//! shifts instead of a multiply: for a 64-bit limb d at x^(128 + 64m),
//! d·(x^7 + x^2 + x + 1) = L(d) + R(d)·x^64 with L(d) = d ⊕ d≪1 ⊕ d≪2 ⊕ d≪7 (the low 64
//! bits) and R(d) = d≫63 ⊕ d≫62 ⊕ d≫57 (the 7 bits above). For the product limbs d3 d2 d1 d0:
//! d3 contributes L(d3) to d1 and R(d3) to d2; then d2' = d2 ⊕ R(d3) contributes L(d2') to d0
//! and R(d2') = R(d2) to d1 (R(d3) < 2^7, so R(R(d3)) = 0). Both limbs are shifted in one
//! vector.
//!
//! Constant time: `PMULL` on bytes, `TBL` with constant indices, `EOR`/`AND`, shifts,
//! `EXT`/`TRN`/`ZIP`, `RBIT`, loads and stores; no table is indexed by data. The block count
//! (public) is the only thing that steers a branch.

use core::arch::aarch64::{
    uint8x16_t, uint64x2_t, vandq_u64, vdupq_n_u8, vdupq_n_u64, veorq_u64, vextq_u8, vextq_u64,
    vget_low_u8, vld1q_u8, vld1q_u64, vmull_high_p8, vmull_p8, vqtbl1q_u8, vreinterpret_p8_u8,
    vreinterpretq_p8_u8, vreinterpretq_u8_p16, vreinterpretq_u8_u32, vreinterpretq_u8_u64,
    vreinterpretq_u32_u8, vreinterpretq_u64_u8, vrev64q_u32, vsetq_lane_u64, vshlq_n_u64,
    vshrq_n_u64, vst1q_u64, vtrn1q_u64, vtrn2q_u64, vzip1q_u64,
};

use super::Kernel;
use super::aarch64_poly::{Acc, load, store};
use crate::cpu::arch::Neon;
use crate::wipe::wipe;

/// Blocks per aggregated step.
const STRIDE: usize = 8;

/// `TBL` indices of rot_k in both 64-bit halves: byte i of a half takes byte (i − k) mod 8.
const ROT: [[u8; 16]; 3] = {
    let mut t = [[0u8; 16]; 3];
    let mut k = 0;
    while k < 3 {
        let mut i = 0;
        while i < 16 {
            t[k][i] = ((i & 8) + ((i + 8 - (k + 1)) & 7)) as u8;
            i += 1;
        }
        k += 1;
    }
    t
};

/// H expanded for this kernel (the layout of `aarch64_pmull.rs`'s key).
#[derive(Clone)]
pub(crate) struct NeonKey {
    t: Neon,
    /// `h[k]` = H^(8−k) as [x^0..x^63, x^64..x^127] (`h[7]` = H, `h[0]` = H^8): block k of an
    /// 8-block step is multiplied by `h[k]`, and a tail of r blocks uses `h[8 − r..]`.
    h: [[u64; 2]; STRIDE],
    /// `fold[k]` = `h[k][0] ^ h[k][1]`, the Karatsuba middle operand; adjacent entries are
    /// loaded as one vector for two blocks. The last entry is padding (zero).
    fold: [u64; STRIDE + 1],
}

/// Expands `h` (= E_K(0^128), SP 800-38D byte order).
pub(crate) fn new(t: Neon, h: &[u8; 16]) -> NeonKey {
    let mut k = NeonKey {
        t,
        h: [[0; 2]; STRIDE],
        fold: [0; STRIDE + 1],
    };
    // SAFETY: the token proves NEON; `h` is 16 readable bytes.
    unsafe { expand(t, h, &mut k.h) };
    for (f, p) in k.fold.iter_mut().zip(k.h.iter()) {
        *f = p[0] ^ p[1];
    }
    k
}

impl Drop for NeonKey {
    fn drop(&mut self) {
        wipe(&mut self.h);
        wipe(&mut self.fold);
    }
}

impl Kernel for NeonKey {
    fn update(&self, y: &mut [u8; 16], data: &[u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        // SAFETY: the token proves NEON; the kernel reads whole 16-byte blocks of `data` only
        // (a partial trailing block would be ignored, never over-read).
        unsafe { update(self.t, self, y, data) }
    }
}

/// Byte-wise polynomial products of the low halves: lane i (16 bits) = a_i·b_i (`PMULL .8b`).
#[inline]
#[target_feature(enable = "neon")]
unsafe fn pm_lo(_t: Neon, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    // SAFETY: the token proves NEON; register operations only.
    unsafe {
        vreinterpretq_u8_p16(vmull_p8(
            vreinterpret_p8_u8(vget_low_u8(a)),
            vreinterpret_p8_u8(vget_low_u8(b)),
        ))
    }
}

/// The same for the high halves (`PMULL2 .16b`).
#[inline]
#[target_feature(enable = "neon")]
unsafe fn pm_hi(_t: Neon, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    // SAFETY: the token proves NEON; register operations only.
    unsafe {
        vreinterpretq_u8_p16(vmull_high_p8(
            vreinterpretq_p8_u8(a),
            vreinterpretq_p8_u8(b),
        ))
    }
}

/// rot_k on both halves (`K` = k − 1 indexes [`ROT`]).
#[inline]
#[target_feature(enable = "neon")]
unsafe fn rot<const K: usize>(_t: Neon, v: uint8x16_t) -> uint8x16_t {
    // SAFETY: the token proves NEON; `ROT[K]` is 16 readable bytes (K < 3 by the callers).
    unsafe { vqtbl1q_u8(v, vld1q_u8(ROT[K].as_ptr())) }
}

/// X_k (one 128-bit product's worth) placed: the low 16k bits moved up by 64, then the whole
/// value moved down by 8k bits (`K` = k bytes).
#[inline]
#[target_feature(enable = "neon")]
unsafe fn place<const K: i32>(_t: Neon, x: uint8x16_t) -> uint64x2_t {
    // SAFETY: the token proves NEON; register operations only.
    unsafe {
        let x = vreinterpretq_u64_u8(x);
        let mask = vsetq_lane_u64::<0>((1u64 << (16 * K)) - 1, vdupq_n_u64(0));
        let w = vandq_u64(x, mask);
        // [lo ^ w, hi ^ w]: clears the wrapped lanes below and adds them 64 bits higher.
        let x = veorq_u64(x, vzip1q_u64(w, w));
        vreinterpretq_u64_u8(vextq_u8::<K>(vreinterpretq_u8_u64(x), vdupq_n_u8(0)))
    }
}

// `mul2!` and `pair!` expand inside `#[target_feature(enable = "neon")]` functions, in
// `unsafe` blocks whose SAFETY comments cover them (NEON intrinsics on registers; `pair!` also
// loads key entries at indices the caller keeps in bounds). Macros rather than functions: a
// `#[target_feature]` function cannot be `#[inline(always)]`, and LLVM declines to inline a
// 150-instruction function at the call sites of the 8-block step, which must be straight-line
// code.

/// `mul2!(t, a, b)`: two 64×64 carry-less products `(a0·b0, a1·b1)`, each as
/// [low 64 bits, high 64 bits], for `a = [a0, a1]` and `b = [b0, b1]` (`uint8x16_t`).
/// 16 byte multiplies (see the module documentation).
macro_rules! mul2 {
    ($t:expr, $a:expr, $b:expr) => {{
        let (t, a, b) = ($t, $a, $b);
        let mut lo = vreinterpretq_u64_u8(pm_lo(t, a, b));
        let mut hi = vreinterpretq_u64_u8(pm_hi(t, a, b));
        macro_rules! term {
            ($k:literal, $r:literal) => {{
                let (ar, br) = (rot::<$r>(t, a), rot::<$r>(t, b));
                let xl = veorq_u64(
                    vreinterpretq_u64_u8(pm_lo(t, ar, b)),
                    vreinterpretq_u64_u8(pm_lo(t, a, br)),
                );
                let xh = veorq_u64(
                    vreinterpretq_u64_u8(pm_hi(t, ar, b)),
                    vreinterpretq_u64_u8(pm_hi(t, a, br)),
                );
                lo = veorq_u64(lo, place::<$k>(t, vreinterpretq_u8_u64(xl)));
                hi = veorq_u64(hi, place::<$k>(t, vreinterpretq_u8_u64(xh)));
            }};
        }
        term!(1, 0);
        term!(2, 1);
        term!(3, 2);
        // k = 4: rot_4 swaps the 32-bit halves of each 64-bit half.
        let b4 = vreinterpretq_u8_u32(vrev64q_u32(vreinterpretq_u32_u8(b)));
        let x4l = vreinterpretq_u64_u8(pm_lo(t, a, b4));
        let x4h = vreinterpretq_u64_u8(pm_hi(t, a, b4));
        // u = [y_lo, y_hi], y = X_4,lo ⊕ X_4,hi of each product; y·x^32 = [y ≪ 32, y ≫ 32].
        let u = veorq_u64(vtrn1q_u64(x4l, x4h), vtrn2q_u64(x4l, x4h));
        let (s, r) = (vshlq_n_u64::<32>(u), vshrq_n_u64::<32>(u));
        lo = veorq_u64(lo, vtrn1q_u64(s, r));
        hi = veorq_u64(hi, vtrn2q_u64(s, r));
        (lo, hi)
    }};
}

/// `pair!(t, key, acc, a, b, k)`: adds a·H^(8−k) + b·H^(7−k) to `acc` (`key.h[k]`,
/// `key.h[k + 1]`): one product pair for a's halves, one for b's, one for both middle
/// products. The caller guarantees `k + 1 < STRIDE` (`key.fold[k..k + 2]` is then in bounds).
macro_rules! pair {
    ($t:expr, $key:expr, $acc:expr, $a:expr, $b:expr, $k:expr) => {{
        let (t, key, acc, a, b, k): (Neon, &NeonKey, &mut Acc, uint64x2_t, uint64x2_t, usize) =
            ($t, $key, $acc, $a, $b, $k);
        let ha = vld1q_u64(key.h.as_ptr().add(k).cast());
        let hb = vld1q_u64(key.h.as_ptr().add(k + 1).cast());
        let u8q = vreinterpretq_u8_u64;
        let (lo_a, hi_a) = mul2!(t, u8q(a), u8q(ha));
        let (lo_b, hi_b) = mul2!(t, u8q(b), u8q(hb));
        // [a0 + a1, b0 + b1] against [fold of ha, fold of hb].
        let fab = veorq_u64(vtrn1q_u64(a, b), vtrn2q_u64(a, b));
        let fh = vld1q_u64(key.fold.as_ptr().add(k));
        let (mid_a, mid_b) = mul2!(t, u8q(fab), u8q(fh));
        acc.lo = veorq_u64(acc.lo, veorq_u64(lo_a, lo_b));
        acc.hi = veorq_u64(acc.hi, veorq_u64(hi_a, hi_b));
        acc.mid = veorq_u64(acc.mid, veorq_u64(mid_a, mid_b));
    }};
}

/// L(d) = d ⊕ d≪1 ⊕ d≪2 ⊕ d≪7 in each lane: the low 64 bits of d·(x^7 + x^2 + x + 1).
#[inline]
#[target_feature(enable = "neon")]
unsafe fn fold_low(_t: Neon, d: uint64x2_t) -> uint64x2_t {
    // SAFETY: the token proves NEON; register operations only.
    unsafe {
        let a = veorq_u64(d, vshlq_n_u64::<1>(d));
        let b = veorq_u64(vshlq_n_u64::<2>(d), vshlq_n_u64::<7>(d));
        veorq_u64(a, b)
    }
}

/// R(d) = d≫63 ⊕ d≫62 ⊕ d≫57 in each lane: the bits of d·(x^7 + x^2 + x + 1) above 64.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn fold_high(_t: Neon, d: uint64x2_t) -> uint64x2_t {
    // SAFETY: the token proves NEON; register operations only.
    unsafe {
        let a = veorq_u64(vshrq_n_u64::<63>(d), vshrq_n_u64::<62>(d));
        veorq_u64(a, vshrq_n_u64::<57>(d))
    }
}

/// Reduces Σ lo + Σ mid·x^64 + Σ hi·x^128 (after Karatsuba's correction of `mid`) modulo
/// x^128 + x^7 + x^2 + x + 1.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn reduce(t: Neon, acc: Acc) -> uint64x2_t {
    // SAFETY: the token proves NEON; register operations only.
    unsafe {
        let zero = vdupq_n_u64(0);
        let mid = veorq_u64(acc.mid, veorq_u64(acc.lo, acc.hi));
        // The 256-bit product as [d0, d1] and [d2, d3].
        let lo = veorq_u64(acc.lo, vextq_u64::<1>(zero, mid));
        let hi = veorq_u64(acc.hi, vextq_u64::<1>(mid, zero));
        // r = [R(d2), R(d3)]: R(d3) goes to d2, R(d2) to d1.
        let r = fold_high(t, hi);
        let hi = veorq_u64(hi, vextq_u64::<1>(r, zero));
        let lo = veorq_u64(lo, vextq_u64::<1>(zero, r));
        // [L(d2'), L(d3)] to [d0, d1].
        veorq_u64(lo, fold_low(t, hi))
    }
}

/// Adds a·b to `acc` for one block (the middle product's partner half is unused).
#[target_feature(enable = "neon")]
unsafe fn mul_acc(t: Neon, acc: &mut Acc, a: uint64x2_t, b: uint64x2_t, fold_b: uint64x2_t) {
    // SAFETY: the token proves NEON; register operations only.
    unsafe {
        // a0 + a1 in lane 0.
        let fa = veorq_u64(a, vextq_u64::<1>(a, a));
        let (lo, hi) = mul2!(t, vreinterpretq_u8_u64(a), vreinterpretq_u8_u64(b));
        let (mid, _) = mul2!(t, vreinterpretq_u8_u64(fa), vreinterpretq_u8_u64(fold_b));
        acc.lo = veorq_u64(acc.lo, lo);
        acc.hi = veorq_u64(acc.hi, hi);
        acc.mid = veorq_u64(acc.mid, mid);
    }
}

/// a·b mod p, for the precomputation.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn mul(t: Neon, a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
    // SAFETY: the token proves NEON; register operations only.
    unsafe {
        let mut acc = Acc::zero();
        let fb = veorq_u64(b, vextq_u64::<1>(b, b));
        mul_acc(t, &mut acc, a, b, fb);
        reduce(t, acc)
    }
}

/// `h[k]` = H^(8−k) for k = 0..8.
///
/// # Safety
/// None beyond the token (kept `unsafe` as a `#[target_feature]` fn).
#[target_feature(enable = "neon")]
unsafe fn expand(t: Neon, h: &[u8; 16], out: &mut [[u64; 2]; STRIDE]) {
    // SAFETY: `h` is 16 readable bytes; each `out` entry is 16 writable bytes.
    unsafe {
        let h1 = load(h.as_ptr());
        let mut p = h1;
        for i in (0..STRIDE).rev() {
            vst1q_u64(out[i].as_mut_ptr(), p);
            p = mul(t, p, h1);
        }
    }
}

/// Adds a·H^(8−k) to `acc`.
///
/// # Safety
/// `k < STRIDE`.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn single(t: Neon, key: &NeonKey, acc: &mut Acc, a: uint64x2_t, k: usize) {
    // SAFETY: the token proves NEON; `key.h[k]` and `key.fold[k..k + 2]` (the last entry is
    // padding) are in bounds by the caller's guarantee.
    unsafe {
        let ha = vld1q_u64(key.h.as_ptr().add(k).cast());
        let fh = vld1q_u64(key.fold.as_ptr().add(k));
        mul_acc(t, acc, a, ha, fh);
    }
}

/// One aggregated step over 8 blocks at `blocks`: returns (y + X_1)·H^8 + X_2·H^7 + … + X_8·H,
/// reduced. Straight-line code: four `pair!`s and a reduction.
///
/// # Safety
/// `blocks` is valid for reading 128 bytes.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn step8(t: Neon, key: &NeonKey, y: uint64x2_t, blocks: *const u8) -> uint64x2_t {
    // SAFETY: the token proves NEON; every block read is one of the 8 readable; the power
    // indices k passed to `pair!` are 0, 2, 4, 6 (k + 1 < STRIDE).
    unsafe {
        let mut acc = Acc::zero();
        // Y is added to the first block only.
        let a = veorq_u64(load(blocks), y);
        let b = load(blocks.add(16));
        pair!(t, key, &mut acc, a, b, 0);
        let (a, b) = (load(blocks.add(32)), load(blocks.add(48)));
        pair!(t, key, &mut acc, a, b, 2);
        let (a, b) = (load(blocks.add(64)), load(blocks.add(80)));
        pair!(t, key, &mut acc, a, b, 4);
        let (a, b) = (load(blocks.add(96)), load(blocks.add(112)));
        pair!(t, key, &mut acc, a, b, 6);
        reduce(t, acc)
    }
}

/// One aggregated step over the `n` blocks at `blocks` (a tail, `1 <= n < STRIDE`): returns
/// (y + X_1)·H^n + X_2·H^(n−1) + … + X_n·H, reduced.
///
/// # Safety
/// `blocks` is valid for reading `16·n` bytes; `1 <= n < STRIDE`.
#[target_feature(enable = "neon")]
unsafe fn step_tail(
    t: Neon,
    key: &NeonKey,
    y: uint64x2_t,
    blocks: *const u8,
    n: usize,
) -> uint64x2_t {
    let first = STRIDE - n;
    // SAFETY: the token proves NEON; every block read is one of the n readable; power
    // indices are first + i < STRIDE for block i < n (first + i + 1 < STRIDE for a pair).
    unsafe {
        let zero = vdupq_n_u64(0);
        let mut acc = Acc::zero();
        // Y is added to the first block only (then the addend is zero).
        let mut y = y;
        let mut i = 0;
        // `n` is public.
        while i + 2 <= n {
            let a = veorq_u64(load(blocks.add(16 * i)), y);
            let b = load(blocks.add(16 * (i + 1)));
            y = zero;
            pair!(t, key, &mut acc, a, b, first + i);
            i += 2;
        }
        if i < n {
            let a = veorq_u64(load(blocks.add(16 * i)), y);
            single(t, key, &mut acc, a, first + i);
        }
        reduce(t, acc)
    }
}

/// GHASH of the whole blocks of `data` into `y` (see [`Kernel::update`]).
///
/// # Safety
/// None beyond the token (kept `unsafe` as a `#[target_feature]` fn).
#[target_feature(enable = "neon")]
unsafe fn update(t: Neon, key: &NeonKey, y: &mut [u8; 16], data: &[u8]) {
    // SAFETY: `y` is 16 bytes; `step8` gets chunks of 128 bytes, `step_tail` the n = 1..7
    // whole blocks of the remainder.
    unsafe {
        let mut acc = load(y.as_ptr());
        let mut chunks = data.chunks_exact(16 * STRIDE);
        for c in &mut chunks {
            acc = step8(t, key, acc, c.as_ptr());
        }
        let tail = chunks.remainder();
        // The tail length is public.
        let n = tail.len() / 16;
        if n > 0 {
            acc = step_tail(t, key, acc, tail.as_ptr(), n);
        }
        store(y.as_mut_ptr(), acc);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::arm_kat;
    use super::*;
    use crate::cpu::Features;
    use crate::sha::test_util::bytes;
    use std::boxed::Box;
    use std::vec::Vec;

    const NAME: &str = "neon-pmull8";

    fn token() -> Option<Neon> {
        let t = Features::hardware().get::<Neon>();
        if t.is_none() {
            std::eprintln!("ghash neon-pmull8: CPU has no NEON; kernel not tested");
        }
        t
    }

    /// Bit-serial carry-less product, the reference for the byte-multiply construction.
    fn clmul64(a: u64, b: u64) -> u128 {
        (0..64)
            .filter(|i| b >> i & 1 == 1)
            .fold(0u128, |acc, i| acc ^ (u128::from(a) << i))
    }

    /// `mul2!` against the bit-serial product, on random operands and on the operands that
    /// fill every byte lane (all ones, single high bits).
    #[test]
    fn mul2_matches_bit_serial() {
        let Some(t) = token() else { return };
        let mut ops: Vec<u64> = (0..64)
            .map(|s| u64::from_le_bytes(bytes(7000 + s, 8).try_into().unwrap()))
            .collect();
        ops.extend([
            0,
            1,
            u64::MAX,
            1 << 63,
            0x8080_8080_8080_8080,
            0x0101_0101_0101_0101,
        ]);
        for (i, &a0) in ops.iter().enumerate() {
            for (j, &b0) in ops.iter().enumerate() {
                let (a1, b1) = (ops[(i + 5) % ops.len()], ops[(j + 11) % ops.len()]);
                let (mut lo, mut hi) = ([0u64; 2], [0u64; 2]);
                // SAFETY: the token proves NEON; the arrays are 16 readable/writable bytes.
                unsafe {
                    let a = vreinterpretq_u8_u64(vld1q_u64([a0, a1].as_ptr()));
                    let b = vreinterpretq_u8_u64(vld1q_u64([b0, b1].as_ptr()));
                    let (l, h) = mul2!(t, a, b);
                    vst1q_u64(lo.as_mut_ptr(), l);
                    vst1q_u64(hi.as_mut_ptr(), h);
                }
                let got_lo = u128::from(lo[0]) | u128::from(lo[1]) << 64;
                let got_hi = u128::from(hi[0]) | u128::from(hi[1]) << 64;
                assert_eq!(got_lo, clmul64(a0, b0), "{a0:#x} * {b0:#x}");
                assert_eq!(got_hi, clmul64(a1, b1), "{a1:#x} * {b1:#x}");
            }
        }
    }

    #[test]
    fn known_answers() {
        let Some(t) = token() else { return };
        arm_kat::known_answers(NAME, &|h| Box::new(new(t, h)));
    }

    #[test]
    fn matches_portable() {
        let Some(t) = token() else { return };
        arm_kat::matches_portable(NAME, &|h| Box::new(new(t, h)), 20);
    }
}
