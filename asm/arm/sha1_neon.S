/*
 * sha1_neon.S -- SHA-1 compression on plain ARMv7 NEON (no crypto extension needed:
 * Cortex-A7/A8/A9/A15 and later, e.g. Raspberry Pi 2).
 *
 * Features: ARMv7-A, A32 (ARM) state, NEON (Advanced SIMD, which implies 32 d registers).
 * Linux: AT_HWCAP bit 12, HWCAP_NEON. Token `ArmNeon` ("neon") in src/sha/sha1/arm.rs
 * guards every call. ABI: AAPCS, hard-float; ELF.
 *
 * void simdcrypt_sha1_block_neon(uint32_t state[5], const uint8_t *data, size_t nblocks);
 *   Compresses nblocks (>= 0) consecutive 64-byte blocks at data (any alignment) into state
 *   (a..e, native little-endian words, 4-byte aligned), FIPS 180-4 §6.1.2. Only the public
 *   block count steers branches and conditional instructions; there are no data-dependent
 *   branches or table indices.
 *
 * Split (as in sha256_neon.S): the rounds run on ARM integer registers (ROTL5 and ROTL30
 * are free as a rotated second operand), the message schedule on NEON, four words at a
 * time, its instructions spread one per two integer ones; NEON hands each group of four
 * W[t] + K[t] to the rounds through a 16-word ring on the stack.
 *
 * Register table:
 *   r4-r8   a..e at round 0 of every 5; each round writes the new a into the register that
 *           held e and rotates b in place (it becomes c), so the names rotate one register
 *           per round (the macro arguments carry the renaming)
 *   r0, r2, r3  round temporaries (f, W+K)
 *   r1      data (advances 64 per block)     lr  K, each constant four times
 *   q0-q3, q8-q11  W, a ring of 8 groups: W[4i..4i+3] in (q0-q3, q8-q11)[i mod 8]
 *   q12, q13  schedule temporaries; q14 = W+K of the group being stored; q15 = 0
 *   [sp, #0..63]  W+K ring: word t mod 16 holds W[t] + K[t]
 *   [sp, #64] state pointer, [sp, #68] blocks left
 * q4-q7 (d8-d15, callee-saved) are not used. Before returning, q0-q3 and q8-q15 are zeroed
 * (CLEAR_NEON, vec_clear.h), so is the W+K ring, and so are r0, r2 and r3 (which held values
 * derived from the state and the message); r4-r8 get the caller's values back.
 *
 * Rounds: the block's W+K[0..15] are in the ring before round 0. Rounds 0-63 come in 16
 * groups of four; group g also computes W[16+4g..19+4g] (GROUP_S1, GROUP_S2) and stores
 * their W+K over ring words 4g..4g+3 after its four rounds have read them. Groups 16-19 load the
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

/* One round, FIPS 180-4 §6.1.2 step 3, on the registers named in rotated order:
 *   T = ROTL5(a) + f_t(b,c,d) + e + K_t + W_t;  e = d; d = c; c = ROTL30(b); b = a; a = T
 * T is formed in e's register (the next round's a); b is rotated in place (the next round's
 * c). ROTL5(a) = ROR(a, 27), ROTL30(b) = ROR(b, 2). f_t (§4.1.1):
 *   Ch(b,c,d)     = ((c ^ d) & b) ^ d                          t 0-19
 *   Parity(b,c,d) = b ^ c ^ d                                  t 20-39, 60-79
 *   Maj(b,c,d)    = (b & c) + ((b ^ c) & d)  (the two terms have no bit in common)  t 40-59
 * n1..n4: up to four NEON instructions (schedule work), one after every two integer ones, so
 * that the in-order issue can pair each with an integer instruction. */
.macro  RND_CH a, b, c, d, e, t, n1, n2, n3, n4
        ldr             r2, [sp, #4 * (\t % 16)]        /* W[t] + K[t] */
        eor             r0, \c, \d
        \n1
        add             \e, \e, r2
        and             r0, r0, \b
        \n2
        add             \e, \e, \a, ror #27
        eor             r0, r0, \d                      /* Ch(b,c,d) */
        \n3
        mov             \b, \b, ror #2
        add             \e, \e, r0
        \n4
.endm
.macro  RND_PAR a, b, c, d, e, t, n1, n2, n3, n4
        ldr             r2, [sp, #4 * (\t % 16)]        /* W[t] + K[t] */
        eor             r0, \b, \c
        \n1
        add             \e, \e, r2
        eor             r0, r0, \d                      /* Parity(b,c,d) */
        \n2
        add             \e, \e, \a, ror #27
        mov             \b, \b, ror #2
        \n3
        add             \e, \e, r0
        \n4
.endm
.macro  RND_MAJ a, b, c, d, e, t, n1, n2, n3, n4
        ldr             r2, [sp, #4 * (\t % 16)]        /* W[t] + K[t] */
        and             r0, \b, \c
        \n1
        eor             r3, \b, \c
        add             \e, \e, r2
        \n2
        and             r3, r3, \d
        add             \e, \e, \a, ror #27
        \n3
        add             \e, \e, r0
        mov             \b, \b, ror #2
        \n4
        add             \e, \e, r3                      /* + Maj(b,c,d) */
.endm

/* Rounds t..t+3 (round function f; a..e the registers at round t; rounds 0-63) with the
 * message schedule (§6.1.2 step 1) of words u..u+3, u = t+16, spread over their slots, and
 * the store of their W+K (K index k) over ring words t mod 16.. after the four rounds have
 * read them. W lives in a ring of eight q registers (32 words): W[4i..4i+3] in
 * (q0, q1, q2, q3, q8, q9, q10, q11)[i mod 8].
 *
 * GROUP_S1, u = 16..28: the definition
 *   W[u+j] = ROTL1(W[u+j-3] ^ W[u+j-8] ^ W[u+j-14] ^ W[u+j-16])
 * with x0..x3 = W[u-16..u-13] .. W[u-4..u-1], into xn. W[u+3] needs W[u] (j = 3): the four
 * lanes are first computed with 0 in its place (tmp), then lane 3 gets
 * ROTL1(W[u]) = ROTL2(tmp lane 0) xored in. ROTLn = VSHR.U32 #(32 - n) then VSLI.32 #n. */
.macro  GROUP_S1 f, t, a, b, c, d, e, x0, x1, x2, x3, xn, k
        RND_\f  \a, \b, \c, \d, \e, \t, \
                "vext.8 q12, \x0, \x1, #8", "vext.8 q13, \x3, q15, #4", \
                "veor q12, q12, \x0", "veor q13, q13, \x2"
        RND_\f  \e, \a, \b, \c, \d, (\t + 1), \
                "veor q12, q12, q13", "vext.8 q13, q15, q12, #4", \
                "vshr.u32 \xn, q12, #31", "vsli.32 \xn, q12, #1"
        RND_\f  \d, \e, \a, \b, \c, (\t + 2), \
                "vshr.u32 q12, q13, #30", "vsli.32 q12, q13, #2", \
                "vldr d28, [lr, #16 * \k]", "vldr d29, [lr, #16 * \k + 8]"
        RND_\f  \c, \d, \e, \a, \b, (\t + 3), \
                "veor \xn, \xn, q12", "vadd.i32 q14, q14, \xn", \
                "vstr d28, [sp, #4 * (\t % 16)]", "vstr d29, [sp, #4 * (\t % 16) + 8]"
.endm

/* GROUP_S2, u = 32..76: the equivalent recurrence for u >= 32 (it follows from unrolling
 * the definition once: every term appears twice except these four),
 *   W[u+j] = ROTL2(W[u+j-6] ^ W[u+j-16] ^ W[u+j-28] ^ W[u+j-32]),
 * whose nearest term is 6 words back: the four lanes are independent, and only the VEXT of
 * W[u-6..u-3] waits for the previous group. m32, m28, m16, m8, m4 = W[u-32..u-29],
 * W[u-28..], W[u-16..], W[u-8..], W[u-4..]; m32 is replaced by W[u..u+3]. */
.macro  GROUP_S2 f, t, a, b, c, d, e, m32, m28, m16, m8, m4, k
        RND_\f  \a, \b, \c, \d, \e, \t, \
                "veor q12, \m16, \m28", "veor q12, q12, \m32", \
                "vext.8 q13, \m8, \m4, #8"
        RND_\f  \e, \a, \b, \c, \d, (\t + 1), \
                "veor q12, q12, q13", , "vshr.u32 \m32, q12, #30"
        RND_\f  \d, \e, \a, \b, \c, (\t + 2), \
                "vsli.32 \m32, q12, #2", "vldr d28, [lr, #16 * \k]", \
                "vldr d29, [lr, #16 * \k + 8]"
        RND_\f  \c, \d, \e, \a, \b, (\t + 3), \
                "vadd.i32 q14, q14, \m32", , \
                "vstr d28, [sp, #4 * (\t % 16)]", "vstr d29, [sp, #4 * (\t % 16) + 8]"
.endm

/* Rounds t..t+3 of rounds 64-79 (t = 64 + 4k), loading words 4k..4k+3 of the next block
 * into x (big-endian, §5.2.1) and storing their W+K (K index 0) over ring words 4k.. */
.macro  GROUP_P f, t, a, b, c, d, e, x, k
        RND_\f  \a, \b, \c, \d, \e, \t, \
                "vld1.8 {\x}, [r1]!", , "vldr d28, [lr]", "vldr d29, [lr, #8]"
        RND_\f  \e, \a, \b, \c, \d, (\t + 1), \
                "vrev32.8 \x, \x"
        RND_\f  \d, \e, \a, \b, \c, (\t + 2), \
                , , , "vadd.i32 q14, q14, \x"
        RND_\f  \c, \d, \e, \a, \b, (\t + 3), \
                "vstr d28, [sp, #16 * \k]", "vstr d29, [sp, #16 * \k + 8]"
.endm

/* The same without the rounds (the first block's W and W+K[0..15]). */
.macro  PRELOAD x, k
        vld1.8          {\x}, [r1]!
        vldr            d28, [lr]
        vldr            d29, [lr, #8]
        vrev32.8        \x, \x
        vadd.i32        q14, q14, \x
        vstr            d28, [sp, #16 * \k]
        vstr            d29, [sp, #16 * \k + 8]
.endm

/* The offset of K from .Lpc_k1, before the function (an LDR literal reaches +-4 KiB; the
 * unrolled rounds are longer). */
        .p2align 2
.LK1_rel:
        .word           .LK1 - (.Lpc_k1 + 8)

        .globl  simdcrypt_sha1_block_neon
        .hidden simdcrypt_sha1_block_neon
        .type   simdcrypt_sha1_block_neon, %function
        .p2align 4
simdcrypt_sha1_block_neon:
        cmp             r2, #0
        bxeq            lr
        push            {r4-r8, lr}
        sub             sp, sp, #72
        ldr             lr, .LK1_rel
.Lpc_k1: add            lr, pc, lr                      /* pc reads as .Lpc_k1 + 8 */
        str             r0, [sp, #64]
        str             r2, [sp, #68]
        vmov.i8         q15, #0
        /* The first block's W and W+K[0..15]. */
        PRELOAD         q0, 0
        PRELOAD         q1, 1
        PRELOAD         q2, 2
        PRELOAD         q3, 3
        ldm             r0, {r4-r8}

.Lblock_1:
        GROUP_S1 CH, 0, r4, r5, r6, r7, r8, q0, q1, q2, q3, q8, 0
        GROUP_S1 CH, 4, r5, r6, r7, r8, r4, q1, q2, q3, q8, q9, 1
        GROUP_S1 CH, 8, r6, r7, r8, r4, r5, q2, q3, q8, q9, q10, 1
        GROUP_S1 CH, 12, r7, r8, r4, r5, r6, q3, q8, q9, q10, q11, 1
        GROUP_S2 CH, 16, r8, r4, r5, r6, r7, q0, q1, q8, q10, q11, 1
        GROUP_S2 PAR, 20, r4, r5, r6, r7, r8, q1, q2, q9, q11, q0, 1
        GROUP_S2 PAR, 24, r5, r6, r7, r8, r4, q2, q3, q10, q0, q1, 2
        GROUP_S2 PAR, 28, r6, r7, r8, r4, r5, q3, q8, q11, q1, q2, 2
        GROUP_S2 PAR, 32, r7, r8, r4, r5, r6, q8, q9, q0, q2, q3, 2
        GROUP_S2 PAR, 36, r8, r4, r5, r6, r7, q9, q10, q1, q3, q8, 2
        GROUP_S2 MAJ, 40, r4, r5, r6, r7, r8, q10, q11, q2, q8, q9, 2
        GROUP_S2 MAJ, 44, r5, r6, r7, r8, r4, q11, q0, q3, q9, q10, 3
        GROUP_S2 MAJ, 48, r6, r7, r8, r4, r5, q0, q1, q8, q10, q11, 3
        GROUP_S2 MAJ, 52, r7, r8, r4, r5, r6, q1, q2, q9, q11, q0, 3
        GROUP_S2 MAJ, 56, r8, r4, r5, r6, r7, q2, q3, q10, q0, q1, 3
        GROUP_S2 PAR, 60, r4, r5, r6, r7, r8, q3, q8, q11, q1, q2, 3
        /* The last block preloads itself again (public count; reads only the input). */
        ldr             r0, [sp, #68]
        subs            r0, r0, #1
        str             r0, [sp, #68]
        subeq           r1, r1, #64
        GROUP_P PAR, 64, r5, r6, r7, r8, r4, q0, 0
        GROUP_P PAR, 68, r6, r7, r8, r4, r5, q1, 1
        GROUP_P PAR, 72, r7, r8, r4, r5, r6, q2, 2
        GROUP_P PAR, 76, r8, r4, r5, r6, r7, q3, 3

        /* §6.1.2 step 4: H(i) = H(i-1) + (a..e). */
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
        add             r8, r8, r2
        stm             r0, {r4-r8}
        ldr             r2, [sp, #68]
        cmp             r2, #0
        bne             .Lblock_1

        CLEAR_NEON                                      /* W, W+K: vec_clear.h */
        mov             r12, sp
        vst1.64         {q8, q9}, [r12]!                /* zero the W+K ring */
        vst1.64         {q8, q9}, [r12]
        mov             r0, #0
        mov             r2, #0
        mov             r3, #0
        mov             r12, #0
        add             sp, sp, #72
        pop             {r4-r8, pc}
        .size   simdcrypt_sha1_block_neon, .-simdcrypt_sha1_block_neon

        .section .rodata
        .p2align 4
/* FIPS 180-4 §4.2.1, each constant four times (one q register's worth). */
.LK1:
        .word   0x5a827999, 0x5a827999, 0x5a827999, 0x5a827999
        .word   0x6ed9eba1, 0x6ed9eba1, 0x6ed9eba1, 0x6ed9eba1
        .word   0x8f1bbcdc, 0x8f1bbcdc, 0x8f1bbcdc, 0x8f1bbcdc
        .word   0xca62c1d6, 0xca62c1d6, 0xca62c1d6, 0xca62c1d6
        .size   .LK1, .-.LK1

        .section .note.GNU-stack,"",%progbits

#endif
