//! Random play over thousands of games and random kernel operations, checking
//! invariants and round trips after every step (as OpenSpiel's `RandomSimTest`
//! and shakmaty's `legals_are_legal`).
//!
//! Decisions are picked uniformly among the pending options by a seeded
//! ChaCha8 generator, so every failure names a seed that reproduces it.

use crate::common;

use std::collections::BTreeSet;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use alien_checkers::game::{BlankCards, Choice, GameState, Setup};
use alien_checkers::kernel::{
    Bitboard, Board, Crowning, Dir, Edge, EdgePair, Kind, MoveRules, Player, Rotation, RuleResult, Square, Supply,
    Terrain, Token, any_legal_move_avoiding, legal_moves, legal_moves_avoiding,
};
use alien_checkers::kernel::{BoardEvent, PieceMoves, Removal, Totals, Ways};

/// The invariants every board keeps in Alien Checkers: no square holds two things
/// (`validate`), the supply is conserved, and each player's 12 pieces are on the
/// board or in the reserve (R1.3, R4.9).
#[track_caller]
fn check_alien_board(b: &Board, totals: &Totals, context: &dyn Fn() -> String) {
    if let Err(e) = b.check_conservation(totals) {
        panic!("{}: {e}\n{}", context(), alien_checkers::diagram::render(b));
    }
}

// ---- whole games through the decision loop ----

/// Decisions of one game; each is an index into the pending options.
struct Played {
    decisions: Vec<usize>,
    end: GameState,
}

/// How thoroughly [`random_game`] checks each apply, beyond the invariants it
/// always checks. The two costly checks run in some games only, so that the
/// whole file stays fast in a debug build.
#[derive(Clone, Copy)]
struct Thorough {
    /// Apply each option not chosen too, on a copy.
    every_option: bool,
    /// Round-trip the state through JSON after every apply, not only at the end.
    json_every_apply: bool,
}

/// Serializes and reads back a state; it must come back equal.
#[track_caller]
fn check_json_round_trip(state: &GameState, context: &dyn Fn() -> String) {
    let json = serde_json::to_string(state).unwrap();
    let back: GameState = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{}: {e}\n{json}", context()));
    assert!(back == *state, "{}: the JSON round trip changed the state\n{json}", context());
}

/// Plays one game picking uniformly among the pending options, checking after
/// every apply.
fn random_game(setup: &Setup, seed: u64, thorough: Thorough) -> Played {
    let host = BlankCards;
    let alien = setup.rules.cards;
    let mut state = GameState::new(setup, seed);
    let totals = state.board.totals();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut decisions = Vec::new();
    // Each turn is a move and a card decision (R3); blank cards ask nothing.
    let most = 2 * setup.rules.move_limit as usize + 2;
    while let Some(decision) = state.pending(&host) {
        let at = decisions.len();
        let context = || format!("seed {seed}, decision {at}");
        assert!(decisions.len() < most, "{}: the game outlasts the move limit (R10.4)", context());
        assert!(state.turn < setup.rules.move_limit, "{}: turn {} is past the limit", context(), state.turn);
        assert_eq!(decision.player, state.to_move, "{}", context());
        assert!(!decision.options.is_empty(), "{}: a pending decision without options", context());
        if thorough.every_option {
            for option in &decision.options {
                let mut copy = state.clone();
                copy.apply(&host, option).unwrap_or_else(|e| panic!("{}: {option} refused: {e}", context()));
            }
        }
        let pick = rng.random_range(0..decision.options.len());
        let choice: &Choice = &decision.options[pick];
        state.apply(&host, choice).unwrap_or_else(|e| panic!("{}: {choice} refused: {e}", context()));
        decisions.push(pick);
        if alien {
            check_alien_board(&state.board, &totals, &context);
        } else {
            state.board.check_conservation(&totals).unwrap_or_else(|e| panic!("{}: {e}", context()));
        }
        if thorough.json_every_apply {
            check_json_round_trip(&state, &context);
        }
    }
    assert!(state.outcome().is_some(), "seed {seed}: no decision is pending, so the game is over");
    check_json_round_trip(&state, &|| format!("seed {seed}, end"));
    Played { decisions, end: state }
}

/// R2.4: the same seed and the same decisions replay the same game.
fn replay(setup: &Setup, seed: u64, played: &Played) {
    let mut state = GameState::new(setup, seed);
    for (i, &pick) in played.decisions.iter().enumerate() {
        let decision = state.pending(&BlankCards).unwrap_or_else(|| panic!("seed {seed}: replay ended at {i}"));
        state.apply(&BlankCards, &decision.options[pick]).unwrap();
    }
    assert!(state.pending(&BlankCards).is_none(), "seed {seed}: the replay did not end");
    assert_eq!(state.digest(), played.end.digest(), "seed {seed}: the replay differs");
    assert!(state == played.end, "seed {seed}: the replay differs");
}

fn random_games(setup: &Setup, seeds: std::ops::Range<u64>) {
    let mut outcomes = BTreeSet::new();
    for seed in seeds {
        // In debug builds a JSON round trip costs several moves, and applying
        // every option several more: each runs after every apply in some games.
        let thorough = Thorough { every_option: seed % 4 == 1, json_every_apply: seed % 4 == 0 };
        let played = random_game(setup, seed, thorough);
        replay(setup, seed, &played);
        outcomes.insert(format!("{:?}", played.end.outcome().map(|o| (o.winner, o.reason))));
    }
    // The games are not all alike: at least two different outcomes turn up.
    assert!(outcomes.len() >= 2, "outcomes seen: {outcomes:?}");
}

/// R3, R10: 2000 games of Alien Checkers with blank cards (split in two tests
/// so the harness runs them side by side).
#[test]
fn random_alien_games_keep_invariants_a() {
    random_games(&Setup::blank(21), 0..1000);
}

#[test]
fn random_alien_games_keep_invariants_b() {
    random_games(&Setup::blank(21), 1000..2000);
}

/// R11: 2000 games of plain checkers.
#[test]
fn random_plain_games_keep_invariants() {
    random_games(&Setup::plain(), 0..2000);
}

// ---- random kernel operations on a board ----

/// A random square: from `likely` half the time when it is not empty (so that
/// operations often succeed), otherwise any square.
fn pick_square(rng: &mut ChaCha8Rng, likely: Bitboard) -> Square {
    let squares: Vec<Square> = likely.collect();
    if !squares.is_empty() && rng.random_bool(0.5) {
        squares[rng.random_range(0..squares.len())]
    } else {
        Square::new(rng.random_range(0..64u8)).expect("below 64")
    }
}

fn pick<T: Copy>(rng: &mut ChaCha8Rng, items: &[T]) -> T {
    items[rng.random_range(0..items.len())]
}

/// R5.4 and R5.6 written out for one step of `player`'s checker: an orthogonal
/// step is blocked by a wall on the edge it crosses, a diagonal one by the walls
/// around the vertex it passes. Only the opponent's walls block (R5.3).
fn blocked_by_rule(b: &Board, player: Player, from: Square, dir: Dir) -> bool {
    let Some(to) = from.step(dir) else { return true };
    if !dir.is_diagonal() {
        return b.wall_owner(Edge::between(from, to).unwrap()) == Some(!player);
    }
    let sw = Square::at(from.file().min(to.file()), from.rank().min(to.rank())).unwrap();
    let (se, nw, ne) = (sw.step(Dir::E).unwrap(), sw.step(Dir::N).unwrap(), sw.step(Dir::NE).unwrap());
    let wall = |a: Square, c: Square| b.wall_owner(Edge::between(a, c).unwrap()) == Some(!player);
    let (n, s, w, e) = (wall(nw, ne), wall(sw, se), wall(sw, nw), wall(se, ne));
    if matches!(dir, Dir::NE | Dir::SW) { (w || n) && (s || e) } else { (n || e) && (w || s) }
}

/// A move as (from, landings, captured squares).
type Sequence = (Square, Vec<Square>, Bitboard);

/// R4 written out plainly, one checker and one direction at a time.
fn reference_moves(b: &Board, player: Player) -> Vec<Sequence> {
    let movers = b.checkers(player) - b.tokens(Token::Hippo); // R4.7
    let mut jumps = Vec::new();
    for from in movers {
        let checker = b.checker(from).unwrap();
        let dirs: Vec<Dir> = if checker.kind == Kind::Pawn {
            b.orientation().pawn_dirs(player).to_vec() // R4.1, R4.2
        } else {
            Dir::DIAGONALS.to_vec()
        };
        let mut path = Vec::new();
        extend_jumps(b, player, from, checker.kind, &dirs, from, &mut path, Bitboard::EMPTY, &mut jumps);
    }
    if !jumps.is_empty() {
        return jumps; // R4.3
    }
    let mut steps = Vec::new();
    for from in movers {
        let checker = b.checker(from).unwrap();
        for dir in Dir::DIAGONALS {
            let forward = b.orientation().pawn_dirs(player).contains(&dir);
            let Some(to) = from.step(dir) else { continue };
            if (checker.kind != Kind::Pawn || forward) && b.is_empty(to) && !blocked_by_rule(b, player, from, dir) {
                steps.push((from, vec![to], Bitboard::EMPTY));
            }
        }
    }
    steps
}

#[allow(clippy::too_many_arguments)]
fn extend_jumps(
    b: &Board,
    player: Player,
    from: Square,
    kind: Kind,
    dirs: &[Dir],
    at: Square,
    path: &mut Vec<Square>,
    captured: Bitboard,
    out: &mut Vec<Sequence>,
) {
    let mut continued = false;
    for &dir in dirs {
        let (Some(mid), Some(land)) = (at.step(dir), at.step(dir).and_then(|m| m.step(dir))) else { continue };
        let prey = b.owner(mid) == Some(!player)
            && !captured.contains(mid)
            && (kind == Kind::Emperor || !b.emperors().contains(mid)); // R4.6
        // Captured checkers stay on the board until the move ends; the mover has left `from`.
        let lands = b.is_empty(land) || land == from; // R4.5
        if !prey || !lands || blocked_by_rule(b, player, at, dir) || blocked_by_rule(b, player, mid, dir) {
            continue; // R5.5
        }
        continued = true;
        path.push(land);
        let mut now = captured;
        now.insert(mid);
        if kind == Kind::Pawn && b.orientation().king_row(player).contains(land) {
            out.push((from, path.clone(), now)); // R4.4
        } else {
            extend_jumps(b, player, from, kind, dirs, land, path, now, out);
        }
        path.pop();
    }
    if !continued && !path.is_empty() {
        out.push((from, path.clone(), captured));
    }
}

/// A move sequence written like a move, `c3xe5xg7`, for messages.
fn show(list: &[Sequence]) -> Vec<String> {
    let text = |(from, landings, captured): &Sequence| {
        let sep = if captured.any() { "x" } else { "-" };
        let rest: Vec<String> = landings.iter().map(|s| s.to_string()).collect();
        format!("{from}{sep}{}", rest.join(sep))
    };
    list.iter().map(text).collect()
}

/// The kernel's moves agree with [`reference_moves`]: every move it lists is a
/// reference move, none twice, and every reference move is listed, up to the
/// kernel listing once the chains that capture the same checkers between the same
/// squares (which can differ only in the order of a loop).
fn check_moves_against_reference(b: &Board, player: Player, context: &dyn Fn() -> String) {
    let mut kernel = Vec::new();
    legal_moves(b, player, Bitboard::ALL, &mut kernel);
    let listed: Vec<Sequence> = kernel.iter().map(|m| (m.from(), m.landings().collect(), m.captured())).collect();
    let reference = reference_moves(b, player);
    let distinct: BTreeSet<(Square, Vec<Square>, u64)> = listed.iter().map(|(f, l, c)| (*f, l.clone(), c.0)).collect();
    assert_eq!(distinct.len(), listed.len(), "{}: a move is listed twice", context());
    let key = |(f, l, c): &Sequence| (*f, *l.last().unwrap(), c.0);
    let keys = |list: &[Sequence]| list.iter().map(key).collect::<BTreeSet<_>>();
    let differ = || format!("{}: {player} lists {:?}, the reference {:?}", context(), show(&listed), show(&reference));
    assert!(listed.iter().all(|seq| reference.contains(seq)), "{}", differ());
    assert!(keys(&listed) == keys(&reference), "{}", differ());
}

/// `any_legal_move_avoiding` says whether `legal_moves_avoiding` lists a move,
/// for random movers, squares to avoid (most often one checker's, as Phase's
/// lift filter asks) and move rules.
fn check_any_move_avoiding(b: &Board, player: Player, rng: &mut ChaCha8Rng, context: &dyn Fn() -> String) {
    let mut listed = Vec::new();
    for _ in 0..4 {
        let allowed = if rng.random_bool(0.5) { Bitboard::ALL } else { Bitboard(rng.random()) };
        let avoid = match rng.random_range(0..3) {
            0 => Bitboard::from_square(pick_square(rng, b.occupied())),
            1 => Bitboard(rng.random()),
            _ => Bitboard::EMPTY,
        };
        let rules = MoveRules {
            pawns_step_back: rng.random_bool(0.3),
            closed: if rng.random_bool(0.3) { Bitboard(rng.random()) } else { Bitboard::EMPTY },
            capture_optional: rng.random_bool(0.3),
            // Added moves take the general generator (rulebook.rs).
            pawns: if rng.random_bool(0.2) {
                PieceMoves { steps: Ways::FORWARD_DIAGONALS, reach: 2, ..PieceMoves::NONE }
            } else {
                PieceMoves::NONE
            },
            kings: PieceMoves { flying: rng.random_bool(0.2), ..PieceMoves::NONE },
        };
        legal_moves_avoiding(b, player, allowed, avoid, &rules, &mut listed);
        let any = any_legal_move_avoiding(b, player, allowed, avoid, &rules, &mut Vec::new());
        assert_eq!(any, !listed.is_empty(), "{}: {player}, avoiding {avoid:?}, {rules:?}: {listed:?}", context());
    }
}

/// Card moves (R8.10, R8.13) written out: single steps, slides and single jumps
/// in all eight directions of the checker on `from`, as sorted squares.
fn reference_card_moves(b: &Board, from: Square) -> [Vec<Square>; 3] {
    let (mut steps, mut slides, mut jumps) = (Vec::new(), Vec::new(), Vec::new());
    let Some(checker) = b.checker(from).filter(|c| !c.hippo) else { return [steps, slides, jumps] }; // R4.7
    let player = checker.owner;
    for dir in Dir::ALL {
        let mut at = from;
        while let Some(next) = at.step(dir).filter(|&n| b.is_empty(n) && !blocked_by_rule(b, player, at, dir)) {
            if at == from {
                steps.push(next);
            }
            slides.push(next);
            at = next;
        }
        let (Some(mid), Some(land)) = (from.step(dir), from.step(dir).and_then(|m| m.step(dir))) else { continue };
        let prey = b.checker(mid).is_some_and(|p| {
            p.owner != player && (p.kind != Kind::Emperor || checker.kind == Kind::Emperor) // R4.6
        });
        if prey && b.is_empty(land) && !blocked_by_rule(b, player, from, dir) && !blocked_by_rule(b, player, mid, dir) {
            jumps.push(land);
        }
    }
    for list in [&mut steps, &mut slides, &mut jumps] {
        list.sort();
    }
    [steps, slides, jumps]
}

/// The kernel's card moves agree with [`reference_card_moves`] for every checker.
fn check_card_moves_against_reference(b: &Board, context: &dyn Fn() -> String) {
    for from in b.occupied() {
        let sorted = |mut list: Vec<Square>| {
            list.sort();
            list
        };
        let kernel = [
            sorted(b.step_targets(from, &Dir::ALL)),
            sorted(b.slide_targets(from, &Dir::ALL)),
            sorted(b.jump_targets(from, &Dir::ALL)),
        ];
        let reference = reference_card_moves(b, from);
        let names =
            |lists: &[Vec<Square>; 3]| lists.clone().map(|l| l.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert!(
            kernel == reference,
            "{}: steps, slides and jumps from {from}: kernel {:?}, reference {:?}",
            context(),
            names(&kernel),
            names(&reference)
        );
    }
}

/// One random kernel operation with random arguments; refusals are expected.
fn random_operation(
    b: &mut Board,
    rng: &mut ChaCha8Rng,
    edge_pairs: &[EdgePair],
    edges: &[Edge],
    log: &mut Vec<BoardEvent>,
) -> RuleResult<()> {
    let occupied = b.occupied();
    let player = pick(rng, &Player::BOTH);
    let token = pick(rng, &Token::ALL);
    let terrain = pick(rng, &[Terrain::Water, Terrain::Fire]);
    match rng.random_range(0..19) {
        0 => b.put_token(pick_square(rng, occupied), token, log),
        1 => b.remove_token(pick_square(rng, b.tokens(token)), token, log),
        2 => b.place_terrain(pick_square(rng, b.empty_squares()), terrain, log),
        3 => b.remove_terrain(pick_square(rng, b.terrain(Terrain::Water) | b.terrain(Terrain::Fire)), log).map(|_| ()),
        4 => b.place_walls(player, pick(rng, edge_pairs), log),
        5 => {
            let placed: Vec<Edge> = Player::BOTH.iter().flat_map(|&p| b.walls(p).edges().collect::<Vec<_>>()).collect();
            let edge = if !placed.is_empty() && rng.random_bool(0.5) { pick(rng, &placed) } else { pick(rng, edges) };
            b.remove_wall(edge, log).map(|_| ())
        }
        6 => {
            let spots = b.monolith_spots();
            let anchor = if !spots.is_empty() && rng.random_bool(0.5) {
                pick(rng, &spots)
            } else {
                pick_square(rng, Bitboard::EMPTY)
            };
            b.place_monolith(anchor, log)
        }
        7 | 8 => b.move_monolith(pick(rng, &Dir::ALL), log).map(|_| ()),
        9 => b.remove_checker(pick_square(rng, occupied), Removal::Card, log).map(|_| ()),
        10 => b.place_from_reserve(player, pick_square(rng, b.empty_squares()), log),
        11 => {
            b.rotate(pick(rng, &[Rotation::Clockwise, Rotation::Counterclockwise]), log);
            Ok(())
        }
        12 => b.relocate(pick_square(rng, occupied), pick_square(rng, b.empty_squares()), log),
        13 => b.make_emperor(pick_square(rng, b.pawns()), pick_square(rng, b.kings() - b.emperors()), log),
        14 => b.jump(pick_square(rng, occupied), pick(rng, &Dir::ALL), log).map(|_| ()),
        15 => {
            // R8.16: a checker lifted off and put back elsewhere, or where it was.
            let from = pick_square(rng, occupied);
            let checker = b.set_aside(from, log)?;
            let to = pick_square(rng, b.empty_squares());
            let result = b.put_back(to, checker, log);
            if result.is_err() {
                b.put_back(from, checker, log).expect("its own square is empty");
            }
            result
        }
        _ => {
            let mut moves = Vec::new();
            legal_moves(b, player, Bitboard::ALL, &mut moves);
            if moves.is_empty() {
                return Ok(());
            }
            let mv = pick(rng, &moves);
            b.play(&mv, log).map(|_| ())
        }
    }
}

/// Random put/remove token, terrain, walls, monolith placement and moves, checker
/// removal, revival, rotation, relocation, emperors, card jumps, lifting and
/// putting back, and checker moves, with random arguments: after each, every
/// token kind and every piece is accounted for, the board validates, a refused
/// operation changed nothing, the events recorded explain every change, the board survives a JSON round trip (every fourth
/// operation), both players' moves agree with the reference written from R4 and
/// R5, and (every fourth operation) so do every checker's card moves (R8.10, R8.13).
#[test]
fn random_kernel_operations_keep_every_invariant() {
    let edge_pairs = EdgePair::all();
    let edges: Vec<Edge> = Edge::all().collect();
    let (mut refused, mut done) = (0, 0);
    for seed in 0..200u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut b = Board::start(Supply::STANDARD, Crowning::FromReserve);
        let totals = b.totals();
        for op in 0..200 {
            let before = b;
            let mut events = Vec::new();
            let result = random_operation(&mut b, &mut rng, edge_pairs, &edges, &mut events);
            let context = || format!("seed {seed}, operation {op} ({result:?})");
            match &result {
                Ok(()) => done += 1,
                Err(_) => {
                    refused += 1;
                    assert!(b == before, "{}: a refused operation changed the board", context());
                }
            }
            // The events explain the change: redone on the board before, they give the board after.
            let mut redone = before;
            events.iter().for_each(|e| e.redo(&mut redone));
            assert!(redone == b, "{}: its events {events:?} do not explain the board", context());
            check_alien_board(&b, &totals, &context);
            for player in Player::BOTH {
                check_moves_against_reference(&b, player, &context);
                check_any_move_avoiding(&b, player, &mut rng, &context);
            }
            if op % 4 == 1 {
                check_card_moves_against_reference(&b, &context);
            }
            if op % 4 == 0 {
                let back: Board = serde_json::from_str(&serde_json::to_string(&b).unwrap()).unwrap();
                assert!(back == b, "{}: the JSON round trip changed the board", context());
            }
        }
    }
    // Both outcomes are exercised often.
    assert!(refused > 10_000 && done > 10_000, "refused {refused}, done {done}");
}

/// The conservation check itself fails when something is made from nothing.
#[test]
fn the_conservation_check_names_what_is_not_conserved() {
    use alien_checkers::kernel::{Checker, Crowning, Kind, Supply, Terrain, Unrecorded};
    let mut b = Board::start(Supply::STANDARD, Crowning::FromReserve);
    let dealt = b.totals();
    b.place_terrain(common::sq("d4"), Terrain::Water, &mut Unrecorded).unwrap();
    assert_eq!(b.check_conservation(&dealt), Ok(()), "water from the supply is conserved");
    b.set_checker(common::sq("e5"), Checker::new(Player::Dark, Kind::Pawn)).unwrap();
    let e = b.check_conservation(&dealt).unwrap_err();
    assert!(e.0.contains("pieces") && e.0.contains("13"), "{e}");
}

/// A deck's own start (`start:` in its rules) deals other than 12 pieces
/// each: what is conserved is what was dealt.
#[test]
fn the_conservation_check_counts_the_pieces_dealt() {
    use alien_checkers::kernel::{Checker, Crowning, Kind, Movement, PlayingSquares, StartLayout, Supply};
    let one_row = StartLayout { squares: PlayingSquares::Dark, rows: vec![1] };
    let mut b = Board::start_as(Supply::STANDARD, Crowning::FromReserve, &one_row, Movement::AMERICAN);
    let dealt = b.totals();
    assert_eq!(dealt.pieces, [4, 4]);
    assert_eq!(b.check_conservation(&dealt), Ok(()), "four pieces each, as dealt");
    b.set_checker(common::sq("d4"), Checker::new(Player::Dark, Kind::Pawn)).unwrap();
    let e = b.check_conservation(&dealt).unwrap_err();
    assert!(e.0.contains("[5, 4]") && e.0.contains("dealt [4, 4]"), "{e}");
}
