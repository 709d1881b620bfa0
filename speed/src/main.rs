//! `simdcrypt-speed` (`cargo speed`): what this CPU does with every primitive simdcrypt has,
//! in the table `openssl speed` prints, optionally beside ring, aws-lc-rs, RustCrypto and the
//! system `openssl speed` (`--compare`). `simdcrypt-speed cpu` explains the CPU and the kernels.
//!
//! Progress goes to stderr; stdout holds only the report, so it can be piped.

mod algs;
mod cli;
mod cpu_report;
mod measure;
mod openssl;
mod report;
mod sys;
mod tls;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

use simdcrypt::cpu::Features;

use crate::algs::Algorithm;
use crate::cli::{Command, Options};
use crate::measure::{Maker, Settings};
use crate::report::{Figure, Report, Row, Status};

/// The message sizes of `openssl speed`.
const SIZES: [usize; 6] = [16, 64, 256, 1024, 8192, 16384];

/// Measurement time, in seconds, that a run without `-seconds` spreads over its cells (warm-up
/// and set-up add a few seconds): the whole run takes about a minute.
const BUDGET: f64 = 52.0;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let registry = algs::registry();
    let names = algs::names();
    match cli::parse(&args, &names) {
        Err(e) => usage_error(&e.0),
        Ok(Command::Help) => {
            print!("{}", cli::usage(&names));
            ExitCode::SUCCESS
        }
        Ok(Command::List) => {
            for a in &registry {
                let status = if a.simdcrypt.is_some() {
                    ""
                } else {
                    "  (not implemented in simdcrypt yet)"
                };
                println!("{}{status}", a.name);
            }
            ExitCode::SUCCESS
        }
        Ok(Command::Cpu { seconds }) => {
            print!("{}", cpu_report::report(&registry, seconds.unwrap_or(0.25)));
            ExitCode::SUCCESS
        }
        Ok(Command::Speed(o)) => speed(&o, &algs::registry_for(o.decrypt)),
    }
}

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("simdcrypt-speed: {msg}");
    eprintln!("Try `simdcrypt-speed --help`.");
    ExitCode::from(2)
}

/// Why `--backend want` matches no selected algorithm: an unknown name (no primitive has a
/// kernel of that name on this CPU), one that `SIMDCRYPT_DISABLE` hides, or one of other
/// algorithms; each with the names that would work.
fn backend_error(
    want: &str,
    selected: &[&Algorithm],
    registry: &[Algorithm],
    offered: &[&str],
    detected: Features,
) -> String {
    let kernels = |f: Features, algs: &mut dyn Iterator<Item = &Algorithm>| {
        let mut names: Vec<&'static str> = Vec::new();
        for a in algs {
            if let Some(s) = &a.simdcrypt {
                for (n, _) in (s.backends)(f) {
                    if !names.contains(&n) {
                        names.push(n);
                    }
                }
            }
        }
        names
    };
    let hw = Features::hardware();
    let everywhere = kernels(hw, &mut registry.iter());
    let selected_names = selected
        .iter()
        .map(|a| a.name)
        .collect::<Vec<_>>()
        .join(" ");
    let offered = if offered.is_empty() {
        "none (no selected algorithm is implemented yet)".to_string()
    } else {
        offered.join(" ")
    };
    if !everywhere.contains(&want) {
        return format!(
            "unknown kernel '{want}': no simdcrypt primitive has a kernel of that name on this \
             CPU ({})\navailable kernels: {offered} (for {selected_names})\nall kernels on this \
             CPU: {}",
            std::env::consts::ARCH,
            everywhere.join(" ")
        );
    }
    let with_hw = kernels(hw, &mut selected.iter().copied());
    if with_hw.contains(&want) && !kernels(detected, &mut selected.iter().copied()).contains(&want)
    {
        return format!(
            "kernel '{want}' is hidden by SIMDCRYPT_DISABLE ({} removed)\navailable kernels: \
             {offered}",
            Features::masked_by_env()
        );
    }
    format!(
        "kernel '{want}' is not a kernel of {selected_names} on this CPU (other primitives \
         have it)\navailable kernels: {offered}"
    )
}

/// One algorithm's plan: which simdcrypt kernel (if any) and which peers to run.
struct Plan<'a> {
    alg: &'a Algorithm,
    /// The kernel and the feature set that selects it; `Err` says why simdcrypt is not run.
    simd: Result<(&'static str, Features), Status>,
}

fn speed(o: &Options, registry: &[Algorithm]) -> ExitCode {
    let started = Instant::now();
    let selected: Vec<&Algorithm> = if o.algorithms.is_empty() {
        registry.iter().collect()
    } else {
        registry
            .iter()
            .filter(|a| o.algorithms.iter().any(|n| n == a.name))
            .collect()
    };
    let detected = Features::detect();

    // simdcrypt's kernel per algorithm, honouring --backend.
    let mut plans = Vec::new();
    let mut offered: Vec<&'static str> = Vec::new();
    for alg in &selected {
        let simd = match &alg.simdcrypt {
            None => Err(Status::NotImplemented),
            Some(s) => {
                let all = (s.backends)(detected);
                for (n, _) in &all {
                    if !offered.contains(n) {
                        offered.push(n);
                    }
                }
                match &o.backend {
                    None => Ok(all[0]),
                    Some(want) => all.iter().find(|(n, _)| n == want).copied().ok_or_else(|| {
                        Status::Skipped(format!("{} has no '{want}' kernel on this CPU", alg.name))
                    }),
                }
            }
        };
        plans.push(Plan { alg, simd });
    }
    if let Some(want) = &o.backend {
        if !plans.iter().any(|p| p.simd.is_ok()) {
            return usage_error(&backend_error(
                want, &selected, registry, &offered, detected,
            ));
        }
    }

    let sizes: Vec<usize> = match o.bytes {
        Some(b) => vec![b],
        None => SIZES.to_vec(),
    };
    let in_process =
        |p: &Plan| usize::from(p.simd.is_ok()) + if o.compare { p.alg.peers.len() } else { 0 };
    // Rows counting operations (`tls13-handshake`) are measured once, at one byte.
    let sizes_of = |alg: &Algorithm| -> Vec<usize> {
        if alg.counts_operations() {
            vec![1]
        } else {
            sizes.clone()
        }
    };
    let slots: usize = plans
        .iter()
        .map(|p| in_process(p) * sizes_of(p.alg).len())
        .sum();
    let seconds = match o.seconds {
        Some(s) => s,
        None => (BUDGET / slots.max(1) as f64).clamp(0.02, 3.0),
    };
    let settings = Settings {
        seconds,
        threads: o.multi,
        elapsed: o.elapsed,
        cycles: o.cycles,
        misalign: o.misalign,
    };
    let counter = if o.cycles { sys::counter() } else { None };

    let mut notes = Vec::new();
    if o.cycles && counter.is_none() {
        notes.push(format!(
            "--cycles: no cycle counter is read on {}; only throughput is shown",
            std::env::consts::ARCH
        ));
    }
    let openssl_bin = if o.compare {
        let found = openssl::find();
        if found.is_none() {
            notes.push(
                "no `openssl` binary on PATH: the system OpenSSL was not measured".to_string(),
            );
        }
        found
    } else {
        None
    };
    let openssl_version = openssl_bin.as_deref().and_then(openssl::version);
    if o.decrypt && openssl_bin.is_some() && plans.iter().any(|p| cli::is_aead(p.alg.name)) {
        notes.push(
            "-decrypt: `openssl speed -decrypt -aead` opens with a fake tag, so its final tag \
             check fails; the other rows open authentic ciphertexts, tag checked"
                .to_string(),
        );
    }
    let openssl_seconds = seconds.ceil().max(1.0) as u64;

    let mut progress = Progress::new(slots, o.mr, seconds);
    let mut rows = Vec::new();
    for plan in &plans {
        let alg = plan.alg;
        // The implementations of this algorithm, measured together, interleaved.
        let simd_maker;
        let mut makers: Vec<Maker<'_>> = Vec::new();
        let mut labels: Vec<(String, String)> = Vec::new();
        if let (Ok((kernel, f)), Some(s)) = (&plan.simd, &alg.simdcrypt) {
            let (make, f) = (&s.make, *f);
            simd_maker = move || make(f);
            makers.push(&simd_maker);
            labels.push(("simdcrypt".into(), kernel.to_string()));
        }
        if o.compare {
            for p in &alg.peers {
                makers.push(&*p.make);
                labels.push((p.name.into(), "-".into()));
            }
        }
        let mut figures: Vec<Vec<Option<Figure>>> = vec![Vec::new(); makers.len()];
        // Algorithms `openssl speed` cannot time get no OpenSSL row.
        let openssl_here = openssl_bin
            .as_ref()
            .filter(|_| !matches!(alg.openssl, algs::OpensslCmd::NoEquivalent));
        let mut openssl_figures: Vec<Option<Figure>> = Vec::new();
        let mut openssl_errors: Vec<String> = Vec::new();
        for &size in &sizes_of(alg) {
            if makers.is_empty() {
                break;
            }
            if size % alg.granule != 0 {
                for f in &mut figures {
                    f.push(None);
                }
                openssl_figures.push(None);
                continue;
            }
            progress.start(alg.name, size, makers.len());
            let samples = measure::cell(&makers, size, &settings);
            progress.done(alg.name, size, &labels, &samples);
            for (f, s) in figures.iter_mut().zip(samples) {
                f.push(Some(Figure {
                    rate: s.rate,
                    seconds: s.wall,
                    ops: Some(s.ops),
                    ticks_per_byte: s.ticks_per_byte,
                    buffer_offset: Some(s.buffer_offset),
                }));
            }
            // The system OpenSSL, right after the same cell: one `-bytes N` run per size,
            // so that its sizes are exactly ours (`-aead` would otherwise pick its own
            // small sizes) and it sits in the same stretch of machine noise.
            if let (Some(bin), true) = (&openssl_here, openssl_errors.is_empty()) {
                progress.note(&format!(
                    "openssl speed {} -bytes {size} ({openssl_seconds} s)",
                    alg.openssl.args().join(" ")
                ));
                let run = openssl::Run {
                    seconds: openssl_seconds,
                    multi: o.multi,
                    elapsed: o.elapsed,
                    misalign: o.misalign,
                };
                match openssl::speed(bin, alg.openssl, size, &run) {
                    Ok(rate) => openssl_figures.push(Some(Figure {
                        rate,
                        seconds: openssl_seconds as f64,
                        ops: None,
                        ticks_per_byte: None,
                        buffer_offset: None,
                    })),
                    Err(e) => openssl_errors.push(e),
                }
            }
        }
        let mut figures = figures.into_iter();
        match &plan.simd {
            Ok(_) => rows.push(Row {
                algorithm: alg.name,
                per_operation: alg.counts_operations(),
                implementation: "simdcrypt".into(),
                kernel: labels[0].1.clone(),
                status: Status::Measured(figures.next().unwrap_or_default()),
            }),
            Err(status) => rows.push(Row {
                algorithm: alg.name,
                per_operation: alg.counts_operations(),
                implementation: "simdcrypt".into(),
                kernel: "-".into(),
                status: status.clone(),
            }),
        }
        if o.compare {
            for (p, f) in alg.peers.iter().zip(figures) {
                rows.push(Row {
                    algorithm: alg.name,
                    per_operation: alg.counts_operations(),
                    implementation: p.name.into(),
                    kernel: "-".into(),
                    status: Status::Measured(f),
                });
            }
            if openssl_here.is_some() {
                let status = if openssl_errors.is_empty() {
                    Status::Measured(std::mem::take(&mut openssl_figures))
                } else {
                    Status::Skipped(openssl_errors.join("; "))
                };
                rows.push(Row {
                    algorithm: alg.name,
                    per_operation: alg.counts_operations(),
                    implementation: "openssl".into(),
                    kernel: "-".into(),
                    status,
                });
            }
        }
    }
    progress.finish(started);

    let hw = Features::hardware();
    let report = Report {
        sizes,
        rows,
        threads: o.multi,
        timing: if o.elapsed { "elapsed" } else { "cpu" },
        seconds,
        compare: o.compare,
        cpu_model: sys::cpu_model(),
        arch: std::env::consts::ARCH,
        features: detected.to_string(),
        hardware_features: hw.to_string(),
        disabled: Features::masked_by_env().to_string(),
        forced_backend: o.backend.clone(),
        decrypt: o.decrypt,
        misalign: o.misalign,
        cycles_label: counter.map(|c| c.label),
        openssl_version,
        notes,
    };
    let json_to_stdout = o.json.as_deref() == Some(std::path::Path::new("-"));
    // stdout holds one thing: the JSON (`--json -`), the `-mr` lines or the table.
    let stdout_text = if json_to_stdout {
        serde_json::to_string_pretty(&report.json()).expect("JSON of plain values") + "\n"
    } else if o.mr {
        for n in &report.notes {
            eprintln!("Note: {n}");
        }
        report.machine_readable()
    } else {
        report.table()
    };
    let mut out = std::io::stdout().lock();
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = out.write_all(stdout_text.as_bytes());
    let _ = out.flush();

    let mut code = ExitCode::SUCCESS;
    if let (Some(path), false) = (&o.json, json_to_stdout) {
        let text = serde_json::to_string_pretty(&report.json()).expect("JSON of plain values");
        if let Err(e) = std::fs::write(path, text + "\n") {
            eprintln!("simdcrypt-speed: cannot write {}: {e}", path.display());
            code = ExitCode::FAILURE;
        }
    }
    if let Some(path) = &o.plot {
        if let Err(e) = report.plot(path) {
            eprintln!("simdcrypt-speed: plot: {e}");
            code = ExitCode::FAILURE;
        }
    }
    code
}

/// Progress on stderr: one updating line on a terminal, else a line per cell.
/// With `-mr`, OpenSSL's `+DT:` and `+R:` lines instead.
struct Progress {
    tty: bool,
    mr: bool,
    seconds: f64,
    total: usize,
    done: usize,
}

impl Progress {
    fn new(total_slots: usize, mr: bool, seconds: f64) -> Self {
        Progress {
            tty: !mr && std::io::stderr().is_terminal(),
            mr,
            seconds,
            total: total_slots,
            done: 0,
        }
    }

    fn start(&mut self, alg: &str, size: usize, n: usize) {
        if self.mr {
            // `openssl speed -mr` prints whole seconds here.
            eprintln!("+DT:{alg}:{}:{size}", self.seconds.ceil() as u64);
        }
        if self.tty {
            eprint!(
                "\r\x1b[K[{}/{}] {alg}, {size} bytes",
                self.done + 1,
                self.total
            );
        }
        self.done += n;
    }

    fn done(&mut self, alg: &str, size: usize, labels: &[(String, String)], s: &[measure::Sample]) {
        if self.mr {
            // +R:count:name:seconds, the divisor of each implementation's figure.
            for ((name, _), s) in labels.iter().zip(s) {
                let secs = if s.rate > 0.0 {
                    s.bytes as f64 / s.rate
                } else {
                    0.0
                };
                eprintln!("+R:{}:{}:{secs:.6}", s.ops, report::mr_name(alg, name));
            }
            return;
        }
        if self.tty {
            return;
        }
        let figs: Vec<String> = labels
            .iter()
            .zip(s)
            .map(|((name, _), s)| format!("{name} {:.1} MB/s", s.rate / 1e6))
            .collect();
        eprintln!(
            "[{}/{}] {alg}, {size} bytes: {}",
            self.done,
            self.total,
            figs.join(", ")
        );
    }

    fn note(&mut self, msg: &str) {
        if self.mr {
            return;
        }
        if self.tty {
            eprint!("\r\x1b[K{msg}");
        } else {
            eprintln!("{msg}");
        }
    }

    fn finish(&mut self, started: Instant) {
        if self.mr {
            return;
        }
        if self.tty {
            eprint!("\r\x1b[K");
        }
        eprintln!("measured in {:.1} s", started.elapsed().as_secs_f64());
    }
}
