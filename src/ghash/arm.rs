//! GHASH on 32-bit ARM: the safe wrappers of `asm/arm/ghash_armv8.S` (VMULL.P64, AArch32
//! crypto extension) and `asm/arm/ghash_neon.S` (NEON only, 64-bit carry-less multiplies built
//! from VMULL.P8). 32-bit ARM NEON and crypto intrinsics are unstable in Rust, hence assembly.
//!
//! Both kernels take H as `hz` = H·x^−1 in GF(2^128) (the VMULL.P64 one also H^2..H^4 likewise,
//! for its 4-block aggregated step), in the bit-reflected representation the
//! assembly uses (a block read as one 128-bit big-endian integer: the coefficient of x^i at
//! bit 127 − i, SP 800-38D §6.3). Multiplying by x^−1 there is a one-bit shift towards bit
//! 127, reduced by the reflected polynomial: this folds the extra factor x of the reflected
//! carry-less product into the key (Gueron & Kounavis, 2014; see ghash_armv8.S). It is computed
//! here, without a branch or a table, so the assembly needs no set-up code.
//!
//! The assembly functions are not `#[target_feature]` fns, so the token inside each key is
//! what proves the instructions exist; the `extern` declarations stay private to this file.

use super::Kernel;
use crate::cpu::arch::{ArmNeon, ArmPmull};
use crate::wipe::wipe;

unsafe extern "C" {
    /// Needs VMULL.P64 + NEON. `y` is 16 bytes, `htable` 64 (H^i·x^−1, i = 1..4, as [`hz`]
    /// gives them), `data` holds `nblocks` blocks (any alignment); `nblocks == 0` is a no-op.
    /// Reads `htable` and `data`, reads and writes `y`.
    fn simdcrypt_ghash_armv8(y: *mut u8, htable: *const u8, data: *const u8, nblocks: usize);
    /// Needs NEON. As above with `hz` = H·x^−1 alone (16 bytes): one block at a time.
    fn simdcrypt_ghash_neon(y: *mut u8, hz: *const u8, data: *const u8, nblocks: usize);
}

/// H·x^−1 in the kernels' representation, as the 16 bytes they load.
fn hz(h: &[u8; 16]) -> [u8; 16] {
    let v = u128::from_be_bytes(*h);
    // The bit shifted out is z^128 ≡ z^127 + z^126 + z^121 + 1 (z = x^−1) when set: a mask,
    // not a branch, since H is secret.
    let carry = 0u128.wrapping_sub(v >> 127);
    ((v << 1) ^ (carry & 0xc200_0000_0000_0000_0000_0000_0000_0001)).to_be_bytes()
}

/// H for the VMULL.P64 kernel: `htable[i]` = H^(i+1)·x^−1 for the 4-block aggregated step.
#[derive(Clone)]
pub(crate) struct ArmPmullKey {
    t: ArmPmull,
    htable: [[u8; 16]; 4],
}

/// Expands `h` (= E_K(0^128), SP 800-38D byte order).
pub(crate) fn new_pmull(t: ArmPmull, h: &[u8; 16]) -> ArmPmullKey {
    let mut k = ArmPmullKey {
        t,
        htable: [[0; 16]; 4],
    };
    k.htable[0] = hz(h);
    // H^(i+1) = H^i·H: one block through the kernel, which uses only `htable[0]` for fewer
    // than four blocks.
    let mut p = *h;
    for i in 1..4 {
        let mut y = [0u8; 16];
        update_pmull(t, &k.htable, &mut y, &p);
        p = y;
        k.htable[i] = hz(&p);
    }
    wipe(&mut p);
    k
}

impl Drop for ArmPmullKey {
    fn drop(&mut self) {
        wipe(&mut self.htable);
    }
}

fn update_pmull(_t: ArmPmull, htable: &[[u8; 16]; 4], y: &mut [u8; 16], data: &[u8]) {
    let n = data.len() / 16;
    // SAFETY: the token proves VMULL.P64 and NEON; `y` is 16 bytes, `htable` 64; the kernel
    // reads exactly the n whole blocks of `data`.
    unsafe { simdcrypt_ghash_armv8(y.as_mut_ptr(), htable.as_ptr().cast(), data.as_ptr(), n) }
}

impl Kernel for ArmPmullKey {
    fn update(&self, y: &mut [u8; 16], data: &[u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        update_pmull(self.t, &self.htable, y, data);
    }
}

/// H for the NEON (VMULL.P8) kernel.
#[derive(Clone)]
pub(crate) struct ArmNeonKey {
    t: ArmNeon,
    hz: [u8; 16],
}

/// Expands `h` (= E_K(0^128), SP 800-38D byte order).
pub(crate) fn new_neon(t: ArmNeon, h: &[u8; 16]) -> ArmNeonKey {
    ArmNeonKey { t, hz: hz(h) }
}

impl Drop for ArmNeonKey {
    fn drop(&mut self) {
        wipe(&mut self.hz);
    }
}

fn update_neon(_t: ArmNeon, hz: &[u8; 16], y: &mut [u8; 16], data: &[u8]) {
    let n = data.len() / 16;
    // SAFETY: the token proves NEON; `y` and `hz` are 16 bytes; the kernel reads exactly the
    // n whole blocks of `data`.
    unsafe { simdcrypt_ghash_neon(y.as_mut_ptr(), hz.as_ptr(), data.as_ptr(), n) }
}

impl Kernel for ArmNeonKey {
    fn update(&self, y: &mut [u8; 16], data: &[u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        update_neon(self.t, &self.hz, y, data);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::arm_kat;
    use super::*;
    use crate::abi_test::abi_call;
    use crate::cpu::Features;
    use crate::sha::test_util::bytes;
    use std::boxed::Box;
    use std::vec::Vec;

    /// The kernels this CPU can run, as constructors from H; says once which ones it cannot.
    fn kernels() -> Vec<(&'static str, Box<dyn Fn(&[u8; 16]) -> Box<dyn Kernel>>)> {
        static SAID: std::sync::Once = std::sync::Once::new();
        let f = Features::hardware();
        let mut v: Vec<(&'static str, Box<dyn Fn(&[u8; 16]) -> Box<dyn Kernel>>)> = Vec::new();
        if let Some(t) = f.get::<ArmPmull>() {
            v.push(("armv7-pmull", Box::new(move |h| Box::new(new_pmull(t, h)))));
        }
        if let Some(t) = f.get::<ArmNeon>() {
            v.push(("armv7-neon", Box::new(move |h| Box::new(new_neon(t, h)))));
        }
        SAID.call_once(|| {
            if f.get::<ArmPmull>().is_none() {
                std::eprintln!("ghash armv7-pmull: CPU has no VMULL.P64; kernel not tested");
            }
            if f.get::<ArmNeon>().is_none() {
                std::eprintln!("ghash armv7-neon: CPU has no NEON; kernel not tested");
            }
        });
        v
    }

    #[test]
    fn known_answers() {
        for (name, new) in kernels() {
            arm_kat::known_answers(name, &*new);
        }
    }

    #[test]
    fn matches_portable() {
        for (name, new) in kernels() {
            arm_kat::matches_portable(name, &*new, 12);
        }
    }

    #[test]
    fn abi() {
        let f = Features::hardware();
        let h = arm_kat::block(&bytes(7, 16));
        // Each entry point with the key data its wrapper passes (kept alive for the calls).
        let pmull = f.get::<ArmPmull>().map(|t| new_pmull(t, &h));
        let neon = hz(&h);
        let mut entries: Vec<(&str, *const (), *const u8)> = Vec::new();
        if let Some(k) = &pmull {
            let table = k.htable.as_ptr().cast();
            entries.push(("armv7-pmull", simdcrypt_ghash_armv8 as *const (), table));
        }
        if f.get::<ArmNeon>().is_some() {
            entries.push((
                "armv7-neon",
                simdcrypt_ghash_neon as *const (),
                neon.as_ptr(),
            ));
        }
        for (name, func, key) in entries {
            for n in [0usize, 1, 3, 4, 9] {
                let data = bytes(40 + n as u64, 16 * n);
                let mut want = [0u8; 16];
                super::super::soft::new32(&h).update(&mut want, &data);
                let mut got = [0u8; 16];
                let args = [
                    got.as_mut_ptr() as usize,
                    key as usize,
                    data.as_ptr() as usize,
                    n,
                ];
                // SAFETY: the features were detected just above; the arguments are a 16-byte
                // Y, the key data and n blocks of data, as the wrappers pass them.
                let (_, rep) = unsafe { abi_call(func, &args) };
                rep.assert_clean();
                assert_eq!(got, want, "{name}: {n} blocks");
            }
        }
    }
}
