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
        if let Err((line, column, message)) = result {
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
