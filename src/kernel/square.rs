//! Squares, files, ranks, colours and the eight compass directions.
//!
//! Squares are numbered `rank * 8 + file`, so `a1` = 0, `h1` = 7, `a2` = 8, `h8` = 63.
//! Every one of the 64 squares is playable (R1.1): checkers can stand on light squares.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One of the 64 squares, `a1`..`h8`. Invariant: the index is below 64.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    pub const A1: Square = Square(0);
    pub const H1: Square = Square(7);
    pub const A8: Square = Square(56);
    pub const H8: Square = Square(63);

    /// The square with this index, if it is below 64.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 { Some(Square(index)) } else { None }
    }

    /// The square at `file` (0 = a) and `rank` (0 = 1), if both are below 8.
    pub const fn at(file: i8, rank: i8) -> Option<Square> {
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 { Some(Square((rank * 8 + file) as u8)) } else { None }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn file(self) -> i8 {
        (self.0 % 8) as i8
    }

    pub const fn rank(self) -> i8 {
        (self.0 / 8) as i8
    }

    /// R1.1: `a1` is dark; dark squares are the main colour.
    pub const fn colour(self) -> Colour {
        if (self.file() + self.rank()) % 2 == 0 { Colour::Dark } else { Colour::Light }
    }

    /// The neighbouring square in `dir`, if it is on the board.
    pub const fn step(self, dir: Dir) -> Option<Square> {
        let (df, dr) = dir.delta();
        Square::at(self.file() + df, self.rank() + dr)
    }

    /// All squares in order `a1`, `b1`, … `h8` (R6.2's crowning order).
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + Clone {
        (0..64).map(Square)
    }
}

/// Every square's name, by index (written out: formatting a square is on the
/// path of every move and square name the script layer hands over).
const NAMES: [&str; 64] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "a3", "b3", "c3",
    "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4", "a5", "b5", "c5", "d5", "e5", "f5",
    "g5", "h5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6", "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8",
    "b8", "c8", "d8", "e8", "f8", "g8", "h8",
];

impl Square {
    /// The square's name, `a1`..`h8`.
    pub const fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A square name that is not `a1`..`h8`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadSquare(pub String);

impl fmt::Display for BadSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a square (expected a1 to h8)", self.0)
    }
}

impl std::error::Error for BadSquare {}

/// Text that names no player, direction, edge, wall pair or move: what the
/// kernel's parsers (`FromStr`) refuse, with the reason as its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

impl From<BadSquare> for ParseError {
    fn from(e: BadSquare) -> ParseError {
        ParseError(e.to_string())
    }
}

impl From<String> for ParseError {
    fn from(message: String) -> ParseError {
        ParseError(message)
    }
}

/// For callers whose own errors are messages (scenarios, the REPL).
impl From<ParseError> for String {
    fn from(e: ParseError) -> String {
        e.0
    }
}

impl FromStr for Square {
    type Err = BadSquare;
    fn from_str(s: &str) -> Result<Square, BadSquare> {
        let bytes = s.trim().as_bytes();
        let bad = || BadSquare(s.to_string());
        if bytes.len() != 2 {
            return Err(bad());
        }
        let file = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'1');
        Square::at(file as i8, rank as i8).filter(|_| file < 8 && rank < 8).ok_or_else(bad)
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Square colour (R1.1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    Dark,
    Light,
}

/// The eight compass directions on the board (north = towards rank 8, east = towards file h).
/// Written `n`, `ne`, … `nw` (any case is read).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Dir {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Dir {
    pub const ALL: [Dir; 8] = [Dir::N, Dir::NE, Dir::E, Dir::SE, Dir::S, Dir::SW, Dir::W, Dir::NW];
    pub const DIAGONALS: [Dir; 4] = [Dir::NE, Dir::SE, Dir::SW, Dir::NW];
    pub const ORTHOGONALS: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    /// (file delta, rank delta).
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::N => (0, 1),
            Dir::NE => (1, 1),
            Dir::E => (1, 0),
            Dir::SE => (1, -1),
            Dir::S => (0, -1),
            Dir::SW => (-1, -1),
            Dir::W => (-1, 0),
            Dir::NW => (-1, 1),
        }
    }

    pub const fn is_diagonal(self) -> bool {
        matches!(self, Dir::NE | Dir::SE | Dir::SW | Dir::NW)
    }

    pub const fn opposite(self) -> Dir {
        match self {
            Dir::N => Dir::S,
            Dir::NE => Dir::SW,
            Dir::E => Dir::W,
            Dir::SE => Dir::NW,
            Dir::S => Dir::N,
            Dir::SW => Dir::NE,
            Dir::W => Dir::E,
            Dir::NW => Dir::SE,
        }
    }

    /// The direction 90° clockwise (seen with north up).
    pub const fn clockwise(self) -> Dir {
        Dir::ALL[(self as usize + 2) % 8]
    }

    pub const fn name(self) -> &'static str {
        match self {
            Dir::N => "n",
            Dir::NE => "ne",
            Dir::E => "e",
            Dir::SE => "se",
            Dir::S => "s",
            Dir::SW => "sw",
            Dir::W => "w",
            Dir::NW => "nw",
        }
    }
}

impl Dir {
    /// The direction's name in words: `north`, `south-east`, ….
    pub const fn long_name(self) -> &'static str {
        match self {
            Dir::N => "north",
            Dir::NE => "north-east",
            Dir::E => "east",
            Dir::SE => "south-east",
            Dir::S => "south",
            Dir::SW => "south-west",
            Dir::W => "west",
            Dir::NW => "north-west",
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Dir {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Dir {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Dir, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

impl FromStr for Dir {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Dir, ParseError> {
        let lower = s.trim().to_ascii_lowercase();
        let found = Dir::ALL.into_iter().find(|d| d.name() == lower).or(match lower.as_str() {
            "north" | "up" => Some(Dir::N),
            "east" | "right" => Some(Dir::E),
            "south" | "down" => Some(Dir::S),
            "west" | "left" => Some(Dir::W),
            _ => None,
        });
        found.ok_or_else(|| ParseError(format!("'{s}' is not a direction (n, ne, e, se, s, sw, w, nw)")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_a1_is_dark() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(sq.name(), format!("{}{}", (b'a' + sq.file() as u8) as char, sq.rank() + 1));
        }
        assert_eq!(Square::A1.colour(), Colour::Dark);
        assert_eq!("h8".parse::<Square>().unwrap().colour(), Colour::Dark);
        assert_eq!("a2".parse::<Square>().unwrap().colour(), Colour::Light);
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a".parse::<Square>().is_err());
    }

    #[test]
    fn steps_stay_on_the_board() {
        assert_eq!(Square::A1.step(Dir::SW), None);
        assert_eq!(Square::A1.step(Dir::NE), "b2".parse().ok());
        assert_eq!(Square::H8.step(Dir::E), None);
        assert_eq!(Dir::N.clockwise(), Dir::E);
        assert_eq!(Dir::NW.clockwise(), Dir::NE);
    }
}
