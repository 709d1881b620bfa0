//! Portable Poly1305 (RFC 8439 §2.5) on 64-bit words with 128-bit products: the accumulator
//! in base 2^64 (two full limbs and a small third), `r` in two limbs. Clamping leaves the top
//! four bits of each `r` limb clear and the low two bits of `r[1]` clear, so
//! `r[1]·2^128 ≡ (r[1]/4)·5·2^0 (mod 2^130 − 5)` folds the high product back with
//! `s1 = r[1] + r[1]/4` without any carries being lost. Multiplications and additions only:
//! constant time on CPUs whose 64×64 multiply is (all the 64-bit CPUs we target).
#![forbid(unsafe_code)]

use super::State;
use crate::wipe::wipe;

/// `r` and `s1 = 5·r[1]/4`.
#[derive(Clone)]
pub(crate) struct Soft64 {
    r: [u64; 2],
    s1: u64,
}

pub(crate) fn new(r: &[u64; 2]) -> Soft64 {
    Soft64 {
        r: *r,
        s1: r[1] + (r[1] >> 2),
    }
}

impl Drop for Soft64 {
    fn drop(&mut self) {
        wipe(&mut self.r);
        wipe(&mut self.s1);
    }
}

/// `h ← (h + m + hibit·2^128)·r mod p`, partially reduced (`h[2] ≤ 4` on return for any
/// `h[2] ≤ 7` on entry).
#[inline(always)]
pub(crate) fn block(h: &mut [u64; 3], r: &[u64; 2], s1: u64, m: [u64; 2], hibit: u64) {
    let (h0, c) = h[0].overflowing_add(m[0]);
    let (h1, c1) = h[1].overflowing_add(m[1]);
    let (h1, c2) = h1.overflowing_add(c as u64);
    let h2 = h[2] + hibit + (c1 as u64) + (c2 as u64);
    let (r0, r1) = (r[0], r[1]);
    let d0 = u128::from(h0) * u128::from(r0) + u128::from(h1) * u128::from(s1);
    let d1 = u128::from(h0) * u128::from(r1)
        + u128::from(h1) * u128::from(r0)
        // h2 ≤ 9 and s1 < 1.25·2^60: the product fits a 64-bit multiply.
        + u128::from(h2 * s1);
    let d2 = h2 * r0;
    let d1 = d1 + (d0 >> 64);
    let d2 = d2 + (d1 >> 64) as u64;
    // value = lo(d0) + lo(d1)·2^64 + d2·2^128; fold d2's bits above 2^130 (times 5) down.
    let c = (d2 >> 2) + (d2 & !3);
    let (n0, k0) = (d0 as u64).overflowing_add(c);
    let (n1, k1) = (d1 as u64).overflowing_add(k0 as u64);
    h[0] = n0;
    h[1] = n1;
    h[2] = (d2 & 3) + k1 as u64;
}

/// A 16-byte block as two little-endian limbs.
#[inline(always)]
pub(crate) fn limbs(b: &[u8]) -> [u64; 2] {
    let mut lo = [0u8; 8];
    let mut hi = [0u8; 8];
    lo.copy_from_slice(&b[..8]);
    hi.copy_from_slice(&b[8..16]);
    [u64::from_le_bytes(lo), u64::from_le_bytes(hi)]
}

/// The tag: `h` fully reduced mod p, plus `s`, mod 2^128 (RFC 8439 §2.5.1), branch-free.
pub(crate) fn finish(h: &[u64; 3], s: &[u8; 16]) -> [u8; 16] {
    // Fold bits 130 and up (h < 2^131), leaving h < 2^130 + 35 < 2p.
    let c = (h[2] >> 2) * 5;
    let (h0, k0) = h[0].overflowing_add(c);
    let (h1, k1) = h[1].overflowing_add(k0 as u64);
    let h2 = (h[2] & 3) + k1 as u64;
    // g = h + 5 − 2^130; use g when it did not go negative, i.e. when h ≥ p.
    let (g0, k0) = h0.overflowing_add(5);
    let (g1, k1) = h1.overflowing_add(k0 as u64);
    let g2 = h2 + k1 as u64;
    let use_g = 0u64.wrapping_sub(g2 >> 2);
    let f0 = (g0 & use_g) | (h0 & !use_g);
    let f1 = (g1 & use_g) | (h1 & !use_g);
    let s = limbs(s);
    let (t0, k) = f0.overflowing_add(s[0]);
    let t1 = f1.wrapping_add(s[1]).wrapping_add(k as u64);
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&t0.to_le_bytes());
    out[8..].copy_from_slice(&t1.to_le_bytes());
    out
}

// Used by `Portable`, which holds this kernel on 64-bit targets only.
#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
impl Soft64 {
    /// One 16-byte block given as its two little-endian limbs (with the 2^128 bit).
    #[inline]
    pub(crate) fn block_limbs(&self, st: &mut State, m: [u64; 2]) {
        block(&mut st.h, &self.r, self.s1, m, 1);
    }
}

/// The limbs of `rest` (at most 15 bytes) zero-padded to 16 bytes, as the AEAD of RFC 8439
/// §2.8 pads: assembled in registers. Copying the bytes into a zeroed 16-byte buffer and
/// loading it back as two words makes the loads wait for several narrower stores (no store
/// forwarding), about 7 ns more for a 13-byte TLS AAD here.
///
/// Each word is one 8-byte load, or two 4-byte loads that overlap in the middle (an
/// overlapping byte is the same byte in both, so OR-ing them is exact), or for 1–3 bytes the
/// bytes 0, n/2 and n − 1; the loads and shifts depend only on the length, which is public.
/// The byte-by-byte loop this replaces compiled to five instructions per byte (load, shift,
/// OR, compare, branch).
#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
#[inline]
pub(crate) fn pad_limbs(rest: &[u8]) -> [u64; 2] {
    let n = rest.len();
    debug_assert!(n < 16);
    if n >= 8 {
        [le64(&rest[..8]), le_short(&rest[8..])]
    } else {
        [le_short(rest), 0]
    }
}

/// Bytes `b` (at most 7) as a little-endian word, zero-extended (see [`pad_limbs`]).
#[inline(always)]
fn le_short(b: &[u8]) -> u64 {
    let n = b.len();
    debug_assert!(n < 8);
    if n >= 4 {
        let lo = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let hi = u32::from_le_bytes([b[n - 4], b[n - 3], b[n - 2], b[n - 1]]);
        u64::from(lo) | (u64::from(hi) << (8 * (n - 4)))
    } else if n > 0 {
        u64::from(b[0])
            | (u64::from(b[n / 2]) << (8 * (n / 2)))
            | (u64::from(b[n - 1]) << (8 * (n - 1)))
    } else {
        0
    }
}

/// The first 8 bytes of `b` as a little-endian word.
#[inline(always)]
fn le64(b: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[..8]);
    u64::from_le_bytes(w)
}

impl super::Kernel for Soft64 {
    fn blocks(&mut self, st: &mut State, data: &[u8]) {
        debug_assert!(data.len() % 16 == 0);
        for b in data.chunks_exact(16) {
            block(&mut st.h, &self.r, self.s1, limbs(b), 1);
        }
    }

    fn may_spill(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    /// `pad_limbs` against the zero-padded block read as two words, every length.
    #[test]
    fn pad_limbs_every_length() {
        let data: [u8; 15] = core::array::from_fn(|i| 0x81 ^ (i as u8).wrapping_mul(37));
        for n in 0..16 {
            let mut block = [0u8; 16];
            block[..n].copy_from_slice(&data[..n]);
            assert_eq!(
                super::pad_limbs(&data[..n]),
                super::limbs(&block),
                "length {n}"
            );
        }
    }
}
