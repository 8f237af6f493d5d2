//! `ctx`: the one object card and planet scripts use to read the game, change it
//! through the kernel's rule-enforcing operations, and ask questions.
//! Documented for modders in cards/README.md; keep the two in step.
//!
//! Every method works on the current [`Run`] (a scratch copy of the state), kept in
//! the Lua state's app data for the length of one script call.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Error as LuaError, Lua, LuaString, Table, Value};

use super::lasting::{EffectSpec, data_of, data_to_lua, effect_spec};
use super::memo::{self, BlockFilter, CheckerFilter, CounterName, KindFilter, Read, SquareFilter};
use super::sandbox::{SharedMeter, Stop};
use crate::game::{Answer, CardId, Constraint, Effect, GameEvent, GameState, Question, QuestionKind, check_data};
use crate::kernel::{
    Bitboard, Checker, Colour, Dir, Edge, EdgePair, MarkerKind, MoveText, Player, Removal, Rotation, Side, Square,
    Terrain, Token,
};

/// One script call in progress.
pub struct Run {
    /// The scratch state the script reads and changes.
    pub state: GameState,
    /// Who used the card, or whose planet is checked.
    pub user: Player,
    /// False for `can_play` and planet checks, which only read.
    pub writable: bool,
    /// Answers to this card's questions so far, and how many the script has used.
    pub answers: Vec<Answer>,
    pub cursor: usize,
    /// Checkers set aside by `ctx:lift`, to come back before the card ends.
    pub lifted: Vec<(Square, Checker)>,
    /// Lines the script logged.
    pub log: Vec<String>,
    /// Card ids (manifest file stems) by `CardId`.
    pub card_ids: Rc<[String]>,
    /// The card being used (for a planet check or `can_play`, the card asked about).
    pub card: CardId,
    /// The question the run halted at, kept for the same call when it resumes.
    pub halted: Option<Halted>,
    /// For a lasting effect's handler, the effect's id (react.rs).
    pub effect: Option<u32>,
    /// For a read-only run that may be remembered, the reads it has made so far
    /// (see memo.rs); `None` once it has called a function the memo cannot replay.
    pub trace: Option<Vec<Read>>,
}

/// What a question call had worked out when it halted. A call halts only to
/// suspend the run (or to end it), and when the run resumes, the same call
/// (same arguments, which no code can change meanwhile) is made again at once:
/// it takes this up instead of parsing its options again.
pub enum Halted {
    /// `ask_square` and the other one-answer questions.
    Ask {
        /// The options table's address.
        table: usize,
        kind: QuestionKind,
        prompt: String,
        /// Parsed, repeats removed, without `none`.
        options: Vec<Answer>,
    },
    Order(Ordering),
}

/// How far an `ask_order` got before it halted.
pub struct Ordering {
    /// The items table's address.
    items: usize,
    prompt: String,
    total: usize,
    left: Vec<String>,
    order: Vec<String>,
    /// The run's cursor when the call began: any other question gives the
    /// answers back as if the call had not been made.
    cursor: usize,
}

impl Run {
    /// Takes what the last question call kept when it halted. A call other than
    /// the one it was kept for gets nothing, and an `ask_order`'s answers are
    /// given back.
    fn take_halted(&mut self, same: impl FnOnce(&Halted) -> bool) -> Option<Halted> {
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

type R<T> = mlua::Result<T>;

fn err(message: impl Into<String>) -> LuaError {
    LuaError::runtime(message.into())
}

/// What every host function works with, shared with the engine: the current
/// [`Run`] (set for the length of one script call) and the interned names.
/// Captured by the functions themselves, so reaching them costs no lookup.
pub struct Shared {
    pub run: RefCell<Option<Run>>,
    pub names: Names,
    /// The run's meter, to mark it halted at a question.
    pub meter: SharedMeter,
    /// The deck's marker kinds' names, by kind index (content/markers.rs).
    pub markers: Vec<String>,
}

/// A host function's view while it runs: the Lua state and the [`Shared`] data.
pub struct Cx<'a> {
    lua: &'a Lua,
    shared: &'a Shared,
}

impl std::ops::Deref for Cx<'_> {
    type Target = Lua;

    fn deref(&self) -> &Lua {
        self.lua
    }
}

fn current<T>(cx: &Cx, f: impl FnOnce(&mut Run) -> R<T>) -> R<T> {
    // A metamethod run while a host function reads the run could call ctx again.
    let mut current = cx.shared.run.try_borrow_mut().map_err(|_| err("ctx cannot be used from inside a ctx call"))?;
    let run = current.as_mut().ok_or_else(|| err("ctx can only be used while a card or planet runs"))?;
    f(run)
}

/// Works on the current run. The run can no longer be remembered (memo.rs).
fn with_run<T>(lua: &Cx, f: impl FnOnce(&mut Run) -> R<T>) -> R<T> {
    current(lua, |run| {
        run.trace = None;
        f(run)
    })
}

/// Reads the state through a read the memo can replay: `f` gives the value and
/// the read to note.
fn read<T>(lua: &Cx, f: impl FnOnce(&GameState) -> (T, Read)) -> R<T> {
    current(lua, |run| {
        let (value, read) = f(&run.state);
        if let Some(trace) = &mut run.trace {
            if trace.len() < memo::MAX_READS {
                trace.push(read);
            } else {
                run.trace = None;
            }
        }
        Ok(value)
    })
}

/// Who used the card, or whose planet is checked (part of what a memo is kept for).
fn user(lua: &Cx) -> R<Player> {
    current(lua, |run| Ok(run.user))
}

fn writing<T>(lua: &Cx, f: impl FnOnce(&mut Run) -> R<T>) -> R<T> {
    with_run(lua, |run| {
        if !run.writable {
            return Err(err("can_play and planet checks may only read the game, not change it"));
        }
        f(run)
    })
}

fn rule<T, E: std::fmt::Display>(r: Result<T, E>) -> R<T> {
    r.map_err(|e| err(e.to_string()))
}

fn square(s: &str) -> R<Square> {
    match square_named(s.as_bytes()) {
        Some(sq) => Ok(sq),
        None => rule(s.parse::<Square>()),
    }
}

fn player(s: &str) -> R<Player> {
    match s {
        // The names the API itself gives, without the kernel parser's allocation.
        "dark" => Ok(Player::Dark),
        "light" => Ok(Player::Light),
        _ => rule(s.parse::<Player>()),
    }
}

/// A script's value as text without running any of its code: strings and numbers
/// only. (`Value::to_string` would call a `__tostring` metamethod, letting script
/// code run inside a host function, and shows a table's address.)
fn text_of(v: &Value) -> R<String> {
    match v {
        Value::String(s) => Ok(s.to_str()?.to_string()),
        Value::Integer(i) => Ok(i.to_string()),
        Value::Number(n) => Ok(n.to_string()),
        other => Err(err(format!("expected a string, got a {}", other.type_name()))),
    }
}

/// A filter's player value: a string naming one, as `player` reads it.
fn player_value(v: &Value) -> R<Player> {
    match v {
        Value::String(s) if s.as_bytes().as_ref() == b"dark" => Ok(Player::Dark),
        Value::String(s) if s.as_bytes().as_ref() == b"light" => Ok(Player::Light),
        other => player(&text_of(other)?),
    }
}

fn token(s: &str) -> R<Token> {
    Token::ALL
        .into_iter()
        .find(|t| t.name() == s)
        .ok_or_else(|| err(format!("'{s}' is not a token (ring, snookle, hippo)")))
}

fn terrain(s: &str) -> R<Terrain> {
    match s {
        "water" => Ok(Terrain::Water),
        "fire" => Ok(Terrain::Fire),
        _ => Err(err(format!("'{s}' is not a terrain (water, fire)"))),
    }
}

/// A direction's name; the kernel's parser (which also knows `north`, `up`, …)
/// for anything but the eight short names.
fn dir(s: &str) -> R<Dir> {
    match Dir::ALL.into_iter().find(|d| d.name() == s) {
        Some(d) => Ok(d),
        None => rule(s.parse::<Dir>()),
    }
}

/// `"diagonal"`, `"orthogonal"`, `"all"`, one direction, or a list of directions.
fn dirs(value: Value) -> R<Vec<Dir>> {
    match value {
        Value::String(s) => match s.to_str()?.as_ref() {
            "diagonal" => Ok(Dir::DIAGONALS.to_vec()),
            "orthogonal" => Ok(Dir::ORTHOGONALS.to_vec()),
            "all" => Ok(Dir::ALL.to_vec()),
            one => Ok(vec![dir(one)?]),
        },
        Value::Table(t) => t.sequence_values::<LuaString>().map(|d| dir(&d?.to_str()?)).collect(),
        other => Err(err(format!("expected directions, got {}", other.type_name()))),
    }
}

fn squares_of(value: Option<Table>) -> R<Bitboard> {
    let mut out = Bitboard::EMPTY;
    if let Some(t) = value {
        for s in t.sequence_values::<String>() {
            out.insert(square(&s?)?);
        }
    }
    Ok(out)
}

fn list<T: ToString>(lua: &Lua, items: impl IntoIterator<Item = T>) -> R<Table> {
    lua.create_sequence_from(items.into_iter().map(|i| i.to_string()))
}

/// Lua strings made once and reused, so that reading the board allocates little.
/// Lua interns every short string, so a script's string with the same text as
/// an edge pair's here is the same string: `pair` finds the pair by address,
/// without parsing.
pub struct Names {
    /// The sentinel `ask_*` return to stop a run.
    pub halt: Table,
    squares: Vec<LuaString>,
    /// By index in `EdgePair::all()`.
    pairs: Vec<LuaString>,
    players: [LuaString; 2],
    kinds: [LuaString; 3],
    /// Other names ctx functions return (terrains, directions, colours).
    words: Vec<(&'static str, LuaString)>,
    /// Card ids by `CardId`.
    cards: Vec<LuaString>,
    /// The address of each edge pair's string.
    pair_at: std::collections::HashMap<usize, EdgePair, crate::hash::Fnv>,
}

impl Names {
    pub fn new(lua: &Lua, halt: Table, card_ids: &[String]) -> R<Names> {
        let squares: Vec<LuaString> = Square::all().map(|s| lua.create_string(s.to_string())).collect::<R<_>>()?;
        let pairs: Vec<LuaString> =
            EdgePair::all().iter().map(|p| lua.create_string(p.to_string())).collect::<R<_>>()?;
        let mut pair_at = std::collections::HashMap::with_hasher(crate::hash::Fnv::default());
        for (p, name) in EdgePair::all().iter().zip(&pairs) {
            pair_at.insert(name.to_pointer() as usize, *p);
        }
        let mut words = Vec::new();
        let names = [Terrain::Water.name(), Terrain::Fire.name()].into_iter().chain(Dir::ALL.map(Dir::name));
        for word in names {
            words.push((word, lua.create_string(word)?));
        }
        Ok(Names {
            halt,
            squares,
            pairs,
            players: [lua.create_string("dark")?, lua.create_string("light")?],
            kinds: [lua.create_string("pawn")?, lua.create_string("king")?, lua.create_string("emperor")?],
            words,
            cards: card_ids.iter().map(|id| lua.create_string(id)).collect::<R<_>>()?,
            pair_at,
        })
    }

    /// The edge pair `text` names, found by address.
    fn pair(&self, text: &LuaString) -> Option<EdgePair> {
        self.pair_at.get(&(text.to_pointer() as usize)).copied()
    }

    /// A player's name as a Lua string (also a square colour's: `dark`, `light`).
    pub fn player(&self, p: Player) -> LuaString {
        self.players[p.index()].clone()
    }

    /// A square's name as a Lua string.
    fn square(&self, sq: Square) -> LuaString {
        self.squares[sq.index()].clone()
    }

    /// A terrain's or direction's name as a Lua string.
    fn word(&self, lua: &Lua, word: &'static str) -> R<LuaString> {
        match self.words.iter().find(|(w, _)| *w == word) {
            Some((_, s)) => Ok(s.clone()),
            None => lua.create_string(word),
        }
    }
}

fn names<'a>(cx: &'a Cx) -> &'a Names {
    &cx.shared.names
}

/// A list of square names, from the interned strings.
fn square_list(lua: &Cx, squares: impl IntoIterator<Item = Square>) -> R<Table> {
    let names = names(lua);
    // Collected first so that the table is made at its full size: growing it
    // one rehash at a time costs several times more.
    let (mut list, mut n) = ([Square::A1; 64], 0);
    let mut squares = squares.into_iter();
    for sq in squares.by_ref() {
        list[n] = sq;
        n += 1;
        if n == list.len() {
            break;
        }
    }
    // (Never more than the 64 squares, unless a caller repeats some.)
    let more: Vec<Square> = squares.collect();
    lua.create_sequence_from(list[..n].iter().chain(&more).map(|s| &names.squares[s.index()]))
}

/// A checker as the six values the prelude's `ctx` makes a table of: square,
/// owner, kind, ring, snookle, hippo.
type CheckerValues = (LuaString, LuaString, LuaString, bool, bool, bool);

fn checker_values(names: &Names, sq: Square, c: &Checker) -> CheckerValues {
    (names.square(sq), names.player(c.owner), names.kinds[c.kind as usize - 1].clone(), c.ring, c.snookle, c.hippo)
}

/// `{owner=, kind=, ring=, snookle=, hippo=, colour=}`: which checkers to list or count.
fn checker_filter(filter: Option<Table>) -> R<CheckerFilter> {
    let mut parsed = CheckerFilter::default();
    let Some(f) = filter else { return Ok(parsed) };
    // Only the keys present are visited, so a small filter costs little.
    f.for_each::<LuaString, Value>(|key, value| {
        let text = |v: &Value| -> R<String> { text_of(v) };
        match key.as_bytes().as_ref() {
            b"owner" => parsed.owner = Some(player_value(&value)?),
            b"kind" => {
                parsed.kind = Some(match text(&value)?.as_str() {
                    "pawn" => KindFilter::Pawn,
                    "king" => KindFilter::King,
                    "emperor" => KindFilter::Emperor,
                    "crowned" => KindFilter::Crowned,
                    other => return Err(err(format!("'{other}' is not a kind (pawn, king, emperor, crowned)"))),
                })
            }
            b"colour" => parsed.colour = Some(colour_mask(&text(&value)?)?),
            other => {
                let name = String::from_utf8_lossy(other);
                let Some(i) = Token::ALL.into_iter().position(|t| t.name() == name) else {
                    return Err(err(format!(
                        "'{name}' is not a checker filter (owner, kind, colour, ring, snookle, hippo)"
                    )));
                };
                match value {
                    Value::Boolean(b) => parsed.tokens[i] = Some(b),
                    _ => return Err(err(format!("the filter's {name} must be true or false"))),
                }
            }
        }
        Ok(())
    })?;
    Ok(parsed)
}

fn counter_name(name: &str) -> R<CounterName> {
    match name {
        "pawns_revived" => Ok(CounterName::PawnsRevived),
        "emperor_captures" => Ok(CounterName::EmperorCaptures),
        _ => Err(err(format!("'{name}' is not a counter (pawns_revived, emperor_captures)"))),
    }
}

fn colour_mask(colour: &str) -> R<Bitboard> {
    match colour {
        "dark" => Ok(Bitboard::DARK),
        "light" => Ok(Bitboard::LIGHT),
        _ => Err(err(format!("'{colour}' is not a square colour (dark, light)"))),
    }
}

/// `{empty=, colour=, half=, back_row=, king_row=, terrain=}`: which squares.
fn square_filter(filter: Option<Table>) -> R<SquareFilter> {
    let mut parsed = SquareFilter::default();
    let Some(f) = filter else { return Ok(parsed) };
    f.for_each::<LuaString, Value>(|key, value| {
        let text = || -> R<String> { text_of(&value) };
        match key.as_bytes().as_ref() {
            b"empty" => match value {
                Value::Boolean(b) => parsed.empty = Some(b),
                _ => return Err(err("the filter's empty must be true or false")),
            },
            b"colour" => parsed.colour = Some(colour_mask(&text()?)?),
            b"half" => parsed.half = Some(player_value(&value)?),
            b"back_row" => parsed.back_row = Some(player_value(&value)?),
            b"king_row" => parsed.king_row = Some(player_value(&value)?),
            b"terrain" => {
                parsed.terrain = Some(match text()?.as_str() {
                    "any" => None,
                    other => Some(terrain(other)?),
                })
            }
            other => {
                return Err(err(format!(
                    "'{}' is not a square filter (empty, colour, half, back_row, king_row, terrain)",
                    String::from_utf8_lossy(other)
                )));
            }
        }
        Ok(())
    })?;
    Ok(parsed)
}

/// `{owners = {players…}, empty = bool}` for 2×2 blocks: `owners` asks for at
/// least one checker of each player named (R8.19), `empty` for four empty
/// squares (R4.5, R7.1).
fn block_filter(filter: Option<Table>) -> R<BlockFilter> {
    let mut parsed = BlockFilter::default();
    if let Some(f) = filter {
        if let Some(t) = f.raw_get::<Option<Table>>("owners")? {
            for p in strings(t)? {
                parsed.owners[player(&p)?.index()] = true;
            }
        }
        parsed.empty = f.raw_get::<Option<bool>>("empty")?;
    }
    Ok(parsed)
}

/// Removes repeated answers, keeping the first of each, without hashing in the
/// common cases of squares, edge pairs and short lists.
fn dedup_keep_first(options: &mut Vec<Answer>) {
    if options.iter().all(|o| matches!(o, Answer::Square(_))) {
        let mut seen = Bitboard::EMPTY;
        options.retain(|o| match o {
            Answer::Square(sq) => {
                let new = !seen.contains(*sq);
                seen.insert(*sq);
                new
            }
            _ => true,
        });
    } else if options.iter().all(|o| matches!(o, Answer::Edges(_))) {
        // An edge is one of 128 (square, side); a pair one of 128 × 128.
        let edge = |e: Edge| e.square().index() * 2 + usize::from(e.side() == Side::East);
        let mut seen = [0u64; 128 * 128 / 64];
        options.retain(|o| match o {
            Answer::Edges(EdgePair(a, b)) => {
                let key = edge(*a) * 128 + edge(*b);
                let (word, bit) = (key / 64, 1u64 << (key % 64));
                let new = seen[word] & bit == 0;
                seen[word] |= bit;
                new
            }
            _ => true,
        });
    } else if options.len() <= 32 {
        let mut kept: Vec<Answer> = Vec::with_capacity(options.len());
        for o in options.drain(..) {
            if !kept.contains(&o) {
                kept.push(o);
            }
        }
        *options = kept;
    } else {
        let mut seen = std::collections::HashSet::with_capacity_and_hasher(options.len(), crate::hash::Fnv::default());
        options.retain(|o| seen.insert(o.clone()));
    }
}

/// The pending answer to a question, or a halt that turns the question into the
/// game's pending decision (ENGINEERING.md invariant 3). `None` means "none" was
/// chosen for an optional question.
/// `options` are without repeats; `table` is the address of the script's table
/// of options, to know the same call again (see [`Halted`]).
fn ask(lua: &Cx, kind: QuestionKind, prompt: String, options: Vec<Answer>, optional: bool, table: usize) -> R<Asked> {
    if options.is_empty() && !optional {
        return Err(err(format!("the question '{prompt}' has no possible answer; check for that before asking")));
    }
    let is_none = |a: &Answer| matches!(a, Answer::Option(o) if o == "none");
    with_run(lua, |run| {
        if !run.writable {
            return Err(err("can_play and planet checks cannot ask questions"));
        }
        // `none` is the answer nil, whoever offered it.
        let value = |a: &Answer| Asked::Answer((!is_none(a)).then(|| a.clone()));
        if options.len() == 1 && !optional {
            let answer = options[0].clone();
            run.state.journal.push(|| GameEvent::AnsweredAutomatically {
                prompt: prompt.clone(),
                question: kind,
                answer,
            });
            return Ok(value(&options[0]));
        }
        let Some(answer) = run.answers.get(run.cursor) else {
            run.halted = Some(Halted::Ask { table, kind, prompt: prompt.clone(), options: options.clone() });
            let mut options = options;
            if optional {
                options.push(Answer::Option("none".into()));
            }
            // Record the stop; the caller returns the HALT sentinel and the
            // script's ctx proxy stops the run (no Rust error, so no traceback).
            lua.shared.meter.borrow_mut().mark(Stop::Asked(Question { prompt, kind, options }));
            return Ok(Asked::Halt);
        };
        run.cursor += 1;
        if is_none(answer) && optional {
            return Ok(Asked::Answer(None));
        }
        if !options.contains(answer) {
            return Err(err(format!("'{answer}' is not an answer to '{prompt}'")));
        }
        Ok(value(answer))
    })
}

/// `ask` for one of the named options `left` (not optional, each name once as an
/// option), without building the options unless the question must be asked:
/// the index of the first copy of the answer in `left`, or `None` for a halt.
/// What `ask_order` offers besides the items: the rest in their present order.
pub const KEEP: &str = "keep";

/// One answer of `ask_order`: the index of the item for the next place, or
/// [`KEEP`] (`None`): the items not yet placed follow in their present order.
fn ask_among(lua: &Cx, left: &[String], prompt: impl Fn() -> String) -> R<Option<Option<usize>>> {
    // `keep` is offered unless an item is itself named so.
    let keep = !left.iter().any(|s| s == KEEP);
    let answer = with_run(lua, |run| {
        if !run.writable {
            return Err(err("can_play and planet checks cannot ask questions"));
        }
        if left.iter().all(|s| *s == left[0]) {
            return Ok(Some(Some(0)));
        }
        let Some(answer) = run.answers.get(run.cursor) else { return Ok(None) };
        run.cursor += 1;
        match answer {
            Answer::Option(name) if left.contains(name) => Ok(Some(left.iter().position(|s| s == name))),
            Answer::Option(name) if keep && name == KEEP => Ok(Some(None)),
            other => Err(err(format!("'{other}' is not an answer to '{}'", prompt()))),
        }
    })?;
    if answer.is_none() {
        // Each name once, the first copy's place (as `dedup_keep_first`).
        let mut options = Vec::with_capacity(left.len());
        for (i, name) in left.iter().enumerate() {
            if !left[..i].contains(name) {
                options.push(Answer::Option(name.clone()));
            }
        }
        if keep {
            options.push(Answer::Option(KEEP.to_string()));
        }
        lua.shared.meter.borrow_mut().mark(Stop::Asked(Question {
            prompt: prompt(),
            kind: QuestionKind::Option,
            options,
        }));
    }
    Ok(answer)
}

/// What `ask` found: an answer (`None` for "none"), or that the run must stop.
enum Asked {
    Answer(Option<Answer>),
    Halt,
}

fn answer_value(lua: &Cx, asked: Asked) -> R<Value> {
    Ok(match asked {
        Asked::Halt => Value::Table(halt_sentinel(lua)?),
        Asked::Answer(None) => Value::Nil,
        Asked::Answer(Some(Answer::Square(sq))) => Value::String(names(lua).square(sq)),
        Asked::Answer(Some(a)) => Value::String(lua.create_string(a.to_string())?),
    })
}

fn halt_sentinel(lua: &Cx) -> R<Table> {
    Ok(names(lua).halt.clone())
}

fn optional(opts: &Option<Table>) -> R<bool> {
    Ok(match opts {
        Some(t) => t.raw_get::<Option<bool>>("optional")?.unwrap_or(false),
        None => false,
    })
}

fn strings(t: Table) -> R<Vec<String>> {
    t.sequence_values::<String>().collect()
}

/// The effect a handler runs for; an error anywhere else.
fn handler_effect(run: &Run) -> R<u32> {
    run.effect.ok_or_else(|| err("only a lasting effect's handler (on_<event>) can read or change its effect"))
}

fn marker_kind(cx: &Cx, name: &str) -> R<MarkerKind> {
    let names = &cx.shared.markers;
    names.iter().position(|n| n == name).map(|i| MarkerKind(i as u8)).ok_or_else(|| {
        let known = if names.is_empty() { "none".to_string() } else { names.join(", ") };
        err(format!("no marker kind is called '{name}' (this deck declares: {known})"))
    })
}

fn card_id(run: &Run, id: &str) -> R<CardId> {
    run.card_ids
        .iter()
        .position(|c| c == id)
        .map(|i| CardId(i as u16))
        .ok_or_else(|| err(format!("'{id}' is not a card of this game")))
}

/// Builds the table of host functions behind every script's `ctx`. Each function
/// ignores its first argument (the script's `ctx`, as in `ctx:checker(sq)`).
pub fn api_table(lua: &Lua, shared: Rc<Shared>) -> R<Table> {
    let mut builder = ApiBuilder { lua, shared, table: lua.create_table()?, error: None };
    let m = &mut builder;
    {
        // Every method goes through `add`, which lifts the memory limit while it runs.
        // ---- who and when ----
        // Names come back as interned Lua strings: a string made after the call
        // returns would be made with the memory limit in place, which is slow.
        // Functions that read through `read` (or only `user`) can be replayed by
        // the memo of read-only runs; the others go through `with_run`.
        add(m, "player", |lua, ()| Ok(names(lua).player(user(lua)?)));
        add(m, "opponent", |lua, ()| Ok(names(lua).player(!user(lua)?)));
        add(m, "turn", |lua, ()| read(lua, |s| (s.turn + 1, Read::Turn(s.turn))));
        add(m, "to_move", |lua, ()| Ok(names(lua).player(read(lua, |s| (s.to_move, Read::ToMove(s.to_move)))?)));

        // ---- checkers ----
        // The prelude's ctx turns these values into `{square, owner, kind, ring,
        // snookle, hippo}` tables: Lua builds small tables faster than Rust can.
        add(m, "checker", |lua, sq: String| {
            let sq = square(&sq)?;
            let c = read(lua, |s| {
                let c = s.board.checker(sq);
                (c, Read::Checker(sq, c))
            })?;
            Ok(match c {
                Some(c) => {
                    let (square, owner, kind, ring, snookle, hippo) = checker_values(names(lua), sq, &c);
                    (Some(square), Some(owner), Some(kind), ring, snookle, hippo)
                }
                None => (None, None, None, false, false, false),
            })
        });
        add(m, "checkers", |lua, filter: Option<Table>| {
            let filter = checker_filter(filter)?;
            let found: Vec<(Square, Checker)> = with_run(lua, |r| {
                let board = &r.state.board;
                Ok(filter.apply(board).filter_map(|sq| Some((sq, board.checker(sq)?))).collect())
            })?;
            let names = names(lua);
            let t = lua.create_table_with_capacity(found.len() * 6, 0)?;
            for (i, (sq, c)) in found.iter().enumerate() {
                let (square, owner, kind, ring, snookle, hippo) = checker_values(names, *sq, c);
                let at = i * 6;
                t.raw_set(at + 1, square)?;
                t.raw_set(at + 2, owner)?;
                t.raw_set(at + 3, kind)?;
                t.raw_set(at + 4, ring)?;
                t.raw_set(at + 5, snookle)?;
                t.raw_set(at + 6, hippo)?;
            }
            Ok(t)
        });
        add(m, "checker_squares", |lua, filter: Option<Table>| {
            let filter = checker_filter(filter)?;
            let set = read(lua, |s| {
                let set = filter.apply(&s.board);
                (set, Read::CheckerSquares(filter, set))
            })?;
            square_list(lua, set)
        });
        add(m, "count", |lua, filter: Option<Table>| {
            let filter = checker_filter(filter)?;
            read(lua, |s| {
                let n = filter.apply(&s.board).count();
                (n, Read::Count(filter, n))
            })
        });
        add(m, "reserve", |lua, p: String| {
            let p = player(&p)?;
            read(lua, |s| {
                let n = s.board.reserve(p);
                (n, Read::Reserve(p, n))
            })
        });

        // ---- squares and terrain ----
        add(m, "is_empty", |lua, sq: String| {
            let sq = square(&sq)?;
            read(lua, |s| {
                let empty = s.board.is_empty(sq);
                (empty, Read::IsEmpty(sq, empty))
            })
        });
        add(m, "squares", |lua, filter: Option<Table>| {
            let filter = square_filter(filter)?;
            let set = read(lua, |s| {
                let set = filter.apply(&s.board);
                (set, Read::Squares(filter, set))
            })?;
            square_list(lua, set)
        });
        add(m, "terrain", |lua, sq: String| {
            let sq = square(&sq)?;
            let t = read(lua, |s| {
                let t = s.board.terrain_at(sq);
                (t, Read::Terrain(sq, t))
            })?;
            t.map(|t| names(lua).word(lua, t.name())).transpose()
        });
        add(m, "colour", |lua, sq: String| {
            let colour = if square(&sq)?.colour() == Colour::Dark { Player::Dark } else { Player::Light };
            Ok(names(lua).player(colour))
        });
        add(m, "neighbour", |lua, (sq, dir): (String, String)| {
            let next = square(&sq)?.step(self::dir(&dir)?);
            Ok(next.map(|s| names(lua).square(s)))
        });
        add(m, "orientation", |lua, ()| {
            let forward = with_run(lua, |r| Ok(r.state.board.orientation().forward(Player::Dark)))?;
            names(lua).word(lua, forward.name())
        });
        add(m, "supply", |lua, (kind, owner): (String, Option<String>)| {
            with_run(lua, |r| {
                let s = r.state.board.supply();
                Ok(match kind.as_str() {
                    "walls" => s.walls[owner.map(|o| player(&o)).transpose()?.unwrap_or(r.user).index()],
                    "rings" => s.rings,
                    "snookles" => s.snookles,
                    "hippos" => s.hippos,
                    "water" => s.water,
                    "fire" => s.fire,
                    "monolith" => s.monolith,
                    _ => {
                        return Err(err(format!(
                            "'{kind}' is not in the supply (walls, rings, snookles, hippos, water, fire, monolith)"
                        )));
                    }
                })
            })
        });

        // ---- the monolith and walls ----
        add(m, "monolith", |lua, ()| {
            let at = read(lua, |s| (s.board.monolith(), Read::Monolith(s.board.monolith())))?;
            Ok(at.map(|s| names(lua).square(s)))
        });
        add(m, "monolith_squares", |lua, ()| {
            let block = with_run(lua, |r| Ok(r.state.board.monolith_block()))?;
            square_list(lua, block)
        });
        add(m, "monolith_spots", |lua, ()| {
            let spots = with_run(lua, |r| Ok(r.state.board.monolith_spots()))?;
            square_list(lua, spots)
        });
        add(m, "monolith_directions", |lua, ()| {
            let dirs = with_run(lua, |r| Ok(r.state.board.monolith_directions()))?;
            list(lua, dirs)
        });
        add(m, "blocks", |lua, filter: Option<Table>| {
            let filter = block_filter(filter)?;
            let anchors = read(lua, |s| {
                let set = filter.apply(&s.board);
                (set, Read::Blocks(filter, set))
            })?;
            square_list(lua, anchors)
        });
        add(m, "block_squares", |lua, anchor: String| {
            let anchor = square(&anchor)?;
            let block = crate::kernel::block(anchor)
                .ok_or_else(|| err(format!("no 2×2 block has {anchor} as its lower-left square")))?;
            square_list(lua, block)
        });
        add(m, "walls", |lua, owner: Option<String>| {
            let edges: Vec<Edge> = with_run(lua, |r| {
                let owners = match owner {
                    Some(o) => vec![player(&o)?],
                    None => Player::BOTH.to_vec(),
                };
                let mut edges: Vec<Edge> = owners.iter().flat_map(|&p| r.state.board.walls(p).edges()).collect();
                edges.sort();
                Ok(edges)
            })?;
            list(lua, edges)
        });
        add(m, "wall_spots", |lua, ()| {
            let spots = with_run(lua, |r| Ok(r.state.board.wall_spots()))?;
            let names = names(lua);
            // Both lists are in `EdgePair::all()` order: walk them together.
            let mut all = EdgePair::all().iter().zip(&names.pairs);
            let spots: Vec<&LuaString> =
                spots.iter().filter_map(|p| all.by_ref().find(|(q, _)| *q == p).map(|(_, name)| name)).collect();
            lua.create_sequence_from(spots)
        });

        // ---- counters, piles, this turn ----
        add(m, "counter", |lua, (p, name): (String, String)| {
            let p = player(&p)?;
            let counter = counter_name(&name)?;
            read(lua, |s| {
                let n = counter.of(s, p);
                (n, Read::Counter(p, counter, n))
            })
        });
        add(m, "piles", |lua, ()| {
            let (draw, face_up, discard) = with_run(lua, |r| {
                let p = &r.state.piles;
                Ok((p.draw.clone(), p.face_up.clone(), p.discard.clone()))
            })?;
            let names = names(lua);
            let named = |cards: Vec<CardId>| {
                let ids: Vec<&LuaString> = cards.iter().filter_map(|c| names.cards.get(usize::from(c.0))).collect();
                lua.create_sequence_from(ids)
            };
            let t = lua.create_table()?;
            t.raw_set("draw", named(draw)?)?;
            t.raw_set("face_up", named(face_up)?)?;
            t.raw_set("discard", named(discard)?)?;
            Ok(t)
        });
        add(m, "moved", |lua, ()| {
            let moved = with_run(lua, |r| Ok(r.state.moved))?;
            moved
                .map(|m| {
                    let t = lua.create_table()?;
                    t.raw_set("start", m.start.to_string())?;
                    t.raw_set("now", m.now.to_string())?;
                    Ok(t)
                })
                .transpose()
        });
        add(m, "random", |lua, n: i64| {
            if !(1..=1_000_000).contains(&n) {
                return Err(err("ctx:random(n) needs n from 1 to 1000000"));
            }
            writing(lua, |r| Ok(r.state.rng.below(n as usize) + 1))
        });
        add(m, "log", |lua, text: String| {
            with_run(lua, |r| {
                if r.log.len() < 64 {
                    let text: String = text.chars().take(200).collect();
                    r.state.journal.push(|| GameEvent::Message { text: text.clone() });
                    r.log.push(text);
                }
                Ok(())
            })
        });

        // ---- move helpers ----
        add(m, "legal_moves", |lua, filter: Option<Table>| {
            let filter = move_filter(filter)?;
            let moves: Vec<String> =
                with_run(lua, |r| Ok(legal_moves_for(r, filter)?.iter().map(ToString::to_string).collect()))?;
            list(lua, moves)
        });
        add(m, "count_moves", |lua, filter: Option<Table>| {
            let filter = move_filter(filter)?;
            with_run(lua, |r| Ok(legal_moves_for(r, filter)?.len()))
        });
        add(m, "step_targets", |lua, (sq, d): (String, Value)| {
            let (sq, d) = (square(&sq)?, dirs(d)?);
            let targets = with_run(lua, |r| Ok(r.state.board.step_targets(sq, &d)))?;
            square_list(lua, targets)
        });
        add(m, "slide_targets", |lua, (sq, d): (String, Value)| {
            let (sq, d) = (square(&sq)?, dirs(d)?);
            let targets = with_run(lua, |r| Ok(r.state.board.slide_targets(sq, &d)))?;
            square_list(lua, targets)
        });
        add(m, "jump_targets", |lua, (sq, d): (String, Value)| {
            let (sq, d) = (square(&sq)?, dirs(d)?);
            let targets = with_run(lua, |r| Ok(r.state.board.jump_targets(sq, &d)))?;
            square_list(lua, targets)
        });

        // ---- operations (each enforces the rules; a refusal is an error) ----
        add(m, "place_terrain", |lua, (sq, t): (String, String)| {
            writing(lua, |r| rule(r.state.board.place_terrain(square(&sq)?, terrain(&t)?, &mut r.state.journal)))
        });
        add(m, "remove_terrain", |lua, sq: String| {
            let t = writing(lua, |r| rule(r.state.board.remove_terrain(square(&sq)?, &mut r.state.journal)))?;
            names(lua).word(lua, t.name())
        });
        add(m, "put_token", |lua, (sq, t): (String, String)| {
            writing(lua, |r| rule(r.state.board.put_token(square(&sq)?, token(&t)?, &mut r.state.journal)))
        });
        add(m, "remove_token", |lua, (sq, t): (String, String)| {
            writing(lua, |r| rule(r.state.board.remove_token(square(&sq)?, token(&t)?, &mut r.state.journal)))
        });
        add(m, "can_take_token", |lua, (sq, t): (String, String)| {
            with_run(lua, |r| Ok(r.state.board.can_take_token(square(&sq)?, token(&t)?)))
        });
        add(m, "remove_checker", |lua, sq: String| {
            writing(lua, |r| {
                rule(r.state.board.remove_checker(square(&sq)?, Removal::Card, &mut r.state.journal)).map(|_| ())
            })
        });
        add(m, "place_from_reserve", |lua, sq: String| {
            writing(lua, |r| rule(r.state.board.place_from_reserve(r.user, square(&sq)?, &mut r.state.journal)))
        });
        add(m, "relocate", |lua, (from, to): (String, String)| {
            writing(lua, |r| rule(r.state.board.relocate(square(&from)?, square(&to)?, &mut r.state.journal)))
        });
        add(m, "make_emperor", |lua, (pawn, king): (String, String)| {
            writing(lua, |r| rule(r.state.board.make_emperor(square(&pawn)?, square(&king)?, &mut r.state.journal)))
        });
        add(m, "place_monolith", |lua, sq: String| {
            writing(lua, |r| rule(r.state.board.place_monolith(square(&sq)?, &mut r.state.journal)))
        });
        add(m, "move_monolith", |lua, dir: String| {
            let report = writing(lua, |r| rule(r.state.board.move_monolith(self::dir(&dir)?, &mut r.state.journal)))?;
            let t = lua.create_table()?;
            t.raw_set("removed", list(lua, report.removed)?)?;
            t.raw_set("pushed", report.pushed.len())?;
            Ok(t)
        });
        add(m, "monolith_blocked", |lua, ()| {
            writing(lua, |r| rule(r.state.board.monolith_stays(&mut r.state.journal)))
        });
        add(m, "place_walls", |lua, pair: String| {
            writing(lua, |r| {
                rule(r.state.board.place_walls(r.user, rule(pair.parse::<EdgePair>())?, &mut r.state.journal))
            })
        });
        add(m, "remove_wall", |lua, edge: String| {
            let owner =
                writing(lua, |r| rule(r.state.board.remove_wall(rule(edge.parse::<Edge>())?, &mut r.state.journal)))?;
            Ok(names(lua).player(owner))
        });
        add(m, "rotate", |lua, way: String| {
            let rotation = match way.as_str() {
                "clockwise" => Rotation::Clockwise,
                "counterclockwise" => Rotation::Counterclockwise,
                _ => return Err(err(format!("'{way}' is not a rotation (clockwise, counterclockwise)"))),
            };
            writing(lua, |r| {
                r.state.board.rotate(rotation, &mut r.state.journal);
                Ok(())
            })
        });
        add(m, "add_counter", |lua, (p, name, n): (String, String, u32)| {
            writing(lua, |r| {
                let c = r.state.counters_mut(player(&p)?);
                match name.as_str() {
                    "pawns_revived" => c.pawns_revived += n,
                    "emperor_captures" => c.emperor_captures += n,
                    _ => return Err(err(format!("'{name}' is not a counter (pawns_revived, emperor_captures)"))),
                }
                Ok(())
            })
        });
        add(m, "play_move", |lua, (text, filter): (String, Option<Table>)| {
            let wanted: MoveText = rule(text.parse())?;
            // Refused in a read-only run before the filter is read, as ever.
            writing(lua, |_| Ok(()))?;
            let filter = move_filter(filter)?;
            writing(lua, |r| {
                let mut legal = legal_moves_for(r, filter)?;
                legal.retain(|m| wanted.matches(m));
                let [mv] = legal[..] else {
                    return Err(err(format!("{text} is not one legal move here")));
                };
                let user = r.user;
                rule(r.state.play_extra_move(user, &mv))
            })
        });
        add(m, "jump", |lua, (from, landing): (String, String)| {
            let (from, landing) = (square(&from)?, square(&landing)?);
            let dir = direction(from, landing, 2).ok_or_else(|| err(format!("{landing} is not a jump from {from}")))?;
            let at = writing(lua, |r| rule(r.state.jump_by_card(from, dir)))?;
            Ok(names(lua).square(at))
        });
        add(m, "lift", |lua, sq: String| {
            let sq = square(&sq)?;
            writing(lua, |r| {
                let c = rule(r.state.board.set_aside(sq, &mut r.state.journal))?;
                r.lifted.push((sq, c));
                Ok(())
            })
        });
        add(m, "put_back", |lua, sq: String| {
            let sq = square(&sq)?;
            writing(lua, |r| {
                let i = r
                    .lifted
                    .iter()
                    .position(|(s, _)| *s == sq)
                    .ok_or_else(|| err(format!("no checker lifted from {sq}")))?;
                let (_, c) = r.lifted.remove(i);
                rule(r.state.board.put_back(sq, c, &mut r.state.journal))
            })
        });
        add(m, "set_constraint", |lua, squares: Table| {
            let movers = squares_of(Some(squares))?;
            writing(lua, |r| {
                r.state.next_constraint = Some(Constraint { card: r.card, movers });
                r.state.journal.push(|| GameEvent::ConstraintSet {
                    card: r.card,
                    player: !r.user,
                    movers: movers.into_iter().collect(),
                });
                Ok(())
            })
        });
        // ---- lasting effects (game/lasting.rs, game/react.rs) ----
        add(m, "add_effect", |lua, spec: Table| {
            let EffectSpec { affects, moves, lasts, data } = effect_spec(&spec)?;
            writing(lua, |r| {
                let turn = Some(r.state.turn);
                let effect = Effect { id: 0, card: r.card, owner: r.user, affects, moves, lasts, made: turn, data };
                r.state.add_effect(effect).map_err(err)
            })
        });
        add(m, "end_effect", |lua, ()| {
            writing(lua, |r| {
                let id = handler_effect(r)?;
                r.state.end_effect(id);
                Ok(())
            })
        });
        add(m, "effect_data", |lua, ()| {
            let data = with_run(lua, |r| {
                let id = handler_effect(r)?;
                Ok(r.state.effect(id).map(|e| e.data.clone()).unwrap_or_default())
            })?;
            data_to_lua(lua, &data)
        });
        add(m, "set_effect_data", |lua, table: Table| {
            let data = data_of(&table)?;
            writing(lua, |r| {
                let id = handler_effect(r)?;
                check_data(&data).map_err(err)?;
                if let Some(effect) = r.state.effects.iter_mut().find(|e| e.id == id) {
                    effect.data = data;
                }
                Ok(())
            })
        });

        // ---- markers of the deck's own kinds (content/markers.rs) ----
        add(m, "place_marker", |lua, (name, sq): (String, String)| {
            let kind = marker_kind(lua, &name)?;
            writing(lua, |r| rule(r.state.board.place_marker(kind, square(&sq)?, &mut r.state.journal)))
        });
        add(m, "remove_marker", |lua, (name, sq): (String, String)| {
            let kind = marker_kind(lua, &name)?;
            writing(lua, |r| rule(r.state.board.remove_marker(kind, square(&sq)?, &mut r.state.journal)))
        });
        add(m, "markers", |lua, name: String| {
            let kind = marker_kind(lua, &name)?;
            let on = with_run(lua, |r| Ok(r.state.board.marks().at(kind)))?;
            square_list(lua, on)
        });
        add(m, "has_marker", |lua, (name, sq): (String, String)| {
            let kind = marker_kind(lua, &name)?;
            with_run(lua, |r| Ok(r.state.board.marks().at(kind).contains(square(&sq)?)))
        });
        add(m, "markers_left", |lua, name: String| {
            let kind = marker_kind(lua, &name)?;
            with_run(lua, |r| Ok(r.state.board.marks().supply[usize::from(kind.0)]))
        });
        add(m, "reshuffle", |lua, ()| {
            writing(lua, |r| {
                r.state.reshuffle_all();
                Ok(())
            })
        });
        add(m, "set_draw_order", |lua, order: Table| {
            let order = strings(order)?;
            writing(lua, |r| {
                let ids = order.iter().map(|id| card_id(r, id)).collect::<R<Vec<_>>>()?;
                rule(r.state.reorder_draw_pile(ids))
            })
        });

        // ---- questions ----
        let simple: [(&str, QuestionKind); 8] = [
            ("ask_square", QuestionKind::Square),
            ("ask_block", QuestionKind::Block),
            ("ask_checker", QuestionKind::Checker),
            ("ask_edge", QuestionKind::Edge),
            ("ask_edges", QuestionKind::Edges),
            ("ask_direction", QuestionKind::Direction),
            ("ask_move", QuestionKind::Move),
            ("ask_option", QuestionKind::Option),
        ];
        for (name, kind) in simple {
            add(m, name, move |lua, (prompt, options, opts): (String, Table, Option<Table>)| {
                if options.raw_len() > 4096 {
                    return Err(err("a question may offer at most 4096 answers"));
                }
                let table = options.to_pointer() as usize;
                let kept = with_run(lua, |r| {
                    Ok(r.take_halted(|h| {
                        matches!(h, Halted::Ask { table: t, kind: k, prompt: p, .. }
                            if *t == table && *k == kind && *p == prompt)
                    }))
                })?;
                let options = match kept {
                    Some(Halted::Ask { options, .. }) => options,
                    _ => {
                        let mut parsed = read_options(names(lua), kind, &options)?;
                        // The same answer offered twice is one option (keep the first of each).
                        dedup_keep_first(&mut parsed);
                        // Squares are offered in board order (a1, b1, … h8), however the
                        // script gathered them.
                        if matches!(kind, QuestionKind::Square | QuestionKind::Checker | QuestionKind::Block) {
                            parsed.sort_by_key(|a| match a {
                                Answer::Square(sq) => sq.index(),
                                _ => usize::MAX,
                            });
                        }
                        parsed
                    }
                };
                let answer = ask(lua, kind, prompt, options, optional(&opts)?, table)?;
                answer_value(lua, answer)
            });
        }
        add(m, "ask_order", |lua, (prompt, items): (String, Table)| {
            let key = items.to_pointer() as usize;
            // The same call made again when its suspended run resumes (prelude.lua)
            // goes on from where it halted instead of starting over.
            let again = with_run(lua, |r| {
                Ok(r.take_halted(|h| matches!(h, Halted::Order(o) if o.items == key && o.prompt == prompt)))
            })?;
            let mut o = match again {
                Some(Halted::Order(o)) => o,
                _ => {
                    let left = strings(items)?;
                    if left.len() > 64 {
                        return Err(err("ask_order orders at most 64 items"));
                    }
                    let cursor = with_run(lua, |r| Ok(r.cursor))?;
                    Ordering {
                        items: key,
                        prompt,
                        total: left.len(),
                        order: Vec::with_capacity(left.len()),
                        left,
                        cursor,
                    }
                }
            };
            while !o.left.is_empty() {
                let position = o.order.len() + 1;
                let question = || format!("{} (position {position} of {})", o.prompt, o.total);
                let Some(pick) = ask_among(lua, &o.left, question)? else {
                    with_run(lua, |r| {
                        r.halted = Some(Halted::Order(o));
                        Ok(())
                    })?;
                    return Ok(Value::Table(halt_sentinel(lua)?));
                };
                let Some(i) = pick else {
                    // `keep`: the rest as they lie.
                    o.order.append(&mut o.left);
                    break;
                };
                // Only the first copy: a pile may hold a card more than once (R1.6).
                let pick = o.left.remove(i);
                o.order.push(pick);
            }
            Ok(Value::Table(list(lua, o.order)?))
        });
    }
    builder.finish()
}

struct ApiBuilder<'a> {
    lua: &'a Lua,
    shared: Rc<Shared>,
    table: Table,
    error: Option<LuaError>,
}

impl ApiBuilder<'_> {
    fn finish(self) -> R<Table> {
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
        let _unlimited = Unlimited::new(lua);
        f(&Cx { lua, shared: &shared }, args)
    });
    match function.and_then(|function| m.table.raw_set(name, function)) {
        Ok(()) => {}
        Err(e) => m.error = Some(e),
    }
}

/// Lifts the memory limit until dropped.
struct Unlimited<'a>(&'a Lua);

impl<'a> Unlimited<'a> {
    fn new(lua: &'a Lua) -> Unlimited<'a> {
        let _ = lua.set_memory_limit(0);
        Unlimited(lua)
    }
}

impl Drop for Unlimited<'_> {
    fn drop(&mut self) {
        let _ = self.0.set_memory_limit(super::sandbox::MEMORY_LIMIT);
    }
}

/// The options of a question, read from its table.
fn read_options(names: &Names, kind: QuestionKind, options: &Table) -> R<Vec<Answer>> {
    let mut parsed = Vec::with_capacity(options.raw_len());
    if kind == QuestionKind::Edges {
        // Hundreds of them, each costly to parse: found by address.
        for s in options.sequence_values::<LuaString>() {
            let s = s?;
            parsed.push(match names.pair(&s) {
                Some(pair) => Answer::Edges(pair),
                None => parse_answer(kind, &s.to_str()?)?,
            });
        }
    } else {
        for s in options.sequence_values::<String>() {
            parsed.push(parse_answer(kind, &s?)?);
        }
    }
    Ok(parsed)
}

/// The square a name such as `d4` (as the API writes it) names, without
/// allocating; `None` for any other text, which the kernel's parser reads.
fn square_named(name: &[u8]) -> Option<Square> {
    match name {
        [file @ b'a'..=b'h', rank @ b'1'..=b'8'] => Square::at((file - b'a') as i8, (rank - b'1') as i8),
        _ => None,
    }
}

/// A question's option, parsed by kind so the answer type is checked once here.
fn parse_answer(kind: QuestionKind, text: &str) -> R<Answer> {
    Ok(match kind {
        QuestionKind::Square | QuestionKind::Checker => Answer::Square(square(text)?),
        QuestionKind::Block => {
            let anchor = square(text)?;
            crate::kernel::block(anchor)
                .ok_or_else(|| err(format!("no 2x2 block has {anchor} as its lower-left square")))?;
            Answer::Square(anchor)
        }
        QuestionKind::Edge => Answer::Edge(rule(text.parse())?),
        QuestionKind::Edges => Answer::Edges(rule(text.parse())?),
        QuestionKind::Direction => Answer::Dir(rule(text.parse())?),
        QuestionKind::Move => {
            let parsed: MoveText = rule(text.parse())?;
            Answer::Move(rule(crate::kernel::Move::from_text(&parsed))?)
        }
        QuestionKind::Option => {
            if text.is_empty() || text.len() > 80 {
                return Err(err("an option's name must be 1 to 80 characters"));
            }
            Answer::Option(text.to_string())
        }
    })
}

/// `{only = {squares}, exclude = {squares}, not_to = {squares}}`: the squares
/// whose checkers may move, and those no move may end on. Read before the run is
/// borrowed, since reading a table can run a script's metamethod.
/// Which of the user's moves a move helper lists (cards/README.md, "Moves").
#[derive(Clone, Copy)]
struct MoveFilter {
    /// Checkers that may move (`only` less `exclude`).
    allowed: Bitboard,
    /// Squares a move may not end on.
    not_to: Bitboard,
    /// A checker to count as absent (R8.16), without lifting it.
    without: Option<Square>,
}

fn move_filter(filter: Option<Table>) -> R<MoveFilter> {
    let Some(f) = filter else {
        return Ok(MoveFilter { allowed: Bitboard::ALL, not_to: Bitboard::EMPTY, without: None });
    };
    let only = f.raw_get::<Option<Table>>("only")?;
    let allowed = if only.is_some() { squares_of(only)? } else { Bitboard::ALL };
    let exclude = squares_of(f.raw_get::<Option<Table>>("exclude")?)?;
    let not_to = squares_of(f.raw_get::<Option<Table>>("not_to")?)?;
    let without = f.raw_get::<Option<String>>("without")?.map(|s| square(&s)).transpose()?;
    Ok(MoveFilter { allowed: allowed - exclude, not_to, without })
}

/// The legal moves of the card's user under a [`MoveFilter`].
fn legal_moves_for(run: &Run, filter: MoveFilter) -> R<Vec<crate::kernel::Move>> {
    let Some(absent) = filter.without else {
        return Ok(run.state.moves_avoiding(run.user, filter.allowed, filter.not_to));
    };
    let mut board = run.state.board;
    rule(board.set_aside(absent, &mut crate::kernel::Unrecorded))?;
    let mut out = Vec::new();
    let rules = run.state.move_rules(run.user);
    crate::kernel::legal_moves_avoiding(&board, run.user, filter.allowed, filter.not_to, &rules, &mut out);
    Ok(out)
}

/// The direction from `from` to `to` if `to` is exactly `distance` steps away in a line.
fn direction(from: Square, to: Square, distance: i8) -> Option<Dir> {
    let (df, dr) = (to.file() - from.file(), to.rank() - from.rank());
    Dir::ALL.into_iter().find(|d| {
        let (x, y) = d.delta();
        x * distance == df && y * distance == dr
    })
}
