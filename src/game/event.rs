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
use super::items::{Face, ItemId, Place, ZoneId};
use super::state::{CounterId, EndReason};
use crate::kernel::{BoardEvent, Journal, Player, Square};

/// One thing that happened.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Event {
    Board(BoardEvent),
    Game(GameEvent),
}

/// What made an event happen. Narration, `replay --events` and handlers read
/// it from the event (cards/README.md, "Events").
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Cause {
    /// The turn itself (R3): its move, its draw, its beginning and end, the
    /// game's end by the board (R10).
    #[default]
    Turn,
    /// The script of `card`, used this turn (R3.3), or its `game_begins` at the deal.
    Card { card: CardId },
    /// The handler of the lasting effect `effect`, which `card` put in force.
    Effect { effect: u32, card: CardId },
    /// The handler of one of the deck's own rules (a lasting effect the deck put
    /// in force from the deal), or its `game_begins`.
    Rule { effect: u32, card: CardId },
    /// A planet's condition held, which ended the game (R9, R10.1).
    Planet { planet: PlanetId },
}

/// An event as the log keeps it: what happened, and what made it happen.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Logged {
    pub cause: Cause,
    #[serde(flatten)]
    pub event: Event,
}

impl Logged {
    pub fn kind(&self) -> EventKind {
        self.event.kind()
    }
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
    /// The deck takes the card step from the first turn (a handicap).
    FirstTurn,
}

/// What the turn did besides changing the board.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GameEvent {
    /// R3: turn number `turn` began (the first turn of the game is 1, as
    /// `ctx:turn()` counts).
    TurnBegan { turn: u32, player: Player },
    /// R3: `player`'s turn, number `turn`, is over (before lasting effects count
    /// it, lasting.rs).
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
    /// `secret_of`: the question was secret (`opts.secret`), so only this
    /// player, who was asked, is told the answer.
    AnsweredAutomatically {
        prompt: String,
        question: QuestionKind,
        answer: Answer,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        secret_of: Option<Player>,
    },
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
    EffectReacted { card: CardId, owner: Player, to: EventKind },
    /// `owner`'s counter grew by `by` to `total` (a card's `ctx:add_counter`, or
    /// the game's own count of emperor captures, R9.4).
    CounterAdded { owner: Player, counter: CounterId, by: u32, total: u32 },
    /// An item went from one place to another (items.rs). `known`: whether
    /// each player, by index, knows which item it is, and may be told.
    ItemMoved {
        item: ItemId,
        from: Place,
        to: Place,
        #[serde(skip)]
        known: [bool; 2],
    },
    /// The item on `at` was turned to `face`.
    ItemTurned {
        at: Square,
        item: ItemId,
        face: Face,
        #[serde(skip)]
        known: [bool; 2],
    },
    /// A zone's items were shuffled.
    ItemsShuffled {
        zone: ZoneId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        owner: Option<Player>,
    },
    /// `to` was shown `item`, where it lies.
    ItemRevealed { item: ItemId, to: Player },
    /// A line a script wrote with `ctx:log`, told to both players, or with
    /// `ctx:tell`, told to `to` only.
    Message {
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<Player>,
    },
    /// R10: the game ended; `winner` is `None` for a draw. Both secret planets
    /// are revealed (R10.5), Dark's first. `also_held` is the loser's own
    /// winning condition when it held at the same check (R10.2: the player
    /// whose turn it is wins).
    GameOver {
        winner: Option<Player>,
        reason: EndReason,
        planets: [Option<PlanetId>; 2],
        #[serde(default, skip_serializing_if = "Option::is_none")]
        also_held: Option<EndReason>,
    },
}

/// Declares [`EventKind`] from one list, each kind once: its variant (named as
/// the [`BoardEvent`] or [`GameEvent`] variant it is the kind of) and its name.
/// Generates the enum, [`EventKind::ALL`], the names and [`Event::kind`], whose
/// matches are exhaustive, so an event without a kind does not compile.
macro_rules! event_kinds {
    (
        $(#[$meta:meta])*
        board { $($board:ident = $board_name:literal,)* }
        game { $($game:ident = $game_name:literal,)* }
    ) => {
        $(#[$meta])*
        pub enum EventKind {
            $($board,)*
            $($game,)*
        }

        impl EventKind {
            /// How many kinds there are.
            const COUNT: usize = [$($board_name,)* $($game_name,)*].len();

            /// Every kind, in the order of [`EventKind::NAMES`].
            pub const ALL: [EventKind; Self::COUNT] = [$(EventKind::$board,)* $(EventKind::$game,)*];

            /// Each kind's name, in the order of the enum.
            const NAMES: [&'static str; Self::COUNT] = [$($board_name,)* $($game_name,)*];
        }

        impl Event {
            /// The event's kind.
            pub fn kind(&self) -> EventKind {
                match self {
                    Event::Board(e) => match e {
                        $(BoardEvent::$board { .. } => EventKind::$board,)*
                    },
                    Event::Game(e) => match e {
                        $(GameEvent::$game { .. } => EventKind::$game,)*
                    },
                }
            }
        }
    };
}

event_kinds! {
    /// Every kind of event, as scripts (`on_<kind>` handlers, `lasts = {ends_at =
    /// kind}`), saves and `replay --events` name it. Its name is written once,
    /// here; the events' serialized `kind` is checked against it (tests/it/events.rs).
    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
    board {
        Moved = "moved",
        Landed = "landed",
        Captured = "captured",
        Removed = "removed",
        Pushed = "pushed",
        Crowned = "crowned",
        MadeEmperor = "made_emperor",
        Revived = "revived",
        TokenPlaced = "token_placed",
        TokenRemoved = "token_removed",
        TerrainPlaced = "terrain_placed",
        TerrainRemoved = "terrain_removed",
        WallsPlaced = "walls_placed",
        WallRemoved = "wall_removed",
        MonolithPlaced = "monolith_placed",
        MonolithMoved = "monolith_moved",
        MonolithBlocked = "monolith_blocked",
        Rotated = "rotated",
        MarkerPlaced = "marker_placed",
        MarkerRemoved = "marker_removed",
        SetAside = "set_aside",
        PutBack = "put_back",
        OwnerChanged = "owner_changed",
    }
    game {
        TurnBegan = "turn_began",
        TurnEnded = "turn_ended",
        CardDrawn = "card_drawn",
        Reshuffled = "reshuffled",
        DrawPileReordered = "draw_pile_reordered",
        CardUsed = "card_used",
        CardDiscarded = "card_discarded",
        AnsweredAutomatically = "answered_automatically",
        StepSkipped = "step_skipped",
        ConstraintSet = "constraint_set",
        ConstraintMet = "constraint_met",
        ConstraintLapsed = "constraint_lapsed",
        EffectStarted = "effect_started",
        EffectEnded = "effect_ended",
        EffectReacted = "effect_reacted",
        CounterAdded = "counter_added",
        ItemMoved = "item_moved",
        ItemTurned = "item_turned",
        ItemsShuffled = "items_shuffled",
        ItemRevealed = "item_revealed",
        Message = "message",
        GameOver = "game_over",
    }
}

impl EventKind {
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The kind called `name`.
    pub fn named(name: &str) -> Option<EventKind> {
        Self::NAMES.iter().position(|n| *n == name).map(|i| Self::ALL[i])
    }

    /// The kind whose name is nearest `name` (for "did you mean").
    pub fn nearest(name: &str) -> Option<EventKind> {
        Self::ALL
            .into_iter()
            .min_by_key(|k| strsim::levenshtein(k.name(), name))
            .filter(|k| strsim::levenshtein(k.name(), name) <= 2)
    }
}

impl std::fmt::Display for EventKind {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for EventKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for EventKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<EventKind, D::Error> {
        let name = String::deserialize(d)?;
        EventKind::named(&name).ok_or_else(|| {
            serde::de::Error::custom(format!("no event is called '{name}' (cards/README.md, \"Events\")"))
        })
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
    /// The cause every event recorded now is given.
    cause: Cause,
    events: Vec<Logged>,
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
            self.events.push(Logged { cause: self.cause, event: Event::Game(event()) });
        }
    }

    /// Records `event` with `cause`, whatever the log's cause is now.
    pub fn push_caused(&mut self, cause: Cause, event: impl FnOnce() -> GameEvent) {
        if self.keeps() {
            self.events.push(Logged { cause, event: Event::Game(event()) });
        }
    }

    pub fn cause(&self) -> Cause {
        self.cause
    }

    /// The events not yet dispatched to handlers, which now count as dispatched
    /// (and, unless recording, are dropped).
    pub(super) fn undispatched(&mut self) -> Vec<Logged> {
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

    pub fn events(&self) -> &[Logged] {
        &self.events
    }

    /// Takes the events recorded so far, leaving the log empty (and recording as before).
    pub fn take(&mut self) -> Vec<Logged> {
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

    /// A log with the same setting and cause and nothing recorded.
    pub fn empty_like(&self) -> EventLog {
        self.empty_caused(self.cause)
    }

    /// A log with the same setting and nothing recorded, for a script's run
    /// whose events all have `cause` (a card, an effect's handler, a deck
    /// rule): a log's cause is given when it is made, never changed.
    pub fn empty_caused(&self, cause: Cause) -> EventLog {
        EventLog { recording: self.recording, watching: self.watching, cause, events: Vec::new(), dispatched: 0 }
    }
}

impl Journal for EventLog {
    #[inline]
    fn record(&mut self, event: impl FnOnce() -> BoardEvent) {
        if self.keeps() {
            self.events.push(Logged { cause: self.cause, event: Event::Board(event()) });
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
