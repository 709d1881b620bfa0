//! The padded last block(s) of a message built in SSE registers, 16 bytes at a time, for the
//! x86_64 kernels that pad themselves (SHA-NI, AVX2).
//!
//! FIPS 180-4 §5.1.1/§5.1.2 pad the last `r < BL` bytes of a message (the *tail*) with 0x80,
//! zeros and the message length. Written to a buffer first, the padded block is read back
//! with 16-byte loads that overlap several narrower stores, which the CPU cannot forward: each
//! waits for the stores to reach the cache. Here each 16-byte chunk `c` of the padded tail
//! (bytes `16c..16c + 16`) is made in a register instead:
//!
//! - `16c + 16 <= r`: a load of the tail's bytes;
//! - `16c <= r < 16c + 16` (`k = r - 16c` bytes left): when the tail has at least 16 bytes,
//!   the 16 bytes ending at its end, moved down by `16 - k` with `pshufb` (control bytes from
//!   [`PAD_SHIFT`]); when it is shorter, a few overlapping scalar loads ([`le_partial`]).
//!   Then 0x80 at byte `k` ([`PAD_MARK`]);
//! - beyond: zeros.
//!
//! The caller ors the length into the last chunk. Nothing is read outside the tail; the table
//! offsets and branches depend only on the length, which is public.
#![forbid(unsafe_code)]

/// `PAD_SHIFT[16 - k..32 - k]` is the `pshufb` control that moves bytes `16 - k..16` of a
/// register to `0..k` and zeroes bytes `k..16` (a control byte with its top bit set gives 0).
pub(super) static PAD_SHIFT: [u8; 32] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, //
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
];

/// `PAD_MARK[16 - k..32 - k]` is 0x80 in byte `k` and zero elsewhere: the first padding byte.
pub(super) static PAD_MARK: [u8; 32] = [
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];

/// The bytes of `s` (fewer than 16) as a little-endian 128-bit value `(low, high)` with zeros
/// above them, read without touching memory past `s`: at most four overlapping loads, chosen by
/// the length.
#[inline(always)]
pub(super) fn le_partial(s: &[u8]) -> (u64, u64) {
    /// At most 8 bytes.
    #[inline(always)]
    fn le_u64(s: &[u8]) -> u64 {
        let n = s.len();
        if n >= 8 {
            u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]])
        } else if n >= 4 {
            // Bytes 0..4 and n-4..n; where they overlap both hold the same bytes.
            let lo = u32::from_le_bytes([s[0], s[1], s[2], s[3]]) as u64;
            let hi = u32::from_le_bytes([s[n - 4], s[n - 3], s[n - 2], s[n - 1]]) as u64;
            lo | hi << (8 * (n - 4))
        } else if n >= 2 {
            let lo = u16::from_le_bytes([s[0], s[1]]) as u64;
            let hi = u16::from_le_bytes([s[n - 2], s[n - 1]]) as u64;
            lo | hi << (8 * (n - 2))
        } else if n == 1 {
            s[0] as u64
        } else {
            0
        }
    }
    if s.len() > 8 {
        (le_u64(&s[..8]), le_u64(&s[8..]))
    } else {
        (le_u64(s), 0)
    }
}

/// Chunk `$c` (bytes `16c..16c + 16`) of the padded tail `$tail` (a `&[u8]` shorter than a
/// block), as it lies in memory, without the length; see the module docs. Expands to SSE2 and
/// SSSE3 intrinsics: use it inside an `unsafe` block of a function that enables both.
macro_rules! tail_chunk {
    ($tail:expr, $c:expr) => {{
        use core::arch::x86_64::{
            _mm_loadu_si128, _mm_or_si128, _mm_set_epi64x, _mm_setzero_si128, _mm_shuffle_epi8,
        };
        let tail: &[u8] = $tail;
        let r = tail.len();
        let start = 16 * $c;
        if start + 16 <= r {
            // Inside the tail.
            _mm_loadu_si128(tail.as_ptr().add(start).cast())
        } else if start <= r {
            let k = r - start;
            let data = if r >= 16 {
                // Tail bytes `r - 16..r` (inside it), moved down by `16 - k`.
                let v = _mm_loadu_si128(tail.as_ptr().add(r - 16).cast());
                let ctrl = $crate::sha::x86_64_pad::PAD_SHIFT.as_ptr().add(16 - k);
                _mm_shuffle_epi8(v, _mm_loadu_si128(ctrl.cast()))
            } else {
                let (lo, hi) = $crate::sha::x86_64_pad::le_partial(tail);
                _mm_set_epi64x(hi as i64, lo as i64)
            };
            let mark = $crate::sha::x86_64_pad::PAD_MARK.as_ptr().add(16 - k);
            _mm_or_si128(data, _mm_loadu_si128(mark.cast()))
        } else {
            _mm_setzero_si128()
        }
    }};
}
pub(super) use tail_chunk;

/// Block `$i` of `$n` of a 64-byte-block message (SHA-1, SHA-256) as four 16-byte chunks, as
/// it lies in memory: block `$i` of `$data` while `$i < $whole`, then the padded tail blocks
/// built by [`tail_chunk!`], the last with the message length `$bits` big-endian in its last 8
/// bytes. Same contract as [`tail_chunk!`]; `$data` holds at least `$whole` blocks.
macro_rules! block64_chunks {
    ($data:expr, $whole:expr, $tail:expr, $i:expr, $n:expr, $bits:expr) => {{
        use core::arch::x86_64::{_mm_loadu_si128, _mm_or_si128, _mm_set_epi64x};
        let i: usize = $i;
        if i < $whole {
            let p = $data.as_ptr().add(64 * i);
            (
                _mm_loadu_si128(p.cast()),
                _mm_loadu_si128(p.add(16).cast()),
                _mm_loadu_si128(p.add(32).cast()),
                _mm_loadu_si128(p.add(48).cast()),
            )
        } else {
            let c = 4 * (i - $whole);
            let mut r3 = $crate::sha::x86_64_pad::tail_chunk!($tail, c + 3);
            if i + 1 == $n {
                // The length, big-endian, in the block's last 8 bytes.
                r3 = _mm_or_si128(r3, _mm_set_epi64x($bits.swap_bytes() as i64, 0));
            }
            (
                $crate::sha::x86_64_pad::tail_chunk!($tail, c),
                $crate::sha::x86_64_pad::tail_chunk!($tail, c + 1),
                $crate::sha::x86_64_pad::tail_chunk!($tail, c + 2),
                r3,
            )
        }
    }};
}
pub(super) use block64_chunks;
