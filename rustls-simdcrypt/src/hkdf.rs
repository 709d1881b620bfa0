//! HKDF for TLS 1.3's key schedule ([`tls13::Hkdf`]) on simdcrypt's HMAC.
//!
//! Native rather than rustls's generic `HkdfUsingHmac`: the expander keeps the PRK as a keyed
//! HMAC (inner and outer states after the padded key), so each output block costs two
//! compressions of its own data and no key set-up, and the label pieces rustls passes
//! (`HkdfLabel`) are absorbed one after the other without being joined.

use alloc::boxed::Box;
use core::marker::PhantomData;

use rustls::crypto;
use rustls::crypto::tls13::{self, HkdfExpander, OkmBlock, OutputLengthError};
use zeroize::Zeroize;

use crate::hash::Sha2;

/// Longest hash output supported (SHA-512's; TLS uses at most SHA-384's 48).
const MAX_HASH_LEN: usize = 64;

/// A rustls TLS 1.3 HKDF on simdcrypt's HMAC.
///
/// Use the statics [`HKDF_SHA256`] and [`HKDF_SHA384`].
pub struct Hkdf<H>(PhantomData<fn() -> H>);

/// HKDF-SHA-256 (the TLS 1.3 AES-128-GCM and ChaCha20-Poly1305 suites).
///
/// ```
/// use rustls::crypto::tls13::Hkdf as _;
/// // RFC 5869 A.1
/// let salt: Vec<u8> = (0x00..=0x0c).collect();
/// let info: Vec<u8> = (0xf0..=0xf9).collect();
/// let prk = rustls_simdcrypt::hkdf::HKDF_SHA256.extract_from_secret(Some(&salt), &[0x0b; 22]);
/// let mut okm = [0u8; 42];
/// prk.expand_slice(&[&info[..5], &info[5..]], &mut okm).unwrap();
/// assert_eq!(okm[..4], [0x3c, 0xb2, 0x5f, 0x25]);
/// assert_eq!(okm[38..], [0x87, 0x18, 0x58, 0x65]);
/// ```
pub static HKDF_SHA256: Hkdf<simdcrypt::sha::Sha256> = Hkdf(PhantomData);

/// HKDF-SHA-384 (the TLS 1.3 AES-256-GCM suite).
///
/// ```
/// use rustls::crypto::hmac::Hmac as _;
/// use rustls::crypto::tls13::Hkdf as _;
/// use rustls_simdcrypt::{hkdf::HKDF_SHA384, hmac::HMAC_SHA384};
///
/// // HKDF by its definition (RFC 5869 §2): PRK = HMAC(salt, IKM), T(1) = HMAC(PRK, info ‖ 1).
/// let prk = HMAC_SHA384.with_key(b"salt").sign(&[b"input key material"]);
/// let t1 = HMAC_SHA384.with_key(prk.as_ref()).sign(&[b"label", &[1]]);
///
/// let expander = HKDF_SHA384.extract_from_secret(Some(b"salt"), b"input key material");
/// assert_eq!(expander.hash_len(), 48);
/// assert_eq!(expander.expand_block(&[b"lab", b"el"]).as_ref(), t1.as_ref());
/// ```
pub static HKDF_SHA384: Hkdf<simdcrypt::sha::Sha384> = Hkdf(PhantomData);

/// HKDF-Extract(salt, ikm) as an expander; `None` salt is HashLen zero bytes.
fn extract<H: Sha2>(salt: Option<&[u8]>, ikm: &[u8]) -> Box<dyn HkdfExpander> {
    let zeroes = [0u8; MAX_HASH_LEN];
    let salt = salt.unwrap_or(&zeroes[..H::OUTPUT_LEN]);
    let mut m = simdcrypt::hmac::Hmac::<H>::new(salt);
    m.update(ikm);
    let mut prk = [0u8; MAX_HASH_LEN];
    copy_tag(m, &mut prk[..H::OUTPUT_LEN]);
    let expander = Expander(simdcrypt::hmac::Hmac::<H>::new(&prk[..H::OUTPUT_LEN]));
    prk.zeroize();
    Box::new(expander)
}

impl<H: Sha2> tls13::Hkdf for Hkdf<H> {
    fn extract_from_zero_ikm(&self, salt: Option<&[u8]>) -> Box<dyn HkdfExpander> {
        extract::<H>(salt, &[0u8; MAX_HASH_LEN][..H::OUTPUT_LEN])
    }

    fn extract_from_secret(&self, salt: Option<&[u8]>, secret: &[u8]) -> Box<dyn HkdfExpander> {
        extract::<H>(salt, secret)
    }

    fn expander_for_okm(&self, okm: &OkmBlock) -> Box<dyn HkdfExpander> {
        Box::new(Expander(simdcrypt::hmac::Hmac::<H>::new(okm.as_ref())))
    }

    fn hmac_sign(&self, key: &OkmBlock, message: &[u8]) -> crypto::hmac::Tag {
        let mut m = simdcrypt::hmac::Hmac::<H>::new(key.as_ref());
        m.update(message);
        crypto::hmac::Tag::new(m.finalize().as_ref())
    }
}

/// Writes the tag of `m` to `out` (`out.len()` is the hash length). Works whether
/// `finalize` returns a plain array or a tag type that derefs through `AsRef<[u8]>`.
fn copy_tag<H: Sha2>(m: simdcrypt::hmac::Hmac<H>, out: &mut [u8]) {
    let tag = m.finalize();
    out.copy_from_slice(tag.as_ref());
}

/// A PRK, held as HMAC keyed with it.
struct Expander<H: Sha2>(simdcrypt::hmac::Hmac<H>);

impl<H: Sha2> Expander<H> {
    /// HKDF-Expand(PRK, info pieces concatenated, out.len()); the caller has checked that
    /// `out.len() <= 255 * HashLen`.
    fn expand_into(&self, info: &[&[u8]], out: &mut [u8]) {
        let mut t = [0u8; MAX_HASH_LEN];
        for (i, chunk) in out.chunks_mut(H::OUTPUT_LEN).enumerate() {
            let mut m = self.0.clone();
            if i > 0 {
                m.update(&t[..H::OUTPUT_LEN]);
            }
            for piece in info {
                m.update(piece);
            }
            // i < 255 because out.len() <= 255 * HashLen.
            m.update(&[(i as u8).wrapping_add(1)]);
            copy_tag(m, &mut t[..H::OUTPUT_LEN]);
            chunk.copy_from_slice(&t[..chunk.len()]);
        }
        t.zeroize();
    }
}

impl<H: Sha2> HkdfExpander for Expander<H> {
    fn expand_slice(&self, info: &[&[u8]], output: &mut [u8]) -> Result<(), OutputLengthError> {
        if output.len() > 255 * H::OUTPUT_LEN {
            return Err(OutputLengthError);
        }
        self.expand_into(info, output);
        Ok(())
    }

    fn expand_block(&self, info: &[&[u8]]) -> OkmBlock {
        let mut buf = [0u8; MAX_HASH_LEN];
        self.expand_into(info, &mut buf[..H::OUTPUT_LEN]);
        let block = OkmBlock::new(&buf[..H::OUTPUT_LEN]);
        buf.zeroize();
        block
    }

    fn hash_len(&self) -> usize {
        H::OUTPUT_LEN
    }
}
