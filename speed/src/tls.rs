//! The `tls13-*` rows: TLS 1.3 through real rustls connections, in memory.
//!
//! - `tls13-aes-128-gcm`, `tls13-aes-256-gcm`, `tls13-chacha20-poly1305`: one operation is the
//!   client writing one message (the column's size; larger messages go in 16 KiB writes) and
//!   the server reading all of it back, so the figure includes rustls's framing, record
//!   sealing and opening, and the buffer handling on both ends. The 16384-byte column is full
//!   records, the 1024-byte one small records.
//! - `tls13-handshake`: one operation is a full TLS 1.3 handshake (AES-128-GCM suite, X25519,
//!   the ECDSA P-256 test certificate, no resumption, no tickets), shown as handshakes per
//!   second.
//!
//! The connections differ only in the cipher suite: simdcrypt's (`rustls-simdcrypt`) or rustls's
//! own aws-lc-rs or ring suite of the same name. Everything else, key exchange (X25519 only),
//! signatures and key loading, is `rustls_simdcrypt::default_provider()`'s (rustls's ring
//! provider) for all three, so that a difference is the suite's: its AEAD and key set-up,
//! its hash and HKDF.

use std::io::{Read, Write};
use std::sync::Arc;

use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::{
    ClientConfig, ClientConnection, ConnectionCommon, NamedGroup, RootCertStore, ServerConfig,
    ServerConnection, SupportedCipherSuite,
};

use crate::algs::{Op, Out};

/// The test CA and the "localhost" ECDSA P-256 leaf of rustls-simdcrypt's own tests.
const CA: &[u8] = include_bytes!("../../rustls-simdcrypt/tests/data/ca.pem");
const CERT: &[u8] = include_bytes!("../../rustls-simdcrypt/tests/data/ecdsa.pem");
const KEY: &[u8] = include_bytes!("../../rustls-simdcrypt/tests/data/ecdsa.key");

/// The largest write: one full TLS record of plaintext.
const RECORD: usize = 16384;

/// A TLS 1.3 cipher suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suite {
    Aes128Gcm,
    Aes256Gcm,
    ChaCha20Poly1305,
}

/// Whose implementation of the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    Simdcrypt,
    AwsLcRs,
    Ring,
}

fn cipher_suite(p: Provider, s: Suite) -> SupportedCipherSuite {
    use rustls::crypto::{aws_lc_rs::cipher_suite as aws, ring::cipher_suite as ring};
    use rustls_simdcrypt::cipher_suite as ours;
    match (p, s) {
        (Provider::Simdcrypt, Suite::Aes128Gcm) => ours::TLS13_AES_128_GCM_SHA256,
        (Provider::Simdcrypt, Suite::Aes256Gcm) => ours::TLS13_AES_256_GCM_SHA384,
        (Provider::Simdcrypt, Suite::ChaCha20Poly1305) => ours::TLS13_CHACHA20_POLY1305_SHA256,
        (Provider::AwsLcRs, Suite::Aes128Gcm) => aws::TLS13_AES_128_GCM_SHA256,
        (Provider::AwsLcRs, Suite::Aes256Gcm) => aws::TLS13_AES_256_GCM_SHA384,
        (Provider::AwsLcRs, Suite::ChaCha20Poly1305) => aws::TLS13_CHACHA20_POLY1305_SHA256,
        (Provider::Ring, Suite::Aes128Gcm) => ring::TLS13_AES_128_GCM_SHA256,
        (Provider::Ring, Suite::Aes256Gcm) => ring::TLS13_AES_256_GCM_SHA384,
        (Provider::Ring, Suite::ChaCha20Poly1305) => ring::TLS13_CHACHA20_POLY1305_SHA256,
    }
}

/// A client and a server config that agree on exactly one suite and X25519.
#[derive(Clone)]
pub struct Configs {
    client: Arc<ClientConfig>,
    server: Arc<ServerConfig>,
    suite: SupportedCipherSuite,
}

impl Configs {
    /// Configs for `p`'s implementation of `s`.
    pub fn new(p: Provider, s: Suite) -> Self {
        let suite = cipher_suite(p, s);
        let base = rustls_simdcrypt::default_provider();
        let provider = Arc::new(CryptoProvider {
            cipher_suites: vec![suite],
            kx_groups: base
                .kx_groups
                .iter()
                .copied()
                .filter(|g| g.name() == NamedGroup::X25519)
                .collect(),
            ..base
        });
        let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(CERT)
            .collect::<Result<_, _>>()
            .expect("the test certificate parses");
        let key = PrivateKeyDer::from_pem_slice(KEY).expect("the test key parses");
        let mut server = ServerConfig::builder_with_provider(provider.clone())
            .with_protocol_versions(&[&rustls::version::TLS13])
            .expect("TLS 1.3 with this suite")
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .expect("certificate and key match");
        server.send_tls13_tickets = 0;
        let mut roots = RootCertStore::empty();
        for c in CertificateDer::pem_slice_iter(CA) {
            roots.add(c.expect("the test CA parses")).expect("a CA");
        }
        let mut client = ClientConfig::builder_with_provider(provider)
            .with_protocol_versions(&[&rustls::version::TLS13])
            .expect("TLS 1.3 with this suite")
            .with_root_certificates(roots)
            .with_no_client_auth();
        client.resumption = rustls::client::Resumption::disabled();
        Configs {
            client: Arc::new(client),
            server: Arc::new(server),
            suite,
        }
    }

    /// A fresh pair of connections, handshake done, the suite checked.
    fn connect(&self, wire: &mut Vec<u8>) -> (ClientConnection, ServerConnection) {
        let name = ServerName::try_from("localhost").expect("a DNS name");
        let mut c = ClientConnection::new(self.client.clone(), name).expect("client");
        let mut s = ServerConnection::new(self.server.clone()).expect("server");
        while c.is_handshaking() || s.is_handshaking() || c.wants_write() || s.wants_write() {
            pump(&mut c, &mut s, wire, &mut []);
            pump(&mut s, &mut c, wire, &mut []);
        }
        assert_eq!(c.negotiated_cipher_suite(), Some(self.suite));
        assert_eq!(s.negotiated_cipher_suite(), Some(self.suite));
        (c, s)
    }
}

/// Moves everything `from` has to send into `to`, processes it, and reads the plaintext it
/// yields into `sink` (chunk by chunk); returns the plaintext bytes read.
fn pump<A, B>(
    from: &mut ConnectionCommon<A>,
    to: &mut ConnectionCommon<B>,
    wire: &mut Vec<u8>,
    sink: &mut [u8],
) -> usize {
    wire.clear();
    while from.wants_write() {
        from.write_tls(wire).expect("writing to a Vec");
    }
    let mut rest = &wire[..];
    let mut got = 0;
    while !rest.is_empty() {
        to.read_tls(&mut rest).expect("the peer's records fit");
        to.process_new_packets()
            .expect("the peer's records are valid");
        if sink.is_empty() {
            continue;
        }
        loop {
            match to.reader().read(sink) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) => panic!("reading plaintext: {e}"),
            }
        }
    }
    got
}

/// Bulk transfer, client to server, on one established connection.
pub struct Bulk {
    client: ClientConnection,
    server: ServerConnection,
    wire: Vec<u8>,
    sink: Vec<u8>,
}

impl Bulk {
    /// Connects (not timed: the measurement loop makes objects outside the timed region).
    pub fn new(configs: &Configs) -> Self {
        let mut wire = Vec::with_capacity(2 * RECORD + 1024);
        let (client, server) = configs.connect(&mut wire);
        Bulk {
            client,
            server,
            wire,
            sink: vec![0; RECORD],
        }
    }
}

impl Op for Bulk {
    fn run(&mut self, buf: &mut [u8], _out: &mut Out) -> usize {
        let mut got = 0;
        for chunk in buf.chunks(RECORD) {
            self.client
                .writer()
                .write_all(chunk)
                .expect("one record fits the send buffer");
            got += pump(
                &mut self.client,
                &mut self.server,
                &mut self.wire,
                &mut self.sink,
            );
        }
        assert_eq!(
            got,
            buf.len(),
            "the server read everything the client wrote"
        );
        0
    }
}

/// Full handshakes.
pub struct Handshake {
    configs: Configs,
    wire: Vec<u8>,
}

impl Handshake {
    /// Loads the configs (not timed).
    pub fn new(configs: Configs) -> Self {
        Handshake {
            configs,
            wire: Vec::with_capacity(4096),
        }
    }
}

impl Op for Handshake {
    fn run(&mut self, _buf: &mut [u8], _out: &mut Out) -> usize {
        std::hint::black_box(self.configs.connect(&mut self.wire));
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every provider and suite connects with the suite asked for and moves every byte, the
    /// server reading exactly what the client wrote (small, record-sized and multi-record).
    #[test]
    fn bulk_moves_the_bytes() {
        for p in [Provider::Simdcrypt, Provider::AwsLcRs, Provider::Ring] {
            for s in [Suite::Aes128Gcm, Suite::Aes256Gcm, Suite::ChaCha20Poly1305] {
                let configs = Configs::new(p, s);
                let mut b = Bulk::new(&configs);
                let mut out = [0u8; 64];
                for n in [1, 1024, RECORD, 3 * RECORD + 5] {
                    let mut msg: Vec<u8> = (0..n).map(|i| (i * 7) as u8).collect();
                    b.run(&mut msg, &mut out);
                    // Check the content once, by hand.
                    let mut check = msg.clone();
                    b.client
                        .writer()
                        .write_all(&check[..n.min(RECORD)])
                        .unwrap();
                    let mut sink = vec![0u8; RECORD];
                    let got = pump(&mut b.client, &mut b.server, &mut b.wire, &mut sink);
                    assert_eq!(got, n.min(RECORD));
                    check.truncate(got);
                    assert_eq!(sink[..got], check[..], "{p:?} {s:?}");
                }
                Handshake::new(configs).run(&mut [], &mut out);
            }
        }
    }
}
