//! chacha20-poly1305@openssh.com, the SSH transport cipher of OpenSSH's
//! `PROTOCOL.chacha20poly1305`.
//!
//! # Construction
//!
//! The 64-byte key is two ChaCha20 keys, `K_2 ‖ K_1`: `K_2` (the first 32 bytes) encrypts the
//! packet payload and makes the Poly1305 key; `K_1` (the last 32 bytes) encrypts only the
//! 4-byte packet length, so that a receiver can learn how much to read before the packet has
//! arrived. ChaCha20 is the original variant: a 64-bit block counter (state words 12–13) and a
//! 64-bit nonce (words 14–15), the nonce being the packet sequence number as a big-endian
//! `uint64`.
//!
//! - The length field is XORed with `K_1`'s block 0.
//! - The Poly1305 key is the first 32 bytes of `K_2`'s block 0; the payload (everything after
//!   the length field) is encrypted with `K_2` from block 1.
//! - The tag is Poly1305 (RFC 8439 §2.5, no padding, no length block) over the encrypted
//!   length ‖ the encrypted payload.
//!
//! A packet payload is at most (2^32 − 1)·64 bytes here (the block counter's low word must
//! not wrap); SSH packets are far shorter (OpenSSH accepts 256 KiB).
//!
//! How a transport uses it is on [`OpenSshChaCha20Poly1305`].
#![forbid(unsafe_code)]

use super::chacha20_poly1305::{Unstitched as Backend, release_if, too_long};
use crate::Error;
use crate::chacha20::Core;
use crate::cpu::{self, Dispatch, Features};
use crate::poly1305::Mac;
use crate::wipe::{wipe, wipe_slice};

/// Words 12–15 of the original ChaCha20 state: the 64-bit block counter 0 and the nonce
/// `be64(seq)`, as little-endian words.
fn tail(seq: u64) -> [u32; 4] {
    let n = seq.to_be_bytes();
    [
        0,
        0,
        u32::from_le_bytes([n[0], n[1], n[2], n[3]]),
        u32::from_le_bytes([n[4], n[5], n[6], n[7]]),
    ]
}

/// chacha20-poly1305@openssh.com (OpenSSH's `PROTOCOL.chacha20poly1305`): a 64-byte key
/// (`K_2 ‖ K_1`), the packet sequence number as nonce, an encrypted packet length, 16-byte
/// tags. The key is wiped on drop, and so is every per-packet state.
///
/// `K_1` (the last 32 bytes of the key) encrypts only the 4-byte packet length; `K_2` (the
/// first 32) makes the Poly1305 key from ChaCha20 block 0 and encrypts the rest of the packet
/// from block 1; the tag covers the whole encrypted packet. ChaCha20 is the original variant
/// (64-bit counter, 64-bit nonce = big-endian sequence number).
///
/// # How an SSH transport uses it
///
/// Sending packet number `seq` (RFC 4253 §6.4: a `uint32` that wraps, zero-extended): build
/// `uint32 packet_length ‖ byte padding_length ‖ payload ‖ padding` in a buffer, call
/// [`seal_in_place`](Self::seal_in_place) on all of it, and send the buffer followed by the
/// returned 16-byte tag.
///
/// Receiving: read the first 4 bytes and call [`decrypt_length`](Self::decrypt_length) to
/// learn `packet_length`. It is not authenticated yet: check it against the transport's
/// maximum before allocating or reading on. Then read `packet_length` more bytes and the
/// 16-byte tag, and call [`open_in_place`](Self::open_in_place) on the 4 + `packet_length`
/// bytes as received (length still encrypted). It checks the tag over the encrypted packet
/// first and only then decrypts; on success the buffer holds the plaintext packet, length
/// field included; on failure it is all zero and the connection must be dropped.
///
/// ```
/// use simdcrypt::aead::OpenSshChaCha20Poly1305;
///
/// let key: [u8; 64] = core::array::from_fn(|i| i as u8);
/// let cipher = OpenSshChaCha20Poly1305::new(&key);
/// let seq = 3;
///
/// // Sender: length ‖ padding length ‖ payload ‖ padding, all encrypted.
/// let mut packet = [0u8; 4 + 16];
/// packet[..4].copy_from_slice(&16u32.to_be_bytes());
/// packet[4] = 10; // padding length
/// packet[5..10].copy_from_slice(b"hello");
/// let plain = packet;
/// let tag = cipher.seal_in_place(seq, &mut packet)?;
///
/// // Receiver: the length first, then the whole packet.
/// let len = u32::from_be_bytes(cipher.decrypt_length(seq, &packet[..4].try_into().unwrap()));
/// assert_eq!(len, 16);
/// cipher.open_in_place(seq, &mut packet, &tag)?;
/// assert_eq!(packet, plain);
/// # Ok::<(), simdcrypt::Error>(())
/// ```
#[derive(Clone)]
pub struct OpenSshChaCha20Poly1305 {
    /// `K_2`: payload and Poly1305 key.
    main: [u8; 32],
    /// `K_1`: the length field.
    header: [u8; 32],
    backend: Backend,
}

impl OpenSshChaCha20Poly1305 {
    /// Key length in bytes (`K_2 ‖ K_1`).
    pub const KEY_LEN: usize = 64;
    /// Tag length in bytes.
    pub const TAG_LEN: usize = 16;

    /// Like [`Self::new`] for a key given as a slice: `Err(InvalidLength)` unless it is
    /// exactly [`Self::KEY_LEN`] bytes long.
    pub fn new_from_slice(key: &[u8]) -> Result<Self, Error> {
        let key: &[u8; 64] = key.try_into().map_err(|_| Error::InvalidLength)?;
        Ok(Self::new(key))
    }

    /// A key (`K_2 ‖ K_1`, as OpenSSH derives 64 bytes of key material for this cipher) for
    /// the fastest ChaCha20 and Poly1305 kernels this CPU has (less `SIMDCRYPT_DISABLE`).
    #[inline]
    pub fn new(key: &[u8; 64]) -> Self {
        Self::new_with(Features::detect(), key)
    }

    /// A key for the kernels that `features` selects.
    pub fn new_with(features: Features, key: &[u8; 64]) -> Self {
        let mut main = [0u8; 32];
        let mut header = [0u8; 32];
        main.copy_from_slice(&key[..32]);
        header.copy_from_slice(&key[32..]);
        OpenSshChaCha20Poly1305 {
            main,
            header,
            backend: Backend::select(features),
        }
    }

    /// XORs `K_1`'s keystream for packet `seq` into the 4-byte length field. The result is
    /// not authenticated until [`Self::open_in_place`] succeeds.
    fn xor_length(&self, seq: u64, field: &mut [u8]) {
        let mut core = Core::with_backend(self.backend.chacha, &self.header, tail(seq));
        let mut ks = core.keystream_block();
        for (b, k) in field.iter_mut().zip(&ks) {
            *b ^= k;
        }
        wipe(&mut ks);
    }

    /// `K_2`'s state for packet `seq` at block 1, and the Poly1305 MAC keyed with the first
    /// 32 bytes of its block 0.
    fn start(&self, seq: u64) -> (Core, Mac) {
        let mut core = Core::with_backend(self.backend.chacha, &self.main, tail(seq));
        let mut ks = core.keystream_block();
        let mut otk = [0u8; 32];
        otk.copy_from_slice(&ks[..32]);
        wipe(&mut ks);
        let mac = Mac::with_backend(self.backend.poly, &otk);
        wipe(&mut otk);
        (core, mac)
    }

    /// The Poly1305 tag of the whole encrypted packet (no padding: a final partial block is
    /// padded with a 1 byte, RFC 8439 §2.5.1).
    fn tag(mut mac: Mac, packet: &[u8]) -> [u8; 16] {
        let whole = packet.len() & !15;
        mac.blocks(&packet[..whole]);
        if whole < packet.len() {
            mac.last(&packet[whole..]);
        }
        mac.finish()
    }

    /// Decrypts the 4-byte packet length of packet number `seq` as received, so that the
    /// transport knows how many bytes to read. The value is not authenticated: bound it
    /// before use; [`Self::open_in_place`] checks it with the rest of the packet.
    pub fn decrypt_length(&self, seq: u64, enc: &[u8; 4]) -> [u8; 4] {
        let mut out = *enc;
        self.xor_length(seq, &mut out);
        out
    }

    /// Encrypts `packet` (`uint32 packet_length ‖ the rest`, as SSH lays it out) in place as
    /// packet number `seq` and returns the 16-byte tag to send after it.
    /// `Err(InvalidLength)` if `packet` is shorter than the 4-byte length field,
    /// `Err(MessageTooLong)` if the rest is longer than (2^32 − 1)·64 bytes; `packet` is then
    /// unchanged.
    pub fn seal_in_place(&self, seq: u64, packet: &mut [u8]) -> Result<[u8; 16], Error> {
        if packet.len() < 4 {
            return Err(Error::InvalidLength);
        }
        if too_long(packet.len() - 4) {
            return Err(Error::MessageTooLong);
        }
        let (len, payload) = packet.split_at_mut(4);
        self.xor_length(seq, len);
        let (mut core, mac) = self.start(seq);
        core.xor(payload);
        Ok(Self::tag(mac, packet))
    }

    /// Checks `tag` over the encrypted `packet` (4-byte length ‖ the rest, as received) of
    /// number `seq` in constant time and only then decrypts it in place, length field
    /// included. On any error (`AuthenticationFailed`; `InvalidLength` for fewer than 4 bytes;
    /// `MessageTooLong`) `packet` is all zero.
    pub fn open_in_place(&self, seq: u64, packet: &mut [u8], tag: &[u8; 16]) -> Result<(), Error> {
        if packet.len() < 4 || too_long(packet.len() - 4) {
            let e = if packet.len() < 4 {
                Error::InvalidLength
            } else {
                Error::MessageTooLong
            };
            wipe_slice(packet);
            return Err(e);
        }
        let (mut core, mac) = self.start(seq);
        let mut want = Self::tag(mac, packet);
        release_if(&mut want, tag, packet, |packet| {
            let (len, payload) = packet.split_at_mut(4);
            self.xor_length(seq, len);
            core.xor(payload);
        })
    }

    /// The ChaCha20 and Poly1305 kernels of this key, as `"<chacha20>+<poly1305>"`.
    pub fn backend(&self) -> &'static str {
        self.backend.name()
    }

    /// The kernels a key made with `features` would use.
    pub fn backend_for(features: Features) -> &'static str {
        Backend::select(features).name()
    }

    /// Every (ChaCha20, Poly1305) kernel pair reachable from `features`, best first (the same
    /// walk as [`ChaCha20Poly1305::backends`](super::ChaCha20Poly1305::backends)).
    pub fn backends(features: Features) -> impl Iterator<Item = (&'static str, Features)> {
        cpu::backends::<Backend>(features)
    }
}

impl Drop for OpenSshChaCha20Poly1305 {
    fn drop(&mut self) {
        wipe(&mut self.main);
        wipe(&mut self.header);
    }
}

impl core::fmt::Debug for OpenSshChaCha20Poly1305 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Never the key.
        f.debug_struct("OpenSshChaCha20Poly1305")
            .field("backend", &self.backend())
            .finish()
    }
}
