//! Differential fuzz targets for simdcrypt: each module's `run` takes the raw fuzzer input,
//! reads a structured case from it ([`Input`]), runs it on one kernel of this CPU
//! ([`Kernels`]) and checks the result against RustCrypto and ring, plus round trips and the
//! "a failed open leaves the buffer zeroed" rule. Any mismatch panics, which libFuzzer reports
//! as a crash with the input that caused it.
//!
//! The `fuzz_targets/*.rs` files are one-line libFuzzer entry points; the logic lives here so
//! that `cargo test` in this directory can replay the committed corpus without libFuzzer.

pub mod aes;
pub mod aes_gcm;
pub mod chacha20;
pub mod chacha20poly1305;
pub mod hmac_hkdf;
pub mod sha;

use simdcrypt::cpu::Features;

/// A reader of structured input from fuzzer bytes. Every read succeeds: past the end it
/// yields zeros and empty slices, so every byte string is a valid case and libFuzzer's
/// mutations of any field keep the others in place.
pub struct Input<'a> {
    data: &'a [u8],
}

impl<'a> Input<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Input { data }
    }

    /// One byte (0 past the end).
    pub fn u8(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// A little-endian u16.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    /// A little-endian u32.
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.array())
    }

    /// A little-endian u64.
    pub fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.array())
    }

    /// `N` bytes, zero-padded past the end.
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        let n = N.min(self.data.len());
        a[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        a
    }

    /// A slice whose length is a u16 read first, reduced modulo `max + 1` and cut to what is
    /// left of the input.
    pub fn bytes(&mut self, max: usize) -> &'a [u8] {
        let want = usize::from(self.u16()) % (max + 1);
        let n = want.min(self.data.len());
        let (head, rest) = self.data.split_at(n);
        self.data = rest;
        head
    }

    /// Everything not read yet.
    pub fn rest(&mut self) -> &'a [u8] {
        core::mem::take(&mut self.data)
    }

    /// Up to `max` raw cut points (a count, then u16 values); [`cuts`] fits them to a length
    /// once the text is known.
    pub fn split_seeds(&mut self, max: usize) -> Vec<u16> {
        let n = usize::from(self.u8()) % (max + 1);
        (0..n).map(|_| self.u16()).collect()
    }
}

/// Cut points in `0..=len`, ascending, from [`Input::split_seeds`] (each modulo `len + 1`).
pub fn cuts(seeds: &[u16], len: usize) -> Vec<usize> {
    let mut v: Vec<usize> = seeds.iter().map(|&s| usize::from(s) % (len + 1)).collect();
    v.sort_unstable();
    v
}

/// `data` cut at `splits` (ascending cut points, as from [`cuts`]): the pieces in
/// order, some possibly empty.
pub fn pieces<'a>(data: &'a [u8], splits: &[usize]) -> Vec<&'a [u8]> {
    let mut out = Vec::with_capacity(splits.len() + 1);
    let mut at = 0;
    for &s in splits {
        out.push(&data[at..s]);
        at = s;
    }
    out.push(&data[at..]);
    out
}

/// The same cut applied to a mutable buffer: calls `f` on each piece in order.
pub fn for_pieces(data: &mut [u8], splits: &[usize], mut f: impl FnMut(&mut [u8])) {
    let mut at = 0;
    for &s in splits {
        f(&mut data[at..s]);
        at = s;
    }
    f(&mut data[at..]);
}

/// A copy of `data` at byte offset `offset % 64` of a fresh allocation: kernels see every
/// alignment. Returns the buffer and the offset; the text is `buf[off..]`.
pub fn at_offset(data: &[u8], offset: u8) -> (Vec<u8>, usize) {
    let off = usize::from(offset % 64);
    let mut buf = vec![0u8; off + data.len()];
    buf[off..].copy_from_slice(data);
    (buf, off)
}

/// Every kernel (or kernel pair, for the AEADs) of one primitive that this CPU can run, each
/// with a feature set that selects it, sorted by name. A fuzz input picks one with a byte.
pub struct Kernels {
    list: Vec<(&'static str, Features)>,
}

impl Kernels {
    /// The kernels `name_for` (a `backend_for`) selects from every subset of the detected
    /// features (`Features::detect()`, so `SIMDCRYPT_DISABLE` still removes some).
    ///
    /// A type's `backends()` walk removes one key feature per step and so visits each kernel
    /// of each component, but not every *pair* of them: AES-GCM's `aes-ni+clmul` (stitched
    /// AES-NI/PCLMULQDQ code) is only selected when `vaes` and `vpclmulqdq` (or `avx512f`)
    /// are both gone, a state the walk never passes through. Trying every subset reaches
    /// every pair that any mask can select (`cargo test --test kernels -- --nocapture` shows which pairs the walk misses).
    pub fn all(name_for: impl Fn(Features) -> &'static str) -> Self {
        let full = Features::detect();
        let names: Vec<&'static str> = full.iter().collect();
        // `singles[i]` is the set holding only the i-th detected feature.
        let singles: Vec<Features> = names
            .iter()
            .map(|n| full.without_all(full.without(n).expect("a name from the table")))
            .collect();
        assert!(
            names.len() <= 24,
            "{} features: too many subsets to try",
            names.len()
        );
        let mut found: Vec<(&'static str, Features)> = Vec::new();
        // Depth first over "keep or drop feature i": 2^n leaves, one `without_all` per edge.
        // The names are literals, so a pointer comparison settles almost every lookup.
        fn walk(
            f: Features,
            singles: &[Features],
            name_for: &dyn Fn(Features) -> &'static str,
            found: &mut Vec<(&'static str, Features)>,
        ) {
            match singles.split_first() {
                None => {
                    let name = name_for(f);
                    if !found
                        .iter()
                        .any(|(n, _)| core::ptr::eq(*n, name) || *n == name)
                    {
                        found.push((name, f));
                    }
                }
                Some((s, rest)) => {
                    walk(f, rest, name_for, found);
                    walk(f.without_all(*s), rest, name_for, found);
                }
            }
        }
        walk(full, &singles, &name_for, &mut found);
        found.sort_by_key(|(n, _)| *n);
        Kernels { list: found }
    }

    /// The kernels, sorted by name.
    pub fn list(&self) -> &[(&'static str, Features)] {
        &self.list
    }

    /// The kernel that `choice` picks, with its features.
    pub fn pick(&self, choice: u8) -> (&'static str, Features) {
        self.list[usize::from(choice) % self.list.len()]
    }
}

/// A lazily built, process-wide [`Kernels`] value for one primitive.
#[macro_export]
macro_rules! kernels {
    ($ty:ty) => {{
        static K: std::sync::OnceLock<$crate::Kernels> = std::sync::OnceLock::new();
        K.get_or_init(|| $crate::Kernels::all(<$ty>::backend_for))
    }};
}

/// Asserts that `buf` is all zero (what a failed open must leave).
#[track_caller]
pub fn assert_zeroed(buf: &[u8], what: &str) {
    assert!(
        buf.iter().all(|&b| b == 0),
        "{what}: a failed open left non-zero bytes in the buffer"
    );
}
