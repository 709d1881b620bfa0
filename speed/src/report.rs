//! The results of a run and their three renderings: the `openssl speed`-style table (stdout),
//! JSON (`--json`) and an SVG plot (`--plot`).

use std::path::Path;

use serde_json::{Value, json};

/// One measured figure.
#[derive(Clone, Copy, Debug)]
pub struct Figure {
    /// Bytes per second (summed over threads).
    pub rate: f64,
    /// Seconds measured (wall clock, warm-up excluded; for `openssl`, what it was asked for).
    pub seconds: f64,
    /// Messages processed, where known (not for the `openssl` subprocess).
    pub ops: Option<u64>,
    /// Counter ticks per byte (`--cycles`).
    pub ticks_per_byte: Option<f64>,
    /// Where the message buffers started past a 64-byte boundary, as observed (not known for
    /// the `openssl` subprocess).
    pub buffer_offset: Option<usize>,
}

/// What a row holds.
#[derive(Clone, Debug)]
pub enum Status {
    /// One entry per size (`None`: that size was not measured, e.g. CBC and a `-bytes` that
    /// is not a whole number of blocks).
    Measured(Vec<Option<Figure>>),
    /// simdcrypt does not implement this primitive yet.
    NotImplemented,
    /// Not measured, and why.
    Skipped(String),
}

/// One implementation of one algorithm.
#[derive(Clone, Debug)]
pub struct Row {
    /// As OpenSSL spells it.
    pub algorithm: &'static str,
    /// `simdcrypt`, `ring`, `aws-lc-rs`, `rustcrypto` or `openssl`.
    pub implementation: String,
    /// simdcrypt's kernel; `-` where the library does not say.
    pub kernel: String,
    /// The figures.
    pub status: Status,
    /// The figure is operations per second (`tls13-handshake`), measured once: one entry in
    /// `Measured`, shown apart from the table.
    pub per_operation: bool,
}

/// A whole run.
#[derive(Clone, Debug)]
pub struct Report {
    /// Message sizes, the table's columns.
    pub sizes: Vec<usize>,
    /// Rows, grouped by algorithm, simdcrypt first in each group.
    pub rows: Vec<Row>,
    /// `-multi`.
    pub threads: usize,
    /// `cpu` or `elapsed`: the divisor.
    pub timing: &'static str,
    /// Seconds per implementation per cell.
    pub seconds: f64,
    /// Whether peers were measured.
    pub compare: bool,
    /// The CPU model.
    pub cpu_model: String,
    /// `x86_64`, `aarch64`, ….
    pub arch: &'static str,
    /// Features in use (detected less `SIMDCRYPT_DISABLE`).
    pub features: String,
    /// Features the hardware has.
    pub hardware_features: String,
    /// Features `SIMDCRYPT_DISABLE` removed.
    pub disabled: String,
    /// The kernel forced with `--backend`.
    pub forced_backend: Option<String>,
    /// Decryption was timed (`-decrypt`).
    pub decrypt: bool,
    /// `-misalign`.
    pub misalign: usize,
    /// The counter's label when `--cycles` was given.
    pub cycles_label: Option<&'static str>,
    /// `openssl version` of the subprocess, when it ran.
    pub openssl_version: Option<String>,
    /// Notes printed under the table (e.g. no `openssl` on PATH).
    pub notes: Vec<String>,
}

const COL: usize = 13;

fn figures(r: &Row) -> Option<&[Option<Figure>]> {
    match &r.status {
        Status::Measured(v) => Some(v),
        _ => None,
    }
}

impl Report {
    /// The table `openssl speed` users know, plus the kernel column (and, with `--compare`,
    /// the implementation column and a ratio row per algorithm).
    pub fn table(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!(
            "simdcrypt-speed {} on {} ({}), {} thread{}, {} time, {} s per cell{}{}{}\n",
            env!("CARGO_PKG_VERSION"),
            self.cpu_model,
            self.arch,
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            if self.timing == "cpu" {
                "CPU"
            } else {
                "wall-clock"
            },
            trim_float(self.seconds),
            match &self.forced_backend {
                Some(b) => format!(", kernel forced to {b}"),
                None => String::new(),
            },
            if self.decrypt {
                ", decryption (-decrypt)"
            } else {
                ""
            },
            if self.misalign > 0 {
                format!(", buffers {} bytes past a 64-byte boundary", self.misalign)
            } else {
                String::new()
            }
        ));
        s.push_str(&format!(
            "features: {}{}\n",
            if self.features.is_empty() {
                "none"
            } else {
                &self.features
            },
            if self.disabled.is_empty() {
                String::new()
            } else {
                format!(" (SIMDCRYPT_DISABLE removed {})", self.disabled)
            }
        ));
        s.push_str("The 'numbers' are in 1000s of bytes per second processed.\n");
        s.push_str(&self.grid(|f| format!("{:>w$.2}k", f.rate / 1e3, w = COL - 1), true));
        s.push_str(&self.operations());
        if let Some(label) = self.cycles_label {
            s.push_str(&format!("\nCycles per byte, {label}:\n"));
            s.push_str(&self.grid(
                |f| match f.ticks_per_byte {
                    Some(t) => format!("{t:>COL$.2}"),
                    None => format!("{:>COL$}", "-"),
                },
                false,
            ));
        }
        for n in &self.notes {
            s.push_str(&format!("Note: {n}\n"));
        }
        s
    }

    fn grid(&self, cell: impl Fn(&Figure) -> String, ratios: bool) -> String {
        let mut s = String::new();
        // As wide as the longest name plus a space (at least 18, openssl speed's width).
        let w = self.name_width();
        s.push_str(&format!("{:<w$}", "type"));
        if self.compare {
            s.push_str(&format!("{:<13}", "impl"));
        }
        for n in &self.sizes {
            s.push_str(&format!("{:>COL$}", format!("{n} bytes")));
        }
        s.push_str("  kernel\n");
        let rows: Vec<&Row> = self.rows.iter().filter(|r| !r.per_operation).collect();
        for group in rows.chunk_by(|a, b| a.algorithm == b.algorithm) {
            for r in group {
                s.push_str(&format!("{:<w$}", r.algorithm));
                if self.compare {
                    s.push_str(&format!("{:<13}", r.implementation));
                }
                match &r.status {
                    Status::Measured(v) => {
                        for f in v {
                            match f {
                                Some(f) => s.push_str(&cell(f)),
                                None => s.push_str(&format!("{:>COL$}", "n/a")),
                            }
                        }
                        s.push_str(&format!("  {}\n", r.kernel));
                    }
                    Status::NotImplemented => {
                        s.push_str("not implemented in simdcrypt yet\n");
                    }
                    Status::Skipped(why) => s.push_str(&format!("skipped: {why}\n")),
                }
            }
            if ratios && self.compare {
                if let Some(line) = self.ratio_row(group) {
                    s.push_str(&line);
                }
            }
        }
        s
    }

    /// The rows counting operations (`tls13-handshake`): one figure each, per second.
    fn operations(&self) -> String {
        let rows: Vec<&Row> = self.rows.iter().filter(|r| r.per_operation).collect();
        if rows.is_empty() {
            return String::new();
        }
        let w = self.name_width();
        let mut s = String::from(
            "\nFull TLS 1.3 handshakes per second (X25519, ECDSA P-256 certificate, no \
             resumption):\n",
        );
        s.push_str(&format!("{:<w$}", "type"));
        if self.compare {
            s.push_str(&format!("{:<13}", "impl"));
        }
        s.push_str(&format!("{:>COL$}  kernel\n", "per second"));
        for r in &rows {
            s.push_str(&format!("{:<w$}", r.algorithm));
            if self.compare {
                s.push_str(&format!("{:<13}", r.implementation));
            }
            match &r.status {
                Status::Measured(v) => match v.first().copied().flatten() {
                    Some(f) => s.push_str(&format!("{:>COL$.1}  {}\n", f.rate, r.kernel)),
                    None => s.push_str(&format!("{:>COL$}\n", "n/a")),
                },
                Status::NotImplemented => s.push_str("not implemented in simdcrypt yet\n"),
                Status::Skipped(why) => s.push_str(&format!("skipped: {why}\n")),
            }
        }
        if self.compare {
            for group in rows.chunk_by(|a, b| a.algorithm == b.algorithm) {
                if let Some(line) = self.ratio_row(group) {
                    s.push_str(&line);
                }
            }
        }
        s
    }

    /// The width of the algorithm column.
    fn name_width(&self) -> usize {
        self.rows
            .iter()
            .map(|r| r.algorithm.len() + 1)
            .max()
            .unwrap_or(0)
            .max(18)
    }

    /// simdcrypt ÷ the best peer, per size.
    fn ratio_row(&self, group: &[&Row]) -> Option<String> {
        let ours = group
            .iter()
            .find(|r| r.implementation == "simdcrypt")
            .and_then(|r| figures(r))?;
        let peers: Vec<&[Option<Figure>]> = group
            .iter()
            .filter(|r| r.implementation != "simdcrypt")
            .filter_map(|r| figures(r))
            .collect();
        if peers.is_empty() {
            return None;
        }
        let w = self.name_width();
        let mut s = format!("{:<w$}{:<13}", group[0].algorithm, "÷best peer");
        for (k, o) in ours.iter().enumerate() {
            let best = peers
                .iter()
                .filter_map(|p| p.get(k).copied().flatten())
                .map(|f| f.rate)
                .fold(0.0, f64::max);
            match o {
                Some(o) if best > 0.0 => {
                    s.push_str(&format!("{:>w$.2}x", o.rate / best, w = COL - 1))
                }
                _ => s.push_str(&format!("{:>COL$}", "-")),
            }
        }
        s.push('\n');
        Some(s)
    }

    /// `openssl speed -mr`'s summary: `+H:` and the sizes, then per measured row
    /// `+F:<index>:<name>:<bytes per second>...`, the index being the algorithm's place in
    /// `--list` (OpenSSL's is its own table's) and the name the algorithm for simdcrypt,
    /// `algorithm/implementation` for the others. A size a row could not run prints 0.00, as
    /// OpenSSL prints for a size it did not run.
    pub fn machine_readable(&self) -> String {
        let names = crate::algs::names();
        let mut s = String::from("+H");
        for n in &self.sizes {
            s.push_str(&format!(":{n}"));
        }
        s.push('\n');
        for r in self.rows.iter().filter(|r| !r.per_operation) {
            let Some(v) = figures(r) else { continue };
            let index = names.iter().position(|n| *n == r.algorithm).unwrap_or(0);
            s.push_str(&format!(
                "+F:{index}:{}",
                mr_name(r.algorithm, &r.implementation)
            ));
            for f in v {
                s.push_str(&format!(":{:.2}", f.map_or(0.0, |f| f.rate)));
            }
            s.push('\n');
        }
        s
    }

    /// Every figure, each with the context needed to read it alone.
    pub fn json(&self) -> Value {
        let mut results = Vec::new();
        let mut not_implemented = Vec::new();
        let mut skipped = Vec::new();
        for r in &self.rows {
            match &r.status {
                Status::Measured(v) if r.per_operation => {
                    for f in v.iter().flatten() {
                        results.push(json!({
                            "algorithm": r.algorithm,
                            "implementation": r.implementation,
                            "kernel": r.kernel,
                            "operations_per_second": f.rate,
                            "seconds": f.seconds,
                            "operations": f.ops,
                            "threads": self.threads,
                            "timing": self.timing,
                            "cpu_model": self.cpu_model,
                            "arch": self.arch,
                            "features": self.features,
                        }));
                    }
                }
                Status::Measured(v) => {
                    for (f, &size) in v.iter().zip(&self.sizes) {
                        let Some(f) = f else { continue };
                        results.push(json!({
                            "algorithm": r.algorithm,
                            "implementation": r.implementation,
                            "kernel": r.kernel,
                            "size": size,
                            "bytes_per_second": f.rate,
                            "seconds": f.seconds,
                            "operations": f.ops,
                            "threads": self.threads,
                            "timing": self.timing,
                            "ticks_per_byte": f.ticks_per_byte,
                            "buffer_offset": f.buffer_offset,
                            "cpu_model": self.cpu_model,
                            "arch": self.arch,
                            "features": self.features,
                        }));
                    }
                }
                Status::NotImplemented => not_implemented.push(r.algorithm),
                Status::Skipped(why) => skipped.push(json!({
                    "algorithm": r.algorithm,
                    "implementation": r.implementation,
                    "reason": why,
                })),
            }
        }
        json!({
            "tool": "simdcrypt-speed",
            "version": env!("CARGO_PKG_VERSION"),
            "cpu": {
                "model": self.cpu_model,
                "arch": self.arch,
                "features": self.features,
                "hardware_features": self.hardware_features,
                "disabled": self.disabled,
            },
            "settings": {
                "sizes": self.sizes,
                "seconds": self.seconds,
                "threads": self.threads,
                "timing": self.timing,
                "compare": self.compare,
                "backend": self.forced_backend,
                "decrypt": self.decrypt,
                "misalign": self.misalign,
                "cycles": self.cycles_label,
                "openssl": self.openssl_version,
            },
            "results": results,
            "not_implemented": not_implemented,
            "skipped": skipped,
            "notes": self.notes,
        })
    }

    /// Throughput against message size, one line per (algorithm, implementation), log-log.
    pub fn plot(&self, path: &Path) -> Result<usize, String> {
        use plotters::prelude::*;

        let series: Vec<(String, Vec<(f64, f64)>)> = self
            .rows
            .iter()
            .filter(|r| !r.per_operation)
            .filter_map(|r| {
                let v = figures(r)?;
                let pts: Vec<(f64, f64)> = v
                    .iter()
                    .zip(&self.sizes)
                    .filter_map(|(f, &n)| f.map(|f| (n as f64, f.rate / 1e6)))
                    .filter(|&(_, y)| y > 0.0)
                    .collect();
                let label = if self.compare {
                    format!("{} {}", r.algorithm, r.implementation)
                } else {
                    format!("{} ({})", r.algorithm, r.kernel)
                };
                (!pts.is_empty()).then_some((label, pts))
            })
            .collect();
        if series.is_empty() {
            return Err("nothing was measured, so there is nothing to plot".into());
        }
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, 0f64, f64::MAX, 0f64);
        for (_, pts) in &series {
            for &(x, y) in pts {
                x0 = x0.min(x);
                x1 = x1.max(x);
                y0 = y0.min(y);
                y1 = y1.max(y);
            }
        }
        let (x0, x1) = (x0 / 1.5, x1 * 1.5);
        let (y0, y1) = (y0 / 1.5, y1 * 1.5);
        let height = 600 + 18 * series.len() as u32;
        let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
        let root = SVGBackend::new(path, (1000, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("simdcrypt-speed on {}", self.cpu_model),
                ("sans-serif", 20),
            )
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("message size (bytes)")
            .y_desc("throughput (MB/s)")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y}"))
            .draw()
            .map_err(|e| err(&e))?;
        for (i, (label, pts)) in series.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2)))
                .map_err(|e| err(&e))?
                .label(label.as_str())
                // A filled square, not a line: the plot holds one polyline per series.
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled())
                });
            // A marker on every point: with a single `-bytes` size a line has nothing to
            // join, and the markers are the chart.
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 5, color.filled())))
                .map_err(|e| err(&e))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
        Ok(series.len())
    }
}

/// The name of a row in `-mr` lines: the algorithm for simdcrypt, else
/// `algorithm/implementation` (no `:`, which separates the fields).
pub fn mr_name(algorithm: &str, implementation: &str) -> String {
    if implementation == "simdcrypt" {
        algorithm.to_string()
    } else {
        format!("{algorithm}/{implementation}")
    }
}

/// `0.25`, `1`, `0.012`: seconds without trailing zeros.
fn trim_float(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() { "0".into() } else { s.into() }
}
