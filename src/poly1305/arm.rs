//! Poly1305 on 32-bit ARM NEON: the safe wrapper of `asm/arm/poly1305_neon.S` (32-bit ARM
//! NEON intrinsics are unstable in Rust, hence assembly), two blocks per step in radix 2^26
//! with VMULL.U32 (Goll & Gueron, "Vectorization of Poly1305 message authentication code",
//! 2015). The assembly's header explains the lanes and the bounds.
//!
//! The key holds `r` for the portable radix-2^26 kernel ([`soft32`]) and the table the
//! assembly loads: `r^2` in both lanes for every step but the last, `(r^2, r)` for the last.
//! A call converts the canonical [`State`] to five limbs once, runs an odd first block
//! through the portable code, the remaining pairs through the assembly, and converts back.
//! Inputs of fewer than [`NEON_MIN_BLOCKS`] blocks (the AEAD's 16- and 32-byte pieces) go to
//! the portable kernel alone: the NEON entry costs a table load and a push of eight
//! registers. That threshold is a guess: it was tested under qemu, which says nothing about
//! speed.
//!
//! The assembly function is not a `#[target_feature]` fn, so the `ArmNeon` token inside the
//! key is what proves NEON exists; the `extern` declaration stays private to this file.

use super::State;
use super::soft32::{self, Soft32};
use crate::cpu::arch::ArmNeon;
use crate::wipe::wipe;

unsafe extern "C" {
    /// asm/arm/poly1305_neon.S. Needs NEON. Absorbs the `2 * npairs` 16-byte blocks at `data`
    /// (any alignment) into `h` (five radix-2^26 limbs, each below 2^26 + 2^12 on entry and
    /// below 2^28 on return) with the 36-word `table` (see [`ArmNeonKey`]); reads `table` and
    /// `data`, reads and writes `h`. `npairs == 0` is a no-op.
    fn simdcrypt_poly1305_neon(h: *mut u32, table: *const u32, data: *const u8, npairs: usize);
}

/// Inputs shorter than this many blocks use the portable kernel only.
const NEON_MIN_BLOCKS: usize = 4;

/// `r` for the portable code and the assembly's table: words 0–17 are the pairs (lane 0,
/// lane 1) of R0..R4, S1..S4 (`S_j = 5·R_j`) of `r^2` in both lanes; words 18–35 the same
/// with `r^2` in lane 0 and `r` in lane 1. Every limb is below 2^26 + 5.
#[derive(Clone)]
pub(crate) struct ArmNeonKey {
    t: ArmNeon,
    soft: Soft32,
    table: [u32; 36],
}

/// Expands the clamped `r` (`r = r[0] + r[1]·2^64`).
pub(super) fn new(t: ArmNeon, r: &[u64; 2]) -> ArmNeonKey {
    let soft = soft32::new(r);
    // r^2 through the canonical form, which carries every limb down below 2^26 (h0 below
    // 2^26 + 5).
    let mut sq = soft32::mul(&soft.r, &soft);
    let mut st = State::default();
    soft32::store(&sq, &mut st);
    sq = soft32::load(&st);
    let r2 = soft32::key_of(sq);
    let mut table = [0u32; 36];
    // (R0..R4, S1..S4) of r^2 and of r, pair by pair.
    let lane0 = r2.r.iter().chain(&r2.s);
    let lane1 = soft.r.iter().chain(&soft.s);
    for (i, (&a, &b)) in lane0.zip(lane1).enumerate() {
        table[2 * i] = a;
        table[2 * i + 1] = a;
        table[18 + 2 * i] = a;
        table[18 + 2 * i + 1] = b;
    }
    wipe(&mut sq);
    wipe(&mut st.h);
    ArmNeonKey { t, soft, table }
}

impl Drop for ArmNeonKey {
    fn drop(&mut self) {
        wipe(&mut self.table);
    }
}

impl ArmNeonKey {
    /// [`super::Kernel::blocks`] with the NEON threshold `min_blocks` (at least 2; the tests
    /// lower it to reach the assembly with short inputs).
    fn blocks_from(&mut self, st: &mut State, data: &[u8], min_blocks: usize) {
        debug_assert!(data.len() % 16 == 0);
        let n = data.len() / 16;
        if n < min_blocks.max(2) {
            super::Kernel::blocks(&mut self.soft, st, data);
            return;
        }
        let mut h = soft32::load(st);
        let (odd, pairs) = data.split_at(16 * (n % 2));
        soft32::blocks_limbs(&self.soft, &mut h, odd);
        pairs_neon(self.t, &mut h, &self.table, pairs);
        soft32::store(&h, st);
        wipe(&mut h);
    }
}

/// Absorbs `data` (a whole number of block pairs) into the limbs `h` with the assembly.
fn pairs_neon(_t: ArmNeon, h: &mut [u32; 5], table: &[u32; 36], data: &[u8]) {
    debug_assert!(data.len() % 32 == 0);
    let npairs = data.len() / 32;
    // SAFETY: the token proves NEON was detected; `h` is 5 words and `table` 36, as the
    // kernel expects (the limbs of `h` come from `soft32::load` or `soft32::mul`, below
    // 2^26 + 2^12); it reads exactly the `npairs * 32 <= data.len()` bytes of `data`.
    unsafe { simdcrypt_poly1305_neon(h.as_mut_ptr(), table.as_ptr(), data.as_ptr(), npairs) }
}

impl super::Kernel for ArmNeonKey {
    fn blocks(&mut self, st: &mut State, data: &[u8]) {
        self.blocks_from(st, data, NEON_MIN_BLOCKS);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::{Kernel, soft64};
    use super::*;
    use crate::abi_test::abi_call;
    use crate::cpu::Features;
    use crate::sha::test_util::bytes;
    use std::vec::Vec;

    fn token() -> Option<ArmNeon> {
        let t = Features::hardware().get::<ArmNeon>();
        if t.is_none() {
            std::eprintln!("poly1305 armv7-neon: CPU has no NEON; kernel not tested");
        }
        t
    }

    fn clamp(r: [u64; 2]) -> [u64; 2] {
        [r[0] & 0x0fff_fffc_0fff_ffff, r[1] & 0x0fff_fffc_0fff_fffc]
    }

    /// The tag of `msg` under `key`: whole blocks through the NEON key with threshold
    /// `min`, a final partial block and the finalisation with the portable 64-bit code (as
    /// the framework does, RFC 8439 §2.5.1).
    fn tag(t: ArmNeon, key: &[u8], msg: &[u8], min: usize) -> [u8; 16] {
        let r = clamp(soft64::limbs(&key[..16]));
        let mut k = new(t, &r);
        let mut st = State::default();
        let whole = msg.len() & !15;
        k.blocks_from(&mut st, &msg[..whole], min);
        if whole < msg.len() {
            let mut b = [0u8; 16];
            b[..msg.len() - whole].copy_from_slice(&msg[whole..]);
            b[msg.len() - whole] = 1;
            let s1 = r[1] + (r[1] >> 2);
            soft64::block(&mut st.h, &r, s1, soft64::limbs(&b), 0);
        }
        assert!(st.h[2] <= 7);
        soft64::finish(&st.h, key[16..32].try_into().unwrap())
    }

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len() / 2)
            .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
            .collect()
    }

    /// RFC 8439 §2.5.2 and Appendix A.3 #1–#11 (the verbatim upstream file), with the NEON
    /// path from 2 blocks and from its normal threshold.
    #[test]
    fn rfc8439_known_answers() {
        let Some(t) = token() else { return };
        let key = unhex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b");
        for min in [2, NEON_MIN_BLOCKS] {
            assert_eq!(
                tag(t, &key, b"Cryptographic Forum Research Group", min).to_vec(),
                unhex("a8061dc1305136c6c22b8baf0c0127a9")
            );
        }
        let text = include_str!("../../vectors/chacha20/rfc-7539-poly1305.txt");
        let mut recs: Vec<std::collections::BTreeMap<&str, &str>> = Vec::new();
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (k, v) = line.split_once(" = ").expect("NAME = value");
            if k == "COUNT" {
                recs.push(Default::default());
            }
            recs.last_mut().expect("COUNT first").insert(k, v);
        }
        assert_eq!(recs.len(), 11);
        for r in &recs {
            for min in [2, NEON_MIN_BLOCKS] {
                let got = tag(t, &unhex(r["KEY"]), &unhex(r["MSG"]), min);
                assert_eq!(
                    got.to_vec(),
                    unhex(r["TAG"]),
                    "COUNT {} min {min}",
                    r["COUNT"]
                );
            }
        }
    }

    /// `a ≡ b (mod 2^130 − 5)`, after checking that `a` is canonical.
    fn assert_same(a: &State, b: &State, what: &str) {
        assert!(a.h[2] <= 7, "{what}: h[2] = {}", a.h[2]);
        assert_eq!(soft32::reduced(a), soft32::reduced(b), "{what}");
    }

    /// Against the portable 64-bit kernel: random, zero and all-ones data of every length
    /// 0..=24 blocks (both parities, far past the 2-block stride and the threshold), random
    /// `h` with `h[2]` = 0..=7 and the largest canonical `h`, `r` with every clamped bit set
    /// (the largest limbs, worst-case carries), random `r` and `r` = 1; also calls split at
    /// every block boundary.
    #[test]
    fn matches_portable() {
        let Some(t) = token() else { return };
        for seed in 0..5u64 {
            let w = bytes(70 + seed, 32);
            let word = |i: usize| u64::from_le_bytes(w[8 * i..8 * i + 8].try_into().unwrap());
            let rs = [clamp([!0, !0]), clamp([word(0), word(1)]), [1, 0]];
            let mut starts = std::vec![State::default(), State { h: [!0, !0, 7] }];
            for top in 0..=7 {
                starts.push(State {
                    h: [word(2) ^ top, word(3).rotate_left(top as u32), top],
                });
            }
            for r in rs {
                let mut k = new(t, &r);
                let mut k64 = soft64::new(&r);
                for (si, st0) in starts.iter().enumerate() {
                    for n in 0..=24usize {
                        let data = match seed {
                            0 => std::vec![0xff; 16 * n],
                            1 => std::vec![0; 16 * n],
                            _ => bytes(1000 * seed + 30 * si as u64 + n as u64, 16 * n),
                        };
                        let mut want = *st0;
                        k64.blocks(&mut want, &data);
                        for min in [2, NEON_MIN_BLOCKS] {
                            let mut got = *st0;
                            k.blocks_from(&mut got, &data, min);
                            let what = std::format!("seed {seed} r {r:x?} start {si} {n} blocks");
                            assert_same(&got, &want, &what);
                        }
                        let mut got = *st0;
                        k.blocks(&mut got, &data);
                        assert_same(&got, &want, "threshold path");
                        if n <= 10 && si < 3 {
                            for cut in 0..=n {
                                let mut got = *st0;
                                k.blocks_from(&mut got, &data[..16 * cut], 2);
                                k.blocks_from(&mut got, &data[16 * cut..], 2);
                                assert_same(&got, &want, "split");
                            }
                        }
                    }
                }
            }
        }
    }

    /// The entry point keeps the AAPCS callee-saved registers and the stack pointer, for 0,
    /// 1, 2 and 5 pairs, and computes what the portable kernel does when called that way.
    #[test]
    fn abi() {
        let Some(t) = token() else { return };
        let r = clamp([0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210]);
        let k = new(t, &r);
        for npairs in [0usize, 1, 2, 5] {
            let data = bytes(5 + npairs as u64, 32 * npairs);
            let st0 = State {
                h: [0x1111_2222_3333_4444, 0x5555_6666_7777_8888, 3],
            };
            let mut want = st0;
            soft64::new(&r).blocks(&mut want, &data);
            let mut h = soft32::load(&st0);
            let args = [
                h.as_mut_ptr() as usize,
                k.table.as_ptr() as usize,
                data.as_ptr() as usize,
                npairs,
            ];
            // SAFETY: NEON was detected just above; the arguments are the limbs of a
            // canonical state, the key's table and `npairs` block pairs, as `pairs_neon`
            // passes them.
            let (_, rep) = unsafe { abi_call(simdcrypt_poly1305_neon as *const (), &args) };
            rep.assert_clean();
            assert!(
                h.iter().all(|&l| l < 1 << 28),
                "{npairs} pairs: limbs {h:x?}"
            );
            let mut got = State::default();
            soft32::store(&h, &mut got);
            assert_same(&got, &want, &std::format!("{npairs} pairs"));
        }
    }
}
