//! Cards and planets as sandboxed Lua scripts (ENGINEERING.md invariants 3–5).
//!
//! One Lua state per engine; every script is compiled once, into its own private
//! environment. A card runs on a scratch copy of the state: when its script asks
//! a question that has no answer yet, the run halts and the question becomes the
//! game's pending decision; when the answer comes, the script runs again from the
//! card-start snapshot with one more answer. Only a script that returns commits.

mod api;
mod sandbox;

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Function, Lua, MultiValue, Table, Value};

pub use sandbox::MEMORY_LIMIT;

use crate::content::{Content, ContentRoot, Problem, Problems};
use crate::game::{Answer, CardHost, CardId, GameState, PlanetId, Resolution};
use crate::kernel::Player;
use api::Run;
use sandbox::{Stop, describe_error, describe_stop};

/// Instruction budgets. A card may be run once per answer, so its budget is per run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    pub load: u64,
    pub card: u64,
    pub check: u64,
}

impl Default for Budgets {
    fn default() -> Budgets {
        Budgets { load: 1_000_000, card: 5_000_000, check: 500_000 }
    }
}

/// A compiled card: its functions and its own `ctx` proxy.
struct CardScript {
    play: Function,
    can_play: Option<Function>,
    ctx: Table,
}

struct PlanetScript {
    check: Function,
    ctx: Table,
}

/// What a card run produced, with what the script logged.
#[derive(Debug)]
pub struct CardRun {
    pub resolution: Resolution,
    pub log: Vec<String>,
}

/// Runs the scripts of one [`Content`]; implements [`CardHost`].
pub struct ScriptEngine {
    lua: Lua,
    prelude: sandbox::Prelude,
    /// The host functions every script's `ctx` copies.
    api: Table,
    content: Content,
    cards: Vec<CardScript>,
    planets: Vec<PlanetScript>,
    card_ids: Rc<[String]>,
    budgets: Budgets,
    /// Failures of `can_play` and planet checks, which cannot fail the game.
    errors: RefCell<Vec<String>>,
}

impl ScriptEngine {
    /// Compiles every script of `content`; reports every script that fails.
    pub fn new(content: Content) -> Result<ScriptEngine, Problems> {
        let fail =
            |e: mlua::Error| Problems(vec![Problem::file(content.root.path(), format!("cannot start Lua: {e}"))]);
        let (lua, prelude) = sandbox::new_state().map_err(fail)?;
        let api = api::api_table(&lua).map_err(fail)?;
        lua.set_app_data(api::Names::new(&lua, prelude.halt.clone()).map_err(fail)?);
        let mut engine = ScriptEngine {
            lua,
            prelude,
            api,
            card_ids: content.cards.iter().map(|c| c.id.clone()).collect(),
            content,
            cards: Vec::new(),
            planets: Vec::new(),
            budgets: Budgets::default(),
            errors: RefCell::new(Vec::new()),
        };
        engine.compile()?;
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
        for card in &self.content.cards {
            let name = name_of(&card.script.path);
            match self.compile_one(&name, &card.script.source, &["play"], &["can_play"]) {
                Ok((env, ctx)) => cards.push(CardScript {
                    play: env.raw_get("play").expect("checked present"),
                    can_play: env.raw_get("can_play").ok(),
                    ctx,
                }),
                Err(message) => problems.push(Problem::file(&card.script.path, message)),
            }
        }
        for planet in &self.content.planets {
            let name = name_of(&planet.script.path);
            match self.compile_one(&name, &planet.script.source, &["check"], &[]) {
                Ok((env, ctx)) => {
                    planets.push(PlanetScript { check: env.raw_get("check").expect("checked present"), ctx })
                }
                Err(message) => problems.push(Problem::file(&planet.script.path, message)),
            }
        }
        problems.into_result(())?;
        self.cards = cards;
        self.planets = planets;
        Ok(())
    }

    /// Compiles one script into its own environment; returns it and the script's `ctx`.
    fn compile_one(
        &self,
        name: &str,
        source: &str,
        required: &[&str],
        optional: &[&str],
    ) -> Result<(Table, Table), String> {
        let env =
            sandbox::new_env(&self.lua, &self.prelude.base, &self.prelude.copy).map_err(|e| describe_error(&e))?;
        sandbox::begin(&self.lua, self.budgets.load);
        let ctx = self.prelude.make_ctx.call::<Table>(self.api.clone());
        sandbox::finish(&self.lua);
        let ctx = ctx.map_err(|e| describe_error(&e))?;
        sandbox::load_script(&self.lua, name, source, env.clone(), self.budgets.load)?;
        for &f in required.iter().chain(optional) {
            match env.raw_get::<Value>(f) {
                Ok(Value::Function(_)) => {}
                Ok(Value::Nil) if optional.contains(&f) => {}
                Ok(Value::Nil) => return Err(format!("{name} defines no function {f}")),
                Ok(other) => return Err(format!("{name}: {f} must be a function, not a {}", other.type_name())),
                Err(e) => return Err(describe_error(&e)),
            }
        }
        Ok((env, ctx))
    }

    /// Reloads the deck's manifests and scripts from disk. On any problem the
    /// engine keeps the scripts it had and returns the problems.
    pub fn reload(&mut self) -> Result<(), Problems> {
        let fresh = Content::load(&self.content.root, &self.content.deck_path.display().to_string())?;
        let mut next = ScriptEngine::new(fresh)?;
        next.budgets = self.budgets;
        *self = next;
        Ok(())
    }

    pub fn content(&self) -> &Content {
        &self.content
    }

    pub fn set_budgets(&mut self, budgets: Budgets) {
        self.budgets = budgets;
    }

    /// Failures of `can_play` and planet checks since the last call.
    pub fn take_errors(&self) -> Vec<String> {
        std::mem::take(&mut *self.errors.borrow_mut())
    }

    /// Calls `f(args…)` through the raw-pcall runner with `run` as the current run.
    /// Returns the run, why it was stopped (if it was), and the result.
    fn invoke(
        &self,
        f: &Function,
        run: Run,
        budget: u64,
        args: impl mlua::IntoLuaMulti,
    ) -> (Run, Option<Stop>, Result<Value, String>) {
        self.lua.set_app_data(run);
        sandbox::begin(&self.lua, budget);
        let result = self.prelude.runner.call::<MultiValue>((f.clone(), args));
        let stop = sandbox::finish(&self.lua);
        let run = self.lua.remove_app_data::<Run>().expect("the run was set above");
        let result = match result {
            Err(e) => Err(describe_error(&e)),
            Ok(values) => {
                let mut values = values.into_iter();
                match (values.next(), values.next()) {
                    (Some(Value::Boolean(true)), value) => Ok(value.unwrap_or(Value::Nil)),
                    (_, Some(Value::Error(e))) => Err(describe_error(&e)),
                    (_, Some(Value::String(s))) => Err(s.to_string_lossy()),
                    (_, other) => {
                        Err(format!("raised an error value of type {}", other.map_or("nil", |v| v.type_name())))
                    }
                }
            }
        };
        (run, stop, result)
    }

    fn call(&self, f: &Function, run: Run, budget: u64, args: impl mlua::IntoLuaMulti) -> (Run, Result<Value, String>) {
        let (run, stop, result) = self.invoke(f, run, budget, args);
        let outcome = match (stop, result) {
            (Some(Stop::Asked(q)), _) => Err(format!("asked '{}' where no question may be asked", q.prompt)),
            (Some(stop), _) => Err(describe_stop(&stop)),
            (None, result) => result,
        };
        (run, outcome)
    }

    fn run_for(&self, state: &GameState, user: Player, writable: bool, answers: &[Answer], card: CardId) -> Run {
        Run {
            card,
            state: state.clone(),
            user,
            writable,
            answers: answers.to_vec(),
            cursor: 0,
            lifted: Vec::new(),
            log: Vec::new(),
            card_ids: self.card_ids.clone(),
        }
    }

    fn card_label(&self, card: CardId) -> String {
        self.content.card(card).map_or_else(|| format!("#{}", card.0), |c| c.id.clone())
    }

    /// Runs a card's `play` from `state` (the card-start snapshot) with `answers`.
    pub fn run_card(&self, state: &GameState, card: CardId, answers: &[Answer]) -> CardRun {
        let label = self.card_label(card);
        let Some(script) = self.cards.get(usize::from(card.0)) else {
            return CardRun { resolution: Resolution::Failed(format!("no card {label}")), log: Vec::new() };
        };
        let run = self.run_for(state, state.to_move, true, answers, card);
        let (run, stop, result) = self.invoke(&script.play, run, self.budgets.card, script.ctx.clone());
        let failed = |m: String| Resolution::Failed(format!("card '{label}' failed: {m}"));
        let resolution = match (stop, result) {
            (Some(Stop::Asked(question)), _) => Resolution::Ask(question),
            (Some(stop), _) => failed(describe_stop(&stop)),
            (None, Err(e)) => failed(e),
            (None, Ok(_)) if !run.lifted.is_empty() => {
                failed(format!("ended with the checker lifted from {} not put back", run.lifted[0].0))
            }
            (None, Ok(_)) if run.cursor < run.answers.len() => {
                failed(format!("ended without asking for answer '{}'", run.answers[run.cursor]))
            }
            (None, Ok(_)) => match run.state.board.validate() {
                Ok(()) => Resolution::Done(Box::new(run.state)),
                Err(e) => failed(format!("left the board inconsistent: {e}")),
            },
        };
        CardRun { resolution, log: run.log }
    }

    /// R8.0, R8.19: a card without `can_play` is always playable.
    pub fn can_play(&self, state: &GameState, card: CardId) -> Result<bool, String> {
        let script = self.cards.get(usize::from(card.0)).ok_or("no such card")?;
        let Some(f) = &script.can_play else { return Ok(true) };
        let run = self.run_for(state, state.to_move, false, &[], card);
        let (_, result) = self.call(f, run, self.budgets.check, script.ctx.clone());
        let label = self.card_label(card);
        match result {
            Ok(Value::Boolean(b)) => Ok(b),
            Ok(other) => Err(format!("card '{label}': can_play returned a {}, not true or false", other.type_name())),
            Err(e) => Err(format!("card '{label}': can_play failed: {}", e)),
        }
    }

    /// R9: `check(ctx, player)` of a planet's script. Read-only.
    pub fn check_planet(&self, state: &GameState, planet: PlanetId, player: Player) -> Result<bool, String> {
        let script = self.planets.get(usize::from(planet.0)).ok_or("no such planet")?;
        let label = self.content.planet(planet).map_or("?", |p| p.id.as_str()).to_string();
        let run = self.run_for(state, player, false, &[], CardId(0));
        let (_, result) = self.call(&script.check, run, self.budgets.check, (script.ctx.clone(), player.name()));
        match result {
            Ok(Value::Boolean(b)) => Ok(b),
            Ok(other) => Err(format!("planet '{label}': check returned a {}, not true or false", other.type_name())),
            Err(e) => Err(format!("planet '{label}': check failed: {}", e)),
        }
    }

    /// Frees garbage left by earlier runs.
    pub fn collect_garbage(&self) {
        let _ = self.lua.gc_collect();
    }

    pub fn memory_used(&self) -> usize {
        self.lua.used_memory()
    }
}

impl CardHost for ScriptEngine {
    fn playable(&self, state: &GameState, card: CardId) -> bool {
        self.can_play(state, card).unwrap_or_else(|e| {
            self.errors.borrow_mut().push(e);
            false
        })
    }

    fn resolve(&self, state: &GameState, card: CardId, answers: &[Answer]) -> Resolution {
        self.run_card(state, card, answers).resolution
    }

    fn planet_holds(&self, state: &GameState, planet: PlanetId, player: Player) -> bool {
        self.check_planet(state, planet, player).unwrap_or_else(|e| {
            self.errors.borrow_mut().push(e);
            false
        })
    }
}
