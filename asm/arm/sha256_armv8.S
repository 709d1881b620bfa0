/*
 * sha256_armv8.S -- SHA-256 compression with the AArch32 crypto extension.
 *
 * Features: ARMv8-A AArch32 (A32 state) with the SHA2 instructions SHA256H, SHA256H2,
 * SHA256SU0, SHA256SU1 (Linux: AT_HWCAP2 bit 3, HWCAP2_SHA2) and NEON. Token `ArmSha2`
 * ("sha2,neon") in src/sha/sha256/arm.rs guards every call. ABI: AAPCS, hard-float; ELF.
 *
 * void simdcrypt_sha256_block_armv8(uint32_t state[8], const uint8_t *data, size_t nblocks);
 *   Compresses nblocks (>= 0) consecutive 64-byte blocks at data (any alignment) into state
 *   (a..h, native little-endian words, 4-byte aligned), FIPS 180-4 §6.2.2. Only the public
 *   block count steers branches; there are no data-dependent branches or table indices.
 *
 * Instruction semantics (Arm ARM, DDI 0487, AArch32 "SHA256H", "SHA256H2", "SHA256SU0",
 * "SHA256SU1"; each works on four 32-bit lanes, lane 0 = the first word):
 *   sha256h.32  Qd=abcd, Qn=efgh, Qm=W+K  ->  Qd = a..d after four rounds
 *   sha256h2.32 Qd=efgh, Qn=abcd (before the rounds), Qm=W+K  ->  Qd = e..h after them
 *   sha256su0.32 Qd=W[t-16..t-13], Qm=W[t-12..t-9]   ->  Qd = W[t-16..] + sigma0(W[t-15..])
 *   sha256su1.32 Qd=(su0 result), Qn=W[t-8..t-5], Qm=W[t-4..t-1]  ->  Qd = W[t..t+3]
 *   (the message schedule of FIPS 180-4 §6.2.2 step 1, four words at a time).
 *
 * Register table (q4-q7 = d8-d15 are callee-saved and not used):
 *   r0  state            r1  data (advances 64 per block)    r2  blocks left
 *   r3  &K256            r12 K pointer within a block
 *   q0  a b c d          q1  e f g h
 *   q2  a..d at block start (feed-forward, §6.2.2 step 4)     q3  e..h likewise
 *   q8-q11  W, four words each, used as a ring: group g reads q(8 + g mod 4)
 *   q12 W+K of the current group     q13 a..d before the current group (for sha256h2)
 * Before returning, q0-q3 and q8-q15 (state, message schedule) are zeroed (CLEAR_NEON,
 * vec_clear.h). Nothing is kept on the stack.
 *
 * Rounds: 64 rounds = 16 groups of 4. Groups 0-11 also compute the words that group g+4
 * will use (W[16..63]), overwriting the ring entry the group just consumed.
 */

#if defined(__ELF__) && defined(__arm__)

#include "vec_clear.h"

        .syntax unified
        .arch   armv8-a
        .fpu    crypto-neon-fp-armv8
        /* The instructions need the directives above, but this object must not mark the
         * whole ARMv7 binary as ARMv8 in its build attributes: the code runs only after
         * run-time detection found the extension. */
        .object_arch armv7-a
        .eabi_attribute Tag_CPU_name, "7-A"
        .eabi_attribute Tag_FP_arch, 3                  /* VFPv3 */
        .eabi_attribute Tag_Advanced_SIMD_arch, 1       /* NEONv1 */
        .eabi_attribute Tag_MPextension_use, 0
        .eabi_attribute Tag_Virtualization_use, 0
        .arm
        .text

/* Four rounds on W in \w0, then the next four schedule words into \w0 from the ring
 * (\w0, \w1, \w2, \w3) = W[t-16..t-13], W[t-12..t-9], W[t-8..t-5], W[t-4..t-1]. */
.macro  QROUND_SCHED w0, w1, w2, w3
        vld1.32         {q12}, [r12]!
        vadd.i32        q12, q12, \w0
        vmov            q13, q0
        sha256h.32      q0, q1, q12
        sha256h2.32     q1, q13, q12
        sha256su0.32    \w0, \w1
        sha256su1.32    \w0, \w2, \w3
.endm

/* Four rounds on W in \w0 (the last 16 rounds need no new schedule words). */
.macro  QROUND w0
        vld1.32         {q12}, [r12]!
        vadd.i32        q12, q12, \w0
        vmov            q13, q0
        sha256h.32      q0, q1, q12
        sha256h2.32     q1, q13, q12
.endm

        .globl  simdcrypt_sha256_block_armv8
        .hidden simdcrypt_sha256_block_armv8
        .type   simdcrypt_sha256_block_armv8, %function
        .p2align 4
simdcrypt_sha256_block_armv8:
        cmp             r2, #0
        bxeq            lr
        ldr             r3, .LK256_rel
.Lpc_k: add             r3, pc, r3              /* pc reads as .Lpc_k + 8 */
        vld1.32         {q0, q1}, [r0]

.Lblock:
        /* Message block as 16 big-endian words (FIPS 180-4 §5.2.1, §6.2.2 step 1). */
        vld1.8          {q8, q9}, [r1]!
        vld1.8          {q10, q11}, [r1]!
        vrev32.8        q8, q8
        vrev32.8        q9, q9
        vrev32.8        q10, q10
        vrev32.8        q11, q11
        vmov            q2, q0
        vmov            q3, q1
        mov             r12, r3

        /* Rounds 0-47, computing W[16..63] on the way. */
        QROUND_SCHED    q8, q9, q10, q11
        QROUND_SCHED    q9, q10, q11, q8
        QROUND_SCHED    q10, q11, q8, q9
        QROUND_SCHED    q11, q8, q9, q10
        QROUND_SCHED    q8, q9, q10, q11
        QROUND_SCHED    q9, q10, q11, q8
        QROUND_SCHED    q10, q11, q8, q9
        QROUND_SCHED    q11, q8, q9, q10
        QROUND_SCHED    q8, q9, q10, q11
        QROUND_SCHED    q9, q10, q11, q8
        QROUND_SCHED    q10, q11, q8, q9
        QROUND_SCHED    q11, q8, q9, q10
        /* Rounds 48-63. */
        QROUND          q8
        QROUND          q9
        QROUND          q10
        QROUND          q11

        /* §6.2.2 step 4: H(i) = H(i-1) + (a..h). */
        vadd.i32        q0, q0, q2
        vadd.i32        q1, q1, q3
        subs            r2, r2, #1
        bne             .Lblock

        vst1.32         {q0, q1}, [r0]
        CLEAR_NEON                              /* state, W: vec_clear.h */
        bx              lr

        .p2align 2
.LK256_rel:
        .word           .LK256 - (.Lpc_k + 8)
        .size   simdcrypt_sha256_block_armv8, .-simdcrypt_sha256_block_armv8

        .section .rodata
        .p2align 4
/* FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes. */
.LK256:
        .word   0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5
        .word   0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5
        .word   0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3
        .word   0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174
        .word   0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc
        .word   0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da
        .word   0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7
        .word   0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967
        .word   0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13
        .word   0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85
        .word   0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3
        .word   0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070
        .word   0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5
        .word   0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3
        .word   0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208
        .word   0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
        .size   .LK256, .-.LK256

        .section .note.GNU-stack,"",%progbits

#endif
