//! What a player may know, and guesses of what it may not (information sets).
//!
//! Architecture invariant: an agent sees a game only through [`Observation`].
//! Two states that differ only in hidden information (the opponent's planet,
//! R2.3; the order of the draw pile, R2.4; the game generator's seed, which
//! fixes every future shuffle; items the viewer has not seen) give equal observations, so an agent built on
//! them cannot tell them apart and decides the same way.

use crate::game::{CardHost, GameRng, GameState, PlanetId};
use crate::kernel::Player;

use super::rng::AgentRng;

/// A game state with everything `viewer` may not know blanked out: the
/// opponent's planet is `None` and its data empty, the draw pile is sorted by card id, the game
/// generator is reset to a fixed seed, and the items the viewer does not know
/// are put in a fixed order over the places they may be. What remains is public (board, face-up
/// cards, discards, the size of the draw pile, counters, constraints) or the
/// viewer's own (its planet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    state: GameState,
    viewer: Player,
}

impl Observation {
    pub fn new(state: &GameState, viewer: Player) -> Observation {
        let mut state = state.clone();
        *state.hidden_mut() = state.hidden().seen_by(viewer);
        Observation { state, viewer }
    }

    pub fn viewer(&self) -> Player {
        self.viewer
    }

    /// The canonical member of the information set (hidden parts blanked).
    pub fn state(&self) -> &GameState {
        &self.state
    }
}

/// Samples complete states (determinizations) consistent with an observation.
///
/// Each sample shuffles the draw pile, deals the opponent a planet drawn
/// uniformly from the planet deck minus the viewer's own planet and minus any
/// planet whose condition already holds for the opponent (the game would be over,
/// R10.1), gives the game generator a fresh seed, and shuffles the items the
/// viewer does not know among the places they may be (game/items.rs). Nothing
/// else changes.
#[derive(Clone, Debug)]
pub struct Determinizer {
    observation: Observation,
    /// Planets the opponent may hold; empty when planets are off.
    opponent_planets: Vec<PlanetId>,
}

impl Determinizer {
    /// `planet_deck` is the variant's planet deck (R1.6), one entry per copy.
    pub fn new(observation: Observation, planet_deck: &[PlanetId], host: &dyn CardHost) -> Determinizer {
        let viewer = observation.viewer;
        let state = &observation.state;
        let mut candidates = planet_deck.to_vec();
        if let Some(own) = state.planet(viewer)
            && let Some(i) = candidates.iter().position(|&p| p == own)
        {
            candidates.remove(i);
        }
        // A planet that already holds for the opponent would have ended the game.
        let still_possible: Vec<PlanetId> =
            candidates.iter().copied().filter(|&p| !host.planet_holds(state, p, !viewer)).collect();
        let opponent_planets = if state.rules.cards { still_possible } else { Vec::new() };
        Determinizer { observation, opponent_planets }
    }

    pub fn observation(&self) -> &Observation {
        &self.observation
    }

    /// The planets the opponent may hold, as the samples draw them.
    pub fn opponent_planets(&self) -> &[PlanetId] {
        &self.opponent_planets
    }

    /// Overwrites `out` with a fresh determinization. Draws from `rng` only.
    pub fn sample(&self, rng: &mut AgentRng, out: &mut GameState) {
        out.clone_from(&self.observation.state);
        rng.shuffle(&mut out.hidden_mut().piles.draw);
        let opponent = (!self.observation.viewer).index();
        out.hidden_mut().planets[opponent] = match self.opponent_planets.len() {
            0 => None,
            n => Some(self.opponent_planets[rng.below(n)]),
        };
        out.hidden_mut().rng = GameRng::new(rng.next_u64());
        if let Some(items) = &mut out.hidden_mut().items {
            items.guess(self.observation.viewer, &mut |unknown| rng.shuffle(unknown));
        }
    }
}
