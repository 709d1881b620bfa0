//! Replays the committed seed corpus (`corpus/<target>/*`) through each target's checks
//! without libFuzzer: `cargo test --release` here is a quick differential run, and a crash
//! file saved into a corpus directory becomes a regression test.

use std::fs;
use std::path::Path;

fn replay(target: &str, run: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(target);
    let mut n = 0;
    for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let data = fs::read(&path).unwrap();
        run(&data);
        n += 1;
    }
    assert!(n > 0, "{}: empty corpus", dir.display());
    println!("{target}: {n} inputs");
}

#[test]
fn sha() {
    replay("sha", simdcrypt_fuzz::sha::run);
}

#[test]
fn hmac_hkdf() {
    replay("hmac_hkdf", simdcrypt_fuzz::hmac_hkdf::run);
}

#[test]
fn aes() {
    replay("aes", simdcrypt_fuzz::aes::run);
}

#[test]
fn aes_gcm() {
    replay("aes_gcm", simdcrypt_fuzz::aes_gcm::run);
}

#[test]
fn chacha20() {
    replay("chacha20", simdcrypt_fuzz::chacha20::run);
}

#[test]
fn chacha20poly1305() {
    replay("chacha20poly1305", simdcrypt_fuzz::chacha20poly1305::run);
}
