//! Test support shared by the stitched kernels' tests (`x86_64_vaes.rs`, `x86_64_vaes_avx2.rs`,
//! `x86_64_aesni.rs`, `aarch64_ce.rs`): reproducible data, the lengths that cross a kernel's
//! group boundaries, a block-by-block reference, the keys of every size ([`with_keys`]), one
//! checked call of an x86_64 kernel ([`check_x86_call`]), and the tests of a stitched pair
//! against non-stitched ones ([`against_unstitched`]).

extern crate std;
use std::vec::Vec;

use crate::aes::sealed::{Cipher, Sealed};
use crate::aes::{Aes128, Aes192, Aes256};
use crate::cpu::Features;
use crate::ghash;

/// xorshift, for reproducible pseudo-random test data.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub(super) fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// Lengths: every one up to 600 bytes, then around each boundary of groups of `group_bytes`
/// up to 4096 (and 65 past it: a partial group of one register and a byte), 4096, and 40
/// random ones.
pub(super) fn lens(rng: &mut Rng, group_bytes: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (0..=600).collect();
    for g in 1..=4096 / group_bytes {
        for d in [-17isize, -16, -15, -1, 0, 1, 15, 16, 17, 48, 65] {
            v.push((g * group_bytes).wrapping_add_signed(d));
        }
    }
    v.retain(|&n| n <= 4096);
    v.push(4096);
    for _ in 0..40 {
        v.push((rng.next() % 4097) as usize);
    }
    v
}

/// Runs `body` with the AES key of `key` (16, 24 or 32 bytes) for the features `f`, `H =
/// E_K(0^128)` and the GHASH key of `H`: what the tests of a kernel alone start from.
pub(super) fn with_keys(
    f: Features,
    key: &[u8],
    body: impl FnOnce(&Cipher, &[u8; 16], &ghash::Key),
) {
    let (a128, a192, a256);
    let c: &Cipher = match key.len() {
        16 => {
            a128 = Aes128::new_with(f, key.try_into().unwrap());
            a128.cipher()
        }
        24 => {
            a192 = Aes192::new_with(f, key.try_into().unwrap());
            a192.cipher()
        }
        _ => {
            a256 = Aes256::new_with(f, key.try_into().unwrap());
            a256.cipher()
        }
    };
    let mut h = [0u8; 16];
    c.encrypt(&mut h);
    let g = ghash::Key::new(f, &h);
    body(c, &h, &g)
}

/// `inc32` over `pt` block by block (the last one maybe partial) from `ctr`, and GHASH of the
/// zero-padded ciphertext from `y` by the portable kernel: (ciphertext, Y, next counter).
pub(super) fn reference(
    aes: &Cipher,
    h: &[u8; 16],
    ctr: &[u8; 16],
    y: &[u8; 16],
    pt: &[u8],
) -> (Vec<u8>, [u8; 16], [u8; 16]) {
    let mut c = *ctr;
    let mut out = pt.to_vec();
    for b in out.chunks_mut(16) {
        let mut k = c;
        aes.encrypt(&mut k);
        for (x, k) in b.iter_mut().zip(&k) {
            *x ^= k;
        }
        let low = u32::from_be_bytes([c[12], c[13], c[14], c[15]]).wrapping_add(1);
        c[12..].copy_from_slice(&low.to_be_bytes());
    }
    let soft = ghash::Key::new(Features::none(), h);
    let mut y = *y;
    let mut padded = out.clone();
    padded.resize(pt.len().div_ceil(16) * 16, 0);
    soft.update(&mut y, &padded);
    (out, y, c)
}

/// `against_unstitched!(features, PAIR, seed, group_bytes)`: tests `against_unstitched_128`,
/// `_192`, `_256` that, for random keys, nonces, AAD and the lengths of [`lens`], check that
/// the stitched pair `PAIR` (chosen by `features()`'s first value) seals exactly as the
/// non-stitched pairs of its second value (taken in turn), that each opens the other's
/// ciphertext, and that a flipped bit of the ciphertext, tag or AAD fails the stitched open
/// and zeroes the buffer. `features()` returns `None` (and the tests return) on a CPU
/// without the kernels.
macro_rules! against_unstitched {
    ($features:ident, $pair:expr, $seed:expr, $group:expr) => {
        $crate::aead::aes_gcm::stitched_tests::against_unstitched!(
            @one against_unstitched_128, Aes128Gcm, 16, $features, $pair, $seed, $group);
        $crate::aead::aes_gcm::stitched_tests::against_unstitched!(
            @one against_unstitched_192, Aes192Gcm, 24, $features, $pair, $seed, $group);
        $crate::aead::aes_gcm::stitched_tests::against_unstitched!(
            @one against_unstitched_256, Aes256Gcm, 32, $features, $pair, $seed, $group);
    };
    (@one $name:ident, $gcm:ident, $len:literal, $features:ident, $pair:expr, $seed:expr,
     $group:expr) => {
        #[test]
        fn $name() {
            use $crate::aead::$gcm;
            use $crate::aead::aes_gcm::stitched_tests::{Rng, lens};
            let Some((f, others)) = $features() else {
                return;
            };
            let mut rng = Rng($seed + $len);
            for (i, len) in lens(&mut rng, $group).into_iter().enumerate() {
                let key: [u8; $len] = rng.bytes($len).try_into().unwrap();
                let nonce: [u8; 12] = rng.bytes(12).try_into().unwrap();
                let aad_len = (rng.next() % 40) as usize;
                let aad = rng.bytes(aad_len);
                let pt = rng.bytes(len);
                let a = $gcm::new_with(f, &key);
                let b = $gcm::new_with(others[i % others.len()], &key);
                assert_eq!(a.backend(), $pair);
                assert_ne!(b.backend(), $pair);
                let mut ca = pt.clone();
                let ta = a.seal_in_place_detached(&nonce, &aad, &mut ca).unwrap();
                let mut cb = pt.clone();
                let tb = b.seal_in_place_detached(&nonce, &aad, &mut cb).unwrap();
                assert_eq!(ca, cb, "ciphertext, {len} bytes, against {}", b.backend());
                assert_eq!(ta, tb, "tag, {len} bytes, against {}", b.backend());
                // Opening with either key: the stitched open of the other's ciphertext.
                let mut pa = cb.clone();
                a.open_in_place_detached(&nonce, &aad, &mut pa, &tb).unwrap();
                assert_eq!(pa, pt, "open, {len} bytes");
                let mut pb = ca.clone();
                b.open_in_place_detached(&nonce, &aad, &mut pb, &ta).unwrap();
                assert_eq!(pb, pt, "open by {}, {len} bytes", b.backend());
                // One flipped bit: in the ciphertext, the tag or the AAD.
                let total = len + 16 + aad_len;
                let at = (rng.next() as usize) % total;
                let (mut c2, mut t2, mut a2) = (ca.clone(), ta, aad.clone());
                if at < len {
                    c2[at] ^= 1 << (at % 8);
                } else if at < len + 16 {
                    t2[at - len] ^= 1 << (at % 8);
                } else {
                    a2[at - len - 16] ^= 1 << (at % 8);
                }
                let r = a.open_in_place_detached(&nonce, &a2, &mut c2, &t2);
                assert_eq!(r, Err($crate::Error::AuthenticationFailed), "{len} bytes");
                assert!(c2.iter().all(|&x| x == 0), "{len} bytes: zeroed");
            }
        }
    };
}
pub(super) use against_unstitched;

/// One call of an x86_64 stitched entry point (`(rk, nr, state, data, count, powers)`, as its
/// wrapper's `run` passes them), for [`check_x86_call`].
#[cfg(target_arch = "x86_64")]
pub(super) struct X86Call<'a> {
    /// The entry point.
    pub(super) f: *const (),
    /// The AES-NI schedule and Nr.
    pub(super) rk: &'a [[u8; 16]; 15],
    pub(super) nr: usize,
    /// The GHASH powers table.
    pub(super) powers: &'a ghash::Powers,
    /// The text it reads, and its fifth argument for that text (bytes or blocks).
    pub(super) src: &'a [u8],
    pub(super) count: usize,
    /// Y and the counter block on entry.
    pub(super) y: [u8; 16],
    pub(super) ctr: [u8; 16],
}

/// Runs `c` through the ABI checker on a copy of its text at an odd address between two guard
/// bytes, and checks the text, Y and the counter block it leaves against `want` (`what` names
/// the case in a failure).
///
/// # Safety
/// The CPU has what `c.f` needs, and `c` is a valid call of it (its wrapper's contract).
#[cfg(target_arch = "x86_64")]
pub(super) unsafe fn check_x86_call(
    c: &X86Call<'_>,
    want: (&[u8], [u8; 16], [u8; 16]),
    what: &str,
) {
    let n = c.src.len();
    let mut buf = std::vec![0xeeu8; n + 2];
    buf[1..=n].copy_from_slice(c.src);
    let mut st = super::State { y: c.y, ctr: c.ctr };
    let args = [
        c.rk.as_ptr() as usize,
        c.nr,
        core::ptr::from_mut(&mut st) as usize,
        buf[1..].as_mut_ptr() as usize,
        c.count,
        core::ptr::from_ref(c.powers) as usize,
    ];
    // SAFETY: the caller's contract; `st` is the 32 writable bytes of the state and `buf[1..]`
    // holds the `n` bytes of text.
    let (_, rep) = unsafe { crate::abi_test::abi_call(c.f, &args) };
    rep.assert_clean();
    assert_eq!(&buf[1..=n], want.0, "{what}: text");
    assert_eq!((buf[0], buf[n + 1]), (0xee, 0xee), "{what}: guard bytes");
    assert_eq!(st.y, want.1, "{what}: Y");
    assert_eq!(st.ctr, want.2, "{what}: counter");
}
