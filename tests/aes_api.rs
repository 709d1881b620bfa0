//! AES API misuse gives `Err`, never a panic, and leaves buffers untouched: non-block lengths
//! for CBC and IGE, wrong key lengths, buffer-to-buffer length mismatches, malformed PKCS#7
//! padding; PKCS#7 round trips; `Debug` never shows key bytes; the CTR counter wraps from
//! ff…ff to 00…00 as SP 800-38A's 128-bit counter does. Kernel-dependent checks run on every
//! backend (house rule 7).

mod common;

use common::{Cipher, for_each_cipher_backend, hex};
use simdcrypt::Error;
use simdcrypt::aes::{Aes128, Aes192, Aes256, Cbc, Ctr, Ige, pkcs7_pad, pkcs7_unpad};
use simdcrypt::cpu::Features;

fn key<C: Cipher>() -> Vec<u8> {
    (0..C::KEY_LEN as u8)
        .map(|i| i.wrapping_mul(37) ^ 0x5c)
        .collect()
}

/// A message of `len` bytes that is not all one value.
fn msg(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + 3) as u8).collect()
}

/// CBC and IGE on every length 0..=100 that is not whole blocks: `Err(InvalidLength)` and the
/// buffer unchanged; the context is still usable afterwards (its chaining value unchanged).
fn non_block_lengths<C: Cipher>() {
    for_each_cipher_backend::<C>(|name, f| {
        let k = key::<C>();
        let iv = [7u8; 16];
        let iv32 = [9u8; 32];
        for len in (0..=100).filter(|l| l % 16 != 0) {
            let ctx = format!("{} {name} len {len}", C::NAME);
            let orig = msg(len);
            let mut cbc = Cbc::new(C::with(f, &k), &iv);
            let mut ige = Ige::new(C::with(f, &k), &iv32);
            let mut b = orig.clone();
            assert_eq!(cbc.encrypt(&mut b), Err(Error::InvalidLength), "{ctx}");
            assert_eq!(cbc.decrypt(&mut b), Err(Error::InvalidLength), "{ctx}");
            assert_eq!(ige.encrypt(&mut b), Err(Error::InvalidLength), "{ctx}");
            assert_eq!(ige.decrypt(&mut b), Err(Error::InvalidLength), "{ctx}");
            assert_eq!(b, orig, "{ctx}: buffer changed");
            assert_eq!(cbc.iv(), iv, "{ctx}: chaining value changed");
            // b2b: equal but non-block lengths, and mismatched lengths (one of them whole
            // blocks): Err, output untouched.
            let mut out = vec![0xeeu8; len];
            assert_eq!(
                cbc.encrypt_b2b(&orig, &mut out),
                Err(Error::InvalidLength),
                "{ctx}"
            );
            assert_eq!(
                cbc.decrypt_b2b(&orig, &mut out),
                Err(Error::InvalidLength),
                "{ctx}"
            );
            assert!(out.iter().all(|&x| x == 0xee), "{ctx}: b2b output written");
            let whole = vec![1u8; len / 16 * 16 + 16];
            let mut out = vec![0xeeu8; whole.len() + 16];
            assert_eq!(
                cbc.encrypt_b2b(&whole, &mut out),
                Err(Error::InvalidLength),
                "{ctx}"
            );
            assert_eq!(
                cbc.decrypt_b2b(&whole, &mut out),
                Err(Error::InvalidLength),
                "{ctx}"
            );
            assert!(out.iter().all(|&x| x == 0xee), "{ctx}: b2b output written");
            // The context still works, from the original chaining value.
            let mut a = msg(32);
            cbc.encrypt(&mut a).unwrap();
            let mut want = msg(32);
            Cbc::new(C::with(f, &k), &iv).encrypt(&mut want).unwrap();
            assert_eq!(a, want, "{ctx}: CBC after an error");
            let mut a = msg(32);
            ige.encrypt(&mut a).unwrap();
            let mut want = msg(32);
            Ige::new(C::with(f, &k), &iv32).encrypt(&mut want).unwrap();
            assert_eq!(a, want, "{ctx}: IGE after an error");
        }
        // Empty input is whole blocks (zero of them): Ok, nothing changes.
        let mut cbc = Cbc::new(C::with(f, &k), &iv);
        cbc.encrypt(&mut []).unwrap();
        cbc.decrypt(&mut []).unwrap();
        cbc.encrypt_b2b(&[], &mut []).unwrap();
        assert_eq!(cbc.iv(), iv);
        let mut ige = Ige::new(C::with(f, &k), &iv32);
        ige.encrypt(&mut []).unwrap();
        ige.decrypt(&mut []).unwrap();
        C::with(f, &k).encrypt_blocks(&mut []);
        C::with(f, &k).decrypt_blocks(&mut []);
        let mut ctr = Ctr::new(C::with(f, &k), &iv);
        ctr.apply_keystream(&mut []).unwrap();
        assert_eq!(
            ctr.counter(),
            iv,
            "{} {name}: empty CTR call moved the counter",
            C::NAME
        );
    });
}

#[test]
fn cbc_ige_reject_non_block_lengths() {
    for_each_cipher!(non_block_lengths);
}

/// CTR buffer to buffer with different lengths: `Err(InvalidLength)`, output untouched, and
/// the keystream position unchanged (the next call continues as if the bad one never was).
fn ctr_b2b_mismatch<C: Cipher>() {
    for_each_cipher_backend::<C>(|name, f| {
        let k = key::<C>();
        let iv = [0x42u8; 16];
        for (a, b) in [(0, 1), (1, 0), (5, 6), (16, 15), (17, 33), (100, 99)] {
            let ctx = format!("{} {name} {a}->{b}", C::NAME);
            let mut ctr = Ctr::new(C::with(f, &k), &iv);
            let mut head = msg(5);
            ctr.apply_keystream(&mut head).unwrap();
            let input = msg(a);
            let mut out = vec![0xeeu8; b];
            assert_eq!(
                ctr.apply_keystream_b2b(&input, &mut out),
                Err(Error::InvalidLength),
                "{ctx}"
            );
            assert!(out.iter().all(|&x| x == 0xee), "{ctx}: output written");
            let mut rest = msg(40);
            ctr.apply_keystream(&mut rest).unwrap();
            let mut whole = msg(5);
            whole.extend(msg(40));
            Ctr::new(C::with(f, &k), &iv)
                .apply_keystream(&mut whole)
                .unwrap();
            assert_eq!(hex(&head), hex(&whole[..5]), "{ctx}");
            assert_eq!(
                hex(&rest),
                hex(&whole[5..]),
                "{ctx}: position moved by the error"
            );
        }
    });
}

#[test]
fn ctr_b2b_rejects_length_mismatch() {
    for_each_cipher!(ctr_b2b_mismatch);
}

/// `from_slice` with every length 0..=64: `Ok` only at the key length, `Err(InvalidLength)`
/// otherwise (checked for all three types with each length).
#[test]
fn from_slice_wrong_lengths() {
    let bytes = msg(64);
    for len in 0..=64 {
        let k = &bytes[..len];
        assert_eq!(Aes128::from_slice(k).is_ok(), len == 16, "Aes128 {len}");
        assert_eq!(Aes192::from_slice(k).is_ok(), len == 24, "Aes192 {len}");
        assert_eq!(Aes256::from_slice(k).is_ok(), len == 32, "Aes256 {len}");
        if len != 16 {
            assert_eq!(Aes128::from_slice(k).err(), Some(Error::InvalidLength));
        }
        if len != 24 {
            assert_eq!(Aes192::from_slice(k).err(), Some(Error::InvalidLength));
        }
        if len != 32 {
            assert_eq!(Aes256::from_slice(k).err(), Some(Error::InvalidLength));
        }
    }
    // A key from from_slice works like one from new (FIPS 197 C.1).
    let key: Vec<u8> = (0..16).collect();
    let mut b: [u8; 16] = core::array::from_fn(|i| (i as u8) * 0x11);
    Aes128::from_slice(&key).unwrap().encrypt_block(&mut b);
    assert_eq!(hex(&b), "69c4e0d86a7b0430d8cdb78070b4c55a");
}

/// PKCS#7 (RFC 5652 §6.3): pad then unpad gives the message back for every length 0..=48;
/// the padding is 1..=16 bytes of its own length; a buffer one byte too short is an error.
#[test]
fn pkcs7_round_trips() {
    for len in 0..=48 {
        let m = msg(len);
        let pad = 16 - len % 16;
        let mut buf = vec![0u8; len + pad + 5];
        buf[..len].copy_from_slice(&m);
        let padded = pkcs7_pad(&mut buf, len).unwrap();
        assert_eq!(padded.len(), len + pad, "len {len}");
        assert_eq!(padded.len() % 16, 0);
        assert!(
            padded[len..].iter().all(|&b| usize::from(b) == pad),
            "len {len}"
        );
        assert_eq!(pkcs7_unpad(padded).unwrap(), &m[..], "len {len}");

        // Exactly long enough works; one byte short does not, and writes nothing.
        let mut exact = vec![0u8; len + pad];
        exact[..len].copy_from_slice(&m);
        assert_eq!(pkcs7_pad(&mut exact, len).unwrap().len(), len + pad);
        let mut short = vec![0xeeu8; len + pad - 1];
        assert_eq!(pkcs7_pad(&mut short, len).err(), Some(Error::InvalidLength));
        assert!(
            short.iter().all(|&b| b == 0xee),
            "len {len}: short buffer written"
        );
    }
    // msg_len past the buffer (and near usize::MAX, where msg_len + pad overflows).
    assert_eq!(
        pkcs7_pad(&mut [0u8; 16], 17).err(),
        Some(Error::InvalidLength)
    );
    assert_eq!(
        pkcs7_pad(&mut [0u8; 16], usize::MAX).err(),
        Some(Error::InvalidLength)
    );
    assert_eq!(pkcs7_pad(&mut [], 0).err(), Some(Error::InvalidLength));
}

/// Every malformed padding is `Err(BadPadding)`, every wrong length `Err(InvalidLength)`.
#[test]
fn pkcs7_unpad_rejects_malformed_padding() {
    for blocks in 1..=3 {
        let len = 16 * blocks;
        // Last byte 0, or more than a block (17..=255).
        for last in [0u8, 17, 18, 32, 128, 254, 255] {
            let mut d = msg(len);
            d[len - 1] = last;
            assert_eq!(
                pkcs7_unpad(&d).err(),
                Some(Error::BadPadding),
                "last {last}"
            );
            // Even when the whole block is that byte.
            d[len - 16..].fill(last);
            assert_eq!(
                pkcs7_unpad(&d).err(),
                Some(Error::BadPadding),
                "block of {last}"
            );
        }
        // Valid n in 1..=16, then each padding byte but the last changed in turn.
        for n in 1..=16u8 {
            let mut d = msg(len);
            d[len - usize::from(n)..].fill(n);
            assert_eq!(
                pkcs7_unpad(&d).unwrap().len(),
                len - usize::from(n),
                "n {n}"
            );
            for i in len - usize::from(n)..len - 1 {
                for bad in [0u8, n - 1, n + 1, n ^ 0x80, 0xff] {
                    if bad == n {
                        continue;
                    }
                    let mut e = d.clone();
                    e[i] = bad;
                    assert_eq!(
                        pkcs7_unpad(&e).err(),
                        Some(Error::BadPadding),
                        "n {n}, byte {i} = {bad}"
                    );
                }
            }
        }
    }
    // Wrong lengths: empty, or not whole blocks (even if the tail looks like padding).
    for len in [0usize, 1, 15, 17, 31, 33, 47] {
        let d = vec![1u8; len];
        assert_eq!(
            pkcs7_unpad(&d).err(),
            Some(Error::InvalidLength),
            "len {len}"
        );
    }
}

/// `Debug` of keys and mode contexts shows the backend and never the key: with key bytes
/// 0xa0, 0xa1, ... (decimal 160, 161, ...), no two consecutive key bytes appear in hex (either
/// case) or as a decimal list (`160, 161`, as `[u8]`'s `Debug` would print them).
fn debug_hides_key<C: Cipher>() {
    let key: Vec<u8> = (0..C::KEY_LEN as u8).map(|i| 0xa0 + i).collect();
    for_each_cipher_backend::<C>(|name, f| {
        let outputs = [
            format!("{:?}", C::with(f, &key)),
            format!("{:#?}", C::with(f, &key)),
            format!("{:?}", Ctr::new(C::with(f, &key), &[0; 16])),
            format!("{:?}", Cbc::new(C::with(f, &key), &[0; 16])),
            format!("{:?}", Ige::new(C::with(f, &key), &[0; 32])),
        ];
        for s in &outputs {
            assert!(s.contains(name), "{} {name}: {s}", C::NAME);
            let lower = s.to_ascii_lowercase();
            for (i, w) in key.windows(2).enumerate() {
                let hex2 = format!("{:02x}{:02x}", w[0], w[1]);
                let dec2 = format!("{}, {}", w[0], w[1]);
                assert!(
                    !lower.contains(&hex2) && !s.contains(&dec2),
                    "{} {name}: Debug shows key bytes {i}, {}: {s}",
                    C::NAME,
                    i + 1
                );
            }
        }
    });
}

#[test]
fn debug_output_has_no_key_bytes() {
    for_each_cipher!(debug_hides_key);
}

/// CTR with counters at the 2^32, 2^64 and 2^128 boundaries: the whole 16-byte block is one
/// big-endian integer, so the carry runs through all 128 bits and ff…ff is followed by
/// 00…00 (SP 800-38A appendix B.1 with m = 128). Checked against the keystream computed one
/// block at a time with ECB on the named counter blocks, in one call and in pieces.
fn ctr_wrap<C: Cipher>() {
    let k = key::<C>();
    let h = |s: &str| -> [u8; 16] { common::vectors::decode_hex(s).unwrap().try_into().unwrap() };
    // (initial counter, the counter blocks that follow it).
    let cases: [(&str, [&str; 3]); 4] = [
        (
            "ffffffffffffffffffffffffffffffff",
            [
                "00000000000000000000000000000000",
                "00000000000000000000000000000001",
                "00000000000000000000000000000002",
            ],
        ),
        (
            "ffffffffffffffffffffffffffffffFE",
            [
                "ffffffffffffffffffffffffffffffff",
                "00000000000000000000000000000000",
                "00000000000000000000000000000001",
            ],
        ),
        (
            "0123456789abcdef00000000ffffffff",
            [
                "0123456789abcdef0000000100000000",
                "0123456789abcdef0000000100000001",
                "0123456789abcdef0000000100000002",
            ],
        ),
        (
            "0123456789abcdefffffffffffffffff",
            [
                "0123456789abcdf00000000000000000",
                "0123456789abcdf00000000000000001",
                "0123456789abcdf00000000000000002",
            ],
        ),
    ];
    for_each_cipher_backend::<C>(|name, f| {
        let aes = C::with(f, &k);
        for (start, next) in &cases {
            let iv = h(start);
            // Keystream from ECB of the four counter blocks, written out.
            let mut counters = vec![iv];
            counters.extend(next.iter().map(|s| h(s)));
            let mut ks = counters.clone();
            aes.encrypt_blocks(&mut ks);
            let ks = ks.as_flattened();
            let data = msg(16 * 3 + 5);
            let want: Vec<u8> = data.iter().zip(ks).map(|(d, k)| d ^ k).collect();

            let mut one = data.clone();
            let mut ctr = Ctr::new(C::with(f, &k), &iv);
            ctr.apply_keystream(&mut one).unwrap();
            assert_eq!(hex(&one), hex(&want), "{} {name} from {start}", C::NAME);
            // 4 blocks of keystream used: the counter names the fifth.
            let fifth = u128::from_be_bytes(counters[3])
                .wrapping_add(1)
                .to_be_bytes();
            assert_eq!(ctr.counter(), fifth, "{} {name} from {start}", C::NAME);

            let mut pieces = data.clone();
            let mut ctr = Ctr::new(C::with(f, &k), &iv);
            for p in pieces.chunks_mut(7) {
                ctr.apply_keystream(p).unwrap();
            }
            assert_eq!(
                hex(&pieces),
                hex(&want),
                "{} {name} from {start}, 7-byte pieces",
                C::NAME
            );
        }
    });
}

#[test]
fn ctr_counter_wraps_mod_2_128() {
    for_each_cipher!(ctr_wrap);
}

/// The portable kernel is what `Features::none()` gives, for every key size.
#[test]
fn features_none_selects_the_portable_kernel() {
    let want = common::portable_backend("aes128");
    assert_eq!(Aes128::backend_for(Features::none()), want);
    assert_eq!(Aes192::backend_for(Features::none()), want);
    assert_eq!(Aes256::backend_for(Features::none()), want);
    assert_eq!(Aes128::new_with(Features::none(), &[0; 16]).backend(), want);
    assert_eq!(
        Aes128::backends(Features::none()).collect::<Vec<_>>(),
        [(want, Features::none())]
    );
}
