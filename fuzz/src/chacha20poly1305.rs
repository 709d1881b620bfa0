//! ChaCha20-Poly1305 (RFC 8439), XChaCha20-Poly1305 and chacha20-poly1305@openssh.com, every
//! (ChaCha20, Poly1305) kernel pair this CPU can run. A case: AEAD, sealing kernel, opening
//! kernel, buffer offset, tamper choice, key, nonce (or sequence number), AAD, text. Checks:
//! seal = the `chacha20poly1305` crate = ring (RFC 8439 and OpenSSH); open on the other kernel
//! gives the text back; the same open with one bit changed in the ciphertext, AAD, nonce or
//! tag fails and leaves the buffer all zero.

use chacha20poly1305::aead::{AeadInPlace, KeyInit};
use simdcrypt::aead::{ChaCha20Poly1305, OpenSshChaCha20Poly1305, XChaCha20Poly1305};

use crate::{Input, assert_zeroed, at_offset, kernels};

/// Flips bit `t` (modulo the total) of the parts in order; returns the name of the part hit.
fn tamper(t: u16, parts: &mut [(&mut [u8], &'static str)]) -> &'static str {
    let total: usize = parts.iter().map(|(p, _)| 8 * p.len()).sum();
    let mut bit = usize::from(t) % total;
    for (part, name) in parts.iter_mut() {
        if bit < 8 * part.len() {
            part[bit / 8] ^= 1 << (bit % 8);
            return name;
        }
        bit -= 8 * part.len();
    }
    unreachable!("bit index is below the total")
}

/// The parts of a case.
struct Case<'a> {
    seal_kernel: u8,
    open_kernel: u8,
    offset: u8,
    tamper: u16,
    key: [u8; 64],
    nonce: [u8; 24],
    aad: &'a [u8],
    text: &'a [u8],
}

macro_rules! check_aead {
    ($ours:ident, $nlen:literal, $rc:ty, $ring:expr, $c:expr) => {{
        let c: &Case = $c;
        let key: [u8; 32] = c.key[..32].try_into().unwrap();
        let nonce: [u8; $nlen] = c.nonce[..$nlen].try_into().unwrap();
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
        let tag = sealer.seal_in_place_detached(&nonce, c.aad, ct).unwrap();
        let mut want = c.text.to_vec();
        let rc = <$rc>::new_from_slice(&key).unwrap();
        let want_tag = rc
            .encrypt_in_place_detached(&nonce.into(), c.aad, &mut want)
            .unwrap();
        assert_eq!(ct, &want[..], "{what}: ciphertext vs RustCrypto");
        assert_eq!(tag[..], want_tag[..], "{what}: tag vs RustCrypto");
        let ring_alg: Option<&'static ring::aead::Algorithm> = $ring;
        if let Some(alg) = ring_alg {
            let k = ring::aead::LessSafeKey::new(ring::aead::UnboundKey::new(alg, &key).unwrap());
            let mut r = c.text.to_vec();
            let n12: [u8; 12] = nonce[..12].try_into().unwrap();
            let rtag = k
                .seal_in_place_separate_tag(
                    ring::aead::Nonce::assume_unique_for_key(n12),
                    ring::aead::Aad::from(c.aad),
                    &mut r,
                )
                .unwrap();
            assert_eq!(r, want, "{what}: ciphertext vs ring");
            assert_eq!(rtag.as_ref(), &tag[..], "{what}: tag vs ring");
        }
        let joined = sealer.seal(&nonce, c.aad, c.text).unwrap();
        assert_eq!(joined[..ct.len()], ct[..], "{what}: seal() ciphertext");
        assert_eq!(joined[ct.len()..], tag[..], "{what}: seal() tag");

        let mut back = ct.to_vec();
        opener
            .open_in_place_detached(&nonce, c.aad, &mut back, &tag)
            .unwrap_or_else(|e| panic!("{what}: open of a fresh seal: {e:?}"));
        assert_eq!(back, c.text, "{what}: round trip");
        assert_eq!(
            opener.open(&nonce, c.aad, &joined).unwrap(),
            c.text,
            "{what}: open()"
        );

        let mut bad = ct.to_vec();
        let mut aad = c.aad.to_vec();
        let mut n = nonce;
        let mut btag = tag;
        let part = tamper(
            c.tamper,
            &mut [
                (&mut bad, "ciphertext"),
                (&mut aad, "aad"),
                (&mut n, "nonce"),
                (&mut btag, "tag"),
            ],
        );
        let r = opener.open_in_place_detached(&n, &aad, &mut bad, &btag);
        assert!(r.is_err(), "{what}: open accepted a changed {part}");
        assert_zeroed(&bad, &what);
    }};
}

/// chacha20-poly1305@openssh.com against ring's implementation (which numbers packets with a
/// u32; OpenSSH's counter is a u32 too, wrapping, so the fuzzed sequence number is one).
fn openssh(c: &Case) {
    let ks = kernels!(OpenSshChaCha20Poly1305);
    let (sname, sf) = ks.pick(c.seal_kernel);
    let (oname, of) = ks.pick(c.open_kernel);
    let what = format!("OpenSSH seal {sname} open {oname}");
    let sealer = OpenSshChaCha20Poly1305::new_with(sf, &c.key);
    let opener = OpenSshChaCha20Poly1305::new_with(of, &c.key);
    assert_eq!(sealer.backend(), sname);
    assert_eq!(opener.backend(), oname);
    let seq = u32::from_le_bytes(c.nonce[..4].try_into().unwrap());
    // A packet: 4-byte length (the real one, or whatever the input says) ‖ the rest.
    let mut packet = Vec::with_capacity(4 + c.text.len());
    if c.nonce[4] & 1 == 0 {
        packet.extend_from_slice(&(c.text.len() as u32).to_be_bytes());
    } else {
        packet.extend_from_slice(&c.nonce[5..9]);
    }
    packet.extend_from_slice(c.text);
    let (mut buf, off) = at_offset(&packet, c.offset);
    let sealed = &mut buf[off..];
    let tag = sealer.seal_in_place(u64::from(seq), sealed).unwrap();

    let rkey = ring::aead::chacha20_poly1305_openssh::SealingKey::new(&c.key);
    let mut want = packet.clone();
    let mut want_tag = [0u8; 16];
    rkey.seal_in_place(seq, &mut want, &mut want_tag);
    assert_eq!(sealed, &want[..], "{what}: packet vs ring");
    assert_eq!(tag, want_tag, "{what}: tag vs ring");

    let len: [u8; 4] = sealed[..4].try_into().unwrap();
    assert_eq!(
        opener.decrypt_length(u64::from(seq), &len),
        packet[..4],
        "{what}: length"
    );
    let rkey = ring::aead::chacha20_poly1305_openssh::OpeningKey::new(&c.key);
    assert_eq!(
        rkey.decrypt_packet_length(seq, len),
        packet[..4],
        "{what}: ring length"
    );
    let mut back = sealed.to_vec();
    opener
        .open_in_place(u64::from(seq), &mut back, &tag)
        .unwrap_or_else(|e| panic!("{what}: open of a fresh seal: {e:?}"));
    assert_eq!(back, packet, "{what}: round trip");

    let mut bad = sealed.to_vec();
    let mut seq_bytes = seq.to_le_bytes();
    let mut btag = tag;
    let part = tamper(
        c.tamper,
        &mut [
            (&mut bad, "packet"),
            (&mut seq_bytes, "sequence number"),
            (&mut btag, "tag"),
        ],
    );
    let bseq = u32::from_le_bytes(seq_bytes);
    let r = opener.open_in_place(u64::from(bseq), &mut bad, &btag);
    assert!(r.is_err(), "{what}: open accepted a changed {part}");
    assert_zeroed(&bad, &what);
    // Too short for the length field: refused and zeroed.
    let mut short = sealed[..sealed.len().min(3)].to_vec();
    assert!(
        opener
            .open_in_place(u64::from(seq), &mut short, &tag)
            .is_err()
    );
    assert_zeroed(&short, &what);
}

/// One fuzz case; panics on any disagreement.
pub fn run(data: &[u8]) {
    let mut inp = Input::new(data);
    let which = inp.u8();
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
    match which % 3 {
        0 => check_aead!(
            ChaCha20Poly1305,
            12,
            chacha20poly1305::ChaCha20Poly1305,
            Some(&ring::aead::CHACHA20_POLY1305),
            &c
        ),
        1 => check_aead!(
            XChaCha20Poly1305,
            24,
            chacha20poly1305::XChaCha20Poly1305,
            None,
            &c
        ),
        _ => openssh(&c),
    }
}
