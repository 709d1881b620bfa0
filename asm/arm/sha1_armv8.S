/*
 * sha1_armv8.S -- SHA-1 compression with the AArch32 crypto extension.
 *
 * Features: ARMv8-A AArch32 (A32 state) with the SHA1 instructions SHA1C, SHA1P, SHA1M,
 * SHA1H, SHA1SU0, SHA1SU1 (Linux: AT_HWCAP2 bit 2, HWCAP2_SHA1) and NEON. Token `ArmSha1`
 * ("sha1,neon") in src/sha/sha1/arm.rs guards every call. ABI: AAPCS, hard-float; ELF.
 *
 * void simdcrypt_sha1_block_armv8(uint32_t state[5], const uint8_t *data, size_t nblocks);
 *   Compresses nblocks (>= 0) consecutive 64-byte blocks at data (any alignment) into state
 *   (a..e, native little-endian words, 4-byte aligned), FIPS 180-4 §6.1.2. Only the public
 *   block count steers branches; there are no data-dependent branches or table indices.
 *
 * Instruction semantics (Arm ARM, DDI 0487, AArch32 "SHA1C" etc.; four 32-bit lanes, lane 0
 * = the first word). Each hash instruction does four rounds of FIPS 180-4 §6.1.2 step 3:
 *   sha1c.32 Qd=abcd, Qn=e (lane 0), Qm=W+K -> Qd = a..d after 4 rounds with Ch   (t 0-19)
 *   sha1p.32 likewise with Parity                                                 (t 20-39, 60-79)
 *   sha1m.32 likewise with Maj                                                    (t 40-59)
 *   sha1h.32 Qd, Qm: Qd lane 0 = ROTL30(Qm lane 0): the e after four rounds is ROTL30 of
 *            the a before them (a -> b -> ROTL30 c -> d -> e), so it is computed from abcd
 *            before the sha1c/p/m overwrites it.
 *   sha1su0.32 Qd=W[t-16..t-13], Qn=W[t-12..t-9], Qm=W[t-8..t-5]
 *   sha1su1.32 Qd=(su0 result), Qm=W[t-4..t-1] -> Qd = W[t..t+3]
 *            = ROTL1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]) (§6.1.2 step 1), four at a time.
 *
 * Register table:
 *   r0  state        r1  data (advances 64 per block)        r2  blocks left    r3 &K
 *   q0  a b c d      q1, q2  e, alternating between groups (lane 0; other lanes unused)
 *   q3  W+K of the current group
 *   q4  a..d at block start, q5 e at block start (feed-forward, §6.1.2 step 4)
 *   q8-q11  W, four words each, used as a ring: group g reads q(8 + g mod 4)
 *   q12-q15 K0..K3 (§4.2.1), each in all four lanes
 * q4-q7 are d8-d15, callee-saved: pushed on entry, popped on return. Before returning,
 * q0-q3 and q8-q15 (state, message schedule) are zeroed (CLEAR_NEON, vec_clear.h).
 *
 * Rounds: 80 rounds = 20 groups of 4; groups 0-15 also compute the words group g+4 uses.
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

/* Four rounds with hash instruction \op on W in \w0 and constant \k; e comes in \ein (lane
 * 0) and the e of the next group goes to \eout. */
.macro  QROUND op, ein, eout, w0, k
        vadd.i32        q3, \w0, \k
        sha1h.32        \eout, q0
        \op             q0, \ein, q3
.endm

/* QROUND, then W[t..t+3] into \w0 from the ring (\w0, \w1, \w2, \w3) =
 * W[t-16..], W[t-12..], W[t-8..], W[t-4..]. */
.macro  QROUND_SCHED op, ein, eout, w0, w1, w2, w3, k
        QROUND          \op, \ein, \eout, \w0, \k
        sha1su0.32      \w0, \w1, \w2
        sha1su1.32      \w0, \w3
.endm

        .globl  simdcrypt_sha1_block_armv8
        .hidden simdcrypt_sha1_block_armv8
        .type   simdcrypt_sha1_block_armv8, %function
        .p2align 4
simdcrypt_sha1_block_armv8:
        cmp             r2, #0
        bxeq            lr
        vpush           {d8-d15}
        ldr             r3, .LK1_rel
.Lpc_k: add             r3, pc, r3              /* pc reads as .Lpc_k + 8 */
        vld1.32         {d24[], d25[]}, [r3]!   /* q12 = K0 x 4 */
        vld1.32         {d26[], d27[]}, [r3]!   /* q13 = K1 x 4 */
        vld1.32         {d28[], d29[]}, [r3]!   /* q14 = K2 x 4 */
        vld1.32         {d30[], d31[]}, [r3]    /* q15 = K3 x 4 */
        vld1.32         {q0}, [r0]
        vldr            s4, [r0, #16]           /* e in lane 0 of q1 */

.Lblock:
        /* Message block as 16 big-endian words (FIPS 180-4 §5.2.1). */
        vld1.8          {q8, q9}, [r1]!
        vld1.8          {q10, q11}, [r1]!
        vrev32.8        q8, q8
        vrev32.8        q9, q9
        vrev32.8        q10, q10
        vrev32.8        q11, q11
        vmov            q4, q0
        vmov            q5, q1

        /* t = 0-19: Ch, K0. */
        QROUND_SCHED    sha1c.32, q1, q2, q8, q9, q10, q11, q12
        QROUND_SCHED    sha1c.32, q2, q1, q9, q10, q11, q8, q12
        QROUND_SCHED    sha1c.32, q1, q2, q10, q11, q8, q9, q12
        QROUND_SCHED    sha1c.32, q2, q1, q11, q8, q9, q10, q12
        QROUND_SCHED    sha1c.32, q1, q2, q8, q9, q10, q11, q12
        /* t = 20-39: Parity, K1. */
        QROUND_SCHED    sha1p.32, q2, q1, q9, q10, q11, q8, q13
        QROUND_SCHED    sha1p.32, q1, q2, q10, q11, q8, q9, q13
        QROUND_SCHED    sha1p.32, q2, q1, q11, q8, q9, q10, q13
        QROUND_SCHED    sha1p.32, q1, q2, q8, q9, q10, q11, q13
        QROUND_SCHED    sha1p.32, q2, q1, q9, q10, q11, q8, q13
        /* t = 40-59: Maj, K2. */
        QROUND_SCHED    sha1m.32, q1, q2, q10, q11, q8, q9, q14
        QROUND_SCHED    sha1m.32, q2, q1, q11, q8, q9, q10, q14
        QROUND_SCHED    sha1m.32, q1, q2, q8, q9, q10, q11, q14
        QROUND_SCHED    sha1m.32, q2, q1, q9, q10, q11, q8, q14
        QROUND_SCHED    sha1m.32, q1, q2, q10, q11, q8, q9, q14
        /* t = 60-79: Parity, K3; W[64..79] were computed by groups 12-15. */
        QROUND_SCHED    sha1p.32, q2, q1, q11, q8, q9, q10, q15
        QROUND          sha1p.32, q1, q2, q8, q15
        QROUND          sha1p.32, q2, q1, q9, q15
        QROUND          sha1p.32, q1, q2, q10, q15
        QROUND          sha1p.32, q2, q1, q11, q15
        /* 20 groups: the final e is in q1 again. §6.1.2 step 4: H(i) = H(i-1) + (a..e). */
        vadd.i32        q0, q0, q4
        vadd.i32        q1, q1, q5
        subs            r2, r2, #1
        bne             .Lblock

        vst1.32         {q0}, [r0]
        vstr            s4, [r0, #16]
        CLEAR_NEON                              /* state, W: vec_clear.h */
        vpop            {d8-d15}
        bx              lr

        .p2align 2
.LK1_rel:
        .word           .LK1 - (.Lpc_k + 8)
        .size   simdcrypt_sha1_block_armv8, .-simdcrypt_sha1_block_armv8

        .section .rodata
        .p2align 4
/* FIPS 180-4 §4.2.1. */
.LK1:
        .word   0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6
        .size   .LK1, .-.LK1

        .section .note.GNU-stack,"",%progbits

#endif
