#!/usr/bin/env python3
"""Generates asm/arm/aes_bs_neon.S, the fixsliced AES kernel on 32-bit ARM NEON.

Run from the repository root: `python3 scripts/gen_aes_bs_neon.py > asm/arm/aes_bs_neon.S`.

Everything but the two S-box macros is the template TEMPLATE below, printed as it is. The
S-boxes are the Boyar-Peralta circuits of src/aes/fixslice.rs (`sub_bytes`, 128 XOR/AND
gates, and `inv_sub_bytes`, 127), parsed from there. Their temporaries do not fit in the 16
q registers, so the script

  1. takes the gates in the order ORDER_SUB_BYTES / ORDER_INV_SUB_BYTES (a topological order
     of the circuit, found by `--search`: random list scheduling biased towards gates that
     end the life of an operand, keeping the order that step 2 makes cheapest);
  2. gives each value a register by a linear scan, spilling the value whose next use is
     furthest away (Belady) to a 16-byte stack slot when all 16 are taken, reloading it
     before its next use, and steering the output bit b into q<b>, where input bit b was,
     so that the round loop closes;
  3. checks the allocated program against the circuit on random inputs (bit-parallel
     simulation of every instruction), and prints it with one comment per gate.

`--search N SEED` reruns step 1 for N random schedules per circuit and prints the best
orders (at most 10 spill slots: their addresses live in sp and 9 general registers). The
orders below are ORDER_SUB_BYTES of `--search 20000 7` (22 loads, stores and moves) and
ORDER_INV_SUB_BYTES of `--search 60000 11` (26).
"""

import random
import re
import sys

FIXSLICE = "src/aes/fixslice.rs"
NREG = 16
MAXSLOTS = 10
# Spill slot j is at sp + 16 j; the batch routines put its address in this register.
SLOTREG = ["sp", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r12"]

ORDER_SUB_BYTES = [
    "t5", "t1", "t11", "t7", "t12", "t21", "t3", "t2", "t22", "t4", "t18", "t19", "t23", "t13",
    "t27", "t16", "t9", "t17", "m12", "t15", "t6", "t14", "t10", "m7", "t26", "m1", "m3", "m4",
    "m5", "t24", "m17", "t20", "m14", "m6", "m8", "m18", "m11", "m15", "m13", "m21", "m22",
    "t8", "m34", "m9", "m10", "m19", "m2", "m16", "m20", "t25", "m23", "m24", "m35", "m25",
    "m26", "m30", "m39", "m48", "m36", "m40", "m57", "m47", "m56", "m28", "m31", "m27", "m32",
    "m29", "m33", "m38", "m37", "m50", "m51", "m59", "m60", "l8", "l12", "m43", "m49", "m58",
    "m41", "m54", "m63", "l4", "l19", "l18", "m44", "m42", "m55", "m46", "l2", "m61", "l11",
    "l23", "l3", "l22", "l7", "l5", "m52", "m45", "m53", "m62", "l6", "l0", "l14", "s7", "l28",
    "s2", "l9", "l10", "l27", "l25", "l16", "l1", "l17", "l29", "s5", "l13", "s6", "l20", "s4",
    "l15", "l24", "l26", "s1", "l21", "s3", "s0",
]
ORDER_INV_SUB_BYTES = [
    "t23", "r5", "t1", "t22", "t9", "t24", "t8", "r17", "r18", "r13", "t2", "y5", "t6", "t3",
    "m2", "t4", "r19", "t16", "t20", "t13", "t19", "m4", "m1", "m5", "m17", "t10", "m14",
    "t17", "t25", "t26", "m7", "t14", "m3", "m16", "t27", "m6", "m8", "m18", "t15", "m9",
    "m10", "m11", "m15", "m19", "m21", "m23", "m12", "m13", "m20", "m22", "m25", "m31", "m27",
    "m32", "m26", "m28", "m29", "m37", "m60", "m33", "m38", "m59", "m51", "m50", "m34", "m24",
    "m30", "m39", "m36", "m35", "m40", "m57", "m47", "m48", "m56", "p3", "p4", "m43", "m58",
    "m49", "m41", "p6", "m42", "m44", "m55", "m46", "m61", "m52", "m63", "m45", "m54", "p9",
    "p12", "p0", "m53", "p8", "m62", "p5", "p13", "p16", "w7", "p10", "p14", "p2", "p15",
    "p20", "p29", "p18", "p1", "p27", "p25", "p17", "p7", "p23", "w4", "w6", "p11", "p26",
    "w1", "p28", "w2", "p24", "p22", "p19", "w5", "w0", "w3",
]

TEMPLATE = r"""/*
 * aes_bs_neon.S -- fixsliced (bitsliced) AES (FIPS 197) on ARMv7 NEON, 8 blocks per batch:
 * ECB encryption and decryption, CTR, CBC decryption. For ARMv7 cores without the AES
 * instructions (Cortex-A7/A8/A9/A15, Cortex-A53/A72 running a 32-bit OS without the crypto
 * extension: Raspberry Pi 2/3/4).
 *
 * Features: ARMv7-A, A32 state, NEON (Linux: AT_HWCAP bit 12, HWCAP_NEON). Token `ArmNeon`
 * ("neon") in src/aes/arm_neon_bs.rs guards every call. ABI: AAPCS, hard-float; ELF.
 *
 * Key schedule (struct sched, 16-byte aligned, built by src/aes/arm_neon_bs.rs):
 *      0  rk[15][8][16]  round keys k_0..k_Nr, each as 8 bitsliced words (see "Layout"):
 *                        byte 4r + s of word b is 0xff if bit b of the stored byte
 *                        (row r, column s) of the key is set, else 0x00; unused keys zero
 *   1920  nr             Nr = 10, 12 or 14 (uint32_t)
 * The keys are those of src/aes/fixslice.rs (`round_keys`): k_i stored as SR^{-i}(k_i), and
 * for i >= 1 plus 0x63 in every byte (the S-box circuits below leave the constant out).
 *
 * Entry points (nbatches >= 0 batches of 8 whole blocks = 128 bytes; data, iv, ctr of any
 * alignment; data is transformed in place; nbatches == 0 is a no-op):
 *   void simdcrypt_aes_bs_enc_neon(const struct sched *k, uint8_t *data, size_t nbatches);
 *   void simdcrypt_aes_bs_dec_neon(const struct sched *k, uint8_t *data, size_t nbatches);
 *   void simdcrypt_aes_bs_ctr_neon(const struct sched *k, const uint8_t ctr[16],
 *                                  uint8_t *data, size_t nbatches);
 *       data ^= E(ctr), E(ctr + 1), ..., E(ctr + 8 nbatches - 1) (SP 800-38A §6.5), ctr a
 *       128-bit big-endian integer, incremented mod 2^128; ctr is only read (the caller
 *       advances it).
 *   void simdcrypt_aes_bs_cbc_dec_neon(const struct sched *k, uint8_t iv[16], uint8_t *data,
 *                                      size_t nbatches);
 *       SP 800-38A §6.2 decryption; on return iv is the last ciphertext block.
 * Only Nr and the public batch count steer branches; no address depends on key or data.
 * Instructions executed per batch (qemu-arm -singlestep, AES-128 / 192 / 256): encryption
 * 2295 / 2718 / 3167, decryption 2616 / 3109 / 3626, CTR 2385 / 2808 / 3257, CBC decryption
 * 2636 / 3129 / 3646; 38-46 more per call.
 *
 * Layout (fixslicing, Adomnicai and Peyrin, TCHES 2021/1; see src/aes/fixslice.rs, whose
 * algorithm this transliterates). A batch of 8 blocks is 8 q registers s_0..s_7 (s_b in
 * q<b>): s_b holds bit b of every byte of the 8 blocks. Byte 4c + r (FIPS 197 §3.4: row r,
 * column c) of block k is at bit
 *     p = 32 r + 8 c + k   (byte 4r + c of the register, bit k of that byte)
 * i.e. fixslice.rs's layout with one 128-bit lane: ROW = 32 bits, COL = 8 bits. So a row is
 * a 32-bit element and a column a byte, and the rotations MixColumns needs are byte moves:
 *   rows:    byte (r, s) <- (r + d, s):  VEXT.8 #4d on the whole register
 *   columns: byte (r, s) <- (r, s + 2):  VREV32.16;   (r, s) <- (r, s + 1) / (r, s + 3):
 *            VSHR.U32 #8 + VSLI.32 #24 / VSHL.I32 #8 + VSRI.32 #24
 * (in 64-bit lanes, two per q register, odd column rotations cost two shifts per rotation
 * plus a mask merge; here no rotation needs a constant register).
 * After the S-box of round i the state is stored as SR^{-i} of the true state; round i uses
 * the MixColumns that reads row r + 1 from M = i mod 4 columns further right (MIXCOLUMNS M);
 * after the last round one SR^2 (Nr mod 4 = 2: AES-128, AES-256) restores the order.
 *
 * Bitslicing (LOAD / STORE). VLD4.8 of two blocks puts row r of both in one d register
 * (bytes 0-3 = columns 0-3 of the first block, 4-7 of the second). Loading blocks 0,1 /
 * 2,3 / 4,5 / 6,7 into {d0,d2,d4,d6} / {d1,d3,d5,d7} / {d8,..,d14} / {d9,..,d15} gives
 * q<4h + r> = row r of blocks 4h..4h+3: the register number is (k2 r1 r0) (k = block) and
 * the byte number (k1 k0 c1 c0). VSWP of d registers exchanges register bit 1 with byte
 * bit 3, VTRN.32 register bit 0 with byte bit 2: registers (k2 k1 k0), bytes (r1 r0 c1 c0),
 * as wanted. Then three swaps of register bit j with bit j inside the bytes (an 8x8 bit
 * transpose in every byte position; j = 2 with VSLI/VSRI.8 #4, j = 1, 0 with shifts and VBIT/
 * VBIF under the masks 0xcc, 0xaa) give registers (b2 b1 b0), bits (k2 k1 k0). Every step is
 * an involution: STORE runs them in reverse order and VST4.8s the same lists.
 *
 * S-box: the Boyar-Peralta circuits of fixslice.rs (SubBytes: 128 gates, InvSubBytes: 127),
 * XNORs as XORs (the round keys carry 0x63). Their temporaries do not fit in 16 registers
 * (18 of the top linear layer's outputs live until the last AND layer): the SBOX and
 * INV_SBOX macros are generated by scripts/gen_aes_bs_neon.py (this whole file is its
 * output: `python3 scripts/gen_aes_bs_neon.py > asm/arm/aes_bs_neon.S`), which orders the
 * gates, gives them registers with furthest-next-use spilling, lands output bit b in q<b>
 * again, and checks the result against the circuit. Spill slot j is the 16 bytes at
 * sp + 16 j; its address is in a register during the rounds (SLOTS: sp, r3-r10, r12).
 * Every gate's comment names it as in fixslice.rs. Instructions:
 *   SBOX      @@SBOX_COUNT@@
 *   INV_SBOX  @@INV_SBOX_COUNT@@
 *
 * Register table:
 *   r0  key schedule (all entry points, preserved by the batch routines)
 *   r1  entry: pointer argument; batch routines: rounds left
 *   r2  batch routines: round-key cursor (VLDM/VLDMDB of 8 words = 16 d registers)
 *   r3-r10, r12  batch routines: spill slot addresses; CTR: counter words and scratch
 *   r11 data pointer (advances 128 bytes per batch)
 *   q0-q7  the state s_0..s_7;  q8-q15  MixColumns' rotated words, round keys, S-box
 *          temporaries, bitslicing scratch and masks, CTR/CBC data
 * d8-d15 (q4-q7), r4-r11 are callee-saved: pushed at entry, popped at exit. The stack frame
 * (16-byte aligned, below the saved registers):
 *     0  spill slots 0-9 (160)      160  CTR counter blocks (128)
 *   288  CBC chaining: iv, c_0 (32)  320  CTR counter as 4 native words, w0 most significant
 *   336  caller's sp   340  batches left   344  iv pointer
 * On return the frame (but the saved sp) and q0-q3, q8-q15 are zeroed: they held state,
 * S-box temporaries and keystream; the caller's d8-d15 come back over q4-q7.
 */

#if defined(__ELF__) && defined(__arm__)

#include "vec_clear.h"

        .syntax unified
        .arch   armv7-a
        .fpu    neon
        .arm
        .text

        .set    NR, 1920
        .set    SPILL, 0
        .set    BUF, 160
        .set    CHAIN, 288
        .set    CNT, 320
        .set    OLDSP, 336
        .set    NB, 340
        .set    IVP, 344
        .set    FRAME, 352

/* ---------------------------------------------------------------------------------------
 * Bitslicing. */

/* Swap register bit j with bit j of every byte between \lo and \hi (= \lo + 2^j): the bits of
 * \lo at positions with bit j set trade places with the bits of \hi 2^j positions lower.
 * j = 2: VSLI/VSRI of nibbles (q8 scratch). j = 1, 0: \m holds 0xcc / 0xaa in every byte
 * (the positions with bit j set), q9, q10 scratch. */
.macro  SWAP4 lo, hi
        vmov            q8, \lo
        vsli.8          \lo, \hi, #4            @ lo = lo.low | hi.low << 4
        vsri.8          \hi, q8, #4             @ hi = hi.high | lo.high >> 4
.endm
.macro  SWAPM lo, hi, sh, m
        vshl.i8         q9, \hi, #\sh
        vshr.u8         q10, \lo, #\sh
        vbit            \lo, q9, \m             @ lo = lo & ~m | (hi << sh) & m
        vbif            \hi, q10, \m            @ hi = hi & m | (lo >> sh) & ~m
.endm

/* The register and bit transposes of LOAD, in this order: VSWP (register bit 1 <-> byte bit
 * 3), VTRN.32 (register bit 0 <-> byte bit 2), then register bit j <-> bit j for j = 2, 1, 0.
 * Each step is an involution; the last three commute with each other but not with the first
 * two (they share register bits), so TRANSPOSE_OUT, the inverse, runs them first. */
.macro  REG_TO_BYTE
        vswp            d1, d4
        vswp            d3, d6
        vswp            d9, d12
        vswp            d11, d14
        vtrn.32         q0, q1
        vtrn.32         q2, q3
        vtrn.32         q4, q5
        vtrn.32         q6, q7
.endm
.macro  REG_TO_BIT
        SWAP4           q0, q4                  @ register bit 2 <-> bit 2
        SWAP4           q1, q5
        SWAP4           q2, q6
        SWAP4           q3, q7
        vmov.i8         q14, #0xcc
        vmov.i8         q15, #0xaa
        SWAPM           q0, q2, 2, q14          @ register bit 1 <-> bit 1
        SWAPM           q1, q3, 2, q14
        SWAPM           q4, q6, 2, q14
        SWAPM           q5, q7, 2, q14
        SWAPM           q0, q1, 1, q15          @ register bit 0 <-> bit 0
        SWAPM           q2, q3, 1, q15
        SWAPM           q4, q5, 1, q15
        SWAPM           q6, q7, 1, q15
.endm
.macro  TRANSPOSE_IN
        REG_TO_BYTE
        REG_TO_BIT
.endm
.macro  TRANSPOSE_OUT
        REG_TO_BIT
        REG_TO_BYTE
.endm

/* 8 blocks at [\p] (advanced by 128) -> q0-q7 in the bitsliced layout. Clobbers q8-q10,
 * q14, q15. */
.macro  LOAD p
        vld4.8          {d0, d2, d4, d6}, [\p]!         @ blocks 0, 1
        vld4.8          {d1, d3, d5, d7}, [\p]!         @ blocks 2, 3
        vld4.8          {d8, d10, d12, d14}, [\p]!      @ blocks 4, 5
        vld4.8          {d9, d11, d13, d15}, [\p]!      @ blocks 6, 7
        TRANSPOSE_IN
.endm

/* The 8 blocks of q0-q7 stored to [\p] (advanced by 128), or XORed with [\p] first (the
 * q8-q15 load below uses VLD4 with the same register lists, i.e. the layout STORE has after
 * TRANSPOSE_OUT). */
.macro  STORE_RAW p
        vst4.8          {d0, d2, d4, d6}, [\p]!
        vst4.8          {d1, d3, d5, d7}, [\p]!
        vst4.8          {d8, d10, d12, d14}, [\p]!
        vst4.8          {d9, d11, d13, d15}, [\p]!
.endm
.macro  LOAD_RAW_HI p
        vld4.8          {d16, d18, d20, d22}, [\p]!
        vld4.8          {d17, d19, d21, d23}, [\p]!
        vld4.8          {d24, d26, d28, d30}, [\p]!
        vld4.8          {d25, d27, d29, d31}, [\p]!
.endm
.macro  XOR_HI
        veor            q0, q0, q8
        veor            q1, q1, q9
        veor            q2, q2, q10
        veor            q3, q3, q11
        veor            q4, q4, q12
        veor            q5, q5, q13
        veor            q6, q6, q14
        veor            q7, q7, q15
.endm

/* ---------------------------------------------------------------------------------------
 * Round pieces. */

/* s ^= the round key in q8-q15 (AddRoundKey). */
.macro  ARK
        XOR_HI
.endm

/* \d = rc(\s, 1, M): byte (r, s) <- (r + 1, s + M). */
.macro  ROT1 m, d, s
.if \m == 0
        vext.8          \d, \s, \s, #4
.elseif \m == 1
        vshr.u32        \d, \s, #8
        vsli.32         \d, \s, #24
        vext.8          \d, \d, \d, #4
.elseif \m == 2
        vext.8          \d, \s, \s, #4
        vrev32.16       \d, \d
.else
        vshl.i32        \d, \s, #8
        vsri.32         \d, \s, #24
        vext.8          \d, \d, \d, #4
.endif
.endm

/* \d = rc(\s, 2, 2M mod 4): byte (r, s) <- (r + 2, s + 2M); \d may be \s. */
.macro  ROT2 m, d, s
        vext.8          \d, \s, \s, #8
.if \m % 2
        vrev32.16       \d, \d
.endif
.endm

/* MixColumns (FIPS 197 §5.1.3) of the state stored as SR^{-M} of the true one (fixslice.rs
 * `mix_columns`): out_b = x2_b ^ a1_b ^ rc(t_b, 2, 2M), with a1 = rc(s, 1, M), t = s ^ a1 and
 * x2 = xtime(t) = (t7, t0^t7, t1, t2^t7, t3^t7, t4, t5, t6) (bit 0 first; x^8 = x^4 + x^3 +
 * x + 1). a1_b goes to q<8+b>, t_b over s_b; the x2 terms are added to a1 while t is whole,
 * then t is rotated in place and added. In and out: q0-q7. Clobbers q8-q15. */
.macro  MIXCOLUMNS m
        ROT1            \m, q8, q0
        ROT1            \m, q9, q1
        ROT1            \m, q10, q2
        ROT1            \m, q11, q3
        ROT1            \m, q12, q4
        ROT1            \m, q13, q5
        ROT1            \m, q14, q6
        ROT1            \m, q15, q7
        XOR_HI                                  @ t = s ^ a1
        veor            q8, q8, q7              @ a1_0 ^= t7
        veor            q9, q9, q0              @ a1_1 ^= t0 ^ t7
        veor            q9, q9, q7
        veor            q10, q10, q1            @ a1_2 ^= t1
        veor            q11, q11, q2            @ a1_3 ^= t2 ^ t7
        veor            q11, q11, q7
        veor            q12, q12, q3            @ a1_4 ^= t3 ^ t7
        veor            q12, q12, q7
        veor            q13, q13, q4            @ a1_5 ^= t4
        veor            q14, q14, q5            @ a1_6 ^= t5
        veor            q15, q15, q6            @ a1_7 ^= t6
        ROT2            \m, q0, q0
        ROT2            \m, q1, q1
        ROT2            \m, q2, q2
        ROT2            \m, q3, q3
        ROT2            \m, q4, q4
        ROT2            \m, q5, q5
        ROT2            \m, q6, q6
        ROT2            \m, q7, q7
        XOR_HI
.endm

/* InvMixColumns in the same stored form (fixslice.rs `inv_mix_columns`): the matrix
 * (0e 0b 0d 09) = (02 03 01 01)(05 00 04 00), so s ^= xtime^2(u) with u = s ^ rc(s, 2, 2M),
 * then MIXCOLUMNS. xtime^2(u) = (u6, u7^u6, u0^u7, u1^u6, u2^u7^u6, u3^u7, u4, u5); u_b is
 * in q<8+b>, u7^u6 goes where u4 was. Clobbers q8-q15. */
.macro  INV_MIXCOLUMNS m
        ROT2            \m, q8, q0
        ROT2            \m, q9, q1
        ROT2            \m, q10, q2
        ROT2            \m, q11, q3
        ROT2            \m, q12, q4
        ROT2            \m, q13, q5
        ROT2            \m, q14, q6
        ROT2            \m, q15, q7
        veor            q8, q8, q0
        veor            q9, q9, q1
        veor            q10, q10, q2
        veor            q11, q11, q3
        veor            q12, q12, q4
        veor            q13, q13, q5
        veor            q14, q14, q6
        veor            q15, q15, q7
        veor            q6, q6, q12             @ s6 ^= u4
        veor            q12, q15, q14           @ u7 ^ u6
        veor            q0, q0, q14             @ s0 ^= u6
        veor            q1, q1, q12             @ s1 ^= u7 ^ u6
        veor            q2, q2, q8              @ s2 ^= u0 ^ u7
        veor            q2, q2, q15
        veor            q3, q3, q9              @ s3 ^= u1 ^ u6
        veor            q3, q3, q14
        veor            q4, q4, q10             @ s4 ^= u2 ^ u7 ^ u6
        veor            q4, q4, q12
        veor            q5, q5, q11             @ s5 ^= u3 ^ u7
        veor            q5, q5, q15
        veor            q7, q7, q13             @ s7 ^= u5
        MIXCOLUMNS      \m
.endm

/* SR^2 (= SR^{-2}): rows 1 and 3 (32-bit elements 1 and 3) exchange their column pairs.
 * Clobbers q8, q9. */
.macro  SHIFT_ROWS_2
        vmov.i64        q8, #0xffffffff00000000
        .irp            r, q0, q1, q2, q3, q4, q5, q6, q7
        vrev32.16       q9, \r
        vbit            \r, q9, q8
        .endr
.endm

/* Spill slot addresses: slot 0 is [sp], slots 1-9 at sp + 16 j in r3-r10, r12. */
.macro  SLOTS
        add             r3, sp, #16
        add             r4, sp, #32
        add             r5, sp, #48
        add             r6, sp, #64
        add             r7, sp, #80
        add             r8, sp, #96
        add             r9, sp, #112
        add             r10, sp, #128
        add             r12, sp, #144
.endm

/* SubBytes minus 0x63 (fixslice.rs `sub_bytes`): s_b = q<b> in and out, U0 (the paper's
 * most significant input bit) is s_7. Clobbers q8-q15 and the spill slots. */
.macro  SBOX
@@SBOX@@
.endm

/* InvSubBytes of x ^ 0x63 (fixslice.rs `inv_sub_bytes`); as SBOX. */
.macro  INV_SBOX
@@INV_SBOX@@
.endm

.macro  ENC_ROUND m
        SBOX
        MIXCOLUMNS      \m
        vldmia          r2!, {d16-d31}
        ARK
.endm

.macro  DEC_ROUND m
        vldmdb          r2!, {d16-d31}
        ARK
        INV_MIXCOLUMNS  \m
        INV_SBOX
.endm

/* ---------------------------------------------------------------------------------------
 * Batch routines (internal calling convention): q0-q7 a bitsliced batch, encrypted or
 * decrypted in place; r0 the key schedule; sp the frame (spill slots at sp). Clobber r1-r10,
 * r12, q8-q15, flags; preserve r0, r11, lr, sp. */

        .type   aes_bs_enc8, %function
        .p2align 4
aes_bs_enc8:
        SLOTS
        mov             r2, r0
        ldr             r1, [r0, #NR]
        vldmia          r2!, {d16-d31}
        ARK                                     @ k_0
        sub             r1, r1, #1              @ rounds 1..Nr-1, M = round mod 4
1:      ENC_ROUND       1
        subs            r1, r1, #1
        beq             2f
        ENC_ROUND       2
        subs            r1, r1, #1
        beq             2f
        ENC_ROUND       3
        subs            r1, r1, #1
        beq             2f
        ENC_ROUND       0
        subs            r1, r1, #1
        bne             1b
2:      SBOX                                    @ round Nr: no MixColumns
        vldmia          r2!, {d16-d31}
        ARK                                     @ k_Nr
        ldr             r1, [r0, #NR]
        tst             r1, #2                  @ Nr mod 4 == 2: SR^{-Nr} = SR^2
        beq             3f
        SHIFT_ROWS_2
3:      bx              lr
        .size   aes_bs_enc8, .-aes_bs_enc8

        .type   aes_bs_dec8, %function
        .p2align 4
aes_bs_dec8:
        SLOTS
        ldr             r1, [r0, #NR]
        add             r2, r0, r1, lsl #7
        add             r2, r2, #128            @ just past k_Nr
        tst             r1, #2
        beq             1f
        SHIFT_ROWS_2
1:      vldmdb          r2!, {d16-d31}
        ARK                                     @ k_Nr
        INV_SBOX
        /* Rounds i = Nr-1 down to 1 with M = i mod 4: 9..1 and 13..1 start at M = 1, 11..1
         * at M = 3. r1 is the number of the next M = 1 round; it ends after round 1. */
        sub             r1, r1, #1
        cmp             r1, #11
        bne             4f
        mov             r1, #9
        b               3f
2:      DEC_ROUND       0
3:      DEC_ROUND       3
        DEC_ROUND       2
4:      DEC_ROUND       1
        subs            r1, r1, #4
        bgt             2b
        vldmdb          r2!, {d16-d31}
        ARK                                     @ k_0
        bx              lr
        .size   aes_bs_dec8, .-aes_bs_dec8

/* ---------------------------------------------------------------------------------------
 * Entry points. */

.macro  FUNC name
        .globl  \name
        .hidden \name
        .type   \name, %function
        .p2align 4
\name:
.endm

/* Saves r4-r11, lr, d8-d15 and makes the 16-byte aligned frame at sp. */
.macro  ENTER
        push            {r4-r11, lr}
        vpush           {d8-d15}
        mov             r12, sp
        sub             sp, sp, #FRAME
        bic             sp, sp, #15
        str             r12, [sp, #OLDSP]
.endm

/* Zeroes the frame below OLDSP and q0-q3, q8-q15, restores and returns. */
.macro  LEAVE
        CLEAR_NEON                              @ vec_clear.h
        mov             r1, sp
        .rept           OLDSP / 32
        vst1.64         {d0-d3}, [r1 :128]!
        .endr
        .rept           (OLDSP % 32) / 16
        vst1.64         {d0-d1}, [r1 :128]!
        .endr
        ldr             sp, [sp, #OLDSP]
        vpop            {d8-d15}
        pop             {r4-r11, pc}
.endm

/* Loop tail: one batch done; back to \label while batches are left. */
.macro  NEXT label
        ldr             r1, [sp, #NB]
        subs            r1, r1, #1
        str             r1, [sp, #NB]
        bne             \label
.endm

/* ECB: r0 schedule, r1 data, r2 nbatches. */
FUNC    simdcrypt_aes_bs_enc_neon
        cmp             r2, #0
        bxeq            lr
        ENTER
        mov             r11, r1
        str             r2, [sp, #NB]
1:      mov             r1, r11
        LOAD            r1
        bl              aes_bs_enc8
        TRANSPOSE_OUT
        STORE_RAW       r11
        NEXT            1b
        LEAVE
        .size   simdcrypt_aes_bs_enc_neon, .-simdcrypt_aes_bs_enc_neon

FUNC    simdcrypt_aes_bs_dec_neon
        cmp             r2, #0
        bxeq            lr
        ENTER
        mov             r11, r1
        str             r2, [sp, #NB]
1:      mov             r1, r11
        LOAD            r1
        bl              aes_bs_dec8
        TRANSPOSE_OUT
        STORE_RAW       r11
        NEXT            1b
        LEAVE
        .size   simdcrypt_aes_bs_dec_neon, .-simdcrypt_aes_bs_dec_neon

/* CTR: r0 schedule, r1 ctr (16 bytes, read only), r2 data, r3 nbatches. The counter is kept
 * in the frame as four native words (w0 most significant); each batch writes its 8 counter
 * blocks (big-endian words) to the frame, bitslices and encrypts them, and XORs the result
 * into the data in the VLD4 layout. */
FUNC    simdcrypt_aes_bs_ctr_neon
        cmp             r3, #0
        bxeq            lr
        ENTER
        mov             r11, r2
        str             r3, [sp, #NB]
        vld1.8          {d0-d1}, [r1]
        vrev32.8        q0, q0                  @ big-endian words -> native
        add             r1, sp, #CNT
        vst1.64         {d0-d1}, [r1 :128]
1:      add             r1, sp, #CNT
        ldm             r1, {r4-r7}
        add             r1, sp, #BUF
        .rept           8
        rev             r8, r4
        rev             r9, r5
        rev             r10, r6
        rev             r12, r7
        stmia           r1!, {r8-r10, r12}
        adds            r7, r7, #1              @ 128-bit increment, mod 2^128
        adcs            r6, r6, #0
        adcs            r5, r5, #0
        adc             r4, r4, #0
        .endr
        add             r1, sp, #CNT
        stm             r1, {r4-r7}
        add             r1, sp, #BUF
        LOAD            r1
        bl              aes_bs_enc8
        TRANSPOSE_OUT
        mov             r1, r11
        LOAD_RAW_HI     r1
        XOR_HI
        STORE_RAW       r11
        NEXT            1b
        LEAVE
        .size   simdcrypt_aes_bs_ctr_neon, .-simdcrypt_aes_bs_ctr_neon

/* CBC decryption: r0 schedule, r1 iv, r2 data, r3 nbatches. The frame's CHAIN holds the
 * chaining value c_{-1} (the iv, then the last ciphertext block of the batch before) and a
 * copy of c_0, so that (c_{-1}, c_0), (c_1, c_2), (c_3, c_4), (c_5, c_6) load with the VLD4
 * lists of blocks 0-7 and are XORed into the decrypted batch before it overwrites the
 * ciphertext. */
FUNC    simdcrypt_aes_bs_cbc_dec_neon
        cmp             r3, #0
        bxeq            lr
        ENTER
        mov             r11, r2
        str             r3, [sp, #NB]
        str             r1, [sp, #IVP]
        vld1.8          {d0-d1}, [r1]
        add             r1, sp, #CHAIN
        vst1.64         {d0-d1}, [r1 :128]
1:      mov             r1, r11
        LOAD            r1
        bl              aes_bs_dec8
        TRANSPOSE_OUT
        vld1.8          {d16-d17}, [r11]        @ c_0
        add             r1, sp, #CHAIN + 16
        vst1.64         {d16-d17}, [r1 :128]
        sub             r1, r1, #16
        vld4.8          {d16, d18, d20, d22}, [r1]      @ c_{-1}, c_0
        add             r1, r11, #16
        vld4.8          {d17, d19, d21, d23}, [r1]!     @ c_1, c_2
        vld4.8          {d24, d26, d28, d30}, [r1]!     @ c_3, c_4
        vld4.8          {d25, d27, d29, d31}, [r1]!     @ c_5, c_6
        XOR_HI
        vld1.8          {d16-d17}, [r1]         @ c_7: the next chaining value
        add             r1, sp, #CHAIN
        vst1.64         {d16-d17}, [r1 :128]
        STORE_RAW       r11
        NEXT            1b
        ldr             r1, [sp, #IVP]
        add             r2, sp, #CHAIN
        vld1.64         {d0-d1}, [r2 :128]
        vst1.8          {d0-d1}, [r1]
        LEAVE
        .size   simdcrypt_aes_bs_cbc_dec_neon, .-simdcrypt_aes_bs_cbc_dec_neon

        .section .note.GNU-stack,"",%progbits

#endif
"""


def parse(fn):
    """(inputs, gates, outputs) of `fn` in fixslice.rs: inputs[b] / outputs[b] name word b;
    gates are (dst, "eor" | "and", a, b)."""
    text = open(FIXSLICE).read()
    start = re.search(rf"pub\(crate\) fn {fn}<W: \w+>\(s: &mut State<W>\) {{", text).start()
    body = text[start:]
    body = body[: body.index("\n}\n")]
    ins = [x.strip() for x in re.search(r"let \[([^\]]+)\] = \*s;", body).group(1).split(",")]
    gates = [
        (d, "eor" if op == "^" else "and", a, b)
        for d, a, op, b in re.findall(r"let (\w+) = (\w+) ([\^&]) (\w+);", body)
    ]
    outs = [x.strip() for x in re.search(r"\*s = \[([^\]]+)\];", body).group(1).split(",")]
    return ins, gates, outs


def evaluate(ins, gates, outs, words):
    env = dict(zip(ins, words))
    for d, op, a, b in gates:
        env[d] = env[a] ^ env[b] if op == "eor" else env[a] & env[b]
    return [env[o] for o in outs]


def uses_of(gates, outs):
    uses = {}
    for i, (_, _, a, b) in enumerate(gates):
        uses.setdefault(a, []).append(i)
        uses.setdefault(b, []).append(i)
    for o in outs:
        uses.setdefault(o, []).append(len(gates))
    return uses


def schedule(ins, gates, outs, rng, temp):
    """A random topological order, biased towards gates that kill operands."""
    defined = set(ins)
    remaining = list(gates)
    order = []
    pending = {v: len(u) for v, u in uses_of(gates, outs).items()}
    while remaining:
        best, best_score = None, None
        for i, g in enumerate(remaining):
            d, _, a, b = g
            if a not in defined or b not in defined:
                continue
            kills = sum(1 for x in {a, b} if pending[x] == (2 if a == b else 1))
            score = kills + rng.random() * temp - 0.01 * i * rng.random()
            if best is None or score > best_score:
                best, best_score = g, score
        remaining.remove(best)
        order.append(best)
        defined.add(best[0])
        pending[best[2]] -= 1
        pending[best[3]] -= 1
    return order


def allocate(ins, gates, outs):
    """Registers for `gates` in this order: input and output bit b in q<b>. Returns the
    program (("eor" | "and", rd, ra, rb, name), ("st" | "ld", r, slot, name), ("mov", rd,
    rs, name)) and the number of slots."""
    n = len(gates)
    uses = uses_of(gates, outs)
    target = {o: b for b, o in enumerate(outs)}
    defpos = {g[0]: i for i, g in enumerate(gates)}
    reg_of, val_in, slot_of = {}, [None] * NREG, {}
    free_slots, code = [], []
    nslots = 0

    def next_use(v, i):
        return next((u for u in uses.get(v, []) if u >= i), None)

    def put(v, r):
        reg_of[v] = r
        val_in[r] = v

    def evict(i, protect):
        nonlocal nslots
        cands = [v for v in val_in if v is not None and v not in protect]

        def key(v):
            nu = next_use(v, i)
            return (10**9 if nu is None else nu) + (3 if v in slot_of else 0)

        v = max(cands, key=key)
        r = reg_of.pop(v)
        val_in[r] = None
        if next_use(v, i) is not None and v not in slot_of:
            if free_slots:
                s = free_slots.pop()
            else:
                s, nslots = nslots, nslots + 1
            slot_of[v] = s
            code.append(("st", r, s, v))
        return r

    def get_free(i, protect, want=None):
        if want is not None and val_in[want] is None:
            return want
        frees = [r for r in range(NREG) if val_in[r] is None]
        if not frees:
            return evict(i, protect)
        # Temporaries prefer q8-q15; else the output register needed last.
        high = [r for r in frees if r >= 8]
        if high:
            return high[0]
        return max(frees, key=lambda r: defpos.get(outs[r], 10**9))

    for b, v in enumerate(ins):
        put(v, b)
    for i, (d, op, a, b) in enumerate(gates):
        for x in (a, b):
            if x not in reg_of:
                r = get_free(i, {a, b})
                code.append(("ld", r, slot_of[x], x))
                put(x, r)
        ra, rb = reg_of[a], reg_of[b]
        for x in {a, b}:
            if next_use(x, i + 1) is None:
                val_in[reg_of.pop(x)] = None
        for v in list(slot_of):
            if next_use(v, i + 1) is None and v not in reg_of:
                free_slots.append(slot_of.pop(v))
        want = target.get(d)
        if want is not None and val_in[want] is not None:
            frees = [r for r in range(NREG) if val_in[r] is None and r not in (want, ra, rb)]
            if frees:
                r2 = ([r for r in frees if r >= 8] or frees)[0]
                occ = val_in[want]
                code.append(("mov", r2, want, occ))
                val_in[want] = None
                put(occ, r2)
            else:
                want = None
        rd = get_free(i, {a, b}, want)
        code.append((op, rd, ra, rb, d))
        put(d, rd)
    for b, o in enumerate(outs):
        if o not in reg_of:
            r = get_free(n, set(outs), b)
            code.append(("ld", r, slot_of[o], o))
            put(o, r)
    while any(reg_of[o] != b for b, o in enumerate(outs)):
        moved = False
        for b, o in enumerate(outs):
            if reg_of[o] != b and val_in[b] is None:
                code.append(("mov", b, reg_of[o], o))
                val_in[reg_of[o]] = None
                put(o, b)
                moved = True
        if not moved:
            b = next(b for b, o in enumerate(outs) if reg_of[o] != b)
            occ = val_in[b]
            r2 = val_in.index(None)
            code.append(("mov", r2, b, occ))
            val_in[b] = None
            put(occ, r2)
    return code, nslots


def cost(code):
    return sum(1 for c in code if c[0] in ("st", "ld", "mov"))


def check(fn, code, nslots):
    ins, gates, outs = parse(fn)
    rng = random.Random(1)
    for _ in range(16):
        words = [rng.getrandbits(128) for _ in range(8)]
        regs, mem = list(words) + [None] * 8, [None] * nslots
        for c in code:
            k = c[0]
            if k == "eor":
                regs[c[1]] = regs[c[2]] ^ regs[c[3]]
            elif k == "and":
                regs[c[1]] = regs[c[2]] & regs[c[3]]
            elif k == "st":
                mem[c[2]] = regs[c[1]]
            elif k == "ld":
                regs[c[1]] = mem[c[2]]
            else:
                regs[c[1]] = regs[c[2]]
        assert regs[:8] == evaluate(ins, gates, outs, words), fn


def program(fn, order):
    ins, gates, outs = parse(fn)
    by_name = {g[0]: g for g in gates}
    assert sorted(order) == sorted(by_name), fn
    code, nslots = allocate(ins, [by_name[d] for d in order], outs)
    assert nslots <= MAXSLOTS, fn
    check(fn, code, nslots)
    return code, gates


def asm(fn, order):
    code, gates = program(fn, order)
    src = {g[0]: g for g in gates}
    lines = []
    for c in code:
        if c[0] in ("eor", "and"):
            _, rd, ra, rb, name = c
            _, op, a, b = src[name]
            text, note = f"v{op:<15}q{rd}, q{ra}, q{rb}", f"{name} = {a} {'^&'[op == 'and']} {b}"
        elif c[0] in ("st", "ld"):
            k, r, slot, name = c
            mnem = "vst1.64" if k == "st" else "vld1.64"
            text = f"{mnem:<16}{{d{2 * r}-d{2 * r + 1}}}, [{SLOTREG[slot]} :128]"
            note = ("spill " if k == "st" else "reload ") + name
        else:
            _, rd, rs, name = c
            text, note = f"{'vmov':<16}q{rd}, q{rs}", f"move {name}"
        lines.append(f"        {text}".ljust(48) + f"@ {note}")
    n = {k: sum(1 for c in code if c[0] == k) for k in ("eor", "and", "st", "ld", "mov")}
    return "\n".join(lines), n


def search(iters, seed):
    for fn in ("sub_bytes", "inv_sub_bytes"):
        ins, gates, outs = parse(fn)
        rng = random.Random(seed)
        best = None
        for _ in range(iters):
            order = schedule(ins, gates, outs, rng, rng.choice([0.1, 0.3, 1, 3]))
            code, nslots = allocate(ins, order, outs)
            if nslots <= MAXSLOTS and (best is None or cost(code) < best[0]):
                best = (cost(code), [g[0] for g in order])
        print(f"{fn}: {best[0]} loads, stores and moves", file=sys.stderr)
        print(f"ORDER_{fn.upper()} = {best[1]!r}")


def main():
    if sys.argv[1:2] == ["--search"]:
        search(int(sys.argv[2]), int(sys.argv[3]))
        return
    sbox, n1 = asm("sub_bytes", ORDER_SUB_BYTES)
    inv, n2 = asm("inv_sub_bytes", ORDER_INV_SUB_BYTES)
    out = TEMPLATE.replace("@@SBOX@@", sbox).replace("@@INV_SBOX@@", inv)
    out = out.replace("@@SBOX_COUNT@@", f"{n1['eor']} XOR + {n1['and']} AND + {n1['st']} spills + {n1['ld']} reloads + {n1['mov']} moves")
    out = out.replace("@@INV_SBOX_COUNT@@", f"{n2['eor']} XOR + {n2['and']} AND + {n2['st']} spills + {n2['ld']} reloads + {n2['mov']} moves")
    sys.stdout.write(out)


if __name__ == "__main__":
    main()
