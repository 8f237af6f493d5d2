//! `cargo run --release --example ctx_costs -- examples/probes probe`: the cost of
//! each card of a deck whose cards each repeat one ctx call (or a bit of plain
//! Lua) 1000 times, per repetition (a development aid; `CARD` picks one card,
//! `RUNS` sets how often each card runs).
use std::time::Instant;

use alien_checkers::content::ContentRoot;
use alien_checkers::game::{CardId, GameState};
use alien_checkers::script::ScriptEngine;

/// The binary's allocator, so that the figures match `bench`'s.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let engine = ScriptEngine::load(&ContentRoot::new(&args[1]), &args[2]).unwrap();
    let only = std::env::var("CARD").ok();
    let state = GameState::new(&engine.content().setup(), 1);
    let repeats: u32 = std::env::var("RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(20);
    for (i, card) in engine.content().cards.iter().enumerate() {
        if only.as_ref().is_some_and(|o| *o != card.id) {
            continue;
        }
        let start = Instant::now();
        for _ in 0..repeats {
            let _ = engine.run_card(&state, CardId(i as u16), &[]);
        }
        println!(
            "{:<10} {:>8.0} ns per call",
            card.id,
            start.elapsed().as_nanos() as f64 / (f64::from(repeats) * 1000.0)
        );
    }
}
