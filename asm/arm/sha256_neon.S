/*
 * sha256_neon.S -- SHA-256 compression on plain ARMv7 NEON (no crypto extension needed:
 * Cortex-A7/A8/A9/A15 and later, e.g. Raspberry Pi 2).
 *
 * Features: ARMv7-A, A32 (ARM) state, NEON (Advanced SIMD, which implies 32 d registers).
 * Linux: AT_HWCAP bit 12, HWCAP_NEON. Token `ArmNeon` ("neon") in src/sha/sha256/arm.rs
 * guards every call. ABI: AAPCS, hard-float; ELF.
 *
 * void simdcrypt_sha256_block_neon(uint32_t state[8], const uint8_t *data, size_t nblocks);
 *   Compresses nblocks (>= 0) consecutive 64-byte blocks at data (any alignment) into state
 *   (a..h, native little-endian words, 4-byte aligned), FIPS 180-4 §6.2.2. Only the public
 *   block count steers branches and conditional instructions; there are no data-dependent
 *   branches or table indices.
 *
 * Split: the rounds run on ARM integer registers (a 32-bit rotation is free there as the
 * shifted second operand), the message schedule on NEON, four words at a time in q registers,
 * interleaved with the rounds so that both pipelines work at once. NEON hands each group of
 * four W[t] + K[t] to the rounds through a 16-word ring on the stack.
 *
 * Register table:
 *   r4-r11  a..h at round 0 of every 8; each round writes the new e into the register that
 *           held d and the new a into the one that held h, so the names rotate one register
 *           per round (the macro arguments carry the renaming; no moves)
 *   r0, r2  round temporaries (Sigma, Ch, W+K)
 *   r3, r12 a^b of the previous round (= b^c of this one) and of this one, alternating
 *   r1      data (advances 64 per block)     lr  &K256
 *   q0-q3   W, a ring of 4 groups: q(g mod 4) holds W[4g..4g+3]
 *   q8-q14  schedule temporaries; q14 = W+K of the group being stored
 *   [sp, #0..63]  W+K ring: word t mod 16 holds W[t] + K[t]
 *   [sp, #64] state pointer, [sp, #68] blocks left
 * q4-q7 (d8-d15, callee-saved) are not used. Before returning, q0-q3 and q8-q15 are zeroed
 * (CLEAR_NEON, vec_clear.h), so is the W+K ring, and so are r0, r2, r3 and r12 (which held
 * values derived from the state and the message); r4-r11 get the caller's values back.
 *
 * Rounds: the block's W+K[0..15] are in the ring before round 0. Rounds 0-47 come in 12
 * groups of four; group g also computes W[16+4g..19+4g] into q(g mod 4) and stores their
 * W+K over ring words 4g..4g+3 after its four rounds have read them. Groups 12-15 load the
 * next block (the current one again for the last block, so nothing past the input is read)
 * into q0-q3 and store its W+K[0..15] the same way.
 */

#if defined(__ELF__) && defined(__arm__)

#include "vec_clear.h"

        .syntax unified
        .arch   armv7-a
        .fpu    neon
        .arm
        .text

/* One round, FIPS 180-4 §6.2.2 step 3, on the registers named in rotated order:
 *   T1 = h + Sigma1(e) + Ch(e,f,g) + K[t] + W[t];  T2 = Sigma0(a) + Maj(a,b,c)
 *   d += T1;  h = T1 + T2   (the renaming does the rest: h is the next round's a)
 * Sigma1(e) = ROTR6 ^ ROTR11 ^ ROTR25 = ROTR6(e ^ ROTR5(e) ^ ROTR19(e)) and
 * Sigma0(a) = ROTR2 ^ ROTR13 ^ ROTR22 = ROTR2(a ^ ROTR11(a) ^ ROTR20(a)) (§4.1.2 (4.4),
 * (4.5)): two EORs with a rotated operand, the last rotation folded into the ADD.
 * Ch(e,f,g) = ((f ^ g) & e) ^ g;  Maj(a,b,c) = ((a ^ b) & (b ^ c)) ^ b, where b ^ c is the
 * previous round's a ^ b (\bc in, \ab out; the next round swaps them).
 * n1..n8: up to eight NEON instructions (schedule work), one after every two integer ones,
 * so that the in-order issue can pair each with an integer instruction. */
.macro  ROUND a, b, c, d, e, f, g, h, t, ab, bc, n1, n2, n3, n4, n5, n6, n7, n8
        ldr             r2, [sp, #4 * (\t % 16)]        /* W[t] + K[t] */
        eor             r0, \e, \e, ror #5
        \n1
        add             \h, \h, r2
        eor             r2, \f, \g
        \n2
        eor             r0, r0, \e, ror #19
        and             r2, r2, \e
        \n3
        add             \h, \h, r0, ror #6              /* + Sigma1(e) */
        eor             r2, r2, \g                      /* Ch(e,f,g) */
        \n4
        eor             r0, \a, \a, ror #11
        add             \h, \h, r2                      /* T1 */
        \n5
        eor             \ab, \a, \b
        add             \d, \d, \h                      /* d += T1 */
        \n6
        eor             r0, r0, \a, ror #20
        and             \bc, \bc, \ab
        \n7
        add             \h, \h, r0, ror #2              /* + Sigma0(a) */
        eor             \bc, \bc, \b                    /* Maj(a,b,c) */
        \n8
        add             \h, \h, \bc
.endm

/* Rounds t..t+3 (t mod 4 = 0, a..h the registers at round t; rounds 0-47) with the message
 * schedule (§6.2.2 step 1) of words t+16..t+19 spread over their slots, and the store of
 * their W+K over ring words t mod 16.. after the four rounds have read them.
 * x0 = q(t/4 mod 4) holds W[t..t+3] (x0lo, x0hi its d halves) and becomes W[u..u+3], u = t+16;
 * x1, x2 = W[u-12..u-9], W[u-8..u-5]; x3 = W[u-4..u-1], x3hi its high half W[u-2..u-1].
 *   W[u] = sigma1(W[u-2]) + W[u-7] + sigma0(W[u-15]) + W[u-16]
 * sigma0(x) = ROTR7 ^ ROTR18 ^ SHR3, sigma1(x) = ROTR17 ^ ROTR19 ^ SHR10 (§4.1.2 (4.6),
 * (4.7)); ROTRn = VSHR.U32 #n then VSLI.32 #(32 - n). sigma1 of W[u+2], W[u+3] needs the
 * W[u], W[u+1] just computed, so it is done on d halves, in two steps. q8-q13 are
 * temporaries, q14 = W+K. */
.macro  GROUP_S t, a, b, c, d, e, f, g, h, x0, x1, x2, x3, x0lo, x0hi, x3hi
        ROUND   \a, \b, \c, \d, \e, \f, \g, \h, \t, r12, r3, \
                "vext.8 q8, \x0, \x1, #4", "vext.8 q9, \x2, \x3, #4", \
                "vshr.u32 q10, q8, #7", "vshr.u32 q11, q8, #18", \
                "vadd.i32 \x0, \x0, q9", "vsli.32 q10, q8, #25", \
                "vsli.32 q11, q8, #14", "vshr.u32 q9, q8, #3"
        ROUND   \h, \a, \b, \c, \d, \e, \f, \g, (\t + 1), r3, r12, \
                "veor q10, q10, q11", "veor q10, q10, q9", \
                "vshr.u32 d24, \x3hi, #17", "vshr.u32 d25, \x3hi, #19", \
                "vadd.i32 \x0, \x0, q10", "vsli.32 d24, \x3hi, #15", \
                "vsli.32 d25, \x3hi, #13", "vshr.u32 d26, \x3hi, #10"
        ROUND   \g, \h, \a, \b, \c, \d, \e, \f, (\t + 2), r12, r3, \
                "veor d24, d24, d25", "veor d24, d24, d26", \
                "vadd.i32 \x0lo, \x0lo, d24", "vshr.u32 d24, \x0lo, #17", \
                "vshr.u32 d25, \x0lo, #19", "vshr.u32 d26, \x0lo, #10", \
                "vsli.32 d24, \x0lo, #15", "vsli.32 d25, \x0lo, #13"
        ROUND   \f, \g, \h, \a, \b, \c, \d, \e, (\t + 3), r3, r12, \
                "vldr d28, [lr, #4 * (\t + 16)]", "vldr d29, [lr, #4 * (\t + 16) + 8]", \
                "veor d24, d24, d25", "veor d24, d24, d26", \
                "vadd.i32 \x0hi, \x0hi, d24", "vadd.i32 q14, q14, \x0", \
                "vstr d28, [sp, #4 * (\t % 16)]", "vstr d29, [sp, #4 * (\t % 16) + 8]"
.endm

/* Rounds t..t+3 of rounds 48-63 (t = 48 + 4k), loading words 4k..4k+3 of the next block
 * into x (big-endian, §5.2.1) and storing their W+K over ring words 4k.. */
.macro  GROUP_P t, a, b, c, d, e, f, g, h, x, k
        ROUND   \a, \b, \c, \d, \e, \f, \g, \h, \t, r12, r3, \
                "vld1.8 {\x}, [r1]!", , "vldr d28, [lr, #16 * \k]", , \
                "vldr d29, [lr, #16 * \k + 8]"
        ROUND   \h, \a, \b, \c, \d, \e, \f, \g, (\t + 1), r3, r12, \
                , , "vrev32.8 \x, \x"
        ROUND   \g, \h, \a, \b, \c, \d, \e, \f, (\t + 2), r12, r3, \
                , , , , "vadd.i32 q14, q14, \x"
        ROUND   \f, \g, \h, \a, \b, \c, \d, \e, (\t + 3), r3, r12, \
                "vstr d28, [sp, #16 * \k]", , "vstr d29, [sp, #16 * \k + 8]"
.endm

/* The same without the rounds (the first block's W and W+K[0..15]). */
.macro  PRELOAD x, k
        vld1.8          {\x}, [r1]!
        vldr            d28, [lr, #16 * \k]
        vldr            d29, [lr, #16 * \k + 8]
        vrev32.8        \x, \x
        vadd.i32        q14, q14, \x
        vstr            d28, [sp, #16 * \k]
        vstr            d29, [sp, #16 * \k + 8]
.endm

/* The offset of K from .Lpc_kn, before the function (an LDR literal reaches +-4 KiB; the
 * unrolled rounds are longer). */
        .p2align 2
.LK256n_rel:
        .word           .LK256n - (.Lpc_kn + 8)

        .globl  simdcrypt_sha256_block_neon
        .hidden simdcrypt_sha256_block_neon
        .type   simdcrypt_sha256_block_neon, %function
        .p2align 4
simdcrypt_sha256_block_neon:
        cmp             r2, #0
        bxeq            lr
        push            {r4-r11, lr}
        sub             sp, sp, #76
        ldr             lr, .LK256n_rel
.Lpc_kn: add            lr, pc, lr                      /* pc reads as .Lpc_kn + 8 */
        str             r0, [sp, #64]
        str             r2, [sp, #68]
        /* The first block's W and W+K[0..15]. */
        PRELOAD         q0, 0
        PRELOAD         q1, 1
        PRELOAD         q2, 2
        PRELOAD         q3, 3
        ldm             r0, {r4-r11}

.Lblock_n:
        eor             r3, r5, r6                      /* b ^ c for round 0 */
        GROUP_S 0, r4, r5, r6, r7, r8, r9, r10, r11, q0, q1, q2, q3, d0, d1, d7
        GROUP_S 4, r8, r9, r10, r11, r4, r5, r6, r7, q1, q2, q3, q0, d2, d3, d1
        GROUP_S 8, r4, r5, r6, r7, r8, r9, r10, r11, q2, q3, q0, q1, d4, d5, d3
        GROUP_S 12, r8, r9, r10, r11, r4, r5, r6, r7, q3, q0, q1, q2, d6, d7, d5
        GROUP_S 16, r4, r5, r6, r7, r8, r9, r10, r11, q0, q1, q2, q3, d0, d1, d7
        GROUP_S 20, r8, r9, r10, r11, r4, r5, r6, r7, q1, q2, q3, q0, d2, d3, d1
        GROUP_S 24, r4, r5, r6, r7, r8, r9, r10, r11, q2, q3, q0, q1, d4, d5, d3
        GROUP_S 28, r8, r9, r10, r11, r4, r5, r6, r7, q3, q0, q1, q2, d6, d7, d5
        GROUP_S 32, r4, r5, r6, r7, r8, r9, r10, r11, q0, q1, q2, q3, d0, d1, d7
        GROUP_S 36, r8, r9, r10, r11, r4, r5, r6, r7, q1, q2, q3, q0, d2, d3, d1
        GROUP_S 40, r4, r5, r6, r7, r8, r9, r10, r11, q2, q3, q0, q1, d4, d5, d3
        GROUP_S 44, r8, r9, r10, r11, r4, r5, r6, r7, q3, q0, q1, q2, d6, d7, d5
        /* The last block preloads itself again (public count; reads only the input). */
        ldr             r0, [sp, #68]
        subs            r0, r0, #1
        str             r0, [sp, #68]
        subeq           r1, r1, #64
        GROUP_P 48, r4, r5, r6, r7, r8, r9, r10, r11, q0, 0
        GROUP_P 52, r8, r9, r10, r11, r4, r5, r6, r7, q1, 1
        GROUP_P 56, r4, r5, r6, r7, r8, r9, r10, r11, q2, 2
        GROUP_P 60, r8, r9, r10, r11, r4, r5, r6, r7, q3, 3

        /* §6.2.2 step 4: H(i) = H(i-1) + (a..h). */
        ldr             r0, [sp, #64]
        ldr             r2, [r0, #0]
        ldr             r3, [r0, #4]
        add             r4, r4, r2
        add             r5, r5, r3
        ldr             r2, [r0, #8]
        ldr             r3, [r0, #12]
        add             r6, r6, r2
        add             r7, r7, r3
        ldr             r2, [r0, #16]
        ldr             r3, [r0, #20]
        add             r8, r8, r2
        add             r9, r9, r3
        ldr             r2, [r0, #24]
        ldr             r3, [r0, #28]
        add             r10, r10, r2
        add             r11, r11, r3
        stm             r0, {r4-r11}
        ldr             r2, [sp, #68]
        cmp             r2, #0
        bne             .Lblock_n

        CLEAR_NEON                                      /* W, W+K: vec_clear.h */
        mov             r12, sp
        vst1.64         {q8, q9}, [r12]!                /* zero the W+K ring */
        vst1.64         {q8, q9}, [r12]
        mov             r0, #0
        mov             r2, #0
        mov             r3, #0
        mov             r12, #0
        add             sp, sp, #76
        pop             {r4-r11, pc}

        .size   simdcrypt_sha256_block_neon, .-simdcrypt_sha256_block_neon

        .section .rodata
        .p2align 4
/* FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes. */
.LK256n:
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
        .size   .LK256n, .-.LK256n

        .section .note.GNU-stack,"",%progbits

#endif
