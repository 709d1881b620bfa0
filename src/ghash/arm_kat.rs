//! The checks every ARM GHASH kernel's unit tests share (`aarch64_pmull`, `aarch64_neon`,
//! `arm`): McGrew–Viega's known answers and a differential run against the portable kernel.
//! Test-only.

extern crate std;
use std::boxed::Box;
use std::string::String;
use std::vec::Vec;

use super::Kernel;
use crate::sha::test_util::bytes;

/// A kernel built on H (16 bytes, SP 800-38D byte order), boxed so each caller can pass its
/// own key type.
pub(crate) type New<'a> = &'a dyn Fn(&[u8; 16]) -> Box<dyn Kernel>;

pub(crate) fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

pub(crate) fn block(v: &[u8]) -> [u8; 16] {
    v.try_into().unwrap()
}

/// McGrew–Viega, "The Galois/Counter Mode of Operation (GCM)", test cases 2, 3 and 4:
/// GHASH(H, A, C) over A and C zero-padded and the length block (SP 800-38D §7.1).
pub(crate) fn known_answers(name: &str, new: New<'_>) {
    let c3 = "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e\
              21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985";
    let cases = [
        (
            "66e94bd4ef8a2c3b884cfa59ca342b2e",
            String::new(),
            String::from("0388dace60b6a392f328c2b971b2fe78"),
            "f38cbb1ad69223dcc3457ae5b6b0f885",
        ),
        (
            "b83b533708bf535d0aa6e52980d53b78",
            String::new(),
            String::from(c3),
            "7f1b32b81b820d02614f8895ac1d4eac",
        ),
        (
            "b83b533708bf535d0aa6e52980d53b78",
            String::from("feedfacedeadbeeffeedfacedeadbeefabaddad2"),
            String::from(&c3[..120]),
            "698e57f70e6ecc7fd9463b7260a9ae5f",
        ),
    ];
    for (h, a, c, want) in cases {
        let (a, c) = (hex(&a), hex(&c));
        let mut d = Vec::new();
        for part in [&a, &c] {
            d.extend_from_slice(part);
            d.resize(d.len().div_ceil(16) * 16, 0);
        }
        d.extend_from_slice(&(a.len() as u64 * 8).to_be_bytes());
        d.extend_from_slice(&(c.len() as u64 * 8).to_be_bytes());
        let k = new(&block(&hex(h)));
        let mut y = [0u8; 16];
        k.update(&mut y, &d);
        assert_eq!(y.to_vec(), hex(want), "{name}");
    }
}

/// Against the portable kernel: random H and Y, 0..=40 blocks (every tail past an 8-block
/// stride, five times over), in one call and split in two at every block boundary of inputs
/// up to `split_up_to` blocks; edge values: H = 0, all ones, 1 = x^0 (whose H·x^−1 needs a
/// reduction) and x^127 (which needs none); H and Y all ones; data all ones.
pub(crate) fn matches_portable(name: &str, new: New<'_>, split_up_to: usize) {
    let mut one = [0u8; 16];
    one[0] = 0x80;
    let mut x127 = [0u8; 16];
    x127[15] = 1;
    for n in 0..=40usize {
        let seed = 2000 + n as u64;
        let h = match n {
            0 | 4 => [0xff; 16],
            1 => one,
            2 => [0; 16],
            3 => x127,
            _ => block(&bytes(seed, 16)),
        };
        let y0 = match n {
            4 => [0xff; 16],
            _ => block(&bytes(seed + 1, 16)),
        };
        let mut data = bytes(seed + 2, 16 * n);
        if n == 9 {
            data.fill(0xff);
        }
        let mut want = y0;
        super::soft::new64(&h).update(&mut want, &data);
        let k = new(&h);
        let mut got = y0;
        k.update(&mut got, &data);
        assert_eq!(got, want, "{name}: {n} blocks");
        if n <= split_up_to {
            for split in 0..=n {
                let mut got = y0;
                k.update(&mut got, &data[..16 * split]);
                k.update(&mut got, &data[16 * split..]);
                assert_eq!(got, want, "{name}: {n} blocks split at {split}");
            }
        }
    }
}
