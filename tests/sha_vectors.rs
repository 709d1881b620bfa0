//! NIST CAVP SHAVS vectors (`vectors/sha/*.rsp`) and the one-million-'a' messages, for all
//! seven hashes, on every backend the machine has (house rule 7).

mod common;

use common::vectors::{self, Record};
use common::{Hash, for_each_backend, hex};
use simdcrypt::sha::{Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};

/// One `Len`/`Msg`/`MD` record of a ShortMsg or LongMsg file.
struct MsgCase {
    at: String,
    msg: Vec<u8>,
    md: Vec<u8>,
}

/// The `L` section attribute is the digest length in bytes (SHAVS §4).
fn check_l<H: Hash>(r: &mut Record) {
    let l = r.section_usize("L");
    assert_eq!(
        l,
        H::OUTPUT_LEN,
        "{}: [L = {l}] is not {}'s length",
        r.at(),
        H::NAME
    );
}

/// Reads a ShortMsg/LongMsg file (SHAVS §6.1, §6.2: byte-oriented messages; `Len` in bits).
fn msg_cases<H: Hash>(file: &str, records: usize) -> Vec<MsgCase> {
    let v = vectors::read(file);
    assert_eq!(v.len(), records, "{}: record count", v.name());
    v.into_iter()
        .map(|mut r| {
            check_l::<H>(&mut r);
            let len = r.take_usize("Len");
            let mut msg = r.take_hex("Msg");
            let md = r.take_hex("MD");
            assert_eq!(len % 8, 0, "{}: not byte-oriented", r.at());
            if len == 0 {
                // SHAVS writes the empty message as one zero byte, "Msg = 00".
                assert_eq!(msg, [0], "{}: Len = 0 with Msg != 00", r.at());
                msg.clear();
            }
            assert_eq!(msg.len() * 8, len, "{}: Len does not match Msg", r.at());
            assert_eq!(md.len(), H::OUTPUT_LEN, "{}: MD length", r.at());
            let at = r.at().to_string();
            r.finish();
            MsgCase { at, msg, md }
        })
        .collect()
}

fn hash_with<H: Hash>(f: simdcrypt::cpu::Features, msg: &[u8]) -> Vec<u8> {
    let mut h = H::new_with(f);
    h.update(msg);
    h.finalize().as_ref().to_vec()
}

/// Every ShortMsg and LongMsg record of `H`, on every backend.
fn msg_files<H: Hash>(prefix: &str, short: usize, long: usize) {
    let mut cases = msg_cases::<H>(&format!("sha/{prefix}ShortMsg.rsp"), short);
    cases.extend(msg_cases::<H>(&format!("sha/{prefix}LongMsg.rsp"), long));
    for_each_backend::<H>(|name, f| {
        for c in &cases {
            let got = hash_with::<H>(f, &c.msg);
            assert_eq!(hex(&got), hex(&c.md), "{} on backend {name}", c.at);
        }
    });
}

/// The Monte Carlo test of SHAVS §6.4 (Figure 1), as the `.rsp` lays it out: one record
/// `Seed = ...`, then records `COUNT = j` / `MD = ...` for j = 0..99, where
///
/// ```text
/// for j in 0..100:
///     MD0 = MD1 = MD2 = Seed
///     for i in 3..1003:
///         M_i = MD_{i-3} || MD_{i-2} || MD_{i-1}
///         MD_i = SHA(M_i)
///     MD_j = Seed = MD_1002        (the file's MD for COUNT = j)
/// ```
fn monte<H: Hash>(prefix: &str) {
    let v = vectors::read(&format!("sha/{prefix}Monte.rsp"));
    assert_eq!(v.len(), 101, "{}: record count", v.name());
    let mut it = v.into_iter();
    let mut r = it.next().unwrap();
    check_l::<H>(&mut r);
    let seed = r.take_hex("Seed");
    assert_eq!(seed.len(), H::OUTPUT_LEN, "{}: Seed length", r.at());
    r.finish();
    let expected: Vec<(String, Vec<u8>)> = it
        .enumerate()
        .map(|(j, mut r)| {
            check_l::<H>(&mut r);
            assert_eq!(r.take_usize("COUNT"), j, "{}: COUNT out of order", r.at());
            let md = r.take_hex("MD");
            let at = r.at().to_string();
            r.finish();
            (at, md)
        })
        .collect();

    let l = H::OUTPUT_LEN;
    for_each_backend::<H>(|name, f| {
        let mut seed = seed.clone();
        // m = MD_{i-3} || MD_{i-2} || MD_{i-1}; each step shifts one digest out.
        let mut m = vec![0u8; 3 * l];
        for (at, md) in &expected {
            for k in 0..3 {
                m[k * l..(k + 1) * l].copy_from_slice(&seed);
            }
            for _i in 3..1003 {
                let d = hash_with::<H>(f, &m);
                m.copy_within(l.., 0);
                m[2 * l..].copy_from_slice(&d);
            }
            seed.copy_from_slice(&m[2 * l..]);
            assert_eq!(hex(&seed), hex(md), "{at} on backend {name}");
        }
    });
}

/// The message of one million 'a' (0x61) bytes, hashed in one `update` and in 4999-byte
/// pieces (not a multiple of any block size).
fn million_a<H: Hash>(want: &str) {
    let msg = vec![b'a'; 1_000_000];
    for_each_backend::<H>(|name, f| {
        assert_eq!(hex(&hash_with::<H>(f, &msg)), want, "{} on {name}", H::NAME);
        let mut h = H::new_with(f);
        for piece in msg.chunks(4999) {
            h.update(piece);
        }
        assert_eq!(
            hex(h.finalize().as_ref()),
            want,
            "{} on {name}, streamed",
            H::NAME
        );
    });
}

macro_rules! suite {
    ($m:ident, $h:ty, $prefix:literal, $short:literal, $long:literal, $million:literal) => {
        mod $m {
            use super::*;

            #[test]
            fn short_and_long_msg() {
                msg_files::<$h>($prefix, $short, $long);
            }

            #[test]
            fn monte_carlo() {
                monte::<$h>($prefix);
            }

            #[test]
            fn million_a() {
                super::million_a::<$h>($million);
            }
        }
    };
}

// Million-'a' digests:
// - SHA-1: FIPS 180-2, Appendix A.3.
// - SHA-224: RFC 3874 §3.3 (test vector #3).
// - SHA-256: FIPS 180-2, Appendix B.3.
// - SHA-384: FIPS 180-2, Appendix D.3.
// - SHA-512: FIPS 180-2, Appendix C.3.
// - SHA-512/224 and SHA-512/256: no NIST document gives this message (the FIPS 180-4 example
//   documents SHA512_224.pdf / SHA512_256.pdf only have "abc" and the 896-bit message). The
//   values are those of OpenSSL 3 (through Python's hashlib), an independent implementation.
suite!(
    sha1,
    Sha1,
    "SHA1",
    65,
    64,
    "34aa973cd4c4daa4f61eeb2bdbad27316534016f"
);
suite!(
    sha224,
    Sha224,
    "SHA224",
    65,
    64,
    "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67"
);
suite!(
    sha256,
    Sha256,
    "SHA256",
    65,
    64,
    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
);
suite!(
    sha384,
    Sha384,
    "SHA384",
    129,
    128,
    "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985"
);
suite!(
    sha512,
    Sha512,
    "SHA512",
    129,
    128,
    "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b"
);
suite!(
    sha512_224,
    Sha512_224,
    "SHA512_224",
    129,
    128,
    "37ab331d76f0d36de422bd0edeb22a28accd487b7a8453ae965dd287"
);
suite!(
    sha512_256,
    Sha512_256,
    "SHA512_256",
    129,
    128,
    "9a59a052930187a97038cae692f30708aa6491923ef5194394dc68d56c74fb21"
);
