//! How checkers move, as plain data a deck or a lasting effect writes
//! (cards/README.md, "Moves as data"): which ways pawns and kings step and
//! capture, how far, and the capture rules of a draughts family. The kernel
//! compiles it into bitboard move generation (`rulebook.rs`); American
//! checkers ([`Movement::AMERICAN`], R4) keeps its own generator, so games on it
//! pay nothing for the rest.

use std::fmt;

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};

use super::player::{Orientation, Player};
use super::square::Dir;

/// A set of directions seen from a player's seat: bit `i` is the direction
/// `i` eighths of a turn clockwise from forward (0 forward, 1 forward-right,
/// 2 right, … 7 forward-left). Seen from the seat, so rotating the board (R8.21)
/// turns them with it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Ways(u8);

/// The names a deck or a script writes for [`Ways`], one direction or a group.
const WAY_NAMES: [(&str, u8); 16] = [
    ("forward", 0b0000_0001),
    ("forward_right", 0b0000_0010),
    ("right", 0b0000_0100),
    ("backward_right", 0b0000_1000),
    ("backward", 0b0001_0000),
    ("backward_left", 0b0010_0000),
    ("left", 0b0100_0000),
    ("forward_left", 0b1000_0000),
    ("forward_diagonals", 0b1000_0010),
    ("backward_diagonals", 0b0010_1000),
    ("diagonals", 0b1010_1010),
    ("sideways", 0b0100_0100),
    ("forward_and_sideways", 0b0100_0101),
    ("orthogonals", 0b0101_0101),
    ("all", 0b1111_1111),
    ("none", 0),
];

impl Ways {
    pub const NONE: Ways = Ways(0);
    pub const FORWARD_DIAGONALS: Ways = Ways(0b1000_0010);
    pub const BACKWARD_DIAGONALS: Ways = Ways(0b0010_1000);
    pub const DIAGONALS: Ways = Ways(0b1010_1010);

    pub const fn union(self, other: Ways) -> Ways {
        Ways(self.0 | other.0)
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The board directions these are for `player` under `orientation`, as a
    /// bit set over [`Dir::ALL`] (which also runs clockwise from north).
    pub const fn on_board(self, orientation: Orientation, player: Player) -> u8 {
        self.0.rotate_left(orientation.forward(player) as u32)
    }

    /// Reads a name from [`WAY_NAMES`].
    pub fn named(name: &str) -> Option<Ways> {
        WAY_NAMES.iter().find(|(n, _)| *n == name).map(|&(_, bits)| Ways(bits))
    }

    /// The names a reader may write, for messages.
    pub fn names() -> impl Iterator<Item = &'static str> {
        WAY_NAMES.iter().map(|(n, _)| *n)
    }

    /// The shortest list of names that says these ways.
    fn describe(self) -> Vec<&'static str> {
        if let Some((name, _)) = WAY_NAMES.iter().find(|(_, bits)| *bits == self.0) {
            return vec![name];
        }
        WAY_NAMES[..8].iter().filter(|(_, bits)| self.0 & bits != 0).map(|(n, _)| *n).collect()
    }
}

impl fmt::Debug for Ways {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.describe().join("+"))
    }
}

impl Serialize for Ways {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let names = self.describe();
        if names.len() == 1 { s.serialize_str(names[0]) } else { names.serialize(s) }
    }
}

impl<'de> Deserialize<'de> for Ways {
    /// One name or a list of names; anything else is refused saying so (an
    /// untagged enum said only "data did not match any variant").
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Ways, D::Error> {
        fn named<E: de::Error>(name: &str) -> Result<Ways, E> {
            Ways::named(name).ok_or_else(|| {
                E::custom(format!("'{name}' is not a direction; use {}", Ways::names().collect::<Vec<_>>().join(", ")))
            })
        }
        struct Written;
        impl<'de> de::Visitor<'de> for Written {
            type Value = Ways;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a direction or a list of directions")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<Ways, E> {
                named(name)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Ways, A::Error> {
                let mut ways = Ways::NONE;
                while let Some(name) = seq.next_element::<Direction>()? {
                    ways = ways.union(name.0);
                }
                Ok(ways)
            }
        }
        /// One name in a list.
        struct Direction(Ways);
        impl<'de> Deserialize<'de> for Direction {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Direction, D::Error> {
                struct One;
                impl de::Visitor<'_> for One {
                    type Value = Direction;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str("a direction")
                    }
                    fn visit_str<E: de::Error>(self, name: &str) -> Result<Direction, E> {
                        named(name).map(Direction)
                    }
                }
                d.deserialize_str(One)
            }
        }
        d.deserialize_any(Written)
    }
}

/// Most squares a move can cover in a line on an 8×8 board: a reach this long
/// is unlimited ("flying").
pub const FLYING: u8 = 7;

/// How one kind of checker moves.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PieceMoves {
    /// Ways it steps onto an empty square.
    pub steps: Ways,
    /// How many squares a step may cover in a straight line, every square on
    /// the way empty: 1 to 7 (7 = any distance).
    #[serde(deserialize_with = "reach")]
    pub reach: u8,
    /// Ways it captures by jumping an opposing checker.
    pub captures: Ways,
    /// Flying: steps any distance, and captures an opposing checker any
    /// distance away along a line of empty squares, landing on any empty
    /// square beyond it.
    pub flying: bool,
}

/// A reach: 1 to [`FLYING`] squares, or `any`; anything else is refused
/// saying so, whatever its type.
fn reach<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    struct Written;
    impl Written {
        fn refused<E: de::Error>(written: impl fmt::Display) -> E {
            E::custom(format!("reach is 1 to {FLYING} squares, or any, not {written}"))
        }
    }
    impl de::Visitor<'_> for Written {
        type Value = u8;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "1 to {FLYING} squares, or any")
        }
        fn visit_u64<E: de::Error>(self, n: u64) -> Result<u8, E> {
            if (1..=u64::from(FLYING)).contains(&n) { Ok(n as u8) } else { Err(Written::refused(n)) }
        }
        fn visit_i64<E: de::Error>(self, n: i64) -> Result<u8, E> {
            u64::try_from(n).map_or_else(|_| Err(Written::refused(n)), |n| self.visit_u64(n))
        }
        fn visit_f64<E: de::Error>(self, n: f64) -> Result<u8, E> {
            Err(Written::refused(n))
        }
        fn visit_str<E: de::Error>(self, word: &str) -> Result<u8, E> {
            if word == "any" { Ok(FLYING) } else { Err(Written::refused(format!("'{word}'"))) }
        }
    }
    d.deserialize_any(Written)
}

impl Default for PieceMoves {
    fn default() -> PieceMoves {
        PieceMoves::NONE
    }
}

impl PieceMoves {
    /// Adds nothing (the default of an effect's change).
    pub const NONE: PieceMoves = PieceMoves { steps: Ways::NONE, reach: 1, captures: Ways::NONE, flying: false };

    /// Both sets of moves: every way of either, the longer reach, flying if either flies.
    pub const fn with(self, other: PieceMoves) -> PieceMoves {
        PieceMoves {
            steps: self.steps.union(other.steps),
            reach: if self.reach > other.reach { self.reach } else { other.reach },
            captures: self.captures.union(other.captures),
            flying: self.flying || other.flying,
        }
    }

    /// Whether it adds nothing: one comparison of its four bytes, on every
    /// move listing of the standard decks.
    #[inline]
    pub fn is_none(&self) -> bool {
        *self == PieceMoves::NONE
    }

    /// How far a step may go.
    pub const fn step_reach(&self) -> u8 {
        if self.flying { FLYING } else { self.reach }
    }
}

/// Whether a player who can capture must (R4.3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Capturing {
    #[default]
    Compulsory,
    Optional,
}

/// Which captures are preferred when several are possible; each criterion
/// narrows the captures left by the ones before it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preference {
    /// The captures that take the most checkers.
    MostPieces,
    /// Captures made by a king over those made by a pawn.
    ByAKing,
    /// The captures that take the most kings.
    MostKings,
    /// The capture that meets a king earliest in its sequence.
    KingsFirst,
}

/// Up to four [`Preference`]s in order; none is a free choice among captures.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Preferences {
    order: [Option<Preference>; 4],
}

impl Preferences {
    pub const FREE: Preferences = Preferences { order: [None; 4] };

    pub fn iter(&self) -> impl Iterator<Item = Preference> + '_ {
        self.order.iter().map_while(|p| *p)
    }

    pub fn is_free(&self) -> bool {
        self.order[0].is_none()
    }
}

impl fmt::Debug for Preferences {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Preferences {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Preferences {
    /// A list of at most four; a fifth is refused where it is written, so that
    /// a deck's error names `prefer` and its line.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Preferences, D::Error> {
        struct List;
        impl<'de> de::Visitor<'de> for List {
            type Value = Preferences;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of at most four preferences")
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Preferences, A::Error> {
                let mut order = [None; 4];
                let mut taken = 0;
                while let Some(p) = seq.next_element::<Preference>()? {
                    let Some(slot) = order.get_mut(taken) else {
                        return Err(de::Error::custom("at most four preferences"));
                    };
                    *slot = Some(p);
                    taken += 1;
                }
                Ok(Preferences { order })
            }
        }
        d.deserialize_seq(List)
    }
}

/// What a pawn reaching its king row in the middle of a capture does.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CrownedMidCapture {
    /// Its move ends there and it is crowned (R4.4).
    #[default]
    EndsTheMove,
    /// It is crowned and goes on capturing as a king.
    GoesOnAsKing,
    /// It goes on capturing as a pawn, and is crowned only if the move ends
    /// on the king row.
    GoesOnAsPawn,
}

/// When the checkers a capture takes leave the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CapturedRemoval {
    /// At the end of the move: until then they block, and none is jumped twice.
    #[default]
    AtTheEnd,
    /// As each is jumped: its square is free for the rest of the move.
    AtOnce,
}

/// Whether two captures that take the same checkers from the same square to
/// the same square by different ways are different moves.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CapturePaths {
    /// Listed once: they leave the same position (R4's ruling).
    #[default]
    One,
    /// Each way is a move of its own, as draughts notation writes their landings.
    Each,
}

/// The move rules of a deck: how each kind of checker moves, and the capture
/// rules. Plain data; [`Movement::AMERICAN`] is R4.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Movement {
    pub pawns: PieceMoves,
    /// Kings and emperors.
    pub kings: PieceMoves,
    pub capture: Capturing,
    /// Which captures must be chosen (empty: any).
    pub prefer: Preferences,
    pub crowned_mid_capture: CrownedMidCapture,
    pub captured_removed: CapturedRemoval,
    /// Whether pawns may capture kings (Italian draughts says no).
    pub pawns_capture_kings: bool,
    /// Whether a capture may turn straight back the way it came.
    pub turn_back: bool,
    pub capture_paths: CapturePaths,
}

impl Default for Movement {
    fn default() -> Movement {
        Movement::AMERICAN
    }
}

impl Movement {
    /// R4: pawns step and capture diagonally forward, kings one square any
    /// diagonal way; capture is compulsory, any capture may be chosen, and a
    /// pawn reaching its king row ends its move.
    pub const AMERICAN: Movement = Movement {
        pawns: PieceMoves {
            steps: Ways::FORWARD_DIAGONALS,
            reach: 1,
            captures: Ways::FORWARD_DIAGONALS,
            flying: false,
        },
        kings: PieceMoves { steps: Ways::DIAGONALS, reach: 1, captures: Ways::DIAGONALS, flying: false },
        capture: Capturing::Compulsory,
        prefer: Preferences::FREE,
        crowned_mid_capture: CrownedMidCapture::EndsTheMove,
        captured_removed: CapturedRemoval::AtTheEnd,
        pawns_capture_kings: true,
        turn_back: true,
        capture_paths: CapturePaths::One,
    };

    pub fn is_american(&self) -> bool {
        *self == Movement::AMERICAN
    }

    /// These rules with a lasting effect's additions to pawns' and kings' moves.
    pub fn with(self, pawns: PieceMoves, kings: PieceMoves) -> Movement {
        Movement { pawns: self.pawns.with(pawns), kings: self.kings.with(kings), ..self }
    }
}

/// The board directions of a bit set made by [`Ways::on_board`].
#[inline]
pub(super) fn dirs(bits: u8) -> impl Iterator<Item = Dir> {
    let mut left = bits;
    std::iter::from_fn(move || {
        (left != 0).then(|| {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            Dir::ALL[i]
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ways_turn_with_the_seat() {
        let o = Orientation::default();
        let fwd: Vec<Dir> = dirs(Ways::FORWARD_DIAGONALS.on_board(o, Player::Dark)).collect();
        assert_eq!(fwd, [Dir::NE, Dir::NW]);
        let fwd: Vec<Dir> = dirs(Ways::FORWARD_DIAGONALS.on_board(o, Player::Light)).collect();
        assert_eq!(fwd, [Dir::SE, Dir::SW]);
        let side: Vec<Dir> = dirs(Ways::named("forward_and_sideways").unwrap().on_board(o, Player::Dark)).collect();
        assert_eq!(side, [Dir::N, Dir::E, Dir::W]);
    }

    #[test]
    fn movement_reads_as_written_and_defaults_to_r4() {
        let m: Movement = serde_yaml::from_str("{}").unwrap();
        assert!(m.is_american());
        let m: Movement = serde_yaml::from_str(
            "pawns: {steps: forward_diagonals, captures: diagonals}\nkings: {steps: diagonals, captures: diagonals, flying: true}\nprefer: [most_pieces]\ncrowned_mid_capture: goes_on_as_king",
        )
        .unwrap();
        assert!(m.kings.flying && m.kings.step_reach() == FLYING);
        assert_eq!(m.prefer.iter().collect::<Vec<_>>(), [Preference::MostPieces]);
        let e = serde_yaml::from_str::<Movement>("pawns: {steps: upward}").unwrap_err().to_string();
        assert!(e.contains("'upward' is not a direction"), "{e}");
        let e = serde_yaml::from_str::<Movement>("pawns: {reach: 9}").unwrap_err().to_string();
        assert!(e.contains("reach is 1 to 7"), "{e}");
    }

    #[test]
    fn ways_and_reach_of_any_other_kind_are_refused_saying_what_they_are() {
        // Found by the scripts fuzz target's generated decks: these said only
        // "data did not match any variant of untagged enum Written".
        let refused = |text: &str| serde_yaml::from_str::<Movement>(text).unwrap_err().to_string();
        for (text, says) in [
            ("pawns: {reach: -1}", "pawns.reach: reach is 1 to 7 squares, or any, not -1"),
            ("pawns: {reach: 1.5}", "pawns.reach: reach is 1 to 7 squares, or any, not 1.5"),
            ("pawns: {reach: 0}", "pawns.reach: reach is 1 to 7 squares, or any, not 0"),
            ("kings: {reach: far}", "kings.reach: reach is 1 to 7 squares, or any, not 'far'"),
            ("kings: {reach: [1]}", "kings.reach: invalid type: sequence, expected 1 to 7 squares, or any"),
            (
                "pawns: {steps: 3}",
                "pawns.steps: invalid type: integer `3`, expected a direction or a list of directions",
            ),
            ("pawns: {captures: [forward, 7]}", "pawns.captures[1]: '7' is not a direction; use forward,"),
            ("pawns: {captures: [forward, upward]}", "pawns.captures[1]: 'upward' is not a direction; use forward,"),
        ] {
            let e = refused(text);
            assert!(e.starts_with(says), "{text}: {e}");
        }
        let m: Movement =
            serde_yaml::from_str("pawns: {steps: [forward, left], reach: any}\nkings: {reach: 3}").unwrap();
        assert_eq!((m.pawns.steps, m.pawns.reach, m.kings.reach), (Ways(0b0100_0001), FLYING, 3));
        let back: Movement = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn a_fifth_preference_is_refused_at_prefer() {
        let text = "capture: compulsory\nprefer: [most_pieces, by_a_king, most_kings, kings_first, most_pieces]\n";
        let e = serde_yaml::from_str::<Movement>(text).unwrap_err();
        assert!(e.to_string().starts_with("prefer: at most four preferences"), "{e}");
        assert_eq!(e.location().map(|l| l.line()), Some(2), "{e}");
        let four = "prefer: [kings_first, most_kings, by_a_king, most_pieces]";
        let m: Movement = serde_yaml::from_str(four).unwrap();
        assert_eq!(m.prefer.iter().count(), 4);
        let back: Movement = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        assert_eq!(back, m);
    }
}
