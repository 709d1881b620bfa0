//! The loops that run a test on every ChaCha20, Poly1305 and ChaCha20-Poly1305 backend the
//! machine has (house rule 7), and a byte-at-a-time reference of the three AEAD
//! constructions built only from the portable public `ChaCha20` and `Poly1305`.
//!
//! An AEAD backend is a pair of kernels, named `"<chacha20>+<poly1305>"` (e.g.
//! `"avx2+avx2"`, `"soft+soft-64"`). `backends()` walks pairs until every ChaCha20 kernel and
//! every Poly1305 kernel the CPU supports has appeared in one of them; the coverage check
//! ([`super::check_coverage`]) checks each half against [`super::expected_backends`].

use simdcrypt::aead::{ChaCha20Poly1305, OpenSshChaCha20Poly1305, XChaCha20Poly1305};
use simdcrypt::chacha20::ChaCha20;
use simdcrypt::cpu::Features;
use simdcrypt::poly1305::Poly1305;

/// Runs `f(name, features)` once for every ChaCha20 kernel reachable from
/// `Features::detect()` (best first, `"soft"` last), then checks that every kernel the CPU
/// supports ran.
pub fn for_each_chacha20_backend(f: impl FnMut(&'static str, Features)) {
    super::run_on_backends(
        "chacha20",
        ChaCha20::backends(Features::detect()).collect(),
        |g| ChaCha20::new_with(g, &[0; 32], &[0; 12], 0).backend(),
        f,
    );
}

/// [`for_each_chacha20_backend`] for Poly1305 (the portable kernel is `"soft-64"` or
/// `"soft-32"` by pointer width).
pub fn for_each_poly1305_backend(f: impl FnMut(&'static str, Features)) {
    super::run_on_backends(
        "poly1305",
        Poly1305::backends(Features::detect()).collect(),
        |g| Poly1305::new_with(g, &[0; 32]).backend(),
        f,
    );
}

/// Every ChaCha20-Poly1305 kernel pair (the walk of `ChaCha20Poly1305::backends`), then the
/// coverage check of both halves.
pub fn for_each_chacha20_poly1305_backend(f: impl FnMut(&'static str, Features)) {
    super::run_on_backends(
        "chacha20-poly1305",
        ChaCha20Poly1305::backends(Features::detect()).collect(),
        |g| ChaCha20Poly1305::new_with(g, &[0; 32]).backend(),
        f,
    );
}

/// [`for_each_chacha20_poly1305_backend`] for XChaCha20-Poly1305.
pub fn for_each_xchacha20_poly1305_backend(f: impl FnMut(&'static str, Features)) {
    super::run_on_backends(
        "xchacha20-poly1305",
        XChaCha20Poly1305::backends(Features::detect()).collect(),
        |g| XChaCha20Poly1305::new_with(g, &[0; 32]).backend(),
        f,
    );
}

/// [`for_each_chacha20_poly1305_backend`] for chacha20-poly1305@openssh.com.
pub fn for_each_openssh_backend(f: impl FnMut(&'static str, Features)) {
    super::run_on_backends(
        "openssh-chacha20-poly1305",
        OpenSshChaCha20Poly1305::backends(Features::detect()).collect(),
        |g| OpenSshChaCha20Poly1305::new_with(g, &[0; 64]).backend(),
        f,
    );
}

/// The portable ChaCha20 keystream XORed into `data`: IETF layout (`nonce` of 12 bytes,
/// 32-bit `counter`) or the original one (`nonce` of 8 bytes, 64-bit `counter`).
pub fn ref_chacha20(key: &[u8; 32], nonce: &[u8], counter: u64, data: &mut [u8]) {
    let mut c = match nonce.len() {
        12 => ChaCha20::new_with(
            Features::none(),
            key,
            nonce.try_into().unwrap(),
            u32::try_from(counter).unwrap(),
        ),
        8 => ChaCha20::new_legacy_with(Features::none(), key, nonce.try_into().unwrap(), counter),
        n => panic!("nonce of {n} bytes"),
    };
    c.apply_keystream(data).unwrap();
}

/// The portable Poly1305 tag of the concatenation of `parts`.
pub fn ref_poly1305(key: &[u8; 32], parts: &[&[u8]]) -> [u8; 16] {
    let mut m = Poly1305::new_with(Features::none(), key);
    for p in parts {
        m.update(p);
    }
    m.finalize()
}

/// RFC 8439 §2.8 from the portable pieces: (ciphertext, tag).
pub fn ref_chacha20_poly1305(
    key: &[u8; 32],
    nonce: &[u8; 12],
    aad: &[u8],
    pt: &[u8],
) -> (Vec<u8>, [u8; 16]) {
    let mut otk = [0u8; 32];
    ref_chacha20(key, nonce, 0, &mut otk);
    let mut ct = pt.to_vec();
    ref_chacha20(key, nonce, 1, &mut ct);
    let pad = |n: usize| vec![0u8; (16 - n % 16) % 16];
    let mut lens = [0u8; 16];
    lens[..8].copy_from_slice(&(aad.len() as u64).to_le_bytes());
    lens[8..].copy_from_slice(&(ct.len() as u64).to_le_bytes());
    let tag = ref_poly1305(&otk, &[aad, &pad(aad.len()), &ct, &pad(ct.len()), &lens]);
    (ct, tag)
}

/// draft-irtf-cfrg-xchacha-03 §2.3 from the portable pieces: (ciphertext, tag).
pub fn ref_xchacha20_poly1305(
    key: &[u8; 32],
    nonce: &[u8; 24],
    aad: &[u8],
    pt: &[u8],
) -> (Vec<u8>, [u8; 16]) {
    let subkey = simdcrypt::chacha20::hchacha20(key, nonce[..16].try_into().unwrap());
    let mut n12 = [0u8; 12];
    n12[4..].copy_from_slice(&nonce[16..]);
    ref_chacha20_poly1305(&subkey, &n12, aad, pt)
}

/// OpenSSH's PROTOCOL.chacha20poly1305 from the portable pieces: (encrypted packet, tag).
pub fn ref_openssh(key: &[u8; 64], seq: u64, packet: &[u8]) -> (Vec<u8>, [u8; 16]) {
    let main: &[u8; 32] = key[..32].try_into().unwrap();
    let header: &[u8; 32] = key[32..].try_into().unwrap();
    let nonce = seq.to_be_bytes();
    let mut ct = packet.to_vec();
    ref_chacha20(header, &nonce, 0, &mut ct[..4]);
    let mut otk = [0u8; 32];
    ref_chacha20(main, &nonce, 0, &mut otk);
    ref_chacha20(main, &nonce, 1, &mut ct[4..]);
    let tag = ref_poly1305(&otk, &[&ct]);
    (ct, tag)
}
