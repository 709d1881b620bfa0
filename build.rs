//! Assembles `asm/<arch>/*.S` with `cc`, from one table.
//!
//! Every row names a file and the target architecture it is for. Symbols in the files carry the
//! `simdcrypt_` prefix so they cannot clash with another crate's (OpenSSL's, ring's) in one
//! binary. Adding an assembly kernel means adding a row here and one `extern "C"` declaration
//! in its Rust wrapper.

/// (target_arch, path under asm/)
const ASM: &[(&str, &str)] = &[
    // ABI test harness (test-only code; see src/abi_test.rs).
    ("x86_64", "x86_64/abi_test.S"),
    ("aarch64", "aarch64/abi_test.S"),
    ("arm", "arm/abi_test.S"),
    // armv7 SHA kernels (src/sha/*/arm.rs).
    ("arm", "arm/sha1_armv8.S"),
    ("arm", "arm/sha256_armv8.S"),
    ("arm", "arm/sha512_neon.S"),
    // x86_64 VAES AES kernels (src/aes/x86_64_vaes.rs).
    ("x86_64", "x86_64/aes_vaes.S"),
    // x86_64 VPCLMULQDQ GHASH kernels (src/ghash/x86_64_vclmul.rs).
    ("x86_64", "x86_64/ghash_vclmul.S"),
    // x86_64 stitched AES-GCM, VAES + VPCLMULQDQ on zmm (src/aead/aes_gcm/x86_64_vaes.rs).
    ("x86_64", "x86_64/aes_gcm_vaes.S"),
    // x86_64 stitched AES-GCM, VAES + VPCLMULQDQ on ymm (src/aead/aes_gcm/x86_64_vaes_avx2.rs).
    ("x86_64", "x86_64/aes_gcm_vaes_avx2.S"),
    // x86_64 AVX-512 ChaCha20 kernel (src/chacha20/x86_64_avx512.rs).
    ("x86_64", "x86_64/chacha_avx512.S"),
    // x86_64 AVX-512 and IFMA Poly1305 loops (src/poly1305/x86_64_avx512.rs).
    ("x86_64", "x86_64/poly1305_avx512.S"),
    // armv7 AES crypto-extension kernel (src/aes/arm.rs).
    ("arm", "arm/aes_armv8.S"),
    // armv7 GHASH kernels: VMULL.P64 and NEON VMULL.P8 (src/ghash/arm.rs).
    ("arm", "arm/ghash_armv8.S"),
    ("arm", "arm/ghash_neon.S"),
    // armv7 NEON ChaCha20 and Poly1305 kernels (src/chacha20/arm.rs, src/poly1305/arm.rs).
    ("arm", "arm/chacha_neon.S"),
    ("arm", "arm/poly1305_neon.S"),
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-check-cfg=cfg(simdcrypt_ctgrind)");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let files: Vec<&str> = ASM
        .iter()
        .filter(|(a, _)| *a == arch)
        .map(|(_, f)| *f)
        .collect();
    for f in ASM {
        println!("cargo:rerun-if-changed=asm/{}", f.1);
    }
    if files.is_empty() {
        return;
    }
    let mut b = cc::Build::new();
    for f in &files {
        b.file(format!("asm/{f}"));
    }
    b.compile("simdcrypt_asm");
}
