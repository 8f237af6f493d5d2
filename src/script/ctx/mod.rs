//! `ctx`: the one object card and planet scripts use to read the game, change it
//! through the kernel's rule-enforcing operations, and ask questions.
//! Documented for modders in cards/README.md; keep the two in step.
//!
//! Registered in three sections, one file each: [`reading`], [`operations`]
//! (including lasting effects and markers) and [`asking`]. Adding a method
//! means one `add` call in its section, with the conversions of convert.rs.
//! Every method works on the current [`Run`] (a scratch copy of the state).

mod asking;
mod operations;
mod reading;

use std::rc::Rc;

use mlua::{Error as LuaError, Lua, Table};

use crate::game::{CardId, CounterId};
use crate::kernel::{Dir, MarkerKind, Square};
use crate::script::convert::{MoveFilter, rule};
use crate::script::run::{Cx, R, Run, RunKind, Shared, err};

/// The card a changing run (`writing`) belongs to.
pub(super) fn acting_card(run: &Run) -> R<CardId> {
    run.kind.card().ok_or_else(|| err("only a card's script can do this"))
}

/// The effect a handler runs for; an error anywhere else.
pub(super) fn handler_effect(run: &Run) -> R<u32> {
    match run.kind {
        RunKind::Handler { effect, .. } => Ok(effect),
        _ => Err(err("only a lasting effect's handler (on_<event>) can read or change its effect")),
    }
}

pub(super) fn counter_id(cx: &Cx, name: &str) -> R<CounterId> {
    let names = &cx.shared.counters;
    names.iter().position(|n| n == name).map(|i| CounterId(i as u8)).ok_or_else(|| {
        err(format!(
            "'{name}' is not a counter of this deck ({}); declare it in a manifest's counters: (cards/README.md, \"Counters\")",
            names.join(", ")
        ))
    })
}

pub(super) fn marker_kind(cx: &Cx, name: &str) -> R<MarkerKind> {
    let names = &cx.shared.markers;
    names.iter().position(|n| n == name).map(|i| MarkerKind(i as u8)).ok_or_else(|| {
        let known = if names.is_empty() { "none".to_string() } else { names.join(", ") };
        err(format!("no marker kind is called '{name}' (this deck declares: {known})"))
    })
}

/// Builds the table of host functions behind every script's `ctx`. Each function
/// ignores its first argument (the script's `ctx`, as in `ctx:checker(sq)`).
/// Every method goes through [`add`], which lifts the memory limit while it runs.
pub(super) fn api_table(lua: &Lua, shared: Rc<Shared>) -> R<Table> {
    let mut builder = ApiBuilder { lua, shared, table: lua.create_table()?, error: None };
    reading::register(&mut builder);
    operations::register(&mut builder);
    asking::register(&mut builder);
    builder.finish()
}

pub(super) struct ApiBuilder<'a> {
    pub(super) lua: &'a Lua,
    pub(super) shared: Rc<Shared>,
    pub(super) table: Table,
    pub(super) error: Option<LuaError>,
}

impl ApiBuilder<'_> {
    pub(super) fn finish(self) -> R<Table> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.table),
        }
    }
}

/// Registers a `ctx` function. While it runs, the Lua memory limit is lifted: with
/// a limit set, mlua guards every allocation made from Rust with a protected call,
/// which made reading the board several times slower. Host functions allocate a
/// bounded amount (at most a few thousand short strings), and the limit is back
/// before any script code runs again, so scripts stay bounded.
pub(super) fn add<A, T, F>(m: &mut ApiBuilder, name: &str, f: F)
where
    A: mlua::FromLuaMulti,
    T: mlua::IntoLuaMulti,
    F: Fn(&Cx, A) -> R<T> + 'static,
{
    let shared = Rc::clone(&m.shared);
    // The first argument is the script's ctx, ignored: taken as a `bool`, the
    // one conversion that reads nothing from it (a `Value` would pin the table).
    let function = m.lua.create_function(move |lua, (_, args): (bool, A)| {
        // Each call is charged to the run's budget; a halted run does nothing
        // more (a script that somehow went on after its stop, which it cannot
        // catch, could not ask or change anything).
        if !shared.meter.borrow_mut().charge_host_call(lua) {
            return Err(LuaError::runtime("the script was stopped"));
        }
        let _unlimited = Unlimited::new(lua);
        let result = f(&Cx { lua, shared: &shared }, args);
        if result.is_err() {
            shared.meter.borrow_mut().charge_host_error();
        }
        result
    });
    match function.and_then(|function| m.table.raw_set(name, function)) {
        Ok(()) => {}
        Err(e) => m.error = Some(e),
    }
}

/// Lifts the memory limit until dropped.
pub(super) struct Unlimited<'a>(&'a Lua);

impl<'a> Unlimited<'a> {
    pub(super) fn new(lua: &'a Lua) -> Unlimited<'a> {
        let _ = lua.set_memory_limit(0);
        Unlimited(lua)
    }
}

impl Drop for Unlimited<'_> {
    fn drop(&mut self) {
        let _ = self.0.set_memory_limit(super::sandbox::MEMORY_LIMIT);
    }
}

/// The legal moves of the card's user under a [`MoveFilter`].
pub(super) fn legal_moves_for(run: &Run, filter: MoveFilter) -> R<Vec<crate::kernel::Move>> {
    let Some(absent) = filter.without else {
        return Ok(run.state.moves_avoiding(run.user, filter.allowed, filter.not_to));
    };
    let mut board = run.state.board;
    rule(board.set_aside(absent, &mut crate::kernel::Unrecorded))?;
    let mut out = Vec::with_capacity(crate::kernel::TYPICAL_MOVES);
    let rules = run.state.move_rules(run.user);
    crate::kernel::legal_moves_avoiding(&board, run.user, filter.allowed, filter.not_to, &rules, &mut out);
    Ok(out)
}

/// The direction from `from` to `to` if `to` is exactly `distance` steps away in a line.
pub(super) fn direction(from: Square, to: Square, distance: i8) -> Option<Dir> {
    let (df, dr) = (to.file() - from.file(), to.rank() - from.rank());
    Dir::ALL.into_iter().find(|d| {
        let (x, y) = d.delta();
        x * distance == df && y * distance == dr
    })
}
