//! SHA-1 compression dispatch.

#[cfg(target_arch = "aarch64")]
use crate::cpu::arch::Sha1Ce;
#[cfg(target_arch = "x86_64")]
use crate::cpu::arch::ShaNi;
use crate::cpu::{Dispatch, Features};

#[cfg(target_arch = "aarch64")]
mod aarch64_ce;
#[cfg(all(target_arch = "arm", simdcrypt_asm))]
mod arm;
mod soft;
#[cfg(target_arch = "x86_64")]
mod x86_64_shani;

/// FIPS 180-4 §5.3.1.
pub(super) const IV: [u32; 5] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];

/// The SHA-1 kernels, best first.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Backend {
    #[cfg(target_arch = "x86_64")]
    ShaNi(ShaNi),
    #[cfg(all(target_arch = "arm", simdcrypt_asm))]
    ArmCe(crate::cpu::arch::ArmSha1),
    /// NEON message schedule, integer rounds: armv7 without the SHA-1 instructions.
    #[cfg(all(target_arch = "arm", simdcrypt_asm))]
    ArmNeon(crate::cpu::arch::ArmNeon),
    #[cfg(target_arch = "aarch64")]
    Ce(Sha1Ce),
    Soft,
}

impl Dispatch for Backend {
    fn select(f: Features) -> Self {
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = f.get::<ShaNi>() {
            return Backend::ShaNi(t);
        }
        #[cfg(all(target_arch = "arm", simdcrypt_asm))]
        if let Some(t) = f.get::<crate::cpu::arch::ArmSha1>() {
            return Backend::ArmCe(t);
        }
        #[cfg(all(target_arch = "arm", simdcrypt_asm))]
        if let Some(t) = f.get::<crate::cpu::arch::ArmNeon>() {
            return Backend::ArmNeon(t);
        }
        #[cfg(target_arch = "aarch64")]
        if let Some(t) = f.get::<Sha1Ce>() {
            return Backend::Ce(t);
        }
        let _ = f;
        Backend::Soft
    }

    fn name(self) -> &'static str {
        match self {
            #[cfg(target_arch = "x86_64")]
            Backend::ShaNi(_) => "sha-ni",
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmCe(_) => "armv7-ce",
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmNeon(_) => "armv7-neon",
            #[cfg(target_arch = "aarch64")]
            Backend::Ce(_) => "armv8-ce",
            Backend::Soft => "soft",
        }
    }

    fn key(self) -> u64 {
        match self {
            #[cfg(target_arch = "x86_64")]
            Backend::ShaNi(_) => <ShaNi as crate::cpu::Token>::KEY,
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmCe(_) => <crate::cpu::arch::ArmSha1 as crate::cpu::Token>::KEY,
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmNeon(_) => <crate::cpu::arch::ArmNeon as crate::cpu::Token>::KEY,
            #[cfg(target_arch = "aarch64")]
            Backend::Ce(_) => <Sha1Ce as crate::cpu::Token>::KEY,
            Backend::Soft => 0,
        }
    }
}

impl super::Compress for Backend {
    type State = [u32; 5];

    #[inline]
    fn compress(self, state: &mut [u32; 5], blocks: &[u8]) {
        debug_assert_eq!(blocks.len() % 64, 0);
        match self {
            #[cfg(target_arch = "x86_64")]
            Backend::ShaNi(t) => x86_64_shani::compress(t, state, blocks),
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmCe(t) => arm::compress(t, state, blocks),
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmNeon(t) => arm::compress_neon(t, state, blocks),
            #[cfg(target_arch = "aarch64")]
            Backend::Ce(t) => aarch64_ce::compress(t, state, blocks),
            Backend::Soft => soft::compress(state, blocks),
        }
    }

    #[inline]
    fn finish(self, state: &mut [u32; 5], data: &[u8], bit_len: u128) {
        // The length is taken modulo 2^64 (§5.1.1).
        #[cfg(target_arch = "x86_64")]
        if let Backend::ShaNi(t) = self {
            return x86_64_shani::finish(t, state, data, bit_len as u64);
        }
        super::finish_buffered::<Self, 64>(self, state, data, bit_len)
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
        let mut states = [IV, [0; 5], [u32::MAX; 5], [0; 5], [0; 5]];
        for (i, st) in states.iter_mut().enumerate().skip(3) {
            let b = bytes(i as u64, 5 * 4);
            for (word, c) in st.iter_mut().zip(b.chunks_exact(4)) {
                *word = u32::from_le_bytes(c.try_into().unwrap());
            }
        }
        let ran = every_backend_matches::<Backend>(&states, 64, soft::compress);
        extern crate std;
        std::eprintln!("sha1: checked {ran:?}");
    }
}
