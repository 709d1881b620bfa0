//! SHA-1 and the SHA-2 family. A case: hash choice, kernel choice, buffer offset, cut points,
//! message. Checks, on the chosen kernel: streaming over the cut pieces (with a clone taken
//! after the first piece, finished separately) = one-shot `digest_with` = RustCrypto = ring
//! (ring has no SHA-224).

use simdcrypt::sha::{Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_256};

use crate::{Input, at_offset, cuts, kernels, pieces};

/// `check!(Ours, kernel choice, msg, cuts, RustCrypto type, ring algorithm)`.
macro_rules! check {
    ($ours:ty, $kernel:expr, $msg:expr, $cuts:expr, $rc:ty, $ring:expr) => {{
        let (name, f) = kernels!($ours).pick($kernel);
        let msg: &[u8] = $msg;
        let what = stringify!($ours);
        let one_shot = <$ours>::digest_with(f, msg);
        let mut h = <$ours>::new_with(f);
        assert_eq!(h.backend(), name);
        let parts = pieces(msg, $cuts);
        h.update(parts[0]);
        let fork = h.clone();
        for p in &parts[1..] {
            h.update(p);
        }
        let streamed = h.finalize();
        let mut g = fork;
        g.update(&msg[parts[0].len()..]);
        let forked = g.finalize();
        let want = <$rc as sha2::Digest>::digest(msg);
        assert_eq!(
            &one_shot[..],
            &want[..],
            "{what} {name}: digest_with vs RustCrypto"
        );
        assert_eq!(
            streamed, one_shot,
            "{what} {name}: streamed over {:?}",
            $cuts
        );
        assert_eq!(
            forked, one_shot,
            "{what} {name}: clone after the first piece"
        );
        let ring_alg: Option<&'static ring::digest::Algorithm> = $ring;
        if let Some(alg) = ring_alg {
            let r = ring::digest::digest(alg, msg);
            assert_eq!(r.as_ref(), &one_shot[..], "{what} {name}: vs ring");
        }
    }};
}

/// One fuzz case; panics on any disagreement.
pub fn run(data: &[u8]) {
    let mut inp = Input::new(data);
    let which = inp.u8() % 6;
    let kernel = inp.u8();
    let offset = inp.u8();
    let seeds = inp.split_seeds(4);
    let (buf, off) = at_offset(inp.rest(), offset);
    let msg = &buf[off..];
    let cuts = &cuts(&seeds, msg.len());
    use ring::digest as rd;
    match which {
        0 => check!(
            Sha1,
            kernel,
            msg,
            cuts,
            sha1::Sha1,
            Some(&rd::SHA1_FOR_LEGACY_USE_ONLY)
        ),
        1 => check!(Sha224, kernel, msg, cuts, sha2::Sha224, None),
        2 => check!(Sha256, kernel, msg, cuts, sha2::Sha256, Some(&rd::SHA256)),
        3 => check!(Sha384, kernel, msg, cuts, sha2::Sha384, Some(&rd::SHA384)),
        4 => check!(Sha512, kernel, msg, cuts, sha2::Sha512, Some(&rd::SHA512)),
        _ => check!(
            Sha512_256,
            kernel,
            msg,
            cuts,
            sha2::Sha512_256,
            Some(&rd::SHA512_256)
        ),
    }
}
