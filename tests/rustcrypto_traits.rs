//! simdcrypt's RustCrypto trait impls (`--features digest,aead,cipher,universal-hash`)
//! against RustCrypto's own crates: a "downstream" module, `generic`, written against the
//! traits only (no simdcrypt name in it), runs on simdcrypt's types and on RustCrypto's
//! `sha1`, `sha2`, `hmac`, `aes`, `ctr`, `chacha20`, `poly1305`, `aes-gcm` and
//! `chacha20poly1305`, over random inputs (proptest), and the outputs must be byte-identical.
//!
//! The other direction too: RustCrypto's generic code on simdcrypt's primitives —
//! `hmac::SimpleHmac<simdcrypt::sha::Sha256>`, `ctr::Ctr128BE<simdcrypt::aes::Aes128>`,
//! `aes_gcm::AesGcm<simdcrypt::aes::Aes256, U12>` — must agree with simdcrypt's own HMAC, CTR
//! and AES-GCM.
//!
//! The trait path uses the default dispatch (`Features::detect()`); CI's `SIMDCRYPT_DISABLE`
//! runs put other kernels under it.

use proptest::prelude::*;

/// What a crate downstream of the traits would write: trait bounds only.
mod generic {
    use aead::inout::InOutBuf;
    use aead::{Aead, AeadInOut, KeyInit as AeadKeyInit, Nonce, Payload};
    use cipher::{
        Array, BlockCipherDecrypt, BlockCipherEncrypt, BlockSizeUser, KeyInit as CipherKeyInit,
        KeyIvInit, StreamCipher, StreamCipherSeek, consts::U16,
    };
    use digest::{Digest, FixedOutputReset, KeyInit as MacKeyInit, Mac};
    use universal_hash::{KeyInit as UhfKeyInit, UniversalHash};

    /// `msg` cut at `cuts` (clamped, sorted; repeats give empty pieces).
    pub fn pieces<'a>(msg: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
        let mut cuts: Vec<usize> = cuts.iter().map(|&c| c.min(msg.len())).collect();
        cuts.sort_unstable();
        let mut out = Vec::new();
        let mut at = 0;
        for c in cuts {
            out.push(&msg[at..c]);
            at = c;
        }
        out.push(&msg[at..]);
        out
    }

    /// The digest of `msg` three ways (one shot, in pieces, after a reset), all equal.
    pub fn hash<D: Digest + FixedOutputReset + Clone>(msg: &[u8], cuts: &[usize]) -> Vec<u8> {
        let one = D::digest(msg);
        let mut h = D::new();
        for p in pieces(msg, cuts) {
            Digest::update(&mut h, p);
        }
        let mut again = h.clone();
        assert_eq!(h.finalize(), one);
        Digest::update(&mut again, b"appended");
        Digest::reset(&mut again);
        Digest::update(&mut again, msg);
        assert_eq!(again.finalize_reset(), one);
        Digest::update(&mut again, msg);
        assert_eq!(again.finalize(), one);
        one.to_vec()
    }

    /// The MAC of `msg` under `key`, fed in pieces; checked with `verify_slice`.
    pub fn mac<M: Mac + MacKeyInit + Clone>(key: &[u8], msg: &[u8], cuts: &[usize]) -> Vec<u8> {
        let mut m = <M as MacKeyInit>::new_from_slice(key).unwrap();
        for p in pieces(msg, cuts) {
            m.update(p);
        }
        let tag = m.clone().finalize().into_bytes().to_vec();
        m.clone().verify_slice(&tag).unwrap();
        let mut bad = tag.clone();
        bad[0] ^= 1;
        assert!(m.verify_slice(&bad).is_err());
        tag
    }

    /// Ciphertext ‖ tag of `pt`, in place and out of place and through `Aead`; opened back
    /// all three ways; a forged tag and a truncated message are rejected.
    pub fn aead<A: AeadInOut + AeadKeyInit>(
        key: &[u8],
        nonce: &[u8],
        aad: &[u8],
        pt: &[u8],
    ) -> Vec<u8> {
        let a = A::new_from_slice(key).unwrap();
        let nonce = Nonce::<A>::try_from(nonce).unwrap();
        let mut inplace = pt.to_vec();
        let tag = a
            .encrypt_inout_detached(&nonce, aad, inplace.as_mut_slice().into())
            .unwrap();
        let mut outofplace = vec![0x55; pt.len()];
        let tag2 = a
            .encrypt_inout_detached(&nonce, aad, InOutBuf::new(pt, &mut outofplace[..]).unwrap())
            .unwrap();
        assert_eq!((&inplace, &tag), (&outofplace, &tag2));
        let mut sealed = inplace.clone();
        sealed.extend_from_slice(&tag);
        let via_vec = a.encrypt(&nonce, Payload { msg: pt, aad }).unwrap();
        assert_eq!(via_vec, sealed);
        assert_eq!(
            a.decrypt(&nonce, Payload { msg: &sealed, aad }).unwrap(),
            pt
        );
        let mut back = vec![0xaa; pt.len()];
        a.decrypt_inout_detached(
            &nonce,
            aad,
            InOutBuf::new(&inplace[..], &mut back[..]).unwrap(),
            &tag,
        )
        .unwrap();
        assert_eq!(back, pt);
        let mut bad = tag.clone();
        bad[15] ^= 0x80;
        let mut out = inplace.clone();
        assert!(
            a.decrypt_inout_detached(&nonce, aad, out.as_mut_slice().into(), &bad)
                .is_err()
        );
        assert!(
            a.decrypt(
                &nonce,
                Payload {
                    msg: &sealed[..sealed.len() - 1],
                    aad
                }
            )
            .is_err()
        );
        sealed
    }

    /// ECB of `blocks` with the block API (in place, buffer to buffer, one block at a time);
    /// decryption must invert it.
    pub fn blocks<
        C: BlockCipherEncrypt + BlockCipherDecrypt + CipherKeyInit + BlockSizeUser<BlockSize = U16>,
    >(
        key: &[u8],
        data: &[[u8; 16]],
    ) -> Vec<u8> {
        let c = C::new_from_slice(key).unwrap();
        let mut all: Vec<Array<u8, _>> = data.iter().map(|b| Array::from(*b)).collect();
        c.encrypt_blocks(&mut all);
        let mut b2b = vec![Array::default(); data.len()];
        let input: Vec<Array<u8, _>> = data.iter().map(|b| Array::from(*b)).collect();
        c.encrypt_blocks_b2b(&input, &mut b2b).unwrap();
        assert_eq!(all, b2b);
        for (i, b) in input.iter().enumerate() {
            let mut one = *b;
            c.encrypt_block(&mut one);
            assert_eq!(one, all[i]);
        }
        let mut back = all.clone();
        c.decrypt_blocks(&mut back);
        assert_eq!(back, input);
        all.iter().flat_map(|b| b.iter().copied()).collect()
    }

    /// `data` through the stream cipher in pieces, in place and buffer to buffer alternately.
    pub fn stream<S: StreamCipher + KeyIvInit>(
        key: &[u8],
        iv: &[u8],
        data: &[u8],
        cuts: &[usize],
    ) -> Vec<u8> {
        let mut s = S::new_from_slices(key, iv).unwrap();
        let mut out = Vec::new();
        for (i, p) in pieces(data, cuts).into_iter().enumerate() {
            let mut buf = vec![0xee; p.len()];
            if i % 2 == 0 {
                buf.copy_from_slice(p);
                s.try_apply_keystream(&mut buf).unwrap();
            } else {
                s.try_apply_keystream_b2b(p, &mut buf).unwrap();
            }
            out.extend_from_slice(&buf);
        }
        out
    }

    /// Random access: for each `(pos, len)`, seek to byte `pos`, take `len` bytes of
    /// keystream, and record them with the position the cipher reports before and after.
    pub fn seeking<S: StreamCipher + StreamCipherSeek + KeyIvInit>(
        key: &[u8],
        iv: &[u8],
        ops: &[(u64, usize)],
    ) -> Vec<(u64, Vec<u8>, u64)> {
        let mut s = S::new_from_slices(key, iv).unwrap();
        ops.iter()
            .map(|&(pos, len)| {
                s.try_seek(pos).unwrap();
                let at = s.current_pos::<u64>();
                let mut ks = vec![0u8; len];
                s.try_apply_keystream(&mut ks).unwrap();
                (at, ks, s.current_pos::<u64>())
            })
            .collect()
    }

    /// The universal hash of `data` as whole blocks then a zero-padded tail.
    pub fn uhf<U: UniversalHash + UhfKeyInit>(key: &[u8], data: &[u8], tail: &[u8]) -> Vec<u8> {
        let mut u = U::new_from_slice(key).unwrap();
        let (blocks, _) = Array::slice_as_chunks(data);
        u.update(blocks);
        u.update_padded(tail);
        u.finalize().to_vec()
    }
}

use generic::*;
use hex_literal::hex;

type Sc = simdcrypt::sha::Sha256;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn hashes_agree(msg in prop::collection::vec(any::<u8>(), 0..700),
                    cuts in prop::collection::vec(0usize..700, 0..4)) {
        use simdcrypt::sha as s;
        prop_assert_eq!(hash::<s::Sha1>(&msg, &cuts), hash::<sha1_011::Sha1>(&msg, &cuts));
        prop_assert_eq!(hash::<s::Sha224>(&msg, &cuts), hash::<sha2_011::Sha224>(&msg, &cuts));
        prop_assert_eq!(hash::<s::Sha256>(&msg, &cuts), hash::<sha2_011::Sha256>(&msg, &cuts));
        prop_assert_eq!(hash::<s::Sha384>(&msg, &cuts), hash::<sha2_011::Sha384>(&msg, &cuts));
        prop_assert_eq!(hash::<s::Sha512>(&msg, &cuts), hash::<sha2_011::Sha512>(&msg, &cuts));
        prop_assert_eq!(hash::<s::Sha512_224>(&msg, &cuts), hash::<sha2_011::Sha512_224>(&msg, &cuts));
        prop_assert_eq!(hash::<s::Sha512_256>(&msg, &cuts), hash::<sha2_011::Sha512_256>(&msg, &cuts));
    }

    #[test]
    fn hmacs_agree(key in prop::collection::vec(any::<u8>(), 0..300),
                   msg in prop::collection::vec(any::<u8>(), 0..500),
                   cuts in prop::collection::vec(0usize..500, 0..4)) {
        use simdcrypt::{hmac::Hmac, sha as s};
        use hmac_013::Hmac as RcHmac;
        prop_assert_eq!(mac::<Hmac<s::Sha1>>(&key, &msg, &cuts), mac::<RcHmac<sha1_011::Sha1>>(&key, &msg, &cuts));
        prop_assert_eq!(mac::<Hmac<s::Sha224>>(&key, &msg, &cuts), mac::<RcHmac<sha2_011::Sha224>>(&key, &msg, &cuts));
        prop_assert_eq!(mac::<Hmac<s::Sha256>>(&key, &msg, &cuts), mac::<RcHmac<sha2_011::Sha256>>(&key, &msg, &cuts));
        prop_assert_eq!(mac::<Hmac<s::Sha384>>(&key, &msg, &cuts), mac::<RcHmac<sha2_011::Sha384>>(&key, &msg, &cuts));
        prop_assert_eq!(mac::<Hmac<s::Sha512>>(&key, &msg, &cuts), mac::<RcHmac<sha2_011::Sha512>>(&key, &msg, &cuts));
        // RustCrypto's generic HMAC over simdcrypt's hash: only the digest traits in between.
        prop_assert_eq!(mac::<hmac_013::SimpleHmac<Sc>>(&key, &msg, &cuts), mac::<Hmac<Sc>>(&key, &msg, &cuts));
        prop_assert_eq!(mac::<hmac_013::SimpleHmac<s::Sha512>>(&key, &msg, &cuts), mac::<Hmac<s::Sha512>>(&key, &msg, &cuts));
    }

    #[test]
    fn aeads_agree(key in prop::array::uniform32(any::<u8>()),
                   nonce in prop::collection::vec(any::<u8>(), 24),
                   aad in prop::collection::vec(any::<u8>(), 0..80),
                   pt in prop::collection::vec(any::<u8>(), 0..600)) {
        use simdcrypt::aead as s;
        let n12 = &nonce[..12];
        prop_assert_eq!(aead::<s::Aes128Gcm>(&key[..16], n12, &aad, &pt), aead::<aes_gcm_011::Aes128Gcm>(&key[..16], n12, &aad, &pt));
        prop_assert_eq!(aead::<s::Aes256Gcm>(&key, n12, &aad, &pt), aead::<aes_gcm_011::Aes256Gcm>(&key, n12, &aad, &pt));
        // aes-gcm has no AES-192 alias: its generic AesGcm over RustCrypto's aes::Aes192.
        type RcAes192Gcm = aes_gcm_011::AesGcm<aes_09::Aes192, aes_gcm_011::aead::consts::U12>;
        prop_assert_eq!(aead::<s::Aes192Gcm>(&key[..24], n12, &aad, &pt), aead::<RcAes192Gcm>(&key[..24], n12, &aad, &pt));
        // RustCrypto's generic GCM over simdcrypt's AES: only the cipher traits in between.
        type GcmOnOurAes = aes_gcm_011::AesGcm<simdcrypt::aes::Aes256, aes_gcm_011::aead::consts::U12>;
        prop_assert_eq!(aead::<GcmOnOurAes>(&key, n12, &aad, &pt), aead::<s::Aes256Gcm>(&key, n12, &aad, &pt));
        prop_assert_eq!(aead::<s::ChaCha20Poly1305>(&key, n12, &aad, &pt), aead::<chacha20poly1305_011::ChaCha20Poly1305>(&key, n12, &aad, &pt));
        prop_assert_eq!(aead::<s::XChaCha20Poly1305>(&key, &nonce, &aad, &pt), aead::<chacha20poly1305_011::XChaCha20Poly1305>(&key, &nonce, &aad, &pt));
    }

    #[test]
    fn block_ciphers_agree(key in prop::array::uniform32(any::<u8>()),
                           data in prop::collection::vec(prop::array::uniform16(any::<u8>()), 0..40)) {
        use simdcrypt::aes as s;
        prop_assert_eq!(blocks::<s::Aes128>(&key[..16], &data), blocks::<aes_09::Aes128>(&key[..16], &data));
        prop_assert_eq!(blocks::<s::Aes192>(&key[..24], &data), blocks::<aes_09::Aes192>(&key[..24], &data));
        prop_assert_eq!(blocks::<s::Aes256>(&key, &data), blocks::<aes_09::Aes256>(&key, &data));
    }

    #[test]
    fn stream_ciphers_agree(key in prop::array::uniform32(any::<u8>()),
                            iv in prop::array::uniform16(any::<u8>()),
                            data in prop::collection::vec(any::<u8>(), 0..1100),
                            cuts in prop::collection::vec(0usize..1100, 0..5)) {
        use simdcrypt::aes::{self as s, Ctr};
        use ctr_010::Ctr128BE;
        prop_assert_eq!(stream::<Ctr<s::Aes128>>(&key[..16], &iv, &data, &cuts), stream::<Ctr128BE<aes_09::Aes128>>(&key[..16], &iv, &data, &cuts));
        prop_assert_eq!(stream::<Ctr<s::Aes192>>(&key[..24], &iv, &data, &cuts), stream::<Ctr128BE<aes_09::Aes192>>(&key[..24], &iv, &data, &cuts));
        prop_assert_eq!(stream::<Ctr<s::Aes256>>(&key, &iv, &data, &cuts), stream::<Ctr128BE<aes_09::Aes256>>(&key, &iv, &data, &cuts));
        // RustCrypto's CTR over simdcrypt's AES (its backend path, eight blocks per call).
        prop_assert_eq!(stream::<Ctr128BE<s::Aes128>>(&key[..16], &iv, &data, &cuts), stream::<Ctr<s::Aes128>>(&key[..16], &iv, &data, &cuts));
        prop_assert_eq!(stream::<simdcrypt::chacha20::ChaCha20>(&key, &iv[..12], &data, &cuts), stream::<chacha20_010::ChaCha20>(&key, &iv[..12], &data, &cuts));
    }

    #[test]
    fn stream_seeks_agree(key in prop::array::uniform32(any::<u8>()),
                          iv in prop::array::uniform16(any::<u8>()),
                          ops in prop::collection::vec(
                              (prop_oneof![0u64..3000, 0u64..(1 << 37)], 0usize..300), 1..6)) {
        use simdcrypt::aes::{self as s, Ctr};
        use ctr_010::Ctr128BE;
        prop_assert_eq!(seeking::<Ctr<s::Aes128>>(&key[..16], &iv, &ops), seeking::<Ctr128BE<aes_09::Aes128>>(&key[..16], &iv, &ops));
        prop_assert_eq!(seeking::<Ctr<s::Aes256>>(&key, &iv, &ops), seeking::<Ctr128BE<aes_09::Aes256>>(&key, &iv, &ops));
        prop_assert_eq!(seeking::<simdcrypt::chacha20::ChaCha20>(&key, &iv[..12], &ops), seeking::<chacha20_010::ChaCha20>(&key, &iv[..12], &ops));
    }

    #[test]
    fn poly1305_agrees(key in prop::array::uniform32(any::<u8>()),
                       data in prop::collection::vec(any::<u8>(), 0..600),
                       tail in prop::collection::vec(any::<u8>(), 0..16)) {
        prop_assert_eq!(uhf::<simdcrypt::poly1305::Poly1305>(&key, &data, &tail), uhf::<poly1305_09::Poly1305>(&key, &data, &tail));
    }
}

/// Counter wrap-around at 2^128 (CTR) and the end of ChaCha20's 32-bit counter through the
/// trait, against RustCrypto where both define it.
#[test]
fn stream_edges() {
    use cipher::{KeyIvInit, StreamCipher};
    let key = [9u8; 16];
    let iv = [0xff; 16];
    assert_eq!(
        stream::<simdcrypt::aes::Ctr<simdcrypt::aes::Aes128>>(&key, &iv, &[0; 100], &[3, 50]),
        stream::<ctr_010::Ctr128BE<aes_09::Aes128>>(&key, &iv, &[0; 100], &[3, 50])
    );
    let mut last = simdcrypt::chacha20::ChaCha20::new(&[1; 32], &[2; 12], u32::MAX);
    assert!(last.check_remaining(64).is_ok());
    assert!(last.check_remaining(65).is_err());
    let mut buf = [0u8; 65];
    assert!(last.try_apply_keystream(&mut buf).is_err());
    assert_eq!(buf, [0; 65], "nothing written on error");
    last.try_apply_keystream(&mut buf[..64]).unwrap();
    assert!(last.try_apply_keystream(&mut buf[..1]).is_err());
    let _ = <simdcrypt::chacha20::ChaCha20 as KeyIvInit>::new(&[0; 32].into(), &[0; 12].into());
}

/// Seeking at the ends of the keystream: where simdcrypt and RustCrypto both define the
/// result they agree; past the end is `Err` and leaves the stream where it was.
#[test]
fn seek_edges() {
    use cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
    use simdcrypt::chacha20::ChaCha20;
    let (key, nonce) = ([3u8; 32], [4u8; 12]);
    let mut ours = <ChaCha20 as KeyIvInit>::new(&key.into(), &nonce.into());
    let mut theirs = <chacha20_010::ChaCha20 as KeyIvInit>::new(&key.into(), &nonce.into());
    // Up to the last block of the 32-bit counter, from the middle of a block, against
    // RustCrypto; RustCrypto stops one block short of RFC 8439's 2^32 blocks (and refuses a
    // seek into its last block), so the last block is checked against simdcrypt's own
    // ChaCha20 started at counter 2^32 - 1.
    let end = 1u64 << 38;
    ours.seek(end - 64 - 104);
    theirs.seek(end - 64 - 104);
    let (mut a, mut b) = ([0u8; 104], [0u8; 104]);
    StreamCipher::apply_keystream(&mut ours, &mut a);
    theirs.apply_keystream(&mut b);
    assert_eq!(a, b);
    let mut want = [0u8; 64];
    ChaCha20::new(&key, &nonce, u32::MAX)
        .apply_keystream(&mut want)
        .unwrap();
    ours.seek(end - 40);
    let mut tail = [0u8; 40];
    StreamCipher::apply_keystream(&mut ours, &mut tail);
    assert_eq!(tail, want[24..]);
    assert_eq!(ours.current_pos::<u64>(), end);
    assert!(ours.try_apply_keystream(&mut [0u8; 1]).is_err());
    // A negative position is `Err`, not a panic (`cipher`'s own split of an `i32` panics).
    assert!(ours.try_seek(-1i32).is_err());
    assert!(ours.try_seek(i32::MIN).is_err());
    // Past the end: refused, position unchanged; u32 cannot hold the position: `Err`.
    assert!(ours.try_seek((1u64 << 38) + 1).is_err());
    assert_eq!(ours.current_pos::<u64>(), 1 << 38);
    ours.seek(100u32);
    assert!(ours.try_current_pos::<u32>().is_ok());
    ours.seek(1u64 << 33);
    assert!(ours.try_current_pos::<u32>().is_err());
    assert_eq!(ours.try_current_pos::<u128>().ok(), Some(1 << 33));

    // CTR: the position is relative to the IV, so an IV of all ones wraps at once.
    type C = simdcrypt::aes::Ctr<simdcrypt::aes::Aes128>;
    let mut ours = <C as KeyIvInit>::new(&[5; 16].into(), &[0xff; 16].into());
    let mut theirs = ctr_010::Ctr128BE::<aes_09::Aes128>::new(&[5; 16].into(), &[0xff; 16].into());
    for pos in [0u128, 15, 16, 17, 1 << 64, (1 << 100) + 7, u128::MAX - 100] {
        ours.seek(pos);
        theirs.seek(pos);
        let (mut a, mut b) = ([0u8; 48], [0u8; 48]);
        StreamCipher::apply_keystream(&mut ours, &mut a);
        theirs.apply_keystream(&mut b);
        assert_eq!(a, b, "pos {pos}");
        assert_eq!(ours.current_pos::<u128>(), pos + 48);
    }
    // The inherent API: the end of 2^128 - 1 blocks, and nothing beyond.
    let mut c = simdcrypt::aes::Ctr::new(simdcrypt::aes::Aes128::new(&[5; 16]), &[0; 16]);
    c.set_position(u128::MAX - 1, 15).unwrap();
    assert!(c.has_keystream(1) && !c.has_keystream(2));
    assert!(c.set_position(u128::MAX, 1).is_err());
    assert_eq!(c.position(), (u128::MAX - 1, 15));
    c.set_position(u128::MAX, 0).unwrap();
    assert!(!c.has_keystream(1));
    assert!(c.set_position(3, 16).is_err());
    // Positions past u128 bytes are not representable in any `SeekNum`.
    assert!(c.try_current_pos::<u128>().is_err());
}

/// One fixed case per family, so a regression shows a readable value, not only a mismatch:
/// FIPS 180-2 "abc" for SHA-256 and RFC 4231 case 2 for HMAC-SHA-256.
#[test]
fn known_answers_through_traits() {
    assert_eq!(
        hash::<Sc>(b"abc", &[1]),
        hex!("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    );
    assert_eq!(
        mac::<simdcrypt::hmac::Hmac<Sc>>(b"Jefe", b"what do ya want for nothing?", &[5]),
        hex!("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    );
}

/// simdcrypt's own promise, kept through the trait: a failed open leaves the output all zero,
/// in place and out of place (RustCrypto's crates make no such promise, so this is not in
/// the generic code).
#[test]
fn failed_open_zeroes_output() {
    use aead::inout::InOutBuf;
    use aead::{AeadInOut, KeyInit, Nonce};
    let a = <simdcrypt::aead::ChaCha20Poly1305 as KeyInit>::new(&[4; 32].into());
    let nonce = Nonce::<simdcrypt::aead::ChaCha20Poly1305>::default();
    let mut ct = *b"some secret text";
    let mut tag = a
        .encrypt_inout_detached(&nonce, b"", (&mut ct[..]).into())
        .unwrap();
    tag[0] ^= 1;
    let mut out = [0xaa; 16];
    let buf = InOutBuf::new(&ct[..], &mut out[..]).unwrap();
    assert!(a.decrypt_inout_detached(&nonce, b"", buf, &tag).is_err());
    assert_eq!(out, [0; 16]);
    assert!(
        a.decrypt_inout_detached(&nonce, b"", (&mut ct[..]).into(), &tag)
            .is_err()
    );
    assert_eq!(ct, [0; 16]);
}
