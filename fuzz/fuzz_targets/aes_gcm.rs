//! libFuzzer entry point of the `aes_gcm` target; the checks are in `simdcrypt_fuzz::aes_gcm`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| simdcrypt_fuzz::aes_gcm::run(data));
