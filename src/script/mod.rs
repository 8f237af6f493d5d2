//! Cards and planets as sandboxed Lua scripts (ARCHITECTURE.md invariants 3–5).
//!
//! One Lua state per engine; every script is compiled once, and each run of it
//! executes the compiled chunk again into a fresh environment (sandbox.rs), so
//! a run depends on the state and the answers alone. A card runs on a scratch
//! copy of the state: when its script asks
//! a question that has no answer yet, the run halts and the question becomes the
//! game's pending decision; when the answer comes, the script runs again from the
//! card-start snapshot with one more answer. Only a script that returns commits.
//!
//! Running again is what the game means (ARCHITECTURE.md invariant 3), but it is
//! slow, so the engine accelerates the common case: a card's `play` runs in a
//! coroutine, and a question suspends it instead of unwinding it. The engine keeps
//! the last suspended run (outside the game state) together with its card-start
//! snapshot and answers; if the next card run is the same card from an equal
//! snapshot with those answers plus one, and no script has run in between, the
//! coroutine is resumed with the new answer. The script then goes on exactly as a
//! fresh run would, since up to the question a run depends only on the snapshot
//! and the answers. Anything else (undo, load, a search trying another answer, a
//! question asked where the coroutine cannot yield, such as inside `pcall`) runs
//! the script from the start as before. (resume.rs keeps the coroutines.)
//!
//! Planet checks and `can_play` are remembered by what they read (memo.rs): when
//! every read gives the same result again, the earlier answer is returned
//! without running Lua (`memo::Memos`). [`Accelerators`] turns either shortcut off; results are
//! the same either way (tests/script_cache.rs).

mod convert;
mod ctx;
mod error;
mod lasting;
mod memo;
mod names;
mod questions;
mod resume;
mod run;
mod sandbox;
mod stack;

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use mlua::prelude::LuaThreadStatus as ThreadStatus;
use mlua::{Function, Lua, Table, Value};

pub use ctx::Access;
pub use error::ScriptError;
pub use sandbox::{RUN_MEMORY, TIME_GUARD, on_time_guard, time_guard_message};

use crate::content::{Content, ContentRoot, Problem, Problems};
use crate::game::{
    Answer, CardHost, CardId, Data, Effect, EventKind, Forbidden, GameError, GameState, Inputs, Logged, MovePattern,
    PlanetId, Resolution, Scored, Verdict,
};
use crate::kernel::{Move, MoveText, Player, Square};

/// One move `extra_moves` offers: text as players write it (`a3-h4`,
/// `c3xe5`, `a1-off`) or a table `{ path = {"d4", "d4"}, takes = {"e5"},
/// off = true }` (cards/README.md, "Moves a script offers").
fn offered_move(item: &Value) -> Result<Move, ScriptError> {
    let square = |v: Value| -> Result<Square, ScriptError> {
        match v {
            Value::String(s) => s.to_string_lossy().parse::<Square>().map_err(|e| ScriptError::from(e.to_string())),
            other => Err(format!("a {} is not a square", other.type_name()).into()),
        }
    };
    let squares = |v: Value, what: &str| -> Result<Vec<Square>, ScriptError> {
        match v {
            Value::Nil => Ok(Vec::new()),
            Value::Table(t) => {
                let mut out = Vec::new();
                for v in t.sequence_values::<Value>().take(crate::kernel::MAX_JUMPS + 2) {
                    out.push(square(v.map_err(|e| ScriptError::from(describe_error(&e)))?)?);
                }
                Ok(out)
            }
            other => Err(format!("{what} is a {}, not a list of squares", other.type_name()).into()),
        }
    };
    match item {
        Value::String(s) => {
            let written: MoveText =
                s.to_string_lossy().parse().map_err(|e: crate::kernel::ParseError| ScriptError::from(e.0))?;
            Move::from_text(&written).map_err(|e| ScriptError::from(e.0))
        }
        Value::Table(t) => {
            let field = |key: &str| t.raw_get::<Value>(key).map_err(|e| ScriptError::from(describe_error(&e)));
            let path = squares(field("path")?, "path")?;
            let takes = squares(field("takes")?, "takes")?;
            let off = match field("off")? {
                Value::Nil | Value::Boolean(false) => false,
                Value::Boolean(true) => true,
                other => return Err(format!("off is a {}, not true or false", other.type_name()).into()),
            };
            let Some((&from, landings)) = path.split_first() else {
                return Err("its path names no square".into());
            };
            let landings = if landings.is_empty() && off { &path[..1] } else { landings };
            Move::offered(from, landings, takes.into_iter().collect(), off).map_err(|e| ScriptError::from(e.0))
        }
        other => Err(format!("a {} is not text like \"a3-h4\" nor a table with a path", other.type_name()).into()),
    }
}

/// One entry of what `forbid_moves` returns: a move as players write it
/// (`c3-d4`, `d4xf6xd8`, `a1-off`) or a pattern `{from = sq, to = sq,
/// captures = bool, leaves = bool}` naming at least one key
/// (cards/README.md, "Moves a script forbids").
fn forbidden_entry(item: &Value) -> Result<Forbidden, ScriptError> {
    const KEYS: &str = "from, to, captures, leaves";
    match item {
        Value::String(s) => {
            let written = s.to_string_lossy().parse().map_err(|e: crate::kernel::ParseError| ScriptError::from(e.0))?;
            Ok(Forbidden::Written(written))
        }
        Value::Table(t) => {
            let mut pattern = MovePattern::default();
            for pair in t.clone().pairs::<Value, Value>() {
                let (key, value) = pair.map_err(|e| ScriptError::from(describe_error(&e)))?;
                let key = match &key {
                    Value::String(k) => k.to_string_lossy(),
                    other => return Err(format!("a pattern's keys are {KEYS}, not {}", a_value(other)).into()),
                };
                let square = |v: &Value| -> Result<Square, ScriptError> {
                    match v {
                        Value::String(s) => {
                            s.to_string_lossy().parse::<Square>().map_err(|e| format!("{key}: {e}").into())
                        }
                        other => Err(format!("{key} is {}, not a square", a_value(other)).into()),
                    }
                };
                let boolean = |v: &Value| -> Result<bool, ScriptError> {
                    match v {
                        Value::Boolean(b) => Ok(*b),
                        other => Err(format!("{key} is {}, not true or false", a_value(other)).into()),
                    }
                };
                match key.as_str() {
                    "from" => pattern.from = Some(square(&value)?),
                    "to" => pattern.to = Some(square(&value)?),
                    "captures" => pattern.captures = Some(boolean(&value)?),
                    "leaves" => pattern.leaves = Some(boolean(&value)?),
                    other => return Err(format!("a pattern has no key '{other}' (its keys are {KEYS})").into()),
                }
            }
            if pattern == MovePattern::default() {
                return Err(format!("a pattern names at least one of {KEYS}").into());
            }
            Ok(Forbidden::Pattern(pattern))
        }
        other => {
            let got = a_value(other);
            Err(format!("it is {got}, not text like \"c3-d4\" nor a pattern like {{from = \"c3\"}}").into())
        }
    }
}

/// A Lua value's type with its article: "an integer", "a string".
fn a_value(value: &Value) -> String {
    let name = value.type_name();
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {name}")
}

/// A script's failure that did not refuse a decision (a `can_play`, a move
/// hook, a planet's check or handler), to be told to whoever may know of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptProblem {
    pub text: String,
    /// A planet's failure is its holder's secret (R2.3): telling the
    /// opponent would give the planet away.
    pub secret_of: Option<Player>,
}

/// How a move hook (`extra_moves`, `forbid_moves`) and its failures are named:
/// the function, what it returns, one entry of it, and the verb for too many.
struct MoveHookList {
    function: &'static str,
    list: &'static str,
    entry: &'static str,
    too_many: &'static str,
}

/// Most moves one effect's `extra_moves` may offer at once, and most
/// entries its `forbid_moves` may return.
pub const MAX_OFFERED_MOVES: usize = 64;

use memo::Memos;
use questions::OnResume;
use resume::{Coroutines, Suspended};
use run::{Run, RunKind};
use sandbox::{CompileError, Stop, describe_error, describe_stop};

/// Instruction budgets. A card may be run once per answer, so its budget is per run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    pub load: u64,
    pub card: u64,
    pub check: u64,
    /// The time guard of every run ([`TIME_GUARD`]): not a budget, a net
    /// under the metering, which breaks the engine when reached.
    pub time_guard: std::time::Duration,
}

impl Default for Budgets {
    fn default() -> Budgets {
        Budgets { load: 1_000_000, card: 5_000_000, check: 500_000, time_guard: TIME_GUARD }
    }
}

/// A compiled script's chunk, run afresh for every run (see sandbox.rs), and
/// its file as Lua names it, read once here rather than at every run.
struct Chunk {
    function: Function,
    file: Option<Rc<str>>,
}

impl Chunk {
    fn new(function: Function) -> Chunk {
        let file = function.info().short_src.map(Rc::from);
        Chunk { function, file }
    }
}

/// A compiled card.
struct CardScript {
    chunk: Chunk,
    has_can_play: bool,
    /// Whether the script defines `extra_moves(ctx, effect)`: moves its
    /// lasting effects offer beside the kernel's.
    has_extra_moves: bool,
    /// Whether the script defines `forbid_moves(ctx, effect)`: moves its
    /// lasting effects take away from the move step's list.
    has_forbid_moves: bool,
    /// Whether the script defines `game_begins(ctx)`, run at the deal.
    has_begins: bool,
    /// Whether it defines `verdict(ctx, why, who)`, a deck rule's say on the
    /// ends the deck scores.
    has_verdict: bool,
    /// The event kinds it has a handler (`on_<kind>`) for (game/react.rs).
    handlers: Vec<EventKind>,
}

struct PlanetScript {
    chunk: Chunk,
    /// Whether the script defines `progress(ctx, player)`.
    has_progress: bool,
    /// Whether it defines `squares(ctx, player)`, the squares that make it hold.
    has_squares: bool,
    /// Whether it defines `game_begins(ctx, player)`.
    has_begins: bool,
    /// The event kinds it has a handler (`on_<kind>`) for.
    handlers: Vec<EventKind>,
}

/// Ways the engine avoids running scripts; none of them changes a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accelerators {
    /// An answer continues the card run suspended at its question instead of
    /// running the script again from the card-start snapshot.
    pub resume: bool,
    /// A planet check or `can_play` whose reads all come out as last time for
    /// the same player gives last time's answer.
    pub memo: bool,
}

impl Default for Accelerators {
    fn default() -> Accelerators {
        Accelerators { resume: true, memo: true }
    }
}

/// How often each shortcut was taken (for tests and profiling).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShortcutsTaken {
    /// Card runs continued from a suspended run.
    pub resumed: u64,
    /// Planet checks and `can_play` answered from memory.
    pub remembered: u64,
}

/// What a card run produced, with what the script logged.
#[derive(Debug)]
pub struct CardRun {
    pub resolution: Resolution,
    pub log: Vec<String>,
    /// What the resolution depended on (`Whole` for a failure).
    pub inputs: Inputs,
}

/// Runs the scripts of one [`Content`]; implements [`CardHost`].
pub struct ScriptEngine {
    lua: Lua,
    prelude: sandbox::Prelude,
    /// The `ctx` every run is given: read-only, so one serves all scripts.
    ctx: Table,
    /// Each `ctx` method's name and kind, as declared (ctx/mod.rs).
    ctx_methods: Vec<(&'static str, ctx::Access)>,
    /// The current run and the names, shared with the host functions.
    shared: Rc<run::Shared>,
    content: Content,
    cards: Vec<CardScript>,
    planets: Vec<PlanetScript>,
    budgets: Budgets,
    /// Failures of `can_play` and planet checks, which cannot fail the game.
    errors: RefCell<Vec<ScriptProblem>>,
    /// The suspended card run and the spare coroutine (resume.rs).
    coroutines: Coroutines,
    accelerators: Accelerators,
    /// The last answers of each planet's check, by planet and player.
    planet_memos: Memos<bool>,
    /// The last answers of each planet's `progress`, by planet and player.
    progress_memos: Memos<f32>,
    /// The last answers of each card's `can_play`, by card and player.
    card_memos: Memos<bool>,
    taken: Cell<ShortcutsTaken>,
    /// The heap after the last collection (sandbox::reclaim).
    collected_at: Cell<usize>,
}

impl ScriptEngine {
    /// Compiles every script of `content`; reports every script that fails.
    pub fn new(content: Content) -> Result<ScriptEngine, Problems> {
        let fail =
            |e: mlua::Error| Problems(vec![Problem::file(content.root.path(), format!("cannot start Lua: {e}"))]);
        let (lua, prelude) = sandbox::new_state().map_err(fail)?;
        let card_ids: Vec<String> = content.cards.iter().map(|c| c.id.clone()).collect();
        let names = names::Names::new(&lua, prelude.halt.clone(), &card_ids).map_err(fail)?;
        let markers = content.markers().iter().map(|m| m.name().to_string()).collect();
        let counters = content.counters().into_iter().map(|c| c.name).collect();
        let pools = content.pool_names();
        let victories = content.deck.rules.victories.clone();
        let shared = Rc::new(run::Shared {
            run: RefCell::new(None),
            names,
            meter: Rc::clone(&prelude.meter),
            markers,
            counters,
            pools,
            victories,
            items: content.items.clone(),
        });
        let api = ctx::api(&lua, Rc::clone(&shared)).map_err(fail)?;
        let collected_at = Cell::new(0);
        sandbox::begin(&lua, Budgets::default().load);
        let ctx = prelude.make_ctx.call::<Table>((api.table, api.shapes));
        sandbox::finish(&lua, &collected_at);
        let ctx = ctx.map_err(fail)?;
        let mut engine = ScriptEngine {
            lua,
            prelude,
            ctx,
            ctx_methods: api.methods,
            shared,
            content,
            cards: Vec::new(),
            planets: Vec::new(),
            budgets: Budgets::default(),
            errors: RefCell::new(Vec::new()),
            coroutines: Coroutines::default(),
            accelerators: Accelerators::default(),
            planet_memos: Memos::new(0),
            progress_memos: Memos::new(0),
            card_memos: Memos::new(0),
            taken: Cell::new(ShortcutsTaken::default()),
            collected_at,
        };
        engine.compile()?;
        engine.forget();
        Ok(engine)
    }

    /// Loads a deck from a content root and compiles it.
    pub fn load(root: &ContentRoot, deck: &str) -> Result<ScriptEngine, Problems> {
        ScriptEngine::new(Content::load(root, deck)?)
    }

    fn compile(&mut self) -> Result<(), Problems> {
        let mut problems = Problems::default();
        let (mut cards, mut planets) = (Vec::new(), Vec::new());
        let root = self.content.root.path().to_path_buf();
        let name_of = |path: &std::path::Path| path.strip_prefix(&root).unwrap_or(path).display().to_string();
        let deck = &self.content.deck;
        for card in &self.content.cards {
            let name = name_of(&card.script.path);
            // A card that is only one of the deck's rules is never played.
            let rule_only =
                deck.effects.iter().any(|r| r.card == card.id) && !deck.cards.iter().any(|(id, _)| *id == card.id);
            let required: &[&str] = if rule_only { &[] } else { &["play"] };
            if let Some((line, key)) = lasting::unknown_move_key(&card.script.source) {
                let message = format!(
                    "moves = {{ {key} = … }}: an effect's moves are {} (cards/README.md, \"Lasting effects\")",
                    lasting::MOVE_KEYS.join(", ")
                );
                problems.push(problem(&card.script.path, CompileError { at: Some((line, 1)), message }));
                continue;
            }
            let optional = ["can_play", "game_begins", "extra_moves", "forbid_moves", "verdict"];
            match self.compile_one(&name, &card.script.source, required, &optional) {
                Ok((chunk, defined, handlers)) => cards.push(CardScript {
                    chunk: Chunk::new(chunk),
                    has_can_play: defined.contains(&"can_play"),
                    has_extra_moves: defined.contains(&"extra_moves"),
                    has_forbid_moves: defined.contains(&"forbid_moves"),
                    has_begins: defined.contains(&"game_begins"),
                    has_verdict: defined.contains(&"verdict"),
                    handlers,
                }),
                Err(error) => problems.push(problem(&card.script.path, error)),
            }
        }
        for planet in &self.content.planets {
            let name = name_of(&planet.script.path);
            match self.compile_one(&name, &planet.script.source, &["check"], &["progress", "squares", "game_begins"]) {
                Ok((chunk, defined, handlers)) => planets.push(PlanetScript {
                    chunk: Chunk::new(chunk),
                    has_progress: defined.contains(&"progress"),
                    has_squares: defined.contains(&"squares"),
                    has_begins: defined.contains(&"game_begins"),
                    handlers,
                }),
                Err(error) => problems.push(problem(&planet.script.path, error)),
            }
        }
        problems.into_result(())?;
        self.cards = cards;
        self.planets = planets;
        Ok(())
    }

    /// Compiles one script and runs its top level once, under the load budget,
    /// to check the functions it defines. Returns the chunk, the optional
    /// functions it defines and the event kinds it has handlers for.
    fn compile_one<'n>(
        &self,
        name: &str,
        source: &str,
        required: &[&str],
        optional: &[&'n str],
    ) -> Result<(Function, Vec<&'n str>, Vec<EventKind>), CompileError> {
        let chunk = sandbox::compile_script(&self.lua, name, source, self.prelude.void.clone())?;
        let unplaced = |message: String| CompileError { at: None, message };
        sandbox::begin(&self.lua, self.budgets.load);
        let env = self.prelude.instantiate.call::<Table>(&chunk);
        let stop = sandbox::finish(&self.lua, &self.collected_at);
        let env = match (stop, env) {
            (Some(stop), _) => return Err(unplaced(describe_stop(&stop))),
            (None, result) => result.map_err(|e| unplaced(describe_error(&e)))?,
        };
        let mut defined = Vec::new();
        for &f in required.iter().chain(optional) {
            match env.raw_get::<Value>(f) {
                Ok(Value::Function(_)) => defined.extend(optional.iter().find(|&&o| o == f)),
                Ok(Value::Nil) if optional.contains(&f) => {}
                Ok(Value::Nil) => return Err(unplaced(format!("defines no function {f}"))),
                Ok(other) => return Err(unplaced(format!("{f} must be a function, not a {}", other.type_name()))),
                Err(e) => return Err(unplaced(describe_error(&e))),
            }
        }
        let mut handlers = Vec::new();
        for pair in env.pairs::<Value, Value>() {
            let Ok((Value::String(key), value)) = pair else { continue };
            let key = key.to_string_lossy();
            let Some(kind) = key.strip_prefix("on_") else { continue };
            match EventKind::named(kind) {
                Some(k) if matches!(value, Value::Function(_)) => handlers.push(k),
                Some(_) => return Err(unplaced(format!("{key} must be a function, not a {}", value.type_name()))),
                None => {
                    let hint = EventKind::nearest(kind).map_or(String::new(), |k| format!("; did you mean on_{k}?"));
                    return Err(CompileError {
                        at: sandbox::first_use(source, &key),
                        message: format!(
                            "defines {key}, but no event is called '{kind}'{hint} (README, \"Events\", lists them)"
                        ),
                    });
                }
            }
        }
        Ok((chunk, defined, handlers))
    }

    /// Reloads the deck's manifests and scripts from disk. On any problem the
    /// engine keeps the scripts it had and returns the problems.
    pub fn reload(&mut self) -> Result<(), Problems> {
        let fresh = Content::load(&self.content.root, &self.content.deck_path.display().to_string())?;
        let mut next = ScriptEngine::new(fresh)?;
        next.set_budgets(self.budgets);
        next.accelerators = self.accelerators;
        *self = next;
        Ok(())
    }

    pub fn content(&self) -> &Content {
        &self.content
    }

    /// Every `ctx` method scripts may call, with its kind, in the order declared
    /// (cards/README.md lists them by kind; a test keeps the two the same).
    pub fn ctx_methods(&self) -> &[(&'static str, ctx::Access)] {
        &self.ctx_methods
    }

    pub fn set_budgets(&mut self, budgets: Budgets) {
        self.budgets = budgets;
        self.prelude.meter.borrow_mut().set_time_guard(budgets.time_guard);
        self.forget();
    }

    /// Turns the shortcuts on or off (both are on by default). Either way the
    /// results are the same.
    pub fn set_accelerators(&mut self, accelerators: Accelerators) {
        self.accelerators = accelerators;
        self.forget();
    }

    /// Drops the suspended card run and every remembered answer.
    fn forget(&mut self) {
        self.coroutines.forget();
        self.planet_memos = Memos::new(self.planets.len() * 2);
        self.progress_memos = Memos::new(self.planets.len() * 2);
        self.card_memos = Memos::new(self.cards.len() * 2);
    }

    /// How often the shortcuts were taken so far.
    pub fn shortcuts_taken(&self) -> ShortcutsTaken {
        self.taken.get()
    }

    fn count_shortcut(&self, f: impl FnOnce(&mut ShortcutsTaken)) {
        let mut taken = self.taken.get();
        f(&mut taken);
        self.taken.set(taken);
    }

    /// Where the time guard stopped a run ([`TIME_GUARD`]), if it ever did:
    /// then the metering has a bug, what the runs did may differ on another
    /// machine, and nothing this engine works out may be used.
    pub fn broken(&self) -> Option<String> {
        self.prelude.meter.borrow().broken().map(|place| sandbox::time_guard_message(place, self.budgets.time_guard))
    }

    /// Keeps a `can_play`, hook or planet failure for `take_problems`, at
    /// most 100 of them; a planet's is secret to `secret_of`, its holder (R2.3).
    fn note_error(&self, e: ScriptError, secret_of: Option<Player>) {
        let mut errors = self.errors.borrow_mut();
        if errors.len() < 100 {
            errors.push(ScriptProblem { text: sandbox::clean(e.message()), secret_of });
        }
    }

    /// Failures of `can_play`, move hooks and planets since the last call.
    pub fn take_problems(&self) -> Vec<ScriptProblem> {
        std::mem::take(&mut *self.errors.borrow_mut())
    }

    /// [`ScriptEngine::take_problems`]' texts, secret or not (`check`, tests).
    pub fn take_errors(&self) -> Vec<String> {
        self.take_problems().into_iter().map(|p| p.text).collect()
    }

    /// Runs `function(args…)` of a script (a fresh run of its chunk, see
    /// sandbox.rs) through the raw-pcall runner with `run` as the current run.
    /// Returns the run, why it was stopped (if it was), and the result.
    fn invoke(
        &self,
        chunk: &Chunk,
        function: &str,
        run: Box<Run>,
        budget: u64,
        args: impl mlua::IntoLuaMulti,
    ) -> (Box<Run>, Option<Stop>, Result<Value, ScriptError>) {
        // Any script running ends a suspended card run. Runs can no longer affect
        // one another (each has a fresh environment), so this is caution, not
        // need: an answer normally follows its question with nothing in between.
        self.coroutines.forget();
        self.enter(run);
        self.prelude.meter.borrow_mut().start(budget, 0, chunk.file.clone());
        sandbox::count_memory(&self.lua, &self.prelude.meter.borrow());
        let result =
            self.prelude.runner.call::<(Value, Value)>((&self.prelude.call_script, &chunk.function, function, args));
        let (stop, _) = self.prelude.meter.borrow_mut().end(&self.lua);
        sandbox::reclaim(&self.lua, &self.collected_at);
        (self.leave(), stop, outcome(result))
    }

    /// Makes `run` the current run, which ctx functions work on.
    fn enter(&self, run: Box<Run>) {
        *self.shared.run.borrow_mut() = Some(run);
    }

    /// Ends the current run and returns it.
    fn leave(&self) -> Box<Run> {
        self.shared.run.borrow_mut().take().expect("a run was entered")
    }

    fn call(
        &self,
        chunk: &Chunk,
        function: &str,
        run: Box<Run>,
        budget: u64,
        args: impl mlua::IntoLuaMulti,
    ) -> (Box<Run>, Result<Value, ScriptError>) {
        let (run, stop, result) = self.invoke(chunk, function, run, budget, args);
        let outcome = match (stop, result) {
            (Some(Stop::Asked(q)), _) => Err(format!("asked '{}' where no question may be asked", q.prompt).into()),
            (Some(stop), _) => Err(describe_stop(&stop).into()),
            (None, result) => result,
        };
        (run, outcome)
    }

    fn run_for(&self, state: &GameState, user: Player, kind: RunKind, answers: &[Answer]) -> Box<Run> {
        let mut state = state.clone();
        // The moves scripts offer and forbid, for the moves this run may list
        // or grant (a hook's own run lists none: it is what changes them).
        state.position_mut().hooked = if !matches!(kind, RunKind::MoveHook { .. }) && !state.effects.is_empty() {
            crate::game::HookedMoves::new(user, state.hooks_for(self, user))
        } else {
            crate::game::HookedMoves::default()
        };
        // A run that reads hooked moves cannot be replayed from its reads alone.
        let memo = self.accelerators.memo && state.hooked.is_empty();
        Box::new(Run {
            kind,
            state,
            user,
            answers: answers.to_vec(),
            cursor: 0,
            lifted: Vec::new(),
            log: Vec::new(),
            trace: (!kind.writable() && memo).then(Vec::new),
            inputs: Inputs::Position,
            halted: None,
        })
    }

    fn card_label(&self, card: CardId) -> String {
        self.content.card(card).map_or_else(|| format!("#{}", card.0), |c| c.id.clone())
    }

    /// Runs a card's `play` from `state` (the card-start snapshot) with `answers`.
    pub fn run_card(&self, state: &GameState, card: CardId, answers: &[Answer]) -> CardRun {
        let Some(script) = self.cards.get(usize::from(card.0)) else {
            let label = self.card_label(card);
            return CardRun {
                resolution: Resolution::Failed(format!("no card {label}")),
                log: Vec::new(),
                inputs: Inputs::Whole,
            };
        };
        let failed = |m: String| Resolution::Failed(format!("card '{}' failed: {m}", self.card_label(card)));
        let continuing = self.accelerators.resume.then(|| self.coroutines.continuing(state, card, answers)).flatten();
        let (thread, mut run, used, snapshot) = match continuing {
            Some(s) => {
                let mut run = s.run;
                run.answers.push(answers[answers.len() - 1].clone());
                self.count_shortcut(|t| t.resumed += 1);
                (s.thread, run, s.used, Some(s.snapshot))
            }
            None => match self.coroutines.thread(&self.lua, &self.prelude.body) {
                Ok(thread) => (thread, self.run_for(state, state.to_move, RunKind::Play(card), answers), 0, None),
                Err(e) => {
                    return CardRun { resolution: failed(describe_error(&e)), log: Vec::new(), inputs: Inputs::Whole };
                }
            },
        };
        // A resumed run gets what its question call would now return with the
        // resume (made without the memory limit, as host functions make their
        // values); an `ask_order` that needs another answer asks it without
        // resuming at all.
        let on_resume = if snapshot.is_some() { questions::on_resume(&mut run) } else { OnResume::CallAgain };
        let resumed = match on_resume {
            OnResume::Ask(question) => {
                let (log, inputs) = (run.log.clone(), run.inputs);
                let snapshot = snapshot.unwrap_or_else(|| Box::new(state.clone()));
                self.coroutines.suspend(Suspended { card, snapshot, thread, run, used });
                return CardRun { resolution: Resolution::Ask(question), log, inputs };
            }
            OnResume::Answer(answer) => {
                let _unlimited = ctx::Unlimited::new(&self.lua);
                Some(questions::answer_to_lua(&self.lua, &self.shared.names, answer))
            }
            OnResume::Ordered(order) => {
                let _unlimited = ctx::Unlimited::new(&self.lua);
                Some(names::texts(&self.lua, &self.shared.names, &order).map(Value::Table))
            }
            OnResume::CallAgain => None,
        };
        let resumed = match resumed.transpose() {
            Ok(value) => value,
            Err(e) => return CardRun { resolution: failed(describe_error(&e)), log: run.log, inputs: Inputs::Whole },
        };
        let fresh = snapshot.is_none();
        self.enter(run);
        self.prelude.meter.borrow_mut().start(self.budgets.card, used, script.chunk.file.clone());
        if !fresh && resumed.is_none() {
            // The question call is made again: one call, as in a run afresh.
            self.prelude.meter.borrow_mut().refund_host_call();
        }
        sandbox::count_memory(&self.lua, &self.prelude.meter.borrow());
        let result = match resumed {
            _ if fresh => thread.resume::<(Value, Value)>((&thread, &script.chunk.function, &self.ctx)),
            Some(value) => thread.resume::<(Value, Value)>((true, value)),
            None => thread.resume::<(Value, Value)>(()),
        };
        let (stop, used) = self.prelude.meter.borrow_mut().end(&self.lua);
        sandbox::reclaim(&self.lua, &self.collected_at);
        let run = self.leave();
        let status = thread.status();
        let yielded = status == ThreadStatus::Resumable;
        let result = match result {
            // The prelude's proxy yields only for a question, which set the stop.
            Ok(_) if yielded => Err("attempt to yield from outside a coroutine".into()),
            other => outcome(other),
        };
        let mut inputs = run.inputs;
        let resolution = match (stop, result) {
            (Some(Stop::Asked(question)), _) => {
                if yielded && self.accelerators.resume {
                    let log = run.log.clone();
                    let snapshot = snapshot.unwrap_or_else(|| Box::new(state.clone()));
                    self.coroutines.suspend(Suspended { card, snapshot, thread, run, used });
                    return CardRun { resolution: Resolution::Ask(question), log, inputs };
                }
                Resolution::Ask(question)
            }
            (Some(Stop::Ended), _) | (None, Ok(_)) => {
                // Belt and braces for `Inputs::Position`: the parts the position
                // leaves out came through unchanged.
                let after = &run.state;
                if after.hidden() != state.hidden() {
                    inputs = Inputs::Whole;
                }
                finished(run.state, &run.lifted, &run.answers[run.cursor..]).unwrap_or_else(|e| failed(e.into()))
            }
            (Some(stop), _) => failed(describe_stop(&stop)),
            (None, Err(e)) => failed(e.into()),
        };
        if status == ThreadStatus::Finished {
            self.coroutines.recycle(thread, &self.prelude.body);
        }
        if matches!(resolution, Resolution::Failed(_)) {
            inputs = Inputs::Whole;
        }
        CardRun { resolution, log: run.log, inputs }
    }

    /// Runs the handler `on_<kind>` of `effect`'s card for `event` from `state`
    /// with the answers so far (game/react.rs). Like a card run, but always run
    /// afresh: a question unwinds it, and the answer runs it again.
    pub fn run_handler(&self, state: &GameState, effect: &Effect, event: &Logged, answers: &[Answer]) -> Resolution {
        let label = self.card_label(effect.card);
        let kind = event.kind();
        let failed =
            |m: String| Resolution::Failed(format!("effect of card '{label}' failed reacting to '{kind}': {m}"));
        let Some(script) = self.cards.get(usize::from(effect.card.0)) else {
            return failed("no such card".into());
        };
        let handler = RunKind::Handler { card: effect.card, effect: effect.id };
        // Its `ctx:player()`: the owner, or the player to move for a rule
        // that acts for the mover (the event's `player`).
        let run = self.run_for(state, effect.acting_for(state.to_move), handler, answers);
        let whose = |p: Player| p.to_string().to_ascii_lowercase();
        // Made from Rust, as host functions make their values: without the
        // memory limit, under which mlua guards each allocation (ctx/mod.rs).
        let unlimited = ctx::Unlimited::new(&self.lua);
        let args = lasting::event_to_lua(&self.lua, &self.content, event, state.to_move)
            .and_then(|e| Ok((e, lasting::effect_to_lua(&self.lua, &self.content, effect, &whose(effect.owner))?)));
        drop(unlimited);
        let (event_table, effect_table) = match args {
            Ok(tables) => tables,
            Err(e) => return failed(describe_error(&e)),
        };
        let function = format!("on_{kind}");
        let (run, stop, result) =
            self.invoke(&script.chunk, &function, run, self.budgets.card, (&self.ctx, event_table, effect_table));
        match (stop, result) {
            (Some(Stop::Asked(question)), _) => Resolution::Ask(question),
            (Some(Stop::Ended), _) | (None, Ok(_)) => {
                finished(run.state, &run.lifted, &run.answers[run.cursor..]).unwrap_or_else(|e| failed(e.into()))
            }
            (Some(stop), _) => failed(describe_stop(&stop)),
            (None, Err(e)) => failed(e.into()),
        }
    }

    /// The moves `extra_moves(ctx, effect)` of the card that made `effect`
    /// offers the player to move in `state`: a list of moves written as
    /// players write them (`a3-h4`, `c3xe5`). Read-only, under the budget of
    /// a check; the game keeps those a move could be (GameState::offered_moves).
    pub fn extra_moves(&self, state: &GameState, effect: &Effect) -> Result<Vec<Move>, ScriptError> {
        let hook =
            MoveHookList { function: "extra_moves", list: "a list of moves", entry: "move", too_many: "offered" };
        self.move_hook(state, effect, hook, offered_move)
    }

    /// What `forbid_moves(ctx, effect)` of the card that made `effect` takes
    /// away from the moves of the player to move in `state`: moves as
    /// players write them and patterns ([`forbidden_entry`]). Read-only,
    /// under the budget of a check, as `extra_moves`.
    pub fn forbid_moves(&self, state: &GameState, effect: &Effect) -> Result<Vec<Forbidden>, ScriptError> {
        let hook = MoveHookList {
            function: "forbid_moves",
            list: "a list of moves and patterns",
            entry: "entry",
            too_many: "forbade",
        };
        self.move_hook(state, effect, hook, forbidden_entry)
    }

    /// Runs a move hook of the card that made `effect` (read-only, under the
    /// budget of a check, for the player to move) and reads each entry of the
    /// list it returns with `read`; `nil` is an empty list.
    fn move_hook<T>(
        &self,
        state: &GameState,
        effect: &Effect,
        hook: MoveHookList,
        read: impl Fn(&Value) -> Result<T, ScriptError>,
    ) -> Result<Vec<T>, ScriptError> {
        let MoveHookList { function, list, entry, too_many } = hook;
        let label = self.card_label(effect.card);
        let failed = |m: String| ScriptError::from(format!("card '{label}': {function} failed: {m}"));
        let script = self.cards.get(usize::from(effect.card.0)).ok_or_else(|| failed("no such card".into()))?;
        let kind = RunKind::MoveHook { card: effect.card, effect: effect.id };
        let run = self.run_for(state, state.to_move, kind, &[]);
        let whose = effect.owner.to_string().to_ascii_lowercase();
        let unlimited = ctx::Unlimited::new(&self.lua);
        let table = lasting::effect_to_lua(&self.lua, &self.content, effect, &whose);
        drop(unlimited);
        let table = table.map_err(|e| failed(describe_error(&e)))?;
        let (_, result) = self.call(&script.chunk, function, run, self.budgets.check, (&self.ctx, table));
        let returned = match result.map_err(|e| failed(e.into()))? {
            Value::Nil => return Ok(Vec::new()),
            Value::Table(returned) => returned,
            other => return Err(failed(format!("returned a {}, not {list}", other.type_name()))),
        };
        let mut out = Vec::new();
        for (i, item) in returned.sequence_values::<Value>().enumerate() {
            if i >= MAX_OFFERED_MOVES {
                let what = list.trim_start_matches("a list of ");
                return Err(failed(format!("{too_many} more than {MAX_OFFERED_MOVES} {what}")));
            }
            let item = item.map_err(|e| failed(describe_error(&e)))?;
            out.push(read(&item).map_err(|m| failed(format!("{entry} {}: {m}", i + 1)))?);
        }
        Ok(out)
    }

    /// `verdict(ctx, why, who)` of the deck rule `effect`'s card on the game
    /// `state`, ended by `scored` (cards/README.md, "Endings as deck rules"):
    /// `{winner = "dark"/"light"/nil, reason = victory}`, the reason one of
    /// the deck's victories. Read-only, under the budget of a check.
    pub fn verdict(&self, state: &GameState, effect: &Effect, scored: Scored) -> Result<Verdict, ScriptError> {
        let label = self.card_label(effect.card);
        let failed = |m: String| ScriptError::from(format!("card '{label}': verdict failed: {m}"));
        let script = self.cards.get(usize::from(effect.card.0)).ok_or_else(|| failed("no such card".into()))?;
        if !script.has_verdict {
            return Err(failed("the script defines no verdict".into()));
        }
        let kind = RunKind::Verdict { card: effect.card, effect: effect.id };
        let run = self.run_for(state, effect.owner, kind, &[]);
        let unlimited = ctx::Unlimited::new(&self.lua);
        let why = self.lua.create_string(scored.why());
        drop(unlimited);
        let why = why.map_err(|e| failed(describe_error(&e)))?;
        let who = scored.who().map(|p| self.shared.names.player(p));
        let (_, result) = self.call(&script.chunk, "verdict", run, self.budgets.check, (&self.ctx, why, who));
        let table = match result.map_err(|e| failed(e.into()))? {
            Value::Table(t) => t,
            other => {
                let got = other.type_name();
                return Err(failed(format!("returned a {got}, not {{winner = player or nil, reason = victory}}")));
            }
        };
        let read = |key: &str| table.raw_get::<Value>(key).map_err(|e| failed(describe_error(&e)));
        lasting::only_keys(&table, &["winner", "reason"], "a verdict is {winner = player or nil, reason = victory}")
            .map_err(|e| failed(describe_error(&e)))?;
        let winner = match read("winner")? {
            Value::Nil => None,
            Value::String(s) => Some(convert::player(&s.to_string_lossy()).map_err(|e| failed(describe_error(&e)))?),
            other => return Err(failed(format!("its winner is a {}, not a player or nil", other.type_name()))),
        };
        let victory = match read("reason")? {
            Value::String(s) => ctx::victory_named(&self.shared.victories, &s.to_string_lossy()).map_err(failed)?,
            Value::Nil => return Err(failed("it gives no reason: one of the deck's victories".into())),
            other => return Err(failed(format!("its reason is a {}, not a victory's name", other.type_name()))),
        };
        Ok(Verdict { winner, victory })
    }

    /// Runs a card's `game_begins(ctx)` from `state` at the deal (game/deal.rs):
    /// like a handler, it changes the game through ctx and may not ask.
    pub fn run_game_begins(&self, state: &GameState, card: CardId) -> Resolution {
        let label = self.card_label(card);
        let failed = |m: String| Resolution::Failed(format!("card '{label}' failed in game_begins: {m}"));
        let Some(script) = self.cards.get(usize::from(card.0)) else {
            return failed("no such card".into());
        };
        let run = self.run_for(state, state.to_move, RunKind::Play(card), &[]);
        let (run, stop, result) = self.invoke(&script.chunk, "game_begins", run, self.budgets.card, &self.ctx);
        match (stop, result) {
            (Some(Stop::Asked(question)), _) => Resolution::Ask(question),
            (Some(Stop::Ended), _) | (None, Ok(_)) => {
                finished(run.state, &run.lifted, &[]).unwrap_or_else(|e| failed(e.into()))
            }
            (Some(stop), _) => failed(describe_stop(&stop)),
            (None, Err(e)) => failed(e.into()),
        }
    }

    /// Runs `player`'s `planet`'s handler for `event`, or its `game_begins` for
    /// `None`: the planet's data after. The run reads the game and may change
    /// only the planet's data (`ctx:set_planet_data`).
    pub fn run_planet_handler(
        &self,
        state: &GameState,
        planet: PlanetId,
        player: Player,
        event: Option<&Logged>,
    ) -> Result<Data, ScriptError> {
        let script = self.planets.get(usize::from(planet.0)).ok_or("no such planet")?;
        let label = self.planet_label(planet);
        let run = self.run_for(state, player, RunKind::PlanetHandler(planet), &[]);
        let name = self.shared.names.player(player);
        let (run, stop, result) = match event {
            Some(event) => {
                let unlimited = ctx::Unlimited::new(&self.lua);
                let table = lasting::event_to_lua(&self.lua, &self.content, event, state.to_move);
                drop(unlimited);
                let table = table.map_err(|e| format!("planet '{label}': {}", describe_error(&e)))?;
                let function = format!("on_{}", event.kind());
                self.invoke(&script.chunk, &function, run, self.budgets.check, (&self.ctx, table, name))
            }
            None => self.invoke(&script.chunk, "game_begins", run, self.budgets.check, (&self.ctx, name)),
        };
        let what = event.map_or_else(|| "game_begins".to_string(), |e| format!("on_{}", e.kind()));
        match (stop, result) {
            (Some(stop), _) => Err(format!("planet '{label}': {what} failed: {}", describe_stop(&stop)).into()),
            (None, Err(e)) => Err(format!("planet '{label}': {what} failed: {e}").into()),
            (None, Ok(_)) => Ok(run.state.planet_data().of(player).clone()),
        }
    }

    /// R8.0, R8.19: a card without `can_play` is always playable.
    pub fn can_play(&self, state: &GameState, card: CardId) -> Result<bool, ScriptError> {
        let script = self.cards.get(usize::from(card.0)).ok_or("no such card")?;
        if !script.has_can_play {
            return Ok(true);
        }
        // By card and player: the players' card steps alternate, and each
        // would otherwise forget the other's answer.
        let slot = usize::from(card.0) * 2 + state.to_move.index();
        if let Some(answer) = self.remembered(&self.card_memos, slot, state, state.to_move) {
            return Ok(answer);
        }
        let run = self.run_for(state, state.to_move, RunKind::CanPlay(card), &[]);
        let (run, result) = self.call(&script.chunk, "can_play", run, self.budgets.check, &self.ctx);
        match result {
            Ok(Value::Boolean(b)) => Ok(self.remember(&self.card_memos, slot, run, b)),
            Ok(other) => Err(format!(
                "card '{}': can_play returned a {}, not true or false",
                self.card_label(card),
                other.type_name()
            )
            .into()),
            Err(e) => Err(format!("card '{}': can_play failed: {}", self.card_label(card), e).into()),
        }
    }

    /// R9: `check(ctx, player)` of a planet's script. Read-only.
    pub fn check_planet(&self, state: &GameState, planet: PlanetId, player: Player) -> Result<bool, ScriptError> {
        let script = self.planets.get(usize::from(planet.0)).ok_or("no such planet")?;
        let slot = planet_slot(planet, player);
        if let Some(answer) = self.remembered(&self.planet_memos, slot, state, player) {
            return Ok(answer);
        }
        let label = || self.planet_label(planet);
        let (run, result) = self.run_planet(script, "check", state, player);
        match result {
            Ok(Value::Boolean(b)) => Ok(self.remember(&self.planet_memos, slot, run, b)),
            Ok(other) => {
                Err(format!("planet '{}': check returned a {}, not true or false", label(), other.type_name()).into())
            }
            Err(e) => Err(format!("planet '{}': check failed: {}", label(), e).into()),
        }
    }

    /// `progress(ctx, player)` of a planet's script, from 0 to 1 (0 when the
    /// script defines none). Read-only; only the computer players ask.
    pub fn planet_progress(&self, state: &GameState, planet: PlanetId, player: Player) -> Result<f32, ScriptError> {
        let script = self.planets.get(usize::from(planet.0)).ok_or("no such planet")?;
        if !script.has_progress {
            return Ok(0.0);
        }
        let slot = planet_slot(planet, player);
        if let Some(answer) = self.remembered(&self.progress_memos, slot, state, player) {
            return Ok(answer);
        }
        let label = || self.planet_label(planet);
        let (run, result) = self.run_planet(script, "progress", state, player);
        let number = match result {
            Ok(Value::Number(n)) => n,
            Ok(Value::Integer(n)) => n as f64,
            Ok(other) => {
                return Err(
                    format!("planet '{}': progress returned a {}, not a number", label(), other.type_name()).into()
                );
            }
            Err(e) => return Err(format!("planet '{}': progress failed: {}", label(), e).into()),
        };
        if !(0.0..=1.0).contains(&number) {
            return Err(format!("planet '{}': progress returned {number}, not a number from 0 to 1", label()).into());
        }
        Ok(self.remember(&self.progress_memos, slot, run, number as f32))
    }

    /// The squares that make `player`'s `planet` hold, as its script's optional
    /// `squares(ctx, player)` names them (the end of the game shows them);
    /// empty when it does not define it.
    pub fn planet_squares(
        &self,
        state: &GameState,
        planet: PlanetId,
        player: Player,
    ) -> Result<Vec<Square>, ScriptError> {
        let script = self.planets.get(usize::from(planet.0)).ok_or("no such planet")?;
        if !script.has_squares {
            return Ok(Vec::new());
        }
        let label = || self.planet_label(planet);
        let failed = |m: String| ScriptError::from(format!("planet '{}': squares failed: {m}", label()));
        let list = match self.run_planet(script, "squares", state, player).1.map_err(|e| failed(e.into()))? {
            Value::Table(list) => list,
            Value::Nil => return Ok(Vec::new()),
            other => return Err(failed(format!("returned a {}, not a list of squares", other.type_name()))),
        };
        let mut squares = Vec::new();
        for item in list.sequence_values::<Value>().take(64) {
            let text = match item.map_err(|e| failed(describe_error(&e)))? {
                Value::String(s) => s.to_string_lossy(),
                other => return Err(failed(format!("listed a {}, not a square", other.type_name()))),
            };
            squares.push(text.parse::<Square>().map_err(|_| failed(format!("'{text}' is not a square")))?);
        }
        Ok(squares)
    }

    /// Runs `function(ctx, player)` of a planet's script, read-only.
    fn run_planet(
        &self,
        script: &PlanetScript,
        function: &str,
        state: &GameState,
        player: Player,
    ) -> (Box<Run>, Result<Value, ScriptError>) {
        let run = self.run_for(state, player, RunKind::Planet, &[]);
        let name = self.shared.names.player(player);
        self.call(&script.chunk, function, run, self.budgets.check, (&self.ctx, name))
    }

    fn planet_label(&self, planet: PlanetId) -> &str {
        self.content.planet(planet).map_or("?", |p| p.id.as_str())
    }

    /// The answer remembered in `memos[slot]`, if its reads hold on `state`.
    fn remembered<T: Copy>(&self, memos: &Memos<T>, slot: usize, state: &GameState, user: Player) -> Option<T> {
        if !self.accelerators.memo {
            return None;
        }
        let answer = memos.answer(slot, state, user)?;
        self.count_shortcut(|t| t.remembered += 1);
        Some(answer)
    }

    /// Keeps `answer` in `memos[slot]` if `run` read only what a memo can check.
    fn remember<T: Copy>(&self, memos: &Memos<T>, slot: usize, run: Box<Run>, answer: T) -> T {
        memos.keep(slot, run.trace, run.user, answer);
        answer
    }

    /// Frees garbage left by earlier runs.
    pub fn collect_garbage(&self) {
        let _ = self.lua.gc_collect();
    }

    pub fn memory_used(&self) -> usize {
        self.lua.used_memory()
    }
}

/// The end of a script run that returned: checkers lifted must be back, every
/// answer given must have been asked for, and the board must be consistent.
fn finished(
    state: GameState,
    lifted: &[(crate::kernel::Square, crate::kernel::Checker)],
    unused: &[Answer],
) -> Result<Resolution, ScriptError> {
    if let Some((sq, _)) = lifted.first() {
        return Err(format!("ended with the checker lifted from {sq} not put back").into());
    }
    if let Some(answer) = unused.first() {
        return Err(format!("ended without asking for answer '{answer}'").into());
    }
    match state.board.validate() {
        Ok(()) => Ok(Resolution::Done(Box::new(state))),
        Err(e) => Err(format!("left the board inconsistent: {e}").into()),
    }
}

/// Where a planet's remembered answers for `player` are kept.
fn planet_slot(planet: PlanetId, player: Player) -> usize {
    usize::from(planet.0) * 2 + player.index()
}

/// The value a script call returned, or its error, from the prelude's `ok, value`.
fn outcome(result: mlua::Result<(Value, Value)>) -> Result<Value, ScriptError> {
    match result {
        Err(e) => Err(describe_error(&e).into()),
        Ok((Value::Boolean(true), value)) => Ok(value),
        Ok((_, Value::Error(e))) => Err(describe_error(&e).into()),
        Ok((_, Value::String(s))) => Err(sandbox::error_text(&s.to_string_lossy()).into()),
        Ok((_, other)) => Err(format!("raised an error value of type {}", other.type_name()).into()),
    }
}

impl CardHost for ScriptEngine {
    fn playable(&self, state: &GameState, card: CardId) -> bool {
        self.can_play(state, card).unwrap_or_else(|e| {
            self.note_error(e, None);
            false
        })
    }

    fn resolve(&self, state: &GameState, card: CardId, answers: &[Answer]) -> Resolution {
        self.run_card(state, card, answers).resolution
    }

    fn resolve_noting_inputs(&self, state: &GameState, card: CardId, answers: &[Answer]) -> (Resolution, Inputs) {
        let run = self.run_card(state, card, answers);
        (run.resolution, run.inputs)
    }

    fn reacts(&self, card: CardId, kind: EventKind) -> bool {
        self.cards.get(usize::from(card.0)).is_some_and(|c| c.handlers.contains(&kind))
    }

    fn react(&self, state: &GameState, effect: &Effect, event: &Logged, answers: &[Answer]) -> Resolution {
        self.run_handler(state, effect, event, answers)
    }

    fn card_label(&self, card: CardId) -> String {
        ScriptEngine::card_label(self, card)
    }

    fn begins(&self, card: CardId) -> bool {
        self.cards.get(usize::from(card.0)).is_some_and(|c| c.has_begins)
    }

    fn offers_moves(&self, card: CardId) -> bool {
        self.cards.get(usize::from(card.0)).is_some_and(|c| c.has_extra_moves)
    }

    fn extra_moves(&self, state: &GameState, effect: &Effect) -> Vec<Move> {
        ScriptEngine::extra_moves(self, state, effect).unwrap_or_else(|e| {
            self.note_error(e, None);
            Vec::new()
        })
    }

    fn forbids_moves(&self, card: CardId) -> bool {
        self.cards.get(usize::from(card.0)).is_some_and(|c| c.has_forbid_moves)
    }

    fn forbidden_moves(&self, state: &GameState, effect: &Effect) -> Vec<Forbidden> {
        ScriptEngine::forbid_moves(self, state, effect).unwrap_or_else(|e| {
            self.note_error(e, None);
            Vec::new()
        })
    }

    fn judges(&self, card: CardId) -> bool {
        self.cards.get(usize::from(card.0)).is_some_and(|c| c.has_verdict)
    }

    /// A failing verdict is told in the game itself (GameState::score), so
    /// it is not noted here as well.
    fn verdict(&self, state: &GameState, effect: &Effect, scored: Scored) -> Result<Verdict, String> {
        ScriptEngine::verdict(self, state, effect, scored).map_err(|e| sandbox::clean(e.message()))
    }

    fn game_begins(&self, state: &GameState, card: CardId) -> Resolution {
        self.run_game_begins(state, card)
    }

    fn planet_listens(&self, planet: PlanetId, kind: Option<EventKind>) -> bool {
        self.planets.get(usize::from(planet.0)).is_some_and(|p| match kind {
            Some(kind) => p.handlers.contains(&kind),
            None => !p.handlers.is_empty(),
        })
    }

    fn planet_begins(&self, planet: PlanetId) -> bool {
        self.planets.get(usize::from(planet.0)).is_some_and(|p| p.has_begins)
    }

    fn planet_hears(
        &self,
        state: &GameState,
        planet: PlanetId,
        player: Player,
        event: Option<&Logged>,
    ) -> Result<Data, GameError> {
        self.run_planet_handler(state, planet, player, event).map_err(|e| {
            self.note_error(e.clone(), Some(player));
            GameError::PlanetFailed(e.into())
        })
    }

    fn planet_holds(&self, state: &GameState, planet: PlanetId, player: Player) -> bool {
        self.check_planet(state, planet, player).unwrap_or_else(|e| {
            self.note_error(e, Some(player));
            false
        })
    }

    fn planet_progress(&self, state: &GameState, planet: PlanetId, player: Player) -> f32 {
        ScriptEngine::planet_progress(self, state, planet, player).unwrap_or_else(|e| {
            self.note_error(e, Some(player));
            0.0
        })
    }
}

/// Makes script engines for helper search threads from `content` (already
/// compiled once, so compiling it again succeeds).
pub fn engine_factory(content: &Content) -> crate::ai::HostFactory {
    let content = content.clone();
    Arc::new(move || {
        let engine = ScriptEngine::new(content.clone()).unwrap_or_else(|p| panic!("the deck compiled before: {p}"));
        Box::new(engine) as Box<dyn CardHost>
    })
}

/// A script's compile error as a problem of its file, at its line and column when known.
fn problem(path: &std::path::Path, error: CompileError) -> Problem {
    match error.at {
        Some((line, column)) => Problem::at(path, line, column, error.message),
        None => Problem::file(path, error.message),
    }
}
