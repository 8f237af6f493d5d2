//! The game's event stream: what the kernel did to the board ([`BoardEvent`])
//! and what the turn did around it (cards drawn and used, steps skipped,
//! constraints, script messages, the end).
//!
//! Events are plain data, recorded in order by a [`EventLog`] that travels with
//! the state. They are a by-product of applying decisions, not part of the
//! position: the log takes no part in equality, hashing, serialization or the
//! digest, and the same decisions always record the same events. Search keeps
//! the log switched off and pays one branch per change.

use serde::{Deserialize, Serialize};

use super::decision::{Answer, CardId, PlanetId, QuestionKind};
use super::state::EndReason;
use crate::kernel::{BoardEvent, Journal, Player, Square};

/// One thing that happened.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Event {
    Board(BoardEvent),
    Game(GameEvent),
}

/// Why a step of the turn did not ask anything (R3.1, R3.3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
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
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GameEvent {
    /// R3: a new turn; `turn` counts the turns completed before it.
    TurnBegan { turn: u32, player: Player },
    /// R3: `player`'s turn is over (before lasting effects count it, lasting.rs).
    TurnEnded { turn: u32, player: Player },
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
    /// R4.8: a card restricted the `constrained` player's next move to the
    /// checkers on `movers`.
    ConstraintSet { card: CardId, constrained: Player, movers: Vec<Square> },
    /// R4.8: the move kept to the constraint.
    ConstraintMet { card: CardId },
    /// R4.8: no allowed checker could move, so the constraint lapsed.
    ConstraintLapsed { card: CardId },
    /// A lasting effect of this card, made by `owner`, came into force (lasting.rs).
    EffectStarted { card: CardId, owner: Player },
    /// It ended.
    EffectEnded { card: CardId, owner: Player },
    /// The effect's script reacted to an event of kind `to` (react.rs); what it
    /// changed follows.
    EffectReacted { card: CardId, owner: Player, to: String },
    /// A line a script wrote with `ctx:log`.
    Message { text: String },
    /// R10: the game ended; `winner` is `None` for a draw. Both secret planets
    /// are revealed (R10.5), Dark's first.
    GameOver { winner: Option<Player>, reason: EndReason, planets: [Option<PlanetId>; 2] },
}

/// Every event kind, as scripts (`on_<kind>` handlers), saves and
/// `replay --events` name them.
pub const EVENT_KINDS: &[&str] = &[
    "moved",
    "captured",
    "removed",
    "pushed",
    "crowned",
    "made_emperor",
    "revived",
    "token_placed",
    "token_removed",
    "terrain_placed",
    "terrain_removed",
    "walls_placed",
    "wall_removed",
    "monolith_placed",
    "monolith_moved",
    "monolith_blocked",
    "rotated",
    "marker_placed",
    "marker_removed",
    "set_aside",
    "put_back",
    "turn_began",
    "turn_ended",
    "card_drawn",
    "reshuffled",
    "draw_pile_reordered",
    "card_used",
    "card_discarded",
    "answered_automatically",
    "step_skipped",
    "constraint_set",
    "constraint_met",
    "constraint_lapsed",
    "effect_started",
    "effect_ended",
    "effect_reacted",
    "message",
    "game_over",
];

impl Event {
    /// The event's kind (one of [`EVENT_KINDS`]).
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Board(e) => match e {
                BoardEvent::Moved { .. } => "moved",
                BoardEvent::Captured { .. } => "captured",
                BoardEvent::Removed { .. } => "removed",
                BoardEvent::Pushed { .. } => "pushed",
                BoardEvent::Crowned { .. } => "crowned",
                BoardEvent::MadeEmperor { .. } => "made_emperor",
                BoardEvent::Revived { .. } => "revived",
                BoardEvent::TokenPlaced { .. } => "token_placed",
                BoardEvent::TokenRemoved { .. } => "token_removed",
                BoardEvent::TerrainPlaced { .. } => "terrain_placed",
                BoardEvent::TerrainRemoved { .. } => "terrain_removed",
                BoardEvent::WallsPlaced { .. } => "walls_placed",
                BoardEvent::WallRemoved { .. } => "wall_removed",
                BoardEvent::MonolithPlaced { .. } => "monolith_placed",
                BoardEvent::MonolithMoved { .. } => "monolith_moved",
                BoardEvent::MonolithBlocked { .. } => "monolith_blocked",
                BoardEvent::Rotated { .. } => "rotated",
                BoardEvent::MarkerPlaced { .. } => "marker_placed",
                BoardEvent::MarkerRemoved { .. } => "marker_removed",
                BoardEvent::SetAside { .. } => "set_aside",
                BoardEvent::PutBack { .. } => "put_back",
            },
            Event::Game(e) => match e {
                GameEvent::TurnBegan { .. } => "turn_began",
                GameEvent::TurnEnded { .. } => "turn_ended",
                GameEvent::CardDrawn { .. } => "card_drawn",
                GameEvent::Reshuffled { .. } => "reshuffled",
                GameEvent::DrawPileReordered => "draw_pile_reordered",
                GameEvent::CardUsed { .. } => "card_used",
                GameEvent::CardDiscarded { .. } => "card_discarded",
                GameEvent::AnsweredAutomatically { .. } => "answered_automatically",
                GameEvent::StepSkipped { .. } => "step_skipped",
                GameEvent::ConstraintSet { .. } => "constraint_set",
                GameEvent::ConstraintMet { .. } => "constraint_met",
                GameEvent::ConstraintLapsed { .. } => "constraint_lapsed",
                GameEvent::EffectStarted { .. } => "effect_started",
                GameEvent::EffectEnded { .. } => "effect_ended",
                GameEvent::EffectReacted { .. } => "effect_reacted",
                GameEvent::Message { .. } => "message",
                GameEvent::GameOver { .. } => "game_over",
            },
        }
    }
}

/// The step a [`GameEvent::StepSkipped`] names.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkippedStep {
    Move,
    Card,
}

/// The events recorded since the log was last taken, when recording is on.
///
/// While lasting effects are in force the log also *watches*: it keeps events
/// even when not recording, until they have been dispatched to the effects'
/// handlers (react.rs), and then drops them. So search, which records nothing,
/// still gives handlers every event, and games without effects build none.
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    recording: bool,
    watching: bool,
    events: Vec<Event>,
    /// How many of `events` have been dispatched to handlers.
    dispatched: usize,
}

impl EventLog {
    /// A log that records.
    pub fn recording() -> EventLog {
        EventLog { recording: true, ..EventLog::default() }
    }

    pub fn is_recording(&self) -> bool {
        self.recording
    }

    /// Whether events are kept for handlers (react.rs).
    pub(super) fn watch(&mut self, on: bool) {
        self.watching = on;
    }

    #[inline]
    fn keeps(&self) -> bool {
        self.recording || self.watching
    }

    /// Records the event `event` makes, if recording (else it is never built).
    pub fn push(&mut self, event: impl FnOnce() -> GameEvent) {
        if self.keeps() {
            self.events.push(Event::Game(event()));
        }
    }

    /// The events not yet dispatched to handlers, which now count as dispatched
    /// (and, unless recording, are dropped).
    pub(super) fn undispatched(&mut self) -> Vec<Event> {
        let fresh = self.events[self.dispatched.min(self.events.len())..].to_vec();
        if self.recording {
            self.dispatched = self.events.len();
        } else {
            self.events.clear();
            self.dispatched = 0;
        }
        fresh
    }

    /// Counts everything recorded so far as dispatched.
    pub(super) fn mark_dispatched(&mut self) {
        if self.recording {
            self.dispatched = self.events.len();
        } else {
            self.events.clear();
            self.dispatched = 0;
        }
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Takes the events recorded so far, leaving the log empty (and recording as before).
    pub fn take(&mut self) -> Vec<Event> {
        self.dispatched = 0;
        std::mem::take(&mut self.events)
    }

    /// Appends `later`'s events after this log's.
    pub fn append(&mut self, later: EventLog) {
        self.events.extend(later.events);
    }

    /// Whether `other` records and watches as this log does.
    pub fn same_setting(&self, other: &EventLog) -> bool {
        (self.recording, self.watching) == (other.recording, other.watching)
    }

    /// A log with the same setting and nothing recorded.
    pub fn empty_like(&self) -> EventLog {
        EventLog { recording: self.recording, watching: self.watching, events: Vec::new(), dispatched: 0 }
    }
}

impl Journal for EventLog {
    #[inline]
    fn record(&mut self, event: impl FnOnce() -> BoardEvent) {
        if self.keeps() {
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
