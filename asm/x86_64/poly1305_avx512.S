/*
 * poly1305_avx512.S (x86_64) -- the vector loops of Poly1305 (RFC 8439 sec. 2.5) on 512-bit
 * registers: sixteen interleaved Horner lanes, in radix 2^44 with AVX-512 IFMA
 * (`vpmadd52luq`/`vpmadd52huq`) and in radix 2^26 with AVX-512F `vpmuludq`.
 * Safe wrapper: src/poly1305/x86_64_avx512.rs (which also has the derivations in full).
 *
 * Features: simdcrypt_poly1305_ifma needs AVX512IFMA and AVX512F (EVEX-encoded, zmm0-31,
 * `vpternlogq`); simdcrypt_poly1305_avx512 needs AVX512F. The Rust tokens Avx512Ifma and
 * Avx512 prove them. ABI: System V AMD64 psABI; both functions are leaves that use only
 * caller-saved registers (rdi, rsi, rdx, rcx, r8, all vector registers), no stack, and end
 * by zeroing every vector register (zmm16-31 by EVEX writes, then `vzeroall`): none keeps
 * powers of r or message limbs after the call, and the upper halves are clean as after
 * `vzeroupper`. ELF only (the wrapper is compiled for Linux and the BSDs).
 *
 * Functions (ngroups >= 1; any alignment for every pointer):
 *   void simdcrypt_poly1305_ifma(const u64 h[3], const u64 tab[3][5][8], const u8 *data,
 *                                size_t ngroups, u64 out[3][8])
 *   void simdcrypt_poly1305_avx512(const u64 h[5], const u64 tab[3][9][8], const u8 *data,
 *                                  size_t ngroups, u64 out[5][8])
 * Both absorb ngroups groups of 16 blocks (256 bytes) at data into the accumulator whose
 * limbs are h (radix 2^44: 3 limbs; radix 2^26: 5 limbs) and store the lane-wise sum of the
 * two sets of lanes, limb by limb (out[i][e] = limb i of element e), for the wrapper to add
 * up and carry.
 *
 * Math. With n = 16 k blocks m_1..m_n (each plus 2^128), Poly1305 computes
 *     h' = (h + m_1) r^n + m_2 r^(n-1) + ... + m_n r   mod p = 2^130 - 5.
 * Block j of a group (j = 0..15) goes to lane j; each lane runs Horner's rule with r^16,
 * A <- (A + m) r^16, except in the last group, where lane j multiplies by r^(16-j); then
 * h' is the sum of the lanes (Goll and Gueron, "Vectorization of Poly1305 message
 * authentication code", 2015). Lane 0 starts from h, the others from 0.
 * Lanes 0-7 are the elements of set A (H registers), lanes 8-15 those of set B (G). Two
 * 64-byte loads of blocks 0-3 and 4-7 and `vpunpck{l,h}qdq` give the low and high qwords in
 * the element order (0, 4, 1, 5, 2, 6, 3, 7) (per 128-bit lane: one block of each load).
 * tab[0] holds r^16 in every element, tab[1] and tab[2] the last-group powers of sets A and
 * B in that element order; each as the multiplier vectors of its radix:
 *   radix 2^44 (tab[s][0..5]): r0, r1, r2, 20 r1, 20 r2      (2^132 = 4 * 2^130 = 20 mod p)
 *   radix 2^26 (tab[s][0..9]): r0, r1, r2, r3, r4, 5 r1, 5 r2, 5 r3, 5 r4   (2^130 = 5 mod p)
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
 * Bounds: limbs in are below 2^45.1 (h0, h1) and 2^43 (h2) after adding a block (44, 44 and
 * 41 bits), the multipliers below 2^48.4, so every product is below 2^94 (both sources are
 * below 2^52 as IFMA needs), each U_k below 2^44, d_k below 2^57; after the carry
 * h0 < 2^44 + 2^18, h1 < 2^44, h2 < 2^42 + 2^14.
 * A block is m0 = lo & M44, m1 = (lo >> 44 | hi << 20) & M44, m2 = hi >> 24 | 2^40.
 *
 * Radix 2^26 (the AVX2 kernel's arithmetic, src/poly1305/x86_64_avx2.rs, on zmm):
 *     d0 = h0 r0 + h1 s4 + h2 s3 + h3 s2 + h4 s1      d1 = h0 r1 + h1 r0 + h2 s4 + h3 s3 + h4 s2
 *     d2 = h0 r2 + h1 r1 + h2 r0 + h3 s4 + h4 s3      d3 = h0 r3 + h1 r2 + h2 r1 + h3 r0 + h4 s4
 *     d4 = h0 r4 + h1 r3 + h2 r2 + h3 r1 + h4 r0
 * and the two interleaved carry chains d0->d1->d2->d3->d4 and d3->d4->5*->d0->d1.
 * A block is lo & M26, lo >> 26 & M26, (lo >> 52 | hi << 12) & M26, hi >> 14 & M26,
 * hi >> 40 | 2^24.
 *
 * Nothing branches on or indexes memory by h, r or the data; only ngroups steers the loop.
 *
 * Registers (ifma):
 *   rdi  h    rsi  TAB    rdx  DATA    rcx  NGRP (groups left)    r8  out
 *   zmm0-2 H (set A limbs), zmm3-5 G (set B limbs), zmm6-10 r^16 multipliers,
 *   zmm11-16 set A products (L0 L1 L2 U0 U1 U2), zmm17-22 set B products,
 *   zmm23-26 block loads and carries, zmm27 M44, zmm28 M42, zmm29 2^40, zmm30-31 scratch
 * Registers (avx512):
 *   rdi  h    rsi  TAB    rdx  DATA    rcx  NGRP    r8  out
 *   zmm0-4 H, zmm5-9 G, zmm10-18 r^16 multipliers, zmm19-23 set A products d0..d4,
 *   zmm24-28 set B products (and block loads), zmm29 M26, zmm30 2^24, zmm31 scratch
 */

#if defined(__ELF__) && defined(__x86_64__)

#define TAB     %rsi
#define DATA    %rdx
#define NGRP    %rcx
#define OUT     %r8

        .section .rodata
        .p2align 3
.Lm44:  .quad   0xfffffffffff
.Lm42:  .quad   0x3ffffffffff
.Lb40:  .quad   0x10000000000
.Lm26:  .quad   0x3ffffff
.Lb24:  .quad   0x1000000

        .text

/* CLEAR: zeroes every vector register the functions use (they held powers of r, the
 * accumulator and message limbs): an EVEX write to xmm16-31 zeroes the whole register, and
 * `vzeroall` zeroes ymm0-15 (and so the upper halves as `vzeroupper` would). */
.macro CLEAR
        vpxord  %xmm16, %xmm16, %xmm16
        vpxord  %xmm17, %xmm17, %xmm17
        vpxord  %xmm18, %xmm18, %xmm18
        vpxord  %xmm19, %xmm19, %xmm19
        vpxord  %xmm20, %xmm20, %xmm20
        vpxord  %xmm21, %xmm21, %xmm21
        vpxord  %xmm22, %xmm22, %xmm22
        vpxord  %xmm23, %xmm23, %xmm23
        vpxord  %xmm24, %xmm24, %xmm24
        vpxord  %xmm25, %xmm25, %xmm25
        vpxord  %xmm26, %xmm26, %xmm26
        vpxord  %xmm27, %xmm27, %xmm27
        vpxord  %xmm28, %xmm28, %xmm28
        vpxord  %xmm29, %xmm29, %xmm29
        vpxord  %xmm30, %xmm30, %xmm30
        vpxord  %xmm31, %xmm31, %xmm31
        vzeroall
.endm

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

/* MUL44 h0,h1,h2, r0,r1,r2,s1,s2, l0,l1,l2,u0,u1,u2: (h0,h1,h2) <- h * r carried; the r/s
 * operands may be registers or memory. */
.macro MUL44 h0, h1, h2, r0, r1, r2, s1, s2, l0, l1, l2, u0, u1, u2
        vpxorq  \l0, \l0, \l0
        vpxorq  \l1, \l1, \l1
        vpxorq  \l2, \l2, \l2
        vpxorq  \u0, \u0, \u0
        vpxorq  \u1, \u1, \u1
        vpxorq  \u2, \u2, \u2
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
        /* d1 = L1 + 2^8 U0, d2 = L2 + 2^8 U1, d0 = L0 + (2^12 + 2^10) U2 */
        vpsllq  $8, \u0, \u0
        vpaddq  \u0, \l1, \l1
        vpsllq  $8, \u1, \u1
        vpaddq  \u1, \l2, \l2
        vpsllq  $10, \u2, \u2
        vpaddq  \u2, \l0, \l0
        vpsllq  $2, \u2, \u2
        vpaddq  \u2, \l0, \l0
        /* carry: c0 = d0 >> 44, c2 = d2 >> 42 */
        vpsrlq  $44, \l0, \u0
        vpsrlq  $42, \l2, \u2
        vpandq  %zmm27, \l0, \l0
        vpandq  %zmm28, \l2, \l2
        vpaddq  \u0, \l1, \l1
        vpaddq  \u2, \l0, \l0
        vpsllq  $2, \u2, \u2
        vpaddq  \u2, \l0, \h0                           /* h0 = (d0 & M44) + 5 c2 */
        vpsrlq  $44, \l1, \u1
        vpandq  %zmm27, \l1, \h1                        /* h1 = d1 & M44 */
        vpaddq  \u1, \l2, \h2                           /* h2 = (d2 & M42) + c1 */
.endm

        .globl  simdcrypt_poly1305_ifma
        .hidden simdcrypt_poly1305_ifma
        .type   simdcrypt_poly1305_ifma, @function
        .p2align 5
simdcrypt_poly1305_ifma:
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
        subq    $1, NGRP
        jz      .Llast44
        .p2align 4
.Lloop44:
        LOAD44  0, %zmm0, %zmm1, %zmm2
        LOAD44  128, %zmm3, %zmm4, %zmm5
        MUL44   %zmm0, %zmm1, %zmm2, %zmm6, %zmm7, %zmm8, %zmm9, %zmm10, %zmm11, %zmm12, %zmm13, %zmm14, %zmm15, %zmm16
        MUL44   %zmm3, %zmm4, %zmm5, %zmm6, %zmm7, %zmm8, %zmm9, %zmm10, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22
        addq    $256, DATA
        subq    $1, NGRP
        jnz     .Lloop44
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


/* ---------------------------------------------------------------- radix 2^26, AVX-512F */

/* LOAD26 off, h0..h4: adds the 8 blocks at DATA + off to limbs h0..h4 (zmm19-22, zmm31). */
.macro LOAD26 off, h0, h1, h2, h3, h4
        vmovdqu64 \off(DATA), %zmm19
        vmovdqu64 \off+64(DATA), %zmm20
        vpunpcklqdq %zmm20, %zmm19, %zmm21              /* lo qwords */
        vpunpckhqdq %zmm20, %zmm19, %zmm22              /* hi qwords */
        vpandq  %zmm29, %zmm21, %zmm31                  /* lo & M26 */
        vpaddq  %zmm31, \h0, \h0
        vpsrlq  $26, %zmm21, %zmm31
        vpandq  %zmm29, %zmm31, %zmm31                  /* lo >> 26 & M26 */
        vpaddq  %zmm31, \h1, \h1
        vpsrlq  $52, %zmm21, %zmm21
        vpsllq  $12, %zmm22, %zmm31
        vpternlogq $0xa8, %zmm29, %zmm31, %zmm21        /* (lo >> 52 | hi << 12) & M26 */
        vpaddq  %zmm21, \h2, \h2
        vpsrlq  $14, %zmm22, %zmm31
        vpandq  %zmm29, %zmm31, %zmm31                  /* hi >> 14 & M26 */
        vpaddq  %zmm31, \h3, \h3
        vpsrlq  $40, %zmm22, %zmm22
        vporq   %zmm30, %zmm22, %zmm22                  /* hi >> 40 | 2^24 */
        vpaddq  %zmm22, \h4, \h4
.endm

/* MAC26 a, b, d: d += a * b (low 32 bits of each qword); zmm31 scratch. */
.macro MAC26 a, b, d
        vpmuludq \b, \a, %zmm31
        vpaddq  %zmm31, \d, \d
.endm

/* MUL26 h0..h4, r0..r4, s1..s4, d0..d4: (h0..h4) <- h * r with the lazy carry; the r/s
 * operands may be registers or memory. */
.macro MUL26 h0, h1, h2, h3, h4, r0, r1, r2, r3, r4, s1, s2, s3, s4, d0, d1, d2, d3, d4
        vpmuludq \r0, \h0, \d0
        vpmuludq \r1, \h0, \d1
        vpmuludq \r2, \h0, \d2
        vpmuludq \r3, \h0, \d3
        vpmuludq \r4, \h0, \d4
        MAC26   \h1, \s4, \d0
        MAC26   \h1, \r0, \d1
        MAC26   \h1, \r1, \d2
        MAC26   \h1, \r2, \d3
        MAC26   \h1, \r3, \d4
        MAC26   \h2, \s3, \d0
        MAC26   \h2, \s4, \d1
        MAC26   \h2, \r0, \d2
        MAC26   \h2, \r1, \d3
        MAC26   \h2, \r2, \d4
        MAC26   \h3, \s2, \d0
        MAC26   \h3, \s3, \d1
        MAC26   \h3, \s4, \d2
        MAC26   \h3, \r0, \d3
        MAC26   \h3, \r1, \d4
        MAC26   \h4, \s1, \d0
        MAC26   \h4, \s2, \d1
        MAC26   \h4, \s3, \d2
        MAC26   \h4, \s4, \d3
        MAC26   \h4, \r0, \d4
        /* two carry chains: d0->d1->d2->d3->d4 and d3->d4->5*->d0->d1 */
        vpsrlq  $26, \d0, %zmm31
        vpandq  %zmm29, \d0, \d0
        vpaddq  %zmm31, \d1, \d1
        vpsrlq  $26, \d3, %zmm31
        vpandq  %zmm29, \d3, \d3
        vpaddq  %zmm31, \d4, \d4
        vpsrlq  $26, \d1, %zmm31
        vpandq  %zmm29, \d1, \d1
        vpaddq  %zmm31, \d2, \d2
        vpsrlq  $26, \d4, %zmm31
        vpandq  %zmm29, \d4, \d4
        vpaddq  %zmm31, \d0, \d0
        vpsllq  $2, %zmm31, %zmm31
        vpaddq  %zmm31, \d0, \d0                        /* d0 += 5 c */
        vpsrlq  $26, \d2, %zmm31
        vpandq  %zmm29, \d2, \h2
        vpaddq  %zmm31, \d3, \d3
        vpsrlq  $26, \d0, %zmm31
        vpandq  %zmm29, \d0, \h0
        vpaddq  %zmm31, \d1, \h1
        vpsrlq  $26, \d3, %zmm31
        vpandq  %zmm29, \d3, \h3
        vpaddq  %zmm31, \d4, \h4
.endm

        .globl  simdcrypt_poly1305_avx512
        .hidden simdcrypt_poly1305_avx512
        .type   simdcrypt_poly1305_avx512, @function
        .p2align 5
simdcrypt_poly1305_avx512:
        vpbroadcastq .Lm26(%rip), %zmm29
        vpbroadcastq .Lb24(%rip), %zmm30
        /* H = h in element 0 (vmovq zeroes the rest), G = 0 */
        vmovq   0(%rdi), %xmm0
        vmovq   8(%rdi), %xmm1
        vmovq   16(%rdi), %xmm2
        vmovq   24(%rdi), %xmm3
        vmovq   32(%rdi), %xmm4
        vpxorq  %zmm5, %zmm5, %zmm5
        vpxorq  %zmm6, %zmm6, %zmm6
        vpxorq  %zmm7, %zmm7, %zmm7
        vpxorq  %zmm8, %zmm8, %zmm8
        vpxorq  %zmm9, %zmm9, %zmm9
        vmovdqu64 0(TAB), %zmm10                        /* r^16: r0..r4 s1..s4 */
        vmovdqu64 64(TAB), %zmm11
        vmovdqu64 128(TAB), %zmm12
        vmovdqu64 192(TAB), %zmm13
        vmovdqu64 256(TAB), %zmm14
        vmovdqu64 320(TAB), %zmm15
        vmovdqu64 384(TAB), %zmm16
        vmovdqu64 448(TAB), %zmm17
        vmovdqu64 512(TAB), %zmm18
        subq    $1, NGRP
        jz      .Llast26
        .p2align 4
.Lloop26:
        LOAD26  0, %zmm0, %zmm1, %zmm2, %zmm3, %zmm4
        LOAD26  128, %zmm5, %zmm6, %zmm7, %zmm8, %zmm9
        MUL26   %zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm10, %zmm11, %zmm12, %zmm13, %zmm14, %zmm15, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23
        MUL26   %zmm5, %zmm6, %zmm7, %zmm8, %zmm9, %zmm10, %zmm11, %zmm12, %zmm13, %zmm14, %zmm15, %zmm16, %zmm17, %zmm18, %zmm24, %zmm25, %zmm26, %zmm27, %zmm28
        addq    $256, DATA
        subq    $1, NGRP
        jnz     .Lloop26
.Llast26:
        LOAD26  0, %zmm0, %zmm1, %zmm2, %zmm3, %zmm4
        LOAD26  128, %zmm5, %zmm6, %zmm7, %zmm8, %zmm9
        MUL26   %zmm0, %zmm1, %zmm2, %zmm3, %zmm4, 576(TAB), 640(TAB), 704(TAB), 768(TAB), 832(TAB), 896(TAB), 960(TAB), 1024(TAB), 1088(TAB), %zmm19, %zmm20, %zmm21, %zmm22, %zmm23
        MUL26   %zmm5, %zmm6, %zmm7, %zmm8, %zmm9, 1152(TAB), 1216(TAB), 1280(TAB), 1344(TAB), 1408(TAB), 1472(TAB), 1536(TAB), 1600(TAB), 1664(TAB), %zmm24, %zmm25, %zmm26, %zmm27, %zmm28
        vpaddq  %zmm5, %zmm0, %zmm0
        vpaddq  %zmm6, %zmm1, %zmm1
        vpaddq  %zmm7, %zmm2, %zmm2
        vpaddq  %zmm8, %zmm3, %zmm3
        vpaddq  %zmm9, %zmm4, %zmm4
        vmovdqu64 %zmm0, 0(OUT)
        vmovdqu64 %zmm1, 64(OUT)
        vmovdqu64 %zmm2, 128(OUT)
        vmovdqu64 %zmm3, 192(OUT)
        vmovdqu64 %zmm4, 256(OUT)
        CLEAR
        ret
        .size   simdcrypt_poly1305_avx512, . - simdcrypt_poly1305_avx512

#endif

#if defined(__ELF__)
        .section .note.GNU-stack, "", @progbits
#endif
