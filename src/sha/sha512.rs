//! SHA-512 compression dispatch (SHA-384, SHA-512/224 and SHA-512/256 share it with other IVs).

#[cfg(target_arch = "aarch64")]
use crate::cpu::arch::Sha512Ce;
#[cfg(target_arch = "x86_64")]
use crate::cpu::arch::{Avx2Bmi2, Avx512Bmi2};
use crate::cpu::{Dispatch, Features};

#[cfg(target_arch = "aarch64")]
mod aarch64_ce;
#[cfg(all(target_arch = "arm", simdcrypt_asm))]
mod arm;
mod soft;
#[cfg(target_arch = "x86_64")]
mod x86_64_avx2;

/// FIPS 180-4 §5.3.5.
pub(super) const IV512: [u64; 8] = [
    0x6a09e667f3bcc908,
    0xbb67ae8584caa73b,
    0x3c6ef372fe94f82b,
    0xa54ff53a5f1d36f1,
    0x510e527fade682d1,
    0x9b05688c2b3e6c1f,
    0x1f83d9abfb41bd6b,
    0x5be0cd19137e2179,
];
/// FIPS 180-4 §5.3.4.
pub(super) const IV384: [u64; 8] = [
    0xcbbb9d5dc1059ed8,
    0x629a292a367cd507,
    0x9159015a3070dd17,
    0x152fecd8f70e5939,
    0x67332667ffc00b31,
    0x8eb44a8768581511,
    0xdb0c2e0d64f98fa7,
    0x47b5481dbefa4fa4,
];
/// FIPS 180-4 §5.3.6.1.
pub(super) const IV512_224: [u64; 8] = [
    0x8c3d37c819544da2,
    0x73e1996689dcd4d6,
    0x1dfab7ae32ff9c82,
    0x679dd514582f9fcf,
    0x0f6d2b697bd44da8,
    0x77e36f7304c48942,
    0x3f9d85a86a1d36c8,
    0x1112e6ad91d692a1,
];
/// FIPS 180-4 §5.3.6.2.
pub(super) const IV512_256: [u64; 8] = [
    0x22312194fc2bf72c,
    0x9f555fa3c84c64c2,
    0x2393b86b6f53b151,
    0x963877195940eabd,
    0x96283ee2a88effe3,
    0xbe5e1e2553863992,
    0x2b0199fc2c85b8aa,
    0x0eb72ddc81c52ca2,
];

/// FIPS 180-4 §4.2.3: the first 64 bits of the fractional parts of the cube roots of the
/// first 80 primes.
pub(crate) const K: [u64; 80] = [
    0x428a2f98d728ae22,
    0x7137449123ef65cd,
    0xb5c0fbcfec4d3b2f,
    0xe9b5dba58189dbbc,
    0x3956c25bf348b538,
    0x59f111f1b605d019,
    0x923f82a4af194f9b,
    0xab1c5ed5da6d8118,
    0xd807aa98a3030242,
    0x12835b0145706fbe,
    0x243185be4ee4b28c,
    0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f,
    0x80deb1fe3b1696b1,
    0x9bdc06a725c71235,
    0xc19bf174cf692694,
    0xe49b69c19ef14ad2,
    0xefbe4786384f25e3,
    0x0fc19dc68b8cd5b5,
    0x240ca1cc77ac9c65,
    0x2de92c6f592b0275,
    0x4a7484aa6ea6e483,
    0x5cb0a9dcbd41fbd4,
    0x76f988da831153b5,
    0x983e5152ee66dfab,
    0xa831c66d2db43210,
    0xb00327c898fb213f,
    0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2,
    0xd5a79147930aa725,
    0x06ca6351e003826f,
    0x142929670a0e6e70,
    0x27b70a8546d22ffc,
    0x2e1b21385c26c926,
    0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df,
    0x650a73548baf63de,
    0x766a0abb3c77b2a8,
    0x81c2c92e47edaee6,
    0x92722c851482353b,
    0xa2bfe8a14cf10364,
    0xa81a664bbc423001,
    0xc24b8b70d0f89791,
    0xc76c51a30654be30,
    0xd192e819d6ef5218,
    0xd69906245565a910,
    0xf40e35855771202a,
    0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8,
    0x1e376c085141ab53,
    0x2748774cdf8eeb99,
    0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63,
    0x4ed8aa4ae3418acb,
    0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc,
    0x78a5636f43172f60,
    0x84c87814a1f0ab72,
    0x8cc702081a6439ec,
    0x90befffa23631e28,
    0xa4506cebde82bde9,
    0xbef9a3f7b2c67915,
    0xc67178f2e372532b,
    0xca273eceea26619c,
    0xd186b8c721c0c207,
    0xeada7dd6cde0eb1e,
    0xf57d4f7fee6ed178,
    0x06f067aa72176fba,
    0x0a637dc5a2c898a6,
    0x113f9804bef90dae,
    0x1b710b35131c471b,
    0x28db77f523047d84,
    0x32caab7b40c72493,
    0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6,
    0x597f299cfc657e2a,
    0x5fcb6fab3ad6faec,
    0x6c44198c4a475817,
];

// The functions Σ0, Σ1, σ0, σ1 of FIPS 180-4 §4.1.3 (4.10)-(4.13), shared by the kernels written in Rust.
#[inline(always)]
pub(crate) fn big_sigma0(x: u64) -> u64 {
    x.rotate_right(28) ^ x.rotate_right(34) ^ x.rotate_right(39)
}
#[inline(always)]
pub(crate) fn big_sigma1(x: u64) -> u64 {
    x.rotate_right(14) ^ x.rotate_right(18) ^ x.rotate_right(41)
}
#[inline(always)]
pub(crate) fn small_sigma0(x: u64) -> u64 {
    x.rotate_right(1) ^ x.rotate_right(8) ^ (x >> 7)
}
#[inline(always)]
pub(crate) fn small_sigma1(x: u64) -> u64 {
    x.rotate_right(19) ^ x.rotate_right(61) ^ (x >> 6)
}

/// The SHA-512 kernels, best first.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Backend {
    /// The AVX2 kernel's layout with shorter round dependency chains and the message schedule
    /// on EVEX ymm instructions (`vprorq`, `vpternlogq`); the `Avx512Bmi2` token proves those,
    /// `Avx2Bmi2` the Rust code around them.
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx2Bmi2, Avx512Bmi2),
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2Bmi2),
    #[cfg(all(target_arch = "arm", simdcrypt_asm))]
    ArmNeon(crate::cpu::arch::ArmNeon),
    #[cfg(target_arch = "aarch64")]
    Ce(Sha512Ce),
    Soft,
}

impl Dispatch for Backend {
    fn select(f: Features) -> Self {
        #[cfg(target_arch = "x86_64")]
        if let (Some(t), Some(k)) = (f.get::<Avx2Bmi2>(), f.get::<Avx512Bmi2>()) {
            return Backend::Avx512(t, k);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = f.get::<Avx2Bmi2>() {
            return Backend::Avx2(t);
        }
        #[cfg(all(target_arch = "arm", simdcrypt_asm))]
        if let Some(t) = f.get::<crate::cpu::arch::ArmNeon>() {
            return Backend::ArmNeon(t);
        }
        #[cfg(target_arch = "aarch64")]
        if let Some(t) = f.get::<Sha512Ce>() {
            return Backend::Ce(t);
        }
        let _ = f;
        Backend::Soft
    }

    fn name(self) -> &'static str {
        match self {
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512(..) => "avx512",
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) => "avx2",
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmNeon(_) => "armv7-neon",
            #[cfg(target_arch = "aarch64")]
            Backend::Ce(_) => "armv8.2-sha512",
            Backend::Soft => "soft",
        }
    }

    fn key(self) -> u64 {
        match self {
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512(..) => <Avx512Bmi2 as crate::cpu::Token>::KEY,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) => <Avx2Bmi2 as crate::cpu::Token>::KEY,
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmNeon(_) => <crate::cpu::arch::ArmNeon as crate::cpu::Token>::KEY,
            #[cfg(target_arch = "aarch64")]
            Backend::Ce(_) => <Sha512Ce as crate::cpu::Token>::KEY,
            Backend::Soft => 0,
        }
    }
}

impl super::Compress for Backend {
    type State = [u64; 8];

    #[inline]
    fn compress(self, state: &mut [u64; 8], blocks: &[u8]) {
        debug_assert_eq!(blocks.len() % 128, 0);
        match self {
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512(t, k) => x86_64_avx2::compress_avx512(t, k, state, blocks),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(t) => x86_64_avx2::compress(t, state, blocks),
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmNeon(t) => arm::compress(t, state, blocks),
            #[cfg(target_arch = "aarch64")]
            Backend::Ce(t) => aarch64_ce::compress(t, state, blocks),
            Backend::Soft => soft::compress(state, blocks),
        }
    }

    #[inline]
    fn finish(self, state: &mut [u64; 8], data: &[u8], bit_len: u128) {
        #[cfg(target_arch = "x86_64")]
        if let Backend::Avx512(t, k) = self {
            return x86_64_avx2::finish_avx512(t, k, state, data, bit_len);
        }
        #[cfg(target_arch = "x86_64")]
        if let Backend::Avx2(t) = self {
            return x86_64_avx2::finish(t, state, data, bit_len);
        }
        super::finish_buffered::<Self, 128>(self, state, data, bit_len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sha::test_util::{bytes, every_backend_matches};

    /// Every kernel this CPU can run against the portable one (the vector suites in `tests/`
    /// check the whole hashes on every backend too).
    #[test]
    fn every_backend_matches_soft() {
        let mut states = [IV512, [0; 8], [u64::MAX; 8], [0; 8], [0; 8]];
        for (i, st) in states.iter_mut().enumerate().skip(3) {
            let b = bytes(i as u64, 8 * 8);
            for (word, c) in st.iter_mut().zip(b.chunks_exact(8)) {
                *word = u64::from_le_bytes(c.try_into().unwrap());
            }
        }
        let ran = every_backend_matches::<Backend>(&states, 128, soft::compress);
        extern crate std;
        std::eprintln!("sha512: checked {ran:?}");
    }
}
