//! Determinism as a tested property: the same seed and
//! decisions give the same state digest and the same event log (the session's
//! log) in a fresh process, after save and load, and after `reload` with
//! unchanged scripts. Fresh processes differ in everything that must not matter:
//! hash-map seeds, Lua's string-hash seed, the address space (ASLR), the clock,
//! the time zone and the locale.

use std::path::{Path, PathBuf};

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use alien_checkers::game::{Choice, Step};
use alien_checkers::kernel::Player;
use alien_checkers::session::{Session, read_record};

use crate::common;
use common::repo;

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir("determinism", name)
}

/// How a player types a choice at the REPL: the move, the card's id, the answer
/// as the REPL shows it (directions and blocks as the board is drawn).
fn typed(session: &Session, choice: &Choice) -> String {
    match choice {
        Choice::Move(m) => m.to_string(),
        Choice::Card(c) => session.engine.content().card(*c).unwrap().id.clone(),
        Choice::Answer(_) => alien_checkers::repl::render::option_text(session, choice),
        Choice::GiveUp => alien_checkers::game::GIVE_UP.to_string(),
    }
}

/// A whole random game of `deck` with `seed`, and the lines a player types for it.
fn random_game(deck: &str, seed: u64) -> (Session, Vec<String>) {
    let mut session = Session::new(&repo(), deck, seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xd1ce);
    let mut lines = Vec::new();
    while let Some(decision) = session.state().pending(&session.engine) {
        let pick = decision.options[rng.next_u32() as usize % decision.options.len()].clone();
        lines.push(typed(&session, &pick));
        session.apply(&pick).unwrap_or_else(|e| panic!("{deck} seed {seed}: {pick}: {e}"));
    }
    (session, lines)
}

/// Runs the binary in `dir` with `args` and extra environment, feeding `input`;
/// it must succeed.
fn run(dir: &Path, args: &[&str], env: &[(&str, &str)], input: &str) -> String {
    let run = common::run_binary(dir, args, env, input);
    assert!(run.success, "{}", run.stderr);
    run.stdout
}

/// The record (`  1. c3-d4 f6-e5` and the card lines under it) printed by the
/// last `log`, without the lines only its reader sees (their own secret answers).
fn printed_log(out: &str) -> String {
    let after = out.rsplit_once("> log\n").map_or(out, |(_, rest)| rest);
    after
        .lines()
        .take_while(|l| !l.starts_with("digest ") && !l.contains("> "))
        .filter(|l| !l.starts_with("  your secret answers"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The record `log` prints for a session played hot-seat: in the frame of the
/// player the screen is with (the one to decide, as the REPL's view); `replay`
/// prints it neutral.
fn record(session: &Session) -> String {
    alien_checkers::narrate::record_text(&session.turns(Some(session.decider())))
}

/// The digest printed by the last `digest` (16 hex digits).
fn printed_digest(out: &str) -> String {
    let line = out.lines().rev().find(|l| l.starts_with("digest ")).unwrap_or_else(|| panic!("no digest in:\n{out}"));
    line.split_whitespace().nth(1).unwrap().to_string()
}

fn hex(digest: u64) -> String {
    format!("{digest:016x}")
}

/// Two places to start a process from: the repository, and a folder without
/// content (the binary then finds the content it was built from).
fn places() -> [PathBuf; 2] {
    [PathBuf::from(env!("CARGO_MANIFEST_DIR")), std::env::temp_dir()]
}

#[test]
fn the_same_seed_and_decisions_give_the_same_game_in_fresh_processes() {
    let dir = scratch("fresh");
    for (deck, seed) in
        [("standard", 3), ("standard", 11), ("standard", 2024), ("monolith_mayhem", 7), ("nightmare", 5)]
    {
        let (session, lines) = random_game(deck, seed);
        let seed_text = seed.to_string();
        let args = ["--deck", deck, "--seed", &seed_text, "--dark", "human", "--light", "human"];
        let save = dir.join(format!("{deck}-{seed}.json"));
        let input = format!("{}\nlog\ndigest\nsave {}\nquit\n", lines.join("\n"), save.display());
        // Two processes that differ in time zone, locale and working folder.
        let [here, elsewhere] = places();
        let first = run(&here, &args, &[("TZ", "UTC"), ("LC_ALL", "C")], &input);
        let saved = std::fs::read_to_string(&save).unwrap();
        let second = run(&elsewhere, &args, &[("TZ", "Pacific/Chatham"), ("LC_ALL", "tr_TR.UTF-8")], &input);
        assert!(first == second, "{deck} seed {seed}: two processes printed different games");
        assert_eq!(std::fs::read_to_string(&save).unwrap(), saved, "{deck} seed {seed}: the saves differ");

        // Both agree with this process: the event log, the digest, the save itself.
        assert_eq!(printed_log(&first), record(&session), "{deck} seed {seed}: the log differs");
        assert_eq!(printed_digest(&first), hex(session.digest()), "{deck} seed {seed}");
        let seats = [Player::Dark, Player::Light].into_iter().map(|p| (p, "human".to_string())).collect();
        assert_eq!(saved, session.record(seats).to_json(), "{deck} seed {seed}: the save text differs");

        // A third process replays the save to the same log and digest.
        let replayed = run(&here, &["replay", &save.display().to_string()], &[], "");
        assert_eq!(printed_digest(&replayed), hex(session.digest()), "{deck} seed {seed}");
        let neutral = alien_checkers::narrate::record_text(&session.turns(None));
        assert!(replayed.contains(&neutral), "{deck} seed {seed}: the replayed log differs");
    }
}

#[test]
fn games_between_computer_players_are_the_same_in_fresh_processes() {
    for (dark, light, seed) in [("greedy", "random", "5"), ("random", "greedy", "77")] {
        let args = ["--seed", seed, "--dark", dark, "--light", light];
        let [here, elsewhere] = places();
        let first = run(&here, &args, &[("TZ", "UTC")], "log\ndigest\nquit\n");
        let second = run(&elsewhere, &args, &[("TZ", "Asia/Kathmandu")], "log\ndigest\nquit\n");
        assert!(printed_log(&first).lines().count() > 10, "the computers played a game:\n{first}");
        assert!(first == second, "{dark} v {light}, seed {seed}: two processes played different games");
    }
}

#[test]
fn save_and_load_keep_the_digest_and_the_log() {
    let dir = scratch("save_load");
    for seed in [8, 9] {
        let (session, _) = random_game("standard", seed);
        // Save partway through as well as at the end: undo back to the middle.
        let mut middle = Session::new(&repo(), "standard", seed).unwrap();
        for choice in session.decisions().take(session.history().len() / 2) {
            middle.apply(choice).unwrap();
        }
        for (name, game) in [("end", &session), ("middle", &middle)] {
            let path = dir.join(format!("{seed}-{name}.json"));
            game.save(&path, Default::default()).unwrap();
            let (loaded, replay, _) = Session::load(&repo(), &path).unwrap();
            assert!(replay.changed.is_empty() && replay.same_game(), "{replay:?}");
            assert_eq!(loaded.digest(), game.digest(), "seed {seed} {name}");
            assert_eq!(loaded.log().collect::<Vec<_>>(), game.log().collect::<Vec<_>>());
            assert_eq!(loaded.record(Default::default()), read_record(&path).unwrap());
            // And in a fresh process.
            // (The save names no seats: both human, so that no computer plays on.)
            let load = ["--load", &path.display().to_string(), "--dark", "human", "--light", "human"];
            let out = run(&places()[1], &load, &[], "log\ndigest\nquit\n");
            assert_eq!(printed_digest(&out), hex(game.digest()), "seed {seed} {name}");
            assert_eq!(printed_log(&out), record(game));
        }
    }
}

/// a game saved while a trigger's question waits (Vengeance asks its
/// owner in the opponent's turn) loads, in this process and a fresh one, to the
/// same state, the same question and the same game played on.
#[test]
fn a_save_made_while_a_trigger_asks_loads_to_the_same_question_and_game() {
    let dir = scratch("trigger_question");
    let asking = |s: &Session| matches!(&s.state().step, Step::Resolving(r) if r.reaction.is_some());
    let (seed, whole, at) = (0..400)
        .find_map(|seed| {
            let (whole, _) = random_game("nightmare", seed);
            let mut replay = Session::new(&repo(), "nightmare", seed).unwrap();
            let at = whole.decisions().enumerate().find_map(|(i, choice)| {
                replay.apply(choice).unwrap();
                asking(&replay).then_some(i + 1)
            });
            at.map(|at| (seed, whole, at))
        })
        .expect("some random nightmare game reaches a trigger's question");
    let mut middle = Session::new(&repo(), "nightmare", seed).unwrap();
    for choice in whole.decisions().take(at) {
        middle.apply(choice).unwrap();
    }
    assert!(!middle.state().effects.is_empty());
    let path = dir.join("asking.json");
    middle.save(&path, Default::default()).unwrap();
    let (mut loaded, replay, _) = Session::load(&repo(), &path).unwrap();
    assert!(replay.changed.is_empty() && replay.same_game(), "{replay:?}");
    assert!(asking(&loaded), "seed {seed}: the loaded game waits on the trigger's question");
    assert_eq!(loaded.state().pending(&loaded.engine), middle.state().pending(&middle.engine));
    for choice in whole.decisions().skip(at) {
        loaded.apply(choice).unwrap_or_else(|e| panic!("seed {seed}: {choice}: {e}"));
    }
    assert_eq!(loaded.digest(), whole.digest(), "seed {seed}: the loaded game played on differently");
    let load = ["--load", &path.display().to_string(), "--dark", "human", "--light", "human"];
    let out = run(&places()[1], &load, &[], "digest\nquit\n");
    assert_eq!(printed_digest(&out), hex(middle.digest()), "seed {seed}");
}

#[test]
fn reload_with_unchanged_scripts_keeps_the_digest_and_the_log() {
    let (mut session, lines) = random_game("standard", 31);
    let (digest, log) = (session.digest(), session.log().map(str::to_string).collect::<Vec<_>>());
    let printed = record(&session);
    for _ in 0..2 {
        let replay = session.reload().unwrap();
        assert!(replay.changed.is_empty() && replay.same_game(), "{replay:?}");
        assert_eq!(session.digest(), digest);
        assert_eq!(session.log().collect::<Vec<_>>(), log);
    }
    // In a fresh process, halfway through the game and at its end.
    let half = lines.len() / 2;
    let input = format!(
        "{}\ndigest\nreload\ndigest\n{}\nreload\nlog\ndigest\nquit\n",
        lines[..half].join("\n"),
        lines[half..].join("\n")
    );
    let out = run(&places()[0], &["--seed", "31", "--dark", "human", "--light", "human"], &[], &input);
    let digests: Vec<&str> = out.lines().filter(|l| l.starts_with("digest ")).collect();
    assert_eq!(digests.len(), 3, "{out}");
    assert_eq!(digests[0], digests[1], "reload changed the game halfway");
    assert_eq!(printed_digest(&out), hex(digest));
    assert_eq!(printed_log(&out), printed);
    assert_eq!(out.matches("no script or manifest changed").count(), 2, "{out}");
}

#[test]
fn two_engines_in_one_process_play_the_same_game() {
    // Each engine has its own Lua state (its own string-hash seed and addresses);
    // the second is made after the first has run a whole game.
    let (first, _) = random_game("standard", 404);
    let mut second = Session::new(&repo(), "standard", 404).unwrap();
    let mut expected = Session::new(&repo(), "standard", 404).unwrap();
    for choice in first.decisions() {
        expected.apply(choice).unwrap();
        second.apply(choice).unwrap();
        assert_eq!(second.digest(), expected.digest());
    }
    assert_eq!(second.digest(), first.digest());
    assert_eq!(second.log().collect::<Vec<_>>(), first.log().collect::<Vec<_>>());
}
