/*
 * aes_gcm_vaes.S (x86_64) -- stitched AES-GCM (NIST SP 800-38D sec. 7.1, 7.2): counter-mode
 * AES with VAES and GHASH with VPCLMULQDQ, both on 512-bit (zmm) registers, interleaved in one
 * loop of 16 blocks, and a final partial group under masks. Safe wrapper:
 * src/aead/aes_gcm/x86_64_vaes.rs.
 *
 * Features: VAES, AES-NI, VPCLMULQDQ, PCLMULQDQ, AVX, AVX2, AVX512F, AVX512VL, AVX512BW
 * (EVEX-encoded, zmm0-31, opmask registers k1-k4, `vpshufb` on zmm, `vpternlogd`,
 * `vextracti64x4`, `vshufi64x2`, `vpmovb2m`). The Rust tokens VaesAvx512 and VpclmulAvx512
 * prove them.
 * ABI: System V AMD64 psABI; both functions are leaves that use only caller-saved registers
 * (rax, rcx, rdx, rsi, rdi, r8-r11, all vector and opmask registers), no stack, and end with
 * CLEAR (vec_clear.h: every vector register zeroed). ELF only (the wrapper is compiled for Linux and the BSDs).
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
 *   i = 0..15 (R = byte-reversed block read as a little-endian integer; "twisted" powers).
 *   The multiply-and-reduce is that of asm/x86_64/ghash_vclmul.S:
 *       Y' = (Y ^ X_0) H^16 ^ X_1 H^15 ^ ... ^ X_15 H        (SP 800-38D sec. 6.4, unrolled)
 *   with the 255-bit products summed unreduced per lane in LO (a0 b0), MID (a0 b1 ^ a1 b0)
 *   and HI (a1 b1), reduced by two Montgomery steps with c = 0xc2000000_00000000 (the bits
 *   of x^128 + x^7 + x^2 + x + 1 reversed, over 2^64):
 *       MID ^= clmul(LO.lo, c) ^ swap64(LO);  RES = HI ^ clmul(MID.lo, c) ^ swap64(MID)
 *   each lane on its own, so a lane's reduced sum is what its own products add up to.
 *
 * Lane-parallel GHASH. The last whole group of a call (and a partial one) is hashed as above
 * with the powers h[4r..4r+3] (POW_STD: block 4r + j of the group, in lane j of register r,
 * times H^(16-4r-j)), and the four lanes of RES are XORed into Y (GH_FOLD). Every other
 * group leaves them apart: there register r is multiplied by h[4r] = H^(16-4r) in all four
 * lanes (POW_LANE), and lane j of RES is A_j = (A_j ^ X_j) H^16 ^ X_(4+j) H^12 ^ X_(8+j) H^8
 * ^ X_(12+j) H^4, the A of the group before added to lane j of X0 as Y was (SETUP sets
 * A = (Y, 0, 0, 0)). By induction, for every m >= 3, Y H^m = A_0 H^m ^ A_1 H^(m-1) ^
 * A_2 H^(m-2) ^ A_3 H^(m-3) after each such group (the step is Y' = Y H^16 ^ sum X_i H^(16-i)
 * with lane j's terms carrying H^-j), so the standard pass that follows, which multiplies
 * lane j of X0 by H^(16-j), gives the true Y' and folds it: no lane fold (two shuffles and
 * two XORs) per group but the last. The reduced sum is also left split, HI ^ swap64(MID),
 * and added to X0 with the next group's data in one three-way XOR (GH_PREP). From AGG_MIN
 * bytes on, the lane-parallel groups go in pairs with one reduction for both (the two
 * lane-parallel steps composed): the first group's registers times H^32, H^28, H^24, H^20
 * (HQ0-HQ3, made once per call by POW_AGG from the table's own powers), summed unreduced
 * with the second's times H^16 .. H^4. That saves two `vpclmulqdq`, two `vpshufd` and one
 * XOR per pair; below AGG_MIN the one-off POW_AGG costs more than it saves.
 *
 * Counter (SP 800-38D sec. 6.2, 6.5): GCTR increments only the low 32 bits of the counter
 * block (inc32), which are its bytes 12..15, big-endian. W holds the next four counter
 * blocks already XORed with k[0] (AES's first AddRoundKey), lane j = counter + j; CLO the
 * low word as a native integer. While the low byte b of a group's first counter is at most
 * 236, its 16 counters and the next W differ from W only in byte 15, with no carry (236 + 3
 * + 16 = 255), so register r + 1 is register r XOR a fixed delta of b: (b + 4r + j + 4) ^
 * (b + 4r + j) in byte 15 of lane j, one 64-byte row of .Lctrtab (rows of a table per b % 4,
 * so that each load is aligned), four XORs per group in all (CTR_R1). Otherwise (at most two
 * groups in 16) they are made exactly: byte-reversing the block puts the low word in dword 0
 * of the lane as a little-endian integer, so counter + i is a `vpaddd` of i to dword 0 (mod
 * 2^32, exactly inc32; the other dwords are untouched) and a `vpshufb` back.
 *
 * Partial group (nbytes % 256 = b > 0, last; r = ceil(b / 16) blocks): the same pass under
 * the byte masks k1-k4 of its b bytes: masked-off bytes are neither read nor written
 * (masked-off elements do not fault), are zero in C0-C3, and so add nothing to the GHASH
 * beyond the zero padding of the last block, which uses the powers from h[16-r] on
 * (TAIL_POWERS): block j of the group times H^(r-j). Only the ceil(b / 64) registers that
 * hold any of its bytes run the AES rounds and the GHASH products (STEP's an and gn; one
 * copy of the pass per count, chosen by BY_REGS). The group before it is a standard one, so
 * the tail starts from Y in lane 0 (r may be less than 3).
 *
 * Schedule. One iteration runs the rounds of 16 counter blocks (S0-S3) and between them the
 * GHASH of 16 ciphertext blocks (C0-C3): VAES on zmm issues to one port (p0 here) and
 * VPCLMULQDQ and the shuffles to another (p5), the XORs and adds to either, so the loop is
 * bound by its vector instruction count on those two ports, per 16 blocks for AES-128 in
 * the pair loops 79 (82 in a single lane-parallel group): 40 `vaesenc`/`vaesenclast`;
 * 16 + 1 (2) `vpclmulqdq`, 4 `vpshufb`, 1 (2) `vpshufd`; 4 XORs for the counters, 9 (10)
 * for the GHASH sums, 4 for k[Nr] ^ data. The loops are copied per Nr (no round count
 * branch in them), the GHASH steps go after AES rounds 1-7 (GH_SLOT), and enc XORs its
 * plaintext with k[Nr] early, into C0-C3, once they are hashed. Measured on the Emerald
 * Rapids development machine (core cycles per 16 blocks, the loop alone, 64-byte aligned
 * data): CTR alone 40, GHASH alone 23.4 (its latency), the single-group loop 42.5 for
 * AES-128 (0.166 cycles/byte; before the lane-parallel GHASH and the table deltas: 46) and
 * 56.5 for AES-256 (its 56 `vaesenc`); the pair loop about 0.5 less (1.5 less on data that
 * is only 16-byte aligned, where split loads and stores cost about 2 more). One call of
 * 16 KiB: about 43.5 per 16 blocks for AES-128, enc or dec (before: 46.5 enc, 48 dec), and
 * 56 for AES-256 (before: 59 enc, 56.5 dec). enc hashes the ciphertext of the previous
 * iteration (kept in C0-C3: the last round writes it there), so it runs one group of AES
 * alone first and one group of GHASH alone last; dec hashes the ciphertext it is about to
 * decrypt (loaded into C0-C3), with no lag. (A 32-block iteration, 8 AES registers with two
 * GHASH groups and the powers as memory operands, measured slower: 0.21 cycles/byte.
 * Peeling 1-3 blocks to align the data measured slower below 16 KiB and for AES-256.)
 *
 * Nothing branches on or indexes memory by key, H, Y or data. The branches depend on Nr, the
 * block count and (CTR_R1) the low byte of the counter, and the row of .Lctrtab read is
 * chosen by that byte: the counter must be public, which it is: the wrapper runs this only
 * for 96-bit IVs, whose counter blocks are nonce || count.
 *
 * Registers:
 *   rdi RK   rsi NR   rdx ST (state)   rcx DATA   r9 POW
 *   r8 NBLK   bytes left (in the loops minus 256 or 512); in a partial group, its block
 *             count r (TAIL_MASKS)
 *   r10d CLO  the low 32 bits of the next counter block, native byte order
 *   r11 TP    the row of .Lctrtab for the next group
 *   rax       scratch (offset of k[Nr], mask address, register count, power offset, CTR_TP)
 *   k1-k4     byte masks of a partial group's bytes
 *   zmm0-3   S0-S3   AES state (4 blocks each)
 *   zmm4-7   C0-C3   ciphertext blocks to hash (as in memory); enc: then k[Nr] ^ plaintext
 *   zmm8, zmm21, zmm23, zmm31  HQ0-HQ3  H^32, H^28, H^24, H^20 in all lanes (pair loops)
 *   zmm9-11  LO, HI, MID   unreduced sums; between groups HI ^ MID is the running value
 *   zmm12-15 P0-P3   products, scratch
 *   zmm16-19 HP0-HP3 the powers of registers 0-3 (POW_LANE, POW_STD or TAIL_POWERS)
 *   zmm20    BSW     lane byte-reversal mask
 *   zmm22    W       next counters ^ k[0]         zmm24-27 X0-X3  R(ciphertext blocks)
 *   zmm28    KEY     round key                    zmm29 K0    k[0]
 *   zmm30    KL      k[Nr]                        zmm31 T     KL ^ data (partial group)
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
#define TP      %r11
#define TPD     %r11d
#define CLO     %r10d
#define CLOB    %r10b
#define INC4    .Linc4x(%rip)
#define INC8    .Linc8x(%rip)
#define INC12   .Linc12x(%rip)
#define INC16   .Linc16x(%rip)

#define S0      %zmm0
#define S1      %zmm1
#define S2      %zmm2
#define S3      %zmm3
#define C0      %zmm4
#define C1      %zmm5
#define C2      %zmm6
#define C3      %zmm7
#define HQ0     %zmm8
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
#define HQ1     %zmm21
#define POLY    .Lpoly4(%rip)
#define W       %zmm22
#define HQ2     %zmm23
#define X0      %zmm24
#define X1      %zmm25
#define X2      %zmm26
#define X3      %zmm27
#define KEY     %zmm28
#define K0      %zmm29
#define KL      %zmm30
#define T       %zmm31
#define HQ3     %zmm31

        .section .rodata
        .p2align 6
/* vpshufb mask reversing the 16 bytes of each lane. */
.Lbswap:
        .byte   15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
/* Per-lane offsets 0, 1, 2, 3 in dword 0 of each lane. */
        .p2align 6
.Llanes:
        .long   0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0
/* Counter steps of 1-4 registers (4 blocks each), byte-reversed: 4 r in dword 0 of each lane. */
.Linc4x:
        .long   4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0
.Linc8x:
        .long   8, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0
.Linc12x:
        .long   12, 0, 0, 0, 12, 0, 0, 0, 12, 0, 0, 0, 12, 0, 0, 0
.Linc16x:
        .long   16, 0, 0, 0, 16, 0, 0, 0, 16, 0, 0, 0, 16, 0, 0, 0
/* The reduction constant c in the low qword of each lane (a memory operand: POLY). */
.Lpoly4:
        .quad   0xc200000000000000, 0, 0xc200000000000000, 0
        .quad   0xc200000000000000, 0, 0xc200000000000000, 0
/*
 * The counter deltas of CTR_R1, e(y) = (y + 4) ^ y: four tables, for the low byte b of the
 * first counter of a group = t = 0, 1, 2, 3 mod 4, each of 63 rows of 64 bytes and one of
 * padding (16 KiB in all), row u (b = 4 u + t) zero but for byte 15 of each lane j,
 * e(b + j). Rows u, u + 1, u + 2 and u + 3 take W to S1, S1 to S2, S2 to S3 and S3 to the
 * next W (while b <= 236, with no carry out of byte 15); each row is a whole cache line, so
 * its load is aligned. A call touches one table only (b % 4 stays), about 4 KiB.
 */
        .p2align 6
.Lctrtab:
.irp t, 0, 1, 2, 3
        .set    .Ly, \t
        .rept   63
        .fill   15, 1, 0
        .byte   ((.Ly + 4) ^ .Ly) & 0xff
        .fill   15, 1, 0
        .byte   ((.Ly + 5) ^ (.Ly + 1)) & 0xff
        .fill   15, 1, 0
        .byte   ((.Ly + 6) ^ (.Ly + 2)) & 0xff
        .fill   15, 1, 0
        .byte   ((.Ly + 7) ^ (.Ly + 3)) & 0xff
        .set    .Ly, .Ly + 4
        .endr
        .fill   64, 1, 0
.endr
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
 * CTR_R1 n: S0..S(n-1) = AES round 1 of the 16 counter blocks ^ k[0] from W on; W, CLO and
 * TP advance past them. W holds four counter blocks ^ k[0], in memory (big-endian) order,
 * lane j = counter + j; TP points at the row of .Lctrtab for b, the low byte of the counter
 * (byte 15 of the block). While b is at most 236, the 16 counters and the next W differ from
 * W only in byte 15, with no carry (236 + 3 + 16 = 255): then each register is the one before
 * XOR a row of TP, one XOR each (the XOR with k[0] is already in W), and TP moves 4 rows on.
 * Round 1 of S0 reads W itself, before the last XOR moves W on. Otherwise (at most two
 * groups in 16) S3 first holds the byte-reversed counters, whose dword 0 is the low word as
 * an integer: each register is a `vpaddd` of 4 r to it (exactly inc32), a `vpshufb` ^ k[0],
 * and TP is recomputed. The branch and the table row depend on the counter only, which the
 * caller keeps public.
 */
.macro CTR_R1 n=4
        vbroadcasti32x4 16(RK), KEY
        cmpb    $236, CLOB
        jbe     .Lctr_fast\@
        vpxorq  K0, W, S3                       /* S3: the counters, byte-reversed */
        vaesenc KEY, W, S0
        vpshufb BSW, S3, S3
.if \n > 1
        vpaddd  INC4, S3, S1
        vpshufb BSW, S1, S1
        vpxorq  K0, S1, S1
.endif
.if \n > 2
        vpaddd  INC8, S3, S2
        vpshufb BSW, S2, S2
        vpxorq  K0, S2, S2
.endif
.if \n > 3
        vpaddd  INC16, S3, W
        vpshufb BSW, W, W
        vpxorq  K0, W, W
        vpaddd  INC12, S3, S3
        vpshufb BSW, S3, S3
        vpxorq  K0, S3, S3
.endif
        addl    $16, CLO
        CTR_TP
        jmp     .Lctr_r1\@
.Lctr_fast\@:
.if \n > 1
        vpxorq  0(TP), W, S1
.endif
.if \n > 2
        vpxorq  64(TP), S1, S2
.endif
.if \n > 3
        vpxorq  128(TP), S2, S3
.endif
        vaesenc KEY, W, S0
.if \n > 3
        vpxorq  192(TP), S3, W
.endif
        addl    $16, CLO
        addq    $256, TP
.Lctr_r1\@:
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

/* CTR_TP: TP = the row of .Lctrtab for the counter's low byte b: table b % 4 (4096 bytes
 * each), row b / 4. */
.macro CTR_TP
        movzbl  CLOB, %eax
        movl    %eax, TPD
        andl    $3, %eax
        shll    $12, %eax
        andl    $0xfc, TPD
        shll    $4, TPD
        addl    %eax, TPD
        leaq    .Lctrtab(%rip), %rax
        addq    %rax, TP
.endm

/*
 * GHASH of C0..C(gn-1). The running value enters split: Y = HI ^ MID, summed per lane (lane
 * j of Y is multiplied by lane j of HP0; SETUP zeroes MID). GH_PREP: X_r = R(C_r) for r < n,
 * and HI ^ MID added to X0.
 */
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
        vpternlogd $0x96, MID, HI, X0
.endm

/*
 * A whole group (gn = 4), in the steps G4_MUL0..G4_RED2 spread over the AES rounds: the 16
 * schoolbook products of X_r and HP_r land in LO (a0 b0), HI (a1 b1), MID (a0 b1, a1 b0) and
 * the scratch registers P0-P3 and X0-X3 (each X_r is free once its four products are made),
 * summed with three-way XORs: 10 XOR instructions for the 18 additions (including Y's and
 * the two per reduction step), the fewest for these three sums. G4_RED2 leaves the result
 * split, HI ^ swap64(MID) (added in the next GH_PREP, or by G4_JOIN).
 */
.macro G4_MUL0 h=HP0
        vpclmulqdq $0x00, \h, X0, LO
        vpclmulqdq $0x11, \h, X0, HI
        vpclmulqdq $0x01, \h, X0, MID
        vpclmulqdq $0x10, \h, X0, X0
.endm
.macro G4_MUL1 h=HP1
        vpclmulqdq $0x00, \h, X1, P0
        vpclmulqdq $0x11, \h, X1, P1
        vpclmulqdq $0x01, \h, X1, P2
        vpclmulqdq $0x10, \h, X1, X1
        vpternlogd $0x96, P2, X0, MID
.endm
.macro G4_MUL2 h=HP2
        vpclmulqdq $0x00, \h, X2, P2
        vpclmulqdq $0x11, \h, X2, P3
        vpclmulqdq $0x01, \h, X2, X0
        vpclmulqdq $0x10, \h, X2, X2
        vpternlogd $0x96, P2, P0, LO
        vpternlogd $0x96, P3, P1, HI
        vpternlogd $0x96, X0, X1, MID
.endm
.macro G4_MUL3
        vpclmulqdq $0x00, HP3, X3, P0
        vpclmulqdq $0x11, HP3, X3, P1
        vpclmulqdq $0x01, HP3, X3, X0
        vpclmulqdq $0x10, HP3, X3, X3
        vpxorq  P0, LO, LO
        vpternlogd $0x96, X0, X2, MID
.endm
/* G4_RED1: MID ^= X3 ^ clmul(LO.lo, c) ^ swap64(LO), clearing the low qword of each lane. */
.macro G4_RED1
        vpclmulqdq $0x00, POLY, LO, P0
        vpshufd $0x4e, LO, LO
        vpternlogd $0x96, P0, X3, MID
        vpxorq  LO, MID, MID
.endm
/* G4_RED2: HI ^= P1 ^ clmul(MID.lo, c), MID = swap64(MID): each lane's reduced sum is
 * HI ^ MID. G4_JOIN: HI = that sum, MID = 0 (for the fold). */
.macro G4_RED2
        vpclmulqdq $0x00, POLY, MID, P2
        vpshufd $0x4e, MID, MID
        vpternlogd $0x96, P2, P1, HI
.endm
/*
 * Two groups per reduction (the pair loops): the first (A) with the powers HQ0-HQ3 = H^32,
 * H^28, H^24, H^20 in all lanes, summed unreduced (A_MUL3 leaves P0, P1, P3 for LO, HI,
 * MID), the second (B) added to the same sums (B_MUL0, then G4_MUL1..G4_RED2).
 */
.macro A_MUL3
        vpclmulqdq $0x00, HQ3, X3, P0
        vpclmulqdq $0x11, HQ3, X3, P1
        vpclmulqdq $0x01, HQ3, X3, P2
        vpclmulqdq $0x10, HQ3, X3, P3
        vpternlogd $0x96, P2, X2, MID
.endm
.macro B_MUL0
        vpclmulqdq $0x00, HP0, X0, P2
        vpternlogd $0x96, P2, P0, LO
        vpclmulqdq $0x11, HP0, X0, P0
        vpternlogd $0x96, P0, P1, HI
        vpclmulqdq $0x01, HP0, X0, P1
        vpclmulqdq $0x10, HP0, X0, X0
        vpternlogd $0x96, P1, P3, MID
.endm
/* B_PREP: X_r = R(C_r) (the running value went into group A). */
.macro B_PREP
        vpshufb BSW, C0, X0
        vpshufb BSW, C1, X1
        vpshufb BSW, C2, X2
        vpshufb BSW, C3, X3
.endm
/*
 * POW_AGG: HQ0-HQ3 = h[0] times h[0], h[4], h[8], h[12]: the multiply-and-reduce of R(A)
 * by twisted R(B x^-1) is R(A B), so with A = H^16 x^-1 (h[0] itself) it gives the twisted
 * H^32, H^28, H^24, H^20, one per lane, then broadcast. Uses X0-X3, P0-P3.
 */
#define AGG_MIN 2048
.macro POW_AGG
        vbroadcasti32x4 0(POW), X1
        vinserti32x4 $1, 64(POW), X1, X1
        vinserti32x4 $2, 128(POW), X1, X1
        vinserti32x4 $3, 192(POW), X1, X1
        vpclmulqdq $0x00, X1, HP0, X2
        vpclmulqdq $0x11, X1, HP0, X3
        vpclmulqdq $0x01, X1, HP0, P0
        vpclmulqdq $0x10, X1, HP0, P1
        vpxorq  P1, P0, P0
        vpclmulqdq $0x00, POLY, X2, P1
        vpshufd $0x4e, X2, X2
        vpternlogd $0x96, P1, X2, P0
        vpclmulqdq $0x00, POLY, P0, P1
        vpshufd $0x4e, P0, P0
        vpternlogd $0x96, P1, P0, X3
        vshufi64x2 $0x00, X3, X3, HQ0
        vshufi64x2 $0x55, X3, X3, HQ1
        vshufi64x2 $0xaa, X3, X3, HQ2
        vshufi64x2 $0xff, X3, X3, HQ3
.endm
.macro G4_JOIN
        vpxorq  MID, HI, HI
        vpxor   %xmm11, %xmm11, %xmm11
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

/* GH_RED1: MID ^= clmul(LO.lo, c) ^ swap64(LO), clearing the low qword of each lane. */
.macro GH_RED1
        vpclmulqdq $0x00, POLY, LO, P0
        vpshufd $0x4e, LO, LO
        vpternlogd $0x96, P0, LO, MID
.endm

/* GH_RED2: HI ^= clmul(MID.lo, c) ^ swap64(MID): each lane's reduced sum; MID = 0. */
.macro GH_RED2
        vpclmulqdq $0x00, POLY, MID, P1
        vpshufd $0x4e, MID, MID
        vpternlogd $0x96, P1, MID, HI
        vpxor   %xmm11, %xmm11, %xmm11
.endm

/* GH_FOLD: HI = lane 0 ^ lane 1 ^ lane 2 ^ lane 3 of HI in lane 0, the others zero (the VEX
 * XORs zero the upper lanes). */
.macro GH_FOLD
        vextracti64x4 $1, HI, %ymm14
        vpxor   %ymm14, %ymm10, %ymm10
        vextracti128 $1, %ymm10, %xmm14
        vpxor   %xmm14, %xmm10, %xmm10
.endm

/*
 * GH_SLOT k, gn, fold: the part of the GHASH of C0..C(gn-1) that goes after AES round k
 * (k = 1..7). fold = 1: HI ends as the single reduced sum in lane 0 (and MID = 0); fold = 0
 * (gn = 4 only): left split and per lane. agg = 1, 2: the first or second group of a pair.
 */
.macro GH_SLOT k, gn, fold, agg=0
.if \agg == 1
.if \k == 1
        GH_PREP 4
.elseif \k == 2
        G4_MUL0 HQ0
.elseif \k == 4
        G4_MUL1 HQ1
.elseif \k == 5
        G4_MUL2 HQ2
.elseif \k == 7
        A_MUL3
.endif
.elseif \agg == 2
.if \k == 1
        B_PREP
.elseif \k == 2
        B_MUL0
.elseif \k == 3
        G4_MUL1
.elseif \k == 4
        G4_MUL2
.elseif \k == 5
        G4_MUL3
.elseif \k == 6
        G4_RED1
.elseif \k == 7
        G4_RED2
.endif
.elseif \gn == 4
.if \k == 1
        GH_PREP 4
.elseif \k == 2
        G4_MUL0
.elseif \k == 3
        G4_MUL1
.elseif \k == 4
        G4_MUL2
.elseif \k == 5
        G4_MUL3
.elseif \k == 6
        G4_RED1
        G4_RED2
.elseif \k == 7
.if \fold
        G4_JOIN
        GH_FOLD
.endif
.endif
.else
.if \k == 1
        GH_PREP \gn
.elseif \k == 2
        GH_MUL0 X0, HP0
.elseif \k == 3
.if \gn > 1
        GH_MUL  X1, HP1
.endif
.elseif \k == 4
.if \gn > 2
        GH_MUL  X2, HP2
.endif
.elseif \k == 6
        GH_RED1
        GH_RED2
.elseif \k == 7
        GH_FOLD
.endif
.endif
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
 * TAIL_CLO: after the pass, CLO counts only the r blocks it used (its CTR_R1 added 16).
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
        movq    NBLK, %rax
        negq    %rax
        shlq    $4, %rax                        /* -16 r */
        vmovdqu64 256(POW,%rax), HP0
        vmovdqu64 320(POW,%rax), HP1
        vmovdqu64 384(POW,%rax), HP2
        vmovdqu64 448(POW,%rax), HP3
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
 * The powers of a 16-block group. POW_LANE: HP_r = h[4r] = H^(16-4r) in all four lanes, for
 * the lane-parallel groups (a group that another whole group follows: no fold). POW_STD:
 * HP_r = h[4r..4r+3], lane j of HP_r = H^(16-4r-j), for the last whole group of a call.
 */
.macro POW_LANE
        vbroadcasti32x4 0(POW), HP0
        vbroadcasti32x4 64(POW), HP1
        vbroadcasti32x4 128(POW), HP2
        vbroadcasti32x4 192(POW), HP3
.endm
.macro POW_STD
        vmovdqu64 0(POW), HP0                   /* H^16 H^15 H^14 H^13 */
        vmovdqu64 64(POW), HP1                  /* H^12 .. H^9 */
        vmovdqu64 128(POW), HP2                 /* H^8 .. H^5 */
        vmovdqu64 192(POW), HP3                 /* H^4 .. H^1 */
.endm

/*
 * STEP aes, gh, dec, tail, an, gn, fold, nr, agg: one group of up to 16 blocks.
 *   aes: encrypt (dec = 0) or decrypt (dec = 1) the blocks at DATA; enc leaves the
 *        ciphertext in C0-C3, dec hashes the ciphertext it loads into C0-C3 first.
 *   gh:  hash C0-C3 into HI, its steps spread over AES rounds 1-7 when aes = 1.
 *   tail: the group is partial: loads, stores and C0-C3 under the byte masks k1-k4.
 *   an, gn: the registers of AES (S0..S(an-1)) and of GHASH (C0..C(gn-1)) that hold blocks:
 *        4, except in a partial group, which needs only ceil(bytes / 64) (TAIL_MASKS).
 *   fold: 1: HI folded to one lane (POW_STD powers); 0: left lane-parallel (POW_LANE).
 *   nr:  the round count if known here (10, 12, 14), else 0: branch on NR.
 *   agg: 0, or the group of a pair (1: first, HQ powers, unreduced; 2: second, reduced).
 */
.macro STEP aes, gh, dec, tail=0, an=4, gn=4, fold=1, nr=0, agg=0
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
        CTR_R1  \an
.endif
.if \gh
        GH_SLOT 1, \gn, \fold, \agg
.endif
.if \aes && !\dec && !\tail
        vpxorq  0(DATA), KL, C0                 /* k[Nr] ^ plaintext: C0-C3 are hashed */
        vpxorq  64(DATA), KL, C1
        vpxorq  128(DATA), KL, C2
        vpxorq  192(DATA), KL, C3
.endif
.irp k, 2, 3, 4, 5, 6, 7
.if \aes
        ROUND   (16 * \k), \an
.endif
.if \gh
        GH_SLOT \k, \gn, \fold, \agg
.endif
.endr
.if \aes
        ROUND   128, \an
        ROUND   144, \an
.if \nr == 0
        cmpq    $12, NR
        jb      .Llast\@
        ROUND   160, \an
        ROUND   176, \an
        je      .Llast\@                        /* the flags of the cmpq */
        ROUND   192, \an
        ROUND   208, \an
.else
.if \nr > 10
        ROUND   160, \an
        ROUND   176, \an
.endif
.if \nr > 12
        ROUND   192, \an
        ROUND   208, \an
.endif
.endif
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
        vpxorq  C0, KL, C0                      /* C0-C3 are hashed */
        vaesenclast C0, S0, S0
        vmovdqu64 S0, 0(DATA)
        vpxorq  C1, KL, C1
        vaesenclast C1, S1, S1
        vmovdqu64 S1, 64(DATA)
        vpxorq  C2, KL, C2
        vaesenclast C2, S2, S2
        vmovdqu64 S2, 128(DATA)
        vpxorq  C3, KL, C3
        vaesenclast C3, S3, S3
        vmovdqu64 S3, 192(DATA)
.else
        vaesenclast C0, S0, C0
        vmovdqu64 C0, 0(DATA)
        vaesenclast C1, S1, C1
        vmovdqu64 C1, 64(DATA)
        vaesenclast C2, S2, C2
        vmovdqu64 C2, 128(DATA)
        vaesenclast C3, S3, C3
        vmovdqu64 C3, 192(DATA)
.endif
        addq    $256, DATA
.endif
.endm

/* SETUP: constants, k[0], k[Nr], the lane powers, R(Y) and the counters from the state;
 * TP. */
.macro SETUP
        vbroadcasti32x4 .Lbswap(%rip), BSW
        vbroadcasti32x4 (RK), K0
        movq    NR, %rax
        shlq    $4, %rax
        vbroadcasti32x4 (RK,%rax), KL
        POW_LANE
        vmovdqu64 0(ST), %xmm10
        vpshufb %xmm20, %xmm10, %xmm10          /* R(Y) in HI; the upper lanes are zeroed */
        vpxor   %xmm11, %xmm11, %xmm11          /* MID = 0 */
        vbroadcasti32x4 16(ST), W
        vpshufb BSW, W, W
        vpaddd  .Llanes(%rip), W, W             /* inc32 by 0..3, on the reversed block */
        vpshufb BSW, W, W                       /* lane j = counter + j, memory order */
        vpxorq  K0, W, W
        movl    28(ST), CLO
        bswapl  CLO
        CTR_TP
.endm

/* BY_NR l: jumps to l10, l12 or l14 by NR. */
.macro BY_NR l
        cmpq    $12, NR
        jb      \l\()10
        je      \l\()12
        jmp     \l\()14
.endm

/* FINISH: Y and the next counter block back to the state. */
.macro FINISH
        vpshufb %xmm20, %xmm10, %xmm10
        vmovdqu64 %xmm10, 0(ST)
        movl    CLO, %eax
        bswapl  %eax
        movl    %eax, 28(ST)                    /* inc32: only the low word changed */
        CLEAR
        ret
.endm

        .globl  simdcrypt_aes_gcm_enc_vaes512
        .hidden simdcrypt_aes_gcm_enc_vaes512
        .type   simdcrypt_aes_gcm_enc_vaes512, @function
        .p2align 5
simdcrypt_aes_gcm_enc_vaes512:
        ENDBR
        SETUP
        cmpq    $256, NBLK
        jb      .Lenc_tail_only
        BY_NR   .Lenc_nr
/*
 * One copy per Nr: the first group, AES alone (there is no ciphertext to hash yet), then the
 * loop, each iteration the AES of a group with the GHASH of the one before, lane-parallel (the
 * last group's GHASH follows). In the loop NBLK = the bytes left minus 256.
 */
.irp nr, 10, 12, 14
.Lenc_nr\nr:
        STEP    1, 0, 0, nr=\nr
        subq    $512, NBLK
        jb      .Lenc_exit
        cmpq    $(AGG_MIN - 256), NBLK
        jb      .Lenc_loop1\nr
        subq    $256, NBLK
        POW_AGG
        .p2align 6
.Lenc_loop2\nr:
        STEP    1, 1, 0, fold=0, nr=\nr, agg=1
        STEP    1, 1, 0, fold=0, nr=\nr, agg=2
        subq    $512, NBLK
        jae     .Lenc_loop2\nr
        addq    $256, NBLK
        jnc     .Lenc_exit
        .p2align 6
.Lenc_loop1\nr:
        STEP    1, 1, 0, fold=0, nr=\nr
        subq    $256, NBLK
        jae     .Lenc_loop1\nr
        jmp     .Lenc_exit
.endr
.Lenc_exit:
        addq    $256, NBLK
        POW_STD
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
        ENDBR
        SETUP
        BY_NR   .Ldec_nr
/*
 * One copy per Nr: the groups that another whole group follows, lane-parallel (in the loop
 * NBLK = the bytes left minus 512), then the last whole group, folded.
 */
.irp nr, 10, 12, 14
.Ldec_nr\nr:
        subq    $512, NBLK
        jb      .Ldec_last\nr
        cmpq    $(AGG_MIN - 512), NBLK
        jb      .Ldec_loop1\nr
        subq    $256, NBLK
        POW_AGG
        .p2align 6
.Ldec_loop2\nr:
        STEP    1, 1, 1, fold=0, nr=\nr, agg=1
        STEP    1, 1, 1, fold=0, nr=\nr, agg=2
        subq    $512, NBLK
        jae     .Ldec_loop2\nr
        addq    $256, NBLK
        jnc     .Ldec_last\nr
        .p2align 6
.Ldec_loop1\nr:
        STEP    1, 1, 1, fold=0, nr=\nr
        subq    $256, NBLK
        jae     .Ldec_loop1\nr
.Ldec_last\nr:
        addq    $512, NBLK
        cmpq    $256, NBLK
        jb      .Ldec_after
        POW_STD
        STEP    1, 1, 1, nr=\nr
        subq    $256, NBLK
        jmp     .Ldec_after
.endr
.Ldec_after:
        testq   NBLK, NBLK
        jz      .Ldec_done
        /* A partial group: masked, with the powers shifted to its length, on the n
         * registers that hold its bytes. */
        TAIL_MASKS
        BY_REGS .Ldec_tail_
.irp n, 1, 2, 3, 4
.Ldec_tail_\n:
        TAIL_POWERS
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
