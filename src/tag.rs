//! A MAC tag whose comparison takes constant time.

use core::fmt;

use crate::Error;

/// A MAC tag (e.g. `Tag<[u8; 32]>` from [`Hmac<Sha256>`](crate::hmac::Hmac)) whose `==`
/// compares in constant time: the time depends on the length only, never on where two tags
/// differ, so comparing a computed tag with a received one leaks nothing an attacker could
/// use to forge one byte at a time.
///
/// Use [`Tag::verify`] to check a received tag given as bytes; [`Tag::into_bytes`] or
/// [`AsRef`] gives the bytes to send.
///
/// ```
/// use simdcrypt::{hmac::Hmac, sha::Sha256, Tag};
///
/// let tag = Hmac::<Sha256>::mac(b"key", b"message");
/// let received: [u8; 32] = tag.into_bytes();
/// assert!(tag.verify(&received).is_ok());
/// assert!(tag.verify(&received[..16]).is_err()); // a shortened tag never matches
/// assert!(tag == Tag::new(received)); // `==` is constant-time too
/// ```
#[derive(Clone, Copy)]
pub struct Tag<T: AsRef<[u8]>>(T);

impl<T: AsRef<[u8]>> Tag<T> {
    /// Wraps bytes (e.g. a tag received from a peer) for a constant-time comparison.
    pub fn new(bytes: T) -> Self {
        Tag(bytes)
    }

    /// The tag's bytes.
    pub fn into_bytes(self) -> T {
        self.0
    }

    /// The tag's bytes, borrowed.
    pub fn as_bytes(&self) -> &T {
        &self.0
    }

    /// `Ok(())` if `expected` is this tag, compared in constant time;
    /// `Err(AuthenticationFailed)` if it differs or has another length.
    pub fn verify(&self, expected: &[u8]) -> Result<(), Error> {
        if crate::ct::eq(self.0.as_ref(), expected) {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }
}

impl<T: AsRef<[u8]>> PartialEq for Tag<T> {
    /// Constant time (for tags of one length).
    fn eq(&self, other: &Self) -> bool {
        crate::ct::eq(self.0.as_ref(), other.0.as_ref())
    }
}

impl<T: AsRef<[u8]>> Eq for Tag<T> {}

impl<T: AsRef<[u8]>> AsRef<[u8]> for Tag<T> {
    fn as_ref(&self) -> &[u8] {
        self.0.as_ref()
    }
}

impl<T: AsRef<[u8]>> From<T> for Tag<T> {
    fn from(bytes: T) -> Self {
        Tag(bytes)
    }
}

impl<T: AsRef<[u8]>> fmt::Debug for Tag<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Tag(")?;
        for b in self.0.as_ref() {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}
