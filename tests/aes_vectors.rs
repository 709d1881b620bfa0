//! AES vector suites on every backend the machine has (house rule 7), for all three key sizes:
//!
//! - NIST CAVP AESAVS known-answer tests (GFSbox, KeySbox, VarKey, VarTxt; AESAVS §6.2) and
//!   Multi-block Message Tests (§6.3) for ECB (through `encrypt_blocks`/`decrypt_blocks` and
//!   the one-block calls) and CBC (through [`Cbc`], in one call and block by block);
//! - the AESAVS Monte Carlo Test (§6.4) for CBC against NIST's published `CBCMCT*.rsp`, and
//!   for ECB against an independent implementation (RustCrypto's `aes` crate: the NIST ECB
//!   MCT files are in neither vector package, see `vectors/README.md`);
//! - SP 800-38A appendix F.1, F.2 and F.5 (ECB, CBC, CTR) and RFC 3686 §6 (CTR) through
//!   [`Ctr`], in one call and streamed in uneven pieces;
//! - the IGE vectors of Ben Laurie's write-up (OpenSSL's `test/igetest.c`) through [`Ige`].
//!
//! Every record is checked in both directions (AES and each mode are permutations of whole
//! blocks), whatever its file's `[ENCRYPT]`/`[DECRYPT]` section says.

mod common;

use common::vectors::{self, Record};
use common::{Cipher, check_coverage, expected_backends, for_each_cipher_backend, hex};
use simdcrypt::aes::{Aes128, Aes192, Aes256, Cbc, Ctr, Ige};
use simdcrypt::cpu::Features;

/// One record of a KAT/MMT/CTR/IGE file.
struct Case {
    at: String,
    key: Vec<u8>,
    /// Empty for ECB.
    iv: Vec<u8>,
    pt: Vec<u8>,
    ct: Vec<u8>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Ecb,
    Cbc,
    Ctr,
    Ige,
}

impl Mode {
    fn iv_len(self) -> usize {
        match self {
            Mode::Ecb => 0,
            Mode::Cbc | Mode::Ctr => 16,
            Mode::Ige => 32,
        }
    }
}

/// The fields every record has: `COUNT` (checked to run 0, 1, 2, ... within a section),
/// `KEY`, `IV` (except ECB), `PLAINTEXT`, `CIPHERTEXT`.
fn take_case<C: Cipher>(r: &mut Record, mode: Mode, count: usize) -> Case {
    assert_eq!(
        r.take_usize("COUNT"),
        count,
        "{}: COUNT out of order",
        r.at()
    );
    let key = r.take_hex("KEY");
    let iv = if mode == Mode::Ecb {
        Vec::new()
    } else {
        r.take_hex("IV")
    };
    let pt = r.take_hex("PLAINTEXT");
    let ct = r.take_hex("CIPHERTEXT");
    assert_eq!(key.len(), C::KEY_LEN, "{}: key length", r.at());
    assert_eq!(iv.len(), mode.iv_len(), "{}: IV length", r.at());
    assert_eq!(
        pt.len(),
        ct.len(),
        "{}: plaintext/ciphertext lengths",
        r.at()
    );
    assert!(!pt.is_empty(), "{}: empty message", r.at());
    if mode != Mode::Ctr {
        assert_eq!(pt.len() % 16, 0, "{}: not whole blocks", r.at());
    }
    Case {
        at: r.at().to_string(),
        key,
        iv,
        pt,
        ct,
    }
}

/// Reads a CAVP AESAVS file (`[ENCRYPT]` records, then `[DECRYPT]` records), or an RFC 3686
/// file (`[ENCRYPT]` only): `(encrypt, decrypt)` record counts are checked.
fn cavp_cases<C: Cipher>(file: &str, mode: Mode, counts: (usize, usize)) -> Vec<Case> {
    let v = vectors::read(file);
    assert_eq!(v.len(), counts.0 + counts.1, "{}: record count", v.name());
    let mut seen = (0, 0);
    let mut out = Vec::new();
    for mut r in v {
        let enc = r.section_flag("ENCRYPT");
        let dec = r.section_flag("DECRYPT");
        assert!(
            enc != dec,
            "{}: not in one [ENCRYPT]/[DECRYPT] section",
            r.at()
        );
        let n = if enc { &mut seen.0 } else { &mut seen.1 };
        out.push(take_case::<C>(&mut r, mode, *n));
        *n += 1;
        r.finish();
    }
    assert_eq!(seen, counts, "{file}: [ENCRYPT]/[DECRYPT] record counts");
    out
}

/// The record of `vectors/aes/sp800-38a.txt` for `mode` and the key size of `C`. The file has
/// one record per mode (section `[MODE = ...]`) and key size, in the order of appendix F:
/// F.1.1/3/5 (ECB), F.2.1/3/5 (CBC), F.5.1/3/5 (CTR), each four blocks long.
fn sp800_38a_cases<C: Cipher>(mode: Mode) -> Vec<Case> {
    let v = vectors::read("aes/sp800-38a.txt");
    assert_eq!(v.len(), 9, "{}: record count", v.name());
    let mut out = Vec::new();
    let mut per_mode = Vec::<(Mode, usize)>::new();
    for mut r in v {
        let this = match r.section("MODE").as_str() {
            "ECB" => Mode::Ecb,
            "CBC" => Mode::Cbc,
            "CTR" => Mode::Ctr,
            other => panic!("{}: unknown [MODE = {other}]", r.at()),
        };
        let count = match per_mode.iter_mut().find(|(m, _)| *m == this) {
            Some((_, n)) => {
                *n += 1;
                *n - 1
            }
            None => {
                per_mode.push((this, 1));
                0
            }
        };
        // Every record is parsed and checked; only the one of this mode and key size is kept.
        let key_len = [16, 24, 32][count];
        let c = match key_len {
            16 => take_case::<Aes128>(&mut r, this, count),
            24 => take_case::<Aes192>(&mut r, this, count),
            _ => take_case::<Aes256>(&mut r, this, count),
        };
        r.finish();
        assert_eq!(c.pt.len(), 64, "{}: every example has four blocks", c.at);
        if this == mode && key_len == C::KEY_LEN {
            out.push(c);
        }
    }
    assert_eq!(
        per_mode,
        [(Mode::Ecb, 3), (Mode::Cbc, 3), (Mode::Ctr, 3)],
        "sp800-38a.txt: sections"
    );
    assert_eq!(out.len(), 1);
    out
}

fn blocks(b: &[u8]) -> Vec<[u8; 16]> {
    b.chunks_exact(16).map(|c| c.try_into().unwrap()).collect()
}

fn flat(b: &[[u8; 16]]) -> Vec<u8> {
    b.as_flattened().to_vec()
}

fn iv16(iv: &[u8]) -> [u8; 16] {
    iv.try_into().unwrap()
}

fn iv32(iv: &[u8]) -> [u8; 32] {
    iv.try_into().unwrap()
}

/// ECB both ways: all blocks in one call, and each block alone through the one-block calls.
fn check_ecb<C: Cipher>(name: &str, f: Features, c: &Case) {
    let aes = C::with(f, &c.key);
    assert_eq!(aes.backend(), name);
    let mut b = blocks(&c.pt);
    aes.encrypt_blocks(&mut b);
    assert_eq!(
        hex(&flat(&b)),
        hex(&c.ct),
        "{} on {name}: encrypt_blocks",
        c.at
    );
    aes.decrypt_blocks(&mut b);
    assert_eq!(
        hex(&flat(&b)),
        hex(&c.pt),
        "{} on {name}: decrypt_blocks",
        c.at
    );
    for (i, (p, x)) in blocks(&c.pt).iter().zip(blocks(&c.ct)).enumerate() {
        let mut one = *p;
        aes.encrypt_block(&mut one);
        assert_eq!(one, x, "{} on {name}: encrypt_block {i}", c.at);
        aes.decrypt_block(&mut one);
        assert_eq!(&one, p, "{} on {name}: decrypt_block {i}", c.at);
    }
}

/// CBC both ways, in one call and block by block (the chaining value carries over).
fn check_cbc<C: Cipher>(name: &str, f: Features, c: &Case) {
    let iv = iv16(&c.iv);
    let mut buf = c.pt.clone();
    let mut enc = Cbc::new(C::with(f, &c.key), &iv);
    enc.encrypt(&mut buf).unwrap();
    assert_eq!(hex(&buf), hex(&c.ct), "{} on {name}: CBC encrypt", c.at);
    assert_eq!(
        enc.iv()[..],
        c.ct[c.ct.len() - 16..],
        "{}: chaining value",
        c.at
    );
    let mut dec = Cbc::new(C::with(f, &c.key), &iv);
    dec.decrypt(&mut buf).unwrap();
    assert_eq!(hex(&buf), hex(&c.pt), "{} on {name}: CBC decrypt", c.at);

    let mut enc = Cbc::new(C::with(f, &c.key), &iv);
    let mut dec = Cbc::new(C::with(f, &c.key), &iv);
    let mut buf = c.pt.clone();
    for block in buf.chunks_exact_mut(16) {
        enc.encrypt(block).unwrap();
    }
    assert_eq!(
        hex(&buf),
        hex(&c.ct),
        "{} on {name}: CBC encrypt by block",
        c.at
    );
    for block in buf.chunks_exact_mut(16) {
        dec.decrypt(block).unwrap();
    }
    assert_eq!(
        hex(&buf),
        hex(&c.pt),
        "{} on {name}: CBC decrypt by block",
        c.at
    );
}

/// CTR both ways (the same operation): in one call, and streamed in pieces of 1, 2, 3, ...
/// bytes so that calls start and end inside blocks.
fn check_ctr<C: Cipher>(name: &str, f: Features, c: &Case) {
    let iv = iv16(&c.iv);
    for (from, to, dir) in [(&c.pt, &c.ct, "encrypt"), (&c.ct, &c.pt, "decrypt")] {
        let mut buf = from.clone();
        Ctr::new(C::with(f, &c.key), &iv)
            .apply_keystream(&mut buf)
            .unwrap();
        assert_eq!(hex(&buf), hex(to), "{} on {name}: CTR {dir}", c.at);

        let mut buf = from.clone();
        let mut ctr = Ctr::new(C::with(f, &c.key), &iv);
        let mut rest = &mut buf[..];
        let mut step = 1;
        while !rest.is_empty() {
            let n = step.min(rest.len());
            let (now, later) = rest.split_at_mut(n);
            ctr.apply_keystream(now).unwrap();
            rest = later;
            step += 1;
        }
        assert_eq!(
            hex(&buf),
            hex(to),
            "{} on {name}: CTR {dir}, streamed",
            c.at
        );
        // The counter has moved by the number of blocks used (public: the IV plus blocks).
        let used = from.len().div_ceil(16) as u128;
        let want = u128::from_be_bytes(iv).wrapping_add(used).to_be_bytes();
        assert_eq!(
            ctr.counter(),
            want,
            "{} on {name}: counter after {dir}",
            c.at
        );
    }
}

/// IGE both ways, in one call and block by block.
fn check_ige<C: Cipher>(name: &str, f: Features, c: &Case) {
    let iv = iv32(&c.iv);
    let mut buf = c.pt.clone();
    Ige::new(C::with(f, &c.key), &iv).encrypt(&mut buf).unwrap();
    assert_eq!(hex(&buf), hex(&c.ct), "{} on {name}: IGE encrypt", c.at);
    Ige::new(C::with(f, &c.key), &iv).decrypt(&mut buf).unwrap();
    assert_eq!(hex(&buf), hex(&c.pt), "{} on {name}: IGE decrypt", c.at);

    let mut enc = Ige::new(C::with(f, &c.key), &iv);
    let mut dec = Ige::new(C::with(f, &c.key), &iv);
    let mut buf = c.pt.clone();
    for block in buf.chunks_exact_mut(16) {
        enc.encrypt(block).unwrap();
    }
    assert_eq!(
        hex(&buf),
        hex(&c.ct),
        "{} on {name}: IGE encrypt by block",
        c.at
    );
    for block in buf.chunks_exact_mut(16) {
        dec.decrypt(block).unwrap();
    }
    assert_eq!(
        hex(&buf),
        hex(&c.pt),
        "{} on {name}: IGE decrypt by block",
        c.at
    );
}

fn check<C: Cipher>(mode: Mode, name: &str, f: Features, c: &Case) {
    match mode {
        Mode::Ecb => check_ecb::<C>(name, f, c),
        Mode::Cbc => check_cbc::<C>(name, f, c),
        Mode::Ctr => check_ctr::<C>(name, f, c),
        Mode::Ige => check_ige::<C>(name, f, c),
    }
}

fn run<C: Cipher>(mode: Mode, cases: &[Case]) {
    for_each_cipher_backend::<C>(|name, f| {
        for c in cases {
            check::<C>(mode, name, f, c);
        }
    });
}

/// The AESAVS KAT and MMT files of one mode and key size: `(encrypt, decrypt)` record counts
/// per file, in the order GFSbox, KeySbox, VarKey, VarTxt, MMT.
fn kat_mmt<C: Cipher>(mode: Mode, counts: [(usize, usize); 5]) {
    let m = match mode {
        Mode::Ecb => "ECB",
        Mode::Cbc => "CBC",
        _ => unreachable!(),
    };
    let bits = C::KEY_LEN * 8;
    let mut cases = Vec::new();
    for (kind, n) in ["GFSbox", "KeySbox", "VarKey", "VarTxt", "MMT"]
        .iter()
        .zip(counts)
    {
        cases.extend(cavp_cases::<C>(
            &format!("aes/{m}{kind}{bits}.rsp"),
            mode,
            n,
        ));
    }
    cases.extend(sp800_38a_cases::<C>(mode));
    run::<C>(mode, &cases);
}

/// `Key[i+1] = Key[i] ⊕ (last keylen bits of out[j-1] ‖ out[j])` (AESAVS §6.4.1, §6.4.2:
/// for 128-bit keys that is out[j], for 192 the last 64 bits of out[j-1] then out[j], for 256
/// out[j-1] ‖ out[j]).
fn next_key(key: &mut [u8], prev: &[u8; 16], last: &[u8; 16]) {
    let mut both = [0u8; 32];
    both[..16].copy_from_slice(prev);
    both[16..].copy_from_slice(last);
    let n = key.len();
    for (k, x) in key.iter_mut().zip(&both[32 - n..]) {
        *k ^= x;
    }
}

/// One outer iteration of the Monte Carlo test as the `.rsp` records it: the key, IV (CBC) and
/// first input in force, and the last output.
#[derive(Clone, Debug, PartialEq, Eq)]
struct MctStep {
    key: Vec<u8>,
    iv: Option<[u8; 16]>,
    input: [u8; 16],
    output: [u8; 16],
}

/// The ECB Monte Carlo test of AESAVS §6.4.1, with `aes(key, block)` the block operation
/// (encryption, or decryption for the decrypt test: the procedure is the same with PT and CT
/// swapped):
///
/// ```text
/// for i in 0..100:
///     record Key[i], PT[0]
///     for j in 0..1000: CT[j] = AES(Key[i], PT[j]); PT[j+1] = CT[j]
///     record CT[999]
///     Key[i+1] = Key[i] ⊕ (CT[998] ‖ CT[999], last keylen bits);  PT[0] = CT[999]
/// ```
fn ecb_mct(key: &[u8], pt: [u8; 16], mut aes: impl FnMut(&[u8], &mut [u8; 16])) -> Vec<MctStep> {
    let mut key = key.to_vec();
    let mut input = pt;
    let mut out = Vec::with_capacity(100);
    for _ in 0..100 {
        let (mut prev, mut cur) = ([0u8; 16], input);
        for _ in 0..1000 {
            prev = cur;
            aes(&key, &mut cur);
        }
        out.push(MctStep {
            key: key.clone(),
            iv: None,
            input,
            output: cur,
        });
        next_key(&mut key, &prev, &cur);
        input = cur;
    }
    out
}

/// The ECB Monte Carlo test on simdcrypt: one key object per outer iteration (the key changes
/// each time), `encrypt_block`/`decrypt_block` for the 1000 dependent blocks.
fn ecb_mct_simdcrypt<C: Cipher>(
    f: Features,
    key: &[u8],
    pt: [u8; 16],
    encrypt: bool,
) -> Vec<MctStep> {
    // The closure is called 1000 times per key; cache the expanded key.
    let mut cached: Option<(Vec<u8>, C)> = None;
    ecb_mct(key, pt, |k, block| {
        if cached.as_ref().is_none_or(|(ck, _)| ck != k) {
            cached = Some((k.to_vec(), C::with(f, k)));
        }
        let aes = &cached.as_ref().unwrap().1;
        if encrypt {
            aes.encrypt_block(block)
        } else {
            aes.decrypt_block(block)
        }
    })
}

/// The same procedure on RustCrypto's `aes` 0.8 (an independent AES implementation; its
/// `soft` or AES-NI backend, whichever it picks), as the oracle for ECB.
fn ecb_mct_oracle(key: &[u8], pt: [u8; 16], encrypt: bool) -> Vec<MctStep> {
    use aes::cipher::{BlockDecrypt, BlockEncrypt, KeyInit};
    enum Rc {
        A128(aes::Aes128),
        A192(aes::Aes192),
        A256(aes::Aes256),
    }
    let mut cached: Option<(Vec<u8>, Rc)> = None;
    ecb_mct(key, pt, |k, block| {
        if cached.as_ref().is_none_or(|(ck, _)| ck != k) {
            let c = match k.len() {
                16 => Rc::A128(aes::Aes128::new_from_slice(k).unwrap()),
                24 => Rc::A192(aes::Aes192::new_from_slice(k).unwrap()),
                _ => Rc::A256(aes::Aes256::new_from_slice(k).unwrap()),
            };
            cached = Some((k.to_vec(), c));
        }
        let b = aes::Block::from_mut_slice(block);
        match (&cached.as_ref().unwrap().1, encrypt) {
            (Rc::A128(c), true) => c.encrypt_block(b),
            (Rc::A128(c), false) => c.decrypt_block(b),
            (Rc::A192(c), true) => c.encrypt_block(b),
            (Rc::A192(c), false) => c.decrypt_block(b),
            (Rc::A256(c), true) => c.encrypt_block(b),
            (Rc::A256(c), false) => c.decrypt_block(b),
        }
    })
}

/// The CBC Monte Carlo test of AESAVS §6.4.2 (encryption; decryption is the same with PT and
/// CT swapped and AES⁻¹), run through one streaming [`Cbc`] per outer iteration, one block per
/// call, so the chaining value is the one `Cbc` carries:
///
/// ```text
/// for i in 0..100:
///     record Key[i], IV[i], PT[0]
///     for j in 0..1000:
///         CT[j] = CBC-Encrypt(Key[i], chaining value, PT[j])   (IV[i] for j = 0)
///         PT[j+1] = IV[i] if j = 0 else CT[j-1]
///     record CT[999]
///     Key[i+1] = Key[i] ⊕ (CT[998] ‖ CT[999], last keylen bits)
///     IV[i+1] = CT[999];  PT[0] = CT[998]
/// ```
fn cbc_mct<C: Cipher>(
    f: Features,
    key: &[u8],
    iv: [u8; 16],
    input: [u8; 16],
    encrypt: bool,
) -> Vec<MctStep> {
    let (mut key, mut iv, mut input) = (key.to_vec(), iv, input);
    let mut out = Vec::with_capacity(100);
    for _ in 0..100 {
        let mut cbc = Cbc::new(C::with(f, &key), &iv);
        let (mut prev, mut cur) = ([0u8; 16], [0u8; 16]);
        let mut x = input;
        for j in 0..1000 {
            let mut b = x;
            if encrypt {
                cbc.encrypt(&mut b).unwrap();
            } else {
                cbc.decrypt(&mut b).unwrap();
            }
            // Next input: IV[i] after the first block, then the output before this one.
            x = if j == 0 { iv } else { cur };
            prev = cur;
            cur = b;
        }
        out.push(MctStep {
            key: key.clone(),
            iv: Some(iv),
            input,
            output: cur,
        });
        next_key(&mut key, &prev, &cur);
        iv = cur;
        input = prev;
    }
    out
}

/// Reads `aes/CBCMCT<bits>.rsp`: 100 `[ENCRYPT]` then 100 `[DECRYPT]` records, each
/// `COUNT`/`KEY`/`IV` and the input and output block.
fn cbc_mct_file<C: Cipher>() -> (Vec<MctStep>, Vec<MctStep>) {
    let file = format!("aes/CBCMCT{}.rsp", C::KEY_LEN * 8);
    let v = vectors::read(&file);
    assert_eq!(v.len(), 200, "{}: record count", v.name());
    let (mut enc, mut dec) = (Vec::new(), Vec::new());
    for mut r in v {
        let is_enc = r.section_flag("ENCRYPT");
        let is_dec = r.section_flag("DECRYPT");
        assert!(is_enc != is_dec, "{}: section", r.at());
        let list = if is_enc { &mut enc } else { &mut dec };
        assert_eq!(r.take_usize("COUNT"), list.len(), "{}: COUNT", r.at());
        let key = r.take_hex("KEY");
        let iv = r.take_hex("IV");
        let pt = r.take_hex("PLAINTEXT");
        let ct = r.take_hex("CIPHERTEXT");
        assert_eq!(key.len(), C::KEY_LEN, "{}", r.at());
        let (input, output) = if is_enc { (pt, ct) } else { (ct, pt) };
        list.push(MctStep {
            key,
            iv: Some(iv16(&iv)),
            input: iv16(&input),
            output: iv16(&output),
        });
        r.finish();
    }
    assert_eq!((enc.len(), dec.len()), (100, 100), "{file}");
    (enc, dec)
}

fn compare_mct(what: &str, name: &str, got: &[MctStep], want: &[MctStep]) {
    assert_eq!(got.len(), want.len(), "{what} on {name}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g, w, "{what} on {name}: COUNT = {i}");
    }
}

/// AESAVS §6.4.2 for CBC against NIST's published results, both directions, every backend.
fn cbc_monte_carlo<C: Cipher>() {
    let (enc, dec) = cbc_mct_file::<C>();
    for_each_cipher_backend::<C>(|name, f| {
        let e = &enc[0];
        let got = cbc_mct::<C>(f, &e.key, e.iv.unwrap(), e.input, true);
        compare_mct(
            &format!("CBCMCT{} encrypt", C::KEY_LEN * 8),
            name,
            &got,
            &enc,
        );
        let d = &dec[0];
        let got = cbc_mct::<C>(f, &d.key, d.iv.unwrap(), d.input, false);
        compare_mct(
            &format!("CBCMCT{} decrypt", C::KEY_LEN * 8),
            name,
            &got,
            &dec,
        );
    });
}

/// AESAVS §6.4.1 for ECB against the RustCrypto oracle, both directions, every backend. The
/// seeds (Key[0], PT[0]/CT[0]) are those of NIST's CBC MCT file of the same key size, for
/// want of the ECB ones.
fn ecb_monte_carlo<C: Cipher>() {
    let (enc, dec) = cbc_mct_file::<C>();
    let want_enc = ecb_mct_oracle(&enc[0].key, enc[0].input, true);
    let want_dec = ecb_mct_oracle(&dec[0].key, dec[0].input, false);
    // The oracle itself must not be the identity or constant (guards a broken harness).
    assert_ne!(want_enc[0].output, want_enc[1].output);
    for_each_cipher_backend::<C>(|name, f| {
        let got = ecb_mct_simdcrypt::<C>(f, &enc[0].key, enc[0].input, true);
        compare_mct(
            &format!("ECB MCT-{} encrypt", C::KEY_LEN * 8),
            name,
            &got,
            &want_enc,
        );
        let got = ecb_mct_simdcrypt::<C>(f, &dec[0].key, dec[0].input, false);
        compare_mct(
            &format!("ECB MCT-{} decrypt", C::KEY_LEN * 8),
            name,
            &got,
            &want_dec,
        );
    });
}

/// RFC 3686 §6 (three vectors per key size; the third is 36 bytes, not whole blocks) and
/// SP 800-38A F.5.
fn ctr_vectors<C: Cipher>() {
    let mut cases = cavp_cases::<C>(
        &format!("aes/rfc-3686-aes-{}-ctr.txt", C::KEY_LEN * 8),
        Mode::Ctr,
        (3, 0),
    );
    cases.extend(sp800_38a_cases::<C>(Mode::Ctr));
    run::<C>(Mode::Ctr, &cases);
}

macro_rules! suite {
    ($m:ident, $c:ty, $kat_ecb:expr, $kat_cbc:expr) => {
        mod $m {
            use super::*;

            #[test]
            fn ecb_kat_mmt_sp800_38a() {
                kat_mmt::<$c>(Mode::Ecb, $kat_ecb);
            }

            #[test]
            fn cbc_kat_mmt_sp800_38a() {
                kat_mmt::<$c>(Mode::Cbc, $kat_cbc);
            }

            #[test]
            fn ctr_rfc3686_sp800_38a() {
                ctr_vectors::<$c>();
            }

            #[test]
            fn cbc_monte_carlo() {
                super::cbc_monte_carlo::<$c>();
            }

            #[test]
            fn ecb_monte_carlo() {
                super::ecb_monte_carlo::<$c>();
            }
        }
    };
}

// (encrypt, decrypt) records of GFSbox, KeySbox, VarKey, VarTxt, MMT; the same for ECB and CBC.
suite!(
    aes128,
    Aes128,
    [(7, 7), (21, 21), (128, 128), (128, 128), (10, 10)],
    [(7, 7), (21, 21), (128, 128), (128, 128), (10, 10)]
);
suite!(
    aes192,
    Aes192,
    [(6, 6), (24, 24), (192, 192), (128, 128), (10, 10)],
    [(6, 6), (24, 24), (192, 192), (128, 128), (10, 10)]
);
suite!(
    aes256,
    Aes256,
    [(5, 5), (16, 16), (256, 256), (128, 128), (10, 10)],
    [(5, 5), (16, 16), (256, 256), (128, 128), (10, 10)]
);

/// IGE: Laurie's AES-128 vectors (the only key size they cover).
#[test]
fn ige_laurie() {
    let v = vectors::read("aes/ige-laurie.txt");
    assert_eq!(v.len(), 2, "{}: record count", v.name());
    let cases: Vec<Case> = v
        .into_iter()
        .enumerate()
        .map(|(i, mut r)| {
            let c = take_case::<Aes128>(&mut r, Mode::Ige, i);
            r.finish();
            c
        })
        .collect();
    run::<Aes128>(Mode::Ige, &cases);
}

/// House rule 7 for AES, stated once per key size: every kernel the CPU supports ran on
/// FIPS 197 appendix C (C.1, C.2, C.3), and the list is printed.
fn exercised<C: Cipher>() {
    // FIPS 197 appendix C: key 00 01 02 ..., plaintext 00 11 22 ... ff.
    let key: Vec<u8> = (0..C::KEY_LEN as u8).collect();
    let pt: [u8; 16] = core::array::from_fn(|i| (i as u8) * 0x11);
    let want = match C::KEY_LEN {
        16 => "69c4e0d86a7b0430d8cdb78070b4c55a",
        24 => "dda97ca4864cdfe06eaf70a0ec0d7191",
        _ => "8ea2b7ca516745bfeafc49904b496089",
    };
    let mut ran = Vec::new();
    for_each_cipher_backend::<C>(|name, f| {
        let mut b = pt;
        C::with(f, &key).encrypt_block(&mut b);
        assert_eq!(hex(&b), want, "FIPS 197 C, {} on {name}", C::NAME);
        ran.push(name);
    });
    println!(
        "{:<7} expected {:?}, ran {:?}",
        C::NAME,
        expected_backends(C::NAME),
        ran
    );
}

#[test]
fn every_supported_backend_is_exercised() {
    println!(
        "hardware {:?}; SIMDCRYPT_DISABLE={:?}",
        Features::hardware(),
        std::env::var("SIMDCRYPT_DISABLE").ok()
    );
    for_each_cipher!(exercised);
}

/// The coverage check fires for AES: without the best kernel (or, where only the portable one
/// exists, with nothing at all) it names what is missing.
fn check_fires<C: Cipher>() {
    let expected = expected_backends(C::NAME);
    assert_eq!(
        expected.first().copied(),
        Some(common::portable_backend(C::NAME)),
        "{}",
        C::NAME
    );
    let (ran, missing): (std::collections::BTreeSet<&'static str>, &str) = if expected.len() > 1 {
        ([expected[0]].into(), expected[1])
    } else {
        (Default::default(), expected[0])
    };
    let r = std::panic::catch_unwind(|| check_coverage(C::NAME, &ran));
    let msg = match r {
        Ok(()) => panic!("{}: coverage check passed without {missing}", C::NAME),
        Err(e) => e.downcast_ref::<String>().cloned().unwrap_or_default(),
    };
    assert!(
        msg.contains(&format!("{missing:?}")) && msg.contains("not exercised"),
        "{}: {msg}",
        C::NAME
    );
    let all = expected.iter().copied().collect();
    check_coverage(C::NAME, &all);
}

#[test]
fn the_coverage_check_fires_when_a_backend_is_missing() {
    for_each_cipher!(check_fires);
}
