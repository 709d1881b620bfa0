//! Constant-time AES with SSSE3 byte shuffles (`pshufb`): the vector-permute method of
//! Hamburg (CHES 2009), for x86_64 CPUs or VMs without AES-NI. One block per register; the
//! S-box is GF(2^4) tower-field arithmetic done by 16-entry table lookups held in registers
//! (the math and every table: `vperm.rs`).
//!
//! # Layout
//! A block is one `__m128i`, byte `4c + r` = row r, column c (FIPS 197 §3.4). Between rounds
//! it is held in the *working basis* `ENC` of `vperm.rs`, and after round ρ in the byte order
//! `SR^-ρ` (encryption) or `SR^ρ` (decryption), which turns ShiftRows into a per-round choice
//! of the MixColumns row-rotation shuffle `F_ρ`. The round keys are stored in the same basis
//! and order, with the SubBytes constant folded in, so a middle encryption round is:
//!
//! ```text
//! (io, jo) = inversion(x)                     5 shuffles of GF(16) arithmetic (vperm.rs)
//! s1 = SB1_U[io] ^ SB1_T[jo]                  ENC(S(x) ^ 0x63)
//! s2 = SB2_U[io] ^ SB2_T[jo]                  ENC(2·(S(x) ^ 0x63))
//! x  = s2 ^ F(s1 ^ s2) ^ F²(s1) ^ F³(s1) ^ k   MixColumns: 2a + 3b + c + d (FIPS 197 §5.1.3)
//! ```
//!
//! and a middle decryption round (equivalent inverse cipher, FIPS 197 §5.3.5) is
//! `14·s ^ F(11·s) ^ F²(13·s) ^ F³(9·s) ^ k` with the four products read from output tables.
//! The last round reads the S-box output in the standard basis and applies the accumulated
//! ShiftRows permutation once.
//!
//! # Modes
//! ECB, CTR and CBC decryption run two independent blocks per loop iteration (two dependency
//! chains for the out-of-order core). CBC encryption and IGE are serial; their loop
//! ([`serial`]) keeps the chaining value in the working basis, read straight from the last
//! round's tables, so the next block's input transform is off the critical path.
//!
//! Constant time: data, key and state enter only shuffles as *indices into registers*, XORs,
//! ANDs and shifts. Memory is indexed by the public round number only. The key schedule runs
//! SubWord through the same shuffle S-box.

use core::arch::x86_64::*;

use super::{Kernel, vperm};
use crate::cpu::arch::Ssse3;

/// A 16-byte table as a vector constant.
const fn v(a: [u8; 16]) -> __m128i {
    // SAFETY: `[u8; 16]` and `__m128i` have the same size and every bit pattern is valid
    // for both.
    unsafe { core::mem::transmute::<[u8; 16], __m128i>(a) }
}

const fn v4(a: [[u8; 16]; 4]) -> [__m128i; 4] {
    [v(a[0]), v(a[1]), v(a[2]), v(a[3])]
}

const NIB: __m128i = v(vperm::NIBBLE);
const IPT_LO: __m128i = v(vperm::IPT_LO);
const IPT_HI: __m128i = v(vperm::IPT_HI);
const DIPT_LO: __m128i = v(vperm::DIPT_LO);
const DIPT_HI: __m128i = v(vperm::DIPT_HI);
const INV: __m128i = v(vperm::INV);
const C_OVER: __m128i = v(vperm::C_OVER);
const SB1_U: __m128i = v(vperm::SB1_U);
const SB1_T: __m128i = v(vperm::SB1_T);
const SB2_U: __m128i = v(vperm::SB2_U);
const SB2_T: __m128i = v(vperm::SB2_T);
const SBO_U: __m128i = v(vperm::SBO_U);
const SBO_T: __m128i = v(vperm::SBO_T);
const D9_U: __m128i = v(vperm::D9_U);
const D9_T: __m128i = v(vperm::D9_T);
const DB_U: __m128i = v(vperm::DB_U);
const DB_T: __m128i = v(vperm::DB_T);
const DD_U: __m128i = v(vperm::DD_U);
const DD_T: __m128i = v(vperm::DD_T);
const DE_U: __m128i = v(vperm::DE_U);
const DE_T: __m128i = v(vperm::DE_T);
const DSBO_U: __m128i = v(vperm::DSBO_U);
const DSBO_T: __m128i = v(vperm::DSBO_T);
const D1_U: __m128i = v(vperm::D1_U);
const D1_T: __m128i = v(vperm::D1_T);
static ENC_F: [__m128i; 4] = v4(vperm::ENC_F);
static ENC_F2: [__m128i; 4] = v4(vperm::ENC_F2);
static ENC_F3: [__m128i; 4] = v4(vperm::ENC_F3);
static DEC_F: [__m128i; 4] = v4(vperm::DEC_F);
static DEC_F2: [__m128i; 4] = v4(vperm::DEC_F2);
static DEC_F3: [__m128i; 4] = v4(vperm::DEC_F3);
static SR_POW: [__m128i; 4] = v4(vperm::SR_POW);
const ROT1: __m128i = v(vperm::ROT[0]);
const ROT2: __m128i = v(vperm::ROT[1]);
const ROT3: __m128i = v(vperm::ROT[2]);

/// An AES key expanded for the SSSE3 kernel: encryption and decryption round keys in the
/// working bases and byte orders described in the module docs.
#[derive(Clone)]
pub(crate) struct VpaesSsse3 {
    t: Ssse3,
    ek: [[u8; 16]; 15],
    dk: [[u8; 16]; 15],
    nr: usize,
}

impl VpaesSsse3 {
    /// Expands a 16-, 24- or 32-byte key.
    pub(crate) fn new(t: Ssse3, key: &[u8]) -> Self {
        assert!(matches!(key.len(), 16 | 24 | 32));
        let mut k = VpaesSsse3 {
            t,
            ek: [[0; 16]; 15],
            dk: [[0; 16]; 15],
            nr: 0,
        };
        // SAFETY: the token proves SSSE3 and SSE2.
        k.nr = unsafe { expand(t, key, &mut k.ek, &mut k.dk) };
        k
    }
}

impl Drop for VpaesSsse3 {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.ek);
        crate::wipe::wipe(&mut self.dk);
    }
}

impl Kernel for VpaesSsse3 {
    fn encrypt(&self, data: &mut [u8]) {
        // SAFETY: the token proves SSSE3 and SSE2.
        unsafe { ecb_encrypt(self.t, &self.ek, self.nr, data) }
    }
    fn decrypt(&self, data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { ecb_decrypt(self.t, &self.dk, self.nr, data) }
    }
    fn ctr(&self, ctr: &mut [u8; 16], data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { ctr_ssse3(self.t, &self.ek, self.nr, ctr, data) }
    }
    fn cbc_encrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { cbc_encrypt_ssse3(self.t, &self.ek, self.nr, iv, data) }
    }
    fn cbc_decrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { cbc_decrypt_ssse3(self.t, &self.dk, self.nr, iv, data) }
    }
    fn ige_encrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { ige_ssse3(self.t, &self.ek, self.nr, iv, data, false) }
    }
    fn ige_decrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { ige_ssse3(self.t, &self.dk, self.nr, iv, data, true) }
    }
}

// The round macros expand inside `#[target_feature(enable = "ssse3,sse2")]` functions, in
// `unsafe` blocks whose SAFETY comments cover them: they only call SSE2/SSSE3 intrinsics on
// registers. (Macros rather than functions: a `#[target_feature]` function cannot be
// `#[inline(always)]`, and these must not become calls.)

/// `t[idx]` per byte; 0 where bit 7 of the index byte is set.
macro_rules! shuf {
    ($t:expr, $i:expr) => {
        _mm_shuffle_epi8($t, $i)
    };
}

macro_rules! xor {
    ($a:expr, $b:expr) => {
        _mm_xor_si128($a, $b)
    };
}

/// A linear map given by its low-nibble and high-nibble tables.
macro_rules! transform {
    ($lo:expr, $hi:expr, $x:expr) => {{
        let x = $x;
        let lo = _mm_and_si128(x, NIB);
        let hi = _mm_and_si128(_mm_srli_epi32(x, 4), NIB);
        xor!(shuf!($lo, lo), shuf!($hi, hi))
    }};
}

/// The tower-field inversion of `vperm.rs`: `(io, jo)` of each byte of `$x` (working basis).
macro_rules! inversion {
    ($x:expr) => {{
        let x = $x;
        let i = _mm_and_si128(_mm_srli_epi32(x, 4), NIB);
        let k = _mm_and_si128(x, NIB);
        let j = xor!(i, k);
        let ak = shuf!(C_OVER, k);
        let iak = xor!(shuf!(INV, i), ak);
        let jak = xor!(shuf!(INV, j), ak);
        (xor!(shuf!(INV, iak), j), xor!(shuf!(INV, jak), i))
    }};
}

/// `U[io] ^ T[jo]`.
macro_rules! lookup {
    ($u:expr, $t:expr, $io:expr, $jo:expr) => {
        xor!(shuf!($u, $io), shuf!($t, $jo))
    };
}

/// Middle encryption round `$r` with round key `$k` (module docs).
macro_rules! enc_round {
    ($x:expr, $r:expr, $k:expr) => {{
        let (io, jo) = inversion!($x);
        let s1 = lookup!(SB1_U, SB1_T, io, jo);
        let s2 = lookup!(SB2_U, SB2_T, io, jo);
        let r = $r & 3;
        let a = xor!(s2, $k);
        let b = xor!(shuf!(s1, ENC_F2[r]), shuf!(s1, ENC_F3[r]));
        xor!(xor!(a, b), shuf!(xor!(s1, s2), ENC_F[r]))
    }};
}

/// Middle decryption round `$r` with round key `$k`.
macro_rules! dec_round {
    ($x:expr, $r:expr, $k:expr) => {{
        let (io, jo) = inversion!($x);
        let r = $r & 3;
        let e = xor!(lookup!(DE_U, DE_T, io, jo), $k);
        let b = shuf!(lookup!(DB_U, DB_T, io, jo), DEC_F[r]);
        let d = shuf!(lookup!(DD_U, DD_T, io, jo), DEC_F2[r]);
        let n = shuf!(lookup!(D9_U, D9_T, io, jo), DEC_F3[r]);
        xor!(xor!(e, b), xor!(d, n))
    }};
}

/// Round keys as vectors (loaded once per call).
#[inline(always)]
fn keys(_t: Ssse3, k: &[[u8; 16]; 15]) -> [__m128i; 15] {
    // Plain copies (transmutes of `[u8; 16]`), no intrinsics; the token only marks that this
    // belongs to the SSSE3 kernel.
    let mut out = [v([0; 16]); 15];
    for (o, k) in out.iter_mut().zip(k) {
        *o = v(*k);
    }
    out
}

/// Encryption rounds 1..Nr-1 on a working-basis state that round key 0 was added to,
/// then the last round's inversion: `(io, jo)`.
macro_rules! enc_rounds {
    ($rk:expr, $nr:expr, $x:expr) => {{
        let mut x = $x;
        for r in 1..$nr {
            x = enc_round!(x, r, $rk[r]);
        }
        inversion!(x)
    }};
}

/// Decryption rounds 1..Nr-1 and the last round's inversion.
macro_rules! dec_rounds {
    ($rk:expr, $nr:expr, $x:expr) => {{
        let mut x = $x;
        for r in 1..$nr {
            x = dec_round!(x, r, $rk[r]);
        }
        inversion!(x)
    }};
}

/// Encrypts one block (standard basis in and out).
macro_rules! encrypt1 {
    ($rk:expr, $nr:expr, $x:expr) => {{
        let rk = $rk;
        let nr = $nr;
        let (io, jo) = enc_rounds!(rk, nr, xor!(transform!(IPT_LO, IPT_HI, $x), rk[0]));
        xor!(shuf!(lookup!(SBO_U, SBO_T, io, jo), SR_POW[nr & 3]), rk[nr])
    }};
}

/// Encrypts two blocks, rounds interleaved.
macro_rules! encrypt2 {
    ($rk:expr, $nr:expr, $x:expr, $y:expr) => {{
        let rk = $rk;
        let nr = $nr;
        let mut x = xor!(transform!(IPT_LO, IPT_HI, $x), rk[0]);
        let mut y = xor!(transform!(IPT_LO, IPT_HI, $y), rk[0]);
        for r in 1..nr {
            x = enc_round!(x, r, rk[r]);
            y = enc_round!(y, r, rk[r]);
        }
        let (io, jo) = inversion!(x);
        let (io2, jo2) = inversion!(y);
        let p = SR_POW[nr & 3];
        (
            xor!(shuf!(lookup!(SBO_U, SBO_T, io, jo), p), rk[nr]),
            xor!(shuf!(lookup!(SBO_U, SBO_T, io2, jo2), p), rk[nr]),
        )
    }};
}

/// Decrypts one block.
macro_rules! decrypt1 {
    ($rk:expr, $nr:expr, $x:expr) => {{
        let rk = $rk;
        let nr = $nr;
        let (io, jo) = dec_rounds!(rk, nr, xor!(transform!(DIPT_LO, DIPT_HI, $x), rk[0]));
        let p = SR_POW[(4 - (nr & 3)) & 3];
        xor!(shuf!(lookup!(DSBO_U, DSBO_T, io, jo), p), rk[nr])
    }};
}

/// Decrypts two blocks, rounds interleaved.
macro_rules! decrypt2 {
    ($rk:expr, $nr:expr, $x:expr, $y:expr) => {{
        let rk = $rk;
        let nr = $nr;
        let mut x = xor!(transform!(DIPT_LO, DIPT_HI, $x), rk[0]);
        let mut y = xor!(transform!(DIPT_LO, DIPT_HI, $y), rk[0]);
        for r in 1..nr {
            x = dec_round!(x, r, rk[r]);
            y = dec_round!(y, r, rk[r]);
        }
        let (io, jo) = inversion!(x);
        let (io2, jo2) = inversion!(y);
        let p = SR_POW[(4 - (nr & 3)) & 3];
        (
            xor!(shuf!(lookup!(DSBO_U, DSBO_T, io, jo), p), rk[nr]),
            xor!(shuf!(lookup!(DSBO_U, DSBO_T, io2, jo2), p), rk[nr]),
        )
    }};
}

/// Unaligned 16-byte load of block `i` of `d`; the caller's `chunks_exact` bounds it.
macro_rules! load {
    ($d:expr, $i:expr) => {
        _mm_loadu_si128($d.as_ptr().add(16 * $i).cast())
    };
}
macro_rules! store {
    ($d:expr, $i:expr, $x:expr) => {
        _mm_storeu_si128($d.as_mut_ptr().add(16 * $i).cast(), $x)
    };
}

/// KeyExpansion (FIPS 197 §5.2) with the shuffle S-box, then the kernel's key formats.
/// Returns Nr.
#[target_feature(enable = "ssse3,sse2")]
unsafe fn expand(t: Ssse3, key: &[u8], ek: &mut [[u8; 16]; 15], dk: &mut [[u8; 16]; 15]) -> usize {
    let mut rk = [[0u8; 16]; 15];
    let nr = vperm::expand_key(key, &mut rk, |w| {
        // SAFETY: the token proves SSSE3 and SSE2.
        unsafe { sub_word(t, w) }
    });
    // SAFETY: SSE2/SSSE3 intrinsics on registers, which the token proves; the loads and
    // stores are of whole `[u8; 16]` values.
    unsafe {
        let c63 = _mm_set1_epi8(0x63);
        let enc63 = _mm_set1_epi8(vperm::ENC_63 as i8);
        let ld = |k: &[u8; 16]| _mm_loadu_si128(k.as_ptr().cast());
        let st = |k: &mut [u8; 16], x: __m128i| _mm_storeu_si128(k.as_mut_ptr().cast(), x);
        st(&mut ek[0], transform!(IPT_LO, IPT_HI, ld(&rk[0])));
        for r in 1..nr {
            let x = xor!(transform!(IPT_LO, IPT_HI, ld(&rk[r])), enc63);
            st(&mut ek[r], shuf!(x, SR_POW[(4 - (r & 3)) & 3]));
        }
        st(&mut ek[nr], xor!(ld(&rk[nr]), c63));

        st(
            &mut dk[0],
            transform!(DIPT_LO, DIPT_HI, xor!(ld(&rk[nr]), c63)),
        );
        for r in 1..nr {
            let m = inv_mix_columns(t, ld(&rk[nr - r]));
            let x = transform!(DIPT_LO, DIPT_HI, xor!(m, c63));
            st(&mut dk[r], shuf!(x, SR_POW[r & 3]));
        }
        st(&mut dk[nr], ld(&rk[0]));
    }
    crate::wipe::wipe(&mut rk);
    nr
}

/// SubWord (FIPS 197 §5.2) through the shuffle S-box.
// Intrinsics are safe to call here from Rust 1.87 on, `unsafe` on the MSRV (1.85).
#[allow(unused_unsafe)]
#[target_feature(enable = "ssse3,sse2")]
unsafe fn sub_word(_t: Ssse3, w: [u8; 4]) -> [u8; 4] {
    // SAFETY: SSE2/SSSE3 intrinsics on registers, which the caller's token proves.
    unsafe {
        let x = _mm_cvtsi32_si128(i32::from_le_bytes(w));
        let (io, jo) = inversion!(transform!(IPT_LO, IPT_HI, x));
        let s = xor!(lookup!(SBO_U, SBO_T, io, jo), _mm_set1_epi8(0x63));
        _mm_cvtsi128_si32(s).to_le_bytes()
    }
}

/// InvMixColumns (FIPS 197 §5.3.3) of a standard-basis state, for the decryption keys.
// Intrinsics are safe to call here from Rust 1.87 on, `unsafe` on the MSRV (1.85).
#[allow(unused_unsafe)]
#[target_feature(enable = "ssse3,sse2")]
unsafe fn inv_mix_columns(_t: Ssse3, s: __m128i) -> __m128i {
    // SAFETY: SSE2/SSSE3 intrinsics on registers, which the caller's token proves.
    unsafe {
        // xtime (FIPS 197 §4.2.1) per byte: double, and add 0x1b where the top bit was set.
        let xt = |x: __m128i| {
            let top = _mm_cmplt_epi8(x, _mm_setzero_si128());
            xor!(_mm_add_epi8(x, x), _mm_and_si128(top, _mm_set1_epi8(0x1b)))
        };
        let x2 = xt(s);
        let x4 = xt(x2);
        let x8 = xt(x4);
        let m9 = xor!(x8, s);
        let m11 = xor!(m9, x2);
        let m13 = xor!(m9, x4);
        let m14 = xor!(x8, xor!(x4, x2));
        // Row r gets 14·s_r + 11·s_{r+1} + 13·s_{r+2} + 9·s_{r+3}.
        xor!(
            xor!(m14, shuf!(m11, ROT1)),
            xor!(shuf!(m13, ROT2), shuf!(m9, ROT3))
        )
    }
}

#[target_feature(enable = "ssse3,sse2")]
unsafe fn ecb_encrypt(t: Ssse3, ek: &[[u8; 16]; 15], nr: usize, data: &mut [u8]) {
    let rk = keys(t, ek);
    // SAFETY: SSE2/SSSE3 intrinsics, which the token proves; each load/store is inside its
    // chunk (32 or 16 bytes).
    unsafe {
        let mut chunks = data.chunks_exact_mut(32);
        for c in &mut chunks {
            let (a, b) = encrypt2!(&rk, nr, load!(c, 0), load!(c, 1));
            store!(c, 0, a);
            store!(c, 1, b);
        }
        for c in chunks.into_remainder().chunks_exact_mut(16) {
            store!(c, 0, encrypt1!(&rk, nr, load!(c, 0)));
        }
    }
}

#[target_feature(enable = "ssse3,sse2")]
unsafe fn ecb_decrypt(t: Ssse3, dk: &[[u8; 16]; 15], nr: usize, data: &mut [u8]) {
    let rk = keys(t, dk);
    // SAFETY: as in `ecb_encrypt`.
    unsafe {
        let mut chunks = data.chunks_exact_mut(32);
        for c in &mut chunks {
            let (a, b) = decrypt2!(&rk, nr, load!(c, 0), load!(c, 1));
            store!(c, 0, a);
            store!(c, 1, b);
        }
        for c in chunks.into_remainder().chunks_exact_mut(16) {
            store!(c, 0, decrypt1!(&rk, nr, load!(c, 0)));
        }
    }
}

/// The counter block for the public 128-bit counter `c` (big-endian bytes).
#[inline(always)]
fn counter_block(c: u128) -> __m128i {
    v(c.to_be_bytes())
}

#[target_feature(enable = "ssse3,sse2")]
unsafe fn ctr_ssse3(t: Ssse3, ek: &[[u8; 16]; 15], nr: usize, ctr: &mut [u8; 16], data: &mut [u8]) {
    let rk = keys(t, ek);
    let mut n = u128::from_be_bytes(*ctr);
    // SAFETY: as in `ecb_encrypt`.
    unsafe {
        let mut chunks = data.chunks_exact_mut(32);
        for c in &mut chunks {
            let a = counter_block(n);
            let b = counter_block(n.wrapping_add(1));
            n = n.wrapping_add(2);
            let (a, b) = encrypt2!(&rk, nr, a, b);
            store!(c, 0, xor!(load!(c, 0), a));
            store!(c, 1, xor!(load!(c, 1), b));
        }
        for c in chunks.into_remainder().chunks_exact_mut(16) {
            let a = encrypt1!(&rk, nr, counter_block(n));
            n = n.wrapping_add(1);
            store!(c, 0, xor!(load!(c, 0), a));
        }
    }
    *ctr = n.to_be_bytes();
}

#[target_feature(enable = "ssse3,sse2")]
unsafe fn cbc_encrypt_ssse3(
    t: Ssse3,
    ek: &[[u8; 16]; 15],
    nr: usize,
    iv: &mut [u8; 16],
    data: &mut [u8],
) {
    let mut unused = [0u8; 16];
    // SAFETY: the token proves SSSE3 and SSE2.
    unsafe { serial::<false, false>(t, ek, nr, iv, &mut unused, data) }
}

#[target_feature(enable = "ssse3,sse2")]
unsafe fn cbc_decrypt_ssse3(
    t: Ssse3,
    dk: &[[u8; 16]; 15],
    nr: usize,
    iv: &mut [u8; 16],
    data: &mut [u8],
) {
    let rk = keys(t, dk);
    // SAFETY: as in `ecb_encrypt`; `iv` is a whole 16-byte array.
    unsafe {
        let mut prev = _mm_loadu_si128(iv.as_ptr().cast());
        let mut chunks = data.chunks_exact_mut(32);
        for c in &mut chunks {
            let (c0, c1) = (load!(c, 0), load!(c, 1));
            let (a, b) = decrypt2!(&rk, nr, c0, c1);
            store!(c, 0, xor!(a, prev));
            store!(c, 1, xor!(b, c0));
            prev = c1;
        }
        for c in chunks.into_remainder().chunks_exact_mut(16) {
            let c0 = load!(c, 0);
            store!(c, 0, xor!(decrypt1!(&rk, nr, c0), prev));
            prev = c0;
        }
        _mm_storeu_si128(iv.as_mut_ptr().cast(), prev);
    }
}

/// The serial modes: `out_i = C(in_i ⊕ y_{i-1}) ⊕ x_{i-1}` with `y_i = out_i`, where `C` is
/// the cipher (`DEC`: its inverse). CBC encryption: `C = E`, no `x` (`IGE` false). IGE
/// (see `Kernel::ige_encrypt`): `x_i = in_i`; encryption has `(y, x) = (c, p)`, decryption
/// `(y, x) = (p, c)`. `y0` and `x0` are the initial values and receive the last ones.
///
/// The chain runs in the working basis: the last round reads the output both in the standard
/// basis (to store) and, with the tables that give the next block's basis, as
/// `ENC(out_i)` directly, so the input transform of the next block is off the critical path:
/// `ENC(in ⊕ y) ⊕ k0 = [ENC(in) ⊕ k0 ⊕ ENC(x)] ⊕ ENC(C(…))`, the bracket computed early.
#[target_feature(enable = "ssse3,sse2")]
unsafe fn serial<const DEC: bool, const IGE: bool>(
    _t: Ssse3,
    k: &[[u8; 16]; 15],
    nr: usize,
    y0: &mut [u8; 16],
    x0: &mut [u8; 16],
    data: &mut [u8],
) {
    let rk = keys(_t, k);
    // SAFETY: SSE2/SSSE3 intrinsics, which the token proves; each load/store is inside its
    // 16-byte chunk or one of the 16-byte arrays `y0`, `x0`.
    unsafe {
        // The input transform of this direction (ENC, or ENC ∘ affine⁻¹ for decryption).
        macro_rules! basis {
            ($x:expr) => {
                if DEC {
                    transform!(DIPT_LO, DIPT_HI, $x)
                } else {
                    transform!(IPT_LO, IPT_HI, $x)
                }
            };
        }
        let p = if DEC {
            SR_POW[(4 - (nr & 3)) & 3]
        } else {
            SR_POW[nr & 3]
        };
        let k_last = rk[nr];
        let k_last_b = basis!(k_last);
        let mut y = _mm_loadu_si128(y0.as_ptr().cast());
        let mut x = _mm_loadu_si128(x0.as_ptr().cast());
        let mut x_b = basis!(x);
        // The basis image of `y` is `o_b ⊕ extra`: `o_b` comes late, from the last round.
        let mut o_b = basis!(y);
        let mut extra = _mm_setzero_si128();
        for c in data.chunks_exact_mut(16) {
            let input = load!(c, 0);
            let in_b = basis!(input);
            let state = xor!(xor!(xor!(in_b, rk[0]), extra), o_b);
            let (o, next_b) = if DEC {
                let (io, jo) = dec_rounds!(rk, nr, state);
                (
                    shuf!(lookup!(DSBO_U, DSBO_T, io, jo), p),
                    shuf!(lookup!(D1_U, D1_T, io, jo), p),
                )
            } else {
                let (io, jo) = enc_rounds!(rk, nr, state);
                (
                    shuf!(lookup!(SBO_U, SBO_T, io, jo), p),
                    shuf!(lookup!(SB1_U, SB1_T, io, jo), p),
                )
            };
            // C(in ⊕ y) = o ⊕ k_last; its basis image is next_b ⊕ basis(k_last).
            o_b = next_b;
            if IGE {
                y = xor!(xor!(o, k_last), x);
                extra = xor!(k_last_b, x_b);
                x = input;
                x_b = in_b;
            } else {
                y = xor!(o, k_last);
                extra = k_last_b;
            }
            store!(c, 0, y);
        }
        if IGE {
            _mm_storeu_si128(x0.as_mut_ptr().cast(), x);
        }
        _mm_storeu_si128(y0.as_mut_ptr().cast(), y);
    }
}

/// IGE through [`serial`], in either direction; `iv` is `c_0 ‖ p_0`.
#[target_feature(enable = "ssse3,sse2")]
unsafe fn ige_ssse3(
    t: Ssse3,
    k: &[[u8; 16]; 15],
    nr: usize,
    iv: &mut [u8; 32],
    data: &mut [u8],
    decrypt: bool,
) {
    let (c, p) = iv.split_at_mut(16);
    let c: &mut [u8; 16] = c.try_into().unwrap_or_else(|_| unreachable!());
    let p: &mut [u8; 16] = p.try_into().unwrap_or_else(|_| unreachable!());
    // SAFETY: the token proves SSSE3 and SSE2.
    unsafe {
        if decrypt {
            serial::<true, true>(t, k, nr, p, c, data)
        } else {
            serial::<false, true>(t, k, nr, c, p, data)
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::cpu::Features;
    use std::vec::Vec;

    fn token() -> Option<Ssse3> {
        Features::detect().get::<Ssse3>()
    }

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// FIPS 197 appendix C.1–C.3.
    #[test]
    fn fips197_appendix_c() {
        let Some(t) = token() else { return };
        let pt = hex("00112233445566778899aabbccddeeff");
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
            let k = VpaesSsse3::new(t, &hex(key));
            let mut b = pt.clone();
            k.encrypt(&mut b);
            assert_eq!(b, hex(ct), "key {key}");
            k.decrypt(&mut b);
            assert_eq!(b, pt);
            // Three blocks: the two-block path and the single-block tail.
            let mut three = [pt.clone(), pt.clone(), pt.clone()].concat();
            k.encrypt(&mut three);
            assert_eq!(three, [hex(ct), hex(ct), hex(ct)].concat());
            k.decrypt(&mut three);
            assert_eq!(three, [pt.clone(), pt.clone(), pt.clone()].concat());
        }
    }

    const SP_PT: &str = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51\
                         30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";

    /// SP 800-38A F.2.1/F.2.2 (CBC-AES128) and F.5.1/F.5.2 (CTR-AES128).
    #[test]
    fn sp800_38a_cbc_ctr() {
        let Some(t) = token() else { return };
        let k = VpaesSsse3::new(t, &hex("2b7e151628aed2a6abf7158809cf4f3c"));
        let pt = hex(SP_PT);
        let cbc = hex(
            "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2\
             73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7",
        );
        let iv: [u8; 16] = hex("000102030405060708090a0b0c0d0e0f").try_into().unwrap();
        let mut d = pt.clone();
        let mut i = iv;
        k.cbc_encrypt(&mut i, &mut d);
        assert_eq!(d, cbc);
        assert_eq!(&i[..], &cbc[48..]);
        let mut i = iv;
        k.cbc_decrypt(&mut i, &mut d);
        assert_eq!(d, pt);
        assert_eq!(&i[..], &cbc[48..]);

        let ctr_ct = hex(
            "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff\
             5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee",
        );
        let c0: [u8; 16] = hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff").try_into().unwrap();
        let mut d = pt.clone();
        let mut c = c0;
        k.ctr(&mut c, &mut d);
        assert_eq!(d, ctr_ct);
        assert_eq!(u128::from_be_bytes(c), u128::from_be_bytes(c0) + 4);
        // Three blocks then one: the tail path and the carried counter.
        let mut c = c0;
        let mut d = pt.clone();
        k.ctr(&mut c, &mut d[..48]);
        k.ctr(&mut c, &mut d[48..]);
        assert_eq!(d, ctr_ct);
    }

    /// CTR wraps mod 2^128.
    #[test]
    fn ctr_wraps() {
        let Some(t) = token() else { return };
        let k = VpaesSsse3::new(t, &[7; 32]);
        let start = u128::MAX - 1;
        let mut c = start.to_be_bytes();
        let mut d = [0u8; 80];
        k.ctr(&mut c, &mut d);
        assert_eq!(u128::from_be_bytes(c), 3);
        for (i, b) in d.chunks(16).enumerate() {
            let mut e = start.wrapping_add(i as u128).to_be_bytes();
            k.encrypt(&mut e);
            assert_eq!(b, &e[..]);
        }
    }

    /// IGE round trip and agreement with the trait's serial default.
    #[test]
    fn ige_matches_generic() {
        let Some(t) = token() else { return };
        struct Generic<'a>(&'a VpaesSsse3);
        impl Kernel for Generic<'_> {
            fn encrypt(&self, d: &mut [u8]) {
                self.0.encrypt(d)
            }
            fn decrypt(&self, d: &mut [u8]) {
                self.0.decrypt(d)
            }
            fn ctr(&self, c: &mut [u8; 16], d: &mut [u8]) {
                self.0.ctr(c, d)
            }
        }
        for klen in [16, 24, 32] {
            let key: Vec<u8> = (0..klen as u8).map(|i| i.wrapping_mul(37)).collect();
            let k = VpaesSsse3::new(t, &key);
            let g = Generic(&k);
            let pt: Vec<u8> = (0..16 * 7).map(|i| (i * 13 + 5) as u8).collect();
            let iv0: [u8; 32] = core::array::from_fn(|i| i as u8 ^ 0x5a);
            let (mut a, mut b) = (pt.clone(), pt.clone());
            let (mut ia, mut ib) = (iv0, iv0);
            k.ige_encrypt(&mut ia, &mut a);
            g.ige_encrypt(&mut ib, &mut b);
            assert_eq!(a, b);
            assert_eq!(ia, ib);
            let (mut ia, mut ib) = (iv0, iv0);
            k.ige_decrypt(&mut ia, &mut a);
            g.ige_decrypt(&mut ib, &mut b);
            assert_eq!(a, pt);
            assert_eq!(b, pt);
            assert_eq!(ia, ib);
            // CBC against the serial/generic defaults too.
            let (mut a, mut b) = (pt.clone(), pt.clone());
            let (mut ia, mut ib) = ([9u8; 16], [9u8; 16]);
            k.cbc_encrypt(&mut ia, &mut a);
            g.cbc_encrypt(&mut ib, &mut b);
            assert_eq!((a.clone(), ia), (b.clone(), ib));
            let (mut ia, mut ib) = ([9u8; 16], [9u8; 16]);
            k.cbc_decrypt(&mut ia, &mut a);
            g.cbc_decrypt(&mut ib, &mut b);
            assert_eq!((a, ia), (pt.clone(), ib));
        }
    }

    /// Every operation against the portable kernel: random keys of each size, 0..=40 blocks
    /// (both sides of the two-block stride), counters about to wrap 32, 64 and 128 bits.
    #[test]
    fn cross_check_soft64() {
        let Some(t) = token() else { return };
        crate::aes::fixslice::tests::cross_check(
            |k| VpaesSsse3::new(t, k),
            crate::aes::soft64::Soft64::new,
        );
    }

    /// The vector S-box of the key schedule on all 256 bytes.
    #[test]
    fn sub_word_all_bytes() {
        let Some(t) = token() else { return };
        // FIPS 197 Table 4, first row.
        let row0 = hex("637c777bf26b6fc53001672bfed7ab76");
        for x in 0u8..=255 {
            // SAFETY: the token proves SSSE3 and SSE2.
            let s = unsafe { sub_word(t, [x, x ^ 1, x ^ 2, x ^ 3]) };
            // SAFETY: as above.
            let s0 = unsafe { sub_word(t, [x, 0, 0, 0]) };
            assert_eq!(s[0], s0[0]);
            if x < 16 {
                assert_eq!(s0[0], row0[x as usize]);
            }
        }
    }
}
