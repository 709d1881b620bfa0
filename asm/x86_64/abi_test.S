/*
 * abi_test.S (x86_64) -- the calling-convention test harness behind src/abi_test.rs.
 *
 * Features: baseline x86_64 (SSE2); the AVX and AVX512F paths of the vector canary run only
 * when the Rust side found those features (vec_mode), as do the canaries that need them.
 * ABI: System V AMD64 psABI (Linux and the BSDs; ELF only: on other object formats this file
 * assembles to nothing and the Rust side is compiled out). Test-only code: nothing in the
 * library calls it, so the static archive keeps the object but the linker drops it from
 * non-test binaries.
 *
 * The SysV ABI (psABI §3.2.1, "Registers and the Stack Frame") makes rbx, rbp, r12-r15 and
 * rsp callee-saved, and requires the direction flag (DF) clear on function entry and
 * return. The x87 control word and MXCSR control bits are also preserved across calls;
 * no kernel of ours touches them, so they are not checked.
 *
 * uintptr_t simdcrypt_abi_call(struct frame *fr, const void *f, const uintptr_t args[6]);
 *   Loads rbx, rbp, r12-r15 with fr->gpr_in and the vector registers with fr->vec_in (the
 *   canary: xmm0-15 if fr->vec_mode is 0, ymm0-15 if 1 (AVX), zmm0-31 if 2 (AVX512F)), calls
 *   f(args[0], ..., args[5]), then stores the six registers into fr->gpr_out, the
 *   caller-saved rcx rdx rsi rdi r8-r11 into fr->scratch, the vector registers (same width)
 *   into fr->vec_out, the stack-pointer change into fr->sp_delta (0 for a well-behaved
 *   callee) and RFLAGS into fr->flags, and returns f's rax.
 *   r10 and r11 are zeroed before the call (they carry no argument).
 *   Not reentrant: the stack pointer, f and the scratch registers are kept in static words
 *   across the call (the callee may trash every register, and a stack slot is only findable
 *   through rsp). The Rust side serialises calls with a mutex.
 *
 * struct frame (offsets used below; src/abi_test.rs checks them with offset_of!):
 *     0  gpr_in[6]    rbx rbp r12 r13 r14 r15
 *    48  gpr_out[6]   same order
 *    96  sp_delta     rsp after the call minus rsp before it
 *   104  flags        RFLAGS after the call (DF is bit 10)
 *   112  scratch[8]   rcx rdx rsi rdi r8 r9 r10 r11 after the call
 *   176  vec_mode     0 SSE, 1 AVX, 2 AVX512F
 *   192  vec_in[32]   64 bytes per register (the low 16 or 32 used below AVX512F)
 *  2240  vec_out[32]  same layout
 *
 * Registers in simdcrypt_abi_call:
 *   rdi   fr on entry, then the callee's first argument
 *   rsi   f on entry (kept in a static word for the call), then the second argument
 *   rdx   args on entry, then the third argument; rax: args while loading
 *   rcx r8 r9  arguments 4-6 (rcx the vector mode before)
 *   rbx rbp r12-r15  the test pattern (our caller's values are pushed first)
 *   xmm/ymm/zmm  the vector canary
 *
 * Canaries (for the harness's own tests):
 *   simdcrypt_abi_canary_clean(a..f)    returns a + 2b + 3c + 4d + 5e + 6f; uses rbx, saving it
 *   simdcrypt_abi_canary_clobber()      inverts r13 and returns
 *   simdcrypt_abi_canary_sp()           returns with rsp 16 bytes lower than it should be
 *   simdcrypt_abi_canary_df()           returns with the direction flag set
 *   simdcrypt_abi_canary_vec_leak(a)    leaves a in xmm5
 *   simdcrypt_abi_canary_vec_leak_vzu(a)  leaves a in xmm7 after `vzeroupper` (AVX)
 *   simdcrypt_abi_canary_vec_leak_zmm() leaves zmm20 all ones (AVX512F)
 *   simdcrypt_abi_canary_vec_wipe(a)    puts a in xmm5 and zeroes it (clean)
 *   simdcrypt_abi_canary_vec_wipe_zmm(a)  puts a in zmm3 and zmm20, then CLEAR (clean; AVX512F)
 *   simdcrypt_abi_canary_gpr_leak(a)    leaves a * 0x9e3779b97f4a7c15 in r9
 * Every entry point starts with ENDBR and the file carries the CET note (cet.h).
 */

#if defined(__ELF__) && defined(__x86_64__)

#include "cet.h"

#define FR_GPR_IN   0
#define FR_GPR_OUT  48
#define FR_SP_DELTA 96
#define FR_FLAGS    104
#define FR_SCRATCH  112
#define FR_VEC_MODE 176
#define FR_VEC_IN   192
#define FR_VEC_OUT  2240

/* CLEAR (vec_clear.h), for the well-behaved vector canary. */
#include "vec_clear.h"

        .text

        .globl  simdcrypt_abi_call
        .hidden simdcrypt_abi_call
        .type   simdcrypt_abi_call, @function
        .p2align 4
simdcrypt_abi_call:
        ENDBR
        /* Our caller's callee-saved registers, then fr. 7 pushes + the return address =
         * 64 bytes, so rsp is 16-byte aligned at the call below, as the ABI requires. */
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        pushq   %rdi
        movq    %rsp, .Lsaved_rsp(%rip)

        movq    %rsi, .Lcallee(%rip)
        movq    %rdx, %rax
        movq    FR_GPR_IN+0(%rdi), %rbx
        movq    FR_GPR_IN+8(%rdi), %rbp
        movq    FR_GPR_IN+16(%rdi), %r12
        movq    FR_GPR_IN+24(%rdi), %r13
        movq    FR_GPR_IN+32(%rdi), %r14
        movq    FR_GPR_IN+40(%rdi), %r15

        /* The vector canary, at the width the CPU has. */
        movq    FR_VEC_MODE(%rdi), %rcx
        cmpq    $2, %rcx
        je      .Lload_zmm
        cmpq    $1, %rcx
        je      .Lload_ymm
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        movdqu  FR_VEC_IN+64*\i(%rdi), %xmm\i
        .endr
        jmp     .Lloaded
.Lload_ymm:
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        vmovdqu FR_VEC_IN+64*\i(%rdi), %ymm\i
        .endr
        jmp     .Lloaded
.Lload_zmm:
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        vmovdqu64 FR_VEC_IN+64*\i(%rdi), %zmm\i
        .endr
.Lloaded:
        movq    0(%rax), %rdi
        movq    8(%rax), %rsi
        movq    16(%rax), %rdx
        movq    24(%rax), %rcx
        movq    32(%rax), %r8
        movq    40(%rax), %r9
        xorl    %r10d, %r10d                    /* no stale value of ours in the scratch */
        xorl    %r11d, %r11d                    /* registers the report looks at */
        callq   *.Lcallee(%rip)

        /* rax = the result: keep it. The caller-saved registers first, to a static block
         * (every register is in use here), then flags (nothing below changes DF, but pushfq
         * needs the stack, which we restore next). */
        movq    %rcx, .Lscratch+0(%rip)
        movq    %rdx, .Lscratch+8(%rip)
        movq    %rsi, .Lscratch+16(%rip)
        movq    %rdi, .Lscratch+24(%rip)
        movq    %r8, .Lscratch+32(%rip)
        movq    %r9, .Lscratch+40(%rip)
        movq    %r10, .Lscratch+48(%rip)
        movq    %r11, .Lscratch+56(%rip)
        movq    %rsp, %r10
        movq    .Lsaved_rsp(%rip), %rsp
        subq    %rsp, %r10                      /* sp_delta */
        pushfq
        popq    %rcx
        movq    (%rsp), %rdi                    /* fr */
        movq    %rbx, FR_GPR_OUT+0(%rdi)
        movq    %rbp, FR_GPR_OUT+8(%rdi)
        movq    %r12, FR_GPR_OUT+16(%rdi)
        movq    %r13, FR_GPR_OUT+24(%rdi)
        movq    %r14, FR_GPR_OUT+32(%rdi)
        movq    %r15, FR_GPR_OUT+40(%rdi)
        movq    %r10, FR_SP_DELTA(%rdi)
        movq    %rcx, FR_FLAGS(%rdi)
        cld                                     /* in case the callee left DF set */
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7
        movq    .Lscratch+8*\i(%rip), %rdx
        movq    %rdx, FR_SCRATCH+8*\i(%rdi)
        .endr

        /* The vector registers as the callee left them (the same width as loaded). */
        movq    FR_VEC_MODE(%rdi), %rcx
        cmpq    $2, %rcx
        je      .Lstore_zmm
        cmpq    $1, %rcx
        je      .Lstore_ymm
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        movdqu  %xmm\i, FR_VEC_OUT+64*\i(%rdi)
        .endr
        jmp     .Lstored
.Lstore_ymm:
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        vmovdqu %ymm\i, FR_VEC_OUT+64*\i(%rdi)
        .endr
        vzeroupper
        jmp     .Lstored
.Lstore_zmm:
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        vmovdqu64 %zmm\i, FR_VEC_OUT+64*\i(%rdi)
        .endr
        vzeroupper
.Lstored:

        popq    %rdi
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        retq
        .size   simdcrypt_abi_call, .-simdcrypt_abi_call

/* A well-behaved function: uses a callee-saved register (rbx) and restores it. */
        .globl  simdcrypt_abi_canary_clean
        .hidden simdcrypt_abi_canary_clean
        .type   simdcrypt_abi_canary_clean, @function
        .p2align 4
simdcrypt_abi_canary_clean:
        ENDBR
        pushq   %rbx
        leaq    (%rdi,%rsi,2), %rax             /* a + 2b */
        leaq    (%rdx,%rdx,2), %rbx             /* 3c */
        addq    %rbx, %rax
        leaq    (%rax,%rcx,4), %rax             /* + 4d */
        leaq    (%r8,%r8,4), %rbx               /* 5e */
        addq    %rbx, %rax
        imulq   $6, %r9, %rbx                   /* 6f */
        addq    %rbx, %rax
        popq    %rbx
        retq
        .size   simdcrypt_abi_canary_clean, .-simdcrypt_abi_canary_clean

/* Deliberately breaks the ABI: r13 comes back inverted. */
        .globl  simdcrypt_abi_canary_clobber
        .hidden simdcrypt_abi_canary_clobber
        .type   simdcrypt_abi_canary_clobber, @function
        .p2align 4
simdcrypt_abi_canary_clobber:
        ENDBR
        notq    %r13
        xorl    %eax, %eax
        retq
        .size   simdcrypt_abi_canary_clobber, .-simdcrypt_abi_canary_clobber

/* Deliberately breaks the ABI: returns with rsp 16 bytes below where a correct return
 * leaves it. It copies its return address 16 bytes down and returns through that copy with
 * a real `ret`, so the return still matches the shadow stack (CET SHSTK) and the call. */
        .globl  simdcrypt_abi_canary_sp
        .hidden simdcrypt_abi_canary_sp
        .type   simdcrypt_abi_canary_sp, @function
        .p2align 4
simdcrypt_abi_canary_sp:
        ENDBR
        movq    (%rsp), %r11
        subq    $16, %rsp
        movq    %r11, (%rsp)
        xorl    %eax, %eax
        retq
        .size   simdcrypt_abi_canary_sp, .-simdcrypt_abi_canary_sp

/* Deliberately breaks the ABI: returns with the direction flag set. */
        .globl  simdcrypt_abi_canary_df
        .hidden simdcrypt_abi_canary_df
        .type   simdcrypt_abi_canary_df, @function
        .p2align 4
simdcrypt_abi_canary_df:
        ENDBR
        std
        xorl    %eax, %eax
        retq
        .size   simdcrypt_abi_canary_df, .-simdcrypt_abi_canary_df

/* Breaks the register policy: leaves its argument (a "secret") in xmm5 (SSE2 only). */
        .globl  simdcrypt_abi_canary_vec_leak
        .hidden simdcrypt_abi_canary_vec_leak
        .type   simdcrypt_abi_canary_vec_leak, @function
        .p2align 4
simdcrypt_abi_canary_vec_leak:
        ENDBR
        movq    %rdi, %xmm5
        xorl    %eax, %eax
        retq
        .size   simdcrypt_abi_canary_vec_leak, .-simdcrypt_abi_canary_vec_leak

/* Breaks the policy as the AES/GHASH kernels used to: the argument in xmm7, then only
 * `vzeroupper`, which clears bits 255:128 and leaves it in bits 127:0 (AVX). */
        .globl  simdcrypt_abi_canary_vec_leak_vzu
        .hidden simdcrypt_abi_canary_vec_leak_vzu
        .type   simdcrypt_abi_canary_vec_leak_vzu, @function
        .p2align 4
simdcrypt_abi_canary_vec_leak_vzu:
        ENDBR
        vmovq   %rdi, %xmm7
        vzeroupper
        xorl    %eax, %eax
        retq
        .size   simdcrypt_abi_canary_vec_leak_vzu, .-simdcrypt_abi_canary_vec_leak_vzu

/* Breaks the policy in a high register: zmm20 all ones, after `vzeroall` (AVX512F). */
        .globl  simdcrypt_abi_canary_vec_leak_zmm
        .hidden simdcrypt_abi_canary_vec_leak_zmm
        .type   simdcrypt_abi_canary_vec_leak_zmm, @function
        .p2align 4
simdcrypt_abi_canary_vec_leak_zmm:
        ENDBR
        vpternlogd $0xff, %zmm20, %zmm20, %zmm20
        vzeroall
        xorl    %eax, %eax
        retq
        .size   simdcrypt_abi_canary_vec_leak_zmm, .-simdcrypt_abi_canary_vec_leak_zmm

/* Keeps the policy with SSE only: its argument in xmm5, then `pxor` (bits 127:0 zero; a
 * legacy-SSE write leaves bits 511:128, the caller's canary, as they were). */
        .globl  simdcrypt_abi_canary_vec_wipe
        .hidden simdcrypt_abi_canary_vec_wipe
        .type   simdcrypt_abi_canary_vec_wipe, @function
        .p2align 4
simdcrypt_abi_canary_vec_wipe:
        ENDBR
        movq    %rdi, %xmm5
        paddq   %xmm5, %xmm5
        pxor    %xmm5, %xmm5
        xorl    %eax, %eax
        retq
        .size   simdcrypt_abi_canary_vec_wipe, .-simdcrypt_abi_canary_vec_wipe

/* Keeps the policy the way the AVX-512 kernels do: its argument broadcast into zmm3 and
 * zmm20, then CLEAR (AVX512F). */
        .globl  simdcrypt_abi_canary_vec_wipe_zmm
        .hidden simdcrypt_abi_canary_vec_wipe_zmm
        .type   simdcrypt_abi_canary_vec_wipe_zmm, @function
        .p2align 4
simdcrypt_abi_canary_vec_wipe_zmm:
        ENDBR
        vpbroadcastq %rdi, %zmm3
        vpbroadcastq %rdi, %zmm20
        vpaddq  %zmm3, %zmm20, %zmm20
        CLEAR
        xorl    %eax, %eax
        retq
        .size   simdcrypt_abi_canary_vec_wipe_zmm, .-simdcrypt_abi_canary_vec_wipe_zmm

/* Breaks the policy in a general-purpose register: leaves a 64-bit value derived from its
 * argument (a "secret") in r9. */
        .globl  simdcrypt_abi_canary_gpr_leak
        .hidden simdcrypt_abi_canary_gpr_leak
        .type   simdcrypt_abi_canary_gpr_leak, @function
        .p2align 4
simdcrypt_abi_canary_gpr_leak:
        ENDBR
        movabsq $0x9e3779b97f4a7c15, %r9
        imulq   %rdi, %r9
        xorl    %eax, %eax
        retq
        .size   simdcrypt_abi_canary_gpr_leak, .-simdcrypt_abi_canary_gpr_leak

        .bss
        .p2align 3
.Lsaved_rsp:
        .zero   8
.Lscratch:
        .zero   64
.Lcallee:
        .zero   8

        .section .note.GNU-stack,"",@progbits

#endif
