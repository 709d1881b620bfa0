/*
 * ghash_armv8.S -- GHASH (NIST SP 800-38D §6.4) with the AArch32 crypto extension's
 * 64x64 -> 128-bit carry-less multiply VMULL.P64.
 *
 * Features: ARMv8-A AArch32 (A32 state) with VMULL.P64 (Linux: AT_HWCAP2 bit 1, HWCAP2_PMULL)
 * and NEON. Token `ArmPmull` ("pmull,neon") in src/ghash/arm.rs guards every call.
 * ABI: AAPCS, hard-float; ELF. Uses only q0-q3 and q8-q15 (d8-d15 are callee-saved: untouched).
 *
 * void simdcrypt_ghash_armv8(uint8_t y[16], const uint8_t htable[64], const uint8_t *data,
 *                            size_t nblocks);
 *   y <- (...((y ^ X_1)·H ^ X_2)·H ... ^ X_n)·H over the nblocks (>= 0) 16-byte blocks X_i at
 *   data (any alignment); y in SP 800-38D byte order. htable holds H^i·x^-1 for i = 1..4 in
 *   the representation below (16 bytes each, any alignment), computed by the Rust wrapper.
 *   Only the public block count steers branches.
 *
 * Representation (Gueron & Kounavis, "Intel Carry-Less Multiplication Instruction and its
 * Usage for Computing the GCM Mode", 2014: the bit-reflected method): a block read as one
 * 128-bit big-endian integer has the coefficient of x^i at bit 127-i (SP 800-38D §6.3 puts x^0
 * at the leftmost bit). VLD1.8 + VREV64.8 give that integer as d_even = bits 64..127 ("hi"),
 * d_odd = bits 0..63 ("lo"). Write R(f) for this integer of a polynomial f, and z for the
 * shift of R by one bit towards bit 127: z·R(f) = R(f·x^-1), so R-values are polynomials in
 * z = x^-1 modulo p*(z) = z^128 + z^127 + z^126 + z^121 + 1 (the reflection of
 * p(x) = x^128 + x^7 + x^2 + x + 1; z -> x^-1 maps one field onto the other, R(f) to
 * x^-127·f). The carry-less product of R(a) and R(b) is then clmul(R(a), R(b)) ≡ R(a·b·x)·z^128.
 * With hz = R(H·x^-1) = z·R(H) mod p* (a 1-bit left shift, reduced), the product
 * T = clmul(R(a), hz) ≡ R(a·H)·z^128, so R(a·H) = T·z^-128 mod p*: a Montgomery reduction.
 *
 * Reduction (two 64-bit Montgomery steps): p* ≡ 1 mod z^64, so for the low limb u of T,
 * T + u·p* is divisible by z^64 and u·z^-64 ≡ u·(z^64 + z^63 + z^62 + z^57) mod p*. One step:
 * T <- (T >> 64) ^ clmul(u, 0xc200000000000000) ^ (u << 64), one VMULL.P64. Two steps take
 * the 256-bit T (limbs T3 T2 T1 T0) to the 128-bit result, which is reduced (degree < 128).
 *
 * Multiplication: Karatsuba, lo = a_lo·h_lo, hi = a_hi·h_hi, mid = (a_lo^a_hi)(h_lo^h_hi)^lo^hi,
 * T = hi·2^128 ^ mid·2^64 ^ lo: three VMULL.P64 per block. Four blocks share one reduction
 * (the aggregated reduction of Gueron & Kounavis): Y' = (Y^X_1)·H^4 ^ X_2·H^3 ^ X_3·H^2 ^ X_4·H,
 * the Karatsuba parts summed unreduced, then two VMULL.P64 for the reduction. Fewer than four
 * blocks left go one at a time with H.
 *
 * Register table (q4-q7 = d8-d15 are callee-saved and not used):
 *   r0  y            r1  htable       r2  data (advances 16 per block)     r3  blocks left
 *   q0  Y (d0 hi, d1 lo)
 *   q1  H·x^-1 (d2 hi, d3 lo)   q2  H^2·x^-1 (d4, d5)   q8  H^3·x^-1 (d16, d17)
 *   q9  H^4·x^-1 (d18, d19)     d20..d23  hi ^ lo of H^1..H^4 (Karatsuba)
 *   q3  a block X (d6 hi, d7 lo); d6 then holds 0xc200000000000000 in the reduction
 *   q12 Σ lo (d24 = T0)   q13 Σ hi (d27 = T3)   q14 Σ mid   q15 each product
 * Before returning, q0-q3 and q8-q15 (Y, the H powers, blocks) are zeroed (CLEAR_NEON,
 * vec_clear.h). Nothing is kept on the stack.
 */

#if defined(__ELF__) && defined(__arm__)

#include "vec_clear.h"

        .syntax unified
        .arch   armv8-a
        .fpu    crypto-neon-fp-armv8
        /* As in sha256_armv8.S: keep the object's build attributes at ARMv7 + NEON; the code
         * runs only after run-time detection found the extension. */
        .object_arch armv7-a
        .eabi_attribute Tag_CPU_name, "7-A"
        .eabi_attribute Tag_FP_arch, 3                  /* VFPv3 */
        .eabi_attribute Tag_Advanced_SIMD_arch, 1       /* NEONv1 */
        .eabi_attribute Tag_MPextension_use, 0
        .eabi_attribute Tag_Virtualization_use, 0
        .arm
        .text

/* Adds X·H^i to q12-q14 (Karatsuba parts). X in \xh, \xl (clobbered), H^i in \hh, \hl,
 * \hf = \hh ^ \hl. */
.macro  MULACC xh, xl, hh, hl, hf
        vmull.p64       q15, \xl, \hl
        veor            q12, q12, q15
        vmull.p64       q15, \xh, \hh
        veor            q13, q13, q15
        veor            \xh, \xh, \xl
        vmull.p64       q15, \xh, \hf
        veor            q14, q14, q15
.endm

/* Y (q0) <- the sum in q12-q14, reduced. */
.macro  REDUCE
        veor            q14, q14, q12
        veor            q14, q14, q13           /* mid */
        /* T0 = d24, T1 = d25 ^ mid.lo, T2 = d26 ^ mid.hi, T3 = d27. */
        veor            d25, d25, d28
        veor            d26, d26, d29
        /* 0xc2000000c2000000 << 32 = 0xc200000000000000 (z^63 + z^62 + z^57). */
        vmov.i32        d6, #0xc2000000
        vshl.i64        d6, d6, #32
        /* Step 1, u = T0: S0 = T1 ^ m.lo, S1 = T2 ^ m.hi ^ T0, S2 = T3. */
        vmull.p64       q15, d24, d6
        veor            d25, d25, d30
        veor            d26, d26, d31
        veor            d26, d26, d24
        /* Step 2, u = S0: Y.lo = S1 ^ m.lo, Y.hi = S2 ^ m.hi ^ S0. */
        vmull.p64       q15, d25, d6
        veor            d1, d26, d30
        veor            d0, d27, d31
        veor            d0, d0, d25
.endm

/* q3 <- the next block as (hi, lo); r2 advances. */
.macro  LOADX
        vld1.8          {d6, d7}, [r2]!
        vrev64.8        q3, q3
.endm

        .globl  simdcrypt_ghash_armv8
        .hidden simdcrypt_ghash_armv8
        .type   simdcrypt_ghash_armv8, %function
        .p2align 4
simdcrypt_ghash_armv8:
        cmp             r3, #0
        bxeq            lr
        vld1.8          {d0, d1}, [r0]
        vrev64.8        q0, q0
        vld1.8          {d2, d3, d4, d5}, [r1]!
        vld1.8          {d16, d17, d18, d19}, [r1]
        vrev64.8        q1, q1
        vrev64.8        q2, q2
        vrev64.8        q8, q8
        vrev64.8        q9, q9
        veor            d20, d2, d3
        veor            d21, d4, d5
        veor            d22, d16, d17
        veor            d23, d18, d19
        cmp             r3, #4
        blo             .Lone

.Lfour:
        vmov.i64        q12, #0
        vmov.i64        q13, #0
        vmov.i64        q14, #0
        LOADX
        veor            q3, q3, q0              /* Y ^ X_1 */
        MULACC          d6, d7, d18, d19, d23   /* · H^4 */
        LOADX
        MULACC          d6, d7, d16, d17, d22   /* X_2 · H^3 */
        LOADX
        MULACC          d6, d7, d4, d5, d21     /* X_3 · H^2 */
        LOADX
        MULACC          d6, d7, d2, d3, d20     /* X_4 · H */
        REDUCE
        sub             r3, r3, #4
        cmp             r3, #4
        bhs             .Lfour
        cmp             r3, #0
        beq             .Ldone

.Lone:
        vmov.i64        q12, #0
        vmov.i64        q13, #0
        vmov.i64        q14, #0
        LOADX
        veor            q3, q3, q0
        MULACC          d6, d7, d2, d3, d20
        REDUCE
        subs            r3, r3, #1
        bne             .Lone

.Ldone:
        vrev64.8        q0, q0
        vst1.8          {d0, d1}, [r0]
        CLEAR_NEON                              /* Y, H powers, blocks: vec_clear.h */
        bx              lr
        .size   simdcrypt_ghash_armv8, .-simdcrypt_ghash_armv8

        .section .note.GNU-stack,"",%progbits

#endif
