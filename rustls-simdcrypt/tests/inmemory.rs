//! rustls with this provider against rustls with the *ring* provider, in memory, every suite
//! and both directions; and a tampered record.

mod common;

use common::{Certs, SUITES, Suite, client_config, connect, exchange, handshake, provider};
use rustls::{AlertDescription, Connection, Error};

fn ours(s: &Suite) -> std::sync::Arc<rustls::crypto::CryptoProvider> {
    provider(rustls_simdcrypt::default_provider(), Some(s.suite))
}

fn ring(s: &Suite) -> std::sync::Arc<rustls::crypto::CryptoProvider> {
    // The peer's own implementation of the same suite (nothing of ours on that side).
    let base = rustls::crypto::ring::default_provider();
    let theirs = base
        .cipher_suites
        .iter()
        .copied()
        .find(|c| c.suite() == s.suite.suite())
        .expect("ring has the suite");
    provider(base, Some(theirs))
}

/// Handshake, then 300 KiB one way and 200 KiB the other in mixed record sizes (a key update
/// from the client half-way for TLS 1.3); checks the suite and both directions' bytes.
fn run(s: &Suite, client: &mut Connection, server: &mut Connection) {
    handshake(client, server).unwrap_or_else(|e| panic!("{}: handshake: {e}", s.name));
    for conn in [&*client, &*server] {
        assert_eq!(
            conn.negotiated_cipher_suite().map(|c| c.suite()),
            Some(s.suite.suite()),
            "{}",
            s.name
        );
    }
    let up = common::data(300 * 1024 + 7, 1);
    let down = common::data(200 * 1024 + 3, 2);
    let (server_got, client_got) = exchange(client, server, &up, &down, s.tls13)
        .unwrap_or_else(|e| panic!("{}: transfer: {e}", s.name));
    assert!(
        server_got == up,
        "{}: client to server data differs",
        s.name
    );
    assert!(
        client_got == down,
        "{}: server to client data differs",
        s.name
    );
}

#[test]
fn ours_client_ring_server_every_suite() {
    let certs = Certs::committed();
    for s in SUITES {
        let c = client_config(ours(s), s.version(), &certs);
        let sv = common::server_config(ring(s), s.version(), &certs, s.cert);
        let (mut client, mut server) = connect(c, sv);
        run(s, &mut client, &mut server);
    }
}

#[test]
fn ring_client_ours_server_every_suite() {
    let certs = Certs::committed();
    for s in SUITES {
        let c = client_config(ring(s), s.version(), &certs);
        let sv = common::server_config(ours(s), s.version(), &certs, s.cert);
        let (mut client, mut server) = connect(c, sv);
        run(s, &mut client, &mut server);
    }
}

#[test]
fn ours_both_sides_every_suite() {
    let certs = Certs::committed();
    for s in SUITES {
        let c = client_config(ours(s), s.version(), &certs);
        let sv = common::server_config(ours(s), s.version(), &certs, s.cert);
        let (mut client, mut server) = connect(c, sv);
        run(s, &mut client, &mut server);
    }
}

/// One bit flipped in a protected application-data record, at the start, middle and end (the
/// tag) of its protected part: the receiver (this provider) refuses it with `DecryptError`,
/// delivers nothing, and sends `bad_record_mac`, which the sender receives.
#[test]
fn tampered_record_ends_with_bad_record_mac() {
    let certs = Certs::committed();
    for s in SUITES {
        for (sender_is_client, position) in [(true, 0), (false, 1), (true, 2), (false, 0)] {
            let c = client_config(ours(s), s.version(), &certs);
            let sv = common::server_config(ours(s), s.version(), &certs, s.cert);
            let (mut client, mut server) = connect(c, sv);
            handshake(&mut client, &mut server).unwrap();
            let (sender, receiver) = if sender_is_client {
                (&mut client, &mut server)
            } else {
                (&mut server, &mut client)
            };
            // Anything queued (TLS 1.3 tickets) goes through untouched first.
            let mut nothing = Vec::new();
            common::transfer(sender, receiver, &mut nothing).unwrap();
            assert!(nothing.is_empty());

            use std::io::Write;
            sender.writer().write_all(b"attack at dawn").unwrap();
            let mut wire = Vec::new();
            while sender.wants_write() {
                sender.write_tls(&mut wire).unwrap();
            }
            // One record: 5-byte header, then the protected part.
            assert_eq!(
                usize::from(u16::from_be_bytes([wire[3], wire[4]])) + 5,
                wire.len()
            );
            let at = match position {
                0 => 5,
                1 => 5 + (wire.len() - 5) / 2,
                _ => wire.len() - 1,
            };
            wire[at] ^= 0x08;

            let mut got = Vec::new();
            let err = common::feed(receiver, &wire, &mut got).unwrap_err();
            assert_eq!(err, Error::DecryptError, "{}", s.name);
            let mut buf = [0u8; 64];
            use std::io::Read;
            if let Ok(n) = receiver.reader().read(&mut buf) {
                got.extend_from_slice(&buf[..n]);
            }
            assert!(
                got.is_empty(),
                "{}: plaintext delivered from a forged record",
                s.name
            );

            let err = common::transfer(receiver, sender, &mut got).unwrap_err();
            assert_eq!(
                err,
                Error::AlertReceived(AlertDescription::BadRecordMac),
                "{}",
                s.name
            );
        }
    }
}
