//! Perft data files run by one harness (as in shakmaty's tests/perft.rs).

use alien_checkers::plain::{Position, perft};

#[test]
fn perft_data_file() {
    let text = include_str!("data/perft.txt");
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
