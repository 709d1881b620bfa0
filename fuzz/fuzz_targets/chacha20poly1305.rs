//! libFuzzer entry point of the `chacha20poly1305` target; the checks are in `simdcrypt_fuzz::chacha20poly1305`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| simdcrypt_fuzz::chacha20poly1305::run(data));
