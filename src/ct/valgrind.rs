//! Valgrind memcheck client requests, by inline assembly (no C code, no crate), for the
//! constant-time check ("ctgrind"): the test `tests/ct.rs` marks secrets as undefined memory,
//! and memcheck then reports every branch and every address computed from them.
//!
//! Compiled only with `--cfg simdcrypt_ctgrind` (the CI's constant-time step sets it). It serves
//! two users: [`crate::ct::declassify`], which marks the one verdict byte of a tag compare as
//! defined (public by design), and `tests/ct.rs`, through the `#[doc(hidden)]` re-export
//! `simdcrypt::__ctgrind`. The assembly lives here only.
//!
//! A client request is a "special instruction preamble" that does nothing on a real CPU
//! (rotations of one register totalling twice its width, then a no-op exchange or or), which
//! valgrind's JIT recognises (valgrind.h, `VALGRIND_DO_CLIENT_REQUEST_EXPR`). The request
//! reads a block of six machine words `[request, arg1, .., arg5]` through a pointer and
//! returns its result in a register that holds `default` on entry, so that natively the
//! call returns `default` and has no other effect. Codes from memcheck.h and valgrind.h.
//!
//! The `asm!` blocks are deliberately not `nomem`: the compiler must assume a request reads
//! and writes memory reachable from the pointers it is given. That keeps a value that was
//! just marked defined (or undefined) from being used from a register copy made before the
//! request, whose validity bits would still be the old ones.
#![allow(unsafe_code)]

/// `VG_USERREQ_TOOL_BASE('M', 'C')`: the first memcheck request code.
const MC_BASE: usize = (b'M' as usize) << 24 | (b'C' as usize) << 16;
/// `VG_USERREQ__MAKE_MEM_UNDEFINED`: (addr, len); returns `usize::MAX` under memcheck.
const MAKE_MEM_UNDEFINED: usize = MC_BASE + 1;
/// `VG_USERREQ__MAKE_MEM_DEFINED`: (addr, len); returns `usize::MAX` under memcheck.
const MAKE_MEM_DEFINED: usize = MC_BASE + 2;
/// `VG_USERREQ__GET_VBITS`: (addr, out, len); copies validity bits (1 = undefined), returns 1.
const GET_VBITS: usize = MC_BASE + 8;
/// `VG_USERREQ__RUNNING_ON_VALGRIND` (core request): how many valgrinds deep we run.
const RUNNING_ON_VALGRIND: usize = 0x1001;

/// Issues client request `req` with arguments `a`; returns `default` when not under valgrind.
///
/// # Safety
/// Every address argument must point to memory valid for the length the request is given
/// (reads for the source range, writes for an output range such as GET_VBITS's).
#[inline(always)]
unsafe fn request(default: usize, req: usize, a: [usize; 5]) -> usize {
    let args: [usize; 6] = [req, a[0], a[1], a[2], a[3], a[4]];
    #[allow(unused_mut)]
    let mut r = default;
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the four rotations of rdi total 128 bits and `xchg rbx, rbx` swaps rbx with
    // itself, so natively no register changes except the flags (not preserved: no
    // `preserves_flags`); under valgrind the result is written to rdx, declared inout. The
    // request reads the six words of `args`, which live until after the block; what it does
    // to shadow memory the caller's contract covers. No stack use.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") r,
            in("rax") args.as_ptr(),
            options(nostack),
        );
    }
    #[cfg(target_arch = "aarch64")]
    // SAFETY: the four rotations of x12 total 128 bits and `orr x10, x10, x10` leaves x10 as
    // it is, so natively nothing changes; under valgrind the result is written to x3,
    // declared inout, and the request reads the six words of `args` through x4.
    unsafe {
        core::arch::asm!(
            "ror x12, x12, #3",
            "ror x12, x12, #13",
            "ror x12, x12, #51",
            "ror x12, x12, #61",
            "orr x10, x10, x10",
            inout("x3") r,
            in("x4") args.as_ptr(),
            options(nostack),
        );
    }
    #[cfg(target_arch = "arm")]
    // SAFETY: the four rotations of r12 total 64 bits (twice 32) and `orr r10, r10, r10`
    // leaves r10 as it is; none of them sets the flags (no `s` suffix), so natively nothing
    // changes. Under valgrind the result is written to r3, declared inout, and the request
    // reads the six words of `args` through r4. The preamble is the A32 (ARM state) one of
    // valgrind.h; rustc emits A32 code for armv7-unknown-linux-gnueabihf, and valgrind also
    // recognises the same mnemonics assembled as Thumb-2 (`mov.w`, `orr.w`).
    unsafe {
        core::arch::asm!(
            "mov r12, r12, ror #3",
            "mov r12, r12, ror #13",
            "mov r12, r12, ror #29",
            "mov r12, r12, ror #19",
            "orr r10, r10, r10",
            inout("r3") r,
            in("r4") args.as_ptr(),
            options(nostack),
        );
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64", target_arch = "arm")))]
    let _ = args; // valgrind does not run the other targets we build for: a no-op.
    r
}

/// How many valgrinds deep this process runs: 0 natively (and on targets without requests).
pub fn running_on_valgrind() -> usize {
    // SAFETY: RUNNING_ON_VALGRIND takes no address.
    unsafe { request(0, RUNNING_ON_VALGRIND, [0; 5]) }
}

/// Marks `buf` as undefined ("secret"): memcheck reports any branch on it or any address
/// computed from it, and from everything computed from it.
pub fn make_mem_undefined(buf: &mut [u8]) {
    // SAFETY: `buf` is a live, exclusively borrowed range of `buf.len()` bytes; the request
    // changes only its validity bits, not its contents.
    unsafe {
        request(
            0,
            MAKE_MEM_UNDEFINED,
            [buf.as_mut_ptr() as usize, buf.len(), 0, 0, 0],
        );
    }
}

/// Marks `buf` as defined ("public"): the opposite of [`make_mem_undefined`].
pub fn make_mem_defined(buf: &mut [u8]) {
    // SAFETY: as in `make_mem_undefined`.
    unsafe {
        request(
            0,
            MAKE_MEM_DEFINED,
            [buf.as_mut_ptr() as usize, buf.len(), 0, 0, 0],
        );
    }
}

/// Copies the validity bits of `buf` into `vbits` (a 1 bit: that bit of `buf` is undefined).
/// Returns 1 on success, 0 when not under valgrind (then `vbits` is left as it is).
///
/// # Panics
/// If the two slices differ in length.
pub fn get_vbits(buf: &[u8], vbits: &mut [u8]) -> usize {
    assert_eq!(buf.len(), vbits.len());
    // SAFETY: `buf` is readable and `vbits` writable for `buf.len()` bytes, and they do not
    // overlap (one is shared, the other exclusively borrowed).
    unsafe {
        request(
            0,
            GET_VBITS,
            [
                buf.as_ptr() as usize,
                vbits.as_mut_ptr() as usize,
                buf.len(),
                0,
                0,
            ],
        )
    }
}
