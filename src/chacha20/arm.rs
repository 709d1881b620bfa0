//! ChaCha20 on 32-bit ARM NEON: the safe wrapper of `asm/arm/chacha_neon.S` (32-bit ARM NEON
//! intrinsics are unstable in Rust, hence assembly). For ARMv7 boards without AES hardware
//! (Cortex-A7/A8/A9/A15), where ChaCha20-Poly1305 is the AEAD to use.
//!
//! The kernel runs four blocks at a time in the "vertical" layout (q register i = word i of
//! four blocks; two words of the third row kept in a stack slot, since sixteen words and the
//! rotation scratch do not fit sixteen q registers), and the last 1–3 blocks in the
//! "horizontal" layout (a block = four q registers, one per row; two blocks interleaved when
//! two or more are left, else one alone). Short inputs (the AEAD's 16- and 64-byte messages)
//! therefore cost one or two blocks of work, not four. No scalar block is interleaved: that
//! could only be judged by timing real cores, and this was tested under qemu only.
//!
//! The assembly function is not a `#[target_feature]` fn, so the `ArmNeon` token argument of
//! [`xor_blocks`] is what proves NEON exists; the `extern` declaration stays private to this
//! file. The assembly only reads `state`; this wrapper advances the counter. It leaves no
//! copy of the state or keystream behind: it zeroes its stack slot and the NEON registers
//! that held them before returning (the caller's `d8`–`d15` come back over the rest).

use crate::cpu::arch::ArmNeon;

unsafe extern "C" {
    /// asm/arm/chacha_neon.S. Needs NEON. XORs the keystream of the blocks numbered
    /// `state[12]`, `state[12] + 1`, … (wrapping mod 2^32) into the `nblocks * 64` bytes at
    /// `data` (any alignment); reads the 16 words of `state` (4-byte aligned), writes only
    /// `data`. `nblocks == 0` is a no-op.
    fn simdcrypt_chacha20_neon(state: *const u32, data: *mut u8, nblocks: usize);
}

/// XORs the keystream of the blocks numbered `state[12]`, `state[12] + 1`, … into `data`
/// (`data.len() % 64 == 0`) and advances `state[12]` by the number of blocks, wrapping at
/// 2^32 (word 13 is never touched).
pub(super) fn xor_blocks(_t: ArmNeon, state: &mut [u32; 16], data: &mut [u8]) {
    debug_assert!(data.len() % 64 == 0);
    let n = data.len() / 64;
    // SAFETY: the token proves NEON was detected; `state` is 16 aligned words, only read;
    // the kernel reads and writes exactly the `n * 64 <= data.len()` bytes of `data`, which
    // we borrow mutably, and nothing else.
    unsafe { simdcrypt_chacha20_neon(state.as_ptr(), data.as_mut_ptr(), n) }
    state[12] = state[12].wrapping_add(n as u32);
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::abi_test::abi_call;
    use crate::cpu::Features;
    use crate::sha::test_util::bytes;
    use hex_literal::hex;
    use std::vec::Vec;

    fn token() -> Option<ArmNeon> {
        let t = Features::hardware().get::<ArmNeon>();
        if t.is_none() {
            std::eprintln!("chacha20 armv7-neon: CPU has no NEON; kernel not tested");
        }
        t
    }

    /// The RFC 8439 §2.3 state of `key`, `counter`, `nonce`.
    fn state(key: &[u8], counter: u32, nonce: &[u8]) -> [u32; 16] {
        let le = |b: &[u8], i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let mut s = [0u32; 16];
        s[..4].copy_from_slice(&super::super::soft::SIGMA);
        for (i, w) in s[4..12].iter_mut().enumerate() {
            *w = le(key, 4 * i);
        }
        s[12] = counter;
        for (i, w) in s[13..].iter_mut().enumerate() {
            *w = le(nonce, 4 * i);
        }
        s
    }

    /// The keystream block(s) as the kernel XORs them into zeros.
    fn keystream(t: ArmNeon, s: &mut [u32; 16], blocks: usize) -> Vec<u8> {
        let mut out = std::vec![0u8; 64 * blocks];
        xor_blocks(t, s, &mut out);
        out
    }

    /// RFC 8439 §2.3.2 (block function, counter 1) and Appendix A.1 #1–#5, each as the first
    /// block of a 1-, 2-, 3-, 4- and 5-block call (every code path of the kernel starts with
    /// it), and §2.4.2 (114 bytes from counter 1, the tail zero-padded).
    #[test]
    fn rfc8439_known_answers() {
        let Some(t) = token() else { return };
        let seq: [u8; 32] = core::array::from_fn(|i| i as u8);
        let mut k1 = [0u8; 32];
        k1[31] = 1;
        let mut k2 = [0u8; 32];
        k2[1] = 0xff;
        let mut n2 = [0u8; 12];
        n2[11] = 2;
        let cases: [(&[u8], u32, &[u8], [u8; 64]); 6] = [
            (
                &seq,
                1,
                &hex!("000000090000004a00000000"),
                hex!(
                    "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e
                     d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"
                ),
            ),
            (
                &[0; 32],
                0,
                &[0; 12],
                hex!(
                    "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7
                     da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"
                ),
            ),
            (
                &[0; 32],
                1,
                &[0; 12],
                hex!(
                    "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed
                     29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f"
                ),
            ),
            (
                &k1,
                1,
                &[0; 12],
                hex!(
                    "3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a
                     8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0"
                ),
            ),
            (
                &k2,
                2,
                &[0; 12],
                hex!(
                    "72d54dfbf12ec44b362692df94137f328fea8da73990265ec1bbbea1ae9af0ca
                     13b25aa26cb4a648cb9b9d1be65b2c0924a66c54d545ec1b7374f4872e99f096"
                ),
            ),
            (
                &[0; 32],
                0,
                &n2,
                hex!(
                    "c2c64d378cd536374ae204b9ef933fcd1a8b2288b3dfa49672ab765b54ee27c7
                     8a970e0e955c14f3a88e741b97c286f75f8fc299e8148362fa198a39531bed6d"
                ),
            ),
        ];
        for (i, (key, ctr, nonce, want)) in cases.iter().enumerate() {
            for blocks in 1..=5 {
                let mut s = state(key, *ctr, nonce);
                let ks = keystream(t, &mut s, blocks);
                assert_eq!(ks[..64], want[..], "case {i}, {blocks}-block call");
                assert_eq!(s[12], ctr.wrapping_add(blocks as u32));
            }
        }

        let pt = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
        let want = hex!(
            "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b
             f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8
             07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736
             5af90bbf74a35be6b40b8eedf2785e42874d"
        );
        let mut s = state(&seq, 1, &hex!("000000000000004a00000000"));
        let mut buf = [0u8; 128];
        buf[..pt.len()].copy_from_slice(pt);
        xor_blocks(t, &mut s, &mut buf);
        assert_eq!(buf[..pt.len()], want[..]);
    }

    /// RFC 8439 Appendix A.2 #1–#3, from the verbatim upstream file (`KEY = …` records).
    #[test]
    fn rfc8439_appendix_a2() {
        let Some(t) = token() else { return };
        let text = include_str!("../../vectors/chacha20/rfc-7539-chacha20.txt");
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
        assert_eq!(recs.len(), 3);
        let unhex = |s: &str| -> Vec<u8> {
            (0..s.len() / 2)
                .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
                .collect()
        };
        for r in &recs {
            let ctr: u32 = r["INITIAL_BLOCK_COUNTER"].parse().unwrap();
            let pt = unhex(r["PLAINTEXT"]);
            let mut buf = pt.clone();
            buf.resize(pt.len().div_ceil(64) * 64, 0);
            let mut s = state(&unhex(r["KEY"]), ctr, &unhex(r["NONCE"]));
            xor_blocks(t, &mut s, &mut buf);
            assert_eq!(
                buf[..pt.len()],
                unhex(r["CIPHERTEXT"])[..],
                "COUNT {}",
                r["COUNT"]
            );
        }
    }

    /// Against the portable kernel: random states and data, every length 0..=16 blocks (four
    /// times the 4-block stride, so every mix of 4-, 2- and 1-block steps), counters around
    /// the wrap of word 12, data at an odd address, and the same stream when split at every
    /// block boundary.
    #[test]
    fn matches_portable() {
        let Some(t) = token() else { return };
        let starts = [
            0u32,
            1,
            u32::MAX - 16,
            u32::MAX - 5,
            u32::MAX - 2,
            u32::MAX - 1,
            u32::MAX,
        ];
        for (si, &start) in starts.iter().enumerate() {
            for n in 0..=16usize {
                let seed = 1000 * si as u64 + n as u64;
                let kn = bytes(seed, 44);
                let s0 = state(&kn[..32], start, &kn[32..]);
                let data = bytes(seed + 500, 64 * n + 1);
                let mut want = data[1..].to_vec();
                let mut sw = s0;
                super::super::soft::xor_blocks(&mut sw, &mut want);

                let mut got = data.clone();
                let mut s = s0;
                xor_blocks(t, &mut s, &mut got[1..]);
                assert_eq!(got[1..], want[..], "start {start:#x}, {n} blocks");
                assert_eq!(got[0], data[0], "byte before the data changed");
                assert_eq!(s, sw);
                assert_eq!(s[12], start.wrapping_add(n as u32));
                assert_eq!(s[13..], s0[13..]);

                if n <= 9 {
                    for cut in 0..=n {
                        let mut got = data[1..].to_vec();
                        let mut s = s0;
                        let (a, b) = got.split_at_mut(64 * cut);
                        xor_blocks(t, &mut s, a);
                        xor_blocks(t, &mut s, b);
                        assert_eq!(got, want, "start {start:#x}, {n} blocks cut at {cut}");
                    }
                }
            }
        }
    }

    /// The entry point keeps the AAPCS callee-saved registers (r4–r11, d8–d15) and the stack
    /// pointer on every path (0, 1, 2, 3, 4, 7 blocks), and computes the same as the portable
    /// kernel when called that way.
    #[test]
    fn abi() {
        let Some(_t) = token() else { return };
        for n in [0usize, 1, 2, 3, 4, 7] {
            let kn = bytes(90 + n as u64, 44);
            let s0 = state(&kn[..32], u32::MAX - 2, &kn[32..]);
            let mut want = bytes(n as u64, 64 * n);
            let mut got = want.clone();
            let mut sw = s0;
            super::super::soft::xor_blocks(&mut sw, &mut want);
            let args = [s0.as_ptr() as usize, got.as_mut_ptr() as usize, n];
            // SAFETY: NEON was detected just above; the arguments are a 16-word state and
            // `n` blocks of data, as `xor_blocks` passes them.
            let (_, rep) = unsafe { abi_call(simdcrypt_chacha20_neon as *const (), &args) };
            rep.assert_clean();
            assert_eq!(got, want, "{n} blocks");
        }
    }
}
