//! libFuzzer entry point of the `chacha20` target; the checks are in `simdcrypt_fuzz::chacha20`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| simdcrypt_fuzz::chacha20::run(data));
