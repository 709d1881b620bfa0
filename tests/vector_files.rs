//! The vector files are verbatim upstream copies: each one's SHA-256 must equal the value
//! `vectors/README.md` records, and every file under `vectors/` must be listed there. The
//! hash is computed with simdcrypt's own portable SHA-256 (`Features::none()`), which
//! `tests/sha_vectors.rs` checks against NIST's vectors.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::hex;
use simdcrypt::cpu::Features;
use simdcrypt::sha::Sha256;

/// `path -> sha256` from the README's table rows: `| `path` | ... | `hex` |`.
fn table() -> BTreeMap<String, String> {
    let readme = common::vectors::path("README.md");
    let text = std::fs::read_to_string(&readme).unwrap_or_else(|e| panic!("{readme}: {e}"));
    let mut rows = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let Some(rest) = line.strip_prefix("| `") else {
            continue;
        };
        let path = rest.split('`').next().unwrap().to_string();
        let cells: Vec<&str> = line.trim_end_matches('|').split('|').collect();
        let last = cells.last().unwrap().trim().trim_matches('`');
        assert!(
            last.len() == 64 && last.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')),
            "vectors/README.md:{}: last cell is not a SHA-256: {last:?}",
            n + 1
        );
        assert!(
            rows.insert(path.clone(), last.to_string()).is_none(),
            "vectors/README.md:{}: {path} listed twice",
            n + 1
        );
    }
    rows
}

fn files(dir: &Path, base: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, base, out);
        } else {
            let rel = p
                .strip_prefix(base)
                .unwrap()
                .to_str()
                .unwrap()
                .replace('\\', "/");
            if rel != "README.md" {
                out.push(rel);
            }
        }
    }
}

#[test]
fn vector_files_match_their_recorded_sha256() {
    let rows = table();
    assert!(
        rows.len() >= 29,
        "only {} rows in vectors/README.md",
        rows.len()
    );
    let base = common::vectors::path("");
    let mut on_disk = Vec::new();
    files(Path::new(&base), Path::new(&base), &mut on_disk);
    for f in &on_disk {
        assert!(
            rows.contains_key(f),
            "vectors/{f} is not listed in vectors/README.md"
        );
    }
    for (file, want) in &rows {
        let p = common::vectors::path(file);
        let data = std::fs::read(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
        let mut h = Sha256::new_with(Features::none());
        h.update(&data);
        assert_eq!(
            &hex(&h.finalize()),
            want,
            "vectors/{file} differs from the upstream copy (vectors/README.md)"
        );
    }
}
