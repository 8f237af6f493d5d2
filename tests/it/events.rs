//! The event stream (game/event.rs, kernel/event.rs): every change of the board
//! between two decisions is explained by the events recorded for it, in random
//! games of every shipped deck; the same decisions record the same events, also
//! after a save and a load; and a checker leaves the board only with an event
//! that says so.

use crate::common;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use alien_checkers::content::ContentRoot;
use alien_checkers::game::{Choice, Event, EventKind, EventLog, GameEvent, GameState, Logged, Step};
use alien_checkers::kernel::{Board, BoardEvent, Checker, Crowning, Kind, Move, Player, Square, Supply};
use alien_checkers::script::ScriptEngine;
use alien_checkers::session::Session;

fn engine(deck: &str) -> ScriptEngine {
    ScriptEngine::load(&common::repo(), deck).unwrap_or_else(|p| panic!("{p}"))
}

/// What an event says about which checker is which agrees with the board it
/// happened on (`board`, before the event): a mover, a pushed or crowned checker
/// and a capturer are the checkers that stood there, a taken or removed checker
/// is the one on its square, and a checker from the reserve is a new one.
/// With `redo` keeping numbers, the board's equality after redoing then shows
/// that every checker kept its number through the decision.
#[track_caller]
fn keeps_identity(board: &Board, event: &BoardEvent, seed: u64) {
    let id_at = |sq: Square| board.checker(sq).map(|c| c.id);
    let fine = match event {
        // A move played hop by hop is over: its landings moved the checker.
        BoardEvent::Moved { to, id, hops: true, .. } => board.find_checker(*id).is_none_or(|at| at == *to),
        BoardEvent::Moved { from, id, .. }
        | BoardEvent::Pushed { from, id, .. }
        | BoardEvent::Landed { from, id, .. } => id_at(*from) == Some(*id),
        // A move is told before its captures, so the capturer may stand on its
        // last landing already.
        BoardEvent::Captured { at, checker, capturer, .. } => {
            board.checker(*at) == Some(*checker)
                && board.find_checker(*capturer).and_then(|sq| board.owner(sq)) == Some(!checker.owner)
        }
        BoardEvent::Removed { at, checker, .. } | BoardEvent::SetAside { at, checker } => {
            board.checker(*at) == Some(*checker)
        }
        BoardEvent::Crowned { at, id, .. } => id_at(*at) == Some(*id),
        BoardEvent::Revived { id, .. } => *id != 0 && board.find_checker(*id).is_none(),
        BoardEvent::PutBack { checker, .. } => checker.id != 0 && board.find_checker(checker.id).is_none(),
        _ => true,
    };
    assert!(fine, "seed {seed}: {event:?} does not name the checkers of the board it happened on");
}

/// Plays a random game with recording on and checks, after every decision,
/// that redoing its board events on the board before gives the board after.
/// Returns the events, one list per decision.
fn explained_game(engine: &ScriptEngine, seed: u64) -> Vec<Vec<Logged>> {
    let mut state = GameState::new(&engine.content().setup(), seed);
    *state.journal_mut() = EventLog::recording();
    state.settle(engine).expect("a new game settles");
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xe7e7);
    let mut all = vec![state.journal_mut().take()];
    while let Some(decision) = state.pending(engine) {
        let pick = decision.options[(rng.next_u32() as usize) % decision.options.len()].clone();
        let before = state.board;
        state.apply(engine, &pick).unwrap_or_else(|e| panic!("seed {seed}: {pick} failed: {e}"));
        let events = state.journal_mut().take();
        let mut redone = before;
        for event in &events {
            if let Event::Board(e) = &event.event {
                keeps_identity(&redone, e, seed);
                e.redo(&mut redone);
            }
        }
        assert_eq!(
            redone, state.board,
            "seed {seed}, turn {}: the events of {pick} do not explain the board: {events:?}",
            state.turn
        );
        all.push(events);
    }
    all
}

#[test]
fn events_explain_every_change_of_the_board_in_random_games_of_every_deck() {
    let root = ContentRoot::new(env!("CARGO_MANIFEST_DIR"));
    let mut kinds = std::collections::BTreeSet::new();
    let mut games = 0;
    for deck in root.deck_names() {
        let engine = engine(&deck);
        let count = if deck == "plain" { 500 } else { 1000 };
        for seed in 0..count {
            let mut whose_turn = Player::Dark;
            for events in explained_game(&engine, seed) {
                for event in events {
                    if let Event::Game(GameEvent::TurnBegan { player, .. }) = event.event {
                        whose_turn = player;
                    }
                    let json = serde_json::to_value(&event).unwrap();
                    let kind = json["kind"].as_str().expect("every event has a kind");
                    // The serialized kind is the name `EventKind` gives it.
                    assert_eq!(kind, event.kind().name(), "{json}");
                    assert_eq!(EventKind::named(kind), Some(event.kind()));
                    kinds.insert(kind.to_string());
                    // `move` and `player` (whose turn) are added around every event in
                    // `replay --events` and in a script's event table (README, "Events"):
                    // an event's own field never says something else under those names.
                    assert!(json.get("move").is_none(), "{json}");
                    if let Some(player) = json.get("player") {
                        assert_eq!(player, &serde_json::to_value(whose_turn).unwrap(), "not whose turn: {json}");
                    }
                }
            }
            games += 1;
        }
    }
    assert!(games >= 2500, "{games} games");
    // The random games reach every kind of board change the shipped cards make.
    for kind in [
        "moved",
        "captured",
        "removed",
        "pushed",
        "crowned",
        "made_emperor",
        "revived",
        "token_placed",
        "token_removed",
        "terrain_placed",
        "terrain_removed",
        "walls_placed",
        "wall_removed",
        "monolith_placed",
        "monolith_moved",
        "rotated",
        "set_aside",
        "put_back",
        "turn_began",
        "card_drawn",
        "card_used",
        "card_discarded",
        "reshuffled",
        "draw_pile_reordered",
        "step_skipped",
        "answered_automatically",
        "constraint_set",
        "constraint_met",
        "constraint_lapsed",
        "effect_started",
        "effect_ended",
        "game_over",
    ] {
        assert!(kinds.contains(kind), "no '{kind}' event in {games} random games: {kinds:?}");
    }
}

#[test]
fn search_without_recording_records_nothing_and_plays_the_same_game() {
    let engine = engine("standard");
    let mut quiet = GameState::new(&engine.content().setup(), 5);
    let mut loud = quiet.clone();
    *loud.journal_mut() = EventLog::recording();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    while let Some(decision) = quiet.pending(&engine) {
        let pick = decision.options[(rng.next_u32() as usize) % decision.options.len()].clone();
        quiet.apply(&engine, &pick).unwrap();
        loud.apply(&engine, &pick).unwrap();
        assert!(quiet.journal().events().is_empty());
        assert_eq!(quiet, loud);
        assert_eq!(quiet.digest(), loud.digest(), "the journal is not part of the position");
        loud.journal_mut().take();
    }
}

#[test]
fn the_same_decisions_record_the_same_events_after_a_save_and_a_load() {
    let root = common::repo();
    let dir = common::scratch_dir("events", "save");
    for seed in [11, 12] {
        let mut session = Session::new(&root, "standard", seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while let Some(decision) = session.state().pending(&session.engine) {
            let pick = decision.options[(rng.next_u32() as usize) % decision.options.len()].clone();
            session.apply(&pick).unwrap();
        }
        let file = dir.join(format!("game-{seed}.json"));
        session.save(&file, Default::default()).unwrap();
        let (loaded, replay, _) = Session::load(&root, &file).unwrap();
        assert!(replay.same_game());
        assert_eq!(loaded.events().collect::<Vec<_>>(), session.events().collect::<Vec<_>>(), "seed {seed}");
        // Every checker that left the board left with a capture or removal event.
        let events: Vec<&Event> = session.events().flatten().map(|l| &l.event).collect();
        let left = events
            .iter()
            .filter(|e| matches!(e, Event::Board(BoardEvent::Captured { .. } | BoardEvent::Removed { .. })))
            .count();
        let arrived = events.iter().filter(|e| matches!(e, Event::Board(BoardEvent::Revived { .. }))).count();
        let on_board: u32 = Player::BOTH.iter().map(|&p| session.state().board.checkers(p).count()).sum();
        assert_eq!(24 + arrived - left, on_board as usize, "seed {seed}");
        assert!(matches!(events.last(), Some(Event::Game(GameEvent::GameOver { .. }))));
    }
}

#[test]
fn replay_events_of_a_game_against_the_computer_list_every_checker_that_left_the_board() {
    let dir = common::scratch_dir("events", "replay");
    let save = dir.join("vs-computer.json");
    // The human takes the first option every time; the computer plays at `easy`.
    let input = format!("{}save {}\nquit\n", "1\n".repeat(3000), save.display());
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let game = common::run_binary(here, &["--seed", "21", "--light", "easy"], &[], &input);
    assert!(game.success && (game.stdout.contains(" wins: ") || game.stdout.contains("Draw: ")), "{}", game.stderr);

    let replay = common::run_binary(here, &["replay", &save.display().to_string(), "--events"], &[], "");
    assert!(replay.success, "{}", replay.stderr);
    let events: Vec<serde_json::Value> = replay
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not one JSON object per line: {l}: {e}")))
        .collect();
    for e in &events {
        assert!(e["move"].as_u64().is_some_and(|m| m >= 1), "{e}");
        assert!(matches!(e["player"].as_str(), Some("dark" | "light")), "{e}");
        let kind = e["kind"].as_str().unwrap_or_else(|| panic!("no kind: {e}"));
        assert!(kind.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{kind}");
        if kind == "removed" {
            assert!(e["reason"].is_string(), "a removal says why: {e}");
        }
        // Every event names its cause; a card's names the card by its id.
        let by = e["cause"]["by"].as_str().unwrap_or_else(|| panic!("no cause: {e}"));
        assert!(matches!(by, "turn" | "card" | "effect" | "rule" | "planet"), "{e}");
        if by == "card" {
            assert!(e["cause"]["card"].is_string(), "{e}");
        }
    }
    let count = |kind: &str| events.iter().filter(|e| e["kind"] == kind).count();
    let (session, _, _) = Session::load(&common::repo(), &save).unwrap();
    let on_board: usize = Player::BOTH.iter().map(|&p| session.state().board.checkers(p).count() as usize).sum();
    assert!(count("captured") > 0, "the game had captures");
    assert_eq!(count("captured") + count("removed"), 24 + count("revived") - on_board, "every checker that left");
    assert_eq!(events.last().map(|e| e["kind"].clone()), Some("game_over".into()));
}

/// A handler's `event.player` is whose turn it happened in, and whose checker the
/// event concerns is the event's own field: here Light's card crowns a pawn of
/// Dark's (R6.2 crowns it whoever moved it), which Dark's effect hears of.
#[test]
fn a_handler_tells_whose_checker_from_whose_turn() {
    let watcher = "function play(ctx)\n  ctx:add_effect{ lasts = 'game' }\nend\n\
        function on_crowned(ctx, event)\n  ctx:log(event.owner .. ' crowned in the turn of ' .. event.player)\nend";
    let lifter = "function play(ctx)\n  local them = ctx:opponent()\n\
        local pawn = ctx:checker_squares{ owner = them, kind = 'pawn' }[1]\n\
        ctx:relocate(pawn, ctx:squares{ empty = true, king_row = them }[1])\nend";
    let never = "function check(ctx, player) return false end";
    let root = common::scratch_content(
        "events",
        &[("watcher", watcher), ("lifter", lifter)],
        &[("never", never), ("never_either", never)],
    );
    let engine = ScriptEngine::load(&root, "test").unwrap_or_else(|p| panic!("{p}"));
    let id = |name: &str| engine.content().card_id(name).unwrap();
    let mut state = GameState::new(&engine.content().setup(), 7);
    state.hidden_mut().piles.face_up = [id("watcher"), id("lifter")].into_iter().collect();
    state.hidden_mut().piles.draw.clear();
    state.position_mut().step = Step::Card;
    state.position_mut().board.set_reserve(Player::Dark, 3);
    state.apply(&engine, &Choice::Card(id("watcher"))).unwrap();
    let light_move = state.pending(&engine).expect("Light moves").options[0].clone();
    state.apply(&engine, &light_move).unwrap();
    assert_eq!(state.to_move, Player::Light);
    *state.journal_mut() = EventLog::recording();
    state.apply(&engine, &Choice::Card(id("lifter"))).unwrap();
    let events = state.journal_mut().take();
    let crowned = events.iter().find(|e| e.kind() == EventKind::Crowned).expect("Dark's pawn is crowned");
    assert_eq!(serde_json::to_value(crowned).unwrap()["owner"], "dark", "{crowned:?}");
    let told: Vec<&str> = events
        .iter()
        .filter_map(|e| match &e.event {
            Event::Game(GameEvent::Message { text, .. }) => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(told, ["dark crowned in the turn of light"]);
}

/// A reader that stops early (`replay FILE --events | head`) ends the command
/// quietly: no panic, success (before, `println!` panicked on the closed pipe).
#[test]
fn replay_into_a_closed_pipe_ends_quietly() {
    let dir = common::scratch_dir("events", "closed-pipe");
    let save = dir.join("short.json");
    let input = format!("{}save {}\nquit\n", "1\n".repeat(40), save.display());
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    // Played in the scratch folder, so that `quit`'s autosave lands there.
    let root = here.to_str().unwrap();
    let game = common::run_binary(&dir, &["--root", root, "--seed", "3", "--light", "random"], &[], &input);
    assert!(game.success && save.exists(), "{}", game.stderr);
    for args in [&["replay", save.to_str().unwrap(), "--events"][..], &["replay", save.to_str().unwrap()]] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_alien-checkers"))
            .args(args)
            .current_dir(here)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader goes away before the first line
        let done = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert!(done.status.success() && !stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// Each capture says where its capturer stood once it had taken it (issue 37):
/// the landing of that hop, a flying king's too, and after a capture in place
/// the square the capturer went back to.
#[test]
fn a_capture_says_where_its_capturer_landed() {
    let sq = |s: &str| s.parse::<Square>().unwrap();
    let offered = |from: &str, landings: &[&str], taken: &[&str]| {
        let landings: Vec<Square> = landings.iter().map(|s| sq(s)).collect();
        Move::offered(sq(from), &landings, taken.iter().map(|s| sq(s)).collect(), false).unwrap()
    };
    let pairs = |l: &[(&str, &str)]| l.iter().map(|(a, b)| (sq(a), sq(b))).collect::<Vec<_>>();
    let chain = offered("c3", &["e5", "g7"], &["d4", "f6"]);
    assert_eq!(chain.captures_in_order().to_vec(), pairs(&[("d4", "e5"), ("f6", "g7")]));
    let flying = offered("a1", &["e5", "c7"], &["c3", "d6"]);
    assert_eq!(flying.captures_in_order().to_vec(), pairs(&[("c3", "e5"), ("d6", "c7")]));
    let in_place = offered("d4", &["e5", "d4"], &["e5"]);
    assert_eq!(in_place.captures_in_order().to_vec(), pairs(&[("e5", "d4")]));
    let in_place_then_a_jump = offered("d4", &["e5", "d4", "b6"], &["e5", "c5"]);
    assert_eq!(in_place_then_a_jump.captures_in_order().to_vec(), pairs(&[("e5", "d4"), ("c5", "b6")]));

    // Played, the events carry it.
    let mut board = Board::empty(Supply::default(), Crowning::Free);
    board.set_checker(sq("c3"), Checker::new(Player::Dark, Kind::Pawn)).unwrap();
    for at in ["d4", "f6"] {
        board.set_checker(sq(at), Checker::new(Player::Light, Kind::Pawn)).unwrap();
    }
    let mut events: Vec<BoardEvent> = Vec::new();
    board.play(&chain, &mut events).unwrap();
    let landed: Vec<(Square, Square, Square)> = events
        .iter()
        .filter_map(|e| match e {
            BoardEvent::Captured { at, by, landed, .. } => Some((*at, *by, *landed)),
            _ => None,
        })
        .collect();
    assert_eq!(landed, [(sq("d4"), sq("c3"), sq("e5")), (sq("f6"), sq("c3"), sq("g7"))]);
    assert_eq!(board.checker(sq("g7")).map(|c| c.owner), Some(Player::Dark));
}

/// The test roots' decks (tests/data): moves played hop by hop (`landed`, a
/// chain cut short, a mover blown up between hops) and piece pools (captures
/// to the capturer's pool, exits, changes of side) are explained by their
/// events too, and every checker keeps its number through them.
#[test]
fn events_explain_hops_and_pools_in_random_games() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut kinds = std::collections::BTreeSet::new();
    for (root, deck) in [("hops", "hops"), ("pools", "pools")] {
        let engine = ScriptEngine::load(&ContentRoot::new(data.join(root)), deck).unwrap_or_else(|p| panic!("{p}"));
        for seed in 0..150 {
            for events in explained_game(&engine, seed) {
                kinds.extend(events.iter().map(|e| e.kind().name()));
            }
        }
    }
    for kind in ["landed", "captured", "removed", "owner_changed"] {
        assert!(kinds.contains(kind), "no '{kind}' in the random games: {kinds:?}");
    }
}
