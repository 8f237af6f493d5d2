//! Card resolutions remembered by position, for the search.
//!
//! Every search iteration replays its tree from the root in a fresh
//! determinization (mcts.rs), so the same card runs again and again with the
//! same answers from the same position, only the hidden parts (the draw pile's
//! order, the opponent's planet, the game's generator) changed. When the host
//! says a resolution depended on the position alone ([`Inputs::Position`]),
//! [`Recall`] keeps it and gives it back for any state with an equal position
//! ([`GameState::same_position`]) without running the script: the state after
//! it is the kept one with the piles, planets and generator of the state it is
//! given (which such a resolution leaves as they were).
//!
//! The events a resolution made (kept while recording, or while lasting
//! effects watch them for their handlers) come back with it: they follow from
//! the position too. Playouts go to the host directly (mcts.rs): their random
//! lines are seldom met again.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use crate::game::{Answer, CardHost, CardId, Effect, GameState, Inputs, PlanetId, Question, Resolution};
use crate::hash::{FxBuild, fx};
use crate::kernel::Player;

/// How many resolutions are kept before the memory starts again (two game
/// states each; a search at `normal` on the standard deck keeps about a thousand).
const CAPACITY: usize = 1 << 14;

/// A [`CardHost`] that remembers `host`'s card resolutions by position.
pub struct Recall<'a> {
    host: &'a dyn CardHost,
    kept: RefCell<HashMap<u64, Box<Kept>, FxBuild>>,
    /// By card, how many of its resolutions in a row could not be kept: from
    /// [`SKIP_AFTER`] on, the card's resolutions are not looked up (Foresight's
    /// and Reshuffle's, which read the piles, never are), only kept if they can be.
    unkept_in_a_row: RefCell<Vec<u8>>,
    /// How many resolutions were given back without running the script.
    hits: Cell<u64>,
}

/// See [`Recall::unkept_in_a_row`].
const SKIP_AFTER: u8 = 8;

/// One remembered resolution: the card, the answers and the position it ran
/// from (the whole snapshot, compared by position), and what it gave.
struct Kept {
    card: CardId,
    answers: Vec<Answer>,
    from: GameState,
    gave: Gave,
}

enum Gave {
    Done(Box<GameState>),
    Ask(Question),
}

impl<'a> Recall<'a> {
    pub fn new(host: &'a dyn CardHost) -> Recall<'a> {
        Recall { host, kept: RefCell::default(), unkept_in_a_row: RefCell::default(), hits: Cell::new(0) }
    }

    /// The host whose resolutions are remembered.
    pub fn host(&self) -> &'a dyn CardHost {
        self.host
    }

    /// How many resolutions were given back without running the script.
    pub fn hits(&self) -> u64 {
        self.hits.get()
    }

    /// The key of a resolution in the map (equal keys are then checked in full).
    fn key(state: &GameState, card: CardId, answers: &[Answer]) -> u64 {
        fx(&(state.position_hash(), card, answers))
    }

    fn lookup(&self, key: u64, state: &GameState, card: CardId, answers: &[Answer]) -> Option<Resolution> {
        let kept = self.kept.borrow();
        let k = kept.get(&key)?;
        if k.card != card
            || k.answers != answers
            || !k.from.same_position(state)
            || !k.from.journal().same_setting(state.journal())
        {
            return None;
        }
        Some(match &k.gave {
            Gave::Ask(question) => Resolution::Ask(question.clone()),
            Gave::Done(after) => {
                let mut after = after.clone();
                after.hidden_mut().clone_from(state.hidden());
                Resolution::Done(after)
            }
        })
    }

    fn keep(&self, key: u64, state: &GameState, card: CardId, answers: &[Answer], resolution: &Resolution) {
        let gave = match resolution {
            Resolution::Done(after) => Gave::Done(after.clone()),
            Resolution::Ask(question) => Gave::Ask(question.clone()),
            Resolution::Failed(_) => return,
        };
        let mut kept = self.kept.borrow_mut();
        if kept.len() >= CAPACITY {
            kept.clear();
        }
        kept.insert(key, Box::new(Kept { card, answers: answers.to_vec(), from: state.clone(), gave }));
    }
}

impl CardHost for Recall<'_> {
    fn playable(&self, state: &GameState, card: CardId) -> bool {
        self.host.playable(state, card)
    }

    fn resolve(&self, state: &GameState, card: CardId, answers: &[Answer]) -> Resolution {
        self.resolve_noting_inputs(state, card, answers).0
    }

    fn resolve_noting_inputs(&self, state: &GameState, card: CardId, answers: &[Answer]) -> (Resolution, Inputs) {
        // A card-start snapshot has no events yet (`GameState::card_snapshot`).
        if !state.journal().events().is_empty() {
            return self.host.resolve_noting_inputs(state, card, answers);
        }
        let index = usize::from(card.0);
        let look = self.unkept_in_a_row.borrow().get(index).is_none_or(|&n| n < SKIP_AFTER);
        let key = look.then(|| Recall::key(state, card, answers));
        if let Some(key) = key
            && let Some(resolution) = self.lookup(key, state, card, answers)
        {
            self.hits.set(self.hits.get() + 1);
            return (resolution, Inputs::Position);
        }
        let (resolution, inputs) = self.host.resolve_noting_inputs(state, card, answers);
        let kept = inputs == Inputs::Position && !matches!(resolution, Resolution::Failed(_));
        if kept {
            let key = key.unwrap_or_else(|| Recall::key(state, card, answers));
            self.keep(key, state, card, answers, &resolution);
        }
        let mut unkept = self.unkept_in_a_row.borrow_mut();
        if unkept.len() <= index {
            unkept.resize(index + 1, 0);
        }
        unkept[index] = if kept { 0 } else { unkept[index].saturating_add(1) };
        (resolution, inputs)
    }

    fn planet_holds(&self, state: &GameState, planet: PlanetId, player: Player) -> bool {
        self.host.planet_holds(state, planet, player)
    }

    fn planet_progress(&self, state: &GameState, planet: PlanetId, player: Player) -> f32 {
        self.host.planet_progress(state, planet, player)
    }

    fn reacts(&self, card: CardId, kind: crate::game::EventKind) -> bool {
        self.host.reacts(card, kind)
    }

    fn react(&self, state: &GameState, effect: &Effect, event: &crate::game::Logged, answers: &[Answer]) -> Resolution {
        self.host.react(state, effect, event, answers)
    }

    fn card_label(&self, card: CardId) -> String {
        self.host.card_label(card)
    }

    fn begins(&self, card: CardId) -> bool {
        self.host.begins(card)
    }

    fn game_begins(&self, state: &GameState, card: CardId) -> Resolution {
        self.host.game_begins(state, card)
    }

    fn planet_listens(&self, planet: PlanetId, kind: Option<crate::game::EventKind>) -> bool {
        self.host.planet_listens(planet, kind)
    }

    fn planet_begins(&self, planet: PlanetId) -> bool {
        self.host.planet_begins(planet)
    }

    fn planet_hears(
        &self,
        state: &GameState,
        planet: PlanetId,
        player: Player,
        event: Option<&crate::game::Logged>,
    ) -> Result<crate::game::Data, crate::game::GameError> {
        self.host.planet_hears(state, planet, player, event)
    }

    fn offers_moves(&self, card: CardId) -> bool {
        self.host.offers_moves(card)
    }

    fn extra_moves(&self, state: &GameState, effect: &Effect) -> Vec<crate::kernel::Move> {
        self.host.extra_moves(state, effect)
    }

    fn forbids_moves(&self, card: CardId) -> bool {
        self.host.forbids_moves(card)
    }

    fn forbidden_moves(&self, state: &GameState, effect: &Effect) -> Vec<crate::game::Forbidden> {
        self.host.forbidden_moves(state, effect)
    }

    fn judges(&self, card: CardId) -> bool {
        self.host.judges(card)
    }

    fn verdict(
        &self,
        state: &GameState,
        effect: &Effect,
        scored: crate::game::Scored,
    ) -> Result<crate::game::Verdict, String> {
        self.host.verdict(state, effect, scored)
    }
}
