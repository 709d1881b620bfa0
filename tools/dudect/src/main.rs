//! dudect-style timing tests for the kernels valgrind cannot run (AVX-512, VAES, GFNI, IFMA,
//! SHA-NI): O. Reparaz, J. Balasch, I. Verbauwhede, "Dude, is my code constant time?",
//! DATE 2017 (<https://eprint.iacr.org/2016/1123>).
//!
//! For each (operation, kernel, secret) it times one call many times with the secret input
//! drawn from one of two classes, chosen at random per call: class 0 a fixed value (all
//! zero), class 1 fresh random bytes. Everything else is fixed. Each call is timed with
//! `lfence; rdtsc` before and `rdtscp; lfence` after. Welch's t statistic compares the two
//! classes' timing distributions: over all measurements, and over the measurements below
//! each of a ladder of percentiles (cropping, as dudect does, cuts off the long upper tail of
//! interrupts and other noise). The report gives the largest |t| of those tests.
//!
//! Reading it: |t| < 4.5 after N measurements means no timing difference between the classes
//! was detected at that N (dudect's threshold); a larger |t| that grows with N is a leak, one
//! that does not grow with N is likely noise of a shared machine. It proves nothing about
//! inputs other than the two classes, and never runs in CI: see `scripts/dudect.md`.
//!
//! Usage: `dudect [MEASUREMENTS] [FILTER]` (default 200000 per test; FILTER keeps the tests
//! whose name contains it).

#[cfg(not(target_arch = "x86_64"))]
compile_error!("the dudect tool reads the x86_64 time-stamp counter");

use core::arch::x86_64::{__rdtscp, _mm_lfence, _rdtsc};

use std::hint::black_box;

use simdcrypt::aead::{Aes128Gcm, ChaCha20Poly1305};
use simdcrypt::aes::{Aes128, Aes256};
use simdcrypt::cpu::Features;
use simdcrypt::hmac::Hmac;
use simdcrypt::poly1305::Poly1305;
use simdcrypt::sha::{Sha1, Sha256, Sha512};

/// xoshiro256** (Blackman and Vigna), seeded from the time-stamp counter: class choices and
/// random inputs, not cryptography.
struct Rng([u64; 4]);

impl Rng {
    fn new() -> Self {
        // SAFETY: rdtsc is on every x86_64 CPU.
        let mut z = unsafe { _rdtsc() } ^ 0x9e37_79b9_7f4a_7c15;
        let mut s = [0u64; 4];
        for w in &mut s {
            // splitmix64
            z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut x = z;
            x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            *w = x ^ (x >> 31);
        }
        Rng(s)
    }

    fn next(&mut self) -> u64 {
        let s = &mut self.0;
        let r = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        r
    }

    fn fill(&mut self, b: &mut [u8]) {
        for c in b.chunks_mut(8) {
            let v = self.next().to_le_bytes();
            c.copy_from_slice(&v[..c.len()]);
        }
    }
}

/// Running mean and sum of squared deviations (Welford), per class.
#[derive(Clone, Copy, Default)]
struct Moments {
    n: f64,
    mean: f64,
    m2: f64,
}

impl Moments {
    fn push(&mut self, x: f64) {
        self.n += 1.0;
        let d = x - self.mean;
        self.mean += d / self.n;
        self.m2 += d * (x - self.mean);
    }
}

/// Welch's t between two classes; 0 while either has fewer than two samples.
fn welch(a: &Moments, b: &Moments) -> f64 {
    if a.n < 2.0 || b.n < 2.0 {
        return 0.0;
    }
    let va = a.m2 / (a.n - 1.0);
    let vb = b.m2 / (b.n - 1.0);
    let se = (va / a.n + vb / b.n).sqrt();
    if se == 0.0 {
        0.0
    } else {
        (a.mean - b.mean) / se
    }
}

/// Number of cropped tests: percentiles 1 - 0.5^(10 (k+1) / CROPS), as in dudect.
const CROPS: usize = 100;

/// The t-tests of one experiment: index 0 uncropped, 1..=CROPS cropped at a percentile.
struct Tests {
    thresholds: Vec<f64>,
    m: Vec<[Moments; 2]>,
}

impl Tests {
    /// Thresholds from a first batch of timings (dudect's `prepare_percentiles`).
    fn new(first: &[u64]) -> Self {
        let mut s = first.to_vec();
        s.sort_unstable();
        let thresholds = (0..CROPS)
            .map(|k| {
                let p = 1.0 - 0.5f64.powf(10.0 * (k as f64 + 1.0) / CROPS as f64);
                s[((s.len() as f64 * p) as usize).min(s.len() - 1)] as f64
            })
            .collect();
        Tests {
            thresholds,
            m: vec![[Moments::default(); 2]; CROPS + 1],
        }
    }

    fn push(&mut self, class: usize, t: u64) {
        let x = t as f64;
        self.m[0][class].push(x);
        for (k, th) in self.thresholds.iter().enumerate() {
            if x < *th {
                self.m[k + 1][class].push(x);
            }
        }
    }

    /// The largest |t| over the tests with enough samples, the test's name, and its count.
    fn max_t(&self) -> (f64, String, f64) {
        let mut best = (0.0, String::from("-"), 0.0);
        for (i, m) in self.m.iter().enumerate() {
            let n = m[0].n + m[1].n;
            // dudect ignores tests with too few measurements.
            if n < 10_000.0 {
                continue;
            }
            let t = welch(&m[0], &m[1]).abs();
            if t > best.0 {
                let name = if i == 0 {
                    "all".to_string()
                } else {
                    format!(
                        "<p{:.1}",
                        100.0 * (1.0 - 0.5f64.powf(10.0 * i as f64 / CROPS as f64))
                    )
                };
                best = (t, name, n);
            }
        }
        best
    }
}

/// Cycles of one call of `op`, serialised on both sides.
#[inline(always)]
fn time(op: impl FnOnce()) -> u64 {
    let mut aux = 0u32;
    // SAFETY: lfence, rdtsc and rdtscp exist on every x86_64 CPU this tool runs on (rdtscp:
    // checked in main); they only read the counter.
    unsafe {
        _mm_lfence();
        let t0 = _rdtsc();
        _mm_lfence();
        op();
        let t1 = __rdtscp(&mut aux);
        _mm_lfence();
        t1.wrapping_sub(t0)
    }
}

/// The operation of an experiment, called with one secret input.
type Op<'a> = Box<dyn FnMut(&[u8]) + 'a>;

/// One experiment: `secret_len` bytes of secret input per call; `op` runs the operation.
struct Experiment<'a> {
    name: String,
    secret_len: usize,
    op: Op<'a>,
}

const BATCH: usize = 10_000;

/// Runs `e` for `n` measurements (after a discarded warm-up batch); returns max |t|, the test
/// that gave it, and the number of measurements in that test.
fn run(e: &mut Experiment, n: usize, rng: &mut Rng) -> (f64, String, f64) {
    let len = e.secret_len;
    let mut inputs = vec![0u8; BATCH * len];
    let mut classes = vec![0usize; BATCH];
    let mut times = vec![0u64; BATCH];
    let mut tests: Option<Tests> = None;
    let batches = n.div_ceil(BATCH) + 1;
    for b in 0..batches {
        // Inputs for the whole batch first, so that drawing them does not sit between timings.
        for (i, c) in classes.iter_mut().enumerate() {
            *c = (rng.next() & 1) as usize;
            let x = &mut inputs[i * len..(i + 1) * len];
            if *c == 0 {
                x.fill(0);
            } else {
                rng.fill(x);
            }
        }
        for i in 0..BATCH {
            let x = &inputs[i * len..(i + 1) * len];
            let op = &mut e.op;
            times[i] = time(|| op(black_box(x)));
        }
        if b == 0 {
            // Warm-up; it sets the percentile thresholds.
            tests = Some(Tests::new(&times));
            continue;
        }
        let t = tests.as_mut().expect("set by the first batch");
        for i in 0..BATCH {
            t.push(classes[i], times[i]);
        }
    }
    tests.expect("at least one batch").max_t()
}

/// A feature set that selects kernel `name` for `name_for`, among `Features::detect()` less
/// each of `masks` in turn (a few hand-picked masks reach every kernel timed here).
fn find(name: &str, name_for: fn(Features) -> &'static str) -> Option<Features> {
    let d = Features::detect();
    [
        "",
        "vaes",
        "vaes,vpclmulqdq",
        "vaes,aes",
        "vaes,aes,gfni",
        "vaes,aes,gfni,avx512bw",
        "vaes,aes,gfni,avx512bw,avx2",
        "avx512vl",
        "avx512ifma",
        "sha",
        "sha,avx512f",
    ]
    .iter()
    .map(|m| d.without(m).expect("known names"))
    .find(|f| name_for(*f) == name)
}

fn experiments<'a>(rng: &mut Rng) -> Vec<Experiment<'a>> {
    let mut v: Vec<Experiment> = Vec::new();
    let mut fixed_key = [0u8; 32];
    rng.fill(&mut fixed_key);
    let mut fixed_msg = [0u8; 512];
    rng.fill(&mut fixed_msg);

    // AES-128 and AES-256 block encryption, every kernel the CPU has: secret plaintext (16
    // blocks, the wide path of the VAES kernels) and secret key (schedule + 1 block).
    for (name, f) in Aes128::backends(Features::detect()) {
        let k = Aes128::new_with(f, fixed_key[..16].try_into().unwrap());
        v.push(Experiment {
            name: format!("AES-128 encrypt 16 blocks [{name}], secret plaintext"),
            secret_len: 256,
            op: Box::new(move |x| {
                let mut b = [[0u8; 16]; 16];
                for (d, s) in b.iter_mut().zip(x.as_chunks::<16>().0) {
                    *d = *s;
                }
                k.encrypt_blocks(&mut b);
                black_box(&b);
            }),
        });
        v.push(Experiment {
            name: format!("AES-128 key schedule + 1 block [{name}], secret key"),
            secret_len: 16,
            op: Box::new(move |x| {
                let k = Aes128::new_with(f, x.try_into().unwrap());
                let mut b = [0u8; 16];
                k.encrypt_block(&mut b);
                black_box(&b);
            }),
        });
    }
    for (name, f) in Aes256::backends(Features::detect()) {
        v.push(Experiment {
            name: format!("AES-256 key schedule + 1 block [{name}], secret key"),
            secret_len: 32,
            op: Box::new(move |x| {
                let k = Aes256::new_with(f, x.try_into().unwrap());
                let mut b = [0u8; 16];
                k.encrypt_block(&mut b);
                black_box(&b);
            }),
        });
    }

    // AES-128-GCM seal of 512 bytes: secret plaintext; secret key.
    for pair in ["vaes-avx512+vpclmul-avx512", "aes-ni+clmul"] {
        let Some(f) = find(pair, Aes128Gcm::backend_for) else {
            continue;
        };
        let g = Aes128Gcm::new_with(f, fixed_key[..16].try_into().unwrap());
        v.push(Experiment {
            name: format!("AES-128-GCM seal 512 B [{pair}], secret plaintext"),
            secret_len: 512,
            op: Box::new(move |x| {
                let mut b = [0u8; 512];
                b.copy_from_slice(x);
                black_box(g.seal_in_place_detached(&[7; 12], b"aad", &mut b).ok());
            }),
        });
        v.push(Experiment {
            name: format!("AES-128-GCM key setup + seal 64 B [{pair}], secret key"),
            secret_len: 16,
            op: Box::new(move |x| {
                let g = Aes128Gcm::new_with(f, x.try_into().unwrap());
                let mut b = [0u8; 64];
                black_box(g.seal_in_place_detached(&[7; 12], b"aad", &mut b).ok());
            }),
        });
    }

    // ChaCha20-Poly1305 seal of 512 bytes on the AVX-512 pairs: secret plaintext; secret key.
    for pair in [
        "avx512+avx512-ifma+stitched",
        "avx512+avx512+stitched",
        "avx512+avx512-ifma",
        "avx512+avx512",
    ] {
        let Some(f) = find(pair, ChaCha20Poly1305::backend_for) else {
            continue;
        };
        let c = ChaCha20Poly1305::new_with(f, &fixed_key);
        v.push(Experiment {
            name: format!("ChaCha20-Poly1305 seal 512 B [{pair}], secret plaintext"),
            secret_len: 512,
            op: Box::new(move |x| {
                let mut b = [0u8; 512];
                b.copy_from_slice(x);
                black_box(c.seal_in_place_detached(&[7; 12], b"aad", &mut b).ok());
            }),
        });
        v.push(Experiment {
            name: format!("ChaCha20-Poly1305 seal 512 B [{pair}], secret key"),
            secret_len: 32,
            op: Box::new(move |x| {
                let c = ChaCha20Poly1305::new_with(f, x.try_into().unwrap());
                let mut b = fixed_msg;
                black_box(c.seal_in_place_detached(&[7; 12], b"aad", &mut b).ok());
            }),
        });
    }

    // Poly1305 over 512 bytes: secret key (r and s); secret message.
    for name in ["avx512-ifma", "avx512"] {
        let Some(f) = find(name, Poly1305::backend_for) else {
            continue;
        };
        v.push(Experiment {
            name: format!("Poly1305 512 B [{name}], secret key"),
            secret_len: 32,
            op: Box::new(move |x| {
                let mut p = Poly1305::new_with(f, x.try_into().unwrap());
                p.update(&fixed_msg);
                black_box(p.finalize());
            }),
        });
        v.push(Experiment {
            name: format!("Poly1305 512 B [{name}], secret message"),
            secret_len: 512,
            op: Box::new(move |x| {
                let mut p = Poly1305::new_with(f, &fixed_key);
                p.update(x);
                black_box(p.finalize());
            }),
        });
    }

    // SHA-NI and the AVX-512 SHA kernels: secret message (256 bytes).
    for name in ["sha-ni", "avx512"] {
        if let Some(f) = find(name, Sha256::backend_for) {
            v.push(Experiment {
                name: format!("SHA-256 256 B [{name}], secret message"),
                secret_len: 256,
                op: Box::new(move |x| {
                    black_box(Sha256::digest_with(f, x));
                }),
            });
        }
    }
    if let Some(f) = find("sha-ni", Sha1::backend_for) {
        v.push(Experiment {
            name: "SHA-1 256 B [sha-ni], secret message".into(),
            secret_len: 256,
            op: Box::new(move |x| {
                black_box(Sha1::digest_with(f, x));
            }),
        });
    }
    if let Some(f) = find("avx512", Sha512::backend_for) {
        v.push(Experiment {
            name: "SHA-512 256 B [avx512], secret message".into(),
            secret_len: 256,
            op: Box::new(move |x| {
                black_box(Sha512::digest_with(f, x));
            }),
        });
    }

    // HMAC-SHA-256 of 64 bytes on the best kernel: secret key.
    let f = Features::detect();
    let name = Sha256::backend_for(f);
    v.push(Experiment {
        name: format!("HMAC-SHA-256 64 B [{name}], secret key"),
        secret_len: 32,
        op: Box::new(move |x| {
            let mut m = Hmac::<Sha256>::new_with(x, f);
            m.update(&fixed_msg[..64]);
            black_box(m.finalize());
        }),
    });

    // The canary: a comparison that stops at the first differing byte, variable time by
    // design. The tool must report it (|t| far above 4.5), or the measurement is broken.
    v.push(Experiment {
        name: "canary: early-exit compare of 64 B with zeros (leaks by design)".into(),
        secret_len: 64,
        op: Box::new(|x| {
            let mut eq = true;
            for b in x {
                if black_box(*b) != 0 {
                    eq = false;
                    break;
                }
            }
            black_box(eq);
        }),
    });
    v
}

fn main() {
    // CPUID leaf 0x8000_0001, EDX bit 27: RDTSCP.
    let ext = core::arch::x86_64::__cpuid(0x8000_0001);
    assert!(ext.edx & (1 << 27) != 0, "this tool needs rdtscp");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let filter = args.get(1).cloned().unwrap_or_default();
    let mut rng = Rng::new();
    println!(
        "dudect: {n} measurements per test, features {}",
        Features::detect()
    );
    println!(
        "{:<70} {:>8} {:>10} {:>9}  verdict",
        "test", "max |t|", "in test", "n"
    );
    for mut e in experiments(&mut rng) {
        if !e.name.contains(&filter) {
            continue;
        }
        let (t, which, count) = run(&mut e, n, &mut rng);
        let verdict = if t < 4.5 {
            "no leak detected"
        } else {
            "DIFFERENCE (rerun; see doc)"
        };
        println!(
            "{:<70} {:>8.2} {:>10} {:>9}  {verdict}",
            e.name, t, which, count as u64
        );
    }
}
