//! `cargo run --release --example run_costs -- ROOT DECK`: the time of one whole
//! resolution of each card's `play` from the deal, answering each question with
//! its first option, and the part up to the first question (a development aid
//! for the script layer's fixed costs; `RUNS` sets the repetitions, `CARD` picks
//! one card; `-- examples/probes probe` with `CARD=nothing` gives a bare run).
use std::time::Instant;

use alien_checkers::content::ContentRoot;
use alien_checkers::game::{CardId, GameState, Resolution};
use alien_checkers::script::ScriptEngine;

/// The binary's allocator, so that the figures match `bench`'s.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let engine = ScriptEngine::load(&ContentRoot::new(&args[1]), &args[2]).unwrap();
    let state = GameState::new(&engine.content().setup(), 1);
    let runs: u32 = std::env::var("RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(20_000);
    let only = std::env::var("CARD").ok();
    for (i, card) in engine.content().cards.iter().enumerate() {
        if only.as_ref().is_some_and(|o| *o != card.id) {
            continue;
        }
        let card_id = CardId(i as u16);
        let (mut questions, mut first) = (0, std::time::Duration::ZERO);
        let start = Instant::now();
        for _ in 0..runs {
            let mut answers = Vec::new();
            let t = Instant::now();
            let mut resolution = engine.run_card(&state, card_id, &answers).resolution;
            first += t.elapsed();
            while let Resolution::Ask(q) = resolution {
                answers.push(q.options[0].clone());
                questions += 1;
                resolution = engine.run_card(&state, card_id, &answers).resolution;
            }
        }
        let each = start.elapsed().as_nanos() as f64 / f64::from(runs);
        let first = first.as_nanos() as f64 / f64::from(runs);
        println!(
            "{:<14} {each:>8.0} ns per resolution, {} questions; {first:.0} ns to the first question or the end",
            card.id,
            questions / runs
        );
    }
}
