//! Which aarch64 core this is, and where that changes the order of the kernels.
//!
//! Detection by features (`cpu/aarch64.rs`) says which kernels *can* run; on most cores the
//! best of them is the same everywhere. Where the static models of `docs/arm-model.md`
//! (`scripts/mca`, llvm-mca 14) show a scalar kernel clearly ahead of the vector one on some
//! core, the dispatch order for that core is changed here, and only here.
//!
//! Everything in this file is pure (MIDR values and sysfs text in, decisions out), so it is
//! compiled and unit-tested on every host; the reads themselves live in `cpu/aarch64.rs`.
//!
//! # Identification: MIDR_EL1
//!
//! The core model is the implementer (bits 31:24) and part number (bits 15:4) of MIDR_EL1,
//! as in Linux's `arch/arm64/include/asm/cputype.h`. Linux offers two ways to read it:
//!
//! * `/sys/devices/system/cpu/cpuN/regs/identification/midr_el1` (Linux 4.11+), one file per
//!   online CPU. This is the one used first: it lists *every* core, so a big.LITTLE system
//!   (e.g. Cortex-A55 with A76, or Apple's two core types) is seen as mixed.
//! * `mrs x, midr_el1` at EL0, which traps and is emulated by the kernel when `HWCAP_CPUID`
//!   is set. It returns the MIDR of the core the thread happens to run on at that instant,
//!   which on a mixed system says nothing about the next instant. It is the fallback when
//!   sysfs has no such files (containers without `/sys`, qemu-user, whose guest sees the
//!   host's `/sys`); it is what the qemu tests exercise.
//!
//! Any failure (no file, unreadable or malformed text, no `HWCAP_CPUID`) leaves the core
//! unknown, and an unknown core gets the default order: the one used before this table
//! existed. So do mixed cores: a process may run on either kind, and the default order is
//! the one that was chosen without knowing the core.

use super::OrderChange;

/// A core model that the per-core order knows. Each is one column of the model tables in
/// `docs/arm-model.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Core {
    /// Arm Cortex-A53 (in-order, dual issue; Raspberry Pi 3).
    CortexA53,
    /// Arm Cortex-A55 (in-order).
    CortexA55,
    /// Arm Cortex-A57.
    CortexA57,
    /// Arm Cortex-A72 (Raspberry Pi 4; LLVM models it with the A57 model).
    CortexA72,
    /// Cavium ThunderX (CN88xx, CN81xx, CN83xx).
    ThunderX,
    /// Cavium (formerly Broadcom Vulcan) ThunderX2.
    ThunderX2,
    /// Any Apple core (LLVM models all of them up to M1 with its Cyclone model).
    Apple,
}

impl Core {
    /// The name shown in reports.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Core::CortexA53 => "Cortex-A53",
            Core::CortexA55 => "Cortex-A55",
            Core::CortexA57 => "Cortex-A57",
            Core::CortexA72 => "Cortex-A72",
            Core::ThunderX => "ThunderX",
            Core::ThunderX2 => "ThunderX2",
            Core::Apple => "Apple",
        }
    }
}

/// Implementer, architecture and part number: the bits that name a core model (variant and
/// revision, the steppings of one model, are left out).
pub(crate) const MODEL_MASK: u64 = 0xff0f_fff0;

/// The core model of a MIDR_EL1 value, if the table knows it. Implementer and part numbers
/// from Linux `arch/arm64/include/asm/cputype.h`: Arm 0x41 (A53 0xd03, A55 0xd05, A57 0xd07,
/// A72 0xd08), Cavium 0x43 (ThunderX 0x0a1, ThunderX 81xx 0x0a2, ThunderX 83xx 0x0a3,
/// ThunderX2 0x0af), Broadcom 0x42 (Vulcan 0x516, which became ThunderX2), Apple 0x61.
pub(crate) const fn from_midr(midr: u64) -> Option<Core> {
    let implementer = (midr >> 24) & 0xff;
    let part = (midr >> 4) & 0xfff;
    Some(match (implementer, part) {
        (0x41, 0xd03) => Core::CortexA53,
        (0x41, 0xd05) => Core::CortexA55,
        (0x41, 0xd07) => Core::CortexA57,
        (0x41, 0xd08) => Core::CortexA72,
        (0x43, 0x0a1..=0x0a3) => Core::ThunderX,
        (0x43, 0x0af) | (0x42, 0x516) => Core::ThunderX2,
        (0x61, _) => Core::Apple,
        _ => return None,
    })
}

/// The MIDR_EL1 value in the text of a sysfs `midr_el1` file: `0x` and 16 hex digits and a
/// newline (Linux prints it with `"0x%016llx\n"`). `None` for anything else.
pub(crate) fn parse_sysfs_midr(text: &str) -> Option<u64> {
    let hex = text.trim().strip_prefix("0x")?;
    if hex.is_empty() || hex.len() > 16 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u64::from_str_radix(hex, 16).ok()
}

/// What identification found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Identified {
    /// Nothing could be read.
    Unknown,
    /// Every core read has this MIDR model (`midr` is the first one read; `cpus` how many
    /// agreed; 1 for the `mrs` fallback, which sees one core).
    Same { midr: u64, cpus: u32, sysfs: bool },
    /// Cores of different models (big.LITTLE), or a file that could not be parsed: the
    /// default order applies.
    Mixed { first: u64, other: u64 },
}

impl Identified {
    /// The core model whose order applies: only when every core agrees and the table knows it.
    pub(crate) const fn core(self) -> Option<Core> {
        match self {
            Identified::Same { midr, .. } => from_midr(midr),
            _ => None,
        }
    }
}

/// Combines the texts of every CPU's sysfs `midr_el1` file (`None` for a file that exists but
/// could not be read as text). All must parse and name the same model.
pub(crate) fn combine_sysfs<'a>(texts: impl IntoIterator<Item = Option<&'a str>>) -> Identified {
    let mut out = Identified::Unknown;
    for t in texts {
        // A file that cannot be read or parsed counts as a core of an unknown model.
        let midr = t.and_then(parse_sysfs_midr);
        out = match (out, midr) {
            (Identified::Mixed { .. }, _) => out,
            (Identified::Unknown, Some(m)) => Identified::Same {
                midr: m,
                cpus: 1,
                sysfs: true,
            },
            (Identified::Unknown, None) => Identified::Mixed { first: 0, other: 0 },
            (Identified::Same { midr, cpus, sysfs }, Some(m))
                if m & MODEL_MASK == midr & MODEL_MASK =>
            {
                Identified::Same {
                    midr,
                    cpus: cpus + 1,
                    sysfs,
                }
            }
            (Identified::Same { midr, .. }, m) => Identified::Mixed {
                first: midr,
                other: m.unwrap_or(0),
            },
        };
    }
    out
}

/// A primitive that has a scalar and a vector kernel of comparable speed on some core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Primitive {
    /// ChaCha20: `neon` against the portable `soft`.
    ChaCha20,
    /// Poly1305: `neon` against the portable `soft-64`.
    Poly1305,
    /// SHA-256 (and SHA-224, same kernels) without the SHA-2 instructions: `neon` (message
    /// schedule on NEON, rounds scalar) against the portable unrolled `soft`.
    Sha256,
}

/// Every primitive of the table.
pub(crate) const ALL_PRIMITIVES: [Primitive; 3] =
    [Primitive::ChaCha20, Primitive::Poly1305, Primitive::Sha256];

/// One row of the model table: cycles per byte ×100 of the vector and the scalar kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Model {
    pub(crate) core: Core,
    pub(crate) primitive: Primitive,
    /// `neon`, model estimate, cycles/byte ×100.
    pub(crate) vector: u16,
    /// The portable kernel, model estimate, cycles/byte ×100.
    pub(crate) scalar: u16,
}

const fn m(core: Core, primitive: Primitive, vector: u16, scalar: u16) -> Model {
    Model {
        core,
        primitive,
        vector,
        scalar,
    }
}

/// The model estimates of `docs/arm-model.md` (`scripts/mca --markdown`, llvm-mca 14),
/// cycles/byte ×100: "chacha20 neon (4 blocks, rounds only)" against "chacha20 soft (scalar,
/// rounds only)", "poly1305 neon (4 blocks)" against "poly1305 soft64", "sha256 neon (schedule
/// on NEON, rounds scalar)" against "sha256 soft (portable, unrolled; traced)". A72 uses the
/// A57 model. The other primitives have no row, as no scalar kernel models ahead of their first
/// kernel on any core: the crypto-extension kernels lead the next one by 2.3–9.9x (AES, against
/// bitsliced NEON, or vpaes for CBC encryption), 8–11x (PMULL GHASH), 2.5–6.6x (SHA-1),
/// 3.7–8.9x (SHA-256) and 1.4–8.9x (SHA-512; least on the in-order A53 and ThunderX models,
/// 7.23 against 10.59 and 7.26 against 9.93); without PMULL the 8-bit NEON GHASH leads the
/// scalar `ctmul-64` by 2.0–4.6x; without AES the bitsliced NEON kernel leads vpaes by 1.3–2.3x
/// (the portable AES is not modelled); SHA-1 and SHA-512 have no NEON kernel. SHA-256's rows
/// matter only without the SHA-2 instructions: with them `armv8-ce` goes first on every core.
pub(crate) const MODEL: &[Model] = &[
    m(Core::CortexA53, Primitive::ChaCha20, 656, 1125),
    m(Core::CortexA55, Primitive::ChaCha20, 442, 1125),
    m(Core::CortexA57, Primitive::ChaCha20, 360, 758),
    m(Core::CortexA72, Primitive::ChaCha20, 360, 758),
    m(Core::ThunderX, Primitive::ChaCha20, 664, 828),
    m(Core::ThunderX2, Primitive::ChaCha20, 727, 758),
    m(Core::Apple, Primitive::ChaCha20, 219, 1500),
    m(Core::CortexA53, Primitive::Poly1305, 266, 256),
    m(Core::CortexA55, Primitive::Poly1305, 208, 256),
    m(Core::CortexA57, Primitive::Poly1305, 126, 132),
    m(Core::CortexA72, Primitive::Poly1305, 126, 132),
    m(Core::ThunderX, Primitive::Poly1305, 270, 206),
    m(Core::ThunderX2, Primitive::Poly1305, 187, 132),
    m(Core::Apple, Primitive::Poly1305, 96, 163),
    m(Core::CortexA53, Primitive::Sha256, 2283, 1697),
    m(Core::CortexA55, Primitive::Sha256, 1638, 1648),
    m(Core::CortexA57, Primitive::Sha256, 874, 1009),
    m(Core::CortexA72, Primitive::Sha256, 874, 1009),
    m(Core::ThunderX, Primitive::Sha256, 2513, 1556),
    m(Core::ThunderX2, Primitive::Sha256, 1597, 1597),
    m(Core::Apple, Primitive::Sha256, 1816, 2630),
];

/// How much faster, in per cent, the scalar kernel must model to go first: the models are
/// static estimates (within about 35 % of published figures on the out-of-order cores, worse
/// on the in-order ones), so a small lead is noise and the default order stays.
pub(crate) const MARGIN_PERCENT: u32 = 10;

/// The model row of `core` and `primitive`.
pub(crate) fn model(core: Core, primitive: Primitive) -> Option<Model> {
    MODEL
        .iter()
        .copied()
        .find(|r| r.core == core && r.primitive == primitive)
}

/// Whether the scalar kernel goes before the vector one on `core` (`None`: unknown or mixed
/// cores, the default order: vector first). True only where the vector kernel models more
/// than [`MARGIN_PERCENT`] slower.
pub(crate) fn scalar_first(core: Option<Core>, primitive: Primitive) -> bool {
    core.and_then(|c| model(c, primitive))
        .is_some_and(scalar_ahead)
}

/// Whether a model row puts the scalar kernel ahead by more than [`MARGIN_PERCENT`].
pub(crate) const fn scalar_ahead(r: Model) -> bool {
    r.vector as u32 * 100 > r.scalar as u32 * (100 + MARGIN_PERCENT)
}

/// The vector and scalar kernel names of `primitive`.
const fn kernel_names(primitive: Primitive) -> (&'static str, &'static str) {
    match primitive {
        Primitive::ChaCha20 => ("neon", "soft"),
        Primitive::Poly1305 => ("neon", "soft-64"),
        Primitive::Sha256 => ("neon", "soft"),
    }
}

/// The primitive's name in `kernels()`.
const fn primitive_name(primitive: Primitive) -> &'static str {
    match primitive {
        Primitive::ChaCha20 => "chacha20",
        Primitive::Poly1305 => "poly1305",
        // SHA-224 uses the same kernels and the same order.
        Primitive::Sha256 => "sha256",
    }
}

/// Every core, in `Core` order (`ALL_CORES[c as usize] == c`).
pub(crate) const ALL_CORES: [Core; 7] = [
    Core::CortexA53,
    Core::CortexA55,
    Core::CortexA57,
    Core::CortexA72,
    Core::ThunderX,
    Core::ThunderX2,
    Core::Apple,
];

const NO_CHANGE: OrderChange = OrderChange {
    primitive: "",
    first: "",
    instead_of: "",
    first_cpb_x100: 0,
    instead_of_cpb_x100: 0,
};

/// The most order changes one core can have: one per primitive.
const MAX_CHANGES: usize = ALL_PRIMITIVES.len();

/// The order changes of `core`, computed from [`MODEL`] at compile time (at most one per
/// primitive; the count is the second value).
const fn changes_of(core: Core) -> ([OrderChange; MAX_CHANGES], usize) {
    let mut out = [NO_CHANGE; MAX_CHANGES];
    let mut n = 0;
    let mut i = 0;
    while i < MODEL.len() {
        let r = MODEL[i];
        if r.core as u8 == core as u8 && scalar_ahead(r) && n < out.len() {
            let (vector, scalar) = kernel_names(r.primitive);
            out[n] = OrderChange {
                primitive: primitive_name(r.primitive),
                first: scalar,
                instead_of: vector,
                first_cpb_x100: r.scalar,
                instead_of_cpb_x100: r.vector,
            };
            n += 1;
        }
        i += 1;
    }
    (out, n)
}

static CHANGES: [([OrderChange; MAX_CHANGES], usize); 7] = [
    changes_of(ALL_CORES[0]),
    changes_of(ALL_CORES[1]),
    changes_of(ALL_CORES[2]),
    changes_of(ALL_CORES[3]),
    changes_of(ALL_CORES[4]),
    changes_of(ALL_CORES[5]),
    changes_of(ALL_CORES[6]),
];

/// Where `core`'s kernel order differs from the default, with the model figures that
/// decided it (for `cpu::core()`).
pub(crate) fn changes(core: Option<Core>) -> &'static [OrderChange] {
    match core {
        Some(c) => {
            let (list, n) = &CHANGES[c as usize];
            &list[..*n]
        }
        None => &[],
    }
}

/// The preferred kernel order of `primitive` on `core` (backend names, best first; the
/// dispatch takes the first one the CPU's features allow).
pub(crate) fn order(core: Option<Core>, primitive: Primitive) -> [&'static str; 2] {
    let (vector, scalar) = kernel_names(primitive);
    if scalar_first(core, primitive) {
        [scalar, vector]
    } else {
        [vector, scalar]
    }
}

/// The tuning bits (`cpu::PREFER_*`) for `core`: what the dispatch reads.
pub(crate) fn tuning(core: Option<Core>) -> u64 {
    let mut bits = 0;
    if order(core, Primitive::Poly1305)[0] == "soft-64" {
        bits |= super::PREFER_SCALAR_POLY1305;
    }
    if order(core, Primitive::Sha256)[0] == "soft" {
        bits |= super::PREFER_SCALAR_SHA256;
    }
    bits
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    // MIDR values as the cores report them (variant/revision of a real stepping each).
    const A53_R0P4: u64 = 0x410f_d034;
    const A72_R0P3: u64 = 0x410f_d083;
    const A76_R4P0: u64 = 0x414f_d0b0;
    const THUNDERX_88XX: u64 = 0x431f_0a11;
    const THUNDERX2_CAVIUM: u64 = 0x431f_0af1;
    const THUNDERX2_BROADCOM: u64 = 0x420f_5160;

    #[test]
    fn midr_names_the_core() {
        assert_eq!(from_midr(A53_R0P4), Some(Core::CortexA53));
        assert_eq!(from_midr(0x410f_d050), Some(Core::CortexA55));
        assert_eq!(from_midr(0x411f_d071), Some(Core::CortexA57));
        assert_eq!(from_midr(A72_R0P3), Some(Core::CortexA72));
        assert_eq!(from_midr(THUNDERX_88XX), Some(Core::ThunderX));
        assert_eq!(from_midr(0x430f_0a20), Some(Core::ThunderX));
        assert_eq!(from_midr(0x430f_0a30), Some(Core::ThunderX));
        assert_eq!(from_midr(THUNDERX2_CAVIUM), Some(Core::ThunderX2));
        assert_eq!(from_midr(THUNDERX2_BROADCOM), Some(Core::ThunderX2));
        assert_eq!(from_midr(0x611f_0221), Some(Core::Apple));
        assert_eq!(
            from_midr(THUNDERX2_BROADCOM).map(Core::name),
            Some("ThunderX2")
        );
        // Not in the table: A76, Neoverse N1, a Cavium part that is not a ThunderX, an
        // Arm part number under another implementer, zero.
        assert_eq!(from_midr(A76_R4P0), None);
        assert_eq!(from_midr(0x413f_d0c1), None);
        assert_eq!(from_midr(0x430f_0b10), None);
        assert_eq!(from_midr(0x510f_d030), None);
        assert_eq!(from_midr(0), None);
        // Bits above 31 are RES0; a value with them set is not mistaken for another core.
        assert_eq!(
            from_midr(0xffff_ffff_0000_0000 | A53_R0P4),
            Some(Core::CortexA53)
        );
    }

    #[test]
    fn sysfs_text_parses_strictly() {
        assert_eq!(parse_sysfs_midr("0x00000000410fd034\n"), Some(A53_R0P4));
        assert_eq!(
            parse_sysfs_midr("0x00000000431F0AF1"),
            Some(THUNDERX2_CAVIUM)
        );
        for bad in [
            "",
            "\n",
            "0x",
            "410fd034",
            "0x00000000410fd03g",
            "0x1000000000000000000",
            "0x-1",
            "0x 41",
            "0x+41",
        ] {
            assert_eq!(parse_sysfs_midr(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn cores_must_agree() {
        let a53 = "0x00000000410fd034\n";
        let a53_other_rev = "0x00000000410fd030\n";
        let a72 = "0x00000000410fd083\n";
        let tx2 = "0x00000000431f0af1\n";
        assert_eq!(combine_sysfs([]), Identified::Unknown);
        assert_eq!(
            combine_sysfs([Some(a53), Some(a53_other_rev), Some(a53), Some(a53)]),
            Identified::Same {
                midr: A53_R0P4,
                cpus: 4,
                sysfs: true
            }
        );
        // big.LITTLE (Cortex-A53 with A72, as on a Rockchip RK3399): default order.
        let mixed = combine_sysfs([Some(a53), Some(a53), Some(a72), Some(a72)]);
        assert_eq!(
            mixed,
            Identified::Mixed {
                first: A53_R0P4,
                other: A72_R0P3
            }
        );
        assert_eq!(mixed.core(), None);
        // One unreadable or malformed file: nothing is assumed.
        assert_eq!(combine_sysfs([Some(tx2), None]).core(), None);
        assert_eq!(combine_sysfs([Some(tx2), Some("garbage")]).core(), None);
        assert_eq!(combine_sysfs([None, Some(tx2)]).core(), None);
        assert_eq!(
            combine_sysfs(std::iter::repeat_n(Some(tx2), 224)).core(),
            Some(Core::ThunderX2)
        );
    }

    /// The order follows the model figures with the margin: scalar Poly1305 first on ThunderX
    /// (2.70 against 2.06) and ThunderX2 (1.87 against 1.32); not on the A53, where the scalar
    /// kernel models 4 % ahead only (2.66 against 2.56) and OpenSSL measured NEON 1.8x ahead
    /// (1.47 against 2.69, `poly1305-armv8.pl`). SHA-256 (without the SHA-2 instructions):
    /// the unrolled portable kernel first on A53 (16.97 against 22.83) and ThunderX (15.56
    /// against 25.13); not on A57/A72 or Apple, where NEON models ahead, nor on A55 and
    /// ThunderX2 (within 1 %). ChaCha20: NEON first on every core.
    #[test]
    fn order_follows_the_model() {
        use super::super::{PREFER_SCALAR_POLY1305 as P, PREFER_SCALAR_SHA256 as S};
        use Primitive::*;
        for core in [
            Core::CortexA53,
            Core::CortexA55,
            Core::CortexA57,
            Core::CortexA72,
            Core::Apple,
        ] {
            assert_eq!(order(Some(core), Poly1305), ["neon", "soft-64"], "{core:?}");
            assert_eq!(tuning(Some(core)) & P, 0);
        }
        for core in [Core::ThunderX, Core::ThunderX2] {
            assert_eq!(order(Some(core), Poly1305), ["soft-64", "neon"], "{core:?}");
            assert_eq!(tuning(Some(core)) & P, P);
        }
        for core in [Core::CortexA53, Core::ThunderX] {
            assert_eq!(order(Some(core), Sha256), ["soft", "neon"], "{core:?}");
            assert_eq!(tuning(Some(core)) & S, S);
        }
        for core in [
            Core::CortexA55,
            Core::CortexA57,
            Core::CortexA72,
            Core::ThunderX2,
            Core::Apple,
        ] {
            assert_eq!(order(Some(core), Sha256), ["neon", "soft"], "{core:?}");
            assert_eq!(tuning(Some(core)) & S, 0);
        }
        // Every core's bits, whole: no other bit is set.
        let want = [S, 0, 0, 0, P | S, P, 0];
        for (c, w) in ALL_CORES.into_iter().zip(want) {
            assert_eq!(tuning(Some(c)), w, "{c:?}");
        }
        assert_eq!(order(None, Poly1305), ["neon", "soft-64"]);
        assert_eq!(order(None, Sha256), ["neon", "soft"]);
        assert_eq!(tuning(None), 0);
        // ChaCha20 has no tuning bit: if new figures ever put the scalar kernel first on a
        // core, this fails and the dispatch needs one.
        for r in MODEL {
            assert_eq!(
                order(Some(r.core), ChaCha20),
                ["neon", "soft"],
                "{:?}",
                r.core
            );
        }
        assert_eq!(order(None, ChaCha20), ["neon", "soft"]);
    }

    /// Every core has one row per primitive, and the margin decides (not a hard-coded list):
    /// nudging a figure across the margin flips the decision.
    #[test]
    fn model_table_is_complete_and_decides() {
        assert_eq!(MODEL.len(), ALL_CORES.len() * ALL_PRIMITIVES.len());
        for c in ALL_CORES {
            for p in ALL_PRIMITIVES {
                assert_eq!(
                    MODEL
                        .iter()
                        .filter(|r| r.core == c && r.primitive == p)
                        .count(),
                    1,
                    "{c:?} {p:?}"
                );
            }
        }
        // 2.56 × 1.10 = 2.816: a vector figure of 2.82 puts the scalar kernel first, 2.81 not.
        let p = Primitive::Poly1305;
        assert!(scalar_ahead(m(Core::CortexA53, p, 282, 256)));
        assert!(!scalar_ahead(m(Core::CortexA53, p, 281, 256)));
        assert!(!scalar_ahead(model(Core::CortexA53, p).unwrap()));
        assert!(scalar_ahead(model(Core::ThunderX2, p).unwrap()));
        // SHA-256 on the A55: 16.48 × 1.10 = 18.128, so NEON at 18.13 would lose, 18.12 not;
        // at its 16.38 it stays first.
        let p = Primitive::Sha256;
        assert!(scalar_ahead(m(Core::CortexA55, p, 1813, 1648)));
        assert!(!scalar_ahead(m(Core::CortexA55, p, 1812, 1648)));
        assert!(!scalar_ahead(model(Core::CortexA55, p).unwrap()));
        assert!(scalar_ahead(model(Core::CortexA53, p).unwrap()));
        assert!(!scalar_ahead(model(Core::CortexA57, p).unwrap()));
    }

    /// `changes` (what `cpu::core()` reports) lists exactly the decisions `order` makes, with
    /// the figures of the model row.
    #[test]
    fn changes_match_the_order() {
        for (i, c) in ALL_CORES.into_iter().enumerate() {
            assert_eq!(c as usize, i);
            let ch = changes(Some(c));
            let mut n = 0;
            for p in ALL_PRIMITIVES {
                let o = order(Some(c), p);
                let listed = ch.iter().find(|x| x.primitive == primitive_name(p));
                if scalar_first(Some(c), p) {
                    let x = listed.unwrap();
                    let r = model(c, p).unwrap();
                    assert_eq!((x.first, x.instead_of), (o[0], o[1]));
                    assert_eq!(
                        (x.first_cpb_x100, x.instead_of_cpb_x100),
                        (r.scalar, r.vector)
                    );
                    n += 1;
                } else {
                    assert!(listed.is_none(), "{c:?} {p:?}");
                }
            }
            // Nothing listed that `order` did not decide, and nothing dropped for room.
            assert_eq!(ch.len(), n, "{c:?}");
        }
        assert_eq!(changes(Some(Core::ThunderX2)).len(), 1);
        let tx: std::vec::Vec<_> = changes(Some(Core::ThunderX))
            .iter()
            .map(|x| (x.primitive, x.first, x.instead_of))
            .collect();
        assert_eq!(
            tx,
            [("poly1305", "soft-64", "neon"), ("sha256", "soft", "neon")]
        );
        let a53 = changes(Some(Core::CortexA53));
        assert_eq!(a53.len(), 1);
        assert_eq!(
            (a53[0].first_cpb_x100, a53[0].instead_of_cpb_x100),
            (1697, 2283)
        );
        assert!(changes(Some(Core::CortexA57)).is_empty());
        assert!(changes(None).is_empty());
    }

    #[test]
    fn identified_core() {
        let same = Identified::Same {
            midr: THUNDERX_88XX,
            cpus: 1,
            sysfs: false,
        };
        assert_eq!(same.core(), Some(Core::ThunderX));
        assert_eq!(Identified::Unknown.core(), None);
        let unknown_model = Identified::Same {
            midr: A76_R4P0,
            cpus: 8,
            sysfs: true,
        };
        assert_eq!(unknown_model.core(), None);
        assert_eq!(tuning(unknown_model.core()), 0);
    }
}
