//! ChaCha20 on zmm stitched with a scalar Poly1305: the safe wrapper of
//! `asm/x86_64/chacha_poly_avx512.S`.
//!
//! One kernel iteration encrypts 1 KiB (16 ChaCha20 blocks, the vertical zmm pass of
//! `chacha_avx512.S`) and, interleaved with its vector instructions, absorbs 512 bytes (32
//! blocks) into a base-2^64 Poly1305 accumulator with `mulx` (the arithmetic of
//! `poly1305::soft64`). The vector pass keeps ports 0 and 5 busy while the scalar chain is
//! limited by its latency, so each runs mostly in the other's shadow: measured here, 16
//! ChaCha20 blocks take 151 ns alone and 175 ns with the 32 Poly1305 blocks (which alone take
//! 128 ns); 64 Poly1305 blocks per iteration would make the scalar chain the bound (251 ns).
//! So the AEAD ([`super::seal`], [`super::open`]) gives this kernel half of the MAC input and
//! the vector Poly1305 kernel the other half.
//!
//! The token [`Avx512Bmi2`] proves the instructions (AVX512F, AVX512VL, AVX2, AVX; BMI2 for
//! `mulx`). The kernel's stack use is saving the callee-saved registers it uses and 64 bytes
//! of words derived from the key and nonce in the red zone, zeroed before it returns.

use crate::chacha20::Core;
use crate::cpu::arch::Avx512Bmi2;
use crate::poly1305::Mac;
use crate::wipe::wipe;

/// Bytes of text one kernel iteration encrypts or decrypts.
pub(super) const DATA_STRIDE: usize = 1024;
/// Bytes of MAC input one kernel iteration absorbs.
pub(super) const POLY_STRIDE: usize = 512;

/// The kernel's argument block (layout fixed by the assembly: state at 0, `r0 r1 s1` at 64,
/// `h` at 88).
#[repr(C)]
struct Ctx {
    state: [u32; 16],
    /// `r[0]`, `r[1]` (clamped) and `s1 = r[1] + r[1]/4`.
    r: [u64; 3],
    h: [u64; 3],
}

unsafe extern "sysv64" {
    /// For `j` in `0..n`: absorbs the 32 Poly1305 blocks at `poly + 512 j` into `ctx.h` (each
    /// with the 2^128 bit), then XORs the keystream of blocks `state[12] + 16 j ..` (mod 2^32)
    /// into the 1024 bytes at `data + 1024 j`. The loads of an iteration's Poly1305 blocks come
    /// before its stores and after the previous iteration's, so the regions may overlap.
    /// Reads `ctx.state` and `ctx.r`, reads and writes `ctx.h` (`h[2] ≤ 7` on entry, `≤ 4` on
    /// return). Needs AVX512F, AVX512VL, AVX2, AVX, BMI2.
    fn simdcrypt_chacha20_poly1305_avx512(ctx: *mut Ctx, data: *mut u8, poly: *const u8, n: usize);
}

/// For `j` in `0..n`, in order: `mac` absorbs `buf[poly + 512 j ..][..512]` (as
/// [`Mac::blocks`]), then `core` XORs its keystream into `buf[data + 1024 j ..][..1024]` (as
/// [`Core::xor_blocks`]). The ranges may overlap; each step sees the bytes the earlier steps
/// left. Panics if a range leaves `buf` (callers pass ranges inside it).
pub(super) fn xor_and_mac(
    _t: Avx512Bmi2,
    core: &mut Core,
    mac: &mut Mac,
    buf: &mut [u8],
    data: usize,
    poly: usize,
    n: usize,
) {
    let fits = |at: usize, stride: usize| {
        n.checked_mul(stride)
            .and_then(|len| at.checked_add(len))
            .is_some_and(|end| end <= buf.len())
    };
    assert!(fits(data, DATA_STRIDE) && fits(poly, POLY_STRIDE));
    if n == 0 {
        return;
    }
    let state = core.state_mut();
    let (st, r) = mac.state_and_r();
    let mut ctx = Ctx {
        state: *state,
        r: [r[0], r[1], r[1] + (r[1] >> 2)],
        h: st.h,
    };
    let base = buf.as_mut_ptr();
    // SAFETY: the token proves the features. `data + 1024 n` and `poly + 512 n` are within
    // `buf` (checked above), which is exclusively borrowed; the kernel reads and writes only
    // those ranges and `ctx` (a local), and saves and restores the callee-saved registers it
    // uses (checked by the ABI test below). Overlap of the two ranges is allowed (see the
    // declaration).
    unsafe {
        simdcrypt_chacha20_poly1305_avx512(&mut ctx, base.add(data), base.add(poly), n);
    }
    st.h = ctx.h;
    // The counter wraps at 2^32 as `Core::xor_blocks`'s does (RFC 8439 §2.8 callers never
    // reach the wrap: they are limited to 2^32 − 1 blocks).
    state[12] = state[12].wrapping_add((16 * n) as u32);
    wipe(&mut ctx.state);
    wipe(&mut ctx.r);
    wipe(&mut ctx.h);
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::cpu::Features;
    use std::vec::Vec;

    fn token() -> Option<Avx512Bmi2> {
        let t = Features::hardware().get::<Avx512Bmi2>();
        if t.is_none() {
            std::eprintln!("stitched avx512: CPU lacks AVX512F/VL or BMI2; kernel not tested");
        }
        t
    }

    fn bytes(seed: u64, n: usize) -> Vec<u8> {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect()
    }

    /// The keys: random ones and the extremes (every clamped bit of `r` set, `s` all ones).
    fn keys() -> Vec<[u8; 32]> {
        let mut k: Vec<[u8; 32]> = (0..3)
            .map(|i| bytes(100 + i, 32).try_into().unwrap())
            .collect();
        k.push([0xff; 32]);
        k
    }

    /// The kernel against the portable ChaCha20 and Poly1305 run in the documented order, for
    /// the layouts the AEAD uses (MAC range behind, ahead of, and inside the data range) and
    /// disjoint ones, at unaligned offsets, with counters crossing 2^32 and accumulators
    /// entering with all-ones limbs.
    #[test]
    fn matches_portable_kernels() {
        let Some(t) = token() else { return };
        for (ki, key) in keys().iter().enumerate() {
            for n in 0..=4usize {
                // (data offset, poly offset) within a buffer of 1024 n + 512 n + 1600 bytes.
                let layouts = [
                    (1472 + 3, 3),                // seal: behind
                    (448 + 1, 448 + 1 + 512 * n), // open: ahead, up to the data's end
                    (5, 5),                       // same start
                    (0, 1024 * n + 7),            // disjoint
                ];
                for (li, &(d, p)) in layouts.iter().enumerate() {
                    let len = 1024 * n + 512 * n + 1600;
                    let text = bytes((ki * 100 + n * 10 + li) as u64, len);
                    let tail = [u32::MAX - 17 + ki as u32, 1, 2, 3];
                    let f = Features::hardware();
                    let (mut c1, mut c2) = (
                        Core::new(Features::none(), key, tail),
                        Core::new(f, key, tail),
                    );
                    let (mut m1, mut m2) = (
                        Mac::new(Features::none(), key),
                        Mac::new(Features::none(), key),
                    );
                    // Enter with a large accumulator (h[2] = 7, the canonical maximum).
                    m1.state_and_r().0.h = [u64::MAX, u64::MAX, 7];
                    m2.state_and_r().0.h = [u64::MAX, u64::MAX, 7];
                    let mut want = text.clone();
                    for j in 0..n {
                        m1.blocks(&want[p + 512 * j..][..512]);
                        c1.xor_blocks(&mut want[d + 1024 * j..][..1024]);
                    }
                    let mut got = text.clone();
                    xor_and_mac(t, &mut c2, &mut m2, &mut got, d, p, n);
                    assert!(got == want, "key {ki} n {n} layout {li}: text");
                    assert_eq!(m1.finish(), m2.finish(), "key {ki} n {n} layout {li}: tag");
                    assert_eq!(c1.counter(), c2.counter());
                    // The state continues identically.
                    let (mut a, mut b) = ([0u8; 64], [0u8; 64]);
                    c1.xor_blocks(&mut a);
                    c2.xor_blocks(&mut b);
                    assert_eq!(a, b);
                }
            }
        }
    }

    /// A range past the buffer's end is refused before the kernel runs.
    #[test]
    #[should_panic]
    fn refuses_ranges_outside_the_buffer() {
        let Some(t) = token() else {
            panic!("no token: nothing to test");
        };
        let key = [7u8; 32];
        let mut c = Core::new(Features::none(), &key, [0; 4]);
        let mut m = Mac::new(Features::none(), &key);
        let mut buf = [0u8; 2047];
        xor_and_mac(t, &mut c, &mut m, &mut buf, 1024, 0, 1);
        xor_and_mac(t, &mut c, &mut m, &mut buf, 0, 0, 2);
    }

    /// The entry point through the ABI harness: callee-saved registers, stack pointer and
    /// direction flag survive; the result matches the wrapper's.
    #[cfg(target_os = "linux")]
    #[test]
    fn abi() {
        use crate::abi_test::abi_call;
        let Some(t) = token() else { return };
        let key = [0x5au8; 32];
        for n in [0usize, 1, 3] {
            let text = bytes(n as u64, 1024 * n + 512 * n + 1);
            let mut c = Core::new(Features::none(), &key, [9, 8, 7, 6]);
            let mut m = Mac::new(Features::none(), &key);
            let mut want = text.clone();
            xor_and_mac(t, &mut c, &mut m, &mut want, 1, 1 + 1024 * n, n);
            let mut m0 = Mac::new(Features::none(), &key);
            let mut c0 = Core::new(Features::none(), &key, [9, 8, 7, 6]);
            let (st, r) = m0.state_and_r();
            let mut ctx = Ctx {
                state: *c0.state_mut(),
                r: [r[0], r[1], r[1] + (r[1] >> 2)],
                h: st.h,
            };
            let mut got = text.clone();
            let base = got.as_mut_ptr();
            let args = [
                core::ptr::from_mut(&mut ctx) as usize,
                base.wrapping_add(1) as usize,
                base.wrapping_add(1 + 1024 * n) as usize,
                n,
            ];
            // SAFETY: the token proves the features; the arguments are what `xor_and_mac`
            // passes: the context, `n` KiB of data and `n` 512-byte MAC blocks inside `got`.
            let (_, rep) =
                unsafe { abi_call(simdcrypt_chacha20_poly1305_avx512 as *const (), &args) };
            rep.assert_clean();
            assert!(got == want, "{n} iterations: text");
            m0.state_and_r().0.h = ctx.h;
            assert_eq!(m0.finish(), m.finish(), "{n} iterations: tag");
        }
    }
}
