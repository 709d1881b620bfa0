//! Encrypts and decrypts files of any size with AES-256-GCM, chunk by chunk:
//!
//! ```sh
//! cargo run --example encrypt_file -- keygen secret.key          # 32 random bytes
//! cargo run --example encrypt_file -- encrypt secret.key notes.txt notes.enc
//! cargo run --example encrypt_file -- decrypt secret.key notes.enc notes.txt
//! ```
//!
//! The random key and nonce come from `/dev/urandom` (simdcrypt has no random number
//! generator), so `keygen` and `encrypt` are Unix-only as written; elsewhere, fill the key
//! file and the base nonce from the operating system's generator (e.g. the `getrandom` crate).
//!
//! # File format
//!
//! ```text
//! header:  "simdcrypt-aes256gcm-stream-v1\n" (30 bytes) ‖ base nonce (12 random bytes)
//! chunks:  ciphertext ‖ 16-byte tag, each of 64 KiB of plaintext except the last one,
//!          which holds 0 to 64 KiB (an empty file is one empty last chunk)
//! ```
//!
//! Chunk `i` (from 0) is sealed under the nonce `base XOR i` (the counter as a 64-bit
//! big-endian number XORed into the last 8 bytes), with the additional data
//! `header ‖ last`, where `last` is one byte: 1 for the final chunk, 0 for the others. This is
//! the STREAM construction of Hoang, Reyhanitabar, Rogaway and Vizár ("Online
//! Authenticated-Encryption and its Nonce-Reuse Misuse-Resistance", CRYPTO 2015), except that
//! STREAM puts the counter and the flag in the nonce; here the counter is XORed into a random
//! nonce and the flag goes into the additional data. It means:
//! - a chunk moved to another position fails (its nonce changes), as does any changed byte;
//! - a file cut after a whole chunk fails (that chunk was not sealed as the last one);
//! - the header is authenticated by every chunk.
//!
//! Decryption writes to a temporary file beside the output and renames it only after the
//! last chunk verified: a bad file leaves no plaintext behind. A base nonce is never reused
//! because it is random (96 bits) for every encryption; still, rotate the key after about
//! 2^32 files.

use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use simdcrypt::aead::Aes256Gcm;

const MAGIC: &[u8; 30] = b"simdcrypt-aes256gcm-stream-v1\n";
const HEADER_LEN: usize = MAGIC.len() + 12;
const CHUNK: usize = 64 * 1024;
const TAG: usize = 16;

/// Everything that can go wrong, as the message the user sees.
type Result<T> = std::result::Result<T, String>;

/// Reads until `buf` is full or the input ends; returns how many bytes were read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// `n` random bytes from the operating system (Unix).
fn random<const N: usize>() -> Result<[u8; N]> {
    let mut out = [0u8; N];
    File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut out))
        .map_err(|e| format!("/dev/urandom: {e} (this example needs a Unix system)"))?;
    Ok(out)
}

/// Reads a 32-byte key file and builds the AES-256-GCM key.
fn load_key(path: &Path) -> Result<Aes256Gcm> {
    let bytes = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let key: [u8; 32] = bytes.as_slice().try_into().map_err(|_| {
        format!(
            "{}: a key file holds exactly 32 bytes, this one {}",
            path.display(),
            bytes.len()
        )
    })?;
    Ok(Aes256Gcm::new(&key))
}

/// The nonce of chunk `counter`: the base with the counter XORed into its last 8 bytes.
fn chunk_nonce(base: &[u8; 12], counter: u64) -> [u8; 12] {
    let mut nonce = *base;
    for (n, c) in nonce[4..].iter_mut().zip(counter.to_be_bytes()) {
        *n ^= c;
    }
    nonce
}

/// The additional data of a chunk: the header and the last-chunk flag.
fn chunk_aad(header: &[u8; HEADER_LEN], last: bool) -> [u8; HEADER_LEN + 1] {
    let mut aad = [0u8; HEADER_LEN + 1];
    aad[..HEADER_LEN].copy_from_slice(header);
    aad[HEADER_LEN] = u8::from(last);
    aad
}

fn encrypt(key: &Aes256Gcm, input: &mut impl Read, output: &mut impl Write) -> Result<()> {
    let base: [u8; 12] = random()?;
    let mut header = [0u8; HEADER_LEN];
    header[..MAGIC.len()].copy_from_slice(MAGIC);
    header[MAGIC.len()..].copy_from_slice(&base);
    output.write_all(&header).map_err(|e| e.to_string())?;

    // One chunk of look-ahead: a chunk is the last one if the input ends after it.
    let mut cur = vec![0u8; CHUNK];
    let mut next = vec![0u8; CHUNK];
    let mut cur_len = read_full(input, &mut cur).map_err(|e| e.to_string())?;
    let mut counter = 0u64;
    loop {
        let next_len = if cur_len == CHUNK {
            read_full(input, &mut next).map_err(|e| e.to_string())?
        } else {
            0
        };
        let last = next_len == 0;
        let text = &mut cur[..cur_len];
        let tag = key
            .seal_in_place_detached(
                &chunk_nonce(&base, counter),
                &chunk_aad(&header, last),
                text,
            )
            .map_err(|e| format!("sealing chunk {counter}: {e}"))?;
        output.write_all(text).map_err(|e| e.to_string())?;
        output.write_all(&tag).map_err(|e| e.to_string())?;
        if last {
            return Ok(());
        }
        std::mem::swap(&mut cur, &mut next);
        cur_len = next_len;
        counter = counter.checked_add(1).ok_or("too many chunks")?;
    }
}

fn decrypt(key: &Aes256Gcm, input: &mut impl Read, output: &mut impl Write) -> Result<()> {
    let mut header = [0u8; HEADER_LEN];
    let n = read_full(input, &mut header).map_err(|e| e.to_string())?;
    if n < HEADER_LEN || &header[..MAGIC.len()] != MAGIC {
        return Err("not a file made by `encrypt_file encrypt` (bad header)".into());
    }
    let mut base = [0u8; 12];
    base.copy_from_slice(&header[MAGIC.len()..]);

    let mut cur = vec![0u8; CHUNK + TAG];
    let mut next = vec![0u8; CHUNK + TAG];
    let mut cur_len = read_full(input, &mut cur).map_err(|e| e.to_string())?;
    let mut counter = 0u64;
    loop {
        if cur_len < TAG {
            return Err("the file is truncated (a chunk is missing or cut short)".into());
        }
        let next_len = if cur_len == CHUNK + TAG {
            read_full(input, &mut next).map_err(|e| e.to_string())?
        } else {
            0
        };
        let last = next_len == 0;
        let (text, tag) = cur[..cur_len].split_at_mut(cur_len - TAG);
        let mut tag_bytes = [0u8; TAG];
        tag_bytes.copy_from_slice(tag);
        let aad = chunk_aad(&header, last);
        key.open_in_place_detached(&chunk_nonce(&base, counter), &aad, text, &tag_bytes)
            .map_err(|_| {
                format!(
                    "chunk {counter} does not authenticate: the file was truncated, reordered \
                     or modified, or the key is wrong"
                )
            })?;
        output.write_all(text).map_err(|e| e.to_string())?;
        if last {
            return Ok(());
        }
        std::mem::swap(&mut cur, &mut next);
        cur_len = next_len;
        counter = counter.checked_add(1).ok_or("too many chunks")?;
    }
}

/// Runs `f` from `input` into a temporary file beside `output`, which becomes `output` only
/// if `f` succeeds; otherwise it is removed.
fn transform(
    input: &Path,
    output: &Path,
    f: impl FnOnce(&mut File, &mut File) -> Result<()>,
) -> Result<()> {
    let mut src = File::open(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let mut tmp_name = output.as_os_str().to_owned();
    tmp_name.push(".partial");
    let tmp = PathBuf::from(tmp_name);
    let mut dst = File::options()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(|e| format!("{}: {e}", tmp.display()))?;
    let result = f(&mut src, &mut dst)
        .and_then(|()| dst.sync_all().map_err(|e| e.to_string()))
        .and_then(|()| fs::rename(&tmp, output).map_err(|e| format!("{}: {e}", output.display())));
    if result.is_err() {
        drop(dst);
        let _ = fs::remove_file(&tmp);
    }
    result
}

fn run(args: &[OsString]) -> Result<()> {
    const USAGE: &str = "usage: encrypt_file keygen KEYFILE\n       \
                         encrypt_file encrypt|decrypt KEYFILE INPUT OUTPUT";
    let cmd = args.first().and_then(|c| c.to_str()).unwrap_or("");
    match (cmd, args.len()) {
        ("keygen", 2) => {
            let path = Path::new(&args[1]);
            let bytes: [u8; 32] = random()?;
            File::options()
                .write(true)
                .create_new(true)
                .open(path)
                .and_then(|mut f| f.write_all(&bytes))
                .map_err(|e| format!("{}: {e}", path.display()))
        }
        ("encrypt" | "decrypt", 4) => {
            let key = load_key(Path::new(&args[1]))?;
            transform(Path::new(&args[2]), Path::new(&args[3]), |src, dst| {
                if cmd == "encrypt" {
                    encrypt(&key, src, dst)
                } else {
                    decrypt(&key, src, dst)
                }
            })
        }
        _ => Err(USAGE.into()),
    }
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("encrypt_file: {e}");
            ExitCode::FAILURE
        }
    }
}
