//! Portable Poly1305 (RFC 8439 §2.5) on 32-bit words: the accumulator and `r` in five limbs
//! of radix 2^26, products 32×32 → 64 bits. The kernel for 32-bit targets (ARMv7 without
//! NEON), where a 64×64 multiply is four 32-bit ones; it also serves the armv7 NEON kernel
//! (`arm.rs`) for its odd block and short inputs, sharing the limb conversions.
//!
//! Limbs: `h = h0 + h1·2^26 + h2·2^52 + h3·2^78 + h4·2^104`. Since 2^130 ≡ 5 (mod p =
//! 2^130 − 5), a product term `h_i·r_j` with `i + j ≥ 5` lands at 2^(26(i+j−5))·2^130 and
//! is folded down as `h_i·(5·r_j)`; the key keeps `s_j = 5·r_j` for j = 1..4 (this is the
//! radix-2^26 arrangement of Bernstein's "The Poly1305-AES message-authentication code",
//! 2005, §4, and of Goll & Gueron, "Vectorization of Poly1305", 2015, §2).
//!
//! Bounds (why nothing overflows): after [`mul`] every limb is below 2^26 except `h1`,
//! below 2^26 + 2^12. Adding a message block (limbs below 2^26; `h4` gets at most
//! 2^24 + 2^24) keeps each limb below 2^27. Clamping (RFC 8439 §2.5) makes `r < 2^124`, so
//! `r_j < 2^26` and `s_j < 5·2^26 < 2^29`: each product is below 2^56, each column sum of
//! five below 2^59, which fits a `u64`. Multiplications, additions and shifts by constants
//! only: constant time where the 32×32 → 64 multiply is (ARMv7 UMULL is).
#![forbid(unsafe_code)]

use super::State;
use crate::wipe::wipe;

const M26: u32 = (1 << 26) - 1;

/// `r` in radix 2^26 and `s_j = 5·r_j` (j = 1..4, stored at index j − 1).
#[derive(Clone)]
pub(crate) struct Soft32 {
    pub(super) r: [u32; 5],
    pub(super) s: [u32; 4],
}

/// Expands the clamped `r` (`r = r[0] + r[1]·2^64`).
pub(crate) fn new(r: &[u64; 2]) -> Soft32 {
    key_of(split(r[0], r[1], 0))
}

/// The key of `r` given as limbs (each below 2^26, so that `5·r_j` fits 32 bits).
pub(super) fn key_of(r: [u32; 5]) -> Soft32 {
    Soft32 {
        r,
        s: [5 * r[1], 5 * r[2], 5 * r[3], 5 * r[4]],
    }
}

impl Drop for Soft32 {
    fn drop(&mut self) {
        wipe(&mut self.r);
        wipe(&mut self.s);
    }
}

/// `lo + hi·2^64 + top·2^128` in radix 2^26; the top limb keeps bits 104 and up (below 2^27
/// for `top ≤ 7`).
fn split(lo: u64, hi: u64, top: u64) -> [u32; 5] {
    [
        lo as u32 & M26,
        (lo >> 26) as u32 & M26,
        ((lo >> 52) | (hi << 12)) as u32 & M26,
        (hi >> 14) as u32 & M26,
        ((hi >> 40) | (top << 24)) as u32,
    ]
}

/// The canonical state as limbs, with bits 130 and up folded back (×5) into `h0`: on return
/// `h0 < 2^26 + 5` and the other limbs are below 2^26.
pub(super) fn load(st: &State) -> [u32; 5] {
    let mut h = split(st.h[0], st.h[1], st.h[2]);
    let c = h[4] >> 26;
    h[4] &= M26;
    h[0] += 5 * c;
    h
}

/// Limbs (each below 2^31) back to the canonical form: bits 130 and up of `h4` are folded
/// into `h0` first, then one carry pass runs upwards, leaving `h0..h3 < 2^26` and `h4 < 2^27`,
/// so the value is below 2^131 (`h[2] ≤ 7`).
pub(super) fn store(h: &[u32; 5], st: &mut State) {
    let mut l = *h;
    let c = l[4] >> 26;
    l[4] &= M26;
    l[0] += 5 * c;
    for i in 0..4 {
        let c = l[i] >> 26;
        l[i] &= M26;
        l[i + 1] += c;
    }
    let [h0, h1, h2, h3, h4] = l.map(u64::from);
    st.h = [
        h0 | (h1 << 26) | (h2 << 52),
        (h2 >> 12) | (h3 << 14) | (h4 << 40),
        h4 >> 24,
    ];
    wipe(&mut l);
}

/// `h·r mod p` (partially reduced; see the module bounds) for limbs `h` below 2^27.
#[inline(always)]
pub(super) fn mul(h: &[u32; 5], k: &Soft32) -> [u32; 5] {
    let m = |a: u32, b: u32| u64::from(a) * u64::from(b);
    let [h0, h1, h2, h3, h4] = *h;
    let [r0, r1, r2, r3, r4] = k.r;
    let [s1, s2, s3, s4] = k.s;
    let d0 = m(h0, r0) + m(h1, s4) + m(h2, s3) + m(h3, s2) + m(h4, s1);
    let d1 = m(h0, r1) + m(h1, r0) + m(h2, s4) + m(h3, s3) + m(h4, s2);
    let d2 = m(h0, r2) + m(h1, r1) + m(h2, r0) + m(h3, s4) + m(h4, s3);
    let d3 = m(h0, r3) + m(h1, r2) + m(h2, r1) + m(h3, r0) + m(h4, s4);
    let d4 = m(h0, r4) + m(h1, r3) + m(h2, r2) + m(h3, r1) + m(h4, r0);
    // Carry d0 → d1 → … → d4, then d4's bits from 2^130 up (times 5) into d0, and once more
    // d0 → d1: d4 < 2^59 gives a fold below 2^36, so the last carry into h1 is below 2^11.
    let d1 = d1 + (d0 >> 26);
    let d2 = d2 + (d1 >> 26);
    let d3 = d3 + (d2 >> 26);
    let d4 = d4 + (d3 >> 26);
    let d0 = (d0 & u64::from(M26)) + 5 * (d4 >> 26);
    [
        d0 as u32 & M26,
        (d1 as u32 & M26) + (d0 >> 26) as u32,
        d2 as u32 & M26,
        d3 as u32 & M26,
        d4 as u32 & M26,
    ]
}

/// `h ← (h + m + 2^128)·r` for each 16-byte block `m` of `data`, on limbs (as [`load`]
/// returns them and [`mul`] leaves them).
#[inline]
pub(super) fn blocks_limbs(k: &Soft32, h: &mut [u32; 5], data: &[u8]) {
    debug_assert!(data.len() % 16 == 0);
    for b in data.chunks_exact(16) {
        let w = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let (w0, w1, w2, w3) = (w(0), w(4), w(8), w(12));
        h[0] += w0 & M26;
        h[1] += ((w0 >> 26) | (w1 << 6)) & M26;
        h[2] += ((w1 >> 20) | (w2 << 12)) & M26;
        h[3] += ((w2 >> 14) | (w3 << 18)) & M26;
        h[4] += (w3 >> 8) | (1 << 24);
        *h = mul(h, k);
    }
}

impl super::Kernel for Soft32 {
    fn blocks(&mut self, st: &mut State, data: &[u8]) {
        if data.is_empty() {
            return;
        }
        let mut h = load(st);
        blocks_limbs(self, &mut h, data);
        store(&h, st);
        wipe(&mut h);
    }

    fn may_spill(&self) -> bool {
        false
    }
}

/// A canonical `h` reduced to [0, p), as three 64-bit words: for tests comparing states
/// (branches on the value; not for secrets).
#[cfg(test)]
pub(super) fn reduced(st: &State) -> [u64; 3] {
    // Fold bits 130 and up (then h < 2^130 + 35), then subtract p once if h ≥ p.
    let c = (st.h[2] >> 2) * 5;
    let (h0, k0) = st.h[0].overflowing_add(c);
    let (h1, k1) = st.h[1].overflowing_add(k0 as u64);
    let h2 = (st.h[2] & 3) + k1 as u64;
    let (g0, k0) = h0.overflowing_add(5);
    let (g1, k1) = h1.overflowing_add(k0 as u64);
    let g2 = h2 + k1 as u64;
    if g2 >> 2 != 0 {
        [g0, g1, g2 & 3]
    } else {
        [h0, h1, h2]
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::{Kernel, soft64};
    use super::*;
    use crate::sha::test_util::bytes;

    fn words(seed: u64) -> [u64; 4] {
        let b = bytes(seed, 32);
        core::array::from_fn(|i| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap()))
    }

    /// h values to start from: 0, random ones with `h[2]` = 0..=7, and the largest allowed.
    fn starts(seed: u64) -> std::vec::Vec<State> {
        let mut v = std::vec![State::default(), State { h: [!0, !0, 7] }];
        for top in 0..=7 {
            let w = words(seed + top);
            v.push(State {
                h: [w[0], w[1], top],
            });
        }
        v
    }

    /// Clamped r values: random, all clamped bits set (the largest limbs and carries), the
    /// smallest non-zero.
    fn rs(seed: u64) -> [[u64; 2]; 4] {
        let w = words(seed);
        let c = |r: [u64; 2]| [r[0] & 0x0fff_fffc_0fff_ffff, r[1] & 0x0fff_fffc_0fff_fffc];
        [c([w[0], w[1]]), c([!0, !0]), [1, 0], c([w[2], w[3]])]
    }

    /// `a ≡ b (mod 2^130 − 5)` for values in the canonical form (which it also checks).
    fn assert_same(a: &State, b: &State, what: &str) {
        assert!(a.h[2] <= 7 && b.h[2] <= 7, "{what}: not canonical");
        assert_eq!(reduced(a), reduced(b), "{what}");
    }

    /// Every length 0..=12 blocks from many starting values against the 64-bit kernel.
    #[test]
    fn matches_soft64() {
        for seed in 0..6u64 {
            for r in rs(100 + seed) {
                let mut k32 = new(&r);
                let mut k64 = soft64::new(&r);
                for st in starts(200 + seed) {
                    for n in 0..=12usize {
                        let data = match seed {
                            0 => std::vec![0xff; 16 * n],
                            1 => std::vec![0; 16 * n],
                            _ => bytes(300 + seed * 13 + n as u64, 16 * n),
                        };
                        let mut a = st;
                        let mut b = st;
                        k32.blocks(&mut a, &data);
                        k64.blocks(&mut b, &data);
                        assert_same(&a, &b, &std::format!("seed {seed} r {r:x?} {n} blocks"));
                    }
                }
            }
        }
    }

    /// The conversions round-trip congruently, and `store` takes limbs up to 2^31 − 1 (the
    /// NEON kernel hands back unreduced lane sums).
    #[test]
    fn load_store() {
        for st in starts(7) {
            let l = load(&st);
            assert!(l[0] < (1 << 26) + 5 && l[1..].iter().all(|&x| x < 1 << 26));
            let mut back = State::default();
            store(&l, &mut back);
            assert_same(&back, &st, "round trip");
        }
        for v in [(1u32 << 31) - 1, 1 << 26, M26] {
            let mut st = State::default();
            store(&[v; 5], &mut st);
            // Σ v·2^(26i) as lo (bits 0..127) + hi·2^128, then hi·2^128 = (hi >> 2)·2^130 +
            // (hi & 3)·2^128 ≡ 5·(hi >> 2) + (hi & 3)·2^128.
            let (mut lo, mut hi) = (0u128, 0u128);
            for i in 0..5 {
                let l = u128::from(v);
                let (v_lo, v_hi) = if i == 4 {
                    (l << 104, l >> 24)
                } else {
                    (l << (26 * i), 0)
                };
                let (s, c) = lo.overflowing_add(v_lo);
                lo = s;
                hi += v_hi + c as u128;
            }
            let (s, c) = lo.overflowing_add(5 * (hi >> 2));
            let want = State {
                h: [s as u64, (s >> 64) as u64, (hi as u64 & 3) + c as u64],
            };
            assert_same(&st, &want, &std::format!("store of limbs {v:#x}"));
        }
    }

    /// Constant time (ctgrind, `/work/shared/tools/CT.md`): with `r`, the starting `h` and the
    /// message marked undefined, memcheck reports any branch or address that depends on them.
    /// Only in a `--cfg simdcrypt_ctgrind` build; under valgrind (`CT_VALGRIND` set) it
    /// insists that valgrind runs, natively it is an ordinary functional test.
    #[cfg(simdcrypt_ctgrind)]
    #[test]
    fn constant_time_under_valgrind() {
        use crate::ct::valgrind as vg;
        if std::env::var_os("CT_VALGRIND").is_some() {
            assert!(
                vg::running_on_valgrind() > 0,
                "CT_VALGRIND set but not under valgrind"
            );
        }
        for (seed, n) in [(1u64, 0usize), (2, 1), (3, 5), (4, 17)] {
            let w = words(seed);
            let r = [w[0] & 0x0fff_fffc_0fff_ffff, w[1] & 0x0fff_fffc_0fff_fffc];
            let st0 = State {
                h: [w[2], w[3], seed & 7],
            };
            let data = bytes(seed + 40, 16 * n);
            let mut want = st0;
            soft64::new(&r).blocks(&mut want, &data);

            let mut rb = [0u8; 16];
            rb[..8].copy_from_slice(&r[0].to_le_bytes());
            rb[8..].copy_from_slice(&r[1].to_le_bytes());
            let mut hb = [0u8; 24];
            for (d, v) in hb.chunks_exact_mut(8).zip(st0.h) {
                d.copy_from_slice(&v.to_le_bytes());
            }
            let mut secret = data.clone();
            vg::make_mem_undefined(&mut rb);
            vg::make_mem_undefined(&mut hb);
            vg::make_mem_undefined(&mut secret);
            let le = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap());
            let mut k = new(&[le(&rb[..8]), le(&rb[8..])]);
            let mut st = State {
                h: [le(&hb[..8]), le(&hb[8..16]), le(&hb[16..])],
            };
            k.blocks(&mut st, &secret);
            let mut out = [0u8; 24];
            for (d, v) in out.chunks_exact_mut(8).zip(st.h) {
                d.copy_from_slice(&v.to_le_bytes());
            }
            // The result depends on the secrets, so memcheck sees it as undefined: proof that
            // the marking reached the kernel (GET_VBITS returns 0 natively).
            let mut vbits = [0u8; 24];
            if vg::get_vbits(&out, &mut vbits) == 1 {
                // h[0], h[1] entirely; of h[2] (at most 7) the three low bits.
                let tainted = vbits[..16].iter().all(|&v| v == 0xff) && vbits[16] & 7 == 7;
                assert!(tainted, "result not tainted: {vbits:x?}");
            }
            vg::make_mem_defined(&mut out);
            let got = State {
                h: [le(&out[..8]), le(&out[8..16]), le(&out[16..])],
            };
            assert_same(&got, &want, &std::format!("{n} blocks"));
        }
    }
}
