//! ChaCha20, HChaCha20 and Poly1305 vector suites on every kernel the machine has (house rule
//! 7):
//!
//! - `chacha20/rfc-7539-chacha20.txt` (RFC 7539 = RFC 8439 Appendix A.2): every record through
//!   `ChaCha20` (IETF layout) on every kernel, whole and in pieces of every size around the
//!   block and the kernels' strides;
//! - `chacha20/rfc-7539-poly1305.txt` (Appendix A.3, the edge cases included): every record
//!   through `Poly1305` on every kernel, whole and in pieces, `finalize` and `verify`;
//! - `chacha20/draft-irtf-cfrg-xchacha-03.txt` §2.2.1: `hchacha20`;
//! - the original ChaCha20 layout (64-bit counter and nonce, `ChaCha20::new_legacy`) against
//!   the keystream of the independently generated `chacha20/openssh-chacha20-poly1305.txt`
//!   (the length field is block 0 of `K_1`, the payload blocks 1, 2, … of `K_2`, with the
//!   big-endian sequence number as nonce);
//! - RFC 8439 §2.3.2 (the block function) and §2.4.2 (encryption), which the files do not
//!   hold.

mod common;

use common::chacha::{for_each_chacha20_backend, for_each_poly1305_backend};
use common::hex;
use common::vectors::{self, Record};
use simdcrypt::Error;
use simdcrypt::chacha20::{ChaCha20, hchacha20};
use simdcrypt::cpu::Features;
use simdcrypt::poly1305::Poly1305;

/// Piece sizes for streaming: 1 byte, around the 64-byte block, and larger than the widest
/// kernel stride (16 blocks).
const SPLITS: [usize; 10] = [1, 3, 16, 63, 64, 65, 127, 128, 200, 1100];

struct Stream {
    at: String,
    key: [u8; 32],
    nonce: [u8; 12],
    counter: u32,
    pt: Vec<u8>,
    ct: Vec<u8>,
}

fn key32(r: &mut Record, k: &str) -> [u8; 32] {
    let at = r.at().to_string();
    r.take_hex(k)
        .try_into()
        .unwrap_or_else(|v: Vec<u8>| panic!("{at}: {k} of {} bytes", v.len()))
}

fn rfc7539_chacha20() -> Vec<Stream> {
    let mut out = Vec::new();
    for (i, mut r) in vectors::read("chacha20/rfc-7539-chacha20.txt")
        .into_iter()
        .enumerate()
    {
        let at = r.at().to_string();
        assert_eq!(r.take_usize("COUNT"), i, "{at}: COUNT");
        let key = key32(&mut r, "KEY");
        let nonce: [u8; 12] = r.take_hex("NONCE").try_into().expect("12-byte NONCE");
        let counter = u32::try_from(r.take_usize("INITIAL_BLOCK_COUNTER")).expect("u32 counter");
        let pt = r.take_hex("PLAINTEXT");
        let ct = r.take_hex("CIPHERTEXT");
        r.finish();
        assert_eq!(pt.len(), ct.len(), "{at}");
        out.push(Stream {
            at,
            key,
            nonce,
            counter,
            pt,
            ct,
        });
    }
    assert_eq!(out.len(), 3, "RFC 7539 A.2 has three test vectors");
    out
}

fn check_stream(name: &str, f: Features, s: &Stream) {
    let mut c = ChaCha20::new_with(f, &s.key, &s.nonce, s.counter);
    assert_eq!(c.backend(), name, "{}", s.at);
    let mut buf = s.pt.clone();
    c.apply_keystream(&mut buf).unwrap();
    assert_eq!(hex(&buf), hex(&s.ct), "{} on {name}", s.at);
    for split in SPLITS {
        let mut c = ChaCha20::new_with(f, &s.key, &s.nonce, s.counter);
        let mut buf = s.ct.clone();
        for piece in buf.chunks_mut(split) {
            c.apply_keystream(piece).unwrap();
        }
        assert_eq!(
            hex(&buf),
            hex(&s.pt),
            "{} on {name}, pieces of {split}",
            s.at
        );
    }
}

#[test]
fn rfc7539_chacha20_encryption() {
    let cases = rfc7539_chacha20();
    for_each_chacha20_backend(|name, f| {
        for s in &cases {
            check_stream(name, f, s);
        }
    });
}

/// RFC 8439 §2.3.2 (the serialized block for counter 1) and §2.4.2 (the sunscreen text).
#[test]
fn rfc8439_block_and_encryption() {
    let key: [u8; 32] = core::array::from_fn(|i| i as u8);
    let block = Stream {
        at: "RFC 8439 §2.3.2".into(),
        key,
        nonce: [0, 0, 0, 0x09, 0, 0, 0, 0x4a, 0, 0, 0, 0],
        counter: 1,
        pt: vec![0; 64],
        ct: vectors::decode_hex(
            "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e\
             d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e",
        )
        .unwrap(),
    };
    let enc = Stream {
        at: "RFC 8439 §2.4.2".into(),
        key,
        nonce: [0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 0],
        counter: 1,
        pt: b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for \
              the future, sunscreen would be it."
            .to_vec(),
        ct: vectors::decode_hex(
            "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b\
             f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8\
             07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736\
             5af90bbf74a35be6b40b8eedf2785e42874d",
        )
        .unwrap(),
    };
    for_each_chacha20_backend(|name, f| {
        check_stream(name, f, &block);
        check_stream(name, f, &enc);
    });
}

#[test]
fn rfc7539_poly1305() {
    let mut cases = Vec::new();
    for (i, mut r) in vectors::read("chacha20/rfc-7539-poly1305.txt")
        .into_iter()
        .enumerate()
    {
        let at = r.at().to_string();
        assert_eq!(r.take_usize("COUNT"), i, "{at}: COUNT");
        let key = key32(&mut r, "KEY");
        let msg = r.take_hex("MSG");
        let tag: [u8; 16] = r.take_hex("TAG").try_into().expect("16-byte TAG");
        r.finish();
        cases.push((at, key, msg, tag));
    }
    assert_eq!(cases.len(), 11, "RFC 7539 A.3 has eleven test vectors");
    for_each_poly1305_backend(|name, f| {
        for (at, key, msg, tag) in &cases {
            let mut m = Poly1305::new_with(f, key);
            assert_eq!(m.backend(), name);
            m.update(msg);
            assert_eq!(hex(&m.finalize()), hex(tag), "{at} on {name}");
            for split in [1, 5, 15, 16, 17, 33, 64, 129] {
                let mut m = Poly1305::new_with(f, key);
                for piece in msg.chunks(split) {
                    m.update(piece);
                }
                assert_eq!(m.verify(tag), Ok(()), "{at} on {name}, pieces of {split}");
            }
            let mut bad = *tag;
            bad[15] ^= 0x80;
            let mut m = Poly1305::new_with(f, key);
            m.update(msg);
            assert_eq!(
                m.verify(&bad),
                Err(Error::AuthenticationFailed),
                "{at} on {name}"
            );
        }
    });
}

#[test]
fn hchacha20_draft() {
    let mut n = 0;
    for mut r in vectors::read("chacha20/draft-irtf-cfrg-xchacha-03.txt") {
        if !r.section_flag("HChaCha20") {
            // The AEAD record, read by tests/chacha20_poly1305_vectors.rs.
            assert!(r.section_flag("AEAD_XChaCha20_Poly1305"));
            for k in [
                "KEY",
                "IV",
                "AAD",
                "PLAINTEXT",
                "POLY1305_KEY",
                "CIPHERTEXT",
                "TAG",
            ] {
                r.take_str(k);
            }
            r.finish();
            continue;
        }
        let key = key32(&mut r, "KEY");
        let nonce: [u8; 16] = r.take_hex("NONCE").try_into().expect("16-byte NONCE");
        let subkey = r.take_hex("SUBKEY");
        let at = r.at().to_string();
        r.finish();
        assert_eq!(hex(&hchacha20(&key, &nonce)), hex(&subkey), "{at}");
        n += 1;
    }
    assert_eq!(n, 1);
}

/// The original layout (`new_legacy`: 64-bit counter, 64-bit nonce) against the independent
/// keystream in the OpenSSH vectors: `CIPHERTEXT ⊕ PLAINTEXT` is block 0 of `K_1` (4 bytes)
/// followed by blocks 1, 2, … of `K_2`, with nonce `be64(SEQNR)`.
#[test]
fn legacy_layout_matches_openssh_vectors() {
    let mut cases = Vec::new();
    for mut r in vectors::read("chacha20/openssh-chacha20-poly1305.txt") {
        let at = r.at().to_string();
        r.take_usize("COUNT");
        let key: [u8; 64] = r.take_hex("KEY").try_into().expect("64-byte KEY");
        let seq: u64 = r.take_str("SEQNR").parse().expect("SEQNR");
        let pt = r.take_hex("PLAINTEXT");
        let ct = r.take_hex("CIPHERTEXT");
        r.take_hex("TAG");
        r.finish();
        cases.push((at, key, seq, pt, ct));
    }
    assert_eq!(cases.len(), 52);
    for_each_chacha20_backend(|name, f| {
        for (at, key, seq, pt, ct) in &cases {
            let nonce = seq.to_be_bytes();
            let mut buf = pt.clone();
            ChaCha20::new_legacy_with(f, key[32..].try_into().unwrap(), &nonce, 0)
                .apply_keystream(&mut buf[..4])
                .unwrap();
            let mut c = ChaCha20::new_legacy_with(f, key[..32].try_into().unwrap(), &nonce, 1);
            assert_eq!(c.backend(), name);
            // In two pieces, to cross a block boundary inside a call.
            let mid = 4 + (buf.len() - 4) / 3;
            c.apply_keystream(&mut buf[4..mid]).unwrap();
            c.apply_keystream(&mut buf[mid..]).unwrap();
            assert_eq!(hex(&buf), hex(ct), "{at} on {name}");
        }
    });
}
