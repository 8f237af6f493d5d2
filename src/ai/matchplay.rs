//! Whole games between two agents, for benchmarks and `alien-checkers simulate`.

use serde::{Deserialize, Serialize};

use crate::game::{CardHost, GameState, Outcome, Setup};
use crate::kernel::Player;

use super::Agent;
use super::rng::mix_seed;

/// Decisions after which a game is abandoned: far above any real game (R10.4
/// ends games after 200 turns), so only a host that asks forever reaches it.
pub const MAX_DECISIONS: u32 = 100_000;

/// A position a few random decisions into a game of `setup` dealt with
/// `seed`, where the player to move has a choice: where `bench` and the
/// profiling examples time the search.
pub fn search_position(host: &dyn CardHost, setup: &Setup, seed: u64) -> GameState {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::{Rng, SeedableRng};
    let mut state = GameState::deal(setup, seed, host);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xbe4c);
    let mut best = state.clone();
    for _ in 0..(12 + seed % 20) {
        let Some(decision) = state.pending(host) else { break };
        if decision.options.len() > 1 {
            best = state.clone();
        }
        let pick = &decision.options[(rng.next_u32() as usize) % decision.options.len()];
        if state.apply(host, pick).is_err() {
            break;
        }
    }
    best
}

/// Which of the two agents of a match (written `A` and `B`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    A,
    B,
}

impl Side {
    /// The side that plays `colour` when side A plays `a_plays`.
    pub fn playing(colour: Player, a_plays: Player) -> Side {
        if colour == a_plays { Side::A } else { Side::B }
    }

    /// The colour this side plays when side A plays `a_plays`.
    pub fn colour(self, a_plays: Player) -> Player {
        match self {
            Side::A => a_plays,
            Side::B => !a_plays,
        }
    }
}

/// How one game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// The game ended by the rules (R10).
    Over(Outcome),
    /// The game could not go on: every option of a decision was refused (a card
    /// script failed), an agent had no choice to offer, or [`MAX_DECISIONS`] passed.
    Aborted(String),
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The seed the game was dealt with (R2.4).
    pub seed: u64,
    /// The colour agent A played.
    pub a_plays: Player,
    pub end: GameEnd,
    /// Decisions taken (moves, cards and answers).
    pub decisions: u32,
    /// Turns completed (R3).
    pub turns: u32,
    /// Choices the engine refused and the runner replaced by another option.
    pub refused: u32,
}

impl GameRecord {
    /// The side that won; `None` for a draw or an aborted game.
    pub fn winner(&self) -> Option<Side> {
        match &self.end {
            GameEnd::Over(Outcome { winner: Some(w), .. }) => Some(Side::playing(*w, self.a_plays)),
            _ => None,
        }
    }
}

/// The games of a match, in the order played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchResult {
    pub games: Vec<GameRecord>,
}

impl MatchResult {
    pub fn wins(&self, side: Side) -> usize {
        self.games.iter().filter(|g| g.winner() == Some(side)).count()
    }

    pub fn draws(&self) -> usize {
        self.games.iter().filter(|g| matches!(g.end, GameEnd::Over(Outcome { winner: None, .. }))).count()
    }

    pub fn aborted(&self) -> usize {
        self.games.iter().filter(|g| matches!(g.end, GameEnd::Aborted(_))).count()
    }

    /// A's score share: wins count 1, draws 1/2, over games not aborted.
    pub fn score_a(&self) -> f64 {
        let played = self.games.len() - self.aborted();
        if played == 0 {
            return 0.5;
        }
        (self.wins(Side::A) as f64 + 0.5 * self.draws() as f64) / played as f64
    }
}

/// The seed of game `index` of a match seeded `seed`.
pub fn game_seed(seed: u64, index: u32) -> u64 {
    mix_seed(seed, u64::from(index))
}

/// Plays `games` games between `a` and `b` on `setup`, A playing Dark in even
/// games and Light in odd ones; game `i` is dealt with [`game_seed`]`(seed, i)`.
/// Deterministic for given agents, seeds and host, unless an agent has a time limit.
pub fn play_match(
    setup: &Setup,
    host: &dyn CardHost,
    a: &mut dyn Agent,
    b: &mut dyn Agent,
    games: u32,
    seed: u64,
) -> MatchResult {
    let mut result = MatchResult { games: Vec::with_capacity(games as usize) };
    for i in 0..games {
        let a_plays = if i % 2 == 0 { Player::Dark } else { Player::Light };
        let (dark, light): (&mut dyn Agent, &mut dyn Agent) =
            if a_plays == Player::Dark { (&mut *a, &mut *b) } else { (&mut *b, &mut *a) };
        let mut record = play_game(setup, host, dark, light, game_seed(seed, i));
        record.a_plays = a_plays;
        result.games.push(record);
    }
    result
}

/// Plays one game from the deal of `seed`. The record's `a_plays` is Dark.
pub fn play_game(
    setup: &Setup,
    host: &dyn CardHost,
    dark: &mut dyn Agent,
    light: &mut dyn Agent,
    seed: u64,
) -> GameRecord {
    let mut state = GameState::deal(setup, seed, host);
    // Nothing has happened yet for a lasting effect to refuse.
    let _ = state.settle(host);
    let mut record = GameRecord {
        seed,
        a_plays: Player::Dark,
        end: GameEnd::Aborted(String::new()),
        decisions: 0,
        turns: 0,
        refused: 0,
    };
    record.end = loop {
        if let Some(outcome) = state.outcome() {
            break GameEnd::Over(outcome);
        }
        if record.decisions >= MAX_DECISIONS {
            break GameEnd::Aborted(format!("no result after {MAX_DECISIONS} decisions"));
        }
        let Some(decision) = state.pending(host) else {
            break GameEnd::Aborted("no decision is pending but the game is not over".into());
        };
        let chosen = match decision.player {
            Player::Dark => dark.choose(&state, host).ok_or_else(|| dark.name()),
            Player::Light => light.choose(&state, host).ok_or_else(|| light.name()),
        };
        let choice = match chosen {
            Ok(choice) => choice,
            Err(name) => break GameEnd::Aborted(format!("{name} offered no choice")),
        };
        match state.apply_or_fall_back(host, &choice) {
            Ok((_, refused)) => record.refused += refused,
            Err(e) => break GameEnd::Aborted(e.to_string()),
        }
        record.decisions += 1;
    };
    record.turns = state.turn;
    record
}
