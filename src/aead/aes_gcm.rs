//! AES-GCM (NIST SP 800-38D): counter-mode AES with GHASH over the associated data and the
//! ciphertext.
//!
//! # Composition
//!
//! Each key picks its AES kernel ([`crate::aes`]) and its GHASH kernel ([`crate::ghash`])
//! once, from the same [`Features`]; `backend()` names the pair, e.g. `"vaes-avx512+vpclmul-avx512"`
//! or `"bitsliced-64+ctmul-64"`. Where the pair has a stitched kernel (AES and GHASH
//! interleaved in one loop: x86_64 `vaes-avx512` + `vpclmul-avx512`, `aes_gcm/x86_64_vaes.rs`)
//! and the IV is 96 bits, a text of more than [`SHORT`] bytes goes through it whole, its final
//! partial block included, in one pass (`stitched_seal`, `stitched_open`); `E_K(J0)` is then
//! computed before the text (`early_ek`), so that it overlaps with it. The x86_64
//! `vaes-avx2` + `vpclmul-avx2` kernel (`aes_gcm/x86_64_vaes_avx2.rs`) takes only the text's
//! whole 16-block groups, and the rest goes on as below from the counter block and GHASH
//! value it leaves; so does the aarch64 `armv8-ce` + `pmull` kernel (`aes_gcm/aarch64_ce.rs`)
//! with whole 8-block groups. The x86_64 `aes-ni` + `clmul` kernel
//! (`aes_gcm/x86_64_aesni.rs`, on CPUs with AVX) takes all the whole blocks of a text of at
//! least 8 blocks, and its wrapper the final partial block and the length block. Otherwise
//! the message is processed in chunks of
//! [`CHUNK`] bytes; sealing encrypts a chunk and then hashes it while it is still in the L1
//! cache, opening hashes a chunk and then decrypts it.
//!
//! The steps of SP 800-38D §7.1 (seal) and §7.2 (open):
//! 1. `H = E_K(0^128)`, computed once per key (the GHASH kernel keeps it and its powers).
//! 2. `J0 = IV ‖ 0^31 ‖ 1` for a 96-bit IV, else `J0 = GHASH_H(IV ‖ 0^(s+64) ‖ [len(IV)]_64)`.
//! 3. `C = GCTR_K(inc32(J0), P)`: the counter blocks increment only their low 32 bits, mod
//!    2^32 (§6.2). With a 96-bit IV that word never wraps, and the AES kernel's 128-bit CTR
//!    is used as is; with other IVs (whose `J0` is secret, and may wrap) the counter blocks
//!    are written out with `inc32` and encrypted by the kernel's ECB (see `gctr`).
//!
//! Texts of up to [`SHORT`] bytes take one AES call (`E_K(J0)` and the counter blocks) and
//! one GHASH call (the text and the length block) besides the AAD's; see `Final`.
//! 4. `S = GHASH_H(A ‖ 0^v ‖ C ‖ 0^u ‖ [len(A)]_64 ‖ [len(C)]_64)`.
//! 5. `T = MSB_t(E_K(J0) ⊕ S)`.
//!
//! # Limits (SP 800-38D §5.2.1.1)
//!
//! Plaintext up to 2^39 − 256 bits (2^36 − 32 bytes), AAD and IV up to 2^64 − 1 bits (so
//! 2^61 − 1 bytes); longer inputs give [`Error::MessageTooLong`].
// `deny`, not `forbid`: only the stitched kernels' wrappers below may use `unsafe`.
#![deny(unsafe_code)]

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use crate::Error;
use crate::aes::sealed::{Cipher, Sealed};
use crate::aes::{self, Aes128, Aes192, Aes256};
use crate::cpu::{self, Dispatch, Features};
use crate::ghash;
use crate::wipe::{wipe, wipe_slice};

/// Stitched AES-GCM: AESE/AESMC + PMULL on aarch64, whole 8-block groups (intrinsics).
#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)]
mod aarch64_ce;
/// Test support shared by the stitched kernels' tests (`unsafe`: the x86_64 kernels' ABI calls).
#[cfg(all(
    test,
    any(all(target_arch = "x86_64", simdcrypt_asm), target_arch = "aarch64")
))]
#[allow(unsafe_code)]
mod stitched_tests;
/// `struct state` of the x86_64 stitched kernels' assembly: the running GHASH value and the
/// next counter block, both in SP 800-38D byte order; a kernel advances both.
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
#[repr(C)]
struct State {
    y: [u8; 16],
    ctr: [u8; 16],
}

#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
const _: () = assert!(core::mem::size_of::<State>() == 32);

/// The signature of every x86_64 stitched entry point: round keys, Nr, the state, the text,
/// its length (bytes or blocks, per kernel) and the powers of `H`.
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
type GcmFn = unsafe extern "sysv64" fn(
    *const [u8; 16],
    usize,
    *mut State,
    *mut u8,
    usize,
    *const ghash::Powers,
);

/// Stitched AES-GCM: AES-NI + PCLMULQDQ on xmm (VEX, needs AVX), 8 blocks per iteration, any
/// whole number of blocks from 8 on (asm/x86_64/aes_gcm_aesni.S).
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
#[allow(unsafe_code)]
mod x86_64_aesni;
/// Stitched AES-GCM: VAES + VPCLMULQDQ on zmm (asm/x86_64/aes_gcm_vaes.S).
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
#[allow(unsafe_code)]
mod x86_64_vaes;
/// Stitched AES-GCM: VAES + VPCLMULQDQ on ymm, whole 16-block groups
/// (asm/x86_64/aes_gcm_vaes_avx2.S).
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
#[allow(unsafe_code)]
mod x86_64_vaes_avx2;

/// Bytes per pass over the message: small enough that a chunk just encrypted is still in L1
/// when GHASH reads it, large enough that the per-call work of the kernels does not show.
const CHUNK: usize = 8 * 1024;

/// Longest plaintext: 2^39 − 256 bits (§5.2.1.1), so the 32-bit counter never repeats.
const MAX_TEXT: u64 = (1 << 36) - 32;
/// Longest AAD and IV: 2^64 − 1 bits, i.e. 2^61 − 1 whole bytes (§5.2.1.1).
const MAX_AAD: u64 = (1 << 61) - 1;

/// The tag lengths SP 800-38D §5.2.1.2 allows: 128, 120, 112, 104, 96 bits, and 64 or 32 bits
/// for applications that meet its Appendix C.
fn check_tag_len(n: usize) -> Result<(), Error> {
    match n {
        4 | 8 | 12..=16 => Ok(()),
        _ => Err(Error::InvalidLength),
    }
}

fn check_lengths(iv: &[u8], aad: &[u8], text: &[u8]) -> Result<(), Error> {
    if iv.is_empty() {
        return Err(Error::InvalidLength);
    }
    if iv.len() as u64 > MAX_AAD || aad.len() as u64 > MAX_AAD || text.len() as u64 > MAX_TEXT {
        return Err(Error::MessageTooLong);
    }
    Ok(())
}

/// `y ← GHASH(y, data ‖ 0^v)`: `data` zero-padded to whole blocks.
fn ghash_padded(g: &ghash::Key, y: &mut [u8; 16], data: &[u8]) {
    let full = data.len() - data.len() % 16;
    if full > 0 {
        g.update(y, &data[..full]);
    }
    if full < data.len() {
        let mut last = [0u8; 16];
        last[..data.len() - full].copy_from_slice(&data[full..]);
        g.update(y, &last);
        wipe(&mut last);
    }
}

/// The pre-counter block `J0` (SP 800-38D §7.1 step 2).
fn j0(g: &ghash::Key, iv: &[u8]) -> [u8; 16] {
    let mut j = [0u8; 16];
    if iv.len() == 12 {
        j[..12].copy_from_slice(iv);
        j[15] = 1;
    } else {
        ghash_padded(g, &mut j, iv);
        let mut len = [0u8; 16];
        len[8..].copy_from_slice(&(iv.len() as u64 * 8).to_be_bytes());
        g.update(&mut j, &len);
    }
    j
}

/// `inc32` (SP 800-38D §6.2): the low 32 bits of the block plus one, mod 2^32.
fn inc32(cb: &mut [u8; 16]) {
    let low = u32::from_be_bytes([cb[12], cb[13], cb[14], cb[15]]).wrapping_add(1);
    cb[12..].copy_from_slice(&low.to_be_bytes());
}

/// GCTR over whole blocks (SP 800-38D §6.5): XORs `E(cb)`, `E(inc32(cb))`, … into `data` and
/// leaves `cb` at the next counter block.
///
/// `wrap` is false for 96-bit IVs: the counter then starts at `J0 + 1` with low word 2 and a
/// text of at most 2^32 − 2 blocks never wraps it, so the AES kernel's 128-bit counter is
/// exactly `inc32`. For other IVs `J0` is a GHASH under the secret `H`, so neither where its
/// low word wraps nor any carry the kernels' counter code tests for may steer a branch: the
/// counter blocks are written out here with `inc32` (arithmetic only) and encrypted with
/// the kernel's ECB, which treats them as data.
fn gctr(c: &Cipher, cb: &mut [u8; 16], data: &mut [u8], wrap: bool) {
    debug_assert!(data.len() % 16 == 0);
    if !wrap {
        c.ctr(cb, data);
        return;
    }
    const RUN: usize = 256;
    let mut ks = [0u8; RUN];
    for run in data.chunks_mut(RUN) {
        let n = run.len();
        for block in ks[..n].chunks_exact_mut(16) {
            block.copy_from_slice(cb);
            inc32(cb);
        }
        c.encrypt(&mut ks[..n]);
        for (x, k) in run.iter_mut().zip(&ks) {
            *x ^= k;
        }
    }
    wipe(&mut ks);
}

/// `T = MSB_t(E_K(J0) ⊕ S)` into `tag` (its length is `t`).
fn finish_tag(ek: &[u8; 16], s: &[u8; 16], tag: &mut [u8]) {
    for ((t, e), s) in tag.iter_mut().zip(ek).zip(s) {
        *t = e ^ s;
    }
}

/// The length block `[len(A)]_64 ‖ [len(C)]_64` (SP 800-38D §7.1 step 5), lengths in bits.
fn len_block(aad_len: usize, text_len: usize) -> [u8; 16] {
    let mut len = [0u8; 16];
    len[..8].copy_from_slice(&(aad_len as u64 * 8).to_be_bytes());
    len[8..].copy_from_slice(&(text_len as u64 * 8).to_be_bytes());
    len
}

/// `E_K(J0)`, computed before the text unless [`Final::ctr`] will merge it with the text's
/// counter blocks (a short text under a 96-bit IV): it depends on nothing else, so the CPU
/// overlaps it with the text's work instead of waiting for it at the end. Zero otherwise.
fn early_ek(c: &Cipher, j0: &[u8; 16], text_len: usize, wrap: bool) -> [u8; 16] {
    let mut ek = [0u8; 16];
    if text_len > SHORT || wrap {
        ek = *j0;
        c.encrypt(&mut ek);
    }
    ek
}

#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
const _: () = assert!(
    x86_64_vaes::MIN_BYTES > SHORT
        && x86_64_vaes_avx2::MIN_BYTES > SHORT
        && x86_64_aesni::MIN_BYTES > SHORT
);
#[cfg(target_arch = "aarch64")]
const _: () = assert!(aarch64_ce::MIN_BYTES > SHORT);

/// Texts of up to this many bytes are handled whole by [`Final`]: one AES call for `E_K(J0)`
/// and all their counter blocks, one GHASH call for them and the length block.
const SHORT: usize = 64;

/// The end of the text: its final partial block (or a whole short text), hashed in one call
/// with the length block. Layout of `buf`: `[..16]` receives `E_K(J0)`, then the final text,
/// zero-padded to whole blocks, then the length block `[len(A)]_64 ‖ [len(C)]_64`.
struct Final {
    buf: [u8; 16 + SHORT + 16],
    /// Bytes of text held here: the whole text if at most [`SHORT`] bytes, else its last
    /// `len % 16`.
    tail: usize,
}

impl Final {
    /// Splits `text` into the whole blocks of the body and the final text, which is copied
    /// into the buffer. A text of at most [`SHORT`] bytes is all final text (so that `ctr`
    /// merges it with `E_K(J0)`); a longer one keeps its whole blocks in the body, where the
    /// kernels see runs of full strides.
    fn new(text: &[u8]) -> (usize, Final) {
        let tail = if text.len() <= SHORT {
            text.len()
        } else {
            text.len() % 16
        };
        let full = text.len() - tail;
        let mut buf = [0u8; 16 + SHORT + 16];
        buf[16..16 + tail].copy_from_slice(&text[full..]);
        (full, Final { buf, tail })
    }

    /// The final text's length rounded up to whole blocks.
    fn padded(&self) -> usize {
        self.tail.div_ceil(16) * 16
    }

    /// XORs the keystream into the final text (zeroing the padding after it again). When the
    /// final text starts at the first counter block (`first`) of a 96-bit IV (`!wrap`, see
    /// [`gctr`]), `J0, inc32(J0), …` are consecutive 128-bit counters: one kernel call
    /// computes them all (what short messages mostly cost) and writes `E_K(J0)` to `ek`;
    /// otherwise [`early_ek`] has computed it.
    fn ctr(
        &mut self,
        c: &Cipher,
        j0: &[u8; 16],
        cb: &mut [u8; 16],
        ek: &mut [u8; 16],
        first: bool,
        wrap: bool,
    ) {
        let p = self.padded();
        if first && !wrap {
            let mut ctr = *j0;
            self.buf[..16].fill(0);
            c.ctr(&mut ctr, &mut self.buf[..16 + p]);
            ek.copy_from_slice(&self.buf[..16]);
        } else {
            gctr(c, cb, &mut self.buf[16..16 + p], wrap);
        }
        self.buf[16 + self.tail..16 + p].fill(0);
    }

    /// Hashes the zero-padded final text and the length block.
    fn hash(&mut self, g: &ghash::Key, s: &mut [u8; 16], aad_len: usize, text_len: usize) {
        let n = 16 + self.padded();
        self.buf[n..n + 16].copy_from_slice(&len_block(aad_len, text_len));
        g.update(s, &self.buf[16..n + 16]);
    }

    /// The final text.
    fn text(&self) -> &[u8] {
        &self.buf[16..16 + self.tail]
    }
}

impl Drop for Final {
    fn drop(&mut self) {
        wipe(&mut self.buf);
    }
}

/// Seals a prefix of `text` with a stitched kernel (AES and GHASH in one loop) when the key's
/// kernel pair has one, the text is long enough for it, and the IV is 96 bits (`!wrap`: the
/// kernels count with `inc32` from `cb`, and may branch on the counter, which is then public);
/// returns how many bytes it did, with `cb` and `s` advanced past them, and whether `s` has
/// the length block `len` hashed in as well. That is the whole text (its final partial block
/// included, hashed zero-padded: the caller then only hashes the length block, unless the
/// kernel's wrapper did, as `x86_64_aesni` does), or a whole number of blocks (the caller
/// goes on from there), or 0.
#[allow(unused_variables)]
#[inline]
fn stitched_seal(
    c: &Cipher,
    g: &ghash::Key,
    cb: &mut [u8; 16],
    s: &mut [u8; 16],
    text: &mut [u8],
    wrap: bool,
    len: &[u8; 16],
) -> (usize, bool) {
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    if !wrap {
        if x86_64_vaes::seal(c, g, cb, s, text) {
            return (text.len(), false);
        }
        let done = x86_64_vaes_avx2::seal(c, g, cb, s, text);
        if done > 0 {
            return (done, false);
        }
        let done = x86_64_aesni::seal(c, g, cb, s, text, len);
        return (done, done > 0);
    }
    #[cfg(target_arch = "aarch64")]
    if !wrap {
        return (aarch64_ce::seal(c, g, cb, s, text), false);
    }
    (0, false)
}

/// As [`stitched_seal`] for opening: hashes, then decrypts.
#[allow(unused_variables)]
#[inline]
fn stitched_open(
    c: &Cipher,
    g: &ghash::Key,
    cb: &mut [u8; 16],
    s: &mut [u8; 16],
    text: &mut [u8],
    wrap: bool,
    len: &[u8; 16],
) -> (usize, bool) {
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    if !wrap {
        if x86_64_vaes::open(c, g, cb, s, text) {
            return (text.len(), false);
        }
        let done = x86_64_vaes_avx2::open(c, g, cb, s, text);
        if done > 0 {
            return (done, false);
        }
        let done = x86_64_aesni::open(c, g, cb, s, text, len);
        return (done, done > 0);
    }
    #[cfg(target_arch = "aarch64")]
    if !wrap {
        return (aarch64_ce::open(c, g, cb, s, text), false);
    }
    (0, false)
}

/// SP 800-38D §7.1. `tag.len()` is the tag length `t`, checked by the caller.
fn seal(c: &Cipher, g: &ghash::Key, iv: &[u8], aad: &[u8], in_out: &mut [u8], tag: &mut [u8]) {
    let j0 = j0(g, iv);
    let mut s = [0u8; 16];
    ghash_padded(g, &mut s, aad);
    let mut cb = j0;
    inc32(&mut cb);
    let text_len = in_out.len();
    let wrap = iv.len() != 12;
    let mut ek = early_ek(c, &j0, text_len, wrap);
    let len = len_block(aad.len(), text_len);
    let (done, len_hashed) = stitched_seal(c, g, &mut cb, &mut s, in_out, wrap, &len);
    if done == text_len && done > 0 {
        if !len_hashed {
            g.update(&mut s, &len);
        }
    } else {
        let rest = &mut in_out[done..];
        let (full, mut last) = Final::new(rest);
        for chunk in rest[..full].chunks_mut(CHUNK) {
            gctr(c, &mut cb, chunk, wrap);
            g.update(&mut s, chunk);
        }
        last.ctr(c, &j0, &mut cb, &mut ek, done + full == 0, wrap);
        rest[full..].copy_from_slice(last.text());
        last.hash(g, &mut s, aad.len(), text_len);
    }
    finish_tag(&ek, &s, tag);
    wipe(&mut ek);
    wipe(&mut s);
}

/// SP 800-38D §7.2: hashes and decrypts `in_out` chunk by chunk, then checks the tag in
/// constant time; on a mismatch `in_out` is zeroed, so no plaintext is released.
fn open(
    c: &Cipher,
    g: &ghash::Key,
    iv: &[u8],
    aad: &[u8],
    in_out: &mut [u8],
    tag: &[u8],
) -> Result<(), Error> {
    let j0 = j0(g, iv);
    let mut s = [0u8; 16];
    ghash_padded(g, &mut s, aad);
    let mut cb = j0;
    inc32(&mut cb);
    let text_len = in_out.len();
    let wrap = iv.len() != 12;
    let mut ek = early_ek(c, &j0, text_len, wrap);
    let len = len_block(aad.len(), text_len);
    let (done, len_hashed) = stitched_open(c, g, &mut cb, &mut s, in_out, wrap, &len);
    if done == text_len && done > 0 {
        if !len_hashed {
            g.update(&mut s, &len);
        }
    } else {
        let rest = &mut in_out[done..];
        let (full, mut last) = Final::new(rest);
        for chunk in rest[..full].chunks_mut(CHUNK) {
            g.update(&mut s, chunk);
            gctr(c, &mut cb, chunk, wrap);
        }
        last.hash(g, &mut s, aad.len(), text_len);
        last.ctr(c, &j0, &mut cb, &mut ek, done + full == 0, wrap);
        rest[full..].copy_from_slice(last.text());
    }
    let mut want = [0u8; 16];
    finish_tag(&ek, &s, &mut want[..tag.len()]);
    wipe(&mut ek);
    wipe(&mut s);
    let ok = crate::ct::eq(&want[..tag.len()], tag);
    wipe(&mut want);
    if ok {
        Ok(())
    } else {
        wipe_slice(in_out);
        Err(Error::AuthenticationFailed)
    }
}

/// The AES-GCM dispatch: the AES kernel and the GHASH kernel that one [`Features`] value
/// selects. Its key is the GHASH kernel's while that is not the portable one, then the AES
/// kernel's: [`cpu::backends`] first steps the GHASH kernels down beside the best AES kernel,
/// then the AES kernels beside the portable GHASH, and so visits every kernel of both. (The
/// union of both keys would skip some: with AES-NI masked, dropping `avx2` for the AVX2
/// bitsliced AES also drops `vpclmul-avx2`.) One GHASH key is a feature that an AES kernel
/// below the current one needs: `ctmul-avx2`'s `avx2`, which `bitsliced-avx2` needs too, and
/// on 32-bit ARM `armv7-neon`'s `neon`, which `bitsliced-neon` needs, and on aarch64
/// `neon-pmull8`'s `neon`, which `bitsliced-neon` needs ([`shares_key`]). Beside
/// that GHASH kernel the AES kernels step down first, until the AES kernel's key is that same
/// feature; every other GHASH key is stepped first and loses no AES kernel.
#[derive(Clone, Copy, Debug)]
struct Backend {
    aes: aes::Backend,
    ghash: ghash::Backend,
}

impl Dispatch for Backend {
    fn select(f: Features) -> Self {
        Backend {
            aes: aes::Backend::select(f),
            ghash: ghash::Backend::select(f),
        }
    }

    fn name(self) -> &'static str {
        pair_name(self.aes.name(), self.ghash.name())
    }

    fn key(self) -> u64 {
        let (a, g) = (self.aes.key(), self.ghash.key());
        if g == 0 || (a != 0 && a != g && shares_key(g)) {
            a
        } else {
            g
        }
    }
}

/// Whether the GHASH key `g` is a feature that some AES kernel needs as well (see [`Backend`]):
/// on x86_64 `avx2`, the key of `ctmul-avx2` and of `bitsliced-avx2`; on 32-bit ARM `neon`,
/// the key of the GHASH kernel `armv7-neon` and of `bitsliced-neon`; on aarch64 `neon`, the
/// key of `neon-pmull8` and of `bitsliced-neon`; none elsewhere.
fn shares_key(g: u64) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        g & <cpu::arch::Avx2 as cpu::Token>::KEY != 0
    }
    #[cfg(target_arch = "arm")]
    {
        g & <cpu::arch::ArmNeon as cpu::Token>::KEY != 0
    }
    #[cfg(target_arch = "aarch64")]
    {
        g & <cpu::arch::Neon as cpu::Token>::KEY != 0
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "arm", target_arch = "aarch64")))]
    {
        let _ = g;
        false
    }
}

/// `pair_names!(aes, ghash, [aes names], [ghash names])`: the `&'static str`
/// `"<aes>+<ghash>"` for every pair of listed names (`concat!` needs literals), or
/// [`UNLISTED`].
macro_rules! pair_names {
    ($a:expr, $g:expr, [$($an:literal),* $(,)?], $gl:tt) => {
        match $a {
            $( $an => pair_names!(@ghash $an, $g, $gl), )*
            _ => UNLISTED,
        }
    };
    (@ghash $an:literal, $g:expr, [$($gn:literal),* $(,)?]) => {
        match $g {
            $( $gn => concat!($an, "+", $gn), )*
            _ => UNLISTED,
        }
    };
}

/// The name of a pair missing from `pair_name`'s lists (a test checks none is reachable).
const UNLISTED: &str = "aes+ghash";

/// `"<aes backend>+<ghash backend>"`, for every kernel name of every architecture.
fn pair_name(aes: &str, ghash: &str) -> &'static str {
    pair_names!(
        aes,
        ghash,
        [
            "vaes-avx512",
            "vaes-avx2",
            "aes-ni",
            "armv8-ce",
            "armv7-ce",
            "gfni-avx512",
            "bitsliced-avx512",
            "bitsliced-avx2",
            "vpaes-ssse3",
            "vpaes-neon",
            "bitsliced-neon",
            "bitsliced-64",
            "bitsliced-32",
        ],
        [
            "vpclmul-avx512",
            "vpclmul-avx2",
            "clmul",
            "ctmul-avx2",
            "pmull",
            "neon-pmull8",
            "armv7-pmull",
            "armv7-neon",
            "ctmul-64",
            "ctmul-32",
        ]
    )
}

macro_rules! gcm_type {
    ($(#[$doc:meta])* $name:ident, $aes:ident, $len:literal) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name {
            aes: $aes,
            ghash: ghash::Key,
        }

        impl $name {
            /// Key length in bytes.
            pub const KEY_LEN: usize = $len;
            /// Nonce length in bytes (other IV lengths: [`Self::seal_detached_with_iv`]).
            pub const NONCE_LEN: usize = 12;
            /// Tag length in bytes.
            pub const TAG_LEN: usize = 16;

            /// Like [`Self::new`] for a key given as a slice: `Err(InvalidLength)` unless it
            /// is exactly [`Self::KEY_LEN`] bytes long.
            pub fn new_from_slice(key: &[u8]) -> Result<Self, Error> {
                let key: &[u8; $len] = key.try_into().map_err(|_| Error::InvalidLength)?;
                Ok(Self::new(key))
            }

            /// Expands `key` for the fastest AES and GHASH kernels this CPU has (less
            /// `SIMDCRYPT_DISABLE`).
            #[inline]
            pub fn new(key: &[u8; $len]) -> Self {
                Self::new_with(Features::detect(), key)
            }

            /// Expands `key` for the kernels that `features` selects (tests, benchmarks and
            /// comparisons pass a reduced [`Features`]).
            pub fn new_with(features: Features, key: &[u8; $len]) -> Self {
                let aes = $aes::new_with(features, key);
                let mut h = [0u8; 16];
                aes.encrypt_block(&mut h);
                let ghash = ghash::Key::new(features, &h);
                wipe(&mut h);
                $name { aes, ghash }
            }

            /// Encrypts `in_out` in place under the 96-bit `nonce`, authenticating it and
            /// `aad`, and returns the 16-byte tag. `Err(MessageTooLong)` if `in_out` is
            /// longer than 2^36 − 32 bytes or `aad` than 2^61 − 1 (then `in_out` is unchanged).
            pub fn seal_in_place_detached(
                &self,
                nonce: &[u8; 12],
                aad: &[u8],
                in_out: &mut [u8],
            ) -> Result<[u8; 16], Error> {
                self.seal_detached_with_iv(nonce, aad, in_out)
            }

            /// Checks `tag` over `aad` and the ciphertext `in_out` in constant time and, if it
            /// matches, leaves the plaintext in `in_out`. On any error
            /// (`AuthenticationFailed`, `MessageTooLong`) `in_out` is all zero.
            pub fn open_in_place_detached(
                &self,
                nonce: &[u8; 12],
                aad: &[u8],
                in_out: &mut [u8],
                tag: &[u8; 16],
            ) -> Result<(), Error> {
                self.open_tag(nonce, aad, in_out, tag)
            }

            /// Like [`Self::seal_in_place_detached`] for any IV length of at least one byte. A
            /// 12-byte IV is the nonce of the AEAD API; other lengths derive `J0` with GHASH
            /// (SP 800-38D §7.1). This is the interface of NIST's GCMVS tests and of protocols
            /// with longer IVs; prefer the 12-byte nonce. The tag is always 16 bytes: shorter
            /// tags only through [`GcmShortTag`](crate::aead::GcmShortTag), chosen up front.
            ///
            /// `Err(InvalidLength)` for an empty IV, `Err(MessageTooLong)` as for
            /// [`Self::seal_in_place_detached`]; `in_out` is unchanged on error.
            pub fn seal_detached_with_iv(
                &self,
                iv: &[u8],
                aad: &[u8],
                in_out: &mut [u8],
            ) -> Result<[u8; 16], Error> {
                let mut tag = [0u8; 16];
                self.seal_tag(iv, aad, in_out, &mut tag)?;
                Ok(tag)
            }

            /// Like [`Self::open_in_place_detached`] for any IV length, with the 16-byte tag of
            /// [`Self::seal_detached_with_iv`]. On any error `in_out` is all zero.
            pub fn open_detached_with_iv(
                &self,
                iv: &[u8],
                aad: &[u8],
                in_out: &mut [u8],
                tag: &[u8; 16],
            ) -> Result<(), Error> {
                self.open_tag(iv, aad, in_out, tag)
            }

            /// Seals with a tag of `tag.len()` bytes, which the caller's type fixed (16 here,
            /// `TAG_LEN` in [`GcmShortTag`](crate::aead::GcmShortTag)).
            fn seal_tag(&self, iv: &[u8], aad: &[u8], in_out: &mut [u8], tag: &mut [u8]) -> Result<(), Error> {
                check_tag_len(tag.len())?;
                check_lengths(iv, aad, in_out)?;
                seal(self.aes.cipher(), &self.ghash, iv, aad, in_out, tag);
                Ok(())
            }

            /// Opens with a tag whose length the caller's type fixed; zeroes `in_out` on error.
            fn open_tag(&self, iv: &[u8], aad: &[u8], in_out: &mut [u8], tag: &[u8]) -> Result<(), Error> {
                let checked = check_tag_len(tag.len()).and_then(|()| check_lengths(iv, aad, in_out));
                if let Err(e) = checked {
                    wipe_slice(in_out);
                    return Err(e);
                }
                open(self.aes.cipher(), &self.ghash, iv, aad, in_out, tag)
            }

            /// Encrypts `plaintext` and returns ciphertext ‖ 16-byte tag.
            #[cfg(feature = "alloc")]
            pub fn seal(&self, nonce: &[u8; 12], aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
                check_lengths(nonce, aad, plaintext)?;
                let mut out = Vec::with_capacity(plaintext.len() + 16);
                out.extend_from_slice(plaintext);
                let tag = self.seal_in_place_detached(nonce, aad, &mut out)?;
                out.extend_from_slice(&tag);
                Ok(out)
            }

            /// Checks and decrypts ciphertext ‖ 16-byte tag; returns the plaintext.
            /// `Err(InvalidLength)` if `ct_and_tag` is shorter than a tag,
            /// `Err(AuthenticationFailed)` if the tag does not match.
            #[cfg(feature = "alloc")]
            pub fn open(&self, nonce: &[u8; 12], aad: &[u8], ct_and_tag: &[u8]) -> Result<Vec<u8>, Error> {
                let Some(ct_len) = ct_and_tag.len().checked_sub(16) else {
                    return Err(Error::InvalidLength);
                };
                let (ct, tag) = ct_and_tag.split_at(ct_len);
                let tag: &[u8; 16] = tag.try_into().map_err(|_| Error::InvalidLength)?;
                let mut out = Vec::from(ct);
                self.open_in_place_detached(nonce, aad, &mut out, tag)?;
                Ok(out)
            }

            /// The AES and GHASH kernels of this key, as `"<aes>+<ghash>"` (e.g.
            /// `"aes-ni+clmul"`, `"bitsliced-64+ctmul-64"`).
            pub fn backend(&self) -> &'static str {
                pair_name(self.aes.backend(), self.ghash.backend())
            }

            /// The kernels a key made with `features` would use.
            pub fn backend_for(features: Features) -> &'static str {
                Backend::select(features).name()
            }

            /// Every (AES, GHASH) kernel pair reachable from `features`, best first, each with
            /// a feature set that selects it (for [`Self::new_with`]). Every AES kernel and
            /// every GHASH kernel the CPU supports appears in at least one pair.
            pub fn backends(features: Features) -> impl Iterator<Item = (&'static str, Features)> {
                cpu::backends::<Backend>(features)
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                // Never the key.
                f.debug_struct(stringify!($name)).field("backend", &self.backend()).finish()
            }
        }
    };
}

gcm_type!(
    /// AES-128-GCM (SP 800-38D): a 16-byte key, 12-byte nonces, 16-byte tags. The AES round
    /// keys and the GHASH key (with its powers) are wiped on drop.
    ///
    /// ```
    /// use simdcrypt::aead::Aes128Gcm;
    ///
    /// // McGrew and Viega, "The Galois/Counter Mode of Operation (GCM)", test case 4.
    /// let key = [0xfe, 0xff, 0xe9, 0x92, 0x86, 0x65, 0x73, 0x1c,
    ///            0x6d, 0x6a, 0x8f, 0x94, 0x67, 0x30, 0x83, 0x08];
    /// let nonce = [0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce, 0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88];
    /// let aad = [0xfe, 0xed, 0xfa, 0xce, 0xde, 0xad, 0xbe, 0xef, 0xfe, 0xed, 0xfa, 0xce,
    ///            0xde, 0xad, 0xbe, 0xef, 0xab, 0xad, 0xda, 0xd2];
    /// let pt: [u8; 60] = [
    ///     0xd9, 0x31, 0x32, 0x25, 0xf8, 0x84, 0x06, 0xe5, 0xa5, 0x59, 0x09, 0xc5, 0xaf, 0xf5, 0x26, 0x9a,
    ///     0x86, 0xa7, 0xa9, 0x53, 0x15, 0x34, 0xf7, 0xda, 0x2e, 0x4c, 0x30, 0x3d, 0x8a, 0x31, 0x8a, 0x72,
    ///     0x1c, 0x3c, 0x0c, 0x95, 0x95, 0x68, 0x09, 0x53, 0x2f, 0xcf, 0x0e, 0x24, 0x49, 0xa6, 0xb5, 0x25,
    ///     0xb1, 0x6a, 0xed, 0xf5, 0xaa, 0x0d, 0xe6, 0x57, 0xba, 0x63, 0x7b, 0x39,
    /// ];
    /// let gcm = Aes128Gcm::new(&key);
    /// let mut buf = pt;
    /// let tag = gcm.seal_in_place_detached(&nonce, &aad, &mut buf)?;
    /// assert_eq!(buf[..4], [0x42, 0x83, 0x1e, 0xc2]);
    /// assert_eq!(tag, [0x5b, 0xc9, 0x4f, 0xbc, 0x32, 0x21, 0xa5, 0xdb,
    ///                  0x94, 0xfa, 0xe9, 0x5a, 0xe7, 0x12, 0x1a, 0x47]);
    ///
    /// gcm.open_in_place_detached(&nonce, &aad, &mut buf, &tag)?;
    /// assert_eq!(buf, pt);
    ///
    /// // A changed byte anywhere fails, and the buffer is zeroed.
    /// gcm.seal_in_place_detached(&nonce, &aad, &mut buf)?;
    /// buf[7] ^= 1;
    /// assert!(gcm.open_in_place_detached(&nonce, &aad, &mut buf, &tag).is_err());
    /// assert_eq!(buf, [0u8; 60]);
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    Aes128Gcm, Aes128, 16
);
gcm_type!(
    /// AES-192-GCM (SP 800-38D): a 24-byte key; otherwise as [`Aes128Gcm`].
    Aes192Gcm, Aes192, 24
);
gcm_type!(
    /// AES-256-GCM (SP 800-38D): a 32-byte key; otherwise as [`Aes128Gcm`].
    Aes256Gcm, Aes256, 32
);

/// The three AES-GCM key types, for [`GcmShortTag`]. Sealed: only this crate implements it.
pub trait AesGcmKey: sealed::Sealed + Clone {
    /// The key, as an array of the key length.
    type Key;
    /// Expands `key` for the kernels that `features` selects.
    fn new_with(features: Features, key: &Self::Key) -> Self;
}

mod sealed {
    use crate::Error;

    /// Keeps [`super::AesGcmKey`] to this crate's types; the tag length is the caller's.
    pub trait Sealed {
        fn seal_tag(
            &self,
            iv: &[u8],
            aad: &[u8],
            in_out: &mut [u8],
            tag: &mut [u8],
        ) -> Result<(), Error>;
        fn open_tag(
            &self,
            iv: &[u8],
            aad: &[u8],
            in_out: &mut [u8],
            tag: &[u8],
        ) -> Result<(), Error>;
        fn kernels(&self) -> &'static str;
    }
}

macro_rules! gcm_key {
    ($name:ident, $len:literal) => {
        impl sealed::Sealed for $name {
            fn seal_tag(
                &self,
                iv: &[u8],
                aad: &[u8],
                in_out: &mut [u8],
                tag: &mut [u8],
            ) -> Result<(), Error> {
                $name::seal_tag(self, iv, aad, in_out, tag)
            }
            fn open_tag(
                &self,
                iv: &[u8],
                aad: &[u8],
                in_out: &mut [u8],
                tag: &[u8],
            ) -> Result<(), Error> {
                $name::open_tag(self, iv, aad, in_out, tag)
            }
            fn kernels(&self) -> &'static str {
                self.backend()
            }
        }
        impl AesGcmKey for $name {
            type Key = [u8; $len];
            fn new_with(features: Features, key: &[u8; $len]) -> Self {
                $name::new_with(features, key)
            }
        }
    };
}
gcm_key!(Aes128Gcm, 16);
gcm_key!(Aes192Gcm, 24);
gcm_key!(Aes256Gcm, 32);

/// AES-GCM with tags of `TAG_LEN` bytes: 16, 15, 14, 13, 12, or 8 or 4 (SP 800-38D §5.2.1.2;
/// 8 and 4 only under the conditions of its Appendix C). The tag length is part of the type,
/// chosen when the key is made, never taken from the length of a slice: a caller cannot be
/// talked into accepting a 4-byte tag by an attacker who shortens one. Other lengths do not
/// compile. Prefer the 16-byte tags of [`Aes128Gcm`] and its siblings; this type exists for
/// protocols and test suites (NIST GCMVS, Wycheproof) that fix a shorter tag.
///
/// ```
/// use simdcrypt::aead::{Aes128Gcm, GcmShortTag};
///
/// let key = [7u8; 16];
/// let gcm = GcmShortTag::<Aes128Gcm, 12>::new(&key);
/// let mut buf = *b"hello";
/// let tag: [u8; 12] = gcm.seal_detached_with_iv(&[1; 12], b"aad", &mut buf)?;
/// // The 12-byte tag is the first 12 bytes of the full tag.
/// let mut full_buf = *b"hello";
/// let full = Aes128Gcm::new(&key).seal_detached_with_iv(&[1; 12], b"aad", &mut full_buf)?;
/// assert_eq!(tag[..], full[..12]);
/// gcm.open_detached_with_iv(&[1; 12], b"aad", &mut buf, &tag)?;
/// assert_eq!(&buf, b"hello");
/// # Ok::<(), simdcrypt::Error>(())
/// ```
///
/// A tag length outside the standard's list is a compile error:
///
/// ```compile_fail
/// use simdcrypt::aead::{Aes128Gcm, GcmShortTag};
/// let gcm = GcmShortTag::<Aes128Gcm, 6>::new(&[0u8; 16]);
/// ```
#[derive(Clone)]
pub struct GcmShortTag<G: AesGcmKey, const TAG_LEN: usize> {
    gcm: G,
}

impl<G: AesGcmKey, const TAG_LEN: usize> GcmShortTag<G, TAG_LEN> {
    /// The tag length in bytes.
    pub const TAG_LEN: usize = TAG_LEN;
    const VALID: () = assert!(
        matches!(TAG_LEN, 4 | 8 | 12..=16),
        "GcmShortTag: TAG_LEN must be 16, 15, 14, 13, 12, 8 or 4 (SP 800-38D 5.2.1.2)"
    );

    /// Expands `key` for the fastest kernels this CPU has (less `SIMDCRYPT_DISABLE`).
    pub fn new(key: &G::Key) -> Self {
        Self::new_with(Features::detect(), key)
    }

    /// Expands `key` for the kernels that `features` selects.
    pub fn new_with(features: Features, key: &G::Key) -> Self {
        Self::from_key(G::new_with(features, key))
    }

    /// Uses an expanded key (a clone of it, if the caller keeps one, is a separate key).
    pub fn from_key(gcm: G) -> Self {
        let () = Self::VALID;
        GcmShortTag { gcm }
    }

    /// Encrypts `in_out` in place under `iv` (at least one byte; 12 is the usual nonce),
    /// authenticating it and `aad`, and returns the tag: the first `TAG_LEN` bytes of the
    /// full GCM tag. `Err(InvalidLength)` for an empty IV, `Err(MessageTooLong)` for a text
    /// over 2^36 − 32 bytes; `in_out` is unchanged on error.
    pub fn seal_detached_with_iv(
        &self,
        iv: &[u8],
        aad: &[u8],
        in_out: &mut [u8],
    ) -> Result<[u8; TAG_LEN], Error> {
        let mut tag = [0u8; TAG_LEN];
        self.gcm.seal_tag(iv, aad, in_out, &mut tag)?;
        Ok(tag)
    }

    /// Checks the `TAG_LEN`-byte `tag` in constant time and, if it matches, leaves the
    /// plaintext in `in_out`. On any error `in_out` is all zero.
    pub fn open_detached_with_iv(
        &self,
        iv: &[u8],
        aad: &[u8],
        in_out: &mut [u8],
        tag: &[u8; TAG_LEN],
    ) -> Result<(), Error> {
        self.gcm.open_tag(iv, aad, in_out, tag)
    }

    /// The AES and GHASH kernels, as for the key type.
    pub fn backend(&self) -> &'static str {
        self.gcm.kernels()
    }
}

impl<G: AesGcmKey, const TAG_LEN: usize> core::fmt::Debug for GcmShortTag<G, TAG_LEN> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Never the key.
        f.debug_struct("GcmShortTag")
            .field("tag_len", &TAG_LEN)
            .field("backend", &self.backend())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec::Vec;

    fn hex(s: &str) -> Vec<u8> {
        let s: std::string::String = s.split_whitespace().collect();
        (0..s.len() / 2)
            .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
            .collect()
    }

    /// xorshift, for reproducible pseudo-random test data.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn bytes(&mut self, n: usize) -> Vec<u8> {
            (0..n).map(|_| self.next() as u8).collect()
        }
    }

    /// Every feature set that selects a distinct (AES, GHASH) pair here.
    fn all_features() -> Vec<(&'static str, Features)> {
        Aes128Gcm::backends(Features::detect()).collect()
    }

    /// SP 800-38D written out block by block with `encrypt_block` and a bit-by-bit GF(2^128)
    /// multiply (§6.3 Algorithm 1): the reference the composition is checked against.
    fn reference(key: &[u8; 16], iv: &[u8], aad: &[u8], pt: &[u8]) -> (Vec<u8>, [u8; 16]) {
        let aes = Aes128::new_with(Features::none(), key);
        let mut h = [0u8; 16];
        aes.encrypt_block(&mut h);
        let mul = |x: &[u8; 16]| {
            let mut z = [0u8; 16];
            let mut v = h;
            for i in 0..128 {
                if (x[i / 8] >> (7 - i % 8)) & 1 == 1 {
                    for (z, v) in z.iter_mut().zip(&v) {
                        *z ^= v;
                    }
                }
                let lsb = v[15] & 1;
                for j in (1..16).rev() {
                    v[j] = (v[j] >> 1) | (v[j - 1] << 7);
                }
                v[0] >>= 1;
                if lsb == 1 {
                    v[0] ^= 0xe1;
                }
            }
            z
        };
        let ghash = |parts: &[&[u8]]| {
            let mut y = [0u8; 16];
            for p in parts {
                for b in p.chunks(16) {
                    for (y, b) in y.iter_mut().zip(b) {
                        *y ^= b;
                    }
                    y = mul(&y);
                }
            }
            y
        };
        let j0 = if iv.len() == 12 {
            let mut j = [0u8; 16];
            j[..12].copy_from_slice(iv);
            j[15] = 1;
            j
        } else {
            let mut len = [0u8; 16];
            len[8..].copy_from_slice(&(iv.len() as u64 * 8).to_be_bytes());
            ghash(&[iv, &len])
        };
        let mut ct = pt.to_vec();
        let mut cb = j0;
        for block in ct.chunks_mut(16) {
            inc32(&mut cb);
            let mut k = cb;
            aes.encrypt_block(&mut k);
            for (b, k) in block.iter_mut().zip(&k) {
                *b ^= k;
            }
        }
        let mut len = [0u8; 16];
        len[..8].copy_from_slice(&(aad.len() as u64 * 8).to_be_bytes());
        len[8..].copy_from_slice(&(pt.len() as u64 * 8).to_be_bytes());
        let s = ghash(&[aad, &ct, &len]);
        let mut t = j0;
        aes.encrypt_block(&mut t);
        for (t, s) in t.iter_mut().zip(&s) {
            *t ^= s;
        }
        (ct, t)
    }

    /// McGrew–Viega test cases 1–6 (AES-128), 7–12 (AES-192), 13–18 (AES-256) in part:
    /// (key, iv, aad, pt, ct, tag).
    #[test]
    fn mcgrew_viega() {
        let k3 = "feffe9928665731c6d6a8f9467308308";
        let p = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72\
                 1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255";
        let a = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
        let cases: [(&str, &str, &str, &str, &str, &str); 6] = [
            (
                "00000000000000000000000000000000",
                "000000000000000000000000",
                "",
                "",
                "",
                "58e2fccefa7e3061367f1d57a4e7455a",
            ),
            (
                "00000000000000000000000000000000",
                "000000000000000000000000",
                "",
                "00000000000000000000000000000000",
                "0388dace60b6a392f328c2b971b2fe78",
                "ab6e47d42cec13bdf53a67b21257bddf",
            ),
            (
                k3,
                "cafebabefacedbaddecaf888",
                "",
                p,
                "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e\
                 21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
                "4d5c2af327cd64a62cf35abd2ba6fab4",
            ),
            (
                k3,
                "cafebabefacedbaddecaf888",
                a,
                &p[..120],
                "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e\
                 21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
                "5bc94fbc3221a5db94fae95ae7121a47",
            ),
            (
                k3,
                "cafebabefacedbad",
                a,
                &p[..120],
                "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c7423\
                 73806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598",
                "3612d2e79e3b0785561be14aaca2fccb",
            ),
            (
                k3,
                "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728\
                 c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b",
                a,
                &p[..120],
                "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca7\
                 01e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
                "619cc5aefffe0bfa462af43c1699d050",
            ),
        ];
        for (name, f) in all_features() {
            for (i, (k, iv, a, p, c, t)) in cases.iter().enumerate() {
                let key: [u8; 16] = hex(k).try_into().unwrap();
                let (iv, a, p, c, t) = (hex(iv), hex(a), hex(p), hex(c), hex(t));
                let gcm = Aes128Gcm::new_with(f, &key);
                assert_eq!(gcm.backend(), name);
                let mut buf = p.clone();
                let mut tag = [0u8; 16];
                gcm.seal_tag(&iv, &a, &mut buf, &mut tag).unwrap();
                assert_eq!(buf, c, "{name}: test case {}", i + 1);
                assert_eq!(tag[..], t[..], "{name}: test case {}", i + 1);
                let r = reference(&key, &iv, &a, &p);
                assert_eq!((r.0, &r.1[..]), (c.clone(), &t[..]), "reference {}", i + 1);
                gcm.open_tag(&iv, &a, &mut buf, &tag).unwrap();
                assert_eq!(buf, p);
            }
        }
    }

    /// Test cases 15–16 (AES-256, 96-bit IV), 13 (AES-256 empty) and 7 (AES-192 empty).
    #[test]
    fn mcgrew_viega_192_256() {
        let k = hex("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308");
        let p = hex(
            "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72\
             1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255",
        );
        let iv: [u8; 12] = hex("cafebabefacedbaddecaf888").try_into().unwrap();
        for (_, f) in all_features() {
            let g = Aes256Gcm::new_with(f, &k.clone().try_into().unwrap());
            let mut buf = p.clone();
            let tag = g.seal_in_place_detached(&iv, &[], &mut buf).unwrap();
            assert_eq!(
                buf,
                hex(
                    "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa\
                     8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad"
                )
            );
            assert_eq!(tag.to_vec(), hex("b094dac5d93471bdec1a502270e3cc6c"));
            let g = Aes256Gcm::new_with(f, &[0; 32]);
            let tag = g.seal_in_place_detached(&[0; 12], &[], &mut []).unwrap();
            assert_eq!(tag.to_vec(), hex("530f8afbc74536b9a963b4f1c4cb738b"));
            let g = Aes192Gcm::new_with(f, &[0; 24]);
            let tag = g.seal_in_place_detached(&[0; 12], &[], &mut []).unwrap();
            assert_eq!(tag.to_vec(), hex("cd33b28ac773f74ba00ed1f312572435"));
        }
    }

    /// Random keys, IV lengths, AAD and message lengths on every backend against the
    /// block-by-block reference, with every tag length; open round-trips and rejects flips.
    #[test]
    fn matches_reference() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let lens = [
            0usize, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 500,
        ];
        for (name, f) in all_features() {
            for (n, &len) in lens.iter().enumerate() {
                let key: [u8; 16] = rng.bytes(16).try_into().unwrap();
                let iv_len = [12, 1, 8, 16, 60, 12, 64][n % 7];
                let iv = rng.bytes(iv_len);
                let aad_len = (rng.next() % 70) as usize;
                let aad = rng.bytes(aad_len);
                let pt = rng.bytes(len);
                let (ct, t) = reference(&key, &iv, &aad, &pt);
                let g = Aes128Gcm::new_with(f, &key);
                for tag_len in [16, 15, 14, 13, 12, 8, 4] {
                    let mut buf = pt.clone();
                    let mut tag = [0u8; 16];
                    g.seal_tag(&iv, &aad, &mut buf, &mut tag[..tag_len])
                        .unwrap();
                    assert_eq!(buf, ct, "{name} len {len} iv {iv_len}");
                    assert_eq!(tag[..tag_len], t[..tag_len], "{name} len {len} iv {iv_len}");
                    g.open_tag(&iv, &aad, &mut buf, &tag[..tag_len]).unwrap();
                    assert_eq!(buf, pt);
                }
                // A flipped bit in the ciphertext, the tag or the AAD fails and zeroes.
                let total = ct.len() + 16 + aad.len();
                let at = (rng.next() as usize) % total;
                let (mut c2, mut t2, mut a2) = (ct.clone(), t, aad.clone());
                if at < ct.len() {
                    c2[at] ^= 1 << (at % 8);
                } else if at < ct.len() + 16 {
                    t2[at - ct.len()] ^= 1 << (at % 8);
                } else {
                    a2[at - ct.len() - 16] ^= 1 << (at % 8);
                }
                let r = g.open_tag(&iv, &a2, &mut c2, &t2);
                assert_eq!(r, Err(Error::AuthenticationFailed));
                assert!(c2.iter().all(|&b| b == 0));
            }
        }
    }

    /// Long messages (several chunks, stride-crossing tails) agree on every backend.
    #[test]
    fn backends_agree_on_long_messages() {
        let mut rng = Rng(99);
        let key: [u8; 32] = rng.bytes(32).try_into().unwrap();
        let nonce: [u8; 12] = rng.bytes(12).try_into().unwrap();
        let aad = rng.bytes(13);
        for len in [CHUNK - 1, CHUNK, CHUNK + 16 * 9 + 5, 3 * CHUNK + 100] {
            let pt = rng.bytes(len);
            let mut first: Option<(Vec<u8>, [u8; 16])> = None;
            for (name, f) in all_features() {
                let g = Aes256Gcm::new_with(f, &key);
                let mut buf = pt.clone();
                let tag = g.seal_in_place_detached(&nonce, &aad, &mut buf).unwrap();
                match &first {
                    None => first = Some((buf.clone(), tag)),
                    Some((c, t)) => assert_eq!((&buf, &tag), (c, t), "{name}, {len} bytes"),
                }
                g.open_in_place_detached(&nonce, &aad, &mut buf, &tag)
                    .unwrap();
                assert_eq!(buf, pt);
            }
        }
    }

    /// GCTR's counter wraps its low 32 bits only (SP 800-38D §6.2), across a kernel call.
    #[test]
    fn gctr_wraps_low_word() {
        let key = [7u8; 16];
        for (name, f) in all_features() {
            let aes = Aes128::new_with(f, &key);
            for start in [0xffff_fffbu32, 0xffff_ffff, 0, 0u32.wrapping_sub(20)] {
                let mut cb = [0xa5u8; 16];
                cb[12..].copy_from_slice(&start.to_be_bytes());
                let mut data = [0u8; 16 * 40];
                let mut want = data;
                let mut c = cb;
                for block in want.chunks_mut(16) {
                    let mut k = c;
                    aes.encrypt_block(&mut k);
                    block.copy_from_slice(&k);
                    inc32(&mut c);
                }
                gctr(aes.cipher(), &mut cb, &mut data, true);
                assert_eq!(data, want, "{name} from {start:#x}");
                assert_eq!(cb, c, "{name} from {start:#x}");
            }
        }
    }

    /// A short text whose counter blocks wrap the low word of `J0` (`inc32` wraps to zero):
    /// `E(J0)` and the keystream must then not come from one 128-bit run.
    #[test]
    fn final_block_after_j0_low_word_max() {
        for (name, f) in all_features() {
            let aes = Aes128::new_with(f, &[9; 16]);
            for low in [u32::MAX, u32::MAX - 1, u32::MAX - 2, u32::MAX - 3, 5] {
                let mut j0 = [0x3c; 16];
                j0[12..].copy_from_slice(&low.to_be_bytes());
                let text = [0x11u8; 40];
                let (full, mut last) = Final::new(&text);
                assert_eq!(full, 0);
                let mut cb = j0;
                inc32(&mut cb);
                let ek = early_ek(aes.cipher(), &j0, text.len(), true);
                let mut ek2 = ek;
                last.ctr(aes.cipher(), &j0, &mut cb, &mut ek2, true, true);
                assert_eq!(
                    ek2, ek,
                    "{name}: E(J0) is early_ek's when the counter may wrap"
                );
                let mut want = j0;
                aes.encrypt_block(&mut want);
                assert_eq!(ek, want, "{name}");
                let mut c2 = j0;
                let mut k = j0;
                for (i, t) in text.iter().enumerate() {
                    if i % 16 == 0 {
                        inc32(&mut c2);
                        k = c2;
                        aes.encrypt_block(&mut k);
                    }
                    assert_eq!(last.text()[i], t ^ k[i % 16], "{name} {low:#x} byte {i}");
                }
            }
        }
    }

    #[test]
    fn length_errors() {
        let g = Aes128Gcm::new(&[1; 16]);
        let mut buf = [5u8; 20];
        let mut tag = [0u8; 16];
        assert_eq!(
            g.seal_tag(&[], &[], &mut buf, &mut tag),
            Err(Error::InvalidLength)
        );
        for bad in [0, 1, 3, 5, 7, 9, 10, 11] {
            assert_eq!(
                g.seal_tag(&[0; 12], &[], &mut buf, &mut tag[..bad]),
                Err(Error::InvalidLength)
            );
        }
        assert_eq!(buf, [5u8; 20]);
        assert_eq!(
            g.open_tag(&[0; 12], &[], &mut buf, &tag[..11]),
            Err(Error::InvalidLength)
        );
        assert_eq!(buf, [0u8; 20]);
    }

    #[cfg(feature = "alloc")]
    #[test]
    fn vec_api() {
        let g = Aes128Gcm::new(&[1; 16]);
        assert_eq!(g.open(&[0; 12], &[], &[0; 15]), Err(Error::InvalidLength));
        let sealed = g.seal(&[3; 12], b"ad", b"hello").unwrap();
        assert_eq!(sealed.len(), 5 + 16);
        assert_eq!(g.open(&[3; 12], b"ad", &sealed).unwrap(), b"hello");
        assert_eq!(
            g.open(&[3; 12], b"ae", &sealed),
            Err(Error::AuthenticationFailed)
        );
    }

    /// The walk over `backends` reaches every AES kernel and every GHASH kernel, and every
    /// pair has a listed name.
    #[test]
    fn backends_cover_both_kernels() {
        let f = Features::detect();
        let pairs: Vec<(&str, Features)> = Aes128Gcm::backends(f).collect();
        for (name, g) in &pairs {
            assert_ne!(*name, UNLISTED);
            assert_eq!(Aes128Gcm::backend_for(*g), *name);
            assert_eq!(Aes128Gcm::new_with(*g, &[0; 16]).backend(), *name);
        }
        for (aes_name, _) in Aes128::backends(f) {
            assert!(
                pairs
                    .iter()
                    .any(|(p, _)| p.split('+').next() == Some(aes_name)),
                "AES kernel {aes_name} not visited: {pairs:?}"
            );
        }
        for (gh, _) in cpu::backends::<ghash::Backend>(f) {
            assert!(
                pairs.iter().any(|(p, _)| p.split('+').nth(1) == Some(gh)),
                "GHASH kernel {gh} not visited: {pairs:?}"
            );
        }
    }
}
