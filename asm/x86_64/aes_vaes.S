/*
 * aes_vaes.S (x86_64) -- AES-CTR, ECB and CBC decryption with VAES on 256-bit (ymm) and
 * 512-bit (zmm) registers. Safe wrapper: src/aes/x86_64_vaes.rs.
 *
 * Features: the *_vaes256 functions need VAES, AES-NI, AVX and AVX2 (VEX-encoded, ymm0-15);
 * the *_vaes512 functions also AVX512F, AVX512VL and AVX512BW (EVEX-encoded, zmm0-31,
 * opmask registers k1-k4, `vpshufb` on zmm, `kmovd`/`kshiftrd`). The Rust tokens VaesAvx2
 * and VaesAvx512 prove them. ABI: System V AMD64 psABI; every function is a leaf that uses
 * only caller-saved registers (rax, rcx, rdx, rsi, rdi, r8-r11, all vector and opmask
 * registers), no stack, and ends with
 * CLEAR (zmm functions) or CLEAR_AVX (ymm functions): vec_clear.h. ELF only (the wrapper is compiled for
 * Linux and the BSDs).
 *
 * Math. VAES applies the AES-NI round instructions to each 128-bit lane independently:
 * `vaesenc k, x, y` is y[j] = aesenc(x[j], k[j]) for every lane j. Every round key is
 * broadcast to all lanes (`vbroadcasti128` / `vbroadcasti32x4` from the 16-byte key in
 * memory), so one register holds 2 (ymm) or 4 (zmm) blocks under the same key. The round
 * keys are the AES-NI schedules of src/aes/x86_64_aesni.rs, 15 entries of 16 bytes:
 *     encryption  k[0..=Nr]   E(x) = aesenclast(aesenc(..aesenc(x ^ k[0], k[1]).., k[Nr-1]), k[Nr])
 *     decryption  dk[0..=Nr]  the equivalent inverse cipher (FIPS 197 sec. 5.3.5), same shape
 *                             with aesdec/aesdeclast.
 * The last round ends with AddRoundKey, so aesenclast(x, k ^ d) = aesenclast(x, k) ^ d: the
 * XOR of the keystream with the data (CTR) and of the chaining block (CBC) ride on the key
 * of the last round.
 *
 * CTR (SP 800-38A sec. 6.5, 128-bit big-endian counter, appendix B.1 with m = 128): byte-
 * reversing the counter block gives a little-endian integer whose low 64 bits are the low
 * qword of the lane, so counter c + i is a `vpaddq` of i to the low qword and a `vpshufb`
 * back. The caller guarantees that the low 64 bits do not wrap within the call (the wrapper
 * splits a call where they would); the counter is public, so nothing secret steers a branch.
 *
 * CBC decryption (SP 800-38A sec. 6.2): P_i = D(C_i) ^ C_{i-1}. In place, so within a pass
 * the results are stored from the last register to the first: register r's chaining blocks
 * C_{4r-1..4r+2} (zmm) lie below its own blocks, which it loads before storing, and above
 * the blocks of the registers stored after it. The chaining block of a pass's first block
 * is kept in a register (CIV, its top lane) from the previous pass (or the IV).
 *
 * Widths. vaes512: a main loop of 16 zmm registers (64 blocks, 1 KiB) while at least 64
 * blocks remain, then passes of 4 zmm registers (16 blocks) whose loads and stores are
 * masked to the blocks that remain (opmask k1-k4 = bits 0..2r-1 of a qword mask for r
 * remaining blocks: masked-off elements are neither read nor written, so nothing outside
 * the buffer is touched). vaes256: 8 ymm registers (16 blocks) per pass, and `nblocks` must
 * be a multiple of 16 (the wrapper runs any remainder on AES-NI).
 *
 * Nothing branches on or indexes memory by key, data or keystream; the branches depend on
 * Nr and the block count only.
 *
 * Functions (rk/dk: 15 x 16 bytes; nr: 10, 12 or 14; any alignment for every pointer):
 *   void simdcrypt_aes_ctr_vaes512(const u8 rk[240], size_t nr, const u8 ctr[16], u8 *data, size_t nblocks)
 *   void simdcrypt_aes_ecb_enc_vaes512(const u8 rk[240], size_t nr, u8 *data, size_t nblocks)
 *   void simdcrypt_aes_ecb_dec_vaes512(const u8 dk[240], size_t nr, u8 *data, size_t nblocks)
 *   void simdcrypt_aes_cbc_dec_vaes512(const u8 dk[240], size_t nr, const u8 iv[16], u8 *data, size_t nblocks)
 *   and the same four named *_vaes256 (nblocks % 16 == 0).
 * CTR XORs the keystream of blocks ctr, ctr + 1, ... into data; CBC decrypts in place after
 * chaining value iv. Neither writes the counter or IV back (the wrapper does).
 *
 * Registers (both widths; V = zmm or ymm):
 *   rdi  RK     round keys            rsi  NR     rounds
 *   r10  DATA   current block         r8   NBLK   blocks left
 *   rdx  the counter or IV pointer (CTR, CBC; read once at entry)
 *   rax, rcx  scratch (last-key offset, tail mask)
 *   vaes512: zmm0-15 blocks (S0..S15), zmm16 KEY (round key of the current round),
 *            zmm17 KL (last-round key), zmm18 BSW, zmm19 CUR (next counters, LE),
 *            zmm20 INC (4 per lane), zmm21 T0, zmm22 CIV, zmm23 PREV0, zmm24 CIVN,
 *            k1-k4 tail masks
 *   vaes256: ymm0-7 blocks, ymm8 KEY, ymm9 KL, ymm10 BSW / CIV, ymm11 CUR / PREV0,
 *            ymm12 INC / CIVN, ymm13 T0
 */

#if defined(__ELF__) && defined(__x86_64__)

#include "cet.h"
/* CLEAR, CLEAR_AVX (vec_clear.h): the register-scrubbing policy. */
#include "vec_clear.h"

#define RK      %rdi
#define NR      %rsi
#define DATA    %r10
#define NBLK    %r8

        .section .rodata
        .p2align 6
/* vpshufb mask reversing the 16 bytes of each lane. */
.Lbswap:
        .byte   15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
/* Per-lane offsets 0, 1, 2, 3 (low qword of each lane). */
.Llanes:
        .quad   0, 0, 1, 0, 2, 0, 3, 0
/* Counter steps: 4 blocks per zmm, 2 per ymm (broadcast to every lane). */
.Linc4:
        .quad   4, 0
.Linc2:
        .quad   2, 0

        .text

/*
 * ROUNDS aes, bcast, xor, key, regs: whitening with k[0] and the middle rounds 1..Nr-1 on
 * every register in `regs`, round by round. The caller does the last round with KL.
 */
.macro ROUNDS aes, bcast, xor, key, regs:vararg
        \bcast  (RK), \key
        .irp r, \regs
        \xor    \key, \r, \r
        .endr
        .irp off, 16, 32, 48, 64, 80, 96, 112, 128, 144
        \bcast  \off(RK), \key
        .irp r, \regs
        \aes    \key, \r, \r
        .endr
        .endr
        cmpq    $10, NR
        je      .Lrounds_done\@
        .irp off, 160, 176
        \bcast  \off(RK), \key
        .irp r, \regs
        \aes    \key, \r, \r
        .endr
        .endr
        cmpq    $12, NR
        je      .Lrounds_done\@
        .irp off, 192, 208
        \bcast  \off(RK), \key
        .irp r, \regs
        \aes    \key, \r, \r
        .endr
        .endr
.Lrounds_done\@:
.endm

/* LOAD_KL bcast, kl: the last-round key k[Nr] (offset 16 * Nr) into every lane of kl. */
.macro LOAD_KL bcast, kl
        movq    NR, %rax
        shlq    $4, %rax
        \bcast  (RK,%rax), \kl
.endm

/* CTR_GEN shuf, add, bsw, cur, inc, regs: counter blocks cur, cur + inc, ... byte-swapped
 * into regs; cur advances past them. */
.macro CTR_GEN shuf, add, bsw, cur, inc, regs:vararg
        .irp r, \regs
        \shuf   \bsw, \cur, \r
        \add    \inc, \cur, \cur
        .endr
.endm

/* LAST_XOR last, xor, mov, size, kl, t0, regs: r = last(r, kl ^ data[off]); data[off] = r,
 * for off = 0, size, 2 size, ... */
.macro LAST_XOR last, xor, mov, size, kl, t0, regs:vararg
        .set    .Loff, 0
        .irp r, \regs
        \xor    .Loff(DATA), \kl, \t0
        \last   \t0, \r, \r
        \mov    \r, .Loff(DATA)
        .set    .Loff, .Loff + \size
        .endr
.endm

/* LAST_PLAIN last, mov, size, kl, regs: r = last(r, kl); data[off] = r. */
.macro LAST_PLAIN last, mov, size, kl, regs:vararg
        .set    .Loff, 0
        .irp r, \regs
        \last   \kl, \r, \r
        \mov    \r, .Loff(DATA)
        .set    .Loff, .Loff + \size
        .endr
.endm

/* LOAD_BLOCKS mov, size, regs: r = data[off]. */
.macro LOAD_BLOCKS mov, size, regs:vararg
        .set    .Loff, 0
        .irp r, \regs
        \mov    .Loff(DATA), \r
        .set    .Loff, .Loff + \size
        .endr
.endm

/* CBC_LAST_DOWN xor, mov, first, size, kl, t0, regs (highest first, without the first
 * register): r = aesdeclast(r, kl ^ data[off - 16]); data[off] = r, for off = first,
 * first - size, ... */
.macro CBC_LAST_DOWN xor, mov, first, size, kl, t0, regs:vararg
        .set    .Loff, \first
        .irp r, \regs
        \xor    .Loff-16(DATA), \kl, \t0
        vaesdeclast \t0, \r, \r
        \mov    \r, .Loff(DATA)
        .set    .Loff, .Loff - \size
        .endr
.endm

/* ------------------------------------------------------------------------------------- */
/* 512-bit (AVX-512) versions.                                                            */

#define KEY     %zmm16
#define KL      %zmm17
#define BSW     %zmm18
#define CUR     %zmm19
#define INC     %zmm20
#define T0      %zmm21
#define CIV     %zmm22
#define PREV0   %zmm23
#define CIVN    %zmm24
#define ALL16   %zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm5, %zmm6, %zmm7, %zmm8, %zmm9, %zmm10, %zmm11, %zmm12, %zmm13, %zmm14, %zmm15
#define FOUR    %zmm0, %zmm1, %zmm2, %zmm3

/* TAIL_MASKS: k1..k4 = the qword masks of min(NBLK, 16) blocks over zmm0..zmm3. */
.macro TAIL_MASKS
        movq    NBLK, %rcx
        movl    $16, %eax
        cmpq    %rax, %rcx
        cmovaq  %rax, %rcx
        addl    %ecx, %ecx              /* 2 qwords per block, at most 32 */
        movl    $1, %eax
        shlq    %cl, %rax
        decq    %rax
        kmovd   %eax, %k1
        kshiftrd $8, %k1, %k2
        kshiftrd $16, %k1, %k3
        kshiftrd $24, %k1, %k4
.endm

/* CTR_LAST_MASKED r, k, off: the last round of r with the data under mask k folded in. */
.macro CTR_LAST_MASKED r, k, off
        vmovdqu64 \off(DATA), T0{\k}{z}
        vpxorq  KL, T0, T0
        vaesenclast T0, \r, \r
        vmovdqu64 \r, \off(DATA){\k}
.endm

/* CBC_LAST_MASKED r, k, off: the last round of r with the chaining blocks (16 bytes below
 * its own) under mask k folded in, stored under k. */
.macro CBC_LAST_MASKED r, k, off
        vmovdqu64 \off-16(DATA), T0{\k}{z}
        vpxorq  KL, T0, T0
        vaesdeclast T0, \r, \r
        vmovdqu64 \r, \off(DATA){\k}
.endm

/* LOAD_MASKED / STORE_MASKED: zmm0-3 from / to the blocks under k1-k4. */
.macro LOAD_MASKED
        vmovdqu64 (DATA), %zmm0{%k1}{z}
        vmovdqu64 64(DATA), %zmm1{%k2}{z}
        vmovdqu64 128(DATA), %zmm2{%k3}{z}
        vmovdqu64 192(DATA), %zmm3{%k4}{z}
.endm
.macro STORE_MASKED
        vmovdqu64 %zmm0, (DATA){%k1}
        vmovdqu64 %zmm1, 64(DATA){%k2}
        vmovdqu64 %zmm2, 128(DATA){%k3}
        vmovdqu64 %zmm3, 192(DATA){%k4}
.endm

        .globl  simdcrypt_aes_ctr_vaes512
        .hidden simdcrypt_aes_ctr_vaes512
        .type   simdcrypt_aes_ctr_vaes512, @function
        .p2align 5
simdcrypt_aes_ctr_vaes512:
        ENDBR
        movq    %rcx, DATA
        LOAD_KL vbroadcasti32x4, KL
        vbroadcasti32x4 .Lbswap(%rip), BSW
        vbroadcasti32x4 (%rdx), CUR
        vpshufb BSW, CUR, CUR
        vpaddq  .Llanes(%rip), CUR, CUR
        vbroadcasti32x4 .Linc4(%rip), INC
        cmpq    $64, NBLK
        jb      .Lctr512_tail
.Lctr512_main:
        CTR_GEN vpshufb, vpaddq, BSW, CUR, INC, ALL16
        ROUNDS  vaesenc, vbroadcasti32x4, vpxorq, KEY, ALL16
        LAST_XOR vaesenclast, vpxorq, vmovdqu64, 64, KL, T0, ALL16
        addq    $1024, DATA
        subq    $64, NBLK
        cmpq    $64, NBLK
        jae     .Lctr512_main
.Lctr512_tail:
        testq   NBLK, NBLK
        jz      .Lctr512_done
        TAIL_MASKS
        CTR_GEN vpshufb, vpaddq, BSW, CUR, INC, FOUR
        ROUNDS  vaesenc, vbroadcasti32x4, vpxorq, KEY, FOUR
        CTR_LAST_MASKED %zmm0, %k1, 0
        CTR_LAST_MASKED %zmm1, %k2, 64
        CTR_LAST_MASKED %zmm2, %k3, 128
        CTR_LAST_MASKED %zmm3, %k4, 192
        addq    $256, DATA
        subq    $16, NBLK
        ja      .Lctr512_tail
.Lctr512_done:
        CLEAR
        ret
        .size   simdcrypt_aes_ctr_vaes512, . - simdcrypt_aes_ctr_vaes512

/* ECB512 name, aes, aeslast: ECB over NBLK blocks with the schedule at RK. */
.macro ECB512 name, aes, aeslast
        .globl  \name
        .hidden \name
        .type   \name, @function
        .p2align 5
\name:
        ENDBR
        movq    %rdx, DATA
        movq    %rcx, NBLK
        LOAD_KL vbroadcasti32x4, KL
        cmpq    $64, NBLK
        jb      .Ltail\@
.Lmain\@:
        LOAD_BLOCKS vmovdqu64, 64, ALL16
        ROUNDS  \aes, vbroadcasti32x4, vpxorq, KEY, ALL16
        LAST_PLAIN \aeslast, vmovdqu64, 64, KL, ALL16
        addq    $1024, DATA
        subq    $64, NBLK
        cmpq    $64, NBLK
        jae     .Lmain\@
.Ltail\@:
        testq   NBLK, NBLK
        jz      .Ldone\@
        TAIL_MASKS
        LOAD_MASKED
        ROUNDS  \aes, vbroadcasti32x4, vpxorq, KEY, FOUR
        \aeslast KL, %zmm0, %zmm0
        \aeslast KL, %zmm1, %zmm1
        \aeslast KL, %zmm2, %zmm2
        \aeslast KL, %zmm3, %zmm3
        STORE_MASKED
        addq    $256, DATA
        subq    $16, NBLK
        ja      .Ltail\@
.Ldone\@:
        CLEAR
        ret
        .size   \name, . - \name
.endm

        ECB512  simdcrypt_aes_ecb_enc_vaes512, vaesenc, vaesenclast
        ECB512  simdcrypt_aes_ecb_dec_vaes512, vaesdec, vaesdeclast

        .globl  simdcrypt_aes_cbc_dec_vaes512
        .hidden simdcrypt_aes_cbc_dec_vaes512
        .type   simdcrypt_aes_cbc_dec_vaes512, @function
        .p2align 5
simdcrypt_aes_cbc_dec_vaes512:
        ENDBR
        movq    %rcx, DATA
        LOAD_KL vbroadcasti32x4, KL
        vbroadcasti32x4 (%rdx), CIV     /* the IV in every lane; lane 3 is what is used */
        cmpq    $64, NBLK
        jb      .Lcbc512_tail
.Lcbc512_main:
        LOAD_BLOCKS vmovdqu64, 64, ALL16
        /* PREV0 = [C_{-1}, C_0, C_1, C_2]: lane 3 of CIV, then lanes 0-2 of zmm0. */
        valignq $6, CIV, %zmm0, PREV0
        vmovdqa64 %zmm15, CIVN
        ROUNDS  vaesdec, vbroadcasti32x4, vpxorq, KEY, ALL16
        CBC_LAST_DOWN vpxorq, vmovdqu64, 960, 64, KL, T0, %zmm15, %zmm14, %zmm13, %zmm12, %zmm11, %zmm10, %zmm9, %zmm8, %zmm7, %zmm6, %zmm5, %zmm4, %zmm3, %zmm2, %zmm1
        vpxorq  PREV0, KL, T0
        vaesdeclast T0, %zmm0, %zmm0
        vmovdqu64 %zmm0, (DATA)
        vmovdqa64 CIVN, CIV
        addq    $1024, DATA
        subq    $64, NBLK
        cmpq    $64, NBLK
        jae     .Lcbc512_main
.Lcbc512_tail:
        testq   NBLK, NBLK
        jz      .Lcbc512_done
        TAIL_MASKS
        LOAD_MASKED
        valignq $6, CIV, %zmm0, PREV0
        vmovdqa64 %zmm3, CIVN
        ROUNDS  vaesdec, vbroadcasti32x4, vpxorq, KEY, FOUR
        CBC_LAST_MASKED %zmm3, %k4, 192
        CBC_LAST_MASKED %zmm2, %k3, 128
        CBC_LAST_MASKED %zmm1, %k2, 64
        vpxorq  PREV0, KL, T0
        vaesdeclast T0, %zmm0, %zmm0
        vmovdqu64 %zmm0, (DATA){%k1}
        /* Only a full pass (16 blocks) is followed by another; then zmm3's top lane is
         * the last ciphertext block. */
        vmovdqa64 CIVN, CIV
        addq    $256, DATA
        subq    $16, NBLK
        ja      .Lcbc512_tail
.Lcbc512_done:
        CLEAR
        ret
        .size   simdcrypt_aes_cbc_dec_vaes512, . - simdcrypt_aes_cbc_dec_vaes512

#undef KEY
#undef KL
#undef BSW
#undef CUR
#undef INC
#undef T0
#undef CIV
#undef PREV0
#undef CIVN

/* ------------------------------------------------------------------------------------- */
/* 256-bit (AVX2) versions: 8 ymm registers, 16 blocks per pass, nblocks % 16 == 0.       */

#define KEY     %ymm8
#define KL      %ymm9
#define BSW     %ymm10
#define CIV     %ymm10
#define CUR     %ymm11
#define PREV0   %ymm11
#define INC     %ymm12
#define CIVN    %ymm12
#define T0      %ymm13
#define ALL8    %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7

        .globl  simdcrypt_aes_ctr_vaes256
        .hidden simdcrypt_aes_ctr_vaes256
        .type   simdcrypt_aes_ctr_vaes256, @function
        .p2align 5
simdcrypt_aes_ctr_vaes256:
        ENDBR
        movq    %rcx, DATA
        LOAD_KL vbroadcasti128, KL
        vbroadcasti128 .Lbswap(%rip), BSW
        vbroadcasti128 (%rdx), CUR
        vpshufb BSW, CUR, CUR
        vpaddq  .Llanes(%rip), CUR, CUR
        vbroadcasti128 .Linc2(%rip), INC
        testq   NBLK, NBLK
        jz      .Lctr256_done
.Lctr256_main:
        CTR_GEN vpshufb, vpaddq, BSW, CUR, INC, ALL8
        ROUNDS  vaesenc, vbroadcasti128, vpxor, KEY, ALL8
        LAST_XOR vaesenclast, vpxor, vmovdqu, 32, KL, T0, ALL8
        addq    $256, DATA
        subq    $16, NBLK
        jnz     .Lctr256_main
.Lctr256_done:
        CLEAR_AVX
        ret
        .size   simdcrypt_aes_ctr_vaes256, . - simdcrypt_aes_ctr_vaes256

.macro ECB256 name, aes, aeslast
        .globl  \name
        .hidden \name
        .type   \name, @function
        .p2align 5
\name:
        ENDBR
        movq    %rdx, DATA
        movq    %rcx, NBLK
        LOAD_KL vbroadcasti128, KL
        testq   NBLK, NBLK
        jz      .Ldone\@
.Lmain\@:
        LOAD_BLOCKS vmovdqu, 32, ALL8
        ROUNDS  \aes, vbroadcasti128, vpxor, KEY, ALL8
        LAST_PLAIN \aeslast, vmovdqu, 32, KL, ALL8
        addq    $256, DATA
        subq    $16, NBLK
        jnz     .Lmain\@
.Ldone\@:
        CLEAR_AVX
        ret
        .size   \name, . - \name
.endm

        ECB256  simdcrypt_aes_ecb_enc_vaes256, vaesenc, vaesenclast
        ECB256  simdcrypt_aes_ecb_dec_vaes256, vaesdec, vaesdeclast

        .globl  simdcrypt_aes_cbc_dec_vaes256
        .hidden simdcrypt_aes_cbc_dec_vaes256
        .type   simdcrypt_aes_cbc_dec_vaes256, @function
        .p2align 5
simdcrypt_aes_cbc_dec_vaes256:
        ENDBR
        movq    %rcx, DATA
        LOAD_KL vbroadcasti128, KL
        vbroadcasti128 (%rdx), CIV      /* the IV in both lanes; lane 1 is what is used */
        testq   NBLK, NBLK
        jz      .Lcbc256_done
.Lcbc256_main:
        LOAD_BLOCKS vmovdqu, 32, ALL8
        /* PREV0 = [C_{-1}, C_0]: lane 1 of CIV, lane 0 of ymm0. */
        vperm2i128 $0x21, %ymm0, CIV, PREV0
        vmovdqa %ymm7, CIVN
        ROUNDS  vaesdec, vbroadcasti128, vpxor, KEY, ALL8
        CBC_LAST_DOWN vpxor, vmovdqu, 224, 32, KL, T0, %ymm7, %ymm6, %ymm5, %ymm4, %ymm3, %ymm2, %ymm1
        vpxor   PREV0, KL, T0
        vaesdeclast T0, %ymm0, %ymm0
        vmovdqu %ymm0, (DATA)
        vmovdqa CIVN, CIV
        addq    $256, DATA
        subq    $16, NBLK
        jnz     .Lcbc256_main
.Lcbc256_done:
        CLEAR_AVX
        ret
        .size   simdcrypt_aes_cbc_dec_vaes256, . - simdcrypt_aes_cbc_dec_vaes256

#endif

#if defined(__ELF__)
        .section .note.GNU-stack, "", @progbits
#endif
