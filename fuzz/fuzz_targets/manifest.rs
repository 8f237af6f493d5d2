#![no_main]
//! See `alien_checkers_fuzz::manifest`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| alien_checkers_fuzz::manifest(data));
