//! Poly1305 (RFC 8439 §2.5) with aarch64 Advanced SIMD (NEON), through `core::arch::aarch64`:
//! radix 2^26, two accumulators, four blocks per step.
//!
//! # Representation
//! A number below 2^131 is five limbs of 26 bits (the last a little wider),
//! `x = x0 + x1·2^26 + x2·2^52 + x3·2^78 + x4·2^104`, the radix Goll and Gueron use for
//! vectors ("Vectorization of Poly1305 message authentication code", 2015): a limb times a
//! limb of r (or of 5·r) fits a 32×32 → 64-bit lane multiply with room for sums. Since
//! 2^130 ≡ 5 (mod p = 2^130 − 5), limb i times limb j with i + j ≥ 5 lands on limb i + j − 5
//! multiplied by 5, so a product is 25 32×32 → 64-bit multiplies (UMULL/UMLAL, `vmull_u32`,
//! `vmlal_u32`) against the limbs of `r` and of `5·r`.
//!
//! # Four blocks per step, two lanes
//! The accumulator lives in two 64-bit lanes, A (lane 0) and B (lane 1), with the invariant
//! `h ≡ A + B·r^-1` (B lags one power behind). A step absorbs blocks m1..m4:
//! `A ← (A + m1)·r^4 + m3·r^2`, `B ← (B + m2)·r^4 + m4·r^2`, so that
//! `A + B·r^-1 = (h + m1)·r^4 + m2·r^3 + m3·r^2 + m4·r`, four Horner steps (RFC 8439 §2.5.1).
//! The four 32-bit lanes of one vector hold [A + m1, B + m2, m3, m4] per limb; the low half
//! is multiplied by [r^4, r^4] (UMULL) and the high half by [r^2, r^2] (UMULL2,
//! `vmull_high_u32`), both summed into the same 64-bit lanes: 50 multiply instructions per
//! four blocks, and one carry chain. The last step closes the lag instead: it multiplies by
//! [r^4, r^3] and [r^2, r^1], after which `h = A + B`. A final partial step of t = 1..3
//! blocks uses [r, 1] (t = 1: `A·r + m·r + B`), [r^2, r] (t = 2) or [r^3, r^2] and [r, ·]
//! (t = 3) with missing blocks set to zero (no 2^128 bit). The powers r^0..r^4 are computed
//! once per key and stored limb by limb (`NeonKey::pw`: limb j of r^0..r^4 side by side); a
//! step's per-lane powers are gathered from there with one TBL per limb and the 5× limbs made
//! with a shift and an add, once per call for the loop (hoisted) and once for the last step.
//! Poly1305 keys are one-time, so the expansion runs once per message: it is three scalar
//! 5×5-limb products and 160 bytes of table.
//!
//! Fewer than four blocks go to the portable `soft64` kernel: the conversion to and from
//! limbs would cost more than it saves. (Whether four is the right threshold on a real core
//! was not measured: no aarch64 hardware was available, only qemu.)
//!
//! # Bounds
//! Entering a step, accumulator limbs are below 2^27 (carried; the first step takes the
//! canonical `h < 2^131`, whose top limb is below 2^27) and message limbs below 2^26 (2^25
//! for the top one, the 2^128 bit included), so `A + m1 < 2^27.33`; limbs of the powers are
//! at most 2^26 + 4, so 5× a limb is below 2^28.33. A product limb is then below
//! 5·2^27.33·2^28.33 + 5·2^26·2^28.33 < 2^58.5: no 64-bit lane overflows. The carry
//! (two interleaved chains, 0→1→2→3 and 3→4→0→1, the carry out of limb 4 times 5 back into
//! limb 0) leaves limbs 0, 2, 3 below 2^26 and limbs 1, 4 below 2^26 + 2^9.
//!
//! Constant time: multiplies, adds, shifts, ANDs and ORs on data; the block count (public)
//! is the only thing that steers a branch or an address.

use core::arch::aarch64::{
    uint8x16x2_t, uint32x4_t, uint64x2_t, vaddq_u32, vaddq_u64, vaddvq_u64, vandq_u32, vandq_u64,
    vcombine_u32, vdup_n_u32, vdupq_n_u32, vdupq_n_u64, vget_low_u32, vld1q_u8, vld1q_u32,
    vmlal_high_u32, vmlal_u32, vmovn_u64, vmull_high_u32, vmull_u32, vorrq_u32, vqtbl2q_u8,
    vreinterpretq_u32_u8, vreinterpretq_u32_u64, vreinterpretq_u64_u32, vsetq_lane_u64,
    vshlq_n_u32, vshlq_n_u64, vshrq_n_u32, vshrq_n_u64, vsriq_n_u32, vtrn1q_u32, vtrn1q_u64,
    vtrn2q_u32, vtrn2q_u64,
};

use super::{Kernel, State, soft64};
use crate::cpu::arch::Neon;
use crate::wipe::wipe;

/// 26 one bits.
const M26: u64 = (1 << 26) - 1;

/// `pw[j]` = limb j of r^0, r^1, r^2, r^3, r^4 (then three zero words): 32 bytes, the two
/// registers of a two-register TBL.
type Powers = [[u32; 8]; 5];

/// The TBL indices that put limb j of r^e[l] into 32-bit lane l.
const fn gather(e: [u8; 4]) -> [u8; 16] {
    let mut idx = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        idx[i] = 4 * e[i / 4] + (i % 4) as u8;
        i += 1;
    }
    idx
}

/// Which power of r each 32-bit lane of a step is multiplied by (0 means 1).
const EXP_MAIN: [u8; 4] = [4, 4, 2, 2]; // [A + m1, B + m2] by r^4, [m3, m4] by r^2
const EXP_LAST4: [u8; 4] = [4, 3, 2, 1]; // the last whole step, closing B's lag
const EXP_LAST3: [u8; 4] = [3, 2, 1, 1]; // [A + m1, B + m2] by [r^3, r^2], [m3, 0] by r
const EXP_LAST2: [u8; 4] = [2, 1, 2, 1]; // [A + m1, B + m2] by [r^2, r] (high half unused)
const EXP_LAST1: [u8; 4] = [1, 0, 1, 0]; // [A + m1, B] by [r, 1] (high half unused)
const MAIN: [u8; 16] = gather(EXP_MAIN);
const LAST4: [u8; 16] = gather(EXP_LAST4);
const LAST3: [u8; 16] = gather(EXP_LAST3);
const LAST2: [u8; 16] = gather(EXP_LAST2);
const LAST1: [u8; 16] = gather(EXP_LAST1);

/// r expanded for this kernel: the limbs of its powers, and the portable kernel for short
/// inputs.
#[derive(Clone)]
pub(crate) struct NeonKey {
    t: Neon,
    pw: Powers,
    short: soft64::Soft64,
}

/// Expands the clamped `r` (r = r[0] + r[1]·2^64).
pub(crate) fn new(t: Neon, r: &[u64; 2]) -> NeonKey {
    // pw[e] = r^e mod p as limbs (pw[0] = 1).
    let mut pw = [[0u64; 5]; 5];
    pw[0][0] = 1;
    pw[1] = to_limbs(&[r[0], r[1], 0]);
    pw[2] = mul(&pw[1], &pw[1]);
    pw[3] = mul(&pw[2], &pw[1]);
    pw[4] = mul(&pw[2], &pw[2]);
    let mut k = NeonKey {
        t,
        pw: [[0; 8]; 5],
        short: soft64::new(r),
    };
    for (j, limb) in k.pw.iter_mut().enumerate() {
        for (e, w) in limb.iter_mut().take(5).enumerate() {
            // Limbs are at most 2^26 + 4 (see `mul`): 5× still fits in 32 bits.
            *w = pw[e][j] as u32;
        }
    }
    wipe(&mut pw);
    k
}

impl Drop for NeonKey {
    fn drop(&mut self) {
        wipe(&mut self.pw);
    }
}

impl Kernel for NeonKey {
    fn blocks(&mut self, st: &mut State, data: &[u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        if data.len() < 64 {
            self.short.blocks(st, data);
            return;
        }
        // SAFETY: the token proves NEON; the kernel reads whole 16-byte blocks of `data`
        // only (a partial trailing block would be ignored, never over-read).
        unsafe { blocks_neon(self.t, &self.pw, &mut st.h, data) }
    }
}

/// The canonical `h` (`h[2] ≤ 7`) as five limbs: four of 26 bits, the top one below 2^27.
fn to_limbs(h: &[u64; 3]) -> [u64; 5] {
    [
        h[0] & M26,
        (h[0] >> 26) & M26,
        ((h[0] >> 52) | (h[1] << 12)) & M26,
        (h[1] >> 14) & M26,
        (h[1] >> 40) | (h[2] << 24),
    ]
}

/// One pass of carries 0→1→2→3→4, the carry out of limb 4 times 5 into limb 0, then 0→1.
/// For limbs below 2^59 it leaves limbs 0, 2, 3, 4 below 2^26 and limb 1 below 2^26 + 2^10.
fn carry(d: &mut [u64; 5]) {
    for i in 0..4 {
        d[i + 1] += d[i] >> 26;
        d[i] &= M26;
    }
    let c = d[4] >> 26;
    d[4] &= M26;
    d[0] += c * 5;
    d[1] += d[0] >> 26;
    d[0] &= M26;
}

/// a·b mod p on limbs (for the key expansion; limbs of `a` and `b` at most 2^26 + 4, so the
/// sums are below 2^57), carried three times: every limb of the result is at most 2^26 + 4
/// (after the first pass the value is below 2^130 + 2^36; the later passes move carries of at
/// most 1 out of a limb, and at most 5 into limb 0).
fn mul(a: &[u64; 5], b: &[u64; 5]) -> [u64; 5] {
    let mut d = [0u64; 5];
    for (k, dk) in d.iter_mut().enumerate() {
        for (i, &ai) in a.iter().enumerate() {
            let j = (k + 5 - i) % 5;
            let f = if i > k { 5 } else { 1 };
            *dk += ai * b[j] * f;
        }
    }
    carry(&mut d);
    carry(&mut d);
    carry(&mut d);
    d
}

/// The 2^128 bit (2^24 in limb 4) of each lane when `count` blocks are present.
const HIBITS: [[u32; 4]; 5] = [
    [0, 0, 0, 0],
    [1 << 24, 0, 0, 0],
    [1 << 24, 1 << 24, 0, 0],
    [1 << 24, 1 << 24, 1 << 24, 0],
    [1 << 24; 4],
];

/// The first `count` (1..=4) blocks at `p` as limbs, one block per 32-bit lane, with the
/// 2^128 bit; lanes past `count` are zero (no block, no 2^128 bit).
///
/// # Safety
/// `p` is valid for reading `16·count` bytes (any alignment).
#[inline]
#[target_feature(enable = "neon")]
unsafe fn load4(_t: Neon, p: *const u8, count: usize) -> [uint32x4_t; 5] {
    // SAFETY: the caller guarantees `16·count` readable bytes at `p`, and only the first
    // `count` blocks are read; `vld1q_u8` has no alignment requirement. `count` is public.
    unsafe {
        let b: [uint32x4_t; 4] = core::array::from_fn(|i| {
            if i < count {
                vreinterpretq_u32_u8(vld1q_u8(p.add(16 * i)))
            } else {
                vdupq_n_u32(0)
            }
        });
        let hibit = vld1q_u32(HIBITS[count].as_ptr());
        // Transpose (TRN1/TRN2 on 32-bit, then on 64-bit elements): w[k] = word k (bytes
        // 4k..4k+3, little-endian) of blocks 0..3, one block per lane.
        let t0 = vreinterpretq_u64_u32(vtrn1q_u32(b[0], b[1]));
        let t1 = vreinterpretq_u64_u32(vtrn2q_u32(b[0], b[1]));
        let t2 = vreinterpretq_u64_u32(vtrn1q_u32(b[2], b[3]));
        let t3 = vreinterpretq_u64_u32(vtrn2q_u32(b[2], b[3]));
        let w0 = vreinterpretq_u32_u64(vtrn1q_u64(t0, t2));
        let w1 = vreinterpretq_u32_u64(vtrn1q_u64(t1, t3));
        let w2 = vreinterpretq_u32_u64(vtrn2q_u64(t0, t2));
        let w3 = vreinterpretq_u32_u64(vtrn2q_u64(t1, t3));
        let m = vdupq_n_u32(M26 as u32);
        // Limb i is bits 26i..26i+25: SHL then SRI (shift right and insert) joins the two
        // words it straddles.
        [
            vandq_u32(w0, m),
            vandq_u32(vsriq_n_u32::<26>(vshlq_n_u32::<6>(w1), w0), m),
            vandq_u32(vsriq_n_u32::<20>(vshlq_n_u32::<12>(w2), w1), m),
            vandq_u32(vsriq_n_u32::<14>(vshlq_n_u32::<18>(w3), w2), m),
            vorrq_u32(vshrq_n_u32::<8>(w3), hibit),
        ]
    }
}

/// The per-lane powers of one step from the limb table: entry j (0..5) is limb j of each
/// lane's power (TBL with `idx`, one of `MAIN`, `LAST4`, …), entry 5 + j five times it.
///
/// # Safety
/// None beyond the token (kept `unsafe` as a `#[target_feature]` fn).
#[inline]
#[target_feature(enable = "neon")]
unsafe fn lanes(_t: Neon, pw: &Powers, idx: &[u8; 16]) -> [uint32x4_t; 10] {
    // SAFETY: the token proves NEON; every `pw` row is 32 readable bytes, `idx` 16.
    unsafe {
        let ix = vld1q_u8(idx.as_ptr());
        let mut p = [vdupq_n_u32(0); 10];
        for (j, row) in pw.iter().enumerate() {
            let q = row.as_ptr().cast::<u8>();
            let t = uint8x16x2_t(vld1q_u8(q), vld1q_u8(q.add(16)));
            let v = vreinterpretq_u32_u8(vqtbl2q_u8(t, ix));
            p[j] = v;
            p[5 + j] = vaddq_u32(v, vshlq_n_u32::<2>(v));
        }
        p
    }
}

/// One step: `acc ← [A + m[·][0], B + m[·][1]]·(low lanes of p) + [m[·][2], m[·][3]]·(high
/// lanes of p)`, carried; `p` from [`lanes`]. With `HIGH = false` the high lanes are ignored.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn step<const HIGH: bool>(
    _t: Neon,
    acc: &mut [uint64x2_t; 5],
    m: &[uint32x4_t; 5],
    p: &[uint32x4_t; 10],
) {
    // SAFETY: the token proves NEON; register operations only.
    unsafe {
        let zero = vdup_n_u32(0);
        let mut a = [vdupq_n_u32(0); 5];
        for ((ai, mi), acci) in a.iter_mut().zip(m.iter()).zip(acc.iter()) {
            // The accumulator limbs are below 2^27: narrowing keeps them.
            *ai = vaddq_u32(*mi, vcombine_u32(vmovn_u64(*acci), zero));
        }
        // d[k] = Σ a[i]·r[k − i] for i ≤ k, + Σ a[i]·5·r[k − i + 5] for i > k.
        let mut d = [vdupq_n_u64(0); 5];
        let mut e = [vdupq_n_u64(0); 5];
        for k in 0..5 {
            let r0 = p[k];
            d[k] = vmull_u32(vget_low_u32(a[0]), vget_low_u32(r0));
            if HIGH {
                e[k] = vmull_high_u32(a[0], r0);
            }
            for i in 1..5 {
                let r = if i > k { p[5 + (k + 5 - i)] } else { p[k - i] };
                d[k] = vmlal_u32(d[k], vget_low_u32(a[i]), vget_low_u32(r));
                if HIGH {
                    e[k] = vmlal_high_u32(e[k], a[i], r);
                }
            }
            if HIGH {
                d[k] = vaddq_u64(d[k], e[k]);
            }
        }
        let mask = vdupq_n_u64(M26);
        let [mut d0, mut d1, mut d2, mut d3, mut d4] = d;
        // Two interleaved carry chains (see the module docs for the bounds).
        let c = vshrq_n_u64::<26>(d0);
        d0 = vandq_u64(d0, mask);
        d1 = vaddq_u64(d1, c);
        let c = vshrq_n_u64::<26>(d3);
        d3 = vandq_u64(d3, mask);
        d4 = vaddq_u64(d4, c);
        let c = vshrq_n_u64::<26>(d1);
        d1 = vandq_u64(d1, mask);
        d2 = vaddq_u64(d2, c);
        let c = vshrq_n_u64::<26>(d4);
        d4 = vandq_u64(d4, mask);
        d0 = vaddq_u64(d0, vaddq_u64(c, vshlq_n_u64::<2>(c)));
        let c = vshrq_n_u64::<26>(d2);
        d2 = vandq_u64(d2, mask);
        d3 = vaddq_u64(d3, c);
        let c = vshrq_n_u64::<26>(d0);
        d0 = vandq_u64(d0, mask);
        d1 = vaddq_u64(d1, c);
        let c = vshrq_n_u64::<26>(d3);
        d3 = vandq_u64(d3, mask);
        d4 = vaddq_u64(d4, c);
        *acc = [d0, d1, d2, d3, d4];
    }
}

/// `data.len() / 16 ≥ 4` whole blocks.
///
/// # Safety
/// None beyond the token (kept `unsafe` as a `#[target_feature]` fn).
#[target_feature(enable = "neon")]
unsafe fn blocks_neon(t: Neon, pw: &Powers, h: &mut [u64; 3], data: &[u8]) {
    let n = data.len() / 16;
    debug_assert!(n >= 4);
    let tail = n % 4;
    let main = if tail == 0 { n / 4 - 1 } else { n / 4 };
    // SAFETY: the token proves NEON. Every `load4` reads whole blocks of `data` only: four
    // from a 64-byte chunk, or the `tail` blocks of the remainder.
    unsafe {
        let mut l = to_limbs(h);
        let zero = vdupq_n_u64(0);
        // A = h (lane 0), B = 0 (lane 1).
        let mut acc = [zero; 5];
        for (a, &li) in acc.iter_mut().zip(l.iter()) {
            *a = vsetq_lane_u64::<0>(li, zero);
        }
        wipe(&mut l);
        let mut chunks = data.chunks_exact(64);
        if main > 0 {
            let p = lanes(t, pw, &MAIN);
            for c in chunks.by_ref().take(main) {
                let m = load4(t, c.as_ptr(), 4);
                step::<true>(t, &mut acc, &m, &p);
            }
        }
        if tail == 0 {
            let c = chunks.next().unwrap_or(&[0; 64]);
            let m = load4(t, c.as_ptr(), 4);
            step::<true>(t, &mut acc, &m, &lanes(t, pw, &LAST4));
        } else {
            // 1–3 blocks, the missing ones zero (and without the 2^128 bit).
            let rest = chunks.remainder();
            debug_assert_eq!(rest.len(), 16 * tail);
            let m = load4(t, rest.as_ptr(), tail);
            match tail {
                1 => step::<false>(t, &mut acc, &m, &lanes(t, pw, &LAST1)),
                2 => step::<false>(t, &mut acc, &m, &lanes(t, pw, &LAST2)),
                _ => step::<true>(t, &mut acc, &m, &lanes(t, pw, &LAST3)),
            }
        }
        // h = A + B, carried (limbs below 2^28 in, value below 2^130 + 2^36 out) and packed.
        let mut s = [0u64; 5];
        for (si, a) in s.iter_mut().zip(acc.iter()) {
            *si = vaddvq_u64(*a);
        }
        carry(&mut s);
        let lo = u128::from(s[0])
            + (u128::from(s[1]) << 26)
            + (u128::from(s[2]) << 52)
            + (u128::from(s[3]) << 78);
        let hi = (lo >> 64) + (u128::from(s[4]) << 40);
        h[0] = lo as u64;
        h[1] = hi as u64;
        h[2] = (hi >> 64) as u64;
        wipe(&mut s);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::cpu::Features;
    use std::vec;
    use std::vec::Vec;

    fn token() -> Option<Neon> {
        Features::detect().get::<Neon>()
    }

    /// SplitMix64 (a fixed-seed test data generator; not a cryptographic one).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        fn bytes(&mut self, out: &mut [u8]) {
            for b in out {
                *b = self.next() as u8;
            }
        }
    }

    /// The tag of `msg` under `key`: whole blocks through `k`, a final partial block (1 pad
    /// byte, no 2^128 bit) and the final reduction through the portable code, as `Mac` does.
    fn tag(k: &mut NeonKey, r: &[u64; 2], key: &[u8; 32], msg: &[u8]) -> [u8; 16] {
        let mut st = State::default();
        let whole = msg.len() & !15;
        k.blocks(&mut st, &msg[..whole]);
        assert!(st.h[2] <= 7);
        if whole < msg.len() {
            let mut b = [0u8; 16];
            b[..msg.len() - whole].copy_from_slice(&msg[whole..]);
            b[msg.len() - whole] = 1;
            soft64::block(&mut st.h, r, r[1] + (r[1] >> 2), soft64::limbs(&b), 0);
        }
        let s: [u8; 16] = key[16..].try_into().unwrap();
        soft64::finish(&st.h, &s)
    }

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// RFC 8439 §2.5.2, and Appendix A.3 #1–#11 from the verbatim upstream file (the edge
    /// cases included).
    #[test]
    fn rfc8439_vectors() {
        let Some(t) = token() else { return };
        let key =
            hex_literal::hex!("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b");
        let r = super::super::clamp(&key);
        let mut k = new(t, &r);
        assert_eq!(
            tag(&mut k, &r, &key, b"Cryptographic Forum Research Group"),
            hex_literal::hex!("a8061dc1305136c6c22b8baf0c0127a9")
        );
        let text = include_str!("../../vectors/chacha20/rfc-7539-poly1305.txt");
        let mut rec: Vec<(&str, &str)> = Vec::new();
        let mut seen = 0;
        for line in text.lines().chain(core::iter::once("COUNT = end")) {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (name, value) = line.split_once(" = ").expect("NAME = value");
            if name == "COUNT" && !rec.is_empty() {
                let get = |n: &str| rec.iter().find(|(k, _)| *k == n).expect(n).1;
                let key: [u8; 32] = unhex(get("KEY")).try_into().unwrap();
                let msg = unhex(get("MSG"));
                let want = unhex(get("TAG"));
                let r = super::super::clamp(&key);
                let mut k = new(t, &r);
                assert_eq!(
                    tag(&mut k, &r, &key, &msg)[..],
                    want[..],
                    "COUNT {}",
                    get("COUNT")
                );
                seen += 1;
                rec.clear();
            }
            rec.push((name, value));
        }
        assert_eq!(seen, 11);
    }

    /// Against the portable kernel: random and extreme r (every bit clamping allows) and h
    /// (including h[2] = 7 and h = 2^131 − 1), random and all-ones blocks, every length
    /// 0..=20 blocks (five times the 4-block stride); the results are compared reduced.
    #[test]
    fn matches_soft64() {
        let Some(t) = token() else { return };
        let mut rng = Rng(0x0b01_1305);
        let all_r = super::super::clamp(&[0xff; 32]);
        for round in 0..24 {
            let r = match round % 3 {
                0 => all_r,
                _ => {
                    let mut k = [0u8; 32];
                    rng.bytes(&mut k);
                    super::super::clamp(&k)
                }
            };
            let h0 = match round % 4 {
                0 => [u64::MAX, u64::MAX, 7],
                1 => [0, 0, 0],
                _ => [rng.next(), rng.next(), rng.next() % 8],
            };
            let mut k = new(t, &r);
            let mut soft = soft64::new(&r);
            for n in 0..=20usize {
                let mut data = vec![0xffu8; 16 * n];
                if round % 2 == 1 {
                    rng.bytes(&mut data);
                }
                let mut a = State { h: h0 };
                let mut b = State { h: h0 };
                k.blocks(&mut a, &data);
                soft.blocks(&mut b, &data);
                assert!(a.h[2] <= 7, "round {round} blocks {n}: h[2] = {}", a.h[2]);
                let s = [0u8; 16];
                assert_eq!(
                    soft64::finish(&a.h, &s),
                    soft64::finish(&b.h, &s),
                    "round {round} blocks {n}"
                );
            }
        }
    }

    /// Splitting the blocks over two calls at every block boundary changes nothing, and data
    /// at an odd address is handled.
    #[test]
    fn splits_and_unaligned() {
        let Some(t) = token() else { return };
        let mut rng = Rng(99);
        let mut key = [0u8; 32];
        rng.bytes(&mut key);
        let r = super::super::clamp(&key);
        let mut k = new(t, &r);
        let n = 19usize;
        let mut buf = vec![0u8; 16 * n + 1];
        rng.bytes(&mut buf);
        let data = &buf[1..];
        let mut whole = State::default();
        k.blocks(&mut whole, data);
        let s = [0u8; 16];
        for cut in 0..=n {
            let mut st = State::default();
            k.blocks(&mut st, &data[..16 * cut]);
            k.blocks(&mut st, &data[16 * cut..]);
            assert_eq!(
                soft64::finish(&st.h, &s),
                soft64::finish(&whole.h, &s),
                "cut {cut}"
            );
        }
    }

    /// Every lane of every step's power table is the right power of r (checked against
    /// repeated multiplication by the portable code), and the 5× entries are five times it.
    #[test]
    fn powers() {
        let Some(t) = token() else { return };
        let mut rng = Rng(5);
        let s = [0u8; 16];
        for i in 0..16 {
            let mut key = [0xffu8; 32];
            if i > 0 {
                rng.bytes(&mut key);
            }
            let r = super::super::clamp(&key);
            let k = new(t, &r);
            // want[e] = r^e, by the portable block function with m = 0 and no 2^128 bit.
            let mut want = [[1u64, 0, 0]; 5];
            for e in 1..5 {
                want[e] = want[e - 1];
                soft64::block(&mut want[e], &r, r[1] + (r[1] >> 2), [0, 0], 0);
            }
            for (idx, exps) in [
                (MAIN, EXP_MAIN),
                (LAST4, EXP_LAST4),
                (LAST3, EXP_LAST3),
                (LAST2, EXP_LAST2),
                (LAST1, EXP_LAST1),
            ] {
                // SAFETY: the token proves NEON.
                let p = unsafe { lanes(t, &k.pw, &idx) };
                let mut l = [[0u32; 4]; 10];
                for (row, v) in l.iter_mut().zip(p.iter()) {
                    // SAFETY: `row` is 16 writable bytes.
                    unsafe { core::arch::aarch64::vst1q_u32(row.as_mut_ptr(), *v) };
                }
                for (lane, &e) in exps.iter().enumerate() {
                    let limb = |j: usize| u128::from(l[j][lane]);
                    let lo = limb(0) + (limb(1) << 26) + (limb(2) << 52) + (limb(3) << 78);
                    let hi = (lo >> 64) + (limb(4) << 40);
                    let got = [lo as u64, hi as u64, (hi >> 64) as u64];
                    assert_eq!(
                        soft64::finish(&got, &s),
                        soft64::finish(&want[usize::from(e)], &s),
                        "{exps:?} lane {lane}"
                    );
                    for j in 0..5 {
                        assert!(l[j][lane] <= (1 << 26) + 4);
                        assert_eq!(l[5 + j][lane], 5 * l[j][lane]);
                    }
                }
            }
        }
    }
}
