//! An independent AES-GCM, written out from NIST SP 800-38D for the tests: the portable AES
//! block function (`Features::none()`) is its only piece of simdcrypt. GHASH multiplies bit by
//! bit (§6.3, Algorithm 1), the counter is `inc32` (§6.2), J0 follows §7.1 step 2. It is slow
//! and obviously not constant-time; it exists so that the cross-checks compare every backend,
//! the portable one included, with something that shares no code with them.
//!
//! Also the field arithmetic the tests need to *construct* inputs: [`iv_for_j0`] builds an IV
//! whose pre-counter block J0 is any chosen value (used to put the 32-bit counter just below
//! its wrap, which random IVs hit with probability 2^-32 per block).

use simdcrypt::aes::{Aes128, Aes192, Aes256};
use simdcrypt::cpu::Features;

/// A GF(2^128) element as SP 800-38D writes blocks: byte 0 first, so bit 0 (the coefficient
/// of x^0) is the most significant bit of the `u128` read big-endian.
pub type Block = u128;

/// R = 11100001 ‖ 0^120 (§6.3).
const R: Block = 0xe1 << 120;

/// `X • Y` by SP 800-38D §6.3 Algorithm 1, bit by bit (x_i is bit i counted from the left).
pub fn gf_mul(x: Block, y: Block) -> Block {
    let mut z = 0;
    let mut v = y;
    for i in 0..128 {
        if (x >> (127 - i)) & 1 == 1 {
            z ^= v;
        }
        v = if v & 1 == 0 { v >> 1 } else { (v >> 1) ^ R };
    }
    z
}

/// The unit of the field in this representation (x^0: the leftmost bit).
pub const ONE: Block = 1 << 127;

/// `x^(2^128 - 2)` = `x^-1` for `x != 0` (the multiplicative group has order 2^128 - 1).
pub fn gf_inv(x: Block) -> Block {
    assert_ne!(x, 0, "0 has no inverse");
    // 2^128 - 2 = 0b111...110: square-and-multiply from the top bit.
    let mut acc = ONE;
    for i in (0..128).rev() {
        acc = gf_mul(acc, acc);
        if i != 0 {
            acc = gf_mul(acc, x);
        }
    }
    acc
}

/// GHASH_H over `data` (zero-padded to whole blocks), continuing from `y`.
pub fn ghash(h: Block, mut y: Block, data: &[u8]) -> Block {
    for chunk in data.chunks(16) {
        let mut b = [0u8; 16];
        b[..chunk.len()].copy_from_slice(chunk);
        y = gf_mul(y ^ Block::from_be_bytes(b), h);
    }
    y
}

/// The block `[len(a)]_64 ‖ [len(b)]_64` of bit lengths (§7.1 step 5; §7.1 step 2 for IVs).
pub fn len_block(a_bytes: usize, b_bytes: usize) -> Block {
    ((a_bytes as u128 * 8) << 64) | (b_bytes as u128 * 8)
}

/// `inc32`: the low 32 bits plus one mod 2^32, the upper 96 bits unchanged (§6.2).
pub fn inc32(x: Block) -> Block {
    (x & !0xffff_ffff) | u128::from((x as u32).wrapping_add(1))
}

/// The AES block function of one key size, portable kernel.
pub enum Aes {
    A128(Aes128),
    A192(Aes192),
    A256(Aes256),
}

impl Aes {
    /// The portable AES of `key` (16, 24 or 32 bytes).
    pub fn new(key: &[u8]) -> Aes {
        let f = Features::none();
        match key.len() {
            16 => Aes::A128(Aes128::new_with(f, key.try_into().unwrap())),
            24 => Aes::A192(Aes192::new_with(f, key.try_into().unwrap())),
            32 => Aes::A256(Aes256::new_with(f, key.try_into().unwrap())),
            n => panic!("AES key of {n} bytes"),
        }
    }

    /// CIPH_K(x).
    pub fn encrypt(&self, x: Block) -> Block {
        let mut b = x.to_be_bytes();
        match self {
            Aes::A128(k) => k.encrypt_block(&mut b),
            Aes::A192(k) => k.encrypt_block(&mut b),
            Aes::A256(k) => k.encrypt_block(&mut b),
        }
        Block::from_be_bytes(b)
    }
}

/// The reference AES-GCM of one key: `H` and the block function.
pub struct Gcm {
    aes: Aes,
    /// H = CIPH_K(0^128) (§7.1 step 1).
    pub h: Block,
}

impl Gcm {
    pub fn new(key: &[u8]) -> Gcm {
        let aes = Aes::new(key);
        let h = aes.encrypt(0);
        Gcm { aes, h }
    }

    /// J0 (§7.1 step 2): `IV ‖ 0^31 ‖ 1` for a 96-bit IV, otherwise
    /// `GHASH_H(IV ‖ 0^(s+64) ‖ [len(IV)]_64)`.
    pub fn j0(&self, iv: &[u8]) -> Block {
        assert!(!iv.is_empty(), "empty IV");
        if iv.len() == 12 {
            let mut b = [0u8; 16];
            b[..12].copy_from_slice(iv);
            b[15] = 1;
            Block::from_be_bytes(b)
        } else {
            let y = ghash(self.h, 0, iv);
            gf_mul(y ^ len_block(0, iv.len()), self.h)
        }
    }

    /// GCTR_K(icb, data) (§6.5), in place: block i is XORed with CIPH_K(inc32^i(icb)).
    pub fn gctr(&self, icb: Block, data: &mut [u8]) {
        let mut cb = icb;
        for chunk in data.chunks_mut(16) {
            let ks = self.aes.encrypt(cb).to_be_bytes();
            for (d, k) in chunk.iter_mut().zip(ks) {
                *d ^= k;
            }
            cb = inc32(cb);
        }
    }

    /// The full tag T = MSB_t(GCTR_K(J0, S)) with S = GHASH_H(A ‖ pad ‖ C ‖ pad ‖ lengths)
    /// (§7.1 steps 5-6), untruncated.
    pub fn tag(&self, j0: Block, aad: &[u8], ct: &[u8]) -> [u8; 16] {
        let s = ghash(self.h, 0, aad);
        let s = ghash(self.h, s, ct);
        let s = gf_mul(s ^ len_block(aad.len(), ct.len()), self.h);
        (self.aes.encrypt(j0) ^ s).to_be_bytes()
    }

    /// GCM-AE_K(IV, P, A) (§7.1): `(C, full 16-byte tag)`.
    pub fn seal(&self, iv: &[u8], aad: &[u8], pt: &[u8]) -> (Vec<u8>, [u8; 16]) {
        let j0 = self.j0(iv);
        let mut ct = pt.to_vec();
        self.gctr(inc32(j0), &mut ct);
        let tag = self.tag(j0, aad, &ct);
        (ct, tag)
    }

    /// An IV of `16 * blocks` bytes (`blocks >= 1`) whose J0 is `j0`: the first `blocks - 1`
    /// blocks are `prefix` (zero-padded/truncated to that length), the last block is solved
    /// for. With `Y` the GHASH state after the prefix and `L` the length block,
    /// `J0 = ((Y ⊕ X)·H ⊕ L)·H`, so `X = (J0·H^-1 ⊕ L)·H^-1 ⊕ Y`.
    pub fn iv_for_j0(&self, j0: Block, blocks: usize, prefix: &[u8]) -> Vec<u8> {
        assert!(blocks >= 1);
        let mut iv = prefix.to_vec();
        iv.resize(16 * (blocks - 1), 0);
        let y = ghash(self.h, 0, &iv);
        let h_inv = gf_inv(self.h);
        let x = gf_mul(gf_mul(j0, h_inv) ^ len_block(0, 16 * blocks), h_inv) ^ y;
        iv.extend_from_slice(&x.to_be_bytes());
        assert_eq!(self.j0(&iv), j0, "iv_for_j0: J0 not reached");
        iv
    }
}
