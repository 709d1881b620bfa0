//! AES on the AArch32 crypto extension (AESE/AESD/AESMC/AESIMC): the safe wrappers of
//! `asm/arm/aes_armv8.S` (32-bit ARM NEON and crypto intrinsics are unstable in Rust).
//!
//! The assembly functions are not `#[target_feature]` fns, so the `ArmAes` token inside
//! [`ArmAesKey`] is what proves the instructions exist; the `extern` declarations stay private
//! to this file. The key expansion (FIPS 197 §5.2) runs here in Rust on 32-bit words, with
//! SubWord computed by the assembly helper (AESE on a zero key, no table) and the decryption
//! keys of the equivalent inverse cipher (§5.3.5) by AESIMC.
//!
//! Constant time: no branch or memory index depends on key, data or keystream; the counter's
//! value (public) decides only how a CTR call is split at low-word wraps.

use super::{Kernel, ctr_add};
use crate::cpu::arch::ArmAes;
use crate::wipe::wipe;

/// Round keys in the layout `struct sched` of aes_armv8.S: 15 keys of 16 bytes (unused ones
/// zero), then Nr at byte 240. The assembly loads 11 keys with `vldm`, which needs 4-byte
/// alignment; 16 keeps each key in one cache line.
#[repr(C, align(16))]
#[derive(Clone)]
struct Sched {
    rk: [[u8; 16]; 15],
    rounds: u32,
}

const _: () = assert!(core::mem::offset_of!(Sched, rounds) == 240);

unsafe extern "C" {
    /// Needs AES + NEON (all of these). `k` is a valid `Sched`; `data` holds `nblocks` blocks,
    /// any alignment, transformed in place; `nblocks == 0` is a no-op.
    fn simdcrypt_aes_ecb_enc_armv8(k: *const Sched, data: *mut u8, nblocks: usize);
    /// As above with the decryption schedule.
    fn simdcrypt_aes_ecb_dec_armv8(dk: *const Sched, data: *mut u8, nblocks: usize);
    /// CTR over `nblocks` blocks from counter block `ctr` (16 bytes, read only), adding to its
    /// low 32-bit big-endian word only: needs `low + nblocks <= 2^32`.
    fn simdcrypt_aes_ctr32_armv8(k: *const Sched, ctr: *const u8, data: *mut u8, nblocks: usize);
    /// CBC encryption; `iv` (16 bytes) becomes the last ciphertext block.
    fn simdcrypt_aes_cbc_enc_armv8(k: *const Sched, iv: *mut u8, data: *mut u8, nblocks: usize);
    /// CBC decryption; `iv` (16 bytes) becomes the last ciphertext block.
    fn simdcrypt_aes_cbc_dec_armv8(dk: *const Sched, iv: *mut u8, data: *mut u8, nblocks: usize);
    /// IGE encryption; `iv` (32 bytes) is c_0 ‖ p_0, then the last c ‖ p.
    fn simdcrypt_aes_ige_enc_armv8(k: *const Sched, iv: *mut u8, data: *mut u8, nblocks: usize);
    /// IGE decryption; `iv` as for encryption.
    fn simdcrypt_aes_ige_dec_armv8(dk: *const Sched, iv: *mut u8, data: *mut u8, nblocks: usize);
    /// SubWord (FIPS 197 §5.2) of `w`, byte 0 = least significant. Reads no memory.
    fn simdcrypt_aes_subword_armv8(w: u32) -> u32;
    /// InvMixColumns of `n` consecutive 16-byte round keys at `rk`, in place.
    fn simdcrypt_aes_invmix_armv8(rk: *mut u8, n: usize);
}

/// Round constants of FIPS 197 §5.2: x^(i−1) in GF(2^8), for i = 1..10.
const RCON: [u32; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

/// SubWord (FIPS 197 §5.2) of `w`, byte 0 = least significant.
fn sub_word(_t: ArmAes, w: u32) -> u32 {
    // SAFETY: the token proves AES and NEON; the helper only computes on registers.
    unsafe { simdcrypt_aes_subword_armv8(w) }
}

/// InvMixColumns of each round key in `rk`.
fn inv_mix(_t: ArmAes, rk: &mut [[u8; 16]]) {
    // SAFETY: the token proves AES and NEON; `rk` is `rk.len()` consecutive 16-byte keys,
    // exclusively borrowed.
    unsafe { simdcrypt_aes_invmix_armv8(rk.as_mut_ptr().cast(), rk.len()) }
}

/// An expanded AES key for the AArch32 crypto extension.
#[derive(Clone)]
pub(crate) struct ArmAesKey {
    t: ArmAes,
    ek: Sched,
    /// The equivalent inverse cipher's keys (FIPS 197 §5.3.5).
    dk: Sched,
}

impl ArmAesKey {
    /// Expands `key` (16, 24 or 32 bytes).
    pub(crate) fn new(t: ArmAes, key: &[u8]) -> Self {
        assert!(matches!(key.len(), 16 | 24 | 32));
        let nk = key.len() / 4;
        let nr = nk + 6;
        let mut k = ArmAesKey {
            t,
            ek: Sched {
                rk: [[0; 16]; 15],
                rounds: nr as u32,
            },
            dk: Sched {
                rk: [[0; 16]; 15],
                rounds: nr as u32,
            },
        };
        // FIPS 197 §5.2 on little-endian words (byte 0 = least significant): RotWord
        // ([a0, a1, a2, a3] → [a1, a2, a3, a0]) is a right rotation by 8 bits, Rcon's byte
        // goes in the low 8 bits. The branches depend on the word index only.
        let mut w = [0u32; 60];
        for (wi, b) in w.iter_mut().zip(key.chunks_exact(4)) {
            *wi = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        for i in nk..4 * (nr + 1) {
            let mut temp = w[i - 1];
            if i % nk == 0 {
                temp = sub_word(t, temp).rotate_right(8) ^ RCON[i / nk - 1];
            } else if nk > 6 && i % nk == 4 {
                temp = sub_word(t, temp);
            }
            w[i] = w[i - nk] ^ temp;
        }
        for (r, rk) in k.ek.rk.iter_mut().enumerate().take(nr + 1) {
            for (c, b) in rk.chunks_exact_mut(4).enumerate() {
                b.copy_from_slice(&w[4 * r + c].to_le_bytes());
            }
        }
        wipe(&mut w);
        for i in 0..=nr {
            k.dk.rk[i] = k.ek.rk[nr - i];
        }
        inv_mix(t, &mut k.dk.rk[1..nr]);
        k
    }
}

impl Drop for ArmAesKey {
    fn drop(&mut self) {
        wipe(&mut self.ek.rk);
        wipe(&mut self.dk.rk);
    }
}

/// ECB encryption (or, with a decryption schedule and `dec`, decryption) in place.
fn ecb(_t: ArmAes, k: &Sched, dec: bool, data: &mut [u8]) {
    let n = data.len() / 16;
    let f = if dec {
        simdcrypt_aes_ecb_dec_armv8
    } else {
        simdcrypt_aes_ecb_enc_armv8
    };
    // SAFETY: the token proves AES and NEON; `k` is a complete schedule (of the kind `dec`
    // names, as the callers pass them); the kernel reads and writes exactly the n whole blocks
    // of `data`.
    unsafe { f(k, data.as_mut_ptr(), n) }
}

/// CTR from counter block `ctr`, advanced by the number of blocks (mod 2^128).
fn ctr(_t: ArmAes, k: &Sched, ctr: &mut [u8; 16], data: &mut [u8]) {
    let mut data = data;
    while !data.is_empty() {
        // The kernel adds to the low 32-bit word only; split where that word wraps (the
        // counter is public, so this branch reveals nothing).
        let low = u32::from_be_bytes([ctr[12], ctr[13], ctr[14], ctr[15]]);
        let room = (1u64 << 32) - u64::from(low);
        let n = ((data.len() / 16) as u64).min(room) as usize;
        let (now, rest) = data.split_at_mut(n * 16);
        // SAFETY: the token proves AES and NEON; `ctr` is 16 readable bytes; `now` holds
        // exactly n blocks and low + n <= 2^32 by the choice of n.
        unsafe { simdcrypt_aes_ctr32_armv8(k, ctr.as_ptr(), now.as_mut_ptr(), n) };
        ctr_add(ctr, n as u128);
        data = rest;
    }
}

/// CBC encryption, or with a decryption schedule and `dec`, decryption, in place; `iv`
/// becomes the last ciphertext block.
fn cbc(_t: ArmAes, k: &Sched, dec: bool, iv: &mut [u8; 16], data: &mut [u8]) {
    let n = data.len() / 16;
    let f = if dec {
        simdcrypt_aes_cbc_dec_armv8
    } else {
        simdcrypt_aes_cbc_enc_armv8
    };
    // SAFETY: the token proves AES and NEON; `k` is a complete schedule; `iv` is the 16
    // bytes the kernel reads and writes; it transforms exactly the n whole blocks of `data`.
    unsafe { f(k, iv.as_mut_ptr(), data.as_mut_ptr(), n) }
}

/// IGE encryption, or with a decryption schedule and `dec`, decryption, in place; `iv` is
/// c_0 ‖ p_0 on entry and the last c ‖ p on return.
fn ige(_t: ArmAes, k: &Sched, dec: bool, iv: &mut [u8; 32], data: &mut [u8]) {
    let n = data.len() / 16;
    let f = if dec {
        simdcrypt_aes_ige_dec_armv8
    } else {
        simdcrypt_aes_ige_enc_armv8
    };
    // SAFETY: the token proves AES and NEON; `k` is a complete schedule; `iv` is the 32
    // bytes the kernel reads and writes; it transforms exactly the n whole blocks of `data`.
    unsafe { f(k, iv.as_mut_ptr(), data.as_mut_ptr(), n) }
}

impl Kernel for ArmAesKey {
    fn encrypt(&self, data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        ecb(self.t, &self.ek, false, data);
    }

    fn decrypt(&self, data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        ecb(self.t, &self.dk, true, data);
    }

    fn ctr(&self, c: &mut [u8; 16], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        ctr(self.t, &self.ek, c, data);
    }

    fn cbc_encrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        cbc(self.t, &self.ek, false, iv, data);
    }

    fn cbc_decrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        cbc(self.t, &self.dk, true, iv, data);
    }

    fn ige_encrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        ige(self.t, &self.ek, false, iv, data);
    }

    fn ige_decrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        ige(self.t, &self.dk, true, iv, data);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::abi_test::abi_call;
    use crate::aes::xor16;
    use crate::cpu::Features;
    use crate::sha::test_util::bytes;
    use std::vec::Vec;

    fn token() -> Option<ArmAes> {
        let t = Features::hardware().get::<ArmAes>();
        if t.is_none() {
            std::eprintln!("aes armv7-ce: CPU has no AES instructions; kernel not tested");
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
            let k = ArmAesKey::new(t, &key);
            let mut b = pt.clone();
            k.encrypt(&mut b);
            assert_eq!(b, hex(ct), "{klen}");
            k.decrypt(&mut b);
            assert_eq!(b, pt, "{klen}");
        }
        let k = ArmAesKey::new(t, &hex("2b7e151628aed2a6abf7158809cf4f3c"));
        assert_eq!(
            k.ek.rk[10].to_vec(),
            hex("d014f9a8c9ee2589e13f0cc8b6630ca6")
        );
    }

    const SP_PT: &str = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51\
                         30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";

    /// SP 800-38A F.1.5 (ECB-AES256), F.2.1 (CBC-AES128), F.5.1 (CTR-AES128).
    #[test]
    fn sp800_38a() {
        let Some(t) = token() else { return };
        let pt = hex(SP_PT);
        let k256 = ArmAesKey::new(
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

        let k128 = ArmAesKey::new(t, &hex("2b7e151628aed2a6abf7158809cf4f3c"));
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
                let k = ArmAesKey::new(t, &key);
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

    /// Every entry point through the ABI harness (callee-saved r4-r11, d8-d15 and sp
    /// preserved), for each key size and 0, 1, 5 blocks (the 4-block loop and the tail), with
    /// results checked against the wrappers.
    #[test]
    fn abi() {
        let Some(t) = token() else { return };
        for klen in [16usize, 24, 32] {
            let k = ArmAesKey::new(t, &bytes(klen as u64, klen));
            for n in [0usize, 1, 5] {
                let data = bytes(7 + n as u64, n * 16);
                let iv = bytes(9, 32);
                let ek = &k.ek as *const Sched as usize;
                let dk = &k.dk as *const Sched as usize;
                let check = |f: *const (),
                             key: usize,
                             with_iv: Option<usize>,
                             want: &[u8],
                             want_iv: &[u8]| {
                    let mut d = data.clone();
                    let mut v = iv.clone();
                    let args: Vec<usize> = match with_iv {
                        Some(_) => {
                            std::vec![key, v.as_mut_ptr() as usize, d.as_mut_ptr() as usize, n]
                        }
                        None => std::vec![key, d.as_mut_ptr() as usize, n],
                    };
                    // SAFETY: the token proves the instructions exist; the arguments are a
                    // complete schedule, an iv of the length the kernel uses (32 bytes
                    // here), and n blocks of data, as the wrappers pass them.
                    let (_, rep) = unsafe { abi_call(f, &args) };
                    rep.assert_clean();
                    assert_eq!(d, want, "{klen} {n}");
                    if let Some(len) = with_iv {
                        assert_eq!(&v[..len], want_iv, "{klen} {n}");
                    }
                };
                let mut w = data.clone();
                k.encrypt(&mut w);
                check(simdcrypt_aes_ecb_enc_armv8 as *const (), ek, None, &w, &[]);
                let mut w = data.clone();
                k.decrypt(&mut w);
                check(simdcrypt_aes_ecb_dec_armv8 as *const (), dk, None, &w, &[]);
                for (f, key, len) in [
                    (simdcrypt_aes_cbc_enc_armv8 as *const (), ek, 16),
                    (simdcrypt_aes_cbc_dec_armv8 as *const (), dk, 16),
                    (simdcrypt_aes_ige_enc_armv8 as *const (), ek, 32),
                    (simdcrypt_aes_ige_dec_armv8 as *const (), dk, 32),
                ] {
                    let mut w = data.clone();
                    let mut v = iv.clone();
                    match (len, key == ek) {
                        (16, true) => k.cbc_encrypt((&mut v[..16]).try_into().unwrap(), &mut w),
                        (16, false) => k.cbc_decrypt((&mut v[..16]).try_into().unwrap(), &mut w),
                        (_, true) => k.ige_encrypt((&mut v[..]).try_into().unwrap(), &mut w),
                        (_, false) => k.ige_decrypt((&mut v[..]).try_into().unwrap(), &mut w),
                    }
                    check(f, key, Some(len), &w, &v[..len]);
                }
                // CTR: the counter is read only.
                let mut w = data.clone();
                let mut c: [u8; 16] = iv[..16].try_into().unwrap();
                c[12..].copy_from_slice(&[0, 0, 0, 1]);
                let c0 = c;
                k.ctr(&mut c, &mut w);
                let mut d = data.clone();
                let args = [ek, c0.as_ptr() as usize, d.as_mut_ptr() as usize, n];
                // SAFETY: as above; the counter's low word (1) does not wrap in n blocks.
                let (_, rep) = unsafe { abi_call(simdcrypt_aes_ctr32_armv8 as *const (), &args) };
                rep.assert_clean();
                assert_eq!(d, w, "ctr {klen} {n}");
            }
            // SAFETY: the helper takes one integer and reads no memory.
            let (r, rep) =
                unsafe { abi_call(simdcrypt_aes_subword_armv8 as *const (), &[0x0001_5300]) };
            rep.assert_clean();
            // S(0x00) = 0x63, S(0x53) = 0xed, S(0x01) = 0x7c (FIPS 197 figure 7).
            assert_eq!(r, 0x637c_ed63);
            let mut rk = [[0u8; 16]; 2];
            rk[1][0] = 1;
            // SAFETY: two 16-byte keys, exclusively borrowed.
            let (_, rep) = unsafe {
                abi_call(
                    simdcrypt_aes_invmix_armv8 as *const (),
                    &[rk.as_mut_ptr() as usize, 2],
                )
            };
            rep.assert_clean();
            // InvMixColumns of the column (1, 0, 0, 0) is the first column of its matrix
            // (FIPS 197 §5.3.3): 0e 09 0d 0b.
            assert_eq!(rk[0], [0; 16]);
            assert_eq!(rk[1][..4], [0x0e, 0x09, 0x0d, 0x0b]);
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
                    let ours = ArmAesKey::new(t, &key);
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
