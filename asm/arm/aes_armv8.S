/*
 * aes_armv8.S -- AES (FIPS 197) with the AArch32 crypto extension: ECB, CTR, CBC and IGE.
 *
 * Features: ARMv8-A AArch32 (A32 state) with the AES instructions AESE, AESD, AESMC, AESIMC
 * (Linux: AT_HWCAP2 bit 0, HWCAP2_AES) and NEON with 32 D registers. Token `ArmAes`
 * ("aes,neon") in src/aes/arm.rs guards every call. ABI: AAPCS, hard-float; ELF.
 *
 * Key schedule (struct sched, 16-byte aligned, built by src/aes/arm.rs):
 *     0  rk[15][16]   round keys k_0..k_Nr as state bytes (FIPS 197 §5.2), unused ones zero
 *   240  rounds       Nr = 10, 12 or 14 (uint32_t)
 * For decryption the same layout holds the equivalent inverse cipher's keys (FIPS 197
 * §5.3.5: dk_0 = k_Nr, dk_i = InvMixColumns(k_{Nr-i}), dk_Nr = k_0).
 *
 * Entry points (nblocks >= 0 whole 16-byte blocks; data, iv, ctr of any alignment; data is
 * transformed in place):
 *   void simdcrypt_aes_ecb_enc_armv8(const struct sched *k, uint8_t *data, size_t nblocks);
 *   void simdcrypt_aes_ecb_dec_armv8(const struct sched *dk, uint8_t *data, size_t nblocks);
 *   void simdcrypt_aes_ctr32_armv8(const struct sched *k, const uint8_t ctr[16],
 *                                  uint8_t *data, size_t nblocks);
 *       data ^= E(ctr), E(ctr + 1), ... (SP 800-38A §6.5) adding to the low 32-bit big-endian
 *       word of ctr only: the caller keeps low + nblocks <= 2^32 and advances ctr itself.
 *   void simdcrypt_aes_cbc_enc_armv8(const struct sched *k, uint8_t iv[16], uint8_t *data,
 *                                    size_t nblocks);
 *   void simdcrypt_aes_cbc_dec_armv8(const struct sched *dk, uint8_t iv[16], uint8_t *data,
 *                                    size_t nblocks);
 *       SP 800-38A §6.2; on return iv is the last ciphertext block.
 *   void simdcrypt_aes_ige_enc_armv8(const struct sched *k, uint8_t iv[32], uint8_t *data,
 *                                    size_t nblocks);       c_i = E(p_i ^ c_{i-1}) ^ p_{i-1}
 *   void simdcrypt_aes_ige_dec_armv8(const struct sched *dk, uint8_t iv[32], uint8_t *data,
 *                                    size_t nblocks);       p_i = D(c_i ^ p_{i-1}) ^ c_{i-1}
 *       iv = c_0 || p_0 on entry, the last c || p on return.
 *   uint32_t simdcrypt_aes_subword_armv8(uint32_t w);
 *       SubWord (FIPS 197 §5.2) of w, byte 0 = least significant, for the key expansion.
 *   void simdcrypt_aes_invmix_armv8(uint8_t *rk, size_t n);
 *       InvMixColumns on n consecutive 16-byte round keys in place (16-byte aligned).
 * Only public counts steer branches; no table is indexed by key or data.
 *
 * Instruction semantics (Arm ARM, DDI 0487, AArch32 "AESE", "AESMC", "AESD", "AESIMC"; byte 0
 * of the state is lane 0 of the Q register, as vld1.8 loads it):
 *   aese.8  Qd, Qm   Qd = SubBytes(ShiftRows(Qd ^ Qm))
 *   aesmc.8 Qd, Qm   Qd = MixColumns(Qm)
 *   aesd.8  Qd, Qm   Qd = InvSubBytes(InvShiftRows(Qd ^ Qm))
 *   aesimc.8 Qd, Qm  Qd = InvMixColumns(Qm)
 * FIPS 197 §5.1 with AddRoundKey moved into the next instruction: rounds 0..Nr-2 are
 * aese(k_r) + aesmc, round Nr-1 is aese(k_{Nr-1}), then ^ k_Nr. Decryption with dk has the
 * same shape with aesd/aesimc. Each aese is directly followed by its aesmc on the same
 * register (aesd by aesimc), the pair cores fuse.
 * SubWord: aese with a zero key on w in all four columns; ShiftRows only moves bytes between
 * columns within a row, so it changes nothing and the result is S(w) in every column.
 *
 * Register table (the parallel modes run 4 blocks at once; the serial ones 1):
 *   r0  schedule           r1, r2, r3  arguments as above (pointers advance, count falls)
 *   r4  Nr - 10 (0, 2, 4): round keys kept in memory rather than registers
 *   r5  loop count of those rounds      r6  CTR: low counter word (native)
 *   r12 pointer into the schedule, scratch address
 *   q0-q3  blocks          q4  round key k_0..k_{Nr-11} as loaded; data after the rounds
 *   q5-q15 round keys k_{Nr-10}..k_Nr (the 11 last), loaded once per call
 *   d8-d15 (q4-q7) and r4-r6 are callee-saved: pushed at entry, popped at exit. Before
 *   returning, q0-q3 and q8-q15 (blocks, round keys) are zeroed (CLEAR_NEON, vec_clear.h);
 *   the helpers zero the q registers they used. Nothing is kept on the stack.
 */

#if defined(__ELF__) && defined(__arm__)

#include "vec_clear.h"

        .syntax unified
        .arch   armv8-a
        .fpu    crypto-neon-fp-armv8
        /* The instructions need the directives above, but this object must not mark the
         * whole ARMv7 binary as ARMv8 in its build attributes: the code runs only after
         * run-time detection found the extension. */
        .object_arch armv7-a
        .eabi_attribute Tag_CPU_name, "7-A"
        .eabi_attribute Tag_FP_arch, 3                  /* VFPv3 */
        .eabi_attribute Tag_Advanced_SIMD_arch, 1       /* NEONv1 */
        .eabi_attribute Tag_MPextension_use, 0
        .eabi_attribute Tag_Virtualization_use, 0
        .arm
        .text

/* r4 = Nr - 10; q5-q15 = k_{Nr-10}..k_Nr. Clobbers r12. */
.macro  LOAD_KEYS
        ldr             r4, [r0, #240]
        sub             r4, r4, #10
        add             r12, r0, r4, lsl #4
        vldmia          r12!, {d10-d25}
        vldmia          r12, {d26-d31}
.endm

.macro  ENTER
        push            {r4-r6, lr}
        vpush           {d8-d15}
        LOAD_KEYS
.endm

.macro  LEAVE
        CLEAR_NEON                              /* blocks, round keys: vec_clear.h */
        vpop            {d8-d15}
        pop             {r4-r6, pc}
.endm

/* One encryption round (aese + aesmc) with key \k on each register of \regs. */
.macro  EROUND k, regs:vararg
        .irp            r, \regs
        aese.8          \r, \k
        aesmc.8         \r, \r
        .endr
.endm

.macro  DROUND k, regs:vararg
        .irp            r, \regs
        aesd.8          \r, \k
        aesimc.8        \r, \r
        .endr
.endm

/* Encrypts each register of \regs up to the last AddRoundKey (the caller XORs q15 = k_Nr, or
 * folds it into something else). Rounds 0..Nr-11 take their keys from memory into q4; the
 * other 10 from q5-q14. Clobbers q4, r5, r12. */
.macro  ENC_PRE regs:vararg
        movs            r5, r4
        mov             r12, r0
        beq             .Lenc_main\@
.Lenc_lead\@:
        vld1.8          {q4}, [r12]!
        EROUND          q4, \regs
        subs            r5, r5, #1
        bne             .Lenc_lead\@
.Lenc_main\@:
        EROUND          q5, \regs
        EROUND          q6, \regs
        EROUND          q7, \regs
        EROUND          q8, \regs
        EROUND          q9, \regs
        EROUND          q10, \regs
        EROUND          q11, \regs
        EROUND          q12, \regs
        EROUND          q13, \regs
        .irp            r, \regs
        aese.8          \r, q14
        .endr
.endm

.macro  DEC_PRE regs:vararg
        movs            r5, r4
        mov             r12, r0
        beq             .Ldec_main\@
.Ldec_lead\@:
        vld1.8          {q4}, [r12]!
        DROUND          q4, \regs
        subs            r5, r5, #1
        bne             .Ldec_lead\@
.Ldec_main\@:
        DROUND          q5, \regs
        DROUND          q6, \regs
        DROUND          q7, \regs
        DROUND          q8, \regs
        DROUND          q9, \regs
        DROUND          q10, \regs
        DROUND          q11, \regs
        DROUND          q12, \regs
        DROUND          q13, \regs
        .irp            r, \regs
        aesd.8          \r, q14
        .endr
.endm

/* The last AddRoundKey (k_Nr in q15) on each register of \regs. */
.macro  LAST_KEY regs:vararg
        .irp            r, \regs
        veor            \r, \r, q15
        .endr
.endm

.macro  FUNC name
        .globl  \name
        .hidden \name
        .type   \name, %function
        .p2align 4
\name:
.endm

/* ---------------------------------------------------------------------------------------
 * ECB: r0 schedule, r1 data, r2 nblocks. Four blocks at a time, then one at a time. */
.macro  ECB name, pre
FUNC    \name
        cmp             r2, #0
        bxeq            lr
        ENTER
        subs            r2, r2, #4
        blo             2f
1:      mov             r3, r1
        vld1.8          {q0, q1}, [r3]!
        vld1.8          {q2, q3}, [r3]
        \pre            q0, q1, q2, q3
        LAST_KEY        q0, q1, q2, q3
        vst1.8          {q0, q1}, [r1]!
        vst1.8          {q2, q3}, [r1]!
        subs            r2, r2, #4
        bhs             1b
2:      adds            r2, r2, #4
        beq             4f
3:      vld1.8          {q0}, [r1]
        \pre            q0
        LAST_KEY        q0
        vst1.8          {q0}, [r1]!
        subs            r2, r2, #1
        bne             3b
4:      LEAVE
        .size   \name, .-\name
.endm

        ECB     simdcrypt_aes_ecb_enc_armv8, ENC_PRE
        ECB     simdcrypt_aes_ecb_dec_armv8, DEC_PRE

/* ---------------------------------------------------------------------------------------
 * CTR: r0 schedule, r1 ctr (read only), r2 data, r3 nblocks. Counter block i is the
 * 16 bytes at ctr with bytes 12..15 replaced by the big-endian low word + i: r6 holds that
 * word as a native integer, `rev` turns it back into bytes for lane d(2j+1)[1]. */
FUNC    simdcrypt_aes_ctr32_armv8
        cmp             r3, #0
        bxeq            lr
        ENTER
        ldr             r6, [r1, #12]
        rev             r6, r6
        subs            r3, r3, #4
        blo             2f
1:      vld1.8          {q0}, [r1]
        rev             r5, r6
        add             r12, r6, #1
        vmov            q1, q0
        vmov.32         d1[1], r5
        rev             r12, r12
        vmov            q2, q0
        vmov.32         d3[1], r12
        add             r5, r6, #2
        add             r12, r6, #3
        vmov            q3, q0
        rev             r5, r5
        rev             r12, r12
        vmov.32         d5[1], r5
        vmov.32         d7[1], r12
        add             r6, r6, #4
        ENC_PRE         q0, q1, q2, q3
        LAST_KEY        q0, q1, q2, q3
        .irp            r, q0, q1, q2, q3
        vld1.8          {q4}, [r2]
        veor            \r, \r, q4
        vst1.8          {\r}, [r2]!
        .endr
        subs            r3, r3, #4
        bhs             1b
2:      adds            r3, r3, #4
        beq             4f
3:      vld1.8          {q0}, [r1]
        rev             r5, r6
        vmov.32         d1[1], r5
        add             r6, r6, #1
        ENC_PRE         q0
        LAST_KEY        q0
        vld1.8          {q4}, [r2]
        veor            q0, q0, q4
        vst1.8          {q0}, [r2]!
        subs            r3, r3, #1
        bne             3b
4:      LEAVE
        .size   simdcrypt_aes_ctr32_armv8, .-simdcrypt_aes_ctr32_armv8

/* ---------------------------------------------------------------------------------------
 * CBC encryption: r0 schedule, r1 iv, r2 data, r3 nblocks. Serial. q0 holds the previous
 * ciphertext block without its last AddRoundKey (c = q0 ^ k_Nr), so the next input
 * c ^ p = q0 ^ (p ^ k_Nr) costs one XOR on the chain; p ^ k_Nr (q1) is computed beside it. */
FUNC    simdcrypt_aes_cbc_enc_armv8
        cmp             r3, #0
        bxeq            lr
        ENTER
        vld1.8          {q0}, [r1]
        veor            q0, q0, q15
1:      vld1.8          {q1}, [r2]
        veor            q1, q1, q15
        veor            q0, q0, q1
        ENC_PRE         q0
        veor            q2, q0, q15
        vst1.8          {q2}, [r2]!
        subs            r3, r3, #1
        bne             1b
        vst1.8          {q2}, [r1]
        LEAVE
        .size   simdcrypt_aes_cbc_enc_armv8, .-simdcrypt_aes_cbc_enc_armv8

/* ---------------------------------------------------------------------------------------
 * CBC decryption: r0 schedule, r1 iv, r2 data, r3 nblocks. p_i = D(c_i) ^ c_{i-1}. Four
 * blocks at a time; the ciphertext of the group is read again from memory (after the
 * rounds, before the plaintext overwrites it) and iv is updated in memory per group. */
FUNC    simdcrypt_aes_cbc_dec_armv8
        cmp             r3, #0
        bxeq            lr
        ENTER
        subs            r3, r3, #4
        blo             2f
1:      mov             r12, r2
        vld1.8          {q0, q1}, [r12]!
        vld1.8          {q2, q3}, [r12]
        DEC_PRE         q0, q1, q2, q3
        LAST_KEY        q0, q1, q2, q3
        vld1.8          {q4}, [r1]              /* c_{-1} = iv */
        veor            q0, q0, q4
        mov             r12, r2
        vld1.8          {q4}, [r12]!            /* c_0 */
        veor            q1, q1, q4
        vld1.8          {q4}, [r12]!            /* c_1 */
        veor            q2, q2, q4
        vld1.8          {q4}, [r12]!            /* c_2 */
        veor            q3, q3, q4
        vld1.8          {q4}, [r12]             /* c_3: the next iv */
        vst1.8          {q4}, [r1]
        vst1.8          {q0, q1}, [r2]!
        vst1.8          {q2, q3}, [r2]!
        subs            r3, r3, #4
        bhs             1b
2:      adds            r3, r3, #4
        beq             4f
3:      vld1.8          {q0}, [r2]
        vmov            q1, q0
        DEC_PRE         q0
        LAST_KEY        q0
        vld1.8          {q4}, [r1]
        veor            q0, q0, q4
        vst1.8          {q1}, [r1]
        vst1.8          {q0}, [r2]!
        subs            r3, r3, #1
        bne             3b
4:      LEAVE
        .size   simdcrypt_aes_cbc_dec_armv8, .-simdcrypt_aes_cbc_dec_armv8

/* ---------------------------------------------------------------------------------------
 * IGE: r0 schedule, r1 iv (c_0 || p_0), r2 data, r3 nblocks. Serial.
 * Encryption: q1 = c_{i-1}, q2 = p_{i-1}, q3 = p_i. Decryption: q1 = c_{i-1}, q2 = p_{i-1},
 * q3 = c_i. */
FUNC    simdcrypt_aes_ige_enc_armv8
        cmp             r3, #0
        bxeq            lr
        ENTER
        vld1.8          {q1, q2}, [r1]
1:      vld1.8          {q3}, [r2]
        veor            q0, q3, q1
        ENC_PRE         q0
        veor            q2, q2, q15
        veor            q1, q0, q2              /* c_i = E(..) ^ p_{i-1} */
        vmov            q2, q3
        vst1.8          {q1}, [r2]!
        subs            r3, r3, #1
        bne             1b
        vst1.8          {q1, q2}, [r1]
        LEAVE
        .size   simdcrypt_aes_ige_enc_armv8, .-simdcrypt_aes_ige_enc_armv8

FUNC    simdcrypt_aes_ige_dec_armv8
        cmp             r3, #0
        bxeq            lr
        ENTER
        vld1.8          {q1, q2}, [r1]
1:      vld1.8          {q3}, [r2]
        veor            q0, q3, q2
        DEC_PRE         q0
        veor            q1, q1, q15
        veor            q2, q0, q1              /* p_i = D(..) ^ c_{i-1} */
        vmov            q1, q3
        vst1.8          {q2}, [r2]!
        subs            r3, r3, #1
        bne             1b
        vst1.8          {q1, q2}, [r1]
        LEAVE
        .size   simdcrypt_aes_ige_dec_armv8, .-simdcrypt_aes_ige_dec_armv8

/* ---------------------------------------------------------------------------------------
 * Key-expansion helpers (only q0, q1 and r0-r1: no callee-saved register is touched). */
FUNC    simdcrypt_aes_subword_armv8
        vdup.32         q0, r0
        vmov.i8         q1, #0
        aese.8          q0, q1
        vmov.32         r0, d0[0]
        CLEAR_Q         q0, q1
        bx              lr
        .size   simdcrypt_aes_subword_armv8, .-simdcrypt_aes_subword_armv8

FUNC    simdcrypt_aes_invmix_armv8
        cmp             r1, #0
        bxeq            lr
1:      vld1.8          {q0}, [r0]
        aesimc.8        q0, q0
        vst1.8          {q0}, [r0]!
        subs            r1, r1, #1
        bne             1b
        CLEAR_Q         q0
        bx              lr
        .size   simdcrypt_aes_invmix_armv8, .-simdcrypt_aes_invmix_armv8

        .section .note.GNU-stack,"",%progbits

#endif
