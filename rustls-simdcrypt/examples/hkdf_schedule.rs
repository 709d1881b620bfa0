//! Why the provider has its own `tls13::Hkdf`: the HKDF work of one TLS 1.3 handshake's key
//! schedule, timed with `rustls_simdcrypt::hkdf::HKDF_SHA256` (native: the PRK kept as a keyed
//! HMAC state, label pieces absorbed as they come) and with rustls's generic `HkdfUsingHmac`
//! over the same simdcrypt HMAC. Both must give the same bytes (checked first); the time is
//! the best of 40 batches of 2 000 schedules, in nanoseconds per schedule.
//!
//! ```text
//! cargo run --release -p rustls-simdcrypt --example hkdf_schedule
//! ```
//!
//! Measured on the development machine in rustls-simdcrypt/README.md.
use rustls::crypto::tls13::{Hkdf, HkdfUsingHmac};
use std::hint::black_box;
use std::time::Instant;

/// A TLS 1.3 full handshake's HKDF calls, roughly as rustls's key schedule makes them:
/// 3 extracts (early, handshake, master), 2 derived secrets, 4 traffic secrets, 4 key/iv
/// expansions per direction pair, 2 finished keys, exporter + resumption: 16 expands.
fn schedule(h: &dyn Hkdf, hs: &[u8; 32]) -> u8 {
    let mut acc = 0u8;
    let e = h.extract_from_zero_ikm(None);
    let d = e.expand_block(&[&[0, 32], &[13], b"tls13 derived", &[32], &[0; 32]]);
    let hsx = h.extract_from_secret(Some(d.as_ref()), hs);
    let mut secrets = Vec::new();
    for label in [&b"tls13 c hs traffic"[..], b"tls13 s hs traffic"] {
        secrets.push(hsx.expand_block(&[&[0, 32], &[label.len() as u8], label, &[32], &[7; 32]]));
    }
    let d2 = hsx.expand_block(&[&[0, 32], &[13], b"tls13 derived", &[32], &[0; 32]]);
    let ms = h.extract_from_zero_ikm(Some(d2.as_ref()));
    for label in [
        &b"tls13 c ap traffic"[..],
        b"tls13 s ap traffic",
        b"tls13 exp master",
        b"tls13 res master",
    ] {
        secrets.push(ms.expand_block(&[&[0, 32], &[label.len() as u8], label, &[32], &[9; 32]]));
    }
    for s in &secrets[..4] {
        let x = h.expander_for_okm(s);
        for (label, len) in [
            (&b"tls13 key"[..], 16u16),
            (b"tls13 iv", 12),
            (b"tls13 finished", 32),
        ] {
            let mut out = [0u8; 32];
            x.expand_slice(
                &[&len.to_be_bytes(), &[label.len() as u8], label, &[0]],
                &mut out[..len as usize],
            )
            .unwrap();
            acc ^= out[0];
        }
    }
    acc
}

fn main() {
    let generic = HkdfUsingHmac(&rustls_simdcrypt::hmac::HMAC_SHA256);
    let native = &rustls_simdcrypt::hkdf::HKDF_SHA256;
    let hs = [5u8; 32];
    assert_eq!(schedule(native, &hs), schedule(&generic, &hs));
    let n = 2000;
    let mut best = [f64::MAX; 2];
    for _ in 0..40 {
        for (i, h) in [native as &dyn Hkdf, &generic].into_iter().enumerate() {
            let t = Instant::now();
            for _ in 0..n {
                black_box(schedule(black_box(h), &hs));
            }
            let ns = t.elapsed().as_nanos() as f64 / n as f64;
            if ns < best[i] {
                best[i] = ns;
            }
        }
    }
    println!(
        "TLS 1.3 schedule (3 extracts, 19 expands incl. 12 key/iv/finished), HKDF-SHA-256, best of 40 x {n}:"
    );
    println!(
        "  native (rustls_simdcrypt::hkdf::HKDF_SHA256): {:.0} ns",
        best[0]
    );
    println!(
        "  generic (HkdfUsingHmac over HMAC_SHA256):     {:.0} ns",
        best[1]
    );
    println!("  generic / native = {:.2}", best[1] / best[0]);
}
