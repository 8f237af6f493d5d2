//! Whole random games with the shipped decks, every card and planet script live
//!: the kernel's invariants hold after every decision, states
//! round-trip through serde, and the same seed and decisions replay the same game.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use alien_checkers::content::ContentRoot;
use alien_checkers::game::{Choice, EventLog, GameState, Step};
use alien_checkers::kernel::{Dir, Move, Totals};
use alien_checkers::script::ScriptEngine;

fn engine(deck: &str) -> ScriptEngine {
    ScriptEngine::load(&ContentRoot::new(env!("CARGO_MANIFEST_DIR")), deck).unwrap_or_else(|p| panic!("{p}"))
}

fn check_invariants(state: &GameState, totals: &Totals) {
    state.board.check_conservation(totals).unwrap_or_else(|e| panic!("turn {}: {e}", state.turn));
    // The quick test the turn uses to skip a move step agrees with the list.
    assert_eq!(state.has_kernel_move(), !state.kernel_moves().is_empty(), "turn {}", state.turn);
    // So does the check a move choice gets, on every listed move and on near
    // misses: a step or a single jump from each of the mover's checkers in each
    // diagonal, and the first jump of each listed chain.
    if state.step == Step::Move {
        let legal = state.kernel_moves();
        let mut candidates = legal.clone();
        for from in state.board.checkers(state.to_move) {
            for d in Dir::DIAGONALS {
                let Some(to) = from.step(d) else { continue };
                candidates.push(Move::step(from, to));
                if let Some(land) = to.step(d) {
                    candidates.extend(Move::from_text(&format!("{from}x{land}").parse().unwrap()));
                }
            }
        }
        for mv in legal.iter().filter(|m| m.is_jump()) {
            let first = mv.landings().next().unwrap();
            candidates.extend(Move::from_text(&format!("{}x{first}", mv.from()).parse().unwrap()));
        }
        for mv in &candidates {
            assert_eq!(state.is_kernel_move(mv), legal.contains(mv), "turn {}: {mv}", state.turn);
        }
    }
}

/// Plays one random game; returns the decisions and the final state.
fn random_game(engine: &ScriptEngine, seed: u64, check_each_step: bool) -> (Vec<Choice>, GameState) {
    let mut state = GameState::new(&engine.content().setup(), seed);
    let totals = state.board.totals();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut decisions = Vec::new();
    while let Some(decision) = state.pending(engine) {
        assert!(!decision.options.is_empty(), "a pending decision always has options");
        let index = (rng.next_u32() as usize) % decision.options.len();
        let pick = decision.options[index].clone();
        // The search's way to one option (`pending_option`) finds the same.
        let mut counted = 0;
        let alone = state.pending_option(engine, |n| {
            counted = n;
            index
        });
        assert_eq!((alone.as_ref(), counted), (Some(&pick), decision.options.len()), "seed {seed}");
        if state.step == Step::Move {
            let first_captures = state.kernel_moves().first().is_some_and(|m| m.is_jump());
            assert_eq!(state.kernel_capture_due(), first_captures, "seed {seed}, turn {}", state.turn);
        }
        if let Err(e) = state.apply(engine, &pick) {
            panic!("seed {seed}, turn {}: offered option {pick} failed: {e}", state.turn);
        }
        decisions.push(pick);
        if check_each_step {
            check_invariants(&state, &totals);
        }
        assert!(decisions.len() < 20_000, "seed {seed}: the game ends");
    }
    assert!(matches!(state.step, Step::Over(_)));
    assert!(state.turn <= state.rules.move_limit);
    (decisions, state)
}

#[test]
fn random_standard_games_keep_every_invariant() {
    let engine = engine("standard");
    let mut cards_used = 0;
    for seed in 0..60 {
        let (decisions, state) = random_game(&engine, seed, true);
        cards_used += decisions.iter().filter(|c| matches!(c, Choice::Card(_))).count();
        let json = serde_json::to_string(&state).unwrap();
        assert_eq!(serde_json::from_str::<GameState>(&json).unwrap(), state);
    }
    assert!(cards_used > 60 * 10, "cards were really played: {cards_used}");
}

/// lasting effects, triggers and markers in play keep the kernel's
/// invariants after every decision, and the games really use them.
#[test]
fn random_nightmare_games_keep_every_invariant() {
    let engine = engine("nightmare");
    let mut reacted = 0;
    for seed in 0..40 {
        let mut state = GameState::new(&engine.content().setup(), seed);
        *state.journal_mut() = EventLog::recording();
        let totals = state.board.totals();
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x4e16);
        while let Some(decision) = state.pending(&engine) {
            let pick = decision.options[(rng.next_u32() as usize) % decision.options.len()].clone();
            state.apply(&engine, &pick).unwrap_or_else(|e| panic!("seed {seed}, turn {}: {pick}: {e}", state.turn));
            check_invariants(&state, &totals);
            reacted += state
                .journal_mut()
                .take()
                .iter()
                .filter(|e| e.kind() == alien_checkers::game::EventKind::EffectReacted)
                .count();
        }
        let json = serde_json::to_string(&state).unwrap();
        assert_eq!(serde_json::from_str::<GameState>(&json).unwrap(), state);
    }
    assert!(reacted > 20, "triggers really ran: {reacted} reactions in 40 games");
}

#[test]
fn every_shipped_deck_plays_to_the_end() {
    let root = ContentRoot::new(env!("CARGO_MANIFEST_DIR"));
    for deck in root.deck_names() {
        let engine = engine(&deck);
        for seed in 0..10 {
            random_game(&engine, 1000 + seed, true);
        }
    }
}

#[test]
fn same_seed_and_decisions_replay_the_same_game() {
    for (deck, seed) in [("standard", 3), ("standard", 17), ("standard", 42), ("nightmare", 5), ("nightmare", 9)] {
        let engine = engine(deck);
        let (decisions, end) = random_game(&engine, seed, false);
        let mut replay = GameState::new(&engine.content().setup(), seed);
        let mut digests = Vec::new();
        for choice in &decisions {
            replay.apply(&engine, choice).unwrap();
            digests.push(replay.digest());
        }
        assert_eq!(replay, end);
        // A state saved mid-game and restored continues identically.
        let mut mid = GameState::new(&engine.content().setup(), seed);
        let half = decisions.len() / 2;
        for choice in &decisions[..half] {
            mid.apply(&engine, choice).unwrap();
        }
        let mut restored: GameState = serde_json::from_str(&serde_json::to_string(&mid).unwrap()).unwrap();
        for (i, choice) in decisions[half..].iter().enumerate() {
            restored.apply(&engine, choice).unwrap();
            assert_eq!(restored.digest(), digests[half + i]);
        }
    }
}
