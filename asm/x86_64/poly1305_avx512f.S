/*
 * poly1305_avx512f.S (x86_64) -- Poly1305 (RFC 8439 sec. 2.5) with AVX-512F and no IFMA:
 * eight interleaved Horner lanes in radix 2^26 on zmm registers, up to eight groups of eight
 * blocks summed before one carry, and every group of a step but the first entered as 32-bit
 * message words times precomputed 2^(32a) r^(8k) mod p ("word tables"). The AVX2 kernel's
 * ideas (src/poly1305/x86_64_avx2.rs, whose module doc derives them on ymm) on 512 bits.
 * Safe wrapper: src/poly1305/x86_64_avx512f.rs.
 *
 * Features: AVX512F (EVEX encoding, zmm0-31, embedded broadcast {1to8}, `vpternlogq`,
 * `valignq`, `vpermq` with an index vector). The Rust token Avx512 proves it. ABI: System V
 * AMD64 psABI; both functions are leaves that use only caller-saved registers (rax, rcx, rdx,
 * rsi, rdi, r9-r11, all vector registers), no stack, and end by zeroing every vector register
 * (zmm16-31 by EVEX writes, then `vzeroall`): none keeps powers of r, the accumulator or
 * message words after the call, and the upper halves are clean as after `vzeroupper`. ELF
 * only.
 *
 * Functions (any alignment for data and h; tab 8-byte aligned at least):
 *   void simdcrypt_poly1305_avx512f_setup(const u64 p[5][8], struct tab *tab)
 *       fills tab from P = (r, r^2, ..., r^8): p[i][k] is limb i of r^(k+1), each limb
 *       below 2^26 + 2^10;
 *   void simdcrypt_poly1305_avx512f(u64 h[5], const struct tab *tab, const u8 *data,
 *                                   size_t ngroups)
 *       absorbs ngroups >= 1 groups of 8 blocks (128 bytes) at data into the accumulator
 *       whose radix-2^26 limbs are h (h0..h3 below 2^26, h4 below 2^27) and stores its new
 *       limbs in h, not carried: the sums of the eight lanes' limbs (each below 2^57.5, so
 *       the sums below 2^60.5).
 *
 * Table (u64 elements; a "row" is 8 of them, 64 bytes; element k-1 of a row belongs to r^(8k)
 * unless said otherwise):
 *   PW  =    0: rows 0-4 the limbs of Q = (r^8, r^16, ..., r^64), rows 5-8 five times limbs 1-4
 *   DW  =  576: rows 5(a-1)+i (a = 1..3, i = 0..4): limb i of 2^(32a) r^(8k) mod p
 *   HB  = 1536: rows 0-4: element m-1 holds limb i of sum_{u=1}^{m-1} 2^128 r^(8u) mod p
 *   FM  = 1856: rows 0-4 the limbs of F, rows 5-8 five times limbs 1-4, where element e of F
 *               is r^(8-pi(e)), pi = (0, 4, 1, 5, 2, 6, 3, 7)
 * 2432 bytes. The loop reads PW, DW and HB one element at a time, broadcast by {1to8}
 * (`vpmuludq` reads the low 32 bits of each qword), and FM as whole rows.
 *
 * Math. For blocks m_0..m_(n-1) (each with its 2^128 bit) Poly1305 computes
 *     h' = h r^n + sum_j m_j r^(n-j)   mod p = 2^130 - 5.
 * A group is 8 blocks; two 64-byte loads X (blocks 0-3) and Y (4-7) and `vpunpck{l,h}qdq`
 * give the low and high qwords with block pi(e) in element e (per 128-bit lane one block of
 * each load). Lane e's accumulator A_e is five limb vectors (value sum_i A_i 2^(26i)); lane 0
 * starts from h, the others from 0. The G groups of a call go as: the first G-1 groups in steps
 * of M <= 8 groups (the first step (G-2) mod 8 + 1 groups, then steps of 8), then the last
 * group's limbs are added and every lane is multiplied by F_e = r^(8-pi(e)): h' = sum_e A_e F_e.
 * A step of M groups g_0..g_(M-1) is
 *     A <- (A + g_0) r^(8M) + g_1 r^(8(M-1)) + ... + g_(M-1) r^8,   then one carry.
 * Then a block j of the call (j = 8g + p, in lane e with pi(e) = p) gets exactly r^(8G-j):
 * its step multiplies it by r^(8(g_end - g)) (g_end the group after the step), the later steps
 * by r^(8 (G-1-g_end)) and F_e by r^(8-p) (Goll and Gueron, "Vectorization of Poly1305
 * message authentication code", 2015, with the last step's per-lane powers moved into one
 * final multiplication). Group 0 of a step, and the last group, enter as limbs
 *     lo & M26, lo >> 26 & M26, (lo >> 52 | hi << 12) & M26, hi >> 14 & M26, hi >> 40 | 2^24
 * and the product A r^(8M) is
 *     d0 = h0 r0 + h1 s4 + h2 s3 + h3 s2 + h4 s1      d1 = h0 r1 + h1 r0 + h2 s4 + h3 s3 + h4 s2
 *     d2 = h0 r2 + h1 r1 + h2 r0 + h3 s4 + h4 s3      d3 = h0 r3 + h1 r2 + h2 r1 + h3 r0 + h4 s4
 *     d4 = h0 r4 + h1 r3 + h2 r2 + h3 r1 + h4 r0      (s_i = 5 r_i: 2^130 = 5 mod p).
 * A later group t goes as the words w_a of its blocks (block = sum_a w_a 2^(32a) + 2^128):
 * w0, w2 are the low dwords of lo and hi, w1, w3 of lo >> 32 and hi >> 32, and
 * g_t r^(8k) = sum_a w_a (2^(32a) r^(8k) mod p) + 2^128 r^(8k) is, per limb, four `vpmuludq`
 * of a word by a table limb (a = 0: PW, else DW) and adds, no s_i terms and no limb split;
 * the 2^128 terms of groups 1..M-1 are one add of HB element M-1.
 *
 * Bounds. Table limbs are below 2^26 + 2^10 (setup, below), so s_i < 2^28.33. A step's A has
 * limbs below 2^26 except A4 below 2^26 + 2^11 (or, entering from h, A4 < 2^27); plus group
 * 0's limbs (< 2^26, limb 4 < 2^25) every limb is below 2^27, limb 4 below 2^27.33; the
 * group-0 sums are below 2^53 (16 + 5 * 1.25) * (1 + 2^-16) < 2^57.5. A word group adds four
 * products below 2^32 (2^26 + 2^10) per limb, below 2^60.0001; seven of them and HB
 * (< 7 (2^26 + 2^10)) keep every d_k below 2^62.85. The carry is one chain
 * d3 -> d4 -> 5* -> d0 -> d1 -> d2 -> d3 -> d4: each carry is below 2^36.86, 5 c4 below 2^39.2
 * (as c4 + 4 c4: it exceeds 32 bits), nothing passes 2^63; the last d2 -> d3 leaves d3 below
 * 2^26 + 2^36.86, so the last d3 -> d4 carries below 2^10.9: d0..d3 < 2^26 and
 * d4 < 2^26 + 2^11, the bound assumed. The last group adds limbs below 2^26 (2^25): the
 * final product's inputs are within group 0's bounds (limbs below 2^27, limb 4 below 2^27.33,
 * also when G = 1 and h enters there), so its sums are below 2^57.5; the lanes are added
 * (`vextracti64x4`, `vextracti128`, `vpunpckhqdq`: below 2^60.5) and the wrapper carries.
 *
 * Setup. From P = (r, r^2, ..., r^8) (element k-1 = r^k, made by the caller with the scalar
 * multiplier, which runs on the ports the vector code leaves idle): Q = ((P^2)^2)^2 by three
 * squarings; F = P permuted by (7, 3, 6, 2, 5, 1, 4, 0); DW = Q 2^(32a) and X = Q 2^128 by
 * shifts: 2^(32a) = 2^(26a) 2^(6a), so limb i moves to limb i + a times 2^(6a), and to i + a - 5
 * times 5 2^(6a) = 2^(6a) + 2^(6a+2) past limb 4; HB = the exclusive prefix sums of X over
 * the elements (`valignq` by 1, 2, 4 elements with a zero vector). Every product and shift
 * result goes through the carry chain above: products of limbs below 2^26 + 2^10 are below
 * 2^58.4 and the shifted limbs below 5 (2^26 + 2^10) 2^24 < 2^52.4, so every carry is below
 * 2^32.4 and the limbs come out below 2^26 except limb 4, below 2^26 + 2^7: within the
 * multiplier bound, as F is (P's limbs are below 2^26 + 2^10). The tests of
 * src/poly1305/x86_64_avx512f.rs check every entry.
 *
 * Nothing branches on or indexes memory by h, r or the data; only ngroups steers the loops
 * and the table elements read.
 *
 * Registers (simdcrypt_poly1305_avx512f):
 *   rdi h   rsi TAB   rdx DATA   rcx groups left before the last
 *   r9 M (groups in the step)   r10 TAB + 8 (M-1)   r11 word-table pointer   rax words left
 *   zmm0-4 A (and d0..d4), zmm5-9 A + group 0 limbs, zmm10-13 loads, lo/hi and words,
 *   zmm14-23 products, zmm29 M26, zmm30 2^24, zmm31 carries
 * Registers (simdcrypt_poly1305_avx512f_setup):
 *   rdi p   rsi TAB
 *   zmm0-4 P, then Q, zmm19-23 the squares, zmm5-12 and zmm14-18 scratch of SQR, zmm9-13 F,
 *   then DW and X rows, zmm24-27 five-times rows, zmm28 the F index, then zero, zmm29 M26,
 *   zmm31 carries and shifts
 */

#if defined(__ELF__) && defined(__x86_64__)

#include "cet.h"

#define TAB     %rsi
#define DATA    %rdx
#define NGRP    %rcx
#define M       %r9
#define PWP     %r10
#define DWP     %r11

#define PW      0
#define DW      576
#define HB      1536
#define FM      1856

        .section .rodata
        .p2align 6
.Lperm_f:
        .quad   7, 3, 6, 2, 5, 1, 4, 0
.Lm26:  .quad   0x3ffffff
.Lb24:  .quad   0x1000000

        .text

/* CLEAR (vec_clear.h): zeroes every vector register. */
#include "vec_clear.h"

/* CARRY d0..d4: the chain d3 -> d4 -> 5* -> d0 -> d1 -> d2 -> d3 -> d4 (bounds in the header);
 * zmm29 = M26, zmm31 scratch. */
.macro CARRY d0, d1, d2, d3, d4
        vpsrlq  $26, \d3, %zmm31
        vpandq  %zmm29, \d3, \d3
        vpaddq  %zmm31, \d4, \d4
        vpsrlq  $26, \d4, %zmm31
        vpandq  %zmm29, \d4, \d4
        vpaddq  %zmm31, \d0, \d0
        vpsllq  $2, %zmm31, %zmm31
        vpaddq  %zmm31, \d0, \d0                        /* d0 += 5 c4 */
        vpsrlq  $26, \d0, %zmm31
        vpandq  %zmm29, \d0, \d0
        vpaddq  %zmm31, \d1, \d1
        vpsrlq  $26, \d1, %zmm31
        vpandq  %zmm29, \d1, \d1
        vpaddq  %zmm31, \d2, \d2
        vpsrlq  $26, \d2, %zmm31
        vpandq  %zmm29, \d2, \d2
        vpaddq  %zmm31, \d3, \d3
        vpsrlq  $26, \d3, %zmm31
        vpandq  %zmm29, \d3, \d3
        vpaddq  %zmm31, \d4, \d4
.endm

/* MAC a, b, d, t: d += a * b (low 32 bits of each qword); t scratch. */
.macro MAC a, b, d, t
        vpmuludq \b, \a, \t
        vpaddq  \t, \d, \d
.endm

/* MUL5 h0..h4, r0..r4, s1..s4, d0..d4: d = h * r uncarried (the formulas in the header); the
 * r/s operands may be registers or memory (with {1to8}); zmm14-23 scratch. The first product
 * of each d_k is written, the others go through scratch registers in turn. */
.macro MUL5 h0, h1, h2, h3, h4, r0, r1, r2, r3, r4, s1, s2, s3, s4, d0, d1, d2, d3, d4
        vpmuludq \r0, \h0, \d0
        vpmuludq \r1, \h0, \d1
        vpmuludq \r2, \h0, \d2
        vpmuludq \r3, \h0, \d3
        vpmuludq \r4, \h0, \d4
        MAC     \h1, \s4, \d0, %zmm14
        MAC     \h1, \r0, \d1, %zmm15
        MAC     \h1, \r1, \d2, %zmm16
        MAC     \h1, \r2, \d3, %zmm17
        MAC     \h1, \r3, \d4, %zmm18
        MAC     \h2, \s3, \d0, %zmm19
        MAC     \h2, \s4, \d1, %zmm20
        MAC     \h2, \r0, \d2, %zmm21
        MAC     \h2, \r1, \d3, %zmm22
        MAC     \h2, \r2, \d4, %zmm23
        MAC     \h3, \s2, \d0, %zmm14
        MAC     \h3, \s3, \d1, %zmm15
        MAC     \h3, \s4, \d2, %zmm16
        MAC     \h3, \r0, \d3, %zmm17
        MAC     \h3, \r1, \d4, %zmm18
        MAC     \h4, \s1, \d0, %zmm19
        MAC     \h4, \s2, \d1, %zmm20
        MAC     \h4, \s3, \d2, %zmm21
        MAC     \h4, \s4, \d3, %zmm22
        MAC     \h4, \r0, \d4, %zmm23
.endm

/* ---------------------------------------------------------------- the loop */

/* SPLIT off: zmm5..9 = zmm0..4 + the limbs of the group at DATA + off (zmm10-13 scratch). */
.macro SPLIT off
        vmovdqu64 \off(DATA), %zmm10
        vmovdqu64 \off+64(DATA), %zmm11
        vpunpcklqdq %zmm11, %zmm10, %zmm12              /* lo qwords */
        vpunpckhqdq %zmm11, %zmm10, %zmm13              /* hi qwords */
        vpandq  %zmm29, %zmm12, %zmm10                  /* lo & M26 */
        vpaddq  %zmm10, %zmm0, %zmm5
        vpsrlq  $26, %zmm12, %zmm11
        vpandq  %zmm29, %zmm11, %zmm11                  /* lo >> 26 & M26 */
        vpaddq  %zmm11, %zmm1, %zmm6
        vpsrlq  $52, %zmm12, %zmm12
        vpsllq  $12, %zmm13, %zmm10
        vpternlogq $0xa8, %zmm29, %zmm10, %zmm12        /* (lo >> 52 | hi << 12) & M26 */
        vpaddq  %zmm12, %zmm2, %zmm7
        vpsrlq  $14, %zmm13, %zmm11
        vpandq  %zmm29, %zmm11, %zmm11                  /* hi >> 14 & M26 */
        vpaddq  %zmm11, %zmm3, %zmm8
        vpsrlq  $40, %zmm13, %zmm13
        vporq   %zmm30, %zmm13, %zmm13                  /* hi >> 40 | 2^24 */
        vpaddq  %zmm13, %zmm4, %zmm9
.endm

/* WMAC w, off: d_i (zmm0..4) += w * (DWP element at off + 64 i), broadcast. */
.macro WMAC w, off, t0, t1, t2, t3, t4
        vpmuludq \off(DWP){1to8}, \w, \t0
        vpmuludq \off+64(DWP){1to8}, \w, \t1
        vpmuludq \off+128(DWP){1to8}, \w, \t2
        vpmuludq \off+192(DWP){1to8}, \w, \t3
        vpmuludq \off+256(DWP){1to8}, \w, \t4
        vpaddq  \t0, %zmm0, %zmm0
        vpaddq  \t1, %zmm1, %zmm1
        vpaddq  \t2, %zmm2, %zmm2
        vpaddq  \t3, %zmm3, %zmm3
        vpaddq  \t4, %zmm4, %zmm4
.endm

/* WORDS: d (zmm0..4) += the group at DATA times r^(8k), k the element of DWP, as words. */
.macro WORDS
        vmovdqu64 0(DATA), %zmm10
        vmovdqu64 64(DATA), %zmm11
        vpunpcklqdq %zmm11, %zmm10, %zmm12              /* w0 (low dwords), w1 */
        vpunpckhqdq %zmm11, %zmm10, %zmm13              /* w2, w3 */
        vpsrlq  $32, %zmm12, %zmm10                     /* w1 */
        vpsrlq  $32, %zmm13, %zmm11                     /* w3 */
        WMAC    %zmm12, PW, %zmm14, %zmm15, %zmm16, %zmm17, %zmm18
        WMAC    %zmm10, DW, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23
        WMAC    %zmm13, DW+320, %zmm14, %zmm15, %zmm16, %zmm17, %zmm18
        WMAC    %zmm11, DW+640, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23
.endm

/* HSUM a, t, off: h[off / 8] = the sum of the eight elements of zmm<a> (zmm<t> scratch). */
.macro HSUM a, t, off
        vextracti64x4 $1, %zmm\a, %ymm\t
        vpaddq  %ymm\t, %ymm\a, %ymm\a
        vextracti128 $1, %ymm\a, %xmm\t
        vpaddq  %xmm\t, %xmm\a, %xmm\a
        vpunpckhqdq %xmm\a, %xmm\a, %xmm\t
        vpaddq  %xmm\t, %xmm\a, %xmm\a
        vmovq   %xmm\a, \off(%rdi)
.endm

        .globl  simdcrypt_poly1305_avx512f
        .hidden simdcrypt_poly1305_avx512f
        .type   simdcrypt_poly1305_avx512f, @function
        .p2align 5
simdcrypt_poly1305_avx512f:
        ENDBR
        vpbroadcastq .Lm26(%rip), %zmm29
        vpbroadcastq .Lb24(%rip), %zmm30
        /* A = h in element 0 (vmovq zeroes the rest) */
        vmovq   0(%rdi), %xmm0
        vmovq   8(%rdi), %xmm1
        vmovq   16(%rdi), %xmm2
        vmovq   24(%rdi), %xmm3
        vmovq   32(%rdi), %xmm4
        subq    $1, NGRP
        jz      .Llast
        /* first step: M = (G - 2) mod 8 + 1 = ((NGRP - 1) & 7) + 1 */
        leaq    -1(NGRP), M
        andq    $7, M
        addq    $1, M
        .p2align 4
.Lstep:
        subq    M, NGRP
        leaq    -8(TAB, M, 8), PWP                      /* element M-1: r^(8M) */
        SPLIT   0
        MUL5    %zmm5, %zmm6, %zmm7, %zmm8, %zmm9, PW(PWP){1to8}, PW+64(PWP){1to8}, PW+128(PWP){1to8}, PW+192(PWP){1to8}, PW+256(PWP){1to8}, PW+320(PWP){1to8}, PW+384(PWP){1to8}, PW+448(PWP){1to8}, PW+512(PWP){1to8}, %zmm0, %zmm1, %zmm2, %zmm3, %zmm4
        addq    $128, DATA
        leaq    -8(PWP), DWP                            /* group 1: r^(8(M-1)) */
        leaq    -1(M), %rax
        testq   %rax, %rax
        jz      .Lhb
        .p2align 4
.Lwords:
        WORDS
        addq    $128, DATA
        subq    $8, DWP
        subq    $1, %rax
        jnz     .Lwords
.Lhb:
        vpaddq  HB(PWP){1to8}, %zmm0, %zmm0             /* the 2^128 bits of groups 1..M-1 */
        vpaddq  HB+64(PWP){1to8}, %zmm1, %zmm1
        vpaddq  HB+128(PWP){1to8}, %zmm2, %zmm2
        vpaddq  HB+192(PWP){1to8}, %zmm3, %zmm3
        vpaddq  HB+256(PWP){1to8}, %zmm4, %zmm4
        CARRY   %zmm0, %zmm1, %zmm2, %zmm3, %zmm4
        movl    $8, %r9d
        testq   NGRP, NGRP
        jnz     .Lstep
.Llast:
        SPLIT   0
        MUL5    %zmm5, %zmm6, %zmm7, %zmm8, %zmm9, FM(TAB), FM+64(TAB), FM+128(TAB), FM+192(TAB), FM+256(TAB), FM+320(TAB), FM+384(TAB), FM+448(TAB), FM+512(TAB), %zmm0, %zmm1, %zmm2, %zmm3, %zmm4
        HSUM    0, 10, 0
        HSUM    1, 11, 8
        HSUM    2, 12, 16
        HSUM    3, 13, 24
        HSUM    4, 14, 32
        CLEAR
        ret
        .size   simdcrypt_poly1305_avx512f, . - simdcrypt_poly1305_avx512f

/* ---------------------------------------------------------------- the table */

/* FIVE b1..b4, s1..s4: s_i = 5 b_i = b_i + (b_i << 2). */
.macro FIVE b1, b2, b3, b4, s1, s2, s3, s4
        vpsllq  $2, \b1, \s1
        vpaddq  \b1, \s1, \s1
        vpsllq  $2, \b2, \s2
        vpaddq  \b2, \s2, \s2
        vpsllq  $2, \b3, \s3
        vpaddq  \b3, \s3, \s3
        vpsllq  $2, \b4, \s4
        vpaddq  \b4, \s4, \s4
.endm

/* STORE9 l0..l4, off: rows off .. off + 8*64 of the table: the limbs and five times limbs
 * 1-4 (zmm24-27 scratch). */
.macro STORE9 l0, l1, l2, l3, l4, off
        vmovdqu64 \l0, \off(TAB)
        vmovdqu64 \l1, \off+64(TAB)
        vmovdqu64 \l2, \off+128(TAB)
        vmovdqu64 \l3, \off+192(TAB)
        vmovdqu64 \l4, \off+256(TAB)
        FIVE    \l1, \l2, \l3, \l4, %zmm24, %zmm25, %zmm26, %zmm27
        vmovdqu64 %zmm24, \off+320(TAB)
        vmovdqu64 %zmm25, \off+384(TAB)
        vmovdqu64 %zmm26, \off+448(TAB)
        vmovdqu64 %zmm27, \off+512(TAB)
.endm

/* SQR a0..a4, d0..d4: d = a^2 carried. The products of MUL5 with a = r pair up
 * (a_i a_j = a_j a_i), 15 instead of 25:
 *     d0 = a0 a0 + a1 (10 a4) + a2 (10 a3)      d1 = a0 (2 a1) + a2 (10 a4) + a3 (5 a3)
 *     d2 = a0 (2 a2) + a1 a1 + a3 (10 a4)       d3 = a0 (2 a3) + a1 (2 a2) + a4 (5 a4)
 *     d4 = a0 (2 a4) + a1 (2 a3) + a2 a2
 * (10 a_i < 2^29.4: 32-bit operands; every sum below 2^56.5). zmm5-8 2 a1..2 a4, zmm9-12
 * 5 a3, 5 a4, 10 a3, 10 a4, zmm14-18 scratch; d must not be zmm5-12. */
.macro SQR a0, a1, a2, a3, a4, d0, d1, d2, d3, d4
        vpaddq  \a1, \a1, %zmm5
        vpaddq  \a2, \a2, %zmm6
        vpaddq  \a3, \a3, %zmm7
        vpaddq  \a4, \a4, %zmm8
        vpsllq  $2, \a3, %zmm9
        vpaddq  \a3, %zmm9, %zmm9                        /* 5 a3 */
        vpsllq  $2, \a4, %zmm10
        vpaddq  \a4, %zmm10, %zmm10                      /* 5 a4 */
        vpaddq  %zmm9, %zmm9, %zmm11                    /* 10 a3 */
        vpaddq  %zmm10, %zmm10, %zmm12                  /* 10 a4 */
        vpmuludq \a0, \a0, \d0
        vpmuludq %zmm5, \a0, \d1
        vpmuludq %zmm6, \a0, \d2
        vpmuludq %zmm7, \a0, \d3
        vpmuludq %zmm8, \a0, \d4
        MAC     \a1, %zmm12, \d0, %zmm14
        MAC     \a2, %zmm12, \d1, %zmm15
        MAC     \a1, \a1, \d2, %zmm16
        MAC     \a1, %zmm6, \d3, %zmm17
        MAC     \a1, %zmm7, \d4, %zmm18
        MAC     \a2, %zmm11, \d0, %zmm14
        MAC     \a3, %zmm9, \d1, %zmm15
        MAC     \a3, %zmm12, \d2, %zmm16
        MAC     \a4, %zmm10, \d3, %zmm17
        MAC     \a2, \a2, \d4, %zmm18
        CARRY   \d0, \d1, \d2, \d3, \d4
.endm

/* SHL x, n, y: y = x << n.  SHL5 x, n, y: y = 5 (x << n) = (x << n) + (x << (n + 2)). */
.macro SHL x, n, y
        vpsllq  $\n, \x, \y
.endm
.macro SHL5 x, n, y
        vpsllq  $\n, \x, \y
        vpsllq  $\n+2, \x, %zmm31
        vpaddq  %zmm31, \y, \y
.endm

/* PREFIX x, z: x[j] <- x[j-1] + ... + x[0] (x[0] <- 0), z = 0. */
.macro PREFIX x, z
        valignq $7, \z, \x, \x
        valignq $7, \z, \x, %zmm31
        vpaddq  %zmm31, \x, \x
        valignq $6, \z, \x, %zmm31
        vpaddq  %zmm31, \x, \x
        valignq $4, \z, \x, %zmm31
        vpaddq  %zmm31, \x, \x
.endm

        .globl  simdcrypt_poly1305_avx512f_setup
        .hidden simdcrypt_poly1305_avx512f_setup
        .type   simdcrypt_poly1305_avx512f_setup, @function
        .p2align 5
simdcrypt_poly1305_avx512f_setup:
        ENDBR
        vpbroadcastq .Lm26(%rip), %zmm29
        /* P = (r, r^2, ..., r^8): limb rows */
        vmovdqu64 0(%rdi), %zmm0
        vmovdqu64 64(%rdi), %zmm1
        vmovdqu64 128(%rdi), %zmm2
        vmovdqu64 192(%rdi), %zmm3
        vmovdqu64 256(%rdi), %zmm4
        /* F = P permuted (element e: r^(8 - pi(e))) */
        vmovdqu64 .Lperm_f(%rip), %zmm28
        vpermq  %zmm0, %zmm28, %zmm9
        vpermq  %zmm1, %zmm28, %zmm10
        vpermq  %zmm2, %zmm28, %zmm11
        vpermq  %zmm3, %zmm28, %zmm12
        vpermq  %zmm4, %zmm28, %zmm13
        STORE9  %zmm9, %zmm10, %zmm11, %zmm12, %zmm13, FM
        /* Q = P^8 = (r^8, r^16, ..., r^64) in zmm0-4 */
        SQR     %zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23
        SQR     %zmm19, %zmm20, %zmm21, %zmm22, %zmm23, %zmm0, %zmm1, %zmm2, %zmm3, %zmm4
        SQR     %zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23
        vmovdqa64 %zmm19, %zmm0
        vmovdqa64 %zmm20, %zmm1
        vmovdqa64 %zmm21, %zmm2
        vmovdqa64 %zmm22, %zmm3
        vmovdqa64 %zmm23, %zmm4
        STORE9  %zmm0, %zmm1, %zmm2, %zmm3, %zmm4, PW
        /* DW: Q 2^32, Q 2^64, Q 2^96 (zmm9-13 each time) */
        SHL5    %zmm4, 6, %zmm9
        SHL     %zmm0, 6, %zmm10
        SHL     %zmm1, 6, %zmm11
        SHL     %zmm2, 6, %zmm12
        SHL     %zmm3, 6, %zmm13
        CARRY   %zmm9, %zmm10, %zmm11, %zmm12, %zmm13
        vmovdqu64 %zmm9, DW(TAB)
        vmovdqu64 %zmm10, DW+64(TAB)
        vmovdqu64 %zmm11, DW+128(TAB)
        vmovdqu64 %zmm12, DW+192(TAB)
        vmovdqu64 %zmm13, DW+256(TAB)
        SHL5    %zmm3, 12, %zmm9
        SHL5    %zmm4, 12, %zmm10
        SHL     %zmm0, 12, %zmm11
        SHL     %zmm1, 12, %zmm12
        SHL     %zmm2, 12, %zmm13
        CARRY   %zmm9, %zmm10, %zmm11, %zmm12, %zmm13
        vmovdqu64 %zmm9, DW+320(TAB)
        vmovdqu64 %zmm10, DW+384(TAB)
        vmovdqu64 %zmm11, DW+448(TAB)
        vmovdqu64 %zmm12, DW+512(TAB)
        vmovdqu64 %zmm13, DW+576(TAB)
        SHL5    %zmm2, 18, %zmm9
        SHL5    %zmm3, 18, %zmm10
        SHL5    %zmm4, 18, %zmm11
        SHL     %zmm0, 18, %zmm12
        SHL     %zmm1, 18, %zmm13
        CARRY   %zmm9, %zmm10, %zmm11, %zmm12, %zmm13
        vmovdqu64 %zmm9, DW+640(TAB)
        vmovdqu64 %zmm10, DW+704(TAB)
        vmovdqu64 %zmm11, DW+768(TAB)
        vmovdqu64 %zmm12, DW+832(TAB)
        vmovdqu64 %zmm13, DW+896(TAB)
        /* X = Q 2^128, HB = its exclusive prefix sums */
        SHL5    %zmm1, 24, %zmm9
        SHL5    %zmm2, 24, %zmm10
        SHL5    %zmm3, 24, %zmm11
        SHL5    %zmm4, 24, %zmm12
        SHL     %zmm0, 24, %zmm13
        CARRY   %zmm9, %zmm10, %zmm11, %zmm12, %zmm13
        vpxorq  %zmm28, %zmm28, %zmm28
        PREFIX  %zmm9, %zmm28
        PREFIX  %zmm10, %zmm28
        PREFIX  %zmm11, %zmm28
        PREFIX  %zmm12, %zmm28
        PREFIX  %zmm13, %zmm28
        vmovdqu64 %zmm9, HB(TAB)
        vmovdqu64 %zmm10, HB+64(TAB)
        vmovdqu64 %zmm11, HB+128(TAB)
        vmovdqu64 %zmm12, HB+192(TAB)
        vmovdqu64 %zmm13, HB+256(TAB)
        CLEAR
        ret
        .size   simdcrypt_poly1305_avx512f_setup, . - simdcrypt_poly1305_avx512f_setup

#endif

#if defined(__ELF__)
        .section .note.GNU-stack, "", @progbits
#endif
