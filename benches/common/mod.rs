//! When the benches sweep every backend: shared by `benches/*.rs` and by
//! `speed/benches/peers.rs` (included there by `#[path]`).
//!
//! A plain `cargo bench` measures the default set only (`speed/benches/peers.rs`: simdcrypt's
//! kernel for this CPU beside ring, aws-lc-rs and RustCrypto, a few minutes). The sweep over
//! every backend this CPU has (`benches/*.rs`: about 920 benchmarks, two hours at criterion's
//! defaults) runs when `SIMDCRYPT_BENCH_ALL` is set to anything but empty or `0`, and always in
//! criterion's test mode (`cargo bench -- --test`, `cargo test --benches`), where each
//! benchmark runs once: cheap, and it checks every backend.

/// Whether `SIMDCRYPT_BENCH_ALL` asks for the sweep (set, and neither empty nor `0`).
fn requested() -> bool {
    std::env::var_os("SIMDCRYPT_BENCH_ALL").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Whether criterion runs each benchmark once instead of measuring it: its own reading of
/// the arguments (`--test`, or no `--bench`, which `cargo bench` passes and `cargo test` does
/// not), except `--list`, which lists what a measuring run would run.
fn test_mode() -> bool {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let has = |flag: &str| args.iter().any(|a| a == flag);
    !has("--list") && (has("--test") || !has("--bench"))
}

/// Whether to run every backend (the sweep) rather than the default set.
pub fn sweep() -> bool {
    requested() || test_mode()
}

/// For the sweep-only benches (`benches/*.rs`): whether to run; if not, says once on stderr
/// how to.
#[allow(dead_code)]
pub fn sweep_or_note(bench: &str) -> bool {
    let run = sweep();
    if !run {
        eprintln!(
            "benches/{bench}.rs: the sweep over every backend is skipped; \
             SIMDCRYPT_BENCH_ALL=1 runs it (the default set is speed/benches/peers.rs)"
        );
    }
    run
}
