//! Every AES-GCM backend against an independent reference (`common::gcm_ref`: SP 800-38D
//! written out over the portable AES block function, bit-by-bit GHASH), for all three key
//! sizes (house rule 7). The portable backend (`Features::none()`) is one of the backends
//! checked, and each walk must end with it.
//!
//! - proptest: random keys, 96-bit nonces, AAD of 0..=300 bytes and messages of 0..=4096
//!   bytes or of a length around a kernel stride, sealed and opened in place at an unaligned
//!   offset, through the main API and `seal`/`open`;
//! - proptest: random IVs of 1..=80 bytes (J0 = GHASH(IV ‖ pad ‖ len)) and every allowed tag
//!   length, through `seal_detached_with_iv` / `open_detached_with_iv`;
//! - the 32-bit counter wrap: `inc32` wraps the low 32 bits of the counter block and leaves
//!   the upper 96 alone (SP 800-38D §6.2), which a 128-bit increment gets wrong. Random IVs
//!   reach a J0 within `k` blocks of the wrap with probability about `k·2^-32`, so the tests
//!   *construct* IVs whose J0 is chosen (`gcm_ref::Gcm::iv_for_j0`, solving the last IV
//!   block in GF(2^128)), with the low word `2^32 - k` and messages long enough to cross it;
//! - deterministic: every message length 0..=48, each length around the strides (15, 16,
//!   17, 127..129, 255..257, 1023..1025, 4095..4097) and around the composition's 8 KiB chunk
//!   (8191..8193, 16401), with AAD of 0, 1, 13, 16, 17, 300 bytes; and the counter wrap at
//!   fixed distances (1..600 blocks) from the start of the message.

mod common;

use common::gcm::{Gcm, for_each_gcm_backend};
use common::gcm_ref::{self, Block, gf_inv, gf_mul};
use common::{hex, portable_backend};
use proptest::prelude::*;
use simdcrypt::cpu::Features;

/// Message lengths just around the kernels' strides (1, 8 and 16 blocks and their multiples).
const STRIDE_LENS: &[usize] = &[
    15, 16, 17, 127, 128, 129, 255, 256, 257, 1023, 1024, 1025, 4095, 4096, 4097,
];

/// Lengths around the composition's chunk of 8 KiB (`aes_gcm::CHUNK`: each chunk is encrypted,
/// then hashed) and its multiples, for the deterministic tests only.
const CHUNK_LENS: &[usize] = &[8191, 8192, 8193, 16384 + 17];

/// Allowed tag lengths in bytes (SP 800-38D §5.2.1.2: 128, 120, 112, 104, 96 bits, and 64
/// and 32 bits for special applications).
const TAG_LENS: [usize; 7] = [16, 15, 14, 13, 12, 8, 4];

/// `data` copied into a fresh buffer after `offset` filler bytes.
fn at_offset(data: &[u8], offset: usize) -> Vec<u8> {
    let mut v = vec![0xa5u8; offset];
    v.extend_from_slice(data);
    v
}

/// Deterministic pseudo-random bytes from a seed (xorshift64).
fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut s = seed | 1;
    (0..len)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 56) as u8
        })
        .collect()
}

fn fail(e: String) -> Result<(), TestCaseError> {
    Err(TestCaseError::fail(e))
}

/// Checks one (key, IV, AAD, message) on every backend against the reference, the message at
/// `offset` bytes into its buffer: the lower-level API with a tag of `tag_len` bytes, and for
/// a 96-bit IV also `seal_in_place_detached`/`open_in_place_detached` and `seal`/`open`.
/// Each seal's output is opened back. Returns the first mismatch as an error.
fn case<G: Gcm>(
    key: &[u8],
    iv: &[u8],
    aad: &[u8],
    pt: &[u8],
    offset: usize,
    tag_len: usize,
) -> Result<(), String> {
    let (ct, full_tag) = gcm_ref::Gcm::new(key).seal(iv, aad, pt);
    let (ct, tag) = (hex(&ct), &full_tag[..tag_len]);
    let mut result = Ok(());
    let mut last = "";
    for_each_gcm_backend::<G>(|name, f| {
        last = name;
        if result.is_err() {
            return;
        }
        let ctx = format!(
            "{} {name}: key {} iv {} aad {} bytes, message {} bytes at offset {offset}, tag {tag_len}",
            G::NAME,
            hex(key),
            hex(iv),
            aad.len(),
            pt.len()
        );
        let g = G::with(f, key);
        let mut check = |ok: bool, what: &str| {
            if !ok && result.is_ok() {
                result = Err(format!("{ctx}: {what}"));
            }
        };
        check(g.backend() == name, "backend()");

        let mut buf = at_offset(pt, offset);
        let mut t = vec![0u8; tag_len];
        let r = g.seal_detached_with_iv(iv, aad, &mut buf[offset..], &mut t);
        check(r.is_ok(), "seal_detached_with_iv: Err");
        check(
            hex(&buf[offset..]) == ct,
            "seal_detached_with_iv: ciphertext",
        );
        check(t == tag, "seal_detached_with_iv: tag");
        check(
            buf[..offset].iter().all(|&b| b == 0xa5),
            "bytes before the buffer",
        );
        let r = g.open_detached_with_iv(iv, aad, &mut buf[offset..], &t);
        check(r.is_ok(), "open_detached_with_iv: Err");
        check(buf[offset..] == *pt, "open_detached_with_iv: plaintext");

        if let (Ok(nonce), 16) = (<[u8; 12]>::try_from(iv), tag_len) {
            let mut buf = at_offset(pt, offset);
            let t = g.seal_in_place_detached(&nonce, aad, &mut buf[offset..]);
            check(
                t.as_ref().ok() == Some(&full_tag),
                "seal_in_place_detached: tag",
            );
            check(
                hex(&buf[offset..]) == ct,
                "seal_in_place_detached: ciphertext",
            );
            let r = g.open_in_place_detached(&nonce, aad, &mut buf[offset..], &full_tag);
            check(r.is_ok(), "open_in_place_detached: Err");
            check(buf[offset..] == *pt, "open_in_place_detached: plaintext");

            let sealed = g.seal(&nonce, aad, pt).unwrap_or_default();
            check(
                sealed.len() == pt.len() + 16
                    && hex(&sealed[..pt.len()]) == ct
                    && sealed[pt.len()..] == full_tag,
                "seal: ciphertext ‖ tag",
            );
            check(
                g.open(&nonce, aad, &sealed).as_deref() == Ok(pt),
                "open(seal(pt))",
            );
        }
    });
    if result.is_ok() && last != portable_backend(G::NAME) {
        result = Err(format!(
            "{}: the walk ended with {last}, not the portable pair",
            G::NAME
        ));
    }
    result
}

/// The reference's own field arithmetic: `x·1 = x`, commutativity, `x·x^-1 = 1`, and
/// `iv_for_j0` hitting its target (it asserts so itself).
fn field_laws(x: Block, y: Block) -> Result<(), TestCaseError> {
    prop_assert_eq!(gf_mul(x, gcm_ref::ONE), x);
    prop_assert_eq!(gf_mul(x, y), gf_mul(y, x));
    if x != 0 {
        prop_assert_eq!(gf_mul(x, gf_inv(x)), gcm_ref::ONE);
    }
    Ok(())
}

fn config() -> ProptestConfig {
    // 3 key sizes x 3 properties x 48 cases, each on every backend (about 6 on x86_64).
    ProptestConfig {
        cases: 48,
        ..ProptestConfig::default()
    }
}

/// A message length: uniform in 0..=4096, or one around a stride.
fn msg_len() -> impl Strategy<Value = usize> {
    prop_oneof![0usize..=4096, proptest::sample::select(STRIDE_LENS)]
}

/// The counter-wrap case: a J0 with low word `2^32 - k` (so the keystream's counter blocks are
/// `2^32 - k + 1, …, 2^32 - 1, 0, 1, …` in the low word) and the given upper 96 bits, reached
/// through an IV of `16 * iv_blocks` bytes; the message crosses the wrap when it has more
/// than `k - 1` blocks.
fn wrap_case<G: Gcm>(
    key: &[u8],
    upper: u128,
    k: u32,
    iv_blocks: usize,
    aad: &[u8],
    pt: &[u8],
    tag_len: usize,
) -> Result<(), String> {
    let r = gcm_ref::Gcm::new(key);
    let j0 = (upper << 32) | u128::from(k.wrapping_neg());
    let iv = r.iv_for_j0(j0, iv_blocks, &bytes(u64::from(k) ^ upper as u64, 64));
    case::<G>(key, &iv, aad, pt, 3, tag_len)
}

/// Every length 0..=48 and around the strides, with several AAD lengths, on every backend.
fn every_length<G: Gcm>() {
    let key = bytes(G::KEY_LEN as u64, G::KEY_LEN);
    let nonce = bytes(12, 12);
    for aad_len in [0, 1, 13, 16, 17, 300] {
        let aad = bytes(aad_len as u64 + 1000, aad_len);
        for len in (0..=48)
            .chain(STRIDE_LENS.iter().copied())
            .chain(CHUNK_LENS.iter().copied())
        {
            let pt = bytes(len as u64 + 7, len);
            if let Err(e) = case::<G>(&key, &nonce, &aad, &pt, len % 16, 16) {
                panic!("{e}");
            }
        }
    }
}

/// The wrap at fixed points: `k` blocks before it, for `k` around the strides and the chunk
/// size, with messages
/// ending just before, at and after the wrap, and one of 4 KiB + 1 byte; upper 96 bits of J0
/// random and all ones (where a carry out of the low word would show most).
fn counter_wrap<G: Gcm>() {
    let key = bytes(G::KEY_LEN as u64 + 99, G::KEY_LEN);
    let aad = bytes(5, 20);
    for upper in [0x0123_4567_89ab_cdef_0011_2233u128, (1 << 96) - 1, 0] {
        // 512, 513 and 600 put the wrap at or past the first 8 KiB chunk.
        for k in [
            1u32, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 255, 256, 512, 513, 600,
        ] {
            let at = 16 * (k as usize - 1);
            for len in [at.saturating_sub(1), at, at + 1, at + 16, at + 17, 4097] {
                let pt = bytes(u64::from(k) * 31 + len as u64, len);
                for iv_blocks in [1, 2] {
                    if let Err(e) = wrap_case::<G>(&key, upper, k, iv_blocks, &aad, &pt, 16) {
                        panic!("counter wrap, J0 low word 2^32 - {k}: {e}");
                    }
                }
            }
        }
    }
}

macro_rules! props {
    ($($m:ident: $g:ty, $len:literal),* $(,)?) => {$(
        mod $m {
            use super::*;
            proptest! {
                #![proptest_config(config())]
                #[test]
                fn nonce_backends_agree_with_reference(
                    key in proptest::collection::vec(any::<u8>(), $len),
                    nonce in any::<[u8; 12]>(),
                    aad in proptest::collection::vec(any::<u8>(), 0..=300),
                    len in msg_len(),
                    seed in any::<u64>(),
                    offset in 0usize..16,
                ) {
                    // Data from a seed (a 4 KiB vector strategy would dominate shrinking).
                    let pt = bytes(seed, len);
                    if let Err(e) = case::<$g>(&key, &nonce, &aad, &pt, offset, 16) {
                        return fail(e);
                    }
                }

                #[test]
                fn any_iv_and_tag_length_agree_with_reference(
                    key in proptest::collection::vec(any::<u8>(), $len),
                    iv in proptest::collection::vec(any::<u8>(), 1..=80),
                    aad in proptest::collection::vec(any::<u8>(), 0..=300),
                    len in msg_len(),
                    seed in any::<u64>(),
                    offset in 0usize..16,
                    tag_len in proptest::sample::select(&TAG_LENS[..]),
                ) {
                    let pt = bytes(seed, len);
                    if let Err(e) = case::<$g>(&key, &iv, &aad, &pt, offset, tag_len) {
                        return fail(e);
                    }
                }

                #[test]
                fn counter_wrap_agrees_with_reference(
                    key in proptest::collection::vec(any::<u8>(), $len),
                    upper in any::<u128>(),
                    k in 1u32..=300,
                    iv_blocks in 1usize..=4,
                    aad in proptest::collection::vec(any::<u8>(), 0..=40),
                    len in 0usize..=4097,
                    seed in any::<u64>(),
                    tag_len in proptest::sample::select(&TAG_LENS[..]),
                ) {
                    let pt = bytes(seed, len);
                    let upper = upper >> 32;
                    if let Err(e) = wrap_case::<$g>(&key, upper, k, iv_blocks, &aad, &pt, tag_len) {
                        return fail(e);
                    }
                }
            }

            #[test]
            fn every_length_around_the_strides() {
                super::every_length::<$g>();
            }

            #[test]
            fn counter_wrap_at_fixed_points() {
                super::counter_wrap::<$g>();
            }
        }
    )*};
}

props! {
    aes128: simdcrypt::aead::Aes128Gcm, 16,
    aes192: simdcrypt::aead::Aes192Gcm, 24,
    aes256: simdcrypt::aead::Aes256Gcm, 32,
}

proptest! {
    #[test]
    fn reference_field_laws(x in any::<u128>(), y in any::<u128>()) {
        field_laws(x, y)?;
    }
}

/// The portable pair is what `Features::none()` selects, for every key size.
#[test]
fn none_selects_the_portable_pair() {
    for name in ["aes128-gcm", "aes192-gcm", "aes256-gcm"] {
        let got = match name {
            "aes128-gcm" => simdcrypt::aead::Aes128Gcm::backend_for(Features::none()),
            "aes192-gcm" => simdcrypt::aead::Aes192Gcm::backend_for(Features::none()),
            _ => simdcrypt::aead::Aes256Gcm::backend_for(Features::none()),
        };
        assert_eq!(got, portable_backend(name));
    }
}
