/*
 * aes_gcm_vaes_avx2.S (x86_64) -- stitched AES-GCM (NIST SP 800-38D sec. 7.1, 7.2): counter-
 * mode AES with VAES and GHASH with VPCLMULQDQ, both on 256-bit (ymm) registers, interleaved
 * in one loop of 16 blocks, for CPUs with VAES and VPCLMULQDQ but without AVX-512. Whole groups
 * of 16 blocks only. Safe wrapper: src/aead/aes_gcm/x86_64_vaes_avx2.rs.
 *
 * Features: VAES, AES-NI, VPCLMULQDQ, PCLMULQDQ, AVX, AVX2 (VEX-encoded only: ymm0-15, no
 * opmasks, no `vpternlogd`). The Rust tokens VaesAvx2 and VpclmulAvx2 prove them. ABI: System
 * V AMD64 psABI; both functions are leaves that use only caller-saved registers (rcx, rdx,
 * rsi, rdi, r8-r11, ymm0-15), no stack, and end with CLEAR_AVX (vec_clear.h: `vzeroall`). ELF only (the wrapper is
 * compiled for Linux and the BSDs).
 *
 * Functions (any alignment for every pointer; nblocks a multiple of 16, at least 16):
 *   void simdcrypt_aes_gcm_enc_vaes256(const u8 rk[240], size_t nr, struct state *st,
 *                                      u8 *data, size_t nblocks, const struct powers *p)
 *   void simdcrypt_aes_gcm_dec_vaes256(same arguments)
 * struct state (32 bytes) is { u8 y[16]; u8 ctr[16]; }: the running GHASH value Y and the next
 * counter block, both in SP 800-38D byte order; on return both are advanced past the data
 * (the counter by nblocks, inc32). A call may be followed by more text of the same message
 * (the wrapper's caller runs the rest through the non-stitched kernels from the state).
 * enc: data <- data ^ keystream (in place), then Y <- GHASH(Y, the ciphertext written).
 * dec: Y <- GHASH(Y, the ciphertext read), data <- data ^ keystream (in place).
 *
 * Data layouts are those of the two kernels this stitches (read their headers):
 * - rk: the AES-NI encryption schedule (src/aes/x86_64_aesni.rs), k[0..=Nr], 16 bytes each in
 *   FIPS 197 byte order, Nr = 10, 12 or 14; each round key is broadcast to both lanes
 *   (`vbroadcasti128`), so one ymm register holds 2 blocks under one key
 *   (asm/x86_64/aes_vaes.S). The last round ends with AddRoundKey, so
 *   aesenclast(x, k ^ d) = aesenclast(x, k) ^ d: the XOR of the keystream with the data rides
 *   on the last round key.
 * - p: struct powers of src/ghash/x86_64_clmul.rs, 512 bytes: h[i] = R(H^(16-i) x^-1 mod g) at
 *   16 i and k[i] = h[i].lo ^ h[i].hi in both qwords at 256 + 16 i, i = 0..15 (R = byte-
 *   reversed block read as a little-endian integer; "twisted" powers), so a ymm operand at
 *   h[2r..2r+1] holds the powers that blocks 2r, 2r+1 of a 16-block group are multiplied by,
 *   and the one at k[2r..2r+1] their Karatsuba middle operands. The multiply-and-reduce is
 *   that of simdcrypt_ghash_vclmul256 (asm/x86_64/ghash_vclmul.S):
 *       Y' = (Y ^ X_0) H^16 ^ X_1 H^15 ^ ... ^ X_15 H        (SP 800-38D sec. 6.4, unrolled)
 *   with the products summed unreduced per lane by Karatsuba: LO (a0 b0), HI (a1 b1) and
 *   MID' ((a0 ^ a1)(b0 ^ b1)); MID = MID' ^ LO ^ HI = a0 b1 ^ a1 b0. Then one reduction per
 *   group, two Montgomery steps with c = 0xc2000000_00000000 (the bits of
 *   x^128 + x^7 + x^2 + x + 1 reversed, over 2^64):
 *       MID ^= clmul(LO.lo, c) ^ swap64(LO);  RES = HI ^ clmul(MID.lo, c) ^ swap64(MID)
 *   and the two lanes XORed into the new Y.
 *
 * Counter (SP 800-38D sec. 6.2, 6.5): GCTR increments only the low 32 bits of the counter
 * block (inc32), its bytes 12..15, big-endian. Byte-reversing the block puts them in dword 0
 * of the lane as a little-endian integer, so counter + i is a `vpaddd` of i to dword 0 (mod
 * 2^32, exactly inc32; the other dwords are untouched) and a `vpshufb` back. CUR holds the
 * next two counters so reversed (lane j = counter + j); CLO the low word as a native integer.
 * While the 16 counters of a group do not carry out of their last byte (CTR_WHITEN), they are
 * one `vpshufb` and seven `vpaddd` of i << 24 to dword 3 (byte 15) instead.
 *
 * Schedule. One iteration runs the rounds of 16 counter blocks (S0-S7) and between them the
 * GHASH of 16 ciphertext blocks, 2 blocks per ymm: in 256-bit code VAES issues to two ports
 * (p0, p1 on Intel cores since Ice Lake) and VPCLMULQDQ to a third (p5), so the GHASH runs
 * beside the AES rounds. Only 16 ymm registers and no three-way XOR: the AES state takes
 * eight, the round key one, the GHASH five (LO, HI, MID, the block pair X and two scratch:
 * T1, T2) and the counters one, so the constants (byte-reversal mask, c, counter steps) and
 * the powers are memory operands, and the ciphertext is hashed from memory: enc hashes the
 * previous group's (just stored at DATA - 256, still in L1), so it runs one group of AES
 * alone first and one group of GHASH alone last; dec hashes the group it is about to decrypt
 * (at DATA), with no lag. The last round reads the data again as a memory operand.
 * Y is kept between groups in the low lane of HI (the fold leaves the high lane zero).
 * Unlike on zmm, where AES (p0) and GHASH (p5) own separate ports, the CTR kernel alone
 * (80 VAES on p0/p1, its XORs, adds and shuffles beside them) and GHASH alone each run at
 * about the rate of their instruction counts over three ports (inferred from their measured
 * speeds; there are no performance counters on the development VM), so this loop is bound
 * by its total of about 187 vector instructions per 16 blocks (AES-128: 80 VAES, 16
 * whitening and last-round XORs, 9 counter ops; GHASH: 8 x (byte reversal, swap, XOR,
 * 3 VPCLMULQDQ, 3 XORs), reduction and fold): stitching saves the second pass's loop
 * overhead and fills either half's idle slots, little more. Measured on the Emerald Rapids
 * development machine with AVX-512 masked (64-byte aligned text, 16 KiB): AES-128 seal
 * 0.95x the time of the separate 256-bit CTR and GHASH passes, open 0.94x; AES-256 0.89x
 * and 0.86x. Tried: schoolbook products (4 VPCLMULQDQ per pair, no swap): 2-5% slower (more
 * on p5); the GHASH steps spread between the single VAES instructions of a round instead of
 * after it: no change beyond noise.
 *
 * Nothing branches on or indexes memory by key, H, Y or data. The branches depend on Nr, the
 * block count and (CTR_WHITEN) the low byte of the counter, which the caller must keep public:
 * the wrapper runs this only for 96-bit IVs, whose counter blocks are nonce || count.
 *
 * Registers:
 *   rdi RK   rsi NR   rdx ST (state)   rcx DATA   r8 NBLK (blocks left)   r9 POW
 *   r10d CLO  the low 32 bits of the next counter block, native byte order
 *   r11  16 Nr, the offset of k[Nr]
 *   ymm0-7   S0-S7   AES state (2 blocks each)
 *   ymm8     KEY     round key (both lanes)
 *   ymm9     LO      ymm10 HI (and Y between groups: R(Y) in lane 0, lane 1 zero)
 *   ymm11    MID     ymm12 X (R(block pair))   ymm13 T1   ymm14 T2
 *   ymm15    CUR     next counters (reversed)
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
#define POW     %r9
#define CLO     %r10d
#define CLOB    %r10b
#define KLOFF   %r11

#define BSW     .Lbswap(%rip)
#define POLY    .Lpoly(%rip)

#define S0      %ymm0
#define S1      %ymm1
#define S2      %ymm2
#define S3      %ymm3
#define S4      %ymm4
#define S5      %ymm5
#define S6      %ymm6
#define S7      %ymm7
#define KEY     %ymm8
#define LO      %ymm9
#define HI      %ymm10
#define MID     %ymm11
#define X       %ymm12
#define T1      %ymm13
#define T2      %ymm14
#define CUR     %ymm15

        .section .rodata
        .p2align 5
/* vpshufb mask reversing the 16 bytes of each lane. */
.Lbswap:
        .byte   15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
        .byte   15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
/* The reduction constant c in the low qword of each lane. */
.Lpoly:
        .quad   0xc200000000000000, 0, 0xc200000000000000, 0
/* Lane offsets 0, 1 in dword 0 of each lane. */
.Llanes:
        .long   0, 0, 0, 0, 1, 0, 0, 0
/* Counter steps in dword 0 of each lane: 2 blocks (one register), 16 (one group). */
.Linc2:
        .long   2, 0, 0, 0, 2, 0, 0, 0
.Linc16:
        .long   16, 0, 0, 0, 16, 0, 0, 0
/* .Lbe+32(i-1): 2 i << 24 in dword 3 of each lane, i = 1..7: 2 i added to byte 15 of a
 * big-endian counter block. */
.Lbe:
        .irp i, 1, 2, 3, 4, 5, 6, 7
        .long   0, 0, 0, (2 * \i) << 24, 0, 0, 0, (2 * \i) << 24
        .endr

        .text

/* ROUND off: one middle round of S0-S7 with the round key at RK + off. */
.macro ROUND off
        vbroadcasti128 \off(RK), KEY
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
 * CTR_WHITEN: S0-S7 = the next 16 counter blocks ^ k[0]; CUR and CLO advance past them.
 * While the low byte of the group's first counter is at most 240, the 16 counters differ
 * from it only in their last byte (byte 15, the least significant of the big-endian word),
 * with no carry: then one `vpshufb` gives the first two and a `vpaddd` of 2 i << 24 to dword
 * 3 (whose most significant byte is byte 15) the others. Otherwise (at most one group in 16)
 * the reversed counters are stepped by 2 with `vpaddd` (exact inc32 on dword 0) and each
 * register reversed back. The branch depends on the counter only, which the caller keeps
 * public.
 */
.macro CTR_WHITEN
        vbroadcasti128 (RK), KEY
        cmpb    $240, CLOB
        ja      .Lctr_slow\@
        vpshufb BSW, CUR, S0
        vpaddd  .Lbe+0(%rip), S0, S1
        vpaddd  .Lbe+32(%rip), S0, S2
        vpaddd  .Lbe+64(%rip), S0, S3
        vpaddd  .Lbe+96(%rip), S0, S4
        vpaddd  .Lbe+128(%rip), S0, S5
        vpaddd  .Lbe+160(%rip), S0, S6
        vpaddd  .Lbe+192(%rip), S0, S7
        jmp     .Lctr_done\@
.Lctr_slow\@:
        vpaddd  .Linc2(%rip), CUR, S1
        vpaddd  .Linc2(%rip), S1, S2
        vpaddd  .Linc2(%rip), S2, S3
        vpaddd  .Linc2(%rip), S3, S4
        vpaddd  .Linc2(%rip), S4, S5
        vpaddd  .Linc2(%rip), S5, S6
        vpaddd  .Linc2(%rip), S6, S7
        vpshufb BSW, CUR, S0
        vpshufb BSW, S1, S1
        vpshufb BSW, S2, S2
        vpshufb BSW, S3, S3
        vpshufb BSW, S4, S4
        vpshufb BSW, S5, S5
        vpshufb BSW, S6, S6
        vpshufb BSW, S7, S7
.Lctr_done\@:
        vpaddd  .Linc16(%rip), CUR, CUR
        addl    $16, CLO
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
 * GH_PAIR r, src: blocks 2r, 2r+1 of the group at src (a memory operand base, offset 32 r)
 * times h[2r..2r+1], Karatsuba: X = R(pair) (block 0 also ^ Y, from HI, for r = 0),
 * T1 = X ^ swap64(X); r = 0 sets LO, HI, MID', the others add to them.
 */
.macro GH_PAIR r, src
        vmovdqu 32*\r+\src, X
        vpshufb BSW, X, X
.if \r == 0
        vpxor   HI, X, X
.endif
        vpshufd $0x4e, X, T1
        vpxor   X, T1, T1
.if \r == 0
        vpclmulqdq $0x00, 0(POW), X, LO
        vpclmulqdq $0x11, 0(POW), X, HI
        vpclmulqdq $0x00, 256(POW), T1, MID
.else
        vpclmulqdq $0x00, 32*\r(POW), X, T2
        vpxor   T2, LO, LO
        vpclmulqdq $0x11, 32*\r(POW), X, T2
        vpxor   T2, HI, HI
        vpclmulqdq $0x00, 256+32*\r(POW), T1, T2
        vpxor   T2, MID, MID
.endif
.endm

/* GH_RED1: MID = MID' ^ LO ^ HI (Karatsuba), then MID ^= clmul(LO.lo, c) ^ swap64(LO),
 * clearing the low qword of each lane. */
.macro GH_RED1
        vpxor   LO, MID, MID
        vpxor   HI, MID, MID
        vpclmulqdq $0x00, POLY, LO, T2
        vpshufd $0x4e, LO, LO
        vpxor   T2, MID, MID
        vpxor   LO, MID, MID
.endm

/* GH_RED2: HI ^= clmul(MID.lo, c) ^ swap64(MID), each lane's reduced sum; then
 * Y = lane 0 ^ lane 1 in the low lane of HI (the VEX xmm XOR zeroes the high lane). */
.macro GH_RED2
        vpclmulqdq $0x00, POLY, MID, T2
        vpshufd $0x4e, MID, MID
        vpxor   T2, HI, HI
        vpxor   MID, HI, HI
        vextracti128 $1, HI, %xmm13
        vpxor   %xmm13, %xmm10, %xmm10
.endm

/* LAST off, s, t: the last round of s with k[Nr] (in KEY) ^ the data at DATA + off, stored
 * there: data ^ keystream. */
.macro LAST off, s, t
        vpxor   \off(DATA), KEY, \t
        vaesenclast \t, \s, \s
        vmovdqu \s, \off(DATA)
.endm

/*
 * STEP aes, gh, src: one group of 16 blocks.
 *   aes: XOR the keystream of the next 16 counter blocks into the 256 bytes at DATA (which
 *        then advances by 256).
 *   gh:  hash the 16 ciphertext blocks at src (DATA - 256 for enc, the previous group's
 *        output; DATA for dec, read before the last round overwrites it) into Y, a block pair
 *        after each of AES rounds 0-7 and the reduction after rounds 8 and 9 when aes = 1.
 */
.macro STEP aes, gh, src
.if \aes
        CTR_WHITEN
.endif
.if \gh
        GH_PAIR 0, \src
.endif
.irp r, 1, 2, 3, 4, 5, 6, 7
.if \aes
        ROUND   16*\r
.endif
.if \gh
        GH_PAIR \r, \src
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
        vbroadcasti128 (RK,KLOFF), KEY
        LAST    0, S0, X
        LAST    32, S1, T1
        LAST    64, S2, T2
        LAST    96, S3, X
        LAST    128, S4, T1
        LAST    160, S5, T2
        LAST    192, S6, X
        LAST    224, S7, T1
        addq    $256, DATA
.endif
.endm

/* SETUP: the offset of k[Nr], R(Y) into HI and the counters from the state. */
.macro SETUP
        movq    NR, KLOFF
        shlq    $4, KLOFF
        vmovdqu 0(ST), %xmm10
        vpshufb .Lbswap(%rip), %xmm10, %xmm10   /* R(Y); the high lane is zeroed */
        vbroadcasti128 16(ST), CUR
        vpshufb BSW, CUR, CUR
        vpaddd  .Llanes(%rip), CUR, CUR
        movl    28(ST), CLO
        bswapl  CLO
.endm

/* FINISH: Y and the next counter block (lane 0 of CUR, reversed back) to the state, each
 * as one 16-byte store: the caller reloads both as 16-byte blocks and goes on with the rest
 * of the text, and a load that a narrower store only partly covers cannot be forwarded
 * from it (it would wait for this function's stores to retire). */
.macro FINISH
        vpshufb .Lbswap(%rip), %xmm10, %xmm10
        vmovdqu %xmm10, 0(ST)
        vpshufb .Lbswap(%rip), %xmm15, %xmm15
        vmovdqu %xmm15, 16(ST)
        CLEAR_AVX
        ret
.endm

        .globl  simdcrypt_aes_gcm_enc_vaes256
        .hidden simdcrypt_aes_gcm_enc_vaes256
        .type   simdcrypt_aes_gcm_enc_vaes256, @function
        .p2align 5
simdcrypt_aes_gcm_enc_vaes256:
        ENDBR
        SETUP
        /* The first group: AES alone (there is no ciphertext to hash yet). */
        STEP    1, 0, 0(DATA)
        subq    $16, NBLK
        jz      .Lenc_last
        .p2align 4
.Lenc_loop:
        STEP    1, 1, -256(DATA)
        subq    $16, NBLK
        jnz     .Lenc_loop
.Lenc_last:
        /* The last group's ciphertext: GHASH alone. */
        STEP    0, 1, -256(DATA)
        FINISH
        .size   simdcrypt_aes_gcm_enc_vaes256, . - simdcrypt_aes_gcm_enc_vaes256

        .globl  simdcrypt_aes_gcm_dec_vaes256
        .hidden simdcrypt_aes_gcm_dec_vaes256
        .type   simdcrypt_aes_gcm_dec_vaes256, @function
        .p2align 5
simdcrypt_aes_gcm_dec_vaes256:
        ENDBR
        SETUP
        .p2align 4
.Ldec_loop:
        STEP    1, 1, 0(DATA)
        subq    $16, NBLK
        jnz     .Ldec_loop
        FINISH
        .size   simdcrypt_aes_gcm_dec_vaes256, . - simdcrypt_aes_gcm_dec_vaes256

#endif

#if defined(__ELF__)
        .section .note.GNU-stack, "", @progbits
#endif
