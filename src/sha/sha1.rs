//! SHA-1 compression dispatch.

use crate::cpu::{Dispatch, Features};

mod soft;

/// FIPS 180-4 §5.3.1.
pub(super) const IV: [u32; 5] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];

/// The SHA-1 kernels, best first.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Backend {
    Soft,
}

impl Dispatch for Backend {
    fn select(f: Features) -> Self {
        let _ = f;
        Backend::Soft
    }

    fn name(self) -> &'static str {
        match self {
            Backend::Soft => "soft",
        }
    }

    fn key(self) -> u64 {
        match self {
            Backend::Soft => 0,
        }
    }
}

impl super::Compress for Backend {
    type State = [u32; 5];

    #[inline]
    fn compress(self, state: &mut [u32; 5], blocks: &[u8]) {
        debug_assert_eq!(blocks.len() % 64, 0);
        match self {
            Backend::Soft => soft::compress(state, blocks),
        }
    }
}
