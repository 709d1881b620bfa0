/*
 * abi_test.S (aarch64) -- the calling-convention test harness behind src/abi_test.rs.
 *
 * Features: baseline ARMv8-A (A64, FP/SIMD registers d8-d15 only). ABI: AAPCS64 (Linux and
 * the BSDs; ELF only: on other object formats this file assembles to nothing and the Rust
 * side is compiled out). Test-only code, dropped by the linker from non-test binaries.
 *
 * AAPCS64 §6.1.1 (general-purpose registers): x19-x28 are callee-saved, x29 is the frame
 * pointer and callee-saved, x18 is the platform register (not touched here), sp must come
 * back unchanged. §6.1.2 (SIMD and floating-point registers): the bottom 64 bits of v8-v15
 * (d8-d15) are callee-saved; their upper halves are not.
 *
 * uint64_t simdcrypt_abi_call(struct frame *fr, const void *f, const uint64_t args[8]);
 *   Loads x19-x29 with fr->gpr_in and d8-d15 with fr->simd_in, calls f(args[0..8]), stores
 *   those registers into fr->gpr_out / fr->simd_out and the change of sp into fr->sp_delta,
 *   and returns f's x0. Not reentrant: sp is kept in a static word across the call (the
 *   callee may change sp and every register, and a stack slot is only findable through sp).
 *   The Rust side serialises calls with a mutex.
 *
 * struct frame (offsets below; src/abi_test.rs checks them with offset_of!):
 *     0  gpr_in[11]   x19 .. x28, x29
 *    88  simd_in[8]   d8 .. d15
 *   152  gpr_out[11]
 *   240  simd_out[8]
 *   304  sp_delta     sp after the call minus sp before it
 *   312  flags        unused on aarch64 (0)
 *
 * Stack frame of simdcrypt_abi_call (176 bytes, 16-aligned):
 *   [sp, #0]  x29, x30   [sp, #16..#95] x19-x28   [sp, #96..#159] d8-d15   [sp, #160] fr
 *
 * Registers in simdcrypt_abi_call:
 *   x0   fr on entry, then argument 1;  x1: f, then argument 2;  x2: args, then argument 3
 *   x16  f at the call (IP0);  x17: args while loading (IP1);  x9-x11: scratch
 *   x19-x29, d8-d15: the test pattern (our caller's values are in the frame)
 *
 * Canaries (for the harness's own tests):
 *   simdcrypt_abi_canary_clean(a..h)   returns a + 2b + ... + 8h; uses x19 and d8, saving them
 *   simdcrypt_abi_canary_clobber()     inverts x23
 *   simdcrypt_abi_canary_clobber_simd() inverts d11
 *   simdcrypt_abi_canary_sp()          returns with sp 16 bytes lower
 */

#if defined(__ELF__) && defined(__aarch64__)

#define FR_GPR_IN    0
#define FR_SIMD_IN   88
#define FR_GPR_OUT   152
#define FR_SIMD_OUT  240
#define FR_SP_DELTA  304
#define FR_FLAGS     312

        .text

        .globl  simdcrypt_abi_call
        .hidden simdcrypt_abi_call
        .type   simdcrypt_abi_call, %function
        .p2align 4
simdcrypt_abi_call:
        stp     x29, x30, [sp, #-176]!
        mov     x29, sp
        stp     x19, x20, [sp, #16]
        stp     x21, x22, [sp, #32]
        stp     x23, x24, [sp, #48]
        stp     x25, x26, [sp, #64]
        stp     x27, x28, [sp, #80]
        stp     d8, d9, [sp, #96]
        stp     d10, d11, [sp, #112]
        stp     d12, d13, [sp, #128]
        stp     d14, d15, [sp, #144]
        str     x0, [sp, #160]
        adrp    x9, .Lsaved_sp
        add     x9, x9, :lo12:.Lsaved_sp
        mov     x10, sp
        str     x10, [x9]

        mov     x16, x1
        mov     x17, x2
        ldp     x19, x20, [x0, #FR_GPR_IN+0]
        ldp     x21, x22, [x0, #FR_GPR_IN+16]
        ldp     x23, x24, [x0, #FR_GPR_IN+32]
        ldp     x25, x26, [x0, #FR_GPR_IN+48]
        ldp     x27, x28, [x0, #FR_GPR_IN+64]
        ldr     x29, [x0, #FR_GPR_IN+80]
        ldp     d8, d9, [x0, #FR_SIMD_IN+0]
        ldp     d10, d11, [x0, #FR_SIMD_IN+16]
        ldp     d12, d13, [x0, #FR_SIMD_IN+32]
        ldp     d14, d15, [x0, #FR_SIMD_IN+48]
        ldp     x0, x1, [x17, #0]
        ldp     x2, x3, [x17, #16]
        ldp     x4, x5, [x17, #32]
        ldp     x6, x7, [x17, #48]
        blr     x16

        /* x0 = the result: keep it. Get our sp back from the static word. */
        adrp    x9, .Lsaved_sp
        add     x9, x9, :lo12:.Lsaved_sp
        ldr     x10, [x9]
        mov     x11, sp
        sub     x11, x11, x10                   /* sp_delta */
        mov     sp, x10
        ldr     x9, [sp, #160]                  /* fr */
        stp     x19, x20, [x9, #FR_GPR_OUT+0]
        stp     x21, x22, [x9, #FR_GPR_OUT+16]
        stp     x23, x24, [x9, #FR_GPR_OUT+32]
        stp     x25, x26, [x9, #FR_GPR_OUT+48]
        stp     x27, x28, [x9, #FR_GPR_OUT+64]
        str     x29, [x9, #FR_GPR_OUT+80]
        stp     d8, d9, [x9, #FR_SIMD_OUT+0]
        stp     d10, d11, [x9, #FR_SIMD_OUT+16]
        stp     d12, d13, [x9, #FR_SIMD_OUT+32]
        stp     d14, d15, [x9, #FR_SIMD_OUT+48]
        str     x11, [x9, #FR_SP_DELTA]
        str     xzr, [x9, #FR_FLAGS]

        ldp     x19, x20, [sp, #16]
        ldp     x21, x22, [sp, #32]
        ldp     x23, x24, [sp, #48]
        ldp     x25, x26, [sp, #64]
        ldp     x27, x28, [sp, #80]
        ldp     d8, d9, [sp, #96]
        ldp     d10, d11, [sp, #112]
        ldp     d12, d13, [sp, #128]
        ldp     d14, d15, [sp, #144]
        ldp     x29, x30, [sp], #176
        ret
        .size   simdcrypt_abi_call, .-simdcrypt_abi_call

/* A well-behaved function: uses x19 and d8 (callee-saved) and restores them. */
        .globl  simdcrypt_abi_canary_clean
        .hidden simdcrypt_abi_canary_clean
        .type   simdcrypt_abi_canary_clean, %function
        .p2align 4
simdcrypt_abi_canary_clean:
        str     x19, [sp, #-32]!
        str     d8, [sp, #16]
        mov     x19, x0                         /* a */
        mov     x9, #2
        madd    x19, x1, x9, x19                /* + 2b */
        mov     x9, #3
        madd    x19, x2, x9, x19
        mov     x9, #4
        madd    x19, x3, x9, x19
        mov     x9, #5
        madd    x19, x4, x9, x19
        mov     x9, #6
        madd    x19, x5, x9, x19
        mov     x9, #7
        madd    x19, x6, x9, x19
        mov     x9, #8
        madd    x19, x7, x9, x19
        fmov    d8, x19                         /* a round trip through d8 */
        fmov    x0, d8
        ldr     d8, [sp, #16]
        ldr     x19, [sp], #32
        ret
        .size   simdcrypt_abi_canary_clean, .-simdcrypt_abi_canary_clean

/* Deliberately breaks the ABI: x23 comes back inverted. */
        .globl  simdcrypt_abi_canary_clobber
        .hidden simdcrypt_abi_canary_clobber
        .type   simdcrypt_abi_canary_clobber, %function
        .p2align 4
simdcrypt_abi_canary_clobber:
        mvn     x23, x23
        mov     x0, #0
        ret
        .size   simdcrypt_abi_canary_clobber, .-simdcrypt_abi_canary_clobber

/* Deliberately breaks the ABI: d11 comes back inverted. */
        .globl  simdcrypt_abi_canary_clobber_simd
        .hidden simdcrypt_abi_canary_clobber_simd
        .type   simdcrypt_abi_canary_clobber_simd, %function
        .p2align 4
simdcrypt_abi_canary_clobber_simd:
        not     v11.8b, v11.8b
        mov     x0, #0
        ret
        .size   simdcrypt_abi_canary_clobber_simd, .-simdcrypt_abi_canary_clobber_simd

/* Deliberately breaks the ABI: returns with sp 16 bytes lower. */
        .globl  simdcrypt_abi_canary_sp
        .hidden simdcrypt_abi_canary_sp
        .type   simdcrypt_abi_canary_sp, %function
        .p2align 4
simdcrypt_abi_canary_sp:
        sub     sp, sp, #16
        mov     x0, #0
        ret
        .size   simdcrypt_abi_canary_sp, .-simdcrypt_abi_canary_sp

        .bss
        .p2align 3
.Lsaved_sp:
        .zero   8

        .section .note.GNU-stack,"",%progbits

#endif
