//! Bitsliced AES on 32-bit ARM NEON ("bitsliced-neon"), for ARMv7 cores without the AES
//! instructions (Cortex-A7/A8/A9/A15; Cortex-A53/A72 under a 32-bit OS without the crypto
//! extension, e.g. Raspberry Pi 2/3/4): the safe wrappers of `asm/arm/aes_bs_neon.S` (32-bit
//! ARM NEON intrinsics are unstable in Rust).
//!
//! The assembly runs the fixsliced core of [`super::fixslice`] on eight blocks per batch, one
//! 128-bit q register per bit of every byte (layout `p = 32·row + 8·column + block`: one
//! 128-bit lane, so that every MixColumns rotation is a byte move); its header explains the
//! layout, the bitslicing and the S-box register allocation. Only the parallel operations use
//! it: ECB, CTR and CBC decryption, in whole batches, a partial last batch of at least
//! [`SMALL`] bytes padded with zeros. CBC encryption and IGE are serial (one block at a time),
//! calls of fewer than [`SMALL`] bytes are short, and so is a shorter last partial batch: all
//! of these go to the one-block NEON vector-permute kernel
//! [`VpaesArm`] (`asm/arm/aes_vpaes_neon.S`), which this key carries expanded from the same
//! key ([`SMALL`] gives the figures behind this), as `vpaes-neon` serves them inside the
//! aarch64 `bitsliced-neon` backend.
//!
//! The assembly functions are not `#[target_feature]` fns, so the `ArmNeon` token inside
//! [`NeonBs`] is what proves NEON exists; the `extern` declarations stay private to this
//! file. The key schedule is [`fixslice::round_keys`] (the same stored round keys as the
//! portable kernels), spread here into the bitsliced words the assembly adds.
//!
//! Constant time: no branch or memory index depends on key, data or keystream; the round
//! count and the public lengths choose the code path.

use super::arm_vpaes::VpaesArm;
use super::fixslice;
use super::{Kernel, ctr_add};
use crate::cpu::arch::ArmNeon;
use crate::wipe::wipe;

/// Bytes per batch: eight blocks.
const BATCH: usize = 128;

/// Calls shorter than this many bytes (one to three blocks), and the last partial batch of a
/// longer call when it is this short, go to the one-block kernel [`VpaesArm`].
///
/// Speed cannot be measured under qemu; `scripts/mca` models it (llvm-mca on the traced
/// instruction stream, AES-128; model estimates, cycles on the Cortex-A9 / Swift /
/// Cortex-A57 (AArch32) models): a one-batch bitsliced encryption call costs about
/// 2935 / 1940 / 1163 whatever the number of blocks up to 8 (CBC decryption, per batch:
/// 3315 / 2092 / 1306); `VpaesArm` 496 / 550 / 382 per encrypted block (605 / 730 / 409
/// decrypting), 525 / 568 / 396 for a one-block call. The crossing is at about 6 blocks
/// on A9, 3.5 on Swift and 3 on A57: up to three blocks `VpaesArm` is faster or level
/// everywhere (Swift decrypting: about 5 % slower), at four blocks it loses by 14 % (Swift)
/// to 33 % (A57). The portable `Soft32` it replaced cost 2291 / 1478 / 1305 for one block.
const SMALL: usize = 64;

/// The length of the head of a `len`-byte call that the bitsliced batches take: the whole
/// call, or only its whole batches when the rest is shorter than [`SMALL`] (then [`VpaesArm`]
/// takes the rest; calls shorter than [`SMALL`] entirely).
fn batched_len(len: usize) -> usize {
    let whole = len - len % BATCH;
    if len - whole < SMALL { whole } else { len }
}

/// Round keys in the layout `struct sched` of aes_bs_neon.S: 15 keys of 8 bitsliced words
/// (unused ones zero), then Nr at byte 1920. The assembly loads the words with `vldm` and
/// spills with `:128`-aligned stores on its own frame; 16-byte alignment keeps each word in
/// one cache line.
#[repr(C, align(16))]
#[derive(Clone)]
struct Sched {
    rk: [[[u8; 16]; 8]; fixslice::MAX_ROUND_KEYS],
    nr: u32,
}

const _: () = assert!(core::mem::offset_of!(Sched, nr) == 1920);

unsafe extern "C" {
    /// Needs NEON (all of these). `k` is a valid `Sched`; `data` holds `nbatches` batches of
    /// 8 blocks (128 bytes), any alignment, encrypted in place; `nbatches == 0` is a no-op.
    fn simdcrypt_aes_bs_enc_neon(k: *const Sched, data: *mut u8, nbatches: usize);
    /// As above, decrypting.
    fn simdcrypt_aes_bs_dec_neon(k: *const Sched, data: *mut u8, nbatches: usize);
    /// XORs E(ctr), E(ctr + 1), … (`ctr` a 128-bit big-endian integer, 16 bytes, read only;
    /// wraps mod 2^128) into the `nbatches` batches at `data`.
    fn simdcrypt_aes_bs_ctr_neon(k: *const Sched, ctr: *const u8, data: *mut u8, nbatches: usize);
    /// CBC decryption of `nbatches` batches; `iv` (16 bytes) becomes the last ciphertext
    /// block.
    fn simdcrypt_aes_bs_cbc_dec_neon(k: *const Sched, iv: *mut u8, data: *mut u8, nbatches: usize);
}

/// An AES key expanded for the NEON bitsliced kernel, and for [`VpaesArm`] (serial modes and
/// short calls).
#[derive(Clone)]
pub(crate) struct NeonBs {
    t: ArmNeon,
    k: Sched,
    serial: VpaesArm,
}

impl NeonBs {
    /// Expands a 16-, 24- or 32-byte key.
    pub(crate) fn new(t: ArmNeon, key: &[u8]) -> Self {
        assert!(matches!(key.len(), 16 | 24 | 32));
        let (mut keys, n) = fixslice::round_keys(key);
        let mut k = Sched {
            rk: [[[0; 16]; 8]; fixslice::MAX_ROUND_KEYS],
            nr: (n - 1) as u32,
        };
        // Stored byte (row r, column s) of key i is `keys[i][4s + r]`; word b of the
        // assembly's key i has it at byte 4r + s, as 0xff if its bit b is set (without a
        // branch: 0 - bit).
        for (words, key) in k.rk.iter_mut().zip(&keys).take(n) {
            for (b, word) in words.iter_mut().enumerate() {
                for r in 0..4 {
                    for s in 0..4 {
                        word[4 * r + s] = 0u8.wrapping_sub((key[4 * s + r] >> b) & 1);
                    }
                }
            }
        }
        wipe(&mut keys);
        NeonBs {
            t,
            k,
            serial: VpaesArm::new(t, key),
        }
    }
}

impl Drop for NeonBs {
    fn drop(&mut self) {
        wipe(&mut self.k.rk);
        // `serial` wipes its own keys.
    }
}

/// Which whole-batch assembly function [`batches`] runs.
#[derive(Clone, Copy)]
enum Op {
    Encrypt,
    Decrypt,
}

/// ECB over `data` (whole blocks): the whole batches in one call, a partial last batch
/// through a zero-padded buffer.
fn batches(_t: ArmNeon, k: &Sched, op: Op, data: &mut [u8]) {
    let f = match op {
        Op::Encrypt => simdcrypt_aes_bs_enc_neon,
        Op::Decrypt => simdcrypt_aes_bs_dec_neon,
    };
    let n = data.len() / BATCH;
    let (whole, rest) = data.split_at_mut(n * BATCH);
    // SAFETY: the token proves NEON; `k` is a complete schedule; the kernel reads and writes
    // exactly the n batches of `whole`, which we borrow mutably.
    unsafe { f(k, whole.as_mut_ptr(), n) };
    if !rest.is_empty() {
        let mut buf = [0u8; BATCH];
        buf[..rest.len()].copy_from_slice(rest);
        // SAFETY: as above, one batch of `buf`.
        unsafe { f(k, buf.as_mut_ptr(), 1) };
        rest.copy_from_slice(&buf[..rest.len()]);
        wipe(&mut buf);
    }
}

/// CTR over `data` (whole blocks) from counter block `ctr`, advanced by the number of
/// blocks (mod 2^128).
fn ctr(_t: ArmNeon, k: &Sched, ctr: &mut [u8; 16], data: &mut [u8]) {
    let n = data.len() / BATCH;
    let (whole, rest) = data.split_at_mut(n * BATCH);
    // SAFETY: the token proves NEON; `k` is a complete schedule; `ctr` is 16 readable bytes;
    // the kernel reads and writes exactly the n batches of `whole`.
    unsafe { simdcrypt_aes_bs_ctr_neon(k, ctr.as_ptr(), whole.as_mut_ptr(), n) };
    ctr_add(ctr, (n * 8) as u128);
    if !rest.is_empty() {
        let mut buf = [0u8; BATCH];
        buf[..rest.len()].copy_from_slice(rest);
        // SAFETY: as above, one batch of `buf`.
        unsafe { simdcrypt_aes_bs_ctr_neon(k, ctr.as_ptr(), buf.as_mut_ptr(), 1) };
        rest.copy_from_slice(&buf[..rest.len()]);
        ctr_add(ctr, (rest.len() / 16) as u128);
        wipe(&mut buf);
    }
}

/// CBC decryption of `data` (whole blocks); `iv` becomes the last ciphertext block.
fn cbc_decrypt(_t: ArmNeon, k: &Sched, iv: &mut [u8; 16], data: &mut [u8]) {
    let n = data.len() / BATCH;
    let (whole, rest) = data.split_at_mut(n * BATCH);
    // SAFETY: the token proves NEON; `k` is a complete schedule; `iv` is the 16 bytes the
    // kernel reads and writes; it transforms exactly the n batches of `whole`.
    unsafe { simdcrypt_aes_bs_cbc_dec_neon(k, iv.as_mut_ptr(), whole.as_mut_ptr(), n) };
    if !rest.is_empty() {
        let m = rest.len();
        let mut last = [0u8; 16];
        last.copy_from_slice(&rest[m - 16..]);
        let mut buf = [0u8; BATCH];
        buf[..m].copy_from_slice(rest);
        // SAFETY: as above, one batch of `buf` (its padding decrypts to garbage that is
        // dropped; the chaining value it leaves in `iv` is replaced below).
        unsafe { simdcrypt_aes_bs_cbc_dec_neon(k, iv.as_mut_ptr(), buf.as_mut_ptr(), 1) };
        rest.copy_from_slice(&buf[..m]);
        *iv = last;
        wipe(&mut buf);
    }
}

impl Kernel for NeonBs {
    fn encrypt(&self, data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        let (head, tail) = data.split_at_mut(batched_len(data.len()));
        batches(self.t, &self.k, Op::Encrypt, head);
        self.serial.encrypt(tail);
    }

    fn decrypt(&self, data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        let (head, tail) = data.split_at_mut(batched_len(data.len()));
        batches(self.t, &self.k, Op::Decrypt, head);
        self.serial.decrypt(tail);
    }

    fn ctr(&self, c: &mut [u8; 16], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        let (head, tail) = data.split_at_mut(batched_len(data.len()));
        ctr(self.t, &self.k, c, head);
        self.serial.ctr(c, tail);
    }

    fn cbc_encrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        self.serial.cbc_encrypt(iv, data)
    }

    fn cbc_decrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        let (head, tail) = data.split_at_mut(batched_len(data.len()));
        cbc_decrypt(self.t, &self.k, iv, head);
        self.serial.cbc_decrypt(iv, tail);
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
    use super::super::soft32::Soft32;
    use super::super::soft64::Soft64;
    use super::*;
    use crate::abi_test::abi_call;
    use crate::cpu::Features;
    use std::vec::Vec;

    fn token() -> Option<ArmNeon> {
        let t = Features::hardware().get::<ArmNeon>();
        if t.is_none() {
            std::eprintln!("aes bitsliced-neon: CPU has no NEON; kernel not tested");
        }
        t
    }

    /// The bitsliced paths alone, for every length (the `Kernel` impl of [`NeonBs`] sends
    /// short calls and the serial modes to `VpaesArm`; here CBC encryption and IGE run the default
    /// methods over one-block NEON batches).
    struct NeonOnly(NeonBs);

    impl Kernel for NeonOnly {
        fn encrypt(&self, data: &mut [u8]) {
            batches(self.0.t, &self.0.k, Op::Encrypt, data);
        }

        fn decrypt(&self, data: &mut [u8]) {
            batches(self.0.t, &self.0.k, Op::Decrypt, data);
        }

        fn ctr(&self, c: &mut [u8; 16], data: &mut [u8]) {
            ctr(self.0.t, &self.0.k, c, data);
        }

        fn cbc_decrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
            cbc_decrypt(self.0.t, &self.0.k, iv, data);
        }
    }

    #[test]
    fn fips197_and_sp800_38a() {
        let Some(t) = token() else { return };
        known_answers(|key| NeonBs::new(t, key));
        known_answers(|key| NeonOnly(NeonBs::new(t, key)));
    }

    #[test]
    fn cross_check_portable() {
        let Some(t) = token() else { return };
        cross_check(|key| NeonBs::new(t, key), Soft32::new);
        cross_check(|key| NeonOnly(NeonBs::new(t, key)), Soft64::new);
    }

    /// Every whole-block length up to 600 bytes, offsets 0-3, counter wraps, against
    /// `Soft32` (`fixslice::tests::lengths_offsets_and_counter_wraps`): the whole kernel and its
    /// bitsliced paths alone.
    #[test]
    fn lengths_offsets_and_counter_wraps() {
        let Some(t) = token() else { return };
        super::super::fixslice::tests::lengths_offsets_and_counter_wraps(
            |key| {
                std::vec![
                    std::boxed::Box::new(NeonBs::new(t, key)) as std::boxed::Box<dyn Kernel>,
                    std::boxed::Box::new(NeonOnly(NeonBs::new(t, key))),
                ]
            },
            Soft32::new,
        );
    }

    /// The key words: word b of key i has 0xff at byte 4r + s exactly where bit b of the
    /// stored byte (row r, column s) of `fixslice::round_keys` is set, 0 elsewhere.
    #[test]
    fn key_words_match_round_keys() {
        let Some(t) = token() else { return };
        let key: Vec<u8> = (0..32u8).map(|i| i.wrapping_mul(37) ^ 0x5a).collect();
        for len in [16, 24, 32] {
            let k = NeonBs::new(t, &key[..len]);
            let (keys, n) = fixslice::round_keys(&key[..len]);
            assert_eq!(k.k.nr as usize, n - 1);
            for (i, (words, stored)) in k.k.rk.iter().zip(&keys).enumerate() {
                for (b, word) in words.iter().enumerate() {
                    for r in 0..4 {
                        for s in 0..4 {
                            let bit = i < n && (stored[4 * s + r] >> b) & 1 == 1;
                            let want = if bit { 0xff } else { 0 };
                            assert_eq!(word[4 * r + s], want, "{len} {i} {b} {r} {s}");
                        }
                    }
                }
            }
        }
    }

    /// Every entry point through the ABI harness (callee-saved r4-r11, d8-d15 and sp
    /// preserved), for each key size and 0, 1, 2 batches, with results checked against the
    /// wrappers (which `cross_check` checks against the portable kernels).
    #[test]
    fn abi() {
        let Some(t) = token() else { return };
        let mut rng = Rng(99);
        for klen in [16usize, 24, 32] {
            let mut key = [0u8; 32];
            rng.fill(&mut key[..klen]);
            let k = NeonBs::new(t, &key[..klen]);
            let sched = &k.k as *const Sched as usize;
            for n in [0usize, 1, 2] {
                let mut data = std::vec![0u8; n * BATCH];
                rng.fill(&mut data);
                let mut iv = [0u8; 16];
                rng.fill(&mut iv);

                for (f, op) in [
                    (simdcrypt_aes_bs_enc_neon as *const (), Op::Encrypt),
                    (simdcrypt_aes_bs_dec_neon as *const (), Op::Decrypt),
                ] {
                    let mut want = data.clone();
                    batches(t, &k.k, op, &mut want);
                    let mut d = data.clone();
                    // SAFETY: the token proves NEON; a complete schedule and n batches of
                    // data, as the wrappers pass them.
                    let (_, rep) = unsafe { abi_call(f, &[sched, d.as_mut_ptr() as usize, n]) };
                    rep.assert_clean();
                    assert_eq!(d, want, "ecb {klen} {n}");
                }

                let mut want = data.clone();
                let mut c = iv;
                ctr(t, &k.k, &mut c, &mut want);
                let mut d = data.clone();
                let args = [sched, iv.as_ptr() as usize, d.as_mut_ptr() as usize, n];
                // SAFETY: as above; the counter is 16 readable bytes.
                let (_, rep) = unsafe { abi_call(simdcrypt_aes_bs_ctr_neon as *const (), &args) };
                rep.assert_clean();
                assert_eq!(d, want, "ctr {klen} {n}");

                let mut want = data.clone();
                let mut want_iv = iv;
                cbc_decrypt(t, &k.k, &mut want_iv, &mut want);
                let mut d = data.clone();
                let mut v = iv;
                let args = [sched, v.as_mut_ptr() as usize, d.as_mut_ptr() as usize, n];
                // SAFETY: as above; the iv is 16 writable bytes.
                let (_, rep) =
                    unsafe { abi_call(simdcrypt_aes_bs_cbc_dec_neon as *const (), &args) };
                rep.assert_clean();
                assert_eq!(d, want, "cbc {klen} {n}");
                assert_eq!(v, want_iv, "cbc iv {klen} {n}");
            }
        }
    }
}
