/*
 * abi_test.S (x86_64) -- the calling-convention test harness behind src/abi_test.rs.
 *
 * Features: baseline x86_64 only (no SIMD). ABI: System V AMD64 psABI (Linux and the BSDs;
 * ELF only: on other object formats this file assembles to nothing and the Rust side is
 * compiled out). Test-only code: nothing in the library calls it, so the static archive keeps
 * the object but the linker drops it from non-test binaries.
 *
 * The SysV ABI (psABI §3.2.1, "Registers and the Stack Frame") makes rbx, rbp, r12-r15 and
 * rsp callee-saved, and requires the direction flag (DF) clear on function entry and
 * return. The x87 control word and MXCSR control bits are also preserved across calls;
 * no kernel of ours touches them, so they are not checked.
 *
 * uintptr_t simdcrypt_abi_call(struct frame *fr, const void *f, const uintptr_t args[6]);
 *   Loads rbx, rbp, r12-r15 with fr->gpr_in, calls f(args[0], ..., args[5]), then stores
 *   the six registers into fr->gpr_out, the stack-pointer change into fr->sp_delta (0 for a
 *   well-behaved callee) and RFLAGS into fr->flags, and returns f's rax.
 *   Not reentrant: the stack pointer is kept in a static word across the call (the callee
 *   may trash every register, and a stack slot is only findable through rsp). The Rust side
 *   serialises calls with a mutex.
 *
 * struct frame (offsets used below; src/abi_test.rs checks them with offset_of!):
 *     0  gpr_in[6]    rbx rbp r12 r13 r14 r15
 *    48  gpr_out[6]   same order
 *    96  sp_delta     rsp after the call minus rsp before it
 *   104  flags        RFLAGS after the call (DF is bit 10)
 *
 * Registers in simdcrypt_abi_call:
 *   rdi   fr on entry, then the callee's first argument
 *   rsi   f on entry, then the second argument;  r11: f at the call
 *   rdx   args on entry, then the third argument; rax: args while loading
 *   rcx r8 r9  arguments 4-6
 *   rbx rbp r12-r15  the test pattern (our caller's values are pushed first)
 *
 * Canaries (for the harness's own tests):
 *   simdcrypt_abi_canary_clean(a..f)    returns a + 2b + 3c + 4d + 5e + 6f; uses rbx, saving it
 *   simdcrypt_abi_canary_clobber()      inverts r13 and returns
 *   simdcrypt_abi_canary_sp()           returns with rsp 16 bytes lower than it should be
 *   simdcrypt_abi_canary_df()           returns with the direction flag set
 */

#if defined(__ELF__) && defined(__x86_64__)

#define FR_GPR_IN   0
#define FR_GPR_OUT  48
#define FR_SP_DELTA 96
#define FR_FLAGS    104

        .text

        .globl  simdcrypt_abi_call
        .hidden simdcrypt_abi_call
        .type   simdcrypt_abi_call, @function
        .p2align 4
simdcrypt_abi_call:
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

        movq    %rsi, %r11
        movq    %rdx, %rax
        movq    FR_GPR_IN+0(%rdi), %rbx
        movq    FR_GPR_IN+8(%rdi), %rbp
        movq    FR_GPR_IN+16(%rdi), %r12
        movq    FR_GPR_IN+24(%rdi), %r13
        movq    FR_GPR_IN+32(%rdi), %r14
        movq    FR_GPR_IN+40(%rdi), %r15
        movq    0(%rax), %rdi
        movq    8(%rax), %rsi
        movq    16(%rax), %rdx
        movq    24(%rax), %rcx
        movq    32(%rax), %r8
        movq    40(%rax), %r9
        callq   *%r11

        /* rax = the result: keep it. Flags first (nothing below changes DF, but pushfq
         * needs the stack, which we restore next). */
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
        notq    %r13
        xorl    %eax, %eax
        retq
        .size   simdcrypt_abi_canary_clobber, .-simdcrypt_abi_canary_clobber

/* Deliberately breaks the ABI: returns (through a jump, so it does not crash) with rsp
 * 16 bytes below where a ret leaves it. */
        .globl  simdcrypt_abi_canary_sp
        .hidden simdcrypt_abi_canary_sp
        .type   simdcrypt_abi_canary_sp, @function
        .p2align 4
simdcrypt_abi_canary_sp:
        popq    %r11
        subq    $16, %rsp
        xorl    %eax, %eax
        jmpq    *%r11
        .size   simdcrypt_abi_canary_sp, .-simdcrypt_abi_canary_sp

/* Deliberately breaks the ABI: returns with the direction flag set. */
        .globl  simdcrypt_abi_canary_df
        .hidden simdcrypt_abi_canary_df
        .type   simdcrypt_abi_canary_df, @function
        .p2align 4
simdcrypt_abi_canary_df:
        std
        xorl    %eax, %eax
        retq
        .size   simdcrypt_abi_canary_df, .-simdcrypt_abi_canary_df

        .bss
        .p2align 3
.Lsaved_rsp:
        .zero   8

        .section .note.GNU-stack,"",@progbits

#endif
