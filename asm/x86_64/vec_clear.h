/*
 * vec_clear.h (x86_64) -- the register-scrubbing policy of every x86_64 kernel, and the
 * macros that implement it (DESIGN.md rule 10; the same text is in src/abi_test.rs).
 *
 * Policy. Before it returns, every assembly kernel that touches key material, round keys,
 * powers of H or r, keystream, hash or MAC state, or message data leaves
 *   1. every vector register it may have written zero: xmm/ymm/zmm0-15 by `vzeroall`, and,
 *      for kernels that use EVEX encodings, zmm16-31 by CLEAR's EVEX zeroing (an EVEX write
 *      zeroes the whole 512-bit register); registers a kernel never writes keep the caller's
 *      values (the ABI harness checks each register is zero or untouched);
 *   2. every caller-saved general-purpose register (rax, rcx, rdx, rsi, rdi, r8-r11) that held
 *      a secret-derived value zero, with `xor` (which also leaves RFLAGS a function of public
 *      values). Pointers, lengths, block counts, loop counters and the public counter words of
 *      CTR/ChaCha20 are not secret and stay. Callee-saved registers are restored from the
 *      stack as the ABI requires (they then hold the caller's values);
 *   3. no secret in memory below the stack pointer: a kernel that keeps key-derived words on
 *      the stack or in the red zone zeroes them before returning (chacha_zmm.h WIPEPRE);
 *      pushed callee-saved registers hold the caller's values, not ours.
 * Opmask registers k1-k7 hold only length-derived byte masks in our kernels (tail masks) and
 * are left as they are; a kernel that ever puts a secret-derived mask there must clear it.
 *
 * Why `vzeroall` and not `vzeroupper`: both return the AVX upper state to clean (no SSE/AVX
 * transition penalty in the caller), but `vzeroupper` leaves bits 127:0 of xmm0-15 (round
 * keys, H powers, keystream) in place. Neither touches zmm16-31. The cost, measured in
 * src/abi_test.rs's module doc, is a few cycles per call.
 *
 * CLEAR      (AVX512F + AVX) zmm16-31 then `vzeroall`: for kernels with EVEX encodings.
 *            The 512-bit form keeps it within AVX512F (the 128-bit EVEX form needs AVX512VL,
 *            which not every AVX-512 kernel's token proves); it is a zeroing idiom either way.
 * CLEAR_AVX  (AVX) `vzeroall` only: for kernels that use VEX encodings only (registers 0-15).
 */
.macro CLEAR
        vpxord  %zmm16, %zmm16, %zmm16
        vpxord  %zmm17, %zmm17, %zmm17
        vpxord  %zmm18, %zmm18, %zmm18
        vpxord  %zmm19, %zmm19, %zmm19
        vpxord  %zmm20, %zmm20, %zmm20
        vpxord  %zmm21, %zmm21, %zmm21
        vpxord  %zmm22, %zmm22, %zmm22
        vpxord  %zmm23, %zmm23, %zmm23
        vpxord  %zmm24, %zmm24, %zmm24
        vpxord  %zmm25, %zmm25, %zmm25
        vpxord  %zmm26, %zmm26, %zmm26
        vpxord  %zmm27, %zmm27, %zmm27
        vpxord  %zmm28, %zmm28, %zmm28
        vpxord  %zmm29, %zmm29, %zmm29
        vpxord  %zmm30, %zmm30, %zmm30
        vpxord  %zmm31, %zmm31, %zmm31
        vzeroall
.endm

.macro CLEAR_AVX
        vzeroall
.endm
