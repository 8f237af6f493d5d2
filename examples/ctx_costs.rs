//! `cargo run --release --example ctx_costs -- ROOT DECK`: the cost of each card of a
//! deck whose cards each repeat one ctx call 1000 times (a development aid).
use std::time::Instant;

use alien_checkers::content::ContentRoot;
use alien_checkers::game::{CardId, GameState};
use alien_checkers::script::ScriptEngine;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let engine = ScriptEngine::load(&ContentRoot::new(&args[1]), &args[2]).unwrap();
    let state = GameState::new(&engine.content().setup(), 1);
    for (i, card) in engine.content().cards.iter().enumerate() {
        let start = Instant::now();
        for _ in 0..20 {
            let _ = engine.run_card(&state, CardId(i as u16), &[]);
        }
        println!("{:<10} {:>8.0} ns per call", card.id, start.elapsed().as_nanos() as f64 / 20_000.0);
    }
}
