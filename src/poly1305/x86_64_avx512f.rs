//! Poly1305 (RFC 8439 §2.5) with AVX-512F (no IFMA): the safe wrapper of the radix-2^26 loop
//! in `asm/x86_64/poly1305_avx512.S`, sixteen interleaved Horner lanes (two sets of eight
//! elements), for CPUs with AVX-512F but without AVX-512 IFMA (Skylake-SP, Cascade Lake).
//!
//! The layout of the table and of the lane sums, and the split of a call between the loop
//! and the AVX2 kernel, are those of the IFMA kernel (`x86_64_avx512`, whose module doc has
//! them) in radix 2^26: the multiplier vectors are the AVX2 kernel's [`Mults`] (r0..r4,
//! 5·r1..5·r4) over eight elements, the accumulator enters as five limbs of element 0 and
//! comes back as the lane sums.
//!
//! Rust 1.85 (our MSRV) cannot enable the `avx512*` target features, so the loop is assembly;
//! the token [`Avx512`] proves its instructions exist.

use super::x86_64_avx2::{self as avx2, Avx2Key, Mults, from_limbs26, powers26};
use super::x86_64_avx512::{GROUP, exponent};
use super::{Kernel, State};
use crate::cpu::arch::{Avx2, Avx512};

unsafe extern "sysv64" {
    /// Absorbs `ngroups ≥ 1` groups of 16 blocks at `data` into the radix-2^26 limbs `h` and
    /// stores the lane sums of the two sets in `out`. Needs AVX512F.
    fn simdcrypt_poly1305_avx512(
        h: *const [u64; 5],
        tab: *const Tab26,
        data: *const u8,
        ngroups: usize,
        out: *mut [[u64; 8]; 5],
    );
}

/// Below this many blocks a call goes to the AVX2 key while the key has no table yet (as
/// `x86_64_avx512::IFMA_FIRST_MIN_BLOCKS`): making the table costs about 550 cycles here
/// (measured), the AVX2 key's own first tables about 150.
const AVX512_FIRST_MIN_BLOCKS: usize = 320;

/// The multiplier vectors of the radix-2^26 loop, sets as in the IFMA kernel's table, each in the AVX2
/// kernel's [`Mults`] layout (r0..r4, 5·r1..5·r4) over eight elements.
#[repr(C, align(64))]
struct Tab26 {
    m: [Mults<8>; 3],
}

impl Tab26 {
    fn new(r: &[u64; 2]) -> Self {
        let mut pw = powers26::<16>(r);
        let set = |s: usize| Mults::new(core::array::from_fn(|e| &pw[exponent(s, e) - 1]));
        let tab = Tab26 {
            m: [set(0), set(1), set(2)],
        };
        crate::wipe::wipe(&mut pw);
        tab
    }
}

impl Drop for Tab26 {
    fn drop(&mut self) {
        for m in self.m.iter_mut() {
            m.wipe();
        }
    }
}

/// A Poly1305 key for the AVX-512F kernel (and the AVX2 kernel for the rest); the table is
/// made at the first call of at least one group.
pub(crate) struct Avx512Key {
    _t: Avx512,
    avx2: Avx2Key,
    r: [u64; 2],
    tab: Option<Tab26>,
}

/// A key for the AVX-512F kernel.
pub(crate) fn new_avx512(t: Avx512, t2: Avx2, r: &[u64; 2]) -> Avx512Key {
    Avx512Key {
        _t: t,
        avx2: avx2::new(t2, r),
        r: *r,
        tab: None,
    }
}

impl Avx512Key {
    fn tab(&mut self) -> &Tab26 {
        self.tab.get_or_insert_with(|| Tab26::new(&self.r))
    }
}

impl Drop for Avx512Key {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.r);
    }
}

impl Kernel for Avx512Key {
    fn blocks(&mut self, st: &mut State, data: &[u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        let groups = data.len() / (16 * GROUP);
        if groups == 0 || (data.len() / 16 < AVX512_FIRST_MIN_BLOCKS && self.tab.is_none()) {
            self.avx2.blocks(st, data);
            return;
        }
        let (wide, rest) = data.split_at(groups * 16 * GROUP);
        let mut hl = avx2::to_limbs26(&st.h);
        let mut out = [[0u64; 8]; 5];
        // SAFETY: the token in `self` proves AVX512F; `hl` is five readable words, `self.tab`
        // the 1728-byte table, `wide` `groups ≥ 1` whole groups (only read), `out` 5 × 8
        // writable words.
        unsafe { simdcrypt_poly1305_avx512(&hl, self.tab(), wide.as_ptr(), groups, &mut out) };
        // Each element's limbs are below 2^27: the sums stay far below 2^63.
        for (l, o) in hl.iter_mut().zip(out.iter()) {
            *l = o.iter().sum();
        }
        st.h = from_limbs26(hl);
        crate::wipe::wipe(&mut hl);
        crate::wipe::wipe(&mut out);
        if !rest.is_empty() {
            self.avx2.blocks(st, rest);
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::x86_64_avx2::tests::{Rng, cross_check, fresh_check, reduce};
    use super::*;
    use crate::abi_test::abi_call;
    use crate::cpu::Features;

    fn t_avx512() -> Option<(Avx512, Avx2)> {
        let f = Features::hardware();
        let t = f.get::<Avx512>().zip(f.get::<Avx2>());
        if t.is_none() {
            std::eprintln!("poly1305 avx512: CPU lacks AVX-512F; kernel not tested");
        }
        t
    }

    #[test]
    fn avx512_against_portable() {
        let Some((t, t2)) = t_avx512() else { return };
        cross_check(|r| new_avx512(t, t2, r), 3 * GROUP + 3);
        cross_check(|r| new_avx512(t, t2, r), 4 * GROUP + 9);
    }

    /// The warm-up of `cross_check` (320 blocks) makes the table, so that it tests the loop.
    #[test]
    fn warm_up_makes_table() {
        let data = [0x5a; 16 * 320];
        if let Some((t, t2)) = t_avx512() {
            let mut k = new_avx512(t, t2, &[1, 4]);
            k.blocks(&mut State::default(), &data);
            assert!(k.tab.is_some());
        }
    }

    #[test]
    fn avx512_fresh_keys() {
        let Some((t, t2)) = t_avx512() else { return };
        fresh_check(|r| new_avx512(t, t2, r));
    }

    #[test]
    fn abi_avx512() {
        let Some((t, t2)) = t_avx512() else { return };
        let mut rng = Rng(98);
        for groups in [1usize, 2, 3] {
            let r = rng.r(groups == 2);
            let mut key = new_avx512(t, t2, &r);
            let buf = rng.bytes(groups * 256 + 1);
            let data = &buf[1..];
            let h0 = rng.h(groups as u64 + 2);
            let hl = avx2::to_limbs26(&h0);
            let mut out = [[0u64; 8]; 5];
            let args = [
                core::ptr::from_ref(&hl) as usize,
                core::ptr::from_ref(key.tab()) as usize,
                data.as_ptr() as usize,
                groups,
                core::ptr::from_mut(&mut out) as usize,
            ];
            // SAFETY: the token proves the features; the arguments are what `blocks` passes:
            // five limbs, the table, `groups` whole groups (unaligned), the output rows.
            let (_, rep) = unsafe { abi_call(simdcrypt_poly1305_avx512 as *const (), &args) };
            rep.assert_clean();
            let sums = [0, 1, 2, 3, 4].map(|i| out[i].iter().sum());
            let mut want = State { h: h0 };
            super::super::soft64::new(&r).blocks(&mut want, data);
            assert_eq!(
                reduce(from_limbs26(sums)),
                reduce(want.h),
                "{groups} groups"
            );
        }
    }
}
