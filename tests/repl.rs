//! Whole sessions piped into the `alien-checkers` binary (the REPL issue): games to
//! a win, against the computer, save/quit/load, undo, bad input of every kind.

use std::process::{Command, Stdio};

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use alien_checkers::game::{Answer, Choice, EndReason, GameState, QuestionKind, Step};
use alien_checkers::narrate::Frame;
use alien_checkers::script::ScriptEngine;

mod common;

/// Runs the binary with `args`, feeding `input`; returns (stdout, stderr, success).
fn run(args: &[&str], input: &str) -> (String, String, bool) {
    let run = common::run_binary(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), args, &[], input);
    (run.stdout, run.stderr, run.success)
}

/// How a player types a choice: the move, the card's id, the answer (a 2×2 block
/// by its square drawn lower left for the player deciding).
fn typed(engine: &ScriptEngine, state: &GameState, choice: &Choice) -> String {
    let frame = Frame { viewer: state.to_move, orientation: state.board.orientation() };
    match (choice, &state.step) {
        (Choice::Move(m), _) => m.to_string(),
        (Choice::Card(c), _) => engine.content().card(*c).unwrap().id.clone(),
        (Choice::Answer(Answer::Square(anchor)), Step::Resolving(r)) if r.question.kind == QuestionKind::Block => {
            frame.block_corner(*anchor).to_string()
        }
        (Choice::Answer(a), _) => a.to_string(),
    }
}

/// The first seed from `from` whose random game ends the way `wanted` accepts,
/// with the lines a player would type for it.
fn find_game(engine: &ScriptEngine, from: u64, wanted: impl Fn(&EndReason) -> bool) -> (u64, Vec<String>, String) {
    for seed in from..from + 400 {
        let mut state = GameState::new(&engine.content().setup(), seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut lines = Vec::new();
        while let Some(d) = state.pending(engine) {
            let pick = d.options[(rng.next_u32() as usize) % d.options.len()].clone();
            lines.push(typed(engine, &state, &pick));
            state.apply(engine, &pick).unwrap();
        }
        let outcome = state.outcome().unwrap();
        if wanted(&outcome.reason) {
            return (seed, lines, format!("{} wins", outcome.winner.unwrap()));
        }
    }
    panic!("no seed from {from} ends the wanted way");
}

fn engine() -> ScriptEngine {
    ScriptEngine::load(&common::repo(), "standard").unwrap()
}

#[test]
fn hot_seat_game_to_a_win_by_capture() {
    let engine = engine();
    let (seed, lines, winner) = find_game(&engine, 0, |r| *r == EndReason::Capture);
    let seed = seed.to_string();
    let (out, _, ok) =
        run(&["--seed", &seed, "--dark", "human", "--light", "human"], &(lines.join("\n") + "\nlog\nquit\n"));
    assert!(ok);
    assert!(out.contains(&format!("{winner}: the opponent has no checker left (R10.1)")), "{out}");
    assert!(out.contains("planet was"), "both planets are revealed at the end");
}

#[test]
fn hot_seat_game_to_a_planet_win() {
    let engine = engine();
    let (seed, lines, winner) = find_game(&engine, 0, |r| matches!(r, EndReason::Planet(_)));
    let seed = seed.to_string();
    let (out, _, ok) = run(&["--seed", &seed, "--dark", "human", "--light", "human"], &(lines.join("\n") + "\n"));
    assert!(ok);
    assert!(out.contains(&format!("{winner}: planet ")), "{out}");
}

#[test]
fn a_game_against_the_computer_runs_to_its_end() {
    // The human always takes the first option; the computer plays at `easy`.
    let input = "1\n".repeat(3000);
    let (out, _, ok) = run(&["--seed", "11", "--light", "easy"], &input);
    assert!(ok);
    assert!(out.contains("[easy]"), "the computer's actions are shown: {}", &out[..out.len().min(2000)]);
    assert!(out.contains(" wins: ") || out.contains("Draw: "), "the game ended");
    assert!(out.contains("Type 'new' for another game"));
}

#[test]
fn save_quit_load_and_continue_to_the_same_result() {
    let engine = engine();
    let (seed, lines, winner) = find_game(&engine, 50, |r| *r != EndReason::MoveLimit);
    let seed = seed.to_string();
    let dir = std::env::temp_dir().join(format!("alien-repl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("game.json");
    let half = lines.len() / 2;
    let first = format!("{}\nsave {}\nquit\n", lines[..half].join("\n"), save.display());
    let (out, _, ok) = run(&["--seed", &seed, "--dark", "human", "--light", "human"], &first);
    assert!(ok && out.contains(&format!("saved {half} decisions")), "{out}");
    let second = lines[half..].join("\n") + "\n";
    let (out, _, ok) = run(&["--load", save.to_str().unwrap()], &second);
    assert!(ok);
    assert!(out.contains(&"loaded".to_string()) || out.contains("Alien Checkers"), "{out}");
    assert!(out.contains(&format!("{winner}: ")), "the loaded game ends as the whole one did: {out}");
    // And loading from the REPL reaches the same end too.
    let third = format!("load {}\n{}\n", save.display(), lines[half..].join("\n"));
    let (out, _, _) = run(&["--seed", "1", "--dark", "human", "--light", "human"], &third);
    assert!(out.contains(&format!("loaded {}: {half} decisions", save.display())), "{out}");
    assert!(out.contains(&format!("{winner}: ")));
}

#[test]
fn undo_takes_back_the_human_decision_and_the_computers_reply() {
    let (out, _, ok) = run(&["--seed", "3", "--light", "random"], "c3-d4\n1\nlog\nundo\nlog\nundo\nlog\nquit\n");
    assert!(ok);
    let logs: Vec<&str> = out.split("move> log").collect();
    assert!(out.contains("Dark moves c3-d4"));
    assert!(out.contains("took back"), "{out}");
    assert!(out.contains("nothing has happened yet"), "after undoing everything the log is empty: {out}");
    assert!(logs.len() >= 2);
}

#[test]
fn bad_input_gets_one_line_and_changes_nothing() {
    let corrupt = std::env::temp_dir().join(format!("alien-corrupt-{}.json", std::process::id()));
    std::fs::write(&corrupt, "{\"format\": \"alien-checkers-save\", \"version\": 1, \"deck\": ").unwrap();
    let newer = std::env::temp_dir().join(format!("alien-newer-{}.json", std::process::id()));
    std::fs::write(&newer, "{\"format\": \"alien-checkers-save\", \"version\": 99}").unwrap();
    let cases = [
        ("frobnicate", "unknown command 'frobnicate'"),
        ("c3-c4", "c3-c4 is not a legal move now"),
        ("c3-e5", "is not a legal move now; legal:"),
        ("z9-a1", "'z9' is not a square"),
        ("99", "there is no option 99; choose 1 to 7"),
        ("0", "there is no option 0"),
        ("card", "card needs a name"),
        ("card nothing", "no card 'nothing'"),
        ("help nothing", "no command 'nothing'"),
        ("save", "save needs a file name"),
        ("save /nonexistent-dir/x.json", "cannot save to /nonexistent-dir/x.json"),
        ("load", "load needs a file name"),
        ("load /nonexistent-file.json", "cannot read /nonexistent-file.json"),
        (&format!("load {}", corrupt.display()), "is not a save (corrupt or truncated)"),
        (&format!("load {}", newer.display()), "written by a newer version"),
        ("new seven", "'seven' is not a seed"),
        ("use", "no card can be used now"),
        ("use rocket", "no card can be used now"),
    ];
    let mut input = String::new();
    for (line, _) in &cases {
        input.push_str(line);
        input.push('\n');
    }
    input.push_str("log\nquit\n");
    let (out, _, ok) = run(&["--seed", "4", "--light", "human"], &input);
    assert!(ok);
    for (line, says) in &cases {
        let answer = out.split(&format!("move> {line}\n")).nth(1).unwrap_or_else(|| panic!("'{line}' was read: {out}"));
        let first = answer.lines().next().unwrap_or("");
        assert!(first.contains(says), "'{line}' should say '{says}', said: {first}");
    }
    assert!(out.contains("nothing has happened yet"), "no bad line changed the game");
}

#[test]
fn thousands_of_random_lines_neither_panic_nor_change_the_game() {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let alphabet: Vec<char> = "abcdefghxyz0123456789 -x/+.:;!?#~^|'\"\\é漢\t".chars().collect();
    let words = ["card", "help", "board", "options", "cards", "log", "use", "c3", "d4", "x", "-", "e5", "b"];
    let mut input = String::new();
    let mut lines = 0;
    while lines < 3000 {
        let mut line = String::new();
        for _ in 0..(rng.next_u32() % 6) {
            if rng.next_u32() % 3 == 0 {
                line.push_str(words[(rng.next_u32() as usize) % words.len()]);
            } else {
                for _ in 0..(rng.next_u32() % 8) {
                    line.push(alphabet[(rng.next_u32() as usize) % alphabet.len()]);
                }
            }
            line.push(' ');
        }
        let word = line.split_whitespace().next().unwrap_or("").to_string();
        // Leave out the lines that are real decisions or commands that change the game.
        let decides = word.parse::<usize>().is_ok()
            || ["new", "undo", "load", "reload", "save", "quit", "exit", "q", "planet"].contains(&word.as_str())
            || ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]
                .iter()
                .any(|m| line.trim().starts_with(m))
            || (word == "use" && line.split_whitespace().nth(1).is_some_and(|w| w.parse::<usize>().is_ok()));
        if decides {
            continue;
        }
        input.push_str(line.trim_end());
        input.push('\n');
        lines += 1;
    }
    input.push_str("log\nquit\n");
    let (out, stderr, ok) = run(&["--seed", "8", "--light", "human"], &input);
    assert!(ok, "{stderr}");
    assert!(out.contains("nothing has happened yet"), "no random line changed the game");
}

#[test]
fn command_line_errors_are_one_line_with_status_2() {
    for args in
        [&["--dark", "wizard"][..], &["--deck", "nosuch"], &["perft", "--depth", "x"], &["moves", "--fen", "Q:W1:B2"]]
    {
        let out = Command::new(env!("CARGO_BIN_EXE_alien-checkers"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: one line: {stderr}");
    }
}
