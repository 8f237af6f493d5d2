//! The checks behind the fuzz targets (one function per target), kept apart from
//! libFuzzer so that `tests/fuzz_corpora.rs` can run them too: on every committed
//! seed input and on random inputs, under plain `cargo test`.
//!
//! Each function takes arbitrary bytes and panics only when the engine breaks a
//! promise: a panic inside the engine, an error without a location, an invariant
//! of the kernel broken, a round trip that changes something.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use alien_checkers::content::{Content, ContentRoot, DeckManifest, ScriptManifest, problem_parse_yaml};
use alien_checkers::game::{Choice, GameError, GameState};
use alien_checkers::kernel::Totals;
use alien_checkers::kernel::Unrecorded;
use alien_checkers::plain::{Position, perft};
use alien_checkers::repl::{Command, parse_choice, parse_command};
use alien_checkers::script::ScriptEngine;
use alien_checkers::session::Session;

/// The repository: the folder holding `cards/` (this crate lives in `fuzz/`,
/// the integration tests in the repository itself).
pub fn repository() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    if here.join("cards").is_dir() { here } else { here.parent().expect("fuzz/ has a parent").to_path_buf() }
}

// ---- manifest: the YAML loader ----

/// A private copy of the shipped content for this process, where the fuzzer's
/// text is written as a deck (`cards/decks/fuzz.yaml`) or as the manifest of a
/// card `fuzzcard` that the deck `fuzzcard` names.
fn scratch_root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let root = std::env::temp_dir().join(format!("alien-fuzz-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for dir in ["cards", "cards/decks", "planets"] {
            std::fs::create_dir_all(root.join(dir)).expect("a scratch folder");
        }
        let repo = repository();
        for dir in ["cards", "planets"] {
            for entry in std::fs::read_dir(repo.join(dir)).expect("shipped content").flatten() {
                let path = entry.path();
                let keep = path.extension().is_some_and(|e| e == "yaml" || e == "lua")
                    && !path.to_string_lossy().ends_with(".test.yaml");
                if keep && path.is_file() {
                    std::fs::copy(&path, root.join(dir).join(entry.file_name())).expect("copy");
                }
            }
        }
        for entry in std::fs::read_dir(repo.join("cards/decks")).expect("shipped decks").flatten() {
            std::fs::copy(entry.path(), root.join("cards/decks").join(entry.file_name())).expect("copy");
        }
        std::fs::write(root.join("cards/fuzzcard.lua"), "function play(ctx) end\n").unwrap();
        std::fs::write(
            root.join("cards/decks/fuzzcard.yaml"),
            "name: fuzzcard\ncards: {fuzzcard: 1, water: 2}\nplanets: [venus, earth]\nrules: {crowning: from_reserve, cards: true, five_kings_win: true, when_stuck: skip, move_limit: 200}\n",
        )
        .unwrap();
        root
    })
}

/// Lines as YAML counts them: `\r\n`, a lone `\r`, `\n`, NEL, LS and PS each end
/// one (editors agree about the lone `\r`).
fn yaml_lines(text: &str) -> usize {
    let breaks = text
        .replace("\r\n", "\n")
        .chars()
        .filter(|c| matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}'))
        .count();
    breaks + 1
}

/// A parse error must point inside the text: line 1..=lines+1, column ≥ 1.
fn check_location(text: &str, line: usize, column: usize, message: &str) {
    let lines = yaml_lines(text);
    assert!(line >= 1 && line <= lines + 1, "line {line} of {lines}: {message}");
    assert!(column >= 1, "column {column}: {message}");
    assert!(!message.is_empty(), "an empty message");
}

/// The manifest loader on arbitrary text: parsing never panics and every error is
/// located; loading a deck (or a card) from the text reports problems with files
/// inside the content root, and a deck that loads deals a game.
pub fn manifest(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    for result in
        [problem_parse_yaml::<DeckManifest>(&text).map(|_| ()), problem_parse_yaml::<ScriptManifest>(&text).map(|_| ())]
    {
        if let Err(alien_checkers::content::YamlError { line, column, message }) = result {
            check_location(&text, line, column, &message);
        }
    }
    let root = scratch_root();
    let (file, deck) = if which % 2 == 0 {
        (root.join("cards/decks/fuzz.yaml"), "fuzz")
    } else {
        (root.join("cards/fuzzcard.yaml"), "fuzzcard")
    };
    std::fs::write(&file, text.as_bytes()).expect("write the scratch manifest");
    match Content::load(&ContentRoot::new(root), deck) {
        Ok(content) => {
            let setup = content.setup();
            assert!(setup.deck.len() <= 10_000, "a deck of {} cards", setup.deck.len());
            let state = GameState::new(&setup, u64::from(which));
            state.board.validate().expect("a dealt board is valid");
        }
        Err(problems) => {
            assert!(!problems.0.is_empty());
            for p in &problems.0 {
                assert!(p.file.starts_with(root), "a problem outside the content root: {p}");
                if p.file == file
                    && let Some(line) = p.line
                {
                    check_location(&text, line, p.column.unwrap_or(1), &p.message);
                }
            }
        }
    }
}

// ---- fen: the FEN reader ----

/// The FEN reader on arbitrary text: an error is a `bad FEN:` message; a position
/// read is valid, prints to a FEN that reads back the same, and its moves play.
pub fn fen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match text.parse::<Position>() {
        Err(e) => {
            let m = e.to_string();
            assert!(m.starts_with("bad FEN: ") && m.len() > 9, "{m}");
        }
        Ok(position) => {
            position.board.validate().expect("a FEN position is valid");
            let again: Position = position.to_string().parse().expect("its own FEN reads back");
            assert_eq!(again, position);
            for mv in position.legal_moves() {
                let mut board = position.board;
                board.play(&mv, &mut Unrecorded).expect("a legal move plays");
                board.validate().expect("a board after a legal move is valid");
            }
            perft(&position, 2);
        }
    }
}

// ---- command_line: the REPL's parser ----

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// The REPL's command line on arbitrary text, in a game reached by a few random
/// decisions: `parse_command` is total, and a decision it reads is one of the
/// pending options, which then applies (or its card fails cleanly).
pub fn command_line(data: &[u8]) {
    if data.len() < 2 {
        return;
    }
    let (seed, steps, line) = (u64::from(data[0]), usize::from(data[1] % 48), String::from_utf8_lossy(&data[2..]));
    SESSION.with(|cell| {
        let mut cell = cell.borrow_mut();
        let session = cell.get_or_insert_with(|| {
            Session::new(&ContentRoot::new(repository()), "standard", 0).expect("the standard deck loads")
        });
        session.new_game(seed);
        let mut pick = seed as usize;
        for _ in 0..steps {
            let Some(decision) = session.state().pending(&session.engine) else { break };
            pick = pick.wrapping_mul(31).wrapping_add(7);
            let choice = decision.options[pick % decision.options.len()].clone();
            session.apply(&choice).expect("an offered option applies");
        }
        let text = match parse_command(&line) {
            Command::Decide(text) | Command::Use(text) => text,
            Command::Invalid(message) => {
                assert!(!message.is_empty());
                return;
            }
            _ => return,
        };
        let Ok(choice) = parse_choice(session, &text) else { return };
        let decision = session.state().pending(&session.engine).expect("a choice was read, so the game goes on");
        assert!(decision.options.contains(&choice), "'{text}' read as {choice}, which is not offered");
        let mut state = session.state().clone();
        match state.apply(&session.engine, &choice) {
            Ok(()) | Err(GameError::CardFailed(_) | GameError::EffectFailed { .. }) => {}
            Err(e) => panic!("'{text}' read as {choice}, which was refused: {e}"),
        }
        session.engine.take_errors();
    });
}

// ---- decisions: random games with invariant checks ----

thread_local! {
    static ENGINES: RefCell<BTreeMap<String, ScriptEngine>> = const { RefCell::new(BTreeMap::new()) };
}

/// The kernel's invariants after every decision (`Board::check_conservation`)
/// and a JSON round trip that changes nothing.
pub fn check_invariants(state: &GameState, totals: &Totals, context: &dyn Fn() -> String) {
    if let Err(e) = state.board.check_conservation(totals) {
        panic!("{}: {e}", context());
    }
    let json = serde_json::to_string(state).expect("a state serializes");
    let back: GameState = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{}: {e}", context()));
    assert!(back == *state, "{}: the JSON round trip changed the state", context());
}

/// A game of a shipped deck picked by the bytes: the first eight are the seed,
/// the ninth the deck, each later byte picks one of the pending options. Every
/// offered option applies, the invariants hold after each, and replaying the
/// same picks gives the same digest.
pub fn decisions(data: &[u8]) {
    if data.len() < 9 {
        return;
    }
    let seed = u64::from_le_bytes(data[..8].try_into().expect("eight bytes"));
    let decks = ContentRoot::new(repository()).deck_names();
    let deck = &decks[usize::from(data[8]) % decks.len()];
    let picks = &data[9..];
    ENGINES.with(|cell| {
        let mut engines = cell.borrow_mut();
        let engine = engines.entry(deck.clone()).or_insert_with(|| {
            ScriptEngine::load(&ContentRoot::new(repository()), deck).unwrap_or_else(|p| panic!("{deck}: {p}"))
        });
        let play = |check: bool| -> (u64, usize) {
            let mut state = GameState::new(&engine.content().setup(), seed);
            state.settle(engine).expect("a new game settles");
            let totals = state.board.totals();
            let mut applied = 0;
            for (i, &byte) in picks.iter().enumerate() {
                let Some(decision) = state.pending(engine) else { break };
                assert!(!decision.options.is_empty(), "a pending decision without options");
                let choice: Choice = decision.options[usize::from(byte) % decision.options.len()].clone();
                let context = || format!("deck {deck}, seed {seed}, decision {i} ({choice})");
                if let Err(e) = state.apply(engine, &choice) {
                    panic!("{}: an offered option was refused: {e}", context());
                }
                applied += 1;
                if check {
                    check_invariants(&state, &totals, &context);
                }
            }
            engine.take_errors();
            (state.digest(), applied)
        };
        let first = play(true);
        let again = play(false);
        assert_eq!(first, again, "deck {deck}, seed {seed}: the same picks gave another game");
    });
}

// ---- scripts: generated card scripts against the sandbox ----

/// Reads the fuzzer's bytes one at a time (zeros once they run out).
struct Bytes<'a>(&'a [u8], usize);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let b = self.0.get(self.1).copied().unwrap_or(0);
        self.1 += 1;
        b
    }

    fn pick<'s>(&mut self, from: &[&'s str]) -> &'s str {
        from[usize::from(self.next()) % from.len()]
    }

    fn done(&self) -> bool {
        self.1 >= self.0.len()
    }
}

const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "10",
    "100",
    "1000",
    "1e6",
    "2^31",
    "2^53",
    "2^62",
    "-2^63",
    "1.5",
    "math.huge",
    "'4611686018427387904'",
    "'12'",
    "'0x10'",
    "#t",
    "n",
];
const STRINGS: &[&str] = &[
    "''",
    "'a'",
    "'ab'",
    "'%'",
    "'('",
    "'[^'",
    "'\\0'",
    "'\\27[2J'",
    "'aaaa'",
    "s",
    "tostring(n)",
    "string.rep('a', 1000)",
    "string.rep('ab', 40000)",
    "'d4'",
    "'e5'",
];
const PATTERNS: &[&str] = &[
    "'a*b'",
    "'(a*)*b'",
    "'%b()'",
    "'[a-z]+'",
    "'.-'",
    "'(.)%1'",
    "'a?a?a?a?aaaa'",
    "'^a'",
    "'%f[%w]%w+'",
    "'[%]'",
    "string.rep('a', 200) .. 'b'",
    "'(((.*).*).*)x'",
    "'%'",
    "'['",
];
const SQUARES: &[&str] = &["'d4'", "'e5'", "'a1'", "'h8'", "'z9'", "s"];

/// One statement of the grammar (nested at most `depth` deep).
fn statement(b: &mut Bytes, depth: u32, out: &mut String) {
    let indent = "  ".repeat(depth as usize + 1);
    let n = |b: &mut Bytes| b.pick(NUMBERS).to_string();
    let s = |b: &mut Bytes| b.pick(STRINGS).to_string();
    let line = match b.next() % 30 {
        0 => format!("s = string.rep({}, {}, {})", s(b), n(b), s(b)),
        1 => format!("string.find({}, {}, {}, {})", s(b), s(b), n(b), b.pick(&["true", "false", "nil"])),
        2 => format!("string.match({}, {})", s(b), b.pick(PATTERNS)),
        3 => format!("s = select(1, string.gsub({}, {}, {}))", s(b), b.pick(PATTERNS), s(b)),
        4 => format!("for w in string.gmatch({}, {}) do n = n + 1 end", s(b), b.pick(PATTERNS)),
        5 => format!("table.insert(t, {}, {})", n(b), s(b)),
        6 => format!("table.remove(t, {})", n(b)),
        7 => format!("s = table.concat(t, {}, {}, {})", s(b), n(b), n(b)),
        8 => format!("table.move(t, {}, {}, {}, u)", n(b), n(b), n(b)),
        9 => format!("n = select('#', table.unpack(t, {}, {}))", n(b), n(b)),
        10 => "table.sort(t, function(a, b) return tostring(a) < tostring(b) end)".to_string(),
        11 => format!(
            "s = string.format({}, {}, {})",
            b.pick(&["'%s %d'", "'%q'", "'%5.2f'", "'%p'", "'%s'"]),
            s(b),
            n(b)
        ),
        12 if depth < 3 => {
            let mut body = String::new();
            block(b, depth + 1, &mut body);
            format!("pcall(function()\n{body}{indent}end)")
        }
        13 if depth < 3 => {
            let mut body = String::new();
            block(b, depth + 1, &mut body);
            format!("coroutine.resume(coroutine.create(function()\n{body}{indent}end))")
        }
        14 => format!("ctx:log({})", s(b)),
        15 => format!("ctx:place_terrain({}, 'water')", b.pick(SQUARES)),
        16 => format!("s = ctx:ask_square({}, {{ {}, {} }})", s(b), b.pick(SQUARES), b.pick(SQUARES)),
        17 if depth < 3 => {
            let mut body = String::new();
            block(b, depth + 1, &mut body);
            format!("for i = 1, {} do\n{body}{indent}end", b.pick(&["3", "100", "1e5", "n"]))
        }
        18 => format!(
            "setmetatable(t, {{ __index = function(_, k) return k end, __len = function() return {} end }})",
            n(b)
        ),
        19 => format!("n = tonumber({}) or n", s(b)),
        20 => format!("n = utf8.len({}) or n", s(b)),
        // Joining strings (`..`) is one VM instruction whatever it copies: the
        // one piece of work the budget cannot see (bounded by the memory limit
        // and the wall clock, cards/README.md). Kept short here.
        21 => format!("s = (s .. {}):sub(1, 1000)", s(b)),
        22 => format!("error({})", s(b)),
        23 => "while true do end".to_string(),
        24 => format!("n = math.max(n, {}) + math.floor({})", n(b), n(b)),
        25 => "for k, v in pairs(t) do u[k] = v end".to_string(),
        26 => format!("t[{}] = {}", n(b), s(b)),
        27 => format!("s = ({}):rep({})", s(b), n(b)),
        28 => format!("n = #({})", s(b)),
        _ => format!("ctx:add_effect{{ lasts = {}, data = {{ k = {} }} }}", b.pick(&["1", "'game'", "0"]), s(b)),
    };
    out.push_str(&indent);
    out.push_str(&line);
    out.push('\n');
}

fn block(b: &mut Bytes, depth: u32, out: &mut String) {
    let count = 1 + b.next() % 4;
    for _ in 0..count {
        if b.done() {
            break;
        }
        statement(b, depth, out);
    }
}

/// The card script the bytes stand for: a `play` of statements over the script
/// library and `ctx`, from a small grammar (loops, pcall and coroutines
/// nested three deep at most).
pub fn script_text(data: &[u8]) -> String {
    let mut b = Bytes(data, 0);
    let mut body = String::new();
    while !b.done() && body.len() < 4000 {
        statement(&mut b, 0, &mut body);
    }
    format!("function play(ctx)\n  local s, n, t, u = 'x', 1, {{ 'a', 'b', 'c' }}, {{}}\n{body}end\n")
}

/// The instruction budget of a generated card's run: small, so that runs are quick.
const SCRIPT_BUDGET: u64 = 200_000;

/// A private content root holding the card `fuzzscript` in a deck of its own.
fn script_root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let root = std::env::temp_dir().join(format!("alien-fuzz-scripts-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for dir in ["cards/decks", "planets"] {
            std::fs::create_dir_all(root.join(dir)).expect("a scratch folder");
        }
        std::fs::write(root.join("cards/fuzzscript.yaml"), "name: Fuzz\ntext: a generated card\n").unwrap();
        std::fs::write(root.join("cards/fuzzscript.lua"), "function play(ctx) end\n").unwrap();
        for planet in ["venus", "earth"] {
            for ext in ["yaml", "lua"] {
                let from = repository().join(format!("planets/{planet}.{ext}"));
                std::fs::copy(from, root.join(format!("planets/{planet}.{ext}"))).expect("copy");
            }
        }
        std::fs::write(
            root.join("cards/decks/fuzz.yaml"),
            "name: fuzz\ncards: {fuzzscript: 1}\nplanets: [venus, earth]\nrules: {crowning: from_reserve, cards: true, five_kings_win: true, when_stuck: skip, move_limit: 200}\n",
        )
        .unwrap();
        root
    })
}

/// How long a run that spends the whole budget takes on this machine, on the
/// costlier of two kinds of work: instructions that make tables and strings,
/// and the string work the library charges for (`string.rep`). The yardstick
/// for "every run ends within its budget".
fn budget_time() -> std::time::Duration {
    static TIME: OnceLock<std::time::Duration> = OnceLock::new();
    *TIME.get_or_init(|| {
        let kinds = [
            "local n = 0\n  while true do local t = { tostring(n) .. 'y', {} } n = n + 1 end",
            "while true do local s = string.rep('ab', 40000) end",
        ];
        let median = |body: &str| {
            let engine = script_engine(&format!("function play(ctx)\n  {body}\nend\n")).expect("a yardstick compiles");
            let mut times: Vec<_> = (0..7).map(|_| run_script(&engine).1).collect();
            times.sort();
            times[3]
        };
        kinds.iter().map(|body| median(body)).max().expect("two kinds")
    })
}

/// An engine over the card `fuzzscript` with `source` as its script, or why
/// the script was refused when it loaded (its top level runs then).
fn script_engine(source: &str) -> Result<ScriptEngine, String> {
    let root = script_root();
    std::fs::write(root.join("cards/fuzzscript.lua"), source).expect("write the script");
    let mut engine = ScriptEngine::load(&ContentRoot::new(root), "fuzz").map_err(|p| p.to_string())?;
    engine.set_budgets(alien_checkers::script::Budgets {
        card: SCRIPT_BUDGET,
        time_guard: std::time::Duration::from_secs(60),
        ..Default::default()
    });
    Ok(engine)
}

/// Runs the card once from a fixed deal, answering its questions with their
/// first option (at most 20 answers, each a run of its own); the outcome as
/// text, and the longest single run.
fn run_script(engine: &ScriptEngine) -> (String, std::time::Duration) {
    use alien_checkers::game::{CardId, Step};
    let mut state = GameState::new(&engine.content().setup(), 11);
    state.hidden_mut().piles.face_up = [CardId(0)].into_iter().collect();
    state.hidden_mut().piles.draw.clear();
    state.position_mut().step = Step::Card;
    let mut longest = std::time::Duration::ZERO;
    let mut timed = |state: &mut GameState, choice: &Choice| {
        let started = std::time::Instant::now();
        let result = state.apply(engine, choice);
        longest = longest.max(started.elapsed());
        result
    };
    let mut outcome = match timed(&mut state, &Choice::Card(CardId(0))) {
        Ok(()) => String::from("ok"),
        Err(e) => format!("failed: {e}"),
    };
    for _ in 0..20 {
        let Step::Resolving(r) = &state.step else { break };
        let answer = Choice::Answer(r.question.options[0].clone());
        outcome = match timed(&mut state, &answer) {
            Ok(()) => format!("answered {answer}"),
            Err(e) => format!("failed after an answer: {e}"),
        };
    }
    (format!("{outcome}; digest {:016x}", state.digest()), longest)
}

/// What the script the bytes stand for does, in a fresh engine: the text of its
/// outcome (a message, or the state's digest), which must not depend on the
/// process, and how long it took.
pub fn script_outcome(data: &[u8]) -> (String, std::time::Duration) {
    match script_engine(&script_text(data)) {
        Ok(engine) => run_script(&engine),
        Err(problems) => (format!("refused at load: {problems}"), std::time::Duration::ZERO),
    }
}

/// A generated card script: no panic; its run ends within its budget (no
/// longer than 1.1 times a run that spends the whole budget on plain work, plus
/// 100 ms for the noise of a shared machine under sanitizers), and a second
/// fresh engine (another hash seed, other addresses) gives the same outcome.
pub fn scripts(data: &[u8]) {
    let (outcome, took) = script_outcome(data);
    let allowed = budget_time().mul_f64(1.1) + std::time::Duration::from_millis(100);
    assert!(took <= allowed, "the run took {took:?}, more than {allowed:?}:\n{}", script_text(data));
    let (again, _) = script_outcome(data);
    assert_eq!(outcome, again, "the same script gave another outcome:\n{}", script_text(data));
}

// ---- scenario: the scenario and diagram readers ----

/// A scenario file of arbitrary text, run as `alien-checkers test` runs it, and
/// the same text read as a board diagram: neither ever panics, and every
/// scenario that passed has a name.
pub fn scenario(data: &[u8]) {
    use alien_checkers::kernel::{Crowning, Supply};
    let text = String::from_utf8_lossy(data);
    let _ = alien_checkers::diagram::parse(&text, Supply::STANDARD, Crowning::FromReserve);
    let path = scratch_root().join(format!("cards/fuzz-{}.test.yaml", std::process::id()));
    std::fs::write(&path, text.as_bytes()).expect("write the scenario");
    // A file may hold no scenario at all (`scenarios: []`).
    let outcomes = alien_checkers::scenario::run_file(&ContentRoot::new(scratch_root()), &path);
    for outcome in outcomes {
        assert!(!outcome.name.is_empty() || outcome.failure.is_some(), "an unnamed scenario passed");
    }
}
