//! `digest` 0.11 on the SHA hashers and on [`Hmac`]: see [`crate::compat`].
//!
//! The hashers get the traits `digest::Digest` is blanket-implemented from (`HashMarker`,
//! `Update`, `FixedOutput`, `Default`), plus `Reset` and `FixedOutputReset`; `Hmac<H>` gets
//! the ones `digest::Mac` is blanket-implemented from (`MacMarker`, `Update`, `FixedOutput`)
//! and `KeyInit`, which takes a key of any length as HMAC does.

use ::digest::common::{BlockSizeUser, InvalidLength, KeyInit, KeySizeUser};
use ::digest::consts::{U20, U28, U32, U48, U64, U128};
use ::digest::{
    FixedOutput, FixedOutputReset, HashMarker, Key, MacMarker, Output, OutputSizeUser, Reset,
    Update,
};

use crate::cpu::Features;
use crate::hmac::Hmac;
use crate::sha::{self, Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};

macro_rules! digest_impls {
    ($name:ident, $block:ty, $out:ty) => {
        /// The `digest` traits: `digest::Digest` comes from the blanket impl.
        ///
        /// ```
        /// use digest::Digest;
        #[doc = concat!("use simdcrypt::sha::", stringify!($name), ";")]
        ///
        #[doc = concat!("let d = <", stringify!($name), " as Digest>::digest(b\"abc\");")]
        #[doc = concat!("assert_eq!(d[..], ", stringify!($name), "::digest(b\"abc\"));")]
        /// ```
        impl HashMarker for $name {}

        impl BlockSizeUser for $name {
            type BlockSize = $block;
        }

        impl OutputSizeUser for $name {
            type OutputSize = $out;
        }

        impl Update for $name {
            #[inline]
            fn update(&mut self, data: &[u8]) {
                $name::update(self, data)
            }
        }

        impl FixedOutput for $name {
            #[inline]
            fn finalize_into(self, out: &mut Output<Self>) {
                *out = $name::finalize(self).into();
            }
        }

        impl Reset for $name {
            /// Restarts the hasher with the kernel it had.
            #[inline]
            fn reset(&mut self) {
                *self = fresh(self.backend(), $name::backends, $name::new_with);
            }
        }

        impl FixedOutputReset for $name {
            #[inline]
            fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
                let fresh = fresh(self.backend(), $name::backends, $name::new_with);
                *out = $name::finalize(core::mem::replace(self, fresh)).into();
            }
        }
    };
}

/// A new hasher with the kernel named `backend`: the kernel a hasher keeps through `reset`.
/// `backends` lists every kernel `Features::detect()` reaches with a feature set selecting it;
/// a kernel outside that list (a hasher made by `new_with` with features the mask has since
/// removed cannot be one: detection is fixed per process) falls back to the portable one.
fn fresh<H, I: Iterator<Item = (&'static str, Features)>>(
    backend: &'static str,
    backends: fn(Features) -> I,
    new_with: fn(Features) -> H,
) -> H {
    let features = backends(Features::detect())
        .find(|(name, _)| *name == backend)
        .map_or(Features::none(), |(_, f)| f);
    new_with(features)
}

digest_impls!(Sha1, U64, U20);
digest_impls!(Sha224, U64, U28);
digest_impls!(Sha256, U64, U32);
digest_impls!(Sha384, U128, U48);
digest_impls!(Sha512, U128, U64);
digest_impls!(Sha512_224, U128, U28);
digest_impls!(Sha512_256, U128, U32);

/// `digest::Mac` comes from the blanket impl over `Update + FixedOutput + MacMarker`.
///
/// ```
/// use digest::{KeyInit, Mac};
/// use simdcrypt::{hmac::Hmac, sha::Sha256};
///
/// let mut m = <Hmac<Sha256> as KeyInit>::new_from_slice(b"key").unwrap();
/// Mac::update(&mut m, b"The quick brown fox jumps over the lazy dog");
/// let tag = Mac::finalize(m).into_bytes();
/// let ours = Hmac::<Sha256>::mac(b"key", b"The quick brown fox jumps over the lazy dog");
/// assert_eq!(tag[..], ours.as_ref()[..]);
/// ```
impl<H: sha::Digest + OutputSizeUser> MacMarker for Hmac<H> {}

impl<H: sha::Digest + OutputSizeUser> OutputSizeUser for Hmac<H> {
    type OutputSize = H::OutputSize;
}

/// The key size HMAC is defined around: the hash's block (RFC 2104 §2); as in RustCrypto's
/// `hmac`, `new_from_slice` takes a key of any length.
impl<H: sha::Digest + OutputSizeUser + BlockSizeUser> KeySizeUser for Hmac<H> {
    type KeySize = H::BlockSize;
}

impl<H: sha::Digest + OutputSizeUser + BlockSizeUser> KeyInit for Hmac<H> {
    #[inline]
    fn new(key: &Key<Self>) -> Self {
        Hmac::new(key)
    }

    /// Any key length is valid for HMAC: never `Err`.
    #[inline]
    fn new_from_slice(key: &[u8]) -> Result<Self, InvalidLength> {
        Ok(Hmac::new(key))
    }
}

impl<H: sha::Digest + OutputSizeUser> Update for Hmac<H> {
    #[inline]
    fn update(&mut self, data: &[u8]) {
        Hmac::update(self, data)
    }
}

impl<H: sha::Digest + OutputSizeUser> FixedOutput for Hmac<H> {
    #[inline]
    fn finalize_into(self, out: &mut Output<Self>) {
        // `H::Output` is `[u8; H::OUTPUT_LEN]` and `H::OutputSize` the same length (the impls
        // above), so the lengths agree.
        out.copy_from_slice(Hmac::finalize(self).as_ref());
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use ::digest::{Digest, Mac};

    macro_rules! reset_test {
        ($($name:ident),*) => {$({
            let msg = b"reset keeps the kernel";
            let want = $name::digest(msg);
            for (kernel, features) in $name::backends(Features::detect()) {
                let mut h = $name::new_with(features);
                assert_eq!(h.backend(), kernel);
                Digest::update(&mut h, b"garbage");
                Digest::reset(&mut h);
                assert_eq!(h.backend(), kernel);
                Digest::update(&mut h, msg);
                assert_eq!(Digest::finalize_reset(&mut h)[..], want);
                assert_eq!(h.backend(), kernel);
                Digest::update(&mut h, msg);
                assert_eq!(Digest::finalize(h)[..], want);
            }
        })*};
    }

    #[test]
    fn reset_keeps_kernel_and_restarts() {
        reset_test!(Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256);
    }

    #[test]
    fn hmac_any_key_length() {
        for len in [0usize, 1, 63, 64, 65, 200] {
            let key = std::vec![0x0bu8; len];
            let m = <Hmac<Sha256> as KeyInit>::new_from_slice(&key).unwrap();
            let tag = Mac::finalize(Mac::chain_update(m, b"msg")).into_bytes();
            assert_eq!(tag[..], Hmac::<Sha256>::mac(&key, b"msg").as_ref()[..]);
        }
    }
}
