//! The wave-2 API surface: `Clone` on every key and mode type (a clone is an independent copy:
//! same output, no shared state), constants and slice constructors, the run-time
//! [`aead::Key`], tags fixed by type, the constant-time [`Tag`], HKDF with several info pieces,
//! and `Error` as a `core::error::Error`. Each case runs on every backend the CPU has.

use simdcrypt::aead::{
    self, Aes128Gcm, Aes192Gcm, Aes256Gcm, ChaCha20Poly1305, GcmShortTag, OpenSshChaCha20Poly1305,
    XChaCha20Poly1305,
};
use simdcrypt::aes::{Aes128, Aes192, Aes256, Cbc, Ctr, Ige};
use simdcrypt::chacha20::ChaCha20;
use simdcrypt::cpu::Features;
use simdcrypt::hkdf::Hkdf;
use simdcrypt::hmac::Hmac;
use simdcrypt::poly1305::Poly1305;
use simdcrypt::sha::{Sha1, Sha256, Sha384, Sha512};
use simdcrypt::{Error, Tag};

fn bytes(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

/// Streaming states cloned half-way give the same result as the original, and using one does
/// not move the other.
#[test]
fn streaming_clones_are_independent() {
    let msg = bytes(1000, 3);
    for (name, f) in Sha256::backends(Features::detect()) {
        let mut a = Sha256::new_with(f);
        a.update(&msg[..333]);
        let mut b = a.clone();
        b.update(&msg[333..]);
        a.update(b"something else");
        assert_eq!(b.finalize(), Sha256::digest(&msg), "{name}");
    }
    for (name, f) in Sha512::backends(Features::detect()) {
        let mut a = Hmac::<Sha512>::new_with(b"k", f);
        a.update(&msg[..100]);
        let b = a.clone();
        a.update(&msg[100..]);
        let mut c = b.clone();
        c.update(&msg[100..]);
        assert_eq!(a.finalize(), c.finalize(), "{name}");
    }
    for (name, f) in ChaCha20::backends(Features::detect()) {
        let mut a = ChaCha20::new_with(f, &[1; 32], &[2; 12], 7);
        let mut head = msg[..77].to_vec();
        a.apply_keystream(&mut head).unwrap();
        let mut b = a.clone();
        let (mut x, mut y) = (msg[77..].to_vec(), msg[77..].to_vec());
        a.apply_keystream(&mut x).unwrap();
        b.apply_keystream(&mut y).unwrap();
        assert_eq!(x, y, "{name}");
    }
    for (name, f) in Poly1305::backends(Features::detect()) {
        let mut a = Poly1305::new_with(f, &[9; 32]);
        // Long enough that the vector kernels build their tables before the clone.
        a.update(&msg);
        let mut b = a.clone();
        a.update(&msg);
        b.update(&msg);
        let (ta, tb) = (a.finalize(), b.finalize());
        assert_eq!(ta, tb, "{name}");
        let mut c = Poly1305::new_with(Features::none(), &[9; 32]);
        c.update(&msg);
        c.update(&msg);
        assert_eq!(c.finalize(), ta, "{name} against the portable kernel");
    }
    for (name, f) in Aes128::backends(Features::detect()) {
        let mut a = Ctr::new(Aes128::new_with(f, &[4; 16]), &[0xff; 16]);
        let mut head = msg[..33].to_vec();
        a.apply_keystream(&mut head).unwrap();
        let mut b = a.clone();
        let (mut x, mut y) = (msg[33..].to_vec(), msg[33..].to_vec());
        a.apply_keystream(&mut x).unwrap();
        b.apply_keystream(&mut y).unwrap();
        assert_eq!(x, y, "{name}");
        assert_eq!(a.counter(), b.counter(), "{name}");

        let mut c = Cbc::new(Aes128::new_with(f, &[4; 16]), &[5; 16]);
        let mut d = c.clone();
        let (mut x, mut y) = (msg[..512].to_vec(), msg[..512].to_vec());
        c.encrypt(&mut x).unwrap();
        d.encrypt(&mut y).unwrap();
        assert_eq!(x, y, "{name}");
        let mut e = Ige::new(Aes128::new_with(f, &[4; 16]), &[6; 32]);
        let mut g = e.clone();
        e.encrypt(&mut x).unwrap();
        g.encrypt(&mut y).unwrap();
        assert_eq!(x, y, "{name}");
    }
}

/// Block ciphers and every AEAD: a clone seals and opens as the original, on every backend,
/// and the original still works after the clone is dropped (each wipes only itself).
#[test]
fn key_clones() {
    let pt = bytes(300, 9);
    macro_rules! aead {
        ($t:ident, $n:literal) => {
            for (name, f) in $t::backends(Features::detect()) {
                let a = $t::new_with(f, &[0x11; $t::KEY_LEN]);
                let b = a.clone();
                let (mut x, mut y) = (pt.clone(), pt.clone());
                let ta = a.seal_in_place_detached(&[3; $n], b"ad", &mut x).unwrap();
                let tb = b.seal_in_place_detached(&[3; $n], b"ad", &mut y).unwrap();
                assert_eq!((&x, ta), (&y, tb), "{} {name}", stringify!($t));
                drop(b);
                a.open_in_place_detached(&[3; $n], b"ad", &mut x, &ta)
                    .unwrap();
                assert_eq!(x, pt);
            }
        };
    }
    aead!(Aes128Gcm, 12);
    aead!(Aes192Gcm, 12);
    aead!(Aes256Gcm, 12);
    aead!(ChaCha20Poly1305, 12);
    aead!(XChaCha20Poly1305, 24);
    for (name, f) in OpenSshChaCha20Poly1305::backends(Features::detect()) {
        let a = OpenSshChaCha20Poly1305::new_with(f, &[0x22; 64]);
        let b = a.clone();
        let (mut x, mut y) = (pt.clone(), pt.clone());
        let ta = a.seal_in_place(5, &mut x).unwrap();
        let tb = b.seal_in_place(5, &mut y).unwrap();
        assert_eq!((&x, ta), (&y, tb), "openssh {name}");
    }
    macro_rules! block {
        ($t:ident, $len:literal) => {
            for (name, f) in $t::backends(Features::detect()) {
                let a = $t::new_with(f, &[0x33; $len]);
                let b = a.clone();
                let (mut x, mut y) = ([7u8; 16], [7u8; 16]);
                a.encrypt_block(&mut x);
                b.encrypt_block(&mut y);
                assert_eq!(x, y, "{} {name}", stringify!($t));
            }
        };
    }
    block!(Aes128, 16);
    block!(Aes192, 24);
    block!(Aes256, 32);
}

#[test]
fn constants_and_slice_constructors() {
    assert_eq!(
        (Aes128Gcm::KEY_LEN, Aes128Gcm::NONCE_LEN, Aes128Gcm::TAG_LEN),
        (16, 12, 16)
    );
    assert_eq!(Aes192Gcm::KEY_LEN, 24);
    assert_eq!(Aes256Gcm::KEY_LEN, 32);
    assert_eq!(
        (
            ChaCha20Poly1305::KEY_LEN,
            ChaCha20Poly1305::NONCE_LEN,
            ChaCha20Poly1305::TAG_LEN
        ),
        (32, 12, 16)
    );
    assert_eq!(XChaCha20Poly1305::NONCE_LEN, 24);
    assert_eq!(OpenSshChaCha20Poly1305::KEY_LEN, 64);
    for len in [0usize, 15, 17, 24, 31, 33, 64] {
        let k = vec![1u8; len];
        assert_eq!(
            Aes128Gcm::new_from_slice(&k).is_ok(),
            len == 16,
            "AES-128-GCM {len}"
        );
        assert_eq!(Aes192Gcm::new_from_slice(&k).is_ok(), len == 24);
        assert_eq!(Aes256Gcm::new_from_slice(&k).is_ok(), len == 32);
        assert_eq!(ChaCha20Poly1305::new_from_slice(&k).is_ok(), len == 32);
        assert_eq!(XChaCha20Poly1305::new_from_slice(&k).is_ok(), len == 32);
        assert_eq!(
            OpenSshChaCha20Poly1305::new_from_slice(&k).is_ok(),
            len == 64
        );
        assert_eq!(
            Aes256Gcm::new_from_slice(&k)
                .map(|_| ())
                .unwrap_or_else(|e| {
                    assert_eq!(e, Error::InvalidLength);
                }),
            ()
        );
    }
}

/// Append-tag and `open_in_place` on the concrete types, every backend.
#[test]
fn append_tag_and_open_in_place() {
    for (name, f) in ChaCha20Poly1305::backends(Features::detect()) {
        let k = ChaCha20Poly1305::new_with(f, &[5; 32]);
        for len in [0usize, 1, 16, 63, 64, 65, 1000, 5000] {
            let pt = bytes(len, 1);
            let mut buf = pt.clone();
            k.seal_in_place_append_tag(&[0; 12], b"x", &mut buf)
                .unwrap();
            assert_eq!(buf.len(), len + 16);
            let mut detached = pt.clone();
            let tag = k
                .seal_in_place_detached(&[0; 12], b"x", &mut detached)
                .unwrap();
            assert_eq!(buf[..len], detached[..], "{name} {len}");
            assert_eq!(buf[len..], tag, "{name} {len}");
            assert_eq!(k.open_in_place(&[0; 12], b"x", &mut buf).unwrap(), &pt[..]);
            let mut short = vec![9u8; 15];
            assert_eq!(
                k.open_in_place(&[0; 12], b"x", &mut short).map(|_| ()),
                Err(Error::InvalidLength)
            );
            assert!(short.iter().all(|&b| b == 0));
        }
    }
    for (name, f) in Aes256Gcm::backends(Features::detect()) {
        let k = Aes256Gcm::new_with(f, &[5; 32]);
        let mut buf = bytes(100, 2);
        k.seal_in_place_append_tag(&[1; 12], b"", &mut buf).unwrap();
        buf[50] ^= 1;
        assert_eq!(
            k.open_in_place(&[1; 12], b"", &mut buf).map(|_| ()),
            Err(Error::AuthenticationFailed),
            "{name}"
        );
        assert!(buf.iter().all(|&b| b == 0), "{name}: not zeroed");
    }
}

/// The run-time interface gives the concrete types' bytes on every backend.
#[test]
fn runtime_key_every_backend() {
    for alg in aead::Algorithm::all() {
        let kb = bytes(alg.key_len(), 7);
        let nonce = bytes(alg.nonce_len(), 8);
        let pt = bytes(777, 9);
        let mut want: Option<Vec<u8>> = None;
        for (name, f) in Aes128Gcm::backends(Features::detect())
            .chain(ChaCha20Poly1305::backends(Features::detect()))
        {
            let key = aead::Key::new_with(alg, &kb, f).unwrap();
            let sealed = key.seal(&nonce, b"aad", &pt).unwrap();
            assert_eq!(
                key.open(&nonce, b"aad", &sealed).unwrap(),
                pt,
                "{alg} {name}"
            );
            match &want {
                None => want = Some(sealed),
                Some(w) => assert_eq!(&sealed, w, "{alg} {name}"),
            }
        }
    }
}

/// GCM short tags: only through the type, and the tag is the prefix of the full tag.
#[test]
fn gcm_short_tags_by_type() {
    for (name, f) in Aes128Gcm::backends(Features::detect()) {
        let full = Aes128Gcm::new_with(f, &[3; 16]);
        let mut a = bytes(40, 1);
        let t16 = full.seal_detached_with_iv(&[4; 7], b"h", &mut a).unwrap();
        macro_rules! short {
            ($($n:literal),*) => {$(
                let g = GcmShortTag::<Aes128Gcm, $n>::new_with(f, &[3; 16]);
                assert_eq!(g.backend(), full.backend());
                let mut b = bytes(40, 1);
                let t = g.seal_detached_with_iv(&[4; 7], b"h", &mut b).unwrap();
                assert_eq!((&b, &t[..]), (&a, &t16[..$n]), "{name} tag {}", $n);
                let mut c = b.clone();
                g.open_detached_with_iv(&[4; 7], b"h", &mut c, &t).unwrap();
                assert_eq!(c, bytes(40, 1));
                let mut bad = t;
                bad[$n - 1] ^= 1;
                assert_eq!(
                    g.open_detached_with_iv(&[4; 7], b"h", &mut b, &bad),
                    Err(Error::AuthenticationFailed)
                );
                assert!(b.iter().all(|&x| x == 0));
            )*};
        }
        short!(4, 8, 12, 13, 14, 15, 16);
        // The 16-byte API takes an empty IV as an error, never a panic.
        let mut d = bytes(5, 0);
        assert_eq!(
            full.seal_detached_with_iv(&[], b"", &mut d),
            Err(Error::InvalidLength)
        );
        assert_eq!(d, bytes(5, 0));
    }
}

#[test]
fn tags_compare_in_constant_time_type() {
    let t = Hmac::<Sha1>::mac(b"key", b"msg");
    let bytes: [u8; 20] = t.into_bytes();
    assert_eq!(t, Tag::new(bytes));
    let mut other = bytes;
    other[19] ^= 1;
    assert_ne!(t, Tag::new(other));
    assert_eq!(t.verify(&other), Err(Error::AuthenticationFailed));
    assert_eq!(t.verify(&bytes[..19]), Err(Error::AuthenticationFailed));
    assert!(t.verify(&bytes).is_ok());
    assert_eq!(format!("{:?}", Tag::new([0xabu8, 0x01])), "Tag(ab01)");
}

#[test]
fn hkdf_info_pieces() {
    let h = Hkdf::<Sha384>::new(b"salt", b"ikm");
    let mut one = [0u8; 100];
    let mut many = [0u8; 100];
    h.expand(b"\x00\x30tls13 derivedctx", &mut one).unwrap();
    h.expand_multi_info(
        &[b"\x00\x30", b"tls13 ", b"derived", b"", b"ctx"],
        &mut many,
    )
    .unwrap();
    assert_eq!(one, many);
    assert_eq!(
        h.expand_multi_info(&[b"a"], &mut vec![0u8; 255 * 48 + 1]),
        Err(Error::InvalidLength)
    );
}

#[test]
fn error_is_a_core_error() {
    fn takes(_: &dyn core::error::Error) {}
    takes(&Error::AuthenticationFailed);
    assert_eq!(Error::InvalidLength.to_string(), "invalid length");
}

/// Random access: `set_position` to any byte, on every kernel, gives the keystream that a
/// straight run from the start gives there, and `position` reports it; the legacy ChaCha20
/// carries into word 13 across the seek; out-of-range positions change nothing.
#[test]
fn seek_every_backend() {
    let msg = bytes(700, 5);
    for (name, f) in Aes256::backends(Features::detect()) {
        let key = Aes256::new_with(f, &[4; 32]);
        let iv = [
            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            0xff, 0xf0,
        ];
        let mut whole = msg.clone();
        Ctr::new(key.clone(), &iv)
            .apply_keystream(&mut whole)
            .unwrap();
        let mut c = Ctr::new(key, &iv);
        for start in [0usize, 1, 15, 16, 17, 255, 256, 257, 399, 640, 700] {
            c.set_position((start / 16) as u128, (start % 16) as u8)
                .unwrap();
            assert_eq!(c.position(), ((start / 16) as u128, (start % 16) as u8));
            let mut part = msg[start..].to_vec();
            c.apply_keystream(&mut part).unwrap();
            assert_eq!(part, whole[start..], "{name} at {start}");
            assert_eq!(c.position(), (700 / 16, (700 % 16) as u8));
        }
        assert_eq!(c.set_position(1, 16), Err(Error::InvalidLength));
        assert_eq!(c.set_position(u128::MAX, 1), Err(Error::CounterExhausted));
        assert_eq!(c.position(), (700 / 16, (700 % 16) as u8));
    }
    for (name, f) in ChaCha20::backends(Features::detect()) {
        for legacy in [false, true] {
            // Block 2^32 - 3 onward: the legacy counter carries into word 13 inside the run.
            let first = (1u64 << 32) - 3;
            let mk = |counter: u64| {
                if legacy {
                    ChaCha20::new_legacy_with(f, &[6; 32], &[7; 8], counter)
                } else {
                    ChaCha20::new_with(f, &[6; 32], &[7; 12], counter as u32)
                }
            };
            let len = if legacy { 700 } else { 192 };
            let mut whole = msg[..len].to_vec();
            mk(first).apply_keystream(&mut whole).unwrap();
            let mut c = mk(5);
            for start in [0usize, 1, 63, 64, 65, 130, len - 1, len] {
                let at = (u128::from(first) + (start / 64) as u128, (start % 64) as u8);
                c.set_position(at.0, at.1).unwrap();
                assert_eq!(c.position(), at);
                let mut part = msg[start..len].to_vec();
                c.apply_keystream(&mut part).unwrap();
                assert_eq!(part, whole[start..], "{name} legacy={legacy} at {start}");
            }
            if !legacy {
                assert_eq!(c.position(), (1 << 32, 0));
                assert_eq!(c.apply_keystream(&mut [0; 1]), Err(Error::CounterExhausted));
                assert_eq!(
                    c.set_position((1 << 32) + 1, 0),
                    Err(Error::CounterExhausted)
                );
                assert_eq!(c.set_position(0, 64), Err(Error::InvalidLength));
                assert_eq!(c.position(), (1 << 32, 0));
            } else {
                assert_eq!(c.set_position(1 << 64, 1), Err(Error::CounterExhausted));
                c.set_position(1 << 64, 0).unwrap();
                assert!(!c.has_keystream(1));
            }
        }
    }
}
