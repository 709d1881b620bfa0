//! Portable SHA-512 compression on 64-bit words (FIPS 180-4 §6.4.2). Constant-time: no
//! data-dependent branches or indices.
#![forbid(unsafe_code)]

use super::{K, big_sigma0, big_sigma1, small_sigma0, small_sigma1};

/// Compresses whole 128-byte blocks into `state`.
pub(super) fn compress(state: &mut [u64; 8], blocks: &[u8]) {
    for block in blocks.chunks_exact(128) {
        let mut w = [0u64; 16];
        for (w, b) in w.iter_mut().zip(block.chunks_exact(8)) {
            let mut x = [0u8; 8];
            x.copy_from_slice(b);
            *w = u64::from_be_bytes(x);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
        for t in 0..80 {
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
