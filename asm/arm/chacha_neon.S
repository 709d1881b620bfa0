/*
 * chacha_neon.S -- ChaCha20 keystream XOR (RFC 8439 §2.3-2.4) on ARMv7 NEON, for boards
 * without AES hardware (Cortex-A7/A8/A9/A15), where ChaCha20-Poly1305 is the fast AEAD.
 *
 * Features: ARMv7-A, A32 (ARM) state, NEON (Linux: AT_HWCAP bit 12, HWCAP_NEON). Token
 * `ArmNeon` ("neon") in src/chacha20/arm.rs guards every call. ABI: AAPCS, hard-float; ELF.
 *
 * void simdcrypt_chacha20_neon(const uint32_t state[16], uint8_t *data, size_t nblocks);
 *   XORs the keystream blocks numbered state[12], state[12] + 1, ..., state[12] + nblocks - 1
 *   (32-bit counter, wrapping mod 2^32; word 13 is never changed) into the nblocks * 64
 *   bytes at data (in place, any alignment; nblocks == 0 is a no-op). state is the RFC 8439
 *   §2.3 input: words 0-3 the constants, 4-11 the key, 12 the counter, 13-15 the nonce
 *   (native little-endian words, 4-byte aligned); it is only read: the caller advances the
 *   counter. Keystream block = serialize(state + 20 rounds(state)), words little-endian.
 *   Only the public block count steers branches; no memory address depends on data.
 *
 * Layouts.
 *  Four blocks "vertical" (while nblocks >= 4): q register i holds word i of four
 *   consecutive blocks (lane k = block k, counters state[12] + 0..3). A quarter round
 *   (§2.1) is then four lane-parallel ones; the column round and the diagonal round (§2.3)
 *   are only different register choices. Sixteen words fill q0-q15, and the 12- and 7-bit
 *   rotations need a scratch register (VSHL into a new register, then VSRI inserts the
 *   wrapped bits), so two words live in a 32-byte stack slot: see "Spilling".
 *  One or two blocks "horizontal" (the 0-3 blocks left): q register j holds row j (words
 *   4j..4j+3) of one block. The column round works on the rows directly; VEXT rotates rows
 *   1, 2, 3 by 1, 2, 3 words so that the diagonals become columns (§2.3), and back after.
 *   Two blocks are interleaved when at least two are left (independent instructions to
 *   overlap), a single block runs alone.
 *
 * Rotations: <<<16 is VREV32.16 (swap the halves of each word, in place); <<<12, <<<8,
 * <<<7 are VSHL.I32 t -> x then VSRI.32 (shift right and insert into the low bits).
 *
 * Spilling (vertical path): x0-x3 in q0-q3, x4-x7 in q4-q7, x12-x15 in q10-q13. Of the c
 * row x8-x11 two words are in registers and two in the stack slot; the other two registers
 * are the scratch of the two quarter rounds in flight. One double round:
 *   columns (0,4,8,12) (1,5,9,13)      x8 q8, x9 q9; scratch q14, q15
 *   swap: x10, x11 from the slot into q14, q15; x8, x9 from q8, q9 into the slot
 *   columns (2,6,10,14) (3,7,11,15)    x10 q14, x11 q15; scratch q8, q9
 *   diagonals (0,5,10,15) (1,6,11,12)  x10 q14, x11 q15; scratch q8, q9
 *   swap: x8, x9 back into q8, q9; x10, x11 into the slot
 *   diagonals (2,7,8,13) (3,4,9,14)    x8 q8, x9 q9; scratch q14, q15
 * which ends where it began: four 16-byte stores and loads per double round.
 * Output: each group of four words (x0-x3, x4-x7, x8-x11, x12-x15) gets its input words
 * added, then a 4x4 transpose of 32-bit lanes (VTRN.32 twice, VSWP of two d registers
 * twice) turns "word i of blocks 0..3" into "words 4g..4g+3 of block k", which is XORed
 * into data + 64k + 16g.
 *
 * Register table:
 *   r0  state (read only)           r1  data (advances 256 / 128 / 64 bytes per step)
 *   r2  blocks left                 r3  address scratch
 *   r4  counter of the next block   r5  output address    r6  64 (output stride)
 *   r12 &.Linc, the lane offsets (0, 1, 2, 3) of the counters
 *   lr  double-round counter        sp  32-byte spill slot (x8/x9 or x10/x11)
 *   vertical:   q0-q15 as above; at the output q14, q15 (and q0, q1 for x10, x11) scratch
 *   horizontal: q0-q3 the input block (q3 lane 0 = counter), q8-q11 block A, q4-q7 block B,
 *               q12, q13 scratch, q14 = (1, 0, 0, 0) (counter step), q15 unused
 * d8-d15 (q4-q7) are callee-saved: pushed on entry, popped on return. On return the stack
 * slot and q0-q3, q8-q15 are zeroed (they held keystream and intermediate state); the
 * caller's d8-d15 are restored over q4-q7.
 */

#if defined(__ELF__) && defined(__arm__)

#include "vec_clear.h"

        .syntax unified
        .arch   armv7-a
        .fpu    neon
        .arm
        .text

/* Two quarter rounds (RFC 8439 §2.1) side by side: (a0, b0, c0, d0) with scratch t0 and
 * (a1, b1, c1, d1) with scratch t1; all distinct q registers.
 *   a += b; d ^= a; d <<<= 16;   c += d; b ^= c; b <<<= 12;
 *   a += b; d ^= a; d <<<= 8;    c += d; b ^= c; b <<<= 7.                              */
.macro  QR2 a0, b0, c0, d0, t0, a1, b1, c1, d1, t1
        vadd.i32        \a0, \a0, \b0
        vadd.i32        \a1, \a1, \b1
        veor            \d0, \d0, \a0
        veor            \d1, \d1, \a1
        vrev32.16       \d0, \d0
        vrev32.16       \d1, \d1
        vadd.i32        \c0, \c0, \d0
        vadd.i32        \c1, \c1, \d1
        veor            \t0, \b0, \c0
        veor            \t1, \b1, \c1
        vshl.i32        \b0, \t0, #12
        vshl.i32        \b1, \t1, #12
        vsri.32         \b0, \t0, #20
        vsri.32         \b1, \t1, #20
        vadd.i32        \a0, \a0, \b0
        vadd.i32        \a1, \a1, \b1
        veor            \t0, \d0, \a0
        veor            \t1, \d1, \a1
        vshl.i32        \d0, \t0, #8
        vshl.i32        \d1, \t1, #8
        vsri.32         \d0, \t0, #24
        vsri.32         \d1, \t1, #24
        vadd.i32        \c0, \c0, \d0
        vadd.i32        \c1, \c1, \d1
        veor            \t0, \b0, \c0
        veor            \t1, \b1, \c1
        vshl.i32        \b0, \t0, #7
        vshl.i32        \b1, \t1, #7
        vsri.32         \b0, \t0, #25
        vsri.32         \b1, \t1, #25
.endm

/* One quarter round on rows (horizontal layout), scratch t. */
.macro  QR1 a, b, c, d, t
        vadd.i32        \a, \a, \b
        veor            \d, \d, \a
        vrev32.16       \d, \d
        vadd.i32        \c, \c, \d
        veor            \t, \b, \c
        vshl.i32        \b, \t, #12
        vsri.32         \b, \t, #20
        vadd.i32        \a, \a, \b
        veor            \t, \d, \a
        vshl.i32        \d, \t, #8
        vsri.32         \d, \t, #24
        vadd.i32        \c, \c, \d
        veor            \t, \b, \c
        vshl.i32        \b, \t, #7
        vsri.32         \b, \t, #25
.endm

/* Rows b, c, d rotated left by n, 2n, 3n words (n = 1: diagonals to columns; n = 3: back). */
.macro  DIAG b, c, d, n
        vext.32         \b, \b, \b, #\n
        vext.32         \c, \c, \c, #2
        vext.32         \d, \d, \d, #(4 - \n)
.endm

/* 4x4 transpose of 32-bit lanes: rows qa..qd (word i of blocks 0..3) become, in the same
 * registers, block 0..3's four words. ah, bh: the high d halves of qa, qb; cl, dl: the low
 * halves of qc, qd. */
.macro  TRANSPOSE qa, qb, qc, qd, ah, bh, cl, dl
        vtrn.32         \qa, \qb
        vtrn.32         \qc, \qd
        vswp            \ah, \cl
        vswp            \bh, \dl
.endm

/* data[64k + off .. +16] ^= row k (k = 0..3, rows qa..qd); scratch q14, q15. */
.macro  XOR4 qa, qb, qc, qd, off
        add             r5, r1, #\off
        vld1.8          {q14}, [r5], r6
        vld1.8          {q15}, [r5], r6
        sub             r5, r5, #128
        veor            q14, q14, \qa
        veor            q15, q15, \qb
        vst1.8          {q14}, [r5], r6
        vst1.8          {q15}, [r5], r6
        vld1.8          {q14}, [r5], r6
        vld1.8          {q15}, [r5], r6
        sub             r5, r5, #128
        veor            q14, q14, \qc
        veor            q15, q15, \qd
        vst1.8          {q14}, [r5], r6
        vst1.8          {q15}, [r5], r6
.endm

/* q += the state word at [r3] in every lane; r3 advances one word. */
.macro  ADDW q
        vld1.32         {d28[], d29[]}, [r3]!
        vadd.i32        \q, \q, q14
.endm

/* data[0..64] ^= rows qa..qd (one block, horizontal layout); r1 advances 64. Scratch q12,
 * q13. */
.macro  XOR64 qa, qb, qc, qd
        vld1.8          {q12-q13}, [r1]
        veor            q12, q12, \qa
        veor            q13, q13, \qb
        vst1.8          {q12-q13}, [r1]!
        vld1.8          {q12-q13}, [r1]
        veor            q12, q12, \qc
        veor            q13, q13, \qd
        vst1.8          {q12-q13}, [r1]!
.endm

/* Lane offsets of the block counters in the vertical layout. */
        .p2align 4
.Linc:
        .word           0, 1, 2, 3

        .globl  simdcrypt_chacha20_neon
        .hidden simdcrypt_chacha20_neon
        .type   simdcrypt_chacha20_neon, %function
        .p2align 4
simdcrypt_chacha20_neon:
        push            {r4-r6, lr}
        vpush           {d8-d15}
        sub             sp, sp, #32
        adr             r12, .Linc
        ldr             r4, [r0, #48]
        mov             r6, #64
        cmp             r2, #4
        blo             .Ltail

.Lfour:
        /* Every word of the state in all four lanes; x12 = counter + (0, 1, 2, 3). */
        mov             r3, r0
        vld1.32         {d0[], d1[]}, [r3]!
        vld1.32         {d2[], d3[]}, [r3]!
        vld1.32         {d4[], d5[]}, [r3]!
        vld1.32         {d6[], d7[]}, [r3]!
        vld1.32         {d8[], d9[]}, [r3]!
        vld1.32         {d10[], d11[]}, [r3]!
        vld1.32         {d12[], d13[]}, [r3]!
        vld1.32         {d14[], d15[]}, [r3]!
        vld1.32         {d16[], d17[]}, [r3]!
        vld1.32         {d18[], d19[]}, [r3]!
        vld1.32         {d28[], d29[]}, [r3]!
        vld1.32         {d30[], d31[]}, [r3]!
        vst1.32         {q14-q15}, [sp]                 /* x10, x11 start in the slot */
        add             r3, r3, #4                      /* skip word 12 */
        vld1.32         {d22[], d23[]}, [r3]!
        vld1.32         {d24[], d25[]}, [r3]!
        vld1.32         {d26[], d27[]}, [r3]
        vld1.32         {q14}, [r12]
        vdup.32         q10, r4
        vadd.i32        q10, q10, q14
        mov             lr, #10
.Ldouble4:
        QR2             q0, q4, q8, q10, q14,   q1, q5, q9, q11, q15
        vld1.32         {q14-q15}, [sp]
        vst1.32         {q8-q9}, [sp]
        QR2             q2, q6, q14, q12, q8,   q3, q7, q15, q13, q9
        QR2             q0, q5, q14, q13, q8,   q1, q6, q15, q10, q9
        vld1.32         {q8-q9}, [sp]
        vst1.32         {q14-q15}, [sp]
        QR2             q2, q7, q8, q11, q14,   q3, q4, q9, q12, q15
        subs            lr, lr, #1
        bne             .Ldouble4

        /* Words 0-3. */
        mov             r3, r0
        ADDW            q0
        ADDW            q1
        ADDW            q2
        ADDW            q3
        TRANSPOSE       q0, q1, q2, q3, d1, d3, d4, d6
        XOR4            q0, q1, q2, q3, 0
        /* Words 4-7. */
        ADDW            q4
        ADDW            q5
        ADDW            q6
        ADDW            q7
        TRANSPOSE       q4, q5, q6, q7, d9, d11, d12, d14
        XOR4            q4, q5, q6, q7, 16
        /* Words 8-11: x8, x9 in q8, q9; x10, x11 from the slot into q0, q1. */
        vld1.32         {q0-q1}, [sp]
        ADDW            q8
        ADDW            q9
        ADDW            q0
        ADDW            q1
        TRANSPOSE       q8, q9, q0, q1, d17, d19, d0, d2
        XOR4            q8, q9, q0, q1, 32
        /* Words 12-15: word 12 is the counter vector again. */
        vld1.32         {q14}, [r12]
        vdup.32         q15, r4
        vadd.i32        q14, q14, q15
        vadd.i32        q10, q10, q14
        add             r3, r3, #4
        ADDW            q11
        ADDW            q12
        ADDW            q13
        TRANSPOSE       q10, q11, q12, q13, d21, d23, d24, d26
        XOR4            q10, q11, q12, q13, 48

        add             r1, r1, #256
        add             r4, r4, #4
        sub             r2, r2, #4
        cmp             r2, #4
        bhs             .Lfour

.Ltail:
        cmp             r2, #0
        beq             .Ldone
        /* The input block in rows q0-q3 with the current counter; q14 = (1, 0, 0, 0). */
        add             r3, r0, #32
        vld1.32         {q0-q1}, [r0]
        vld1.32         {q2-q3}, [r3]
        vmov.32         d6[0], r4
        vmov.i32        q14, #0
        mov             r3, #1
        vmov.32         d28[0], r3
        cmp             r2, #2
        blo             .Lone

.Ltwo:
        /* Block A (counter c) in q8-q11, block B (counter c + 1) in q4-q7. */
        vmov            q8, q0
        vmov            q9, q1
        vmov            q10, q2
        vmov            q11, q3
        vmov            q4, q0
        vmov            q5, q1
        vmov            q6, q2
        vadd.i32        q7, q3, q14
        mov             lr, #10
.Ldouble2:
        QR2             q8, q9, q10, q11, q12,  q4, q5, q6, q7, q13
        DIAG            q9, q10, q11, 1
        DIAG            q5, q6, q7, 1
        QR2             q8, q9, q10, q11, q12,  q4, q5, q6, q7, q13
        DIAG            q9, q10, q11, 3
        DIAG            q5, q6, q7, 3
        subs            lr, lr, #1
        bne             .Ldouble2
        vadd.i32        q8, q8, q0
        vadd.i32        q9, q9, q1
        vadd.i32        q10, q10, q2
        vadd.i32        q11, q11, q3
        vadd.i32        q3, q3, q14
        vadd.i32        q4, q4, q0
        vadd.i32        q5, q5, q1
        vadd.i32        q6, q6, q2
        vadd.i32        q7, q7, q3
        vadd.i32        q3, q3, q14
        XOR64           q8, q9, q10, q11
        XOR64           q4, q5, q6, q7
        sub             r2, r2, #2
        cmp             r2, #2
        bhs             .Ltwo
        cmp             r2, #0
        beq             .Ldone

.Lone:
        vmov            q8, q0
        vmov            q9, q1
        vmov            q10, q2
        vmov            q11, q3
        mov             lr, #10
.Ldouble1:
        QR1             q8, q9, q10, q11, q12
        DIAG            q9, q10, q11, 1
        QR1             q8, q9, q10, q11, q12
        DIAG            q9, q10, q11, 3
        subs            lr, lr, #1
        bne             .Ldouble1
        vadd.i32        q8, q8, q0
        vadd.i32        q9, q9, q1
        vadd.i32        q10, q10, q2
        vadd.i32        q11, q11, q3
        XOR64           q8, q9, q10, q11

.Ldone:
        /* Wipe the spill slot and the scratch registers (keystream and round state). */
        CLEAR_NEON                              /* vec_clear.h */
        vst1.32         {q0-q1}, [sp]
        add             sp, sp, #32
        vpop            {d8-d15}
        pop             {r4-r6, pc}

        .size   simdcrypt_chacha20_neon, .-simdcrypt_chacha20_neon

        .section .note.GNU-stack,"",%progbits

#endif
