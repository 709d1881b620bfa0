//! Portable SHA-1 compression on 32-bit words (FIPS 180-4 §6.1.2). Constant-time: no
//! data-dependent branches or indices.
#![forbid(unsafe_code)]

/// FIPS 180-4 §4.2.1.
const K: [u32; 4] = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6];

/// Compresses whole 64-byte blocks into `state`.
pub(super) fn compress(state: &mut [u32; 5], blocks: &[u8]) {
    for block in blocks.chunks_exact(64) {
        let mut w = [0u32; 16];
        for (w, b) in w.iter_mut().zip(block.chunks_exact(4)) {
            *w = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        }
        let [mut a, mut b, mut c, mut d, mut e] = *state;
        for t in 0..80 {
            if t >= 16 {
                w[t & 15] = (w[(t - 3) & 15] ^ w[(t - 8) & 15] ^ w[(t - 14) & 15] ^ w[t & 15])
                    .rotate_left(1);
            }
            // The round function and constant depend on the (public) round number only.
            let (f, k) = match t / 20 {
                0 => ((b & c) | (!b & d), K[0]),
                1 => (b ^ c ^ d, K[1]),
                2 => ((b & c) | (b & d) | (c & d), K[2]),
                _ => (b ^ c ^ d, K[3]),
            };
            let tmp = a
                .rotate_left(5)
                .wrapping_add(f)
                .wrapping_add(e)
                .wrapping_add(k)
                .wrapping_add(w[t & 15]);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = tmp;
        }
        for (s, v) in state.iter_mut().zip([a, b, c, d, e]) {
            *s = s.wrapping_add(v);
        }
    }
}
