/*
 * chacha_avx2.S (x86_64) -- ChaCha20 (RFC 8439 sec. 2.3) keystream XOR, 16 or 8 blocks at a
 * time on ymm registers. Safe wrapper: src/chacha20/x86_64_avx2.rs.
 *
 * Features: AVX2 and AVX, VEX encodings only (`vpaddd`, `vpxor`, `vpor`, `vpslld`,
 * `vpsrld`, `vpshufb`, `vpunpck*`, `vperm2i128`, `vpbroadcastd`, `vzeroall` on ymm0-15).
 * The kernel is what runs when AVX-512 is absent or masked, so it uses no EVEX instruction
 * and no register 16-31. The Rust token Avx2 proves the features. ABI: System V AMD64 psABI;
 * a leaf that uses only caller-saved registers (rax, rcx, rdx, rsi, rdi, r11, ymm0-15; the
 * flags), keeps the caller's rsp in r11 while rsp points at a 32-byte-aligned frame of
 * FRAME = 2208 bytes below it (less than a 4 KiB page, so no stack probe is needed), and
 * ends with CLEAR_AVX (`vzeroall`, vec_clear.h). ELF only (the wrapper is compiled for Linux and the BSDs).
 *
 *   void simdcrypt_chacha20_avx2(const uint32_t state[16], uint8_t *data, size_t nblocks);
 *
 * XORs the keystream of blocks state[12], state[12] + 1, ... (mod 2^32) into the nblocks
 * 64-byte blocks at data, in place. `state` is the RFC 8439 sec. 2.3 state (words 0-3 the
 * constants, 4-11 the key, 12 the block counter, 13-15 the nonce); it is only read: the
 * wrapper advances word 12. Any alignment for both pointers. Any nblocks; the wrapper passes
 * 8k (k >= 2) or 8k + 5..7 (k >= 1) blocks: 1-4 leftover blocks run faster in its two-block
 * horizontal code, and calls of 5-8 blocks in its compiled eight-block code (see there).
 *
 * Math. A block's keystream is serialize(state + 20 rounds(state)), little-endian, where the
 * 20 rounds are 10 double rounds of four column quarter-rounds (0,4,8,12) (1,5,9,13)
 * (2,6,10,14) (3,7,11,15) and four diagonal ones (0,5,10,15) (1,6,11,12) (2,7,8,13)
 * (3,4,9,14), and the quarter-round (sec. 2.1) is
 *     a += b; d ^= a; d <<<= 16;  c += d; b ^= c; b <<<= 12;
 *     a += b; d ^= a; d <<<= 8;   c += d; b ^= c; b <<<= 7.
 * Rotations by 16 and 8 are one `vpshufb` each (a byte permutation of every 32-bit lane,
 * the mask a memory operand); by 12 and 7, `vpslld` + `vpsrld` + `vpor`. Block i of a call
 * uses counter state[12] + i computed with 32-bit adds, so word 12 wraps at 2^32 and word 13
 * is never touched (RFC 8439 counter). Column quarter-rounds 1-3 of the first double round
 * read no counter word, so they give the same result for every block of a call: the 16-block
 * passes take them from the frame (P), computed once per call.
 *
 * Layout: "vertical" (Goll and Gueron, "Vectorizing ChaCha20"): a set of eight blocks is 16
 * ymm values, value i = word i of the eight blocks, 32-bit lane j = block j, so the rounds
 * need no shuffles. A quarter-round is 16 ALU instructions (4 vpaddd, 4 vpxor, 2 vpshufb, 4
 * shifts, 2 vpor); Golden Cove-class cores run three ymm ALU instructions per cycle (ports
 * 0, 1, 5; shifts on 0 and 1, vpshufb on 1 and 5), so a double round of eight blocks takes at
 * least 128 / 3 ~ 43 cycles. The four quarter-rounds of a half round are only four
 * dependency chains, 14 instructions deep, and each quarter-round of the next half round
 * needs results of all four: one set of eight blocks measured about 55 cycles per double
 * round here even with every word in a register. Hence:
 *   16-block passes (PASS16): two independent sets A (counters CTR + 0..7) and B (CTR +
 *     8..15), eight chains per half round, in the order A columns, B columns, A diagonals,
 *     B diagonals (so one set's next half round is ready while the other finishes; measured
 *     47 cycles per eight-block double round). 32 words and temporaries need more than 16
 *     registers: set A keeps b (X4-X7) and d (X12-X15) in ymm0-7 and a, c in the frame;
 *     set B keeps b in ymm8-11 and a, c, d in the frame. A quarter-round loads its frame
 *     words once as memory operands, works on them in the temporaries ymm12-15 and stores
 *     them once: loads and stores take no ALU port.
 *   8-block passes (PASS8: 8-15 blocks left, or a last partial pass of 1-7): one set, the
 *     four quarter-rounds of a half round step by step, X8-X10 in ymm8-10, X11 in the frame,
 *     ymm11 the temporary.
 * After the rounds, per set: the final addition (`vpaddd` of the frame's input words), then
 * per group of four words a 4x4 transpose of 32-bit lanes inside each 128-bit half
 * (`vpunpck[lh]dq`, `vpunpck[lh]qdq`) leaves, for k = 0..3, a register with bytes
 * 16g..16g+15 of block k in its low half and of block k + 4 in its high half; `vperm2i128`
 * of the registers of groups g and g + 1 gives 32 contiguous bytes of one block, XORed into
 * the data with a memory operand.
 *
 * Branches and memory offsets depend on nblocks only (public), never on key, counter-derived
 * state or data: a last pass of 1-7 (8-block) or 9-15 (16-block) blocks stores only the
 * blocks that exist.
 *
 * Registers:
 *   rdi  STATE  the 16 state words (read only)      rsi  DATA  current block
 *   rdx  NBLK   blocks left                          rax  nblocks of the call (wipe size)
 *   ecx  round loop counter                          r11  the caller's rsp
 *   rsp  the frame (32-byte aligned)
 *   PASS16: ymm0-3 set A X4-X7, ymm4-7 set A X12-X15, ymm8-11 set B X4-X7, ymm12-15
 *           temporaries.
 *   PASS8:  ymm0-7 X0-X7, ymm8-10 X8-X10, ymm12-15 X12-X15, ymm11 temporary.
 * Frame (32-byte slots): K0-K15 the input words broadcast (K12: counters of the current
 * pass), S10-S11 PASS8's spilled words, KB12 set B's counters, A0-A15 and B0-B15 the frame
 * words of sets A and B, P0-P15 the precomputed first column quarter-rounds.
 *
 * Secrets left behind: before returning, the kernel zeroes the part of its frame it used
 * (640 bytes for calls of at most 8 blocks, all of it otherwise: key broadcasts, state words,
 * keystream), and `vzeroall` zeroes ymm0-15, so no key, state or keystream word is left in
 * memory or in a vector register; the wrapper needs no stack scrub after it.
 */

#if defined(__ELF__) && defined(__x86_64__)

#include "cet.h"
/* CLEAR, CLEAR_AVX (vec_clear.h): the register-scrubbing policy. */
#include "vec_clear.h"

#define STATE   %rdi
#define DATA    %rsi
#define NBLK    %rdx

/* Frame slots (see the header); the first 640 bytes are all a call of at most 8 blocks uses. */
#define K(i)    (32*(i))(%rsp)
#define S(i)    (512+32*((i)-8))(%rsp)
#define SHORT_FRAME 640
#define KB12    640(%rsp)
#define A_OFF   672
#define B_OFF   1184
#define A(i)    (A_OFF+32*(i))(%rsp)
#define B(i)    (B_OFF+32*(i))(%rsp)
#define P_OFF   1696
#define P(i)    (P_OFF+32*(i))(%rsp)
#define FRAME   2208

        .section .rodata
        .p2align 5
/* vpshufb masks: rotation by 16 (byte i of each little-endian lane from byte (i - 2) mod 4)
 * and by 8 (from byte (i - 1) mod 4). */
.Lrot16:
        .byte   2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13
        .byte   2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13
.Lrot8:
        .byte   3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
        .byte   3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
/* Lane offsets 0..7 (the counters of a pass) and the step between passes. */
.Llanes:
        .long   0, 1, 2, 3, 4, 5, 6, 7
.Leight:
        .long   8, 8, 8, 8, 8, 8, 8, 8
.Lsixteen:
        .long   16, 16, 16, 16, 16, 16, 16, 16

        .text

/* ROTS b, t, n: b <<<= n on every lane, t a temporary. */
.macro ROTS b, t, n
        vpslld  $\n, \b, \t
        vpsrld  $(32-\n), \b, \b
        vpor    \t, \b, \b
.endm

/* QRREG a, b, c, d, t: one quarter-round on registers (t a temporary). */
.macro QRREG a, b, c, d, t
        vpaddd  \b, \a, \a
        vpxor   \a, \d, \d
        vpshufb .Lrot16(%rip), \d, \d
        vpaddd  \d, \c, \c
        vpxor   \c, \b, \b
        ROTS    \b, \t, 12
        vpaddd  \b, \a, \a
        vpxor   \a, \d, \d
        vpshufb .Lrot8(%rip), \d, \d
        vpaddd  \d, \c, \c
        vpxor   \c, \b, \b
        ROTS    \b, \t, 7
.endm

/* ASTEP m, (a, b, d) x4: a += b; d ^= a; d <<<= (16 or 8, mask m) on four quarter-rounds. */
.macro ASTEP m, a0, b0, d0, a1, b1, d1, a2, b2, d2, a3, b3, d3
        vpaddd  \b0, \a0, \a0
        vpaddd  \b1, \a1, \a1
        vpaddd  \b2, \a2, \a2
        vpaddd  \b3, \a3, \a3
        vpxor   \a0, \d0, \d0
        vpxor   \a1, \d1, \d1
        vpxor   \a2, \d2, \d2
        vpxor   \a3, \d3, \d3
        vpshufb \m(%rip), \d0, \d0
        vpshufb \m(%rip), \d1, \d1
        vpshufb \m(%rip), \d2, \d2
        vpshufb \m(%rip), \d3, \d3
.endm

/* CSTEP n, (c, d, b) x3, (S, d, b): c += d; b ^= c; b <<<= n on four quarter-rounds, the
 * last one's c word in the frame slot S (through the temporary ymm11). */
.macro CSTEP n, c0, d0, b0, c1, d1, b1, c2, d2, b2, s3, d3, b3
        vpaddd  \d0, \c0, \c0
        vpaddd  \d1, \c1, \c1
        vpaddd  \d2, \c2, \c2
        vpaddd  \s3, \d3, %ymm11
        vmovdqa %ymm11, \s3
        vpxor   \c0, \b0, \b0
        vpxor   \c1, \b1, \b1
        vpxor   \c2, \b2, \b2
        vpxor   %ymm11, \b3, \b3
        ROTS    \b0, %ymm11, \n
        ROTS    \b1, %ymm11, \n
        ROTS    \b2, %ymm11, \n
        ROTS    \b3, %ymm11, \n
.endm

/* HALF: four quarter-rounds (a_k, b_k, c_k, d_k), c_3 in the frame. */
.macro HALF a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, s3, d3
        ASTEP   .Lrot16, \a0, \b0, \d0, \a1, \b1, \d1, \a2, \b2, \d2, \a3, \b3, \d3
        CSTEP   12, \c0, \d0, \b0, \c1, \d1, \b1, \c2, \d2, \b2, \s3, \d3, \b3
        ASTEP   .Lrot8, \a0, \b0, \d0, \a1, \b1, \d1, \a2, \b2, \d2, \a3, \b3, \d3
        CSTEP   7, \c0, \d0, \b0, \c1, \d1, \b1, \c2, \d2, \b2, \s3, \d3, \b3
.endm

/* DROUND: one double round; X8-X10 in ymm8-10, X11 in S(11). */
.macro DROUND
        HALF    %ymm0, %ymm4, %ymm8, %ymm12, %ymm1, %ymm5, %ymm9, %ymm13, \
                %ymm2, %ymm6, %ymm10, %ymm14, %ymm3, %ymm7, S(11), %ymm15
        HALF    %ymm0, %ymm5, %ymm10, %ymm15, %ymm2, %ymm7, %ymm8, %ymm13, \
                %ymm3, %ymm4, %ymm9, %ymm14, %ymm1, %ymm6, S(11), %ymm12
.endm

/* TRANSPOSE4 a, b, c, d, t0, t1: 4x4 transpose of 32-bit lanes inside each 128-bit half.
 * In: a, b, c, d = words w, w+1, w+2, w+3 of the eight blocks (lane j = block j). Out: c, d,
 * a, b = words w..w+3 of blocks 0, 1, 2, 3 in the low half and of blocks 4, 5, 6, 7 in the
 * high half (t0, t1 temporaries). */
.macro TRANSPOSE4 a, b, c, d, t0, t1
        vpunpckldq  \b, \a, \t0         /* a0 b0 a1 b1 */
        vpunpckhdq  \b, \a, \t1         /* a2 b2 a3 b3 */
        vpunpckldq  \d, \c, \a          /* c0 d0 c1 d1 */
        vpunpckhdq  \d, \c, \b          /* c2 d2 c3 d3 */
        vpunpcklqdq \a, \t0, \c         /* a0 b0 c0 d0 */
        vpunpckhqdq \a, \t0, \d         /* a1 b1 c1 d1 */
        vpunpcklqdq \b, \t1, \a         /* a2 b2 c2 d2 */
        vpunpckhqdq \b, \t1, \b         /* a3 b3 c3 d3 */
.endm

/* XOR32 reg, off, blk, partial: the 32 bytes at 64 blk + off ^= reg; when `partial`, only if
 * blk < NBLK. */
.macro XOR32 reg, off, blk, partial
        .if \partial
        cmpq    $(\blk), NBLK
        jbe     1f
        .endif
        vpxor   64*(\blk)+\off(DATA), \reg, \reg
        vmovdqu \reg, 64*(\blk)+\off(DATA)
1:
.endm

/* BLOCKPAIR lo, hi, t, k, off, partial: lo, hi hold 16 bytes of block k at offset off
 * (lo) and off + 16 (hi) in their low halves, of block k + 4 in their high halves; XOR both
 * 32-byte pieces into the data (t a temporary; lo is overwritten). */
.macro BLOCKPAIR lo, hi, t, k, off, partial
        vperm2i128 $0x20, \hi, \lo, \t
        vperm2i128 $0x31, \hi, \lo, \lo
        XOR32   \t, \off, \k, \partial
        XOR32   \lo, \off, 4+\k, \partial
.endm

/* PASS8 partial: eight blocks from the counters in K12: rounds, final addition, transpose,
 * XOR into the data (all eight blocks, or when `partial` those below NBLK). */
.macro PASS8 partial
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15
        vmovdqa K(\i), %ymm\i
        .endr
        vmovdqa K(11), %ymm11
        vmovdqa %ymm11, S(11)
        movl    $10, %ecx
.Lround\@:
        DROUND
        decl    %ecx
        jnz     .Lround\@
        /* Words 0-7: bytes 0-31 of each block (X10 to the frame, for a temporary). */
        vmovdqa %ymm10, S(10)
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7
        vpaddd  K(\i), %ymm\i, %ymm\i
        .endr
        TRANSPOSE4 %ymm0, %ymm1, %ymm2, %ymm3, %ymm10, %ymm11
        TRANSPOSE4 %ymm4, %ymm5, %ymm6, %ymm7, %ymm10, %ymm11
        BLOCKPAIR %ymm2, %ymm6, %ymm10, 0, 0, \partial
        BLOCKPAIR %ymm3, %ymm7, %ymm10, 1, 0, \partial
        BLOCKPAIR %ymm0, %ymm4, %ymm10, 2, 0, \partial
        BLOCKPAIR %ymm1, %ymm5, %ymm10, 3, 0, \partial
        /* Words 8-15: bytes 32-63. */
        vmovdqa S(10), %ymm10
        vmovdqa S(11), %ymm11
        .irp i, 8, 9, 10, 11, 12, 13, 14, 15
        vpaddd  K(\i), %ymm\i, %ymm\i
        .endr
        TRANSPOSE4 %ymm8, %ymm9, %ymm10, %ymm11, %ymm0, %ymm1
        TRANSPOSE4 %ymm12, %ymm13, %ymm14, %ymm15, %ymm0, %ymm1
        BLOCKPAIR %ymm10, %ymm14, %ymm0, 0, 32, \partial
        BLOCKPAIR %ymm11, %ymm15, %ymm0, 1, 32, \partial
        BLOCKPAIR %ymm8, %ymm12, %ymm0, 2, 32, \partial
        BLOCKPAIR %ymm9, %ymm13, %ymm0, 3, 32, \partial
.endm

/* QRA a, b, c, d: a quarter-round of set A of a 16-block pass: a, c in the frame (A(a),
 * A(c)), b, d registers; ymm12-14 temporaries. */
.macro QRA a, b, c, d
        vpaddd  A(\a), \b, %ymm12
        vpxor   %ymm12, \d, \d
        vpshufb .Lrot16(%rip), \d, \d
        vpaddd  A(\c), \d, %ymm13
        vpxor   %ymm13, \b, \b
        ROTS    \b, %ymm14, 12
        vpaddd  \b, %ymm12, %ymm12
        vmovdqa %ymm12, A(\a)
        vpxor   %ymm12, \d, \d
        vpshufb .Lrot8(%rip), \d, \d
        vpaddd  \d, %ymm13, %ymm13
        vmovdqa %ymm13, A(\c)
        vpxor   %ymm13, \b, \b
        ROTS    \b, %ymm14, 7
.endm

/* QRB a, b, c, d: a quarter-round of set B: a, c, d in the frame, b a register; ymm12-15
 * temporaries. */
.macro QRB a, b, c, d
        vpaddd  B(\a), \b, %ymm12
        vpxor   B(\d), %ymm12, %ymm15
        vpshufb .Lrot16(%rip), %ymm15, %ymm15
        vpaddd  B(\c), %ymm15, %ymm13
        vpxor   %ymm13, \b, \b
        ROTS    \b, %ymm14, 12
        vpaddd  \b, %ymm12, %ymm12
        vmovdqa %ymm12, B(\a)
        vpxor   %ymm12, %ymm15, %ymm15
        vpshufb .Lrot8(%rip), %ymm15, %ymm15
        vmovdqa %ymm15, B(\d)
        vpaddd  %ymm15, %ymm13, %ymm13
        vmovdqa %ymm13, B(\c)
        vpxor   %ymm13, \b, \b
        ROTS    \b, %ymm14, 7
.endm

/* COL16: the column quarter-rounds of set A, then of set B (so that the diagonal round of
 * one set can start while the other finishes its column round). */
.macro COL16
        QRA     0, %ymm0, 8, %ymm4
        QRA     1, %ymm1, 9, %ymm5
        QRA     2, %ymm2, 10, %ymm6
        QRA     3, %ymm3, 11, %ymm7
        QRB     0, %ymm8, 8, 12
        QRB     1, %ymm9, 9, 13
        QRB     2, %ymm10, 10, 14
        QRB     3, %ymm11, 11, 15
.endm

/* DIAG16: the diagonal quarter-rounds of both sets. */
.macro DIAG16
        QRA     0, %ymm1, 10, %ymm7
        QRA     1, %ymm2, 11, %ymm4
        QRA     2, %ymm3, 8, %ymm5
        QRA     3, %ymm0, 9, %ymm6
        QRB     0, %ymm9, 10, 15
        QRB     1, %ymm10, 11, 12
        QRB     2, %ymm11, 8, 13
        QRB     3, %ymm8, 9, 14
.endm

/* DROUND16: one double round on both sets. */
.macro DROUND16
        COL16
        DIAG16
.endm

/* OUT8 base, kctr, blk, partial: the eight blocks whose words lie in the frame at
 * base + 32 i (counters at kctr): final addition, transpose, XOR into blocks blk..blk+7
 * (when `partial`, only those below NBLK). */
.macro OUT8 base, kctr, blk, partial
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7
        vmovdqa (\base+32*\i)(%rsp), %ymm\i
        vpaddd  K(\i), %ymm\i, %ymm\i
        .endr
        TRANSPOSE4 %ymm0, %ymm1, %ymm2, %ymm3, %ymm8, %ymm9
        TRANSPOSE4 %ymm4, %ymm5, %ymm6, %ymm7, %ymm8, %ymm9
        BLOCKPAIR %ymm2, %ymm6, %ymm8, \blk+0, 0, \partial
        BLOCKPAIR %ymm3, %ymm7, %ymm8, \blk+1, 0, \partial
        BLOCKPAIR %ymm0, %ymm4, %ymm8, \blk+2, 0, \partial
        BLOCKPAIR %ymm1, %ymm5, %ymm8, \blk+3, 0, \partial
        .irp i, 8, 9, 10, 11, 12, 13, 14, 15
        vmovdqa (\base+32*\i)(%rsp), %ymm\i
        .endr
        .irp i, 8, 9, 10, 11, 13, 14, 15
        vpaddd  K(\i), %ymm\i, %ymm\i
        .endr
        vpaddd  \kctr, %ymm12, %ymm12
        TRANSPOSE4 %ymm8, %ymm9, %ymm10, %ymm11, %ymm0, %ymm1
        TRANSPOSE4 %ymm12, %ymm13, %ymm14, %ymm15, %ymm0, %ymm1
        BLOCKPAIR %ymm10, %ymm14, %ymm0, \blk+0, 32, \partial
        BLOCKPAIR %ymm11, %ymm15, %ymm0, \blk+1, 32, \partial
        BLOCKPAIR %ymm8, %ymm12, %ymm0, \blk+2, 32, \partial
        BLOCKPAIR %ymm9, %ymm13, %ymm0, \blk+3, 32, \partial
.endm

/* PASS16 partial: sixteen blocks as two interleaved eight-block sets, A (counters K12) and
 * B (K12 + 8, kept in KB12); when `partial`, set B stores only its blocks below NBLK. */
.macro PASS16 partial
        vmovdqa K(12), %ymm4
        vpaddd  .Leight(%rip), %ymm4, %ymm15
        vmovdqa %ymm15, KB12
        vmovdqa %ymm15, B(12)
        .irp i, 0, 8
        vmovdqa K(\i), %ymm15
        vmovdqa %ymm15, A(\i)
        vmovdqa %ymm15, B(\i)
        .endr
        .irp i, 1, 2, 3, 9, 10, 11
        vmovdqa P(\i), %ymm15
        vmovdqa %ymm15, A(\i)
        vmovdqa %ymm15, B(\i)
        .endr
        .irp i, 13, 14, 15
        vmovdqa P(\i), %ymm15
        vmovdqa %ymm15, B(\i)
        .endr
        vmovdqa K(4), %ymm0
        vmovdqa P(5), %ymm1
        vmovdqa P(6), %ymm2
        vmovdqa P(7), %ymm3
        vmovdqa P(13), %ymm5
        vmovdqa P(14), %ymm6
        vmovdqa P(15), %ymm7
        vmovdqa %ymm0, %ymm8
        vmovdqa %ymm1, %ymm9
        vmovdqa %ymm2, %ymm10
        vmovdqa %ymm3, %ymm11
        /* The first double round: column quarter-rounds 1-3 are already done (P). */
        QRA     0, %ymm0, 8, %ymm4
        QRB     0, %ymm8, 8, 12
        DIAG16
        movl    $9, %ecx
.Lround16\@:
        DROUND16
        decl    %ecx
        jnz     .Lround16\@
        .irp i, 0, 1, 2, 3
        vmovdqa %ymm\i, A(4+\i)
        .endr
        .irp i, 4, 5, 6, 7
        vmovdqa %ymm\i, A(8+\i)
        .endr
        .irp i, 8, 9, 10, 11
        vmovdqa %ymm\i, B(\i-4)
        .endr
        OUT8    A_OFF, K(12), 0, 0
        OUT8    B_OFF, KB12, 8, \partial
.endm

        .globl  simdcrypt_chacha20_avx2
        .hidden simdcrypt_chacha20_avx2
        .type   simdcrypt_chacha20_avx2, @function
        .p2align 5
simdcrypt_chacha20_avx2:
        ENDBR
        testq   NBLK, NBLK
        jz      .Lret
        movq    NBLK, %rax
        movq    %rsp, %r11
        subq    $FRAME, %rsp
        andq    $-32, %rsp
        /* K0-K15: the broadcast input words; K12: counters CTR + lane. */
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        vpbroadcastd 4*\i(STATE), %ymm\i
        .endr
        vpaddd  .Llanes(%rip), %ymm12, %ymm12
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        vmovdqa %ymm\i, K(\i)
        .endr
        cmpq    $8, NBLK
        jbe     .Lshort
        /* P: column quarter-rounds 1-3 of the first double round, (1,5,9,13) (2,6,10,14)
         * (3,7,11,15), which involve no counter word and so are the same for every block of
         * the call. */
        .irp k, 1, 2, 3
        vmovdqa K(\k), %ymm0
        vmovdqa K(4+\k), %ymm1
        vmovdqa K(8+\k), %ymm2
        vmovdqa K(12+\k), %ymm3
        QRREG   %ymm0, %ymm1, %ymm2, %ymm3, %ymm4
        vmovdqa %ymm0, P(\k)
        vmovdqa %ymm1, P(4+\k)
        vmovdqa %ymm2, P(8+\k)
        vmovdqa %ymm3, P(12+\k)
        .endr
        cmpq    $16, NBLK
        jb      .Ltail16
.Lloop16:
        PASS16  0
        vmovdqa K(12), %ymm0
        vpaddd  .Lsixteen(%rip), %ymm0, %ymm0
        vmovdqa %ymm0, K(12)
        addq    $1024, DATA
        subq    $16, NBLK
        cmpq    $16, NBLK
        jae     .Lloop16
        cmpq    $8, NBLK
        jbe     .Lshort
.Ltail16:
        /* 9-15 blocks: one more 16-block pass, storing only the blocks that exist. */
        PASS16  1
        jmp     .Lwipe
.Lshort:
        /* 0-8 blocks. */
        testq   NBLK, NBLK
        jz      .Lwipe
        cmpq    $8, NBLK
        jb      .Ltail8
        PASS8   0
        jmp     .Lwipe
.Ltail8:
        /* 1-7 blocks: one 8-block pass, storing only the blocks that exist. */
        PASS8   1
.Lwipe:
        vpxor   %xmm0, %xmm0, %xmm0
        .set    i, 0
        .rept   SHORT_FRAME/32
        vmovdqa %ymm0, (32*i)(%rsp)
        .set    i, i+1
        .endr
        cmpq    $8, %rax
        jbe     .Lwiped
        .rept   (FRAME-SHORT_FRAME)/32
        vmovdqa %ymm0, (32*i)(%rsp)
        .set    i, i+1
        .endr
.Lwiped:
        movq    %r11, %rsp
        CLEAR_AVX
.Lret:
        ret
        .size   simdcrypt_chacha20_avx2, . - simdcrypt_chacha20_avx2

#endif

#if defined(__ELF__)
        .section .note.GNU-stack, "", @progbits
#endif
