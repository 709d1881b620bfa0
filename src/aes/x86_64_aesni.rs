//! AES with the x86_64 AES-NI instructions (`aesenc`, `aesenclast`, `aesdec`, `aesdeclast`,
//! `aesimc`, `aeskeygenassist`; Intel SDM vol. 2A, and S. Gueron, "Intel Advanced Encryption
//! Standard (AES) New Instructions Set", Intel white paper 323641, 2010, for their semantics).
//!
//! # Layout
//!
//! A block is one `__m128i` holding the 16 state bytes in FIPS 197 input order (byte 0 in
//! lane byte 0), which is the order the instructions expect, so blocks are loaded and stored
//! without shuffling. `aesenc x, k` is one full round (ShiftRows, SubBytes, MixColumns,
//! AddRoundKey with `k`); `aesenclast` omits MixColumns. So with round keys `k[0..=Nr]`
//! (FIPS 197 §5.1, Nr = 10, 12, 14):
//!
//! ```text
//! E(x) = aesenclast(aesenc(… aesenc(x ⊕ k[0], k[1]) …, k[Nr-1]), k[Nr])
//! ```
//!
//! Decryption runs the *equivalent inverse cipher* (FIPS 197 §5.3.5): `aesdec` is
//! InvShiftRows, InvSubBytes, InvMixColumns, AddRoundKey, which needs the middle round keys
//! passed through InvMixColumns (`aesimc`). The decryption schedule is stored in the order it
//! is used: `dk[0] = k[Nr]`, `dk[i] = InvMixColumns(k[Nr-i])` for `0 < i < Nr`, `dk[Nr] = k[0]`.
//!
//! Both schedules are `[[u8; 16]; 15]` in that byte order (`k[i]` = words `w[4i..4i+4]` of
//! §5.2, each word's bytes in order); the VAES kernels (`x86_64_vaes.rs`) read the same
//! arrays.
//!
//! # Parallelism
//!
//! `aesenc` has a latency of 3–4 cycles and a throughput of one or two per cycle, so one
//! block at a time leaves the unit idle most of the time. The parallel modes (ECB, CTR, CBC
//! decryption) run eight independent blocks round by round; a remainder of 1–7 blocks runs as
//! one pass of that width. CBC encryption and IGE are serial by definition: their loops keep
//! the round keys and the chaining values in registers, and fold the chaining XOR that follows
//! a block into the key of its last round (`aesenclast(x, k ⊕ y) = aesenclast(x, k) ⊕ y`,
//! since the last round ends with AddRoundKey), which takes an XOR off the serial path.
//!
//! # CTR
//!
//! The counter is the 128-bit big-endian integer of SP 800-38A appendix B.1 (m = 128). A
//! byte-reversed copy of it is a little-endian integer whose low 64 bits sit in the low lane,
//! so counter `c + i` is one `paddq` of `i` and one `pshufb` back — as long as the low 64
//! bits do not wrap. `Kernel::ctr` checks that (the counter is public) and otherwise splits
//! the call at the point where they wrap ([`ctr_split`]), which happens at most once per call.
//! One block, and 2–7 blocks, have their own short paths: streaming callers hand over 16 or
//! 64 bytes at a time, and there the cost is the call, not the rounds. The counter is always
//! loaded and stored as one 16-byte vector so that one call's update reaches the next call by
//! store forwarding (see [`ctr1`]).
//!
//! Nothing here branches on or indexes memory by key, data or keystream: only lengths, the
//! number of rounds and the counter value (public) steer control flow.

use core::arch::x86_64::*;

use super::Kernel;
use crate::cpu::arch::AesNi;

/// Round keys `k[0..=Nr]` (or the decryption schedule), 16 bytes each in FIPS 197 byte order;
/// entries past `Nr` are zero.
pub(crate) type RoundKeys = [[u8; 16]; 15];

/// A schedule on a 16-byte boundary, so that the kernels can use the round keys in place as
/// `__m128i` (and as memory operands of `aesenc`, which the legacy SSE encoding requires
/// aligned) instead of copying them first.
#[repr(C, align(16))]
#[derive(Clone)]
struct Schedule(RoundKeys);

/// A key expanded for AES-NI: encryption and decryption schedules.
#[derive(Clone)]
pub(crate) struct Key {
    t: AesNi,
    enc: Schedule,
    dec: Schedule,
    /// Nr: 10, 12 or 14.
    rounds: usize,
}

impl Key {
    /// Expands a 16-, 24- or 32-byte key (FIPS 197 §5.2).
    pub(crate) fn new(t: AesNi, key: &[u8]) -> Self {
        assert!(matches!(key.len(), 16 | 24 | 32));
        let mut k = Key {
            t,
            enc: Schedule([[0; 16]; 15]),
            dec: Schedule([[0; 16]; 15]),
            rounds: key.len() / 4 + 6,
        };
        // SAFETY: the token proves AES-NI, SSE2, SSSE3 and SSE4.1; the key length was checked.
        unsafe { expand(t, key, &mut k.enc.0, &mut k.dec.0) };
        k
    }

    /// The encryption round keys `k[0..=Nr]`.
    #[cfg(any(test, simdcrypt_asm))]
    pub(crate) fn enc_keys(&self) -> &RoundKeys {
        &self.enc.0
    }

    /// The decryption schedule `dk[0..=Nr]` (see the module docs).
    #[cfg(any(test, simdcrypt_asm))]
    pub(crate) fn dec_keys(&self) -> &RoundKeys {
        &self.dec.0
    }

    /// Nr: 10, 12 or 14.
    #[cfg(any(test, simdcrypt_asm))]
    pub(crate) fn rounds(&self) -> usize {
        self.rounds
    }
}

#[cfg(simdcrypt_asm)]
impl Key {
    /// Advances the counter by `n` blocks, where the low 64 bits do not wrap (`lo + n <
    /// 2^64`), with one 16-byte load and store (see [`ctr1`] on store forwarding).
    pub(crate) fn advance_ctr_nowrap(&self, ctr: &mut [u8; 16], n: u64) {
        // SAFETY: the token proves the features `advance` enables.
        unsafe { advance(self.t, ctr, n) }
    }
}

#[cfg(simdcrypt_asm)]
#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
unsafe fn advance(_t: AesNi, ctr: &mut [u8; 16], n: u64) {
    // SAFETY: `ctr` is 16 bytes, exclusively borrowed; the features of the intrinsics are
    // enabled here.
    unsafe {
        let bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        let c = _mm_shuffle_epi8(_mm_loadu_si128(ctr.as_ptr().cast()), bswap);
        let c = _mm_add_epi64(c, _mm_set_epi64x(0, n as i64));
        _mm_storeu_si128(ctr.as_mut_ptr().cast(), _mm_shuffle_epi8(c, bswap));
    }
}

impl Drop for Key {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.enc.0);
        crate::wipe::wipe(&mut self.dec.0);
    }
}

/// Calls `$f::<Nr>($args)` for this key's number of rounds: the one match per message.
macro_rules! by_rounds {
    ($self:ident, $f:ident($($a:expr),*)) => {
        match $self.rounds {
            10 => $f::<10>($($a),*),
            12 => $f::<12>($($a),*),
            _ => $f::<14>($($a),*),
        }
    };
}

impl Kernel for Key {
    fn encrypt(&self, data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        // SAFETY: the token proves the features `ecb_enc` enables; `data` is whole blocks.
        unsafe { by_rounds!(self, ecb_enc(self.t, &self.enc, data)) }
    }

    fn decrypt(&self, data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        // SAFETY: as for `encrypt`.
        unsafe { by_rounds!(self, ecb_dec(self.t, &self.dec, data)) }
    }

    #[inline]
    fn ctr(&self, ctr: &mut [u8; 16], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        if data.len() == 16 {
            // SAFETY: as for `encrypt`; `data` is one block.
            return unsafe { by_rounds!(self, ctr1(self.t, &self.enc, ctr, data)) };
        }
        let n = (data.len() / 16) as u64;
        let lo = u64::from_be_bytes([
            ctr[8], ctr[9], ctr[10], ctr[11], ctr[12], ctr[13], ctr[14], ctr[15],
        ]);
        if lo.checked_add(n).is_some() {
            // SAFETY: as for `encrypt`; the low 64 counter bits do not wrap within the call
            // (checked just above; the counter is public), as both kernels require.
            return unsafe {
                if n < 8 {
                    by_rounds!(self, ctr_short(self.t, &self.enc, ctr, data))
                } else {
                    by_rounds!(self, ctr_long(self.t, &self.enc, ctr, data))
                }
            };
        }
        // Rare: the low 64 bits wrap within this call.
        ctr_split(ctr, data, |c, d| {
            // SAFETY: as for `encrypt`; `ctr_split` guarantees the low 64 counter bits do
            // not wrap within `d`, which is what `ctr_nowrap` requires.
            unsafe { by_rounds!(self, ctr_nowrap(self.t, &self.enc, c, d)) };
        });
    }

    fn cbc_encrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        // SAFETY: as for `encrypt`.
        unsafe { by_rounds!(self, cbc_enc(self.t, &self.enc, iv, data)) }
    }

    fn cbc_decrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        // SAFETY: as for `encrypt`.
        unsafe { by_rounds!(self, cbc_dec(self.t, &self.dec, iv, data)) }
    }

    fn ige_encrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        // SAFETY: as for `encrypt`.
        unsafe { by_rounds!(self, ige_enc(self.t, &self.enc, iv, data)) }
    }

    fn ige_decrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        // SAFETY: as for `encrypt`.
        unsafe { by_rounds!(self, ige_dec(self.t, &self.dec, iv, data)) }
    }
}

/// Splits a CTR call where the low 64 bits of the counter wrap and calls `f(counter, piece)`
/// for each piece (at most two), so that within each piece the counter of block `i` is the
/// starting counter with `i` added to its low 64 bits, without carry. Advances `ctr` by the
/// number of blocks. The counter is public: branching on it leaks nothing.
pub(crate) fn ctr_split(
    ctr: &mut [u8; 16],
    data: &mut [u8],
    mut f: impl FnMut(&[u8; 16], &mut [u8]),
) {
    let blocks = (data.len() / 16) as u128;
    if blocks == 0 {
        return;
    }
    let lo = u64::from_be_bytes([
        ctr[8], ctr[9], ctr[10], ctr[11], ctr[12], ctr[13], ctr[14], ctr[15],
    ]);
    // Blocks left before the low half wraps to zero: 2^64 - lo (1..=2^64).
    let room = (1u128 << 64) - u128::from(lo);
    if blocks <= room {
        f(ctr, data);
    } else {
        // `room < blocks <= data.len() / 16`, so it fits a usize and the split is in bounds.
        let (a, b) = data.split_at_mut(room as usize * 16);
        f(ctr, a);
        let mut next = *ctr;
        super::ctr_add(&mut next, room);
        f(&next, b);
    }
    super::ctr_add(ctr, blocks);
}

// ---------------------------------------------------------------------------------------
// Key expansion (FIPS 197 §5.2).

/// `w[0], w[0]⊕w[1], w[0]⊕w[1]⊕w[2], w[0]⊕…⊕w[3]` for the four words of `x`: the chained
/// XORs of §5.2 that each new group of four words needs.
// The SSE2 intrinsics are safe functions in newer Rust, `unsafe` on our MSRV (1.85).
#[allow(unused_unsafe)]
#[inline(always)]
fn prefix_xor(x: __m128i) -> __m128i {
    // SAFETY: SSE2 is part of the x86_64 baseline; no memory is touched.
    unsafe {
        let x = _mm_xor_si128(x, _mm_slli_si128::<4>(x));
        let x = _mm_xor_si128(x, _mm_slli_si128::<4>(x));
        _mm_xor_si128(x, _mm_slli_si128::<4>(x))
    }
}

/// Expands `key` into the encryption and decryption schedules.
///
/// `aeskeygenassist x, rcon` computes, for the words `x[1]` and `x[3]` of `x`,
/// `[SubWord(x[1]), RotWord(SubWord(x[1])) ⊕ rcon, SubWord(x[3]), RotWord(SubWord(x[3])) ⊕ rcon]`
/// (the RotWord/SubWord/Rcon step of §5.2); the rest of the recurrence is XORs. The words are
/// written in order into a buffer, which is then cut into round keys.
#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
unsafe fn expand(_t: AesNi, key: &[u8], enc: &mut RoundKeys, dec: &mut RoundKeys) {
    // Room for the most words any size produces: 8 + 7·8 = 64 (AES-256), 6 + 8·6 = 54
    // (AES-192), 4 + 10·4 = 44 (AES-128).
    let mut w = [0u8; 256];
    let nr = key.len() / 4 + 6;
    // SAFETY: every load reads inside `key` (its length is 16, 24 or 32, checked by the
    // caller) and every store writes inside `w`: the offsets below are at most
    // 16 + 9·16 + 16 = 176 (AES-128), 24 + 7·24 + 24 = 216 (AES-192), 32 + 6·32 + 32 = 256
    // (AES-256).
    unsafe {
        let wp = w.as_mut_ptr();
        // One step of AES-128: the next four words from the previous four; `$t` holds
        // RotWord(SubWord(w[i-1])) ⊕ Rcon in word 3.
        macro_rules! step128 {
            ($a:ident, $rcon:literal, $off:expr) => {
                let t = _mm_shuffle_epi32::<0xff>(_mm_aeskeygenassist_si128::<$rcon>($a));
                $a = _mm_xor_si128(prefix_xor($a), t);
                _mm_storeu_si128(wp.add($off).cast(), $a);
            };
        }
        // AES-192 (Nk = 6): `$a` = the first four words of the last group, `$b` (low half) the
        // other two. Word 5 is `$b` word 1, so the assist's word 1 is what §5.2 needs.
        macro_rules! step192 {
            ($a:ident, $b:ident, $rcon:literal, $off:expr) => {
                let t = _mm_shuffle_epi32::<0x55>(_mm_aeskeygenassist_si128::<$rcon>($b));
                $a = _mm_xor_si128(prefix_xor($a), t);
                // w[i+4] = w[i-2] ⊕ w[i+3], w[i+5] = w[i-1] ⊕ w[i+4].
                let last = _mm_shuffle_epi32::<0xff>($a);
                $b = _mm_xor_si128(_mm_xor_si128($b, _mm_slli_si128::<4>($b)), last);
                _mm_storeu_si128(wp.add($off).cast(), $a);
                _mm_storel_epi64(wp.add($off + 16).cast(), $b);
            };
        }
        // AES-256 (Nk = 8): the first half uses RotWord/SubWord/Rcon of word 7 (`$b` word 3),
        // the second half SubWord alone of the new word 3 (§5.2, `i mod Nk = 4`), which is
        // word 2 of the assist of the new `$a` (its rcon is unused).
        macro_rules! step256 {
            ($a:ident, $b:ident, $rcon:literal, $off:expr) => {
                let t = _mm_shuffle_epi32::<0xff>(_mm_aeskeygenassist_si128::<$rcon>($b));
                $a = _mm_xor_si128(prefix_xor($a), t);
                _mm_storeu_si128(wp.add($off).cast(), $a);
                let t = _mm_shuffle_epi32::<0xaa>(_mm_aeskeygenassist_si128::<0>($a));
                $b = _mm_xor_si128(prefix_xor($b), t);
                _mm_storeu_si128(wp.add($off + 16).cast(), $b);
            };
        }

        let kp = key.as_ptr();
        match key.len() {
            16 => {
                let mut a = _mm_loadu_si128(kp.cast());
                _mm_storeu_si128(wp.cast(), a);
                step128!(a, 0x01, 16);
                step128!(a, 0x02, 32);
                step128!(a, 0x04, 48);
                step128!(a, 0x08, 64);
                step128!(a, 0x10, 80);
                step128!(a, 0x20, 96);
                step128!(a, 0x40, 112);
                step128!(a, 0x80, 128);
                step128!(a, 0x1b, 144);
                step128!(a, 0x36, 160);
            }
            24 => {
                let mut a = _mm_loadu_si128(kp.cast());
                let mut b = _mm_loadl_epi64(kp.add(16).cast());
                _mm_storeu_si128(wp.cast(), a);
                _mm_storel_epi64(wp.add(16).cast(), b);
                step192!(a, b, 0x01, 24);
                step192!(a, b, 0x02, 48);
                step192!(a, b, 0x04, 72);
                step192!(a, b, 0x08, 96);
                step192!(a, b, 0x10, 120);
                step192!(a, b, 0x20, 144);
                step192!(a, b, 0x40, 168);
                step192!(a, b, 0x80, 192);
            }
            _ => {
                let mut a = _mm_loadu_si128(kp.cast());
                let mut b = _mm_loadu_si128(kp.add(16).cast());
                _mm_storeu_si128(wp.cast(), a);
                _mm_storeu_si128(wp.add(16).cast(), b);
                step256!(a, b, 0x01, 32);
                step256!(a, b, 0x02, 64);
                step256!(a, b, 0x04, 96);
                step256!(a, b, 0x08, 128);
                step256!(a, b, 0x10, 160);
                step256!(a, b, 0x20, 192);
                // The seventh step needs only its first half (words 56..60).
                let t = _mm_shuffle_epi32::<0xff>(_mm_aeskeygenassist_si128::<0x40>(b));
                a = _mm_xor_si128(prefix_xor(a), t);
                _mm_storeu_si128(wp.add(224).cast(), a);
            }
        }

        for (i, rk) in enc.iter_mut().enumerate().take(nr + 1) {
            rk.copy_from_slice(&w[16 * i..16 * i + 16]);
        }
        // Equivalent inverse cipher schedule, in the order of use.
        dec[0] = enc[nr];
        for i in 1..nr {
            let k = _mm_loadu_si128(enc[nr - i].as_ptr().cast());
            _mm_storeu_si128(dec[i].as_mut_ptr().cast(), _mm_aesimc_si128(k));
        }
        dec[nr] = enc[0];
    }
    crate::wipe::wipe(&mut w);
}

// ---------------------------------------------------------------------------------------
// Block kernels. `NR` is the number of rounds; `N` the number of blocks run side by side.

/// The round keys as vectors, in place (all 15; those past `Nr` are zero and unused).
#[inline(always)]
fn keys(rk: &Schedule) -> &[__m128i; 15] {
    // SAFETY: `Schedule` is 240 bytes aligned to 16, the size and alignment of
    // `[__m128i; 15]`; every bit pattern is a valid `__m128i`; the shared borrow is kept.
    unsafe { &*(rk as *const Schedule).cast::<[__m128i; 15]>() }
}

/// Rounds 0..Nr-1 of encryption on each block of `b`: the whitening XOR with `k[0]` and the
/// `Nr - 1` full rounds, round by round across the blocks. The caller does the last round.
#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
#[inline]
unsafe fn enc_rounds<const NR: usize, const N: usize>(
    _t: AesNi,
    k: &[__m128i; 15],
    b: &mut [__m128i; N],
) {
    // SAFETY: the intrinsics' features are enabled on this function; no memory is touched
    // but `b` and `k`, through references. (They are `unsafe` fns on our MSRV only.)
    #[allow(unused_unsafe)]
    unsafe {
        for x in b.iter_mut() {
            *x = _mm_xor_si128(*x, k[0]);
        }
        for rk in &k[1..NR] {
            for x in b.iter_mut() {
                *x = _mm_aesenc_si128(*x, *rk);
            }
        }
    }
}

/// Rounds 0..Nr-1 of the equivalent inverse cipher on each block; the caller does the last.
#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
#[inline]
unsafe fn dec_rounds<const NR: usize, const N: usize>(
    _t: AesNi,
    dk: &[__m128i; 15],
    b: &mut [__m128i; N],
) {
    // SAFETY: as in `enc_rounds`.
    #[allow(unused_unsafe)]
    unsafe {
        for x in b.iter_mut() {
            *x = _mm_xor_si128(*x, dk[0]);
        }
        for rk in &dk[1..NR] {
            for x in b.iter_mut() {
                *x = _mm_aesdec_si128(*x, *rk);
            }
        }
    }
}

/// Loads `N` blocks from `p`.
///
/// # Safety
/// `p` must be valid for reading `16 * N` bytes.
#[inline(always)]
unsafe fn load_n<const N: usize>(p: *const u8) -> [__m128i; N] {
    // SAFETY: block `i < N` lies inside the `16 * N` readable bytes at `p`.
    core::array::from_fn(|i| unsafe { _mm_loadu_si128(p.add(16 * i).cast()) })
}

/// Runs `$f::<NR, W>(args)` for the width `W = $n` in 1..=7 (the remainder after the
/// eight-block passes); `$n == 0` does nothing.
macro_rules! tail {
    ($n:expr, $f:ident::<$nr:ident>($($a:expr),*), $none:expr) => {
        match $n {
            1 => $f::<$nr, 1>($($a),*),
            2 => $f::<$nr, 2>($($a),*),
            3 => $f::<$nr, 3>($($a),*),
            4 => $f::<$nr, 4>($($a),*),
            5 => $f::<$nr, 5>($($a),*),
            6 => $f::<$nr, 6>($($a),*),
            7 => $f::<$nr, 7>($($a),*),
            _ => $none,
        }
    };
}

/// ECB-encrypts `N` blocks in place at `p`.
#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
#[inline]
unsafe fn ecb_enc_n<const NR: usize, const N: usize>(t: AesNi, k: &[__m128i; 15], p: *mut u8) {
    // SAFETY: the caller passes `16 * N` readable and writable bytes at `p`.
    unsafe {
        let mut b = load_n::<N>(p);
        enc_rounds::<NR, N>(t, k, &mut b);
        for (i, x) in b.iter().enumerate() {
            _mm_storeu_si128(p.add(16 * i).cast(), _mm_aesenclast_si128(*x, k[NR]));
        }
    }
}

/// ECB-decrypts `N` blocks in place at `p`.
#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
#[inline]
unsafe fn ecb_dec_n<const NR: usize, const N: usize>(t: AesNi, dk: &[__m128i; 15], p: *mut u8) {
    // SAFETY: as in `ecb_enc_n`.
    unsafe {
        let mut b = load_n::<N>(p);
        dec_rounds::<NR, N>(t, dk, &mut b);
        for (i, x) in b.iter().enumerate() {
            _mm_storeu_si128(p.add(16 * i).cast(), _mm_aesdeclast_si128(*x, dk[NR]));
        }
    }
}

#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
unsafe fn ecb_enc<const NR: usize>(t: AesNi, rk: &Schedule, data: &mut [u8]) {
    let k = keys(rk);
    if data.len() == 16 {
        // SAFETY: `data` is one block, exclusively borrowed (the single-block API's case).
        return unsafe { ecb_enc_n::<NR, 1>(t, k, data.as_mut_ptr()) };
    }
    let mut chunks = data.chunks_exact_mut(128);
    for c in &mut chunks {
        // SAFETY: `c` is 128 bytes, exclusively borrowed.
        unsafe { ecb_enc_n::<NR, 8>(t, k, c.as_mut_ptr()) };
    }
    let rest = chunks.into_remainder();
    // SAFETY: `rest` holds `rest.len() / 16` whole blocks (the callers pass whole blocks).
    unsafe {
        tail!(
            rest.len() / 16,
            ecb_enc_n::<NR>(t, k, rest.as_mut_ptr()),
            ()
        )
    }
}

#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
unsafe fn ecb_dec<const NR: usize>(t: AesNi, dk: &Schedule, data: &mut [u8]) {
    let k = keys(dk);
    if data.len() == 16 {
        // SAFETY: `data` is one block, exclusively borrowed (the single-block API's case).
        return unsafe { ecb_dec_n::<NR, 1>(t, k, data.as_mut_ptr()) };
    }
    let mut chunks = data.chunks_exact_mut(128);
    for c in &mut chunks {
        // SAFETY: `c` is 128 bytes, exclusively borrowed.
        unsafe { ecb_dec_n::<NR, 8>(t, k, c.as_mut_ptr()) };
    }
    let rest = chunks.into_remainder();
    // SAFETY: as in `ecb_enc`.
    unsafe {
        tail!(
            rest.len() / 16,
            ecb_dec_n::<NR>(t, k, rest.as_mut_ptr()),
            ()
        )
    }
}

/// XORs the keystream of counters `c + 0 .. c + N` into the `N` blocks at `p`, where `c` is
/// the byte-reversed counter (low 64 bits in lane 0) and no carry leaves the low lane.
#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
#[inline]
unsafe fn ctr_n<const NR: usize, const N: usize>(
    t: AesNi,
    k: &[__m128i; 15],
    c: __m128i,
    p: *mut u8,
) {
    // SAFETY: the caller passes `16 * N` readable and writable bytes at `p`.
    unsafe {
        let bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        let mut b = [_mm_setzero_si128(); N];
        for (i, x) in b.iter_mut().enumerate() {
            *x = _mm_shuffle_epi8(_mm_add_epi64(c, _mm_set_epi64x(0, i as i64)), bswap);
        }
        enc_rounds::<NR, N>(t, k, &mut b);
        let d = load_n::<N>(p);
        for i in 0..N {
            // aesenclast(x, k ⊕ d) = aesenclast(x, k) ⊕ d: the data XOR rides on the last round.
            let last = _mm_aesenclast_si128(b[i], _mm_xor_si128(k[NR], d[i]));
            _mm_storeu_si128(p.add(16 * i).cast(), last);
        }
    }
}

/// CTR over `data` starting at counter block `ctr`, whose low 64 bits must not wrap within
/// the call (`ctr_split` makes sure). Returns the byte-reversed counter after the last block.
#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
#[inline]
unsafe fn ctr_nowrap<const NR: usize>(
    t: AesNi,
    rk: &Schedule,
    ctr: &[u8; 16],
    data: &mut [u8],
) -> __m128i {
    let k = keys(rk);
    // SAFETY: `ctr` is 16 bytes; each chunk is 128 bytes (the remainder whole blocks),
    // exclusively borrowed; the features of the intrinsics are enabled here.
    unsafe {
        let bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        // The byte-reversed counter: low 64 bits in lane 0.
        let mut c = _mm_shuffle_epi8(_mm_loadu_si128(ctr.as_ptr().cast()), bswap);
        let eight = _mm_set_epi64x(0, 8);
        let mut chunks = data.chunks_exact_mut(128);
        for ch in &mut chunks {
            ctr_n::<NR, 8>(t, k, c, ch.as_mut_ptr());
            c = _mm_add_epi64(c, eight);
        }
        let rest = chunks.into_remainder();
        let r = rest.len() / 16;
        tail!(r, ctr_n::<NR>(t, k, c, rest.as_mut_ptr()), ());
        _mm_add_epi64(c, _mm_set_epi64x(0, r as i64))
    }
}

/// CTR over `data` when the low 64 counter bits do not wrap within it, counter update
/// included (one 16-byte load and store of the counter, see [`ctr1`]).
#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
unsafe fn ctr_long<const NR: usize>(t: AesNi, rk: &Schedule, ctr: &mut [u8; 16], data: &mut [u8]) {
    // SAFETY: the caller guarantees what `ctr_nowrap` requires; `ctr` is 16 bytes,
    // exclusively borrowed; the features of the intrinsics are enabled here.
    unsafe {
        let c = ctr_nowrap::<NR>(t, rk, ctr, data);
        let bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        _mm_storeu_si128(ctr.as_mut_ptr().cast(), _mm_shuffle_epi8(c, bswap));
    }
}

/// CTR on a single block, counter update included: short streaming calls (a 16-byte SSH
/// packet piece, say) are mostly call overhead, so this path does only what one block needs.
///
/// The counter is read and written back as one 16-byte vector, here and in [`ctr_short`],
/// [`ctr_long`] and [`advance`]: back-to-back short calls then hand it over by store
/// forwarding. (A 16-byte load of bytes written by two 8-byte stores cannot be forwarded; it
/// waits until the stores commit, that is until the previous call has retired, and the calls
/// stop overlapping.)
#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
unsafe fn ctr1<const NR: usize>(_t: AesNi, rk: &Schedule, ctr: &mut [u8; 16], block: &mut [u8]) {
    debug_assert_eq!(block.len(), 16);
    let k = keys(rk);
    // SAFETY: `ctr` and `block` are 16 bytes each (the callers pass exactly one block),
    // exclusively borrowed; the features of the intrinsics are enabled here.
    unsafe {
        let bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        let cb = _mm_loadu_si128(ctr.as_ptr().cast());
        let mut x = _mm_xor_si128(cb, k[0]);
        for rk in &k[1..NR] {
            x = _mm_aesenc_si128(x, *rk);
        }
        let d = _mm_loadu_si128(block.as_ptr().cast());
        x = _mm_aesenclast_si128(x, _mm_xor_si128(k[NR], d));
        _mm_storeu_si128(block.as_mut_ptr().cast(), x);
        // ctr + 1 mod 2^128 on the byte-reversed counter: add 1 to the low lane, and where
        // it became 0 (a carry), subtract the all-ones compare mask from the high lane.
        let c = _mm_add_epi64(_mm_shuffle_epi8(cb, bswap), _mm_set_epi64x(0, 1));
        let carry = _mm_slli_si128::<8>(_mm_cmpeq_epi64(c, _mm_setzero_si128()));
        let c = _mm_sub_epi64(c, carry);
        _mm_storeu_si128(ctr.as_mut_ptr().cast(), _mm_shuffle_epi8(c, bswap));
    }
}

/// CTR on 2..=7 blocks whose low 64 counter bits do not wrap, counter update included: one
/// pass of the right width, without the splitting and looping of the general path.
#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
unsafe fn ctr_short<const NR: usize>(t: AesNi, rk: &Schedule, ctr: &mut [u8; 16], data: &mut [u8]) {
    debug_assert!(data.len() < 128);
    let k = keys(rk);
    let n = data.len() / 16;
    // SAFETY: `ctr` is 16 bytes; `data` holds `n` (< 8) whole blocks, exclusively borrowed;
    // the caller checked that the low 64 counter bits do not wrap within them, as `ctr_n`
    // requires; the features of the intrinsics are enabled here.
    unsafe {
        let bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        let c = _mm_shuffle_epi8(_mm_loadu_si128(ctr.as_ptr().cast()), bswap);
        tail!(n, ctr_n::<NR>(t, k, c, data.as_mut_ptr()), ());
        let c = _mm_add_epi64(c, _mm_set_epi64x(0, n as i64));
        _mm_storeu_si128(ctr.as_mut_ptr().cast(), _mm_shuffle_epi8(c, bswap));
    }
}

/// CBC-decrypts `N` blocks in place at `p` after the chaining value `iv`; returns the last
/// ciphertext block (the next chaining value).
#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
#[inline]
unsafe fn cbc_dec_n<const NR: usize, const N: usize>(
    t: AesNi,
    dk: &[__m128i; 15],
    iv: __m128i,
    p: *mut u8,
) -> __m128i {
    // SAFETY: the caller passes `16 * N` readable and writable bytes at `p`; all of them are
    // loaded before the first store, so decrypting in place is fine.
    unsafe {
        let c = load_n::<N>(p);
        let mut b = c;
        dec_rounds::<NR, N>(t, dk, &mut b);
        for i in 0..N {
            let prev = if i == 0 { iv } else { c[i - 1] };
            // P_i = D(C_i) ⊕ C_{i-1}, the XOR folded into the last round key.
            let pt = _mm_aesdeclast_si128(b[i], _mm_xor_si128(dk[NR], prev));
            _mm_storeu_si128(p.add(16 * i).cast(), pt);
        }
        c[N - 1]
    }
}

#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
unsafe fn cbc_dec<const NR: usize>(t: AesNi, dk: &Schedule, iv: &mut [u8; 16], data: &mut [u8]) {
    let k = keys(dk);
    // SAFETY: `iv` is 16 readable bytes.
    let mut v = unsafe { _mm_loadu_si128(iv.as_ptr().cast()) };
    let mut chunks = data.chunks_exact_mut(128);
    for ch in &mut chunks {
        // SAFETY: `ch` is 128 bytes, exclusively borrowed.
        v = unsafe { cbc_dec_n::<NR, 8>(t, k, v, ch.as_mut_ptr()) };
    }
    let rest = chunks.into_remainder();
    // SAFETY: `rest` holds `rest.len() / 16` whole blocks.
    v = unsafe {
        tail!(
            rest.len() / 16,
            cbc_dec_n::<NR>(t, k, v, rest.as_mut_ptr()),
            v
        )
    };
    // SAFETY: `iv` is 16 writable bytes.
    unsafe { _mm_storeu_si128(iv.as_mut_ptr().cast(), v) };
}

/// CBC encryption: `C_i = E(P_i ⊕ C_{i-1})`, one block after the other.
///
/// The serial path is the rounds alone. The input of the next block's first full round is
/// `C_i ⊕ P_{i+1} ⊕ k[0]`, and `C_i = aesenclast(x, k[Nr])`, so one
/// `aesenclast(x, k[Nr] ⊕ k[0] ⊕ P_{i+1})` yields it directly (the XORs of the key with data
/// that is already loaded are off the serial path); `C_i` itself, for the output, is that
/// value XOR `k[0] ⊕ P_{i+1}` again, also off the serial path. The chain per block is then
/// Nr AES instructions and nothing else.
#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
unsafe fn cbc_enc<const NR: usize>(_t: AesNi, rk: &Schedule, iv: &mut [u8; 16], data: &mut [u8]) {
    let k = keys(rk);
    let n = data.len() / 16;
    if n == 0 {
        return;
    }
    let p = data.as_mut_ptr();
    // SAFETY: `iv` is 16 bytes; blocks `0..n` of `data` are `p + 16 i` for `i < n`,
    // exclusively borrowed; the features of the intrinsics are enabled here.
    unsafe {
        let last_first = _mm_xor_si128(k[NR], k[0]);
        // Whitened input of block 0.
        let mut x = _mm_xor_si128(
            _mm_loadu_si128(iv.as_ptr().cast()),
            _mm_xor_si128(_mm_loadu_si128(p.cast()), k[0]),
        );
        for i in 0..n - 1 {
            for rk in &k[1..NR] {
                x = _mm_aesenc_si128(x, *rk);
            }
            // P_{i+1} ⊕ k[0]: loaded before the store of C_i, which is at another address.
            let m = _mm_xor_si128(_mm_loadu_si128(p.add(16 * (i + 1)).cast()), k[0]);
            x = _mm_aesenclast_si128(x, _mm_xor_si128(last_first, _mm_xor_si128(m, k[0])));
            // x = C_i ⊕ P_{i+1} ⊕ k[0].
            _mm_storeu_si128(p.add(16 * i).cast(), _mm_xor_si128(x, m));
        }
        for rk in &k[1..NR] {
            x = _mm_aesenc_si128(x, *rk);
        }
        let c = _mm_aesenclast_si128(x, k[NR]);
        _mm_storeu_si128(p.add(16 * (n - 1)).cast(), c);
        _mm_storeu_si128(iv.as_mut_ptr().cast(), c);
    }
}

/// IGE encryption: `c_i = E(p_i ⊕ c_{i-1}) ⊕ p_{i-1}`; `iv = c_0 ‖ p_0`, updated.
///
/// As in [`cbc_enc`], the serial path is the rounds alone: the next block's whitened input
/// `c_i ⊕ p_{i+1} ⊕ k[0]` is `aesenclast(x, k[Nr] ⊕ p_{i-1} ⊕ p_{i+1} ⊕ k[0])`, and `c_i` is
/// recovered from it off the serial path.
#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
unsafe fn ige_enc<const NR: usize>(_t: AesNi, rk: &Schedule, iv: &mut [u8; 32], data: &mut [u8]) {
    let k = keys(rk);
    let n = data.len() / 16;
    if n == 0 {
        return;
    }
    let q = data.as_mut_ptr();
    // SAFETY: `iv` is 32 bytes; blocks `0..n` of `data` are `q + 16 i` for `i < n`,
    // exclusively borrowed, each loaded before it is stored; the features of the intrinsics
    // are enabled here.
    unsafe {
        let c0 = _mm_loadu_si128(iv.as_ptr().cast());
        // p_{i-1} and p_i.
        let mut pp = _mm_loadu_si128(iv.as_ptr().add(16).cast());
        let mut p = _mm_loadu_si128(q.cast());
        let mut x = _mm_xor_si128(c0, _mm_xor_si128(p, k[0]));
        for i in 0..n - 1 {
            for rk in &k[1..NR] {
                x = _mm_aesenc_si128(x, *rk);
            }
            let pn = _mm_loadu_si128(q.add(16 * (i + 1)).cast());
            let m = _mm_xor_si128(pn, k[0]);
            // x = c_i ⊕ p_{i+1} ⊕ k[0].
            x = _mm_aesenclast_si128(x, _mm_xor_si128(_mm_xor_si128(k[NR], pp), m));
            _mm_storeu_si128(q.add(16 * i).cast(), _mm_xor_si128(x, m));
            pp = p;
            p = pn;
        }
        for rk in &k[1..NR] {
            x = _mm_aesenc_si128(x, *rk);
        }
        let c = _mm_aesenclast_si128(x, _mm_xor_si128(k[NR], pp));
        _mm_storeu_si128(q.add(16 * (n - 1)).cast(), c);
        _mm_storeu_si128(iv.as_mut_ptr().cast(), c);
        _mm_storeu_si128(iv.as_mut_ptr().add(16).cast(), p);
    }
}

/// IGE decryption: `p_i = D(c_i ⊕ p_{i-1}) ⊕ c_{i-1}`; `iv = c_0 ‖ p_0`, updated. The same
/// folding as [`ige_enc`], with the roles of `c` and `p` swapped.
#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
unsafe fn ige_dec<const NR: usize>(_t: AesNi, dk: &Schedule, iv: &mut [u8; 32], data: &mut [u8]) {
    let k = keys(dk);
    let n = data.len() / 16;
    if n == 0 {
        return;
    }
    let q = data.as_mut_ptr();
    // SAFETY: as in `ige_enc`.
    unsafe {
        // c_{i-1} and c_i.
        let mut cp = _mm_loadu_si128(iv.as_ptr().cast());
        let p0 = _mm_loadu_si128(iv.as_ptr().add(16).cast());
        let mut c = _mm_loadu_si128(q.cast());
        let mut x = _mm_xor_si128(p0, _mm_xor_si128(c, k[0]));
        for i in 0..n - 1 {
            for rk in &k[1..NR] {
                x = _mm_aesdec_si128(x, *rk);
            }
            let cn = _mm_loadu_si128(q.add(16 * (i + 1)).cast());
            let m = _mm_xor_si128(cn, k[0]);
            // x = p_i ⊕ c_{i+1} ⊕ dk[0].
            x = _mm_aesdeclast_si128(x, _mm_xor_si128(_mm_xor_si128(k[NR], cp), m));
            _mm_storeu_si128(q.add(16 * i).cast(), _mm_xor_si128(x, m));
            cp = c;
            c = cn;
        }
        for rk in &k[1..NR] {
            x = _mm_aesdec_si128(x, *rk);
        }
        let p = _mm_aesdeclast_si128(x, _mm_xor_si128(k[NR], cp));
        _mm_storeu_si128(q.add(16 * (n - 1)).cast(), p);
        _mm_storeu_si128(iv.as_mut_ptr().cast(), c);
        _mm_storeu_si128(iv.as_mut_ptr().add(16).cast(), p);
    }
}

#[cfg(test)]
pub(super) mod tests {
    extern crate std;
    use super::*;
    use crate::cpu::Features;
    use std::vec::Vec;

    pub(in crate::aes) fn token() -> Option<AesNi> {
        let t = Features::hardware().get::<AesNi>();
        if t.is_none() {
            std::eprintln!("aes-ni: CPU has no AES-NI; kernel not tested");
        }
        t
    }

    fn h(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// SplitMix64 bytes: reproducible test data.
    pub(in crate::aes) fn bytes(seed: u64, n: usize) -> Vec<u8> {
        let mut s = seed;
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

    /// The modes built one block at a time from `k`'s single-block encryption and
    /// decryption: the trait's generic CBC/IGE and a plain CTR loop. The reference the
    /// interleaved kernels are checked against (its block function is checked against
    /// FIPS 197 below).
    pub(in crate::aes) struct Serial<'a, K: Kernel>(pub &'a K);

    impl<K: Kernel> Kernel for Serial<'_, K> {
        fn encrypt(&self, data: &mut [u8]) {
            for b in data.chunks_exact_mut(16) {
                self.0.encrypt(b);
            }
        }
        fn decrypt(&self, data: &mut [u8]) {
            for b in data.chunks_exact_mut(16) {
                self.0.decrypt(b);
            }
        }
        fn ctr(&self, ctr: &mut [u8; 16], data: &mut [u8]) {
            for b in data.chunks_exact_mut(16) {
                let mut ks = *ctr;
                self.0.encrypt(&mut ks);
                crate::aes::xor16(b, &ks);
                crate::aes::ctr_add(ctr, 1);
            }
        }
    }

    /// Counters that exercise every carry: none, out of the low 32 bits, the low 64 bits, and
    /// the whole 128 (wrapping to zero).
    pub(in crate::aes) const COUNTERS: [&str; 6] = [
        "000102030405060708090a0b0c0d0e0f",
        "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
        "00000000000000000000fffffffffffe",
        "0000000000000000fffffffffffffff9",
        "0123456789abcdefffffffffffffffff",
        "fffffffffffffffffffffffffffffffe",
    ];

    /// Checks every operation of `fast` against [`Serial`] over `ref_key` for `blocks`
    /// whole blocks of random data and each counter of [`COUNTERS`].
    pub(in crate::aes) fn cross_check<A: Kernel, B: Kernel>(
        fast: &A,
        slow: &B,
        blocks: usize,
        seed: u64,
    ) {
        let slow = Serial(slow);
        let data = bytes(seed, blocks * 16);
        let n = blocks * 16;

        let (mut a, mut b) = (data.clone(), data.clone());
        fast.encrypt(&mut a);
        slow.encrypt(&mut b);
        assert_eq!(a, b, "ecb encrypt, {blocks} blocks");
        fast.decrypt(&mut a);
        assert_eq!(a, data, "ecb decrypt, {blocks} blocks");

        for c in COUNTERS {
            let c0: [u8; 16] = h(c).try_into().unwrap();
            let (mut a, mut b) = (data.clone(), data.clone());
            let (mut ca, mut cb) = (c0, c0);
            fast.ctr(&mut ca, &mut a);
            slow.ctr(&mut cb, &mut b);
            assert_eq!(a, b, "ctr, {blocks} blocks, counter {c}");
            assert_eq!(ca, cb, "ctr counter out, {blocks} blocks, counter {c}");
        }

        let iv: [u8; 16] = bytes(seed ^ 1, 16).try_into().unwrap();
        let (mut a, mut b) = (data.clone(), data.clone());
        let (mut ia, mut ib) = (iv, iv);
        fast.cbc_encrypt(&mut ia, &mut a);
        slow.cbc_encrypt(&mut ib, &mut b);
        assert_eq!((&a, ia), (&b, ib), "cbc encrypt, {blocks} blocks");
        let (mut ia, mut ib) = (iv, iv);
        fast.cbc_decrypt(&mut ia, &mut a);
        slow.cbc_decrypt(&mut ib, &mut b);
        assert_eq!((&a, ia), (&b, ib), "cbc decrypt, {blocks} blocks");
        assert_eq!(a, data);

        let iv: [u8; 32] = bytes(seed ^ 2, 32).try_into().unwrap();
        let (mut a, mut b) = (data.clone(), data.clone());
        let (mut ia, mut ib) = (iv, iv);
        fast.ige_encrypt(&mut ia, &mut a);
        slow.ige_encrypt(&mut ib, &mut b);
        assert_eq!((&a, ia), (&b, ib), "ige encrypt, {blocks} blocks");
        let (mut ia, mut ib) = (iv, iv);
        fast.ige_decrypt(&mut ia, &mut a);
        slow.ige_decrypt(&mut ib, &mut b);
        assert_eq!((&a, ia), (&b, ib), "ige decrypt, {blocks} blocks");
        assert_eq!(a[..n], data[..]);
    }

    /// FIPS 197 appendix C.1-C.3: plaintext 00112233…ff under keys 000102…
    #[test]
    fn fips197_appendix_c() {
        let Some(t) = token() else { return };
        let pt = h("00112233445566778899aabbccddeeff");
        for (key, ct) in [
            (
                "000102030405060708090a0b0c0d0e0f",
                "69c4e0d86a7b0430d8cdb78070b4c55a",
            ),
            (
                "000102030405060708090a0b0c0d0e0f1011121314151617",
                "dda97ca4864cdfe06eaf70a0ec0d7191",
            ),
            (
                "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
                "8ea2b7ca516745bfeafc49904b496089",
            ),
        ] {
            let k = Key::new(t, &h(key));
            let mut b = pt.clone();
            k.encrypt(&mut b);
            assert_eq!(b, h(ct), "key {key}");
            k.decrypt(&mut b);
            assert_eq!(b, pt, "key {key}");
        }
    }

    /// FIPS 197 appendix A.1-A.3: the last round key of each example expansion (the
    /// whole schedule feeds the appendix C checks above).
    #[test]
    fn fips197_appendix_a_last_round_key() {
        let Some(t) = token() else { return };
        for (key, last) in [
            (
                "2b7e151628aed2a6abf7158809cf4f3c",
                "d014f9a8c9ee2589e13f0cc8b6630ca6",
            ),
            (
                "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
                "e98ba06f448c773c8ecc720401002202",
            ),
            (
                "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
                "fe4890d1e6188d0b046df344706c631e",
            ),
        ] {
            let k = Key::new(t, &h(key));
            assert_eq!(k.enc_keys()[k.rounds()].to_vec(), h(last), "key {key}");
            assert_eq!(k.dec_keys()[0].to_vec(), h(last), "key {key}");
            assert_eq!(k.dec_keys()[k.rounds()].to_vec(), h(key)[..16], "key {key}");
        }
    }

    /// SP 800-38A F.2.1 (CBC-AES128.Encrypt) and F.5.1 (CTR-AES128.Encrypt).
    #[test]
    fn sp800_38a_cbc_ctr() {
        let Some(t) = token() else { return };
        let k = Key::new(t, &h("2b7e151628aed2a6abf7158809cf4f3c"));
        let pt = h(concat!(
            "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51",
            "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"
        ));
        let mut iv: [u8; 16] = h("000102030405060708090a0b0c0d0e0f").try_into().unwrap();
        let mut d = pt.clone();
        k.cbc_encrypt(&mut iv, &mut d);
        let cbc = h(concat!(
            "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2",
            "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7"
        ));
        assert_eq!(d, cbc);
        assert_eq!(iv[..], cbc[48..]);
        let mut iv: [u8; 16] = h("000102030405060708090a0b0c0d0e0f").try_into().unwrap();
        k.cbc_decrypt(&mut iv, &mut d);
        assert_eq!(d, pt);

        let mut ctr: [u8; 16] = h("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff").try_into().unwrap();
        let mut d = pt.clone();
        k.ctr(&mut ctr, &mut d);
        assert_eq!(
            d,
            h(concat!(
                "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff",
                "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee"
            ))
        );
        assert_eq!(ctr, *h("f0f1f2f3f4f5f6f7f8f9fafbfcfdff03"));
    }

    /// Every operation against the one-block-at-a-time reference, every key size, every
    /// length up to 3 blocks past two 8-block strides, counters at every carry.
    #[test]
    fn cross_check_interleaved() {
        let Some(t) = token() else { return };
        for (i, len) in [16usize, 24, 32].into_iter().enumerate() {
            let k = Key::new(t, &bytes(100 + i as u64, len));
            for blocks in 0..=19 {
                cross_check(&k, &k, blocks, 1000 * i as u64 + blocks as u64);
            }
            cross_check(&k, &k, 67, 7);
        }
    }

    /// A CTR call that ends exactly where the low 64 bits wrap, and one that straddles it.
    #[test]
    fn ctr_split_points() {
        let Some(t) = token() else { return };
        let k = Key::new(t, &bytes(5, 16));
        for blocks in [1usize, 7, 8, 9, 16] {
            for back in 1..=blocks + 1 {
                let mut c0 = [0x11u8; 16];
                c0[8..].copy_from_slice(&(u64::MAX - back as u64 + 1).to_be_bytes());
                let data = bytes(blocks as u64, blocks * 16);
                let (mut a, mut b) = (data.clone(), data.clone());
                let (mut ca, mut cb) = (c0, c0);
                k.ctr(&mut ca, &mut a);
                Serial(&k).ctr(&mut cb, &mut b);
                assert_eq!((a, ca), (b, cb), "{blocks} blocks, {back} before the wrap");
            }
        }
    }
}
