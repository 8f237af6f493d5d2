//! `cargo run --release --example profile_search`: `normal`'s search from the
//! positions `bench` uses, for a profiler (a development aid; `SEARCHES` sets
//! how many positions, `DECK` the deck).
use std::time::Instant;

use alien_checkers::ai::{Level, MctsAgent, SearchConfig, search_position};
use alien_checkers::content::ContentRoot;
use alien_checkers::script::ScriptEngine;

/// The binary's allocator, so that the figures match `bench`'s.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let deck = std::env::var("DECK").unwrap_or_else(|_| "standard".into());
    let searches: u64 = std::env::var("SEARCHES").ok().and_then(|g| g.parse().ok()).unwrap_or(40);
    let engine = ScriptEngine::load(&ContentRoot::discover(), &deck).unwrap();
    let setup = engine.content().setup();
    let planets = setup.planets.clone();
    let start = Instant::now();
    let mut iterations = 0u64;
    for seed in 0..searches {
        let state = search_position(&engine, &setup, seed);
        let mut agent = MctsAgent::new(SearchConfig::level(Level::Normal), planets.clone(), seed);
        iterations += agent.search(&state, &engine).map_or(0, |r| r.iterations);
    }
    let secs = start.elapsed().as_secs_f64();
    println!("{iterations} iterations in {secs:.2} s: {:.0} iterations/s", iterations as f64 / secs);
}
