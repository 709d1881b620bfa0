//! Poly1305 (RFC 8439 §2.5) with AVX-512 IFMA: the safe wrapper of the radix-2^44 loop in
//! `asm/x86_64/poly1305_avx512.S`, sixteen interleaved Horner lanes (two sets of eight
//! elements). The AVX-512F kernel (radix 2^26, no IFMA; eight lanes and aggregated
//! steps) is `x86_64_avx512f`.
//!
//! Rust 1.85 (our MSRV) cannot enable the `avx512*` target features, so the loop is
//! assembly; the token [`Avx512Ifma`] proves its instructions exist. The
//! `.S` file has the math (Goll and Gueron's r-power Horner scheme, the limb products, the
//! carries and their bounds); this file prepares its inputs and finishes its output:
//!
//! - the table: the powers `r^1..=r^16` and `r^32` laid out as the multiplier vectors of the
//!   radix, `r^16` and `r^32` in every element for the loop (its steps of two groups multiply
//!   the accumulator by `r^32` and the second group by `r^16`, with one carry), and for the last
//!   group element `e` of set A gets `r^(16-π(e))`, of set B `r^(8-π(e))`, with
//!   `π = (0, 4, 1, 5, 2, 6, 3, 7)` the block order that `vpunpck{l,h}qdq` leaves;
//!   `asm/x86_64/poly1305_ifma_table.S` computes and spreads them with IFMA itself (its header
//!   has the levels and the bounds), and `powers44` (with `r^32 = mul44(r^16, r^16)`) here,
//!   the scalar radix-2^44 tree, is the tests' reference for it;
//! - the accumulator enters from the canonical [`State`] as limbs of element 0 and comes back
//!   as the lane sums, which are carried and packed into three words (< 2^131) here;
//! - calls shorter than one 16-block group (or than [`IFMA_FIRST_MIN_BLOCKS`] blocks before
//!   the first call that makes the table) and the
//!   last `n mod 16` blocks of a call go to the AVX2 kernel (itself four-block groups, the
//!   portable kernel below that), which each key here owns, built from its own [`Avx2`]
//!   token.
//!
//! Keys make their tables at the first call of at least one group (key setup happens once per
//! message, and short messages never need them; see `x86_64_avx2::Avx2Key`) and
//! wipe them on drop. The limb copies on the stack are wiped after each call, and the assembly
//! zeroes every vector register before it returns (the table function too: no power of `r`
//! passes through a Rust local).

use super::x86_64_avx2::{self as avx2, Avx2Key};
use super::{Kernel, State};
use core::mem::MaybeUninit;

use crate::cpu::arch::{Avx2, Avx512Ifma};

unsafe extern "sysv64" {
    /// Absorbs `ngroups ≥ 1` groups of 16 blocks at `data` into the radix-2^44 limbs `h` and
    /// stores the lane sums of the two sets in `out`. Needs AVX512IFMA and AVX512F.
    fn simdcrypt_poly1305_ifma(
        h: *const [u64; 3],
        tab: *const Tab44,
        data: *const u8,
        ngroups: usize,
        out: *mut [[u64; 8]; 3],
    );

    /// Writes every entry of the table at `tab` for the clamped `r`. Needs AVX512IFMA,
    /// AVX512F and AVX512VL.
    fn simdcrypt_poly1305_ifma_table(r: *const [u64; 2], tab: *mut Tab44);
}

/// 2^44 − 1.
const M44: u64 = (1 << 44) - 1;
/// 2^42 − 1.
const M42: u64 = (1 << 42) - 1;

/// Blocks per group of the assembly loops.
pub(super) const GROUP: usize = 16;

/// Below this many blocks a call goes to the AVX2 key (itself the portable kernel below
/// `x86_64_avx2::FIRST_MIN_BLOCKS` blocks) while the key has no table yet. The IFMA table
/// (`poly1305_ifma_table.S`) cost about 95 TSC ticks alone on an Emerald Rapids Xeon (about
/// 105 cycles; replacing the scalar radix-2^44 tree with it saved about 150 ticks per fresh
/// key) before its fifth level (`r^32`, one product more on the chain, not timed alone), and
/// from two groups the loop wins that back in the MAC alone. The figures below predate the
/// loop's steps of two groups, which left the 64-block (1 KiB) seal within the noise (best of
/// 4000: 1128–1166 ticks before, 1134–1136 after) and the threshold where it was. Measured
/// there, fresh key, whole MAC through `Poly1305`, best of 4000 (TSC ticks, threshold 96 vs
/// 16 or 32):
/// 16 blocks 240 vs 248, 24 blocks 322 vs 352, 32 blocks 476 vs 352, 40 blocks 512 vs 455,
/// 47 blocks 560 vs 536, 48 blocks 555 vs 384, 64 blocks 630 vs 420, 80 blocks 690 vs 450.
/// But the 512-bit IFMA loop lowers the core clock for what follows (an `imul` chain run
/// after it took 3–7 % more TSC ticks than after ymm code, measured), and in a
/// ChaCha20-Poly1305 seal that slows the ChaCha20 half too: seals of 40, 44, 47 and 56 blocks
/// (two or three groups and 8–15 blocks for the portable kernel) took 15–90 ticks longer with
/// the IFMA loop than with the AVX2 one, 32 and 48 blocks (whole groups) 50–90 shorter. From
/// 64 blocks the loop wins in the seal too, or breaks even (64 blocks 1220–1270 vs
/// 1150–1220, 72 blocks 1250–1300 both, 76 blocks 1274 vs 1304, 88 blocks 1324 vs 1290,
/// 95 blocks 1554 vs 1480).
const IFMA_FIRST_MIN_BLOCKS: usize = 64;

/// The element order of a set: element `e` holds block `PI[e]` of its eight (the tests'
/// reference; the assembly has the order in its levels).
#[cfg(test)]
const PI: [usize; 8] = [0, 4, 1, 5, 2, 6, 3, 7];

/// `h` (three words, < 2^131) as radix-2^44 limbs (the top one below 2^43).
fn to_limbs44(h: &[u64; 3]) -> [u64; 3] {
    [
        h[0] & M44,
        ((h[0] >> 44) | (h[1] << 20)) & M44,
        (h[1] >> 24) | (h[2] << 40),
    ]
}

/// Radix-2^44 limbs (each below 2^62) carried and packed into the canonical three words
/// (< 2^131: after the carry the value is below 2^130 + 2^45).
fn from_limbs44(mut l: [u64; 3]) -> [u64; 3] {
    l[1] += l[0] >> 44;
    l[0] &= M44;
    l[2] += l[1] >> 44;
    l[1] &= M44;
    let c = l[2] >> 42;
    l[2] &= M42;
    l[0] += c * 5;
    l[1] += l[0] >> 44;
    l[0] &= M44;
    let mut acc = u128::from(l[0]) + (u128::from(l[1]) << 44);
    let w0 = acc as u64;
    acc >>= 64;
    acc += u128::from(l[2]) << 24;
    [w0, acc as u64, (acc >> 64) as u64]
}

/// The multiplier vectors of the radix-2^44 loop: `v[s][i][e]`, set `s` (0: `r^16`
/// everywhere; 1, 2: the last group's powers of sets A and B; 3: `r^32` everywhere), vector
/// `i` (r0, r1, r2, 20·r1, 20·r2), element `e`.
#[repr(C, align(64))]
struct Tab44 {
    v: [[[u64; 8]; 5]; SETS],
}

/// The sets of [`Tab44`].
const SETS: usize = 4;

/// For table set `s` and element `e`: the exponent of the power it holds.
#[cfg(test)]
fn exponent(s: usize, e: usize) -> usize {
    match s {
        0 => 16,
        1 => 16 - PI[e],
        2 => 8 - PI[e],
        _ => 32,
    }
}

/// `a·b mod p` in radix 2^44, partially reduced: for limbs `a`, `b` below 2^45 (the top one
/// below 2^43) the result's limbs are below 2^44, 2^44 and 2^42 + 1. With `2^132 ≡ 20` and
/// `2^176 ≡ 20·2^44 (mod p)`:
///
/// ```text
/// d0 = a0 b0 + 20 (a1 b2 + a2 b1),  d1 = a0 b1 + a1 b0 + 20 a2 b2,  d2 = a0 b2 + a1 b1 + a2 b0
/// ```
///
/// each below 3·2^93 (so `u128` sums), then carried (bits of `d2` from 2^42 up, i.e. from
/// 2^130, fold back times 5).
#[cfg(test)]
fn mul44(a: &[u64; 3], b: &[u64; 3]) -> [u64; 3] {
    let m = |x: u64, y: u64| u128::from(x) * u128::from(y);
    let (t1, t2) = (20 * b[1], 20 * b[2]);
    let d0 = m(a[0], b[0]) + m(a[1], t2) + m(a[2], t1);
    let d1 = m(a[0], b[1]) + m(a[1], b[0]) + m(a[2], t2) + (d0 >> 44);
    let d2 = m(a[0], b[2]) + m(a[1], b[1]) + m(a[2], b[0]) + (d1 >> 44);
    // d2 < 2^96: c < 2^54 and l0 < 2^44 + 5·2^54 < 2^57.
    let c = (d2 >> 42) as u64;
    let l0 = (d0 as u64 & M44) + 5 * c;
    let l1 = (d1 as u64 & M44) + (l0 >> 44);
    let l2 = (d2 as u64 & M42) + (l1 >> 44);
    [l0 & M44, l1 & M44, l2]
}

/// The powers `r^1..=r^16` in radix 2^44 (index `i` holds `r^(i+1)`), as [`mul44`] leaves
/// them. A tree (r², r³ r⁴, r⁵..r⁸ from r⁴, r⁹..r¹⁶ from r⁸): the chain is four
/// multiplications deep instead of fifteen, and the multiplications of one level are
/// independent, so they overlap. The tests' reference for the assembly table (which has the
/// same four levels on vectors).
#[cfg(test)]
fn powers44(r: &[u64; 2]) -> [[u64; 3]; 16] {
    let mut p = [[0u64; 3]; 16];
    p[0] = to_limbs44(&[r[0], r[1], 0]);
    p[1] = mul44(&p[0], &p[0]);
    p[2] = mul44(&p[1], &p[0]);
    p[3] = mul44(&p[1], &p[1]);
    for i in 4..8 {
        p[i] = mul44(&p[3], &p[i - 4]);
    }
    for i in 8..16 {
        p[i] = mul44(&p[7], &p[i - 8]);
    }
    p
}

impl Tab44 {
    /// Writes every entry of the table at `tab` for the clamped `r`, with the assembly.
    ///
    /// In place, into the key's uninitialised room (1280 bytes): no table on the stack to
    /// zero, move and wipe.
    ///
    /// # Safety
    /// `tab` is valid for writes of a `Tab44` (the entries need not be initialised).
    unsafe fn fill(_t: Avx512Ifma, tab: *mut Tab44, r: &[u64; 2]) {
        // SAFETY: the token proves AVX512IFMA, AVX512F and AVX512VL; `r` is two readable
        // words; `tab` is valid for writes of the 1280-byte table (the caller's contract), which
        // the function only writes, every entry.
        unsafe { simdcrypt_poly1305_ifma_table(r, tab) };
    }

    /// The table built in Rust from [`powers44`]: the reference for the assembly.
    #[cfg(test)]
    fn reference(r: &[u64; 2]) -> [[[u64; 8]; 5]; SETS] {
        let pw = powers44(r);
        let r32 = mul44(&pw[15], &pw[15]);
        let mut v = [[[0u64; 8]; 5]; SETS];
        for (s, set) in v.iter_mut().enumerate() {
            for e in 0..8 {
                let l = match exponent(s, e) {
                    32 => r32,
                    x => pw[x - 1],
                };
                let m = [l[0], l[1], l[2], 20 * l[1], 20 * l[2]];
                for (row, x) in set.iter_mut().zip(m) {
                    row[e] = x;
                }
            }
        }
        v
    }
}

impl Drop for Tab44 {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.v);
    }
}

/// A Poly1305 key for the IFMA kernel (and the AVX2 kernel for the rest). The table is made
/// at the first call of at least one group, as the AVX2 kernel's (see [`Avx2Key`]), in
/// room the key keeps uninitialised until then (`ready` says whether it was filled).
pub(crate) struct IfmaKey {
    _t: Avx512Ifma,
    avx2: Avx2Key,
    r: [u64; 2],
    ready: bool,
    tab: MaybeUninit<Tab44>,
}

/// A key for the IFMA kernel.
pub(crate) fn new_ifma(t: Avx512Ifma, t2: Avx2, r: &[u64; 2]) -> IfmaKey {
    IfmaKey {
        _t: t,
        avx2: avx2::new(t2, r),
        r: *r,
        ready: false,
        tab: MaybeUninit::uninit(),
    }
}

impl IfmaKey {
    fn tab(&mut self) -> &Tab44 {
        if !self.ready {
            // SAFETY: `self.tab` is the key's own room for a `Tab44`.
            unsafe { Tab44::fill(self._t, self.tab.as_mut_ptr(), &self.r) };
            self.ready = true;
        }
        // SAFETY: `ready` is set only after `fill` wrote every entry.
        unsafe { self.tab.assume_init_ref() }
    }
}

/// A clone starts without the table: it makes its own at its first long call, so the two keys
/// share nothing and each wipes only what it made.
impl Clone for IfmaKey {
    fn clone(&self) -> Self {
        IfmaKey {
            _t: self._t,
            avx2: self.avx2.clone(),
            r: self.r,
            ready: false,
            tab: MaybeUninit::uninit(),
        }
    }
}

impl Drop for IfmaKey {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.r);
        if self.ready {
            // SAFETY: `ready`: the table was filled; it is dropped (wiped) once, here.
            unsafe { self.tab.assume_init_drop() };
        }
    }
}

impl Kernel for IfmaKey {
    fn blocks(&mut self, st: &mut State, data: &[u8]) {
        debug_assert_eq!(data.len() % 16, 0);
        let groups = data.len() / (16 * GROUP);
        if groups == 0 || (data.len() / 16 < IFMA_FIRST_MIN_BLOCKS && !self.ready) {
            self.avx2.blocks(st, data);
            return;
        }
        let (wide, rest) = data.split_at(groups * 16 * GROUP);
        let mut hl = to_limbs44(&st.h);
        let mut out = [[0u64; 8]; 3];
        // SAFETY: the token in `self` proves AVX512IFMA and AVX512F; `hl` is three readable
        // words, `self.tab` the 1280-byte table, `wide` `groups ≥ 1` whole groups (only read),
        // `out` 3 × 8 writable words.
        unsafe { simdcrypt_poly1305_ifma(&hl, self.tab(), wide.as_ptr(), groups, &mut out) };
        // Each element's limbs are below 2^45: the sums stay far below 2^62.
        for (l, o) in hl.iter_mut().zip(out.iter()) {
            *l = o.iter().sum();
        }
        st.h = from_limbs44(hl);
        crate::wipe::wipe(&mut hl);
        crate::wipe::wipe(&mut out);
        if !rest.is_empty() {
            self.avx2.blocks(st, rest);
        }
    }

    /// The table and the loop are assembly without a stack frame and the limbs here are
    /// wiped in place; only the AVX2 key's compiled vector code spills.
    fn may_spill(&self) -> bool {
        self.avx2.may_spill()
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::x86_64_avx2::powers;
    use super::super::x86_64_avx2::tests::{Rng, cross_check, fresh_check, reduce};
    use super::*;
    use crate::abi_test::abi_call;
    use crate::cpu::Features;

    fn t_ifma() -> Option<(Avx512Ifma, Avx2)> {
        let f = Features::hardware();
        let t = f.get::<Avx512Ifma>().zip(f.get::<Avx2>());
        if t.is_none() {
            std::eprintln!("poly1305 ifma: CPU lacks AVX-512 IFMA; kernel not tested");
        }
        t
    }

    /// The warm-up of `cross_check` (320 blocks) makes both tables, so that it tests the loops.
    #[test]
    fn warm_up_makes_tables() {
        let data = [0x5a; 16 * 320];
        if let Some((t, t2)) = t_ifma() {
            let mut k = new_ifma(t, t2, &[1, 4]);
            k.blocks(&mut State::default(), &data);
            assert!(k.ready);
        }
    }

    #[test]
    fn ifma_fresh_keys() {
        let Some((t, t2)) = t_ifma() else { return };
        fresh_check(|r| new_ifma(t, t2, r));
    }

    /// Every backend the dispatch reaches on this machine, through the public `Poly1305`,
    /// against the portable kernel, for lengths crossing each kernel's strides (with partial
    /// final blocks) and in pieces; the walk is avx512-ifma → avx512 → avx2 → soft-64 where
    /// the CPU has IFMA.
    #[test]
    fn all_backends_against_portable() {
        use super::super::Poly1305;
        let names: std::vec::Vec<&str> = Poly1305::backends(Features::hardware())
            .map(|b| b.0)
            .collect();
        if t_ifma().is_some() {
            assert_eq!(names, ["avx512-ifma", "avx512", "avx2", "soft-64"]);
        }
        let mut rng = Rng(0xabc);
        for (name, f) in Poly1305::backends(Features::hardware()) {
            for len in (0..=600)
                .step_by(7)
                .chain([1024, 4096, 4096 + 255, 16384 + 17])
            {
                let key: [u8; 32] = rng.bytes(32).try_into().unwrap();
                let msg = rng.bytes(len);
                let mut want = Poly1305::new_with(Features::none(), &key);
                want.update(&msg);
                let want = want.finalize();
                let mut m = Poly1305::new_with(f, &key);
                assert_eq!(m.backend(), name);
                m.update(&msg);
                assert_eq!(m.finalize(), want, "{name}, {len} bytes");
                let mut m = Poly1305::new_with(f, &key);
                let (a, b) = msg.split_at(len / 3);
                m.update(a);
                m.update(b);
                assert_eq!(m.finalize(), want, "{name}, {len} bytes in two pieces");
            }
        }
    }

    #[test]
    fn limbs44_round_trip() {
        let mut rng = Rng(3);
        for i in 0..1000 {
            let h = rng.h(i);
            assert_eq!(reduce(from_limbs44(to_limbs44(&h))), reduce(h));
        }
    }

    /// The radix-2^44 power tree against the portable powers (`r` with all clamped bits set
    /// among the keys), congruent mod p and within the limb bounds.
    #[test]
    fn powers44_match_portable() {
        let mut rng = Rng(44);
        for k in 0..200 {
            let r = rng.r(k % 4 == 0);
            let want = powers::<16>(&r);
            for (i, (got, w)) in powers44(&r).iter().zip(want.iter()).enumerate() {
                assert!(
                    got[0] < 1 << 44 && got[1] < 1 << 44 && got[2] <= 1 << 42,
                    "{r:x?} {i}"
                );
                assert_eq!(
                    reduce(from_limbs44(*got)),
                    reduce(*w),
                    "r^{} of {r:x?}",
                    i + 1
                );
            }
        }
    }

    /// The table the assembly writes for `r`.
    fn table_of(t: Avx512Ifma, r: &[u64; 2]) -> [[[u64; 8]; 5]; SETS] {
        let mut tab = MaybeUninit::<Tab44>::uninit();
        // SAFETY: `tab` is room for a `Tab44`.
        unsafe { Tab44::fill(t, tab.as_mut_ptr(), r) };
        // SAFETY: `fill` wrote every entry.
        let tab = unsafe { tab.assume_init() };
        tab.v
    }

    /// The assembly table (IFMA) against [`Tab44::reference`] (the scalar `powers44`): every
    /// entry congruent mod p, within the bounds the `.S` header proves (limb 0 below
    /// 2^44 + 2^14, limb 1 below 2^44, limb 2 below 2^42 + 2^10, then exactly 20 times limbs 1
    /// and 2), for random `r`, every clamped bit set, and the extremes 0 and 1.
    #[test]
    fn table_matches_reference() {
        let Some((t, _)) = t_ifma() else { return };
        let mut rng = Rng(0x7ab1e);
        let mut keys = std::vec![
            [0, 0],
            [1, 0],
            [0x0fff_fffc_0fff_ffff, 0x0fff_fffc_0fff_fffc]
        ];
        keys.extend((0..2000).map(|k| rng.r(k % 8 == 0)));
        for r in keys {
            let got = table_of(t, &r);
            let want = Tab44::reference(&r);
            for s in 0..SETS {
                for e in 0..8 {
                    let l = [got[s][0][e], got[s][1][e], got[s][2][e]];
                    let w = [want[s][0][e], want[s][1][e], want[s][2][e]];
                    let at = || std::format!("r = {r:x?}, set {s}, element {e}: {l:x?}");
                    assert!(l[0] < (1 << 44) + (1 << 14), "{}", at());
                    assert!(l[1] < 1 << 44, "{}", at());
                    assert!(l[2] < (1 << 42) + (1 << 10), "{}", at());
                    assert_eq!(got[s][3][e], 20 * l[1], "{}", at());
                    assert_eq!(got[s][4][e], 20 * l[2], "{}", at());
                    assert_eq!(
                        reduce(from_limbs44(l)),
                        reduce(from_limbs44(w)),
                        "{} (r^{})",
                        at(),
                        exponent(s, e)
                    );
                }
            }
        }
    }

    /// The table function keeps the callee-saved registers, and its table does not depend on
    /// what the registers held before.
    #[test]
    fn abi_ifma_table() {
        let Some((t, _)) = t_ifma() else { return };
        let mut rng = Rng(0xab1);
        for k in 0..4 {
            let r = rng.r(k == 1);
            let mut tab = MaybeUninit::<Tab44>::uninit();
            let args = [core::ptr::from_ref(&r) as usize, tab.as_mut_ptr() as usize];
            // SAFETY: the token proves the features; the arguments are what `fill` passes:
            // two words of a clamped `r`, room for the table.
            let (_, rep) = unsafe { abi_call(simdcrypt_poly1305_ifma_table as *const (), &args) };
            rep.assert_clean();
            // SAFETY: the call wrote every entry.
            let tab = unsafe { tab.assume_init() };
            assert_eq!(tab.v, table_of(t, &r), "{r:x?}");
        }
    }

    #[test]
    fn ifma_against_portable() {
        let Some((t, t2)) = t_ifma() else { return };
        cross_check(|r| new_ifma(t, t2, r), 3 * GROUP + 3);
        cross_check(|r| new_ifma(t, t2, r), 4 * GROUP + 9);
        // Steps of two groups: 5 groups are two steps and the last group, 6 two steps, one
        // single group and the last.
        cross_check(|r| new_ifma(t, t2, r), 6 * GROUP + 15);
    }

    #[test]
    fn abi_ifma() {
        let Some((t, t2)) = t_ifma() else { return };
        let mut rng = Rng(99);
        for groups in [1usize, 2, 3, 4, 5, 6] {
            let r = rng.r(groups == 2);
            let mut key = new_ifma(t, t2, &r);
            let buf = rng.bytes(groups * 256 + 1);
            let data = &buf[1..];
            let h0 = rng.h(groups as u64 + 2);
            let hl = to_limbs44(&h0);
            let mut out = [[0u64; 8]; 3];
            let args = [
                core::ptr::from_ref(&hl) as usize,
                core::ptr::from_ref(key.tab()) as usize,
                data.as_ptr() as usize,
                groups,
                core::ptr::from_mut(&mut out) as usize,
            ];
            // SAFETY: the token proves the features; the arguments are what `blocks` passes:
            // three limbs, the table, `groups` whole groups (unaligned), the output rows.
            let (_, rep) = unsafe { abi_call(simdcrypt_poly1305_ifma as *const (), &args) };
            rep.assert_clean();
            let sums = [0, 1, 2].map(|i| out[i].iter().sum());
            let mut want = State { h: h0 };
            super::super::soft64::new(&r).blocks(&mut want, data);
            assert_eq!(
                reduce(from_limbs44(sums)),
                reduce(want.h),
                "{groups} groups"
            );
        }
    }
}
