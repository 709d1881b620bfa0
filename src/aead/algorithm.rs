//! The AEADs as values: an [`Algorithm`] chosen at run time (a TLS cipher suite, a VPN's
//! configured cipher, a file format's header) and a [`Key`] made from it.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::fmt;

use super::{Aes128Gcm, Aes192Gcm, Aes256Gcm, ChaCha20Poly1305, XChaCha20Poly1305};
use crate::Error;
use crate::cpu::Features;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Id {
    Aes128Gcm,
    Aes192Gcm,
    Aes256Gcm,
    ChaCha20Poly1305,
    XChaCha20Poly1305,
}

/// An AEAD algorithm: its name and its key, nonce and tag lengths. The values are the statics
/// [`AES_128_GCM`], [`AES_192_GCM`], [`AES_256_GCM`], [`CHACHA20_POLY1305`] and
/// [`XCHACHA20_POLY1305`]; [`Algorithm::from_name`] finds one by the name `cargo speed` and
/// OpenSSL use. Every algorithm here has 16-byte tags; the tag length is the algorithm's,
/// never a caller's slice's.
///
/// ```
/// use simdcrypt::aead::{Algorithm, Key, AES_256_GCM};
///
/// let alg = Algorithm::from_name("aes-256-gcm").ok_or(simdcrypt::Error::InvalidLength)?;
/// assert_eq!(alg, &AES_256_GCM);
/// assert_eq!((alg.key_len(), alg.nonce_len(), alg.tag_len()), (32, 12, 16));
/// let key = Key::new(alg, &[0x42; 32])?;
/// let nonce = [0u8; 12];
/// let mut record = b"GET / HTTP/1.1".to_vec();
/// key.seal_in_place_append_tag(&nonce, b"", &mut record)?;
/// assert_eq!(key.open_in_place(&nonce, b"", &mut record)?, b"GET / HTTP/1.1");
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Debug, PartialEq, Eq)]
pub struct Algorithm {
    id: Id,
    name: &'static str,
    key_len: usize,
    nonce_len: usize,
    max_text: u64,
}

/// AES-128-GCM (SP 800-38D): 16-byte keys, 12-byte nonces, 16-byte tags.
pub static AES_128_GCM: Algorithm = Algorithm {
    id: Id::Aes128Gcm,
    name: "aes-128-gcm",
    key_len: 16,
    nonce_len: 12,
    max_text: GCM_MAX_TEXT,
};
/// AES-192-GCM: 24-byte keys, 12-byte nonces, 16-byte tags.
pub static AES_192_GCM: Algorithm = Algorithm {
    id: Id::Aes192Gcm,
    name: "aes-192-gcm",
    key_len: 24,
    nonce_len: 12,
    max_text: GCM_MAX_TEXT,
};
/// AES-256-GCM: 32-byte keys, 12-byte nonces, 16-byte tags.
pub static AES_256_GCM: Algorithm = Algorithm {
    id: Id::Aes256Gcm,
    name: "aes-256-gcm",
    key_len: 32,
    nonce_len: 12,
    max_text: GCM_MAX_TEXT,
};
/// ChaCha20-Poly1305 (RFC 8439): 32-byte keys, 12-byte nonces, 16-byte tags.
pub static CHACHA20_POLY1305: Algorithm = Algorithm {
    id: Id::ChaCha20Poly1305,
    name: "chacha20-poly1305",
    key_len: 32,
    nonce_len: 12,
    max_text: CHACHA_MAX_TEXT,
};
/// XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha): 32-byte keys, 24-byte nonces (random ones
/// are safe), 16-byte tags.
pub static XCHACHA20_POLY1305: Algorithm = Algorithm {
    id: Id::XChaCha20Poly1305,
    name: "xchacha20-poly1305",
    key_len: 32,
    nonce_len: 24,
    max_text: CHACHA_MAX_TEXT,
};

/// SP 800-38D §5.2.1.1: at most 2^39 − 256 bits of text.
const GCM_MAX_TEXT: u64 = (1 << 36) - 32;
/// RFC 8439 §2.8: (2^32 − 1) blocks of 64 bytes after the Poly1305 key's block.
const CHACHA_MAX_TEXT: u64 = ((1 << 32) - 1) * 64;

static ALL: [&Algorithm; 5] = [
    &AES_128_GCM,
    &AES_192_GCM,
    &AES_256_GCM,
    &CHACHA20_POLY1305,
    &XCHACHA20_POLY1305,
];

impl Algorithm {
    /// The name, as `cargo speed` and OpenSSL spell it (`"aes-128-gcm"`, `"chacha20-poly1305"`).
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// Key length in bytes.
    pub const fn key_len(&self) -> usize {
        self.key_len
    }

    /// Nonce length in bytes.
    pub const fn nonce_len(&self) -> usize {
        self.nonce_len
    }

    /// Tag length in bytes (16 for every algorithm here).
    pub const fn tag_len(&self) -> usize {
        16
    }

    /// The longest text one seal or open takes, in bytes; longer gives
    /// `Err(MessageTooLong)`.
    pub const fn max_text_len(&self) -> u64 {
        self.max_text
    }

    /// The algorithm called `name` (ASCII case ignored; `_` may stand for `-`), or `None`.
    pub fn from_name(name: &str) -> Option<&'static Algorithm> {
        let same = |a: &str| {
            a.len() == name.len()
                && a.bytes().zip(name.bytes()).all(|(x, y)| {
                    let y = y.to_ascii_lowercase();
                    x == y || (x == b'-' && y == b'_')
                })
        };
        ALL.iter().copied().find(|a| same(a.name))
    }

    /// Every algorithm, in the order of the statics above.
    pub fn all() -> &'static [&'static Algorithm] {
        &ALL
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// The key of one of the concrete types.
#[derive(Clone)]
enum Inner {
    Aes128Gcm(Aes128Gcm),
    Aes192Gcm(Aes192Gcm),
    Aes256Gcm(Aes256Gcm),
    ChaCha20Poly1305(ChaCha20Poly1305),
    XChaCha20Poly1305(XChaCha20Poly1305),
}

/// A key for an [`Algorithm`] chosen at run time: the same kernels and checks as the concrete
/// type ([`Aes128Gcm`], …) it wraps, with nonces and keys as slices whose lengths are checked
/// (`Err(InvalidLength)`, never a panic). A clone is an independent key; each copy wipes its
/// key material when dropped.
///
/// Every failed open leaves its whole buffer zeroed, as the concrete types do.
#[derive(Clone)]
pub struct Key {
    alg: &'static Algorithm,
    inner: Inner,
}

/// `key.inner` as the concrete type bound to `$k`, with the nonce checked and converted to
/// `$nonce: &[u8; N]`; `Err(InvalidLength)` for a nonce of another length.
macro_rules! with_key {
    ($self:expr, $nonce_in:expr, |$k:ident, $nonce:ident| $body:expr) => {
        match &$self.inner {
            Inner::Aes128Gcm($k) => {
                let $nonce: &[u8; 12] = nonce($nonce_in)?;
                $body
            }
            Inner::Aes192Gcm($k) => {
                let $nonce: &[u8; 12] = nonce($nonce_in)?;
                $body
            }
            Inner::Aes256Gcm($k) => {
                let $nonce: &[u8; 12] = nonce($nonce_in)?;
                $body
            }
            Inner::ChaCha20Poly1305($k) => {
                let $nonce: &[u8; 12] = nonce($nonce_in)?;
                $body
            }
            Inner::XChaCha20Poly1305($k) => {
                let $nonce: &[u8; 24] = nonce($nonce_in)?;
                $body
            }
        }
    };
}

fn nonce<const N: usize>(n: &[u8]) -> Result<&[u8; N], Error> {
    n.try_into().map_err(|_| Error::InvalidLength)
}

impl Key {
    /// A key for `alg` with the fastest kernels this CPU has (less `SIMDCRYPT_DISABLE`).
    /// `Err(InvalidLength)` unless `key` is `alg.key_len()` bytes.
    pub fn new(alg: &'static Algorithm, key: &[u8]) -> Result<Self, Error> {
        Self::new_with(alg, key, Features::detect())
    }

    /// A key for `alg` with the kernels that `features` selects.
    pub fn new_with(
        alg: &'static Algorithm,
        key: &[u8],
        features: Features,
    ) -> Result<Self, Error> {
        fn k<const N: usize>(key: &[u8]) -> Result<&[u8; N], Error> {
            key.try_into().map_err(|_| Error::InvalidLength)
        }
        let inner = match alg.id {
            Id::Aes128Gcm => Inner::Aes128Gcm(Aes128Gcm::new_with(features, k(key)?)),
            Id::Aes192Gcm => Inner::Aes192Gcm(Aes192Gcm::new_with(features, k(key)?)),
            Id::Aes256Gcm => Inner::Aes256Gcm(Aes256Gcm::new_with(features, k(key)?)),
            Id::ChaCha20Poly1305 => {
                Inner::ChaCha20Poly1305(ChaCha20Poly1305::new_with(features, k(key)?))
            }
            Id::XChaCha20Poly1305 => {
                Inner::XChaCha20Poly1305(XChaCha20Poly1305::new_with(features, k(key)?))
            }
        };
        Ok(Key { alg, inner })
    }

    /// The algorithm.
    pub fn algorithm(&self) -> &'static Algorithm {
        self.alg
    }

    /// The kernels this key uses (as the concrete type's `backend()`).
    pub fn backend(&self) -> &'static str {
        match &self.inner {
            Inner::Aes128Gcm(k) => k.backend(),
            Inner::Aes192Gcm(k) => k.backend(),
            Inner::Aes256Gcm(k) => k.backend(),
            Inner::ChaCha20Poly1305(k) => k.backend(),
            Inner::XChaCha20Poly1305(k) => k.backend(),
        }
    }

    /// Encrypts `in_out` in place and returns the tag. `Err(InvalidLength)` for a nonce that
    /// is not `nonce_len()` bytes, `Err(MessageTooLong)` for a text over `max_text_len()`;
    /// `in_out` is unchanged on error.
    pub fn seal_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        in_out: &mut [u8],
    ) -> Result<[u8; 16], Error> {
        with_key!(self, nonce, |k, n| k.seal_in_place_detached(n, aad, in_out))
    }

    /// Checks `tag` (exactly `tag_len()` bytes: a shorter slice is `Err(InvalidLength)`,
    /// never a shorter comparison) in constant time and decrypts `in_out` in place. On any
    /// error `in_out` is all zero.
    pub fn open_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        in_out: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        let checked = <&[u8; 16]>::try_from(tag).map_err(|_| Error::InvalidLength);
        let r = checked.and_then(|tag| {
            with_key!(self, nonce, |k, n| k
                .open_in_place_detached(n, aad, in_out, tag))
        });
        if r.is_err() {
            crate::wipe::wipe_slice(in_out);
        }
        r
    }

    /// Encrypts the plaintext in `in_out` in place and appends the tag (see
    /// [`Aes128Gcm::seal_in_place_append_tag`]).
    pub fn seal_in_place_append_tag<B>(
        &self,
        nonce: &[u8],
        aad: &[u8],
        in_out: &mut B,
    ) -> Result<(), Error>
    where
        B: AsMut<[u8]> + for<'a> Extend<&'a u8> + ?Sized,
    {
        let tag = self.seal_in_place_detached(nonce, aad, in_out.as_mut())?;
        in_out.extend(tag.iter());
        Ok(())
    }

    /// Like [`Self::seal_in_place_append_tag`] for a buffer that cannot grow: `buf` holds the
    /// plaintext followed by `tag_len()` bytes of room, which receive the tag.
    /// `Err(InvalidLength)` if `buf` is shorter than a tag.
    ///
    /// ```
    /// use simdcrypt::aead::{Key, CHACHA20_POLY1305};
    ///
    /// let key = Key::new(&CHACHA20_POLY1305, &[9; 32])?;
    /// let mut packet = [0u8; 5 + 16];
    /// packet[..5].copy_from_slice(b"hello");
    /// key.seal_in_place_with_room(&[0; 12], b"", &mut packet)?;
    /// assert_eq!(key.open_in_place(&[0; 12], b"", &mut packet)?, b"hello");
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn seal_in_place_with_room(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<(), Error> {
        let Some(text_len) = buf.len().checked_sub(16) else {
            return Err(Error::InvalidLength);
        };
        let (text, room) = buf.split_at_mut(text_len);
        let tag = self.seal_in_place_detached(nonce, aad, text)?;
        room.copy_from_slice(&tag);
        Ok(())
    }

    /// Checks and decrypts ciphertext ‖ tag in place and returns the plaintext sub-slice.
    /// `Err(InvalidLength)` for a wrong nonce length or a buffer shorter than a tag,
    /// `Err(AuthenticationFailed)` if the tag does not match; on any error all of `in_out` is
    /// zero.
    pub fn open_in_place<'a>(
        &self,
        nonce: &[u8],
        aad: &[u8],
        in_out: &'a mut [u8],
    ) -> Result<&'a mut [u8], Error> {
        super::open_split(in_out, |text, tag| {
            self.open_in_place_detached(nonce, aad, text, tag)
        })
    }

    /// Encrypts `plaintext` and returns ciphertext ‖ tag.
    #[cfg(feature = "alloc")]
    pub fn seal(&self, nonce: &[u8], aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
        if plaintext.len() as u64 > self.alg.max_text {
            return Err(Error::MessageTooLong);
        }
        let mut out = Vec::with_capacity(plaintext.len() + 16);
        out.extend_from_slice(plaintext);
        self.seal_in_place_append_tag(nonce, aad, &mut out)?;
        Ok(out)
    }

    /// Checks and decrypts ciphertext ‖ tag; returns the plaintext.
    #[cfg(feature = "alloc")]
    pub fn open(&self, nonce: &[u8], aad: &[u8], ct_and_tag: &[u8]) -> Result<Vec<u8>, Error> {
        let mut out = Vec::from(ct_and_tag);
        let n = self.open_in_place(nonce, aad, &mut out)?.len();
        out.truncate(n);
        Ok(out)
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the key.
        f.debug_struct("Key")
            .field("algorithm", &self.alg.name)
            .field("backend", &self.backend())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec::Vec;

    fn key_bytes(alg: &Algorithm) -> Vec<u8> {
        (0..alg.key_len() as u8)
            .map(|i| i.wrapping_mul(37) ^ 0x5a)
            .collect()
    }

    #[test]
    fn names_round_trip() {
        for alg in Algorithm::all() {
            assert_eq!(Algorithm::from_name(alg.name()), Some(*alg));
            let upper = alg.name().to_ascii_uppercase().replace('-', "_");
            assert_eq!(Algorithm::from_name(&upper), Some(*alg));
        }
        assert_eq!(Algorithm::from_name("aes-128-gcmx"), None);
        assert_eq!(Algorithm::from_name(""), None);
        assert_eq!(Algorithm::from_name("aes-128-cbc"), None);
    }

    /// `Key` gives the concrete type's bytes, refuses wrong lengths, and zeroes on failure.
    #[test]
    fn key_matches_concrete_types() {
        for alg in Algorithm::all() {
            let kb = key_bytes(alg);
            let key = Key::new(alg, &kb).unwrap();
            assert_eq!(key.algorithm(), *alg);
            let nonce: Vec<u8> = (0..alg.nonce_len() as u8).collect();
            for len in [0usize, 1, 15, 16, 17, 64, 255, 1000] {
                let pt: Vec<u8> = (0..len).map(|i| i as u8).collect();
                let mut a = pt.clone();
                let tag = key.seal_in_place_detached(&nonce, b"ad", &mut a).unwrap();
                let mut b = pt.clone();
                let tag2 = match alg.id {
                    Id::Aes128Gcm => Aes128Gcm::new_from_slice(&kb)
                        .unwrap()
                        .seal_in_place_detached(nonce[..].try_into().unwrap(), b"ad", &mut b),
                    Id::Aes192Gcm => Aes192Gcm::new_from_slice(&kb)
                        .unwrap()
                        .seal_in_place_detached(nonce[..].try_into().unwrap(), b"ad", &mut b),
                    Id::Aes256Gcm => Aes256Gcm::new_from_slice(&kb)
                        .unwrap()
                        .seal_in_place_detached(nonce[..].try_into().unwrap(), b"ad", &mut b),
                    Id::ChaCha20Poly1305 => ChaCha20Poly1305::new_from_slice(&kb)
                        .unwrap()
                        .seal_in_place_detached(nonce[..].try_into().unwrap(), b"ad", &mut b),
                    Id::XChaCha20Poly1305 => XChaCha20Poly1305::new_from_slice(&kb)
                        .unwrap()
                        .seal_in_place_detached(nonce[..].try_into().unwrap(), b"ad", &mut b),
                }
                .unwrap();
                assert_eq!((&a, tag), (&b, tag2), "{alg} {len}");

                // Append-tag, with-room and open_in_place agree.
                let mut v = pt.clone();
                key.seal_in_place_append_tag(&nonce, b"ad", &mut v).unwrap();
                assert_eq!(v[..len], a[..]);
                assert_eq!(v[len..], tag);
                let mut room = pt.clone();
                room.extend_from_slice(&[0xee; 16]);
                key.seal_in_place_with_room(&nonce, b"ad", &mut room)
                    .unwrap();
                assert_eq!(room, v);
                let clone = key.clone();
                assert_eq!(
                    clone.open_in_place(&nonce, b"ad", &mut room).unwrap(),
                    &pt[..]
                );

                // Tampering anywhere fails and zeroes the whole buffer.
                for i in [0, v.len() / 2, v.len() - 1] {
                    let mut bad = v.clone();
                    bad[i] ^= 0x80;
                    assert_eq!(
                        key.open_in_place(&nonce, b"ad", &mut bad),
                        Err(Error::AuthenticationFailed)
                    );
                    assert!(bad.iter().all(|&x| x == 0), "{alg} {len} byte {i}");
                }
                let mut wrong_aad = v.clone();
                assert!(key.open_in_place(&nonce, b"aD", &mut wrong_aad).is_err());
                assert!(wrong_aad.iter().all(|&x| x == 0));
                // A tag shorter than the algorithm's is refused, never compared.
                let mut c = a.clone();
                assert_eq!(
                    key.open_in_place_detached(&nonce, b"ad", &mut c, &tag[..4]),
                    Err(Error::InvalidLength)
                );
                assert!(c.iter().all(|&x| x == 0));
            }
            // Wrong key and nonce lengths: errors, no panic.
            assert_eq!(
                Key::new(alg, &kb[1..]).map(|_| ()),
                Err(Error::InvalidLength)
            );
            let mut buf = [1u8; 20];
            assert_eq!(
                key.seal_in_place_detached(&nonce[1..], b"", &mut buf),
                Err(Error::InvalidLength)
            );
            assert_eq!(buf, [1u8; 20]);
            assert_eq!(
                key.open_in_place(&nonce[1..], b"", &mut buf).map(|_| ()),
                Err(Error::InvalidLength)
            );
            assert_eq!(buf, [0u8; 20]);
            let mut short = [3u8; 15];
            assert_eq!(
                key.open_in_place(&nonce, b"", &mut short).map(|_| ()),
                Err(Error::InvalidLength)
            );
            assert_eq!(short, [0u8; 15]);
            assert_eq!(
                key.seal_in_place_with_room(&nonce, b"", &mut [0u8; 15]),
                Err(Error::InvalidLength)
            );
        }
    }
}
