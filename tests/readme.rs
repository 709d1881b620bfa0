//! The Rust examples of README.md, compiled and run. Each `#[test]` below holds one ```rust
//! block of the README, line for line; `readme_blocks_are_tested_here` fails if a README
//! block is not found here (after trimming indentation), so the two cannot drift apart.

use simdcrypt::Error;

#[test]
fn hashing_and_hmac() {
    use simdcrypt::hmac::Hmac;
    use simdcrypt::sha::{Sha256, Sha512};

    let digest = Sha256::digest(b"abc"); // one-shot
    let mut h = Sha512::new(); // the kernel is chosen here, once
    h.update(b"streaming ");
    h.update(b"input");
    let d = h.finalize();
    assert_eq!(d.len(), 64);
    assert_eq!(digest[..4], [0xba, 0x78, 0x16, 0xbf]);

    let tag = Hmac::<Sha256>::mac(b"key", b"message");
    let mut m = Hmac::<Sha256>::new(b"key");
    m.update(b"message");
    assert!(m.verify(tag.as_ref()).is_ok()); // constant-time comparison
}

#[test]
fn aes_256_gcm_in_place() -> Result<(), Error> {
    use simdcrypt::aead::Aes256Gcm;

    let key = Aes256Gcm::new(&[0x42; 32]);
    let nonce = [7u8; 12]; // never reuse a nonce with the same key
    let mut buf = *b"attack at dawn";
    let tag = key.seal_in_place_detached(&nonce, b"header", &mut buf)?;
    key.open_in_place_detached(&nonce, b"header", &mut buf, &tag)?;
    assert_eq!(&buf, b"attack at dawn");
    Ok(())
}

#[test]
fn aead_chosen_at_run_time() -> Result<(), Error> {
    use simdcrypt::aead::{Algorithm, Key};

    let alg = Algorithm::from_name("chacha20-poly1305").ok_or(simdcrypt::Error::InvalidLength)?;
    let key = Key::new(alg, &vec![0x42; alg.key_len()])?;
    let nonce = vec![0u8; alg.nonce_len()];
    let mut in_out = b"hello".to_vec();
    key.seal_in_place_append_tag(&nonce, b"", &mut in_out)?;
    assert_eq!(in_out.len(), 5 + alg.tag_len());
    let plaintext = key.open_in_place(&nonce, b"", &mut in_out)?;
    assert_eq!(plaintext, b"hello");
    Ok(())
}

/// The ```rust blocks of `text`, each as its lines with leading and trailing blanks trimmed.
fn rust_blocks(text: &str) -> Vec<Vec<&str>> {
    let mut blocks = Vec::new();
    let mut cur: Option<Vec<&str>> = None;
    for line in text.lines() {
        match (&mut cur, line.trim()) {
            (None, "```rust") => cur = Some(Vec::new()),
            (Some(_), "```") => blocks.push(cur.take().unwrap()),
            (Some(b), l) => b.push(l),
            (None, _) => {}
        }
    }
    assert!(cur.is_none(), "README.md: unterminated ```rust block");
    blocks
}

#[test]
fn readme_blocks_are_tested_here() {
    let readme = include_str!("../README.md");
    let here: Vec<&str> = include_str!("readme.rs").lines().map(str::trim).collect();
    let blocks = rust_blocks(readme);
    assert!(
        blocks.len() >= 3,
        "only {} rust blocks in README.md",
        blocks.len()
    );
    for block in &blocks {
        let found = here.windows(block.len()).any(|w| w == block.as_slice());
        assert!(
            found,
            "README.md block not in tests/readme.rs:\n{}",
            block.join("\n")
        );
    }
}

#[test]
fn the_block_finder_finds_and_rejects() {
    let text = "x\n```rust\n  let a = 1;\nb();\n```\n```sh\nls\n```\n";
    assert_eq!(rust_blocks(text), vec![vec!["let a = 1;", "b();"]]);
    let here: Vec<&str> = include_str!("readme.rs").lines().map(str::trim).collect();
    let absent = ["let a = 1;", "this line is in no test"];
    assert!(!here.windows(2).any(|w| w == absent));
}
