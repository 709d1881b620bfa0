/*
 * poly1305_neon.S -- Poly1305 block function (RFC 8439 §2.5) on ARMv7 NEON, two blocks per
 * step in radix 2^26 (Goll & Gueron, "Vectorization of Poly1305 message authentication
 * code", 2015: r-power Horner lanes, 26-bit limbs, VMULL.U32 products).
 *
 * Features: ARMv7-A, A32 (ARM) state, NEON (Linux: AT_HWCAP bit 12, HWCAP_NEON). Token
 * `ArmNeon` ("neon") in src/poly1305/arm.rs guards every call. ABI: AAPCS, hard-float; ELF.
 *
 * void simdcrypt_poly1305_neon(uint32_t h[5], const uint32_t table[36], const uint8_t *data,
 *                              size_t npairs);
 *   For the 2·npairs 16-byte blocks m_1, m_2, ... at data (any alignment; npairs == 0 is a
 *   no-op), h <- (...((h + m_1 + 2^128)·r + m_2 + 2^128)·r ...)·r mod p, p = 2^130 - 5.
 *   h: five radix-2^26 limbs (h = Σ h_i·2^(26i)), each below 2^26 + 2^6 on entry; on return
 *   each below 2^28 (not carried: the caller normalises). table (built by src/poly1305/arm.rs,
 *   8-byte aligned): two sets of nine pairs of 32-bit words, one pair per d register,
 *     words  0..17: R0..R4, S1..S4 of r^2 in both lanes         (S_j = 5·R_j)
 *     words 18..35: R0..R4, S1..S4 with r^2 in lane 0, r in lane 1
 *   every limb below 2^26. Only the public pair count steers branches; no address depends
 *   on h, r or the data.
 *
 * Two lanes. Lane 0 starts with h, lane 1 with 0. Each step adds block 2k+1 to lane 0 and
 * block 2k+2 to lane 1 and multiplies both lanes by r^2, except the last step, which
 * multiplies lane 0 by r^2 and lane 1 by r. Then h = lane 0 + lane 1. For two blocks:
 * (h + m1)·r^2 + m2·r = ((h + m1)·r + m2)·r, and by induction for 2n blocks lane 0 carries
 * the odd and lane 1 the even blocks with exactly the powers of r that Horner's rule gives
 * (Goll & Gueron §3).
 *
 * Multiplication of five limbs (per lane, 64-bit columns):
 *   D0 = H0 R0 + H1 S4 + H2 S3 + H3 S2 + H4 S1      D1 = H0 R1 + H1 R0 + H2 S4 + H3 S3 + H4 S2
 *   D2 = H0 R2 + H1 R1 + H2 R0 + H3 S4 + H4 S3      D3 = H0 R3 + H1 R2 + H2 R1 + H3 R0 + H4 S4
 *   D4 = H0 R4 + H1 R3 + H2 R2 + H3 R1 + H4 R0
 * since H_i R_j with i + j >= 5 weighs 2^(26(i+j-5))·2^130 and 2^130 = 5 (mod p). Then a
 * carry pass in two interleaved chains (D0 -> D1 -> D2 -> D3 -> D4 and D3 -> D4 -> 5·D0 ->
 * D1) leaves D0, D2, D3 below 2^26, D1 below 2^26 + 2^9, D4 below 2^26 + 2^7, narrowed to
 * the 32-bit limbs. Bounds: a limb plus a message limb stays below 2^27; S_j < 5·2^26 <
 * 2^29; a column of five products is below 2^59 (no 64-bit overflow); the carry out of D4 is
 * below 2^33, times 5 below 2^36. The final lane sum is below 2^28 per limb.
 *
 * Message limbs: VLD1 loads the two blocks, VTRN.32 pairs their words (w_i of block 1 in
 * lane 0, of block 2 in lane 1), and per lane
 *   l0 = w0 & M   l1 = (w0 >> 26 | w1 << 6) & M   l2 = (w1 >> 20 | w2 << 12) & M
 *   l3 = (w2 >> 14 | w3 << 18) & M    l4 = w3 >> 8 | 2^24 (the 2^128 bit)     M = 2^26 - 1
 * with VSHR then VSLI (shift left and insert above the bits already there).
 *
 * Register table:
 *   r0  h            r1  table (advances to the second set)    r2  data (+32 per step)
 *   r3  steps left
 *   q0-q4 (d0-d9)    D0..D4, 64-bit columns; before the products, d0-d7 hold the message
 *   d10-d14          H0..H4 (lane 0, lane 1)          d15 unused
 *   d16-d20          R0..R4         d21-d24  S1..S4   d25  M in both 32-bit lanes
 *   q13, q14         carries        q15      M in both 64-bit lanes
 * d8-d15 are callee-saved: pushed on entry, popped on return. Before returning, q0-q3 and
 * q8-q15 (h, the powers of r, message and products) are zeroed; d8-d15 get the caller's
 * values back. Nothing is stored on the stack but those.
 */

#if defined(__ELF__) && defined(__arm__)

#include "vec_clear.h"

        .syntax unified
        .arch   armv7-a
        .fpu    neon
        .arm
        .text

/* One step: two blocks at [r2] into the lanes of H (r2 += 32), times the table in d16-d24. */
.macro  STEP
        vld1.8          {d0-d3}, [r2]!
        vtrn.32         d0, d2                  /* d0 = w0, d2 = w1 (block 1, block 2) */
        vtrn.32         d1, d3                  /* d1 = w2, d3 = w3 */
        vshr.u32        d4, d0, #26
        vshr.u32        d5, d2, #20
        vshr.u32        d6, d1, #14
        vshr.u32        d7, d3, #8
        vsli.32         d4, d2, #6
        vsli.32         d5, d1, #12
        vsli.32         d6, d3, #18
        vand            d0, d0, d25
        vand            d4, d4, d25
        vand            d5, d5, d25
        vand            d6, d6, d25
        vorr.i32        d7, #0x01000000
        vadd.i32        d10, d10, d0
        vadd.i32        d11, d11, d4
        vadd.i32        d12, d12, d5
        vadd.i32        d13, d13, d6
        vadd.i32        d14, d14, d7

        vmull.u32       q0, d10, d16            /* H0·R0 */
        vmull.u32       q1, d10, d17            /* H0·R1 */
        vmull.u32       q2, d10, d18            /* H0·R2 */
        vmull.u32       q3, d10, d19            /* H0·R3 */
        vmull.u32       q4, d10, d20            /* H0·R4 */
        vmlal.u32       q0, d11, d24            /* H1·S4 */
        vmlal.u32       q1, d11, d16            /* H1·R0 */
        vmlal.u32       q2, d11, d17            /* H1·R1 */
        vmlal.u32       q3, d11, d18            /* H1·R2 */
        vmlal.u32       q4, d11, d19            /* H1·R3 */
        vmlal.u32       q0, d12, d23            /* H2·S3 */
        vmlal.u32       q1, d12, d24            /* H2·S4 */
        vmlal.u32       q2, d12, d16            /* H2·R0 */
        vmlal.u32       q3, d12, d17            /* H2·R1 */
        vmlal.u32       q4, d12, d18            /* H2·R2 */
        vmlal.u32       q0, d13, d22            /* H3·S2 */
        vmlal.u32       q1, d13, d23            /* H3·S3 */
        vmlal.u32       q2, d13, d24            /* H3·S4 */
        vmlal.u32       q3, d13, d16            /* H3·R0 */
        vmlal.u32       q4, d13, d17            /* H3·R1 */
        vmlal.u32       q0, d14, d21            /* H4·S1 */
        vmlal.u32       q1, d14, d22            /* H4·S2 */
        vmlal.u32       q2, d14, d23            /* H4·S3 */
        vmlal.u32       q3, d14, d24            /* H4·S4 */
        vmlal.u32       q4, d14, d16            /* H4·R0 */

        vshr.u64        q13, q0, #26            /* D0 -> D1,  D3 -> D4 */
        vshr.u64        q14, q3, #26
        vand            q0, q0, q15
        vand            q3, q3, q15
        vadd.i64        q1, q1, q13
        vadd.i64        q4, q4, q14
        vshr.u64        q13, q1, #26            /* D1 -> D2,  D4 -> 5·D0 */
        vshr.u64        q14, q4, #26
        vand            q1, q1, q15
        vand            q4, q4, q15
        vadd.i64        q2, q2, q13
        vadd.i64        q0, q0, q14
        vshl.u64        q14, q14, #2
        vadd.i64        q0, q0, q14
        vshr.u64        q13, q2, #26            /* D2 -> D3,  D0 -> D1 */
        vshr.u64        q14, q0, #26
        vand            q2, q2, q15
        vand            q0, q0, q15
        vadd.i64        q3, q3, q13
        vadd.i64        q1, q1, q14
        vshr.u64        q13, q3, #26            /* D3 -> D4 */
        vand            q3, q3, q15
        vadd.i64        q4, q4, q13

        vmovn.i64       d10, q0
        vmovn.i64       d11, q1
        vmovn.i64       d12, q2
        vmovn.i64       d13, q3
        vmovn.i64       d14, q4
.endm

        .globl  simdcrypt_poly1305_neon
        .hidden simdcrypt_poly1305_neon
        .type   simdcrypt_poly1305_neon, %function
        .p2align 4
simdcrypt_poly1305_neon:
        cmp             r3, #0
        bxeq            lr
        vpush           {d8-d15}

        vmov.i64        q15, #0xffffffff
        vshr.u64        q15, q15, #6            /* 2^26 - 1 in each 64-bit lane */
        vmovn.i64       d25, q15                /* ... and in each 32-bit lane */

        /* H: lane 0 = h, lane 1 = 0. */
        vmov.i32        q5, #0
        vmov.i32        q6, #0
        vmov.i32        d14, #0
        mov             r12, r0
        vld1.32         {d10[0]}, [r12]!
        vld1.32         {d11[0]}, [r12]!
        vld1.32         {d12[0]}, [r12]!
        vld1.32         {d13[0]}, [r12]!
        vld1.32         {d14[0]}, [r12]

        vld1.32         {d16-d19}, [r1]!        /* r^2 in both lanes */
        vld1.32         {d20-d23}, [r1]!
        vld1.32         {d24}, [r1]!
        subs            r3, r3, #1
        beq             .Llast
.Lloop:
        STEP
        subs            r3, r3, #1
        bne             .Lloop
.Llast:
        vld1.32         {d16-d19}, [r1]!        /* lane 0: r^2, lane 1: r */
        vld1.32         {d20-d23}, [r1]!
        vld1.32         {d24}, [r1]
        STEP

        vpadd.i32       d0, d10, d11            /* lane 0 + lane 1 */
        vpadd.i32       d1, d12, d13
        vpadd.i32       d2, d14, d14
        vst1.32         {d0-d1}, [r0]!
        vst1.32         {d2[0]}, [r0]

        CLEAR_NEON                              /* vec_clear.h */
        vpop            {d8-d15}
        bx              lr
        .size   simdcrypt_poly1305_neon, .-simdcrypt_poly1305_neon

        .section .note.GNU-stack,"",%progbits

#endif
