//! ChaCha20, Poly1305 and ChaCha20-Poly1305: every backend this machine has × message sizes
//! (16 bytes, 64 bytes, a 1350-byte packet, 16 KiB).
//!
//! `SIMDCRYPT_BENCH_ALL=1 cargo bench --bench chacha20_poly1305` (add e.g.
//! `-- chacha20-poly1305-seal/avx2+avx2` to filter). Throughput is reported in message bytes.
//! ChaCha20 makes a new cipher per message (key set-up included, as a stream per message is how it
//! is used); Poly1305 a new one-time key per message; the AEAD seals or opens in place with 13
//! bytes of AAD (a TLS 1.2 record header), as `openssl speed -aead` does. Sealing reuses one nonce:
//! harmless for a benchmark, never acceptable for real data.
//!
//! A sweep, so it runs only when asked: with `SIMDCRYPT_BENCH_ALL=1`, and in criterion's test
//! mode (`-- --test`, `cargo test --benches`: each benchmark once). A plain `cargo bench`
//! skips it and measures the default set instead, simdcrypt's kernel for this CPU beside the
//! peers (`speed/benches/peers.rs`); see `benches/common/mod.rs`.
// criterion's macros generate public functions without docs.
#![allow(missing_docs)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use simdcrypt::aead::ChaCha20Poly1305;
use simdcrypt::chacha20::ChaCha20;
use simdcrypt::cpu::Features;
use simdcrypt::poly1305::Poly1305;
use std::hint::black_box;

mod common;

const SIZES: [usize; 4] = [16, 64, 1350, 16384];
const KEY: [u8; 32] = [0x2b; 32];
const NONCE: [u8; 12] = [0x5c; 12];
const AAD: [u8; 13] = [0x17; 13];

fn chacha20(c: &mut Criterion) {
    let mut g = c.benchmark_group("chacha20");
    for (backend, f) in ChaCha20::backends(Features::detect()) {
        for &n in &SIZES {
            g.throughput(Throughput::Bytes(n as u64));
            let mut buf = vec![0x5au8; n];
            g.bench_function(BenchmarkId::new(backend, n), |b| {
                b.iter(|| {
                    let mut s = ChaCha20::new_with(f, &KEY, &NONCE, 1);
                    s.apply_keystream(black_box(&mut buf)).unwrap();
                })
            });
        }
    }
    g.finish();
}

fn poly1305(c: &mut Criterion) {
    let mut g = c.benchmark_group("poly1305");
    for (backend, f) in Poly1305::backends(Features::detect()) {
        for &n in &SIZES {
            g.throughput(Throughput::Bytes(n as u64));
            let buf = vec![0x5au8; n];
            g.bench_function(BenchmarkId::new(backend, n), |b| {
                b.iter(|| {
                    let mut m = Poly1305::new_with(f, &KEY);
                    m.update(black_box(&buf));
                    m.finalize()
                })
            });
        }
    }
    g.finish();
}

fn aead(c: &mut Criterion) {
    let backends: Vec<_> = ChaCha20Poly1305::backends(Features::detect()).collect();
    for op in ["seal", "open"] {
        let mut g = c.benchmark_group(format!("chacha20-poly1305-{op}"));
        for &(backend, f) in &backends {
            let key = ChaCha20Poly1305::new_with(f, &KEY);
            assert_eq!(key.backend(), backend);
            for &n in &SIZES {
                g.throughput(Throughput::Bytes(n as u64));
                let id = BenchmarkId::new(backend, n);
                if op == "seal" {
                    let mut buf = vec![0x5au8; n];
                    g.bench_function(id, |b| {
                        b.iter(|| key.seal_in_place_detached(&NONCE, &AAD, black_box(&mut buf)))
                    });
                } else {
                    // A valid ciphertext and tag, opened from a fresh copy each time.
                    let mut ct = vec![0x5au8; n];
                    let tag = key.seal_in_place_detached(&NONCE, &AAD, &mut ct).unwrap();
                    let mut buf = ct.clone();
                    g.bench_function(id, |b| {
                        b.iter(|| {
                            buf.copy_from_slice(&ct);
                            assert!(
                                key.open_in_place_detached(&NONCE, &AAD, black_box(&mut buf), &tag)
                                    .is_ok()
                            );
                        })
                    });
                }
            }
        }
        g.finish();
    }
}

fn all(c: &mut Criterion) {
    if !common::sweep_or_note("chacha20_poly1305") {
        return;
    }
    chacha20(c);
    poly1305(c);
    aead(c);
}

criterion_group!(benches, all);
criterion_main!(benches);
