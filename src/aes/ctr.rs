//! CTR mode (NIST SP 800-38A §6.5) with the whole 16-byte counter block as one 128-bit
//! big-endian integer, incremented mod 2^128 — the "standard incrementing function" of
//! SP 800-38A appendix B.1 with m = 128, as SSH's `aes*-ctr` (RFC 4344 §4) uses it.

use super::BlockCipher;
use crate::Error;

/// AES in counter mode, streaming: [`Ctr::apply_keystream`] continues where the previous
/// call stopped, at any byte offset.
///
/// Encryption and decryption are the same operation. The counter runs through all 2^128
/// values, wrapping from `ff…ff` to `00…00` as SP 800-38A and RFC 4344 define it; only
/// after 2^128 − 1 blocks of keystream would a counter value repeat, and a call that would
/// go past that returns `Err(CounterExhausted)` without touching its data.
///
/// ```
/// use simdcrypt::aes::{Aes128, Ctr};
///
/// // SP 800-38A F.5.1, first block.
/// let key = [0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
///            0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c];
/// let iv = [0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
///           0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff];
/// let mut data = [0x6b, 0xc1, 0xbe, 0xe2, 0x2e, 0x40, 0x9f, 0x96,
///                 0xe9, 0x3d, 0x7e, 0x11, 0x73, 0x93, 0x17, 0x2a];
/// Ctr::new(Aes128::new(&key), &iv).apply_keystream(&mut data)?;
/// assert_eq!(data[..4], [0x87, 0x4d, 0x61, 0x91]);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct Ctr<C: BlockCipher> {
    cipher: C,
    /// The counter block of keystream block 0 (for [`Ctr::set_position`]).
    iv: [u8; 16],
    /// The counter block of the next whole block of keystream.
    ctr: [u8; 16],
    /// Keystream of the block before `ctr`; bytes `pos..16` are unused.
    ks: [u8; 16],
    pos: usize,
    /// Whole blocks of keystream that may still be generated (2^128 − 1 at the start).
    left: u128,
}

impl<C: BlockCipher> Ctr<C> {
    /// Starts the keystream at counter block `iv`.
    pub fn new(cipher: C, iv: &[u8; 16]) -> Self {
        Ctr {
            cipher,
            iv: *iv,
            ctr: *iv,
            ks: [0; 16],
            pos: 16,
            left: u128::MAX,
        }
    }

    /// XORs the next `data.len()` bytes of keystream into `data`.
    #[inline]
    pub fn apply_keystream(&mut self, data: &mut [u8]) -> Result<(), Error> {
        // The common case — no keystream left over, whole blocks (e.g. every SSH packet, or
        // a 16-byte message) — goes straight to the kernel.
        if self.pos == 16 && data.len() % 16 == 0 {
            let blocks = (data.len() / 16) as u128;
            if blocks > self.left {
                return Err(Error::CounterExhausted);
            }
            self.left -= blocks;
            self.cipher.cipher().ctr(&mut self.ctr, data);
            return Ok(());
        }
        self.apply_unaligned(data)
    }

    /// [`Self::apply_keystream`] when keystream is buffered or `data` ends mid-block.
    fn apply_unaligned(&mut self, data: &mut [u8]) -> Result<(), Error> {
        // Whole blocks needed beyond the buffered keystream.
        let buffered = 16 - self.pos;
        let need = (data.len().saturating_sub(buffered) as u128).div_ceil(16);
        if need > self.left {
            return Err(Error::CounterExhausted);
        }
        let mut data = data;
        // 1. What is left of the buffered block.
        let n = buffered.min(data.len());
        for (d, k) in data[..n].iter_mut().zip(&self.ks[self.pos..]) {
            *d ^= k;
        }
        self.pos += n;
        data = &mut data[n..];
        if data.is_empty() {
            return Ok(());
        }
        // 2. Whole blocks, straight through the kernel.
        let cipher = self.cipher.cipher();
        let whole = data.len() & !15;
        let (body, tail) = data.split_at_mut(whole);
        if !body.is_empty() {
            cipher.ctr(&mut self.ctr, body);
            self.left -= (whole / 16) as u128;
        }
        // 3. A partial block: generate one keystream block, keep the rest.
        if !tail.is_empty() {
            self.ks = [0; 16];
            cipher.ctr(&mut self.ctr, &mut self.ks);
            self.left -= 1;
            for (d, k) in tail.iter_mut().zip(&self.ks) {
                *d ^= k;
            }
            self.pos = tail.len();
        }
        Ok(())
    }

    /// Like [`Self::apply_keystream`], reading `input` and writing `output`, which must have
    /// the same length (`Err(InvalidLength)` otherwise, with nothing written).
    pub fn apply_keystream_b2b(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        if input.len() != output.len() {
            return Err(Error::InvalidLength);
        }
        output.copy_from_slice(input);
        let r = self.apply_keystream(output);
        if r.is_err() {
            output.fill(0);
        }
        r
    }

    /// Whether the next `len` bytes of keystream exist, i.e. whether
    /// [`Self::apply_keystream`] on `len` bytes would succeed rather than return
    /// `Err(CounterExhausted)`.
    ///
    /// ```
    /// use simdcrypt::aes::{Aes128, Ctr};
    ///
    /// let ctr = Ctr::new(Aes128::new(&[0; 16]), &[0; 16]);
    /// assert!(ctr.has_keystream(usize::MAX)); // 2^128 - 1 blocks per key and IV
    /// ```
    pub fn has_keystream(&self, len: usize) -> bool {
        let buffered = 16 - self.pos;
        (len.saturating_sub(buffered) as u128).div_ceil(16) <= self.left
    }

    /// The counter block of the next whole keystream block (public information: the IV
    /// advanced by the blocks used so far).
    pub fn counter(&self) -> [u8; 16] {
        self.ctr
    }

    /// Where the keystream stands: `(block, byte)`, the next byte of keystream is byte
    /// `byte` (0..16) of block `block`, i.e. `16 * block + byte` bytes from the start (block 0
    /// is the IV). Positions are public: the IV and how much was used.
    ///
    /// ```
    /// use simdcrypt::aes::{Aes128, Ctr};
    ///
    /// let mut ctr = Ctr::new(Aes128::new(&[0; 16]), &[0; 16]);
    /// ctr.apply_keystream(&mut [0; 40])?;
    /// assert_eq!(ctr.position(), (2, 8));
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn position(&self) -> (u128, u8) {
        // Blocks generated so far; the last one is partly unused when `pos < 16`.
        let used = u128::MAX - self.left;
        if self.pos == 16 {
            (used, 0)
        } else {
            (used - 1, self.pos as u8)
        }
    }

    /// Moves the keystream to byte `byte` of block `block` (see [`Self::position`]), forward
    /// or back: random access into a CTR-encrypted file. The keystream has 2^128 − 1 blocks,
    /// so the last position is `(u128::MAX, 0)` (nothing left); a position past it is
    /// `Err(CounterExhausted)` and `byte >= 16` is `Err(InvalidLength)`, both leaving the
    /// stream where it was.
    ///
    /// ```
    /// use simdcrypt::aes::{Aes128, Ctr};
    ///
    /// let key = Aes128::new(&[7; 16]);
    /// let mut whole = [0u8; 100];
    /// Ctr::new(key.clone(), &[9; 16]).apply_keystream(&mut whole)?;
    ///
    /// let mut ctr = Ctr::new(key, &[9; 16]);
    /// ctr.set_position(3, 5)?; // byte 53
    /// let mut part = [0u8; 47];
    /// ctr.apply_keystream(&mut part)?;
    /// assert_eq!(part, whole[53..]);
    /// assert!(ctr.set_position(0, 16).is_err());
    /// # Ok::<(), simdcrypt::Error>(())
    /// ```
    pub fn set_position(&mut self, block: u128, byte: u8) -> Result<(), Error> {
        if byte >= 16 {
            return Err(Error::InvalidLength);
        }
        if block == u128::MAX && byte != 0 {
            return Err(Error::CounterExhausted);
        }
        let mut ctr = self.iv;
        super::ctr_add(&mut ctr, block);
        self.ctr = ctr;
        self.left = u128::MAX - block;
        crate::wipe::wipe(&mut self.ks);
        self.pos = 16;
        if byte != 0 {
            // The block the position is in, buffered; its first `byte` bytes are skipped.
            let mut ks = [0u8; 16];
            self.cipher.cipher().ctr(&mut self.ctr, &mut ks);
            self.ks = ks;
            crate::wipe::wipe(&mut ks);
            self.left -= 1;
            self.pos = usize::from(byte);
        }
        Ok(())
    }

    /// The kernel this key uses.
    pub fn backend(&self) -> &'static str {
        self.cipher.backend()
    }
}

impl<C: BlockCipher> Drop for Ctr<C> {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.ks);
    }
}

impl<C: BlockCipher> core::fmt::Debug for Ctr<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Ctr")
            .field("backend", &self.backend())
            .finish()
    }
}
