//! The algorithm registry: every algorithm the tool knows, as OpenSSL spells it, with the
//! simdcrypt implementation (or `None` while it is not implemented yet), the peers compiled
//! into this binary, and how to ask `openssl speed` for the same thing.
//!
//! Adding a primitive to simdcrypt means filling in its `simdcrypt` field: one entry, a
//! `backends` function (the crate's `X::backends(f)`) and a `make` function that builds one
//! keyed object with a given feature set.
//!
//! What one operation is, for every implementation alike (so that the rows compare):
//! - digests: hash one message from a fresh hasher (`openssl speed -evp sha256`);
//! - HMAC: the key is set up once; each operation MACs one message from that keyed state
//!   (`openssl speed -hmac sha256`);
//! - HKDF: one complete derivation: Extract with a fixed salt over the message as input key
//!   material, then Expand to 32 bytes with a fixed info (`openssl speed` has no HKDF);
//! - AEADs: one complete seal of the message with a new nonce and 13 bytes of associated data
//!   (`openssl speed -aead -evp aes-128-gcm`, the TLS-like sequence); with `-decrypt`, one
//!   complete open of an authentic ciphertext, tag checked (see [`Open`]); the OpenSSH AEAD
//!   seals one whole packet (its 4-byte length field first) under the next sequence number;
//! - CTR and CBC: the key is set up once; each operation encrypts one message in place,
//!   continuing the stream (`openssl speed -evp aes-128-ctr`). aws-lc-rs's one-shot API takes
//!   a new IV per message instead. With `-decrypt`, CBC, ECB and IGE decrypt; CTR and ChaCha20
//!   are their own inverse, so those rows do not change.

use std::hint::black_box;
use std::marker::PhantomData;

use simdcrypt::cpu::Features;

/// The digest or tag of one operation (64 bytes: the longest, SHA-512's).
pub type Out = [u8; 64];

/// One operation on one message, repeated by the measurement loop.
pub trait Op: Send {
    /// Processes `buf` (a whole message; ciphers encrypt it in place), writes the digest or
    /// tag, if the algorithm has one, to the front of `out` and returns its length.
    fn run(&mut self, buf: &mut [u8], out: &mut Out) -> usize;

    /// Called once on each fresh object with its message buffer, outside the timed region:
    /// whatever `run` needs the buffer to hold (an authentic ciphertext, for opening).
    fn prepare(&mut self, _buf: &mut [u8]) {}
}

/// Copies `v` to the front of `out`.
pub fn put(out: &mut Out, v: &[u8]) -> usize {
    out[..v.len()].copy_from_slice(v);
    v.len()
}

/// simdcrypt's implementation of an algorithm.
pub struct Simd {
    /// Every kernel reachable from a feature set, best first, each with a feature set that
    /// selects it (the crate's `backends()`).
    pub backends: fn(Features) -> Vec<(&'static str, Features)>,
    /// An object using the best kernel within the feature set.
    pub make: Box<dyn Fn(Features) -> Box<dyn Op> + Send + Sync>,
}

/// Another library, compiled in.
pub struct Peer {
    /// `ring`, `aws-lc-rs` or `rustcrypto`.
    pub name: &'static str,
    /// A keyed object ready to run.
    pub make: Box<dyn Fn() -> Box<dyn Op> + Send + Sync>,
}

/// How `openssl speed` names the same measurement.
#[derive(Clone, Copy, Debug)]
pub enum OpensslCmd {
    /// `-evp NAME`
    Evp(&'static str),
    /// `-decrypt -evp NAME`
    EvpDecrypt(&'static str),
    /// `-aead -evp NAME`
    Aead(&'static str),
    /// `-decrypt -aead -evp NAME`
    AeadDecrypt(&'static str),
    /// `-hmac DIGEST`
    Hmac(&'static str),
    /// `openssl speed` has no equivalent (OpenSSL 3.0 cannot time Poly1305 alone).
    NoEquivalent,
}

impl OpensslCmd {
    /// The arguments selecting the algorithm.
    pub fn args(self) -> Vec<&'static str> {
        match self {
            OpensslCmd::Evp(n) => vec!["-evp", n],
            OpensslCmd::EvpDecrypt(n) => vec!["-decrypt", "-evp", n],
            OpensslCmd::Aead(n) => vec!["-aead", "-evp", n],
            OpensslCmd::AeadDecrypt(n) => vec!["-decrypt", "-aead", "-evp", n],
            OpensslCmd::Hmac(n) => vec!["-hmac", n],
            OpensslCmd::NoEquivalent => vec![],
        }
    }

    /// The same with `-decrypt`.
    fn decrypting(self) -> Self {
        match self {
            OpensslCmd::Evp(n) => OpensslCmd::EvpDecrypt(n),
            OpensslCmd::Aead(n) => OpensslCmd::AeadDecrypt(n),
            other => other,
        }
    }
}

/// One row group of the table.
pub struct Algorithm {
    /// As OpenSSL spells it (`sha256`, `aes-128-gcm`, `hmac-sha256`).
    pub name: &'static str,
    /// Messages must be a multiple of this many bytes (16 for CBC, 8 for SSH packets, else 1).
    pub granule: usize,
    /// `None`: not implemented in simdcrypt yet; reported as such, never faked.
    pub simdcrypt: Option<Simd>,
    /// The compiled-in peers, measured with `--compare`.
    pub peers: Vec<Peer>,
    /// The `openssl speed` equivalent.
    pub openssl: OpensslCmd,
}

impl Algorithm {
    /// Whether a figure is operations per second, not bytes (`tls13-handshake`): measured
    /// once, not per message size, and shown apart from the table.
    pub fn counts_operations(&self) -> bool {
        self.name.ends_with("-handshake")
    }
}

/// The associated data of every AEAD measurement: 13 bytes, as in a TLS record header (and
/// as `openssl speed -aead` uses).
pub const AAD: [u8; 13] = [0x17, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/// The 96-bit nonce of the `n`th seal: distinct for every message under one key.
fn nonce(n: u64) -> [u8; 12] {
    nonce_n(n)
}

/// A nonce of any length ≥ 8 with `n` big-endian in its last 8 bytes (XChaCha20's 24 bytes).
fn nonce_n<const N: usize>(n: u64) -> [u8; N] {
    let mut b = [0u8; N];
    b[N - 8..].copy_from_slice(&n.to_be_bytes());
    b
}

// ---------------------------------------------------------------------------------------------
// simdcrypt

struct SimdDigest<H>(Features, PhantomData<fn() -> H>);

// One-shot, like the peers' `digest::digest(alg, msg)` and `D::digest(msg)`; the feature set
// was detected (and masked by `-backend`) once, when the object was made.
impl<H: simdcrypt::sha::Digest> Op for SimdDigest<H> {
    fn run(&mut self, buf: &mut [u8], out: &mut Out) -> usize {
        put(out, H::digest_with(self.0, buf).as_ref())
    }
}

struct SimdHmac<H: simdcrypt::sha::Digest>(simdcrypt::hmac::Hmac<H>);

impl<H: simdcrypt::sha::Digest + Send> Op for SimdHmac<H> {
    fn run(&mut self, buf: &mut [u8], out: &mut Out) -> usize {
        let mut m = self.0.clone();
        m.update(buf);
        put(out, m.finalize().as_ref())
    }
}

/// The HMAC key of every measurement (one hash output long, like a TLS MAC key).
const HMAC_KEY: [u8; 32] = [0x0b; 32];

macro_rules! simd_digest {
    ($h:ty) => {
        Simd {
            backends: |f| <$h>::backends(f).collect(),
            make: Box::new(|f| Box::new(SimdDigest::<$h>(f, PhantomData))),
        }
    };
}

macro_rules! simd_hmac {
    ($h:ty) => {
        Simd {
            backends: |f| <$h>::backends(f).collect(),
            make: Box::new(|f| {
                Box::new(SimdHmac(simdcrypt::hmac::Hmac::<$h>::new_with(
                    &HMAC_KEY, f,
                )))
            }),
        }
    };
}

/// The key of every cipher measurement (its first 16 or 32 bytes), and the IV: zero.
const CIPHER_KEY: [u8; 32] = [0x42; 32];

/// The cipher modes measured: encryption in place, continuing the stream or chain.
#[derive(Clone, Copy)]
pub enum ModeKind {
    Ctr,
    CbcEncrypt,
    CbcDecrypt,
    /// ECB encryption of the message's blocks (`openssl speed -evp aes-128-ecb`).
    Ecb,
    /// ECB decryption (`-decrypt`).
    EcbDecrypt,
    /// IGE encryption, chained across messages (no `openssl speed` equivalent in 3.0).
    IgeEncrypt,
    /// IGE decryption (`-decrypt`).
    IgeDecrypt,
}

impl ModeKind {
    /// What `-decrypt` measures instead.
    fn decrypting(self) -> Self {
        match self {
            ModeKind::CbcEncrypt => ModeKind::CbcDecrypt,
            ModeKind::Ecb => ModeKind::EcbDecrypt,
            ModeKind::IgeEncrypt => ModeKind::IgeDecrypt,
            // CTR is its own inverse.
            other => other,
        }
    }
}

struct SimdMode<C: simdcrypt::aes::BlockCipher> {
    kind: ModeKind,
    ctr: simdcrypt::aes::Ctr<C>,
    cbc: simdcrypt::aes::Cbc<C>,
    ige: simdcrypt::aes::Ige<C>,
    /// A key for ECB, and its `encrypt_blocks` or `decrypt_blocks` (inherent methods of each
    /// key type).
    ecb: C,
    ecb_blocks: fn(&C, &mut [[u8; 16]]),
}

impl<C: simdcrypt::aes::BlockCipher + Send> Op for SimdMode<C> {
    fn run(&mut self, buf: &mut [u8], _out: &mut Out) -> usize {
        match self.kind {
            ModeKind::Ctr => self.ctr.apply_keystream(buf).expect("keystream left"),
            ModeKind::CbcEncrypt => self.cbc.encrypt(buf).expect("whole blocks"),
            ModeKind::CbcDecrypt => self.cbc.decrypt(buf).expect("whole blocks"),
            ModeKind::IgeEncrypt => self.ige.encrypt(buf).expect("whole blocks"),
            ModeKind::IgeDecrypt => self.ige.decrypt(buf).expect("whole blocks"),
            ModeKind::Ecb | ModeKind::EcbDecrypt => {
                assert!(buf.len() % 16 == 0, "whole blocks");
                // SAFETY: `[u8; 16]` has alignment 1 and no invalid values; the slice covers
                // exactly `buf`'s bytes and `buf` is not used while it lives.
                let blocks = unsafe {
                    std::slice::from_raw_parts_mut(
                        buf.as_mut_ptr().cast::<[u8; 16]>(),
                        buf.len() / 16,
                    )
                };
                (self.ecb_blocks)(&self.ecb, blocks);
            }
        }
        0
    }
}

macro_rules! simd_mode {
    ($c:ty, $kind:expr) => {
        Simd {
            backends: |f| <$c>::backends(f).collect(),
            make: Box::new(move |f| {
                let key = CIPHER_KEY[..<$c as simdcrypt::aes::BlockCipher>::KEY_LEN]
                    .try_into()
                    .expect("key length");
                let kind = $kind;
                Box::new(SimdMode {
                    kind,
                    ctr: simdcrypt::aes::Ctr::new(<$c>::new_with(f, key), &[0; 16]),
                    cbc: simdcrypt::aes::Cbc::new(<$c>::new_with(f, key), &[0; 16]),
                    ige: simdcrypt::aes::Ige::new(<$c>::new_with(f, key), &[0; 32]),
                    ecb: <$c>::new_with(f, key),
                    ecb_blocks: if matches!(kind, ModeKind::EcbDecrypt) {
                        |c: &$c, b: &mut [[u8; 16]]| c.decrypt_blocks(b)
                    } else {
                        |c: &$c, b: &mut [[u8; 16]]| c.encrypt_blocks(b)
                    },
                })
            }),
        }
    };
}

/// One AEAD under the measurement key, as each library spells it: seal or open in place
/// under the `n`th nonce and the 13-byte [`AAD`], with a detached 16-byte tag.
pub trait AeadImpl: Send {
    /// Seals `buf` in place; returns the tag.
    fn seal(&self, n: u64, buf: &mut [u8]) -> [u8; 16];
    /// Opens `buf` in place; whether `tag` was authentic (then `buf` holds the plaintext).
    fn open(&self, n: u64, buf: &mut [u8], tag: &[u8; 16]) -> bool;
}

/// The measurement of sealing: one complete seal per operation, with a new nonce.
pub struct Seal<A> {
    aead: A,
    n: u64,
}

impl<A: AeadImpl> Op for Seal<A> {
    fn run(&mut self, buf: &mut [u8], out: &mut Out) -> usize {
        self.n += 1;
        put(out, &self.aead.seal(self.n, buf))
    }
}

/// The measurement of opening (`-decrypt`): one complete open per operation, of an authentic
/// ciphertext, tag checked; a failed open stops the run instead of counting.
///
/// No copy refreshes the ciphertext between operations: with one nonce, the keystream maps the
/// plaintext P to the ciphertext C and C back to P, so [`Op::prepare`] seals P (giving C and
/// tag T0) and C (giving P and T1), and the operations alternate between opening C with T0
/// and P with T1, each an authentic ciphertext that leaves the next one in the buffer.
/// (OpenSSL's `-decrypt -aead` times opens with a fake tag that fail at the end.)
pub struct Open<A> {
    aead: A,
    tags: [[u8; 16]; 2],
    next: usize,
}

impl<A: AeadImpl> Op for Open<A> {
    fn prepare(&mut self, buf: &mut [u8]) {
        let plain = buf.to_vec();
        let t0 = self.aead.seal(0, buf);
        let cipher = buf.to_vec();
        let mut again = cipher.clone();
        let t1 = self.aead.seal(0, &mut again);
        assert!(
            again == plain,
            "the keystream of one nonce is its own inverse"
        );
        let mut forged = t0;
        forged[0] ^= 1;
        let mut probe = cipher.clone();
        assert!(
            !self.aead.open(0, &mut probe, &forged),
            "a forged tag must not open"
        );
        // One round of the timed sequence, checked: C opens to P, P opens to C.
        assert!(
            self.aead.open(0, buf, &t0) && *buf == *plain,
            "C must open to P"
        );
        assert!(
            self.aead.open(0, buf, &t1) && *buf == *cipher,
            "P must open to C"
        );
        self.tags = [t0, t1];
        self.next = 0;
    }

    fn run(&mut self, buf: &mut [u8], out: &mut Out) -> usize {
        let tag = self.tags[self.next];
        let authentic = self.aead.open(0, buf, &tag);
        assert!(authentic, "an authentic ciphertext failed to open");
        self.next ^= 1;
        put(out, &tag)
    }
}

/// Boxes `aead` for sealing or, with `decrypt`, for opening.
fn aead_op<A: AeadImpl + 'static>(aead: A, decrypt: bool) -> Box<dyn Op> {
    if decrypt {
        Box::new(Open {
            aead,
            tags: [[0; 16]; 2],
            next: 0,
        })
    } else {
        Box::new(Seal { aead, n: 0 })
    }
}

macro_rules! simd_aead_impl {
    ($t:ty, $nonce_len:literal) => {
        impl AeadImpl for $t {
            fn seal(&self, n: u64, buf: &mut [u8]) -> [u8; 16] {
                self.seal_in_place_detached(&nonce_n::<$nonce_len>(n), &AAD, buf)
                    .expect("message within the AEAD's limits")
            }
            fn open(&self, n: u64, buf: &mut [u8], tag: &[u8; 16]) -> bool {
                self.open_in_place_detached(&nonce_n::<$nonce_len>(n), &AAD, buf, tag)
                    .is_ok()
            }
        }
    };
}
simd_aead_impl!(simdcrypt::aead::Aes128Gcm, 12);
simd_aead_impl!(simdcrypt::aead::Aes192Gcm, 12);
simd_aead_impl!(simdcrypt::aead::Aes256Gcm, 12);
simd_aead_impl!(simdcrypt::aead::ChaCha20Poly1305, 12);
simd_aead_impl!(simdcrypt::aead::XChaCha20Poly1305, 24);

/// One AEAD seal (or, with `-decrypt`, open) per operation, with the 13-byte [`AAD`], as the
/// peers do.
macro_rules! simd_aead {
    ($t:ty, $key_len:literal, $decrypt:expr) => {
        Simd {
            backends: |f| <$t>::backends(f).collect(),
            make: {
                let decrypt: bool = $decrypt;
                Box::new(move |f| {
                    let key: &[u8; $key_len] =
                        CIPHER_KEY[..$key_len].try_into().expect("key length");
                    aead_op(<$t>::new_with(f, key), decrypt)
                })
            },
        }
    };
}

/// The ChaCha20 stream (RFC 8439 layout), continued across operations as `openssl speed
/// -evp chacha20` does; a fresh nonce if the 32-bit counter ever runs out.
struct SimdChaCha20 {
    f: Features,
    c: simdcrypt::chacha20::ChaCha20,
    n: u64,
}

impl Op for SimdChaCha20 {
    fn run(&mut self, buf: &mut [u8], _out: &mut Out) -> usize {
        while self.c.apply_keystream(buf).is_err() {
            self.n += 1;
            self.c =
                simdcrypt::chacha20::ChaCha20::new_with(self.f, &CHACHA_KEY, &nonce(self.n), 0);
        }
        0
    }
}

/// One Poly1305 tag per operation (a one-time key per message in real use; the key set-up
/// is part of the cost, as it is in an AEAD).
struct SimdPoly1305(Features);

impl Op for SimdPoly1305 {
    fn run(&mut self, buf: &mut [u8], out: &mut Out) -> usize {
        let mut m = simdcrypt::poly1305::Poly1305::new_with(self.0, &CHACHA_KEY);
        m.update(buf);
        put(out, &m.finalize())
    }
}

/// The ChaCha20 and Poly1305 key of the `chacha20` and `poly1305` rows.
const CHACHA_KEY: [u8; 32] = [0x42; 32];

// ---------------------------------------------------------------------------------------------
// ring and aws-lc-rs share an API for digests, HMAC and AEADs.

macro_rules! ring_like {
    ($module:ident, $krate:ident, $open:ident) => {
        pub mod $module {
            use super::*;
            use ::$krate::{aead, digest, hmac};

            pub struct Digest(pub &'static digest::Algorithm);
            impl Op for Digest {
                fn run(&mut self, buf: &mut [u8], out: &mut Out) -> usize {
                    put(out, digest::digest(self.0, buf).as_ref())
                }
            }

            pub struct Hmac(pub hmac::Key);
            impl Hmac {
                pub fn new(alg: hmac::Algorithm) -> Self {
                    Hmac(hmac::Key::new(alg, &HMAC_KEY))
                }
            }
            impl Op for Hmac {
                fn run(&mut self, buf: &mut [u8], out: &mut Out) -> usize {
                    put(out, hmac::sign(&self.0, buf).as_ref())
                }
            }

            /// The AEAD under the measurement key.
            pub fn aead(alg: &'static aead::Algorithm) -> aead::LessSafeKey {
                let key = [0x42u8; 32];
                let unbound = aead::UnboundKey::new(alg, &key[..alg.key_len()])
                    .expect("key length of the algorithm");
                aead::LessSafeKey::new(unbound)
            }
            impl AeadImpl for aead::LessSafeKey {
                fn seal(&self, n: u64, buf: &mut [u8]) -> [u8; 16] {
                    let nonce = aead::Nonce::assume_unique_for_key(nonce(n));
                    let tag = self
                        .seal_in_place_separate_tag(nonce, aead::Aad::from(AAD), buf)
                        .expect("message within the AEAD's limits");
                    tag.as_ref().try_into().expect("16-byte tag")
                }
                fn open(&self, n: u64, buf: &mut [u8], tag: &[u8; 16]) -> bool {
                    let nonce = aead::Nonce::assume_unique_for_key(nonce(n));
                    $open(self, nonce, buf, tag)
                }
            }
        }
    };
}

/// ring's `open_in_place_separate_tag` takes a `Tag` and the ciphertext's range.
fn ring_open(
    key: &::ring::aead::LessSafeKey,
    nonce: ::ring::aead::Nonce,
    buf: &mut [u8],
    tag: &[u8; 16],
) -> bool {
    let tag = ::ring::aead::Tag::from(*tag);
    key.open_in_place_separate_tag(nonce, ::ring::aead::Aad::from(AAD), tag, buf, 0..)
        .is_ok()
}

/// aws-lc-rs's takes the tag's bytes.
fn aws_open(
    key: &::aws_lc_rs::aead::LessSafeKey,
    nonce: ::aws_lc_rs::aead::Nonce,
    buf: &mut [u8],
    tag: &[u8; 16],
) -> bool {
    key.open_in_place_separate_tag(nonce, ::aws_lc_rs::aead::Aad::from(AAD), tag, buf)
        .is_ok()
}

ring_like!(ring_ops, ring, ring_open);
ring_like!(aws_ops, aws_lc_rs, aws_open);

/// aws-lc-rs's raw AES modes (ring has none public). Its API takes a new IV per message.
mod aws_cipher {
    use super::*;
    use ::aws_lc_rs::cipher::{
        AES_128, AES_192, AES_256, DecryptingKey, DecryptionContext, EncryptingKey,
        EncryptionContext, UnboundCipherKey,
    };
    use ::aws_lc_rs::iv::FixedLength;

    enum Key {
        Enc(EncryptingKey),
        Dec(DecryptingKey),
    }

    pub struct Mode {
        key: Key,
        iv: u128,
        /// ECB takes no IV.
        ecb: bool,
    }
    impl Mode {
        pub fn new(bits: usize, kind: ModeKind) -> Self {
            let alg = match bits {
                128 => &AES_128,
                192 => &AES_192,
                _ => &AES_256,
            };
            let unbound = || UnboundCipherKey::new(alg, &CIPHER_KEY[..bits / 8]).expect("AES key");
            let key = match kind {
                ModeKind::Ctr => Key::Enc(EncryptingKey::ctr(unbound()).expect("CTR")),
                ModeKind::CbcEncrypt => Key::Enc(EncryptingKey::cbc(unbound()).expect("CBC")),
                ModeKind::CbcDecrypt => Key::Dec(DecryptingKey::cbc(unbound()).expect("CBC")),
                ModeKind::Ecb => Key::Enc(EncryptingKey::ecb(unbound()).expect("ECB")),
                ModeKind::EcbDecrypt => Key::Dec(DecryptingKey::ecb(unbound()).expect("ECB")),
                ModeKind::IgeEncrypt | ModeKind::IgeDecrypt => {
                    unreachable!("aws-lc-rs has no IGE")
                }
            };
            let ecb = matches!(kind, ModeKind::Ecb | ModeKind::EcbDecrypt);
            Mode { key, iv: 0, ecb }
        }
    }
    impl Op for Mode {
        fn run(&mut self, buf: &mut [u8], _out: &mut Out) -> usize {
            let iv = FixedLength::from(self.iv.to_be_bytes());
            self.iv = self.iv.wrapping_add(1);
            match &self.key {
                Key::Enc(k) => {
                    let ctx = if self.ecb {
                        EncryptionContext::None
                    } else {
                        EncryptionContext::Iv128(iv)
                    };
                    black_box(
                        k.less_safe_encrypt(buf, ctx)
                            .expect("whole blocks for CBC and ECB"),
                    );
                }
                Key::Dec(k) => {
                    let ctx = if self.ecb {
                        DecryptionContext::None
                    } else {
                        DecryptionContext::Iv128(iv)
                    };
                    black_box(k.decrypt(buf, ctx).expect("whole blocks for CBC and ECB"));
                }
            }
            0
        }
    }
}

// ---------------------------------------------------------------------------------------------
// RustCrypto

mod rustcrypto {
    use super::*;
    use aes_gcm::aead::{AeadInPlace, KeyInit};
    use ctr::cipher::inout::InOutBuf;
    use ctr::cipher::{
        BlockCipher, BlockDecryptMut, BlockEncryptMut, KeyIvInit, KeySizeUser, StreamCipher,
        generic_array::GenericArray,
    };
    use hmac::Mac;

    pub struct Digest<D>(PhantomData<fn() -> D>);
    impl<D: sha2::Digest> Digest<D> {
        pub fn boxed() -> Box<dyn Op>
        where
            D: 'static,
        {
            Box::new(Digest::<D>(PhantomData))
        }
    }
    impl<D: sha2::Digest> Op for Digest<D> {
        fn run(&mut self, buf: &mut [u8], out: &mut Out) -> usize {
            put(out, &D::digest(&*buf))
        }
    }

    pub struct Hmac<M>(M);
    impl<M: Mac + KeyInit + Clone + Send + 'static> Hmac<M> {
        pub fn boxed() -> Box<dyn Op> {
            Box::new(Hmac(
                <M as Mac>::new_from_slice(&HMAC_KEY).expect("any key length"),
            ))
        }
    }
    impl<M: Mac + Clone + Send> Op for Hmac<M> {
        fn run(&mut self, buf: &mut [u8], out: &mut Out) -> usize {
            put(
                out,
                &self.0.clone().chain_update(&*buf).finalize().into_bytes(),
            )
        }
    }

    /// A RustCrypto AEAD under the measurement key.
    pub struct Aead<A>(A);
    impl<A: AeadInPlace + KeyInit + Send + 'static> Aead<A> {
        pub fn new() -> Self {
            let key = [0x42u8; 32];
            Aead(A::new_from_slice(&key[..A::key_size()]).expect("key length"))
        }
    }
    impl<A: AeadInPlace + Send> Aead<A> {
        fn nonce(n: u64) -> aes_gcm::aead::Nonce<A> {
            let mut nonce = aes_gcm::aead::Nonce::<A>::default();
            let len = nonce.len();
            nonce[len - 8..].copy_from_slice(&n.to_be_bytes());
            nonce
        }
    }
    impl<A: AeadInPlace + Send> AeadImpl for Aead<A> {
        fn seal(&self, n: u64, buf: &mut [u8]) -> [u8; 16] {
            let tag = self
                .0
                .encrypt_in_place_detached(&Self::nonce(n), &AAD, buf)
                .expect("message within the AEAD's limits");
            tag.as_slice().try_into().expect("16-byte tag")
        }
        fn open(&self, n: u64, buf: &mut [u8], tag: &[u8; 16]) -> bool {
            self.0
                .decrypt_in_place_detached(
                    &Self::nonce(n),
                    &AAD,
                    buf,
                    aes_gcm::aead::Tag::<A>::from_slice(tag),
                )
                .is_ok()
        }
    }

    /// RustCrypto's ChaCha20 (RFC 8439 layout), continued across operations.
    pub struct ChaCha20 {
        c: chacha20::ChaCha20,
        n: u64,
    }
    impl ChaCha20 {
        pub fn boxed() -> Box<dyn Op> {
            Box::new(ChaCha20 {
                c: chacha20::ChaCha20::new((&CHACHA_KEY).into(), (&nonce(0)).into()),
                n: 0,
            })
        }
    }
    impl Op for ChaCha20 {
        fn run(&mut self, buf: &mut [u8], _out: &mut Out) -> usize {
            while self.c.try_apply_keystream(buf).is_err() {
                self.n += 1;
                self.c = chacha20::ChaCha20::new((&CHACHA_KEY).into(), (&nonce(self.n)).into());
            }
            0
        }
    }

    /// RustCrypto's Poly1305, one tag per operation.
    pub struct Poly1305;
    impl Op for Poly1305 {
        fn run(&mut self, buf: &mut [u8], out: &mut Out) -> usize {
            use poly1305::universal_hash::KeyInit;
            let m = poly1305::Poly1305::new((&CHACHA_KEY).into());
            put(out, &m.compute_unpadded(buf))
        }
    }

    /// CTR with the 128-bit big-endian counter, boxed so one type serves both key sizes.
    pub struct Ctr(Box<dyn StreamCipher + Send>);
    impl Op for Ctr {
        fn run(&mut self, buf: &mut [u8], _out: &mut Out) -> usize {
            self.0.apply_keystream(buf);
            0
        }
    }

    /// CBC encryption or decryption (the decryptor's parallel block path).
    pub struct Cbc<M>(M);
    impl<A: BlockEncryptMut + BlockCipher + Send> Op for Cbc<cbc::Encryptor<A>> {
        fn run(&mut self, buf: &mut [u8], _out: &mut Out) -> usize {
            for block in buf.chunks_exact_mut(16) {
                self.0
                    .encrypt_block_mut(GenericArray::from_mut_slice(block));
            }
            0
        }
    }
    impl<A: BlockDecryptMut + BlockCipher + Send> Op for Cbc<cbc::Decryptor<A>> {
        fn run(&mut self, buf: &mut [u8], _out: &mut Out) -> usize {
            let (blocks, _) = InOutBuf::from(buf).into_chunks();
            self.0.decrypt_blocks_inout_mut(blocks);
            0
        }
    }

    /// ECB encryption of the message's blocks (the cipher's parallel block path).
    pub struct Ecb<A>(A);
    impl<A: ctr::cipher::BlockEncrypt + Send> Op for Ecb<A> {
        fn run(&mut self, buf: &mut [u8], _out: &mut Out) -> usize {
            let (blocks, _) = InOutBuf::from(buf).into_chunks();
            self.0.encrypt_blocks_inout(blocks);
            0
        }
    }

    /// ECB decryption (`-decrypt`).
    pub struct EcbDecrypt<A>(A);
    impl<A: ctr::cipher::BlockDecrypt + Send> Op for EcbDecrypt<A> {
        fn run(&mut self, buf: &mut [u8], _out: &mut Out) -> usize {
            let (blocks, _) = InOutBuf::from(buf).into_chunks();
            self.0.decrypt_blocks_inout(blocks);
            0
        }
    }

    macro_rules! modes {
        ($m:ident, $aes:ty) => {
            pub mod $m {
                use super::*;
                fn key() -> &'static [u8] {
                    &CIPHER_KEY[..<$aes as KeySizeUser>::key_size()]
                }
                pub fn ctr() -> Box<dyn Op> {
                    let c = ctr::Ctr128BE::<$aes>::new_from_slices(key(), &[0u8; 16]).expect("key");
                    Box::new(Ctr(Box::new(c)))
                }
                pub fn cbc_encrypt() -> Box<dyn Op> {
                    let c =
                        cbc::Encryptor::<$aes>::new_from_slices(key(), &[0u8; 16]).expect("key");
                    Box::new(Cbc(c))
                }
                pub fn cbc_decrypt() -> Box<dyn Op> {
                    let c =
                        cbc::Decryptor::<$aes>::new_from_slices(key(), &[0u8; 16]).expect("key");
                    Box::new(Cbc(c))
                }
                pub fn ecb() -> Box<dyn Op> {
                    Box::new(Ecb(<$aes as KeyInit>::new_from_slice(key()).expect("key")))
                }
                pub fn ecb_decrypt() -> Box<dyn Op> {
                    Box::new(EcbDecrypt(
                        <$aes as KeyInit>::new_from_slice(key()).expect("key"),
                    ))
                }
            }
        };
    }
    modes!(aes128, aes::Aes128);
    modes!(aes192, aes::Aes192);
    modes!(aes256, aes::Aes256);
}

// ---------------------------------------------------------------------------------------------
// HKDF and the OpenSSH AEAD, for every library that has them.

/// The salt and info of every HKDF measurement (the input key material is the message), and
/// the output length: one SHA-256 output, the size of a TLS 1.3 secret.
const HKDF_SALT: [u8; 32] = [0x0c; 32];
const HKDF_INFO: [u8; 10] = [0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9];
const HKDF_OKM_LEN: usize = 32;

/// The 64-byte key (`K_2 ‖ K_1`) of the chacha20-poly1305@openssh.com row: bytes 0, 1, …, 63,
/// so that the two halves differ and a library that swapped them would disagree.
const SSH_KEY: [u8; 64] = {
    let mut k = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        k[i] = i as u8;
        i += 1;
    }
    k
};

/// One HKDF-SHA-256 derivation per operation: Extract over the message, Expand to 32 bytes.
struct SimdHkdf<H>(Features, PhantomData<fn() -> H>);

impl<H: simdcrypt::sha::Digest> Op for SimdHkdf<H> {
    fn run(&mut self, buf: &mut [u8], out: &mut Out) -> usize {
        simdcrypt::hkdf::Hkdf::<H>::new_with(&HKDF_SALT, buf, self.0)
            .expand(&HKDF_INFO, &mut out[..HKDF_OKM_LEN])
            .expect("32 bytes is within HKDF's 255 hash lengths");
        HKDF_OKM_LEN
    }
}

/// One packet sealed per operation under the next sequence number (`u32`, as SSH counts and
/// as ring's and aws-lc-rs's APIs take it).
struct SimdOpenSsh {
    c: simdcrypt::aead::OpenSshChaCha20Poly1305,
    seq: u32,
}

impl Op for SimdOpenSsh {
    fn run(&mut self, buf: &mut [u8], out: &mut Out) -> usize {
        self.seq = self.seq.wrapping_add(1);
        let tag = self
            .c
            .seal_in_place(self.seq.into(), buf)
            .expect("a packet of at least the 4-byte length field");
        put(out, &tag)
    }
}

/// ring and aws-lc-rs share an API for HKDF and the OpenSSH AEAD too.
macro_rules! ring_like_kdf_ssh {
    ($module:ident, $krate:ident) => {
        pub mod $module {
            use super::*;
            use ::$krate::aead::chacha20_poly1305_openssh::SealingKey;
            use ::$krate::hkdf;

            pub fn hkdf_sha256() -> Box<dyn Op> {
                struct Hkdf;
                impl Op for Hkdf {
                    fn run(&mut self, buf: &mut [u8], out: &mut Out) -> usize {
                        let prk = hkdf::Salt::new(hkdf::HKDF_SHA256, &HKDF_SALT).extract(buf);
                        prk.expand(&[&HKDF_INFO], hkdf::HKDF_SHA256)
                            .expect("32 bytes is within HKDF's limit")
                            .fill(&mut out[..HKDF_OKM_LEN])
                            .expect("the length asked for");
                        HKDF_OKM_LEN
                    }
                }
                Box::new(Hkdf)
            }

            pub fn openssh() -> Box<dyn Op> {
                struct Ssh {
                    key: SealingKey,
                    seq: u32,
                }
                impl Op for Ssh {
                    fn run(&mut self, buf: &mut [u8], out: &mut Out) -> usize {
                        self.seq = self.seq.wrapping_add(1);
                        let mut tag = [0u8; 16];
                        self.key.seal_in_place(self.seq, buf, &mut tag);
                        put(out, &tag)
                    }
                }
                Box::new(Ssh {
                    key: SealingKey::new(&SSH_KEY),
                    seq: 0,
                })
            }
        }
    };
}

ring_like_kdf_ssh!(ring_kdf_ssh, ring);
ring_like_kdf_ssh!(aws_kdf_ssh, aws_lc_rs);

/// RustCrypto's `hkdf` crate (it has no OpenSSH AEAD).
fn rustcrypto_hkdf_sha256() -> Box<dyn Op> {
    struct Hkdf;
    impl Op for Hkdf {
        fn run(&mut self, buf: &mut [u8], out: &mut Out) -> usize {
            hkdf::Hkdf::<sha2::Sha256>::new(Some(&HKDF_SALT), buf)
                .expand(&HKDF_INFO, &mut out[..HKDF_OKM_LEN])
                .expect("32 bytes is within HKDF's limit");
            HKDF_OKM_LEN
        }
    }
    Box::new(Hkdf)
}

fn peer(name: &'static str, make: impl Fn() -> Box<dyn Op> + Send + Sync + 'static) -> Peer {
    Peer {
        name,
        make: Box::new(make),
    }
}

/// The AES mode rows of one key size: CTR, CBC encryption and decryption, ECB and IGE
/// encryption, each beside aws-lc-rs (not IGE, which it lacks) and RustCrypto (not IGE: not a
/// dependency), and `openssl speed -evp` (not IGE: OpenSSL 3.0's `speed` dropped it).
macro_rules! aes_rows {
    ($bits:literal, $c:ident, $rc:ident, $decrypt:expr) => {{
        let decrypt: bool = $decrypt;
        [
            (
                concat!("aes-", $bits, "-ctr"),
                1,
                ModeKind::Ctr,
                OpensslCmd::Evp(concat!("aes-", $bits, "-ctr")),
            ),
            (
                concat!("aes-", $bits, "-cbc"),
                16,
                ModeKind::CbcEncrypt,
                OpensslCmd::Evp(concat!("aes-", $bits, "-cbc")),
            ),
            (
                concat!("aes-", $bits, "-cbc-decrypt"),
                16,
                ModeKind::CbcDecrypt,
                OpensslCmd::EvpDecrypt(concat!("aes-", $bits, "-cbc")),
            ),
            (
                concat!("aes-", $bits, "-ecb"),
                16,
                ModeKind::Ecb,
                OpensslCmd::Evp(concat!("aes-", $bits, "-ecb")),
            ),
            (
                concat!("aes-", $bits, "-ige"),
                16,
                ModeKind::IgeEncrypt,
                OpensslCmd::NoEquivalent,
            ),
        ]
        .map(|(name, granule, kind, openssl)| {
            let (kind, openssl) = if decrypt {
                (kind.decrypting(), openssl.decrypting())
            } else {
                (kind, openssl)
            };
            let simdcrypt = Some(simd_mode!(simdcrypt::aes::$c, kind));
            let aws = match kind {
                ModeKind::IgeEncrypt | ModeKind::IgeDecrypt => None,
                _ => Some(peer("aws-lc-rs", move || {
                    Box::new(aws_cipher::Mode::new($bits, kind))
                })),
            };
            let rc: Option<fn() -> Box<dyn Op>> = match kind {
                ModeKind::Ctr => Some(rustcrypto::$rc::ctr),
                ModeKind::CbcEncrypt => Some(rustcrypto::$rc::cbc_encrypt),
                ModeKind::CbcDecrypt => Some(rustcrypto::$rc::cbc_decrypt),
                ModeKind::Ecb => Some(rustcrypto::$rc::ecb),
                ModeKind::EcbDecrypt => Some(rustcrypto::$rc::ecb_decrypt),
                ModeKind::IgeEncrypt | ModeKind::IgeDecrypt => None,
            };
            let rc = rc.map(|make| peer("rustcrypto", make));
            Algorithm {
                name,
                granule,
                simdcrypt,
                peers: aws.into_iter().chain(rc).collect(),
                openssl,
            }
        })
    }};
}

/// Every algorithm, in table order, as encryption measures it.
pub fn registry() -> Vec<Algorithm> {
    registry_for(false)
}

/// Every algorithm, in table order; with `decrypt` (`-decrypt`), the AEADs open and CBC, ECB
/// and IGE decrypt (digests, MACs and the stream ciphers are the same either way).
pub fn registry_for(decrypt: bool) -> Vec<Algorithm> {
    use simdcrypt::sha::{Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};
    let dig = |name, simd, peers, evp| Algorithm {
        name,
        granule: 1,
        simdcrypt: Some(simd),
        peers,
        openssl: OpensslCmd::Evp(evp),
    };
    let aead_cmd = |name| {
        if decrypt {
            OpensslCmd::AeadDecrypt(name)
        } else {
            OpensslCmd::Aead(name)
        }
    };
    let mut v = vec![
        dig(
            "sha1",
            simd_digest!(Sha1),
            vec![
                peer("ring", || {
                    Box::new(ring_ops::Digest(&::ring::digest::SHA1_FOR_LEGACY_USE_ONLY))
                }),
                peer("aws-lc-rs", || {
                    Box::new(aws_ops::Digest(
                        &::aws_lc_rs::digest::SHA1_FOR_LEGACY_USE_ONLY,
                    ))
                }),
                peer("rustcrypto", rustcrypto::Digest::<sha1::Sha1>::boxed),
            ],
            "sha1",
        ),
        dig(
            "sha224",
            simd_digest!(Sha224),
            vec![
                peer("aws-lc-rs", || {
                    Box::new(aws_ops::Digest(&::aws_lc_rs::digest::SHA224))
                }),
                peer("rustcrypto", rustcrypto::Digest::<sha2::Sha224>::boxed),
            ],
            "sha224",
        ),
        dig(
            "sha256",
            simd_digest!(Sha256),
            vec![
                peer("ring", || {
                    Box::new(ring_ops::Digest(&::ring::digest::SHA256))
                }),
                peer("aws-lc-rs", || {
                    Box::new(aws_ops::Digest(&::aws_lc_rs::digest::SHA256))
                }),
                peer("rustcrypto", rustcrypto::Digest::<sha2::Sha256>::boxed),
            ],
            "sha256",
        ),
        dig(
            "sha384",
            simd_digest!(Sha384),
            vec![
                peer("ring", || {
                    Box::new(ring_ops::Digest(&::ring::digest::SHA384))
                }),
                peer("aws-lc-rs", || {
                    Box::new(aws_ops::Digest(&::aws_lc_rs::digest::SHA384))
                }),
                peer("rustcrypto", rustcrypto::Digest::<sha2::Sha384>::boxed),
            ],
            "sha384",
        ),
        dig(
            "sha512",
            simd_digest!(Sha512),
            vec![
                peer("ring", || {
                    Box::new(ring_ops::Digest(&::ring::digest::SHA512))
                }),
                peer("aws-lc-rs", || {
                    Box::new(aws_ops::Digest(&::aws_lc_rs::digest::SHA512))
                }),
                peer("rustcrypto", rustcrypto::Digest::<sha2::Sha512>::boxed),
            ],
            "sha512",
        ),
        dig(
            "sha512-224",
            simd_digest!(Sha512_224),
            vec![peer(
                "rustcrypto",
                rustcrypto::Digest::<sha2::Sha512_224>::boxed,
            )],
            "sha512-224",
        ),
        dig(
            "sha512-256",
            simd_digest!(Sha512_256),
            vec![
                peer("ring", || {
                    Box::new(ring_ops::Digest(&::ring::digest::SHA512_256))
                }),
                peer("aws-lc-rs", || {
                    Box::new(aws_ops::Digest(&::aws_lc_rs::digest::SHA512_256))
                }),
                peer("rustcrypto", rustcrypto::Digest::<sha2::Sha512_256>::boxed),
            ],
            "sha512-256",
        ),
        Algorithm {
            name: "hmac-sha1",
            granule: 1,
            simdcrypt: Some(simd_hmac!(Sha1)),
            peers: vec![
                peer("ring", || {
                    Box::new(ring_ops::Hmac::new(
                        ::ring::hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY,
                    ))
                }),
                peer("aws-lc-rs", || {
                    Box::new(aws_ops::Hmac::new(
                        ::aws_lc_rs::hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY,
                    ))
                }),
                peer(
                    "rustcrypto",
                    rustcrypto::Hmac::<hmac::Hmac<sha1::Sha1>>::boxed,
                ),
            ],
            openssl: OpensslCmd::Hmac("sha1"),
        },
        Algorithm {
            name: "hmac-sha256",
            granule: 1,
            simdcrypt: Some(simd_hmac!(Sha256)),
            peers: vec![
                peer("ring", || {
                    Box::new(ring_ops::Hmac::new(::ring::hmac::HMAC_SHA256))
                }),
                peer("aws-lc-rs", || {
                    Box::new(aws_ops::Hmac::new(::aws_lc_rs::hmac::HMAC_SHA256))
                }),
                peer(
                    "rustcrypto",
                    rustcrypto::Hmac::<hmac::Hmac<sha2::Sha256>>::boxed,
                ),
            ],
            openssl: OpensslCmd::Hmac("sha256"),
        },
        Algorithm {
            name: "hmac-sha512",
            granule: 1,
            simdcrypt: Some(simd_hmac!(Sha512)),
            peers: vec![
                peer("ring", || {
                    Box::new(ring_ops::Hmac::new(::ring::hmac::HMAC_SHA512))
                }),
                peer("aws-lc-rs", || {
                    Box::new(aws_ops::Hmac::new(::aws_lc_rs::hmac::HMAC_SHA512))
                }),
                peer(
                    "rustcrypto",
                    rustcrypto::Hmac::<hmac::Hmac<sha2::Sha512>>::boxed,
                ),
            ],
            openssl: OpensslCmd::Hmac("sha512"),
        },
        Algorithm {
            name: "hkdf-sha256",
            granule: 1,
            simdcrypt: Some(Simd {
                backends: |f| Sha256::backends(f).collect(),
                make: Box::new(|f| Box::new(SimdHkdf::<Sha256>(f, PhantomData))),
            }),
            peers: vec![
                peer("ring", ring_kdf_ssh::hkdf_sha256),
                peer("aws-lc-rs", aws_kdf_ssh::hkdf_sha256),
                peer("rustcrypto", rustcrypto_hkdf_sha256),
            ],
            openssl: OpensslCmd::NoEquivalent,
        },
        Algorithm {
            name: "aes-128-gcm",
            granule: 1,
            simdcrypt: Some(simd_aead!(simdcrypt::aead::Aes128Gcm, 16, decrypt)),
            peers: vec![
                peer("ring", move || {
                    aead_op(ring_ops::aead(&::ring::aead::AES_128_GCM), decrypt)
                }),
                peer("aws-lc-rs", move || {
                    aead_op(aws_ops::aead(&::aws_lc_rs::aead::AES_128_GCM), decrypt)
                }),
                peer("rustcrypto", move || {
                    aead_op(rustcrypto::Aead::<aes_gcm::Aes128Gcm>::new(), decrypt)
                }),
            ],
            openssl: aead_cmd("aes-128-gcm"),
        },
        Algorithm {
            name: "aes-192-gcm",
            granule: 1,
            simdcrypt: Some(simd_aead!(simdcrypt::aead::Aes192Gcm, 24, decrypt)),
            peers: vec![
                peer("aws-lc-rs", move || {
                    aead_op(aws_ops::aead(&::aws_lc_rs::aead::AES_192_GCM), decrypt)
                }),
                peer("rustcrypto", move || {
                    type A = aes_gcm::AesGcm<aes::Aes192, aes_gcm::aead::consts::U12>;
                    aead_op(rustcrypto::Aead::<A>::new(), decrypt)
                }),
            ],
            openssl: aead_cmd("aes-192-gcm"),
        },
        Algorithm {
            name: "aes-256-gcm",
            granule: 1,
            simdcrypt: Some(simd_aead!(simdcrypt::aead::Aes256Gcm, 32, decrypt)),
            peers: vec![
                peer("ring", move || {
                    aead_op(ring_ops::aead(&::ring::aead::AES_256_GCM), decrypt)
                }),
                peer("aws-lc-rs", move || {
                    aead_op(aws_ops::aead(&::aws_lc_rs::aead::AES_256_GCM), decrypt)
                }),
                peer("rustcrypto", move || {
                    aead_op(rustcrypto::Aead::<aes_gcm::Aes256Gcm>::new(), decrypt)
                }),
            ],
            openssl: aead_cmd("aes-256-gcm"),
        },
    ];
    v.extend(aes_rows!(128, Aes128, aes128, decrypt));
    v.extend(aes_rows!(192, Aes192, aes192, decrypt));
    v.extend(aes_rows!(256, Aes256, aes256, decrypt));
    v.extend([
        Algorithm {
            name: "chacha20",
            granule: 1,
            simdcrypt: Some(Simd {
                backends: |f| simdcrypt::chacha20::ChaCha20::backends(f).collect(),
                make: Box::new(|f| {
                    Box::new(SimdChaCha20 {
                        f,
                        c: simdcrypt::chacha20::ChaCha20::new_with(f, &CHACHA_KEY, &nonce(0), 0),
                        n: 0,
                    })
                }),
            }),
            peers: vec![peer("rustcrypto", rustcrypto::ChaCha20::boxed)],
            openssl: OpensslCmd::Evp("chacha20"),
        },
        Algorithm {
            name: "poly1305",
            granule: 1,
            simdcrypt: Some(Simd {
                backends: |f| simdcrypt::poly1305::Poly1305::backends(f).collect(),
                make: Box::new(|f| Box::new(SimdPoly1305(f))),
            }),
            peers: vec![peer("rustcrypto", || Box::new(rustcrypto::Poly1305))],
            openssl: OpensslCmd::NoEquivalent,
        },
        Algorithm {
            name: "chacha20-poly1305",
            granule: 1,
            simdcrypt: Some(simd_aead!(simdcrypt::aead::ChaCha20Poly1305, 32, decrypt)),
            peers: vec![
                peer("ring", move || {
                    aead_op(ring_ops::aead(&::ring::aead::CHACHA20_POLY1305), decrypt)
                }),
                peer("aws-lc-rs", move || {
                    aead_op(
                        aws_ops::aead(&::aws_lc_rs::aead::CHACHA20_POLY1305),
                        decrypt,
                    )
                }),
                peer("rustcrypto", move || {
                    aead_op(
                        rustcrypto::Aead::<chacha20poly1305::ChaCha20Poly1305>::new(),
                        decrypt,
                    )
                }),
            ],
            openssl: aead_cmd("chacha20-poly1305"),
        },
        Algorithm {
            name: "xchacha20-poly1305",
            granule: 1,
            simdcrypt: Some(simd_aead!(simdcrypt::aead::XChaCha20Poly1305, 32, decrypt)),
            peers: vec![peer("rustcrypto", move || {
                aead_op(
                    rustcrypto::Aead::<chacha20poly1305::XChaCha20Poly1305>::new(),
                    decrypt,
                )
            })],
            openssl: OpensslCmd::NoEquivalent,
        },
    ]);
    // The OpenSSH AEAD is measured sealing only: under `-decrypt` it has no row (the command
    // line refuses to name it with `-decrypt`, see `cli::SEAL_ONLY`).
    if !decrypt {
        v.push(Algorithm {
            // SSH packets are a multiple of 8 bytes (RFC 4253 §6: of the cipher's block size
            // or 8, whichever is larger), length field included; at least the 4 of that.
            name: "chacha20-poly1305@openssh.com",
            granule: 8,
            simdcrypt: Some(Simd {
                backends: |f| simdcrypt::aead::OpenSshChaCha20Poly1305::backends(f).collect(),
                make: Box::new(|f| {
                    Box::new(SimdOpenSsh {
                        c: simdcrypt::aead::OpenSshChaCha20Poly1305::new_with(f, &SSH_KEY),
                        seq: 0,
                    })
                }),
            }),
            peers: vec![
                peer("ring", ring_kdf_ssh::openssh),
                peer("aws-lc-rs", aws_kdf_ssh::openssh),
            ],
            openssl: OpensslCmd::NoEquivalent,
        });
    }
    v.extend(tls_rows());
    v
}

/// The `tls13-*` rows (see `tls.rs`): rustls with simdcrypt's suites, beside rustls with its
/// aws-lc-rs and ring suites. The kernel shown is the AEAD's, which the provider picks from
/// the detected features.
fn tls_rows() -> Vec<Algorithm> {
    use crate::tls::{Bulk, Configs, Handshake, Provider, Suite};
    let row = |name, suite: Suite, backends: fn(Features) -> Vec<(&'static str, Features)>| {
        let bulk = matches!(
            name,
            "tls13-aes-128-gcm" | "tls13-aes-256-gcm" | "tls13-chacha20-poly1305"
        );
        let make = move |p: Provider| -> Box<dyn Op> {
            let configs = Configs::new(p, suite);
            if bulk {
                Box::new(Bulk::new(&configs))
            } else {
                Box::new(Handshake::new(configs))
            }
        };
        Algorithm {
            name,
            granule: 1,
            simdcrypt: Some(Simd {
                backends,
                make: Box::new(move |_| make(Provider::Simdcrypt)),
            }),
            peers: vec![
                peer("aws-lc-rs", move || make(Provider::AwsLcRs)),
                peer("ring", move || make(Provider::Ring)),
            ],
            openssl: OpensslCmd::NoEquivalent,
        }
    };
    vec![
        row("tls13-aes-128-gcm", Suite::Aes128Gcm, |f| {
            vec![(simdcrypt::aead::Aes128Gcm::backend_for(f), f)]
        }),
        row("tls13-aes-256-gcm", Suite::Aes256Gcm, |f| {
            vec![(simdcrypt::aead::Aes256Gcm::backend_for(f), f)]
        }),
        row("tls13-chacha20-poly1305", Suite::ChaCha20Poly1305, |f| {
            vec![(simdcrypt::aead::ChaCha20Poly1305::backend_for(f), f)]
        }),
        row("tls13-handshake", Suite::Aes128Gcm, |f| {
            vec![(simdcrypt::aead::Aes128Gcm::backend_for(f), f)]
        }),
    ]
}

/// The names users can type, in table order.
pub fn names() -> Vec<&'static str> {
    registry().iter().map(|a| a.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every implementation of an algorithm computes the same thing from the same input: a
    /// check that the registry wires each name to the right primitive and key (a SHA-384 peer
    /// under `sha512`, or a cipher running another mode, shows as a mismatch here, not just
    /// as an odd speed). Two messages, so that streaming state and nonces advance alike.
    #[test]
    fn implementations_agree() {
        for (alg, decrypt) in registry_for(false)
            .into_iter()
            .map(|a| (a, false))
            .chain(registry_for(true).into_iter().map(|a| (a, true)))
        {
            let mut ops: Vec<(String, Box<dyn Op>)> = alg
                .peers
                .iter()
                .map(|p| (p.name.to_string(), (p.make)()))
                .collect();
            if let Some(s) = &alg.simdcrypt {
                for (name, f) in (s.backends)(Features::detect()) {
                    ops.push((format!("simdcrypt/{name}"), (s.make)(f)));
                }
            }
            if alg.name.ends_with("-ige") {
                // No peer has IGE: an independent oracle (below) keeps the row checked even
                // where simdcrypt has a single kernel (e.g. every feature masked).
                ops.push(("reference".to_string(), ige_reference(alg.name, decrypt)));
            }
            assert!(ops.len() >= 2, "{}: nothing to compare", alg.name);
            let mut first: Option<(String, Vec<u8>)> = None;
            for (name, op) in &mut ops {
                let mut seen = Vec::new();
                // aws-lc-rs's CTR and CBC take one IV per message, RustCrypto's continue the
                // stream: compare the first message only there.
                let streaming = alg.name.starts_with("aes-") && !alg.name.ends_with("-gcm");
                let messages = if streaming { 1 } else { 2 };
                for m in 0..messages {
                    let mut buf: Vec<u8> = (0..1000 + 24 * m).map(|i| (i * 7 + m) as u8).collect();
                    buf.truncate(buf.len() / alg.granule * alg.granule);
                    let mut out = [0u8; 64];
                    op.prepare(&mut buf);
                    let n = op.run(&mut buf, &mut out);
                    seen.extend_from_slice(&out[..n]);
                    seen.extend_from_slice(&buf);
                }
                match &first {
                    None => first = Some((name.clone(), seen)),
                    Some((n0, s0)) => {
                        assert!(*s0 == seen, "{}: {name} differs from {n0}", alg.name)
                    }
                }
            }
        }
    }

    /// `-decrypt` really opens: after one operation the buffer holds the plaintext again, for
    /// every implementation of every AEAD, and a ciphertext altered after `prepare` stops the
    /// run instead of being counted.
    #[test]
    fn decrypt_opens_authentic_ciphertexts_only() {
        let plain: Vec<u8> = (0..777u32).map(|i| (i * 13) as u8).collect();
        let mut checked = 0;
        for alg in registry_for(true) {
            if !crate::cli::is_aead(alg.name) {
                continue;
            }
            let mut makers: Vec<Box<dyn Op>> = alg.peers.iter().map(|p| (p.make)()).collect();
            let s = alg.simdcrypt.as_ref().expect("simdcrypt AEAD");
            makers.push((s.make)(Features::detect()));
            for mut op in makers {
                let mut buf = plain.clone();
                op.prepare(&mut buf);
                assert_ne!(buf, plain, "{}: prepare leaves a ciphertext", alg.name);
                let mut out = [0u8; 64];
                assert_eq!(op.run(&mut buf, &mut out), 16);
                assert_eq!(
                    buf, plain,
                    "{}: one open gives the plaintext back",
                    alg.name
                );
                op.run(&mut buf, &mut out);
                op.run(&mut buf, &mut out);
                assert_eq!(buf, plain, "{}", alg.name);
                buf[5] ^= 1;
                let tampered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    op.run(&mut buf, &mut out)
                }));
                assert!(tampered.is_err(), "{}: a bad tag was counted", alg.name);
                checked += 1;
            }
        }
        assert!(checked >= 12, "{checked}");
    }

    #[test]
    fn names_are_unique_and_lower_case() {
        let n = names();
        for (i, a) in n.iter().enumerate() {
            assert_eq!(*a, a.to_ascii_lowercase());
            assert!(!n[..i].contains(a), "{a} twice");
        }
    }

    /// IGE encryption (`c_i = E(p_i ^ c_{i-1}) ^ p_{i-1}`, zero IV, as the simdcrypt rows use)
    /// or decryption (`p_i = D(c_i ^ p_{i-1}) ^ c_{i-1}`) over RustCrypto's AES block
    /// functions: the oracle of the `aes-*-ige` rows.
    fn ige_reference(name: &str, decrypt: bool) -> Box<dyn Op> {
        use ctr::cipher::{BlockDecrypt, BlockEncrypt, KeyInit, generic_array::GenericArray};
        struct Ige<A>(A, bool);
        impl<A: BlockEncrypt + BlockDecrypt + Send> Op for Ige<A> {
            fn run(&mut self, buf: &mut [u8], _out: &mut Out) -> usize {
                // (previous output block, previous input block), both starting at zero.
                let (mut out_prev, mut in_prev) = ([0u8; 16], [0u8; 16]);
                for block in buf.chunks_exact_mut(16) {
                    let input: [u8; 16] = block.try_into().expect("16 bytes");
                    let mut x = GenericArray::clone_from_slice(&input);
                    // Both directions mask with the previous output block before the block
                    // function and the previous input block after it (c_{i-1} then p_{i-1}
                    // encrypting, p_{i-1} then c_{i-1} decrypting).
                    x.iter_mut().zip(out_prev).for_each(|(a, b)| *a ^= b);
                    if self.1 {
                        self.0.decrypt_block(&mut x);
                    } else {
                        self.0.encrypt_block(&mut x);
                    }
                    x.iter_mut().zip(in_prev).for_each(|(a, b)| *a ^= b);
                    block.copy_from_slice(&x);
                    out_prev.copy_from_slice(&x);
                    in_prev = input;
                }
                0
            }
        }
        match name {
            "aes-128-ige" => Box::new(Ige(
                aes::Aes128::new_from_slice(&CIPHER_KEY[..16]).unwrap(),
                decrypt,
            )),
            "aes-192-ige" => Box::new(Ige(
                aes::Aes192::new_from_slice(&CIPHER_KEY[..24]).unwrap(),
                decrypt,
            )),
            _ => Box::new(Ige(
                aes::Aes256::new_from_slice(&CIPHER_KEY[..32]).unwrap(),
                decrypt,
            )),
        }
    }
}
