//! AES block cipher and modes, all three key sizes. A case: key size, kernel, mode, buffer
//! offset, key, IV, cut points, text. Checks on the chosen kernel against the `aes`, `ctr` and
//! `cbc` crates (IGE against a reference written here over the `aes` crate, as no maintained
//! IGE crate exists): the blocks (`encrypt_blocks`, and `encrypt_block` on the first one),
//! CTR streamed over the cut pieces (any lengths, with the counter near its 128-bit wrap now
//! and then) and back, CBC and IGE over block-aligned pieces and back; a CBC/IGE length that
//! is not a multiple of 16 is refused and leaves the buffer as it was.

use aes::cipher::{BlockDecrypt, BlockEncrypt, KeyInit, KeyIvInit, StreamCipher};
use simdcrypt::aes::{Aes128, Aes192, Aes256, Cbc, Ctr, Ige};

use crate::{Input, at_offset, cuts, for_pieces, kernels};

/// The mode of a case.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Blocks,
    Ctr,
    Cbc,
    Ige,
}

/// IGE encryption (`c_i = E(p_i ⊕ c_{i-1}) ⊕ p_{i-1}`, IV `c_0 ‖ p_0`) or decryption
/// (`p_i = D(c_i ⊕ p_{i-1}) ⊕ c_{i-1}`) over the `aes` crate, one block at a time.
/// `block` is the `aes` crate's encryption (`enc`) or decryption of one block.
fn ige_reference(block: impl Fn(&mut aes::Block), iv: &[u8; 32], data: &mut [u8], enc: bool) {
    let (mut prev_out, mut prev_in) = ([0u8; 16], [0u8; 16]);
    // Encryption chains on (c_{i-1}, p_{i-1}); decryption on (p_{i-1}, c_{i-1}).
    if enc {
        prev_out.copy_from_slice(&iv[..16]);
        prev_in.copy_from_slice(&iv[16..]);
    } else {
        prev_out.copy_from_slice(&iv[16..]);
        prev_in.copy_from_slice(&iv[..16]);
    }
    for out in data.as_chunks_mut::<16>().0 {
        let input = *out;
        let mut x = aes::Block::default();
        for i in 0..16 {
            x[i] = input[i] ^ prev_out[i];
        }
        block(&mut x);
        for i in 0..16 {
            out[i] = x[i] ^ prev_in[i];
        }
        prev_out = *out;
        prev_in = input;
    }
}

/// Cut points rounded down to whole blocks (CBC and IGE work on whole blocks).
fn block_cuts(cuts: &[usize]) -> Vec<usize> {
    cuts.iter().map(|&c| c & !15).collect()
}

macro_rules! check {
    ($ours:ident, $len:literal, $rc:ty, $c:expr) => {{
        let c: &Case = $c;
        let (name, f) = kernels!($ours).pick(c.kernel);
        let key: [u8; $len] = c.key[..$len].try_into().unwrap();
        let ours = $ours::new_with(f, &key);
        assert_eq!(ours.backend(), name);
        let rc = <$rc>::new_from_slice(&key).unwrap();
        let what = format!("{} {name} {:?}", stringify!($ours), c.mode);
        let (mut buf, off) = at_offset(c.text, c.offset);
        let text = &mut buf[off..];
        match c.mode {
            Mode::Blocks => {
                let whole = text.len() & !15;
                let text = &mut text[..whole];
                let mut want = text.to_vec();
                for b in want.chunks_exact_mut(16) {
                    rc.encrypt_block(aes::Block::from_mut_slice(b));
                }
                let (blocks, _) = text.as_chunks_mut::<16>();
                if let Some(first) = blocks.first() {
                    let mut one = *first;
                    ours.encrypt_block(&mut one);
                    assert_eq!(one[..], want[..16], "{what}: encrypt_block");
                    ours.decrypt_block(&mut one);
                    assert_eq!(one, *first, "{what}: decrypt_block");
                }
                ours.encrypt_blocks(blocks);
                assert_eq!(text, &want[..], "{what}: encrypt_blocks");
                let (blocks, _) = text.as_chunks_mut::<16>();
                ours.decrypt_blocks(blocks);
                assert_eq!(text, &c.text[..whole], "{what}: decrypt_blocks");
            }
            Mode::Ctr => {
                let mut iv: [u8; 16] = c.iv[..16].try_into().unwrap();
                if c.near_wrap {
                    // Counter within a few blocks of 2^128 - 1: the wrap to zero is inside
                    // the text.
                    iv[8..].fill(0xff);
                    iv[..8].fill(0xff);
                    iv[15] = 0xff - (c.iv[16] & 7);
                }
                let mut want = text.to_vec();
                let mut p = ctr::Ctr128BE::<$rc>::new(&key.into(), &iv.into());
                p.apply_keystream(&mut want);
                let mut s = Ctr::new($ours::new_with(f, &key), &iv);
                for_pieces(text, &c.cuts, |piece| s.apply_keystream(piece).unwrap());
                assert_eq!(text, &want[..], "{what}: CTR over {:?}", c.cuts);
                let mut back = Ctr::new($ours::new_with(f, &key), &iv);
                let mut plain = vec![0u8; text.len()];
                back.apply_keystream_b2b(text, &mut plain).unwrap();
                assert_eq!(plain, c.text, "{what}: CTR b2b back");
            }
            Mode::Cbc | Mode::Ige => {
                let cuts = block_cuts(&c.cuts);
                let ige = matches!(c.mode, Mode::Ige);
                if text.len() % 16 != 0 {
                    let before = text.to_vec();
                    let iv16: [u8; 16] = c.iv[..16].try_into().unwrap();
                    let r = if ige {
                        Ige::new($ours::new_with(f, &key), &c.iv).encrypt(text)
                    } else {
                        Cbc::new($ours::new_with(f, &key), &iv16).encrypt(text)
                    };
                    assert!(r.is_err(), "{what}: {} bytes accepted", text.len());
                    assert_eq!(text, &before[..], "{what}: refused call changed the buffer");
                    return;
                }
                let mut want = text.to_vec();
                if ige {
                    ige_reference(|b| rc.encrypt_block(b), &c.iv, &mut want, true);
                    let mut e = Ige::new($ours::new_with(f, &key), &c.iv);
                    for_pieces(text, &cuts, |p| e.encrypt(p).unwrap());
                } else {
                    let iv16: [u8; 16] = c.iv[..16].try_into().unwrap();
                    let mut p = cbc::Encryptor::<$rc>::new(&key.into(), &iv16.into());
                    for b in want.chunks_exact_mut(16) {
                        aes::cipher::BlockEncryptMut::encrypt_block_mut(
                            &mut p,
                            aes::Block::from_mut_slice(b),
                        );
                    }
                    let mut e = Cbc::new($ours::new_with(f, &key), &iv16);
                    for_pieces(text, &cuts, |p| e.encrypt(p).unwrap());
                    if let Some(last) = text.rchunks_exact(16).next() {
                        assert_eq!(e.iv()[..], *last, "{what}: chaining value");
                    }
                }
                assert_eq!(text, &want[..], "{what}: encrypt over {cuts:?}");
                let mut back = text.to_vec();
                if ige {
                    let mut d = Ige::new($ours::new_with(f, &key), &c.iv);
                    for_pieces(&mut back, &cuts, |p| d.decrypt(p).unwrap());
                    let mut refd = text.to_vec();
                    ige_reference(|b| rc.decrypt_block(b), &c.iv, &mut refd, false);
                    assert_eq!(refd, c.text, "{what}: reference decrypt (self-check)");
                } else {
                    let iv16: [u8; 16] = c.iv[..16].try_into().unwrap();
                    let mut d = Cbc::new($ours::new_with(f, &key), &iv16);
                    for_pieces(&mut back, &cuts, |p| d.decrypt(p).unwrap());
                }
                assert_eq!(back, c.text, "{what}: decrypt over {cuts:?}");
            }
        }
    }};
}

/// The parts of a case.
struct Case<'a> {
    kernel: u8,
    mode: Mode,
    offset: u8,
    key: [u8; 32],
    iv: [u8; 32],
    near_wrap: bool,
    cuts: Vec<usize>,
    text: &'a [u8],
}

/// One fuzz case; panics on any disagreement.
pub fn run(data: &[u8]) {
    let mut inp = Input::new(data);
    let sel = inp.u8();
    let kernel = inp.u8();
    let offset = inp.u8();
    let key = inp.array::<32>();
    let iv = inp.array::<32>();
    let seeds = inp.split_seeds(4);
    let text = inp.rest();
    let mode = match (sel >> 2) & 3 {
        0 => Mode::Blocks,
        1 => Mode::Ctr,
        2 => Mode::Cbc,
        _ => Mode::Ige,
    };
    let c = Case {
        kernel,
        mode,
        offset,
        key,
        iv,
        near_wrap: sel & 0x10 != 0,
        cuts: cuts(&seeds, text.len()),
        text,
    };
    match sel % 4 {
        0 | 3 => check!(Aes128, 16, aes::Aes128, &c),
        1 => check!(Aes192, 24, aes::Aes192, &c),
        _ => check!(Aes256, 32, aes::Aes256, &c),
    }
}
