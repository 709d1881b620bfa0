//! `aead` 0.6 on the AEADs: see [`crate::compat`].
//!
//! `AeadInOut` is the one trait with required methods; `AeadInPlace` and (with the `alloc`
//! feature) `Aead` come from `aead`'s blanket impls. An out-of-place buffer is copied to its
//! output, then sealed or opened there in place by the type's own method.

use ::aead::array::Array;
use ::aead::consts::{U12, U16, U24, U32};
use ::aead::inout::InOutBuf;
use ::aead::{AeadCore, AeadInOut, Key, KeyInit, KeySizeUser, Nonce, Tag, TagPosition};

use crate::aead::{Aes128Gcm, Aes192Gcm, Aes256Gcm, ChaCha20Poly1305, XChaCha20Poly1305};

/// `buffer`'s output, holding a copy of its input, and whether they were distinct buffers.
fn copied<'o>(mut buffer: InOutBuf<'_, 'o, u8>) -> (&'o mut [u8], bool) {
    let out_of_place = buffer.get_in().as_ptr() != buffer.get_out().as_ptr();
    (buffer.into_out_with_copied_in(), out_of_place)
}

macro_rules! aead_impls {
    ($name:ident, $key:ty, $nonce:ty, $example_key:literal) => {
        impl KeySizeUser for $name {
            type KeySize = $key;
        }

        impl KeyInit for $name {
            #[inline]
            fn new(key: &Key<Self>) -> Self {
                $name::new(key.as_ref())
            }
        }

        impl AeadCore for $name {
            type NonceSize = $nonce;
            type TagSize = U16;
            const TAG_POSITION: TagPosition = TagPosition::Postfix;
        }

        /// The `aead` traits: seal and open through `seal_in_place_detached` and
        /// `open_in_place_detached`.
        ///
        /// ```
        /// use aead::{AeadInOut, KeyInit, Nonce, inout::InOutBuf};
        #[doc = concat!("use simdcrypt::aead::", stringify!($name), ";")]
        ///
        #[doc = concat!("let a = <", stringify!($name), " as KeyInit>::new_from_slice(&[7; ", $example_key, "]).unwrap();")]
        #[doc = concat!("let nonce = Nonce::<", stringify!($name), ">::default();")]
        /// let mut msg = *b"hello";
        /// let tag = a.encrypt_inout_detached(&nonce, b"aad", (&mut msg[..]).into()).unwrap();
        /// let (mut ct, mut pt) = (msg, [0u8; 5]);
        /// a.decrypt_inout_detached(&nonce, b"aad", InOutBuf::new(&ct[..], &mut pt[..]).unwrap(), &tag).unwrap();
        /// assert_eq!(&pt, b"hello");
        /// ct[0] ^= 1; // a forged ciphertext: error, and the output is zeroed
        /// assert!(a.decrypt_inout_detached(&nonce, b"aad", (&mut ct[..]).into(), &tag).is_err());
        /// assert_eq!(ct, [0; 5]);
        /// ```
        impl AeadInOut for $name {
            fn encrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
            ) -> ::aead::Result<Tag<Self>> {
                let (data, out_of_place) = copied(buffer);
                match self.seal_in_place_detached(nonce.as_ref(), associated_data, data) {
                    Ok(tag) => Ok(Array::from(tag)),
                    Err(_) => {
                        // A failed seal leaves `data` as it was: in place, the caller's
                        // plaintext; out of place, a copy of it, which is not output.
                        if out_of_place {
                            data.fill(0);
                        }
                        Err(::aead::Error)
                    }
                }
            }

            fn decrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
                tag: &Tag<Self>,
            ) -> ::aead::Result<()> {
                let (data, _) = copied(buffer);
                // On error the output is all zero: the type's own guarantee.
                self.open_in_place_detached(nonce.as_ref(), associated_data, data, tag.as_ref())
                    .map_err(|_| ::aead::Error)
            }
        }
    };
}

aead_impls!(Aes128Gcm, U16, U12, "16");
aead_impls!(Aes192Gcm, U24, U12, "24");
aead_impls!(Aes256Gcm, U32, U12, "32");
aead_impls!(ChaCha20Poly1305, U32, U12, "32");
aead_impls!(XChaCha20Poly1305, U32, U24, "32");
