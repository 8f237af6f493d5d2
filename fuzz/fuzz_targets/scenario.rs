#![no_main]
//! See `alien_checkers_fuzz::scenario`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| alien_checkers_fuzz::scenario(data));
