//! Introspection and misuse: `kernels()`, `Features` (only ever shrinks, unknown names are
//! errors), and the `SIMDCRYPT_DISABLE` mask as the process sees it.

mod common;

use common::{Hash, env_disabled};
use simdcrypt::Error;
use simdcrypt::cpu::{self, Features};
use simdcrypt::hmac::Hmac;
use simdcrypt::sha::{Sha256, Sha512};

/// `a` holds nothing `b` lacks.
fn subset(a: Features, b: Features) -> bool {
    a.without_all(b).is_empty()
}

fn kernel_matches<H: Hash>() {
    let k: Vec<_> = simdcrypt::kernels()
        .filter(|k| k.primitive == H::NAME)
        .collect();
    assert_eq!(k.len(), 1, "kernels() lists {} {} times", H::NAME, k.len());
    let backend = k[0].backend;
    assert!(!backend.is_empty(), "{}", H::NAME);
    assert_eq!(backend, H::new_default().backend(), "{}", H::NAME);
    assert_eq!(backend, H::backend_for(Features::detect()), "{}", H::NAME);
    assert_eq!(
        simdcrypt::kernels_with(Features::none())
            .find(|k| k.primitive == H::NAME)
            .map(|k| k.backend),
        Some("soft"),
        "{}",
        H::NAME
    );
}

#[test]
fn kernels_lists_every_hash_with_its_backend() {
    for_each_hash!(kernel_matches);
    let names: Vec<&str> = simdcrypt::kernels().map(|k| k.primitive).collect();
    for want in [
        "sha1",
        "sha224",
        "sha256",
        "sha384",
        "sha512",
        "sha512-224",
        "sha512-256",
    ] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
}

fn backends_list<H: Hash>() {
    let f = Features::detect();
    let list = H::backends(f);
    assert_eq!(
        list.first().map(|b| b.0),
        Some(H::backend_for(f)),
        "{}",
        H::NAME
    );
    // `soft` ends the walk, except where this core's order (`cpu::core()`) puts it before
    // NEON (SHA-224/256 on some aarch64 cores): then `soft`, `neon` end it.
    let names: Vec<&str> = list.iter().map(|b| b.0).collect();
    let soft_before_neon = matches!(H::NAME, "sha224" | "sha256")
        && cpu::core()
            .changes
            .iter()
            .any(|c| c.primitive == "sha256" && c.first == "soft");
    let end: &[&str] = if soft_before_neon && names.contains(&"neon") {
        &["soft", "neon"]
    } else {
        &["soft"]
    };
    assert!(names.ends_with(end), "{}: {names:?}", H::NAME);
    for (i, (name, g)) in list.iter().enumerate() {
        assert!(
            subset(*g, f),
            "{}: {name} uses features not detected",
            H::NAME
        );
        assert_eq!(H::new_with(*g).backend(), *name, "{}", H::NAME);
        assert!(
            list[..i].iter().all(|(n, _)| n != name),
            "{}: {name} twice",
            H::NAME
        );
    }
    assert_eq!(
        H::new_with(Features::none()).backend(),
        "soft",
        "{}",
        H::NAME
    );
    assert_eq!(
        H::backends(Features::none()),
        vec![("soft", Features::none())],
        "{}",
        H::NAME
    );
}

#[test]
fn backends_are_listed_best_first_and_end_with_soft() {
    for_each_hash!(backends_list);
}

#[test]
fn hmac_reports_the_hash_kernel() {
    for (name, f) in Sha256::backends(Features::detect()) {
        assert_eq!(Hmac::<Sha256>::new_with(b"k", f).backend(), name);
    }
    assert_eq!(Hmac::<Sha512>::new(b"k").backend(), Sha512::new().backend());
}

#[test]
fn unknown_feature_names_are_errors() {
    let f = Features::hardware();
    for bad in [
        "nonsense",
        "sha,nonsense",
        "avx3",
        "sse5",
        "neon2",
        "a\u{e9}s",
        "x".repeat(100).as_str(),
    ] {
        assert_eq!(f.without(bad), Err(Error::UnknownFeature), "{bad:?}");
        assert_eq!(
            Features::none().without(bad),
            Err(Error::UnknownFeature),
            "{bad:?}"
        );
    }
}

#[test]
fn features_only_shrink() {
    let hw = Features::hardware();
    assert!(subset(Features::detect(), hw));
    assert!(subset(cpu::features(), hw));
    assert_eq!(hw.without("").unwrap(), hw);
    assert_eq!(hw.without(" , ,").unwrap(), hw);
    for info in cpu::table() {
        let g = hw.without(info.name).unwrap();
        assert!(!g.has(info.name), "{}", info.name);
        assert!(subset(g, hw), "{}", info.name);
        // Upper case and spaces name the same feature.
        let loud = format!(" {} ", info.name.to_ascii_uppercase());
        assert_eq!(hw.without(&loud).unwrap(), g, "{loud:?}");
        // Nothing comes back from an empty set.
        assert_eq!(
            Features::none().without(info.name).unwrap(),
            Features::none()
        );
    }
    // Every architecture's names are accepted everywhere (one mask serves a mixed fleet).
    for other in [
        "sha", "avx2", "bmi2", "sha1", "sha2", "sha512", "neon", "aes", "pmull",
    ] {
        let g = hw.without(other).unwrap();
        assert!(subset(g, hw), "{other}");
    }
    assert!(hw.without_all(hw).is_empty());
    assert_eq!(hw.without_all(Features::none()), hw);
    // No primitive picks an accelerated kernel from no features: the portable one is
    // "soft" for hashes, the fixsliced "bitsliced-{64,32}" for AES, and that with the
    // "ctmul-{64,32}" GHASH for AES-GCM.
    let (portable_aes, portable_gcm) = if cfg!(target_pointer_width = "64") {
        ("bitsliced-64", "bitsliced-64+ctmul-64")
    } else {
        ("bitsliced-32", "bitsliced-32+ctmul-32")
    };
    for k in simdcrypt::kernels_with(Features::none()) {
        let portable_poly = if cfg!(target_pointer_width = "64") {
            "soft-64"
        } else {
            "soft-32"
        };
        let portable_chacha_aead = format!("soft+{portable_poly}");
        let want = if k.primitive.ends_with("-gcm") {
            portable_gcm
        } else if k.primitive.starts_with("aes-") {
            portable_aes
        } else if k.primitive == "poly1305" {
            portable_poly
        } else if k.primitive.ends_with("chacha20-poly1305") {
            &portable_chacha_aead
        } else {
            "soft"
        };
        assert_eq!(k.backend, want, "{}", k.primitive);
    }
}

/// The names in `SIMDCRYPT_DISABLE` that this architecture's table knows.
fn env_names_here() -> Vec<String> {
    let table: Vec<&str> = cpu::table().iter().map(|i| i.name).collect();
    env_disabled()
        .into_iter()
        .filter(|n| table.contains(&n.as_str()))
        .collect()
}

fn env_backend<H: Hash>(expected_features: Features) {
    assert_eq!(
        H::new_default().backend(),
        H::backend_for(expected_features),
        "{} with SIMDCRYPT_DISABLE={:?}",
        H::NAME,
        std::env::var("SIMDCRYPT_DISABLE").ok()
    );
}

/// Whatever `SIMDCRYPT_DISABLE` the process was started with (CI runs this suite under
/// several masks; `env_mask_in_child_processes` starts it with more), `Features::detect()`
/// is the hardware less exactly those features, and hashers pick accordingly.
#[test]
fn env_mask_matches_detection() {
    let hw = Features::hardware();
    let detected = Features::detect();
    let Some(raw) = std::env::var_os("SIMDCRYPT_DISABLE") else {
        assert_eq!(
            detected, hw,
            "no SIMDCRYPT_DISABLE, yet features were removed"
        );
        assert!(Features::masked_by_env().is_empty());
        return;
    };
    // Fail closed: a value that is not UTF-8 masks every feature.
    let Some(value) = raw.to_str() else {
        assert!(detected.is_empty(), "non-UTF-8 mask left {detected:?}");
        assert_eq!(Features::masked_by_env(), hw);
        assert_eq!(Sha256::new().backend(), "soft");
        return;
    };
    // The mask's names removed one by one; a name no architecture knows masks everything.
    let mut want = hw;
    for n in value.split(',') {
        match want.without(n) {
            Ok(g) => want = g,
            Err(_) => want = Features::none(),
        }
    }
    if let Ok(all) = hw.without(value) {
        assert_eq!(all, want);
    }
    assert_eq!(detected, want, "SIMDCRYPT_DISABLE={value:?}");
    for n in env_names_here() {
        assert!(
            !detected.has(&n),
            "{n} is in SIMDCRYPT_DISABLE={value:?} yet detected"
        );
    }
    assert_eq!(Features::masked_by_env(), hw.without_all(detected));
    assert_eq!(
        Sha256::new().backend(),
        Sha256::backend_for(want),
        "SIMDCRYPT_DISABLE={value:?}"
    );
    for_each_hash!(env_backend_detected);
    fn env_backend_detected<H: Hash>() {
        let mut want = Features::hardware();
        for n in std::env::var("SIMDCRYPT_DISABLE").unwrap().split(',') {
            match want.without(n) {
                Ok(g) => want = g,
                Err(_) => want = Features::none(),
            }
        }
        env_backend::<H>(want);
    }
}

/// Re-runs `env_mask_matches_detection` in child processes started with masks, so the mask
/// is checked even where CI sets none. Where the test binary cannot start itself (under
/// qemu-user) it says so on stderr and checks nothing more.
#[test]
fn env_mask_in_child_processes() {
    if std::env::var_os("SIMDCRYPT_API_CHILD").is_some() {
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let child = |mask: Option<&std::ffi::OsStr>, args: &[&str]| {
        let mut c = std::process::Command::new(&exe);
        c.args(args).env("SIMDCRYPT_API_CHILD", "1");
        if let Some(m) = mask {
            c.env("SIMDCRYPT_DISABLE", m);
        }
        c.output()
    };
    // Can this binary start itself? Under qemu-user, binfmt_misc may run the child without
    // the runner's `-L` sysroot (it exits 127 before main).
    let probe = child(None, &["--list", "--exact", "env_mask_matches_detection"]);
    let started = probe.as_ref().is_ok_and(|o| {
        o.status.success()
            && String::from_utf8_lossy(&o.stdout).contains("env_mask_matches_detection: test")
    });
    if !started {
        eprintln!(
            "cannot start {} as a child ({:?}); child-process mask test skipped",
            exe.display(),
            probe.map(|o| o.status)
        );
        return;
    }
    // Not UTF-8 (Unix only: elsewhere an OsString cannot hold arbitrary bytes).
    #[cfg(unix)]
    let bad_utf8: std::ffi::OsString =
        std::os::unix::ffi::OsStringExt::from_vec(b"sha,\xff".to_vec());
    #[cfg(unix)]
    {
        let out = child(
            Some(&bad_utf8),
            &["--exact", "env_mask_matches_detection", "--nocapture"],
        )
        .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && stdout.contains("1 passed"),
            "non-UTF-8 SIMDCRYPT_DISABLE: {}\n{stdout}\n{stderr}",
            out.status
        );
        assert!(
            stderr.contains("not valid UTF-8; masking every CPU feature"),
            "no warning for a non-UTF-8 mask: {stderr}"
        );
    }
    for mask in [
        "sha",
        "sha,avx2",
        "avx2",
        "SHA-NI , AVX2",
        "sha1",
        "sha2,sha512",
        "neon",
        "crypto",
        "nonsense,sha",
        "",
    ] {
        let out = child(
            Some(std::ffi::OsStr::new(mask)),
            &["--exact", "env_mask_matches_detection", "--nocapture"],
        )
        .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && stdout.contains("1 passed"),
            "SIMDCRYPT_DISABLE={mask:?}: {}\n{stdout}\n{stderr}",
            out.status
        );
        if mask.contains("nonsense") {
            assert!(
                stderr.contains("unknown CPU feature 'nonsense'; masking every CPU feature"),
                "no warning for an unknown name: {stderr}"
            );
        }
    }
}
