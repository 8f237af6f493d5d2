//! Move generation for any [`Movement`]: the data a deck or lasting effects
//! write, compiled per call into board directions and bitboards. American
//! checkers with no added moves never comes here (moves.rs keeps R4's own
//! generator); everything else does, walls, frozen checkers (R4.7), emperors
//! (R4.6) and closed squares included.

use super::bitboard::Bitboard;
use super::board::{Board, Kind};
use super::movement::{
    CapturePaths, CapturedRemoval, Capturing, CrownedMidCapture, Movement, Preference, Preferences, dirs,
};
use super::moves::{MAX_JUMPS, Move, MoveRules};
use super::player::Player;
use super::square::{Dir, Square};

pub(super) struct Rulebook<'a> {
    board: &'a Board,
    movement: Movement,
    /// Checkers that may move: the player's, allowed, not frozen.
    movers: Bitboard,
    /// Empty squares: a step or a capture may pass over them.
    empty: Bitboard,
    /// Squares a move may end on or land on: empty and not closed.
    landing: Bitboard,
    closed: Bitboard,
    /// Per `Dir as usize`: squares from which a step that way crosses an opposing wall (R5.3).
    blocked: [Bitboard; 8],
    /// Board directions (bits over `Dir::ALL`) pawns and kings step and capture in.
    pawn_steps: u8,
    pawn_captures: u8,
    king_steps: u8,
    king_captures: u8,
    king_row: Bitboard,
    opponents: Bitboard,
    /// Chain steps followed so far in this listing ([`MAX_CAPTURE_STEPS`]).
    steps_followed: std::cell::Cell<u32>,
}

/// The most chain steps one listing of captures follows, and the most
/// captures it keeps. A deck's moves may make the captures of one position
/// explode (flying kings capturing every way: tens of millions of paths); a
/// listing that reaches either bound keeps the captures it found before, in
/// the generator's fixed order, so the game goes on the same on every machine
/// (cards/README.md, "Moves as data").
pub const MAX_CAPTURE_STEPS: u32 = 1_000_000;
pub const MAX_CAPTURES_LISTED: usize = 10_000;

/// A capture being followed: the move so far and what it has done.
struct Chain {
    mv: Move,
    /// Checkers the chain may capture now.
    prey: Bitboard,
    /// Squares it may pass over: empty ones, its own start, and (removal at
    /// once) the squares of the checkers it took.
    free: Bitboard,
    king: bool,
    emperor: bool,
    last: Option<Dir>,
}

impl<'a> Rulebook<'a> {
    pub(super) fn new(board: &'a Board, player: Player, allowed: Bitboard, rules: &MoveRules) -> Rulebook<'a> {
        let movement = rules.applied_to(*board.movement());
        let orientation = board.orientation();
        let empty = board.empty_squares();
        Rulebook {
            board,
            movement,
            movers: (board.checkers(player) & allowed) - board.tokens(super::board::Token::Hippo),
            empty,
            landing: empty - rules.closed,
            closed: rules.closed,
            blocked: if board.walls(!player).is_empty() {
                [Bitboard::EMPTY; 8]
            } else {
                Dir::ALL.map(|d| board.blocked_for(player, d))
            },
            pawn_steps: movement.pawns.steps.on_board(orientation, player),
            pawn_captures: movement.pawns.captures.on_board(orientation, player),
            king_steps: movement.kings.steps.on_board(orientation, player),
            king_captures: movement.kings.captures.on_board(orientation, player),
            king_row: orientation.king_row(player),
            opponents: board.checkers(!player),
            steps_followed: std::cell::Cell::new(0),
        }
    }

    pub(super) fn capture_optional(&self) -> bool {
        self.movement.capture == Capturing::Optional
    }

    /// Every legal move: the captures (those the preferences leave), then the
    /// steps if no capture is due.
    pub(super) fn legal(&self, out: &mut Vec<Move>) {
        out.clear();
        self.captures(out);
        if out.is_empty() || self.capture_optional() {
            self.steps(out);
        }
    }

    pub(super) fn count(&self, buf: &mut Vec<Move>) -> usize {
        if !self.any_capture() {
            return self.count_steps();
        }
        self.legal(buf);
        buf.len()
    }

    pub(super) fn any_move(&self) -> bool {
        self.any_capture() || self.count_steps_up_to(1) > 0
    }

    // ---- steps ----

    fn step_groups(&self) -> [(Bitboard, u8, u8); 2] {
        let kings = self.movers & self.board.kings();
        [
            (self.movers - kings, self.pawn_steps, self.movement.pawns.step_reach()),
            (kings, self.king_steps, self.movement.kings.step_reach()),
        ]
    }

    fn count_steps(&self) -> usize {
        self.count_steps_up_to(usize::MAX)
    }

    /// The number of steps, counted on bitboards: rays of different checkers
    /// in one direction never overlap (each stops at the next checker).
    fn count_steps_up_to(&self, enough: usize) -> usize {
        let mut n = 0;
        for (group, ways, reach) in self.step_groups() {
            if group.is_empty() {
                continue;
            }
            for d in dirs(ways) {
                let mut front = group;
                for _ in 0..reach {
                    front = (front - self.blocked[d as usize]).shift(d) & self.empty;
                    if front.is_empty() {
                        break;
                    }
                    n += (front & self.landing).count() as usize;
                }
                if n >= enough {
                    return n;
                }
            }
        }
        n
    }

    /// Pushes every step, by source square then target.
    pub(super) fn steps(&self, out: &mut Vec<Move>) {
        let start = out.len();
        for (group, ways, reach) in self.step_groups() {
            for from in group {
                for d in dirs(ways) {
                    let mut at = Bitboard::from_square(from);
                    for _ in 0..reach {
                        at = (at - self.blocked[d as usize]).shift(d) & self.empty;
                        let Some(to) = at.first() else { break };
                        if self.landing.contains(to) {
                            out.push(Move::step(from, to));
                        }
                    }
                }
            }
        }
        out[start..].sort_unstable_by_key(|m| (m.from(), m.to()));
    }

    // ---- captures ----

    fn prey_of(&self, king: bool, emperor: bool) -> Bitboard {
        let mut prey = self.opponents;
        if !emperor {
            prey = prey - self.board.emperors(); // R4.6
        }
        if !king && !self.movement.pawns_capture_kings {
            prey = prey - self.board.kings();
        }
        prey
    }

    /// Whether any mover has a first capture.
    pub(super) fn any_capture(&self) -> bool {
        self.capturers(true).any()
    }

    /// The movers with a first capture (with `first_only`, at most one of them).
    fn capturers(&self, first_only: bool) -> Bitboard {
        let mut found = Bitboard::EMPTY;
        let kings = self.board.kings();
        let emperors = self.board.emperors();
        // Pawns that capture short, on bitboards.
        let pawns = self.movers - kings;
        if !self.movement.pawns.flying && pawns.any() {
            let prey = self.prey_of(false, false);
            for d in dirs(self.pawn_captures) {
                let b = &self.blocked[d as usize];
                let back = d.opposite();
                let mid = (pawns - *b).shift(d) & (prey - *b);
                found |= (mid.shift(d) & self.landing).shift(back).shift(back);
            }
            if first_only && found.any() {
                return found;
            }
        }
        let rest = if self.movement.pawns.flying { self.movers } else { self.movers & kings };
        for from in rest {
            let king = kings.contains(from);
            let emperor = emperors.contains(from);
            let ways = if king { self.king_captures } else { self.pawn_captures };
            let flying = if king { self.movement.kings.flying } else { self.movement.pawns.flying };
            let free = self.empty | Bitboard::from_square(from);
            let prey = self.prey_of(king, emperor);
            if dirs(ways).any(|d| {
                self.target(Bitboard::from_square(from), d, flying, free, prey)
                    .is_some_and(|mid| self.landings(mid, d, flying, free).any())
            }) {
                found.insert(from);
                if first_only {
                    break;
                }
            }
        }
        found
    }

    /// Walking from `at` in `d` over `free` squares (any number when flying,
    /// none otherwise), the first checker met, if it is prey.
    #[inline]
    fn target(&self, at: Bitboard, d: Dir, flying: bool, free: Bitboard, prey: Bitboard) -> Option<Bitboard> {
        let b = self.blocked[d as usize];
        let mut sq = at;
        loop {
            sq = (sq - b).shift(d);
            if sq.is_empty() {
                return None;
            }
            if (sq & free).any() {
                if flying {
                    continue;
                }
                return None;
            }
            return (sq & prey).any().then_some(sq);
        }
    }

    /// The squares a capture of `mid` in `d` may land on: the next one, or
    /// (flying) every free one in a row beyond it.
    #[inline]
    fn landings(&self, mid: Bitboard, d: Dir, flying: bool, free: Bitboard) -> Bitboard {
        let b = self.blocked[d as usize];
        let mut out = Bitboard::EMPTY;
        let mut sq = mid;
        loop {
            sq = (sq - b).shift(d) & free;
            if sq.is_empty() {
                return out;
            }
            out |= sq - self.closed;
            if !flying {
                return out;
            }
        }
    }

    /// Pushes every capture the preferences allow, sorted by start, then landings.
    pub(super) fn captures(&self, out: &mut Vec<Move>) {
        let start = out.len();
        let kings = self.board.kings();
        for from in self.capturers(false) {
            let king = kings.contains(from);
            let emperor = self.board.emperors().contains(from);
            let mut mv = Move::step(from, from);
            mv.clear_landings();
            let mut chain = Chain {
                mv,
                prey: self.prey_of(king, emperor),
                free: self.empty | Bitboard::from_square(from),
                king,
                emperor,
                last: None,
            };
            self.extend(&mut chain, from, out, start);
        }
        self.prefer(out, start);
        out[start..].sort_unstable_by_key(|m| m.sort_key());
    }

    /// Follows every capture from `at`; returns whether there was one. A
    /// chain goes on while it can: of the landings after one capture, those
    /// from which the chain can go on are the only ones allowed, if any is.
    fn extend(&self, chain: &mut Chain, at: Square, out: &mut Vec<Move>, start: usize) -> bool {
        // Past the bound nothing more is listed: a chain cut there counts as
        // going on, so that no shorter chain is listed in its place.
        let followed = self.steps_followed.get();
        if followed >= MAX_CAPTURE_STEPS || out.len() - start >= MAX_CAPTURES_LISTED {
            return true;
        }
        self.steps_followed.set(followed + 1);
        let (ways, flying) = if chain.king {
            (self.king_captures, self.movement.kings.flying)
        } else {
            (self.pawn_captures, self.movement.pawns.flying)
        };
        let at_once = self.movement.captured_removed == CapturedRemoval::AtOnce;
        let mut found = false;
        for d in dirs(ways) {
            if !self.movement.turn_back && chain.last == Some(d.opposite()) {
                continue;
            }
            let Some(mid) = self.target(Bitboard::from_square(at), d, flying, chain.free, chain.prey) else {
                continue;
            };
            let landings = self.landings(mid, d, flying, chain.free);
            if landings.is_empty() {
                continue;
            }
            found = true;
            let saved = (chain.mv, chain.prey, chain.free, chain.king, chain.last);
            let mut ends = Bitboard::EMPTY;
            let mut went_on = false;
            for land in landings {
                chain.mv.push_capture(land, mid);
                chain.prey = chain.prey - mid;
                if at_once {
                    chain.free |= mid;
                }
                chain.last = Some(d);
                let crowned = !chain.king && self.king_row.contains(land);
                let stops = chain.mv.jumps() == MAX_JUMPS
                    || (crowned && self.movement.crowned_mid_capture == CrownedMidCapture::EndsTheMove);
                if crowned && self.movement.crowned_mid_capture == CrownedMidCapture::GoesOnAsKing {
                    chain.king = true;
                    chain.prey = self.prey_of(true, chain.emperor) - chain.mv.captured();
                }
                if stops || !self.extend(chain, land, out, start) {
                    ends.insert(land);
                } else {
                    went_on = true;
                }
                (chain.mv, chain.prey, chain.free, chain.king, chain.last) = saved;
            }
            if !went_on {
                for land in ends.into_iter().take(MAX_CAPTURES_LISTED.saturating_sub(out.len() - start)) {
                    let mut mv = chain.mv;
                    mv.push_capture(land, mid);
                    if self.movement.capture_paths == CapturePaths::Each {
                        out.push(mv);
                    } else {
                        push_unique(out, start, mv);
                    }
                }
            }
        }
        found
    }

    /// Keeps the captures each preference in turn prefers.
    fn prefer(&self, out: &mut Vec<Move>, start: usize) {
        keep_preferred(self.board, &self.movement.prefer, out, start);
    }
}

/// Keeps, of the captures `out[start..]`, those each preference in turn
/// prefers on `board` (a deck's `prefer:`): the kernel's own, and the game's
/// list with the captures scripts offer among them (game/mod.rs).
pub fn keep_preferred(board: &Board, prefer: &Preferences, out: &mut Vec<Move>, start: usize) {
    for preference in prefer.iter() {
        if out.len() - start < 2 {
            return;
        }
        let kings = board.kings();
        let score = |m: &Move| -> u32 {
            match preference {
                Preference::MostPieces => m.captured().count(),
                Preference::ByAKing => kings.contains(m.from()) as u32,
                Preference::MostKings => (m.captured() & kings).count(),
                Preference::KingsFirst => kings_order(m, kings),
            }
        };
        let best = out[start..].iter().map(score).max().unwrap_or(0);
        let mut i = start;
        out.retain(|m| {
            let keep = i < start || score(m) == best;
            i += 1;
            keep
        });
    }
}

/// A score that is higher the earlier the capture meets kings: bit
/// `MAX_JUMPS - 1 - i` is set when its `i`-th checker taken is a king.
fn kings_order(mv: &Move, kings: Bitboard) -> u32 {
    let mut at = mv.from();
    let mut score = 0;
    for (i, land) in mv.landings().enumerate() {
        if (line_between(at, land) & mv.captured() & kings).any() {
            score |= 1 << (MAX_JUMPS - 1 - i);
        }
        at = land;
    }
    score
}

/// The squares strictly between two squares on one line (empty if they are not on one).
pub(super) fn line_between(a: Square, b: Square) -> Bitboard {
    let (df, dr) = (b.file() - a.file(), b.rank() - a.rank());
    if df == 0 && dr == 0 || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
        return Bitboard::EMPTY;
    }
    let d = Dir::ALL.into_iter().find(|d| d.delta() == (df.signum(), dr.signum())).expect("a line");
    let mut out = Bitboard::EMPTY;
    let mut sq = Bitboard::from_square(a).shift(d);
    while let Some(s) = sq.first() {
        if s == b {
            break;
        }
        out |= sq;
        sq = sq.shift(d);
    }
    out
}

/// Two captures that take the same checkers from the same square to the
/// same square leave the same position: they are listed once.
fn push_unique(out: &mut Vec<Move>, start: usize, mv: Move) {
    if out[start..].iter().any(|m| m.from() == mv.from() && m.to() == mv.to() && m.captured() == mv.captured()) {
        return;
    }
    out.push(mv);
}

/// Whether the move's checker is a pawn that reached its king row on the way
/// and goes on as a king (so is crowned when the move ends wherever it ends).
pub(super) fn crowned_on_the_way(board: &Board, mv: &Move, kind: Kind, player: Player) -> bool {
    kind == Kind::Pawn
        && mv.is_jump()
        && board.movement().crowned_mid_capture == CrownedMidCapture::GoesOnAsKing
        && mv.landings().any(|sq| board.orientation().king_row(player).contains(sq))
}

#[cfg(test)]
mod tests {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::{Rng, SeedableRng};

    use super::*;
    use crate::kernel::board::{Checker, Crowning, Supply};
    use crate::kernel::moves::{Generator, legal_moves_under};
    use crate::kernel::walls::{Edge, Side};

    fn below(rng: &mut ChaCha8Rng, n: u32) -> u32 {
        rng.next_u32() % n
    }

    /// A random board: checkers anywhere, some kings and emperors, walls.
    fn random_board(rng: &mut ChaCha8Rng) -> Board {
        let mut board = Board::empty(Supply::STANDARD, Crowning::Free);
        for sq in Square::all() {
            if below(rng, 3) == 0 {
                let owner = if below(rng, 2) == 0 { Player::Dark } else { Player::Light };
                let kind = match below(rng, 10) {
                    0..6 => Kind::Pawn,
                    6..9 => Kind::King,
                    _ => Kind::Emperor,
                };
                board.set_checker(sq, Checker::new(owner, kind)).unwrap();
            }
        }
        for _ in 0..below(rng, 6) {
            let sq = Square::new(below(rng, 64) as u8).unwrap();
            let side = if below(rng, 2) == 0 { Side::North } else { Side::East };
            if let Some(edge) = Edge::new(sq, side) {
                let owner = if below(rng, 2) == 0 { Player::Dark } else { Player::Light };
                board.set_wall(owner, edge).ok();
            }
        }
        board
    }

    /// The general generator, given R4's movement, lists what R4's own
    /// generator lists, in the same order: walls, emperors (R4.6), the king row
    /// ending a capture (R4.4) and the three switches included.
    #[test]
    fn american_movement_agrees_with_r4s_generator() {
        let mut rng = ChaCha8Rng::seed_from_u64(26);
        let (mut general, mut own) = (Vec::new(), Vec::new());
        let mut captures = 0;
        for _ in 0..4000 {
            let board = random_board(&mut rng);
            let rules = MoveRules {
                pawns_step_back: below(&mut rng, 4) == 0,
                capture_optional: below(&mut rng, 4) == 0,
                closed: Bitboard(rng.next_u64() & rng.next_u64() & rng.next_u64()),
                ..MoveRules::STANDARD
            };
            for player in Player::BOTH {
                Rulebook::new(&board, player, Bitboard::ALL, &rules).legal(&mut general);
                legal_moves_under(&board, player, Bitboard::ALL, &rules, &mut own);
                assert_eq!(general, own, "{board:?} {rules:?}");
                captures += own.iter().filter(|m| m.is_jump()).count();
                let generator = Generator::new(&board, player, Bitboard::ALL).under(&rules);
                let book = Rulebook::new(&board, player, Bitboard::ALL, &rules);
                assert_eq!(book.any_capture(), !generator.jumpers().is_empty());
                assert_eq!(book.any_move(), !own.is_empty());
            }
        }
        assert!(captures > 1000, "enough captures compared ({captures})");
    }
}
