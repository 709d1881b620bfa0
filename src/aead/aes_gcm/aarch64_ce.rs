//! Stitched AES-GCM on aarch64: the AES rounds (AESE/AESMC) of 8 counter blocks and the GHASH
//! (PMULL/PMULL2) of 8 ciphertext blocks in one loop, with one reduction per group of 8 blocks
//! (SP 800-38D §6.5 GCTR and §6.4 GHASH over whole groups of the text; the caller does the
//! rest), through `core::arch::aarch64`.
//!
//! It is used when a key pair has both ARMv8 kernels (`armv8-ce` + `pmull`): their two tokens
//! prove the instructions exist, and the kernel reads those kernels' own tables in place: the
//! encryption round keys `k_0..k_Nr` of `src/aes/aarch64_ce.rs` (each a state in FIPS 197 §3.4
//! byte order) and the powers `H^8..H^1` with their Karatsuba folds of
//! `src/ghash/aarch64_pmull.rs`. Nothing is copied or expanded per message.
//!
//! # One group
//! - AES (FIPS 197 §5.1, as in `src/aes/aarch64_ce.rs`): round r < Nr − 1 is
//!   `AESMC(AESE(s, k_r))`, the last `AESE(s, k_{Nr−1}) ⊕ k_Nr`; the keystream's final XOR with
//!   `k_Nr` is folded into the XOR with the data, `c = s ⊕ (k_Nr ⊕ p)`, whose second operand
//!   does not wait for the rounds. Every AESE is followed by its AESMC on the same register (the
//!   pair that Cortex-A and Neoverse cores fuse).
//! - GHASH (SP 800-38D §6.4, unrolled over 8 blocks; the aggregated reduction of Gueron and
//!   Kounavis, "Intel Carry-Less Multiplication Instruction and its Usage for Computing the GCM
//!   Mode", 2014): `Y' = (Y ⊕ X_1)·H^8 ⊕ X_2·H^7 ⊕ … ⊕ X_8·H`. Blocks are bit-reflected with
//!   `RBIT` on each byte, so that the coefficient of x^i sits at bit i of the two 64-bit lanes
//!   (the GHASH kernel's order, where PMULL multiplies plain polynomials). Each product is
//!   Karatsuba's three PMULLs (`lo = a0·b0`, `hi = a1·b1`, `mid = (a0 + a1)(b0 + b1)`), two
//!   blocks' middle products in one PMULL/PMULL2 pair; the 8 products are summed unreduced
//!   (24 PMULLs) and reduced once modulo x^128 + x^7 + x^2 + x + 1 (two PMULLs by 0x87,
//!   x^128 ≡ x^7 + x^2 + x + 1).
//!
//! # The loop
//! The GHASH work of a group is written between the first AES rounds of 8 counter blocks
//! (block pair j after round j, the reduction after round 4), in one basic block with them, so
//! that the PMULLs and XORs can fill the slots between the dependent AESE/AESMC pairs (the
//! compiler's scheduler, and an out-of-order core, reorder them freely). Sealing hashes the
//! ciphertext of the previous group (read back from the buffer just written): the first group
//! runs its AES alone, the last group's GHASH runs alone after the loop. Opening hashes the
//! ciphertext of the group it is decrypting, with no lag.
//!
//! # Counter
//! GCTR increments only the low 32 bits of the counter block, mod 2^32 (`inc32`, SP 800-38D
//! §6.2): its bytes 12..15, big-endian. The counter is kept with each 32-bit lane byte-swapped
//! (`REV32`), so lane 3 is that word as a native integer and a lane addition (`vaddq_u32`,
//! mod 2^32, no carry into lane 2) is exactly `inc32`; another `REV32` gives the block. There
//! is no branch on the counter at all; the kernel is still used only for 96-bit IVs, like the
//! x86_64 stitched kernels (`stitched_seal` in aes_gcm.rs).
//!
//! # Extent
//! [`seal`] and [`open`] run the kernel over the whole groups of the text (at least one, i.e.
//! [`MIN_BYTES`]) and return how many bytes that was; the caller treats the rest (fewer than
//! 8 blocks, the last maybe partial) with the AES and GHASH kernels and `Final`, continuing
//! from the advanced counter and GHASH state.
//!
//! Constant time: AESE, AESMC, PMULL, EOR, RBIT, REV32, EXT, TRN/ZIP, ADD, loads and stores only;
//! no branch or address depends on key, `H`, `Y`, counter or data. The branches depend on Nr
//! and the group count.
//!
//! Speed (reasoned from instruction counts, not measured: qemu says nothing about it). Per
//! group of AES-128 the compiled loop has about 185 vector operations of CTR (80 AESE, 72
//! AESMC, 8 counter adds and REV32s, 16 EORs) and about 85 of GHASH (26 PMULLs, 8 RBITs,
//! about 50 EORs, EXTs and ZIPs), besides loads and stores. The non-stitched path runs the
//! same work as two passes, the second reloading what the first stored, so it costs about
//! the sum. Here an out-of-order core can issue the GHASH operations beside the 8
//! independent AES chains: where AES and PMULL have pipes of their own (or several), a group
//! may cost little more than its CTR part, at best about 1.45× faster for AES-128 (about
//! 1.35× for AES-256, whose CTR part is larger); where one pipe executes all of them, the
//! gain is only the second pass's loads and loop overhead.

use core::arch::aarch64::{
    uint8x16_t, uint32x4_t, uint64x2_t, vaddq_u32, vaeseq_u8, vaesmcq_u8, vdupq_n_u8, vdupq_n_u64,
    veorq_u8, veorq_u64, vextq_u64, vgetq_lane_u64, vld1q_u8, vld1q_u32, vld1q_u64, vmull_high_p64,
    vmull_p64, vrbitq_u8, vreinterpretq_p64_u64, vreinterpretq_u8_u32, vreinterpretq_u8_u64,
    vreinterpretq_u32_u8, vreinterpretq_u64_p128, vrev32q_u8, vst1q_u8, vtrn1q_u64, vtrn2q_u64,
};

use crate::aes::sealed::Cipher;
use crate::cpu::arch::{AesCe, Pmull};
use crate::ghash;
use crate::ghash::aarch64_poly::{Acc, load};

/// Blocks per group: the AES kernel's interleave and the GHASH kernel's aggregation width.
const GROUP: usize = 8;

/// Bytes per group.
const GROUP_BYTES: usize = 16 * GROUP;

/// Texts shorter than one group stay on the non-stitched path. It must exceed `SHORT` of
/// aes_gcm.rs, whose `early_ek` computes `E_K(J0)` only for longer texts (a const assertion
/// there checks it).
pub(super) const MIN_BYTES: usize = GROUP_BYTES;

/// The powers of `H` in the PMULL GHASH kernel's format (`src/ghash/aarch64_pmull.rs`).
struct Powers<'a> {
    /// `h[k]` = H^(8−k) as lanes [x^0..x^63, x^64..x^127]: block k of a group (k = 0..7) is
    /// multiplied by `h[k]`.
    h: &'a [[u64; 2]; GROUP],
    /// `fold[k]` = `h[k][0] ⊕ h[k][1]`, the Karatsuba middle operand; `fold[8]` is padding.
    fold: &'a [u64; GROUP + 1],
}

/// What the kernel reads, borrowed from a key pair that has both ARMv8 kernels.
struct Stitched<'a> {
    a: AesCe,
    p: Pmull,
    /// Encryption round keys `k_0..k_Nr`.
    rk: &'a [[u8; 16]; 15],
    /// Nr: 10, 12 or 14.
    nr: usize,
    pw: Powers<'a>,
}

impl<'a> Stitched<'a> {
    fn new(c: &'a Cipher, g: &'a ghash::Key) -> Option<Self> {
        let (a, rk, nr) = c.armv8_parts()?;
        let (p, h, fold) = g.pmull_parts()?;
        Some(Stitched {
            a,
            p,
            rk,
            nr,
            pw: Powers { h, fold },
        })
    }

    /// Encrypts (`open` false: then hashes the ciphertext written) or decrypts (`open` true:
    /// hashes the ciphertext read) `data` in place from counter block `ctr`, advancing `ctr`
    /// (inc32) and the GHASH value `y` past it. `data` is a whole number of groups, at least
    /// one.
    fn run(&self, open: bool, ctr: &mut [u8; 16], y: &mut [u8; 16], data: &mut [u8]) {
        assert!(data.len() % GROUP_BYTES == 0 && !data.is_empty());
        let (a, p, rk, pw) = (self.a, self.p, self.rk, &self.pw);
        // SAFETY: the tokens prove AES, PMULL and NEON, which the kernels enable; `data` is a
        // whole number of groups (at least one), exclusively borrowed, and the kernels read
        // and write only those bytes, `ctr`, `y` and (reading) the tables in `self`.
        unsafe {
            match (open, self.nr) {
                (false, 10) => seal_groups::<10>(a, p, rk, pw, ctr, y, data),
                (false, 12) => seal_groups::<12>(a, p, rk, pw, ctr, y, data),
                (false, _) => seal_groups::<14>(a, p, rk, pw, ctr, y, data),
                (true, 10) => open_groups::<10>(a, p, rk, pw, ctr, y, data),
                (true, 12) => open_groups::<12>(a, p, rk, pw, ctr, y, data),
                (true, _) => open_groups::<14>(a, p, rk, pw, ctr, y, data),
            }
        }
    }
}

/// The whole groups of `text`, if the stitched kernel runs on it.
fn extent(text: &[u8]) -> usize {
    text.len() - text.len() % GROUP_BYTES
}

/// If `c` and `g` are the ARMv8 AES and PMULL kernels and `text` (the text of a message, from
/// its start) has at least one whole group of 8 blocks: encrypts its whole groups in place from
/// counter block `ctr` (advanced, inc32) and hashes their ciphertext into `y`; returns how many
/// bytes it did (a multiple of 128, or 0).
pub(super) fn seal(
    c: &Cipher,
    g: &ghash::Key,
    ctr: &mut [u8; 16],
    y: &mut [u8; 16],
    text: &mut [u8],
) -> usize {
    let n = extent(text);
    if n < MIN_BYTES {
        return 0;
    }
    match Stitched::new(c, g) {
        Some(s) => {
            s.run(false, ctr, y, &mut text[..n]);
            n
        }
        None => 0,
    }
}

/// As [`seal`], for decryption: hashes the ciphertext of each group, then decrypts it in place.
pub(super) fn open(
    c: &Cipher,
    g: &ghash::Key,
    ctr: &mut [u8; 16],
    y: &mut [u8; 16],
    text: &mut [u8],
) -> usize {
    let n = extent(text);
    if n < MIN_BYTES {
        return 0;
    }
    match Stitched::new(c, g) {
        Some(s) => {
            s.run(true, ctr, y, &mut text[..n]);
            n
        }
        None => 0,
    }
}

/// Runs `$body` with `$r` = 0, 1, …, 14 for each value below `$n`: unrolled whatever the
/// optimiser decides, so each round key stays in its register and the `if`s on `$r` in the
/// body are resolved at compile time.
macro_rules! unroll {
    ($r:ident < $n:expr => $body:block) => {
        unroll!(@ $r, $n, $body; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14)
    };
    (@ $r:ident, $n:expr, $body:block; $($i:literal)*) => {
        $({
            let $r: usize = $i;
            if $r < $n $body
        })*
    };
}

/// Lane 0 of `a` times lane 0 of `b` (PMULL).
#[inline]
#[target_feature(enable = "aes,neon")]
unsafe fn clmul_lo(_p: Pmull, a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
    // SAFETY: the token proves PMULL and NEON; register operations only.
    unsafe { vreinterpretq_u64_p128(vmull_p64(vgetq_lane_u64::<0>(a), vgetq_lane_u64::<0>(b))) }
}

/// Lane 1 of `a` times lane 1 of `b` (PMULL2).
#[inline]
#[target_feature(enable = "aes,neon")]
unsafe fn clmul_hi(_p: Pmull, a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
    // SAFETY: the token proves PMULL and NEON; register operations only.
    unsafe {
        vreinterpretq_u64_p128(vmull_high_p64(
            vreinterpretq_p64_u64(a),
            vreinterpretq_p64_u64(b),
        ))
    }
}

/// `acc += a·h[k] + b·h[k + 1]`: Karatsuba, with the two middle products in one
/// PMULL/PMULL2 pair.
#[inline]
#[target_feature(enable = "aes,neon")]
unsafe fn mul_pair(
    p: Pmull,
    pw: &Powers<'_>,
    acc: &mut Acc,
    a: uint64x2_t,
    b: uint64x2_t,
    k: usize,
) {
    let (ha, hb, f) = (&pw.h[k], &pw.h[k + 1], &pw.fold[k..k + 2]);
    // SAFETY: the token proves PMULL and NEON; the loads read the 2-word arrays `ha`, `hb`
    // and the 2-word slice `f`.
    unsafe {
        let ha = vld1q_u64(ha.as_ptr());
        let hb = vld1q_u64(hb.as_ptr());
        let fh = vld1q_u64(f.as_ptr());
        acc.lo = veorq_u64(acc.lo, veorq_u64(clmul_lo(p, a, ha), clmul_lo(p, b, hb)));
        acc.hi = veorq_u64(acc.hi, veorq_u64(clmul_hi(p, a, ha), clmul_hi(p, b, hb)));
        // [a0 + a1, b0 + b1] against [fold[k], fold[k + 1]].
        let fab = veorq_u64(vtrn1q_u64(a, b), vtrn2q_u64(a, b));
        acc.mid = veorq_u64(
            acc.mid,
            veorq_u64(clmul_lo(p, fab, fh), clmul_hi(p, fab, fh)),
        );
    }
}

/// Blocks `2j` and `2j + 1` of the group at `c` into `acc`; `Y` is added to block 0 (`j` = 0).
///
/// # Safety
/// `c` is valid for reading 128 bytes; `j < 4`.
#[inline]
#[target_feature(enable = "aes,neon")]
unsafe fn hash_pair(
    p: Pmull,
    pw: &Powers<'_>,
    acc: &mut Acc,
    y: uint64x2_t,
    c: *const u8,
    j: usize,
) {
    // SAFETY: the token proves PMULL and NEON; blocks 2j and 2j + 1 lie in the caller's 128
    // bytes.
    unsafe {
        let mut a = load(c.add(32 * j));
        let b = load(c.add(32 * j + 16));
        if j == 0 {
            a = veorq_u64(a, y);
        }
        mul_pair(p, pw, acc, a, b, 2 * j);
    }
}

/// `Σ lo + Σ mid·x^64 + Σ hi·x^128` (after Karatsuba's correction of `mid`) modulo
/// x^128 + x^7 + x^2 + x + 1.
#[inline]
#[target_feature(enable = "aes,neon")]
unsafe fn reduce(p: Pmull, acc: Acc) -> uint64x2_t {
    // SAFETY: the token proves PMULL and NEON; register operations only.
    unsafe {
        let zero = vdupq_n_u64(0);
        let r = vdupq_n_u64(0x87);
        // The middle term a0·b1 + a1·b0 = mid + lo + hi; the product is d3 d2 d1 d0 with
        // [d0, d1] = lo + [0, m0] and [d2, d3] = hi + [m1, 0].
        let m = veorq_u64(acc.mid, veorq_u64(acc.lo, acc.hi));
        let lo = veorq_u64(acc.lo, vextq_u64::<1>(zero, m));
        let hi = veorq_u64(acc.hi, vextq_u64::<1>(m, zero));
        // d3·x^192 ≡ (d3·0x87)·x^64: at most 63 + 8 bits, into d1 and d2.
        let t = clmul_hi(p, hi, r);
        let lo = veorq_u64(lo, vextq_u64::<1>(zero, t));
        let hi = veorq_u64(hi, vextq_u64::<1>(t, zero));
        // d2·x^128 ≡ d2·0x87, into d0 and d1.
        veorq_u64(lo, clmul_lo(p, hi, r))
    }
}

/// GHASH of the group at `c` alone: `(Y ⊕ X_1)·H^8 ⊕ … ⊕ X_8·H`.
///
/// # Safety
/// `c` is valid for reading 128 bytes.
#[inline]
#[target_feature(enable = "aes,neon")]
unsafe fn hash_group(p: Pmull, pw: &Powers<'_>, y: uint64x2_t, c: *const u8) -> uint64x2_t {
    // SAFETY: the token proves PMULL and NEON; `c` has the 128 bytes `hash_pair` reads.
    unsafe {
        let mut acc = Acc::zero();
        for j in 0..GROUP / 2 {
            hash_pair(p, pw, &mut acc, y, c, j);
        }
        reduce(p, acc)
    }
}

/// Round keys `k_0..=k_NR` in registers (the rest zero and unused).
#[inline(always)]
fn load_keys<const NR: usize>(rk: &[[u8; 16]; 15]) -> [uint8x16_t; 15] {
    // SAFETY: NEON is part of the aarch64 baseline; 16-byte loads of 16-byte arrays.
    unsafe {
        let mut k = [vdupq_n_u8(0); 15];
        unroll!(r < NR + 1 => {
            k[r] = vld1q_u8(rk[r].as_ptr());
        });
        k
    }
}

/// The next 8 counter blocks; `ctr` is the counter block with each 32-bit lane byte-swapped
/// (see the module docs) and advances by 8 (inc32).
#[inline(always)]
fn counters(ctr: &mut uint32x4_t) -> [uint8x16_t; GROUP] {
    // SAFETY: NEON is part of the aarch64 baseline; the loads read 4-word arrays.
    unsafe {
        let mut s = [vdupq_n_u8(0); GROUP];
        for (i, b) in s.iter_mut().enumerate() {
            let inc = vld1q_u32([0, 0, 0, i as u32].as_ptr());
            *b = vrev32q_u8(vreinterpretq_u8_u32(vaddq_u32(*ctr, inc)));
        }
        *ctr = vaddq_u32(*ctr, vld1q_u32([0, 0, 0, GROUP as u32].as_ptr()));
        s
    }
}

/// `c_i = s_i ⊕ (k_last ⊕ m_i)` for the 8 blocks at `d`, in place.
///
/// # Safety
/// `d` is valid for reading and writing 128 bytes.
#[inline(always)]
unsafe fn xor_store(d: *mut u8, s: &[uint8x16_t; GROUP], k_last: uint8x16_t) {
    // SAFETY: NEON is part of the aarch64 baseline; the caller guarantees the 128 bytes.
    unsafe {
        for (i, s) in s.iter().enumerate() {
            let m = vld1q_u8(d.add(16 * i));
            vst1q_u8(d.add(16 * i), veorq_u8(*s, veorq_u8(k_last, m)));
        }
    }
}

/// AES rounds 0..NR−1 of the 8 blocks `$s` (all but the last AddRoundKey: `$s[i] ⊕ k_NR` is
/// the keystream), and, when `$gh` is `Some((p, pw, y, c))`, the GHASH of the group at `c`
/// woven between the first rounds (pair j after round j, the reduction after round 4), its
/// result assigned to `y`. A macro: `#[inline(always)]` is not allowed on `#[target_feature]`
/// fns. Use inside `unsafe` in a fn that enables "aes,neon".
macro_rules! aes_rounds {
    ($nr:expr, $k:expr, $s:ident) => {{
        let k: &[uint8x16_t; 15] = $k;
        unroll!(r < $nr - 1 => {
            for b in $s.iter_mut() {
                *b = vaesmcq_u8(vaeseq_u8(*b, k[r]));
            }
        });
        for b in $s.iter_mut() {
            *b = vaeseq_u8(*b, k[$nr - 1]);
        }
    }};
    ($nr:expr, $k:expr, $s:ident, $p:expr, $pw:expr, $y:ident, $c:expr) => {{
        let k: &[uint8x16_t; 15] = $k;
        let c: *const u8 = $c;
        let mut acc = Acc::zero();
        // Nr − 1 ≥ 9 rounds: the four pairs and the reduction always fit.
        unroll!(r < $nr - 1 => {
            for b in $s.iter_mut() {
                *b = vaesmcq_u8(vaeseq_u8(*b, k[r]));
            }
            if r < GROUP / 2 {
                hash_pair($p, $pw, &mut acc, $y, c, r);
            } else if r == GROUP / 2 {
                $y = reduce($p, acc);
            }
        });
        for b in $s.iter_mut() {
            *b = vaeseq_u8(*b, k[$nr - 1]);
        }
    }};
}

/// Seals `data` (a whole number of groups, at least one) in place: CTR from `ctr`, and GHASH
/// of the ciphertext into `y`, each group's hashed during the next group's AES rounds.
///
/// # Safety
/// `data.len()` is a nonzero multiple of 128; NR is 10, 12 or 14.
#[target_feature(enable = "aes,neon")]
unsafe fn seal_groups<const NR: usize>(
    _a: AesCe,
    p: Pmull,
    rk: &[[u8; 16]; 15],
    pw: &Powers<'_>,
    ctr: &mut [u8; 16],
    y: &mut [u8; 16],
    data: &mut [u8],
) {
    let n = data.len() / GROUP_BYTES;
    let base = data.as_mut_ptr();
    // SAFETY: the token proves AES, PMULL and NEON; group g (g < n) is the 128 bytes at
    // `base + 128 g`, inside `data`; `ctr` and `y` are 16 bytes each.
    unsafe {
        let k = load_keys::<NR>(rk);
        let mut cv = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(ctr.as_ptr())));
        let mut yv = load(y.as_ptr());
        let mut s = counters(&mut cv);
        aes_rounds!(NR, &k, s);
        xor_store(base, &s, k[NR]);
        for g in 1..n {
            let mut s = counters(&mut cv);
            aes_rounds!(NR, &k, s, p, pw, yv, base.add(GROUP_BYTES * (g - 1)));
            xor_store(base.add(GROUP_BYTES * g), &s, k[NR]);
        }
        yv = hash_group(p, pw, yv, base.add(GROUP_BYTES * (n - 1)));
        vst1q_u8(ctr.as_mut_ptr(), vrev32q_u8(vreinterpretq_u8_u32(cv)));
        vst1q_u8(y.as_mut_ptr(), vrbitq_u8(vreinterpretq_u8_u64(yv)));
    }
}

/// Opens `data` (a whole number of groups, at least one) in place: GHASH of each group's
/// ciphertext into `y` during the AES rounds of its keystream, then CTR from `ctr`.
///
/// # Safety
/// As [`seal_groups`].
#[target_feature(enable = "aes,neon")]
unsafe fn open_groups<const NR: usize>(
    _a: AesCe,
    p: Pmull,
    rk: &[[u8; 16]; 15],
    pw: &Powers<'_>,
    ctr: &mut [u8; 16],
    y: &mut [u8; 16],
    data: &mut [u8],
) {
    let n = data.len() / GROUP_BYTES;
    let base = data.as_mut_ptr();
    // SAFETY: as in `seal_groups`.
    unsafe {
        let k = load_keys::<NR>(rk);
        let mut cv = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(ctr.as_ptr())));
        let mut yv = load(y.as_ptr());
        for g in 0..n {
            let d = base.add(GROUP_BYTES * g);
            let mut s = counters(&mut cv);
            aes_rounds!(NR, &k, s, p, pw, yv, d);
            xor_store(d, &s, k[NR]);
        }
        vst1q_u8(ctr.as_mut_ptr(), vrev32q_u8(vreinterpretq_u8_u32(cv)));
        vst1q_u8(y.as_mut_ptr(), vrbitq_u8(vreinterpretq_u8_u64(yv)));
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::stitched_tests::{Rng, against_unstitched, reference, with_keys};
    use super::*;
    use crate::aead::Aes128Gcm;
    use crate::aes::Aes128;
    use crate::aes::sealed::Sealed;
    use crate::cpu::Features;
    use std::vec::Vec;

    const PAIR: &str = "armv8-ce+pmull";

    /// The features of the stitched pair and of two non-stitched ones that share one kernel
    /// with it (without PMULL: `armv8-ce` + `neon-pmull8`; without AES: `bitsliced-neon` +
    /// `pmull`), or `None` on a CPU without the ARMv8 kernels.
    fn features() -> Option<(Features, [Features; 2])> {
        let f = Features::detect();
        if Aes128Gcm::backend_for(f) != PAIR {
            std::eprintln!("stitched armv8-ce+pmull AES-GCM: CPU lacks the kernels; not tested");
            return None;
        }
        let others = [f.without("pmull").unwrap(), f.without("aes").unwrap()];
        for o in others {
            assert_ne!(Aes128Gcm::backend_for(o), PAIR);
        }
        Some((f, others))
    }

    // Seal and open against the non-stitched compositions, each sharing one kernel.
    against_unstitched!(features, PAIR, 0xa64_0000, GROUP_BYTES);

    /// The kernel alone, every key size, from counters whose low word wraps within the call
    /// (inc32 leaves the other 96 bits alone, and the wrap may fall in any block of a group),
    /// against [`reference`]; and what `seal`/`open` report as done.
    #[test]
    fn kernel_inc32() {
        let Some((f, others)) = features() else {
            return;
        };
        let mut rng = Rng(0x6c6d);
        for klen in [16usize, 24, 32] {
            let key = rng.bytes(klen);
            with_keys(f, &key, |c, h, g| {
                let s = Stitched::new(c, g).unwrap();
                let mut cases = Vec::new();
                for wrap_at in 0..=2 * GROUP as u32 {
                    cases.push((0u32.wrapping_sub(wrap_at), 3 * GROUP));
                }
                cases.extend([
                    (2, GROUP),
                    (0xffff_fff8, GROUP),
                    (0xffff_ffff, GROUP),
                    (0x7fff_fffc, 2 * GROUP),
                    (0x1234_56ff, 5 * GROUP),
                    (0xffff_ff00, 40 * GROUP),
                ]);
                for (low, blocks) in cases {
                    let mut ctr: [u8; 16] = rng.bytes(16).try_into().unwrap();
                    ctr[12..].copy_from_slice(&low.to_be_bytes());
                    let y0: [u8; 16] = rng.bytes(16).try_into().unwrap();
                    let pt = rng.bytes(16 * blocks);
                    let (want_c, want_y, want_ctr) = reference(c, h, &ctr, &y0, &pt);
                    for open in [false, true] {
                        let mut buf = if open { want_c.clone() } else { pt.clone() };
                        let (mut y, mut cb) = (y0, ctr);
                        s.run(open, &mut cb, &mut y, &mut buf);
                        let want = if open { &pt } else { &want_c };
                        assert_eq!(&buf, want, "{klen} {low:#x} {blocks} open {open}");
                        assert_eq!(y, want_y, "{klen} {low:#x} {blocks} open {open}: Y");
                        assert_eq!(
                            cb, want_ctr,
                            "{klen} {low:#x} {blocks} open {open}: counter"
                        );
                    }
                }
                // `seal`/`open` do the whole groups only, and nothing for another pair.
                let other_c = Aes128::new_with(others[1], &[1; 16]);
                let other_g = ghash::Key::new(others[0], &h);
                for len in [0usize, 1, 127, 128, 129, 255, 256, 1000] {
                    let want = len / GROUP_BYTES * GROUP_BYTES;
                    let mut buf = std::vec![0u8; len];
                    let (mut ctr, mut y) = ([0u8; 16], [0u8; 16]);
                    assert_eq!(seal(c, &g, &mut ctr, &mut y, &mut buf), want, "{len}");
                    assert_eq!(open(c, &g, &mut ctr, &mut y, &mut buf), want, "{len}");
                    assert_eq!(seal(c, &other_g, &mut ctr, &mut y, &mut buf), 0);
                    assert_eq!(open(other_c.cipher(), &g, &mut ctr, &mut y, &mut buf), 0);
                }
            });
        }
    }
}
