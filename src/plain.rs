//! Positions without cards, as draughts players write them: square names and
//! numbers, PDN FEN, and perft, for plain checkers (R11) and for any deck's
//! board (its moves, its start and its notation).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::kernel::{
    Bitboard, Board, Checker, Crowning, Kind, Move, Movement, Player, Square, StartLayout, Supply, Unrecorded,
    count_moves, legal_moves,
};

/// How far `at` (a file or a rank) lies from the corner's `corner` (0 or 7).
fn from_corner(corner: i8, at: i8) -> usize {
    (if corner == 0 { at } else { 7 - at }) as usize
}

/// How a deck's positions are written: the sides' names (the first mover's
/// first; a FEN writes their initials) and the squares' names.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Notation {
    /// The names of the side that moves first (Dark, at rank 1) and of the
    /// other, as the variant's players call them (the table says so at the
    /// start); by default R11's PDN names, Black and White.
    #[serde(default)]
    pub sides: Option<[String; 2]>,
    /// `algebraic` (`a1` to `h8`), or numbered over the playing squares
    /// (default: R11's numbering, from `h1`).
    #[serde(default)]
    pub squares: SquareNames,
    /// The sign between a capture's squares: `x` (default) or `:`.
    #[serde(default, skip_serializing_if = "CaptureSign::is_x")]
    pub capture: CaptureSign,
    /// What the variant's players call the checkers (default: the table's
    /// pawn and king).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pieces: Option<PieceNames>,
}

impl Notation {
    /// The sides' names: the deck's, or R11's.
    pub fn side_names(&self) -> [&str; 2] {
        match &self.sides {
            Some([first, second]) => [first, second],
            None => ["Black", "White"],
        }
    }

    /// What makes the notation unusable, if anything: a FEN tells the sides
    /// apart by their names' initials, and every name is shown.
    pub fn check(&self) -> Result<(), String> {
        if let Some([first, second]) = &self.sides {
            let initial = |s: &str| s.chars().next().map(|c| c.to_ascii_uppercase());
            if first.trim().is_empty() || second.trim().is_empty() {
                return Err("sides are two names, the first mover's first, like [White, Black]".into());
            }
            if initial(first) == initial(second) || !first.starts_with(|c: char| c.is_ascii_alphabetic()) {
                return Err(format!(
                    "the sides' names '{first}' and '{second}' must start with two different letters (a FEN writes their initials)"
                ));
            }
        }
        if let Some(p) = &self.pieces
            && [&p.pawn, &p.pawns, &p.king, &p.kings].iter().any(|n| n.trim().is_empty())
        {
            return Err("pieces names pawn, pawns, king and kings, none empty".into());
        }
        Ok(())
    }
}

/// The sign a capture is written with: `c3xe5` or `c3:e5`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub enum CaptureSign {
    #[default]
    #[serde(rename = "x")]
    X,
    #[serde(rename = ":")]
    Colon,
}

impl CaptureSign {
    pub fn sign(self) -> char {
        match self {
            CaptureSign::X => 'x',
            CaptureSign::Colon => ':',
        }
    }

    fn is_x(&self) -> bool {
        *self == CaptureSign::X
    }
}

/// A variant's names for the checkers, one and several (`man`, `men`).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceNames {
    #[serde(default = "PieceNames::pawn")]
    pub pawn: String,
    #[serde(default = "PieceNames::pawns")]
    pub pawns: String,
    #[serde(default = "PieceNames::king")]
    pub king: String,
    #[serde(default = "PieceNames::kings")]
    pub kings: String,
}

impl PieceNames {
    fn pawn() -> String {
        "pawn".into()
    }
    fn pawns() -> String {
        "pawns".into()
    }
    fn king() -> String {
        "king".into()
    }
    fn kings() -> String {
        "kings".into()
    }
}

/// How squares are named in a FEN and a move list: written `algebraic` or
/// `{numbered_from: a8}`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(try_from = "WrittenNames", into = "WrittenNames")]
pub enum SquareNames {
    /// `a1` to `h8` as the board shows them.
    Algebraic,
    /// 1, 2, 3, … over the playing squares, starting at the corner `from`:
    /// along its rank toward the other side, then the next rank inward.
    NumberedFrom(Square),
}

#[derive(Serialize, Deserialize)]
#[serde(untagged, deny_unknown_fields)]
enum WrittenNames {
    Word(String),
    /// The corner as written: read as a square in `try_from`, so that a
    /// wrong one is refused by name (as a `Square` here, any mistake was
    /// "data did not match any variant of untagged enum").
    Numbered {
        numbered_from: String,
    },
}

impl TryFrom<WrittenNames> for SquareNames {
    type Error = String;
    fn try_from(w: WrittenNames) -> Result<SquareNames, String> {
        match w {
            WrittenNames::Word(word) if word == "algebraic" => Ok(SquareNames::Algebraic),
            WrittenNames::Word(word) => {
                Err(format!("squares are 'algebraic' or {{numbered_from: <corner>}}, not '{word}'"))
            }
            WrittenNames::Numbered { numbered_from } => match numbered_from.parse::<Square>() {
                Ok(corner) if [0, 7].contains(&corner.file()) && [0, 7].contains(&corner.rank()) => {
                    Ok(SquareNames::NumberedFrom(corner))
                }
                _ => Err(format!("numbering starts at a corner (a1, h1, a8, h8), not '{numbered_from}'")),
            },
        }
    }
}

impl From<SquareNames> for WrittenNames {
    fn from(names: SquareNames) -> WrittenNames {
        match names {
            SquareNames::Algebraic => WrittenNames::Word("algebraic".into()),
            SquareNames::NumberedFrom(corner) => WrittenNames::Numbered { numbered_from: corner.to_string() },
        }
    }
}

impl Default for SquareNames {
    /// R11: 1 = `g1`, 4 = `a1`, 5 = `h2`, 32 = `b8`.
    fn default() -> SquareNames {
        SquareNames::NumberedFrom(Square::H1)
    }
}

/// A deck's board without its cards: how checkers move and start, how
/// positions are written, and how crowning works.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Variant {
    pub movement: Movement,
    pub start: StartLayout,
    pub notation: Notation,
    pub crowning: Crowning,
}

impl Variant {
    /// R11: plain American checkers.
    pub fn american() -> Variant {
        Variant { crowning: Crowning::Free, ..Variant::default() }
    }

    /// The number of `sq` (from 1) where squares are numbered and it is a
    /// playing square: ranks counted from the corner, then the playing squares
    /// along each rank from the corner's side.
    fn number(&self, sq: Square) -> Option<usize> {
        let SquareNames::NumberedFrom(corner) = self.notation.squares else { return None };
        let playing = self.start.squares.squares();
        if !playing.contains(sq) {
            return None;
        }
        let (file, rank) = (from_corner(corner.file(), sq.file()), from_corner(corner.rank(), sq.rank()));
        let per_rank = playing.count() as usize / 8;
        Some(rank * per_rank + file * per_rank / 8 + 1)
    }

    /// The square numbered `n`, if there is one.
    fn numbered(&self, n: usize) -> Option<Square> {
        let SquareNames::NumberedFrom(corner) = self.notation.squares else { return None };
        let playing = self.start.squares.squares();
        let per_rank = playing.count() as usize / 8;
        let index = n.checked_sub(1).filter(|&i| i < 8 * per_rank)?;
        let (rank, first) = (index / per_rank, index % per_rank * 8 / per_rank);
        // The corner's distance is its own inverse: from the corner and back.
        let at = |corner: i8, offset: usize| from_corner(corner, offset as i8) as i8;
        (first..first + 8 / per_rank)
            .filter_map(|file| Square::at(at(corner.file(), file), at(corner.rank(), rank)))
            .find(|&sq| playing.contains(sq))
    }

    /// The square a FEN or a move list names.
    pub fn square(&self, name: &str) -> Option<Square> {
        match self.notation.squares {
            SquareNames::Algebraic => name.parse().ok(),
            SquareNames::NumberedFrom(_) => self.numbered(name.parse().ok()?),
        }
    }

    /// A square's name in this notation: its number, or `a1` to `h8`.
    pub fn name(&self, sq: Square) -> String {
        self.number(sq).map_or_else(|| sq.to_string(), |n| n.to_string())
    }

    /// A move in this notation: `9-14`, `27x18x11`, `c3-d4`, `c3:e5`.
    pub fn move_text(&self, mv: &Move) -> String {
        let sep = if mv.is_jump() { self.notation.capture.sign() } else { '-' };
        let mut text = self.name(mv.from());
        for sq in mv.landings() {
            text.push(sep);
            text.push_str(&self.name(sq));
        }
        text
    }

    /// A move written in this notation (`22-18`, `c3:e5`), rewritten as the
    /// kernel reads moves (`d3-c4`, `c3xe5`); `None` when a part of it is not
    /// a square of this notation.
    pub fn kernel_move_text(&self, text: &str) -> Option<String> {
        let text = text.trim();
        let jump = text.contains(['x', 'X', ':']);
        let sep = if jump { "x" } else { "-" };
        let squares = text
            .split(['-', 'x', 'X', ':'])
            .map(|part| self.square(part.trim()).map(|sq| sq.to_string()))
            .collect::<Option<Vec<_>>>()?;
        (squares.len() >= 2).then(|| squares.join(sep))
    }

    /// The FEN letter of a side: its name's initial.
    fn letter(&self, player: Player) -> char {
        self.notation.side_names()[player.index()].chars().next().unwrap_or('?').to_ascii_uppercase()
    }

    fn side(&self, letter: &str) -> Option<Player> {
        let mut chars = letter.chars();
        let c = chars.next()?.to_ascii_uppercase();
        (chars.next().is_none()).then_some(())?;
        Player::BOTH.into_iter().find(|&p| self.letter(p) == c)
    }

    /// The start position, the first side to move.
    pub fn start(&self) -> Position {
        let board = Board::start_as(Supply::NONE, self.crowning, &self.start, self.movement);
        Position { board, to_move: Player::Dark }
    }

    /// Reads a PDN FEN written in this notation: `B:W21,22,K30:B1,2,K5`. The
    /// first field is the side to move; each later field a side's initial and
    /// its squares, `K` marking kings and `a-b` a range of numbered squares.
    pub fn read_fen(&self, text: &str) -> Result<Position, FenError> {
        let err = |m: String| FenError(m);
        let text = text.trim().trim_start_matches("[FEN").trim_end_matches(']').trim().trim_matches('"');
        let text = text.trim_end_matches('.');
        let letters = format!("{} or {}", self.letter(Player::Dark), self.letter(Player::Light));
        let mut fields = text.split(':');
        let first = fields.next().map(str::trim).unwrap_or("");
        let to_move = self.side(first).ok_or_else(|| err(format!("side to move is '{first}', expected {letters}")))?;
        let mut board = Board::start_as(
            Supply::NONE,
            self.crowning,
            &StartLayout { rows: Vec::new(), ..self.start.clone() },
            self.movement,
        );
        let mut seen = [false; 2];
        for field in fields {
            let field = field.trim();
            let (colour, list) = field.split_at(field.chars().next().map_or(0, char::len_utf8));
            let player = self.side(colour).ok_or_else(|| err(format!("field '{field}' must start with {letters}")))?;
            if std::mem::replace(&mut seen[player.index()], true) {
                return Err(err(format!("the pieces of {} are listed twice", colour.to_uppercase())));
            }
            for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let (kind, names) = match item.strip_prefix(['K', 'k']) {
                    Some(rest) => (Kind::King, rest),
                    None => (Kind::Pawn, item),
                };
                let parse = |s: &str| -> Result<Square, FenError> {
                    self.square(s.trim()).ok_or_else(|| err(format!("'{s}' in '{item}' is not a square of this board")))
                };
                let squares = match names.split_once('-') {
                    Some((a, b)) => {
                        let (lo, hi) = (parse(a)?, parse(b)?);
                        let (Some(lo), Some(hi)) = (self.number(lo), self.number(hi)) else {
                            return Err(err(format!("range '{item}' needs numbered squares")));
                        };
                        if lo > hi {
                            return Err(err(format!("range '{item}' runs backwards")));
                        }
                        (lo..=hi).map(|n| parse(&n.to_string())).collect::<Result<Vec<_>, _>>()?
                    }
                    None => vec![parse(names)?],
                };
                for sq in squares {
                    board
                        .set_checker(sq, Checker::new(player, kind))
                        .map_err(|_| err(format!("square {} is listed twice", self.name(sq))))?;
                }
            }
        }
        if !seen.iter().all(|&s| s) {
            let (d, l) = (self.letter(Player::Dark), self.letter(Player::Light));
            return Err(err(format!("expected a {l} field and a {d} field, like {d}:{l}…:{d}…")));
        }
        Ok(Position { board, to_move })
    }

    /// Writes a position as a PDN FEN in this notation, squares in order.
    pub fn write_fen(&self, position: &Position) -> String {
        let mut out = String::new();
        out.push(self.letter(position.to_move));
        for player in [Player::Light, Player::Dark] {
            let mut squares: Vec<Square> = position.board.checkers(player).collect();
            // Numbered squares in number order; algebraic ones stay a1, b1, … h8.
            squares.sort_by_key(|&sq| self.number(sq));
            let items: Vec<String> = squares
                .into_iter()
                .map(|sq| {
                    let king = if position.board.kings().contains(sq) { "K" } else { "" };
                    format!("{king}{}", self.name(sq))
                })
                .collect();
            out.push(':');
            out.push(self.letter(player));
            out.push_str(&items.join(","));
        }
        out
    }
}

/// A position without cards: the board (free crowning, no tokens) and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    pub board: Board,
    pub to_move: Player,
}

impl Position {
    /// The standard start, Dark (Black) to move.
    pub fn start() -> Position {
        Variant::american().start()
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

    /// A PDN FEN of plain checkers (R11).
    fn from_str(text: &str) -> Result<Position, FenError> {
        Variant::american().read_fen(text)
    }
}

impl fmt::Display for Position {
    /// The PDN FEN of plain checkers (R11).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Variant::american().write_fen(self))
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

    /// A move typed in a deck's notation reads as the kernel writes it; a
    /// capture's sign is written and read back; what is not a square of the
    /// notation is left to the kernel's reader.
    #[test]
    fn moves_in_a_decks_notation_read_back_as_the_kernel_writes_them() {
        let italian: Notation = serde_yaml::from_str("{sides: [White, Black], squares: {numbered_from: a8}}").unwrap();
        let italian = Variant {
            notation: italian,
            start: StartLayout { squares: crate::kernel::PlayingSquares::Light, ..StartLayout::default() },
            ..Variant::american()
        };
        assert_eq!(italian.kernel_move_text("22-18").as_deref(), Some("d3-c4"));
        assert_eq!(italian.kernel_move_text("22x13").as_deref(), Some("d3xb5"));
        assert_eq!(italian.kernel_move_text("22-99"), None);
        let russian: Notation = serde_yaml::from_str("{squares: algebraic, capture: ':'}").unwrap();
        let russian = Variant { notation: russian, ..Variant::american() };
        assert_eq!(russian.kernel_move_text("c3:e5:g3").as_deref(), Some("c3xe5xg3"));
        let jump: Move = "c3xe5".parse::<crate::kernel::MoveText>().map(|t| Move::from_text(&t).unwrap()).unwrap();
        assert_eq!(russian.move_text(&jump), "c3:e5");
        let e = serde_yaml::from_str::<Notation>("capture: '+'").unwrap_err().to_string();
        assert!(e.contains("unknown variant") && e.contains("`x`") && e.contains("`:`"), "{e}");
    }

    /// A FEN tells the sides by their initials: two names that share one are
    /// refused, as are empty piece names.
    #[test]
    fn side_names_with_one_initial_are_refused() {
        let same: Notation = serde_yaml::from_str("sides: [White, Wine]").unwrap();
        assert!(same.check().unwrap_err().contains("two different letters"));
        let empty: Notation = serde_yaml::from_str("pieces: {pawn: ''}").unwrap();
        assert!(empty.check().is_err());
        let fine: Notation = serde_yaml::from_str("{sides: [White, Black], pieces: {pawn: man, pawns: men}}").unwrap();
        assert_eq!(fine.check(), Ok(()));
        assert_eq!(fine.pieces.unwrap().kings, "kings");
    }

    #[test]
    fn a_numbering_corner_that_is_not_one_is_refused_by_name() {
        // Found by the scripts fuzz target's generated decks: a corner that was
        // not a square said only "data did not match any variant".
        for (corner, says) in [("z9", "not 'z9'"), ("d4", "not 'd4'")] {
            let text = format!("squares: {{numbered_from: {corner}}}");
            let e = serde_yaml::from_str::<Notation>(&text).unwrap_err().to_string();
            assert!(e.contains("numbering starts at a corner (a1, h1, a8, h8)") && e.contains(says), "{e}");
        }
        let n: Notation = serde_yaml::from_str("squares: {numbered_from: a8}").unwrap();
        assert_eq!(n.squares, SquareNames::NumberedFrom("a8".parse().unwrap()));
        let back: Notation = serde_json::from_str(&serde_json::to_string(&n).unwrap()).unwrap();
        assert_eq!(back, n);
    }

    #[test]
    fn numbering_follows_r11() {
        let pdn = Variant::american();
        let pdn_square = |n: u8| pdn.square(&n.to_string());
        let names: Vec<String> = [1, 2, 3, 4, 5, 29, 32].iter().map(|&n| pdn_square(n).unwrap().to_string()).collect();
        assert_eq!(names, ["g1", "e1", "c1", "a1", "h2", "h8", "b8"]);
        for n in 1..=32 {
            assert_eq!(pdn.name(pdn_square(n).unwrap()), n.to_string());
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
            ("B:W33:B1", "not a square of this board"),
            ("B:W1", "expected a W field"),
            ("B:Q1:B2", "must start with B or W"),
        ] {
            let e = bad.parse::<Position>().unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
