//! HMAC: RFC 2202 (HMAC-SHA-1) and RFC 4231 (HMAC-SHA-224/256/384/512) vectors from
//! `vectors/hmac/`, on every backend; `verify` accepts the right tag and rejects every
//! single-bit flip and every wrong length.

mod common;

use common::vectors;
use common::{Hash, for_each_backend, hex};
use simdcrypt::Error;
use simdcrypt::cpu::Features;
use simdcrypt::hmac::Hmac;
use simdcrypt::sha::{Sha1, Sha224, Sha256, Sha384, Sha512};

struct Case {
    at: String,
    key: Vec<u8>,
    msg: Vec<u8>,
    tag: Vec<u8>,
}

/// The files' records: `Len` (of `Msg`, in bits), `Key`, `Msg`, `MD` (the full tag).
fn cases<H: Hash>(file: &str, records: usize) -> Vec<Case> {
    let v = vectors::read(file);
    assert_eq!(v.len(), records, "{}: record count", v.name());
    v.into_iter()
        .map(|mut r| {
            let len = r.take_usize("Len");
            let key = r.take_hex("Key");
            let msg = r.take_hex("Msg");
            let tag = r.take_hex("MD");
            assert_eq!(msg.len() * 8, len, "{}: Len does not match Msg", r.at());
            assert_eq!(tag.len(), H::OUTPUT_LEN, "{}: MD length", r.at());
            let at = r.at().to_string();
            r.finish();
            Case { at, key, msg, tag }
        })
        .collect()
}

fn mac<H: Hash>(f: Features, key: &[u8], msg: &[u8]) -> H::Output {
    let mut m = Hmac::<H>::new_with(key, f);
    m.update(msg);
    m.finalize().into_bytes()
}

/// Tag, streamed tag and `verify` (right tag, each single-bit flip, wrong lengths) for each
/// case, on each backend.
fn check<H: Hash>(cases: &[Case]) {
    for_each_backend::<H>(|name, f| {
        for c in cases {
            let ctx = format!("{} on backend {name}", c.at);
            let m0 = Hmac::<H>::new_with(&c.key, f);
            assert_eq!(m0.backend(), name, "{ctx}");
            assert_eq!(
                hex(mac::<H>(f, &c.key, &c.msg).as_ref()),
                hex(&c.tag),
                "{ctx}"
            );

            // The same tag when the message arrives byte by byte.
            let mut m = m0.clone();
            for b in &c.msg {
                m.update(core::slice::from_ref(b));
            }
            assert_eq!(hex(m.finalize().as_ref()), hex(&c.tag), "{ctx}, streamed");

            let mut m = m0.clone();
            m.update(&c.msg);
            assert_eq!(m.clone().verify(&c.tag), Ok(()), "{ctx}: verify");
            let mut bad = c.tag.clone();
            for bit in 0..bad.len() * 8 {
                bad[bit / 8] ^= 1 << (bit % 8);
                assert_eq!(
                    m.clone().verify(&bad),
                    Err(Error::AuthenticationFailed),
                    "{ctx}: bit {bit} flipped"
                );
                bad[bit / 8] ^= 1 << (bit % 8);
            }
            // Truncated tags (down to empty) and over-long ones are rejected too.
            for len in 0..c.tag.len() {
                assert!(
                    m.clone().verify(&c.tag[..len]).is_err(),
                    "{ctx}: {len} bytes"
                );
            }
            let mut long = c.tag.clone();
            long.push(0);
            assert!(m.clone().verify(&long).is_err(), "{ctx}: tag + 1 byte");
            assert_eq!(m.verify(&bad), Ok(()), "{ctx}: flips were undone");
        }
    });
}

#[test]
fn rfc2202_hmac_sha1() {
    let cases = cases::<Sha1>("hmac/rfc-2202-sha1.txt", 7);
    check::<Sha1>(&cases);
    // RFC 2202 §3 test case 5 also gives HMAC-SHA-1-96, the first 12 bytes of the tag.
    let c = &cases[4];
    assert_eq!(c.msg, b"Test With Truncation", "{}", c.at);
    assert_eq!(hex(&c.tag[..12]), "4c1a03424b55e07fe7f27be1");
}

fn rfc4231<H: Hash>(file: &str, truncated: &str) {
    check::<H>(&cases::<H>(file, 6));
    // RFC 4231 §4.6, test case 5 (not in the upstream file: "truncation test from RFC not
    // added"): the RFC gives only the first 128 bits of the tag, so compare that prefix.
    let key = [0x0c; 20];
    let msg = b"Test With Truncation";
    for_each_backend::<H>(|name, f| {
        let tag = mac::<H>(f, &key, msg);
        assert_eq!(hex(&tag.as_ref()[..16]), truncated, "{} on {name}", H::NAME);
    });
}

#[test]
fn rfc4231_hmac_sha224() {
    rfc4231::<Sha224>(
        "hmac/rfc-4231-sha224.txt",
        "0e2aea68a90c8d37c988bcdb9fca6fa8",
    );
}

#[test]
fn rfc4231_hmac_sha256() {
    rfc4231::<Sha256>(
        "hmac/rfc-4231-sha256.txt",
        "a3b6167473100ee06e0c796c2955552b",
    );
}

#[test]
fn rfc4231_hmac_sha384() {
    rfc4231::<Sha384>(
        "hmac/rfc-4231-sha384.txt",
        "3abf34c3503b2a23a46efc619baef897",
    );
}

#[test]
fn rfc4231_hmac_sha512() {
    rfc4231::<Sha512>(
        "hmac/rfc-4231-sha512.txt",
        "415fad6271580a531d4179bc891d87a6",
    );
}

/// `Hmac::new` and `Hmac::mac` use the kernel `new_with(Features::detect())` picks.
#[test]
fn default_constructors_use_the_detected_kernel() {
    let m = Hmac::<Sha256>::new(b"key");
    assert_eq!(m.backend(), Sha256::backend_for(Features::detect()));
    let mut n = Hmac::<Sha256>::new_with(b"key", Features::detect());
    n.update(b"msg");
    assert_eq!(Hmac::<Sha256>::mac(b"key", b"msg"), n.finalize());
}
