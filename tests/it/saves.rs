//! Saves: written atomically, so a write that fails
//! halfway leaves the old save whole; truncated, corrupt, hand-edited and
//! newer-version files are refused with a clear error and change nothing; a save
//! whose scripts changed loads, names the changed files and says where the game
//! now differs.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use alien_checkers::content::ContentRoot;
use alien_checkers::game::Choice;
use alien_checkers::kernel::Player;
use alien_checkers::session::{Record, SAVE_VERSION, Session, read_record, write_atomically};

use crate::common;
use common::repo;

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    common::scratch_dir("saves", name)
}

/// A standard game with `seed`, played `n` random decisions on (or to its end).
fn game(root: &ContentRoot, seed: u64, n: usize) -> Session {
    let mut session = Session::new(root, "standard", seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..n {
        let Some(decision) = session.state().pending(&session.engine) else { break };
        let pick = decision.options[rng.next_u32() as usize % decision.options.len()].clone();
        session.apply(&pick).unwrap_or_else(|e| panic!("seed {seed}: {pick}: {e}"));
    }
    session
}

fn seats() -> BTreeMap<Player, String> {
    BTreeMap::from([(Player::Dark, "human".to_string()), (Player::Light, "greedy".to_string())])
}

/// Loads `path`, which must load as exactly the game of `expected`.
#[track_caller]
fn assert_loads_as(path: &Path, expected: &Session) {
    let (loaded, replay, record) = Session::load(&repo(), path).unwrap_or_else(|e| panic!("{e}"));
    assert!(replay.changed.is_empty() && replay.same_game(), "{replay:?}");
    assert_eq!(loaded.digest(), expected.digest());
    assert_eq!(loaded.log().collect::<Vec<_>>(), expected.log().collect::<Vec<_>>());
    assert_eq!(record.seed, expected.seed());
}

/// Every file in `dir` (to find stray temporary files).
fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn a_save_round_trips_the_game_its_digests_and_its_seats() {
    let dir = scratch("round_trip");
    let path = dir.join("game.json");
    let session = game(&repo(), 21, 60);
    session.save(&path, seats()).unwrap();
    assert_loads_as(&path, &session);
    let record = read_record(&path).unwrap();
    assert_eq!(record, session.record(seats()));
    assert_eq!(record.version, 2, "format 3 is written only for a game ended at the table");
    assert_eq!(record.ended, None);
    assert_eq!(record.digests.len(), record.decisions.len() + 1, "a digest after the deal and each decision");
    assert_eq!(record.digests.last(), Some(&session.digest()));
    assert!(record.hashes.contains_key("cards/water.lua"), "hashes name files relative to the content root");
    assert!(record.hashes.keys().all(|f| !f.starts_with('/')), "{:?}", record.hashes.keys());
    assert_eq!(files_in(&dir), ["game.json"], "no temporary file is left behind");
}

#[test]
fn a_version_1_save_without_digests_still_loads() {
    let dir = scratch("no_digests");
    let path = dir.join("old.json");
    let session = game(&repo(), 5, 30);
    let mut record = session.record(seats());
    record.digests.clear();
    let mut value: serde_json::Value = serde_json::from_str(&record.to_json()).unwrap();
    value.as_object_mut().unwrap().remove("digests");
    value["version"] = serde_json::json!(1);
    std::fs::write(&path, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    assert_loads_as(&path, &session);
}

#[test]
fn a_write_failing_halfway_leaves_the_old_save_whole() {
    let dir = scratch("halfway");
    let path = dir.join("game.json");
    let old = game(&repo(), 1, 12);
    old.save(&path, seats()).unwrap();
    let old_bytes = std::fs::read(&path).unwrap();
    // A whole game: its save is many 4 KiB chunks long.
    let new = game(&repo(), 2, 10_000);
    let text = new.record(seats()).to_json();
    assert!(text.len() > 2 * 4096, "the new save spans several chunks ({} bytes)", text.len());
    let half = text.len() / 2;
    let mut checked_midway = false;
    let result = write_atomically(&path, text.as_bytes(), &mut |written| {
        if written < half {
            return Ok(());
        }
        // Midway: the new text is partly on disk beside the save, which is untouched.
        assert_eq!(std::fs::read(&path).unwrap(), old_bytes, "the old save changed during the write");
        let partial: Vec<String> = files_in(&dir).into_iter().filter(|f| f.contains(".tmp-")).collect();
        assert_eq!(partial.len(), 1, "one temporary file: {partial:?}");
        let on_disk = std::fs::read(dir.join(&partial[0])).unwrap();
        assert!(on_disk.len() >= half && on_disk.len() < text.len(), "a partial write of {} bytes", on_disk.len());
        checked_midway = true;
        Err(std::io::Error::other("no space left on device (simulated)"))
    });
    assert!(checked_midway);
    let error = result.expect_err("the failed write is reported").to_string();
    assert!(error.contains("game.json") && error.contains("no space left"), "{error}");
    assert_eq!(std::fs::read(&path).unwrap(), old_bytes, "the old save is whole");
    assert_eq!(files_in(&dir), ["game.json"], "the partial file is removed");
    assert_loads_as(&path, &old);

    // A panic halfway unwinds and takes its partial file with it; the save is
    // whole. (A crash that does not unwind leaves the file, which the next save
    // removes once it is stale: stale_temporary_files_are_removed_by_the_next_save.)
    let crashed = catch_unwind(AssertUnwindSafe(|| {
        let _ = write_atomically(&path, text.as_bytes(), &mut |written| {
            if written >= half {
                panic!("the process dies here");
            }
            Ok(())
        });
    }));
    assert!(crashed.is_err());
    assert_eq!(std::fs::read(&path).unwrap(), old_bytes, "the old save is whole after a crash");
    assert_eq!(files_in(&dir), ["game.json"], "the panic took its partial file with it");
    assert_loads_as(&path, &old);
    new.save(&path, seats()).unwrap();
    assert_loads_as(&path, &new);
}

/// Tries to load `bytes` as a save: it must fail with a message naming the file
/// and containing `says`, leave the file as it was, and write nothing beside it.
#[track_caller]
fn refused(dir: &Path, name: &str, bytes: &[u8], says: &[&str]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    let before = files_in(dir);
    let error = match Session::load(&repo(), &path) {
        Ok(_) => panic!("{name}: loaded"),
        Err(e) => e.to_string(),
    };
    assert!(error.contains(name), "{name}: the message names the file: {error}");
    for s in says {
        assert!(error.contains(s), "{name}: expected '{s}' in: {error}");
    }
    assert!(!error.contains('\n') && error.len() < 2000, "{name}: one line: {error}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "{name}: loading changed the file");
    assert_eq!(files_in(dir), before, "{name}: loading wrote something");
    error
}

#[test]
fn truncated_and_corrupt_files_are_refused() {
    let dir = scratch("truncated");
    let good = game(&repo(), 3, 40).record(seats()).to_json().into_bytes();
    refused(&dir, "empty.json", b"", &["empty"]);
    refused(&dir, "blank.json", b"  \n\n", &["empty"]);
    for cut in [1, 10, good.len() / 3, good.len() / 2, good.len() - 2] {
        refused(&dir, &format!("cut{cut}.json"), &good[..cut], &["corrupt or truncated", "line"]);
    }
    refused(&dir, "binary.json", &[0x1f, 0x8b, 0x08, 0x00, 0xff, 0xfe, 0x00, 0x01], &["corrupt or truncated"]);
    let mut not_utf8 = good.clone();
    not_utf8[40] = 0xff;
    refused(&dir, "not_utf8.json", &not_utf8, &["corrupt or truncated"]);
    refused(&dir, "array.json", b"[1, 2, 3]", &["not an alien-checkers save"]);
    refused(&dir, "other.json", br#"{"format": "chess-save", "version": 1}"#, &["not an alien-checkers save"]);
    refused(&dir, "nul.json", &[0u8; 64], &["corrupt or truncated"]);
    std::fs::create_dir_all(dir.join("folder.json")).unwrap();
    let error = |name: &str| Session::load(&repo(), &dir.join(name)).err().expect("refused").to_string();
    assert!(error("folder.json").contains("not a file"));
    assert!(error("missing.json").contains("cannot read"));
    let huge = vec![b' '; 17 * 1024 * 1024];
    refused(&dir, "huge.json", &huge, &["more than a save can be"]);
}

/// The good save's JSON, edited by `edit`.
fn edited(good: &Record, edit: impl FnOnce(&mut serde_json::Map<String, serde_json::Value>)) -> Vec<u8> {
    let mut value: serde_json::Value = serde_json::from_str(&good.to_json()).unwrap();
    edit(value.as_object_mut().unwrap());
    serde_json::to_string_pretty(&value).unwrap().into_bytes()
}

#[test]
fn hand_edited_and_newer_files_are_refused() {
    use serde_json::json;
    let dir = scratch("edited");
    let session = game(&repo(), 4, 40);
    let good = session.record(seats());
    let e = |f: fn(&mut serde_json::Map<String, serde_json::Value>)| edited(&good, f);

    // Decisions that are not possible, though no script changed.
    let error = refused(
        &dir,
        "illegal.json",
        &e(|o| o["decisions"][3] = json!("a1-h8")),
        &["decision 4 'a1-h8' is not possible", "offered:", "edited or damaged"],
    );
    assert!(error.contains("no script or manifest changed"), "{error}");
    refused(&dir, "gibberish.json", &e(|o| o["decisions"][0] = json!("please let me win")), &["decision 1"]);
    refused(
        &dir,
        "after_the_end.json",
        &edited(&game(&repo(), 9, 10_000).record(seats()), |o| {
            o["decisions"].as_array_mut().unwrap().push(json!("c3-d4"));
            o["digests"].as_array_mut().unwrap().push(json!(1));
        }),
        &["already over"],
    );
    refused(
        &dir,
        "no_such_card.json",
        &e(|o| o["decisions"][1] = json!("card wishful_thinking")),
        &["decision 2 'card wishful_thinking' is not possible"],
    );

    // Wrong types, missing and unknown fields: located in the file.
    refused(&dir, "seed_text.json", &e(|o| o["seed"] = json!("seven")), &["damaged", "invalid type", "line"]);
    refused(&dir, "seed_negative.json", &e(|o| o["seed"] = json!(-7)), &["damaged", "line"]);
    refused(&dir, "decisions_number.json", &e(|o| o["decisions"] = json!(5)), &["damaged", "expected a sequence"]);
    refused(&dir, "decision_number.json", &e(|o| o["decisions"][0] = json!(12)), &["damaged", "expected a string"]);
    refused(&dir, "hash_text.json", &e(|o| o["hashes"]["cards/water.lua"] = json!("abc")), &["damaged"]);
    refused(&dir, "seat_key.json", &e(|o| o["seats"] = json!({"purple": "human"})), &["damaged", "purple"]);
    refused(&dir, "no_deck.json", &e(|o| drop(o.remove("deck"))), &["damaged", "missing field `deck`"]);
    refused(&dir, "cheat.json", &e(|o| drop(o.insert("cheat".into(), json!(true)))), &["unknown field `cheat`"]);
    refused(&dir, "no_version.json", &e(|o| drop(o.remove("version"))), &["no save format version"]);
    refused(&dir, "version_text.json", &e(|o| o["version"] = json!("1")), &["no save format version"]);
    refused(&dir, "version_zero.json", &e(|o| o["version"] = json!(0)), &["version 0"]);
    refused(&dir, "digests_short.json", &e(|o| drop(o["digests"].as_array_mut().unwrap().pop())), &["digests"]);
    refused(&dir, "no_such_deck.json", &e(|o| o["deck"] = json!("nonexistent")), &["cannot load its deck"]);

    // A newer format is refused by name, whatever else it holds.
    for (name, version) in [("v2.json", json!(SAVE_VERSION + 1)), ("v_far.json", json!(u64::MAX))] {
        let bytes = edited(&good, |o| {
            o["version"] = version;
            o.insert("a_field_from_the_future".into(), json!({"x": 1}));
        });
        refused(&dir, name, &bytes, &["newer version", &format!("reads up to {SAVE_VERSION}")]);
    }
}

#[test]
fn a_bad_load_in_the_repl_leaves_the_current_game_as_it_was() {
    let dir = scratch("repl_load");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, b"{\"format\": \"alien-checkers-save\", \"version\": 1, \"deck\": \"standard\"").unwrap();
    let input = format!("c3-d4\ndigest\nload {}\ndigest\nquit\n", bad.display());
    // In the scratch folder: `quit` autosaves the unfinished game there.
    let (out, _) = run_in(&dir, &["--seed", "7", "--light", "human"], &input);
    let digests: Vec<&str> = out.lines().filter(|l| l.starts_with("digest ") || l.contains("> digest")).collect();
    let shown: Vec<&str> = out.lines().filter(|l| l.starts_with("digest ")).collect();
    assert_eq!(shown.len(), 2, "{digests:?}\n{out}");
    assert_eq!(shown[0], shown[1], "the game changed:\n{out}");
    assert!(out.contains("corrupt or truncated") && out.contains("the current game is unchanged"), "{out}");
}

/// Runs the binary in `dir` with `args`, feeding `input`; returns (stdout, stderr).
fn run_in(dir: &Path, args: &[&str], input: &str) -> (String, String) {
    let run = common::run_binary(dir, args, &[], input);
    (run.stdout, run.stderr)
}

/// A copy of the shipped content (cards, planets, decks) in a fresh folder.
fn copy_content(name: &str) -> ContentRoot {
    let to = scratch(name);
    for dir in ["cards", "cards/decks", "planets"] {
        std::fs::create_dir_all(to.join(dir)).unwrap();
        for entry in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)).unwrap().flatten() {
            if entry.path().is_file() {
                std::fs::copy(entry.path(), to.join(dir).join(entry.file_name())).unwrap();
            }
        }
    }
    ContentRoot::new(to)
}

/// A game on `root` in which Water is used (R8.1: it always changes the board),
/// with the (1-based) decision that used it first.
fn game_using_water(root: &ContentRoot) -> (Session, usize) {
    for seed in 100..300 {
        let session = game(root, seed, 10_000);
        let water = session.engine.content().card_id("water").unwrap();
        let used = session.decisions().position(|c| *c == Choice::Card(water));
        if let Some(i) = used {
            return (session, i + 1);
        }
    }
    panic!("no game uses Water");
}

#[test]
fn a_save_whose_scripts_changed_loads_names_them_and_finds_the_first_difference() {
    let root = copy_content("changed");
    let dir = scratch("changed_saves");
    let path = dir.join("game.json");
    let (session, used_at) = game_using_water(&root);
    let card = "water";
    session.save(&path, seats()).unwrap();

    // Saved from the repository, loaded from an unchanged copy: nothing changed.
    let (copy, replay, _) = Session::load(&root, &path).unwrap();
    assert!(replay.changed.is_empty() && replay.same_game(), "{replay:?}");
    assert_eq!(copy.digest(), session.digest());

    // A comment added to the card's script and to its manifest: both files are
    // named, and the game is the same.
    let script = root.path().join(format!("cards/{card}.lua"));
    let manifest = root.path().join(format!("cards/{card}.yaml"));
    let source = std::fs::read_to_string(&script).unwrap();
    std::fs::write(&script, format!("-- reviewed\n{source}")).unwrap();
    let yaml = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, format!("{yaml}\n# reviewed too\n")).unwrap();
    let (same, replay, _) = Session::load(&root, &path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replay.changed, [format!("cards/{card}.lua"), format!("cards/{card}.yaml")]);
    assert!(replay.same_game(), "{replay:?}");
    assert_eq!(same.digest(), session.digest());

    // The card made to do nothing: the save still loads, and the first difference
    // is at the decision that used it.
    std::fs::write(&script, format!("{source}\nfunction play(ctx) end\n")).unwrap();
    let (changed, replay, _) = Session::load(&root, &path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replay.changed, [format!("cards/{card}.lua"), format!("cards/{card}.yaml")]);
    let (at, why) = replay.differs.clone().or(replay.diverged.clone()).expect("the game differs");
    assert_eq!(at, used_at, "{why}");
    assert!(why.contains(&format!("decision {used_at}")), "{why}");
    assert!(changed.decisions().len() >= used_at, "the game goes on from where it differs");
    assert_eq!(
        changed.decisions().take(used_at - 1).collect::<Vec<_>>(),
        session.decisions().take(used_at - 1).collect::<Vec<_>>()
    );

    // The REPL says the same, in a process started in the changed copy.
    let (out, _) = run_in(root.path(), &["--load", &path.display().to_string()], "log\nquit\n");
    assert!(out.contains(&format!("Scripts changed since this game was saved: cards/{card}.lua")), "{out}");
    assert!(out.contains("The game now differs") && out.contains(&format!("decision {used_at}")), "{out}");
}

/// A game begun on a modded deck given by path is continued on that mod's
/// scripts, from any folder: `--load`, `replay` and the REPL's `load` find the
/// content root the saved deck path lies in, as starting the game did.
#[test]
fn a_save_of_a_deck_given_by_path_loads_from_that_decks_content_root() {
    let root = copy_content("modded");
    let water = root.path().join("cards/water.lua");
    let source = std::fs::read_to_string(&water).unwrap();
    std::fs::write(&water, format!("-- modded\n{source}")).unwrap();
    let deck = root.path().join("cards/decks/standard.yaml").display().to_string();
    let elsewhere = scratch("modded_elsewhere");
    let save = elsewhere.join("game.json").display().to_string();
    let (out, _) = run_in(&elsewhere, &["--deck", &deck, "--seed", "7"], &format!("c3-d4\nsave {save}\nquit\n"));
    assert!(out.contains("saved 1 decisions"), "{out}");

    let found = alien_checkers::session::root_for_save(None, Path::new(&save), ContentRoot::discover);
    assert_eq!(std::fs::canonicalize(found.path()).unwrap(), std::fs::canonicalize(root.path()).unwrap());
    let (out, _) = run_in(&elsewhere, &["--load", &save], "quit\n");
    assert!(!out.contains("changed"), "the mod's own scripts, unchanged: {out}");
    assert!(out.contains(&format!("deck {deck}")), "{out}");
    let (out, _) = run_in(&elsewhere, &["replay", &save], "");
    assert!(!out.contains("changed") && out.contains("after 1 decisions"), "{out}");
    // Another game on the shipped content, in a folder of its own (quit's autosave lands there).
    let shipped_game = scratch("shipped_cwd");
    let shipped_root = env!("CARGO_MANIFEST_DIR");
    let (out, _) = run_in(&shipped_game, &["--root", shipped_root, "--seed", "3"], &format!("load {save}\nquit\n"));
    assert!(out.contains("loaded") && !out.contains("changed"), "{out}");
    // With --root, the root given wins: the shipped water.lua differs from the mod's.
    let shipped = env!("CARGO_MANIFEST_DIR");
    let (out, _) = run_in(&elsewhere, &["--load", &save, "--root", shipped], "quit\n");
    let changed = out.lines().find(|l| l.starts_with("Scripts changed since this game was saved")).expect(&out);
    assert!(changed.contains("cards/water.lua"), "{out}");
}

#[test]
fn a_resigned_game_is_saved_as_format_3_and_loads_resigned() {
    use alien_checkers::game::{EndReason, Outcome};
    let dir = scratch("resigned");
    let path = dir.join("game.json");
    let mut session = game(&repo(), 22, 20);
    let before = session.digest();
    let outcome = Outcome { winner: Some(Player::Light), reason: EndReason::Resigned };
    session.end_at_table(outcome).unwrap();
    assert!(session.end_at_table(outcome).is_err(), "a game ends once");
    assert_ne!(session.digest(), before);
    session.save(&path, seats()).unwrap();
    let record = read_record(&path).unwrap();
    assert_eq!((record.version, record.ended), (3, Some(outcome)), "shipped content: no root, format 3");
    assert_loads_as(&path, &session);
    let (loaded, _, _) = Session::load(&repo(), &path).unwrap();
    assert_eq!(loaded.outcome(), Some(outcome));
    // Undo takes the ending back: the game is where it was.
    let mut loaded = loaded;
    loaded.undo(0);
    assert_eq!((loaded.digest(), loaded.outcome()), (before, None));
    // A hand-edited ending that contradicts itself is refused, naming why.
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(saved["ended"], serde_json::json!({"winner": "light", "reason": "resigned"}));
    for (ended, why) in [
        (serde_json::json!({"winner": null, "reason": "resigned"}), "a resignation has a winner"),
        (serde_json::json!({"winner": "dark", "reason": "agreed"}), "an agreed draw has no winner"),
    ] {
        let mut record = saved.clone();
        record["ended"] = ended;
        let edited = dir.join("edited.json");
        std::fs::write(&edited, record.to_string()).unwrap();
        let error = Session::load(&repo(), &edited).err().expect("refused").to_string();
        assert!(error.contains(why) && error.contains("edited or damaged"), "{error}");
    }
    // An edited digest with no script changed: the REPL does not blame the scripts.
    let mut record = saved;
    record["digests"][0] = serde_json::json!(12345);
    let edited = dir.join("digest.json");
    std::fs::write(&edited, record.to_string()).unwrap();
    let (out, _) = run_in(&dir, &["--load", &edited.display().to_string()], "quit\n");
    assert!(
        out.contains("The game now differs: the deal is not the one saved, though no script or manifest changed"),
        "{out}"
    );
    assert!(!out.contains("Scripts changed"), "{out}");
}

/// A game on a named deck of a modded content root (`--root`) records that root
/// (format 4), so `--load`, `replay` and the REPL's `load` find the mod's
/// scripts again from any folder; a game on the shipped content records none
/// (format 2, readable by older programs).
#[test]
fn a_save_of_a_modded_root_records_it_and_loads_from_it() {
    let root = copy_content("modded_root");
    let water = root.path().join("cards/water.lua");
    let source = std::fs::read_to_string(&water).unwrap();
    std::fs::write(&water, format!("-- modded\n{source}")).unwrap();
    let elsewhere = scratch("modded_root_elsewhere");
    let save = elsewhere.join("game.json").display().to_string();
    let root_arg = root.path().display().to_string();
    let (out, _) = run_in(&elsewhere, &["--root", &root_arg, "--seed", "7"], &format!("c3-d4\nsave {save}\nquit\n"));
    assert!(out.contains("saved 1 decisions"), "{out}");
    let record = read_record(Path::new(&save)).unwrap();
    assert_eq!(record.version, 4);
    assert_eq!(record.root.as_deref(), Some(std::fs::canonicalize(root.path()).unwrap().as_path()));

    let (out, _) = run_in(&elsewhere, &["--load", &save], "log\nquit\n");
    assert!(out.contains("c3-d4") && !out.contains("changed"), "the mod's own scripts: {out}");
    // Its autosave needs no --root to continue either.
    let hint = out.lines().find(|l| l.contains("continue it with")).expect(&out);
    assert!(!hint.contains("--root"), "{hint}");
    let (out, _) = run_in(&elsewhere, &["replay", &save], "");
    assert!(!out.contains("changed") && out.contains("after 1 decisions"), "{out}");
    // Another game on the shipped content, in a folder of its own (quit's autosave lands there).
    let shipped_game = scratch("shipped_cwd");
    let shipped_root = env!("CARGO_MANIFEST_DIR");
    let (out, _) = run_in(&shipped_game, &["--root", shipped_root, "--seed", "3"], &format!("load {save}\nquit\n"));
    assert!(out.contains("loaded") && !out.contains("changed"), "{out}");

    // The shipped content: no root in the save.
    let shipped = elsewhere.join("shipped.json").display().to_string();
    let (out, _) = run_in(&elsewhere, &["--seed", "7"], &format!("c3-d4\nsave {shipped}\nquit\n"));
    assert!(out.contains("saved 1 decisions"), "{out}");
    let record = read_record(Path::new(&shipped)).unwrap();
    assert_eq!((record.version, record.root), (2, None));
}

/// The temporary file a save writes first has a name no one can guess (64
/// random bits), so a link planted where it would be is never followed: here
/// links at the names earlier versions used (`.NAME.tmp-<pid>-<count>`), planted
/// before the process saves, point at a file that must stay as it was.
#[test]
fn a_link_planted_at_a_temporary_name_is_not_followed() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = scratch("planted_link");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_alien-checkers"))
        .args(["--seed", "7", "--light", "human"])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    for name in ["game.json", "alien-checkers-autosave-7.json"] {
        for call in 0..8 {
            let link = dir.join(format!(".{name}.tmp-{}-{call}", child.id()));
            std::os::unix::fs::symlink(&victim, link).unwrap();
        }
    }
    child.stdin.take().unwrap().write_all(b"c3-d4\nsave game.json\nquit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("saved 1 decisions to game.json"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious", "a planted link was followed");
    for name in ["game.json", "alien-checkers-autosave-7.json"] {
        assert!(std::fs::symlink_metadata(dir.join(name)).unwrap().is_file(), "{name} is a file, not a link");
        assert_eq!(read_record(&dir.join(name)).unwrap().decisions, ["c3-d4"]);
    }

    // The names themselves: the same file saved twice gets two unrelated names.
    let ours = format!(".game.json.tmp-{}-", std::process::id());
    let mut names = Vec::new();
    for _ in 0..2 {
        let _ = write_atomically(&dir.join("game.json"), b"{}", &mut |_| {
            names.extend(files_in(&dir).into_iter().filter(|f| f.starts_with(&ours)));
            Err(std::io::Error::other("stop"))
        });
    }
    assert_eq!(names.len(), 2, "{names:?}");
    assert_ne!(names[0], names[1]);
    for name in &names {
        let token = &name[ours.len()..];
        assert!(token.len() >= 16, "a random part of 64 bits: {name}");
    }
}

/// A save killed mid-write leaves its temporary file; the next save in that
/// folder removes such files once they are stale (their process is gone, or
/// they are over an hour old), and leaves everything else alone: a save in
/// progress, and files that are not this program's.
#[test]
fn stale_temporary_files_are_removed_by_the_next_save() {
    let dir = scratch("stale");
    let pid = std::process::id();
    let write = |name: &str| std::fs::write(dir.join(name), "partial").unwrap();
    // A process id above any kernel's limit: no such process.
    let dead = format!(".game.json.tmp-999999999-{:016x}", 7);
    let old = format!(".other.json.tmp-{pid}-00ff00ff00ff00ff");
    let fresh = format!(".third.json.tmp-{pid}-0123456789abcdef");
    for name in [&dead, &old, &fresh, ".notes.tmp-draft", "notes.txt", ".hidden.tmp-12-zz"] {
        write(name);
    }
    let two_hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 3600);
    std::fs::File::options().write(true).open(dir.join(&old)).unwrap().set_modified(two_hours_ago).unwrap();

    game(&repo(), 8, 10).save(&dir.join("game.json"), seats()).unwrap();
    let mut kept = vec![fresh.clone(), ".hidden.tmp-12-zz".into(), ".notes.tmp-draft".into()];
    kept.extend(["game.json".to_string(), "notes.txt".into()]);
    if !cfg!(target_os = "linux") {
        // Elsewhere a process is not looked up: only the age tells.
        kept.push(dead);
    }
    kept.sort();
    assert_eq!(files_in(&dir), kept, "the stale temporary files go, and only they");
}

/// A save whose position digests are wrong, or missing from a format that
/// always has them, is refused, naming the first decision that differs; it
/// loads only when asked outright (`--accept-edited`, `load!`), which says so.
#[test]
fn a_save_with_a_wrong_or_missing_digest_is_refused_unless_accepted() {
    use serde_json::json;
    let dir = scratch("wrong_digest");
    // Both seats human, so that no computer plays on after a load.
    let humans = BTreeMap::from([(Player::Dark, "human".to_string()), (Player::Light, "human".to_string())]);
    let good = game(&repo(), 4, 40).record(humans);
    assert!(good.decisions.len() > 12);
    let wrong = refused(&dir, "wrong.json", &edited(&good, |o| o["digests"][12] = json!(1)), &["decision 12"]);
    assert!(wrong.contains("edited") && wrong.contains("--accept-edited"), "{wrong}");
    let missing = edited(&good, |o| drop(o.remove("digests")));
    let error = refused(&dir, "missing.json", &missing, &["no position digests"]);
    assert!(error.contains("--accept-edited"), "{error}");
    refused(&dir, "empty.json", &edited(&good, |o| o["digests"] = json!([])), &["no position digests"]);

    let file = |name: &str| dir.join(name).display().to_string();
    let (wrong, missing) = (file("wrong.json"), file("missing.json"));
    // The command line: refused with status 2, or loaded when accepted.
    let run = common::run_binary(&dir, &["--load", &wrong], &[], "quit\n");
    assert!(!run.success && run.stderr.contains("decision 12"), "{}{}", run.stdout, run.stderr);
    let run = common::run_binary(&dir, &["--load", &wrong, "--accept-edited"], &[], "digest\n");
    assert!(run.success, "{}", run.stderr);
    let said = "loading an edited save: decisions from 12 on may not be the game that was played";
    assert!(run.stdout.contains(said), "{}", run.stdout);
    assert!(run.stdout.contains(&format!("after {} decisions", good.decisions.len())), "{}", run.stdout);
    let run = common::run_binary(&dir, &["replay", &missing], &[], "");
    assert!(!run.success && run.stderr.contains("no position digests"), "{}", run.stderr);
    let run = common::run_binary(&dir, &["replay", &missing, "--accept-edited"], &[], "");
    assert!(run.success && run.stdout.contains("loading an edited save"), "{}{}", run.stdout, run.stderr);
    // In a game: `load` refuses and keeps the game, `load!` loads.
    let input = format!("load {wrong}\ndigest\nload! {wrong}\ndigest\n");
    let run = common::run_binary(&dir, &["--seed", "3", "--light", "human"], &[], &input);
    assert!(
        run.stdout.contains("decision 12") && run.stdout.contains("the current game is unchanged"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("after 0 decisions"), "{}", run.stdout);
    assert!(run.stdout.contains(said), "{}", run.stdout);
    assert!(run.stdout.contains(&format!("after {} decisions", good.decisions.len())), "{}", run.stdout);
}

/// The file a save's deck names is read only as a deck: a save whose deck is
/// some other file is refused without quoting a word of it.
#[test]
fn a_save_whose_deck_is_another_file_is_refused_without_quoting_it() {
    let dir = scratch("not_a_deck");
    let good = game(&repo(), 4, 10).record(seats());
    for name in ["secret.txt", "secret.yaml"] {
        let secret = dir.join(name);
        std::fs::write(&secret, "hunter2 is the password\nand more\n").unwrap();
        let deck = secret.display().to_string();
        let save = format!("deck-{name}.json");
        let error =
            refused(&dir, &save, &edited(&good, |o| o["deck"] = deck.clone().into()), &["cannot load its deck"]);
        assert!(!error.contains("hunter2") && !error.contains("password"), "{error}");
        let run = common::run_binary(&dir, &["replay", &dir.join(&save).display().to_string()], &[], "");
        assert!(!run.success && run.stderr.contains(name), "{}", run.stderr);
        assert!(!run.stderr.contains("hunter2") && !run.stderr.contains("password"), "{}", run.stderr);
    }
}

/// Whether `out` holds no character that acts on a terminal or reorders text.
#[track_caller]
fn nothing_obeyed(out: &str) {
    for c in ['\x1b', '\u{202e}'] {
        assert!(!out.contains(c), "U+{:04X} reached the terminal: {out}", c as u32);
    }
}

/// A save's seat that names no player is told as it is written, made
/// visible: the file may hold anything.
#[test]
fn a_saves_seat_is_shown_escaped() {
    let dir = scratch("evil_seat");
    let good = game(&repo(), 4, 10).record(seats());
    let save = edited(&good, |o| {
        o["seats"].as_object_mut().unwrap().values_mut().for_each(|v| *v = "\u{1b}[2J\u{202e}namuh".into())
    });
    std::fs::write(dir.join("seat.json"), save).unwrap();
    let run = common::run_binary(&dir, &["--load", "seat.json", "--light", "human"], &[], "quit\n");
    nothing_obeyed(&run.stdout);
    nothing_obeyed(&run.stderr);
    let said = "The save's seat for Dark is not used: '\\x1b[2J\\u{202e}namuh' is not a player";
    assert!(run.stdout.contains(said), "{}", run.stdout);
}

/// A save's deck is quoted, made visible, wherever the save is read: when
/// its deck does not load (`--load`, `replay`, `load`), and when saving over
/// it would lose that other game.
#[test]
fn a_saves_deck_is_shown_escaped() {
    let dir = scratch("evil_deck");
    let good = game(&repo(), 4, 10).record(seats());
    std::fs::write(dir.join("deck.json"), edited(&good, |o| o["deck"] = "no\u{1b}[2Jsuch\u{202e}deck".into())).unwrap();
    let shown = "no\\x1b[2Jsuch\\u{202e}deck";
    for args in [&["--load", "deck.json"][..], &["replay", "deck.json"]] {
        let run = common::run_binary(&dir, args, &[], "quit\n");
        assert!(!run.success, "{}", run.stdout);
        nothing_obeyed(&run.stdout);
        nothing_obeyed(&run.stderr);
        assert!(run.stderr.contains(&format!("cannot load its deck '{shown}'")), "{}", run.stderr);
    }
    let run = common::run_binary(&dir, &["--seed", "7", "--light", "human"], &[], "load deck.json\nsave deck.json\n");
    nothing_obeyed(&run.stdout);
    nothing_obeyed(&run.stderr);
    assert!(run.stdout.contains(&format!("cannot load its deck '{shown}'")), "{}", run.stdout);
    assert!(run.stdout.contains(&format!("deck.json holds another game (deck {shown}, seed 4")), "{}", run.stdout);
}

/// An edited decision is not let in by claiming a script changed: when the
/// saved position after a decision is the one another option gives, that
/// option was played and the save was edited, whatever its hashes say.
#[test]
fn a_false_script_hash_does_not_let_an_edited_decision_in() {
    use serde_json::json;
    let dir = scratch("false_hash");
    let session = game(&repo(), 6, 40);
    let good = session.record(seats());
    // The first decision from the tenth on with another option that changes the game.
    let mut replayed = Session::new(&repo(), "standard", 6).unwrap();
    let mut edit = None;
    for (i, choice) in session.decisions().enumerate() {
        if i >= 9 && edit.is_none() {
            let options = replayed.pending().unwrap().options.clone();
            edit = options.iter().filter(|o| *o != choice).find_map(|o| {
                let mut other = Session::new(&repo(), "standard", 6).unwrap();
                for c in session.decisions().take(i) {
                    other.apply(c).unwrap();
                }
                other.apply(o).unwrap();
                (other.digest() != good.digests[i + 1]).then(|| (i + 1, replayed.choice_text(o)))
            });
        }
        replayed.apply(choice).unwrap();
    }
    let (n, other) = edit.expect("a decision with another option");
    let bytes = edited(&good, |o| {
        o["decisions"][n - 1] = json!(other);
        let hash = o["hashes"]["cards/water.lua"].as_u64().unwrap();
        o["hashes"]["cards/water.lua"] = json!(hash ^ 1);
    });
    let error = refused(&dir, "false_hash.json", &bytes, &[&format!("decision {n}"), "edited"]);
    assert!(error.contains(&format!("'{other}'")), "{error}");
}

/// A deck given by a path relative to the folder the game was started in is
/// recorded so that the save replays and loads from any other folder, with
/// `--root` or without.
#[test]
fn a_save_of_a_deck_given_by_a_relative_path_loads_from_any_folder() {
    let card = "function play(ctx)\n  ctx:place_terrain('d4', 'water')\nend\n";
    let never = "function check(ctx, player) return false end\n";
    let root = common::scratch_content("saves-relative", &[("ember", card)], &[("mud", never), ("dust", never)]);
    let deck = "cards/decks/test.yaml";
    let args = ["--deck", deck, "--seed", "5", "--light", "human"];
    let run = common::run_binary(root.path(), &args, &[], "c3-d4\nsave game.json\nquit\n");
    assert!(run.stdout.contains("saved 1 decisions to game.json"), "{}{}", run.stdout, run.stderr);
    let save = root.path().join("game.json").display().to_string();
    let autosave = root.path().join("alien-checkers-autosave-test-5.json");
    let autosave = if autosave.exists() { autosave } else { root.path().join("alien-checkers-autosave-5.json") };
    let autosave = autosave.display().to_string();
    let elsewhere = scratch("relative_elsewhere");
    let root_arg = root.path().display().to_string();
    for file in [&save, &autosave] {
        for extra in [&[][..], &["--root", &root_arg][..]] {
            let run = common::run_binary(&elsewhere, &[&["replay", file.as_str()][..], extra].concat(), &[], "");
            assert!(run.success, "replay {file} {extra:?}: {}", run.stderr);
            assert!(!run.stdout.contains("changed") && run.stdout.contains("after 1 decisions"), "{}", run.stdout);
            let load = [&["--load", file.as_str(), "--light", "human"][..], extra].concat();
            let run = common::run_binary(&elsewhere, &load, &[], "digest\n");
            assert!(run.success, "--load {file} {extra:?}: {}", run.stderr);
            assert!(run.stdout.contains("after 1 decisions") && !run.stdout.contains("changed"), "{}", run.stdout);
        }
    }
    // A save made before, which recorded the relative path as given, is read
    // against the content root it records.
    let record = read_record(Path::new(&save)).unwrap();
    assert!(Path::new(&record.deck).is_absolute(), "{}", record.deck);
    let old = edited(&record, |o| o["deck"] = deck.into());
    std::fs::write(elsewhere.join("old.json"), old).unwrap();
    let run = common::run_binary(&elsewhere, &["replay", "old.json"], &[], "");
    assert!(run.success && run.stdout.contains("after 1 decisions"), "{}{}", run.stdout, run.stderr);
}
