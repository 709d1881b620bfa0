//! The AES-GCM key types of `simdcrypt::aead` behind one trait, and the loop that runs a test
//! on every AES-GCM backend the machine has (house rule 7).
//!
//! An AES-GCM backend is a pair of kernels, named `"<aes>+<ghash>"` (e.g. `"aes-ni+clmul"`).
//! `backends()` walks pairs until every AES kernel and every GHASH kernel the CPU supports
//! has appeared in at least one of them; the coverage check ([`super::check_coverage`])
//! checks each half against [`super::expected_backends`].

use simdcrypt::Error;
use simdcrypt::aead::{Aes128Gcm, Aes192Gcm, Aes256Gcm, AesGcmKey, GcmShortTag};
use simdcrypt::cpu::Features;

/// An AES-GCM key type with the inherent functions the tests need.
pub trait Gcm: AesGcmKey + 'static {
    /// The primitive's name for coverage reports (`"aes128-gcm"`, ...).
    const NAME: &'static str;
    /// Key length in bytes.
    const KEY_LEN: usize;
    /// `G::backends(features)`.
    fn backends(features: Features) -> Vec<(&'static str, Features)>;
    /// `G::backend_for(features)`.
    fn backend_for(features: Features) -> &'static str;
    /// `G::new_with(features, key)`; panics unless `key.len() == G::KEY_LEN`.
    fn with(features: Features, key: &[u8]) -> Self;
    /// `G::new(key)` (best kernels, `SIMDCRYPT_DISABLE` applied); panics on a wrong length.
    fn new_default(key: &[u8]) -> Self;
    /// `backend()`.
    fn backend(&self) -> &'static str;
    /// `seal_in_place_detached`.
    fn seal_in_place_detached(
        &self,
        nonce: &[u8; 12],
        aad: &[u8],
        in_out: &mut [u8],
    ) -> Result<[u8; 16], Error>;
    /// `open_in_place_detached`.
    fn open_in_place_detached(
        &self,
        nonce: &[u8; 12],
        aad: &[u8],
        in_out: &mut [u8],
        tag: &[u8; 16],
    ) -> Result<(), Error>;
    /// `seal` (ciphertext ‖ tag).
    fn seal(&self, nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Result<Vec<u8>, Error>;
    /// `open` (of ciphertext ‖ tag).
    fn open(&self, nonce: &[u8; 12], aad: &[u8], ct_and_tag: &[u8]) -> Result<Vec<u8>, Error>;
    /// `seal_detached_with_iv` (any IV length) for 16-byte tags, `GcmShortTag<G, N>` for a
    /// tag of `N = tag.len()` bytes (the type the caller would choose up front); `Err` for a
    /// length neither takes.
    fn seal_detached_with_iv(
        &self,
        iv: &[u8],
        aad: &[u8],
        in_out: &mut [u8],
        tag: &mut [u8],
    ) -> Result<(), Error>;
    /// `open_detached_with_iv`, or `GcmShortTag<G, N>`'s, as for `seal_detached_with_iv`.
    fn open_detached_with_iv(
        &self,
        iv: &[u8],
        aad: &[u8],
        in_out: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error>;
}

/// `GcmShortTag<G, N>` for `N = tag.len()`, as a caller that fixed `N` up front would use it.
fn seal_short<G: AesGcmKey>(
    g: &G,
    iv: &[u8],
    aad: &[u8],
    in_out: &mut [u8],
    tag: &mut [u8],
) -> Result<(), Error> {
    fn one<G: AesGcmKey, const N: usize>(
        g: &G,
        iv: &[u8],
        aad: &[u8],
        in_out: &mut [u8],
        tag: &mut [u8],
    ) -> Result<(), Error> {
        let t = GcmShortTag::<G, N>::from_key(g.clone()).seal_detached_with_iv(iv, aad, in_out)?;
        tag.copy_from_slice(&t);
        Ok(())
    }
    match tag.len() {
        15 => one::<G, 15>(g, iv, aad, in_out, tag),
        14 => one::<G, 14>(g, iv, aad, in_out, tag),
        13 => one::<G, 13>(g, iv, aad, in_out, tag),
        12 => one::<G, 12>(g, iv, aad, in_out, tag),
        8 => one::<G, 8>(g, iv, aad, in_out, tag),
        4 => one::<G, 4>(g, iv, aad, in_out, tag),
        _ => Err(Error::InvalidLength),
    }
}

/// The opening half of [`seal_short`].
fn open_short<G: AesGcmKey>(
    g: &G,
    iv: &[u8],
    aad: &[u8],
    in_out: &mut [u8],
    tag: &[u8],
) -> Result<(), Error> {
    fn one<G: AesGcmKey, const N: usize>(
        g: &G,
        iv: &[u8],
        aad: &[u8],
        in_out: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        let t: &[u8; N] = tag.try_into().map_err(|_| Error::InvalidLength)?;
        GcmShortTag::<G, N>::from_key(g.clone()).open_detached_with_iv(iv, aad, in_out, t)
    }
    match tag.len() {
        15 => one::<G, 15>(g, iv, aad, in_out, tag),
        14 => one::<G, 14>(g, iv, aad, in_out, tag),
        13 => one::<G, 13>(g, iv, aad, in_out, tag),
        12 => one::<G, 12>(g, iv, aad, in_out, tag),
        8 => one::<G, 8>(g, iv, aad, in_out, tag),
        4 => one::<G, 4>(g, iv, aad, in_out, tag),
        _ => {
            in_out.fill(0);
            Err(Error::InvalidLength)
        }
    }
}

macro_rules! gcm {
    ($($t:ident => $name:literal, $len:literal),* $(,)?) => {$(
        impl Gcm for $t {
            const NAME: &'static str = $name;
            const KEY_LEN: usize = $len;
            fn backends(features: Features) -> Vec<(&'static str, Features)> {
                $t::backends(features).collect()
            }
            fn backend_for(features: Features) -> &'static str {
                $t::backend_for(features)
            }
            fn with(features: Features, key: &[u8]) -> Self {
                let key: &[u8; $len] = key.try_into().unwrap_or_else(|_| {
                    panic!("{}: key of {} bytes", $name, key.len())
                });
                $t::new_with(features, key)
            }
            fn new_default(key: &[u8]) -> Self {
                let key: &[u8; $len] = key.try_into().unwrap_or_else(|_| {
                    panic!("{}: key of {} bytes", $name, key.len())
                });
                $t::new(key)
            }
            fn backend(&self) -> &'static str {
                $t::backend(self)
            }
            fn seal_in_place_detached(
                &self,
                nonce: &[u8; 12],
                aad: &[u8],
                in_out: &mut [u8],
            ) -> Result<[u8; 16], Error> {
                $t::seal_in_place_detached(self, nonce, aad, in_out)
            }
            fn open_in_place_detached(
                &self,
                nonce: &[u8; 12],
                aad: &[u8],
                in_out: &mut [u8],
                tag: &[u8; 16],
            ) -> Result<(), Error> {
                $t::open_in_place_detached(self, nonce, aad, in_out, tag)
            }
            fn seal(&self, nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Result<Vec<u8>, Error> {
                $t::seal(self, nonce, aad, pt)
            }
            fn open(
                &self,
                nonce: &[u8; 12],
                aad: &[u8],
                ct_and_tag: &[u8],
            ) -> Result<Vec<u8>, Error> {
                $t::open(self, nonce, aad, ct_and_tag)
            }
            fn seal_detached_with_iv(
                &self,
                iv: &[u8],
                aad: &[u8],
                in_out: &mut [u8],
                tag: &mut [u8],
            ) -> Result<(), Error> {
                if let Ok(t) = <&mut [u8; 16]>::try_from(&mut *tag) {
                    *t = $t::seal_detached_with_iv(self, iv, aad, in_out)?;
                    return Ok(());
                }
                seal_short(self, iv, aad, in_out, tag)
            }
            fn open_detached_with_iv(
                &self,
                iv: &[u8],
                aad: &[u8],
                in_out: &mut [u8],
                tag: &[u8],
            ) -> Result<(), Error> {
                if let Ok(t) = <&[u8; 16]>::try_from(tag) {
                    return $t::open_detached_with_iv(self, iv, aad, in_out, t);
                }
                open_short(self, iv, aad, in_out, tag)
            }
        }
    )*};
}

gcm! {
    Aes128Gcm => "aes128-gcm", 16,
    Aes192Gcm => "aes192-gcm", 24,
    Aes256Gcm => "aes256-gcm", 32,
}

/// Calls `f::<G>()` on each of the three AES-GCM key sizes.
#[macro_export]
macro_rules! for_each_gcm {
    ($f:ident) => {{
        use simdcrypt::aead::*;
        $f::<Aes128Gcm>();
        $f::<Aes192Gcm>();
        $f::<Aes256Gcm>();
    }};
}

/// Runs `f(name, features)` once for every AES-GCM backend of `G` reachable from
/// `Features::detect()` (best first, the portable pair last), where `G::with(features, key)`
/// picks that backend; then checks that every AES kernel and every GHASH kernel the CPU
/// supports ran in some pair, and panics otherwise.
pub fn for_each_gcm_backend<G: Gcm>(f: impl FnMut(&'static str, Features)) {
    let key = vec![0u8; G::KEY_LEN];
    super::run_on_backends(
        G::NAME,
        G::backends(Features::detect()),
        |features| G::with(features, &key).backend(),
        f,
    );
}
