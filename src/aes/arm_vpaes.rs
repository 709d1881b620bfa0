//! Vector-permute AES on 32-bit ARM NEON (Hamburg, CHES 2009), one block at a time: the safe
//! wrappers of `asm/arm/aes_vpaes_neon.S`, for ARMv7 cores with NEON but without the AES
//! instructions. It serves what the 8-block bitsliced kernel ([`super::arm_neon_bs`]) cannot
//! serve well: the serial modes (CBC encryption, IGE) and short calls.
//!
//! The algorithm, the working basis and the tables are those of [`super::vperm`], in the round
//! structure of `aarch64_neon.rs` (`vpaes-neon`). The assembly gets the tables through a
//! pointer in the key structure ([`Tables`], built at compile time from `vperm.rs`; nothing is
//! typed into the `.S`). The key schedule runs here, in portable constant-time Rust: SubWord
//! and InvMixColumns are the portable kernel's ([`fixslice::sub_word`],
//! [`fixslice::inv_mix_round_key`]); the 16-entry lookups of the basis changes are done by
//! [`shuf`], which reads every table entry and selects with masks, as `aarch64_neon.rs`'s
//! `expand` does with `tbl`.
//!
//! Constant time: no branch or memory index depends on key or data (the assembly's `vtbl`
//! indices are registers; see its header); the round count, the public lengths and the round
//! number choose code paths and addresses.

use super::{Kernel, fixslice, vperm};
use crate::cpu::arch::ArmNeon;
use crate::wipe::wipe;

/// The `vperm.rs` tables in the layout `struct tables` of aes_vpaes_neon.S (its `T_*`
/// offsets, asserted below).
#[repr(C, align(16))]
struct Tables {
    nibble: [u8; 16],
    inv: [u8; 16],
    c_over: [u8; 16],
    ipt: [[u8; 16]; 2],
    sb1: [[u8; 16]; 2],
    sb2: [[u8; 16]; 2],
    sbo: [[u8; 16]; 2],
    /// `(ENC_F[r], ENC_F2[r], ENC_F3[r])` for r = 0..4.
    enc_mix: [[[u8; 16]; 3]; 4],
    sr_pow: [[u8; 16]; 4],
    dipt: [[u8; 16]; 2],
    /// DE, DB, DD, D9: (U, T) each.
    dec_out: [[[u8; 16]; 2]; 4],
    dsbo: [[u8; 16]; 2],
    /// `(DEC_F[r], DEC_F2[r], DEC_F3[r])` for r = 0..4.
    dec_mix: [[[u8; 16]; 3]; 4],
}

const fn mix(f: &[[u8; 16]; 4], f2: &[[u8; 16]; 4], f3: &[[u8; 16]; 4]) -> [[[u8; 16]; 3]; 4] {
    let mut m = [[[0; 16]; 3]; 4];
    let mut r = 0;
    while r < 4 {
        m[r] = [f[r], f2[r], f3[r]];
        r += 1;
    }
    m
}

static TABLES: Tables = Tables {
    nibble: vperm::NIBBLE,
    inv: vperm::INV,
    c_over: vperm::C_OVER,
    ipt: [vperm::IPT_LO, vperm::IPT_HI],
    sb1: [vperm::SB1_U, vperm::SB1_T],
    sb2: [vperm::SB2_U, vperm::SB2_T],
    sbo: [vperm::SBO_U, vperm::SBO_T],
    enc_mix: mix(&vperm::ENC_F, &vperm::ENC_F2, &vperm::ENC_F3),
    sr_pow: vperm::SR_POW,
    dipt: [vperm::DIPT_LO, vperm::DIPT_HI],
    dec_out: [
        [vperm::DE_U, vperm::DE_T],
        [vperm::DB_U, vperm::DB_T],
        [vperm::DD_U, vperm::DD_T],
        [vperm::D9_U, vperm::D9_T],
    ],
    dsbo: [vperm::DSBO_U, vperm::DSBO_T],
    dec_mix: mix(&vperm::DEC_F, &vperm::DEC_F2, &vperm::DEC_F3),
};

// The `T_*` offsets of aes_vpaes_neon.S.
const _: () = {
    use core::mem::{offset_of, size_of};
    assert!(offset_of!(Tables, nibble) == 0);
    assert!(offset_of!(Tables, inv) == 16);
    assert!(offset_of!(Tables, c_over) == 32);
    assert!(offset_of!(Tables, ipt) == 48);
    assert!(offset_of!(Tables, sb1) == 80);
    assert!(offset_of!(Tables, sb2) == 112);
    assert!(offset_of!(Tables, sbo) == 144);
    assert!(offset_of!(Tables, enc_mix) == 176);
    assert!(offset_of!(Tables, sr_pow) == 368);
    assert!(offset_of!(Tables, dipt) == 432);
    assert!(offset_of!(Tables, dec_out) == 464);
    assert!(offset_of!(Tables, dsbo) == 592);
    assert!(offset_of!(Tables, dec_mix) == 624);
    assert!(size_of::<Tables>() == 816);
};

/// `struct keys` of aes_vpaes_neon.S: round keys in the working bases and byte orders of
/// `vperm.rs` (as `aarch64_neon.rs` stores them), Nr, and the address of [`TABLES`].
#[repr(C, align(16))]
#[derive(Clone)]
struct Keys {
    ek: [[u8; 16]; 15],
    dk: [[u8; 16]; 15],
    nr: u32,
    /// `&TABLES` (an address, not a reference: keeps the type `Send + Sync`).
    tables: usize,
}

const _: () = {
    use core::mem::offset_of;
    assert!(offset_of!(Keys, dk) == 240);
    assert!(offset_of!(Keys, nr) == 480);
    assert!(offset_of!(Keys, tables) == 484);
};

unsafe extern "C" {
    /// Needs NEON (all of these). `k` is a valid `Keys` (its `tables` the address of
    /// [`TABLES`]); `data` holds `n` blocks (16 bytes), any alignment, encrypted in place;
    /// `n == 0` is a no-op.
    fn simdcrypt_vpaes_enc_neon(k: *const Keys, data: *mut u8, n: usize);
    /// As above, decrypting.
    fn simdcrypt_vpaes_dec_neon(k: *const Keys, data: *mut u8, n: usize);
    /// CBC encryption of `n` blocks; `iv` (16 bytes) becomes the last ciphertext block.
    fn simdcrypt_vpaes_cbc_enc_neon(k: *const Keys, iv: *mut u8, data: *mut u8, n: usize);
}

/// `t[i]` for each byte of `i`, 0 where `i[b] >= 16` (NEON `vtbl`, AArch64 `tbl`), reading
/// every entry of `t` and selecting with masks: constant time in `t` and `i`.
fn shuf(t: &[u8; 16], i: &[u8; 16]) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (o, &x) in out.iter_mut().zip(i) {
        let mut acc = 0u8;
        for (j, &tj) in t.iter().enumerate() {
            // 0xff if x == j, else 0 (x ^ j is 0 exactly then; x < 256 so no wrap issue).
            let d = u32::from(x ^ j as u8);
            let mask = 0u8.wrapping_sub((d.wrapping_sub(1) >> 31) as u8);
            acc |= tj & mask;
        }
        *o = acc;
    }
    out
}

fn xor(a: &[u8; 16], b: &[u8; 16]) -> [u8; 16] {
    core::array::from_fn(|n| a[n] ^ b[n])
}

/// A byte permutation by a public index table (`vperm.rs` permutations: every entry < 16).
fn permute(x: &[u8; 16], p: &[u8; 16]) -> [u8; 16] {
    core::array::from_fn(|n| x[usize::from(p[n] & 15)])
}

/// The linear map with low-nibble table `lo` and high-nibble table `hi`.
fn transform(lo: &[u8; 16], hi: &[u8; 16], x: &[u8; 16]) -> [u8; 16] {
    let l: [u8; 16] = core::array::from_fn(|n| x[n] & 0x0f);
    let h: [u8; 16] = core::array::from_fn(|n| x[n] >> 4);
    xor(&shuf(lo, &l), &shuf(hi, &h))
}

/// KeyExpansion, then the kernel's key formats (those of `aarch64_neon.rs`'s `expand`).
fn expand(key: &[u8], k: &mut Keys) {
    let mut rk = [[0u8; 16]; 15];
    let nr = vperm::expand_key(key, &mut rk, fixslice::sub_word);
    let c63 = [0x63u8; 16];
    let enc63 = [vperm::ENC_63; 16];
    for r in 0..=nr {
        let x = &rk[r];
        k.ek[r] = if r == 0 {
            transform(&vperm::IPT_LO, &vperm::IPT_HI, x)
        } else if r == nr {
            xor(x, &c63)
        } else {
            let t = xor(&transform(&vperm::IPT_LO, &vperm::IPT_HI, x), &enc63);
            permute(&t, &vperm::SR_POW[(4 - (r & 3)) & 3])
        };
        let x = &rk[nr - r];
        k.dk[r] = if r == 0 {
            transform(&vperm::DIPT_LO, &vperm::DIPT_HI, &xor(x, &c63))
        } else if r == nr {
            *x
        } else {
            let mut m = fixslice::inv_mix_round_key(x);
            let t = transform(&vperm::DIPT_LO, &vperm::DIPT_HI, &xor(&m, &c63));
            wipe(&mut m);
            permute(&t, &vperm::SR_POW[r & 3])
        };
    }
    k.nr = nr as u32;
    wipe(&mut rk);
}

/// An AES key expanded for the NEON vector-permute kernel.
#[derive(Clone)]
pub(crate) struct VpaesArm {
    _t: ArmNeon,
    k: Keys,
}

impl VpaesArm {
    /// Expands a 16-, 24- or 32-byte key.
    pub(crate) fn new(t: ArmNeon, key: &[u8]) -> Self {
        assert!(matches!(key.len(), 16 | 24 | 32));
        let mut k = Keys {
            ek: [[0; 16]; 15],
            dk: [[0; 16]; 15],
            nr: 0,
            tables: &TABLES as *const Tables as usize,
        };
        expand(key, &mut k);
        VpaesArm { _t: t, k }
    }
}

impl Drop for VpaesArm {
    fn drop(&mut self) {
        wipe(&mut self.k.ek);
        wipe(&mut self.k.dk);
    }
}

/// Blocks of counter stream built per assembly call in [`VpaesArm::ctr`].
const CTR_CHUNK: usize = 4;

impl Kernel for VpaesArm {
    fn encrypt(&self, data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        // SAFETY: the token proves NEON; `k` is a complete schedule with `tables` = &TABLES;
        // the kernel reads and writes exactly the len / 16 blocks of `data`.
        unsafe { simdcrypt_vpaes_enc_neon(&self.k, data.as_mut_ptr(), data.len() / 16) }
    }

    fn decrypt(&self, data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        // SAFETY: as above.
        unsafe { simdcrypt_vpaes_dec_neon(&self.k, data.as_mut_ptr(), data.len() / 16) }
    }

    fn ctr(&self, ctr: &mut [u8; 16], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        let mut ks = [0u8; 16 * CTR_CHUNK];
        for chunk in data.chunks_mut(16 * CTR_CHUNK) {
            let m = chunk.len();
            for b in ks[..m].chunks_exact_mut(16) {
                b.copy_from_slice(ctr);
                super::ctr_add(ctr, 1);
            }
            self.encrypt(&mut ks[..m]);
            for (d, s) in chunk.iter_mut().zip(&ks) {
                *d ^= s;
            }
        }
        wipe(&mut ks);
    }

    fn cbc_encrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        // SAFETY: as in `encrypt`; `iv` is the 16 bytes the kernel reads and writes.
        unsafe {
            simdcrypt_vpaes_cbc_enc_neon(
                &self.k,
                iv.as_mut_ptr(),
                data.as_mut_ptr(),
                data.len() / 16,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::fixslice::tests::{Rng, cross_check, known_answers};
    use super::super::soft32::Soft32;
    use super::*;
    use crate::abi_test::abi_call;
    use crate::cpu::Features;

    fn token() -> Option<ArmNeon> {
        let t = Features::hardware().get::<ArmNeon>();
        if t.is_none() {
            std::eprintln!("aes vpaes (armv7 neon): CPU has no NEON; kernel not tested");
        }
        t
    }

    /// `shuf` is `vtbl`: entries below 16 looked up, 16 and more give 0.
    #[test]
    fn shuf_is_vtbl() {
        let t: [u8; 16] = core::array::from_fn(|n| (n as u8).wrapping_mul(29) ^ 0xa5);
        for base in (0..=255u8).step_by(16) {
            let i: [u8; 16] = core::array::from_fn(|n| base.wrapping_add(n as u8));
            let got = shuf(&t, &i);
            for n in 0..16 {
                let want = if i[n] < 16 { t[usize::from(i[n])] } else { 0 };
                assert_eq!(got[n], want);
            }
        }
    }

    #[test]
    fn fips197_and_sp800_38a() {
        let Some(t) = token() else { return };
        known_answers(|key| VpaesArm::new(t, key));
    }

    #[test]
    fn cross_check_portable() {
        let Some(t) = token() else { return };
        cross_check(|key| VpaesArm::new(t, key), Soft32::new);
    }

    /// Every whole-block length up to 600 bytes, offsets 0-3, counter wraps, against `Soft32`.
    #[test]
    fn lengths_offsets_and_counter_wraps() {
        let Some(t) = token() else { return };
        super::super::fixslice::tests::lengths_offsets_and_counter_wraps(
            |key| {
                std::vec![std::boxed::Box::new(VpaesArm::new(t, key)) as std::boxed::Box<dyn Kernel>]
            },
            Soft32::new,
        );
    }

    /// Every entry point through the ABI harness (callee-saved r4-r11, d8-d15 and sp
    /// preserved, caller-saved NEON registers cleared), for each key size and 0, 1, 3 blocks,
    /// results checked against `Soft32`.
    #[test]
    fn abi() {
        let Some(t) = token() else { return };
        let mut rng = Rng(77);
        for klen in [16usize, 24, 32] {
            let mut key = [0u8; 32];
            rng.fill(&mut key[..klen]);
            let k = VpaesArm::new(t, &key[..klen]);
            let soft = Soft32::new(&key[..klen]);
            let keys = &k.k as *const Keys as usize;
            for n in [0usize, 1, 3] {
                let mut data = std::vec![0u8; n * 16];
                rng.fill(&mut data);
                let mut iv = [0u8; 16];
                rng.fill(&mut iv);

                let mut want = data.clone();
                soft.encrypt(&mut want);
                let mut d = data.clone();
                let args = [keys, d.as_mut_ptr() as usize, n];
                // SAFETY: the token proves NEON; a complete schedule and n blocks.
                let (_, rep) = unsafe { abi_call(simdcrypt_vpaes_enc_neon as *const (), &args) };
                rep.assert_clean();
                assert_eq!(d, want, "enc {klen} {n}");

                let mut want = data.clone();
                soft.decrypt(&mut want);
                let mut d = data.clone();
                let args = [keys, d.as_mut_ptr() as usize, n];
                // SAFETY: as above.
                let (_, rep) = unsafe { abi_call(simdcrypt_vpaes_dec_neon as *const (), &args) };
                rep.assert_clean();
                assert_eq!(d, want, "dec {klen} {n}");

                let mut want = data.clone();
                let mut want_iv = iv;
                soft.cbc_encrypt(&mut want_iv, &mut want);
                let mut d = data.clone();
                let mut v = iv;
                let args = [keys, v.as_mut_ptr() as usize, d.as_mut_ptr() as usize, n];
                // SAFETY: as above; the iv is 16 writable bytes.
                let (_, rep) =
                    unsafe { abi_call(simdcrypt_vpaes_cbc_enc_neon as *const (), &args) };
                rep.assert_clean();
                assert_eq!(d, want, "cbc {klen} {n}");
                assert_eq!(v, want_iv, "cbc iv {klen} {n}");
            }
        }
    }
}
