//! Shared by the integration tests: the suite table, certificates, configs, and an in-memory
//! pump between two rustls connections.

#![allow(dead_code)] // each test binary uses its own part

use std::io::{Read, Write};
use std::path::Path;
use std::sync::Arc;

use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{
    ClientConfig, ClientConnection, Connection, RootCertStore, ServerConfig, ServerConnection,
    SupportedCipherSuite, SupportedProtocolVersion,
};
use rustls_simdcrypt::cipher_suite as ours;

/// Which certificate a suite needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CertKind {
    Ecdsa,
    Rsa,
}

/// One row of the matrix.
#[derive(Clone, Copy)]
pub struct Suite {
    pub name: &'static str,
    pub suite: SupportedCipherSuite,
    pub tls13: bool,
    pub cert: CertKind,
    /// OpenSSL's name (`-ciphersuites` for TLS 1.3, `-cipher` for TLS 1.2).
    pub openssl: &'static str,
}

impl Suite {
    pub fn version(&self) -> &'static SupportedProtocolVersion {
        if self.tls13 {
            &rustls::version::TLS13
        } else {
            &rustls::version::TLS12
        }
    }
}

pub static SUITES: &[Suite] = &[
    Suite {
        name: "TLS13_AES_128_GCM_SHA256",
        suite: ours::TLS13_AES_128_GCM_SHA256,
        tls13: true,
        cert: CertKind::Ecdsa,
        openssl: "TLS_AES_128_GCM_SHA256",
    },
    Suite {
        name: "TLS13_AES_256_GCM_SHA384",
        suite: ours::TLS13_AES_256_GCM_SHA384,
        tls13: true,
        cert: CertKind::Rsa,
        openssl: "TLS_AES_256_GCM_SHA384",
    },
    Suite {
        name: "TLS13_CHACHA20_POLY1305_SHA256",
        suite: ours::TLS13_CHACHA20_POLY1305_SHA256,
        tls13: true,
        cert: CertKind::Ecdsa,
        openssl: "TLS_CHACHA20_POLY1305_SHA256",
    },
    Suite {
        name: "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
        suite: ours::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
        tls13: false,
        cert: CertKind::Ecdsa,
        openssl: "ECDHE-ECDSA-AES128-GCM-SHA256",
    },
    Suite {
        name: "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
        suite: ours::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
        tls13: false,
        cert: CertKind::Ecdsa,
        openssl: "ECDHE-ECDSA-AES256-GCM-SHA384",
    },
    Suite {
        name: "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
        suite: ours::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
        tls13: false,
        cert: CertKind::Ecdsa,
        openssl: "ECDHE-ECDSA-CHACHA20-POLY1305",
    },
    Suite {
        name: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        suite: ours::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        tls13: false,
        cert: CertKind::Rsa,
        openssl: "ECDHE-RSA-AES128-GCM-SHA256",
    },
    Suite {
        name: "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
        suite: ours::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        tls13: false,
        cert: CertKind::Rsa,
        openssl: "ECDHE-RSA-AES256-GCM-SHA384",
    },
    Suite {
        name: "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
        suite: ours::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
        tls13: false,
        cert: CertKind::Rsa,
        openssl: "ECDHE-RSA-CHACHA20-POLY1305",
    },
];

/// Certificates and keys in a directory laid out as `tests/data` (see `tests/data/gen.sh`).
pub struct Certs {
    pub roots: Arc<RootCertStore>,
    ecdsa: (Vec<CertificateDer<'static>>, PrivateKeyDer<'static>),
    rsa: (Vec<CertificateDer<'static>>, PrivateKeyDer<'static>),
}

impl Certs {
    pub fn load(dir: &Path) -> Certs {
        let mut roots = RootCertStore::empty();
        for ca in CertificateDer::pem_file_iter(dir.join("ca.pem")).expect("ca.pem") {
            roots.add(ca.expect("ca.pem parses")).expect("CA accepted");
        }
        let pair = |name: &str| {
            let chain = CertificateDer::pem_file_iter(dir.join(format!("{name}.pem")))
                .expect("leaf pem")
                .collect::<Result<Vec<_>, _>>()
                .expect("leaf parses");
            let key = PrivateKeyDer::from_pem_file(dir.join(format!("{name}.key"))).expect("key");
            (chain, key)
        };
        Certs {
            roots: Arc::new(roots),
            ecdsa: pair("ecdsa"),
            rsa: pair("rsa"),
        }
    }

    /// The committed test certificates.
    pub fn committed() -> Certs {
        Certs::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data"))
    }

    pub fn pair(&self, kind: CertKind) -> (Vec<CertificateDer<'static>>, PrivateKeyDer<'static>) {
        let (chain, key) = match kind {
            CertKind::Ecdsa => &self.ecdsa,
            CertKind::Rsa => &self.rsa,
        };
        (chain.clone(), key.clone_key())
    }
}

/// `provider` restricted to `suite` if given.
pub fn provider(base: CryptoProvider, suite: Option<SupportedCipherSuite>) -> Arc<CryptoProvider> {
    let mut p = base;
    if let Some(s) = suite {
        p.cipher_suites = vec![s];
    }
    Arc::new(p)
}

pub fn client_config(
    provider: Arc<CryptoProvider>,
    version: &'static SupportedProtocolVersion,
    certs: &Certs,
) -> ClientConfig {
    ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[version])
        .expect("versions")
        .with_root_certificates(certs.roots.clone())
        .with_no_client_auth()
}

pub fn server_config(
    provider: Arc<CryptoProvider>,
    version: &'static SupportedProtocolVersion,
    certs: &Certs,
    kind: CertKind,
) -> ServerConfig {
    let (chain, key) = certs.pair(kind);
    ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[version])
        .expect("versions")
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .expect("server cert")
}

pub fn connect(client: ClientConfig, server: ServerConfig) -> (Connection, Connection) {
    let c = ClientConnection::new(Arc::new(client), "localhost".try_into().unwrap()).unwrap();
    let s = ServerConnection::new(Arc::new(server)).unwrap();
    (c.into(), s.into())
}

/// Moves every pending TLS byte from `from` to `to` and processes it, appending the plaintext
/// `to` delivers to `sink`; the bytes moved.
pub fn transfer(
    from: &mut Connection,
    to: &mut Connection,
    sink: &mut Vec<u8>,
) -> Result<usize, rustls::Error> {
    let mut wire = Vec::new();
    while from.wants_write() {
        from.write_tls(&mut wire).expect("write_tls to a Vec");
    }
    feed(to, &wire, sink)?;
    Ok(wire.len())
}

/// Gives `wire` to `to` and processes it, appending the plaintext it delivers to `sink`.
pub fn feed(to: &mut Connection, mut wire: &[u8], sink: &mut Vec<u8>) -> Result<(), rustls::Error> {
    while !wire.is_empty() {
        to.read_tls(&mut wire).expect("read_tls from a slice");
        let processed = to.process_new_packets();
        drain(to, sink);
        processed?;
    }
    Ok(())
}

/// Completes the handshake (bounded: a TLS handshake takes a handful of flights).
pub fn handshake(client: &mut Connection, server: &mut Connection) -> Result<(), rustls::Error> {
    let mut early = Vec::new();
    for _ in 0..20 {
        let moved = transfer(client, server, &mut early)? + transfer(server, client, &mut early)?;
        assert!(early.is_empty(), "no application data was sent");
        if moved == 0 && !client.is_handshaking() && !server.is_handshaking() {
            return Ok(());
        }
    }
    panic!("handshake did not finish in 20 rounds");
}

/// Reads all plaintext `conn` has ready into `out`.
pub fn drain(conn: &mut Connection, out: &mut Vec<u8>) {
    let mut buf = [0u8; 8192];
    loop {
        match conn.reader().read(&mut buf) {
            Ok(0) => return,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return,
            Err(e) => panic!("reading plaintext: {e}"),
        }
    }
}

/// Record sizes the senders cycle through: tiny, odd, exactly one record, one byte over, many.
pub const CHUNKS: &[usize] = &[1, 17, 1000, 16384, 16385, 4096, 40000, 5, 12345, 300];

/// Deterministic test data (xorshift; no need for randomness).
pub fn data(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// Sends `a_to_b` from `a` and `b_to_a` from `b` in chunks of [`CHUNKS`] sizes, interleaved,
/// with a TLS 1.3 key update from `a` half-way if `key_update`; returns (what `b` received,
/// what `a` received).
pub fn exchange(
    a: &mut Connection,
    b: &mut Connection,
    a_to_b: &[u8],
    b_to_a: &[u8],
    key_update: bool,
) -> Result<(Vec<u8>, Vec<u8>), rustls::Error> {
    let (mut got_a, mut got_b) = (Vec::new(), Vec::new());
    let (mut sa, mut sb) = (0, 0);
    let mut updated = false;
    for (i, size) in CHUNKS.iter().cycle().enumerate() {
        if sa == a_to_b.len() && sb == b_to_a.len() {
            break;
        }
        if key_update && !updated && sa >= a_to_b.len() / 2 {
            a.refresh_traffic_keys()?;
            updated = true;
        }
        let end = (sa + size).min(a_to_b.len());
        a.writer().write_all(&a_to_b[sa..end]).unwrap();
        sa = end;
        let size_b = CHUNKS[(i + 3) % CHUNKS.len()];
        let end = (sb + size_b).min(b_to_a.len());
        b.writer().write_all(&b_to_a[sb..end]).unwrap();
        sb = end;
        transfer(a, b, &mut got_b)?;
        transfer(b, a, &mut got_a)?;
    }
    for _ in 0..4 {
        transfer(a, b, &mut got_b)?;
        transfer(b, a, &mut got_a)?;
    }
    Ok((got_b, got_a))
}
