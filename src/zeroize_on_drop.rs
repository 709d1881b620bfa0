//! [`zeroize::ZeroizeOnDrop`] on every type that holds key material or hash state (feature
//! `zeroize`), for crates whose bounds require it.
//!
//! The marker adds no code: each of these types already wipes its secrets when dropped (round
//! keys, GHASH and Poly1305 key powers, ChaCha20 keys and keystream, hash chaining values and
//! buffered input), with volatile writes that the optimiser cannot remove (`crate::wipe`).
//! Clones are separate values and wipe themselves in the same way.
//!
//! ```
//! fn needs_zeroize_on_drop<T: zeroize::ZeroizeOnDrop>(_: &T) {}
//!
//! let key = simdcrypt::aead::Aes256Gcm::new(&[0u8; 32]);
//! needs_zeroize_on_drop(&key);
//! ```

use zeroize::ZeroizeOnDrop;

use crate::aead::{
    Aes128Gcm, Aes192Gcm, Aes256Gcm, AesGcmKey, ChaCha20Poly1305, GcmShortTag, Key,
    OpenSshChaCha20Poly1305, XChaCha20Poly1305,
};
use crate::aes::{Aes128, Aes192, Aes256, BlockCipher, Cbc, Ctr, Ige};
use crate::chacha20::ChaCha20;
use crate::hkdf::Hkdf;
use crate::hmac::Hmac;
use crate::poly1305::Poly1305;
use crate::sha::{Digest, Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};

macro_rules! marker {
    ($($t:ty),* $(,)?) => {$(
        impl ZeroizeOnDrop for $t {}
    )*};
}

marker!(
    Aes128,
    Aes192,
    Aes256,
    Aes128Gcm,
    Aes192Gcm,
    Aes256Gcm,
    ChaCha20Poly1305,
    XChaCha20Poly1305,
    OpenSshChaCha20Poly1305,
    Key,
    ChaCha20,
    Poly1305,
    Sha1,
    Sha224,
    Sha256,
    Sha384,
    Sha512,
    Sha512_224,
    Sha512_256,
);

impl<G: AesGcmKey, const N: usize> ZeroizeOnDrop for GcmShortTag<G, N> {}
impl<C: BlockCipher> ZeroizeOnDrop for Ctr<C> {}
impl<C: BlockCipher> ZeroizeOnDrop for Cbc<C> {}
impl<C: BlockCipher> ZeroizeOnDrop for Ige<C> {}
impl<H: Digest> ZeroizeOnDrop for Hmac<H> {}
impl<H: Digest> ZeroizeOnDrop for Hkdf<H> {}
