//! ChaCha20 (RFC 8439 §2.1–2.3) with aarch64 Advanced SIMD (NEON), through
//! `core::arch::aarch64`.
//!
//! # Layout
//! Four blocks at a time in the "vertical" layout: sixteen `uint32x4_t`, register `i` holding
//! state word `i` of blocks n, n+1, n+2, n+3 in lanes 0–3 (lane `l` of register 12 is the
//! counter `state[12] + l`, a wrapping 32-bit add, so word 13 is never touched). A quarter
//! round is then four independent quarter rounds, one per lane, and the column and diagonal
//! rounds differ only in which registers they name: no shuffles inside the 20 rounds. After
//! the final addition (RFC 8439 §2.3) each group of four registers (words 4k..4k+3) is a 4×4
//! matrix of words, transposed with TRN1/TRN2 on 32-bit then on 64-bit elements so that lane
//! `l` of the four becomes one register, the 16 bytes 16k..16k+15 of block `l`, which are
//! XORed into the data.
//!
//! One to three remaining blocks use the "horizontal" layout instead: a block is four
//! registers, one per row of the 4×4 state (words 0–3, 4–7, 8–11, 12–15), the column round is
//! one quarter round on whole registers, and the diagonal round first rotates rows 1, 2, 3 by
//! one, two, three lanes (EXT) so that diagonals line up as columns, then rotates them back.
//! Up to three such blocks run interleaved (independent dependency chains). A short message
//! (the AEAD's 16- or 64-byte case) thus costs 1–3 blocks' work, not four.
//!
//! # Rotations
//! `<<< 16` is REV32 on 16-bit elements (`vrev32q_u16`); `<<< 8` is a byte permutation (TBL,
//! `vqtbl1q_u8`, with the index vector [`ROT8`]); `<<< 12` and `<<< 7` are SHL then SRI
//! (shift right and insert: `vsriq_n_u32`), two instructions.
//!
//! Not tried: interleaving a scalar (general-purpose register) block with the four NEON
//! blocks, which pays on some cores whose NEON pipes are the bottleneck. Only measurements on
//! real hardware can decide that, and there was none (qemu only), so the simpler form stays.
//!
//! # Secrets in memory
//! The state is read from the caller's array (which the caller wipes) and every keystream
//! word stays in a vector register: it is added, transposed and XORed straight into `data`.
//! The source makes no stack copy of the state or keystream. Registers the compiler spilled
//! would not be wiped, so the release build (rustc 1.85, aarch64-unknown-linux-gnu) was
//! checked: the 4-block function [`four`] (16 state registers, a few temporaries and the TBL
//! index, of 32) and the 1–3-block paths store no vector register to the stack other than
//! the callee-saved d8–d10, which hold the caller's values. `four` is kept out of line for
//! this (see there).
//!
//! Constant time: additions, XORs, shifts, REV32, TBL with a constant index vector, EXT and
//! TRN only; the block count (public) is the only thing that steers a branch or an address.

use core::arch::aarch64::{
    uint8x16_t, uint32x4_t, vaddq_u32, vdupq_n_u32, veorq_u8, veorq_u32, vextq_u32, vld1q_u8,
    vld1q_u32, vqtbl1q_u8, vreinterpretq_u8_u32, vreinterpretq_u16_u32, vreinterpretq_u32_u8,
    vreinterpretq_u32_u16, vreinterpretq_u32_u64, vreinterpretq_u64_u32, vrev32q_u16, vshlq_n_u32,
    vsriq_n_u32, vst1q_u8, vtrn1q_u32, vtrn1q_u64, vtrn2q_u32, vtrn2q_u64,
};

use crate::cpu::arch::Neon;

/// TBL indices for a left rotation of every 32-bit lane by 8 bits: result byte `4w + j` is
/// source byte `4w + (j − 1) mod 4` (little-endian lanes).
const ROT8: [u8; 16] = [3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14];

/// The lane offsets of the four blocks' counters in the vertical layout.
const LANES: [u32; 4] = [0, 1, 2, 3];

/// XORs the keystream of the blocks numbered `state[12]`, `state[12] + 1`, … into `data`
/// (`data.len() % 64 == 0`, any length, in place) and advances `state[12]` by the number of
/// blocks, wrapping at 2^32; word 13 is never touched.
pub(super) fn xor_blocks(t: Neon, state: &mut [u32; 16], data: &mut [u8]) {
    debug_assert!(data.len() % 64 == 0);
    // SAFETY: the token proves NEON. The kernel reads and writes whole 64-byte blocks of
    // `data` only (a partial trailing block would be left alone, never over-read).
    unsafe { xor_blocks_neon(t, state, data) }
}

/// See [`xor_blocks`].
///
/// # Safety
/// None beyond the token (kept `unsafe` as a `#[target_feature]` fn).
#[target_feature(enable = "neon")]
unsafe fn xor_blocks_neon(t: Neon, state: &mut [u32; 16], data: &mut [u8]) {
    let mut quads = data.chunks_exact_mut(256);
    for quad in &mut quads {
        // SAFETY: `quad` is 256 bytes, readable and writable.
        unsafe { four(t, state, quad.as_mut_ptr()) };
        state[12] = state[12].wrapping_add(4);
    }
    let rest = quads.into_remainder();
    let p = rest.as_mut_ptr();
    // SAFETY: `rest` holds exactly `rest.len() / 64` whole blocks (the caller passes whole
    // blocks), which is the number each call below reads and writes at `p`.
    unsafe {
        match rest.len() / 64 {
            1 => horizontal::<1>(t, state, p),
            2 => horizontal::<2>(t, state, p),
            3 => horizontal::<3>(t, state, p),
            _ => {}
        }
    }
    state[12] = state[12].wrapping_add((rest.len() / 64) as u32);
}

/// `x <<< N` on every lane (`N` = 7 or 12, `M` = 32 − N): SHL by N, then SRI inserts
/// `x >> M`.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn rotl<const N: i32, const M: i32>(_t: Neon, x: uint32x4_t) -> uint32x4_t {
    // SAFETY: the token proves NEON; register operations only.
    unsafe { vsriq_n_u32::<M>(vshlq_n_u32::<N>(x), x) }
}

/// `x <<< 16` on every lane: swap the 16-bit halves (REV32).
#[inline]
#[target_feature(enable = "neon")]
unsafe fn rotl16(_t: Neon, x: uint32x4_t) -> uint32x4_t {
    // SAFETY: the token proves NEON; register operations only.
    unsafe { vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(x))) }
}

/// `x <<< 8` on every lane: TBL with [`ROT8`].
#[inline]
#[target_feature(enable = "neon")]
unsafe fn rotl8(_t: Neon, x: uint32x4_t, rot8: uint8x16_t) -> uint32x4_t {
    // SAFETY: the token proves NEON; register operations only.
    unsafe { vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(x), rot8)) }
}

/// One quarter round (RFC 8439 §2.1) on each of the `K` register quadruples
/// `(a[i], b[i], c[i], d[i])`, its four steps interleaved across the quadruples.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn quarter<const K: usize>(
    t: Neon,
    a: &mut [uint32x4_t; K],
    b: &mut [uint32x4_t; K],
    c: &mut [uint32x4_t; K],
    d: &mut [uint32x4_t; K],
    rot8: uint8x16_t,
) {
    // SAFETY: the token proves NEON; register operations only.
    unsafe {
        for i in 0..K {
            a[i] = vaddq_u32(a[i], b[i]);
            d[i] = rotl16(t, veorq_u32(d[i], a[i]));
        }
        for i in 0..K {
            c[i] = vaddq_u32(c[i], d[i]);
            b[i] = rotl::<12, 20>(t, veorq_u32(b[i], c[i]));
        }
        for i in 0..K {
            a[i] = vaddq_u32(a[i], b[i]);
            d[i] = rotl8(t, veorq_u32(d[i], a[i]), rot8);
        }
        for i in 0..K {
            c[i] = vaddq_u32(c[i], d[i]);
            b[i] = rotl::<7, 25>(t, veorq_u32(b[i], c[i]));
        }
    }
}

/// XORs `k` (16 keystream bytes as four little-endian words) into the 16 bytes at `p`.
///
/// # Safety
/// `p` is valid for reading and writing 16 bytes (any alignment).
#[inline]
#[target_feature(enable = "neon")]
unsafe fn xor16(_t: Neon, p: *mut u8, k: uint32x4_t) {
    // SAFETY: the caller guarantees 16 readable and writable bytes at `p`.
    unsafe { vst1q_u8(p, veorq_u8(vld1q_u8(p), vreinterpretq_u8_u32(k))) }
}

/// Four blocks, counters `state[12] + 0..4` (wrapping), XORed into the 256 bytes at `p`.
/// Does not advance `state[12]`.
///
/// Not inlined into the caller's loop: there LLVM hoists the loop-invariant broadcasts of the
/// key words out of the loop and, short of registers, spills them to the stack, where nothing
/// would wipe them. A call per 256 bytes re-broadcasts 15 words instead (cheap).
///
/// # Safety
/// `p` is valid for reading and writing 256 bytes.
#[inline(never)]
#[target_feature(enable = "neon")]
unsafe fn four(t: Neon, state: &[u32; 16], p: *mut u8) {
    // SAFETY: the token proves NEON; `LANES` and `ROT8` are 16 readable bytes each; the
    // stores write `p + 0..256`, which the caller guarantees.
    unsafe {
        let rot8 = vld1q_u8(ROT8.as_ptr());
        let ctr = vaddq_u32(vdupq_n_u32(state[12]), vld1q_u32(LANES.as_ptr()));
        let mut x: [uint32x4_t; 16] = [vdupq_n_u32(0); 16];
        for (xi, &s) in x.iter_mut().zip(state.iter()) {
            *xi = vdupq_n_u32(s);
        }
        x[12] = ctr;
        // Registers as four rows (a, b, c, d) of four: the quarter-round operands.
        let [
            x0,
            x1,
            x2,
            x3,
            x4,
            x5,
            x6,
            x7,
            x8,
            x9,
            x10,
            x11,
            x12,
            x13,
            x14,
            x15,
        ] = x;
        let mut a = [x0, x1, x2, x3];
        let mut b = [x4, x5, x6, x7];
        let mut c = [x8, x9, x10, x11];
        let mut d = [x12, x13, x14, x15];
        for _ in 0..10 {
            // Columns (0,4,8,12) (1,5,9,13) (2,6,10,14) (3,7,11,15).
            quarter::<4>(t, &mut a, &mut b, &mut c, &mut d, rot8);
            // Diagonals (0,5,10,15) (1,6,11,12) (2,7,8,13) (3,4,9,14): rename, no data moves.
            let mut b2 = [b[1], b[2], b[3], b[0]];
            let mut c2 = [c[2], c[3], c[0], c[1]];
            let mut d2 = [d[3], d[0], d[1], d[2]];
            quarter::<4>(t, &mut a, &mut b2, &mut c2, &mut d2, rot8);
            b = [b2[3], b2[0], b2[1], b2[2]];
            c = [c2[2], c2[3], c2[0], c2[1]];
            d = [d2[1], d2[2], d2[3], d2[0]];
        }
        // Final addition, one row at a time (words 4r..4r+3 of the four blocks), then the
        // transpose: lane l of the row's four registers is bytes 16r..16r+15 of block l.
        let rows = [a, b, c, d];
        for (r, row) in rows.iter().enumerate() {
            let mut w = [vdupq_n_u32(0); 4];
            for (j, wj) in w.iter_mut().enumerate() {
                let init = if r == 3 && j == 0 {
                    ctr
                } else {
                    vdupq_n_u32(state[4 * r + j])
                };
                *wj = vaddq_u32(row[j], init);
            }
            // [w0_0 w1_0 w0_2 w1_2], [w0_1 w1_1 w0_3 w1_3], and the same for w2, w3.
            let t01a = vtrn1q_u32(w[0], w[1]);
            let t01b = vtrn2q_u32(w[0], w[1]);
            let t23a = vtrn1q_u32(w[2], w[3]);
            let t23b = vtrn2q_u32(w[2], w[3]);
            let (a64, b64) = (vreinterpretq_u64_u32(t01a), vreinterpretq_u64_u32(t01b));
            let (c64, d64) = (vreinterpretq_u64_u32(t23a), vreinterpretq_u64_u32(t23b));
            let blk0 = vreinterpretq_u32_u64(vtrn1q_u64(a64, c64));
            let blk1 = vreinterpretq_u32_u64(vtrn1q_u64(b64, d64));
            let blk2 = vreinterpretq_u32_u64(vtrn2q_u64(a64, c64));
            let blk3 = vreinterpretq_u32_u64(vtrn2q_u64(b64, d64));
            xor16(t, p.add(16 * r), blk0);
            xor16(t, p.add(64 + 16 * r), blk1);
            xor16(t, p.add(128 + 16 * r), blk2);
            xor16(t, p.add(192 + 16 * r), blk3);
        }
    }
}

/// `K` (1..=3) blocks in the horizontal layout, counters `state[12] + 0..K` (wrapping),
/// XORed into the `64·K` bytes at `p`. Does not advance `state[12]`.
///
/// # Safety
/// `p` is valid for reading and writing `64·K` bytes.
#[target_feature(enable = "neon")]
unsafe fn horizontal<const K: usize>(t: Neon, state: &[u32; 16], p: *mut u8) {
    // SAFETY: the token proves NEON; `state` is 64 readable bytes; the stores write
    // `p + 0..64·K`, which the caller guarantees.
    unsafe {
        let rot8 = vld1q_u8(ROT8.as_ptr());
        let s0 = vld1q_u32(state.as_ptr());
        let s1 = vld1q_u32(state.as_ptr().add(4));
        let s2 = vld1q_u32(state.as_ptr().add(8));
        let s3 = vld1q_u32(state.as_ptr().add(12));
        // Row 3 of block i: [counter + i, nonce…]; the add is 32-bit, lane 0 only.
        let mut r3 = [s3; K];
        let mut inc = [0u32; 4];
        for (i, r) in r3.iter_mut().enumerate() {
            inc[0] = i as u32;
            *r = vaddq_u32(s3, vld1q_u32(inc.as_ptr()));
        }
        let (mut a, mut b, mut c, mut d) = ([s0; K], [s1; K], [s2; K], r3);
        for _ in 0..10 {
            quarter::<K>(t, &mut a, &mut b, &mut c, &mut d, rot8);
            // Rows 1, 2, 3 left by 1, 2, 3 lanes: the diagonals become columns.
            for i in 0..K {
                b[i] = vextq_u32::<1>(b[i], b[i]);
                c[i] = vextq_u32::<2>(c[i], c[i]);
                d[i] = vextq_u32::<3>(d[i], d[i]);
            }
            quarter::<K>(t, &mut a, &mut b, &mut c, &mut d, rot8);
            for i in 0..K {
                b[i] = vextq_u32::<3>(b[i], b[i]);
                c[i] = vextq_u32::<2>(c[i], c[i]);
                d[i] = vextq_u32::<1>(d[i], d[i]);
            }
        }
        for i in 0..K {
            let q = p.add(64 * i);
            xor16(t, q, vaddq_u32(a[i], s0));
            xor16(t, q.add(16), vaddq_u32(b[i], s1));
            xor16(t, q.add(32), vaddq_u32(c[i], s2));
            xor16(t, q.add(48), vaddq_u32(d[i], r3[i]));
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::cpu::Features;
    use std::vec;
    use std::vec::Vec;

    fn token() -> Option<Neon> {
        Features::detect().get::<Neon>()
    }

    fn state(key: &[u8; 32], counter: u32, nonce: &[u8; 12]) -> [u32; 16] {
        let mut s = [0u32; 16];
        s[..4].copy_from_slice(&super::super::soft::SIGMA);
        for (w, k) in s[4..12].iter_mut().zip(key.chunks_exact(4)) {
            *w = u32::from_le_bytes([k[0], k[1], k[2], k[3]]);
        }
        s[12] = counter;
        for (w, n) in s[13..].iter_mut().zip(nonce.chunks_exact(4)) {
            *w = u32::from_le_bytes([n[0], n[1], n[2], n[3]]);
        }
        s
    }

    /// SplitMix64 (a fixed-seed test data generator; not a cryptographic one).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        fn bytes(&mut self, out: &mut [u8]) {
            for b in out {
                *b = self.next() as u8;
            }
        }
    }

    /// RFC 8439 §2.3.2 (the block function: key 00..1f, counter 1), as the keystream XORed
    /// into zeros.
    #[test]
    fn rfc8439_block() {
        let Some(t) = token() else { return };
        let key: [u8; 32] = core::array::from_fn(|i| i as u8);
        let mut s = state(&key, 1, &[0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0]);
        let mut out = [0u8; 64];
        xor_blocks(t, &mut s, &mut out);
        assert_eq!(s[12], 2);
        let want = hex_literal::hex!(
            "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e
             d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"
        );
        assert_eq!(out, want);
    }

    /// RFC 8439 §2.4.2 (114 bytes from counter 1): the whole blocks through the kernel, the
    /// tail with one more kernel block XORed into a padded copy.
    #[test]
    fn rfc8439_encryption() {
        let Some(t) = token() else { return };
        let key: [u8; 32] = core::array::from_fn(|i| i as u8);
        let pt = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
        let want = hex_literal::hex!(
            "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b
             f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8
             07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736
             5af90bbf74a35be6b40b8eedf2785e42874d"
        );
        let mut s = state(&key, 1, &[0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 0]);
        let mut buf = [0u8; 128];
        buf[..pt.len()].copy_from_slice(pt);
        xor_blocks(t, &mut s, &mut buf);
        assert_eq!(buf[..pt.len()], want[..]);
        assert_eq!(s[12], 3);
    }

    /// RFC 8439 Appendix A.1 test vectors #1–#5 (the block function).
    #[test]
    fn rfc8439_appendix_a1() {
        use hex_literal::hex;
        let Some(t) = token() else { return };
        let mut k1 = [0u8; 32];
        k1[31] = 1;
        let mut k2 = [0u8; 32];
        k2[1] = 0xff;
        let mut n2 = [0u8; 12];
        n2[11] = 2;
        // (key, counter, nonce, keystream block)
        type Vector = ([u8; 32], u32, [u8; 12], [u8; 64]);
        let blocks: [Vector; 5] = [
            (
                [0; 32],
                0,
                [0; 12],
                hex!(
                    "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7
                     da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"
                ),
            ),
            (
                [0; 32],
                1,
                [0; 12],
                hex!(
                    "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed
                     29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f"
                ),
            ),
            (
                k1,
                1,
                [0; 12],
                hex!(
                    "3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a
                     8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0"
                ),
            ),
            (
                k2,
                2,
                [0; 12],
                hex!(
                    "72d54dfbf12ec44b362692df94137f328fea8da73990265ec1bbbea1ae9af0ca
                     13b25aa26cb4a648cb9b9d1be65b2c0924a66c54d545ec1b7374f4872e99f096"
                ),
            ),
            (
                [0; 32],
                0,
                n2,
                hex!(
                    "c2c64d378cd536374ae204b9ef933fcd1a8b2288b3dfa49672ab765b54ee27c7
                     8a970e0e955c14f3a88e741b97c286f75f8fc299e8148362fa198a39531bed6d"
                ),
            ),
        ];
        for (i, (key, ctr, nonce, want)) in blocks.iter().enumerate() {
            let mut s = state(key, *ctr, nonce);
            let mut out = [0u8; 64];
            xor_blocks(t, &mut s, &mut out);
            assert_eq!(out, *want, "A.1 #{}", i + 1);
        }
    }

    /// The `KEY = …` style records of an upstream vector file, as (name, value) lists.
    fn records(text: &str) -> Vec<Vec<(&str, &str)>> {
        let mut out: Vec<Vec<(&str, &str)>> = Vec::new();
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (k, v) = line.split_once(" = ").expect("NAME = value");
            if k == "COUNT" {
                out.push(Vec::new());
            }
            out.last_mut().expect("COUNT first").push((k, v));
        }
        out
    }

    fn field<'a>(r: &[(&str, &'a str)], name: &str) -> &'a str {
        r.iter().find(|(k, _)| *k == name).expect(name).1
    }

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// RFC 7539 / RFC 8439 Appendix A.2 #1–#3 (the verbatim upstream file): whole blocks
    /// through the kernel, the plaintext zero-padded to a whole block.
    #[test]
    fn rfc8439_appendix_a2_file() {
        let Some(t) = token() else { return };
        let recs = records(include_str!("../../vectors/chacha20/rfc-7539-chacha20.txt"));
        assert_eq!(recs.len(), 3);
        for r in &recs {
            let key: [u8; 32] = unhex(field(r, "KEY")).try_into().unwrap();
            let nonce: [u8; 12] = unhex(field(r, "NONCE")).try_into().unwrap();
            let ctr: u32 = field(r, "INITIAL_BLOCK_COUNTER").parse().unwrap();
            let pt = unhex(field(r, "PLAINTEXT"));
            let ct = unhex(field(r, "CIPHERTEXT"));
            let blocks = pt.len().div_ceil(64);
            let mut buf = vec![0u8; 64 * blocks];
            buf[..pt.len()].copy_from_slice(&pt);
            let mut s = state(&key, ctr, &nonce);
            xor_blocks(t, &mut s, &mut buf);
            assert_eq!(buf[..pt.len()], ct[..], "COUNT {}", field(r, "COUNT"));
            assert_eq!(s[12], ctr + blocks as u32);
        }
    }

    /// Against the portable kernel: random keys, nonces and data, every length 0..=16 blocks
    /// (four times the 4-block stride), counters around the 2^32 wrap of word 12.
    #[test]
    fn matches_soft() {
        let Some(t) = token() else { return };
        let mut rng = Rng(0x5eed_c4a7_0001);
        let starts = [
            0u32,
            1,
            7,
            u32::MAX - 16,
            u32::MAX - 4,
            u32::MAX - 2,
            u32::MAX,
        ];
        for &start in &starts {
            for n in 0..=16usize {
                let mut key = [0u8; 32];
                let mut nonce = [0u8; 12];
                rng.bytes(&mut key);
                rng.bytes(&mut nonce);
                let mut data = vec![0u8; 64 * n];
                rng.bytes(&mut data);
                let mut sa = state(&key, start, &nonce);
                let mut sb = sa;
                let mut a = data.clone();
                let mut b = data;
                xor_blocks(t, &mut sa, &mut a);
                super::super::soft::xor_blocks(&mut sb, &mut b);
                assert_eq!(a, b, "start {start} blocks {n}");
                assert_eq!(sa, sb, "start {start} blocks {n}");
                assert_eq!(sa[12], start.wrapping_add(n as u32));
            }
        }
    }

    /// Calls split at every block boundary give the same stream as one call, and data at an
    /// odd address is handled.
    #[test]
    fn splits_and_unaligned() {
        let Some(t) = token() else { return };
        let mut rng = Rng(77);
        let mut key = [0u8; 32];
        rng.bytes(&mut key);
        let n = 11usize;
        let mut whole = vec![0u8; 64 * n + 1];
        rng.bytes(&mut whole);
        let orig = whole.clone();
        let mut s = state(&key, u32::MAX - 5, &[3; 12]);
        xor_blocks(t, &mut s, &mut whole[1..]);
        for cut in 0..=n {
            let mut s2 = state(&key, u32::MAX - 5, &[3; 12]);
            let mut d: Vec<u8> = orig.clone();
            let (x, y) = d[1..].split_at_mut(64 * cut);
            xor_blocks(t, &mut s2, x);
            xor_blocks(t, &mut s2, y);
            assert_eq!(d, whole, "cut {cut}");
            assert_eq!(s2, s);
        }
    }
}
