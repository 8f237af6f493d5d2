//! The `greedy` baseline: looks one decision ahead.

use std::sync::Arc;

use crate::game::{CardHost, Choice, EndReason, GameState, Step};
use crate::kernel::Player;

use super::Agent;
use super::eval::{Evaluator, Heuristic};
use super::observe::{Determinizer, Observation};
use super::rng::AgentRng;

/// Most answers a card may ask for while the greedy agent completes it at random.
const MAX_COMPLETION: usize = 64;

/// What a planet within one move is worth, in pawns ([`GreedyAgent::planet_in_reach`]).
const PLANET_REACH: f32 = 1.0;

/// Guesses an option is scored over when its player does not know every item
/// (game/items.rs): a face-down card it may land on, the opponent's hand.
const GUESSES: usize = 8;

/// Applies each option to a copy of what it can see and keeps the option whose
/// result scores best for itself (captures, crowning and planet progress all
/// show in the [`Heuristic`]); a win beats everything, a loss is worst. When an
/// answer leaves the card still asking, the rest of the card is answered at
/// random and the result scored. Ties are broken at random. Where items are
/// hidden from it, each option's score is the mean over the same [`GUESSES`]
/// guesses at them ([`Determinizer`]), so a face-down card is neither feared
/// nor counted on more than the cards it may be.
///
/// Its own planet counts twice: by the planet's `progress` hint (in the
/// heuristic), and by the rules themselves — whether, were it its move step
/// now, one of its moves would make the planet hold ([`PLANET_REACH`]). So a
/// planet with a poor hint, or none, is still pursued once it is a move away.
///
/// Like every agent it plays on an [`Observation`], so it never reads hidden
/// information: the opponent's planet is unknown to it and never "holds".
#[derive(Clone)]
pub struct GreedyAgent {
    rng: AgentRng,
    heuristic: Arc<dyn Heuristic>,
}

impl GreedyAgent {
    pub fn new(seed: u64) -> GreedyAgent {
        GreedyAgent::with_heuristic(seed, Arc::new(Evaluator::default()))
    }

    pub fn with_heuristic(seed: u64, heuristic: Arc<dyn Heuristic>) -> GreedyAgent {
        GreedyAgent { rng: AgentRng::new(seed), heuristic }
    }

    /// The value of `state` for `me`: terminal results dominate any score.
    fn value(&self, state: &GameState, me: Player, host: &dyn CardHost) -> f32 {
        match state.outcome() {
            Some(outcome) => match outcome.winner {
                Some(w) if w == me => 1e6,
                Some(_) => -1e6,
                None => 0.0,
            },
            None => {
                let reach = if Self::planet_in_reach(state, me, host) { PLANET_REACH } else { 0.0 };
                self.heuristic.score(state, me, host) + reach
            }
        }
    }

    /// Whether `me` would win by their planet (R9) with one of the moves they
    /// would have were it their move step in `state`, the opponent passing: a
    /// threat found by playing the moves through the rules (R3.4 checks the
    /// planet after the move step), whatever the planet's hint says. Only
    /// between decisions of whole steps (not while a card resolves or a move
    /// hops); the current turn's restriction is left out, as it is not `me`'s.
    fn planet_in_reach(state: &GameState, me: Player, host: &dyn CardHost) -> bool {
        let Some(planet) = state.planet(me) else { return false };
        if !matches!(state.step, Step::Move | Step::Card) || state.hopping.is_some() {
            return false;
        }
        let mut probe = state.clone();
        let position = probe.position_mut();
        position.to_move = me;
        position.step = Step::Move;
        position.moved = None;
        position.constraint = None;
        let Some(decision) = probe.pending(host) else { return false };
        let mut after = probe.clone();
        decision.options.iter().any(|option| {
            after.clone_from(&probe);
            after.apply(host, option).is_ok()
                && after.outcome().is_some_and(|o| o.winner == Some(me) && o.reason == EndReason::Planet(planet))
        })
    }

    /// The states to score each option in: what it sees, or, where items are
    /// hidden from it, [`GUESSES`] guesses at them.
    fn guesses(&mut self, seen: &Observation, host: &dyn CardHost) -> Vec<GameState> {
        let hidden = seen.state().items().is_some_and(|items| items.any_unknown_to(seen.viewer()));
        if !hidden {
            return vec![seen.state().clone()];
        }
        let determinizer = Determinizer::new(seen.clone(), &[], host);
        let mut out = vec![seen.state().clone(); GUESSES];
        for guess in &mut out {
            determinizer.sample(&mut self.rng, guess);
        }
        out
    }

    /// Answers the rest of a card in progress at random (while `me` is asked).
    fn complete(&mut self, state: &mut GameState, host: &dyn CardHost, me: Player) {
        for _ in 0..MAX_COMPLETION {
            if !matches!(state.step, Step::Resolving(_)) {
                return;
            }
            let Some(decision) = state.pending(host) else { return };
            if decision.player != me || decision.options.is_empty() {
                return;
            }
            let pick = &decision.options[self.rng.below(decision.options.len())];
            if state.apply(host, pick).is_err() {
                return;
            }
        }
    }
}

impl Agent for GreedyAgent {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn choose(&mut self, state: &GameState, host: &dyn CardHost) -> Option<Choice> {
        let decision = state.pending(host)?;
        let me = decision.player;
        let mut options = decision.options;
        if options.len() <= 1 {
            return options.pop();
        }
        let seen = Observation::new(state, me);
        let guesses = self.guesses(&seen, host);
        let mut best: Vec<usize> = Vec::new();
        let mut best_value = f32::NEG_INFINITY;
        let mut scratch = seen.state().clone();
        for (i, option) in options.iter().enumerate() {
            let mut total = 0.0;
            let mut scored = 0;
            for guess in &guesses {
                scratch.clone_from(guess);
                if scratch.apply(host, option).is_err() {
                    continue;
                }
                self.complete(&mut scratch, host, me);
                total += self.value(&scratch, me, host);
                scored += 1;
            }
            if scored == 0 {
                continue;
            }
            let value = total / scored as f32;
            if value > best_value {
                best_value = value;
                best.clear();
            }
            if value >= best_value {
                best.push(i);
            }
        }
        // Every option failed (a broken card script): any is as good.
        let pick = if best.is_empty() { self.rng.below(options.len()) } else { best[self.rng.below(best.len())] };
        Some(options.swap_remove(pick))
    }
}
