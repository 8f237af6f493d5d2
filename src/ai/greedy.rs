//! The `greedy` baseline: looks one decision ahead.

use std::sync::Arc;

use crate::game::{CardHost, Choice, GameState, Step};
use crate::kernel::Player;

use super::Agent;
use super::eval::{Evaluator, Heuristic};
use super::observe::Observation;
use super::rng::AgentRng;

/// Most answers a card may ask for while the greedy agent completes it at random.
const MAX_COMPLETION: usize = 64;

/// Applies each option to a copy of what it can see and keeps the option whose
/// result scores best for itself (captures, crowning and planet progress all
/// show in the [`Heuristic`]); a win beats everything, a loss is worst. When an
/// answer leaves the card still asking, the rest of the card is answered at
/// random and the result scored. Ties are broken at random.
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
            None => self.heuristic.score(state, me, host),
        }
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
        let mut best: Vec<usize> = Vec::new();
        let mut best_value = f32::NEG_INFINITY;
        let mut scratch = seen.state().clone();
        for (i, option) in options.iter().enumerate() {
            scratch.clone_from(seen.state());
            if scratch.apply(host, option).is_err() {
                continue;
            }
            self.complete(&mut scratch, host, me);
            let value = self.value(&scratch, me, host);
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
