//! Stitched AES-GCM with VAES and VPCLMULQDQ on 256-bit registers (CPUs without AVX-512: AMD
//! Zen 3 and later, Intel Alder Lake and later clients): the safe wrapper of
//! `asm/x86_64/aes_gcm_vaes_avx2.S`, which runs the AES rounds of 16 counter blocks and the
//! GHASH of 16 ciphertext blocks in one loop (SP 800-38D §7.1 steps 3–4 over the text's whole
//! 16-block groups; the caller does the rest).
//!
//! It is used when a key pair has both 256-bit kernels (`vaes-avx2` + `vpclmul-avx2`): the two
//! tokens are what prove the instructions exist, and the kernel reads those kernels' own
//! tables in place: the AES-NI encryption schedule that the VAES kernel broadcasts
//! (`src/aes/x86_64_vaes.rs`) and the 16 twisted powers of `H` with their Karatsuba halves
//! (`ghash::Powers`, `src/ghash/x86_64_clmul.rs`). Nothing is copied or expanded per message.
//!
//! The kernel takes whole groups of 16 blocks only (no opmasks without AVX-512). [`seal`] and
//! [`open`] hand it the longest such prefix of a text of at least [`MIN_BYTES`] bytes and
//! return its length; the caller runs the rest (fewer than 16 blocks, the last maybe partial)
//! through the non-stitched kernels from the counter block and GHASH value they leave.
//!
//! Counter: the kernel increments the low 32 bits of the counter block mod 2^32 (`inc32`,
//! SP 800-38D §6.2) with vector adds, so it is exact for any counter; but it takes a faster
//! path while a group's counters do not carry out of their last byte, a branch on the counter.
//! So it is only for 96-bit IVs, whose counter blocks (nonce ‖ count) are public; with other
//! IVs `J0` is a GHASH under the secret `H` (the caller checks, see `stitched_seal`).

use super::{GcmFn, State};
use crate::aes::sealed::Cipher;
use crate::cpu::arch::{VaesAvx2, VpclmulAvx2};
use crate::ghash::{self, Powers};

unsafe extern "sysv64" {
    /// In place: `data ← data ⊕ keystream` for `nblocks` blocks from counter `st.ctr`, then
    /// `st.y ← GHASH(st.y, ciphertext)`; `st.ctr` advances by `nblocks` (inc32). Needs VAES,
    /// AES, VPCLMULQDQ, PCLMULQDQ, AVX, AVX2; `nblocks` a multiple of 16, at least 16. `rk`:
    /// `k[0..=nr]`, `nr` ∈ {10, 12, 14}. Reads and writes only the `16 nblocks` bytes at `data`.
    fn simdcrypt_aes_gcm_enc_vaes256(
        rk: *const [u8; 16],
        nr: usize,
        st: *mut State,
        data: *mut u8,
        nblocks: usize,
        p: *const Powers,
    );
    /// In place: `st.y ← GHASH(st.y, data)`, then `data ← data ⊕ keystream`; otherwise as
    /// `simdcrypt_aes_gcm_enc_vaes256`.
    fn simdcrypt_aes_gcm_dec_vaes256(
        rk: *const [u8; 16],
        nr: usize,
        st: *mut State,
        data: *mut u8,
        nblocks: usize,
        p: *const Powers,
    );
}

/// Blocks per group of the kernel.
const GROUP: usize = 16;

/// Texts shorter than this many bytes stay on the non-stitched path entirely: one group, the
/// kernel's unit. Measured here (AES-128, 13-byte AAD, AVX-512 masked, against the same pair
/// unstitched): 256 bytes seal 74 against 80 ns, open 63 against 62 ns; 512 bytes seal 92
/// against 95 ns, open 81 against 88 ns.
pub(super) const MIN_BYTES: usize = 16 * GROUP;

/// What the kernel reads, borrowed from a key pair that has both 256-bit kernels.
struct Stitched<'a> {
    _v: VaesAvx2,
    _p: VpclmulAvx2,
    rk: &'a [[u8; 16]; 15],
    nr: usize,
    powers: &'a Powers,
}

impl<'a> Stitched<'a> {
    fn new(c: &'a Cipher, g: &'a ghash::Key) -> Option<Self> {
        let (v, rk, nr) = c.vaes256_parts()?;
        let (p, powers) = g.vclmul256_parts()?;
        Some(Stitched {
            _v: v,
            _p: p,
            rk,
            nr,
            powers,
        })
    }

    /// Runs `f` over the whole groups at the start of `data` if it has at least
    /// [`MIN_BYTES`] bytes; returns how many bytes it did (a multiple of 256, or 0).
    fn run(&self, f: GcmFn, ctr: &mut [u8; 16], y: &mut [u8; 16], data: &mut [u8]) -> usize {
        if data.len() < MIN_BYTES {
            return 0;
        }
        let n = data.len() / (16 * GROUP) * (16 * GROUP);
        debug_assert!(matches!(self.nr, 10 | 12 | 14));
        let mut st = State { y: *y, ctr: *ctr };
        // SAFETY: the tokens in `self` prove every feature the kernel needs; `rk` holds 15
        // round keys (it reads `k[0..=nr]`, nr <= 14), `powers` is the 512-byte table it reads
        // (`h` at offset 0, `k` at 256), `st` is 32 writable bytes, and `data[..n]` is
        // `n / 16` whole blocks, a multiple of 16 and at least 16, exclusively borrowed; the
        // kernel touches no other memory.
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
        n
    }
}

/// If `c` and `g` are the 256-bit VAES and VPCLMULQDQ kernels and `text` has at least
/// [`MIN_BYTES`] bytes: encrypts its whole 16-block groups in place from counter block `ctr`
/// (advanced, inc32) and hashes their ciphertext into `y`; returns how many bytes it did
/// (a multiple of 256, or 0).
pub(super) fn seal(
    c: &Cipher,
    g: &ghash::Key,
    ctr: &mut [u8; 16],
    y: &mut [u8; 16],
    text: &mut [u8],
) -> usize {
    if text.len() < MIN_BYTES {
        return 0;
    }
    match Stitched::new(c, g) {
        Some(s) => s.run(simdcrypt_aes_gcm_enc_vaes256, ctr, y, text),
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
) -> usize {
    if text.len() < MIN_BYTES {
        return 0;
    }
    match Stitched::new(c, g) {
        Some(s) => s.run(simdcrypt_aes_gcm_dec_vaes256, ctr, y, text),
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::stitched_tests::{
        Rng, X86Call, against_unstitched, check_x86_call, reference, with_keys,
    };
    use super::*;
    use crate::aead::Aes128Gcm;
    use crate::cpu::Features;

    /// The pair's name.
    const PAIR: &str = "vaes-avx2+vpclmul-avx2";

    /// The features of the stitched pair (AVX-512 masked, so that the 256-bit kernels are
    /// chosen) and of two non-stitched pairs (each with one of the two 256-bit kernels), or
    /// `None` on a CPU without the 256-bit kernels.
    fn features() -> Option<(Features, [Features; 2])> {
        let f = Features::detect().without("avx512f").unwrap();
        if Aes128Gcm::backend_for(f) != PAIR {
            std::eprintln!("stitched vaes-avx2 AES-GCM: CPU lacks the kernels; not tested");
            return None;
        }
        let others = [f.without("vaes").unwrap(), f.without("vpclmulqdq").unwrap()];
        for o in others {
            assert_ne!(Aes128Gcm::backend_for(o), PAIR);
        }
        Some((f, others))
    }

    // Seal and open against the non-stitched compositions (one 256-bit kernel each).
    against_unstitched!(features, PAIR, 0x5eed_0100, 256);

    /// The kernels alone, every key size, from counters whose low word wraps within the call
    /// (inc32 leaves the other 96 bits alone) or whose low byte crosses 240 (the counter's fast
    /// and slow paths), against [`reference`]; and their ABI.
    #[test]
    fn kernels_inc32_and_abi() {
        let Some((f, _)) = features() else { return };
        let mut rng = Rng(78);
        for klen in [16usize, 24, 32] {
            let key = rng.bytes(klen);
            with_keys(f, &key, |c, h, g| {
                let s = Stitched::new(c, g).unwrap();
                for (low, groups) in [
                    (0xffff_fff0u32, 1usize),
                    (0xffff_ffe1, 2),
                    (0xffff_ffff, 3),
                    (0xffff_fffe, 1),
                    (2, 1),
                    (2, 17),
                    (0x7fff_fff8, 2),
                    (0x1234_56ef, 3),
                    (0x1234_56f0, 2),
                    (0x1234_56f1, 2),
                    (0x1234_56e0, 4),
                    (0xffff_ff00, 20),
                ] {
                    let n = groups * GROUP * 16;
                    let mut ctr: [u8; 16] = rng.bytes(16).try_into().unwrap();
                    ctr[12..].copy_from_slice(&low.to_be_bytes());
                    let y0: [u8; 16] = rng.bytes(16).try_into().unwrap();
                    let pt = rng.bytes(n);
                    let (want_c, want_y, want_ctr) = reference(c, h, &ctr, &y0, &pt);
                    for (enc, f) in [
                        (true, simdcrypt_aes_gcm_enc_vaes256 as GcmFn),
                        (false, simdcrypt_aes_gcm_dec_vaes256 as GcmFn),
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
