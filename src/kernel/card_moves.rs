//! Single steps, slides and jumps in any of the eight directions, for cards that
//! move checkers outside the move step (R8.10 Sideways, R8.13 Flight).
//!
//! The same rules as ordinary moves apply: targets must be empty (R4.5), frozen
//! checkers do not move (R4.7), the mover's opponent's walls block (R5.3–R5.6),
//! and only an emperor jumps an emperor (R4.6).

use super::board::{Board, Checker, Kind, RuleResult, Token, refuse};
use super::event::{BoardEvent, Journal, Unrecorded};
use super::moves::Played;
use super::square::{Dir, Square};

impl Board {
    fn movable(&self, from: Square) -> RuleResult<Checker> {
        let Some(checker) = self.checker(from) else { refuse!("there is no checker on {from}") };
        if checker.hippo {
            refuse!("the checker on {from} is frozen by a galactic hippo (R4.7)");
        }
        Ok(checker)
    }

    fn step_open(&self, checker: &Checker, from: Square, dir: Dir) -> Option<Square> {
        let to = from.step(dir)?;
        let blocked = self.blocked_for(checker.owner, dir).contains(from);
        (!blocked && self.is_empty(to)).then_some(to)
    }

    /// The checker on `from`, if it may move at all (not frozen, R4.7); unlike
    /// `movable`, no reason is written, for queries over many squares.
    fn free_checker(&self, from: Square) -> Option<Checker> {
        self.checker(from).filter(|c| !c.hippo)
    }

    /// Whether the checker on `from` has a step in any of `dirs` (so that
    /// [`Board::step_targets`], and [`Board::slide_targets`], are not empty).
    pub fn can_step(&self, from: Square, dirs: &[Dir]) -> bool {
        self.free_checker(from).is_some_and(|c| dirs.iter().any(|&d| self.step_open(&c, from, d).is_some()))
    }

    /// Whether the checker on `from` has a jump in any of `dirs` (so that
    /// [`Board::jump_targets`] is not empty).
    pub fn can_jump(&self, from: Square, dirs: &[Dir]) -> bool {
        self.free_checker(from).is_some_and(|c| dirs.iter().any(|&d| self.jump_landing(&c, from, d).is_some()))
    }

    /// Squares one step away in `dirs` that the checker on `from` may step to.
    pub fn step_targets(&self, from: Square, dirs: &[Dir]) -> Vec<Square> {
        let Ok(checker) = self.movable(from) else { return Vec::new() };
        let mut out: Vec<Square> = dirs.iter().filter_map(|&d| self.step_open(&checker, from, d)).collect();
        out.sort();
        out
    }

    /// Squares reachable by sliding any distance in one of `dirs` over empty
    /// squares, stopping at the first blocking wall (R5.6, R8.13).
    pub fn slide_targets(&self, from: Square, dirs: &[Dir]) -> Vec<Square> {
        let Ok(checker) = self.movable(from) else { return Vec::new() };
        let mut out = Vec::new();
        for &dir in dirs {
            let mut at = from;
            while let Some(next) = self.step_open(&checker, at, dir) {
                out.push(next);
                at = next;
            }
        }
        out.sort();
        out
    }

    /// Landing squares of single jumps from `from` in `dirs`: over an adjacent
    /// opposing checker to the empty square beyond, neither step walled (R5.5).
    pub fn jump_targets(&self, from: Square, dirs: &[Dir]) -> Vec<Square> {
        let Ok(checker) = self.movable(from) else { return Vec::new() };
        let mut out: Vec<Square> = dirs.iter().filter_map(|&d| self.jump_landing(&checker, from, d)).collect();
        out.sort();
        out
    }

    fn jump_landing(&self, checker: &Checker, from: Square, dir: Dir) -> Option<Square> {
        let mid = from.step(dir)?;
        let land = mid.step(dir)?;
        let prey = self.checker(mid)?;
        let walls = self.blocked_for(checker.owner, dir);
        let can_take = prey.owner != checker.owner && (prey.kind != Kind::Emperor || checker.kind == Kind::Emperor);
        (can_take && !walls.contains(from) && !walls.contains(mid) && self.is_empty(land)).then_some(land)
    }

    /// Makes one jump: the jumped checker goes to its owner's reserve (R4.9), then
    /// waiting pawns are crowned (R6.2). Returns the landing square.
    pub fn jump(&mut self, from: Square, dir: Dir, log: &mut impl Journal) -> RuleResult<(Square, Played)> {
        let checker = self.movable(from)?;
        let Some(land) = self.jump_landing(&checker, from, dir) else {
            refuse!("the checker on {from} cannot jump {dir} (R4.2, R4.6, R5.5)");
        };
        let mid = from.step(dir).expect("a landing has a middle square");
        log.record(|| BoardEvent::Moved { from, to: land, via: Vec::new(), id: checker.id, hops: false });
        self.capture_all([(mid, land)], from, log);
        self.shift_checker(from, land);
        self.settle_crowns(log);
        Ok((land, Played { captures: 1, by_emperor: checker.kind == Kind::Emperor }))
    }

    /// Takes a checker off the board without sending it anywhere, for a card that
    /// puts it back (R8.16). The caller must return it with [`Board::put_back`].
    pub fn set_aside(&mut self, sq: Square, log: &mut impl Journal) -> RuleResult<Checker> {
        let Some(checker) = self.checker(sq) else { refuse!("there is no checker on {sq}") };
        self.write_checker(sq, None);
        log.record(|| BoardEvent::SetAside { at: sq, checker });
        Ok(checker)
    }

    /// Returns a checker taken by [`Board::set_aside`] to an empty square.
    pub fn put_back(&mut self, sq: Square, checker: Checker, log: &mut impl Journal) -> RuleResult<()> {
        if !self.is_empty(sq) {
            refuse!("{sq} is not empty, so the lifted checker cannot return (R8.16)");
        }
        // It keeps its number, unless a checker that came on meanwhile has it.
        let checker =
            if self.find_checker(checker.id).is_some() { Checker { id: self.fresh_id(), ..checker } } else { checker };
        self.write_checker(sq, Some(checker));
        log.record(|| BoardEvent::PutBack { at: sq, checker });
        self.settle_crowns(log);
        Ok(())
    }

    /// Every pair of edges where `owner` could place two walls now (R5.2).
    pub fn wall_spots(&self) -> impl Iterator<Item = super::walls::EdgePair> + use<> {
        // Free: no wall on it and not inside the monolith (R5.1, R7.1).
        let walled = self.walls(super::player::Player::Dark).union(*self.walls(super::player::Player::Light));
        let taken = walled.union(super::walls::Walls::inside(self.monolith_block()));
        super::walls::EdgePair::all().iter().copied().filter(move |p| !taken.contains(p.0) && !taken.contains(p.1))
    }

    /// Whether a token of this kind could go on the checker on `sq` now.
    pub fn can_take_token(&self, sq: Square, token: Token) -> bool {
        let mut probe = *self;
        probe.put_token(sq, token, &mut Unrecorded).is_ok()
    }
}
