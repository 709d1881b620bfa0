//! A [rustls] [`CryptoProvider`] whose bulk cryptography runs on [simdcrypt]: the record layer
//! (AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305 for TLS 1.3 and TLS 1.2), SHA-256/384, HMAC,
//! TLS 1.3's HKDF, the TLS 1.2 PRF, and QUIC packet and header protection.
//!
//! Key exchange (X25519, P-256, P-384), signatures, private-key loading, certificate signature
//! verification and randomness come from rustls's own *ring* provider: they are not
//! simdcrypt's job.
//!
//! ```
//! use std::sync::Arc;
//!
//! let provider = Arc::new(rustls_simdcrypt::default_provider());
//! let roots = rustls::RootCertStore::empty();
//! let config = rustls::ClientConfig::builder_with_provider(provider)
//!     .with_safe_default_protocol_versions()?
//!     .with_root_certificates(roots)
//!     .with_no_client_auth();
//! assert_eq!(config.crypto_provider().cipher_suites.len(), 9);
//! # Ok::<(), rustls::Error>(())
//! ```
//!
//! [`CryptoProvider`]: rustls::crypto::CryptoProvider

#![forbid(unsafe_code)]

extern crate alloc;

mod aead;
pub mod hash;
pub mod hkdf;
pub mod hmac;
mod quic;

use rustls::crypto::CryptoProvider;
use rustls::crypto::tls12::PrfUsingHmac;
use rustls::crypto::{CipherSuiteCommon, KeyExchangeAlgorithm};
use rustls::{
    CipherSuite, SignatureScheme, SupportedCipherSuite, Tls12CipherSuite, Tls13CipherSuite,
};

use aead::{Kind, Tls12ChaCha, Tls12Gcm, Tls13Aead};

/// The provider: this crate's nine cipher suites ([`DEFAULT_CIPHER_SUITES`]) with key
/// exchange, signatures, key loading and randomness from rustls's *ring* provider.
///
/// ```
/// // Once per process, before building configs with `ClientConfig::builder()`:
/// let _ = rustls_simdcrypt::default_provider().install_default();
/// let provider = rustls::crypto::CryptoProvider::get_default().unwrap();
/// assert_eq!(provider.cipher_suites[0], rustls_simdcrypt::cipher_suite::TLS13_AES_256_GCM_SHA384);
/// ```
pub fn default_provider() -> CryptoProvider {
    CryptoProvider {
        cipher_suites: DEFAULT_CIPHER_SUITES.to_vec(),
        ..rustls::crypto::ring::default_provider()
    }
}

/// The cipher suites [`default_provider`] enables, in rustls's order of preference.
pub static DEFAULT_CIPHER_SUITES: &[SupportedCipherSuite] = ALL_CIPHER_SUITES;

/// Every cipher suite of this crate.
pub static ALL_CIPHER_SUITES: &[SupportedCipherSuite] = &[
    cipher_suite::TLS13_AES_256_GCM_SHA384,
    cipher_suite::TLS13_AES_128_GCM_SHA256,
    cipher_suite::TLS13_CHACHA20_POLY1305_SHA256,
    cipher_suite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    cipher_suite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    cipher_suite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
    cipher_suite::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
    cipher_suite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
    cipher_suite::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
];

/// Confidentiality limit of AES-GCM in TLS records: 2^24.5 full-size records per key
/// (draft-irtf-cfrg-aead-limits §5.1.1), rounded down as rustls's providers do.
const GCM_RECORD_LIMIT: u64 = 1 << 24;

/// The cipher suites, as statics to put in a [`CryptoProvider`] of your own.
///
/// ```
/// use rustls_simdcrypt::cipher_suite;
///
/// let mut provider = rustls_simdcrypt::default_provider();
/// provider.cipher_suites = vec![cipher_suite::TLS13_CHACHA20_POLY1305_SHA256];
/// assert_eq!(
///     provider.cipher_suites[0].suite(),
///     rustls::CipherSuite::TLS13_CHACHA20_POLY1305_SHA256
/// );
/// ```
///
/// [`CryptoProvider`]: rustls::crypto::CryptoProvider
pub mod cipher_suite {
    use super::*;

    /// TLS 1.3 `TLS_AES_128_GCM_SHA256` (with QUIC support).
    pub static TLS13_AES_128_GCM_SHA256: SupportedCipherSuite =
        SupportedCipherSuite::Tls13(&Tls13CipherSuite {
            common: CipherSuiteCommon {
                suite: CipherSuite::TLS13_AES_128_GCM_SHA256,
                hash_provider: &hash::SHA256,
                confidentiality_limit: GCM_RECORD_LIMIT,
            },
            hkdf_provider: &hkdf::HKDF_SHA256,
            aead_alg: &Tls13Aead(Kind::Aes128Gcm),
            quic: Some(&quic::Algorithm {
                kind: Kind::Aes128Gcm,
                // RFC 9001 §6.6: 2^23 packets, 2^52 forgery attempts.
                confidentiality_limit: 1 << 23,
                integrity_limit: 1 << 52,
            }),
        });

    /// TLS 1.3 `TLS_AES_256_GCM_SHA384` (with QUIC support).
    pub static TLS13_AES_256_GCM_SHA384: SupportedCipherSuite =
        SupportedCipherSuite::Tls13(&Tls13CipherSuite {
            common: CipherSuiteCommon {
                suite: CipherSuite::TLS13_AES_256_GCM_SHA384,
                hash_provider: &hash::SHA384,
                confidentiality_limit: GCM_RECORD_LIMIT,
            },
            hkdf_provider: &hkdf::HKDF_SHA384,
            aead_alg: &Tls13Aead(Kind::Aes256Gcm),
            quic: Some(&quic::Algorithm {
                kind: Kind::Aes256Gcm,
                confidentiality_limit: 1 << 23,
                integrity_limit: 1 << 52,
            }),
        });

    /// TLS 1.3 `TLS_CHACHA20_POLY1305_SHA256` (with QUIC support).
    pub static TLS13_CHACHA20_POLY1305_SHA256: SupportedCipherSuite =
        SupportedCipherSuite::Tls13(&Tls13CipherSuite {
            common: CipherSuiteCommon {
                suite: CipherSuite::TLS13_CHACHA20_POLY1305_SHA256,
                hash_provider: &hash::SHA256,
                confidentiality_limit: u64::MAX,
            },
            hkdf_provider: &hkdf::HKDF_SHA256,
            aead_alg: &Tls13Aead(Kind::ChaCha20Poly1305),
            quic: Some(&quic::Algorithm {
                kind: Kind::ChaCha20Poly1305,
                // RFC 9001 §6.6: no practical confidentiality limit, 2^36 forgery attempts.
                confidentiality_limit: u64::MAX,
                integrity_limit: 1 << 36,
            }),
        });

    /// TLS 1.2 `TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256`.
    pub static TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: SupportedCipherSuite =
        tls12(&ECDHE_ECDSA_AES_128_GCM);
    /// TLS 1.2 `TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384`.
    pub static TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: SupportedCipherSuite =
        tls12(&ECDHE_ECDSA_AES_256_GCM);
    /// TLS 1.2 `TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256`.
    pub static TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: SupportedCipherSuite =
        tls12(&ECDHE_ECDSA_CHACHA20_POLY1305);
    /// TLS 1.2 `TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256`.
    pub static TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: SupportedCipherSuite =
        tls12(&ECDHE_RSA_AES_128_GCM);
    /// TLS 1.2 `TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384`.
    pub static TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: SupportedCipherSuite =
        tls12(&ECDHE_RSA_AES_256_GCM);
    /// TLS 1.2 `TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256`.
    pub static TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: SupportedCipherSuite =
        tls12(&ECDHE_RSA_CHACHA20_POLY1305);

    const fn tls12(suite: &'static Tls12CipherSuite) -> SupportedCipherSuite {
        SupportedCipherSuite::Tls12(suite)
    }
}

static PRF_SHA256: PrfUsingHmac<'static> = PrfUsingHmac(&hmac::HMAC_SHA256);
static PRF_SHA384: PrfUsingHmac<'static> = PrfUsingHmac(&hmac::HMAC_SHA384);

/// Signature schemes a TLS 1.2 ECDSA suite accepts (those the *ring* provider can verify).
static TLS12_ECDSA_SCHEMES: &[SignatureScheme] = &[
    SignatureScheme::ED25519,
    SignatureScheme::ECDSA_NISTP521_SHA512,
    SignatureScheme::ECDSA_NISTP384_SHA384,
    SignatureScheme::ECDSA_NISTP256_SHA256,
];

/// Signature schemes a TLS 1.2 RSA suite accepts.
static TLS12_RSA_SCHEMES: &[SignatureScheme] = &[
    SignatureScheme::RSA_PSS_SHA512,
    SignatureScheme::RSA_PSS_SHA384,
    SignatureScheme::RSA_PSS_SHA256,
    SignatureScheme::RSA_PKCS1_SHA512,
    SignatureScheme::RSA_PKCS1_SHA384,
    SignatureScheme::RSA_PKCS1_SHA256,
];

static GCM_128: Tls12Gcm = Tls12Gcm(Kind::Aes128Gcm);
static GCM_256: Tls12Gcm = Tls12Gcm(Kind::Aes256Gcm);
static CHACHA: Tls12ChaCha = Tls12ChaCha;

macro_rules! tls12_suite {
    ($name:ident, $suite:ident, $hash:expr, $prf:expr, $sign:expr, $aead:expr, $limit:expr) => {
        static $name: Tls12CipherSuite = Tls12CipherSuite {
            common: CipherSuiteCommon {
                suite: CipherSuite::$suite,
                hash_provider: $hash,
                confidentiality_limit: $limit,
            },
            kx: KeyExchangeAlgorithm::ECDHE,
            sign: $sign,
            aead_alg: $aead,
            prf_provider: $prf,
        };
    };
}

tls12_suite!(
    ECDHE_ECDSA_AES_128_GCM,
    TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    &hash::SHA256,
    &PRF_SHA256,
    TLS12_ECDSA_SCHEMES,
    &GCM_128,
    GCM_RECORD_LIMIT
);
tls12_suite!(
    ECDHE_ECDSA_AES_256_GCM,
    TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    &hash::SHA384,
    &PRF_SHA384,
    TLS12_ECDSA_SCHEMES,
    &GCM_256,
    GCM_RECORD_LIMIT
);
tls12_suite!(
    ECDHE_ECDSA_CHACHA20_POLY1305,
    TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
    &hash::SHA256,
    &PRF_SHA256,
    TLS12_ECDSA_SCHEMES,
    &CHACHA,
    u64::MAX
);
tls12_suite!(
    ECDHE_RSA_AES_128_GCM,
    TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
    &hash::SHA256,
    &PRF_SHA256,
    TLS12_RSA_SCHEMES,
    &GCM_128,
    GCM_RECORD_LIMIT
);
tls12_suite!(
    ECDHE_RSA_AES_256_GCM,
    TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
    &hash::SHA384,
    &PRF_SHA384,
    TLS12_RSA_SCHEMES,
    &GCM_256,
    GCM_RECORD_LIMIT
);
tls12_suite!(
    ECDHE_RSA_CHACHA20_POLY1305,
    TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    &hash::SHA256,
    &PRF_SHA256,
    TLS12_RSA_SCHEMES,
    &CHACHA,
    u64::MAX
);

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
