//! libFuzzer entry point of the `aes` target; the checks are in `simdcrypt_fuzz::aes`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| simdcrypt_fuzz::aes::run(data));
