//! HMAC-SHA-256 and HMAC-SHA-384 as rustls [`crypto::hmac::Hmac`] providers (used by the
//! TLS 1.2 PRF and by anything in rustls that asks the provider for an HMAC).

use alloc::boxed::Box;
use core::marker::PhantomData;

use rustls::crypto;

use crate::hash::Sha2;

/// A rustls HMAC provider on simdcrypt's [`simdcrypt::hmac::Hmac`].
///
/// Use the statics [`HMAC_SHA256`] and [`HMAC_SHA384`].
pub struct Hmac<H>(PhantomData<fn() -> H>);

/// HMAC-SHA-256.
///
/// ```
/// use rustls::crypto::hmac::Hmac as _;
/// // RFC 4231 test case 2
/// let tag = rustls_simdcrypt::hmac::HMAC_SHA256
///     .with_key(b"Jefe")
///     .sign(&[b"what do ya want ", b"for nothing?"]);
/// assert_eq!(&tag.as_ref()[..4], &[0x5b, 0xdc, 0xc1, 0x46]);
/// ```
pub static HMAC_SHA256: Hmac<simdcrypt::sha::Sha256> = Hmac(PhantomData);

/// HMAC-SHA-384.
///
/// ```
/// use rustls::crypto::hmac::Hmac as _;
/// // RFC 4231 test case 2
/// let tag = rustls_simdcrypt::hmac::HMAC_SHA384
///     .with_key(b"Jefe")
///     .sign(&[b"what do ya want for nothing?"]);
/// assert_eq!(&tag.as_ref()[..4], &[0xaf, 0x45, 0xd2, 0xe3]);
/// ```
pub static HMAC_SHA384: Hmac<simdcrypt::sha::Sha384> = Hmac(PhantomData);

impl<H: Sha2> crypto::hmac::Hmac for Hmac<H> {
    fn with_key(&self, key: &[u8]) -> Box<dyn crypto::hmac::Key> {
        Box::new(Key(simdcrypt::hmac::Hmac::<H>::new(key)))
    }

    fn hash_output_len(&self) -> usize {
        H::OUTPUT_LEN
    }
}

/// A keyed HMAC: the inner and outer hash states after the padded key, cloned per tag.
struct Key<H: Sha2>(simdcrypt::hmac::Hmac<H>);

impl<H: Sha2> crypto::hmac::Key for Key<H> {
    fn sign_concat(&self, first: &[u8], middle: &[&[u8]], last: &[u8]) -> crypto::hmac::Tag {
        let mut m = self.0.clone();
        m.update(first);
        for piece in middle {
            m.update(piece);
        }
        m.update(last);
        crypto::hmac::Tag::new(m.finalize().as_ref())
    }

    fn tag_len(&self) -> usize {
        H::OUTPUT_LEN
    }
}
