//! Stitched AES-GCM with AES-NI and PCLMULQDQ on 128-bit registers (CPUs without VAES: Intel
//! Sandy Bridge to Cascade Lake, AMD Zen 1 and 2): the safe wrapper of
//! `asm/x86_64/aes_gcm_aesni.S`, which runs the AES rounds of 8 counter blocks and the GHASH
//! of 8 ciphertext blocks in one loop (SP 800-38D §7.1 steps 3–4 over the text's whole
//! blocks; this wrapper does a final partial block and hashes the length block).
//!
//! It is used when a key pair is `aes-ni` + `clmul` and AVX is present: the kernel is
//! VEX-encoded (three-operand forms and unaligned memory operands for the round keys, the
//! powers and the data). The tokens `AesNi` and `Clmul` prove the AES and carry-less
//! multiply instructions, and `Avx` (held by `ghash::Key`, see `clmul_parts`) the VEX
//! encoding: so Sandy Bridge and Ivy Bridge (AVX without AVX2) run it too; CPUs without AVX
//! (Westmere) keep the non-stitched path. The
//! kernel reads the two kernels' own tables in place: the AES-NI encryption schedule
//! (`src/aes/x86_64_aesni.rs`) and the twisted powers of `H` with their Karatsuba halves
//! (`ghash::Powers`, `src/ghash/x86_64_clmul.rs`). Nothing is copied or expanded per message.
//!
//! The kernel takes whole blocks only, at least 8: groups of 8, then one partial group of
//! 1–7 blocks. [`seal`] and [`open`] hand it the whole blocks of a text of at least
//! [`MIN_BYTES`] bytes, do a final partial block themselves and hash the length block; they
//! return the text's length. The final block is encrypted (or decrypted) before the kernel
//! runs, and it and the length block are hashed in one aggregated GHASH call after it: done
//! after the kernel, the final block's AES, its byte copies (a 16-byte load of a block written
//! by narrower stores waits for them to retire) and a second multiply-and-reduce each add
//! their latency to the message (measured, AES-128: 200-byte seals took 99–102 ns against
//! 86 ns for 192 bytes, and against 87 ns for the non-stitched pair; now 86 against 84).
//!
//! Counter: the kernel increments the low 32 bits of the counter block mod 2^32 (`inc32`,
//! SP 800-38D §6.2) with vector adds, so it is exact for any counter; but it takes a faster
//! path while a group's counters do not carry out of their last byte, a branch on the counter.
//! So it is only for 96-bit IVs, whose counter blocks (nonce ‖ count) are public; with other
//! IVs `J0` is a GHASH under the secret `H` (the caller checks, see `stitched_seal`).

use super::{GcmFn, State};
use crate::aes::sealed::Cipher;
use crate::cpu::arch::{AesNi, Avx, Clmul};
use crate::ghash::{self, Powers};

unsafe extern "sysv64" {
    /// In place: `data ← data ⊕ keystream` for `nblocks` blocks from counter `st.ctr`, then
    /// `st.y ← GHASH(st.y, ciphertext)`; `st.ctr` advances by `nblocks` (inc32). Needs AES,
    /// PCLMULQDQ, AVX; `nblocks` at least 8. `rk`: `k[0..=nr]`,
    /// `nr` ∈ {10, 12, 14}. Reads and writes only the `16 nblocks` bytes at `data`.
    fn simdcrypt_aes_gcm_enc_aesni(
        rk: *const [u8; 16],
        nr: usize,
        st: *mut State,
        data: *mut u8,
        nblocks: usize,
        p: *const Powers,
    );
    /// In place: `st.y ← GHASH(st.y, data)`, then `data ← data ⊕ keystream`; otherwise as
    /// `simdcrypt_aes_gcm_enc_aesni`.
    fn simdcrypt_aes_gcm_dec_aesni(
        rk: *const [u8; 16],
        nr: usize,
        st: *mut State,
        data: *mut u8,
        nblocks: usize,
        p: *const Powers,
    );
}

/// Blocks per group of the kernel.
const GROUP: usize = 8;

/// Texts shorter than this many bytes stay on the non-stitched path entirely: one group, the
/// kernel's unit (and its least block count). Measured here (AES-128, 13-byte AAD, VAES and
/// VPCLMULQDQ masked, against the same pair unstitched, same process): 128 bytes seal 65
/// against 74 ns, open 53 against 66 ns.
pub(super) const MIN_BYTES: usize = 16 * GROUP;

/// What the kernel reads, borrowed from an `aes-ni` + `clmul` key pair on a CPU with AVX,
/// and the two keys (for a final partial block).
struct Stitched<'a> {
    _a: AesNi,
    _c: Clmul,
    _v: Avx,
    rk: &'a [[u8; 16]; 15],
    nr: usize,
    powers: &'a Powers,
    aes: &'a Cipher,
    ghash: &'a ghash::Key,
}

impl<'a> Stitched<'a> {
    fn new(c: &'a Cipher, g: &'a ghash::Key) -> Option<Self> {
        let (a, rk, nr) = c.aesni_parts()?;
        let (p, v, powers) = g.clmul_parts()?;
        Some(Stitched {
            _a: a,
            _c: p,
            _v: v,
            rk,
            nr,
            powers,
            aes: c,
            ghash: g,
        })
    }

    /// Runs `f` over the whole blocks of `data` if it has at least [`MIN_BYTES`] bytes, does a
    /// final partial block (`enc`: encrypt, then hash the zero-padded ciphertext; else hash,
    /// then decrypt) and hashes `len`; returns how many bytes it did (all of `data`, or 0).
    fn run(
        &self,
        f: GcmFn,
        enc: bool,
        ctr: &mut [u8; 16],
        y: &mut [u8; 16],
        data: &mut [u8],
        len: &[u8; 16],
    ) -> usize {
        if data.len() < MIN_BYTES {
            return 0;
        }
        let n = data.len() / 16 * 16;
        debug_assert!(matches!(self.nr, 10 | 12 | 14));
        // The final partial block first (the kernel does not touch it): its counter block is
        // `ctr` plus the whole blocks (inc32; the text has fewer than 2^32 blocks). `last`
        // gets [zero-padded final ciphertext block ‖ length block], hashed in one call after
        // the kernel; the final text is encrypted (or decrypted, once copied) in place.
        let mut last = [0u8; 32];
        last[16..].copy_from_slice(len);
        if n < data.len() {
            let mut ks = *ctr;
            let low =
                u32::from_be_bytes([ks[12], ks[13], ks[14], ks[15]]).wrapping_add((n / 16) as u32);
            ks[12..].copy_from_slice(&low.to_be_bytes());
            self.aes.encrypt(&mut ks);
            let tail = &mut data[n..];
            if !enc {
                last[..tail.len()].copy_from_slice(tail);
            }
            for (d, k) in tail.iter_mut().zip(&ks) {
                *d ^= k;
            }
            if enc {
                last[..tail.len()].copy_from_slice(tail);
            }
            crate::wipe::wipe(&mut ks);
        }
        let mut st = State { y: *y, ctr: *ctr };
        // SAFETY: the tokens in `self` prove every feature the kernel needs (AES-NI,
        // PCLMULQDQ, AVX); `rk` holds 15 round keys (it reads `k[0..=nr]`, nr <= 14),
        // `powers` is the 512-byte table it reads (`h[8..16]` at offset 128, `k[8..16]` at
        // 384; a partial group of r blocks reads from `h[16 - r]` and `k[16 - r]` on), `st` is
        // 32 writable bytes, and `data[..n]` is `n / 16` whole blocks, at least 8 (n >=
        // MIN_BYTES), exclusively borrowed; the kernel touches no other memory.
        unsafe {
            f(
                self.rk.as_ptr(),
                self.nr,
                &mut st,
                data.as_mut_ptr(),
                n / 16,
                self.powers,
            )
        };
        *y = st.y;
        *ctr = st.ctr;
        crate::wipe::wipe(&mut st.y);
        if n < data.len() {
            self.ghash.update(y, &last);
            let low = u32::from_be_bytes([ctr[12], ctr[13], ctr[14], ctr[15]]).wrapping_add(1);
            ctr[12..].copy_from_slice(&low.to_be_bytes());
            crate::wipe::wipe(&mut last);
        } else {
            self.ghash.update(y, len);
        }
        data.len()
    }
}

/// If `c` and `g` are the AES-NI and PCLMULQDQ kernels on a CPU with AVX and `text` has at
/// least [`MIN_BYTES`] bytes: encrypts it in place from counter block `ctr` (advanced, inc32)
/// and hashes its ciphertext, the final partial block zero-padded, and then the length block
/// `len` into `y`; returns how many bytes it did (all of `text`, or 0: then nothing changed).
pub(super) fn seal(
    c: &Cipher,
    g: &ghash::Key,
    ctr: &mut [u8; 16],
    y: &mut [u8; 16],
    text: &mut [u8],
    len: &[u8; 16],
) -> usize {
    if text.len() < MIN_BYTES {
        return 0;
    }
    match Stitched::new(c, g) {
        Some(s) => s.run(simdcrypt_aes_gcm_enc_aesni, true, ctr, y, text, len),
        None => 0,
    }
}

/// As [`seal`], for decryption: hashes the ciphertext, then decrypts it in place.
pub(super) fn open(
    c: &Cipher,
    g: &ghash::Key,
    ctr: &mut [u8; 16],
    y: &mut [u8; 16],
    text: &mut [u8],
    len: &[u8; 16],
) -> usize {
    if text.len() < MIN_BYTES {
        return 0;
    }
    match Stitched::new(c, g) {
        Some(s) => s.run(simdcrypt_aes_gcm_dec_aesni, false, ctr, y, text, len),
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::stitched_tests::{
        Rng, X86Call, against_unstitched, check_x86_call, lens, reference, with_keys,
    };
    use super::*;
    use crate::aead::Aes128Gcm;
    use crate::aes::sealed::Sealed;
    use crate::aes::{Aes128, Aes192, Aes256};
    use crate::cpu::Features;

    /// The pair's name.
    const PAIR: &str = "aes-ni+clmul";

    /// The features of the stitched pair (VAES and VPCLMULQDQ masked, so that the 128-bit
    /// kernels are chosen) and of two non-stitched pairs (each with one of the two 128-bit
    /// kernels), or `None` on a CPU without AES-NI, PCLMULQDQ and AVX.
    fn features() -> Option<(Features, [Features; 2])> {
        let f = Features::detect().without("vaes,vpclmulqdq").unwrap();
        if Aes128Gcm::backend_for(f) != PAIR || f.get::<Avx>().is_none() {
            std::eprintln!("stitched aes-ni AES-GCM: CPU lacks the kernels or AVX; not tested");
            return None;
        }
        let others = [f.without("aes").unwrap(), f.without("pclmulqdq").unwrap()];
        for o in others {
            assert_ne!(Aes128Gcm::backend_for(o), PAIR);
        }
        Some((f, others))
    }

    // Seal and open against the non-stitched compositions (one 128-bit kernel each).
    against_unstitched!(features, PAIR, 0x5eed_0200, 128);

    /// The same pair with AVX masked is the same two kernels without the stitched loop: the
    /// kernel is taken exactly when the `Avx` token is there, and both agree (every key
    /// size, the lengths of [`lens`]).
    #[test]
    fn against_same_pair_unstitched() {
        let Some((f, _)) = features() else { return };
        let plain = f.without("avx").unwrap();
        assert_eq!(Aes128Gcm::backend_for(plain), PAIR);
        let mut rng = Rng(0x5eed_0299);
        for klen in [16usize, 24, 32] {
            let key = rng.bytes(klen);
            for (i, len) in lens(&mut rng, 128).into_iter().enumerate() {
                if i % 3 != klen % 3 {
                    continue;
                }
                let nonce: [u8; 12] = rng.bytes(12).try_into().unwrap();
                let aad_len = (rng.next() % 40) as usize;
                let aad = rng.bytes(aad_len);
                let pt = rng.bytes(len);
                let run = |feat: Features, stitched: bool| {
                    let mut buf = pt.clone();
                    macro_rules! one {
                        ($gcm:ident, $aes:ident) => {{
                            let k = key.clone().try_into().unwrap();
                            let g = crate::aead::$gcm::new_with(feat, &k);
                            assert_eq!(g.backend(), PAIR);
                            let a = $aes::new_with(feat, &k);
                            let mut h = [0u8; 16];
                            a.encrypt_block(&mut h);
                            let gk = ghash::Key::new(feat, &h);
                            assert_eq!(Stitched::new(a.cipher(), &gk).is_some(), stitched);
                            let tag = g.seal_in_place_detached(&nonce, &aad, &mut buf).unwrap();
                            let mut back = buf.clone();
                            g.open_in_place_detached(&nonce, &aad, &mut back, &tag)
                                .unwrap();
                            assert_eq!(back, pt, "{klen} {len}: open");
                            tag
                        }};
                    }
                    let tag = match klen {
                        16 => one!(Aes128Gcm, Aes128),
                        24 => one!(Aes192Gcm, Aes192),
                        _ => one!(Aes256Gcm, Aes256),
                    };
                    (buf, tag)
                };
                assert_eq!(run(f, true), run(plain, false), "{klen} {len}");
            }
        }
    }

    /// The kernels alone, every key size, block counts with and without a partial group (8–15
    /// blocks and more), from counters whose low word wraps within the call (inc32 leaves the
    /// other 96 bits alone) or whose low byte crosses 248 (the counter's fast and slow paths),
    /// against [`reference`]; and their ABI.
    #[test]
    fn kernels_inc32_and_abi() {
        let Some((f, _)) = features() else { return };
        let mut rng = Rng(79);
        for klen in [16usize, 24, 32] {
            let key = rng.bytes(klen);
            with_keys(f, &key, |c, h, g| {
                let s = Stitched::new(c, g).unwrap();
                let mut cases = std::vec![
                    (0xffff_fff8u32, 8usize),
                    (0xffff_fff1, 16),
                    (0xffff_ffff, 24),
                    (0xffff_fffe, 8),
                    (2, 8),
                    (2, 8 * 33),
                    (0x7fff_fffc, 16),
                    (0x1234_56f7, 24),
                    (0x1234_56f8, 16),
                    (0x1234_56f9, 16),
                    (0x1234_56e0, 48),
                    (0xffff_ff00, 320),
                    (2, 84),
                    (0xffff_fffa, 8 * 5 + 7),
                    (0x1234_56f6, 8 * 2 + 3),
                ];
                for blocks in 9..=15 {
                    cases.push((0xffff_fff5, blocks));
                    cases.push((0x5555_55f0 + blocks as u32, blocks + 8));
                }
                for (low, blocks) in cases {
                    let n = blocks * 16;
                    let mut ctr: [u8; 16] = rng.bytes(16).try_into().unwrap();
                    ctr[12..].copy_from_slice(&low.to_be_bytes());
                    let y0: [u8; 16] = rng.bytes(16).try_into().unwrap();
                    let pt = rng.bytes(n);
                    let (want_c, want_y, want_ctr) = reference(c, h, &ctr, &y0, &pt);
                    for (enc, f) in [
                        (true, simdcrypt_aes_gcm_enc_aesni as GcmFn),
                        (false, simdcrypt_aes_gcm_dec_aesni as GcmFn),
                    ] {
                        let (src, want) = if enc { (&pt, &want_c) } else { (&want_c, &pt) };
                        let call = X86Call {
                            f: f as *const (),
                            rk: s.rk,
                            nr: s.nr,
                            powers: s.powers,
                            src,
                            count: n / 16,
                            y: y0,
                            ctr,
                        };
                        let what = std::format!("{klen} {low:#x} {n} {enc}");
                        // SAFETY: the tokens in `s` prove the features; the arguments are what
                        // `Stitched::run` passes.
                        unsafe { check_x86_call(&call, (want, want_y, want_ctr), &what) };
                    }
                }
            });
        }
    }
}
