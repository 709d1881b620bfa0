//! SHA-256 compression dispatch (SHA-224 shares it with another IV).

#[cfg(all(target_arch = "arm", simdcrypt_asm))]
use crate::cpu::arch::{ArmNeon, ArmSha2};
#[cfg(target_arch = "x86_64")]
use crate::cpu::arch::{Avx2Bmi2, Avx512Bmi2, ShaNi};
#[cfg(target_arch = "aarch64")]
use crate::cpu::arch::{Neon, Sha256Ce};
use crate::cpu::{Dispatch, Features};

#[cfg(target_arch = "aarch64")]
mod aarch64_ce;
#[cfg(target_arch = "aarch64")]
mod aarch64_neon;
#[cfg(all(target_arch = "arm", simdcrypt_asm))]
mod arm;
mod soft;
#[cfg(target_arch = "x86_64")]
mod x86_64_avx2;
#[cfg(target_arch = "x86_64")]
mod x86_64_shani;

/// FIPS 180-4 §5.3.3.
pub(super) const IV256: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];
/// FIPS 180-4 §5.3.2.
pub(super) const IV224: [u32; 8] = [
    0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4,
];

/// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the
/// first 64 primes.
pub(crate) const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

// The functions Σ0, Σ1, σ0, σ1 of FIPS 180-4 §4.1.2 (4.4)-(4.7), shared by the kernels written in Rust.
#[inline(always)]
pub(crate) fn big_sigma0(x: u32) -> u32 {
    x.rotate_right(2) ^ x.rotate_right(13) ^ x.rotate_right(22)
}
#[inline(always)]
pub(crate) fn big_sigma1(x: u32) -> u32 {
    x.rotate_right(6) ^ x.rotate_right(11) ^ x.rotate_right(25)
}
#[inline(always)]
pub(crate) fn small_sigma0(x: u32) -> u32 {
    x.rotate_right(7) ^ x.rotate_right(18) ^ (x >> 3)
}
#[inline(always)]
pub(crate) fn small_sigma1(x: u32) -> u32 {
    x.rotate_right(17) ^ x.rotate_right(19) ^ (x >> 10)
}

/// The SHA-256 kernels, best first.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Backend {
    #[cfg(target_arch = "x86_64")]
    ShaNi(ShaNi),
    /// The AVX2 kernel's layout with shorter round dependency chains and the message schedule
    /// on EVEX ymm instructions (`vprord`, `vpternlogd`); the `Avx512Bmi2` token proves those,
    /// `Avx2Bmi2` the Rust code around them.
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx2Bmi2, Avx512Bmi2),
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2Bmi2),
    #[cfg(all(target_arch = "arm", simdcrypt_asm))]
    ArmCe(ArmSha2),
    /// NEON message schedule, integer rounds: armv7 without the SHA-256 instructions.
    #[cfg(all(target_arch = "arm", simdcrypt_asm))]
    ArmNeon(ArmNeon),
    #[cfg(target_arch = "aarch64")]
    Ce(Sha256Ce),
    /// NEON message schedule, scalar rounds: aarch64 without the SHA-256 instructions.
    #[cfg(target_arch = "aarch64")]
    Neon(Neon),
    /// The portable kernel ahead of NEON, on a core where it models faster
    /// (`cpu::PREFER_SCALAR_SHA256`, `cpu/aarch64_cores.rs`): runs as `Soft`; its walk key is
    /// the tuning bit, whose removal leads to `Neon`.
    #[cfg(target_arch = "aarch64")]
    SoftBeforeNeon,
    Soft,
}

impl Dispatch for Backend {
    fn select(f: Features) -> Self {
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = f.get::<ShaNi>() {
            return Backend::ShaNi(t);
        }
        #[cfg(target_arch = "x86_64")]
        if let (Some(t), Some(k)) = (f.get::<Avx2Bmi2>(), f.get::<Avx512Bmi2>()) {
            return Backend::Avx512(t, k);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = f.get::<Avx2Bmi2>() {
            return Backend::Avx2(t);
        }
        #[cfg(all(target_arch = "arm", simdcrypt_asm))]
        if let Some(t) = f.get::<ArmSha2>() {
            return Backend::ArmCe(t);
        }
        #[cfg(all(target_arch = "arm", simdcrypt_asm))]
        if let Some(t) = f.get::<ArmNeon>() {
            return Backend::ArmNeon(t);
        }
        #[cfg(target_arch = "aarch64")]
        if let Some(t) = f.get::<Sha256Ce>() {
            return Backend::Ce(t);
        }
        #[cfg(target_arch = "aarch64")]
        if let Some(t) = f.get::<Neon>() {
            if f.prefers(crate::cpu::PREFER_SCALAR_SHA256) {
                return Backend::SoftBeforeNeon;
            }
            return Backend::Neon(t);
        }
        let _ = f;
        Backend::Soft
    }

    fn name(self) -> &'static str {
        match self {
            #[cfg(target_arch = "x86_64")]
            Backend::ShaNi(_) => "sha-ni",
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512(..) => "avx512",
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) => "avx2",
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmCe(_) => "armv7-ce",
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmNeon(_) => "armv7-neon",
            #[cfg(target_arch = "aarch64")]
            Backend::Ce(_) => "armv8-ce",
            #[cfg(target_arch = "aarch64")]
            Backend::Neon(_) => "neon",
            #[cfg(target_arch = "aarch64")]
            Backend::SoftBeforeNeon => "soft",
            Backend::Soft => "soft",
        }
    }

    fn key(self) -> u64 {
        match self {
            #[cfg(target_arch = "x86_64")]
            Backend::ShaNi(_) => <ShaNi as crate::cpu::Token>::KEY,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512(..) => <Avx512Bmi2 as crate::cpu::Token>::KEY,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(_) => <Avx2Bmi2 as crate::cpu::Token>::KEY,
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmCe(_) => <ArmSha2 as crate::cpu::Token>::KEY,
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmNeon(_) => <ArmNeon as crate::cpu::Token>::KEY,
            #[cfg(target_arch = "aarch64")]
            Backend::Ce(_) => <Sha256Ce as crate::cpu::Token>::KEY,
            #[cfg(target_arch = "aarch64")]
            Backend::Neon(_) => <Neon as crate::cpu::Token>::KEY,
            #[cfg(target_arch = "aarch64")]
            Backend::SoftBeforeNeon => crate::cpu::PREFER_SCALAR_SHA256,
            Backend::Soft => 0,
        }
    }
}

impl super::Compress for Backend {
    type State = [u32; 8];

    #[inline]
    fn compress(self, state: &mut [u32; 8], blocks: &[u8]) {
        debug_assert_eq!(blocks.len() % 64, 0);
        match self {
            #[cfg(target_arch = "x86_64")]
            Backend::ShaNi(t) => x86_64_shani::compress(t, state, blocks),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512(t, k) => x86_64_avx2::compress_avx512(t, k, state, blocks),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2(t) => x86_64_avx2::compress(t, state, blocks),
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmCe(t) => arm::compress(t, state, blocks),
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmNeon(t) => arm::compress_neon(t, state, blocks),
            #[cfg(target_arch = "aarch64")]
            Backend::Ce(t) => aarch64_ce::compress(t, state, blocks),
            #[cfg(target_arch = "aarch64")]
            Backend::Neon(t) => aarch64_neon::compress(t, state, blocks),
            #[cfg(target_arch = "aarch64")]
            Backend::SoftBeforeNeon => soft::compress(state, blocks),
            Backend::Soft => soft::compress(state, blocks),
        }
    }

    #[inline]
    fn finish(self, state: &mut [u32; 8], data: &[u8], bit_len: u128) {
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
        let mut states = [IV256, [0; 8], [u32::MAX; 8], [0; 8], [0; 8]];
        for (i, st) in states.iter_mut().enumerate().skip(3) {
            let b = bytes(i as u64, 8 * 4);
            for (word, c) in st.iter_mut().zip(b.chunks_exact(4)) {
                *word = u32::from_le_bytes(c.try_into().unwrap());
            }
        }
        let ran = every_backend_matches::<Backend>(&states, 64, soft::compress);
        extern crate std;
        std::eprintln!("sha256: checked {ran:?}");
    }

    /// The per-core order (`cpu/aarch64_cores.rs`) with the tuning bit of a core that puts
    /// the portable kernel first (Cortex-A53, ThunderX; the bit is set here by the test-only
    /// `with_tuning`, whatever core this runs on): without the SHA-2 instructions the portable
    /// kernel is chosen, NEON stays reachable through the walk, each name once; masking NEON
    /// or the tuning bit gives the default choices; with the SHA-2 instructions `armv8-ce`
    /// stays first; SHA-224 follows; every kernel on the walk gives the portable digests.
    #[cfg(target_arch = "aarch64")]
    #[test]
    fn core_order_scalar_first() {
        extern crate std;
        use crate::cpu::PREFER_SCALAR_SHA256;
        use crate::sha::{Compress as _, Sha224, Sha256};
        use std::vec::Vec;
        let d = Features::detect();
        if !d.has("neon") {
            std::eprintln!("no NEON here: the per-core order has nothing to reorder");
            return;
        }
        let bit = Features::none().with_tuning(PREFER_SCALAR_SHA256);
        let tuned_all = d.with_tuning(PREFER_SCALAR_SHA256);
        // The SHA-2 instructions go first whatever the core.
        if d.has("sha2") {
            assert_eq!(Sha256::backend_for(tuned_all), "armv8-ce");
            assert_eq!(Sha256::backend_for(d.without_all(bit)), "armv8-ce");
            let names: Vec<&str> = Sha256::backends(tuned_all).map(|b| b.0).collect();
            assert_eq!(names, ["armv8-ce", "soft", "neon"]);
        }
        let tuned = tuned_all.without("sha2").unwrap();
        let plain = tuned.without_all(bit);
        assert!(tuned.prefers(PREFER_SCALAR_SHA256));
        assert!(!plain.prefers(PREFER_SCALAR_SHA256));
        // Poly1305 has a bit of its own: this one changes nothing there.
        assert_eq!(
            crate::poly1305::Poly1305::backend_for(tuned),
            crate::poly1305::Poly1305::backend_for(plain)
        );
        assert_eq!(Sha256::backend_for(tuned), "soft");
        assert_eq!(Sha224::backend_for(tuned), "soft");
        assert_eq!(Sha256::backend_for(plain), "neon");
        assert_eq!(Sha256::backend_for(tuned.without("neon").unwrap()), "soft");
        // Other hashes do not read the bit.
        assert_eq!(
            crate::sha::Sha1::backend_for(tuned),
            crate::sha::Sha1::backend_for(plain)
        );
        let walk: Vec<(&str, Features)> = Sha256::backends(tuned).collect();
        let names: Vec<&str> = walk.iter().map(|b| b.0).collect();
        assert_eq!(names, ["soft", "neon"]);
        assert!(matches!(
            Backend::select(walk[0].1),
            Backend::SoftBeforeNeon
        ));
        assert!(matches!(Backend::select(walk[1].1), Backend::Neon(_)));
        let names224: Vec<&str> = Sha224::backends(tuned).map(|b| b.0).collect();
        assert_eq!(names224, names);
        let msg = bytes(11, 4099);
        let want = Sha256::digest_with(Features::none(), &msg);
        let want224 = Sha224::digest_with(Features::none(), &msg);
        for (name, f) in &walk {
            assert_eq!(Sha256::backend_for(*f), *name);
            assert_eq!(Sha256::new_with(*f).backend(), *name);
            assert_eq!(Sha256::digest_with(*f, &msg), want, "{name}");
            assert_eq!(Sha224::digest_with(*f, &msg), want224, "{name}");
            for split in [1usize, 64, 1000] {
                let mut h = Sha256::new_with(*f);
                h.update(&msg[..split]);
                h.update(&msg[split..]);
                assert_eq!(h.finalize(), want, "{name} split {split}");
            }
        }
        // The tuned kernel compresses like the portable one from any state.
        let mut a = [u32::MAX; 8];
        let mut b = a;
        Backend::select(tuned).compress(&mut a, &msg[..64 * 9]);
        soft::compress(&mut b, &msg[..64 * 9]);
        assert_eq!(a, b);
    }

    /// On this machine (or emulator): the SHA-256 kernel is the first of the core table's
    /// order that the features allow (`armv8-ce` before either where the CPU has it).
    #[cfg(target_arch = "aarch64")]
    #[test]
    fn dispatch_follows_the_identified_core() {
        extern crate std;
        use crate::cpu::aarch64_cores::{Primitive, order, scalar_first};
        use crate::sha::{Sha224, Sha256};
        let core = crate::cpu::arch::identify().core();
        let hw = Features::hardware();
        let want = if hw.has("sha2") {
            "armv8-ce"
        } else if hw.has("neon") {
            order(core, Primitive::Sha256)[0]
        } else {
            "soft"
        };
        std::println!(
            "core {:?}: sha256 order {:?}, hardware kernel {}",
            core.map(|c| c.name()),
            order(core, Primitive::Sha256),
            Sha256::backend_for(hw)
        );
        assert_eq!(Sha256::backend_for(hw), want);
        assert_eq!(Sha224::backend_for(hw), want);
        assert_eq!(
            hw.prefers(crate::cpu::PREFER_SCALAR_SHA256),
            scalar_first(core, Primitive::Sha256)
        );
        // `kernels()` reports what a new hasher uses.
        let k = crate::kernels().find(|k| k.primitive == "sha256").unwrap();
        assert_eq!(k.backend, Sha256::new().backend());
        assert_eq!(k.backend, Sha256::backend_for(Features::detect()));
    }
}
