//! libFuzzer entry point of the `hmac_hkdf` target; the checks are in `simdcrypt_fuzz::hmac_hkdf`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| simdcrypt_fuzz::hmac_hkdf::run(data));
