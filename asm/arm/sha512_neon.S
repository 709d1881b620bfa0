/*
 * sha512_neon.S -- SHA-512 compression on plain ARMv7 NEON (no crypto extension needed:
 * Cortex-A7/A8/A9/A15 and later).
 *
 * Features: ARMv7-A, A32 (ARM) state, NEON (Advanced SIMD, which implies 32 d registers).
 * Linux: AT_HWCAP bit 12, HWCAP_NEON. Token `ArmNeon` ("neon") in src/sha/sha512/arm.rs
 * guards every call. ABI: AAPCS, hard-float; ELF.
 *
 * void simdcrypt_sha512_block_neon(uint64_t state[8], const uint8_t *data, size_t nblocks);
 *   Compresses nblocks (>= 0) consecutive 128-byte blocks at data (any alignment) into
 *   state (a..h, native little-endian 64-bit words, 8-byte aligned), FIPS 180-4 §6.4.2.
 *   Only the public block count and round counter steer branches; there are no
 *   data-dependent branches or table indices.
 *
 * Why NEON: ARMv7 has no 64-bit integer registers; a 64-bit rotation on r registers costs
 * four shifts and ORRs on register pairs. NEON has 64-bit lanes: one d register holds one
 * word, ROTR^n(x) = (x >> n) | (x << (64 - n)) is VSHR.U64 + VSLI.64 (shift right, then
 * shift left and insert), Ch and Maj are one VBSL (bitwise select) each, and VADD.I64 adds.
 * The message schedule works on two words at once in q registers (§6.4.2 step 1: W[t+1]
 * needs W[t-1], not W[t], so pairs (W[t], W[t+1]) are independent).
 *
 * Register table:
 *   r0  state       r1  data (advances 128 per block)     r2  blocks left
 *   r3  &K512       r12 K pointer within a block          lr  pass counter
 *   d16-d23 (q8-q11)   the working variables; at round 0 of every 8: a=d16 .. h=d23. Each
 *                      round writes the new a into the register that held h and the new e
 *                      into the one that held d, so the names rotate one register per round
 *                      (the macro arguments carry the renaming; no moves).
 *   q0-q7 (d0-d15)     W, a ring of 8 pairs: q(i) holds W[t], W[t+1] with t = 2i mod 16
 *   q12 (d24, d25)     W+K for the two rounds in flight
 *   d26-d30            round temporaries (Sigma1, Ch, Sigma0, Maj)
 *   q13-q15            schedule temporaries (between rounds, when d26-d30 are free)
 * d8-d15 (inside q4-q7) are callee-saved: pushed on entry, popped on return (the message
 * words they held are overwritten by the caller's values). Before returning, q0-q3 and
 * q8-q15 (state, message schedule) are zeroed (CLEAR_NEON, vec_clear.h).
 *
 * Rounds: 80 = 5 passes of 16. Passes 0-3 replace each W pair, right after adding its K,
 * with the pair 16 words later; pass 4 only consumes.
 */

#if defined(__ELF__) && defined(__arm__)

#include "vec_clear.h"

        .syntax unified
        .arch   armv7-a
        .fpu    neon
        .arm
        .text

/* One round, FIPS 180-4 §6.4.2 step 3:
 *   T1 = h + Sigma1(e) + Ch(e,f,g) + K[t] + W[t];  T2 = Sigma0(a) + Maj(a,b,c)
 *   d += T1;  h = T1 + T2   (the renaming does the rest: h is the next round's a)
 * Sigma1(e) = ROTR14 ^ ROTR18 ^ ROTR41, Sigma0(a) = ROTR28 ^ ROTR34 ^ ROTR39 (§4.1.3).
 * Ch(e,f,g) = (e & f) ^ (~e & g) = VBSL with e as the selector.
 * Maj(a,b,c) = a where a == b, else c  = VBSL(a ^ b, c, a).
 * The two halves are interleaved so that independent instructions can overlap. */
.macro  ROUND a, b, c, d, e, f, g, h, wk
        vshr.u64        d26, \e, #14
        vshr.u64        d27, \e, #18
        vshr.u64        d28, \e, #41
        vmov            d29, \e
        vsli.64         d26, \e, #50
        vsli.64         d27, \e, #46
        vsli.64         d28, \e, #23
        vbsl            d29, \f, \g             /* Ch(e,f,g) */
        vadd.i64        \h, \h, \wk
        veor            d26, d26, d27
        vadd.i64        \h, \h, d29
        veor            d26, d26, d28           /* Sigma1(e) */
        vshr.u64        d27, \a, #28
        vshr.u64        d28, \a, #34
        vshr.u64        d29, \a, #39
        vadd.i64        \h, \h, d26             /* T1 */
        vsli.64         d27, \a, #36
        vsli.64         d28, \a, #30
        vsli.64         d29, \a, #25
        veor            d30, \a, \b
        veor            d27, d27, d28
        vbsl            d30, \c, \a             /* Maj(a,b,c) */
        veor            d27, d27, d29           /* Sigma0(a) */
        vadd.i64        \d, \d, \h              /* e' = d + T1 */
        vadd.i64        d27, d27, d30           /* T2 */
        vadd.i64        \h, \h, d27             /* a' = T1 + T2 */
.endm

/* Rounds r and r+1 (r even, counted modulo 8: the names rotate back to where they started
 * every eight rounds), with W+K in \wa and \wb. */
.macro  ROUNDS2 r, wa, wb
        .if (\r) == 0
        ROUND   d16, d17, d18, d19, d20, d21, d22, d23, \wa
        ROUND   d23, d16, d17, d18, d19, d20, d21, d22, \wb
        .elseif (\r) == 2
        ROUND   d22, d23, d16, d17, d18, d19, d20, d21, \wa
        ROUND   d21, d22, d23, d16, d17, d18, d19, d20, \wb
        .elseif (\r) == 4
        ROUND   d20, d21, d22, d23, d16, d17, d18, d19, \wa
        ROUND   d19, d20, d21, d22, d23, d16, d17, d18, \wb
        .else
        ROUND   d18, d19, d20, d21, d22, d23, d16, d17, \wa
        ROUND   d17, d18, d19, d20, d21, d22, d23, d16, \wb
        .endif
.endm

/* Replaces the pair \w0 = (W[t], W[t+1]) with (W[t+16], W[t+17]), §6.4.2 step 1:
 *   W[s] = sigma1(W[s-2]) + W[s-7] + sigma0(W[s-15]) + W[s-16],  s = t+16, t+17
 * with sigma0 = ROTR1 ^ ROTR8 ^ SHR7, sigma1 = ROTR19 ^ ROTR61 ^ SHR6 (§4.1.3).
 * Ring arguments: \w1 = (W[t+2], W[t+3]), \w4 = (W[t+8], W[t+9]), \w5 = (W[t+10], W[t+11]),
 * \w7 = (W[t+14], W[t+15]). The odd-offset pairs (W[t+1], W[t+2]) and (W[t+9], W[t+10]) are
 * taken across two ring entries with VEXT. */
.macro  SCHED w0, w1, w4, w5, w7
        vext.8          q13, \w0, \w1, #8       /* W[t+1], W[t+2] */
        vshr.u64        q14, q13, #1
        vshr.u64        q15, q13, #8
        vsli.64         q14, q13, #63
        vsli.64         q15, q13, #56
        vshr.u64        q13, q13, #7
        veor            q14, q14, q15
        veor            q14, q14, q13           /* sigma0 */
        vadd.i64        \w0, \w0, q14
        vshr.u64        q14, \w7, #19
        vshr.u64        q15, \w7, #61
        vsli.64         q14, \w7, #45
        vsli.64         q15, \w7, #3
        vshr.u64        q13, \w7, #6
        veor            q14, q14, q15
        veor            q14, q14, q13           /* sigma1 */
        vext.8          q13, \w4, \w5, #8       /* W[t+9], W[t+10] */
        vadd.i64        \w0, \w0, q14
        vadd.i64        \w0, \w0, q13
.endm

/* Rounds 2i, 2i+1 of a pass on ring entry \w0, then its next schedule pair. */
.macro  PAIR_SCHED i, w0, w1, w4, w5, w7
        vld1.64         {d24, d25}, [r12]!
        vadd.i64        q12, q12, \w0
        SCHED           \w0, \w1, \w4, \w5, \w7
        ROUNDS2         (2 * \i) % 8, d24, d25
.endm

/* Rounds 2i, 2i+1 of the last pass. */
.macro  PAIR i, w0
        vld1.64         {d24, d25}, [r12]!
        vadd.i64        q12, q12, \w0
        ROUNDS2         (2 * \i) % 8, d24, d25
.endm

/* The table's offset from .Lpc_k; here, before the function, because the function is
 * longer than an LDR literal offset (4095 bytes) reaches. */
        .p2align 2
.LK512_rel:
        .word           .LK512 - (.Lpc_k + 8)

        .globl  simdcrypt_sha512_block_neon
        .hidden simdcrypt_sha512_block_neon
        .type   simdcrypt_sha512_block_neon, %function
        .p2align 4
simdcrypt_sha512_block_neon:
        cmp             r2, #0
        bxeq            lr
        push            {r4, lr}                /* r4 keeps the stack 8-aligned; unused */
        vpush           {d8-d15}
        ldr             r3, .LK512_rel
.Lpc_k: add             r3, pc, r3              /* pc reads as .Lpc_k + 8 */
        vld1.64         {d16-d19}, [r0]!
        vld1.64         {d20-d23}, [r0]
        sub             r0, r0, #32

.Lblock:
        /* Message block as 16 big-endian 64-bit words (FIPS 180-4 §5.2.2). */
        vld1.8          {d0-d3}, [r1]!
        vld1.8          {d4-d7}, [r1]!
        vld1.8          {d8-d11}, [r1]!
        vld1.8          {d12-d15}, [r1]!
        vrev64.8        q0, q0
        vrev64.8        q1, q1
        vrev64.8        q2, q2
        vrev64.8        q3, q3
        vrev64.8        q4, q4
        vrev64.8        q5, q5
        vrev64.8        q6, q6
        vrev64.8        q7, q7
        mov             r12, r3
        mov             lr, #4

        /* Rounds 0-63 in four passes, each computing the next 16 schedule words. */
.Lpass:
        PAIR_SCHED      0, q0, q1, q4, q5, q7
        PAIR_SCHED      1, q1, q2, q5, q6, q0
        PAIR_SCHED      2, q2, q3, q6, q7, q1
        PAIR_SCHED      3, q3, q4, q7, q0, q2
        PAIR_SCHED      4, q4, q5, q0, q1, q3
        PAIR_SCHED      5, q5, q6, q1, q2, q4
        PAIR_SCHED      6, q6, q7, q2, q3, q5
        PAIR_SCHED      7, q7, q0, q3, q4, q6
        subs            lr, lr, #1
        bne             .Lpass

        /* Rounds 64-79. */
        PAIR            0, q0
        PAIR            1, q1
        PAIR            2, q2
        PAIR            3, q3
        PAIR            4, q4
        PAIR            5, q5
        PAIR            6, q6
        PAIR            7, q7

        /* §6.4.2 step 4: H(i) = H(i-1) + (a..h). The W registers are free now. */
        vld1.64         {d0-d3}, [r0]!
        vld1.64         {d4-d7}, [r0]
        sub             r0, r0, #32
        vadd.i64        q8, q8, q0
        vadd.i64        q9, q9, q1
        vadd.i64        q10, q10, q2
        vadd.i64        q11, q11, q3
        vst1.64         {d16-d19}, [r0]!
        vst1.64         {d20-d23}, [r0]
        sub             r0, r0, #32
        subs            r2, r2, #1
        bne             .Lblock

        CLEAR_NEON                              /* state, W (q0-q3): vec_clear.h */
        vpop            {d8-d15}
        pop             {r4, pc}

        .size   simdcrypt_sha512_block_neon, .-simdcrypt_sha512_block_neon

        .section .rodata
        .p2align 4
/* FIPS 180-4 §4.2.3: the first 64 bits of the fractional parts of the cube roots of the
 * first 80 primes. Little-endian .quad, as VLD1.64 reads them. */
.LK512:
        .quad   0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc
        .quad   0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118
        .quad   0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2
        .quad   0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694
        .quad   0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65
        .quad   0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5
        .quad   0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4
        .quad   0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70
        .quad   0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df
        .quad   0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b
        .quad   0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30
        .quad   0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8
        .quad   0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8
        .quad   0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3
        .quad   0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec
        .quad   0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b
        .quad   0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178
        .quad   0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b
        .quad   0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c
        .quad   0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817
        .size   .LK512, .-.LK512

        .section .note.GNU-stack,"",%progbits

#endif
