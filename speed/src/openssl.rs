//! The system `openssl speed`, run as a subprocess with `-mr` (machine-readable output).
//!
//! `-mr` prints, per algorithm, `+H:16:64:...` (the sizes) and `+F:<index>:<name>:<v>:<v>...`
//! where each value is bytes per second (the human table divides by 1000). With `-multi`,
//! the children's lines come back prefixed `Got: ` (the sizes only there) and the parent
//! prints the summed `+F` line last, unprefixed.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::algs::OpensslCmd;

/// The `openssl` binary on `PATH`, if any.
pub fn find() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(exe_name()))
        .find(|p| is_executable(p))
}

fn exe_name() -> &'static str {
    if cfg!(windows) {
        "openssl.exe"
    } else {
        "openssl"
    }
}

#[cfg(unix)]
fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(p: &Path) -> bool {
    p.is_file()
}

/// `openssl version`, first line.
pub fn version(bin: &Path) -> Option<String> {
    let out = Command::new(bin).arg("version").output().ok()?;
    let s = String::from_utf8_lossy(&out.stdout);
    s.lines().next().map(|l| l.trim().to_string())
}

/// How `openssl speed` runs, as ours does.
pub struct Run {
    /// `-seconds`.
    pub seconds: u64,
    /// `-multi`.
    pub multi: usize,
    /// `-elapsed`.
    pub elapsed: bool,
    /// `-misalign` (passed on only when not 0).
    pub misalign: usize,
}

/// Runs `openssl speed` for one algorithm at one message size (`-bytes`); returns bytes
/// per second.
pub fn speed(bin: &Path, cmd: OpensslCmd, bytes: usize, run: &Run) -> Result<f64, String> {
    let mut c = Command::new(bin);
    c.arg("speed")
        .arg("-mr")
        .arg("-seconds")
        .arg(run.seconds.to_string());
    c.arg("-bytes").arg(bytes.to_string());
    if run.multi > 1 {
        c.arg("-multi").arg(run.multi.to_string());
    }
    if run.elapsed {
        c.arg("-elapsed");
    }
    if run.misalign > 0 {
        c.arg("-misalign").arg(run.misalign.to_string());
    }
    c.args(cmd.args());
    let out = c
        .output()
        .map_err(|e| format!("could not run {}: {e}", bin.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    match parse_mr(&text).iter().find(|(n, _)| *n == bytes) {
        Some(&(_, rate)) => Ok(rate),
        None => {
            let err = String::from_utf8_lossy(&out.stderr);
            let first = err.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            Err(format!(
                "`openssl speed {} -bytes {bytes}` printed no result ({}{})",
                cmd.args().join(" "),
                out.status,
                if first.is_empty() {
                    String::new()
                } else {
                    format!(": {first}")
                }
            ))
        }
    }
}

/// Reads the last `+H` and `+F` lines of `-mr` output into (size, bytes per second).
pub fn parse_mr(text: &str) -> Vec<(usize, f64)> {
    let mut sizes: Vec<usize> = Vec::new();
    let mut values: Vec<f64> = Vec::new();
    for line in text.lines() {
        let line = line.trim_end();
        let header = line
            .strip_prefix("+H:")
            .or_else(|| line.strip_prefix("Got: +H:"));
        if let Some(h) = header {
            let h = h.split(" from ").next().unwrap_or("");
            sizes = h.split(':').filter_map(|v| v.parse().ok()).collect();
        } else if let Some(f) = line.strip_prefix("+F:") {
            // index:name:values...
            values = f
                .split(':')
                .skip(2)
                .filter_map(|v| v.parse().ok())
                .collect();
        }
    }
    sizes.into_iter().zip(values).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_single_and_multi_output() {
        let one = "+DT:sha256:1:16\n+R:100:sha256:1.0\n+H:16:64\n+F:25:sha256:1600.00:6400.50\n";
        assert_eq!(parse_mr(one), vec![(16, 1600.0), (64, 6400.5)]);
        let multi = "Forked child 0\nGot: +H:16:64 from 0\nGot: +F:25:sha256:10.00:20.00 from 0\n\
                     Got: +H:16:64 from 1\nGot: +F:25:sha256:11.00:22.00 from 1\n\
                     +F:25:sha256:21.00:42.00\n";
        assert_eq!(parse_mr(multi), vec![(16, 21.0), (64, 42.0)]);
        assert!(parse_mr("Error: unknown cipher\n").is_empty());
    }
}
