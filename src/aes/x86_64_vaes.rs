//! AES with VAES on 256-bit (AVX2) and 512-bit (AVX-512) registers: the safe wrappers of
//! `asm/x86_64/aes_vaes.S` (CTR, ECB, CBC decryption), two or four blocks per register.
//!
//! Rust 1.85 (our MSRV) cannot enable the `vaes` and `avx512*` target features, so the wide
//! kernels are assembly; the tokens [`VaesAvx2`] and [`VaesAvx512`] are what prove their
//! instructions exist. Everything else comes from the AES-NI kernel (`x86_64_aesni.rs`),
//! which these backends own one of (built from its own [`AesNi`] token, so these backends
//! are selected only where AES-NI is usable too):
//!
//! - the key schedule: the assembly reads the AES-NI round keys (`[[u8; 16]; 15]`, FIPS 197
//!   byte order) and broadcasts each to every 128-bit lane;
//! - the serial modes (CBC encryption, IGE), where a wide register has nothing to offer;
//! - short messages, below the point where the wide kernels win (a call into the assembly and
//!   one masked pass cost more than AES-NI's eight interleaved blocks there), and on the
//!   256-bit backend the last `nblocks % 16` blocks.
//!
//! The AES-NI key wipes its schedules when it is dropped, with this key.

use super::Kernel;
use super::x86_64_aesni::{Key as NiKey, RoundKeys, ctr_split};
use crate::cpu::arch::{AesNi, VaesAvx2, VaesAvx512};

unsafe extern "sysv64" {
    /// CTR: XORs the keystream of counter blocks `ctr`, `ctr + 1`, … (128-bit big-endian)
    /// into `nblocks` blocks at `data`, in place. The low 64 bits of the counter must not wrap
    /// within the call. Needs VAES, AES, AVX2, AVX512F/VL/BW. `rk`: `k[0..=nr]`.
    fn simdcrypt_aes_ctr_vaes512(
        rk: *const [u8; 16],
        nr: usize,
        ctr: *const [u8; 16],
        data: *mut u8,
        nblocks: usize,
    );
    /// ECB encryption of `nblocks` blocks at `data`, in place. Features as above.
    fn simdcrypt_aes_ecb_enc_vaes512(rk: *const [u8; 16], nr: usize, data: *mut u8, nblocks: usize);
    /// ECB decryption with the equivalent-inverse-cipher schedule `dk`. Features as above.
    fn simdcrypt_aes_ecb_dec_vaes512(dk: *const [u8; 16], nr: usize, data: *mut u8, nblocks: usize);
    /// CBC decryption of `nblocks` blocks at `data`, in place, after chaining value `iv`
    /// (read only; the caller sets the next one). Features as above.
    fn simdcrypt_aes_cbc_dec_vaes512(
        dk: *const [u8; 16],
        nr: usize,
        iv: *const [u8; 16],
        data: *mut u8,
        nblocks: usize,
    );
    /// As `simdcrypt_aes_ctr_vaes512` with ymm registers: needs VAES, AES, AVX, AVX2, and
    /// `nblocks % 16 == 0`.
    fn simdcrypt_aes_ctr_vaes256(
        rk: *const [u8; 16],
        nr: usize,
        ctr: *const [u8; 16],
        data: *mut u8,
        nblocks: usize,
    );
    /// As `simdcrypt_aes_ecb_enc_vaes512` with ymm registers; `nblocks % 16 == 0`.
    fn simdcrypt_aes_ecb_enc_vaes256(rk: *const [u8; 16], nr: usize, data: *mut u8, nblocks: usize);
    /// As `simdcrypt_aes_ecb_dec_vaes512` with ymm registers; `nblocks % 16 == 0`.
    fn simdcrypt_aes_ecb_dec_vaes256(dk: *const [u8; 16], nr: usize, data: *mut u8, nblocks: usize);
    /// As `simdcrypt_aes_cbc_dec_vaes512` with ymm registers; `nblocks % 16 == 0`.
    fn simdcrypt_aes_cbc_dec_vaes256(
        dk: *const [u8; 16],
        nr: usize,
        iv: *const [u8; 16],
        data: *mut u8,
        nblocks: usize,
    );
}

/// Below this many blocks the 512-bit backend hands a message to AES-NI.
const MIN_BLOCKS_512: usize = 8;
/// The 256-bit kernels work on groups of this many blocks (8 ymm registers × 2).
const GROUP_256: usize = 16;

/// The signature shared by the ECB entry points.
type EcbFn = unsafe extern "sysv64" fn(*const [u8; 16], usize, *mut u8, usize);
/// The signature shared by the CTR and CBC entry points.
type ChainFn = unsafe extern "sysv64" fn(*const [u8; 16], usize, *const [u8; 16], *mut u8, usize);

/// ECB over whole blocks with `f`.
///
/// # Safety
/// The CPU must have the features `f` needs, and `data.len() / 16` must be a block count `f`
/// accepts (any for the 512-bit kernels, a multiple of 16 for the 256-bit ones).
unsafe fn ecb(f: EcbFn, rk: &RoundKeys, nr: usize, data: &mut [u8]) {
    debug_assert_eq!(data.len() % 16, 0);
    debug_assert!(matches!(nr, 10 | 12 | 14));
    // SAFETY: `rk` holds 15 round keys (the kernel reads `rk[0..=nr]`, nr <= 14); the kernel
    // reads and writes exactly the `data.len() / 16` whole blocks of `data` (tail passes are
    // masked), exclusively borrowed; the features and block count are the caller's promise.
    unsafe { f(rk.as_ptr(), nr, data.as_mut_ptr(), data.len() / 16) }
}

/// CTR or CBC decryption over whole blocks with `f`, chaining value / counter `v`.
///
/// # Safety
/// As for [`ecb`]; for CTR also: the low 64 bits of `v` must not wrap within the call.
unsafe fn chain(f: ChainFn, rk: &RoundKeys, nr: usize, v: &[u8; 16], data: &mut [u8]) {
    debug_assert_eq!(data.len() % 16, 0);
    debug_assert!(matches!(nr, 10 | 12 | 14));
    // SAFETY: as in `ecb`; `v` is 16 readable bytes, only read.
    unsafe { f(rk.as_ptr(), nr, v, data.as_mut_ptr(), data.len() / 16) }
}

/// A key for the 512-bit VAES kernels (and AES-NI for the rest; see the module docs).
#[derive(Clone)]
pub(crate) struct Vaes512 {
    _t: VaesAvx512,
    ni: NiKey,
}

impl Vaes512 {
    /// Expands a 16-, 24- or 32-byte key.
    pub(crate) fn new(t: VaesAvx512, a: AesNi, key: &[u8]) -> Self {
        Vaes512 {
            _t: t,
            ni: NiKey::new(a, key),
        }
    }

    /// For the stitched AES-GCM kernel (`src/aead/aes_gcm/x86_64_vaes.rs`), which reads the
    /// same schedule: the token, the encryption round keys `k[0..=Nr]` and Nr.
    pub(crate) fn gcm_parts(&self) -> (VaesAvx512, &RoundKeys, usize) {
        (self._t, self.ni.enc_keys(), self.ni.rounds())
    }
}

impl Kernel for Vaes512 {
    fn encrypt(&self, data: &mut [u8]) {
        if data.len() < MIN_BLOCKS_512 * 16 {
            return self.ni.encrypt(data);
        }
        // SAFETY: the token in `self` proves the features; any block count is accepted.
        unsafe {
            ecb(
                simdcrypt_aes_ecb_enc_vaes512,
                self.ni.enc_keys(),
                self.ni.rounds(),
                data,
            )
        }
    }

    fn decrypt(&self, data: &mut [u8]) {
        if data.len() < MIN_BLOCKS_512 * 16 {
            return self.ni.decrypt(data);
        }
        // SAFETY: as for `encrypt`.
        unsafe {
            ecb(
                simdcrypt_aes_ecb_dec_vaes512,
                self.ni.dec_keys(),
                self.ni.rounds(),
                data,
            )
        }
    }

    fn ctr(&self, ctr: &mut [u8; 16], data: &mut [u8]) {
        if data.len() < MIN_BLOCKS_512 * 16 {
            return self.ni.ctr(ctr, data);
        }
        let n = (data.len() / 16) as u64;
        let lo = u64::from_be_bytes([
            ctr[8], ctr[9], ctr[10], ctr[11], ctr[12], ctr[13], ctr[14], ctr[15],
        ]);
        if lo.checked_add(n).is_some() {
            // SAFETY: as for `encrypt`; the low 64 counter bits do not wrap within the call
            // (checked just above).
            unsafe {
                chain(
                    simdcrypt_aes_ctr_vaes512,
                    self.ni.enc_keys(),
                    self.ni.rounds(),
                    ctr,
                    data,
                )
            }
            // One 16-byte store, which the next call's 16-byte load can forward from.
            return self.ni.advance_ctr_nowrap(ctr, n);
        }
        // Rare: the low 64 bits wrap within this call.
        ctr_split(ctr, data, |c, d| {
            // SAFETY: as for `encrypt`; `ctr_split` keeps the low 64 counter bits from
            // wrapping within `d`.
            unsafe {
                chain(
                    simdcrypt_aes_ctr_vaes512,
                    self.ni.enc_keys(),
                    self.ni.rounds(),
                    c,
                    d,
                )
            }
        });
    }

    fn cbc_encrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        self.ni.cbc_encrypt(iv, data);
    }

    fn cbc_decrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        if data.len() < MIN_BLOCKS_512 * 16 {
            return self.ni.cbc_decrypt(iv, data);
        }
        let mut next = [0u8; 16];
        next.copy_from_slice(&data[data.len() - 16..]);
        // SAFETY: as for `encrypt`.
        unsafe {
            chain(
                simdcrypt_aes_cbc_dec_vaes512,
                self.ni.dec_keys(),
                self.ni.rounds(),
                iv,
                data,
            )
        }
        *iv = next;
    }

    fn ige_encrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
        self.ni.ige_encrypt(iv, data);
    }

    fn ige_decrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
        self.ni.ige_decrypt(iv, data);
    }
}

/// A key for the 256-bit VAES kernels (and AES-NI for the rest; see the module docs).
#[derive(Clone)]
pub(crate) struct Vaes256 {
    _t: VaesAvx2,
    ni: NiKey,
}

impl Vaes256 {
    /// Expands a 16-, 24- or 32-byte key.
    pub(crate) fn new(t: VaesAvx2, a: AesNi, key: &[u8]) -> Self {
        Vaes256 {
            _t: t,
            ni: NiKey::new(a, key),
        }
    }

    /// For the stitched AES-GCM kernel (`src/aead/aes_gcm/x86_64_vaes_avx2.rs`), which reads
    /// the same schedule: the token, the encryption round keys `k[0..=Nr]` and Nr.
    pub(crate) fn gcm_parts(&self) -> (VaesAvx2, &RoundKeys, usize) {
        (self._t, self.ni.enc_keys(), self.ni.rounds())
    }
}

/// `data` split into the whole groups of [`GROUP_256`] blocks and the rest.
fn groups(data: &mut [u8]) -> (&mut [u8], &mut [u8]) {
    let n = data.len() / (16 * GROUP_256) * (16 * GROUP_256);
    data.split_at_mut(n)
}

impl Kernel for Vaes256 {
    fn encrypt(&self, data: &mut [u8]) {
        let (wide, rest) = groups(data);
        if !wide.is_empty() {
            // SAFETY: the token in `self` proves the features; `wide` is whole groups of 16.
            unsafe {
                ecb(
                    simdcrypt_aes_ecb_enc_vaes256,
                    self.ni.enc_keys(),
                    self.ni.rounds(),
                    wide,
                )
            }
        }
        self.ni.encrypt(rest);
    }

    fn decrypt(&self, data: &mut [u8]) {
        let (wide, rest) = groups(data);
        if !wide.is_empty() {
            // SAFETY: as for `encrypt`.
            unsafe {
                ecb(
                    simdcrypt_aes_ecb_dec_vaes256,
                    self.ni.dec_keys(),
                    self.ni.rounds(),
                    wide,
                )
            }
        }
        self.ni.decrypt(rest);
    }

    fn ctr(&self, ctr: &mut [u8; 16], data: &mut [u8]) {
        if data.len() < GROUP_256 * 16 {
            return self.ni.ctr(ctr, data);
        }
        let n = (data.len() / 16) as u64;
        let lo = u64::from_be_bytes([
            ctr[8], ctr[9], ctr[10], ctr[11], ctr[12], ctr[13], ctr[14], ctr[15],
        ]);
        if lo.checked_add(n).is_some() {
            let (wide, rest) = groups(data);
            // SAFETY: as for `encrypt`; the low 64 counter bits do not wrap within the call
            // (checked just above).
            unsafe {
                chain(
                    simdcrypt_aes_ctr_vaes256,
                    self.ni.enc_keys(),
                    self.ni.rounds(),
                    ctr,
                    wide,
                )
            }
            // One 16-byte store, which the next 16-byte load can forward from.
            self.ni.advance_ctr_nowrap(ctr, (wide.len() / 16) as u64);
            return self.ni.ctr(ctr, rest);
        }
        // Rare: the low 64 bits wrap within this call.
        ctr_split(ctr, data, |c, d| {
            let (wide, rest) = groups(d);
            let mut c2 = *c;
            if !wide.is_empty() {
                // SAFETY: as for `encrypt`; `ctr_split` keeps the low 64 counter bits from
                // wrapping within `d`, hence within `wide`.
                unsafe {
                    chain(
                        simdcrypt_aes_ctr_vaes256,
                        self.ni.enc_keys(),
                        self.ni.rounds(),
                        c,
                        wide,
                    )
                }
                super::ctr_add(&mut c2, (wide.len() / 16) as u128);
            }
            self.ni.ctr(&mut c2, rest);
        });
    }

    fn cbc_encrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        self.ni.cbc_encrypt(iv, data);
    }

    fn cbc_decrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        let (wide, rest) = groups(data);
        if !wide.is_empty() {
            let mut next = [0u8; 16];
            next.copy_from_slice(&wide[wide.len() - 16..]);
            // SAFETY: as for `encrypt`.
            unsafe {
                chain(
                    simdcrypt_aes_cbc_dec_vaes256,
                    self.ni.dec_keys(),
                    self.ni.rounds(),
                    iv,
                    wide,
                )
            }
            *iv = next;
        }
        self.ni.cbc_decrypt(iv, rest);
    }

    fn ige_encrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
        self.ni.ige_encrypt(iv, data);
    }

    fn ige_decrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
        self.ni.ige_decrypt(iv, data);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::x86_64_aesni::tests::{bytes, cross_check, token as ni_token};
    use super::*;
    use crate::abi_test::abi_call;
    use crate::cpu::Features;
    use std::vec::Vec;

    fn t512() -> Option<(VaesAvx512, AesNi)> {
        let t = Features::hardware().get::<VaesAvx512>().zip(ni_token());
        if t.is_none() {
            std::eprintln!("vaes-avx512: CPU lacks VAES or AVX-512; kernel not tested");
        }
        t
    }

    fn t256() -> Option<(VaesAvx2, AesNi)> {
        let t = Features::hardware().get::<VaesAvx2>().zip(ni_token());
        if t.is_none() {
            std::eprintln!("vaes-avx2: CPU lacks VAES or AVX2; kernel not tested");
        }
        t
    }

    /// Every operation against AES-NI one block at a time, every key size, lengths
    /// 0..=3 blocks past two main-loop strides (64 blocks), every tail length.
    #[test]
    fn cross_check_512() {
        let Some((v, a)) = t512() else { return };
        for (i, len) in [16usize, 24, 32].into_iter().enumerate() {
            let key = bytes(200 + i as u64, len);
            let (k, r) = (Vaes512::new(v, a, &key), NiKey::new(a, &key));
            for blocks in (0..=131).chain([192, 255, 256, 257]) {
                cross_check(&k, &r, blocks, 3000 * i as u64 + blocks as u64);
            }
        }
    }

    #[test]
    fn cross_check_256() {
        let Some((v, a)) = t256() else { return };
        for (i, len) in [16usize, 24, 32].into_iter().enumerate() {
            let key = bytes(300 + i as u64, len);
            let (k, r) = (Vaes256::new(v, a, &key), NiKey::new(a, &key));
            for blocks in (0..=51).chain([64, 100]) {
                cross_check(&k, &r, blocks, 5000 * i as u64 + blocks as u64);
            }
        }
    }

    /// The kernels read and write only the blocks they are given: the bytes around an
    /// unaligned buffer stay untouched.
    #[test]
    fn stays_inside_the_buffer() {
        let Some((v, a)) = t512() else { return };
        let key = bytes(9, 16);
        let (k, r) = (Vaes512::new(v, a, &key), NiKey::new(a, &key));
        for blocks in [8usize, 13, 17, 64, 65, 79, 100] {
            for off in [1usize, 7] {
                let mut buf = bytes(blocks as u64, blocks * 16 + 2 * 64);
                let orig = buf.clone();
                let end = off + blocks * 16;
                let mut c = [0xab; 16];
                k.ctr(&mut c, &mut buf[off..end]);
                let mut want = orig[off..end].to_vec();
                r.ctr(&mut [0xab; 16], &mut want);
                assert_eq!(buf[off..end], want[..]);
                assert_eq!(buf[..off], orig[..off]);
                assert_eq!(buf[end..], orig[end..]);
                let mut iv = [3u8; 16];
                k.cbc_decrypt(&mut iv, &mut buf[off..end]);
                assert_eq!(buf[..off], orig[..off]);
                assert_eq!(buf[end..], orig[end..]);
            }
        }
    }

    /// One ABI-checked call of each entry point, with its result checked against AES-NI.
    fn abi_all(
        ecb_enc: EcbFn,
        ecb_dec: EcbFn,
        ctr: ChainFn,
        cbc_dec: ChainFn,
        a: AesNi,
        lens: &[usize],
    ) {
        for (i, klen) in [16usize, 24, 32].into_iter().enumerate() {
            let r = NiKey::new(a, &bytes(50 + i as u64, klen));
            let nr = r.rounds();
            for &n in lens {
                let data = bytes(n as u64, n * 16);
                let iv: [u8; 16] = bytes(77, 16).try_into().unwrap();
                let cases: [(usize, Option<ChainFn>, Option<EcbFn>); 4] = [
                    (0, None, Some(ecb_enc)),
                    (1, None, Some(ecb_dec)),
                    (2, Some(ctr), None),
                    (3, Some(cbc_dec), None),
                ];
                for (which, cf, ef) in cases {
                    let mut got = data.clone();
                    let mut want = data.clone();
                    let keys = if which == 0 || which == 2 {
                        r.enc_keys()
                    } else {
                        r.dec_keys()
                    };
                    let (_, rep) = match (cf, ef) {
                        (Some(f), _) => {
                            let args = [
                                keys.as_ptr() as usize,
                                nr,
                                iv.as_ptr() as usize,
                                got.as_mut_ptr() as usize,
                                n,
                            ];
                            // SAFETY: the caller's token proves the features; the arguments
                            // are what `chain` passes: 15 round keys, a 16-byte counter/IV,
                            // `n` blocks; the counter's low 64 bits do not wrap.
                            unsafe { abi_call(f as *const (), &args) }
                        }
                        (None, Some(f)) => {
                            let args = [keys.as_ptr() as usize, nr, got.as_mut_ptr() as usize, n];
                            // SAFETY: as above, as `ecb` passes them.
                            unsafe { abi_call(f as *const (), &args) }
                        }
                        (None, None) => unreachable!(),
                    };
                    rep.assert_clean();
                    match which {
                        0 => r.encrypt(&mut want),
                        1 => r.decrypt(&mut want),
                        2 => r.ctr(&mut iv.clone(), &mut want),
                        _ => r.cbc_decrypt(&mut iv.clone(), &mut want),
                    }
                    assert_eq!(got, want, "entry {which}, {n} blocks, key {klen}");
                }
            }
        }
    }

    #[test]
    fn abi_512() {
        let Some((_v, a)) = t512() else { return };
        abi_all(
            simdcrypt_aes_ecb_enc_vaes512,
            simdcrypt_aes_ecb_dec_vaes512,
            simdcrypt_aes_ctr_vaes512,
            simdcrypt_aes_cbc_dec_vaes512,
            a,
            &[0, 1, 5, 64, 67],
        );
    }

    #[test]
    fn abi_256() {
        let Some((_v, a)) = t256() else { return };
        abi_all(
            simdcrypt_aes_ecb_enc_vaes256,
            simdcrypt_aes_ecb_dec_vaes256,
            simdcrypt_aes_ctr_vaes256,
            simdcrypt_aes_cbc_dec_vaes256,
            a,
            &[0, 16, 32],
        );
    }

    /// The backends report their own features as the key one, so that `backends()` walks
    /// vaes-avx512 → vaes-avx2 → aes-ni.
    #[test]
    fn backend_walk() {
        if t512().is_none() {
            return;
        }
        let names: Vec<&str> = crate::aes::Aes128::backends(Features::hardware())
            .map(|b| b.0)
            .collect();
        assert_eq!(names[..3], ["vaes-avx512", "vaes-avx2", "aes-ni"]);
    }
}
