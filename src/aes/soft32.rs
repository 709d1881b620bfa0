//! Portable constant-time AES on 32-bit words ("bitsliced-32", for 32-bit targets such as
//! armv7): the fixsliced core of [`super::fixslice`] with two blocks per batch, one bit of
//! every byte of the batch per `u32` (layout `p = 8·row + 2·column + block`, see `fixslice`).
//!
//! ECB, CTR and CBC decryption run two blocks at a time (a partial last batch is padded with
//! zeros and its padding discarded); CBC encryption and IGE encrypt one block per batch.

#![forbid(unsafe_code)]

use super::fixslice::{Fixsliced, Layout, State};

/// Bytes per batch: two blocks.
const BATCH: usize = 32;

/// The 32-bit kernel: two blocks per batch.
pub(crate) type Soft32 = Fixsliced<Lanes32>;

/// The layout of two blocks in eight `u32`.
#[derive(Clone)]
pub(crate) struct Lanes32;

impl Layout for Lanes32 {
    type W = u32;
    const BATCH: usize = BATCH;

    #[inline(always)]
    fn pack(blocks: &[u8]) -> State<u32> {
        pack(blocks)
    }

    #[inline(always)]
    fn unpack(s: State<u32>, blocks: &mut [u8]) {
        unpack(s, blocks)
    }
}

/// Exchanges index bit `W_a` of the word number with index bit `i_y` of the bit position
/// (as in `soft64`): every bit of word `j` (bit `a` of `j` clear) at a position with bit `y`
/// set trades places with the bit of word `j + 2^a` at the position `2^y` lower.
#[inline(always)]
fn swap_index_bits(w: &mut [u32; 8], a: usize, y: u32) {
    const MASKS: [u32; 3] = [0x5555_5555, 0x3333_3333, 0x0f0f_0f0f];
    let shift = 1 << y;
    let m = MASKS[y as usize];
    for j in 0..8 {
        if j & (1 << a) == 0 {
            let hi = j | (1 << a);
            let t = ((w[j] >> shift) ^ w[hi]) & m;
            w[hi] ^= t;
            w[j] ^= t << shift;
        }
    }
}

/// Bitslices two blocks. Loading column `c` (bytes `4c..4c+4`, little-endian) of block `k`
/// into word `2c + k` indexes every bit by word number `(W2 W1 W0) = (c1 c0 k)` and bit
/// position `(i4 … i0) = (r1 r0 b2 b1 b0)`; the wanted layout is word `(b2 b1 b0)`, position
/// `(r1 r0 c1 c0 k)`: the three transpositions `W2↔i2`, `W1↔i1`, `W0↔i0` of an 8×8 bit
/// transpose.
#[inline(always)]
fn pack(blocks: &[u8]) -> State<u32> {
    let blocks = &blocks[..BATCH];
    let mut w = [0u32; 8];
    for (t, x) in w.iter_mut().enumerate() {
        let off = 16 * (t & 1) + 4 * (t >> 1);
        let mut b = [0u8; 4];
        b.copy_from_slice(&blocks[off..off + 4]);
        *x = u32::from_le_bytes(b);
    }
    swap_index_bits(&mut w, 2, 2);
    swap_index_bits(&mut w, 1, 1);
    swap_index_bits(&mut w, 0, 0);
    w
}

/// The inverse of [`pack`].
#[inline(always)]
fn unpack(mut w: State<u32>, blocks: &mut [u8]) {
    let blocks = &mut blocks[..BATCH];
    swap_index_bits(&mut w, 0, 0);
    swap_index_bits(&mut w, 1, 1);
    swap_index_bits(&mut w, 2, 2);
    for (t, x) in w.iter().enumerate() {
        let off = 16 * (t & 1) + 4 * (t >> 1);
        blocks[off..off + 4].copy_from_slice(&x.to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixslice::tests::known_answers;
    use super::*;

    #[test]
    fn pack_layout() {
        // Block k, byte 4c + r, bit b must land in word b at bit 8r + 2c + k.
        for k in 0..2 {
            for byte in 0..16 {
                for b in 0..8 {
                    let mut blocks = [0u8; BATCH];
                    blocks[16 * k + byte] = 1 << b;
                    let w = pack(&blocks);
                    let (r, c) = (byte % 4, byte / 4);
                    for (j, x) in w.iter().enumerate() {
                        let want = if j == b {
                            1u32 << (8 * r + 2 * c + k)
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
        known_answers(Soft32::new);
    }

    /// The two portable kernels agree (both are built for tests on every target).
    #[test]
    fn cross_check_soft64() {
        use super::super::fixslice::tests::cross_check;
        cross_check(Soft32::new, super::super::soft64::Soft64::new);
    }
}
