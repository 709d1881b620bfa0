//! Calling-convention checks for assembly entry points (test builds only).
//!
//! [`abi_call`] calls a function through the trampoline `simdcrypt_abi_call` in
//! `asm/<arch>/abi_test.S`, which loads every callee-saved register with a fresh pattern
//! before the call and records their values, and the stack pointer's change, after it.
//! [`AbiReport::assert_clean`] then names any register the callee failed to preserve:
//!
//! | arch | callee-saved registers checked | other checks |
//! |---|---|---|
//! | x86_64 (SysV) | rbx rbp r12 r13 r14 r15 | rsp, direction flag clear |
//! | aarch64 (AAPCS64) | x19-x28 x29, d8-d15 | sp |
//! | arm (AAPCS, hard-float) | r4-r11, d8-d15 | sp |
//!
//! Every assembly entry point gets a test that goes through here (DESIGN.md rule 4; the idea
//! is BoringSSL's `abi_test`). The harness tests itself below: canaries that break the ABI on
//! purpose must be caught, a well-behaved function must come out clean.
//!
//! The harness is ELF-only, like the kernels it checks: it exists under `cfg(simdcrypt_asm)`
//! (see build.rs) and is empty elsewhere. Its assembly is a static library of its own,
//! `simdcrypt_abi_test`, linked here and only here (this module is `#[cfg(test)]`), so the
//! trampoline and canaries never ship in the library.

#[cfg(all(
    any(target_arch = "x86_64", target_arch = "aarch64", target_arch = "arm"),
    simdcrypt_asm
))]
// Used by the ABI tests of each architecture's assembly kernels (not all arches have some yet).
#[allow(unused_imports)]
pub(crate) use imp::*;

#[cfg(all(
    any(target_arch = "x86_64", target_arch = "aarch64", target_arch = "arm"),
    simdcrypt_asm
))]
mod imp {
    extern crate std;
    use core::sync::atomic::{AtomicU64, Ordering};
    use std::string::String;
    use std::sync::Mutex;
    use std::vec::Vec;

    #[cfg(target_arch = "x86_64")]
    mod regs {
        pub(super) const GPR: &[&str] = &["rbx", "rbp", "r12", "r13", "r14", "r15"];
        pub(super) const SIMD: &[&str] = &[];
        pub(super) const NGPR: usize = 6;
        pub(super) const NSIMD: usize = 0;
        /// Integer arguments the trampoline passes (rdi rsi rdx rcx r8 r9).
        pub(super) const NARGS: usize = 6;
    }
    #[cfg(target_arch = "aarch64")]
    mod regs {
        pub(super) const GPR: &[&str] = &[
            "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29",
        ];
        pub(super) const SIMD: &[&str] = &["d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15"];
        pub(super) const NGPR: usize = 11;
        pub(super) const NSIMD: usize = 8;
        /// Integer arguments the trampoline passes (x0-x7).
        pub(super) const NARGS: usize = 8;
    }
    #[cfg(target_arch = "arm")]
    mod regs {
        pub(super) const GPR: &[&str] = &["r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11"];
        pub(super) const SIMD: &[&str] = &["d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15"];
        pub(super) const NGPR: usize = 8;
        pub(super) const NSIMD: usize = 8;
        /// Integer arguments the trampoline passes (r0-r3).
        pub(super) const NARGS: usize = 4;
    }
    use regs::{GPR, NARGS, NGPR, NSIMD, SIMD};

    /// `struct frame` of abi_test.S; the offsets are asserted below against the `FR_*`
    /// defines of each `.S` file.
    #[repr(C)]
    struct Frame {
        gpr_in: [usize; NGPR],
        simd_in: [u64; NSIMD],
        gpr_out: [usize; NGPR],
        simd_out: [u64; NSIMD],
        sp_delta: isize,
        flags: usize,
    }

    #[cfg(target_arch = "x86_64")]
    const _: () = {
        assert!(core::mem::offset_of!(Frame, gpr_in) == 0);
        assert!(core::mem::offset_of!(Frame, gpr_out) == 48);
        assert!(core::mem::offset_of!(Frame, sp_delta) == 96);
        assert!(core::mem::offset_of!(Frame, flags) == 104);
    };
    #[cfg(target_arch = "aarch64")]
    const _: () = {
        assert!(core::mem::offset_of!(Frame, gpr_in) == 0);
        assert!(core::mem::offset_of!(Frame, simd_in) == 88);
        assert!(core::mem::offset_of!(Frame, gpr_out) == 152);
        assert!(core::mem::offset_of!(Frame, simd_out) == 240);
        assert!(core::mem::offset_of!(Frame, sp_delta) == 304);
        assert!(core::mem::offset_of!(Frame, flags) == 312);
    };
    #[cfg(target_arch = "arm")]
    const _: () = {
        assert!(core::mem::offset_of!(Frame, gpr_in) == 0);
        assert!(core::mem::offset_of!(Frame, simd_in) == 32);
        assert!(core::mem::offset_of!(Frame, gpr_out) == 96);
        assert!(core::mem::offset_of!(Frame, simd_out) == 128);
        assert!(core::mem::offset_of!(Frame, sp_delta) == 192);
        assert!(core::mem::offset_of!(Frame, flags) == 196);
    };

    #[link(name = "simdcrypt_abi_test", kind = "static")]
    unsafe extern "C" {
        /// asm/<arch>/abi_test.S: loads the callee-saved registers from `fr`, calls
        /// `f(args[0], .., args[NARGS - 1])`, stores the registers and the stack-pointer change
        /// back into `fr` and returns `f`'s result. Not reentrant (see [`LOCK`]).
        fn simdcrypt_abi_call(fr: *mut Frame, f: *const (), args: *const usize) -> usize;
    }

    /// The trampoline keeps the stack pointer in one static word across the call.
    static LOCK: Mutex<()> = Mutex::new(());
    /// Makes every call's register patterns different.
    static SEED: AtomicU64 = AtomicU64::new(0x243f_6a88_85a3_08d3);

    /// SplitMix64 (Steele, Lea, Flood 2014): distinct, irregular register patterns.
    fn splitmix(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// What a call did to the registers the ABI says it must preserve.
    #[derive(Debug, Clone)]
    pub(crate) struct AbiReport {
        /// (register, value before, value after) for every register that changed.
        changed: Vec<(&'static str, u64, u64)>,
        /// Stack pointer after the call minus before it.
        sp_delta: isize,
        /// x86_64: the direction flag was set on return.
        df_set: bool,
    }

    impl AbiReport {
        /// Whether the callee kept every rule checked.
        pub(crate) fn is_clean(&self) -> bool {
            self.changed.is_empty() && self.sp_delta == 0 && !self.df_set
        }

        /// The names of the callee-saved registers that came back changed.
        pub(crate) fn clobbered(&self) -> Vec<&'static str> {
            self.changed.iter().map(|c| c.0).collect()
        }

        /// The stack pointer's change over the call (0 when the callee is correct).
        pub(crate) fn sp_delta(&self) -> isize {
            self.sp_delta
        }

        /// Whether the callee returned with the direction flag set (x86_64 only).
        #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
        pub(crate) fn df_set(&self) -> bool {
            self.df_set
        }

        /// Panics, naming each broken rule, unless the call was clean.
        #[track_caller]
        pub(crate) fn assert_clean(&self) {
            if self.is_clean() {
                return;
            }
            let mut msg = String::from("assembly function broke the calling convention:");
            for (r, before, after) in &self.changed {
                msg += &std::format!(" {r} clobbered ({before:#x} -> {after:#x});");
            }
            if self.sp_delta != 0 {
                msg += &std::format!(" stack pointer moved by {};", self.sp_delta);
            }
            if self.df_set {
                msg += " direction flag left set;";
            }
            panic!("{msg}");
        }
    }

    /// Calls `f(args[0], ..)` through the checking trampoline; returns its result (the first
    /// return register) and what happened to the callee-saved registers.
    ///
    /// # Safety
    /// `f` must be a function with the C ABI that takes at most `args.len()` integer or
    /// pointer arguments and returns an integer-sized value or nothing, and calling it with
    /// `args` must be sound (pointers valid for what `f` reads and writes). At most `NARGS`
    /// (x86_64: 6, aarch64: 8, arm: 4) arguments; more panics.
    pub(crate) unsafe fn abi_call(f: *const (), args: &[usize]) -> (usize, AbiReport) {
        assert!(args.len() <= NARGS, "abi_call: at most {NARGS} arguments");
        let mut a = [0usize; NARGS];
        a[..args.len()].copy_from_slice(args);

        let mut seed = SEED.fetch_add(0x6a09_e667_f3bc_c909, Ordering::Relaxed);
        let mut fr = Frame {
            gpr_in: [0; NGPR],
            simd_in: [0; NSIMD],
            gpr_out: [0; NGPR],
            simd_out: [0; NSIMD],
            sp_delta: 0,
            flags: 0,
        };
        for r in fr.gpr_in.iter_mut() {
            *r = splitmix(&mut seed) as usize;
        }
        for r in fr.simd_in.iter_mut() {
            *r = splitmix(&mut seed);
        }

        let ret = {
            let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
            // SAFETY: the trampoline saves and restores our own callee-saved registers and
            // stack pointer; `fr` and `a` are valid for the reads and writes it makes (the
            // layout is asserted above); the lock makes its static stack-pointer word
            // exclusive; calling `f` with `a` is sound by this function's contract (extra
            // argument registers are ignored by a C-ABI callee).
            unsafe { simdcrypt_abi_call(&mut fr, f, a.as_ptr()) }
        };

        let mut changed = Vec::new();
        for (i, name) in GPR.iter().enumerate() {
            if fr.gpr_in[i] != fr.gpr_out[i] {
                changed.push((*name, fr.gpr_in[i] as u64, fr.gpr_out[i] as u64));
            }
        }
        for (i, name) in SIMD.iter().enumerate() {
            if fr.simd_in[i] != fr.simd_out[i] {
                changed.push((*name, fr.simd_in[i], fr.simd_out[i]));
            }
        }
        let df_set = cfg!(target_arch = "x86_64") && fr.flags & (1 << 10) != 0;
        (
            ret,
            AbiReport {
                changed,
                sp_delta: fr.sp_delta,
                df_set,
            },
        )
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        unsafe extern "C" {
            /// Returns the weighted sum of its `NARGS` arguments (1·a + 2·b + ..) and uses a
            /// callee-saved register (and a SIMD one where the ABI has them), saving it.
            fn simdcrypt_abi_canary_clean();
            /// Inverts one callee-saved integer register (x86_64 r13, aarch64 x23, arm r10).
            fn simdcrypt_abi_canary_clobber();
            /// Returns with the stack pointer 16 bytes lower.
            fn simdcrypt_abi_canary_sp();
        }
        #[cfg(any(target_arch = "aarch64", target_arch = "arm"))]
        unsafe extern "C" {
            /// Changes one callee-saved SIMD register (aarch64 d11, arm d12).
            fn simdcrypt_abi_canary_clobber_simd();
        }
        #[cfg(target_arch = "x86_64")]
        unsafe extern "C" {
            /// Returns with the direction flag set.
            fn simdcrypt_abi_canary_df();
        }

        #[test]
        fn clean_function_is_clean_and_gets_its_arguments() {
            for round in 0..4usize {
                let args: Vec<usize> = (0..NARGS).map(|i| 1000 * round + 17 * i + 3).collect();
                let want = args
                    .iter()
                    .enumerate()
                    .fold(0usize, |s, (i, a)| s.wrapping_add((i + 1).wrapping_mul(*a)));
                // SAFETY: the canary takes NARGS integers and reads no memory.
                let (ret, rep) =
                    unsafe { abi_call(simdcrypt_abi_canary_clean as *const (), &args) };
                rep.assert_clean();
                assert!(rep.is_clean() && rep.clobbered().is_empty());
                assert_eq!(ret, want);
            }
        }

        #[test]
        fn gpr_clobber_is_caught() {
            let want = if cfg!(target_arch = "x86_64") {
                "r13"
            } else if cfg!(target_arch = "aarch64") {
                "x23"
            } else {
                "r10"
            };
            // SAFETY: the canary takes no arguments and reads no memory; the trampoline
            // restores the register it clobbers for us.
            let (_, rep) = unsafe { abi_call(simdcrypt_abi_canary_clobber as *const (), &[]) };
            assert!(!rep.is_clean());
            assert_eq!(rep.clobbered(), [want]);
            assert_eq!(rep.sp_delta(), 0);
            let msg = std::panic::catch_unwind(|| rep.assert_clean()).unwrap_err();
            let msg = msg.downcast_ref::<String>().unwrap();
            assert!(msg.contains(&std::format!("{want} clobbered")), "{msg}");
        }

        #[test]
        #[cfg(any(target_arch = "aarch64", target_arch = "arm"))]
        fn simd_clobber_is_caught() {
            let want = if cfg!(target_arch = "aarch64") {
                "d11"
            } else {
                "d12"
            };
            // SAFETY: as above.
            let (_, rep) = unsafe { abi_call(simdcrypt_abi_canary_clobber_simd as *const (), &[]) };
            assert!(!rep.is_clean());
            assert_eq!(rep.clobbered(), [want]);
        }

        #[test]
        fn stack_pointer_change_is_caught() {
            // SAFETY: the canary moves the stack pointer down (into memory below ours that
            // nothing uses); the trampoline restores it from its saved copy.
            let (_, rep) = unsafe { abi_call(simdcrypt_abi_canary_sp as *const (), &[]) };
            assert_eq!(rep.sp_delta(), -16);
            assert!(rep.clobbered().is_empty());
            assert!(!rep.is_clean());
        }

        #[test]
        #[cfg(target_arch = "x86_64")]
        fn direction_flag_is_caught() {
            // SAFETY: the canary sets DF; the trampoline clears it again before returning.
            let (_, rep) = unsafe { abi_call(simdcrypt_abi_canary_df as *const (), &[]) };
            assert!(rep.df_set());
            assert!(!rep.is_clean());
        }
    }
}
