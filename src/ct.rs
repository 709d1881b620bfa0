//! Constant-time helpers shared by every primitive.
//!
//! This file itself has no unsafe code. The valgrind client requests behind
//! [`declassify`] in a `--cfg simdcrypt_ctgrind` build are inline assembly in `ct/valgrind.rs`,
//! which is compiled only then; `forbid` would reach into it, so that build says `deny` here.
#![cfg_attr(not(simdcrypt_ctgrind), forbid(unsafe_code))]
#![cfg_attr(simdcrypt_ctgrind, deny(unsafe_code))]

#[cfg(simdcrypt_ctgrind)]
pub mod valgrind;

/// Whether `a == b`, in time that depends only on the lengths (which are public).
///
/// The bytes are xor-accumulated; only the single accumulated byte decides the answer.
pub(crate) fn eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut acc = 0u8;
    for (x, y) in a.iter().zip(b) {
        acc |= x ^ y;
    }
    // Keep the optimiser from turning the loop into an early-exit comparison.
    let acc = core::hint::black_box(acc);
    crate::ct::declassify(acc) == 0
}

/// Marks a value that is derived from secrets but public by design (a MAC verdict) as public
/// for the valgrind constant-time check (BoringSSL's `constant_time_declassify`).
///
/// In a `--cfg simdcrypt_ctgrind` build it issues memcheck's MAKE_MEM_DEFINED client request
/// on the byte, so that the branch on the verdict is not reported; natively that request does
/// nothing. In the normal build it is the identity.
#[inline(always)]
pub(crate) fn declassify(v: u8) -> u8 {
    #[cfg(simdcrypt_ctgrind)]
    {
        let mut v = v;
        valgrind::make_mem_defined(core::slice::from_mut(&mut v));
        v
    }
    #[cfg(not(simdcrypt_ctgrind))]
    v
}
