//! GHASH with the ARMv8 PMULL/PMULL2 instructions (64×64 → 128-bit carry-less multiply; Arm
//! ARM, DDI 0487, C7.2 "PMULL, PMULL2"), through `core::arch::aarch64` (`vmull_p64`,
//! `vmull_high_p64`).
//!
//! # Bit order
//! GCM numbers the bits of a block from the left: the most significant bit of byte 0 is the
//! coefficient of x^0 (SP 800-38D §6.3). `RBIT` on each byte (`vrbitq_u8`) followed by a
//! little-endian view of the 16 bytes as two 64-bit lanes puts the coefficient of x^i at bit i
//! (lane 0 = x^0..x^63, lane 1 = x^64..x^127): byte j's bit 7−k, the coefficient of x^(8j+k),
//! moves to bit k of byte j. In that order PMULL computes ordinary polynomial products, so the
//! kernel works on plain polynomials and reflects once on the way in and out.
//!
//! # Multiplication and reduction
//! A 128×128 product uses Karatsuba (Gueron & Kounavis, "Intel Carry-Less Multiplication
//! Instruction and its Usage for Computing the GCM Mode", 2014, §"Karatsuba"): with
//! a = a1·x^64 + a0 and b likewise, `lo = a0·b0`, `hi = a1·b1`, `mid = (a0+a1)(b0+b1) + lo + hi`,
//! a·b = hi·x^128 + mid·x^64 + lo: three PMULLs. The product (degree ≤ 254, four 64-bit limbs
//! d3 d2 d1 d0) is reduced modulo p = x^128 + x^7 + x^2 + x + 1 with x^128 ≡ x^7 + x^2 + x + 1
//! (the constant 0x87), one limb at a time: d3·x^192 ≡ (d3·0x87)·x^64 (a PMULL, ≤ 70 bits, added
//! to limbs 1 and 2), then d2·x^128 ≡ d2·0x87 (added to limbs 0 and 1). Two PMULLs.
//!
//! # Aggregation
//! `Y_{i+8} = (Y_i + X_1)·H^8 + X_2·H^7 + … + X_8·H` (the aggregated reduction of Gueron &
//! Kounavis): the eight products are summed unreduced (Karatsuba parts separately) and reduced
//! once, so 8 blocks cost 24 + 2 PMULLs. H^1..H^8 are precomputed with the same multiply, with
//! (h0 + h1) of each power for the Karatsuba middle products. A tail of r < 8 blocks is one
//! aggregated step with H^r..H^1.
//!
//! Constant time: PMULL, EOR, EXT, RBIT, loads and stores only; the block count (public) is the
//! only thing that steers a branch.

use core::arch::aarch64::{
    uint64x2_t, vdupq_n_u64, veorq_u64, vextq_u64, vgetq_lane_u64, vld1q_u64, vmull_high_p64,
    vmull_p64, vreinterpretq_p64_u64, vreinterpretq_u64_p128, vst1q_u64, vtrn1q_u64, vtrn2q_u64,
};

use super::Kernel;
use super::aarch64_poly::{Acc, load, store};
use crate::cpu::arch::Pmull;
use crate::wipe::wipe;

/// Blocks per aggregated step.
const STRIDE: usize = 8;

/// H expanded for this kernel.
#[derive(Clone)]
pub(crate) struct PmullKey {
    t: Pmull,
    /// `h[k]` = H^(8−k) as [x^0..x^63, x^64..x^127] (`h[7]` = H, `h[0]` = H^8): block k of an
    /// 8-block step is multiplied by `h[k]`, and a tail of r blocks uses `h[8 − r..]`.
    h: [[u64; 2]; STRIDE],
    /// `fold[k]` = `h[k][0] ^ h[k][1]`, the Karatsuba middle operand; adjacent entries are
    /// loaded as one vector for two blocks. The last entry is padding (zero).
    fold: [u64; STRIDE + 1],
}

/// Expands `h` (= E_K(0^128), SP 800-38D byte order).
pub(crate) fn new(t: Pmull, h: &[u8; 16]) -> PmullKey {
    let mut k = PmullKey {
        t,
        h: [[0; 2]; STRIDE],
        fold: [0; STRIDE + 1],
    };
    // SAFETY: the token proves PMULL and NEON; `h` is 16 readable bytes.
    unsafe { expand(t, h, &mut k.h) };
    for (f, p) in k.fold.iter_mut().zip(k.h.iter()) {
        *f = p[0] ^ p[1];
    }
    k
}

/// What the stitched AES-GCM kernel (`src/aead/aes_gcm/aarch64_ce.rs`) reads of a key: the
/// token, `h` (`h[k]` = H^(8−k), coefficient of x^i at bit i) and `fold` (the Karatsuba middle
/// operands, with one zero entry of padding).
pub(crate) type GcmParts<'a> = (Pmull, &'a [[u64; 2]; STRIDE], &'a [u64; STRIDE + 1]);

impl PmullKey {
    /// For the stitched AES-GCM kernel, which reads the same tables (see [`GcmParts`]).
    pub(crate) fn gcm_parts(&self) -> GcmParts<'_> {
        (self.t, &self.h, &self.fold)
    }
}

impl Drop for PmullKey {
    fn drop(&mut self) {
        wipe(&mut self.h);
        wipe(&mut self.fold);
    }
}

impl Kernel for PmullKey {
    fn update(&self, y: &mut [u8; 16], data: &[u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        // SAFETY: the token proves PMULL and NEON; the kernel reads whole 16-byte blocks of
        // `data` only (a partial trailing block would be ignored, never over-read).
        unsafe { update(self.t, self, y, data) }
    }
}

/// lane 0 of `a` × lane 0 of `b` (PMULL).
#[inline]
#[target_feature(enable = "neon,aes")]
unsafe fn mul_00(_t: Pmull, a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
    // SAFETY: the token proves PMULL and NEON; register operations only.
    unsafe { vreinterpretq_u64_p128(vmull_p64(vgetq_lane_u64::<0>(a), vgetq_lane_u64::<0>(b))) }
}

/// lane 1 of `a` × lane 1 of `b` (PMULL2).
#[inline]
#[target_feature(enable = "neon,aes")]
unsafe fn mul_11(_t: Pmull, a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
    // SAFETY: the token proves PMULL and NEON; register operations only.
    unsafe {
        vreinterpretq_u64_p128(vmull_high_p64(
            vreinterpretq_p64_u64(a),
            vreinterpretq_p64_u64(b),
        ))
    }
}

/// Reduces Σ lo + Σ mid·x^64 + Σ hi·x^128 (after Karatsuba's correction of `mid`) modulo
/// x^128 + x^7 + x^2 + x + 1.
#[inline]
#[target_feature(enable = "neon,aes")]
unsafe fn reduce(t: Pmull, acc: Acc) -> uint64x2_t {
    // SAFETY: the token proves PMULL and NEON; register operations only.
    unsafe {
        let zero = vdupq_n_u64(0);
        // x^128 ≡ x^7 + x^2 + x + 1 in both lanes (for PMULL and PMULL2 alike).
        let k = vdupq_n_u64(0x87);
        let mid = veorq_u64(acc.mid, veorq_u64(acc.lo, acc.hi));
        // The 256-bit product as [d0, d1] and [d2, d3].
        let mut lo = veorq_u64(acc.lo, vextq_u64::<1>(zero, mid));
        let mut hi = veorq_u64(acc.hi, vextq_u64::<1>(mid, zero));
        // d3·x^192 ≡ (d3·0x87)·x^64: d3 has at most 63 bits, so the product fits in 70.
        let t3 = mul_11(t, hi, k);
        lo = veorq_u64(lo, vextq_u64::<1>(zero, t3));
        hi = veorq_u64(hi, vextq_u64::<1>(t3, zero));
        // d2·x^128 ≡ d2·0x87.
        veorq_u64(lo, mul_00(t, hi, k))
    }
}

/// Adds a·b to `acc` (Karatsuba: three PMULLs), `fold_b` = b0 + b1 in lane 0.
#[inline]
#[target_feature(enable = "neon,aes")]
unsafe fn mul_acc(t: Pmull, acc: &mut Acc, a: uint64x2_t, b: uint64x2_t, fold_b: uint64x2_t) {
    // SAFETY: the token proves PMULL and NEON; register operations only.
    unsafe {
        // a0 + a1 in lane 0.
        let fa = veorq_u64(a, vextq_u64::<1>(a, a));
        acc.lo = veorq_u64(acc.lo, mul_00(t, a, b));
        acc.hi = veorq_u64(acc.hi, mul_11(t, a, b));
        acc.mid = veorq_u64(acc.mid, mul_00(t, fa, fold_b));
    }
}

/// a·b mod p, for the precomputation.
#[inline]
#[target_feature(enable = "neon,aes")]
unsafe fn mul(t: Pmull, a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
    // SAFETY: the token proves PMULL and NEON; register operations only.
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
#[target_feature(enable = "neon,aes")]
unsafe fn expand(t: Pmull, h: &[u8; 16], out: &mut [[u64; 2]; STRIDE]) {
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

/// Adds a·H^(8−k) + b·H^(7−k) to `acc` (`key.h[k]`, `key.h[k + 1]`): Karatsuba with the two
/// middle products in one PMULL/PMULL2 pair.
///
/// # Safety
/// `k + 1 < STRIDE`.
#[inline]
#[target_feature(enable = "neon,aes")]
unsafe fn pair(t: Pmull, key: &PmullKey, acc: &mut Acc, a: uint64x2_t, b: uint64x2_t, k: usize) {
    // SAFETY: the token proves PMULL and NEON; `key.h[k]`, `key.h[k + 1]` and `key.fold[k..k +
    // 2]` are in bounds by the caller's guarantee.
    unsafe {
        let ha = vld1q_u64(key.h.as_ptr().add(k).cast());
        let hb = vld1q_u64(key.h.as_ptr().add(k + 1).cast());
        acc.lo = veorq_u64(acc.lo, veorq_u64(mul_00(t, a, ha), mul_00(t, b, hb)));
        acc.hi = veorq_u64(acc.hi, veorq_u64(mul_11(t, a, ha), mul_11(t, b, hb)));
        // [a0 + a1, b0 + b1] against [fold of ha, fold of hb].
        let fab = veorq_u64(vtrn1q_u64(a, b), vtrn2q_u64(a, b));
        let fh = vld1q_u64(key.fold.as_ptr().add(k));
        acc.mid = veorq_u64(acc.mid, veorq_u64(mul_00(t, fab, fh), mul_11(t, fab, fh)));
    }
}

/// Adds a·H^(8−k) to `acc`.
///
/// # Safety
/// `k < STRIDE`.
#[inline]
#[target_feature(enable = "neon,aes")]
unsafe fn single(t: Pmull, key: &PmullKey, acc: &mut Acc, a: uint64x2_t, k: usize) {
    // SAFETY: the token proves PMULL and NEON; `key.h[k]` and `key.fold[k..k + 2]` (the last
    // entry is padding) are in bounds by the caller's guarantee.
    unsafe {
        let ha = vld1q_u64(key.h.as_ptr().add(k).cast());
        let fh = vld1q_u64(key.fold.as_ptr().add(k));
        mul_acc(t, acc, a, ha, fh);
    }
}

/// One aggregated step over `N` blocks at `blocks`: returns (y + X_1)·H^N + X_2·H^(N−1) + … +
/// X_N·H, reduced.
///
/// # Safety
/// `blocks` is valid for reading `16·N` bytes; `1 <= N <= STRIDE`.
#[inline]
#[target_feature(enable = "neon,aes")]
unsafe fn step<const N: usize>(
    t: Pmull,
    key: &PmullKey,
    y: uint64x2_t,
    blocks: *const u8,
) -> uint64x2_t {
    let first = STRIDE - N;
    // SAFETY: the token proves PMULL and NEON; every block read is one of the N readable;
    // power indices are first + i < STRIDE for block i < N.
    unsafe {
        let mut acc = Acc::zero();
        // Y is added to the first block only.
        let a = veorq_u64(load(blocks), y);
        let mut i;
        if N >= 2 {
            let b = load(blocks.add(16));
            pair(t, key, &mut acc, a, b, first);
            i = 2;
        } else {
            single(t, key, &mut acc, a, first);
            i = 1;
        }
        while i + 2 <= N {
            let a = load(blocks.add(16 * i));
            let b = load(blocks.add(16 * (i + 1)));
            pair(t, key, &mut acc, a, b, first + i);
            i += 2;
        }
        if i < N {
            let a = load(blocks.add(16 * i));
            single(t, key, &mut acc, a, first + i);
        }
        reduce(t, acc)
    }
}

/// GHASH of the whole blocks of `data` into `y` (see [`Kernel::update`]).
///
/// # Safety
/// None beyond the token (kept `unsafe` as a `#[target_feature]` fn).
#[target_feature(enable = "neon,aes")]
unsafe fn update(t: Pmull, key: &PmullKey, y: &mut [u8; 16], data: &[u8]) {
    // SAFETY: `y` is 16 bytes; every pointer passed to `step::<N>` has 16·N readable bytes
    // (a chunk of that length).
    unsafe {
        let mut acc = load(y.as_ptr());
        let mut chunks = data.chunks_exact(16 * STRIDE);
        for c in &mut chunks {
            acc = step::<STRIDE>(t, key, acc, c.as_ptr());
        }
        let tail = chunks.remainder();
        let p = tail.as_ptr();
        // The tail length is public.
        acc = match tail.len() / 16 {
            1 => step::<1>(t, key, acc, p),
            2 => step::<2>(t, key, acc, p),
            3 => step::<3>(t, key, acc, p),
            4 => step::<4>(t, key, acc, p),
            5 => step::<5>(t, key, acc, p),
            6 => step::<6>(t, key, acc, p),
            7 => step::<7>(t, key, acc, p),
            _ => acc,
        };
        store(y.as_mut_ptr(), acc);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::arm_kat;
    use super::*;
    use crate::cpu::Features;
    use std::boxed::Box;

    const NAME: &str = "pmull";

    fn token() -> Option<Pmull> {
        let t = Features::hardware().get::<Pmull>();
        if t.is_none() {
            std::eprintln!("ghash pmull: CPU has no PMULL; kernel not tested");
        }
        t
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
