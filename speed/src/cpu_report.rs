//! `simdcrypt-speed cpu`: the CPU model, its features, what `SIMDCRYPT_DISABLE` removed, the
//! kernel each primitive uses, and plain-language warnings where a feature users expect is
//! missing, with the slow-down measured where this machine can measure it.

use std::fmt::Write;

use simdcrypt::cpu::{self, Features};

use crate::algs::Algorithm;
use crate::measure;
use crate::sys;

/// A feature users expect on this architecture: its name in the feature table, how people
/// call it, the algorithm whose speed shows it, and what it speeds up.
struct Expected {
    feature: &'static str,
    label: &'static str,
    witness: &'static str,
    speeds_up: &'static str,
}

const fn e(
    feature: &'static str,
    label: &'static str,
    witness: &'static str,
    speeds_up: &'static str,
) -> Expected {
    Expected {
        feature,
        label,
        witness,
        speeds_up,
    }
}

#[cfg(target_arch = "x86_64")]
const EXPECTED: &[Expected] = &[
    e("aes", "AES-NI", "aes-128-ctr", "AES (GCM, CTR, CBC)"),
    e("pclmulqdq", "PCLMULQDQ", "aes-128-gcm", "GHASH in AES-GCM"),
    e("sha", "SHA-NI", "sha256", "SHA-1 and SHA-256"),
    e("avx2", "AVX2", "sha512", "SHA-512, ChaCha20 and Poly1305"),
];
#[cfg(target_arch = "aarch64")]
const EXPECTED: &[Expected] = &[
    e(
        "aes",
        "the ARMv8 AES instructions",
        "aes-128-ctr",
        "AES (GCM, CTR, CBC)",
    ),
    e("pmull", "PMULL", "aes-128-gcm", "GHASH in AES-GCM"),
    e(
        "sha2",
        "the ARMv8 SHA-256 instructions",
        "sha256",
        "SHA-256",
    ),
];
#[cfg(target_arch = "arm")]
const EXPECTED: &[Expected] = &[
    e("neon", "NEON", "sha512", "SHA-512, ChaCha20 and Poly1305"),
    e(
        "aes",
        "the AArch32 AES instructions",
        "aes-128-ctr",
        "AES (GCM, CTR, CBC)",
    ),
    e("pmull", "VMULL.P64", "aes-128-gcm", "GHASH in AES-GCM"),
    e(
        "sha2",
        "the AArch32 SHA-256 instructions",
        "sha256",
        "SHA-256",
    ),
];
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64", target_arch = "arm")))]
const EXPECTED: &[Expected] = &[];

/// The message size of the slow-down measurements: long enough that the kernel, not the
/// per-message set-up, dominates.
const SIZE: usize = 8192;

/// The whole report. `seconds`: measurement time per kernel for the slow-down figures.
pub fn report(registry: &[Algorithm], seconds: f64) -> String {
    let hw = Features::hardware();
    let now = Features::detect();
    let masked = Features::masked_by_env();
    let mut s = String::new();
    let _ = writeln!(s, "CPU:          {}", sys::cpu_model());
    if let Some(brand) = sys::cpuid_brand() {
        if brand != sys::cpu_model() {
            let _ = writeln!(s, "CPUID brand:  {brand}");
        }
    }
    let _ = writeln!(s, "Architecture: {}", std::env::consts::ARCH);
    let _ = writeln!(s, "Hardware:     {}", list(hw));
    let env = std::env::var("SIMDCRYPT_DISABLE").ok();
    let _ = match &env {
        None => writeln!(s, "Disabled:     none (SIMDCRYPT_DISABLE is not set)"),
        Some(v) => writeln!(
            s,
            "Disabled:     {} (SIMDCRYPT_DISABLE={v})",
            if masked.is_empty() {
                "nothing this CPU has".to_string()
            } else {
                masked.to_string()
            }
        ),
    };
    let _ = writeln!(s, "In use:       {}", list(now));
    if cfg!(target_arch = "aarch64") {
        // The kernel order can depend on the core model (simdcrypt::cpu::core).
        let c = cpu::core();
        let midr = c
            .midr
            .map(|m| format!(", MIDR_EL1 {m:#010x}"))
            .unwrap_or_default();
        let name = c.name.unwrap_or("not identified");
        let _ = writeln!(s, "Core:         {name}{midr}: {}", c.source);
        for x in c.changes {
            let _ = writeln!(
                s,
                "              {}: '{}' before '{}' on this core (model estimates {:.2} and \
                 {:.2} cycles/byte, docs/arm-model.md)",
                x.primitive,
                x.first,
                x.instead_of,
                f64::from(x.first_cpb_x100) / 100.0,
                f64::from(x.instead_of_cpb_x100) / 100.0
            );
        }
    }

    let _ = writeln!(s, "\nFeatures:");
    for info in cpu::table() {
        let state = if now.has(info.name) {
            "yes"
        } else if hw.has(info.name) {
            "masked by SIMDCRYPT_DISABLE"
        } else {
            "no"
        };
        let _ = writeln!(s, "  {:<12} {:<45} {state}", info.name, info.description);
    }

    let _ = writeln!(
        s,
        "\nKernels (what a new object uses now; best first among those available):"
    );
    // Columns as wide as their longest entry (`aes-128-cbc-decrypt`, the AEADs' kernel pairs).
    let kernels: Vec<(&str, Option<Vec<&str>>)> = registry
        .iter()
        .map(|alg| {
            let avail = alg
                .simdcrypt
                .as_ref()
                .map(|simd| (simd.backends)(now).iter().map(|b| b.0).collect());
            (alg.name, avail)
        })
        .collect();
    let name_w = kernels.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let kernel_w = kernels
        .iter()
        .filter_map(|(_, k)| k.as_ref().and_then(|k| k.first()).map(|k| k.len()))
        .max()
        .unwrap_or(0);
    for (name, avail) in &kernels {
        match avail {
            None => {
                let _ = writeln!(s, "  {name:<name_w$} not implemented yet");
            }
            Some(avail) => {
                let _ = writeln!(
                    s,
                    "  {name:<name_w$} {:<kernel_w$} (available: {})",
                    avail[0],
                    avail.join(", ")
                );
            }
        }
    }

    let mut warnings = Vec::new();
    for x in EXPECTED {
        if now.has(x.feature) {
            continue;
        }
        warnings.push(warning(x, registry, hw, now, seconds));
    }
    if warnings.is_empty() {
        let _ = writeln!(
            s,
            "\nNo warnings: every feature simdcrypt's fast kernels expect here is present."
        );
    } else {
        let _ = writeln!(s, "\nWarnings:");
        for w in warnings {
            let _ = writeln!(s, "  - {w}");
        }
    }
    s
}

fn list(f: Features) -> String {
    if f.is_empty() {
        "none".into()
    } else {
        f.iter().collect::<Vec<_>>().join(" ")
    }
}

/// The warning for a missing feature, with what this machine can measure about it.
fn warning(x: &Expected, registry: &[Algorithm], hw: Features, now: Features, secs: f64) -> String {
    let present = hw.has(x.feature);
    let head = if present {
        format!(
            "{} is present but SIMDCRYPT_DISABLE hides it ({} is what it speeds up)",
            x.label, x.speeds_up
        )
    } else {
        format!(
            "{} not visible (hypervisors sometimes hide it; {} is what it speeds up)",
            x.label, x.speeds_up
        )
    };
    let Some(simd) = registry
        .iter()
        .find(|a| a.name == x.witness)
        .and_then(|a| a.simdcrypt.as_ref())
    else {
        return format!(
            "{head}: {} is not implemented in simdcrypt yet, so there is nothing to measure.",
            x.witness
        );
    };
    let rate = |f: Features| measure::quick(&|| (simd.make)(f), SIZE, secs);
    let mbs = |r: f64| r / 1e6;
    let used = (simd.backends)(now)[0];
    if present {
        // Both kernels can run here: the best with the feature, and the best without it.
        let with = (simd.backends)(hw)[0];
        let without_f = hw.without(x.feature).unwrap_or(Features::none());
        let without = (simd.backends)(without_f)[0];
        if with.0 == without.0 {
            return format!(
                "{head}: no {} kernel in this build uses it ({} runs '{}' either way), so hiding \
                 it changes nothing.",
                x.witness, x.witness, with.0
            );
        }
        let fast = rate(with.1);
        let slow = rate(without.1);
        format!(
            "{head}: {} uses the '{}' kernel instead of '{}', measured {:.1}x slower \
             ({:.0} vs {:.0} MB/s at {SIZE}-byte messages).",
            x.witness,
            without.0,
            with.0,
            fast / slow.max(1.0),
            mbs(slow),
            mbs(fast)
        )
    } else {
        let r = rate(used.1);
        format!(
            "{head}: {} uses the '{}' kernel here, measured {:.0} MB/s at {SIZE}-byte messages. \
             This machine cannot run the {} kernel, so how much faster it would be cannot be \
             measured here.",
            x.witness,
            used.0,
            mbs(r),
            x.label
        )
    }
}
