//! Poly1305 (RFC 8439 §2.5) with AVX-512F (no IFMA): the safe wrapper of the radix-2^26 loop
//! in `asm/x86_64/poly1305_avx512f.S`, for CPUs with AVX-512F but without AVX-512 IFMA
//! (Skylake-SP, Cascade Lake).
//!
//! Eight interleaved Horner lanes, one per 64-bit element of a zmm register; a group is eight
//! blocks, and a step sums up to eight groups before one carry, every group after the first
//! entered as 32-bit message words times precomputed `2^(32a)·r^(8k) mod p` (the AVX2
//! kernel's aggregated steps and word tables, `x86_64_avx2`, on 512 bits). The last group of
//! a call is added as limbs and every lane multiplied once by its own power `r^(8−π(e))`, so
//! that the table needs only `r^1..=r^8` and `r^8, r^16, …, r^64`. The `.S` file has the math,
//! the layout of the table ([`Tab`]) and the bounds.
//!
//! The table is made at the first call of at least [`FIRST_MIN_BLOCKS`] blocks, in place in
//! the key: `r^1..=r^8` by the portable multiplication ([`powers_by_limb`]), the rest by the
//! assembly (`simdcrypt_poly1305_avx512f_setup`: three vector squarings and a few shifts).
//! Shorter first calls, calls of fewer than [`MIN_BLOCKS`] blocks, and the last `n mod 8`
//! blocks of a call go to the AVX2 kernel (itself the portable kernel below eight blocks),
//! which each key here owns. The accumulator enters from the canonical [`State`] as limbs of
//! lane 0 and comes back as the sums of the eight lanes' limbs, carried here. The
//! table is wiped on drop, the limb copies on the stack after each call, and the assembly
//! zeroes every vector register before it returns.
//!
//! Rust 1.85 (our MSRV) cannot enable the `avx512*` target features, so the code is assembly;
//! the token [`Avx512`] proves its instructions exist.

use super::x86_64_avx2::{self as avx2, Avx2Key, from_limbs26};
use super::{Kernel, State};
use crate::cpu::arch::{Avx2, Avx512};
use core::mem::MaybeUninit;

unsafe extern "sysv64" {
    /// Absorbs `ngroups ≥ 1` groups of 8 blocks at `data` into the radix-2^26 limbs `h`
    /// (`h0..h3 < 2^26`, `h4 < 2^27`), leaving them uncarried (each below 2^60.5: the sums of
    /// the eight lanes). Needs AVX512F.
    fn simdcrypt_poly1305_avx512f(
        h: *mut [u64; 5],
        tab: *const Tab,
        data: *const u8,
        ngroups: usize,
    );
    /// Fills `tab` from `p[i][k]`, limb `i` of `r^(k+1)` (each below 2^26 + 2^10). Needs
    /// AVX512F.
    fn simdcrypt_poly1305_avx512f_setup(p: *const [[u64; 8]; 5], tab: *mut Tab);
}

/// Blocks per group (one per lane).
const GROUP: usize = 8;

/// Below this many blocks a call goes to the AVX2 key even when the table is made (one step
/// of one group and the last group, about 90 cycles, measured).
const MIN_BLOCKS: usize = 2 * GROUP;

/// Below this many blocks a call goes to the AVX2 key while the key has no table yet. The
/// table costs about 220 cycles in the assembly (measured) plus `r^2..=r^8` on the scalar
/// units, against about 150 for the AVX2 key's own tables. Measured on an Emerald Rapids
/// Xeon, fresh key per message, MB/s:
///
/// - Poly1305 alone (`simdcrypt-speed -backend`, this kernel from 64 blocks vs AVX2):
///   1024 bytes 3 885–3 918 vs 4 019–4 056, 1152 bytes 4 247–4 309 vs 4 119–4 193,
///   1280 bytes 4 387–4 503 vs 3 854–4 449: alone it wins from about 70 blocks.
/// - ChaCha20-Poly1305 with IFMA masked, whose vector MAC call is 96 blocks for a 2 KiB text
///   and 128 for 2.5 and 3 KiB: 2048 bytes 2 648–2 811 with this kernel from 72 blocks
///   against 2 852–2 931 from 160 (AVX2 for that call); 3072 bytes 3 301–3 346 from 128
///   against 3 152–3 221 from 160. Probably the 512-bit multiplies slow the ChaCha20 code
///   around them (the core clock drops for a while after them, measured for scalar code),
///   which the shorter calls do not win back: hence 128 (2 KiB).
const FIRST_MIN_BLOCKS: usize = 128;

/// Rows (eight `u64` each) of the table; see the `.S` file's header. Outside the tests only the
/// layout assertion below reads the first four, which rustc 1.85 (the MSRV) does not count as
/// a use.
#[allow(dead_code)]
mod rows {
    pub(super) const ROW_PW: usize = 0;
    pub(super) const ROW_DW: usize = 9;
    pub(super) const ROW_HB: usize = 24;
    pub(super) const ROW_FM: usize = 29;
}
use rows::{ROW_DW, ROW_FM, ROW_HB, ROW_PW};
const ROWS: usize = 38;

// The byte offsets of the `.S` file (`PW`, `DW`, `HB`, `FM`) and the table's size.
const _: () = assert!(
    64 * ROW_PW == 0
        && 64 * ROW_DW == 576
        && 64 * ROW_HB == 1536
        && 64 * ROW_FM == 1856
        && core::mem::size_of::<Tab>() == 2432
);

/// The multipliers of the loop (2432 bytes), as the assembly lays them out: rows `ROW_PW..`
/// the limbs and five times limbs 1–4 of `(r^8, r^16, …, r^64)` (element `k − 1` holds
/// `r^(8k)`), `ROW_DW + 5(a − 1) + i` limb `i` of `2^(32a)·r^(8k)` (`a = 1..=3`), `ROW_HB + i`
/// limb `i` of `Σ_{1≤u<m} 2^128·r^(8u)` in element `m − 1`, `ROW_FM..` the limbs and five
/// times limbs 1–4 of `r^(8−π(e))` in element `e`, `π = (0, 4, 1, 5, 2, 6, 3, 7)`.
#[repr(C, align(64))]
struct Tab {
    v: [[u64; 8]; ROWS],
}

impl Drop for Tab {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.v);
    }
}

/// A Poly1305 key for the AVX-512F kernel (and the AVX2 kernel for the rest); the table is
/// made at the first call of at least [`FIRST_MIN_BLOCKS`] blocks.
///
/// The table is `MaybeUninit` with a flag rather than an `Option`: the assembly writes all of
/// it in place, where `Option::insert` built a zeroed table on the stack, wiped the slot and
/// copied it in (three passes over 2432 bytes per fresh key, measured in the disassembly).
pub(crate) struct Avx512Key {
    _t: Avx512,
    avx2: Avx2Key,
    r: [u64; 2],
    made: bool,
    tab: MaybeUninit<Tab>,
}

/// A key for the AVX-512F kernel.
pub(crate) fn new_avx512(t: Avx512, t2: Avx2, r: &[u64; 2]) -> Avx512Key {
    Avx512Key {
        _t: t,
        avx2: avx2::new(t2, r),
        r: *r,
        made: false,
        tab: MaybeUninit::uninit(),
    }
}

impl Avx512Key {
    /// The table, made in place at the first use.
    fn tab(&mut self) -> &Tab {
        if !self.made {
            let mut p = powers_by_limb(&self.r);
            // SAFETY: the token in `self` proves AVX512F; `p` is 5 × 8 readable words (limbs
            // below 2^26 + 2^9, as `carry26` leaves them), `self.tab` 2432 writable bytes,
            // 64-byte aligned, every one of which the function writes.
            unsafe { simdcrypt_poly1305_avx512f_setup(&p, self.tab.as_mut_ptr()) };
            self.made = true;
            crate::wipe::wipe(&mut p);
        }
        // SAFETY: `made`: the set-up above wrote the whole table.
        unsafe { self.tab.assume_init_ref() }
    }
}

/// `r^1..=r^8` by the portable multiplication (`x86_64_avx2::powers26`, about ten cycles a
/// power on the scalar units), limb-major: `p[i][k]` is limb `i` of `r^(k+1)`, as the
/// assembly loads them. Measured: the set-up took about 400 cycles when the assembly made
/// these powers too (three more vector multiplications, each eight lanes wide for one to
/// four distinct powers).
fn powers_by_limb(r: &[u64; 2]) -> [[u64; 8]; 5] {
    let mut pw = avx2::powers26::<8>(r);
    let p = core::array::from_fn(|i| core::array::from_fn(|k| pw[k][i]));
    crate::wipe::wipe(&mut pw);
    p
}

/// A clone starts without the table: it makes its own at its first long call, so the two keys
/// share nothing and each wipes only what it made.
impl Clone for Avx512Key {
    fn clone(&self) -> Self {
        Avx512Key {
            _t: self._t,
            avx2: self.avx2.clone(),
            r: self.r,
            made: false,
            tab: MaybeUninit::uninit(),
        }
    }
}

impl Drop for Avx512Key {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.r);
        if self.made {
            // SAFETY: `made`: the table is initialised; it is dropped (wiped) once, here.
            unsafe { self.tab.assume_init_drop() };
        }
    }
}

impl Kernel for Avx512Key {
    fn blocks(&mut self, st: &mut State, data: &[u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        let nblocks = data.len() / 16;
        if nblocks < MIN_BLOCKS || (nblocks < FIRST_MIN_BLOCKS && !self.made) {
            self.avx2.blocks(st, data);
            return;
        }
        let groups = nblocks / GROUP;
        let (wide, rest) = data.split_at(groups * 16 * GROUP);
        let mut hl = avx2::to_limbs26(&st.h);
        let tab: *const Tab = self.tab();
        // SAFETY: the token in `self` proves AVX512F; `hl` is five readable and writable words
        // (as `to_limbs26` leaves them: below 2^26, the top one below 2^27), `tab` the made
        // table, `wide` `groups ≥ 2` whole groups (only read).
        unsafe { simdcrypt_poly1305_avx512f(&mut hl, tab, wide.as_ptr(), groups) };
        // Limbs below 2^60.5: `from_limbs26` carries them.
        st.h = from_limbs26(hl);
        crate::wipe::wipe(&mut hl);
        if !rest.is_empty() {
            self.avx2.blocks(st, rest);
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::soft64;
    use super::super::x86_64_avx2::tests::{
        Rng, cross_check, fresh_check, lengths_against_portable, reduce,
    };
    use super::super::x86_64_avx2::{mul26, powers26, to_limbs26};
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

    /// Steps of up to eight groups: lengths up to two full steps, a partial one and a tail.
    #[test]
    fn avx512_against_portable() {
        let Some((t, t2)) = t_avx512() else { return };
        cross_check(|r| new_avx512(t, t2, r), 2 * 8 * GROUP + 3 * GROUP + 7);
        cross_check(|r| new_avx512(t, t2, r), 4 * 8 * GROUP + GROUP + 9);
    }

    /// The warm-up of `cross_check` (320 blocks) makes the table, so that it tests the loop.
    #[test]
    fn warm_up_makes_table() {
        let data = [0x5a; 16 * 320];
        if let Some((t, t2)) = t_avx512() {
            let mut k = new_avx512(t, t2, &[1, 4]);
            k.blocks(&mut State::default(), &data);
            assert!(k.made);
        }
    }

    #[test]
    fn avx512_fresh_keys() {
        let Some((t, t2)) = t_avx512() else { return };
        fresh_check(|r| new_avx512(t, t2, r));
    }

    /// Fresh keys (the first call makes the table or not) at lengths around
    /// [`FIRST_MIN_BLOCKS`], around every step boundary up to three steps, and long calls.
    #[test]
    fn avx512_fresh_keys_long() {
        let Some((t, t2)) = t_avx512() else { return };
        let mut rng = Rng(0xf5e1);
        let lens = (FIRST_MIN_BLOCKS - 9..=FIRST_MIN_BLOCKS + 9)
            .chain((1..=3).flat_map(|s| s * 64 + GROUP - 9..=s * 64 + GROUP + 9))
            .chain([255, 256, 257, 1023, 1024, 1031]);
        for (trial, n) in lens.enumerate() {
            let r = rng.r(trial % 3 == 0);
            let mut k = new_avx512(t, t2, &r);
            lengths_against_portable(&mut k, &r, &mut rng, trial as u64, n..=n, 5);
        }
    }

    /// Every entry of the table against powers of `r` from the portable kernel (`powers26`) and
    /// an independent multiplication (`mul26`), modulo p, and within the multiplier bounds of the
    /// `.S` file (limbs below 2^26 + 2^10, the five-times rows exactly five times the limbs).
    #[test]
    fn table_matches_portable() {
        let Some((t, t2)) = t_avx512() else { return };
        let mut rng = Rng(0x7ab5);
        let pi = [0, 4, 1, 5, 2, 6, 3, 7];
        let two32 = to_limbs26(&[1 << 32, 0, 0]);
        let two128 = to_limbs26(&[0, 0, 1]);
        let bound = (1 << 26) + (1 << 10);
        for i in 0..200 {
            let r = rng.r(i % 4 == 0);
            let mut k = new_avx512(t, t2, &r);
            let v = k.tab().v;
            let pw = powers26::<64>(&r);
            let col =
                |row: usize, e: usize| -> [u64; 5] { core::array::from_fn(|l| v[row + l][e]) };
            let same =
                |a: [u64; 5], b: [u64; 5]| reduce(from_limbs26(a)) == reduce(from_limbs26(b));
            // Rows of nine: limbs below the bound, the five-times rows five times them.
            for base in [ROW_PW, ROW_FM] {
                for e in 0..8 {
                    let l = col(base, e);
                    // Rows `base + 5..base + 9` hold five times limbs 1..=4.
                    let f = col(base + 4, e);
                    assert!(l.iter().all(|&x| x < bound), "{i} {base} {e} {l:?}");
                    for (j, (&fj, &lj)) in f.iter().zip(l.iter()).enumerate().skip(1) {
                        assert_eq!(fj, 5 * lj, "{i} {base} {e} {j}");
                    }
                }
            }
            let mut hb = [0u64; 5];
            for e in 0..8 {
                let q = pw[8 * (e + 1) - 1];
                assert!(same(col(ROW_PW, e), q), "{i} r^{}", 8 * (e + 1));
                assert!(same(col(ROW_FM, e), pw[8 - pi[e] - 1]), "{i} F {e}");
                let mut x = q;
                for a in 1..4 {
                    x = mul26(&x, &two32);
                    let d = col(ROW_DW + 5 * (a - 1), e);
                    assert!(d.iter().all(|&y| y < bound), "{i} {a} {e} {d:?}");
                    assert!(same(d, x), "{i} 2^{} r^{}", 32 * a, 8 * (e + 1));
                }
                let h = col(ROW_HB, e);
                assert!(h.iter().all(|&y| y < 7 * bound), "{i} {e} {h:?}");
                assert!(same(h, hb), "{i} hb {e}");
                let y = mul26(&q, &two128);
                for (s, y) in hb.iter_mut().zip(y) {
                    *s += y;
                }
            }
        }
    }

    #[test]
    fn abi_avx512() {
        let Some((t, t2)) = t_avx512() else { return };
        let mut rng = Rng(98);
        for groups in [1usize, 2, 3, 9, 10, 17, 18] {
            let r = rng.r(groups == 2);
            let mut key = new_avx512(t, t2, &r);
            let buf = rng.bytes(groups * 128 + 1);
            let data = &buf[1..];
            let h0 = rng.h(groups as u64 + 2);
            let mut hl = avx2::to_limbs26(&h0);
            let args = [
                core::ptr::from_mut(&mut hl) as usize,
                core::ptr::from_ref(key.tab()) as usize,
                data.as_ptr() as usize,
                groups,
            ];
            // SAFETY: the token proves the features; the arguments are what `blocks` passes:
            // five limbs, the table, `groups` whole groups (unaligned).
            let (_, rep) = unsafe { abi_call(simdcrypt_poly1305_avx512f as *const (), &args) };
            rep.assert_clean();
            let mut want = State { h: h0 };
            soft64::new(&r).blocks(&mut want, data);
            assert_eq!(reduce(from_limbs26(hl)), reduce(want.h), "{groups} groups");
        }
    }

    #[test]
    fn abi_avx512_setup() {
        let Some((t, t2)) = t_avx512() else { return };
        let r = Rng(99).r(false);
        let mut want = new_avx512(t, t2, &r);
        let rl = powers_by_limb(&r);
        let mut tab = Tab { v: [[0; 8]; ROWS] };
        let args = [
            core::ptr::from_ref(&rl) as usize,
            core::ptr::from_mut(&mut tab) as usize,
        ];
        // SAFETY: the token proves the features; the arguments are what `tab` passes: the
        // limbs of r and a writable table.
        let (_, rep) = unsafe { abi_call(simdcrypt_poly1305_avx512f_setup as *const (), &args) };
        rep.assert_clean();
        assert_eq!(tab.v, want.tab().v);
    }
}
