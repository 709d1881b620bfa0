//! QUIC packet and header protection against RFC 9001 Appendix A, and against rustls's *ring*
//! provider for all three suites.

use rustls::Side;
use rustls::crypto::cipher::{AeadKey, Iv};
use rustls::crypto::tls13::OkmBlock;
use rustls::quic::{Keys, Version};
use rustls::{SupportedCipherSuite, Tls13CipherSuite};
use rustls_simdcrypt::cipher_suite as ours;

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn tls13(s: SupportedCipherSuite) -> &'static Tls13CipherSuite {
    s.tls13().unwrap()
}

fn initial(suite: SupportedCipherSuite, side: Side) -> Keys {
    let s = tls13(suite);
    // RFC 9001 A.1: the client's Destination Connection ID.
    Keys::initial(
        Version::V1,
        s,
        s.quic.unwrap(),
        &hex("8394c8f03e515708"),
        side,
    )
}

/// RFC 9001 A.2: the client Initial's header protection (sample -> mask 437b9aec36).
#[test]
fn rfc9001_a2_client_initial_header_protection() {
    let client = initial(ours::TLS13_AES_128_GCM_SHA256, Side::Client);
    let sample = hex("d1b1c98dd7689fb8ec11d242b123dc9b");
    let mut first = 0xc3;
    let mut pn = [0x00, 0x00, 0x00, 0x02];
    client
        .local
        .header
        .encrypt_in_place(&sample, &mut first, &mut pn)
        .unwrap();
    assert_eq!(first, 0xc0);
    assert_eq!(pn, [0x7b, 0x9a, 0xec, 0x34]);
    // The server removes it with the same key.
    let server = initial(ours::TLS13_AES_128_GCM_SHA256, Side::Server);
    server
        .remote
        .header
        .decrypt_in_place(&sample, &mut first, &mut pn)
        .unwrap();
    assert_eq!((first, pn), (0xc3, [0, 0, 0, 2]));
}

const A3_HEADER: &str = "c1000000010008f067a5502a4262b50040750001";
const A3_PAYLOAD: &str = "02000000000600405a020000560303ee fce7f7b37ba1d1632e96677825ddf739
    88cfc79825df566dc5430b9a045a1200 130100002e00330024001d00209d3c94
    0d89690b84d08a60993c144eca684d10 81287c834d5311bcf32bb9da1a002b00 020304";
const A3_PACKET: &str = "cf000000010008f067a5502a4262b500 4075c0d95a482cd0991cd25b0aac406a
    5816b6394100f37a1c69797554780bb3 8cc5a99f5ede4cf73c3ec2493a1839b3
    dbcba3f6ea46c5b7684df3548e7ddeb9 c3bf9c73cc3f3bded74b562bfb19fb84
    022f8ef4cdd93795d77d06edbb7aaf2f 58891850abbdca3d20398c276456cbc4 2158407dd074ee";

/// Protects `payload` as packet `pn` behind `header` whose last `pn_len` bytes are the packet
/// number: AEAD, then header protection sampled 4 bytes after the packet number's start.
fn protect(keys: &Keys, pn: u64, header: &[u8], pn_len: usize, payload: &[u8]) -> Vec<u8> {
    let mut header = header.to_vec();
    let mut body = payload.to_vec();
    let tag = keys
        .local
        .packet
        .encrypt_in_place(pn, &header, &mut body)
        .unwrap();
    body.extend_from_slice(tag.as_ref());
    let pn_at = header.len() - pn_len;
    let sample = &body[4 - pn_len..4 - pn_len + 16];
    let (first, rest) = header.split_at_mut(1);
    keys.local
        .header
        .encrypt_in_place(sample, &mut first[0], &mut rest[pn_at - 1..])
        .unwrap();
    header.extend_from_slice(&body);
    header
}

/// RFC 9001 A.3: the server Initial, protected by the server and opened by the client.
#[test]
fn rfc9001_a3_server_initial() {
    let server = initial(ours::TLS13_AES_128_GCM_SHA256, Side::Server);
    let header = hex(A3_HEADER);
    let packet = protect(&server, 1, &header, 2, &hex(A3_PAYLOAD));
    assert_eq!(packet, hex(A3_PACKET));

    let client = initial(ours::TLS13_AES_128_GCM_SHA256, Side::Client);
    let mut packet = packet;
    let (head, body) = packet.split_at_mut(header.len());
    let sample = body[2..18].to_vec();
    let (first, rest) = head.split_at_mut(1);
    client
        .remote
        .header
        .decrypt_in_place(&sample, &mut first[0], &mut rest[17..19])
        .unwrap();
    assert_eq!(head, &header[..]);
    let plain = client
        .remote
        .packet
        .decrypt_in_place(1, head, body)
        .unwrap();
    assert_eq!(plain, &hex(A3_PAYLOAD)[..]);

    // One flipped bit anywhere in the protected payload or tag is refused.
    for at in [0, 50, 114] {
        let mut forged = hex(A3_PACKET);
        forged[20 + at] ^= 0x01;
        let (head, body) = forged.split_at_mut(20);
        assert!(
            client
                .remote
                .packet
                .decrypt_in_place(1, &header, body)
                .is_err()
        );
        let _ = head;
    }
}

/// HKDF-Expand-Label(secret, label, "", len) through the suite's HKDF (RFC 8446 §7.1).
fn expand_label(suite: &Tls13CipherSuite, secret: &[u8], label: &[u8], out: &mut [u8]) {
    let expander = suite.hkdf_provider.expander_for_okm(&OkmBlock::new(secret));
    let len = (out.len() as u16).to_be_bytes();
    let label_len = [6 + label.len() as u8];
    expander
        .expand_slice(&[&len, &label_len, b"tls13 ", label, &[0]], out)
        .unwrap();
}

/// RFC 9001 A.5: ChaCha20-Poly1305 short header packet, keys derived from the given secret.
#[test]
fn rfc9001_a5_chacha20_short_header() {
    let suite = tls13(ours::TLS13_CHACHA20_POLY1305_SHA256);
    let secret = hex("9ac312a7f877468ebe69422748ad00a15443f18203a07d6060f688f30f21632b");
    let (mut key, mut iv, mut hp, mut ku) = ([0u8; 32], [0u8; 12], [0u8; 32], [0u8; 32]);
    expand_label(suite, &secret, b"quic key", &mut key);
    expand_label(suite, &secret, b"quic iv", &mut iv);
    expand_label(suite, &secret, b"quic hp", &mut hp);
    expand_label(suite, &secret, b"quic ku", &mut ku);
    assert_eq!(
        key[..],
        hex("c6d98ff3441c3fe1b2182094f69caa2ed4b716b65488960a7a984979fb23e1c8")
    );
    assert_eq!(iv[..], hex("e0459b3474bdd0e44a41c144"));
    assert_eq!(
        hp[..],
        hex("25a282b9e82f06f21f488917a4fc8f1b73573685608597d0efcb076b0ab7a7a4")
    );
    assert_eq!(
        ku[..],
        hex("1223504755036d556342ee9361d253421a826c9ecdf3c7148684b36b714881f9")
    );

    let quic = suite.quic.unwrap();
    let keys = Keys {
        local: rustls::quic::DirectionalKeys {
            header: quic.header_protection_key(AeadKey::from(hp)),
            packet: quic.packet_key(AeadKey::from(key), Iv::new(iv)),
        },
        remote: rustls::quic::DirectionalKeys {
            header: quic.header_protection_key(AeadKey::from(hp)),
            packet: quic.packet_key(AeadKey::from(key), Iv::new(iv)),
        },
    };
    // Packet number 654360564 (0x2700bff4) sent in 3 bytes: header 4200bff4, payload 01.
    let packet = protect(&keys, 654_360_564, &hex("4200bff4"), 3, &[0x01]);
    assert_eq!(packet, hex("4cfe4189655e5cd55c41f69080575d7999c25a5bfb"));

    // Sample 5e5cd55c41f69080575d7999c25a5bfb gives mask aefefe7d03 (RFC 9001 A.5): applied
    // to a short header with a 4-byte packet number of zeros (first byte 0x03).
    let mut first = 0x03u8;
    let mut pn = [0u8; 4];
    keys.local
        .header
        .encrypt_in_place(&packet[5..21], &mut first, &mut pn)
        .unwrap();
    assert_eq!(
        (first, pn),
        (0x03 ^ (0xae & 0x1f), [0xfe, 0xfe, 0x7d, 0x03])
    );
}

/// For each suite: the same Initial keys (the suite's own hash in the key schedule) and packet
/// under this provider and under *ring*'s give the same bytes, and each opens the other's.
#[test]
fn same_packets_as_ring_every_suite() {
    let ring = rustls::crypto::ring::default_provider();
    for suite in [
        ours::TLS13_AES_128_GCM_SHA256,
        ours::TLS13_AES_256_GCM_SHA384,
        ours::TLS13_CHACHA20_POLY1305_SHA256,
    ] {
        let theirs = *ring
            .cipher_suites
            .iter()
            .find(|c| c.suite() == suite.suite())
            .unwrap();
        let payload: Vec<u8> = (0..1200u32).map(|i| (i * 7 + 3) as u8).collect();
        let header = hex("c1000000010008f067a5502a4262b500449e0001");
        for pn_len in [1, 2, 4] {
            let mut h = header.clone();
            let n = h.len();
            h[0] = 0xc0 | (pn_len as u8 - 1);
            h.truncate(n - 2);
            h.extend(std::iter::repeat_n(0x5a, pn_len));
            let a = protect(&initial(suite, Side::Server), 0x5a5a, &h, pn_len, &payload);
            let b = protect(&initial(theirs, Side::Server), 0x5a5a, &h, pn_len, &payload);
            assert_eq!(a, b, "{:?} pn_len {pn_len}", suite.suite());
        }
        // Open ring's packet with ours.
        let mut b = protect(&initial(theirs, Side::Client), 9, &header, 2, &payload);
        let ours_server = initial(suite, Side::Server);
        let (head, body) = b.split_at_mut(header.len());
        let sample = body[2..18].to_vec();
        let (first, rest) = head.split_at_mut(1);
        ours_server
            .remote
            .header
            .decrypt_in_place(&sample, &mut first[0], &mut rest[17..19])
            .unwrap();
        let plain = ours_server
            .remote
            .packet
            .decrypt_in_place(9, head, body)
            .unwrap();
        assert_eq!(plain, &payload[..]);
    }
}
