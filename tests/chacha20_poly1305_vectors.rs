//! ChaCha20-Poly1305 vector suites on every kernel pair the machine has (house rule 7):
//!
//! - `chacha20/boringssl-chacha20-poly1305.txt` (66 records) and
//!   `chacha20/openssl-chacha20-poly1305.txt` (5 records, one whose tag must be rejected):
//!   `ChaCha20Poly1305`, every record sealed and opened (in place and through the `Vec` API),
//!   and a flipped tag bit rejected with the buffer zeroed;
//! - `chacha20/draft-irtf-cfrg-xchacha-03.txt` A.3.1: `XChaCha20Poly1305`, and the Poly1305
//!   key it lists;
//! - `chacha20/openssh-chacha20-poly1305.txt` (52 generated records): `OpenSshChaCha20Poly1305`
//!   (`seal_in_place`, `decrypt_length`, `open_in_place`).
//!
//! Each record is also checked against the portable reference of `common::chacha` (which
//! anchors that reference, used by `tests/chacha20_proptest.rs`, to the files).

mod common;

use common::chacha::{
    for_each_chacha20_poly1305_backend, for_each_openssh_backend,
    for_each_xchacha20_poly1305_backend, ref_chacha20_poly1305, ref_openssh,
    ref_xchacha20_poly1305,
};
use common::hex;
use common::vectors::{self, Record};
use simdcrypt::Error;
use simdcrypt::aead::{ChaCha20Poly1305, OpenSshChaCha20Poly1305, XChaCha20Poly1305};
use simdcrypt::chacha20::{ChaCha20, hchacha20};

/// One ChaCha20-Poly1305 record; `ok` is false for a tag that must be rejected.
struct Case {
    at: String,
    key: [u8; 32],
    nonce: [u8; 12],
    aad: Vec<u8>,
    pt: Vec<u8>,
    ct: Vec<u8>,
    tag: [u8; 16],
    ok: bool,
}

fn arr<const N: usize>(at: &str, what: &str, v: Vec<u8>) -> [u8; N] {
    let n = v.len();
    v.try_into()
        .unwrap_or_else(|_| panic!("{at}: {what} of {n} bytes, expected {N}"))
}

/// BoringSSL's records: `COUNT, KEY, NONCE, IN, AD, CT, TAG`, values hex or quoted text.
fn boringssl() -> Vec<Case> {
    let mut out = Vec::new();
    for (i, mut r) in vectors::read("chacha20/boringssl-chacha20-poly1305.txt")
        .into_iter()
        .enumerate()
    {
        let at = r.at().to_string();
        assert_eq!(r.take_usize("COUNT"), i + 1, "{at}: COUNT");
        let c = Case {
            key: arr(&at, "KEY", r.take_bytes("KEY")),
            nonce: arr(&at, "NONCE", r.take_bytes("NONCE")),
            pt: r.take_bytes("IN"),
            aad: r.take_bytes("AD"),
            ct: r.take_bytes("CT"),
            tag: arr(&at, "TAG", r.take_bytes("TAG")),
            ok: true,
            at,
        };
        r.finish();
        out.push(c);
    }
    out
}

/// OpenSSL's records: `COUNT, Key, IV, AAD, Tag, Plaintext, Ciphertext` and, for a tag that
/// must fail, `Result = CIPHERFINAL_ERROR`.
fn openssl() -> Vec<Case> {
    let mut out = Vec::new();
    for (i, mut r) in vectors::read("chacha20/openssl-chacha20-poly1305.txt")
        .into_iter()
        .enumerate()
    {
        let at = r.at().to_string();
        assert_eq!(r.take_usize("COUNT"), i + 1, "{at}: COUNT");
        let ok = !r.has("Result") || {
            let v = r.take_str("Result");
            assert_eq!(v, "CIPHERFINAL_ERROR", "{at}: Result");
            false
        };
        let c = Case {
            key: arr(&at, "Key", r.take_hex("Key")),
            nonce: arr(&at, "IV", r.take_hex("IV")),
            aad: r.take_hex("AAD"),
            tag: arr(&at, "Tag", r.take_hex("Tag")),
            pt: r.take_hex("Plaintext"),
            ct: r.take_hex("Ciphertext"),
            ok,
            at,
        };
        r.finish();
        out.push(c);
    }
    out
}

/// The portable reference agrees with the record (for a failing record: its tag differs).
fn check_reference(c: &Case) {
    assert_eq!(c.pt.len(), c.ct.len(), "{}: IN and CT lengths", c.at);
    let (ct, tag) = ref_chacha20_poly1305(&c.key, &c.nonce, &c.aad, &c.pt);
    assert_eq!(hex(&ct), hex(&c.ct), "{}: reference CT", c.at);
    if c.ok {
        assert_eq!(hex(&tag), hex(&c.tag), "{}: reference tag", c.at);
    } else {
        assert_ne!(
            hex(&tag),
            hex(&c.tag),
            "{}: reference accepts a FAIL tag",
            c.at
        );
    }
}

/// One record on one pair.
fn check(name: &str, a: &ChaCha20Poly1305, c: &Case) {
    let ctx = format!("{} on {name}", c.at);
    let mut buf = c.ct.clone();
    let r = a.open_in_place_detached(&c.nonce, &c.aad, &mut buf, &c.tag);
    let mut ct_and_tag = c.ct.clone();
    ct_and_tag.extend_from_slice(&c.tag);
    let v = a.open(&c.nonce, &c.aad, &ct_and_tag);
    if !c.ok {
        assert_eq!(
            r,
            Err(Error::AuthenticationFailed),
            "{ctx}: bad tag accepted"
        );
        assert!(buf.iter().all(|&b| b == 0), "{ctx}: buffer not zeroed");
        assert_eq!(v, Err(Error::AuthenticationFailed), "{ctx}: open");
        return;
    }
    assert_eq!(r, Ok(()), "{ctx}: open_in_place_detached");
    assert_eq!(hex(&buf), hex(&c.pt), "{ctx}: opened plaintext");
    assert_eq!(v.map(|p| hex(&p)), Ok(hex(&c.pt)), "{ctx}: open");

    let mut buf = c.pt.clone();
    let tag = a.seal_in_place_detached(&c.nonce, &c.aad, &mut buf);
    assert_eq!(tag.map(|t| hex(&t)), Ok(hex(&c.tag)), "{ctx}: tag");
    assert_eq!(hex(&buf), hex(&c.ct), "{ctx}: ciphertext");
    assert_eq!(
        a.seal(&c.nonce, &c.aad, &c.pt).map(|v| hex(&v)),
        Ok(hex(&ct_and_tag)),
        "{ctx}: seal"
    );

    let mut bad = c.tag;
    bad[c.ct.len() % 16] ^= 1 << (c.ct.len() % 8);
    let mut buf = c.ct.clone();
    assert_eq!(
        a.open_in_place_detached(&c.nonce, &c.aad, &mut buf, &bad),
        Err(Error::AuthenticationFailed),
        "{ctx}: flipped tag bit accepted"
    );
    assert!(buf.iter().all(|&b| b == 0), "{ctx}: buffer not zeroed");
}

fn run(cases: &[Case]) {
    for c in cases {
        check_reference(c);
    }
    let mut ran = Vec::new();
    for_each_chacha20_poly1305_backend(|name, f| {
        for c in cases {
            let a = ChaCha20Poly1305::new_with(f, &c.key);
            assert_eq!(a.backend(), name, "{}", c.at);
            check(name, &a, c);
        }
        ran.push(name);
    });
    eprintln!("{} records on {ran:?}", cases.len());
}

#[test]
fn boringssl_vectors() {
    let cases = boringssl();
    assert_eq!(cases.len(), 66);
    // RFC 7539 §2.8.2 is the first record; texts of 0 to 295 bytes, quoted and hex.
    assert_eq!(
        cases[0].tag,
        arr(
            "",
            "",
            vectors::decode_hex("1ae10b594f09e26a7e902ecbd0600691").unwrap()
        )
    );
    assert!(cases.iter().any(|c| c.pt.is_empty() && c.aad.is_empty()));
    assert_eq!(cases.iter().map(|c| c.pt.len()).max(), Some(295));
    run(&cases);
}

#[test]
fn openssl_vectors() {
    let cases = openssl();
    assert_eq!(cases.len(), 5);
    assert_eq!(cases.iter().filter(|c| !c.ok).count(), 1);
    run(&cases);
}

#[test]
fn xchacha_draft_a_3_1() {
    let mut found = 0;
    for mut r in vectors::read("chacha20/draft-irtf-cfrg-xchacha-03.txt") {
        if r.section_flag("HChaCha20") {
            // Read by tests/chacha20_vectors.rs.
            for k in ["KEY", "NONCE", "SUBKEY"] {
                r.take_str(k);
            }
            r.finish();
            continue;
        }
        assert!(r.section_flag("AEAD_XChaCha20_Poly1305"));
        let at = r.at().to_string();
        let key: [u8; 32] = arr(&at, "KEY", r.take_hex("KEY"));
        let iv: [u8; 24] = arr(&at, "IV", r.take_hex("IV"));
        let aad = r.take_hex("AAD");
        let pt = r.take_hex("PLAINTEXT");
        let otk = r.take_hex("POLY1305_KEY");
        let ct = r.take_hex("CIPHERTEXT");
        let tag: [u8; 16] = arr(&at, "TAG", r.take_hex("TAG"));
        r.finish();
        found += 1;

        // The intermediate value: block 0 of ChaCha20 under the subkey.
        let subkey = hchacha20(&key, iv[..16].try_into().unwrap());
        let mut n12 = [0u8; 12];
        n12[4..].copy_from_slice(&iv[16..]);
        let mut block0 = [0u8; 32];
        ChaCha20::new(&subkey, &n12, 0)
            .apply_keystream(&mut block0)
            .unwrap();
        assert_eq!(hex(&block0), hex(&otk), "{at}: Poly1305 key");
        let (rc, rt) = ref_xchacha20_poly1305(&key, &iv, &aad, &pt);
        assert_eq!(
            (hex(&rc), hex(&rt)),
            (hex(&ct), hex(&tag)),
            "{at}: reference"
        );

        for_each_xchacha20_poly1305_backend(|name, f| {
            let a = XChaCha20Poly1305::new_with(f, &key);
            assert_eq!(a.backend(), name);
            let mut buf = pt.clone();
            let t = a.seal_in_place_detached(&iv, &aad, &mut buf).unwrap();
            assert_eq!(
                (hex(&buf), hex(&t)),
                (hex(&ct), hex(&tag)),
                "{at} on {name}"
            );
            a.open_in_place_detached(&iv, &aad, &mut buf, &tag).unwrap();
            assert_eq!(buf, pt, "{at} on {name}");
            let mut sealed = ct.clone();
            sealed.extend_from_slice(&tag);
            assert_eq!(a.seal(&iv, &aad, &pt).as_deref(), Ok(&sealed[..]));
            assert_eq!(a.open(&iv, &aad, &sealed).as_deref(), Ok(&pt[..]));
            let mut bad_iv = iv;
            bad_iv[23] ^= 1;
            let mut buf = ct.clone();
            assert_eq!(
                a.open_in_place_detached(&bad_iv, &aad, &mut buf, &tag),
                Err(Error::AuthenticationFailed)
            );
            assert!(buf.iter().all(|&b| b == 0));
        });
    }
    assert_eq!(found, 1);
}

struct SshCase {
    at: String,
    key: [u8; 64],
    seq: u64,
    pt: Vec<u8>,
    ct: Vec<u8>,
    tag: [u8; 16],
}

fn openssh() -> Vec<SshCase> {
    let mut out = Vec::new();
    for (i, mut r) in vectors::read("chacha20/openssh-chacha20-poly1305.txt")
        .into_iter()
        .enumerate()
    {
        let at = r.at().to_string();
        assert_eq!(r.take_usize("COUNT"), i, "{at}: COUNT");
        let c = SshCase {
            key: arr(&at, "KEY", r.take_hex("KEY")),
            seq: take_u64(&mut r, "SEQNR"),
            pt: r.take_hex("PLAINTEXT"),
            ct: r.take_hex("CIPHERTEXT"),
            tag: arr(&at, "TAG", r.take_hex("TAG")),
            at,
        };
        r.finish();
        assert_eq!(c.pt.len(), c.ct.len(), "{}", c.at);
        assert_eq!(
            u32::from_be_bytes(c.pt[..4].try_into().unwrap()) as usize,
            c.pt.len() - 4,
            "{}: the length field",
            c.at
        );
        out.push(c);
    }
    out
}

/// A decimal `u64` (the parser's `take_usize` is 32 bits wide on armv7).
fn take_u64(r: &mut Record, k: &str) -> u64 {
    let v = r.take_str(k);
    assert!(v.bytes().all(|b| b.is_ascii_digit()), "{k} = {v:?}");
    v.parse().unwrap_or_else(|e| panic!("{k} = {v:?}: {e}"))
}

#[test]
fn openssh_vectors() {
    let cases = openssh();
    assert_eq!(cases.len(), 52);
    assert!(cases.iter().any(|c| c.seq == u64::MAX));
    assert!(cases.iter().any(|c| c.pt.len() == 4));
    for c in &cases {
        let (ct, tag) = ref_openssh(&c.key, c.seq, &c.pt);
        assert_eq!(
            (hex(&ct), hex(&tag)),
            (hex(&c.ct), hex(&c.tag)),
            "{}: reference",
            c.at
        );
    }
    for_each_openssh_backend(|name, f| {
        for c in &cases {
            let ctx = format!("{} on {name}", c.at);
            let a = OpenSshChaCha20Poly1305::new_with(f, &c.key);
            assert_eq!(a.backend(), name);
            let mut buf = c.pt.clone();
            let tag = a.seal_in_place(c.seq, &mut buf);
            assert_eq!(tag, Ok(c.tag), "{ctx}: tag");
            assert_eq!(hex(&buf), hex(&c.ct), "{ctx}: encrypted packet");
            assert_eq!(
                a.decrypt_length(c.seq, c.ct[..4].try_into().unwrap()),
                c.pt[..4],
                "{ctx}: decrypt_length"
            );
            assert_eq!(a.open_in_place(c.seq, &mut buf, &c.tag), Ok(()), "{ctx}");
            assert_eq!(hex(&buf), hex(&c.pt), "{ctx}: opened packet");
            // The wrong sequence number fails and zeroes.
            let mut buf = c.ct.clone();
            assert_eq!(
                a.open_in_place(c.seq ^ 1, &mut buf, &c.tag),
                Err(Error::AuthenticationFailed),
                "{ctx}"
            );
            assert!(buf.iter().all(|&b| b == 0), "{ctx}: not zeroed");
        }
    });
}
