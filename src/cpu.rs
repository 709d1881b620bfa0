//! CPU feature detection, the `SIMDCRYPT_DISABLE` mask, and feature tokens.
//!
//! # How a kernel is reached
//!
//! Each architecture module (`cpu/x86_64.rs`, `cpu/aarch64.rs`, `cpu/arm.rs`) holds one table of
//! the features it can detect. A row gives the name users type in `SIMDCRYPT_DISABLE`, the
//! `#[target_feature]` name it maps to, and the name `std` uses to detect it. Detection fills a
//! [`Features`] bit set in the order of that table; nothing else in the crate names a CPUID bit.
//!
//! A *token* is a zero-sized type (`ShaNi`, `Avx2Bmi2`, …) whose only constructor is
//! `Features::get` (crate-private), which hands one out when every feature the token lists was detected and
//! not masked. Kernels are `#[target_feature]` functions that take their token as an argument,
//! so they can only be called after detection proved the instructions exist. The unit test
//! `target_features_match_tokens` reads the sources and checks that every
//! `#[target_feature(enable = "...")]` string is exactly the set of target features of the
//! token its function takes: the feature list of a backend is written once, in its token.
//!
//! # Masking
//!
//! `SIMDCRYPT_DISABLE=aes,sha,avx512f` (read once, at the first detection) removes features, the
//! way `OPENSSL_ia32cap` does for OpenSSL. It can never add one. It fails closed: a value that
//! is not UTF-8, or that names a feature no architecture knows (a typo such as `avx-512f`),
//! masks *every* feature, with a warning on stderr, so an operator who meant to turn a kernel
//! off never gets it by mistake; the portable kernels then run. Names of other
//! architectures' features are accepted and change nothing. [`Features::masked_by_env`]
//! reports the mask in effect: the one read at the first detection. In-process, [`Features::without`] does the same for one value,
//! which is how tests and benches build every backend the machine has.

use core::fmt;
use core::sync::atomic::{AtomicU64, Ordering};

use crate::Error;

#[cfg(target_arch = "aarch64")]
#[path = "cpu/aarch64.rs"]
pub(crate) mod arch;
#[cfg(target_arch = "arm")]
#[path = "cpu/arm.rs"]
pub(crate) mod arch;
#[cfg(target_arch = "x86_64")]
#[path = "cpu/x86_64.rs"]
pub(crate) mod arch;
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64", target_arch = "arm")))]
#[path = "cpu/none.rs"]
pub(crate) mod arch;

/// The per-core kernel order of aarch64 (pure; compiled everywhere for its unit tests).
/// Without `std` there is no sysfs reader, and its parser and the mixed-core rule go unused.
#[cfg(any(target_arch = "aarch64", test))]
#[cfg_attr(not(feature = "std"), allow(dead_code))]
#[path = "cpu/aarch64_cores.rs"]
pub(crate) mod aarch64_cores;

/// Tuning bit: the core was identified as one on which the portable (scalar) Poly1305 kernel
/// goes before the vector one (`cpu/aarch64_cores.rs`). Tuning bits sit above the feature
/// table and below `INIT`; detection sets them, and like features they can only be removed
/// (the walk of [`backends`] removes one to reach the default order).
pub(crate) const PREFER_SCALAR_POLY1305: u64 = 1 << 62;
/// Tuning bit: the core was identified as one on which the portable (scalar, unrolled)
/// SHA-256 kernel goes before the NEON one (`cpu/aarch64_cores.rs`); SHA-224 shares the
/// kernels and so the bit. Only read where the SHA-256 instructions are absent or masked:
/// the `armv8-ce` kernel stays first on every core.
pub(crate) const PREFER_SCALAR_SHA256: u64 = 1 << 61;
/// Every tuning bit. The feature tables stay below the lowest (`table_names_are_unique_and_fit`).
const TUNING: u64 = PREFER_SCALAR_POLY1305 | PREFER_SCALAR_SHA256;

/// The tuning bits for the core this runs on.
#[cfg(target_arch = "aarch64")]
fn tuning() -> u64 {
    arch::tuning()
}
#[cfg(not(target_arch = "aarch64"))]
fn tuning() -> u64 {
    0
}

/// The CPU core model, where the kernel order depends on it (see [`core()`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoreInfo {
    /// The core model whose kernel order is used (e.g. `"ThunderX2"`), or `None`: not
    /// identified, not in the table, or cores of different models; the default order is used.
    pub name: Option<&'static str>,
    /// The MIDR_EL1 value read (aarch64 Linux), of the first CPU.
    pub midr: Option<u64>,
    /// How it was identified, or why not.
    pub source: &'static str,
    /// Where this core's kernel order differs from the default: the primitive, the kernel
    /// that goes first, the one it goes before, and the model estimates of both (cycles/byte,
    /// `docs/arm-model.md`).
    pub changes: &'static [OrderChange],
}

/// One primitive whose kernel order the core changes (see [`CoreInfo`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderChange {
    /// The primitive, as [`crate::kernels`] spells it.
    pub primitive: &'static str,
    /// The kernel that goes first on this core.
    pub first: &'static str,
    /// The kernel that goes first elsewhere.
    pub instead_of: &'static str,
    /// Model estimate of `first`, cycles/byte ×100.
    pub first_cpb_x100: u16,
    /// Model estimate of `instead_of`, cycles/byte ×100.
    pub instead_of_cpb_x100: u16,
}

/// The core model this process runs on, as far as the kernel order depends on it: on
/// aarch64 Linux from MIDR_EL1 (sysfs, else the kernel-emulated `mrs`); elsewhere
/// `name: None`. Reads it again on every call (for reports; dispatch reads it once).
///
/// ```
/// let c = simdcrypt::cpu::core();
/// if c.name.is_none() {
///     assert!(c.changes.is_empty()); // an unknown core keeps the default order
/// }
/// println!("core: {} ({})", c.name.unwrap_or("not identified"), c.source);
/// ```
pub fn core() -> CoreInfo {
    #[cfg(target_arch = "aarch64")]
    {
        arch::core_info()
    }
    #[cfg(not(target_arch = "aarch64"))]
    {
        CoreInfo {
            name: None,
            midr: None,
            source: "not identified on this architecture (one kernel order for every core)",
            changes: &[],
        }
    }
}

/// One detectable CPU feature of the architecture this crate was built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeatureInfo {
    /// The name used by `SIMDCRYPT_DISABLE`, [`Features::without`] and reports.
    pub name: &'static str,
    /// The `#[target_feature]` name a kernel enables for it.
    pub target_feature: &'static str,
    /// The name `std::is_*_feature_detected!` knows it by, where it has one that means the same.
    pub std_name: Option<&'static str>,
    /// What it is, in a few words, for `simdcrypt-speed cpu`.
    pub description: &'static str,
}

/// Feature names of the architectures this build is *not* for. `SIMDCRYPT_DISABLE` may list
/// them (one setting can serve a fleet of mixed machines); they are ignored without a warning.
const OTHER_ARCH_NAMES: &[&str] = &[
    // x86_64
    "sse2",
    "ssse3",
    "sse4.1",
    "sse4.2",
    "avx",
    "avx2",
    "bmi1",
    "bmi2",
    "adx",
    "aes",
    "pclmulqdq",
    "sha",
    "avx512f",
    "avx512vl",
    "avx512bw",
    "avx512dq",
    "avx512ifma",
    "vaes",
    "vpclmulqdq",
    "gfni", // aarch64 and arm
    "neon",
    "asimd",
    "pmull",
    "sha1",
    "sha2",
    "sha3",
    "sha512",
];

/// The feature table of this architecture, in bit order.
pub fn table() -> &'static [FeatureInfo] {
    arch::TABLE
}

/// The bit of `name` in this architecture's table. `const` so that token masks are computed
/// (and misspellings rejected) at compile time.
pub(crate) const fn bit_of(name: &[u8]) -> Option<u32> {
    let t = arch::TABLE;
    let mut i = 0;
    while i < t.len() {
        if bytes_eq(t[i].name.as_bytes(), name) {
            return Some(i as u32);
        }
        i += 1;
    }
    None
}

const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The bit mask of a comma-separated list of feature names; a compile error (const panic)
/// when a name is not in the table.
pub(crate) const fn mask_of(list: &str) -> u64 {
    let s = list.as_bytes();
    let mut mask = 0u64;
    let mut start = 0;
    let mut i = 0;
    while i <= s.len() {
        if i == s.len() || s[i] == b',' {
            let (_, rest) = s.split_at(start);
            let (word, _) = rest.split_at(i - start);
            match bit_of(word) {
                Some(b) => mask |= 1 << b,
                None => panic!("unknown CPU feature name in a token"),
            }
            start = i + 1;
        }
        i += 1;
    }
    mask
}

/// A zero-sized proof that some CPU features were detected (and not masked).
///
/// Only [`Features::get`] makes one. Kernels take their token by value; see the module docs.
pub(crate) trait Token: Copy {
    /// The feature names this token proves, comma-separated, as in the architecture table.
    const FEATURES: &'static str;
    /// `FEATURES` as a bit mask.
    const MASK: u64 = mask_of(Self::FEATURES);
    /// The feature that tells this backend apart from the next best one: the first listed.
    /// Removing it is how [`backends`] walks down the dispatch order.
    const KEY: u64 = {
        let m = mask_of(Self::FEATURES);
        let s = Self::FEATURES.as_bytes();
        let mut i = 0;
        while i < s.len() && s[i] != b',' {
            i += 1;
        }
        let (first, _) = s.split_at(i);
        match bit_of(first) {
            Some(b) => (1 << b) & m,
            None => 0,
        }
    };
    /// Makes the token. Only `Features::get` may call this.
    fn proven() -> Self;
}

/// Declares an architecture's token types, `Name = "feature,feature";` (names from its
/// table), and `TOKEN_FEATURES`, the list the source test checks kernels against. Use it once
/// per architecture.
#[allow(unused_macros)]
macro_rules! tokens {
    ($( $(#[$doc:meta])* $name:ident = $features:literal; )*) => {
        $(
            $(#[$doc])*
            #[derive(Clone, Copy, Debug)]
            pub(crate) struct $name(());
            impl $crate::cpu::Token for $name {
                const FEATURES: &'static str = $features;
                fn proven() -> Self {
                    $name(())
                }
            }
        )*
        /// Every token of this architecture with its features.
        #[allow(dead_code)]
        pub(crate) const TOKEN_FEATURES: &[(&str, &str)] = &[$((stringify!($name), $features)),*];
    };
}
#[allow(unused_imports)]
pub(crate) use tokens;

/// A set of CPU features: what was detected, less what was masked.
///
/// Values only ever lose features ([`Features::without`]); there is no way to add one that
/// detection did not find, so a `Features` can never make a kernel run on a CPU without its
/// instructions.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Features {
    bits: u64,
}

/// Set once detection ran; the feature bits sit below it.
const INIT: u64 = 1 << 63;
static DETECTED: AtomicU64 = AtomicU64::new(0);
static HARDWARE: AtomicU64 = AtomicU64::new(0);

impl Features {
    /// What this CPU has, less what `SIMDCRYPT_DISABLE` removes. Detection runs once per
    /// process; later calls are one atomic load.
    #[inline]
    pub fn detect() -> Self {
        let v = DETECTED.load(Ordering::Relaxed);
        if v & INIT != 0 {
            return Features { bits: v & !INIT };
        }
        Self::detect_slow()
    }

    #[cold]
    fn detect_slow() -> Self {
        let hw = Self::hardware().bits;
        let masked = hw & !env_mask(true);
        // Several threads may race here; they all compute the same value.
        DETECTED.store(masked | INIT, Ordering::Relaxed);
        Features { bits: masked }
    }

    /// What this CPU has, ignoring `SIMDCRYPT_DISABLE` (for reports such as
    /// `simdcrypt-speed cpu`).
    pub fn hardware() -> Self {
        let v = HARDWARE.load(Ordering::Relaxed);
        if v & INIT != 0 {
            return Features { bits: v & !INIT };
        }
        let bits = (arch::detect() | tuning()) & !INIT;
        HARDWARE.store(bits | INIT, Ordering::Relaxed);
        Features { bits }
    }

    /// No features at all: every primitive uses its portable kernel.
    pub const fn none() -> Self {
        Features { bits: 0 }
    }

    /// This set less the comma-separated feature names in `names` (e.g. `"aes,vaes"`).
    ///
    /// Names of other architectures' features are accepted and change nothing; a name no
    /// architecture has is [`Error::UnknownFeature`].
    pub fn without(self, names: &str) -> Result<Self, Error> {
        match parse_names(names) {
            Ok(m) => Ok(Features {
                bits: self.bits & !m,
            }),
            Err(_) => Err(Error::UnknownFeature),
        }
    }

    /// This set less every feature in `other`.
    pub fn without_all(self, other: Features) -> Self {
        Features {
            bits: self.bits & !other.bits,
        }
    }

    /// Whether `name` (a name from [`table`]) is in the set.
    pub fn has(self, name: &str) -> bool {
        match bit_of(name.as_bytes()) {
            Some(b) => self.bits & (1 << b) != 0,
            None => false,
        }
    }

    /// Whether the set has no features (per-core tuning bits are not features).
    pub fn is_empty(self) -> bool {
        self.bits & !TUNING == 0
    }

    /// Whether detection set the tuning bit `bit` (a `PREFER_*` constant) and it was not
    /// removed.
    #[inline]
    #[cfg_attr(not(target_arch = "aarch64"), allow(dead_code))]
    pub(crate) fn prefers(self, bit: u64) -> bool {
        self.bits & bit != 0
    }

    /// This set with the tuning bits `bits` added: for tests of a core this machine is not.
    #[cfg(all(test, target_arch = "aarch64"))]
    pub(crate) fn with_tuning(self, bits: u64) -> Self {
        Features {
            bits: self.bits | (bits & TUNING),
        }
    }

    /// The names in the set, in table order.
    pub fn iter(self) -> impl Iterator<Item = &'static str> {
        arch::TABLE
            .iter()
            .enumerate()
            .filter(move |(i, _)| self.bits & (1 << i) != 0)
            .map(|(_, f)| f.name)
    }

    /// The features `SIMDCRYPT_DISABLE` removes from this CPU's, as dispatch uses them: the
    /// mask read at the first detection (a later change of the environment changes neither).
    /// Empty without `std`.
    pub fn masked_by_env() -> Self {
        Features {
            bits: Self::hardware().bits & !Self::detect().bits,
        }
    }

    /// The token `T` if every feature it needs is in the set.
    #[inline]
    pub(crate) fn get<T: Token>(self) -> Option<T> {
        if self.bits & T::MASK == T::MASK {
            Some(T::proven())
        } else {
            None
        }
    }
}

impl fmt::Debug for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Comma-separated names, as in `SIMDCRYPT_DISABLE`.
impl fmt::Display for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, n) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(n)?;
        }
        Ok(())
    }
}

/// What the process detected and did not mask: `Features::detect()`.
pub fn features() -> Features {
    Features::detect()
}

/// The mask of a comma-separated list; `Err(name)` for the first name no architecture knows.
fn parse_names(list: &str) -> Result<u64, &str> {
    let mut m = 0u64;
    for raw in list.split(',') {
        let name = raw.trim();
        if name.is_empty() {
            continue;
        }
        let lower = Lower::new(name);
        let n = lower.as_str();
        if let Some(b) = bit_of(n.as_bytes()) {
            m |= 1 << b;
        } else if let Some(alias) = arch::alias(n) {
            m |= mask_of_runtime(alias);
        } else if !OTHER_ARCH_NAMES.contains(&n) {
            return Err(name);
        }
    }
    Ok(m)
}

fn mask_of_runtime(list: &str) -> u64 {
    list.split(',')
        .filter_map(|n| bit_of(n.as_bytes()))
        .fold(0, |m, b| m | (1 << b))
}

/// A short name folded to ASCII lower case without allocating.
struct Lower {
    buf: [u8; 32],
    len: usize,
    ok: bool,
}

impl Lower {
    fn new(s: &str) -> Self {
        let mut buf = [0u8; 32];
        let ok = s.len() <= buf.len() && s.is_ascii();
        let len = if ok { s.len() } else { 0 };
        if ok {
            for (d, c) in buf.iter_mut().zip(s.bytes()) {
                *d = c.to_ascii_lowercase();
            }
        }
        Lower { buf, len, ok }
    }
    fn as_str(&self) -> &str {
        if self.ok {
            // Lower-casing ASCII keeps it ASCII, hence UTF-8.
            core::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
        } else {
            "\u{fffd}"
        }
    }
}

/// The `SIMDCRYPT_DISABLE` mask. `warn` prints one line per unknown name (the first detection
/// does this; later reports do not repeat it).
#[cfg(feature = "std")]
fn env_mask(warn: bool) -> u64 {
    extern crate std;
    let Some(val) = std::env::var_os("SIMDCRYPT_DISABLE") else {
        return 0;
    };
    // Fail closed: a mask that cannot be read masks everything.
    const ALL: u64 = !INIT;
    let Some(val) = val.to_str() else {
        if warn {
            std::eprintln!(
                "simdcrypt: SIMDCRYPT_DISABLE is not valid UTF-8; masking every CPU feature \
                 (portable kernels only)"
            );
        }
        return ALL;
    };
    match parse_names(val) {
        Ok(m) => m,
        Err(bad) => {
            if warn {
                let known: std::vec::Vec<&str> = arch::TABLE.iter().map(|f| f.name).collect();
                std::eprintln!(
                    "simdcrypt: SIMDCRYPT_DISABLE: unknown CPU feature '{bad}'; masking every \
                     CPU feature (portable kernels only; known here: {})",
                    known.join(",")
                );
            }
            ALL
        }
    }
}

#[cfg(not(feature = "std"))]
fn env_mask(_warn: bool) -> u64 {
    0
}

/// The dispatch of one primitive: the enum of its backends, each owning its token (and, for
/// keyed primitives, its key schedule).
pub(crate) trait Dispatch: Copy {
    /// The backend `f` selects. This is the one place the choice is made.
    fn select(f: Features) -> Self;
    /// The backend's name as `backend()` reports it.
    fn name(self) -> &'static str;
    /// The key feature of the backend's token (0 for the portable one).
    fn key(self) -> u64;
}

/// Every backend `D` can reach from `f`, best first, each with a feature set that selects it.
pub(crate) fn backends<D: Dispatch>(f: Features) -> Backends<D> {
    Backends {
        next: Some(f),
        seen: [""; SEEN],
        n_seen: 0,
        _d: core::marker::PhantomData,
    }
}

/// Names [`Backends`] remembers to skip repeats (more than any primitive has kernels).
const SEEN: usize = 16;

/// Iterator behind the `backends()` functions of each primitive.
///
/// A kernel can appear twice on the walk when a per-core order put it first: on a core that
/// prefers the portable Poly1305 (or, without the SHA-2 instructions, the portable
/// SHA-256), the walk is portable (tuned), NEON (tuning removed), portable again (NEON
/// removed). Each name is yielded once, at its first place, so there the portable kernel
/// comes first and NEON last.
#[derive(Clone, Debug)]
pub(crate) struct Backends<D> {
    next: Option<Features>,
    seen: [&'static str; SEEN],
    n_seen: usize,
    _d: core::marker::PhantomData<D>,
}

impl<D: Dispatch> Iterator for Backends<D> {
    type Item = (&'static str, Features);
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let f = self.next?;
            let d = D::select(f);
            let key = d.key();
            self.next = if key == 0 {
                None
            } else {
                Some(Features {
                    bits: f.bits & !key,
                })
            };
            let name = d.name();
            if self.seen[..self.n_seen].contains(&name) {
                continue;
            }
            if self.n_seen < SEEN {
                self.seen[self.n_seen] = name;
                self.n_seen += 1;
            }
            return Some((name, f));
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::string::String;
    use std::vec::Vec;

    #[test]
    fn table_names_are_unique_and_fit() {
        let t = table();
        // Feature bits sit below the tuning bits and `INIT`.
        assert!(t.len() <= TUNING.trailing_zeros() as usize);
        assert_eq!(TUNING & INIT, 0);
        for (i, a) in t.iter().enumerate() {
            assert_eq!(bit_of(a.name.as_bytes()), Some(i as u32));
            assert_eq!(a.name, a.name.to_ascii_lowercase());
        }
    }

    #[test]
    fn without_only_removes() {
        let f = Features::hardware();
        for info in table() {
            let g = f.without(info.name).unwrap();
            assert!(!g.has(info.name));
            assert_eq!(g.bits & !f.bits, 0);
        }
        assert_eq!(f.without("").unwrap(), f);
        assert_eq!(f.without("no-such-feature"), Err(Error::UnknownFeature));
        // Every architecture's names are accepted everywhere.
        for n in OTHER_ARCH_NAMES {
            assert!(f.without(n).is_ok(), "{n}");
        }
        assert_eq!(Features::none().without("aes").unwrap(), Features::none());
    }

    #[test]
    fn display_round_trips() {
        let f = Features::hardware();
        let s: String = std::format!("{f}");
        let back = Features::hardware().without_all(f);
        assert!(back.is_empty());
        let names: Vec<&str> = if s.is_empty() {
            Vec::new()
        } else {
            s.split(',').collect()
        };
        assert_eq!(names, f.iter().collect::<Vec<_>>());
    }

    /// Our detection agrees with std's for every feature std also knows, so the table (the one
    /// list shared by detection and `#[target_feature]`) names what the kernels enable.
    #[test]
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    fn detection_agrees_with_std() {
        let hw = Features::hardware();
        let mut checked = 0;
        for info in table() {
            let Some(std_name) = info.std_name else {
                continue;
            };
            let ours = arch::std_detected(std_name, hw);
            let theirs = arch::std_detect(std_name);
            assert_eq!(ours, theirs, "feature {} (std: {std_name})", info.name);
            checked += 1;
        }
        assert!(checked > 0);
    }

    /// Every `#[target_feature(enable = "...")]` in the sources enables exactly the target
    /// features of the token its function takes (see the module docs).
    #[test]
    fn target_features_match_tokens() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        let mut files = Vec::new();
        collect_rs(std::path::Path::new(root), &mut files);
        let mut seen = 0;
        for path in files {
            // Kernel files are named `<arch>.rs` or `<arch>_<ext>.rs`; another architecture's
            // take tokens this build does not declare, so only this one's are checked here.
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let file_arch = ["x86_64", "aarch64", "arm"]
                .into_iter()
                .find(|a| stem == *a || stem.starts_with(&std::format!("{a}_")));
            if file_arch.is_some_and(|a| a != std::env::consts::ARCH) {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for (n, line) in text.lines().enumerate() {
                let t = line.trim_start();
                let Some(rest) = t.strip_prefix("#[target_feature(enable = \"") else {
                    continue;
                };
                let enabled: std::collections::BTreeSet<&str> =
                    rest.split('"').next().unwrap().split(',').collect();
                // The signature follows, up to the opening brace.
                let after: String = text
                    .lines()
                    .skip(n + 1)
                    .take(12)
                    .collect::<Vec<_>>()
                    .join(" ");
                let sig = after.split('{').next().unwrap();
                let tok = arch::TOKEN_FEATURES
                    .iter()
                    .find(|(name, _)| {
                        sig.contains(&std::format!(": {name},"))
                            || sig.contains(&std::format!(": {name})"))
                    })
                    .unwrap_or_else(|| {
                        panic!(
                            "{}:{}: a #[target_feature] fn must take its token",
                            path.display(),
                            n + 1
                        )
                    });
                let want: std::collections::BTreeSet<&str> = tok
                    .1
                    .split(',')
                    .map(|f| table()[bit_of(f.as_bytes()).unwrap() as usize].target_feature)
                    .collect();
                assert_eq!(
                    enabled,
                    want,
                    "{}:{}: token {}",
                    path.display(),
                    n + 1,
                    tok.0
                );
                seen += 1;
            }
        }
        // x86_64 and aarch64 have intrinsic kernels; 32-bit arm uses assembly only.
        if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
            assert!(
                seen > 0,
                "no #[target_feature] functions found under {root}"
            );
        }
    }

    fn collect_rs(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                collect_rs(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }

    #[test]
    fn token_masks() {
        for (name, feats) in arch::TOKEN_FEATURES {
            let m = mask_of_runtime(feats);
            assert_eq!(m.count_ones() as usize, feats.split(',').count(), "{name}");
        }
    }
}
