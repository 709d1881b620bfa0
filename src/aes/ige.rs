//! IGE mode (Infinite Garble Extension: C. Campbell, "Design and specification of
//! cryptographic capabilities", 1978; as implemented by OpenSSL's `AES_ige_encrypt` and used
//! by Telegram's MTProto), on whole blocks:
//!
//! ```text
//! encrypt: c_i = E(p_i ⊕ c_{i-1}) ⊕ p_{i-1}
//! decrypt: p_i = D(c_i ⊕ p_{i-1}) ⊕ c_{i-1}
//! ```
//!
//! with the 32-byte IV holding `c_0 ‖ p_0`. Both directions are serial.

use super::BlockCipher;
use crate::Error;

/// AES-IGE, streaming over block-aligned pieces. Use one value per direction and message.
#[derive(Clone)]
pub struct Ige<C: BlockCipher> {
    cipher: C,
    /// `c_{i-1} ‖ p_{i-1}`.
    iv: [u8; 32],
}

impl<C: BlockCipher> Ige<C> {
    /// An IGE context; `iv` is `c_0 ‖ p_0` (OpenSSL's 32-byte IGE IV).
    pub fn new(cipher: C, iv: &[u8; 32]) -> Self {
        Ige { cipher, iv: *iv }
    }

    /// Encrypts whole blocks in place; `Err(InvalidLength)` (nothing changed) unless
    /// `data.len()` is a multiple of 16.
    pub fn encrypt(&mut self, data: &mut [u8]) -> Result<(), Error> {
        if data.len() % 16 != 0 {
            return Err(Error::InvalidLength);
        }
        self.cipher.cipher().ige_encrypt(&mut self.iv, data);
        Ok(())
    }

    /// Decrypts whole blocks in place; `Err(InvalidLength)` (nothing changed) unless
    /// `data.len()` is a multiple of 16.
    pub fn decrypt(&mut self, data: &mut [u8]) -> Result<(), Error> {
        if data.len() % 16 != 0 {
            return Err(Error::InvalidLength);
        }
        self.cipher.cipher().ige_decrypt(&mut self.iv, data);
        Ok(())
    }

    /// The kernel this key uses.
    pub fn backend(&self) -> &'static str {
        self.cipher.backend()
    }
}

impl<C: BlockCipher> Drop for Ige<C> {
    fn drop(&mut self) {
        // The IV ends holding the last plaintext block.
        crate::wipe::wipe(&mut self.iv);
    }
}

impl<C: BlockCipher> core::fmt::Debug for Ige<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Ige")
            .field("backend", &self.backend())
            .finish()
    }
}
