//! AES (FIPS 197) with 128-, 192- and 256-bit keys, and the modes ECB (whole blocks),
//! [`Ctr`], [`Cbc`] and [`Ige`], with PKCS#7 helpers ([`pkcs7_pad`], [`pkcs7_unpad`]).
//!
//! Each key picks its kernel once, when it is expanded ([`Aes128::new`]); every call then
//! matches on that choice once per message, never per block. The kernels, best first:
//!
//! | backend         | where                                                    |
//! |-----------------|----------------------------------------------------------|
//! | `vaes-avx512`   | x86_64 VAES on 512-bit registers                         |
//! | `vaes-avx2`     | x86_64 VAES on 256-bit registers                         |
//! | `aes-ni`        | x86_64 AES-NI                                            |
//! | `armv8-ce`      | aarch64 ARMv8 crypto extensions (AESE/AESMC)             |
//! | `armv7-ce`      | 32-bit ARM crypto extensions                             |
//! | `vpaes-ssse3`   | x86_64 SSSE3 `pshufb` vector-permute AES (one block/reg) |
//! | `vpaes-neon`    | aarch64 NEON `tbl` vector-permute AES (one block/reg)    |
//! | `bitsliced-neon`| NEON fixsliced AES, 8 blocks per batch: armv7 (assembly);|
//! |                 | aarch64 (intrinsics, with `vpaes-neon` for serial modes) |
//! | `bitsliced-64`  | portable constant-time fixsliced AES on 64-bit words     |
//! | `bitsliced-32`  | portable constant-time fixsliced AES on 32-bit words     |
//!
//! No kernel indexes memory or branches on key or data: the portable ones compute the S-box
//! as a Boolean circuit on bitsliced state, the `vpaes-*` ones with byte shuffles (`pshufb`,
//! `tbl`) into 16-entry tables in vector registers: a secret is a shuffle index, never an
//! address.
//!
//! ```
//! use simdcrypt::aes::{Aes128, Ctr};
//!
//! // FIPS 197 appendix C.1.
//! let key = [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
//!            0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f];
//! let aes = Aes128::new(&key);
//! let mut block = *b"\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff";
//! aes.encrypt_block(&mut block);
//! assert_eq!(block[..4], [0x69, 0xc4, 0xe0, 0xd8]);
//! aes.decrypt_block(&mut block);
//! assert_eq!(&block, b"\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff");
//!
//! // CTR keeps its position across calls of any length.
//! let mut msg = *b"attack at dawn, retreat at dusk!";
//! let mut enc = Ctr::new(Aes128::new(&key), &[0u8; 16]);
//! enc.apply_keystream(&mut msg[..5])?;
//! enc.apply_keystream(&mut msg[5..])?;
//! let mut dec = Ctr::new(Aes128::new(&key), &[0u8; 16]);
//! dec.apply_keystream(&mut msg)?;
//! assert_eq!(&msg, b"attack at dawn, retreat at dusk!");
//! # Ok::<(), simdcrypt::Error>(())
//! ```

use crate::Error;
use crate::cpu::{self, Dispatch, Features};

#[cfg(target_arch = "aarch64")]
mod aarch64_ce;
#[cfg(target_arch = "aarch64")]
mod aarch64_neon;
#[cfg(target_arch = "aarch64")]
mod aarch64_neon_bs;
#[cfg(all(target_arch = "arm", simdcrypt_asm))]
mod arm;
#[cfg(all(target_arch = "arm", simdcrypt_asm))]
mod arm_neon_bs;
#[cfg(all(target_arch = "arm", simdcrypt_asm))]
mod arm_vpaes;
mod cbc;
mod ctr;
mod fixslice;
mod ige;
#[cfg(any(test, target_pointer_width = "32"))]
mod soft32;
// Also on x86_64 with 32-bit pointers (x32), where the AVX2 kernel uses it.
#[cfg(any(test, target_pointer_width = "64", target_arch = "x86_64"))]
mod soft64;
#[cfg(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "arm", simdcrypt_asm)
))]
mod vperm;
#[cfg(target_arch = "x86_64")]
mod x86_64_aesni;
#[cfg(target_arch = "x86_64")]
mod x86_64_avx2bs;
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
mod x86_64_avx512bs;
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
mod x86_64_gfni;
#[cfg(target_arch = "x86_64")]
mod x86_64_ssse3;
#[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
mod x86_64_vaes;

pub use cbc::Cbc;
pub use ctr::Ctr;
pub use ige::Ige;

/// CBC decryption (SP 800-38A §6.2) `N` bytes at a time (`N` a multiple of 16) through the
/// ECB decryption `decrypt`, which sees every chunk whole: a kernel passes its batch size.
/// `iv` becomes the last ciphertext block.
pub(crate) fn cbc_decrypt_chunks<const N: usize>(
    decrypt: impl Fn(&mut [u8]),
    iv: &mut [u8; 16],
    data: &mut [u8],
) {
    let mut saved = [0u8; N];
    for chunk in data.chunks_mut(N) {
        let n = chunk.len();
        saved[..n].copy_from_slice(chunk);
        decrypt(chunk);
        xor16(&mut chunk[..16], iv);
        for i in 1..n / 16 {
            let (prev, cur) = (
                &saved[(i - 1) * 16..i * 16],
                &mut chunk[i * 16..(i + 1) * 16],
            );
            for (c, p) in cur.iter_mut().zip(prev) {
                *c ^= p;
            }
        }
        iv.copy_from_slice(&saved[n - 16..n]);
    }
}

/// The operations every AES kernel provides, on an expanded key in that kernel's format.
///
/// Every `data` holds whole 16-byte blocks (`data.len() % 16 == 0`): the callers in this
/// module check that, kernels may rely on it. A kernel value is built only from the token of
/// its CPU features, so holding one proves the instructions exist; these safe methods are the
/// wrappers around its `#[target_feature]` functions. Implementations wipe their round keys on
/// drop.
pub(crate) trait Kernel {
    /// ECB encryption of each block, in place.
    fn encrypt(&self, data: &mut [u8]);
    /// ECB decryption of each block, in place.
    fn decrypt(&self, data: &mut [u8]);
    /// CTR (SP 800-38A §6.5): XOR `data` with E(ctr), E(ctr + 1), … where `ctr` is a 128-bit
    /// big-endian integer; on return `ctr` is advanced by the number of blocks, mod 2^128.
    fn ctr(&self, ctr: &mut [u8; 16], data: &mut [u8]);

    /// CBC encryption (SP 800-38A §6.2) in place; `iv` becomes the last ciphertext block.
    /// Serial by nature: one block at a time.
    fn cbc_encrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        for block in data.chunks_exact_mut(16) {
            xor16(block, iv);
            self.encrypt(block);
            iv.copy_from_slice(block);
        }
    }

    /// CBC decryption in place; `iv` becomes the last ciphertext block. The block
    /// decryptions are independent, so this default hands the kernel 8 blocks at a time.
    fn cbc_decrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
        cbc_decrypt_chunks::<128>(|d| self.decrypt(d), iv, data)
    }

    /// IGE encryption (Campbell, "Infinite Garble Extension", 1978; the form OpenSSL
    /// implements): `c_i = E(p_i ⊕ c_{i-1}) ⊕ p_{i-1}`. `iv` is `c_0 ‖ p_0` on entry and the
    /// last `c ‖ p` on return.
    fn ige_encrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
        let (mut c_prev, mut p_prev) = split_iv(iv);
        for block in data.chunks_exact_mut(16) {
            let p: [u8; 16] = block.try_into().unwrap_or([0; 16]);
            xor16(block, &c_prev);
            self.encrypt(block);
            xor16(block, &p_prev);
            c_prev.copy_from_slice(block);
            p_prev = p;
        }
        iv[..16].copy_from_slice(&c_prev);
        iv[16..].copy_from_slice(&p_prev);
    }

    /// IGE decryption: `p_i = D(c_i ⊕ p_{i-1}) ⊕ c_{i-1}`; `iv` as for encryption.
    fn ige_decrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
        let (mut c_prev, mut p_prev) = split_iv(iv);
        for block in data.chunks_exact_mut(16) {
            let c: [u8; 16] = block.try_into().unwrap_or([0; 16]);
            xor16(block, &p_prev);
            self.decrypt(block);
            xor16(block, &c_prev);
            p_prev.copy_from_slice(block);
            c_prev = c;
        }
        iv[..16].copy_from_slice(&c_prev);
        iv[16..].copy_from_slice(&p_prev);
    }
}

#[inline(always)]
fn split_iv(iv: &[u8; 32]) -> ([u8; 16], [u8; 16]) {
    let mut a = [0u8; 16];
    let mut b = [0u8; 16];
    a.copy_from_slice(&iv[..16]);
    b.copy_from_slice(&iv[16..]);
    (a, b)
}

/// `block ^= x` for a 16-byte block.
#[inline(always)]
pub(crate) fn xor16(block: &mut [u8], x: &[u8; 16]) {
    for (b, x) in block.iter_mut().zip(x) {
        *b ^= x;
    }
}

/// Adds `n` to a 128-bit big-endian counter, mod 2^128 (for kernels).
#[allow(dead_code)]
#[inline(always)]
pub(crate) fn ctr_add(ctr: &mut [u8; 16], n: u128) {
    *ctr = u128::from_be_bytes(*ctr).wrapping_add(n).to_be_bytes();
}

/// The AES kernels, best first. `select` is the one place that chooses.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Backend {
    /// x86_64 VAES on zmm registers (assembly), with AES-NI for short and serial work.
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    VaesAvx512(cpu::arch::VaesAvx512, cpu::arch::AesNi),
    /// x86_64 VAES on ymm registers (assembly), with AES-NI for short and serial work.
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    VaesAvx2(cpu::arch::VaesAvx2, cpu::arch::AesNi),
    /// x86_64 AES-NI, 8 blocks interleaved.
    #[cfg(target_arch = "x86_64")]
    AesNi(cpu::arch::AesNi),
    /// aarch64 ARMv8 crypto extensions, 8 blocks interleaved.
    #[cfg(target_arch = "aarch64")]
    ArmV8Ce(cpu::arch::AesCe),
    /// 32-bit ARM crypto extensions (asm/arm/aes_armv8.S), 4 blocks interleaved.
    #[cfg(all(target_arch = "arm", simdcrypt_asm))]
    ArmV7Ce(cpu::arch::ArmAes),
    /// 32-bit ARM NEON fixsliced (bitsliced) AES (asm/arm/aes_bs_neon.S), 8 blocks per
    /// batch, for cores without the AES instructions, with the NEON vector-permute kernel
    /// (asm/arm/aes_vpaes_neon.S, one block at a time) for short and serial work.
    #[cfg(all(target_arch = "arm", simdcrypt_asm))]
    ArmV7NeonBs(cpu::arch::ArmNeon),
    /// x86_64 GFNI AES (assembly): the S-box and MixColumns' products as GFNI affine
    /// transforms, 16 blocks per step on zmm, one block at a time on xmm for CBC encryption;
    /// for CPUs (or VMs) that show GFNI and AVX-512 but not AES-NI.
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    Gfni(cpu::arch::GfniAvx512),
    /// x86_64 AVX-512 fixsliced (bitsliced) AES (assembly), 32 blocks per batch, for CPUs
    /// without AES-NI, with the AVX2 kernel for the rest.
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    Avx512Bs(cpu::arch::Avx512Bw, cpu::arch::Avx2, cpu::arch::Ssse3),
    /// x86_64 AVX2 fixsliced (bitsliced) AES, 16 blocks per batch, for CPUs without AES-NI,
    /// with the SSSE3 vector-permute kernel for short and serial work.
    #[cfg(target_arch = "x86_64")]
    Avx2Bs(cpu::arch::Avx2, cpu::arch::Ssse3),
    /// x86_64 SSSE3 vector-permute AES (`pshufb` S-box), 2 blocks interleaved.
    #[cfg(target_arch = "x86_64")]
    VpaesSsse3(cpu::arch::Ssse3),
    /// aarch64 NEON fixsliced (bitsliced) AES, 8 blocks per batch, for cores without the
    /// AES instructions (ECB, CTR, CBC decryption), with the NEON vector-permute kernel
    /// (`tbl` S-box, 2 blocks interleaved) for short and serial work.
    #[cfg(target_arch = "aarch64")]
    NeonBs(cpu::arch::Neon),
    /// Portable fixsliced AES on the machine word.
    Soft,
}

impl Dispatch for Backend {
    fn select(f: Features) -> Self {
        #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
        if let (Some(v), Some(a)) = (
            f.get::<cpu::arch::VaesAvx512>(),
            f.get::<cpu::arch::AesNi>(),
        ) {
            return Backend::VaesAvx512(v, a);
        }
        #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
        if let (Some(v), Some(a)) = (f.get::<cpu::arch::VaesAvx2>(), f.get::<cpu::arch::AesNi>()) {
            return Backend::VaesAvx2(v, a);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = f.get::<cpu::arch::AesNi>() {
            return Backend::AesNi(t);
        }
        #[cfg(target_arch = "aarch64")]
        if let Some(t) = f.get::<cpu::arch::AesCe>() {
            return Backend::ArmV8Ce(t);
        }
        #[cfg(all(target_arch = "arm", simdcrypt_asm))]
        if let Some(t) = f.get::<cpu::arch::ArmAes>() {
            return Backend::ArmV7Ce(t);
        }
        #[cfg(all(target_arch = "arm", simdcrypt_asm))]
        if let Some(t) = f.get::<cpu::arch::ArmNeon>() {
            return Backend::ArmV7NeonBs(t);
        }
        #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
        if let Some(t) = f.get::<cpu::arch::GfniAvx512>() {
            return Backend::Gfni(t);
        }
        #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
        if let (Some(k), Some(v), Some(s)) = (
            f.get::<cpu::arch::Avx512Bw>(),
            f.get::<cpu::arch::Avx2>(),
            f.get::<cpu::arch::Ssse3>(),
        ) {
            return Backend::Avx512Bs(k, v, s);
        }
        #[cfg(target_arch = "x86_64")]
        if let (Some(v), Some(s)) = (f.get::<cpu::arch::Avx2>(), f.get::<cpu::arch::Ssse3>()) {
            return Backend::Avx2Bs(v, s);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = f.get::<cpu::arch::Ssse3>() {
            return Backend::VpaesSsse3(t);
        }
        #[cfg(target_arch = "aarch64")]
        if let Some(t) = f.get::<cpu::arch::Neon>() {
            return Backend::NeonBs(t);
        }
        let _ = f;
        Backend::Soft
    }

    fn name(self) -> &'static str {
        match self {
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::VaesAvx512(..) => "vaes-avx512",
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::VaesAvx2(..) => "vaes-avx2",
            #[cfg(target_arch = "x86_64")]
            Backend::AesNi(_) => "aes-ni",
            #[cfg(target_arch = "aarch64")]
            Backend::ArmV8Ce(_) => "armv8-ce",
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmV7Ce(_) => "armv7-ce",
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmV7NeonBs(_) => "bitsliced-neon",
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::Gfni(_) => "gfni-avx512",
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::Avx512Bs(..) => "bitsliced-avx512",
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2Bs(..) => "bitsliced-avx2",
            #[cfg(target_arch = "x86_64")]
            Backend::VpaesSsse3(_) => "vpaes-ssse3",
            #[cfg(target_arch = "aarch64")]
            Backend::NeonBs(_) => "bitsliced-neon",
            Backend::Soft => soft_name(),
        }
    }

    fn key(self) -> u64 {
        match self {
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::VaesAvx512(..) => <cpu::arch::VaesAvx512 as cpu::Token>::KEY,
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::VaesAvx2(..) => <cpu::arch::VaesAvx2 as cpu::Token>::KEY,
            #[cfg(target_arch = "x86_64")]
            Backend::AesNi(_) => <cpu::arch::AesNi as cpu::Token>::KEY,
            #[cfg(target_arch = "aarch64")]
            Backend::ArmV8Ce(_) => <cpu::arch::AesCe as cpu::Token>::KEY,
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmV7Ce(_) => <cpu::arch::ArmAes as cpu::Token>::KEY,
            #[cfg(all(target_arch = "arm", simdcrypt_asm))]
            Backend::ArmV7NeonBs(_) => <cpu::arch::ArmNeon as cpu::Token>::KEY,
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::Gfni(_) => <cpu::arch::GfniAvx512 as cpu::Token>::KEY,
            #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
            Backend::Avx512Bs(..) => <cpu::arch::Avx512Bw as cpu::Token>::KEY,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2Bs(..) => <cpu::arch::Avx2 as cpu::Token>::KEY,
            #[cfg(target_arch = "x86_64")]
            Backend::VpaesSsse3(_) => <cpu::arch::Ssse3 as cpu::Token>::KEY,
            #[cfg(target_arch = "aarch64")]
            Backend::NeonBs(_) => <cpu::arch::Neon as cpu::Token>::KEY,
            Backend::Soft => 0,
        }
    }
}

/// The portable kernel for this target's word size.
const fn soft_name() -> &'static str {
    if cfg!(target_pointer_width = "64") {
        "bitsliced-64"
    } else {
        "bitsliced-32"
    }
}

/// An expanded key, in the format of the kernel chosen for it.
// The variants differ in size (bitsliced-avx2 carries 1.4 KB: the 64-bit bitsliced keys and
// the vpaes keys for serial modes); a key is expanded once and used in place, and boxing
// would need `alloc`.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
enum Inner {
    #[cfg(target_arch = "x86_64")]
    Avx2Bs(x86_64_avx2bs::Avx2Bs),
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    Avx512Bs(x86_64_avx512bs::Avx512Bs),
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    Gfni(x86_64_gfni::Gfni),
    #[cfg(target_pointer_width = "64")]
    Soft64(soft64::Soft64),
    #[cfg(target_pointer_width = "32")]
    Soft32(soft32::Soft32),
    #[cfg(target_arch = "aarch64")]
    ArmV8Ce(aarch64_ce::AesCeKey),
    #[cfg(all(target_arch = "arm", simdcrypt_asm))]
    ArmV7Ce(arm::ArmAesKey),
    #[cfg(all(target_arch = "arm", simdcrypt_asm))]
    ArmV7NeonBs(arm_neon_bs::NeonBs),
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    VaesAvx512(x86_64_vaes::Vaes512),
    #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
    VaesAvx2(x86_64_vaes::Vaes256),
    #[cfg(target_arch = "x86_64")]
    AesNi(x86_64_aesni::Key),
    #[cfg(target_arch = "x86_64")]
    VpaesSsse3(x86_64_ssse3::VpaesSsse3),
    #[cfg(target_arch = "aarch64")]
    NeonBs(aarch64_neon_bs::NeonBs),
}

pub(crate) mod sealed {
    use super::{Backend, Inner, Kernel};

    use crate::cpu::{Dispatch, Features};

    /// `on_kernel!(cipher, k => expr)`: `expr` with `k` bound to the key's kernel, one match
    /// arm per kernel (static dispatch: the kernel's safe wrapper can inline into the caller).
    macro_rules! on_kernel {
        ($self:expr, $k:ident => $body:expr) => {
            match &$self.inner {
                #[cfg(target_arch = "x86_64")]
                Inner::Avx2Bs($k) => $body,
                #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
                Inner::Avx512Bs($k) => $body,
                #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
                Inner::Gfni($k) => $body,
                #[cfg(target_pointer_width = "64")]
                Inner::Soft64($k) => $body,
                #[cfg(target_pointer_width = "32")]
                Inner::Soft32($k) => $body,
                #[cfg(target_arch = "aarch64")]
                Inner::ArmV8Ce($k) => $body,
                #[cfg(all(target_arch = "arm", simdcrypt_asm))]
                Inner::ArmV7Ce($k) => $body,
                #[cfg(all(target_arch = "arm", simdcrypt_asm))]
                Inner::ArmV7NeonBs($k) => $body,
                #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
                Inner::VaesAvx512($k) => $body,
                #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
                Inner::VaesAvx2($k) => $body,
                #[cfg(target_arch = "x86_64")]
                Inner::AesNi($k) => $body,
                #[cfg(target_arch = "x86_64")]
                Inner::VpaesSsse3($k) => $body,
                #[cfg(target_arch = "aarch64")]
                Inner::NeonBs($k) => $body,
            }
        };
    }

    /// A key of any size, expanded for its kernel. Public only inside this private module,
    /// so that [`super::BlockCipher`] can name it without making it part of the API.
    #[derive(Clone)]
    pub struct Cipher {
        inner: Inner,
        pub(super) backend: Backend,
    }

    impl Cipher {
        pub(super) fn new(f: Features, key: &[u8]) -> Cipher {
            debug_assert!(matches!(key.len(), 16 | 24 | 32));
            let backend = Backend::select(f);
            let inner = match backend {
                #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
                Backend::VaesAvx512(v, a) => {
                    Inner::VaesAvx512(super::x86_64_vaes::Vaes512::new(v, a, key))
                }
                #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
                Backend::VaesAvx2(v, a) => {
                    Inner::VaesAvx2(super::x86_64_vaes::Vaes256::new(v, a, key))
                }
                #[cfg(target_arch = "x86_64")]
                Backend::AesNi(t) => Inner::AesNi(super::x86_64_aesni::Key::new(t, key)),
                #[cfg(target_arch = "aarch64")]
                Backend::ArmV8Ce(t) => Inner::ArmV8Ce(super::aarch64_ce::AesCeKey::new(t, key)),
                #[cfg(all(target_arch = "arm", simdcrypt_asm))]
                Backend::ArmV7Ce(t) => Inner::ArmV7Ce(super::arm::ArmAesKey::new(t, key)),
                #[cfg(all(target_arch = "arm", simdcrypt_asm))]
                Backend::ArmV7NeonBs(t) => {
                    Inner::ArmV7NeonBs(super::arm_neon_bs::NeonBs::new(t, key))
                }
                #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
                Backend::Gfni(t) => Inner::Gfni(super::x86_64_gfni::Gfni::new(t, key)),
                #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
                Backend::Avx512Bs(k, v, s) => {
                    Inner::Avx512Bs(super::x86_64_avx512bs::Avx512Bs::new(k, v, s, key))
                }
                #[cfg(target_arch = "x86_64")]
                Backend::Avx2Bs(v, s) => {
                    Inner::Avx2Bs(super::x86_64_avx2bs::Avx2Bs::new(v, s, key))
                }
                #[cfg(target_arch = "x86_64")]
                Backend::VpaesSsse3(t) => {
                    Inner::VpaesSsse3(super::x86_64_ssse3::VpaesSsse3::new(t, key))
                }
                #[cfg(target_arch = "aarch64")]
                Backend::NeonBs(t) => Inner::NeonBs(super::aarch64_neon_bs::NeonBs::new(t, key)),
                #[cfg(target_pointer_width = "64")]
                Backend::Soft => Inner::Soft64(super::soft64::Soft64::new(key)),
                #[cfg(target_pointer_width = "32")]
                Backend::Soft => Inner::Soft32(super::soft32::Soft32::new(key)),
            };
            Cipher { inner, backend }
        }

        /// Runs `$body` with `$k` bound to this key's kernel: one match per call (per message,
        /// never per block), static dispatch into the kernel's safe wrapper.
        #[inline]
        pub(crate) fn encrypt(&self, data: &mut [u8]) {
            on_kernel!(self, k => k.encrypt(data))
        }
        #[inline]
        pub(crate) fn decrypt(&self, data: &mut [u8]) {
            on_kernel!(self, k => k.decrypt(data))
        }
        #[inline]
        pub(crate) fn ctr(&self, ctr: &mut [u8; 16], data: &mut [u8]) {
            on_kernel!(self, k => k.ctr(ctr, data))
        }
        #[inline]
        pub(crate) fn cbc_encrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
            on_kernel!(self, k => k.cbc_encrypt(iv, data))
        }
        #[inline]
        pub(crate) fn cbc_decrypt(&self, iv: &mut [u8; 16], data: &mut [u8]) {
            on_kernel!(self, k => k.cbc_decrypt(iv, data))
        }
        #[inline]
        pub(crate) fn ige_encrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
            on_kernel!(self, k => k.ige_encrypt(iv, data))
        }
        #[inline]
        pub(crate) fn ige_decrypt(&self, iv: &mut [u8; 32], data: &mut [u8]) {
            on_kernel!(self, k => k.ige_decrypt(iv, data))
        }

        /// If this key is for the 512-bit VAES kernel: its token, encryption round keys and
        /// Nr, for the stitched AES-GCM kernel (`src/aead/aes_gcm/x86_64_vaes.rs`).
        #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
        #[inline]
        pub(crate) fn vaes512_parts(
            &self,
        ) -> Option<(crate::cpu::arch::VaesAvx512, &[[u8; 16]; 15], usize)> {
            match &self.inner {
                Inner::VaesAvx512(k) => Some(k.gcm_parts()),
                _ => None,
            }
        }

        /// If this key is for the ARMv8 crypto-extension kernel: its token, encryption round
        /// keys and Nr, for the stitched AES-GCM kernel (`src/aead/aes_gcm/aarch64_ce.rs`).
        #[cfg(target_arch = "aarch64")]
        #[inline]
        pub(crate) fn armv8_parts(
            &self,
        ) -> Option<(crate::cpu::arch::AesCe, &[[u8; 16]; 15], usize)> {
            match &self.inner {
                Inner::ArmV8Ce(k) => Some(k.gcm_parts()),
                _ => None,
            }
        }

        /// If this key is for the 256-bit VAES kernel: its token, encryption round keys and
        /// Nr, for the stitched AES-GCM kernel (`src/aead/aes_gcm/x86_64_vaes_avx2.rs`).
        #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
        #[inline]
        pub(crate) fn vaes256_parts(
            &self,
        ) -> Option<(crate::cpu::arch::VaesAvx2, &[[u8; 16]; 15], usize)> {
            match &self.inner {
                Inner::VaesAvx2(k) => Some(k.gcm_parts()),
                _ => None,
            }
        }

        /// If this key is for the AES-NI kernel: its token, encryption round keys and Nr, for
        /// the stitched AES-GCM kernel (`src/aead/aes_gcm/x86_64_aesni.rs`).
        #[cfg(all(target_arch = "x86_64", simdcrypt_asm))]
        #[inline]
        pub(crate) fn aesni_parts(
            &self,
        ) -> Option<(crate::cpu::arch::AesNi, &[[u8; 16]; 15], usize)> {
            match (&self.inner, self.backend) {
                (Inner::AesNi(k), Backend::AesNi(t)) => Some((t, k.enc_keys(), k.rounds())),
                _ => None,
            }
        }
    }

    pub trait Sealed {
        fn cipher(&self) -> &Cipher;
    }
}

/// An AES key of one of the three sizes: what the modes [`Ctr`], [`Cbc`] and [`Ige`] are
/// generic over. Implemented by [`Aes128`], [`Aes192`] and [`Aes256`] only.
pub trait BlockCipher: sealed::Sealed {
    /// The key length in bytes.
    const KEY_LEN: usize;
    /// The kernel this key uses (e.g. `"aes-ni"`, `"bitsliced-64"`).
    fn backend(&self) -> &'static str {
        self.cipher().backend.name()
    }
}

macro_rules! aes_type {
    ($(#[$doc:meta])* $name:ident, $len:literal, $bits:literal) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name {
            c: sealed::Cipher,
        }

        impl $name {
            /// Expands `key` for the fastest kernel this CPU has (less `SIMDCRYPT_DISABLE`).
            #[inline]
            pub fn new(key: &[u8; $len]) -> Self {
                Self::new_with(Features::detect(), key)
            }

            /// Expands `key` for the kernel that `features` selects (tests, benchmarks and
            /// comparisons use this with a reduced [`Features`]).
            pub fn new_with(features: Features, key: &[u8; $len]) -> Self {
                $name { c: sealed::Cipher::new(features, key) }
            }

            /// Like [`Self::new`] for a key given as a slice: `Err(InvalidLength)` unless it
            /// has exactly the key length.
            pub fn from_slice(key: &[u8]) -> Result<Self, Error> {
                let key: &[u8; $len] = key.try_into().map_err(|_| Error::InvalidLength)?;
                Ok(Self::new(key))
            }

            /// Encrypts one block in place.
            #[inline]
            pub fn encrypt_block(&self, block: &mut [u8; 16]) {
                self.c.encrypt(block);
            }

            /// Decrypts one block in place.
            #[inline]
            pub fn decrypt_block(&self, block: &mut [u8; 16]) {
                self.c.decrypt(block);
            }

            /// Encrypts each block in place (ECB); independent blocks run in parallel.
            #[inline]
            pub fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
                self.c.encrypt(blocks.as_flattened_mut());
            }

            /// Decrypts each block in place (ECB).
            #[inline]
            pub fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
                self.c.decrypt(blocks.as_flattened_mut());
            }

            /// The kernel this key uses (e.g. `"aes-ni"`, `"bitsliced-64"`).
            pub fn backend(&self) -> &'static str {
                self.c.backend.name()
            }

            /// The kernel a key made with `features` would use.
            pub fn backend_for(features: Features) -> &'static str {
                Backend::select(features).name()
            }

            /// Every kernel reachable from `features`, best first, each with a feature set
            /// that selects it (for [`Self::new_with`]).
            pub fn backends(features: Features) -> impl Iterator<Item = (&'static str, Features)> {
                cpu::backends::<Backend>(features)
            }
        }

        impl sealed::Sealed for $name {
            fn cipher(&self) -> &sealed::Cipher {
                &self.c
            }
        }
        impl BlockCipher for $name {
            const KEY_LEN: usize = $len;
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                // Never the key.
                f.debug_struct(stringify!($name)).field("backend", &self.backend()).finish()
            }
        }
    };
}

aes_type!(
    /// AES-128 (FIPS 197): a 16-byte key, 10 rounds. The round keys are wiped on drop.
    Aes128, 16, 128
);
aes_type!(
    /// AES-192: a 24-byte key, 12 rounds. The round keys are wiped on drop.
    Aes192, 24, 192
);
aes_type!(
    /// AES-256: a 32-byte key, 14 rounds. The round keys are wiped on drop.
    Aes256, 32, 256
);

/// PKCS#7 padding (RFC 5652 §6.3): writes the padding after the first `msg_len` bytes of
/// `buf` and returns the padded prefix (1 to 16 bytes longer than the message, a whole
/// number of blocks). `Err(InvalidLength)` if `buf` is too short.
///
/// ```
/// let mut buf = [0u8; 32];
/// buf[..5].copy_from_slice(b"hello");
/// let padded = simdcrypt::aes::pkcs7_pad(&mut buf, 5)?;
/// assert_eq!(padded.len(), 16);
/// assert_eq!(simdcrypt::aes::pkcs7_unpad(padded)?, b"hello");
/// # Ok::<(), simdcrypt::Error>(())
/// ```
pub fn pkcs7_pad(buf: &mut [u8], msg_len: usize) -> Result<&mut [u8], Error> {
    let pad = 16 - msg_len % 16;
    let total = msg_len.checked_add(pad).ok_or(Error::InvalidLength)?;
    if total > buf.len() {
        return Err(Error::InvalidLength);
    }
    buf[msg_len..total].fill(pad as u8);
    Ok(&mut buf[..total])
}

/// Removes PKCS#7 padding, in constant time with respect to the contents of the last block
/// (a padding oracle learns nothing from timing): `Err(BadPadding)` unless the last byte `n`
/// is in 1..=16 and the last `n` bytes all equal `n`; `Err(InvalidLength)` unless `data` is a
/// non-empty whole number of blocks.
pub fn pkcs7_unpad(data: &[u8]) -> Result<&[u8], Error> {
    if data.is_empty() || data.len() % 16 != 0 {
        return Err(Error::InvalidLength);
    }
    let last: &[u8] = &data[data.len() - 16..];
    let n = u32::from(last[15]);
    // bad != 0 iff n == 0 or n > 16 or some of the last n bytes differ from n.
    let mut bad: u32 = ct_is_zero(n) | ct_lt(16, n);
    for (i, &b) in last.iter().enumerate() {
        // Byte i (0..16) lies in the padding iff 16 - i <= n, i.e. i >= 16 - n.
        let in_pad = ct_lt(15 - i as u32, n); // 15 - i < n
        bad |= in_pad & !ct_is_zero(u32::from(b) ^ n) & 1;
    }
    let bad = crate::ct::declassify(bad as u8);
    if bad != 0 {
        return Err(Error::BadPadding);
    }
    let n = crate::ct::declassify(last[15]) as usize;
    Ok(&data[..data.len() - n])
}

/// 1 if `x == 0` else 0, without branches.
#[inline(always)]
fn ct_is_zero(x: u32) -> u32 {
    // For x != 0, x | -x has the top bit set.
    1 ^ ((x | x.wrapping_neg()) >> 31)
}

/// 1 if `a < b` else 0 (both < 2^31), without branches.
#[inline(always)]
fn ct_lt(a: u32, b: u32) -> u32 {
    a.wrapping_sub(b) >> 31
}
