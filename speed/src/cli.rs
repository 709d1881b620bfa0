//! Command-line parsing, by hand: OpenSSL's single-dash flags (`-evp sha256 -seconds 3`) and
//! the GNU long forms (`--seconds 3`, `--seconds=3`) alike.

use std::path::PathBuf;

/// What the user asked for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Measure and print the table.
    Speed(Options),
    /// `simdcrypt-speed cpu`: the CPU report.
    Cpu {
        /// Measurement time per kernel for the slow-down figures.
        seconds: Option<f64>,
    },
    /// `-h`, `--help`.
    Help,
    /// `--list`: the algorithm names.
    List,
}

/// Options of a measurement run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Options {
    /// Algorithms to measure, as OpenSSL spells them; empty means all.
    pub algorithms: Vec<String>,
    /// Seconds per implementation per cell (`-seconds`); `None`: fit the run in about a minute.
    pub seconds: Option<f64>,
    /// A single message size (`-bytes`) instead of the six standard ones.
    pub bytes: Option<usize>,
    /// Threads (`-multi`), at least 1.
    pub multi: usize,
    /// Wall-clock divisor (`-elapsed`).
    pub elapsed: bool,
    /// Measure the peers too (`--compare`).
    pub compare: bool,
    /// Cycles per byte (`--cycles`).
    pub cycles: bool,
    /// Write every figure as JSON (`--json FILE`).
    pub json: Option<PathBuf>,
    /// Draw throughput against size (`--plot FILE.svg`).
    pub plot: Option<PathBuf>,
    /// Force this simdcrypt kernel (`--backend NAME`).
    pub backend: Option<String>,
    /// Time decryption instead of encryption (`-decrypt`): AEADs open (tag checked), CBC,
    /// ECB and IGE decrypt.
    pub decrypt: bool,
    /// `-aead`: measure the AEADs the TLS-like way (what every AEAD row does); selects them
    /// all when no algorithm is named, and refuses other algorithms, as OpenSSL does.
    pub aead: bool,
    /// Machine-readable output (`-mr`): OpenSSL's `+H:` and `+F:` lines on stdout, `+DT:`
    /// and `+R:` on stderr.
    pub mr: bool,
    /// Offset of the message buffers from a 64-byte boundary (`-misalign N`, 0 to 64).
    pub misalign: usize,
}

/// The largest `-misalign` (OpenSSL 3.0's limit too).
pub const MAX_MISALIGN: usize = 64;

/// A usage error: printed with the valid choices, exit status 2.
#[derive(Debug, Clone, PartialEq)]
pub struct UsageError(pub String);

/// The flags and what they do, for `--help` and errors.
pub const OPTIONS: &[(&str, &str)] = &[
    (
        "-evp ALG",
        "measure ALG (repeatable; bare names work too: `sha256 sha512`)",
    ),
    (
        "-hmac DIGEST",
        "measure hmac-DIGEST (as `openssl speed -hmac`)",
    ),
    (
        "-seconds N",
        "seconds per implementation and message size (default: fit ~1 minute)",
    ),
    (
        "-bytes N",
        "one message size of N bytes instead of 16, 64, 256, 1024, 8192, 16384",
    ),
    ("-multi N", "run N threads at once and sum their throughput"),
    (
        "-elapsed",
        "divide by wall-clock time instead of the thread's CPU time",
    ),
    (
        "-compare",
        "also measure ring, aws-lc-rs, RustCrypto and the system `openssl speed`",
    ),
    (
        "-cycles",
        "also print cycles per byte (TSC on x86_64, generic timer on aarch64; an estimate)",
    ),
    (
        "-decrypt",
        "time decryption: AEADs open and check the tag; CBC, ECB and IGE decrypt",
    ),
    (
        "-aead",
        "AEADs only, TLS-like (new nonce, 13-byte AAD, tag; every AEAD row does this)",
    ),
    (
        "-mr",
        "machine-readable output as `openssl speed -mr` (+H:, +F: on stdout; +DT:, +R: on stderr)",
    ),
    (
        "-misalign N",
        "place the buffers N bytes (0 to 64) past a 64-byte boundary",
    ),
    (
        "-json FILE",
        "write every figure to FILE as JSON (`-json -`: to stdout instead of the table)",
    ),
    (
        "-plot FILE",
        "draw throughput against message size to FILE (SVG)",
    ),
    (
        "-backend NAME",
        "force the simdcrypt kernel NAME (e.g. soft, sha-ni); error if the CPU lacks it",
    ),
    ("-list", "list the algorithm names"),
    ("-h, -help", "this help"),
];

/// The help text.
pub fn usage(algorithms: &[&str]) -> String {
    let mut s = String::from(
        "Usage: simdcrypt-speed [options] [algorithm...]\n       simdcrypt-speed cpu\n\n\
         Measures simdcrypt on this CPU like `openssl speed` (`cargo speed` runs it).\n\
         Every option also has a GNU form: --seconds 3, --seconds=3.\n\nOptions:\n",
    );
    for (flag, what) in OPTIONS {
        s.push_str(&format!("  {flag:<15} {what}\n"));
    }
    s.push_str(
        "\nSubcommands:\n  cpu             CPU model, features, kernel per primitive, warnings\n",
    );
    s.push_str(&format!("\nAlgorithms:\n  {}\n", algorithms.join(" ")));
    s
}

fn valid_options() -> String {
    OPTIONS
        .iter()
        .map(|(f, _)| *f)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parses `args` (without the program name). `algorithms` are the valid names.
pub fn parse(args: &[String], algorithms: &[&str]) -> Result<Command, UsageError> {
    if args.first().map(String::as_str) == Some("cpu") {
        let mut seconds = None;
        let mut it = args[1..].iter();
        while let Some(a) = it.next() {
            let (flag, inline) = split_flag(a);
            match flag.as_deref() {
                Some("h" | "help") => return Ok(Command::Help),
                Some("seconds") => {
                    seconds = Some(positive_f64("seconds", value(inline, &mut it, "seconds")?)?)
                }
                _ => {
                    return Err(UsageError(format!(
                        "`cpu` takes no argument '{a}' (valid: -seconds N, -h)"
                    )));
                }
            }
        }
        return Ok(Command::Cpu { seconds });
    }
    let mut o = Options {
        multi: 1,
        ..Options::default()
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (flag, inline) = split_flag(a);
        let Some(flag) = flag else {
            o.algorithms.push(algorithm(a, algorithms)?);
            continue;
        };
        let no_value = |o: &mut Options, set: fn(&mut Options)| {
            if inline.is_some() {
                Err(UsageError(format!("option -{flag} takes no value")))
            } else {
                set(o);
                Ok(())
            }
        };
        match flag.as_str() {
            "h" | "help" => return Ok(Command::Help),
            "list" => return Ok(Command::List),
            "evp" => {
                let v = value(inline, &mut it, "evp")?;
                o.algorithms.push(algorithm(&v, algorithms)?);
            }
            "hmac" => {
                let v = value(inline, &mut it, "hmac")?;
                o.algorithms
                    .push(algorithm(&format!("hmac-{v}"), algorithms)?);
            }
            "seconds" => {
                o.seconds = Some(positive_f64("seconds", value(inline, &mut it, "seconds")?)?)
            }
            "bytes" => {
                let v = value(inline, &mut it, "bytes")?;
                match v.parse::<usize>() {
                    Ok(n) if (1..=1 << 26).contains(&n) => o.bytes = Some(n),
                    _ => {
                        return Err(UsageError(format!(
                            "-bytes needs a whole number from 1 to {}, not '{v}'",
                            1 << 26
                        )));
                    }
                }
            }
            "multi" => {
                let v = value(inline, &mut it, "multi")?;
                match v.parse::<usize>() {
                    Ok(n) if (1..=1024).contains(&n) => o.multi = n,
                    _ => {
                        return Err(UsageError(format!(
                            "-multi needs a thread count from 1 to 1024, not '{v}'"
                        )));
                    }
                }
            }
            "elapsed" => no_value(&mut o, |o| o.elapsed = true)?,
            "compare" => no_value(&mut o, |o| o.compare = true)?,
            "cycles" => no_value(&mut o, |o| o.cycles = true)?,
            "decrypt" => no_value(&mut o, |o| o.decrypt = true)?,
            "aead" => no_value(&mut o, |o| o.aead = true)?,
            "mr" => no_value(&mut o, |o| o.mr = true)?,
            "misalign" => {
                let v = value(inline, &mut it, "misalign")?;
                match v.parse::<usize>() {
                    Ok(n) if n <= MAX_MISALIGN => o.misalign = n,
                    _ => {
                        return Err(UsageError(format!(
                            "-misalign needs a whole number of bytes from 0 to {MAX_MISALIGN}, \
                             not '{v}'"
                        )));
                    }
                }
            }
            "json" => o.json = Some(PathBuf::from(value(inline, &mut it, "json")?)),
            "plot" => o.plot = Some(PathBuf::from(value(inline, &mut it, "plot")?)),
            "backend" => o.backend = Some(value(inline, &mut it, "backend")?),
            _ => {
                return Err(UsageError(format!(
                    "unknown option '{a}'\nvalid options: {}",
                    valid_options()
                )));
            }
        }
    }
    // Keep the table order and drop repeats.
    let mut seen = Vec::new();
    for a in o.algorithms.drain(..) {
        if !seen.contains(&a) {
            seen.push(a);
        }
    }
    o.algorithms = seen;
    if o.decrypt {
        if let Some(bad) = o
            .algorithms
            .iter()
            .find(|a| SEAL_ONLY.contains(&a.as_str()))
        {
            return Err(UsageError(format!(
                "-decrypt: {bad} is measured sealing only (no -decrypt row)"
            )));
        }
    }
    if o.aead {
        let aeads: Vec<&str> = algorithms.iter().copied().filter(|a| is_aead(a)).collect();
        if o.algorithms.is_empty() {
            o.algorithms = aeads.iter().map(|a| a.to_string()).collect();
        } else if let Some(bad) = o.algorithms.iter().find(|a| !is_aead(a)) {
            return Err(UsageError(format!(
                "-aead can be used only with an AEAD cipher, not {bad}\nAEAD ciphers: {}",
                aeads.join(" ")
            )));
        }
    }
    Ok(Command::Speed(o))
}

/// `-x`, `--x` and `--x=v` → (`x`, inline value); anything else is not a flag. A lone `-` is
/// not a flag either.
fn split_flag(a: &str) -> (Option<String>, Option<String>) {
    let body = if let Some(b) = a.strip_prefix("--") {
        b
    } else if let Some(b) = a.strip_prefix('-') {
        b
    } else {
        return (None, None);
    };
    if body.is_empty() {
        return (None, None);
    }
    match body.split_once('=') {
        Some((f, v)) => (Some(f.to_string()), Some(v.to_string())),
        None => (Some(body.to_string()), None),
    }
}

fn value<'a>(
    inline: Option<String>,
    it: &mut impl Iterator<Item = &'a String>,
    flag: &str,
) -> Result<String, UsageError> {
    match inline {
        Some(v) => Ok(v),
        None => it
            .next()
            .cloned()
            .ok_or_else(|| UsageError(format!("option -{flag} needs a value"))),
    }
}

fn positive_f64(flag: &str, v: String) -> Result<f64, UsageError> {
    match v.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 3600.0 => Ok(x),
        _ => Err(UsageError(format!(
            "-{flag} needs a number of seconds above 0 and at most 3600, not '{v}'"
        ))),
    }
}

/// Rows that `-decrypt` does not have (they measure sealing only).
pub const SEAL_ONLY: [&str; 1] = ["chacha20-poly1305@openssh.com"];

/// Whether `name` is an AEAD row (what `-aead` accepts).
pub fn is_aead(name: &str) -> bool {
    !name.starts_with("tls13-") && (name.ends_with("-gcm") || name.ends_with("-poly1305"))
}

fn algorithm(name: &str, algorithms: &[&str]) -> Result<String, UsageError> {
    let lower = name.to_ascii_lowercase();
    if algorithms.contains(&lower.as_str()) {
        Ok(lower)
    } else {
        Err(UsageError(format!(
            "unknown algorithm '{name}'\nvalid algorithms: {}",
            algorithms.join(" ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALGS: &[&str] = &["sha256", "sha512", "hmac-sha256", "aes-128-gcm"];

    fn p(args: &[&str]) -> Result<Command, UsageError> {
        let v: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        parse(&v, ALGS)
    }

    fn opts(args: &[&str]) -> Options {
        match p(args) {
            Ok(Command::Speed(o)) => o,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    #[test]
    fn openssl_and_gnu_forms_agree() {
        let a = opts(&[
            "-evp", "sha256", "-seconds", "2", "-bytes", "64", "-multi", "2",
        ]);
        let b = opts(&[
            "--evp",
            "sha256",
            "--seconds",
            "2",
            "--bytes=64",
            "--multi=2",
        ]);
        assert_eq!(a, b);
        assert_eq!(a.algorithms, vec!["sha256"]);
        assert_eq!(a.seconds, Some(2.0));
        assert_eq!(a.bytes, Some(64));
        assert_eq!(a.multi, 2);
    }

    #[test]
    fn flags_and_positional_names() {
        let o = opts(&[
            "SHA512",
            "-hmac",
            "sha256",
            "-elapsed",
            "--compare",
            "-cycles",
            "-json",
            "x.json",
            "--plot=p.svg",
            "-backend",
            "soft",
            "sha512",
        ]);
        assert_eq!(o.algorithms, vec!["sha512", "hmac-sha256"]);
        assert!(o.elapsed && o.compare && o.cycles);
        assert_eq!(o.json, Some(PathBuf::from("x.json")));
        assert_eq!(o.plot, Some(PathBuf::from("p.svg")));
        assert_eq!(o.backend.as_deref(), Some("soft"));
        assert_eq!(opts(&[]).multi, 1);
    }

    #[test]
    fn errors_name_the_valid_choices() {
        let e = p(&["-frobnicate"]).unwrap_err().0;
        assert!(e.contains("-frobnicate") && e.contains("-seconds N"), "{e}");
        let e = p(&["-evp", "rot13"]).unwrap_err().0;
        assert!(e.contains("rot13") && e.contains("aes-128-gcm"), "{e}");
        for bad in [
            &["-seconds"][..],
            &["-seconds", "0"],
            &["-seconds", "x"],
            &["-bytes", "0"],
            &["-multi", "-1"],
            &["--compare=yes"],
            &["cpu", "--compare"],
        ] {
            assert!(p(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn openssl_speed_options() {
        let o = opts(&["-decrypt", "-mr", "-misalign", "3", "aes-128-gcm"]);
        assert!(o.decrypt && o.mr && !o.aead);
        assert_eq!(o.misalign, 3);
        assert_eq!(opts(&["--misalign=64"]).misalign, 64);
        assert_eq!(opts(&[]).misalign, 0);
        // -aead alone selects every AEAD; with a name it keeps that one.
        let o = opts(&["-aead"]);
        assert!(o.aead);
        assert_eq!(o.algorithms, vec!["aes-128-gcm"]);
        assert_eq!(
            opts(&["-aead", "-evp", "aes-128-gcm"]).algorithms,
            ["aes-128-gcm"]
        );
        let e = p(&["-aead", "-evp", "sha256"]).unwrap_err().0;
        assert!(
            e.contains("only with an AEAD") && e.contains("aes-128-gcm"),
            "{e}"
        );
        for bad in [
            &["-misalign", "65"][..],
            &["-misalign", "-1"],
            &["-misalign"],
            &["-mr=1"],
            &["-decrypt=yes"],
        ] {
            assert!(p(bad).is_err(), "{bad:?}");
        }
        assert!(is_aead("chacha20-poly1305") && !is_aead("poly1305") && !is_aead("sha256"));
        assert!(!is_aead("tls13-aes-128-gcm") && !is_aead("tls13-chacha20-poly1305"));
    }

    #[test]
    fn subcommands_and_help() {
        assert_eq!(p(&["cpu"]), Ok(Command::Cpu { seconds: None }));
        assert_eq!(
            p(&["cpu", "-seconds", "0.5"]),
            Ok(Command::Cpu { seconds: Some(0.5) })
        );
        assert_eq!(p(&["-h"]), Ok(Command::Help));
        assert_eq!(p(&["--help"]), Ok(Command::Help));
        assert_eq!(p(&["-list"]), Ok(Command::List));
        assert!(usage(ALGS).contains("hmac-sha256"));
    }
}
