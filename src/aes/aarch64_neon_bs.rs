//! Bitsliced AES on aarch64 NEON ("bitsliced-neon"), for aarch64 cores without the ARMv8
//! crypto extensions (Cortex-A53 of a Raspberry Pi 3, Cortex-A72 of a Raspberry Pi 4): the
//! fixsliced algorithm of [`super::fixslice`] on eight blocks per batch, with Rust NEON
//! intrinsics.
//!
//! # Layout
//!
//! A batch of 8 blocks is eight 128-bit registers `s[0..8]`: `s[b]` holds bit `b` of every
//! byte of the 8 blocks. Byte `j = 4c + r` of block `k` (FIPS 197 §3.4: row `r`, column `c`)
//! is bit `k` of byte `j` of each register: the register's bytes are in the block's own byte
//! order, so loading 8 blocks and transposing the 8×8 bit matrix at each byte position
//! (three layers of swap-moves, [`transpose`]) is the whole bitslicing, and its own inverse.
//! Every rotation that MixColumns needs (stored row `r + dr`, column `s + dc` to row `r`,
//! column `s`) and `SR^2` move whole bytes inside the register: one `tbl` with a constant
//! index vector each (`rev32` on 16-bit elements for two rows down in the same column).
//! (The portable layout's odd column rotations cost two shifts, two masks and an OR; here
//! none does.)
//!
//! The rounds are those of [`super::fixslice`] (Adomnicai and Peyrin, TCHES 2021/1):
//! ShiftRows is never applied, round `i` uses the MixColumns variant `M = i mod 4`, the round
//! keys are [`fixslice::round_keys`] (stored as `SR^{-i}(K_i)`, plus 0x63 for `i >= 1`), and
//! the S-box is the shared Boyar–Peralta circuit ([`fixslice::sub_bytes`],
//! [`fixslice::inv_sub_bytes`]). The rounds are unrolled for each Nr (a const generic), so a
//! batch is straight-line code: with 32 vector registers the compiler keeps the state, the
//! S-box temporaries and the permutation indices in registers.
//!
//! # Which operations use it
//!
//! Only the parallel ones: ECB, CTR (and so GCM's counter mode) and CBC decryption, in whole
//! batches, a partial last batch padded with zeros. CBC encryption and IGE are serial (one
//! block at a time) and calls shorter than [`SMALL`] gain nothing from a mostly empty batch:
//! both go to the vector-permute kernel ([`VpaesNeon`], `vpaes-neon`), which this key
//! carries expanded from the same key. [`SMALL`] and the choice of modes come from the
//! llvm-mca model (`scripts/mca`, docs/arm-model.md).
//!
//! Constant time: the state, key and data enter only EOR, AND, shifts by constants and `tbl`
//! byte moves whose indices are constants; no branch or address depends on them. Nr and the
//! public lengths choose the code path. The kernels may spill state words to their stack
//! frames; the wrappers zero that stack after each call ([`scrub_stack`]).

use core::arch::aarch64::{
    uint8x16_t, vandq_u8, vdupq_n_u8, veorq_u8, vld1q_u8, vqtbl1q_u8, vreinterpretq_u8_u16,
    vreinterpretq_u16_u8, vrev32q_u16, vshlq_n_u8, vshrq_n_u8, vst1q_u8,
};
use core::ops::{BitAnd, BitXor};

use super::aarch64_neon::VpaesNeon;
use super::fixslice::{self, MAX_ROUND_KEYS, xtime};
use super::{Kernel, cbc_decrypt_chunks};
use crate::cpu::arch::Neon;
use crate::wipe::{scrub_stack, wipe};

/// Bytes per batch: eight blocks.
const BATCH: usize = 128;

/// Calls shorter than this many bytes, and the last blocks of a call past its whole batches
/// when they are fewer, go to [`VpaesNeon`].
///
/// From the llvm-mca model (`scripts/mca`, AES-128 CTR, cycles per byte; model estimates):
/// a batch costs 128 × the bitsliced figure however few blocks it holds, a block 16 × the
/// `vpaes-neon` one. Cortex-A53: 17.8 against 29.3, a batch costs what 4.9 vpaes blocks do;
/// Cortex-A55: 16.4 against 21.5, 6.1 blocks; Cortex-A57/A72: 9.0 against 19.4, 3.7 blocks.
/// From 6 blocks on the batch wins on A53 and A72 and ties on A55.
const SMALL: usize = 96;

/// Bytes of stack [`scrub_stack`] zeroes after a batch function: their frames may hold
/// spilled state and key words (the largest, measured in the release build for aarch64:
/// 2144 bytes below the saved registers), with room to spare.
const SCRUB: usize = 4096;

/// The round keys, each as eight bitsliced words (word `b`, byte `j`: 0xff if bit `b` of
/// byte `j` of the stored round key is set, else 0; unused keys zero), and Nr.
#[repr(C, align(16))]
#[derive(Clone)]
struct Sched {
    rk: [[[u8; 16]; 8]; MAX_ROUND_KEYS],
    nr: usize,
}

/// A NEON register, with the token that proves NEON is present: every `V` is made inside a
/// function that received the token or from another `V`, so the intrinsics in its operations
/// only run on CPUs with NEON.
#[derive(Clone, Copy)]
#[repr(transparent)]
struct V(uint8x16_t, Neon);

impl BitXor for V {
    type Output = V;
    #[inline(always)]
    fn bitxor(self, o: V) -> V {
        // SAFETY: `self.1` proves NEON.
        V(unsafe { veorq_u8(self.0, o.0) }, self.1)
    }
}

impl BitAnd for V {
    type Output = V;
    #[inline(always)]
    fn bitand(self, o: V) -> V {
        // SAFETY: `self.1` proves NEON.
        V(unsafe { vandq_u8(self.0, o.0) }, self.1)
    }
}

/// The `tbl` index vector that moves, in every register byte `4s + r`, the byte of stored row
/// `r + dr`, column `s + dc` (indices mod 4).
const fn rc_index(dr: usize, dc: usize) -> [u8; 16] {
    let mut idx = [0u8; 16];
    let mut j = 0;
    while j < 16 {
        let (s, r) = (j / 4, j % 4);
        idx[j] = (4 * ((s + dc) % 4) + (r + dr) % 4) as u8;
        j += 1;
    }
    idx
}

/// The `tbl` index vector of `SR^2` (= `SR^{-2}`): rows 1 and 3 move two columns, rows 0
/// and 2 stay.
const fn sr2_index() -> [u8; 16] {
    let mut idx = [0u8; 16];
    let mut j = 0;
    while j < 16 {
        let (s, r) = (j / 4, j % 4);
        idx[j] = if r % 2 == 1 {
            (4 * ((s + 2) % 4) + r) as u8
        } else {
            j as u8
        };
        j += 1;
    }
    idx
}

/// The index vectors, `RC[dr][dc]`, for the compiler to keep in registers.
const RC: [[[u8; 16]; 4]; 4] = {
    let mut t = [[[0u8; 16]; 4]; 4];
    let mut dr = 0;
    while dr < 4 {
        let mut dc = 0;
        while dc < 4 {
            t[dr][dc] = rc_index(dr, dc);
            dc += 1;
        }
        dr += 1;
    }
    t
};
const SR2: [u8; 16] = sr2_index();

impl V {
    /// Byte `idx[j]` moved to byte `j` (every `idx[j] < 16`).
    #[inline(always)]
    fn permute(self, idx: &[u8; 16]) -> V {
        // SAFETY: `self.1` proves NEON; the load reads the 16 bytes of `idx`.
        V(
            unsafe { vqtbl1q_u8(self.0, vld1q_u8(idx.as_ptr())) },
            self.1,
        )
    }

    /// Every bit moved from stored row `r + dr`, column `s + dc` to row `r`, column `s`.
    #[inline(always)]
    fn rc(self, dr: usize, dc: usize) -> V {
        if dr == 2 && dc == 0 {
            // Rows are the bytes of a 32-bit column: swapping its 16-bit halves.
            // SAFETY: `self.1` proves NEON.
            return V(
                unsafe { vreinterpretq_u8_u16(vrev32q_u16(vreinterpretq_u16_u8(self.0))) },
                self.1,
            );
        }
        self.permute(&RC[dr % 4][dc % 4])
    }
}

type State = [V; 8];

/// `s ^= rk` (eight words of one round key).
#[inline(always)]
fn add_round_key(s: &mut State, rk: &[[u8; 16]; 8]) {
    for (x, k) in s.iter_mut().zip(rk) {
        // SAFETY: `x.1` proves NEON; the load reads the 16 bytes of `k`.
        *x = V(unsafe { veorq_u8(x.0, vld1q_u8(k.as_ptr())) }, x.1);
    }
}

/// MixColumns of the state stored as `SR^{-M}` of the true one, as
/// `fixslice::mix_columns`: row `r` becomes `2·(a_r ⊕ a_{r+1}) ⊕ a_{r+1} ⊕ (a_{r+2} ⊕ a_{r+3})`,
/// `a_{r+1}` one row down and `M` columns right, `a_{r+2}` two rows down, `2M` right.
#[inline(always)]
fn mix_columns<const M: usize>(s: &mut State) {
    let a1: State = core::array::from_fn(|b| s[b].rc(1, M));
    let t: State = core::array::from_fn(|b| s[b] ^ a1[b]);
    let x2 = xtime(&t);
    for b in 0..8 {
        s[b] = x2[b] ^ a1[b] ^ t[b].rc(2, 2 * M);
    }
}

/// InvMixColumns in the same stored form: (0e 0b 0d 09) = (02 03 01 01)·(05 00 04 00), so
/// `a_r ⊕ 4·(a_r ⊕ a_{r+2})` then MixColumns (as `fixslice::inv_mix_columns`).
#[inline(always)]
fn inv_mix_columns<const M: usize>(s: &mut State) {
    let u: State = core::array::from_fn(|b| s[b] ^ s[b].rc(2, 2 * M));
    let u4 = xtime(&xtime(&u));
    for b in 0..8 {
        s[b] = s[b] ^ u4[b];
    }
    mix_columns::<M>(s);
}

/// `SR^2`, which takes the stored form after the last round of AES-128 and AES-256
/// (`Nr mod 4 = 2`) to the natural one, and back.
#[inline(always)]
fn shift_rows_2(s: &mut State) {
    for x in s.iter_mut() {
        *x = x.permute(&SR2);
    }
}

/// Middle round `i` (`M = i mod 4`): SubBytes, (ShiftRows skipped), MixColumns, AddRoundKey.
#[inline(always)]
fn round<const M: usize>(s: &mut State, rk: &[[u8; 16]; 8]) {
    fixslice::sub_bytes(s);
    mix_columns::<M>(s);
    add_round_key(s, rk);
}

/// Inverse middle round `i` (`M = i mod 4`).
#[inline(always)]
fn inv_round<const M: usize>(s: &mut State, rk: &[[u8; 16]; 8]) {
    add_round_key(s, rk);
    inv_mix_columns::<M>(s);
    fixslice::inv_sub_bytes(s);
}

/// Encrypts one batch (bitsliced) with `NR` rounds, straight-line.
#[inline(always)]
fn encrypt8<const NR: usize>(k: &Sched, s: &mut State) {
    let rk = &k.rk;
    add_round_key(s, &rk[0]);
    round::<1>(s, &rk[1]);
    round::<2>(s, &rk[2]);
    round::<3>(s, &rk[3]);
    round::<0>(s, &rk[4]);
    round::<1>(s, &rk[5]);
    round::<2>(s, &rk[6]);
    round::<3>(s, &rk[7]);
    round::<0>(s, &rk[8]);
    round::<1>(s, &rk[9]);
    if NR >= 12 {
        round::<2>(s, &rk[10]);
        round::<3>(s, &rk[11]);
    }
    if NR >= 14 {
        round::<0>(s, &rk[12]);
        round::<1>(s, &rk[13]);
    }
    fixslice::sub_bytes(s);
    add_round_key(s, &rk[NR]);
    if NR % 4 == 2 {
        shift_rows_2(s);
    }
}

/// Decrypts one batch (bitsliced): the exact inverse of [`encrypt8`].
#[inline(always)]
fn decrypt8<const NR: usize>(k: &Sched, s: &mut State) {
    let rk = &k.rk;
    if NR % 4 == 2 {
        shift_rows_2(s);
    }
    add_round_key(s, &rk[NR]);
    fixslice::inv_sub_bytes(s);
    if NR >= 14 {
        inv_round::<1>(s, &rk[13]);
        inv_round::<0>(s, &rk[12]);
    }
    if NR >= 12 {
        inv_round::<3>(s, &rk[11]);
        inv_round::<2>(s, &rk[10]);
    }
    inv_round::<1>(s, &rk[9]);
    inv_round::<0>(s, &rk[8]);
    inv_round::<3>(s, &rk[7]);
    inv_round::<2>(s, &rk[6]);
    inv_round::<1>(s, &rk[5]);
    inv_round::<0>(s, &rk[4]);
    inv_round::<3>(s, &rk[3]);
    inv_round::<2>(s, &rk[2]);
    inv_round::<1>(s, &rk[1]);
    add_round_key(s, &rk[0]);
}

/// Swaps bit `i + N` of every byte of `x[a]` with bit `i` of the same byte of `x[b]`, for
/// the bit positions `i` in `m` (those with bit `N` clear).
#[inline(always)]
fn swap_move<const N: i32>(x: &mut State, a: usize, b: usize, m: u8) {
    let t = x[a].1;
    // SAFETY: `t` proves NEON.
    unsafe {
        let d = vandq_u8(veorq_u8(vshrq_n_u8::<N>(x[a].0), x[b].0), vdupq_n_u8(m));
        x[b] = V(veorq_u8(x[b].0, d), t);
        x[a] = V(veorq_u8(x[a].0, vshlq_n_u8::<N>(d)), t);
    }
}

/// Transposes the 8×8 bit matrix (register index, bit index) at every byte position: bit `k`
/// of byte `j` of `x[b]` trades places with bit `b` of byte `j` of `x[k]`. Each layer swaps
/// one bit of the register index with the same bit of the bit index; the layers commute and
/// each is an involution, so this is its own inverse (bitslicing and unbitslicing).
#[inline(always)]
fn transpose(x: &mut State) {
    for (a, b) in [(0, 1), (2, 3), (4, 5), (6, 7)] {
        swap_move::<1>(x, a, b, 0x55);
    }
    for (a, b) in [(0, 2), (1, 3), (4, 6), (5, 7)] {
        swap_move::<2>(x, a, b, 0x33);
    }
    for (a, b) in [(0, 4), (1, 5), (2, 6), (3, 7)] {
        swap_move::<4>(x, a, b, 0x0f);
    }
}

/// The 8 blocks of `blocks`, bitsliced.
#[inline(always)]
fn load(t: Neon, blocks: &[u8; BATCH]) -> State {
    let mut s: State = core::array::from_fn(|k| {
        // SAFETY: `t` proves NEON; the load reads bytes 16k..16k + 16 of the 128.
        V(unsafe { vld1q_u8(blocks[16 * k..].as_ptr()) }, t)
    });
    transpose(&mut s);
    s
}

/// Unbitslices `s` and XORs it into `blocks` (`xor`) or stores it there.
#[inline(always)]
fn store(mut s: State, blocks: &mut [u8; BATCH], xor: bool) {
    transpose(&mut s);
    for (k, x) in s.iter().enumerate() {
        let p = blocks[16 * k..].as_mut_ptr();
        // SAFETY: `x.1` proves NEON; the load and store touch bytes 16k..16k + 16 of the 128.
        unsafe {
            let v = if xor { veorq_u8(vld1q_u8(p), x.0) } else { x.0 };
            vst1q_u8(p, v);
        }
    }
}

/// Runs `f` on every batch of `data` (whole blocks), the last one padded with zeros. One
/// loop and one call site, so that `f` is inlined once (a batch is thousands of
/// instructions) and the loop is the whole kernel (what `scripts/mca` models).
#[inline(always)]
fn batches(data: &mut [u8], mut f: impl FnMut(&mut [u8; BATCH])) {
    let n = data.len() / BATCH;
    let (whole, rest) = data.split_at_mut(n * BATCH);
    let mut buf = [0u8; BATCH];
    buf[..rest.len()].copy_from_slice(rest);
    let mut chunks = whole.chunks_exact_mut(BATCH);
    let tail = usize::from(!rest.is_empty());
    for _ in 0..n + tail {
        match chunks.next() {
            Some(chunk) => f(chunk.try_into().expect("chunks_exact")),
            None => f(&mut buf),
        }
    }
    rest.copy_from_slice(&buf[..rest.len()]);
    wipe(&mut buf);
}

// Never inlined: one symbol per kernel and Nr, which `scripts/mca` models.
#[inline(never)]
#[target_feature(enable = "neon")]
unsafe fn ecb_encrypt<const NR: usize>(t: Neon, k: &Sched, data: &mut [u8]) {
    batches(data, |b| {
        let mut s = load(t, b);
        encrypt8::<NR>(k, &mut s);
        store(s, b, false);
    });
}

// Never inlined: one symbol per kernel and Nr, which `scripts/mca` models.
#[inline(never)]
#[target_feature(enable = "neon")]
unsafe fn ecb_decrypt<const NR: usize>(t: Neon, k: &Sched, data: &mut [u8]) {
    batches(data, |b| {
        let mut s = load(t, b);
        decrypt8::<NR>(k, &mut s);
        store(s, b, false);
    });
}

/// CTR: XORs E(c), E(c + 1), … (mod 2^128) into `data` (whole blocks).
// Never inlined: one symbol per kernel and Nr, which `scripts/mca` models.
#[inline(never)]
#[target_feature(enable = "neon")]
unsafe fn ctr_encrypt<const NR: usize>(t: Neon, k: &Sched, c: u128, data: &mut [u8]) {
    let mut c = c;
    let mut ctrs = [0u8; BATCH];
    batches(data, |b| {
        // The counter is public: building the blocks may depend on it.
        for (i, block) in ctrs.chunks_exact_mut(16).enumerate() {
            block.copy_from_slice(&c.wrapping_add(i as u128).to_be_bytes());
        }
        let mut s = load(t, &ctrs);
        encrypt8::<NR>(k, &mut s);
        store(s, b, true);
        c = c.wrapping_add(8);
    });
}

/// An AES key expanded for the NEON bitsliced kernel, and for [`VpaesNeon`] (serial modes and
/// short calls).
#[derive(Clone)]
pub(crate) struct NeonBs {
    t: Neon,
    k: Sched,
    serial: VpaesNeon,
}

impl NeonBs {
    /// Expands a 16-, 24- or 32-byte key.
    pub(crate) fn new(t: Neon, key: &[u8]) -> Self {
        assert!(matches!(key.len(), 16 | 24 | 32));
        let (mut keys, n) = fixslice::round_keys(key);
        let mut k = Sched {
            rk: [[[0; 16]; 8]; MAX_ROUND_KEYS],
            nr: n - 1,
        };
        // Word b of key i has 0xff at byte j iff bit b of stored byte j is set (without a
        // branch: 0 - bit).
        for (words, key) in k.rk.iter_mut().zip(&keys).take(n) {
            for (b, word) in words.iter_mut().enumerate() {
                for (w, x) in word.iter_mut().zip(key) {
                    *w = 0u8.wrapping_sub((x >> b) & 1);
                }
            }
        }
        wipe(&mut keys);
        NeonBs {
            t,
            k,
            serial: VpaesNeon::new(t, key),
        }
    }

    /// ECB encryption of whole blocks, in batches.
    fn encrypt_bs(&self, data: &mut [u8]) {
        let f = match self.k.nr {
            10 => ecb_encrypt::<10>,
            12 => ecb_encrypt::<12>,
            _ => ecb_encrypt::<14>,
        };
        // SAFETY: the token proves NEON.
        unsafe { f(self.t, &self.k, data) };
        scrub_stack::<SCRUB>();
    }

    /// ECB decryption of whole blocks, in batches.
    fn decrypt_bs(&self, data: &mut [u8]) {
        let f = match self.k.nr {
            10 => ecb_decrypt::<10>,
            12 => ecb_decrypt::<12>,
            _ => ecb_decrypt::<14>,
        };
        // SAFETY: the token proves NEON.
        unsafe { f(self.t, &self.k, data) };
        scrub_stack::<SCRUB>();
    }

    /// CTR over whole blocks, in batches.
    fn ctr_bs(&self, ctr: &mut [u8; 16], data: &mut [u8]) {
        let c = u128::from_be_bytes(*ctr);
        let f = match self.k.nr {
            10 => ctr_encrypt::<10>,
            12 => ctr_encrypt::<12>,
            _ => ctr_encrypt::<14>,
        };
        // SAFETY: the token proves NEON.
        unsafe { f(self.t, &self.k, c, data) };
        scrub_stack::<SCRUB>();
        *ctr = c.wrapping_add((data.len() / 16) as u128).to_be_bytes();
    }
}

impl Drop for NeonBs {
    fn drop(&mut self) {
        wipe(&mut self.k.rk);
        // `serial` wipes its own keys.
    }
}

/// `data` split into the part for the bitsliced kernel (whole batches, and a partial last
/// batch of at least [`SMALL`] bytes) and the rest, for [`VpaesNeon`].
#[inline(always)]
fn split(data: &mut [u8]) -> (&mut [u8], &mut [u8]) {
    let whole = data.len() - data.len() % BATCH;
    let n = if data.len() - whole >= SMALL {
        data.len()
    } else {
        whole
    };
    data.split_at_mut(n)
}

impl Kernel for NeonBs {
    fn encrypt(&self, data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        let (bs, rest) = split(data);
        if !bs.is_empty() {
            self.encrypt_bs(bs);
        }
        self.serial.encrypt(rest);
    }

    fn decrypt(&self, data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        let (bs, rest) = split(data);
        if !bs.is_empty() {
            self.decrypt_bs(bs);
        }
        self.serial.decrypt(rest);
    }

    fn ctr(&self, ctr: &mut [u8; 16], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        let (bs, rest) = split(data);
        if !bs.is_empty() {
            self.ctr_bs(ctr, bs);
        }
        self.serial.ctr(ctr, rest);
    }

    fn cbc_encrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        self.serial.cbc_encrypt(iv, data)
    }

    /// CBC decryption a batch at a time (a last chunk shorter than [`SMALL`] on `vpaes`).
    fn cbc_decrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        if data.len() < SMALL {
            return self.serial.cbc_decrypt(iv, data);
        }
        cbc_decrypt_chunks::<BATCH>(|d| self.decrypt(d), iv, data)
    }

    fn ige_encrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
        self.serial.ige_encrypt(iv, data)
    }

    fn ige_decrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
        self.serial.ige_decrypt(iv, data)
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::fixslice::tests::{Rng, cross_check, known_answers};
    use super::super::soft64::Soft64;
    use super::*;
    use crate::cpu::Features;

    fn token() -> Option<Neon> {
        let t = Features::hardware().get::<Neon>();
        if t.is_none() {
            std::eprintln!("aes bitsliced-neon: CPU has no NEON; kernel not tested");
        }
        t
    }

    /// The bitsliced paths alone, for every length (the `Kernel` impl of [`NeonBs`] sends
    /// short calls and the serial modes to `vpaes-neon`; here CBC encryption and IGE run the
    /// default methods over one-block bitsliced batches).
    struct BsOnly(NeonBs);

    impl Kernel for BsOnly {
        fn encrypt(&self, data: &mut [u8]) {
            self.0.encrypt_bs(data);
        }
        fn decrypt(&self, data: &mut [u8]) {
            self.0.decrypt_bs(data);
        }
        fn ctr(&self, c: &mut [u8; 16], data: &mut [u8]) {
            self.0.ctr_bs(c, data);
        }
    }

    #[test]
    fn fips197_and_sp800_38a() {
        let Some(t) = token() else { return };
        known_answers(|key| NeonBs::new(t, key));
        known_answers(|key| BsOnly(NeonBs::new(t, key)));
    }

    #[test]
    fn cross_check_portable() {
        let Some(t) = token() else { return };
        cross_check(|key| NeonBs::new(t, key), Soft64::new);
        cross_check(|key| BsOnly(NeonBs::new(t, key)), Soft64::new);
    }

    /// Every whole-block length up to 600 bytes, offsets 0-3, counter wraps, against
    /// `Soft64` (`fixslice::tests::lengths_offsets_and_counter_wraps`): the whole kernel and its
    /// bitsliced paths alone.
    #[test]
    fn lengths_offsets_and_counter_wraps() {
        let Some(t) = token() else { return };
        super::super::fixslice::tests::lengths_offsets_and_counter_wraps(
            |key| {
                std::vec![
                    std::boxed::Box::new(NeonBs::new(t, key)) as std::boxed::Box<dyn Kernel>,
                    std::boxed::Box::new(BsOnly(NeonBs::new(t, key))),
                ]
            },
            Soft64::new,
        );
    }

    /// `transpose` against its definition: bit `k` of byte `j` of word `b` is bit `b` of byte
    /// `j` of input `k`; and it is its own inverse.
    #[test]
    fn transpose_is_the_bit_transpose() {
        let Some(t) = token() else { return };
        let mut blocks = [0u8; BATCH];
        Rng(11).fill(&mut blocks);
        let s = load(t, &blocks);
        let mut words = [[0u8; 16]; 8];
        for (w, x) in words.iter_mut().zip(&s) {
            // SAFETY: `t` proves NEON; the store writes the 16 bytes of `w`.
            unsafe { vst1q_u8(w.as_mut_ptr(), x.0) };
        }
        for b in 0..8 {
            for j in 0..16 {
                for k in 0..8 {
                    let want = (blocks[16 * k + j] >> b) & 1;
                    assert_eq!((words[b][j] >> k) & 1, want, "word {b} byte {j} bit {k}");
                }
            }
        }
        let mut back = [0u8; BATCH];
        store(s, &mut back, false);
        assert_eq!(back, blocks);
    }

    /// The `tbl` rotations against their definition on a register of distinct bytes.
    #[test]
    fn rotations_move_the_right_bytes() {
        let Some(t) = token() else { return };
        let bytes: [u8; 16] = core::array::from_fn(|j| j as u8 * 7 + 1);
        // SAFETY: `t` proves NEON; the load reads the 16 bytes of `bytes`.
        let x = V(unsafe { vld1q_u8(bytes.as_ptr()) }, t);
        let get = |v: V| {
            let mut o = [0u8; 16];
            // SAFETY: `t` proves NEON; the store writes the 16 bytes of `o`.
            unsafe { vst1q_u8(o.as_mut_ptr(), v.0) };
            o
        };
        for dr in 0..4 {
            for dc in 0..4 {
                let o = get(x.rc(dr, dc));
                for s in 0..4 {
                    for r in 0..4 {
                        let from = 4 * ((s + dc) % 4) + (r + dr) % 4;
                        assert_eq!(o[4 * s + r], bytes[from], "rc({dr}, {dc}) row {r} col {s}");
                    }
                }
            }
        }
        let o = get({
            let mut s = [x; 8];
            shift_rows_2(&mut s);
            s[0]
        });
        for s in 0..4 {
            for r in 0..4 {
                let from = 4 * ((s + 2 * r) % 4) + r;
                assert_eq!(o[4 * s + r], bytes[from], "SR^2 row {r} col {s}");
            }
        }
    }
}
