//! One script call in progress ([`Run`]) and how `ctx`'s host functions reach
//! it: [`Shared`] (the run, the interned names, the meter) and [`Cx`], with the
//! access every host function goes through (`current` to read the run,
//! `with_run` to work on it).

use std::cell::RefCell;
use std::sync::Arc;

use mlua::{Error as LuaError, Lua};

use crate::game::{Answer, CardId, GameState, Inputs, QuestionKind};
use crate::kernel::{Checker, Player, Square};
use crate::script::memo::Read;
use crate::script::names::Names;
use crate::script::sandbox::SharedMeter;

/// One script call in progress.
pub(super) struct Run {
    /// The scratch state the script reads and changes.
    pub(super) state: GameState,
    /// Who used the card, or whose planet is checked.
    pub(super) user: Player,
    /// What the run is for: what it may do, and whose script it is.
    pub(super) kind: RunKind,
    /// Answers to this card's questions so far, and how many the script has used.
    pub(super) answers: Vec<Answer>,
    pub(super) cursor: usize,
    /// Checkers set aside by `ctx:lift`, to come back before the card ends.
    pub(super) lifted: Vec<(Square, Checker)>,
    /// Lines the script logged.
    pub(super) log: Vec<String>,
    /// The question the run halted at, kept for the same call when it resumes.
    pub(super) halted: Option<Halted>,
    /// For a read-only run that may be remembered, the reads it has made so far
    /// (see memo.rs); `None` once it has called a function the memo cannot replay.
    pub(super) trace: Option<Vec<Read>>,
    /// Whether the run has read or changed more than the position (the piles or
    /// the game's generator): then its resolution cannot be remembered by
    /// position (ai/recall.rs).
    pub(super) inputs: Inputs,
}

/// What a run is for, which decides what its script may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RunKind {
    /// A card's `play`: reads, changes the game and asks.
    Play(CardId),
    /// The handler of the lasting effect `effect`, put in force by `card`
    /// (game/react.rs): as `Play`, and may also read and change its effect.
    Handler { card: CardId, effect: u32 },
    /// A card's `can_play` (R8.0): reads only.
    CanPlay(CardId),
    /// A planet's `check` or `progress` (R9): reads only.
    Planet,
    /// A planet's handler or `game_begins`: reads, and keeps the planet's own
    /// data (`ctx:set_planet_data`), nothing else, so the planet stays secret.
    PlanetHandler(crate::game::PlanetId),
    /// A lasting effect's move hook, `extra_moves` (the moves it offers
    /// beside the kernel's) or `forbid_moves` (those it takes away): reads
    /// only (its effect's data included).
    MoveHook { card: CardId, effect: u32 },
    /// A deck rule's `verdict` on an end the deck scores: reads only (its
    /// effect's data included).
    Verdict { card: CardId, effect: u32 },
}

impl RunKind {
    /// Whether the script may change the game and ask questions.
    pub(super) fn writable(self) -> bool {
        matches!(self, RunKind::Play(_) | RunKind::Handler { .. })
    }

    /// The card whose script runs (none for a planet).
    pub(super) fn card(self) -> Option<CardId> {
        match self {
            RunKind::Play(card)
            | RunKind::Handler { card, .. }
            | RunKind::CanPlay(card)
            | RunKind::MoveHook { card, .. }
            | RunKind::Verdict { card, .. } => Some(card),
            RunKind::Planet | RunKind::PlanetHandler(_) => None,
        }
    }
}

/// What a question call had worked out when it halted. A call halts only to
/// suspend the run (or to end it), and when the run resumes, the same call
/// (same arguments, which no code can change meanwhile) is made again at once:
/// it takes this up instead of parsing its options again.
pub(super) enum Halted {
    /// `ask_square` and the other one-answer questions.
    Ask {
        /// The options table's address.
        table: usize,
        kind: QuestionKind,
        prompt: String,
        /// Parsed, repeats removed, without `none`.
        options: Vec<Answer>,
        /// Whether `none` (nil) is an answer too.
        optional: bool,
    },
    Order(Ordering),
}

/// How far an `ask_order` got before it halted.
pub(super) struct Ordering {
    /// The items table's address.
    pub(super) items: usize,
    pub(super) prompt: String,
    /// Its `opts` (`to`, `secret`), given to each of its questions.
    pub(super) opts: crate::script::convert::QuestionOpts,
    pub(super) total: usize,
    pub(super) left: Vec<Arc<str>>,
    pub(super) order: Vec<Arc<str>>,
    /// The run's cursor when the call began: any other question gives the
    /// answers back as if the call had not been made.
    pub(super) cursor: usize,
}

impl Run {
    /// Notes that the run reads or changes the piles or the game's generator.
    pub(super) fn beyond_position(&mut self) {
        self.inputs = Inputs::Whole;
    }

    /// Takes what the last question call kept when it halted. A call other than
    /// the one it was kept for gets nothing, and an `ask_order`'s answers are
    /// given back.
    pub(super) fn take_halted(&mut self, same: impl FnOnce(&Halted) -> bool) -> Option<Halted> {
        let halted = self.halted.take()?;
        if same(&halted) {
            return Some(halted);
        }
        if let Halted::Order(o) = halted {
            self.cursor = o.cursor;
        }
        None
    }
}

pub(super) type R<T> = mlua::Result<T>;

pub(super) fn err(message: impl Into<String>) -> LuaError {
    LuaError::runtime(message.into())
}

/// A broken bound of the game's (data.rs), as a script error.
pub(super) fn bound(e: crate::game::BoundError) -> LuaError {
    LuaError::runtime(e.0)
}

/// What every host function works with, shared with the engine: the current
/// [`Run`] (set for the length of one script call) and the interned names.
/// Captured by the functions themselves, so reaching them costs no lookup.
pub(super) struct Shared {
    pub(super) run: RefCell<Option<Box<Run>>>,
    pub(super) names: Names,
    /// The run's meter, to mark it halted at a question.
    pub(super) meter: SharedMeter,
    /// The deck's marker kinds' names, by kind index (content/markers.rs).
    pub(super) markers: Vec<String>,
    /// The deck's counters' names, by [`crate::game::CounterId`] (content/counters.rs).
    pub(super) counters: Vec<String>,
    /// The deck's pools' names, the reserve first (content/pools.rs).
    pub(super) pools: Vec<String>,
    /// The deck's victories, by [`crate::game::VictoryId`] (`rules: victories:`).
    pub(super) victories: Vec<String>,
    /// The deck's items and zones, if it has any (content/items.rs).
    pub(super) items: Option<std::sync::Arc<crate::game::Catalogue>>,
}

/// A host function's view while it runs: the Lua state and the [`Shared`] data.
pub(super) struct Cx<'a> {
    pub(super) lua: &'a Lua,
    pub(super) shared: &'a Shared,
}

impl std::ops::Deref for Cx<'_> {
    type Target = Lua;

    fn deref(&self) -> &Lua {
        self.lua
    }
}

pub(super) fn current<T>(cx: &Cx, f: impl FnOnce(&mut Run) -> R<T>) -> R<T> {
    // A metamethod run while a host function reads the run could call ctx again.
    let mut current = cx.shared.run.try_borrow_mut().map_err(|_| err("ctx cannot be used from inside a ctx call"))?;
    let run = current.as_mut().ok_or_else(|| err("ctx can only be used while a card or planet runs"))?;
    f(run)
}

/// Works on the current run. The run can no longer be remembered (memo.rs).
pub(super) fn with_run<T>(lua: &Cx, f: impl FnOnce(&mut Run) -> R<T>) -> R<T> {
    current(lua, |run| {
        run.trace = None;
        f(run)
    })
}

/// Who used the card, or whose planet is checked (part of what a memo is kept for).
pub(super) fn user(lua: &Cx) -> R<Player> {
    current(lua, |run| Ok(run.user))
}
