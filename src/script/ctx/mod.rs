//! `ctx`: the one object card and planet scripts use to read the game, change it
//! and ask questions — a typed facade between scripts and the game state.
//!
//! Each method is declared once, as one of three kinds ([`Access`]), by the
//! function that registers it:
//! - [`query`]: a function of the state (`&GameState`, never `&mut`). The
//!   facade records each read for the memo of read-only runs (memo.rs) by
//!   running the same function again on a later state, and marks a run that
//!   reads the piles or the generator as reading beyond the position
//!   ([`Sees::Hidden`]), so the search's memory (ai/recall.rs) leaves it alone;
//! - [`operation`]: changes the game through a `GameState` or kernel operation
//!   that records its events; refused in the runs that may only read;
//! - [`question`]: asks the player (questions.rs); the prelude suspends the run
//!   there.
//!
//! From the declarations come the Lua binding, what a run read, the prelude's
//! wrapping ([`Shape`]) and the reference tables of cards/README.md, which a
//! test compares with [`ScriptEngine::ctx_methods`](crate::script::ScriptEngine::ctx_methods).

mod asking;
mod items;
mod operations;
mod reading;

use std::rc::Rc;

use mlua::{Error as LuaError, Lua, Table};

use crate::game::{CardId, CounterId, GameState};
use crate::kernel::{Dir, MarkerKind, Player, Square};
use crate::script::convert::{MoveFilter, rule};
use crate::script::memo::{MAX_READS, Read};
use crate::script::run::{Cx, R, Run, RunKind, Shared, current, err};

/// How a `ctx` method reaches the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    Query,
    Operation,
    Question,
}

/// What a query or operation may read, declared with it: `Sees::Position`
/// (the [`crate::game::Position`] alone) or `Sees::Hidden` (the whole state,
/// the [`crate::game::Hidden`] part included, which the search determinizes).
/// A query is given only what its sight allows, so one that reads hidden data
/// without declaring `Sees::Hidden` does not compile.
#[allow(non_snake_case)]
pub(super) mod Sees {
    /// Reads the position only.
    pub struct Position;
    /// Reads the hidden part too.
    pub struct Hidden;
}

/// A declared sight: the part of the state it gives a query.
pub(super) trait Sight: 'static {
    type Part: ?Sized + 'static;
    /// Whether it reads beyond the position (then a resolution that used it
    /// cannot be remembered by position, ai/recall.rs).
    const HIDDEN: bool;
    fn part(state: &GameState) -> &Self::Part;
}

impl Sight for Sees::Position {
    type Part = crate::game::Position;
    const HIDDEN: bool = false;
    fn part(state: &GameState) -> &crate::game::Position {
        state.position()
    }
}

impl Sight for Sees::Hidden {
    type Part = GameState;
    const HIDDEN: bool = true;
    fn part(state: &GameState) -> &GameState {
        state
    }
}

/// Which runs an operation is allowed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Runs {
    /// A card's `play`, `game_begins` and its effects' handlers.
    Cards,
    /// A planet's handlers and `game_begins` (its own data only).
    PlanetHandlers,
    /// Every run (`ctx:log`).
    Any,
}

/// How the prelude hands a method's result to the script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    Plain,
    /// Six values of one checker, made into `{square, owner, kind, …}` in Lua.
    Checker,
    /// Six values per checker in one list, made into such tables in Lua.
    Checkers,
    /// A question: the run is suspended while the answer is awaited.
    Question,
}

impl Shape {
    fn name(self) -> Option<&'static str> {
        match self {
            Shape::Plain => None,
            Shape::Checker => Some("checker"),
            Shape::Checkers => Some("checkers"),
            Shape::Question => Some("question"),
        }
    }
}

/// The card a changing run belongs to.
pub(super) fn acting_card(run: &Run) -> R<CardId> {
    run.kind.card().ok_or_else(|| err("only a card's script can do this"))
}

/// The effect a handler runs for; an error anywhere else.
pub(super) fn handler_effect(run: &Run) -> R<u32> {
    match run.kind {
        RunKind::Handler { effect, .. } | RunKind::MoveHook { effect, .. } | RunKind::Verdict { effect, .. } => {
            Ok(effect)
        }
        _ => Err(err(
            "only a lasting effect's handler (on_<event>), extra_moves, forbid_moves or verdict can read its effect",
        )),
    }
}

/// What the current run is for.
pub(super) fn run_kind(cx: &Cx) -> R<RunKind> {
    current(cx, |run| Ok(run.kind))
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

pub(super) fn pool_index(cx: &Cx, name: &str) -> R<usize> {
    let names = &cx.shared.pools;
    names.iter().position(|n| n == name).ok_or_else(|| {
        err(format!(
            "'{name}' is not a pool of this deck ({}); a deck names its pools in rules: pools:",
            names.join(", ")
        ))
    })
}

/// The deck's victory called `name` (`rules: victories:`).
pub(super) fn victory_id(cx: &Cx, name: &str) -> R<crate::game::VictoryId> {
    victory_named(&cx.shared.victories, name).map_err(err)
}

/// The victory called `name` among `victories`, or why there is none.
pub(super) fn victory_named(victories: &[String], name: &str) -> Result<crate::game::VictoryId, String> {
    match victories.iter().position(|v| v == name) {
        Some(i) => Ok(crate::game::VictoryId(i as u8)),
        None if victories.is_empty() => Err(format!(
            "'{}' is not one of the deck's victories: this deck declares none (rules: victories:, cards/README.md, \"Endings as deck rules\")",
            crate::text::visible(name)
        )),
        None => Err(format!(
            "'{}' is not one of the deck's victories ({})",
            crate::text::visible(name),
            victories.join(", ")
        )),
    }
}

pub(super) fn marker_kind(cx: &Cx, name: &str) -> R<MarkerKind> {
    let names = &cx.shared.markers;
    names.iter().position(|n| n == name).map(|i| MarkerKind(i as u8)).ok_or_else(|| {
        let known = if names.is_empty() { "none".to_string() } else { names.join(", ") };
        err(format!("no marker kind is called '{name}' (this deck declares: {known})"))
    })
}

/// The `ctx` API as built: the table of host functions, and each method's
/// declaration.
pub(super) struct Api {
    pub(super) table: Table,
    /// How the prelude wraps the methods that are not plain: name → shape.
    pub(super) shapes: Table,
    pub(super) methods: Vec<(&'static str, Access)>,
}

/// Builds the table of host functions behind every script's `ctx`. Each function
/// ignores its first argument (the script's `ctx`, as in `ctx:checker(sq)`).
pub(super) fn api(lua: &Lua, shared: Rc<Shared>) -> R<Api> {
    let mut builder = ApiBuilder { lua, shared, table: lua.create_table()?, methods: Vec::new(), error: None };
    reading::register(&mut builder);
    operations::register(&mut builder);
    asking::register(&mut builder);
    items::register(&mut builder);
    if let Some(e) = builder.error {
        return Err(e);
    }
    let shapes = lua.create_table()?;
    for (name, _, shape) in &builder.methods {
        if let Some(shape) = shape.name() {
            shapes.raw_set(*name, shape)?;
        }
    }
    let methods = builder.methods.iter().map(|(name, access, _)| (*name, *access)).collect();
    Ok(Api { table: builder.table, shapes, methods })
}

pub(super) struct ApiBuilder<'a> {
    lua: &'a Lua,
    shared: Rc<Shared>,
    table: Table,
    methods: Vec<(&'static str, Access, Shape)>,
    error: Option<LuaError>,
}

/// Declares a query: `parse` reads the arguments, `eval` reads the state
/// (the same function answers again when the memo checks the read, memo.rs),
/// `out` makes the Lua value.
pub(super) fn query<S: Sight, A, Q, T, V>(
    m: &mut ApiBuilder,
    name: &'static str,
    sees: S,
    parse: impl Fn(&Cx, A) -> R<Q> + 'static,
    eval: fn(&S::Part, Player, &Q) -> T,
    out: impl Fn(&Cx, T) -> R<V> + 'static,
) where
    A: mlua::FromLuaMulti,
    Q: Clone + 'static,
    T: PartialEq + Clone + 'static,
    V: mlua::IntoLuaMulti,
{
    shaped_query(m, name, sees, Shape::Plain, parse, eval, out);
}

/// A query whose result the prelude reshapes.
pub(super) fn shaped_query<S: Sight, A, Q, T, V>(
    m: &mut ApiBuilder,
    name: &'static str,
    _sees: S,
    shape: Shape,
    parse: impl Fn(&Cx, A) -> R<Q> + 'static,
    eval: fn(&S::Part, Player, &Q) -> T,
    out: impl Fn(&Cx, T) -> R<V> + 'static,
) where
    A: mlua::FromLuaMulti,
    Q: Clone + 'static,
    T: PartialEq + Clone + 'static,
    V: mlua::IntoLuaMulti,
{
    m.methods.push((name, Access::Query, shape));
    add(m, name, move |cx, args: A| {
        let q = parse(cx, args)?;
        let found = current(cx, |run| {
            let found = eval(S::part(&run.state), run.user, &q);
            if S::HIDDEN {
                run.beyond_position();
            }
            if let Some(trace) = &mut run.trace {
                if trace.len() < MAX_READS {
                    trace.push(Read::new::<S, Q, T>(q.clone(), found.clone(), eval));
                } else {
                    run.trace = None;
                }
            }
            Ok(found)
        })?;
        out(cx, found)
    });
}

/// Declares a method that reads nothing of the game (only its arguments, or
/// who the run is for, which a memo is kept for anyway).
pub(super) fn pure<A, T>(m: &mut ApiBuilder, name: &'static str, f: impl Fn(&Cx, A) -> R<T> + 'static)
where
    A: mlua::FromLuaMulti,
    T: mlua::IntoLuaMulti,
{
    m.methods.push((name, Access::Query, Shape::Plain));
    add(m, name, f);
}

/// Declares an operation: `f` gets the run (its scratch state) once the run is
/// known to be allowed to do it, and before the arguments are read.
pub(super) fn operation<S: Sight, A, T>(
    m: &mut ApiBuilder,
    name: &'static str,
    runs: Runs,
    _sees: S,
    f: impl Fn(&Cx, &mut Run, A) -> R<T> + 'static,
) where
    A: mlua::FromLuaMulti,
    T: mlua::IntoLuaMulti,
{
    m.methods.push((name, Access::Operation, Shape::Plain));
    // The arguments are read only once the run is known to be allowed the
    // operation: a read-only run is refused whatever it passed.
    add(m, name, move |cx, args: mlua::MultiValue| {
        current(cx, |run| {
            run.trace = None;
            match (runs, run.kind) {
                (Runs::Any, _) => {}
                (Runs::Cards, kind) if kind.writable() => {}
                (Runs::Cards, _) => {
                    return Err(err("can_play and planet checks may only read the game, not change it"));
                }
                (Runs::PlanetHandlers, RunKind::PlanetHandler(_)) => {}
                (Runs::PlanetHandlers, _) => {
                    return Err(err(
                        "only a planet's handlers and game_begins can change its data (check and progress only read)",
                    ));
                }
            }
            if S::HIDDEN {
                run.beyond_position();
            }
            f(cx, run, A::from_lua_multi(args, cx.lua)?)
        })
    });
}

/// Declares a question (asking.rs).
pub(super) fn question<A, T>(m: &mut ApiBuilder, name: &'static str, f: impl Fn(&Cx, A) -> R<T> + 'static)
where
    A: mlua::FromLuaMulti,
    T: mlua::IntoLuaMulti,
{
    m.methods.push((name, Access::Question, Shape::Question));
    add(m, name, f);
}

/// Registers a host function. While it runs, the Lua memory limit is lifted:
/// with a limit set, mlua guards every allocation made from Rust with a
/// protected call, which made reading the board several times slower. Host
/// functions allocate a bounded amount (at most a few thousand short strings),
/// and the limit is back before any script code runs again, so scripts stay
/// bounded.
fn add<A, T, F>(m: &mut ApiBuilder, name: &str, f: F)
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

/// Lifts the memory limit until dropped, when the limit in force before
/// comes back.
pub(super) struct Unlimited<'a>(&'a Lua, usize);

impl<'a> Unlimited<'a> {
    pub(super) fn new(lua: &'a Lua) -> Unlimited<'a> {
        let before = lua.set_memory_limit(0).unwrap_or(0);
        Unlimited(lua, before)
    }
}

impl Drop for Unlimited<'_> {
    fn drop(&mut self) {
        let _ = self.0.set_memory_limit(self.1);
    }
}

/// The legal moves of `user` under a [`MoveFilter`]: the kernel's and those
/// lasting effects' scripts offer (`GameState::moves_granted`).
pub(super) fn legal_moves_for(
    state: &crate::game::Position,
    user: Player,
    filter: MoveFilter,
) -> R<Vec<crate::kernel::Move>> {
    rule(state.moves_granted(user, filter.allowed, filter.not_to, filter.without))
}

/// The direction from `from` to `to` if `to` is exactly `distance` steps away in a line.
pub(super) fn direction(from: Square, to: Square, distance: i8) -> Option<Dir> {
    let (df, dr) = (to.file() - from.file(), to.rank() - from.rank());
    Dir::ALL.into_iter().find(|d| {
        let (x, y) = d.delta();
        x * distance == df && y * distance == dr
    })
}
