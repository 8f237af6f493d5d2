//! Endings as deck rules (cards/README.md, "Endings as deck rules"): the test
//! decks' scenarios (tests/data/endings), what a verdict is told, a scored end
//! with no verdict, the deck checks, and `simulate`'s report naming a deck's
//! victories. S13 and S14 are Saving Private Checkers' end and kinds of victory.

use std::path::{Path, PathBuf};

use alien_checkers::ai::fully_visible;
use alien_checkers::content::{Content, ContentRoot};
use alien_checkers::game::{EndReason, GameState, Scored, Verdict, VictoryId};
use alien_checkers::kernel::Player;
use alien_checkers::script::ScriptEngine;
use alien_checkers::session::Session;
use alien_checkers::simulate::{self, Plan, Sinks, read_row, run, table};

use crate::common;

/// The test root's deck called `name` (`endings` or `faulty`), by path.
pub fn deck(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/endings/cards/decks/{name}.yaml"))
}

fn endings_root() -> ContentRoot {
    ContentRoot::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/endings"))
}

#[test]
fn the_endings_scenarios_pass() {
    let root = endings_root();
    let file = root.path().join("cards/endings.test.yaml");
    let outcomes = alien_checkers::scenario::run_file(&root, &file);
    assert!(outcomes.len() >= 8, "{} scenarios", outcomes.len());
    for outcome in outcomes {
        assert!(outcome.failure.is_none(), "{}: {:?}", outcome.name, outcome.failure);
    }
}

/// A content root with one deck `x` whose `rules:` end with `rules` and whose
/// one rule, `judge`, has the script `lua`.
fn scratch(tag: &str, rules: &str, lua: &str) -> ContentRoot {
    let dir = common::scratch_dir("endings", tag);
    std::fs::create_dir_all(dir.join("cards/decks")).unwrap();
    std::fs::write(dir.join("cards/judge.yaml"), "name: Judge\ntext: the deck's verdict\n").unwrap();
    std::fs::write(dir.join("cards/judge.lua"), lua).unwrap();
    let deck = format!(
        "name: x\neffects: [judge]\nrules:\n  crowning: free\n  cards: false\n  five_kings_win: false\n{rules}"
    );
    std::fs::write(dir.join("cards/decks/x.yaml"), deck).unwrap();
    ContentRoot::new(dir)
}

const TELLING: &str = "function verdict(ctx, why, who)\n  return { winner = who, reason = 'after_' .. why }\nend\n";

/// A verdict is told what ended the game (`why`) and whom it concerns (`who`),
/// and what it returns is read: the winner, and the victory by its place
/// among the deck's.
#[test]
fn a_verdict_is_told_why_and_who() {
    let rules = "  ends: {no_checkers: score, stuck: {of: either, then: score}, move_limit: {turns: 30, then: score}}\n  \
                 victories: [after_no_checkers, after_stuck, after_move_limit]\n";
    let root = scratch("told", rules, TELLING);
    let engine = ScriptEngine::load(&root, "x").unwrap_or_else(|p| panic!("{p}"));
    let state = GameState::deal(&engine.content().setup(), 1, &engine);
    let effect = state.effects[0].clone();
    let verdict = |scored| engine.verdict(&state, &effect, scored).unwrap();
    assert_eq!(
        verdict(Scored::NoCheckers(Some(Player::Light))),
        Verdict { winner: Some(Player::Light), victory: VictoryId(0) }
    );
    assert_eq!(verdict(Scored::NoCheckers(None)), Verdict { winner: None, victory: VictoryId(0) });
    assert_eq!(verdict(Scored::Stuck(Player::Dark)), Verdict { winner: Some(Player::Dark), victory: VictoryId(1) });
    assert_eq!(verdict(Scored::MoveLimit), Verdict { winner: None, victory: VictoryId(2) });
    // A verdict only reads: an operation there is refused, as in can_play.
    let root = scratch(
        "reads",
        rules,
        "function verdict(ctx, why)\n  ctx:remove_checker('a1')\n  return { reason = 'after_stuck' }\nend\n",
    );
    let engine = ScriptEngine::load(&root, "x").unwrap_or_else(|p| panic!("{p}"));
    let refused = engine.verdict(&state, &effect, Scored::MoveLimit).unwrap_err().message().to_string();
    assert!(refused.contains("judge.lua:2:") && refused.contains("may only read"), "{refused}");
    // A misspelt key is refused, not ignored.
    let root = scratch(
        "keys",
        rules,
        "function verdict(ctx, why)\n  return { winer = 'dark', reason = 'after_stuck' }\nend\n",
    );
    let engine = ScriptEngine::load(&root, "x").unwrap_or_else(|p| panic!("{p}"));
    let refused = engine.verdict(&state, &effect, Scored::MoveLimit).unwrap_err().message().to_string();
    assert!(refused.contains("a verdict is {winner = player or nil, reason = victory}"), "{refused}");
}

/// `ctx:end_game` ends the game at once: the run stops there, `pcall`
/// cannot catch it, and what the run did before stands (a handler here).
#[test]
fn end_game_stops_the_run_and_cannot_be_caught() {
    let handler = "function on_moved(ctx, event)\n  ctx:remove_checker('b6')\n  \
                   local ok = pcall(ctx.end_game, ctx, { winner = 'light', reason = 'won' })\n  \
                   ctx:remove_checker(event.to)\nend\n";
    let root = scratch("caught", "  when_stuck: lose\n  move_limit: 50\n  victories: [won]\n", handler);
    let engine = ScriptEngine::load(&root, "x").unwrap_or_else(|p| panic!("{p}"));
    let mut state = GameState::deal(&engine.content().setup(), 1, &engine);
    state.settle(&engine).unwrap();
    let c3_d4 = state.pending(&engine).unwrap().options.into_iter().find(|c| c.to_string() == "c3-d4").unwrap();
    state.apply(&engine, &c3_d4).unwrap();
    let outcome = state.outcome().expect("the handler ended the game");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Player::Light), EndReason::Rule { victory: VictoryId(0), by: None })
    );
    let (b6, d4) = ("b6".parse().unwrap(), "d4".parse().unwrap());
    assert_eq!(state.board.owner(b6), None, "what the handler did before ending the game stands");
    assert_eq!(state.board.owner(d4), Some(Player::Dark), "nothing after ctx:end_game ran");
}

/// A deck that scores an end but whose rules give no verdict: the end is a
/// draw (`unscored`), and the kernel-only search is not used on it (it does
/// not know the deck's ends).
#[test]
fn a_scored_end_without_a_verdict_is_drawn() {
    let root = scratch(
        "unjudged",
        "  when_stuck: lose\n  ends: {move_limit: {turns: 2, then: score}}\n  victories: [won]\n",
        "function on_moved(ctx, event) end\n",
    );
    let engine = ScriptEngine::load(&root, "x").unwrap_or_else(|p| panic!("{p}"));
    let mut state = GameState::deal(&engine.content().setup(), 1, &engine);
    state.settle(&engine).unwrap();
    for _ in 0..2 {
        let first = state.pending(&engine).unwrap().options[0].clone();
        state.apply(&engine, &first).unwrap();
    }
    let outcome = state.outcome().expect("the move limit ended the game");
    assert_eq!((outcome.winner, outcome.reason), (None, EndReason::Unscored(Scored::MoveLimit)));
    // The same deck without its rule: nothing is scripted, but an end is scored.
    let mut plain = GameState::deal(&engine.content().setup(), 1, &engine);
    plain.position_mut().effects.clear();
    plain.settle(&engine).unwrap();
    assert!(!fully_visible(&plain), "alpha-beta does not play a deck whose ends are its own");
    plain.position_mut().rules.ends = Default::default();
    assert!(fully_visible(&plain), "R10's ends: alpha-beta plays it");
}

/// `check` refuses ends said twice or not at all, `of: either` that would
/// skip, a scored end with no victories, and victories that are not names of
/// their own; each at the key, naming what is wrong.
#[test]
fn a_decks_ends_are_checked() {
    let verdict = "function verdict(ctx, why) return { reason = 'won' } end\n";
    let problems = |tag: &str, rules: &str| -> String {
        match Content::load(&scratch(tag, rules, verdict), "x") {
            Ok(_) => String::new(),
            Err(p) => p.to_string(),
        }
    };
    let fine = "  when_stuck: lose\n  ends: {no_checkers: score, move_limit: {turns: 10}}\n  victories: [won]\n";
    assert_eq!(problems("fine", fine), "");
    for (rules, said) in [
        (
            "  when_stuck: lose\n  move_limit: 10\n  ends: {stuck: {then: score}}\n  victories: [won]\n",
            "when_stuck and ends: stuck: both say what a player with no move does",
        ),
        ("  move_limit: 10\n", "rules: needs when_stuck"),
        (
            "  when_stuck: lose\n  move_limit: 10\n  ends: {repetition: {times: 1}}\n",
            "repetition: {times: N} draws when the same position is met N times: 2 to 9, not 1",
        ),
        (
            "  when_stuck: lose\n  move_limit: 10\n  ends: {kings_only: {turns: 0}}\n",
            "kings_only: {turns: N} draws after N turns in a row with only kings moved",
        ),
        ("  when_stuck: lose\n", "rules: needs move_limit"),
        (
            "  when_stuck: lose\n  move_limit: 10\n  ends: {move_limit: {turns: 10}}\n",
            "move_limit and ends: move_limit: both set the move limit",
        ),
        ("  when_stuck: score\n  move_limit: 10\n  victories: [won]\n", "a scored end is written under ends:"),
        (
            "  move_limit: 10\n  ends: {stuck: {of: either, then: skip}}\n",
            "stuck: {of: either} ends the game when the player not to move has no move",
        ),
        (
            "  when_stuck: lose\n  move_limit: 10\n  ends: {no_checkers: score}\n",
            "an end the deck scores needs victories",
        ),
        (
            "  when_stuck: lose\n  move_limit: 10\n  victories: [won, capture]\n",
            "'capture' names one of the engine's own ends",
        ),
        ("  when_stuck: lose\n  move_limit: 10\n  victories: [won, won]\n", "victory 'won' is declared twice"),
        ("  when_stuck: lose\n  move_limit: 10\n  victories: [Total]\n", "'Total' is not a valid victory name"),
        ("  when_stuck: lose\n  ends: {move_limit: {turns: 0}}\n", "1 to 10000, not 0"),
        ("  when_stuck: lose\n  move_limit: 10\n  ends: {no_checker: score}\n", "unknown field `no_checker`"),
    ] {
        let got = problems("bad", rules);
        assert!(got.contains("x.yaml:") && got.contains(said), "{rules}: {got}");
    }
}

/// Every game of the endings deck ends by its rule: the report's ways of
/// ending are the deck's victories (`rule majority`, …), per colour, in the
/// table and in every game's row.
#[test]
fn simulate_names_the_decks_victories() {
    let path = deck("endings");
    let root = ContentRoot::for_deck(None, path.to_str().unwrap()).unwrap();
    let mut plan = Plan::new(root, path.to_str().unwrap(), "random", "greedy", 16, 3);
    plan.threads = 1;
    let mut rows = Vec::new();
    let report = run(&plan, Sinks { rows: Some(&mut rows), ..Sinks::none() }).unwrap();
    let rows: Vec<_> = String::from_utf8(rows).unwrap().lines().map(|l| read_row(l).unwrap()).collect();
    let victories = ["rule majority", "rule even", "rule coronation"];
    for row in &rows {
        assert!(victories.contains(&row.end.to_string().as_str()), "game {}: {}", row.index, row.end);
    }
    let figures = simulate::figures(&report.counts, None);
    assert!(!figures.ways.is_empty());
    let shown = table(&report);
    for (way, w) in &figures.ways {
        assert!(victories.contains(&way.as_str()), "{way}");
        assert_eq!(w.dark_wins + w.light_wins + w.draws, w.games, "{way}");
        assert!(shown.contains(way.as_str()), "the table names {way}:\n{shown}");
    }
}

/// A game the rule ends saves and replays as the same game, its end included.
#[test]
fn a_game_ended_by_the_rule_saves_and_replays() {
    let path = deck("endings");
    let root = ContentRoot::for_deck(None, path.to_str().unwrap()).unwrap();
    let plan = Plan::new(root.clone(), path.to_str().unwrap(), "random", "random", 6, 7);
    let dir = common::scratch_dir("endings", "saves");
    for index in 0..6 {
        let file = dir.join(format!("{index}.json"));
        let row = simulate::save_game(&plan, index, &file).unwrap_or_else(|e| panic!("game {index}: {e}"));
        let (session, replay, _) = Session::load(&root, &file).unwrap_or_else(|e| panic!("game {index}: {e}"));
        assert!(replay.same_game(), "game {index}: {replay:?}");
        let outcome = session.outcome().expect("the game ended");
        assert!(matches!(outcome.reason, EndReason::Rule { .. }), "game {index}: {outcome:?}");
        assert_eq!(simulate::Ending::by(outcome.reason, session.engine.content()), row.end);
        let said = session.describe_outcome(&outcome);
        assert!(said.contains(" victory (") || said.starts_with("Draw: even"), "{said}");
    }
}

/// The state of a scored deck's game says its ends; a plain deck's state
/// does not mention them (saves and digests of existing decks unchanged).
#[test]
fn only_a_deck_with_ends_of_its_own_writes_them() {
    let engine = ScriptEngine::load(&endings_root(), deck("endings").to_str().unwrap()).unwrap();
    let state = GameState::deal(&engine.content().setup(), 1, &engine);
    assert!(serde_json::to_string(&state).unwrap().contains("\"ends\""));
    let plain = ScriptEngine::load(&common::repo(), "plain").unwrap();
    let state = GameState::deal(&plain.content().setup(), 1, &plain);
    assert!(!serde_json::to_string(&state).unwrap().contains("\"ends\""));
}

/// The Russian deck's position from `diagram` (a scene: the deck's moves,
/// checkers numbered, the draw count begun there), `to_move` to move.
fn russian_scene(diagram: &str, to_move: Player) -> (ScriptEngine, GameState) {
    let engine = ScriptEngine::new(Content::load(&common::repo(), "russian").unwrap()).unwrap();
    let setup = engine.content().setup();
    let mut state = GameState::deal(&setup, 734363580, &engine);
    let mut board = alien_checkers::diagram::parse(diagram, setup.supply, setup.crowning).unwrap();
    board.set_movement(setup.movement);
    board.number_checkers();
    state.position_mut().board = board;
    state.position_mut().to_move = to_move;
    state.restart_draw_count();
    (engine, state)
}

/// Issue 38's case, built as a scene (the reported game of seed 734363580 was
/// played by a person against `hard`, and its moves are not known): on
/// `russian`, a king and a pawn each, Light's pawn the further advanced. The
/// evaluation puts Light a little ahead, so the evaluation alone declined a
/// draw (and `hard` then shuttled its king); the search sees a dead draw, so
/// the computer accepts. A pawn up, it declines.
#[test]
fn the_computer_accepts_a_draw_in_a_dead_drawn_russian_ending() {
    use alien_checkers::ai::{Evaluator, Heuristic, Weights, accepts_draw, dead_draw};
    let row = |cells: [&str; 8], n: u8| {
        let cells: Vec<String> = cells.iter().map(|c| format!(" {c:<2} ")).collect();
        format!("|{}| {n}\n+----+----+----+----+----+----+----+----+\n", cells.join("|"))
    };
    let empty = [""; 8];
    let diagram = |pawn_h4: &str| {
        let mut d = String::from("+----+----+----+----+----+----+----+----+\n");
        d += &row(["", "", "", "", "", "L", "", ""], 8);
        for n in [7, 6, 5] {
            d += &row(empty, n);
        }
        d += &row(["", "l", "", "", "", "", "", pawn_h4], 4);
        d += &row(empty, 3);
        d += &row(empty, 2);
        d += &row(["", "", "D", "", "", "", "", ""], 1);
        d
    };
    let (engine, level) = russian_scene(&diagram("d"), Player::Dark);
    let eval = Evaluator::new(Weights::STANDARD).score(&level, Player::Light, &engine);
    assert!(eval > 0.0, "the evaluation alone puts Light ahead ({eval}), so it would decline");
    assert!(dead_draw(&level), "a king and a pawn each, neither winning by force");
    assert!(accepts_draw(&level, &engine, Player::Light));
    let (engine, ahead) = russian_scene(&diagram(""), Player::Dark);
    assert!(!dead_draw(&ahead), "the material is not level");
    assert!(!accepts_draw(&ahead, &engine, Player::Light), "a pawn up, the computer plays on");
}

/// Issue 38's case at the table: on `russian` with seed 734363580, a game of
/// 25 moves (tests/data/draws/russian-25-moves.txt; the reported game's own
/// moves were not recorded, so these reach the ending it describes: a king and
/// a man each, level, nothing to win by force) is saved in hot-seat and loaded
/// with `hard` as Light. The evaluation alone puts Light ahead, so it used to
/// decline the offer; its search sees the dead draw, and it accepts.
#[test]
fn hard_accepts_a_draw_offer_in_a_dead_drawn_russian_ending_after_move_25() {
    use alien_checkers::ai::{Evaluator, Heuristic, Weights, dead_draw};
    let moves = std::fs::read_to_string(common::repo().path().join("tests/data/draws/russian-25-moves.txt")).unwrap();
    let mut session = Session::new(&common::repo(), "russian", 734363580).unwrap();
    for text in moves.lines() {
        let choice = session.find_choice(text).unwrap_or_else(|| panic!("{text} is a move here"));
        session.apply(&choice).unwrap();
    }
    let state = session.state();
    assert_eq!((state.turn, state.to_move), (50, Player::Dark), "move 26 begins, the human's");
    let eval = Evaluator::new(Weights::STANDARD).score(state, Player::Light, &session.engine);
    assert!(eval > 0.0, "the evaluation alone puts Light ahead ({eval}), so it alone would decline");
    assert!(dead_draw(state));

    let dir = common::scratch_dir("endings", "hard_accepts_a_draw");
    let seats = ["--deck", "russian", "--seed", "734363580"];
    let save = format!("{}\nsave move-25.json\nquit!\n", moves.trim_end());
    let run = common::run_binary(&dir, &[&seats[..], &["--dark", "human", "--light", "human"]].concat(), &[], &save);
    assert!(run.success && dir.join("move-25.json").exists(), "{}{}", run.stdout, run.stderr);
    let offer = common::run_binary(&dir, &["--load", "move-25.json", "--light", "hard"], &[], "draw\n");
    assert!(offer.stdout.contains("accepts the draw") && offer.stdout.contains("agreed"), "{}", offer.stdout);
}
