//! SHA kernels: every hash × every backend this machine has × message sizes.
//!
//! `SIMDCRYPT_BENCH_ALL=1 cargo bench --bench sha` (add `-- sha256` to filter). Throughput is
//! reported in bytes.
//!
//! A sweep, so it runs only when asked: with `SIMDCRYPT_BENCH_ALL=1`, and in criterion's test
//! mode (`-- --test`, `cargo test --benches`: each benchmark once). A plain `cargo bench`
//! skips it and measures the default set instead, simdcrypt's kernel for this CPU beside the
//! peers (`speed/benches/peers.rs`); see `benches/common/mod.rs`.
// criterion's macros generate public functions without docs.
#![allow(missing_docs)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use simdcrypt::cpu::Features;
use simdcrypt::sha::{Digest, Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};
use std::hint::black_box;

mod common;

const SIZES: [usize; 6] = [16, 64, 256, 1024, 8192, 16384];

fn bench_hash<H: Digest>(c: &mut Criterion, name: &str, backends: Vec<(&'static str, Features)>) {
    let mut g = c.benchmark_group(name);
    let data = vec![0x5au8; *SIZES.last().unwrap()];
    for (backend, f) in backends {
        for &n in &SIZES {
            g.throughput(Throughput::Bytes(n as u64));
            g.bench_with_input(BenchmarkId::new(backend, n), &data[..n], |b, m| {
                b.iter(|| {
                    let mut h = H::new_with(f);
                    h.update(black_box(m));
                    h.finalize()
                })
            });
        }
    }
    g.finish();
}

fn all(c: &mut Criterion) {
    if !common::sweep_or_note("sha") {
        return;
    }
    let f = Features::detect();
    bench_hash::<Sha1>(c, "sha1", Sha1::backends(f).collect());
    bench_hash::<Sha224>(c, "sha224", Sha224::backends(f).collect());
    bench_hash::<Sha256>(c, "sha256", Sha256::backends(f).collect());
    bench_hash::<Sha384>(c, "sha384", Sha384::backends(f).collect());
    bench_hash::<Sha512>(c, "sha512", Sha512::backends(f).collect());
    bench_hash::<Sha512_224>(c, "sha512-224", Sha512_224::backends(f).collect());
    bench_hash::<Sha512_256>(c, "sha512-256", Sha512_256::backends(f).collect());
}

criterion_group!(benches, all);
criterion_main!(benches);
