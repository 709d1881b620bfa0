//! RustCrypto's own published test vectors on simdcrypt's types, through the traits
//! (`--features digest,aead,cipher,universal-hash`): the `blobby` files RustCrypto's crates
//! test themselves with, copied verbatim into `vectors/rustcrypto/` (provenance and SHA-256 in
//! `vectors/README.md`), run by the test functions of the trait crates' `dev` modules —
//! `digest::dev::{fixed_reset_test, mac_test}`, `aead::dev::{pass_test, fail_test}`,
//! `cipher::dev::block_cipher::encrypt_decrypt_test`, `cipher::dev::stream::stream_cipher_test`
//! — exactly as the source crates' `tests/` call them. Each file's case count is pinned.

use aead::dev::{TestVector as AeadVector, fail_test, pass_test};
use cipher::dev::block_cipher::{TestVector as BlockVector, encrypt_decrypt_test};
use cipher::dev::stream::{TestVector as StreamVector, stream_cipher_test};
use digest::dev::{
    MacTestVector, MacTruncSide, TestVector as HashVector, fixed_reset_test, mac_test,
};
use simdcrypt::aead::{Aes128Gcm, Aes256Gcm, ChaCha20Poly1305, XChaCha20Poly1305};
use simdcrypt::aes::{Aes128, Aes192, Aes256, Ctr};
use simdcrypt::chacha20::ChaCha20;
use simdcrypt::hmac::Hmac;
use simdcrypt::sha::{Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};

/// Runs `check` on every vector; panics with the first failure's index and reason. Returns the
/// number of cases.
fn run<V: core::fmt::Debug>(
    file: &str,
    vectors: &[V],
    check: impl Fn(&V) -> Result<(), &'static str>,
) -> usize {
    for (i, v) in vectors.iter().enumerate() {
        if let Err(reason) = check(v) {
            panic!("{file}: case #{i} failed: {reason}\n{v:?}");
        }
    }
    println!("{file}: {} cases", vectors.len());
    vectors.len()
}

macro_rules! vectors {
    ($file:literal, $ty:ident { $($field:ident),* }) => {{
        digest::dev::blobby::parse_into_structs!(
            include_bytes!(concat!("../vectors/rustcrypto/", $file));
            static V: &[$ty { $($field),* }];
        );
        ($file, V)
    }};
}

#[test]
fn sha_kat() {
    macro_rules! kat {
        ($file:literal, $h:ty, $n:expr) => {{
            let (f, v) = vectors!($file, HashVector { input, output });
            assert_eq!(run(f, v, fixed_reset_test::<$h>), $n, "{f}");
        }};
    }
    kat!("sha1/sha1_kat.blb", Sha1, 4);
    kat!("sha2/sha224_kat.blb", Sha224, 3);
    kat!("sha2/sha256_kat.blb", Sha256, 3);
    kat!("sha2/sha384_kat.blb", Sha384, 3);
    kat!("sha2/sha512_kat.blb", Sha512, 3);
    kat!("sha2/sha512_224_kat.blb", Sha512_224, 3);
    kat!("sha2/sha512_256_kat.blb", Sha512_256, 3);
}

#[test]
fn hmac() {
    macro_rules! mac {
        ($file:literal, $h:ty, $side:expr, $n:expr) => {{
            let (f, v) = vectors!($file, MacTestVector { key, input, tag });
            assert_eq!(run(f, v, |tv| mac_test::<Hmac<$h>>(tv, $side)), $n, "{f}");
        }};
    }
    mac!(
        "hmac/hmac_sha224_rfc4231.blb",
        Sha224,
        MacTruncSide::None,
        7
    );
    mac!(
        "hmac/hmac_sha256_rfc4231.blb",
        Sha256,
        MacTruncSide::None,
        7
    );
    mac!(
        "hmac/hmac_sha384_rfc4231.blb",
        Sha384,
        MacTruncSide::None,
        7
    );
    mac!(
        "hmac/hmac_sha512_rfc4231.blb",
        Sha512,
        MacTruncSide::None,
        7
    );
    // Wycheproof's cases include truncated tags, compared on their leading bytes.
    mac!(
        "hmac/hmac_sha1_wycheproof.blb",
        Sha1,
        MacTruncSide::Left,
        66
    );
    mac!(
        "hmac/hmac_sha256_wycheproof.blb",
        Sha256,
        MacTruncSide::Left,
        66
    );
    mac!(
        "hmac/hmac_sha384_wycheproof.blb",
        Sha384,
        MacTruncSide::Left,
        66
    );
    mac!(
        "hmac/hmac_sha512_wycheproof.blb",
        Sha512,
        MacTruncSide::Left,
        66
    );
}

#[test]
fn aead_wycheproof() {
    macro_rules! aead {
        ($file:literal, $a:ty, $test:ident, $n:expr) => {{
            let (f, v) = vectors!(
                $file,
                AeadVector {
                    key,
                    nonce,
                    aad,
                    plaintext,
                    ciphertext
                }
            );
            assert_eq!(run(f, v, $test::<$a>), $n, "{f}");
        }};
    }
    aead!("aes-gcm/wycheproof-128_pass.blb", Aes128Gcm, pass_test, 22);
    aead!("aes-gcm/wycheproof-128_fail.blb", Aes128Gcm, fail_test, 27);
    aead!("aes-gcm/wycheproof-256_pass.blb", Aes256Gcm, pass_test, 21);
    aead!("aes-gcm/wycheproof-256_fail.blb", Aes256Gcm, fail_test, 27);
    aead!(
        "chacha20poly1305/wycheproof_chacha20poly1305_pass.blb",
        ChaCha20Poly1305,
        pass_test,
        233
    );
    aead!(
        "chacha20poly1305/wycheproof_chacha20poly1305_fail.blb",
        ChaCha20Poly1305,
        fail_test,
        60
    );
    aead!(
        "chacha20poly1305/wycheproof_xchacha20poly1305_pass.blb",
        XChaCha20Poly1305,
        pass_test,
        220
    );
    aead!(
        "chacha20poly1305/wycheproof_xchacha20poly1305_fail.blb",
        XChaCha20Poly1305,
        fail_test,
        60
    );
}

#[test]
fn aes_blocks() {
    macro_rules! block {
        ($file:literal, $c:ty, $n:expr) => {{
            let (f, v) = vectors!(
                $file,
                BlockVector {
                    key,
                    plaintext,
                    ciphertext
                }
            );
            assert_eq!(run(f, v, encrypt_decrypt_test::<$c>), $n, "{f}");
        }};
    }
    block!("aes/aes128.blb", Aes128, 1028);
    block!("aes/aes192.blb", Aes192, 1156);
    block!("aes/aes256.blb", Aes256, 1284);
}

#[test]
fn stream_ciphers() {
    macro_rules! stream {
        ($file:literal, $c:ty, $n:expr) => {{
            let (f, v) = vectors!(
                $file,
                StreamVector {
                    key,
                    iv,
                    plaintext,
                    ciphertext
                }
            );
            assert_eq!(run(f, v, stream_cipher_test::<$c>), $n, "{f}");
        }};
    }
    stream!("ctr/aes128-ctr.blb", Ctr<Aes128>, 1);
    stream!("ctr/aes256-ctr.blb", Ctr<Aes256>, 1);
    stream!("chacha20/chacha20.blb", ChaCha20, 3);
}
