//! ChaCha20 (RFC 8439 and the original 64-bit-nonce layout), HChaCha20 and Poly1305. A case:
//! primitive, kernel, buffer offset, key, nonce, counter (near its end now and then), cut
//! points, text. Checks on the chosen kernel:
//! - ChaCha20: the keystream streamed over the cut pieces = the same on the portable kernel
//!   = the `chacha20` crate (short of the last block, which that crate refuses); a request
//!   past the last counter value is refused (`CounterExhausted`) exactly when the blocks it
//!   needs exceed those left, and then changes nothing.
//! - Legacy ChaCha20 (64-bit counter, carried from word 12 into word 13): = the same on the
//!   portable kernel, and = the `chacha20` crate while no carry happens (that crate's legacy
//!   variant keeps a 32-bit counter).
//! - HChaCha20 = the `chacha20` crate's `hchacha`.
//! - Poly1305 streamed over the pieces = the `poly1305` crate; `verify` accepts the tag and
//!   rejects it with one bit flipped.

use chacha20::cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
use simdcrypt::chacha20::{ChaCha20, hchacha20};
use simdcrypt::cpu::Features;
use simdcrypt::poly1305::Poly1305;

use crate::{Input, at_offset, cuts, for_pieces, kernels, pieces};

/// One fuzz case; panics on any disagreement.
pub fn run(data: &[u8]) {
    let mut inp = Input::new(data);
    let sel = inp.u8();
    let kernel = inp.u8();
    let offset = inp.u8();
    let key: [u8; 32] = inp.array();
    let nonce: [u8; 12] = inp.array();
    let counter_in = inp.u64();
    let seeds = inp.split_seeds(4);
    let (mut buf, off) = at_offset(inp.rest(), offset);
    let text = &mut buf[off..];
    let cuts = cuts(&seeds, text.len());
    let near_end = sel & 0x10 != 0;
    match sel % 4 {
        0 => ietf(kernel, &key, &nonce, counter_in, near_end, &cuts, text),
        1 => legacy(kernel, &key, &nonce, counter_in, near_end, &cuts, text),
        2 => {
            let (name, f) = kernels!(Poly1305).pick(kernel);
            let mut p = Poly1305::new_with(f, &key);
            assert_eq!(p.backend(), name);
            for piece in pieces(text, &cuts) {
                p.update(piece);
            }
            let tag = p.finalize();
            let want = <poly1305::Poly1305 as poly1305::universal_hash::KeyInit>::new(&key.into())
                .compute_unpadded(text);
            assert_eq!(
                tag[..],
                want[..],
                "Poly1305 {name}: vs RustCrypto over {cuts:?}"
            );
            let mut v = Poly1305::new_with(f, &key);
            v.update(text);
            assert!(v.verify(&tag).is_ok(), "Poly1305 {name}: verify(right tag)");
            let mut bad = tag;
            let bit = (counter_in % 128) as usize;
            bad[bit / 8] ^= 1 << (bit % 8);
            let mut v = Poly1305::new_with(f, &key);
            v.update(text);
            assert!(
                v.verify(&bad).is_err(),
                "Poly1305 {name}: verify(flipped bit {bit})"
            );
        }
        _ => {
            let mut n16 = [0u8; 16];
            n16[..12].copy_from_slice(&nonce);
            n16[12..].copy_from_slice(&counter_in.to_le_bytes()[..4]);
            let ours = hchacha20(&key, &n16);
            let want = chacha20::hchacha::<chacha20::cipher::consts::U10>(&key.into(), &n16.into());
            assert_eq!(ours[..], want[..], "HChaCha20");
        }
    }
}

/// Blocks of 64 bytes a stream at byte position `pos` needs to produce `len` more bytes.
fn blocks_needed(pos: u128, len: usize) -> u128 {
    (pos + len as u128).div_ceil(64) - pos.div_ceil(64)
}

fn ietf(
    kernel: u8,
    key: &[u8; 32],
    nonce: &[u8; 12],
    counter_in: u64,
    near_end: bool,
    cuts: &[usize],
    text: &mut [u8],
) {
    let (name, f) = kernels!(ChaCha20).pick(kernel);
    let counter = if near_end {
        u32::MAX - (counter_in as u32 % 80)
    } else {
        counter_in as u32
    };
    let what = format!("ChaCha20 {name} counter {counter:#x}");
    let plain = text.to_vec();
    let mut s = ChaCha20::new_with(f, key, nonce, counter);
    assert_eq!(s.backend(), name);
    let left = (1u128 << 32) - u128::from(counter);
    let mut pos: u128 = 0;
    let mut done = 0usize;
    let mut refused = false;
    for_pieces(text, cuts, |piece| {
        if refused {
            return;
        }
        let before = piece.to_vec();
        let exhausted = blocks_needed(pos, piece.len()) + pos.div_ceil(64) > left;
        match s.apply_keystream(piece) {
            Ok(()) => {
                assert!(
                    !exhausted,
                    "{what}: {} bytes at {pos} accepted",
                    piece.len()
                );
                pos += piece.len() as u128;
                done += piece.len();
            }
            Err(e) => {
                assert!(
                    exhausted,
                    "{what}: {} bytes at {pos} refused: {e:?}",
                    piece.len()
                );
                assert_eq!(
                    piece,
                    &before[..],
                    "{what}: refused call changed the buffer"
                );
                refused = true;
            }
        }
    });
    // The same stream on the portable kernel.
    let mut soft = plain[..done].to_vec();
    ChaCha20::new_with(Features::none(), key, nonce, counter)
        .apply_keystream(&mut soft)
        .unwrap();
    assert_eq!(
        text[..done],
        soft[..],
        "{what}: vs the portable kernel over {cuts:?}"
    );
    // The `chacha20` crate stops one block early: it refuses block 2^32 - 1, which RFC 8439
    // allows (its `remaining_blocks` is u32::MAX - position).
    if u128::from(counter) + blocks_needed(0, done) < 1 << 32 {
        let mut want = plain[..done].to_vec();
        let mut p = chacha20::ChaCha20::new(key.into(), nonce.into());
        p.seek(u64::from(counter) * 64);
        p.apply_keystream(&mut want);
        assert_eq!(
            text[..done],
            want[..],
            "{what}: vs RustCrypto over {cuts:?}"
        );
    }
}

fn legacy(
    kernel: u8,
    key: &[u8; 32],
    nonce12: &[u8; 12],
    counter_in: u64,
    near_end: bool,
    cuts: &[usize],
    text: &mut [u8],
) {
    let (name, f) = kernels!(ChaCha20).pick(kernel);
    let nonce: [u8; 8] = nonce12[..8].try_into().unwrap();
    // Near the end of the 64-bit counter, or of its low word (the carry into word 13).
    let counter = match (near_end, counter_in & 1) {
        (true, 0) => u64::MAX - (counter_in >> 1) % 80,
        (true, _) => (counter_in & !0xffff_ffff) | (0xffff_ffff - (counter_in >> 1) % 80),
        _ => counter_in,
    };
    let what = format!("legacy ChaCha20 {name} counter {counter:#x}");
    let plain = text.to_vec();
    let left = (1u128 << 64) - u128::from(counter);
    let total = text.len();
    let exhausted = blocks_needed(0, total) > left;
    let mut s = ChaCha20::new_legacy_with(f, key, &nonce, counter);
    let mut soft = ChaCha20::new_legacy_with(Features::none(), key, &nonce, counter);
    let mut want = plain.clone();
    let mut refused = false;
    let mut pos = 0usize;
    let mut soft_pieces = Vec::new();
    for_pieces(text, cuts, |piece| {
        if refused {
            return;
        }
        let r = s.apply_keystream(piece);
        let mut p2 = plain[pos..pos + piece.len()].to_vec();
        let r2 = soft.apply_keystream(&mut p2);
        assert_eq!(r.is_ok(), r2.is_ok(), "{what}: refused on one kernel only");
        if r.is_err() {
            refused = true;
            return;
        }
        soft_pieces.extend_from_slice(&p2);
        pos += piece.len();
    });
    assert_eq!(
        refused, exhausted,
        "{what}: {total} bytes, refused = {refused}"
    );
    assert_eq!(
        text[..pos],
        soft_pieces[..],
        "{what}: vs the portable kernel"
    );
    if u128::from(counter) + blocks_needed(0, total) < 1 << 32 && !refused {
        let mut p = chacha20::ChaCha20Legacy::new(key.into(), &nonce.into());
        p.seek(counter * 64);
        p.apply_keystream(&mut want);
        assert_eq!(text, &want[..], "{what}: vs RustCrypto");
    }
}
