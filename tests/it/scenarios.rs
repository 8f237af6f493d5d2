//! Runs every card and planet scenario (`cards/*.test.yaml`, `planets/*.test.yaml`),
//! as `alien-checkers test` does, so `cargo test` covers the scripts too, and the
//! whole-turn scenarios of the turn rules (`tests/rules/*.test.yaml`, R3, R10).

use alien_checkers::content::ContentRoot;
use alien_checkers::scenario::{find_files, run_file};

use crate::common;

/// A diagram, indented for a YAML block, of Dark's pawn on c3 and Light's on h8,
/// with `more` (rank, cells) rows drawn instead of empty ones.
fn lone_pawns(more: &[(u8, &str)]) -> String {
    let empty = "+----+----+----+----+----+----+----+----+\n";
    let mut board = format!("      {empty}");
    for n in (1..=8).rev() {
        let cells = match n {
            8 => "|    |    |    |    |    |    |    | l  |",
            3 => "|    |    | d  |    |    |    |    |    |",
            _ => more.iter().find(|(rank, _)| *rank == n).map_or("|    |    |    |    |    |    |    |    |", |r| r.1),
        };
        board.push_str(&format!("      {cells} {n}\n      {empty}"));
    }
    board
}

/// The scenarios of the test content roots under `tests/data/` (each a root
/// with its own cards and decks: engine capabilities on small test decks).
#[test]
fn every_test_roots_scenario_passes() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut ran = 0;
    for dir in std::fs::read_dir(&data).unwrap().map(|e| e.unwrap().path()).filter(|p| p.join("cards").is_dir()) {
        let root = ContentRoot::new(&dir);
        let folders: Vec<_> = ["cards", "planets"].iter().map(|f| dir.join(f)).filter(|p| p.is_dir()).collect();
        let files = find_files(&folders);
        for outcome in files.iter().flat_map(|f| run_file(&root, f)) {
            assert!(outcome.failure.is_none(), "{}: {}: {:?}", outcome.file.display(), outcome.name, outcome.failure);
            ran += 1;
        }
    }
    assert!(ran >= 9, "the test roots' scenarios ran: {ran}");
}

#[test]
fn every_shipped_scenario_passes() {
    let root = ContentRoot::new(env!("CARGO_MANIFEST_DIR"));
    let files = find_files(&[root.path().join("cards"), root.path().join("planets"), root.path().join("tests/rules")]);
    assert!(!files.is_empty(), "scenario files are shipped beside the cards");
    let outcomes: Vec<_> = files.iter().flat_map(|f| run_file(&root, f)).collect();
    let failures: Vec<String> = outcomes
        .iter()
        .filter_map(|o| o.failure.as_ref().map(|why| format!("{}: {}\n{why}", o.file.display(), o.name)))
        .collect();
    println!("{} passed, {} failed", outcomes.len() - failures.len(), failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_shipped_deck_checks_clean() {
    let root = ContentRoot::new(env!("CARGO_MANIFEST_DIR"));
    let decks = root.deck_names();
    assert!(decks.contains(&"standard".to_string()) && decks.contains(&"plain".to_string()));
    for deck in decks {
        if let Err(problems) = alien_checkers::script::ScriptEngine::load(&root, &deck) {
            panic!("deck {deck}:\n{problems}");
        }
    }
}

/// A modder's marker kind with `blocks: true` (cards/README.md, "Markers")
/// closes its square to every move: Light barricades d4, and Dark's c3 may
/// only step to b4.
#[test]
fn a_modded_blocking_marker_closes_its_square_to_moves() {
    let barricade =
        "function play(ctx)\n  ctx:place_marker('barricade', ctx:ask_square('Where?', {'d4', 'f4'}))\nend\n";
    let root = common::scratch_content("scenario-barricade", &[("barricade", barricade)], &[]);
    let manifest = root.path().join("cards/barricade.yaml");
    let mut text = std::fs::read_to_string(&manifest).unwrap();
    text.push_str("markers:\n  - {name: barricade, glyph: 'X', supply: 2, on: square, blocks: true}\n");
    std::fs::write(&manifest, text).unwrap();
    let board = lone_pawns(&[(4, "|    |    |    |    |    | X  |    |    |")]);
    let scenario = format!(
        "card: barricade\ndeck: test\nscenarios:\n  - name: the barricade closes d4\n    board: |\n{board}    to_move: light\n    step: card\n    face_up: [barricade]\n    decisions: [barricade, d4]\n    expect:\n      to_move: dark\n      options: [c3-b4]\n"
    );
    let file = root.path().join("cards/barricade.test.yaml");
    std::fs::write(&file, scenario).unwrap();
    let outcomes = run_file(&root, &file);
    assert_eq!(outcomes.len(), 1);
    assert!(outcomes[0].failure.is_none(), "{:?}", outcomes[0].failure);
}

/// R1.3: a scenario's reserve and the pieces drawn add up to at most twelve a
/// player; more is refused with the figures, not played as an impossible game.
/// An orientation is one of four directions (R2.2).
#[test]
fn a_reserve_beyond_twelve_pieces_and_a_diagonal_orientation_are_refused() {
    let root = common::scratch_content("scenario-reserve", &[("calm", "function play(ctx) end\n")], &[]);
    let board = lone_pawns(&[]);
    let scenario = |extra: &str| {
        format!(
            "card: calm\ndeck: test\nscenarios:\n  - name: one\n    board: |\n{board}{extra}    step: card\n    face_up: [calm]\n    decisions: [calm]\n    expect:\n      to_move: light\n"
        )
    };
    let file = root.path().join("cards/calm.test.yaml");
    let failure = |extra: &str| {
        std::fs::write(&file, scenario(extra)).unwrap();
        run_file(&root, &file).remove(0).failure
    };
    assert_eq!(failure("    reserve: {dark: 11}\n"), None, "one on the board and eleven in reserve");
    let too_many = failure("    reserve: {dark: 12}\n").expect("refused");
    assert!(too_many.contains("at most 11 in reserve (R1.3)"), "{too_many}");
    // R2.2: a board faces one of four directions; a diagonal is refused naming those four.
    assert_eq!(failure("    orientation: e\n"), None);
    let diagonal = failure("    orientation: ne\n").expect("refused");
    assert!(diagonal.contains("'ne' is not an orientation: n, e, s or w"), "{diagonal}");
}

/// An expectation the scenario's kind never checks is refused, naming it and
/// what that kind checks: a test must not pass on what it did not look at. A
/// card whose `can_play` is expected is still played when more is expected.
#[test]
fn an_expectation_that_would_not_be_checked_is_refused() {
    let cards = [
        ("hello", "function play(ctx)\n  ctx:log('hi')\nend\n"),
        ("boom", "function play(ctx)\n  error('boom')\nend\n"),
    ];
    let root = common::scratch_content("scenario-unchecked", &cards, &[]);
    let board = lone_pawns(&[]);
    let failure = |card: &str, rest: &str| {
        let file = root.path().join(format!("cards/{card}.test.yaml"));
        let text = format!("card: {card}\ndeck: test\nscenarios:\n  - name: one\n    board: |\n{board}{rest}");
        std::fs::write(&file, text).unwrap();
        run_file(&root, &file).remove(0).failure
    };
    let told = "    expect:\n      narration: ['\"hi\"']\n";
    assert_eq!(failure("hello", told), None);
    for (rest, named) in [
        ("    expect:\n      winner: light\n", "expect.winner"),
        ("    expect:\n      events: [game_over]\n", "expect.events"),
        ("    expect:\n      holds: true\n", "expect.holds"),
        ("    expect:\n      question: where\n      board: x\n", "expect.board"),
        ("    decisions: []\n    expect:\n      playable: true\n", "expect.playable"),
    ] {
        let failure = failure("hello", rest).unwrap_or_else(|| panic!("{named} is refused"));
        assert!(failure.contains(&format!("{named} would not be checked here")), "{failure}");
    }
    // `playable` with a narration: the card is played too, and its failure shows.
    let failure = failure("boom", "    expect:\n      playable: true\n      narration: [x]\n").expect("play fails");
    assert!(failure.contains("boom"), "{failure}");
}

/// A scene's piles hold each card of the deck once: a card given as discarded
/// or face up is not also left in the default draw pile.
#[test]
fn a_scenes_default_draw_pile_leaves_out_the_cards_placed_elsewhere() {
    let cards = [
        ("calm", "function play(ctx) end\n"),
        ("other", "function play(ctx) end\n"),
        ("third", "function play(ctx) end\n"),
    ];
    let root = common::scratch_content("scenario-piles", &cards, &[]);
    let board = lone_pawns(&[]);
    let file = root.path().join("cards/calm.test.yaml");
    let text = format!(
        "card: calm\ndeck: test\nscenarios:\n  - name: one\n    board: |\n{board}    discard: [other]\n    expect:\n      draw: [third]\n      discard: [other]\n"
    );
    std::fs::write(&file, text).unwrap();
    assert_eq!(run_file(&root, &file).remove(0).failure, None);
}

/// What a scenario file says (its scenarios' names, expected lines, answers
/// and decisions) is shown by `test`, never obeyed: made visible, a line of
/// it (an expected line holding a line break) kept on its line, and nothing
/// of it at column 0 where `test` reports results.
#[test]
fn what_a_scenario_says_is_shown_escaped_by_test() {
    let root =
        common::scratch_content("scenario-text", &[("hello", "function play(ctx)\n  ctx:log('hi')\nend\n")], &[]);
    let board = lone_pawns(&[]);
    let scene = format!("    board: |\n{board}");
    let scenario = format!(
        "card: hello\ndeck: test\nscenarios:\n\
         \x20 - name: \"named\\e[2J\\u202E\\nok    cards/forged.test.yaml: passes\"\n{scene}    answers: [\"\\e[2Jx\\u202E\"]\n\
         \x20 - name: narrated\n{scene}    expect:\n      narration: [\"\\e]0;x\\a\\u202Ehi\\nok    cards/forged.test.yaml: passes\"]\n\
         \x20 - name: decided\n{scene}    decisions: [\"\\e[2Jc3-d4\\u202E\"]\n"
    );
    let file = root.path().join("cards/hello.test.yaml");
    std::fs::write(&file, scenario).unwrap();
    let dir = common::scratch_dir("scenarios", "text");
    let run = common::run_binary(&dir, &["test", &file.display().to_string()], &[], "");
    let out = run.stdout;
    assert!(!run.success && out.ends_with("0 passed, 3 failed\n"), "{out}");
    for c in ['\x1b', '\x07', '\u{202e}'] {
        assert!(!out.contains(c), "U+{:04X} reached the terminal: {out}", c as u32);
    }
    let forged = "ok    cards/forged.test.yaml";
    assert!(out.lines().all(|l| !l.starts_with(forged)), "a forged result line: {out}");
    for shown in [
        "hello.test.yaml: named\\x1b[2J\\u{202e}\\x0aok    cards/forged.test.yaml: passes\n",
        "answer '\\x1b[2Jx\\u{202e}' was given but no question asked for it",
        "\\x1b]0;x\\x07\\u{202e}hi\\x0aok    cards/forged.test.yaml: passes\n",
        "'\\x1b[2Jc3-d4\\u{202e}'",
    ] {
        assert!(out.contains(shown), "{shown} is shown: {out}");
    }
}
