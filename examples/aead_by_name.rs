//! Picks an AEAD by name at run time, as a TLS or VPN stack does with a negotiated suite or a
//! configuration file, then seals and opens a message with it:
//!
//! ```sh
//! cargo run --example aead_by_name                          # lists the algorithms
//! cargo run --example aead_by_name -- aes-256-gcm "a message"
//! cargo run --example aead_by_name -- xchacha20-poly1305 "a message"
//! ```
//!
//! The code below is the same for every algorithm: the key, nonce and tag lengths come from
//! the `Algorithm` value. The key here is a fixed demonstration key; a real program takes it
//! from a key exchange or a key file, and never uses a nonce twice with one key.

use std::error::Error;
use std::process::ExitCode;

use simdcrypt::aead::{Algorithm, Key};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Seals `message` under `alg`, opens it again, and shows that a changed byte is refused.
fn demo(alg: &'static Algorithm, message: &str) -> Result<(), Box<dyn Error>> {
    // Demonstration key and nonce of the lengths this algorithm takes.
    let key_bytes: Vec<u8> = (0..alg.key_len()).map(|i| i as u8).collect();
    let nonce = vec![0x24; alg.nonce_len()];
    let aad = b"record header"; // authenticated, not encrypted
    let key = Key::new(alg, &key_bytes)?;

    // Seal in place: the buffer grows by the tag.
    let mut in_out = message.as_bytes().to_vec();
    key.seal_in_place_append_tag(&nonce, aad, &mut in_out)?;
    let (ct, tag) = in_out.split_at(message.len());
    println!("{}: ciphertext {} tag {}", alg.name(), hex(ct), hex(tag));

    // Open in place: the plaintext is a sub-slice of the buffer, without the tag.
    let mut received = in_out.clone();
    let plaintext = key.open_in_place(&nonce, aad, &mut received)?;
    println!("opened: {:?}", String::from_utf8_lossy(plaintext));

    // Any change to the ciphertext, the tag, the nonce or the header is refused.
    let mut forged = in_out;
    forged[0] ^= 1;
    match key.open_in_place(&nonce, aad, &mut forged) {
        Err(e) => println!("a changed byte is refused: {e}"),
        Ok(_) => return Err("a forged message was accepted".into()),
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let Some(alg) = args.first().and_then(|name| Algorithm::from_name(name)) else {
        eprintln!("usage: aead_by_name ALGORITHM [MESSAGE]; the algorithms:");
        for alg in Algorithm::all() {
            eprintln!(
                "  {:<20} key {} bytes, nonce {}, tag {}",
                alg.name(),
                alg.key_len(),
                alg.nonce_len(),
                alg.tag_len()
            );
        }
        return ExitCode::from(2);
    };
    let message = args.get(1).map_or("hello, world", String::as_str);
    match demo(alg, message) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("aead_by_name: {e}");
            ExitCode::FAILURE
        }
    }
}
