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

/// The card script the bytes stand for (those before [`DECK_PART`], if it is
/// there): a `play` of statements over the script library and `ctx`, from a
/// small grammar (loops, pcall and coroutines nested three deep at most).
pub fn script_text(data: &[u8]) -> String {
    let mut b = Bytes(parts(data).0, 0);
    let mut body = String::new();
    while !b.done() && body.len() < 4000 {
        statement(&mut b, 0, &mut body);
    }
    format!("function play(ctx)\n  local s, n, t, u = 'x', 1, {{ 'a', 'b', 'c' }}, {{}}\n{body}end\n")
}

/// The instruction budget of a generated card's run: small, so that runs are quick.
const SCRIPT_BUDGET: u64 = 200_000;

/// A private content root holding the card `fuzzscript` in a deck of its own
/// (`fuzz`), the shipped cards and planets (without their scenarios), and the
/// generated deck `fuzzdeck` with its rule card `fuzzrule` ([`deck_outcome`]).
/// One for each thread: the tests run targets side by side.
fn script_root() -> PathBuf {
    thread_local! {
        static ROOT: PathBuf = new_script_root();
    }
    ROOT.with(PathBuf::clone)
}

fn new_script_root() -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static MADE: AtomicUsize = AtomicUsize::new(0);
    let made = MADE.fetch_add(1, Ordering::Relaxed);
    let root = std::env::temp_dir().join(format!("alien-fuzz-scripts-{}-{made}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for dir in ["cards/decks", "planets"] {
        std::fs::create_dir_all(root.join(dir)).expect("a scratch folder");
    }
    for dir in ["cards", "planets"] {
        for entry in std::fs::read_dir(repository().join(dir)).expect("shipped content").flatten() {
            let path = entry.path();
            let keep = path.extension().is_some_and(|e| e == "yaml" || e == "lua")
                && !path.to_string_lossy().ends_with(".test.yaml");
            if keep && path.is_file() {
                std::fs::copy(&path, root.join(dir).join(entry.file_name())).expect("copy");
            }
        }
    }
    std::fs::write(root.join("cards/fuzzscript.yaml"), "name: Fuzz\ntext: a generated card\n").unwrap();
    std::fs::write(root.join("cards/fuzzscript.lua"), "function play(ctx) end\n").unwrap();
    std::fs::write(
            root.join("cards/decks/fuzz.yaml"),
            "name: fuzz\ncards: {fuzzscript: 1}\nplanets: [venus, earth]\nrules: {crowning: from_reserve, cards: true, five_kings_win: true, when_stuck: skip, move_limit: 200}\n",
        )
        .unwrap();
    root
}

/// The CPU time this thread has used: what a run costs, whatever else the
/// machine is doing (this machine has no instruction counters to read, and the
/// wall clock counts the other processes' work too).
fn thread_cpu_time() -> std::time::Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid timespec for the call to write.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "the thread's CPU clock cannot be read");
    std::time::Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// The CPU time a run that spends the whole budget takes on this machine, on
/// the costlier of two kinds of work: instructions that make tables and
/// strings, and the string work the library charges for (`string.rep`). The
/// yardstick for "every run ends within its budget".
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
    let root = &script_root();
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
/// text, and the CPU time of the longest single run.
fn run_script(engine: &ScriptEngine) -> (String, std::time::Duration) {
    use alien_checkers::game::{CardId, Step};
    let mut state = GameState::new(&engine.content().setup(), 11);
    state.hidden_mut().piles.face_up = [CardId(0)].into_iter().collect();
    state.hidden_mut().piles.draw.clear();
    state.position_mut().step = Step::Card;
    let mut longest = std::time::Duration::ZERO;
    let mut timed = |state: &mut GameState, choice: &Choice| {
        let started = thread_cpu_time();
        let result = state.apply(engine, choice);
        longest = longest.max(thread_cpu_time().saturating_sub(started));
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
/// process, and the CPU time of its longest run.
pub fn script_outcome(data: &[u8]) -> (String, std::time::Duration) {
    match script_engine(&script_text(data)) {
        Ok(engine) => run_script(&engine),
        Err(problems) => (format!("refused at load: {problems}"), std::time::Duration::ZERO),
    }
}

/// The `scripts` fuzz target: a generated card script's run ends within its
/// budget, and then [`scripts_agree`]. "Within its budget" is the one check in
/// CPU time: a run may take no longer than 1.1 times a run that spends the
/// whole budget on plain work, plus 100 ms for the noise of sanitizers. It
/// finds work the meter does not count; the test suite leaves it out (tests
/// are not timed) and runs [`scripts_agree`] alone.
pub fn scripts(data: &[u8]) {
    let (_, took) = script_outcome(data);
    let allowed = budget_time().mul_f64(1.1) + std::time::Duration::from_millis(100);
    assert!(took <= allowed, "the run took {took:?} of CPU time, more than {allowed:?}:\n{}", script_text(data));
    scripts_agree(data);
}

/// A generated card script: no panic, and a second fresh engine (another hash
/// seed, other addresses) gives the same outcome. Then the generated deck with
/// that card ([`decks`]).
pub fn scripts_agree(data: &[u8]) {
    let (outcome, _) = script_outcome(data);
    let (again, _) = script_outcome(data);
    assert_eq!(outcome, again, "the same script gave another outcome:\n{}", script_text(data));
    decks(data);
}

/// The deck part of a `scripts` input ([`deck_outcome`]): its checks, and the
/// same outcome in a second fresh engine.
pub fn decks(data: &[u8]) {
    let deck = deck_outcome(data);
    let again = deck_outcome(data);
    assert_eq!(deck, again, "the same deck gave another game:\n{}", deck_text(data).manifest);
}

// ---- scripts, the deck part: generated move data and deck rules ----

/// Where the deck part of a `scripts` input begins: the bytes before it make
/// the card script, those after it the deck ([`deck_text`]). An input without
/// it makes both from all of its bytes.
pub const DECK_PART: &[u8] = b"--deck--";

/// The script part and the deck part of a `scripts` input.
fn parts(data: &[u8]) -> (&[u8], &[u8]) {
    match data.windows(DECK_PART.len()).position(|w| w == DECK_PART) {
        Some(at) => (&data[..at], &data[at + DECK_PART.len()..]),
        None => (data, data),
    }
}

/// The ids of the shipped cards or planets (`dir` is `cards` or `planets`), sorted.
fn shipped(dir: &str) -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(repository().join(dir))
        .expect("shipped content")
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".yaml").map(str::to_string))
        .filter(|id| !id.ends_with(".test"))
        .collect();
    ids.sort();
    ids
}

fn shipped_cards() -> &'static [String] {
    static IDS: OnceLock<Vec<String>> = OnceLock::new();
    IDS.get_or_init(|| shipped("cards"))
}

fn shipped_planets() -> &'static [String] {
    static IDS: OnceLock<Vec<String>> = OnceLock::new();
    IDS.get_or_init(|| shipped("planets"))
}

/// Whether the shipped card or planet `dir/id` says what it `needs:` of the
/// supply, or (`play`) its script defines `play`.
fn shipped_says(dir: &str, id: &str, what: &str) -> bool {
    let file = if what == "play" { format!("{dir}/{id}.lua") } else { format!("{dir}/{id}.yaml") };
    let text = std::fs::read_to_string(repository().join(file)).unwrap_or_default();
    text.lines().any(|l| if what == "play" { l.starts_with("function play(") } else { l.starts_with("needs:") })
}

/// A deck's choices read from the bytes: valid values, and in a deck that is
/// `slack` (about one in three) now and then a slightly invalid one.
struct DeckBytes<'a> {
    b: Bytes<'a>,
    slack: bool,
}

impl DeckBytes<'_> {
    fn byte(&mut self) -> usize {
        usize::from(self.b.next())
    }

    fn below(&mut self, n: usize) -> usize {
        self.byte() % n
    }

    /// True one time in `n`.
    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == n - 1
    }

    /// One of `good`, or now and then (in a slack deck) one of `bad`.
    fn value<'s>(&mut self, good: &[&'s str], bad: &[&'s str]) -> &'s str {
        let n = self.byte();
        if self.slack && n >= 232 && !bad.is_empty() { bad[n % bad.len()] } else { good[n % good.len()] }
    }

    fn shipped_card(&mut self) -> String {
        let cards = shipped_cards();
        cards[self.byte() % cards.len()].clone()
    }

    /// A shipped card for the draw pile: one with a `play` (a card that is
    /// only a deck's rule has none), but for now and then in a slack deck.
    fn shipped_playable_card(&mut self) -> String {
        static PLAYABLE: OnceLock<Vec<String>> = OnceLock::new();
        let cards = PLAYABLE
            .get_or_init(|| shipped_cards().iter().filter(|id| shipped_says("cards", id, "play")).cloned().collect());
        if self.slack && self.one_in(8) { self.shipped_card() } else { cards[self.byte() % cards.len()].clone() }
    }

    /// A shipped planet; with `any_supply`, one that needs nothing of the
    /// supply, but for now and then in a slack deck.
    fn shipped_planet(&mut self, any_supply: bool) -> &'static str {
        static NEEDLESS: OnceLock<Vec<String>> = OnceLock::new();
        let needless = NEEDLESS.get_or_init(|| {
            shipped_planets().iter().filter(|id| !shipped_says("planets", id, "needs")).cloned().collect()
        });
        let from = if any_supply && !(self.slack && self.one_in(4)) { needless } else { shipped_planets() };
        from[self.byte() % from.len()].as_str()
    }
}

const WAYS: &[&str] = &[
    "forward_diagonals",
    "diagonals",
    "backward_diagonals",
    "forward",
    "backward",
    "left",
    "right",
    "forward_left",
    "forward_right",
    "backward_left",
    "backward_right",
    "sideways",
    "forward_and_sideways",
    "orthogonals",
    "all",
    "none",
];

/// Ways as YAML and as Lua: one name or a list of names.
fn ways(g: &mut DeckBytes) -> (String, String) {
    let n = g.byte();
    match n % 10 {
        0..=5 => {
            let way = WAYS[n / 10 % WAYS.len()];
            (way.to_string(), format!("'{way}'"))
        }
        6..=8 => {
            let names: Vec<&str> = (0..1 + g.below(3)).map(|_| WAYS[g.byte() % WAYS.len()]).collect();
            let lua: Vec<String> = names.iter().map(|w| format!("'{w}'")).collect();
            (format!("[{}]", names.join(", ")), format!("{{ {} }}", lua.join(", ")))
        }
        _ if g.slack => {
            let bad = [
                ("upward", "'upward'"),
                ("Diagonals", "'Diagonals'"),
                ("3", "3"),
                ("[forward, 7]", "{ 'forward', 7 }"),
            ];
            let (yaml, lua) = bad[n / 10 % bad.len()];
            (yaml.to_string(), lua.to_string())
        }
        _ => ("diagonals".to_string(), "'diagonals'".to_string()),
    }
}

/// How one kind of checker moves (`steps`, `reach`, `captures`, `flying`),
/// as a YAML flow map and a Lua table.
fn piece_moves(g: &mut DeckBytes) -> (String, String) {
    let mut fields: Vec<(&str, String, String)> = Vec::new();
    if !g.one_in(4) {
        let (yaml, lua) = ways(g);
        fields.push(("steps", yaml, lua));
    }
    if g.one_in(3) {
        let n = g.byte();
        let (yaml, lua) = match n % 10 {
            0..=6 => ((n % 7 + 1).to_string(), (n % 7 + 1).to_string()),
            7 | 8 => ("any".to_string(), "'any'".to_string()),
            _ if g.slack => {
                let bad = [("0", "0"), ("8", "8"), ("far", "'far'"), ("-1", "-1"), ("1.5", "1.5")];
                let (yaml, lua) = bad[n / 10 % bad.len()];
                (yaml.to_string(), lua.to_string())
            }
            _ => ("2".to_string(), "2".to_string()),
        };
        fields.push(("reach", yaml, lua));
    }
    if !g.one_in(4) {
        let (yaml, lua) = ways(g);
        fields.push(("captures", yaml, lua));
    }
    if g.one_in(3) {
        let flying = g.value(&["true", "false"], &["yes", "'true'", "1"]);
        let lua = if flying == "yes" { "'yes'".to_string() } else { flying.to_string() };
        fields.push(("flying", flying.to_string(), lua));
    }
    if g.slack && g.one_in(16) {
        fields.push(("range", "2".to_string(), "2".to_string()));
    }
    let yaml: Vec<String> = fields.iter().map(|(k, v, _)| format!("{k}: {v}")).collect();
    let lua: Vec<String> = fields.iter().map(|(k, _, v)| format!("{k} = {v}")).collect();
    (format!("{{{}}}", yaml.join(", ")), format!("{{ {} }}", lua.join(", ")))
}

/// A deck's `moves:` (cards/README.md, "Moves as data"): its lines, four
/// spaces in.
fn deck_moves(g: &mut DeckBytes, out: &mut String) {
    let mut line = |key: &str, value: &str| out.push_str(&format!("    {key}: {value}\n"));
    for kind in ["pawns", "kings"] {
        if !g.one_in(4) {
            line(kind, &piece_moves(g).0);
        }
    }
    if g.one_in(2) {
        line("capture", g.value(&["compulsory", "optional"], &["sometimes", "Optional"]));
    }
    if g.one_in(2) {
        const PREFER: &[&str] = &["most_pieces", "by_a_king", "most_kings", "kings_first"];
        let count = g.below(if g.slack { 6 } else { 5 });
        let names: Vec<&str> = (0..count).map(|_| g.value(PREFER, &["most_captures", "[]", "longest"])).collect();
        line("prefer", &format!("[{}]", names.join(", ")));
    }
    if g.one_in(2) {
        let value = g.value(&["ends_the_move", "goes_on_as_king", "goes_on_as_pawn"], &["goes_on", "true"]);
        line("crowned_mid_capture", value);
    }
    if g.one_in(2) {
        line("captured_removed", g.value(&["at_the_end", "at_once"], &["never", "at_end"]));
    }
    for key in ["pawns_capture_kings", "turn_back"] {
        if g.one_in(3) {
            line(key, g.value(&["true", "false"], &["'false'", "no", "2"]));
        }
    }
    if g.one_in(2) {
        line("capture_paths", g.value(&["one", "each"], &["all", "both"]));
    }
    if g.slack && g.one_in(16) {
        line("jumps", "diagonals");
    }
}

/// The `moves` of a lasting effect as a Lua table (cards/README.md, "Lasting
/// effects"), valid but for a key now and then.
fn effect_moves(g: &mut DeckBytes) -> String {
    let mut fields = Vec::new();
    for kind in ["pawns", "kings"] {
        if g.one_in(2) {
            fields.push(format!("{kind} = {}", piece_moves(g).1));
        }
    }
    if g.one_in(3) {
        fields.push("pawns_step_back = true".to_string());
    }
    if g.one_in(3) {
        fields.push("capture_optional = true".to_string());
    }
    if g.one_in(3) {
        fields.push(format!("closed = {{ {} }}", g.value(&["'d4'", "'e5', 'c3'", "s", "'z9'"], &[])));
    }
    if g.one_in(32) {
        fields.push("jumps = 'diagonals'".to_string());
    }
    format!("{{ {} }}", fields.join(", "))
}

/// A square a deck rule's handler names: from its event, or a name.
const RULE_SQUARES: &[&str] = &["event.to", "event.at", "event.from", "'d4'", "'c3'", "'f6'", "'a1'", "s"];

/// One statement of a deck rule's handler: a change a rule makes, or one of
/// the card grammar's statements.
fn rule_statement(g: &mut DeckBytes, out: &mut String) {
    let line = match g.below(20) {
        0 => "ctx:end_effect()".to_string(),
        1 => format!("ctx:set_effect_data{{ n = n, s = {} }}", g.value(STRINGS, &[])),
        2 => format!("pcall(ctx.crown, ctx, {})", g.value(RULE_SQUARES, &[])),
        3 => format!("ctx:remove_checker({})", g.value(RULE_SQUARES, &[])),
        4 => format!("ctx:relocate({}, {})", g.value(RULE_SQUARES, &[]), g.value(RULE_SQUARES, &[])),
        5 | 6 => format!(
            "ctx:add_effect{{ lasts = {}, affects = {}, moves = {} }}",
            g.value(&["1", "2", "'game'"], &[]),
            g.value(&["'user'", "'opponent'", "'both'"], &[]),
            effect_moves(g)
        ),
        7 => format!("ctx:jump({}, {})", g.value(RULE_SQUARES, &[]), g.value(RULE_SQUARES, &[])),
        8 => "ctx:rotate('clockwise')".to_string(),
        9 => format!("ctx:place_from_reserve({})", g.value(RULE_SQUARES, &[])),
        10 => format!("ctx:add_counter(ctx:player(), 'fuzz_count', {})", g.value(NUMBERS, &[])),
        11 => "ctx:log(tostring(event.kind) .. ' ' .. tostring(effect and effect.id))".to_string(),
        12 => "n = ctx:count_moves{} + #ctx:legal_moves{}".to_string(),
        13 => format!("ctx:place_terrain({}, '{}')", g.value(RULE_SQUARES, &[]), g.value(&["fire", "water"], &[])),
        _ => return statement(&mut g.b, 0, out),
    };
    out.push_str("  ");
    out.push_str(&line);
    out.push('\n');
}

/// A function of the rule card's script, with a body of rule statements.
fn rule_function(g: &mut DeckBytes, head: &str, event: bool, out: &mut String) {
    out.push_str(&format!("function {head}\n  local s, n, t, u = 'x', 1, {{ 'a', 'b', 'c' }}, {{}}\n"));
    if !event {
        out.push_str("  local event, effect = { kind = 'deal', from = 'c3', to = 'd4', at = 'e5' }, nil\n");
    }
    for _ in 0..1 + g.below(4) {
        if g.b.done() {
            break;
        }
        rule_statement(g, out);
    }
    out.push_str("end\n");
}

/// `extra_moves` (cards/README.md, "Moves a script offers"): moves of one
/// kind for each of the player's checkers, and now and then one that is not a move.
fn extra_moves(g: &mut DeckBytes, out: &mut String) {
    let dir = g.value(&["n", "ne", "e", "se", "s", "sw", "w", "nw"], &[]);
    let offer = g.value(
        &[
            "if to and ctx:is_empty(to) then moves[#moves + 1] = sq .. '-' .. to end",
            "if to and ctx:checker(to) and ctx:checker(to).owner ~= ctx:player() then \
             moves[#moves + 1] = { path = { sq, to, sq }, takes = { to } } end",
            "moves[#moves + 1] = { path = { sq }, off = true }",
            "moves[#moves + 1] = sq .. 'x' .. (to or sq)",
        ],
        &[],
    );
    let junk = g.value(
        &["", "", "moves[#moves + 1] = 'z9-a1'", "moves[#moves + 1] = 42", "moves[#moves + 1] = { path = {} }"],
        &[],
    );
    out.push_str(&format!(
        "function extra_moves(ctx, effect)\n  local moves = {{}}\n  \
         for _, sq in ipairs(ctx:checker_squares{{ owner = ctx:player() }}) do\n    \
         local to = ctx:neighbour(sq, '{dir}')\n    {offer}\n  end\n  {junk}\n  return moves\nend\n"
    ));
}

/// The files of a generated deck ([`deck_text`]).
pub struct GeneratedDeck {
    /// `cards/decks/fuzzdeck.yaml`.
    pub manifest: String,
    /// `cards/fuzzrule.yaml` and `cards/fuzzrule.lua`: a card made to be one
    /// of the deck's rules (`game_begins`, handlers, `extra_moves`).
    pub rule_manifest: String,
    pub rule_script: String,
    /// The deal's seed and the picks of the decisions played after it.
    pub seed: u64,
    pub picks: Vec<u8>,
}

/// The deck the deck part of a `scripts` input stands for: its movement
/// (pawns' and kings' steps, reach, captures and flight, the capture rules),
/// its start and notation now and then, its cards (the generated card
/// `fuzzscript`, shipped cards, the rule card `fuzzrule`) and planets, and a
/// list of deck rules (`effects:`, 0 to 10 of the generated and shipped
/// cards). One deck in three is slack: a value here and there slightly wrong,
/// rules repeated or unknown.
pub fn deck_text(data: &[u8]) -> GeneratedDeck {
    let bytes = parts(data).1;
    let mut g = DeckBytes { b: Bytes(bytes, 0), slack: false };
    g.slack = g.below(3) == 2;
    let mut m = String::new();
    m.push_str(&format!("name: {}\n", g.value(&["Fuzz deck", "'Fuzz: deck'"], &["[a, b]", "{x: 1}"])));
    // Cards: the generated one, shipped ones, now and then the rule card.
    m.push_str("cards:\n");
    m.push_str(&format!("  fuzzscript: {}\n", g.value(&["1", "2", "3"], &["0", "101", "-1", "one"])));
    let mut listed = vec!["fuzzscript".to_string()];
    for _ in 0..g.below(5) {
        let id = g.shipped_playable_card();
        let copies = g.value(&["1", "2"], &["0"]);
        if !listed.contains(&id) || g.slack {
            m.push_str(&format!("  {id}: {copies}\n"));
            listed.push(id);
        }
    }
    // In the draw pile the rule card needs a `play`.
    let rule_played = g.one_in(4);
    if rule_played {
        m.push_str("  fuzzrule: 1\n");
    }
    if g.slack && g.one_in(8) {
        m.push_str(&format!("  {}: 1\n", g.value(&["nosuchcard", "Bad-Id", "none"], &[])));
    }
    let cards = g.value(&["true", "true", "false"], &["maybe"]);
    // A supply of the deck's own, now and then (written below).
    let own_supply = g.one_in(4);
    // Planets: two or more when cards are on.
    if cards == "false" {
        m.push_str(&format!("planets: {}\n", g.value(&["[]"], &["[venus, earth]"])));
    } else {
        let mut chosen: Vec<&str> = Vec::new();
        for _ in 0..2 + g.below(3) {
            let planet = g.shipped_planet(own_supply);
            if !chosen.contains(&planet) {
                chosen.push(planet);
            }
        }
        if chosen.len() < 2 {
            chosen = vec!["earth", "mars"];
        }
        let written = format!("[{}]", chosen.join(", "));
        m.push_str(&format!("planets: {}\n", g.value(&[&written], &["[venus]", "[venus, venus]", "[venus, nowhere]"])));
    }
    if own_supply {
        const COUNTS: &[&str] = &["0", "1", "2", "3", "4", "8", "15"];
        let mut supply = Vec::new();
        for kind in ["walls", "rings", "snookles", "water", "fire", "hippos"] {
            supply.push(format!("{kind}: {}", g.value(COUNTS, &["300", "many", "-1"])));
        }
        supply.push(format!("monolith: {}", g.value(&["0", "1"], &["2"])));
        m.push_str(&format!("supply: {{{}}}\n", supply.join(", ")));
    }
    // The deck's rules: 0 to 8, and in a slack deck up to 10, repeated or unknown.
    let count = g.below(if g.slack { 11 } else { 9 });
    let mut rules: Vec<String> = Vec::new();
    for _ in 0..count {
        let n = g.byte();
        let id = match n % 16 {
            0..=3 => "fuzzrule".to_string(),
            4 => "fuzzscript".to_string(),
            13 if g.slack => rules.last().cloned().unwrap_or_else(|| "fuzzrule".to_string()),
            14 if g.slack => g.value(&["nosuchcard", "fuzzcard"], &[]).to_string(),
            15 if g.slack => g.value(&["Bad-Id", "none", "''", "../water"], &[]).to_string(),
            _ => g.shipped_card(),
        };
        if g.slack || !rules.contains(&id) {
            rules.push(id);
        }
    }
    if !rules.is_empty() || g.one_in(2) {
        if g.one_in(2) {
            m.push_str(&format!("effects: [{}]\n", rules.join(", ")));
        } else {
            m.push_str("effects:\n");
            rules.iter().for_each(|id| m.push_str(&format!("  - {id}\n")));
        }
    }
    let counter = "[{name: fuzz_count, label: fuzz count}]";
    if g.one_in(4) {
        m.push_str(&format!("counters: {}\n", g.value(&[counter], &["[{name: Fuzz Count, label: x}]"])));
    }
    m.push_str("rules:\n");
    m.push_str(&format!("  crowning: {}\n", g.value(&["from_reserve", "free"], &["sometimes"])));
    m.push_str(&format!("  cards: {cards}\n"));
    m.push_str(&format!("  five_kings_win: {}\n", g.value(&["true", "false"], &["5"])));
    m.push_str(&format!("  when_stuck: {}\n", g.value(&["skip", "lose"], &["pass"])));
    m.push_str(&format!("  move_limit: {}\n", g.value(&["200", "50", "1", "10000"], &["0", "10001", "-5"])));
    if g.one_in(4) {
        m.push_str(&format!("  first_card_step: {}\n", g.value(&["true", "false"], &["later"])));
    }
    if g.one_in(4) {
        let squares = g.value(&["dark", "light", "all"], &["red"]);
        let rows = g.value(&["[1, 2, 3]", "[1]", "[1, 2]", "[2, 3]", "[1, 3, 4]", "[4]"], &["[5]", "[0]", "[]"]);
        m.push_str(&format!("  start: {{squares: {squares}, rows: {rows}}}\n"));
    }
    if g.one_in(8) {
        let notation = g.value(
            &["{sides: [White, Black], squares: algebraic}", "{squares: {numbered_from: a8}}", "{sides: [Red, White]}"],
            &["{squares: {numbered_from: z9}}", "{sides: [One]}"],
        );
        m.push_str(&format!("  notation: {notation}\n"));
    }
    if !g.one_in(4) {
        m.push_str("  moves:\n");
        deck_moves(&mut g, &mut m);
    }
    // The rule card: a manifest, and a script of game_begins, handlers, play
    // and extra_moves, each now and then.
    let mut rule_manifest = String::from("name: Fuzz rule\ntext: a generated deck rule\n");
    if g.one_in(4) {
        rule_manifest
            .push_str(&format!("counters: {}\n", g.value(&[counter], &["[{name: fuzz_count, label: other}]"])));
    }
    if g.one_in(4) {
        rule_manifest.push_str("effect: \"{user}'s rule, n = {n}\"\n");
    }
    let mut script = String::new();
    let parts = g.byte() | if rule_played && !g.slack { 2 } else { 0 };
    if parts & 1 == 1 {
        rule_function(&mut g, "game_begins(ctx)", false, &mut script);
    }
    if parts & 2 == 2 {
        rule_function(&mut g, "play(ctx)", false, &mut script);
    }
    if parts & 4 == 4 {
        extra_moves(&mut g, &mut script);
    }
    const EVENTS: &[&str] = &[
        "moved",
        "captured",
        "crowned",
        "removed",
        "turn_began",
        "turn_ended",
        "card_used",
        "effect_started",
        "effect_ended",
        "message",
        "terrain_placed",
        "game_over",
    ];
    let mut handled = Vec::new();
    for _ in 0..g.below(4) {
        let kind = g.value(EVENTS, &["moove", "capture"]);
        if !handled.contains(&kind) && script.len() < 6000 {
            handled.push(kind);
            rule_function(&mut g, &format!("on_{kind}(ctx, event, effect)"), true, &mut script);
        }
    }
    let seed = g.byte() as u64;
    let picks = (0..DECISIONS).map(|_| g.b.next()).collect();
    GeneratedDeck { manifest: m, rule_manifest, rule_script: script, seed, picks }
}

/// The decisions a generated deck's game plays at most.
const DECISIONS: usize = 8;

/// The instruction budget of each run of a generated deck's scripts (its
/// rules' handlers, `extra_moves`, its cards): smaller than a card's alone,
/// for a decision may run many (every lasting effect reacts, and every option
/// is tried before a step is given up).
const DECK_BUDGET: u64 = 50_000;

/// A game of a generated deck falls back from a failing option to the others
/// ([`GameState::apply_or_fall_back`]) when the decision has at most this
/// many, and gives a step up once at most: when every option fails, each is
/// tried twice (by the fall back, then by giving up), each running every
/// reaction, a cost the engine bounds only by the number of options.
const FALL_BACK_OPTIONS: usize = 48;

/// The line a problem points at, as written (empty past the end).
fn line_at(text: &str, line: usize) -> &str {
    text.lines().nth(line.saturating_sub(1)).unwrap_or("")
}

/// A refused deck: every problem names a file inside the content root, and a
/// problem with the deck's manifest points at a line of it (checked as for
/// `manifest`) and names its field: the key written on that line, or a
/// field's name in the message.
fn check_refused(problems: &alien_checkers::content::Problems, root: &Path, deck: &GeneratedDeck) {
    let file = root.join("cards/decks/fuzzdeck.yaml");
    assert!(!problems.0.is_empty(), "a refusal without a problem");
    for p in &problems.0 {
        assert!(p.file.starts_with(root), "a problem outside the content root: {p}");
        assert!(!p.message.is_empty(), "a problem without a message: {p}");
        // Serde's words for a Rust type the modder never wrote.
        assert!(!p.message.contains("untagged enum"), "a problem that names a Rust type: {p}");
        if p.file != file {
            continue;
        }
        let (Some(line), Some(column)) = (p.line, p.column) else {
            panic!("a problem with the deck's manifest that does not say where: {p}\n{}", deck.manifest)
        };
        check_location(&deck.manifest, line, column, &p.message);
        let written = line_at(&deck.manifest, line).trim().trim_start_matches("- ");
        let key = written.split(':').next().unwrap_or("").trim();
        // `planets` may be named as "planet", `counters` as "counter".
        let named = !key.is_empty() && p.message.contains(key.strip_suffix('s').unwrap_or(key));
        assert!(
            named,
            "a problem that does not name its field ({key}, line {line}: {written}): {p}\n{}",
            deck.manifest
        );
    }
}

/// What the generated deck of a `scripts` input ([`deck_text`]) does, with
/// the generated card, in a fresh engine: why it was refused, or the digests
/// of the game it deals and of that game after a few random decisions.
///
/// Loading never panics; a refused deck's problems name their file and field
/// ([`check_refused`]); a deck that loads deals a game (its rules'
/// `game_begins` run) and plays the decisions picked, each offered option
/// taken as the game takes a computer player's (it falls back when a script
/// fails, within [`FALL_BACK_OPTIONS`]), with the board valid and supply and
/// pieces conserved after each.
pub fn deck_outcome(data: &[u8]) -> String {
    let deck = deck_text(data);
    let root = &script_root();
    for (file, text) in [
        ("cards/fuzzscript.lua", script_text(data)),
        ("cards/fuzzrule.yaml", deck.rule_manifest.clone()),
        ("cards/fuzzrule.lua", deck.rule_script.clone()),
        ("cards/decks/fuzzdeck.yaml", deck.manifest.clone()),
    ] {
        std::fs::write(root.join(file), text).expect("write the generated deck");
    }
    let mut engine = match ScriptEngine::load(&ContentRoot::new(root), "fuzzdeck") {
        Ok(engine) => engine,
        Err(problems) => {
            check_refused(&problems, root, &deck);
            // The same in every process: the root's name holds its id.
            return format!("refused: {}", problems.to_string().replace(&root.display().to_string(), "<root>"));
        }
    };
    engine.set_budgets(alien_checkers::script::Budgets {
        card: DECK_BUDGET,
        check: DECK_BUDGET,
        time_guard: std::time::Duration::from_secs(60),
        ..Default::default()
    });
    let context = |what: &str| format!("{what}\n{}\n{}", deck.manifest, deck.rule_script);
    let setup = engine.content().setup();
    let mut state = GameState::deal(&setup, deck.seed, &engine);
    if let Err(e) = state.board.validate() {
        panic!("{}", context(&format!("the dealt board is not valid: {e}")));
    }
    let dealt = state.digest();
    // Nothing has happened yet for a lasting effect to refuse.
    let _ = state.settle(&engine);
    let totals = state.board.totals();
    let (mut applied, mut given_up, mut stopped) = (0, false, "");
    for (i, &pick) in deck.picks.iter().enumerate() {
        let Some(decision) = state.pending(&engine) else { break };
        if decision.options.is_empty() {
            panic!(
                "{}",
                context(&format!("a pending decision without options after {applied}: {decision:?}, {:?}", state.step))
            );
        }
        let choice = decision.options[usize::from(pick) % decision.options.len()].clone();
        // On error nothing changes (GameState::apply).
        if state.apply(&engine, &choice).is_err() {
            if given_up || decision.options.len() > FALL_BACK_OPTIONS {
                stopped = "; stopped at a failing option";
                break;
            }
            match state.apply_or_fall_back(&engine, &choice) {
                Ok((taken, _)) => given_up |= taken == Choice::GiveUp,
                Err(GameError::Over) => {}
                Err(e) => {
                    panic!("{}", context(&format!("decision {i} ({choice}) and every other option failed: {e}")))
                }
            }
        }
        applied += 1;
        if let Err(e) = state.board.validate() {
            panic!("{}", context(&format!("after decision {i} ({choice}) the board is not valid: {e}")));
        }
        check_invariants(&state, &totals, &|| context(&format!("decision {i} ({choice})")));
    }
    engine.take_errors();
    format!("dealt {dealt:016x}; {applied} decisions{stopped}; digest {:016x}", state.digest())
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
