//! Moves a card's script offers (`extra_moves`, cards/README.md "Moves a script
//! offers"): kept only where they could be moves, played like any other, and a
//! hook that misbehaves offers nothing and stops nothing.

use alien_checkers::game::{Affected, Choice, Effect, GameState, Lasting, Step};
use alien_checkers::kernel::{Checker, Kind, MoveRules, Player};
use alien_checkers::script::ScriptEngine;

use crate::common;
use crate::hostile_scripts::{card, engine};

/// A card whose lasting effect offers what `body` returns.
fn hook(body: &str) -> String {
    format!(
        "function play(ctx)\n  ctx:add_effect{{ lasts = 1 }}\nend\nfunction extra_moves(ctx, effect)\n{body}\nend\n"
    )
}

/// Dark to move on `board` (a diagram) with the `hook` card's effect in force for Dark.
fn state_with_hook(engine: &ScriptEngine, board: &str) -> GameState {
    let mut state = GameState::new(&engine.content().setup(), 3);
    state.position_mut().board = common::board(board);
    state.position_mut().step = Step::Move;
    state.position_mut().to_move = Player::Dark;
    state
        .add_effect(Effect {
            id: 0,
            card: card(engine, "hook"),
            owner: Player::Dark,
            affects: Affected::Owner,
            moves: MoveRules::STANDARD,
            lasts: Lasting::OwnerTurns(1),
            made: None,
            data: Default::default(),
            deck: false,
            acts_for: Default::default(),
        })
        .unwrap();
    state
}

const BOARD: &str = "
+----+----+----+----+----+----+----+----+
|    | l  |    |    |    |    |    |    | 8
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 7
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 6
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 5
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 4
+----+----+----+----+----+----+----+----+
| d  |    | d  |    |    |    |    |    | 3
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 2
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 1
+----+----+----+----+----+----+----+----+
";

fn texts(moves: &[alien_checkers::kernel::Move]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

#[test]
fn offered_moves_are_kept_only_where_they_could_be_moves() {
    // a3-h4 could be a move; the others start on no checker of Dark's, on
    // Light's, end on a checker, or are already the kernel's.
    let source = hook(r#"return { "a3-h4", "d4-e5", "b8-a7", "a3-c3", "c3-d4", "a3-h4" }"#);
    let engine = engine(&[("hook", &source)], &[]);
    let state = state_with_hook(&engine, BOARD);
    let kernel = texts(&state.kernel_moves());
    assert_eq!(kernel, ["a3-b4", "c3-b4", "c3-d4"]);
    assert_eq!(texts(&state.move_options(&engine)), ["a3-b4", "c3-b4", "c3-d4", "a3-h4"]);
    assert!(engine.take_errors().is_empty());

    // With a capture due (R4.3) no offered step is kept.
    let mut capture = state.clone();
    capture.position_mut().board.set_checker(common::sq("d4"), Checker::new(Player::Light, Kind::Pawn)).unwrap();
    assert_eq!(texts(&capture.move_options(&engine)), ["c3xe5"]);

    // The offered move is played like any other: through the decision loop.
    let mut played = state.clone();
    let decision = played.pending(&engine).unwrap();
    let offered = decision.options.iter().find(|c| c.to_string() == "a3-h4").unwrap().clone();
    played.apply(&engine, &offered).unwrap();
    assert_eq!(played.board.owner(common::sq("h4")), Some(Player::Dark));
    assert!(played.board.is_empty(common::sq("a3")));
    // A move neither the kernel lists nor the hook offers is refused.
    let mut refused = state.clone();
    let bogus = Choice::Move(
        "c3-h8"
            .parse::<alien_checkers::kernel::MoveText>()
            .map(|t| alien_checkers::kernel::Move::from_text(&t).unwrap())
            .unwrap(),
    );
    assert!(refused.apply(&engine, &bogus).is_err());
    assert_eq!(refused.board, state.board);
}

#[test]
fn a_hook_that_misbehaves_offers_nothing_and_the_game_goes_on() {
    for (body, says) in [
        ("return 5", "not a list of moves"),
        ("return { 5 }", "not text"),
        (r#"return { "a3" }"#, "is not a move"),
        ("error('boom')", "boom"),
        ("while true do end", "instruction budget"),
        ("ctx:add_counter(ctx:player(), 'emperor_captures', 1) return {}", "read"),
        ("local t = {} for i = 1, 100 do t[i] = 'a3-h4' end return t", "more than 64"),
    ] {
        let source = hook(body);
        let engine = engine(&[("hook", &source)], &[]);
        let state = state_with_hook(&engine, BOARD);
        assert_eq!(texts(&state.move_options(&engine)), texts(&state.kernel_moves()), "{body}");
        let errors = engine.take_errors().join("\n");
        assert!(errors.contains("extra_moves failed") && errors.contains(says), "{body}: {errors}");
        let mut next = state.clone();
        let first = next.pending(&engine).unwrap().options[0].clone();
        next.apply(&engine, &first).unwrap_or_else(|e| panic!("{body}: {e}"));
        assert_ne!(next.board, state.board, "{body}: the move was played");
    }
}

// ---- moves a script forbids (`forbid_moves`, cards/README.md "Moves a script forbids") ----

/// A card whose lasting effect offers what `offer` returns and forbids what
/// `forbid` returns, and a card `lister` whose `play` fails with the moves
/// `ctx:legal_moves()` lists, to read them.
fn forbidding_engine(offer: &str, forbid: &str) -> ScriptEngine {
    let source = format!(
        "function play(ctx)\n  ctx:add_effect{{ lasts = 1 }}\nend\nfunction extra_moves(ctx, effect)\n{offer}\nend\n\
         function forbid_moves(ctx, effect)\n{forbid}\nend\n"
    );
    let lister = "function play(ctx)\n  error('moves: ' .. table.concat(ctx:legal_moves(), ' '))\nend\n";
    engine(&[("hook", &source), ("lister", lister)], &[])
}

/// The moves `ctx:legal_moves()` lists to a card's script in `state`.
fn listed_to_a_card(engine: &ScriptEngine, state: &GameState) -> Vec<String> {
    let run = engine.run_card(state, card(engine, "lister"), &[]);
    let alien_checkers::game::Resolution::Failed(message) = run.resolution else { panic!("the lister fails") };
    let listed = message.split("moves: ").nth(1).unwrap_or_else(|| panic!("{message}"));
    listed.split_whitespace().map(str::to_string).collect()
}

#[test]
fn forbidden_moves_are_taken_away_before_capture_is_made_compulsory() {
    // Offered a3-h4 is forbidden as written, c3's moves by a pattern.
    let engine = forbidding_engine(r#"return { "a3-h4" }"#, r#"return { "a3-h4", { from = "c3" } }"#);
    let state = state_with_hook(&engine, BOARD);
    assert_eq!(texts(&state.move_options(&engine)), ["a3-b4"]);
    assert_eq!(listed_to_a_card(&engine, &state), ["a3-b4"], "ctx:legal_moves lists them as the move step does");
    assert!(engine.take_errors().is_empty());
    let mut refused = state.clone();
    for forbidden in ["c3-d4", "a3-h4"] {
        let choice = Choice::Move(
            alien_checkers::kernel::Move::from_text(&forbidden.parse::<alien_checkers::kernel::MoveText>().unwrap())
                .unwrap(),
        );
        assert!(refused.apply(&engine, &choice).is_err(), "{forbidden} is refused");
    }

    // Every capture forbidden: the steps are legal though c3xe5 was due (R4.3).
    let engine = forbidding_engine("return {}", "return { { captures = true } }");
    let mut capture = state_with_hook(&engine, BOARD);
    capture.position_mut().board.set_checker(common::sq("d4"), Checker::new(Player::Light, Kind::Pawn)).unwrap();
    assert_eq!(texts(&capture.kernel_moves()), ["c3xe5"]);
    assert_eq!(texts(&capture.move_options(&engine)), ["a3-b4", "c3-b4"]);
    assert!(!capture.capture_due(&engine));
    assert_eq!(listed_to_a_card(&engine, &capture), ["a3-b4", "c3-b4"]);

    // Only captures allowed: with none, the player has no move.
    let engine = forbidding_engine("return {}", "return { { captures = false } }");
    let quiet = state_with_hook(&engine, BOARD);
    assert!(quiet.move_options(&engine).is_empty() && !quiet.has_move(&engine));
    assert!(engine.take_errors().is_empty());
}

#[test]
fn a_forbid_hook_that_misbehaves_forbids_nothing_and_says_why() {
    for (body, says) in [
        ("return 5", "not a list of moves and patterns"),
        ("return { 5 }", "entry 1: it is an integer, not text"),
        (r#"return { "c3" }"#, "is not a move"),
        (r#"return { { form = "c3" } }"#, "no key 'form' (its keys are from, to, captures, leaves)"),
        (r#"return { { from = "z9" } }"#, "from: "),
        (r#"return { { to = 3 } }"#, "to is an integer, not a square"),
        (r#"return { { captures = "yes" } }"#, "captures is a string, not true or false"),
        (r#"return { { leaves = 1 } }"#, "leaves is an integer, not true or false"),
        ("return { {} }", "names at least one of from, to, captures, leaves"),
        ("error('boom')", "boom"),
        ("while true do end", "instruction budget"),
        ("ctx:add_counter(ctx:player(), 'emperor_captures', 1) return {}", "read"),
        ("local t = {} for i = 1, 100 do t[i] = 'c3-d4' end return t", "more than 64"),
    ] {
        let engine = forbidding_engine("return {}", body);
        let state = state_with_hook(&engine, BOARD);
        assert_eq!(texts(&state.move_options(&engine)), texts(&state.kernel_moves()), "{body}");
        let errors = engine.take_errors().join("\n");
        assert!(errors.contains("card 'hook': forbid_moves failed") && errors.contains(says), "{body}: {errors}");
        let mut next = state.clone();
        next.apply(&engine, &Choice::Move(state.kernel_moves()[0])).unwrap_or_else(|e| panic!("{body}: {e}"));
    }
}

/// The engine of a test deck of tests/data/forbid.
pub(crate) fn forbid_deck(name: &str) -> ScriptEngine {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/forbid/cards/decks/{name}.yaml"));
    let path = path.to_str().unwrap();
    let root = alien_checkers::content::ContentRoot::for_deck(None, path).unwrap();
    ScriptEngine::load(&root, path).unwrap_or_else(|p| panic!("{p}"))
}

/// The computer never plays a move a deck rule forbids: under Truce no
/// checker is ever captured, under Sanctuary no checker ever stands on d4 or
/// e5, whoever plays, in every game to its end.
#[test]
fn the_computer_never_plays_a_forbidden_move() {
    use alien_checkers::ai::{Agent, GreedyAgent, Level, MctsAgent, RandomAgent, Recall, SearchConfig};
    let centre = [common::sq("d4"), common::sq("e5")];
    for deck in ["truce", "sanctuary"] {
        let engine = forbid_deck(deck);
        let recall = Recall::new(&engine);
        let agents = |seed: u64| -> Vec<Box<dyn Agent>> {
            let mut agents: Vec<Box<dyn Agent>> =
                vec![Box::new(RandomAgent::new(seed)), Box::new(GreedyAgent::new(seed))];
            if seed < 2 {
                let config = SearchConfig { iterations: 40, ..SearchConfig::level(Level::Normal) };
                agents.push(Box::new(MctsAgent::new(config, Vec::new(), seed)));
            }
            agents
        };
        let mut moves = 0;
        for seed in 0..12 {
            for mut agent in agents(seed) {
                let mut state = GameState::deal(&engine.content().setup(), seed, &engine);
                state.settle(&engine).unwrap();
                while state.outcome().is_none() {
                    let choice = agent.choose(&state, &recall).expect("a pending decision has a choice");
                    state.apply(&engine, &choice).unwrap_or_else(|e| panic!("{deck}, seed {seed}: {e}"));
                    if let Choice::Move(mv) = choice {
                        moves += 1;
                        match deck {
                            "truce" => assert!(!mv.is_jump(), "{deck}, seed {seed}: {mv} captures"),
                            _ => {
                                assert!(centre.iter().all(|&sq| state.board.is_empty(sq)), "{deck}, seed {seed}: {mv}")
                            }
                        }
                    }
                }
                if deck == "truce" {
                    assert_eq!(Player::BOTH.map(|p| state.board.checkers(p).count()), [12, 12], "{deck}, seed {seed}");
                }
            }
        }
        assert!(moves > 500, "{deck}: {moves} moves played");
        assert!(engine.take_errors().is_empty());
    }
}
