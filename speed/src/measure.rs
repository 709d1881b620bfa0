//! The measurement loop.
//!
//! One *cell* is one (algorithm, message size). With several implementations in a cell
//! (`--compare`), the cell's time is cut into rounds and every round runs each implementation
//! for one slice, rotating who goes first, so that a burst of noise from the rest of the
//! machine hits all of them alike instead of the one that happened to be running. Each
//! implementation first runs untimed for a warm-up slice (caches, branch predictors, clock
//! ramp-up).
//!
//! The divisor is the thread's CPU time, like `openssl speed`'s user time, unless `-elapsed`
//! asks for wall-clock time. With `-multi N`, N threads run the same implementation at once
//! (each with its own object and buffer) and their throughputs are summed.

use std::sync::Barrier;
use std::time::{Duration, Instant};

use crate::algs::{Op, Out};
use crate::sys;

/// How to build one implementation's object; called once per thread and round, outside the
/// timed region.
pub type Maker<'a> = &'a (dyn Fn() -> Box<dyn Op> + Sync);

/// Totals of one implementation in one cell.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sample {
    /// Operations (messages) processed, over all threads.
    pub ops: u64,
    /// Bytes processed, over all threads.
    pub bytes: u64,
    /// Wall-clock seconds measured (the longest thread of each round, summed over rounds).
    pub wall: f64,
    /// Bytes per second: each thread's bytes over its own time (CPU or wall), summed over
    /// threads.
    pub rate: f64,
    /// Counter ticks per byte, when `--cycles` asked for them.
    pub ticks_per_byte: Option<f64>,
    /// Whether the divisor was the threads' CPU time (else wall-clock time).
    pub cpu_time: bool,
    /// How far past a 64-byte boundary the message buffers started (`-misalign`), as
    /// observed on the buffers handed to the implementation.
    pub buffer_offset: usize,
}

/// Settings shared by every cell.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Wall-clock time per implementation per cell, warm-up excluded.
    pub seconds: f64,
    /// Threads (`-multi`).
    pub threads: usize,
    /// Divide by wall-clock instead of CPU time (`-elapsed`).
    pub elapsed: bool,
    /// Read the cycle counter (`--cycles`).
    pub cycles: bool,
    /// Bytes past a 64-byte boundary where each message buffer starts (`-misalign`).
    pub misalign: usize,
}

/// Rounds per cell: enough to interleave, few enough that each slice dwarfs the set-up.
const ROUNDS: u32 = 4;

/// Per-thread totals.
#[derive(Clone, Copy, Debug, Default)]
struct Part {
    ops: u64,
    wall: f64,
    cpu: Option<f64>,
    ticks: u64,
    /// The buffer's address modulo 64.
    offset: usize,
}

impl Part {
    fn add(&mut self, o: Part) {
        self.ops += o.ops;
        self.wall += o.wall;
        self.cpu = match (self.cpu, o.cpu) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
        self.ticks += o.ticks;
        self.offset = o.offset;
    }
}

/// Runs `op` on `buf` for `slice` of wall-clock time.
fn run_slice(op: &mut dyn Op, buf: &mut [u8], slice: Duration) -> Part {
    let mut out: Out = [0; 64];
    let cpu0 = sys::thread_cpu_time();
    let t0 = Instant::now();
    let k0 = sys::ticks();
    let mut ops = 0u64;
    let mut batch = 1u64;
    let elapsed = loop {
        for _ in 0..batch {
            std::hint::black_box(op.run(std::hint::black_box(&mut *buf), &mut out));
        }
        ops += batch;
        let e = t0.elapsed();
        if e >= slice {
            break e;
        }
        // About 64 clock reads per slice: negligible next to the work, fine-grained enough
        // not to overshoot.
        let per_op = e.as_secs_f64() / ops as f64;
        batch = ((slice.as_secs_f64() / 64.0 / per_op.max(1e-9)) as u64).clamp(1, 1 << 24);
    };
    let k1 = sys::ticks();
    let cpu1 = sys::thread_cpu_time();
    std::hint::black_box(&out);
    Part {
        ops,
        wall: elapsed.as_secs_f64(),
        cpu: match (cpu0, cpu1) {
            (Some(a), Some(b)) => Some(b.saturating_sub(a).as_secs_f64()),
            _ => None,
        },
        ticks: k1.wrapping_sub(k0),
        offset: buf.as_ptr() as usize % ALIGN,
    }
}

/// The boundary `-misalign` counts from.
const ALIGN: usize = 64;

/// A message buffer of `size` bytes starting `misalign` bytes past a 64-byte boundary.
struct Buffer {
    storage: Vec<u8>,
    start: usize,
    size: usize,
}

impl Buffer {
    fn new(size: usize, misalign: usize) -> Self {
        let mut storage = vec![0u8; size + misalign + ALIGN];
        let aligned = storage.as_ptr().align_offset(ALIGN);
        let start = aligned + misalign;
        for (i, b) in storage[start..start + size].iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(31);
        }
        Buffer {
            storage,
            start,
            size,
        }
    }

    fn bytes(&mut self) -> &mut [u8] {
        &mut self.storage[self.start..self.start + self.size]
    }
}

/// A fresh object and its buffer, prepared (untimed), then one timed slice.
fn one_slice(make: Maker<'_>, size: usize, misalign: usize, slice: Duration) -> Part {
    let mut op = make();
    let mut buf = Buffer::new(size, misalign);
    op.prepare(buf.bytes());
    run_slice(op.as_mut(), buf.bytes(), slice)
}

/// One slice of one implementation on `threads` threads; one `Part` per thread.
fn run_threads(
    make: Maker<'_>,
    size: usize,
    misalign: usize,
    slice: Duration,
    threads: usize,
) -> Vec<Part> {
    if threads <= 1 {
        return vec![one_slice(make, size, misalign, slice)];
    }
    let barrier = Barrier::new(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let barrier = &barrier;
                s.spawn(move || {
                    let mut op = make();
                    let mut buf = Buffer::new(size, misalign);
                    op.prepare(buf.bytes());
                    barrier.wait();
                    run_slice(op.as_mut(), buf.bytes(), slice)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("measurement thread panicked"))
            .collect()
    })
}

/// Measures every implementation in `makers` at `size`, interleaved; one `Sample` each, in
/// the same order.
pub fn cell(makers: &[Maker<'_>], size: usize, s: &Settings) -> Vec<Sample> {
    let n = makers.len();
    let slice = Duration::from_secs_f64(s.seconds / f64::from(ROUNDS));
    let warm = Duration::from_secs_f64((s.seconds / 10.0).clamp(0.0005, 0.05));
    for m in makers {
        run_threads(*m, size, s.misalign, warm, s.threads);
    }
    // CPU time sums start at zero; one slice without a CPU clock makes the sum `None`.
    let zero = Part {
        cpu: Some(0.0),
        ..Part::default()
    };
    let mut parts: Vec<Vec<Part>> = vec![vec![zero; s.threads]; n];
    let mut walls = vec![0f64; n];
    for r in 0..ROUNDS as usize {
        for k in 0..n {
            let i = (k + r) % n;
            let got = run_threads(makers[i], size, s.misalign, slice, s.threads);
            walls[i] += got.iter().map(|p| p.wall).fold(0.0, f64::max);
            for (acc, p) in parts[i].iter_mut().zip(got) {
                acc.add(p);
            }
        }
    }
    parts
        .into_iter()
        .zip(walls)
        .map(|(ps, wall)| summarize(&ps, size, wall, s))
        .collect()
}

fn summarize(parts: &[Part], size: usize, wall: f64, s: &Settings) -> Sample {
    let mut sample = Sample {
        wall,
        ..Sample::default()
    };
    let mut ticks = 0u64;
    sample.cpu_time = !s.elapsed;
    for p in parts {
        let bytes = p.ops * size as u64;
        sample.ops += p.ops;
        sample.bytes += bytes;
        let secs = match (s.elapsed, p.cpu) {
            (false, Some(c)) if c > 0.0 => c,
            _ => {
                sample.cpu_time = false;
                p.wall
            }
        };
        if secs > 0.0 {
            sample.rate += bytes as f64 / secs;
        }
        ticks = ticks.wrapping_add(p.ticks);
        sample.buffer_offset = p.offset;
    }
    if s.cycles && sys::counter().is_some() && sample.bytes > 0 {
        sample.ticks_per_byte = Some(ticks as f64 / sample.bytes as f64);
    }
    sample
}

/// Throughput of one implementation at one size, alone: for the `cpu` report.
pub fn quick(make: Maker<'_>, size: usize, seconds: f64) -> f64 {
    let s = Settings {
        seconds,
        threads: 1,
        elapsed: false,
        cycles: false,
        misalign: 0,
    };
    cell(&[make], size, &s)[0].rate
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algs::registry;

    #[test]
    fn buffers_sit_where_misalign_says() {
        for misalign in [0, 1, 7, 63, 64] {
            for size in [1, 16, 1000] {
                let mut b = Buffer::new(size, misalign);
                let p = b.bytes();
                assert_eq!(p.len(), size);
                assert_eq!(p.as_ptr() as usize % ALIGN, misalign % ALIGN);
                let i = 1 % size;
                assert_eq!(p[i], (i as u8).wrapping_mul(31));
            }
        }
    }

    /// The default divisor really is CPU time where the platform has a thread CPU clock
    /// (a sum that silently fell back to wall-clock time once hid here).
    #[test]
    fn cpu_time_is_the_default_divisor() {
        let reg = registry();
        let peer = &reg[0].peers[0];
        let mut s = Settings {
            seconds: 0.004,
            threads: 1,
            elapsed: false,
            cycles: false,
            misalign: 0,
        };
        let got = cell(&[&*peer.make], 64, &s)[0];
        assert!(got.ops > 0 && got.rate > 0.0);
        assert_eq!(got.cpu_time, sys::thread_cpu_time().is_some());
        s.elapsed = true;
        s.threads = 2;
        let got = cell(&[&*peer.make], 64, &s)[0];
        assert!(!got.cpu_time && got.rate > 0.0);
    }
}
