/*
 * chacha_avx512.S (x86_64) -- ChaCha20 (RFC 8439 sec. 2.3) keystream XOR with AVX-512 on
 * zmm and in 128-bit rows on zmm and ymm. Safe wrapper: src/chacha20/x86_64_avx512.rs.
 *
 * Features: AVX512F and AVX512VL (EVEX `vprold`, `vpxord`, `vshufi32x4`, `vbroadcasti32x4`,
 * `kmovw` and a merge-masked `vpbroadcastd`, embedded broadcasts, registers 16-31, on zmm and
 * ymm), AVX2 and AVX (`vpshufd`, `vpunpck*`).
 * The Rust token Avx512 proves them. ABI: System V AMD64 psABI; the function is a leaf that
 * uses only caller-saved registers (rax, rcx, rdx, rsi, rdi, the mask register k1, all vector
 * registers), no stack frame (64 bytes of the red zone below rsp, zeroed before returning),
 * and ends with CLEAR (vec_clear.h). ELF only (the wrapper is compiled for Linux and the BSDs).
 *
 *   void simdcrypt_chacha20_avx512(const uint32_t state[16], uint8_t *data, size_t nblocks);
 *
 * XORs the keystream of blocks state[12], state[12] + 1, ... (mod 2^32) into the nblocks
 * 64-byte blocks at data, in place. `state` is the RFC 8439 sec. 2.3 state (words 0-3 the
 * constants, 4-11 the key, 12 the block counter, 13-15 the nonce); it is only read: the
 * wrapper advances word 12. Any alignment for both pointers.
 *
 * Math. A block's keystream is serialize(state + 20 rounds(state)), little-endian, where the
 * 20 rounds are 10 double rounds of four column quarter-rounds (0,4,8,12) (1,5,9,13)
 * (2,6,10,14) (3,7,11,15) and four diagonal ones (0,5,10,15) (1,6,11,12) (2,7,8,13)
 * (3,4,9,14), and the quarter-round (sec. 2.1) is
 *     a += b; d ^= a; d <<<= 16;  c += d; b ^= c; b <<<= 12;
 *     a += b; d ^= a; d <<<= 8;   c += d; b ^= c; b <<<= 7.
 * Every rotation is one `vprold`. Block i of a call uses counter state[12] + i computed with
 * 32-bit adds, so word 12 wraps at 2^32 and word 13 is never touched (RFC 8439 counter).
 *
 * Layouts and paths, by the number of blocks left (nblocks is public; it alone steers the
 * branches and the memory offsets, so nothing depends on key, counter-derived keystream or
 * data):
 *   >= 16   "vertical" on zmm (Goll and Gueron, "Vectorizing ChaCha20"): zmm i holds word i
 *           of 16 consecutive blocks, 32-bit lane j = block j. The rounds need no shuffles.
 *           Afterwards (the final addition uses embedded broadcasts of the state words from
 *           memory) a 16x16 transpose of 32-bit lanes: per group of four words, 4x4
 *           transposes inside each 128-bit lane (`vpunpck[lh]dq`, `vpunpck[lh]qdq`) leave
 *           zmm 4g+k with 128-bit lane L = bytes 16g..16g+15 of block 4L+k; then, per k,
 *           a 4x4 transpose of 128-bit lanes across zmm k, 4+k, 8+k, 12+k (`vshufi32x4`)
 *           leaves one whole block per register (blocks k, 4+k, 8+k, 12+k).
 *           The first column round's quarter-rounds on columns 1-3 involve neither the
 *           counter nor column 0, so they are the same in every lane and every pass: they
 *           are computed once per call (PRECOMP, chacha_zmm.h) and each pass starts from
 *           their result; column 0's quarter-round for the next pass (COL0) runs during
 *           the current pass's transposes and stores, which leave port 0 idle. Measured
 *           here (16 KiB, best of 2000 calls): 0.379 -> 0.351 TSC ticks per byte.
 *   9-15    one more vertical zmm pass, storing only the blocks that exist.
 *   1-8     "rows": registers a, b, c, d hold rows 0-3 of the 4x4 state matrix (words 0-3,
 *           4-7, 8-11, 12-15), one block per 128-bit lane (counter in word 12 of each lane).
 *           A column round is one quarter-round on the four registers; `vpshufd` rotates
 *           rows a, c, d inside each lane so that column j holds a[j-1], b[j], c[j+1],
 *           d[j+2] (indices mod 4), which are the diagonals (3,4,9,14) (0,5,10,15)
 *           (1,6,11,12) (2,7,8,13), and back. Row b, the last one the quarter-round writes,
 *           stays put, so no shuffle sits on the dependency chain: a set of rows runs at the
 *           latency of one block (12 dependent instructions per half-round).
 *             1-2  one set on ymm (blocks CTR, CTR+1); no zmm register is touched, so the
 *                  one- and two-block calls (AEAD messages up to 64 bytes) pay no 512-bit
 *                  start-up cost (measured 1-2 ns per call faster than one zmm set).
 *             3-4  one set on zmm (lane L = block CTR+L).
 *             5-8  two interleaved sets on zmm (blocks CTR..CTR+3 and CTR+4..CTR+7): 30
 *                  instructions per half-round, bound by throughput rather than latency,
 *                  yet measured about 5% faster than an 8-block vertical pass on ymm.
 *           Three sets for 9-12 measured no faster than the 16-block vertical pass (45
 *           zmm instructions per half-round against 48), so 9-15 take that pass.
 *           Afterwards a 4x4 transpose of 128-bit lanes (`vshufi32x4`; on ymm a 2x2 one)
 *           turns the rows of a set into whole blocks; only the blocks that exist are
 *           stored.
 *
 * Registers:
 *   rdi  STATE   the 16 state words (read only)     rsi  DATA  current block
 *   rdx  NBLK    blocks left                         eax  CTR   counter of the next block
 *   ecx  round loop counter (and the k1 constant)    k1   lanes holding word 12 (rows)
 *   vertical: zmm0-15 the 16 words (X0..X15), zmm16 the counter lanes, zmm17 the next
 *             pass's, zmm22-25 the next pass's words 0, 4, 8, 12 (COL0), zmm18-21 transpose
 *             temporaries; xmm22-25 in PRECOMP
 *   rows:     zmm/ymm 0-3 set 0 rows a b c d, zmm4-7 set 1, zmm/ymm 16-18 input rows a b c
 *             (shared), 19 / 20 input row d of set 0 / 1, 22-25 transpose temporaries
 *
 * Secrets left behind (vec_clear.h policy): the red-zone words (PRE) are zeroed before
 * returning, and CLEAR zeroes every vector register (zmm16-31, then `vzeroall`), so no key,
 * state or keystream word is left in memory or in a register. The general-purpose registers
 * hold only pointers, counts and the public block counter.
 */

#if defined(__ELF__) && defined(__x86_64__)

#include "cet.h"
/* CLEAR, CLEAR_AVX (vec_clear.h): the register-scrubbing policy. */
#include "vec_clear.h"

#define STATE   %rdi
#define DATA    %rsi
#define NBLK    %rdx
#define CTR     %eax

#include "chacha_zmm.h"

        .section .rodata
        .p2align 6
/* Lane offsets 0..15: counters of the blocks of a vertical pass. */
.Llanes:
        .long   0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
/* Rows: counter offsets 0-3 of the four 128-bit lanes of row d of set 0 (word 0 of every
 * lane is state word 12; ymm uses the first two lanes), and the step of 4 to set 1. */
.Lr0123:
        .long   0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0
.Lsixteen:
        .long   16
.Lr4:
        .long   4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0

        .text

/* QSTEP x, y, z, r over four (x, y, z) triples: x += y; z ^= x; z <<<= r (one line of the
 * quarter-round, on four independent quarter-rounds, one instruction kind at a time). */
.macro QSTEP r, x0, y0, z0, x1, y1, z1, x2, y2, z2, x3, y3, z3
        vpaddd  \y0, \x0, \x0
        vpaddd  \y1, \x1, \x1
        vpaddd  \y2, \x2, \x2
        vpaddd  \y3, \x3, \x3
        vpxord  \x0, \z0, \z0
        vpxord  \x1, \z1, \z1
        vpxord  \x2, \z2, \z2
        vpxord  \x3, \z3, \z3
        vprold  $\r, \z0, \z0
        vprold  $\r, \z1, \z1
        vprold  $\r, \z2, \z2
        vprold  $\r, \z3, \z3
.endm

/* QR4: four quarter-rounds (a_k, b_k, c_k, d_k), k = 0..3. */
.macro QR4 a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3
        QSTEP   16, \a0, \b0, \d0, \a1, \b1, \d1, \a2, \b2, \d2, \a3, \b3, \d3
        QSTEP   12, \c0, \d0, \b0, \c1, \d1, \b1, \c2, \d2, \b2, \c3, \d3, \b3
        QSTEP   8,  \a0, \b0, \d0, \a1, \b1, \d1, \a2, \b2, \d2, \a3, \b3, \d3
        QSTEP   7,  \c0, \d0, \b0, \c1, \d1, \b1, \c2, \d2, \b2, \c3, \d3, \b3
.endm

/* VDROUND v: one double round on v0..v15 (v = zmm): columns, then diagonals. */
.macro VDROUND v
        QR4     %\v\()0, %\v\()4, %\v\()8,  %\v\()12, %\v\()1, %\v\()5, %\v\()9,  %\v\()13, \
                %\v\()2, %\v\()6, %\v\()10, %\v\()14, %\v\()3, %\v\()7, %\v\()11, %\v\()15
        QR4     %\v\()0, %\v\()5, %\v\()10, %\v\()15, %\v\()1, %\v\()6, %\v\()11, %\v\()12, \
                %\v\()2, %\v\()7, %\v\()8,  %\v\()13, %\v\()3, %\v\()4, %\v\()9,  %\v\()14
.endm

/* VPASS: a vertical pass on zmm: the words (those of columns 1-3 from PRE, already through
 * the first column round; column 0 from zmm22-25, see COL0; counter lanes in zmm16), the
 * first diagonal round, nine double rounds, add the input, and the in-lane 4x4 transposes.
 * Leaves zmm(4g+k) with 128-bit lane L = bytes 16g..16g+15 of block 4L+k, and zmm22-25 and
 * zmm16 ready for the next pass (counters + 16). Advances nothing else. */
.macro VPASS
        .irp i, 1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15
        vpbroadcastd PRE(4*\i), %zmm\i
        .endr
        vmovdqa64 %zmm22, %zmm0
        vmovdqa64 %zmm23, %zmm4
        vmovdqa64 %zmm24, %zmm8
        vmovdqa64 %zmm25, %zmm12
        QR4     %zmm0, %zmm5, %zmm10, %zmm15, %zmm1, %zmm6, %zmm11, %zmm12, \
                %zmm2, %zmm7, %zmm8,  %zmm13, %zmm3, %zmm4, %zmm9,  %zmm14
        movl    $9, %ecx
.Lrounds\@:
        VDROUND zmm
        decl    %ecx
        jnz     .Lrounds\@
        vpaddd  .Lsixteen(%rip){1to16}, %zmm16, %zmm17
        COL0    %zmm17
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15
        vpaddd  4*\i(STATE){1to16}, %zmm\i, %zmm\i
        .endr
        vpaddd  %zmm16, %zmm12, %zmm12
        vmovdqa64 %zmm17, %zmm16
        TRANSPOSE4 %zmm0, %zmm1, %zmm2, %zmm3, %zmm18, %zmm19, %zmm20, %zmm21
        TRANSPOSE4 %zmm4, %zmm5, %zmm6, %zmm7, %zmm18, %zmm19, %zmm20, %zmm21
        TRANSPOSE4 %zmm8, %zmm9, %zmm10, %zmm11, %zmm18, %zmm19, %zmm20, %zmm21
        TRANSPOSE4 %zmm12, %zmm13, %zmm14, %zmm15, %zmm18, %zmm19, %zmm20, %zmm21
.endm


/* XOR32x2 lo, hi, blk, partial: the two 32-byte halves of block blk (ymm); when `partial`,
 * only if blk < NBLK. */
.macro XOR32x2 lo, hi, blk, partial
        .if \partial
        cmpq    $(\blk), NBLK
        jbe     1f
        .endif
        vpxord  64*(\blk)(DATA), \lo, \lo
        vpxord  64*(\blk)+32(DATA), \hi, \hi
        vmovdqu64 \lo, 64*(\blk)(DATA)
        vmovdqu64 \hi, 64*(\blk)+32(DATA)
1:
.endm


/* ZSTORE partial: after VPASS zmm, the XOR of the 16 blocks (or the first NBLK of them). */
.macro ZSTORE partial
        ZQUAD   %zmm0, %zmm4, %zmm8, %zmm12, 0, \partial
        ZQUAD   %zmm1, %zmm5, %zmm9, %zmm13, 1, \partial
        ZQUAD   %zmm2, %zmm6, %zmm10, %zmm14, 2, \partial
        ZQUAD   %zmm3, %zmm7, %zmm11, %zmm15, 3, \partial
.endm

/* RSTEP r, triples: x += y; z ^= x; z <<<= r on each (x, y, z) triple given (one or two),
 * one instruction kind at a time. */
.macro RSTEP r, x0, y0, z0, x1, y1, z1
        vpaddd  \y0, \x0, \x0
        .ifnb \x1
        vpaddd  \y1, \x1, \x1
        .endif
        vpxord  \x0, \z0, \z0
        .ifnb \x1
        vpxord  \x1, \z1, \z1
        .endif
        vprold  $\r, \z0, \z0
        .ifnb \x1
        vprold  $\r, \z1, \z1
        .endif
.endm

/* RQR v, sets: the quarter-round on the rows of each set (set s: rows a b c d in v4s..v4s+3). */
.macro RQR v, sets
        .if \sets == 1
        RSTEP   16, %\v\()0, %\v\()1, %\v\()3
        RSTEP   12, %\v\()2, %\v\()3, %\v\()1
        RSTEP   8,  %\v\()0, %\v\()1, %\v\()3
        RSTEP   7,  %\v\()2, %\v\()3, %\v\()1
        .else
        RSTEP   16, %\v\()0, %\v\()1, %\v\()3, %\v\()4, %\v\()5, %\v\()7
        RSTEP   12, %\v\()2, %\v\()3, %\v\()1, %\v\()6, %\v\()7, %\v\()5
        RSTEP   8,  %\v\()0, %\v\()1, %\v\()3, %\v\()4, %\v\()5, %\v\()7
        RSTEP   7,  %\v\()2, %\v\()3, %\v\()1, %\v\()6, %\v\()7, %\v\()5
        .endif
.endm

/* RSHUF v, sets, ia, ic, id: vpshufd rows a, c, d of each set inside every 128-bit lane
 * (0x39: words 1 2 3 0, i.e. left by one; 0x4e: by two; 0x93: by three). */
.macro RSHUF v, sets, ia, ic, id
        vpshufd $\ia, %\v\()0, %\v\()0
        vpshufd $\ic, %\v\()2, %\v\()2
        vpshufd $\id, %\v\()3, %\v\()3
        .if \sets == 2
        vpshufd $\ia, %\v\()4, %\v\()4
        vpshufd $\ic, %\v\()6, %\v\()6
        vpshufd $\id, %\v\()7, %\v\()7
        .endif
.endm

/* ROUTZ a, b, c, d, drow, blk: add the input rows (zmm16-18, drow) to the zmm set (a, b, c,
 * d), whose 128-bit lane L holds block blk+L; the 4x4 transpose of 128-bit lanes (as in
 * ZQUAD) leaves blocks blk..blk+3 in a, b, c, d, each XORed into the data if below NBLK. */
.macro ROUTZ a, b, c, d, drow, blk
        vpaddd  %zmm16, \a, \a
        vpaddd  %zmm17, \b, \b
        vpaddd  %zmm18, \c, \c
        vpaddd  \drow, \d, \d
        vshufi32x4 $0x44, \b, \a, %zmm22     /* A0 A1 B0 B1 */
        vshufi32x4 $0xee, \b, \a, %zmm23     /* A2 A3 B2 B3 */
        vshufi32x4 $0x44, \d, \c, %zmm24     /* C0 C1 D0 D1 */
        vshufi32x4 $0xee, \d, \c, %zmm25     /* C2 C3 D2 D3 */
        vshufi32x4 $0x88, %zmm24, %zmm22, \a  /* A0 B0 C0 D0: block blk */
        vshufi32x4 $0xdd, %zmm24, %zmm22, \b  /* block blk+1 */
        vshufi32x4 $0x88, %zmm25, %zmm23, \c  /* block blk+2 */
        vshufi32x4 $0xdd, %zmm25, %zmm23, \d  /* block blk+3 */
        XOR64   \a, \blk, 1
        XOR64   \b, \blk+1, 1
        XOR64   \c, \blk+2, 1
        XOR64   \d, \blk+3, 1
.endm

/* ROUTY: the same for the ymm set (ymm0-3, blocks 0 and 1): the low lanes of a and b are
 * bytes 0-31 of block 0, of c and d bytes 32-63; the high lanes block 1. */
.macro ROUTY
        vpaddd  %ymm16, %ymm0, %ymm0
        vpaddd  %ymm17, %ymm1, %ymm1
        vpaddd  %ymm18, %ymm2, %ymm2
        vpaddd  %ymm19, %ymm3, %ymm3
        vshufi32x4 $0, %ymm1, %ymm0, %ymm22     /* rows a, b of the low lane: bytes 0-31 */
        vshufi32x4 $0, %ymm3, %ymm2, %ymm23     /* rows c, d: bytes 32-63 */
        XOR32x2 %ymm22, %ymm23, 0, 1
        vshufi32x4 $3, %ymm1, %ymm0, %ymm22     /* the high lane: block 1 */
        vshufi32x4 $3, %ymm3, %ymm2, %ymm23
        XOR32x2 %ymm22, %ymm23, 1, 1
.endm

/* ROWS v, sets: blocks 0 .. (4 or 2 per set) - 1 (only those below NBLK stored) in rows on v
 * registers: one set on ymm (2 blocks), or one or two sets on zmm (4 or 8 blocks). */
.macro ROWS v, sets
        .ifc \v, ymm
        .if \sets != 1
        .error "ROWS ymm: one set only"
        .endif
        .endif
        vbroadcasti32x4 (STATE), %\v\()16
        vbroadcasti32x4 16(STATE), %\v\()17
        vbroadcasti32x4 32(STATE), %\v\()18
        vbroadcasti32x4 48(STATE), %\v\()19
        movl    $0x1111, %ecx
        kmovw   %ecx, %k1
        vpbroadcastd CTR, %\v\()19{%k1}           /* word 12 of every lane := CTR */
        vpaddd  .Lr0123(%rip), %\v\()19, %\v\()19  /* lane L: CTR + L (32-bit add) */
        .if \sets == 2
        vpaddd  .Lr4(%rip), %zmm19, %zmm20         /* set 1: CTR + 4 + L */
        .endif
        vmovdqa64 %\v\()16, %\v\()0
        vmovdqa64 %\v\()17, %\v\()1
        vmovdqa64 %\v\()18, %\v\()2
        vmovdqa64 %\v\()19, %\v\()3
        .if \sets == 2
        vmovdqa64 %zmm16, %zmm4
        vmovdqa64 %zmm17, %zmm5
        vmovdqa64 %zmm18, %zmm6
        vmovdqa64 %zmm20, %zmm7
        .endif
        movl    $10, %ecx
.Lrround\@:
        RQR     \v, \sets
        RSHUF   \v, \sets, 0x93, 0x39, 0x4e    /* column j: a[j-1] b[j] c[j+1] d[j+2] */
        RQR     \v, \sets
        RSHUF   \v, \sets, 0x39, 0x93, 0x4e
        decl    %ecx
        jnz     .Lrround\@
        .ifc \v, ymm
        ROUTY
        .else
        ROUTZ   %zmm0, %zmm1, %zmm2, %zmm3, %zmm19, 0
        .if \sets == 2
        ROUTZ   %zmm4, %zmm5, %zmm6, %zmm7, %zmm20, 4
        .endif
        .endif
.endm

        .globl  simdcrypt_chacha20_avx512
        .hidden simdcrypt_chacha20_avx512
        .type   simdcrypt_chacha20_avx512, @function
        .p2align 5
simdcrypt_chacha20_avx512:
        ENDBR
        movl    48(STATE), CTR
        cmpq    $8, NBLK
        jbe     .Lshort
        PRECOMP
        vpbroadcastd CTR, %zmm16
        vpaddd  .Llanes(%rip), %zmm16, %zmm16
        COL0    %zmm16
        cmpq    $16, NBLK
        jb      .Ltail16
.Lloop16:
        VPASS
        ZSTORE  0
        addl    $16, CTR
        addq    $1024, DATA
        subq    $16, NBLK
        cmpq    $16, NBLK
        jae     .Lloop16
        cmpq    $8, NBLK
        ja      .Ltail16
        WIPEPRE
.Lshort:
        testq   NBLK, NBLK
        jz      .Ldone
        cmpq    $4, NBLK
        ja      .Lrows8
        cmpq    $2, NBLK
        ja      .Lrows4
        ROWS    ymm, 1
        jmp     .Ldone
.Lrows4:
        ROWS    zmm, 1
        jmp     .Ldone
.Lrows8:
        ROWS    zmm, 2
        jmp     .Ldone
.Ltail16:
        /* 9-15 blocks: one more vertical zmm pass. */
        VPASS
        ZSTORE  1
        WIPEPRE
.Ldone:
        CLEAR
        ret
        .size   simdcrypt_chacha20_avx512, . - simdcrypt_chacha20_avx512

#endif

#if defined(__ELF__)
        .section .note.GNU-stack, "", @progbits
#endif
