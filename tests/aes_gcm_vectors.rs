//! AES-GCM vector suites on every AES-GCM backend the machine has (house rule 7), for all three
//! key sizes:
//!
//! - NIST CAVP GCMVS `gcmEncryptExtIV*.rsp`: every record sealed and opened;
//! - NIST CAVP GCMVS `gcmDecrypt*.rsp`: every record opened; a `FAIL` record must be rejected
//!   with `AuthenticationFailed` and the buffer all zero, any other must give its `PT` (and
//!   sealing that `PT` must give back its `CT` and `Tag`);
//! - the test cases 1-18 of McGrew and Viega's GCM specification (`mcgrew-viega.txt`).
//!
//! Every record goes through the lower-level API (`seal_detached_with_iv` /
//! `open_detached_with_iv`: the files have 8-, 96- and 1024-bit IVs and tags of 32 to 128
//! bits); records with a 96-bit IV and a 128-bit tag also go through the main API
//! (`seal_in_place_detached`, `open_in_place_detached`, `seal`, `open`).
//!
//! Each record is also checked against the independent reference of `common::gcm_ref` (which
//! anchors that reference, used by `tests/aes_gcm_proptest.rs`, to NIST's values).

mod common;

use common::gcm::{Gcm, for_each_gcm_backend};
use common::gcm_ref;
use common::hex;
use common::vectors::{self, Record};
use simdcrypt::Error;
use simdcrypt::aead::{Aes128Gcm, Aes192Gcm, Aes256Gcm};

/// One record: for a `FAIL` record `pt` is `None`.
struct Case {
    at: String,
    key: Vec<u8>,
    iv: Vec<u8>,
    aad: Vec<u8>,
    pt: Option<Vec<u8>>,
    ct: Vec<u8>,
    tag: Vec<u8>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum File {
    /// `gcmEncryptExtIV*.rsp`: `Count, Key, IV, PT, AAD, CT, Tag`.
    Encrypt,
    /// `gcmDecrypt*.rsp`: `Count, Key, IV, CT, AAD, Tag` and `PT` or a bare `FAIL`.
    Decrypt,
    /// `mcgrew-viega.txt`: like `Encrypt`, section `[Keylen]` only, `Count` = test case.
    McGrewViega,
}

/// Reads the records of `file` for key size `G`, checking the section attributes against the
/// field lengths (`[Keylen]`, `[IVlen]`, `[PTlen]`, `[AADlen]`, `[Taglen]`, all in bits) and
/// `Count` (0, 1, 2, ... within each section group of the GCMVS files).
fn read<G: Gcm>(rel: &str, kind: File) -> Vec<Case> {
    let v = vectors::read(rel);
    let mut out = Vec::new();
    let mut group = String::new();
    let mut count = 0;
    for mut r in v {
        let at = r.at().to_string();
        let keylen = r.section_usize("Keylen");
        let lens = if kind == File::McGrewViega {
            None
        } else {
            Some([
                r.section_usize("IVlen"),
                r.section_usize("PTlen"),
                r.section_usize("AADlen"),
                r.section_usize("Taglen"),
            ])
        };
        let this_group = format!("{keylen} {lens:?}");
        if this_group != group {
            group = this_group;
            count = if kind == File::McGrewViega { count } else { 0 };
        }
        let want_count = if kind == File::McGrewViega {
            // Test cases 1-6 are AES-128, 7-12 AES-192, 13-18 AES-256.
            count + 1
        } else {
            count
        };
        assert_eq!(
            r.take_usize("Count"),
            want_count,
            "{at}: Count out of order"
        );
        count += 1;
        let c = take_case(&mut r, kind, at);
        r.finish();
        assert_eq!(c.key.len() * 8, keylen, "{}: [Keylen]", c.at);
        if let Some([iv, pt, aad, tag]) = lens {
            assert_eq!(c.iv.len() * 8, iv, "{}: [IVlen]", c.at);
            assert_eq!(c.ct.len() * 8, pt, "{}: [PTlen]", c.at);
            assert_eq!(c.aad.len() * 8, aad, "{}: [AADlen]", c.at);
            assert_eq!(c.tag.len() * 8, tag, "{}: [Taglen]", c.at);
        }
        if c.key.len() == G::KEY_LEN {
            out.push(c);
        }
    }
    out
}

fn take_case(r: &mut Record, kind: File, at: String) -> Case {
    let key = r.take_hex("Key");
    let iv = r.take_hex("IV");
    let aad = r.take_hex("AAD");
    let ct = r.take_hex("CT");
    let tag = r.take_hex("Tag");
    let pt = match kind {
        File::Encrypt | File::McGrewViega => Some(r.take_hex("PT")),
        File::Decrypt => {
            let fail = r.take_flag("FAIL");
            let pt = r.has("PT").then(|| r.take_hex("PT"));
            assert!(fail != pt.is_some(), "{at}: exactly one of PT and FAIL");
            pt
        }
    };
    if let Some(pt) = &pt {
        assert_eq!(pt.len(), ct.len(), "{at}: PT and CT lengths");
    }
    Case {
        at,
        key,
        iv,
        aad,
        pt,
        ct,
        tag,
    }
}

/// The reference agrees with the record: it seals `PT` to `CT` and the tag, or (for `FAIL`)
/// its tag differs from the record's.
fn check_reference(c: &Case) {
    let g = gcm_ref::Gcm::new(&c.key);
    match &c.pt {
        Some(pt) => {
            let (ct, tag) = g.seal(&c.iv, &c.aad, pt);
            assert_eq!(hex(&ct), hex(&c.ct), "{}: reference CT", c.at);
            assert_eq!(
                hex(&tag[..c.tag.len()]),
                hex(&c.tag),
                "{}: reference tag",
                c.at
            );
        }
        None => {
            let tag = g.tag(g.j0(&c.iv), &c.aad, &c.ct);
            assert_ne!(
                hex(&tag[..c.tag.len()]),
                hex(&c.tag),
                "{}: FAIL record, but the reference accepts its tag",
                c.at
            );
        }
    }
}

/// One record on one backend.
fn check<G: Gcm>(name: &str, g: &G, c: &Case) {
    let ctx = format!("{} on {name}", c.at);
    let main_api = c.iv.len() == 12 && c.tag.len() == 16;
    let nonce: Option<[u8; 12]> = c.iv.as_slice().try_into().ok();

    // Open through the lower-level API: the plaintext, or a rejection that zeroes the buffer.
    let mut buf = c.ct.clone();
    let r = g.open_detached_with_iv(&c.iv, &c.aad, &mut buf, &c.tag);
    match &c.pt {
        Some(pt) => {
            assert_eq!(r, Ok(()), "{ctx}: open_detached_with_iv");
            assert_eq!(hex(&buf), hex(pt), "{ctx}: open_detached_with_iv PT");
        }
        None => {
            assert_eq!(
                r,
                Err(Error::AuthenticationFailed),
                "{ctx}: FAIL record accepted"
            );
            assert!(
                buf.iter().all(|&b| b == 0),
                "{ctx}: rejected, but the buffer is not all zero: {}",
                hex(&buf)
            );
        }
    }
    if main_api {
        let nonce = nonce.as_ref().unwrap();
        let tag: &[u8; 16] = c.tag.as_slice().try_into().unwrap();
        let mut buf = c.ct.clone();
        let r = g.open_in_place_detached(nonce, &c.aad, &mut buf, tag);
        let mut ct_and_tag = c.ct.clone();
        ct_and_tag.extend_from_slice(&c.tag);
        let v = g.open(nonce, &c.aad, &ct_and_tag);
        match &c.pt {
            Some(pt) => {
                assert_eq!(r, Ok(()), "{ctx}: open_in_place_detached");
                assert_eq!(hex(&buf), hex(pt), "{ctx}: open_in_place_detached PT");
                assert_eq!(v.map(|p| hex(&p)), Ok(hex(pt)), "{ctx}: open");
            }
            None => {
                assert_eq!(r, Err(Error::AuthenticationFailed), "{ctx}: in place");
                assert!(buf.iter().all(|&b| b == 0), "{ctx}: buffer not zeroed");
                assert_eq!(v, Err(Error::AuthenticationFailed), "{ctx}: open");
            }
        }
    }

    let Some(pt) = &c.pt else {
        return;
    };
    // Seal through the lower-level API, with the record's tag length.
    let mut buf = pt.clone();
    let mut tag = vec![0u8; c.tag.len()];
    assert_eq!(
        g.seal_detached_with_iv(&c.iv, &c.aad, &mut buf, &mut tag),
        Ok(()),
        "{ctx}: seal_detached_with_iv"
    );
    assert_eq!(hex(&buf), hex(&c.ct), "{ctx}: seal_detached_with_iv CT");
    assert_eq!(hex(&tag), hex(&c.tag), "{ctx}: seal_detached_with_iv tag");

    // A tag with its last bit flipped is rejected (every tag length).
    let mut bad = c.tag.clone();
    *bad.last_mut().unwrap() ^= 1;
    let mut buf = c.ct.clone();
    assert_eq!(
        g.open_detached_with_iv(&c.iv, &c.aad, &mut buf, &bad),
        Err(Error::AuthenticationFailed),
        "{ctx}: flipped tag bit accepted"
    );
    assert!(buf.iter().all(|&b| b == 0), "{ctx}: buffer not zeroed");

    if main_api {
        let nonce = nonce.as_ref().unwrap();
        let mut buf = pt.clone();
        let tag = g.seal_in_place_detached(nonce, &c.aad, &mut buf);
        assert_eq!(
            tag.map(|t| hex(&t)),
            Ok(hex(&c.tag)),
            "{ctx}: seal_in_place_detached tag"
        );
        assert_eq!(hex(&buf), hex(&c.ct), "{ctx}: seal_in_place_detached CT");
        let mut want = c.ct.clone();
        want.extend_from_slice(&c.tag);
        assert_eq!(
            g.seal(nonce, &c.aad, pt).map(|v| hex(&v)),
            Ok(hex(&want)),
            "{ctx}: seal"
        );
    }
}

/// Every case against the reference, then on every backend.
fn run<G: Gcm>(cases: &[Case]) {
    for c in cases {
        check_reference(c);
    }
    let mut ran = Vec::new();
    for_each_gcm_backend::<G>(|name, f| {
        for c in cases {
            let g = G::with(f, &c.key);
            assert_eq!(g.backend(), name, "{}", c.at);
            check(name, &g, c);
        }
        ran.push(name);
    });
    eprintln!("{}: {} records on {ran:?}", G::NAME, cases.len());
}

/// `(records, FAIL records)` of `cases`.
fn counts(cases: &[Case]) -> (usize, usize) {
    (cases.len(), cases.iter().filter(|c| c.pt.is_none()).count())
}

fn gcmvs<G: Gcm>(fails: usize) {
    let bits = G::KEY_LEN * 8;
    let enc = read::<G>(&format!("gcm/gcmEncryptExtIV{bits}.rsp"), File::Encrypt);
    assert_eq!(counts(&enc), (7875, 0), "gcmEncryptExtIV{bits}.rsp");
    let dec = read::<G>(&format!("gcm/gcmDecrypt{bits}.rsp"), File::Decrypt);
    assert_eq!(counts(&dec), (7875, fails), "gcmDecrypt{bits}.rsp");
    // Every IV length of the files (8, 96, 1024 bits) and tag length (32..128 bits) occurs.
    for cases in [&enc, &dec] {
        for iv in [1, 12, 128] {
            assert!(cases.iter().any(|c| c.iv.len() == iv), "IV of {iv} bytes");
        }
        for t in [4, 8, 12, 13, 14, 15, 16] {
            assert!(cases.iter().any(|c| c.tag.len() == t), "tag of {t} bytes");
        }
    }
    run::<G>(&enc);
    run::<G>(&dec);
}

#[test]
fn gcmvs_aes128() {
    gcmvs::<Aes128Gcm>(4011);
}

#[test]
fn gcmvs_aes192() {
    gcmvs::<Aes192Gcm>(3978);
}

#[test]
fn gcmvs_aes256() {
    gcmvs::<Aes256Gcm>(3919);
}

fn mcgrew_viega<G: Gcm>() {
    let cases = read::<G>("gcm/mcgrew-viega.txt", File::McGrewViega);
    assert_eq!(cases.len(), 6, "mcgrew-viega.txt: six cases per key size");
    // Cases 1-4 (and their AES-192/256 counterparts) have a 96-bit IV, 5 a 64-bit one and 6 a
    // 480-bit one.
    let iv_lens: Vec<usize> = cases.iter().map(|c| c.iv.len()).collect();
    assert_eq!(iv_lens, [12, 12, 12, 12, 8, 60]);
    run::<G>(&cases);
}

#[test]
fn mcgrew_viega_test_cases() {
    mcgrew_viega::<Aes128Gcm>();
    mcgrew_viega::<Aes192Gcm>();
    mcgrew_viega::<Aes256Gcm>();
}

/// `new` (the best kernels after `SIMDCRYPT_DISABLE`) agrees with `new_with(detect())`, on
/// test case 4 of McGrew–Viega.
#[test]
fn default_constructor_matches_detect() {
    let cases = read::<Aes128Gcm>("gcm/mcgrew-viega.txt", File::McGrewViega);
    let c = &cases[3];
    let g = Aes128Gcm::new_default(&c.key);
    assert_eq!(
        g.backend(),
        Aes128Gcm::backend_for(simdcrypt::cpu::Features::detect())
    );
    check("test case 4", &g, c);
}
