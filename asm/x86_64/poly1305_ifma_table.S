/*
 * poly1305_ifma_table.S (x86_64) -- the multiplier table of the radix-2^44 IFMA Poly1305 loop
 * (simdcrypt_poly1305_ifma in poly1305_avx512.S, whose header has the loop's math): the powers
 * r^1..r^16 of the clamped key half r (RFC 8439 sec. 2.5), computed with AVX-512 IFMA
 * (`vpmadd52luq`/`vpmadd52huq`), and r^32, spread into the loop's layout.
 * Safe wrapper: src/poly1305/x86_64_avx512.rs (Tab44::fill).
 *
 * Features: AVX512IFMA, AVX512F and AVX512VL: EVEX-encoded IFMA on ymm, ymm16-31, opmasks,
 * `vpternlogq`, `vpermi2q`. The Rust token Avx512Ifma proves them. No instruction is 512 bits
 * wide: while 512-bit uops are in flight, port 1 takes no vector work, and IFMA and the shifts
 * then issue from port 0 alone (measured on Emerald Rapids: the same code spreading its rows
 * with zmm `vpermi2q` and broadcasting its constants to zmm took 160 TSC ticks per call back
 * to back, on ymm only 100).
 * ABI: System V AMD64 psABI; a leaf that uses only caller-saved registers (rdi, rsi, rax,
 * k1, k2, all vector registers), no stack, and ends by zeroing every vector register
 * (xmm16-31 by EVEX writes, which clear the whole registers, then `vzeroall`): none keeps r or
 * a power of it after the call, and the upper halves are clean as after `vzeroupper`. No
 * general-purpose register holds key material (rax and the opmasks hold constant masks). ELF
 * only.
 *
 * Function (any alignment for both pointers):
 *   void simdcrypt_poly1305_ifma_table(const u64 r[2], u64 tab[4][5][8])
 *       r = r[0] + 2^64 r[1], clamped (so r[1] < 2^60); writes every entry of tab.
 *
 * Table (the loop's): tab[s][i][e], set s, vector i = P0, P1, P2, 20 P1, 20 P2 for the
 * radix-2^44 limbs P0 + 2^44 P1 + 2^88 P2 of the power held by element e:
 *     s = 0: r^16 in every element;
 *     s = 1: r^(16 - pi(e)),  s = 2: r^(8 - pi(e)),  pi = (0, 4, 1, 5, 2, 6, 3, 7),
 * i.e. the exponents are (16, 12, 15, 11, 14, 10, 13, 9) for set 1 and
 * (8, 4, 7, 3, 6, 2, 5, 1) for set 2;
 *     s = 3: r^32 in every element (the loop's steps of two groups).
 *
 * Math. One radix-2^44 product (TMUL) computes, lane by lane, a * b mod p = 2^130 - 5 from
 * the limbs a0..a2 and the multiplier vectors b0, b1, b2, s1 = 20 b1, s2 = 20 b2 (2^132 =
 * 4 * 2^130 = 20 mod p, 2^176 = 20 * 2^44 mod p), with the loop's arithmetic:
 *     D0 = a0 b0 + a1 s2 + a2 s1,   D1 = a0 b1 + a1 b0 + a2 s2,   D2 = a0 b2 + a1 b1 + a2 b0,
 * a * b = D0 + 2^44 D1 + 2^88 D2 (mod p). `vpmadd52luq` adds bits 0..51 of the product of
 * the low 52 bits of its sources, `vpmadd52huq` bits 52..103; D_k = L_k + 2^52 U_k, and the
 * weight 2^52 is 2^8 times the next limb's (above limb 2, 2^140 = 5 * 2^10 mod p):
 *     d0 = L0 + 5 * 2^10 U2,   d1 = L1 + 2^8 U0,   d2 = L2 + 2^8 U1,
 * then the loop's carry pass:
 *     c0 = d0 >> 44, c2 = d2 >> 42;  h0 = (d0 & M44) + 5 c2;  d1 += c0;
 *     c1 = d1 >> 44;  h1 = d1 & M44;  h2 = (d2 & M42) + c1.
 * Unlike the loop (whose sixteen lanes keep the ports busy), TMUL sums each L_k and U_k in
 * two accumulators, two multiply-adds deep instead of three, and adds them: the levels below
 * depend on each other, so latency is what counts here.
 *
 * Powers, in four levels of TMUL (lane j = 0..3 of a ymm vector; B(x) is x in every lane):
 *     V0 = B(r)
 *     V1 = V0 * (r, 1, r, 1)               = (r^2, r, r^2, r)
 *     V2 = V1 * (r^2, r^2, 1, 1)           = (r^4, r^3, r^2, r)      r^2 = lane 0 of V1
 *     E  = V2 * B(r^4)                     = (r^8, r^7, r^6, r^5)    r^4 = lane 0 of V2
 *     F  = E  * B(r^8),  G = V2 * B(r^8):  F = (r^16, r^15, r^14, r^13), G = (r^12, .., r^9)
 * (r^8 = lane 0 of E). Multiplying by 1, the limbs (1, 0, 0) with s1 = s2 = 0, only carries
 * the lane again; the mixed multipliers are masked broadcasts over a broadcast 1. A row of the
 * table interleaves the lanes of two such vectors, (x0, y0, x1, y1, x2, y2, x3, y3), which is
 * the table's element order:
 *     set 2 = ilv(E, V2) = (8, 4, 7, 3, 6, 2, 5, 1),  set 1 = ilv(F, G) = (16, 12, 15, 11, ..),
 * each row stored as two ymm halves (one `vpermi2q` each); set 0 broadcasts lane 0 of F
 * (r^16). 20 x = 2^4 x + 2^2 x. The chain is four products deep (r -> r^2 -> r^4 -> r^8 ->
 * r^16, the least for r^16), each level one product of 4 lanes (two at the last). A fifth
 * level squares set 0: set 3 = B(r^16) * B(r^16) = B(r^32) (every lane the same).
 *
 * Bounds. Call limbs (a0, a1, a2) "small" if a0 < 2^44 + 2^16, a1 < 2^44, a2 < 2^42 + 2^16.
 * The limbs of r are small (r0, r1 < 2^44 by the mask, r2 = r[1] >> 24 < 2^36), and so is the
 * constant 1. For small a and b: b0 < 2^44.01, s1 < 20 * 2^44 < 2^48.33, s2 < 2^46.34: every
 * IFMA source is below 2^52, so the 52-bit products are the exact ones. Each product is
 * below 2^44.01 * 2^48.33 < 2^92.4; its high part (>> 52) below 2^40.4, its low part below
 * 2^52, so U0 < 2^36.1 + 2^38.4 + 2^38.4 < 2^39.5, U1 < 2^36.1 + 2^36.1 + 2^36.4 < 2^38,
 * U2 < 2^34.1 + 2^36 + 2^34.1 < 2^36.6 and each L_k < 3 * 2^52 < 2^53.6 (no 64-bit
 * overflow in any partial sum); d0 < 2^53.6 + 5 * 2^46.6 < 2^53.7,
 * d1 < 2^53.6 + 2^47.5 < 2^53.7, d2 < 2^53.6 + 2^46 < 2^53.7. Then c0 < 2^9.7, c2 < 2^11.7,
 * h0 < 2^44 + 5 * 2^11.7 < 2^44 + 2^14, c1 <= (2^53.7 + 2^9.7) >> 44 < 2^9.8, h1 < 2^44,
 * h2 < 2^42 + 2^10: small again, at every level. So every table entry has
 * P0 < 2^44 + 2^14, P1 < 2^44, P2 < 2^42 + 2^10 (P1, P2 as `mul44` in the wrapper leaves
 * them, P0 at most 2^14 above), and 20 P1 < 2^48.33, 20 P2 < 2^46.4 exactly (no wrap-around):
 * the loop's multipliers are below 2^48.4 and its sources below 2^52, as its bounds need.
 *
 * Nothing branches on or indexes memory by r.
 *
 * Registers:
 *   rdi  r    rsi  TAB    rax  mask constants    k1 = lanes 0, 2    k2 = lanes 0, 1
 *   ymm0-2 V0, ymm3-7 the multiplier vectors (b0 b1 b2 s1 s2), ymm8-10 V1, ymm11-13 V2,
 *   ymm14-16 E, ymm17-19 F, ymm20-22 G (each TMUL leaves its result in its L registers);
 *   TMUL scratch: U ymm23-25 (ymm0-2 for G), second accumulators ymm17-22 (levels 1-3) and
 *   ymm8-10, ymm26, ymm30-31 (level 4); ymm26, ymm29 the `vpermi2q` indices of the low and
 *   high halves (ymm29 is B(1) until level 2), ymm27 M44, ymm28 M42, ymm30-31 scratch of X20;
 *   level 5 reads set 0's multipliers (ymm10, ymm23, ymm24, ymm25, ymm3) and leaves r^32 in
 *   ymm0-2 (scratch ymm4-9, ymm11-13; 20 P1, 20 P2 in ymm14, ymm15).
 */

#if defined(__ELF__) && defined(__x86_64__)

#include "cet.h"

#define R       %rdi
#define TAB     %rsi

        .section .rodata
        .p2align 3
.Ltm44: .quad   0xfffffffffff
.Ltm42: .quad   0x3ffffffffff
.Ltone: .quad   1
/* vpermi2q indices (bit 2 picks the second table): the low and the high half of a row,
 * (a0, b0, a1, b1) and (a2, b2, a3, b3) */
.Ltilo: .byte   0, 4, 1, 5
.Ltihi: .byte   2, 6, 3, 7

        .text

/* FIN44 (poly1305_radix44.h): the combination and carry of a radix-2^44 product. */
#include "poly1305_radix44.h"

/* TMUL a0,a1,a2, b0,b1,b2,s1,s2, l0,l1,l2, u0,u1,u2, w0,w1,w2, v0,v1,v2: (l0,l1,l2) <- a * b
 * carried (see the header); u, w, v scratch. Each sum of three products is split into two
 * accumulators, l_k (or u_k) for the two with a0, a1 and w_k (or v_k) for the one with a2,
 * added afterwards: two multiply-adds deep instead of three; the products with s1, s2 (two
 * shifts and an add behind b1, b2) come second in their chains. */
.macro TMUL a0, a1, a2, b0, b1, b2, s1, s2, l0, l1, l2, u0, u1, u2, w0, w1, w2, v0, v1, v2
        vpxorq  \l0, \l0, \l0
        vpxorq  \l1, \l1, \l1
        vpxorq  \l2, \l2, \l2
        vpxorq  \u0, \u0, \u0
        vpxorq  \u1, \u1, \u1
        vpxorq  \u2, \u2, \u2
        vpxorq  \w0, \w0, \w0
        vpxorq  \w1, \w1, \w1
        vpxorq  \w2, \w2, \w2
        vpxorq  \v0, \v0, \v0
        vpxorq  \v1, \v1, \v1
        vpxorq  \v2, \v2, \v2
        vpmadd52luq \b0, \a0, \l0
        vpmadd52huq \b0, \a0, \u0
        vpmadd52luq \b1, \a0, \l1
        vpmadd52huq \b1, \a0, \u1
        vpmadd52luq \b2, \a0, \l2
        vpmadd52huq \b2, \a0, \u2
        vpmadd52luq \b0, \a2, \w2
        vpmadd52huq \b0, \a2, \v2
        vpmadd52luq \b0, \a1, \l1
        vpmadd52huq \b0, \a1, \u1
        vpmadd52luq \b1, \a1, \l2
        vpmadd52huq \b1, \a1, \u2
        vpmadd52luq \s1, \a2, \w0
        vpmadd52huq \s1, \a2, \v0
        vpmadd52luq \s2, \a2, \w1
        vpmadd52huq \s2, \a2, \v1
        vpmadd52luq \s2, \a1, \l0
        vpmadd52huq \s2, \a1, \u0
        vpaddq  \v1, \u1, \u1                         /* U1 */
        vpaddq  \v2, \u2, \u2                         /* U2 */
        vpaddq  \v0, \u0, \u0                         /* U0 */
        vpaddq  \w2, \l2, \l2                         /* L2 */
        vpaddq  \w1, \l1, \l1                         /* L1 */
        vpaddq  \w0, \l0, \l0                         /* L0 */
        FIN44   \l0, \l1, \l2, \l0, \l1, \l2, \u0, \u1, \u2, %ymm27, %ymm28
.endm

/* X20 x, d, t: d = 20 x = 2^4 x + 2^2 x (t scratch). */
.macro X20 x, d, t
        vpsllq  $4, \x, \d
        vpsllq  $2, \x, \t
        vpaddq  \t, \d, \d
.endm

/* MULTS p0, p1, p2: the multiplier vectors ymm3-7 = B(p), p the power whose limbs are lane 0
 * of the xmm registers p0..p2. */
.macro MULTS p0, p1, p2
        vpbroadcastq \p0, %ymm3
        vpbroadcastq \p1, %ymm4
        vpbroadcastq \p2, %ymm5
        X20     %ymm4, %ymm6, %ymm30
        X20     %ymm5, %ymm7, %ymm31
.endm

/* MULTSM p0, p1, p2, k: as MULTS in the lanes of opmask k, the constant 1 in the others
 * (b0 = 1, b1 = b2 = s1 = s2 = 0). */
.macro MULTSM p0, p1, p2, k
        vmovdqa64 %ymm29, %ymm3
        vpbroadcastq \p0, %ymm3{\k}
        vpbroadcastq \p1, %ymm4{\k}{z}
        vpbroadcastq \p2, %ymm5{\k}{z}
        X20     %ymm4, %ymm6, %ymm30
        X20     %ymm5, %ymm7, %ymm31
.endm

/* ILV a, b, lo, hi: the row (a0, b0, a1, b1, a2, b2, a3, b3) as its halves lo and hi. */
.macro ILV a, b, lo, hi
        vmovdqa64 %ymm26, \lo
        vpermi2q \b, \a, \lo
        vmovdqa64 %ymm29, \hi
        vpermi2q \b, \a, \hi
.endm

/* ROW lo, hi, off: stores the row with halves lo, hi at TAB + off. */
.macro ROW lo, hi, off
        vmovdqu64 \lo, \off(TAB)
        vmovdqu64 \hi, \off+32(TAB)
.endm

/* CLEAR (vec_clear.h): zeroes every vector register. */
#include "vec_clear.h"

        .globl  simdcrypt_poly1305_ifma_table
        .hidden simdcrypt_poly1305_ifma_table
        .type   simdcrypt_poly1305_ifma_table, @function
        .p2align 5
simdcrypt_poly1305_ifma_table:
        ENDBR
        vpbroadcastq .Ltm44(%rip), %ymm27
        vpbroadcastq .Ltm42(%rip), %ymm28
        vpbroadcastq .Ltone(%rip), %ymm29
        movl    $0x5, %eax
        kmovw   %eax, %k1
        movl    $0x3, %eax
        kmovw   %eax, %k2
        /* the limbs of r in lane 0: r0 = lo & M44, r1 = (lo >> 44 | hi << 20) & M44,
         * r2 = hi >> 24 */
        vmovq   0(R), %xmm0
        vmovq   8(R), %xmm2
        vpsrlq  $44, %xmm0, %xmm1
        vpsllq  $20, %xmm2, %xmm3
        vpternlogq $0xa8, %xmm27, %xmm3, %xmm1          /* (xmm1 | xmm3) & M44 */
        vpandq  %xmm27, %xmm0, %xmm0
        vpsrlq  $24, %xmm2, %xmm2
        /* V1 = B(r) * (r, 1, r, 1) */
        MULTSM  %xmm0, %xmm1, %xmm2, %k1
        vpbroadcastq %xmm0, %ymm0
        vpbroadcastq %xmm1, %ymm1
        vpbroadcastq %xmm2, %ymm2
        TMUL    %ymm0, %ymm1, %ymm2, \
                %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, \
                %ymm8, %ymm9, %ymm10, %ymm23, %ymm24, %ymm25, \
                %ymm17, %ymm18, %ymm19, %ymm20, %ymm21, %ymm22
        /* V2 = V1 * (r^2, r^2, 1, 1) */
        MULTSM  %xmm8, %xmm9, %xmm10, %k2
        TMUL    %ymm8, %ymm9, %ymm10, \
                %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, \
                %ymm11, %ymm12, %ymm13, %ymm23, %ymm24, %ymm25, \
                %ymm17, %ymm18, %ymm19, %ymm20, %ymm21, %ymm22
        /* E = V2 * B(r^4) (ymm29 no longer needs 1) */
        vpmovzxbq .Ltihi(%rip), %ymm29
        MULTS   %xmm11, %xmm12, %xmm13
        TMUL    %ymm11, %ymm12, %ymm13, \
                %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, \
                %ymm14, %ymm15, %ymm16, %ymm23, %ymm24, %ymm25, \
                %ymm17, %ymm18, %ymm19, %ymm20, %ymm21, %ymm22
        /* F = E * B(r^8), G = V2 * B(r^8) */
        MULTS   %xmm14, %xmm15, %xmm16
        TMUL    %ymm14, %ymm15, %ymm16, \
                %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, \
                %ymm17, %ymm18, %ymm19, %ymm23, %ymm24, %ymm25, \
                %ymm8, %ymm9, %ymm10, %ymm26, %ymm30, %ymm31
        TMUL    %ymm11, %ymm12, %ymm13, \
                %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, \
                %ymm20, %ymm21, %ymm22, %ymm0, %ymm1, %ymm2, \
                %ymm8, %ymm9, %ymm10, %ymm26, %ymm30, %ymm31
        /* set 2 = ilv(E, V2) */
        vpmovzxbq .Ltilo(%rip), %ymm26
        ILV     %ymm14, %ymm11, %ymm0, %ymm1
        ILV     %ymm15, %ymm12, %ymm2, %ymm3
        ILV     %ymm16, %ymm13, %ymm4, %ymm5
        X20     %ymm2, %ymm6, %ymm30
        X20     %ymm3, %ymm7, %ymm31
        X20     %ymm4, %ymm8, %ymm30
        X20     %ymm5, %ymm9, %ymm31
        ROW     %ymm0, %ymm1, 640
        ROW     %ymm2, %ymm3, 704
        ROW     %ymm4, %ymm5, 768
        ROW     %ymm6, %ymm7, 832
        ROW     %ymm8, %ymm9, 896
        /* set 0 = B(r^16), r^16 = lane 0 of F */
        vpbroadcastq %xmm17, %ymm10
        vpbroadcastq %xmm18, %ymm23
        vpbroadcastq %xmm19, %ymm24
        X20     %ymm23, %ymm25, %ymm30
        X20     %ymm24, %ymm3, %ymm31
        ROW     %ymm10, %ymm10, 0
        ROW     %ymm23, %ymm23, 64
        ROW     %ymm24, %ymm24, 128
        ROW     %ymm25, %ymm25, 192
        ROW     %ymm3, %ymm3, 256
        /* set 1 = ilv(F, G) */
        ILV     %ymm17, %ymm20, %ymm11, %ymm12
        ILV     %ymm18, %ymm21, %ymm13, %ymm14
        ILV     %ymm19, %ymm22, %ymm15, %ymm16
        X20     %ymm13, %ymm5, %ymm30
        X20     %ymm14, %ymm6, %ymm31
        X20     %ymm15, %ymm7, %ymm30
        X20     %ymm16, %ymm8, %ymm31
        ROW     %ymm11, %ymm12, 320
        ROW     %ymm13, %ymm14, 384
        ROW     %ymm15, %ymm16, 448
        ROW     %ymm5, %ymm6, 512
        ROW     %ymm7, %ymm8, 576
        /* set 3 = B(r^32) = B(r^16) * B(r^16) (the multipliers of set 0 still in ymm10,
         * ymm23, ymm24, ymm25, ymm3) */
        TMUL    %ymm10, %ymm23, %ymm24, \
                %ymm10, %ymm23, %ymm24, %ymm25, %ymm3, \
                %ymm0, %ymm1, %ymm2, %ymm4, %ymm5, %ymm6, \
                %ymm7, %ymm8, %ymm9, %ymm11, %ymm12, %ymm13
        X20     %ymm1, %ymm14, %ymm30
        X20     %ymm2, %ymm15, %ymm31
        ROW     %ymm0, %ymm0, 960
        ROW     %ymm1, %ymm1, 1024
        ROW     %ymm2, %ymm2, 1088
        ROW     %ymm14, %ymm14, 1152
        ROW     %ymm15, %ymm15, 1216
        CLEAR
        ret
        .size   simdcrypt_poly1305_ifma_table, . - simdcrypt_poly1305_ifma_table

#endif

#if defined(__ELF__)
        .section .note.GNU-stack, "", @progbits
#endif
