//! The record layer: TLS 1.3 and TLS 1.2 `MessageEncrypter`/`MessageDecrypter` on simdcrypt's
//! AES-GCM and ChaCha20-Poly1305.
//!
//! Sealing follows rustls's own providers byte for byte in its buffer use: one
//! `PrefixedPayload` of the final size (header room, payload, tag), the plaintext copied in
//! once by rustls's `extend_from_chunks`, encrypted in place in one pass, the tag appended
//! within the reserved capacity. Opening decrypts in place in rustls's receive buffer; for
//! TLS 1.2 GCM the plaintext is returned where it lies (after the explicit nonce) rather than
//! moved to the front.

use alloc::boxed::Box;

use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, KeyBlockShape, MessageDecrypter,
    MessageEncrypter, NONCE_LEN, Nonce, OutboundOpaqueMessage, OutboundPlainMessage,
    PrefixedPayload, Tls12AeadAlgorithm, Tls13AeadAlgorithm, UnsupportedOperationError,
    make_tls12_aad, make_tls13_aad,
};
use rustls::{ConnectionTrafficSecrets, ContentType, Error, ProtocolVersion};
use simdcrypt::aead::{Aes128Gcm, Aes256Gcm, ChaCha20Poly1305};

/// Tag length of all three AEADs.
pub(crate) const TAG_LEN: usize = 16;
/// Largest TLSPlaintext fragment (RFC 8446 §5.1, RFC 5246 §6.2.1).
const MAX_FRAGMENT_LEN: usize = 16384;
/// TLS 1.2 AES-GCM's explicit nonce (RFC 5288 §3).
const GCM_EXPLICIT_NONCE_LEN: usize = 8;

/// Which AEAD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Aes128Gcm,
    Aes256Gcm,
    ChaCha20Poly1305,
}

impl Kind {
    pub(crate) const fn key_len(self) -> usize {
        match self {
            Kind::Aes128Gcm => 16,
            Kind::Aes256Gcm | Kind::ChaCha20Poly1305 => 32,
        }
    }

    fn secrets(self, key: AeadKey, iv: Iv) -> ConnectionTrafficSecrets {
        match self {
            Kind::Aes128Gcm => ConnectionTrafficSecrets::Aes128Gcm { key, iv },
            Kind::Aes256Gcm => ConnectionTrafficSecrets::Aes256Gcm { key, iv },
            Kind::ChaCha20Poly1305 => ConnectionTrafficSecrets::Chacha20Poly1305 { key, iv },
        }
    }
}

/// A keyed AEAD.
pub(crate) enum Cipher {
    Aes128Gcm(Aes128Gcm),
    Aes256Gcm(Aes256Gcm),
    ChaCha20Poly1305(ChaCha20Poly1305),
}

impl Cipher {
    /// Keys `kind` with `key`; `None` if the key has the wrong length (rustls sizes keys by
    /// `key_len()`, so this does not happen, but it is not a reason to panic).
    pub(crate) fn new(kind: Kind, key: &[u8]) -> Option<Self> {
        Some(match kind {
            Kind::Aes128Gcm => Cipher::Aes128Gcm(Aes128Gcm::new(key.try_into().ok()?)),
            Kind::Aes256Gcm => Cipher::Aes256Gcm(Aes256Gcm::new(key.try_into().ok()?)),
            Kind::ChaCha20Poly1305 => {
                Cipher::ChaCha20Poly1305(ChaCha20Poly1305::new(key.try_into().ok()?))
            }
        })
    }

    pub(crate) fn seal(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        in_out: &mut [u8],
    ) -> Result<[u8; TAG_LEN], simdcrypt::Error> {
        match self {
            Cipher::Aes128Gcm(c) => c.seal_in_place_detached(nonce, aad, in_out),
            Cipher::Aes256Gcm(c) => c.seal_in_place_detached(nonce, aad, in_out),
            Cipher::ChaCha20Poly1305(c) => c.seal_in_place_detached(nonce, aad, in_out),
        }
    }

    pub(crate) fn open(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        in_out: &mut [u8],
        tag: &[u8; TAG_LEN],
    ) -> Result<(), simdcrypt::Error> {
        match self {
            Cipher::Aes128Gcm(c) => c.open_in_place_detached(nonce, aad, in_out, tag),
            Cipher::Aes256Gcm(c) => c.open_in_place_detached(nonce, aad, in_out, tag),
            Cipher::ChaCha20Poly1305(c) => c.open_in_place_detached(nonce, aad, in_out, tag),
        }
    }

    /// Opens `payload` = ciphertext ‖ tag in place; the plaintext is `payload[..len - 16]`.
    fn open_appended(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        payload: &mut [u8],
    ) -> Result<usize, Error> {
        let plain_len = payload
            .len()
            .checked_sub(TAG_LEN)
            .ok_or(Error::DecryptError)?;
        let (ciphertext, tag) = payload.split_at_mut(plain_len);
        let tag: [u8; TAG_LEN] = (&*tag).try_into().map_err(|_| Error::DecryptError)?;
        self.open(nonce, aad, ciphertext, &tag)
            .map_err(|_| Error::DecryptError)?;
        Ok(plain_len)
    }
}

/// Stands in for a cipher that could not be keyed: every record fails.
struct Refuse;

impl MessageEncrypter for Refuse {
    fn encrypt(
        &mut self,
        _msg: OutboundPlainMessage<'_>,
        _seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        Err(Error::EncryptError)
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len
    }
}

impl MessageDecrypter for Refuse {
    fn decrypt<'a>(
        &mut self,
        _msg: InboundOpaqueMessage<'a>,
        _seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        Err(Error::DecryptError)
    }
}

// ---------------------------------------------------------------------------------------------
// TLS 1.3 (RFC 8446 §5.2): nonce = iv XOR seq, AAD = the record header, inner content type
// after the payload.

/// A TLS 1.3 record AEAD.
pub(crate) struct Tls13Aead(pub(crate) Kind);

impl Tls13AeadAlgorithm for Tls13Aead {
    fn encrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageEncrypter> {
        match Cipher::new(self.0, key.as_ref()) {
            Some(cipher) => Box::new(Tls13Encrypter { cipher, iv }),
            None => Box::new(Refuse),
        }
    }

    fn decrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageDecrypter> {
        match Cipher::new(self.0, key.as_ref()) {
            Some(cipher) => Box::new(Tls13Decrypter { cipher, iv }),
            None => Box::new(Refuse),
        }
    }

    fn key_len(&self) -> usize {
        self.0.key_len()
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: Iv,
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        Ok(self.0.secrets(key, iv))
    }
}

struct Tls13Encrypter {
    cipher: Cipher,
    iv: Iv,
}

impl MessageEncrypter for Tls13Encrypter {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let total_len = self.encrypted_payload_len(msg.payload.len());
        let mut payload = PrefixedPayload::with_capacity(total_len);
        payload.extend_from_chunks(&msg.payload);
        payload.extend_from_slice(&[u8::from(msg.typ)]);
        let nonce = Nonce::new(&self.iv, seq).0;
        let tag = self
            .cipher
            .seal(&nonce, &make_tls13_aad(total_len), payload.as_mut())
            .map_err(|_| Error::EncryptError)?;
        payload.extend_from_slice(&tag);
        // All TLS 1.3 records carry legacy_record_version 0x0303 (RFC 8446 §5.1).
        Ok(OutboundOpaqueMessage::new(
            ContentType::ApplicationData,
            ProtocolVersion::TLSv1_2,
            payload,
        ))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + 1 + TAG_LEN
    }
}

struct Tls13Decrypter {
    cipher: Cipher,
    iv: Iv,
}

impl MessageDecrypter for Tls13Decrypter {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let aad = make_tls13_aad(msg.payload.len());
        let nonce = Nonce::new(&self.iv, seq).0;
        let plain_len = self.cipher.open_appended(&nonce, &aad, &mut msg.payload)?;
        msg.payload.truncate(plain_len);
        msg.into_tls13_unpadded_message()
    }
}

// ---------------------------------------------------------------------------------------------
// TLS 1.2 AES-GCM (RFC 5288): 4-byte salt from the key block, 8-byte explicit nonce sent in each
// record. Like rustls's providers, the explicit part is the key block's 8 bytes XOR the sequence
// number, so it never repeats under one key.

/// A TLS 1.2 AES-GCM record AEAD.
pub(crate) struct Tls12Gcm(pub(crate) Kind);

/// salt ‖ explicit, or `None` for wrong lengths.
fn gcm_iv(salt: &[u8], explicit: &[u8]) -> Option<Iv> {
    let salt: &[u8; 4] = salt.try_into().ok()?;
    let explicit: &[u8; GCM_EXPLICIT_NONCE_LEN] = explicit.try_into().ok()?;
    let mut iv = [0u8; NONCE_LEN];
    iv[..4].copy_from_slice(salt);
    iv[4..].copy_from_slice(explicit);
    Some(Iv::new(iv))
}

impl Tls12AeadAlgorithm for Tls12Gcm {
    fn encrypter(&self, key: AeadKey, iv: &[u8], extra: &[u8]) -> Box<dyn MessageEncrypter> {
        match (Cipher::new(self.0, key.as_ref()), gcm_iv(iv, extra)) {
            (Some(cipher), Some(iv)) => Box::new(Tls12GcmEncrypter { cipher, iv }),
            _ => Box::new(Refuse),
        }
    }

    fn decrypter(&self, key: AeadKey, iv: &[u8]) -> Box<dyn MessageDecrypter> {
        match (Cipher::new(self.0, key.as_ref()), <[u8; 4]>::try_from(iv)) {
            (Some(cipher), Ok(salt)) => Box::new(Tls12GcmDecrypter { cipher, salt }),
            _ => Box::new(Refuse),
        }
    }

    fn key_block_shape(&self) -> KeyBlockShape {
        KeyBlockShape {
            enc_key_len: self.0.key_len(),
            fixed_iv_len: 4,
            explicit_nonce_len: GCM_EXPLICIT_NONCE_LEN,
        }
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: &[u8],
        explicit: &[u8],
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        let iv = gcm_iv(iv, explicit).ok_or(UnsupportedOperationError)?;
        Ok(self.0.secrets(key, iv))
    }
}

struct Tls12GcmEncrypter {
    cipher: Cipher,
    iv: Iv,
}

impl MessageEncrypter for Tls12GcmEncrypter {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let total_len = self.encrypted_payload_len(msg.payload.len());
        let mut payload = PrefixedPayload::with_capacity(total_len);
        let nonce = Nonce::new(&self.iv, seq).0;
        let aad = make_tls12_aad(seq, msg.typ, msg.version, msg.payload.len());
        payload.extend_from_slice(&nonce[4..]);
        payload.extend_from_chunks(&msg.payload);
        let tag = self
            .cipher
            .seal(
                &nonce,
                &aad,
                &mut payload.as_mut()[GCM_EXPLICIT_NONCE_LEN..],
            )
            .map_err(|_| Error::EncryptError)?;
        payload.extend_from_slice(&tag);
        Ok(OutboundOpaqueMessage::new(msg.typ, msg.version, payload))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + GCM_EXPLICIT_NONCE_LEN + TAG_LEN
    }
}

struct Tls12GcmDecrypter {
    cipher: Cipher,
    salt: [u8; 4],
}

impl MessageDecrypter for Tls12GcmDecrypter {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let len = msg.payload.len();
        if len < GCM_EXPLICIT_NONCE_LEN + TAG_LEN {
            return Err(Error::DecryptError);
        }
        let mut nonce = [0u8; NONCE_LEN];
        nonce[..4].copy_from_slice(&self.salt);
        nonce[4..].copy_from_slice(&msg.payload[..GCM_EXPLICIT_NONCE_LEN]);
        let plain_len = len - GCM_EXPLICIT_NONCE_LEN - TAG_LEN;
        let aad = make_tls12_aad(seq, msg.typ, msg.version, plain_len);
        self.cipher
            .open_appended(&nonce, &aad, &mut msg.payload[GCM_EXPLICIT_NONCE_LEN..])?;
        if plain_len > MAX_FRAGMENT_LEN {
            return Err(Error::PeerSentOversizedRecord);
        }
        let start = GCM_EXPLICIT_NONCE_LEN;
        Ok(msg.into_plain_message_range(start..start + plain_len))
    }
}

// ---------------------------------------------------------------------------------------------
// TLS 1.2 ChaCha20-Poly1305 (RFC 7905): nonce = 12-byte IV XOR seq, no explicit nonce.

/// The TLS 1.2 ChaCha20-Poly1305 record AEAD.
pub(crate) struct Tls12ChaCha;

impl Tls12AeadAlgorithm for Tls12ChaCha {
    fn encrypter(&self, key: AeadKey, iv: &[u8], _extra: &[u8]) -> Box<dyn MessageEncrypter> {
        match (
            Cipher::new(Kind::ChaCha20Poly1305, key.as_ref()),
            <[u8; NONCE_LEN]>::try_from(iv),
        ) {
            (Some(cipher), Ok(iv)) => Box::new(Tls12ChaChaEncrypter {
                cipher,
                iv: Iv::new(iv),
            }),
            _ => Box::new(Refuse),
        }
    }

    fn decrypter(&self, key: AeadKey, iv: &[u8]) -> Box<dyn MessageDecrypter> {
        match (
            Cipher::new(Kind::ChaCha20Poly1305, key.as_ref()),
            <[u8; NONCE_LEN]>::try_from(iv),
        ) {
            (Some(cipher), Ok(iv)) => Box::new(Tls12ChaChaDecrypter {
                cipher,
                iv: Iv::new(iv),
            }),
            _ => Box::new(Refuse),
        }
    }

    fn key_block_shape(&self) -> KeyBlockShape {
        KeyBlockShape {
            enc_key_len: 32,
            fixed_iv_len: NONCE_LEN,
            explicit_nonce_len: 0,
        }
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: &[u8],
        _explicit: &[u8],
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        let iv = <[u8; NONCE_LEN]>::try_from(iv).map_err(|_| UnsupportedOperationError)?;
        Ok(Kind::ChaCha20Poly1305.secrets(key, Iv::new(iv)))
    }
}

struct Tls12ChaChaEncrypter {
    cipher: Cipher,
    iv: Iv,
}

impl MessageEncrypter for Tls12ChaChaEncrypter {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let total_len = self.encrypted_payload_len(msg.payload.len());
        let mut payload = PrefixedPayload::with_capacity(total_len);
        let nonce = Nonce::new(&self.iv, seq).0;
        let aad = make_tls12_aad(seq, msg.typ, msg.version, msg.payload.len());
        payload.extend_from_chunks(&msg.payload);
        let tag = self
            .cipher
            .seal(&nonce, &aad, payload.as_mut())
            .map_err(|_| Error::EncryptError)?;
        payload.extend_from_slice(&tag);
        Ok(OutboundOpaqueMessage::new(msg.typ, msg.version, payload))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + TAG_LEN
    }
}

struct Tls12ChaChaDecrypter {
    cipher: Cipher,
    iv: Iv,
}

impl MessageDecrypter for Tls12ChaChaDecrypter {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let plain_len = msg
            .payload
            .len()
            .checked_sub(TAG_LEN)
            .ok_or(Error::DecryptError)?;
        let nonce = Nonce::new(&self.iv, seq).0;
        let aad = make_tls12_aad(seq, msg.typ, msg.version, plain_len);
        self.cipher.open_appended(&nonce, &aad, &mut msg.payload)?;
        if plain_len > MAX_FRAGMENT_LEN {
            return Err(Error::PeerSentOversizedRecord);
        }
        msg.payload.truncate(plain_len);
        Ok(msg.into_plain_message())
    }
}
