//! The two players and the board's orientation relative to their seats (R1.3, R2.2).

use std::fmt;
use std::ops::Not;

use serde::{Deserialize, Serialize};

use super::bitboard::Bitboard;
use super::square::{Dir, ParseError};

/// R1.3: Dark moves first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    Dark,
    Light,
}

impl Player {
    pub const BOTH: [Player; 2] = [Player::Dark, Player::Light];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn name(self) -> &'static str {
        match self {
            Player::Dark => "dark",
            Player::Light => "light",
        }
    }
}

impl Not for Player {
    type Output = Player;
    fn not(self) -> Player {
        match self {
            Player::Dark => Player::Light,
            Player::Light => Player::Dark,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::Dark => "Dark",
            Player::Light => "Light",
        })
    }
}

impl std::str::FromStr for Player {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Player, ParseError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "dark" | "black" | "b" | "d" => Ok(Player::Dark),
            "light" | "white" | "w" | "l" => Ok(Player::Light),
            _ => Err(ParseError(format!("'{s}' is not a player (dark or light)"))),
        }
    }
}

/// Which way a rotation turns the board, seen from above (R8.21).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rotation {
    Clockwise,
    Counterclockwise,
}

/// R2.2: one of four rotations of the board relative to the seats, stored as Dark's
/// forward direction on the board (`N` at the start: Dark sits at rank 1). Light's
/// forward is always the opposite. Square names never change; only this does.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Orientation(Dir);

impl Default for Orientation {
    fn default() -> Orientation {
        Orientation(Dir::N)
    }
}

impl Orientation {
    pub const ALL: [Orientation; 4] =
        [Orientation(Dir::N), Orientation(Dir::E), Orientation(Dir::S), Orientation(Dir::W)];

    /// The orientation where Dark's forward is `dir`, if `dir` is orthogonal.
    pub fn with_dark_forward(dir: Dir) -> Option<Orientation> {
        (!dir.is_diagonal()).then_some(Orientation(dir))
    }

    /// The orthogonal direction `player` calls forward.
    pub const fn forward(self, player: Player) -> Dir {
        match player {
            Player::Dark => self.0,
            Player::Light => self.0.opposite(),
        }
    }

    /// The two diagonal directions a pawn of `player` moves in (R4.1).
    pub const fn pawn_dirs(self, player: Player) -> [Dir; 2] {
        match self.forward(player) {
            Dir::N => [Dir::NE, Dir::NW],
            Dir::E => [Dir::NE, Dir::SE],
            Dir::S => [Dir::SE, Dir::SW],
            _ => [Dir::NW, Dir::SW],
        }
    }

    /// Whether a pawn of `player` may move in diagonal `dir`.
    pub const fn is_forward(self, player: Player, dir: Dir) -> bool {
        let [a, b] = self.pawn_dirs(player);
        a as u8 == dir as u8 || b as u8 == dir as u8
    }

    /// The edge row a player's pawns are crowned on (R2.2).
    pub const fn king_row(self, player: Player) -> Bitboard {
        edge_row(self.forward(player))
    }

    /// The edge row nearest the player (R2.2).
    pub const fn back_row(self, player: Player) -> Bitboard {
        edge_row(self.forward(player).opposite())
    }

    /// The four rows nearest the player (R2.2).
    pub const fn half(self, player: Player) -> Bitboard {
        match self.forward(player) {
            Dir::N => Bitboard(0x0000_0000_ffff_ffff),
            Dir::S => Bitboard(0xffff_ffff_0000_0000),
            Dir::E => Bitboard(0x0f0f_0f0f_0f0f_0f0f),
            _ => Bitboard(0xf0f0_f0f0_f0f0_f0f0),
        }
    }

    /// The orientation after the board turns 90° (R8.21). When the board turns
    /// clockwise, the edge that was at a player's left comes in front of them, so
    /// forward turns counterclockwise in board coordinates.
    pub const fn rotated(self, rotation: Rotation) -> Orientation {
        Orientation(match rotation {
            Rotation::Clockwise => self.0.clockwise().opposite(),
            Rotation::Counterclockwise => self.0.clockwise(),
        })
    }

    /// Human name: the board edge Dark sits at.
    pub fn describe(self) -> String {
        let edge = match self.0 {
            Dir::N => "rank 1",
            Dir::E => "file a",
            Dir::S => "rank 8",
            _ => "file h",
        };
        format!("Dark sits at {edge}")
    }
}

const fn edge_row(dir: Dir) -> Bitboard {
    match dir {
        Dir::N => Bitboard::RANK_8,
        Dir::S => Bitboard::RANK_1,
        Dir::E => Bitboard::FILE_H,
        _ => Bitboard::FILE_A,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_rotations_return_home_and_rows_are_opposite() {
        for o in Orientation::ALL {
            let mut r = o;
            for _ in 0..4 {
                r = r.rotated(Rotation::Clockwise);
            }
            assert_eq!(r, o);
            assert_eq!(o.rotated(Rotation::Clockwise).rotated(Rotation::Counterclockwise), o);
            for p in Player::BOTH {
                assert_eq!(o.king_row(p), o.back_row(!p));
                assert_eq!(o.half(p).count(), 32);
                assert_eq!((o.half(p) & o.half(!p)).count(), 0);
                assert!((o.back_row(p) - o.half(p)).is_empty());
            }
        }
    }

    #[test]
    fn clockwise_turn_puts_darks_left_edge_in_front() {
        // R2.2: Dark starts at rank 1 with file a on its left.
        let o = Orientation::default().rotated(Rotation::Clockwise);
        assert_eq!(o.king_row(Player::Dark), Bitboard::FILE_A);
        assert_eq!(o.back_row(Player::Dark), Bitboard::FILE_H);
    }
}
