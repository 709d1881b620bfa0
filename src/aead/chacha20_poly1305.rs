//! ChaCha20-Poly1305 (RFC 8439 §2.8), and the pieces the XChaCha20 and OpenSSH variants share
//! with it: the kernel pair ([`Backend`], its names) and the construction over a ChaCha20
//! state ([`seal`], [`open`]).
//!
//! # Construction (RFC 8439 §2.8)
//!
//! 1. The one-time Poly1305 key is the first 32 bytes of ChaCha20 block 0 (§2.6: the key, the
//!    nonce, block counter 0).
//! 2. The text is encrypted from block counter 1 (§2.4).
//! 3. The tag is Poly1305 over `AAD ‖ pad16 ‖ ciphertext ‖ pad16 ‖ le64(len(AAD)) ‖
//!    le64(len(ciphertext))`, where `pad16` is zeros up to a multiple of 16 bytes: every block
//!    of that input is a full block, so the MAC only ever sees whole blocks
//!    (`poly1305::Mac::update_padded`).
//!
//! # How the work is split
//!
//! Each key picks its ChaCha20 kernel and its Poly1305 kernel once, from the same
//! [`Features`]; `backend()` names the pair, e.g. `"avx512+avx512-ifma"` or `"soft+soft-64"`.
//!
//! The first [`HEAD`] bytes of text are encrypted in the same kernel call that makes block 0
//! (a 16-byte message costs one two-block call, which the kernels' short paths serve), through
//! a stack buffer ([`Head`], of 128, 256 or 512 bytes by the text's length). A text of at most [`SHORT_TEXT`] bytes, with an AAD of at most
//! [`SHORT_AAD`] bytes, is MACed with the portable Poly1305 kernel ([`mac_short`]: at most 17
//! blocks, where a vector kernel's key set-up would cost more than it saves). The rest of a
//! longer text goes in chunks of [`CHUNK`] bytes: sealing
//! encrypts a chunk and then MACs it while it is still in L1; opening MACs a chunk and then
//! decrypts it. A failed open zeroes the whole buffer; the plaintext of the head (where there
//! is one: not on the stitched path below) is only written out after the tag matched.
//!
//! A text of at most [`ONE_TEXT`] (64) bytes with a short AAD, the TLS and VPN packet case,
//! takes a path of its own ([`seal_one`], [`open_one`]), kept out of the frame of the long
//! paths: a 128-byte buffer on the caller's stack, the text copied in and out with inline
//! fixed-size moves, one kernel call, [`mac_short`]. A 64-byte seal with a 13-byte AAD went
//! from about 131 to 113 ns here with it (the ChaCha20 call is about 66 ns of that).
//!
//! With AVX-512 and BMI2 (x86_64), a text of at least `STITCH_TEXT` (2048) bytes takes the
//! stitched path instead (`seal_stitched`, `open_stitched`; the pair's name ends in
//! `+stitched`; OpenSSH's construction keeps the unstitched pair, [`Unstitched`]). It has no
//! head: block 0 is a one-block call of its own and the text is XORed in place (sealing's
//! first KiB in a plain 16-block call); then each 1 KiB step of
//! the kernel in `x86_64_avx512` encrypts 1 KiB while a scalar Poly1305 absorbs 512 bytes of
//! MAC input on the ports the vector code leaves idle, and the vector Poly1305 kernel absorbs
//! the other half. Sealing's kernel MACs ciphertext it wrote in earlier steps (at least 512
//! bytes behind); opening's MACs the second half of a chunk while it decrypts the chunk, after
//! the vector kernel absorbed the first half. Measured at 16 KiB: about 2–5% faster than the
//! same pair unstitched (the `mulx` high halves take port 5, which the vector code needs).
//!
//! # Limits
//!
//! The 32-bit block counter numbers blocks 1 to 2^32 − 1 for the text, so a text is at most
//! (2^32 − 1)·64 bytes (RFC 8439 §2.8: 274 877 906 880); a longer one gives
//! [`Error::MessageTooLong`]. The AAD is unbounded (its length is a 64-bit field).
// `deny`, not `forbid`: only the stitched kernel's wrapper below may use `unsafe`.
#![deny(unsafe_code)]

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use crate::Error;
use crate::chacha20::{self, Core};
use crate::cpu::{self, Dispatch, Features};
use crate::poly1305::{self, Mac};
use crate::wipe::{wipe, wipe_slice};

/// Stitched ChaCha20-Poly1305: zmm ChaCha20 with a scalar Poly1305
/// (asm/x86_64/chacha_poly_avx512.S).
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
#[allow(unsafe_code)]
mod x86_64_avx512;

/// Bytes per pass over the text after the head (a multiple of 64, so that only the last
/// chunk can end inside a ChaCha20 block, and of 16 for Poly1305).
const CHUNK: usize = 16384;

/// Text bytes encrypted together with block 0: seven blocks, so that block 0 and the head make
/// one call of at most eight blocks. Every kernel's cost per call grows in steps (AVX-512:
/// about 69 ns for 1–2 blocks, 71 for 3–4, 109 for 5–8, 150 for 9–16, measured), so one call
/// of up to eight blocks is cheaper than two.
const HEAD: usize = 448;

/// Longest text MACed with the portable Poly1305 kernel in one go ([`mac_short`]).
const SHORT_TEXT: usize = 192;

/// Longest text: (2^32 − 1) blocks of 64 bytes (block 0 makes the Poly1305 key).
pub(super) const MAX_TEXT: u64 = ((1 << 32) - 1) * 64;

/// The kernel pair that one [`Features`] value selects.
///
/// The walk of [`cpu::backends`] removes, at each step, one kernel's key feature. Which one is
/// decided by `key`: the Poly1305 kernel's key, unless removing it would move the ChaCha20
/// kernel somewhere other than where removing ChaCha20's own key would (which would skip a
/// ChaCha20 kernel), then ChaCha20's key. That is why the pair remembers the features it was
/// selected from. The unit test `backends_cover_both_kernels` checks that every kernel of
/// both primitives is visited.
///
/// With AVX-512 and BMI2 the long texts of [`seal`] and [`open`] also run the stitched kernel
/// (`stitch`, see [`x86_64_avx512`]), which does ChaCha20 and half of the Poly1305 work in one
/// pass; the name then ends in `+stitched` (e.g. `"avx512+avx512-ifma+stitched"`), and the walk
/// steps down to the unstitched pair by removing `bmi2`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Backend {
    pub(super) chacha: chacha20::Backend,
    pub(super) poly: poly1305::Backend,
    /// The stitched AVX-512 kernel, for the ChaCha20 kernel `Avx512` when BMI2 is present.
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    stitch: Option<crate::cpu::arch::Avx512Bmi2>,
    features: Features,
}

/// `f` less the feature bits in `key` (a [`Dispatch::key`] value).
fn without_key(f: Features, key: u64) -> Features {
    let mut out = f;
    for (i, info) in cpu::table().iter().enumerate() {
        if key & (1 << i) != 0 {
            // A name from the table is always known.
            out = out.without(info.name).unwrap_or(out);
        }
    }
    out
}

impl Dispatch for Backend {
    fn select(f: Features) -> Self {
        let chacha = chacha20::Backend::select(f);
        Backend {
            chacha,
            poly: poly1305::Backend::select(f),
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            stitch: match chacha {
                chacha20::Backend::Avx512(_) => f.get::<crate::cpu::arch::Avx512Bmi2>(),
                _ => None,
            },
            features: f,
        }
    }

    fn name(self) -> &'static str {
        #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
        if self.stitch.is_some() {
            return stitched_name(self.poly.name());
        }
        pair_name(self.chacha.name(), self.poly.name())
    }

    fn key(self) -> u64 {
        // The stitched pair steps down to the same pair unstitched: remove BMI2 (the one
        // feature the stitched kernel adds to the AVX-512 ChaCha20 kernel's).
        #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
        if self.stitch.is_some() {
            use crate::cpu::Token;
            use crate::cpu::arch::{Avx512, Avx512Bmi2};
            return Avx512Bmi2::MASK & !Avx512::MASK;
        }
        pair_key(self.chacha, self.poly, self.features)
    }
}

/// The walk key of the pair (`chacha`, `poly`) selected from `features` (see [`Backend`]).
fn pair_key(chacha: chacha20::Backend, poly: poly1305::Backend, features: Features) -> u64 {
    let (ck, pk) = (chacha.key(), poly.key());
    if pk == 0 {
        return ck;
    }
    if ck == 0 {
        return pk;
    }
    let here = chacha.name();
    let after_poly = chacha20::Backend::select(without_key(features, pk)).name();
    let after_own = chacha20::Backend::select(without_key(features, ck)).name();
    if after_poly == here || after_poly == after_own {
        pk
    } else {
        ck
    }
}

/// The kernel pair without the stitched kernel, for OpenSSH's construction (`openssh.rs`),
/// which does not go through [`seal`] and [`open`]: its names and walk are those of
/// [`Backend`] with BMI2 playing no part, so `backend()` never claims a kernel it does not run.
#[derive(Clone, Copy, Debug)]
pub(super) struct Unstitched {
    pub(super) chacha: chacha20::Backend,
    pub(super) poly: poly1305::Backend,
    features: Features,
}

impl Dispatch for Unstitched {
    fn select(f: Features) -> Self {
        Unstitched {
            chacha: chacha20::Backend::select(f),
            poly: poly1305::Backend::select(f),
            features: f,
        }
    }

    fn name(self) -> &'static str {
        pair_name(self.chacha.name(), self.poly.name())
    }

    fn key(self) -> u64 {
        pair_key(self.chacha, self.poly, self.features)
    }
}

/// `pair_names!(chacha, poly, [chacha names], [poly names])`: the `&'static str`
/// `"<chacha>+<poly>"` for every pair of listed names (`concat!` needs literals), or
/// [`UNLISTED`].
macro_rules! pair_names {
    ($c:expr, $p:expr, [$($cn:literal),* $(,)?], $pl:tt) => {
        match $c {
            $( $cn => pair_names!(@poly $cn, $p, $pl), )*
            _ => UNLISTED,
        }
    };
    (@poly $cn:literal, $p:expr, [$($pn:literal),* $(,)?]) => {
        match $p {
            $( $pn => concat!($cn, "+", $pn), )*
            _ => UNLISTED,
        }
    };
}

/// The name of a pair missing from `pair_name`'s lists (a test checks none is reachable).
const UNLISTED: &str = "chacha20+poly1305";

/// `"<chacha20 backend>+<poly1305 backend>"`, for every kernel name of every architecture.
pub(super) fn pair_name(chacha: &str, poly: &str) -> &'static str {
    pair_names!(
        chacha,
        poly,
        [
            "avx512",
            "avx2",
            "ssse3",
            "sse2",
            "neon",
            "armv7-neon",
            "soft"
        ],
        [
            "avx512-ifma",
            "avx512",
            "avx2",
            "neon",
            "armv7-neon",
            "soft-64",
            "soft-32"
        ]
    )
}

/// The name of a stitched pair: the AVX-512 ChaCha20 kernel with the Poly1305 kernel `poly`
/// (for the MAC input the stitched kernel leaves to it).
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
fn stitched_name(poly: &str) -> &'static str {
    match poly {
        "avx512-ifma" => "avx512+avx512-ifma+stitched",
        "avx512" => "avx512+avx512+stitched",
        "avx2" => "avx512+avx2+stitched",
        _ => UNLISTED,
    }
}

/// [`seal`] on the stitched path ([`x86_64_avx512`]; a text of at least [`STITCH_TEXT`]
/// bytes): block 0 (the Poly1305 key, [`key_block_mac`]) in a call of its own, then the text
/// in place from block 1: a plain 16-block call for its first KiB, so that the stitched
/// kernel, which MACs ciphertext that earlier steps wrote (at least 512 bytes behind), has
/// some, then [`seal_steps`], then [`rest`].
///
/// Against a head of block 0 and fifteen text blocks in a stack buffer (one 16-block call,
/// then the text copied out), this makes the same kernel calls for a 16 KiB text (one of one
/// block, sixteen of sixteen) without zeroing, filling, copying out and wiping the 1 KiB
/// buffer.
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
fn seal_stitched(
    b: Backend,
    t: crate::cpu::arch::Avx512Bmi2,
    key: &[u8; 32],
    tail: [u32; 4],
    aad: &[u8],
    in_out: &mut [u8],
) -> [u8; 16] {
    use x86_64_avx512::DATA_STRIDE;
    let mut core = Core::with_backend(b.chacha, key, tail);
    let mut mac = key_block_mac(b.poly, &mut core);
    mac.update_padded(aad);
    core.xor_blocks(&mut in_out[..DATA_STRIDE]);
    let (mac_from, from) = seal_steps(t, &mut core, &mut mac, in_out, DATA_STRIDE);
    rest(true, &mut core, &mut mac, aad.len(), in_out, mac_from, from)
}

/// [`open`] on the stitched path: block 0 as in [`seal_stitched`], then [`open_steps`] from
/// the start of the text, then [`rest`]. The plaintext is written in place as it is
/// decrypted; a failed open zeroes all of it ([`release_if`]).
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
fn open_stitched(
    b: Backend,
    t: crate::cpu::arch::Avx512Bmi2,
    key: &[u8; 32],
    tail: [u32; 4],
    aad: &[u8],
    in_out: &mut [u8],
    tag: &[u8; 16],
) -> Result<(), Error> {
    let mut core = Core::with_backend(b.chacha, key, tail);
    let mut mac = key_block_mac(b.poly, &mut core);
    mac.update_padded(aad);
    let (mac_from, from) = open_steps(t, &mut core, &mut mac, in_out, 0);
    let mut want = rest(
        false,
        &mut core,
        &mut mac,
        aad.len(),
        in_out,
        mac_from,
        from,
    );
    release_if(&mut want, tag, in_out, |_| {})
}

/// The MAC keyed with the first 32 bytes of ChaCha20 block 0 (RFC 8439 §2.6), which a
/// one-block call of `core` (at block 0) makes in a local buffer, wiped after; `core` is left
/// at block 1.
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
#[inline(always)]
fn key_block_mac(poly: poly1305::Backend, core: &mut Core) -> Mac {
    let mut block0 = [0u8; 64];
    core.xor_blocks(&mut block0);
    let mac = Mac::with_backend(poly, block0[..32].try_into().expect("32 bytes"));
    wipe(&mut block0);
    mac
}

/// Sealing's stitched steps ([`x86_64_avx512`]), once `buf[..from]` is ciphertext (at least
/// 512 bytes) and `mac` has absorbed the AAD: encrypts and MACs from there in 1 KiB steps as
/// long as a whole step is left, and returns `(mac_from, from)`: `mac` has absorbed
/// `buf[..mac_from]`, `buf[..from]` is ciphertext.
///
/// The kernel MACs ciphertext that earlier steps wrote, so the MAC range must trail the text by
/// at least 512 bytes at each call. Each call covers at most a chunk ([`CHUNK`]); the vector
/// MAC then absorbs the other half of it, up to 512 bytes behind the text, so the MAC reads
/// bytes still in L1.
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
fn seal_steps(
    t: crate::cpu::arch::Avx512Bmi2,
    core: &mut Core,
    mac: &mut Mac,
    buf: &mut [u8],
    from: usize,
) -> (usize, usize) {
    use x86_64_avx512::{DATA_STRIDE, POLY_STRIDE, xor_and_mac};
    let len = buf.len();
    debug_assert!(from >= POLY_STRIDE);
    let (mut p, mut e) = (0, from);
    loop {
        let n = ((len - e) / DATA_STRIDE).min(CHUNK / DATA_STRIDE);
        if n == 0 {
            return (p, e);
        }
        // p + 512 (j + 1) ≤ e + 1024 j for every step j: the MAC reads ciphertext.
        xor_and_mac(t, core, mac, buf, e, p, n);
        (p, e) = (p + POLY_STRIDE * n, e + DATA_STRIDE * n);
        if len - e >= DATA_STRIDE {
            mac.blocks(&buf[p..e - POLY_STRIDE]);
            p = e - POLY_STRIDE;
        }
    }
}

/// Opening's stitched steps, once `buf[..from]` is plaintext, the rest ciphertext, and `mac`
/// has absorbed the AAD and `buf[..from]`'s ciphertext: for each chunk of whole KiB steps, the
/// vector MAC absorbs its first half (and whatever precedes it), then the kernel MACs the
/// second half while it decrypts the chunk (a step's MAC input always lies at or after the
/// bytes it decrypts, so it is still ciphertext). Returns `(mac_from, from)` as
/// [`seal_steps`] (here both equal).
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
fn open_steps(
    t: crate::cpu::arch::Avx512Bmi2,
    core: &mut Core,
    mac: &mut Mac,
    buf: &mut [u8],
    from: usize,
) -> (usize, usize) {
    use x86_64_avx512::{DATA_STRIDE, POLY_STRIDE, xor_and_mac};
    let len = buf.len();
    let (mut p, mut d) = (from, from);
    loop {
        let n = ((len - d) / DATA_STRIDE).min(CHUNK / DATA_STRIDE);
        if n == 0 {
            return (p, d);
        }
        let s = d + POLY_STRIDE * n;
        mac.blocks(&buf[p..s]);
        xor_and_mac(t, core, mac, buf, d, s, n);
        d += DATA_STRIDE * n;
        p = d;
    }
}

/// Shortest text for the stitched path: the plain first KiB and one stitched step.
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
const STITCH_TEXT: usize = 2048;

/// ChaCha20 block 0 and the first `N − 64` (at most [`HEAD`]) bytes of text, made in one
/// kernel call. Layout of `buf`: `[..64]` receives block 0's keystream (its first 32 bytes are
/// the Poly1305 key), then the head of the text, zero-padded to whole blocks. `N` is chosen
/// by the text's length ([`with_head`]): zeroing and wiping a buffer of 512 bytes for a
/// 16-byte message cost about 30 of its 130 ns here.
struct Head<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> Head<N> {
    /// Copies the first `min(len, N − 64)` bytes of `text`, XORs the keystream of blocks
    /// 0, 1, … into block 0 and the head, and leaves `core` at the block after them.
    ///
    /// `self` is the caller's zeroed head, filled in place: built in a local and returned by
    /// value, the head left a copy of the keystream and the Poly1305 key in this function's
    /// frame, which nothing wiped.
    fn fill(&mut self, core: &mut Core, text: &[u8]) {
        const { assert!(N % 64 == 0 && N > 64 && N <= 64 + HEAD) };
        let len = text.len().min(N - 64);
        self.buf[64..64 + len].copy_from_slice(&text[..len]);
        let blocks = 1 + len.div_ceil(64);
        core.xor_blocks(&mut self.buf[..64 * blocks]);
        self.len = len;
    }

    /// An all-zero head (no secrets yet), for [`Head::fill`].
    fn zeroed() -> Self {
        Head {
            buf: [0u8; N],
            len: 0,
        }
    }

    /// The one-time Poly1305 key `r ‖ s` (RFC 8439 §2.6).
    fn poly_key(&self) -> &[u8; 32] {
        self.buf[..32].try_into().expect("32 bytes")
    }

    /// The head of the text after the keystream was XORed in.
    fn text(&self) -> &[u8] {
        &self.buf[64..64 + self.len]
    }
}

impl<const N: usize> Drop for Head<N> {
    fn drop(&mut self) {
        wipe(&mut self.buf);
    }
}

/// `le64(len(AAD)) ‖ le64(len(text))`, the last Poly1305 block of RFC 8439 §2.8.
fn lengths(aad: usize, text: usize) -> [u8; 16] {
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&(aad as u64).to_le_bytes());
    b[8..].copy_from_slice(&(text as u64).to_le_bytes());
    b
}

/// Longest AAD of the one-call MAC path ([`mac_short`]): a TLS 1.2 record header is 13 bytes,
/// TLS 1.3's 5, IPsec ESP's 8 or 12.
const SHORT_AAD: usize = 64;

/// The whole MAC of RFC 8439 §2.8 with the portable kernel, for an AAD of at most
/// [`SHORT_AAD`] bytes and a ciphertext of at most [`SHORT_TEXT`] (at most 17 blocks). The vector
/// kernels start their loops only from dozens of blocks; building their keys (and their
/// larger state) for a few blocks costs more than the blocks: 16-byte seals went from 156 to
/// about 110 ns here with this path (and to about 100 once partial blocks were assembled in
/// registers, `soft64::pad_limbs`).
fn mac_short(poly_key: &[u8; 32], aad: &[u8], ct: &[u8]) -> [u8; 16] {
    debug_assert!(aad.len() <= SHORT_AAD && ct.len() <= SHORT_TEXT);
    let mut m = poly1305::Portable::new(poly_key);
    m.update_padded(aad);
    m.update_padded(ct);
    m.lengths(aad.len() as u64, ct.len() as u64);
    m.finish()
}

/// Longest text of the one-block path ([`seal_one`], [`open_one`]): block 0 and one block of
/// text, in one two-block kernel call.
const ONE_TEXT: usize = 64;

/// `dst.copy_from_slice(src)` for at most [`ONE_TEXT`] bytes, inline: two fixed-size copies
/// that overlap in the middle (the length is public; the copied bytes never steer anything).
/// A variable-length `copy_from_slice` calls the C library's `memcpy`, which took about 4% of
/// a 64-byte seal's samples in `perf` (two calls per seal).
#[inline(always)]
fn copy_short(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    debug_assert!(n == dst.len() && n <= ONE_TEXT);
    macro_rules! two {
        ($w:expr) => {{
            dst[..$w].copy_from_slice(&src[..$w]);
            dst[n - $w..].copy_from_slice(&src[n - $w..]);
        }};
    }
    if n >= 32 {
        two!(32)
    } else if n >= 16 {
        two!(16)
    } else if n >= 8 {
        two!(8)
    } else if n >= 4 {
        two!(4)
    } else if n > 0 {
        // Bytes 0, n/2 and n − 1 cover every length 1..=3.
        dst[0] = src[0];
        dst[n / 2] = src[n / 2];
        dst[n - 1] = src[n - 1];
    }
}

/// Copies `text` (at most [`ONE_TEXT`] bytes) to `buf[64..]` and XORs block 0 and (for a
/// non-empty text) block 1 of the keystream into `buf`: one kernel call of one or two blocks.
/// `buf[..32]` is then the Poly1305 key and `buf[64..64 + text.len()]` the text XORed.
#[inline(always)]
fn one_call(
    c: chacha20::Backend,
    key: &[u8; 32],
    tail: [u32; 4],
    buf: &mut [u8; 128],
    text: &[u8],
) {
    let len = text.len();
    copy_short(&mut buf[64..64 + len], text);
    let mut core = Core::with_backend(c, key, tail);
    let n = if len == 0 { 64 } else { 128 };
    core.xor_blocks(&mut buf[..n]);
}

/// [`seal`] for a text of at most [`ONE_TEXT`] bytes and an AAD of at most [`SHORT_AAD`]:
/// the text is copied next to block 0, both are XORed with the keystream in one call, and
/// the MAC is [`mac_short`]. The buffer (keystream, the Poly1305 key) is wiped.
#[inline(always)]
fn seal_one(
    c: chacha20::Backend,
    key: &[u8; 32],
    tail: [u32; 4],
    aad: &[u8],
    in_out: &mut [u8],
) -> [u8; 16] {
    let len = in_out.len();
    let mut buf = [0u8; 128];
    one_call(c, key, tail, &mut buf, in_out);
    copy_short(in_out, &buf[64..64 + len]);
    let tag = mac_short(buf[..32].try_into().expect("32 bytes"), aad, in_out);
    wipe(&mut buf);
    tag
}

/// [`open`] for the texts of [`seal_one`]: the tag is computed over the ciphertext still in
/// `in_out`, and the plaintext (in the buffer) is written out only if it matches.
#[inline(always)]
fn open_one(
    c: chacha20::Backend,
    key: &[u8; 32],
    tail: [u32; 4],
    aad: &[u8],
    in_out: &mut [u8],
    tag: &[u8; 16],
) -> Result<(), Error> {
    let len = in_out.len();
    let mut buf = [0u8; 128];
    one_call(c, key, tail, &mut buf, in_out);
    let mut want = mac_short(buf[..32].try_into().expect("32 bytes"), aad, in_out);
    let r = release_if(&mut want, tag, in_out, |out| {
        copy_short(out, &buf[64..64 + len])
    });
    wipe(&mut buf);
    r
}

/// The end of every open: compares `want` with `tag` in constant time and wipes `want` (in
/// place: the expected tag of a forged message is a valid tag); on a match `put` writes the
/// plaintext that is still held back into `in_out`, on a mismatch `in_out` is zeroed and
/// nothing is released.
#[inline(always)]
pub(super) fn release_if(
    want: &mut [u8; 16],
    tag: &[u8; 16],
    in_out: &mut [u8],
    put: impl FnOnce(&mut [u8]),
) -> Result<(), Error> {
    let ok = crate::ct::eq(want, tag);
    wipe(want);
    if ok {
        put(in_out);
        Ok(())
    } else {
        wipe_slice(in_out);
        Err(Error::AuthenticationFailed)
    }
}

/// Whether a text of `len` bytes is too long for the 32-bit block counter.
pub(super) fn too_long(len: usize) -> bool {
    len as u64 > MAX_TEXT
}

/// Calls `$f::<N>(args)` with the [`Head`] size `N` that fits a text of `$len` bytes: the
/// smallest buffer that holds all of a short text, else the largest.
macro_rules! with_head {
    ($len:expr, $f:ident($($arg:expr),*)) => {
        if $len <= 64 {
            $f::<128>($($arg),*)
        } else if $len <= SHORT_TEXT {
            $f::<{ 64 + SHORT_TEXT }>($($arg),*)
        } else {
            $f::<{ 64 + HEAD }>($($arg),*)
        }
    };
}

/// RFC 8439 §2.8 sealing with the ChaCha20 state `key`, `tail` (words 12–15: block counter 0
/// and the nonce). The caller has checked the length ([`too_long`]).
pub(super) fn seal(
    b: Backend,
    key: &[u8; 32],
    tail: [u32; 4],
    aad: &[u8],
    in_out: &mut [u8],
) -> [u8; 16] {
    if in_out.len() <= ONE_TEXT && aad.len() <= SHORT_AAD {
        return seal_one(b.chacha, key, tail, aad, in_out);
    }
    seal_long(b, key, tail, aad, in_out)
}

/// [`seal`] of a text longer than [`ONE_TEXT`] bytes or with a long AAD. Out of line: the
/// stitched and chunked paths need a frame of several KiB (and a stack probe), which the
/// short path should not pay for.
#[inline(never)]
fn seal_long(
    b: Backend,
    key: &[u8; 32],
    tail: [u32; 4],
    aad: &[u8],
    in_out: &mut [u8],
) -> [u8; 16] {
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    if let Some(t) = b.stitch.filter(|_| in_out.len() >= STITCH_TEXT) {
        return seal_stitched(b, t, key, tail, aad, in_out);
    }
    with_head!(in_out.len(), seal_with(b, key, tail, aad, in_out))
}

/// [`seal`] with a [`Head`] of `N` bytes.
fn seal_with<const N: usize>(
    b: Backend,
    key: &[u8; 32],
    tail: [u32; 4],
    aad: &[u8],
    in_out: &mut [u8],
) -> [u8; 16] {
    let text_len = in_out.len();
    let mut core = Core::with_backend(b.chacha, key, tail);
    let mut head = Head::<N>::zeroed();
    head.fill(&mut core, in_out);
    if text_len <= SHORT_TEXT && aad.len() <= SHORT_AAD {
        in_out.copy_from_slice(head.text());
        return mac_short(head.poly_key(), aad, in_out);
    }
    let mut mac = Mac::with_backend(b.poly, head.poly_key());
    mac.update_padded(aad);
    let head_len = head.len;
    in_out[..head_len].copy_from_slice(head.text());
    drop(head);
    // The head's ciphertext is MACed in the same call as the first chunk after it (they are
    // contiguous), so the vector kernels see one long call instead of a short one that would
    // build a second table. Every MAC call but the last covers a multiple of 16 bytes (the
    // head is 448 bytes when a chunk follows it; chunks are multiples of 64).
    rest(true, &mut core, &mut mac, aad.len(), in_out, 0, head_len)
}

/// The end of every long seal or open: `mac` has absorbed the AAD and `in_out[..mac_from]`
/// (`mac_from ≤ from`, a multiple of 16), `in_out[..from]` is done. Goes through the rest chunk
/// by chunk while it is in L1: sealing encrypts a chunk, then MACs it (with what trails it);
/// opening MACs it, then decrypts it. Then the lengths block; returns the tag.
fn rest(
    sealing: bool,
    core: &mut Core,
    mac: &mut Mac,
    aad_len: usize,
    in_out: &mut [u8],
    mut mac_from: usize,
    mut from: usize,
) -> [u8; 16] {
    let text_len = in_out.len();
    loop {
        let to = (from + CHUNK).min(text_len);
        if sealing {
            core.xor(&mut in_out[from..to]);
        }
        mac.update_padded(&in_out[mac_from..to]);
        if !sealing {
            core.xor(&mut in_out[from..to]);
        }
        if to == text_len {
            break;
        }
        (mac_from, from) = (to, to);
    }
    mac.blocks(&lengths(aad_len, text_len));
    mac.finish()
}

/// RFC 8439 §2.8 opening: MACs and decrypts chunk by chunk, then compares the tag in constant
/// time; on a mismatch `in_out` is zeroed. The head's plaintext is written out only after the
/// tag matched. The caller has checked the length.
pub(super) fn open(
    b: Backend,
    key: &[u8; 32],
    tail: [u32; 4],
    aad: &[u8],
    in_out: &mut [u8],
    tag: &[u8; 16],
) -> Result<(), Error> {
    if in_out.len() <= ONE_TEXT && aad.len() <= SHORT_AAD {
        return open_one(b.chacha, key, tail, aad, in_out, tag);
    }
    open_long(b, key, tail, aad, in_out, tag)
}

/// [`open`] of a text longer than [`ONE_TEXT`] bytes or with a long AAD (out of line, as
/// [`seal_long`]).
#[inline(never)]
fn open_long(
    b: Backend,
    key: &[u8; 32],
    tail: [u32; 4],
    aad: &[u8],
    in_out: &mut [u8],
    tag: &[u8; 16],
) -> Result<(), Error> {
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    if let Some(t) = b.stitch.filter(|_| in_out.len() >= STITCH_TEXT) {
        return open_stitched(b, t, key, tail, aad, in_out, tag);
    }
    with_head!(in_out.len(), open_with(b, key, tail, aad, in_out, tag))
}

/// [`open`] with a [`Head`] of `N` bytes.
fn open_with<const N: usize>(
    b: Backend,
    key: &[u8; 32],
    tail: [u32; 4],
    aad: &[u8],
    in_out: &mut [u8],
    tag: &[u8; 16],
) -> Result<(), Error> {
    let text_len = in_out.len();
    let mut core = Core::with_backend(b.chacha, key, tail);
    let mut head = Head::<N>::zeroed();
    head.fill(&mut core, in_out);
    let head_len = head.len;
    let mut want = if text_len <= SHORT_TEXT && aad.len() <= SHORT_AAD {
        mac_short(head.poly_key(), aad, in_out)
    } else {
        let mut mac = Mac::with_backend(b.poly, head.poly_key());
        mac.update_padded(aad);
        // As in `seal`: the head's ciphertext (still in `in_out`) goes with the first chunk.
        rest(false, &mut core, &mut mac, aad.len(), in_out, 0, head_len)
    };
    release_if(&mut want, tag, in_out, |out| {
        out[..head_len].copy_from_slice(head.text())
    })
}

/// Words 12–15 of the RFC 8439 state: block counter 0 and the 96-bit nonce as three
/// little-endian words.
fn ietf_tail(nonce: &[u8; 12]) -> [u32; 4] {
    let w = |i: usize| u32::from_le_bytes([nonce[i], nonce[i + 1], nonce[i + 2], nonce[i + 3]]);
    [0, w(0), w(4), w(8)]
}

/// ChaCha20-Poly1305 (RFC 8439 §2.8): a 32-byte key, 12-byte nonces, 16-byte tags. The key
/// is wiped on drop, and so is every per-message state (ChaCha20 state, Poly1305 key and
/// accumulator).
///
/// A nonce must never repeat under one key: a repeat reveals the XOR of the two plaintexts
/// and the Poly1305 key, which lets an attacker forge messages. With random nonces prefer
/// [`XChaCha20Poly1305`](super::XChaCha20Poly1305).
///
/// ```
/// use simdcrypt::aead::ChaCha20Poly1305;
///
/// // RFC 8439 §2.8.2
/// let key: [u8; 32] = core::array::from_fn(|i| 0x80 + i as u8);
/// let nonce = [0x07, 0, 0, 0, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47];
/// let aad = [0x50, 0x51, 0x52, 0x53, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7];
/// let plaintext = b"Ladies and Gentlemen of the class of '99: If I could offer you only one \
///                   tip for the future, sunscreen would be it.";
///
/// let aead = ChaCha20Poly1305::new(&key);
/// let mut buf = *plaintext;
/// let tag = aead.seal_in_place_detached(&nonce, &aad, &mut buf)?;
/// assert_eq!(buf[..8], [0xd3, 0x1a, 0x8d, 0x34, 0x64, 0x8e, 0x60, 0xdb]);
/// assert_eq!(tag, [0x1a, 0xe1, 0x0b, 0x59, 0x4f, 0x09, 0xe2, 0x6a,
///                  0x7e, 0x90, 0x2e, 0xcb, 0xd0, 0x60, 0x06, 0x91]);
///
/// aead.open_in_place_detached(&nonce, &aad, &mut buf, &tag)?;
/// assert_eq!(&buf, plaintext);
///
/// // A wrong tag: an error, and the buffer is zeroed.
/// let mut bad = tag;
/// bad[0] ^= 1;
/// assert!(aead.open_in_place_detached(&nonce, &aad, &mut buf, &bad).is_err());
/// assert!(buf.iter().all(|&b| b == 0));
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct ChaCha20Poly1305 {
    key: [u8; 32],
    backend: Backend,
}

impl ChaCha20Poly1305 {
    /// A key for the fastest ChaCha20 and Poly1305 kernels this CPU has (less
    /// `SIMDCRYPT_DISABLE`).
    #[inline]
    pub fn new(key: &[u8; 32]) -> Self {
        Self::new_with(Features::detect(), key)
    }

    /// A key for the kernels that `features` selects (tests, benchmarks and comparisons pass
    /// a reduced [`Features`]).
    pub fn new_with(features: Features, key: &[u8; 32]) -> Self {
        ChaCha20Poly1305 {
            key: *key,
            backend: Backend::select(features),
        }
    }

    /// Encrypts `in_out` in place under `nonce`, authenticating it and `aad`; returns the
    /// 16-byte tag. `Err(MessageTooLong)` for a text longer than (2^32 − 1)·64 bytes, with
    /// `in_out` unchanged.
    pub fn seal_in_place_detached(
        &self,
        nonce: &[u8; 12],
        aad: &[u8],
        in_out: &mut [u8],
    ) -> Result<[u8; 16], Error> {
        if too_long(in_out.len()) {
            return Err(Error::MessageTooLong);
        }
        Ok(seal(self.backend, &self.key, ietf_tail(nonce), aad, in_out))
    }

    /// Checks `tag` over `aad` and the ciphertext `in_out` in constant time and, if it
    /// matches, leaves the plaintext in `in_out`. On any error (`AuthenticationFailed`,
    /// `MessageTooLong`) `in_out` is all zero.
    pub fn open_in_place_detached(
        &self,
        nonce: &[u8; 12],
        aad: &[u8],
        in_out: &mut [u8],
        tag: &[u8; 16],
    ) -> Result<(), Error> {
        if too_long(in_out.len()) {
            wipe_slice(in_out);
            return Err(Error::MessageTooLong);
        }
        open(self.backend, &self.key, ietf_tail(nonce), aad, in_out, tag)
    }

    /// Encrypts `plaintext` and returns ciphertext ‖ 16-byte tag.
    #[cfg(feature = "alloc")]
    pub fn seal(&self, nonce: &[u8; 12], aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
        if too_long(plaintext.len()) {
            return Err(Error::MessageTooLong);
        }
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

    /// The ChaCha20 and Poly1305 kernels of this key, as `"<chacha20>+<poly1305>"` (e.g.
    /// `"avx2+avx2"`, `"soft+soft-64"`).
    pub fn backend(&self) -> &'static str {
        self.backend.name()
    }

    /// The kernels a key made with `features` would use.
    pub fn backend_for(features: Features) -> &'static str {
        Backend::select(features).name()
    }

    /// Every (ChaCha20, Poly1305) kernel pair reachable from `features`, best first, each
    /// with a feature set that selects it (for [`Self::new_with`]). Every ChaCha20 kernel and
    /// every Poly1305 kernel the CPU supports appears in at least one pair.
    pub fn backends(features: Features) -> impl Iterator<Item = (&'static str, Features)> {
        cpu::backends::<Backend>(features)
    }
}

impl Drop for ChaCha20Poly1305 {
    fn drop(&mut self) {
        wipe(&mut self.key);
    }
}

impl core::fmt::Debug for ChaCha20Poly1305 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Never the key.
        f.debug_struct("ChaCha20Poly1305")
            .field("backend", &self.backend())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::chacha20::ChaCha20;
    use crate::poly1305::Poly1305;
    use std::vec;
    use std::vec::Vec;

    /// RFC 8439 §2.8 from the public ChaCha20 and Poly1305 types, byte by byte.
    fn reference(f: Features, key: &[u8; 32], nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Vec<u8> {
        let mut otk = [0u8; 32];
        ChaCha20::new_with(f, key, nonce, 0)
            .apply_keystream(&mut otk)
            .unwrap();
        let mut ct = pt.to_vec();
        ChaCha20::new_with(f, key, nonce, 1)
            .apply_keystream(&mut ct)
            .unwrap();
        let mut mac = Poly1305::new_with(f, &otk);
        let pad = |n: usize| vec![0u8; (16 - n % 16) % 16];
        mac.update(aad);
        mac.update(&pad(aad.len()));
        mac.update(&ct);
        mac.update(&pad(ct.len()));
        mac.update(&lengths(aad.len(), ct.len()));
        ct.extend_from_slice(&mac.finalize());
        ct
    }

    fn all() -> Vec<(&'static str, Features)> {
        ChaCha20Poly1305::backends(Features::detect()).collect()
    }

    /// Every length around the head and the chunks, on every pair, against the reference.
    #[test]
    fn matches_reference_across_head_and_chunks() {
        let key: [u8; 32] = core::array::from_fn(|i| (i * 7 + 3) as u8);
        let nonce: [u8; 12] = core::array::from_fn(|i| (i * 13 + 1) as u8);
        let lens: Vec<usize> = (0..=260)
            .chain([
                CHUNK + HEAD - 1,
                CHUNK + HEAD,
                CHUNK + HEAD + 1,
                3 * CHUNK + 77,
            ])
            .collect();
        for (name, f) in all() {
            let aead = ChaCha20Poly1305::new_with(f, &key);
            assert_eq!(aead.backend(), name);
            for &len in &lens {
                let pt: Vec<u8> = (0..len).map(|i| (i * 31 + len) as u8).collect();
                let aad = &pt[..len % 37];
                let want = reference(Features::none(), &key, &nonce, aad, &pt);
                let mut buf = pt.clone();
                let tag = aead.seal_in_place_detached(&nonce, aad, &mut buf).unwrap();
                assert_eq!(buf, want[..len], "{name} len {len}");
                assert_eq!(tag, want[len..], "{name} len {len}");
                aead.open_in_place_detached(&nonce, aad, &mut buf, &tag)
                    .unwrap();
                assert_eq!(buf, pt, "{name} len {len}");
                let mut bad = tag;
                bad[len % 16] ^= 0x10;
                let mut ct = want[..len].to_vec();
                assert_eq!(
                    aead.open_in_place_detached(&nonce, aad, &mut ct, &bad),
                    Err(Error::AuthenticationFailed)
                );
                assert!(ct.iter().all(|&b| b == 0), "{name} len {len}");
            }
        }
    }

    /// The short paths ([`seal_one`], [`open_one`], [`mac_short`]) and the paths just past
    /// them: every text length 0..=200 with every AAD length 0..=70, on every pair, seal and
    /// open against the reference; a flipped tag bit and a flipped ciphertext bit each fail
    /// and leave the buffer zeroed.
    #[test]
    fn short_texts_every_length() {
        let key: [u8; 32] = core::array::from_fn(|i| (i * 11 + 5) as u8);
        let aad_all: Vec<u8> = (0..70u32).map(|i| (i * 89 + 7) as u8).collect();
        for (name, f) in all() {
            let aead = ChaCha20Poly1305::new_with(f, &key);
            for len in 0..=200usize {
                let pt: Vec<u8> = (0..len).map(|i| (i * 57 + len * 3) as u8).collect();
                for alen in 0..=70usize {
                    let aad = &aad_all[..alen];
                    let nonce: [u8; 12] = core::array::from_fn(|i| (i + len + 3 * alen) as u8);
                    let want = reference(Features::none(), &key, &nonce, aad, &pt);
                    let mut buf = pt.clone();
                    let tag = aead.seal_in_place_detached(&nonce, aad, &mut buf).unwrap();
                    assert!(buf == want[..len], "{name} seal len {len} aad {alen}");
                    assert_eq!(tag, want[len..], "{name} tag len {len} aad {alen}");
                    aead.open_in_place_detached(&nonce, aad, &mut buf, &tag)
                        .unwrap();
                    assert!(buf == pt, "{name} open len {len} aad {alen}");
                    let mut bad = tag;
                    bad[(len + alen) % 16] ^= 1 << (alen % 8);
                    let mut ct = want[..len].to_vec();
                    assert_eq!(
                        aead.open_in_place_detached(&nonce, aad, &mut ct, &bad),
                        Err(Error::AuthenticationFailed)
                    );
                    assert!(ct.iter().all(|&b| b == 0), "{name} len {len} aad {alen}");
                    if len > 0 {
                        let mut ct = want[..len].to_vec();
                        ct[(len * 7 + alen) % len] ^= 0x40;
                        assert_eq!(
                            aead.open_in_place_detached(&nonce, aad, &mut ct, &tag),
                            Err(Error::AuthenticationFailed)
                        );
                        assert!(ct.iter().all(|&b| b == 0), "{name} len {len} aad {alen}");
                    }
                }
            }
        }
    }

    /// The walk over `backends` reaches every ChaCha20 kernel and every Poly1305 kernel, and
    /// every pair has a listed name; also with features masked in ways the plain walk from
    /// `detect()` does not start from.
    #[test]
    fn backends_cover_both_kernels() {
        let d = Features::detect();
        let mut starts = vec![d, Features::none()];
        for m in [
            "avx512ifma",
            "avx512f",
            "avx2",
            "ssse3",
            "avx512ifma,avx2",
            "avx512vl",
            "neon",
        ] {
            starts.push(d.without(m).unwrap());
        }
        for f in starts {
            let pairs: Vec<(&str, Features)> = ChaCha20Poly1305::backends(f).collect();
            for (name, g) in &pairs {
                assert_ne!(*name, UNLISTED);
                assert_eq!(ChaCha20Poly1305::backend_for(*g), *name);
                assert_eq!(ChaCha20Poly1305::new_with(*g, &[0; 32]).backend(), *name);
            }
            for (c, _) in ChaCha20::backends(f) {
                assert!(
                    pairs.iter().any(|(p, _)| p.split('+').next() == Some(c)),
                    "ChaCha20 kernel {c} not visited from {f:?}: {pairs:?}"
                );
            }
            for (p, _) in Poly1305::backends(f) {
                assert!(
                    pairs.iter().any(|(q, _)| q.split('+').nth(1) == Some(p)),
                    "Poly1305 kernel {p} not visited from {f:?}: {pairs:?}"
                );
            }
        }
    }

    /// The stitched path (`x86_64_avx512`) against the same pair unstitched (BMI2 removed),
    /// seal and open in place, at every length across the stitched thresholds (the plain
    /// first KiB, each 1 KiB step, the chunk bounds) with AADs of varying length,
    /// and a flipped tag bit on each stitched length.
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    #[test]
    fn stitched_matches_unstitched() {
        let d = Features::detect();
        let Some(fs) = all().into_iter().find(|(n, _)| n.ends_with("+stitched")) else {
            std::eprintln!("no stitched pair on this CPU: not tested");
            return;
        };
        let f = fs.1;
        let plain = f.without("bmi2").unwrap();
        assert!(!ChaCha20Poly1305::backend_for(plain).ends_with("+stitched"));
        assert!(ChaCha20Poly1305::backend_for(d.without("avx512f").unwrap()) != fs.0);
        let key: [u8; 32] = core::array::from_fn(|i| (i * 29 + 11) as u8);
        let nonce: [u8; 12] = core::array::from_fn(|i| (i * 3 + 200) as u8);
        let (a, b) = (
            ChaCha20Poly1305::new_with(f, &key),
            ChaCha20Poly1305::new_with(plain, &key),
        );
        let mut lens: Vec<usize> = (0..=4096).step_by(13).collect();
        for edge in [
            1023,
            1024,
            1025,
            2047,
            2048,
            2049,
            STITCH_TEXT,
            1024 + CHUNK,
            1024 + 2 * CHUNK,
            CHUNK + 2048,
            16384,
            2 * CHUNK,
            100_000,
        ] {
            lens.extend(edge.saturating_sub(3)..=edge + 3);
        }
        for k in 1..=6 {
            lens.extend((1024 * k - 20)..=(1024 * k + 20));
        }
        let aad_all: Vec<u8> = (0..300u32).map(|i| (i * 7) as u8).collect();
        for (i, &len) in lens.iter().enumerate() {
            let pt: Vec<u8> = (0..len).map(|j| (j * 131 + len) as u8).collect();
            let aad = &aad_all[..(i * 37 + len) % 300];
            let mut x = pt.clone();
            let mut y = pt.clone();
            let ta = a.seal_in_place_detached(&nonce, aad, &mut x).unwrap();
            let tb = b.seal_in_place_detached(&nonce, aad, &mut y).unwrap();
            assert!(x == y, "ciphertext, len {len}");
            assert_eq!(ta, tb, "tag, len {len}");
            a.open_in_place_detached(&nonce, aad, &mut x, &tb).unwrap();
            assert!(x == pt, "open, len {len}");
            if len >= STITCH_TEXT {
                let mut bad = ta;
                bad[i % 16] ^= 1 << (i % 8);
                assert_eq!(
                    a.open_in_place_detached(&nonce, aad, &mut y, &bad),
                    Err(Error::AuthenticationFailed)
                );
                assert!(y.iter().all(|&v| v == 0), "len {len}");
                // A flipped ciphertext bit in the stitched part fails too.
                let mut z = pt.clone();
                let t = a.seal_in_place_detached(&nonce, aad, &mut z).unwrap();
                z[len - 1 - (i * 97) % len] ^= 0x80;
                assert!(a.open_in_place_detached(&nonce, aad, &mut z, &t).is_err());
            }
        }
    }

    /// OpenSSH's construction does not run the stitched kernel: its pairs never say so, and
    /// its walk is ChaCha20Poly1305's without the stitched pairs.
    #[test]
    fn openssh_pairs_are_unstitched() {
        use crate::aead::OpenSshChaCha20Poly1305;
        let d = Features::detect();
        for f in [
            d,
            d.without("avx512ifma").unwrap(),
            d.without("bmi2").unwrap(),
        ] {
            let ssh: Vec<&str> = OpenSshChaCha20Poly1305::backends(f).map(|p| p.0).collect();
            let aead: Vec<&str> = ChaCha20Poly1305::backends(f)
                .map(|p| p.0)
                .filter(|n| !n.ends_with("+stitched"))
                .collect();
            assert_eq!(ssh, aead);
            assert!(!OpenSshChaCha20Poly1305::backend_for(f).contains("stitched"));
        }
    }

    /// (2^32 − 1)·64 bytes is the longest text (RFC 8439 §2.8); on 32-bit targets no slice
    /// reaches it.
    #[test]
    fn length_limit() {
        assert!(!too_long(0));
        assert!(!too_long((u32::MAX >> 1) as usize));
        if let Ok(max) = usize::try_from(MAX_TEXT) {
            assert!(!too_long(max));
            assert!(too_long(max + 1));
        }
        assert_eq!(MAX_TEXT, 274_877_906_880);
    }
}
