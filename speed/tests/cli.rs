//! The `simdcrypt-speed` binary end to end, with tiny `-seconds` so the suite stays fast.
//! No assertion is about speed (the machine is shared and noisy): only about what is printed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use simdcrypt::aead::{Aes128Gcm, ChaCha20Poly1305};
use simdcrypt::cpu::Features;
use simdcrypt::sha::{Sha1, Sha256, Sha512};

const BIN: &str = env!("CARGO_BIN_EXE_simdcrypt-speed");

fn run(args: &[&str]) -> Output {
    cmd(args).output().expect("run simdcrypt-speed")
}

fn cmd(args: &[&str]) -> Command {
    let mut c = match runner() {
        Some(r) => {
            let mut c = Command::new(&r[0]);
            c.args(&r[1..]).arg(BIN);
            c
        }
        None => Command::new(BIN),
    };
    c.args(args).env_remove("SIMDCRYPT_DISABLE");
    c
}

/// The cargo runner this test runs under, if any (`CARGO_TARGET_<TRIPLE>_RUNNER` of this
/// architecture, e.g. qemu-user under `cross test` or `scripts/cross-test`): the binary under
/// test is started through it too, as cargo started this test. Without it a cross-built binary
/// would not start where no binfmt handler is registered for the target.
fn runner() -> Option<Vec<String>> {
    let arch = std::env::consts::ARCH.to_ascii_uppercase();
    let (_, value) = std::env::vars().find(|(k, _)| {
        k.strip_prefix("CARGO_TARGET_")
            .and_then(|t| t.strip_suffix("_RUNNER"))
            .is_some_and(|t| t.starts_with(&arch))
    })?;
    let words: Vec<String> = value.split_whitespace().map(String::from).collect();
    (!words.is_empty()).then_some(words)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh directory under the target dir for this test's files.
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("speed-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The names `--list` prints, and which are implemented.
fn algorithms() -> Vec<(String, bool)> {
    let out = run(&["--list"]);
    assert!(out.status.success());
    text(&out.stdout)
        .lines()
        .map(|l| {
            let name = l.split_whitespace().next().unwrap().to_string();
            (name, !l.contains("not implemented"))
        })
        .collect()
}

/// Table rows (after the "type" header) as whitespace-split fields.
fn rows(stdout: &str) -> Vec<Vec<String>> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("type"))
        .skip(1)
        .take_while(|l| !l.is_empty() && !l.starts_with("Note:") && !l.starts_with("Cycles"))
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect()
}

fn is_figure(s: &str) -> bool {
    s.strip_suffix('k')
        .and_then(|v| v.parse::<f64>().ok())
        .is_some_and(|v| v.is_finite() && v > 0.0)
}

#[test]
fn help_lists_options_and_algorithms() {
    for flag in ["-h", "-help", "--help"] {
        let out = run(&[flag]);
        assert_eq!(out.status.code(), Some(0), "{flag}");
        let s = text(&out.stdout);
        for opt in [
            "-evp",
            "-seconds",
            "-bytes",
            "-multi",
            "-elapsed",
            "-compare",
            "-cycles",
            "-json",
            "-plot",
            "-backend",
            "-decrypt",
            "-aead",
            "-mr",
            "-misalign",
        ] {
            assert!(s.contains(opt), "{flag}: {opt} missing from\n{s}");
        }
        assert!(s.contains("sha256") && s.contains("aes-128-gcm") && s.contains("hmac-sha256"));
    }
}

#[test]
fn usage_errors_exit_2_with_the_valid_choices() {
    for args in [
        &["-frobnicate"][..],
        &["--frobnicate"],
        &["--seconds=1", "-x"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let e = text(&out.stderr);
        assert!(e.contains("unknown option"), "{e}");
        assert!(e.contains("-seconds N") && e.contains("-evp ALG"), "{e}");
        assert!(out.stdout.is_empty());
    }
    for args in [&["-evp", "rot13"][..], &["rot13"], &["-hmac", "md4"]] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let e = text(&out.stderr);
        assert!(e.contains("unknown algorithm"), "{e}");
        for (name, _) in algorithms() {
            assert!(e.contains(&name), "{name} not listed in\n{e}");
        }
    }
    for args in [
        &["-seconds"][..],
        &["-seconds", "0"],
        &["-bytes", "many"],
        &["-multi", "0"],
        &["--elapsed=yes"],
        &["cpu", "-compare"],
    ] {
        let out = run(args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn openssl_and_gnu_forms_give_the_same_table() {
    let a = run(&["-evp", "sha256", "-seconds", "0.005", "-bytes", "64"]);
    let b = run(&["--evp=sha256", "--seconds", "0.005", "--bytes=64"]);
    let c = run(&["SHA256", "--seconds=0.005", "-bytes", "64"]);
    for out in [&a, &b, &c] {
        assert!(out.status.success(), "{}", text(&out.stderr));
        let r = rows(&text(&out.stdout));
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0][0], "sha256");
        assert!(is_figure(&r[0][1]), "{r:?}");
        assert_eq!(r[0][2], Sha256::backend_for(Features::hardware()));
    }
    assert!(text(&a.stdout).contains("64 bytes"));
}

/// `-seconds` with a short value still yields a row for every algorithm: six figures and the
/// kernel for what simdcrypt implements, "not implemented" for the rest; stdout holds only
/// the report, progress goes to stderr.
#[test]
fn short_seconds_give_a_full_table() {
    let out = run(&["-seconds", "0.002"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("The 'numbers' are in 1000s of bytes per second processed."));
    let header = stdout.lines().find(|l| l.starts_with("type")).unwrap();
    for n in [16, 64, 256, 1024, 8192, 16384] {
        assert!(header.contains(&format!("{n} bytes")), "{header}");
    }
    let r = rows(&stdout);
    // Handshakes are counted per second, apart from the table.
    let (ops, algs): (Vec<_>, Vec<_>) = algorithms()
        .into_iter()
        .partition(|(n, _)| n.ends_with("-handshake"));
    assert_eq!(ops.len(), 1);
    let hs = stdout
        .lines()
        .skip_while(|l| !l.starts_with("Full TLS 1.3 handshakes per second"))
        .find(|l| l.starts_with("tls13-handshake"))
        .expect("the handshake line");
    let per_second: f64 = hs.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(per_second > 0.0, "{hs}");
    assert_eq!(r.len(), algs.len(), "{stdout}");
    let f = Features::hardware();
    for (row, (name, implemented)) in r.iter().zip(&algs) {
        assert_eq!(&row[0], name);
        if *implemented {
            assert_eq!(row.len(), 8, "{row:?}");
            assert!(row[1..7].iter().all(|v| is_figure(v)), "{row:?}");
            let want = match name.as_str() {
                "sha1" | "hmac-sha1" => Sha1::backend_for(f),
                "sha256" | "hmac-sha256" => Sha256::backend_for(f),
                "sha512" | "hmac-sha512" => Sha512::backend_for(f),
                _ => row[7].as_str(),
            };
            assert_eq!(row[7], want, "{row:?}");
        } else {
            assert_eq!(row[1..].join(" "), "not implemented in simdcrypt yet");
        }
    }
    let stderr = text(&out.stderr);
    assert!(stderr.contains("sha256, 16384 bytes"), "{stderr}");
    assert!(
        !stdout.contains("16384 bytes:"),
        "progress leaked into stdout"
    );
}

fn check_figure(r: &Value, threads: u64) {
    for key in [
        "algorithm",
        "implementation",
        "kernel",
        "cpu_model",
        "features",
        "timing",
    ] {
        assert!(r[key].is_string(), "{key} in {r}");
    }
    assert!(!r["cpu_model"].as_str().unwrap().is_empty());
    assert!(r["size"].is_u64(), "{r}");
    assert!(r["bytes_per_second"].as_f64().unwrap() > 0.0, "{r}");
    assert!(r["seconds"].as_f64().unwrap() > 0.0, "{r}");
    assert_eq!(r["threads"].as_u64(), Some(threads), "{r}");
}

#[test]
fn json_has_every_figure_with_its_context() {
    let dir = scratch("json");
    let path = dir.join("out.json");
    let empty = scratch("json-path");
    let out = cmd(&[
        "-evp",
        "sha256",
        "-evp",
        "chacha20-poly1305",
        "-bytes",
        "256",
        "-seconds",
        "0.005",
        "-multi",
        "2",
        "--compare",
        "--json",
        path.to_str().unwrap(),
    ])
    .env("PATH", &empty)
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(v["tool"], "simdcrypt-speed");
    assert_eq!(v["settings"]["threads"], 2);
    assert_eq!(v["cpu"]["features"], Features::hardware().to_string());
    let results = v["results"].as_array().unwrap();
    let mut seen = Vec::new();
    for r in results {
        check_figure(r, 2);
        assert_eq!(r["size"], 256);
        assert_eq!(r["features"], Features::hardware().to_string());
        seen.push(format!(
            "{} {}",
            r["algorithm"].as_str().unwrap(),
            r["implementation"].as_str().unwrap()
        ));
        if r["implementation"] == "simdcrypt" {
            let want = if r["algorithm"] == "sha256" {
                Sha256::backend_for(Features::hardware())
            } else {
                ChaCha20Poly1305::backend_for(Features::hardware())
            };
            assert_eq!(r["kernel"], want);
            assert!(r["operations"].as_u64().unwrap() > 0);
        }
    }
    for want in [
        "sha256 simdcrypt",
        "sha256 ring",
        "sha256 aws-lc-rs",
        "sha256 rustcrypto",
        "chacha20-poly1305 simdcrypt",
        "chacha20-poly1305 ring",
        "chacha20-poly1305 aws-lc-rs",
        "chacha20-poly1305 rustcrypto",
    ] {
        assert!(seen.iter().any(|s| s == want), "{want} missing: {seen:?}");
    }
    // Every algorithm of the table is implemented now: nothing is listed as missing.
    assert_eq!(v["not_implemented"], serde_json::json!([]));
}

/// Without `openssl` on PATH, `--compare` still measures the compiled-in peers and says
/// plainly that OpenSSL was skipped.
#[test]
fn compare_without_openssl_is_graceful() {
    let empty = scratch("no-openssl");
    let out = cmd(&[
        "--compare",
        "-evp",
        "sha512",
        "-bytes",
        "1024",
        "-seconds",
        "0.005",
    ])
    .env("PATH", &empty)
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("Note: no `openssl` binary on PATH"), "{s}");
    let r = rows(&s);
    let impls: Vec<&str> = r.iter().map(|r| r[1].as_str()).collect();
    assert_eq!(
        impls,
        ["simdcrypt", "ring", "aws-lc-rs", "rustcrypto", "÷best"],
        "{s}"
    );
    assert!(r[..4].iter().all(|row| is_figure(&row[2])), "{s}");
    let ratio = r[4][3].strip_suffix('x').unwrap().parse::<f64>().unwrap();
    assert!(ratio > 0.0);
}

/// `openssl speed -mr` output is read from whatever `openssl` is first on PATH: a stand-in
/// script, which answers each `-bytes N` with N bytes per second times 1000, shows that
/// every figure lands in its row and column, and which arguments the tool passed.
/// A stand-in `openssl` in a fresh directory `name`: logs its arguments to `args.log` there
/// and answers each `-bytes N` with N × 1000 bytes per second. Returns the directory.
#[cfg(unix)]
fn fake_openssl(name: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch(name);
    let log = dir.join("args.log");
    let script = format!(
        "#!/bin/sh\nif [ \"$1\" = version ]; then echo 'OpenSSL 9.9.9 (stand-in)'; exit 0; fi\n\
         echo \"$@\" >> '{}'\nn=$6\necho \"+DT:sha256:1:$n\"\necho '+R:1000:sha256:1.00'\n\
         echo \"+H:$n\"\necho \"+F:25:sha256:$((n * 1000)).00\"\n",
        log.display()
    );
    let bin = dir.join("openssl");
    std::fs::write(&bin, script).unwrap();
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

#[cfg(unix)]
#[test]
fn compare_reads_openssl_machine_readable_output() {
    let dir = fake_openssl("fake-openssl");
    let log = dir.join("args.log");
    let json = dir.join("out.json");
    let out = cmd(&[
        "--compare",
        "-evp",
        "sha256",
        "-seconds",
        "0.002",
        "-json",
        json.to_str().unwrap(),
    ])
    .env("PATH", &dir)
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let r = rows(&s);
    let row = r.iter().find(|r| r[1] == "openssl").expect("openssl row");
    assert_eq!(
        row[2..8],
        [
            "16.00k",
            "64.00k",
            "256.00k",
            "1024.00k",
            "8192.00k",
            "16384.00k"
        ],
        "{s}"
    );
    let args = std::fs::read_to_string(&log).unwrap();
    let want: Vec<String> = [16, 64, 256, 1024, 8192, 16384]
        .iter()
        .map(|n| format!("speed -mr -seconds 1 -bytes {n} -evp sha256"))
        .collect();
    assert_eq!(args.lines().collect::<Vec<_>>(), want);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["settings"]["openssl"], "OpenSSL 9.9.9 (stand-in)");
}

fn polylines_of_series(svg: &str) -> usize {
    // Series are drawn 2 px wide; axes and ticks 1 px.
    svg.matches("<polyline")
        .zip(svg.split("<polyline").skip(1))
        .filter(|(_, rest)| {
            rest.split("/>")
                .next()
                .unwrap()
                .contains("stroke-width=\"2\"")
        })
        .count()
}

#[test]
fn plot_writes_an_svg_with_one_line_per_series() {
    let dir = scratch("plot");
    let path = dir.join("speed.svg");
    let out = run(&[
        "sha1",
        "sha512",
        "-bytes",
        "1024",
        "-seconds",
        "0.005",
        "--plot",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = std::fs::read_to_string(&path).unwrap();
    let head = svg.trim_start();
    assert!(
        head.starts_with("<svg") || head.starts_with("<?xml"),
        "{}",
        &svg[..80]
    );
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(polylines_of_series(&svg), 2, "{svg}");
    // One size: a line through one point is invisible, so every point has a marker.
    assert_eq!(svg.matches("<circle").count(), 2, "{svg}");
    assert!(svg.contains("sha512"));

    let path = dir.join("compare.svg");
    let empty = scratch("plot-path");
    let out = cmd(&[
        "--compare",
        "-evp",
        "sha256",
        "-seconds",
        "0.002",
        "-plot",
        path.to_str().unwrap(),
    ])
    .env("PATH", &empty)
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = std::fs::read_to_string(&path).unwrap();
    // simdcrypt, ring, aws-lc-rs, rustcrypto.
    assert_eq!(polylines_of_series(&svg), 4);
    assert_eq!(
        svg.matches("<circle").count(),
        4 * 6,
        "a marker per size and series"
    );
    for name in ["simdcrypt", "ring", "aws-lc-rs", "rustcrypto"] {
        assert!(svg.contains(&format!("sha256 {name}")), "{name}");
    }
}

fn kernel_lines(report: &str) -> Vec<(String, String)> {
    report
        .lines()
        .skip_while(|l| !l.starts_with("Kernels"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| {
            let mut w = l.split_whitespace();
            (
                w.next().unwrap().to_string(),
                w.collect::<Vec<_>>().join(" "),
            )
        })
        .collect()
}

/// The `cpu` report follows `SIMDCRYPT_DISABLE`: the kernels it names are the ones the
/// library picks with and without the mask, and it says what was removed.
#[test]
fn cpu_report_follows_simdcrypt_disable() {
    let plain = cmd(&["cpu", "-seconds", "0.01"]).output().unwrap();
    let masked = cmd(&["cpu", "-seconds", "0.01"])
        .env("SIMDCRYPT_DISABLE", "sha")
        .output()
        .unwrap();
    assert!(plain.status.success() && masked.status.success());
    let (plain, masked) = (text(&plain.stdout), text(&masked.stdout));
    assert!(plain.contains("SIMDCRYPT_DISABLE is not set"), "{plain}");
    assert!(plain.contains("CPU:") && !plain.contains("CPU:          unknown"));

    let hw = Features::hardware();
    let without = hw.without("sha").unwrap();
    let kp = kernel_lines(&plain);
    let km = kernel_lines(&masked);
    assert_eq!(kp.len(), algorithms().len(), "{plain}");
    for (lines, f) in [(&kp, hw), (&km, without)] {
        for (name, want) in [
            ("sha1", Sha1::backend_for(f)),
            ("sha256", Sha256::backend_for(f)),
            ("sha512", Sha512::backend_for(f)),
            ("hmac-sha256", Sha256::backend_for(f)),
        ] {
            let got = &lines.iter().find(|(n, _)| n == name).unwrap().1;
            assert_eq!(got.split_whitespace().next(), Some(want), "{name}: {got}");
        }
        let gcm = &lines.iter().find(|(n, _)| n == "aes-128-gcm").unwrap().1;
        assert_eq!(
            gcm.split_whitespace().next(),
            Some(Aes128Gcm::backend_for(f)),
            "{gcm}"
        );
        let cc = &lines
            .iter()
            .find(|(n, _)| n == "chacha20-poly1305")
            .unwrap()
            .1;
        assert_eq!(
            cc.split_whitespace().next(),
            Some(ChaCha20Poly1305::backend_for(f)),
            "{cc}"
        );
    }
    if Sha256::backend_for(hw) != Sha256::backend_for(without) {
        assert_ne!(
            kp, km,
            "kernel names must change under SIMDCRYPT_DISABLE=sha"
        );
    }
    if hw.has("sha") {
        assert!(
            masked.contains("Disabled:     sha (SIMDCRYPT_DISABLE=sha)"),
            "{masked}"
        );
        if cfg!(target_arch = "x86_64") {
            assert!(
                masked.contains("SHA-NI is present but SIMDCRYPT_DISABLE hides it"),
                "{masked}"
            );
        }
    } else {
        assert!(masked.contains("nothing this CPU has"), "{masked}");
    }
}

#[test]
fn backend_forces_a_kernel_or_fails_with_the_choices() {
    let out = run(&[
        "-evp",
        "sha256",
        "-bytes",
        "64",
        "-seconds",
        "0.005",
        "--backend",
        "soft",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let r = rows(&text(&out.stdout));
    assert_eq!(r[0][2], "soft");

    let out = run(&[
        "-evp",
        "sha256",
        "-bytes",
        "64",
        "-backend",
        "no-such-kernel",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let e = text(&out.stderr);
    assert!(
        e.contains("no-such-kernel") && e.contains("available kernels:") && e.contains("soft"),
        "{e}"
    );

    // An AEAD's kernels are named as a pair: "soft" alone is not one of them.
    let out = run(&["-evp", "chacha20-poly1305", "-backend", "soft"]);
    assert_eq!(out.status.code(), Some(2));
    let e = text(&out.stderr);
    assert!(e.contains("soft+soft-"), "{e}");
}

#[test]
fn cycles_are_labelled_estimates() {
    let dir = scratch("cycles");
    let json = dir.join("c.json");
    let out = run(&[
        "-evp",
        "sha1",
        "-bytes",
        "512",
        "-seconds",
        "0.005",
        "-cycles",
        "-elapsed",
        "-json",
        json.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["results"][0]["timing"], "elapsed");
    if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
        assert!(
            s.contains("Cycles per byte") && s.contains("estimate"),
            "{s}"
        );
        assert!(v["results"][0]["ticks_per_byte"].as_f64().unwrap() > 0.0);
    } else {
        assert!(s.contains("no cycle counter"), "{s}");
    }
}

/// The position of `name` in `--list`, OpenSSL's `+F` index for our rows.
fn list_index(name: &str) -> usize {
    algorithms().iter().position(|(n, _)| n == name).unwrap()
}

/// `-mr` prints exactly `openssl speed -mr`'s summary on stdout (`+H:` sizes, one `+F:` line
/// per row in bytes per second) and its `+DT:`/`+R:` progress lines on stderr.
#[test]
fn mr_prints_openssl_machine_readable_lines() {
    let out = run(&["-mr", "-evp", "sha256", "-bytes", "64", "-seconds", "0.005"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines.len(), 2, "{s}");
    assert_eq!(lines[0], "+H:64");
    let f: Vec<&str> = lines[1].split(':').collect();
    assert_eq!(
        f[..3],
        ["+F", &list_index("sha256").to_string(), "sha256"],
        "{s}"
    );
    assert_eq!(f.len(), 4, "{s}");
    let (int, frac) = f[3].split_once('.').unwrap();
    assert!(int.parse::<u64>().unwrap() > 0 && frac.len() == 2, "{s}");
    let e = text(&out.stderr);
    assert!(e.lines().any(|l| l == "+DT:sha256:1:64"), "{e}");
    let r = e.lines().find(|l| l.starts_with("+R:")).expect("+R line");
    let r: Vec<&str> = r.split(':').collect();
    assert!(
        r[1].parse::<u64>().unwrap() > 0 && r[2] == "sha256",
        "{r:?}"
    );
    assert!(r[3].parse::<f64>().unwrap() > 0.0, "{r:?}");

    // Six sizes and, with --compare, a +F line per implementation.
    let empty = scratch("mr-path");
    let out = cmd(&["-mr", "--compare", "sha512", "-seconds", "0.002"])
        .env("PATH", &empty)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines[0], "+H:16:64:256:1024:8192:16384", "{s}");
    let names: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l.split(':').nth(2).unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "sha512",
            "sha512/ring",
            "sha512/aws-lc-rs",
            "sha512/rustcrypto"
        ],
        "{s}"
    );
    for l in &lines[1..] {
        assert_eq!(l.split(':').count(), 3 + 6, "{l}");
    }
    assert!(text(&out.stderr).contains("Note: no `openssl` binary"));
}

/// `--json -` writes the JSON to stdout (and no file named `-`).
#[test]
fn json_dash_is_stdout() {
    let dir = scratch("json-dash");
    let out = cmd(&[
        "-evp", "sha1", "-bytes", "32", "-seconds", "0.005", "--json", "-",
    ])
    .current_dir(&dir)
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("stdout is one JSON document");
    assert_eq!(v["tool"], "simdcrypt-speed");
    assert_eq!(v["results"][0]["algorithm"], "sha1");
    check_figure(&v["results"][0], 1);
    assert!(!dir.join("-").exists());
}

/// `--backend` with a name no primitive has says so and lists the names that exist; a real
/// kernel of another primitive is told apart.
#[test]
fn backend_unknown_name_is_called_unknown() {
    let out = run(&["-evp", "sha256", "-bytes", "64", "--backend", "nosuch"]);
    assert_eq!(out.status.code(), Some(2));
    let e = text(&out.stderr);
    assert!(e.contains("unknown kernel 'nosuch'"), "{e}");
    assert!(!e.contains("not available on this CPU"), "{e}");
    let hw = Features::hardware();
    for k in [
        Sha256::backend_for(hw),
        Aes128Gcm::backend_for(hw),
        ChaCha20Poly1305::backend_for(hw),
        "soft",
    ] {
        assert!(e.contains(k), "{k} not listed in\n{e}");
    }
    let other = ChaCha20Poly1305::backend_for(hw);
    let out = run(&["-evp", "sha256", "--backend", other]);
    assert_eq!(out.status.code(), Some(2));
    let e = text(&out.stderr);
    assert!(
        e.contains("not a kernel of sha256") && !e.contains("unknown"),
        "{e}"
    );
    assert!(e.contains(Sha256::backend_for(hw)), "{e}");
}

fn json_of(out: &Output) -> Value {
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `-misalign N`: the buffers every implementation got started N bytes past a 64-byte
/// boundary (observed on the buffers themselves), and the table says so.
#[test]
fn misalign_offsets_the_buffers() {
    let empty = scratch("misalign-path");
    for (args, want) in [
        (&["-misalign", "3"][..], 3),
        (&[], 0),
        (&["--misalign=63"], 63),
    ] {
        let mut a = vec![
            "-evp",
            "aes-128-gcm",
            "-evp",
            "sha256",
            "-bytes",
            "100",
            "-seconds",
            "0.005",
            "--compare",
            "--json",
            "-",
        ];
        a.extend_from_slice(args);
        let v = json_of(&cmd(&a).env("PATH", &empty).output().unwrap());
        assert_eq!(v["settings"]["misalign"], want);
        let results = v["results"].as_array().unwrap();
        assert_eq!(results.len(), 8, "{v}");
        for r in results {
            assert_eq!(r["buffer_offset"], want, "{r}");
        }
    }
    let out = run(&[
        "sha1",
        "-bytes",
        "16",
        "-seconds",
        "0.002",
        "-misalign",
        "5",
    ]);
    assert!(text(&out.stdout).contains("buffers 5 bytes past a 64-byte boundary"));
    assert_eq!(run(&["-misalign", "65"]).status.code(), Some(2));
}

/// `-decrypt` times decryption: the header and JSON say so, every cipher row is measured
/// (AEAD opens are checked in the unit tests), and `openssl speed` is asked for the same.
#[cfg(unix)]
#[test]
fn decrypt_is_measured_and_passed_to_openssl() {
    let dir = fake_openssl("fake-openssl-decrypt");
    let out = cmd(&[
        "-decrypt",
        "--compare",
        "-evp",
        "aes-128-gcm",
        "-evp",
        "aes-128-ecb",
        "-evp",
        "chacha20-poly1305",
        "-bytes",
        "64",
        "-seconds",
        "0.005",
        "-misalign",
        "5",
    ])
    .env("PATH", &dir)
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.lines().next().unwrap().contains("decryption (-decrypt)"),
        "{s}"
    );
    assert!(
        s.contains("Note: -decrypt: `openssl speed -decrypt -aead` opens with a fake tag"),
        "{s}"
    );
    let r = rows(&s);
    for alg in ["aes-128-gcm", "aes-128-ecb", "chacha20-poly1305"] {
        let ours = r
            .iter()
            .find(|r| r[0] == alg && r[1] == "simdcrypt")
            .unwrap();
        assert!(is_figure(&ours[2]), "{ours:?}");
    }
    let args = std::fs::read_to_string(dir.join("args.log")).unwrap();
    assert_eq!(
        args.lines().collect::<Vec<_>>(),
        [
            "speed -mr -seconds 1 -bytes 64 -misalign 5 -decrypt -aead -evp aes-128-gcm",
            "speed -mr -seconds 1 -bytes 64 -misalign 5 -decrypt -evp aes-128-ecb",
            "speed -mr -seconds 1 -bytes 64 -misalign 5 -decrypt -aead -evp chacha20-poly1305",
        ]
    );
    let v = json_of(&run(&[
        "-decrypt",
        "aes-256-gcm",
        "-bytes",
        "32",
        "-seconds",
        "0.005",
        "-json",
        "-",
    ]));
    assert_eq!(v["settings"]["decrypt"], true);
    assert!(v["results"][0]["operations"].as_u64().unwrap() > 0);
    // A row measured sealing only is refused by name under -decrypt, not silently sealed.
    let out = run(&["-decrypt", "chacha20-poly1305@openssh.com"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("sealing only"),
        "{}",
        text(&out.stderr)
    );
}

/// `-aead` measures the AEADs (all of them when none is named) and refuses anything else.
#[test]
fn aead_selects_aeads_only() {
    let v = json_of(&run(&[
        "-aead", "-bytes", "16", "-seconds", "0.002", "-json", "-",
    ]));
    let mut got: Vec<String> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["algorithm"].as_str().unwrap().to_string())
        .collect();
    got.dedup();
    let want: Vec<String> = algorithms()
        .into_iter()
        .map(|(n, _)| n)
        .filter(|n| !n.starts_with("tls13-") && (n.ends_with("-gcm") || n.ends_with("-poly1305")))
        .collect();
    assert_eq!(got, want);
    assert!(want.len() >= 5);
    let out = run(&["-aead", "-evp", "aes-128-cbc"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("only with an AEAD cipher"));
}

/// The `cpu` report's kernel table stays aligned for the longest names
/// (`aes-128-cbc-decrypt`) and kernels (the AEADs' pairs).
#[test]
fn cpu_kernel_columns_line_up() {
    let out = cmd(&["cpu", "-seconds", "0.01"]).output().unwrap();
    assert!(out.status.success());
    let s = text(&out.stdout);
    let lines: Vec<&str> = s
        .lines()
        .skip_while(|l| !l.starts_with("Kernels"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    assert!(
        lines.iter().any(|l| l.contains("aes-128-cbc-decrypt")),
        "{s}"
    );
    let kernel_col: Vec<usize> = lines
        .iter()
        .map(|l| {
            let name = l.split_whitespace().next().unwrap();
            let rest = &l[2 + name.len()..];
            2 + name.len() + (rest.len() - rest.trim_start().len())
        })
        .collect();
    assert!(kernel_col.windows(2).all(|w| w[0] == w[1]), "{s}");
    let avail: Vec<usize> = lines
        .iter()
        .map(|l| l.find("(available:").unwrap())
        .collect();
    assert!(avail.windows(2).all(|w| w[0] == w[1]), "{s}");
}

/// The `tls13-*` rows run real rustls connections with simdcrypt's suites and, with
/// `--compare`, rustls's aws-lc-rs and ring suites; handshakes are counted per second.
#[test]
fn tls13_rows_compare_providers() {
    let empty = scratch("tls-path");
    let v = json_of(
        &cmd(&[
            "--compare",
            "tls13-aes-128-gcm",
            "tls13-chacha20-poly1305",
            "tls13-handshake",
            "-bytes",
            "1024",
            "-seconds",
            "0.01",
            "--json",
            "-",
        ])
        .env("PATH", &empty)
        .output()
        .unwrap(),
    );
    let results = v["results"].as_array().unwrap();
    let mut seen = Vec::new();
    for r in results {
        let name = r["algorithm"].as_str().unwrap();
        let imp = r["implementation"].as_str().unwrap();
        if name == "tls13-handshake" {
            assert!(r["operations_per_second"].as_f64().unwrap() > 0.0, "{r}");
            assert!(
                r["size"].is_null() && r["bytes_per_second"].is_null(),
                "{r}"
            );
        } else {
            check_figure(r, 1);
            assert_eq!(r["size"], 1024);
        }
        seen.push(format!("{name} {imp}"));
    }
    let mut want = Vec::new();
    for alg in [
        "tls13-aes-128-gcm",
        "tls13-chacha20-poly1305",
        "tls13-handshake",
    ] {
        for imp in ["simdcrypt", "aws-lc-rs", "ring"] {
            want.push(format!("{alg} {imp}"));
        }
    }
    assert_eq!(seen, want);

    let out = cmd(&["--compare", "tls13-handshake", "-seconds", "0.01"])
        .env("PATH", &empty)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("Full TLS 1.3 handshakes per second"), "{s}");
    let lines: Vec<&str> = s
        .lines()
        .filter(|l| l.starts_with("tls13-handshake"))
        .collect();
    assert_eq!(lines.len(), 4, "simdcrypt, aws-lc-rs, ring, ratio: {s}");
    assert!(
        lines[3].contains("÷best peer") && lines[3].trim_end().ends_with('x'),
        "{s}"
    );
}
