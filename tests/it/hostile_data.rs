//! Hostile data: manifests with duplicate keys, wrong
//! types, alias bombs, enormous or deeply nested documents, unknown card ids, a
//! deck with no cards, missing scripts; malformed FEN and command lines. Each gets
//! a clear message naming the file and the line where the problem is — never a
//! panic, never a hang.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use alien_checkers::content::{ContentRoot, MAX_FILE_BYTES, Problem};
use alien_checkers::plain::Position;
use alien_checkers::repl::{Command as Line, parse_command};
use alien_checkers::script::ScriptEngine;

const RULES: &str =
    "rules: {crowning: from_reserve, cards: true, five_kings_win: true, when_stuck: skip, move_limit: 200}\n";

/// A content root in a fresh folder: cards `water` and `fire` (copied from the
/// repository), planets `venus` and `earth`, and the given extra files.
fn root_with(name: &str, files: &[(&str, &str)]) -> ContentRoot {
    let root = std::env::temp_dir().join(format!("alien-data-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for dir in ["cards/decks", "planets"] {
        std::fs::create_dir_all(root.join(dir)).unwrap();
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in ["cards/water.yaml", "cards/water.lua", "cards/fire.yaml", "cards/fire.lua"] {
        std::fs::copy(repo.join(file), root.join(file)).unwrap();
    }
    for file in ["planets/venus.yaml", "planets/venus.lua", "planets/earth.yaml", "planets/earth.lua"] {
        std::fs::copy(repo.join(file), root.join(file)).unwrap();
    }
    for (file, text) in files {
        std::fs::write(root.join(file), text).unwrap();
    }
    ContentRoot::new(root)
}

/// A deck file `cards/decks/test.yaml` with `body` plus the rules line.
fn deck(body: &str) -> String {
    format!("name: test\n{body}{RULES}")
}

/// Loads deck `test` (and compiles it), which must fail quickly; returns the problems.
#[track_caller]
fn problems(root: &ContentRoot) -> Vec<Problem> {
    let start = Instant::now();
    let result = ScriptEngine::load(root, "test");
    assert!(start.elapsed() < Duration::from_secs(5), "loading took {:?}", start.elapsed());
    match result {
        Ok(_) => panic!("the deck loaded"),
        Err(p) => p.0,
    }
}

/// The one problem in `file` that says `says`, which must sit on `line`.
#[track_caller]
fn located(problems: &[Problem], root: &ContentRoot, file: &str, line: usize, says: &str) {
    let path = root.path().join(file);
    let found = problems.iter().find(|p| p.file == path && p.message.contains(says));
    let Some(p) = found else {
        panic!(
            "no problem in {file} saying '{says}': {:#?}",
            problems.iter().map(|p| p.to_string()).collect::<Vec<_>>()
        )
    };
    assert_eq!(p.line, Some(line), "{p}");
    assert!(p.column.is_some_and(|c| c >= 1), "{p}");
    let shown = p.to_string();
    assert!(shown.starts_with(&format!("{}:{line}:", path.display())), "shown as file:line:column: {shown}");
    assert!(shown.len() < 500 && !shown.contains('\n'), "one short line: {shown}");
}

#[test]
fn duplicate_keys_are_located_at_the_second_mention() {
    let root = root_with(
        "duplicates",
        &[("cards/decks/test.yaml", &deck("cards:\n  water: 1\n  fire: 1\n  water: 2\nplanets: [venus, earth]\n"))],
    );
    located(&problems(&root), &root, "cards/decks/test.yaml", 5, "duplicate key 'water'");
    let root = root_with(
        "duplicate_fields",
        &[
            ("cards/decks/test.yaml", &deck("cards: {water: 1, fire: 1}\nplanets: [venus, earth]\n")),
            ("cards/fire.yaml", "name: Fire\ntext: burns\nrule: R8.2\nname: Ice\n"),
        ],
    );
    located(&problems(&root), &root, "cards/fire.yaml", 4, "duplicate field `name`");
    let root = root_with(
        "duplicate_deck_fields",
        &[("cards/decks/test.yaml", &deck("cards: {water: 1}\nplanets: [venus, earth]\ncards: {fire: 1}\n"))],
    );
    located(&problems(&root), &root, "cards/decks/test.yaml", 4, "duplicate field `cards`");
}

#[test]
fn wrong_types_and_unknown_fields_are_located() {
    for (name, body, line, says) in [
        ("copies_text", "cards:\n  water: lots\nplanets: [venus, earth]\n", 3, "invalid type"),
        (
            "copies_negative",
            "cards:\n  water: -1\nplanets: [venus, earth]\n",
            3,
            "expected a whole number from 0 to 4294967295",
        ),
        ("copies_float", "cards:\n  water: 1.5\nplanets: [venus, earth]\n", 3, "invalid type"),
        ("cards_list", "cards: [water, fire]\nplanets: [venus, earth]\n", 2, "invalid type"),
        ("planets_map", "cards: {water: 1}\nplanets: {venus: 1}\n", 3, "invalid type"),
        (
            "supply_text",
            "cards: {water: 1}\nplanets: [venus, earth]\nsupply: {walls: 300, rings: 1, snookles: 1, water: 1, fire: 1, hippos: 1, monolith: 1}\n",
            4,
            "invalid value: integer `300`, expected a whole number from 0 to 255",
        ),
        ("unknown_field", "cards: {water: 1}\ncolour: blue\nplanets: [venus, earth]\n", 3, "unknown field `colour`"),
        ("name_list", "cards: {water: 1}\nplanets: [venus, earth]\ndescription: [a, b]\n", 4, "invalid type"),
    ] {
        let text = format!("name: test\n{body}{RULES}");
        let root = root_with(name, &[("cards/decks/test.yaml", &text)]);
        located(&problems(&root), &root, "cards/decks/test.yaml", line, says);
    }
    let bad_rules = "name: test\ncards: {water: 1}\nplanets: [venus, earth]\nrules: {crowning: sideways, cards: true, five_kings_win: true, when_stuck: skip, move_limit: 200}\n";
    let root = root_with("bad_rules", &[("cards/decks/test.yaml", bad_rules)]);
    located(&problems(&root), &root, "cards/decks/test.yaml", 4, "unknown variant `sideways`");
    for (name, manifest, line, says) in [
        ("card_unknown", "name: Water\ntext: wet\ncolour: blue\n", 3, "unknown field `colour`"),
        ("card_rulings", "name: Water\ntext: wet\nrulings: yes\n", 3, "invalid type"),
        ("card_list", "- name: Water\n- text: wet\n", 1, "invalid type"),
        ("card_scalar", "just a sentence\n", 1, "invalid type"),
        ("card_empty", "", 1, "missing field `name`"),
        ("card_two_documents", "name: Water\ntext: wet\n---\nname: Fire\ntext: hot\n", 3, "more than one document"),
        // (Tags on strings are read as plain strings; nothing is ever instantiated.)
        ("card_tag", "name: !!map {a: 1}\ntext: wet\n", 1, "invalid type"),
        ("card_bad_yaml", "name: Water\n\ttext: wet\n", 2, "tab character"),
    ] {
        let root = root_with(
            name,
            &[
                ("cards/decks/test.yaml", &deck("cards: {water: 1}\nplanets: [venus, earth]\n")),
                ("cards/water.yaml", manifest),
            ],
        );
        located(&problems(&root), &root, "cards/water.yaml", line, says);
    }
}

#[test]
fn alias_bombs_are_refused_quickly_and_located() {
    // "Billion laughs": nine levels of ten aliases each would expand to 10^9 items.
    let mut bomb = String::from(
        "name: Water\ntext: wet\nrulings:\n  - &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
    for w in names.windows(2) {
        let refs = vec![format!("*{}", w[0]); 10].join(",");
        bomb.push_str(&format!("  - &{} [{refs}]\n", w[1]));
    }
    let root = root_with(
        "bomb",
        &[
            ("cards/decks/test.yaml", &deck("cards: {water: 1}\nplanets: [venus, earth]\n")),
            ("cards/water.yaml", &bomb),
        ],
    );
    let found = problems(&root);
    let p = found.iter().find(|p| p.file.ends_with("cards/water.yaml")).expect("a problem in the bomb");
    assert!(p.line.is_some(), "{p}");
    assert!(p.message.contains("repetition limit") || p.message.contains("invalid type"), "{p}");
    // The same bomb as a deck's card map.
    let mut deck_bomb = String::from("name: test\nx: &a {water: 1}\n");
    for w in names.windows(2) {
        let refs = vec![format!("*{}", w[0]); 10].join(", ");
        deck_bomb.push_str(&format!("{}: &{} [{refs}]\n", w[1], w[1]));
    }
    let root = root_with("deck_bomb", &[("cards/decks/test.yaml", &format!("{deck_bomb}{RULES}"))]);
    let found = problems(&root);
    assert!(found.iter().all(|p| p.line.is_some()), "{found:?}");
}

#[test]
fn deep_documents_are_refused_with_a_located_error_without_overflowing_the_stack() {
    // Run with a small stack, as a test thread has (2 MiB), to be sure.
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            for (name, open, close, depth) in
                [("flow_lists", "[", "]", 10_000), ("flow_maps", "{a: ", "}", 10_000), ("deepest", "[", "", 200_000)]
            {
                let deep = format!("name: Water\ntext: wet\nrulings: {}{}\n", open.repeat(depth), close.repeat(depth));
                let root = root_with(
                    name,
                    &[
                        ("cards/decks/test.yaml", &deck("cards: {water: 1}\nplanets: [venus, earth]\n")),
                        ("cards/water.yaml", &deep),
                    ],
                );
                let found = problems(&root);
                let p = found.iter().find(|p| p.file.ends_with("cards/water.yaml")).expect("a problem");
                assert_eq!(p.line, Some(3), "{name}: {p}");
                assert!(p.message.contains("nested too deep"), "{name}: {p}");
            }
            // Where any value is taken (an unknown field's), depth is refused too.
            let deep = format!("name: Water\ntext: wet\nextra: {}{}\n", "[".repeat(10_000), "]".repeat(10_000));
            let root = root_with(
                "unknown_deep",
                &[
                    ("cards/decks/test.yaml", &deck("cards: {water: 1}\nplanets: [venus, earth]\n")),
                    ("cards/water.yaml", &deep),
                ],
            );
            let found = problems(&root);
            assert!(found.iter().any(|p| p.line == Some(3)), "{found:?}");
            // Deep block structure (indentation) too.
            let mut block = String::from("name: Water\ntext: wet\nrulings:\n");
            for i in 0..450 {
                block.push_str(&format!("{}- \n", "  ".repeat(i + 1)));
            }
            let root = root_with(
                "block",
                &[
                    ("cards/decks/test.yaml", &deck("cards: {water: 1}\nplanets: [venus, earth]\n")),
                    ("cards/water.yaml", &block),
                ],
            );
            let found = problems(&root);
            let p = found.iter().find(|p| p.file.ends_with("cards/water.yaml")).expect("a problem");
            assert!(p.line.is_some(), "{p}");
        })
        .unwrap()
        .join()
        .expect("no stack overflow");
}

#[test]
fn enormous_documents_are_refused_unread_or_bounded() {
    // Over the size limit: refused before parsing, naming the file.
    let huge = format!("name: Water\ntext: {}\n", "x".repeat(MAX_FILE_BYTES as usize));
    let root = root_with(
        "huge",
        &[
            ("cards/decks/test.yaml", &deck("cards: {water: 1}\nplanets: [venus, earth]\n")),
            ("cards/water.yaml", &huge),
        ],
    );
    let found = problems(&root);
    let p = found.iter().find(|p| p.file.ends_with("cards/water.yaml")).expect("a problem");
    assert!(p.message.contains("the limit is"), "{p}");
    // Under the limit but listing thousands of unknown cards: one bounded report,
    // quickly, located at the first offending line.
    let mut many = String::from("name: test\ncards:\n");
    for i in 0..15_000 {
        many.push_str(&format!("  c{i}: 1\n"));
    }
    many.push_str("planets: [venus, earth]\n");
    many.push_str(RULES);
    assert!(many.len() < MAX_FILE_BYTES as usize);
    let root = root_with("many_cards", &[("cards/decks/test.yaml", &many)]);
    let found = problems(&root);
    assert!(found.len() <= 10, "{} problems", found.len());
    located(&found, &root, "cards/decks/test.yaml", 2, "at most");
    // Too many copies of one card.
    let root = root_with(
        "copies",
        &[("cards/decks/test.yaml", &deck("cards:\n  water: 4000000000\nplanets: [venus, earth]\n"))],
    );
    located(&problems(&root), &root, "cards/decks/test.yaml", 3, "copies");
    let mut planets = String::from("name: test\ncards: {water: 1}\nplanets:\n");
    for i in 0..5_000 {
        planets.push_str(&format!("  - p{i}\n"));
    }
    planets.push_str(RULES);
    let root = root_with("many_planets", &[("cards/decks/test.yaml", &planets)]);
    let found = problems(&root);
    assert!(found.len() <= 10, "{} problems", found.len());
    located(&found, &root, "cards/decks/test.yaml", 3, "at most");
}

#[test]
fn unknown_and_invalid_ids_empty_decks_and_missing_scripts_are_located() {
    let root = root_with(
        "unknown",
        &[("cards/decks/test.yaml", &deck("cards:\n  water: 1\n  wishful_thinking: 2\nplanets: [venus, earth]\n"))],
    );
    located(&problems(&root), &root, "cards/decks/test.yaml", 4, "unknown card 'wishful_thinking'");
    let root = root_with(
        "unknown_planet",
        &[("cards/decks/test.yaml", &deck("cards: {water: 1}\nplanets:\n  - venus\n  - vulcan\n"))],
    );
    located(&problems(&root), &root, "cards/decks/test.yaml", 5, "unknown planet 'vulcan'");
    for (name, id) in [("traversal", "../../../etc/passwd"), ("upper", "Water"), ("space", "wa ter")] {
        let body = format!("cards:\n  water: 1\n  \"{id}\": 1\nplanets: [venus, earth]\n");
        let root = root_with(name, &[("cards/decks/test.yaml", &deck(&body))]);
        located(&problems(&root), &root, "cards/decks/test.yaml", 4, "not a valid card id");
        let body = format!("cards: {{water: 1}}\nplanets:\n  - venus\n  - \"{id}\"\n");
        let root = root_with(&format!("{name}_planet"), &[("cards/decks/test.yaml", &deck(&body))]);
        located(&problems(&root), &root, "cards/decks/test.yaml", 5, "not a valid planet id");
    }
    let root = root_with("no_cards", &[("cards/decks/test.yaml", &deck("cards: {}\nplanets: [venus, earth]\n"))]);
    located(&problems(&root), &root, "cards/decks/test.yaml", 2, "at least one card");
    let root = root_with("no_cards_key", &[("cards/decks/test.yaml", &deck("planets: [venus, earth]\n"))]);
    let found = problems(&root);
    assert!(found.iter().any(|p| p.message.contains("at least one card") && p.line.is_some()), "{found:?}");
    let root = root_with("zero", &[("cards/decks/test.yaml", &deck("cards:\n  water: 0\nplanets: [venus, earth]\n"))]);
    located(&problems(&root), &root, "cards/decks/test.yaml", 3, "0 copies");
    let root = root_with("one_planet", &[("cards/decks/test.yaml", &deck("cards: {water: 1}\nplanets: [venus]\n"))]);
    located(&problems(&root), &root, "cards/decks/test.yaml", 3, "at least two");
    // Missing scripts: the default one, and one the manifest names.
    let root = root_with(
        "missing_default",
        &[("cards/decks/test.yaml", &deck("cards: {water: 1}\nplanets: [venus, earth]\n"))],
    );
    std::fs::remove_file(root.path().join("cards/water.lua")).unwrap();
    let found = problems(&root);
    let p = found.iter().find(|p| p.message.contains("is missing")).expect("a missing-script problem");
    assert!(p.file.ends_with("cards/water.yaml") && p.message.contains("water.lua"), "{p}");
    for (name, script, says) in [
        ("missing_named", "wet.lua", "is missing"),
        ("outside", "../../secret.lua", "beside the manifest"),
        ("absolute", "/etc/passwd.lua", "beside the manifest"),
        ("not_lua", "water.txt", "beside the manifest"),
    ] {
        let root = root_with(
            name,
            &[
                ("cards/decks/test.yaml", &deck("cards: {water: 1}\nplanets: [venus, earth]\n")),
                ("cards/water.yaml", &format!("name: Water\ntext: wet\nscript: {script}\n")),
            ],
        );
        located(&problems(&root), &root, "cards/water.yaml", 3, says);
    }
    // A missing deck names the file it looked for.
    let root = root_with("no_deck", &[]);
    let found = problems(&root);
    assert!(found[0].file.ends_with("cards/decks/test.yaml") && found[0].message.contains("cannot read"));
}

#[test]
fn the_check_command_reports_hostile_decks_in_one_line_each() {
    let root = root_with(
        "check",
        &[("cards/decks/test.yaml", &deck("cards:\n  water: 1\n  water: 2\nplanets: [venus, earth]\n"))],
    );
    let deck_path = root.path().join("cards/decks/test.yaml");
    let out = Command::new(env!("CARGO_BIN_EXE_alien-checkers"))
        .args(["check", &deck_path.display().to_string()])
        .current_dir(root.path())
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("test.yaml:4:") && text.contains("duplicate key 'water'"), "{text}");
    assert!(!text.contains("panicked"), "{text}");
}

// ---- FEN ----

#[test]
fn malformed_fen_is_refused_with_a_message_naming_the_part() {
    let long = format!("B:W{}:B1", "1,".repeat(100_000));
    for (fen, says) in [
        ("", "side to move"),
        (":", "side to move"),
        ("X:W1:B2", "side to move"),
        ("B", "expected a W field"),
        ("B:", "must start with B or W"),
        ("B:W1", "expected a W field"),
        ("B:W1:W2", "listed twice"),
        ("B:W1:B1", "listed twice"),
        ("B:W1-32:B1", "listed twice"),
        ("B:W0:B1", "'0'"),
        ("B:W33:B1", "'33'"),
        ("B:W256:B1", "'256'"),
        ("B:W-1:B2", "not a square of this board"),
        ("B:W1--3:B5", "not a square of this board"),
        ("B:W3-1:B5", "runs backwards"),
        ("B:WK:B5", "not a square of this board"),
        ("B:WKK1:B5", "not a square of this board"),
        ("B:W1,,x:B5", "'x'"),
        ("B:Wé:B5", "'é'"),
        ("B:éW1:B5", "must start with B or W"),
        ("B:W1:B5:Q7", "must start with B or W"),
        ("B:W 1 2:B5", "not a square of this board"),
        ("B:W1\u{0}:B5", "not a square of this board"),
        ("B:W1:B99999999999999999999", "not a square of this board"),
        (long.as_str(), "listed twice"),
    ] {
        let e = fen.parse::<Position>().expect_err(fen).to_string();
        assert!(e.starts_with("bad FEN: "), "{fen}: {e}");
        assert!(e.contains(says), "{}: expected '{says}' in: {}", &fen[..fen.len().min(40)], &e[..e.len().min(200)]);
    }
}

#[test]
fn malformed_fen_on_the_command_line_is_one_line_with_status_2() {
    for fen in ["B:W33:B1", "garbage", "", "B:W1-32:B1-32"] {
        for sub in ["moves", "perft"] {
            let mut args = vec![sub, "--fen", fen];
            if sub == "perft" {
                args.extend(["--depth", "2"]);
            }
            let out = Command::new(env!("CARGO_BIN_EXE_alien-checkers")).args(&args).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert!(err.starts_with("error: bad FEN"), "{args:?}: {err}");
        }
    }
}

// ---- command lines ----

#[test]
fn command_lines_parse_to_a_command_or_a_usage_message() {
    assert_eq!(parse_command(""), Line::Empty);
    assert_eq!(parse_command("   \t "), Line::Empty);
    assert_eq!(parse_command("QUIT"), Line::Quit);
    assert_eq!(parse_command("new 42"), Line::New(Some(42)));
    assert_eq!(parse_command("new"), Line::New(None));
    assert_eq!(parse_command("save  my game.json "), Line::Save("my game.json".into()));
    assert_eq!(parse_command("digest"), Line::Digest);
    assert_eq!(parse_command("c3-d4"), Line::Decide("c3-d4".into()));
    assert_eq!(parse_command("use water"), Line::Use("water".into()));
    for (line, says) in [
        ("new -1", "not a seed"),
        ("new 99999999999999999999999", "not a seed"),
        ("new twelve", "not a seed"),
        ("save", "needs a file name"),
        ("load   ", "needs a file name"),
        ("card", "needs a name"),
    ] {
        match parse_command(line) {
            Line::Invalid(m) => assert!(m.contains(says), "{line}: {m}"),
            other => panic!("{line}: {other:?}"),
        }
    }
}

#[test]
fn malformed_input_bytes_in_the_repl_get_one_line_and_the_game_goes_on() {
    let mut input: Vec<u8> = Vec::new();
    input.extend_from_slice(b"c3-d4\n");
    input.extend_from_slice(b"\xff\xfe not utf-8 \xc3\x28\n");
    input.extend_from_slice(b"\x00\x01\x02\x1b[31m\n");
    input.extend_from_slice(&[b'x'; 200_000]);
    input.extend_from_slice(b"\n\r\n\t\n");
    input.extend_from_slice("c3xe5xg7xe9\nload /nonexistent/dir/save.json\nsave /nonexistent/dir/x.json\n".as_bytes());
    input.extend_from_slice("🦛🦛🦛\nuse\nuse 99999999999999999999\n0\n-1\n".as_bytes());
    input.extend_from_slice(b"digest\nquit\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_alien-checkers"))
        .args(["--seed", "7", "--dark", "human", "--light", "human"])
        // `quit` autosaves the unfinished game in the current folder.
        .current_dir(std::env::temp_dir())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && !stderr.contains("panicked"), "{stderr}");
    assert!(
        stdout.contains("digest "),
        "the REPL read on to the end:\n{}",
        &stdout[stdout.len().saturating_sub(2000)..]
    );
    assert!(stdout.contains("cannot save to /nonexistent/dir/x.json"), "{stdout}");
    assert!(stdout.contains("cannot read /nonexistent/dir/save.json"), "{stdout}");
    assert!(stdout.len() < 200_000, "a huge line is not echoed whole ({} bytes)", stdout.len());
}

/// Two cards that declare one marker kind differently, or two kinds with one
/// glyph: the later card's manifest is blamed at its `markers:` line, naming
/// the other card and marker.
#[test]
fn conflicting_marker_declarations_name_the_other_card_and_the_line() {
    let flag = |glyph: &str, supply: u8| {
        format!(
            "name: x\ntext: a test card\nmarkers:\n  - {{name: flag, glyph: '{glyph}', supply: {supply}, on: square}}\n"
        )
    };
    let other = "name: y\ntext: a test card\n\nmarkers:\n  - {name: pennant, glyph: 'F', supply: 2, on: square}\n";
    let script = "function play(ctx) end\n";
    let root = root_with(
        "markers",
        &[
            ("cards/first.yaml", &flag("F", 3)),
            ("cards/first.lua", script),
            ("cards/second.yaml", &flag("F", 4)),
            ("cards/second.lua", script),
            ("cards/third.yaml", other),
            ("cards/third.lua", script),
            ("cards/decks/test.yaml", &deck("cards: {first: 1, second: 1, third: 1}\nplanets: [venus, earth]\n")),
        ],
    );
    let problems = problems(&root);
    located(&problems, &root, "cards/second.yaml", 3, "marker 'flag' is declared differently by card 'first'");
    located(&problems, &root, "cards/third.yaml", 4, "glyph 'F' is taken by marker 'flag' of card 'first'");
}

#[test]
fn a_decks_rules_are_bounded_and_listed_once() {
    // Issue "no clock decides a game", item 7: 30,000 copies of one rule were
    // 30,000 effects in force from the deal; now the list is refused at load
    // (and by `check`), naming the file and the key.
    let many: Vec<&str> = vec!["water"; 30_000];
    let body = format!("cards:\n  water: 1\n  fire: 1\nplanets: [venus, earth]\neffects: [{}]\n", many.join(", "));
    let root = root_with("many-rules", &[("cards/decks/test.yaml", &deck(&body))]);
    let found = problems(&root);
    located(&found, &root, "cards/decks/test.yaml", 6, "at most 8 rules in effects; this one lists 30000");

    let body = "cards:\n  water: 1\n  fire: 1\nplanets: [venus, earth]\neffects: [water, fire, water]\n";
    let root = root_with("repeated-rule", &[("cards/decks/test.yaml", &deck(body))]);
    let found = problems(&root);
    located(&found, &root, "cards/decks/test.yaml", 6, "rule 'water' is listed twice in effects");

    // Found by the scripts fuzz target's generated decks: an id that is not
    // one said so without naming the field it is in.
    let body = "cards:\n  water: 1\n  fire: 1\nplanets: [venus, earth]\neffects:\n  - water\n  - Bad-Id\n";
    let root = root_with("bad-rule-id", &[("cards/decks/test.yaml", &deck(body))]);
    let found = problems(&root);
    located(&found, &root, "cards/decks/test.yaml", 6, "'Bad-Id' in effects is not a valid card id");
}

#[test]
fn a_fifth_capture_preference_is_refused_at_prefer() {
    // Found by the scripts fuzz target's generated decks: the error named
    // `rules.moves` and pointed at the first line of `moves:`.
    let text = "name: test\ncards:\n  water: 1\nplanets: [venus, earth]\nrules:\n  crowning: free\n  cards: true\n  \
                five_kings_win: true\n  when_stuck: skip\n  move_limit: 200\n  moves:\n    capture: compulsory\n    \
                prefer: [most_pieces, by_a_king, most_kings, kings_first, most_pieces]\n";
    let root = root_with("five-preferences", &[("cards/decks/test.yaml", text)]);
    let found = problems(&root);
    located(&found, &root, "cards/decks/test.yaml", 13, "rules.moves.prefer: at most four preferences");
}

#[test]
fn an_exploding_capture_search_is_bounded_the_same_everywhere() {
    // Issue "no clock decides a game", item 6: flying kings capturing every
    // way, each path its own move, gave this position 265,410 moves (and
    // others far more: gigabytes, minutes). The search now stops at a stated
    // bound and keeps what it found before, in its fixed order.
    let root = std::env::temp_dir().join(format!("alien-data-{}-boom", std::process::id()));
    std::fs::create_dir_all(root.join("cards/decks")).unwrap();
    std::fs::create_dir_all(root.join("planets")).unwrap();
    let deck = "name: Boom\ncards: {}\nplanets: []\n\
                supply: {walls: 0, rings: 0, snookles: 0, water: 0, fire: 0, hippos: 0, monolith: 0}\n\
                rules:\n  crowning: free\n  cards: false\n  five_kings_win: false\n  when_stuck: lose\n  move_limit: 200\n  \
                start: {squares: all, rows: [1, 2]}\n  moves:\n    capture_paths: each\n    \
                pawns: {steps: forward_diagonals, captures: diagonals}\n    \
                kings: {steps: all, captures: all, flying: true}\n    captured_removed: at_once\n  \
                notation: {sides: [White, Black], squares: algebraic}\n";
    std::fs::write(root.join("cards/decks/boom.yaml"), deck).unwrap();
    let deck_path = root.join("cards/decks/boom.yaml");
    let args = ["moves", "--deck", deck_path.to_str().unwrap(), "--fen", "W:WKb6:Be8,e4,a3,b5,d4,c4,f1,c2,b2,f6,h6,c7"];
    let first = crate::common::run_binary(&root, &args, &[], "");
    assert!(first.success, "{}", first.stderr);
    let listed = first.stdout.lines().filter(|l| l.contains('x')).count();
    assert_eq!(listed, alien_checkers::kernel::MAX_CAPTURES_LISTED, "the listing stops at its bound");
    let again = crate::common::run_binary(&root, &args, &[], "");
    assert_eq!(first.stdout, again.stdout, "the same captures every time");
}

/// A scenario's `deck:` path is held inside the content root: a path that
/// climbs out of it (with `../..` or absolutely) is refused, naming the
/// scenario file and the deck path, before the file is read — so nothing of
/// it (here its first line, which a YAML error would quote) shows. A path
/// that stays inside, and a deck name, still work.
#[test]
fn a_scenario_deck_outside_the_content_root_is_refused_unread() {
    let root = crate::common::scratch_content("scenario-deck-outside", &[("calm", "function play(ctx) end\n")], &[]);
    let outside = root.path().with_extension("outside");
    let _ = std::fs::remove_dir_all(&outside);
    std::fs::create_dir_all(outside.join("cards/decks")).unwrap();
    let secret = outside.join("cards/decks/secret.yaml");
    std::fs::write(&secret, "SECRET-FIRST-LINE: [unclosed\nmore: {\n").unwrap();
    let file = root.path().join("cards/calm.test.yaml");
    let run = |deck: &str| {
        let text = format!(
            "card: calm\ndeck: {deck}\nscenarios:\n  - name: one\n    deal: 1\n    expect:\n      playable: true\n"
        );
        std::fs::write(&file, text).unwrap();
        alien_checkers::scenario::run_file(&root, &file).remove(0).failure
    };
    // Inside the root: by name, and by a relative path from the scenario's folder.
    assert_eq!(run("test"), None);
    assert_eq!(run("decks/test.yaml"), None);
    assert_eq!(run("../cards/decks/test.yaml"), None);
    let name = root.path().file_name().unwrap().to_str().unwrap();
    let climbing = format!("../../{name}.outside/cards/decks/secret.yaml");
    for deck in [climbing.as_str(), secret.to_str().unwrap()] {
        let failure = run(deck).expect("refused");
        assert!(!failure.contains("SECRET"), "the deck file's contents show: {failure}");
        assert!(failure.contains("outside the content root"), "{failure}");
        assert!(failure.contains(&file.display().to_string()), "names the scenario file: {failure}");
        assert!(failure.contains(deck), "names the deck path: {failure}");
    }
}
