//! Portable SHA-512 compression on 64-bit words (FIPS 180-4 §6.4.2). Constant-time: only
//! additions, rotations and boolean functions, no data-dependent branches or indices.
//!
//! Unrolled by 16 rounds with the round macros shared with the other SHA-2 word size
//! (`sha/sha2_rounds.rs`).
#![forbid(unsafe_code)]

use super::{K, big_sigma0, big_sigma1, small_sigma0, small_sigma1};

/// The round constants `K` in groups of 16, one group per unrolled block of rounds.
const K16: [[u64; 16]; 5] = {
    let mut k = [[0u64; 16]; 5];
    let mut t = 0;
    while t < 80 {
        k[t / 16][t % 16] = K[t];
        t += 1;
    }
    k
};

/// Compresses whole 128-byte blocks into `state`.
pub(super) fn compress(state: &mut [u64; 8], blocks: &[u8]) {
    for block in blocks.chunks_exact(128) {
        // A 16-word circular schedule: W[t] for t >= 16 overwrites W[t - 16].
        let mut w = [0u64; 16];
        for (w, b) in w.iter_mut().zip(block.chunks_exact(8)) {
            *w = u64::from_be_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
        let k = &K16[0];
        rounds16!(w, k, a, b, c, d, e, f, g, h);
        for k in &K16[1..] {
            rounds16!(w, k, a, b, c, d, e, f, g, h, schedule);
        }
        for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *s = s.wrapping_add(v);
        }
    }
}
