//! `simulate`: the report depends on the plan only, not on the number of
//! worker threads or on how the games are split into shards; it counts what it
//! claims to count; an interrupted run's partial report merges with the rest;
//! each game's record plays back.

use std::path::PathBuf;

use alien_checkers::content::ContentRoot;
use alien_checkers::simulate::{self, GameRow, Plan, Report, Sinks, merge, read_report, read_row, run, table};

fn plan(a: &str, b: &str, games: u32, seed: u64, threads: usize) -> Plan {
    let mut plan = Plan::new(ContentRoot::new(env!("CARGO_MANIFEST_DIR")), "standard", a, b, games, seed);
    plan.threads = threads;
    plan
}

/// The report with its rows, `--games-out` style.
fn run_with_rows(plan: &Plan) -> (Report, Vec<GameRow>) {
    let mut rows = Vec::new();
    let report = run(plan, Sinks { rows: Some(&mut rows), ..Sinks::none() }).unwrap();
    let text = String::from_utf8(rows).unwrap();
    (report, text.lines().map(|l| read_row(l).unwrap()).collect())
}

/// What must be equal between two reports of the same games: the counts and
/// every figure, byte for byte (the metadata differs in time and threads).
fn same_games(a: &Report, b: &Report) {
    let figures = |r: &Report| {
        let mut v: serde_json::Value = serde_json::from_str(&r.to_json(None)).unwrap();
        v.as_object_mut().unwrap().remove("meta");
        serde_json::to_string(&v).unwrap()
    };
    assert_eq!(figures(a), figures(b));
    assert_eq!(a.meta.played, b.meta.played);
    // The table too, but for its timing-free header it is all counts.
    assert_eq!(table(a), table(b));
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ac-simulate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn same_seed_same_report_on_any_number_of_threads() {
    let (one, rows_one) = run_with_rows(&plan("greedy", "random", 12, 5, 1));
    let (two, rows_two) = run_with_rows(&plan("greedy", "random", 12, 5, 2));
    same_games(&one, &two);
    assert_eq!(rows_one, rows_two, "the per-game rows are written in game order");
    let other = run(&plan("greedy", "random", 12, 6, 2), Sinks::none()).unwrap();
    assert_ne!(one.counts, other.counts, "the seed matters");
}

#[test]
fn the_report_adds_up() {
    let mut seen = Vec::new();
    let mut rows = Vec::new();
    let mut progress = |done, total| seen.push((done, total));
    let sinks = Sinks { progress: Some(&mut progress), rows: Some(&mut rows), ..Sinks::none() };
    let r = run(&plan("greedy", "random", 13, 9, 2), sinks).unwrap();
    assert_eq!(seen.last(), Some(&(13, 13)), "progress reaches the end");
    let rows: Vec<GameRow> = String::from_utf8(rows).unwrap().lines().map(|l| read_row(l).unwrap()).collect();
    let f = simulate::figures(&r.counts, None);
    assert_eq!(f.games, 13);
    assert_eq!((f.a_as_dark.games, f.a_as_light.games), (7, 6), "A is Dark in even-numbered games");
    assert_eq!(f.a.wins + f.a.losses + f.a.draws + f.a.abandoned, 13);
    assert_eq!(f.dark.wins + f.light.wins, f.a.wins + f.b.wins, "every win is a colour's");
    assert_eq!(f.ways.values().map(|w| w.games).sum::<u64>(), 13);
    assert_eq!(f.planets.values().map(|p| p.all.held).sum::<u64>(), 26, "each game deals two planets");
    for (card, c) in &f.cards {
        let uses: u64 = rows
            .iter()
            .flat_map(|g| [&g.cards.a, &g.cards.b])
            .filter_map(|m| m.get(card))
            .map(|u| u64::from(u.uses))
            .sum();
        assert_eq!(c.all.uses, uses, "{card}");
        assert!(c.all.idle_uses <= c.all.uses && c.all.users <= 26);
        assert_eq!(c.dark.users + c.light.users, c.all.users);
        assert_eq!(c.a.users + c.b.users, c.all.users);
        let rate = c.all.user_win_rate.unwrap();
        assert!(rate.low <= rate.value && rate.value <= rate.high, "{card}: {rate:?}");
    }
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.index, i as u32);
        assert_eq!(row.winner.map(|w| row.colour(w)), row.winner_colour);
        assert!(row.replay.as_deref().is_some_and(|c| c.contains(&format!("--save-game {i} "))));
    }
    let length = f.length.mean.unwrap();
    assert!(f.length.min as f64 <= length.value && length.value <= f.length.max as f64);
}

/// Plays `plan` as `shards` runs with `--first-game`, writes each report to a
/// file and merges the files.
fn sharded(plan: &Plan, shards: &[(u32, u32)], tag: &str) -> Report {
    let mut parts = Vec::new();
    for (k, &(first, games)) in shards.iter().enumerate() {
        let shard = Plan { first_game: first, games, ..plan.clone() };
        let report = run(&shard, Sinks::none()).unwrap();
        let path = temp(&format!("{tag}-{k}.json"));
        simulate::write_report(&path, &report).unwrap();
        parts.push((path.display().to_string(), read_report(&path).unwrap()));
    }
    // Shards may come in any order.
    parts.reverse();
    merge(&parts).unwrap()
}

#[test]
fn four_shards_merged_are_the_single_run_with_random_players() {
    let whole = plan("random", "random", 40, 11, 2);
    let single = run(&whole, Sinks::none()).unwrap();
    let merged = sharded(&whole, &[(0, 9), (9, 12), (21, 1), (22, 18)], "random");
    same_games(&single, &merged);
    assert_eq!((merged.meta.first_game, merged.meta.games), (0, 40));
    assert!(merged.missing().is_empty());
}

#[test]
fn four_shards_merged_are_the_single_run_with_normal_at_a_small_budget() {
    let mut whole = plan("normal:iterations=12", "greedy", 8, 4, 2);
    whole.ablate = vec!["rotate".into()];
    let single = run(&whole, Sinks::none()).unwrap();
    let merged = sharded(&whole, &[(0, 2), (2, 3), (5, 1), (6, 2)], "normal");
    same_games(&single, &merged);
    assert_eq!(single.meta.a, "normal:iterations=12");
}

#[test]
fn an_interrupted_run_keeps_its_games_and_merges_with_the_rest() {
    let whole = plan("greedy", "greedy", 20, 3, 2);
    let single = run(&whole, Sinks::none()).unwrap();
    let partial = temp("interrupted.json");
    let stopped =
        Sinks { partial: Some((partial.clone(), std::time::Duration::ZERO)), stop_after: Some(7), ..Sinks::none() };
    run(&whole, stopped).unwrap();
    let kept = read_report(&partial).unwrap();
    assert_eq!(kept.meta.played, vec![[0, 7]], "the games finished in order are kept");
    assert_eq!(kept.missing(), vec![[7, 20]]);
    let rest = run(&Plan { first_game: 7, games: 13, ..whole.clone() }, Sinks::none()).unwrap();
    let merged = merge(&[("interrupted.json".into(), kept), ("rest".into(), rest)]).unwrap();
    same_games(&single, &merged);
}

#[test]
fn merge_refuses_what_is_not_one_run_and_names_the_file() {
    let a = run(&plan("random", "random", 4, 1, 2), Sinks::none()).unwrap();
    let other_seed = run(&plan("random", "random", 4, 2, 2), Sinks::none()).unwrap();
    let other_player = run(&plan("random", "greedy", 4, 1, 2), Sinks::none()).unwrap();
    let e = merge(&[("a.json".into(), a.clone()), ("b.json".into(), other_seed)]).unwrap_err();
    assert!(e.starts_with("b.json: not part of the same run as a.json: its seed is '2'"), "{e}");
    let e = merge(&[("a.json".into(), a.clone()), ("c.json".into(), other_player)]).unwrap_err();
    assert!(e.contains("c.json") && e.contains("player B"), "{e}");
    let e = merge(&[("a.json".into(), a.clone()), ("again.json".into(), a.clone())]).unwrap_err();
    assert!(e.starts_with("again.json: games 0-3 are also in a.json"), "{e}");

    let bad = temp("bad.json");
    std::fs::write(&bad, "{ not json").unwrap();
    let e = read_report(&bad).unwrap_err();
    assert!(e.starts_with(&bad.display().to_string()) && e.contains("not JSON"), "{e}");
    std::fs::write(&bad, r#"{"format": "alien-checkers-save"}"#).unwrap();
    assert!(read_report(&bad).unwrap_err().contains("not a simulation report"));
    std::fs::write(&bad, r#"{"format": "alien-checkers-simulation", "version": 1}"#).unwrap();
    assert!(read_report(&bad).unwrap_err().contains("damaged"));
    // Counts that do not match the games the report says it holds.
    let mut text: serde_json::Value = serde_json::from_str(&a.to_json(None)).unwrap();
    text["counts"]["games"] = 5.into();
    std::fs::write(&bad, text.to_string()).unwrap();
    assert!(read_report(&bad).unwrap_err().contains("damaged"));
}

#[test]
fn a_saved_game_replays_to_the_end_its_row_records() {
    let p = plan("greedy", "random", 3, 21, 1);
    let (_, rows) = run_with_rows(&p);
    let path = temp("game-2.json");
    let row = simulate::save_game(&p, 2, &path).unwrap();
    assert_eq!(row, rows[2], "the saved game is the game of the run");
    let root = ContentRoot::new(env!("CARGO_MANIFEST_DIR"));
    let (session, replay, _) = alien_checkers::session::Session::load(&root, &path).unwrap();
    assert!(replay.same_game());
    // The turns completed, and the one the game ended in if it ended during a turn.
    assert!([session.state().turn, session.state().turn + 1].contains(&row.turns), "{}", row.turns);
    assert_eq!(session.decisions().len() as u32, row.decisions);
    assert!(!row.abandoned());
    assert_eq!(session.outcome().and_then(|o| o.winner), row.winner_colour);
}

#[test]
fn a_withheld_card_is_never_used_by_its_side() {
    let mut p = plan("random", "random", 6, 8, 2);
    p.ablate = vec!["rotate".into(), "water".into()];
    let (report, rows) = run_with_rows(&p);
    assert_eq!(rows.len(), 18, "each game, then one game per withheld card");
    for row in rows.iter().filter(|r| r.withheld.is_some()) {
        let card = row.withheld.as_ref().unwrap();
        assert!(!row.cards.a.contains_key(card), "game {}: A used {card}", row.index);
        assert!(row.replay.is_none());
    }
    let f = simulate::figures(&report.counts, None);
    assert_eq!(
        f.ablations["rotate"].pairs + f.ablations["water"].pairs,
        12 - rows.iter().filter(|r| r.abandoned()).count() as u64
    );
    p.ablate = vec!["no_such_card".into()];
    assert!(run(&p, Sinks::none()).unwrap_err().contains("no card 'no_such_card'"));
}

#[test]
fn a_sequential_test_stops_at_the_same_game_on_any_number_of_threads() {
    let mut p = plan("greedy", "random", 200, 2, 1);
    p.sprt = Some("0,100".parse().unwrap());
    let one = run(&p, Sinks::none()).unwrap();
    p.threads = 2;
    let two = run(&p, Sinks::none()).unwrap();
    assert!(one.meta.stopped.is_some() && one.counts.games < 200, "greedy beats random quickly: {:?}", one.meta);
    same_games(&one, &two);
}

#[test]
fn hard_searches_with_helper_engines_and_answers_a_pending_option() {
    use alien_checkers::ai::{Budget, make_agent};
    use alien_checkers::game::GameState;
    use alien_checkers::script::ScriptEngine;
    use alien_checkers::script::engine_factory;

    let engine = ScriptEngine::load(&ContentRoot::new(env!("CARGO_MANIFEST_DIR")), "standard").unwrap();
    let setup = engine.content().setup();
    let state = GameState::new(&setup, 3);
    let options = state.pending(&engine).unwrap().options;
    let helpers = Some(engine_factory(engine.content()));
    let mut hard = make_agent("hard", 1, setup.planets.clone(), Budget::Reproducible, helpers.clone()).unwrap();
    let choice = hard.choose(&state, &engine).expect("a decision is pending");
    assert!(options.contains(&choice), "{choice} is not an option");
    // The helper thread's engine is compiled from the same content, so a second
    // agent with the same seed decides the same.
    let mut again = make_agent("hard", 1, setup.planets.clone(), Budget::Reproducible, helpers).unwrap();
    assert_eq!(again.choose(&state, &engine), Some(choice));
    assert!(make_agent("wizard", 1, setup.planets, Budget::Reproducible, None).is_err());
}

/// Runs the binary in a folder of its own; (stdout, stderr, exit status).
fn cli(dir: &std::path::Path, args: &[&str]) -> (String, String, Option<i32>) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_alien-checkers"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into(), out.status.code())
}

#[test]
fn the_command_line_shards_merges_compares_and_replays_a_game() {
    let dir = temp("cli");
    std::fs::create_dir_all(&dir).unwrap();
    let run = ["simulate", "--a", "random", "--b", "greedy", "--seed", "4", "--threads", "1"];
    fn with<'a>(run: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        run.iter().chain(extra).copied().collect()
    }
    let (whole, _, status) =
        cli(&dir, &with(&run, &["--games", "7", "--out", "whole.json", "--games-out", "games.jsonl"]));
    assert_eq!(status, Some(0));
    for (first, games, file) in [("0", "3", "a.json"), ("3", "4", "b.json")] {
        let (_, stderr, status) = cli(&dir, &with(&run, &["--first-game", first, "--games", games, "--out", file]));
        assert_eq!(status, Some(0), "{stderr}");
        if games == "3" {
            assert!(stderr.contains("A plays Dark in 2 and Light in 1"), "an odd split is said: {stderr}");
        }
    }
    let (merged, _, status) = cli(&dir, &["simulate", "merge", "b.json", "a.json"]);
    assert_eq!(status, Some(0));
    assert_eq!(merged, whole, "the merged report is the single run's table");

    // The JSON is labelled and carries the run's metadata.
    let (json, _, _) = cli(&dir, &["simulate", "merge", "a.json", "b.json", "--json", "--compare", "whole.json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["meta"]["a"], "random");
    assert_eq!(v["meta"]["deck_contents"]["cards"]["rotate"], 1);
    assert_eq!(v["meta"]["content_hash"].as_str().map(str::len), Some(16));
    assert!(
        v["figures"]["dark"]["score"]["low"].is_number() && v["figures"]["cards"]["rotate"]["all"]["users"].is_number()
    );
    let first = &v["comparison"]["differences"][0];
    assert_eq!(first["difference"]["value"], 0.0, "a run compared with itself differs by nothing: {first}");

    // A game's row names the command that replays it, and that command does.
    let rows = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let row = read_row(rows.lines().nth(5).unwrap()).unwrap();
    let command = row.replay.clone().unwrap();
    let (save, replay) = command.split_once(" && ").unwrap();
    let words: Vec<&str> = save.split_whitespace().skip(1).collect();
    let (out, stderr, status) = cli(&dir, &words);
    assert_eq!(status, Some(0), "{command}: {stderr}");
    assert!(out.contains(&format!("after {} turns", row.turns)), "{out}");
    let words: Vec<&str> = replay.split_whitespace().skip(1).collect();
    let (out, stderr, status) = cli(&dir, &words);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(out.trim_end().ends_with(&format!("after {} decisions", row.decisions)), "{out}");

    // An ablation takes the run's games from its games file and plays only its own.
    let (ablated, stderr, status) =
        cli(&dir, &with(&run, &["--games", "7", "--ablate", "rotate", "--baseline", "games.jsonl"]));
    assert_eq!(status, Some(0), "{stderr}");
    assert!(stderr.contains("taken from games.jsonl, not played again: 7 games as dealt"), "{stderr}");
    assert!(ablated.contains("rotate"), "{ablated}");

    // Bad input is one line naming the file, with status 2.
    std::fs::write(dir.join("broken.json"), "{").unwrap();
    for (args, says) in [
        (&["simulate", "merge", "a.json", "broken.json"][..], "broken.json: not JSON"),
        (&["simulate", "merge", "a.json", "a.json"], "a.json: games 0-2 are twice in a.json"),
        (&["simulate", "merge", "a.json", "missing.json"], "missing.json: cannot read"),
        (&["simulate", "--a", "normal:iterations=0"], "at least 1 iteration"),
        (&["simulate", "--ablate", "nosuch", "--games", "2"], "no card 'nosuch'"),
        (&["simulate", "--ablate", "rotate", "--baseline", "whole.json"], "whole.json, line 1: not a game's row"),
        (&["simulate", "--ablate", "rotate", "--games", "6", "--baseline", "games.jsonl"], "was dealt otherwise"),
    ] {
        let (_, stderr, status) = cli(&dir, args);
        assert_eq!(status, Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

/// A report file may come from anywhere: the ways of ending a part holds are
/// shown by `merge` (and compared by `--compare`) made visible, never obeyed.
#[test]
fn ways_of_ending_in_merged_reports_are_shown_escaped() {
    let dir = temp("ways");
    std::fs::create_dir_all(&dir).unwrap();
    let forged = "\u{1b}[2J\u{202e}Dark wins: Light resigned.";
    for (k, first) in [0, 2].into_iter().enumerate() {
        let shard = Plan { first_game: first, games: 2, ..plan("random", "random", 4, 3, 1) };
        let path = dir.join(format!("part{k}.json"));
        simulate::write_report(&path, &run(&shard, Sinks::none()).unwrap()).unwrap();
        let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let ways = v["counts"]["ways"].as_object_mut().unwrap();
        let way = ways.keys().next().unwrap().clone();
        let tally = ways.remove(&way).unwrap();
        ways.insert(forged.to_string(), tally);
        std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    }
    for args in [
        &["simulate", "merge", "part0.json", "part1.json"][..],
        &["simulate", "merge", "part1.json", "--compare", "part0.json"],
    ] {
        let (out, stderr, status) = cli(&dir, args);
        assert_eq!(status, Some(0), "{stderr}");
        for c in ['\x1b', '\u{202e}'] {
            assert!(!out.contains(c), "U+{:04X} reached the terminal: {out}", c as u32);
        }
        assert!(out.contains("\\x1b[2J\\u{202e}Dark wins: Light resigned."), "{out}");
        assert!(!out.lines().any(|l| l.starts_with("Dark wins")), "{out}");
    }
}

/// The report is written as saves are (a new temporary file of a random name,
/// links not followed, then renamed): a link planted at the temporary name the
/// writer once used (`.NAME.<pid>.tmp`) is not followed, and its target stays as
/// it was.
#[cfg(unix)]
#[test]
fn a_link_planted_at_the_reports_old_temporary_name_is_not_followed() {
    let report = run(&plan("random", "random", 2, 1, 1), Sinks::none()).unwrap();
    let dir = temp("planted");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let target = temp("planted-target.txt");
    std::fs::write(&target, "left alone\n").unwrap();
    let path = dir.join("report.json");
    let planted = dir.join(format!(".report.json.{}.tmp", std::process::id()));
    std::os::unix::fs::symlink(&target, &planted).unwrap();
    simulate::write_report(&path, &report).unwrap();
    let untouched = || std::fs::read_to_string(&target).unwrap() == "left alone\n";
    assert!(untouched(), "the link's target is untouched");
    assert!(std::fs::symlink_metadata(&path).unwrap().file_type().is_file(), "the report is a file of its own");
    assert_eq!(read_report(&path).unwrap().counts, report.counts);
    // The partial report, rewritten as a run goes, is written the same way.
    let partial = dir.join("partial.json");
    let planted = dir.join(format!(".partial.json.{}.tmp", std::process::id()));
    std::os::unix::fs::symlink(&target, &planted).unwrap();
    let sinks = Sinks { partial: Some((partial.clone(), std::time::Duration::ZERO)), ..Sinks::none() };
    run(&plan("random", "random", 2, 1, 1), sinks).unwrap();
    assert!(untouched(), "the link's target is untouched by the partial report");
    assert_eq!(read_report(&partial).unwrap().counts, report.counts);
}

/// Crafted reports: a `played` range written backwards (here beside one that
/// makes the games add up), and `outcomes` of the right length in characters
/// but not in bytes. `read_report` (what `merge` and `--compare` read files
/// with), `merge` and `compare` refuse both with an error naming the file and
/// the field, rather than panic.
#[test]
fn crafted_reports_with_backwards_ranges_or_wide_outcomes_are_refused() {
    let good = run(&plan("random", "random", 2, 1, 1), Sinks::none()).unwrap();
    assert_eq!(good.meta.played, vec![[0, 2]]);
    let mut backwards = good.clone();
    backwards.meta.played = vec![[2, 0], [0, 2]];
    let mut wide = good.clone();
    wide.counts.outcomes = "A\u{e9}".into();
    for (tag, crafted, field) in [("backwards", &backwards, "played"), ("wide", &wide, "outcomes")] {
        let path = temp(&format!("crafted-{tag}.json"));
        simulate::write_report(&path, crafted).unwrap();
        let name = path.display().to_string();
        let e = read_report(&path).err().unwrap_or_else(|| panic!("{tag}: read"));
        assert!(e.starts_with(&name) && e.contains(field), "{tag}: {e}");
        let e = merge(&[(name.clone(), crafted.clone())]).err().unwrap_or_else(|| panic!("{tag}: merged"));
        assert!(e.starts_with(&name) && e.contains(field), "{tag}: {e}");
        let e = merge(&[("good.json".into(), good.clone()), (name.clone(), crafted.clone())])
            .err()
            .unwrap_or_else(|| panic!("{tag}: merged with a good one"));
        assert!(e.starts_with(&name) && e.contains(field), "{tag}: {e}");
        let e = simulate::compare(&name, crafted, &good).err().unwrap_or_else(|| panic!("{tag}: compared"));
        assert!(e.starts_with(&name) && e.contains(field), "{tag}: {e}");
    }
    assert!(simulate::compare("good.json", &good, &good).is_ok());
}

/// A copy of the shipped cards and planets under a folder of its own (a
/// content root), with `edit` (file under planets/, text, replacement) applied.
fn content_copy(tag: &str, edit: Option<(&str, &str, &str)>) -> PathBuf {
    fn copy(from: &std::path::Path, to: &std::path::Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let target = to.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).unwrap();
            }
        }
    }
    let root = temp(tag);
    let _ = std::fs::remove_dir_all(&root);
    let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for dir in ["cards", "planets"] {
        copy(&shipped.join(dir), &root.join(dir));
    }
    if let Some((file, text, with)) = edit {
        let path = root.join("planets").join(file);
        let script = std::fs::read_to_string(&path).unwrap();
        assert!(script.contains(text), "{file} holds {text}");
        std::fs::write(&path, script.replace(text, with)).unwrap();
    }
    root
}

#[test]
fn seats_swapped_deal_each_pair_alike_and_count_the_pairs() {
    use alien_checkers::kernel::Player;
    let mut p = plan("greedy", "random", 8, 7, 2);
    p.swap_seats = true;
    let (report, rows) = run_with_rows(&p);
    let mut expected = [0u64; 5];
    for pair in rows.chunks(2) {
        assert_eq!(pair[0].seed, pair[1].seed, "a pair shares its deal");
        assert_eq!((&pair[0].dark_planet, &pair[0].light_planet), (&pair[1].dark_planet, &pair[1].light_planet));
        assert_eq!((pair[0].a_colour, pair[1].a_colour), (Player::Dark, Player::Light), "the seats swap");
        assert!(pair[1].replay.as_deref().unwrap().contains(" --swap-seats "));
        if let (Some(x), Some(y)) = (pair[0].a_score_halves(), pair[1].a_score_halves()) {
            expected[(x + y) as usize] += 1;
        }
    }
    let pairs = report.pentanomial().expect("pairs when the seats swap");
    assert_eq!(pairs.counts, expected);
    let f = report.figures();
    assert_eq!(f.pairs.as_ref().map(|p| p.counts), Some(expected));
    assert!(table(&report).contains("A by deal pairs, seats swapped"), "{}", table(&report));
    assert!(f.a.elo.is_some(), "an Elo beside the score");
    // Played as before without the flag: every game its own deal.
    let (plain, plain_rows) = run_with_rows(&plan("greedy", "random", 2, 7, 2));
    assert_ne!(plain_rows[0].seed, plain_rows[1].seed);
    assert!(plain.pentanomial().is_none());
    let merged = merge(&[("plain".into(), plain), ("swapped".into(), report)]).unwrap_err();
    assert!(merged.contains("seats swapped"), "{merged}");
}

#[test]
fn a_copy_of_the_content_played_side_by_side_pairs_every_row_and_differs_by_nothing() {
    use alien_checkers::simulate::paired;
    let copy = content_copy("same-content", None);
    let base = plan("greedy", "random", 6, 3, 2);
    let other = Plan { root: ContentRoot::new(&copy), ..base.clone() };
    let both = simulate::run_side_by_side(&base, &other, None, &mut |_, _| {}).unwrap();
    assert_eq!((both.base.counts.games, both.other.counts.games), (6, 6));
    let c = paired::compare_rows("base", &both.base_rows, "copy", &both.other_rows, None).unwrap();
    assert_eq!(c.games, 6);
    assert!(c.rows.iter().filter(|r| r.figure.starts_with("planet ")).count() >= 2);
    for r in &c.rows {
        assert_eq!(r.paired, r.of, "{}: the same deals pair every game", r.figure);
        assert_eq!(r.difference.map_or(0.0, |d| d.value), 0.0, "{}", r.figure);
        assert!(!r.significant, "{}", r.figure);
    }
    assert_eq!(c.old_balance.rms.map(|e| e.value), c.new_balance.rms.map(|e| e.value));
}

#[test]
fn the_command_line_compares_decks_game_by_game_and_tests_one_figure_sequentially() {
    let dir = temp("against");
    std::fs::create_dir_all(&dir).unwrap();
    let weak = content_copy(
        "weak-jupiter",
        Some((
            "jupiter.lua",
            "return ctx:monolith() == \"d4\"",
            "return ctx:monolith() == \"d4\" and ctx:turn() >= 12",
        )),
    );
    let weak = weak.display().to_string();
    let common = ["simulate", "--a", "random", "--b", "random", "--seed", "5", "--threads", "1"];
    let with = |extra: &[&str]| -> Vec<String> { common.iter().chain(extra).map(|s| s.to_string()).collect() };
    let args = with(&["--games", "6", "--swap-seats", "--against-root", &weak, "--primary", "jupiter holder score"]);
    let (out, stderr, status) = cli(&dir, &args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(status, Some(0), "{stderr}");
    for says in [
        "paired by game:",
        "planet jupiter: holder's score",
        "planet balance (RMS distance",
        "significant after Holm's correction",
        "primary figure, tested alone at 5%: planet jupiter: holder's score",
    ] {
        assert!(out.contains(says), "{says}: {out}");
    }
    // A sequential test of Dark's score between two decks stops at the same game on 1 and 2 threads.
    let mut lines = Vec::new();
    for threads in ["1", "2"] {
        let args = [
            "simulate",
            "--a",
            "random",
            "--b",
            "random",
            "--seed",
            "5",
            "--threads",
            threads,
            "--games",
            "400",
            "--against-deck",
            "moons",
            "--sprt-figure",
            "dark score",
            "--sprt-points",
            "80,100",
        ];
        let (out, stderr, status) = cli(&dir, &args);
        assert_eq!(status, Some(0), "{stderr}");
        let line = out.lines().find(|l| l.starts_with("SPRT on Dark's score")).unwrap_or_default().to_string();
        assert!(line.contains("H0 accepted") && line.contains("outside"), "{out}");
        let games: u32 =
            line.split(" over ").nth(1).and_then(|s| s.split(' ').next()).and_then(|n| n.parse().ok()).unwrap();
        assert!(games < 400, "{line}");
        lines.push(line);
    }
    assert_eq!(lines[0], lines[1]);
    // A run compared with its own --games-out file pairs every figure over every game.
    let (_, stderr, status) = cli(
        &dir,
        &with(&["--games", "4", "--games-out", "old.jsonl", "--out", "old.json"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_eq!(status, Some(0), "{stderr}");
    let (out, stderr, status) =
        cli(&dir, &with(&["--games", "4", "--compare", "old.jsonl"]).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(status, Some(0), "{stderr}");
    assert!(out.contains("paired by game: this run minus old.jsonl over the 4 games"), "{out}");
    assert!(out.contains("4 of 4"), "{out}");
    let (_, stderr, status) = cli(&dir, &["simulate", "merge", "old.json", "--compare", "old.jsonl"]);
    assert_eq!(status, Some(2));
    assert!(stderr.contains("old.jsonl: a games file compares game by game"), "{stderr}");
    let (_, stderr, status) = cli(&dir, &["simulate", "--games", "2", "--primary", "dark score"]);
    assert_eq!(status, Some(2));
    assert!(stderr.contains("--primary needs a comparison game by game"), "{stderr}");
}

/// A game's `turns` counts the turns played, the one it ended in included:
/// the number of turns (R3) in which a decision was made, found by replaying
/// the saved game decision by decision. A game that ends mid-turn (a capture,
/// a planet) is not "won after 0 turns" when a player had moved (issue 39,
/// item 15).
#[test]
fn a_games_turns_count_the_turn_it_ended_in() {
    let p = plan("random", "random", 6, 2, 1);
    let (_, rows) = run_with_rows(&p);
    let root = ContentRoot::new(env!("CARGO_MANIFEST_DIR"));
    let mut ended_mid_turn = 0;
    for row in rows.iter().filter(|r| !r.abandoned()) {
        let path = temp(&format!("turns-{}.json", row.index));
        simulate::save_game(&p, row.index, &path).unwrap();
        let (saved, _, _) = alien_checkers::session::Session::load(&root, &path).unwrap();
        let mut session = alien_checkers::session::Session::new(&root, "standard", row.seed).unwrap();
        let mut turns = std::collections::BTreeSet::new();
        for choice in saved.decisions() {
            turns.insert(session.state().turn);
            session.apply(choice).unwrap();
        }
        assert_eq!(row.turns as usize, turns.len(), "game {}: {:?}", row.index, row.end);
        ended_mid_turn += usize::from(session.state().turn < row.turns);
    }
    assert!(ended_mid_turn > 0, "some game ended during a turn");
}

/// The sequential test's line says what its numbers say: a decided test's LLR
/// reached a bound, it is not "in" them (issue 39, item 15).
#[test]
fn a_decided_sequential_test_says_its_llr_reached_a_bound() {
    let mut p = plan("greedy", "random", 200, 2, 1);
    p.sprt = Some("0,100".parse().unwrap());
    let report = run(&p, Sinks::none()).unwrap();
    let f = simulate::figures(&report.counts, report.meta.sprt).sprt.unwrap();
    assert!(f.llr >= f.upper_bound, "{f:?}");
    let text = table(&report);
    let line = text.lines().find(|l| l.starts_with("SPRT")).unwrap();
    assert_eq!(
        line,
        format!("SPRT on A's score: LLR {:.2} reached the upper bound {:.2}: H1 accepted", f.llr, f.upper_bound)
    );
}

/// The content hash is what the content holds, not where it is: the same
/// content under two other root paths, and a deck path spelled three ways,
/// give the shipped content's hash and deck; shards played from each copy
/// merge into the single run's report byte for byte; a refusal is a plain
/// sentence (issue 39, item 9).
#[test]
fn shards_from_copies_of_the_content_at_other_paths_merge_byte_for_byte() {
    let (one, two) = (content_copy("content-one", None), content_copy("content-two", None));
    let whole = plan("random", "random", 4, 13, 1);
    let single = run(&whole, Sinks::none()).unwrap();
    let mut parts = Vec::new();
    for (k, (root, first)) in [(&one, 0), (&two, 2)].into_iter().enumerate() {
        let shard = Plan { root: ContentRoot::new(root), first_game: first, games: 2, ..whole.clone() };
        let path = temp(&format!("copy-{k}.json"));
        simulate::write_report(&path, &run(&shard, Sinks::none()).unwrap()).unwrap();
        parts.push((path.display().to_string(), read_report(&path).unwrap()));
    }
    assert_eq!(parts[0].1.meta.content_hash, single.meta.content_hash);
    let merged = merge(&parts).unwrap();
    assert_eq!(merged.to_json(None), single.to_json(None), "byte for byte");

    // A deck given as a path, spelled three ways, is the same deck and content.
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let spelled = [
        one.join("cards/decks/standard.yaml").display().to_string(),
        format!("{}/./cards/decks/standard.yaml", two.display()),
        here.join("cards/decks/standard.yaml").display().to_string(),
    ];
    let metas: Vec<_> = spelled
        .iter()
        .map(|deck| {
            let root = ContentRoot::for_deck(None, deck).unwrap();
            let p = Plan::new(root, deck, "random", "random", 1, 13);
            run(&Plan { threads: 1, ..p }, Sinks::none()).unwrap().meta
        })
        .collect();
    for m in &metas {
        assert_eq!((m.deck.as_str(), &m.content_hash), ("cards/decks/standard.yaml", &single.meta.content_hash));
    }

    let mut other = parts[1].1.clone();
    other.meta.sprt = Some("0,20".parse().unwrap());
    let e = merge(&[parts[0].clone(), ("other.json".into(), other)]).unwrap_err();
    assert!(e.contains("its sequential test is '0,20,0.05,0.05', not 'none'") && !e.contains("Some("), "{e}");
}

/// A report file's folder that is missing is said before any game is
/// played, for `--out` and for `--games-out` (issue 39, item 10).
#[test]
fn a_missing_output_folder_is_said_before_any_game() {
    let dir = temp("nofolder");
    std::fs::create_dir_all(&dir).unwrap();
    for flag in ["--out", "--games-out"] {
        let (_, stderr, status) =
            cli(&dir, &["simulate", "--a", "random", "--b", "random", "--games", "2", flag, "missing/file.json"]);
        assert_eq!(status, Some(2), "{flag}: {stderr}");
        assert!(stderr.contains("missing/file.json"), "{flag}: {stderr}");
        assert!(!stderr.contains("games"), "{flag}: no game was played: {stderr}");
    }
}

/// A report whose counts contradict its games' outcomes (one result edited
/// by hand, or a way of ending) is refused, naming the file and the figure
/// (issue 39, item 11).
#[test]
fn a_report_whose_counts_contradict_its_outcomes_is_refused() {
    let report = run(&plan("random", "random", 4, 5, 1), Sinks::none()).unwrap();
    let good = temp("counts-good.json");
    simulate::write_report(&good, &report).unwrap();
    assert!(read_report(&good).is_ok());
    let mut v: serde_json::Value = serde_json::from_str(&report.to_json(None)).unwrap();
    let wins = v["counts"]["results"]["a_dark"]["a_wins"].as_u64().unwrap();
    v["counts"]["results"]["a_dark"]["a_wins"] = (wins + 1).into();
    let edited = temp("counts-edited.json");
    std::fs::write(&edited, v.to_string()).unwrap();
    let e = read_report(&edited).unwrap_err();
    assert!(e.starts_with(&edited.display().to_string()) && e.contains("results.a_dark.a_wins"), "{e}");

    let mut v: serde_json::Value = serde_json::from_str(&report.to_json(None)).unwrap();
    let way = v["counts"]["ways"].as_object_mut().unwrap().values_mut().next().unwrap();
    way["a_light"]["draws"] = (way["a_light"]["draws"].as_u64().unwrap() + 1).into();
    std::fs::write(&edited, v.to_string()).unwrap();
    let e = read_report(&edited).unwrap_err();
    assert!(e.contains("ways of ending") && e.contains("draws"), "{e}");
}

/// The report written while a run goes says it is unfinished (a killed run's
/// file says so); a stopped run's says it was interrupted; `--quiet` keeps
/// stderr free of progress (issue 39, item 12).
#[test]
fn a_partial_report_says_why_it_holds_fewer_games() {
    let whole = plan("random", "random", 6, 3, 1);
    let partial = temp("why.json");
    let mut seen = None;
    let path = partial.clone();
    let mut progress = |done: u32, _| {
        if done == 3 {
            seen = read_report(&path).unwrap().meta.stopped;
        }
    };
    let sinks = Sinks {
        progress: Some(&mut progress),
        partial: Some((partial.clone(), std::time::Duration::ZERO)),
        stop_after: Some(4),
        ..Sinks::none()
    };
    run(&whole, sinks).unwrap();
    assert_eq!(seen.as_deref(), Some("unfinished: written after 2 of 6 games while the run went (killed?)"));
    let kept = read_report(&partial).unwrap();
    assert_eq!(kept.meta.stopped.as_deref(), Some("interrupted after 4 of 6 games"));
    assert!(table(&kept).contains("stopped early: interrupted after 4 of 6 games"));

    let dir = temp("quiet");
    std::fs::create_dir_all(&dir).unwrap();
    let (out, stderr, status) =
        cli(&dir, &["simulate", "--a", "random", "--b", "random", "--games", "2", "--quiet", "--out", "q.json"]);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(stderr, "", "nothing on stderr");
    assert!(out.starts_with("2 games on deck standard"), "{out}");
    assert_eq!(read_report(&dir.join("q.json")).unwrap().meta.stopped, None, "a finished run's file");
}

/// `--games-out` files of shards merge into the single run's file, line for
/// line; a game in two files, rows of other content and rows of another run
/// are refused, naming the file and line (issue 39, item 8).
#[test]
fn games_out_files_of_shards_merge_in_game_order() {
    let whole = plan("random", "random", 5, 4, 1);
    let rows = |p: &Plan| {
        let mut out = Vec::new();
        run(p, Sinks { rows: Some(&mut out), ..Sinks::none() }).unwrap();
        String::from_utf8(out).unwrap()
    };
    let single = rows(&whole);
    let a = rows(&Plan { games: 2, ..whole.clone() });
    let b = rows(&Plan { first_game: 2, games: 3, ..whole.clone() });
    let merged = simulate::merge_games(&[("b.jsonl".into(), b.clone()), ("a.jsonl".into(), a.clone())]).unwrap();
    assert_eq!(merged, single);
    assert!(read_row(single.lines().next().unwrap()).unwrap().content.len() == 16);

    let e = simulate::merge_games(&[("a.jsonl".into(), a.clone()), ("again.jsonl".into(), a.clone())]).unwrap_err();
    assert!(e.starts_with("again.jsonl, line 1: game 0 is also in a.jsonl"), "{e}");
    let content = read_row(a.lines().next().unwrap()).unwrap().content;
    let other = b.replacen(&content, "0123456789abcdef", 1);
    let e = simulate::merge_games(&[("a.jsonl".into(), a.clone()), ("b.jsonl".into(), other)]).unwrap_err();
    assert!(e.starts_with("b.jsonl, line 1: not part of the same run") && e.contains("content hash"), "{e}");
    let seed = rows(&Plan { first_game: 2, games: 1, seed: 99, ..whole.clone() });
    let e = simulate::merge_games(&[("a.jsonl".into(), a), ("seed.jsonl".into(), seed)]).unwrap_err();
    assert!(e.starts_with("seed.jsonl, line 1: not part of the same run") && e.contains("--seed 99"), "{e}");
}

/// An ablation run with `--baseline` takes the baseline's games instead of
/// playing them again: its report and rows are the full run's, a baseline row
/// edited on purpose shows up in the report (so it was read, not replayed),
/// and a baseline of another seed, players, range or content is refused with
/// a sentence naming the file and line (issue 39, item 7).
#[test]
fn an_ablation_takes_the_baselines_games_instead_of_replaying_them() {
    use alien_checkers::simulate::Baseline;
    let dealt = plan("random", "greedy", 6, 8, 2);
    let text = |rows: &[GameRow]| rows.iter().map(|r| serde_json::to_string(r).unwrap() + "\n").collect::<String>();
    let (_, base_rows) = run_with_rows(&dealt);
    let baseline = Baseline::read("base.jsonl", &text(&base_rows)).unwrap();
    let ablation = Plan { ablate: vec!["rotate".into(), "water".into()], ..dealt.clone() };
    let (full, full_rows) = run_with_rows(&ablation);
    let (taken, taken_rows) = run_with_rows(&Plan { baseline: Some(baseline.clone()), ..ablation.clone() });
    same_games(&full, &taken);
    assert_eq!(full_rows, taken_rows);
    assert_eq!(baseline.taken(&ablation), (6, 0));

    // A game edited in the baseline is the game the report counts.
    let mut edited = base_rows.clone();
    edited[3].turns = 999;
    let with_edit = Baseline::read("base.jsonl", &text(&edited)).unwrap();
    let report = run(&Plan { baseline: Some(with_edit), ..ablation.clone() }, Sinks::none()).unwrap();
    assert_eq!(report.counts.turns.max, 999, "game 3 was taken from the baseline, not played");
    assert_ne!(full.counts.turns.max, 999);

    // A baseline's ablation games are taken too: only the new card's are played.
    let rotate_only = Plan { ablate: vec!["rotate".into()], ..dealt.clone() };
    let (_, rotate_rows) = run_with_rows(&rotate_only);
    let mut edited = rotate_rows.clone();
    let rotate_row = edited.iter_mut().find(|r| r.withheld.is_some()).unwrap();
    rotate_row.turns = 777;
    let with_rotate = Baseline::read("rotate.jsonl", &text(&edited)).unwrap();
    assert_eq!(with_rotate.taken(&ablation), (6, 6));
    let (_, rows) = run_with_rows(&Plan { baseline: Some(with_rotate), ..ablation.clone() });
    assert_eq!(rows.iter().filter(|r| r.turns == 777).count(), 1, "the rotate game was taken, not played");
    assert_eq!(rows.len(), full_rows.len());
    let unedited = Baseline::read("rotate.jsonl", &text(&rotate_rows)).unwrap();
    let (_, rows) = run_with_rows(&Plan { baseline: Some(unedited), ..ablation.clone() });
    assert_eq!(rows, full_rows);

    let refused = |plan: Plan, rows: &[GameRow]| {
        let baseline = Baseline::read("base.jsonl", &text(rows)).unwrap();
        run(&Plan { baseline: Some(baseline), ..plan }, Sinks::none()).unwrap_err()
    };
    let e = refused(Plan { games: 8, ..ablation.clone() }, &base_rows);
    assert!(e.starts_with("base.jsonl: game 6 is not in it (it holds games 0-5)"), "{e}");
    let (_, other_seed) = run_with_rows(&Plan { seed: 9, ..dealt.clone() });
    let e = refused(ablation.clone(), &other_seed);
    assert!(e.starts_with("base.jsonl, line 1: game 0 was dealt otherwise") && e.contains("seed 8"), "{e}");
    let (_, other_players) = run_with_rows(&Plan { b: "random".into(), ..dealt.clone() });
    let e = refused(ablation.clone(), &other_players);
    assert!(e.starts_with("base.jsonl, line 1: game 0 was played by") && e.contains("--b random"), "{e}");
    // The same content at another path is the same content; changed, it is not.
    let copy = content_copy("baseline-copy", None);
    let (_, rows) =
        run_with_rows(&Plan { root: ContentRoot::new(&copy), baseline: Some(baseline), ..ablation.clone() });
    assert_eq!(rows, full_rows);
    let changed = content_copy("baseline-changed", None);
    let mars = changed.join("planets/mars.lua");
    std::fs::write(&mars, std::fs::read_to_string(&mars).unwrap() + "\n-- changed\n").unwrap();
    let e = refused(Plan { root: ContentRoot::new(&changed), ..ablation.clone() }, &base_rows);
    assert!(e.starts_with("base.jsonl, line 1: game 0 was played on other content"), "{e}");
    let e = Baseline::read("report.json", "{\"meta\": {}}").unwrap_err();
    assert!(e.starts_with("report.json, line 1: not a game's row") && e.contains("--games-out"), "{e}");
}
