//! simdcrypt beside its peers, under criterion: AES-128/256-GCM, ChaCha20-Poly1305,
//! AES-128-CTR, AES-128-CBC and SHA-1/256/512 at 16, 1350 (a typical packet) and 16384 bytes.
//!
//! `cargo bench -p simdcrypt-speed --bench peers` (add `-- sha256` to filter); with the system
//! OpenSSL too (needs libssl-dev): `--features openssl`.
//!
//! The implementations are the tool's own (`src/algs.rs`, included below), so an operation
//! means the same thing here as in `cargo speed`: a fresh hash per message, one complete AEAD
//! seal with a new nonce and 13 bytes of associated data, CTR and CBC streaming under one key.
//! simdcrypt is benched with every kernel this CPU can run, and only where it implements the
//! primitive.

use std::hint::black_box;

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

use algs::{Op, Out};

const SIZES: [usize; 3] = [16, 1350, 16384];

const GROUPS: [&str; 8] = [
    "aes-128-gcm",
    "aes-256-gcm",
    "chacha20-poly1305",
    "aes-128-ctr",
    "aes-128-cbc",
    "sha1",
    "sha256",
    "sha512",
];

type Make<'a> = Box<dyn Fn() -> Box<dyn Op> + 'a>;

fn all(c: &mut Criterion) {
    let registry = algs::registry();
    for name in GROUPS {
        let alg = registry
            .iter()
            .find(|a| a.name == name)
            .expect("every group is in the registry");
        let mut impls: Vec<(String, Make<'_>)> = Vec::new();
        if let Some(simd) = &alg.simdcrypt {
            let make = &simd.make;
            for (kernel, f) in (simd.backends)(Features::detect()) {
                impls.push((format!("simdcrypt/{kernel}"), Box::new(move || make(f))));
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
            // CBC works on whole blocks: 1350 becomes 1344.
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

criterion_group!(benches, all);
criterion_main!(benches);
