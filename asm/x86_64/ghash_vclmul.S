/*
 * ghash_vclmul.S (x86_64) -- GHASH (NIST SP 800-38D sec. 6.4) with VPCLMULQDQ on 512-bit
 * (zmm) and 256-bit (ymm) registers, 16 blocks per reduction. Safe wrapper:
 * src/ghash/x86_64_vclmul.rs.
 *
 * Features: simdcrypt_ghash_vclmul256 needs VPCLMULQDQ, PCLMULQDQ, AVX and AVX2 (VEX-encoded,
 * ymm0-15); simdcrypt_ghash_vclmul512 also AVX512F, AVX512VL and AVX512BW (EVEX-encoded,
 * zmm0-31, `vpshufb` on zmm and on xmm16+, `vpternlogd`, `vextracti64x4`). The Rust tokens
 * VpclmulAvx2 and VpclmulAvx512 prove them. ABI: System V AMD64 psABI; both functions are
 * leaves that use only caller-saved registers (rdi, rsi, rdx, rcx, all vector registers), no
 * stack, and end with CLEAR / CLEAR_AVX (vec_clear.h). ELF only (the wrapper is compiled for Linux and the BSDs).
 *
 * Functions (any alignment for every pointer; nblocks % 16 == 0, 0 allowed):
 *   void simdcrypt_ghash_vclmul512(u8 y[16], const struct powers *p, const u8 *data, size_t nblocks)
 *   void simdcrypt_ghash_vclmul256(u8 y[16], const struct powers *p, const u8 *data, size_t nblocks)
 * Both compute y <- (...((y ^ X_1) H ^ X_2) H ... ^ X_n) H over the n = nblocks blocks X_i
 * at data, with y and the blocks in SP 800-38D byte order.
 *
 * Math (src/ghash/x86_64_clmul.rs has the derivation). R(a) is a block byte-reversed
 * (`vpshufb` with .Lbswap per 128-bit lane) and read as a little-endian 128-bit integer: the
 * coefficient of x^k sits at bit 127 - k. struct powers is the Rust `Powers`, 512 bytes:
 *     h[i], i = 0..15, at 16 i:        R(H^(16-i) x^-1 mod g)   (low qword first)
 *     k[i], i = 0..15, at 256 + 16 i:  h[i].lo ^ h[i].hi in both qwords
 * so a register loaded from h[4r..4r+3] (zmm) or h[2r..2r+1] (ymm) holds, lane by lane, the
 * powers that blocks 4r.. (2r..) of a 16-block group are multiplied by:
 *     Y' = (Y ^ X_0) H^16 ^ X_1 H^15 ^ ... ^ X_15 H      (aggregated, SP 800-38D sec. 6.4
 *                                                          unrolled 16 times)
 * The 255-bit products are summed unreduced in three accumulators per lane, LO (a0 b0),
 * MID (a0 b1 ^ a1 b0, at 2^64) and HI (a1 b1, at 2^128), then reduced once per group, lane
 * by lane (the reduction is linear), by two Montgomery steps by
 * G = 2^128 + 2^127 + 2^126 + 2^121 + 1 (g = x^128 + x^7 + x^2 + x + 1 bit-reversed), with
 * c = 0xc2000000_00000000 = (G - 2^128 - 1) / 2^64 (.Lpoly, low qword of each lane):
 *     MID ^= clmul(LO.lo, c) ^ swap64(LO)        clears qword 0
 *     RES  = HI ^ clmul(MID.lo, c) ^ swap64(MID)  clears qword 1; RES = R(lane's sum)
 * and the lanes are XORed together into the new Y.
 * zmm: schoolbook products (4 vpclmulqdq per register: imm 0x00, 0x11, 0x01, 0x10); on
 * 512-bit registers every shuffle shares port 5 with vpclmulqdq, so Karatsuba's extra
 * shuffle would cost what it saves. ymm: Karatsuba (3 vpclmulqdq per register, the third on
 * X ^ swap64(X) and k), whose shuffle runs on another port.
 *
 * Nothing branches on or indexes memory by H, Y or the data; only nblocks steers the loop.
 *
 * Registers:
 *   rdi  Y pointer    rsi  POW (struct powers)    rdx  DATA    rcx  NBLK (blocks left)
 *   vclmul512: zmm0-3 blocks, zmm4 Y (lane 0; other lanes zero), zmm5 LO, zmm6 HI, zmm7 MID,
 *              zmm8-11 products, zmm16-19 h[0..15], zmm20 BSWAP, zmm21 POLY
 *   vclmul256: ymm0 block, ymm1 X ^ swap64(X), ymm2-3 products, ymm4 Y (lane 0), ymm5 LO,
 *              ymm6 HI, ymm7 MID, ymm14 BSWAP, ymm15 POLY; h and k read from memory
 */

#if defined(__ELF__) && defined(__x86_64__)

#include "cet.h"
/* CLEAR, CLEAR_AVX (vec_clear.h): the register-scrubbing policy. */
#include "vec_clear.h"

#define YP      %rdi
#define POW     %rsi
#define DATA    %rdx
#define NBLK    %rcx

        .section .rodata
        .p2align 4
/* vpshufb mask reversing the 16 bytes of each lane. */
.Lbswap:
        .byte   15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
/* The reduction constant c in the low qword of each lane. */
.Lpoly:
        .quad   0xc200000000000000, 0

        .text

/* MUL4 h, x: the four schoolbook products of zmm \x by zmm \h into zmm8-11, accumulated. */
.macro MUL4_ACC h, x
        vpclmulqdq $0x00, \h, \x, %zmm8
        vpclmulqdq $0x11, \h, \x, %zmm9
        vpclmulqdq $0x01, \h, \x, %zmm10
        vpclmulqdq $0x10, \h, \x, %zmm11
        vpxorq  %zmm8, %zmm5, %zmm5
        vpxorq  %zmm9, %zmm6, %zmm6
        vpternlogd $0x96, %zmm11, %zmm10, %zmm7
.endm

        .globl  simdcrypt_ghash_vclmul512
        .hidden simdcrypt_ghash_vclmul512
        .type   simdcrypt_ghash_vclmul512, @function
        .p2align 5
simdcrypt_ghash_vclmul512:
        ENDBR
        vbroadcasti32x4 .Lbswap(%rip), %zmm20
        vbroadcasti32x4 .Lpoly(%rip), %zmm21
        vmovdqu64 (YP), %xmm4
        vpshufb %xmm20, %xmm4, %xmm4            /* R(Y); the upper lanes are zeroed */
        testq   NBLK, NBLK
        jz      .Ldone512
        vmovdqu64 0(POW), %zmm16                /* H^16 H^15 H^14 H^13 */
        vmovdqu64 64(POW), %zmm17               /* H^12 .. H^9 */
        vmovdqu64 128(POW), %zmm18              /* H^8 .. H^5 */
        vmovdqu64 192(POW), %zmm19              /* H^4 .. H^1 */
        .p2align 4
.Lloop512:
        vmovdqu64 0(DATA), %zmm0
        vmovdqu64 64(DATA), %zmm1
        vmovdqu64 128(DATA), %zmm2
        vmovdqu64 192(DATA), %zmm3
        vpshufb %zmm20, %zmm1, %zmm1
        vpshufb %zmm20, %zmm2, %zmm2
        vpshufb %zmm20, %zmm3, %zmm3
        vpshufb %zmm20, %zmm0, %zmm0
        /* Blocks 4..15 do not depend on Y: start them first. */
        vpclmulqdq $0x00, %zmm17, %zmm1, %zmm5
        vpclmulqdq $0x11, %zmm17, %zmm1, %zmm6
        vpclmulqdq $0x01, %zmm17, %zmm1, %zmm7
        vpclmulqdq $0x10, %zmm17, %zmm1, %zmm8
        vpxorq  %zmm8, %zmm7, %zmm7
        MUL4_ACC %zmm18, %zmm2
        MUL4_ACC %zmm19, %zmm3
        vpxorq  %zmm4, %zmm0, %zmm0             /* X_0 ^ Y */
        MUL4_ACC %zmm16, %zmm0
        /* Reduce every lane: MID ^= clmul(LO.lo, c) ^ swap64(LO). */
        vpclmulqdq $0x00, %zmm21, %zmm5, %zmm8
        vpshufd $0x4e, %zmm5, %zmm5
        vpternlogd $0x96, %zmm8, %zmm5, %zmm7
        /* HI ^= clmul(MID.lo, c) ^ swap64(MID): the reduced value of each lane. */
        vpclmulqdq $0x00, %zmm21, %zmm7, %zmm8
        vpshufd $0x4e, %zmm7, %zmm7
        vpternlogd $0x96, %zmm8, %zmm7, %zmm6
        /* Y = lane 0 ^ lane 1 ^ lane 2 ^ lane 3 (the VEX xor zeroes the upper lanes). */
        vextracti64x4 $1, %zmm6, %ymm7
        vpxor   %ymm7, %ymm6, %ymm6
        vextracti128 $1, %ymm6, %xmm7
        vpxor   %xmm7, %xmm6, %xmm4
        addq    $256, DATA
        subq    $16, NBLK
        jnz     .Lloop512
.Ldone512:
        vpshufb %xmm20, %xmm4, %xmm4
        vmovdqu64 %xmm4, (YP)
        CLEAR
        ret
        .size   simdcrypt_ghash_vclmul512, . - simdcrypt_ghash_vclmul512

/* KMUL_ACC off: block pair at DATA + off times h/k pair at POW + off, Karatsuba, accumulated. */
.macro KMUL_ACC off
        vmovdqu \off(DATA), %ymm0
        vpshufb %ymm14, %ymm0, %ymm0
        vpshufd $0x4e, %ymm0, %ymm1
        vpxor   %ymm0, %ymm1, %ymm1
        vpclmulqdq $0x00, \off(POW), %ymm0, %ymm2
        vpclmulqdq $0x11, \off(POW), %ymm0, %ymm3
        vpxor   %ymm2, %ymm5, %ymm5
        vpxor   %ymm3, %ymm6, %ymm6
        vpclmulqdq $0x00, 256+\off(POW), %ymm1, %ymm2
        vpxor   %ymm2, %ymm7, %ymm7
.endm

        .globl  simdcrypt_ghash_vclmul256
        .hidden simdcrypt_ghash_vclmul256
        .type   simdcrypt_ghash_vclmul256, @function
        .p2align 5
simdcrypt_ghash_vclmul256:
        ENDBR
        vbroadcasti128 .Lbswap(%rip), %ymm14
        vbroadcasti128 .Lpoly(%rip), %ymm15
        vmovdqu (YP), %xmm4
        vpshufb %xmm14, %xmm4, %xmm4            /* R(Y); the upper lane is zeroed */
        testq   NBLK, NBLK
        jz      .Ldone256
        .p2align 4
.Lloop256:
        vpxor   %xmm5, %xmm5, %xmm5
        vpxor   %xmm6, %xmm6, %xmm6
        vpxor   %xmm7, %xmm7, %xmm7
        /* Blocks 2..15 first (they do not depend on Y), then blocks 0-1 with Y. */
        .irp off, 32, 64, 96, 128, 160, 192, 224
        KMUL_ACC \off
        .endr
        vmovdqu 0(DATA), %ymm0
        vpshufb %ymm14, %ymm0, %ymm0
        vpxor   %ymm4, %ymm0, %ymm0             /* X_0 ^ Y */
        vpshufd $0x4e, %ymm0, %ymm1
        vpxor   %ymm0, %ymm1, %ymm1
        vpclmulqdq $0x00, 0(POW), %ymm0, %ymm2
        vpclmulqdq $0x11, 0(POW), %ymm0, %ymm3
        vpxor   %ymm2, %ymm5, %ymm5
        vpxor   %ymm3, %ymm6, %ymm6
        vpclmulqdq $0x00, 256(POW), %ymm1, %ymm2
        vpxor   %ymm2, %ymm7, %ymm7
        /* Karatsuba: MID = (x0^x1)(h0^h1) ^ LO ^ HI = x0 h1 ^ x1 h0. */
        vpxor   %ymm5, %ymm7, %ymm7
        vpxor   %ymm6, %ymm7, %ymm7
        /* Reduce both lanes (see the header). */
        vpclmulqdq $0x00, %ymm15, %ymm5, %ymm2
        vpshufd $0x4e, %ymm5, %ymm5
        vpxor   %ymm2, %ymm7, %ymm7
        vpxor   %ymm5, %ymm7, %ymm7
        vpclmulqdq $0x00, %ymm15, %ymm7, %ymm2
        vpshufd $0x4e, %ymm7, %ymm7
        vpxor   %ymm2, %ymm6, %ymm6
        vpxor   %ymm7, %ymm6, %ymm6
        /* Y = lane 0 ^ lane 1. */
        vextracti128 $1, %ymm6, %xmm7
        vpxor   %xmm7, %xmm6, %xmm4
        addq    $256, DATA
        subq    $16, NBLK
        jnz     .Lloop256
.Ldone256:
        vpshufb %xmm14, %xmm4, %xmm4
        vmovdqu %xmm4, (YP)
        CLEAR_AVX
        ret
        .size   simdcrypt_ghash_vclmul256, . - simdcrypt_ghash_vclmul256

#endif

#if defined(__ELF__)
        .section .note.GNU-stack, "", @progbits
#endif
