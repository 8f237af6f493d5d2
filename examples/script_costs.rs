//! `cargo run --release --example script_costs`: the cost of each card's can_play and
//! play and each planet's check, over positions
//! from random standard-deck games. A modder's aid for finding slow scripts.
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use alien_checkers::content::ContentRoot;
use alien_checkers::game::{CardId, Choice, GameState, PlanetId};
use alien_checkers::kernel::Player;
use alien_checkers::script::ScriptEngine;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

fn main() {
    let engine = ScriptEngine::load(&ContentRoot::discover(), "standard").unwrap();
    let content = engine.content();
    let mut positions = Vec::new();
    for seed in 0..20 {
        let mut state = GameState::new(&content.setup(), seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while let Some(d) = state.pending(&engine) {
            if matches!(d.options[0], Choice::Move(_)) {
                positions.push(state.clone());
            }
            let pick = d.options[(rng.next_u32() as usize) % d.options.len()].clone();
            state.apply(&engine, &pick).unwrap();
        }
    }
    let mut costs: BTreeMap<String, Duration> = BTreeMap::new();
    for state in positions.iter().step_by(5) {
        for (i, card) in content.cards.iter().enumerate() {
            let t = Instant::now();
            let _ = engine.can_play(state, CardId(i as u16));
            *costs.entry(format!("can_play {}", card.id)).or_default() += t.elapsed();
            let t = Instant::now();
            let _ = engine.run_card(state, CardId(i as u16), &[]);
            *costs.entry(format!("play {}", card.id)).or_default() += t.elapsed();
        }
        for (i, planet) in content.planets.iter().enumerate() {
            let t = Instant::now();
            let _ = engine.check_planet(state, PlanetId(i as u16), Player::Dark);
            *costs.entry(format!("check {}", planet.id)).or_default() += t.elapsed();
        }
    }
    let n = positions.iter().step_by(5).count() as u32;
    let mut sorted: Vec<_> = costs.into_iter().collect();
    sorted.sort_by_key(|(_, d)| std::cmp::Reverse(*d));
    for (name, d) in sorted {
        println!("{name:<28} {:?} per call", d / n);
    }
}
