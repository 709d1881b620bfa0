//! AES (FIPS 197) with the ARMv8 Cryptographic Extension: AESE, AESMC, AESD, AESIMC (Arm ARM,
//! DDI 0487, C7.2; pseudocode `AESSubBytes`, `AESShiftRows`, `AESMixColumns` and inverses),
//! through `core::arch::aarch64`.
//!
//! # Instructions and round structure
//! Lane 0 of a 128-bit vector is the first byte of the block, so a 16-byte load gives the state
//! of FIPS 197 §3.4 (byte `r + 4c` = row r, column c), the layout the instructions expect.
//! - `AESE(s, k)` = SubBytes(ShiftRows(s ⊕ k)); `AESMC(s)` = MixColumns(s). FIPS 197 §5.1 starts
//!   with AddRoundKey(k0) and ends a round with AddRoundKey, so round r (0 ≤ r < Nr − 1) here is
//!   `AESMC(AESE(s, k_r))`, the last is `AESE(s, k_{Nr−1}) ⊕ k_Nr`.
//! - `AESD(s, k)` = InvSubBytes(InvShiftRows(s ⊕ k)); `AESIMC(s)` = InvMixColumns(s). With the
//!   equivalent inverse cipher's key schedule (§5.3.5: dk_0 = k_Nr, dk_i = InvMixColumns(k_{Nr−i}),
//!   dk_Nr = k_0), decryption has exactly the shape of encryption.
//!
//! Every AESE is followed directly by its AESMC on the same register (AESD by AESIMC), the pair
//! that Cortex-A and Neoverse cores fuse into one operation.
//!
//! # Parallel and serial modes
//! ECB, CTR and CBC decryption work on 8 independent blocks at a time (then 4, then 1), so 8
//! chains of AESE/AESMC are in flight and the pipeline stays full; the round keys stay in
//! registers (at most 15 + 8 block registers of the 32). CBC encryption and IGE are serial:
//! each block needs the previous output, so those loops keep the keys in registers and feed the
//! previous block's last AESE output straight into the next block's first AESE, with every XOR
//! moved into that AESE's key operand, off the critical path (see [`cbc_enc`]).
//!
//! # Key expansion
//! FIPS 197 §5.2, in 32-bit words, with SubWord computed by AESE on a zero key: the word is
//! copied into all four columns, so ShiftRows (which only moves bytes between columns within a
//! row) leaves the vector unchanged and AESE computes SubBytes of each column. No table is
//! indexed, by key bytes or otherwise.
//!
//! Constant time: no branch or memory index depends on key, data or keystream; the counter's
//! value (public) decides only how a CTR call is split at low-word wraps.

use core::arch::aarch64::{
    uint8x16_t, vaddq_u32, vaesdq_u8, vaeseq_u8, vaesimcq_u8, vaesmcq_u8, vdupq_n_u8, vdupq_n_u32,
    veorq_u8, vgetq_lane_u32, vld1q_u8, vld1q_u32, vreinterpretq_u8_u32, vreinterpretq_u32_u8,
    vrev32q_u8, vst1q_u8,
};

use super::{Kernel, ctr_add};
use crate::cpu::arch::AesCe;
use crate::wipe::wipe;

/// Round constants of FIPS 197 §5.2: x^(i−1) in GF(2^8), for i = 1..10.
const RCON: [u32; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

/// An expanded AES key for the ARMv8 crypto extension.
#[derive(Clone)]
pub(crate) struct AesCeKey {
    t: AesCe,
    /// Encryption round keys k_0..k_Nr, each as the 16 bytes of a state (FIPS 197 §5.2).
    ek: [[u8; 16]; 15],
    /// Decryption round keys of the equivalent inverse cipher (FIPS 197 §5.3.5).
    dk: [[u8; 16]; 15],
    /// Nr: 10, 12 or 14.
    rounds: usize,
}

impl AesCeKey {
    /// Expands `key` (16, 24 or 32 bytes).
    pub(crate) fn new(t: AesCe, key: &[u8]) -> Self {
        assert!(matches!(key.len(), 16 | 24 | 32));
        let mut k = AesCeKey {
            t,
            ek: [[0; 16]; 15],
            dk: [[0; 16]; 15],
            rounds: key.len() / 4 + 6,
        };
        // SAFETY: the token proves the CPU has AES and NEON; `key` has 16, 24 or 32 bytes.
        unsafe { expand(t, key, &mut k.ek, &mut k.dk) };
        k
    }

    /// For the stitched AES-GCM kernel (`src/aead/aes_gcm/aarch64_ce.rs`), which reads the
    /// same schedule: the token, the encryption round keys `k[0..=Nr]` and Nr.
    pub(crate) fn gcm_parts(&self) -> (AesCe, &[[u8; 16]; 15], usize) {
        (self.t, &self.ek, self.rounds)
    }
}

impl Drop for AesCeKey {
    fn drop(&mut self) {
        wipe(&mut self.ek);
        wipe(&mut self.dk);
    }
}

/// Calls `$f::<Nr>` for the key's round count; the one `match` of each call.
macro_rules! by_rounds {
    ($self:ident, $f:ident ( $($arg:expr),* )) => {
        // SAFETY: the token in `$self` proves the CPU has AES and NEON, which `$f` enables;
        // the slices and arrays passed are valid for what `$f` reads and writes (see `$f`).
        unsafe {
            match $self.rounds {
                10 => $f::<10>($self.t, $($arg),*),
                12 => $f::<12>($self.t, $($arg),*),
                _ => $f::<14>($self.t, $($arg),*),
            }
        }
    };
}

impl Kernel for AesCeKey {
    fn encrypt(&self, data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        by_rounds!(self, ecb_enc(&self.ek, data))
    }

    fn decrypt(&self, data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        by_rounds!(self, ecb_dec(&self.dk, data))
    }

    fn ctr(&self, ctr: &mut [u8; 16], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        let mut data = data;
        while !data.is_empty() {
            // The kernel adds to the low 32-bit word only; split where that word wraps (the
            // counter is public, so this branch reveals nothing).
            let low = u32::from_be_bytes([ctr[12], ctr[13], ctr[14], ctr[15]]);
            let room = (1u64 << 32) - u64::from(low);
            let n = ((data.len() / 16) as u64).min(room) as usize;
            let (now, rest) = data.split_at_mut(n * 16);
            by_rounds!(self, ctr32(&self.ek, ctr, now));
            ctr_add(ctr, n as u128);
            data = rest;
        }
    }

    fn cbc_encrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        by_rounds!(self, cbc_enc(&self.ek, iv, data))
    }

    fn cbc_decrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        by_rounds!(self, cbc_dec(&self.dk, iv, data))
    }

    fn ige_encrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        by_rounds!(self, ige_enc(&self.ek, iv, data))
    }

    fn ige_decrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        by_rounds!(self, ige_dec(&self.dk, iv, data))
    }
}

/// SubWord (FIPS 197 §5.2) of `w` (byte 0 = the least significant byte): AESE with a zero round
/// key on `w` in all four columns, where ShiftRows is the identity (see the module docs).
#[target_feature(enable = "aes,neon")]
#[inline]
unsafe fn sub_word(_t: AesCe, w: u32) -> u32 {
    // SAFETY: the caller's token proves AES and NEON; register operations only.
    unsafe {
        let s = vaeseq_u8(vreinterpretq_u8_u32(vdupq_n_u32(w)), vdupq_n_u8(0));
        vgetq_lane_u32::<0>(vreinterpretq_u32_u8(s))
    }
}

/// FIPS 197 §5.2 key expansion into `ek`, and the equivalent inverse cipher's round keys
/// (§5.3.5) into `dk`. Words are little-endian: byte 0 of a word is its least significant byte,
/// so RotWord ([a0, a1, a2, a3] → [a1, a2, a3, a0]) is a right rotation by 8 bits and Rcon's
/// byte goes in the low 8 bits.
///
/// # Safety
/// `key.len()` is 16, 24 or 32.
#[target_feature(enable = "aes,neon")]
unsafe fn expand(t: AesCe, key: &[u8], ek: &mut [[u8; 16]; 15], dk: &mut [[u8; 16]; 15]) {
    let nk = key.len() / 4;
    let nr = nk + 6;
    let mut w = [0u32; 60];
    for (wi, k) in w.iter_mut().zip(key.chunks_exact(4)) {
        *wi = u32::from_le_bytes([k[0], k[1], k[2], k[3]]);
    }
    for i in nk..4 * (nr + 1) {
        let mut temp = w[i - 1];
        // The branches depend on the word index only.
        if i % nk == 0 {
            // SAFETY: the caller's token proves AES and NEON.
            temp = unsafe { sub_word(t, temp) }.rotate_right(8) ^ RCON[i / nk - 1];
        } else if nk > 6 && i % nk == 4 {
            // SAFETY: as above.
            temp = unsafe { sub_word(t, temp) };
        }
        w[i] = w[i - nk] ^ temp;
    }
    for (r, rk) in ek.iter_mut().enumerate().take(nr + 1) {
        for (c, b) in rk.chunks_exact_mut(4).enumerate() {
            b.copy_from_slice(&w[4 * r + c].to_le_bytes());
        }
    }
    wipe(&mut w);
    dk[0] = ek[nr];
    dk[nr] = ek[0];
    for i in 1..nr {
        // SAFETY: the caller's token proves AES and NEON; 16-byte loads and stores within the
        // 16-byte arrays `ek[nr - i]` and `dk[i]`.
        unsafe {
            vst1q_u8(
                dk[i].as_mut_ptr(),
                vaesimcq_u8(vld1q_u8(ek[nr - i].as_ptr())),
            )
        };
    }
}

/// Runs `$body` with `$r` = 0, 1, …, 14 for each value below `$n`: a round loop that is
/// unrolled whatever the optimiser decides, so each round key stays in its register.
macro_rules! for_rounds {
    ($r:ident < $n:expr => $body:block) => {
        for_rounds!(@ $r, $n, $body; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14)
    };
    (@ $r:ident, $n:expr, $body:block; $($i:literal)*) => {
        $({
            let $r: usize = $i;
            if $r < $n $body
        })*
    };
}

/// Round keys 0..=NR from memory into registers (the rest stay zero and unused).
#[target_feature(enable = "aes,neon")]
#[inline]
unsafe fn load_keys<const NR: usize>(_t: AesCe, rk: &[[u8; 16]; 15]) -> [uint8x16_t; 15] {
    // SAFETY: 16-byte loads from the 16-byte arrays `rk[r]`, r ≤ NR ≤ 14.
    unsafe {
        let mut k = [vdupq_n_u8(0); 15];
        for_rounds!(r < NR + 1 => {
            k[r] = vld1q_u8(rk[r].as_ptr());
        });
        k
    }
}

/// Rounds 0..NR−1 of encryption on each block of the array `$s`, without the last
/// AddRoundKey: afterwards `$s[j]` ⊕ k_NR is the ciphertext. Within a round the blocks are
/// independent, so their AESE/AESMC pairs overlap in the pipeline. A macro rather than a
/// function: `#[inline(always)]` is not allowed on `#[target_feature]` functions, and an
/// outlined copy would pass the blocks and keys through memory. Use inside `unsafe` in a
/// function that enables "aes,neon".
macro_rules! enc_pre {
    ($nr:expr, $k:expr, $s:expr) => {{
        let k: &[uint8x16_t; 15] = $k;
        for_rounds!(r < $nr - 1 => {
            for b in $s.iter_mut() {
                *b = vaesmcq_u8(vaeseq_u8(*b, k[r]));
            }
        });
        for b in $s.iter_mut() {
            *b = vaeseq_u8(*b, k[$nr - 1]);
        }
    }};
}

/// As [`enc_pre!`] for decryption with the equivalent inverse cipher's keys.
macro_rules! dec_pre {
    ($nr:expr, $k:expr, $s:expr) => {{
        let k: &[uint8x16_t; 15] = $k;
        for_rounds!(r < $nr - 1 => {
            for b in $s.iter_mut() {
                *b = vaesimcq_u8(vaesdq_u8(*b, k[r]));
            }
        });
        for b in $s.iter_mut() {
            *b = vaesdq_u8(*b, k[$nr - 1]);
        }
    }};
}

/// N blocks from `p`.
///
/// # Safety
/// `p` is valid for reading `16 * N` bytes.
#[inline(always)]
unsafe fn load<const N: usize>(p: *const u8) -> [uint8x16_t; N] {
    // SAFETY: NEON is part of the aarch64 baseline; the loads stay within the caller's range.
    unsafe {
        let mut s = [vdupq_n_u8(0); N];
        for (i, v) in s.iter_mut().enumerate() {
            *v = vld1q_u8(p.add(16 * i));
        }
        s
    }
}

/// N blocks to `p`, each XORed with `x` first.
///
/// # Safety
/// `p` is valid for writing `16 * N` bytes.
#[inline(always)]
unsafe fn store_xor<const N: usize>(p: *mut u8, s: &[uint8x16_t; N], x: uint8x16_t) {
    // SAFETY: as in `load`.
    unsafe {
        for (i, v) in s.iter().enumerate() {
            vst1q_u8(p.add(16 * i), veorq_u8(*v, x));
        }
    }
}

/// ECB encryption, N blocks at a time at `data`; returns the blocks left (fewer than N).
#[target_feature(enable = "aes,neon")]
#[inline]
unsafe fn ecb_enc_n<'a, const NR: usize, const N: usize>(
    _t: AesCe,
    k: &[uint8x16_t; 15],
    data: &'a mut [u8],
) -> &'a mut [u8] {
    let mut chunks = data.chunks_exact_mut(16 * N);
    for c in &mut chunks {
        // SAFETY: `c` has exactly 16 * N bytes; the caller's token proves AES and NEON.
        unsafe {
            let mut s = load::<N>(c.as_ptr());
            enc_pre!(NR, k, s);
            store_xor(c.as_mut_ptr(), &s, k[NR]);
        }
    }
    chunks.into_remainder()
}

/// ECB decryption, N blocks at a time; returns the blocks left.
#[target_feature(enable = "aes,neon")]
#[inline]
unsafe fn ecb_dec_n<'a, const NR: usize, const N: usize>(
    _t: AesCe,
    k: &[uint8x16_t; 15],
    data: &'a mut [u8],
) -> &'a mut [u8] {
    let mut chunks = data.chunks_exact_mut(16 * N);
    for c in &mut chunks {
        // SAFETY: `c` has exactly 16 * N bytes; the caller's token proves AES and NEON.
        unsafe {
            let mut s = load::<N>(c.as_ptr());
            dec_pre!(NR, k, s);
            store_xor(c.as_mut_ptr(), &s, k[NR]);
        }
    }
    chunks.into_remainder()
}

/// ECB encryption of whole blocks in place.
#[target_feature(enable = "aes,neon")]
unsafe fn ecb_enc<const NR: usize>(t: AesCe, rk: &[[u8; 16]; 15], data: &mut [u8]) {
    // SAFETY: the caller's token proves AES and NEON.
    unsafe {
        let k = load_keys::<NR>(t, rk);
        let rest = ecb_enc_n::<NR, 8>(t, &k, data);
        let rest = ecb_enc_n::<NR, 4>(t, &k, rest);
        ecb_enc_n::<NR, 1>(t, &k, rest);
    }
}

/// ECB decryption of whole blocks in place, with the decryption keys `rk`.
#[target_feature(enable = "aes,neon")]
unsafe fn ecb_dec<const NR: usize>(t: AesCe, rk: &[[u8; 16]; 15], data: &mut [u8]) {
    // SAFETY: the caller's token proves AES and NEON.
    unsafe {
        let k = load_keys::<NR>(t, rk);
        let rest = ecb_dec_n::<NR, 8>(t, &k, data);
        let rest = ecb_dec_n::<NR, 4>(t, &k, rest);
        ecb_dec_n::<NR, 1>(t, &k, rest);
    }
}

/// CTR, N blocks at a time. `ctr` holds the counter block with each 32-bit lane byte-swapped
/// (`vrev32q_u8`), so lane 3 is the low word of the big-endian counter as a native integer and
/// a lane addition increments it; swapping back gives the counter block. Returns the blocks
/// left; `ctr` is advanced past the blocks done.
#[target_feature(enable = "aes,neon")]
#[inline]
unsafe fn ctr_n<'a, const NR: usize, const N: usize>(
    _t: AesCe,
    k: &[uint8x16_t; 15],
    ctr: &mut uint8x16_t,
    data: &'a mut [u8],
) -> &'a mut [u8] {
    // SAFETY: the caller's token proves AES and NEON; the constant loads read 4-word arrays,
    // and each chunk `c` has exactly 16 * N bytes.
    unsafe {
        let mut inc = [vdupq_n_u32(0); N];
        for (i, v) in inc.iter_mut().enumerate() {
            *v = vld1q_u32([0, 0, 0, i as u32].as_ptr());
        }
        let step = vld1q_u32([0, 0, 0, N as u32].as_ptr());
        let mut chunks = data.chunks_exact_mut(16 * N);
        for c in &mut chunks {
            let base = vreinterpretq_u32_u8(*ctr);
            let mut s = [vdupq_n_u8(0); N];
            for (v, d) in s.iter_mut().zip(&inc) {
                *v = vrev32q_u8(vreinterpretq_u8_u32(vaddq_u32(base, *d)));
            }
            *ctr = vreinterpretq_u8_u32(vaddq_u32(base, step));
            enc_pre!(NR, k, s);
            let m = load::<N>(c.as_ptr());
            for (v, m) in s.iter_mut().zip(&m) {
                *v = veorq_u8(*v, *m);
            }
            store_xor(c.as_mut_ptr(), &s, k[NR]);
        }
        chunks.into_remainder()
    }
}

/// CTR over whole blocks, from counter block `ctr` (not updated here). The low 32-bit word of
/// the counter must not wrap within the call: `low + data.len() / 16 <= 2^32`.
#[target_feature(enable = "aes,neon")]
unsafe fn ctr32<const NR: usize>(t: AesCe, rk: &[[u8; 16]; 15], ctr: &[u8; 16], data: &mut [u8]) {
    // SAFETY: the caller's token proves AES and NEON; `ctr` is 16 bytes.
    unsafe {
        let k = load_keys::<NR>(t, rk);
        let mut c = vrev32q_u8(vld1q_u8(ctr.as_ptr()));
        let rest = ctr_n::<NR, 8>(t, &k, &mut c, data);
        let rest = ctr_n::<NR, 4>(t, &k, &mut c, rest);
        ctr_n::<NR, 1>(t, &k, &mut c, rest);
    }
}

/// CBC encryption (SP 800-38A §6.2), serial. `pre` holds the last ciphertext block without
/// its final AddRoundKey (c = pre ⊕ k_NR). The next block's first AESE computes
/// SubBytes(ShiftRows(c ⊕ p ⊕ k_0)); it gets `pre` as its state operand and p ⊕ (k_NR ⊕ k_0)
/// as its key operand, computed beside the chain, so no XOR lies between one block's last
/// AESE and the next block's first.
#[target_feature(enable = "aes,neon")]
unsafe fn cbc_enc<const NR: usize>(
    t: AesCe,
    rk: &[[u8; 16]; 15],
    iv: &mut [u8; 16],
    data: &mut [u8],
) {
    // SAFETY: the caller's token proves AES and NEON; `iv` is 16 bytes and every block `b`
    // of `data` is 16 bytes.
    unsafe {
        let k = load_keys::<NR>(t, rk);
        let last = k[NR];
        let fold = veorq_u8(k[0], last);
        let mut pre = veorq_u8(vld1q_u8(iv.as_ptr()), last);
        for b in data.chunks_exact_mut(16) {
            let mut kb = k;
            kb[0] = veorq_u8(vld1q_u8(b.as_ptr()), fold);
            let mut s = [pre];
            enc_pre!(NR, &kb, s);
            pre = s[0];
            vst1q_u8(b.as_mut_ptr(), veorq_u8(pre, last));
        }
        vst1q_u8(iv.as_mut_ptr(), veorq_u8(pre, last));
    }
}

/// CBC decryption (SP 800-38A §6.2), 8 blocks at a time (then 4, then 1): p_i = D(c_i) ⊕
/// c_{i−1}, with the ciphertext kept in registers because the output overwrites it.
#[target_feature(enable = "aes,neon")]
unsafe fn cbc_dec<const NR: usize>(
    t: AesCe,
    rk: &[[u8; 16]; 15],
    iv: &mut [u8; 16],
    data: &mut [u8],
) {
    // SAFETY: the caller's token proves AES and NEON; `iv` is 16 bytes.
    unsafe {
        let k = load_keys::<NR>(t, rk);
        let mut prev = vld1q_u8(iv.as_ptr());
        let rest = cbc_dec_n::<NR, 8>(t, &k, &mut prev, data);
        let rest = cbc_dec_n::<NR, 4>(t, &k, &mut prev, rest);
        cbc_dec_n::<NR, 1>(t, &k, &mut prev, rest);
        vst1q_u8(iv.as_mut_ptr(), prev);
    }
}

/// CBC decryption of N blocks at a time; `prev` is the ciphertext block before `data` (the IV
/// at first) and is advanced. Returns the blocks left.
#[target_feature(enable = "aes,neon")]
#[inline]
unsafe fn cbc_dec_n<'a, const NR: usize, const N: usize>(
    _t: AesCe,
    k: &[uint8x16_t; 15],
    prev: &mut uint8x16_t,
    data: &'a mut [u8],
) -> &'a mut [u8] {
    let mut chunks = data.chunks_exact_mut(16 * N);
    for c in &mut chunks {
        // SAFETY: `c` has exactly 16 * N bytes; the caller's token proves AES and NEON.
        unsafe {
            let ct = load::<N>(c.as_ptr());
            let mut s = ct;
            dec_pre!(NR, k, s);
            s[0] = veorq_u8(s[0], *prev);
            for i in 1..N {
                s[i] = veorq_u8(s[i], ct[i - 1]);
            }
            *prev = ct[N - 1];
            store_xor(c.as_mut_ptr(), &s, k[NR]);
        }
    }
    chunks.into_remainder()
}

/// IGE encryption, `c_i = E(p_i ⊕ c_{i−1}) ⊕ p_{i−1}`, serial. `pre` is E(…) ⊕ k_NR of the last
/// block, so the next block's first AESE input c_{i−1} ⊕ p_i ⊕ k_0 is `pre` ⊕ (k_NR ⊕ k_0 ⊕
/// p_{i−2} ⊕ p_i): as in [`cbc_enc`], `pre` is the state operand and the rest, computed beside
/// the chain, the key operand.
#[target_feature(enable = "aes,neon")]
unsafe fn ige_enc<const NR: usize>(
    t: AesCe,
    rk: &[[u8; 16]; 15],
    iv: &mut [u8; 32],
    data: &mut [u8],
) {
    // SAFETY: the caller's token proves AES and NEON; `iv` is 32 bytes and every block `b`
    // of `data` is 16 bytes.
    unsafe {
        let k = load_keys::<NR>(t, rk);
        let last = k[NR];
        let mut p_prev = vld1q_u8(iv.as_ptr().add(16));
        // c_{i−1} = pre ⊕ mask; at the start pre = c_0, mask = 0.
        let mut pre = vld1q_u8(iv.as_ptr());
        let mut mask = vdupq_n_u8(0);
        for b in data.chunks_exact_mut(16) {
            let p = vld1q_u8(b.as_ptr());
            let mut kb = k;
            kb[0] = veorq_u8(k[0], veorq_u8(mask, p));
            let mut s = [pre];
            enc_pre!(NR, &kb, s);
            pre = s[0];
            mask = veorq_u8(last, p_prev);
            p_prev = p;
            vst1q_u8(b.as_mut_ptr(), veorq_u8(pre, mask));
        }
        vst1q_u8(iv.as_mut_ptr(), veorq_u8(pre, mask));
        vst1q_u8(iv.as_mut_ptr().add(16), p_prev);
    }
}

/// IGE decryption, `p_i = D(c_i ⊕ p_{i−1}) ⊕ c_{i−1}`, serial, shaped like [`ige_enc`].
#[target_feature(enable = "aes,neon")]
unsafe fn ige_dec<const NR: usize>(
    t: AesCe,
    rk: &[[u8; 16]; 15],
    iv: &mut [u8; 32],
    data: &mut [u8],
) {
    // SAFETY: the caller's token proves AES and NEON; `iv` is 32 bytes and every block `b`
    // of `data` is 16 bytes.
    unsafe {
        let k = load_keys::<NR>(t, rk);
        let last = k[NR];
        let mut c_prev = vld1q_u8(iv.as_ptr());
        // p_{i−1} = pre ⊕ mask; at the start pre = p_0, mask = 0.
        let mut pre = vld1q_u8(iv.as_ptr().add(16));
        let mut mask = vdupq_n_u8(0);
        for b in data.chunks_exact_mut(16) {
            let c = vld1q_u8(b.as_ptr());
            let mut kb = k;
            kb[0] = veorq_u8(k[0], veorq_u8(mask, c));
            let mut s = [pre];
            dec_pre!(NR, &kb, s);
            pre = s[0];
            mask = veorq_u8(last, c_prev);
            c_prev = c;
            vst1q_u8(b.as_mut_ptr(), veorq_u8(pre, mask));
        }
        vst1q_u8(iv.as_mut_ptr(), c_prev);
        vst1q_u8(iv.as_mut_ptr().add(16), veorq_u8(pre, mask));
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::aes::xor16;
    use crate::cpu::Features;
    use crate::sha::test_util::bytes;
    use std::vec::Vec;

    fn token() -> Option<AesCe> {
        let t = Features::hardware().get::<AesCe>();
        if t.is_none() {
            std::eprintln!("aes armv8-ce: CPU has no AES instructions; kernel not tested");
        }
        t
    }

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// FIPS 197 appendix C.1-C.3 (the same plaintext under the three key sizes) and the last
    /// round key of the appendix A.1 expansion.
    #[test]
    fn fips197() {
        let Some(t) = token() else { return };
        let pt = hex("00112233445566778899aabbccddeeff");
        for (klen, ct) in [
            (16, "69c4e0d86a7b0430d8cdb78070b4c55a"),
            (24, "dda97ca4864cdfe06eaf70a0ec0d7191"),
            (32, "8ea2b7ca516745bfeafc49904b496089"),
        ] {
            let key: Vec<u8> = (0..klen as u8).collect();
            let k = AesCeKey::new(t, &key);
            let mut b = pt.clone();
            k.encrypt(&mut b);
            assert_eq!(b, hex(ct), "{klen}");
            k.decrypt(&mut b);
            assert_eq!(b, pt, "{klen}");
        }
        let k = AesCeKey::new(t, &hex("2b7e151628aed2a6abf7158809cf4f3c"));
        assert_eq!(k.ek[10].to_vec(), hex("d014f9a8c9ee2589e13f0cc8b6630ca6"));
    }

    const SP_PT: &str = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51\
                         30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";

    /// SP 800-38A F.1.5 (ECB-AES256), F.2.1 (CBC-AES128), F.5.1 (CTR-AES128).
    #[test]
    fn sp800_38a() {
        let Some(t) = token() else { return };
        let pt = hex(SP_PT);
        let k256 = AesCeKey::new(
            t,
            &hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"),
        );
        let mut b = pt.clone();
        k256.encrypt(&mut b);
        assert_eq!(
            b,
            hex(
                "f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870\
                 b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7"
            )
        );
        k256.decrypt(&mut b);
        assert_eq!(b, pt);

        let k128 = AesCeKey::new(t, &hex("2b7e151628aed2a6abf7158809cf4f3c"));
        let cbc = hex(
            "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2\
             73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7",
        );
        let mut iv: [u8; 16] = core::array::from_fn(|i| i as u8);
        let mut b = pt.clone();
        k128.cbc_encrypt(&mut iv, &mut b);
        assert_eq!(b, cbc);
        assert_eq!(iv.to_vec(), cbc[48..].to_vec());
        let mut iv: [u8; 16] = core::array::from_fn(|i| i as u8);
        k128.cbc_decrypt(&mut iv, &mut b);
        assert_eq!(b, pt);
        assert_eq!(iv.to_vec(), cbc[48..].to_vec());

        let mut ctr: [u8; 16] = core::array::from_fn(|i| 0xf0 + i as u8);
        let mut b = pt.clone();
        k128.ctr(&mut ctr, &mut b);
        assert_eq!(
            b,
            hex(
                "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff\
                 5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee"
            )
        );
        // f0 f1 … fd fe ff + 4 blocks = f0 f1 … fd ff 03.
        let mut want: [u8; 16] = core::array::from_fn(|i| 0xf0 + i as u8);
        want[14] = 0xff;
        want[15] = 0x03;
        assert_eq!(ctr, want);
    }

    /// Each mode against its definition over the kernel's own one-block encryption (checked
    /// above against FIPS 197): every key size, 0..=40 blocks (all tail lengths past the
    /// 8- and 4-block strides), counters at the 2^32, 2^64 and 2^128 wraps.
    #[test]
    fn modes_match_one_block_definitions() {
        let Some(t) = token() else { return };
        for klen in [16usize, 24, 32] {
            for n in 0..=40usize {
                let seed = (klen * 100 + n) as u64;
                let key = bytes(seed, klen);
                let k = AesCeKey::new(t, &key);
                let data = bytes(seed + 1, n * 16);
                let enc1 = |b: &mut [u8]| {
                    let mut x = [0u8; 16];
                    x.copy_from_slice(b);
                    k.encrypt(&mut x);
                    b.copy_from_slice(&x);
                };
                let dec1 = |b: &mut [u8]| {
                    let mut x = [0u8; 16];
                    x.copy_from_slice(b);
                    k.decrypt(&mut x);
                    b.copy_from_slice(&x);
                };

                // ECB.
                let mut want = data.clone();
                want.chunks_exact_mut(16).for_each(enc1);
                let mut got = data.clone();
                k.encrypt(&mut got);
                assert_eq!(got, want, "ecb enc {klen} {n}");
                k.decrypt(&mut got);
                assert_eq!(got, data, "ecb dec {klen} {n}");

                // CTR around the wraps of the low word, the low half and the whole counter.
                for start in [
                    [0u8; 16],
                    u128::to_be_bytes((1 << 32) - 3),
                    u128::to_be_bytes(0x1234_5678_ffff_fffe),
                    u128::to_be_bytes((1 << 64) - 5),
                    u128::to_be_bytes(u128::MAX - 1),
                    u128::to_be_bytes(u128::MAX),
                ] {
                    let mut want = data.clone();
                    let mut c = start;
                    for b in want.chunks_exact_mut(16) {
                        let mut ks = c;
                        k.encrypt(&mut ks);
                        xor16(b, &ks);
                        crate::aes::ctr_add(&mut c, 1);
                    }
                    let mut got = data.clone();
                    let mut c2 = start;
                    k.ctr(&mut c2, &mut got);
                    assert_eq!(got, want, "ctr {klen} {n} {start:x?}");
                    assert_eq!(c2, c, "ctr {klen} {n}");
                }

                // CBC.
                let iv0: [u8; 16] = bytes(seed + 2, 16).try_into().unwrap();
                let mut want = data.clone();
                let mut iv = iv0;
                for b in want.chunks_exact_mut(16) {
                    xor16(b, &iv);
                    enc1(b);
                    iv.copy_from_slice(b);
                }
                let mut got = data.clone();
                let mut iv2 = iv0;
                k.cbc_encrypt(&mut iv2, &mut got);
                assert_eq!(got, want, "cbc enc {klen} {n}");
                assert_eq!(iv2, iv);
                let mut iv3 = iv0;
                k.cbc_decrypt(&mut iv3, &mut got);
                assert_eq!(got, data, "cbc dec {klen} {n}");
                assert_eq!(iv3, iv);

                // IGE.
                let iv0: [u8; 32] = bytes(seed + 3, 32).try_into().unwrap();
                let mut want = data.clone();
                let (mut cp, mut pp) = (iv0[..16].to_vec(), iv0[16..].to_vec());
                for b in want.chunks_exact_mut(16) {
                    let p = b.to_vec();
                    xor16(b, &cp[..].try_into().unwrap());
                    enc1(b);
                    xor16(b, &pp[..].try_into().unwrap());
                    cp = b.to_vec();
                    pp = p;
                }
                let mut got = data.clone();
                let mut iv = iv0;
                k.ige_encrypt(&mut iv, &mut got);
                assert_eq!(got, want, "ige enc {klen} {n}");
                assert_eq!(iv[..16], cp[..]);
                assert_eq!(iv[16..], pp[..]);
                let mut want_p = got.clone();
                let (mut cp, mut pp) = (iv0[..16].to_vec(), iv0[16..].to_vec());
                for b in want_p.chunks_exact_mut(16) {
                    let c = b.to_vec();
                    xor16(b, &pp[..].try_into().unwrap());
                    dec1(b);
                    xor16(b, &cp[..].try_into().unwrap());
                    pp = b.to_vec();
                    cp = c;
                }
                assert_eq!(want_p, data, "ige reference {klen} {n}");
                let mut iv = iv0;
                k.ige_decrypt(&mut iv, &mut got);
                assert_eq!(got, data, "ige dec {klen} {n}");
                assert_eq!(iv[..16], cp[..]);
                assert_eq!(iv[16..], pp[..]);
            }
        }
    }

    /// A portable kernel from a key.
    type MakeSoft = fn(&[u8]) -> std::boxed::Box<dyn Kernel>;

    /// Every operation against the portable fixsliced kernel (`soft64` and `soft32`, which
    /// share no code with this one): random keys of each size, 0..=40 blocks, counters at the
    /// low-word and whole-counter wraps.
    #[test]
    fn matches_portable() {
        let Some(t) = token() else { return };
        let soft: [MakeSoft; 2] = [
            |k| std::boxed::Box::new(crate::aes::soft64::Soft64::new(k)),
            |k| std::boxed::Box::new(crate::aes::soft32::Soft32::new(k)),
        ];
        for (si, make) in soft.iter().enumerate() {
            for klen in [16usize, 24, 32] {
                for n in (0..=40usize).step_by(if si == 0 { 1 } else { 7 }) {
                    let seed = (5000 + si * 1000 + klen * 50 + n) as u64;
                    let key = bytes(seed, klen);
                    let ours = AesCeKey::new(t, &key);
                    let theirs = make(&key);
                    let data = bytes(seed + 1, n * 16);
                    let iv = bytes(seed + 2, 32);
                    let run = |k: &dyn Kernel| {
                        let mut out = Vec::new();
                        let mut d = data.clone();
                        k.encrypt(&mut d);
                        out.push(d.clone());
                        k.decrypt(&mut d);
                        out.push(d);
                        for start in [
                            u128::from_be_bytes(iv[..16].try_into().unwrap()),
                            (1 << 32) - 2,
                            u128::MAX,
                        ] {
                            let mut c = start.to_be_bytes();
                            let mut d = data.clone();
                            k.ctr(&mut c, &mut d);
                            out.push(d);
                            out.push(c.to_vec());
                        }
                        let mut v: [u8; 16] = iv[..16].try_into().unwrap();
                        let mut d = data.clone();
                        k.cbc_encrypt(&mut v, &mut d);
                        out.push(d.clone());
                        k.cbc_decrypt(&mut v, &mut d);
                        out.push(d);
                        out.push(v.to_vec());
                        let mut v: [u8; 32] = iv[..].try_into().unwrap();
                        let mut d = data.clone();
                        k.ige_encrypt(&mut v, &mut d);
                        out.push(d.clone());
                        out.push(v.to_vec());
                        let mut v: [u8; 32] = iv[..].try_into().unwrap();
                        k.ige_decrypt(&mut v, &mut d);
                        out.push(d);
                        out.push(v.to_vec());
                        out
                    };
                    assert_eq!(run(&ours), run(&*theirs), "soft{} {klen} {n}", [64, 32][si]);
                }
            }
        }
    }
}
