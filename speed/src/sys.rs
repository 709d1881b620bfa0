//! What the operating system and the CPU tell: the CPU model, the thread's CPU time, and the
//! cycle counters behind `--cycles`.

use std::time::Duration;

/// The CPU model: `/proc/cpuinfo` on Linux, else the CPUID brand string on x86_64.
pub fn cpu_model() -> String {
    if let Some(m) = proc_cpuinfo_model() {
        return m;
    }
    if let Some(m) = cpuid_brand() {
        return m;
    }
    "unknown".to_string()
}

/// `model name` (x86, some ARM kernels), else `Hardware`/`Model` (32-bit ARM boards, Raspberry
/// Pi), else the implementer and part numbers of the first core (arm64 kernels print nothing
/// more).
fn proc_cpuinfo_model() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let field = |key: &str| {
        text.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            (k.trim() == key && !v.trim().is_empty()).then(|| v.trim().to_string())
        })
    };
    field("model name")
        .or_else(|| field("Model"))
        .or_else(|| field("Hardware"))
        .or_else(|| {
            let imp = field("CPU implementer")?;
            let part = field("CPU part")?;
            Some(format!("implementer {imp}, part {part}"))
        })
}

/// CPUID leaves 0x8000_0002..=0x8000_0004: the 48-byte processor brand string (Intel SDM
/// vol. 2A, CPUID, "Processor Brand String").
#[cfg(target_arch = "x86_64")]
pub fn cpuid_brand() -> Option<String> {
    use std::arch::x86_64::__cpuid;
    #[allow(unused_unsafe)]
    // SAFETY: CPUID exists on every x86_64 CPU; leaf 0x8000_0000 reports the highest
    // extended leaf, and the brand leaves are read only when it covers them.
    let max = unsafe { __cpuid(0x8000_0000) }.eax;
    if max < 0x8000_0004 {
        return None;
    }
    let mut bytes = Vec::with_capacity(48);
    for leaf in 0x8000_0002u32..=0x8000_0004 {
        #[allow(unused_unsafe)]
        // SAFETY: as above; `leaf` <= max.
        let r = unsafe { __cpuid(leaf) };
        for w in [r.eax, r.ebx, r.ecx, r.edx] {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
    }
    let s = String::from_utf8_lossy(&bytes);
    let s = s.trim_matches(char::from(0)).trim().to_string();
    (!s.is_empty()).then_some(s)
}

/// No brand string outside x86_64.
#[cfg(not(target_arch = "x86_64"))]
pub fn cpuid_brand() -> Option<String> {
    None
}

/// CPU time this thread has used (`CLOCK_THREAD_CPUTIME_ID`), the default divisor, like
/// `openssl speed`'s user time: time the scheduler gave to other processes does not count.
#[cfg(unix)]
pub fn thread_cpu_time() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant the C library
    // defines for this platform.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if r != 0 {
        return None;
    }
    Some(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

/// No per-thread CPU clock here: the caller falls back to wall-clock time.
#[cfg(not(unix))]
pub fn thread_cpu_time() -> Option<Duration> {
    None
}

/// The counter `--cycles` reads, and how to label it.
pub struct Counter {
    /// Names the source in the table heading.
    pub label: &'static str,
}

/// The cycle counter of this architecture, if it has one we read.
pub fn counter() -> Option<Counter> {
    if cfg!(target_arch = "x86_64") {
        Some(Counter {
            label: "TSC ticks per byte (estimate: the TSC ticks at a fixed rate, not the core clock)",
        })
    } else if cfg!(target_arch = "aarch64") {
        Some(Counter {
            label: "generic-timer (CNTVCT_EL0) ticks per byte (estimate: the timer ticks at a fixed \
                    rate, usually far below the core clock)",
        })
    } else {
        None
    }
}

/// The counter now (0 where there is none).
#[inline]
pub fn ticks() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        #[allow(unused_unsafe)]
        // SAFETY: RDTSC exists on every x86_64 CPU and only reads the time-stamp counter.
        unsafe {
            std::arch::x86_64::_rdtsc()
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        let v: u64;
        // SAFETY: CNTVCT_EL0 is readable from EL0 on Linux and macOS (the kernel sets
        // CNTKCTL_EL1.EL0VCTEN); reading it touches no memory.
        unsafe {
            std::arch::asm!("mrs {v}, cntvct_el0", v = out(reg) v, options(nomem, nostack));
        }
        v
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        0
    }
}
