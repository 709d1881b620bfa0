//! What the aarch64 GHASH kernels (`aarch64_pmull`, `aarch64_neon`) and the stitched AES-GCM
//! kernel (`aead::aes_gcm::aarch64_ce`) share: the bit order of their polynomials and the
//! unreduced Karatsuba accumulator. The multiplications and reductions differ per kernel.
//!
//! GCM numbers the bits of a block from the left: the most significant bit of byte 0 is the
//! coefficient of x^0 (SP 800-38D §6.3). `RBIT` on each byte followed by a little-endian view of
//! the 16 bytes as two 64-bit lanes puts the coefficient of x^i at bit i (lane 0 = x^0..x^63,
//! lane 1 = x^64..x^127), where carry-less products are ordinary polynomial products.
//!
//! These are `#[inline(always)]` and not `#[target_feature]` functions (which must take a
//! token, and the three callers hold different ones): NEON is in the baseline of every aarch64
//! target the crate builds its kernels for, as it was for `aarch64_ce`'s own copy before.

use core::arch::aarch64::{
    uint64x2_t, vdupq_n_u64, vld1q_u8, vrbitq_u8, vreinterpretq_u8_u64, vreinterpretq_u64_u8,
    vst1q_u8,
};

/// The Karatsuba parts of a sum of products, unreduced: Σ a0·b0, Σ (a0 + a1)(b0 + b1),
/// Σ a1·b1.
#[derive(Clone, Copy)]
pub(crate) struct Acc {
    pub(crate) lo: uint64x2_t,
    pub(crate) mid: uint64x2_t,
    pub(crate) hi: uint64x2_t,
}

impl Acc {
    /// The empty sum.
    ///
    /// # Safety
    /// The CPU has NEON.
    #[inline(always)]
    pub(crate) unsafe fn zero() -> Acc {
        // SAFETY: the caller guarantees NEON; a register operation.
        let zero = unsafe { vdupq_n_u64(0) };
        Acc {
            lo: zero,
            mid: zero,
            hi: zero,
        }
    }
}

/// A block (or Y) in SP 800-38D byte order → the polynomial, coefficient of x^i at bit i.
///
/// # Safety
/// The CPU has NEON; `p` is valid for reading 16 bytes (any alignment).
#[inline(always)]
pub(crate) unsafe fn load(p: *const u8) -> uint64x2_t {
    // SAFETY: the caller guarantees NEON and 16 readable bytes at `p`.
    unsafe { vreinterpretq_u64_u8(vrbitq_u8(vld1q_u8(p))) }
}

/// The inverse of [`load`].
///
/// # Safety
/// The CPU has NEON; `p` is valid for writing 16 bytes (any alignment).
#[inline(always)]
pub(crate) unsafe fn store(p: *mut u8, v: uint64x2_t) {
    // SAFETY: the caller guarantees NEON and 16 writable bytes at `p`.
    unsafe { vst1q_u8(p, vrbitq_u8(vreinterpretq_u8_u64(v))) }
}
