//! Markers of a modder's own: kinds a deck's card manifests declare
//! (content/markers.rs), placed, moved and removed by scripts through the
//! operations here. The kernel knows each kind only by its index and two
//! properties: whether it rides on a checker (and moves with it) and whether
//! its squares are closed to moves (read by the move generator through
//! `GameState::move_rules`).

use serde::{Deserialize, Serialize};

use super::bitboard::Bitboard;
use super::square::Square;

/// How many marker kinds one deck may declare.
pub const MAX_MARKER_KINDS: usize = 4;

/// A marker kind's index in its deck's list (0 to `MAX_MARKER_KINDS - 1`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub struct MarkerKind(pub u8);

impl MarkerKind {
    pub const fn bit(self) -> u8 {
        1 << self.0
    }

    pub fn all() -> impl Iterator<Item = MarkerKind> {
        (0..MAX_MARKER_KINDS as u8).map(MarkerKind)
    }
}

/// Where every modder's marker is, and what the kernel must know of each kind.
/// All empty (and left out of saves) for a deck that declares none.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Marks {
    /// The squares holding a marker of each kind, by kind index.
    pub on: [Bitboard; MAX_MARKER_KINDS],
    /// Markers of each kind not on the board.
    pub supply: [u8; MAX_MARKER_KINDS],
    /// Kinds (bit `i` for kind `i`) the deck declares.
    pub declared: u8,
    /// Kinds whose markers ride on a checker.
    pub riding: u8,
    /// Kinds whose squares no checker may move onto.
    pub blocking: u8,
}

impl Marks {
    pub fn is_empty(&self) -> bool {
        self.declared == 0 && self.on.iter().all(|b| b.is_empty())
    }

    pub fn at(&self, kind: MarkerKind) -> Bitboard {
        self.on.get(usize::from(kind.0)).copied().unwrap_or(Bitboard::EMPTY)
    }

    /// Squares closed to moves by blocking markers.
    #[inline]
    pub fn closed(&self) -> Bitboard {
        if self.blocking == 0 {
            return Bitboard::EMPTY;
        }
        MarkerKind::all().filter(|k| self.blocking & k.bit() != 0).fold(Bitboard::EMPTY, |b, k| b | self.at(k))
    }

    /// The riding kinds on `sq`, as bits.
    #[inline]
    pub fn riders(&self, sq: Square) -> u8 {
        if self.riding == 0 {
            return 0;
        }
        self.riders_on(sq)
    }

    // Kept out of line so that `Board::checker`, on every move's path, stays
    // small enough to inline when no kind rides (no shipped deck has one).
    #[cold]
    #[inline(never)]
    fn riders_on(&self, sq: Square) -> u8 {
        MarkerKind::all().filter(|k| self.riding & k.bit() != 0 && self.at(*k).contains(sq)).fold(0, |b, k| b | k.bit())
    }

    /// Puts the riding markers `bits` on `sq` and takes the others off it.
    #[inline]
    pub fn set_riders(&mut self, sq: Square, bits: u8) {
        if self.riding != 0 {
            self.put_riders(sq, bits);
        }
    }

    #[cold]
    #[inline(never)]
    fn put_riders(&mut self, sq: Square, bits: u8) {
        for k in MarkerKind::all().filter(|k| self.riding & k.bit() != 0) {
            self.on[usize::from(k.0)].set(sq, bits & k.bit() != 0);
        }
    }
}

/// What the kernel keeps of one declared marker kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MarkerRules {
    /// How many the supply holds.
    pub supply: u8,
    /// Whether it rides on a checker.
    pub rides: bool,
    /// Whether its squares are closed to moves.
    pub blocks: bool,
}
