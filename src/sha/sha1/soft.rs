//! Portable SHA-1 compression on 32-bit words (FIPS 180-4 §6.1.2). Constant-time: only
//! additions, rotations and boolean functions, no data-dependent branches or indices.
//!
//! Fully unrolled: the round macro takes the working variables in rotated order, so no
//! variable is moved between rounds (after 5 rounds every name is back in its place), and the
//! 16-word circular message schedule is indexed by constants only.
#![forbid(unsafe_code)]

/// FIPS 180-4 §4.2.1.
const K: [u32; 4] = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6];

// The round functions of FIPS 180-4 §4.1.1 (4.1), in forms with fewer operations.
/// Ch(x, y, z) for rounds 0..20.
#[inline(always)]
fn ch(x: u32, y: u32, z: u32) -> u32 {
    z ^ (x & (y ^ z))
}
/// Parity(x, y, z) for rounds 20..40 and 60..80.
#[inline(always)]
fn parity(x: u32, y: u32, z: u32) -> u32 {
    x ^ y ^ z
}
/// Maj(x, y, z) for rounds 40..60.
#[inline(always)]
fn maj(x: u32, y: u32, z: u32) -> u32 {
    (x & y) | (z & (x | y))
}

/// Round `$t` (a constant) with the working variables named in rotated order: the new `a` is
/// written to `$e` and the new `c` to `$b`, so the next round is called with
/// `$e, $a, $b, $c, $d`. From round 16 on, slot `$t & 15` of the circular schedule (holding
/// W[t-16]) is first replaced by W[t] = ROTL1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]); the test
/// is on the public round number and folds away.
macro_rules! round {
    ($w:ident, $t:expr, $f:ident, $k:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {{
        let i = ($t) & 15;
        if $t >= 16 {
            $w[i] =
                ($w[(i + 13) & 15] ^ $w[(i + 8) & 15] ^ $w[(i + 2) & 15] ^ $w[i]).rotate_left(1);
        }
        $e = $e
            .wrapping_add($a.rotate_left(5))
            .wrapping_add($f($b, $c, $d))
            .wrapping_add($k)
            .wrapping_add($w[i]);
        $b = $b.rotate_left(30);
    }};
}

/// The twenty rounds `$t0..$t0 + 20` with round function `$f` and constant `$k`.
macro_rules! rounds20 {
    ($w:ident, $t0:literal, $f:ident, $k:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
        round!($w, $t0, $f, $k, $a, $b, $c, $d, $e);
        round!($w, $t0 + 1, $f, $k, $e, $a, $b, $c, $d);
        round!($w, $t0 + 2, $f, $k, $d, $e, $a, $b, $c);
        round!($w, $t0 + 3, $f, $k, $c, $d, $e, $a, $b);
        round!($w, $t0 + 4, $f, $k, $b, $c, $d, $e, $a);
        round!($w, $t0 + 5, $f, $k, $a, $b, $c, $d, $e);
        round!($w, $t0 + 6, $f, $k, $e, $a, $b, $c, $d);
        round!($w, $t0 + 7, $f, $k, $d, $e, $a, $b, $c);
        round!($w, $t0 + 8, $f, $k, $c, $d, $e, $a, $b);
        round!($w, $t0 + 9, $f, $k, $b, $c, $d, $e, $a);
        round!($w, $t0 + 10, $f, $k, $a, $b, $c, $d, $e);
        round!($w, $t0 + 11, $f, $k, $e, $a, $b, $c, $d);
        round!($w, $t0 + 12, $f, $k, $d, $e, $a, $b, $c);
        round!($w, $t0 + 13, $f, $k, $c, $d, $e, $a, $b);
        round!($w, $t0 + 14, $f, $k, $b, $c, $d, $e, $a);
        round!($w, $t0 + 15, $f, $k, $a, $b, $c, $d, $e);
        round!($w, $t0 + 16, $f, $k, $e, $a, $b, $c, $d);
        round!($w, $t0 + 17, $f, $k, $d, $e, $a, $b, $c);
        round!($w, $t0 + 18, $f, $k, $c, $d, $e, $a, $b);
        round!($w, $t0 + 19, $f, $k, $b, $c, $d, $e, $a);
    };
}

/// Compresses whole 64-byte blocks into `state`.
pub(super) fn compress(state: &mut [u32; 5], blocks: &[u8]) {
    for block in blocks.chunks_exact(64) {
        let mut w = [0u32; 16];
        for (w, b) in w.iter_mut().zip(block.chunks_exact(4)) {
            *w = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        }
        let [mut a, mut b, mut c, mut d, mut e] = *state;
        rounds20!(w, 0, ch, K[0], a, b, c, d, e);
        rounds20!(w, 20, parity, K[1], a, b, c, d, e);
        rounds20!(w, 40, maj, K[2], a, b, c, d, e);
        rounds20!(w, 60, parity, K[3], a, b, c, d, e);
        for (s, v) in state.iter_mut().zip([a, b, c, d, e]) {
            *s = s.wrapping_add(v);
        }
    }
}
