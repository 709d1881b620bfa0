//! Prints the SHA-256 or SHA-512 of files, in the format of `sha256sum` / `sha512sum`:
//!
//! ```sh
//! cargo run --example hash_file -- sha256 Cargo.toml README.md
//! cargo run --example hash_file -- sha512 - < Cargo.toml     # `-` is standard input
//! ```
//!
//! Files are hashed as they are read, 64 KiB at a time, so their size does not matter. A file
//! that cannot be read is reported on stderr and the others are still hashed; the exit status
//! is then 1 (2 for a usage error).

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::process::ExitCode;

use simdcrypt::sha::{Sha256, Sha512};

/// One of the two hashes, chosen by name at run time.
enum Hasher {
    Sha256(Sha256),
    Sha512(Sha512),
}

impl Hasher {
    fn new(name: &str) -> Option<Hasher> {
        match name {
            "sha256" => Some(Hasher::Sha256(Sha256::new())),
            "sha512" => Some(Hasher::Sha512(Sha512::new())),
            _ => None,
        }
    }

    fn update(&mut self, data: &[u8]) {
        match self {
            Hasher::Sha256(h) => h.update(data),
            Hasher::Sha512(h) => h.update(data),
        }
    }

    /// The digest in lower-case hex.
    fn finalize_hex(self) -> String {
        let digest: Vec<u8> = match self {
            Hasher::Sha256(h) => h.finalize().to_vec(),
            Hasher::Sha512(h) => h.finalize().to_vec(),
        };
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// Hashes everything `reader` yields.
fn hash_reader(mut hasher: Hasher, mut reader: impl Read) -> io::Result<String> {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return Ok(hasher.finalize_hex()),
            Ok(n) => hasher.update(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Hashes the file `path` (standard input for `-`).
fn hash_path(algorithm: &str, path: &OsString) -> io::Result<String> {
    // `algorithm` was checked in `main`, so `Hasher::new` cannot fail here.
    let hasher = Hasher::new(algorithm).ok_or(io::ErrorKind::InvalidInput)?;
    if path == "-" {
        hash_reader(hasher, io::stdin().lock())
    } else {
        hash_reader(hasher, File::open(path)?)
    }
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let algorithm = args.first().and_then(|a| a.to_str()).unwrap_or("");
    if Hasher::new(algorithm).is_none() || args.len() < 2 {
        eprintln!("usage: hash_file sha256|sha512 FILE... ('-' for standard input)");
        return ExitCode::from(2);
    }
    let mut status = ExitCode::SUCCESS;
    for path in &args[1..] {
        let shown = Path::new(path).display();
        match hash_path(algorithm, path) {
            Ok(hex) => println!("{hex}  {shown}"),
            Err(e) => {
                eprintln!("hash_file: {shown}: {e}");
                status = ExitCode::FAILURE;
            }
        }
    }
    status
}
