//! ChaCha20 (RFC 8439 §2.4): the stream cipher, with the IETF layout (32-bit block counter,
//! 96-bit nonce) and the original one (64-bit counter, 64-bit nonce, as in
//! chacha20-poly1305@openssh.com), and HChaCha20 (draft-irtf-cfrg-xchacha §2.2) for
//! XChaCha20.
//!
//! ```
//! use simdcrypt::chacha20::ChaCha20;
//!
//! // RFC 8439 §2.4.2
//! let key: [u8; 32] = core::array::from_fn(|i| i as u8);
//! let nonce = [0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 0];
//! let mut c = ChaCha20::new(&key, &nonce, 1);
//! let mut text = *b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip";
//! c.apply_keystream(&mut text[..10])?; // any split: the stream continues
//! c.apply_keystream(&mut text[10..])?;
//! assert_eq!(text[..8], [0x6e, 0x2e, 0x35, 0x9a, 0x25, 0x68, 0xf9, 0x80]);
//! # Ok::<(), simdcrypt::Error>(())
//! ```
//!
//! Each value picks its kernel once (the `Backend` enum, chosen in `select`); every call
//! goes straight to it. The kernels work on whole 64-byte blocks and hold nothing secret
//! between calls: the state (key, counter, nonce) lives in `Core`, which wipes it on drop.

use crate::Error;
use crate::cpu::{self, Dispatch, Features};
use crate::wipe::wipe;

#[cfg(target_arch = "aarch64")]
mod aarch64_neon;
#[cfg(all(target_arch = "arm", simdcrypt_asm))]
mod arm;
mod soft;
#[cfg(target_arch = "x86_64")]
mod x86_64_avx2;
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
mod x86_64_avx512;
#[cfg(target_arch = "x86_64")]
mod x86_64_sse2;

/// The ChaCha20 kernels, best first. `select` is the one place that chooses.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Backend {
    /// aarch64 Advanced SIMD: four blocks in the vertical layout, the last 1–3 in the
    /// horizontal one.
    #[cfg(target_arch = "aarch64")]
    Neon(crate::cpu::arch::Neon),
    /// NEON on 32-bit ARM (asm/arm/chacha_neon.S): four blocks in the vertical layout, the
    /// last 1–3 in the horizontal one.
    #[cfg(all(target_arch = "arm", simdcrypt_asm))]
    ArmNeon(crate::cpu::arch::ArmNeon),
    /// AVX-512: sixteen blocks in zmm registers, `vprold` rotations; ymm passes for short
    /// messages (asm/x86_64/chacha_avx512.S).
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    Avx512(crate::cpu::arch::Avx512),
    /// AVX2: eight blocks in ymm registers, then two-block rows.
    #[cfg(target_arch = "x86_64")]
    Avx2(crate::cpu::arch::Avx2),
    /// SSSE3: four blocks in xmm registers, `pshufb` rotations by 16 and 8.
    #[cfg(target_arch = "x86_64")]
    Ssse3(crate::cpu::arch::Ssse3),
    /// SSE2 (every x86_64): four blocks in xmm registers, shift rotations.
    #[cfg(target_arch = "x86_64")]
    Sse2(crate::cpu::arch::Sse2),
    /// Portable: four blocks in `[u32; 4]` lanes, then one at a time.
    Soft,
}

impl Dispatch for Backend {
    fn select(f: Features) -> Self {
        #[cfg(target_arch = "aarch64")]
        if let Some(t) = f.get::<crate::cpu::arch::Neon>() {
            return Backend::Neon(t);
        }
        #[cfg(all(target_arch = "arm", simdcrypt_asm))]
        if let Some(t) = f.get::<crate::cpu::arch::ArmNeon>() {
            return Backend::ArmNeon(t);
        }
        #[cfg(target_arch = "x86_64")]
        {
            #[cfg(simdcrypt_asm)]
            if let Some(t) = f.get::<crate::cpu::arch::Avx512>() {
                return Backend::Avx512(t);
            }
            if let Some(t) = f.get::<crate::cpu::arch::Avx2>() {
                return Backend::Avx2(t);
            }
            if let Some(t) = f.get::<crate::cpu::arch::Ssse3>() {
                return Backend::Ssse3(t);
            }
            if let Some(t) = f.get::<crate::cpu::arch::Sse2>() {
                return Backend::Sse2(t);
            }
        }
        let _ = f;
        Backend::Soft
    }

    fn name(self) -> &'static str {
        match self {
            #[cfg(target_arch = "aarch64")]
            Backend::Neon(_) => "neon",
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmNeon(_) => "armv7-neon",
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::Avx512(_) => "avx512",
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) => "avx2",
            #[cfg(target_arch = "x86_64")]
            Backend::Ssse3(_) => "ssse3",
            #[cfg(target_arch = "x86_64")]
            Backend::Sse2(_) => "sse2",
            Backend::Soft => "soft",
        }
    }

    fn key(self) -> u64 {
        match self {
            #[cfg(target_arch = "aarch64")]
            Backend::Neon(_) => <crate::cpu::arch::Neon as crate::cpu::Token>::KEY,
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmNeon(_) => <crate::cpu::arch::ArmNeon as crate::cpu::Token>::KEY,
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::Avx512(_) => <crate::cpu::arch::Avx512 as crate::cpu::Token>::KEY,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) => <crate::cpu::arch::Avx2 as crate::cpu::Token>::KEY,
            #[cfg(target_arch = "x86_64")]
            Backend::Ssse3(_) => <crate::cpu::arch::Ssse3 as crate::cpu::Token>::KEY,
            #[cfg(target_arch = "x86_64")]
            Backend::Sse2(_) => <crate::cpu::arch::Sse2 as crate::cpu::Token>::KEY,
            Backend::Soft => 0,
        }
    }
}

impl Backend {
    /// XORs the keystream of the blocks numbered `state[12]`, `state[12] + 1`, … into `data`
    /// (`data.len() % 64 == 0`, in place) and advances `state[12]` by the number of blocks,
    /// wrapping at 2^32: word 13 is never touched (callers split at wrap points).
    #[inline]
    fn xor_blocks(self, state: &mut [u32; 16], data: &mut [u8]) {
        debug_assert!(data.len() % 64 == 0);
        match self {
            #[cfg(target_arch = "aarch64")]
            Backend::Neon(t) => aarch64_neon::xor_blocks(t, state, data),
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmNeon(t) => arm::xor_blocks(t, state, data),
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::Avx512(t) => x86_64_avx512::xor_blocks(t, state, data),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(t) => x86_64_avx2::xor_blocks(t, state, data),
            #[cfg(target_arch = "x86_64")]
            Backend::Ssse3(t) => x86_64_sse2::xor_blocks_ssse3(t, state, data),
            #[cfg(target_arch = "x86_64")]
            Backend::Sse2(t) => x86_64_sse2::xor_blocks_sse2(t, state, data),
            Backend::Soft => soft::xor_blocks(state, data),
        }
    }
}

/// The ChaCha20 state with its kernel: what the AEADs build on. Whole blocks only, no
/// buffered keystream; `xor` spends a whole block on a final partial one.
#[derive(Clone)]
pub(crate) struct Core {
    state: [u32; 16],
    backend: Backend,
}

impl Core {
    /// The state of RFC 8439 §2.3 from a key and words 12–15 (counter and nonce, already
    /// little-endian words).
    pub(crate) fn new(f: Features, key: &[u8; 32], tail: [u32; 4]) -> Core {
        Self::with_backend(Backend::select(f), key, tail)
    }

    /// The state from a key and words 12–15 for the kernel `backend`.
    ///
    /// The state is written word by word into the returned value itself: built in a local
    /// array (or with slice copies) and then moved into the `Core`, it left an unwiped copy of
    /// SIGMA and the key words in the caller's frame wherever this was inlined (seen in the
    /// disassembly of `seal`).
    #[inline(always)]
    pub(crate) fn with_backend(backend: Backend, key: &[u8; 32], tail: [u32; 4]) -> Core {
        let mut c = Core {
            state: [0u32; 16],
            backend,
        };
        for (i, (&s, &t)) in soft::SIGMA.iter().zip(tail.iter()).enumerate() {
            c.state[i] = s;
            c.state[12 + i] = t;
        }
        for i in 0..8 {
            c.state[4 + i] =
                u32::from_le_bytes([key[4 * i], key[4 * i + 1], key[4 * i + 2], key[4 * i + 3]]);
        }
        c
    }

    /// Word 12, the (low) block counter.
    pub(crate) fn counter(&self) -> u32 {
        self.state[12]
    }

    /// The 16 state words, for the stitched AEAD kernels (`crate::aead`), which run their own
    /// ChaCha20 over them and advance word 12 as `xor_blocks` does.
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    pub(crate) fn state_mut(&mut self) -> &mut [u32; 16] {
        &mut self.state
    }

    /// See [`Backend::xor_blocks`].
    #[inline]
    pub(crate) fn xor_blocks(&mut self, data: &mut [u8]) {
        self.backend.xor_blocks(&mut self.state, data);
    }

    /// XORs the keystream into `data` of any length: whole blocks, then one block for the
    /// tail (its unused keystream is discarded). Word 12 wraps as in `xor_blocks`.
    pub(crate) fn xor(&mut self, data: &mut [u8]) {
        let whole = data.len() & !63;
        let (body, tail) = data.split_at_mut(whole);
        self.xor_blocks(body);
        if !tail.is_empty() {
            let mut ks = self.keystream_block();
            for (d, k) in tail.iter_mut().zip(ks.iter()) {
                *d ^= k;
            }
            wipe(&mut ks);
        }
    }

    /// The next keystream block.
    pub(crate) fn keystream_block(&mut self) -> [u8; 64] {
        let mut ks = [0u8; 64];
        self.xor_blocks(&mut ks);
        ks
    }
}

impl Drop for Core {
    fn drop(&mut self) {
        wipe(&mut self.state);
    }
}

/// HChaCha20 (draft-irtf-cfrg-xchacha-03 §2.2): the 20 rounds over key and a 16-byte nonce,
/// without the final addition; words 0–3 and 12–15 of the result are the subkey.
pub fn hchacha20(key: &[u8; 32], nonce: &[u8; 16]) -> [u8; 32] {
    let mut x = [0u32; 16];
    x[..4].copy_from_slice(&soft::SIGMA);
    for (w, k) in x[4..12].iter_mut().zip(key.chunks_exact(4)) {
        *w = u32::from_le_bytes([k[0], k[1], k[2], k[3]]);
    }
    for (w, n) in x[12..].iter_mut().zip(nonce.chunks_exact(4)) {
        *w = u32::from_le_bytes([n[0], n[1], n[2], n[3]]);
    }
    soft::rounds(&mut x);
    let mut out = [0u8; 32];
    for (o, w) in out.chunks_exact_mut(4).zip(x[..4].iter().chain(&x[12..])) {
        o.copy_from_slice(&w.to_le_bytes());
    }
    wipe(&mut x);
    out
}

/// The ChaCha20 stream cipher, streaming across calls of any length.
///
/// [`ChaCha20::new`] is RFC 8439's layout: a 32-bit block counter and a 96-bit nonce, so at
/// most 2^32 blocks (256 GiB) per nonce — counting from the initial counter — after which
/// `apply_keystream` returns [`Error::CounterExhausted`] and writes nothing.
/// [`ChaCha20::new_legacy`] is Bernstein's original layout: a 64-bit counter (words 12–13)
/// and a 64-bit nonce, with 2^64 blocks per nonce.
#[derive(Clone)]
pub struct ChaCha20 {
    core: Core,
    buf: [u8; 64],
    /// Bytes of `buf` already used (64 = empty).
    pos: usize,
    /// Whole keystream blocks still available after `buf` (at most 2^64).
    blocks_left: u128,
    legacy: bool,
}

impl ChaCha20 {
    /// RFC 8439 ChaCha20: 256-bit key, 96-bit nonce, initial 32-bit block counter.
    pub fn new(key: &[u8; 32], nonce: &[u8; 12], counter: u32) -> Self {
        Self::new_with(cpu::features(), key, nonce, counter)
    }

    /// Like [`ChaCha20::new`], with the kernel that `features` selects.
    pub fn new_with(features: Features, key: &[u8; 32], nonce: &[u8; 12], counter: u32) -> Self {
        let w = |i: usize| u32::from_le_bytes([nonce[i], nonce[i + 1], nonce[i + 2], nonce[i + 3]]);
        ChaCha20 {
            core: Core::new(features, key, [counter, w(0), w(4), w(8)]),
            buf: [0; 64],
            pos: 64,
            blocks_left: (1u128 << 32) - u128::from(counter),
            legacy: false,
        }
    }

    /// The original ChaCha20: 256-bit key, 64-bit nonce, initial 64-bit block counter
    /// (little-endian in words 12–13).
    pub fn new_legacy(key: &[u8; 32], nonce: &[u8; 8], counter: u64) -> Self {
        Self::new_legacy_with(cpu::features(), key, nonce, counter)
    }

    /// Like [`ChaCha20::new_legacy`], with the kernel that `features` selects.
    pub fn new_legacy_with(
        features: Features,
        key: &[u8; 32],
        nonce: &[u8; 8],
        counter: u64,
    ) -> Self {
        let w = |i: usize| u32::from_le_bytes([nonce[i], nonce[i + 1], nonce[i + 2], nonce[i + 3]]);
        ChaCha20 {
            core: Core::new(
                features,
                key,
                [counter as u32, (counter >> 32) as u32, w(0), w(4)],
            ),
            buf: [0; 64],
            pos: 64,
            blocks_left: (1u128 << 64) - u128::from(counter),
            legacy: true,
        }
    }

    /// XORs the next `data.len()` bytes of keystream into `data`. `Err(CounterExhausted)`,
    /// with nothing written, if the counter cannot number that many more blocks.
    pub fn apply_keystream(&mut self, data: &mut [u8]) -> Result<(), Error> {
        let buffered = 64 - self.pos;
        if data.len() > buffered {
            let need = (data.len() - buffered).div_ceil(64) as u128;
            if need > self.blocks_left {
                return Err(Error::CounterExhausted);
            }
        }
        let take = buffered.min(data.len());
        let (head, rest) = data.split_at_mut(take);
        for (d, k) in head.iter_mut().zip(&self.buf[self.pos..]) {
            *d ^= k;
        }
        self.pos += take;
        if rest.is_empty() {
            return Ok(());
        }
        let whole = rest.len() & !63;
        let (body, tail) = rest.split_at_mut(whole);
        self.blocks(body);
        if !tail.is_empty() {
            self.buf = [0; 64];
            let mut b = self.buf;
            self.blocks(&mut b);
            self.buf = b;
            wipe(&mut b);
            for (d, k) in tail.iter_mut().zip(&self.buf) {
                *d ^= k;
            }
            self.pos = tail.len();
        }
        Ok(())
    }

    /// Whether the next `len` bytes of keystream exist, i.e. whether
    /// [`Self::apply_keystream`] on `len` bytes would succeed rather than return
    /// `Err(CounterExhausted)`.
    ///
    /// ```
    /// use simdcrypt::chacha20::ChaCha20;
    ///
    /// let mut c = ChaCha20::new(&[0; 32], &[0; 12], u32::MAX); // one block left
    /// assert!(c.has_keystream(64) && !c.has_keystream(65));
    /// c.apply_keystream(&mut [0; 10])?;
    /// assert!(c.has_keystream(54) && !c.has_keystream(55));
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn has_keystream(&self, len: usize) -> bool {
        let buffered = 64 - self.pos;
        (len.saturating_sub(buffered) as u128).div_ceil(64) <= self.blocks_left
    }

    /// One past the last block number: 2^32 (RFC 8439's 32-bit counter) or 2^64 (legacy).
    fn end(&self) -> u128 {
        if self.legacy { 1 << 64 } else { 1 << 32 }
    }

    /// Where the keystream stands: `(block, byte)`, the next byte of keystream is byte `byte`
    /// (0..64) of the block numbered `block` by the block counter — absolute, as the `counter`
    /// argument of [`Self::new`] numbers blocks, so a stream made with counter 1 starts at
    /// `(1, 0)`. Positions are public.
    ///
    /// ```
    /// use simdcrypt::chacha20::ChaCha20;
    ///
    /// let mut c = ChaCha20::new(&[0; 32], &[0; 12], 1);
    /// c.apply_keystream(&mut [0; 100])?;
    /// assert_eq!(c.position(), (2, 36));
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn position(&self) -> (u128, u8) {
        let next = self.end() - self.blocks_left;
        if self.pos == 64 {
            (next, 0)
        } else {
            (next - 1, self.pos as u8)
        }
    }

    /// Moves the keystream to byte `byte` of block `block` (see [`Self::position`]), forward
    /// or back, before the starting counter too. The last position is `(2^32, 0)` (`(2^64, 0)`
    /// for [`Self::new_legacy`]), where nothing is left; a position past it is
    /// `Err(CounterExhausted)` and `byte >= 64` is `Err(InvalidLength)`, both leaving the
    /// stream where it was.
    ///
    /// ```
    /// use simdcrypt::chacha20::ChaCha20;
    ///
    /// let mut whole = [0u8; 300];
    /// ChaCha20::new(&[1; 32], &[2; 12], 0).apply_keystream(&mut whole)?;
    ///
    /// let mut c = ChaCha20::new(&[1; 32], &[2; 12], 0);
    /// c.set_position(2, 10)?; // byte 138
    /// let mut part = [0u8; 162];
    /// c.apply_keystream(&mut part)?;
    /// assert_eq!(part, whole[138..]);
    /// assert!(c.set_position(1 << 32, 1).is_err());
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn set_position(&mut self, block: u128, byte: u8) -> Result<(), Error> {
        if byte >= 64 {
            return Err(Error::InvalidLength);
        }
        let end = self.end();
        if block > end || (block == end && byte != 0) {
            return Err(Error::CounterExhausted);
        }
        // Block `end` wraps to 0: harmless, since no block is left to generate there.
        self.core.state[12] = block as u32;
        if self.legacy {
            self.core.state[13] = (block >> 32) as u32;
        }
        self.blocks_left = end - block;
        wipe(&mut self.buf);
        self.pos = 64;
        if byte != 0 {
            // The block the position is in, buffered; its first `byte` bytes are skipped.
            let mut b = [0u8; 64];
            self.blocks(&mut b);
            self.buf = b;
            wipe(&mut b);
            self.pos = usize::from(byte);
        }
        Ok(())
    }

    /// Whole blocks, carrying word 12 into word 13 in the legacy layout. The counter is
    /// public, so splitting the call where word 12 wraps is not a secret-dependent branch.
    fn blocks(&mut self, mut data: &mut [u8]) {
        self.blocks_left -= (data.len() / 64) as u128;
        while !data.is_empty() {
            let room = (1u64 << 32) - u64::from(self.core.counter());
            let n = ((data.len() / 64) as u64).min(room) as usize * 64;
            let (now, later) = data.split_at_mut(n);
            self.core.xor_blocks(now);
            if self.legacy && self.core.counter() == 0 {
                self.core.state[13] = self.core.state[13].wrapping_add(1);
            }
            data = later;
        }
    }

    /// The kernel this value uses (e.g. `"avx2"`, `"neon"`, `"soft"`).
    pub fn backend(&self) -> &'static str {
        self.core.backend.name()
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

impl Drop for ChaCha20 {
    fn drop(&mut self) {
        wipe(&mut self.buf);
    }
}

impl core::fmt::Debug for ChaCha20 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ChaCha20")
            .field("backend", &self.backend())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec;
    use std::vec::Vec;

    fn all() -> Vec<(&'static str, Features)> {
        ChaCha20::backends(Features::detect()).collect()
    }

    /// RFC 8439 §2.4.2 on every kernel, in pieces of every size.
    #[test]
    fn rfc8439_encryption() {
        let key: [u8; 32] = core::array::from_fn(|i| i as u8);
        let nonce = [0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 0];
        let pt = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
        let want = hex_literal::hex!(
            "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b
             f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8
             07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736
             5af90bbf74a35be6b40b8eedf2785e42874d"
        );
        for (name, f) in all() {
            for split in [1usize, 7, 63, 64, 65, 100] {
                let mut c = ChaCha20::new_with(f, &key, &nonce, 1);
                assert_eq!(c.backend(), name);
                let mut t = pt.to_vec();
                for piece in t.chunks_mut(split) {
                    c.apply_keystream(piece).unwrap();
                }
                assert_eq!(t, want, "{name} split {split}");
            }
        }
    }

    /// draft-irtf-cfrg-xchacha-03 §2.2.1.
    #[test]
    fn hchacha20_draft() {
        let key: [u8; 32] = core::array::from_fn(|i| i as u8);
        let nonce = hex_literal::hex!("000000090000004a0000000031415927");
        assert_eq!(
            hchacha20(&key, &nonce),
            hex_literal::hex!("82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc")
        );
    }

    /// The IETF counter runs out after block 2^32 − 1; nothing is written past it.
    #[test]
    fn ietf_counter_exhaustion() {
        for (name, f) in all() {
            let mut c = ChaCha20::new_with(f, &[7; 32], &[1; 12], u32::MAX - 1);
            let mut d = vec![0u8; 129];
            assert_eq!(
                c.apply_keystream(&mut d),
                Err(Error::CounterExhausted),
                "{name}"
            );
            assert!(d.iter().all(|&b| b == 0));
            c.apply_keystream(&mut d[..100]).unwrap();
            c.apply_keystream(&mut d[100..128]).unwrap();
            assert_eq!(
                c.apply_keystream(&mut d[128..]),
                Err(Error::CounterExhausted)
            );
            c.apply_keystream(&mut []).unwrap();
            // Blocks 2^32 − 2 and 2^32 − 1, as a fresh value one block later sees them.
            let mut e = vec![0u8; 64];
            ChaCha20::new_with(f, &[7; 32], &[1; 12], u32::MAX)
                .apply_keystream(&mut e)
                .unwrap();
            assert_eq!(d[64..128], e[..]);
        }
    }

    /// The legacy layout carries word 12 into word 13.
    #[test]
    fn legacy_counter_carries() {
        for (name, f) in all() {
            let start = (5u64 << 32) | 0xffff_fffe;
            let mut whole = ChaCha20::new_legacy_with(f, &[3; 32], &[9; 8], start);
            let mut a = vec![0u8; 64 * 4];
            whole.apply_keystream(&mut a).unwrap();
            for i in 0..4u64 {
                let mut one =
                    ChaCha20::new_legacy_with(Features::none(), &[3; 32], &[9; 8], start + i);
                let mut b = vec![0u8; 64];
                one.apply_keystream(&mut b).unwrap();
                assert_eq!(a[64 * i as usize..][..64], b[..], "{name} block {i}");
            }
        }
        let mut end = ChaCha20::new_legacy(&[3; 32], &[9; 8], u64::MAX);
        let mut d = [0u8; 65];
        assert_eq!(end.apply_keystream(&mut d), Err(Error::CounterExhausted));
        end.apply_keystream(&mut d[..64]).unwrap();
    }
}
