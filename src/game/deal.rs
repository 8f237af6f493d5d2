//! The deal's hooks: the deck's own rules in force from the start, and the
//! `game_begins` of the deck's rules, cards and planets (cards/README.md,
//! "At the deal").

use super::data::Data;
use super::lasting::{Affected, DeckRule, Effect, Lasting};
use super::{CardHost, CardId, Cause, GameEvent, GameState, Resolution, Setup};
use crate::kernel::{MoveRules, Player};

impl GameState {
    /// Deals a game ([`GameState::new`]) and runs the deal's hooks
    /// ([`GameState::begin`]).
    pub fn deal(setup: &Setup, seed: u64, host: &dyn CardHost) -> GameState {
        let mut state = GameState::new(setup, seed);
        state.begin(setup, host);
        state
    }

    /// The deck's own rules (`effects:` in its manifest): one lasting effect
    /// for each, for the whole game and both players. Dark, who moves first,
    /// holds them, so that their handlers' `ctx:player()` names someone; a
    /// rule that `acts_for: mover` acts for the player to move instead.
    pub(super) fn put_deck_rules_in_force(&mut self, rules: &[DeckRule]) {
        for &DeckRule { card, acts_for } in rules {
            self.position.effect_serial += 1;
            self.position.effects.push(Effect {
                id: self.position.effect_serial,
                card,
                owner: Player::Dark,
                affects: Affected::Both,
                moves: MoveRules::STANDARD,
                lasts: Lasting::Game,
                made: None,
                data: Data::new(),
                deck: true,
                acts_for,
            });
        }
    }

    /// Runs `game_begins` of the deck's rules, then of its cards in the order
    /// the deck lists them (each card once), then of the planets dealt, Dark's
    /// first. A hook that fails or asks a question is left out and told as a
    /// message (a broken script cannot stop a game from starting); a planet's
    /// failure is not told (it would give the planet away, R2.3). A rule's
    /// `game_begins` runs for Dark whatever it acts for: Dark is to move at
    /// the deal, and no one is asked anything there.
    pub fn begin(&mut self, setup: &Setup, host: &dyn CardHost) {
        let mut cards: Vec<CardId> = Vec::new();
        for card in setup.effects.iter().map(|r| r.card).chain(setup.deck.iter().copied()) {
            if !cards.contains(&card) && host.begins(card) {
                cards.push(card);
            }
        }
        for card in cards {
            let cause = self
                .position
                .effects
                .iter()
                .find(|e| e.deck && e.card == card)
                .map_or(Cause::Card { card }, Effect::cause);
            let scratch = self.scratch(cause);
            let failure = match host.game_begins(&scratch, card) {
                Resolution::Done(after) => {
                    self.commit(*after);
                    // It ended the game (`ctx:end_game`): nothing more begins.
                    if let Some(outcome) = self.outcome() {
                        self.finish_caused(outcome, cause);
                        return;
                    }
                    None
                }
                Resolution::Ask(question) => {
                    Some(format!("asked '{}', but nobody is asked anything at the deal", question.prompt))
                }
                Resolution::Failed(message) => Some(message),
            };
            if let Some(failure) = failure {
                let text = format!("{}'s game_begins is left out: {failure}", host.card_label(card));
                self.journal.push_caused(cause, || GameEvent::Message { text, to: None });
            }
        }
        for player in Player::BOTH {
            if let Some(planet) = self.planet(player)
                && host.planet_begins(planet)
                && let Ok(data) = host.planet_hears(self, planet, player, None)
            {
                self.hidden.planet_data.set(player, data);
            }
        }
    }
}
