//! AES-GCM: AES-128 and AES-256 × {seal, open} × every AES-GCM backend this machine has ×
//! message sizes (16 bytes, a 1350-byte packet, 16 KiB).
//!
//! `SIMDCRYPT_BENCH_ALL=1 cargo bench --bench aes_gcm` (add e.g. `-- aes128-gcm-seal/aes-ni+clmul`
//! to filter). Throughput is reported in message bytes. The key is expanded once per backend,
//! outside the measured loop; each iteration seals (or opens) the same buffer in place with 13
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
use simdcrypt::aead::{Aes128Gcm, Aes256Gcm};
use simdcrypt::cpu::Features;
use std::hint::black_box;

mod common;

const SIZES: [usize; 3] = [16, 1350, 16384];
const NONCE: [u8; 12] = [0x5c; 12];
const AAD: [u8; 13] = [0x17; 13];

/// What the benches need of an AES-GCM key type.
trait Key: Sized {
    const NAME: &'static str;
    fn with(f: Features) -> Self;
    fn backends(f: Features) -> Vec<(&'static str, Features)>;
    fn backend(&self) -> &'static str;
    fn seal(&self, buf: &mut [u8]) -> [u8; 16];
    fn open(&self, buf: &mut [u8], tag: &[u8; 16]) -> bool;
}

macro_rules! key {
    ($($t:ident => $name:literal, $len:literal),*) => {$(
        impl Key for $t {
            const NAME: &'static str = $name;
            fn with(f: Features) -> Self {
                $t::new_with(f, &[0x2b; $len])
            }
            fn backends(f: Features) -> Vec<(&'static str, Features)> {
                $t::backends(f).collect()
            }
            fn backend(&self) -> &'static str {
                $t::backend(self)
            }
            fn seal(&self, buf: &mut [u8]) -> [u8; 16] {
                self.seal_in_place_detached(&NONCE, &AAD, buf).unwrap()
            }
            fn open(&self, buf: &mut [u8], tag: &[u8; 16]) -> bool {
                self.open_in_place_detached(&NONCE, &AAD, buf, tag).is_ok()
            }
        }
    )*};
}

key!(Aes128Gcm => "aes128-gcm", 16, Aes256Gcm => "aes256-gcm", 32);

fn bench_key<K: Key>(c: &mut Criterion) {
    let backends = K::backends(Features::detect());
    for op in ["seal", "open"] {
        let mut g = c.benchmark_group(format!("{}-{op}", K::NAME));
        for &(backend, f) in &backends {
            let key = K::with(f);
            assert_eq!(key.backend(), backend);
            for &n in &SIZES {
                g.throughput(Throughput::Bytes(n as u64));
                let id = BenchmarkId::new(backend, n);
                if op == "seal" {
                    let mut buf = vec![0x5au8; n];
                    g.bench_function(id, |b| b.iter(|| key.seal(black_box(&mut buf))));
                } else {
                    // A valid ciphertext and tag, opened from a fresh copy each time (the
                    // copy is a memcpy of `n` bytes, small next to the work).
                    let mut ct = vec![0x5au8; n];
                    let tag = key.seal(&mut ct);
                    let mut buf = ct.clone();
                    g.bench_function(id, |b| {
                        b.iter(|| {
                            buf.copy_from_slice(&ct);
                            assert!(key.open(black_box(&mut buf), &tag));
                        })
                    });
                }
            }
        }
        g.finish();
    }
}

fn all(c: &mut Criterion) {
    if !common::sweep_or_note("aes_gcm") {
        return;
    }
    bench_key::<Aes128Gcm>(c);
    bench_key::<Aes256Gcm>(c);
}

criterion_group!(benches, all);
criterion_main!(benches);
