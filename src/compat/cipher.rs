//! `cipher` 0.5 on AES, AES-CTR and ChaCha20: see [`crate::compat`].
//!
//! The block-cipher traits drive a cipher through a backend closure; the backend here hands
//! every batch of blocks to the key's kernel in one call, and the provided in-place methods
//! are overridden to call `encrypt_blocks`/`decrypt_blocks` directly.

use ::cipher::array::Array;
use ::cipher::consts::{U8, U12, U16, U24, U32};
use ::cipher::inout::{InOut, InOutBuf};
use ::cipher::{
    Block, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherDecrypt, BlockCipherEncBackend,
    BlockCipherEncClosure, BlockCipherEncrypt, BlockSizeUser, Iv, IvSizeUser, Key, KeyInit,
    KeyIvInit, KeySizeUser, OverflowError, ParBlocks, ParBlocksSizeUser, SeekNum, StreamCipher,
    StreamCipherError, StreamCipherSeek,
};

use crate::aes::{Aes128, Aes192, Aes256, Ctr};
use crate::chacha20::ChaCha20;

/// The three AES key types, as the backends below use them.
trait Blocks {
    fn enc(&self, blocks: &mut [[u8; 16]]);
    fn dec(&self, blocks: &mut [[u8; 16]]);
}

/// The kernel as a `cipher` backend: `ParBlocksSize` blocks per call, in one kernel call.
struct Backend<'a, C>(&'a C);

impl<C> BlockSizeUser for Backend<'_, C> {
    type BlockSize = U16;
}

impl<C> ParBlocksSizeUser for Backend<'_, C> {
    type ParBlocksSize = U8;
}

impl<C: Blocks> BlockCipherEncBackend for Backend<'_, C> {
    #[inline]
    fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        self.0.enc(core::slice::from_mut(
            block.into_out_with_copied_in().as_mut(),
        ));
    }
    #[inline]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        let out = blocks.into_out_with_copied_in();
        self.0
            .enc(Array::cast_slice_to_core_mut(out.as_mut_slice()));
    }
    #[inline]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        self.0.enc(Array::cast_slice_to_core_mut(
            blocks.into_out_with_copied_in(),
        ));
    }
}

impl<C: Blocks> BlockCipherDecBackend for Backend<'_, C> {
    #[inline]
    fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
        self.0.dec(core::slice::from_mut(
            block.into_out_with_copied_in().as_mut(),
        ));
    }
    #[inline]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        let out = blocks.into_out_with_copied_in();
        self.0
            .dec(Array::cast_slice_to_core_mut(out.as_mut_slice()));
    }
    #[inline]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
        self.0.dec(Array::cast_slice_to_core_mut(
            blocks.into_out_with_copied_in(),
        ));
    }
}

macro_rules! block_impls {
    ($name:ident, $key:ty, $len:literal) => {
        impl Blocks for $name {
            #[inline]
            fn enc(&self, blocks: &mut [[u8; 16]]) {
                $name::encrypt_blocks(self, blocks)
            }
            #[inline]
            fn dec(&self, blocks: &mut [[u8; 16]]) {
                $name::decrypt_blocks(self, blocks)
            }
        }

        impl KeySizeUser for $name {
            type KeySize = $key;
        }

        impl KeyInit for $name {
            #[inline]
            fn new(key: &Key<Self>) -> Self {
                $name::new(key.as_ref())
            }
        }

        impl BlockSizeUser for $name {
            type BlockSize = U16;
        }

        /// The `cipher` block-cipher traits.
        ///
        /// ```
        /// use cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
        #[doc = concat!("use simdcrypt::aes::", stringify!($name), ";")]
        ///
        #[doc = concat!("let aes = <", stringify!($name), " as KeyInit>::new_from_slice(&[1; ", $len, "]).unwrap();")]
        /// let mut blocks = [Array::from([5u8; 16]); 3];
        /// BlockCipherEncrypt::encrypt_blocks(&aes, &mut blocks); // the trait's, on `Array`s
        /// let mut one = [5u8; 16];
        /// aes.encrypt_block(&mut one); // the inherent method
        /// assert_eq!(blocks[2], Array::from(one));
        /// BlockCipherDecrypt::decrypt_blocks(&aes, &mut blocks);
        /// assert_eq!(blocks, [Array::from([5u8; 16]); 3]);
        /// ```
        impl BlockCipherEncrypt for $name {
            #[inline]
            fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = U16>) {
                f.call(&Backend(self))
            }
            #[inline]
            fn encrypt_block(&self, block: &mut Block<Self>) {
                $name::encrypt_block(self, block.as_mut())
            }
            #[inline]
            fn encrypt_blocks(&self, blocks: &mut [Block<Self>]) {
                $name::encrypt_blocks(self, Array::cast_slice_to_core_mut(blocks))
            }
        }

        impl BlockCipherDecrypt for $name {
            #[inline]
            fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = U16>) {
                f.call(&Backend(self))
            }
            #[inline]
            fn decrypt_block(&self, block: &mut Block<Self>) {
                $name::decrypt_block(self, block.as_mut())
            }
            #[inline]
            fn decrypt_blocks(&self, blocks: &mut [Block<Self>]) {
                $name::decrypt_blocks(self, Array::cast_slice_to_core_mut(blocks))
            }
        }

        impl KeySizeUser for Ctr<$name> {
            type KeySize = $key;
        }

        impl IvSizeUser for Ctr<$name> {
            type IvSize = U16;
        }

        /// CTR with the whole IV as a 128-bit big-endian counter, like RustCrypto's
        /// `ctr::Ctr128BE`.
        ///
        /// ```
        /// use cipher::{KeyIvInit, StreamCipher};
        #[doc = concat!("use simdcrypt::aes::{", stringify!($name), ", Ctr};")]
        ///
        #[doc = concat!("let mut c = Ctr::<", stringify!($name), ">::new_from_slices(&[1; ", $len, "], &[2; 16]).unwrap();")]
        /// let mut data = [0u8; 40];
        /// StreamCipher::apply_keystream(&mut c, &mut data[..7]);
        /// StreamCipher::apply_keystream(&mut c, &mut data[7..]);
        #[doc = concat!("let mut same = Ctr::new(", stringify!($name), "::new(&[1; ", $len, "]), &[2; 16]);")]
        /// let mut want = [0u8; 40];
        /// same.apply_keystream_b2b(&[0; 40], &mut want)?;
        /// assert_eq!(data, want);
        /// # Ok::<(), simdcrypt::Error>(())
        /// ```
        impl KeyIvInit for Ctr<$name> {
            #[inline]
            fn new(key: &Key<Self>, iv: &Iv<Self>) -> Self {
                Ctr::new($name::new(key.as_ref()), iv.as_ref())
            }
        }
    };
}

block_impls!(Aes128, U16, "16");
block_impls!(Aes192, U24, "24");
block_impls!(Aes256, U32, "32");

/// The end of the keystream in a method the trait calls only after `check_remaining`: a
/// caller that skipped the check gets the panic the trait documents, never unencrypted data.
#[cold]
#[track_caller]
fn exhausted() -> ! {
    panic!("stream cipher: end of keystream")
}

impl<C: crate::aes::BlockCipher> StreamCipher for Ctr<C> {
    #[inline]
    fn check_remaining(&self, data_len: usize) -> Result<(), StreamCipherError> {
        if self.has_keystream(data_len) {
            Ok(())
        } else {
            Err(StreamCipherError)
        }
    }

    #[inline]
    fn unchecked_apply_keystream_inout(&mut self, buf: InOutBuf<'_, '_, u8>) {
        if self.apply_keystream(buf.into_out_with_copied_in()).is_err() {
            exhausted()
        }
    }

    #[inline]
    fn unchecked_write_keystream(&mut self, buf: &mut [u8]) {
        buf.fill(0);
        if self.apply_keystream(buf).is_err() {
            exhausted()
        }
    }
}

impl KeySizeUser for ChaCha20 {
    type KeySize = U32;
}

impl IvSizeUser for ChaCha20 {
    type IvSize = U12;
}

/// RFC 8439 ChaCha20 with a 96-bit nonce as the IV and the block counter starting at 0, like
/// RustCrypto's `chacha20::ChaCha20`.
///
/// ```
/// use cipher::{KeyIvInit, StreamCipher};
/// use simdcrypt::chacha20::ChaCha20;
///
/// let mut c = <ChaCha20 as KeyIvInit>::new(&[1; 32].into(), &[2; 12].into());
/// let mut data = [0u8; 100];
/// StreamCipher::apply_keystream(&mut c, &mut data);
/// let mut want = [0u8; 100];
/// ChaCha20::new(&[1; 32], &[2; 12], 0).apply_keystream(&mut want)?;
/// assert_eq!(data, want);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
impl KeyIvInit for ChaCha20 {
    #[inline]
    fn new(key: &Key<Self>, iv: &Iv<Self>) -> Self {
        ChaCha20::new(key.as_ref(), iv.as_ref(), 0)
    }
}

/// Keystream through `apply_keystream`; the 2^32-block limit per nonce through
/// `check_remaining`.
///
/// ```
/// use cipher::StreamCipher;
/// use simdcrypt::chacha20::ChaCha20;
///
/// let mut c = ChaCha20::new(&[1; 32], &[2; 12], u32::MAX); // one block left
/// assert!(StreamCipher::try_apply_keystream(&mut c, &mut [0; 65]).is_err());
/// assert!(StreamCipher::try_apply_keystream(&mut c, &mut [0; 64]).is_ok());
/// ```
impl StreamCipher for ChaCha20 {
    #[inline]
    fn check_remaining(&self, data_len: usize) -> Result<(), StreamCipherError> {
        if self.has_keystream(data_len) {
            Ok(())
        } else {
            Err(StreamCipherError)
        }
    }

    #[inline]
    fn unchecked_apply_keystream_inout(&mut self, buf: InOutBuf<'_, '_, u8>) {
        if self.apply_keystream(buf.into_out_with_copied_in()).is_err() {
            exhausted()
        }
    }

    #[inline]
    fn unchecked_write_keystream(&mut self, buf: &mut [u8]) {
        buf.fill(0);
        if self.apply_keystream(buf).is_err() {
            exhausted()
        }
    }
}

/// A `(block, byte)` position of [`Ctr::position`] or [`ChaCha20::position`] as a byte count
/// of type `T` (`bs` = block size): `OverflowError` if `T` (or `u128`) cannot hold it.
fn pos_as<T: SeekNum>((block, byte): (u128, u8), bs: u8) -> Result<T, OverflowError> {
    let bytes = block
        .checked_mul(u128::from(bs))
        .and_then(|b| b.checked_add(u128::from(byte)))
        .ok_or(OverflowError)?;
    // With a block size of 1, `from_block_byte(n, 1, 1)` is n itself, converted with a check.
    T::from_block_byte(bytes, 1, 1)
}

/// A byte count of type `T` as `(block, byte)` for `set_position` (`bs` = block size).
///
/// `cipher`'s own `into_block_byte(bs)` panics on a negative `i32` (its remainder does not
/// fit a `u8`); with a block size of 1 the remainder is always 0 and a negative count is an
/// `OverflowError`, so the split is done here instead.
fn pos_from<T: SeekNum>(pos: T, bs: u8) -> Result<(u128, u8), StreamCipherError> {
    let (bytes, _) = pos.into_block_byte::<u128>(1)?;
    let bs = u128::from(bs);
    Ok((bytes / bs, (bytes % bs) as u8))
}

/// Byte positions from the IV (block 0 is the IV itself), like RustCrypto's `ctr`; through
/// [`Ctr::position`] and [`Ctr::set_position`]. A position past the keystream's 2^128 − 1 blocks is
/// `Err` from `try_seek`, and so is a negative `i32`.
///
/// ```
/// use cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
/// use simdcrypt::aes::{Aes128, Ctr};
///
/// let mut whole = [0u8; 64];
/// let mut c = <Ctr<Aes128> as KeyIvInit>::new(&[1; 16].into(), &[2; 16].into());
/// StreamCipher::apply_keystream(&mut c, &mut whole);
/// assert_eq!(c.current_pos::<u64>(), 64);
///
/// c.seek(21u32);
/// let mut part = [0u8; 43];
/// StreamCipher::apply_keystream(&mut c, &mut part);
/// assert_eq!(part, whole[21..]);
/// ```
impl<C: crate::aes::BlockCipher> StreamCipherSeek for Ctr<C> {
    fn try_current_pos<T: SeekNum>(&self) -> Result<T, OverflowError> {
        pos_as(self.position(), 16)
    }

    fn try_seek<T: SeekNum>(&mut self, pos: T) -> Result<(), StreamCipherError> {
        let (block, byte) = pos_from(pos, 16)?;
        self.set_position(block, byte)
            .map_err(|_| StreamCipherError)
    }
}

/// Byte positions counted from block 0 of the block counter, like RustCrypto's `chacha20`;
/// through [`ChaCha20::position`] and [`ChaCha20::set_position`]. The RFC 8439 keystream ends at byte
/// 2^38 (2^32 blocks): `try_seek` past it is `Err`, and so is a negative `i32`.
///
/// ```
/// use cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
/// use simdcrypt::chacha20::ChaCha20;
///
/// let mut c = <ChaCha20 as KeyIvInit>::new(&[1; 32].into(), &[2; 12].into());
/// let mut whole = [0u8; 200];
/// StreamCipher::apply_keystream(&mut c, &mut whole);
/// c.seek(130u64);
/// let mut part = [0u8; 70];
/// StreamCipher::apply_keystream(&mut c, &mut part);
/// assert_eq!(part, whole[130..]);
/// assert!(c.try_seek(1u64 << 38).is_ok());
/// assert!(c.try_seek((1u64 << 38) + 1).is_err());
/// ```
impl StreamCipherSeek for ChaCha20 {
    fn try_current_pos<T: SeekNum>(&self) -> Result<T, OverflowError> {
        pos_as(self.position(), 64)
    }

    fn try_seek<T: SeekNum>(&mut self, pos: T) -> Result<(), StreamCipherError> {
        let (block, byte) = pos_from(pos, 64)?;
        self.set_position(block, byte)
            .map_err(|_| StreamCipherError)
    }
}
