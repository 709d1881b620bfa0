//! The default `cargo bench`: per primitive, simdcrypt's kernel for this CPU beside ring,
//! aws-lc-rs and RustCrypto (where each implements it), at 16, 1024 and 16384 bytes.
//!
//! Bench ids are `ALGORITHM/IMPLEMENTATION/BYTES`, the algorithm spelled as `cargo speed`
//! spells it: `aes-128-gcm/simdcrypt/16384`, `aes-128-gcm/ring/16384`. The set: AES-128-GCM,
//! AES-256-GCM, ChaCha20-Poly1305, XChaCha20-Poly1305, chacha20-poly1305@openssh.com,
//! AES-128 CTR, CBC encryption and decryption, SHA-1, SHA-256, SHA-512, HMAC-SHA-256 and
//! HKDF-SHA-256: 46 implementations × 3 sizes = 138 benchmarks at 1 s of warm-up and 2 s of
//! measurement each (criterion's defaults are 3 s and 5 s), so 7 minutes of timing and about
//! 8 with criterion's analysis (499 s measured on a loaded 2-core x86_64), plus the first build
//! (about 9 minutes there: ring and aws-lc-sys). `cargo bench` at the workspace root runs this
//! and, by default, nothing else (the per-backend sweeps in `benches/*.rs` are behind
//! `SIMDCRYPT_BENCH_ALL`).
//!
//! - `cargo bench -p simdcrypt-speed --bench peers -- sha256` filters (criterion's regex);
//!   `-- --warm-up-time 3 --measurement-time 5` restores criterion's times.
//! - `SIMDCRYPT_BENCH_ALL=1`: every simdcrypt kernel this CPU has (`simdcrypt/KERNEL`, as
//!   `simdcrypt::kernels()` names them) instead of the default one, beside the same peers; at
//!   the workspace root it also runs the sweeps of `benches/*.rs` (about two hours).
//!   `SIMDCRYPT_DISABLE` masks CPU features as everywhere else.
//! - Criterion's test mode (`cargo bench -- --test`) runs every kernel once.
//! - With the system OpenSSL too (needs libssl-dev): `--features openssl`.
//!
//! The implementations are the tool's own (`src/algs.rs`, included below), so an operation
//! means the same thing here as in `cargo speed`: a fresh hash per message, one MAC per message
//! under a key set up once, one HKDF Extract over the message and Expand to 32 bytes, one
//! complete AEAD seal with a new nonce and 13 bytes of associated data (the OpenSSH AEAD: one
//! packet, length field included, under the next sequence number), CTR and CBC streaming under
//! one key.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use simdcrypt::cpu::Features;

// `dead_code`: the tool's helpers the bench does not call; `unused_imports`: its unit-test
// module, compiled but empty when clippy checks this target with cfg(test).
#[allow(dead_code, unused_imports)]
#[path = "../src/algs.rs"]
mod algs;
// What algs.rs refers to: the TLS rows, and `cli::is_aead` in its tests.
#[allow(dead_code, unused_imports)]
#[path = "../src/cli.rs"]
mod cli;
#[allow(dead_code, unused_imports)]
#[path = "../src/tls.rs"]
mod tls;

#[path = "../../benches/common/mod.rs"]
mod common;

use algs::{Op, Out};

const SIZES: [usize; 3] = [16, 1024, 16384];

const GROUPS: [&str; 13] = [
    "aes-128-gcm",
    "aes-256-gcm",
    "chacha20-poly1305",
    "xchacha20-poly1305",
    "chacha20-poly1305@openssh.com",
    "aes-128-ctr",
    "aes-128-cbc",
    "aes-128-cbc-decrypt",
    "sha1",
    "sha256",
    "sha512",
    "hmac-sha256",
    "hkdf-sha256",
];

type Make<'a> = Box<dyn Fn() -> Box<dyn Op> + 'a>;

fn all(c: &mut Criterion) {
    let registry = algs::registry();
    let every_kernel = common::sweep();
    let detected = Features::detect();
    for name in GROUPS {
        let alg = registry
            .iter()
            .find(|a| a.name == name)
            .expect("every group is in the registry");
        let mut impls: Vec<(String, Make<'_>)> = Vec::new();
        if let Some(simd) = &alg.simdcrypt {
            let make = &simd.make;
            let kernels = (simd.backends)(detected);
            if every_kernel {
                for (kernel, f) in kernels {
                    impls.push((format!("simdcrypt/{kernel}"), Box::new(move || make(f))));
                }
            } else {
                // The first kernel is the best one: what `new()` would pick on this CPU.
                let kernel = kernels.first().map_or("?", |k| k.0);
                eprintln!("{name}: simdcrypt is {kernel} (SIMDCRYPT_BENCH_ALL=1: every kernel)");
                impls.push(("simdcrypt".to_string(), Box::new(move || make(detected))));
            }
        }
        for p in &alg.peers {
            impls.push((p.name.to_string(), Box::new(|| (p.make)())));
        }
        #[cfg(feature = "openssl")]
        if let Some(make) = ossl::make(name) {
            impls.push(("openssl".to_string(), make));
        }

        let mut g = c.benchmark_group(name);
        for &size in &SIZES {
            // Whole blocks for CBC (16 bytes) and SSH packets (8): the sizes here already are.
            let n = size - size % alg.granule;
            g.throughput(Throughput::Bytes(n as u64));
            for (label, make) in &impls {
                let mut op = make();
                let mut buf = vec![0x5au8; n];
                op.prepare(&mut buf);
                let mut out: Out = [0; 64];
                g.bench_function(BenchmarkId::new(label.as_str(), n), |b| {
                    b.iter(|| op.run(black_box(&mut buf), &mut out))
                });
            }
        }
        g.finish();
    }
}

/// The `openssl` crate (libcrypto through FFI), with the same operations as `src/algs.rs`.
#[cfg(feature = "openssl")]
mod ossl {
    use super::{Make, Op, Out, algs};
    use openssl::cipher::Cipher;
    use openssl::cipher_ctx::CipherCtx;
    use openssl::hash::{MessageDigest, hash};

    struct Digest(MessageDigest);
    impl Op for Digest {
        fn run(&mut self, buf: &mut [u8], out: &mut Out) -> usize {
            algs::put(out, &hash(self.0, buf).expect("digest"))
        }
    }

    /// One context keyed once; every seal sets a new nonce (EVP's "same key, new IV" path).
    struct Aead {
        ctx: CipherCtx,
        ct: Vec<u8>,
        n: u64,
    }
    impl Op for Aead {
        fn run(&mut self, buf: &mut [u8], out: &mut Out) -> usize {
            self.n += 1;
            let mut nonce = [0u8; 12];
            nonce[4..].copy_from_slice(&self.n.to_be_bytes());
            self.ct.resize(buf.len() + 16, 0);
            let ctx = &mut self.ctx;
            ctx.encrypt_init(None, None, Some(&nonce)).expect("nonce");
            ctx.cipher_update(&algs::AAD, None).expect("aad");
            let k = ctx.cipher_update(buf, Some(&mut self.ct)).expect("update");
            ctx.cipher_final(&mut self.ct[k..]).expect("final");
            buf.copy_from_slice(&self.ct[..buf.len()]);
            ctx.tag(&mut out[..16]).expect("tag");
            16
        }
    }

    /// CTR and CBC: keyed once, streaming like `openssl speed -evp`.
    struct Stream {
        ctx: CipherCtx,
        ct: Vec<u8>,
    }
    impl Op for Stream {
        fn run(&mut self, buf: &mut [u8], _out: &mut Out) -> usize {
            self.ct.resize(buf.len() + 16, 0);
            let k = self
                .ctx
                .cipher_update(buf, Some(&mut self.ct))
                .expect("update");
            buf[..k].copy_from_slice(&self.ct[..k]);
            0
        }
    }

    fn keyed(cipher: &openssl::cipher::CipherRef, iv: Option<&[u8]>) -> CipherCtx {
        let key = [0x42u8; 32];
        let mut ctx = CipherCtx::new().expect("context");
        ctx.encrypt_init(Some(cipher), Some(&key[..cipher.key_length()]), iv)
            .expect("key");
        ctx.set_padding(false);
        ctx
    }

    fn aead(cipher: &'static openssl::cipher::CipherRef) -> Make<'static> {
        Box::new(move || {
            Box::new(Aead {
                ctx: keyed(cipher, None),
                ct: Vec::new(),
                n: 0,
            })
        })
    }

    fn stream(cipher: &'static openssl::cipher::CipherRef) -> Make<'static> {
        Box::new(move || {
            Box::new(Stream {
                ctx: keyed(cipher, Some(&[0u8; 16])),
                ct: Vec::new(),
            })
        })
    }

    fn digest(md: fn() -> MessageDigest) -> Make<'static> {
        Box::new(move || Box::new(Digest(md())))
    }

    pub fn make(name: &str) -> Option<Make<'static>> {
        Some(match name {
            "aes-128-gcm" => aead(Cipher::aes_128_gcm()),
            "aes-256-gcm" => aead(Cipher::aes_256_gcm()),
            "chacha20-poly1305" => aead(Cipher::chacha20_poly1305()),
            "aes-128-ctr" => stream(Cipher::aes_128_ctr()),
            "aes-128-cbc" => stream(Cipher::aes_128_cbc()),
            "sha1" => digest(MessageDigest::sha1),
            "sha256" => digest(MessageDigest::sha256),
            "sha512" => digest(MessageDigest::sha512),
            _ => return None,
        })
    }
}

criterion_group! {
    name = benches;
    // Shorter than criterion's 3 s and 5 s so that the default set takes minutes, not half an
    // hour; 10 000 bootstrap resamples instead of 100 000, as the analysis runs on one thread
    // (criterion without rayon) and took about 1.5 s per benchmark on a loaded 2-core machine.
    // The command line (`--warm-up-time`, `--measurement-time`, `--nresamples`) overrides them.
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .nresamples(10_000);
    targets = all
}
criterion_main!(benches);
