//! Tables and permutations for the vector-permute AES kernels (`x86_64_ssse3`, `aarch64_neon`),
//! all computed at compile time from the field arithmetic of FIPS 197 §4 — no table here is
//! typed in.
//!
//! The method is M. Hamburg, "Accelerating AES with Vector Permute Instructions", CHES 2009:
//! the S-box inversion is done in GF(2^8) seen as a quadratic extension of GF(2^4), where every
//! operation needed is a function of one 4-bit value, i.e. a 16-entry table lookup that one
//! byte shuffle (`pshufb`, `tbl`) does for 16 bytes at once. The shuffles take their index
//! from a register, so nothing is indexed in memory by secret data, and their timing does not
//! depend on the index. The derivation below is ours; it follows the paper's idea, not any
//! implementation's tables.
//!
//! # The field
//! GF(2^8) is `GF(2)[X]/(X^8 + X^4 + X^3 + X + 1)` (FIPS 197 §4.2). Its subfield GF(16) is
//! `{y : y^16 = y}`; `γ = 0x03^17` generates GF(16)* (0x03 generates GF(2^8)*, of order 255 =
//! 15·17), so `e_m = γ^m` (m = 0..3) is a GF(2)-basis of GF(16). A *nibble* `n` (4 bits) stands
//! for `nib(n) = Σ n_m e_m`.
//!
//! Pick `c ∈ GF(16)` with `Z^2 + cZ + c` irreducible over GF(16) and a root `θ ∈ GF(2^8)`
//! (then `θ̄ = θ^16 = θ + c` and `θ·θ̄ = c`). Every byte `x` is uniquely `x = i·θ + k` with
//! `i, k ∈ GF(16)`; the *working basis* stores it as the byte `ENC(x) = nib⁻¹(i) << 4 |
//! nib⁻¹(k)`. `ENC` is GF(2)-linear, so it commutes with XOR (round keys) and is computed
//! for 16 bytes by two lookups, one per input nibble ([`IPT_LO`], [`IPT_HI`]).
//!
//! # Inversion with 16-entry tables
//! With `j = i + k`, the norm `Q = x·x̄ = c·i^2 + c·i·k + k^2` (non-zero for `x ≠ 0`) and
//!
//! ```text
//! io = j + 1/(1/i + c/k) = Q / (k + c·i)
//! jo = i + 1/(1/j + c/k) = Q / (c·i + (1 + c)·k)
//! ```
//!
//! (expand `(i + k)(k + ci) + ik` and `i(k + cj) + jk`: both are `Q`). With `u = 1/io`,
//! `v = 1/jo`, `x⁻¹ = x̄/Q = (iθ + ci + k)/Q` gives
//!
//! ```text
//! x⁻¹ = α·u + β·v,   α = 1 + θ/c + θ/c^2,   β = θ/c^2
//! ```
//!
//! (`u + v = c·k/Q`, so `k/Q = (u + v)/c` and `i/Q = u/c + (u + v)/c^2`). So one S-box is:
//! split the byte into `i` (high nibble) and `k` (low nibble); look up `1/i`, `1/j`, `c/k`
//! ([`INV`], [`C_OVER`]); add; look up `1/·` twice more and add `j`, `i`: that is `io`, `jo`.
//! Any GF(2)-linear function `L(x⁻¹)` is then `T_u[io] ⊕ T_v[jo]` with `T_u[n] = L(α/nib(n))`
//! and `T_v[n] = L(β/nib(n))`: the affine map of SubBytes (FIPS 197 §5.1.1), the products by
//! 2 for MixColumns (§5.1.3) or by 9, 11, 13, 14 for InvMixColumns (§5.3.3), and the return to
//! the working basis all fold into these output tables.
//!
//! Zero has no inverse: the tables give `1/0 = ∞ = 0x80`. Both shuffles return 0 for an index
//! byte with bit 7 set (`pshufb`: bit 7; `tbl`: any index ≥ 16), and `∞ ⊕ nibble` keeps bit 7,
//! so a zero `i`, `j` or `k` drops its term: `i = 0` gives `io = j = k = Q/k`, `k = 0` gives
//! `io = jo = i`, `j = 0` gives `jo = i`, each as the formula says. An `io` or `jo` of ∞ means
//! that coordinate of `x⁻¹` is 0, and the output tables give 0 for it. For `x = 0` the two ∞ of
//! `1/i` and `c/k` cancel (`0x80 ⊕ 0x80 = 0`), `1/0` is ∞ again and both outputs are 0: the
//! AES "inverse" of 0 is 0. The test `model_sbox_all_bytes` checks all 256 inputs.
//!
//! # Constants and ShiftRows
//! The affine constant 0x63 of SubBytes passes through MixColumns unchanged (the coefficients
//! 2, 3, 1, 1 sum to 1), so the kernels add it to the round keys instead of the state. Rather
//! than permuting the state by ShiftRows every round, the kernels keep the state after round ρ
//! in the byte order `SR^-ρ` (state byte order is FIPS 197 §3.4: byte `4c + r` is row r,
//! column c). In that order the row rotation `R1` of MixColumns (row r takes row r + 1 of the
//! same column) becomes the byte permutation `F_ρ = SR^-ρ · R1 · SR^ρ`, round key ρ is stored
//! permuted by `SR^-ρ`, and the last round applies `SR^Nr` once. Since `SR^4` is the identity,
//! these depend on ρ mod 4 only. The derivation: with stored `Y = Π·X`, the next state is
//! `Π'·MC(SR(Π⁻¹·S(Y)))`; choosing `Π' = Π·SR⁻¹` turns `Π'·R_m·SR·Π⁻¹` into `Π'·R_m·Π'⁻¹`.
//! Decryption is the same with `SR⁻¹` for `SR` (equivalent inverse cipher, §5.3.5).

#![forbid(unsafe_code)]

/// `ENC(0x63)`: the SubBytes constant in the working basis, added to the round keys of the
/// middle rounds.
pub(super) const ENC_63: u8 = ENC[0x63];

/// Multiplication in GF(2^8) (FIPS 197 §4.2), shift-and-add. Build time only.
const fn mul(a: u8, b: u8) -> u8 {
    let mut a = a;
    let mut b = b;
    let mut p = 0u8;
    while b != 0 {
        if b & 1 != 0 {
            p ^= a;
        }
        a = xtime(a);
        b >>= 1;
    }
    p
}

/// Multiplication by X (FIPS 197 §4.2.1).
const fn xtime(a: u8) -> u8 {
    (a << 1) ^ (((a >> 7) & 1) * 0x1b)
}

const fn pow(a: u8, e: u32) -> u8 {
    let mut r = 1u8;
    let mut i = 0;
    while i < e {
        r = mul(r, a);
        i += 1;
    }
    r
}

/// `a⁻¹ = a^254`, and 0 for 0 (FIPS 197 §5.1.1).
const fn inv(a: u8) -> u8 {
    pow(a, 254)
}

/// The linear part of the SubBytes affine map (FIPS 197 §5.1.1, eq. 5.1):
/// `b'_i = b_i ⊕ b_{i+4} ⊕ b_{i+5} ⊕ b_{i+6} ⊕ b_{i+7}`, i.e. `x ⊕ rotl(x,1) ⊕ … ⊕ rotl(x,4)`.
const fn affine(x: u8) -> u8 {
    x ^ x.rotate_left(1) ^ x.rotate_left(2) ^ x.rotate_left(3) ^ x.rotate_left(4)
}

/// The generator of GF(16)* inside GF(2^8).
const GAMMA: u8 = pow(0x03, 17);

/// `nib(n) = Σ n_m γ^m`, the GF(16) element a nibble stands for.
const fn nib(n: u8) -> u8 {
    let mut e = 0u8;
    let mut m = 0;
    while m < 4 {
        if (n >> m) & 1 != 0 {
            e ^= pow(GAMMA, m);
        }
        m += 1;
    }
    e
}

/// The first `c = nib(n)`, `n = 1..16`, with `Z^2 + cZ + c` free of roots in GF(16).
const C: u8 = {
    let mut n = 1u8;
    loop {
        let c = nib(n);
        let mut root = false;
        let mut y = 0u8;
        while y < 16 {
            let z = nib(y);
            if mul(z, z) ^ mul(c, z) ^ c == 0 {
                root = true;
            }
            y += 1;
        }
        if !root {
            break c;
        }
        n += 1;
    }
};

/// The first root of `Z^2 + cZ + c` in GF(2^8).
const THETA: u8 = {
    let mut t = 0u8;
    loop {
        if mul(t, t) ^ mul(C, t) ^ C == 0 {
            break t;
        }
        t += 1;
    }
};

/// `ENC[x]` is `x` in the working basis (module docs); the inverse of `i·θ + k`.
const ENC: [u8; 256] = {
    let mut e = [0u8; 256];
    let mut n = 0usize;
    while n < 256 {
        let x = mul(nib((n >> 4) as u8), THETA) ^ nib((n & 15) as u8);
        e[x as usize] = n as u8;
        n += 1;
    }
    e
};

/// `MINV[y]` is the inverse of [`affine`].
const MINV: [u8; 256] = {
    let mut m = [0u8; 256];
    let mut x = 0usize;
    while x < 256 {
        m[affine(x as u8) as usize] = x as u8;
        x += 1;
    }
    m
};

const ALPHA: u8 = {
    let ci = inv(C);
    1 ^ mul(THETA, ci) ^ mul(THETA, mul(ci, ci))
};
const BETA: u8 = {
    let ci = inv(C);
    mul(THETA, mul(ci, ci))
};

/// Infinity, `1/0`: bit 7 makes both shuffles return 0 for it.
const INF: u8 = 0x80;

/// A nibble's value as a table entry: `ENC` of a GF(16) element has a zero high nibble.
const fn to_nib(e: u8) -> u8 {
    ENC[e as usize]
}

/// `T[n] = f(n)` for the 16 nibbles.
macro_rules! table {
    (|$n:ident| $e:expr) => {{
        let mut t = [0u8; 16];
        let mut $n = 0u8;
        while $n < 16 {
            t[$n as usize] = $e;
            $n += 1;
        }
        t
    }};
}

/// Output table of `L(w·x⁻¹)` for the coordinate `n` = `io` or `jo` (`w` = α or β); `L`
/// given as a 256-entry map applied after the product.
const fn out_table(w: u8, m: u8, l: &[u8; 256]) -> [u8; 16] {
    table!(|n| if n == 0 {
        0
    } else {
        l[mul(m, mul(w, inv(nib(n)))) as usize]
    })
}

/// The identity map, for output tables in the standard basis.
const ID: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = i as u8;
        i += 1;
    }
    t
};

/// `ENC ∘ affine`.
const ENC_AFFINE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = ENC[affine(i as u8) as usize];
        i += 1;
    }
    t
};

/// `affine` alone (last encryption round: standard basis).
const AFFINE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = affine(i as u8);
        i += 1;
    }
    t
};

/// `2·affine(·)` in the working basis.
const ENC_2AFFINE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = ENC[xtime(affine(i as u8)) as usize];
        i += 1;
    }
    t
};

/// `ENC ∘ affine⁻¹`: the decryption working basis (module docs of the kernels: the state
/// `y` is held as `ENC(affine⁻¹(y ⊕ 0x63))`, the input of the inversion).
const ENC_MINV: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = ENC[MINV[i] as usize];
        i += 1;
    }
    t
};

/// 0x0f in every byte: the nibble mask (`pshufb` needs it on both nibbles; NEON's `ushr`
/// clears the high nibble itself; the armv7 kernel loads it from its table block).
#[cfg(any(target_arch = "x86_64", target_arch = "arm"))]
pub(super) const NIBBLE: [u8; 16] = [0x0f; 16];
/// `ENC(n)` for a low nibble `n`.
pub(super) const IPT_LO: [u8; 16] = table!(|n| ENC[n as usize]);
/// `ENC(n << 4)` for a high nibble `n`.
pub(super) const IPT_HI: [u8; 16] = table!(|n| ENC[(n as usize) << 4]);
/// `ENC(affine⁻¹(n))` for a low nibble (decryption input).
pub(super) const DIPT_LO: [u8; 16] = table!(|n| ENC_MINV[n as usize]);
/// `ENC(affine⁻¹(n << 4))` for a high nibble (decryption input).
pub(super) const DIPT_HI: [u8; 16] = table!(|n| ENC_MINV[(n as usize) << 4]);
/// `1/n` in GF(16), ∞ for 0.
pub(super) const INV: [u8; 16] = table!(|n| if n == 0 { INF } else { to_nib(inv(nib(n))) });
/// `c/n` in GF(16), ∞ for 0.
pub(super) const C_OVER: [u8; 16] = table!(|n| if n == 0 {
    INF
} else {
    to_nib(mul(C, inv(nib(n))))
});
/// Middle encryption rounds: `ENC(affine(x⁻¹))` from `io` (U) and `jo` (T).
pub(super) const SB1_U: [u8; 16] = out_table(ALPHA, 1, &ENC_AFFINE);
/// See [`SB1_U`].
pub(super) const SB1_T: [u8; 16] = out_table(BETA, 1, &ENC_AFFINE);
/// Middle encryption rounds: `ENC(2·affine(x⁻¹))`.
pub(super) const SB2_U: [u8; 16] = out_table(ALPHA, 1, &ENC_2AFFINE);
/// See [`SB2_U`].
pub(super) const SB2_T: [u8; 16] = out_table(BETA, 1, &ENC_2AFFINE);
/// Last encryption round and key schedule: `affine(x⁻¹)` in the standard basis.
pub(super) const SBO_U: [u8; 16] = out_table(ALPHA, 1, &AFFINE);
/// See [`SBO_U`].
pub(super) const SBO_T: [u8; 16] = out_table(BETA, 1, &AFFINE);
/// Middle decryption rounds: `ENC(affine⁻¹(m·x⁻¹))` for the InvMixColumns coefficients.
pub(super) const D9_U: [u8; 16] = out_table(ALPHA, 9, &ENC_MINV);
/// See [`D9_U`].
pub(super) const D9_T: [u8; 16] = out_table(BETA, 9, &ENC_MINV);
/// See [`D9_U`].
pub(super) const DB_U: [u8; 16] = out_table(ALPHA, 11, &ENC_MINV);
/// See [`D9_U`].
pub(super) const DB_T: [u8; 16] = out_table(BETA, 11, &ENC_MINV);
/// See [`D9_U`].
pub(super) const DD_U: [u8; 16] = out_table(ALPHA, 13, &ENC_MINV);
/// See [`D9_U`].
pub(super) const DD_T: [u8; 16] = out_table(BETA, 13, &ENC_MINV);
/// See [`D9_U`].
pub(super) const DE_U: [u8; 16] = out_table(ALPHA, 14, &ENC_MINV);
/// See [`D9_U`].
pub(super) const DE_T: [u8; 16] = out_table(BETA, 14, &ENC_MINV);
/// Last decryption round, for the serial modes' chain: `ENC(affine⁻¹(x⁻¹))`, the next
/// block's decryption basis of the output (used by the SSSE3 kernel's serial loop).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) const D1_U: [u8; 16] = out_table(ALPHA, 1, &ENC_MINV);
/// See [`D1_U`].
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) const D1_T: [u8; 16] = out_table(BETA, 1, &ENC_MINV);
/// Last decryption round: `x⁻¹` in the standard basis.
pub(super) const DSBO_U: [u8; 16] = out_table(ALPHA, 1, &ID);
/// See [`DSBO_U`].
pub(super) const DSBO_T: [u8; 16] = out_table(BETA, 1, &ID);

/// A byte permutation as a shuffle index: `shuffle(x, p)[b] = x[p[b]]`.
type Perm = [u8; 16];

/// `p` first, then `q`: `x[p[q[b]]]`.
const fn then(p: Perm, q: Perm) -> Perm {
    table!(|b| p[q[b as usize] as usize])
}

const fn power(p: Perm, e: u32) -> Perm {
    let mut r = table!(|b| b);
    let mut i = 0;
    while i < e {
        r = then(r, p);
        i += 1;
    }
    r
}

/// ShiftRows (FIPS 197 §5.1.2): row r, column c takes row r, column c + r (mod 4).
const SR: Perm = table!(|b| 4 * ((b / 4 + b % 4) % 4) + b % 4);
/// Row rotation within each column: row r takes row r + 1 (mod 4).
const R1: Perm = table!(|b| 4 * (b / 4) + (b % 4 + 1) % 4);

/// `s^-ρ · R1 · s^ρ` (apply `s^ρ` first) for ρ mod 4 = 0..3, where `s` is ShiftRows for
/// encryption and InvShiftRows (= `SR^3`) for decryption.
const fn mix_perms(s: Perm) -> [Perm; 4] {
    let mut f = [[0u8; 16]; 4];
    let mut r = 0;
    while r < 4 {
        f[r] = then(then(power(s, r as u32), R1), power(s, (4 - r as u32) % 4));
        r += 1;
    }
    f
}

const fn powers(fs: [Perm; 4], e: u32) -> [Perm; 4] {
    [
        power(fs[0], e),
        power(fs[1], e),
        power(fs[2], e),
        power(fs[3], e),
    ]
}

/// Encryption: `F_ρ` (by ρ mod 4), the MixColumns row rotation in the stored byte order.
pub(super) const ENC_F: [Perm; 4] = mix_perms(SR);
/// `F_ρ^2` (encryption).
pub(super) const ENC_F2: [Perm; 4] = powers(ENC_F, 2);
/// `F_ρ^3 = F_ρ⁻¹`.
pub(super) const ENC_F3: [Perm; 4] = powers(ENC_F, 3);
/// Decryption: `F_ρ` with InvShiftRows.
pub(super) const DEC_F: [Perm; 4] = mix_perms(power(SR, 3));
/// `F_ρ^2` (decryption).
pub(super) const DEC_F2: [Perm; 4] = powers(DEC_F, 2);
/// `F_ρ^3` (decryption).
pub(super) const DEC_F3: [Perm; 4] = powers(DEC_F, 3);
/// `SR^ρ` for ρ mod 4: the encryption key order is `SR^-ρ = SR^(4-ρ)`; the decryption key
/// order `SR^ρ`; the final permutation `SR^Nr` (encryption) or `SR^-Nr` (decryption).
pub(super) const SR_POW: [Perm; 4] = [power(SR, 0), power(SR, 1), power(SR, 2), power(SR, 3)];
/// Row rotations by 1, 2, 3 within each column (InvMixColumns of the decryption keys; the
/// armv7 kernel takes its decryption keys from `fixslice::inv_mix_round_key` instead).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(super) const ROT: [Perm; 3] = [R1, power(R1, 2), power(R1, 3)];

/// FIPS 197 §5.2 KeyExpansion into standard round keys `rk[0..=Nr]` (byte `4c + r` is row r
/// of word c); returns Nr. `sub_word` must be a constant-time SubWord. Branches only on the
/// public word index.
pub(super) fn expand_key(
    key: &[u8],
    rk: &mut [[u8; 16]; 15],
    mut sub_word: impl FnMut([u8; 4]) -> [u8; 4],
) -> usize {
    let nk = key.len() / 4;
    let nr = nk + 6;
    let mut w = [[0u8; 4]; 60];
    for (wi, k) in w.iter_mut().zip(key.chunks_exact(4)) {
        wi.copy_from_slice(k);
    }
    let mut rcon = 1u8;
    for i in nk..4 * (nr + 1) {
        let mut t = w[i - 1];
        if i % nk == 0 {
            t = sub_word([t[1], t[2], t[3], t[0]]);
            t[0] ^= rcon;
            rcon = xtime(rcon);
        } else if nk > 6 && i % nk == 4 {
            t = sub_word(t);
        }
        for m in 0..4 {
            w[i][m] = w[i - nk][m] ^ t[m];
        }
    }
    for (r, k) in rk.iter_mut().take(nr + 1).enumerate() {
        for c in 0..4 {
            k[4 * c..4 * c + 4].copy_from_slice(&w[4 * r + c]);
        }
    }
    crate::wipe::wipe(&mut w);
    nr
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FIPS 197 S-box from its definition (§5.1.1).
    fn sbox(x: u8) -> u8 {
        affine(inv(x)) ^ 0x63
    }

    /// `pshufb` on one byte: 0 if bit 7 of the index is set, else `t[idx & 15]`.
    fn pshufb(t: &[u8; 16], idx: u8) -> u8 {
        if idx & 0x80 != 0 {
            0
        } else {
            t[(idx & 15) as usize]
        }
    }

    /// `tbl` on one byte: 0 for an index of 16 or more.
    fn tbl(t: &[u8; 16], idx: u8) -> u8 {
        if idx >= 16 { 0 } else { t[idx as usize] }
    }

    /// The kernels' inversion on one byte of the working basis: `(io, jo)`.
    fn io_jo(look: fn(&[u8; 16], u8) -> u8, x: u8) -> (u8, u8) {
        let i = x >> 4;
        let k = x & 15;
        let j = i ^ k;
        let ak = look(&C_OVER, k);
        let iak = look(&INV, i) ^ ak;
        let jak = look(&INV, j) ^ ak;
        (look(&INV, iak) ^ j, look(&INV, jak) ^ i)
    }

    fn out(look: fn(&[u8; 16], u8) -> u8, u: &[u8; 16], t: &[u8; 16], x: u8) -> u8 {
        let (io, jo) = io_jo(look, x);
        look(u, io) ^ look(t, jo)
    }

    fn ipt(lo: &[u8; 16], hi: &[u8; 16], x: u8) -> u8 {
        lo[(x & 15) as usize] ^ hi[(x >> 4) as usize]
    }

    #[test]
    fn field_constants() {
        // 0x03 generates GF(2^8)*: order 255.
        let mut order = 1;
        while pow(3, order) != 1 {
            order += 1;
        }
        assert_eq!(order, 255);
        // The 16 nibbles name the 16 elements of GF(16) = {y : y^16 = y}.
        let mut seen = [false; 256];
        for n in 0..16 {
            let e = nib(n);
            assert_eq!(pow(e, 16), e);
            assert!(!seen[e as usize]);
            seen[e as usize] = true;
            assert_eq!(to_nib(e), n);
        }
        assert_ne!(C, 0);
        assert!(pow(THETA, 16) != THETA, "θ must lie outside GF(16)");
        assert_eq!(pow(THETA, 16), THETA ^ C);
        assert_eq!(mul(THETA, THETA ^ C), C);
        // ENC is a bijection and GF(2)-linear.
        let mut hit = [false; 256];
        for x in 0..256 {
            assert!(!hit[ENC[x] as usize]);
            hit[ENC[x] as usize] = true;
            for y in [1usize, 2, 0x40, 0x80, 0x63] {
                assert_eq!(ENC[x ^ y], ENC[x] ^ ENC[y]);
            }
            assert_eq!(affine(MINV[x]) as usize, x);
        }
        // FIPS 197 Table 4 spot values and the inverse affine constant.
        assert_eq!(sbox(0x00), 0x63);
        assert_eq!(sbox(0x01), 0x7c);
        assert_eq!(sbox(0x53), 0xed);
        assert_eq!(sbox(0xff), 0x16);
        assert_eq!(MINV[0x63], 0x05);
    }

    /// The table path equals the S-box on every byte, for both shuffle semantics.
    #[test]
    fn model_sbox_all_bytes() {
        for look in [pshufb as fn(&[u8; 16], u8) -> u8, tbl] {
            for x in 0..=255u8 {
                let e = ipt(&IPT_LO, &IPT_HI, x);
                assert_eq!(e, ENC[x as usize]);
                assert_eq!(out(look, &SBO_U, &SBO_T, e) ^ 0x63, sbox(x), "{x:#x}");
                assert_eq!(out(look, &SB1_U, &SB1_T, e) ^ ENC_63, ENC[sbox(x) as usize]);
                assert_eq!(
                    out(look, &SB2_U, &SB2_T, e),
                    ENC[xtime(sbox(x) ^ 0x63) as usize]
                );
                // Decryption: the state y is held as ENC(affine⁻¹(y ⊕ 0x63)).
                let y = sbox(x);
                let d = ipt(&DIPT_LO, &DIPT_HI, y ^ 0x63);
                assert_eq!(out(look, &DSBO_U, &DSBO_T, d), x);
                for (m, u, t) in [
                    (1, &D1_U, &D1_T),
                    (9, &D9_U, &D9_T),
                    (11, &DB_U, &DB_T),
                    (13, &DD_U, &DD_T),
                    (14, &DE_U, &DE_T),
                ] {
                    assert_eq!(out(look, u, t, d), ENC_MINV[mul(m, x) as usize]);
                }
            }
        }
    }

    #[test]
    fn permutations() {
        assert_eq!(power(SR, 4), power(SR, 0));
        for f in [ENC_F, DEC_F] {
            for p in f {
                assert_eq!(power(p, 4), power(SR, 0));
                // A row rotation of some byte order: no byte stays put.
                assert!((0..16).all(|b| p[b] != b as u8));
            }
        }
        assert_eq!(ENC_F[0], R1);
        assert_eq!(DEC_F[0], R1);
    }
}
