//! libFuzzer entry point of the `sha` target; the checks are in `simdcrypt_fuzz::sha`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| simdcrypt_fuzz::sha::run(data));
