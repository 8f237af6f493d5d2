//! Games as draughts players exchange them: PDN (Portable Draughts Notation),
//! written for a deck without cards (its board's notation, plain.rs) and read
//! back with the deck's FEN reader ([`Variant::read_fen`]) and its legal moves.
//!
//! A written game has the seven archival tags, `SetUp` and `FEN` (the start,
//! so that a variant whose start is its own needs no `GameType`), the deck and
//! seed as tags of this program's own, then the moves numbered in pairs and
//! the result.

use crate::kernel::{Move, Player, Unrecorded};
use crate::plain::{FenError, Position, Variant};

/// A game read from PDN: where it started, its moves in order, the position
/// they lead to, and the result as written (`1-0`, `0-1`, `1/2-1/2`, `*`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    pub start: Position,
    pub moves: Vec<Move>,
    pub end: Position,
    pub result: String,
    /// Every tag, in the order written.
    pub tags: Vec<(String, String)>,
}

/// The player PDN's tags call White: the side the deck names so, else the
/// second to move (R11: Black moves first).
fn white(variant: &Variant) -> Player {
    let names = variant.notation.side_names();
    match names.iter().position(|n| n.eq_ignore_ascii_case("white")) {
        Some(0) => Player::Dark,
        _ => Player::Light,
    }
}

/// The PDN result of a game: `1-0` when White won, `0-1` when Black did,
/// `1/2-1/2` for a draw, `*` for a game not over. `over` is `None` while the
/// game goes on, `Some(winner)` once it ended.
pub fn result_text(variant: &Variant, over: Option<Option<Player>>) -> &'static str {
    match over {
        None => "*",
        Some(None) => "1/2-1/2",
        Some(Some(p)) if p == white(variant) => "1-0",
        Some(Some(_)) => "0-1",
    }
}

/// A tag's value as PDN writes it: quotes and backslashes escaped, and no
/// control characters (a seat or deck name may hold anything).
fn tag_value(value: &str) -> String {
    value
        .chars()
        .filter(|c| !c.is_control())
        .flat_map(|c| match c {
            '"' | '\\' => vec!['\\', c],
            _ => vec![c],
        })
        .collect()
}

/// What a game to write holds besides its moves.
pub struct Header<'a> {
    /// The seats, Dark's then Light's (`human`, `normal`, …).
    pub players: [&'a str; 2],
    pub deck: &'a str,
    pub seed: u64,
    /// `None` while the game goes on; `Some(winner)` once it ended.
    pub over: Option<Option<Player>>,
}

/// The game from `start` through `moves` as PDN text, in `variant`'s notation.
pub fn write(variant: &Variant, header: &Header, start: &Position, moves: &[Move]) -> String {
    let result = result_text(variant, header.over);
    let white = white(variant);
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| out.push_str(&format!("[{name} \"{}\"]\n", tag_value(value)));
    tag("Event", "alien-checkers game");
    tag("Site", "?");
    tag("Date", "????.??.??");
    tag("Round", "?");
    tag("White", header.players[white.index()]);
    tag("Black", header.players[(!white).index()]);
    tag("Result", result);
    tag("SetUp", "1");
    tag("FEN", &variant.write_fen(start));
    tag("Deck", header.deck);
    tag("Seed", &header.seed.to_string());
    out.push('\n');
    // Numbered in pairs from the side to move at the start; a game that
    // starts with the second side writes `1...` first.
    let mut line = String::new();
    let mut number = 1;
    let mut to_move = start.to_move;
    for (i, mv) in moves.iter().enumerate() {
        if to_move == Player::Dark {
            line.push_str(&format!("{number}. "));
        } else if i == 0 {
            line.push_str(&format!("{number}... "));
        }
        line.push_str(&variant.move_text(mv));
        line.push(' ');
        if to_move == Player::Light {
            number += 1;
        }
        to_move = !to_move;
        // Lines of at most about 80 characters, as PGN and PDN keep them.
        if line.len() > 72 {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
    }
    line.push_str(result);
    out.push_str(&line);
    out.push('\n');
    out
}

/// Reads one game of PDN in `variant`'s notation: its tags, its start (the
/// `FEN` tag read by [`Variant::read_fen`], else the variant's start) and its
/// moves, each played on the board and required to be legal there. A move is
/// written with every landing (`c3xe5xg7`) or, when only one capture fits,
/// its start and end. Comments (`{…}`, `;…`) and variations (`(…)`) are
/// skipped. The error names the move and its number.
pub fn read(variant: &Variant, text: &str) -> Result<PdnGame, FenError> {
    let err = |m: String| FenError(m);
    let mut tags = Vec::new();
    let mut movetext = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(inner) = trimmed.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            let (name, value) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
            let value = value.trim().trim_matches('"').replace("\\\"", "\"").replace("\\\\", "\\");
            tags.push((name.to_string(), value));
        } else if let Some((before, _)) = trimmed.split_once(';') {
            movetext.push_str(before);
            movetext.push(' ');
        } else {
            movetext.push_str(trimmed);
            movetext.push(' ');
        }
    }
    let start = match tags.iter().find(|(name, _)| name == "FEN") {
        Some((_, fen)) => variant.read_fen(fen)?,
        None => variant.start(),
    };
    // Comments and variations out.
    let mut plain = String::new();
    let (mut braces, mut parens) = (0usize, 0usize);
    for c in movetext.chars() {
        match c {
            '{' => braces += 1,
            '}' => braces = braces.saturating_sub(1),
            '(' if braces == 0 => parens += 1,
            ')' if braces == 0 => parens = parens.saturating_sub(1),
            _ if braces == 0 && parens == 0 => plain.push(c),
            _ => {}
        }
    }
    let mut position = start;
    let mut moves = Vec::new();
    let mut result = "*".to_string();
    for token in plain.split_whitespace() {
        if ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1"].contains(&token) {
            result = token.to_string();
            break;
        }
        // A move number, maybe run into its move: `12.`, `12...`, `12.c3-d4`
        // (a numbered square, `22-18`, has no dot).
        let digits = token.trim_start_matches(|c: char| c.is_ascii_digit());
        let token =
            if digits.starts_with('.') && digits.len() < token.len() { digits.trim_start_matches('.') } else { token };
        if token.is_empty() {
            continue;
        }
        let number = moves.len() / 2 + 1;
        let mv = read_move(variant, &position, token)
            .map_err(|why| err(format!("move {number} '{}': {why}", crate::text::excerpt(token, 40))))?;
        position
            .board
            .play(&mv, &mut Unrecorded)
            .map_err(|_| err(format!("move {number} '{token}' cannot be played")))?;
        position.to_move = !position.to_move;
        moves.push(mv);
    }
    // A game written without a result ends with its last move.
    if let Some((_, tagged)) = tags.iter().find(|(name, _)| name == "Result")
        && result == "*"
    {
        result = tagged.clone();
    }
    Ok(PdnGame { start, moves, end: position, result, tags })
}

/// The legal move of `position` that `token` names: with every landing, or by
/// its start and end when only one move fits.
fn read_move(variant: &Variant, position: &Position, token: &str) -> Result<Move, String> {
    let legal = position.legal_moves();
    if let Some(mv) = legal.iter().find(|m| variant.move_text(m).eq_ignore_ascii_case(token)) {
        return Ok(*mv);
    }
    let squares: Vec<&str> = token.split(['-', 'x', 'X', ':']).collect();
    let (Some(first), Some(last)) = (squares.first(), squares.last()) else { return Err("not a move".into()) };
    let (Some(from), Some(to)) = (variant.square(first), variant.square(last)) else {
        return Err("not a move in this board's notation".into());
    };
    let mut fitting = legal.iter().filter(|m| m.from() == from && m.to() == to);
    match (fitting.next(), fitting.next()) {
        (Some(mv), None) => Ok(*mv),
        (Some(_), Some(_)) => Err("several captures fit; write every landing".into()),
        (None, _) => Err("not a legal move in that position".into()),
    }
}
