//! The resume accelerator (see mod.rs): a card run stopped at a question keeps
//! its coroutine suspended, with the card-start snapshot and the answers so far;
//! when the next card run is the same card from an equal snapshot with those
//! answers and one more, the coroutine is resumed instead of running the script
//! from the start. Also the one spare coroutine that finished runs leave.

use std::cell::RefCell;

use mlua::{Function, Lua, Thread};

use super::run::Run;
use crate::game::{Answer, CardId, GameState};

/// A card run stopped at a question, its coroutine suspended at the `ask`.
pub(super) struct Suspended {
    pub(super) card: CardId,
    /// The card-start snapshot the run began from.
    pub(super) snapshot: Box<GameState>,
    pub(super) thread: Thread,
    /// The run as the question left it; `run.answers` are the answers given so far.
    pub(super) run: Box<Run>,
    /// Instructions used so far (the budget covers the whole run, as if run afresh).
    pub(super) used: u64,
}

impl Suspended {
    /// Whether running `card` from `state` with `answers` continues this run.
    fn continues(&self, state: &GameState, card: CardId, answers: &[Answer]) -> bool {
        self.card == card
            && answers.len() == self.run.answers.len() + 1
            && answers[..self.run.answers.len()] == self.run.answers[..]
            && *state == *self.snapshot
            // Equal states may differ in whether they record events (game/event.rs).
            && state.journal().is_recording() == self.snapshot.journal().is_recording()
    }
}

/// The coroutines of card runs: the last suspended run and a spare.
#[derive(Default)]
pub(super) struct Coroutines {
    /// The last card run, if it stopped at a question and no script ran since.
    suspended: RefCell<Option<Suspended>>,
    /// A finished card-run coroutine, reset and ready for the next run.
    spare: RefCell<Option<Thread>>,
}

impl Coroutines {
    /// The suspended run, if running `card` from `state` with `answers` continues
    /// it; it is dropped otherwise.
    pub(super) fn continuing(&self, state: &GameState, card: CardId, answers: &[Answer]) -> Option<Suspended> {
        self.suspended.borrow_mut().take().filter(|s| s.continues(state, card, answers))
    }

    pub(super) fn suspend(&self, suspended: Suspended) {
        *self.suspended.borrow_mut() = Some(suspended);
    }

    /// Drops the suspended run (any other script run ends it: runs can no
    /// longer affect one another then).
    pub(super) fn forget(&self) {
        self.suspended.borrow_mut().take();
    }

    /// A coroutine for a new card run, starting at the prelude's `body`.
    pub(super) fn thread(&self, lua: &Lua, body: &Function) -> mlua::Result<Thread> {
        match self.spare.borrow_mut().take() {
            Some(thread) => Ok(thread),
            None => lua.create_thread(body.clone()),
        }
    }

    /// Keeps a finished coroutine for the next run.
    pub(super) fn recycle(&self, thread: Thread, body: &Function) {
        if thread.reset(body.clone()).is_ok() {
            *self.spare.borrow_mut() = Some(thread);
        }
    }
}
