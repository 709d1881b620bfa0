//! Project Wycheproof's test vectors (`vectors/wycheproof/`, see `vectors/README.md`) on every
//! backend the machine has, plus the portable one, for AES-GCM, ChaCha20-Poly1305,
//! XChaCha20-Poly1305, HMAC, HKDF and AES-CBC with PKCS#7 padding.
//!
//! Each file is read by the strict JSON reader (`tests/common/json.rs`): every field of the
//! file, its groups and its cases is either used or named as deliberately ignored, and an
//! unknown field fails the test. Every case ends in one of two counts, the same on every
//! backend, and the counts must add up to the file's `numberOfTests`:
//!
//! - **passed**: the API takes the case's parameters and does what the file says: a `valid`
//!   case gives exactly the file's output (and opens/verifies/decrypts back), an `invalid`
//!   case is rejected with `Err` (a failed AEAD open leaves the buffer all zero).
//! - **refused**: the API does not take the case's parameters, and this is checked, not
//!   assumed: an empty GCM IV is `Err(InvalidLength)` (buffer unchanged on seal, zeroed on
//!   open); a ChaCha20-Poly1305 nonce of another length than 12 bytes (24 for XChaCha) or a
//!   tag of another length than 16 cannot be turned into the `&[u8; N]` the API takes (the
//!   conversion returns `Err`); an HMAC tag shorter than the hash (a truncated-HMAC group) is
//!   refused by `Hmac::verify` with `Err`, and the case's data is still checked: the
//!   truncated `finalize()` equals the tag exactly when the case is `valid`.
//!
//! Wycheproof's third result, `acceptable`, occurs in none of these files; a case with it
//! fails the test, so that a future update of the files makes a choice for it here.
//!
//! Run with `--nocapture` to see the counts per file.

mod common;

use common::gcm::{Gcm, for_each_gcm_backend};
use common::json::{self, Object};
use common::{Cipher, Hash, hex};
use simdcrypt::Error;
use simdcrypt::aead::{Aes128Gcm, Aes192Gcm, Aes256Gcm, ChaCha20Poly1305, XChaCha20Poly1305};
use simdcrypt::aes::{Aes128, Aes192, Aes256, Cbc, pkcs7_pad, pkcs7_unpad};
use simdcrypt::cpu::Features;
use simdcrypt::hkdf::Hkdf;
use simdcrypt::hmac::Hmac;
use simdcrypt::sha::{Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};

/// What a case came to on one backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Passed,
    Refused,
}

/// The result field of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Valid,
    Invalid,
}

fn expect(case: &mut Object) -> Expect {
    match case.take_str("result").as_str() {
        "valid" => Expect::Valid,
        "invalid" => Expect::Invalid,
        r => panic!(
            "{}: result {r:?}: no choice made for it in tests/wycheproof.rs",
            case.at()
        ),
    }
}

/// The counts of one file.
struct Tally {
    file: &'static str,
    /// The case's `tcId`, expectation and outcome (set by the first backend, then checked).
    cases: Vec<(u64, Expect, Option<Outcome>)>,
    /// Backends each case ran on (per primitive, e.g. AES-128-GCM and AES-256-GCM).
    backends: Vec<String>,
    runs: usize,
}

impl Tally {
    fn new(file: &'static str) -> Self {
        Tally {
            file,
            cases: Vec::new(),
            backends: Vec::new(),
            runs: 0,
        }
    }

    /// Adds a case; returns its index.
    fn add(&mut self, tc_id: u64, e: Expect) -> usize {
        self.cases.push((tc_id, e, None));
        self.cases.len() - 1
    }

    /// Records case `i`'s outcome on one backend: the same on every backend.
    fn record(&mut self, i: usize, backend: &str, o: Outcome) {
        self.runs += 1;
        let (id, _, slot) = &mut self.cases[i];
        match slot {
            None => *slot = Some(o),
            Some(prev) => assert_eq!(
                *prev, o,
                "{} tcId {id}: {o:?} on {backend}, {prev:?} on another backend",
                self.file
            ),
        }
    }

    fn ran_on(&mut self, primitive: &str, backend: &str) {
        self.backends.push(format!("{primitive}:{backend}"));
    }

    /// Checks the totals against the file's `numberOfTests` and prints the counts.
    fn report(self, number_of_tests: usize) {
        let n = self.cases.len();
        assert_eq!(n, number_of_tests, "{}: numberOfTests", self.file);
        let mut passed = [0usize; 2];
        let mut refused = [0usize; 2];
        for (id, e, o) in &self.cases {
            let k = (*e == Expect::Invalid) as usize;
            match o {
                Some(Outcome::Passed) => passed[k] += 1,
                Some(Outcome::Refused) => refused[k] += 1,
                None => panic!("{} tcId {id}: ran on no backend", self.file),
            }
        }
        let (p, r) = (passed[0] + passed[1], refused[0] + refused[1]);
        assert_eq!(p + r, n, "{}: counts do not add up", self.file);
        assert!(p > 0, "{}: no case passed", self.file);
        println!(
            "{}: {n} cases = {p} passed ({} valid, {} invalid) + {r} refused ({} valid, {} invalid); \
             {} case runs on {} backends: {}",
            self.file,
            passed[0],
            passed[1],
            refused[0],
            refused[1],
            self.runs,
            self.backends.len(),
            self.backends.join(", ")
        );
    }
}

/// The file header: checks the fields every Wycheproof file has, returns `numberOfTests` and
/// the groups. `schema` must be `schema` (the reader knows that schema's fields only).
fn header(top: &mut Object, algorithm: &str, schema: &str) -> (usize, Vec<json::Value>) {
    assert_eq!(top.take_str("algorithm"), algorithm, "{}", top.at());
    assert_eq!(top.take_str("schema"), schema, "{}", top.at());
    let n = top.take_usize("numberOfTests");
    top.skip("header");
    top.skip("notes");
    (n, top.take_array("testGroups"))
}

/// The fields every case has besides its data: `tcId` (returned), `comment`, `flags`.
fn case_id(case: &mut Object) -> u64 {
    let id = case.take_u64("tcId");
    case.skip("comment");
    case.take_str_array("flags");
    id
}

// ---------------------------------------------------------------------------------------------
// AEADs

struct AeadCase {
    i: usize,
    id: u64,
    key: Vec<u8>,
    iv: Vec<u8>,
    aad: Vec<u8>,
    msg: Vec<u8>,
    ct: Vec<u8>,
    tag: Vec<u8>,
    expect: Expect,
}

/// Reads an `aead_test_schema_v1.json` file; checks each group's sizes against its cases.
fn read_aead(file: &'static str, algorithm: &str, tally: &mut Tally) -> (usize, Vec<AeadCase>) {
    let mut top = json::read(file);
    let (n, groups) = header(&mut top, algorithm, "aead_test_schema_v1.json");
    top.finish();
    let mut cases = Vec::new();
    for g in groups {
        let mut g = g.into_object(file);
        assert_eq!(g.take_str("type"), "AeadTest", "{}", g.at());
        g.skip("source");
        let key_bits = g.take_usize("keySize");
        let iv_bits = g.take_usize("ivSize");
        let tag_bits = g.take_usize("tagSize");
        let at = g.at().to_string();
        for c in g.take_array("tests") {
            let mut c = c.into_object(&at);
            let id = case_id(&mut c);
            let key = c.take_hex("key");
            let iv = c.take_hex("iv");
            let aad = c.take_hex("aad");
            let msg = c.take_hex("msg");
            let ct = c.take_hex("ct");
            let tag = c.take_hex("tag");
            let e = expect(&mut c);
            assert_eq!(key.len() * 8, key_bits, "{}: keySize", c.at());
            assert_eq!(iv.len() * 8, iv_bits, "{}: ivSize", c.at());
            // Cases with a bad nonce carry an empty tag whatever the group's tagSize says.
            assert!(
                tag.len() * 8 == tag_bits || (tag.is_empty() && e == Expect::Invalid),
                "{}: tagSize",
                c.at()
            );
            c.finish();
            let i = tally.add(id, e);
            cases.push(AeadCase {
                i,
                id,
                key,
                iv,
                aad,
                msg,
                ct,
                tag,
                expect: e,
            });
        }
        g.finish();
    }
    (n, cases)
}

/// Seals and opens one case through the 16-byte-tag API of an AEAD, given as closures over
/// the case's nonce (already the right length): `seal(aad, buf) -> tag`,
/// `open(aad, buf, tag) -> Result`.
fn aead_case(
    file: &str,
    backend: &str,
    c: &AeadCase,
    tag: &[u8; 16],
    seal: impl Fn(&[u8], &mut [u8]) -> Result<[u8; 16], Error>,
    open: impl Fn(&[u8], &mut [u8], &[u8; 16]) -> Result<(), Error>,
) {
    let id = c.id;
    let mut buf = c.ct.clone();
    let opened = open(&c.aad, &mut buf, tag);
    match c.expect {
        Expect::Valid => {
            assert_eq!(opened, Ok(()), "{file} tcId {id} on {backend}: open");
            assert_eq!(hex(&buf), hex(&c.msg), "{file} tcId {id} on {backend}: msg");
            let mut buf = c.msg.clone();
            let t = seal(&c.aad, &mut buf).unwrap_or_else(|e| {
                panic!("{file} tcId {id} on {backend}: seal: {e:?}");
            });
            assert_eq!(hex(&buf), hex(&c.ct), "{file} tcId {id} on {backend}: ct");
            assert_eq!(hex(&t), hex(tag), "{file} tcId {id} on {backend}: tag");
        }
        Expect::Invalid => {
            assert_eq!(
                opened,
                Err(Error::AuthenticationFailed),
                "{file} tcId {id} on {backend}: open of an invalid case"
            );
            assert!(
                buf.iter().all(|&b| b == 0),
                "{file} tcId {id} on {backend}: buffer not zeroed after a failed open"
            );
        }
    }
}

fn gcm_group<G: Gcm>(file: &'static str, cases: &[AeadCase], tally: &mut Tally) {
    let mine: Vec<&AeadCase> = cases.iter().filter(|c| c.key.len() == G::KEY_LEN).collect();
    for_each_gcm_backend::<G>(|backend, features| {
        tally.ran_on(G::NAME, backend);
        for c in &mine {
            let g = G::with(features, &c.key);
            let outcome = if c.iv.is_empty() {
                // SP 800-38D §5.2.1.1: the IV is 1 to 2^64 − 1 bits; an empty one is refused.
                let mut buf = c.msg.clone();
                let mut tag = [0u8; 16];
                assert_eq!(
                    g.seal_detached_with_iv(&c.iv, &c.aad, &mut buf, &mut tag),
                    Err(Error::InvalidLength),
                    "{file} tcId {} on {backend}: seal with an empty IV",
                    c.id
                );
                assert_eq!(buf, c.msg, "{file} tcId {}: buffer changed", c.id);
                let mut buf = c.ct.clone();
                let tag: [u8; 16] = c.tag.as_slice().try_into().unwrap();
                assert_eq!(
                    g.open_detached_with_iv(&c.iv, &c.aad, &mut buf, &tag),
                    Err(Error::InvalidLength),
                    "{file} tcId {} on {backend}: open with an empty IV",
                    c.id
                );
                assert!(buf.iter().all(|&b| b == 0), "{file} tcId {}", c.id);
                Outcome::Refused
            } else {
                let tag: [u8; 16] = c.tag.as_slice().try_into().unwrap_or_else(|_| {
                    panic!("{file} tcId {}: a {}-byte GCM tag", c.id, c.tag.len())
                });
                aead_case(
                    file,
                    backend,
                    c,
                    &tag,
                    |aad, buf| {
                        let mut t = [0u8; 16];
                        g.seal_detached_with_iv(&c.iv, aad, buf, &mut t)?;
                        Ok(t)
                    },
                    |aad, buf, t| g.open_detached_with_iv(&c.iv, aad, buf, t),
                );
                // The 96-bit nonce API must agree with the IV API.
                if let Ok(nonce) = <&[u8; 12]>::try_from(c.iv.as_slice()) {
                    aead_case(
                        file,
                        backend,
                        c,
                        &tag,
                        |aad, buf| g.seal_in_place_detached(nonce, aad, buf),
                        |aad, buf, t| g.open_in_place_detached(nonce, aad, buf, t),
                    );
                }
                Outcome::Passed
            };
            tally.record(c.i, backend, outcome);
        }
    });
}

#[test]
fn aes_gcm() {
    let file = "wycheproof/aes_gcm_test.json";
    let mut tally = Tally::new(file);
    let (n, cases) = read_aead(file, "AES-GCM", &mut tally);
    for c in &cases {
        assert!(
            matches!(c.key.len(), 16 | 24 | 32),
            "{file} tcId {}: key size",
            c.id
        );
    }
    gcm_group::<Aes128Gcm>(file, &cases, &mut tally);
    gcm_group::<Aes192Gcm>(file, &cases, &mut tally);
    gcm_group::<Aes256Gcm>(file, &cases, &mut tally);
    tally.report(n);
}

/// A ChaCha20-Poly1305 construction with a nonce of `NONCE` bytes.
trait ChaChaAead<const NONCE: usize>: Sized {
    const NAME: &'static str;
    fn with(features: Features, key: &[u8; 32]) -> Self;
    fn seal(&self, n: &[u8; NONCE], aad: &[u8], buf: &mut [u8]) -> Result<[u8; 16], Error>;
    fn open(&self, n: &[u8; NONCE], aad: &[u8], buf: &mut [u8], t: &[u8; 16]) -> Result<(), Error>;
    fn for_each_backend(f: impl FnMut(&'static str, Features));
}

impl ChaChaAead<12> for ChaCha20Poly1305 {
    const NAME: &'static str = "chacha20-poly1305";
    fn with(features: Features, key: &[u8; 32]) -> Self {
        ChaCha20Poly1305::new_with(features, key)
    }
    fn seal(&self, n: &[u8; 12], aad: &[u8], buf: &mut [u8]) -> Result<[u8; 16], Error> {
        self.seal_in_place_detached(n, aad, buf)
    }
    fn open(&self, n: &[u8; 12], aad: &[u8], buf: &mut [u8], t: &[u8; 16]) -> Result<(), Error> {
        self.open_in_place_detached(n, aad, buf, t)
    }
    fn for_each_backend(f: impl FnMut(&'static str, Features)) {
        common::chacha::for_each_chacha20_poly1305_backend(f)
    }
}

impl ChaChaAead<24> for XChaCha20Poly1305 {
    const NAME: &'static str = "xchacha20-poly1305";
    fn with(features: Features, key: &[u8; 32]) -> Self {
        XChaCha20Poly1305::new_with(features, key)
    }
    fn seal(&self, n: &[u8; 24], aad: &[u8], buf: &mut [u8]) -> Result<[u8; 16], Error> {
        self.seal_in_place_detached(n, aad, buf)
    }
    fn open(&self, n: &[u8; 24], aad: &[u8], buf: &mut [u8], t: &[u8; 16]) -> Result<(), Error> {
        self.open_in_place_detached(n, aad, buf, t)
    }
    fn for_each_backend(f: impl FnMut(&'static str, Features)) {
        common::chacha::for_each_xchacha20_poly1305_backend(f)
    }
}

fn chacha_file<A: ChaChaAead<NONCE>, const NONCE: usize>(file: &'static str, algorithm: &str) {
    let mut tally = Tally::new(file);
    let (n, cases) = read_aead(file, algorithm, &mut tally);
    A::for_each_backend(|backend, features| {
        tally.ran_on(A::NAME, backend);
        for c in &cases {
            let key: &[u8; 32] = c
                .key
                .as_slice()
                .try_into()
                .unwrap_or_else(|_| panic!("{file} tcId {}: a {}-byte key", c.id, c.key.len()));
            let nonce = <&[u8; NONCE]>::try_from(c.iv.as_slice());
            let tag = <&[u8; 16]>::try_from(c.tag.as_slice());
            let outcome = match (nonce, tag) {
                (Ok(nonce), Ok(tag)) => {
                    let a = A::with(features, key);
                    aead_case(
                        file,
                        backend,
                        c,
                        tag,
                        |aad, buf| a.seal(nonce, aad, buf),
                        |aad, buf, t| a.open(nonce, aad, buf, t),
                    );
                    Outcome::Passed
                }
                // The API's types take only NONCE-byte nonces and 16-byte tags: the
                // conversion a caller must make returned Err (checked by the match).
                _ => Outcome::Refused,
            };
            tally.record(c.i, backend, outcome);
        }
    });
    tally.report(n);
}

#[test]
fn chacha20_poly1305() {
    chacha_file::<ChaCha20Poly1305, 12>(
        "wycheproof/chacha20_poly1305_test.json",
        "CHACHA20-POLY1305",
    );
}

#[test]
fn xchacha20_poly1305() {
    chacha_file::<XChaCha20Poly1305, 24>(
        "wycheproof/xchacha20_poly1305_test.json",
        "XCHACHA20-POLY1305",
    );
}

// ---------------------------------------------------------------------------------------------
// HMAC

fn hmac_file<H: Hash>(file: &'static str, algorithm: &str) {
    let mut tally = Tally::new(file);
    let mut top = json::read(file);
    let (n, groups) = header(&mut top, algorithm, "mac_test_schema_v1.json");
    top.finish();
    struct Case {
        i: usize,
        id: u64,
        key: Vec<u8>,
        msg: Vec<u8>,
        tag: Vec<u8>,
        expect: Expect,
    }
    let mut cases = Vec::new();
    for g in groups {
        let mut g = g.into_object(file);
        assert_eq!(g.take_str("type"), "MacTest", "{}", g.at());
        g.skip("source");
        let key_bits = g.take_usize("keySize");
        let tag_bits = g.take_usize("tagSize");
        let at = g.at().to_string();
        for c in g.take_array("tests") {
            let mut c = c.into_object(&at);
            let id = case_id(&mut c);
            let key = c.take_hex("key");
            let msg = c.take_hex("msg");
            let tag = c.take_hex("tag");
            let e = expect(&mut c);
            assert_eq!(key.len() * 8, key_bits, "{}: keySize", c.at());
            assert_eq!(tag.len() * 8, tag_bits, "{}: tagSize", c.at());
            c.finish();
            let i = tally.add(id, e);
            cases.push(Case {
                i,
                id,
                key,
                msg,
                tag,
                expect: e,
            });
        }
        g.finish();
    }
    common::for_each_backend::<H>(|backend, features| {
        tally.ran_on(H::NAME, backend);
        for c in &cases {
            let id = c.id;
            let mut m = Hmac::<H>::new_with(&c.key, features);
            // Two updates, split in the middle: the streaming path.
            let (a, b) = c.msg.split_at(c.msg.len() / 2);
            m.update(a);
            m.update(b);
            let full = m.clone().finalize();
            let full = full.as_ref();
            let verified = m.verify(&c.tag);
            let matches = full[..c.tag.len()] == c.tag[..];
            assert_eq!(
                matches,
                c.expect == Expect::Valid,
                "{file} tcId {id} on {backend}: tag {} (computed {})",
                hex(&c.tag),
                hex(full)
            );
            let outcome = if c.tag.len() == H::OUTPUT_LEN {
                match c.expect {
                    Expect::Valid => assert_eq!(verified, Ok(()), "{file} tcId {id}: verify"),
                    Expect::Invalid => assert_eq!(
                        verified,
                        Err(Error::AuthenticationFailed),
                        "{file} tcId {id}: verify"
                    ),
                }
                Outcome::Passed
            } else {
                // Truncated HMAC: `verify` takes only the full tag length.
                assert_eq!(
                    verified,
                    Err(Error::AuthenticationFailed),
                    "{file} tcId {id}: verify of a {}-byte tag",
                    c.tag.len()
                );
                Outcome::Refused
            };
            tally.record(c.i, backend, outcome);
        }
    });
    tally.report(n);
}

#[test]
fn hmac() {
    hmac_file::<Sha1>("wycheproof/hmac_sha1_test.json", "HMACSHA1");
    hmac_file::<Sha224>("wycheproof/hmac_sha224_test.json", "HMACSHA224");
    hmac_file::<Sha256>("wycheproof/hmac_sha256_test.json", "HMACSHA256");
    hmac_file::<Sha384>("wycheproof/hmac_sha384_test.json", "HMACSHA384");
    hmac_file::<Sha512>("wycheproof/hmac_sha512_test.json", "HMACSHA512");
    hmac_file::<Sha512_224>("wycheproof/hmac_sha512_224_test.json", "HMACSHA512/224");
    hmac_file::<Sha512_256>("wycheproof/hmac_sha512_256_test.json", "HMACSHA512/256");
}

// ---------------------------------------------------------------------------------------------
// HKDF

fn hkdf_file<H: Hash>(file: &'static str, algorithm: &str) {
    let mut tally = Tally::new(file);
    let mut top = json::read(file);
    let (n, groups) = header(&mut top, algorithm, "hkdf_test_schema_v1.json");
    top.finish();
    struct Case {
        i: usize,
        id: u64,
        ikm: Vec<u8>,
        salt: Vec<u8>,
        info: Vec<u8>,
        size: usize,
        okm: Vec<u8>,
        expect: Expect,
    }
    let mut cases = Vec::new();
    for g in groups {
        let mut g = g.into_object(file);
        assert_eq!(g.take_str("type"), "HkdfTest", "{}", g.at());
        g.skip("source");
        let key_bits = g.take_usize("keySize");
        let at = g.at().to_string();
        for c in g.take_array("tests") {
            let mut c = c.into_object(&at);
            let id = case_id(&mut c);
            let ikm = c.take_hex("ikm");
            let salt = c.take_hex("salt");
            let info = c.take_hex("info");
            let size = c.take_usize("size");
            let okm = c.take_hex("okm");
            let e = expect(&mut c);
            assert_eq!(ikm.len() * 8, key_bits, "{}: keySize", c.at());
            if e == Expect::Valid {
                assert_eq!(okm.len(), size, "{}: size", c.at());
            }
            c.finish();
            let i = tally.add(id, e);
            cases.push(Case {
                i,
                id,
                ikm,
                salt,
                info,
                size,
                okm,
                expect: e,
            });
        }
        g.finish();
    }
    common::for_each_backend::<H>(|backend, features| {
        tally.ran_on(H::NAME, backend);
        for c in &cases {
            let id = c.id;
            let mut out = vec![0u8; c.size];
            let r = Hkdf::<H>::new_with(&c.salt, &c.ikm, features).expand(&c.info, &mut out);
            match c.expect {
                Expect::Valid => {
                    assert_eq!(r, Ok(()), "{file} tcId {id} on {backend}");
                    assert_eq!(hex(&out), hex(&c.okm), "{file} tcId {id} on {backend}: okm");
                }
                Expect::Invalid => {
                    // The invalid cases ask for more than 255 hash lengths (RFC 5869 §2.3).
                    assert!(
                        c.size > 255 * H::OUTPUT_LEN,
                        "{file} tcId {id}: why invalid?"
                    );
                    assert_eq!(
                        r,
                        Err(Error::InvalidLength),
                        "{file} tcId {id} on {backend}"
                    );
                }
            }
            tally.record(c.i, backend, Outcome::Passed);
        }
    });
    tally.report(n);
}

#[test]
fn hkdf() {
    hkdf_file::<Sha1>("wycheproof/hkdf_sha1_test.json", "HKDF-SHA-1");
    hkdf_file::<Sha256>("wycheproof/hkdf_sha256_test.json", "HKDF-SHA-256");
    hkdf_file::<Sha384>("wycheproof/hkdf_sha384_test.json", "HKDF-SHA-384");
    hkdf_file::<Sha512>("wycheproof/hkdf_sha512_test.json", "HKDF-SHA-512");
}

// ---------------------------------------------------------------------------------------------
// AES-CBC with PKCS#7 padding

struct CbcCase {
    i: usize,
    id: u64,
    key: Vec<u8>,
    iv: [u8; 16],
    msg: Vec<u8>,
    ct: Vec<u8>,
    expect: Expect,
}

fn cbc_key_size<C: Cipher>(file: &str, cases: &[CbcCase], tally: &mut Tally) {
    let mine: Vec<&CbcCase> = cases.iter().filter(|c| c.key.len() == C::KEY_LEN).collect();
    common::for_each_cipher_backend::<C>(|backend, features| {
        tally.ran_on(C::NAME, backend);
        for c in &mine {
            let id = c.id;
            // Decrypt, then unpad.
            let mut buf = c.ct.clone();
            let dec = Cbc::new(C::with(features, &c.key), &c.iv).decrypt(&mut buf);
            let unpadded = dec.and_then(|()| pkcs7_unpad(&buf).map(<[u8]>::to_vec));
            match c.expect {
                Expect::Valid => {
                    let pt = unpadded.unwrap_or_else(|e| {
                        panic!("{file} tcId {id} on {backend}: decrypt: {e:?}")
                    });
                    assert_eq!(hex(&pt), hex(&c.msg), "{file} tcId {id} on {backend}");
                    // Pad, then encrypt.
                    let mut buf = c.msg.clone();
                    buf.resize(c.msg.len() + 16, 0);
                    let padded = pkcs7_pad(&mut buf, c.msg.len()).unwrap();
                    Cbc::new(C::with(features, &c.key), &c.iv)
                        .encrypt(padded)
                        .unwrap();
                    assert_eq!(hex(padded), hex(&c.ct), "{file} tcId {id} on {backend}: ct");
                }
                Expect::Invalid => {
                    let e = unpadded.expect_err("an invalid case decrypted");
                    assert!(
                        matches!(e, Error::BadPadding | Error::InvalidLength),
                        "{file} tcId {id} on {backend}: {e:?}"
                    );
                }
            }
            tally.record(c.i, backend, Outcome::Passed);
        }
    });
}

#[test]
fn aes_cbc_pkcs5() {
    let file = "wycheproof/aes_cbc_pkcs5_test.json";
    let mut tally = Tally::new(file);
    let mut top = json::read(file);
    let (n, groups) = header(&mut top, "AES-CBC-PKCS5", "ind_cpa_test_schema_v1.json");
    top.finish();
    let mut cases = Vec::new();
    for g in groups {
        let mut g = g.into_object(file);
        assert_eq!(g.take_str("type"), "IndCpaTest", "{}", g.at());
        g.skip("source");
        let key_bits = g.take_usize("keySize");
        let iv_bits = g.take_usize("ivSize");
        let at = g.at().to_string();
        for c in g.take_array("tests") {
            let mut c = c.into_object(&at);
            let id = case_id(&mut c);
            let key = c.take_hex("key");
            let iv = c.take_hex("iv");
            let msg = c.take_hex("msg");
            let ct = c.take_hex("ct");
            let e = expect(&mut c);
            assert_eq!(key.len() * 8, key_bits, "{}: keySize", c.at());
            assert_eq!(iv.len() * 8, iv_bits, "{}: ivSize", c.at());
            assert!(matches!(key.len(), 16 | 24 | 32), "{}: key", c.at());
            let iv: [u8; 16] = iv
                .try_into()
                .unwrap_or_else(|_| panic!("{}: a CBC IV is one block", c.at()));
            c.finish();
            let i = tally.add(id, e);
            cases.push(CbcCase {
                i,
                id,
                key,
                iv,
                msg,
                ct,
                expect: e,
            });
        }
        g.finish();
    }
    cbc_key_size::<Aes128>(file, &cases, &mut tally);
    cbc_key_size::<Aes192>(file, &cases, &mut tally);
    cbc_key_size::<Aes256>(file, &cases, &mut tally);
    tally.report(n);
}

// ---------------------------------------------------------------------------------------------
// The reader itself

#[test]
fn json_reader_is_strict() {
    fn bad(text: &str) -> String {
        json::parse("t.json", text.as_bytes()).expect_err(text)
    }
    assert!(bad("{\"a\": 1,}").contains("t.json:1"));
    assert!(bad("{\"a\": 1, \"a\": 2}").contains("duplicate key"));
    assert!(bad("{\"a\": 01}").contains("leading zero"));
    assert!(bad("{\"a\": \"x\ny\"}").contains("control character"));
    assert!(bad("{\"a\": \"\\ud800\"}").contains("surrogate"));
    assert!(bad("{\"a\": 'x'}").contains("expected a value"));
    assert!(bad("{} {}").contains("after the top-level value"));
    assert!(bad("{\n\"a\": tru}").contains("t.json:2"));
    let v = json::parse(
        "t.json",
        b"{\"s\": \"\\u00e9\\ud83d\\ude00\\n\", \"n\": [0, -1.5e3]}",
    )
    .unwrap();
    let mut o = v.into_object("t");
    assert_eq!(o.take_str("s"), "\u{e9}\u{1f600}\n");
    assert_eq!(o.take_array("n").len(), 2);
    o.finish();
    // A field left over is an error, naming it.
    let mut o = json::parse("t.json", b"{\"a\": \"00\", \"extra\": 1}")
        .unwrap()
        .into_object("t");
    assert_eq!(o.take_hex("a"), [0]);
    let msg = o.check_finished().expect_err("finish");
    assert_eq!(msg, "t.json:1: unknown fields [\"extra\"]");
}
