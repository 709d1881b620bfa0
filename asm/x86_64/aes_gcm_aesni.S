/*
 * aes_gcm_aesni.S (x86_64) -- stitched AES-GCM (NIST SP 800-38D sec. 7.1, 7.2): counter-mode
 * AES with AES-NI and GHASH with PCLMULQDQ, both on 128-bit (xmm) registers, interleaved in
 * one loop of 8 blocks, for CPUs with AES-NI, PCLMULQDQ and AVX but without VAES (Intel Sandy
 * Bridge to Cascade Lake, AMD Zen 1 and 2). Whole blocks only: groups of 8, then one partial
 * group of 1-7 blocks. Safe wrapper: src/aead/aes_gcm/x86_64_aesni.rs.
 *
 * Features: AES-NI, PCLMULQDQ, AVX (every instruction is VEX.128-encoded: `vaesenc`,
 * `vpclmulqdq`, `vpshufb`, ... on xmm0-15, three operands, unaligned memory operands). The
 * Rust tokens AesNi, Clmul and Avx prove them. ABI: System V AMD64 psABI; both functions
 * are leaves that use only caller-saved registers (rax, rdx, rcx, rsi, rdi, r8-r11,
 * xmm0-15), no stack, and end with
 * CLEAR_AVX (vec_clear.h: `vzeroall`, so no round key, H power or keystream is left).
 * ELF only (the wrapper is compiled for Linux and the BSDs).
 *
 * Functions (any alignment for every pointer; any nblocks >= 8):
 *   void simdcrypt_aes_gcm_enc_aesni(const u8 rk[240], size_t nr, struct state *st,
 *                                    u8 *data, size_t nblocks, const struct powers *p)
 *   void simdcrypt_aes_gcm_dec_aesni(same arguments)
 * struct state (32 bytes) is { u8 y[16]; u8 ctr[16]; }: the running GHASH value Y and the next
 * counter block, both in SP 800-38D byte order; on return both are advanced past the data
 * (the counter by nblocks, inc32). A call may be followed by more text of the same message
 * (the wrapper does a final partial block from the state).
 * enc: data <- data ^ keystream (in place), then Y <- GHASH(Y, the ciphertext written).
 * dec: Y <- GHASH(Y, the ciphertext read), data <- data ^ keystream (in place).
 *
 * Data layouts are those of the two kernels this stitches (read their headers):
 * - rk: the AES-NI encryption schedule (src/aes/x86_64_aesni.rs), k[0..=Nr], 16 bytes each in
 *   FIPS 197 byte order, Nr = 10, 12 or 14. The last round ends with AddRoundKey, so
 *   aesenclast(x, k ^ d) = aesenclast(x, k) ^ d: the XOR of the keystream with the data
 *   rides on the last round key.
 * - p: struct powers of src/ghash/x86_64_clmul.rs, 512 bytes: h[i] = R(H^(16-i) x^-1 mod g) at
 *   16 i and k[i] = h[i].lo ^ h[i].hi in both qwords at 256 + 16 i, i = 0..15 (R = byte-
 *   reversed block read as a little-endian integer; "twisted" powers). An 8-block group
 *   multiplies its block j by h[8 + j] = R(H^(8-j) x^-1), with the Karatsuba middle operand
 *   k[8 + j]. The multiply-and-reduce is that kernel's (its module docs derive it):
 *       Y' = (Y ^ X_0) H^8 ^ X_1 H^7 ^ ... ^ X_7 H        (SP 800-38D sec. 6.4, unrolled)
 *   with the products summed unreduced by Karatsuba: LO (a0 b0), HI (a1 b1) and
 *   MID' ((a0 ^ a1)(b0 ^ b1)); MID = MID' ^ LO ^ HI = a0 b1 ^ a1 b0. Then one reduction per
 *   group, two Montgomery steps with c = 0xc2000000_00000000 (the bits of
 *   x^128 + x^7 + x^2 + x + 1 reversed, over 2^64):
 *       MID ^= clmul(LO.lo, c) ^ swap64(LO);  Y' = HI ^ clmul(MID.lo, c) ^ swap64(MID).
 *
 * Counter (SP 800-38D sec. 6.2, 6.5): GCTR increments only the low 32 bits of the counter
 * block (inc32), its bytes 12..15, big-endian. Byte-reversing the block puts them in dword 0
 * as a little-endian integer, so counter + i is a `vpaddd` of i to dword 0 (mod 2^32, exactly
 * inc32; the other dwords are untouched) and a `vpshufb` back. CUR holds the next counter so
 * reversed, CLO its low word as a native integer. While the 8 counters of a group do not
 * carry out of their last byte (CTR_WHITEN), they are one `vpshufb` and seven `vpaddd` of
 * i << 24 to dword 3 (byte 15) instead.
 *
 * Partial group (r = nblocks % 8 > 0, last): the AES rounds run on 8 counter blocks as in
 * a whole group, but only the first r keystream blocks are used (TAIL_LAST: each block's
 * XOR and store behind a branch on r) and the counter advances by r; the GHASH multiplies
 * its block j by h[16 - r + j] = R(H^(r-j) x^-1) (the table base moves down by 16 (8 - r)
 * bytes: PTAIL), each block behind a branch on r. enc runs the partial group's AES beside
 * the GHASH of the last whole group and its GHASH alone after it; dec runs both together.
 *
 * Schedule. One iteration runs the rounds of 8 counter blocks (S0-S7) and between them the
 * GHASH of 8 ciphertext blocks, a pair of blocks (GH_PAIR) after the whitening and after
 * rounds 2, 4 and 6, the reduction after rounds 8 and 9: `aesenc` and `pclmulqdq` go to different
 * ports (on Intel cores AES to p0, or p0 and p1 from Ice Lake on, PCLMULQDQ to p5, by the
 * published port tables; there are no performance counters on the development VM), so the
 * GHASH runs beside the AES rounds, and 8 independent blocks cover the latency of `aesenc`.
 * 16 xmm registers: the AES state takes eight, the round key one, the GHASH five (LO, HI,
 * MID, the block X and two scratch: T1, T2) and the counter one, so the constants
 * (byte-reversal mask, c, counter steps) and the powers are memory operands, and the
 * ciphertext is hashed from memory: enc hashes the previous group's (just stored at
 * DATA - 128, still in L1; the loads are forwarded from the stores), so it runs one group of
 * AES alone first and one group of GHASH alone last; dec hashes the group it is about to
 * decrypt (at DATA), with no lag. The last round reads the data again as a memory operand.
 * Y is kept between groups in HI. The loop issues about 180 vector instructions per 8 blocks
 * for AES-128 (80 `aesenc`, 8 `aesenclast`, 26 `pclmulqdq`, the rest XORs, shuffles and
 * counter adds), and runs at about the rate of that count over the three vector ports, so
 * the count is what to cut: making the Karatsuba middle operands of a block pair with two
 * unpacks and one XOR instead of two shuffles and two XORs (GH_PAIR) took 1-3% off. (A
 * schoolbook product, 4 `pclmulqdq` and 4 XORs per block, would count the same as
 * Karatsuba's; not tried.) Measured on the Emerald Rapids development machine with VAES and
 * VPCLMULQDQ masked (13-byte AAD, same process, best of 7): 16 KiB AES-128 seal 2.06-2.12
 * us against 2.44-2.50 for the separate AES-NI CTR and PCLMULQDQ passes (about 1.17x),
 * AES-256 2.48-2.52 against 3.08-3.16 (1.24x); open within 4% of seal.
 *
 * Nothing branches on or indexes memory by key, H, Y or data. The branches depend on Nr, the
 * block count (and r) and (CTR_WHITEN) the low byte of the counter, which the caller must
 * keep public: the wrapper runs this only for 96-bit IVs, whose counter blocks are
 * nonce || count.
 *
 * Registers:
 *   rdi RK   rsi NR   rdx ST (state)   rcx DATA   r9 POW
 *   r8   NBLK blocks left in whole groups; after them PTAIL, the partial group's powers
 *   rax  R    r = nblocks % 8, the partial group's block count
 *   r10d CLO  the low 32 bits of the next counter block, native byte order
 *   r11  16 Nr, the offset of k[Nr] (scratch in TAIL_LAST, after the last round key)
 *   xmm0-7   S0-S7   AES state (one block each)
 *   xmm8     KEY     round key
 *   xmm9     LO      xmm10 HI (and R(Y) between groups)
 *   xmm11    MID     xmm12 X (R(block))   xmm13 T1   xmm14 T2
 *   xmm15    CUR     next counter (reversed)
 */

#if defined(__ELF__) && defined(__x86_64__)

#include "cet.h"
/* CLEAR, CLEAR_AVX (vec_clear.h): the register-scrubbing policy. */
#include "vec_clear.h"

#define RK      %rdi
#define NR      %rsi
#define ST      %rdx
#define DATA    %rcx
#define NBLK    %r8
#define PTAIL   %r8
#define R       %rax
#define RD      %eax
#define POW     %r9
#define CLO     %r10d
#define CLOB    %r10b
#define KLOFF   %r11

#define BSW     .Lbswap(%rip)
#define POLY    .Lpoly(%rip)

#define S0      %xmm0
#define S1      %xmm1
#define S2      %xmm2
#define S3      %xmm3
#define S4      %xmm4
#define S5      %xmm5
#define S6      %xmm6
#define S7      %xmm7
#define KEY     %xmm8
#define LO      %xmm9
#define HI      %xmm10
#define MID     %xmm11
#define X       %xmm12
#define T1      %xmm13
#define T2      %xmm14
#define CUR     %xmm15

        .section .rodata
        .p2align 4
/* vpshufb mask reversing the 16 bytes of a register. */
.Lbswap:
        .byte   15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
/* The reduction constant c in the low qword. */
.Lpoly:
        .quad   0xc200000000000000, 0
/* Counter steps in dword 0: 1 block, 8 (one group). */
.Linc1:
        .long   1, 0, 0, 0
.Linc8:
        .long   8, 0, 0, 0
/* .Lbe+16(i-1): i << 24 in dword 3, i = 1..7: i added to byte 15 of a big-endian counter
 * block. */
.Lbe:
        .irp i, 1, 2, 3, 4, 5, 6, 7
        .long   0, 0, 0, \i << 24
        .endr

        .text

/* ROUND off: one middle round of S0-S7 with the round key at RK + off. */
.macro ROUND off
        vmovdqu \off(RK), KEY
        vaesenc KEY, S0, S0
        vaesenc KEY, S1, S1
        vaesenc KEY, S2, S2
        vaesenc KEY, S3, S3
        vaesenc KEY, S4, S4
        vaesenc KEY, S5, S5
        vaesenc KEY, S6, S6
        vaesenc KEY, S7, S7
.endm

/*
 * CTR_WHITEN: S0-S7 = the next 8 counter blocks ^ k[0]; CUR and CLO advance past them.
 * While the low byte of the group's first counter is at most 248, the 8 counters differ
 * from it only in their last byte (byte 15, the least significant of the big-endian word),
 * with no carry: then one `vpshufb` gives the first and a `vpaddd` of i << 24 to dword 3
 * (whose most significant byte is byte 15) the others. Otherwise (at most one group in 32)
 * the reversed counter is stepped by 1 with `vpaddd` (exact inc32 on dword 0) and each
 * block reversed back. The branch depends on the counter only, which the caller keeps
 * public.
 */
.macro CTR_WHITEN
        vmovdqu (RK), KEY
        cmpb    $248, CLOB
        ja      .Lctr_slow\@
        vpshufb BSW, CUR, S0
        vpaddd  .Lbe+0(%rip), S0, S1
        vpaddd  .Lbe+16(%rip), S0, S2
        vpaddd  .Lbe+32(%rip), S0, S3
        vpaddd  .Lbe+48(%rip), S0, S4
        vpaddd  .Lbe+64(%rip), S0, S5
        vpaddd  .Lbe+80(%rip), S0, S6
        vpaddd  .Lbe+96(%rip), S0, S7
        jmp     .Lctr_done\@
.Lctr_slow\@:
        vpaddd  .Linc1(%rip), CUR, S1
        vpaddd  .Linc1(%rip), S1, S2
        vpaddd  .Linc1(%rip), S2, S3
        vpaddd  .Linc1(%rip), S3, S4
        vpaddd  .Linc1(%rip), S4, S5
        vpaddd  .Linc1(%rip), S5, S6
        vpaddd  .Linc1(%rip), S6, S7
        vpshufb BSW, CUR, S0
        vpshufb BSW, S1, S1
        vpshufb BSW, S2, S2
        vpshufb BSW, S3, S3
        vpshufb BSW, S4, S4
        vpshufb BSW, S5, S5
        vpshufb BSW, S6, S6
        vpshufb BSW, S7, S7
.Lctr_done\@:
        vpaddd  .Linc8(%rip), CUR, CUR
        addl    $8, CLO
        vpxor   KEY, S0, S0
        vpxor   KEY, S1, S1
        vpxor   KEY, S2, S2
        vpxor   KEY, S3, S3
        vpxor   KEY, S4, S4
        vpxor   KEY, S5, S5
        vpxor   KEY, S6, S6
        vpxor   KEY, S7, S7
.endm

/*
 * GH_BLK j, src, pb, po: block j of the group at src (a memory operand base, offset 16 j)
 * times the power at pb + po + 16 j (h[8 + j] for a whole group: POW, 128; h[16 - r + j] for
 * a partial group: PTAIL, 0), Karatsuba: X = R(block) (^ Y, from HI, for j = 0),
 * T1 = X ^ swap64(X); j = 0 sets LO, HI, MID', the others add to them. With pb = PTAIL,
 * blocks j >= r are skipped (a branch on r).
 */
.macro GH_BLK j, src, pb=POW, po=128
.ifc \pb, PTAIL
.if \j
        cmpl    $\j, RD
        jbe     .Lgh_skip\@
.endif
.endif
        vmovdqu 16*\j+\src, X
        vpshufb BSW, X, X
.if \j == 0
        vpxor   HI, X, X
.endif
        vpshufd $0x4e, X, T1
        vpxor   X, T1, T1
.if \j == 0
        vpclmulqdq $0x00, \po(\pb), X, LO
        vpclmulqdq $0x11, \po(\pb), X, HI
        vpclmulqdq $0x00, 256+\po(\pb), T1, MID
.else
        vpclmulqdq $0x00, \po+16*\j(\pb), X, T2
        vpxor   T2, LO, LO
        vpclmulqdq $0x11, \po+16*\j(\pb), X, T2
        vpxor   T2, HI, HI
        vpclmulqdq $0x00, 256+\po+16*\j(\pb), T1, T2
        vpxor   T2, MID, MID
.endif
.Lgh_skip\@:
.endm

/*
 * GH_PAIR j, src: blocks j and j + 1 of a whole group at src times h[8 + j], h[9 + j], as
 * GH_BLK, but with the two Karatsuba middle operands made together: KEY = [X.lo, T1.lo] ^
 * [X.hi, T1.hi] (three instructions instead of four), block j + 1's taken from the high
 * qword (`vpclmulqdq` selector 0x01; both qwords of k[i] are equal). KEY is free between
 * rounds (each round loads its key).
 */
.macro GH_PAIR j, src
        vmovdqu 16*\j+\src, X
        vpshufb BSW, X, X
.if \j == 0
        vpxor   HI, X, X
.endif
        vmovdqu 16*\j+16+\src, T1
        vpshufb BSW, T1, T1
        vpunpcklqdq T1, X, KEY
        vpunpckhqdq T1, X, T2
        vpxor   T2, KEY, KEY
.if \j == 0
        vpclmulqdq $0x00, 128(POW), X, LO
        vpclmulqdq $0x11, 128(POW), X, HI
        vpclmulqdq $0x00, 384(POW), KEY, MID
.else
        vpclmulqdq $0x00, 128+16*\j(POW), X, T2
        vpxor   T2, LO, LO
        vpclmulqdq $0x11, 128+16*\j(POW), X, T2
        vpxor   T2, HI, HI
        vpclmulqdq $0x00, 384+16*\j(POW), KEY, T2
        vpxor   T2, MID, MID
.endif
        vpclmulqdq $0x00, 144+16*\j(POW), T1, T2
        vpxor   T2, LO, LO
        vpclmulqdq $0x11, 144+16*\j(POW), T1, T2
        vpxor   T2, HI, HI
        vpclmulqdq $0x01, 400+16*\j(POW), KEY, T2
        vpxor   T2, MID, MID
.endm

/* GH_SLOT r, src, pb, po: the GHASH work after AES round r (0: the whitening): block r of a
 * partial group (pb = PTAIL), or blocks r, r + 1 of a whole group for even r. */
.macro GH_SLOT r, src, pb, po
.ifc \pb, PTAIL
        GH_BLK  \r, \src, \pb, \po
.else
.if (\r % 2) == 0
        GH_PAIR \r, \src
.endif
.endif
.endm

/* GH_RED1: MID = MID' ^ LO ^ HI (Karatsuba), then MID ^= clmul(LO.lo, c) ^ swap64(LO),
 * clearing the low qword. */
.macro GH_RED1
        vpxor   LO, MID, MID
        vpxor   HI, MID, MID
        vpclmulqdq $0x00, POLY, LO, T2
        vpshufd $0x4e, LO, LO
        vpxor   T2, MID, MID
        vpxor   LO, MID, MID
.endm

/* GH_RED2: HI ^= clmul(MID.lo, c) ^ swap64(MID): R(Y), the reduced sum. */
.macro GH_RED2
        vpclmulqdq $0x00, POLY, MID, T2
        vpshufd $0x4e, MID, MID
        vpxor   T2, HI, HI
        vpxor   MID, HI, HI
.endm

/* LAST off, s, t: the last round of s with k[Nr] (in KEY) ^ the data at DATA + off, stored
 * there: data ^ keystream. */
.macro LAST off, s, t
        vpxor   \off(DATA), KEY, \t
        vaesenclast \t, \s, \s
        vmovdqu \s, \off(DATA)
.endm

/* TAIL_LAST: the last round of S0-S7 with k[Nr] (in KEY), then the first r keystream
 * blocks XORed into the data at DATA and stored (a branch on r before each of blocks 1-7);
 * the counter (CUR) moves back to r blocks past the group's first. */
.macro TAIL_LAST
        vaesenclast KEY, S0, S0
        vaesenclast KEY, S1, S1
        vaesenclast KEY, S2, S2
        vaesenclast KEY, S3, S3
        vaesenclast KEY, S4, S4
        vaesenclast KEY, S5, S5
        vaesenclast KEY, S6, S6
        vaesenclast KEY, S7, S7
        leal    -8(RD), %r11d
        vmovd   %r11d, T1
        vpaddd  T1, CUR, CUR
.irp j, 0, 1, 2, 3, 4, 5, 6, 7
.if \j
        cmpl    $\j, RD
        jbe     .Ltail_done\@
.endif
        vpxor   16*\j(DATA), %xmm\j, %xmm\j     /* S<j> */
        vmovdqu %xmm\j, 16*\j(DATA)
.endr
.Ltail_done\@:
.endm

/*
 * STEP aes, gh, src, pb=POW, po=128: one group of 8 blocks.
 *   aes: 1: XOR the keystream of the next 8 counter blocks into the 128 bytes at DATA (which
 *        then advances by 128); 2: the partial group's, its first r blocks (TAIL_LAST; DATA
 *        stays); 0: none.
 *   gh:  hash the 8 ciphertext blocks at src (DATA - 128 for enc, the previous group's
 *        output; DATA for dec, read before the last round overwrites it) into Y, a block
 *        after the whitening and after each of AES rounds 1-7, the reduction after rounds 8
 *        and 9 when aes > 0; with pb = PTAIL, po = 0: the first r blocks (see GH_BLK).
 */
.macro STEP aes, gh, src, pb=POW, po=128
.if \aes
        CTR_WHITEN
.endif
.if \gh
        GH_SLOT 0, \src, \pb, \po
.endif
.irp r, 1, 2, 3, 4, 5, 6, 7
.if \aes
        ROUND   16*\r
.endif
.if \gh
        GH_SLOT \r, \src, \pb, \po
.endif
.endr
.if \aes
        ROUND   128
.endif
.if \gh
        GH_RED1
.endif
.if \aes
        ROUND   144
.endif
.if \gh
        GH_RED2
.endif
.if \aes
        cmpq    $10, NR
        je      .Llast\@
        ROUND   160
        ROUND   176
        cmpq    $12, NR
        je      .Llast\@
        ROUND   192
        ROUND   208
.Llast\@:
        vmovdqu (RK,KLOFF), KEY
.if \aes == 2
        TAIL_LAST
.else
        LAST    0, S0, X
        LAST    16, S1, T1
        LAST    32, S2, T2
        LAST    48, S3, X
        LAST    64, S4, T1
        LAST    80, S5, T2
        LAST    96, S6, X
        LAST    112, S7, T1
        addq    $128, DATA
.endif
.endif
.endm

/* SETUP: the offset of k[Nr], r and the whole groups' block count, R(Y) into HI and the
 * counter from the state. */
.macro SETUP
        movq    NBLK, R
        andq    $7, R
        andq    $-8, NBLK
        movq    NR, KLOFF
        shlq    $4, KLOFF
        vmovdqu 0(ST), HI
        vpshufb BSW, HI, HI
        vmovdqu 16(ST), CUR
        vpshufb BSW, CUR, CUR
        vmovd   CUR, CLO        /* not a 4-byte load: the caller stored 16 bytes */
.endm

/* FINISH: Y and the next counter block (CUR, reversed back) to the state, each as one
 * 16-byte store: the caller reloads both as 16-byte blocks and goes on with the rest of the
 * text, and a load that a narrower store only partly covers cannot be forwarded from it. The
 * CLEAR_AVX (`vzeroall`) zeroes xmm0-15 (round keys, H powers, keystream: vec_clear.h) and
 * leaves the upper state clean for the legacy-SSE kernels that may follow. */
.macro FINISH
        vpshufb BSW, HI, HI
        vmovdqu HI, 0(ST)
        vpshufb BSW, CUR, CUR
        vmovdqu CUR, 16(ST)
        CLEAR_AVX
        ret
.endm

        .globl  simdcrypt_aes_gcm_enc_aesni
        .hidden simdcrypt_aes_gcm_enc_aesni
        .type   simdcrypt_aes_gcm_enc_aesni, @function
        .p2align 5
simdcrypt_aes_gcm_enc_aesni:
        ENDBR
        SETUP
        /* The first group: AES alone (there is no ciphertext to hash yet). */
        STEP    1, 0, 0(DATA)
        subq    $8, NBLK
        jz      .Lenc_last
        .p2align 4
.Lenc_loop:
        STEP    1, 1, -128(DATA)
        subq    $8, NBLK
        jnz     .Lenc_loop
.Lenc_last:
        testq   R, R
        jnz     .Lenc_tail
        /* The last group's ciphertext: GHASH alone. */
        STEP    0, 1, -128(DATA)
        FINISH
.Lenc_tail:
        /* The partial group's AES beside the last whole group's GHASH, then its GHASH. */
        STEP    2, 1, -128(DATA)
        leaq    256(POW), PTAIL
        shlq    $4, R
        subq    R, PTAIL
        shrq    $4, R
        STEP    0, 1, 0(DATA), PTAIL, 0
        FINISH
        .size   simdcrypt_aes_gcm_enc_aesni, . - simdcrypt_aes_gcm_enc_aesni

        .globl  simdcrypt_aes_gcm_dec_aesni
        .hidden simdcrypt_aes_gcm_dec_aesni
        .type   simdcrypt_aes_gcm_dec_aesni, @function
        .p2align 5
simdcrypt_aes_gcm_dec_aesni:
        ENDBR
        SETUP
        .p2align 4
.Ldec_loop:
        STEP    1, 1, 0(DATA)
        subq    $8, NBLK
        jnz     .Ldec_loop
        testq   R, R
        jz      .Ldec_done
        /* The partial group: its GHASH (read first) beside its AES. */
        leaq    256(POW), PTAIL
        shlq    $4, R
        subq    R, PTAIL
        shrq    $4, R
        STEP    2, 1, 0(DATA), PTAIL, 0
.Ldec_done:
        FINISH
        .size   simdcrypt_aes_gcm_dec_aesni, . - simdcrypt_aes_gcm_dec_aesni

#endif

#if defined(__ELF__)
        .section .note.GNU-stack, "", @progbits
#endif
