//! HMAC and HKDF over every hash. A case: hash choice, kernel choice, key (up to two blocks,
//! so both sides of the "hash a long key" rule), cut points, HKDF info and output length,
//! message. Checks, on the chosen kernel: HMAC streamed over the pieces = `Hmac::mac`-style
//! one piece = the `hmac` crate = ring (SHA-1/256/384/512); `verify` accepts the tag and
//! rejects it with one bit flipped and cut short; HKDF (the salt is the HMAC key, the IKM
//! the message) = the `hkdf` crate = ring, with an over-long output refused by all.

use simdcrypt::hkdf::Hkdf;
use simdcrypt::hmac::Hmac;
use simdcrypt::sha::{Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_256};

use crate::{Input, cuts, kernels, pieces};

/// ring's HKDF output length.
struct Len(usize);

impl ring::hkdf::KeyType for Len {
    fn len(&self) -> usize {
        self.0
    }
}

/// The parts of a case.
struct Case<'a> {
    kernel: u8,
    key: &'a [u8],
    msg: &'a [u8],
    cuts: Vec<usize>,
    info: &'a [u8],
    okm_len: usize,
    flip: u16,
}

macro_rules! check {
    ($h:ty, $c:expr, $rc:ty, $ring_hmac:expr, $ring_hkdf:expr) => {{
        let c: &Case = $c;
        let (name, f) = kernels!($h).pick(c.kernel);
        let what = stringify!($h);
        // HMAC.
        let mut m = Hmac::<$h>::new_with(c.key, f);
        assert_eq!(m.backend(), name);
        for p in pieces(c.msg, &c.cuts) {
            m.update(p);
        }
        let tag = m.finalize().into_bytes();
        let mut whole = Hmac::<$h>::new_with(c.key, f);
        whole.update(c.msg);
        assert_eq!(
            whole.finalize().into_bytes(),
            tag,
            "{what} {name}: HMAC split {:?}",
            c.cuts
        );
        let mut rc = <hmac::Hmac<$rc> as hmac::Mac>::new_from_slice(c.key).unwrap();
        hmac::Mac::update(&mut rc, c.msg);
        let want = hmac::Mac::finalize(rc).into_bytes();
        assert_eq!(tag.as_ref(), &want[..], "{what} {name}: HMAC vs RustCrypto");
        let ring_alg: Option<ring::hmac::Algorithm> = $ring_hmac;
        if let Some(alg) = ring_alg {
            let r = ring::hmac::sign(&ring::hmac::Key::new(alg, c.key), c.msg);
            assert_eq!(r.as_ref(), tag.as_ref(), "{what} {name}: HMAC vs ring");
        }
        let verify = |t: &[u8]| {
            let mut v = Hmac::<$h>::new_with(c.key, f);
            v.update(c.msg);
            v.verify(t)
        };
        assert!(
            verify(tag.as_ref()).is_ok(),
            "{what} {name}: verify(right tag)"
        );
        let mut bad = tag;
        let bit = usize::from(c.flip) % (bad.as_ref().len() * 8);
        bad.as_mut()[bit / 8] ^= 1 << (bit % 8);
        assert!(
            verify(bad.as_ref()).is_err(),
            "{what} {name}: verify(flipped bit {bit})"
        );
        let short = bit / 8;
        assert!(
            verify(&tag.as_ref()[..short]).is_err(),
            "{what} {name}: verify(first {short} bytes)"
        );

        // HKDF: salt = key, IKM = message.
        let ours = Hkdf::<$h>::new_with(c.key, c.msg, f);
        let mut okm = vec![0u8; c.okm_len];
        let r = ours.expand(c.info, &mut okm);
        let rc = hkdf::Hkdf::<$rc>::new(Some(c.key), c.msg);
        let mut want = vec![0u8; c.okm_len];
        let rc_r = rc.expand(c.info, &mut want);
        assert_eq!(
            r.is_ok(),
            rc_r.is_ok(),
            "{what} {name}: HKDF length {} accepted?",
            c.okm_len
        );
        if r.is_ok() {
            assert_eq!(okm, want, "{what} {name}: HKDF vs RustCrypto");
        } else {
            assert!(c.okm_len > 255 * <$h>::OUTPUT_LEN);
        }
        let ring_alg: Option<ring::hkdf::Algorithm> = $ring_hkdf;
        if let Some(alg) = ring_alg {
            let prk = ring::hkdf::Salt::new(alg, c.key).extract(c.msg);
            let info = [c.info];
            match prk.expand(&info, Len(c.okm_len)) {
                Ok(o) => {
                    let mut out = vec![0u8; c.okm_len];
                    o.fill(&mut out).unwrap();
                    assert!(
                        r.is_ok(),
                        "{what} {name}: HKDF refused a length ring accepts"
                    );
                    assert_eq!(out, okm, "{what} {name}: HKDF vs ring");
                }
                Err(_) => assert!(
                    r.is_err(),
                    "{what} {name}: HKDF accepted a length ring refuses"
                ),
            }
        }
        // The PRK of extract, fed back through from_prk, expands the same.
        let (prk, _) = hkdf::Hkdf::<$rc>::extract(Some(c.key), c.msg);
        let again = Hkdf::<$h>::from_prk(&prk).unwrap();
        let mut okm2 = vec![0u8; c.okm_len];
        assert_eq!(again.expand(c.info, &mut okm2).is_ok(), r.is_ok());
        assert_eq!(okm2, okm, "{what} {name}: from_prk(extract) vs new_with");
        assert!(Hkdf::<$h>::from_prk(&prk[..prk.len() - 1]).is_err());
    }};
}

/// One fuzz case; panics on any disagreement.
pub fn run(data: &[u8]) {
    let mut inp = Input::new(data);
    let which = inp.u8() % 6;
    let kernel = inp.u8();
    let flip = inp.u16();
    let key = inp.bytes(2 * 128 + 1);
    let info = inp.bytes(300);
    // Mostly short outputs; now and then up to just past the limit of SHA-512 (255 * 64).
    let l = inp.u16();
    let okm_len = if l & 0x8000 != 0 {
        usize::from(l & 0x7fff) % (255 * 64 + 2)
    } else {
        usize::from(l) % 200
    };
    let seeds = inp.split_seeds(4);
    let msg = inp.rest();
    let c = Case {
        kernel,
        key,
        msg,
        cuts: cuts(&seeds, msg.len()),
        info,
        okm_len,
        flip,
    };
    use ring::{hkdf as rk, hmac as rh};
    match which {
        0 => check!(
            Sha1,
            &c,
            sha1::Sha1,
            Some(rh::HMAC_SHA1_FOR_LEGACY_USE_ONLY),
            Some(rk::HKDF_SHA1_FOR_LEGACY_USE_ONLY)
        ),
        1 => check!(Sha224, &c, sha2::Sha224, None, None),
        2 => check!(
            Sha256,
            &c,
            sha2::Sha256,
            Some(rh::HMAC_SHA256),
            Some(rk::HKDF_SHA256)
        ),
        3 => check!(
            Sha384,
            &c,
            sha2::Sha384,
            Some(rh::HMAC_SHA384),
            Some(rk::HKDF_SHA384)
        ),
        4 => check!(
            Sha512,
            &c,
            sha2::Sha512,
            Some(rh::HMAC_SHA512),
            Some(rk::HKDF_SHA512)
        ),
        _ => check!(Sha512_256, &c, sha2::Sha512_256, None, None),
    }
}
