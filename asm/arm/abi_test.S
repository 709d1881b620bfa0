/*
 * abi_test.S (32-bit ARM) -- the calling-convention test harness behind src/abi_test.rs.
 *
 * Features: ARMv7-A, A32 (ARM) instruction set, VFPv3-D16 (only d8-d15 are touched, so it
 * also runs on cores without NEON, e.g. qemu `cortex-a15,neon=off`). ABI: AAPCS with the
 * hard-float variant (arm-linux-gnueabihf); ELF only (the file assembles to nothing
 * elsewhere and the Rust side is compiled out). Test-only code, dropped by the linker from
 * non-test binaries.
 *
 * AAPCS §5.1.1 (core registers): r4-r8, r10, r11 and sp are callee-saved; r9 is the
 * platform register, callee-saved on Linux (we check it too). §5.1.2.1 (VFP registers):
 * s16-s31 = d8-d15 are callee-saved; d0-d7 and d16-d31 are not. The stack is 8-byte aligned
 * at every public interface (§5.2.1.2).
 *
 * uint32_t simdcrypt_abi_call(struct frame *fr, const void *f, const uint32_t args[4]);
 *   Loads r4-r11 with fr->gpr_in and d8-d15 with fr->simd_in, calls f(args[0..4]) (through
 *   blx, so f may be ARM or Thumb code), stores those registers into fr->gpr_out /
 *   fr->simd_out and the change of sp into fr->sp_delta, and returns f's r0. Not reentrant:
 *   sp is kept in a static word across the call (the callee may change sp and every
 *   register, and a stack slot is only findable through sp). The Rust side serialises calls
 *   with a mutex.
 *
 * struct frame (offsets below; src/abi_test.rs checks them with offset_of!):
 *     0  gpr_in[8]    r4 .. r11
 *    32  simd_in[8]   d8 .. d15
 *    96  gpr_out[8]
 *   128  simd_out[8]
 *   192  sp_delta     sp after the call minus sp before it
 *   196  flags        unused on arm (0)
 *
 * Stack frame of simdcrypt_abi_call (104 bytes, 8-aligned):
 *   [sp, #0..#63] d8-d15   [sp, #64] fr (pushed r0)   [sp, #68..#99] r4-r11   [sp, #100] lr
 *
 * Registers in simdcrypt_abi_call:
 *   r0   fr on entry, then argument 1;  r1: f, then argument 2;  r2: args, then argument 3
 *   r3   argument 4; scratch (addresses) around the call
 *   r12  f at the call (ip);  lr: args while loading
 *   r4-r11, d8-d15: the test pattern (our caller's values are in the frame)
 *
 * Canaries (for the harness's own tests):
 *   simdcrypt_abi_canary_clean(a, b, c, d)  returns a + 2b + 3c + 4d; uses r4 and d8, saving them
 *   simdcrypt_abi_canary_clobber()          inverts r10
 *   simdcrypt_abi_canary_clobber_simd()     changes d12
 *   simdcrypt_abi_canary_sp()               returns with sp 16 bytes lower
 */

#if defined(__ELF__) && defined(__arm__)

#define FR_GPR_IN    0
#define FR_SIMD_IN   32
#define FR_GPR_OUT   96
#define FR_SIMD_OUT  128
#define FR_SP_DELTA  192
#define FR_FLAGS     196

        .syntax unified
        .arch   armv7-a
        .fpu    vfpv3-d16
        .arm
        .text

        .globl  simdcrypt_abi_call
        .hidden simdcrypt_abi_call
        .type   simdcrypt_abi_call, %function
        .p2align 2
simdcrypt_abi_call:
        push    {r0, r4-r11, lr}
        vpush   {d8-d15}
        ldr     r3, .Lsaved_rel0
.Lpc0:  add     r3, pc, r3                      /* &saved_sp (pc reads as .Lpc0 + 8) */
        str     sp, [r3]

        mov     r12, r1
        mov     lr, r2
        ldm     r0, {r4-r11}                    /* FR_GPR_IN = 0 */
        add     r3, r0, #FR_SIMD_IN
        vldm    r3, {d8-d15}
        ldm     lr, {r0-r3}
        blx     r12

        /* r0 = the result: keep it. Get our sp back from the static word. */
        ldr     r3, .Lsaved_rel1
.Lpc1:  add     r3, pc, r3
        ldr     r2, [r3]
        sub     r1, sp, r2                      /* sp_delta */
        mov     sp, r2
        ldr     r12, [sp, #64]                  /* fr */
        add     r3, r12, #FR_GPR_OUT
        stm     r3, {r4-r11}
        add     r3, r12, #FR_SIMD_OUT
        vstm    r3, {d8-d15}
        str     r1, [r12, #FR_SP_DELTA]
        mov     r1, #0
        str     r1, [r12, #FR_FLAGS]

        vpop    {d8-d15}
        pop     {r1, r4-r11, pc}                /* r1 takes the pushed fr */

        .p2align 2
.Lsaved_rel0:
        .word   .Lsaved_sp - (.Lpc0 + 8)
.Lsaved_rel1:
        .word   .Lsaved_sp - (.Lpc1 + 8)
        .size   simdcrypt_abi_call, .-simdcrypt_abi_call

/* A well-behaved function: uses r4 and d8 (callee-saved) and restores them. */
        .globl  simdcrypt_abi_canary_clean
        .hidden simdcrypt_abi_canary_clean
        .type   simdcrypt_abi_canary_clean, %function
        .p2align 2
simdcrypt_abi_canary_clean:
        push    {r4, lr}
        vpush   {d8}
        add     r4, r0, r1, lsl #1              /* a + 2b */
        add     r2, r2, r2, lsl #1              /* 3c */
        add     r4, r4, r2
        add     r4, r4, r3, lsl #2              /* + 4d */
        vmov    d8, r4, r4                      /* a round trip through d8 */
        vmov    r0, r1, d8
        vpop    {d8}
        pop     {r4, pc}
        .size   simdcrypt_abi_canary_clean, .-simdcrypt_abi_canary_clean

/* Deliberately breaks the ABI: r10 comes back inverted. */
        .globl  simdcrypt_abi_canary_clobber
        .hidden simdcrypt_abi_canary_clobber
        .type   simdcrypt_abi_canary_clobber, %function
        .p2align 2
simdcrypt_abi_canary_clobber:
        mvn     r10, r10
        mov     r0, #0
        bx      lr
        .size   simdcrypt_abi_canary_clobber, .-simdcrypt_abi_canary_clobber

/* Deliberately breaks the ABI: d12 comes back with its two halves swapped and inverted. */
        .globl  simdcrypt_abi_canary_clobber_simd
        .hidden simdcrypt_abi_canary_clobber_simd
        .type   simdcrypt_abi_canary_clobber_simd, %function
        .p2align 2
simdcrypt_abi_canary_clobber_simd:
        vmov    r0, r1, d12
        mvn     r0, r0
        vmov    d12, r1, r0
        mov     r0, #0
        bx      lr
        .size   simdcrypt_abi_canary_clobber_simd, .-simdcrypt_abi_canary_clobber_simd

/* Deliberately breaks the ABI: returns with sp 16 bytes lower. */
        .globl  simdcrypt_abi_canary_sp
        .hidden simdcrypt_abi_canary_sp
        .type   simdcrypt_abi_canary_sp, %function
        .p2align 2
simdcrypt_abi_canary_sp:
        sub     sp, sp, #16
        mov     r0, #0
        bx      lr
        .size   simdcrypt_abi_canary_sp, .-simdcrypt_abi_canary_sp

        .bss
        .p2align 2
.Lsaved_sp:
        .space  4

        .section .note.GNU-stack,"",%progbits

#endif
