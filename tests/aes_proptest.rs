//! Every AES backend against a reference built on the portable kernel (`Features::none()`),
//! for all three key sizes (house rule 7):
//!
//! - proptest: random keys; CTR on random lengths 0..=4096 with random IVs, including counters
//!   just below the 2^32, 2^64 and 2^128 wrap, streamed in random pieces, in place and
//!   buffer-to-buffer from unaligned offsets; ECB, CBC and IGE on 0..=256 random blocks cut at
//!   random block boundaries, in place and (CBC) buffer-to-buffer, at unaligned offsets;
//! - deterministic: every block count 0..=136 (two strides and 8 blocks past the widest
//!   kernel loop, 64 blocks; 3+ blocks past every multiple of the 1-, 2-, 4-, 8-, 16- and
//!   32-block strides), each mode, with CTR counters placed to wrap mid-call.
//!
//! The reference is not the portable kernel's mode code: it is the portable single-block
//! encryption/decryption with each mode written out here from SP 800-38A (CTR: the 128-bit
//! big-endian counter block incremented mod 2^128, §6.5 and appendix B.1; CBC: §6.2) and from
//! the IGE definition in `simdcrypt::aes::Ige`'s docs. So the portable backend's own CTR, CBC
//! and IGE paths are checked here too.

mod common;

use common::{Cipher, for_each_cipher_backend, hex, portable_backend};
use proptest::prelude::*;
use simdcrypt::aes::{Cbc, Ctr, Ige};
use simdcrypt::cpu::Features;

/// The portable key, for the reference.
fn portable<C: Cipher>(key: &[u8]) -> C {
    let c = C::with(Features::none(), key);
    assert_eq!(c.backend(), portable_backend(C::NAME));
    c
}

fn block(b: &[u8]) -> [u8; 16] {
    b.try_into().unwrap()
}

fn xor(a: &mut [u8], b: &[u8]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= y;
    }
}

/// SP 800-38A CTR: `data ⊕ E(iv), E(iv + 1), ...` (mod 2^128): the counter blocks are
/// written out here and encrypted with the portable ECB.
fn ctr_ref<C: Cipher>(key: &[u8], iv: [u8; 16], data: &[u8]) -> Vec<u8> {
    let aes = portable::<C>(key);
    let start = u128::from_be_bytes(iv);
    let mut ks: Vec<[u8; 16]> = (0..data.len().div_ceil(16) as u128)
        .map(|i| start.wrapping_add(i).to_be_bytes())
        .collect();
    aes.encrypt_blocks(&mut ks);
    let mut out = data.to_vec();
    xor(&mut out, ks.as_flattened());
    out
}

/// SP 800-38A CBC, one block at a time.
fn cbc_ref<C: Cipher>(key: &[u8], iv: [u8; 16], data: &[u8], encrypt: bool) -> Vec<u8> {
    let aes = portable::<C>(key);
    let mut out = Vec::with_capacity(data.len());
    let mut chain = iv;
    for b in data.chunks_exact(16) {
        let mut x = block(b);
        if encrypt {
            xor(&mut x, &chain);
            aes.encrypt_block(&mut x);
            chain = x;
        } else {
            aes.decrypt_block(&mut x);
            xor(&mut x, &chain);
            chain = block(b);
        }
        out.extend_from_slice(&x);
    }
    out
}

/// IGE: `c_i = E(p_i ⊕ c_{i-1}) ⊕ p_{i-1}`, `p_i = D(c_i ⊕ p_{i-1}) ⊕ c_{i-1}`, with
/// `iv = c_0 ‖ p_0`.
fn ige_ref<C: Cipher>(key: &[u8], iv: [u8; 32], data: &[u8], encrypt: bool) -> Vec<u8> {
    let aes = portable::<C>(key);
    let (mut c_prev, mut p_prev) = (block(&iv[..16]), block(&iv[16..]));
    let mut out = Vec::with_capacity(data.len());
    for b in data.chunks_exact(16) {
        let mut x = block(b);
        if encrypt {
            xor(&mut x, &c_prev);
            aes.encrypt_block(&mut x);
            xor(&mut x, &p_prev);
            (c_prev, p_prev) = (x, block(b));
        } else {
            xor(&mut x, &p_prev);
            aes.decrypt_block(&mut x);
            xor(&mut x, &c_prev);
            (c_prev, p_prev) = (block(b), x);
        }
        out.extend_from_slice(&x);
    }
    out
}

/// ECB with single-block calls.
fn ecb_ref<C: Cipher>(key: &[u8], data: &[u8], encrypt: bool) -> Vec<u8> {
    let aes = portable::<C>(key);
    let mut out = data.to_vec();
    for b in out.chunks_exact_mut(16) {
        let mut x = block(b);
        if encrypt {
            aes.encrypt_block(&mut x);
        } else {
            aes.decrypt_block(&mut x);
        }
        b.copy_from_slice(&x);
    }
    out
}

/// `bytes` (a whole number of blocks) as blocks, without copying: `[u8; 16]` has size 16 and
/// alignment 1, so the view is valid at any offset — this is how the tests pass `encrypt_blocks`
/// a slice that starts at an odd address.
fn as_blocks(bytes: &mut [u8]) -> &mut [[u8; 16]] {
    assert_eq!(bytes.len() % 16, 0);
    let n = bytes.len() / 16;
    // SAFETY: `[u8; 16]` has size 16 and alignment 1, so `n` of them occupy exactly the
    // `16 * n` bytes of `bytes`, at any address; the new slice borrows `bytes` mutably for its
    // lifetime, so nothing else aliases it.
    unsafe { core::slice::from_raw_parts_mut(bytes.as_mut_ptr().cast::<[u8; 16]>(), n) }
}

/// `cuts` (any values) as sorted cut points in `0..=len`, each a multiple of `unit`.
fn cut_points(cuts: &[usize], len: usize, unit: usize) -> Vec<usize> {
    let mut c: Vec<usize> = cuts.iter().map(|&c| (c.min(len) / unit) * unit).collect();
    c.sort_unstable();
    c
}

/// `buf` split at `cuts` (sorted), `f` applied to each piece in order (empty pieces included).
fn in_pieces(buf: &mut [u8], cuts: &[usize], mut f: impl FnMut(&mut [u8])) {
    let mut at = 0;
    let mut rest = buf;
    for &c in cuts {
        let (now, later) = rest.split_at_mut(c - at);
        f(now);
        rest = later;
        at = c;
    }
    f(rest);
}

/// `data` copied into a fresh buffer at `offset` bytes from its start (an unaligned start
/// when `offset` is odd), returned with that offset.
fn at_offset(data: &[u8], offset: usize) -> Vec<u8> {
    let mut v = vec![0xa5u8; offset];
    v.extend_from_slice(data);
    v
}

fn fail(e: String) -> Result<(), TestCaseError> {
    Err(TestCaseError::fail(e))
}

/// One CTR case on every backend: one call; pieces cut at `cuts` (calls that start and end
/// inside blocks); buffer to buffer from offset `in_off` to offset `out_off`; the counter
/// afterwards.
fn ctr_case<C: Cipher>(
    key: &[u8],
    iv: [u8; 16],
    data: &[u8],
    cuts: &[usize],
    in_off: usize,
    out_off: usize,
) -> Result<(), TestCaseError> {
    let want = hex(&ctr_ref::<C>(key, iv, data));
    let blocks = data.len().div_ceil(16) as u128;
    let want_ctr = u128::from_be_bytes(iv).wrapping_add(blocks).to_be_bytes();
    let cuts = cut_points(cuts, data.len(), 1);
    let mut failure = None;
    for_each_cipher_backend::<C>(|name, f| {
        let ctx = format!(
            "{} {name}: len {} iv {} cuts {cuts:?} offsets {in_off}/{out_off}",
            C::NAME,
            data.len(),
            hex(&iv)
        );
        let mut one = at_offset(data, in_off);
        let mut ctr = Ctr::new(C::with(f, key), &iv);
        ctr.apply_keystream(&mut one[in_off..]).unwrap();
        let ctr_one = ctr.counter();

        let mut split = at_offset(data, in_off);
        let mut ctr = Ctr::new(C::with(f, key), &iv);
        in_pieces(&mut split[in_off..], &cuts, |p| {
            ctr.apply_keystream(p).unwrap()
        });
        let ctr_split = ctr.counter();

        let input = at_offset(data, in_off);
        let mut output = vec![0u8; out_off + data.len()];
        let mut ctr = Ctr::new(C::with(f, key), &iv);
        ctr.apply_keystream_b2b(&input[in_off..], &mut output[out_off..])
            .unwrap();

        let got = [
            hex(&one[in_off..]),
            hex(&split[in_off..]),
            hex(&output[out_off..]),
        ];
        if failure.is_none() {
            if got.iter().any(|g| *g != want) {
                failure = Some(format!(
                    "{ctx}: one call / pieces / b2b {got:?}, reference {want}"
                ));
            } else if ctr_one != want_ctr || ctr_split != want_ctr {
                failure = Some(format!(
                    "{ctx}: counter {} / {} after, want {}",
                    hex(&ctr_one),
                    hex(&ctr_split),
                    hex(&want_ctr)
                ));
            }
        }
    });
    failure.map_or(Ok(()), fail)
}

/// One ECB/CBC/IGE case on every backend, both directions: whole message in one call, in
/// pieces cut at block boundaries `cuts`, at offset `off`; CBC also buffer to buffer into
/// offset `out_off`.
fn block_modes_case<C: Cipher>(
    key: &[u8],
    iv: [u8; 32],
    data: &[u8],
    cuts: &[usize],
    off: usize,
    out_off: usize,
) -> Result<(), TestCaseError> {
    let iv16 = block(&iv[..16]);
    let cuts = cut_points(cuts, data.len(), 16);
    let refs = [
        (
            "ECB",
            ecb_ref::<C>(key, data, true),
            ecb_ref::<C>(key, data, false),
        ),
        (
            "CBC",
            cbc_ref::<C>(key, iv16, data, true),
            cbc_ref::<C>(key, iv16, data, false),
        ),
        (
            "IGE",
            ige_ref::<C>(key, iv, data, true),
            ige_ref::<C>(key, iv, data, false),
        ),
    ];
    let mut failure = None;
    for_each_cipher_backend::<C>(|name, f| {
        let aes = C::with(f, key);
        for (mode, enc_want, dec_want) in &refs {
            for (encrypt, want) in [(true, enc_want), (false, dec_want)] {
                let dir = if encrypt { "encrypt" } else { "decrypt" };
                let mut results: Vec<(String, Vec<u8>)> = Vec::new();
                for split in [false, true] {
                    let piece_cuts: &[usize] = if split { &cuts } else { &[] };
                    let mut buf = at_offset(data, off);
                    let msg = &mut buf[off..];
                    match *mode {
                        "ECB" => in_pieces(msg, piece_cuts, |p| {
                            if encrypt {
                                aes.encrypt_blocks(as_blocks(p))
                            } else {
                                aes.decrypt_blocks(as_blocks(p))
                            }
                        }),
                        "CBC" => {
                            let mut cbc = Cbc::new(C::with(f, key), &iv16);
                            in_pieces(msg, piece_cuts, |p| {
                                if encrypt {
                                    cbc.encrypt(p).unwrap()
                                } else {
                                    cbc.decrypt(p).unwrap()
                                }
                            });
                            // The chaining value is the last ciphertext block.
                            let last_ct = if encrypt { &*msg } else { data };
                            let want_iv = match last_ct.len() {
                                0 => iv16,
                                n => block(&last_ct[n - 16..]),
                            };
                            if cbc.iv() != want_iv {
                                results.push(("chaining value".into(), cbc.iv().to_vec()));
                            }
                        }
                        _ => {
                            let mut ige = Ige::new(C::with(f, key), &iv);
                            in_pieces(msg, piece_cuts, |p| {
                                if encrypt {
                                    ige.encrypt(p).unwrap()
                                } else {
                                    ige.decrypt(p).unwrap()
                                }
                            });
                        }
                    }
                    let how = if split { "in pieces" } else { "one call" };
                    results.push((how.into(), msg.to_vec()));
                }
                if *mode == "CBC" {
                    // Buffer to buffer, input and output at different offsets, in pieces.
                    let input = at_offset(data, off);
                    let mut output = vec![0u8; out_off + data.len()];
                    let mut cbc = Cbc::new(C::with(f, key), &iv16);
                    let (src, dst) = (&input[off..], &mut output[out_off..]);
                    let mut at = 0;
                    for &c in cuts.iter().chain([data.len()].iter()) {
                        let r = if encrypt {
                            cbc.encrypt_b2b(&src[at..c], &mut dst[at..c])
                        } else {
                            cbc.decrypt_b2b(&src[at..c], &mut dst[at..c])
                        };
                        r.unwrap();
                        at = c;
                    }
                    results.push(("b2b".into(), output[out_off..].to_vec()));
                }
                for (how, got) in results {
                    if failure.is_none() && got != *want {
                        failure = Some(format!(
                            "{} {name} {mode} {dir} {how}: {} blocks, cuts {cuts:?}, offset \
                             {off}/{out_off}: got {}, reference {}",
                            C::NAME,
                            data.len() / 16,
                            hex(&got),
                            hex(want)
                        ));
                    }
                }
            }
        }
    });
    failure.map_or(Ok(()), fail)
}

/// A counter block: random, or random with its low 32, 64 or all 128 bits `d` steps below
/// the wrap (so the carry happens `d + 1` blocks into the message).
fn ctr_iv() -> impl Strategy<Value = [u8; 16]> {
    prop_oneof![
        any::<[u8; 16]>(),
        (any::<u128>(), 0u32..3, 0u128..=300).prop_map(|(r, w, d)| {
            let bits = [32, 64, 128][w as usize];
            let mask = if bits == 128 {
                u128::MAX
            } else {
                (1u128 << bits) - 1
            };
            ((r & !mask) | (mask - d.min(mask))).to_be_bytes()
        }),
    ]
}

fn config() -> ProptestConfig {
    // 3 key sizes x 2 properties x 96 cases, each on every backend: a few seconds natively.
    ProptestConfig {
        cases: 96,
        ..ProptestConfig::default()
    }
}

/// Every block count 0..=136 in every mode, deterministic data; CTR lengths are `16n + n % 16`
/// bytes, with counters whose low 32 bits, low 64 bits or all 128 bits wrap inside the call
/// at a position that moves with `n`.
fn every_length<C: Cipher>() {
    const MAX: usize = 136;
    let mut x = 0x2545_f491u32;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        (x >> 24) as u8
    };
    let key: Vec<u8> = (0..C::KEY_LEN).map(|_| next()).collect();
    let data: Vec<u8> = (0..16 * MAX + 31).map(|_| next()).collect();
    let iv: [u8; 32] = core::array::from_fn(|_| next());
    let iv16 = block(&iv[..16]);
    let mut cases: Vec<(usize, [u8; 16], Vec<u8>)> = Vec::new();
    for n in 0..=MAX {
        let len = 16 * n + n % 16;
        let d = (n as u128 * 7) % (n as u128 + 1);
        let hi = u128::from_be_bytes(iv16);
        for iv in [
            iv16,
            ((hi & !0xffff_ffff) | (0xffff_ffff - d)).to_be_bytes(),
            ((hi & !(u64::MAX as u128)) | (u64::MAX as u128 - d)).to_be_bytes(),
            (u128::MAX - d).to_be_bytes(),
        ] {
            let msg = &data[n % 16..n % 16 + len];
            cases.push((len, iv, ctr_ref::<C>(&key, iv, msg)));
        }
    }
    let blocks_ref: Vec<[Vec<u8>; 6]> = (0..=MAX)
        .map(|n| {
            let msg = &data[..16 * n];
            [
                ecb_ref::<C>(&key, msg, true),
                ecb_ref::<C>(&key, msg, false),
                cbc_ref::<C>(&key, iv16, msg, true),
                cbc_ref::<C>(&key, iv16, msg, false),
                ige_ref::<C>(&key, iv, msg, true),
                ige_ref::<C>(&key, iv, msg, false),
            ]
        })
        .collect();
    for_each_cipher_backend::<C>(|name, f| {
        let aes = C::with(f, &key);
        for (len, iv, want) in &cases {
            let n = len / 16;
            let mut buf = data[n % 16..n % 16 + len].to_vec();
            let mut ctr = Ctr::new(C::with(f, &key), iv);
            ctr.apply_keystream(&mut buf).unwrap();
            assert_eq!(
                hex(&buf),
                hex(want),
                "{} {name} CTR len {len} iv {}",
                C::NAME,
                hex(iv)
            );
        }
        for (n, want) in blocks_ref.iter().enumerate() {
            let msg = &data[..16 * n];
            let ctx = |what: &str| format!("{} {name} {what} {n} blocks", C::NAME);
            let mut b = msg.to_vec();
            aes.encrypt_blocks(as_blocks(&mut b));
            assert_eq!(hex(&b), hex(&want[0]), "{}", ctx("ECB encrypt"));
            let mut b = msg.to_vec();
            aes.decrypt_blocks(as_blocks(&mut b));
            assert_eq!(hex(&b), hex(&want[1]), "{}", ctx("ECB decrypt"));
            let mut b = msg.to_vec();
            Cbc::new(C::with(f, &key), &iv16).encrypt(&mut b).unwrap();
            assert_eq!(hex(&b), hex(&want[2]), "{}", ctx("CBC encrypt"));
            let mut b = msg.to_vec();
            Cbc::new(C::with(f, &key), &iv16).decrypt(&mut b).unwrap();
            assert_eq!(hex(&b), hex(&want[3]), "{}", ctx("CBC decrypt"));
            let mut b = msg.to_vec();
            Ige::new(C::with(f, &key), &iv).encrypt(&mut b).unwrap();
            assert_eq!(hex(&b), hex(&want[4]), "{}", ctx("IGE encrypt"));
            let mut b = msg.to_vec();
            Ige::new(C::with(f, &key), &iv).decrypt(&mut b).unwrap();
            assert_eq!(hex(&b), hex(&want[5]), "{}", ctx("IGE decrypt"));
        }
    });
}

macro_rules! props {
    ($($m:ident: $c:ty, $len:literal),* $(,)?) => {$(
        mod $m {
            use super::*;
            proptest! {
                #![proptest_config(config())]
                #[test]
                fn ctr_backends_agree_with_reference(
                    key in proptest::collection::vec(any::<u8>(), $len),
                    iv in ctr_iv(),
                    data in proptest::collection::vec(any::<u8>(), 0..=4096),
                    cuts in proptest::collection::vec(0usize..=4096, 0..8),
                    in_off in 0usize..16,
                    out_off in 0usize..16,
                ) {
                    ctr_case::<$c>(&key, iv, &data, &cuts, in_off, out_off)?;
                }

                #[test]
                fn ecb_cbc_ige_backends_agree_with_reference(
                    key in proptest::collection::vec(any::<u8>(), $len),
                    iv in any::<[u8; 32]>(),
                    nblocks in 0usize..=256,
                    seed in any::<u64>(),
                    cuts in proptest::collection::vec(0usize..=4096, 0..6),
                    off in 0usize..16,
                    out_off in 0usize..16,
                ) {
                    // Data from a seed (a 4 KiB vector strategy would dominate shrinking).
                    let mut s = seed | 1;
                    let data: Vec<u8> = (0..16 * nblocks)
                        .map(|_| {
                            s ^= s << 13;
                            s ^= s >> 7;
                            s ^= s << 17;
                            (s >> 56) as u8
                        })
                        .collect();
                    block_modes_case::<$c>(&key, iv, &data, &cuts, off, out_off)?;
                }
            }

            #[test]
            fn every_length_around_the_strides() {
                super::every_length::<$c>();
            }
        }
    )*};
}

props! {
    aes128: simdcrypt::aes::Aes128, 16,
    aes192: simdcrypt::aes::Aes192, 24,
    aes256: simdcrypt::aes::Aes256, 32,
}
