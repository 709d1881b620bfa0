//! GHASH with PCLMULQDQ (64×64-bit carry-less multiply) on 128-bit registers, after S. Gueron
//! and M. Kounavis, "Intel Carry-Less Multiplication Instruction and its Usage for Computing
//! the GCM Mode" (Intel white paper, rev. 2014; "G&K" below): byte reflection, Karatsuba,
//! aggregated reduction.
//!
//! # Representation
//!
//! GCM numbers the bits of a block from the most significant bit of byte 0, which is the
//! coefficient of x^0 (SP 800-38D §6.3). Byte-reversing a block (`pshufb`) and reading it as
//! a little-endian 128-bit integer puts the coefficient of x^k at integer bit 127 − k; call
//! that integer `R(a)`. Then `clmul(R(a), R(b))`, the 255-bit carry-less product of the
//! integers, has the coefficient of x^k of `a·b` at bit 254 − k.
//!
//! Read a 256-bit integer `P` as the polynomial whose coefficient of x^m is bit 255 − m of `P`.
//! The product above is then `x·a·b` (its bit 254 − k, the coefficient of x^k of `a·b`, reads
//! as that of x^(k+1)), and reducing modulo g = x^128 + x^7 + x^2 + x + 1 means clearing the low 128 bits of
//! `P` (degrees 128..255) by adding multiples `x^s·g`, 0 ≤ s < 128. In the integer those are
//! `2^t·G` with `G = 2^128 + 2^127 + 2^126 + 2^121 + 1` (g with its bit order reversed), so the
//! reduction is a Montgomery reduction by `G` on the integers, two 64-bit digits at a time.
//! Since `G ≡ 1 (mod 2^64)`, the digit multiplier is the digit itself: for the low qword `m`
//! of `P`, adding `m·G = m + 2^64·clmul(m, 0xc2000000_00000000) + 2^128·m` clears it
//! (`0xc2…` is 2^63 + 2^62 + 2^57, the middle terms of `G` over 2^64). Two such steps clear
//! the low 128 bits; the high 128 bits are `R(x·a·b mod g)`. This is G&K's reduction "by the
//! reflected polynomial", with the shifts replaced by two carry-less multiplies.
//!
//! The stray factor x is removed once, in the key: the kernel keeps `R(H^i·x^-1 mod g)`
//! ("twisted" powers), so a block times a twisted power reduces to `R(X·H^i)` directly, with
//! no one-bit left shift of the 256-bit product (which G&K apply before reducing).
//! `x^-1 = x^127 + x^6 + x + 1`, so
//! `R(H·x^-1) = (R(H) << 1) ⊕ (bit 127 of R(H) ? 0xc2000000_00000000_00000000_00000001 : 0)`,
//! computed with a mask, not a branch. Higher powers come from the kernel's own multiply:
//! `F(R(a), R(b)) = R(x·a·b)` gives `F(R(H^i x^-1), R(H x^-1)) = R(H^(i+1) x^-1)`.
//!
//! # Aggregation (G&K §"aggregated reduction")
//!
//! `Y_n = (…((Y ⊕ X_1)·H ⊕ X_2)·H … ⊕ X_n)·H = (Y ⊕ X_1)·H^n ⊕ X_2·H^(n-1) ⊕ … ⊕ X_n·H`.
//! The reduction is linear, so eight products are summed unreduced (three 128-bit
//! accumulators: low, middle and high Karatsuba terms) and reduced once per eight blocks.
//! Each 128×128 product costs three `pclmulqdq` (Karatsuba: `a0·b0`, `a1·b1`,
//! `(a0⊕a1)·(b0⊕b1)`; the middle term is fixed up once per group by adding the low and high
//! sums); `b0⊕b1` of each power is precomputed. A tail of 1–7 blocks is one more group of
//! that size.
//!
//! # The table of powers
//!
//! [`Powers`] holds the 16 twisted powers in descending order, `h[i] = R(H^(16-i) x^-1)`,
//! each as the memory image of an `__m128i` (low qword first): the group of the last `n`
//! blocks of a run multiplies block `j` by `h[16-n+j]`, and a 512-bit register loaded from
//! `h[4r..4r+4]` holds the powers for blocks `4r..4r+4` of a 16-block group. The
//! VPCLMULQDQ assembly (`x86_64_vclmul.rs`) reads the same table.
//!
//! Nothing here branches on or indexes memory by `H`, `Y` or the data; only the length does.

use core::arch::x86_64::*;

use super::Kernel;
use crate::cpu::arch::Clmul;

/// Powers of `H` kept in [`Powers`]: the 512-bit kernel's group of 16 blocks.
pub(crate) const NPOW: usize = 16;

/// Blocks per aggregated reduction in this kernel.
const GROUP: usize = 8;

/// The twisted powers of `H` (see the module docs), on a cache line.
#[repr(C, align(64))]
#[derive(Clone)]
pub(crate) struct Powers {
    /// `h[i] = R(H^(16-i)·x^-1 mod g)` as (low qword, high qword).
    pub(crate) h: [[u64; 2]; NPOW],
    /// `k[i] = [h[i][0] ⊕ h[i][1]; 2]`: the Karatsuba middle operand, in both qwords so that
    /// a 256-bit load of `k[i..i+2]` has each in its own lane.
    pub(crate) k: [[u64; 2]; NPOW],
}

// The assembly of `x86_64_vclmul.rs` reads `h` at offset 0 and `k` at offset 256.
const _: () = {
    assert!(core::mem::size_of::<Powers>() == 512);
    assert!(core::mem::offset_of!(Powers, k) == 256);
};

/// GHASH key for the PCLMULQDQ kernel: the token and the powers of `H`.
#[derive(Clone)]
pub(crate) struct ClmulKey {
    t: Clmul,
    p: Powers,
}

/// Expands `h` (= E_K(0^128), SP 800-38D byte order).
pub(crate) fn new(t: Clmul, h: &[u8; 16]) -> ClmulKey {
    let mut k = ClmulKey {
        t,
        p: Powers {
            h: [[0; 2]; NPOW],
            k: [[0; 2]; NPOW],
        },
    };
    // SAFETY: the token proves PCLMULQDQ, SSE2 and SSSE3.
    unsafe { powers(t, h, &mut k.p) };
    k
}

impl ClmulKey {
    /// The table of powers (for the VPCLMULQDQ kernels, which share it).
    #[cfg(any(test, simdcrypt_asm))]
    pub(crate) fn powers(&self) -> &Powers {
        &self.p
    }
}

impl Drop for ClmulKey {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.p.h);
        crate::wipe::wipe(&mut self.p.k);
    }
}

impl Kernel for ClmulKey {
    #[inline]
    fn update(&self, y: &mut [u8; 16], data: &[u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        // SAFETY: the token in `self` proves PCLMULQDQ, SSE2 and SSSE3.
        unsafe { update(self.t, &self.p, y, data) }
    }
}

/// `R(H·x^-1 mod g)` from `H` in SP 800-38D byte order (see the module docs).
fn twist(h: &[u8; 16]) -> u128 {
    let r = u128::from_be_bytes(*h);
    let mask = 0u128.wrapping_sub(r >> 127);
    (r << 1) ^ (mask & 0xc200_0000_0000_0000_0000_0000_0000_0001)
}

/// `a` as an `__m128i` (low qword in the low lane).
#[target_feature(enable = "pclmulqdq,sse2,ssse3")]
#[inline]
unsafe fn from_u128(_t: Clmul, a: u128) -> __m128i {
    // SAFETY: SSE2 is enabled here. (Intrinsics are `unsafe` fns on our MSRV only.)
    #[allow(unused_unsafe)]
    unsafe {
        _mm_set_epi64x((a >> 64) as i64, a as i64)
    }
}

/// Fills `p` with the twisted powers `H^1..H^16` and their Karatsuba halves.
#[target_feature(enable = "pclmulqdq,sse2,ssse3")]
unsafe fn powers(t: Clmul, h: &[u8; 16], p: &mut Powers) {
    // SAFETY: the features of every intrinsic and callee are enabled here.
    unsafe {
        let h1 = from_u128(t, twist(h));
        let mut cur = h1;
        for i in (0..NPOW).rev() {
            let mut w = [0u64; 2];
            _mm_storeu_si128(w.as_mut_ptr().cast(), cur);
            p.h[i] = w;
            p.k[i] = [w[0] ^ w[1]; 2];
            if i > 0 {
                // F(R(H^j x^-1), R(H x^-1)) = R(H^(j+1) x^-1).
                let (lo, mid, hi) = mul_acc(t, cur, h1, zero3(t));
                cur = reduce(t, lo, mid, hi);
            }
        }
    }
}

/// Three zero accumulators.
#[target_feature(enable = "pclmulqdq,sse2,ssse3")]
#[inline]
unsafe fn zero3(_t: Clmul) -> (__m128i, __m128i, __m128i) {
    // SAFETY: SSE2 is enabled here.
    #[allow(unused_unsafe)]
    unsafe {
        (
            _mm_setzero_si128(),
            _mm_setzero_si128(),
            _mm_setzero_si128(),
        )
    }
}

/// `acc` plus the schoolbook terms of `a·b`: low `a0·b0`, middle `a0·b1 ⊕ a1·b0` (at 2^64),
/// high `a1·b1` (at 2^128). Four multiplies; used for the key setup only.
#[target_feature(enable = "pclmulqdq,sse2,ssse3")]
#[inline]
unsafe fn mul_acc(
    _t: Clmul,
    a: __m128i,
    b: __m128i,
    acc: (__m128i, __m128i, __m128i),
) -> (__m128i, __m128i, __m128i) {
    // SAFETY: PCLMULQDQ and SSE2 are enabled here; no memory is touched.
    #[allow(unused_unsafe)]
    unsafe {
        let lo = _mm_clmulepi64_si128(a, b, 0x00);
        let hi = _mm_clmulepi64_si128(a, b, 0x11);
        let mid = _mm_xor_si128(
            _mm_clmulepi64_si128(a, b, 0x01),
            _mm_clmulepi64_si128(a, b, 0x10),
        );
        (
            _mm_xor_si128(acc.0, lo),
            _mm_xor_si128(acc.1, mid),
            _mm_xor_si128(acc.2, hi),
        )
    }
}

/// The 256-bit value `lo ⊕ 2^64·mid ⊕ 2^128·hi` reduced: the two Montgomery steps by
/// `G = 2^128 + 2^127 + 2^126 + 2^121 + 1` of the module docs. With the qwords
/// `P0 = lo.0`, `P1 = lo.1 ⊕ mid.0`, `P2 = mid.1 ⊕ hi.0`, `P3 = hi.1`:
/// step 1 adds `P0·G`: `[P2:P1] ^= [P0 : 0] ⊕ clmul(P0, c)` (and clears P0);
/// step 2 adds `2^64·P1·G`: `[P3:P2] ^= [P1 : 0] ⊕ clmul(P1, c)` (and clears P1).
#[target_feature(enable = "pclmulqdq,sse2,ssse3")]
#[inline]
unsafe fn reduce(_t: Clmul, lo: __m128i, mid: __m128i, hi: __m128i) -> __m128i {
    // SAFETY: PCLMULQDQ and SSE2 are enabled here; no memory is touched.
    #[allow(unused_unsafe)]
    unsafe {
        let c = _mm_set_epi64x(0, 0xc200_0000_0000_0000_u64 as i64);
        // [P2:P1] = mid ⊕ [lo.0 : lo.1] ⊕ clmul(lo.0, c).
        let t = _mm_clmulepi64_si128(lo, c, 0x00);
        let mid = _mm_xor_si128(_mm_xor_si128(mid, t), _mm_shuffle_epi32(lo, 0x4e));
        // [P3:P2] = hi ⊕ [P1 : P2] ⊕ clmul(P1, c).
        let t = _mm_clmulepi64_si128(mid, c, 0x00);
        _mm_xor_si128(_mm_xor_si128(hi, t), _mm_shuffle_epi32(mid, 0x4e))
    }
}

/// `pshufb` mask that reverses the 16 bytes of a register.
#[target_feature(enable = "pclmulqdq,sse2,ssse3")]
#[inline]
unsafe fn bswap_mask(_t: Clmul) -> __m128i {
    // SAFETY: SSE2 is enabled here.
    #[allow(unused_unsafe)]
    unsafe {
        _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
    }
}

/// One aggregated group of `N` blocks (`blocks.len() == 16 * N`, `N <= 16`): returns
/// `R(((Y ⊕ X_1)·H^N ⊕ X_2·H^(N-1) ⊕ … ⊕ X_N·H))` for `y = R(Y)`.
#[target_feature(enable = "pclmulqdq,sse2,ssse3")]
#[inline]
unsafe fn group<const N: usize>(t: Clmul, p: &Powers, y: __m128i, blocks: &[u8]) -> __m128i {
    debug_assert_eq!(blocks.len(), 16 * N);
    // SAFETY: PCLMULQDQ, SSE2 and SSSE3 are enabled here (for the intrinsics and callees);
    // block `j` lies inside `blocks` (16·N bytes); `h[i]` and `k[i]` are 16 readable bytes
    // each (i < NPOW).
    unsafe {
        let bsw = bswap_mask(t);
        let (mut lo, mut mid, mut hi) = zero3(t);
        for j in 0..N {
            let i = NPOW - N + j;
            let x = _mm_loadu_si128(blocks.as_ptr().add(16 * j).cast());
            let h = _mm_loadu_si128(p.h[i].as_ptr().cast());
            let k = _mm_loadu_si128(p.k[i].as_ptr().cast());
            let mut x = _mm_shuffle_epi8(x, bsw);
            if j == 0 {
                x = _mm_xor_si128(x, y);
            }
            // Karatsuba: x0·h0, x1·h1, (x0 ⊕ x1)·(h0 ⊕ h1).
            lo = _mm_xor_si128(lo, _mm_clmulepi64_si128(x, h, 0x00));
            hi = _mm_xor_si128(hi, _mm_clmulepi64_si128(x, h, 0x11));
            let xk = _mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e));
            mid = _mm_xor_si128(mid, _mm_clmulepi64_si128(xk, k, 0x00));
        }
        // The Karatsuba middle term: (x0⊕x1)(h0⊕h1) ⊕ x0h0 ⊕ x1h1 = x0h1 ⊕ x1h0.
        mid = _mm_xor_si128(mid, _mm_xor_si128(lo, hi));
        reduce(t, lo, mid, hi)
    }
}

/// `y ← GHASH_H(y, data)` for whole blocks: groups of eight, then one group of the rest.
#[target_feature(enable = "pclmulqdq,sse2,ssse3")]
pub(super) unsafe fn update(t: Clmul, p: &Powers, y: &mut [u8; 16], data: &[u8]) {
    // SAFETY: the features of the intrinsics and callees are enabled here; `y` is 16
    // readable and writable bytes; each slice passed to `group::<N>` holds exactly N blocks.
    unsafe {
        let bsw = bswap_mask(t);
        let mut acc = _mm_shuffle_epi8(_mm_loadu_si128(y.as_ptr().cast()), bsw);
        let mut chunks = data.chunks_exact(16 * GROUP);
        for c in &mut chunks {
            acc = group::<GROUP>(t, p, acc, c);
        }
        let rest = chunks.remainder();
        acc = match rest.len() / 16 {
            0 => acc,
            1 => group::<1>(t, p, acc, rest),
            2 => group::<2>(t, p, acc, rest),
            3 => group::<3>(t, p, acc, rest),
            4 => group::<4>(t, p, acc, rest),
            5 => group::<5>(t, p, acc, rest),
            6 => group::<6>(t, p, acc, rest),
            _ => group::<7>(t, p, acc, &rest[..7 * 16]),
        };
        _mm_storeu_si128(y.as_mut_ptr().cast(), _mm_shuffle_epi8(acc, bsw));
    }
}

#[cfg(test)]
pub(crate) mod tests {
    extern crate std;
    use super::*;
    use crate::cpu::Features;
    use std::vec::Vec;

    pub(crate) fn token() -> Option<Clmul> {
        let t = Features::hardware().get::<Clmul>();
        if t.is_none() {
            std::eprintln!("clmul: CPU lacks PCLMULQDQ or SSSE3; kernel not tested");
        }
        t
    }

    /// SP 800-38D §6.3 Algorithm 1, bit by bit: the slow reference product.
    pub(crate) fn ref_mul(x: u128, y: u128) -> u128 {
        let r: u128 = 0xe1 << 120;
        let mut z = 0u128;
        let mut v = y;
        for i in 0..128 {
            if (x >> (127 - i)) & 1 == 1 {
                z ^= v;
            }
            v = if v & 1 == 1 { (v >> 1) ^ r } else { v >> 1 };
        }
        z
    }

    /// GHASH by [`ref_mul`], block by block (blocks as big-endian integers, SP 800-38D).
    pub(crate) fn ref_ghash(h: &[u8; 16], y: &[u8; 16], data: &[u8]) -> [u8; 16] {
        let h = u128::from_be_bytes(*h);
        let mut acc = u128::from_be_bytes(*y);
        for b in data.chunks_exact(16) {
            acc = ref_mul(acc ^ u128::from_be_bytes(b.try_into().unwrap()), h);
        }
        acc.to_be_bytes()
    }

    /// SplitMix64 bytes: deterministic test data.
    pub(crate) fn bytes(seed: u64, n: usize) -> Vec<u8> {
        let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x1234_5678;
        (0..n)
            .map(|_| {
                s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = s;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                (z ^ (z >> 31)) as u8
            })
            .collect()
    }

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// GHASH(H, A, C) with the zero padding and the length block of SP 800-38D §7.1 step 5.
    pub(crate) fn ghash_ac(k: &dyn Kernel, a: &[u8], c: &[u8]) -> [u8; 16] {
        let mut buf = Vec::new();
        for part in [a, c] {
            buf.extend_from_slice(part);
            buf.resize(buf.len().div_ceil(16) * 16, 0);
        }
        buf.extend_from_slice(&((a.len() as u64) * 8).to_be_bytes());
        buf.extend_from_slice(&((c.len() as u64) * 8).to_be_bytes());
        let mut y = [0u8; 16];
        k.update(&mut y, &buf);
        y
    }

    /// McGrew–Viega test cases 2, 4 and 6 (the GCM specification, Appendix B): H, A, C and
    /// GHASH(H, A, C), for both the kernel and the slow reference.
    pub(crate) const MV: &[(&str, &str, &str, &str)] = &[
        (
            "66e94bd4ef8a2c3b884cfa59ca342b2e",
            "",
            "0388dace60b6a392f328c2b971b2fe78",
            "f38cbb1ad69223dcc3457ae5b6b0f885",
        ),
        (
            "b83b533708bf535d0aa6e52980d53b78",
            "feedfacedeadbeeffeedfacedeadbeefabaddad2",
            "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e\
             21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
            "698e57f70e6ecc7fd9463b7260a9ae5f",
        ),
        (
            "b83b533708bf535d0aa6e52980d53b78",
            "feedfacedeadbeeffeedfacedeadbeefabaddad2",
            "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca7\
             01e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
            "1c5afe9760d3932f3c9a878aac3dc3de",
        ),
    ];

    /// Runs the McGrew–Viega GHASH cases on `k` built by `make` from each H.
    pub(crate) fn check_mv<K: Kernel>(make: impl Fn(&[u8; 16]) -> K) {
        for (h, a, c, want) in MV {
            let h: [u8; 16] = hex(h).try_into().unwrap();
            let (a, c) = (hex(a), hex(c));
            let want: [u8; 16] = hex(want).try_into().unwrap();
            let k = make(&h);
            assert_eq!(ghash_ac(&k, &a, &c), want);
            let r = RefKey(h);
            assert_eq!(ghash_ac(&r, &a, &c), want);
        }
    }

    /// The reference as a kernel.
    pub(crate) struct RefKey(pub(crate) [u8; 16]);
    impl Kernel for RefKey {
        fn update(&self, y: &mut [u8; 16], data: &[u8]) {
            *y = ref_ghash(&self.0, y, data);
        }
    }

    /// `k` (built by `make`) against the reference on random H, Y and lengths `lens` (blocks),
    /// at offsets 0 and 1 into the buffer.
    pub(crate) fn cross_check<K: Kernel>(make: impl Fn(&[u8; 16]) -> K, lens: &[usize]) {
        for (n, &blocks) in lens.iter().enumerate() {
            let seed = 1000 + n as u64;
            let h: [u8; 16] = bytes(seed, 16).try_into().unwrap();
            let y0: [u8; 16] = bytes(seed + 7, 16).try_into().unwrap();
            let k = make(&h);
            let buf = bytes(seed + 13, blocks * 16 + 1);
            for off in [0usize, 1] {
                let data = &buf[off..off + blocks * 16];
                let mut y = y0;
                k.update(&mut y, data);
                assert_eq!(y, ref_ghash(&h, &y0, data), "{blocks} blocks, offset {off}");
            }
            // Split at every block boundary of a short prefix: the same result.
            if blocks > 0 {
                let data = &buf[..blocks * 16];
                let want = ref_ghash(&h, &y0, data);
                for cut in (0..=blocks).step_by(blocks.div_ceil(5)) {
                    let mut y = y0;
                    k.update(&mut y, &data[..cut * 16]);
                    k.update(&mut y, &data[cut * 16..]);
                    assert_eq!(y, want, "{blocks} blocks split at {cut}");
                }
            }
        }
    }

    /// Special keys: H = 0, 1 (x^0), x^127, all ones — the twist's carry and mask paths.
    pub(crate) fn special_keys<K: Kernel>(make: impl Fn(&[u8; 16]) -> K) {
        let mut keys = std::vec![[0u8; 16], [0xff; 16]];
        let mut one = [0u8; 16];
        one[0] = 0x80;
        keys.push(one);
        let mut top = [0u8; 16];
        top[15] = 0x01;
        keys.push(top);
        for h in keys {
            let k = make(&h);
            for blocks in [1usize, 7, 8, 9, 16, 17, 33] {
                let data = bytes(blocks as u64, blocks * 16);
                let mut y = [0x5a; 16];
                k.update(&mut y, &data);
                assert_eq!(y, ref_ghash(&h, &[0x5a; 16], &data));
            }
        }
    }

    #[test]
    fn reference_matches_spec() {
        check_mv(|h| RefKey(*h));
    }

    #[test]
    fn mcgrew_viega() {
        let Some(t) = token() else { return };
        check_mv(|h| new(t, h));
    }

    #[test]
    fn against_reference() {
        let Some(t) = token() else { return };
        let lens: Vec<usize> = (0..=27).chain([40, 64, 100, 257]).collect();
        cross_check(|h| new(t, h), &lens);
        special_keys(|h| new(t, h));
    }

    /// The table holds `R(H^(16-i)·x^-1)`: `R(H^j)` untwisted equals the reference power.
    #[test]
    fn table_powers() {
        let Some(t) = token() else { return };
        let h: [u8; 16] = bytes(5, 16).try_into().unwrap();
        let k = new(t, &h);
        let hv = u128::from_be_bytes(h);
        let mut pow = hv;
        for j in 1..=NPOW {
            let w = k.powers().h[NPOW - j];
            let r = (u128::from(w[1]) << 64) | u128::from(w[0]);
            // Untwist: multiply by x, i.e. R(a·x) = R(a) >> 1, folding x^128 back.
            let carry = 0u128.wrapping_sub(r & 1);
            let untw = (r >> 1) ^ (carry & (0xe1 << 120));
            assert_eq!(untw, pow, "H^{j}");
            assert_eq!(k.powers().k[NPOW - j], [w[0] ^ w[1]; 2]);
            pow = ref_mul(pow, hv);
        }
    }
}
