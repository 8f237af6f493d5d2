//! The integration tests, one test program with a module per area, so that
//! `cargo test --release` links the library into one binary, not one per file.
//! Run one area with `cargo test --release --test it <module>::`.

mod common;

mod ai;
mod asking;
mod content_roots;
mod determinism;
mod endings;
mod events;
mod facade;
mod fuzz_corpora;
mod history;
mod hostile_data;
mod hostile_mods;
mod hostile_scripts;
mod items;
mod metering;
mod mods_remember;
mod move_hooks;
mod one_game;
mod perft;
mod random_play;
mod recall;
mod repl;
mod review;
mod rulings;
mod sandbox;
mod saves;
mod scenarios;
mod script_cache;
mod scripted_games;
mod simulate;
mod spc;
mod terminal;
