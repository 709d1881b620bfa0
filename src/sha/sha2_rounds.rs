//! The unrolled SHA-256/SHA-512 rounds shared by the portable kernels
//! (`sha256/soft.rs`, `sha512/soft.rs`): the same FIPS 180-4 round and schedule on 32- or
//! 64-bit words. The σ/Σ functions, `wrapping_add` and the word type come from the module that
//! invokes the macros (`small_sigma0`, `small_sigma1`, `big_sigma0`, `big_sigma1` in scope),
//! so each kernel keeps its own rotation amounts.
//!
//! Unrolled by 16 rounds: the round macro takes the working variables in rotated order, so no
//! variable is moved between rounds (after 8 rounds every name is back in its place), and the
//! 16-word circular message schedule is indexed by constants only.

/// W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] in the circular schedule `$w`, where
/// slot `$i` holds W[t-16] and is overwritten with W[t].
macro_rules! schedule {
    ($w:ident, $i:literal) => {
        $w[$i] = small_sigma1($w[($i + 14) & 15])
            .wrapping_add($w[($i + 9) & 15])
            .wrapping_add(small_sigma0($w[($i + 1) & 15]))
            .wrapping_add($w[$i]);
    };
}

/// One round with the working variables named in rotated order: the new `e` is written to
/// `$d` and the new `a` to `$h`, so the next round is called with `$h, $a, ..., $g`.
/// `Ch(e, f, g) = g ^ (e & (f ^ g))`, `Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c))` (the compiler
/// reuses `a ^ b` as the next round's `b ^ c`).
macro_rules! round {
    ($w:ident, $k:ident, $i:literal, $a:ident, $b:ident, $c:ident, $d:ident,
     $e:ident, $f:ident, $g:ident, $h:ident $(, $sched:ident)?) => {{
        $($sched!($w, $i);)?
        let t1 = $h
            .wrapping_add(big_sigma1($e))
            .wrapping_add($g ^ ($e & ($f ^ $g)))
            .wrapping_add($k[$i])
            .wrapping_add($w[$i]);
        $d = $d.wrapping_add(t1);
        $h = t1
            .wrapping_add(big_sigma0($a))
            .wrapping_add($b ^ (($a ^ $b) & ($b ^ $c)));
    }};
}

/// Sixteen rounds with constants `$k[0..16]` and words `$w[0..16]`; with `schedule`, each
/// word is first replaced by the one 16 rounds later.
macro_rules! rounds16 {
    ($w:ident, $k:ident, $a:ident, $b:ident, $c:ident, $d:ident,
     $e:ident, $f:ident, $g:ident, $h:ident $(, $sched:ident)?) => {
        round!($w, $k, 0, $a, $b, $c, $d, $e, $f, $g, $h $(, $sched)?);
        round!($w, $k, 1, $h, $a, $b, $c, $d, $e, $f, $g $(, $sched)?);
        round!($w, $k, 2, $g, $h, $a, $b, $c, $d, $e, $f $(, $sched)?);
        round!($w, $k, 3, $f, $g, $h, $a, $b, $c, $d, $e $(, $sched)?);
        round!($w, $k, 4, $e, $f, $g, $h, $a, $b, $c, $d $(, $sched)?);
        round!($w, $k, 5, $d, $e, $f, $g, $h, $a, $b, $c $(, $sched)?);
        round!($w, $k, 6, $c, $d, $e, $f, $g, $h, $a, $b $(, $sched)?);
        round!($w, $k, 7, $b, $c, $d, $e, $f, $g, $h, $a $(, $sched)?);
        round!($w, $k, 8, $a, $b, $c, $d, $e, $f, $g, $h $(, $sched)?);
        round!($w, $k, 9, $h, $a, $b, $c, $d, $e, $f, $g $(, $sched)?);
        round!($w, $k, 10, $g, $h, $a, $b, $c, $d, $e, $f $(, $sched)?);
        round!($w, $k, 11, $f, $g, $h, $a, $b, $c, $d, $e $(, $sched)?);
        round!($w, $k, 12, $e, $f, $g, $h, $a, $b, $c, $d $(, $sched)?);
        round!($w, $k, 13, $d, $e, $f, $g, $h, $a, $b, $c $(, $sched)?);
        round!($w, $k, 14, $c, $d, $e, $f, $g, $h, $a, $b $(, $sched)?);
        round!($w, $k, 15, $b, $c, $d, $e, $f, $g, $h, $a $(, $sched)?);
    };
}
