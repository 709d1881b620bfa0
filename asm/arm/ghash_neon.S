/*
 * ghash_neon.S -- GHASH (NIST SP 800-38D §6.4) on NEON alone, for ARMv7 cores without the
 * crypto extension (Cortex-A7/A8/A9/A15): the 64x64-bit carry-less multiply is built from
 * VMULL.P8 (eight 8x8 -> 16-bit polynomial products per instruction), the technique of
 * Câmara, Gouvêa, López, Dahab, "Fast Software Polynomial Multiplication on ARM Processors
 * Using the NEON Engine" (2013).
 *
 * Features: ARMv7-A with NEON (Linux: AT_HWCAP bit 12). Token `ArmNeon` ("neon") in
 * src/ghash/arm.rs guards every call. ABI: AAPCS, hard-float; ELF. Uses only q0-q3 and
 * q8-q15 (d8-d15 are callee-saved: untouched).
 *
 * void simdcrypt_ghash_neon(uint8_t y[16], const uint8_t hz[16], const uint8_t *data,
 *                           size_t nblocks);
 *   Same contract and representation as simdcrypt_ghash_armv8 (see ghash_armv8.S: blocks as
 *   128-bit big-endian integers, hz = H·x^-1, Karatsuba, two Montgomery steps by z^64). Only
 *   the public block count steers branches; VMULL.P8 and the shifts take constant time.
 *
 * 64x64 multiply (PMUL64 below). With a = Σ a_i·2^(8i), b = Σ b_j·2^(8j) (bytes), a·b is the
 * sum of a_i·b_j·2^(8(i+j)). VMULL.P8 of a and b gives lane i (16 bits at bit 16i) = a_i·b_i,
 * exactly the terms with i = j, in place. For k = 1..3, rotate one operand by k bytes
 * (VEXT.8 #8-k: lane i holds byte i-k mod 8) and sum both ways round:
 *   X_k lane i = a_i·b_(i-k) ^ a_(i-k)·b_i (indices mod 8).
 * Lanes i >= k hold the terms with |i - j| = k, due at bit 16i - 8k: X_k >> 8k. Lanes i < k
 * hold wrapped terms with |i - j| = 8 - k, due at bit 16i - 8k + 64. So the low 16k bits of
 * X_k (lanes 0..k-1) are moved up by 64 bits before the common shift: t = X_lo & (2^16k - 1),
 * X_hi ^= t, X_lo ^= t, then X_k >> 8k (a VEXT.8 with zero). For k = 4 one product with b
 * rotated by 4 holds all |i - j| = 4 terms, lanes 0..3 wrapped: (X_lo ^ X_hi) << 32.
 * a·b = D ^ (X_1 >> 8) ^ (X_2 >> 16) ^ (X_3 >> 24) ^ ((X_4,lo ^ X_4,hi) << 32): 8 VMULL.P8.
 *
 * Reduction: one Montgomery step by z^64 adds clmul(u, 0xc200000000000000) = u·(z^63 + z^62
 * + z^57), computed here with shifts: low limb (u << 63) ^ (u << 62) ^ (u << 57), high limb
 * (u >> 1) ^ (u >> 2) ^ (u >> 7).
 *
 * Register table:
 *   r0  y            r1  hz           r2  data (advances 16 per block)     r3  blocks left
 *   q0  Y (d0 hi, d1 lo)      q1  H·x^-1 (d2 hi, d3 lo)     d4  d2 ^ d3     d5  a_hi ^ a_lo
 *   q3  the block X, then reduction temporaries
 *   q8  lo (d16 = T0, d17)    q9  hi (d18, d19 = T3)    q10 mid
 *   q11 q12 d26  PMUL64 temporaries      d27 d28 d29  masks 2^16-1, 2^32-1, 2^48-1
 *   q15 zero
 * Before returning, q0-q3 and q8-q15 (Y, H, products) are zeroed (CLEAR_NEON, vec_clear.h).
 * Nothing is kept on the stack.
 */

#if defined(__ELF__) && defined(__arm__)

#include "vec_clear.h"

        .syntax unified
        .arch   armv7-a
        .fpu    neon
        .arm
        .text

/* \r (q) = \a · \b (d registers, distinct from the temporaries). */
.macro  PMUL64 r, a, b
        vmull.p8        \r, \a, \b              /* D */
        /* k = 1 */
        vext.8          d26, \a, \a, #7
        vmull.p8        q11, d26, \b
        vext.8          d26, \b, \b, #7
        vmull.p8        q12, \a, d26
        veor            q11, q11, q12
        vand            d24, d22, d27
        veor            d23, d23, d24
        veor            d22, d22, d24
        vext.8          q11, q11, q15, #1
        veor            \r, \r, q11
        /* k = 2 */
        vext.8          d26, \a, \a, #6
        vmull.p8        q11, d26, \b
        vext.8          d26, \b, \b, #6
        vmull.p8        q12, \a, d26
        veor            q11, q11, q12
        vand            d24, d22, d28
        veor            d23, d23, d24
        veor            d22, d22, d24
        vext.8          q11, q11, q15, #2
        veor            \r, \r, q11
        /* k = 3 */
        vext.8          d26, \a, \a, #5
        vmull.p8        q11, d26, \b
        vext.8          d26, \b, \b, #5
        vmull.p8        q12, \a, d26
        veor            q11, q11, q12
        vand            d24, d22, d29
        veor            d23, d23, d24
        veor            d22, d22, d24
        vext.8          q11, q11, q15, #3
        veor            \r, \r, q11
        /* k = 4: (X_lo ^ X_hi) << 32, as bytes 4..11 of a zero vector. */
        vext.8          d26, \b, \b, #4
        vmull.p8        q11, \a, d26
        veor            d22, d22, d23
        vmov.i64        d23, #0
        vext.8          q11, q15, q11, #12
        veor            \r, \r, q11
.endm

/* One Montgomery step on limbs (\u = low limb, \n1, \n2 the next two): \n1 ^= m.lo,
 * \n2 ^= m.hi ^ \u, with m = \u·(z^63 + z^62 + z^57). Uses d6, d7. */
.macro  MONT u, n1, n2
        vshl.i64        d6, \u, #63
        vshl.i64        d7, \u, #62
        veor            \n1, \n1, d6
        vshl.i64        d6, \u, #57
        veor            \n1, \n1, d7
        veor            \n1, \n1, d6
        vshr.u64        d6, \u, #1
        vshr.u64        d7, \u, #2
        veor            \n2, \n2, d6
        vshr.u64        d6, \u, #7
        veor            \n2, \n2, d7
        veor            \n2, \n2, d6
        veor            \n2, \n2, \u
.endm

        .globl  simdcrypt_ghash_neon
        .hidden simdcrypt_ghash_neon
        .type   simdcrypt_ghash_neon, %function
        .p2align 4
simdcrypt_ghash_neon:
        cmp             r3, #0
        bxeq            lr
        vld1.8          {d0, d1}, [r0]
        vrev64.8        q0, q0
        vld1.8          {d2, d3}, [r1]
        vrev64.8        q1, q1
        veor            d4, d2, d3
        vmov.i64        d27, #0x000000000000ffff
        vmov.i64        d28, #0x00000000ffffffff
        vmov.i64        d29, #0x0000ffffffffffff
        vmov.i64        q15, #0

.Lblock:
        vld1.8          {d6, d7}, [r2]!
        vrev64.8        q3, q3
        veor            q0, q0, q3              /* a = Y ^ X */
        veor            d5, d0, d1
        PMUL64          q8, d1, d3              /* lo */
        PMUL64          q9, d0, d2              /* hi */
        PMUL64          q10, d5, d4             /* (a_lo ^ a_hi)(h_lo ^ h_hi) */
        veor            q10, q10, q8
        veor            q10, q10, q9            /* mid */
        /* T0 = d16, T1 = d17 ^ mid.lo, T2 = d18 ^ mid.hi, T3 = d19. */
        veor            d17, d17, d20
        veor            d18, d18, d21
        MONT            d16, d17, d18           /* S0 = d17, S1 = d18, S2 = d19 */
        MONT            d17, d18, d19           /* Y.lo = d18, Y.hi = d19 */
        vmov            d0, d19
        vmov            d1, d18
        subs            r3, r3, #1
        bne             .Lblock

        vrev64.8        q0, q0
        vst1.8          {d0, d1}, [r0]
        CLEAR_NEON                              /* Y, H, products: vec_clear.h */
        bx              lr
        .size   simdcrypt_ghash_neon, .-simdcrypt_ghash_neon

        .section .note.GNU-stack,"",%progbits

#endif
