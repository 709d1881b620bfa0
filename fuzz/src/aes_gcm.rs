//! AES-GCM, all three key sizes, every (AES, GHASH) kernel pair this CPU can run (see
//! [`crate::Kernels::all`]: the stitched `aes-ni+clmul` pair is among them). A case: key
//! size, sealing kernel, opening kernel, buffer offset, tamper choice, key, nonce, AAD, text.
//! Checks: seal = the `aes-gcm` crate = ring (AES-128/256; ring has no AES-192) = the `seal`
//! convenience (ciphertext ‖ tag); open on the other kernel gives the text back; the same
//! open with one bit changed in the ciphertext, AAD, nonce or tag fails and leaves the buffer
//! all zero.

use aes_gcm::aead::{AeadInPlace, KeyInit};
use simdcrypt::aead::{Aes128Gcm, Aes192Gcm, Aes256Gcm};

use crate::{Input, assert_zeroed, at_offset, kernels};

/// The parts of a case.
struct Case<'a> {
    seal_kernel: u8,
    open_kernel: u8,
    offset: u8,
    tamper: u16,
    key: [u8; 32],
    nonce: [u8; 12],
    aad: &'a [u8],
    text: &'a [u8],
}

/// Flips bit `t` of the first of (ciphertext, AAD, nonce, tag) that `t` lands in, counting
/// over all their bits; returns which it changed.
fn tamper(
    t: u16,
    ct: &mut [u8],
    aad: &mut [u8],
    nonce: &mut [u8; 12],
    tag: &mut [u8; 16],
) -> &'static str {
    let total = 8 * (ct.len() + aad.len() + 12 + 16);
    let mut bit = usize::from(t) % total;
    for (part, name) in [
        (ct, "ciphertext"),
        (aad, "aad"),
        (&mut nonce[..], "nonce"),
        (&mut tag[..], "tag"),
    ] {
        if bit < 8 * part.len() {
            part[bit / 8] ^= 1 << (bit % 8);
            return name;
        }
        bit -= 8 * part.len();
    }
    unreachable!("bit index is below the total")
}

macro_rules! check {
    ($ours:ident, $len:literal, $rc:ty, $ring:expr, $c:expr) => {{
        let c: &Case = $c;
        let key: [u8; $len] = c.key[..$len].try_into().unwrap();
        let ks = kernels!($ours);
        let (sname, sf) = ks.pick(c.seal_kernel);
        let (oname, of) = ks.pick(c.open_kernel);
        let what = format!("{} seal {sname} open {oname}", stringify!($ours));
        let sealer = $ours::new_with(sf, &key);
        let opener = $ours::new_with(of, &key);
        assert_eq!(sealer.backend(), sname);
        assert_eq!(opener.backend(), oname);

        let (mut buf, off) = at_offset(c.text, c.offset);
        let ct = &mut buf[off..];
        let tag = sealer.seal_in_place_detached(&c.nonce, c.aad, ct).unwrap();

        let mut want = c.text.to_vec();
        let rc = <$rc>::new_from_slice(&key).unwrap();
        let want_tag = rc
            .encrypt_in_place_detached(&c.nonce.into(), c.aad, &mut want)
            .unwrap();
        assert_eq!(ct, &want[..], "{what}: ciphertext vs RustCrypto");
        assert_eq!(tag[..], want_tag[..], "{what}: tag vs RustCrypto");
        let ring_alg: Option<&'static ring::aead::Algorithm> = $ring;
        if let Some(alg) = ring_alg {
            let k = ring::aead::LessSafeKey::new(ring::aead::UnboundKey::new(alg, &key).unwrap());
            let mut r = c.text.to_vec();
            let rtag = k
                .seal_in_place_separate_tag(
                    ring::aead::Nonce::assume_unique_for_key(c.nonce),
                    ring::aead::Aad::from(c.aad),
                    &mut r,
                )
                .unwrap();
            assert_eq!(r, want, "{what}: ciphertext vs ring");
            assert_eq!(rtag.as_ref(), &tag[..], "{what}: tag vs ring");
        }
        let joined = sealer.seal(&c.nonce, c.aad, c.text).unwrap();
        assert_eq!(joined[..ct.len()], ct[..], "{what}: seal() ciphertext");
        assert_eq!(joined[ct.len()..], tag[..], "{what}: seal() tag");

        // Open on the other kernel, first as sent, then tampered with.
        let mut back = ct.to_vec();
        opener
            .open_in_place_detached(&c.nonce, c.aad, &mut back, &tag)
            .unwrap_or_else(|e| panic!("{what}: open of a fresh seal: {e:?}"));
        assert_eq!(back, c.text, "{what}: round trip");
        assert_eq!(
            opener.open(&c.nonce, c.aad, &joined).unwrap(),
            c.text,
            "{what}: open()"
        );

        let mut bad = ct.to_vec();
        let mut aad = c.aad.to_vec();
        let mut nonce = c.nonce;
        let mut btag = tag;
        let part = tamper(c.tamper, &mut bad, &mut aad, &mut nonce, &mut btag);
        let r = opener.open_in_place_detached(&nonce, &aad, &mut bad, &btag);
        assert!(r.is_err(), "{what}: open accepted a changed {part}");
        assert_zeroed(&bad, &what);
        assert!(
            opener
                .open(&c.nonce, c.aad, &joined[..joined.len().min(15)])
                .is_err()
        );
    }};
}

/// One fuzz case; panics on any disagreement.
pub fn run(data: &[u8]) {
    let mut inp = Input::new(data);
    let size = inp.u8();
    let c = Case {
        seal_kernel: inp.u8(),
        open_kernel: inp.u8(),
        offset: inp.u8(),
        tamper: inp.u16(),
        key: inp.array(),
        nonce: inp.array(),
        aad: inp.bytes(600),
        text: inp.rest(),
    };
    type Rc192 = aes_gcm::AesGcm<aes::Aes192, aes_gcm::aead::consts::U12>;
    match size % 3 {
        0 => check!(
            Aes128Gcm,
            16,
            aes_gcm::Aes128Gcm,
            Some(&ring::aead::AES_128_GCM),
            &c
        ),
        1 => check!(Aes192Gcm, 24, Rc192, None, &c),
        _ => check!(
            Aes256Gcm,
            32,
            aes_gcm::Aes256Gcm,
            Some(&ring::aead::AES_256_GCM),
            &c
        ),
    }
}
