//! Lasting effects: what a card's script leaves in force after it resolves
//!. An effect is plain data in the game state — saved, hashed in the
//! digest and replayed like everything else — and while it lasts it changes
//! the move rules through the kernel ([`MoveRules`]), never around it.

use serde::{Deserialize, Serialize};

use super::GameState;
use super::data::{BoundError, Data, check_data};
use super::decision::CardId;
use super::{Cause, EventKind, GameEvent};
use crate::kernel::{MoveRules, Player};

/// Most effects in force at once; a card that would add one more is refused.
pub const MAX_EFFECTS: usize = 16;

/// One lasting effect.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Effect {
    /// Names it for as long as it is in force: 1 for the first effect of a
    /// game, 2 for the next, and so on.
    #[serde(default)]
    pub id: u32,
    /// The card that made it, whose manifest gives its text.
    pub card: CardId,
    /// The player who used the card.
    pub owner: Player,
    /// Whose moves it changes.
    pub affects: Affected,
    /// How it changes them.
    pub moves: MoveRules,
    pub lasts: Lasting,
    /// The turn it was made in (`GameState::turn` then); `None` for one set up
    /// before play (a scenario's scene).
    pub made: Option<u32>,
    /// The effect's own data, which only its handlers change (data.rs).
    #[serde(default, skip_serializing_if = "Data::is_empty")]
    pub data: Data,
    /// Whether it is one of the deck's own rules, in force from the deal
    /// (`effects:` in the deck's manifest), rather than a card's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deck: bool,
    /// For whom its handlers act: whose `ctx:player()` they read and who
    /// answers their questions (cards/README.md, "Acting and asking for the
    /// player concerned").
    #[serde(default, skip_serializing_if = "ActsFor::is_owner")]
    pub acts_for: ActsFor,
}

/// One of a deck's own rules (`effects:` in its manifest): the card whose
/// lasting effect, held by Dark, is in force from the deal, and for whom its
/// handlers act.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct DeckRule {
    pub card: CardId,
    pub acts_for: ActsFor,
}

/// For whom a lasting effect's handlers act.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ActsFor {
    /// Its owner, in every turn (a deck's rule: Dark).
    #[default]
    Owner,
    /// The player whose turn the event happened in (the player to move).
    Mover,
}

impl ActsFor {
    pub fn is_owner(&self) -> bool {
        *self == ActsFor::Owner
    }
}

/// Whose moves an effect changes, from its owner's side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Affected {
    Owner,
    Opponent,
    Both,
}

/// When an effect ends (besides its script ending it, `ctx:end_effect`).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lasting {
    /// After this many more of its owner's turns, counting the turns that begin
    /// after it was made (the turn that made it does not count).
    OwnerTurns(u32),
    /// For the rest of the game.
    Game,
    /// Until the first event of this kind (after its own handler for it, if any).
    Until(EventKind),
}

impl Effect {
    /// The cause of what its handlers do.
    pub fn cause(&self) -> Cause {
        if self.deck {
            Cause::Rule { effect: self.id, card: self.card }
        } else {
            Cause::Effect { effect: self.id, card: self.card }
        }
    }

    /// Whether events of `cause` were caused by this effect's own handlers.
    pub fn caused(&self, cause: &Cause) -> bool {
        matches!(*cause, Cause::Effect { effect, .. } | Cause::Rule { effect, .. } if effect == self.id)
    }

    /// The player its handlers act for while `to_move` is to move: the
    /// `ctx:player()` of a handler run now, who answers its questions.
    pub fn acting_for(&self, to_move: Player) -> Player {
        match self.acts_for {
            ActsFor::Owner => self.owner,
            ActsFor::Mover => to_move,
        }
    }

    pub fn applies_to(&self, player: Player) -> bool {
        match self.affects {
            Affected::Owner => player == self.owner,
            Affected::Opponent => player != self.owner,
            Affected::Both => true,
        }
    }
}

impl GameState {
    /// Puts an effect in force, with the next id; returns the id.
    pub fn add_effect(&mut self, mut effect: Effect) -> Result<u32, BoundError> {
        self.check_new_effect(&effect)?;
        self.position.effect_serial += 1;
        effect.id = self.position.effect_serial;
        self.journal.push(|| GameEvent::EffectStarted { card: effect.card, owner: effect.owner });
        self.journal.watch(true);
        self.position.effects.push(effect);
        Ok(self.position.effect_serial)
    }

    /// Whether `effect` may be put in force now: the bounds every lasting
    /// effect keeps, in play and in a scenario's scene alike.
    pub fn check_new_effect(&self, effect: &Effect) -> Result<(), BoundError> {
        if self.position.effects.len() >= MAX_EFFECTS {
            return Err(BoundError(format!("at most {MAX_EFFECTS} lasting effects can be in force at once")));
        }
        if effect.lasts == Lasting::OwnerTurns(0) {
            return Err(BoundError("a lasting effect must last at least one turn".into()));
        }
        check_data(&effect.data)
    }

    /// Ends the effect `id`, if it is in force.
    pub fn end_effect(&mut self, id: u32) {
        if let Some(i) = self.position.effects.iter().position(|e| e.id == id) {
            let effect = self.position.effects.remove(i);
            self.journal.push(|| GameEvent::EffectEnded { card: effect.card, owner: effect.owner });
        }
    }

    /// At the end of `player`'s turn: each effect counting its owner's turns
    /// counts this one, unless it was made in it, and ends after its last.
    pub(super) fn count_down_effects(&mut self, player: Player) {
        let turn = self.position.turn;
        let mut ended = Vec::new();
        for (i, effect) in self.position.effects.iter_mut().enumerate() {
            if let Lasting::OwnerTurns(left) = &mut effect.lasts
                && effect.owner == player
                && effect.made.is_none_or(|made| made < turn)
            {
                *left -= 1;
                if *left == 0 {
                    ended.push(i);
                }
            }
        }
        for i in ended.into_iter().rev() {
            let effect = self.position.effects.remove(i);
            self.journal.push(|| GameEvent::EffectEnded { card: effect.card, owner: effect.owner });
        }
    }
}

impl super::state::Position {
    /// The move rules for `player` under every effect in force (R4 as written
    /// when there is none).
    #[inline]
    pub fn move_rules(&self, player: Player) -> MoveRules {
        // Squares under blocking markers are closed to every move (cards/README.md, "Markers").
        let marked = MoveRules { closed: self.board.marks().closed(), ..MoveRules::STANDARD };
        self.effects.iter().filter(|e| e.applies_to(player)).fold(marked, |rules, e| rules.with(e.moves))
    }

    pub fn effect(&self, id: u32) -> Option<&Effect> {
        self.effects.iter().find(|e| e.id == id)
    }
}
