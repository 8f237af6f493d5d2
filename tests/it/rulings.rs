//! The rulings of RULES.md as boards: a diagram, an action, then the expected
//! diagram or move list. Each test names the rule it checks.
//!
//! Diagrams are read by `diagram::parse` (see its module doc): `d`/`l` pawn,
//! `D`/`L` king, `DD`/`LL` emperor, tokens `r`/`s`/`h`, `~~` water, `^^` fire,
//! `##` the monolith, walls as `DDDD`/`LLLL` in a rule and `D`/`L` for a `|`.
//! A board read from a diagram has each reserve holding the pieces not drawn.

use crate::common;

use alien_checkers::game::{BlankCards, CardId, Choice, Constraint, GameError, GameState, Setup, Step};
use alien_checkers::kernel::{
    Bitboard, Board, Checker, Crowning, Dir, EdgePair, Kind, Move, MoveText, Orientation, Player, Rotation, Square,
    Supply, Terrain, Token,
};
use alien_checkers::kernel::{Removal, Unrecorded};

use common::{assert_diagram, board, edge, moves, pair, play, sq, squares};

/// A game at Dark's move step whose board is `board` (Alien Checkers, blank cards).
fn game_at(board: Board) -> GameState {
    let mut state = GameState::new(&Setup::blank(21), 7);
    state.position_mut().board = board;
    assert_eq!(state.step, Step::Move);
    state
}

fn option_names(state: &GameState) -> Vec<String> {
    let decision = state.pending(&BlankCards).expect("the game is on");
    let mut names: Vec<String> = decision.options.iter().map(|c| c.to_string()).collect();
    names.sort();
    names
}

fn game_move(state: &GameState, text: &str) -> Choice {
    let mv = state.kernel_moves().into_iter().find(|m| m.to_string() == text);
    // A move that is not legal is built from its text, to show it is refused.
    Choice::Move(mv.unwrap_or_else(|| {
        let text: MoveText = text.parse().unwrap();
        Move::from_text(&text).unwrap()
    }))
}

// ---- R4 moving and capturing ----

/// R4.3: when a jump exists the move must be a jump; the game refuses a step.
#[test]
fn r4_3_capture_is_compulsory() {
    let b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | l  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | l  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | d  |    | .  |    | d  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(moves(&b, Player::Dark), ["c3xe5"]);
    let mut state = game_at(b);
    assert_eq!(option_names(&state), ["c3xe5"]);
    let before = state.clone();
    assert!(matches!(state.apply(&BlankCards, &game_move(&state, "g3-h4")), Err(GameError::Illegal(_))));
    assert_eq!(state, before, "a refused choice changes nothing");
    state.apply(&BlankCards, &game_move(&state, "c3xe5")).unwrap();
    assert_eq!(state.step, Step::Card, "R3: the move step is followed by the card step");
    assert_eq!(state.board.reserve(Player::Light), 11, "R4.9: the captured pawn went to the reserve");
    assert_diagram(
        &state.board,
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | l  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | d  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | d  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
}

/// R4.3: a jump chain continues while the same checker can jump; among several
/// chains the player picks any, not necessarily the longest.
#[test]
fn r4_3_chains_continue_and_any_chain_may_be_chosen() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | l  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | l  |    | l  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | d  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    // c3xe5 alone is not a move: from e5 the pawn can jump f6.
    assert_eq!(moves(&b, Player::Dark), ["c3xa5", "c3xe5xg7"]);
    play(&mut b, Player::Dark, "c3xa5");
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | l  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | d  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | l  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
}

/// R4.3: a king's chain may come back to its own square; captured checkers stay
/// on the board until the move ends, so none is jumped twice. The two ways round
/// the loop capture the same checkers and leave the same position: listed once.
#[test]
fn r4_3_a_loop_is_listed_once_and_no_checker_is_jumped_twice() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | l  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | l  |    | l  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | D  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | l  |    | l  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(moves(&b, Player::Dark), ["c3xe5xg3xe1xc3"]);
    play(&mut b, Player::Dark, "c3xe5xg3xe1xc3");
    assert_eq!(b.reserve(Player::Light), 11);
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | l  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | D  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
}

/// R4.4: a pawn that lands on its king row ends its move there, even though as a
/// king it could jump on (d8xf6); it is crowned (R6.1).
#[test]
fn r4_4_reaching_the_king_row_ends_the_jump_chain() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | l  |    | l  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | d  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(moves(&b, Player::Dark), ["b6xd8"]);
    let reserve = b.reserve(Player::Dark);
    play(&mut b, Player::Dark, "b6xd8");
    assert_eq!(b.reserve(Player::Dark), reserve - 1, "R6.1: the crown came from the reserve");
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | D  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | l  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
}

/// R4.5: checkers never step onto water, fire or the monolith.
#[test]
fn r4_5_checkers_never_enter_water_fire_or_the_monolith() {
    let b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | ~~ |    | ^^ |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | D  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | ## | ## | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  | ## | ## |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(moves(&b, Player::Dark), ["d4-c3"]);
}

/// R4.5: no landing on water or fire, no jumping over the monolith.
#[test]
fn r4_5_jumps_never_land_on_water_or_fire_nor_cross_the_monolith() {
    let b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | ~~ |    | .  |    | ^^ |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | l  |    | l  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | D  | ## | ## |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | l  |    | ## | ## | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(moves(&b, Player::Dark), ["d4xb2"]);
}

/// R4.6: a king cannot jump an emperor; an emperor can (and a king still jumps a
/// pawn). R6.3: emperors jump as kings.
#[test]
fn r4_6_only_an_emperor_jumps_an_emperor() {
    let b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | LL |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | D  |    | DD |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | l  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(moves(&b, Player::Dark), ["c3xa1", "e3xc5"]);
    // Light's emperor jumps Dark's emperor; its jump over the king would land on b2.
    assert_eq!(moves(&b, Player::Light), ["d4xf2"]);
}

/// R4.7: a checker under a hippo neither moves nor forces a capture, nor can a
/// card move it; it can still be captured, and its hippo returns to the supply (R4.9).
#[test]
fn r4_7_a_frozen_checker_cannot_move_but_can_be_captured() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | l  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | Dh |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | d  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(moves(&b, Player::Dark), ["a3-b4"], "d4xf6 would be a jump, but d4 is frozen");
    let before = b;
    assert!(b.relocate(sq("d4"), sq("d5"), &mut Unrecorded).is_err());
    assert_eq!(b, before, "a refused operation changes nothing");
    assert_eq!(moves(&b, Player::Light), ["e5xc3"]);
    let hippos = b.supply().hippos;
    play(&mut b, Player::Light, "e5xc3");
    assert_eq!(b.supply().hippos, hippos + 1);
    assert_eq!(b.reserve(Player::Dark), 12 - 1, "R4.9: the king's two pieces went back");
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | d  |    | l  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
}

/// R4.8: a constraint (Compel, Evacuate) restricts the movers and takes precedence
/// over R4.3; among the allowed moves capture is still compulsory; a constraint
/// that cannot be met lapses.
#[test]
fn r4_8_constraints_restrict_movers_and_lapse_when_unmet() {
    let b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | l  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | d  |    | .  |    | d  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | d  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    let all = moves(&b, Player::Dark);
    assert_eq!(all, ["g3xe5"]);
    let mut state = game_at(b);
    let constrain = |state: &mut GameState, names: &[&str]| {
        state.position_mut().constraint = Some(Constraint { card: CardId(0), movers: squares(names) });
    };

    // Only c3 may move: its steps are legal although g3 could jump.
    constrain(&mut state, &["c3"]);
    assert_eq!(option_names(&state), ["c3-b4", "c3-d4"]);
    let before = state.clone();
    assert!(state.apply(&BlankCards, &game_move(&state, "g3xe5")).is_err());
    assert_eq!(state, before);

    // c3 or g3 may move: among them capture is compulsory.
    constrain(&mut state, &["c3", "g3"]);
    assert_eq!(option_names(&state), ["g3xe5"]);

    // h2 cannot move (g3 is its own), f4 is not Dark's, e5 is empty: the constraint lapses.
    for unmet in [&["h2"][..], &["f4"], &["e5"]] {
        constrain(&mut state, unmet);
        assert_eq!(option_names(&state), all, "constraint {unmet:?}");
    }

    // A constraint that can be met is obeyed by apply.
    constrain(&mut state, &["c3"]);
    state.apply(&BlankCards, &game_move(&state, "c3-d4")).unwrap();
    assert!(state.board.checker(sq("d4")).is_some());
}

/// R4.9, R8.4: a piece from the reserve goes onto an empty square as a pawn (a
/// card chooses which squares); an empty reserve or a filled square refuses. A
/// pawn put on its king row with pieces left in the reserve is crowned (R6.2).
#[test]
fn r4_9_pieces_come_back_from_the_reserve() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | LL |    | LL |    | LL |    | LL | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | ~~ |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | d  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!((b.reserve(Player::Dark), b.reserve(Player::Light)), (11, 0));
    let before = b;
    assert!(b.place_from_reserve(Player::Dark, sq("d4"), &mut Unrecorded).is_err(), "water (R4.5)");
    assert!(b.place_from_reserve(Player::Dark, sq("c3"), &mut Unrecorded).is_err(), "a checker");
    assert!(b.place_from_reserve(Player::Light, sq("e5"), &mut Unrecorded).is_err(), "Light's reserve is empty");
    assert_eq!(b, before);
    b.place_from_reserve(Player::Dark, sq("b2"), &mut Unrecorded).unwrap();
    assert_eq!(b.reserve(Player::Dark), 10);
    b.place_from_reserve(Player::Dark, sq("a8"), &mut Unrecorded).unwrap();
    assert_eq!(b.reserve(Player::Dark), 8, "one piece placed, one crowning it");
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        | D  | LL |    | LL |    | LL |    | LL | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | ~~ |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | d  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | d  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
}

/// R1.5, R8.8, R8.17: tokens come from the finite supply onto checkers, one of a
/// kind per checker; a snookle sends a hippo back and keeps new ones off.
#[test]
fn r1_5_tokens_come_from_the_supply_onto_checkers() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | l  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | d  |    | dh |    | ds |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    let supply = *b.supply();
    b.put_token(sq("c3"), Token::Ring, &mut Unrecorded).unwrap();
    b.put_token(sq("e3"), Token::Snookle, &mut Unrecorded).unwrap();
    assert_eq!(b.supply().rings, supply.rings - 1);
    assert_eq!(b.supply().snookles, supply.snookles - 1);
    assert_eq!(b.supply().hippos, supply.hippos + 1, "the hippo left e3");
    let before = b;
    assert!(b.put_token(sq("c3"), Token::Ring, &mut Unrecorded).is_err(), "c3 has a ring");
    assert!(b.put_token(sq("g3"), Token::Hippo, &mut Unrecorded).is_err(), "g3 has a snookle");
    assert!(b.put_token(sq("d5"), Token::Ring, &mut Unrecorded).is_err(), "d5 has no checker");
    assert!(b.remove_token(sq("d6"), Token::Ring, &mut Unrecorded).is_err(), "d6 has no ring");
    assert_eq!(b, before);
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | l  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | dr |    | ds |    | ds |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    let mut empty = *b.supply();
    empty.rings = 0;
    b.set_supply(empty);
    let before = b;
    assert!(b.put_token(sq("d6"), Token::Ring, &mut Unrecorded).is_err(), "no ring is left");
    assert_eq!(b, before);
}

// ---- R5 walls ----

/// R5.2: walls go down two at a time on edges sharing a vertex, an L or a straight
/// segment; R5.1: one wall per edge; none inside the monolith (R7.1); two from the
/// owner's supply (R1.5). Refusals change nothing.
#[test]
fn r5_2_walls_are_placed_in_pairs_at_a_vertex() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        | ## | ## |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | ## | ## | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | l  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | d  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    let l = pair("d4/d5+d4/e4");
    assert!(!l.is_straight());
    b.place_walls(Player::Dark, l, &mut Unrecorded).unwrap();
    let straight = pair("f2/g2+f3/g3");
    assert!(straight.is_straight());
    b.place_walls(Player::Light, straight, &mut Unrecorded).unwrap();
    assert_eq!(b.supply().walls, [6, 6]);

    // Pairs that do not share a vertex are not pairs at all.
    assert!("a1/a2+c1/c2".parse::<EdgePair>().is_err());
    assert!("d4/e4+e4/f4".parse::<EdgePair>().is_err());
    let before = b;
    // R5.1: d4/e4 already holds Dark's wall.
    assert!(b.place_walls(Player::Light, pair("d4/e4+d5/e5"), &mut Unrecorded).is_err());
    // R7.1: a7/b7 lies inside the monolith.
    assert!(b.place_walls(Player::Light, pair("a6/a7+a7/b7"), &mut Unrecorded).is_err());
    assert_eq!(b, before);
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        | ## | ## |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | ## | ## | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | l  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+DDDD+----+----+----+----+
        |    | .  |    | .  D    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | d  |    | .  |    L .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  L    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );

    // R1.5: with one wall left in the supply, a pair cannot be placed.
    let mut supply = *b.supply();
    supply.walls = [1, 6];
    b.set_supply(supply);
    let before = b;
    assert!(b.place_walls(Player::Dark, pair("g6/g7+g6/h6"), &mut Unrecorded).is_err());
    assert_eq!(b, before);
}

/// R5.3: a checker passes its owner's walls; the other player's walls block it,
/// whoever moves it (`blocked_for` asks about the checker's owner).
#[test]
fn r5_3_own_walls_pass_opposing_walls_block() {
    let b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  L    D .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    L d  D    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    // Dark's segment at c3's NE corner lets c3-d4 through; Light's at its NW corner blocks c3-b4.
    assert_eq!(moves(&b, Player::Dark), ["c3-d4"]);
    assert!(b.blocked_for(Player::Dark, Dir::NW).contains(sq("c3")));
    assert!(!b.blocked_for(Player::Dark, Dir::NE).contains(sq("c3")));
    assert!(b.blocked_for(Player::Light, Dir::NE).contains(sq("c3")));
    assert!(!b.blocked_for(Player::Light, Dir::NW).contains(sq("c3")));

    // The same walls with a Light king on c3: now Dark's segment blocks.
    let b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  L    D .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    L L  D    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(moves(&b, Player::Light), ["c3-b2", "c3-b4", "c3-d2"]);
}

/// R5.4: an L blocks the diagonal step across its corner (d4-e5) but not the step
/// that skims past it (e4-d5).
#[test]
fn r5_4_an_l_blocks_the_step_across_its_corner_only() {
    let b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+LLLL+----+----+----+----+
        |    | .  |    | D  L D  | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(moves(&b, Player::Dark), ["d4-c3", "d4-c5", "d4-e3", "e4-d3", "e4-d5", "e4-f3", "e4-f5"]);
    // The block holds both ways across the vertex.
    assert!(b.blocked_for(Player::Dark, Dir::SW).contains(sq("e5")));
    assert!(!b.blocked_for(Player::Dark, Dir::SE).contains(sq("d5")));
}

/// R5.4: a straight segment through a vertex blocks both diagonals there,
/// whichever way the segment runs.
#[test]
fn r5_4_a_straight_segment_blocks_both_diagonals() {
    let expected = ["d4-c3", "d4-c5", "d4-e3", "e4-d3", "e4-f3", "e4-f5"];
    let vertical = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    L .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | D  L D  | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(moves(&vertical, Player::Dark), expected);
    let horizontal = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+LLLL+LLLL+----+----+----+
        |    | .  |    | D  | D  | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(moves(&horizontal, Player::Dark), expected);
}

/// R5.4: one wall alone blocks no diagonal step.
#[test]
fn r5_4_a_single_wall_blocks_no_diagonal() {
    let b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | D  L D  | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(moves(&b, Player::Dark), ["d4-c3", "d4-c5", "d4-e3", "d4-e5", "e4-d3", "e4-d5", "e4-f3", "e4-f5"]);
}

/// R5.5: a jump passes two vertices and is blocked if either is; the jumper's own
/// walls block neither (R5.3).
#[test]
fn r5_5_a_jump_is_blocked_at_either_vertex() {
    let steps = ["c3-b2", "c3-b4", "c3-d2"];
    let first = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    L l  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | D  L    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(moves(&first, Player::Dark), steps, "blocked at the c3/d4 vertex");
    let second = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    L .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | l  L    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | D  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(moves(&second, Player::Dark), steps, "blocked at the d4/e5 vertex");
    let own = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    D .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    D l  D    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | D  D    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(moves(&own, Player::Dark), ["c3xe5"], "Dark's own walls let it jump");
}

/// R5.5: a blocked jump ends the chain before it.
#[test]
fn r5_5_a_blocked_jump_ends_the_chain() {
    let b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    L l  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  L    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | l  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | D  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(moves(&b, Player::Dark), ["c3xe5"]);
}

/// R5.6: an orthogonal step is blocked by an opposing wall on the edge it crosses,
/// both ways; own walls never block; one wall blocks no diagonal (R5.4).
#[test]
fn r5_6_an_orthogonal_step_is_blocked_by_the_wall_it_crosses() {
    let b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | l  |    | .  |    | .  | 6
        +----+----+----+DDDD+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | d  L    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(b.blocked_for(Player::Dark, Dir::E), squares(&["d4"]));
    assert_eq!(b.blocked_for(Player::Dark, Dir::W), squares(&["e4"]));
    assert_eq!(b.blocked_for(Player::Dark, Dir::N), Bitboard::EMPTY, "Dark's own wall on d5/d6");
    assert_eq!(b.blocked_for(Player::Light, Dir::N), squares(&["d5"]));
    assert_eq!(b.blocked_for(Player::Light, Dir::S), squares(&["d6"]));
    assert_eq!(b.blocked_for(Player::Light, Dir::E), Bitboard::EMPTY, "Light's own wall on d4/e4");
    // R7.4 asks about the walls of either player.
    assert_eq!(b.blocked_by_any(Dir::E), squares(&["d4"]));
    assert_eq!(b.blocked_by_any(Dir::S), squares(&["d6"]));
    for dir in Dir::DIAGONALS {
        assert!(b.blocked_for(Player::Dark, dir).is_empty() && b.blocked_for(Player::Light, dir).is_empty());
    }
}

/// R5.6, R8.13: a slide stops at the first blocking wall (orthogonally at the edge
/// it would cross, diagonally at a vertex blocked by R5.4) and before any square
/// that is not empty; the mover's own walls do not stop it (R5.3).
#[test]
fn r5_6_a_slide_stops_at_the_first_blocking_wall() {
    let b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  L    | .  |    | 7
        +----+----+LLLL+----+----+----+----+----+
        |    | .  |    | .  |    L .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  | D  | .  |    | .  L    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+DDDD+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    let names = |list: Vec<Square>| {
        let mut names: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        names.sort();
        names
    };
    assert_eq!(names(b.step_targets(sq("c4"), &Dir::ORTHOGONALS)), ["b4", "c3", "c5", "d4"]);
    assert_eq!(
        names(b.slide_targets(sq("c4"), &Dir::ORTHOGONALS)),
        ["a4", "b4", "c1", "c2", "c3", "c5", "c6", "d4", "e4", "f4"]
    );
    assert_eq!(
        names(b.slide_targets(sq("c4"), &Dir::DIAGONALS)),
        ["a2", "a6", "b3", "b5", "d3", "d5", "e2", "e6", "f1"]
    );
}

// ---- R6 kings, emperors and the reserve ----

/// R6.1: a pawn reaching its king row takes a piece from the reserve.
#[test]
fn r6_1_crowning_takes_a_piece_from_the_reserve() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | d  |    | .  |    | l  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | d  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | DD |    | DD |    | DD |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(b.reserve(Player::Dark), 1);
    play(&mut b, Player::Dark, "c7-d8");
    assert_eq!(b.reserve(Player::Dark), 0);
    assert_eq!(b.pieces_on_board(Player::Dark), 12);
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | D  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | l  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | d  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | DD |    | DD |    | DD |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
}

/// R6.1: with an empty reserve the pawn waits on the king row, still a pawn.
#[test]
fn r6_1_with_an_empty_reserve_the_pawn_waits() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | d  |    | .  |    | l  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | d  |    | d  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | DD |    | DD |    | DD |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(b.reserve(Player::Dark), 0);
    play(&mut b, Player::Dark, "c7-d8");
    assert_eq!(b.checker(sq("d8")).unwrap().kind, Kind::Pawn);
    b.validate().unwrap();
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | d  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | l  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | d  |    | d  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | DD |    | DD |    | DD |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
}

/// R6.2: a capture grows the reserve, and the waiting pawn is crowned at once, on
/// the opponent's turn.
#[test]
fn r6_2_a_capture_crowns_the_waiting_pawn() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | d  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | l  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | d  |    | .  |    | d  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | DD |    | DD |    | .  |    | DD |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(b.reserve(Player::Dark), 0);
    assert_eq!(moves(&b, Player::Light), ["f4xd2"]);
    play(&mut b, Player::Light, "f4xd2");
    assert_eq!(b.reserve(Player::Dark), 0, "the captured piece crowned d8");
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | D  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | d  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | l  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | DD |    | DD |    | .  |    | DD |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
}

/// R6.2: a removal grows the reserve; when more pawns wait than the reserve holds,
/// they are crowned in square order (b8 before d8 before f8).
#[test]
fn r6_2_removals_crown_waiting_pawns_in_square_order() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | d  |    | d  |    | d  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | l  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | DD |    | DD |    | D  |    | d  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    b.remove_checker(sq("g1"), Removal::Card, &mut Unrecorded).unwrap();
    assert_eq!(b.reserve(Player::Dark), 0);
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | D  |    | d  |    | d  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | l  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | DD |    | DD |    | D  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    // A king returns two pieces (R4.9): both remaining pawns are crowned.
    b.remove_checker(sq("e1"), Removal::Card, &mut Unrecorded).unwrap();
    assert_eq!(b.reserve(Player::Dark), 0);
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | D  |    | D  |    | D  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | l  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | DD |    | DD |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
}

/// R6.2, R8.21: a rotation that puts pawns on a king row crowns them, in square
/// order while the reserve lasts (a3 before a5); R6.4: kings never revert.
#[test]
fn r6_2_a_rotation_crowns_pawns_it_puts_on_a_king_row() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | LL |    | LL |    | LL |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | d  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | l  | 4
        +----+----+----+----+----+----+----+----+
        | d  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | DD |    | DD |    | DD |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!((b.reserve(Player::Dark), b.reserve(Player::Light)), (1, 2));
    // Turned clockwise, Dark's king row is file a and Light's is file h.
    b.rotate(Rotation::Clockwise, &mut Unrecorded);
    assert_eq!(b.orientation().king_row(Player::Dark), Bitboard::file(0));
    assert_eq!((b.reserve(Player::Dark), b.reserve(Player::Light)), (0, 1));
    let after = "
        +----+----+----+----+----+----+----+----+
        |    | LL |    | LL |    | LL |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | d  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | L  | 4
        +----+----+----+----+----+----+----+----+
        | D  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | DD |    | DD |    | DD |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
    ";
    assert_diagram(&b, after);
    b.rotate(Rotation::Counterclockwise, &mut Unrecorded);
    assert_eq!(b.orientation(), Orientation::default());
    assert_diagram(&b, after);
}

/// R6.2: a pawn a card moves onto its king row is crowned.
#[test]
fn r6_2_a_pawn_moved_onto_its_king_row_by_a_card_is_crowned() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | l  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | d  |    | .  |    | d  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | d  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    b.relocate(sq("c3"), sq("b8"), &mut Unrecorded).unwrap();
    assert_eq!(b.checker(sq("b8")).unwrap().kind, Kind::King);
    assert_eq!(b.reserve(Player::Dark), 12 - 3 - 1);
}

// ---- R7 the monolith ----

/// R7.1: the monolith goes only on an empty 2×2 block on the board; walls on the
/// block's inner edges go back to their owners, walls on its outline stay.
#[test]
fn r7_1_the_monolith_is_placed_on_an_empty_block_only() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | d  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  L    | .  |    | .  | 4
        +----+----+DDDD+LLLL+----+----+----+----+
        | .  |    | .  D    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | ~~ |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    let spots = b.monolith_spots();
    assert!(spots.contains(&sq("c3")) && !spots.contains(&sq("a1")) && !spots.contains(&sq("d5")));
    let before = b;
    assert!(b.place_monolith(sq("a1"), &mut Unrecorded).is_err(), "b2 holds water");
    assert!(b.place_monolith(sq("d5"), &mut Unrecorded).is_err(), "e5 holds a checker");
    assert!(b.place_monolith(sq("h1"), &mut Unrecorded).is_err(), "the block would leave the board (R7.2)");
    assert!(b.place_monolith(sq("a8"), &mut Unrecorded).is_err(), "the block would leave the board (R7.2)");
    assert_eq!(b, before);
    b.place_monolith(sq("c3"), &mut Unrecorded).unwrap();
    assert_eq!(b.supply().walls, [8, 7]);
    assert_eq!(b.supply().monolith, 0);
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | d  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  | ## | ## L    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | ## | ## | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | ~~ |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    let before = b;
    assert!(b.place_monolith(sq("f6"), &mut Unrecorded).is_err(), "there is one monolith");
    assert_eq!(b, before);
}

/// R7.2: the monolith moves one square orthogonally and never off the board.
#[test]
fn r7_2_the_monolith_steps_orthogonally_and_stays_on_the_board() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | d  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  | ## | ## | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | ## | ## | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(b.monolith_directions(), [Dir::N, Dir::W]);
    let before = b;
    for dir in [Dir::E, Dir::S, Dir::NE, Dir::NW, Dir::SW, Dir::SE] {
        assert!(b.move_monolith(dir, &mut Unrecorded).is_err(), "{dir}");
        assert_eq!(b, before);
    }
    b.move_monolith(Dir::W, &mut Unrecorded).unwrap();
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | d  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | ## | ## | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  | ## | ## |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
}

/// R7.3: squares the monolith enters lose their water or fire; walls on the edges
/// it crosses go (so do walls that would lie inside it, R7.1); walls on its new
/// outline and behind it stay. Everything returns to the supply.
#[test]
fn r7_3_the_monolith_clears_terrain_and_crossed_walls() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  | ## | ## D ^^ | .  |    | .  | 4
        +----+----+----+----+DDDD+----+----+----+
        | .  |    D ## | ## L ~~ L    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    let report = b.move_monolith(Dir::E, &mut Unrecorded).unwrap();
    let mut walls = report.walls_removed.clone();
    walls.sort();
    let mut expected = vec![edge("d3/e3"), edge("d4/e4"), edge("e3/e4")];
    expected.sort();
    assert_eq!(walls, expected);
    let mut terrain = report.terrain_removed.clone();
    terrain.sort();
    assert_eq!(terrain, [sq("e3"), sq("e4")]);
    assert!(report.pushed.is_empty() && report.removed.is_empty());
    assert_eq!((b.supply().water, b.supply().fire), (3, 4));
    assert_eq!(b.supply().walls, [7, 7]);
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | ## | ## | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    D .  | ## | ## L    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
}

/// R7.4: a checker in an entered square is pushed on, pushing the next (a chain);
/// pushed checkers may land on light squares (R1.1).
#[test]
fn r7_4_the_monolith_pushes_chains_of_checkers() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | ## | ## | l  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        | ## | ## | d  | l  | D  | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    let report = b.move_monolith(Dir::E, &mut Unrecorded).unwrap();
    assert_eq!(report.pushed.len(), 4);
    assert!(report.removed.is_empty());
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  | ## | ## | l  | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | ## | ## | d  | l  | D  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
}

/// R7.4: a checker pushed off the board is removed (R4.9: pieces to the reserve,
/// tokens to the supply) and the rest of its chain moves up.
#[test]
fn r7_4_a_checker_pushed_off_the_board_is_removed() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | ## | ## | Ls |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  | ## | ## | d  | lr | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    let (reserve, rings) = (b.reserve(Player::Light), b.supply().rings);
    let report = b.move_monolith(Dir::E, &mut Unrecorded).unwrap();
    assert_eq!(report.removed, [sq("h4")]);
    assert_eq!(b.reserve(Player::Light), reserve + 1);
    assert_eq!(b.supply().rings, rings + 1);
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  | ## | ## | Ls | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | ## | ## | d  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
}

/// R7.4: a pushed checker that would cross a wall, its owner's or the opponent's,
/// is removed and the chain stops there: the checker beyond stays put.
#[test]
fn r7_4_a_checker_pushed_across_a_wall_is_removed_and_the_chain_stops() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | ## | ## | l  | d  L .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        | ## | ## | d  D l  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    let report = b.move_monolith(Dir::E, &mut Unrecorded).unwrap();
    let mut removed = report.removed.clone();
    removed.sort();
    assert_eq!(removed, [sq("c4"), sq("d5")]);
    assert_eq!(b.reserve(Player::Dark), 12);
    assert_eq!(b.supply().walls, [7, 7], "walls the monolith does not cross stay");
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  | ## | ## | l  L .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | ## | ## D l  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
}

/// R7.4: a checker pushed into water or fire is removed; the water and fire stay.
#[test]
fn r7_4_a_checker_pushed_into_water_or_fire_is_removed() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | ## | ## | L  | ^^ | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        | ## | ## | dr | ~~ |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    let rings = b.supply().rings;
    b.move_monolith(Dir::E, &mut Unrecorded).unwrap();
    assert_eq!((b.reserve(Player::Dark), b.reserve(Player::Light)), (12, 12), "a pawn and a king removed");
    assert_eq!(b.supply().rings, rings + 1);
    assert_eq!(b.terrain_at(sq("d4")), Some(Terrain::Water));
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  | ## | ## | ^^ | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | ## | ## | ~~ |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
}

/// R7.4, R6.2: a pawn pushed onto its king row is crowned; one pushed onto its
/// own back row is not.
#[test]
fn r7_4_a_pawn_pushed_onto_its_king_row_is_crowned() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | d  | l  | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  | ## | ## |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | ## | ## | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    b.move_monolith(Dir::N, &mut Unrecorded).unwrap();
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | .  | D  | l  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | ## | ## | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  | ## | ## |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
}

/// R7.5: a direction whose push would move a checker under a hippo is not allowed,
/// wherever the frozen checker stands in the chain, even at its end where it would
/// be removed. A refused move changes nothing.
#[test]
fn r7_5_a_hippo_in_the_chain_forbids_the_direction() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | dh |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  | ## | ## |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | lh | d  | ## | ## | d  | lh | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  | d  | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(b.monolith_directions(), [Dir::S]);
    let before = b;
    for dir in [Dir::N, Dir::E, Dir::W] {
        assert!(b.move_monolith(dir, &mut Unrecorded).is_err(), "{dir}");
        assert_eq!(b, before);
    }
    b.move_monolith(Dir::S, &mut Unrecorded).unwrap();
    assert_diagram(
        &b,
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | dh |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | lh | d  | ## | ## | d  | lh | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  | ## | ## |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | d  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
}

/// R7.6: with no direction allowed the monolith cannot move, and trying changes
/// nothing.
#[test]
fn r7_6_with_no_direction_allowed_the_monolith_stays() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | dh |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        | ## | ## | lh | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | ## | ## | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert!(b.monolith_directions().is_empty());
    let before = b;
    for dir in Dir::ORTHOGONALS {
        assert!(b.move_monolith(dir, &mut Unrecorded).is_err(), "{dir}");
        assert_eq!(b, before);
    }
}

// ---- R1.1 light squares, R2.2 orientation ----

/// R1.1: checkers on light squares step diagonally among light squares.
#[test]
fn r1_1_checkers_on_light_squares_step_among_light_squares() {
    let b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  | D  | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  | d  | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    let names = moves(&b, Player::Dark);
    assert_eq!(names, ["c4-b5", "c4-d5", "f5-e4", "f5-e6", "f5-g4", "f5-g6"]);
}

/// R1.1: and they jump among light squares.
#[test]
fn r1_1_checkers_on_light_squares_jump_among_light_squares() {
    let b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  | l  | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  | l  | .  | D  | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  | d  | .  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    assert_eq!(moves(&b, Player::Dark), ["c4xe6", "f5xh7"]);
}

/// The four orientations, named by Dark's forward direction (R2.2).
fn orientation(dark_forward: Dir) -> Orientation {
    Orientation::with_dark_forward(dark_forward).expect("orthogonal")
}

/// R2.2, R4.1: in every orientation each player's pawns step forward, Light's
/// forward opposite to Dark's.
#[test]
fn r2_2_pawns_step_forward_in_every_orientation() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | l  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | d  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    let table = [
        (Dir::N, ["d4-c5", "d4-e5"], ["f6-e5", "f6-g5"]),
        (Dir::E, ["d4-e3", "d4-e5"], ["f6-e5", "f6-e7"]),
        (Dir::S, ["d4-c3", "d4-e3"], ["f6-e7", "f6-g7"]),
        (Dir::W, ["d4-c3", "d4-c5"], ["f6-g5", "f6-g7"]),
    ];
    assert_eq!(table.map(|t| orientation(t.0)), Orientation::ALL);
    for (forward, dark, light) in table {
        b.set_orientation(orientation(forward));
        assert_eq!(moves(&b, Player::Dark), dark, "Dark forward {forward}");
        assert_eq!(moves(&b, Player::Light), light, "Dark forward {forward}");
    }
}

/// R2.2, R4.2: in every orientation pawns jump forward only.
#[test]
fn r2_2_pawns_jump_forward_in_every_orientation() {
    let mut b = board(
        "
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 8
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 7
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 6
        +----+----+----+----+----+----+----+----+
        | .  |    | l  |    | l  |    | .  |    | 5
        +----+----+----+----+----+----+----+----+
        |    | .  |    | d  |    | .  |    | .  | 4
        +----+----+----+----+----+----+----+----+
        | .  |    | l  |    | l  |    | .  |    | 3
        +----+----+----+----+----+----+----+----+
        |    | .  |    | .  |    | .  |    | .  | 2
        +----+----+----+----+----+----+----+----+
        | .  |    | .  |    | .  |    | .  |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ",
    );
    let table = [
        (Dir::N, ["d4xb6", "d4xf6"]),
        (Dir::E, ["d4xf2", "d4xf6"]),
        (Dir::S, ["d4xb2", "d4xf2"]),
        (Dir::W, ["d4xb2", "d4xb6"]),
    ];
    for (forward, dark) in table {
        b.set_orientation(orientation(forward));
        assert_eq!(moves(&b, Player::Dark), dark, "Dark forward {forward}");
    }
}

/// R2.2, R4.4: in every orientation a pawn is crowned on the far edge row, for
/// each player.
#[test]
fn r2_2_pawns_are_crowned_on_the_far_edge_in_every_orientation() {
    // Per orientation: a Dark pawn and a Light pawn one step from their king rows.
    let table = [
        (Dir::N, "c7", "c7-b8", "f2", "f2-e1"),
        (Dir::E, "g4", "g4-h3", "b5", "b5-a4"),
        (Dir::S, "c2", "c2-b1", "f7", "f7-e8"),
        (Dir::W, "b4", "b4-a3", "g5", "g5-h4"),
    ];
    for (forward, dark_at, dark_move, light_at, light_move) in table {
        let mut b = Board::empty(Supply::STANDARD, Crowning::FromReserve);
        b.set_orientation(orientation(forward));
        for (player, at) in [(Player::Dark, dark_at), (Player::Light, light_at)] {
            b.set_checker(sq(at), Checker::new(player, Kind::Pawn)).unwrap();
            b.set_reserve(player, 11);
        }
        play(&mut b, Player::Dark, dark_move);
        play(&mut b, Player::Light, light_move);
        for (player, mv) in [(Player::Dark, dark_move), (Player::Light, light_move)] {
            let to: Square = sq(&mv[3..]);
            assert!(b.orientation().king_row(player).contains(to), "{mv} reaches {player}'s king row");
            assert_eq!(b.checker(to).unwrap().kind, Kind::King, "Dark forward {forward}: {mv}");
            assert_eq!(b.reserve(player), 10);
        }
    }
}
