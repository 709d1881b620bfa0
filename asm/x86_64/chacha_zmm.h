/*
 * chacha_zmm.h (x86_64) -- assembler macros shared by the zmm ChaCha20 kernels
 * (chacha_avx512.S and chacha_poly_avx512.S): the 16x16 transpose pieces of the vertical
 * layout and the XOR of whole blocks into the data. The including file defines DATA (the
 * current 64-byte block's address) and, if it passes `partial` = 1, NBLK (blocks left).
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
