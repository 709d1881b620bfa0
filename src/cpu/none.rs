//! Architectures without kernels: only the portable code runs.

use super::FeatureInfo;

/// No features.
pub(crate) const TABLE: &[FeatureInfo] = &[];

/// No aliases.
pub(crate) fn alias(_name: &str) -> Option<&'static str> {
    None
}

crate::cpu::tokens! {}

/// Nothing to detect.
pub(crate) fn detect() -> u64 {
    0
}
