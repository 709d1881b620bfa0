//! House rule 7: a test run fails if a backend the CPU supports was not exercised.
//!
//! `common::for_each_backend` checks this after every loop; this suite states it once per
//! hash (so a missing kernel shows up under one clear name), prints the matrix, and checks
//! that the check itself fires, and that `kernels()` names only kernels this build can run.

mod common;

use std::collections::BTreeSet;

use common::{Hash, check_coverage, expected_backends, for_each_backend, hex};
use simdcrypt::cpu::Features;

/// Runs each backend of `H` on "abc" against the portable digest and prints what ran.
fn exercised<H: Hash>() {
    let want = {
        let mut h = H::new_with(Features::none());
        h.update(b"abc");
        hex(h.finalize().as_ref())
    };
    let mut ran = Vec::new();
    for_each_backend::<H>(|name, f| {
        let mut h = H::new_with(f);
        h.update(b"abc");
        assert_eq!(hex(h.finalize().as_ref()), want, "{} on {name}", H::NAME);
        ran.push(name);
    });
    println!(
        "{:<11} expected {:?}, ran {:?}",
        H::NAME,
        expected_backends(H::NAME),
        ran
    );
}

#[test]
fn every_supported_backend_is_exercised() {
    println!(
        "hardware {:?}; SIMDCRYPT_DISABLE={:?}",
        Features::hardware(),
        std::env::var("SIMDCRYPT_DISABLE").ok()
    );
    for_each_hash!(exercised);
}

/// The check fails when a backend it expects did not run: with only the portable backend
/// (or, where that is all the CPU offers, with nothing) it must name what is missing.
fn check_fires<H: Hash>() {
    let expected = expected_backends(H::NAME);
    assert_eq!(expected.first(), Some(&"soft"), "{}", H::NAME);
    let (ran, missing): (BTreeSet<&'static str>, &str) = if expected.len() > 1 {
        (["soft"].into(), expected[1])
    } else {
        (BTreeSet::new(), "soft")
    };
    let r = std::panic::catch_unwind(|| check_coverage(H::NAME, &ran));
    let msg = match r {
        Ok(()) => panic!("{}: coverage check passed without {missing}", H::NAME),
        Err(e) => e.downcast_ref::<String>().cloned().unwrap_or_default(),
    };
    assert!(
        msg.contains(&format!("{missing:?}")) && msg.contains("not exercised"),
        "{}: {msg}",
        H::NAME
    );
    // And it passes with everything it expects.
    let all: BTreeSet<&'static str> = expected.iter().copied().collect();
    check_coverage(H::NAME, &all);
}

#[test]
fn the_check_fires_when_a_backend_is_missing() {
    for_each_hash!(check_fires);
}

/// `kernels()` names, per primitive, a kernel this build and CPU really run: each kernel (each
/// half of an AEAD pair) is one that `expected_backends` lists. With the assembly compiled out
/// (non-ELF targets, `none`, `SIMDCRYPT_NO_ASM=1`; build.rs) that excludes every assembly
/// kernel, whatever the CPU supports.
#[test]
fn kernels_name_what_runs() {
    println!("assembly kernels built in: {}", cfg!(simdcrypt_asm));
    for k in simdcrypt::kernels() {
        println!("{:<20} {}", k.primitive, k.backend);
        // kernels() spells AES "aes-128", the test tables "aes128".
        let primitive = k.primitive.replacen("aes-", "aes", 1);
        let expected = expected_backends(&primitive);
        let pair = primitive.ends_with("-gcm") || primitive.ends_with("chacha20-poly1305");
        let halves: Vec<&str> = if pair {
            k.backend.split('+').filter(|h| *h != "stitched").collect()
        } else {
            vec![k.backend]
        };
        for h in halves {
            assert!(
                expected.contains(&h),
                "{}: kernels() says {:?}, but {h:?} is not among the kernels this build and \
                 CPU offer: {expected:?}",
                k.primitive,
                k.backend
            );
        }
    }
}
