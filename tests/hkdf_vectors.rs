//! HKDF (RFC 5869): the RFC's Appendix A vectors (SHA-256: A.1-A.3, SHA-1: A.4-A.7) and
//! pyca/cryptography's 1200-byte SHA-256 vector, from `vectors/hkdf/`; the length limits.
//!
//! The vectors run on every backend of the hash (`Hkdf::new_with`); `extract` and `from_prk`
//! use the detected one.
//!
//! No upstream file in cryptography_vectors 50.0.2 has HKDF-SHA-384/512 vectors; for those,
//! `sha384_sha512_follow_the_definition` checks `Hkdf` against RFC 5869 §2.2/§2.3 written
//! out over `Hmac`, whose SHA-384/512 results RFC 4231 pins.

mod common;

use common::vectors::{self, Split};
use common::{Hash, hex};
use simdcrypt::Error;
use simdcrypt::hkdf::Hkdf;
use simdcrypt::hmac::Hmac;
use simdcrypt::sha::{Sha1, Sha256, Sha384, Sha512};

/// Checks every record of `file` (records start at `COUNT`; the RFC files have blank lines
/// inside records). `with_prk`: whether records carry the intermediate `PRK`.
fn file<H: Hash>(file: &str, hash_name: &str, records: usize, with_prk: bool) {
    let v = vectors::read_split(file, Split::AtKey("COUNT"));
    assert_eq!(v.len(), records, "{}: record count", v.name());
    for mut r in v {
        r.take_usize("COUNT");
        assert_eq!(r.take_str("Hash"), hash_name, "{}", r.at());
        let ikm = r.take_hex("IKM");
        let salt = r.take_hex("salt");
        let info = r.take_hex("info");
        let l = r.take_usize("L");
        let prk = with_prk.then(|| r.take_hex("PRK"));
        let okm = r.take_hex("OKM");
        assert_eq!(okm.len(), l, "{}: L does not match OKM", r.at());
        let at = r.at().to_string();
        r.finish();

        let (got_prk, hk) = Hkdf::<H>::extract(&salt, &ikm);
        if let Some(prk) = &prk {
            assert_eq!(hex(got_prk.as_ref()), hex(prk), "{at}: PRK");
        }
        let mut out = vec![0u8; l];
        hk.expand(&info, &mut out).unwrap();
        assert_eq!(hex(&out), hex(&okm), "{at}: OKM");

        // `new` is `extract` without the PRK; `from_prk` starts from it.
        let mut out = vec![0u8; l];
        Hkdf::<H>::new(&salt, &ikm).expand(&info, &mut out).unwrap();
        assert_eq!(hex(&out), hex(&okm), "{at}: OKM via new");
        common::for_each_backend::<H>(|backend, features| {
            let mut out = vec![0u8; l];
            Hkdf::<H>::new_with(&salt, &ikm, features)
                .expand(&info, &mut out)
                .unwrap();
            assert_eq!(hex(&out), hex(&okm), "{at}: OKM on {backend}");
        });
        let mut out = vec![0u8; l];
        Hkdf::<H>::from_prk(got_prk.as_ref())
            .unwrap()
            .expand(&info, &mut out)
            .unwrap();
        assert_eq!(hex(&out), hex(&okm), "{at}: OKM via from_prk");

        // Shorter outputs are prefixes (RFC 5869 §2.3: OKM = first L octets of T).
        for short in [0, 1, H::OUTPUT_LEN - 1, H::OUTPUT_LEN, H::OUTPUT_LEN + 1] {
            if short <= l {
                let mut out = vec![0u8; short];
                hk.expand(&info, &mut out).unwrap();
                assert_eq!(hex(&out), hex(&okm[..short]), "{at}: first {short} bytes");
            }
        }

        // An absent salt is HashLen zero octets (RFC 5869 §2.2), which HMAC's zero padding
        // makes equal to the empty salt the files write (A.3, A.6, A.7).
        if salt.is_empty() {
            let zeros = vec![0u8; H::OUTPUT_LEN];
            let (p, _) = Hkdf::<H>::extract(&zeros, &ikm);
            assert_eq!(hex(p.as_ref()), hex(got_prk.as_ref()), "{at}: zero salt");
        }
    }
}

#[test]
fn rfc5869_sha256() {
    file::<Sha256>("hkdf/rfc-5869-HKDF-SHA256.txt", "SHA-256", 3, true);
}

#[test]
fn rfc5869_sha1() {
    file::<Sha1>("hkdf/rfc-5869-HKDF-SHA1.txt", "SHA-1", 4, true);
}

#[test]
fn pyca_generated_1200_bytes_sha256() {
    file::<Sha256>("hkdf/hkdf-generated.txt", "SHA-256", 1, false);
}

fn limits<H: Hash>() {
    let hk = Hkdf::<H>::new(b"salt", b"ikm");
    let max = 255 * H::OUTPUT_LEN;
    let mut out = vec![0u8; max + 1];
    assert_eq!(
        hk.expand(b"info", &mut out),
        Err(Error::InvalidLength),
        "{}",
        H::NAME
    );
    assert_eq!(
        hk.expand(b"info", &mut vec![0u8; 100_000]),
        Err(Error::InvalidLength),
        "{}",
        H::NAME
    );
    assert_eq!(hk.expand(b"info", &mut out[..max]), Ok(()), "{}", H::NAME);
    assert_eq!(hk.expand(b"info", &mut []), Ok(()), "{}", H::NAME);

    let prk = vec![0x42u8; H::OUTPUT_LEN];
    for short in 0..H::OUTPUT_LEN {
        assert_eq!(
            Hkdf::<H>::from_prk(&prk[..short]).err(),
            Some(Error::InvalidLength),
            "{}: PRK of {short} bytes",
            H::NAME
        );
    }
    assert!(Hkdf::<H>::from_prk(&prk).is_ok(), "{}", H::NAME);
    let long = vec![0x42u8; 3 * H::OUTPUT_LEN];
    assert!(Hkdf::<H>::from_prk(&long).is_ok(), "{}", H::NAME);
}

#[test]
fn length_limits() {
    limits::<Sha1>();
    limits::<Sha256>();
    limits::<Sha384>();
    limits::<Sha512>();
}

/// RFC 5869 §2.2 and §2.3 spelled out over `Hmac`: PRK = HMAC(salt, IKM);
/// T(0) = empty, T(i) = HMAC(PRK, T(i-1) || info || i), OKM = first L octets of T(1) || ...
fn by_definition<H: Hash>(salt: &[u8], ikm: &[u8], info: &[u8], l: usize) -> Vec<u8> {
    let mut m = Hmac::<H>::new(salt);
    m.update(ikm);
    let prk = m.finalize();
    let mut okm = Vec::new();
    let mut t: Vec<u8> = Vec::new();
    let mut i = 1u8;
    while okm.len() < l {
        let mut m = Hmac::<H>::new(prk.as_ref());
        m.update(&t);
        m.update(info);
        m.update(&[i]);
        t = m.finalize().as_ref().to_vec();
        okm.extend_from_slice(&t);
        i = i.wrapping_add(1);
    }
    okm.truncate(l);
    okm
}

fn definition<H: Hash>() {
    let ikm: Vec<u8> = (0..80).collect();
    let salt: Vec<u8> = (0x60..0xb0).collect();
    let info: Vec<u8> = (0xb0..=0xff).collect();
    let n = H::OUTPUT_LEN;
    for l in [0, 1, 42, n - 1, n, n + 1, 2 * n + 3, 255 * n] {
        for (s, i) in [(&salt[..], &info[..]), (&[][..], &[][..])] {
            let want = by_definition::<H>(s, &ikm, i, l);
            let mut out = vec![0u8; l];
            Hkdf::<H>::new(s, &ikm).expand(i, &mut out).unwrap();
            assert_eq!(hex(&out), hex(&want), "{}: L = {l}", H::NAME);
        }
    }
}

#[test]
fn sha384_sha512_follow_the_definition() {
    definition::<Sha384>();
    definition::<Sha512>();
}
