//! Portable ChaCha20 (RFC 8439 §2.1–2.3): four blocks at a time in the "vertical" layout (one
//! `[u32; 4]` per state word, a lane per block), which the compiler maps to whatever vector
//! registers the target's baseline has, and one block at a time for the rest. Additions,
//! XORs and fixed rotations only: constant time by construction.
#![forbid(unsafe_code)]

use crate::wipe::wipe;

/// "expand 32-byte k" as four little-endian words (RFC 8439 §2.3).
pub(crate) const SIGMA: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

#[inline(always)]
fn quarter(x: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
    x[a] = x[a].wrapping_add(x[b]);
    x[d] = (x[d] ^ x[a]).rotate_left(16);
    x[c] = x[c].wrapping_add(x[d]);
    x[b] = (x[b] ^ x[c]).rotate_left(12);
    x[a] = x[a].wrapping_add(x[b]);
    x[d] = (x[d] ^ x[a]).rotate_left(8);
    x[c] = x[c].wrapping_add(x[d]);
    x[b] = (x[b] ^ x[c]).rotate_left(7);
}

/// The 20 rounds (10 column + diagonal double rounds, RFC 8439 §2.3) without the final
/// addition; HChaCha20 uses them as they are.
pub(crate) fn rounds(x: &mut [u32; 16]) {
    for _ in 0..10 {
        quarter(x, 0, 4, 8, 12);
        quarter(x, 1, 5, 9, 13);
        quarter(x, 2, 6, 10, 14);
        quarter(x, 3, 7, 11, 15);
        quarter(x, 0, 5, 10, 15);
        quarter(x, 1, 6, 11, 12);
        quarter(x, 2, 7, 8, 13);
        quarter(x, 3, 4, 9, 14);
    }
}

type V = [u32; 4];

#[inline(always)]
fn add(a: &mut V, b: &V) {
    for l in 0..4 {
        a[l] = a[l].wrapping_add(b[l]);
    }
}

#[inline(always)]
fn xor_rot(d: &mut V, a: &V, n: u32) {
    for l in 0..4 {
        d[l] = (d[l] ^ a[l]).rotate_left(n);
    }
}

#[inline(always)]
fn quarter4(x: &mut [V; 16], a: usize, b: usize, c: usize, d: usize) {
    let (xa, xb, xc, xd) = (x[a], x[b], x[c], x[d]);
    let (mut xa, mut xb, mut xc, mut xd) = (xa, xb, xc, xd);
    add(&mut xa, &xb);
    xor_rot(&mut xd, &xa, 16);
    add(&mut xc, &xd);
    xor_rot(&mut xb, &xc, 12);
    add(&mut xa, &xb);
    xor_rot(&mut xd, &xa, 8);
    add(&mut xc, &xd);
    xor_rot(&mut xb, &xc, 7);
    x[a] = xa;
    x[b] = xb;
    x[c] = xc;
    x[d] = xd;
}

/// XORs the keystream of blocks `state[12]`, `state[12] + 1`, … into `data` (whole 64-byte
/// blocks) and advances `state[12]` (wrapping at 2^32; see `super::xor_blocks`).
pub(super) fn xor_blocks(state: &mut [u32; 16], data: &mut [u8]) {
    debug_assert!(data.len() % 64 == 0);
    let mut quads = data.chunks_exact_mut(256);
    if quads.len() > 0 {
        let mut init = [[0u32; 4]; 16];
        let mut x = [[0u32; 4]; 16];
        for quad in &mut quads {
            for (w, s) in init.iter_mut().zip(state.iter()) {
                *w = [*s; 4];
            }
            for (l, c) in init[12].iter_mut().enumerate() {
                *c = state[12].wrapping_add(l as u32);
            }
            x = init;
            for _ in 0..10 {
                quarter4(&mut x, 0, 4, 8, 12);
                quarter4(&mut x, 1, 5, 9, 13);
                quarter4(&mut x, 2, 6, 10, 14);
                quarter4(&mut x, 3, 7, 11, 15);
                quarter4(&mut x, 0, 5, 10, 15);
                quarter4(&mut x, 1, 6, 11, 12);
                quarter4(&mut x, 2, 7, 8, 13);
                quarter4(&mut x, 3, 4, 9, 14);
            }
            for (blk, out) in quad.chunks_exact_mut(64).enumerate() {
                for (i, o) in out.chunks_exact_mut(4).enumerate() {
                    let k = x[i][blk].wrapping_add(init[i][blk]).to_le_bytes();
                    for (ob, kb) in o.iter_mut().zip(k) {
                        *ob ^= kb;
                    }
                }
            }
            state[12] = state[12].wrapping_add(4);
        }
        wipe(&mut x);
        wipe(&mut init);
    }
    for out in quads.into_remainder().chunks_exact_mut(64) {
        let mut x = *state;
        rounds(&mut x);
        for (i, o) in out.chunks_exact_mut(4).enumerate() {
            let k = x[i].wrapping_add(state[i]).to_le_bytes();
            for (ob, kb) in o.iter_mut().zip(k) {
                *ob ^= kb;
            }
        }
        wipe(&mut x);
        state[12] = state[12].wrapping_add(1);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec;

    fn state(key: &[u8; 32], counter: u32, nonce: &[u8; 12]) -> [u32; 16] {
        let mut s = [0u32; 16];
        s[..4].copy_from_slice(&SIGMA);
        for i in 0..8 {
            s[4 + i] = u32::from_le_bytes(key[4 * i..4 * i + 4].try_into().unwrap());
        }
        s[12] = counter;
        for i in 0..3 {
            s[13 + i] = u32::from_le_bytes(nonce[4 * i..4 * i + 4].try_into().unwrap());
        }
        s
    }

    /// RFC 8439 §2.3.2: the block function's test vector (key 00..1f, counter 1).
    #[test]
    fn rfc8439_block() {
        let key: [u8; 32] = core::array::from_fn(|i| i as u8);
        let nonce = [0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0];
        let mut s = state(&key, 1, &nonce);
        let mut out = [0u8; 64];
        xor_blocks(&mut s, &mut out);
        assert_eq!(s[12], 2);
        let want = hex_literal::hex!(
            "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e
             d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"
        );
        assert_eq!(out, want);
    }

    /// The four-block path against the one-block path, across the word-12 wrap.
    #[test]
    fn four_way_matches_one_way() {
        let key: [u8; 32] = core::array::from_fn(|i| (i * 7 + 3) as u8);
        for start in [0u32, 5, u32::MAX - 5, u32::MAX - 1, u32::MAX] {
            for n in 0..12usize {
                let mut s4 = state(&key, start, &[1; 12]);
                let mut s1 = s4;
                let mut a = vec![0x5au8; 64 * n];
                let mut b = a.clone();
                xor_blocks(&mut s4, &mut a);
                for blk in b.chunks_exact_mut(64) {
                    xor_blocks(&mut s1, blk);
                }
                assert_eq!(a, b, "start {start} blocks {n}");
                assert_eq!(s4, s1);
                assert_eq!(s4[12], start.wrapping_add(n as u32));
                assert_eq!(s4[13], 0x0101_0101);
            }
        }
    }
}
