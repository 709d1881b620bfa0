/*
 * vec_clear.h (32-bit ARM) -- the register-scrubbing policy of every armv7 kernel, and the
 * macros that implement it (DESIGN.md rule 10; the same policy as asm/x86_64/vec_clear.h,
 * and the same text is in src/abi_test.rs).
 *
 * Policy. Before it returns, every assembly kernel in asm/arm/ that touches key material,
 * round keys, powers of H or r, keystream, hash or MAC state (a hash state is secret when it
 * is an HMAC key's), or message data leaves
 *   1. every caller-saved NEON/VFP register it may have written zero: q0-q3 (d0-d7) and
 *      q8-q15 (d16-d31). d8-d15 (q4-q7) are callee-saved: a kernel that uses them pushes
 *      them on entry and pops them before returning, so they then hold the caller's values.
 *      A kernel that writes only some registers may clear just those (CLEAR_Q); the ABI
 *      harness checks each D register comes back zero or untouched;
 *   2. every caller-saved core register (r0-r3, r12) that held a secret-derived value zero.
 *      Pointers, lengths, block counts, loop counters and public counter words stay. lr
 *      holds the return address; r4-r11 are restored from the stack as the ABI requires.
 *      sha1_neon.S and sha256_neon.S (integer rounds) zero r0, r2, r3 and r12; the other
 *      kernels keep no secret in a core register (the scalar work is address and counter
 *      arithmetic only); aes_armv8.S's subword helper returns S(w) in r0 by contract, which
 *      is its result and the wrapper's to wipe;
 *   3. no secret in memory below the final stack pointer: a kernel that spills key-derived
 *      words to its frame zeroes the frame before it pops it (chacha_neon.S's spill slot,
 *      aes_bs_neon.S's spill slots, counter blocks and chaining values, the W+K rings of
 *      sha1_neon.S and sha256_neon.S). Pushed registers (r4-r11, lr, d8-d15) hold the
 *      caller's values, not ours.
 *
 * The kernels that use these are NEON kernels (their tokens require NEON, which implies 32 D
 * registers), so clearing with NEON instructions is always valid where they run; cores
 * without NEON (VFPv3-D16) never call them.
 *
 * CLEAR_NEON      zeroes q0-q3 and q8-q15 (12 VMOV.I8 immediates, one per q register).
 * CLEAR_Q q, ...  zeroes the listed q registers only (for kernels that touch a few).
 */
.macro CLEAR_Q regs:vararg
        .irp    r, \regs
        vmov.i8 \r, #0
        .endr
.endm

.macro CLEAR_NEON
        CLEAR_Q q0, q1, q2, q3, q8, q9, q10, q11, q12, q13, q14, q15
.endm
