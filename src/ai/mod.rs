//! The computer opponent and its baselines.
//!
//! Every agent drives the engine's one decision loop (ARCHITECTURE.md invariant
//! 2): it is shown a state whose decision is pending and returns one of the
//! pending options, be it a checker move, a card to use or an answer to any
//! question a card asks. No agent has per-card code, so a new card or a new
//! kind of question needs no change here.
//!
//! Architecture invariant: agents never read hidden information. They look at
//! a game only through [`Observation`], which blanks the opponent's planet
//! (R2.3), the order of the draw pile and the game generator's seed (R2.4).
//!
//! - [`RandomAgent`]: uniform over the options (the `random` baseline).
//! - [`GreedyAgent`]: one decision ahead, scored by a [`Heuristic`] (`greedy`).
//! - [`MctsAgent`]: information-set Monte Carlo tree search, at a [`Level`].
//! - [`play_match`]: games between two agents, colours alternated.

mod agents;
mod alphabeta;
mod eval;
mod greedy;
mod matchplay;
mod mcts;
mod observe;
mod pool;
mod random;
mod recall;
mod rng;

pub use agents::{AGENTS, AgentSpec, Budget, make_agent};
pub use alphabeta::{
    AlphaBeta, DRAW_NODES, Found, Limit, Tactics, WIN, dead_draw, evaluate, fully_visible, position_key,
};
pub use eval::{Evaluator, Heuristic, Terms, Weights, expected_result};
pub use greedy::GreedyAgent;
pub use matchplay::{
    GameEnd, GameRecord, MAX_DECISIONS, MatchResult, Side, game_seed, play_game, play_match, search_position,
};
pub use mcts::{Exact, HARD_NODES, Level, MctsAgent, NORMAL_NODES, RootStat, SearchConfig, SearchReport};
pub use observe::{Determinizer, Observation};
pub use pool::HostFactory;
pub use random::RandomAgent;
pub use recall::Recall;
pub use rng::{AgentRng, mix_seed};

use crate::game::{CardHost, Choice, GameState};
use crate::kernel::Player;

/// Whether the computer playing `player` accepts a draw offered in `state`:
/// when the built-in evaluation of the position, from its own side, is even
/// or worse (<= 0 pawns), or when the search says the position is a dead
/// draw ([`dead_draw`]: a level ending neither side can win by force).
pub fn accepts_draw(state: &GameState, host: &dyn CardHost, player: Player) -> bool {
    Evaluator::new(Weights::STANDARD).score(state, player, host) <= 0.0 || dead_draw(state)
}

/// A player of the game that a program decides for. (`Player` is the kernel's
/// Dark/Light.)
pub trait Agent {
    /// A short name for reports, such as `random` or `mcts(1500 iterations)`.
    fn name(&self) -> String;

    /// One of the options of `state.pending(host)`, chosen for the player who
    /// decides; `None` when nothing is pending (the game is over) or the
    /// decision has no option. Reads only what that player may know.
    fn choose(&mut self, state: &GameState, host: &dyn CardHost) -> Option<Choice>;
}
