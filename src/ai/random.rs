//! The `random` baseline: uniform over the pending options.

use crate::game::{CardHost, Choice, GameState};

use super::Agent;
use super::rng::AgentRng;

/// Picks uniformly among the options of the pending decision.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: AgentRng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent { rng: AgentRng::new(seed) }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, state: &GameState, host: &dyn CardHost) -> Option<Choice> {
        let mut options = state.pending(host)?.options;
        if options.is_empty() {
            return None;
        }
        let i = self.rng.below(options.len());
        Some(options.swap_remove(i))
    }
}
