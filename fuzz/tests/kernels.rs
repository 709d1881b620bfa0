//! The kernels the fuzz targets pick from (every subset of the detected features), per
//! primitive, against the type's own `backends()` walk. `cargo test --release --test kernels
//! -- --nocapture` prints both lists and what the walk misses. The test fails if a stitched
//! AEAD kernel that this CPU can run is missing from the fuzz targets' list.

use simdcrypt::aead::{
    Aes128Gcm, Aes256Gcm, ChaCha20Poly1305, OpenSshChaCha20Poly1305, XChaCha20Poly1305,
};
use simdcrypt::aes::Aes128;
use simdcrypt::chacha20::ChaCha20;
use simdcrypt::cpu::Features;
use simdcrypt::poly1305::Poly1305;
use simdcrypt::sha::{Sha1, Sha256, Sha512};
use simdcrypt_fuzz::Kernels;

/// Prints the report for one type; returns the fuzz targets' kernel names.
macro_rules! report {
    ($ty:ty) => {{
        let t = std::time::Instant::now();
        let all = Kernels::all(<$ty>::backend_for);
        let dt = t.elapsed();
        let walk: Vec<&str> = <$ty>::backends(Features::detect())
            .map(|(n, _)| n)
            .collect();
        let names: Vec<&'static str> = all.list().iter().map(|(n, _)| *n).collect();
        let missed: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| !walk.contains(n))
            .collect();
        println!(
            "{}: {} kernels ({:.0?} to enumerate): {}",
            stringify!($ty),
            names.len(),
            dt,
            names.join(", ")
        );
        println!("    backends() walk ({}): {}", walk.len(), walk.join(", "));
        if !missed.is_empty() {
            println!(
                "    not reached by the walk ({}): {}",
                missed.len(),
                missed.join(", ")
            );
        }
        for w in &walk {
            assert!(
                names.contains(w),
                "{}: the walk's {w} is missing",
                stringify!($ty)
            );
        }
        names
    }};
}

#[test]
fn kernel_report() {
    let f = Features::detect();
    println!("features: {f}");
    report!(Sha1);
    report!(Sha256);
    report!(Sha512);
    report!(Aes128);
    let gcm = report!(Aes128Gcm);
    report!(Aes256Gcm);
    report!(ChaCha20);
    report!(Poly1305);
    let cp = report!(ChaCha20Poly1305);
    report!(XChaCha20Poly1305);
    report!(OpenSshChaCha20Poly1305);
    // The stitched kernels a mask can select must be fuzzed.
    #[cfg(target_arch = "x86_64")]
    {
        if f.has("aes") && f.has("pclmulqdq") && f.has("sse4.1") {
            assert!(gcm.contains(&"aes-ni+clmul"), "{gcm:?}");
        }
        if f.has("vaes") && f.has("vpclmulqdq") && f.has("avx512bw") && f.has("avx512vl") {
            assert!(gcm.contains(&"vaes-avx512+vpclmul-avx512"), "{gcm:?}");
        }
        if f.has("avx512f") && f.has("avx512vl") {
            assert!(cp.contains(&"avx512+avx512+stitched"), "{cp:?}");
        }
    }
    let _ = (&gcm, &cp);
}
