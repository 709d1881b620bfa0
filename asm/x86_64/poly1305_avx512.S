/*
 * poly1305_avx512.S (x86_64) -- the vector loops of Poly1305 (RFC 8439 sec. 2.5) on 512-bit
 * registers: sixteen interleaved Horner lanes, in radix 2^44 with AVX-512 IFMA
 * (`vpmadd52luq`/`vpmadd52huq`). (The AVX-512F loop without IFMA is poly1305_avx512f.S.)
 * Safe wrapper: src/poly1305/x86_64_avx512.rs (which also has the derivations in full).
 *
 * Features: simdcrypt_poly1305_ifma needs AVX512IFMA and AVX512F (EVEX-encoded, zmm0-31,
 * `vpternlogq`). The Rust token Avx512Ifma proves them. ABI: System V AMD64 psABI; the
 * function is a leaf that uses only caller-saved registers (rdi, rsi, rdx, rcx, r8, all
 * vector registers), no stack, and ends by zeroing every vector register (zmm16-31 by EVEX
 * writes, then `vzeroall`): none keeps powers of r or message limbs after the call, and the
 * upper halves are clean as after `vzeroupper`. ELF only (the wrapper is compiled for Linux
 * and the BSDs).
 *
 * Function (ngroups >= 1; any alignment for every pointer):
 *   void simdcrypt_poly1305_ifma(const u64 h[3], const u64 tab[4][5][8], const u8 *data,
 *                                size_t ngroups, u64 out[3][8])
 * absorbs ngroups groups of 16 blocks (256 bytes) at data into the accumulator whose
 * limbs are h (radix 2^44: 3 limbs) and stores the lane-wise sum of the
 * two sets of lanes, limb by limb (out[i][e] = limb i of element e), for the wrapper to add
 * up and carry.
 *
 * Math. With n = 16 k blocks m_1..m_n (each plus 2^128), Poly1305 computes
 *     h' = (h + m_1) r^n + m_2 r^(n-1) + ... + m_n r   mod p = 2^130 - 5.
 * Block j of a group (j = 0..15) goes to lane j; each lane runs Horner's rule with r^16,
 * A <- (A + m) r^16, except in the last group, where lane j multiplies by r^(16-j); then
 * h' is the sum of the lanes (Goll and Gueron, "Vectorization of Poly1305 message
 * authentication code", 2015). Lane 0 starts from h, the others from 0.
 * Aggregated steps: the groups before the last go two at a time, groups g and g+1 with
 * blocks m and m' in a lane: A <- (A + m) r^16 r^16 + m' r^16 = (A + m) r^32 + m' r^16,
 * the same value as two Horner steps, but the products of both groups are summed unreduced
 * and carried once per step (the carry is what the IFMA sources need: below 2^52). The
 * products m' r^16 do not wait for A, so they go first; A waits for one product and one
 * carry per two groups. An odd group before the last takes one Horner step with r^16.
 * Lanes 0-7 are the elements of set A (H registers), lanes 8-15 those of set B (G). Two
 * 64-byte loads of blocks 0-3 and 4-7 and `vpunpck{l,h}qdq` give the low and high qwords in
 * the element order (0, 4, 1, 5, 2, 6, 3, 7) (per 128-bit lane: one block of each load).
 * tab[0] holds r^16 in every element, tab[1] and tab[2] the last-group powers of sets A and
 * B in that element order, tab[3] r^32 in every element; each as the multiplier vectors of
 * its radix:
 *   radix 2^44 (tab[s][0..5]): r0, r1, r2, 20 r1, 20 r2      (2^132 = 4 * 2^130 = 20 mod p)
 *
 * Radix 2^44: h = h0 + h1 2^44 + h2 2^88. vpmadd52luq adds bits 0..51 of the 104-bit product
 * of the low 52 bits of its sources, vpmadd52huq bits 52..103. Per output limb k the three
 * products are
 *     k = 0: h0 r0, h1 20r2, h2 20r1     k = 1: h0 r1, h1 r0, h2 20r2     k = 2: h0 r2, h1 r1, h2 r0
 * summed as lo parts L_k and hi parts U_k (weight 2^52 = 2^8 * 2^44 above limb k; above
 * limb 2 that is 2^140 = 5 * 2^10 mod p):
 *     d0 = L0 + 5 * 2^10 U2,   d1 = L1 + 2^8 U0,   d2 = L2 + 2^8 U1
 * then one carry pass, two chains at once:
 *     c0 = d0 >> 44, c2 = d2 >> 42;  d0 = (d0 & M44) + 5 c2;  d1 += c0;
 *     c1 = d1 >> 44;  d1 &= M44;  d2 = (d2 & M42) + c1
 * In a step of two groups L_k and U_k sum the three products of limb k for (A + m) r^32 and
 * the three for m' r^16 (the multiplier vectors of r^32 and r^16 are alike, below the same
 * bounds).
 * Bounds: limbs in are below 2^45.1 (h0, h1) and 2^43.4 (h2) after adding a block (44, 44
 * and 41 bits; h enters below 2^131, so its h2 below 2^43), the multipliers below 2^48.4 (the
 * table's header), so every product is below
 * 2^93.5 (both sources are below 2^52 as IFMA needs) and its high part below 2^41.5. With at
 * most six products per limb, each L_k < 6 * 2^52 < 2^54.6 and each U_k < 6 * 2^41.5 < 2^44.1,
 * so d0 < 2^54.6 + 5 * 2^54.1 < 2^56.8 and d1, d2 < 2^54.6 + 2^52.1 < 2^54.9, far from 2^64.
 * The carry: c0 < 2^12.8, c2 < 2^12.9, h0 < 2^44 + 5 * 2^12.9 < 2^44 + 2^15.3,
 * c1 < (2^54.9 + 2^12.8) >> 44 < 2^11, h1 < 2^44, h2 < 2^42 + 2^11: adding the next
 * group's block gives limbs below 2^45.1, 2^45 and 2^42.6, the bounds assumed above, and the
 * lane sums (16 lanes) the wrapper adds up stay below 2^49.
 * A block is m0 = lo & M44, m1 = (lo >> 44 | hi << 20) & M44, m2 = hi >> 24 | 2^40.
 *
 * Nothing branches on or indexes memory by h, r or the data; only ngroups steers the loop.
 *
 * Registers (ifma):
 *   rdi  h    rsi  TAB    rdx  DATA    rcx  NGRP (groups left)    r8  out
 *   zmm0-2 H (set A limbs), zmm3-5 G (set B limbs), zmm6-10 r^16 multipliers,
 *   zmm11-16 set A products (L0 L1 L2 U0 U1 U2), zmm17-22 set B products,
 *   zmm23-26 block loads and carries, zmm27 M44, zmm28 M42, zmm29 2^40, zmm30-31 scratch;
 *   the second group of a step: its limbs in zmm30, zmm25, zmm26; r^32 read from tab[3]
 */

#if defined(__ELF__) && defined(__x86_64__)

#include "cet.h"

#define TAB     %rsi
#define DATA    %rdx
#define NGRP    %rcx
#define OUT     %r8

        .section .rodata
        .p2align 3
.Lm44:  .quad   0xfffffffffff
.Lm42:  .quad   0x3ffffffffff
.Lb40:  .quad   0x10000000000

        .text

/* CLEAR (vec_clear.h): zeroes every vector register. */
#include "vec_clear.h"

/* ---------------------------------------------------------------- radix 2^44, IFMA */

/* LOAD44 off, h0, h1, h2: adds the 8 blocks at DATA + off to limbs h0..h2 (zmm23-26, 30-31). */
.macro LOAD44 off, h0, h1, h2
        vmovdqu64 \off(DATA), %zmm23
        vmovdqu64 \off+64(DATA), %zmm24
        vpunpcklqdq %zmm24, %zmm23, %zmm25              /* lo qwords */
        vpunpckhqdq %zmm24, %zmm23, %zmm26              /* hi qwords */
        vpandq  %zmm27, %zmm25, %zmm30                  /* m0 = lo & M44 */
        vpaddq  %zmm30, \h0, \h0
        vpsrlq  $44, %zmm25, %zmm25
        vpsllq  $20, %zmm26, %zmm31
        vpternlogq $0xa8, %zmm27, %zmm31, %zmm25        /* m1 = (lo >> 44 | hi << 20) & M44 */
        vpaddq  %zmm25, \h1, \h1
        vpsrlq  $24, %zmm26, %zmm26
        vporq   %zmm29, %zmm26, %zmm26                  /* m2 = hi >> 24 | 2^40 */
        vpaddq  %zmm26, \h2, \h2
.endm

/* LOADM44 off: the limbs of the 8 blocks at DATA + off into zmm30 (m0), zmm25 (m1), zmm26
 * (m2) (zmm23-24, zmm31 scratch), for a product without the accumulator. */
.macro LOADM44 off
        vmovdqu64 \off(DATA), %zmm23
        vmovdqu64 \off+64(DATA), %zmm24
        vpunpcklqdq %zmm24, %zmm23, %zmm25              /* lo qwords */
        vpunpckhqdq %zmm24, %zmm23, %zmm26              /* hi qwords */
        vpandq  %zmm27, %zmm25, %zmm30                  /* m0 = lo & M44 */
        vpsrlq  $44, %zmm25, %zmm25
        vpsllq  $20, %zmm26, %zmm31
        vpternlogq $0xa8, %zmm27, %zmm31, %zmm25        /* m1 = (lo >> 44 | hi << 20) & M44 */
        vpsrlq  $24, %zmm26, %zmm26
        vporq   %zmm29, %zmm26, %zmm26                  /* m2 = hi >> 24 | 2^40 */
.endm

/* ZERO44 l0,l1,l2,u0,u1,u2: clears the six product sums. */
.macro ZERO44 l0, l1, l2, u0, u1, u2
        vpxorq  \l0, \l0, \l0
        vpxorq  \l1, \l1, \l1
        vpxorq  \l2, \l2, \l2
        vpxorq  \u0, \u0, \u0
        vpxorq  \u1, \u1, \u1
        vpxorq  \u2, \u2, \u2
.endm

/* MACC44 h0,h1,h2, r0,r1,r2,s1,s2, l0,l1,l2,u0,u1,u2: adds the low and high parts of the
 * nine products of h * r to the sums L_k (l_k) and U_k (u_k), unreduced; the r/s operands
 * may be registers or memory. */
.macro MACC44 h0, h1, h2, r0, r1, r2, s1, s2, l0, l1, l2, u0, u1, u2
        vpmadd52luq \r0, \h0, \l0
        vpmadd52huq \r0, \h0, \u0
        vpmadd52luq \r1, \h0, \l1
        vpmadd52huq \r1, \h0, \u1
        vpmadd52luq \r2, \h0, \l2
        vpmadd52huq \r2, \h0, \u2
        vpmadd52luq \s2, \h1, \l0
        vpmadd52huq \s2, \h1, \u0
        vpmadd52luq \r0, \h1, \l1
        vpmadd52huq \r0, \h1, \u1
        vpmadd52luq \r1, \h1, \l2
        vpmadd52huq \r1, \h1, \u2
        vpmadd52luq \s1, \h2, \l0
        vpmadd52huq \s1, \h2, \u0
        vpmadd52luq \s2, \h2, \l1
        vpmadd52huq \s2, \h2, \u1
        vpmadd52luq \r0, \h2, \l2
        vpmadd52huq \r0, \h2, \u2
.endm

/* FIN44 (poly1305_radix44.h): (h0,h1,h2) <- the sums combined and carried once. */
#include "poly1305_radix44.h"

/* MUL44 h0,h1,h2, r0,r1,r2,s1,s2, l0,l1,l2,u0,u1,u2: (h0,h1,h2) <- h * r carried. */
.macro MUL44 h0, h1, h2, r0, r1, r2, s1, s2, l0, l1, l2, u0, u1, u2
        ZERO44  \l0, \l1, \l2, \u0, \u1, \u2
        MACC44  \h0, \h1, \h2, \r0, \r1, \r2, \s1, \s2, \l0, \l1, \l2, \u0, \u1, \u2
        FIN44   \h0, \h1, \h2, \l0, \l1, \l2, \u0, \u1, \u2
.endm

        .globl  simdcrypt_poly1305_ifma
        .hidden simdcrypt_poly1305_ifma
        .type   simdcrypt_poly1305_ifma, @function
        .p2align 5
simdcrypt_poly1305_ifma:
        ENDBR
        vpbroadcastq .Lm44(%rip), %zmm27
        vpbroadcastq .Lm42(%rip), %zmm28
        vpbroadcastq .Lb40(%rip), %zmm29
        /* H = h in element 0 (vmovq zeroes the rest), G = 0 */
        vmovq   0(%rdi), %xmm0
        vmovq   8(%rdi), %xmm1
        vmovq   16(%rdi), %xmm2
        vpxorq  %zmm3, %zmm3, %zmm3
        vpxorq  %zmm4, %zmm4, %zmm4
        vpxorq  %zmm5, %zmm5, %zmm5
        vmovdqu64 0(TAB), %zmm6                         /* r^16: r0 r1 r2 s1 s2 */
        vmovdqu64 64(TAB), %zmm7
        vmovdqu64 128(TAB), %zmm8
        vmovdqu64 192(TAB), %zmm9
        vmovdqu64 256(TAB), %zmm10
        subq    $1, NGRP                                /* groups before the last */
        jz      .Llast44
        cmpq    $2, NGRP
        jb      .Lone44
        .p2align 4
.Lpair44:
        /* a step of two groups: the second one's blocks times r^16 first (they do not wait
         * for the accumulator), then (acc + first group) times r^32, one carry */
        ZERO44  %zmm11, %zmm12, %zmm13, %zmm14, %zmm15, %zmm16
        ZERO44  %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22
        LOADM44 256
        MACC44  %zmm30, %zmm25, %zmm26, %zmm6, %zmm7, %zmm8, %zmm9, %zmm10, %zmm11, %zmm12, %zmm13, %zmm14, %zmm15, %zmm16
        LOADM44 384
        MACC44  %zmm30, %zmm25, %zmm26, %zmm6, %zmm7, %zmm8, %zmm9, %zmm10, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22
        LOAD44  0, %zmm0, %zmm1, %zmm2
        LOAD44  128, %zmm3, %zmm4, %zmm5
        MACC44  %zmm0, %zmm1, %zmm2, 960(TAB), 1024(TAB), 1088(TAB), 1152(TAB), 1216(TAB), %zmm11, %zmm12, %zmm13, %zmm14, %zmm15, %zmm16
        MACC44  %zmm3, %zmm4, %zmm5, 960(TAB), 1024(TAB), 1088(TAB), 1152(TAB), 1216(TAB), %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22
        FIN44   %zmm0, %zmm1, %zmm2, %zmm11, %zmm12, %zmm13, %zmm14, %zmm15, %zmm16
        FIN44   %zmm3, %zmm4, %zmm5, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22
        addq    $512, DATA
        subq    $2, NGRP
        cmpq    $2, NGRP
        jae     .Lpair44
        testq   NGRP, NGRP
        jz      .Llast44
.Lone44:
        /* one group before the last left: Horner's rule with r^16 */
        LOAD44  0, %zmm0, %zmm1, %zmm2
        LOAD44  128, %zmm3, %zmm4, %zmm5
        MUL44   %zmm0, %zmm1, %zmm2, %zmm6, %zmm7, %zmm8, %zmm9, %zmm10, %zmm11, %zmm12, %zmm13, %zmm14, %zmm15, %zmm16
        MUL44   %zmm3, %zmm4, %zmm5, %zmm6, %zmm7, %zmm8, %zmm9, %zmm10, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22
        addq    $256, DATA
.Llast44:
        LOAD44  0, %zmm0, %zmm1, %zmm2
        LOAD44  128, %zmm3, %zmm4, %zmm5
        MUL44   %zmm0, %zmm1, %zmm2, 320(TAB), 384(TAB), 448(TAB), 512(TAB), 576(TAB), %zmm11, %zmm12, %zmm13, %zmm14, %zmm15, %zmm16
        MUL44   %zmm3, %zmm4, %zmm5, 640(TAB), 704(TAB), 768(TAB), 832(TAB), 896(TAB), %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22
        vpaddq  %zmm3, %zmm0, %zmm0
        vpaddq  %zmm4, %zmm1, %zmm1
        vpaddq  %zmm5, %zmm2, %zmm2
        vmovdqu64 %zmm0, 0(OUT)
        vmovdqu64 %zmm1, 64(OUT)
        vmovdqu64 %zmm2, 128(OUT)
        CLEAR
        ret
        .size   simdcrypt_poly1305_ifma, . - simdcrypt_poly1305_ifma

#endif

#if defined(__ELF__)
        .section .note.GNU-stack, "", @progbits
#endif
