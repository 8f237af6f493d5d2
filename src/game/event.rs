//! The game's event stream: what the kernel did to the board ([`BoardEvent`])
//! and what the turn did around it (cards drawn and used, steps skipped,
//! constraints, script messages, the end).
//!
//! Events are plain data, recorded in order by a [`EventLog`] that travels with
//! the state. They are a by-product of applying decisions, not part of the
//! position: the log takes no part in equality, hashing, serialization or the
//! digest, and the same decisions always record the same events. Search keeps
//! the log switched off and pays one branch per change.

use serde::Serialize;

use super::decision::{Answer, CardId, PlanetId, QuestionKind};
use super::state::EndReason;
use crate::kernel::{BoardEvent, Journal, Player, Square};

/// One thing that happened.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(untagged)]
pub enum Event {
    Board(BoardEvent),
    Game(GameEvent),
}

/// Why a step of the turn did not ask anything (R3.1, R3.3).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// R3.1: the player has no legal checker move.
    NoLegalMove,
    /// R3.3: no card is face up.
    NoFaceUpCard,
    /// R3.3, R8.0: no face-up card may be used now (Antimatter waits, R8.19).
    NoPlayableCard,
}

/// What the turn did besides changing the board.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GameEvent {
    /// R3: a new turn; `turn` counts the turns completed before it.
    TurnBegan { turn: u32, player: Player },
    /// R3.2: the top card of the draw pile was turned face up.
    CardDrawn { card: CardId },
    /// The draw pile was made anew and shuffled: from the discards (R3.2) or,
    /// when `everything`, from every card (R8.18).
    Reshuffled { cards: usize, everything: bool },
    /// R8.20: the draw pile was put in a new order (which stays secret).
    DrawPileReordered,
    /// R3.3: the player chose this face-up card.
    CardUsed { card: CardId },
    /// The card resolved and went to the discard pile.
    CardDiscarded { card: CardId },
    /// A card's question had only one possible answer, so it was not asked.
    AnsweredAutomatically { prompt: String, question: QuestionKind, answer: Answer },
    /// A step passed without a decision, and why.
    StepSkipped { step: SkippedStep, reason: SkipReason },
    /// R4.8: a card restricted `player`'s next move to the checkers on `movers`.
    ConstraintSet { card: CardId, player: Player, movers: Vec<Square> },
    /// R4.8: the move kept to the constraint.
    ConstraintMet { card: CardId },
    /// R4.8: no allowed checker could move, so the constraint lapsed.
    ConstraintLapsed { card: CardId },
    /// A lasting effect of this card, made by `owner`, came into force (lasting.rs).
    EffectStarted { card: CardId, owner: Player },
    /// It ended.
    EffectEnded { card: CardId, owner: Player },
    /// A line a script wrote with `ctx:log`.
    Message { text: String },
    /// R10: the game ended; `winner` is `None` for a draw. Both secret planets
    /// are revealed (R10.5), Dark's first.
    GameOver { winner: Option<Player>, reason: EndReason, planets: [Option<PlanetId>; 2] },
}

/// The step a [`GameEvent::StepSkipped`] names.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SkippedStep {
    Move,
    Card,
}

/// The events recorded since the log was last taken, when recording is on.
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    recording: bool,
    events: Vec<Event>,
}

impl EventLog {
    /// A log that records.
    pub fn recording() -> EventLog {
        EventLog { recording: true, events: Vec::new() }
    }

    pub fn is_recording(&self) -> bool {
        self.recording
    }

    /// Records the event `event` makes, if recording (else it is never built).
    pub fn push(&mut self, event: impl FnOnce() -> GameEvent) {
        if self.recording {
            self.events.push(Event::Game(event()));
        }
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Takes the events recorded so far, leaving the log empty (and recording as before).
    pub fn take(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// Appends `later`'s events after this log's.
    pub fn append(&mut self, later: EventLog) {
        self.events.extend(later.events);
    }

    /// A log with the same setting and nothing recorded.
    pub fn empty_like(&self) -> EventLog {
        EventLog { recording: self.recording, events: Vec::new() }
    }
}

impl Journal for EventLog {
    #[inline]
    fn record(&mut self, event: impl FnOnce() -> BoardEvent) {
        if self.recording {
            self.events.push(Event::Board(event()));
        }
    }
}

/// The log is not part of the position: every log equals every other.
impl PartialEq for EventLog {
    fn eq(&self, _: &EventLog) -> bool {
        true
    }
}

impl Eq for EventLog {}

impl std::hash::Hash for EventLog {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}
