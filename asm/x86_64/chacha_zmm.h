/*
 * chacha_zmm.h (x86_64) -- assembler macros shared by the zmm ChaCha20 kernels
 * (chacha_avx512.S and chacha_poly_avx512.S): the 16x16 transpose pieces of the vertical
 * layout and the XOR of whole blocks into the data. The including file defines DATA (the
 * current 64-byte block's address) and, if it passes `partial` = 1, NBLK (blocks left), and
 * for PRECOMP and COL0 STATE (the 16 state words).
 */

/* TRANSPOSE4 a, b, c, d, t0-t3: 4x4 transpose of 32-bit lanes inside every 128-bit lane.
 * In: a, b, c, d = words w..w+3 of the blocks of the lane; out: a, b, c, d = the four words
 * of the lane's first, second, third, fourth block. */
.macro TRANSPOSE4 a, b, c, d, t0, t1, t2, t3
        vpunpckldq  \b, \a, \t0         /* a0 b0 a1 b1 */
        vpunpckhdq  \b, \a, \t1         /* a2 b2 a3 b3 */
        vpunpckldq  \d, \c, \t2         /* c0 d0 c1 d1 */
        vpunpckhdq  \d, \c, \t3         /* c2 d2 c3 d3 */
        vpunpcklqdq \t2, \t0, \a        /* a0 b0 c0 d0 */
        vpunpckhqdq \t2, \t0, \b        /* a1 b1 c1 d1 */
        vpunpcklqdq \t3, \t1, \c        /* a2 b2 c2 d2 */
        vpunpckhqdq \t3, \t1, \d        /* a3 b3 c3 d3 */
.endm

/* XOR64 reg, blk, partial: data[64 blk ..] ^= reg (one zmm = one block); when `partial`,
 * only if blk < NBLK. */
.macro XOR64 reg, blk, partial=0
        .if \partial
        cmpq    $(\blk), NBLK
        jbe     1f
        .endif
        vpxord  64*(\blk)(DATA), \reg, \reg
        vmovdqu64 \reg, 64*(\blk)(DATA)
1:
.endm

/* ZQUAD p, q, r, s, k, partial: the 4x4 transpose of 128-bit lanes across zmm p, q, r, s
 * (= zmm k, 4+k, 8+k, 12+k after VPASS: lane L of each is 16 bytes of block 4L+k), leaving
 * blocks k, 4+k, 8+k, 12+k in p, q, r, s, and their XOR into the data. */
.macro ZQUAD p, q, r, s, k, partial=0
        vshufi32x4 $0x44, \q, \p, %zmm18     /* P0 P1 Q0 Q1 */
        vshufi32x4 $0xee, \q, \p, %zmm19     /* P2 P3 Q2 Q3 */
        vshufi32x4 $0x44, \s, \r, %zmm20     /* R0 R1 S0 S1 */
        vshufi32x4 $0xee, \s, \r, %zmm21     /* R2 R3 S2 S3 */
        vshufi32x4 $0x88, %zmm20, %zmm18, \p  /* P0 Q0 R0 S0: block k */
        vshufi32x4 $0xdd, %zmm20, %zmm18, \q  /* P1 Q1 R1 S1: block 4+k */
        vshufi32x4 $0x88, %zmm21, %zmm19, \r  /* block 8+k */
        vshufi32x4 $0xdd, %zmm21, %zmm19, \s  /* block 12+k */
        XOR64   \p, \k, \partial
        XOR64   \q, 4+\k, \partial
        XOR64   \r, 8+\k, \partial
        XOR64   \s, 12+\k, \partial
.endm

/* QRTAIL a, b, c, d[, din]: a quarter-round (RFC 8439 sec. 2.1) after its first addition
 * (a += b already done): d ^= a (d = din ^ a when din is given); d <<<= 16; c += d; b ^= c;
 * b <<<= 12; a += b; d ^= a; d <<<= 8; c += d; b ^= c; b <<<= 7. EVEX, so any of xmm/ymm/zmm
 * 0-31. */
.macro QRTAIL a, b, c, d, din
        .ifb \din
        vpxord  \a, \d, \d
        .else
        vpxord  \a, \din, \d
        .endif
        vprold  $16, \d, \d
        vpaddd  \d, \c, \c
        vpxord  \c, \b, \b
        vprold  $12, \b, \b
        vpaddd  \b, \a, \a
        vpxord  \a, \d, \d
        vprold  $8, \d, \d
        vpaddd  \d, \c, \c
        vpxord  \c, \b, \b
        vprold  $7, \b, \b
.endm

/* PRE: 16 words at -64(%rsp), in the red zone (the 128 bytes below rsp that the System V
 * ABI leaves to a function that calls nothing; both kernels are such leaves), written by
 * PRECOMP once per call and zeroed by WIPEPRE before the kernel returns. */
#define PRE(o)  ((o) - 64)(%rsp)

/* PRECOMP: the first column round's quarter-rounds on columns 1-3, (1,5,9,13) (2,6,10,14)
 * (3,7,11,15), involve neither the block counter (word 12) nor any word of column 0, so
 * they are the same in all 16 lanes of a vertical pass and in every pass of a call: computed
 * once here on the rows of the state (xmm22-25 = words 0-3, 4-7, 8-11, 12-15, one quarter-round
 * per 32-bit lane; lane 0's column-0 result is not used) and stored to PRE. Word 0 of PRE is
 * state[0] + state[4], the first step of column 0's quarter-round (lane-independent too).
 * A pass then loads words 1-3, 5-7, 9-11, 13-15 from PRE already through the first round,
 * and runs only the rest of column 0's quarter-round (36 + 1 of the 1 056 vector
 * instructions of a pass saved). */
.macro PRECOMP
        vmovdqu32 (STATE), %xmm22
        vmovdqu32 16(STATE), %xmm23
        vmovdqu32 32(STATE), %xmm24
        vmovdqu32 48(STATE), %xmm25
        vpaddd  %xmm23, %xmm22, %xmm22
        QRTAIL  %xmm22, %xmm23, %xmm24, %xmm25
        vmovdqu32 %xmm22, PRE(0)
        vmovdqu32 %xmm23, PRE(16)
        vmovdqu32 %xmm24, PRE(32)
        vmovdqu32 %xmm25, PRE(48)
        movl    (STATE), %ecx
        addl    16(STATE), %ecx
        movl    %ecx, PRE(0)
.endm

/* WIPEPRE: zeroes PRE (it holds key-derived words). */
.macro WIPEPRE
        vpxord  %xmm22, %xmm22, %xmm22
        vmovdqu32 %xmm22, PRE(0)
        vmovdqu32 %xmm22, PRE(16)
        vmovdqu32 %xmm22, PRE(32)
        vmovdqu32 %xmm22, PRE(48)
.endm

/* COL0 ctr: column 0's quarter-round of the first round, after its first addition (PRE word
 * 0 is state[0] + state[4]), for the pass whose counter lanes are in ctr: leaves words 0, 4,
 * 8, 12 after the first column round in zmm22-25. The loop computes it for the next pass
 * during the current pass's transposes and stores (which leave port 0 idle), so that a pass
 * does not start with this 11-instruction dependency chain. */
.macro COL0 ctr
        vpbroadcastd PRE(0), %zmm22
        vpbroadcastd 16(STATE), %zmm23
        vpbroadcastd 32(STATE), %zmm24
        QRTAIL  %zmm22, %zmm23, %zmm24, %zmm25, \ctr
.endm

