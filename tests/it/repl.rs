//! Whole sessions piped into the `alien-checkers` binary: games to
//! a win, against the computer, save/quit/load, undo, bad input of every kind.

use std::process::{Command, Stdio};

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use alien_checkers::game::{Answer, Choice, EndReason, GameState, QuestionKind, Step};
use alien_checkers::kernel::Player;
use alien_checkers::narrate::Frame;
use alien_checkers::script::ScriptEngine;

use crate::common;

/// Runs the binary with `args`, feeding `input`; returns (stdout, stderr, success).
/// Runs in a scratch folder, so that `quit`'s autosave lands there (the
/// content is found in the source folder).
fn run(args: &[&str], input: &str) -> (String, String, bool) {
    let dir = std::env::temp_dir().join(format!("alien-repl-cwd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    run_in(&dir, args, input)
}

fn run_in(dir: &std::path::Path, args: &[&str], input: &str) -> (String, String, bool) {
    let run = common::run_binary(dir, args, &[], input);
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
        (Choice::GiveUp, _) => alien_checkers::game::GIVE_UP.to_string(),
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

/// A planet win names the squares that made it hold, where its script says
/// (`squares`): the fires of Mercury, the waters of Neptune, the corners of Pluto.
#[test]
fn a_planet_win_names_the_squares_that_made_it_hold() {
    let engine = engine();
    let content = engine.content();
    let placed = |r: &EndReason| match r {
        EndReason::Planet(p) => content.planet(*p).is_some_and(|d| !matches!(d.id.as_str(), "earth" | "mars")),
        _ => false,
    };
    let (seed, lines, winner) = find_game(&engine, 0, placed);
    let (out, _, ok) =
        run(&["--seed", &seed.to_string(), "--dark", "human", "--light", "human"], &(lines.join("\n") + "\n"));
    assert!(ok);
    let end = out.lines().find(|l| l.starts_with(&format!("{winner}: planet "))).expect("the end is told");
    let at = end.split(" holds on ").nth(1).expect("the squares are named").trim_end_matches(" (R9)");
    assert!(!at.is_empty() && at.split(' ').all(|s| s.parse::<alien_checkers::kernel::Square>().is_ok()), "{end}");
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
    // No --seed was given: the game the banner names is the saved one.
    assert!(out.contains(&format!("seed {seed} (replay it")), "{out}");
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
        ("save /tmp/", "cannot save to /tmp/: that is a folder; give a file name"),
        ("save /tmp", "cannot save to /tmp: that is a folder"),
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
    for args in [
        &["--dark", "wizard"][..],
        &["--deck", "nosuch"],
        &["perft", "--depth", "x"],
        &["moves", "--fen", "Q:W1:B2"],
        &["simulate", "--games", "0"],
        // Play options belong to the game, not to another subcommand.
        &["--seed", "5", "perft", "--depth", "3"],
        &["--light", "random", "play"],
        // The deck is read first, so this fails at once (not after perft).
        &["bench", "--deck", "nosuch"],
    ] {
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
    // A missing argument is named on that line.
    for (args, named) in [(&["replay"][..], "<FILE>"), (&["perft"], "--depth"), (&["moves"], "--fen")] {
        let out = Command::new(env!("CARGO_BIN_EXE_alien-checkers")).args(args).stdin(Stdio::null()).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: one line: {stderr}");
        assert!(stderr.contains("not provided") && stderr.contains(named), "{args:?}: {stderr}");
    }
}

/// `--dark`/`--light` given with `--load` take those seats; the others are the
/// save's, and a saved seat that names no player is said, not silently dropped.
/// `bench` at a tiny size prints each of its figures once, with a number that
/// reads as one (README, "Speed"; the figures themselves are not asserted).
#[test]
fn bench_prints_every_figure() {
    let args = ["bench", "--runs", "2", "--games", "3", "--playouts", "20", "--searches", "1", "--perft-depth", "4"];
    let (out, stderr, ok) = run(&args, "");
    assert!(ok, "{stderr}");
    let figures = [
        ("perft(4) = ", " million leaves/s"),
        ("random plain playouts: 20 games per run, ", " games/s"),
        ("random standard-deck games: 3 games per run, ", " games/s"),
        ("the same games with every event recorded: ", " games/s"),
        ("card resolution (using a card or answering its question): median ", " µs"),
        ("search at normal (1 searches per run, 1 thread): plain ", ", standard deck"),
    ];
    for (start, unit) in figures {
        let lines: Vec<&str> = out.lines().filter(|l| l.starts_with(start)).collect();
        assert_eq!(lines.len(), 1, "one line starting {start:?} in:\n{out}");
        let rest = &lines[0][start.len()..];
        let number = rest[..rest.find(unit).unwrap_or_else(|| panic!("{unit:?} in {rest:?}"))].rsplit(' ').next();
        let value: f64 =
            number.and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("a number before {unit:?}: {rest}"));
        assert!(value.is_finite() && value > 0.0, "{start}{rest}");
    }
    // Ratios are within a round: the plain rate's share of both figures is given.
    assert!(out.contains("of the plain playout rate (median of the rounds)"), "{out}");
    assert!(out.contains("standard/plain"), "{out}");
}

#[test]
fn seats_given_with_load_win_over_the_saved_ones() {
    let dir = std::env::temp_dir().join(format!("alien-repl-seats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("seats.json");
    let (out, _, ok) = run(&["--seed", "2", "--light", "easy"], &format!("c3-d4\nsave {}\nquit\n", save.display()));
    assert!(ok && out.contains(&format!("decisions to {}", save.display())), "{out}");
    let path = save.display().to_string();
    let (out, _, _) = run(&["--load", &path], "quit\n");
    assert!(out.contains("Dark: human, Light: easy"), "the saved seats: {out}");
    let (out, _, _) = run(&["--load", &path, "--light", "greedy"], "quit\n");
    assert!(out.contains("Dark: human, Light: greedy"), "the seat given wins: {out}");
    let text = std::fs::read_to_string(&save).unwrap().replace("\"human\"", "\"robot\"");
    std::fs::write(&save, text).unwrap();
    let (out, _, _) = run(&["--load", &path], "quit\n");
    assert!(out.contains("The save's seat for Dark is not used: 'robot' is not a player"), "{out}");
    assert!(out.contains("Dark: human, Light: easy"), "{out}");
}

/// `new` and `load` never drop an unfinished game: it is autosaved first, and
/// a save being loaded is never written over (even the game's own autosave).
#[test]
fn new_and_load_keep_the_unfinished_game() {
    let dir = std::env::temp_dir().join(format!("alien-repl-keep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let first = dir.join("alien-checkers-autosave-7.json");
    let (out, _, _) = run_in(&dir, &["--seed", "7", "--light", "human"], "c3-d4\nquit\n");
    assert!(first.exists(), "{out}");
    // Another game of seed 7 loads the first game's autosave: the second game
    // goes to another file, and the first is loaded intact.
    let (out, _, _) =
        run_in(&dir, &["--seed", "7", "--light", "human"], "a3-b4\nload alien-checkers-autosave-7.json\nlog\nquit\n");
    let second = dir.join("alien-checkers-autosave-7-2.json");
    assert!(out.contains("saved the game to alien-checkers-autosave-7-2.json"), "{out}");
    assert!(std::fs::read_to_string(&second).unwrap().contains("a3-b4"));
    assert!(out.contains("loaded alien-checkers-autosave-7.json: 1 decisions") && out.contains("c3-d4"), "{out}");
    // `new` saves the unfinished game before dealing the next.
    let (out, _, _) = run_in(&dir, &["--seed", "9", "--light", "human"], "c3-d4\nnew\nquit\n");
    assert!(out.contains("saved the game to alien-checkers-autosave-9.json"), "{out}");
    assert!(std::fs::read_to_string(dir.join("alien-checkers-autosave-9.json")).unwrap().contains("c3-d4"));
}

/// The digests the `digest` command printed, in order.
fn digests(out: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| l.split("digest ").nth(1))
        .map(|d| d.split_whitespace().next().unwrap().to_string())
        .collect()
}

/// The first `n` decisions of a random game of `seed` as typed (all human).
fn opening(engine: &ScriptEngine, seed: u64, n: usize) -> Vec<String> {
    let mut state = GameState::new(&engine.content().setup(), seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut lines = Vec::new();
    while let Some(d) = state.pending(engine) {
        if lines.len() == n {
            return lines;
        }
        let pick = d.options[(rng.next_u32() as usize) % d.options.len()].clone();
        lines.push(typed(engine, &state, &pick));
        state.apply(engine, &pick).unwrap();
    }
    panic!("the game of seed {seed} ended within {n} decisions");
}

#[test]
fn resign_ends_the_game_for_the_opponent_and_survives_save_and_load() {
    let dir = common::scratch_dir("repl", "resign");
    let save = dir.join("resigned.json");
    let lines = opening(&engine(), 5, 6).join("\n");
    // Resigning asks first: anything but yes plays on.
    let input = format!("{lines}\nresign\nno\nresign\ny\ndigest\nsave {}\nc3-d4\nquit\n", save.display());
    let (out, _, ok) = run_in(&dir, &["--seed", "5", "--dark", "human", "--light", "human"], &input);
    assert!(ok, "{out}");
    assert!(out.contains("resign the game? [y/N] no\nnot resigned; play on"), "{out}");
    assert_eq!(out.matches(" resigns.").count(), 1, "{out}");
    let who = out.lines().find_map(|l| l.strip_suffix(" resigns.")).expect("someone resigns");
    let winner = if who == "Dark" { "Light" } else { "Dark" };
    assert!(out.contains(&format!("{winner} wins: {who} resigned")), "the end screen names the reason: {out}");
    assert!(out.contains("the game is over"), "no move after resigning: {out}");
    assert!(!out.contains("autosave"), "a finished game quits without saving: {out}");
    let (loaded, _, ok) = run_in(&dir, &["--load", save.to_str().unwrap()], "digest\nundo\ndigest\n");
    assert!(ok);
    let (before, after) = (digests(&out), digests(&loaded));
    assert_eq!(after[0], before[0], "the loaded game is the resigned one: {loaded}");
    assert!(loaded.contains(&format!("{winner} wins: {who} resigned")), "{loaded}");
    assert!(loaded.contains("took back the end of the game"), "{loaded}");
    assert_ne!(after[1], after[0], "undo takes the resignation back");
}

#[test]
fn a_draw_offered_in_hot_seat_is_asked_of_the_opponent() {
    let lines = opening(&engine(), 6, 4).join("\n");
    let args = ["--seed", "6", "--dark", "human", "--light", "human"];
    let (out, _, _) = run(&args, &format!("{lines}\ndraw\nn\ndigest\ndraw\ny\n"));
    assert!(out.contains("offers a draw"), "{out}");
    assert!(out.contains("declines the draw; play on."), "{out}");
    assert!(out.contains("accepts the draw."), "{out}");
    assert!(out.contains("Draw: agreed by both players"), "{out}");
}

#[test]
fn the_computer_accepts_a_draw_only_when_it_is_not_ahead() {
    use alien_checkers::ai::{Agent, Evaluator, Heuristic, RandomAgent, Weights, mix_seed};
    use alien_checkers::repl::table::computer_accepts_draw;
    use alien_checkers::session::Session;
    // Dark is human (random moves), Light the `random` computer, whose choices the
    // test repeats (its seed is the REPL's); at each of Dark's moves the test reads
    // the evaluation from Light's side.
    let eval = Evaluator::new(Weights::STANDARD);
    let (mut ahead, mut behind) = (None, None);
    'seeds: for seed in 1..200u64 {
        let mut session = Session::new(&common::repo(), "standard", seed).unwrap();
        let mut computer = RandomAgent::new(mix_seed(seed, 2));
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut lines = Vec::new();
        while let Some(d) = session.state().pending(&session.engine) {
            if d.player == Player::Light {
                let choice = computer.choose(session.state(), &session.engine).unwrap();
                session.apply(&choice).unwrap();
                continue;
            }
            let score = eval.score(session.state(), Player::Light, &session.engine);
            if d.kind == alien_checkers::game::DecisionKind::Move {
                assert_eq!(computer_accepts_draw(&session, Player::Light), score <= 0.0);
                if score >= 1.0 && ahead.is_none() {
                    ahead = Some((seed, lines.clone(), session.digest()));
                }
                if score <= -1.0 && behind.is_none() {
                    behind = Some((seed, lines.clone(), session.digest()));
                }
                if ahead.is_some() && behind.is_some() {
                    break 'seeds;
                }
            }
            let pick = d.options[(rng.next_u32() as usize) % d.options.len()].clone();
            lines.push(typed(&session.engine, session.state(), &pick));
            session.apply(&pick).unwrap();
            if lines.len() > 60 {
                break;
            }
        }
    }
    for (case, accepted) in [(ahead, false), (behind, true)] {
        let (seed, lines, digest) = case.expect("a position a pawn up or down for the computer");
        let seed = seed.to_string();
        let input = format!("{}\ndigest\ndraw\ndigest\n", lines.join("\n"));
        let (out, _, ok) = run(&["--seed", &seed, "--dark", "human", "--light", "random"], &input);
        assert!(ok);
        let seen = digests(&out);
        assert_eq!(seen[0], format!("{digest:016x}"), "the REPL reached the position the test evaluated: {out}");
        if accepted {
            assert!(out.contains("Light accepts the draw.") && out.contains("Draw: agreed by both players"), "{out}");
            assert_ne!(seen[1], seen[0]);
        } else {
            assert!(out.contains("Light declines the draw; play on."), "{out}");
            assert_eq!(seen[1], seen[0], "a refused draw changes nothing");
        }
    }
}

#[test]
fn quit_saves_an_unfinished_game_that_load_continues() {
    let dir = common::scratch_dir("repl", "autosave");
    let lines = opening(&engine(), 9, 7).join("\n");
    let args = ["--seed", "9", "--dark", "human", "--light", "human"];
    let (out, _, ok) = run_in(&dir, &args, &format!("{lines}\ndigest\nquit\nboard\n"));
    assert!(ok);
    let file = dir.join("alien-checkers-autosave-9.json");
    assert!(out.contains("continue it with: alien-checkers --load alien-checkers-autosave-9.json"), "{out}");
    assert!(file.is_file(), "{out}");
    assert!(!out.contains("board>") && !out.ends_with("a    b    c    d    e    f    g    h\n"), "quit left");
    let (loaded, _, ok) = run_in(&dir, &["--load", "alien-checkers-autosave-9.json"], "digest\n");
    assert!(ok);
    assert_eq!(digests(&loaded)[0], digests(&out)[0], "--load continues the same game: {loaded}");
    // The end of piped input saves too, without asking.
    std::fs::remove_file(&file).unwrap();
    let (out, _, ok) = run_in(&dir, &args, &format!("{lines}\n"));
    assert!(ok && file.is_file() && out.contains("saved the game to"), "{out}");
    // Nothing to save before the first decision.
    std::fs::remove_file(&file).unwrap();
    let (_, _, ok) = run_in(&dir, &args, "quit\n");
    assert!(ok && !file.exists());
}

#[test]
fn hot_seat_shows_a_planet_only_to_its_player_between_pass_prompts() {
    let engine = engine();
    let seed = 11;
    let state = GameState::new(&engine.content().setup(), seed);
    let planet_text = |p: alien_checkers::kernel::Player| {
        let id = state.planet(p).unwrap();
        engine.content().planet(id).unwrap().manifest.text.trim().to_string()
    };
    let lines: Vec<String> = opening(&engine, seed, 24).into_iter().flat_map(|l| ["planet".to_string(), l]).collect();
    let args = ["--seed", "11", "--dark", "human", "--light", "human"];
    let (out, _, ok) = run(&args, &(lines.join("\n") + "\n"));
    assert!(ok);
    let segments: Vec<&str> = out.split("Pass to ").skip(1).collect();
    assert!(segments.len() >= 4, "the screen is passed at each change of player: {out}");
    let mut shown = 0;
    for segment in &segments {
        let to = if segment.starts_with("Dark") {
            alien_checkers::kernel::Player::Dark
        } else {
            alien_checkers::kernel::Player::Light
        };
        assert!(!segment.contains(&planet_text(!to)), "{}'s planet shown while {to} has the screen:\n{segment}", !to);
        if segment.contains(&planet_text(to)) {
            shown += 1;
        }
    }
    // The board is drawn from the side of the player who has the screen.
    assert!(segments[0].starts_with("Dark") && segments[0].contains("    a    b    c    d"), "{}", segments[0]);
    assert!(segments[1].starts_with("Light") && segments[1].contains("    h    g    f    e"), "{}", segments[1]);
    assert!(shown >= 2, "each player sees their own planet");
    assert!(out.contains("----------------------------------------\nPass to"), "piped: a separator, not a clear");
}

#[test]
fn hint_names_the_computers_choice_without_playing_it() {
    let (out, _, ok) = run(&["--seed", "3", "--dark", "human", "--light", "easy"], "digest\nhint\ndigest\n");
    assert!(ok);
    let seen = digests(&out);
    assert_eq!(seen[0], seen[1], "the hint changed the game: {out}");
    let hint = out.lines().find_map(|l| l.split("hint (normal) for Dark: ").nth(1)).expect(&out);
    let engine = engine();
    let state = GameState::new(&engine.content().setup(), 3);
    let legal: Vec<String> = state.kernel_moves().iter().map(|m| m.to_string()).collect();
    assert!(legal.contains(&hint.to_string()), "the hint {hint} is a legal move {legal:?}");
    let (out, _, _) = run(&["--seed", "3", "--dark", "easy", "--light", "easy"], "hint\n");
    assert!(!out.contains("hint (normal)"), "no hint for a computer's decision");
}

/// Plays random decisions until Foresight asks its question with at least
/// `cards` cards to order; the session and the lines typed so far.
fn at_foresight(cards: usize) -> (u64, alien_checkers::session::Session, Vec<String>) {
    for seed in 0..3000u64 {
        let mut session = alien_checkers::session::Session::new(&common::repo(), "standard", seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut lines = Vec::new();
        while let Some(d) = session.state().pending(&session.engine) {
            if let Step::Resolving(r) = &session.state().step
                && r.question.prompt.starts_with("Foresight")
                && r.question.options.len() > cards
            {
                return (seed, session, lines);
            }
            // Prefer Foresight when it is offered.
            let foresight = d
                .options
                .iter()
                .find(|o| matches!(o, Choice::Card(c) if session.engine.content().card(*c).unwrap().id == "foresight"));
            let pick =
                foresight.cloned().unwrap_or_else(|| d.options[(rng.next_u32() as usize) % d.options.len()].clone());
            lines.push(typed(&session.engine, session.state(), &pick));
            session.apply(&pick).unwrap();
            if lines.len() > 80 {
                break;
            }
        }
    }
    panic!("no game reaches Foresight");
}

#[test]
fn completion_offers_the_pending_questions_answers_and_the_commands() {
    use alien_checkers::repl::table::candidates;
    let (_, session, _) = at_foresight(3);
    let Step::Resolving(r) = &session.state().step else { unreachable!() };
    let mut answers: Vec<String> = r.question.options.iter().map(|a| a.to_string()).collect();
    assert!(answers.contains(&"keep".to_string()), "{answers:?}");
    let all = candidates(&session, "");
    for a in &answers {
        assert!(all.contains(a), "{a} offered: {all:?}");
    }
    assert!(all.contains(&"resign".to_string()) && all.contains(&"hint".to_string()));
    assert!(!all.iter().any(|c| c == "a1" || c == "c3-d4"), "no squares or moves at a card question: {all:?}");
    // After a first answer, the answers again (an order in one line), and only they.
    answers.sort();
    answers.dedup();
    assert_eq!(candidates(&session, &format!("{} ", answers[0])), answers);
    assert_eq!(candidates(&session, "foresight "), answers);
    assert_eq!(candidates(&session, "ke"), vec!["keep".to_string()]);
    // At the first move: the legal moves and the commands, no bare squares.
    let fresh = alien_checkers::session::Session::new(&common::repo(), "standard", 1).unwrap();
    let mut moves: Vec<String> =
        fresh.state().kernel_moves().iter().map(|m| m.to_string()).filter(|m| m.starts_with('c')).collect();
    moves.extend(["card".to_string(), "cards".to_string()]);
    moves.sort();
    assert_eq!(candidates(&fresh, "c"), moves);
    assert!(candidates(&fresh, "use ").is_empty(), "no card can be used at the move step");
}

/// R8.20 with `secret_answers` (foresight.yaml): the order a player gives is
/// logged as "answers in secret", never by card.
#[test]
fn foresight_answers_are_logged_in_secret() {
    let (_, mut session, _) = at_foresight(3);
    let who = session.state().to_move;
    assert!(session.answers_in_secret());
    let Step::Resolving(r) = &session.state().step else { unreachable!() };
    let first = r.question.options[0].to_string();
    session.apply(&session.find_choice(&format!("answer {first}")).unwrap()).unwrap();
    assert_eq!(session.log().last().unwrap(), &format!("{who} answers in secret"));
    assert!(!session.log().any(|l| l.contains(&first)), "{:?}", session.log().collect::<Vec<_>>());
}

/// The computer's Foresight order is not printed to the human (R8.20): after
/// "Light uses Foresight" one line says it answered in secret and how many
/// answers it gave, while the computer's answers to other cards are still told.
#[test]
fn the_computers_foresight_order_is_not_shown() {
    let input = "1\n".repeat(300);
    let (out, _, _) = run(&["--seed", "1", "--light", "random"], &input);
    let lines: Vec<&str> = out.lines().collect();
    let starts: Vec<usize> =
        lines.iter().enumerate().filter(|(_, l)| l.starts_with("Light uses Foresight")).map(|(i, _)| i).collect();
    assert!(!starts.is_empty(), "the computer uses Foresight in this game: {out}");
    for start in starts {
        let answers: Vec<&&str> = lines[start + 1..].iter().take_while(|l| l.starts_with("Light answers")).collect();
        assert_eq!(answers.len(), 1, "{:?}", &lines[start..start + 4]);
        assert!(answers[0].starts_with("Light answers in secret ("), "{answers:?}");
    }
    assert!(
        lines.iter().any(|l| l.starts_with("Light answers") && !l.contains("in secret")),
        "other cards' answers are still told"
    );
}

/// My own Foresight order is mine to read back in `log`, by card name, once
/// the screen is mine again (hot-seat), and only mine.
#[test]
fn my_foresight_order_can_be_read_back_in_the_log() {
    let (seed, mut session, mut lines) = at_foresight(3);
    let Step::Resolving(r) = &session.state().step else { unreachable!() };
    let who = session.state().to_move;
    let first = r.question.options[0].to_string();
    let content = session.engine.content();
    let name = content.card(content.find_card(&first).unwrap()).unwrap().manifest.name.clone();
    for answer in [first.as_str(), "keep"] {
        session.apply(&session.find_choice(&format!("answer {answer}")).unwrap()).unwrap();
        lines.push(answer.to_string());
    }
    // The other player decides until the screen comes back.
    let mut theirs = Vec::new();
    while let Some(d) = session.pending().cloned().filter(|d| d.player != who) {
        let pick = d.options[0].clone();
        theirs.push(typed(&session.engine, session.state(), &pick));
        session.apply(&pick).unwrap();
    }
    assert!(!theirs.is_empty());
    let input = format!("{}\nlog\n{}\nlog\n", lines.join("\n"), theirs.join("\n"));
    let (out, _, ok) = run(&["--seed", &seed.to_string(), "--dark", "human", "--light", "human"], &input);
    assert!(ok);
    let logs: Vec<&str> = out.split("> log").skip(1).collect();
    assert_eq!(logs.len(), 2, "{out}");
    let mine = "your secret answers at move";
    assert!(!logs[0].split("> ").next().unwrap().contains(mine), "the other player's screen: {}", logs[0]);
    let shown = logs[1].split("> ").next().unwrap();
    assert!(shown.contains(mine) && shown.contains(&format!("(Foresight): {name} keep")), "{shown}");
}

#[test]
fn foresight_takes_a_whole_order_in_one_line_by_name_or_id() {
    let (seed, mut session, lines) = at_foresight(3);
    let Step::Resolving(r) = &session.state().step else { unreachable!() };
    let mut ids: Vec<String> = r.question.options.iter().map(|a| a.to_string()).filter(|a| a != "keep").collect();
    ids.reverse();
    let content = session.engine.content();
    let name = |id: &str| content.card(content.find_card(id).unwrap()).unwrap().manifest.name.clone();
    // The first by its name (as shown everywhere else), the second by id, then keep.
    let order = format!("foresight {} {} keep", name(&ids[0]).to_uppercase(), ids[1]);
    assert!(!name(&ids[0]).contains(' '));
    let input = format!("{}\n{order}\ndigest\n", lines.join("\n"));
    let (out, _, ok) = run(&["--seed", &seed.to_string(), "--dark", "human", "--light", "human"], &input);
    assert!(ok);
    let n = session.decisions().len();
    for answer in [ids[0].as_str(), ids[1].as_str(), "keep"] {
        if session
            .state()
            .pending(&session.engine)
            .is_some_and(|d| d.kind == alien_checkers::game::DecisionKind::Question)
        {
            session.apply(&session.find_choice(&format!("answer {answer}")).expect(answer)).unwrap();
        }
    }
    assert!(session.decisions().len() > n + 1, "several decisions, each in the record");
    assert_eq!(
        digests(&out).last().unwrap(),
        &format!("{:016x} after {} decisions", session.digest(), session.decisions().len())
            .split(' ')
            .next()
            .unwrap()
            .to_string(),
        "{out}"
    );
    assert!(out.contains(&format!("after {} decisions", session.decisions().len())), "{out}");
}

#[test]
fn completion_offers_directions_as_seen_and_by_letter() {
    use alien_checkers::repl::table::candidates;
    for seed in 0..3000u64 {
        let mut session = alien_checkers::session::Session::new(&common::repo(), "standard", seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while let Some(d) = session.state().pending(&session.engine) {
            let dirs: Vec<_> = d
                .options
                .iter()
                .filter_map(|o| if let Choice::Answer(Answer::Dir(x)) = o { Some(*x) } else { None })
                .collect();
            if !dirs.is_empty() {
                let frame = Frame { viewer: d.player, orientation: session.state().board.orientation() };
                let all = candidates(&session, "");
                for dir in &dirs {
                    assert!(all.contains(&dir.to_string()), "{dir} in {all:?}");
                    assert!(all.contains(&frame.word(*dir).to_string()), "{} in {all:?}", frame.word(*dir));
                }
                assert!(!all.iter().any(|c| c.len() == 2 && c.as_bytes()[1].is_ascii_digit()), "no squares: {all:?}");
                return;
            }
            let pick = d.options[(rng.next_u32() as usize) % d.options.len()].clone();
            session.apply(&pick).unwrap();
        }
    }
    panic!("no game asks for a direction");
}

/// A lasting effect's question is its owner's, in the middle of the other
/// player's turn (Vengeance, cards/README.md "Triggers"): the panel, the log and
/// the list of who decided name the owner, not the player to move.
#[test]
fn an_effects_question_is_credited_to_its_owner() {
    use alien_checkers::repl::render::{View, panel};
    use alien_checkers::session::Session;
    for seed in 0..400 {
        let mut session = Session::new(&common::repo(), "nightmare", seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while let Some(decision) = session.pending().cloned() {
            let owner = decision.player;
            let pick = &decision.options[(rng.next_u32() as usize) % decision.options.len()];
            if owner == session.state().to_move {
                session.apply(pick).unwrap();
                continue;
            }
            let to_move = session.state().to_move;
            assert_eq!(session.decider(), owner);
            let header = panel(&session, View { viewer: owner, colour: false });
            assert!(header.contains(&format!("{to_move}'s turn; {owner} to answer for ")), "{header}");
            let line = session.apply(pick).unwrap();
            assert!(line.starts_with(&format!("{owner} answers ")), "{line}");
            assert_eq!(session.deciders().last(), Some(owner));
            return;
        }
    }
    panic!("no random nightmare game asked an effect's question in the other player's turn");
}

/// Hot-seat: what a decision did is told on the decider's screen, before it is
/// handed over, so in the decider's frame ("your pawn"), not the next player's.
#[test]
fn hot_seat_tells_a_decision_in_the_deciders_frame() {
    let engine = engine();
    let sideways = Choice::Card(engine.content().card_id("sideways").unwrap());
    for seed in 0..300 {
        let mut state = GameState::new(&engine.content().setup(), seed);
        let mut lines = Vec::new();
        let first_move = state.pending(&engine).unwrap().options[0].clone();
        lines.push(typed(&engine, &state, &first_move));
        state.apply(&engine, &first_move).unwrap();
        if !state.pending(&engine).unwrap().options.contains(&sideways) {
            continue;
        }
        lines.push(typed(&engine, &state, &sideways));
        state.apply(&engine, &sideways).unwrap();
        // Dark moves one of its own checkers sideways.
        let mut moved = None;
        while let Some(d) = state.pending(&engine).filter(|d| d.player == Player::Dark) {
            let own = |c: &Choice| match c {
                Choice::Answer(Answer::Square(sq)) => state.board.checker(*sq).is_some_and(|c| c.owner == Player::Dark),
                _ => false,
            };
            let pick = if moved.is_none() { d.options.iter().find(|c| own(c)) } else { d.options.first() };
            let Some(pick) = pick.cloned() else { break };
            if let (None, Choice::Answer(Answer::Square(sq))) = (moved, &pick) {
                moved = Some(*sq);
            }
            lines.push(typed(&engine, &state, &pick));
            state.apply(&engine, &pick).unwrap();
        }
        let Some(from) = moved.filter(|sq| state.board.checker(*sq).is_none()) else { continue };
        let (out, stderr, ok) = run(
            &["--seed", &seed.to_string(), "--dark", "human", "--light", "human"],
            &(lines.join("\n") + "\nquit\n"),
        );
        assert!(ok, "{stderr}");
        let told = &out[out.find("Dark uses Sideways").expect("Sideways is used")..];
        let told = &told[..told.find("Pass to Light").expect("the screen is handed over")];
        assert!(told.contains(&format!("your pawn on {from} moves")), "seed {seed}: {told}");
        return;
    }
    panic!("no seed lets Dark move its own checker with Sideways on the first turn");
}

/// The REPL's board stays a grid when a cell needs more than four characters
/// (an emperor with a ring and a snookle, marked as changed last turn: `*DDrs`):
/// every cell widens alike.
#[test]
fn the_board_stays_a_grid_when_a_cell_needs_more_room() {
    use alien_checkers::kernel::{Bitboard, Checker, Kind};
    use alien_checkers::repl::render::{Marks, View, board};
    let engine = engine();
    let mut state = GameState::new(&engine.content().setup(), 1);
    let d4 = "d4".parse().unwrap();
    let mut emperor = Checker::new(Player::Dark, Kind::Emperor);
    (emperor.ring, emperor.snookle) = (true, true);
    state.position_mut().board.set_checker(d4, emperor).unwrap();
    for marks in [Bitboard::EMPTY, Bitboard::from_square(d4)] {
        let drawn = board(&state, View { viewer: Player::Dark, colour: false }, &Marks::changed(marks), &[]);
        // The rules and the ranks: all as long as the first rule.
        let grid: Vec<&str> = drawn.lines().filter(|l| l.starts_with("  +") || l.chars().nth(2) == Some('|')).collect();
        assert_eq!(grid.len(), 17, "{drawn}");
        assert!(grid.iter().all(|l| l.chars().count() == grid[0].chars().count()), "{drawn}");
        let cells = if marks.is_empty() { "|DDrs|" } else { "|*DDrs|" };
        assert!(drawn.contains(cells), "{drawn}");
        let rule_cell = if marks.is_empty() { "+----+" } else { "+-----+" };
        assert!(grid[0].contains(rule_cell), "{drawn}");
    }
}

/// A card may name its options like commands or numbers: `answer board` gives
/// "board" (plain `board` still draws the board), and "2" typed is the option
/// named "2" before the second in the list.
#[test]
fn options_named_like_commands_or_numbers_can_be_answered() {
    let picker = "function play(ctx)\n  local opts = { 'board', 'x', '2' }\n  ctx:log('first ' .. ctx:ask_option('Pick', opts))\n  ctx:log('then ' .. ctx:ask_option('Pick again', opts))\nend\n";
    let never = "function check(ctx, player) return false end";
    let root = common::scratch_content("repl-options", &[("picker", picker)], &[("mud", never), ("dust", never)]);
    let root_arg = root.path().display().to_string();
    let input = "c3-d4\npicker\nboard\n2\nanswer board\nquit\n";
    let (out, stderr, ok) = run(&["--root", &root_arg, "--deck", "test", "--seed", "1", "--light", "human"], input);
    assert!(ok, "{stderr}");
    assert!(out.contains("Dark answers 2") && out.contains("\"first 2\""), "{out}");
    assert!(out.contains("Dark answers board") && out.contains("\"then board\""), "{out}");
}

/// A one-letter command gives way to an option of the same name: `q` answers a
/// question offering Q (a queen) instead of quitting, and `Q` too; with no
/// such option it quits as before.
#[test]
fn a_one_letter_command_gives_way_to_an_option_of_that_name() {
    let picker = "function play(ctx)\n  ctx:log('took ' .. ctx:ask_option('Pick a card', { 'Q', 'K' }))\n  ctx:log('then ' .. ctx:ask_option('Pick again', { 'Q', 'K' }))\nend\n";
    let never = "function check(ctx, player) return false end";
    let root = common::scratch_content("repl-q", &[("picker", picker)], &[("mud", never), ("dust", never)]);
    let root_arg = root.path().display().to_string();
    let input = "c3-d4\npicker\nq\nQ\nq\n";
    // Its own folder: quitting leaves an autosave there, which a later game of
    // the deck would offer.
    let cwd = std::env::temp_dir().join(format!("alien-repl-q-{}", std::process::id()));
    std::fs::create_dir_all(&cwd).unwrap();
    let (out, stderr, ok) =
        run_in(&cwd, &["--root", &root_arg, "--deck", "test", "--seed", "1", "--light", "greedy"], input);
    assert!(ok, "{stderr}");
    assert!(out.contains("\"took Q\"") && out.contains("\"then Q\""), "{out}");
    let last = &out[out.rfind("move> q").expect("the last q is typed at a move")..];
    assert!(last.contains("saved the game to"), "the last q, at a move, still quits: {last}");
    let _ = std::fs::remove_dir_all(&cwd);
}

/// A one-line Foresight order may name cards whose names have spaces
/// ("Monolith twice"): the most words that name one card are taken together.
#[test]
fn a_one_line_order_takes_card_names_of_several_words() {
    let input = format!("{}foresight monolith twice keep\nquit\n", "1\n".repeat(7));
    let (out, stderr, ok) = run(&["--seed", "21", "--light", "greedy"], &input);
    assert!(ok, "{stderr}");
    let after = &out[out.find("foresight monolith twice keep").expect("the line is echoed")..];
    assert!(!after.contains("is not an answer"), "{after}");
    assert!(after.contains("the draw pile is put in a new, secret order"), "{after}");
    assert!(after.contains("Monolith twice is turned face up"), "its new top card: {after}");
}

/// `undo n` takes back your last n decisions (in hot-seat, with the other
/// player's that followed them, when they agree); a count that is not one is
/// refused in one line.
#[test]
fn undo_takes_a_count() {
    let input = "c3-d4\nf6-e5\nundo 2\ny\nlog\nundo x\nquit\n";
    let (out, stderr, ok) = run(&["--deck", "plain", "--seed", "4", "--dark", "human", "--light", "human"], input);
    assert!(ok, "{stderr}");
    // Dark's c3-d4 and Light's reply go at once; Dark has nothing more to take back.
    assert_eq!(out.matches("took back 2 decisions").count(), 1, "{out}");
    assert!(out.contains("you have no decision to take back"), "{out}");
    assert!(out.contains("nothing has happened yet"), "{out}");
    assert!(out.contains("'x' is not a count"), "{out}");
}

/// Hot-seat: the player handed the screen is told what the other's decisions
/// did since their own last one (it was told on the other player's screen,
/// which a terminal clears at the hand-over).
#[test]
fn hot_seat_tells_the_player_handed_the_screen_what_happened() {
    let input = "c3-d4\nf6-e5\nquit\n";
    let (out, stderr, ok) = run(&["--deck", "plain", "--seed", "4", "--dark", "human", "--light", "human"], input);
    assert!(ok, "{stderr}");
    // Each handed screen starts with the deck and seed.
    let seed = "deck plain, seed 4 (replay it with --seed 4)\n";
    assert!(
        out.contains(&format!("Pass to Light, press Enter\n{seed}since you last saw the board:\n  Dark moves c3-d4\n")),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "Pass to Dark, press Enter\n{seed}since you last saw the board:\n  Dark moves c3-d4\n  Light moves f6-e5\n"
        )),
        "{out}"
    );
}

/// Issue 38, item 5: the hand-over tells what happened as the other player's
/// turn began, after the player's own last decision (a hand-over clears the
/// screen it was told on): here a drum that sounds as every turn begins.
#[test]
fn a_hand_over_tells_what_began_the_other_players_turn() {
    let drum = "function play(ctx) ctx:add_effect{ lasts = 'game' } end\n\
        function on_turn_began(ctx, event, effect) ctx:log('the drum sounds for ' .. event.player) end\n";
    let never = "function check(ctx, player) return false end";
    let root = common::scratch_content("repl-drum", &[("drum", drum)], &[("mud", never), ("dust", never)]);
    let root_arg = root.path().display().to_string();
    let args = ["--root", &root_arg, "--deck", "test", "--seed", "1", "--dark", "human", "--light", "human"];
    // Each uses the drum after moving; Dark's capture and drum end the input.
    let (out, stderr, ok) = run(&args, "c3-d4\ndrum\nf6-e5\ndrum\n1\n1\nquit\n");
    assert!(ok, "{stderr}");
    // Light's drum ended Light's turn and began Dark's, and the drums sounded:
    // Light is told it at the next hand-over, after Light's own decision.
    let light = out.rfind("Pass to Light, press Enter\n").expect("a second hand-over to Light");
    let told = &out[light..out[light..].find("Light moves:").map_or(out.len(), |i| light + i)];
    let mine = told.find("  Light uses drum\n").expect("Light's own last decision is told");
    assert!(told[mine..].contains("the drum sounds for dark"), "{told}");
}

/// A pair of edges is one answer whichever edge is typed first (Walls).
#[test]
fn a_wall_pair_is_read_either_way_round() {
    use alien_checkers::repl::parse_choice;
    use alien_checkers::session::Session;
    for seed in 0..400 {
        let mut session = Session::new(&common::repo(), "standard", seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while let Some(decision) = session.pending().cloned() {
            if let Some(Choice::Answer(Answer::Edges(pair))) = decision.options.first() {
                let written = pair.to_string();
                let (a, b) = written.split_once('+').expect("a+b");
                let swapped = format!("{b}+{a}");
                assert_eq!(parse_choice(&session, &swapped), Ok(decision.options[0].clone()), "{swapped}");
                assert_eq!(parse_choice(&session, &written), Ok(decision.options[0].clone()), "{written}");
                return;
            }
            let pick = &decision.options[(rng.next_u32() as usize) % decision.options.len()];
            session.apply(pick).unwrap();
        }
    }
    panic!("no random game asked for a pair of edges");
}

/// A 2×2 block has one name everywhere (`c3-d4`, its a1-most square and the
/// one diagonally across): in the decision's line (the panel's `last:`), in
/// what is told live and in the `log`, also on a turned board, whoever decides;
/// and the REPL reads that name back, or the corner drawn lower left.
#[test]
fn a_block_has_one_name_everywhere() {
    use alien_checkers::narrate::block_name;
    use alien_checkers::session::Session;
    for seed in 0..600 {
        let mut session = Session::new(&common::repo(), "standard", seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut lines = Vec::new();
        while let Some(decision) = session.pending().cloned() {
            let pick = decision.options[(rng.next_u32() as usize) % decision.options.len()].clone();
            let block = matches!(&session.state().step, Step::Resolving(r) if r.question.kind == QuestionKind::Block);
            let orientation = session.state().board.orientation();
            if let (true, Choice::Answer(Answer::Square(anchor))) = (block, &pick)
                && orientation.forward(Player::Dark) != alien_checkers::kernel::Dir::N
            {
                let name = block_name(*anchor);
                let line = session.apply(&pick).unwrap();
                assert_eq!(line, format!("{} answers {name}", decision.player));
                // Typed by its name, the binary takes the same answer and says so.
                lines.push(name.clone());
                let (out, stderr, ok) = run(
                    &["--seed", &seed.to_string(), "--dark", "human", "--light", "human"],
                    &(lines.join("\n") + "\nlog\nquit\n"),
                );
                assert!(ok, "{stderr}");
                assert!(out.contains(&format!("{} answers {name}", decision.player)), "seed {seed}: {out}");
                // Told live, in the panel's `last:` line and so on: never by another name.
                assert!(out.matches(&name).count() >= 2, "seed {seed}: {out}");
                let frame = Frame { viewer: decision.player, orientation };
                let corner = frame.block_corner(*anchor).to_string();
                assert!(!out.contains(&format!("answers {corner}")) || corner == name, "seed {seed}: {out}");
                return;
            }
            lines.push(typed(&engine(), session.state(), &pick));
            session.apply(&pick).unwrap();
        }
    }
    panic!("no random game asked for a block on a turned board");
}

/// The file `quit` said it saved the game to.
fn autosaved_to(out: &str) -> String {
    let line = out.lines().find_map(|l| l.strip_prefix("saved the game to ")).unwrap_or_else(|| panic!("{out}"));
    line.split(';').next().unwrap().to_string()
}

/// An autosave never takes the place of another game: a second game of the
/// same seed, of the same deck or another, goes to a file of its own, while
/// the same game played on goes back to its own file.
#[test]
fn an_autosave_never_overwrites_another_game() {
    use alien_checkers::session::read_record;
    let dir = common::scratch_dir("repl", "autosave_names");
    let record = |file: &str| read_record(&dir.join(file)).unwrap_or_else(|e| panic!("{e}"));
    let human = ["--seed", "7", "--dark", "human", "--light", "human"];
    let first = autosaved_to(&run_in(&dir, &human, "c3-d4\nquit\n").0);
    assert_eq!(first, "alien-checkers-autosave-7.json");
    // Another game of the same deal.
    let second = autosaved_to(&run_in(&dir, &human, "e3-f4\nquit\n").0);
    // The same seed on another deck.
    let plain = [&["--deck", "plain"][..], &human].concat();
    let third = autosaved_to(&run_in(&dir, &plain, "a3-b4\nquit\n").0);
    assert!(third.contains("plain"), "the deck is in the name: {third}");
    let files = [&first, &second, &third];
    for (i, (file, (deck, decision))) in
        files.iter().zip([("standard", "c3-d4"), ("standard", "e3-f4"), ("plain", "a3-b4")]).enumerate()
    {
        assert!(!files[..i].contains(file), "{files:?}");
        let saved = record(file);
        assert_eq!((saved.deck.as_str(), saved.decisions.as_slice()), (deck, &[decision.to_string()][..]), "{file}");
    }
    // The first game continued and left again: back to its own file.
    let (out, _, _) = run_in(&dir, &["--load", &first], "1\nquit\n");
    assert_eq!(autosaved_to(&out), first, "{out}");
    assert_eq!(record(&first).decisions.len(), 2);
    assert_eq!(record(&second).decisions, ["e3-f4"]);
}

/// Starting a game where an unfinished game of the same deck was autosaved
/// says so, with the command that continues it (on standard error, so that
/// the game's own output does not depend on the folder); a game of another
/// deck is not offered.
#[test]
fn starting_offers_an_unfinished_autosave_of_the_deck() {
    let dir = common::scratch_dir("repl", "autosave_offer");
    let (out, _, _) = run_in(&dir, &["--seed", "7", "--light", "human"], "c3-d4\nquit\n");
    let file = autosaved_to(&out);
    let (_, said, _) = run_in(&dir, &["--seed", "8", "--light", "human"], "quit\n");
    let offer = said.lines().find(|l| l.contains("unfinished")).unwrap_or_else(|| panic!("no offer: {said}"));
    assert!(offer.contains(&format!("alien-checkers --load {file}")), "{offer}");
    let (out, said, _) = run_in(&dir, &["--deck", "plain", "--seed", "8", "--light", "human"], "quit\n");
    assert!(!said.contains(&file) && !out.contains(&file), "another deck's game is not offered: {said}");
}

/// Issue 38, item 14: a game continued from its autosave and then finished
/// (here resigned) leaves the autosave holding the finished game, so starting
/// again offers nothing; `quit!` leaves without saving.
#[test]
fn a_finished_autosave_is_not_offered_again_and_quit_bang_saves_nothing() {
    let dir = common::scratch_dir("repl", "autosave_finished");
    let (out, _, _) = run_in(&dir, &["--seed", "7", "--light", "human"], "c3-d4\nquit\n");
    let file = autosaved_to(&out);
    let (out, stderr, ok) = run_in(&dir, &["--load", &file], "resign\ny\nquit\n");
    assert!(ok, "{stderr}");
    assert!(out.contains(&format!("(the autosave {file} now holds the finished game)")), "{out}");
    let (_, said, _) = run_in(&dir, &["--seed", "8", "--light", "human"], "c3-d4\nquit!\n");
    assert!(!said.contains("unfinished"), "a finished game is not offered: {said}");
    let saves =
        std::fs::read_dir(&dir).unwrap().flatten().filter(|e| e.file_name().to_string_lossy().ends_with(".json"));
    assert_eq!(saves.count(), 1, "quit! saved nothing");
}

/// An autosave's name is whatever a file in the folder is called: the offer
/// shows it made visible, and the command that continues it quotes it as a
/// shell word (a name that is not plain in single quotes, `'\''` for a quote).
#[test]
fn an_autosaves_name_is_shown_escaped_and_its_command_quoted() {
    let dir = common::scratch_dir("repl", "autosave_name");
    let (out, _, _) = run_in(&dir, &["--seed", "7", "--light", "human"], "c3-d4\nquit\n");
    let file = autosaved_to(&out);
    let planted = "alien-checkers-autosave-\x1b[2J\u{202e}it's $(x).json";
    std::fs::rename(dir.join(&file), dir.join(planted)).unwrap();
    let (_, said, _) = run_in(&dir, &["--seed", "8", "--light", "human"], "quit\n");
    for c in ['\x1b', '\u{202e}'] {
        assert!(!said.contains(c), "U+{:04X} reached the terminal: {said}", c as u32);
    }
    let offer = said.lines().find(|l| l.contains("unfinished")).unwrap_or_else(|| panic!("no offer: {said}"));
    let shown = "alien-checkers-autosave-\\x1b[2J\\u{202e}it's $(x).json";
    assert!(offer.contains(&format!("saved in {shown} (seed 7")), "{offer}");
    let quoted = r"'alien-checkers-autosave-\x1b[2J\u{202e}it'\''s $(x).json'";
    assert!(offer.ends_with(&format!("continue it with: alien-checkers --load {quoted}")), "{offer}");
}

/// `save FILE` over a file that holds another game (or is no save at all)
/// asks first; piped, nobody can answer, so it refuses and says how to insist
/// (`save! FILE`). The same game played on is saved over silently.
#[test]
fn save_over_another_game_is_refused_when_piped_unless_insisted() {
    use alien_checkers::session::read_record;
    let dir = common::scratch_dir("repl", "save_over");
    let seed = |file: &str| read_record(&dir.join(file)).unwrap_or_else(|e| panic!("{e}")).seed;
    let humans = |seed: &'static str| ["--seed", seed, "--dark", "human", "--light", "human"];
    let (out, _, _) = run_in(&dir, &humans("1"), "c3-d4\nsave g.json\nquit\n");
    assert!(out.contains("saved 1 decisions to g.json"), "{out}");
    std::fs::write(dir.join("notes.txt"), "my notes").unwrap();
    let (out, _, _) = run_in(&dir, &humans("2"), "c3-d4\nsave g.json\nsave notes.txt\nquit\n");
    assert!(out.contains("save! g.json") && out.contains("save! notes.txt"), "how to insist is said: {out}");
    assert_eq!(seed("g.json"), 1, "the other game is kept: {out}");
    assert_eq!(std::fs::read_to_string(dir.join("notes.txt")).unwrap(), "my notes");
    let (out, _, _) = run_in(&dir, &humans("2"), "c3-d4\nsave! g.json\nquit\n");
    assert!(out.contains("saved 1 decisions to g.json"), "{out}");
    assert_eq!(seed("g.json"), 2);
    // The same game, played on: no question.
    let (out, _, _) = run_in(&dir, &["--load", "g.json"], "1\nsave g.json\nquit\n");
    assert!(out.contains("saved 2 decisions to g.json") && !out.contains("save!"), "{out}");
}

/// A move typed as two squares run together (`c3d4`) is read as the move from
/// one to the other, and a card by the start of its name (`second` for Second
/// move) when only one face-up card starts so.
#[test]
fn a_move_without_its_dash_and_a_card_by_the_start_of_its_name_are_read() {
    use alien_checkers::repl::parse_choice;
    let mut session = alien_checkers::session::Session::new(&common::repo(), "standard", 1).unwrap();
    let typed = parse_choice(&session, "c3d4").unwrap();
    assert_eq!(typed, parse_choice(&session, "c3-d4").unwrap());
    assert!(parse_choice(&session, "c3c4").is_err(), "not a legal move");
    let mut rng = 7u64;
    let second = session.engine.content().card_id("second_move").unwrap();
    for _ in 0..4000 {
        let Some(decision) = session.pending() else { break };
        if decision.options.contains(&Choice::Card(second)) {
            let others_start_so = decision.options.iter().any(|o| {
                matches!(o, Choice::Card(c) if *c != second && session.engine.content().card(*c).unwrap().id.starts_with("second"))
            });
            if !others_start_so {
                assert_eq!(parse_choice(&session, "second"), Ok(Choice::Card(second)));
                assert_eq!(parse_choice(&session, "Second M"), Ok(Choice::Card(second)));
                return;
            }
        }
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let pick = decision.options[(rng >> 33) as usize % decision.options.len()].clone();
        if session.apply(&pick).is_err() || session.pending().is_none() {
            session.new_game(rng);
        }
    }
    panic!("no game offered Second move");
}

/// A draughts deck is played at the table like any other: its sides named at
/// the start, its moves listed and played.
#[test]
fn a_draughts_deck_plays_at_the_table() {
    let (out, err, ok) = run(&["--deck", "russian", "--seed", "4", "--light", "random"], "c3-d4\nquit\n");
    assert!(ok, "{err}");
    assert!(out.contains("White: human, Black: random.") && out.contains("White moves first."), "{out}");
    assert!(out.contains("White moves c3-d4"), "{out}");
    // Turkish checkers step sideways and forward along ranks and files.
    let (out, err, ok) = run(&["--deck", "turkish", "--seed", "4", "--light", "random"], "a3-a4\nquit\n");
    assert!(ok, "{err}");
    assert!(out.contains("1. a3-a4") && out.contains("White moves a3-a4"), "{out}");
}

/// The squares of the first board drawn in `out`, by what each cell shows:
/// (squares with a dot, squares with a checker). Rank 8 is drawn first, file a
/// at the left (Dark's view, the board not turned).
fn drawn_squares(out: &str) -> (Vec<String>, Vec<String>) {
    let rows: Vec<&str> = out.lines().filter(|l| l.chars().nth(2) == Some('|')).take(8).collect();
    assert_eq!(rows.len(), 8, "a board is drawn: {out}");
    let (mut dots, mut checkers) = (Vec::new(), Vec::new());
    for (i, row) in rows.iter().enumerate() {
        let rank = 8 - i;
        assert!(row.starts_with(&rank.to_string()), "{row}");
        for (file, cell) in row.split('|').skip(1).take(8).enumerate() {
            let name = format!("{}{rank}", (b'a' + file as u8) as char);
            match cell.trim() {
                "" => {}
                "." => dots.push(name),
                _ => checkers.push(name),
            }
        }
    }
    (dots, checkers)
}

/// R1.1's dark squares (`a1` is dark) when `dark`, else the light ones.
fn squares_of_colour(dark: bool) -> Vec<String> {
    let mut out = Vec::new();
    for rank in (1..=8).rev() {
        for file in 0..8u8 {
            if ((file as usize + rank) % 2 == 1) == dark {
                out.push(format!("{}{rank}", (b'a' + file) as char));
            }
        }
    }
    out
}

/// Issue 38, item 2: the board dots the squares the deck plays on. Italian
/// draughts plays on the squares R1.1 calls light (its start says so): every
/// one of them is drawn with a checker or a dot, and no other square is; the
/// standard deck still dots its empty dark squares.
#[test]
fn the_board_dots_the_squares_the_deck_plays_on() {
    for (deck, dark) in [("italian", false), ("russian", true), ("standard", true)] {
        let (out, err, ok) = run(&["--deck", deck, "--seed", "4", "--light", "random"], "quit\n");
        assert!(ok, "{err}");
        let (mut dots, checkers) = drawn_squares(&out);
        assert!(dots.iter().all(|sq| !checkers.contains(sq)));
        dots.extend(checkers);
        let mut expected = squares_of_colour(dark);
        dots.sort();
        expected.sort();
        assert_eq!(dots, expected, "{deck}: the drawn playing squares\n{out}");
    }
}

/// Issue 38, item 4: a draughts deck's own names are used at the table. A
/// Russian game played to its end in the deck's notation (captures with `:`)
/// is told with White and Black, men and kings, and its end line names the
/// winner so; nothing calls a side Dark or Light.
#[test]
fn a_russian_game_is_told_in_the_decks_names_to_its_end() {
    let engine = ScriptEngine::load(&common::repo(), "russian").unwrap();
    let content = engine.content();
    let (seed, lines, winner) = (0..200u64)
        .find_map(|seed| {
            let mut state = GameState::new(&content.setup(), seed);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut lines = Vec::new();
            while let Some(d) = state.pending(&engine) {
                let pick = d.options[(rng.next_u32() as usize) % d.options.len()].clone();
                let Choice::Move(m) = &pick else { panic!("a draughts deck asks only for moves") };
                lines.push(content.move_name(m));
                state.apply(&engine, &pick).unwrap();
            }
            let winner = state.outcome().unwrap().winner?;
            // A game with a multiple capture, written with colons.
            lines.iter().any(|l| l.matches(':').count() >= 2).then_some((seed, lines, winner))
        })
        .expect("a random Russian game with a winner and a double capture");
    let seed = seed.to_string();
    let input = lines.join("\n") + "\nlog\nquit\n";
    let (out, err, ok) = run(&["--deck", "russian", "--seed", &seed, "--dark", "human", "--light", "human"], &input);
    assert!(ok, "{err}");
    let name = if winner == Player::Dark { "White" } else { "Black" };
    assert!(out.contains(&format!("\n{name} wins: ")), "the end line names the deck's side: {out}");
    assert!(!out.contains(" is not a legal move") && !out.contains("is not a move"), "every move is read: {out}");
    let double = lines.iter().find(|l| l.matches(':').count() >= 2).unwrap();
    assert!(out.contains(&format!(" moves {double}\n")), "a capture is told in the deck's notation: {out}");
    assert!(out.contains("Black's man on ") || out.contains("White's man on "), "{out}");
    assert!(out.contains("White move> ") && out.contains("Pass to Black"), "{out}");
    assert!(out.contains("Move 1 of 100: White to move a checker"), "{out}");
    for table_word in ["Dark", "Light", "pawn"] {
        assert!(!out.contains(table_word), "'{table_word}' is not the deck's word: {out}");
    }
}

/// Issue 38, item 4: on a numbered deck the moves listed are typed as
/// listed: Italian's `22-18` is played, and told, as `22-18`; the board's
/// names (`d3-c4`) are read too.
#[test]
fn numbered_moves_are_read_as_listed() {
    let (out, err, ok) = run(&["--deck", "italian", "--seed", "4", "--light", "human"], "moves\n22-18\nc6-d5\nquit\n");
    assert!(ok, "{err}");
    assert!(out.contains("3. 22-18"), "the move is listed numbered: {out}");
    assert!(out.contains("White moves 22-18\n"), "and played as typed: {out}");
    // Black's c6-d5 by the board's names is 10-14 in the deck's.
    assert!(out.contains("Black moves 10-14\n"), "{out}");
    assert!(out.contains("1. 22-18"), "the record is numbered: {out}");
}

/// Hot-seat `undo` takes back the decisions of the player at the keyboard, not
/// the other's; when taking back one's own also takes back the other's later
/// decisions, the other is told when they next take the screen.
#[test]
fn hot_seat_undo_takes_back_only_your_own_and_asks_the_other() {
    let args = ["--seed", "3", "--dark", "human", "--light", "human"];
    let (out, err, ok) = run(&args, "c3-d4\n1\nundo\nb6-a5\n1\nundo\ny\n1\nquit\n");
    assert!(ok, "{err}");
    // Light has decided nothing yet: Dark's card is not taken back.
    let light_undo = out.find("Light move> undo").expect("Light types undo");
    assert!(out[light_undo..].starts_with("Light move> undo\nyou have no decision to take back"), "{out}");
    // Dark asks to take back its card, and with it Light's move and card;
    // Light agrees (issue 38, item 17).
    let asked = out.find("Dark asks to take back a decision, and with it these of Light's:\n").expect("Light is asked");
    assert!(
        out[asked..].contains("  Light moves b6-a5\n  Light uses Emperor\nLight, do you agree? [y/N] y\n"),
        "{out}"
    );
    assert!(out[asked..].contains("took back 3 decisions\n"), "{out}");
    // Refused, nothing is taken back.
    let (out, err, ok) = run(&args, "c3-d4\n1\nb6-a5\n1\nundo\nn\nquit\n");
    assert!(ok, "{err}");
    assert!(out.contains("Light, do you agree? [y/N] n\nLight does not agree; nothing was taken back\n"), "{out}");
    assert!(!out.contains("took back"), "{out}");
}

/// The last move is marked on the board and the legend says how (`[ ]` when
/// the output has no colour); `log N` shows the board as move N began; lines
/// are wrapped to the terminal's width (`COLUMNS` when output is piped).
#[test]
fn the_last_move_is_marked_and_log_shows_any_move_and_lines_fit_the_width() {
    let dir = common::scratch_dir("repl", "screen");
    let args = ["--deck", "plain", "--seed", "1", "--dark", "human", "--light", "human"];
    let run = common::run_binary(&dir, &args, &[("COLUMNS", "60")], "c3-d4\nf6-e5\nlog 2\nlog 9\nlog x\nquit\n");
    assert!(run.success, "{}", run.stderr);
    let out = run.stdout;
    let after = &out[out.find("Light move> f6-e5").expect("Light moves")..];
    assert!(after.contains("[l]") && after.contains("[.]"), "the move's start and end are marked: {after}");
    assert!(after.contains("[ ] the last move"), "{after}");
    let board_line = |l: &str| l.starts_with("  +") || l.chars().nth(2) == Some('|') || l.starts_with("    a");
    let play = &out[out.find("Pass to Dark").unwrap()..out.find("> quit").unwrap()];
    assert!(play.lines().filter(|l| !board_line(l)).all(|l| l.chars().count() <= 60), "{play}");
    assert!(out.contains("the board as move 2 began:"), "{out}");
    assert!(out.contains("there is no move 9 yet"), "{out}");
    assert!(out.contains("'x' is not a move number"), "{out}");
    // With room, the recent moves stand beside the board.
    let wide = common::run_binary(&dir, &args, &[("COLUMNS", "100")], "c3-d4\nf6-e5\nquit\n");
    assert!(wide.stdout.lines().any(|l| l.chars().nth(2) == Some('|') && l.ends_with("1. c3-d4")), "{}", wide.stdout);
}

/// A multi-jump's captures are told in the order the checker jumps them,
/// whichever way it goes.
#[test]
fn captures_are_told_in_the_order_jumped() {
    use alien_checkers::session::Session;
    let mut downward = false;
    for seed in 0..400 {
        let mut session = Session::new(&common::repo(), "plain", seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while let Some(decision) = session.pending().cloned() {
            let pick = decision.options[(rng.next_u32() as usize) % decision.options.len()].clone();
            session.apply(&pick).unwrap();
            let Choice::Move(m) = &pick else { continue };
            if m.captured().count() < 2 {
                continue;
            }
            let told: Vec<String> = session
                .told(session.decisions().len() - 1, decision.player)
                .into_iter()
                .filter(|l| l.ends_with("is captured"))
                .collect();
            let expected: Vec<String> = m.captured_in_order().iter().map(|s| format!("on {s} is captured")).collect();
            assert_eq!(told.len(), expected.len(), "{told:?}");
            assert!(told.iter().zip(&expected).all(|(t, e)| t.ends_with(e.as_str())), "{m}: {told:?}");
            let order: Vec<_> = m.captured_in_order().to_vec();
            downward |= order.windows(2).any(|w| w[0] > w[1]);
        }
        if downward {
            return;
        }
    }
    panic!("no random game had a multi-jump going down the board");
}

/// Walls is answered by naming squares on the drawn board, not from a list of
/// hundreds: every spot reads back from the words shown for it, and the prompt
/// says how to name one in a few lines.
#[test]
fn wall_spots_are_named_by_squares_as_drawn() {
    use alien_checkers::repl::{parse_choice, render};
    use alien_checkers::session::Session;
    for seed in 0..800 {
        let mut session = Session::new(&common::repo(), "standard", seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while let Some(decision) = session.pending().cloned() {
            if matches!(&session.state().step, Step::Resolving(r) if r.question.kind == QuestionKind::Edges) {
                let shown = render::options(&session);
                assert!(shown.lines().count() <= 3 && !shown.contains("294."), "{shown}");
                assert!(shown.contains("a square and a corner as drawn"), "{shown}");
                for option in &decision.options {
                    let text = render::option_text(&session, option);
                    assert_eq!(parse_choice(&session, &text).as_ref(), Ok(option), "{text}");
                }
                return;
            }
            let pick = decision.options[(rng.next_u32() as usize) % decision.options.len()].clone();
            session.apply(&pick).unwrap();
        }
    }
    panic!("no random game asked where to put walls");
}

/// Monolith twice asks for its second push on a board that shows the first.
#[test]
fn monolith_twice_shows_its_first_push_before_the_second() {
    use alien_checkers::repl::render::shown_state;
    use alien_checkers::session::Session;
    for seed in 0..1500 {
        let mut session = Session::new(&common::repo(), "standard", seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while let Some(decision) = session.pending().cloned() {
            if matches!(&session.state().step, Step::Resolving(r) if r.question.prompt.contains("move 2 of 2")) {
                let shown = shown_state(&session);
                assert_ne!(shown.board, session.state().board, "the first push is shown");
                assert_ne!(shown.board.monolith_block(), session.state().board.monolith_block());
                return;
            }
            let pick = decision.options[(rng.next_u32() as usize) % decision.options.len()].clone();
            session.apply(&pick).unwrap();
        }
    }
    panic!("no random game asked for Monolith twice's second push");
}

/// Issue 38, item 10: a card and its answers on one line, where the game
/// answers a question by itself (Fire, with no water to dry, only burns): the
/// word typed for that question is passed over and the rest answer on.
#[test]
fn a_line_of_answers_passes_over_a_question_answered_for_you() {
    let (out, stderr, ok) =
        run(&["--seed", "43", "--dark", "human", "--light", "human"], "c3-d4\nfire burn d5\nquit\nn\n");
    assert!(ok, "{stderr}");
    assert!(out.contains("'burn' was answered for you"), "{out}");
    assert!(out.contains("fire fills d5"), "{out}");
    assert!(!out.contains("not an answer here"), "{out}");
}

/// Issue 38, item 13: a wall spot has one name for each player: as typed in
/// play, on the panel's last actions and in the hand-over's summary, in the
/// reader's frame (Light sits across the board), never the edges' pair form.
#[test]
fn a_wall_spot_is_named_as_typed_on_the_panel_and_in_the_hand_over() {
    let input = "c3-d4\nwalls\nplace\nc5 d5 up\nquit!\n";
    let (out, stderr, ok) = run(&["--seed", "1", "--dark", "human", "--light", "human"], input);
    assert!(ok, "{stderr}");
    assert!(out.contains("Dark answers c5 d5 up\n"), "{out}");
    let light = out.find("Pass to Light").expect("handed to Light");
    assert!(out[light..].contains("  Dark answers d6 c6 up\n"), "{out}");
    assert!(
        out[light..].contains("last: Dark moves c3-d4; Dark uses Walls; Dark answers place; Dark answers d6 c6 up"),
        "{out}"
    );
    assert!(!out.contains("c5/c6+d5/d6"), "{out}");
}
