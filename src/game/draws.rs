//! The draws a deck counts turns for (cards/README.md, "Endings as deck
//! rules"): the same position met the deck's number of times
//! (`ends: repetition:`), and turns in a row with only kings moved
//! (`ends: kings_only:`). The count is part of the game state, so it is
//! saved, replayed and undone with the rest; a deck with neither rule has
//! none, and its states and digests are as they always were.

use std::io;

use serde::{Deserialize, Serialize};

use super::state::{Constraint, EndReason, Outcome, Pile};
use super::{Effect, GameState};
use crate::hash::Fnv;
use crate::kernel::{Bitboard, Board, Player};

/// What the draw rules have counted since the material last changed.
///
/// Invariant: `men` and `kings` are the board's when the last turn began;
/// `seen` holds the key ([`position_key`]) of each position met as a turn
/// began since the material (pawns and kings counted) last changed, oldest
/// first, the present one last; `quiet` counts the turns since a pawn last
/// moved or the material changed.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawCount {
    /// Each player's pawns (checkers not kings), by square.
    men: [Bitboard; 2],
    /// Each player's kings, counted.
    kings: [u8; 2],
    /// Turns in a row in which no pawn moved, none was crowned and nothing
    /// was captured: each of them moved a king, or nothing.
    quiet: u16,
    /// The positions met, one per turn begun.
    seen: Vec<u64>,
}

impl DrawCount {
    /// A count that begins at `state`'s position.
    fn starting_at(state: &GameState) -> DrawCount {
        let (men, kings) = material(&state.board);
        DrawCount { men, kings, quiet: 0, seen: vec![position_key(state)] }
    }

    /// Turns in a row with only kings moved.
    pub fn quiet(&self) -> u16 {
        self.quiet
    }

    /// How many times the present position has been met (1: the first).
    pub fn times_met(&self) -> usize {
        let Some(now) = self.seen.last() else { return 0 };
        self.seen.iter().filter(|k| *k == now).count()
    }
}

/// Each player's pawns, by square, and number of kings.
fn material(board: &Board) -> ([Bitboard; 2], [u8; 2]) {
    let men = Player::BOTH.map(|p| board.checkers(p) - board.kings());
    let kings = Player::BOTH.map(|p| (board.checkers(p) & board.kings()).count() as u8);
    (men, kings)
}

/// The parts of a state that make two positions the same for the repetition
/// draw: the board (every checker, king, token, wall and reserve, but not
/// the checkers' numbers, which say which checker is which and not what may
/// move), the player to move, the restrictions and lasting effects in force
/// and the face-up cards — everything that changes which moves and cards are
/// legal. Not the turn count, the step or the draw pile, which change every
/// turn or are secret. (A state digest would never repeat: it holds the
/// turn count and the generator.)
#[derive(Serialize)]
struct Seen<'a> {
    board: Board,
    to_move: Player,
    constraint: &'a Option<Constraint>,
    next_constraint: &'a Option<Constraint>,
    effects: &'a [Effect],
    face_up: &'a Pile,
}

/// FNV-1a over what is written to it.
struct Hashing(Fnv);

impl io::Write for Hashing {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        std::hash::Hasher::write(&mut self.0, bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The position's key for the repetition draw: FNV-1a over the JSON of
/// [`Seen`], stable across processes and platforms as digests are (a save
/// holds the keys).
pub fn position_key(state: &GameState) -> u64 {
    let seen = Seen {
        board: state.board.unnumbered(),
        to_move: state.to_move,
        constraint: &state.constraint,
        next_constraint: &state.next_constraint,
        effects: &state.effects,
        face_up: &state.piles().face_up,
    };
    let mut hashing = Hashing(Fnv::default());
    serde_json::to_writer(&mut hashing, &seen).expect("a position serializes");
    std::hash::Hasher::finish(&hashing.0)
}

impl GameState {
    /// Starts the draw rules' count afresh at the present position: a deal
    /// does, and a scene set up by hand (scenarios). Nothing for a deck
    /// without those rules.
    pub fn restart_draw_count(&mut self) {
        self.position.draws = self.position.rules.ends.counts_draws().then(|| Box::new(DrawCount::starting_at(self)));
    }

    /// What the draw rules have counted, if the deck has any.
    pub fn draw_count(&self) -> Option<&DrawCount> {
        self.position.draws.as_deref()
    }

    /// Counts the turn just begun for the deck's draws and ends the game
    /// drawn if one holds; true when it did. A capture or a crowning starts
    /// both counts again (no card-free move undoes them, so no earlier
    /// position can come again); a pawn's move starts the kings-only count again.
    pub(super) fn count_for_draws(&mut self) -> bool {
        let ends = self.position.rules.ends;
        if !ends.counts_draws() {
            return false;
        }
        let key = position_key(self);
        let (men, kings) = material(&self.position.board);
        let count = self.position.draws.get_or_insert_with(Default::default);
        let counts = |men: &[Bitboard; 2]| men.map(Bitboard::count);
        if counts(&count.men) != counts(&men) || count.kings != kings || count.seen.is_empty() {
            // A capture or a crowning: no position from before comes again.
            count.seen.clear();
            count.quiet = 0;
        } else if count.men != men {
            // A pawn moved (sideways, where pawns may: a position may come again).
            count.quiet = 0;
        } else {
            count.quiet = count.quiet.saturating_add(1);
        }
        count.men = men;
        count.kings = kings;
        count.seen.push(key);
        let reason = if ends.repetition > 0 && count.times_met() >= usize::from(ends.repetition) {
            EndReason::Repetition
        } else if ends.kings_only > 0 && count.quiet >= ends.kings_only {
            EndReason::KingsOnly
        } else {
            return false;
        };
        self.finish(Outcome { winner: None, reason });
        true
    }
}
