//! CBC mode (NIST SP 800-38A §6.2) on whole blocks, streaming: the chaining value carries
//! over between calls, so a message may be passed in any number of block-aligned pieces.

use super::BlockCipher;
use crate::Error;

/// AES-CBC. Use one value per direction and message: [`Cbc::encrypt`] and [`Cbc::decrypt`]
/// both advance the same chaining value. Lengths must be whole blocks; for other messages pad
/// first with [`super::pkcs7_pad`] and strip with [`super::pkcs7_unpad`].
///
/// Encryption is serial (each block needs the previous ciphertext); decryption runs the
/// kernel's parallel path.
///
/// ```
/// use simdcrypt::aes::{Aes128, Cbc, pkcs7_pad, pkcs7_unpad};
///
/// let key = [7u8; 16];
/// let iv = [9u8; 16];
/// let mut buf = [0u8; 32];
/// buf[..11].copy_from_slice(b"hello world");
/// let ct = pkcs7_pad(&mut buf, 11)?;
/// Cbc::new(Aes128::new(&key), &iv).encrypt(ct)?;
/// let mut dec = Cbc::new(Aes128::new(&key), &iv);
/// dec.decrypt(ct)?;
/// assert_eq!(pkcs7_unpad(ct)?, b"hello world");
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct Cbc<C: BlockCipher> {
    cipher: C,
    iv: [u8; 16],
}

impl<C: BlockCipher> Cbc<C> {
    /// A CBC context with initialisation vector `iv`.
    pub fn new(cipher: C, iv: &[u8; 16]) -> Self {
        Cbc { cipher, iv: *iv }
    }

    /// Encrypts whole blocks in place; `Err(InvalidLength)` (nothing changed) unless
    /// `data.len()` is a multiple of 16.
    pub fn encrypt(&mut self, data: &mut [u8]) -> Result<(), Error> {
        if data.len() % 16 != 0 {
            return Err(Error::InvalidLength);
        }
        self.cipher.cipher().cbc_encrypt(&mut self.iv, data);
        Ok(())
    }

    /// Decrypts whole blocks in place; `Err(InvalidLength)` (nothing changed) unless
    /// `data.len()` is a multiple of 16.
    pub fn decrypt(&mut self, data: &mut [u8]) -> Result<(), Error> {
        if data.len() % 16 != 0 {
            return Err(Error::InvalidLength);
        }
        self.cipher.cipher().cbc_decrypt(&mut self.iv, data);
        Ok(())
    }

    /// [`Self::encrypt`] from `input` into `output` (same length, else `Err(InvalidLength)`).
    pub fn encrypt_b2b(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        if input.len() != output.len() || input.len() % 16 != 0 {
            return Err(Error::InvalidLength);
        }
        output.copy_from_slice(input);
        self.encrypt(output)
    }

    /// [`Self::decrypt`] from `input` into `output` (same length, else `Err(InvalidLength)`).
    pub fn decrypt_b2b(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        if input.len() != output.len() || input.len() % 16 != 0 {
            return Err(Error::InvalidLength);
        }
        output.copy_from_slice(input);
        self.decrypt(output)
    }

    /// The current chaining value (the last ciphertext block, or the IV at the start).
    pub fn iv(&self) -> [u8; 16] {
        self.iv
    }

    /// The kernel this key uses.
    pub fn backend(&self) -> &'static str {
        self.cipher.backend()
    }
}

impl<C: BlockCipher> core::fmt::Debug for Cbc<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Cbc")
            .field("backend", &self.backend())
            .finish()
    }
}
