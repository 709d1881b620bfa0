//! Zeroing secrets (key schedules, hash states, buffers) on drop with stores the optimiser
//! may not remove.
//!
//! The value is zeroed with ordinary stores (a few vector stores for a block buffer, where
//! byte-wise volatile writes would cost about as much as compressing a block), followed by an
//! empty `asm!` statement that receives its address and may read it: the compiler has to assume
//! the zeros are observed, so it cannot drop them as dead stores. Targets without stable
//! `asm!` fall back to volatile writes.

/// Plain integer data, for which all-zero bytes is a valid value.
pub(crate) trait Zeroable: Copy {}
impl Zeroable for u8 {}
impl Zeroable for u32 {}
impl Zeroable for u64 {}
impl Zeroable for u128 {}
impl Zeroable for usize {}
impl<T: Zeroable, const N: usize> Zeroable for [T; N] {}

/// Overwrites `v` with zeros.
#[inline]
pub(crate) fn wipe<T: Zeroable>(v: &mut T) {
    // SAFETY: `T: Zeroable` is plain integers, for which all-zero bytes are a valid value.
    *v = unsafe { core::mem::zeroed() };
    keep(v);
}

/// Overwrites a slice with zeros.
#[inline]
pub(crate) fn wipe_slice<T: Zeroable>(s: &mut [T]) {
    for v in s.iter_mut() {
        // SAFETY: as in `wipe`.
        *v = unsafe { core::mem::zeroed() };
    }
    keep(s);
}

/// Zeroes `N` bytes of stack just below the caller's frame.
///
/// For kernels written with intrinsics whose compiled code spills secrets (state words, key
/// powers) to its stack frame: Rust cannot wipe spill slots, but a function called from the
/// same frame right after the kernel has its frame at the same addresses, so this one's
/// `N`-byte buffer, zeroed with the stores `wipe` keeps, overwrites them. Best effort (the
/// frame layout is the compiler's): `N` is each caller's measured frame depth with room to
/// spare.
#[inline(never)]
pub(crate) fn scrub_stack<const N: usize>() {
    let mut buf = [0u8; N];
    wipe(&mut buf);
}

/// Makes the compiler assume `*v` is read after this point.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64", target_arch = "arm"))]
#[inline(always)]
fn keep<T: ?Sized>(v: &mut T) {
    // SAFETY: the template is empty, so no instruction runs. The address is only an operand;
    // without `nomem` the compiler must assume the statement reads the memory behind it.
    unsafe {
        core::arch::asm!("/* {0} */", in(reg) (v as *mut T).cast::<u8>(),
            options(nostack, preserves_flags, readonly));
    }
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64", target_arch = "arm")))]
#[inline(always)]
fn keep<T: ?Sized>(v: &mut T) {
    let n = core::mem::size_of_val(v);
    let p = (v as *mut T).cast::<u8>();
    for i in 0..n {
        // SAFETY: `p + i` lies inside `*v`, which we borrow mutably; it already holds zero
        // (`wipe` and `wipe_slice` zeroed it), and zero is valid for `Zeroable` data.
        unsafe { core::ptr::write_volatile(p.add(i), 0) };
    }
}
