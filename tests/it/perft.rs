//! Perft data files run by one harness (as in shakmaty's tests/perft.rs).

use alien_checkers::plain::{Position, perft};

#[test]
fn perft_data_file() {
    let text = include_str!("../data/perft.txt");
    let mut position: Option<Position> = None;
    let mut name = String::new();
    let mut checked = 0;
    for (line_no, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => name = rest.to_string(),
            "fen" => position = Some(rest.parse().unwrap_or_else(|e| panic!("line {}: {e}", line_no + 1))),
            "perft" => {
                let (depth, expected) = rest.split_once(' ').expect("perft <depth> <leaves>");
                let (depth, expected): (u32, u64) = (depth.parse().unwrap(), expected.parse().unwrap());
                let pos = position.as_ref().expect("a fen line comes first");
                assert_eq!(perft(pos, depth), expected, "{name}: perft({depth})");
                checked += 1;
            }
            other => panic!("line {}: unknown key {other}", line_no + 1),
        }
    }
    assert!(checked >= 9, "the data file lists depths 1-9 of the start position");
}

/// Steps are listed by source square, then target (seeded random games depend on
/// the order), with pawns stepping back as Backwards allows and with kings.
#[test]
fn steps_are_listed_by_source_then_target() {
    use alien_checkers::kernel::{Bitboard, MoveRules, Unrecorded, legal_moves_under};
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::{Rng, SeedableRng};

    let mut checked = 0;
    for (seed, back) in (0..40u64).map(|s| (s, s % 2 == 1)) {
        let rules = MoveRules { pawns_step_back: back, ..MoveRules::STANDARD };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let start = Position::start();
        let (mut board, mut player) = (start.board, start.to_move);
        let mut moves = Vec::new();
        for _ in 0..150 {
            legal_moves_under(&board, player, Bitboard::ALL, &rules, &mut moves);
            if moves.is_empty() {
                break;
            }
            if !moves[0].is_jump() {
                let keys: Vec<_> = moves.iter().map(|m| (m.from(), m.to())).collect();
                assert!(keys.windows(2).all(|w| w[0] < w[1]), "seed {seed}: steps out of order: {moves:?}");
                checked += 1;
            }
            let pick = moves[(rng.next_u32() as usize) % moves.len()];
            board.play(&pick, &mut Unrecorded).unwrap();
            player = !player;
        }
    }
    assert!(checked > 1000, "enough step positions were checked ({checked})");
}
