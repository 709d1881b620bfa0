/*
 * chacha_poly_avx512.S (x86_64) -- ChaCha20 (RFC 8439 sec. 2.3) on zmm stitched with a scalar
 * Poly1305 (RFC 8439 sec. 2.5) in base 2^64, for ChaCha20-Poly1305 (RFC 8439 sec. 2.8).
 * Safe wrapper: src/aead/chacha20_poly1305/x86_64_avx512.rs.
 *
 * Features: AVX512F and AVX512VL (EVEX `vprold`, `vpxord`, `vshufi32x4`, embedded broadcasts,
 * zmm16-21), AVX2 and AVX (`vpunpck*` on zmm are AVX512F), BMI2 (`mulx`). The Rust token
 * Avx512Bmi2 proves them. ABI: System V AMD64 psABI. Uses the caller-saved rax, rcx, rdx, rsi,
 * rdi, r8-r11 and all vector registers; saves and restores rbx, rbp, r12-r15 on the stack
 * and keeps 64 bytes of precomputed state words in the red zone below rsp (PRE, see
 * chacha_zmm.h; zeroed before returning); ends with CLEAR (vec_clear.h).
 * ELF only.
 *
 *   struct ctx { uint32_t state[16]; uint64_t r0, r1, s1; uint64_t h[3]; };  (112 bytes)
 *   void simdcrypt_chacha20_poly1305_avx512(struct ctx *ctx, uint8_t *data,
 *                                           const uint8_t *poly, size_t n);
 *
 * For j = 0 .. n-1, in this order:
 *   1. absorbs the 32 Poly1305 blocks poly[512 j .. 512 j + 511] into h: for each 16-byte block
 *      m, h <- (h + m + 2^128) * r mod 2^130 - 5 (partially reduced; r = r0 + 2^64 r1 clamped,
 *      s1 = r1 + r1/4);
 *   2. XORs the keystream of the 16 blocks state[12] + 16 j .. + 16 j + 15 (mod 2^32) into
 *      data[1024 j .. 1024 j + 1023].
 * Every load of step 1 of iteration j comes before every store of step 2 of iteration j, and
 * after every store of iteration j - 1, so the two regions may overlap: the AEAD seals with the
 * Poly1305 region behind the ChaCha20 one (hashing ciphertext written by earlier iterations),
 * and opens with it ahead (hashing ciphertext before it is decrypted). `state` is only read
 * (the wrapper advances word 12); h[] is read on entry and written on return. On entry
 * h[2] <= 7 (the crate's canonical accumulator), on return h[2] <= 4. Any alignment.
 *
 * Why stitch. The 16-block ChaCha20 pass keeps ports 0 and 5 busy (every vector op of 512 bits
 * issues there; `vprold` on port 0 only), while a scalar Poly1305 block is a chain of about
 * 30 integer instructions limited by its latency (about 4 ns per block here), which the
 * otherwise idle ports 1, 6 and 10 run in the shadow of the vector code. Each `mulx` also
 * takes one port-5 micro-op, which the vector code feels. Measured on an Emerald Rapids Xeon
 * with a standalone harness (best of 300 runs of 50 calls, data in L1): 16 ChaCha20 blocks
 * cost 151 ns alone and 175 ns with 32 Poly1305 blocks interleaved (64 blocks: 251 ns, bound
 * by the Poly1305 chain; 24, 34, 40, 42 blocks: no better per byte once the vector Poly1305
 * does the rest). So the kernel takes 32 blocks (half of the 1 KiB the pass encrypts), and
 * the AEAD hashes the other half with the vector Poly1305.
 *
 * Math, ChaCha20: as in chacha_avx512.S, the "vertical" layout (Goll and Gueron, "Vectorizing
 * ChaCha20"): zmm i holds word i of 16 consecutive blocks (32-bit lane j = block j); 10
 * double rounds of column and diagonal quarter-rounds (a += b; d ^= a; d <<<= 16;
 * c += d; b ^= c; b <<<= 12; a += b; d ^= a; d <<<= 8; c += d; b ^= c; b <<<= 7), the final
 * addition of the input, a 16x16 transpose of 32-bit lanes, and the XOR into the data.
 * As there, the first column round's quarter-rounds on columns 1-3 are computed once per
 * call (PRECOMP) and column 0's for the next pass during the current one's transposes (COL0).
 *
 * Math, Poly1305 (base 2^64, as src/poly1305/soft64.rs): h = h0 + 2^64 h1 + 2^128 h2. With
 * m added (and the 2^128 bit), the product with r is
 *     d0 = h0 r0 + h1 s1,  d1 = h0 r1 + h1 r0 + h2 s1 + hi(d0),  d2 = h2 r0 + hi(d1)
 * (clamping clears the low two bits of r1, so 2^128 r1 h1 = 2^130 (r1/4) h1, and 2^130 is
 * 5 mod p: h1 r1 2^128 == h1 s1 with s1 = 5 r1 / 4). Then the bits of d2 from 2^130 up are
 * folded: h = lo(d0) + 2^64 lo(d1) + 2^128 (d2 & 3) + 5 (d2 >> 2), with
 * 5 (d2 >> 2) = (d2 & ~3) + (d2 >> 2). Bounds: r0, r1 < 2^60, s1 < 2^61; with h2 <= 9 after
 * the addition, h2 s1 < 2^64, and d2 < 11 * 2^60, so no sum overflows. Products are `mulx`
 * (high halves) and `imul` (h2 times r0 and s1, which fit in 64 bits).
 *
 * Schedule: the 32 Poly1305 blocks of an iteration are split in four parts each (PPART 0-3,
 * 7-8 instructions); a double round (8 QSTEPs of 12 vector instructions, in three groups of
 * four) takes 3 blocks, one part after every other group (the first double round, whose
 * column round is mostly precomputed, interleaves six parts with its diagonal round and runs
 * the other six after it); 10 double rounds take 30 blocks
 * and the 2 left run between the transposes, before the first store.
 *
 * Constant time: the branches and memory offsets depend on n and the pointers only; every
 * instruction is data-independent in time (add/adc/mulx/imul/shifts and vector ALU ops).
 *
 * Registers:
 *   rdi  CTX    ctx (state words at 0, r0 64, r1 72, s1 80, h 88/96/104)
 *   rsi  DATA   current 1 KiB of data         r11  POLY   current Poly1305 block
 *   r10  NN     iterations left                eax  CTR    counter of the iteration's block 0
 *   ecx  double-round loop counter             rdx  mulx source and scratch
 *   rbx rbp r12  H0 H1 H2 (accumulator)        r13 r14 r15 r8 r9  T0-T4 (products)
 *   zmm0-15 the 16 words, zmm16 the counter lanes, zmm17 the next pass's, zmm22-25 the next
 *   pass's words 0, 4, 8, 12 (COL0), zmm18-21 transpose temporaries
 *
 * Secrets left behind (vec_clear.h policy): the saved registers are restored (so H0-H2 and
 * T0-T2 hold the caller's values again); rdx, r8 and r9, which held products of h and r, are
 * zeroed; PRE (red zone) is zeroed; CLEAR zeroes every vector register. rax (counter),
 * rcx, r10, r11, rsi, rdi hold public counts, counters and pointers.
 */

#if defined(__ELF__) && defined(__x86_64__)

#include "cet.h"
/* CLEAR, CLEAR_AVX (vec_clear.h): the register-scrubbing policy. */
#include "vec_clear.h"

#define CTX     %rdi
#define STATE   %rdi
#define DATA    %rsi
#define CTR     %eax
#define POLY    %r11
#define NN      %r10
#define H0      %rbx
#define H1      %rbp
#define H2      %r12
#define T0      %r13
#define T1      %r14
#define T2      %r15
#define T3      %r8
#define T4      %r9
#define R0M     64(CTX)
#define R1M     72(CTX)
#define S1M     80(CTX)

#include "chacha_zmm.h"

        .section .rodata
        .p2align 6
/* Lane offsets 0..15: counters of the blocks of a pass. */
.Llanes:
        .long   0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
.Lsixteen:
        .long   16

        .text

/* PPART k, off: part k (0-3) of one Poly1305 block, the block at off(POLY). */
.macro PPART k, off
 .if \k == 0
        addq    \off(POLY), H0              /* h += m + 2^128 */
        adcq    \off+8(POLY), H1
        adcq    $1, H2
        movq    H0, %rdx
        mulxq   R0M, T0, T1                 /* T1:T0 = h0 r0 */
        mulxq   R1M, T2, T3                 /* T3:T2 = h0 r1 */
        movq    H1, %rdx
 .elseif \k == 1
        mulxq   S1M, H0, T4                 /* T4:H0 = h1 s1 */
        addq    T0, H0                      /* H0 = lo(d0) */
        adcq    T1, T4                      /* T4 = hi(d0) (no carry out: < 2^62) */
        mulxq   R0M, H1, %rdx               /* rdx:H1 = h1 r0 */
        movq    H2, T0
        imulq   S1M, T0                     /* T0 = h2 s1 */
        imulq   R0M, H2                     /* H2 = h2 r0 */
 .elseif \k == 2
        addq    T2, H1                      /* H1 = lo(d1), rdx = d2 */
        adcq    T3, %rdx
        addq    T4, H1
        adcq    H2, %rdx
        addq    T0, H1
        adcq    $0, %rdx
        movq    %rdx, H2
 .else
        andq    $3, H2                      /* h2 = d2 & 3 */
        movq    %rdx, T1
        shrq    $2, T1
        andq    $-4, %rdx
        addq    T1, %rdx                    /* 5 (d2 >> 2) */
        addq    %rdx, H0
        adcq    $0, H1
        adcq    $0, H2
 .endif
.endm

/* PBLOCK off: one whole Poly1305 block. */
.macro PBLOCK off
        PPART   0, \off
        PPART   1, \off
        PPART   2, \off
        PPART   3, \off
.endm

/* SLOT s: after vector group s (0-23) of a double round, part s/2 of the double round's three
 * blocks on even s: block (s/2)/4, part (s/2)%4. */
.macro SLOT s
 .if ((\s) % 2) == 0
        PPART   (((\s)/2)%4), 16*(((\s)/2)/4)
 .endif
.endm

/* QSTEP r, triples, s: x += y; z ^= x; z <<<= r on four (x, y, z) triples, one instruction
 * kind at a time, with the Poly1305 slots s, s+1, s+2 after the three groups. */
.macro QSTEP r, x0, y0, z0, x1, y1, z1, x2, y2, z2, x3, y3, z3, s
        vpaddd  \y0, \x0, \x0
        vpaddd  \y1, \x1, \x1
        vpaddd  \y2, \x2, \x2
        vpaddd  \y3, \x3, \x3
        SLOT    \s
        vpxord  \x0, \z0, \z0
        vpxord  \x1, \z1, \z1
        vpxord  \x2, \z2, \z2
        vpxord  \x3, \z3, \z3
        SLOT    \s+1
        vprold  $\r, \z0, \z0
        vprold  $\r, \z1, \z1
        vprold  $\r, \z2, \z2
        vprold  $\r, \z3, \z3
        SLOT    \s+2
.endm

/* QR4 s, quarter-rounds: four quarter-rounds (a_k, b_k, c_k, d_k), slots from s. */
.macro QR4 s, a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3
        QSTEP   16, \a0, \b0, \d0, \a1, \b1, \d1, \a2, \b2, \d2, \a3, \b3, \d3, \s
        QSTEP   12, \c0, \d0, \b0, \c1, \d1, \b1, \c2, \d2, \b2, \c3, \d3, \b3, \s+3
        QSTEP   8,  \a0, \b0, \d0, \a1, \b1, \d1, \a2, \b2, \d2, \a3, \b3, \d3, \s+6
        QSTEP   7,  \c0, \d0, \b0, \c1, \d1, \b1, \c2, \d2, \b2, \c3, \d3, \b3, \s+9
.endm

/* VDROUND: one double round on zmm0-15 (columns, then diagonals) with three Poly1305 blocks. */
.macro VDROUND
        QR4     0,  %zmm0, %zmm4, %zmm8,  %zmm12, %zmm1, %zmm5, %zmm9,  %zmm13, \
                    %zmm2, %zmm6, %zmm10, %zmm14, %zmm3, %zmm7, %zmm11, %zmm15
        QR4     12, %zmm0, %zmm5, %zmm10, %zmm15, %zmm1, %zmm6, %zmm11, %zmm12, \
                    %zmm2, %zmm7, %zmm8,  %zmm13, %zmm3, %zmm4, %zmm9,  %zmm14
.endm


        .globl  simdcrypt_chacha20_poly1305_avx512
        .hidden simdcrypt_chacha20_poly1305_avx512
        .type   simdcrypt_chacha20_poly1305_avx512, @function
        .p2align 5
simdcrypt_chacha20_poly1305_avx512:
        ENDBR
        testq   %rcx, %rcx
        jz      .Lret
        pushq   %rbx
        pushq   %rbp
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        movq    %rdx, POLY
        movq    %rcx, NN
        movq    88(CTX), H0
        movq    96(CTX), H1
        movq    104(CTX), H2
        movl    48(STATE), CTR
        PRECOMP
        vpbroadcastd CTR, %zmm16
        vpaddd  .Llanes(%rip), %zmm16, %zmm16
        COL0    %zmm16
.Liter:
        /* Columns 1-3 of the pass from PRE (already through the first column round, see
         * PRECOMP), column 0 from zmm22-25 (COL0, computed during the previous pass). */
        .irp i, 1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15
        vpbroadcastd PRE(4*\i), %zmm\i
        .endr
        vmovdqa64 %zmm22, %zmm0
        vmovdqa64 %zmm23, %zmm4
        vmovdqa64 %zmm24, %zmm8
        vmovdqa64 %zmm25, %zmm12
        /* The first diagonal round with the first double round's three Poly1305 blocks: the
         * parts of slots 0-11 interleaved, those of slots 12-23 after it. */
        QR4     0,  %zmm0, %zmm5, %zmm10, %zmm15, %zmm1, %zmm6, %zmm11, %zmm12, \
                    %zmm2, %zmm7, %zmm8,  %zmm13, %zmm3, %zmm4, %zmm9,  %zmm14
        .irp s, 12, 14, 16, 18, 20, 22
        SLOT    \s
        .endr
        addq    $48, POLY
        movl    $9, %ecx
.Lrounds:
        VDROUND
        addq    $48, POLY
        decl    %ecx
        jnz     .Lrounds
        vpaddd  .Lsixteen(%rip){1to16}, %zmm16, %zmm17
        COL0    %zmm17                              /* for the next pass */
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15
        vpaddd  4*\i(STATE){1to16}, %zmm\i, %zmm\i
        .endr
        vpaddd  %zmm16, %zmm12, %zmm12
        vmovdqa64 %zmm17, %zmm16
        /* The last two Poly1305 blocks, between the in-lane transposes (before any store). */
        TRANSPOSE4 %zmm0, %zmm1, %zmm2, %zmm3, %zmm18, %zmm19, %zmm20, %zmm21
        PPART   0, 0
        PPART   1, 0
        TRANSPOSE4 %zmm4, %zmm5, %zmm6, %zmm7, %zmm18, %zmm19, %zmm20, %zmm21
        PPART   2, 0
        PPART   3, 0
        TRANSPOSE4 %zmm8, %zmm9, %zmm10, %zmm11, %zmm18, %zmm19, %zmm20, %zmm21
        PPART   0, 16
        PPART   1, 16
        TRANSPOSE4 %zmm12, %zmm13, %zmm14, %zmm15, %zmm18, %zmm19, %zmm20, %zmm21
        PPART   2, 16
        PPART   3, 16
        addq    $32, POLY
        ZQUAD   %zmm0, %zmm4, %zmm8, %zmm12, 0
        ZQUAD   %zmm1, %zmm5, %zmm9, %zmm13, 1
        ZQUAD   %zmm2, %zmm6, %zmm10, %zmm14, 2
        ZQUAD   %zmm3, %zmm7, %zmm11, %zmm15, 3
        addl    $16, CTR
        addq    $1024, DATA
        decq    NN
        jnz     .Liter
        WIPEPRE
        movq    H0, 88(CTX)
        movq    H1, 96(CTX)
        movq    H2, 104(CTX)
        /* Caller-saved registers that held products of h and r (vec_clear.h policy 2);
         * the callee-saved ones (H0-H2, T0-T2) get the caller's values back below. */
        xorl    %edx, %edx
        xorl    %r8d, %r8d
        xorl    %r9d, %r9d
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbp
        popq    %rbx
        CLEAR
.Lret:
        ret
        .size   simdcrypt_chacha20_poly1305_avx512, . - simdcrypt_chacha20_poly1305_avx512

#endif

#if defined(__ELF__)
        .section .note.GNU-stack, "", @progbits
#endif
