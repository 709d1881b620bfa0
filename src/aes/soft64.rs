//! Portable constant-time AES on 64-bit words ("bitsliced-64"): the fixsliced core of
//! [`super::fixslice`] with four blocks per batch, one bit of every byte of the batch per
//! `u64` (layout `p = 16·row + 4·column + block`, see `fixslice`).
//!
//! ECB, CTR and CBC decryption run four blocks at a time (a partial last batch is padded with
//! zeros and its padding discarded); CBC encryption and IGE are serial and encrypt one block
//! per batch.

#![forbid(unsafe_code)]

use super::fixslice::{Fixsliced, Layout, State, Word};

/// Bytes per batch: four blocks.
const BATCH: usize = 64;

/// The 64-bit kernel: four blocks per batch.
pub(crate) type Soft64 = Fixsliced<Lanes64>;

/// The layout of four blocks in eight `u64`.
#[derive(Clone)]
pub(crate) struct Lanes64;

impl Layout for Lanes64 {
    type W = u64;
    const BATCH: usize = BATCH;

    #[inline(always)]
    fn pack(blocks: &[u8]) -> State<u64> {
        pack(blocks)
    }

    #[inline(always)]
    fn unpack(s: State<u64>, blocks: &mut [u8]) {
        unpack(s, blocks)
    }
}

/// Exchanges index bit `W_a` of the word number with index bit `i_y` of the bit position in
/// each 64-bit lane: every bit of word `j` (bit `a` of `j` clear) at a position with bit `y`
/// set trades places with the bit of word `j + 2^a` at the position `2^y` lower. An involution.
#[inline(always)]
fn swap_index_bits<W: Word>(w: &mut State<W>, a: usize, y: u32) {
    const MASKS: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0f0f_0f0f_0f0f_0f0f,
        0x00ff_00ff_00ff_00ff,
        0x0000_ffff_0000_ffff,
        0x0000_0000_ffff_ffff,
    ];
    let shift = 1 << y;
    for j in 0..8 {
        if j & (1 << a) == 0 {
            let hi = j | (1 << a);
            let t = (w[j].shr(shift) ^ w[hi]) & w[hi].mask(MASKS[y as usize]);
            w[hi] = w[hi] ^ t;
            w[j] = w[j] ^ t.shl(shift);
        }
    }
}

/// Bitslices, in each 64-bit lane, four blocks loaded by [`pack`] (or the same loads done by
/// a vector kernel): with the half `h` (bytes `8h..8h+8`, little-endian) of block `k` in word
/// `4h + k`, every bit is indexed by word number `(W2 W1 W0) = (c1 k1 k0)` and bit position
/// `(i5 … i0) = (c0 r1 r0 b2 b1 b0)` (byte `4c + r`, bit `b`; `c = 2c1 + c0`). The wanted
/// layout is word `(b2 b1 b0)`, position `(r1 r0 c1 c0 k1 k0)`: two transpositions `W1↔i1`,
/// `W0↔i0`, and the 5-cycle `i5→i2→W2→i3→i4→i5`, done as four transpositions through `W2`
/// (`W2↔i3`, `W2↔i4`, `W2↔i5`, `W2↔i2`). Six word-pair swaps in all.
#[inline(always)]
pub(crate) fn bitslice<W: Word>(w: &mut State<W>) {
    swap_index_bits(w, 1, 1);
    swap_index_bits(w, 0, 0);
    swap_index_bits(w, 2, 3);
    swap_index_bits(w, 2, 4);
    swap_index_bits(w, 2, 5);
    swap_index_bits(w, 2, 2);
}

/// The inverse of [`bitslice`]: the same swaps in reverse order.
#[inline(always)]
pub(crate) fn unbitslice<W: Word>(w: &mut State<W>) {
    swap_index_bits(w, 2, 2);
    swap_index_bits(w, 2, 5);
    swap_index_bits(w, 2, 4);
    swap_index_bits(w, 2, 3);
    swap_index_bits(w, 0, 0);
    swap_index_bits(w, 1, 1);
}

/// Loads four blocks, half `h` of block `k` into word `4h + k`, and bitslices them.
#[inline(always)]
pub(super) fn pack(blocks: &[u8]) -> State<u64> {
    let blocks = &blocks[..BATCH];
    let mut w = [0u64; 8];
    for (t, x) in w.iter_mut().enumerate() {
        let (h, k) = (t >> 2, t & 3);
        let off = 16 * k + 8 * h;
        let mut b = [0u8; 8];
        b.copy_from_slice(&blocks[off..off + 8]);
        *x = u64::from_le_bytes(b);
    }
    bitslice(&mut w);
    w
}

/// The inverse of [`pack`].
#[inline(always)]
fn unpack(mut w: State<u64>, blocks: &mut [u8]) {
    let blocks = &mut blocks[..BATCH];
    unbitslice(&mut w);
    for (t, x) in w.iter().enumerate() {
        let (h, k) = (t >> 2, t & 3);
        let off = 16 * k + 8 * h;
        blocks[off..off + 8].copy_from_slice(&x.to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixslice::tests::known_answers;
    use super::*;

    #[test]
    fn pack_layout() {
        // Block k, byte 4c + r, bit b must land in word b at bit 16r + 4c + k.
        for k in 0..4 {
            for byte in 0..16 {
                for b in 0..8 {
                    let mut blocks = [0u8; BATCH];
                    blocks[16 * k + byte] = 1 << b;
                    let w = pack(&blocks);
                    let (r, c) = (byte % 4, byte / 4);
                    for (j, x) in w.iter().enumerate() {
                        let want = if j == b {
                            1u64 << (16 * r + 4 * c + k)
                        } else {
                            0
                        };
                        assert_eq!(*x, want, "block {k} byte {byte} bit {b}");
                    }
                    let mut back = [0u8; BATCH];
                    unpack(w, &mut back);
                    assert_eq!(back, blocks);
                }
            }
        }
    }

    #[test]
    fn fips197_and_sp800_38a() {
        known_answers(Soft64::new);
    }
}
