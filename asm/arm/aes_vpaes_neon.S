/*
 * aes_vpaes_neon.S -- vector-permute AES (Hamburg, "Accelerating AES with Vector Permute
 * Instructions", CHES 2009) on ARMv7 NEON, one block at a time: ECB encryption, ECB
 * decryption, CBC encryption. For the serial modes and short calls of ARMv7 cores without
 * the AES instructions (src/aes/arm_vpaes.rs), next to the 8-block bitsliced kernel.
 *
 * The algorithm, the working basis and every table are those of src/aes/vperm.rs, in the
 * round structure of src/aes/aarch64_neon.rs (whose macros this transliterates: `inversion`,
 * `enc_round`, `dec_round`, `encrypt1`, `decrypt1`). Nothing is typed in here: the tables
 * come from Rust through the pointer in the key structure (struct tables below, built at
 * compile time from vperm.rs; src/aes/arm_vpaes.rs asserts every offset).
 *
 * Features: ARMv7-A, A32 state, NEON (Linux: AT_HWCAP bit 12). Token `ArmNeon` guards every
 * call. ABI: AAPCS, hard-float; ELF.
 *
 * struct keys (16-byte aligned):
 *      0  ek[15][16]   encryption round keys (vperm.rs basis and byte order, 0x63 folded in)
 *    240  dk[15][16]   decryption round keys
 *    480  nr           Nr = 10, 12 or 14 (uint32_t)
 *    484  tables       const struct tables * (16-byte aligned)
 * struct tables: 16-byte rows at the offsets T_* below (the names of vperm.rs).
 *
 * Entry points (n >= 0 whole 16-byte blocks, any alignment, in place; n == 0 is a no-op):
 *   void simdcrypt_vpaes_enc_neon(const struct keys *k, uint8_t *data, size_t n);
 *   void simdcrypt_vpaes_dec_neon(const struct keys *k, uint8_t *data, size_t n);
 *   void simdcrypt_vpaes_cbc_enc_neon(const struct keys *k, uint8_t iv[16], uint8_t *data,
 *                                     size_t n);   SP 800-38A §6.2; iv becomes the last
 *                                                  ciphertext block.
 *
 * A 16-byte shuffle (TBQ) is two VTBL.8 with a two-register (16-entry) table: an index of
 * 16 or more gives 0, as AArch64 TBL does, which the tables' infinity (0x80) relies on.
 * Constant time: data, key and state are only table indices held in registers (VTBL), and
 * operands of VAND/VEOR/VSHR; memory addresses depend on Nr and the round number only.
 * Before return every q register written is zero (vec_clear.h: CLEAR_NEON; q4-q7 are
 * restored from the stack), no core register holds a secret, and nothing is spilled.
 *
 * Registers (encryption; decryption uses q9-q12 as temporaries):
 *   r0 keys, r1 iv / data, r2 data / n, r3 n, r4 tables, r5 round-key cursor,
 *   r6 rounds left, r7 round number, r12 scratch address
 *   q15 0x0f, q14 INV, q13 C_OVER, q12 SB1_U, q11 SB1_T, q10 SB2_U, q9 SB2_T,
 *   q0 state, q1-q8 temporaries
 */

#if defined(__ELF__) && defined(__arm__)

#include "vec_clear.h"

        .syntax unified
        .arch   armv7-a
        .fpu    neon
        .arm
        .text

/* struct tables offsets (src/aes/arm_vpaes.rs `Tables`, asserted there). */
.equ    T_NIBBLE,  0
.equ    T_INV,     16
.equ    T_C_OVER,  32
.equ    T_IPT,     48       /* IPT_LO, IPT_HI */
.equ    T_SB1,     80       /* SB1_U, SB1_T */
.equ    T_SB2,     112      /* SB2_U, SB2_T */
.equ    T_SBO,     144      /* SBO_U, SBO_T */
.equ    T_ENC_MIX, 176      /* [4] of (ENC_F[r], ENC_F2[r], ENC_F3[r]): 48 bytes each */
.equ    T_SR_POW,  368      /* SR_POW[0..4] */
.equ    T_DIPT,    432      /* DIPT_LO, DIPT_HI */
.equ    T_DE,      464      /* DE_U, DE_T; then DB, DD, D9 (32 bytes each) */
.equ    T_DSBO,    592      /* DSBO_U, DSBO_T */
.equ    T_DEC_MIX, 624      /* [4] of (DEC_F[r], DEC_F2[r], DEC_F3[r]) */
.equ    T_SIZE,    816

.equ    K_DK,      240
.equ    K_NR,      480
.equ    K_TABLES,  484

/* Names for the halves of every q register (register names are case-insensitive: Qn is
 * qn): Qnl / Qnh are its d registers. */
Q0l .req d0
Q0h .req d1
Q1l .req d2
Q1h .req d3
Q2l .req d4
Q2h .req d5
Q3l .req d6
Q3h .req d7
Q4l .req d8
Q4h .req d9
Q5l .req d10
Q5h .req d11
Q6l .req d12
Q6h .req d13
Q7l .req d14
Q7h .req d15
Q8l .req d16
Q8h .req d17
Q9l .req d18
Q9h .req d19
Q10l .req d20
Q10h .req d21
Q11l .req d22
Q11h .req d23
Q12l .req d24
Q12h .req d25
Q13l .req d26
Q13h .req d27
Q14l .req d28
Q14h .req d29
Q15l .req d30
Q15h .req d31

/* \o = \t[\i] per byte (0 where the index is 16 or more). \o must differ from \t. */
.macro  TBQ o, t, i
        vtbl.8          \o\()l, {\t\()l, \t\()h}, \i\()l
        vtbl.8          \o\()h, {\t\()l, \t\()h}, \i\()h
.endm

/* The tower-field inversion (vperm.rs; aarch64_neon.rs `inversion!`): from the state Q0,
 * io in Q7 and jo in Q8. Needs Q15 = 0x0f, Q14 = INV, Q13 = C_OVER; clobbers Q1-Q6. */
.macro  INVERSION
        vshr.u8         Q1, Q0, #4              /* i */
        vand            Q2, Q0, Q15             /* k */
        veor            Q3, Q1, Q2              /* j = i ^ k */
        TBQ             Q4, Q13, Q2             /* ak = C_OVER[k] */
        TBQ             Q5, Q14, Q1
        TBQ             Q6, Q14, Q3
        veor            Q5, Q5, Q4              /* iak = INV[i] ^ ak */
        veor            Q6, Q6, Q4              /* jak = INV[j] ^ ak */
        TBQ             Q7, Q14, Q5
        TBQ             Q8, Q14, Q6
        veor            Q7, Q7, Q3              /* io = INV[iak] ^ j */
        veor            Q8, Q8, Q1              /* jo = INV[jak] ^ i */
.endm

/* Q0 = lo[Q0 & 15] ^ hi[Q0 >> 4] ^ key, the tables at [\p] (lo, hi), the key at [\k]!.
 * Clobbers Q1-Q4. */
.macro  TRANSFORM p, k
        vld1.8          {Q1l-Q2h}, [\p :128]
        vand            Q3, Q0, Q15
        vshr.u8         Q0, Q0, #4
        TBQ             Q4, Q1, Q3
        TBQ             Q3, Q2, Q0
        vld1.8          {Q1}, [\k]!
        veor            Q0, Q4, Q3
        veor            Q0, Q0, Q1
.endm

/* Loads the round-invariant registers of encryption: Q15, Q14, Q13, Q12-Q9. */
.macro  ENC_CONSTS
        add             r12, r4, #T_NIBBLE
        vld1.8          {Q15}, [r12 :128]
        add             r12, r4, #T_INV
        vld1.8          {Q14}, [r12 :128]!      /* then T_C_OVER */
        vld1.8          {Q13}, [r12 :128]
        add             r12, r4, #T_SB1
        vld1.8          {Q12}, [r12 :128]!
        vld1.8          {Q11}, [r12 :128]!
        vld1.8          {Q10}, [r12 :128]!
        vld1.8          {Q9}, [r12 :128]
.endm

/* Encrypts Q0 (standard basis in and out). Needs ENC_CONSTS, r0 keys, r4 tables; clobbers
 * Q1-Q8, r5-r7, r12. */
.macro  ENCRYPT1
        add             r12, r4, #T_IPT
        mov             r5, r0                  /* ek[0] */
        TRANSFORM       r12, r5
        ldr             r6, [r0, #K_NR]
        sub             r6, r6, #1              /* middle rounds */
        mov             r7, #1                  /* round number */
1:      INVERSION
        TBQ             Q1, Q12, Q7
        TBQ             Q2, Q11, Q8
        veor            Q1, Q1, Q2              /* s1 = SB1_U[io] ^ SB1_T[jo] */
        TBQ             Q2, Q10, Q7
        TBQ             Q3, Q9, Q8
        veor            Q2, Q2, Q3              /* s2 */
        veor            Q3, Q1, Q2              /* s1 ^ s2 */
        vld1.8          {Q4}, [r5]!             /* ek[r] */
        and             r12, r7, #3
        add             r12, r12, r12, lsl #1
        add             r12, r4, r12, lsl #4
        add             r12, r12, #T_ENC_MIX    /* (F, F2, F3)[r & 3] */
        veor            Q2, Q2, Q4              /* a = s2 ^ ek[r] */
        vld1.8          {Q4l-Q5h}, [r12 :128]!
        vld1.8          {Q6}, [r12 :128]
        TBQ             Q7, Q1, Q5              /* s1 . F2 */
        TBQ             Q8, Q1, Q6              /* s1 . F3 */
        TBQ             Q0, Q3, Q4              /* (s1 ^ s2) . F */
        veor            Q7, Q7, Q8
        add             r7, r7, #1
        veor            Q7, Q7, Q2
        veor            Q0, Q0, Q7              /* one XOR after the longest chain */
        subs            r6, r6, #1
        bne             1b
        INVERSION
        add             r12, r4, #T_SBO
        vld1.8          {Q1l-Q2h}, [r12 :128]
        TBQ             Q3, Q1, Q7
        TBQ             Q4, Q2, Q8
        and             r12, r7, #3             /* r7 = Nr */
        add             r12, r4, r12, lsl #4
        add             r12, r12, #T_SR_POW
        vld1.8          {Q5}, [r12 :128]        /* SR_POW[Nr & 3] */
        veor            Q3, Q3, Q4
        vld1.8          {Q6}, [r5]              /* ek[Nr] */
        TBQ             Q0, Q3, Q5
        veor            Q0, Q0, Q6
.endm

/* Decrypts Q0. Needs Q15 = 0x0f, Q14 = INV, Q13 = C_OVER, r0 keys, r4 tables; clobbers
 * Q1-Q12, r5-r7, r12. */
.macro  DECRYPT1
        add             r12, r4, #T_DIPT
        add             r5, r0, #K_DK           /* dk[0] */
        TRANSFORM       r12, r5
        ldr             r6, [r0, #K_NR]
        sub             r6, r6, #1
        mov             r7, #1
1:      INVERSION
        and             r12, r7, #3
        add             r12, r12, r12, lsl #1
        add             r12, r4, r12, lsl #4
        add             r12, r12, #T_DEC_MIX    /* (F, F2, F3)[r & 3] */
        vld1.8          {Q9l-Q10h}, [r12 :128]!
        vld1.8          {Q11}, [r12 :128]
        add             r12, r4, #T_DE
        vld1.8          {Q1l-Q2h}, [r12 :128]!  /* DE_U, DE_T */
        TBQ             Q0, Q1, Q7
        TBQ             Q3, Q2, Q8
        vld1.8          {Q12}, [r5]!            /* dk[r] */
        veor            Q0, Q0, Q3
        vld1.8          {Q1l-Q2h}, [r12 :128]!  /* DB_U, DB_T */
        veor            Q0, Q0, Q12             /* e */
        TBQ             Q3, Q1, Q7
        TBQ             Q4, Q2, Q8
        vld1.8          {Q1l-Q2h}, [r12 :128]!  /* DD_U, DD_T */
        veor            Q3, Q3, Q4
        TBQ             Q4, Q3, Q9              /* b */
        TBQ             Q5, Q1, Q7
        TBQ             Q6, Q2, Q8
        vld1.8          {Q1l-Q2h}, [r12 :128]   /* D9_U, D9_T */
        veor            Q5, Q5, Q6
        TBQ             Q6, Q5, Q10             /* d */
        TBQ             Q3, Q1, Q7
        TBQ             Q12, Q2, Q8
        veor            Q0, Q0, Q4
        veor            Q3, Q3, Q12
        TBQ             Q5, Q3, Q11             /* n */
        veor            Q0, Q0, Q6
        add             r7, r7, #1
        veor            Q0, Q0, Q5              /* e ^ b ^ d ^ n */
        subs            r6, r6, #1
        bne             1b
        INVERSION
        add             r12, r4, #T_DSBO
        vld1.8          {Q1l-Q2h}, [r12 :128]
        TBQ             Q3, Q1, Q7
        TBQ             Q4, Q2, Q8
        rsb             r12, r7, #4
        and             r12, r12, #3            /* (4 - (Nr & 3)) & 3 */
        add             r12, r4, r12, lsl #4
        add             r12, r12, #T_SR_POW
        vld1.8          {Q5}, [r12 :128]
        veor            Q3, Q3, Q4
        vld1.8          {Q6}, [r5]              /* dk[Nr] */
        TBQ             Q0, Q3, Q5
        veor            Q0, Q0, Q6
.endm

.macro  FUNC name
        .globl  \name
        .hidden \name
        .type   \name, %function
        .p2align 4
\name:
.endm

.macro  ENTER
        push            {r4-r7, lr}
        vpush           {d8-d15}
        ldr             r4, [r0, #K_TABLES]
.endm

.macro  LEAVE
        CLEAR_NEON                              /* state, keys, tables: vec_clear.h */
        vpop            {d8-d15}
        pop             {r4-r7, pc}
.endm

/* ECB encryption: r0 keys, r1 data, r2 n. */
FUNC    simdcrypt_vpaes_enc_neon
        cmp             r2, #0
        bxeq            lr
        ENTER
        ENC_CONSTS
2:      vld1.8          {Q0}, [r1]
        ENCRYPT1
        vst1.8          {Q0}, [r1]!
        subs            r2, r2, #1
        bne             2b
        LEAVE
        .size   simdcrypt_vpaes_enc_neon, .-simdcrypt_vpaes_enc_neon

/* ECB decryption: r0 keys, r1 data, r2 n. */
FUNC    simdcrypt_vpaes_dec_neon
        cmp             r2, #0
        bxeq            lr
        ENTER
        add             r12, r4, #T_NIBBLE
        vld1.8          {Q15}, [r12 :128]
        add             r12, r4, #T_INV
        vld1.8          {Q14}, [r12 :128]!
        vld1.8          {Q13}, [r12 :128]
2:      vld1.8          {Q0}, [r1]
        DECRYPT1
        vst1.8          {Q0}, [r1]!
        subs            r2, r2, #1
        bne             2b
        LEAVE
        .size   simdcrypt_vpaes_dec_neon, .-simdcrypt_vpaes_dec_neon

/* CBC encryption: r0 keys, r1 iv, r2 data, r3 n. The chaining value stays in Q0: after a
 * block is stored, Q0 is its ciphertext, and the next plaintext is XORed into it. */
FUNC    simdcrypt_vpaes_cbc_enc_neon
        cmp             r3, #0
        bxeq            lr
        ENTER
        ENC_CONSTS
        vld1.8          {Q0}, [r1]
2:      vld1.8          {Q1}, [r2]
        veor            Q0, Q0, Q1
        ENCRYPT1
        vst1.8          {Q0}, [r2]!
        subs            r3, r3, #1
        bne             2b
        vst1.8          {Q0}, [r1]
        LEAVE
        .size   simdcrypt_vpaes_cbc_enc_neon, .-simdcrypt_vpaes_cbc_enc_neon

        .section .note.GNU-stack,"",%progbits

#endif
