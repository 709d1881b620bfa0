//! Every backend against the portable one (`Features::none()`): random messages, random
//! `update` splits (empty updates included) and unaligned starts (proptest); and every
//! length from 0 to 3 blocks past each multiple of the kernels' strides (deterministic).

mod common;

use common::{Hash, for_each_backend, hex};
use proptest::prelude::*;
use simdcrypt::cpu::Features;

fn portable<H: Hash>(msg: &[u8]) -> Vec<u8> {
    let mut h = H::new_with(Features::none());
    assert_eq!(h.backend(), "soft");
    h.update(msg);
    h.finalize().as_ref().to_vec()
}

/// `msg` fed to a `f`-backend hasher in pieces cut at `cuts` (sorted, clamped to the length;
/// repeats make empty updates, and an empty update follows every piece).
fn streamed<H: Hash>(f: Features, msg: &[u8], cuts: &[usize]) -> Vec<u8> {
    let mut cuts: Vec<usize> = cuts.iter().map(|&c| c.min(msg.len())).collect();
    cuts.sort_unstable();
    let mut h = H::new_with(f);
    let mut at = 0;
    for c in cuts {
        h.update(&msg[at..c]);
        h.update(&[]);
        at = c;
    }
    h.update(&msg[at..]);
    h.finalize().as_ref().to_vec()
}

/// One proptest case: the message starts `offset` bytes into a buffer (so not at the
/// allocation's alignment), and every backend must agree with the portable digest, both in
/// one `update` and split at `cuts`.
fn agree<H: Hash>(data: &[u8], offset: usize, cuts: &[usize]) -> Result<(), TestCaseError> {
    let mut buf = vec![0xa5u8; offset];
    buf.extend_from_slice(data);
    let msg = &buf[offset..];
    let want = hex(&portable::<H>(msg));
    let mut failure = None;
    for_each_backend::<H>(|name, f| {
        let one = hex(&streamed::<H>(f, msg, &[]));
        let split = hex(&streamed::<H>(f, msg, cuts));
        if failure.is_none() && (one != want || split != want) {
            failure = Some(format!(
                "{} backend {name}: len {} offset {offset} cuts {cuts:?}: one-shot {one}, \
                 split {split}, portable {want}",
                H::NAME,
                msg.len()
            ));
        }
    });
    match failure {
        None => Ok(()),
        Some(e) => Err(TestCaseError::fail(e)),
    }
}

fn config() -> ProptestConfig {
    // 7 hashes x 128 cases x up to 4 KiB, each on every backend: under a second natively,
    // a few seconds under qemu.
    ProptestConfig {
        cases: 128,
        ..ProptestConfig::default()
    }
}

macro_rules! props {
    ($($m:ident: $h:ty),* $(,)?) => {$(
        mod $m {
            use super::*;
            proptest! {
                #![proptest_config(config())]
                #[test]
                fn backends_agree_with_portable(
                    data in proptest::collection::vec(any::<u8>(), 0..=4096),
                    offset in 1usize..16,
                    cuts in proptest::collection::vec(0usize..=4096, 0..8),
                ) {
                    agree::<$h>(&data, offset, &cuts)?;
                }
            }

            #[test]
            fn every_length_around_the_strides() {
                super::every_length::<$h>();
            }
        }
    )*};
}

props! {
    sha1: simdcrypt::sha::Sha1,
    sha224: simdcrypt::sha::Sha224,
    sha256: simdcrypt::sha::Sha256,
    sha384: simdcrypt::sha::Sha384,
    sha512: simdcrypt::sha::Sha512,
    sha512_224: simdcrypt::sha::Sha512_224,
    sha512_256: simdcrypt::sha::Sha512_256,
}

/// Kernels walk the input one block (64 or 128 bytes) or two blocks at a time (the AVX2
/// SHA-256 kernel, for one, schedules two blocks in one register). For strides s = B and
/// 2B, k = 0..=4 and d = 0..=3B, every length k*s + d is hashed: that is every length from 0
/// to 11 blocks. Each digest is compared with the portable one, hashed in one `update` and
/// again in two pieces cut mid-block.
fn every_length<H: Hash>() {
    let b = H::BLOCK_LEN;
    let max = 4 * 2 * b + 3 * b;
    // xorshift32 bytes: deterministic and not periodic within a block.
    let mut x = 0x9e37_79b9u32;
    let data: Vec<u8> = (0..max + 15)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 24) as u8
        })
        .collect();
    let want: Vec<String> = (0..=max)
        .map(|len| hex(&portable::<H>(&data[len % 15..len % 15 + len])))
        .collect();
    for_each_backend::<H>(|name, f| {
        for (len, want) in want.iter().enumerate() {
            // Unaligned starts too: offset len % 15.
            let msg = &data[len % 15..len % 15 + len];
            assert_eq!(
                &hex(&streamed::<H>(f, msg, &[])),
                want,
                "{} {name} len {len}",
                H::NAME
            );
            let cut = [len / 2 + 1];
            assert_eq!(
                &hex(&streamed::<H>(f, msg, &cut)),
                want,
                "{} {name} len {len} split at {}",
                H::NAME,
                cut[0]
            );
        }
    });
}
