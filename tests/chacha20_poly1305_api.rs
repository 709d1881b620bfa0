//! The ChaCha20-Poly1305 AEADs' API contract, on every kernel pair:
//!
//! - a flipped bit anywhere in the ciphertext, the tag or the AAD, a wrong nonce or a wrong
//!   key is `Err(AuthenticationFailed)` and leaves the buffer all zero (never partial
//!   plaintext, also not the head that the composition decrypts on the side);
//! - length errors: `open` of fewer bytes than a tag, OpenSSH packets shorter than the length
//!   field, and texts longer than the 32-bit block counter allows (`MessageTooLong`, with the
//!   buffer untouched by `seal`);
//! - chacha20-poly1305@openssh.com as a transport uses it: `decrypt_length` before the packet,
//!   `open_in_place` after it, and every way the packet can be damaged;
//! - `Debug` shows the backend, never the key.

mod common;

use common::chacha::{
    for_each_chacha20_poly1305_backend, for_each_openssh_backend,
    for_each_xchacha20_poly1305_backend,
};
use simdcrypt::Error;
use simdcrypt::aead::{ChaCha20Poly1305, OpenSshChaCha20Poly1305, XChaCha20Poly1305};
use simdcrypt::cpu::Features;

fn bytes(seed: u8, len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(29).wrapping_add(seed))
        .collect()
}

/// Byte positions to damage in a text of `len` bytes: all of a short one; of a long one the
/// first and last bytes of every 64-byte block and a stride through the rest.
fn positions(len: usize) -> Vec<usize> {
    if len <= 400 {
        return (0..len).collect();
    }
    let mut v: Vec<usize> = (0..len)
        .filter(|i| i % 64 == 0 || i % 64 == 63 || i % 97 == 5)
        .collect();
    v.push(len - 1);
    v.dedup();
    v
}

/// Lengths: empty, below and at the 16-byte block, inside and past the 192-byte head, and
/// past the first 4 KiB chunk.
const LENS: [usize; 8] = [0, 1, 16, 63, 191, 193, 400, 4096 + 300];

fn all_zero(b: &[u8]) -> bool {
    b.iter().all(|&x| x == 0)
}

#[test]
fn chacha20_poly1305_rejects_any_flipped_bit() {
    let key = [0x42u8; 32];
    let nonce = [7u8; 12];
    for_each_chacha20_poly1305_backend(|name, f| {
        let a = ChaCha20Poly1305::new_with(f, &key);
        for len in LENS {
            let aad = bytes(3, 1 + len % 40);
            let pt = bytes(9, len);
            let mut ct = pt.clone();
            let tag = a.seal_in_place_detached(&nonce, &aad, &mut ct).unwrap();
            let open = |aad: &[u8], ct: &[u8], tag: &[u8; 16]| {
                let mut buf = ct.to_vec();
                let r = a.open_in_place_detached(&nonce, aad, &mut buf, tag);
                (r, buf)
            };
            let (r, buf) = open(&aad, &ct, &tag);
            assert_eq!((r, buf), (Ok(()), pt.clone()), "{name} len {len}");
            for i in positions(len) {
                let mut bad = ct.clone();
                bad[i] ^= 1 << (i % 8);
                let (r, buf) = open(&aad, &bad, &tag);
                assert_eq!(r, Err(Error::AuthenticationFailed), "{name} ct byte {i}");
                assert!(
                    all_zero(&buf),
                    "{name} len {len}: ct byte {i}, buffer not zeroed"
                );
            }
            for bit in 0..128 {
                let mut bad = tag;
                bad[bit / 8] ^= 1 << (bit % 8);
                let (r, buf) = open(&aad, &ct, &bad);
                assert_eq!(r, Err(Error::AuthenticationFailed), "{name} tag bit {bit}");
                assert!(all_zero(&buf), "{name} len {len}: tag bit {bit}");
            }
            for i in 0..aad.len() {
                let mut bad = aad.clone();
                bad[i] ^= 0x80 >> (i % 8);
                let (r, buf) = open(&bad, &ct, &tag);
                assert_eq!(r, Err(Error::AuthenticationFailed), "{name} aad byte {i}");
                assert!(all_zero(&buf), "{name} len {len}: aad byte {i}");
            }
            // AAD and ciphertext are not interchangeable: moving a byte between them fails.
            if len > 0 {
                let mut aad2 = aad.clone();
                aad2.push(ct[0]);
                let (r, buf) = open(&aad2, &ct[1..], &tag);
                assert_eq!(r, Err(Error::AuthenticationFailed), "{name} shifted");
                assert!(all_zero(&buf));
            }
            // A wrong nonce or key.
            let mut buf = ct.clone();
            let mut n2 = nonce;
            n2[11] ^= 1;
            assert_eq!(
                a.open_in_place_detached(&n2, &aad, &mut buf, &tag),
                Err(Error::AuthenticationFailed)
            );
            assert!(all_zero(&buf));
            let mut k2 = key;
            k2[31] ^= 1;
            let mut buf = ct.clone();
            assert_eq!(
                ChaCha20Poly1305::new_with(f, &k2)
                    .open_in_place_detached(&nonce, &aad, &mut buf, &tag),
                Err(Error::AuthenticationFailed)
            );
            assert!(all_zero(&buf));
            // The Vec API: the same verdicts.
            let mut sealed = ct.clone();
            sealed.extend_from_slice(&tag);
            assert_eq!(a.open(&nonce, &aad, &sealed).as_deref(), Ok(&pt[..]));
            let last = sealed.len() - 1;
            sealed[last] ^= 1;
            assert_eq!(
                a.open(&nonce, &aad, &sealed),
                Err(Error::AuthenticationFailed)
            );
        }
    });
}

#[test]
fn xchacha20_poly1305_rejects_any_flipped_bit() {
    let key = [0x24u8; 32];
    let nonce: [u8; 24] = core::array::from_fn(|i| i as u8);
    for_each_xchacha20_poly1305_backend(|name, f| {
        let a = XChaCha20Poly1305::new_with(f, &key);
        for len in [0usize, 17, 300] {
            let aad = bytes(1, 5);
            let pt = bytes(2, len);
            let mut ct = pt.clone();
            let tag = a.seal_in_place_detached(&nonce, &aad, &mut ct).unwrap();
            for i in 0..len + 16 + aad.len() + 24 {
                let (mut c, mut t, mut d, mut n) = (ct.clone(), tag, aad.clone(), nonce);
                if i < len {
                    c[i] ^= 1 << (i % 8);
                } else if i < len + 16 {
                    t[i - len] ^= 1 << (i % 8);
                } else if i < len + 16 + aad.len() {
                    d[i - len - 16] ^= 1 << (i % 8);
                } else {
                    // Both halves of the nonce: HChaCha20's 16 bytes and the last 8.
                    n[i - len - 16 - aad.len()] ^= 1 << (i % 8);
                }
                assert_eq!(
                    a.open_in_place_detached(&n, &d, &mut c, &t),
                    Err(Error::AuthenticationFailed),
                    "{name} len {len} position {i}"
                );
                assert!(all_zero(&c), "{name} len {len} position {i}");
            }
            a.open_in_place_detached(&nonce, &aad, &mut ct, &tag)
                .unwrap();
            assert_eq!(ct, pt);
        }
    });
}

#[test]
fn open_shorter_than_a_tag_is_invalid_length() {
    let a = ChaCha20Poly1305::new(&[1; 32]);
    let x = XChaCha20Poly1305::new(&[1; 32]);
    for n in 0..16 {
        let v = vec![0u8; n];
        assert_eq!(a.open(&[0; 12], b"", &v), Err(Error::InvalidLength));
        assert_eq!(x.open(&[0; 24], b"", &v), Err(Error::InvalidLength));
    }
    // Exactly a tag: the empty text, whose tag must still verify.
    let sealed = a.seal(&[0; 12], b"ad", b"").unwrap();
    assert_eq!(sealed.len(), 16);
    assert_eq!(a.open(&[0; 12], b"ad", &sealed), Ok(Vec::new()));
    assert_eq!(
        a.open(&[0; 12], b"ae", &sealed),
        Err(Error::AuthenticationFailed)
    );
}

/// A text one byte longer than (2^32 − 1)·64 is `MessageTooLong`, and `seal` leaves it
/// alone. The buffer is 256 GiB of address space reserved with `MAP_NORESERVE` and never
/// touched (no memory is committed). 64-bit Linux only; if the mapping is refused (as qemu's
/// user-mode emulation may do), the test says so and checks nothing else.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
#[test]
fn longer_than_the_block_counter_is_message_too_long() {
    use core::ffi::{c_int, c_long, c_void};
    unsafe extern "C" {
        fn mmap(
            addr: *mut c_void,
            len: usize,
            prot: c_int,
            flags: c_int,
            fd: c_int,
            off: c_long,
        ) -> *mut c_void;
        fn munmap(addr: *mut c_void, len: usize) -> c_int;
    }
    // Linux uapi (asm-generic/mman-common.h, mman.h; the same on x86_64 and arm64).
    const PROT_READ: c_int = 1;
    const PROT_WRITE: c_int = 2;
    const MAP_PRIVATE: c_int = 0x02;
    const MAP_ANONYMOUS: c_int = 0x20;
    const MAP_NORESERVE: c_int = 0x4000;
    let len = ((1usize << 32) - 1) * 64 + 1;
    let map = len + 4;
    // SAFETY: an anonymous private mapping at an address of the kernel's choice; no fd.
    let p = unsafe {
        mmap(
            core::ptr::null_mut(),
            map,
            PROT_READ | PROT_WRITE,
            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
            -1,
            0,
        )
    };
    if p as isize == -1 {
        eprintln!("mmap of {map} bytes refused: MessageTooLong not checked here");
        return;
    }
    // SAFETY: `p` is a fresh read-write mapping of `map` bytes, owned by this test until the
    // munmap below; nothing else aliases it. Untouched pages read as zero if read.
    let whole = unsafe { core::slice::from_raw_parts_mut(p.cast::<u8>(), map) };
    let buf = &mut whole[..len];
    let a = ChaCha20Poly1305::new(&[5; 32]);
    assert_eq!(
        a.seal_in_place_detached(&[0; 12], b"", buf),
        Err(Error::MessageTooLong)
    );
    let x = XChaCha20Poly1305::new(&[5; 32]);
    assert_eq!(
        x.seal_in_place_detached(&[0; 24], b"", buf),
        Err(Error::MessageTooLong)
    );
    // An OpenSSH packet: the 4-byte length field, then a payload one byte too long.
    let s = OpenSshChaCha20Poly1305::new(&[5; 64]);
    assert_eq!(s.seal_in_place(0, whole), Err(Error::MessageTooLong));
    // SAFETY: the mapping made above, no longer borrowed.
    assert_eq!(unsafe { munmap(p, map) }, 0);
}

#[test]
fn openssh_transport_round_trip_and_damage() {
    let key: [u8; 64] = core::array::from_fn(|i| (i * 3) as u8);
    for_each_openssh_backend(|name, f| {
        let c = OpenSshChaCha20Poly1305::new_with(f, &key);
        for (seq, body) in [(0u64, 12usize), (1, 28), (u32::MAX as u64, 60), (7, 1000)] {
            // An SSH binary packet: length, padding length, payload, padding.
            let mut packet = (body as u32).to_be_bytes().to_vec();
            packet.push(4);
            packet.extend(bytes(seq as u8, body - 1));
            let plain = packet.clone();
            let tag = c.seal_in_place(seq, &mut packet).unwrap();
            assert_ne!(packet[..4], plain[..4], "{name}: length not encrypted");
            // The receiver learns the length from the first 4 bytes alone.
            let len = c.decrypt_length(seq, packet[..4].try_into().unwrap());
            assert_eq!(u32::from_be_bytes(len) as usize, body, "{name}");
            // ... under the right sequence number only.
            assert_ne!(
                c.decrypt_length(seq + 1, packet[..4].try_into().unwrap()),
                len
            );
            let mut ok = packet.clone();
            assert_eq!(c.open_in_place(seq, &mut ok, &tag), Ok(()), "{name}");
            assert_eq!(ok, plain);
            // Damage: every byte of the packet (length field included), every tag bit, the
            // sequence number, a truncated or extended packet.
            for i in 0..packet.len() {
                let mut bad = packet.clone();
                bad[i] ^= 1 << (i % 8);
                assert_eq!(
                    c.open_in_place(seq, &mut bad, &tag),
                    Err(Error::AuthenticationFailed),
                    "{name} seq {seq} byte {i}"
                );
                assert!(all_zero(&bad), "{name}: byte {i}, packet not zeroed");
            }
            for bit in 0..128 {
                let mut t = tag;
                t[bit / 8] ^= 1 << (bit % 8);
                let mut bad = packet.clone();
                assert_eq!(
                    c.open_in_place(seq, &mut bad, &t),
                    Err(Error::AuthenticationFailed)
                );
                assert!(all_zero(&bad));
            }
            for s in [seq ^ 1, seq.wrapping_add(1 << 32), !seq] {
                let mut bad = packet.clone();
                assert_eq!(
                    c.open_in_place(s, &mut bad, &tag),
                    Err(Error::AuthenticationFailed)
                );
                assert!(all_zero(&bad));
            }
            let mut short = packet[..packet.len() - 1].to_vec();
            assert_eq!(
                c.open_in_place(seq, &mut short, &tag),
                Err(Error::AuthenticationFailed)
            );
            assert!(all_zero(&short));
            let mut long = packet.clone();
            long.push(0);
            assert_eq!(
                c.open_in_place(seq, &mut long, &tag),
                Err(Error::AuthenticationFailed)
            );
            // Another key (K_1 and K_2 swapped) fails.
            let mut swapped = [0u8; 64];
            swapped[..32].copy_from_slice(&key[32..]);
            swapped[32..].copy_from_slice(&key[..32]);
            let mut bad = packet.clone();
            assert_eq!(
                OpenSshChaCha20Poly1305::new_with(f, &swapped).open_in_place(seq, &mut bad, &tag),
                Err(Error::AuthenticationFailed)
            );
        }
    });
}

#[test]
fn openssh_packets_shorter_than_the_length_field() {
    let c = OpenSshChaCha20Poly1305::new(&[9; 64]);
    for n in 0..4 {
        let mut p = vec![0x5au8; n];
        assert_eq!(c.seal_in_place(1, &mut p), Err(Error::InvalidLength));
        assert!(p.iter().all(|&b| b == 0x5a), "seal changed a short packet");
        assert_eq!(
            c.open_in_place(1, &mut p, &[0; 16]),
            Err(Error::InvalidLength)
        );
        assert!(all_zero(&p));
    }
    // Exactly the length field (an empty payload) is a valid packet.
    let mut p = 0u32.to_be_bytes();
    let tag = c.seal_in_place(1, &mut p).unwrap();
    assert_eq!(c.decrypt_length(1, &p), [0; 4]);
    c.open_in_place(1, &mut p, &tag).unwrap();
    assert_eq!(p, [0; 4]);
}

#[test]
fn debug_shows_the_backend_not_the_key() {
    let key = [0xabu8; 32];
    let f = Features::detect();
    let a = format!("{:?}", ChaCha20Poly1305::new_with(f, &key));
    let x = format!("{:?}", XChaCha20Poly1305::new_with(f, &key));
    let s = format!("{:?}", OpenSshChaCha20Poly1305::new_with(f, &[0xab; 64]));
    for (d, b) in [
        (&a, ChaCha20Poly1305::backend_for(f)),
        (&x, XChaCha20Poly1305::backend_for(f)),
        (&s, OpenSshChaCha20Poly1305::backend_for(f)),
    ] {
        assert!(d.contains(b), "{d}");
        for leak in ["171", "ab", "AB"] {
            assert!(!d.contains(leak), "{d} shows key bytes");
        }
    }
}
