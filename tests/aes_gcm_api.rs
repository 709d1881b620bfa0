//! AES-GCM API behaviour, on every backend (house rule 7) and all three key sizes:
//!
//! - authentication: one flipped bit anywhere in the ciphertext, the tag, the AAD or the
//!   nonce/IV, a wrong key, a truncated or extended message → `Err(AuthenticationFailed)` and
//!   the buffer all zero (never partial plaintext), through every open function and with
//!   every tag length;
//! - misuse → `Err(InvalidLength)`, never a panic: an empty IV, a tag length SP 800-38D
//!   does not allow, `open` of fewer than 16 bytes;
//! - the plaintext limit (2^36 - 32 bytes, SP 800-38D §5.2.1.1) → `MessageTooLong` before
//!   the buffer is touched, on a 64 GiB read-only mapping that costs no memory (see
//!   [`too_long_plaintext_is_refused_untouched`]; the AAD limit, 2^61 - 1 bytes, cannot be
//!   reached in a 47-bit address space and is not tested);
//! - `seal`/`open` round trips and agreement with the detached calls.
//! - the AES-GCM coverage check of `tests/common` fires when a kernel did not run.

mod common;

use common::gcm::{Gcm, for_each_gcm_backend};
use common::hex;
use simdcrypt::Error;
use simdcrypt::aead::{Aes128Gcm, Aes192Gcm, Aes256Gcm};
use simdcrypt::cpu::Features;

fn key<G: Gcm>() -> Vec<u8> {
    (0..G::KEY_LEN as u8)
        .map(|i| i.wrapping_mul(29) ^ 0xa7)
        .collect()
}

/// A message of `len` bytes that is not all one value.
fn msg(len: usize, salt: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(13) ^ salt)
        .collect()
}

const NONCE: [u8; 12] = [
    0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce, 0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88,
];

fn all_zero(b: &[u8]) -> bool {
    b.iter().all(|&x| x == 0)
}

/// Each flipped bit of ciphertext, tag, AAD and nonce is rejected, by
/// `open_in_place_detached` (buffer zeroed) and `open`; the untouched inputs open.
fn flipped_bits<G: Gcm>() {
    for_each_gcm_backend::<G>(|name, f| {
        let g = G::with(f, &key::<G>());
        for len in [0, 1, 16, 33] {
            let ctx = format!("{} {name} len {len}", G::NAME);
            let pt = msg(len, 0x3c);
            let aad = msg(20, 0x71);
            let mut ct = pt.clone();
            let tag = g.seal_in_place_detached(&NONCE, &aad, &mut ct).unwrap();
            let mut sealed = ct.clone();
            sealed.extend_from_slice(&tag);

            let mut buf = ct.clone();
            assert_eq!(
                g.open_in_place_detached(&NONCE, &aad, &mut buf, &tag),
                Ok(())
            );
            assert_eq!(buf, pt, "{ctx}");
            assert_eq!(g.open(&NONCE, &aad, &sealed), Ok(pt.clone()), "{ctx}");

            let reject = |nonce: &[u8; 12], aad: &[u8], ct: &[u8], tag: &[u8; 16], what: &str| {
                let mut buf = ct.to_vec();
                assert_eq!(
                    g.open_in_place_detached(nonce, aad, &mut buf, tag),
                    Err(Error::AuthenticationFailed),
                    "{ctx}: {what} accepted"
                );
                assert!(
                    all_zero(&buf),
                    "{ctx}: {what}: buffer not zeroed: {}",
                    hex(&buf)
                );
                let mut both = ct.to_vec();
                both.extend_from_slice(tag);
                assert_eq!(
                    g.open(nonce, aad, &both),
                    Err(Error::AuthenticationFailed),
                    "{ctx}: {what} accepted by open"
                );
            };
            for bit in 0..8 * len {
                let mut c = ct.clone();
                c[bit / 8] ^= 1 << (bit % 8);
                reject(&NONCE, &aad, &c, &tag, &format!("ciphertext bit {bit}"));
            }
            for bit in 0..128 {
                let mut t = tag;
                t[bit / 8] ^= 1 << (bit % 8);
                reject(&NONCE, &aad, &ct, &t, &format!("tag bit {bit}"));
            }
            for bit in 0..8 * aad.len() {
                let mut a = aad.clone();
                a[bit / 8] ^= 1 << (bit % 8);
                reject(&NONCE, &a, &ct, &tag, &format!("AAD bit {bit}"));
            }
            for bit in 0..96 {
                let mut n = NONCE;
                n[bit / 8] ^= 1 << (bit % 8);
                reject(&n, &aad, &ct, &tag, &format!("nonce bit {bit}"));
            }
            // AAD and ciphertext boundaries moved: the same bytes, split differently.
            if len > 0 {
                let mut a = aad.clone();
                a.push(ct[0]);
                reject(
                    &NONCE,
                    &a,
                    &ct[1..],
                    &tag,
                    "first ciphertext byte moved to AAD",
                );
            }
            reject(&NONCE, &aad[1..], &ct, &tag, "AAD shortened");
            let mut longer = ct.clone();
            longer.push(0);
            reject(
                &NONCE,
                &aad,
                &longer,
                &tag,
                "ciphertext extended by a zero byte",
            );
            if len > 0 {
                reject(&NONCE, &aad, &ct[..len - 1], &tag, "ciphertext truncated");
            }
            // Another key.
            let mut k = key::<G>();
            k[0] ^= 0x80;
            let other = G::with(f, &k);
            let mut buf = ct.clone();
            assert_eq!(
                other.open_in_place_detached(&NONCE, &aad, &mut buf, &tag),
                Err(Error::AuthenticationFailed),
                "{ctx}: wrong key accepted"
            );
            assert!(all_zero(&buf), "{ctx}: wrong key: buffer not zeroed");
        }
    });
}

/// The lower-level API with every allowed tag length and non-96-bit IVs: each flipped tag bit,
/// a flipped ciphertext bit and a flipped IV bit are rejected with the buffer zeroed; a tag
/// is a prefix of the full one (SP 800-38D §7.1 step 7: `T = MSB_t(...)`).
fn flipped_bits_with_iv<G: Gcm>() {
    for_each_gcm_backend::<G>(|name, f| {
        let g = G::with(f, &key::<G>());
        for iv_len in [1, 8, 12, 16, 60] {
            let iv = msg(iv_len, 0x5e);
            let pt = msg(37, 0x11);
            let aad = msg(9, 0x22);
            let mut full = [0u8; 16];
            let mut ct = pt.clone();
            g.seal_detached_with_iv(&iv, &aad, &mut ct, &mut full)
                .unwrap();
            for tag_len in [4, 8, 12, 13, 14, 15, 16] {
                let ctx = format!("{} {name} IV {iv_len} bytes, tag {tag_len}", G::NAME);
                let mut tag = vec![0u8; tag_len];
                let mut c = pt.clone();
                assert_eq!(g.seal_detached_with_iv(&iv, &aad, &mut c, &mut tag), Ok(()));
                assert_eq!(c, ct, "{ctx}: ciphertext depends on the tag length");
                assert_eq!(tag, full[..tag_len], "{ctx}: tag is not a prefix");
                let mut buf = ct.clone();
                assert_eq!(g.open_detached_with_iv(&iv, &aad, &mut buf, &tag), Ok(()));
                assert_eq!(buf, pt, "{ctx}");

                let reject = |iv: &[u8], ct: &[u8], tag: &[u8], what: &str| {
                    let mut buf = ct.to_vec();
                    assert_eq!(
                        g.open_detached_with_iv(iv, &aad, &mut buf, tag),
                        Err(Error::AuthenticationFailed),
                        "{ctx}: {what} accepted"
                    );
                    assert!(all_zero(&buf), "{ctx}: {what}: buffer not zeroed");
                };
                for bit in 0..8 * tag_len {
                    let mut t = tag.clone();
                    t[bit / 8] ^= 1 << (bit % 8);
                    reject(&iv, &ct, &t, &format!("tag bit {bit}"));
                }
                let mut c = ct.clone();
                c[36] ^= 0x40;
                reject(&iv, &c, &tag, "ciphertext bit");
                let mut v = iv.clone();
                v[iv_len - 1] ^= 1;
                reject(&v, &ct, &tag, "IV bit");
                // The same IV with a zero byte appended is another IV (its length is hashed).
                let mut v = iv.clone();
                v.push(0);
                reject(&v, &ct, &tag, "IV extended by a zero byte");
            }
        }
    });
}

/// Lengths the API must refuse with `InvalidLength`, never a panic.
fn invalid_lengths<G: Gcm>() {
    for_each_gcm_backend::<G>(|name, f| {
        let g = G::with(f, &key::<G>());
        let ctx = format!("{} {name}", G::NAME);
        let pt = msg(20, 0x33);
        // Empty IV (SP 800-38D §5.2.1.1: 1 ≤ len(IV)).
        let mut buf = pt.clone();
        let mut tag = [0u8; 16];
        assert_eq!(
            g.seal_detached_with_iv(&[], b"", &mut buf, &mut tag),
            Err(Error::InvalidLength),
            "{ctx}: empty IV sealed"
        );
        assert_eq!(
            g.open_detached_with_iv(&[], b"", &mut buf, &tag),
            Err(Error::InvalidLength),
            "{ctx}: empty IV opened"
        );
        // Tag lengths are not checked here: the library takes them from the type, never from
        // a slice (`[u8; 16]`, or `GcmShortTag<G, N>` whose `N` is checked at compile time;
        // see its `compile_fail` doctest).
        // `open` needs at least the 16-byte tag.
        for n in 0..16 {
            assert_eq!(
                g.open(&NONCE, b"", &msg(n, 1)),
                Err(Error::InvalidLength),
                "{ctx}: open of {n} bytes"
            );
        }
    });
}

/// `seal` is ciphertext ‖ tag of the detached call, `open` inverts it, for lengths 0..=100.
fn vec_round_trip<G: Gcm>() {
    for_each_gcm_backend::<G>(|name, f| {
        let g = G::with(f, &key::<G>());
        for len in 0..=100 {
            let ctx = format!("{} {name} len {len}", G::NAME);
            let pt = msg(len, len as u8);
            let aad = msg(len % 23, 0x99);
            let sealed = g.seal(&NONCE, &aad, &pt).unwrap();
            assert_eq!(sealed.len(), len + 16, "{ctx}");
            let mut ct = pt.clone();
            let tag = g.seal_in_place_detached(&NONCE, &aad, &mut ct).unwrap();
            assert_eq!(sealed[..len], ct[..], "{ctx}: ciphertext");
            assert_eq!(sealed[len..], tag[..], "{ctx}: tag");
            assert_eq!(g.open(&NONCE, &aad, &sealed), Ok(pt.clone()), "{ctx}");
            if len > 0 {
                assert_ne!(ct, pt, "{ctx}: ciphertext equals plaintext");
            }
        }
    });
}

macro_rules! tests {
    ($($m:ident: $g:ty),* $(,)?) => {$(
        mod $m {
            use super::*;

            #[test]
            fn flipped_bits_are_rejected_and_zero_the_buffer() {
                flipped_bits::<$g>();
            }

            #[test]
            fn flipped_bits_with_iv_and_short_tags() {
                flipped_bits_with_iv::<$g>();
            }

            #[test]
            fn invalid_lengths_are_errors() {
                invalid_lengths::<$g>();
            }

            #[test]
            fn seal_open_vec_round_trip() {
                vec_round_trip::<$g>();
            }
        }
    )*};
}

tests! {
    aes128: Aes128Gcm,
    aes192: Aes192Gcm,
    aes256: Aes256Gcm,
}

/// `new` picks what `backend_for(Features::detect())` names (the `SIMDCRYPT_DISABLE` mask
/// applied), and `backends(none)` is the portable pair alone.
#[test]
fn default_backend_and_portable_walk() {
    let g = Aes256Gcm::new_default(&[7; 32]);
    assert_eq!(g.backend(), Aes256Gcm::backend_for(Features::detect()));
    let none = <Aes128Gcm as Gcm>::backends(Features::none());
    assert_eq!(none.len(), 1);
    assert_eq!(none[0].0, common::portable_backend("aes128-gcm"));
    assert_eq!(
        Aes192Gcm::with(Features::none(), &[1; 24]).backend(),
        common::portable_backend("aes192-gcm")
    );
}

/// A read-only, never-backed anonymous mapping of `len` bytes (Linux `mmap` with
/// `MAP_NORESERVE`: no memory is committed; reads see the shared zero page, a write faults).
/// `None` if the kernel refuses it.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
struct Reserved {
    ptr: *mut u8,
    len: usize,
}

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
impl Reserved {
    fn new(len: usize) -> Option<Reserved> {
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
        }
        // <sys/mman.h> on x86_64 and aarch64 Linux (asm-generic values).
        const PROT_READ: c_int = 0x1;
        const MAP_PRIVATE: c_int = 0x02;
        const MAP_ANONYMOUS: c_int = 0x20;
        const MAP_NORESERVE: c_int = 0x4000;
        // SAFETY: a fresh anonymous mapping at an address of the kernel's choosing: no
        // existing memory is affected; the result is checked against MAP_FAILED (-1).
        let p = unsafe {
            mmap(
                core::ptr::null_mut(),
                len,
                PROT_READ,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                -1,
                0,
            )
        };
        if p as isize == -1 || p.is_null() {
            return None;
        }
        Some(Reserved { ptr: p.cast(), len })
    }

    /// The mapping as a slice. Its bytes read as zero; any write faults (SIGSEGV), which is
    /// how the test sees that the library touched a buffer it must refuse.
    fn slice(&mut self) -> &mut [u8] {
        // SAFETY: `ptr` is the start of a live mapping of `len` readable bytes (zero-filled
        // on demand), owned by `self` and unmapped only on drop; `len` < isize::MAX. The
        // slice borrows `self` mutably, so it is the only reference. Writes fault instead of
        // changing memory: the functions under test must not write to it.
        unsafe { core::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
impl Drop for Reserved {
    fn drop(&mut self) {
        use core::ffi::{c_int, c_void};
        unsafe extern "C" {
            fn munmap(addr: *mut c_void, len: usize) -> c_int;
        }
        // SAFETY: unmaps exactly the mapping `new` created; no slice of it outlives `self`.
        let r = unsafe { munmap(self.ptr.cast(), self.len) };
        assert_eq!(r, 0, "munmap");
    }
}

/// A plaintext one byte over the limit of SP 800-38D §5.2.1.1 (2^39 − 256 bits = 2^36 − 32
/// bytes) is refused with `MessageTooLong` by every seal function, before the buffer is read
/// or written: the buffer is a 64 GiB read-only mapping that is never backed by memory, so a
/// write would crash the test and reading it all would take minutes.
///
/// Not tested: the open functions on such a buffer (they zero `in_out` on every error, which
/// would fault on the read-only mapping: that behaviour is checked on small buffers above),
/// a plaintext of exactly the limit (accepting it means encrypting 64 GiB), and the AAD limit
/// of 2^61 − 1 bytes (beyond any address space).
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn too_long_plaintext<G: Gcm>() {
    const MAX_TEXT: usize = (1 << 36) - 32;
    let Some(mut huge) = Reserved::new(MAX_TEXT + 1) else {
        eprintln!(
            "{}: 64 GiB mapping refused by the kernel; not tested",
            G::NAME
        );
        return;
    };
    for_each_gcm_backend::<G>(|name, f| {
        let g = G::with(f, &key::<G>());
        let ctx = format!("{} {name}", G::NAME);
        let buf = huge.slice();
        assert_eq!(
            g.seal_in_place_detached(&NONCE, b"", buf),
            Err(Error::MessageTooLong),
            "{ctx}: seal_in_place_detached"
        );
        let mut tag = [0x77u8; 16];
        assert_eq!(
            g.seal_detached_with_iv(&NONCE[..8], b"ad", buf, &mut tag),
            Err(Error::MessageTooLong),
            "{ctx}: seal_detached_with_iv"
        );
        assert_eq!(tag, [0x77; 16], "{ctx}: tag written on error");
        assert_eq!(
            g.seal(&NONCE, b"", buf),
            Err(Error::MessageTooLong),
            "{ctx}: seal"
        );
    });
}

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
#[test]
fn too_long_plaintext_is_refused_untouched() {
    too_long_plaintext::<Aes128Gcm>();
    too_long_plaintext::<Aes192Gcm>();
    too_long_plaintext::<Aes256Gcm>();
}

/// The coverage check behind `for_each_gcm_backend` takes each pair apart: it fails, naming
/// the kernel, when an AES or GHASH kernel the CPU supports ran in no pair, and passes when
/// every expected kernel ran in some pair.
#[test]
fn gcm_coverage_check_fires_when_a_kernel_is_missing() {
    use std::collections::BTreeSet;
    let name = "aes128-gcm";
    let portable = common::portable_backend(name);
    let expected = common::expected_backends(name);
    let (aes_portable, ghash_portable) = portable.split_once('+').unwrap();
    assert!(expected.contains(&aes_portable) && expected.contains(&ghash_portable));
    let only_portable: BTreeSet<&'static str> = [portable].into();
    let missing = expected
        .iter()
        .find(|k| **k != aes_portable && **k != ghash_portable);
    if let Some(missing) = missing {
        let r = std::panic::catch_unwind(|| common::check_coverage(name, &only_portable));
        let msg = match r {
            Ok(()) => panic!("coverage check passed without {missing}"),
            Err(e) => e.downcast_ref::<String>().cloned().unwrap_or_default(),
        };
        assert!(
            msg.contains(&format!("{missing:?}")) && msg.contains("not exercised"),
            "{msg}"
        );
    } else {
        common::check_coverage(name, &only_portable);
    }
    // Every expected AES kernel paired with the portable GHASH and every GHASH kernel with
    // the portable AES: passes.
    let aes_kernels = common::expected_backends("aes128");
    let ghash_kernels = common::expected_backends("ghash");
    let pairs: BTreeSet<&'static str> = aes_kernels
        .iter()
        .map(|a| format!("{a}+{ghash_portable}"))
        .chain(ghash_kernels.iter().map(|g| format!("{aes_portable}+{g}")))
        .map(|s| &*Box::leak(s.into_boxed_str()))
        .collect();
    common::check_coverage(name, &pairs);
}
