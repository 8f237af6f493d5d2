//! Boards drawn as ASCII, for tests, scenario files and plain-text output.
//!
//! ```text
//! +----+----+----+----+----+----+----+----+
//! |    | l  |    | l  |    | l  |    | l  | 8
//! +----+----+----+----+----+----+----+----+
//! | l  |    | ## | ## |    |    | Lr |    | 7
//! +----+----+----+----+DDDD+----+----+----+
//! |    | ~~ | ## | ## | ^^ D LLs|    | .  | 6
//! +----+----+----+----+----+----+----+----+
//! ...
//! ```
//!
//! Every line starts in the same column (so a diagram fits a YAML block scalar);
//! rank numbers stand at the right end and may be left out. Rank 8 is at the top and file a at the left, whatever the orientation (R2.2:
//! square names are fixed to the board). A cell holds:
//! - a checker: `d`/`l` pawn, `D`/`L` king, `DD`/`LL` emperor of Dark/Light,
//!   followed by its tokens: `r` ring, `s` snookle, `h` hippo;
//! - `~~` water, `^^` fire, `##` the monolith (all four squares of its block);
//! - nothing: blank, or `.` (empty dark squares are drawn with a dot);
//! - after any of these, the glyphs of markers of the deck's own kinds
//!   (content/markers.rs), e.g. `d*` or `*` (read and drawn by the `_with`
//!   functions, given the deck's marker kinds).
//!
//! A wall replaces the edge it lies on: `DDDD`/`LLLL` in a horizontal rule, `D`/`L`
//! in place of a `|`, for Dark's and Light's walls.
//!
//! Cells are four characters wide, or wider when one must hold more (an
//! emperor with a ring, a snookle and a marker is `DDrs*`): every cell of a
//! diagram is as wide as the top rule's first `----` segment.

use std::fmt::Write as _;

use crate::kernel::{
    Board, Checker, Colour, Crowning, Edge, Kind, MarkerKind, MarkerRules, Player, Square, Supply, Terrain, Token,
    Unrecorded,
};

/// A marker kind as diagrams know it: its glyph and its rules, in the deck's
/// order (the kind's index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarkerGlyph {
    pub glyph: char,
    pub rules: MarkerRules,
}

/// A diagram that could not be read: the line (1-based, within the diagram) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagramError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for DiagramError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "diagram line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for DiagramError {}

/// The narrowest cell: room for an emperor with two tokens, or a blank.
pub const CELL: usize = 4;
const LEFT: usize = 1; // "|" before the first cell

fn cell_start(file: usize, width: usize) -> usize {
    LEFT + file * (width + 1)
}

/// The cell width of a diagram: the length of its top rule's first segment of
/// dashes (`+----+…` gives 4), at least [`CELL`].
fn width_of(top_rule: &str) -> usize {
    let segment = top_rule.trim_start().strip_prefix('+').and_then(|r| r.split('+').next()).unwrap_or("");
    if segment.len() > CELL && segment.chars().all(|c| c == '-') { segment.len() } else { CELL }
}

/// The cell width that draws every square of `board`: [`CELL`], or the longest code.
pub fn width_for(board: &Board, glyphs: &[char]) -> usize {
    Square::all().map(|sq| cell_with(board, sq, glyphs).chars().count()).max().unwrap_or(0).max(CELL)
}

/// Reads a diagram into a board with `supply` less what the diagram puts on the
/// board, and each reserve holding the pieces not on the board (12 each, R1.3).
/// Pawns on their king row stay pawns; call `settle_crowns` to crown them.
pub fn parse(text: &str, supply: Supply, crowning: Crowning) -> Result<Board, DiagramError> {
    parse_with(text, supply, crowning, &[])
}

/// [`parse`] for a deck with marker kinds of its own.
pub fn parse_with(
    text: &str,
    supply: Supply,
    crowning: Crowning,
    markers: &[MarkerGlyph],
) -> Result<Board, DiagramError> {
    let lines: Vec<(usize, &str)> =
        text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end())).filter(|(_, l)| !l.trim().is_empty()).collect();
    // The common indent, in ASCII spaces and tabs (one byte each), so that
    // cutting it off never cuts a character in two (a line indented with
    // U+3000 keeps that character and is refused as a bad row instead).
    let ascii_indent = |l: &str| l.len() - l.trim_start_matches([' ', '\t']).len();
    let indent = lines.iter().map(|(_, l)| ascii_indent(l)).min().unwrap_or(0);
    let rows: Vec<(usize, &str)> = lines
        .iter()
        .map(|&(n, l)| (n, &l[indent.min(ascii_indent(l))..]))
        .filter(|(_, l)| !l.trim_start().starts_with(|c: char| c.is_ascii_lowercase()))
        .collect();
    let err = |line: usize, message: String| DiagramError { line, message };
    if rows.len() != 17 {
        return Err(err(
            lines.first().map_or(1, |l| l.0),
            format!("expected 17 lines (8 ranks and 9 rules), found {}", rows.len()),
        ));
    }
    let width = width_of(rows[0].1);
    let mut board = Board::empty(supply, crowning);
    if !markers.is_empty() {
        board.declare_markers(&markers.iter().map(|m| m.rules).collect::<Vec<_>>());
    }
    let mut monolith = Vec::new();
    // The line of the first `##`, where a problem with the monolith is reported.
    let mut monolith_line = 1;
    for (rank_row, rank) in (0..8).rev().enumerate() {
        let (above_no, above) = rows[2 * rank_row];
        let (line_no, line) = rows[2 * rank_row + 1];
        let chars: Vec<char> = line.chars().collect();
        let label = char::from(b'1' + rank as u8);
        if chars.first() != Some(&'|') {
            return Err(err(line_no, format!("expected rank {label} here, starting with |")));
        }
        let tail: String = chars.get(cell_start(8, width)..).unwrap_or(&[]).iter().collect();
        if !matches!(tail.trim(), "" | "|") && tail.trim().trim_start_matches('|').trim() != label.to_string() {
            return Err(err(
                line_no,
                format!("expected rank {label} here, but the line is labelled '{}'", tail.trim()),
            ));
        }
        if chars.len() < cell_start(8, width) {
            return Err(err(
                line_no,
                format!("rank {label} is too short: each of 8 cells is {width} wide with | between"),
            ));
        }
        for file in 0..8 {
            let sq = Square::at(file as i8, rank as i8).expect("in range");
            let start = cell_start(file, width);
            let code: String = chars[start..start + width].iter().collect();
            let drawn = monolith.len();
            read_marked_cell(&mut board, sq, code.trim(), &mut monolith, markers)
                .map_err(|m| err(line_no, format!("{sq}: {m}")))?;
            if drawn == 0 && monolith.len() == 1 {
                monolith_line = line_no;
            }
            let sep = chars[start + width];
            if file < 7 {
                let edge = Edge::between(sq, sq.step(crate::kernel::Dir::E).expect("not file h")).expect("neighbours");
                read_wall(&mut board, edge, &sep.to_string(), "|").map_err(|m| err(line_no, m))?;
            }
        }
        if rank_row > 0 {
            let hchars: Vec<char> = above.chars().collect();
            if hchars.len() < cell_start(8, width) {
                return Err(err(above_no, "rule line is too short".to_string()));
            }
            for file in 0..8 {
                let sq = Square::at(file as i8, rank as i8).expect("in range");
                let edge = Edge::between(sq, sq.step(crate::kernel::Dir::N).expect("not rank 8")).expect("neighbours");
                let start = cell_start(file, width);
                let seg: String = hchars[start..start + width].iter().collect();
                read_wall(&mut board, edge, &seg, &"-".repeat(width)).map_err(|m| err(above_no, m))?;
            }
        }
    }
    if !monolith.is_empty() {
        let anchor = *monolith.iter().min().expect("not empty");
        let whole = crate::kernel::block(anchor)
            .is_some_and(|b| b.count() == monolith.len() as u32 && monolith.iter().all(|&s| b.contains(s)));
        if !whole {
            return Err(err(monolith_line, "the monolith (##) must fill exactly one 2×2 block".to_string()));
        }
        board.set_monolith(anchor).map_err(|e| err(monolith_line, e.to_string()))?;
    }
    take_from_supply(&mut board).map_err(|m| err(1, m))?;
    for player in Player::BOTH {
        let on_board = board.pieces_on_board(player);
        if on_board > 12 {
            return Err(err(1, format!("{player} has {on_board} pieces on the board; a player has 12 (R1.3)")));
        }
        board.set_reserve(player, 12u32.saturating_sub(on_board) as u8);
    }
    Ok(board)
}

/// Reads a cell whose code may end in marker glyphs.
fn read_marked_cell(
    board: &mut Board,
    sq: Square,
    code: &str,
    monolith: &mut Vec<Square>,
    markers: &[MarkerGlyph],
) -> Result<(), String> {
    let mut kinds = Vec::new();
    let rest: String = code
        .chars()
        .filter(|c| match markers.iter().position(|m| m.glyph == *c) {
            Some(i) => {
                kinds.push(MarkerKind(i as u8));
                false
            }
            None => true,
        })
        .collect();
    read_cell(board, sq, &rest, monolith)?;
    for kind in kinds {
        board.place_marker(kind, sq, &mut Unrecorded).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn read_cell(board: &mut Board, sq: Square, code: &str, monolith: &mut Vec<Square>) -> Result<(), String> {
    match code {
        "" | "." => return Ok(()),
        "~~" => return board.set_terrain(sq, Terrain::Water).map_err(|e| e.to_string()),
        "^^" => return board.set_terrain(sq, Terrain::Fire).map_err(|e| e.to_string()),
        "##" => {
            monolith.push(sq);
            return Ok(());
        }
        _ => {}
    }
    let owner = match code.chars().next() {
        Some('d' | 'D') => Player::Dark,
        Some('l' | 'L') => Player::Light,
        _ => return Err(format!("'{code}' is not a cell (d/l pawn, D/L king, DD/LL emperor, ~~, ^^, ##, .)")),
    };
    let (kind, tokens) = if code.starts_with("DD") || code.starts_with("LL") {
        (Kind::Emperor, &code[2..])
    } else if code.starts_with(['D', 'L']) {
        (Kind::King, &code[1..])
    } else {
        (Kind::Pawn, &code[1..])
    };
    let mut checker = Checker::new(owner, kind);
    for t in tokens.chars() {
        match t {
            'r' if !checker.ring => checker.ring = true,
            's' if !checker.snookle => checker.snookle = true,
            'h' if !checker.hippo => checker.hippo = true,
            _ => return Err(format!("'{t}' in '{code}' is not a token (r ring, s snookle, h hippo; once each)")),
        }
    }
    board.set_checker(sq, checker).map_err(|e| e.to_string())
}

fn read_wall(board: &mut Board, edge: Edge, mark: &str, plain: &str) -> Result<(), String> {
    let owner = if mark == plain {
        return Ok(());
    } else if mark.chars().all(|c| c == 'D') {
        Player::Dark
    } else if mark.chars().all(|c| c == 'L') {
        Player::Light
    } else {
        return Err(format!("'{mark}' on edge {edge} is not '{plain}' (no wall) or a wall of D or L"));
    };
    board.set_wall(owner, edge).map_err(|e| e.to_string())
}

/// Takes from the supply what the diagram put on the board.
fn take_from_supply(board: &mut Board) -> Result<(), String> {
    let mut supply = *board.supply();
    let take = |left: &mut u8, used: u32, what: &str| -> Result<(), String> {
        *left =
            left.checked_sub(used as u8).filter(|_| used <= 255).ok_or(format!("more {what} than the supply holds"))?;
        Ok(())
    };
    take(&mut supply.rings, board.tokens(Token::Ring).count(), "rings")?;
    take(&mut supply.snookles, board.tokens(Token::Snookle).count(), "snookles")?;
    take(&mut supply.hippos, board.tokens(Token::Hippo).count(), "hippos")?;
    take(&mut supply.water, board.terrain(Terrain::Water).count(), "water")?;
    take(&mut supply.fire, board.terrain(Terrain::Fire).count(), "fire")?;
    take(&mut supply.monolith, board.monolith().is_some() as u32, "monoliths")?;
    for p in Player::BOTH {
        take(&mut supply.walls[p.index()], board.walls(p).count(), "walls")?;
    }
    board.set_supply(supply);
    Ok(())
}

/// The code drawn for what stands on `sq`, with the glyphs of the markers on it
/// (`glyphs` by marker kind).
pub fn cell_with(board: &Board, sq: Square, glyphs: &[char]) -> String {
    let mut code = cell(board, sq);
    let marks: String = glyphs
        .iter()
        .enumerate()
        .filter(|(i, _)| board.marks().at(MarkerKind(*i as u8)).contains(sq))
        .map(|(_, g)| *g)
        .collect();
    if !marks.is_empty() {
        if code == "." {
            code.clear();
        }
        code.push_str(&marks);
    }
    code
}

/// The code drawn for what stands on `sq`.
pub fn cell(board: &Board, sq: Square) -> String {
    if board.monolith_block().contains(sq) {
        return "##".into();
    }
    match board.terrain_at(sq) {
        Some(Terrain::Water) => return "~~".into(),
        Some(Terrain::Fire) => return "^^".into(),
        None => {}
    }
    let Some(c) = board.checker(sq) else {
        return if sq.colour() == Colour::Dark { ".".into() } else { String::new() };
    };
    let letter = if c.owner == Player::Dark { "d" } else { "l" };
    let mut code = match c.kind {
        Kind::Pawn => letter.to_string(),
        Kind::King => letter.to_uppercase(),
        Kind::Emperor => letter.to_uppercase().repeat(2),
    };
    for (has, t) in [(c.ring, 'r'), (c.snookle, 's'), (c.hippo, 'h')] {
        if has {
            code.push(t);
        }
    }
    code
}

fn wall_mark(board: &Board, edge: Edge, plain: &str) -> String {
    match board.wall_owner(edge) {
        None => plain.to_string(),
        Some(Player::Dark) => "D".repeat(plain.len()),
        Some(Player::Light) => "L".repeat(plain.len()),
    }
}

/// Draws the board in the format [`parse`] reads, with file letters underneath.
pub fn render(board: &Board) -> String {
    render_with(board, &[])
}

/// [`render`] with the glyphs of the deck's marker kinds.
pub fn render_with(board: &Board, glyphs: &[char]) -> String {
    let width = width_for(board, glyphs);
    let plain = "-".repeat(width);
    let mut out = String::new();
    let rule = |out: &mut String, rank: Option<i8>| {
        out.push('+');
        for file in 0..8 {
            let seg = match rank {
                Some(r) => {
                    let sq = Square::at(file, r).expect("in range");
                    let edge =
                        Edge::between(sq, sq.step(crate::kernel::Dir::N).expect("below rank 8")).expect("neighbours");
                    wall_mark(board, edge, &plain)
                }
                None => plain.clone(),
            };
            out.push_str(&seg);
            out.push('+');
        }
        out.push('\n');
    };
    for rank in (0..8).rev() {
        rule(&mut out, (rank < 7).then_some(rank));
        out.push('|');
        for file in 0..8 {
            let sq = Square::at(file, rank).expect("in range");
            let _ = write!(out, "{:^width$}", cell_with(board, sq, glyphs));
            let sep = match sq.step(crate::kernel::Dir::E) {
                Some(east) => wall_mark(board, Edge::between(sq, east).expect("neighbours"), "|"),
                None => "|".to_string(),
            };
            out.push_str(&sep);
        }
        let _ = writeln!(out, " {}", rank + 1);
    }
    rule(&mut out, None);
    // Each file's letter under its cell, where `{:^width$}` puts a one-letter code.
    let mut letters = " ".repeat(LEFT + (width - 1) / 2);
    for file in "abcdefgh".chars() {
        letters.push(file);
        letters.push_str(&" ".repeat(width));
    }
    out.push_str(letters.trim_end());
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let board = Board::start(Supply::STANDARD, Crowning::FromReserve);
        let text = render(&board);
        assert!(text.contains("| d  |    | d  |    | d  |    | d  |    | 1"), "{text}");
        assert_eq!(parse(&text, Supply::STANDARD, Crowning::FromReserve).unwrap(), board);
    }

    #[test]
    fn everything_round_trips_and_supply_is_taken() {
        let text = "
        +----+----+----+----+----+----+----+----+
        |    | l  |    |    |    |    |    |    | 8
        +----+----+----+----+----+----+----+----+
        |    |    | ## | ## |    |    | Lr |    | 7
        +----+----+----+----+DDDD+----+----+----+
        |    | ~~ | ## | ## | ^^ D LLs|    | .  | 6
        +----+----+----+----+----+----+----+----+
        |    |    |    |    |    |    |    |    |
        +----+----+----+----+----+----+----+----+
        |    |    |    | dh L    |    |    |    | 4
        +----+----+----+----+LLLL+----+----+----+
        |    |    |    |    |    |    |    |    | 3
        +----+----+----+----+----+----+----+----+
        |    |    |    |    |    |    |    |    | 2
        +----+----+----+----+----+----+----+----+
        | DDr|    |    |    |    |    |    |    | 1
        +----+----+----+----+----+----+----+----+
          a    b    c    d    e    f    g    h
        ";
        let board = parse(text, Supply::STANDARD, Crowning::FromReserve).unwrap();
        board.validate().unwrap();
        assert_eq!(parse(&render(&board), Supply::STANDARD, Crowning::FromReserve).unwrap(), board);
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(board.monolith(), Some(sq("c6")));
        assert_eq!(board.checker(sq("f6")).unwrap().kind, Kind::Emperor);
        assert!(board.checker(sq("d4")).unwrap().hippo);
        assert_eq!(board.wall_owner("e6/e7".parse().unwrap()), Some(Player::Dark));
        assert_eq!(board.wall_owner("e6/f6".parse().unwrap()), Some(Player::Dark));
        assert_eq!(board.wall_owner("d4/e4".parse().unwrap()), Some(Player::Light));
        assert_eq!(board.wall_owner("e3/e4".parse().unwrap()), Some(Player::Light));
        assert_eq!(board.supply().walls, [6, 6]);
        assert_eq!(board.supply().rings, 13);
        assert_eq!(board.supply().monolith, 0);
        assert_eq!(board.reserve(Player::Dark), 12 - 3 - 1);
    }

    #[test]
    fn markers_round_trip_and_blocking_markers_close_their_squares() {
        use crate::kernel::{Bitboard, MoveRules, legal_moves_under};
        let rides = MarkerRules { supply: 2, rides: true, blocks: false };
        let blocks = MarkerRules { supply: 3, rides: false, blocks: true };
        let kinds = [MarkerGlyph { glyph: '*', rules: rides }, MarkerGlyph { glyph: '=', rules: blocks }];
        let mut board = Board::empty(Supply::STANDARD, Crowning::FromReserve);
        let sq = |s: &str| s.parse::<Square>().unwrap();
        board.set_checker(sq("c3"), Checker::new(Player::Dark, Kind::Pawn)).unwrap();
        board.declare_markers(&kinds.map(|k| k.rules));
        board.place_marker(MarkerKind(0), sq("c3"), &mut Unrecorded).unwrap();
        board.place_marker(MarkerKind(1), sq("d4"), &mut Unrecorded).unwrap();
        let text = render_with(&board, &['*', '=']);
        assert!(text.contains("| d* |") && text.contains("| =  |"), "{text}");
        let read = parse_with(&text, Supply::STANDARD, Crowning::FromReserve, &kinds).unwrap();
        assert_eq!((read.marks(), render_with(&read, &['*', '='])), (board.marks(), text.clone()));
        assert_eq!(read.marks().supply, [1, 2, 0, 0]);
        // A glyph the deck does not declare is an error naming it.
        let e = parse_with(&text.replace("=  |", "?  |"), Supply::STANDARD, Crowning::FromReserve, &kinds);
        assert!(e.is_err_and(|e| e.message.contains('?')));
        // The blocking marker on d4 closes it: c3 may only step to b4.
        assert_eq!(board.marks().closed(), Bitboard::from_square(sq("d4")));
        let mut moves = Vec::new();
        let rules = MoveRules { closed: board.marks().closed(), ..MoveRules::STANDARD };
        legal_moves_under(&board, Player::Dark, Bitboard::ALL, &rules, &mut moves);
        assert_eq!(moves.iter().map(ToString::to_string).collect::<Vec<_>>(), ["c3-b4"]);
    }

    /// An emperor with a ring, a snookle and a marker needs five characters:
    /// every cell widens to five, walls included, and the diagram reads back.
    #[test]
    fn a_cell_that_needs_more_room_widens_the_diagram() {
        let rides = MarkerRules { supply: 2, rides: true, blocks: false };
        let kinds = [MarkerGlyph { glyph: '*', rules: rides }];
        let text = "
        +----+----+----+----+----+----+----+----+
        |    |    |    |    |    |    |    |    | 8
        +----+----+----+----+----+----+----+----+
        |    |    |    |    |    |    |    |    | 7
        +----+----+----+----+----+----+----+----+
        |    |    |    |    |    |    |    |    | 6
        +----+----+----+----+----+----+----+----+
        |    |    |    |    |    |    |    |    | 5
        +----+----+----+----+----+----+----+----+
        |    |    |    |DDrsL l  |    |    |    | 4
        +----+----+----+DDDD+----+----+----+----+
        |    |    |    |    |    |    |    |    | 3
        +----+----+----+----+----+----+----+----+
        |    |    |    |    |    |    |    |    | 2
        +----+----+----+----+----+----+----+----+
        |    |    |    |    |    |    |    |    | 1
        +----+----+----+----+----+----+----+----+
        ";
        let mut board = parse_with(text, Supply::STANDARD, Crowning::FromReserve, &kinds).unwrap();
        board.place_marker(MarkerKind(0), "d4".parse().unwrap(), &mut Unrecorded).unwrap();
        let wide = render_with(&board, &['*']);
        assert!(wide.starts_with("+-----+-----+"), "{wide}");
        assert!(wide.contains("|     |  .  |     |DDrs*L  l  |  .  |"), "{wide}");
        assert!(wide.contains("+-----+-----+-----+DDDDD+-----+"), "{wide}");
        assert!(wide.ends_with("  a     b     c     d     e     f     g     h\n"), "{wide}");
        let read = parse_with(&wide, Supply::STANDARD, Crowning::FromReserve, &kinds).unwrap();
        assert_eq!(render_with(&read, &['*']), wide);
        assert_eq!(
            (read.checker("d4".parse().unwrap()), read.marks()),
            (board.checker("d4".parse().unwrap()), board.marks())
        );
        // The usual four when nothing needs more.
        assert!(render(&Board::start(Supply::STANDARD, Crowning::FromReserve)).starts_with("+----+----+"));
    }

    #[test]
    fn errors_name_the_line_and_square() {
        let mut text = render(&Board::start(Supply::STANDARD, Crowning::FromReserve));
        text = text.replacen("| d  |", "| q  |", 1);
        let e = parse(&text, Supply::STANDARD, Crowning::FromReserve).unwrap_err();
        // The first pawn drawn is a3's, on the 12th line.
        assert_eq!(e.line, 12, "{e}");
        assert!(e.message.contains("a3") && e.message.contains("'q'"), "{e}");
        assert!(parse("8 |", Supply::STANDARD, Crowning::FromReserve).is_err());
    }

    /// Rank 5's line (the 8th) of the start position, changed by `edit`.
    fn start_with_rank_5(edit: impl Fn(&str) -> String) -> String {
        let text = render(&Board::start(Supply::STANDARD, Crowning::FromReserve));
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        assert!(lines[7].contains(" 5") || lines[7].contains("5 "), "{}", lines[7]);
        lines[7] = edit(&lines[7]);
        lines.join("\n")
    }

    #[test]
    fn a_misdrawn_monolith_is_reported_on_its_line() {
        let text = start_with_rank_5(|l| l.replacen(" .  ", " ## ", 2));
        let e = parse(&text, Supply::STANDARD, Crowning::FromReserve).unwrap_err();
        assert_eq!(e.line, 8, "{e}");
        assert!(e.message.contains("2×2 block"), "{e}");
    }

    /// R1.3: twelve pieces a player; a thirteenth drawn is an error.
    #[test]
    fn more_than_twelve_pieces_of_a_player_are_refused() {
        let text = start_with_rank_5(|l| l.replacen(" .  ", " d  ", 1));
        let e = parse(&text, Supply::STANDARD, Crowning::FromReserve).unwrap_err();
        assert!(e.message.contains("Dark has 13 pieces") && e.message.contains("R1.3"), "{e}");
        let twelve = start_with_rank_5(|l| l.to_string());
        assert!(parse(&twelve, Supply::STANDARD, Crowning::FromReserve).is_ok());
    }
}
