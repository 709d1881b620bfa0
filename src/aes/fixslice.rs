//! The fixsliced AES core shared by the portable kernels (`soft64`, `soft32`) and the AVX2
//! bitsliced kernel: rounds, S-box circuit and key schedule, generic over the machine word.
//!
//! # Representation
//!
//! A batch of blocks is held as eight words `s[0..8]`: word `b` holds bit `b` (bit 0 = least
//! significant) of every byte of every block of the batch. Each *lane* of a word (64 bits in
//! `u64` and in each 64-bit lane of an AVX2 register, 32 bits in `u32`) holds one batch of 4
//! (resp. 2) blocks. Byte `4c + r` of block `k` (FIPS 197 §3.4: row `r`, column `c`) sits at
//! bit
//!
//! ```text
//! p = ROW·r + COL·c + k,   ROW = LANE/4, COL = LANE/16   (64-bit: p = 16r + 4c + k)
//! ```
//!
//! so a row is a `ROW`-bit group and rotating the whole lane right by `ROW` brings row `r + 1`
//! to row `r` (what MixColumns needs), while moving along a row is a rotation of `COL`-bit
//! fields inside each group (two rotations and two masks, [`Word::rc`]).
//!
//! # Fixslicing (Adomnicai and Peyrin, "Fixslicing AES-like ciphers", TCHES 2021/1, §3)
//!
//! ShiftRows is never applied to the state. After the SubBytes of round `i`
//! (1 ≤ i ≤ Nr) the state is kept as `SR^{-i}` of the true state: the byte of row `r`,
//! column `c` is stored in column `c + i·r mod 4`. MixColumns of round `i` then works on the
//! stored columns `{(r, s + i·r)}`: with `m = i mod 4`, row `r + 1` of the true column is
//! found `m` columns further right, so round `i` uses a MixColumns that rotates by
//! (1 row, `m` columns) and (2 rows, `2m` columns) ([`mix_columns`]); there are four
//! variants and they repeat with period 4. The round key `K_i` is stored as `SR^{-i}(K_i)` to
//! match. After the last round the state is `SR^{-Nr}` of the ciphertext; `Nr mod 4` is 2
//! for AES-128 and AES-256 (one cheap `SR^2`, [`shift_rows_2`]) and 0 for AES-192 (nothing).
//! Decryption runs the same stored form backwards.
//!
//! # S-box
//!
//! SubBytes and its inverse are the depth-16 circuits of Boyar and Peralta ("A depth-16
//! circuit for the AES S-box", SEC 2012, eprint 2011/332, figures 5–9): 128 and 127 gates
//! sharing the 63-gate middle (the inversion in GF(2^4)²). The XNOR gates of the paper only
//! add the affine constant 0x63; we compute the circuits with XOR only and add 0x63 to every
//! round key but the first instead (MixColumns and its inverse map a column of equal bytes
//! `c` to itself, since 2⊕3⊕1⊕1 = 0e⊕0b⊕0d⊕09 = 1, so the constant passes through them):
//! encryption round keys then cancel the missing constant of the forward S-box, decryption
//! round keys supply the constant that the inverse S-box's XNORs expect at its input.
//!
//! Everything is straight-line code on the words: no branch or memory index depends on the
//! key or the data.

#![forbid(unsafe_code)]

use core::ops::{BitAnd, BitOr, BitXor};

/// A machine word (or vector) of one or more independent lanes of `LANE` bits, each holding
/// one batch of blocks in the layout described in the module documentation.
pub(crate) trait Word:
    Copy + BitXor<Output = Self> + BitAnd<Output = Self> + BitOr<Output = Self>
{
    /// Bits per lane: 64 (4 blocks per lane) or 32 (2 blocks per lane).
    const LANE: u32;
    /// A word of the same kind as `self` with every lane set to the low `LANE` bits of `m`
    /// (a method rather than a constructor so that a vector word can carry the token of its
    /// CPU features into every value derived from it).
    fn mask(self, m: u64) -> Self;
    /// Each lane rotated right by `n` bits, `0 <= n < LANE`.
    fn rotr(self, n: u32) -> Self;
    /// Each lane shifted left by `n` bits, `0 < n < LANE`.
    fn shl(self, n: u32) -> Self;
    /// Each lane shifted right by `n` bits, `0 < n < LANE`.
    fn shr(self, n: u32) -> Self;

    /// Moves every bit from stored row `r + dr`, column `s + dc` to row `r`, column `s`
    /// (indices mod 4; `dr, dc < 4`).
    #[inline(always)]
    fn rc(self, dr: u32, dc: u32) -> Self {
        let row = Self::LANE / 4;
        let col = Self::LANE / 16;
        if dc == 0 {
            return self.rotr((dr * row) % Self::LANE);
        }
        // Columns s < 4 - dc read column s + dc of the same group: a rotation by dr rows and
        // dc columns; the others wrap around inside the row, i.e. come from one row less
        // far. (Note `near = wrap + ROW mod LANE`, which vector words use.)
        let near = (dr * row + dc * col) % Self::LANE;
        let wrap = ((dr + 3) * row + dc * col) % Self::LANE;
        let m = low_cols(Self::LANE, 4 - dc);
        (self.rotr(near) & self.mask(m)) | (self.rotr(wrap) & self.mask(!m))
    }
}

/// The state of one batch: word `b` holds bit `b` of every byte.
pub(crate) type State<W> = [W; 8];

/// What the S-box circuits ([`sub_bytes`], [`inv_sub_bytes`]) need of a word: XOR and AND,
/// bit by bit, whatever the layout (the aarch64 NEON kernel has its own layout and rotations,
/// and shares only the circuits).
pub(crate) trait Gates: Copy + BitXor<Output = Self> + BitAnd<Output = Self> {}

impl<T: Copy + BitXor<Output = T> + BitAnd<Output = T>> Gates for T {}

/// `lane`-bit mask with, in every row (group of `lane/4` bits), its lowest `n` columns (each
/// `lane/16` bits) set.
pub(crate) const fn low_cols(lane: u32, n: u32) -> u64 {
    let row = lane / 4;
    let col = lane / 16;
    let group: u64 = (1u64 << (n * col)) - 1;
    let mut m = 0u64;
    let mut r = 0;
    while r < 4 {
        m |= group << (r * row);
        r += 1;
    }
    m
}

/// `lane`-bit mask of rows `1` and `3`, columns `0` and `1`.
const fn rows13_cols01(lane: u32) -> u64 {
    let row = lane / 4;
    let col = lane / 16;
    let group: u64 = (1u64 << (2 * col)) - 1;
    (group << row) | (group << (3 * row))
}

/// A round key in a form that can be added to a state of words `W`: the state's own type, or
/// a more compact one that a vector kernel broadcasts as it goes.
pub(crate) trait RoundKey<W: Word> {
    /// `s ^= self`.
    fn add_to(&self, s: &mut State<W>);
}

impl<W: Word> RoundKey<W> for State<W> {
    #[inline(always)]
    fn add_to(&self, s: &mut State<W>) {
        for (a, b) in s.iter_mut().zip(self) {
            *a = *a ^ *b;
        }
    }
}

/// `s ^= rk`.
#[inline(always)]
fn add_round_key<W: Word, K: RoundKey<W>>(s: &mut State<W>, rk: &K) {
    rk.add_to(s);
}

/// Multiplication of every byte by x (i.e. 2) in GF(2^8) mod x^8 + x^4 + x^3 + x + 1 (XORs
/// only: shared with the aarch64 bitsliced NEON kernel, whose words are `Gates`).
#[inline(always)]
pub(crate) fn xtime<W: Gates>(t: &State<W>) -> State<W> {
    [
        t[7],
        t[0] ^ t[7],
        t[1],
        t[2] ^ t[7],
        t[3] ^ t[7],
        t[4],
        t[5],
        t[6],
    ]
}

/// MixColumns (FIPS 197 §5.1.3) of the state stored as `SR^{-M}` of the true one
/// (`M = i mod 4` in round `i`). Output row `r` of a column is
/// `2·a_r ⊕ 3·a_{r+1} ⊕ a_{r+2} ⊕ a_{r+3} = 2·(a_r ⊕ a_{r+1}) ⊕ a_{r+1} ⊕ (a_{r+2} ⊕ a_{r+3})`,
/// where `a_{r+1}` is stored one row down and `M` columns right, `a_{r+2}` two rows down and
/// `2M` columns right.
#[inline(always)]
pub(crate) fn mix_columns<W: Word, const M: u32>(s: &mut State<W>) {
    let mut a1 = *s;
    let mut t = *s;
    for b in 0..8 {
        a1[b] = s[b].rc(1, M);
        t[b] = s[b] ^ a1[b];
    }
    let x2 = xtime(&t);
    for b in 0..8 {
        s[b] = x2[b] ^ a1[b] ^ t[b].rc(2, (2 * M) % 4);
    }
}

/// InvMixColumns in the same stored form. The inverse matrix (0e 0b 0d 09) factors as
/// (02 03 01 01)·(05 00 04 00) (circulant matrices), so this first maps each column to
/// `a_r ⊕ 4·(a_r ⊕ a_{r+2})` and then applies MixColumns.
#[inline(always)]
pub(crate) fn inv_mix_columns<W: Word, const M: u32>(s: &mut State<W>) {
    let mut u = *s;
    for b in 0..8 {
        u[b] = s[b] ^ s[b].rc(2, (2 * M) % 4);
    }
    let u4 = xtime(&xtime(&u));
    for b in 0..8 {
        s[b] = s[b] ^ u4[b];
    }
    mix_columns::<W, M>(s);
}

/// `SR^2` (= `SR^{-2}`): rows 1 and 3 exchange their column pairs (0,1) and (2,3).
#[inline(always)]
pub(crate) fn shift_rows_2<W: Word>(s: &mut State<W>) {
    let sh = 2 * (W::LANE / 16);
    for x in s.iter_mut() {
        let m = x.mask(rows13_cols01(W::LANE));
        let t = (*x ^ x.shr(sh)) & m;
        *x = *x ^ t ^ t.shl(sh);
    }
}

/// SubBytes minus the constant 0x63 (see the module documentation): the forward circuit of
/// Boyar–Peralta with its XNOR gates computed as XOR. Variables are named as in the paper;
/// its input bit `U0` is the most significant bit of the byte, i.e. word 7.
#[inline(always)]
pub(crate) fn sub_bytes<W: Gates>(s: &mut State<W>) {
    let [u7, u6, u5, u4, u3, u2, u1, u0] = *s;
    // Top linear transformation (figure 5).
    let t1 = u0 ^ u3;
    let t2 = u0 ^ u5;
    let t3 = u0 ^ u6;
    let t4 = u3 ^ u5;
    let t5 = u4 ^ u6;
    let t6 = t1 ^ t5;
    let t7 = u1 ^ u2;
    let t8 = u7 ^ t6;
    let t9 = u7 ^ t7;
    let t10 = t6 ^ t7;
    let t11 = u1 ^ u5;
    let t12 = u2 ^ u5;
    let t13 = t3 ^ t4;
    let t14 = t6 ^ t11;
    let t15 = t5 ^ t11;
    let t16 = t5 ^ t12;
    let t17 = t9 ^ t16;
    let t18 = u3 ^ u7;
    let t19 = t7 ^ t18;
    let t20 = t1 ^ t19;
    let t21 = u6 ^ u7;
    let t22 = t7 ^ t21;
    let t23 = t2 ^ t22;
    let t24 = t2 ^ t10;
    let t25 = t20 ^ t17;
    let t26 = t3 ^ t16;
    let t27 = t1 ^ t12;
    // Shared non-linear middle (figure 7), with D = U7.
    let m1 = t13 & t6;
    let m2 = t23 & t8;
    let m3 = t14 ^ m1;
    let m4 = t19 & u7;
    let m5 = m4 ^ m1;
    let m6 = t3 & t16;
    let m7 = t22 & t9;
    let m8 = t26 ^ m6;
    let m9 = t20 & t17;
    let m10 = m9 ^ m6;
    let m11 = t1 & t15;
    let m12 = t4 & t27;
    let m13 = m12 ^ m11;
    let m14 = t2 & t10;
    let m15 = m14 ^ m11;
    let m16 = m3 ^ m2;
    let m17 = m5 ^ t24;
    let m18 = m8 ^ m7;
    let m19 = m10 ^ m15;
    let m20 = m16 ^ m13;
    let m21 = m17 ^ m15;
    let m22 = m18 ^ m13;
    let m23 = m19 ^ t25;
    let m24 = m22 ^ m23;
    let m25 = m22 & m20;
    let m26 = m21 ^ m25;
    let m27 = m20 ^ m21;
    let m28 = m23 ^ m25;
    let m29 = m28 & m27;
    let m30 = m26 & m24;
    let m31 = m20 & m23;
    let m32 = m27 & m31;
    let m33 = m27 ^ m25;
    let m34 = m21 & m22;
    let m35 = m24 & m34;
    let m36 = m24 ^ m25;
    let m37 = m21 ^ m29;
    let m38 = m32 ^ m33;
    let m39 = m23 ^ m30;
    let m40 = m35 ^ m36;
    let m41 = m38 ^ m40;
    let m42 = m37 ^ m39;
    let m43 = m37 ^ m38;
    let m44 = m39 ^ m40;
    let m45 = m42 ^ m41;
    let m46 = m44 & t6;
    let m47 = m40 & t8;
    let m48 = m39 & u7;
    let m49 = m43 & t16;
    let m50 = m38 & t9;
    let m51 = m37 & t17;
    let m52 = m42 & t15;
    let m53 = m45 & t27;
    let m54 = m41 & t10;
    let m55 = m44 & t13;
    let m56 = m40 & t23;
    let m57 = m39 & t19;
    let m58 = m43 & t3;
    let m59 = m38 & t22;
    let m60 = m37 & t20;
    let m61 = m42 & t1;
    let m62 = m45 & t4;
    let m63 = m41 & t2;
    // Bottom linear transformation (figure 8).
    let l0 = m61 ^ m62;
    let l1 = m50 ^ m56;
    let l2 = m46 ^ m48;
    let l3 = m47 ^ m55;
    let l4 = m54 ^ m58;
    let l5 = m49 ^ m61;
    let l6 = m62 ^ l5;
    let l7 = m46 ^ l3;
    let l8 = m51 ^ m59;
    let l9 = m52 ^ m53;
    let l10 = m53 ^ l4;
    let l11 = m60 ^ l2;
    let l12 = m48 ^ m51;
    let l13 = m50 ^ l0;
    let l14 = m52 ^ m61;
    let l15 = m55 ^ l1;
    let l16 = m56 ^ l0;
    let l17 = m57 ^ l1;
    let l18 = m58 ^ l8;
    let l19 = m63 ^ l4;
    let l20 = l0 ^ l1;
    let l21 = l1 ^ l7;
    let l22 = l3 ^ l12;
    let l23 = l18 ^ l2;
    let l24 = l15 ^ l9;
    let l25 = l6 ^ l10;
    let l26 = l7 ^ l9;
    let l27 = l8 ^ l10;
    let l28 = l11 ^ l14;
    let l29 = l11 ^ l17;
    let s0 = l6 ^ l24;
    let s1 = l16 ^ l26;
    let s2 = l19 ^ l28;
    let s3 = l6 ^ l21;
    let s4 = l20 ^ l22;
    let s5 = l25 ^ l29;
    let s6 = l13 ^ l27;
    let s7 = l6 ^ l23;
    *s = [s7, s6, s5, s4, s3, s2, s1, s0];
}

/// InvSubBytes of `x ⊕ 0x63` (see the module documentation): the inverse circuit of
/// Boyar–Peralta with its XNOR gates computed as XOR, which is exact when every input byte
/// carries the extra 0x63.
#[inline(always)]
pub(crate) fn inv_sub_bytes<W: Gates>(s: &mut State<W>) {
    let [u7, u6, u5, u4, u3, u2, u1, u0] = *s;
    // Top linear transformation (figure 6).
    let t23 = u0 ^ u3;
    let t22 = u1 ^ u3;
    let t2 = u0 ^ u1;
    let t1 = u3 ^ u4;
    let t24 = u4 ^ u7;
    let r5 = u6 ^ u7;
    let t8 = u1 ^ t23;
    let t19 = t22 ^ r5;
    let t9 = u7 ^ t1;
    let t10 = t2 ^ t24;
    let t13 = t2 ^ r5;
    let t3 = t1 ^ r5;
    let t25 = u2 ^ t1;
    let r13 = u1 ^ u6;
    let t17 = u2 ^ t19;
    let t20 = t24 ^ r13;
    let t4 = u4 ^ t8;
    let r17 = u2 ^ u5;
    let r18 = u5 ^ u6;
    let r19 = u2 ^ u4;
    let y5 = u0 ^ r17;
    let t6 = t22 ^ r17;
    let t16 = r13 ^ r19;
    let t27 = t1 ^ r18;
    let t15 = t10 ^ t27;
    let t14 = t10 ^ r18;
    let t26 = t3 ^ t16;
    // Shared non-linear middle (figure 7), with D = Y5.
    let m1 = t13 & t6;
    let m2 = t23 & t8;
    let m3 = t14 ^ m1;
    let m4 = t19 & y5;
    let m5 = m4 ^ m1;
    let m6 = t3 & t16;
    let m7 = t22 & t9;
    let m8 = t26 ^ m6;
    let m9 = t20 & t17;
    let m10 = m9 ^ m6;
    let m11 = t1 & t15;
    let m12 = t4 & t27;
    let m13 = m12 ^ m11;
    let m14 = t2 & t10;
    let m15 = m14 ^ m11;
    let m16 = m3 ^ m2;
    let m17 = m5 ^ t24;
    let m18 = m8 ^ m7;
    let m19 = m10 ^ m15;
    let m20 = m16 ^ m13;
    let m21 = m17 ^ m15;
    let m22 = m18 ^ m13;
    let m23 = m19 ^ t25;
    let m24 = m22 ^ m23;
    let m25 = m22 & m20;
    let m26 = m21 ^ m25;
    let m27 = m20 ^ m21;
    let m28 = m23 ^ m25;
    let m29 = m28 & m27;
    let m30 = m26 & m24;
    let m31 = m20 & m23;
    let m32 = m27 & m31;
    let m33 = m27 ^ m25;
    let m34 = m21 & m22;
    let m35 = m24 & m34;
    let m36 = m24 ^ m25;
    let m37 = m21 ^ m29;
    let m38 = m32 ^ m33;
    let m39 = m23 ^ m30;
    let m40 = m35 ^ m36;
    let m41 = m38 ^ m40;
    let m42 = m37 ^ m39;
    let m43 = m37 ^ m38;
    let m44 = m39 ^ m40;
    let m45 = m42 ^ m41;
    let m46 = m44 & t6;
    let m47 = m40 & t8;
    let m48 = m39 & y5;
    let m49 = m43 & t16;
    let m50 = m38 & t9;
    let m51 = m37 & t17;
    let m52 = m42 & t15;
    let m53 = m45 & t27;
    let m54 = m41 & t10;
    let m55 = m44 & t13;
    let m56 = m40 & t23;
    let m57 = m39 & t19;
    let m58 = m43 & t3;
    let m59 = m38 & t22;
    let m60 = m37 & t20;
    let m61 = m42 & t1;
    let m62 = m45 & t4;
    let m63 = m41 & t2;
    // Bottom linear transformation (figure 9).
    let p0 = m52 ^ m61;
    let p1 = m58 ^ m59;
    let p2 = m54 ^ m62;
    let p3 = m47 ^ m50;
    let p4 = m48 ^ m56;
    let p5 = m46 ^ m51;
    let p6 = m49 ^ m60;
    let p7 = p0 ^ p1;
    let p8 = m50 ^ m53;
    let p9 = m55 ^ m63;
    let p10 = m57 ^ p4;
    let p11 = p0 ^ p3;
    let p12 = m46 ^ m48;
    let p13 = m49 ^ m51;
    let p14 = m49 ^ m62;
    let p15 = m54 ^ m59;
    let p16 = m57 ^ m61;
    let p17 = m58 ^ p2;
    let p18 = m63 ^ p5;
    let p19 = p2 ^ p3;
    let p20 = p4 ^ p6;
    let p22 = p2 ^ p7;
    let p23 = p7 ^ p8;
    let p24 = p5 ^ p7;
    let p25 = p6 ^ p10;
    let p26 = p9 ^ p11;
    let p27 = p10 ^ p18;
    let p28 = p11 ^ p25;
    let p29 = p15 ^ p20;
    let w0 = p13 ^ p22;
    let w1 = p26 ^ p29;
    let w2 = p17 ^ p28;
    let w3 = p12 ^ p22;
    let w4 = p23 ^ p27;
    let w5 = p19 ^ p24;
    let w6 = p14 ^ p23;
    let w7 = p9 ^ p16;
    *s = [w7, w6, w5, w4, w3, w2, w1, w0];
}

/// One middle round `i` (`M = i mod 4`): SubBytes, (skipped ShiftRows), MixColumns, AddRoundKey.
#[inline(always)]
fn round<W: Word, K: RoundKey<W>, const M: u32>(s: &mut State<W>, rk: &K) {
    sub_bytes(s);
    mix_columns::<W, M>(s);
    add_round_key(s, rk);
}

/// One inverse middle round `i` (`M = i mod 4`): AddRoundKey, InvMixColumns, InvSubBytes.
#[inline(always)]
fn inv_round<W: Word, K: RoundKey<W>, const M: u32>(s: &mut State<W>, rk: &K) {
    add_round_key(s, rk);
    inv_mix_columns::<W, M>(s);
    inv_sub_bytes(s);
}

/// Encrypts one batch in place with the fixsliced round keys `rk` (`Nr + 1` of them, from
/// [`round_keys`] packed into words). Output is in the natural (unshifted) layout.
#[inline(always)]
pub(crate) fn encrypt<W: Word, K: RoundKey<W>>(rk: &[K], s: &mut State<W>) {
    let nr = rk.len() - 1;
    add_round_key(s, &rk[0]);
    // Rounds 1..Nr-1 cycle through the four MixColumns variants; the round number is public.
    let mut i = 1;
    while i < nr {
        match i % 4 {
            1 => round::<W, K, 1>(s, &rk[i]),
            2 => round::<W, K, 2>(s, &rk[i]),
            3 => round::<W, K, 3>(s, &rk[i]),
            _ => round::<W, K, 0>(s, &rk[i]),
        }
        i += 1;
    }
    sub_bytes(s);
    add_round_key(s, &rk[nr]);
    if nr % 4 == 2 {
        shift_rows_2(s);
    }
}

/// Decrypts one batch in place; the exact inverse of [`encrypt`] with the same round keys.
#[inline(always)]
pub(crate) fn decrypt<W: Word, K: RoundKey<W>>(rk: &[K], s: &mut State<W>) {
    let nr = rk.len() - 1;
    if nr % 4 == 2 {
        shift_rows_2(s);
    }
    add_round_key(s, &rk[nr]);
    inv_sub_bytes(s);
    let mut i = nr - 1;
    while i > 0 {
        match i % 4 {
            1 => inv_round::<W, K, 1>(s, &rk[i]),
            2 => inv_round::<W, K, 2>(s, &rk[i]),
            3 => inv_round::<W, K, 3>(s, &rk[i]),
            _ => inv_round::<W, K, 0>(s, &rk[i]),
        }
        i -= 1;
    }
    add_round_key(s, &rk[0]);
}

/// The AES S-box applied to each byte of `w`, with the same circuit (no table lookups: the
/// key schedule is as constant-time as the rounds). Also the SubWord of the key schedules of
/// kernels that have no S-box instruction of their own (`arm_vpaes`).
pub(super) fn sub_word(w: [u8; 4]) -> [u8; 4] {
    // Bitslice the four bytes into eight u32 words (one bit per byte, lanes unused above 4).
    let mut s = [0u32; 8];
    for (b, x) in s.iter_mut().enumerate() {
        for (j, byte) in w.iter().enumerate() {
            *x |= u32::from((byte >> b) & 1) << j;
        }
    }
    sub_bytes(&mut s);
    let mut out = [0u8; 4];
    for (j, o) in out.iter_mut().enumerate() {
        for (b, x) in s.iter().enumerate() {
            *o |= (((x >> j) & 1) as u8) << b;
        }
        // `sub_bytes` leaves out the affine constant.
        *o ^= 0x63;
    }
    crate::wipe::wipe(&mut s);
    out
}

/// `a·x` in GF(2^8) (FIPS 197 §4.2.1), without branches.
#[cfg_attr(
    not(all(simdcrypt_asm, any(target_arch = "x86_64", target_arch = "arm"))),
    allow(dead_code)
)]
fn byte_xtime(a: u8) -> u8 {
    (a << 1) ^ (0x1b & 0u8.wrapping_sub(a >> 7))
}

/// `a·c` in GF(2^8) for a public constant `c` (branches on `c` only).
#[cfg_attr(
    not(all(simdcrypt_asm, any(target_arch = "x86_64", target_arch = "arm"))),
    allow(dead_code)
)]
fn byte_mul(a: u8, c: u8) -> u8 {
    let (mut p, mut x) = (0, a);
    for bit in 0..8 {
        if c >> bit & 1 == 1 {
            p ^= x;
        }
        x = byte_xtime(x);
    }
    p
}

/// InvMixColumns (FIPS 197 §5.3.3) of a round key in the standard byte order (column-major),
/// for the decryption keys of the equivalent inverse cipher (`x86_64_gfni`, `arm_vpaes`).
#[cfg_attr(
    not(all(simdcrypt_asm, any(target_arch = "x86_64", target_arch = "arm"))),
    allow(dead_code)
)]
pub(super) fn inv_mix_round_key(k: &[u8; 16]) -> [u8; 16] {
    let mut out = [0u8; 16];
    for c in 0..4 {
        let b = &k[4 * c..4 * c + 4];
        for r in 0..4 {
            out[4 * c + r] = byte_mul(b[r], 14)
                ^ byte_mul(b[(r + 1) % 4], 11)
                ^ byte_mul(b[(r + 2) % 4], 13)
                ^ byte_mul(b[(r + 3) % 4], 9);
        }
    }
    out
}

impl Word for u32 {
    const LANE: u32 = 32;
    #[inline(always)]
    fn mask(self, m: u64) -> Self {
        m as u32
    }
    #[inline(always)]
    fn rotr(self, n: u32) -> Self {
        self.rotate_right(n)
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        self << n
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        self >> n
    }
}

impl Word for u64 {
    const LANE: u32 = 64;
    #[inline(always)]
    fn mask(self, m: u64) -> Self {
        m
    }
    #[inline(always)]
    fn rotr(self, n: u32) -> Self {
        self.rotate_right(n)
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        self << n
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        self >> n
    }
}

/// The most round keys (AES-256: Nr = 14).
pub(crate) const MAX_ROUND_KEYS: usize = 15;

/// FIPS 197 §5.2 KeyExpansion, then each round key `K_i` put in the fixsliced stored form:
/// bytes permuted by `SR^{-i}` (row `r`, column `c` moves to column `c + i·r mod 4`) and, for
/// `i ≥ 1`, XORed with 0x63 in every byte. Returns the keys and `Nr + 1`; the caller packs
/// them into words and wipes the returned array.
pub(crate) fn round_keys(key: &[u8]) -> ([[u8; 16]; MAX_ROUND_KEYS], usize) {
    let nk = key.len() / 4;
    debug_assert!(matches!(nk, 4 | 6 | 8));
    let nr = nk + 6;
    let n_words = 4 * (nr + 1);
    let mut w = [[0u8; 4]; 4 * MAX_ROUND_KEYS];
    for (i, word) in w.iter_mut().enumerate().take(nk) {
        word.copy_from_slice(&key[4 * i..4 * i + 4]);
    }
    let mut rcon: u8 = 1;
    for i in nk..n_words {
        let mut t = w[i - 1];
        if i % nk == 0 {
            t = sub_word([t[1], t[2], t[3], t[0]]);
            t[0] ^= rcon;
            // rcon = x·rcon in GF(2^8); rcon is public.
            rcon = (rcon << 1) ^ (if rcon & 0x80 != 0 { 0x1b } else { 0 });
        } else if nk > 6 && i % nk == 4 {
            t = sub_word(t);
        }
        for j in 0..4 {
            w[i][j] = w[i - nk][j] ^ t[j];
        }
    }
    let mut rk = [[0u8; 16]; MAX_ROUND_KEYS];
    for (i, k) in rk.iter_mut().enumerate().take(nr + 1) {
        let konst = if i == 0 { 0 } else { 0x63 };
        for r in 0..4 {
            for c in 0..4 {
                let s = (c + i * r) % 4;
                k[4 * s + r] = w[4 * i + c][r] ^ konst;
            }
        }
    }
    crate::wipe::wipe(&mut w);
    (rk, nr + 1)
}

/// How a portable kernel lays out one batch of blocks in words ([`soft64`](super::soft64),
/// [`soft32`](super::soft32)).
pub(crate) trait Layout {
    /// The word.
    type W: Word + crate::wipe::Zeroable;
    /// Bytes per batch (16 × blocks per batch), at most [`MAX_BATCH`].
    const BATCH: usize;
    /// Bitslices `BATCH` bytes of blocks into the layout of the module documentation.
    fn pack(blocks: &[u8]) -> State<Self::W>;
    /// The inverse of `pack`.
    fn unpack(s: State<Self::W>, blocks: &mut [u8]);
}

/// The largest batch of a [`Layout`], in bytes.
pub(crate) const MAX_BATCH: usize = 64;

/// An AES key expanded for a portable fixsliced kernel: `Nr + 1` bitsliced round keys, each
/// the fixsliced round key repeated in every block of a batch.
#[derive(Clone)]
pub(crate) struct Fixsliced<L: Layout> {
    rk: [State<L::W>; MAX_ROUND_KEYS],
    n: usize,
}

impl<L: Layout> Fixsliced<L> {
    /// Expands a 16-, 24- or 32-byte key.
    pub(crate) fn new(key: &[u8]) -> Self {
        let (mut keys, n) = round_keys(key);
        let mut rk = [L::pack(&[0u8; MAX_BATCH][..L::BATCH]); MAX_ROUND_KEYS];
        let mut buf = [0u8; MAX_BATCH];
        for (dst, k) in rk.iter_mut().zip(&keys).take(n) {
            for b in buf[..L::BATCH].chunks_exact_mut(16) {
                b.copy_from_slice(k);
            }
            *dst = L::pack(&buf[..L::BATCH]);
        }
        crate::wipe::wipe(&mut keys);
        crate::wipe::wipe(&mut buf);
        Fixsliced { rk, n }
    }

    /// The bitsliced round keys, `Nr + 1` of them.
    #[inline(always)]
    pub(crate) fn keys(&self) -> &[State<L::W>] {
        &self.rk[..self.n]
    }

    #[inline(always)]
    fn encrypt_batch(&self, blocks: &mut [u8]) {
        let mut s = L::pack(blocks);
        encrypt(self.keys(), &mut s);
        L::unpack(s, blocks);
    }

    #[inline(always)]
    fn decrypt_batch(&self, blocks: &mut [u8]) {
        let mut s = L::pack(blocks);
        decrypt(self.keys(), &mut s);
        L::unpack(s, blocks);
    }

    /// Runs `f` on every batch of `data`, the last one padded with zeros.
    #[inline(always)]
    fn batches(&self, data: &mut [u8], f: impl Fn(&Self, &mut [u8])) {
        let mut chunks = data.chunks_exact_mut(L::BATCH);
        for chunk in &mut chunks {
            f(self, chunk);
        }
        let rest = chunks.into_remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; MAX_BATCH];
            buf[..rest.len()].copy_from_slice(rest);
            f(self, &mut buf[..L::BATCH]);
            rest.copy_from_slice(&buf[..rest.len()]);
            crate::wipe::wipe(&mut buf);
        }
    }
}

impl<L: Layout> Drop for Fixsliced<L> {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.rk);
    }
}

impl<L: Layout> super::Kernel for Fixsliced<L> {
    fn encrypt(&self, data: &mut [u8]) {
        self.batches(data, Self::encrypt_batch);
    }

    fn decrypt(&self, data: &mut [u8]) {
        self.batches(data, Self::decrypt_batch);
    }

    fn ctr(&self, ctr: &mut [u8; 16], data: &mut [u8]) {
        let mut c = u128::from_be_bytes(*ctr);
        let mut ks = [0u8; MAX_BATCH];
        let ks = &mut ks[..L::BATCH];
        for chunk in data.chunks_mut(L::BATCH) {
            // The counter is public: building the blocks may depend on it.
            for (k, b) in ks.chunks_exact_mut(16).enumerate() {
                b.copy_from_slice(&c.wrapping_add(k as u128).to_be_bytes());
            }
            self.encrypt_batch(ks);
            for (d, k) in chunk.iter_mut().zip(ks.iter()) {
                *d ^= k;
            }
            c = c.wrapping_add((chunk.len() / 16) as u128);
        }
        *ctr = c.to_be_bytes();
        crate::wipe::wipe_slice(ks);
    }
}

#[cfg(test)]
pub(super) mod tests {
    extern crate std;
    use super::super::Kernel;
    use super::*;
    use std::vec;
    use std::vec::Vec;

    /// The portable SubWord agrees with the S-box of the standard (every byte, via
    /// SubWord of a word of four equal bytes; FIPS 197 Figure 7 spot values).
    #[test]
    fn sub_word_is_the_sbox() {
        assert_eq!(sub_word([0x00, 0x01, 0x53, 0xff]), [0x63, 0x7c, 0xed, 0x16]);
        // Every byte of the word gets the same S-box, and the S-box is a permutation.
        let mut seen = [false; 256];
        for x in 0..=255u8 {
            let s = sub_word([x, x, x, x]);
            assert!(s.iter().all(|&v| v == s[0]));
            assert!(!seen[usize::from(s[0])]);
            seen[usize::from(s[0])] = true;
        }
    }

    /// InvMixColumns of FIPS 197's MixColumns example column (db 13 53 45 -> 8e 4d a1 bc).
    #[test]
    fn inv_mix_columns_known_answer() {
        let mut s = [0u8; 16];
        for c in 0..4 {
            s[4 * c..4 * c + 4].copy_from_slice(&[0x8e, 0x4d, 0xa1, 0xbc]);
        }
        let m = inv_mix_round_key(&s);
        for c in 0..4 {
            assert_eq!(&m[4 * c..4 * c + 4], &[0xdb, 0x13, 0x53, 0x45]);
        }
    }

    /// A xorshift64 generator (fixed seed): test data for the kernels' batch and tail tests.
    #[cfg_attr(not(all(target_arch = "x86_64", simdcrypt_asm)), allow(dead_code))]
    pub(crate) fn xorshift() -> impl FnMut() -> u64 {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// The S-box from its definition (FIPS 197 §5.1.1): inverse in GF(2^8), then the affine map.
    fn sbox_ref(x: u8) -> u8 {
        fn mul(mut a: u8, mut b: u8) -> u8 {
            let mut r = 0;
            while b != 0 {
                if b & 1 != 0 {
                    r ^= a;
                }
                a = (a << 1) ^ if a & 0x80 != 0 { 0x1b } else { 0 };
                b >>= 1;
            }
            r
        }
        let inv = (1..=255u8).find(|&y| mul(x, y) == 1).unwrap_or(0);
        inv ^ inv.rotate_left(1)
            ^ inv.rotate_left(2)
            ^ inv.rotate_left(3)
            ^ inv.rotate_left(4)
            ^ 0x63
    }

    fn bitslice(bytes: &[u8; 32]) -> [u32; 8] {
        let mut s = [0u32; 8];
        for (b, x) in s.iter_mut().enumerate() {
            for (j, byte) in bytes.iter().enumerate() {
                *x |= u32::from((byte >> b) & 1) << j;
            }
        }
        s
    }

    fn unbitslice(s: &[u32; 8]) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (j, o) in out.iter_mut().enumerate() {
            for (b, x) in s.iter().enumerate() {
                *o |= (((x >> j) & 1) as u8) << b;
            }
        }
        out
    }

    #[test]
    fn circuits_match_the_sbox_definition() {
        for hi in 0..8u8 {
            let bytes: [u8; 32] = core::array::from_fn(|j| hi * 32 + j as u8);
            let mut s = bitslice(&bytes);
            sub_bytes(&mut s);
            let out = unbitslice(&s);
            for j in 0..32 {
                assert_eq!(out[j] ^ 0x63, sbox_ref(bytes[j]), "S({:#04x})", bytes[j]);
            }
            // The inverse circuit expects its input plus 0x63.
            let mut s = bitslice(&core::array::from_fn(|j| out[j]));
            inv_sub_bytes(&mut s);
            assert_eq!(unbitslice(&s), bytes);
        }
    }

    #[test]
    fn fips197_key_expansion_last_words() {
        // FIPS 197 appendix A.1: the last round key of 2b7e1516 28aed2a6 abf71588 09cf4f3c
        // is d014f9a8 c9ee2589 e13f0cc8 b6630ca6 (K_10: stored SR^{-10} = SR^2, plus 0x63).
        let key = [
            0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf,
            0x4f, 0x3c,
        ];
        let (rk, n) = round_keys(&key);
        assert_eq!(n, 11);
        let want = [
            0xd0, 0x14, 0xf9, 0xa8, 0xc9, 0xee, 0x25, 0x89, 0xe1, 0x3f, 0x0c, 0xc8, 0xb6, 0x63,
            0x0c, 0xa6,
        ];
        for r in 0..4 {
            for c in 0..4 {
                assert_eq!(rk[10][4 * ((c + 2 * r) % 4) + r], want[4 * c + r] ^ 0x63);
            }
        }
        assert_eq!(rk[0][..], key[..]);
    }

    fn h(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    const KEYS_38A: [&str; 3] = [
        "2b7e151628aed2a6abf7158809cf4f3c",
        "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
        "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
    ];
    const PT_38A: &str = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51\
                          30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";

    /// FIPS 197 appendix C.1–C.3 and SP 800-38A F.1 (ECB), F.2 (CBC), F.5 (CTR), for every
    /// key size, on the kernel that `new` builds from a key.
    pub(in crate::aes) fn known_answers<K: Kernel>(new: impl Fn(&[u8]) -> K) {
        let pt = h("00112233445566778899aabbccddeeff");
        for (key, ct) in [
            (
                "000102030405060708090a0b0c0d0e0f",
                "69c4e0d86a7b0430d8cdb78070b4c55a",
            ),
            (
                "000102030405060708090a0b0c0d0e0f1011121314151617",
                "dda97ca4864cdfe06eaf70a0ec0d7191",
            ),
            (
                "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
                "8ea2b7ca516745bfeafc49904b496089",
            ),
        ] {
            let aes = new(&h(key));
            let mut b = pt.clone();
            aes.encrypt(&mut b);
            assert_eq!(b, h(ct), "FIPS 197 C, key {key}");
            aes.decrypt(&mut b);
            assert_eq!(b, pt);
        }

        let ecb = [
            "3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf\
             43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4",
            "bd334f1d6e45f25ff712a214571fa5cc974104846d0ad3ad7734ecb3ecee4eef\
             ef7afd2270e2e60adce0ba2face6444e9a4b41ba738d6c72fb16691603c18e0e",
            "f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870\
             b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7",
        ];
        let cbc = [
            "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2\
             73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7",
            "4f021db243bc633d7178183a9fa071e8b4d9ada9ad7dedf4e5e738763f69145a\
             571b242012fb7ae07fa9baac3df102e008b0e27988598881d920a9e64f5615cd",
            "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d\
             39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b",
        ];
        let ctr = [
            "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff\
             5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee",
            "1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6f4ce8e94\
             1e36b26bd1ebc670d1bd1d665620abf74f78a7f6d29809585a97daec58c6b050",
            "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5\
             2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6",
        ];
        let pt = h(PT_38A);
        let iv: [u8; 16] = h("000102030405060708090a0b0c0d0e0f").try_into().unwrap();
        let ctr0: [u8; 16] = h("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff").try_into().unwrap();
        for (i, key) in KEYS_38A.iter().enumerate() {
            let aes = new(&h(key));
            // F.1, every length from 0 to 4 blocks (partial batches).
            for n in 0..=4 {
                let mut b = pt[..16 * n].to_vec();
                aes.encrypt(&mut b);
                assert_eq!(b, h(ecb[i])[..16 * n], "F.1 key {key}, {n} blocks");
                aes.decrypt(&mut b);
                assert_eq!(b, pt[..16 * n]);
            }
            // F.2.
            let mut b = pt.clone();
            let mut v = iv;
            aes.cbc_encrypt(&mut v, &mut b);
            assert_eq!(b, h(cbc[i]), "F.2 key {key}");
            assert_eq!(v[..], h(cbc[i])[48..]);
            let mut v = iv;
            aes.cbc_decrypt(&mut v, &mut b);
            assert_eq!(b, pt);
            assert_eq!(v[..], h(cbc[i])[48..]);
            // F.5, in one call and split at each block boundary.
            for split in 0..=4 {
                let mut b = pt.clone();
                let mut c = ctr0;
                let (x, y) = b.split_at_mut(16 * split);
                aes.ctr(&mut c, x);
                aes.ctr(&mut c, y);
                assert_eq!(b, h(ctr[i]), "F.5 key {key}, split {split}");
                assert_eq!(u128::from_be_bytes(c), u128::from_be_bytes(ctr0) + 4);
            }
        }
    }

    /// A small deterministic generator for test inputs (xorshift64*).
    pub(in crate::aes) struct Rng(pub u64);
    impl Rng {
        pub(in crate::aes) fn fill(&mut self, buf: &mut [u8]) {
            for b in buf {
                self.0 ^= self.0 >> 12;
                self.0 ^= self.0 << 25;
                self.0 ^= self.0 >> 27;
                *b = (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8;
            }
        }
    }

    /// `a` and `b` agree on ECB, CTR (with counters about to wrap 2^32, 2^64 and 2^128), CBC
    /// and IGE, for random keys of every size and every length of 0..=40 blocks.
    pub(in crate::aes) fn cross_check<A: Kernel, B: Kernel>(
        new_a: impl Fn(&[u8]) -> A,
        new_b: impl Fn(&[u8]) -> B,
    ) {
        let mut rng = Rng(0x0123_4567_89ab_cdef);
        for key_len in [16, 24, 32] {
            for blocks in 0..=40 {
                let mut key = [0u8; 32];
                rng.fill(&mut key[..key_len]);
                let (a, b) = (new_a(&key[..key_len]), new_b(&key[..key_len]));
                let mut data = vec![0u8; 16 * blocks];
                rng.fill(&mut data);
                let what = |m: &str| std::format!("{m}, key {key_len}, {blocks} blocks");

                let (mut x, mut y) = (data.clone(), data.clone());
                a.encrypt(&mut x);
                b.encrypt(&mut y);
                assert_eq!(x, y, "{}", what("encrypt"));
                a.decrypt(&mut x);
                b.decrypt(&mut y);
                assert_eq!(x, data, "{}", what("decrypt"));
                assert_eq!(y, data, "{}", what("decrypt"));

                let mut iv = [0u8; 32];
                rng.fill(&mut iv);
                let low = u64::from_be_bytes(iv[8..16].try_into().unwrap());
                let high = u64::from_be_bytes(iv[..8].try_into().unwrap());
                for c in [
                    (u128::from(high) << 64) | u128::from(low),
                    (u128::from(high) << 64) | 0xffff_fffe,
                    (u128::from(high) << 64) | u128::from(u64::MAX - 2),
                    u128::MAX - 1,
                ] {
                    let (mut x, mut y) = (data.clone(), data.clone());
                    let (mut ca, mut cb) = (c.to_be_bytes(), c.to_be_bytes());
                    a.ctr(&mut ca, &mut x);
                    b.ctr(&mut cb, &mut y);
                    assert_eq!(x, y, "{}", what("ctr"));
                    assert_eq!(ca, cb, "{}", what("ctr counter"));
                    assert_eq!(u128::from_be_bytes(ca), c.wrapping_add(blocks as u128));
                }

                let v: [u8; 16] = iv[..16].try_into().unwrap();
                let (mut x, mut y, mut va, mut vb) = (data.clone(), data.clone(), v, v);
                a.cbc_encrypt(&mut va, &mut x);
                b.cbc_encrypt(&mut vb, &mut y);
                assert_eq!((&x, va), (&y, vb), "{}", what("cbc_encrypt"));
                let (mut va, mut vb) = (v, v);
                a.cbc_decrypt(&mut va, &mut x);
                b.cbc_decrypt(&mut vb, &mut y);
                assert_eq!((&x, va), (&data, vb), "{}", what("cbc_decrypt"));
                assert_eq!(y, data, "{}", what("cbc_decrypt"));

                let (mut x, mut y, mut va, mut vb) = (data.clone(), data.clone(), iv, iv);
                a.ige_encrypt(&mut va, &mut x);
                b.ige_encrypt(&mut vb, &mut y);
                assert_eq!((&x, va), (&y, vb), "{}", what("ige_encrypt"));
                let (mut va, mut vb) = (iv, iv);
                a.ige_decrypt(&mut va, &mut x);
                b.ige_decrypt(&mut vb, &mut y);
                assert_eq!((&x, va), (&data, vb), "{}", what("ige_decrypt"));
                assert_eq!(y, data, "{}", what("ige_decrypt"));
            }
        }
    }

    /// ECB, CTR and CBC decryption of every whole-block length up to 600 bytes (every tail
    /// past an 8-block batch), at offsets 0-3 from an aligned buffer, in place, on each kernel
    /// `make` builds from a key, against `reference`: counters whose low 32 bits, low 64 bits or
    /// all 128 bits wrap inside the call. Shared by the ARM bitsliced NEON kernels.
    #[cfg_attr(
        not(any(target_arch = "aarch64", target_arch = "arm")),
        allow(dead_code)
    )]
    pub(in crate::aes) fn lengths_offsets_and_counter_wraps<R: Kernel>(
        make: impl Fn(&[u8]) -> Vec<std::boxed::Box<dyn Kernel>>,
        reference: impl Fn(&[u8]) -> R,
    ) {
        let mut rng = Rng(0x5eed);
        for key_len in [16, 24, 32] {
            let mut key = [0u8; 32];
            rng.fill(&mut key[..key_len]);
            let kernels = make(&key[..key_len]);
            let soft = reference(&key[..key_len]);
            for len in (0..=600).step_by(16) {
                let off = len / 16 % 4;
                let mut buf = vec![0u8; len + off];
                rng.fill(&mut buf);
                let data = buf[off..].to_vec();
                let what = |m: &str| std::format!("{m}, key {key_len}, {len} bytes");
                for k in &kernels {
                    let mut want = data.clone();
                    soft.encrypt(&mut want);
                    let mut x = buf.clone();
                    k.encrypt(&mut x[off..]);
                    assert_eq!(x[off..], want, "{}", what("encrypt"));
                    k.decrypt(&mut x[off..]);
                    assert_eq!(x[off..], data, "{}", what("decrypt"));

                    for c in [
                        0u128,
                        0xffff_fffd,
                        0x0123_4567_89ab_cdef_ffff_ffff_ffff_fffa,
                        u128::MAX - 3,
                        u128::MAX,
                    ] {
                        let (mut ca, mut cb) = (c.to_be_bytes(), c.to_be_bytes());
                        let mut want = data.clone();
                        soft.ctr(&mut cb, &mut want);
                        let mut x = buf.clone();
                        k.ctr(&mut ca, &mut x[off..]);
                        assert_eq!(x[off..], want, "{} {c:x}", what("ctr"));
                        assert_eq!(ca, cb, "{} {c:x}", what("ctr counter"));
                    }

                    let mut iv = [0u8; 16];
                    rng.fill(&mut iv);
                    let (mut va, mut vb) = (iv, iv);
                    let mut want = data.clone();
                    soft.cbc_decrypt(&mut vb, &mut want);
                    let mut x = buf.clone();
                    k.cbc_decrypt(&mut va, &mut x[off..]);
                    assert_eq!(x[off..], want, "{}", what("cbc_decrypt"));
                    assert_eq!(va, vb, "{}", what("cbc_decrypt iv"));
                }
            }
        }
    }
}
