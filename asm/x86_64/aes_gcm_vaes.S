/*
 * aes_gcm_vaes.S (x86_64) -- stitched AES-GCM (NIST SP 800-38D sec. 7.1, 7.2): counter-mode
 * AES with VAES and GHASH with VPCLMULQDQ, both on 512-bit (zmm) registers, interleaved in one
 * loop of 16 blocks, and a final partial group under masks. Safe wrapper:
 * src/aead/aes_gcm/x86_64_vaes.rs.
 *
 * Features: VAES, AES-NI, VPCLMULQDQ, PCLMULQDQ, AVX, AVX2, AVX512F, AVX512VL, AVX512BW
 * (EVEX-encoded, zmm0-31, opmask registers k1-k4, `vpshufb` on zmm, `vpternlogd`,
 * `vextracti64x4`, `kmovd`/`kshiftrd`). The Rust tokens VaesAvx512 and VpclmulAvx512 prove
 * them. ABI: System V AMD64 psABI; both functions are leaves that use only caller-saved
 * registers (rax, rcx, rdx, rsi, rdi, r8-r11, all vector and opmask registers), no stack, and
 * end with `vzeroupper`. ELF only (the wrapper is compiled for Linux and the BSDs).
 *
 * Functions (any alignment for every pointer; any nbytes >= 1):
 *   void simdcrypt_aes_gcm_enc_vaes512(const u8 rk[240], size_t nr, struct state *st,
 *                                      u8 *data, size_t nbytes, const struct powers *p)
 *   void simdcrypt_aes_gcm_dec_vaes512(same arguments)
 * struct state (32 bytes) is { u8 y[16]; u8 ctr[16]; }: the running GHASH value Y and the next
 * counter block, both in SP 800-38D byte order; on return both are advanced past the data
 * (the counter by ceil(nbytes / 16) blocks). The data may end in a partial block: its
 * keystream is the first bytes of a whole block's, and it is hashed zero-padded, so that a
 * call must be the last of a message unless nbytes is a multiple of 16.
 * enc: data <- data ^ keystream (in place), then Y <- GHASH(Y, the ciphertext written).
 * dec: Y <- GHASH(Y, the ciphertext read), data <- data ^ keystream (in place).
 *
 * Data layouts are those of the two kernels this stitches (read their headers):
 * - rk: the AES-NI encryption schedule (src/aes/x86_64_aesni.rs), k[0..=Nr], 16 bytes each in
 *   FIPS 197 byte order, Nr = 10, 12 or 14; each round key is broadcast to the 4 lanes, so
 *   one zmm register holds 4 blocks under one key (asm/x86_64/aes_vaes.S). The last round
 *   ends with AddRoundKey, so aesenclast(x, k ^ d) = aesenclast(x, k) ^ d: the XOR of the
 *   keystream with the data rides on the last round key.
 * - p: struct powers of src/ghash/x86_64_clmul.rs, h[i] = R(H^(16-i) x^-1 mod g) at 16 i,
 *   i = 0..15 (R = byte-reversed block read as a little-endian integer; "twisted" powers),
 *   so a zmm loaded from h[4r..4r+3] holds the powers blocks 4r..4r+3 of a 16-block group
 *   are multiplied by. The multiply-and-reduce is that of asm/x86_64/ghash_vclmul.S:
 *       Y' = (Y ^ X_0) H^16 ^ X_1 H^15 ^ ... ^ X_15 H        (SP 800-38D sec. 6.4, unrolled)
 *   with the 255-bit products summed unreduced per lane in LO (a0 b0), MID (a0 b1 ^ a1 b0)
 *   and HI (a1 b1), reduced once per group by two Montgomery steps with
 *   c = 0xc2000000_00000000 (the bits of x^128 + x^7 + x^2 + x + 1 reversed, over 2^64):
 *       MID ^= clmul(LO.lo, c) ^ swap64(LO);  RES = HI ^ clmul(MID.lo, c) ^ swap64(MID)
 *   and the four lanes XORed into the new Y.
 *
 * Counter (SP 800-38D sec. 6.2, 6.5): GCTR increments only the low 32 bits of the counter
 * block (inc32), which are its bytes 12..15, big-endian. Byte-reversing the block puts them
 * in dword 0 of the lane as a little-endian integer, so counter + i is a `vpaddd` of i to
 * dword 0 (mod 2^32, exactly inc32; the other dwords are untouched) and a `vpshufb` back.
 * CUR holds the next four counters so reversed, lane j = counter + j; CLO the low word as a
 * native integer. While the 16 counters of a group do not carry out of their last byte
 * (CTR_WHITEN), they are made with one `vpshufb` and three `vpaddd` instead.
 *
 * Partial group (nbytes % 256 = b > 0, last; r = ceil(b / 16) blocks): the same pass under
 * the byte masks k1-k4 of its b bytes: masked-off bytes are neither read nor written
 * (masked-off elements do not fault), are zero in C0-C3, and so add nothing to the GHASH
 * beyond the zero padding of the last block, which uses the powers from h[16-r] on
 * (TAIL_POWERS): block j of the group times H^(r-j). Only the ceil(b / 64) registers that
 * hold any of its bytes run the AES rounds and the GHASH products (STEP's an and gn; one
 * copy of the pass per count, chosen by BY_REGS).
 *
 * Schedule. One iteration runs the rounds of 16 counter blocks (S0-S3) and between them the
 * GHASH of 16 ciphertext blocks (C0-C3): VAES on zmm issues to one port (p0 here) and
 * VPCLMULQDQ and the shuffles to another (p5), the XORs and adds to either. Measured on the
 * Emerald Rapids development machine: CTR alone 0.153 cycles/byte, GHASH alone 0.117, this
 * loop 0.18 for AES-128 (about what the ~92 vector ops per 16 blocks on those two ports
 * allow). enc hashes the ciphertext of the previous iteration (kept in C0-C3: the last round
 * writes it there), so it runs one group of AES alone first and one group of GHASH alone
 * last; dec hashes the ciphertext it is about to decrypt (loaded into C0-C3), with no lag.
 * (A 32-block iteration, 8 AES registers with two GHASH groups and the powers as memory
 * operands, measured slower: 0.21.)
 *
 * Nothing branches on or indexes memory by key, H, Y or data. The branches depend on Nr, the
 * block count and (CTR_WHITEN) the low byte of the counter, which the caller must keep public:
 * the wrapper runs this only for 96-bit IVs, whose counter blocks are nonce || count.
 *
 * Registers:
 *   rdi RK   rsi NR   rdx ST (state)   rcx DATA   r9 POW
 *   r8 NBLK   bytes left; in a partial group, its block count r (TAIL_MASKS)
 *   rax, r11  scratch (offset of k[Nr], mask address, register count, power offset)
 *   r10d CLO  the low 32 bits of the next counter block, native byte order
 *   k1-k4     byte masks of a partial group's bytes
 *   zmm0-3   S0-S3   AES state (4 blocks each)
 *   zmm4-7   C0-C3   ciphertext blocks to hash (as in memory)
 *   zmm8     Y       GHASH value, R(Y) in lane 0, other lanes zero
 *   zmm9-11  LO, HI, MID   unreduced sums
 *   zmm12-15 P0-P3   products, scratch
 *   zmm16-19 HP0-HP3 h[0..3], h[4..7], h[8..11], h[12..15]
 *   zmm20    BSW     lane byte-reversal mask      zmm21 POLY  c in the low qword of each lane
 *   zmm22    CUR     next counters (reversed)     zmm23 INC   4 in dword 0 of each lane
 *   zmm24-27 X0-X3   R(ciphertext blocks)         zmm28 KEY   round key
 *   zmm30    KL      k[Nr]                        zmm31 T     KL ^ data
 */

#if defined(__ELF__) && defined(__x86_64__)

#define RK      %rdi
#define NR      %rsi
#define ST      %rdx
#define DATA    %rcx
#define NBLK    %r8
#define POW     %r9
#define CLO     %r10d
#define CLOB    %r10b
#define INC16   .Linc16(%rip)
#define BE4     .Lbe4(%rip)
#define BE8     .Lbe8(%rip)
#define BE12    .Lbe12(%rip)

#define S0      %zmm0
#define S1      %zmm1
#define S2      %zmm2
#define S3      %zmm3
#define C0      %zmm4
#define C1      %zmm5
#define C2      %zmm6
#define C3      %zmm7
#define Y       %zmm8
#define LO      %zmm9
#define HI      %zmm10
#define MID     %zmm11
#define P0      %zmm12
#define P1      %zmm13
#define P2      %zmm14
#define P3      %zmm15
#define HP0     %zmm16
#define HP1     %zmm17
#define HP2     %zmm18
#define HP3     %zmm19
#define BSW     %zmm20
#define POLY    %zmm21
#define CUR     %zmm22
#define INC     %zmm23
#define X0      %zmm24
#define X1      %zmm25
#define X2      %zmm26
#define X3      %zmm27
#define KEY     %zmm28
#define KL      %zmm30
#define T       %zmm31

        .section .rodata
        .p2align 6
/* vpshufb mask reversing the 16 bytes of each lane. */
.Lbswap:
        .byte   15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
/* The reduction constant c in the low qword of each lane. */
.Lpoly:
        .quad   0xc200000000000000, 0
/* Counter steps: 4 blocks per register, in dword 0 of each lane. */
.Linc4:
        .long   4, 0, 0, 0
        .p2align 6
/* Per-lane offsets 0, 1, 2, 3 in dword 0 of each lane. */
.Llanes:
        .long   0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0
/* 16 blocks: 16 in dword 0 of each lane. */
.Linc16:
        .long   16, 0, 0, 0, 16, 0, 0, 0, 16, 0, 0, 0, 16, 0, 0, 0
/* i << 24 in dword 3 of each lane: i added to byte 15 of a big-endian counter block. */
.Lbe4:
        .long   0, 0, 0, 4 << 24, 0, 0, 0, 4 << 24, 0, 0, 0, 4 << 24, 0, 0, 0, 4 << 24
.Lbe8:
        .long   0, 0, 0, 8 << 24, 0, 0, 0, 8 << 24, 0, 0, 0, 8 << 24, 0, 0, 0, 8 << 24
.Lbe12:
        .long   0, 0, 0, 12 << 24, 0, 0, 0, 12 << 24, 0, 0, 0, 12 << 24, 0, 0, 0, 12 << 24
/* 256 bytes 0xff, then 256 zero bytes: the byte masks of a partial group (TAIL_MASKS). */
.Lbytemask:
        .fill   256, 1, 0xff
        .fill   256, 1, 0

        .text

/* ROUND off, n: one middle round of S0..S(n-1) with the round key at RK + off. */
.macro ROUND off, n=4
        vbroadcasti32x4 \off(RK), KEY
        vaesenc KEY, S0, S0
.if \n > 1
        vaesenc KEY, S1, S1
.endif
.if \n > 2
        vaesenc KEY, S2, S2
.endif
.if \n > 3
        vaesenc KEY, S3, S3
.endif
.endm

/*
 * CTR_WHITEN: S0-S3 = the next 16 counter blocks ^ k[0]; CUR and CLO advance past them.
 * While the low byte of the group's first counter is at most 240, the 16 counters differ
 * from it only in their last byte (byte 15, the least significant of the big-endian word),
 * with no carry: then one `vpshufb` gives the first four and a `vpaddd` of 4 i << 24 to dword
 * 3 (whose most significant byte is byte 15) the others. Otherwise (at most one group in 16)
 * each register is a `vpshufb` of its own little-endian counters. The branch depends on the
 * counter only, which the caller keeps public.
 */
.macro CTR_WHITEN n=4
        vbroadcasti32x4 (RK), KEY
        cmpb    $240, CLOB
        ja      .Lctr_slow\@
        vpshufb BSW, CUR, S0
.if \n > 1
        vpaddd  BE4, S0, S1
.endif
.if \n > 2
        vpaddd  BE8, S0, S2
.endif
.if \n > 3
        vpaddd  BE12, S0, S3
.endif
        jmp     .Lctr_done\@
.Lctr_slow\@:
        vpshufb BSW, CUR, S0
.if \n > 1
        vpaddd  INC, CUR, S1
        vpshufb BSW, S1, S1
.endif
.if \n > 2
        vpaddd  INC, CUR, S2
        vpaddd  INC, S2, S2
        vpshufb BSW, S2, S2
.endif
.if \n > 3
        vpaddd  INC16, CUR, S3
        vpsubd  INC, S3, S3
        vpshufb BSW, S3, S3
.endif
.Lctr_done\@:
        vpaddd  INC16, CUR, CUR
        addl    $16, CLO
        vpxorq  KEY, S0, S0
.if \n > 1
        vpxorq  KEY, S1, S1
.endif
.if \n > 2
        vpxorq  KEY, S2, S2
.endif
.if \n > 3
        vpxorq  KEY, S3, S3
.endif
.endm

/* GH_PREP n: X_r = R(C_r) for r < n, and Y folded into block 0 (lane 0 of X0). */
.macro GH_PREP n=4
        vpshufb BSW, C0, X0
.if \n > 1
        vpshufb BSW, C1, X1
.endif
.if \n > 2
        vpshufb BSW, C2, X2
.endif
.if \n > 3
        vpshufb BSW, C3, X3
.endif
        vpxorq  Y, X0, X0
.endm

/* GH_MUL0 x, h: LO, HI, MID = the schoolbook products of x and h (the first register). */
.macro GH_MUL0 x, h
        vpclmulqdq $0x00, \h, \x, LO
        vpclmulqdq $0x11, \h, \x, HI
        vpclmulqdq $0x01, \h, \x, MID
        vpclmulqdq $0x10, \h, \x, P3
        vpxorq  P3, MID, MID
.endm

/* GH_MUL x, h: the schoolbook products of x and h added to LO, HI, MID. */
.macro GH_MUL x, h
        vpclmulqdq $0x00, \h, \x, P0
        vpclmulqdq $0x11, \h, \x, P1
        vpclmulqdq $0x01, \h, \x, P2
        vpclmulqdq $0x10, \h, \x, P3
        vpxorq  P0, LO, LO
        vpxorq  P1, HI, HI
        vpternlogd $0x96, P3, P2, MID
.endm

/* GH_MUL2: P0-P3 = the schoolbook products of X2 and HP2 (added in GH_MUL3). */
.macro GH_MUL2
        vpclmulqdq $0x00, HP2, X2, P0
        vpclmulqdq $0x11, HP2, X2, P1
        vpclmulqdq $0x01, HP2, X2, P2
        vpclmulqdq $0x10, HP2, X2, P3
.endm
/* GH_MUL3: the products of X3 and HP3 (into X0-X3, which are done with) and GH_MUL2's,
 * added to LO, HI, MID with three-way XORs. */
.macro GH_MUL3
        vpclmulqdq $0x00, HP3, X3, X0
        vpclmulqdq $0x11, HP3, X3, X1
        vpclmulqdq $0x01, HP3, X3, X2
        vpclmulqdq $0x10, HP3, X3, X3
        vpternlogd $0x96, X0, P0, LO
        vpternlogd $0x96, X1, P1, HI
        vpternlogd $0x96, P3, P2, MID
        vpternlogd $0x96, X3, X2, MID
.endm
/* GH_RED1: MID ^= clmul(LO.lo, c) ^ swap64(LO), clearing the low qword of each lane. */
.macro GH_RED1
        vpclmulqdq $0x00, POLY, LO, P0
        vpshufd $0x4e, LO, LO
        vpternlogd $0x96, P0, LO, MID
.endm

/* GH_RED2: HI ^= clmul(MID.lo, c) ^ swap64(MID): each lane's reduced sum. */
.macro GH_RED2
        vpclmulqdq $0x00, POLY, MID, P1
        vpshufd $0x4e, MID, MID
        vpternlogd $0x96, P1, MID, HI
.endm

/* GH_FOLD: Y = lane 0 ^ lane 1 ^ lane 2 ^ lane 3 of HI (the VEX XORs zero the upper lanes). */
.macro GH_FOLD
        vextracti64x4 $1, HI, %ymm14
        vpxor   %ymm14, %ymm10, %ymm10
        vextracti128 $1, %ymm10, %xmm14
        vpxor   %xmm14, %xmm10, %xmm8
.endm

/*
 * LAST_T dec, off, s, c, k: the last round of a partial group, for the blocks under the qword
 * mask k only: the other blocks are neither read nor written (masked-off elements do not
 * fault) and leave c zero, so that they add nothing to the GHASH. enc: c = ciphertext; dec:
 * c holds the ciphertext (loaded under k, zeros elsewhere).
 */
.macro LAST_T dec, off, s, c, k
.if \dec
        vpxorq  \c, KL, T
        vaesenclast T, \s, \s
        vmovdqu8 \s, \off(DATA){\k}
.else
        vmovdqu8 \off(DATA), T{\k}{z}
        vpxorq  KL, T, T
        vaesenclast T, \s, \c
        vmovdqu8 \c, \c{\k}{z}
        vmovdqu8 \c, \off(DATA){\k}
.endif
.endm

/*
 * For the b = NBLK (1..255) bytes of a final partial group:
 * TAIL_MASKS: k1-k4 = the byte masks of those bytes over four registers (register i holds
 * bytes 64 i .. 64 i + 63), read as the sign bits of 256 bytes of .Lbytemask starting b bytes
 * before its zeros; then eax = ceil(b / 64), the registers that hold any of them, and NBLK =
 * r = ceil(b / 16), the blocks they touch (the last one maybe partial: its masked-off bytes
 * are neither read nor written and are zero in C0-C3, the zero padding of SP 800-38D sec. 6.4).
 * TAIL_POWERS: HP0-HP3 = the powers from h[16-r] on, so that block j of the group is
 * multiplied by h[16-r+j] = H^(r-j) and Y, added to block 0, by H^r. The last registers'
 * lanes past h[15] read the table's k half (inside the 512-byte struct) and multiply blocks
 * that are zero (or are not multiplied: STEP's gn).
 * TAIL_CLO: after the pass, CLO counts only the r blocks it used (its CTR_WHITEN added 16).
 * BY_REGS l: jumps to l1, l2, l3 or l4 by eax (the register count of TAIL_MASKS).
 */
.macro TAIL_MASKS
        leaq    .Lbytemask+256(%rip), %rax
        subq    NBLK, %rax
        vmovdqu64 0(%rax), P0
        vmovdqu64 64(%rax), P1
        vmovdqu64 128(%rax), P2
        vmovdqu64 192(%rax), P3
        vpmovb2m P0, %k1
        vpmovb2m P1, %k2
        vpmovb2m P2, %k3
        vpmovb2m P3, %k4
        leaq    63(NBLK), %rax
        shrl    $6, %eax
        addq    $15, NBLK
        shrq    $4, NBLK
.endm
.macro TAIL_POWERS
        movq    NBLK, %r11
        negq    %r11
        shlq    $4, %r11                        /* -16 r */
        vmovdqu64 256(POW,%r11), HP0
        vmovdqu64 320(POW,%r11), HP1
        vmovdqu64 384(POW,%r11), HP2
        vmovdqu64 448(POW,%r11), HP3
.endm
.macro TAIL_CLO
        leal    -16(%r10,%r8), CLO
.endm
.macro BY_REGS l
        cmpl    $2, %eax
        jb      \l\()1
        je      \l\()2
        cmpl    $3, %eax
        je      \l\()3
        jmp     \l\()4
.endm

/*
 * STEP aes, gh, dec, tail, an, gn: one group of up to 16 blocks.
 *   aes: encrypt (dec = 0) or decrypt (dec = 1) the blocks at DATA; enc leaves the
 *        ciphertext in C0-C3, dec hashes the ciphertext it loads into C0-C3 first.
 *   gh:  hash C0-C3 into Y, its steps spread over AES rounds 1-7 when aes = 1.
 *   tail: the group is partial: loads, stores and C0-C3 under the byte masks k1-k4.
 *   an, gn: the registers of AES (S0..S(an-1)) and of GHASH (C0..C(gn-1)) that hold blocks:
 *        4, except in a partial group, which needs only ceil(bytes / 64) (TAIL_MASKS).
 */
.macro STEP aes, gh, dec, tail=0, an=4, gn=4
.if \aes && \dec
.if \tail
        vmovdqu8 0(DATA), C0{%k1}{z}
.if \an > 1
        vmovdqu8 64(DATA), C1{%k2}{z}
.endif
.if \an > 2
        vmovdqu8 128(DATA), C2{%k3}{z}
.endif
.if \an > 3
        vmovdqu8 192(DATA), C3{%k4}{z}
.endif
.else
        vmovdqu64 0(DATA), C0
        vmovdqu64 64(DATA), C1
        vmovdqu64 128(DATA), C2
        vmovdqu64 192(DATA), C3
.endif
.endif
.if \aes
        CTR_WHITEN \an
.endif
.if \gh
        GH_PREP \gn
.endif
.if \aes
        ROUND   16, \an
.endif
.if \gh
        GH_MUL0 X0, HP0
.endif
.if \aes
        ROUND   32, \an
.endif
.if \gh && (\gn > 1)
        GH_MUL  X1, HP1
.endif
.if \aes
        ROUND   48, \an
.endif
.if \gh && (\gn == 4)
        GH_MUL2
.endif
.if \gh && (\gn == 3)
        GH_MUL  X2, HP2
.endif
.if \aes
        ROUND   64, \an
.endif
.if \gh && (\gn == 4)
        GH_MUL3
.endif
.if \aes
        ROUND   80, \an
.endif
.if \gh
        GH_RED1
.endif
.if \aes
        ROUND   96, \an
.endif
.if \gh
        GH_RED2
.endif
.if \aes
        ROUND   112, \an
.endif
.if \gh
        GH_FOLD
.endif
.if \aes
        ROUND   128, \an
        ROUND   144, \an
        cmpq    $10, NR
        je      .Llast\@
        ROUND   160, \an
        ROUND   176, \an
        cmpq    $12, NR
        je      .Llast\@
        ROUND   192, \an
        ROUND   208, \an
.Llast\@:
.if \tail
        LAST_T  \dec, 0, S0, C0, %k1
.if \an > 1
        LAST_T  \dec, 64, S1, C1, %k2
.endif
.if \an > 2
        LAST_T  \dec, 128, S2, C2, %k3
.endif
.if \an > 3
        LAST_T  \dec, 192, S3, C3, %k4
.endif
.elseif \dec
        vpxorq  C0, KL, T
        vaesenclast T, S0, S0
        vmovdqu64 S0, 0(DATA)
        vpxorq  C1, KL, T
        vaesenclast T, S1, S1
        vmovdqu64 S1, 64(DATA)
        vpxorq  C2, KL, T
        vaesenclast T, S2, S2
        vmovdqu64 S2, 128(DATA)
        vpxorq  C3, KL, T
        vaesenclast T, S3, S3
        vmovdqu64 S3, 192(DATA)
.else
        vpxorq  0(DATA), KL, T
        vaesenclast T, S0, C0
        vmovdqu64 C0, 0(DATA)
        vpxorq  64(DATA), KL, T
        vaesenclast T, S1, C1
        vmovdqu64 C1, 64(DATA)
        vpxorq  128(DATA), KL, T
        vaesenclast T, S2, C2
        vmovdqu64 C2, 128(DATA)
        vpxorq  192(DATA), KL, T
        vaesenclast T, S3, C3
        vmovdqu64 C3, 192(DATA)
.endif
        addq    $256, DATA
.endif
.endm

/* SETUP: constants, k[Nr], the powers, R(Y) and the counters from the state. */
.macro SETUP
        vbroadcasti32x4 .Lbswap(%rip), BSW
        vbroadcasti32x4 .Lpoly(%rip), POLY
        vbroadcasti32x4 .Linc4(%rip), INC
        movq    NR, %rax
        shlq    $4, %rax
        vbroadcasti32x4 (RK,%rax), KL
        vmovdqu64 0(POW), HP0                   /* H^16 H^15 H^14 H^13 */
        vmovdqu64 64(POW), HP1                  /* H^12 .. H^9 */
        vmovdqu64 128(POW), HP2                 /* H^8 .. H^5 */
        vmovdqu64 192(POW), HP3                 /* H^4 .. H^1 */
        vmovdqu64 0(ST), %xmm8
        vpshufb %xmm20, %xmm8, %xmm8            /* R(Y); the upper lanes are zeroed */
        vbroadcasti32x4 16(ST), CUR
        vpshufb BSW, CUR, CUR
        vpaddd  .Llanes(%rip), CUR, CUR
        movl    28(ST), CLO
        bswapl  CLO
.endm

/* FINISH: Y and the next counter block back to the state. */
.macro FINISH
        vpshufb %xmm20, %xmm8, %xmm8
        vmovdqu64 %xmm8, 0(ST)
        movl    CLO, %eax
        bswapl  %eax
        movl    %eax, 28(ST)                    /* inc32: only the low word changed */
        vzeroupper
        ret
.endm

        .globl  simdcrypt_aes_gcm_enc_vaes512
        .hidden simdcrypt_aes_gcm_enc_vaes512
        .type   simdcrypt_aes_gcm_enc_vaes512, @function
        .p2align 5
simdcrypt_aes_gcm_enc_vaes512:
        SETUP
        cmpq    $256, NBLK
        jb      .Lenc_tail_only
        /* The first group: AES alone (there is no ciphertext to hash yet). */
        STEP    1, 0, 0
        subq    $256, NBLK
        .p2align 4
.Lenc_loop:
        cmpq    $256, NBLK
        jb      .Lenc_after
        STEP    1, 1, 0
        subq    $256, NBLK
        jmp     .Lenc_loop
.Lenc_after:
        testq   NBLK, NBLK
        jnz     .Lenc_tail
        /* The last group's ciphertext: GHASH alone. */
        STEP    0, 1, 0
        FINISH
.Lenc_tail:
        /* A partial group: the AES of its n registers with the GHASH of the last whole
         * group, then its own GHASH. */
        TAIL_MASKS
        BY_REGS .Lenc_tail_
.irp n, 1, 2, 3, 4
.Lenc_tail_\n:
        STEP    1, 1, 0, 1, \n, 4
        TAIL_CLO
        TAIL_POWERS
        STEP    0, 1, 0, 0, 4, \n
        FINISH
.endr
.Lenc_tail_only:
        TAIL_MASKS
        BY_REGS .Lenc_only_
.irp n, 1, 2, 3, 4
.Lenc_only_\n:
        STEP    1, 0, 0, 1, \n, 4
        TAIL_CLO
        TAIL_POWERS
        STEP    0, 1, 0, 0, 4, \n
        FINISH
.endr
        .size   simdcrypt_aes_gcm_enc_vaes512, . - simdcrypt_aes_gcm_enc_vaes512

        .globl  simdcrypt_aes_gcm_dec_vaes512
        .hidden simdcrypt_aes_gcm_dec_vaes512
        .type   simdcrypt_aes_gcm_dec_vaes512, @function
        .p2align 5
simdcrypt_aes_gcm_dec_vaes512:
        SETUP
        .p2align 4
.Ldec_loop:
        cmpq    $256, NBLK
        jb      .Ldec_after
        STEP    1, 1, 1
        subq    $256, NBLK
        jmp     .Ldec_loop
.Ldec_after:
        testq   NBLK, NBLK
        jz      .Ldec_done
        /* A partial group: masked, with the powers shifted to its length, on the n
         * registers that hold its bytes. */
        TAIL_MASKS
        TAIL_POWERS
        BY_REGS .Ldec_tail_
.irp n, 1, 2, 3, 4
.Ldec_tail_\n:
        STEP    1, 1, 1, 1, \n, \n
        TAIL_CLO
        FINISH
.endr
.Ldec_done:
        FINISH
        .size   simdcrypt_aes_gcm_dec_vaes512, . - simdcrypt_aes_gcm_dec_vaes512

#endif

#if defined(__ELF__)
        .section .note.GNU-stack, "", @progbits
#endif
