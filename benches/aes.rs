//! AES kernels: AES-128, AES-192 and AES-256 × {CTR, CBC encrypt, CBC decrypt, ECB, IGE
//! encrypt, IGE decrypt} × every backend this machine has × message sizes.
//!
//! `SIMDCRYPT_BENCH_ALL=1 cargo bench --bench aes` (add e.g. `-- aes128-ctr/aes-ni` to filter).
//! Throughput is reported in bytes. The key is expanded once per backend, outside the measured loop
//! (the modes' contexts are cheap: a copy of the IV); each iteration transforms the same buffer in
//! place.
//!
//! A sweep, so it runs only when asked: with `SIMDCRYPT_BENCH_ALL=1`, and in criterion's test
//! mode (`-- --test`, `cargo test --benches`: each benchmark once). A plain `cargo bench`
//! skips it and measures the default set instead, simdcrypt's kernel for this CPU beside the
//! peers (`speed/benches/peers.rs`); see `benches/common/mod.rs`.
// criterion's macros generate public functions without docs.
#![allow(missing_docs)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use simdcrypt::aes::{Aes128, Aes192, Aes256, BlockCipher, Cbc, Ctr, Ige};
use simdcrypt::cpu::Features;
use std::hint::black_box;

mod common;

const SIZES: [usize; 4] = [16, 64, 1024, 16384];

/// What the benches need of a key type beyond [`BlockCipher`].
trait Key: BlockCipher + Sized {
    const NAME: &'static str;
    fn with(f: Features) -> Self;
    fn ecb(&self, blocks: &mut [[u8; 16]]);
}

impl Key for Aes128 {
    const NAME: &'static str = "aes128";
    fn with(f: Features) -> Self {
        Aes128::new_with(f, &[0x2b; 16])
    }
    fn ecb(&self, blocks: &mut [[u8; 16]]) {
        self.encrypt_blocks(blocks)
    }
}

impl Key for Aes192 {
    const NAME: &'static str = "aes192";
    fn with(f: Features) -> Self {
        Aes192::new_with(f, &[0x8e; 24])
    }
    fn ecb(&self, blocks: &mut [[u8; 16]]) {
        self.encrypt_blocks(blocks)
    }
}

impl Key for Aes256 {
    const NAME: &'static str = "aes256";
    fn with(f: Features) -> Self {
        Aes256::new_with(f, &[0x60; 32])
    }
    fn ecb(&self, blocks: &mut [[u8; 16]]) {
        self.encrypt_blocks(blocks)
    }
}

const IV: [u8; 16] = [0xf0; 16];

fn bench_key<K: Key>(c: &mut Criterion, backends: &[(&'static str, Features)]) {
    for mode in ["ctr", "cbc-enc", "cbc-dec", "ecb", "ige-enc", "ige-dec"] {
        let mut g = c.benchmark_group(format!("{}-{mode}", K::NAME));
        for &(backend, f) in backends {
            for &n in &SIZES {
                let mut buf = vec![0x5au8; n];
                g.throughput(Throughput::Bytes(n as u64));
                let id = BenchmarkId::new(backend, n);
                match mode {
                    "ctr" => {
                        // One context for the run: the counter keeps moving, as in a stream.
                        let mut ctr = Ctr::new(K::with(f), &IV);
                        assert_eq!(ctr.backend(), backend);
                        g.bench_function(id, |b| {
                            b.iter(|| ctr.apply_keystream(black_box(&mut buf)).unwrap())
                        });
                    }
                    "cbc-enc" => {
                        let mut cbc = Cbc::new(K::with(f), &IV);
                        g.bench_function(id, |b| {
                            b.iter(|| cbc.encrypt(black_box(&mut buf)).unwrap())
                        });
                    }
                    "cbc-dec" => {
                        let mut cbc = Cbc::new(K::with(f), &IV);
                        g.bench_function(id, |b| {
                            b.iter(|| cbc.decrypt(black_box(&mut buf)).unwrap())
                        });
                    }
                    "ige-enc" => {
                        let mut ige = Ige::new(K::with(f), &[0xf0; 32]);
                        g.bench_function(id, |b| {
                            b.iter(|| ige.encrypt(black_box(&mut buf)).unwrap())
                        });
                    }
                    "ige-dec" => {
                        let mut ige = Ige::new(K::with(f), &[0xf0; 32]);
                        g.bench_function(id, |b| {
                            b.iter(|| ige.decrypt(black_box(&mut buf)).unwrap())
                        });
                    }
                    _ => {
                        let key = K::with(f);
                        let mut blocks = vec![[0x5au8; 16]; n / 16];
                        g.bench_function(id, |b| b.iter(|| key.ecb(black_box(&mut blocks))));
                    }
                }
            }
        }
        g.finish();
    }
}

fn all(c: &mut Criterion) {
    if !common::sweep_or_note("aes") {
        return;
    }
    let f = Features::detect();
    let backends: Vec<_> = Aes128::backends(f).collect();
    bench_key::<Aes128>(c, &backends);
    let backends: Vec<_> = Aes192::backends(f).collect();
    bench_key::<Aes192>(c, &backends);
    let backends: Vec<_> = Aes256::backends(f).collect();
    bench_key::<Aes256>(c, &backends);
}

criterion_group!(benches, all);
criterion_main!(benches);
