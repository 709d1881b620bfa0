//! AES with GFNI ("gfni-avx512"), for x86_64 CPUs and VMs that show GFNI and AVX-512 but hide
//! AES-NI: the S-box is one `vgf2p8affineinvqb` (the inverse in GF(2^8) and the affine map of
//! FIPS 197 §5.1.1 in one instruction), and MixColumns is folded into it: a round is four
//! byte shuffles, four GFNI transforms and two three-way XORs (`asm/x86_64/aes_gfni.S`, whose
//! header gives the math).
//!
//! Parallel work (ECB, CTR, CBC decryption) runs 16 blocks per step in four zmm registers, the
//! last step under byte masks; CBC encryption runs one block at a time (in lane 0 of a zmm
//! register), with a round's
//! critical path of one shuffle, one GFNI transform and two `vpternlogd`. IGE uses the trait's
//! block-at-a-time defaults over the ECB entry points.
//!
//! Keys: the FIPS 197 §5.2 round keys (from [`super::fixslice::round_keys`], undoing its
//! stored form) and the equivalent inverse cipher's keys (§5.3.5).
//!
//! Constant time: the GFNI, shuffle and ternary-logic instructions have fixed latency; the
//! assembly uses no data-dependent address or branch; the Rust around it branches on lengths
//! and the (public) counter only, and the key schedule is the portable one.

use super::Kernel;
use super::fixslice::{self, MAX_ROUND_KEYS, round_keys};
use crate::cpu::arch::GfniAvx512;
use crate::wipe::wipe;

unsafe extern "C" {
    /// `dst[i] = E(src[i])`, or `dst[i] ^= E(src[i])` when `xor != 0`, for `n` blocks.
    fn simdcrypt_aes_gfni_encrypt(
        rk: *const [u8; 16],
        nr: usize,
        src: *const u8,
        dst: *mut u8,
        n: usize,
        xor: usize,
    );
    /// As above with the equivalent inverse cipher's keys, decrypting.
    fn simdcrypt_aes_gfni_decrypt(
        dk: *const [u8; 16],
        nr: usize,
        src: *const u8,
        dst: *mut u8,
        n: usize,
        xor: usize,
    );
    /// CBC encryption of `n` blocks in place; `iv` becomes the last ciphertext block.
    fn simdcrypt_aes_gfni_cbc_encrypt(
        rk: *const [u8; 16],
        nr: usize,
        iv: *mut [u8; 16],
        data: *mut u8,
        n: usize,
    );
}

/// Counter blocks built per kernel call in CTR mode.
const CTR_BLOCKS: usize = 64;

/// An AES key expanded for the GFNI kernel.
#[derive(Clone)]
pub(crate) struct Gfni {
    t: GfniAvx512,
    ek: [[u8; 16]; MAX_ROUND_KEYS],
    dk: [[u8; 16]; MAX_ROUND_KEYS],
    nr: usize,
}

impl Gfni {
    /// Expands a 16-, 24- or 32-byte key.
    pub(crate) fn new(t: GfniAvx512, key: &[u8]) -> Self {
        let (mut stored, n) = round_keys(key);
        let nr = n - 1;
        let mut k = Gfni {
            t,
            ek: [[0; 16]; MAX_ROUND_KEYS],
            dk: [[0; 16]; MAX_ROUND_KEYS],
            nr,
        };
        // `round_keys` stores K_i with row r rotated by i·r columns and, for i ≥ 1, 0x63
        // added to every byte; undo both.
        for (i, ek) in k.ek.iter_mut().enumerate().take(n) {
            let konst = if i == 0 { 0 } else { 0x63 };
            for c in 0..4 {
                for r in 0..4 {
                    ek[4 * c + r] = stored[i][4 * ((c + i * r) % 4) + r] ^ konst;
                }
            }
        }
        wipe(&mut stored);
        k.dk[0] = k.ek[nr];
        for i in 1..nr {
            k.dk[i] = fixslice::inv_mix_round_key(&k.ek[nr - i]);
        }
        k.dk[nr] = k.ek[0];
        k
    }

    /// `dst = E(src)`, or `dst ^= E(src)` when `xor`, over whole blocks (decrypting when
    /// `dec`); `src` is `dst` itself when `None`, else at least as long.
    fn run(&self, dec: bool, src: Option<&[u8]>, dst: &mut [u8], xor: bool) {
        debug_assert!(dst.len() % 16 == 0);
        let src = match src {
            Some(s) => {
                assert!(s.len() >= dst.len());
                s.as_ptr()
            }
            None => dst.as_ptr(),
        };
        let (f, keys) = if dec {
            (simdcrypt_aes_gfni_decrypt as Entry, &self.dk)
        } else {
            (simdcrypt_aes_gfni_encrypt as Entry, &self.ek)
        };
        // The token is the proof of the features the assembly needs.
        let _proof: GfniAvx512 = self.t;
        // SAFETY: the token proves GFNI, AVX512F, AVX512BW and BMI2; `keys` holds Nr + 1
        // round keys; `src` and `dst` cover `dst.len()` bytes; the kernel touches no other
        // memory.
        unsafe {
            f(
                keys.as_ptr(),
                self.nr,
                src,
                dst.as_mut_ptr(),
                dst.len() / 16,
                xor as usize,
            )
        }
    }

    /// CTR with a counter buffer of `N` bytes: the counter blocks of up to `N` bytes of
    /// `data`, encrypted and XORed into it by one kernel call.
    fn ctr_with<const N: usize>(&self, ctr: &mut [u8; 16], data: &mut [u8]) {
        let mut c = u128::from_be_bytes(*ctr);
        let mut blocks = [0u8; N];
        for chunk in data.chunks_mut(N) {
            // The counter is public: building the blocks may depend on it.
            let n = chunk.len().div_ceil(16);
            for (i, b) in blocks.chunks_exact_mut(16).take(n).enumerate() {
                b.copy_from_slice(&c.wrapping_add(i as u128).to_be_bytes());
            }
            let whole = chunk.len() - chunk.len() % 16;
            let (body, tail) = chunk.split_at_mut(whole);
            self.run(false, Some(&blocks[..whole]), body, true);
            if !tail.is_empty() {
                // The keystream of the partial last block, then its bytes.
                let ks = &mut blocks[whole..whole + 16];
                self.run(false, None, ks, false);
                for (d, k) in tail.iter_mut().zip(ks.iter()) {
                    *d ^= k;
                }
            }
            c = c.wrapping_add((chunk.len() / 16) as u128);
        }
        wipe(&mut blocks);
        *ctr = c.to_be_bytes();
    }
}

/// The type of both ECB entry points.
type Entry = unsafe extern "C" fn(*const [u8; 16], usize, *const u8, *mut u8, usize, usize);

impl Drop for Gfni {
    fn drop(&mut self) {
        wipe(&mut self.ek);
        wipe(&mut self.dk);
    }
}

impl Kernel for Gfni {
    fn encrypt(&self, data: &mut [u8]) {
        self.run(false, None, data, false);
    }

    fn decrypt(&self, data: &mut [u8]) {
        self.run(true, None, data, false);
    }

    fn ctr(&self, ctr: &mut [u8; 16], data: &mut [u8]) {
        // A short call builds (and wipes) a short counter buffer: zeroing and wiping 1 KiB
        // would cost more than a 16-byte message's rounds.
        if data.len() <= 256 {
            self.ctr_with::<256>(ctr, data)
        } else {
            self.ctr_with::<{ 16 * CTR_BLOCKS }>(ctr, data)
        }
    }

    fn cbc_encrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        debug_assert!(data.len() % 16 == 0);
        // SAFETY: the token proves the kernel's features; `ek` holds Nr + 1 round keys,
        // `data` whole blocks, `iv` 16 bytes.
        unsafe {
            simdcrypt_aes_gfni_cbc_encrypt(
                self.ek.as_ptr(),
                self.nr,
                iv,
                data.as_mut_ptr(),
                data.len() / 16,
            )
        }
    }

    /// CBC decryption 64 blocks at a time (the blocks are independent).
    fn cbc_decrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        super::cbc_decrypt_chunks::<1024>(|d| self.decrypt(d), iv, data)
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::fixslice::tests::{cross_check, known_answers, xorshift};
    use super::super::soft64::Soft64;
    use super::*;
    use crate::abi_test::abi_call;
    use crate::cpu::Features;
    use std::vec::Vec;

    fn token() -> Option<GfniAvx512> {
        let t = Features::hardware().get::<GfniAvx512>();
        if t.is_none() {
            std::eprintln!("gfni-avx512: CPU lacks GFNI or AVX-512; kernel not tested");
        }
        t
    }

    #[test]
    fn fips197_and_sp800_38a() {
        let Some(t) = token() else { return };
        known_answers(|key| Gfni::new(t, key));
    }

    #[test]
    fn against_soft64() {
        let Some(t) = token() else { return };
        cross_check(|key| Gfni::new(t, key), Soft64::new);
    }

    /// Every length from 1 to 40 blocks and some longer ones (the masked last step of every
    /// shape), every mode, every key size, against the 64-bit portable kernel; CTR with
    /// partial last blocks and counters whose low words wrap.
    #[test]
    fn steps_and_tails() {
        let Some(t) = token() else { return };
        let mut rnd = xorshift();
        let lens: Vec<usize> = (1..=40).chain([63, 64, 65, 127, 128, 129, 200]).collect();
        for klen in [16, 24, 32] {
            let key: Vec<u8> = (0..klen).map(|_| rnd() as u8).collect();
            let k = Gfni::new(t, &key);
            let r = Soft64::new(&key);
            for &blocks in &lens {
                let data: Vec<u8> = (0..16 * blocks).map(|_| rnd() as u8).collect();
                let (mut a, mut b) = (data.clone(), data.clone());
                k.encrypt(&mut a);
                r.encrypt(&mut b);
                assert_eq!(a, b, "encrypt {blocks} blocks, key {klen}");
                k.decrypt(&mut a);
                assert_eq!(a, data, "decrypt {blocks} blocks, key {klen}");
                for cut in [0usize, 1, 15] {
                    let len = 16 * blocks - cut;
                    for low in [0u64, u64::MAX - 5] {
                        let mut c0 = [0x5au8; 16];
                        c0[8..].copy_from_slice(&low.to_be_bytes());
                        let (mut ca, mut cb) = (c0, c0);
                        let (mut a, mut b) = (data[..len].to_vec(), data[..len].to_vec());
                        k.ctr(&mut ca, &mut a);
                        r.ctr(&mut cb, &mut b);
                        assert_eq!((a, ca), (b, cb), "ctr {len} bytes, low {low:x}");
                    }
                }
                let iv = [rnd() as u8; 16];
                let (mut ia, mut ib) = (iv, iv);
                let (mut a, mut b) = (data.clone(), data.clone());
                k.cbc_encrypt(&mut ia, &mut a);
                r.cbc_encrypt(&mut ib, &mut b);
                assert_eq!((&a, ia), (&b, ib), "cbc encrypt {blocks} blocks");
                let (mut ia, mut ib) = (iv, iv);
                k.cbc_decrypt(&mut ia, &mut a);
                r.cbc_decrypt(&mut ib, &mut b);
                assert_eq!((&a, ia), (&data, ib), "cbc decrypt {blocks} blocks");
            }
        }
    }

    /// The three entry points preserve the callee-saved registers and match the portable
    /// kernel; the masked stores leave the bytes after the last block alone.
    #[test]
    fn abi() {
        let Some(t) = token() else { return };

        for klen in [16, 24, 32] {
            let key: Vec<u8> = (0..klen as u8).collect();
            let k = Gfni::new(t, &key);
            let r = Soft64::new(&key);
            for blocks in [5usize, 16, 21] {
                let data: Vec<u8> = (0..16 * blocks).map(|i| (i * 7 + klen) as u8).collect();
                for (dec, f) in [
                    (false, simdcrypt_aes_gfni_encrypt as Entry),
                    (true, simdcrypt_aes_gfni_decrypt as Entry),
                ] {
                    let mut want = data.clone();
                    let keys = if dec {
                        r.decrypt(&mut want);
                        &k.dk
                    } else {
                        r.encrypt(&mut want);
                        &k.ek
                    };
                    let mut buf = data.clone();
                    buf.extend_from_slice(&[0xa5; 64]);
                    let args = [
                        keys.as_ptr() as usize,
                        k.nr,
                        buf.as_ptr() as usize,
                        buf.as_mut_ptr() as usize,
                        blocks,
                        0,
                    ];
                    // SAFETY: `t` proves the kernel's features; `buf` holds the blocks.
                    let (_, rep) = unsafe { abi_call(f as *const (), &args) };
                    rep.assert_clean();
                    assert_eq!(&buf[..16 * blocks], &want[..], "dec {dec}, {blocks} blocks");
                    assert!(buf[16 * blocks..].iter().all(|&b| b == 0xa5), "guard bytes");
                }
                let mut want = data.clone();
                let mut iv_w = [3u8; 16];
                r.cbc_encrypt(&mut iv_w, &mut want);
                let mut buf = data.clone();
                let mut iv = [3u8; 16];
                let args = [
                    k.ek.as_ptr() as usize,
                    k.nr,
                    &mut iv as *mut [u8; 16] as usize,
                    buf.as_mut_ptr() as usize,
                    blocks,
                ];
                // SAFETY: as above.
                let (_, rep) =
                    unsafe { abi_call(simdcrypt_aes_gfni_cbc_encrypt as *const (), &args) };
                rep.assert_clean();
                assert_eq!((buf, iv), (want, iv_w), "cbc, {blocks} blocks");
            }
        }
    }
}
