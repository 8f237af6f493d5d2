//! `cargo run --release --example profile_games`: where the time of random
//! standard-deck games goes, by kind of decision (a development aid).
use std::time::{Duration, Instant};

use alien_checkers::content::ContentRoot;
use alien_checkers::game::{DecisionKind, GameState};
use alien_checkers::script::ScriptEngine;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

fn main() {
    let engine = ScriptEngine::load(&ContentRoot::discover(), "standard").unwrap();
    let mut pending = [Duration::ZERO; 3];
    let mut apply = [Duration::ZERO; 3];
    let mut counts = [0u32; 3];
    let start = Instant::now();
    let games = 200;
    for seed in 0..games {
        let mut state = GameState::new(&engine.content().setup(), seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        loop {
            let t = Instant::now();
            let Some(d) = state.pending(&engine) else { break };
            let k = match d.kind {
                DecisionKind::Move => 0,
                DecisionKind::Card => 1,
                DecisionKind::Question => 2,
            };
            pending[k] += t.elapsed();
            let pick = d.options[(rng.next_u32() as usize) % d.options.len()].clone();
            let t = Instant::now();
            state.apply(&engine, &pick).unwrap();
            apply[k] += t.elapsed();
            counts[k] += 1;
        }
    }
    println!("{games} games in {:?}", start.elapsed());
    for (k, name) in ["move", "card", "question"].iter().enumerate() {
        let n = counts[k].max(1);
        println!("{name}: {} decisions, pending {:?} each, apply {:?} each", counts[k], pending[k] / n, apply[k] / n);
    }
}
