//! Stitched AES-GCM with VAES and VPCLMULQDQ on 512-bit registers: the safe wrapper of
//! `asm/x86_64/aes_gcm_vaes.S`, which runs the AES rounds of 16 counter blocks and the GHASH
//! of 16 ciphertext blocks in one loop (SP 800-38D §7.1 steps 3–4 over the whole text; the
//! caller does the rest).
//!
//! It is used when a key pair has both 512-bit kernels (`vaes-avx512` + `vpclmul-avx512`):
//! the two tokens are what prove the instructions exist, and the kernel reads those kernels'
//! own tables in place: the AES-NI encryption schedule that the VAES kernel broadcasts
//! (`src/aes/x86_64_vaes.rs`) and the 16 twisted powers of `H` (`ghash::Powers`,
//! `src/ghash/x86_64_clmul.rs`). Nothing is copied or expanded per message.
//!
//! The kernel takes any number of bytes: groups of 16 blocks, then a partial group under byte
//! masks, whose last block may be partial (hashed zero-padded). [`seal`] and [`open`] hand it
//! a whole text of at least [`MIN_BYTES`] bytes and say whether they did; the caller then
//! does only `E_K(J0)` and the length block.
//!
//! Counter: the kernel increments the low 32 bits of the counter block mod 2^32 (`inc32`,
//! SP 800-38D §6.2) with vector adds, so it is exact for any counter; but it takes a faster
//! path while a group's counters do not carry out of their last byte, a branch on the counter.
//! So it is only for 96-bit IVs, whose counter blocks (nonce ‖ count) are public; with other
//! IVs `J0` is a GHASH under the secret `H` (the caller checks, see `stitched_seal`).

use super::{GcmFn, State};
use crate::aes::sealed::Cipher;
use crate::cpu::arch::{VaesAvx512, VpclmulAvx512};
use crate::ghash::{self, Powers};

unsafe extern "sysv64" {
    /// In place: `data ← data ⊕ keystream` for `nbytes` bytes from counter `st.ctr`, then
    /// `st.y ← GHASH(st.y, ciphertext zero-padded to whole blocks)`; `st.ctr` advances by
    /// `ceil(nbytes / 16)` blocks (inc32). Needs VAES, AES, VPCLMULQDQ, PCLMULQDQ, AVX, AVX2,
    /// AVX512F/VL/BW; any `nbytes >= 1`. `rk`: `k[0..=nr]`, `nr` ∈ {10, 12, 14}. Reads and
    /// writes only the `nbytes` bytes at `data` (the last partial group under byte masks).
    fn simdcrypt_aes_gcm_enc_vaes512(
        rk: *const [u8; 16],
        nr: usize,
        st: *mut State,
        data: *mut u8,
        nbytes: usize,
        p: *const Powers,
    );
    /// In place: `st.y ← GHASH(st.y, data)`, then `data ← data ⊕ keystream`; otherwise as
    /// `simdcrypt_aes_gcm_enc_vaes512`.
    fn simdcrypt_aes_gcm_dec_vaes512(
        rk: *const [u8; 16],
        nr: usize,
        st: *mut State,
        data: *mut u8,
        nbytes: usize,
        p: *const Powers,
    );
}

/// Blocks per group of the kernel.
#[cfg(test)]
const GROUP: usize = 16;

/// Texts shorter than this many bytes stay on the non-stitched path, where up to 64 bytes
/// share one AES call with `E_K(J0)` (`Final` in aes_gcm.rs). Measured here (AES-128 seal,
/// 13-byte AAD): 16–48 bytes 43–47 ns there against 60 ns stitched, 64 bytes even, and from 65
/// bytes on the stitched kernel's masked partial group is faster (255 bytes: 74 against
/// 102 ns). It must exceed `SHORT` of aes_gcm.rs, whose `early_ek` computes `E_K(J0)` only
/// for longer texts (a const assertion there checks it).
pub(super) const MIN_BYTES: usize = 65;

/// What the kernel reads, borrowed from a key pair that has both 512-bit kernels.
struct Stitched<'a> {
    _v: VaesAvx512,
    _p: VpclmulAvx512,
    rk: &'a [[u8; 16]; 15],
    nr: usize,
    powers: &'a Powers,
}

impl<'a> Stitched<'a> {
    fn new(c: &'a Cipher, g: &'a ghash::Key) -> Option<Self> {
        let (v, rk, nr) = c.vaes512_parts()?;
        let (p, powers) = g.vclmul512_parts()?;
        Some(Stitched {
            _v: v,
            _p: p,
            rk,
            nr,
            powers,
        })
    }

    /// Runs `f` over all of `data` (the whole text of a message) if it has at least
    /// [`MIN_BYTES`] bytes; returns whether it did.
    fn run(&self, f: GcmFn, ctr: &mut [u8; 16], y: &mut [u8; 16], data: &mut [u8]) -> bool {
        let n = data.len();
        if n < MIN_BYTES {
            return false;
        }
        debug_assert!(matches!(self.nr, 10 | 12 | 14));
        let mut st = State { y: *y, ctr: *ctr };
        // SAFETY: the tokens in `self` prove every feature the kernel needs; `rk` holds 15
        // round keys (it reads `k[0..=nr]`, nr <= 14), `powers` is the 512-byte table it reads
        // (`h` at offset 0, and it reads no further than its end), `st` is 32 writable bytes,
        // and `data[..n]` is `n >= 1` bytes, exclusively borrowed; the kernel touches no
        // other memory (its partial group goes under byte masks, which do not fault).
        unsafe {
            f(
                self.rk.as_ptr(),
                self.nr,
                &mut st,
                data.as_mut_ptr(),
                n,
                self.powers,
            )
        };
        *y = st.y;
        *ctr = st.ctr;
        crate::wipe::wipe(&mut st.y);
        true
    }
}

/// If `c` and `g` are the 512-bit VAES and VPCLMULQDQ kernels and `text` (the whole text of a
/// message) has at least [`MIN_BYTES`] bytes: encrypts it in place from counter block `ctr`
/// (advanced, inc32) and hashes the ciphertext, zero-padded, into `y`; returns whether it did.
pub(super) fn seal(
    c: &Cipher,
    g: &ghash::Key,
    ctr: &mut [u8; 16],
    y: &mut [u8; 16],
    text: &mut [u8],
) -> bool {
    if text.len() < MIN_BYTES {
        return false;
    }
    match Stitched::new(c, g) {
        Some(s) => s.run(simdcrypt_aes_gcm_enc_vaes512, ctr, y, text),
        None => false,
    }
}

/// As [`seal`], for decryption: hashes the ciphertext, then decrypts it in place.
pub(super) fn open(
    c: &Cipher,
    g: &ghash::Key,
    ctr: &mut [u8; 16],
    y: &mut [u8; 16],
    text: &mut [u8],
) -> bool {
    if text.len() < MIN_BYTES {
        return false;
    }
    match Stitched::new(c, g) {
        Some(s) => s.run(simdcrypt_aes_gcm_dec_vaes512, ctr, y, text),
        None => false,
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

    /// The features of the stitched pair and of a non-stitched one (the 256-bit kernels), or
    /// `None` on a CPU without the 512-bit kernels.
    fn features() -> Option<(Features, [Features; 1])> {
        let f = Features::detect();
        if Aes128Gcm::backend_for(f) != "vaes-avx512+vpclmul-avx512" {
            std::eprintln!("stitched vaes-avx512 AES-GCM: CPU lacks the kernels; not tested");
            return None;
        }
        let other = f.without("avx512f").unwrap();
        assert_ne!(Aes128Gcm::backend_for(other), Aes128Gcm::backend_for(f));
        Some((f, [other]))
    }

    // Seal and open against the non-stitched composition (the 256-bit kernels).
    against_unstitched!(features, "vaes-avx512+vpclmul-avx512", 0x5eed_0000, 256);

    /// The kernels alone, every key size, from counters whose low word wraps within the call
    /// (inc32 leaves the other 96 bits alone), against [`reference`]; and their ABI.
    #[test]
    fn kernels_inc32_and_abi() {
        let Some((f, _)) = features() else { return };
        let mut rng = Rng(77);
        for klen in [16usize, 24, 32] {
            let key = rng.bytes(klen);
            with_keys(f, &key, |c, h, g| {
                let s = Stitched::new(c, g).unwrap();
                // Whole groups, partial groups of whole and partial blocks (every register
                // count) alone and after whole ones; low words that wrap.
                for (low, n) in [
                    (0xffff_fff0u32, 16 * GROUP),
                    (0xffff_ffe1, 32 * GROUP),
                    (0xffff_ffff, 48 * GROUP),
                    (2, 16),
                    (2, 1),
                    (2, 15),
                    (0x7fff_fff8, 80),
                    (0x7fff_fff8, 65),
                    (0xffff_fff9, 16 * GROUP + 112),
                    (0xffff_fffd, 16 * GROUP + 100),
                    (0xffff_ffee, 32 * GROUP + 240),
                    (0xffff_ffee, 32 * GROUP + 255),
                    (0x1234_56f7, 240),
                    (0x1234_56f7, 129),
                    (0x1234_56f7, 193),
                    (0xffff_fffe, 16 * GROUP + 64),
                    (0xffff_fffe, 16 * GROUP + 1),
                ] {
                    let mut ctr: [u8; 16] = rng.bytes(16).try_into().unwrap();
                    ctr[12..].copy_from_slice(&low.to_be_bytes());
                    let y0: [u8; 16] = rng.bytes(16).try_into().unwrap();
                    let pt = rng.bytes(n);
                    let (want_c, want_y, want_ctr) = reference(c, h, &ctr, &y0, &pt);
                    for (enc, f) in [
                        (true, simdcrypt_aes_gcm_enc_vaes512 as GcmFn),
                        (false, simdcrypt_aes_gcm_dec_vaes512 as GcmFn),
                    ] {
                        let (src, want) = if enc { (&pt, &want_c) } else { (&want_c, &pt) };
                        let call = X86Call {
                            f: f as *const (),
                            rk: s.rk,
                            nr: s.nr,
                            powers: s.powers,
                            src,
                            count: n,
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
