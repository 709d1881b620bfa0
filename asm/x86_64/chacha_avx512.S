/*
 * chacha_avx512.S (x86_64) -- ChaCha20 (RFC 8439 sec. 2.3) keystream XOR with AVX-512 on
 * zmm, ymm and xmm-row layouts. Safe wrapper: src/chacha20/x86_64_avx512.rs.
 *
 * Features: AVX512F and AVX512VL (EVEX `vprold`, `vpxord`, `vshufi32x4`, embedded broadcasts,
 * registers 16-31, on zmm and ymm), AVX2 and AVX (`vbroadcasti128`, `vpblendd`, `vpshufd`).
 * The Rust token Avx512 proves them. ABI: System V AMD64 psABI; the function is a leaf that
 * uses only caller-saved registers (rax, rcx, rdx, rsi, rdi, all vector registers), no stack,
 * and ends with `vzeroupper`. ELF only (the wrapper is compiled for Linux and the BSDs).
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
 *   9-15    one more zmm pass, storing only the blocks that exist.
 *   5-8     the vertical layout on ymm (8 blocks, lane j = block j), the same in-lane
 *           transposes, then `vshufi32x4` pairs the 128-bit lanes of words 0-7 and 8-15 into
 *           32-byte halves of a block; only the blocks that exist are stored.
 *   1-4     "horizontal" rows on ymm: ymm a, b, c, d hold rows 0-3 of the 4x4 state matrix
 *           (words 0-3, 4-7, 8-11, 12-15), the low 128-bit lane for block 2s and the high
 *           lane for block 2s+1 (counters in word 12 of each lane). A column round is one
 *           quarter-round on the four registers; `vpshufd` rotates rows a, c, d (in each lane)
 *           so that column j holds a[j-1], b[j], c[j+1], d[j+2] (indices mod 4), which are the
 *           diagonals (3,4,9,14) (0,5,10,15) (1,6,11,12) (2,7,8,13), and back. One set of rows for
 *           1-2 blocks, two interleaved sets for 3-4. No zmm register is touched on this path
 *           or the ymm one: short messages (the 16- and 64-byte AEAD cases) pay no zmm
 *           start-up cost.
 *
 * Registers:
 *   rdi  STATE   the 16 state words (read only)     rsi  DATA  current block
 *   rdx  NBLK    blocks left                         eax  CTR   counter of the next block
 *   ecx  round loop counter
 *   vertical: zmm0-15 / ymm0-15 the 16 words (X0..X15), zmm16 / ymm16 the counter lanes,
 *             zmm18-21 / ymm18-21 transpose temporaries
 *   horizontal: ymm0-3 set 0 rows a b c d, ymm4-7 set 1, ymm8-10 input rows a b c (shared),
 *             ymm11 / ymm12 input row d of set 0 / 1, ymm13 counter broadcast, ymm14-15 temps
 *
 * Secrets left behind: no stack is used. The vector registers hold keystream and state-derived
 * values on return (as after any compiled code); `vzeroupper` clears the upper halves of
 * ymm0-15 / zmm0-15.
 */

#if defined(__ELF__) && defined(__x86_64__)

#define STATE   %rdi
#define DATA    %rsi
#define NBLK    %rdx
#define CTR     %eax

        .section .rodata
        .p2align 6
/* Lane offsets 0..15: counters of the blocks of a vertical pass. */
.Llanes:
        .long   0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
/* Horizontal row d: counter offsets of the two 128-bit lanes of set 0 and of set 1. */
.Lh01:
        .long   0, 0, 0, 0, 1, 0, 0, 0
.Lh23:
        .long   2, 0, 0, 0, 3, 0, 0, 0

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

/* VDROUND v: one double round on v0..v15 (v = zmm or ymm): columns, then diagonals. */
.macro VDROUND v
        QR4     %\v\()0, %\v\()4, %\v\()8,  %\v\()12, %\v\()1, %\v\()5, %\v\()9,  %\v\()13, \
                %\v\()2, %\v\()6, %\v\()10, %\v\()14, %\v\()3, %\v\()7, %\v\()11, %\v\()15
        QR4     %\v\()0, %\v\()5, %\v\()10, %\v\()15, %\v\()1, %\v\()6, %\v\()11, %\v\()12, \
                %\v\()2, %\v\()7, %\v\()8,  %\v\()13, %\v\()3, %\v\()4, %\v\()9,  %\v\()14
.endm

/* VPASS v, bc: a vertical pass on v registers (bc = 1to16 or 1to8 lanes): load the words
 * (word 12: counters CTR + lane), 20 rounds, add the input, and the in-lane 4x4 transposes.
 * Leaves v(4g+k) with 128-bit lane L = bytes 16g..16g+15 of block 4L+k. Advances nothing. */
.macro VPASS v, bc
        vpbroadcastd CTR, %\v\()16
        vpaddd  .Llanes(%rip), %\v\()16, %\v\()16
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15
        vpbroadcastd 4*\i(STATE), %\v\i
        .endr
        vmovdqa64 %\v\()16, %\v\()12
        movl    $10, %ecx
.Lrounds\@:
        VDROUND \v
        decl    %ecx
        jnz     .Lrounds\@
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15
        vpaddd  4*\i(STATE){\bc}, %\v\i, %\v\i
        .endr
        vpaddd  %\v\()16, %\v\()12, %\v\()12
        TRANSPOSE4 %\v\()0, %\v\()1, %\v\()2, %\v\()3, %\v\()18, %\v\()19, %\v\()20, %\v\()21
        TRANSPOSE4 %\v\()4, %\v\()5, %\v\()6, %\v\()7, %\v\()18, %\v\()19, %\v\()20, %\v\()21
        TRANSPOSE4 %\v\()8, %\v\()9, %\v\()10, %\v\()11, %\v\()18, %\v\()19, %\v\()20, %\v\()21
        TRANSPOSE4 %\v\()12, %\v\()13, %\v\()14, %\v\()15, %\v\()18, %\v\()19, %\v\()20, %\v\()21
.endm

/* TRANSPOSE4 a, b, c, d, t0-t3: 4x4 transpose of 32-bit lanes inside every 128-bit lane.
 * In: a, b, c, d = words w..w+3 of the blocks of the lane; out: a, b, c, d = the four words
 * of the lane's first, second, third, fourth block. */
.macro TRANSPOSE4 a, b, c, d, t0, t1, t2, t3
        vpunpckldq  \b, \a, \t0         /* a0 b0 a1 b1 */
        vpunpckhdq  \b, \a, \t1         /* a2 b2 a3 b3 */
        vpunpckldq  \d, \c, \t2         /* c0 d0 c1 d1 */
        vpunpckhdq  \d, \c, \t3         /* c2 d2 c3 d3 */
        vpunpcklqdq \t2, \t0, \a        /* a0 b0 c0 d0 */
        vpunpckhqdq \t2, \t0, \b        /* a1 b1 c1 d1 */
        vpunpcklqdq \t3, \t1, \c        /* a2 b2 c2 d2 */
        vpunpckhqdq \t3, \t1, \d        /* a3 b3 c3 d3 */
.endm

/* XOR64 reg, blk, partial: data[64 blk ..] ^= reg (one zmm = one block); when `partial`,
 * only if blk < NBLK. */
.macro XOR64 reg, blk, partial
        .if \partial
        cmpq    $(\blk), NBLK
        jbe     1f
        .endif
        vpxord  64*(\blk)(DATA), \reg, \reg
        vmovdqu64 \reg, 64*(\blk)(DATA)
1:
.endm

/* XOR32x2 lo, hi, blk, partial: the two 32-byte halves of block blk (ymm). */
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

/* ZQUAD p, q, r, s, k, partial: the 4x4 transpose of 128-bit lanes across zmm p, q, r, s
 * (= zmm k, 4+k, 8+k, 12+k after VPASS: lane L of each is 16 bytes of block 4L+k), leaving
 * blocks k, 4+k, 8+k, 12+k in p, q, r, s, and their XOR into the data. */
.macro ZQUAD p, q, r, s, k, partial
        vshufi32x4 $0x44, \q, \p, %zmm18     /* P0 P1 Q0 Q1 */
        vshufi32x4 $0xee, \q, \p, %zmm19     /* P2 P3 Q2 Q3 */
        vshufi32x4 $0x44, \s, \r, %zmm20     /* R0 R1 S0 S1 */
        vshufi32x4 $0xee, \s, \r, %zmm21     /* R2 R3 S2 S3 */
        vshufi32x4 $0x88, %zmm20, %zmm18, \p  /* P0 Q0 R0 S0: block k */
        vshufi32x4 $0xdd, %zmm20, %zmm18, \q  /* P1 Q1 R1 S1: block 4+k */
        vshufi32x4 $0x88, %zmm21, %zmm19, \r  /* block 8+k */
        vshufi32x4 $0xdd, %zmm21, %zmm19, \s  /* block 12+k */
        XOR64   \p, \k, \partial
        XOR64   \q, 4+\k, \partial
        XOR64   \r, 8+\k, \partial
        XOR64   \s, 12+\k, \partial
.endm

/* ZSTORE partial: after VPASS zmm, the XOR of the 16 blocks (or the first NBLK of them). */
.macro ZSTORE partial
        ZQUAD   %zmm0, %zmm4, %zmm8, %zmm12, 0, \partial
        ZQUAD   %zmm1, %zmm5, %zmm9, %zmm13, 1, \partial
        ZQUAD   %zmm2, %zmm6, %zmm10, %zmm14, 2, \partial
        ZQUAD   %zmm3, %zmm7, %zmm11, %zmm15, 3, \partial
.endm

/* YQUAD p, q, r, s, k: after VPASS ymm (ymm k, 4+k, 8+k, 12+k: lane 0 = 16 bytes of block
 * k, lane 1 of block 4+k), the 32-byte halves of blocks k and 4+k, XORed into the data if
 * they are below NBLK. */
.macro YQUAD p, q, r, s, k
        vshufi32x4 $0, \q, \p, %ymm18        /* block k, bytes 0-31 */
        vshufi32x4 $0, \s, \r, %ymm19        /* block k, bytes 32-63 */
        vshufi32x4 $3, \q, \p, %ymm20        /* block 4+k */
        vshufi32x4 $3, \s, \r, %ymm21
        XOR32x2 %ymm18, %ymm19, \k, 1
        XOR32x2 %ymm20, %ymm21, 4+\k, 1
.endm

/* HSTEP r, sets..: x += y; z ^= x; z <<<= r on each (x, y, z) triple of the sets. */
.macro HSTEP1 r, x0, y0, z0
        vpaddd  \y0, \x0, \x0
        vpxord  \x0, \z0, \z0
        vprold  $\r, \z0, \z0
.endm
.macro HSTEP2 r, x0, y0, z0, x1, y1, z1
        vpaddd  \y0, \x0, \x0
        vpaddd  \y1, \x1, \x1
        vpxord  \x0, \z0, \z0
        vpxord  \x1, \z1, \z1
        vprold  $\r, \z0, \z0
        vprold  $\r, \z1, \z1
.endm

/* HQR sets: the quarter-round on the rows (a b c d = ymm0-3, and ymm4-7 when sets = 2). */
.macro HQR sets
        .if \sets == 1
        HSTEP1  16, %ymm0, %ymm1, %ymm3
        HSTEP1  12, %ymm2, %ymm3, %ymm1
        HSTEP1  8,  %ymm0, %ymm1, %ymm3
        HSTEP1  7,  %ymm2, %ymm3, %ymm1
        .else
        HSTEP2  16, %ymm0, %ymm1, %ymm3, %ymm4, %ymm5, %ymm7
        HSTEP2  12, %ymm2, %ymm3, %ymm1, %ymm6, %ymm7, %ymm5
        HSTEP2  8,  %ymm0, %ymm1, %ymm3, %ymm4, %ymm5, %ymm7
        HSTEP2  7,  %ymm2, %ymm3, %ymm1, %ymm6, %ymm7, %ymm5
        .endif
.endm

/* HSHUF sets, ia, ic, id: vpshufd rows a, c, d of each set (0x39: words 1 2 3 0, i.e. left by
 * one; 0x4e: by two; 0x93: by three). Row b, the last one the quarter-round writes, stays
 * put, so no shuffle sits on the dependency chain between rounds. */
.macro HSHUF sets, ia, ic, id
        vpshufd $\ia, %ymm0, %ymm0
        vpshufd $\ic, %ymm2, %ymm2
        vpshufd $\id, %ymm3, %ymm3
        .if \sets == 2
        vpshufd $\ia, %ymm4, %ymm4
        vpshufd $\ic, %ymm6, %ymm6
        vpshufd $\id, %ymm7, %ymm7
        .endif
.endm

/* HOUT a, b, c, d, drow, blk: add the input rows to set (a, b, c, d) and XOR blocks blk (low
 * lanes) and blk+1 (high lanes), each only if it is below NBLK. */
.macro HOUT a, b, c, d, drow, blk
        vpaddd  %ymm8, \a, \a
        vpaddd  %ymm9, \b, \b
        vpaddd  %ymm10, \c, \c
        vpaddd  \drow, \d, \d
        vshufi32x4 $0, \b, \a, %ymm14       /* rows a, b of the low lane: bytes 0-31 */
        vshufi32x4 $0, \d, \c, %ymm15       /* rows c, d: bytes 32-63 */
        XOR32x2 %ymm14, %ymm15, \blk, 1
        vshufi32x4 $3, \b, \a, %ymm14       /* the high lane: block blk+1 */
        vshufi32x4 $3, \d, \c, %ymm15
        XOR32x2 %ymm14, %ymm15, \blk+1, 1
.endm

/* HBLOCKS sets: 2 * sets blocks (NBLK <= 2 * sets of them stored) in the horizontal layout. */
.macro HBLOCKS sets
        vbroadcasti128 (STATE), %ymm8
        vbroadcasti128 16(STATE), %ymm9
        vbroadcasti128 32(STATE), %ymm10
        vbroadcasti128 48(STATE), %ymm11
        vpbroadcastd CTR, %ymm13
        vpblendd $0x11, %ymm13, %ymm11, %ymm11  /* word 12 of both lanes := CTR */
        vpaddd  .Lh23(%rip), %ymm11, %ymm12     /* set 1: CTR + 2, CTR + 3 */
        vpaddd  .Lh01(%rip), %ymm11, %ymm11     /* set 0: CTR, CTR + 1 */
        vmovdqa %ymm8, %ymm0
        vmovdqa %ymm9, %ymm1
        vmovdqa %ymm10, %ymm2
        vmovdqa %ymm11, %ymm3
        .if \sets == 2
        vmovdqa %ymm8, %ymm4
        vmovdqa %ymm9, %ymm5
        vmovdqa %ymm10, %ymm6
        vmovdqa %ymm12, %ymm7
        .endif
        movl    $10, %ecx
.Lhround\@:
        HQR     \sets
        HSHUF   \sets, 0x93, 0x39, 0x4e    /* column j: a[j-1] b[j] c[j+1] d[j+2] */
        HQR     \sets
        HSHUF   \sets, 0x39, 0x93, 0x4e
        decl    %ecx
        jnz     .Lhround\@
        HOUT    %ymm0, %ymm1, %ymm2, %ymm3, %ymm11, 0
        .if \sets == 2
        HOUT    %ymm4, %ymm5, %ymm6, %ymm7, %ymm12, 2
        .endif
.endm

        .globl  simdcrypt_chacha20_avx512
        .hidden simdcrypt_chacha20_avx512
        .type   simdcrypt_chacha20_avx512, @function
        .p2align 5
simdcrypt_chacha20_avx512:
        movl    48(STATE), CTR
        cmpq    $16, NBLK
        jb      .Lshort
.Lloop16:
        VPASS   zmm, 1to16
        ZSTORE  0
        addl    $16, CTR
        addq    $1024, DATA
        subq    $16, NBLK
        cmpq    $16, NBLK
        jae     .Lloop16
.Lshort:
        testq   NBLK, NBLK
        jz      .Ldone
        cmpq    $8, NBLK
        ja      .Ltail16
        cmpq    $4, NBLK
        ja      .Ltail8
        cmpq    $2, NBLK
        ja      .Ltail4
        HBLOCKS 1
        jmp     .Ldone
.Ltail4:
        HBLOCKS 2
        jmp     .Ldone
.Ltail8:
        /* 5-8 blocks: a vertical ymm pass. */
        VPASS   ymm, 1to8
        YQUAD   %ymm0, %ymm4, %ymm8, %ymm12, 0
        YQUAD   %ymm1, %ymm5, %ymm9, %ymm13, 1
        YQUAD   %ymm2, %ymm6, %ymm10, %ymm14, 2
        YQUAD   %ymm3, %ymm7, %ymm11, %ymm15, 3
        jmp     .Ldone
.Ltail16:
        /* 9-15 blocks: one more zmm pass. */
        VPASS   zmm, 1to16
        ZSTORE  1
.Ldone:
        vzeroupper
        ret
        .size   simdcrypt_chacha20_avx512, . - simdcrypt_chacha20_avx512

#endif

#if defined(__ELF__)
        .section .note.GNU-stack, "", @progbits
#endif
