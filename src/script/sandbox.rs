//! The Lua state every script runs in, and the limits around each run
//! (ARCHITECTURE.md, "Safety of scripts").
//!
//! - Only the table, string, math, utf8 and coroutine libraries are loaded
//!   (coroutines are pure computation and the global hook reaches them); no `io`,
//!   `os`, `package`, `debug`, `load`, `dofile`, `loadfile`, `require`,
//!   `collectgarbage`, `print`, `next`, `rawset`, `math.random` or `string.dump`.
//! - Scripts are compiled from text only. Every run of a script executes its
//!   chunk again into a fresh environment (prelude.lua), so nothing a run leaves
//!   in its locals, globals or tables reaches the next run or another script;
//!   what runs share (the libraries, `ctx`, the halt value) is read-only, and
//!   reading an undefined global is an error. The string metatable is locked.
//! - A count hook meters instructions. When a run must stop (budget spent, out of
//!   memory, or a question that needs an answer), the meter is marked halted:
//!   from then on every hook call raises an error, and the host's `pcall` and
//!   `xpcall` re-raise instead of catching, so no script can swallow the stop.
//! - Every run restarts its thread's hook count, so where a run stops depends on
//!   its own instructions, not on what ran on that thread before.
//! - Work that one instruction does not measure is charged to the budget by the
//!   prelude (`charge`): each coroutine made (the hook counts per thread, and a
//!   new thread starts a fresh count), and the library functions whose work
//!   grows with their input (long strings, table ranges, patterns). Function
//!   metamethods run through a Lua wrapper, so a C function looping over them
//!   (`table.concat` with a C `__index`) is metered too.
//! - Every limit that decides what happens is counted in units that are the
//!   same on every machine and in every history: instructions (in whole hook
//!   periods, from a count restarted at the run's start and at every question,
//!   so a run resumed at an answer counts exactly as one run afresh with it),
//!   host-call charges, and the bytes the run allocates ([`RUN_MEMORY`]),
//!   counted while the collector does not run (it is stepped between runs),
//!   so that what earlier runs left does not matter.
//! - The wall clock is only a guard against a bug in that metering
//!   ([`TIME_GUARD`]): a run past it is stopped and the engine is marked
//!   broken; it never refuses, skips or changes a decision (the session and
//!   the simulator end their work with an error naming the script).

use std::cell::RefCell;
use std::rc::Rc;

use mlua::chunk::ChunkMode;
use mlua::{Error as LuaError, Function, HookTriggers, Lua, LuaOptions, MultiValue, StdLib, Table, Value, VmState};

use crate::game::Question;

/// Instructions between two hook calls.
const HOOK_EVERY: u32 = 1000;
/// The time no run may take: a guard against a bug in the metering, never a
/// limit of the game's. A run's budget allows some tens of milliseconds of Lua
/// and its bytes are bounded by [`RUN_MEMORY`], so a run that reaches the guard
/// has found work the meter does not count. What it did cannot be trusted to
/// be the same on another machine, so it is not used: the engine is marked
/// broken ([`ScriptEngine::broken`](super::ScriptEngine::broken)) and the
/// [`on_time_guard`] action, if one is set, runs.
pub const TIME_GUARD: std::time::Duration = std::time::Duration::from_secs(30);
/// What one call of a `ctx` method costs, in instructions: a host call takes
/// about as long as this many VM instructions, so a loop of calls is metered
/// for what it costs.
pub const HOST_CALL_COST: u64 = 64;
/// What an error costs on top, raised by a `ctx` call or caught by a script's
/// `pcall`: raising it (a message, a traceback) takes about as long as this
/// many VM instructions.
pub const HOST_ERROR_COST: u64 = 1024;
/// The bytes one run may allocate (the collector is stopped while it runs, so
/// this counts every allocation, whatever earlier runs left behind).
pub const RUN_MEMORY: usize = 16 * 1024 * 1024;

/// Why a run was stopped before its script returned.
#[derive(Clone, Debug, PartialEq)]
pub enum Stop {
    /// The script asked a question that has no answer yet (not a failure).
    Asked(Question),
    /// The script ended the game (`ctx:end_game`; not a failure): its run is
    /// over, and what it did so far stands.
    Ended,
    /// The instruction budget ran out at this place (`file:line`).
    Budget(String),
    /// The memory limit was reached.
    Memory,
    /// [`TIME_GUARD`] was reached at this place (`file:line`): a bug in the
    /// metering, which ends the engine's work.
    TimeGuard(String),
}

/// The meter for the current run. One per Lua state, shared by the hook, the
/// host's `pcall`, the engine and the host functions (and kept in the state's
/// app data for the rest).
#[derive(Debug, Default)]
pub struct Meter {
    used: u64,
    limit: u64,
    stop: Option<Stop>,
    /// Whether the hook counts: from the first restart of the count in the
    /// run (`restart_count`), so that the few instructions before it, whose
    /// hook phase depends on what ran on the thread before, never count.
    counting: bool,
    /// When the run began, for [`TIME_GUARD`].
    began: Option<std::time::Instant>,
    /// The time guard in force ([`TIME_GUARD`] unless the engine's budgets say
    /// otherwise), which outlives the run.
    guard: Option<std::time::Duration>,
    /// Where the time guard stopped a run, which outlives the run: the engine
    /// is broken from then on.
    broken: Option<String>,
    /// The file of the script that runs, to name when a stop finds no frame
    /// of it on the stack (a tail call into the library replaced it).
    script: Option<Rc<str>>,
    /// A table whose one weak entry [`count_memory`] fills with a new empty
    /// table when it is empty: the entry goes only when a collection runs,
    /// which during a run Lua does only when an allocation passed the run's
    /// memory limit (an emergency collection). Kept between runs.
    canary: Option<Canary>,
}

pub type SharedMeter = Rc<RefCell<Meter>>;

impl Meter {
    pub fn halted(&self) -> bool {
        self.stop.is_some()
    }

    /// Starts metering a run of `script` (its file) with an instruction
    /// budget, `used` already spent.
    pub fn start(&mut self, budget: u64, used: u64, script: Option<Rc<str>>) {
        RESTARTED.set(false);
        let began = Some(std::time::Instant::now());
        *self = Meter { used, limit: budget, began, script, ..self.between_runs() };
    }

    /// What outlives a run: the time guard and whether it was reached.
    fn between_runs(&mut self) -> Meter {
        Meter { guard: self.guard, broken: self.broken.take(), canary: self.canary.take(), ..Meter::default() }
    }

    /// Where a stop is told: the script's innermost line, else its file.
    fn place(&self, lua: &Lua) -> String {
        innermost_script_place(lua).unwrap_or_else(|| self.script.as_deref().unwrap_or("?").to_string())
    }

    /// Sets the time guard of every run from now on.
    pub fn set_time_guard(&mut self, guard: std::time::Duration) {
        self.guard = Some(guard);
    }

    /// Where the time guard stopped a run, if it ever did.
    pub fn broken(&self) -> Option<&str> {
        self.broken.as_deref()
    }

    /// Adds `units` instructions; false when the budget is spent (or the
    /// time guard reached).
    fn spend(&mut self, units: u64) -> bool {
        self.used = self.used.saturating_add(units);
        self.used <= self.limit && self.within_guard()
    }

    /// Charges one `ctx` call ([`HOST_CALL_COST`]); false when the run is halted
    /// or the budget is spent (then the run is halted at `lua`'s script
    /// line). The time guard is left to the hook.
    pub fn charge_host_call(&mut self, lua: &Lua) -> bool {
        if self.stop.is_some() {
            return false;
        }
        self.used = self.used.saturating_add(HOST_CALL_COST);
        if self.used <= self.limit {
            return true;
        }
        self.stop_at(self.place(lua));
        false
    }

    /// Gives back one `ctx` call's charge: a question call the engine makes
    /// a second time after resuming a run (mod.rs, `run_card`) costs what
    /// the one call of a run afresh costs.
    pub fn refund_host_call(&mut self) {
        self.used = self.used.saturating_sub(HOST_CALL_COST);
    }

    /// Charges the raising of an error a `ctx` call raised or a script's
    /// `pcall` caught ([`HOST_ERROR_COST`]); the next hook or charge stops a
    /// run this took past its budget.
    pub fn charge_host_error(&mut self) {
        self.used = self.used.saturating_add(HOST_ERROR_COST);
    }

    fn within_guard(&self) -> bool {
        let guard = self.guard.unwrap_or(TIME_GUARD);
        self.began.is_none_or(|t| t.elapsed() < guard)
    }

    /// Stops the run at `place` for whichever limit [`Meter::spend`] found spent.
    fn stop_at(&mut self, place: String) {
        if self.used <= self.limit {
            self.broken.get_or_insert_with(|| place.clone());
            if let Some(action) = TIME_GUARD_ACTION.get() {
                action(&place);
            }
            self.stop = Some(Stop::TimeGuard(place));
        } else {
            self.stop = Some(Stop::Budget(place));
        }
    }

    /// Whether the run passed its memory limit: an emergency collection
    /// emptied the canary. From that allocation on, what the run does
    /// depends on garbage earlier runs left, so the run ends for memory
    /// whatever it did next.
    fn out_of_memory(&self, lua: &Lua) -> bool {
        self.canary.as_ref().is_some_and(|c| c.is_empty(lua))
    }

    /// Halts the run for memory if it passed its limit; whether it did.
    fn stop_if_out_of_memory(&mut self, lua: &Lua) -> bool {
        let out = self.out_of_memory(lua);
        if out {
            self.mark(Stop::Memory);
        }
        out
    }

    /// Ends a run; returns why it was stopped, if it was, and the instructions
    /// it used. A run that passed its memory limit ends for memory, however
    /// it went on. Outside runs no budget is left, so any stray Lua code
    /// (there should be none) stops at once.
    pub fn end(&mut self, lua: &Lua) -> (Option<Stop>, u64) {
        let stop = if self.out_of_memory(lua) { Some(Stop::Memory) } else { self.stop.take() };
        let ended = (stop, self.used);
        *self = self.between_runs();
        ended
    }

    /// Marks the run halted for `stop` (unless it already is); the caller makes
    /// the script stop.
    pub fn mark(&mut self, stop: Stop) {
        if self.stop.is_none() {
            self.stop = Some(stop);
        }
    }
}

/// The weak table that shows an emergency collection ([`Meter::canary`]),
/// and its place in the registry, where the check finds it cheaply.
#[derive(Debug)]
struct Canary {
    table: Table,
    key: mlua::RegistryKey,
}

impl Canary {
    fn new(lua: &Lua) -> mlua::Result<Canary> {
        let table = lua.create_table()?;
        table.set_metatable(Some(lua.create_table_from([("__mode", "v")])?))?;
        let key = lua.create_registry_value(&table)?;
        Ok(Canary { table, key })
    }

    /// Whether the weak entry is gone. Checked at every hook, so through the
    /// C API: two reads from the registry, without making a value.
    fn is_empty(&self, lua: &Lua) -> bool {
        let key = self.key.id();
        lua.exec_raw_lua(|raw| {
            let state = raw.state();
            // SAFETY: `state` is the running thread (or the main one); two
            // slots are made sure of, used and given back.
            unsafe {
                use mlua::ffi;
                if ffi::lua_checkstack(state, 2) == 0 {
                    return false;
                }
                ffi::lua_rawgeti(state, ffi::LUA_REGISTRYINDEX, ffi::lua_Integer::from(key));
                let empty = ffi::lua_rawgeti(state, -1, 1) == ffi::LUA_TNIL;
                ffi::lua_settop(state, -3);
                empty
            }
        })
    }
}

thread_local! {
    /// Set by `restart_count` (each Lua state is used by one thread at a
    /// time), read by the hook: see [`Meter::counting`].
    static RESTARTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// What is told when the time guard stopped a run at `place` (`file:line`).
pub fn time_guard_message(place: &str, guard: std::time::Duration) -> String {
    format!(
        "a script ran past the {} s time guard at {place}; the instruction budget should have stopped it first, \
         so this is a bug in the engine's metering (please report it with this deck)",
        guard.as_secs_f64()
    )
}

/// What the program does when the time guard stops a run, set once
/// ([`on_time_guard`]).
static TIME_GUARD_ACTION: std::sync::OnceLock<fn(&str)> = std::sync::OnceLock::new();

/// Sets what the program does, in whichever thread, when the time guard stops
/// a run at a place (`file:line`): a program that cannot go on (the REPL, the
/// simulator) ends there with an error naming the script. Without it the
/// engine is only marked broken.
pub fn on_time_guard(action: fn(&str)) {
    let _ = TIME_GUARD_ACTION.set(action);
}

/// What the prelude hands the host.
pub struct Prelude {
    /// `call_script(chunk, name, ...)`: one run of a script: its chunk into a
    /// fresh environment, then the function `name` it defines.
    pub call_script: Function,
    /// `instantiate(chunk)`: runs a chunk into a fresh environment and returns it.
    pub instantiate: Function,
    /// Calls a function under the raw `pcall`: returns `ok, ...`.
    pub runner: Function,
    /// The sentinel `ask_*` return to stop a run.
    pub halt: Table,
    /// Makes the read-only `ctx` every run is given, over the host functions.
    pub make_ctx: Function,
    /// The body of a card run's coroutine: `body(itself, chunk, ctx)` returns `ok, ...`.
    pub body: Function,
    /// An empty environment whose reads fail: the `_ENV` upvalue of compiled chunks.
    pub void: Table,
    pub meter: SharedMeter,
}

/// Creates the restricted Lua state with the hook, the memory limit and the
/// prelude installed.
pub fn new_state() -> mlua::Result<(Lua, Prelude)> {
    let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
    let lua = Lua::new_with(libs, LuaOptions::default())?;
    let meter = SharedMeter::default();
    lua.set_app_data(Rc::clone(&meter));
    meter.borrow_mut().canary = Some(Canary::new(&lua)?);
    let hook_meter = Rc::clone(&meter);
    lua.set_global_hook(HookTriggers::new().every_nth_instruction(HOOK_EVERY), move |lua, debug| {
        let Ok(mut meter) = hook_meter.try_borrow_mut() else { return Ok(VmState::Continue) };
        if !meter.counting {
            // Before the run's first restart of the count the period began in
            // an earlier run on this thread: not counted (see `counting`).
            if !RESTARTED.get() {
                return Ok(VmState::Continue);
            }
            meter.counting = true;
        }
        if meter.stop.is_none() {
            if meter.stop_if_out_of_memory(lua) {
                return Err(LuaError::runtime("the script was stopped"));
            }
            if meter.spend(u64::from(HOOK_EVERY)) {
                return Ok(VmState::Continue);
            }
            let place = innermost_script_place(lua)
                .or_else(|| meter.script.as_deref().map(String::from))
                .unwrap_or_else(|| {
                    let source = debug.source();
                    let file = source.short_src.as_deref().unwrap_or("?").to_string();
                    format!("{file}:{}", debug.current_line().map_or(String::from("?"), |l| l.to_string()))
                });
            meter.stop_at(place);
        }
        Err(LuaError::runtime("the script was stopped"))
    })?;
    let (m1, m2, m3, m4) = (Rc::clone(&meter), Rc::clone(&meter), Rc::clone(&meter), Rc::clone(&meter));
    let locate = lua.create_function(|lua, message: mlua::LuaString| host_locate(lua, &message))?;
    let pcall = lua.create_function(move |lua, args| host_pcall(lua, &m1, args))?;
    let xpcall = lua.create_function(move |lua, args| host_xpcall(lua, &m2, args))?;
    let charge = lua.create_function(move |lua, units: f64| host_charge(lua, &m3, units))?;
    let rethrow_stop = lua.create_function(move |_, error: Value| host_rethrow_stop(&m4, error))?;
    // SAFETY: `restart_hook_count` only reads and sets the calling thread's hook.
    let restart = unsafe { lua.create_c_function(restart_hook_count) }?;
    // Lock the string metatable before anything untrusted runs.
    lua.load("local mt = getmetatable(''); mt.__metatable = 'locked'").set_name("=prelude").exec()?;
    begin(&lua, u64::MAX);
    let parts: Table = lua.load(include_str!("prelude.lua")).set_name("=prelude").set_mode(ChunkMode::Text).call((
        pcall,
        xpcall,
        charge,
        restart,
        HOOK_EVERY,
        rethrow_stop,
        locate,
    ))?;
    finish(&lua, &std::cell::Cell::new(0));
    let prelude = Prelude {
        call_script: parts.get("call_script")?,
        instantiate: parts.get("instantiate")?,
        runner: parts.get("runner")?,
        halt: parts.get("halt")?,
        make_ctx: parts.get("make_ctx")?,
        body: parts.get("body")?,
        void: parts.get("void")?,
        meter,
    };
    // Card runs make many short-lived tables and strings: a generational
    // collector handles them far more cheaply than the incremental one.
    lua.gc_set_mode(mlua::prelude::LuaGcMode::Generational(mlua::prelude::LuaGcGenParams::default()));
    // Collections happen between runs only (`reclaim`), or in an emergency.
    lua.gc_stop();
    Ok((lua, prelude))
}

/// Compiles a script's text (text only, never bytecode) into a chunk that
/// takes its environment as its argument: `local _ENV = ...` goes in front, on
/// the first line, so line numbers stay the script's own. The chunk's own
/// `_ENV` upvalue is `void`, an empty table whose reads fail.
pub fn compile_script(lua: &Lua, name: &str, source: &str, void: Table) -> Result<Function, CompileError> {
    if source.starts_with('\x1b') {
        let message = "a binary (precompiled) chunk; only Lua source text is accepted".to_string();
        return Err(CompileError { at: None, message });
    }
    lua.load(format!("local _ENV = ...; {source}"))
        .set_name(format!("@{name}"))
        .set_mode(ChunkMode::Text)
        .set_environment(void)
        .into_function()
        .map_err(|e| match &e {
            LuaError::SyntaxError { message, .. } => syntax_error(name, source, message),
            other => CompileError { at: None, message: describe_error(other) },
        })
}

/// The line and column (1-based) where `name` first appears in `source` as a
/// whole word (comments and strings included): enough to point a modder at the
/// definition of a misnamed function.
pub fn first_use(source: &str, name: &str) -> Option<(usize, usize)> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    source.lines().enumerate().find_map(|(i, line)| {
        line.match_indices(name).find_map(|(at, _)| {
            let before = line[..at].chars().next_back().is_none_or(|c| !word(c));
            let after = line[at + name.len()..].chars().next().is_none_or(|c| !word(c));
            (before && after).then(|| (i + 1, line[..at].chars().count() + 1))
        })
    })
}

/// Why a script does not compile, and where in it when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    /// 1-based line and column in the script.
    pub at: Option<(usize, usize)>,
    pub message: String,
}

/// Lua's `name:LINE: message near 'token'` as a line, a column and the message.
/// Lua names no column: it is where the token the message names last appears on
/// that line (the parser stops at the first token that does not fit, which is
/// the later of two alike), the line's end for `<eof>`, else 1.
fn syntax_error(name: &str, source: &str, message: &str) -> CompileError {
    let rest = message.strip_prefix(name).and_then(|r| r.strip_prefix(':'));
    let Some((line, text)) = rest.and_then(|r| r.split_once(": ")).and_then(|(n, t)| Some((n.parse().ok()?, t))) else {
        return CompileError { at: None, message: message.to_string() };
    };
    let line: usize = line;
    let source_line = source.lines().nth(line.saturating_sub(1)).unwrap_or("");
    let near = text.rsplit_once(" near ").map(|(_, t)| t.trim_matches('\''));
    let column = match near {
        Some("<eof>") => source_line.chars().count() + 1,
        Some(token) => source_line.rfind(token).map_or(1, |i| source_line[..i].chars().count() + 1),
        None => 1,
    };
    CompileError { at: Some((line, column)), message: text.to_string() }
}

fn meter(lua: &Lua) -> Option<SharedMeter> {
    lua.app_data_ref::<SharedMeter>().map(|m| Rc::clone(&m))
}

/// Starts metering a run with an instruction budget, and counting the bytes
/// it allocates ([`count_memory`]).
pub fn begin(lua: &Lua, budget: u64) {
    if let Some(meter) = meter(lua) {
        meter.borrow_mut().start(budget, 0, None);
        count_memory(lua, &meter.borrow());
    }
}

/// From here the run may allocate [`RUN_MEMORY`] bytes. The collector never
/// runs on its own ([`new_state`] stops it; [`reclaim`] steps it between
/// runs), so the count is of what the run allocates, whatever garbage
/// earlier runs left and wherever the collector was in its cycle. An
/// allocation past the limit makes Lua collect in an emergency, which
/// empties the canary ([`Meter::out_of_memory`]): the run ends for memory.
pub fn count_memory(lua: &Lua, meter: &Meter) {
    if let Some(canary) = &meter.canary
        && canary.is_empty(lua)
        && let Ok(fresh) = lua.create_table()
    {
        let _ = canary.table.raw_set(1, fresh);
    }
    let _ = lua.set_memory_limit(lua.used_memory() + RUN_MEMORY);
}

/// The heap past which a run's garbage is collected in full at once.
const COLLECT_IN_FULL: usize = 16 * 1024 * 1024;

/// After a run: the memory limit is lifted (the host's own allocations are
/// not counted), and the collector does the work it is paced for, as it
/// would have done itself: a step (young in the generational mode) once the
/// heap has grown by a fifth (at least 256 KiB) since the last, a full
/// collection, twice so that finalized objects go too, past
/// [`COLLECT_IN_FULL`].
pub fn reclaim(lua: &Lua, collected_at: &std::cell::Cell<usize>) {
    let _ = lua.set_memory_limit(0);
    let used = lua.used_memory();
    if used > COLLECT_IN_FULL {
        let _ = lua.gc_collect();
        let _ = lua.gc_collect();
    } else if used > collected_at.get() + (used / 5).max(256 * 1024) {
        let _ = lua.gc_step();
    } else {
        return;
    }
    collected_at.set(lua.used_memory());
}

/// Ends a run; returns why it was stopped, if it was (see [`Meter::end`]).
pub fn finish(lua: &Lua, collected_at: &std::cell::Cell<usize>) -> Option<Stop> {
    let stop = meter(lua).and_then(|m| m.borrow_mut().end(lua).0);
    reclaim(lua, collected_at);
    stop
}

/// Halts the current run for `stop` and returns the error that unwinds the script.
fn halt(meter: &SharedMeter, stop: Stop) -> LuaError {
    meter.borrow_mut().mark(stop);
    LuaError::runtime("the script was stopped")
}

/// `charge(units)` for the prelude: work one instruction does not measure (a
/// coroutine made, a long string scanned), added to the run's instructions; a
/// run whose budget it spends stops there, like the hook's.
fn host_charge(lua: &Lua, meter: &SharedMeter, units: f64) -> mlua::Result<()> {
    let units = if units.is_finite() && units > 0.0 { units.min(u64::MAX as f64) as u64 } else { 0 };
    let mut meter = meter.borrow_mut();
    if meter.stop.is_none() {
        // Library calls are where big strings go: a run past its memory
        // stops here rather than at the next hook.
        if meter.stop_if_out_of_memory(lua) {
            return Err(LuaError::runtime("the script was stopped"));
        }
        if meter.spend(units) {
            return Ok(());
        }
        let place = meter.place(lua);
        meter.stop_at(place);
    }
    Err(LuaError::runtime("the script was stopped"))
}

/// `rethrow_stop(error)` for the prelude, after a script's own coroutine
/// failed: raises the error again when it is an engine stop (the run is
/// halted, or the coroutine ran out of memory), so that no script construct
/// catches a stop; otherwise returns.
fn host_rethrow_stop(meter: &SharedMeter, error: Value) -> mlua::Result<()> {
    if meter.borrow().halted() {
        return Err(LuaError::runtime("the script was stopped"));
    }
    if matches!(&error, Value::String(s) if s.as_bytes() == OUT_OF_MEMORY.as_bytes()) {
        return Err(halt(meter, Stop::Memory));
    }
    Ok(())
}

/// `locate(message)` for the prelude's message handler: an error raised inside
/// a library function names the prelude's line (`prelude:123: bad argument…`);
/// this gives it the script's line that called the library instead, while the
/// stack that raised it is still there.
fn host_locate(lua: &Lua, message: &mlua::LuaString) -> mlua::Result<mlua::LuaString> {
    let bytes = message.as_bytes();
    let rest = bytes.strip_prefix(b"prelude:").unwrap_or(&bytes);
    let after_line = rest.iter().position(|b| !b.is_ascii_digit()).map_or(rest, |i| &rest[i..]);
    let text = after_line.strip_prefix(b": ").unwrap_or(after_line);
    match innermost_script_place(lua) {
        Some(place) => lua.create_string([place.as_bytes(), b": ", text].concat()),
        None => lua.create_string(text),
    }
}

/// Where in a script the run is: the innermost frame of a script's own file
/// (not the prelude's, not a C function's), as `file:line`, so that a stop
/// inside a library call names the card's line that made it.
fn innermost_script_place(lua: &Lua) -> Option<String> {
    (0..)
        .map_while(|level| {
            lua.inspect_stack(level, |d| {
                let source = d.source();
                let file = source.short_src.as_deref().unwrap_or("?").to_string();
                let ours = source.what != "C" && source.source.as_deref().is_some_and(|s| s.starts_with('@'));
                ours.then(|| format!("{file}:{}", d.current_line().map_or(String::from("?"), |l| l.to_string())))
            })
        })
        .flatten()
        .next()
}

/// Restarts the calling thread's hook count (its hook and mask stay), so that
/// a run meters from the same point whatever ran on the thread before it: the
/// count is per thread, and the main thread and the card thread serve many runs.
unsafe extern "C-unwind" fn restart_hook_count(state: *mut mlua::lua_State) -> std::ffi::c_int {
    use mlua::ffi;
    // SAFETY: `state` is the running thread, which Lua hands its C functions.
    unsafe {
        let (hook, mask, count) = (ffi::lua_gethook(state), ffi::lua_gethookmask(state), ffi::lua_gethookcount(state));
        ffi::lua_sethook(state, hook, mask, count);
    }
    RESTARTED.set(true);
    0
}

/// `pcall` for scripts: like Lua's, but a halted run is never caught.
fn host_pcall(lua: &Lua, meter: &SharedMeter, (f, args): (Value, MultiValue)) -> mlua::Result<MultiValue> {
    // A host call like ctx's, charged as one.
    if !meter.borrow_mut().charge_host_call(lua) {
        return Err(LuaError::runtime("the script was stopped"));
    }
    let result = match &f {
        Value::Function(f) => f.call::<MultiValue>(args),
        other => Err(LuaError::runtime(format!("attempt to call a {} value", other.type_name()))),
    };
    match result {
        Ok(mut values) => {
            values.push_front(Value::Boolean(true));
            Ok(values)
        }
        Err(e) => caught(lua, meter, e).map(|message| MultiValue::from_iter([Value::Boolean(false), message])),
    }
}

/// `xpcall` for scripts: like Lua's, but a halted run is never caught.
fn host_xpcall(
    lua: &Lua,
    meter: &SharedMeter,
    (f, handler, args): (Value, Value, MultiValue),
) -> mlua::Result<MultiValue> {
    if !meter.borrow_mut().charge_host_call(lua) {
        return Err(LuaError::runtime("the script was stopped"));
    }
    let function = |pos: usize, v: Value| match v {
        Value::Function(f) => Ok(f),
        other => Err(LuaError::runtime(format!("bad argument #{pos}: expected function, got {}", other.type_name()))),
    };
    let (f, handler) = (function(1, f)?, function(2, handler)?);
    match f.call::<MultiValue>(args) {
        Ok(mut values) => {
            values.push_front(Value::Boolean(true));
            Ok(values)
        }
        Err(e) => {
            let message = caught(lua, meter, e)?;
            let handled = handler.call::<Value>(message);
            let value = match handled {
                Ok(v) => v,
                Err(e) => caught(lua, meter, e)?,
            };
            Ok(MultiValue::from_iter([Value::Boolean(false), value]))
        }
    }
}

/// An error a script's `pcall` may catch, as the message it sees; or the error
/// again if the run is halting.
fn caught(lua: &Lua, meter: &SharedMeter, e: LuaError) -> mlua::Result<Value> {
    let failed_allocation = match innermost(&e) {
        LuaError::MemoryError(_) => true,
        LuaError::RuntimeError(m) => m == OUT_OF_MEMORY,
        _ => false,
    };
    if failed_allocation {
        return Err(halt(meter, Stop::Memory));
    }
    if meter.borrow().halted() {
        return Err(e);
    }
    // Raising and catching costs what a failing ctx call's error costs (the
    // stack walked for its traceback, its message made), however few
    // instructions the failing code ran.
    meter.borrow_mut().charge_host_error();
    Ok(Value::String(lua.create_string(describe_error(&e))?))
}

fn innermost(e: &LuaError) -> &LuaError {
    match e {
        LuaError::CallbackError { cause, .. } => innermost(cause),
        LuaError::WithContext { cause, .. } => innermost(cause),
        other => other,
    }
}

/// One line: where (`file:line`, when known) and what went wrong.
pub fn describe_error(e: &LuaError) -> String {
    let place = match e {
        LuaError::CallbackError { traceback, .. } => script_place(traceback),
        _ => None,
    };
    let message = match innermost(e) {
        LuaError::RuntimeError(m) if m == OUT_OF_MEMORY => memory_message(),
        LuaError::RuntimeError(m) => m.clone(),
        LuaError::SyntaxError { message, .. } => message.clone(),
        LuaError::MemoryError(_) => memory_message(),
        LuaError::FromLuaConversionError { from, to, message } => {
            let to = crate::content::plain_type(to).unwrap_or(to);
            format!("expected {to}, got {from}{}", message.as_ref().map(|m| format!(": {m}")).unwrap_or_default())
        }
        // A ctx function's argument of the wrong type (its position would count
        // the ctx itself): the cause says what was wrong.
        LuaError::BadArgument { cause, .. } => describe_error(cause),
        other => other.to_string(),
    };
    let message = clean(message.lines().next().unwrap_or(""));
    match place {
        Some(place) if !message.contains(".lua:") => format!("{place}: {message}"),
        _ => message,
    }
}

/// Lua's own message for an allocation that failed (lstate.h, MEMERRMSG),
/// which the library's buffers raise as an ordinary error.
const OUT_OF_MEMORY: &str = "not enough memory";

/// A string a run raised, as the message told: cleaned, and Lua's own
/// message for a failed allocation told as the memory limit.
pub fn error_text(raised: &str) -> String {
    if raised == OUT_OF_MEMORY { memory_message() } else { clean(raised) }
}

fn memory_message() -> String {
    format!("ran out of memory (a run may allocate {} MiB)", RUN_MEMORY >> 20)
}

/// Longest error message passed on, in characters.
pub const MAX_MESSAGE: usize = 300;

/// An error message fit for scripts and players: without memory addresses (Lua
/// writes `table: 0x55…` for values without `__tostring`; an address differs from
/// run to run, so a script must never see one) and at most [`MAX_MESSAGE`] long.
pub fn clean(message: &str) -> String {
    let message = &*crate::text::visible(message);
    let mut out = String::with_capacity(message.len().min(MAX_MESSAGE + 3));
    let mut rest = message;
    while let Some(at) = rest.find("0x") {
        let hex = rest[at + 2..].chars().take_while(char::is_ascii_hexdigit).count();
        if hex < 4 {
            out.push_str(&rest[..at + 2]);
            rest = &rest[at + 2..];
            continue;
        }
        out.push_str(rest[..at].strip_suffix(": ").unwrap_or(&rest[..at]));
        rest = &rest[at + 2 + hex..];
    }
    out.push_str(rest);
    let chars: Vec<char> = out.chars().collect();
    if chars.len() > MAX_MESSAGE {
        // Keep both ends: the place comes first, the cause often last.
        let half = MAX_MESSAGE / 2;
        out = chars[..half].iter().collect::<String>()
            + " ... "
            + &chars[chars.len() - half..].iter().collect::<String>();
    }
    out
}

pub fn describe_stop(stop: &Stop) -> String {
    match stop {
        Stop::Asked(q) => format!("asked '{}' where no question may be asked", q.prompt),
        Stop::Ended => "ended the game where it may not be ended".to_string(),
        Stop::Budget(place) => format!("{place}: ran too long (instruction budget spent); is there an endless loop?"),
        Stop::Memory => memory_message(),
        Stop::TimeGuard(place) => {
            format!("{place}: ran past the time guard (a bug in the metering: the engine stops working)")
        }
    }
}

/// The first `file.lua:line` in a traceback.
fn script_place(traceback: &str) -> Option<String> {
    traceback.lines().find_map(|line| {
        let line = line.trim();
        let end = line.find(".lua:")? + 5;
        let digits = line[end..].chars().take_while(char::is_ascii_digit).count();
        (digits > 0).then(|| line[..end + digits].to_string())
    })
}
