//! Poly1305 (RFC 8439 §2.5): the one-time authenticator of ChaCha20-Poly1305.
//!
//! ```
//! use simdcrypt::poly1305::Poly1305;
//!
//! // RFC 8439 §2.5.2
//! let key = [
//!     0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52, 0xfe, 0x42, 0xd5, 0x06, 0xa8,
//!     0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd, 0x4a, 0xbf, 0xf6, 0xaf, 0x41, 0x49, 0xf5, 0x1b,
//! ];
//! let mut mac = Poly1305::new(&key);
//! mac.update(b"Cryptographic Forum ");
//! mac.update(b"Research Group");
//! let tag = [
//!     0xa8, 0x06, 0x1d, 0xc1, 0x30, 0x51, 0x36, 0xc6, 0xc2, 0x2b, 0x8b, 0xaf, 0x0c, 0x01, 0x27, 0xa9,
//! ];
//! assert!(mac.verify(&tag).is_ok());
//! ```
//!
//! A key (r, s) must authenticate one message only. Each value picks its kernel once (the
//! `Backend` enum, chosen in `select`). Between calls the accumulator is kept in one
//! canonical form, `State`; each kernel converts it to its own limbs on entry and back on
//! exit, and holds `r` and its powers in its own format, wiped on drop.

use crate::Error;
use crate::cpu::{self, Dispatch, Features};
use crate::wipe::wipe;

#[cfg(target_arch = "aarch64")]
mod aarch64_neon;
#[cfg(all(target_arch = "arm", simdcrypt_asm))]
mod arm;
mod soft32;
mod soft64;
#[cfg(target_arch = "x86_64")]
mod x86_64_avx2;
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
mod x86_64_avx512;
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
mod x86_64_avx512f;

/// The accumulator between kernel calls: `h = h[0] + h[1]·2^64 + h[2]·2^128` with
/// `h[2] ≤ 7`, congruent to the true accumulator modulo 2^130 − 5.
#[derive(Clone, Copy, Default)]
pub(crate) struct State {
    pub(crate) h: [u64; 3],
}

/// What every Poly1305 kernel provides, on `r` expanded in that kernel's format.
pub(crate) trait Kernel {
    /// For each 16-byte block `m` of `data` (`data.len() % 16 == 0`):
    /// `h ← (h + m + 2^128)·r mod p`, leaving `st` in the canonical form.
    fn blocks(&mut self, st: &mut State, data: &[u8]);

    /// Whether the calls so far may have left powers of `r` or accumulator values in spill
    /// slots below the caller's frame (compiled vector code, or Rust that builds tables),
    /// which [`Mac::blocks`] then overwrites. The portable kernels, register-only scalar
    /// code, say no.
    fn may_spill(&self) -> bool {
        true
    }
}

/// The Poly1305 kernels, best first. `select` is the one place that chooses.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Backend {
    /// AVX-512 IFMA: sixteen Horner lanes in radix 2^44 (assembly), AVX2 for the rest.
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    Avx512Ifma(crate::cpu::arch::Avx512Ifma, crate::cpu::arch::Avx2),
    /// AVX-512F: sixteen Horner lanes in radix 2^26 (assembly), AVX2 for the rest.
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    Avx512(crate::cpu::arch::Avx512, crate::cpu::arch::Avx2),
    /// AVX2: four Horner lanes in radix 2^26, up to four groups of four blocks per carry.
    #[cfg(target_arch = "x86_64")]
    Avx2(crate::cpu::arch::Avx2),
    /// aarch64 Advanced SIMD: radix 2^26, two Horner lanes, four blocks per step.
    #[cfg(target_arch = "aarch64")]
    Neon(crate::cpu::arch::Neon),
    /// The portable kernel ahead of NEON, on a core where it models faster
    /// (`cpu::PREFER_SCALAR_POLY1305`, `cpu/aarch64_cores.rs`): runs as `Soft`; its walk key
    /// is the tuning bit, whose removal leads to `Neon`.
    #[cfg(target_arch = "aarch64")]
    SoftBeforeNeon,
    /// NEON on 32-bit ARM (asm/arm/poly1305_neon.S): two blocks per step, radix 2^26.
    #[cfg(all(target_arch = "arm", simdcrypt_asm))]
    ArmNeon(crate::cpu::arch::ArmNeon),
    /// Portable: base 2^64 with 128-bit products on 64-bit targets, radix 2^26 on 32-bit ones.
    Soft,
}

impl Dispatch for Backend {
    fn select(f: Features) -> Self {
        #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
        if let (Some(t), Some(t2)) = (
            f.get::<crate::cpu::arch::Avx512Ifma>(),
            f.get::<crate::cpu::arch::Avx2>(),
        ) {
            return Backend::Avx512Ifma(t, t2);
        }
        #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
        if let (Some(t), Some(t2)) = (
            f.get::<crate::cpu::arch::Avx512>(),
            f.get::<crate::cpu::arch::Avx2>(),
        ) {
            return Backend::Avx512(t, t2);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = f.get::<crate::cpu::arch::Avx2>() {
            return Backend::Avx2(t);
        }
        #[cfg(target_arch = "aarch64")]
        if let Some(t) = f.get::<crate::cpu::arch::Neon>() {
            if f.prefers(crate::cpu::PREFER_SCALAR_POLY1305) {
                return Backend::SoftBeforeNeon;
            }
            return Backend::Neon(t);
        }
        #[cfg(all(target_arch = "arm", simdcrypt_asm))]
        if let Some(t) = f.get::<crate::cpu::arch::ArmNeon>() {
            return Backend::ArmNeon(t);
        }
        let _ = f;
        Backend::Soft
    }

    fn name(self) -> &'static str {
        match self {
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::Avx512Ifma(..) => "avx512-ifma",
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::Avx512(..) => "avx512",
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) => "avx2",
            #[cfg(target_arch = "aarch64")]
            Backend::Neon(_) => "neon",
            #[cfg(target_arch = "aarch64")]
            Backend::SoftBeforeNeon => "soft-64",
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmNeon(_) => "armv7-neon",
            Backend::Soft => {
                if cfg!(target_pointer_width = "64") {
                    "soft-64"
                } else {
                    "soft-32"
                }
            }
        }
    }

    fn key(self) -> u64 {
        match self {
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::Avx512Ifma(..) => <crate::cpu::arch::Avx512Ifma as crate::cpu::Token>::KEY,
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::Avx512(..) => <crate::cpu::arch::Avx512 as crate::cpu::Token>::KEY,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) => <crate::cpu::arch::Avx2 as crate::cpu::Token>::KEY,
            #[cfg(target_arch = "aarch64")]
            Backend::Neon(_) => <crate::cpu::arch::Neon as crate::cpu::Token>::KEY,
            #[cfg(target_arch = "aarch64")]
            Backend::SoftBeforeNeon => crate::cpu::PREFER_SCALAR_POLY1305,
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmNeon(_) => <crate::cpu::arch::ArmNeon as crate::cpu::Token>::KEY,
            Backend::Soft => 0,
        }
    }
}

/// `r` expanded for the chosen kernel.
// The x86_64 vector keys hold room for their power tables inline (1.1–3.6 KiB, filled at the
// first long call; no allocation in the `no_std` core). Measured: the larger value costs 3–6
// cycles per 16- or 64-byte message over the portable kernel's.
#[cfg_attr(target_arch = "x86_64", allow(clippy::large_enum_variant))]
#[derive(Clone)]
enum Inner {
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    Avx512Ifma(x86_64_avx512::IfmaKey),
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    Avx512(x86_64_avx512f::Avx512Key),
    #[cfg(target_arch = "x86_64")]
    Avx2(x86_64_avx2::Avx2Key),
    #[cfg(target_arch = "aarch64")]
    Neon(aarch64_neon::NeonKey),
    #[cfg(all(target_arch = "arm", simdcrypt_asm))]
    ArmNeon(arm::ArmNeonKey),
    Soft64(soft64::Soft64),
    Soft32(soft32::Soft32),
}

/// `on_kernel!(mac, k => expr)`: `expr` with `k` bound to the kernel (static dispatch).
macro_rules! on_kernel {
    ($self:expr, $k:ident => $body:expr) => {
        match &mut $self.inner {
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Inner::Avx512Ifma($k) => $body,
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Inner::Avx512($k) => $body,
            #[cfg(target_arch = "x86_64")]
            Inner::Avx2($k) => $body,
            #[cfg(target_arch = "aarch64")]
            Inner::Neon($k) => $body,
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Inner::ArmNeon($k) => $body,
            Inner::Soft64($k) => $body,
            Inner::Soft32($k) => $body,
        }
    };
}

/// Clamps `r` (RFC 8439 §2.5) from the first half of a one-time key.
fn clamp(key: &[u8; 32]) -> [u64; 2] {
    let r = soft64::limbs(&key[..16]);
    [r[0] & 0x0fff_fffc_0fff_ffff, r[1] & 0x0fff_fffc_0fff_fffc]
}

/// The portable kernel of this target's word size.
#[cfg(target_pointer_width = "64")]
type SoftKey = soft64::Soft64;
#[cfg(not(target_pointer_width = "64"))]
type SoftKey = soft32::Soft32;

#[cfg(target_pointer_width = "64")]
fn soft_key(r: &[u64; 2]) -> SoftKey {
    soft64::new(r)
}
#[cfg(not(target_pointer_width = "64"))]
fn soft_key(r: &[u64; 2]) -> SoftKey {
    soft32::new(r)
}

/// The MAC with the portable kernel held directly (no kernel choice, no `Mac`): for MAC
/// inputs of a few blocks (a short AEAD message), where a vector kernel's key set-up and its
/// larger state cost more than the blocks themselves.
#[derive(Clone)]
pub(crate) struct Portable {
    k: SoftKey,
    st: State,
    s: [u8; 16],
}

impl Portable {
    pub(crate) fn new(key: &[u8; 32]) -> Portable {
        let mut r = clamp(key);
        let k = soft_key(&r);
        wipe(&mut r);
        let mut s = [0u8; 16];
        s.copy_from_slice(&key[16..]);
        Portable {
            k,
            st: State::default(),
            s,
        }
    }

    /// As [`Mac::update_padded`].
    pub(crate) fn update_padded(&mut self, data: &[u8]) {
        let whole = data.len() & !15;
        self.k.blocks(&mut self.st, &data[..whole]);
        if whole < data.len() {
            #[cfg(target_pointer_width = "64")]
            {
                let mut m = soft64::pad_limbs(&data[whole..]);
                self.k.block_limbs(&mut self.st, m);
                wipe(&mut m);
            }
            #[cfg(not(target_pointer_width = "64"))]
            {
                let mut b = [0u8; 16];
                b[..data.len() - whole].copy_from_slice(&data[whole..]);
                self.k.blocks(&mut self.st, &b);
                wipe(&mut b);
            }
        }
    }

    /// The last block of the AEAD of RFC 8439 §2.8: `le64(aad_len) ‖ le64(text_len)`.
    pub(crate) fn lengths(&mut self, aad_len: u64, text_len: u64) {
        #[cfg(target_pointer_width = "64")]
        self.k.block_limbs(&mut self.st, [aad_len, text_len]);
        #[cfg(not(target_pointer_width = "64"))]
        {
            let mut b = [0u8; 16];
            b[..8].copy_from_slice(&aad_len.to_le_bytes());
            b[8..].copy_from_slice(&text_len.to_le_bytes());
            self.k.blocks(&mut self.st, &b);
        }
    }

    /// The tag (the state stays until drop wipes it).
    pub(crate) fn finish(&self) -> [u8; 16] {
        soft64::finish(&self.st.h, &self.s)
    }
}

impl Drop for Portable {
    fn drop(&mut self) {
        wipe(&mut self.st.h);
        wipe(&mut self.s);
    }
}

/// Shortest `Mac::blocks` call after which the stack is scrubbed: no vector kernel runs its
/// vector code for fewer than 28 blocks (the AVX2 kernel's threshold for a fresh key).
const VECTOR_MIN_BYTES: usize = 28 * 16;

/// Bytes of stack scrubbed after a vector kernel's call: the deepest chain of frames measured
/// on the release build (rustc 1.95, x86_64) was the earlier AVX-512F key's `blocks` (0xfc0
/// bytes) and the table code it called (0x408), about 5.1 KiB; the AVX2 chain is about 1.8 KiB,
/// the AVX-512F key's now about 1.3 KiB (0x408 and `powers26`'s 0x128). Kept with room.
const SCRUB_VECTOR: usize = 6144;

/// The MAC over whole blocks with the chosen kernel: what the AEADs use.
#[derive(Clone)]
pub(crate) struct Mac {
    inner: Inner,
    backend: Backend,
    st: State,
    r: [u64; 2],
    s: [u8; 16],
}

impl Mac {
    pub(crate) fn new(f: Features, key: &[u8; 32]) -> Mac {
        Self::with_backend(Backend::select(f), key)
    }

    pub(crate) fn with_backend(backend: Backend, key: &[u8; 32]) -> Mac {
        let r = clamp(key);
        let inner = match backend {
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::Avx512Ifma(t, t2) => Inner::Avx512Ifma(x86_64_avx512::new_ifma(t, t2, &r)),
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::Avx512(t, t2) => Inner::Avx512(x86_64_avx512f::new_avx512(t, t2, &r)),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(t) => Inner::Avx2(x86_64_avx2::new(t, &r)),
            #[cfg(target_arch = "aarch64")]
            Backend::Neon(t) => Inner::Neon(aarch64_neon::new(t, &r)),
            #[cfg(target_arch = "aarch64")]
            Backend::SoftBeforeNeon => Inner::Soft64(soft64::new(&r)),
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmNeon(t) => Inner::ArmNeon(arm::new(t, &r)),
            Backend::Soft => {
                if cfg!(target_pointer_width = "32") {
                    Inner::Soft32(soft32::new(&r))
                } else {
                    Inner::Soft64(soft64::new(&r))
                }
            }
        };
        let mut s = [0u8; 16];
        s.copy_from_slice(&key[16..]);
        Mac {
            inner,
            backend,
            st: State::default(),
            r,
            s,
        }
    }

    /// Whole 16-byte blocks, each with the 2^128 bit.
    #[inline]
    pub(crate) fn blocks(&mut self, data: &[u8]) {
        debug_assert!(data.len() % 16 == 0);
        let st = &mut self.st;
        on_kernel!(self, k => k.blocks(st, data));
        // The vector kernels (intrinsics, and the Rust around the assembly ones that builds
        // the power tables) leave powers of `r` and accumulator values in spill slots and
        // returned copies below this frame; overwrite them. Only calls long enough to have
        // run vector code (the least of the kernels' thresholds is 28 blocks) pay for it.
        // Each kernel says whether it may have (`Kernel::may_spill`): the IFMA key's own code
        // is assembly without a stack frame, so a long AEAD message skips about 6 KiB of
        // stores per call.
        if data.len() >= VECTOR_MIN_BYTES && on_kernel!(self, k => k.may_spill()) {
            crate::wipe::scrub_stack::<SCRUB_VECTOR>();
        }
    }

    /// The accumulator (canonical form) and the clamped `r`, for the stitched AEAD kernels
    /// (`crate::aead`), which absorb blocks into `h` themselves and leave it canonical.
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    pub(crate) fn state_and_r(&mut self) -> (&mut State, &[u64; 2]) {
        (&mut self.st, &self.r)
    }

    /// `data` zero-padded to a multiple of 16 bytes, every block with the 2^128 bit (the
    /// `pad16` of RFC 8439 §2.8).
    pub(crate) fn update_padded(&mut self, data: &[u8]) {
        let whole = data.len() & !15;
        self.blocks(&data[..whole]);
        if whole < data.len() {
            let mut b = [0u8; 16];
            b[..data.len() - whole].copy_from_slice(&data[whole..]);
            self.blocks(&b);
            wipe(&mut b);
        }
    }

    /// A final partial block (1..=15 bytes): padded with a 1 byte, without the 2^128 bit.
    pub(crate) fn last(&mut self, data: &[u8]) {
        let mut b = [0u8; 16];
        b[..data.len()].copy_from_slice(data);
        b[data.len()] = 1;
        let s1 = self.r[1] + (self.r[1] >> 2);
        soft64::block(&mut self.st.h, &self.r, s1, soft64::limbs(&b), 0);
        wipe(&mut b);
    }

    /// The tag (the state stays until drop wipes it).
    pub(crate) fn finish(&self) -> [u8; 16] {
        soft64::finish(&self.st.h, &self.s)
    }
}

impl Drop for Mac {
    fn drop(&mut self) {
        wipe(&mut self.st.h);
        wipe(&mut self.r);
        wipe(&mut self.s);
    }
}

/// Poly1305 with a 32-byte one-time key (r ‖ s), streaming.
#[derive(Clone)]
pub struct Poly1305 {
    mac: Mac,
    buf: [u8; 16],
    len: usize,
}

impl Poly1305 {
    /// A MAC under the one-time key `key` (never reuse it for a second message).
    pub fn new(key: &[u8; 32]) -> Self {
        Self::new_with(cpu::features(), key)
    }

    /// Like [`Poly1305::new`], with the kernel that `features` selects.
    pub fn new_with(features: Features, key: &[u8; 32]) -> Self {
        Poly1305 {
            mac: Mac::new(features, key),
            buf: [0; 16],
            len: 0,
        }
    }

    /// Absorbs `data`.
    pub fn update(&mut self, mut data: &[u8]) {
        if self.len > 0 {
            let take = (16 - self.len).min(data.len());
            self.buf[self.len..self.len + take].copy_from_slice(&data[..take]);
            self.len += take;
            data = &data[take..];
            if self.len < 16 {
                return;
            }
            let b = self.buf;
            self.mac.blocks(&b);
            self.len = 0;
        }
        let whole = data.len() & !15;
        self.mac.blocks(&data[..whole]);
        let rest = &data[whole..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.len = rest.len();
    }

    /// The 16-byte tag.
    pub fn finalize(mut self) -> [u8; 16] {
        if self.len > 0 {
            let b = self.buf;
            self.mac.last(&b[..self.len]);
        }
        self.mac.finish()
    }

    /// Compares the tag with `tag` in constant time.
    pub fn verify(self, tag: &[u8; 16]) -> Result<(), Error> {
        let mut t = self.finalize();
        let ok = crate::ct::eq(&t, tag);
        wipe(&mut t);
        if ok {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }

    /// The kernel this value uses (e.g. `"avx2"`, `"neon"`, `"soft-64"`).
    pub fn backend(&self) -> &'static str {
        self.mac.backend.name()
    }

    /// The kernel a value made with `features` would use.
    pub fn backend_for(features: Features) -> &'static str {
        Backend::select(features).name()
    }

    /// Every kernel reachable from `features`, best first, each with a feature set that
    /// selects it.
    pub fn backends(features: Features) -> impl Iterator<Item = (&'static str, Features)> {
        cpu::backends::<Backend>(features)
    }
}

impl Drop for Poly1305 {
    fn drop(&mut self) {
        wipe(&mut self.buf);
    }
}

impl core::fmt::Debug for Poly1305 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Poly1305")
            .field("backend", &self.backend())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec::Vec;

    fn all() -> Vec<(&'static str, Features)> {
        Poly1305::backends(Features::detect()).collect()
    }

    fn tag(f: Features, key: &[u8; 32], msg: &[u8], split: usize) -> [u8; 16] {
        let mut m = Poly1305::new_with(f, key);
        for p in msg.chunks(split.max(1)) {
            m.update(p);
        }
        if msg.is_empty() {
            m.update(&[]);
        }
        m.finalize()
    }

    /// RFC 8439 §2.5.2 and the edge cases of Appendix A.3 (#1, #5–#11) on every kernel.
    #[test]
    fn rfc8439() {
        use hex_literal::hex;
        let cases: &[([u8; 32], &[u8], [u8; 16])] = &[
            (
                hex!("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b"),
                b"Cryptographic Forum Research Group",
                hex!("a8061dc1305136c6c22b8baf0c0127a9"),
            ),
            ([0; 32], &[0; 64], [0; 16]),
            (
                hex!("0200000000000000000000000000000000000000000000000000000000000000"),
                &hex!("ffffffffffffffffffffffffffffffff"),
                hex!("03000000000000000000000000000000"),
            ),
            (
                hex!("02000000000000000000000000000000ffffffffffffffffffffffffffffffff"),
                &hex!("02000000000000000000000000000000"),
                hex!("03000000000000000000000000000000"),
            ),
            (
                hex!("0100000000000000000000000000000000000000000000000000000000000000"),
                &hex!(
                    "ffffffffffffffffffffffffffffffff f0ffffffffffffffffffffffffffffff
                     11000000000000000000000000000000"
                ),
                hex!("05000000000000000000000000000000"),
            ),
            (
                hex!("0100000000000000000000000000000000000000000000000000000000000000"),
                &hex!(
                    "ffffffffffffffffffffffffffffffff fbfefefefefefefefefefefefefefefe
                     01010101010101010101010101010101"
                ),
                hex!("00000000000000000000000000000000"),
            ),
            (
                hex!("0200000000000000000000000000000000000000000000000000000000000000"),
                &hex!("fdffffffffffffffffffffffffffffff"),
                hex!("faffffffffffffffffffffffffffffff"),
            ),
            (
                hex!("0100000000000000040000000000000000000000000000000000000000000000"),
                &hex!(
                    "e33594d7505e43b90000000000000000 3394d7505e4379cd0100000000000000
                     00000000000000000000000000000000 01000000000000000000000000000000"
                ),
                hex!("14000000000000005500000000000000"),
            ),
            (
                hex!("0100000000000000040000000000000000000000000000000000000000000000"),
                &hex!(
                    "e33594d7505e43b90000000000000000 3394d7505e4379cd0100000000000000
                     00000000000000000000000000000000"
                ),
                hex!("13000000000000000000000000000000"),
            ),
        ];
        for (name, f) in all() {
            for (i, (key, msg, want)) in cases.iter().enumerate() {
                for split in [1usize, 5, 16, 17, 1000] {
                    assert_eq!(
                        tag(f, key, msg, split),
                        *want,
                        "{name} case {i} split {split}"
                    );
                }
            }
        }
    }

    /// The per-core order (`cpu/aarch64_cores.rs`) with the tuning bit of a core that puts
    /// the portable kernel first (ThunderX, ThunderX2; qemu has neither, so the bit is set
    /// here by the test-only `with_tuning`): the portable kernel is chosen, NEON stays
    /// reachable through the walk, each name once; masking NEON or the tuning bit gives
    /// today's choices; the ChaCha20-Poly1305 pairs follow; every kernel gives the tags of the
    /// portable one on a long message.
    #[cfg(target_arch = "aarch64")]
    #[test]
    fn core_order_scalar_first() {
        use crate::aead::ChaCha20Poly1305;
        use crate::cpu::PREFER_SCALAR_POLY1305;
        let d = Features::detect();
        if !d.has("neon") {
            std::eprintln!("no NEON here: the per-core order has nothing to reorder");
            return;
        }
        let tuned = d.with_tuning(PREFER_SCALAR_POLY1305);
        let plain = d.without_all(Features::none().with_tuning(PREFER_SCALAR_POLY1305));
        assert!(!plain.prefers(PREFER_SCALAR_POLY1305));
        assert_eq!(Poly1305::backend_for(tuned), "soft-64");
        assert_eq!(Poly1305::backend_for(plain), "neon");
        assert_eq!(
            Poly1305::backend_for(tuned.without("neon").unwrap()),
            "soft-64"
        );
        let walk: Vec<(&str, Features)> = Poly1305::backends(tuned).collect();
        let names: Vec<&str> = walk.iter().map(|b| b.0).collect();
        assert_eq!(names, ["soft-64", "neon"]);
        for (name, f) in &walk {
            assert_eq!(Poly1305::backend_for(*f), *name);
            assert_eq!(Poly1305::new_with(*f, &[1; 32]).backend(), *name);
        }
        let pairs: Vec<&str> = ChaCha20Poly1305::backends(tuned).map(|p| p.0).collect();
        assert_eq!(pairs, ["neon+soft-64", "neon+neon", "soft+soft-64"]);
        let key: [u8; 32] = core::array::from_fn(|i| (i * 37 + 5) as u8);
        let msg: Vec<u8> = (0..4099u32).map(|i| (i * 13 + 7) as u8).collect();
        let want = tag(Features::none(), &key, &msg, 4099);
        for (name, f) in walk {
            for split in [1usize, 64, 1000, 4099] {
                assert_eq!(tag(f, &key, &msg, split), want, "{name} split {split}");
            }
        }
    }

    /// On this machine (or emulator): the core is read without a panic and the Poly1305
    /// kernel is the first of the core table's order that the features allow.
    #[cfg(target_arch = "aarch64")]
    #[test]
    fn dispatch_follows_the_identified_core() {
        use crate::cpu::aarch64_cores::{Primitive, order, scalar_first};
        let info = crate::cpu::core();
        std::println!(
            "core: {:?}, MIDR_EL1 {}, {}; order changes: {:?}",
            info.name,
            info.midr
                .map_or("none".into(), |m| std::format!("{m:#010x}")),
            info.source,
            info.changes
        );
        let core = crate::cpu::arch::identify().core();
        assert_eq!(info.name, core.map(|c| c.name()));
        let hw = Features::hardware();
        let want = if hw.has("neon") {
            order(core, Primitive::Poly1305)[0]
        } else {
            "soft-64"
        };
        assert_eq!(Poly1305::backend_for(hw), want);
        assert_eq!(
            hw.prefers(crate::cpu::PREFER_SCALAR_POLY1305),
            scalar_first(core, Primitive::Poly1305)
        );
    }

    /// A flipped tag bit fails `verify`.
    #[test]
    fn verify_rejects() {
        let key = [9u8; 32];
        let good = tag(Features::none(), &key, b"hello", 3);
        for bit in 0..128 {
            let mut bad = good;
            bad[bit / 8] ^= 1 << (bit % 8);
            let mut m = Poly1305::new(&key);
            m.update(b"hello");
            assert_eq!(m.verify(&bad), Err(Error::AuthenticationFailed));
        }
        let mut m = Poly1305::new(&key);
        m.update(b"hello");
        assert!(m.verify(&good).is_ok());
    }
}
