/*
 * abi_test.S (32-bit ARM) -- the calling-convention test harness behind src/abi_test.rs.
 *
 * Features: ARMv7-A, A32 (ARM) instruction set, VFPv3-D16. d16-d31 are touched only when
 * fr->flags bit 0 says the CPU has 32 D registers (Linux HWCAP_VFPD32, which NEON implies;
 * those few instructions are assembled with `.fpu vfpv3`), so the harness also runs on cores
 * without NEON, e.g. qemu `cortex-a15,neon=off`. ABI: AAPCS with the hard-float variant
 * (arm-linux-gnueabihf); ELF only (the file assembles to nothing elsewhere and the Rust side
 * is compiled out). Test-only code, dropped by the linker from non-test binaries.
 *
 * AAPCS §5.1.1 (core registers): r4-r8, r10, r11 and sp are callee-saved; r9 is the
 * platform register, callee-saved on Linux (we check it too). §5.1.2.1 (VFP registers):
 * s16-s31 = d8-d15 are callee-saved; d0-d7 and d16-d31 are not. The stack is 8-byte aligned
 * at every public interface (§5.2.1.2).
 *
 * uint32_t simdcrypt_abi_call(struct frame *fr, const void *f, const uint32_t args[4]);
 *   Loads r4-r11 with fr->gpr_in and d8-d15 with fr->simd_in, and the caller-saved d0-d7
 *   (and d16-d31 when flags bit 0 is set) with the canary fr->vec_in; calls f(args[0..4])
 *   (through blx, so f may be ARM or Thumb code); stores r1-r3 and r12 into fr->scratch,
 *   d0-d7 (d16-d31) into fr->vec_out, r4-r11 / d8-d15 into fr->gpr_out / fr->simd_out and
 *   the change of sp into fr->sp_delta, and returns f's r0. The Rust side checks the
 *   callee-saved registers are unchanged and, for the register policy of vec_clear.h, that
 *   every vec_out register is its canary or zero and every scratch register looks public.
 *   Not reentrant:
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
 *   196  flags        in: bit 0 = the CPU has d16-d31 (load and store them too); not written
 *   200  scratch[4]   r1, r2, r3, r12 after the call
 *   216  vec_in[24]   the canary: d0 .. d7, then d16 .. d31 (8 bytes each)
 *   408  vec_out[24]  the same registers after the call (d16-d31 left as they are without
 *                     flags bit 0)
 *
 * Stack frame of simdcrypt_abi_call (104 bytes, 8-aligned):
 *   [sp, #0..#63] d8-d15   [sp, #64] fr (pushed r0)   [sp, #68..#99] r4-r11   [sp, #100] lr
 *
 * Registers in simdcrypt_abi_call:
 *   r0   fr on entry, then argument 1;  r1: f, then flags, then argument 2
 *   r2   args, then argument 3;  r3: argument 4; scratch (addresses) around the call
 *   r12  f at the call (ip);  lr: args while loading, then &saved_sp, saved sp, fr after it
 *   r4-r11, d8-d15: the test pattern (our caller's values are in the frame)
 *   d0-d7, d16-d31: the canary (caller-saved: our caller expects nothing of them)
 *
 * Canaries (for the harness's own tests):
 *   simdcrypt_abi_canary_clean(a, b, c, d)  returns a + 2b + 3c + 4d; uses r4 and d8, saving them
 *   simdcrypt_abi_canary_clobber()          inverts r10
 *   simdcrypt_abi_canary_clobber_simd()     changes d12
 *   simdcrypt_abi_canary_sp()               returns with sp 16 bytes lower
 *   simdcrypt_abi_canary_vec_leak(s)        leaves s in both halves of d2 and d3 (q1)
 *   simdcrypt_abi_canary_vec_leak_hi(s)     leaves s in d20 (needs d16-d31)
 *   simdcrypt_abi_canary_vec_wipe(s)        puts s in q1, then zeroes q1: clean
 *   simdcrypt_abi_canary_gpr_leak(s)        leaves s rotated right by 13 in r2
 */

#if defined(__ELF__) && defined(__arm__)

#define FR_GPR_IN    0
#define FR_SIMD_IN   32
#define FR_GPR_OUT   96
#define FR_SIMD_OUT  128
#define FR_SP_DELTA  192
#define FR_FLAGS     196
#define FR_SCRATCH   200
#define FR_VEC_IN    216
#define FR_VEC_OUT   408

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
        add     r3, r0, #FR_VEC_IN
        vldmia  r3!, {d0-d7}
        ldr     r1, [r0, #FR_FLAGS]
        tst     r1, #1
        beq     1f
        .fpu    vfpv3
        vldmia  r3, {d16-d31}
        .fpu    vfpv3-d16
1:      ldm     r0, {r4-r11}                    /* FR_GPR_IN = 0 */
        add     r3, r0, #FR_SIMD_IN
        vldm    r3, {d8-d15}
        ldm     lr, {r0-r3}
        blx     r12

        /* r0 = the result: keep it. lr is the one free register: reach fr through the
         * static word (our frame is intact above wherever the callee left sp) and store
         * the caller-saved registers before anything else changes them. */
        ldr     lr, .Lsaved_rel1
.Lpc1:  add     lr, pc, lr
        ldr     lr, [lr]                        /* our sp */
        ldr     lr, [lr, #64]                   /* fr */
        add     lr, lr, #FR_SCRATCH
        stm     lr, {r1-r3, r12}
        sub     lr, lr, #FR_SCRATCH
        add     r3, lr, #FR_VEC_OUT
        vstmia  r3!, {d0-d7}
        ldr     r1, [lr, #FR_FLAGS]
        tst     r1, #1
        beq     2f
        .fpu    vfpv3
        vstmia  r3, {d16-d31}
        .fpu    vfpv3-d16
2:
        /* Get our sp back from the static word. */
        ldr     r3, .Lsaved_rel2
.Lpc2:  add     r3, pc, r3
        ldr     r2, [r3]
        sub     r1, sp, r2                      /* sp_delta */
        mov     sp, r2
        ldr     r12, [sp, #64]                  /* fr */
        add     r3, r12, #FR_GPR_OUT
        stm     r3, {r4-r11}
        add     r3, r12, #FR_SIMD_OUT
        vstm    r3, {d8-d15}
        str     r1, [r12, #FR_SP_DELTA]

        vpop    {d8-d15}
        pop     {r1, r4-r11, pc}                /* r1 takes the pushed fr */

        .p2align 2
.Lsaved_rel0:
        .word   .Lsaved_sp - (.Lpc0 + 8)
.Lsaved_rel1:
        .word   .Lsaved_sp - (.Lpc1 + 8)
.Lsaved_rel2:
        .word   .Lsaved_sp - (.Lpc2 + 8)
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

/* Register policy canaries (vec_clear.h). VFP instructions only (d0-d15), except
 * vec_leak_hi, which the Rust side calls only when the CPU has d16-d31. */

/* Breaks the policy: its argument is left in q1 (d2 and d3). */
        .globl  simdcrypt_abi_canary_vec_leak
        .hidden simdcrypt_abi_canary_vec_leak
        .type   simdcrypt_abi_canary_vec_leak, %function
        .p2align 2
simdcrypt_abi_canary_vec_leak:
        vmov    d2, r0, r0
        vmov    d3, r0, r0
        mov     r0, #0
        bx      lr
        .size   simdcrypt_abi_canary_vec_leak, .-simdcrypt_abi_canary_vec_leak

/* Breaks the policy: its argument is left in d20 (32 D registers needed). */
        .globl  simdcrypt_abi_canary_vec_leak_hi
        .hidden simdcrypt_abi_canary_vec_leak_hi
        .type   simdcrypt_abi_canary_vec_leak_hi, %function
        .p2align 2
simdcrypt_abi_canary_vec_leak_hi:
        .fpu    vfpv3
        vmov    d20, r0, r0
        .fpu    vfpv3-d16
        mov     r0, #0
        bx      lr
        .size   simdcrypt_abi_canary_vec_leak_hi, .-simdcrypt_abi_canary_vec_leak_hi

/* Keeps the policy: its argument goes through q1, which is then zeroed. */
        .globl  simdcrypt_abi_canary_vec_wipe
        .hidden simdcrypt_abi_canary_vec_wipe
        .type   simdcrypt_abi_canary_vec_wipe, %function
        .p2align 2
simdcrypt_abi_canary_vec_wipe:
        vmov    d2, r0, r0
        vmov    d3, r0, r0
        vmov    r0, r1, d3
        mov     r0, #0
        mov     r1, #0
        vmov    d2, r0, r1
        vmov    d3, r0, r1
        bx      lr
        .size   simdcrypt_abi_canary_vec_wipe, .-simdcrypt_abi_canary_vec_wipe

/* Breaks the policy: a secret-derived word (its argument rotated right by 13) in r2. */
        .globl  simdcrypt_abi_canary_gpr_leak
        .hidden simdcrypt_abi_canary_gpr_leak
        .type   simdcrypt_abi_canary_gpr_leak, %function
        .p2align 2
simdcrypt_abi_canary_gpr_leak:
        ror     r2, r0, #13
        mov     r0, #0
        bx      lr
        .size   simdcrypt_abi_canary_gpr_leak, .-simdcrypt_abi_canary_gpr_leak

        .bss
        .p2align 2
.Lsaved_sp:
        .space  4

        .section .note.GNU-stack,"",%progbits

#endif
