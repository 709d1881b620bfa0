//! Guard pages: every primitive, on every backend the machine has plus the portable one, with
//! its input, output, AAD and IV placed so that the last byte is the last byte of a mapped
//! page followed by an inaccessible one ([`Guarded::tail`]), or the first byte is the first
//! byte of a page preceded by an inaccessible one ([`Guarded::head`]). A kernel that reads or
//! writes one byte outside its buffer hits the guard and the test process dies with SIGSEGV,
//! which fails the test. No sanitizer instruments the assembly kernels, and valgrind cannot
//! run AVX-512, so this is the check that catches over-reads there.
//!
//! Lengths: every length from 0 to [`SMALL`] bytes (past three strides of the widest kernels:
//! 16 AES blocks = 256 bytes for VAES on zmm, 8 ChaCha20 blocks = 512 bytes for AVX-512), and
//! a few large ones ([`LARGE`]). Streaming interfaces (hashes, HMAC, Poly1305, CTR, ChaCha20)
//! are also fed in pieces, each piece in its own guarded tail, so no piece can over-read into
//! the next. Every result is compared with the portable backend's (`Features::none()`) on an
//! ordinary buffer, so a test that does nothing cannot pass.
#![cfg(target_os = "linux")]

mod common;

use common::gcm::{Gcm, for_each_gcm_backend};
use common::{Cipher, Hash, hex};
use simdcrypt::aead::{ChaCha20Poly1305, OpenSshChaCha20Poly1305, XChaCha20Poly1305};
use simdcrypt::aes::{Cbc, Ctr, Ige};
use simdcrypt::chacha20::ChaCha20;
use simdcrypt::cpu::Features;
use simdcrypt::hkdf::Hkdf;
use simdcrypt::hmac::Hmac;
use simdcrypt::poly1305::Poly1305;

/// Every length in `0..=SMALL` is tried.
const SMALL: usize = 600;
/// And these.
const LARGE: &[usize] = &[1023, 1024, 1040, 2048 + 15, 4096, 8192 + 1];

fn lengths() -> impl Iterator<Item = usize> {
    (0..=SMALL).chain(LARGE.iter().copied())
}

/// Fewer lengths for the slower loops (AES modes, AEADs): every length up to two blocks and
/// one, then the lengths that are 0, 1, 7 or 15 mod 16 (whole blocks, one byte over, a
/// partial block, one byte short) up to [`SMALL`], and the large ones.
fn some_lengths() -> impl Iterator<Item = usize> {
    (0..=SMALL)
        .filter(|n| *n <= 33 || matches!(n % 16, 0 | 1 | 7 | 15))
        .chain(LARGE.iter().copied())
}

/// Panics unless `got == want`, naming `what` (hex only on failure: the loops compare a lot).
#[track_caller]
fn same(got: &[u8], want: &[u8], what: std::fmt::Arguments) {
    if got != want {
        panic!("{what}: got {}, want {}", hex(got), hex(want));
    }
}

/// Three mappings in one: an inaccessible page, `pages` read-write pages, an inaccessible
/// page.
struct Guarded {
    base: *mut u8,
    page: usize,
    pages: usize,
}

impl Guarded {
    fn new(pages: usize) -> Self {
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        let page = usize::try_from(page).expect("page size");
        let total = (pages + 2) * page;
        // SAFETY: a fresh anonymous private mapping of `total` bytes at an address the kernel
        // chooses; no existing memory is touched.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                total,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(base, libc::MAP_FAILED, "mmap");
        let base = base.cast::<u8>();
        // SAFETY: the middle `pages` pages lie inside the mapping just made; the first and
        // the last page stay PROT_NONE.
        let r = unsafe {
            libc::mprotect(
                base.add(page).cast(),
                pages * page,
                libc::PROT_READ | libc::PROT_WRITE,
            )
        };
        assert_eq!(r, 0, "mprotect");
        Guarded { base, page, pages }
    }

    fn room(&self) -> usize {
        self.pages * self.page
    }

    /// `len` bytes ending at the last byte before the upper guard page.
    fn tail(&mut self, len: usize) -> &mut [u8] {
        assert!(len <= self.room(), "{len} bytes do not fit");
        // SAFETY: the range [page + room - len, page + room) lies in the read-write pages of
        // the mapping, which lives as long as `self`; `&mut self` makes the slice unique.
        unsafe { std::slice::from_raw_parts_mut(self.base.add(self.page + self.room() - len), len) }
    }

    /// `len` bytes starting at the first byte after the lower guard page.
    fn head(&mut self, len: usize) -> &mut [u8] {
        assert!(len <= self.room(), "{len} bytes do not fit");
        // SAFETY: as for `tail`, the range [page, page + len).
        unsafe { std::slice::from_raw_parts_mut(self.base.add(self.page), len) }
    }

    /// `tail` or `head` by `at`, filled with a copy of `data`.
    fn place(&mut self, at: At, data: &[u8]) -> &mut [u8] {
        let s = match at {
            At::Tail => self.tail(data.len()),
            At::Head => self.head(data.len()),
        };
        s.copy_from_slice(data);
        s
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping `new` made; no slice into it outlives `self`.
        let r = unsafe { libc::munmap(self.base.cast(), (self.pages + 2) * self.page) };
        assert_eq!(r, 0, "munmap");
    }
}

/// Where a buffer is placed.
#[derive(Clone, Copy, Debug)]
enum At {
    /// Its end touches the upper guard page.
    Tail,
    /// Its start touches the lower guard page.
    Head,
}

const BOTH: [At; 2] = [At::Tail, At::Head];

/// Deterministic bytes for a length (different lengths, different bytes).
fn data(len: usize, salt: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(salt ^ (len as u8)))
        .collect()
}

/// Three guarded regions, each large enough for the largest length.
fn regions() -> [Guarded; 3] {
    let pages = 4 + LARGE.iter().max().unwrap() / 4096;
    [
        Guarded::new(pages),
        Guarded::new(pages),
        Guarded::new(pages),
    ]
}

/// Split points for the streaming tests: one piece, and three uneven pieces.
fn pieces(len: usize) -> [Vec<usize>; 2] {
    [
        vec![len],
        vec![
            len / 3,
            1.min(len - len / 3),
            len - len / 3 - 1.min(len - len / 3),
        ],
    ]
}

// ---------------------------------------------------------------------------------------------
// Hashes, HMAC, HKDF

fn hash<H: Hash>() {
    let [mut g, ..] = regions();
    let cases: Vec<(Vec<u8>, H::Output)> = lengths()
        .map(|len| {
            let msg = data(len, 1);
            let want = H::digest_with(Features::none(), &msg);
            (msg, want)
        })
        .collect();
    common::for_each_backend::<H>(|backend, features| {
        for (msg, want) in &cases {
            let len = msg.len();
            for split in pieces(len) {
                let mut h = H::new_with(features);
                let mut off = 0;
                for n in split {
                    h.update(g.place(At::Tail, &msg[off..off + n]));
                    off += n;
                }
                let name = H::NAME;
                same(
                    h.finalize().as_ref(),
                    want.as_ref(),
                    format_args!("{name} {backend} {len}"),
                );
            }
            let got = H::digest_with(features, g.place(At::Head, msg));
            same(
                got.as_ref(),
                want.as_ref(),
                format_args!("{backend} {len} head"),
            );
        }
    });
}

#[test]
fn hashes() {
    for_each_hash!(hash);
}

fn hmac_hkdf<H: Hash>() {
    let [mut g, mut k, _] = regions();
    // (message, key, HMAC, HKDF output)
    type Case = (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>);
    let cases: Vec<Case> = some_lengths()
        .map(|len| {
            let msg = data(len, 2);
            // Keys shorter than, equal to and longer than the block.
            let key = data(len % (2 * H::BLOCK_LEN + 3), 3);
            let mut r = Hmac::<H>::new_with(&key, Features::none());
            r.update(&msg);
            let mac = r.finalize().as_ref().to_vec();
            let mut okm = vec![0u8; len.min(255 * H::OUTPUT_LEN)];
            Hkdf::<H>::new_with(&key, &msg, Features::none())
                .expand(&key, &mut okm)
                .unwrap();
            (msg, key, mac, okm)
        })
        .collect();
    common::for_each_backend::<H>(|backend, features| {
        for (msg, key, mac, okm) in &cases {
            let len = msg.len();
            for at in BOTH {
                let mut m = Hmac::<H>::new_with(k.place(at, key), features);
                m.update(g.place(at, msg));
                same(
                    m.finalize().as_ref(),
                    mac.as_ref(),
                    format_args!("{backend} {len}"),
                );
                // HKDF-Expand writing up to 255 hash lengths into a guarded output.
                let hk = Hkdf::<H>::new_with(k.place(at, key), g.place(at, msg), features);
                let out = match at {
                    At::Tail => g.tail(okm.len()),
                    At::Head => g.head(okm.len()),
                };
                hk.expand(key, out).unwrap();
                same(out, okm, format_args!("hkdf {backend} {len}"));
            }
        }
    });
}

#[test]
fn hmac_and_hkdf() {
    for_each_hash!(hmac_hkdf);
}

// ---------------------------------------------------------------------------------------------
// AES: blocks, CTR, CBC, IGE

/// `bytes` (a whole number of blocks) as blocks.
fn blocks(bytes: &mut [u8]) -> &mut [[u8; 16]] {
    assert_eq!(bytes.len() % 16, 0);
    // SAFETY: [u8; 16] has alignment 1 and size 16, so `bytes` is exactly len/16 of them;
    // the result borrows `bytes` mutably for its lifetime.
    unsafe { std::slice::from_raw_parts_mut(bytes.as_mut_ptr().cast(), bytes.len() / 16) }
}

/// The portable results for one message: ECB, CTR, CBC and IGE of its whole blocks (CTR of
/// all of it).
struct AesCase {
    msg: Vec<u8>,
    ecb: Vec<u8>,
    ctr: Vec<u8>,
    cbc: Vec<u8>,
    ige: Vec<u8>,
}

fn aes<C: Cipher>() {
    let [mut g, mut o, _] = regions();
    let key = data(C::KEY_LEN, 4);
    let iv16: [u8; 16] = data(16, 5).try_into().unwrap();
    let iv32: [u8; 32] = data(32, 6).try_into().unwrap();
    let soft = || C::with(Features::none(), &key);
    let cases: Vec<AesCase> = some_lengths()
        .map(|len| {
            let msg = data(len, 7);
            let whole = &msg[..len / 16 * 16];
            let mut ecb = whole.to_vec();
            soft().encrypt_blocks(blocks(&mut ecb));
            let mut ctr = msg.clone();
            Ctr::new(soft(), &iv16).apply_keystream(&mut ctr).unwrap();
            let mut cbc = whole.to_vec();
            Cbc::new(soft(), &iv16).encrypt(&mut cbc).unwrap();
            let mut ige = whole.to_vec();
            Ige::new(soft(), &iv32).encrypt(&mut ige).unwrap();
            AesCase {
                msg,
                ecb,
                ctr,
                cbc,
                ige,
            }
        })
        .collect();
    common::for_each_cipher_backend::<C>(|backend, features| {
        let c = C::with(features, &key);
        let mk = || C::with(features, &key);
        for AesCase {
            msg,
            ecb,
            ctr,
            cbc,
            ige,
        } in &cases
        {
            let len = msg.len();
            let whole = &msg[..len / 16 * 16];
            let name = C::NAME;
            for at in BOTH {
                // ECB blocks, both directions.
                let buf = g.place(at, whole);
                c.encrypt_blocks(blocks(buf));
                same(buf, ecb, format_args!("{name} {backend} ecb {len} {at:?}"));
                c.decrypt_blocks(blocks(buf));
                same(
                    buf,
                    whole,
                    format_args!("{name} {backend} ecb-dec {len} {at:?}"),
                );

                // CTR buffer to buffer.
                let input = g.place(at, msg);
                let out = match at {
                    At::Tail => o.tail(len),
                    At::Head => o.head(len),
                };
                Ctr::new(mk(), &iv16)
                    .apply_keystream_b2b(input, out)
                    .unwrap();
                same(
                    out,
                    ctr,
                    format_args!("{name} {backend} ctr b2b {len} {at:?}"),
                );

                // CBC in place and buffer to buffer, IGE in place.
                let buf = g.place(at, whole);
                Cbc::new(mk(), &iv16).encrypt(buf).unwrap();
                same(buf, cbc, format_args!("{name} {backend} cbc {len} {at:?}"));
                let out = match at {
                    At::Tail => o.tail(whole.len()),
                    At::Head => o.head(whole.len()),
                };
                Cbc::new(mk(), &iv16).decrypt_b2b(buf, out).unwrap();
                same(
                    out,
                    whole,
                    format_args!("{name} {backend} cbc-dec b2b {len} {at:?}"),
                );
                Cbc::new(mk(), &iv16).decrypt(buf).unwrap();
                same(
                    buf,
                    whole,
                    format_args!("{name} {backend} cbc-dec {len} {at:?}"),
                );
                Cbc::new(mk(), &iv16).encrypt_b2b(buf, out).unwrap();
                same(
                    out,
                    cbc,
                    format_args!("{name} {backend} cbc b2b {len} {at:?}"),
                );
                Ige::new(mk(), &iv32).encrypt(buf).unwrap();
                same(buf, ige, format_args!("{name} {backend} ige {len} {at:?}"));
                Ige::new(mk(), &iv32).decrypt(buf).unwrap();
                same(
                    buf,
                    whole,
                    format_args!("{name} {backend} ige-dec {len} {at:?}"),
                );
            }
            // CTR in place, in three pieces, each at its own guard.
            let mut k = Ctr::new(mk(), &iv16);
            let mut off = 0;
            for n in pieces(len)[1].iter().copied() {
                let buf = g.place(At::Tail, &msg[off..off + n]);
                k.apply_keystream(buf).unwrap();
                same(
                    buf,
                    &ctr[off..off + n],
                    format_args!("{name} {backend} ctr {len}"),
                );
                off += n;
            }
        }
    });
}

#[test]
fn aes_modes() {
    for_each_cipher!(aes);
}

// ---------------------------------------------------------------------------------------------
// AES-GCM

/// The AAD length used with a text of `len` bytes at `at`: the same length at the tail, a
/// spread of other lengths at the head.
fn aad_len(len: usize, at: At) -> usize {
    match at {
        At::Tail => len,
        At::Head => (len * 5 + 3) % 301,
    }
}

/// Portable results for one text length: for each placement, the AAD and the sealed text
/// and tag; then the sealed text and tag under the long IV (AAD of `len % 23` bytes).
struct AeadCase {
    msg: Vec<u8>,
    sealed: [(Vec<u8>, Vec<u8>, [u8; 16]); 2],
    iv_sealed: (Vec<u8>, Vec<u8>, [u8; 16]),
}

fn gcm<G: Gcm>() {
    let [mut g, mut a, mut v] = regions();
    let key = data(G::KEY_LEN, 8);
    let nonce: [u8; 12] = data(12, 9).try_into().unwrap();
    let long_iv = data(60, 10);
    let reference = G::with(Features::none(), &key);
    let cases: Vec<AeadCase> = some_lengths()
        .map(|len| {
            let msg = data(len, 11);
            let sealed = BOTH.map(|at| {
                let aad = data(aad_len(len, at), 12);
                let mut ct = msg.clone();
                let tag = reference
                    .seal_in_place_detached(&nonce, &aad, &mut ct)
                    .unwrap();
                (aad, ct, tag)
            });
            let aad = data(len % 23, 14);
            let mut ct = msg.clone();
            let mut tag = [0u8; 16];
            reference
                .seal_detached_with_iv(&long_iv, &aad, &mut ct, &mut tag)
                .unwrap();
            AeadCase {
                msg,
                sealed,
                iv_sealed: (aad, ct, tag),
            }
        })
        .collect();
    for_each_gcm_backend::<G>(|backend, features| {
        let k = G::with(features, &key);
        let name = G::NAME;
        for c in &cases {
            let len = c.msg.len();
            for (at, (aad, ct, want_tag)) in BOTH.into_iter().zip(&c.sealed) {
                let buf = g.place(at, &c.msg);
                let ad = a.place(at, aad);
                let tag = k.seal_in_place_detached(&nonce, ad, buf).unwrap();
                same(buf, ct, format_args!("{name} {backend} seal {len} {at:?}"));
                same(
                    &tag,
                    want_tag,
                    format_args!("{name} {backend} tag {len} {at:?}"),
                );
                k.open_in_place_detached(&nonce, ad, buf, &tag).unwrap();
                same(
                    buf,
                    &c.msg,
                    format_args!("{name} {backend} open {len} {at:?}"),
                );
                // A failed open zeroes the whole guarded buffer, and no more.
                buf.copy_from_slice(ct);
                let mut bad = tag;
                bad[0] ^= 1;
                assert!(k.open_in_place_detached(&nonce, ad, buf, &bad).is_err());
                assert!(buf.iter().all(|&b| b == 0), "{backend} wipe {len}");
            }
            // A 60-byte IV (J0 from GHASH) at the guard too.
            let (aad, ct, want_tag) = &c.iv_sealed;
            for at in BOTH {
                let buf = g.place(at, &c.msg);
                let iv = v.place(at, &long_iv);
                let mut tag = [0u8; 16];
                k.seal_detached_with_iv(iv, aad, buf, &mut tag).unwrap();
                same(
                    buf,
                    ct,
                    format_args!("{name} {backend} iv seal {len} {at:?}"),
                );
                same(
                    &tag,
                    want_tag,
                    format_args!("{name} {backend} iv tag {len} {at:?}"),
                );
                k.open_detached_with_iv(iv, aad, buf, &tag).unwrap();
                same(
                    buf,
                    &c.msg,
                    format_args!("{name} {backend} iv open {len} {at:?}"),
                );
            }
        }
    });
}

#[test]
fn aes_gcm() {
    for_each_gcm!(gcm);
}

// ---------------------------------------------------------------------------------------------
// ChaCha20, Poly1305 and their AEADs

#[test]
fn chacha20_keystream() {
    let [mut g, ..] = regions();
    let key: [u8; 32] = data(32, 15).try_into().unwrap();
    let nonce: [u8; 12] = data(12, 16).try_into().unwrap();
    let cases: Vec<(Vec<u8>, Vec<u8>)> = lengths()
        .map(|len| {
            let msg = data(len, 17);
            let mut want = msg.clone();
            ChaCha20::new_with(Features::none(), &key, &nonce, 1)
                .apply_keystream(&mut want)
                .unwrap();
            (msg, want)
        })
        .collect();
    common::chacha::for_each_chacha20_backend(|backend, features| {
        for (msg, want) in &cases {
            let len = msg.len();
            for split in pieces(len) {
                let mut c = ChaCha20::new_with(features, &key, &nonce, 1);
                let mut off = 0;
                for n in split {
                    let buf = g.place(At::Tail, &msg[off..off + n]);
                    c.apply_keystream(buf).unwrap();
                    same(buf, &want[off..off + n], format_args!("{backend} {len}"));
                    off += n;
                }
            }
            let buf = g.place(At::Head, msg);
            ChaCha20::new_with(features, &key, &nonce, 1)
                .apply_keystream(buf)
                .unwrap();
            same(buf, want, format_args!("{backend} head {len}"));
        }
    });
}

#[test]
fn poly1305() {
    let [mut g, ..] = regions();
    let key: [u8; 32] = data(32, 18).try_into().unwrap();
    let cases: Vec<(Vec<u8>, [u8; 16])> = lengths()
        .map(|len| {
            let msg = data(len, 19);
            let mut r = Poly1305::new_with(Features::none(), &key);
            r.update(&msg);
            (msg, r.finalize())
        })
        .collect();
    common::chacha::for_each_poly1305_backend(|backend, features| {
        for (msg, want) in &cases {
            let len = msg.len();
            for split in pieces(len) {
                let mut p = Poly1305::new_with(features, &key);
                let mut off = 0;
                for n in split {
                    p.update(g.place(At::Tail, &msg[off..off + n]));
                    off += n;
                }
                same(&p.finalize(), want, format_args!("{backend} {len}"));
            }
            let mut p = Poly1305::new_with(features, &key);
            p.update(g.place(At::Head, msg));
            same(&p.finalize(), want, format_args!("{backend} head {len}"));
        }
    });
}

type Seal<'a, A> = &'a dyn Fn(&A, &[u8], &mut [u8]) -> Result<[u8; 16], simdcrypt::Error>;
type Open<'a, A> = &'a dyn Fn(&A, &[u8], &mut [u8], &[u8; 16]) -> Result<(), simdcrypt::Error>;

/// Seal and open (and a failed open) with text and AAD at the guards, against the portable
/// backend: `mk(features)` builds the AEAD, `seal`/`open` call it. Texts shorter than
/// `min_len` must be refused by seal.
fn chacha_aead<A>(
    name: &str,
    min_len: usize,
    for_each: impl FnOnce(&mut dyn FnMut(&'static str, Features)),
    mk: impl Fn(Features) -> A,
    seal: Seal<A>,
    open: Open<A>,
) {
    let [mut g, mut a, _] = regions();
    let reference = mk(Features::none());
    let cases: Vec<AeadCase> = some_lengths()
        .filter(|&len| len >= min_len)
        .map(|len| {
            let msg = data(len, 20);
            let sealed = BOTH.map(|at| {
                let aad = data(aad_len(len, at), 21);
                let mut ct = msg.clone();
                let tag = seal(&reference, &aad, &mut ct).unwrap();
                (aad, ct, tag)
            });
            AeadCase {
                msg,
                sealed,
                iv_sealed: (Vec::new(), Vec::new(), [0; 16]),
            }
        })
        .collect();
    for_each(&mut |backend, features| {
        let k = mk(features);
        for short in 0..min_len {
            assert!(
                seal(&k, &[], g.tail(short)).is_err(),
                "{name}: {short} bytes"
            );
        }
        for c in &cases {
            let len = c.msg.len();
            for (at, (aad, ct, want_tag)) in BOTH.into_iter().zip(&c.sealed) {
                let buf = g.place(at, &c.msg);
                let ad = a.place(at, aad);
                let tag = seal(&k, ad, buf).unwrap();
                same(buf, ct, format_args!("{name} {backend} seal {len} {at:?}"));
                same(
                    &tag,
                    want_tag,
                    format_args!("{name} {backend} tag {len} {at:?}"),
                );
                open(&k, ad, buf, &tag).unwrap();
                same(
                    buf,
                    &c.msg,
                    format_args!("{name} {backend} open {len} {at:?}"),
                );
                buf.copy_from_slice(ct);
                let mut bad = tag;
                bad[15] ^= 0x80;
                assert!(open(&k, ad, buf, &bad).is_err());
                assert!(buf.iter().all(|&b| b == 0), "{name} {backend} wipe {len}");
            }
        }
    });
}

#[test]
fn chacha20_poly1305() {
    let key: [u8; 32] = data(32, 23).try_into().unwrap();
    let n12: [u8; 12] = data(12, 24).try_into().unwrap();
    let n24: [u8; 24] = data(24, 25).try_into().unwrap();
    chacha_aead(
        "chacha20-poly1305",
        0,
        |f| common::chacha::for_each_chacha20_poly1305_backend(f),
        |f| ChaCha20Poly1305::new_with(f, &key),
        &|k: &ChaCha20Poly1305, aad, buf| k.seal_in_place_detached(&n12, aad, buf),
        &|k: &ChaCha20Poly1305, aad, buf, t| k.open_in_place_detached(&n12, aad, buf, t),
    );
    chacha_aead(
        "xchacha20-poly1305",
        0,
        |f| common::chacha::for_each_xchacha20_poly1305_backend(f),
        |f| XChaCha20Poly1305::new_with(f, &key),
        &|k: &XChaCha20Poly1305, aad, buf| k.seal_in_place_detached(&n24, aad, buf),
        &|k: &XChaCha20Poly1305, aad, buf, t| k.open_in_place_detached(&n24, aad, buf, t),
    );
}

#[test]
fn openssh_chacha20_poly1305() {
    let key: [u8; 64] = data(64, 26).try_into().unwrap();
    // The packet is length ‖ payload: at least the 4-byte length; this AEAD has no AAD (the
    // AAD buffers are placed but not used).
    chacha_aead(
        "openssh",
        4,
        |f| common::chacha::for_each_openssh_backend(f),
        |f| OpenSshChaCha20Poly1305::new_with(f, &key),
        &|k: &OpenSshChaCha20Poly1305, _aad, buf| k.seal_in_place(7, buf),
        &|k: &OpenSshChaCha20Poly1305, _aad, buf, t| k.open_in_place(7, buf, t),
    );
}

// ---------------------------------------------------------------------------------------------
// The harness itself

/// Runs `probe` in a forked child and returns how it ended: `Ok(exit status)` or
/// `Err(signal)`.
fn in_child(probe: impl FnOnce()) -> Result<i32, i32> {
    // SAFETY: fork has no memory-safety preconditions; the child only runs `probe` (a
    // volatile load, no allocation or lock) and then `_exit`, which are safe after fork in a
    // multithreaded process.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork");
    if pid == 0 {
        probe();
        // SAFETY: ends the child at once, without running the parent's atexit handlers.
        unsafe { libc::_exit(0) };
    }
    let mut status = 0;
    // SAFETY: waits for the child just forked; `status` is a valid out-pointer.
    let r = unsafe { libc::waitpid(pid, &mut status, 0) };
    assert_eq!(r, pid, "waitpid");
    if libc::WIFSIGNALED(status) {
        Err(libc::WTERMSIG(status))
    } else {
        Ok(libc::WEXITSTATUS(status))
    }
}

/// The guards are there: one byte past a tail or before a head faults (SIGSEGV), the bytes
/// inside do not. Without this, a harness whose guards were missing would pass everything.
#[test]
fn guards_fault() {
    let mut g = Guarded::new(1);
    let room = g.room();
    // The whole read-write range: its first byte follows the lower guard, its last precedes
    // the upper one.
    let all = g.head(room).as_ptr();
    let inside = in_child(|| {
        // SAFETY: both loads are inside the read-write pages of the mapping, which outlives
        // the child.
        unsafe {
            std::ptr::read_volatile(all);
            std::ptr::read_volatile(all.add(room - 1));
        }
    });
    assert_eq!(inside, Ok(0));
    let after = in_child(|| {
        // SAFETY: the load hits the upper PROT_NONE page (wrapping arithmetic: outside the
        // slice), which is the point: the child dies of SIGSEGV, the parent goes on.
        unsafe { std::ptr::read_volatile(all.wrapping_add(room)) };
    });
    assert_eq!(after, Err(libc::SIGSEGV));
    let before = in_child(|| {
        // SAFETY: as above, the lower PROT_NONE page.
        unsafe { std::ptr::read_volatile(all.wrapping_sub(1)) };
    });
    assert_eq!(before, Err(libc::SIGSEGV));
}
