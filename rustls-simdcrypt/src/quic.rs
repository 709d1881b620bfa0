//! QUIC packet protection (RFC 9001 §5.3) and header protection (§5.4) for the three TLS 1.3
//! suites.

use alloc::boxed::Box;

use rustls::Error;
use rustls::crypto::cipher::{AeadKey, Iv, Nonce};
use rustls::quic;
use simdcrypt::aes::{Aes128, Aes256};
use simdcrypt::chacha20::ChaCha20;
use zeroize::Zeroize;

use crate::aead::{Cipher, Kind, TAG_LEN};

/// Header protection samples 16 bytes of ciphertext for all three (RFC 9001 §5.4.2).
const SAMPLE_LEN: usize = 16;

/// A suite's QUIC keys: which AEAD, and its packet limits (RFC 9001 §6.6).
pub(crate) struct Algorithm {
    pub(crate) kind: Kind,
    pub(crate) confidentiality_limit: u64,
    pub(crate) integrity_limit: u64,
}

impl quic::Algorithm for Algorithm {
    fn packet_key(&self, key: AeadKey, iv: Iv) -> Box<dyn quic::PacketKey> {
        Box::new(PacketKey {
            cipher: Cipher::new(self.kind, key.as_ref()),
            iv,
            confidentiality_limit: self.confidentiality_limit,
            integrity_limit: self.integrity_limit,
        })
    }

    fn header_protection_key(&self, key: AeadKey) -> Box<dyn quic::HeaderProtectionKey> {
        let key = key.as_ref();
        let mask = match self.kind {
            Kind::Aes128Gcm => key.try_into().ok().map(|k| Mask::Aes128(Aes128::new(k))),
            Kind::Aes256Gcm => key.try_into().ok().map(|k| Mask::Aes256(Aes256::new(k))),
            Kind::ChaCha20Poly1305 => key.try_into().ok().map(Mask::ChaCha20),
        };
        Box::new(HeaderProtectionKey(mask))
    }

    fn aead_key_len(&self) -> usize {
        self.kind.key_len()
    }
}

/// Makes the header protection mask from a sample.
enum Mask {
    /// AES-ECB of the sample (§5.4.3).
    Aes128(Aes128),
    Aes256(Aes256),
    /// ChaCha20 keystream with counter = sample[0..4] (little-endian), nonce = sample[4..16]
    /// (§5.4.4).
    ChaCha20([u8; 32]),
}

impl Drop for Mask {
    fn drop(&mut self) {
        if let Mask::ChaCha20(key) = self {
            key.zeroize();
        }
    }
}

impl Mask {
    /// The first five bytes of the mask.
    fn mask(&self, sample: &[u8]) -> Result<[u8; 5], Error> {
        let sample: &[u8; SAMPLE_LEN] = sample
            .try_into()
            .map_err(|_| Error::General("QUIC header protection sample is not 16 bytes".into()))?;
        let mut mask = [0u8; 5];
        match self {
            Mask::Aes128(aes) => {
                let mut block = *sample;
                aes.encrypt_block(&mut block);
                mask.copy_from_slice(&block[..5]);
            }
            Mask::Aes256(aes) => {
                let mut block = *sample;
                aes.encrypt_block(&mut block);
                mask.copy_from_slice(&block[..5]);
            }
            Mask::ChaCha20(key) => {
                let (counter, nonce) = sample.split_at(4);
                let counter = u32::from_le_bytes([counter[0], counter[1], counter[2], counter[3]]);
                let nonce: &[u8; 12] = nonce
                    .try_into()
                    .map_err(|_| Error::General("QUIC header protection sample".into()))?;
                // The mask is the keystream: ChaCha20 applied to five zero bytes.
                ChaCha20::new(key, nonce, counter)
                    .apply_keystream(&mut mask)
                    .map_err(|_| Error::General("QUIC header protection keystream".into()))?;
            }
        }
        Ok(mask)
    }
}

struct HeaderProtectionKey(Option<Mask>);

impl HeaderProtectionKey {
    /// Applies or removes header protection (RFC 9001 §5.4.1): the low 4 (long header) or
    /// 5 (short header) bits of the first byte, and the packet number's bytes, whose count
    /// comes from the first byte's unprotected low two bits. Nothing is changed on error.
    fn xor(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
        removing: bool,
    ) -> Result<(), Error> {
        let key = self.0.as_ref().ok_or(Error::General(
            "QUIC header protection key has the wrong length".into(),
        ))?;
        if packet_number.len() > 4 {
            return Err(Error::General(
                "QUIC packet number longer than 4 bytes".into(),
            ));
        }
        let mask = key.mask(sample)?;
        let low_bits = if *first & 0x80 != 0 { 0x0f } else { 0x1f };
        let first_mask = mask[0] & low_bits;
        let plain_first = if removing {
            *first ^ first_mask
        } else {
            *first
        };
        let pn_len = usize::from(plain_first & 0x03) + 1;
        *first ^= first_mask;
        for (byte, m) in packet_number.iter_mut().zip(&mask[1..]).take(pn_len) {
            *byte ^= m;
        }
        Ok(())
    }
}

impl quic::HeaderProtectionKey for HeaderProtectionKey {
    fn encrypt_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), Error> {
        self.xor(sample, first, packet_number, false)
    }

    fn decrypt_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), Error> {
        self.xor(sample, first, packet_number, true)
    }

    fn sample_len(&self) -> usize {
        SAMPLE_LEN
    }
}

struct PacketKey {
    cipher: Option<Cipher>,
    iv: Iv,
    confidentiality_limit: u64,
    integrity_limit: u64,
}

impl PacketKey {
    fn seal(&self, nonce: Nonce, header: &[u8], payload: &mut [u8]) -> Result<quic::Tag, Error> {
        let cipher = self.cipher.as_ref().ok_or(Error::EncryptError)?;
        let tag = cipher
            .seal(&nonce.0, header, payload)
            .map_err(|_| Error::EncryptError)?;
        Ok(quic::Tag::from(&tag[..]))
    }

    fn open<'a>(
        &self,
        nonce: Nonce,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        let cipher = self.cipher.as_ref().ok_or(Error::DecryptError)?;
        let plain_len = payload
            .len()
            .checked_sub(TAG_LEN)
            .ok_or(Error::DecryptError)?;
        let (ciphertext, tag) = payload.split_at_mut(plain_len);
        let tag: [u8; TAG_LEN] = (&*tag).try_into().map_err(|_| Error::DecryptError)?;
        cipher
            .open(&nonce.0, header, ciphertext, &tag)
            .map_err(|_| Error::DecryptError)?;
        Ok(&payload[..plain_len])
    }
}

impl quic::PacketKey for PacketKey {
    fn encrypt_in_place(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<quic::Tag, Error> {
        self.seal(Nonce::new(&self.iv, packet_number), header, payload)
    }

    fn encrypt_in_place_for_path(
        &self,
        path_id: u32,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<quic::Tag, Error> {
        self.seal(
            Nonce::for_path(path_id, &self.iv, packet_number),
            header,
            payload,
        )
    }

    fn decrypt_in_place<'a>(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        self.open(Nonce::new(&self.iv, packet_number), header, payload)
    }

    fn decrypt_in_place_for_path<'a>(
        &self,
        path_id: u32,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        self.open(
            Nonce::for_path(path_id, &self.iv, packet_number),
            header,
            payload,
        )
    }

    fn tag_len(&self) -> usize {
        TAG_LEN
    }

    fn confidentiality_limit(&self) -> u64 {
        self.confidentiality_limit
    }

    fn integrity_limit(&self) -> u64 {
        self.integrity_limit
    }
}
