//! Constant-time GHASH on AVX2 without PCLMULQDQ ("ctmul-avx2"): carry-less products built
//! from `vpmuludq` (four 32×32→64-bit integer products per instruction) on operands whose
//! bits are spread out, Karatsuba down to 32-bit words, and one reduction per group of
//! [`GROUP`] blocks with precomputed powers of `H`. For CPUs (or VMs) that show AVX2 but hide
//! PCLMULQDQ.
//!
//! # Representation
//!
//! As in the PCLMULQDQ kernel (`x86_64_clmul.rs`, which explains it in full): a block is
//! byte-reversed and read as a little-endian 128-bit integer, `R(a)` (= the block read as a
//! big-endian `u128`), so the coefficient of x^k sits at integer bit 127 − k. The 255-bit
//! carry-less product of `R(a)` and `R(b)` reduced by two Montgomery steps by
//! `G = 2^128 + 2^127 + 2^126 + 2^121 + 1` (g = x^128 + x^7 + x^2 + x + 1 bit-reversed) is
//! `R(x·a·b mod g)`, and the key keeps the twisted powers `R(H^i·x^-1 mod g)`, so that a
//! block times a twisted power reduces to `R(X·H^i)`. Only byte shuffles (`vpshufb`) touch
//! the input; no bit reversal is needed. Here the two Montgomery steps are done with shifts:
//! the step multiplier for a low qword `m` is `m·(2^63 + 2^62 + 2^57)` (carry-less), i.e.
//! `(m << 63) ⊕ (m << 62) ⊕ (m << 57)` as a 128-bit value.
//!
//! # Carry-less 32×32 products from integer products (Pornin's "ctmul" idea)
//!
//! Split a 32-bit word `x` into four classes `x_i = x & M_i`, where `M_i` keeps the bits whose
//! index is `≡ i (mod 4)` (`M_0 = 0x11111111`, `M_1 = 0x22222222`, …); each class has 8 bits.
//! In the integer product `x_i · h_j` every single-bit partial product lies in a column
//! `k ≡ i + j (mod 4)`, and a column holds at most 8 of them (one per bit of `x_i`). So the
//! product is `Σ n_k·2^k` over those columns with counts `n_k ≤ 8 < 16`: fields of four bits
//! at bits `k, k + 4, …` that do not overlap, so nothing carries from one column into the
//! next one of the same class, and bit `k` of the product is `n_k mod 2`, the bit of the
//! carry-less product. The other bits of the integer product (the fields' high bits) are
//! masked off. Hence the 64-bit carry-less product is
//!
//! `x ⊗ h = ⊕_c ( (⊕_{i+j ≡ c} x_i·h_j) & M_c )` (with `M_c` widened to 64 bits),
//!
//! sixteen integer products, each computed exactly by `vpmuludq` (32×32→64, no wrap).
//! Products are combined with XOR, never added, so the carries of one product cannot reach
//! another's columns. `vpmuludq` reads only the low dword of each 64-bit lane, so the high
//! dwords of the word vectors below may hold anything.
//!
//! # Karatsuba to 32-bit words
//!
//! With `R(X) = X_1·2^64 + X_0` and `X_k = x_k1·2^32 + x_k0` (likewise for the power), the
//! 128×128 product is three 64×64 ones, `A = X_0⊗P_0`, `B = X_1⊗P_1`,
//! `C = (X_0⊕X_1)⊗(P_0⊕P_1)`, and `X⊗P = A ⊕ (A⊕B⊕C)·2^64 ⊕ B·2^128`; each 64×64 one is three
//! 32×32 ones in the same way: `A = a_l ⊕ (a_l⊕a_h⊕a_m)·2^32 ⊕ a_h·2^64` with
//! `a_l = x_00⊗p_00`, `a_h = x_01⊗p_01`, `a_m = (x_00⊕x_01)⊗(p_00⊕p_01)`. Nine 32-bit
//! "positions" per operand: `w0, w1, w0⊕w1, w2, w3, w2⊕w3, w0⊕w2, w1⊕w3, w0⊕w1⊕w2⊕w3` for the
//! dwords `w0..w3` of `R(·)`, low first (see [`words`]); 9 × 16 = 144 integer products per
//! block.
//!
//! # Aggregation (as in the PCLMULQDQ kernel)
//!
//! `Y_n = (Y ⊕ X_1)·H^n ⊕ X_2·H^(n-1) ⊕ … ⊕ X_n·H`. Everything above except the final
//! reduction is linear, and the class masks distribute over XOR
//! (`(a ⊕ b) & M = (a & M) ⊕ (b & M)`), so the blocks of a group are summed before any
//! masking: 36 accumulators (nine positions × four class sums `⊕_{i+j≡c} x_i·h_j`, one lane
//! per block). Once per group they are masked with `M_c` and combined into nine position
//! products; the sum over lanes, the Karatsuba recombination and the reduction follow, on
//! scalars.
//!
//! # Lanes and the table of powers
//!
//! Four blocks are one *step*: two 256-bit loads (blocks 0,1 and 2,3), a byte reversal in each
//! 128-bit half, then `vpunpcklqdq`/`vpunpckhqdq` give the low qwords `X_0` of the four blocks
//! in one register and the high qwords `X_1` in another, lanes in block order 0, 2, 1, 3
//! ([`LANE_BLOCK`]). `X_0 ⊕ X_1`, and for each of those three a `>> 32` and an XOR, give the
//! nine position vectors. The table holds, for each step of a group and each position, the
//! vector of the position words `p_pos` of the four twisted powers of that step's blocks (in
//! the low dword of each lane; the step splits them into classes `p_pos & M_j` as it runs,
//! which keeps the table at 1.2 KB): block `b` of a group of [`GROUP`] blocks is multiplied by
//! `H^(GROUP-b)`. A run of `m < GROUP` blocks (m a multiple of 4) uses the table's last `m/4`
//! steps, so that its blocks meet `H^m..H^1`; a final run of `n` blocks that is not a multiple
//! of four gets zero blocks in front (zero times any power is zero).
//!
//! Calls of one or two blocks (the AAD and the final blocks of short messages) skip the
//! four-lane steps: [`single`] puts the nine positions of one block in the lanes of three
//! registers and multiplies by `H` alone, block by block.
//!
//! Nothing here branches on or indexes memory by `H`, `Y` or the data; only the length does.
//! `vpmuludq`, like the integer multipliers of current x86_64 cores, takes the same time for
//! every operand value.

use core::arch::x86_64::*;

use super::Kernel;
use crate::cpu::arch::Avx2;
use crate::wipe::wipe;

/// Blocks per aggregated reduction (a multiple of 4).
const GROUP: usize = 16;

/// Steps of four blocks per group.
const STEPS: usize = GROUP / 4;

/// The block of a step in each 64-bit lane after the `vpunpck{l,h}qdq` transposition.
const LANE_BLOCK: [usize; 4] = [0, 2, 1, 3];

/// The 32-bit class masks `M_i` (bits `≡ i (mod 4)`).
const M32: [u32; 4] = [0x1111_1111, 0x2222_2222, 0x4444_4444, 0x8888_8888];

/// `M_0` on 64 bits; `M_c = M64 << c`.
const M64: u64 = 0x1111_1111_1111_1111;

/// One step's operands: `[position][lane]`, the 32-bit position word of each lane's twisted
/// power zero-extended to 64 bits (the memory image of an `__m256i`). The classes are masked
/// out as the step runs (four `vpand`s per position): a table of every class would be four
/// times as large (4.6 KB, in every x86_64 AES-GCM key) for about 10% of this kernel's speed.
type StepTable = [[u64; 4]; 9];

/// The precomputed powers (see the module docs), on a cache line.
#[repr(C, align(64))]
#[derive(Clone)]
struct Table {
    s: [StepTable; STEPS],
    /// `H^1` for [`single`]: `one[k]` holds positions `3k, 3k + 1, 3k + 2` in lanes 0, 1, 2
    /// (lane 3 zero).
    one: [[u64; 4]; 3],
}

/// GHASH key for the AVX2 kernel: the token and the table of powers of `H`.
#[derive(Clone)]
pub(crate) struct Avx2Key {
    t: Avx2,
    tab: Table,
}

impl Drop for Avx2Key {
    fn drop(&mut self) {
        wipe(&mut self.tab.s);
        wipe(&mut self.tab.one);
    }
}

impl Kernel for Avx2Key {
    #[inline]
    fn update(&self, y: &mut [u8; 16], data: &[u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        // SAFETY: the token in `self` proves AVX2 and AVX.
        unsafe { update(self.t, &self.tab, y, data) }
    }
}

/// The nine Karatsuba position words of `R(·) = r` (module docs): `w0, w1, w0⊕w1, w2, w3,
/// w2⊕w3, w0⊕w2, w1⊕w3, w0⊕w1⊕w2⊕w3` for the dwords `w0..w3` of `r`, low first.
fn words(r: u128) -> [u32; 9] {
    let w = [
        r as u32,
        (r >> 32) as u32,
        (r >> 64) as u32,
        (r >> 96) as u32,
    ];
    let (m0, m1) = (w[0] ^ w[2], w[1] ^ w[3]);
    [
        w[0],
        w[1],
        w[0] ^ w[1],
        w[2],
        w[3],
        w[2] ^ w[3],
        m0,
        m1,
        m0 ^ m1,
    ]
}

/// The 64-bit carry-less product of two 32-bit words, by the class method of the module docs
/// (scalar; for the key setup and as the model of the vector code).
fn clmul32(x: u32, h: u32) -> u64 {
    let xs = M32.map(|m| u64::from(x & m));
    let hs = M32.map(|m| u64::from(h & m));
    let mut r = 0;
    for c in 0..4 {
        let mut z = 0;
        for i in 0..4 {
            // Both factors are below 2^32: the product is exact.
            z ^= xs[i] * hs[(c + 4 - i) % 4];
        }
        r |= z & (M64 << c);
    }
    r
}

/// The 256-bit carry-less product, as (low, high) halves, of the operands whose nine
/// position products are `v` (Karatsuba recombination, module docs).
#[inline(always)]
fn combine(v: [u64; 9]) -> (u128, u128) {
    let k = |l: u64, h: u64, m: u64| -> u128 {
        u128::from(l) ^ (u128::from(m ^ l ^ h) << 32) ^ (u128::from(h) << 64)
    };
    let a = k(v[0], v[1], v[2]);
    let b = k(v[3], v[4], v[5]);
    let c = k(v[6], v[7], v[8]);
    let mid = a ^ b ^ c;
    (a ^ (mid << 64), b ^ (mid >> 64))
}

/// `m·(2^63 + 2^62 + 2^57)` carry-less, as a 128-bit value: the Montgomery step multiple.
#[inline(always)]
fn times_c(m: u64) -> u128 {
    let m = u128::from(m);
    (m << 63) ^ (m << 62) ^ (m << 57)
}

/// `lo ⊕ 2^128·hi` reduced by two Montgomery steps by `G` (module docs; the steps of
/// `x86_64_clmul.rs`'s `reduce`): adding `P0·G` clears qword 0, then `2^64·P1·G` clears qword
/// 1; the high 128 bits are the result.
#[inline(always)]
fn reduce(lo: u128, hi: u128) -> u128 {
    let p0 = lo as u64;
    // [P2:P1] ^= P0·(2^63 + 2^62 + 2^57), and P2 ^= P0 (the 2^128 term of G).
    let mid = (lo >> 64) ^ (u128::from(hi as u64) << 64) ^ times_c(p0) ^ (u128::from(p0) << 64);
    let p1 = mid as u64;
    // [P3:P2] ^= P1·(2^63 + 2^62 + 2^57), and P3 ^= P1.
    let top = u128::from((hi >> 64) as u64) << 64;
    ((mid >> 64) ^ top) ^ times_c(p1) ^ (u128::from(p1) << 64)
}

/// `F(a, b) = R(x·a·b mod g)` for `a = R(a)`, `b = R(b)` (scalar).
fn mul_scalar(a: u128, b: u128) -> u128 {
    let (wa, wb) = (words(a), words(b));
    let v: [u64; 9] = core::array::from_fn(|p| clmul32(wa[p], wb[p]));
    let (lo, hi) = combine(v);
    reduce(lo, hi)
}

/// `R(H·x^-1 mod g)` from `H` in SP 800-38D byte order (as in `x86_64_clmul.rs`).
fn twist(h: &[u8; 16]) -> u128 {
    let r = u128::from_be_bytes(*h);
    let mask = 0u128.wrapping_sub(r >> 127);
    (r << 1) ^ (mask & 0xc200_0000_0000_0000_0000_0000_0000_0001)
}

/// Expands `h` (= E_K(0^128), SP 800-38D byte order): twisted powers `H^1..H^GROUP`, split
/// into position words and classes, laid out as the module docs describe.
pub(crate) fn new(t: Avx2, h: &[u8; 16]) -> Avx2Key {
    let mut pw = [0u128; GROUP + 1];
    pw[1] = twist(h);
    for k in 2..=GROUP {
        // F(R(H^(k-1) x^-1), R(H x^-1)) = R(H^k x^-1).
        pw[k] = mul_scalar(pw[k - 1], pw[1]);
    }
    let mut key = Avx2Key {
        t,
        tab: Table {
            s: [[[0; 4]; 9]; STEPS],
            one: [[0; 4]; 3],
        },
    };
    for (s, step) in key.tab.s.iter_mut().enumerate() {
        for (lane, &b) in LANE_BLOCK.iter().enumerate() {
            let mut w = words(pw[GROUP - (4 * s + b)]);
            for (pos, &wp) in step.iter_mut().zip(&w) {
                pos[lane] = u64::from(wp);
            }
            wipe(&mut w);
        }
    }
    let mut w = words(pw[1]);
    for (k, vec) in key.tab.one.iter_mut().enumerate() {
        for lane in 0..3 {
            vec[lane] = u64::from(w[3 * k + lane]);
        }
    }
    wipe(&mut w);
    wipe(&mut pw);
    key
}

/// The class masks `M_0..M_3` on every 64-bit lane.
#[target_feature(enable = "avx2,avx")]
#[inline]
unsafe fn masks(_t: Avx2) -> [__m256i; 4] {
    // SAFETY: AVX is enabled here; no memory is touched.
    #[allow(unused_unsafe)]
    unsafe {
        let m0 = _mm256_set1_epi64x(M64 as i64);
        [
            m0,
            _mm256_slli_epi64::<1>(m0),
            _mm256_slli_epi64::<2>(m0),
            _mm256_slli_epi64::<3>(m0),
        ]
    }
}

/// Adds to `acc[c]`, lane by lane, the unmasked class-`c` sums `⊕_{i+j≡c} x_i·h_j` for the
/// word in the low dwords of `w` and the word in `h` (one value per lane; both split here
/// into their classes `x_i`, `h_j`). Masking `acc[c]` with `M_c` later gives the carry-less
/// products (module docs).
#[target_feature(enable = "avx2,avx")]
#[inline]
unsafe fn mul_acc(_t: Avx2, m: &[__m256i; 4], acc: &mut [__m256i; 4], w: __m256i, h: &[u64; 4]) {
    // SAFETY: AVX2 and AVX are enabled here; `h` is 32 readable bytes.
    #[allow(unused_unsafe)]
    unsafe {
        let x0 = _mm256_and_si256(w, m[0]);
        let x1 = _mm256_and_si256(w, m[1]);
        let x2 = _mm256_and_si256(w, m[2]);
        let x3 = _mm256_and_si256(w, m[3]);
        let hw = _mm256_loadu_si256(h.as_ptr().cast());
        let h0 = _mm256_and_si256(hw, m[0]);
        let h1 = _mm256_and_si256(hw, m[1]);
        let h2 = _mm256_and_si256(hw, m[2]);
        let h3 = _mm256_and_si256(hw, m[3]);
        // Class c: the XOR of the four products x_i·h_j with i + j ≡ c (mod 4).
        macro_rules! class {
            ($c:expr, $a:expr, $b:expr, $d:expr, $e:expr) => {
                acc[$c] = _mm256_xor_si256(
                    acc[$c],
                    _mm256_xor_si256(
                        _mm256_xor_si256(_mm256_mul_epu32(x0, $a), _mm256_mul_epu32(x1, $b)),
                        _mm256_xor_si256(_mm256_mul_epu32(x2, $d), _mm256_mul_epu32(x3, $e)),
                    ),
                )
            };
        }
        class!(0, h0, h3, h2, h1);
        class!(1, h1, h0, h3, h2);
        class!(2, h2, h1, h0, h3);
        class!(3, h3, h2, h1, h0);
    }
}

/// Adds the class sums of the nine positions of one step (blocks 0,1 byte-reversed in `a`,
/// 2,3 in `b`) to `acc` (`acc[position][class]`).
#[target_feature(enable = "avx2,avx")]
#[inline]
unsafe fn step(t: Avx2, acc: &mut [[__m256i; 4]; 9], a: __m256i, b: __m256i, h: &StepTable) {
    // SAFETY: AVX2 and AVX are enabled here (for the intrinsics and callees).
    #[allow(unused_unsafe)]
    unsafe {
        let m = masks(t);
        // Lanes (blocks 0, 2, 1, 3): low qwords X_0, high qwords X_1, and X_0 ⊕ X_1.
        let q0 = _mm256_unpacklo_epi64(a, b);
        let q1 = _mm256_unpackhi_epi64(a, b);
        let qm = _mm256_xor_si256(q0, q1);
        // For each of the three: in the low dwords the low word, the high word (`>> 32`) and
        // their XOR, i.e. positions 3k, 3k + 1, 3k + 2. (Written out: a loop here is not
        // unrolled, and its counters compete with the vector work for the ALU ports.)
        macro_rules! three {
            ($q:expr, $p:expr) => {
                let hi = _mm256_srli_epi64::<32>($q);
                let mid = _mm256_xor_si256($q, hi);
                mul_acc(t, &m, &mut acc[$p], $q, &h[$p]);
                mul_acc(t, &m, &mut acc[$p + 1], hi, &h[$p + 1]);
                mul_acc(t, &m, &mut acc[$p + 2], mid, &h[$p + 2]);
            };
        }
        three!(q0, 0);
        three!(q1, 3);
        three!(qm, 6);
    }
}

/// The carry-less position products from their class sums: `⊕_c (acc[c] & M_c)`.
#[target_feature(enable = "avx2,avx")]
#[inline]
unsafe fn mask_classes(t: Avx2, acc: &[__m256i; 4]) -> __m256i {
    // SAFETY: AVX2 and AVX are enabled here; no memory is touched.
    #[allow(unused_unsafe)]
    unsafe {
        let m = masks(t);
        _mm256_or_si256(
            _mm256_or_si256(
                _mm256_and_si256(acc[0], m[0]),
                _mm256_and_si256(acc[1], m[1]),
            ),
            _mm256_or_si256(
                _mm256_and_si256(acc[2], m[2]),
                _mm256_and_si256(acc[3], m[3]),
            ),
        )
    }
}

/// XOR of the four 64-bit lanes of `a` and of `b`.
#[target_feature(enable = "avx2,avx")]
#[inline]
unsafe fn lane_sums(_t: Avx2, a: __m256i, b: __m256i) -> (u64, u64) {
    // SAFETY: AVX2 and AVX are enabled here; no memory is touched.
    #[allow(unused_unsafe)]
    unsafe {
        // [a0⊕a1, b0⊕b1, a2⊕a3, b2⊕b3], then the two 128-bit halves.
        let t = _mm256_xor_si256(_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b));
        let s = _mm_xor_si128(_mm256_castsi256_si128(t), _mm256_extracti128_si256::<1>(t));
        (
            _mm_cvtsi128_si64(s) as u64,
            _mm_cvtsi128_si64(_mm_unpackhi_epi64(s, s)) as u64,
        )
    }
}

/// One aggregated group: `blocks` holds `4·n` blocks, multiplied by the powers of the table's
/// steps `STEPS - n ..`; `y = R(Y)` is added to the first block. Returns `R` of
/// `(Y ⊕ X_1)·H^(4n) ⊕ X_2·H^(4n-1) ⊕ … ⊕ X_4n·H`.
#[target_feature(enable = "avx2,avx")]
unsafe fn group(t: Avx2, tab: &Table, y: u128, blocks: &[u8]) -> u128 {
    let n = blocks.len() / 64;
    debug_assert!(blocks.len() == 64 * n && (1..=STEPS).contains(&n));
    // SAFETY: AVX2 and AVX are enabled here; each chunk is 64 readable bytes, read by two
    // unaligned 32-byte loads.
    #[allow(unused_unsafe)]
    unsafe {
        // `vpshufb` index that reverses the bytes of each 128-bit half.
        let bsw = _mm256_setr_epi8(
            15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7,
            6, 5, 4, 3, 2, 1, 0,
        );
        let mut yv = _mm256_set_epi64x(0, 0, (y >> 64) as u64 as i64, y as u64 as i64);
        let mut acc = [[_mm256_setzero_si256(); 4]; 9];
        for (c, h) in blocks.chunks_exact(64).zip(&tab.s[STEPS - n..]) {
            let a = _mm256_shuffle_epi8(_mm256_loadu_si256(c.as_ptr().cast()), bsw);
            let b = _mm256_shuffle_epi8(_mm256_loadu_si256(c.as_ptr().add(32).cast()), bsw);
            step(t, &mut acc, _mm256_xor_si256(a, yv), b, h);
            yv = _mm256_setzero_si256();
        }
        let r = acc.map(|a| mask_classes(t, &a));
        let mut v = [0u64; 9];
        for i in (0..8).step_by(2) {
            (v[i], v[i + 1]) = lane_sums(t, r[i], r[i + 1]);
        }
        (v[8], _) = lane_sums(t, r[8], _mm256_setzero_si256());
        let (lo, hi) = combine(v);
        reduce(lo, hi)
    }
}

/// Calls of fewer blocks than this take them one at a time ([`single`]).
const SMALL: usize = 3;

/// `R((Y ⊕ X)·H)` for `y = R(Y)` and one block `X`, with the nine positions in the lanes of
/// three registers (`[p_3k, p_3k+1, p_3k+2, 0]`, k = 0, 1, 2) instead of four blocks in the
/// lanes of nine: a third of a four-block step's work, for the one- and two-block calls that
/// short messages and their AAD make.
#[target_feature(enable = "avx2,avx")]
unsafe fn single(t: Avx2, tab: &Table, y: u128, block: &[u8]) -> u128 {
    debug_assert_eq!(block.len(), 16);
    // SAFETY: AVX2 and AVX are enabled here (for the intrinsics and callees); `block` is 16
    // readable bytes; `out` is 32 writable bytes.
    #[allow(unused_unsafe)]
    unsafe {
        let bsw = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        let x = _mm_shuffle_epi8(_mm_loadu_si128(block.as_ptr().cast()), bsw);
        let x = _mm_xor_si128(x, _mm_set_epi64x((y >> 64) as u64 as i64, y as u64 as i64));
        // X_0, X_1 and X_0 ⊕ X_1 in every lane.
        let b0 = _mm256_broadcastq_epi64(x);
        let b1 = _mm256_broadcastq_epi64(_mm_unpackhi_epi64(x, x));
        let bm = _mm256_xor_si256(b0, b1);
        // Per lane `q >> s0 ⊕ q >> s1` (a count of 64 gives 0): `[q, q >> 32, q ⊕ q >> 32, 0]`,
        // whose low dwords are the three positions of `q`.
        let s0 = _mm256_setr_epi64x(0, 32, 0, 64);
        let s1 = _mm256_setr_epi64x(64, 64, 32, 64);
        let m = masks(t);
        let mut v = [0u64; 9];
        for (k, b) in [b0, b1, bm].into_iter().enumerate() {
            let w = _mm256_xor_si256(_mm256_srlv_epi64(b, s0), _mm256_srlv_epi64(b, s1));
            let mut acc = [_mm256_setzero_si256(); 4];
            mul_acc(t, &m, &mut acc, w, &tab.one[k]);
            let mut out = [0u64; 4];
            _mm256_storeu_si256(out.as_mut_ptr().cast(), mask_classes(t, &acc));
            v[3 * k..3 * k + 3].copy_from_slice(&out[..3]);
        }
        let (lo, hi) = combine(v);
        reduce(lo, hi)
    }
}

/// `y ← GHASH_H(y, data)` for whole blocks: groups of [`GROUP`], then one shorter group of
/// the rest (zero blocks in front up to a multiple of four); calls of fewer than [`SMALL`]
/// blocks block by block.
#[target_feature(enable = "avx2,avx")]
unsafe fn update(t: Avx2, tab: &Table, y: &mut [u8; 16], data: &[u8]) {
    let mut acc = u128::from_be_bytes(*y);
    if data.len() < 16 * SMALL {
        for b in data.chunks_exact(16) {
            // SAFETY: AVX2 and AVX are enabled here; `b` is one block.
            acc = unsafe { single(t, tab, acc, b) };
        }
        *y = acc.to_be_bytes();
        return;
    }
    let mut chunks = data.chunks_exact(16 * GROUP);
    for c in &mut chunks {
        // SAFETY: AVX2 and AVX are enabled here; `c` is 4·STEPS blocks.
        acc = unsafe { group(t, tab, acc, c) };
    }
    let rest = chunks.remainder();
    let n = rest.len() / 16;
    if n > 0 {
        let m = n.div_ceil(4) * 4;
        let off = 16 * (m - n);
        let mut buf = [0u8; 16 * GROUP];
        buf[off..off + 16 * n].copy_from_slice(&rest[..16 * n]);
        // Y goes into the first real block, which meets H^n.
        for (b, y) in buf[off..off + 16].iter_mut().zip(acc.to_be_bytes()) {
            *b ^= y;
        }
        // SAFETY: AVX2 and AVX are enabled here; `buf[..16 * m]` is m/4 ≤ STEPS steps.
        acc = unsafe { group(t, tab, 0, &buf[..16 * m]) };
        wipe(&mut buf);
    }
    *y = acc.to_be_bytes();
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::x86_64_clmul::tests::{bytes, check_mv, cross_check, ref_mul, special_keys};
    use super::*;
    use crate::cpu::Features;
    use std::vec::Vec;

    fn token() -> Option<Avx2> {
        let t = Features::hardware().get::<Avx2>();
        if t.is_none() {
            std::eprintln!("ctmul-avx2: CPU lacks AVX2; kernel not tested");
        }
        t
    }

    /// The scalar class multiply against a bit-by-bit carry-less multiply, including the
    /// all-ones operands that put 8 ones in a column.
    #[test]
    fn clmul32_matches_schoolbook() {
        let slow = |x: u32, h: u32| -> u64 {
            (0..32)
                .filter(|i| (h >> i) & 1 == 1)
                .fold(0u64, |acc, i| acc ^ (u64::from(x) << i))
        };
        let r = bytes(3, 8 * 400);
        let mut ops: Vec<u32> = std::vec![0, 1, u32::MAX, 0x8000_0000, 0x5555_5555, 0xaaaa_aaaa];
        ops.extend(
            r.chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap())),
        );
        for (n, &x) in ops.iter().enumerate() {
            for &h in ops.iter().skip(n % 7).step_by(7) {
                assert_eq!(clmul32(x, h), slow(x, h), "{x:#x} {h:#x}");
            }
        }
    }

    /// `F(R(a), R(b)) = R(x·a·b)`: with `b` twisted, `R(a·b)`.
    #[test]
    fn scalar_multiply_matches_reference() {
        for s in 0..100u64 {
            let a: [u8; 16] = bytes(s, 16).try_into().unwrap();
            let h: [u8; 16] = bytes(s + 1000, 16).try_into().unwrap();
            let got = mul_scalar(u128::from_be_bytes(a), twist(&h));
            assert_eq!(got, ref_mul(u128::from_be_bytes(a), u128::from_be_bytes(h)));
        }
        for h in [[0u8; 16], [0xff; 16]] {
            let a = [0xffu8; 16];
            let got = mul_scalar(u128::from_be_bytes(a), twist(&h));
            assert_eq!(got, ref_mul(u128::from_be_bytes(a), u128::from_be_bytes(h)));
        }
    }

    #[test]
    fn mcgrew_viega() {
        let Some(t) = token() else { return };
        check_mv(|h| new(t, h));
    }

    /// Every length 0..=64 blocks (crossing the group of 8 and the step of 4 many times), and
    /// some longer, against the bit-by-bit reference; special keys.
    #[test]
    fn against_reference() {
        let Some(t) = token() else { return };
        let lens: Vec<usize> = (0..=64).chain([100, 257]).collect();
        cross_check(|h| new(t, h), &lens);
        special_keys(|h| new(t, h));
    }

    /// Against the portable ctmul-64 kernel on random H, Y and every length 0..=64 blocks.
    #[test]
    fn against_portable() {
        let Some(t) = token() else { return };
        for blocks in 0..=64usize {
            let seed = 5000 + blocks as u64;
            let h: [u8; 16] = bytes(seed, 16).try_into().unwrap();
            let y0: [u8; 16] = bytes(seed + 1, 16).try_into().unwrap();
            let data = bytes(seed + 2, 16 * blocks);
            let (mut a, mut b) = (y0, y0);
            new(t, &h).update(&mut a, &data);
            super::super::soft::new64(&h).update(&mut b, &data);
            assert_eq!(a, b, "{blocks} blocks");
        }
    }

    /// The table holds the power `H^(GROUP-b)` for block `b` of a group, in its lane.
    #[test]
    fn table_powers() {
        let Some(t) = token() else { return };
        let h: [u8; 16] = bytes(9, 16).try_into().unwrap();
        let k = new(t, &h);
        let hv = u128::from_be_bytes(h);
        let mut pow = hv;
        for e in 1..=GROUP {
            let b = GROUP - e;
            let (s, lane) = (b / 4, LANE_BLOCK.iter().position(|&x| x == b % 4).unwrap());
            // Reassemble w0..w3 from their classes.
            let word = |p: usize| -> u32 {
                assert!(k.tab.s[s][p][lane] >> 32 == 0, "high dword of a lane");
                k.tab.s[s][p][lane] as u32
            };
            let r = u128::from(word(0))
                | (u128::from(word(1)) << 32)
                | (u128::from(word(3)) << 64)
                | (u128::from(word(4)) << 96);
            assert_eq!(words(r), core::array::from_fn(word), "positions of H^{e}");
            // Untwist (multiply by x) as in the clmul kernel's test.
            let carry = 0u128.wrapping_sub(r & 1);
            assert_eq!((r >> 1) ^ (carry & (0xe1 << 120)), pow, "H^{e}");
            pow = ref_mul(pow, hv);
        }
        // `one`: the positions of H^1, three per register.
        let w1 = core::array::from_fn::<u32, 9, _>(|p| k.tab.one[p / 3][p % 3] as u32);
        let top = LANE_BLOCK.iter().position(|&x| x == 3).unwrap();
        let last: [u32; 9] = core::array::from_fn(|p| k.tab.s[STEPS - 1][p][top] as u32);
        assert_eq!(w1, last, "H^1 in `one` and in the last step");
        assert!(k.tab.one.iter().all(|v| v[3] == 0));
    }
}
