//! ChaCha20 (RFC 8439 §2.3) on 128-bit registers: SSE2, and SSSE3 where present. One body
//! (the macros below) serves both; they differ only in the 16- and 8-bit rotations:
//!
//! - SSE2 rotates a 32-bit lane by `n` as `(x << n) | (x >> (32 - n))` (three instructions),
//!   except by 16, which is `pshuflw` + `pshufhw` swapping the two 16-bit halves of every lane;
//! - SSSE3 rotates by 16 and 8 with one `pshufb` each (a byte permutation of every lane, the
//!   mask a memory operand), by 12 and 7 as SSE2 does.
//!
//! # Layouts
//! - Four blocks, "vertical" (Goll and Gueron, "Vectorizing ChaCha20"): register `x[i]`
//!   holds state word `i` of four consecutive blocks, lane `j` = block `j`. The quarter-rounds
//!   of RFC 8439 §2.1 then act on whole registers, with no shuffles inside the rounds; word
//!   12's lanes are `counter + 0..3` (32-bit adds: word 12 wraps, word 13 is never touched).
//!   After the final addition (§2.3 step "add the original state") a 4×4 transpose of 32-bit
//!   lanes per group of four words turns `x[4g..4g+4]` into bytes `16g..16g+16` of each of
//!   the four blocks.
//! - One block per set of rows, "horizontal": registers `a`, `b`, `c`, `d` hold rows 0–3 of
//!   the 4×4 state matrix (words 0–3, 4–7, 8–11, 12–15). A column round is one quarter-round
//!   on the four registers. For the diagonal round, `pshufd` rotates rows `a`, `c`, `d` so that column
//!   `j` holds words `(a[j-1], b[j], c[j+1], d[j+2])` (indices mod 4): the diagonals
//!   (3,4,9,14), (0,5,10,15), (1,6,11,12), (2,7,8,13); the inverse rotations undo it. Row
//!   `b`, the last one a quarter-round writes, stays put, which keeps the shuffles off the
//!   dependency chain from one round to the next.
//!   The rows plus the input rows are the 64 keystream bytes in order. Two blocks run as two
//!   independent sets of rows, interleaved for instruction-level parallelism.
//!
//! Messages: four-block passes, the last one storing only three blocks when three remain;
//! a last 1 or 2 blocks (and messages of 1 or 2 blocks, such as the 16- and 64-byte AEAD
//! messages) take the horizontal path.
//!
//! Constant time: additions, XORs, shifts and fixed shuffles only; the only branches and
//! memory offsets depend on the length.
//!
//! # Secrets in memory
//! The source makes no stack copy of the state or keystream: the data is XORed in place from
//! registers. The compiler does: the vertical layout needs more than the 16 xmm registers, so
//! it spills state words and key-word broadcasts. The vertical kernels are therefore separate,
//! never-inlined functions, and their callers run [`scrub_stack`] right after them, which
//! zeroes the stack their frames occupied. Checked on the release build (rustc 1.95): the
//! vertical frames are 0xe8 bytes plus the red zone, and after a call the 4 KiB below the
//! caller's stack pointer held 32 copies of key words without the scrub and none with it. The
//! horizontal kernels (one or two sets of rows) spill nothing.

use core::arch::x86_64::*;

use crate::cpu::arch::{Sse2, Ssse3};

/// XORs the keystream of blocks `state[12]`, `state[12] + 1`, … into `data` (whole 64-byte
/// blocks, in place) and advances `state[12]` by the block count, wrapping at 2^32. SSE2.
pub(super) fn xor_blocks_sse2(t: Sse2, state: &mut [u32; 16], data: &mut [u8]) {
    debug_assert!(data.len() % 64 == 0);
    let nblocks = data.len() / 64;
    let (v, h) = data.split_at_mut(64 * vertical_blocks(nblocks));
    let ctr = state[12].wrapping_add((v.len() / 64) as u32);
    if !v.is_empty() {
        // SAFETY: the token proves SSE2; `v` is `4k` or `4k + 3` blocks.
        unsafe { vertical_sse2(t, state, v) };
        scrub_stack::<SCRUB_SSE>();
    }
    if !h.is_empty() {
        // SAFETY: the token proves SSE2; `h` is 1 or 2 blocks.
        unsafe { horizontal_sse2(t, state, ctr, h) };
    }
    state[12] = state[12].wrapping_add(nblocks as u32);
}

/// As [`xor_blocks_sse2`], with SSSE3 `pshufb` rotations.
pub(super) fn xor_blocks_ssse3(t: Ssse3, state: &mut [u32; 16], data: &mut [u8]) {
    debug_assert!(data.len() % 64 == 0);
    let nblocks = data.len() / 64;
    let (v, h) = data.split_at_mut(64 * vertical_blocks(nblocks));
    let ctr = state[12].wrapping_add((v.len() / 64) as u32);
    if !v.is_empty() {
        // SAFETY: the token proves SSSE3 and SSE2; `v` is `4k` or `4k + 3` blocks.
        unsafe { vertical_ssse3(t, state, v) };
        scrub_stack::<SCRUB_SSE>();
    }
    if !h.is_empty() {
        // SAFETY: the token proves SSSE3 and SSE2; `h` is 1 or 2 blocks.
        unsafe { horizontal_ssse3(t, state, ctr, h) };
    }
    state[12] = state[12].wrapping_add(nblocks as u32);
}

/// How many of `nblocks` blocks the vertical kernels take: whole groups of four, and a last
/// group of three (one four-block pass that stores three costs about what three horizontal
/// sets would, and three sets of rows with their inputs would not fit the registers).
fn vertical_blocks(nblocks: usize) -> usize {
    if nblocks % 4 == 3 {
        nblocks
    } else {
        nblocks & !3
    }
}

/// Bytes of stack [`scrub_stack`] zeroes after the SSE2/SSSE3 vertical kernels: their frames
/// (spill slots, 16-byte aligned) plus the 128-byte red zone below them, with room to spare
/// (the release build's frames were 0xb8 and 0xc8 bytes, rustc 1.95).
const SCRUB_SSE: usize = 512;

// The vertical layout needs all 16 state words and temporaries in registers at once, more
// than the 16 vector registers, so the compiler spills some to the stack: state words in
// mid-round (from which the key can be recomputed) and key-word broadcasts. `scrub_stack`
// (crate::wipe), run right after the kernel, overwrites them; cheap next to the four or more
// blocks a vertical call processes.
pub(super) use crate::wipe::scrub_stack;

// The macros below expand inside the `#[target_feature]` functions at the end of the file, in
// `unsafe` blocks whose SAFETY comments cover them: they call SSE2 (and, for the SSSE3 entry
// point, SSSE3) intrinsics on registers, and load and store only inside `data`, `state` and
// the masks. Macros rather than functions: a `#[target_feature]` function cannot be
// `#[inline(always)]`, and these must not become calls.

/// `x <<< n` on every 32-bit lane, by shifts.
macro_rules! rotl_shift {
    ($x:expr, $n:literal) => {{
        let x = $x;
        _mm_or_si128(_mm_slli_epi32(x, $n), _mm_srli_epi32(x, 32 - $n))
    }};
}

/// SSE2 `x <<< 16`: swap the 16-bit halves of each lane (0xb1 = word order 1, 0, 3, 2).
/// (`$m`, in place of the SSSE3 masks, is `()`.)
macro_rules! rot16_sse2 {
    ($x:expr, $m:ident) => {{
        let () = $m;
        _mm_shufflehi_epi16(_mm_shufflelo_epi16($x, 0xb1), 0xb1)
    }};
}

macro_rules! rot8_sse2 {
    ($x:expr, $m:ident) => {{
        let () = $m;
        rotl_shift!($x, 8)
    }};
}

/// The SSSE3 `pshufb` masks of `x <<< 16` (byte `i` of a little-endian lane comes from byte
/// `(i - 2) mod 4`) and `x <<< 8` (from byte `(i - 1) mod 4`), 16-byte aligned so that
/// `pshufb` can take them as a memory operand.
#[repr(align(16))]
#[derive(Clone)]
struct Masks([[u8; 16]; 2]);
static ROT_MASKS: Masks = Masks([
    [2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13],
    [3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14],
]);

/// SSSE3 `x <<< 16` and `x <<< 8` with the masks at `$m` (see [`ROT_MASKS`]).
macro_rules! rot16_ssse3 {
    ($x:expr, $m:ident) => {
        _mm_shuffle_epi8($x, _mm_load_si128($m))
    };
}

macro_rules! rot8_ssse3 {
    ($x:expr, $m:ident) => {
        _mm_shuffle_epi8($x, _mm_load_si128($m.add(1)))
    };
}

/// Two quarter-rounds (RFC 8439 §2.1) on the words `(a_k, b_k, c_k, d_k)` of `x`, step by
/// step across the two so that independent instructions sit next to each other. Two, not
/// four: their eight words and the temporaries fit the 16 xmm registers, and the order of the
/// pairs in a double round (`four_blocks!`) lets the register allocator keep the rest parked.
macro_rules! quarter2 {
    ($x:ident, $r16:ident, $r8:ident, $m:ident, $(($a:literal, $b:literal, $c:literal, $d:literal)),*) => {
        $( $x[$a] = _mm_add_epi32($x[$a], $x[$b]); )*
        $( $x[$d] = $r16!(_mm_xor_si128($x[$d], $x[$a]), $m); )*
        $( $x[$c] = _mm_add_epi32($x[$c], $x[$d]); )*
        $( $x[$b] = rotl_shift!(_mm_xor_si128($x[$b], $x[$c]), 12); )*
        $( $x[$a] = _mm_add_epi32($x[$a], $x[$b]); )*
        $( $x[$d] = $r8!(_mm_xor_si128($x[$d], $x[$a]), $m); )*
        $( $x[$c] = _mm_add_epi32($x[$c], $x[$d]); )*
        $( $x[$b] = rotl_shift!(_mm_xor_si128($x[$b], $x[$c]), 7); )*
    };
}

/// Four blocks in the vertical layout, counters `$ctr + 0..3`: XORs the keystream of the
/// first `$nblk` (3 or 4) of them into the `64 * $nblk` bytes at `$p`.
macro_rules! four_blocks {
    ($state:ident, $ctr:expr, $p:expr, $nblk:expr, $r16:ident, $r8:ident, $m:ident) => {{
        let p: *mut u8 = $p;
        let nblk: usize = $nblk;
        let mut init = [_mm_setzero_si128(); 16];
        for (v, w) in init.iter_mut().zip($state.iter()) {
            *v = _mm_set1_epi32(*w as i32);
        }
        init[12] = _mm_add_epi32(_mm_set1_epi32($ctr as i32), _mm_set_epi32(3, 2, 1, 0));
        let mut x = init;
        for _ in 0..10 {
            // Columns, then diagonals. Each pair shares two `c` words (8–11) with the pair
            // before it, so only two of them change hands between pairs.
            quarter2!(x, $r16, $r8, $m, (0, 4, 8, 12), (1, 5, 9, 13));
            quarter2!(x, $r16, $r8, $m, (2, 6, 10, 14), (3, 7, 11, 15));
            quarter2!(x, $r16, $r8, $m, (0, 5, 10, 15), (1, 6, 11, 12));
            quarter2!(x, $r16, $r8, $m, (2, 7, 8, 13), (3, 4, 9, 14));
        }
        for g in 0..4 {
            let a = _mm_add_epi32(x[4 * g], init[4 * g]);
            let b = _mm_add_epi32(x[4 * g + 1], init[4 * g + 1]);
            let c = _mm_add_epi32(x[4 * g + 2], init[4 * g + 2]);
            let d = _mm_add_epi32(x[4 * g + 3], init[4 * g + 3]);
            // 4×4 transpose: lane j of a, b, c, d → register j (block j, words 4g..4g+3).
            let ab_lo = _mm_unpacklo_epi32(a, b);
            let cd_lo = _mm_unpacklo_epi32(c, d);
            let ab_hi = _mm_unpackhi_epi32(a, b);
            let cd_hi = _mm_unpackhi_epi32(c, d);
            let blk = [
                _mm_unpacklo_epi64(ab_lo, cd_lo),
                _mm_unpackhi_epi64(ab_lo, cd_lo),
                _mm_unpacklo_epi64(ab_hi, cd_hi),
                _mm_unpackhi_epi64(ab_hi, cd_hi),
            ];
            for (j, k) in blk.into_iter().enumerate() {
                if j < nblk {
                    let q = p.add(64 * j + 16 * g).cast::<__m128i>();
                    _mm_storeu_si128(q, _mm_xor_si128(_mm_loadu_si128(q), k));
                }
            }
        }
    }};
}

/// `N` blocks (1 or 2) in the horizontal layout, one set of rows each, interleaved: XORs their
/// keystream into the `64 * N` bytes at `$p`, counters `$ctr + 0..N`.
macro_rules! horizontal {
    ($state:ident, $ctr:expr, $p:expr, $n:expr, $r16:ident, $r8:ident, $m:ident) => {{
        const N: usize = $n;
        let p: *mut u8 = $p;
        let s = $state.as_ptr().cast::<__m128i>();
        let a0 = _mm_loadu_si128(s);
        let b0 = _mm_loadu_si128(s.add(1));
        let c0 = _mm_loadu_si128(s.add(2));
        let mut d0 = [_mm_loadu_si128(s.add(3)); N];
        for (k, d) in d0.iter_mut().enumerate() {
            // Row 3 with word 12 (lane 0) replaced by this block's counter.
            *d = _mm_add_epi32(
                _mm_and_si128(*d, _mm_set_epi32(-1, -1, -1, 0)),
                _mm_cvtsi32_si128(($ctr as u32).wrapping_add(k as u32) as i32),
            );
        }
        let (mut a, mut b, mut c, mut d) = ([a0; N], [b0; N], [c0; N], d0);
        for _ in 0..10 {
            horizontal_round!(a, b, c, d, N, $r16, $r8, $m);
            for k in 0..N {
                a[k] = _mm_shuffle_epi32(a[k], 0x93);
                c[k] = _mm_shuffle_epi32(c[k], 0x39);
                d[k] = _mm_shuffle_epi32(d[k], 0x4e);
            }
            horizontal_round!(a, b, c, d, N, $r16, $r8, $m);
            for k in 0..N {
                a[k] = _mm_shuffle_epi32(a[k], 0x39);
                c[k] = _mm_shuffle_epi32(c[k], 0x93);
                d[k] = _mm_shuffle_epi32(d[k], 0x4e);
            }
        }
        for k in 0..N {
            let rows = [
                _mm_add_epi32(a[k], a0),
                _mm_add_epi32(b[k], b0),
                _mm_add_epi32(c[k], c0),
                _mm_add_epi32(d[k], d0[k]),
            ];
            for (r, v) in rows.into_iter().enumerate() {
                let q = p.add(64 * k + 16 * r).cast::<__m128i>();
                _mm_storeu_si128(q, _mm_xor_si128(_mm_loadu_si128(q), v));
            }
        }
    }};
}

/// A quarter-round on the rows of each of the `N` sets (a column or, after the diagonal
/// shuffle, a diagonal round).
macro_rules! horizontal_round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $n:expr, $r16:ident, $r8:ident, $m:ident) => {
        for k in 0..$n {
            $a[k] = _mm_add_epi32($a[k], $b[k]);
            $d[k] = $r16!(_mm_xor_si128($d[k], $a[k]), $m);
        }
        for k in 0..$n {
            $c[k] = _mm_add_epi32($c[k], $d[k]);
            $b[k] = rotl_shift!(_mm_xor_si128($b[k], $c[k]), 12);
        }
        for k in 0..$n {
            $a[k] = _mm_add_epi32($a[k], $b[k]);
            $d[k] = $r8!(_mm_xor_si128($d[k], $a[k]), $m);
        }
        for k in 0..$n {
            $c[k] = _mm_add_epi32($c[k], $d[k]);
            $b[k] = rotl_shift!(_mm_xor_si128($b[k], $c[k]), 7);
        }
    };
}

/// Four-block passes over `$data` (`4k` blocks, or `4k + 3` with a last pass that stores
/// three), counters from `$state[12]`.
macro_rules! vertical {
    ($state:ident, $data:ident, $r16:ident, $r8:ident, $m:ident) => {{
        let mut ctr = $state[12];
        let mut quads = $data.chunks_exact_mut(256);
        for quad in &mut quads {
            four_blocks!($state, ctr, quad.as_mut_ptr(), 4, $r16, $r8, $m);
            ctr = ctr.wrapping_add(4);
        }
        let rest = quads.into_remainder();
        if !rest.is_empty() {
            four_blocks!(
                $state,
                ctr,
                rest.as_mut_ptr(),
                rest.len() / 64,
                $r16,
                $r8,
                $m
            );
        }
    }};
}

/// The 1 or 2 blocks of `$data`, horizontally, counters from `$ctr`.
macro_rules! horizontal_tail {
    ($state:ident, $ctr:ident, $data:ident, $r16:ident, $r8:ident, $m:ident) => {{
        let p = $data.as_mut_ptr();
        match $data.len() / 64 {
            1 => horizontal!($state, $ctr, p, 1, $r16, $r8, $m),
            2 => horizontal!($state, $ctr, p, 2, $r16, $r8, $m),
            _ => {}
        }
    }};
}

/// The SSSE3 masks' address, hidden from the optimiser (an empty `asm!` returns it): LLVM would
/// otherwise see constant masks and turn the rotation by 16 into two shuffles (`pshuflw` +
/// `pshufhw`) instead of one `pshufb` with a memory operand.
fn masks() -> *const __m128i {
    let mut m = ROT_MASKS.0.as_ptr().cast::<__m128i>();
    // SAFETY: the template is empty: no instruction runs, the register comes back unchanged.
    unsafe {
        core::arch::asm!("/* {0} */", inout(reg) m, options(pure, readonly, nostack, preserves_flags));
    }
    m
}

// The four kernels: the vertical passes (`4k` or `4k + 3` blocks, see `vertical_blocks`) and
// the horizontal tail (1 or 2 blocks), with SSE2 or SSSE3 rotations. The vertical ones are
// apart from the horizontal ones so that only calls with three or more blocks pay for the
// stack scrub (one or two sets of rows fit the 16 registers: no spills), and never inlined so
// that their frames lie where `scrub_stack`'s will.
//
// SAFETY (for the `unsafe` blocks of all four): SSE2 (and SSSE3) intrinsics, which the token
// proves. Every load and store is 16 bytes at an offset below 64 * k + 64 of a chunk of
// `data` holding at least k + 1 blocks (`chunks_exact_mut(256)` for four, the remainder's
// length for a partial pass or the horizontal tail), of `state` (four 16-byte rows), or one
// of the two 16-byte aligned masks.
// Intrinsics are safe to call from Rust 1.87 on, `unsafe` on the MSRV (1.85).

#[allow(unused_unsafe)]
#[inline(never)]
#[target_feature(enable = "sse2")]
unsafe fn vertical_sse2(_t: Sse2, state: &[u32; 16], data: &mut [u8]) {
    // SAFETY: see above.
    unsafe {
        let m = ();
        vertical!(state, data, rot16_sse2, rot8_sse2, m)
    }
}

#[allow(unused_unsafe)]
#[inline(never)]
#[target_feature(enable = "sse2")]
unsafe fn horizontal_sse2(_t: Sse2, state: &[u32; 16], ctr: u32, data: &mut [u8]) {
    // SAFETY: see above.
    unsafe {
        let m = ();
        horizontal_tail!(state, ctr, data, rot16_sse2, rot8_sse2, m)
    }
}

#[allow(unused_unsafe)]
#[inline(never)]
#[target_feature(enable = "ssse3,sse2")]
unsafe fn vertical_ssse3(_t: Ssse3, state: &[u32; 16], data: &mut [u8]) {
    let m = masks();
    // SAFETY: see above.
    unsafe { vertical!(state, data, rot16_ssse3, rot8_ssse3, m) }
}

#[allow(unused_unsafe)]
#[inline(never)]
#[target_feature(enable = "ssse3,sse2")]
unsafe fn horizontal_ssse3(_t: Ssse3, state: &[u32; 16], ctr: u32, data: &mut [u8]) {
    let m = masks();
    // SAFETY: see above.
    unsafe { horizontal_tail!(state, ctr, data, rot16_ssse3, rot8_ssse3, m) }
}

/// Checks shared by the x86_64 ChaCha20 kernels' tests: RFC 8439 vectors and a cross-check
/// against the portable kernel.
#[cfg(test)]
pub(super) mod check {
    extern crate std;
    use std::vec::Vec;

    use super::super::soft;

    /// The RFC 8439 §2.3 state.
    pub(crate) fn state(key: &[u8; 32], counter: u32, nonce: &[u8; 12]) -> [u32; 16] {
        let mut s = [0u32; 16];
        s[..4].copy_from_slice(&soft::SIGMA);
        for i in 0..8 {
            s[4 + i] = u32::from_le_bytes(key[4 * i..4 * i + 4].try_into().unwrap());
        }
        s[12] = counter;
        for i in 0..3 {
            s[13 + i] = u32::from_le_bytes(nonce[4 * i..4 * i + 4].try_into().unwrap());
        }
        s
    }

    fn splitmix(x: &mut u64) -> u64 {
        *x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub(crate) fn bytes(seed: u64, n: usize) -> Vec<u8> {
        let mut s = seed;
        (0..n).map(|_| splitmix(&mut s) as u8).collect()
    }

    /// XORs `kernel`'s keystream into `data` (whole blocks) from a fresh copy of `st`, checks
    /// the counter advanced by the block count and nothing else changed, returns the output.
    fn run(kernel: &dyn Fn(&mut [u32; 16], &mut [u8]), st: &[u32; 16], data: &[u8]) -> Vec<u8> {
        let mut s = *st;
        let mut d = data.to_vec();
        kernel(&mut s, &mut d);
        let mut want = *st;
        want[12] = want[12].wrapping_add((data.len() / 64) as u32);
        assert_eq!(s, want, "state after {} blocks", data.len() / 64);
        d
    }

    /// RFC 8439 §2.3.2 (block function), §2.4.2 (encryption) and A.2 #1 and #3.
    pub(crate) fn rfc8439(kernel: &dyn Fn(&mut [u32; 16], &mut [u8])) {
        let key: [u8; 32] = core::array::from_fn(|i| i as u8);
        // §2.3.2: the keystream of one block.
        let st = state(&key, 1, &[0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0]);
        let want = hex_literal::hex!(
            "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e
             d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"
        );
        assert_eq!(run(kernel, &st, &[0; 64]), want);

        // §2.4.2: 114 bytes, so the first 114 bytes of two blocks.
        let st = state(&key, 1, &[0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 0]);
        let pt = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
        let want = hex_literal::hex!(
            "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b
             f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8
             07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736
             5af90bbf74a35be6b40b8eedf2785e42874d"
        );
        let mut d = [0u8; 128];
        d[..114].copy_from_slice(pt);
        assert_eq!(run(kernel, &st, &d)[..114], want);

        // A.2 #1: all-zero key, nonce and counter.
        let st = state(&[0; 32], 0, &[0; 12]);
        let want = hex_literal::hex!(
            "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7
             da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"
        );
        assert_eq!(run(kernel, &st, &[0; 64]), want);

        // A.2 #3: 127 bytes ("'Twas brillig..."), counter 42.
        let key =
            hex_literal::hex!("1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0");
        let st = state(&key, 42, &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
        let pt = hex_literal::hex!(
            "2754776173206272696c6c69672c20616e642074686520736c6974687920746f
             7665730a446964206779726520616e642067696d626c6520696e207468652077
             6162653a0a416c6c206d696d737920776572652074686520626f726f676f7665
             732c0a416e6420746865206d6f6d65207261746873206f757467726162652e"
        );
        let want = hex_literal::hex!(
            "62e6347f95ed87a45ffae7426f27a1df5fb69110044c0d73118effa95b01e5cf
             166d3df2d721caf9b21e5fb14c616871fd84c54f9d65b283196c7fe4f60553eb
             f39c6402c42234e32a356b3e764312a61a5532055716ead6962568f87d3f3f77
             04c6a8d1bcd1bf4d50d6154b6da731b187b58dfd728afa36757a797ac188d1"
        );
        let mut d = [0u8; 128];
        d[..127].copy_from_slice(&pt);
        assert_eq!(run(kernel, &st, &d)[..127], want);
    }

    /// `kernel` against the portable kernel: random keys, nonces and data, every block count
    /// 0..=`max_blocks`, counters near the 2^32 wrap of word 12, at an unaligned offset, in one
    /// call and split into two calls at every block.
    pub(crate) fn cross_check(kernel: &dyn Fn(&mut [u32; 16], &mut [u8]), max_blocks: usize) {
        let mut seed = 0x0123_4567_89ab_cdef_u64;
        let counters = [
            0u32,
            1,
            0x8000_0000,
            u32::MAX - 20,
            u32::MAX - 7,
            u32::MAX - 1,
            u32::MAX,
        ];
        for n in 0..=max_blocks {
            for (ci, &ctr) in counters.iter().enumerate() {
                let key: [u8; 32] = bytes(splitmix(&mut seed), 32).try_into().unwrap();
                let nonce: [u8; 12] = bytes(splitmix(&mut seed), 12).try_into().unwrap();
                let st = state(&key, ctr, &nonce);
                let off = (n + ci) % 16;
                let mut buf = bytes(splitmix(&mut seed), off + 64 * n);
                let data = buf[off..].to_vec();

                let mut s = st;
                let mut want = data.clone();
                soft::xor_blocks(&mut s, &mut want);
                assert_eq!(
                    run(kernel, &st, &data),
                    want,
                    "{n} blocks, counter {ctr:#x}"
                );

                // Unaligned, in place in a larger buffer.
                let mut s2 = st;
                kernel(&mut s2, &mut buf[off..]);
                assert_eq!(buf[off..], want[..], "{n} blocks at offset {off}");
                assert_eq!(s2, s);

                // Two calls, split at block `cut`, continue the stream.
                if ci == 3 || n <= 20 {
                    let cut = splitmix(&mut seed) as usize % (n + 1);
                    let mut s3 = st;
                    let mut d = data.clone();
                    let (x, y) = d.split_at_mut(64 * cut);
                    kernel(&mut s3, x);
                    kernel(&mut s3, y);
                    assert_eq!(d, want, "{n} blocks split at {cut}");
                    assert_eq!(s3, s);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::check;
    use super::*;
    use crate::cpu::Features;

    #[test]
    fn sse2_vectors_and_cross_check() {
        // SSE2 is part of x86_64, so this always runs.
        let t: Sse2 = Features::hardware().get().expect("x86_64 has SSE2");
        let k = |s: &mut [u32; 16], d: &mut [u8]| xor_blocks_sse2(t, s, d);
        check::rfc8439(&k);
        check::cross_check(&k, 20);
    }

    #[test]
    fn ssse3_vectors_and_cross_check() {
        let Some(t) = Features::hardware().get::<Ssse3>() else {
            std::eprintln!("ssse3: CPU lacks SSSE3; kernel not tested");
            return;
        };
        let k = |s: &mut [u32; 16], d: &mut [u8]| xor_blocks_ssse3(t, s, d);
        check::rfc8439(&k);
        check::cross_check(&k, 20);
    }
}
