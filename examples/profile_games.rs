//! `cargo run --release --example profile_games`: where the time of random
//! standard-deck games goes, by kind of decision (a development aid).
use std::time::{Duration, Instant};

use alien_checkers::content::ContentRoot;
use alien_checkers::game::{DecisionKind, GameState};
use alien_checkers::script::ScriptEngine;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// The binary's allocator, so that the figures match `bench`'s.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let deck = std::env::var("DECK").unwrap_or_else(|_| "standard".into());
    let engine = ScriptEngine::load(&ContentRoot::discover(), &deck).unwrap();
    let mut pending = [Duration::ZERO; 3];
    let mut apply = [Duration::ZERO; 3];
    let mut counts = [0u32; 3];
    let mut by_card = vec![(Duration::ZERO, 0u32, 0u32); engine.content().cards.len()];
    let mut current = None;
    let start = Instant::now();
    let games: u64 = std::env::var("GAMES").ok().and_then(|g| g.parse().ok()).unwrap_or(200);
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
            if let alien_checkers::game::Choice::Card(c) = pick {
                current = Some(usize::from(c.0));
                by_card[usize::from(c.0)].1 += 1;
            }
            state.apply(&engine, &pick).unwrap();
            let spent = t.elapsed();
            apply[k] += spent;
            if let (Some(c), 1 | 2) = (current, k) {
                by_card[c].0 += spent;
                by_card[c].2 += u32::from(k == 2);
            }
            if k == 0 {
                current = None;
            }
            counts[k] += 1;
        }
    }
    println!("{games} games in {:?}", start.elapsed());
    for (k, name) in ["move", "card", "question"].iter().enumerate() {
        let n = counts[k].max(1);
        println!("{name}: {} decisions, pending {:?} each, apply {:?} each", counts[k], pending[k] / n, apply[k] / n);
    }
    let mut rows: Vec<_> = engine.content().cards.iter().zip(&by_card).collect();
    rows.sort_by_key(|(_, (t, _, _))| std::cmp::Reverse(*t));
    for (card, (spent, uses, answers)) in rows {
        println!(
            "{:<14} {:>6.1} µs per game, {:>5.2} uses per game, {:>6.1} µs per use, {:>5.1} answers per use",
            card.id,
            spent.as_secs_f64() * 1e6 / games as f64,
            f64::from(*uses) / games as f64,
            spent.as_secs_f64() * 1e6 / f64::from((*uses).max(1)),
            f64::from(*answers) / f64::from((*uses).max(1))
        );
    }
}
