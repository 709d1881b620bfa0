//! Constant-time check under valgrind memcheck ("ctgrind", DESIGN.md rule 8).
//!
//! Every secret (message, key, IKM, PRK, AES, ChaCha20 and Poly1305 keys, plaintext, AAD) is
//! marked *undefined* with a memcheck client request
//! before it reaches the library; memcheck then reports any conditional branch on it
//! ("Conditional jump or move depends on uninitialised value(s)") and any memory address
//! computed from it ("Use of uninitialised value of size 8", 4 on armv7). Results are marked
//! defined again (declassified) only at the end, just before they are compared with the
//! portable kernel's result. Nothing else is declassified, except the library's own MAC
//! verdict byte (`ct::declassify`), which is public by design.
//!
//! Natively these are ordinary functional tests: every request is a no-op. The CI's
//! constant-time step builds with `RUSTFLAGS="--cfg simdcrypt_ctgrind"` (which turns the
//! requests on, in the library and here), runs the binary under
//! `valgrind -q --error-exitcode=1`, sets `CT_VALGRIND=1` (so that `guard_running_under_valgrind`
//! fails if valgrind is not really there) and `SIMDCRYPT_DISABLE=sha,avx512f`, and runs the
//! ignored canaries one by one, each of which must be reported. See `.ci/run`.
//!
//! Every backend of the running CPU is checked (`backends(Features::detect())`). Valgrind's
//! emulated CPUID hides what it cannot run (SHA-NI, VAES, VPCLMULQDQ, AVX-512), so those
//! kernels are not checked here (the AES checks also skip `vaes-*` by name, the AES-GCM
//! checks pairs with `vaes` or `vpclmul` in their name, the ChaCha20, Poly1305 and
//! ChaCha20-Poly1305 checks kernels with `avx512` in their name): natively the vector and
//! cross-check tests cover them for correctness only.

use std::hint::black_box;

use simdcrypt::Error;
use simdcrypt::aead::{
    Aes128Gcm, Aes192Gcm, Aes256Gcm, ChaCha20Poly1305, GcmShortTag, OpenSshChaCha20Poly1305,
    XChaCha20Poly1305,
};
use simdcrypt::aes::{Aes128, Aes192, Aes256, BlockCipher, Cbc, Ctr, Ige, pkcs7_unpad};
use simdcrypt::chacha20::{ChaCha20, hchacha20};
use simdcrypt::cpu::Features;
use simdcrypt::hkdf::Hkdf;
use simdcrypt::hmac::Hmac;
use simdcrypt::poly1305::Poly1305;
use simdcrypt::sha::{Digest, Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};

/// The client requests: the library's own (one copy of the assembly) when built with
/// `--cfg simdcrypt_ctgrind`, otherwise no-ops with the same signatures.
#[cfg(simdcrypt_ctgrind)]
use simdcrypt::__ctgrind as vg;

#[cfg(not(simdcrypt_ctgrind))]
mod vg {
    //! Without `--cfg simdcrypt_ctgrind` there are no client requests: report "not running
    //! under valgrind" and change nothing.
    pub fn running_on_valgrind() -> usize {
        0
    }
    pub fn make_mem_undefined(_: &mut [u8]) {}
    pub fn make_mem_defined(_: &mut [u8]) {}
    pub fn get_vbits(_: &[u8], _: &mut [u8]) -> usize {
        0
    }
}

fn under_valgrind() -> bool {
    vg::running_on_valgrind() > 0
}

/// Marks `v` secret (undefined). Under valgrind, checks that every bit really is undefined now.
fn secret<T: AsMut<[u8]> + AsRef<[u8]>>(v: T) -> T {
    let mut v = black_box(v);
    vg::make_mem_undefined(v.as_mut());
    if under_valgrind() {
        let mut vbits = vec![0u8; v.as_ref().len()];
        assert_eq!(vg::get_vbits(v.as_ref(), &mut vbits), 1, "GET_VBITS failed");
        assert!(
            vbits.iter().all(|&b| b == 0xff),
            "make_mem_undefined left defined bits"
        );
    }
    v
}

/// Marks `v` public (defined): a result about to be compared or printed.
fn declassify<T: AsMut<[u8]>>(mut v: T) -> T {
    vg::make_mem_defined(v.as_mut());
    v
}

/// Deterministic, length-dependent message bytes (public until `secret` is applied).
fn message(len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i.wrapping_mul(131) ^ len.wrapping_mul(7) ^ 0x5a) as u8)
        .collect()
}

/// Around the 64- and 128-byte block boundaries and their padding limits (55/56, 111/112),
/// plus a multi-block message.
const LENS: &[usize] = &[
    0, 1, 3, 7, 13, 17, 31, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 1000,
];

fn portable<H: Digest>(msg: &[u8]) -> H::Output {
    let mut h = H::new_with(Features::none());
    h.update(msg);
    h.finalize()
}

/// Hashes secret messages with every backend in `backends`, one-shot and in three pieces;
/// declassifies only the digests.
fn check_hash<H: Digest>(
    hash: &str,
    backends: impl Iterator<Item = (&'static str, Features)>,
) -> Vec<&'static str> {
    let mut names = Vec::new();
    for (name, features) in backends {
        for &len in LENS {
            let msg = message(len);
            let want = portable::<H>(&msg);
            let s = secret(msg.clone());

            let mut h = H::new_with(features);
            assert_eq!(h.backend(), name);
            h.update(&s);
            let got = declassify(h.finalize());
            assert_eq!(got, want, "{hash} {name} len {len}: update + finalize");

            // The one-shot path builds the padded last block(s) from the message itself.
            let got = declassify(H::digest_with(features, &s));
            assert_eq!(got, want, "{hash} {name} len {len}: one-shot");

            let (a, rest) = s.split_at(len / 3);
            let (b, c) = rest.split_at(rest.len() / 2);
            let mut h = H::new_with(features);
            h.update(a);
            h.update(b);
            h.update(c);
            let got = declassify(h.finalize());
            assert_eq!(got, want, "{hash} {name} len {len}: in pieces");
        }
        names.push(name);
    }
    // The portable kernel ends the walk, except where this core's order puts it before NEON
    // (SHA-224/256 on some aarch64 cores, listed by `cpu::core()`): then `soft`, `neon` end it.
    let soft_before_neon = matches!(hash, "SHA-224" | "SHA-256")
        && simdcrypt::cpu::core()
            .changes
            .iter()
            .any(|c| c.primitive == "sha256" && c.first == "soft");
    let end: &[&str] = if soft_before_neon && names.contains(&"neon") {
        &["soft", "neon"]
    } else {
        &["soft"]
    };
    assert!(
        names.ends_with(end),
        "{hash}: the portable kernel, {names:?}"
    );
    eprintln!("ct: {hash}: checked backends {names:?}");
    names
}

#[test]
fn sha1() {
    check_hash::<Sha1>("SHA-1", Sha1::backends(Features::detect()));
}

#[test]
fn sha224() {
    check_hash::<Sha224>("SHA-224", Sha224::backends(Features::detect()));
}

#[test]
fn sha256() {
    check_hash::<Sha256>("SHA-256", Sha256::backends(Features::detect()));
}

#[test]
fn sha384() {
    check_hash::<Sha384>("SHA-384", Sha384::backends(Features::detect()));
}

#[test]
fn sha512() {
    check_hash::<Sha512>("SHA-512", Sha512::backends(Features::detect()));
}

#[test]
fn sha512_224() {
    check_hash::<Sha512_224>("SHA-512/224", Sha512_224::backends(Features::detect()));
}

#[test]
fn sha512_256() {
    check_hash::<Sha512_256>("SHA-512/256", Sha512_256::backends(Features::detect()));
}

/// HMAC with a secret key (shorter than, equal to and longer than a block: the long one is
/// hashed first) and a secret message; the tag is declassified, then `verify` is called with
/// the right tag, a tag with one bit flipped and a truncated tag. The verdict is public by
/// design: the library declassifies its one accumulated byte and nothing else.
fn check_hmac<H: Digest>(hash: &str, backends: impl Iterator<Item = (&'static str, Features)>) {
    for (name, features) in backends {
        for key_len in [0, 20, H::BLOCK_LEN, H::BLOCK_LEN + 1] {
            for msg_len in [0, 1, 64, 200] {
                let key: Vec<u8> = message(key_len).iter().map(|b| b ^ 0x33).collect();
                let msg = message(msg_len);
                let want = {
                    let mut m = Hmac::<H>::new_with(&key, Features::none());
                    m.update(&msg);
                    m.finalize().into_bytes()
                };
                let ctx = format!("HMAC-{hash} {name} key {key_len} msg {msg_len}");

                let mut m = Hmac::<H>::new_with(&secret(key.clone()), features);
                assert_eq!(m.backend(), name);
                m.update(&secret(msg.clone()));
                let got = declassify(m.clone().finalize().into_bytes());
                assert_eq!(got, want, "{ctx}: tag");

                assert!(m.clone().verify(want.as_ref()).is_ok(), "{ctx}: right tag");
                let mut bad = want;
                bad.as_mut()[H::OUTPUT_LEN - 1] ^= 0x01;
                assert!(
                    m.clone().verify(bad.as_ref()).is_err(),
                    "{ctx}: flipped bit"
                );
                let short = &want.as_ref()[..H::OUTPUT_LEN - 1];
                assert!(m.verify(short).is_err(), "{ctx}: truncated tag");
            }
        }
    }
}

#[test]
fn hmac_sha256() {
    check_hmac::<Sha256>("SHA256", Sha256::backends(Features::detect()));
}

#[test]
fn hmac_sha512() {
    check_hmac::<Sha512>("SHA512", Sha512::backends(Features::detect()));
}

#[test]
fn hmac_sha1() {
    check_hmac::<Sha1>("SHA1", Sha1::backends(Features::detect()));
}

/// HKDF-Expand (RFC 5869 §2.3) written out over the portable HMAC, as the reference.
fn hkdf_reference<H: Digest>(salt: &[u8], ikm: &[u8], info: &[u8], len: usize) -> Vec<u8> {
    let mut m = Hmac::<H>::new_with(salt, Features::none());
    m.update(ikm);
    let prk = m.finalize();
    let mut okm = Vec::new();
    let mut t: Vec<u8> = Vec::new();
    let mut i = 1u8;
    while okm.len() < len {
        let mut m = Hmac::<H>::new_with(prk.as_ref(), Features::none());
        m.update(&t);
        m.update(info);
        m.update(&[i]);
        t = m.finalize().as_ref().to_vec();
        okm.extend_from_slice(&t);
        i += 1;
    }
    okm.truncate(len);
    okm
}

/// HKDF with a secret IKM (extract, then expand to several lengths), and expand from a secret
/// PRK; the outputs are declassified only for the comparison.
fn check_hkdf<H: Digest>(hash: &str) {
    let salt = message(13);
    let info = message(10);
    for ikm_len in [0, 22, 80] {
        let ikm = message(ikm_len);
        for len in [0, 1, H::OUTPUT_LEN, 42, 3 * H::OUTPUT_LEN + 5] {
            let want = hkdf_reference::<H>(&salt, &ikm, &info, len);
            let (prk, k) = Hkdf::<H>::extract(&salt, &secret(ikm.clone()));
            let mut okm = vec![0u8; len];
            k.expand(&info, &mut okm).unwrap();
            assert_eq!(declassify(okm), want, "HKDF-{hash} ikm {ikm_len} L {len}");

            let prk = secret(prk);
            let k = Hkdf::<H>::from_prk(prk.as_ref()).unwrap();
            let mut okm = vec![0u8; len];
            k.expand(&info, &mut okm).unwrap();
            assert_eq!(
                declassify(okm),
                want,
                "HKDF-{hash} from_prk ikm {ikm_len} L {len}"
            );
        }
    }
}

#[test]
fn hkdf_sha256() {
    check_hkdf::<Sha256>("SHA256");
}

#[test]
fn hkdf_sha512() {
    check_hkdf::<Sha512>("SHA512");
}

/// RFC 5869 A.1, with the IKM secret: anchors the reference above to the RFC.
#[test]
fn hkdf_rfc5869_a1() {
    let ikm = secret([0x0bu8; 22]);
    let salt: Vec<u8> = (0x00..=0x0c).collect();
    let info: Vec<u8> = (0xf0..=0xf9).collect();
    let mut okm = [0u8; 42];
    Hkdf::<Sha256>::new(&salt, &ikm)
        .expand(&info, &mut okm)
        .unwrap();
    let want = hkdf_reference::<Sha256>(&salt, &[0x0b; 22], &info, 42);
    let okm = declassify(okm);
    assert_eq!(okm.as_slice(), want.as_slice());
    assert_eq!(
        okm,
        [
            0x3c, 0xb2, 0x5f, 0x25, 0xfa, 0xac, 0xd5, 0x7a, 0x90, 0x43, 0x4f, 0x64, 0xd0, 0x36,
            0x2f, 0x2a, 0x2d, 0x2d, 0x0a, 0x90, 0xcf, 0x1a, 0x5a, 0x4c, 0x5d, 0xb0, 0x2d, 0x56,
            0xec, 0xc4, 0xc5, 0xbf, 0x34, 0x00, 0x72, 0x08, 0xd5, 0xb8, 0x87, 0x18, 0x58, 0x65,
        ]
    );
}

/// An AES key type, for the generic checks below.
trait Aes: BlockCipher + Sized {
    const NAME: &'static str;
    fn with(features: Features, key: &[u8]) -> Self;
    fn backends(features: Features) -> Vec<(&'static str, Features)>;
    fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]);
    fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]);
}

macro_rules! aes {
    ($($t:ident => $name:literal),*) => {$(
        impl Aes for $t {
            const NAME: &'static str = $name;
            fn with(features: Features, key: &[u8]) -> Self {
                $t::new_with(features, key.try_into().unwrap())
            }
            fn backends(features: Features) -> Vec<(&'static str, Features)> {
                $t::backends(features).collect()
            }
            fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
                $t::encrypt_blocks(self, blocks)
            }
            fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
                $t::decrypt_blocks(self, blocks)
            }
        }
    )*};
}

aes!(Aes128 => "AES-128", Aes192 => "AES-192", Aes256 => "AES-256");

/// Blocks of `bytes` (a whole number of blocks), public.
fn to_blocks(bytes: &[u8]) -> Vec<[u8; 16]> {
    bytes
        .chunks_exact(16)
        .map(|c| c.try_into().unwrap())
        .collect()
}

/// Block counts around the kernels' strides (1, 2, 4 and 8 blocks; the VAES kernels are not
/// run here; 14: an 8-block batch and a zero-padded partial one) and the CTR byte lengths
/// that start and end inside blocks (the last one's pieces reach the 8-block CTR batches).
const AES_BLOCKS: &[usize] = &[1, 2, 3, 4, 5, 8, 9, 14, 17];
const CTR_LENS: &[usize] = &[1, 15, 16, 17, 64, 100, 16 * 9 + 5, 16 * 20 + 5];

/// Every AES kernel valgrind can run, with a secret key and secret data, against the portable
/// kernel on public copies: key expansion, ECB encrypt and decrypt, CTR (counters in the
/// middle and just below the 2^32 and 2^128 wrap: the counter is public, the keystream and
/// data are not), CBC encrypt and decrypt, IGE encrypt and decrypt. Only the outputs are
/// declassified, for the comparison.
///
/// The VAES kernels (`vaes-*`) are skipped by name: valgrind cannot run VAES or AVX-512
/// (SIGILL), and its CPUID hides them anyway (the CI step also masks avx512f).
fn check_aes<C: Aes>() -> Vec<&'static str> {
    let key: Vec<u8> = message(C::KEY_LEN).iter().map(|b| b ^ 0xc3).collect();
    let reference = C::with(Features::none(), &key);
    let iv = [0x3cu8; 16];
    let iv32 = [0x7eu8; 32];
    let mut names = Vec::new();
    for (name, features) in C::backends(Features::detect()) {
        if name.starts_with("vaes") {
            continue;
        }
        let aes = C::with(features, &secret(key.clone()));
        assert_eq!(aes.backend(), name);
        for &n in AES_BLOCKS {
            let ctx = format!("{} {name} {n} blocks", C::NAME);
            let data = message(16 * n);

            // ECB.
            for encrypt in [true, false] {
                let mut want = to_blocks(&data);
                let mut got = to_blocks(&data);
                vg::make_mem_undefined(got.as_flattened_mut());
                if encrypt {
                    reference.encrypt_blocks(&mut want);
                    aes.encrypt_blocks(&mut got);
                } else {
                    reference.decrypt_blocks(&mut want);
                    aes.decrypt_blocks(&mut got);
                }
                vg::make_mem_defined(got.as_flattened_mut());
                assert_eq!(got, want, "{ctx}: ECB encrypt={encrypt}");
            }

            // CBC, both directions, with a fresh context from the secret key each time.
            for encrypt in [true, false] {
                let mut want = data.clone();
                let mut r = Cbc::new(C::with(Features::none(), &key), &iv);
                let mut c = Cbc::new(C::with(features, &secret(key.clone())), &iv);
                let mut got = secret(data.clone());
                if encrypt {
                    r.encrypt(&mut want).unwrap();
                    c.encrypt(&mut got).unwrap();
                } else {
                    r.decrypt(&mut want).unwrap();
                    c.decrypt(&mut got).unwrap();
                }
                assert_eq!(declassify(got), want, "{ctx}: CBC encrypt={encrypt}");
            }

            // IGE.
            for encrypt in [true, false] {
                let mut want = data.clone();
                let mut r = Ige::new(C::with(Features::none(), &key), &iv32);
                let mut c = Ige::new(C::with(features, &secret(key.clone())), &iv32);
                let mut got = secret(data.clone());
                if encrypt {
                    r.encrypt(&mut want).unwrap();
                    c.encrypt(&mut got).unwrap();
                } else {
                    r.decrypt(&mut want).unwrap();
                    c.decrypt(&mut got).unwrap();
                }
                assert_eq!(declassify(got), want, "{ctx}: IGE encrypt={encrypt}");
            }
        }
        // CTR: one call and two calls split inside a block.
        let counters = [
            iv,
            [
                0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xfd,
            ],
            [0xff; 16],
        ];
        for ctr_iv in counters {
            for &len in CTR_LENS {
                let ctx = format!("{} {name} CTR len {len} iv {ctr_iv:02x?}", C::NAME);
                let data = message(len);
                let mut want = data.clone();
                Ctr::new(C::with(Features::none(), &key), &ctr_iv)
                    .apply_keystream(&mut want)
                    .unwrap();
                let mut got = secret(data.clone());
                let mut c = Ctr::new(C::with(features, &secret(key.clone())), &ctr_iv);
                let (a, b) = got.split_at_mut(len / 3);
                c.apply_keystream(a).unwrap();
                c.apply_keystream(b).unwrap();
                assert_eq!(declassify(got), want, "{ctx}");
            }
        }
        names.push(name);
    }
    assert_eq!(
        names.last().copied(),
        Some(C::with(Features::none(), &key).backend()),
        "{}: the portable kernel",
        C::NAME
    );
    eprintln!("ct: {}: checked backends {names:?}", C::NAME);
    names
}

#[test]
fn aes128() {
    check_aes::<Aes128>();
}

#[test]
fn aes192() {
    check_aes::<Aes192>();
}

#[test]
fn aes256() {
    check_aes::<Aes256>();
}

/// An AES-GCM key type, for the generic check below.
trait Gcm: Sized {
    const NAME: &'static str;
    const KEY_LEN: usize;
    fn with(features: Features, key: &[u8]) -> Self;
    fn backends(features: Features) -> Vec<(&'static str, Features)>;
    fn backend(&self) -> &'static str;
    fn seal(&self, nonce: &[u8; 12], aad: &[u8], in_out: &mut [u8]) -> [u8; 16];
    fn open(&self, nonce: &[u8; 12], aad: &[u8], in_out: &mut [u8], tag: &[u8; 16]) -> bool;
    /// Any IV length, a 12-byte tag (`GcmShortTag<_, 12>`).
    fn seal_iv(&self, iv: &[u8], aad: &[u8], in_out: &mut [u8], tag: &mut [u8; 12]);
    fn open_iv(&self, iv: &[u8], aad: &[u8], in_out: &mut [u8], tag: &[u8; 12]) -> bool;
}

macro_rules! gcm {
    ($($t:ident => $name:literal, $len:literal),*) => {$(
        impl Gcm for $t {
            const NAME: &'static str = $name;
            const KEY_LEN: usize = $len;
            fn with(features: Features, key: &[u8]) -> Self {
                $t::new_with(features, key.try_into().unwrap())
            }
            fn backends(features: Features) -> Vec<(&'static str, Features)> {
                $t::backends(features).collect()
            }
            fn backend(&self) -> &'static str {
                $t::backend(self)
            }
            fn seal(&self, nonce: &[u8; 12], aad: &[u8], in_out: &mut [u8]) -> [u8; 16] {
                self.seal_in_place_detached(nonce, aad, in_out).unwrap()
            }
            fn open(&self, nonce: &[u8; 12], aad: &[u8], in_out: &mut [u8], tag: &[u8; 16]) -> bool {
                match self.open_in_place_detached(nonce, aad, in_out, tag) {
                    Ok(()) => true,
                    Err(e) => {
                        assert_eq!(e, Error::AuthenticationFailed);
                        false
                    }
                }
            }
            fn seal_iv(&self, iv: &[u8], aad: &[u8], in_out: &mut [u8], tag: &mut [u8; 12]) {
                let g = GcmShortTag::<$t, 12>::from_key(self.clone());
                *tag = g.seal_detached_with_iv(iv, aad, in_out).unwrap();
            }
            fn open_iv(&self, iv: &[u8], aad: &[u8], in_out: &mut [u8], tag: &[u8; 12]) -> bool {
                let g = GcmShortTag::<$t, 12>::from_key(self.clone());
                match g.open_detached_with_iv(iv, aad, in_out, tag) {
                    Ok(()) => true,
                    Err(e) => {
                        assert_eq!(e, Error::AuthenticationFailed);
                        false
                    }
                }
            }
        }
    )*};
}

gcm!(Aes128Gcm => "AES-128-GCM", 16, Aes192Gcm => "AES-192-GCM", 24, Aes256Gcm => "AES-256-GCM", 32);

/// Message lengths around the GHASH and AES strides (1, 4, 8 blocks; the 16-block zmm loops
/// are not run here) and a 300-byte one.
const GCM_LENS: &[usize] = &[0, 1, 15, 16, 17, 64, 100, 16 * 9 + 5, 300];

/// Every AES-GCM kernel pair valgrind can run, with a secret key, secret plaintext and secret
/// AAD (the nonce/IV and the lengths are public): seal in place, then open the (declassified)
/// ciphertext with a secret key; then a failed open (one tag bit flipped), whose verdict is
/// the one value the library declassifies (`ct::declassify` on the accumulated tag
/// difference). Through the 96-bit-nonce API and through `*_with_iv` with an IV of `iv_len`
/// bytes and a 12-byte tag. The results are compared, declassified, with the portable pair
/// on public copies.
///
/// Pairs with `vaes` or `vpclmul` in their name are skipped: valgrind cannot run VAES,
/// VPCLMULQDQ or AVX-512 (SIGILL), and its CPUID hides them anyway.
fn check_gcm<G: Gcm>(iv_len: usize) -> Vec<&'static str> {
    let key: Vec<u8> = message(G::KEY_LEN).iter().map(|b| b ^ 0x9a).collect();
    let reference = G::with(Features::none(), &key);
    let nonce = [0x42u8; 12];
    let iv: Vec<u8> = message(iv_len).iter().map(|b| b ^ 0x17).collect();
    let mut names = Vec::new();
    for (name, features) in G::backends(Features::detect()) {
        if name.contains("vaes") || name.contains("vpclmul") {
            continue;
        }
        for &len in GCM_LENS {
            for aad_len in [0, 13, 33] {
                let ctx = format!("{} {name} len {len} aad {aad_len}", G::NAME);
                let pt = message(len);
                let aad: Vec<u8> = message(aad_len).iter().map(|b| b ^ 0x55).collect();

                // 96-bit nonce, 16-byte tag.
                let mut want = pt.clone();
                let want_tag = reference.seal(&nonce, &aad, &mut want);
                let g = G::with(features, &secret(key.clone()));
                assert_eq!(g.backend(), name);
                let s_aad = secret(aad.clone());
                let mut ct = secret(pt.clone());
                let tag = declassify(g.seal(&nonce, &s_aad, &mut ct));
                let ct = declassify(ct);
                assert_eq!(ct, want, "{ctx}: ciphertext");
                assert_eq!(tag, want_tag, "{ctx}: tag");

                let mut buf = ct.clone();
                assert!(g.open(&nonce, &s_aad, &mut buf, &tag), "{ctx}: open");
                assert_eq!(declassify(buf), pt, "{ctx}: plaintext");
                let mut bad = tag;
                bad[len % 16] ^= 0x10;
                let mut buf = ct.clone();
                assert!(!g.open(&nonce, &s_aad, &mut buf, &bad), "{ctx}: bad tag");
                assert!(declassify(buf).iter().all(|&b| b == 0), "{ctx}: zeroed");

                // `iv_len`-byte IV, 12-byte tag.
                let mut want = pt.clone();
                let mut want_tag = [0u8; 12];
                reference.seal_iv(&iv, &aad, &mut want, &mut want_tag);
                let mut ct = secret(pt.clone());
                let mut tag = [0u8; 12];
                g.seal_iv(&iv, &s_aad, &mut ct, &mut tag);
                let (ct, tag) = (declassify(ct), declassify(tag));
                assert_eq!(ct, want, "{ctx}: IV ciphertext");
                assert_eq!(tag, want_tag, "{ctx}: IV tag");
                let mut buf = ct.clone();
                assert!(g.open_iv(&iv, &s_aad, &mut buf, &tag), "{ctx}: IV open");
                assert_eq!(declassify(buf), pt, "{ctx}: IV plaintext");
                let mut bad = tag;
                bad[11] ^= 0x01;
                let mut buf = ct.clone();
                assert!(!g.open_iv(&iv, &s_aad, &mut buf, &bad), "{ctx}: IV bad tag");
                assert!(declassify(buf).iter().all(|&b| b == 0), "{ctx}: IV zeroed");
            }
        }
        names.push(name);
    }
    assert_eq!(
        names.last().copied(),
        Some(reference.backend()),
        "{}: the portable pair",
        G::NAME
    );
    eprintln!("ct: {}: checked backends {names:?}", G::NAME);
    names
}

#[test]
fn aes128_gcm() {
    let names = check_gcm::<Aes128Gcm>(12);
    // Where AVX2 is usable the walk pairs AES kernels with the AVX2 ctmul GHASH (the kernel
    // for CPUs without PCLMULQDQ), so it is checked here too.
    if cfg!(target_arch = "x86_64") && Features::detect().has("avx2") {
        assert!(
            names.iter().any(|n| n.ends_with("+ctmul-avx2")),
            "ctmul-avx2 not checked: {names:?}"
        );
    }
    // Likewise the aarch64 GHASH kernel for CPUs without PMULL (8-bit PMULL on NEON).
    if cfg!(target_arch = "aarch64") && Features::detect().has("neon") {
        assert!(
            names.iter().any(|n| n.ends_with("+neon-pmull8")),
            "neon-pmull8 not checked: {names:?}"
        );
    }
}

#[test]
fn aes192_gcm() {
    check_gcm::<Aes192Gcm>(12);
}

#[test]
fn aes256_gcm() {
    check_gcm::<Aes256Gcm>(12);
}

/// AES-GCM with IVs that are not 96 bits long: J0 = GHASH_H(IV ‖ pad ‖ len) depends on the
/// secret H, so the counter blocks are secret too. The AES CTR kernels treat their counter as
/// public (they branch on carries), so `aes_gcm` writes these counter blocks out with a
/// branch-free inc32 and encrypts them as data (ECB). This test failed under valgrind before
/// that change (reports in `aes_gcm::gctr` and the kernels' counter handling).
#[test]
fn aes_gcm_non_96_bit_iv() {
    for iv_len in [1, 16, 60] {
        check_gcm::<Aes128Gcm>(iv_len);
        check_gcm::<Aes256Gcm>(iv_len);
    }
}

/// Lengths around the ChaCha20 strides (1, 2, 4, 8 blocks; the 16-block AVX-512 loops are
/// not run here), the Poly1305 block, the AEAD's 192-byte head, and past its first 4 KiB
/// chunk.
const CHACHA_LENS: &[usize] = &[0, 1, 15, 16, 17, 64, 100, 129, 193, 257, 520, 4096 + 70];

/// Whether valgrind can run the kernel (pair) `name`: not the AVX-512 ones (SIGILL; its
/// CPUID hides them, and the CI step masks avx512f as well).
fn valgrind_runs(name: &str) -> bool {
    !name.contains("avx512")
}

/// ChaCha20 with a secret key and secret plaintext (nonce and counter public), in both
/// layouts, one-shot and in pieces; the keystream output is declassified and compared with
/// the portable kernel's. Also HChaCha20 with a secret key.
#[test]
fn chacha20() {
    let key: [u8; 32] = core::array::from_fn(|i| (i as u8) ^ 0xc3);
    let nonce = [0x21u8; 12];
    let mut names = Vec::new();
    for (name, features) in ChaCha20::backends(Features::detect()) {
        if !valgrind_runs(name) {
            continue;
        }
        for &len in CHACHA_LENS {
            let pt = message(len);
            let mut want = pt.clone();
            ChaCha20::new_with(Features::none(), &key, &nonce, 7)
                .apply_keystream(&mut want)
                .unwrap();
            let mut c = ChaCha20::new_with(features, &secret(key), &nonce, 7);
            assert_eq!(c.backend(), name);
            let mut buf = secret(pt.clone());
            let (a, b) = buf.split_at_mut(len / 3);
            c.apply_keystream(a).unwrap();
            c.apply_keystream(b).unwrap();
            assert_eq!(declassify(buf), want, "ChaCha20 {name} len {len}");

            let mut want = pt.clone();
            ChaCha20::new_legacy_with(Features::none(), &key, &[5; 8], u64::from(u32::MAX) - 2)
                .apply_keystream(&mut want)
                .unwrap();
            let mut c =
                ChaCha20::new_legacy_with(features, &secret(key), &[5; 8], u64::from(u32::MAX) - 2);
            let mut buf = secret(pt.clone());
            c.apply_keystream(&mut buf).unwrap();
            assert_eq!(declassify(buf), want, "ChaCha20 legacy {name} len {len}");
        }
        names.push(name);
    }
    assert_eq!(names.last(), Some(&"soft"), "ChaCha20: the portable kernel");
    let want = hchacha20(&key, &[9; 16]);
    assert_eq!(declassify(hchacha20(&secret(key), &[9; 16])), want);
    eprintln!("ct: ChaCha20: checked backends {names:?}");
}

/// Poly1305 with a secret key (r with every clamped bit set, and a mixed one) and a secret
/// message, one-shot and in pieces; the tag is declassified. `verify` with the right tag and
/// a flipped bit (its verdict is the one declassified value).
#[test]
fn poly1305() {
    let keys: [[u8; 32]; 2] = [
        [0xff; 32],
        core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 1),
    ];
    let mut names = Vec::new();
    for (name, features) in Poly1305::backends(Features::detect()) {
        if !valgrind_runs(name) {
            continue;
        }
        for key in &keys {
            for &len in CHACHA_LENS {
                let msg = message(len);
                let want = {
                    let mut m = Poly1305::new_with(Features::none(), key);
                    m.update(&msg);
                    m.finalize()
                };
                let s = secret(msg.clone());
                let mut m = Poly1305::new_with(features, &secret(*key));
                assert_eq!(m.backend(), name);
                let (a, b) = s.split_at(len / 3);
                m.update(a);
                m.update(b);
                assert_eq!(declassify(m.finalize()), want, "Poly1305 {name} len {len}");

                let mut m = Poly1305::new_with(features, &secret(*key));
                m.update(&s);
                assert!(m.verify(&want).is_ok(), "Poly1305 {name}: right tag");
                let mut bad = want;
                bad[len % 16] ^= 4;
                let mut m = Poly1305::new_with(features, &secret(*key));
                m.update(&s);
                assert!(m.verify(&bad).is_err(), "Poly1305 {name}: flipped bit");
            }
        }
        names.push(name);
    }
    // The portable kernel ends the walk, except where this core's order puts `soft-64` before
    // NEON (ThunderX, ThunderX2; listed by `cpu::core()`): then `soft-64`, `neon` end it.
    let soft_before_neon = simdcrypt::cpu::core()
        .changes
        .iter()
        .any(|c| c.primitive == "poly1305" && c.first == "soft-64");
    assert!(
        names.last().is_some_and(|n| n.starts_with("soft-"))
            || (soft_before_neon && names.ends_with(&["soft-64", "neon"])),
        "Poly1305: the portable kernel last, {names:?}"
    );
    eprintln!("ct: Poly1305: checked backends {names:?}");
}

/// The three ChaCha20-Poly1305 AEADs on every kernel pair valgrind can run, with a secret key,
/// plaintext and AAD (nonce, sequence number and lengths public): seal in place, open the
/// declassified ciphertext, and a failed open (one tag bit flipped) whose verdict is the one
/// value the library declassifies. Results are compared, declassified, with the portable
/// pair's on public copies.
#[test]
fn chacha20_poly1305_aeads() {
    let key: [u8; 32] = core::array::from_fn(|i| (i as u8) ^ 0x6e);
    let key64: [u8; 64] = core::array::from_fn(|i| (i as u8).wrapping_mul(11));
    let nonce = [0x42u8; 12];
    let xnonce = [0x24u8; 24];
    let r = ChaCha20Poly1305::new_with(Features::none(), &key);
    let rx = XChaCha20Poly1305::new_with(Features::none(), &key);
    let rs = OpenSshChaCha20Poly1305::new_with(Features::none(), &key64);
    let mut names = Vec::new();
    for (name, features) in ChaCha20Poly1305::backends(Features::detect()) {
        if !valgrind_runs(name) {
            continue;
        }
        let a = ChaCha20Poly1305::new_with(features, &secret(key));
        let x = XChaCha20Poly1305::new_with(features, &secret(key));
        let o = OpenSshChaCha20Poly1305::new_with(features, &secret(key64));
        assert_eq!(a.backend(), name);
        for &len in CHACHA_LENS {
            for aad_len in [0, 13, 33] {
                let ctx = format!("ChaCha20-Poly1305 {name} len {len} aad {aad_len}");
                let pt = message(len);
                let aad: Vec<u8> = message(aad_len).iter().map(|b| b ^ 0x55).collect();
                let s_aad = secret(aad.clone());

                let mut want = pt.clone();
                let want_tag = r.seal_in_place_detached(&nonce, &aad, &mut want).unwrap();
                let mut ct = secret(pt.clone());
                let tag = declassify(a.seal_in_place_detached(&nonce, &s_aad, &mut ct).unwrap());
                let ct = declassify(ct);
                assert_eq!((&ct, tag), (&want, want_tag), "{ctx}: seal");
                let mut buf = ct.clone();
                assert!(
                    a.open_in_place_detached(&nonce, &s_aad, &mut buf, &tag)
                        .is_ok()
                );
                assert_eq!(declassify(buf), pt, "{ctx}: open");
                let mut bad = tag;
                bad[len % 16] ^= 0x10;
                let mut buf = ct.clone();
                assert!(
                    a.open_in_place_detached(&nonce, &s_aad, &mut buf, &bad)
                        .is_err()
                );
                assert!(declassify(buf).iter().all(|&b| b == 0), "{ctx}: zeroed");

                let mut want = pt.clone();
                let want_tag = rx.seal_in_place_detached(&xnonce, &aad, &mut want).unwrap();
                let mut ct = secret(pt.clone());
                let tag = declassify(x.seal_in_place_detached(&xnonce, &s_aad, &mut ct).unwrap());
                let ct = declassify(ct);
                assert_eq!((&ct, tag), (&want, want_tag), "X{ctx}: seal");
                let mut buf = ct.clone();
                assert!(
                    x.open_in_place_detached(&xnonce, &s_aad, &mut buf, &tag)
                        .is_ok()
                );
                assert_eq!(declassify(buf), pt, "X{ctx}: open");
                let mut buf = ct.clone();
                assert!(
                    x.open_in_place_detached(&xnonce, &s_aad, &mut buf, &bad)
                        .is_err()
                );
                assert!(declassify(buf).iter().all(|&b| b == 0), "X{ctx}: zeroed");
            }
            // OpenSSH: a packet of 4 + len bytes, all secret (length field included).
            let ctx = format!("OpenSSH {name} payload {len}");
            let mut packet = (len as u32).to_be_bytes().to_vec();
            packet.extend(message(len));
            let seq = 0xffff_fffe;
            let mut want = packet.clone();
            let want_tag = rs.seal_in_place(seq, &mut want).unwrap();
            let mut ct = secret(packet.clone());
            let tag = declassify(o.seal_in_place(seq, &mut ct).unwrap());
            let ct = declassify(ct);
            assert_eq!((&ct, tag), (&want, want_tag), "{ctx}: seal");
            let enc_len: [u8; 4] = ct[..4].try_into().unwrap();
            assert_eq!(declassify(o.decrypt_length(seq, &enc_len)), packet[..4]);
            let mut buf = ct.clone();
            assert!(o.open_in_place(seq, &mut buf, &tag).is_ok(), "{ctx}: open");
            assert_eq!(declassify(buf), packet, "{ctx}: opened");
            let mut bad = tag;
            bad[0] ^= 1;
            let mut buf = ct.clone();
            assert!(
                o.open_in_place(seq, &mut buf, &bad).is_err(),
                "{ctx}: bad tag"
            );
            assert!(declassify(buf).iter().all(|&b| b == 0), "{ctx}: zeroed");
        }
        names.push(name);
    }
    assert_eq!(
        names.last().copied(),
        Some(r.backend()),
        "ChaCha20-Poly1305: the portable pair"
    );
    eprintln!("ct: ChaCha20-Poly1305: checked backends {names:?}");
}

/// PKCS#7 unpadding of secret plaintext: the verdict (Ok/Err) and the padding length are
/// public by design (the library declassifies them with `ct::declassify`), the rest is not.
/// Valid paddings of every length, and malformed ones (0, 17, 255, a differing byte).
#[test]
fn pkcs7_unpad_secret_data() {
    for blocks in [1usize, 2] {
        let len = 16 * blocks;
        for n in 1..=16u8 {
            let mut d = message(len);
            d[len - usize::from(n)..].fill(n);
            let s = secret(d.clone());
            let got = pkcs7_unpad(&s).map(|m| declassify(m.to_vec()));
            assert_eq!(got, Ok(d[..len - usize::from(n)].to_vec()), "n {n}");
            if n > 1 {
                let mut bad = d.clone();
                bad[len - 2] ^= 0x40;
                let s = secret(bad);
                assert!(pkcs7_unpad(&s).is_err(), "n {n}, differing byte");
            }
        }
        for last in [0u8, 17, 255] {
            let mut d = message(len);
            d[len - 1] = last;
            let s = secret(d);
            assert!(pkcs7_unpad(&s).is_err(), "last byte {last}");
        }
    }
}

/// `secret` really poisons and `declassify` really unpoisons (under valgrind; natively both are
/// no-ops and the bits read back as "not running").
#[test]
fn requests_change_validity_bits() {
    let mut v = secret([1u8, 2, 3, 4, 5, 6, 7, 8, 9]);
    let mut vbits = [0u8; 9];
    if under_valgrind() {
        assert_eq!(vg::get_vbits(&v, &mut vbits), 1);
        assert_eq!(vbits, [0xff; 9]);
        vg::make_mem_defined(&mut v[..4]);
        assert_eq!(vg::get_vbits(&v, &mut vbits), 1);
        assert_eq!(vbits, [0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff]);
    } else {
        assert_eq!(vg::get_vbits(&v, &mut vbits), 0);
        assert_eq!(vbits, [0; 9]);
    }
    let v = declassify(v);
    assert_eq!(v, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
}

/// With `CT_VALGRIND` set (the CI's constant-time step), the run must really be under valgrind
/// with the requests compiled in; otherwise every other test here would pass without checking
/// anything.
#[test]
fn guard_running_under_valgrind() {
    if std::env::var_os("CT_VALGRIND").is_some() {
        assert!(
            under_valgrind(),
            "CT_VALGRIND is set, but this is not running under valgrind, or the test was built \
             without RUSTFLAGS=\"--cfg simdcrypt_ctgrind\" (so the client requests are no-ops)"
        );
    }
}

/// Canary: a branch on a secret byte. Under valgrind it MUST be reported ("Conditional jump or
/// move depends on uninitialised value(s)"); the CI runs it alone and fails if it is not.
#[test]
#[ignore = "canary: must be reported by valgrind; run by the CI's constant-time step"]
fn canary_secret_branch() {
    let s = secret([0x5au8; 4]);
    // The call in one arm keeps LLVM from turning this into a branch-free select.
    if s[0] > 0x40 {
        eprintln!("canary: secret byte is large");
    }
}

/// Canary: a table lookup at a secret index. Under valgrind it MUST be reported ("Use of
/// uninitialised value of size 8", 4 on armv7).
#[test]
#[ignore = "canary: must be reported by valgrind; run by the CI's constant-time step"]
fn canary_secret_index() {
    // 256 entries: a `u8` index needs no bounds check, so the only use is the address.
    let table: [u64; 256] = core::array::from_fn(|i| (i as u64).wrapping_mul(0x9e37_79b9));
    let s = secret([0xa5u8; 4]);
    let v = black_box(&table)[s[1] as usize];
    // Only the (declassified) value is printed: the report must come from the address.
    let v = u64::from_le_bytes(declassify(v.to_le_bytes()));
    eprintln!("canary: table value {v:#x}");
}
