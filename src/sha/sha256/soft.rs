//! Portable SHA-256 compression on 32-bit words (FIPS 180-4 §6.2.2). Constant-time: only
//! additions, rotations and boolean functions, no data-dependent branches or indices.
#![forbid(unsafe_code)]

use super::{K, big_sigma0, big_sigma1, small_sigma0, small_sigma1};

/// Compresses whole 64-byte blocks into `state`.
pub(super) fn compress(state: &mut [u32; 8], blocks: &[u8]) {
    for block in blocks.chunks_exact(64) {
        // A 16-word circular schedule: W[t] for t >= 16 overwrites W[t - 16].
        let mut w = [0u32; 16];
        for (w, b) in w.iter_mut().zip(block.chunks_exact(4)) {
            *w = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
        for t in 0..64 {
            if t >= 16 {
                w[t & 15] = small_sigma1(w[(t - 2) & 15])
                    .wrapping_add(w[(t - 7) & 15])
                    .wrapping_add(small_sigma0(w[(t - 15) & 15]))
                    .wrapping_add(w[t & 15]);
            }
            let ch = (e & f) ^ (!e & g);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t1 = h
                .wrapping_add(big_sigma1(e))
                .wrapping_add(ch)
                .wrapping_add(K[t])
                .wrapping_add(w[t & 15]);
            let t2 = big_sigma0(a).wrapping_add(maj);
            h = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *s = s.wrapping_add(v);
        }
    }
}
