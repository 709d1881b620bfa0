//! SHA-256 and SHA-384 as rustls [`crypto::hash::Hash`] providers.

use alloc::boxed::Box;
use core::marker::PhantomData;

use rustls::crypto;
use rustls::crypto::hash::HashAlgorithm;
use simdcrypt::sha::{Digest, Sha256, Sha384};

/// A SHA-2 hash rustls can use: simdcrypt's hasher plus the name rustls gives it.
pub(crate) trait Sha2: Digest + Send + Sync + 'static {
    /// rustls's name for the hash.
    const ALGORITHM: HashAlgorithm;
    /// A fresh hasher with the best kernel for this CPU.
    fn fresh() -> Self;
}

impl Sha2 for Sha256 {
    const ALGORITHM: HashAlgorithm = HashAlgorithm::SHA256;
    fn fresh() -> Self {
        Sha256::new()
    }
}

impl Sha2 for Sha384 {
    const ALGORITHM: HashAlgorithm = HashAlgorithm::SHA384;
    fn fresh() -> Self {
        Sha384::new()
    }
}

/// A rustls hash provider on simdcrypt's SHA-2.
///
/// Use the statics [`SHA256`] and [`SHA384`].
pub struct Hash<H>(PhantomData<fn() -> H>);

/// SHA-256 (simdcrypt's SHA-NI / AVX2 / ARMv8 kernels, chosen at run time).
///
/// ```
/// use rustls::crypto::hash::Hash as _;
/// let d = rustls_simdcrypt::hash::SHA256.hash(b"abc");
/// assert_eq!(&d.as_ref()[..4], &[0xba, 0x78, 0x16, 0xbf]);
/// ```
pub static SHA256: Hash<Sha256> = Hash(PhantomData);

/// SHA-384.
///
/// ```
/// use rustls::crypto::hash::Hash as _;
/// let d = rustls_simdcrypt::hash::SHA384.hash(b"abc");
/// assert_eq!(&d.as_ref()[..4], &[0xcb, 0x00, 0x75, 0x3f]);
/// ```
pub static SHA384: Hash<Sha384> = Hash(PhantomData);

impl<H: Sha2> crypto::hash::Hash for Hash<H> {
    fn start(&self) -> Box<dyn crypto::hash::Context> {
        Box::new(Context(H::fresh()))
    }

    fn hash(&self, data: &[u8]) -> crypto::hash::Output {
        let mut h = H::fresh();
        h.update(data);
        crypto::hash::Output::new(h.finalize().as_ref())
    }

    fn output_len(&self) -> usize {
        H::OUTPUT_LEN
    }

    fn algorithm(&self) -> HashAlgorithm {
        H::ALGORITHM
    }
}

struct Context<H>(H);

impl<H: Sha2> crypto::hash::Context for Context<H> {
    fn fork_finish(&self) -> crypto::hash::Output {
        crypto::hash::Output::new(self.0.clone().finalize().as_ref())
    }

    fn fork(&self) -> Box<dyn crypto::hash::Context> {
        Box::new(Context(self.0.clone()))
    }

    fn finish(self: Box<Self>) -> crypto::hash::Output {
        crypto::hash::Output::new(self.0.finalize().as_ref())
    }

    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
}
