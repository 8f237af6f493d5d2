//! The search's memory of card resolutions (src/ai/recall.rs) must be
//! invisible: a resolution given back from memory for a state that differs
//! from the one it ran on only in what a position leaves out (the draw pile's
//! order, the planets, the game's generator) is exactly what running the card
//! on that state gives. And the engine says a resolution depends on more than
//! the position exactly when the script reads or changes the piles or uses
//! chance (Foresight, R8.20; Reshuffle, R8.18).

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use alien_checkers::ai::Recall;
use alien_checkers::game::{CardHost, Choice, EventLog, GameRng, GameState, Inputs, PlanetId, Resolution};
use alien_checkers::script::ScriptEngine;

use crate::common;
use common::repo;

/// `state` with the hidden parts changed: the draw pile in another order, other
/// planets, another generator.
fn hidden_twin(state: &GameState, rng: &mut ChaCha8Rng, planets: usize) -> GameState {
    let mut twin = state.clone();
    let draw = &mut twin.hidden_mut().piles.draw;
    for i in (1..draw.len()).rev() {
        draw.swap(i, rng.next_u32() as usize % (i + 1));
    }
    for planet in &mut twin.hidden_mut().planets {
        *planet = planet.map(|p| PlanetId(((usize::from(p.0) + 1) % planets) as u16));
    }
    twin.hidden_mut().rng = GameRng::new(rng.next_u64());
    twin
}

/// Applies `choice` to a copy of `state` through `host`: the state after and
/// the events recorded, or the error.
fn applied(
    state: &GameState,
    host: &dyn CardHost,
    choice: &Choice,
) -> Result<(GameState, Vec<alien_checkers::game::Logged>), String> {
    let mut after = state.clone();
    after.apply(host, choice).map_err(|e| e.to_string())?;
    let events = after.journal_mut().take();
    Ok((after, events))
}

#[test]
fn remembered_resolutions_equal_running_the_card_in_another_determinization() {
    for deck in ["standard", "nightmare"] {
        let engine = ScriptEngine::load(&repo(), deck).unwrap();
        let planets = engine.content().planets.len();
        let recall = Recall::new(&engine);
        let (mut compared, mut differing) = (0, 0);
        for seed in 0..24 {
            let mut state = GameState::new(&engine.content().setup(), seed);
            // Half the games record their events, which must come back too.
            if seed % 2 == 1 {
                *state.journal_mut() = EventLog::recording();
            }
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x2eca11);
            while let Some(decision) = state.pending(&engine) {
                let pick = decision.options[rng.next_u32() as usize % decision.options.len()].clone();
                if !matches!(pick, Choice::Move(_)) {
                    // Kept from the state itself, then given back for its twin.
                    assert_eq!(applied(&state, &recall, &pick), applied(&state, &engine, &pick), "{deck} {seed}");
                    let twin = hidden_twin(&state, &mut rng, planets);
                    let fresh = applied(&twin, &engine, &pick);
                    let recalled = applied(&twin, &recall, &pick);
                    assert_eq!(recalled, fresh, "{deck} seed {seed}: {pick:?}");
                    if let (Ok((a, _)), Ok((b, _))) = (&fresh, &applied(&state, &engine, &pick)) {
                        differing += usize::from(a.digest() != b.digest());
                    }
                    compared += 1;
                }
                state.apply(&engine, &pick).unwrap();
                state.journal_mut().take();
            }
        }
        // The comparison means something: many resolutions came from memory,
        // and the twins really played on differently (their draws and planets).
        assert!(compared > 500, "{deck}: {compared} resolutions compared");
        assert!(differing > 100, "{deck}: {differing} twins ended in another state");
        assert!(recall.hits() > 500, "{deck}: {} resolutions from memory", recall.hits());
    }
}

/// Resolves `card` from the deal, answering each question with its first
/// option, and says what the last run depended on (`None`: the card cannot be
/// used there).
fn inputs_of(engine: &ScriptEngine, state: &GameState, card: &str) -> Option<Inputs> {
    let id = engine.content().cards.iter().position(|c| c.id == card).unwrap();
    let card = alien_checkers::game::CardId(id as u16);
    let snapshot = state.card_snapshot(card);
    let mut answers = Vec::new();
    loop {
        match engine.resolve_noting_inputs(&snapshot, card, &answers) {
            (Resolution::Ask(q), _) => answers.push(q.options[0].clone()),
            (Resolution::Done(_), inputs) => return Some(inputs),
            (Resolution::Failed(_), inputs) => {
                assert_eq!(inputs, Inputs::Whole, "a failure is never remembered");
                return None;
            }
        }
    }
}

#[test]
fn only_cards_that_read_the_piles_or_use_chance_depend_on_more_than_the_position() {
    let engine = ScriptEngine::load(&repo(), "standard").unwrap();
    let state = GameState::new(&engine.content().setup(), 7);
    let (mut whole, mut position) = (Vec::new(), 0);
    for card in &engine.content().cards {
        match inputs_of(&engine, &state, &card.id) {
            Some(Inputs::Whole) => whole.push(card.id.as_str()),
            Some(Inputs::Position) => position += 1,
            None => {}
        }
    }
    whole.sort_unstable();
    assert_eq!(whole, ["foresight", "reshuffle"]);
    assert!(position >= 15, "{position} cards resolved from the deal by position");
}
