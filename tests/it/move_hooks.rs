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
