//! Read-only runs remembered by what they read.
//!
//! A planet check or a `can_play` only reads the game, through `ctx`. While one
//! runs, each read it makes through a query (ctx/mod.rs) is noted with its
//! result (more than [`MAX_READS`] reads, and the run is not remembered). The script is a function of what it reads (no
//! clock, no randomness, sorted `pairs`), so the next time the same check runs
//! for the same player, if every noted read gives the same result on the new
//! state, the script would take the same path and return the same answer: the
//! engine returns it without running Lua. Only answers are remembered, never
//! failures.

use std::cell::RefCell;
use std::rc::Rc;

use crate::game::GameState;
use crate::kernel::{Bitboard, Board, Dir, MAX_MARKER_KINDS, MarkerKind, Player, Terrain, Token};

/// Traces longer than this are not kept (a check that reads this much is rare).
pub const MAX_READS: usize = 32;

/// `{owner=, kind=, ring=, snookle=, hippo=, colour=, can_take=, markers=, can_step=, can_jump=,
/// lift_leaves_move=}`, parsed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckerFilter {
    pub owner: Option<Player>,
    pub kind: Option<KindFilter>,
    pub colour: Option<Bitboard>,
    /// Ring, snookle, hippo, in `Token::ALL` order.
    pub tokens: [Option<bool>; 3],
    /// Only checkers that may take this token now (`Board::can_take_token`).
    pub can_take: Option<Token>,
    /// Whether the square holds a marker of each kind (`markers = {name = bool}`).
    pub markers: MarkerFilter,
    /// Only checkers with a step (`can_step`) or a jump (`can_jump`) in one of
    /// these directions (`Board::can_step`, `Board::can_jump`).
    pub can_step: Option<Dirs>,
    pub can_jump: Option<Dirs>,
    /// Only checkers whose lifting leaves (true) or does not leave (false) this
    /// player a legal move not ending on their square
    /// (`GameState::lifts_leaving_a_move`, R8.16).
    pub lift_leaves_move: Option<(Player, bool)>,
}

/// A set of directions, one bit per direction in `Dir::ALL` order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dirs(pub u8);

impl Dirs {
    pub fn of(dirs: &[Dir]) -> Dirs {
        Dirs(dirs.iter().fold(0, |mask, d| mask | 1 << Dir::ALL.iter().position(|a| a == d).unwrap_or(0)))
    }

    /// The directions, in `Dir::ALL` order, and how many there are.
    fn listed(self) -> ([Dir; 8], usize) {
        let mut out = [Dir::N; 8];
        let mut n = 0;
        for (i, d) in Dir::ALL.into_iter().enumerate() {
            if self.0 & (1 << i) != 0 {
                out[n] = d;
                n += 1;
            }
        }
        (out, n)
    }
}

/// `markers = {name = true/false, …}` in a checker or square filter: squares
/// with (true) or without (false) a marker of each kind named.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MarkerFilter(pub [Option<bool>; MAX_MARKER_KINDS]);

impl MarkerFilter {
    pub fn apply(&self, board: &Board, mut set: Bitboard) -> Bitboard {
        for (kind, wanted) in MarkerKind::all().zip(self.0) {
            match wanted {
                Some(true) => set &= board.marks().at(kind),
                Some(false) => set = set - board.marks().at(kind),
                None => {}
            }
        }
        set
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KindFilter {
    Pawn,
    King,
    Emperor,
    Crowned,
}

impl CheckerFilter {
    pub fn apply(&self, state: &crate::game::Position) -> Bitboard {
        let board = &state.board;
        let mut set = board.occupied();
        if let Some(p) = self.owner {
            set &= board.checkers(p);
        }
        if let Some(kind) = self.kind {
            set &= match kind {
                KindFilter::Pawn => board.pawns(),
                KindFilter::King => board.kings() - board.emperors(),
                KindFilter::Emperor => board.emperors(),
                KindFilter::Crowned => board.kings(),
            };
        }
        if let Some(mask) = self.colour {
            set &= mask;
        }
        for (t, wanted) in Token::ALL.into_iter().zip(self.tokens) {
            match wanted {
                Some(true) => set &= board.tokens(t),
                Some(false) => set = set - board.tokens(t),
                None => {}
            }
        }
        set = self.markers.apply(board, set);
        if let Some(token) = self.can_take {
            for sq in set {
                if !board.can_take_token(sq, token) {
                    set.remove(sq);
                }
            }
        }
        for (dirs, jumps) in [(self.can_step, false), (self.can_jump, true)] {
            let Some(dirs) = dirs else { continue };
            let (dirs, n) = dirs.listed();
            for sq in set {
                let moves = if jumps { board.can_jump(sq, &dirs[..n]) } else { board.can_step(sq, &dirs[..n]) };
                if !moves {
                    set.remove(sq);
                }
            }
        }
        if let Some((player, wanted)) = self.lift_leaves_move {
            let leaving = state.lifts_leaving_a_move(player, set);
            set = if wanted { leaving } else { set - leaving };
        }
        set
    }
}

/// `{empty=, colour=, half=, back_row=, king_row=, terrain=}`, parsed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SquareFilter {
    pub empty: Option<bool>,
    pub colour: Option<Bitboard>,
    pub half: Option<Player>,
    pub back_row: Option<Player>,
    pub king_row: Option<Player>,
    /// `None` inside for `any`.
    pub terrain: Option<Option<Terrain>>,
    pub markers: MarkerFilter,
}

impl SquareFilter {
    pub fn apply(&self, board: &Board) -> Bitboard {
        let mut set = Bitboard::ALL;
        let orientation = board.orientation();
        match self.empty {
            Some(true) => set &= board.empty_squares(),
            Some(false) => set = set - board.empty_squares(),
            None => {}
        }
        if let Some(mask) = self.colour {
            set &= mask;
        }
        if let Some(p) = self.half {
            set &= orientation.half(p);
        }
        if let Some(p) = self.back_row {
            set &= orientation.back_row(p);
        }
        if let Some(p) = self.king_row {
            set &= orientation.king_row(p);
        }
        match self.terrain {
            Some(Some(t)) => set &= board.terrain(t),
            Some(None) => set &= board.terrain(Terrain::Water) | board.terrain(Terrain::Fire),
            None => {}
        }
        self.markers.apply(board, set)
    }
}

/// `{owners = {players…}, empty = bool}` for 2×2 blocks, parsed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlockFilter {
    /// At least one checker of each player set here (R8.19).
    pub owners: [bool; 2],
    pub empty: Option<bool>,
}

impl BlockFilter {
    /// Lower-left squares of the matching blocks.
    pub fn apply(&self, board: &Board) -> Bitboard {
        // A block's squares are its anchor a and a+1, a+8, a+9; anchors are
        // off file h and rank 8. "Some square of the block is in s" is the union
        // of s shifted back by those offsets.
        let anchors = !(Bitboard::FILE_H.0 | Bitboard::RANK_8.0);
        let touching = |s: Bitboard| (s.0 | s.0 >> 1 | s.0 >> 8 | s.0 >> 9) & anchors;
        let mut set = anchors;
        for p in Player::BOTH {
            if self.owners[p.index()] {
                set &= touching(board.checkers(p));
            }
        }
        let occupied = touching(!board.empty_squares());
        match self.empty {
            Some(true) => set &= !occupied,
            Some(false) => set &= occupied,
            None => {}
        }
        Bitboard(set)
    }
}

/// One read a run made, with what it found: the query that made it (ctx/mod.rs,
/// [`query`](super::ctx)) with its arguments, run again on another state.
#[derive(Clone)]
pub struct Read(Rc<Recheck>);

/// Whether a read finds again what it found, on a state for a user.
type Recheck = dyn Fn(&GameState, Player) -> bool;

impl Read {
    /// The read `eval(state, user, &args)` that found `found`.
    pub(super) fn new<S: super::ctx::Sight, Q: 'static, T: PartialEq + 'static>(
        args: Q,
        found: T,
        eval: fn(&S::Part, Player, &Q) -> T,
    ) -> Read {
        Read(Rc::new(move |state, user| eval(S::part(state), user, &args) == found))
    }

    /// Whether the same read finds the same on `state` for `user`.
    pub fn holds(&self, state: &GameState, user: Player) -> bool {
        (self.0)(state, user)
    }
}

impl std::fmt::Debug for Read {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Read")
    }
}

/// What a read-only run answered (a yes or no, or a planet's progress), and
/// what it read to answer it.
#[derive(Clone, Debug)]
pub struct Memo<T> {
    pub user: Player,
    pub reads: Vec<Read>,
    pub answer: T,
}

impl<T: Copy> Memo<T> {
    /// The remembered answer, if the run for `user` would read the same on `state`.
    pub fn answer(&self, state: &GameState, user: Player) -> Option<T> {
        (self.user == user && self.reads.iter().all(|r| r.holds(state, user))).then_some(self.answer)
    }
}

/// How many answers a slot keeps, the most recently used first: the search
/// checks planets in the positions of its tree in turn, where one answer per
/// slot was forgotten before it was asked again.
const WAYS: usize = 4;

/// The last remembered answers of each of a kind of check (a planet's check by
/// planet and player, a card's `can_play` by card), by slot.
pub struct Memos<T>(RefCell<Vec<Vec<Memo<T>>>>);

impl<T: Copy> Memos<T> {
    /// `slots` empty slots.
    pub fn new(slots: usize) -> Memos<T> {
        Memos(RefCell::new((0..slots).map(|_| Vec::new()).collect()))
    }

    /// An answer remembered in `slot` whose reads hold on `state` for `user`.
    pub fn answer(&self, slot: usize, state: &GameState, user: Player) -> Option<T> {
        let mut slots = self.0.borrow_mut();
        let kept = slots.get_mut(slot)?;
        let i = kept.iter().position(|m| m.answer(state, user).is_some())?;
        let answer = kept[i].answer;
        kept[..=i].rotate_right(1);
        Some(answer)
    }

    /// Keeps `answer` in `slot` if the run that gave it read only what a memo can
    /// check (`reads`: the run's trace), forgetting the least recently used
    /// answer of a full slot.
    pub fn keep(&self, slot: usize, reads: Option<Vec<Read>>, user: Player, answer: T) {
        if let (Some(reads), Some(kept)) = (reads, self.0.borrow_mut().get_mut(slot)) {
            kept.truncate(WAYS - 1);
            kept.insert(0, Memo { user, reads, answer });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameState, Setup};
    use crate::kernel::{Removal, Unrecorded};
    use crate::kernel::{Square, block};

    /// A slot keeps the `WAYS` answers used last: one found again moves to the
    /// front, and a new one pushes out the one unused longest.
    #[test]
    fn a_slot_keeps_the_answers_used_last() {
        let memos = Memos::new(1);
        let mut state = GameState::new(&Setup::blank(4), 1);
        let at = |state: &mut GameState, turn: u32| {
            state.position_mut().turn = turn;
            memos.answer(0, state, Player::Dark)
        };
        let turn_was =
            |turn: u32| Read::new::<crate::script::ctx::Sees::Position, _, _>((), turn, |s, _: Player, _: &()| s.turn);
        for turn in 1..=WAYS as u32 {
            memos.keep(0, Some(vec![turn_was(turn)]), Player::Dark, turn);
        }
        assert_eq!(at(&mut state, 1), Some(1), "the oldest is still kept");
        memos.keep(0, Some(vec![turn_was(9)]), Player::Dark, 9);
        assert_eq!(at(&mut state, 2), None, "the one unused longest went");
        assert_eq!(at(&mut state, 1), Some(1), "used again, so kept");
        assert_eq!(at(&mut state, 9), Some(9));
        assert_eq!(memos.answer(0, &state, Player::Light), None, "kept for Dark only");
        memos.keep(0, None, Player::Dark, 7);
        assert_eq!(at(&mut state, 9), Some(9), "a run the memo cannot replay is not kept");
    }

    /// The shifted masks find the same blocks as testing each block in turn.
    #[test]
    fn block_filters_match_the_blocks_one_by_one() {
        let mut state = GameState::new(&Setup::blank(4), 3);
        for (i, sq) in ["c3", "e3", "d6", "h8", "a1"].iter().enumerate() {
            let _ = state.position_mut().board.remove_checker(sq.parse().unwrap(), Removal::Card, &mut Unrecorded);
            if i == 2 {
                let _ =
                    state.position_mut().board.relocate("b6".parse().unwrap(), "d4".parse().unwrap(), &mut Unrecorded);
            }
        }
        let board = &state.board;
        for owners in [[false, false], [true, false], [false, true], [true, true]] {
            for empty in [None, Some(true), Some(false)] {
                let filter = BlockFilter { owners, empty };
                let mut slow = Bitboard::EMPTY;
                for a in Square::all() {
                    let Some(b) = block(a) else { continue };
                    let owned = Player::BOTH.into_iter().all(|p| !owners[p.index()] || (b & board.checkers(p)).any());
                    let free = board.empty_squares();
                    let ok = match empty {
                        Some(true) => (b - free).is_empty(),
                        Some(false) => (b - free).any(),
                        None => true,
                    };
                    if owned && ok {
                        slow.insert(a);
                    }
                }
                assert_eq!(filter.apply(board), slow, "{filter:?}");
            }
        }
    }
}
