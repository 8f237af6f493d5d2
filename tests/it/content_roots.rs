//! Where content is found (README, "Modding"): a deck given as a path brings its
//! own content root (the folder above its cards/decks/), `--root` says it
//! outright, and a script's syntax error is reported once with its line and
//! column. Also: an overlong input line is refused without being echoed whole.

use crate::common;

use std::path::Path;

const GOOD: &str = "function play(ctx)\n  ctx:place_terrain('d4', 'water')\nend\n";
const NEVER: &str = "function check(ctx, player) return false end\n";

fn mod_root(tag: &str, card: &str) -> std::path::PathBuf {
    let root = common::scratch_content(tag, &[("ember", card)], &[("mud", NEVER), ("dust", NEVER)]);
    root.path().to_path_buf()
}

#[test]
fn a_deck_given_as_a_path_finds_its_cards_from_any_folder() {
    let root = mod_root("roots-path", GOOD);
    let deck = root.join("cards/decks/test.yaml");
    let elsewhere = std::env::temp_dir();
    let check = common::run_binary(&elsewhere, &["check", deck.to_str().unwrap()], &[], "");
    assert!(check.success, "{}{}", check.stdout, check.stderr);
    assert!(check.stdout.contains("1 cards, 2 planets"), "{}", check.stdout);
    // And a game with it, from the repository folder (which has cards of its own).
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let play = common::run_binary(here, &["--deck", deck.to_str().unwrap(), "--light", "random"], &[], "cards\nquit\n");
    assert!(play.success, "{}", play.stderr);
    assert!(play.stdout.contains("ember") && !play.stdout.contains("Monolith"), "{}", play.stdout);
}

#[test]
fn root_names_the_content_root_outright() {
    let root = mod_root("roots-flag", GOOD);
    let elsewhere = std::env::temp_dir();
    let run = common::run_binary(&elsewhere, &["check", "test", "--root", root.to_str().unwrap()], &[], "");
    assert!(run.success, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("ok    test: 1 cards, 2 planets"), "{}", run.stdout);
    // The same name without --root is not a deck of the shipped content.
    let run = common::run_binary(&elsewhere, &["check", "test"], &[], "");
    assert!(!run.success);
}

/// A computer whose chosen card's script fails takes another option (the card
/// is abandoned with the game unchanged, cards/README.md), so a broken mod does
/// not stall a game between computers; the failure is told with the card's id.
#[test]
fn a_computer_whose_card_fails_plays_another_option() {
    let broken = "function play(ctx)\n  error('broken on purpose')\nend\n";
    let root = common::scratch_content(
        "roots-broken",
        &[("broken", broken), ("calm", "function play(ctx) end\n")],
        &[("mud", NEVER), ("dust", NEVER)],
    );
    let deck = root.path().join("cards/decks/test.yaml");
    let args = ["--deck", deck.to_str().unwrap(), "--dark", "random", "--light", "random"];
    let outs: Vec<String> = (1..=6)
        .map(|seed| {
            common::run_binary(
                &std::env::temp_dir(),
                &[&args[..], &["--seed", &seed.to_string()]].concat(),
                &[],
                "quit\n",
            )
            .stdout
        })
        .collect();
    let all = outs.join("\n");
    assert!(all.contains("chose card broken, which failed:") && all.contains("broken on purpose"), "{all}");
    assert!(!all.contains("card #"), "named by id: {all}");
    for out in &outs {
        assert!(out.contains("wins:") || out.contains("Draw:"), "the game goes on to its end: {out}");
    }
}

/// `check` lists every problem in one run: a card manifest's and another card
/// script's syntax error together, not the second only once the first is fixed.
#[test]
fn check_lists_manifest_and_script_problems_together() {
    let root = common::scratch_content(
        "roots-both",
        &[("ember", "function play(ctx)\n  local = 1\nend\n"), ("calm", "function play(ctx) end\n")],
        &[("mud", NEVER), ("dust", NEVER)],
    );
    std::fs::write(root.path().join("cards/calm.yaml"), "name: calm\n").unwrap();
    let run =
        common::run_binary(&std::env::temp_dir(), &["check", "test", "--root", root.path().to_str().unwrap()], &[], "");
    assert!(!run.success);
    assert!(run.stdout.contains("calm.yaml") && run.stdout.contains("text"), "the manifest's problem: {}", run.stdout);
    assert!(run.stdout.contains("ember.lua:2:"), "the script's syntax error, located: {}", run.stdout);
    assert!(run.stdout.contains("FAIL  test: 2 problem(s)"), "{}", run.stdout);
}

/// R11: a deck with cards off deals no planets, so listing some is a problem
/// `check` names, not a setting silently ignored.
#[test]
fn planets_in_a_deck_without_cards_are_a_problem() {
    let root = mod_root("roots-plain-planets", GOOD);
    let deck = root.join("cards/decks/test.yaml");
    let text = std::fs::read_to_string(&deck).unwrap();
    std::fs::write(&deck, text.replace("cards: true", "cards: false")).unwrap();
    let run = common::run_binary(&std::env::temp_dir(), &["check", deck.to_str().unwrap()], &[], "");
    assert!(!run.success);
    assert!(run.stdout.contains("planets are dealt only with cards on"), "{}", run.stdout);
}

/// `check` with no deck names checks every deck of the root; a root with none
/// is an error, not a silent pass (a CI check must not pass on a typo).
#[test]
fn check_fails_on_a_root_without_decks() {
    let empty = std::env::temp_dir().join(format!("alien-roots-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    for root in [empty.to_str().unwrap(), "/nonexistent/alien-checkers-root"] {
        let run = common::run_binary(&std::env::temp_dir(), &["check", "--root", root], &[], "");
        assert!(!run.success, "{root}: {}", run.stdout);
        assert!(run.stderr.contains("no decks to check") && run.stderr.contains(root), "{}", run.stderr);
    }
}

/// R10.4: every game ends, so a deck's move limit is at least one turn (a
/// simulation of a deck without one never finished); the panel counts moves.
#[test]
fn a_deck_must_limit_its_games() {
    let root = mod_root("roots-limit", GOOD);
    let deck = root.join("cards/decks/test.yaml");
    let text = std::fs::read_to_string(&deck).unwrap();
    for limit in ["0", "10001"] {
        std::fs::write(&deck, text.replace("move_limit: 200", &format!("move_limit: {limit}"))).unwrap();
        let check = common::run_binary(&std::env::temp_dir(), &["check", deck.to_str().unwrap()], &[], "");
        assert!(!check.success, "{limit}: {}", check.stdout);
        let said = format!("{}{}", check.stdout, check.stderr);
        assert!(said.contains("test.yaml:") && said.contains("move_limit") && said.contains("R10.4"), "{said}");
    }
    std::fs::write(&deck, text.replace("move_limit: 200", "move_limit: 3")).unwrap();
    let play = common::run_binary(&std::env::temp_dir(), &["--deck", deck.to_str().unwrap()], &[], "quit\n");
    assert!(play.success, "{}", play.stderr);
    assert!(play.stdout.contains("Move 1 of 2: Dark to move"), "{}", play.stdout);
    // Four turns are two moves: the game ends at move 2, not "move 3" (plain
    // checkers, which cannot end sooner).
    let plain = std::fs::read_to_string(common::repo().path().join("cards/decks/plain.yaml")).unwrap();
    let short = root.join("cards/decks/short.yaml");
    std::fs::write(&short, plain.replace("move_limit: 200", "move_limit: 4")).unwrap();
    let args = ["--deck", short.to_str().unwrap(), "--dark", "random", "--light", "random"];
    let play = common::run_binary(&std::env::temp_dir(), &args, &[], "");
    assert!(play.stdout.contains("the move limit of 4 turns"), "{}", play.stdout);
    assert!(
        play.stdout.contains("Game over at move 2") && !play.stdout.contains("Game over at move 3"),
        "{}",
        play.stdout
    );
}

#[test]
fn a_deck_path_outside_a_decks_folder_asks_for_root() {
    let root = mod_root("roots-loose", GOOD);
    let loose = root.join("my-deck.yaml");
    std::fs::copy(root.join("cards/decks/test.yaml"), &loose).unwrap();
    let run = common::run_binary(&std::env::temp_dir(), &["check", loose.to_str().unwrap()], &[], "");
    assert!(!run.success);
    assert!(run.stderr.contains("cards/decks/") && run.stderr.contains("--root"), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "one line: {}", run.stderr);
    // With --root it loads.
    let run = common::run_binary(
        &std::env::temp_dir(),
        &["check", loose.to_str().unwrap(), "--root", root.to_str().unwrap()],
        &[],
        "",
    );
    assert!(run.success, "{}{}", run.stdout, run.stderr);
}

#[test]
fn a_syntax_error_names_the_file_once_with_line_and_column() {
    let root = mod_root("roots-syntax", "function play(ctx)\n  local x = = 3\nend\n");
    let deck = root.join("cards/decks/test.yaml");
    let run = common::run_binary(&std::env::temp_dir(), &["check", deck.to_str().unwrap()], &[], "");
    assert!(!run.success);
    let script = root.join("cards/ember.lua");
    let script = script.to_str().unwrap();
    assert_eq!(run.stdout.matches("ember.lua").count(), 1, "the file is named once:\n{}", run.stdout);
    assert!(run.stdout.contains(&format!("{script}:2:13: unexpected symbol near '='")), "{}", run.stdout);
}

#[test]
fn an_overlong_line_is_refused_without_being_echoed_whole() {
    let long = "x".repeat(5000);
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = common::run_binary(here, &["--seed", "1", "--light", "random"], &[], &format!("{long}\ndigest\nquit\n"));
    assert!(run.success);
    assert!(
        run.stdout.contains("no command or answer is longer than 200"),
        "{}",
        &run.stdout[..2000.min(run.stdout.len())]
    );
    assert!(!run.stdout.contains(&"x".repeat(100)), "the line is not echoed whole");
    assert!(run.stdout.contains("after 0 decisions"), "the game is unchanged");
}

/// `check` counts a deck's cards with their copies (R1.6), and says how many
/// kinds when some card has more than one copy (issue 39, item 15).
#[test]
fn check_counts_every_copy_of_a_decks_cards() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let check = common::run_binary(here, &["check", "monolith_mayhem", "standard"], &[], "");
    assert!(check.success, "{}{}", check.stdout, check.stderr);
    assert!(check.stdout.contains("ok    monolith_mayhem: 28 cards (20 kinds), 8 planets"), "{}", check.stdout);
    assert!(check.stdout.contains("ok    standard: 21 cards, 9 planets"), "{}", check.stdout);
}
