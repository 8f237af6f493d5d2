//! The host a simulated game runs on: the deck's script engine, seen through
//! two things the simulator needs and the engine does not offer.
//!
//! - **Withholding a card from one player** (ablation): the card is not
//!   playable (R8.0) for that player, so by R3.3 the player uses another
//!   face-up card or skips the step, and the card stays face up for the
//!   opponent. Everything else, the opponent's use of the card included, is the
//!   game as dealt, so a game with the card withheld pairs with the same seed's
//!   game without.
//! - **Whether a resolution changed anything**: every finished resolution the
//!   game commits passes through [`CardHost::resolve`]; the host compares the
//!   state the script ended with against the card-start snapshot it was given
//!   (every field but the generator and the event log) and keeps the answer
//!   for the caller to read after `apply`.

use std::cell::Cell;

use crate::game::{
    Answer, CardHost, CardId, Data, Effect, EventKind, GameError, GameState, Inputs, Logged, PlanetId, Resolution,
};
use crate::kernel::Player;

/// A card a player may not use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Withheld {
    pub card: CardId,
    pub from: Player,
}

pub struct SimHost<'a> {
    inner: &'a dyn CardHost,
    withheld: Option<Withheld>,
    /// Whether the last finished resolution left the state as it was.
    idle: Cell<Option<bool>>,
}

impl<'a> SimHost<'a> {
    pub fn new(inner: &'a dyn CardHost, withheld: Option<Withheld>) -> SimHost<'a> {
        SimHost { inner, withheld, idle: Cell::new(None) }
    }

    /// Forgets the last resolution; call before the `apply` to be watched.
    pub fn watch(&self) {
        self.idle.set(None);
    }

    /// After an `apply`: `Some(true)` when the card resolution it finished
    /// changed nothing, `Some(false)` when it changed something, `None` when it
    /// finished none. (A search between `watch` and the read would mix its own
    /// resolutions in; the simulator reads right after the game's `apply`.)
    pub fn last_idle(&self) -> Option<bool> {
        self.idle.get()
    }
}

/// Whether `after` is `before` in everything but the generator (the event
/// log is never compared). Written as a copy with the generator put back, so
/// that a field added to the state is compared without a change here.
fn unchanged(before: &GameState, after: &GameState) -> bool {
    if after.board != before.board || after.piles() != before.piles() {
        return false;
    }
    let mut after = after.clone();
    after.hidden_mut().rng = *before.rng();
    after == *before
}

impl CardHost for SimHost<'_> {
    fn playable(&self, state: &GameState, card: CardId) -> bool {
        if self.withheld == Some(Withheld { card, from: state.to_move }) {
            return false;
        }
        self.inner.playable(state, card)
    }

    fn resolve(&self, state: &GameState, card: CardId, answers: &[Answer]) -> Resolution {
        let resolution = self.inner.resolve(state, card, answers);
        if let Resolution::Done(after) = &resolution {
            self.idle.set(Some(unchanged(state, after)));
        }
        resolution
    }

    fn resolve_noting_inputs(&self, state: &GameState, card: CardId, answers: &[Answer]) -> (Resolution, Inputs) {
        self.inner.resolve_noting_inputs(state, card, answers)
    }

    fn planet_holds(&self, state: &GameState, planet: PlanetId, player: Player) -> bool {
        self.inner.planet_holds(state, planet, player)
    }

    fn planet_progress(&self, state: &GameState, planet: PlanetId, player: Player) -> f32 {
        self.inner.planet_progress(state, planet, player)
    }

    fn reacts(&self, card: CardId, kind: EventKind) -> bool {
        self.inner.reacts(card, kind)
    }

    fn react(&self, state: &GameState, effect: &Effect, event: &Logged, answers: &[Answer]) -> Resolution {
        self.inner.react(state, effect, event, answers)
    }

    fn begins(&self, card: CardId) -> bool {
        self.inner.begins(card)
    }

    fn game_begins(&self, state: &GameState, card: CardId) -> Resolution {
        self.inner.game_begins(state, card)
    }

    fn planet_listens(&self, planet: PlanetId, kind: Option<EventKind>) -> bool {
        self.inner.planet_listens(planet, kind)
    }

    fn planet_begins(&self, planet: PlanetId) -> bool {
        self.inner.planet_begins(planet)
    }

    fn planet_hears(
        &self,
        state: &GameState,
        planet: PlanetId,
        player: Player,
        event: Option<&Logged>,
    ) -> Result<Data, GameError> {
        self.inner.planet_hears(state, planet, player, event)
    }

    fn card_label(&self, card: CardId) -> String {
        self.inner.card_label(card)
    }

    fn offers_moves(&self, card: CardId) -> bool {
        self.inner.offers_moves(card)
    }

    fn extra_moves(&self, state: &GameState, effect: &Effect) -> Vec<crate::kernel::Move> {
        self.inner.extra_moves(state, effect)
    }

    fn forbids_moves(&self, card: CardId) -> bool {
        self.inner.forbids_moves(card)
    }

    fn forbidden_moves(&self, state: &GameState, effect: &Effect) -> Vec<crate::game::Forbidden> {
        self.inner.forbidden_moves(state, effect)
    }

    fn judges(&self, card: CardId) -> bool {
        self.inner.judges(card)
    }

    fn verdict(
        &self,
        state: &GameState,
        effect: &Effect,
        scored: crate::game::Scored,
    ) -> Result<crate::game::Verdict, String> {
        self.inner.verdict(state, effect, scored)
    }
}
