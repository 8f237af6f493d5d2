//! Plain American checkers (R11): PDN square numbers, FEN positions and perft.

use std::fmt;
use std::str::FromStr;

use crate::kernel::{
    Bitboard, Board, Checker, Colour, Crowning, Kind, Move, Player, Square, Supply, Unrecorded, count_moves,
    legal_moves,
};

/// R11: square `n` (1–32) in the standard numbering seen from Dark's side:
/// 1 = `g1`, 4 = `a1`, 5 = `h2`, 29 = `h8`, 32 = `b8`.
pub fn pdn_square(n: u8) -> Option<Square> {
    if !(1..=32).contains(&n) {
        return None;
    }
    let (rank, from_right) = ((n - 1) / 4, (n - 1) % 4);
    let file = if rank % 2 == 0 { 6 - 2 * from_right } else { 7 - 2 * from_right };
    Square::at(file as i8, rank as i8)
}

/// The PDN number of a dark square.
pub fn pdn_number(sq: Square) -> Option<u8> {
    (sq.colour() == Colour::Dark).then(|| {
        let (file, rank) = (sq.file() as u8, sq.rank() as u8);
        let from_right = if rank % 2 == 0 { (6 - file) / 2 } else { (7 - file) / 2 };
        rank * 4 + from_right + 1
    })
}

/// A move in PDN numbers: `9-14`, `27x18x11`.
pub fn pdn_move(mv: &Move) -> String {
    let num = |sq: Square| pdn_number(sq).map_or_else(|| sq.to_string(), |n| n.to_string());
    let sep = if mv.is_jump() { "x" } else { "-" };
    let mut text = num(mv.from());
    for sq in mv.landings() {
        text.push_str(sep);
        text.push_str(&num(sq));
    }
    text
}

/// A plain-checkers position: the board (free crowning, no tokens) and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    pub board: Board,
    pub to_move: Player,
}

impl Position {
    /// The standard start, Dark (Black) to move.
    pub fn start() -> Position {
        Position { board: Board::start(Supply::NONE, Crowning::Free), to_move: Player::Dark }
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        legal_moves(&self.board, self.to_move, Bitboard::ALL, &mut out);
        out
    }
}

/// A FEN that could not be read; the message says which part and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad FEN: {}", self.0)
    }
}

impl std::error::Error for FenError {}

impl FromStr for Position {
    type Err = FenError;

    /// PDN FEN: `B:W21,22,K30:B1,2,K5`. The first field is the side to move (B =
    /// Black = Dark, W = White = Light); each later field is a colour followed by
    /// comma-separated squares, `K` marking kings and `a-b` a range of squares.
    fn from_str(text: &str) -> Result<Position, FenError> {
        let err = |m: String| FenError(m);
        let text = text.trim().trim_start_matches("[FEN").trim_end_matches(']').trim().trim_matches('"');
        let text = text.trim_end_matches('.');
        let mut fields = text.split(':');
        let to_move = match fields.next().map(str::trim) {
            Some("B") | Some("b") => Player::Dark,
            Some("W") | Some("w") => Player::Light,
            other => {
                return Err(err(format!("side to move is '{}', expected B or W", other.unwrap_or(""))));
            }
        };
        let mut board = Board::empty(Supply::NONE, Crowning::Free);
        let mut seen = [false; 2];
        for field in fields {
            let field = field.trim();
            let (colour, list) = field.split_at(field.chars().next().map_or(0, char::len_utf8));
            let player = match colour {
                "B" | "b" => Player::Dark,
                "W" | "w" => Player::Light,
                _ => return Err(err(format!("field '{field}' must start with B or W"))),
            };
            if std::mem::replace(&mut seen[player.index()], true) {
                return Err(err(format!("the pieces of {} are listed twice", colour.to_uppercase())));
            }
            for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let (kind, numbers) = match item.strip_prefix(['K', 'k']) {
                    Some(rest) => (Kind::King, rest),
                    None => (Kind::Pawn, item),
                };
                let parse = |s: &str| -> Result<u8, FenError> {
                    s.trim()
                        .parse::<u8>()
                        .ok()
                        .filter(|n| (1..=32).contains(n))
                        .ok_or_else(|| err(format!("'{s}' in '{item}' is not a square number 1-32")))
                };
                let (lo, hi) = match numbers.split_once('-') {
                    Some((a, b)) => (parse(a)?, parse(b)?),
                    None => (parse(numbers)?, parse(numbers)?),
                };
                if lo > hi {
                    return Err(err(format!("range '{item}' runs backwards")));
                }
                for n in lo..=hi {
                    let sq = pdn_square(n).expect("1-32 checked");
                    board
                        .set_checker(sq, Checker::new(player, kind))
                        .map_err(|_| err(format!("square {n} is listed twice")))?;
                }
            }
        }
        if !seen.iter().all(|&s| s) {
            return Err(err("expected a W field and a B field, like B:W21,22:B1,2".to_string()));
        }
        Ok(Position { board, to_move })
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |p: Player| if p == Player::Dark { 'B' } else { 'W' };
        write!(f, "{}", side(self.to_move))?;
        for player in [Player::Light, Player::Dark] {
            let mut numbered: Vec<(u8, Square)> =
                self.board.checkers(player).filter_map(|sq| Some((pdn_number(sq)?, sq))).collect();
            numbered.sort();
            let items: Vec<String> = numbered
                .into_iter()
                .map(|(n, sq)| if self.board.kings().contains(sq) { format!("K{n}") } else { n.to_string() })
                .collect();
            write!(f, ":{}{}", side(player), items.join(","))?;
        }
        Ok(())
    }
}

/// Counts the leaf positions `depth` plies from `position` (bulk-counted at the last ply).
pub fn perft(position: &Position, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth.max(1)).map(|_| Vec::with_capacity(48)).collect();
    perft_from(&position.board, position.to_move, depth, &mut buffers)
}

fn perft_from(board: &Board, player: Player, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    let Some((moves, deeper)) = buffers.split_first_mut() else {
        return 1;
    };
    match depth {
        0 => 1,
        1 => count_moves(board, player, moves) as u64,
        _ => {
            legal_moves(board, player, Bitboard::ALL, moves);
            let mut leaves = 0;
            for mv in moves.iter() {
                let mut child = *board;
                if child.play(mv, &mut Unrecorded).is_ok() {
                    leaves += perft_from(&child, !player, depth - 1, deeper);
                }
            }
            leaves
        }
    }
}

/// Plays uniformly random legal moves from `position` until one side cannot move
/// (it loses, R11) or `max_plies` pass (a draw). Returns the winner.
pub fn random_playout(
    position: &Position,
    rng: &mut impl rand::Rng,
    max_plies: u32,
    buf: &mut Vec<Move>,
) -> Option<Player> {
    let (mut board, mut player) = (position.board, position.to_move);
    for _ in 0..max_plies {
        legal_moves(&board, player, Bitboard::ALL, buf);
        if buf.is_empty() {
            return Some(!player);
        }
        let pick = (rng.next_u32() as usize * buf.len()) >> 32;
        if board.play(&buf[pick], &mut Unrecorded).is_err() {
            return None;
        }
        player = !player;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_follows_r11() {
        let names: Vec<String> = [1, 2, 3, 4, 5, 29, 32].iter().map(|&n| pdn_square(n).unwrap().to_string()).collect();
        assert_eq!(names, ["g1", "e1", "c1", "a1", "h2", "h8", "b8"]);
        for n in 1..=32 {
            assert_eq!(pdn_number(pdn_square(n).unwrap()), Some(n));
        }
        assert_eq!(pdn_square(0), None);
        assert_eq!(pdn_square(33), None);
    }

    #[test]
    fn fen_round_trips_and_names_errors() {
        let start: Position = "B:W21-32:B1-12".parse().unwrap();
        assert_eq!(start, Position::start());
        assert_eq!(start.to_string(), "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
        let p: Position = "W:W18,26,27,K25:B1,2,3,5".parse().unwrap();
        assert_eq!(p.to_string().parse::<Position>().unwrap(), p);
        for (bad, says) in [
            ("X:W1:B2", "side to move"),
            ("B:W1:B1", "listed twice"),
            ("B:W33:B1", "not a square number"),
            ("B:W1", "expected a W field"),
            ("B:Q1:B2", "must start with B or W"),
        ] {
            let e = bad.parse::<Position>().unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
