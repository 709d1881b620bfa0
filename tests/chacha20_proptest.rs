//! Every ChaCha20 and Poly1305 kernel, and every ChaCha20-Poly1305 kernel pair, against the
//! portable code (house rule 7). The portable kernel is one of those checked, and every walk
//! ends with it.
//!
//! - ChaCha20: every length 0..=4096 at an unaligned offset; random streaming splits
//!   (proptest); the IETF counter near 2^32 (blocks up to 2^32 − 1 are served, one more is
//!   `Err(CounterExhausted)` with nothing written, also after a partial block); the original
//!   layout's 64-bit counter across 2^32 (the carry into word 13) and up to 2^64 − 1. The
//!   reference for a block near the wrap is a fresh portable `ChaCha20` started at exactly
//!   that block, which never crosses it.
//! - Poly1305: every length 0..=4096 under worst-case keys (every clamped bit of `r` set,
//!   messages of all-ones bytes: the most carries) and random keys; random streaming splits
//!   (proptest).
//! - The AEADs: seal and open in place at an unaligned offset against the portable reference
//!   of `common::chacha` (proptest, and deterministic lengths around the kernels' strides and
//!   the composition's 192-byte head, 4 KiB chunks and 64-byte limit on the AAD of its
//!   one-call MAC), for ChaCha20-Poly1305, XChaCha20-Poly1305 and the OpenSSH construction.

mod common;

use common::chacha::{
    for_each_chacha20_backend, for_each_chacha20_poly1305_backend, for_each_openssh_backend,
    for_each_poly1305_backend, for_each_xchacha20_poly1305_backend, ref_chacha20,
    ref_chacha20_poly1305, ref_openssh, ref_xchacha20_poly1305,
};
use common::{hex, portable_backend};
use proptest::prelude::*;
use simdcrypt::Error;
use simdcrypt::aead::{ChaCha20Poly1305, OpenSshChaCha20Poly1305, XChaCha20Poly1305};
use simdcrypt::chacha20::ChaCha20;
use simdcrypt::cpu::Features;
use simdcrypt::poly1305::Poly1305;

/// Lengths around the kernels' strides (1, 2, 4, 8, 16 ChaCha20 blocks; 4 and 8 Poly1305
/// blocks), the AEAD's 192-byte head and its 4 KiB chunks.
const STRIDE_LENS: &[usize] = &[
    15,
    16,
    17,
    63,
    64,
    65,
    127,
    128,
    129,
    191,
    192,
    193,
    255,
    256,
    257,
    511,
    512,
    513,
    1023,
    1024,
    1025,
    2047,
    2048,
    2049,
    4095,
    4096,
    4097,
    4096 + 192,
    4096 + 193,
    8192 + 191,
    3 * 4096 + 200,
];

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

fn arr<const N: usize>(seed: u64) -> [u8; N] {
    bytes(seed, N).try_into().unwrap()
}

/// `data` copied into a fresh buffer after `offset` filler bytes.
fn at_offset(data: &[u8], offset: usize) -> Vec<u8> {
    let mut v = vec![0xa5u8; offset];
    v.extend_from_slice(data);
    v
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 64,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------
// ChaCha20

#[test]
fn chacha20_every_length() {
    for_each_chacha20_backend(|name, f| {
        for len in 0..=4096usize {
            let key: [u8; 32] = arr(len as u64);
            let nonce: [u8; 12] = arr(len as u64 + 5000);
            let counter = (len as u32).wrapping_mul(0x9e37_79b9) >> 8;
            let pt = bytes(len as u64 + 10_000, len);
            let mut want = pt.clone();
            ref_chacha20(&key, &nonce, u64::from(counter), &mut want);
            let off = len % 16;
            let mut buf = at_offset(&pt, off);
            let mut c = ChaCha20::new_with(f, &key, &nonce, counter);
            c.apply_keystream(&mut buf[off..]).unwrap();
            assert_eq!(hex(&buf[off..]), hex(&want), "{name}, {len} bytes");
            assert!(
                buf[..off].iter().all(|&b| b == 0xa5),
                "{name}: wrote before"
            );
        }
    });
}

/// One block (64 bytes) of keystream at IETF block `counter`, from a fresh portable value.
fn ietf_block(key: &[u8; 32], nonce: &[u8; 12], counter: u32) -> Vec<u8> {
    let mut b = vec![0u8; 64];
    ref_chacha20(key, nonce, u64::from(counter), &mut b);
    b
}

#[test]
fn chacha20_ietf_counter_near_the_end() {
    let key: [u8; 32] = arr(1);
    let nonce: [u8; 12] = arr(2);
    for_each_chacha20_backend(|name, f| {
        for k in [1u32, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40] {
            let start = k.wrapping_neg(); // k blocks left: 2^32 − k … 2^32 − 1
            let room = 64 * k as usize;
            let mut want = Vec::new();
            for i in 0..k {
                want.extend(ietf_block(&key, &nonce, start + i));
            }
            for len in [room - 1, room, room - 63, 1] {
                let mut buf = vec![0u8; len];
                ChaCha20::new_with(f, &key, &nonce, start)
                    .apply_keystream(&mut buf)
                    .unwrap();
                assert_eq!(hex(&buf), hex(&want[..len]), "{name} k {k} len {len}");
            }
            // One byte past the last block: an error, nothing written.
            let mut c = ChaCha20::new_with(f, &key, &nonce, start);
            let mut buf = vec![0x11u8; room + 1];
            assert_eq!(c.apply_keystream(&mut buf), Err(Error::CounterExhausted));
            assert!(buf.iter().all(|&b| b == 0x11), "{name}: written on error");
            // Streaming: a partial block, the rest, then nothing more.
            let (a, b) = buf[..room].split_at_mut(room / 2 + 3);
            c.apply_keystream(a).unwrap();
            c.apply_keystream(b).unwrap();
            for (x, w) in buf[..room].iter().zip(&want) {
                assert_eq!(x ^ 0x11, *w, "{name} k {k}");
            }
            let mut one = [0u8; 1];
            assert_eq!(c.apply_keystream(&mut one), Err(Error::CounterExhausted));
            assert_eq!(one, [0]);
            assert_eq!(c.apply_keystream(&mut []), Ok(()));
        }
    });
}

/// One block of the original layout at 64-bit block `counter`.
fn legacy_block(key: &[u8; 32], nonce: &[u8; 8], counter: u64) -> Vec<u8> {
    let mut b = vec![0u8; 64];
    ref_chacha20(key, nonce, counter, &mut b);
    b
}

#[test]
fn chacha20_legacy_counter_carry_and_end() {
    let key: [u8; 32] = arr(3);
    let nonce: [u8; 8] = arr(4);
    for_each_chacha20_backend(|name, f| {
        // Across the low word's wrap (word 12 → word 13), from k blocks before it.
        for high in [0u64, 1, 0xffff_fffe] {
            for k in [1u64, 2, 3, 5, 8, 16, 17, 33] {
                let start = (high << 32) | ((1 << 32) - k);
                let blocks = k + 20;
                let mut want = Vec::new();
                for i in 0..blocks {
                    want.extend(legacy_block(&key, &nonce, start + i));
                }
                let mut buf = vec![0u8; 64 * blocks as usize - 7];
                let mut c = ChaCha20::new_legacy_with(f, &key, &nonce, start);
                let (a, b) = buf.split_at_mut(13);
                c.apply_keystream(a).unwrap();
                c.apply_keystream(b).unwrap();
                assert_eq!(hex(&buf), hex(&want[..buf.len()]), "{name} {start:#x}");
            }
        }
        // The end of the 64-bit counter: 2^64 − 1 is the last block.
        for k in [1u64, 2, 9] {
            let start = k.wrapping_neg();
            let mut want = Vec::new();
            for i in 0..k {
                want.extend(legacy_block(&key, &nonce, start + i));
            }
            let mut c = ChaCha20::new_legacy_with(f, &key, &nonce, start);
            let mut buf = vec![0u8; 64 * k as usize + 1];
            assert_eq!(c.apply_keystream(&mut buf), Err(Error::CounterExhausted));
            assert!(buf.iter().all(|&b| b == 0));
            let n = buf.len() - 1;
            c.apply_keystream(&mut buf[..n]).unwrap();
            assert_eq!(hex(&buf[..n]), hex(&want), "{name} end k {k}");
            assert_eq!(
                c.apply_keystream(&mut buf[n..]),
                Err(Error::CounterExhausted)
            );
        }
    });
}

/// Streams `data` through `c` in pieces of the given sizes (cycled), the rest in one call.
fn stream(c: &mut ChaCha20, data: &mut [u8], splits: &[usize]) {
    let mut rest = data;
    for s in splits.iter().cycle().take(64) {
        if rest.is_empty() {
            break;
        }
        let n = (*s).min(rest.len());
        let (a, b) = rest.split_at_mut(n);
        c.apply_keystream(a).unwrap();
        rest = b;
    }
    c.apply_keystream(rest).unwrap();
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn chacha20_streaming_splits_agree(
        key in any::<[u8; 32]>(),
        nonce in any::<[u8; 12]>(),
        counter in 0u32..=(u32::MAX - 100),
        legacy_nonce in any::<[u8; 8]>(),
        legacy_counter in any::<u64>(),
        len in prop_oneof![0usize..=4096, proptest::sample::select(STRIDE_LENS)],
        seed in any::<u64>(),
        splits in proptest::collection::vec(0usize..=1100, 1..8),
    ) {
        let pt = bytes(seed, len);
        let mut want = pt.clone();
        ref_chacha20(&key, &nonce, u64::from(counter), &mut want);
        // Keep the legacy counter at least 2^7 blocks from the end of its range.
        let legacy_counter = legacy_counter.min(u64::MAX - 128);
        let mut want_legacy = pt.clone();
        ref_chacha20(&key, &legacy_nonce, legacy_counter, &mut want_legacy);
        let mut err = None;
        for_each_chacha20_backend(|name, f| {
            let mut buf = pt.clone();
            stream(&mut ChaCha20::new_with(f, &key, &nonce, counter), &mut buf, &splits);
            if buf != want && err.is_none() {
                err = Some(format!("{name}: IETF, {len} bytes, splits {splits:?}"));
            }
            let mut buf = pt.clone();
            let mut c = ChaCha20::new_legacy_with(f, &key, &legacy_nonce, legacy_counter);
            stream(&mut c, &mut buf, &splits);
            if buf != want_legacy && err.is_none() {
                err = Some(format!("{name}: legacy from {legacy_counter:#x}, {len} bytes"));
            }
        });
        if let Some(e) = err {
            return Err(TestCaseError::fail(e));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Poly1305

fn tag_of(f: Features, key: &[u8; 32], msg: &[u8], splits: &[usize]) -> [u8; 16] {
    let mut m = Poly1305::new_with(f, key);
    let mut rest = msg;
    for s in splits.iter().cycle().take(64) {
        if rest.is_empty() {
            break;
        }
        let n = (*s).min(rest.len());
        m.update(&rest[..n]);
        rest = &rest[n..];
    }
    m.update(rest);
    m.finalize()
}

#[test]
fn poly1305_every_length_worst_case_and_random() {
    // r with every clamped bit set, s all ones; all-ones messages.
    let worst = [0xffu8; 32];
    let ones = vec![0xffu8; 4096];
    for_each_poly1305_backend(|name, f| {
        for len in 0..=4096usize {
            let want = tag_of(Features::none(), &worst, &ones[..len], &[]);
            assert_eq!(
                tag_of(f, &worst, &ones[..len], &[]),
                want,
                "{name}: worst case, {len} bytes"
            );
            let key: [u8; 32] = arr(len as u64 + 77);
            let msg = bytes(len as u64 + 20_000, len);
            let off = len % 8;
            let buf = at_offset(&msg, off);
            assert_eq!(
                tag_of(f, &key, &buf[off..], &[]),
                tag_of(Features::none(), &key, &msg, &[]),
                "{name}: {len} bytes"
            );
        }
        // Tails of other bytes after many all-ones blocks (large accumulators throughout).
        for tail in [0usize, 1, 15, 16, 17, 100] {
            let mut msg = vec![0xffu8; 1024];
            msg.extend(std::iter::repeat_n(0xfeu8, tail));
            assert_eq!(
                tag_of(f, &worst, &msg, &[]),
                tag_of(Features::none(), &worst, &msg, &[]),
                "{name}: tail {tail}"
            );
        }
    });
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn poly1305_streaming_splits_agree(
        key in prop_oneof![any::<[u8; 32]>(), Just([0xffu8; 32])],
        len in prop_oneof![0usize..=4096, proptest::sample::select(STRIDE_LENS)],
        seed in any::<u64>(),
        ones in any::<bool>(),
        splits in proptest::collection::vec(0usize..=300, 1..8),
    ) {
        let msg = if ones { vec![0xffu8; len] } else { bytes(seed, len) };
        let want = tag_of(Features::none(), &key, &msg, &[]);
        let mut err = None;
        for_each_poly1305_backend(|name, f| {
            if tag_of(f, &key, &msg, &splits) != want && err.is_none() {
                err = Some(format!("{name}: {len} bytes, splits {splits:?}"));
            }
            let mut m = Poly1305::new_with(f, &key);
            m.update(&msg);
            if m.verify(&want).is_err() && err.is_none() {
                err = Some(format!("{name}: verify rejects the right tag"));
            }
        });
        if let Some(e) = err {
            return Err(TestCaseError::fail(e));
        }
    }
}

// ---------------------------------------------------------------------------------------
// The AEADs

/// One ChaCha20-Poly1305 message on every pair: seal and open in place at `offset`, `seal` and
/// `open`, against the reference.
fn aead_case(
    key: &[u8; 32],
    nonce: &[u8; 12],
    aad: &[u8],
    pt: &[u8],
    offset: usize,
) -> Result<(), String> {
    let (ct, tag) = ref_chacha20_poly1305(key, nonce, aad, pt);
    let mut result = Ok(());
    for_each_chacha20_poly1305_backend(|name, f| {
        if result.is_err() {
            return;
        }
        let a = ChaCha20Poly1305::new_with(f, key);
        let mut buf = at_offset(pt, offset);
        let t = a.seal_in_place_detached(nonce, aad, &mut buf[offset..]);
        if t != Ok(tag) || buf[offset..] != ct[..] {
            result = Err(format!(
                "{name}: seal, {} bytes, aad {}",
                pt.len(),
                aad.len()
            ));
            return;
        }
        if a.open_in_place_detached(nonce, aad, &mut buf[offset..], &tag) != Ok(())
            || buf[offset..] != *pt
        {
            result = Err(format!("{name}: open, {} bytes", pt.len()));
            return;
        }
        let mut sealed = ct.clone();
        sealed.extend_from_slice(&tag);
        if a.seal(nonce, aad, pt).as_deref() != Ok(&sealed[..])
            || a.open(nonce, aad, &sealed).as_deref() != Ok(pt)
        {
            result = Err(format!("{name}: seal/open Vec API, {} bytes", pt.len()));
        }
    });
    result
}

fn xchacha_case(
    key: &[u8; 32],
    nonce: &[u8; 24],
    aad: &[u8],
    pt: &[u8],
    offset: usize,
) -> Result<(), String> {
    let (ct, tag) = ref_xchacha20_poly1305(key, nonce, aad, pt);
    let mut result = Ok(());
    for_each_xchacha20_poly1305_backend(|name, f| {
        if result.is_err() {
            return;
        }
        let a = XChaCha20Poly1305::new_with(f, key);
        let mut buf = at_offset(pt, offset);
        let t = a.seal_in_place_detached(nonce, aad, &mut buf[offset..]);
        if t != Ok(tag) || buf[offset..] != ct[..] {
            result = Err(format!("{name}: XChaCha seal, {} bytes", pt.len()));
            return;
        }
        if a.open_in_place_detached(nonce, aad, &mut buf[offset..], &tag) != Ok(())
            || buf[offset..] != *pt
        {
            result = Err(format!("{name}: XChaCha open, {} bytes", pt.len()));
        }
    });
    result
}

fn openssh_case(key: &[u8; 64], seq: u64, payload: &[u8], offset: usize) -> Result<(), String> {
    let mut packet = (payload.len() as u32).to_be_bytes().to_vec();
    packet.extend_from_slice(payload);
    let (ct, tag) = ref_openssh(key, seq, &packet);
    let mut result = Ok(());
    for_each_openssh_backend(|name, f| {
        if result.is_err() {
            return;
        }
        let a = OpenSshChaCha20Poly1305::new_with(f, key);
        let mut buf = at_offset(&packet, offset);
        let t = a.seal_in_place(seq, &mut buf[offset..]);
        if t != Ok(tag) || buf[offset..] != ct[..] {
            result = Err(format!("{name}: OpenSSH seal, {} bytes", payload.len()));
            return;
        }
        let len = a.decrypt_length(seq, buf[offset..offset + 4].try_into().unwrap());
        if len != packet[..4] {
            result = Err(format!("{name}: decrypt_length"));
            return;
        }
        if a.open_in_place(seq, &mut buf[offset..], &tag) != Ok(()) || buf[offset..] != packet[..] {
            result = Err(format!("{name}: OpenSSH open, {} bytes", payload.len()));
        }
    });
    result
}

#[test]
fn aead_every_length_around_the_strides() {
    let key: [u8; 32] = arr(11);
    let nonce: [u8; 12] = arr(12);
    let xnonce: [u8; 24] = arr(13);
    let skey: [u8; 64] = arr(14);
    for aad_len in [0usize, 1, 15, 16, 17, 64, 65, 300] {
        let aad = bytes(aad_len as u64 + 99, aad_len);
        for len in (0..=272).chain(STRIDE_LENS.iter().copied()) {
            let pt = bytes(len as u64 * 3 + aad_len as u64, len);
            let off = (len + aad_len) % 16;
            aead_case(&key, &nonce, &aad, &pt, off).unwrap_or_else(|e| panic!("{e}"));
            if aad_len == 1 {
                xchacha_case(&key, &xnonce, &aad, &pt, off).unwrap_or_else(|e| panic!("{e}"));
                openssh_case(&skey, len as u64 * 0x1_0000_0001, &pt, off)
                    .unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn aead_backends_agree_with_reference(
        key in any::<[u8; 32]>(),
        nonce in any::<[u8; 12]>(),
        xnonce in any::<[u8; 24]>(),
        skey in proptest::collection::vec(any::<u8>(), 64),
        seq in any::<u64>(),
        aad in proptest::collection::vec(any::<u8>(), 0..=300),
        len in prop_oneof![0usize..=4096, proptest::sample::select(STRIDE_LENS)],
        seed in any::<u64>(),
        offset in 0usize..16,
    ) {
        let pt = bytes(seed, len);
        aead_case(&key, &nonce, &aad, &pt, offset).map_err(TestCaseError::fail)?;
        xchacha_case(&key, &xnonce, &aad, &pt, offset).map_err(TestCaseError::fail)?;
        let skey: [u8; 64] = skey.try_into().unwrap();
        openssh_case(&skey, seq, &pt, offset).map_err(TestCaseError::fail)?;
    }
}

/// `Features::none()` selects the portable kernels and the portable pair.
#[test]
fn none_selects_the_portable_kernels() {
    let none = Features::none();
    assert_eq!(ChaCha20::backend_for(none), portable_backend("chacha20"));
    assert_eq!(Poly1305::backend_for(none), portable_backend("poly1305"));
    assert_eq!(
        ChaCha20Poly1305::backend_for(none),
        portable_backend("chacha20-poly1305")
    );
    assert_eq!(
        XChaCha20Poly1305::backend_for(none),
        portable_backend("xchacha20-poly1305")
    );
    assert_eq!(
        OpenSshChaCha20Poly1305::backend_for(none),
        portable_backend("openssh-chacha20-poly1305")
    );
}
