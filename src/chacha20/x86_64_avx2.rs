//! ChaCha20 (RFC 8439 §2.3) on 256-bit AVX2 registers.
//!
//! # Layouts
//! - Vertical (Goll and Gueron, "Vectorizing ChaCha20"), in the assembly kernel
//!   `asm/x86_64/chacha_avx2.S` (its header has the register and frame plan): a register
//!   holds one state word of eight consecutive blocks, 32-bit lane `j` = block `j`, so the
//!   quarter-rounds of RFC 8439 §2.1 need no shuffles. Passes of 16 blocks run two such sets
//!   of eight interleaved: one set alone is four dependency chains per half round and left
//!   the vector ports idle about a fifth of the time. At 16 KiB with AVX-512 masked
//!   (`simdcrypt-speed`, Emerald Rapids, five alternating runs) the compiled eight-block
//!   kernel that did all vertical work before did 3 410–3 490 MB/s, the assembly 4 060–4 140.
//!   32 words do not fit 16 ymm registers, so each set keeps some words in a stack frame and
//!   reads them as memory operands. Eight-block passes take what remains below 16 blocks (8,
//!   or a partial last pass of 5–7 blocks); a last 13–15 blocks take a partial 16-block pass.
//! - Vertical, eight blocks, compiled from the intrinsics below (`vertical_avx2`): for calls
//!   of 5–8 blocks only, such as the AEAD's first call (block 0 and up to seven blocks of
//!   text). The assembly's eight-block pass was faster alone (5 blocks: 1 960–2 030 against
//!   1 820–1 840 MB/s), yet 256- and 320-byte AEAD seals measured 3–11% slower with it, in
//!   each of 11 alternating runs; the cause was not found.
//! - Two blocks per register set, "horizontal": registers `a`, `b`, `c`, `d` hold rows 0–3
//!   of the state matrix, the low 128-bit half for one block and the high half for the next
//!   (counters `c` and `c + 1`). Rotating rows `a`, `c`, `d` by 3, 1, 2 words inside each
//!   half (`vpshufd`) turns the diagonal round into a column round, and back (see
//!   `x86_64_sse2.rs`: row `b`, last written by a quarter-round, stays put).
//!
//! Rotations by 16 and 8 are `vpshufb` byte permutations; by 12 and 7, shifts and an OR.
//!
//! Messages: the vertical kernels for `8k` blocks, or for all of them when 5–7 blocks remain
//! past a multiple of eight (the assembly from 9 blocks on); 1–4 remaining blocks (and short
//! messages, such as the 16- and 64-byte AEAD messages) as one or two horizontal sets.
//!
//! Constant time: additions, XORs, shifts and fixed shuffles; branches and memory offsets
//! depend on the length only.
//!
//! Secrets in memory: the assembly zeroes the part of its stack frame it used (key-word
//! broadcasts, spilled state words) and all ymm registers before it returns, so it needs no
//! stack scrub. As in `x86_64_sse2.rs`, the compiled vertical kernel (which spills state
//! words and key-word broadcasts: 16 words do not fit 16 ymm registers with temporaries) is
//! a never-inlined function followed by `scrub_stack`; the horizontal one spills nothing
//! (checked on the release build, rustc 1.95: no stack access in `horizontal_avx2`; with the
//! scrub no key word was left in the 4 KiB below the caller's stack pointer after the
//! compiled vertical kernel, without it 64).

use core::arch::x86_64::*;

use crate::cpu::arch::Avx2;

// Without `simdcrypt_asm` (non-ELF targets, `none`, `SIMDCRYPT_NO_ASM=1`; see build.rs) the
// compiled eight-block kernel below does all vertical work.
#[cfg(simdcrypt_asm)]
unsafe extern "sysv64" {
    /// XORs the keystream of blocks `state[12]`, `state[12] + 1`, … (mod 2^32) into the
    /// `nblocks` 64-byte blocks at `data`, in place: 16-block passes, then an eight-block
    /// one; a last 9–15 or 1–7 blocks take one more pass that stores only those. Reads
    /// `state` (16 words), never writes it. Needs AVX2 and AVX.
    fn simdcrypt_chacha20_avx2(state: *const [u32; 16], data: *mut u8, nblocks: usize);
}

/// XORs the keystream of blocks `state[12]`, `state[12] + 1`, … into `data` (whole 64-byte
/// blocks, in place) and advances `state[12]` by the block count, wrapping at 2^32.
pub(super) fn xor_blocks(t: Avx2, state: &mut [u32; 16], data: &mut [u8]) {
    debug_assert!(data.len() % 64 == 0);
    let nblocks = data.len() / 64;
    // The vertical kernel for `8k` blocks, or for all of them when 5–7 remain past a
    // multiple of eight (its last pass then stores only those); 1–4 remaining blocks go to
    // the horizontal sets, which finish them sooner than a partial vertical pass.
    let vertical = if nblocks % 8 >= 5 {
        nblocks
    } else {
        nblocks & !7
    };
    let (v, h) = data.split_at_mut(64 * vertical);
    if cfg!(simdcrypt_asm) && vertical > 8 {
        #[cfg(simdcrypt_asm)]
        // SAFETY: the token proves AVX2 and AVX. The kernel reads the 16 words of `state`
        // and reads and writes exactly the `vertical` whole blocks of `v` (exclusively
        // borrowed); it restores rsp, uses only caller-saved registers (checked by the ABI
        // test below) and zeroes the stack it used.
        unsafe {
            simdcrypt_chacha20_avx2(state, v.as_mut_ptr(), vertical)
        };
    } else if vertical > 0 {
        // 5–8 blocks (the AEAD's first call, block 0 and a head of up to seven blocks, is
        // one), or any count without the assembly: the compiled eight-block passes. The
        // assembly's eight-block pass was faster alone, yet AEAD seals of 256 and 320 bytes
        // measured 3–11% slower with it (cause not found).
        // SAFETY: the token proves AVX2 and AVX.
        unsafe { vertical_avx2(t, state, v) };
        // The vertical kernel spills state words; see `scrub_stack`.
        super::x86_64_sse2::scrub_stack::<SCRUB_AVX2>();
    }
    if !h.is_empty() {
        let ctr = state[12].wrapping_add(vertical as u32);
        // SAFETY: the token proves AVX2 and AVX; `h` is 1–4 blocks.
        unsafe { horizontal_avx2(t, state, ctr, h) };
    }
    state[12] = state[12].wrapping_add(nblocks as u32);
}

/// Bytes of stack `scrub_stack` zeroes after [`vertical_avx2`]: its frame (0x2c8 bytes of
/// spill slots in the release build, rustc 1.95) and the 128-byte red zone, with room to spare.
const SCRUB_AVX2: usize = 1280;

// The macros below expand inside `vertical_avx2` and `horizontal_avx2`, in an `unsafe` block
// whose SAFETY comment covers them: AVX/AVX2 intrinsics on registers, loads and stores inside
// `data` and `state`.
// Macros rather than functions: a `#[target_feature]` function cannot be `#[inline(always)]`.

/// `x <<< n` on every 32-bit lane, by shifts.
macro_rules! rotl {
    ($x:expr, $n:literal) => {{
        let x = $x;
        _mm256_or_si256(_mm256_slli_epi32(x, $n), _mm256_srli_epi32(x, 32 - $n))
    }};
}

/// The `vpshufb` masks of the rotations by 16 (byte `i` of each little-endian lane comes from
/// byte `(i - 2) mod 4`) and by 8 (from byte `(i - 1) mod 4`).
static ROT_MASKS: [[u8; 32]; 2] = [
    [
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, //
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
    ],
    [
        3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, //
        3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
    ],
];

/// `x <<< 16` with the mask at `$m` (`vpshufb` with a memory operand).
macro_rules! rot16 {
    ($x:expr, $m:ident) => {
        _mm256_shuffle_epi8($x, _mm256_loadu_si256($m))
    };
}

/// `x <<< 8` with the masks at `$m`.
macro_rules! rot8 {
    ($x:expr, $m:ident) => {
        _mm256_shuffle_epi8($x, _mm256_loadu_si256($m.add(1)))
    };
}

/// Quarter-rounds (RFC 8439 §2.1) on words `(a_k, b_k, c_k, d_k)` of `x`, step by step
/// across them. All four of a half-round together, although 16 words and their temporaries
/// do not fit the 16 ymm registers and the allocator spills more than with two at a time:
/// measured 3 270 against 3 050 MB/s at 16 KiB here. The loop then issues about 9.4 vector
/// instructions per ns, above what independent `vpaddd`s alone reach on this machine (8.5),
/// so it is at the ports' limit; a hand-written loop that keeps 14 words in registers and
/// moves two through memory at fixed points measured the same (3 200–3 240).
macro_rules! quarter {
    ($x:ident, $m:ident, $(($a:literal, $b:literal, $c:literal, $d:literal)),*) => {
        $( $x[$a] = _mm256_add_epi32($x[$a], $x[$b]); )*
        $( $x[$d] = rot16!(_mm256_xor_si256($x[$d], $x[$a]), $m); )*
        $( $x[$c] = _mm256_add_epi32($x[$c], $x[$d]); )*
        $( $x[$b] = rotl!(_mm256_xor_si256($x[$b], $x[$c]), 12); )*
        $( $x[$a] = _mm256_add_epi32($x[$a], $x[$b]); )*
        $( $x[$d] = rot8!(_mm256_xor_si256($x[$d], $x[$a]), $m); )*
        $( $x[$c] = _mm256_add_epi32($x[$c], $x[$d]); )*
        $( $x[$b] = rotl!(_mm256_xor_si256($x[$b], $x[$c]), 7); )*
    };
}

/// `*q ^= v` for 32 bytes at `q`.
macro_rules! xor_into {
    ($q:expr, $v:expr) => {{
        let q = $q.cast::<__m256i>();
        _mm256_storeu_si256(q, _mm256_xor_si256(_mm256_loadu_si256(q), $v));
    }};
}

/// Eight blocks, vertical, counters `$ctr + 0..7`: XORs the keystream of the first `$nblk`
/// (1–8) of them into the `64 * $nblk` bytes at `$p`.
macro_rules! eight_blocks {
    ($state:ident, $ctr:expr, $p:expr, $nblk:expr, $m:ident) => {{
        let p: *mut u8 = $p;
        let nblk: usize = $nblk;
        let mut init = [_mm256_setzero_si256(); 16];
        for (v, w) in init.iter_mut().zip($state.iter()) {
            *v = _mm256_set1_epi32(*w as i32);
        }
        init[12] = _mm256_add_epi32(
            _mm256_set1_epi32($ctr as i32),
            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
        );
        let mut x = init;
        for _ in 0..10 {
            // Columns, then diagonals, all four quarter-rounds of a half-round step by step.
            quarter!(
                x,
                $m,
                (0, 4, 8, 12),
                (1, 5, 9, 13),
                (2, 6, 10, 14),
                (3, 7, 11, 15)
            );
            quarter!(
                x,
                $m,
                (0, 5, 10, 15),
                (1, 6, 11, 12),
                (2, 7, 8, 13),
                (3, 4, 9, 14)
            );
        }
        for (v, i) in x.iter_mut().zip(init.iter()) {
            *v = _mm256_add_epi32(*v, *i);
        }
        // Groups of words (0–7, then 8–15): 32 bytes at offset 32h of each block.
        for h in 0..2 {
            let mut t = [[_mm256_setzero_si256(); 4]; 2];
            for (gg, tg) in t.iter_mut().enumerate() {
                let g = 2 * h + gg;
                let (a, b, c, d) = (x[4 * g], x[4 * g + 1], x[4 * g + 2], x[4 * g + 3]);
                // 4×4 transposes in each half: tg[k] = words 4g..4g+3 of block k (low half)
                // and of block k + 4 (high half).
                let ab_lo = _mm256_unpacklo_epi32(a, b);
                let cd_lo = _mm256_unpacklo_epi32(c, d);
                let ab_hi = _mm256_unpackhi_epi32(a, b);
                let cd_hi = _mm256_unpackhi_epi32(c, d);
                *tg = [
                    _mm256_unpacklo_epi64(ab_lo, cd_lo),
                    _mm256_unpackhi_epi64(ab_lo, cd_lo),
                    _mm256_unpacklo_epi64(ab_hi, cd_hi),
                    _mm256_unpackhi_epi64(ab_hi, cd_hi),
                ];
            }
            for k in 0..4 {
                if k < nblk {
                    let v = _mm256_permute2x128_si256(t[0][k], t[1][k], 0x20);
                    xor_into!(p.add(64 * k + 32 * h), v);
                }
                if k + 4 < nblk {
                    let v = _mm256_permute2x128_si256(t[0][k], t[1][k], 0x31);
                    xor_into!(p.add(64 * (k + 4) + 32 * h), v);
                }
            }
        }
    }};
}

/// A quarter-round on the rows of each of the `N` horizontal sets.
macro_rules! horizontal_round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $n:expr, $m:ident) => {
        for k in 0..$n {
            $a[k] = _mm256_add_epi32($a[k], $b[k]);
            $d[k] = rot16!(_mm256_xor_si256($d[k], $a[k]), $m);
        }
        for k in 0..$n {
            $c[k] = _mm256_add_epi32($c[k], $d[k]);
            $b[k] = rotl!(_mm256_xor_si256($b[k], $c[k]), 12);
        }
        for k in 0..$n {
            $a[k] = _mm256_add_epi32($a[k], $b[k]);
            $d[k] = rot8!(_mm256_xor_si256($d[k], $a[k]), $m);
        }
        for k in 0..$n {
            $c[k] = _mm256_add_epi32($c[k], $d[k]);
            $b[k] = rotl!(_mm256_xor_si256($b[k], $c[k]), 7);
        }
    };
}

/// `N` (1 or 2) horizontal sets of two blocks, counters `$ctr + 0..2N`: XORs the keystream
/// of the first `$nblk` (at most `2N`) of them into the `64 * $nblk` bytes at `$p`.
macro_rules! horizontal {
    ($state:ident, $ctr:expr, $p:expr, $n:expr, $nblk:expr, $m:ident) => {{
        const N: usize = $n;
        let p: *mut u8 = $p;
        let nblk: usize = $nblk;
        let s = $state.as_ptr().cast::<__m128i>();
        let a0 = _mm256_broadcastsi128_si256(_mm_loadu_si128(s));
        let b0 = _mm256_broadcastsi128_si256(_mm_loadu_si128(s.add(1)));
        let c0 = _mm256_broadcastsi128_si256(_mm_loadu_si128(s.add(2)));
        // Row 3 in both halves with word 12 cleared, then each half's counter added.
        let d_nonce = _mm256_and_si256(
            _mm256_broadcastsi128_si256(_mm_loadu_si128(s.add(3))),
            _mm256_setr_epi32(0, -1, -1, -1, 0, -1, -1, -1),
        );
        let mut d0 = [d_nonce; N];
        for (k, d) in d0.iter_mut().enumerate() {
            let c = ($ctr as u32).wrapping_add(2 * k as u32);
            let ctrs = _mm256_setr_epi32(c as i32, 0, 0, 0, c.wrapping_add(1) as i32, 0, 0, 0);
            *d = _mm256_add_epi32(*d, ctrs);
        }
        let (mut a, mut b, mut c, mut d) = ([a0; N], [b0; N], [c0; N], d0);
        for _ in 0..10 {
            horizontal_round!(a, b, c, d, N, $m);
            for k in 0..N {
                a[k] = _mm256_shuffle_epi32(a[k], 0x93);
                c[k] = _mm256_shuffle_epi32(c[k], 0x39);
                d[k] = _mm256_shuffle_epi32(d[k], 0x4e);
            }
            horizontal_round!(a, b, c, d, N, $m);
            for k in 0..N {
                a[k] = _mm256_shuffle_epi32(a[k], 0x39);
                c[k] = _mm256_shuffle_epi32(c[k], 0x93);
                d[k] = _mm256_shuffle_epi32(d[k], 0x4e);
            }
        }
        for k in 0..N {
            let a = _mm256_add_epi32(a[k], a0);
            let b = _mm256_add_epi32(b[k], b0);
            let c = _mm256_add_epi32(c[k], c0);
            let d = _mm256_add_epi32(d[k], d0[k]);
            // Block 2k: the low halves (rows a, b | c, d); block 2k + 1: the high halves.
            for (j, sel) in [(0usize, 0x20), (1, 0x31)] {
                if 2 * k + j < nblk {
                    let q = p.add(64 * (2 * k + j));
                    let (ab, cd) = if sel == 0x20 {
                        (
                            _mm256_permute2x128_si256(a, b, 0x20),
                            _mm256_permute2x128_si256(c, d, 0x20),
                        )
                    } else {
                        (
                            _mm256_permute2x128_si256(a, b, 0x31),
                            _mm256_permute2x128_si256(c, d, 0x31),
                        )
                    };
                    xor_into!(q, ab);
                    xor_into!(q.add(32), cd);
                }
            }
        }
    }};
}

/// The masks' address, hidden from the optimiser (an empty `asm!` returns it): LLVM would
/// otherwise see constant masks and turn the rotation by 16 into two shuffles (`vpshuflw` +
/// `vpshufhw`) instead of one `vpshufb` with a memory operand.
fn masks() -> *const __m256i {
    let mut m = ROT_MASKS.as_ptr().cast::<__m256i>();
    // SAFETY: the template is empty: no instruction runs, the register comes back unchanged.
    unsafe {
        core::arch::asm!("/* {0} */", inout(reg) m, options(pure, readonly, nostack, preserves_flags));
    }
    m
}

/// Eight-block passes over `data` (`8k` blocks, or `8k + 5..=7` with a partial last pass),
/// counters from `state[12]`.
// Intrinsics are safe to call here from Rust 1.87 on, `unsafe` on the MSRV (1.85).
#[allow(unused_unsafe)]
#[inline(never)]
#[target_feature(enable = "avx2,avx")]
unsafe fn vertical_avx2(_t: Avx2, state: &[u32; 16], data: &mut [u8]) {
    let m = masks();
    // SAFETY: AVX and AVX2 intrinsics, which the token proves. Every load and store is 32
    // bytes at offset 64k + 0 or 32 inside a chunk of `data` of at least k + 1 blocks:
    // `chunks_exact_mut(512)` passes store all eight blocks, the last pass only blocks below
    // its own block count. The masks are read from `ROT_MASKS` (2 × 32 bytes).
    unsafe {
        let mut ctr = state[12];
        let mut octs = data.chunks_exact_mut(512);
        for oct in &mut octs {
            eight_blocks!(state, ctr, oct.as_mut_ptr(), 8, m);
            ctr = ctr.wrapping_add(8);
        }
        let rest = octs.into_remainder();
        let r = rest.len() / 64;
        if r > 0 {
            eight_blocks!(state, ctr, rest.as_mut_ptr(), r, m);
        }
    }
}

/// The 1–4 blocks of `data` as one or two horizontal sets, counters from `ctr`.
// Intrinsics are safe to call here from Rust 1.87 on, `unsafe` on the MSRV (1.85).
#[allow(unused_unsafe)]
#[inline(never)]
#[target_feature(enable = "avx2,avx")]
unsafe fn horizontal_avx2(_t: Avx2, state: &[u32; 16], ctr: u32, data: &mut [u8]) {
    let m = masks();
    // SAFETY: AVX and AVX2 intrinsics, which the token proves. Loads of the four 16-byte rows
    // of `state`; every data load and store is 32 bytes at offset 64k + 0 or 32 with k below
    // the block count of `data`; the masks as above.
    unsafe {
        let r = data.len() / 64;
        let p = data.as_mut_ptr();
        match r {
            1 | 2 => horizontal!(state, ctr, p, 1, r, m),
            3 | 4 => horizontal!(state, ctr, p, 2, r, m),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::x86_64_sse2::check;
    use super::*;
    use crate::cpu::Features;

    #[test]
    fn vectors_and_cross_check() {
        let Some(t) = Features::hardware().get::<Avx2>() else {
            std::eprintln!("avx2: CPU lacks AVX2; kernel not tested");
            return;
        };
        let k = |s: &mut [u32; 16], d: &mut [u8]| xor_blocks(t, s, d);
        check::rfc8439(&k);
        // Every count through two 16-block passes, each 8-block and partial tail after them,
        // and three blocks past.
        check::cross_check(&k, 3 * 16 + 3);
    }

    /// The entry point through the ABI harness: callee-saved registers, stack pointer and
    /// direction flag survive every path; the output matches the portable kernel.
    #[cfg(simdcrypt_asm)]
    #[test]
    fn abi() {
        use crate::abi_test::abi_call;
        let Some(_t) = Features::hardware().get::<Avx2>() else {
            std::eprintln!("avx2: CPU lacks AVX2; kernel not tested");
            return;
        };
        // Every count up to two 16-block passes: 1–7 blocks (a partial eight-block pass) and 8
        // (a full one), which the wrapper does not pass but the contract allows, 9–15 (a
        // partial 16-block pass), 16, 17–31 (a 16-block pass and every tail), 32, then 39, 40
        // and 48 (two 16-block passes and a partial, full or 16-block pass).
        for n in (0usize..=32).chain([39, 40, 48]) {
            let st = check::state(&[n as u8; 32], u32::MAX - 3, &[7; 12]);
            let data = check::bytes(n as u64, 64 * n);
            let mut got = data.clone();
            let args = [st.as_ptr() as usize, got.as_mut_ptr() as usize, n];
            // SAFETY: the token proves the features; the arguments are what `xor_blocks`
            // passes: 16 state words, `n` blocks of data.
            let (_, rep) = unsafe { abi_call(simdcrypt_chacha20_avx2 as *const (), &args) };
            rep.assert_clean();
            let mut want = data;
            super::super::soft::xor_blocks(&mut st.clone(), &mut want);
            assert_eq!(got, want, "{n} blocks");
        }
    }
}
