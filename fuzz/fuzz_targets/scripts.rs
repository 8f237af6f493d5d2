#![no_main]
//! See `alien_checkers_fuzz::scripts`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| alien_checkers_fuzz::scripts(data));
