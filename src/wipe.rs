//! Zeroing secrets on drop with writes the optimiser may not remove.

use core::sync::atomic::{Ordering, compiler_fence};

/// Plain integer data, for which all-zero bytes is a valid value.
pub(crate) trait Zeroable: Copy {}
impl Zeroable for u8 {}
impl Zeroable for u32 {}
impl Zeroable for u64 {}
impl Zeroable for u128 {}
impl Zeroable for usize {}
impl<T: Zeroable, const N: usize> Zeroable for [T; N] {}

/// Overwrites `v` with zeros through volatile writes.
pub(crate) fn wipe<T: Zeroable>(v: &mut T) {
    let p = (v as *mut T).cast::<u8>();
    for i in 0..core::mem::size_of::<T>() {
        // SAFETY: `p + i` lies inside `*v`, which we borrow mutably; `T: Zeroable` is plain
        // integers, for which zero bytes are a valid value.
        unsafe { core::ptr::write_volatile(p.add(i), 0) };
    }
    compiler_fence(Ordering::SeqCst);
}

/// Overwrites a slice with zeros through volatile writes.
pub(crate) fn wipe_slice<T: Zeroable>(s: &mut [T]) {
    for v in s {
        wipe(v);
    }
}
