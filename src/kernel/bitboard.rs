//! A set of squares as one `u64`, bit `n` = square `n` (`a1` = bit 0).

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub};

use serde::{Deserialize, Serialize};

use super::square::{Dir, Square};

/// A set of squares.
///
/// ```
/// use alien_checkers::kernel::{Bitboard, Square};
/// let b = Bitboard::from_square("c3".parse().unwrap()) | Bitboard::RANK_1;
/// assert_eq!(b.count(), 9);
/// // Drawn with rank 8 at the top: c3 on the sixth line, rank 1 full.
/// let drawing: Vec<String> = b.to_string().lines().map(String::from).collect();
/// assert_eq!(drawing[5], "..#.....");
/// assert_eq!(drawing[7], "########");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const ALL: Bitboard = Bitboard(!0);
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    pub const RANK_1: Bitboard = Bitboard(0xff);
    pub const RANK_8: Bitboard = Bitboard(0xff << 56);
    /// The 32 dark (main-colour) squares; `a1` is dark (R1.1).
    pub const DARK: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);
    pub const LIGHT: Bitboard = Bitboard(!0xaa55_aa55_aa55_aa55);

    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    pub const fn file(file: i8) -> Bitboard {
        Bitboard(Bitboard::FILE_A.0 << file)
    }

    pub const fn rank(rank: i8) -> Bitboard {
        Bitboard(Bitboard::RANK_1.0 << (8 * rank))
    }

    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn any(self) -> bool {
        self.0 != 0
    }

    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    pub fn insert(&mut self, sq: Square) {
        self.0 |= 1 << sq.index();
    }

    pub fn remove(&mut self, sq: Square) {
        self.0 &= !(1 << sq.index());
    }

    pub fn set(&mut self, sq: Square, on: bool) {
        if on { self.insert(sq) } else { self.remove(sq) }
    }

    /// The lowest square in the set (in `a1`, `b1`, … order).
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 { None } else { Square::new(self.0.trailing_zeros() as u8) }
    }

    /// Every square moved one step in `dir`; squares that would leave the board drop out.
    #[inline]
    pub const fn shift(self, dir: Dir) -> Bitboard {
        let not_a = !Bitboard::FILE_A.0;
        let not_h = !Bitboard::FILE_H.0;
        Bitboard(match dir {
            Dir::N => self.0 << 8,
            Dir::S => self.0 >> 8,
            Dir::E => (self.0 & not_h) << 1,
            Dir::W => (self.0 & not_a) >> 1,
            Dir::NE => (self.0 & not_h) << 9,
            Dir::NW => (self.0 & not_a) << 7,
            Dir::SE => (self.0 & not_h) >> 7,
            Dir::SW => (self.0 & not_a) >> 9,
        })
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    /// Yields squares in ascending order and removes them from the set.
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in iter {
            b.insert(sq);
        }
        b
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
    };
}
bit_op!(BitAnd, bitand, &);
bit_op!(BitOr, bitor, |);
bit_op!(BitXor, bitxor, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference.
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl BitAndAssign for Bitboard {
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for Bitboard {
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

/// Rank 8 at the top, as a board is drawn: `#` in the set, `.` outside.
impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::at(file, rank).expect("file and rank are below 8");
                f.write_str(if self.contains(sq) { "#" } else { "." })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(*self).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_match_square_steps() {
        for sq in Square::all() {
            for dir in Dir::ALL {
                let shifted = Bitboard::from_square(sq).shift(dir);
                assert_eq!(shifted, sq.step(dir).map(Bitboard::from).unwrap_or_default(), "{sq} {dir}");
            }
        }
    }

    #[test]
    fn colour_masks_agree_with_squares() {
        for sq in Square::all() {
            assert_eq!(Bitboard::DARK.contains(sq), sq.colour() == super::super::square::Colour::Dark);
        }
    }
}
