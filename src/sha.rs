//! SHA-1 and the SHA-2 family (FIPS 180-4).
//!
//! Each hasher picks its compression kernel once, in [`Sha256::new`] (or `new_with`), and keeps
//! it in an enum; `update` matches on it once per call, never per block. The buffering is
//! written once, in `Engine`, for all seven hashes. The padding (FIPS 180-4 §5.1) is the
//! kernel's `Compress::finish`: the x86_64 SHA-NI and AVX2/AVX-512 SHA-512 kernels build the last
//! block or two in registers, the others use one generic stack-buffer version. The one-shot
//! [`Sha256::digest`] (and `digest_with`) has no hasher at all: the kernel hashes the message
//! where it lies, pads it and leaves the hash value, so a short message costs one kernel call.
//!
//! | hash | portable | x86_64 | aarch64 | armv7 |
//! |---|---|---|---|---|
//! | SHA-1 | 32-bit words | SHA-NI | ARMv8 SHA1 | AArch32 SHA1 |
//! | SHA-224/256 | 32-bit words | SHA-NI, AVX-512VL, AVX2 | ARMv8 SHA2 | AArch32 SHA2 |
//! | SHA-384/512, /224, /256 | 64-bit words | AVX-512VL, AVX2 | ARMv8.2 SHA512 | NEON |
//!
//! SHA-1 is broken for collision resistance; it is here for HMAC-SHA1, legacy protocols and
//! benchmarks.
//!
//! ```
//! use simdcrypt::sha::{Sha1, Sha512};
//!
//! let mut h = Sha512::new();
//! h.update(b"The quick brown fox ");
//! h.update(b"jumps over the lazy dog");
//! assert_eq!(h.finalize(), Sha512::digest(b"The quick brown fox jumps over the lazy dog"));
//! assert_eq!(Sha1::digest(b"")[..4], [0xda, 0x39, 0xa3, 0xee]);
//! ```

use crate::cpu::{self, Dispatch, Features};
use crate::wipe::{Zeroable, wipe, wipe_slice};

mod sha1;
/// The unrolled SHA-2 round macros of the portable kernels (before the modules that use them).
#[macro_use]
mod sha2_rounds;
mod sha256;
mod sha512;
#[cfg(target_arch = "x86_64")]
mod x86_64_pad;

/// A compression function dispatch: the backend enum of one hash family.
pub(crate) trait Compress: Dispatch {
    /// The chaining state.
    type State: Copy + Zeroable;
    /// Compresses `blocks` (a whole number of blocks) into `state`.
    fn compress(self, state: &mut Self::State, blocks: &[u8]);
    /// Hashes the rest of a message, leaving its hash value in `state`: the whole blocks of
    /// `data`, then its last `data.len() % BL` bytes padded as FIPS 180-4 §5.1.1/§5.1.2 say
    /// (0x80, zeros, and `bit_len`, the length of the whole message in bits, big-endian in the
    /// last 8 or 16 bytes, modulo 2^64 or 2^128).
    ///
    /// Kernels that can build the last block or two in registers do so (no buffer to fill,
    /// reload and wipe); the others use [`finish_buffered`].
    fn finish(self, state: &mut Self::State, data: &[u8], bit_len: u128);
}

/// [`Compress::finish`] for any kernel: the whole blocks of `data` straight from it, then the
/// padded tail (one or two blocks) from a zeroed stack buffer, which is wiped afterwards.
#[inline]
fn finish_buffered<B: Compress, const BL: usize>(
    b: B,
    state: &mut B::State,
    data: &[u8],
    bit_len: u128,
) {
    let r = data.len() % BL;
    let whole = data.len() - r;
    if whole > 0 {
        b.compress(state, &data[..whole]);
    }
    let len_bytes = BL / 8; // 8 for 64-byte blocks, 16 for 128-byte blocks
    // With no room for 0x80 and the length after the tail, they spill into a second block.
    let end = if r + 1 + len_bytes > BL { 2 * BL } else { BL };
    let mut last = [[0u8; BL]; 2];
    let buf = &mut last.as_flattened_mut()[..end];
    buf[..r].copy_from_slice(&data[whole..]);
    buf[r] = 0x80;
    buf[end - len_bytes..].copy_from_slice(&bit_len.to_be_bytes()[16 - len_bytes..]);
    b.compress(state, buf);
    wipe_slice(buf);
}

/// Buffering for a Merkle–Damgård hash with `BL`-byte blocks (the padding is the kernel's).
#[derive(Clone)]
struct Engine<B: Compress, const BL: usize> {
    state: B::State,
    buf: [u8; BL],
    buf_len: usize,
    /// Bytes hashed so far; the padding encodes it in bits, modulo 2^64 or 2^128 as the
    /// standard says.
    len: u128,
    backend: B,
}

impl<B: Compress, const BL: usize> Engine<B, BL> {
    #[inline]
    fn new(backend: B, iv: B::State) -> Self {
        Engine {
            state: iv,
            buf: [0; BL],
            buf_len: 0,
            len: 0,
            backend,
        }
    }

    #[inline]
    fn update(&mut self, mut data: &[u8]) {
        self.len = self.len.wrapping_add(data.len() as u128);
        if self.buf_len > 0 {
            let take = (BL - self.buf_len).min(data.len());
            self.buf[self.buf_len..self.buf_len + take].copy_from_slice(&data[..take]);
            self.buf_len += take;
            data = &data[take..];
            if self.buf_len < BL {
                return;
            }
            self.backend.compress(&mut self.state, &self.buf);
            self.buf_len = 0;
        }
        let whole = data.len() - data.len() % BL;
        if whole > 0 {
            self.backend.compress(&mut self.state, &data[..whole]);
        }
        let rest = &data[whole..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.buf_len = rest.len();
    }

    /// The hash value: the buffered tail padded (FIPS 180-4 §5.1) by the kernel's
    /// [`Compress::finish`], which builds the last block(s) itself.
    #[inline]
    fn finish(&mut self) -> B::State {
        let bits = self.len.wrapping_mul(8);
        self.backend
            .finish(&mut self.state, &self.buf[..self.buf_len], bits);
        self.state
    }
}

impl<B: Compress, const BL: usize> Drop for Engine<B, BL> {
    #[inline]
    fn drop(&mut self) {
        wipe(&mut self.state);
        wipe(&mut self.buf);
    }
}

/// Words to big-endian bytes, truncated to `out`.
trait WordsBe {
    fn write_be(&self, out: &mut [u8]);
}
impl<const N: usize> WordsBe for [u32; N] {
    fn write_be(&self, out: &mut [u8]) {
        for (c, w) in out.chunks_mut(4).zip(self) {
            c.copy_from_slice(&w.to_be_bytes()[..c.len()]);
        }
    }
}
impl<const N: usize> WordsBe for [u64; N] {
    fn write_be(&self, out: &mut [u8]) {
        for (c, w) in out.chunks_mut(8).zip(self) {
            c.copy_from_slice(&w.to_be_bytes()[..c.len()]);
        }
    }
}

/// Keeps [`Digest`] to this crate's hashers.
mod sealed {
    /// Implemented only by the hashers of [`super`].
    pub trait Sealed {}
}

/// A hash function, for code generic over the hash (HMAC, HKDF, tests).
///
/// Sealed: only the hashers of this module implement it, so [`Hmac`](crate::hmac::Hmac) and
/// [`Hkdf`](crate::hkdf::Hkdf) can rely on its constants (a block of at most 128 bytes, an
/// output no longer than a block). Code generic over any hash implements its own trait or uses
/// the RustCrypto `digest` traits (feature `digest`).
///
/// ```compile_fail
/// use simdcrypt::{cpu::Features, sha::Digest};
///
/// #[derive(Clone)]
/// struct Mine;
/// impl Digest for Mine { // error: `Sealed` is not implemented for `Mine`
///     const BLOCK_LEN: usize = 136;
///     const OUTPUT_LEN: usize = 32;
///     type Output = [u8; 32];
///     fn new_with(_: Features) -> Self { Mine }
///     fn update(&mut self, _: &[u8]) {}
///     fn finalize(self) -> [u8; 32] { [0; 32] }
///     fn backend(&self) -> &'static str { "mine" }
/// }
/// ```
pub trait Digest: Clone + sealed::Sealed {
    /// Input block size in bytes.
    const BLOCK_LEN: usize;
    /// Digest size in bytes.
    const OUTPUT_LEN: usize;
    /// The digest, `[u8; OUTPUT_LEN]`.
    type Output: AsRef<[u8]> + AsMut<[u8]> + Copy + core::fmt::Debug + PartialEq + Eq;
    /// A hasher with the best kernel for `features`.
    fn new_with(features: Features) -> Self;
    /// Absorbs `data`.
    fn update(&mut self, data: &[u8]);
    /// The digest.
    fn finalize(self) -> Self::Output;
    /// The digest of `data` in one call, with the best kernel within `features`: the same as
    /// `new_with(features)`, `update(data)`, `finalize()`, without the hasher.
    fn digest_with(features: Features, data: &[u8]) -> Self::Output {
        let mut h = Self::new_with(features);
        h.update(data);
        h.finalize()
    }
    /// The kernel this hasher uses.
    fn backend(&self) -> &'static str;
}

macro_rules! hasher {
    (
        $(#[$doc:meta])*
        $name:ident, $family:ident, $block:literal, $out:literal, $iv:expr, $example:literal
    ) => {
        $(#[$doc])*
        ///
        /// The kernel is chosen once, when the hasher is made; see [`backend`](Self::backend).
        ///
        /// ```
        #[doc = concat!("use simdcrypt::sha::", stringify!($name), ";")]
        ///
        #[doc = concat!("let mut h = ", stringify!($name), "::new();")]
        /// h.update(b"ab");
        /// h.update(b"c");
        /// let d = h.finalize();
        #[doc = concat!("assert_eq!(d, ", stringify!($name), "::digest(b\"abc\"));")]
        #[doc = concat!("assert_eq!(d[..4], ", $example, ");")]
        /// ```
        #[derive(Clone)]
        pub struct $name(Engine<$family::Backend, $block>);

        impl $name {
            /// Digest size in bytes.
            pub const OUTPUT_LEN: usize = $out;
            /// Block size in bytes.
            pub const BLOCK_LEN: usize = $block;

            /// A hasher using the best kernel this CPU has (less `SIMDCRYPT_DISABLE`).
            #[inline]
            pub fn new() -> Self {
                Self::new_with(Features::detect())
            }

            /// A hasher using the best kernel within `features`.
            #[inline]
            pub fn new_with(features: Features) -> Self {
                $name(Engine::new($family::Backend::select(features), $iv))
            }

            /// Absorbs `data`. Any split of a message gives the same digest.
            #[inline]
            pub fn update(&mut self, data: &[u8]) {
                self.0.update(data)
            }

            /// The digest of everything absorbed.
            #[inline]
            pub fn finalize(mut self) -> [u8; $out] {
                let state = self.0.finish();
                let mut out = [0u8; $out];
                state.write_be(&mut out);
                out
            }

            /// The digest of `data`, in one call.
            #[inline]
            pub fn digest(data: &[u8]) -> [u8; $out] {
                Self::digest_with(Features::detect(), data)
            }

            /// The digest of `data`, in one call, with the best kernel within `features`
            /// (the same digest as [`new_with`](Self::new_with), `update`, `finalize`).
            ///
            /// The kernel hashes the message where it lies and pads the last block or two
            /// itself: no hasher, no block buffer to fill, copy or wipe.
            #[inline]
            pub fn digest_with(features: Features, data: &[u8]) -> [u8; $out] {
                let mut state = $iv;
                // A slice is shorter than 2^61 bytes, so the bit count is exact.
                let bits = (data.len() as u128) * 8;
                $family::Backend::select(features).finish(&mut state, data, bits);
                let mut out = [0u8; $out];
                state.write_be(&mut out);
                out
            }

            /// The kernel this hasher uses (`"sha-ni"`, `"avx2"`, `"armv8-ce"`, `"soft"`, …).
            pub fn backend(&self) -> &'static str {
                self.0.backend.name()
            }

            /// The kernel a hasher made with `features` would use.
            pub fn backend_for(features: Features) -> &'static str {
                $family::Backend::select(features).name()
            }

            /// Every kernel reachable from `features`, best first, each with a feature set
            /// that selects it (pass it to [`new_with`](Self::new_with)). The last is `soft`,
            /// except where a per-core order puts `soft` before `neon` (SHA-224/256 on some
            /// aarch64 cores, [`cpu::core`](crate::cpu::core)): then the walk ends `soft`,
            /// `neon`.
            pub fn backends(
                features: Features,
            ) -> impl Iterator<Item = (&'static str, Features)> + Clone {
                cpu::backends::<$family::Backend>(features)
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name)).field("backend", &self.backend()).finish_non_exhaustive()
            }
        }

        impl sealed::Sealed for $name {}

        impl Digest for $name {
            const BLOCK_LEN: usize = $block;
            const OUTPUT_LEN: usize = $out;
            type Output = [u8; $out];
            #[inline]
            fn new_with(features: Features) -> Self {
                $name::new_with(features)
            }
            #[inline]
            fn update(&mut self, data: &[u8]) {
                $name::update(self, data)
            }
            #[inline]
            fn finalize(self) -> [u8; $out] {
                $name::finalize(self)
            }
            #[inline]
            fn digest_with(features: Features, data: &[u8]) -> [u8; $out] {
                $name::digest_with(features, data)
            }
            fn backend(&self) -> &'static str {
                $name::backend(self)
            }
        }
    };
}

hasher!(
    /// SHA-1 (FIPS 180-4 §6.1). Collision attacks exist; use it only where a protocol demands it.
    Sha1, sha1, 64, 20, sha1::IV, "[0xa9, 0x99, 0x3e, 0x36]"
);
hasher!(
    /// SHA-224 (FIPS 180-4 §6.3).
    Sha224, sha256, 64, 28, sha256::IV224, "[0x23, 0x09, 0x7d, 0x22]"
);
hasher!(
    /// SHA-256 (FIPS 180-4 §6.2).
    Sha256, sha256, 64, 32, sha256::IV256, "[0xba, 0x78, 0x16, 0xbf]"
);
hasher!(
    /// SHA-384 (FIPS 180-4 §6.5).
    Sha384, sha512, 128, 48, sha512::IV384, "[0xcb, 0x00, 0x75, 0x3f]"
);
hasher!(
    /// SHA-512 (FIPS 180-4 §6.4).
    Sha512, sha512, 128, 64, sha512::IV512, "[0xdd, 0xaf, 0x35, 0xa1]"
);
hasher!(
    /// SHA-512/224 (FIPS 180-4 §6.6).
    Sha512_224, sha512, 128, 28, sha512::IV512_224, "[0x46, 0x34, 0x27, 0x0f]"
);
hasher!(
    /// SHA-512/256 (FIPS 180-4 §6.7).
    Sha512_256, sha512, 128, 32, sha512::IV512_256, "[0x53, 0x04, 0x8e, 0x26]"
);

/// Checks shared by the kernel families' unit tests.
#[cfg(test)]
pub(crate) mod test_util {
    extern crate std;
    use super::Compress;
    use crate::cpu::{self, Features};
    use std::vec::Vec;

    /// Deterministic bytes (xorshift64*), so failures reproduce.
    pub(crate) fn bytes(seed: u64, n: usize) -> Vec<u8> {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        (0..n)
            .map(|_| {
                x ^= x >> 12;
                x ^= x << 25;
                x ^= x >> 27;
                (x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8
            })
            .collect()
    }

    /// Every backend of `B` this CPU can run compresses like `reference` (the portable
    /// kernel): from each of `states`, over 0..=9 blocks of `block` bytes, read from aligned
    /// and unaligned addresses. Returns the backends that ran, best first.
    pub(crate) fn every_backend_matches<B: Compress>(
        states: &[B::State],
        block: usize,
        reference: fn(&mut B::State, &[u8]),
    ) -> Vec<&'static str>
    where
        B::State: PartialEq + core::fmt::Debug,
    {
        let mut ran = Vec::new();
        for (name, features) in cpu::backends::<B>(Features::detect()) {
            let b = B::select(features);
            assert_eq!(b.name(), name);
            for (si, st) in states.iter().enumerate() {
                for n in 0..=9usize {
                    for offset in [0usize, 1, 7] {
                        let seed = (si * 1000 + n * 10 + offset) as u64;
                        let buf = bytes(seed, n * block + offset);
                        let blocks = &buf[offset..];
                        let mut want = *st;
                        reference(&mut want, blocks);
                        let mut got = *st;
                        b.compress(&mut got, blocks);
                        assert_eq!(got, want, "{name}: state {si}, {n} blocks, offset {offset}");
                    }
                }
            }
            ran.push(name);
        }
        assert!(soft_ends_walk(&ran), "{ran:?}");
        ran
    }

    /// Whether a walk of backend names has the portable `soft` in its place: last, or just
    /// before NEON where the per-core order puts it first (then the walk ends `soft`, `neon`,
    /// after `armv8-ce` where the CPU has it; see `cpu::Backends`).
    pub(crate) fn soft_ends_walk(ran: &[&str]) -> bool {
        ran.last() == Some(&"soft") || ran.ends_with(&["soft", "neon"])
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::cpu::Features;
    use std::vec::Vec;

    /// The padding is done by each kernel's `finish` (in registers for some): for every hash
    /// and every backend this CPU has, every message length up to four blocks (so every tail
    /// length, each with zero to three whole blocks before it) and some longer ones, from an
    /// aligned and an unaligned start, the one-shot `digest_with` and the streaming hasher
    /// (fed in two pieces, cut a block and 5 bytes before the end, or whole when shorter)
    /// agree with the portable kernel.
    fn every_length<H: Family>() -> Vec<&'static str> {
        let mut ran = Vec::new();
        let lens = (0..=4 * H::BLOCK_LEN).chain([1000, 4097]);
        let data = test_util::bytes(7, 4200);
        for (name, features) in cpu::backends::<H::Dispatch>(Features::detect()) {
            for len in lens.clone() {
                for offset in [0usize, 3] {
                    let msg = &data[offset..offset + len];
                    let want = {
                        let mut h = H::new_with(Features::none());
                        h.update(msg);
                        h.finalize()
                    };
                    let one = H::digest_with(features, msg);
                    assert_eq!(
                        one, want,
                        "{name}: digest_with, {len} bytes, offset {offset}"
                    );
                    let mut h = H::new_with(features);
                    assert_eq!(h.backend(), name);
                    let cut = len.saturating_sub(H::BLOCK_LEN + 5);
                    h.update(&msg[..cut]);
                    h.update(&msg[cut..]);
                    assert_eq!(
                        h.finalize(),
                        want,
                        "{name}: streamed, {len} bytes, cut {cut}"
                    );
                }
            }
            ran.push(name);
        }
        assert!(test_util::soft_ends_walk(&ran), "{ran:?}");
        ran
    }

    /// Ties a public hasher to its backend enum, to list the backends.
    trait Family: Digest {
        type Dispatch: crate::cpu::Dispatch;
    }
    impl Family for Sha1 {
        type Dispatch = sha1::Backend;
    }
    impl Family for Sha224 {
        type Dispatch = sha256::Backend;
    }
    impl Family for Sha256 {
        type Dispatch = sha256::Backend;
    }
    impl Family for Sha384 {
        type Dispatch = sha512::Backend;
    }
    impl Family for Sha512 {
        type Dispatch = sha512::Backend;
    }
    impl Family for Sha512_224 {
        type Dispatch = sha512::Backend;
    }
    impl Family for Sha512_256 {
        type Dispatch = sha512::Backend;
    }

    #[test]
    fn finish_every_length_every_backend() {
        std::eprintln!("sha1: {:?}", every_length::<Sha1>());
        std::eprintln!("sha224: {:?}", every_length::<Sha224>());
        std::eprintln!("sha256: {:?}", every_length::<Sha256>());
        std::eprintln!("sha384: {:?}", every_length::<Sha384>());
        std::eprintln!("sha512: {:?}", every_length::<Sha512>());
        std::eprintln!("sha512/224: {:?}", every_length::<Sha512_224>());
        std::eprintln!("sha512/256: {:?}", every_length::<Sha512_256>());
    }

    /// Known answers for the one-shot path at the padding edges (FIPS 180-4 examples are in
    /// the vector suites; these pin `digest_with` itself): "abc" and the 56-byte message of
    /// the NIST examples, whose padding spills into a second block.
    #[test]
    fn digest_known_answers() {
        let m56 = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
        for (name, f) in Sha256::backends(Features::detect()) {
            let d = Sha256::digest_with(f, m56);
            assert_eq!(d[..4], [0x24, 0x8d, 0x6a, 0x61], "{name}");
        }
        for (name, f) in Sha1::backends(Features::detect()) {
            let d = Sha1::digest_with(f, b"abc");
            assert_eq!(d[..4], [0xa9, 0x99, 0x3e, 0x36], "{name}");
            let d = Sha1::digest_with(f, m56);
            assert_eq!(d[..4], [0x84, 0x98, 0x3e, 0x44], "{name}");
        }
        for (name, f) in Sha512::backends(Features::detect()) {
            assert_eq!(
                Sha512::digest_with(f, b"abc")[..4],
                [0xdd, 0xaf, 0x35, 0xa1],
                "{name}"
            );
        }
    }
}
