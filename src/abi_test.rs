//! Calling-convention checks for assembly entry points (test builds only).
//!
//! [`abi_call`] calls a function through the trampoline `simdcrypt_abi_call` in
//! `asm/<arch>/abi_test.S`, which loads every callee-saved register with a fresh pattern
//! before the call and records their values, and the stack pointer's change, after it.
//! [`AbiReport::assert_clean`] then names any register the callee failed to preserve:
//!
//! | arch | callee-saved registers checked | other checks |
//! |---|---|---|
//! | x86_64 (SysV) | rbx rbp r12 r13 r14 r15 | rsp, direction flag clear, no secret left in a vector or scratch register (below) |
//! | aarch64 (AAPCS64) | x19-x28 x29, d8-d15 | sp |
//! | arm (AAPCS, hard-float) | r4-r11, d8-d15 | sp, no secret left in d0-d7, d16-d31 or r1-r3, r12 (below) |
//!
//! Every assembly entry point gets a test that goes through here (DESIGN.md rule 4; the idea
//! is BoringSSL's `abi_test`). The harness tests itself below: canaries that break the ABI on
//! purpose must be caught, a well-behaved function must come out clean.
//!
//! The harness is ELF-only, like the kernels it checks: it exists under `cfg(simdcrypt_asm)`
//! (see build.rs) and is empty elsewhere. Its assembly is a static library of its own,
//! `simdcrypt_abi_test`, linked here and only here (this module is `#[cfg(test)]`), so the
//! trampoline and canaries never ship in the library.
//!
//! # Secrets left in registers: the policy (x86_64 and armv7)
//!
//! DESIGN.md rule 10 asks that no kernel leave key material in registers or on the stack.
//! The one policy, written out in `asm/x86_64/vec_clear.h` and checked here, is: before it
//! returns, every x86_64 assembly kernel that touches key material, round keys, powers of H
//! or r, keystream, hash or MAC state, or message data
//!
//! 1. zeroes every vector register it may have written: `vzeroall` for xmm/ymm/zmm0-15,
//!    and, in kernels with EVEX encodings, an EVEX `vpxord` of each of zmm16-31 first
//!    (the `CLEAR` and `CLEAR_AVX` macros of vec_clear.h). `vzeroupper` alone is not enough:
//!    it keeps bits 127:0 of xmm0-15, where the round keys, H powers and keystream were;
//! 2. zeroes every caller-saved general-purpose register (rax rcx rdx rsi rdi r8-r11) that
//!    held a secret-derived value (today: the scalar Poly1305 products of
//!    chacha_poly_avx512.S in rdx, r8, r9). Pointers, lengths, block counts, loop counters
//!    and the public counter words stay. Callee-saved registers are restored as the ABI
//!    requires;
//! 3. zeroes whatever key-derived data it put on the stack or in the red zone (chacha_avx2.S
//!    its frame, chacha_avx512.S and chacha_poly_avx512.S the 64-byte PRE area); the other
//!    kernels use no stack.
//!
//! Opmask registers hold only length-derived tail masks in our kernels and are not cleared.
//!
//! The check: on x86_64 the trampoline also fills every vector register with a random canary
//! before the call (zmm0-31 when the CPU has AVX512F, else ymm0-15 with AVX, else xmm0-15)
//! and records them after it; every 16-byte lane must come back either as the canary's
//! (untouched) or as zero. It records the caller-saved registers rcx rdx rsi rdi r8-r11
//! too (r10 and r11 zeroed before the call): each must look public, i.e. be zero, fit in
//! 32 bits, be a low-bit mask, lie within 2^24 of an argument of the call, or be an address
//! in a mapping of the process (a pointer into a constant table) (a 64-bit
//! secret passes that by chance with probability below 2^-29; a secret of 32 bits or fewer
//! is not caught, which is why point 2 is also a review rule). [`AbiReport::assert_clean`]
//! fails on any of these, so every kernel's ABI test enforces the policy; the canaries
//! below prove each check can fail.
//!
//! The cost: a kernel's end changes from `vzeroupper` to `CLEAR` (16 zeroing idioms and
//! `vzeroall`). In a loop calling a function that writes all 32 zmm registers, that is
//! 16.9 TSC ticks per call against 12.8 with `vzeroupper` (4 ticks; `vzeroall` alone 15.4;
//! the EVEX xmm and zmm forms of the zeroing cost the same), on the Xeon (Sapphire Rapids
//! class) this was written on.
//!
//! ## armv7
//!
//! The same policy holds for every kernel in `asm/arm/` (written out in
//! `asm/arm/vec_clear.h`): before returning, a kernel zeroes the caller-saved NEON registers
//! q0-q3 and q8-q15 (d0-d7, d16-d31) with the `CLEAR_NEON` macro (12 `vmov.i8 qN, #0`);
//! d8-d15 are callee-saved and popped, so they hold the caller's values again. Only
//! sha1_neon.S and sha256_neon.S keep secrets in core registers (their rounds are integer
//! code: the working variables in callee-saved registers, which are popped, and temporaries in
//! r0, r2, r3, r12, which they zero); the other kernels' scalar work is pointers, counts and
//! the public CTR/ChaCha20 counter words. chacha_neon.S and aes_bs_neon.S zero the
//! key-derived parts of their stack frames, sha1_neon.S and sha256_neon.S their W+K rings,
//! before popping them; the others keep nothing on the stack but the pushed callee-saved
//! registers.
//!
//! The check: the arm trampoline fills d0-d7 with a random canary before the call, and
//! d16-d31 too when the CPU has 32 D registers (Linux `HWCAP_VFPD32`; NEON implies it, so
//! on a VFPv3-D16 core such as qemu `cortex-a15,neon=off` only d0-d7 are checked, and no
//! NEON kernel runs there). Each D register must come back as its canary or zero, and r1-r3,
//! r12 must look public ([`looks_public`] with 32-bit rules: zero, within 2^16 of zero, a
//! low-bit mask, within 2^16 of an argument, or an address in a mapping of the process).
//! With 32-bit registers that last rule is weak: a secret word passes whenever it happens
//! to fall in a mapped range (its probability is the mapped fraction of the 4 GiB address
//! space), so on arm the core-register rule is above all a review rule and the check a
//! backstop; the vector check has no such gap.
//!
//! The cost on armv7: 12 `vmov.i8` per call in the kernels that had no clearing before
//! (aes_armv8 ECB/CTR/CBC/IGE, ghash_armv8, ghash_neon, sha1_armv8, sha256_armv8,
//! sha512_neon; 1-2 in the AES key-expansion helpers); chacha_neon, poly1305_neon and
//! aes_bs_neon already cleared the same registers (no change). Against a call's work (one
//! 64-byte SHA-256 block is 16 SHA256H/H2 pairs plus the schedule, hundreds of cycles) that
//! is well under 5% even for a single block; not benchmarked (no arm hardware, and qemu
//! timings mean nothing).
//!
//! ## What the policy cannot cover
//!
//! It covers the assembly kernels only. Values the Rust code around them holds -- the
//! wrappers' locals, the registers and stack slots the compiler allocates for them, and
//! everything in the intrinsics kernels (aarch64) and the portable Rust kernels -- are
//! compiler-managed: no instruction sequence of ours controls what stays in those registers
//! or below the stack pointer. They are wiped only where the Rust code wipes its own buffers
//! (key schedules and state structs zeroed on drop); copies the compiler makes in registers
//! or spill slots are not.

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
        /// x86_64: rcx rdx rsi rdi r8 r9 r10 r11 after the call.
        #[cfg(target_arch = "x86_64")]
        scratch: [u64; 8],
        /// x86_64: the width of the vector canary (0 xmm0-15, 1 ymm0-15, 2 zmm0-31).
        #[cfg(target_arch = "x86_64")]
        vec_mode: u64,
        #[cfg(target_arch = "x86_64")]
        _pad: u64,
        /// x86_64: the vector canary, 64 bytes per register.
        #[cfg(target_arch = "x86_64")]
        vec_in: [[u8; 64]; 32],
        /// x86_64: the vector registers after the call (same layout and width).
        #[cfg(target_arch = "x86_64")]
        vec_out: [[u8; 64]; 32],
        /// arm: r1 r2 r3 r12 after the call.
        #[cfg(target_arch = "arm")]
        scratch: [u32; 4],
        /// arm: the canary of the caller-saved d0-d7, d16-d31 (in that order).
        #[cfg(target_arch = "arm")]
        vec_in: [u64; 24],
        /// arm: those registers after the call (d16-d31 only with `flags` bit 0).
        #[cfg(target_arch = "arm")]
        vec_out: [u64; 24],
    }

    #[cfg(target_arch = "x86_64")]
    const _: () = {
        assert!(core::mem::offset_of!(Frame, gpr_in) == 0);
        assert!(core::mem::offset_of!(Frame, gpr_out) == 48);
        assert!(core::mem::offset_of!(Frame, sp_delta) == 96);
        assert!(core::mem::offset_of!(Frame, flags) == 104);
        assert!(core::mem::offset_of!(Frame, scratch) == 112);
        assert!(core::mem::offset_of!(Frame, vec_mode) == 176);
        assert!(core::mem::offset_of!(Frame, vec_in) == 192);
        assert!(core::mem::offset_of!(Frame, vec_out) == 2240);
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
        assert!(core::mem::offset_of!(Frame, scratch) == 200);
        assert!(core::mem::offset_of!(Frame, vec_in) == 216);
        assert!(core::mem::offset_of!(Frame, vec_out) == 408);
        assert!(core::mem::size_of::<Frame>() == 600);
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

    /// x86_64: the caller-saved general-purpose registers the trampoline records.
    #[cfg(target_arch = "x86_64")]
    const SCRATCH: [&str; 8] = ["rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11"];
    /// arm: the caller-saved core registers the trampoline records (r0 is the result, lr
    /// the return address).
    #[cfg(target_arch = "arm")]
    const SCRATCH: [&str; 4] = ["r1", "r2", "r3", "r12"];
    /// arm: the caller-saved D registers the trampoline fills with the canary, in the
    /// order of `Frame::vec_in` (the register numbers).
    #[cfg(target_arch = "arm")]
    const VEC_REGS: [usize; 24] = [
        0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
    ];

    /// Whether a caller-saved register value looks public (policy point 2, see the module
    /// doc): zero, a small value (x86_64: 32 bits, counts and counter words; arm: within
    /// 2^16 of zero), a low-bit mask `2^k - 1`, near one of the call's arguments (x86_64:
    /// within 2^24, arm: 2^16; pointers and lengths moved by the call), or an address inside
    /// a mapping of this process (a pointer into a constant table; an address is not a
    /// secret). A 64-bit secret passes by chance with probability below 2^-29; a 32-bit one
    /// on arm passes when it happens to fall in a mapping (see the module doc).
    #[cfg(any(target_arch = "x86_64", target_arch = "arm"))]
    fn looks_public(v: u64, args: &[usize]) -> bool {
        // |x - y| in the register width.
        #[cfg(target_arch = "x86_64")]
        let (dist, near_max, small) = (
            |x: u64, y: u64| x.wrapping_sub(y).min(y.wrapping_sub(x)),
            1u64 << 24,
            (v as i64).unsigned_abs() <= u64::from(u32::MAX),
        );
        #[cfg(target_arch = "arm")]
        let (dist, near_max, small) = (
            |x: u64, y: u64| {
                let (x, y) = (x as u32, y as u32);
                u64::from(x.wrapping_sub(y).min(y.wrapping_sub(x)))
            },
            1u64 << 16,
            (v as u32 as i32).unsigned_abs() <= 1 << 16,
        );
        let mask = v & v.wrapping_add(1) == 0;
        let near = args.iter().any(|&a| dist(v, a as u64) <= near_max);
        small || mask || near || is_mapped(v)
    }

    /// Whether `v` is an address in one of the process's mappings (/proc/self/maps).
    #[cfg(any(target_arch = "x86_64", target_arch = "arm"))]
    fn is_mapped(v: u64) -> bool {
        let Ok(maps) = std::fs::read_to_string("/proc/self/maps") else {
            return false;
        };
        maps.lines().any(|l| {
            let range = l.split(' ').next().unwrap_or("");
            let mut ends = range.split('-').map(|x| u64::from_str_radix(x, 16));
            matches!((ends.next(), ends.next()), (Some(Ok(lo)), Some(Ok(hi))) if lo <= v && v < hi)
        })
    }

    /// What a call did to the registers the ABI says it must preserve, and (x86_64) to the
    /// ones the register policy says it must leave without secrets.
    #[derive(Debug, Clone)]
    pub(crate) struct AbiReport {
        /// (register, value before, value after) for every register that changed.
        changed: Vec<(&'static str, u64, u64)>,
        /// Stack pointer after the call minus before it.
        sp_delta: isize,
        /// x86_64: the direction flag was set on return.
        df_set: bool,
        /// x86_64 and arm: (register number, 16-byte lane, its value) for every lane of a
        /// vector register that is neither the canary nor zero after the call (arm: one
        /// lane per D register, lane 0).
        vec_dirty: Vec<(usize, usize, u128)>,
        /// The register name the vector check uses ("xmm", "ymm", "zmm"; arm "d").
        #[cfg_attr(target_arch = "aarch64", allow(dead_code))]
        vec_name: &'static str,
        /// x86_64 and arm: (register, value) for every caller-saved general-purpose register
        /// whose value does not look public ([`looks_public`]).
        gpr_suspect: Vec<(&'static str, u64)>,
    }

    impl AbiReport {
        /// Whether the callee kept every rule checked.
        pub(crate) fn is_clean(&self) -> bool {
            self.changed.is_empty()
                && self.sp_delta == 0
                && !self.df_set
                && self.vec_dirty.is_empty()
                && self.gpr_suspect.is_empty()
        }

        /// x86_64 and arm: the numbers of the vector registers that hold something other than
        /// the canary or zero after the call (sorted, each once).
        #[cfg_attr(target_arch = "aarch64", allow(dead_code))]
        pub(crate) fn vec_dirty(&self) -> Vec<usize> {
            let mut v: Vec<usize> = self.vec_dirty.iter().map(|d| d.0).collect();
            v.dedup();
            v
        }

        /// x86_64 and arm: the caller-saved general-purpose registers left with a value that
        /// does not look public.
        #[cfg_attr(target_arch = "aarch64", allow(dead_code))]
        pub(crate) fn gpr_suspect(&self) -> Vec<&'static str> {
            self.gpr_suspect.iter().map(|g| g.0).collect()
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
            let mut msg =
                String::from("assembly function broke the calling convention or register policy:");
            for (r, before, after) in &self.changed {
                msg += &std::format!(" {r} clobbered ({before:#x} -> {after:#x});");
            }
            if self.sp_delta != 0 {
                msg += &std::format!(" stack pointer moved by {};", self.sp_delta);
            }
            if self.df_set {
                msg += " direction flag left set;";
            }
            for (r, lane, v) in &self.vec_dirty {
                let v = if self.vec_name == "d" {
                    std::format!("{v:#018x}") // one 64-bit D register (arm)
                } else {
                    std::format!("{v:#034x}")
                };
                msg += &std::format!(
                    " {}{r} lane {lane} left neither canary nor zero ({v});",
                    self.vec_name
                );
            }
            for (r, v) in &self.gpr_suspect {
                msg += &std::format!(" {r} left holding a non-public-looking value ({v:#x});");
            }
            panic!("{msg}");
        }
    }

    /// The x86_64 register-policy checks of one call (see the module doc): the vector lanes
    /// that are neither the canary nor zero, the scratch registers that do not look public,
    /// and the register name to report.
    #[cfg(target_arch = "x86_64")]
    #[allow(clippy::type_complexity)]
    fn policy_checks(
        fr: &Frame,
        a: &[usize],
    ) -> (
        Vec<(usize, usize, u128)>,
        Vec<(&'static str, u64)>,
        &'static str,
    ) {
        let (mut vec_dirty, mut gpr_suspect) = (Vec::new(), Vec::new());
        // Each 16-byte lane the trampoline loaded must come back as the canary's lane
        // (untouched; a legacy-SSE write or `vzeroupper` can zero some lanes of a register
        // and leave the others) or as zero.
        let (nreg, lanes, name) = match fr.vec_mode {
            2 => (32, 4, "zmm"),
            1 => (16, 2, "ymm"),
            _ => (16, 1, "xmm"),
        };
        for r in 0..nreg {
            for l in 0..lanes {
                let lane = |b: &[u8; 64]| {
                    let mut w = [0u8; 16];
                    w.copy_from_slice(&b[16 * l..16 * l + 16]);
                    u128::from_le_bytes(w)
                };
                let (canary, got) = (lane(&fr.vec_in[r]), lane(&fr.vec_out[r]));
                if got != canary && got != 0 {
                    vec_dirty.push((r, l, got));
                }
            }
        }
        for (i, reg) in SCRATCH.iter().enumerate() {
            if !looks_public(fr.scratch[i], a) {
                gpr_suspect.push((*reg, fr.scratch[i]));
            }
        }
        (vec_dirty, gpr_suspect, name)
    }

    /// The arm register-policy checks of one call (see the module doc): each caller-saved
    /// D register the trampoline loaded (d0-d7, and d16-d31 when the CPU has them) must come
    /// back as its canary or zero, and r1-r3, r12 must look public. Reported as (register
    /// number, lane 0, value) with the name "d".
    #[cfg(target_arch = "arm")]
    #[allow(clippy::type_complexity)]
    fn policy_checks(
        fr: &Frame,
        a: &[usize],
    ) -> (
        Vec<(usize, usize, u128)>,
        Vec<(&'static str, u64)>,
        &'static str,
    ) {
        let (mut vec_dirty, mut gpr_suspect) = (Vec::new(), Vec::new());
        let nvec = if fr.flags & FLAG_D32 != 0 { 24 } else { 8 };
        for i in 0..nvec {
            let (canary, got) = (fr.vec_in[i], fr.vec_out[i]);
            if got != canary && got != 0 {
                vec_dirty.push((VEC_REGS[i], 0, u128::from(got)));
            }
        }
        for (i, reg) in SCRATCH.iter().enumerate() {
            let v = u64::from(fr.scratch[i]);
            if !looks_public(v, a) {
                gpr_suspect.push((*reg, v));
            }
        }
        (vec_dirty, gpr_suspect, "d")
    }

    /// arm: `Frame::flags` bit 0, the CPU has d16-d31 (the trampoline loads and stores them).
    #[cfg(target_arch = "arm")]
    const FLAG_D32: usize = 1;

    /// arm: whether the CPU has 32 D registers (Linux `HWCAP_VFPD32`, bit 19 of AT_HWCAP;
    /// NEON implies it). Elsewhere assumed not: the check then covers d0-d7 only.
    #[cfg(target_arch = "arm")]
    fn has_d32() -> bool {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: getauxval has no preconditions; it returns 0 for an unknown type.
            let hw = unsafe { libc::getauxval(libc::AT_HWCAP) };
            hw & (1 << 19) != 0
        }
        #[cfg(not(target_os = "linux"))]
        {
            false
        }
    }

    /// No register-policy checks on this architecture.
    #[cfg(target_arch = "aarch64")]
    #[allow(clippy::type_complexity)]
    fn policy_checks(
        _fr: &Frame,
        _a: &[usize],
    ) -> (
        Vec<(usize, usize, u128)>,
        Vec<(&'static str, u64)>,
        &'static str,
    ) {
        (Vec::new(), Vec::new(), "")
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
            #[cfg(target_arch = "arm")]
            flags: if has_d32() { FLAG_D32 } else { 0 },
            #[cfg(not(target_arch = "arm"))]
            flags: 0,
            #[cfg(target_arch = "x86_64")]
            scratch: [0; 8],
            #[cfg(target_arch = "x86_64")]
            vec_mode: if std::is_x86_feature_detected!("avx512f") {
                2
            } else if std::is_x86_feature_detected!("avx") {
                1
            } else {
                0
            },
            #[cfg(target_arch = "x86_64")]
            _pad: 0,
            #[cfg(target_arch = "x86_64")]
            vec_in: [[0; 64]; 32],
            #[cfg(target_arch = "x86_64")]
            vec_out: [[0; 64]; 32],
            #[cfg(target_arch = "arm")]
            scratch: [0; 4],
            #[cfg(target_arch = "arm")]
            vec_in: [0; 24],
            #[cfg(target_arch = "arm")]
            vec_out: [0; 24],
        };
        for r in fr.gpr_in.iter_mut() {
            *r = splitmix(&mut seed) as usize;
        }
        for r in fr.simd_in.iter_mut() {
            *r = splitmix(&mut seed);
        }
        #[cfg(target_arch = "x86_64")]
        for r in fr.vec_in.iter_mut() {
            for w in r.chunks_exact_mut(8) {
                w.copy_from_slice(&splitmix(&mut seed).to_le_bytes());
            }
        }
        #[cfg(target_arch = "arm")]
        for r in fr.vec_in.iter_mut() {
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
        let (vec_dirty, gpr_suspect, vec_name) = policy_checks(&fr, &a);
        (
            ret,
            AbiReport {
                changed,
                sp_delta: fr.sp_delta,
                df_set,
                vec_dirty,
                vec_name,
                gpr_suspect,
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
            /// Leaves its argument in xmm5 (SSE2).
            fn simdcrypt_abi_canary_vec_leak();
            /// Leaves its argument in xmm7 after `vzeroupper` (AVX).
            fn simdcrypt_abi_canary_vec_leak_vzu();
            /// Leaves zmm20 all ones after `vzeroall` (AVX512F).
            fn simdcrypt_abi_canary_vec_leak_zmm();
            /// Puts its argument in xmm5, then zeroes xmm5 (SSE2).
            fn simdcrypt_abi_canary_vec_wipe();
            /// Puts its argument in zmm3 and zmm20, then CLEAR (AVX512F).
            fn simdcrypt_abi_canary_vec_wipe_zmm();
            /// Leaves a 64-bit multiple of its argument in r9.
            fn simdcrypt_abi_canary_gpr_leak();
        }

        #[cfg(target_arch = "arm")]
        unsafe extern "C" {
            /// Leaves its argument in both halves of d2 and d3 (q1).
            fn simdcrypt_abi_canary_vec_leak();
            /// Leaves its argument in both halves of d20 (needs d16-d31).
            fn simdcrypt_abi_canary_vec_leak_hi();
            /// Puts its argument in q1, then zeroes q1.
            fn simdcrypt_abi_canary_vec_wipe();
            /// Leaves its argument rotated right by 13 bits in r2.
            fn simdcrypt_abi_canary_gpr_leak();
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

        /// A "secret" for the policy canaries: 64 irregular bits, neither zero nor small.
        #[cfg(target_arch = "x86_64")]
        const SECRET: usize = 0x5be0_cd19_137e_2179;
        /// arm: a 32-bit "secret" for the policy canaries.
        #[cfg(target_arch = "arm")]
        const SECRET: usize = 0x5be0_cd19;

        #[test]
        #[cfg(target_arch = "arm")]
        fn arm_vector_register_left_holding_data_is_caught() {
            // SAFETY: the canary takes one integer and reads no memory (VFP d0-d15 only,
            // present on every hard-float core).
            let (_, rep) =
                unsafe { abi_call(simdcrypt_abi_canary_vec_leak as *const (), &[SECRET]) };
            assert!(!rep.is_clean());
            assert_eq!(rep.vec_dirty(), [2, 3]);
            assert!(rep.clobbered().is_empty() && rep.gpr_suspect().is_empty());
            let msg = std::panic::catch_unwind(|| rep.assert_clean()).unwrap_err();
            let msg = msg.downcast_ref::<String>().unwrap();
            assert!(
                msg.contains("d2 lane 0") && msg.contains("5be0cd195be0cd19"),
                "{msg}"
            );
        }

        #[test]
        #[cfg(target_arch = "arm")]
        fn arm_high_d_register_is_caught() {
            if !has_d32() {
                std::eprintln!("no d16-d31: high D register canary not run");
                return;
            }
            // SAFETY: the canary takes one integer and reads no memory; the CPU has d16-d31.
            let (_, rep) =
                unsafe { abi_call(simdcrypt_abi_canary_vec_leak_hi as *const (), &[SECRET]) };
            assert!(!rep.is_clean());
            assert_eq!(rep.vec_dirty(), [20]);
        }

        #[test]
        #[cfg(target_arch = "arm")]
        fn arm_wiped_vector_registers_are_clean() {
            // SAFETY: the canary takes one integer and reads no memory (VFP d0-d15 only).
            let (_, rep) =
                unsafe { abi_call(simdcrypt_abi_canary_vec_wipe as *const (), &[SECRET]) };
            rep.assert_clean();
        }

        #[test]
        #[cfg(target_arch = "arm")]
        fn arm_core_register_left_holding_a_secret_is_caught() {
            let leaked = (SECRET as u32).rotate_right(13);
            // The check is a heuristic: the leaked word must not happen to be an address in
            // this process (see the module doc), or the canary proves nothing.
            assert!(!is_mapped(u64::from(leaked)), "{leaked:#x} is mapped here");
            // SAFETY: the canary takes one integer and reads no memory.
            let (_, rep) =
                unsafe { abi_call(simdcrypt_abi_canary_gpr_leak as *const (), &[SECRET]) };
            assert!(!rep.is_clean());
            assert_eq!(rep.gpr_suspect(), ["r2"]);
            assert!(rep.vec_dirty().is_empty() && rep.clobbered().is_empty());
            let msg = std::panic::catch_unwind(|| rep.assert_clean()).unwrap_err();
            let msg = msg.downcast_ref::<String>().unwrap();
            assert!(
                msg.contains(&std::format!(
                    "r2 left holding a non-public-looking value ({leaked:#x})"
                )),
                "{msg}"
            );
        }

        #[cfg(target_arch = "arm")]
        static SECRET_TABLE: [u8; 16] = [7; 16];

        #[test]
        #[cfg(target_arch = "arm")]
        fn arm_public_looking_values() {
            let args = [0x4000_1000usize, 4096];
            assert!(looks_public(0, &args));
            assert!(looks_public(17, &args)); // a count
            assert!(looks_public(0xffff_fff0, &args)); // a small negative
            assert!(looks_public(0xffff_ffff, &args)); // an all-ones mask
            assert!(looks_public(0x00ff_ffff, &args)); // a low-bit mask
            assert!(looks_public(0x4000_1000 + 5000, &args)); // a pointer moved on
            assert!(looks_public(0x4000_1000 - 16, &args));
            assert!(looks_public(SECRET_TABLE.as_ptr() as u64 + 4, &args)); // a table pointer
            let far = 0x4000_1000 + (1 << 20);
            if !is_mapped(far) {
                assert!(!looks_public(far, &args));
            }
            assert!(!is_mapped(SECRET as u64), "{SECRET:#x} is mapped here");
            assert!(!looks_public(SECRET as u64, &args));
        }

        #[test]
        #[cfg(target_arch = "x86_64")]
        fn vector_register_left_holding_data_is_caught() {
            // SAFETY: the canary takes one integer and reads no memory (SSE2 is baseline).
            let (_, rep) =
                unsafe { abi_call(simdcrypt_abi_canary_vec_leak as *const (), &[SECRET]) };
            assert!(!rep.is_clean());
            assert_eq!(rep.vec_dirty(), [5]);
            assert!(rep.clobbered().is_empty() && rep.gpr_suspect().is_empty());
            let msg = std::panic::catch_unwind(|| rep.assert_clean()).unwrap_err();
            let msg = msg.downcast_ref::<String>().unwrap();
            assert!(
                msg.contains("mm5 lane 0") && msg.contains("5be0cd19137e2179"),
                "{msg}"
            );
        }

        #[test]
        #[cfg(target_arch = "x86_64")]
        fn vzeroupper_alone_is_caught() {
            if !std::is_x86_feature_detected!("avx") {
                std::eprintln!("no AVX: vzeroupper canary not run");
                return;
            }
            // SAFETY: the canary takes one integer and reads no memory; the CPU has AVX.
            let (_, rep) =
                unsafe { abi_call(simdcrypt_abi_canary_vec_leak_vzu as *const (), &[SECRET]) };
            assert!(!rep.is_clean());
            assert_eq!(rep.vec_dirty(), [7]);
        }

        #[test]
        #[cfg(target_arch = "x86_64")]
        fn high_vector_register_is_caught() {
            if !std::is_x86_feature_detected!("avx512f") {
                std::eprintln!("no AVX512F: zmm16-31 canary not run");
                return;
            }
            // SAFETY: the canary takes no arguments and reads no memory; the CPU has AVX512F.
            let (_, rep) = unsafe { abi_call(simdcrypt_abi_canary_vec_leak_zmm as *const (), &[]) };
            assert!(!rep.is_clean());
            assert_eq!(rep.vec_dirty(), [20]);
        }

        #[test]
        #[cfg(target_arch = "x86_64")]
        fn wiped_vector_registers_are_clean() {
            // SAFETY: the canary takes one integer and reads no memory (SSE2 is baseline).
            let (_, rep) =
                unsafe { abi_call(simdcrypt_abi_canary_vec_wipe as *const (), &[SECRET]) };
            rep.assert_clean();
            if std::is_x86_feature_detected!("avx512f") {
                // SAFETY: as above; the CPU has AVX512F.
                let (_, rep) =
                    unsafe { abi_call(simdcrypt_abi_canary_vec_wipe_zmm as *const (), &[SECRET]) };
                rep.assert_clean();
            }
        }

        #[test]
        #[cfg(target_arch = "x86_64")]
        fn general_register_left_holding_a_secret_is_caught() {
            // SAFETY: the canary takes one integer and reads no memory.
            let (_, rep) =
                unsafe { abi_call(simdcrypt_abi_canary_gpr_leak as *const (), &[SECRET]) };
            assert!(!rep.is_clean());
            assert_eq!(rep.gpr_suspect(), ["r9"]);
            assert!(rep.vec_dirty().is_empty() && rep.clobbered().is_empty());
        }

        #[cfg(target_arch = "x86_64")]
        static SECRET_TABLE: [u8; 16] = [7; 16];

        #[test]
        #[cfg(target_arch = "x86_64")]
        fn public_looking_values() {
            let args = [0x7f12_3456_7000usize, 4096];
            assert!(looks_public(0, &args));
            assert!(looks_public(0xffff_fff0, &args)); // a 32-bit counter word
            assert!(looks_public(u64::MAX, &args)); // an all-ones mask
            assert!(looks_public(0x0000_00ff_ffff_ffff, &args)); // a bzhi mask
            assert!(looks_public(0x7f12_3456_7000 + 5000, &args)); // a pointer moved on
            assert!(looks_public(0x7f12_3456_7000 - 16, &args));
            assert!(looks_public(SECRET_TABLE.as_ptr() as u64 + 4, &args)); // a table pointer
            assert!(!looks_public(SECRET as u64, &args));
            assert!(!looks_public(0x7f12_3456_7000 + (1 << 25), &args));
        }
    }
}
