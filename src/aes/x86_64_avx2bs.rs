//! Bitsliced AES on AVX2 ("bitsliced-avx2"), for x86_64 CPUs and VMs without AES-NI: the
//! fixsliced core of [`super::fixslice`] on `__m256i` words, each of whose four 64-bit lanes
//! holds an independent batch of four blocks in the layout of [`super::soft64`]. One batch is
//! 16 blocks (256 bytes); lane `g` holds blocks `4g..4g+4`.
//!
//! Only the parallel operations use the vectors: ECB, CTR and CBC decryption. CBC encryption
//! and IGE are serial (one block at a time) and run on the SSSE3 vector-permute kernel
//! (`vpaes-ssse3`, about four times faster there than a one-block bitsliced batch), which
//! this kernel carries with the same key; so do calls of at most eight blocks, for which
//! it beats a mostly empty 16-block batch.
//!
//! The vector word `V` implements [`Word`] with AVX2 instructions: lane rotations by whole
//! bytes and the MixColumns rotations by an even number of columns are single `vpshufb`
//! byte permutations; rotations by an odd number of 4-bit columns use two shifts and, for the
//! second rotation that [`Word::rc`] needs, the identity `near = wrap + 16` (one more byte
//! permutation). The round keys stay as the 64-bit kernel's `[u64; 8]` and are broadcast to
//! the four lanes as each round adds them (`vpbroadcastq` from memory).

use core::arch::x86_64::{
    __m256i, _mm_cvtsi32_si128, _mm256_and_si256, _mm256_loadu_si256, _mm256_or_si256,
    _mm256_permute2x128_si256, _mm256_set_epi64x, _mm256_set1_epi64x, _mm256_shuffle_epi8,
    _mm256_sll_epi64, _mm256_srl_epi64, _mm256_storeu_si256, _mm256_unpackhi_epi64,
    _mm256_unpacklo_epi64, _mm256_xor_si256,
};
use core::ops::{BitAnd, BitOr, BitXor};

use super::fixslice::{self, RoundKey, State, Word, low_cols};
use super::soft64::{self, Soft64};
use super::x86_64_ssse3::VpaesSsse3;
use super::{Kernel, cbc_decrypt_chunks};
use crate::cpu::arch::{Avx2, Ssse3};

/// Bytes per batch: 16 blocks.
const BATCH: usize = 256;
/// Calls of at most this many bytes (eight blocks) go to the SSSE3 kernel: measured here,
/// it does 8 blocks in about the time of one 16-block bitsliced batch.
const SMALL: usize = 128;

/// One AVX2 register of four 64-bit lanes, with the token that proves AVX2 is present: every
/// `V` is made from another `V` or inside a function that received the token, so the
/// intrinsics in its operations below only run on CPUs with AVX2.
#[derive(Clone, Copy)]
#[repr(transparent)]
struct V(__m256i, Avx2);

impl BitXor for V {
    type Output = V;
    #[inline(always)]
    fn bitxor(self, o: V) -> V {
        // SAFETY: `self.1` proves AVX2.
        V(unsafe { _mm256_xor_si256(self.0, o.0) }, self.1)
    }
}

impl BitAnd for V {
    type Output = V;
    #[inline(always)]
    fn bitand(self, o: V) -> V {
        // SAFETY: `self.1` proves AVX2.
        V(unsafe { _mm256_and_si256(self.0, o.0) }, self.1)
    }
}

impl BitOr for V {
    type Output = V;
    #[inline(always)]
    fn bitor(self, o: V) -> V {
        // SAFETY: `self.1` proves AVX2.
        V(unsafe { _mm256_or_si256(self.0, o.0) }, self.1)
    }
}

/// `vpshufb` control that moves byte `f(i)` of every 64-bit lane to byte `i` (`f(i) < 8`).
#[inline(always)]
fn byte_perm(f: impl Fn(u32) -> u32) -> (i64, i64) {
    let mut lo = 0u64;
    for i in 0..8 {
        lo |= u64::from(f(i) & 7) << (8 * i);
    }
    // `vpshufb` indexes bytes within each 128-bit half: the upper lane of a half is 8..16.
    (lo as i64, (lo | 0x0808_0808_0808_0808) as i64)
}

impl V {
    /// Byte `f(i)` of every 64-bit lane moved to byte `i`.
    #[inline(always)]
    fn permute_bytes(self, f: impl Fn(u32) -> u32) -> V {
        let (lo, hi) = byte_perm(f);
        // SAFETY: `self.1` proves AVX2 (and so AVX).
        V(
            unsafe { _mm256_shuffle_epi8(self.0, _mm256_set_epi64x(hi, lo, hi, lo)) },
            self.1,
        )
    }
}

impl Word for V {
    const LANE: u32 = 64;

    #[inline(always)]
    fn mask(self, m: u64) -> V {
        // SAFETY: `self.1` proves AVX2 (and so AVX).
        V(unsafe { _mm256_set1_epi64x(m as i64) }, self.1)
    }

    #[inline(always)]
    fn rotr(self, n: u32) -> V {
        if n == 0 {
            self
        } else if n % 8 == 0 {
            self.permute_bytes(|i| i + n / 8)
        } else {
            self.shr(n) | self.shl(64 - n)
        }
    }

    #[inline(always)]
    fn shl(self, n: u32) -> V {
        // SAFETY: `self.1` proves AVX2; SSE2 is part of x86_64.
        V(
            unsafe { _mm256_sll_epi64(self.0, _mm_cvtsi32_si128(n as i32)) },
            self.1,
        )
    }

    #[inline(always)]
    fn shr(self, n: u32) -> V {
        // SAFETY: `self.1` proves AVX2; SSE2 is part of x86_64.
        V(
            unsafe { _mm256_srl_epi64(self.0, _mm_cvtsi32_si128(n as i32)) },
            self.1,
        )
    }

    #[inline(always)]
    fn rc(self, dr: u32, dc: u32) -> V {
        if dc % 2 == 0 {
            // Whole bytes move: byte 2r + h (row r, columns 2h and 2h + 1) comes from row
            // r + dr, column pair h + dc/2.
            return self.permute_bytes(|i| 2 * (((i >> 1) + dr) % 4) + ((i & 1) + dc / 2) % 2);
        }
        // As the default method, with the near rotation derived from the wrapped one.
        let wrap = ((dr + 3) * 16 + dc * 4) % 64;
        let y = self.rotr(wrap);
        let near = y.rotr(16);
        let m = self.mask(low_cols(64, 4 - dc));
        y ^ ((near ^ y) & m)
    }
}

impl RoundKey<V> for State<u64> {
    /// Adds a 64-bit kernel round key to all four lanes.
    #[inline(always)]
    fn add_to(&self, s: &mut State<V>) {
        for (x, k) in s.iter_mut().zip(self) {
            *x = *x ^ x.mask(*k);
        }
    }
}

/// Loads 16 blocks and bitslices them: lane `g` of word `4h + k` gets half `h` of block
/// `4g + k` (as `soft64` loads one lane), by 4×4 transposes of 64-bit elements.
#[inline(always)]
fn load(t: Avx2, blocks: &[u8; BATCH]) -> State<V> {
    let p = blocks.as_ptr();
    let mut w = [V(
        // SAFETY: `t` proves AVX2.
        unsafe { _mm256_set1_epi64x(0) },
        t,
    ); 8];
    for j in 0..2 {
        // SAFETY: `t` proves AVX2; each load reads bytes `64g + 32j .. + 32` of the 256.
        unsafe {
            // a[g] = block 2j halves 0, 1, block 2j + 1 halves 0, 1 of lane g.
            let a = [0, 1, 2, 3].map(|g| _mm256_loadu_si256(p.add(64 * g + 32 * j).cast()));
            let l01 = _mm256_unpacklo_epi64(a[0], a[1]);
            let h01 = _mm256_unpackhi_epi64(a[0], a[1]);
            let l23 = _mm256_unpacklo_epi64(a[2], a[3]);
            let h23 = _mm256_unpackhi_epi64(a[2], a[3]);
            w[2 * j] = V(_mm256_permute2x128_si256::<0x20>(l01, l23), t);
            w[4 + 2 * j] = V(_mm256_permute2x128_si256::<0x20>(h01, h23), t);
            w[2 * j + 1] = V(_mm256_permute2x128_si256::<0x31>(l01, l23), t);
            w[5 + 2 * j] = V(_mm256_permute2x128_si256::<0x31>(h01, h23), t);
        }
    }
    soft64::bitslice(&mut w);
    w
}

/// The inverse of [`load`].
#[inline(always)]
fn store(mut w: State<V>, blocks: &mut [u8; BATCH]) {
    soft64::unbitslice(&mut w);
    let p = blocks.as_mut_ptr();
    for j in 0..2 {
        let (t0, t1, t2, t3) = (w[2 * j].0, w[4 + 2 * j].0, w[2 * j + 1].0, w[5 + 2 * j].0);
        // SAFETY: `w[0].1` proves AVX2; each store writes bytes `64g + 32j .. + 32` of the 256.
        unsafe {
            let l01 = _mm256_unpacklo_epi64(t0, t1);
            let l23 = _mm256_unpacklo_epi64(t2, t3);
            let h01 = _mm256_unpackhi_epi64(t0, t1);
            let h23 = _mm256_unpackhi_epi64(t2, t3);
            let a = [
                _mm256_permute2x128_si256::<0x20>(l01, l23),
                _mm256_permute2x128_si256::<0x20>(h01, h23),
                _mm256_permute2x128_si256::<0x31>(l01, l23),
                _mm256_permute2x128_si256::<0x31>(h01, h23),
            ];
            for (g, x) in a.into_iter().enumerate() {
                _mm256_storeu_si256(p.add(64 * g + 32 * j).cast(), x);
            }
        }
    }
}

/// Loads 32 blocks as two 16-block batches ([`load`]) and writes them as the eight 512-bit
/// words of the AVX-512 kernel (`src/aes/x86_64_avx512bs.rs`): word `b` is `words[2b]` (the
/// batch of blocks 0..16) followed by `words[2b + 1]` (blocks 16..32).
#[cfg(simdcrypt_asm)]
#[inline(always)]
pub(super) fn load_wide(t: Avx2, blocks: &[u8; 2 * BATCH], words: &mut [__m256i; 16]) {
    for h in 0..2 {
        let half: &[u8; BATCH] = blocks[BATCH * h..BATCH * (h + 1)]
            .try_into()
            .expect("BATCH bytes");
        for (b, w) in load(t, half).into_iter().enumerate() {
            words[2 * b + h] = w.0;
        }
    }
}

/// The inverse of [`load_wide`].
#[cfg(simdcrypt_asm)]
#[inline(always)]
pub(super) fn store_wide(t: Avx2, words: &[__m256i; 16], blocks: &mut [u8; 2 * BATCH]) {
    for h in 0..2 {
        let w: State<V> = core::array::from_fn(|b| V(words[2 * b + h], t));
        let half: &mut [u8; BATCH] = (&mut blocks[BATCH * h..BATCH * (h + 1)])
            .try_into()
            .expect("BATCH bytes");
        store(w, half);
    }
}

/// Runs `f` on every 16-block batch of `data`, the last one padded with zeros.
#[inline(always)]
fn batches(data: &mut [u8], mut f: impl FnMut(&mut [u8; BATCH])) {
    let mut chunks = data.chunks_exact_mut(BATCH);
    for chunk in &mut chunks {
        f(chunk.try_into().expect("chunks_exact"));
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let mut buf = [0u8; BATCH];
        buf[..rest.len()].copy_from_slice(rest);
        f(&mut buf);
        rest.copy_from_slice(&buf[..rest.len()]);
        crate::wipe::wipe(&mut buf);
    }
}

#[target_feature(enable = "avx2,avx")]
unsafe fn encrypt_avx2(t: Avx2, rk: &[State<u64>], data: &mut [u8]) {
    batches(data, |b| {
        let mut s = load(t, b);
        fixslice::encrypt(rk, &mut s);
        store(s, b);
    });
}

#[target_feature(enable = "avx2,avx")]
unsafe fn decrypt_avx2(t: Avx2, rk: &[State<u64>], data: &mut [u8]) {
    batches(data, |b| {
        let mut s = load(t, b);
        fixslice::decrypt(rk, &mut s);
        store(s, b);
    });
}

#[target_feature(enable = "avx2,avx")]
unsafe fn ctr_avx2(t: Avx2, rk: &[State<u64>], ctr: &mut [u8; 16], data: &mut [u8]) {
    let mut c = u128::from_be_bytes(*ctr);
    let mut ks = [0u8; BATCH];
    for chunk in data.chunks_mut(BATCH) {
        // The counter is public: building the blocks may depend on it.
        for (i, b) in ks.chunks_exact_mut(16).enumerate() {
            b.copy_from_slice(&c.wrapping_add(i as u128).to_be_bytes());
        }
        let mut s = load(t, &ks);
        fixslice::encrypt(rk, &mut s);
        store(s, &mut ks);
        for (d, k) in chunk.iter_mut().zip(ks.iter()) {
            *d ^= k;
        }
        c = c.wrapping_add((chunk.len() / 16) as u128);
    }
    *ctr = c.to_be_bytes();
    crate::wipe::wipe(&mut ks);
}

/// An AES key expanded for the AVX2 bitsliced kernel: the 64-bit kernel's key (whose round
/// keys are broadcast to the vector lanes) and the SSSE3 kernel's (serial modes, short calls).
#[derive(Clone)]
pub(crate) struct Avx2Bs {
    t: Avx2,
    soft: Soft64,
    serial: VpaesSsse3,
}

impl Avx2Bs {
    /// The token and the 64-bit kernel's round keys, for the AVX-512 kernel that packs its
    /// batches with [`load_wide`] and reads the same keys.
    #[cfg(simdcrypt_asm)]
    pub(super) fn wide_parts(&self) -> (Avx2, &[State<u64>]) {
        (self.t, self.soft.keys())
    }

    /// Expands a 16-, 24- or 32-byte key.
    pub(crate) fn new(t: Avx2, s: Ssse3, key: &[u8]) -> Self {
        Avx2Bs {
            t,
            soft: Soft64::new(key),
            serial: VpaesSsse3::new(s, key),
        }
    }
}

// Both key schedules are wiped by their own `Drop`.

impl Kernel for Avx2Bs {
    fn encrypt(&self, data: &mut [u8]) {
        if data.len() <= SMALL {
            return self.serial.encrypt(data);
        }
        // SAFETY: `self.t` proves AVX2 and AVX.
        unsafe { encrypt_avx2(self.t, self.soft.keys(), data) }
    }

    fn decrypt(&self, data: &mut [u8]) {
        if data.len() <= SMALL {
            return self.serial.decrypt(data);
        }
        // SAFETY: `self.t` proves AVX2 and AVX.
        unsafe { decrypt_avx2(self.t, self.soft.keys(), data) }
    }

    fn ctr(&self, ctr: &mut [u8; 16], data: &mut [u8]) {
        if data.len() <= SMALL {
            return self.serial.ctr(ctr, data);
        }
        // SAFETY: `self.t` proves AVX2 and AVX.
        unsafe { ctr_avx2(self.t, self.soft.keys(), ctr, data) }
    }

    fn cbc_encrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        self.serial.cbc_encrypt(iv, data)
    }

    /// CBC decryption a batch at a time.
    fn cbc_decrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
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
    use super::super::fixslice::tests::{cross_check, known_answers};
    use super::*;
    use crate::cpu::Features;

    fn tokens() -> Option<(Avx2, Ssse3)> {
        let f = Features::detect();
        Some((f.get::<Avx2>()?, f.get::<Ssse3>()?))
    }

    #[test]
    fn fips197_and_sp800_38a() {
        let Some((t, s)) = tokens() else { return };
        known_answers(|key| Avx2Bs::new(t, s, key));
    }

    #[test]
    fn cross_check_soft64() {
        let Some((t, s)) = tokens() else { return };
        cross_check(|key| Avx2Bs::new(t, s, key), Soft64::new);
    }

    #[test]
    fn load_store_match_soft64_lanes() {
        let Some((t, _)) = tokens() else { return };
        let mut blocks = [0u8; BATCH];
        super::super::fixslice::tests::Rng(5).fill(&mut blocks);
        let w = load(t, &blocks);
        let mut lanes = [[0u64; 4]; 8];
        for (l, x) in lanes.iter_mut().zip(&w) {
            // SAFETY: `t` proves AVX2; the store writes the 32 bytes of `l`.
            unsafe { _mm256_storeu_si256(l.as_mut_ptr().cast(), x.0) };
        }
        for g in 0..4 {
            // Lane g must be exactly soft64's bitsliced blocks 4g..4g+4.
            let want = soft64::pack(&blocks[64 * g..64 * g + 64]);
            for b in 0..8 {
                assert_eq!(lanes[b][g], want[b], "lane {g} word {b}");
            }
        }
        let mut back = [0u8; BATCH];
        store(w, &mut back);
        assert_eq!(back, blocks);
    }
}
