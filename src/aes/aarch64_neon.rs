//! Constant-time AES with NEON table lookups (`tbl`, `vqtbl1q_u8`): the vector-permute method
//! of Hamburg (CHES 2009), for aarch64 cores without the ARMv8 crypto extensions (e.g. the
//! Cortex-A72 of a Raspberry Pi 4). One block per register; the S-box is GF(2^4) tower-field
//! arithmetic done by 16-entry table lookups held in registers (the math and every table:
//! `vperm.rs`). This is the same algorithm as `x86_64_ssse3.rs`; see its module docs for the
//! round structure.
//!
//! # Layout
//! Lane 0 of a `uint8x16_t` is the first byte of the block: byte `4c + r` = row r, column c
//! (FIPS 197 §3.4). Between rounds the block is held in the working basis of `vperm.rs`, in
//! the byte order `SR^-ρ` after encryption round ρ (`SR^ρ` for decryption); the round keys
//! are stored in the same basis and order with the SubBytes constant folded in. `tbl` returns
//! 0 for an index of 16 or more, which is what the tables' ∞ (0x80) needs; `ushr #4` gives
//! the high nibble with no mask.
//!
//! ECB, CTR and CBC decryption run two independent blocks per loop iteration; CBC encryption
//! and IGE one block at a time. (Whether this or `bitsliced-64` is faster for the parallel
//! modes on a Cortex-A72 was not measured: no such core was available, and qemu timings say
//! nothing about it.)
//!
//! Constant time: data, key and state enter only `tbl` as indices into registers, EOR, AND
//! and shifts. Memory is indexed by the public round number only. The key schedule runs
//! SubWord through the same `tbl` S-box.

use core::arch::aarch64::{
    uint8x16_t, vandq_u8, vcltzq_s8, vdupq_n_u8, veorq_u8, vld1q_u8, vqtbl1q_u8,
    vreinterpretq_s8_u8, vshlq_n_u8, vshrq_n_u8, vst1q_u8,
};

use super::{Kernel, vperm};
use crate::cpu::arch::Neon;

/// An AES key expanded for the NEON kernel: encryption and decryption round keys in the
/// working bases and byte orders of `vperm.rs`.
#[derive(Clone)]
pub(crate) struct VpaesNeon {
    t: Neon,
    ek: [[u8; 16]; 15],
    dk: [[u8; 16]; 15],
    nr: usize,
}

impl VpaesNeon {
    /// Expands a 16-, 24- or 32-byte key.
    pub(crate) fn new(t: Neon, key: &[u8]) -> Self {
        assert!(matches!(key.len(), 16 | 24 | 32));
        let mut k = VpaesNeon {
            t,
            ek: [[0; 16]; 15],
            dk: [[0; 16]; 15],
            nr: 0,
        };
        // SAFETY: the token proves NEON.
        k.nr = unsafe { expand(t, key, &mut k.ek, &mut k.dk) };
        k
    }
}

impl Drop for VpaesNeon {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.ek);
        crate::wipe::wipe(&mut self.dk);
    }
}

impl Kernel for VpaesNeon {
    fn encrypt(&self, data: &mut [u8]) {
        // SAFETY: the token proves NEON.
        unsafe { ecb_encrypt(self.t, &self.ek, self.nr, data) }
    }
    fn decrypt(&self, data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { ecb_decrypt(self.t, &self.dk, self.nr, data) }
    }
    fn ctr(&self, ctr: &mut [u8; 16], data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { ctr_neon(self.t, &self.ek, self.nr, ctr, data) }
    }
    fn cbc_encrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { cbc_encrypt_neon(self.t, &self.ek, self.nr, iv, data) }
    }
    fn cbc_decrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { cbc_decrypt_neon(self.t, &self.dk, self.nr, iv, data) }
    }
    fn ige_encrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { ige_neon(self.t, &self.ek, self.nr, iv, data, false) }
    }
    fn ige_decrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { ige_neon(self.t, &self.dk, self.nr, iv, data, true) }
    }
}

// The macros below expand inside `#[target_feature(enable = "neon")]` functions, in `unsafe`
// blocks whose SAFETY comments cover them: they call NEON intrinsics on registers and load
// 16-byte tables from `vperm` (whole arrays). Macros rather than functions: a
// `#[target_feature]` function cannot be `#[inline(always)]`, and these must not be calls.

/// A 16-byte table from `vperm` (a constant: LLVM hoists these loads out of loops).
macro_rules! tb {
    ($t:expr) => {
        vld1q_u8($t.as_ptr())
    };
}

/// `t[idx]` per byte; 0 where the index byte is 16 or more.
macro_rules! shuf {
    ($t:expr, $i:expr) => {
        vqtbl1q_u8($t, $i)
    };
}

macro_rules! xor {
    ($a:expr, $b:expr) => {
        veorq_u8($a, $b)
    };
}

/// A linear map given by its low-nibble and high-nibble tables.
macro_rules! transform {
    ($lo:expr, $hi:expr, $x:expr) => {{
        let x = $x;
        let lo = vandq_u8(x, vdupq_n_u8(0x0f));
        let hi = vshrq_n_u8(x, 4);
        xor!(shuf!(tb!($lo), lo), shuf!(tb!($hi), hi))
    }};
}

/// The tower-field inversion of `vperm.rs`: `(io, jo)` of each byte of `$x` (working basis).
macro_rules! inversion {
    ($x:expr) => {{
        let x = $x;
        let inv = tb!(vperm::INV);
        let i = vshrq_n_u8(x, 4);
        let k = vandq_u8(x, vdupq_n_u8(0x0f));
        let j = xor!(i, k);
        let ak = shuf!(tb!(vperm::C_OVER), k);
        let iak = xor!(shuf!(inv, i), ak);
        let jak = xor!(shuf!(inv, j), ak);
        (xor!(shuf!(inv, iak), j), xor!(shuf!(inv, jak), i))
    }};
}

/// `U[io] ^ T[jo]`.
macro_rules! lookup {
    ($u:expr, $t:expr, $io:expr, $jo:expr) => {
        xor!(shuf!(tb!($u), $io), shuf!(tb!($t), $jo))
    };
}

/// Middle encryption round `$r` with round key `$k`.
macro_rules! enc_round {
    ($x:expr, $r:expr, $k:expr) => {{
        let (io, jo) = inversion!($x);
        let s1 = lookup!(vperm::SB1_U, vperm::SB1_T, io, jo);
        let s2 = lookup!(vperm::SB2_U, vperm::SB2_T, io, jo);
        let r = $r & 3;
        let a = xor!(s2, $k);
        let b = xor!(
            shuf!(s1, tb!(vperm::ENC_F2[r])),
            shuf!(s1, tb!(vperm::ENC_F3[r]))
        );
        xor!(xor!(a, b), shuf!(xor!(s1, s2), tb!(vperm::ENC_F[r])))
    }};
}

/// Middle decryption round `$r` with round key `$k`.
macro_rules! dec_round {
    ($x:expr, $r:expr, $k:expr) => {{
        let (io, jo) = inversion!($x);
        let r = $r & 3;
        let e = xor!(lookup!(vperm::DE_U, vperm::DE_T, io, jo), $k);
        let b = shuf!(
            lookup!(vperm::DB_U, vperm::DB_T, io, jo),
            tb!(vperm::DEC_F[r])
        );
        let d = shuf!(
            lookup!(vperm::DD_U, vperm::DD_T, io, jo),
            tb!(vperm::DEC_F2[r])
        );
        let n = shuf!(
            lookup!(vperm::D9_U, vperm::D9_T, io, jo),
            tb!(vperm::DEC_F3[r])
        );
        xor!(xor!(e, b), xor!(d, n))
    }};
}

/// Round keys as vectors (loaded once per call).
macro_rules! keys {
    ($k:expr) => {{
        let k: &[[u8; 16]; 15] = $k;
        let mut out = [vdupq_n_u8(0); 15];
        for (o, k) in out.iter_mut().zip(k) {
            *o = vld1q_u8(k.as_ptr());
        }
        out
    }};
}

/// Encrypts one block (standard basis in and out).
macro_rules! encrypt1 {
    ($rk:expr, $nr:expr, $x:expr) => {{
        let rk = $rk;
        let nr = $nr;
        let mut x = xor!(transform!(vperm::IPT_LO, vperm::IPT_HI, $x), rk[0]);
        for r in 1..nr {
            x = enc_round!(x, r, rk[r]);
        }
        let (io, jo) = inversion!(x);
        xor!(
            shuf!(
                lookup!(vperm::SBO_U, vperm::SBO_T, io, jo),
                tb!(vperm::SR_POW[nr & 3])
            ),
            rk[nr]
        )
    }};
}

/// Encrypts two blocks, rounds interleaved.
macro_rules! encrypt2 {
    ($rk:expr, $nr:expr, $x:expr, $y:expr) => {{
        let rk = $rk;
        let nr = $nr;
        let mut x = xor!(transform!(vperm::IPT_LO, vperm::IPT_HI, $x), rk[0]);
        let mut y = xor!(transform!(vperm::IPT_LO, vperm::IPT_HI, $y), rk[0]);
        for r in 1..nr {
            x = enc_round!(x, r, rk[r]);
            y = enc_round!(y, r, rk[r]);
        }
        let (io, jo) = inversion!(x);
        let (io2, jo2) = inversion!(y);
        let p = tb!(vperm::SR_POW[nr & 3]);
        (
            xor!(
                shuf!(lookup!(vperm::SBO_U, vperm::SBO_T, io, jo), p),
                rk[nr]
            ),
            xor!(
                shuf!(lookup!(vperm::SBO_U, vperm::SBO_T, io2, jo2), p),
                rk[nr]
            ),
        )
    }};
}

/// Decrypts one block.
macro_rules! decrypt1 {
    ($rk:expr, $nr:expr, $x:expr) => {{
        let rk = $rk;
        let nr = $nr;
        let mut x = xor!(transform!(vperm::DIPT_LO, vperm::DIPT_HI, $x), rk[0]);
        for r in 1..nr {
            x = dec_round!(x, r, rk[r]);
        }
        let (io, jo) = inversion!(x);
        xor!(
            shuf!(
                lookup!(vperm::DSBO_U, vperm::DSBO_T, io, jo),
                tb!(vperm::SR_POW[(4 - (nr & 3)) & 3])
            ),
            rk[nr]
        )
    }};
}

/// Decrypts two blocks, rounds interleaved.
macro_rules! decrypt2 {
    ($rk:expr, $nr:expr, $x:expr, $y:expr) => {{
        let rk = $rk;
        let nr = $nr;
        let mut x = xor!(transform!(vperm::DIPT_LO, vperm::DIPT_HI, $x), rk[0]);
        let mut y = xor!(transform!(vperm::DIPT_LO, vperm::DIPT_HI, $y), rk[0]);
        for r in 1..nr {
            x = dec_round!(x, r, rk[r]);
            y = dec_round!(y, r, rk[r]);
        }
        let (io, jo) = inversion!(x);
        let (io2, jo2) = inversion!(y);
        let p = tb!(vperm::SR_POW[(4 - (nr & 3)) & 3]);
        (
            xor!(
                shuf!(lookup!(vperm::DSBO_U, vperm::DSBO_T, io, jo), p),
                rk[nr]
            ),
            xor!(
                shuf!(lookup!(vperm::DSBO_U, vperm::DSBO_T, io2, jo2), p),
                rk[nr]
            ),
        )
    }};
}

/// 16-byte load of block `i` of `d`; the caller's `chunks_exact` bounds it.
macro_rules! load {
    ($d:expr, $i:expr) => {
        vld1q_u8($d.as_ptr().add(16 * $i))
    };
}
macro_rules! store {
    ($d:expr, $i:expr, $x:expr) => {
        vst1q_u8($d.as_mut_ptr().add(16 * $i), $x)
    };
}

/// KeyExpansion (FIPS 197 §5.2) with the `tbl` S-box, then the kernel's key formats.
/// Returns Nr.
#[target_feature(enable = "neon")]
unsafe fn expand(t: Neon, key: &[u8], ek: &mut [[u8; 16]; 15], dk: &mut [[u8; 16]; 15]) -> usize {
    let mut rk = [[0u8; 16]; 15];
    let nr = vperm::expand_key(key, &mut rk, |w| {
        // SAFETY: the token proves NEON.
        unsafe { sub_word(t, w) }
    });
    // SAFETY: NEON intrinsics, which the token proves; the loads and stores are of whole
    // `[u8; 16]` values.
    unsafe {
        let c63 = vdupq_n_u8(0x63);
        let enc63 = vdupq_n_u8(vperm::ENC_63);
        for r in 0..=nr {
            let k = vld1q_u8(rk[r].as_ptr());
            let e = if r == 0 {
                transform!(vperm::IPT_LO, vperm::IPT_HI, k)
            } else if r == nr {
                xor!(k, c63)
            } else {
                let x = xor!(transform!(vperm::IPT_LO, vperm::IPT_HI, k), enc63);
                shuf!(x, tb!(vperm::SR_POW[(4 - (r & 3)) & 3]))
            };
            vst1q_u8(ek[r].as_mut_ptr(), e);

            let k = vld1q_u8(rk[nr - r].as_ptr());
            let d = if r == 0 {
                transform!(vperm::DIPT_LO, vperm::DIPT_HI, xor!(k, c63))
            } else if r == nr {
                k
            } else {
                let m = inv_mix_columns(t, k);
                let x = transform!(vperm::DIPT_LO, vperm::DIPT_HI, xor!(m, c63));
                shuf!(x, tb!(vperm::SR_POW[r & 3]))
            };
            vst1q_u8(dk[r].as_mut_ptr(), d);
        }
    }
    crate::wipe::wipe(&mut rk);
    nr
}

/// SubWord (FIPS 197 §5.2) through the `tbl` S-box.
#[target_feature(enable = "neon")]
unsafe fn sub_word(_t: Neon, w: [u8; 4]) -> [u8; 4] {
    let mut b = [0u8; 16];
    b[..4].copy_from_slice(&w);
    // SAFETY: NEON intrinsics, which the caller's token proves; `b` is a whole 16-byte array.
    unsafe {
        let x = vld1q_u8(b.as_ptr());
        let (io, jo) = inversion!(transform!(vperm::IPT_LO, vperm::IPT_HI, x));
        let s = xor!(
            lookup!(vperm::SBO_U, vperm::SBO_T, io, jo),
            vdupq_n_u8(0x63)
        );
        vst1q_u8(b.as_mut_ptr(), s);
    }
    let out = [b[0], b[1], b[2], b[3]];
    crate::wipe::wipe(&mut b);
    out
}

/// InvMixColumns (FIPS 197 §5.3.3) of a standard-basis state, for the decryption keys.
#[target_feature(enable = "neon")]
unsafe fn inv_mix_columns(_t: Neon, s: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON intrinsics on registers, which the caller's token proves; the permutation
    // loads read whole 16-byte arrays.
    unsafe {
        // xtime (FIPS 197 §4.2.1) per byte: double, and add 0x1b where the top bit was set.
        let xt = |x: uint8x16_t| {
            let top = vcltzq_s8(vreinterpretq_s8_u8(x));
            xor!(vshlq_n_u8(x, 1), vandq_u8(top, vdupq_n_u8(0x1b)))
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
            xor!(m14, shuf!(m11, tb!(vperm::ROT[0]))),
            xor!(
                shuf!(m13, tb!(vperm::ROT[1])),
                shuf!(m9, tb!(vperm::ROT[2]))
            )
        )
    }
}

#[target_feature(enable = "neon")]
unsafe fn ecb_encrypt(_t: Neon, ek: &[[u8; 16]; 15], nr: usize, data: &mut [u8]) {
    // SAFETY: NEON intrinsics, which the token proves; each load/store is inside its chunk
    // (32 or 16 bytes), and the key and table loads read whole 16-byte arrays.
    unsafe {
        let rk = keys!(ek);
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

#[target_feature(enable = "neon")]
unsafe fn ecb_decrypt(_t: Neon, dk: &[[u8; 16]; 15], nr: usize, data: &mut [u8]) {
    // SAFETY: as in `ecb_encrypt`.
    unsafe {
        let rk = keys!(dk);
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

#[target_feature(enable = "neon")]
unsafe fn ctr_neon(_t: Neon, ek: &[[u8; 16]; 15], nr: usize, ctr: &mut [u8; 16], data: &mut [u8]) {
    let mut n = u128::from_be_bytes(*ctr);
    // SAFETY: as in `ecb_encrypt`; the counter blocks are whole 16-byte arrays.
    unsafe {
        let rk = keys!(ek);
        let mut chunks = data.chunks_exact_mut(32);
        for c in &mut chunks {
            let a = vld1q_u8(n.to_be_bytes().as_ptr());
            let b = vld1q_u8(n.wrapping_add(1).to_be_bytes().as_ptr());
            n = n.wrapping_add(2);
            let (a, b) = encrypt2!(&rk, nr, a, b);
            store!(c, 0, xor!(load!(c, 0), a));
            store!(c, 1, xor!(load!(c, 1), b));
        }
        for c in chunks.into_remainder().chunks_exact_mut(16) {
            let a = encrypt1!(&rk, nr, vld1q_u8(n.to_be_bytes().as_ptr()));
            n = n.wrapping_add(1);
            store!(c, 0, xor!(load!(c, 0), a));
        }
    }
    *ctr = n.to_be_bytes();
}

#[target_feature(enable = "neon")]
unsafe fn cbc_encrypt_neon(
    _t: Neon,
    ek: &[[u8; 16]; 15],
    nr: usize,
    iv: &mut [u8; 16],
    data: &mut [u8],
) {
    // SAFETY: as in `ecb_encrypt`; `iv` is a whole 16-byte array.
    unsafe {
        let rk = keys!(ek);
        let mut prev = vld1q_u8(iv.as_ptr());
        for c in data.chunks_exact_mut(16) {
            prev = encrypt1!(&rk, nr, xor!(load!(c, 0), prev));
            store!(c, 0, prev);
        }
        vst1q_u8(iv.as_mut_ptr(), prev);
    }
}

#[target_feature(enable = "neon")]
unsafe fn cbc_decrypt_neon(
    _t: Neon,
    dk: &[[u8; 16]; 15],
    nr: usize,
    iv: &mut [u8; 16],
    data: &mut [u8],
) {
    // SAFETY: as in `ecb_encrypt`; `iv` is a whole 16-byte array.
    unsafe {
        let rk = keys!(dk);
        let mut prev = vld1q_u8(iv.as_ptr());
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
        vst1q_u8(iv.as_mut_ptr(), prev);
    }
}

/// IGE (see `Kernel::ige_encrypt`): `out_i = E(in_i ⊕ y_{i-1}) ⊕ x_{i-1}` where for
/// encryption `(y, x) = (c, p)` and for decryption, with `D`, `(y, x) = (p, c)`. `iv` is
/// `c_0 ‖ p_0` either way.
#[target_feature(enable = "neon")]
unsafe fn ige_neon(
    _t: Neon,
    k: &[[u8; 16]; 15],
    nr: usize,
    iv: &mut [u8; 32],
    data: &mut [u8],
    decrypt: bool,
) {
    // SAFETY: as in `ecb_encrypt`; `iv` is a whole 32-byte array.
    unsafe {
        let rk = keys!(k);
        let c0 = vld1q_u8(iv.as_ptr());
        let p0 = vld1q_u8(iv.as_ptr().add(16));
        // (y, x): the previous output block and the previous input block.
        let (mut y, mut x) = if decrypt { (p0, c0) } else { (c0, p0) };
        for c in data.chunks_exact_mut(16) {
            let input = load!(c, 0);
            let o = if decrypt {
                decrypt1!(&rk, nr, xor!(input, y))
            } else {
                encrypt1!(&rk, nr, xor!(input, y))
            };
            y = xor!(o, x);
            x = input;
            store!(c, 0, y);
        }
        let (c_last, p_last) = if decrypt { (x, y) } else { (y, x) };
        vst1q_u8(iv.as_mut_ptr(), c_last);
        vst1q_u8(iv.as_mut_ptr().add(16), p_last);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::cpu::Features;
    use std::vec::Vec;

    fn token() -> Option<Neon> {
        Features::detect().get::<Neon>()
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
            let k = VpaesNeon::new(t, &hex(key));
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
        let k = VpaesNeon::new(t, &hex("2b7e151628aed2a6abf7158809cf4f3c"));
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
        let k = VpaesNeon::new(t, &[7; 32]);
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
        struct Generic<'a>(&'a VpaesNeon);
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
            let k = VpaesNeon::new(t, &key);
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
            |k| VpaesNeon::new(t, k),
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
            // SAFETY: the token proves NEON.
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
