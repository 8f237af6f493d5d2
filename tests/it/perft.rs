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

/// The draughts decks against an independent implementation's figures
/// (tests/data/variant_perft.txt says whose): from the start to depth 8 (6 for
/// Turkish) and at depths 1 to 3 from over a hundred positions of random play each.
#[test]
fn variant_perft_data_file() {
    use alien_checkers::content::Content;
    use alien_checkers::plain::Variant;

    let text = include_str!("../data/variant_perft.txt");
    let mut variant: Option<(String, Variant)> = None;
    let mut position: Option<Position> = None;
    let mut name = String::new();
    let mut checked = std::collections::BTreeMap::<String, (usize, u32)>::new();
    for (line_no, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let at = || format!("line {}", line_no + 1);
        match key {
            "variant" => {
                let content = Content::load(&crate::common::repo(), rest).unwrap_or_else(|p| panic!("{}: {p}", at()));
                variant = Some((rest.to_string(), content.variant()));
            }
            "id" => name = rest.to_string(),
            "fen" => {
                let (_, v) = variant.as_ref().expect("a variant line comes first");
                let read = v.read_fen(rest).unwrap_or_else(|e| panic!("{}: {e}", at()));
                // Written back in the deck's notation, the position reads the same.
                assert_eq!(v.read_fen(&v.write_fen(&read)), Ok(read), "{}", at());
                position = Some(read);
            }
            "perft" => {
                let (deck, _) = variant.as_ref().expect("a variant line comes first");
                let (depth, expected) = rest.split_once(' ').expect("perft <depth> <leaves>");
                let (depth, expected): (u32, u64) = (depth.parse().unwrap(), expected.parse().unwrap());
                let pos = position.as_ref().expect("a fen line comes first");
                assert_eq!(perft(pos, depth), expected, "{deck} {name}: perft({depth}) ({})", at());
                let entry = checked.entry(deck.clone()).or_default();
                entry.0 += usize::from(depth == 3 && name != "start");
                entry.1 = entry.1.max(if name == "start" { depth } else { 0 });
            }
            other => panic!("line {}: unknown key {other}", line_no + 1),
        }
    }
    for deck in ["russian", "brazilian", "italian", "turkish"] {
        let (positions, start_depth) = checked.get(deck).copied().unwrap_or_default();
        assert!(positions >= 100, "{deck}: {positions} positions at depth 3");
        assert!(start_depth >= if deck == "turkish" { 6 } else { 8 }, "{deck}: the start to depth {start_depth}");
    }
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

/// `perft` and `moves` take a deck: its moves, start and notation; a FEN in
/// another notation is refused, naming the part.
#[test]
fn perft_and_moves_read_and_write_the_decks_notation() {
    let repo = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let run = |args: &[&str]| crate::common::run_binary(&repo, args, &[], "");
    let russian = run(&["perft", "--deck", "russian", "--depth", "5"]);
    assert_eq!(russian.stdout.trim(), "7482", "{}", russian.stderr);
    // Italian squares are numbered from a8: White's 21-24 are the third row.
    let italian = run(&["moves", "--deck", "italian", "--fen", "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1-12"]);
    assert_eq!(
        italian.stdout.lines().collect::<Vec<_>>(),
        ["21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"]
    );
    // A Russian king flies and captures from afar; moves are written
    // algebraically, captures with a colon.
    let king = run(&["moves", "--deck", "russian", "--fen", "W:WKa1:Bd4,h8"]);
    assert_eq!(king.stdout.lines().collect::<Vec<_>>(), ["a1:e5", "a1:f6", "a1:g7"]);
    let bad = run(&["perft", "--deck", "russian", "--depth", "1", "--fen", "W:W21:B1"]);
    assert!(!bad.success && bad.stderr.contains("'21' in '21' is not a square of this board"), "{}", bad.stderr);
    let unknown = run(&["perft", "--deck", "shogi", "--depth", "1"]);
    assert!(!unknown.success && unknown.stderr.contains("shogi"), "{}", unknown.stderr);
}
