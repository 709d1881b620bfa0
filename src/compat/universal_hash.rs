//! `universal-hash` 0.6 on Poly1305: see [`crate::compat`].
//!
//! GHASH has no public type in simdcrypt (it exists only inside AES-GCM), so Poly1305 is the
//! one universal hash here.

use ::universal_hash::array::Array;
use ::universal_hash::common::{BlockSizeUser, KeySizeUser, ParBlocksSizeUser};
use ::universal_hash::consts::{U4, U16, U32};
use ::universal_hash::{Block, Key, KeyInit, ParBlocks, UhfBackend, UhfClosure, UniversalHash};

use crate::poly1305::Poly1305;

impl KeySizeUser for Poly1305 {
    type KeySize = U32;
}

impl KeyInit for Poly1305 {
    #[inline]
    fn new(key: &Key<Self>) -> Self {
        Poly1305::new(key.as_ref())
    }
}

impl BlockSizeUser for Poly1305 {
    type BlockSize = U16;
}

/// The MAC as a `universal-hash` backend: whole 16-byte blocks into [`Poly1305::update`].
struct Backend<'a>(&'a mut Poly1305);

impl BlockSizeUser for Backend<'_> {
    type BlockSize = U16;
}

impl ParBlocksSizeUser for Backend<'_> {
    type ParBlocksSize = U4;
}

impl UhfBackend for Backend<'_> {
    #[inline]
    fn proc_block(&mut self, block: &Block<Self>) {
        self.0.update(block)
    }
    #[inline]
    fn proc_par_blocks(&mut self, blocks: &ParBlocks<Self>) {
        self.0.update(Array::slice_as_flattened(blocks))
    }
}

/// The `universal-hash` trait. Its methods feed whole 16-byte blocks (`update_padded` pads
/// the last one with zeros, as RFC 8439 §2.8 does for the AEAD), so mixing them with the
/// inherent [`Poly1305::update`] is consistent only if that was given whole blocks too.
///
/// ```
/// use universal_hash::{KeyInit, UniversalHash};
/// use simdcrypt::poly1305::Poly1305;
///
/// let key = [3u8; 32];
/// let mut u = <Poly1305 as KeyInit>::new(&key.into());
/// u.update_padded(b"twenty bytes of data");
/// let mut p = Poly1305::new(&key);
/// p.update(b"twenty bytes of data");
/// p.update(&[0; 12]);
/// assert_eq!(UniversalHash::finalize(u)[..], p.finalize());
/// ```
impl UniversalHash for Poly1305 {
    #[inline]
    fn update_with_backend(&mut self, f: impl UhfClosure<BlockSize = U16>) {
        f.call(&mut Backend(self))
    }

    #[inline]
    fn update(&mut self, blocks: &[Block<Self>]) {
        Poly1305::update(self, Array::slice_as_flattened(blocks))
    }

    #[inline]
    fn update_padded(&mut self, data: &[u8]) {
        Poly1305::update(self, data);
        let rem = data.len() % 16;
        if rem != 0 {
            Poly1305::update(self, &[0u8; 16][rem..]);
        }
    }

    #[inline]
    fn finalize(self) -> Block<Self> {
        Poly1305::finalize(self).into()
    }
}
