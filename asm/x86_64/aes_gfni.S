/*
 * aes_gfni.S (x86_64) -- AES with the S-box as one GFNI instruction, for CPUs or VMs that show
 * GFNI and AVX-512 but hide AES-NI. Safe wrapper: src/aes/x86_64_gfni.rs ("gfni-avx512").
 *
 * Features: GFNI (`vgf2p8affineinvqb`, `vgf2p8affineqb`), AVX512F (zmm, `vpternlogd`,
 * `vbroadcasti32x4`, opmasks), AVX512BW (`vpshufb` on zmm, byte-masked `vmovdqu8`) and BMI2
 * (`bzhi`, the byte masks of the last step); not AVX512VL: the serial path runs on zmm too.
 * The Rust token GfniAvx512 proves them. ABI: System V AMD64 psABI; leaves that use only caller-saved registers (rax,
 * r10, r11, zmm0-31, k1-k4), no stack, and end with CLEAR (vec_clear.h). ELF only.
 *
 *   void simdcrypt_aes_gfni_encrypt(const u8 rk[nr + 1][16], size_t nr, const u8 *src,
 *                                   u8 *dst, size_t nblocks, size_t xor)
 *   void simdcrypt_aes_gfni_decrypt(const u8 dk[nr + 1][16], size_t nr, const u8 *src,
 *                                   u8 *dst, size_t nblocks, size_t xor)
 *       dst[i] = E(src[i]) (or D) for nblocks 16-byte blocks, or dst[i] ^= E(src[i]) when
 *       xor != 0 (CTR: src holds the counter blocks). src == dst is allowed. 16 blocks (four
 *       zmm) per step; the last step loads and stores under byte masks.
 *   void simdcrypt_aes_gfni_cbc_encrypt(const u8 rk[nr + 1][16], size_t nr, u8 iv[16],
 *                                       u8 *data, size_t nblocks)
 *       CBC encryption (SP 800-38A sec. 6.2) in place, one block at a time in zmm0; iv
 *       receives the last ciphertext block.
 * rk: the FIPS 197 round keys K_0..K_Nr in the standard byte order (byte 4c + r is row r of
 * column c). dk: the keys of the equivalent inverse cipher (FIPS 197 sec. 5.3.5): K_Nr,
 * InvMixColumns(K_Nr-1), ..., InvMixColumns(K_1), K_0. nr = 10, 12 or 14. Any alignment.
 *
 * Math. GF2P8AFFINEINVQB computes, per byte, M.inv(x) + b for an 8x8 bit matrix M and a
 * constant byte b, with inv the inverse in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1, AES's
 * field. The AES S-box is S(x) = A.inv(x) + 0x63 (FIPS 197 sec. 5.1.1). Multiplication by a
 * constant c is linear over GF(2), so c.S(x) = (cA).inv(x) + c.0x63 is one instruction too.
 * SubBytes is bytewise, so it commutes with ShiftRows and with the rotations of a column, and
 * MixColumns (FIPS 197 eq. 5.6)
 *     out[4c + r] = 2 b[4c + r] + 3 b[4c + r+1] + b[4c + r+2] + b[4c + r+3]   (rows mod 4)
 * with b = ShiftRows(S(x)) becomes: four byte shuffles of x (sigma_k: ShiftRows then row
 * r + k), four affine-inverse transforms (with the matrices 2A, 3A, A, A) and two three-way
 * XORs, the second one adding the round key. The critical path of a round is one shuffle,
 * one GFNI transform and two `vpternlogd`.
 * Decryption uses the equivalent inverse cipher: S^-1(y) = inv(A^-1.y + 0x05) (A^-1.0x63 =
 * 0x05), so one `vgf2p8affineqb` takes the state to A^-1.y + 0x05, the shuffles tau_k do
 * InvShiftRows and row r + k, and `vgf2p8affineinvqb` with the matrices of 14, 11, 13, 9
 * (InvMixColumns, FIPS 197 eq. 5.10) finishes the round; the last one uses the identity.
 * The matrices are derived from these definitions (bit i of the result is the parity of
 * row byte 7 - i AND the input, Intel SDM GF2P8AFFINEQB); the tests check every kernel entry
 * against FIPS 197, SP 800-38A and the portable kernel.
 *
 * Constant time: GF2P8AFFINEINVQB, GF2P8AFFINEQB, VPSHUFB and VPTERNLOGD have fixed latency
 * whatever their data (Intel lists the GFNI instructions among its data-operand-independent-
 * timing ones); no memory address depends on key or data; the branches depend on nr, nblocks
 * and the xor flag only.
 */

#if defined(__ELF__) && defined(__x86_64__)

#include "cet.h"
/* CLEAR, CLEAR_AVX (vec_clear.h): the register-scrubbing policy. */
#include "vec_clear.h"

#define RK      %rdi
#define NR      %rsi
#define SRC     %rdx
#define DST     %rcx
#define NBLK    %r8
#define XORF    %r9
#define KP      %r10
#define KEND    %r11

        .section .rodata
        .p2align 6
/* sigma_k: byte 4c + r of the result is byte 4((c + r') mod 4) + r' of x, r' = (r + k) mod 4. */
.Lsigma:
        .byte   0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11
        .byte   5, 10, 15, 0, 9, 14, 3, 4, 13, 2, 7, 8, 1, 6, 11, 12
        .byte   10, 15, 0, 5, 14, 3, 4, 9, 2, 7, 8, 13, 6, 11, 12, 1
        .byte   15, 0, 5, 10, 3, 4, 9, 14, 7, 8, 13, 2, 11, 12, 1, 6
/* tau_k: byte 4c + r of the result is byte 4((c - r') mod 4) + r' of x, r' = (r + k) mod 4. */
.Ltau:
        .byte   0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3
        .byte   13, 10, 7, 0, 1, 14, 11, 4, 5, 2, 15, 8, 9, 6, 3, 12
        .byte   10, 7, 0, 13, 14, 11, 4, 1, 2, 15, 8, 5, 6, 3, 12, 9
        .byte   7, 0, 13, 10, 11, 4, 1, 14, 15, 8, 5, 2, 3, 12, 9, 6
        .p2align 3
.Lmat:
        .quad   0xf1e3c78f1f3e7cf8      /* A, the S-box's affine map */
        .quad   0xf809e33f771f3e7c      /* 2A */
        .quad   0x09ea24b068214284      /* 3A */
        .quad   0xa44992254a942952      /* A^-1 */
        .quad   0xe02143672e5cb870      /* times 14 */
        .quad   0xa1e3c62dfaf4e8d0      /* times 11 */
        .quad   0x61a245ebb66cd8b0      /* times 13 */
        .quad   0x2162c4a972e4c890      /* times 9 */
        .quad   0x0102040810204080      /* identity */

        .text

/* Constants of encryption: zmm24-27 sigma_0..3, zmm28 A, zmm29 2A, zmm30 3A. */
.macro ENC_CONSTS
        vbroadcasti32x4 .Lsigma+0(%rip), %zmm24
        vbroadcasti32x4 .Lsigma+16(%rip), %zmm25
        vbroadcasti32x4 .Lsigma+32(%rip), %zmm26
        vbroadcasti32x4 .Lsigma+48(%rip), %zmm27
        vpbroadcastq .Lmat+0(%rip), %zmm28
        vpbroadcastq .Lmat+8(%rip), %zmm29
        vpbroadcastq .Lmat+16(%rip), %zmm30
.endm

/* Constants of decryption: zmm24-27 tau_0..3, zmm20-23 14, 11, 13, 9, zmm28 A^-1,
 * zmm29 identity. */
.macro DEC_CONSTS
        vbroadcasti32x4 .Ltau+0(%rip), %zmm24
        vbroadcasti32x4 .Ltau+16(%rip), %zmm25
        vbroadcasti32x4 .Ltau+32(%rip), %zmm26
        vbroadcasti32x4 .Ltau+48(%rip), %zmm27
        vpbroadcastq .Lmat+32(%rip), %zmm20
        vpbroadcastq .Lmat+40(%rip), %zmm21
        vpbroadcastq .Lmat+48(%rip), %zmm22
        vpbroadcastq .Lmat+56(%rip), %zmm23
        vpbroadcastq .Lmat+24(%rip), %zmm28
        vpbroadcastq .Lmat+64(%rip), %zmm29
.endm

/* A middle encryption round of state zmm<s> (temps a, b, c); the round key in zmm31. */
.macro ENC_ROUND s, a, b, c
        vpshufb %zmm24, %zmm\s, %zmm\a
        vpshufb %zmm25, %zmm\s, %zmm\b
        vpshufb %zmm26, %zmm\s, %zmm\c
        vpshufb %zmm27, %zmm\s, %zmm\s
        vgf2p8affineinvqb $0xc6, %zmm29, %zmm\a, %zmm\a
        vgf2p8affineinvqb $0xa5, %zmm30, %zmm\b, %zmm\b
        vgf2p8affineinvqb $0x63, %zmm28, %zmm\c, %zmm\c
        vgf2p8affineinvqb $0x63, %zmm28, %zmm\s, %zmm\s
        vpternlogd $0x96, %zmm\c, %zmm\b, %zmm\a
        vpternlogd $0x96, %zmm31, %zmm\a, %zmm\s
.endm

/* The last encryption round without its key: SubBytes and ShiftRows. */
.macro ENC_LAST s
        vpshufb %zmm24, %zmm\s, %zmm\s
        vgf2p8affineinvqb $0x63, %zmm28, %zmm\s, %zmm\s
.endm

/* A middle decryption round (equivalent inverse cipher); the round key in zmm31. */
.macro DEC_ROUND s, a, b, c
        vgf2p8affineqb $0x05, %zmm28, %zmm\s, %zmm\s
        vpshufb %zmm24, %zmm\s, %zmm\a
        vpshufb %zmm25, %zmm\s, %zmm\b
        vpshufb %zmm26, %zmm\s, %zmm\c
        vpshufb %zmm27, %zmm\s, %zmm\s
        vgf2p8affineinvqb $0, %zmm20, %zmm\a, %zmm\a
        vgf2p8affineinvqb $0, %zmm21, %zmm\b, %zmm\b
        vgf2p8affineinvqb $0, %zmm22, %zmm\c, %zmm\c
        vgf2p8affineinvqb $0, %zmm23, %zmm\s, %zmm\s
        vpternlogd $0x96, %zmm\c, %zmm\b, %zmm\a
        vpternlogd $0x96, %zmm31, %zmm\a, %zmm\s
.endm

/* The last decryption round without its key: InvShiftRows and InvSubBytes. */
.macro DEC_LAST s
        vgf2p8affineqb $0x05, %zmm28, %zmm\s, %zmm\s
        vpshufb %zmm24, %zmm\s, %zmm\s
        vgf2p8affineinvqb $0, %zmm29, %zmm\s, %zmm\s
.endm

/* k<j> = byte mask of zmm j (blocks 4j..4j+3) of a final step of nblocks < 16 blocks:
 * min(max(16 nblocks - 64 j, 0), 64) bits. Uses rax, r10, r11. */
.macro TAIL_MASK j, k
        mov     NBLK, %rax
        shl     $4, %rax
        sub     $64*\j, %rax
        xor     %r10d, %r10d
        test    %rax, %rax
        cmovs   %r10, %rax
        mov     $-1, %r11
        bzhi    %rax, %r11, %r11
        kmovq   %r11, \k
.endm

/* The body shared by both ECB entry points: ROUND/LAST are the round macros. */
.macro ECB_BODY round, last
        vzeroupper
        test    NBLK, NBLK
        jz      9f
1:
        mov     $-1, %rax
        kmovq   %rax, %k1
        kmovq   %rax, %k2
        kmovq   %rax, %k3
        kmovq   %rax, %k4
        cmp     $16, NBLK
        jae     2f
        TAIL_MASK 0, %k1
        TAIL_MASK 1, %k2
        TAIL_MASK 2, %k3
        TAIL_MASK 3, %k4
2:
        vbroadcasti32x4 (RK), %zmm31
        vmovdqu8 0(SRC), %zmm0{%k1}{z}
        vmovdqu8 64(SRC), %zmm1{%k2}{z}
        vmovdqu8 128(SRC), %zmm2{%k3}{z}
        vmovdqu8 192(SRC), %zmm3{%k4}{z}
        vpxord  %zmm31, %zmm0, %zmm0
        vpxord  %zmm31, %zmm1, %zmm1
        vpxord  %zmm31, %zmm2, %zmm2
        vpxord  %zmm31, %zmm3, %zmm3
        lea     16(RK), KP
        mov     NR, KEND
        shl     $4, KEND
        add     RK, KEND
3:
        vbroadcasti32x4 (KP), %zmm31
        \round 0, 4, 5, 6
        \round 1, 7, 8, 9
        \round 2, 10, 11, 12
        \round 3, 13, 14, 15
        add     $16, KP
        cmp     KEND, KP
        jb      3b
        vbroadcasti32x4 (KP), %zmm31
        \last 0
        \last 1
        \last 2
        \last 3
        test    XORF, XORF
        jz      4f
        vmovdqu8 0(DST), %zmm16{%k1}{z}
        vmovdqu8 64(DST), %zmm17{%k2}{z}
        vmovdqu8 128(DST), %zmm18{%k3}{z}
        vmovdqu8 192(DST), %zmm19{%k4}{z}
        vpternlogd $0x96, %zmm16, %zmm31, %zmm0
        vpternlogd $0x96, %zmm17, %zmm31, %zmm1
        vpternlogd $0x96, %zmm18, %zmm31, %zmm2
        vpternlogd $0x96, %zmm19, %zmm31, %zmm3
        jmp     5f
4:
        vpxord  %zmm31, %zmm0, %zmm0
        vpxord  %zmm31, %zmm1, %zmm1
        vpxord  %zmm31, %zmm2, %zmm2
        vpxord  %zmm31, %zmm3, %zmm3
5:
        vmovdqu8 %zmm0, 0(DST){%k1}
        vmovdqu8 %zmm1, 64(DST){%k2}
        vmovdqu8 %zmm2, 128(DST){%k3}
        vmovdqu8 %zmm3, 192(DST){%k4}
        add     $256, SRC
        add     $256, DST
        sub     $16, NBLK
        ja      1b
9:
        CLEAR
        ret
.endm

        .globl  simdcrypt_aes_gfni_encrypt
        .hidden simdcrypt_aes_gfni_encrypt
        .type   simdcrypt_aes_gfni_encrypt, @function
        .p2align 5
simdcrypt_aes_gfni_encrypt:
        .cfi_startproc
        ENDBR
        ENC_CONSTS
        ECB_BODY ENC_ROUND, ENC_LAST
        .cfi_endproc
        .size   simdcrypt_aes_gfni_encrypt, .-simdcrypt_aes_gfni_encrypt

        .globl  simdcrypt_aes_gfni_decrypt
        .hidden simdcrypt_aes_gfni_decrypt
        .type   simdcrypt_aes_gfni_decrypt, @function
        .p2align 5
simdcrypt_aes_gfni_decrypt:
        .cfi_startproc
        ENDBR
        DEC_CONSTS
        ECB_BODY DEC_ROUND, DEC_LAST
        .cfi_endproc
        .size   simdcrypt_aes_gfni_decrypt, .-simdcrypt_aes_gfni_decrypt

/* CBC encryption, one block in lane 0 of zmm0 (the other lanes compute garbage that is never
 * stored; zmm keeps the kernel within AVX512F/BW): rdi rk, rsi nr, rdx iv, rcx data,
 * r8 nblocks. zmm4 the previous ciphertext block, zmm5 K_0. */
        .globl  simdcrypt_aes_gfni_cbc_encrypt
        .hidden simdcrypt_aes_gfni_cbc_encrypt
        .type   simdcrypt_aes_gfni_cbc_encrypt, @function
        .p2align 5
simdcrypt_aes_gfni_cbc_encrypt:
        .cfi_startproc
        ENDBR
        vzeroupper
        test    NBLK, NBLK
        jz      9f
        ENC_CONSTS
        mov     NR, KEND
        shl     $4, KEND
        add     RK, KEND
        vmovdqu (%rdx), %xmm4
        vbroadcasti32x4 (RK), %zmm5
1:
        vmovdqu (%rcx), %xmm0
        vpternlogd $0x96, %zmm5, %zmm4, %zmm0
        lea     16(RK), KP
2:
        vbroadcasti32x4 (KP), %zmm31
        ENC_ROUND 0, 1, 2, 3
        add     $16, KP
        cmp     KEND, KP
        jb      2b
        ENC_LAST 0
        vbroadcasti32x4 (KP), %zmm31
        vpxord  %zmm31, %zmm0, %zmm4
        vmovdqu %xmm4, (%rcx)
        add     $16, %rcx
        dec     NBLK
        jnz     1b
        vmovdqu %xmm4, (%rdx)
9:
        CLEAR
        ret
        .cfi_endproc
        .size   simdcrypt_aes_gfni_cbc_encrypt, .-simdcrypt_aes_gfni_cbc_encrypt

        .section .note.GNU-stack, "", @progbits
#endif
