//! Checker moves: steps and jump chains (R4), blocked by walls (R5.3–R5.5).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::bitboard::Bitboard;
use super::board::{Board, Kind, RuleResult, refuse};
use super::event::{BoardEvent, Journal};
use super::movement::{Capturing, Movement, PieceMoves, Ways};
use super::player::Player;
use super::rulebook::{Rulebook, crowned_on_the_way};
use super::square::{Dir, ParseError, Square};

/// Most jumps in one chain: every jump captures a different opposing checker, and a
/// player has at most 12 (R1.3).
pub const MAX_JUMPS: usize = 12;

/// Room for the moves of most positions, so that listing them seldom grows the list.
pub const TYPICAL_MOVES: usize = 32;

/// A checker move: a step (one landing, nothing captured) or a capture (one
/// landing per checker taken). Invariant: `len >= 1`, and `captured` has `len`
/// squares for a capture and none for a step.
///
/// Two moves are equal when they go the same way (start and landings): in one
/// position that says which checkers a move takes. A move read from text
/// without a position ([`Move::from_text`]) estimates a flying capture's
/// checker; the game plays the listed move its path names.
#[derive(Clone, Copy)]
pub struct Move {
    from: Square,
    len: u8,
    landings: [u8; MAX_JUMPS],
    /// Whether the checker leaves the board from its last landing (a move a
    /// script offers, `a1-off`); the kernel's generators never make one.
    exits: bool,
    captured: Bitboard,
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.from == other.from
            && self.len == other.len
            && self.landings == other.landings
            && self.is_jump() == other.is_jump()
            && self.exits == other.exits
    }
}

impl Eq for Move {}

impl std::hash::Hash for Move {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.from, self.len, self.landings, self.is_jump(), self.exits).hash(state);
    }
}

impl Move {
    pub fn step(from: Square, to: Square) -> Move {
        let mut landings = [0; MAX_JUMPS];
        landings[0] = to.index() as u8;
        Move { from, len: 1, landings, exits: false, captured: Bitboard::EMPTY }
    }

    /// A move as a script offers it (cards/README.md, "Moves a script
    /// offers"): from `from` by `landings` (at least one; the last may be
    /// `from` itself, a loop or a capture in place), taking the checkers on
    /// `captured`, and leaving the board from the last landing if `exits`.
    /// Whether it is legal is the position's to say.
    pub fn offered(from: Square, landings: &[Square], captured: Bitboard, exits: bool) -> RuleResult<Move> {
        if landings.is_empty() || landings.len() > MAX_JUMPS {
            refuse!("a move has one to {MAX_JUMPS} landings, not {}", landings.len());
        }
        if landings.len() > 1 && captured.is_empty() {
            refuse!("a move with several landings must capture");
        }
        let mut mv = Move { from, len: landings.len() as u8, landings: [0; MAX_JUMPS], exits, captured };
        for (slot, sq) in mv.landings.iter_mut().zip(landings) {
            *slot = sq.index() as u8;
        }
        Ok(mv)
    }

    /// Whether the checker leaves the board when the move ends (see [`Move::offered`]).
    pub fn exits(&self) -> bool {
        self.exits
    }

    pub fn from(&self) -> Square {
        self.from
    }

    pub fn to(&self) -> Square {
        self.landing(self.len as usize - 1)
    }

    pub fn is_jump(&self) -> bool {
        self.captured.any()
    }

    /// Squares of the checkers this move captures.
    pub fn captured(&self) -> Bitboard {
        self.captured
    }

    /// The captured squares in the order the move jumps them: along each hop
    /// from the square before it (a flying king's too).
    pub fn captured_in_order(&self) -> smallvec::SmallVec<[Square; MAX_JUMPS]> {
        self.captures_in_order().into_iter().map(|(taken, _)| taken).collect()
    }

    /// [`Move::captured_in_order`], each taken square with the square its
    /// capturer stood on once it had taken it: the landing of that hop, or,
    /// for a capture in place (a hop that lands on the taken square and a next
    /// one that goes back), the next landing.
    pub fn captures_in_order(&self) -> smallvec::SmallVec<[(Square, Square); MAX_JUMPS]> {
        // One or none needs no path walked (most captures, in play's hot path).
        if self.captured.count() <= 1 {
            return self.captured.into_iter().map(|taken| (taken, self.to())).collect();
        }
        let mut left = self.captured;
        let mut at = self.from;
        let mut ordered: smallvec::SmallVec<[(Square, Square); MAX_JUMPS]> = smallvec::SmallVec::new();
        // A capture in place whose capturer has not landed beyond it yet.
        let mut in_place: Option<usize> = None;
        for landing in self.landings() {
            if let Some(i) = in_place.take() {
                ordered[i].1 = landing;
            }
            let (df, dr) = ((landing.file() - at.file()).signum(), (landing.rank() - at.rank()).signum());
            let mut sq = at;
            while sq != landing {
                let Some(next) = Square::at(sq.file() + df, sq.rank() + dr) else { break };
                sq = next;
                if left.contains(sq) {
                    left.remove(sq);
                    ordered.push((sq, landing));
                    if sq == landing {
                        in_place = Some(ordered.len() - 1);
                    }
                }
            }
            at = landing;
        }
        // Whatever a path does not pass (none, for a move the generator made).
        ordered.extend(left.into_iter().map(|taken| (taken, self.to())));
        ordered
    }

    /// Landing squares in order (one for a step).
    pub fn landings(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.len as usize).map(|i| self.landing(i))
    }

    fn landing(&self, i: usize) -> Square {
        Square::new(self.landings[i]).expect("Move invariant: landings are squares")
    }

    /// The number of landings so far (captures of a chain being built).
    pub(super) fn jumps(&self) -> usize {
        self.len as usize
    }

    /// Empties the landings of a chain about to be built from `from`.
    pub(super) fn clear_landings(&mut self) {
        self.len = 0;
    }

    /// Adds a capture of the checker on `taken` landing on `land`.
    pub(super) fn push_capture(&mut self, land: Square, taken: Bitboard) {
        self.landings[self.len as usize] = land.index() as u8;
        self.len += 1;
        self.captured |= taken;
    }

    /// Listing order: start, then the number of landings, then the landings.
    pub(super) fn sort_key(&self) -> (Square, u8, [u8; MAX_JUMPS]) {
        (self.from, self.len, self.landings)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Piece by piece, without formatting machinery: every move a script
        // lists is written out.
        f.write_str(self.from.name())?;
        let sep = if self.is_jump() { "x" } else { "-" };
        // A checker leaving from where it stands is written `a1-off` alone.
        let stays = self.exits && !self.is_jump() && self.to() == self.from;
        if !stays {
            for sq in self.landings() {
                f.write_str(sep)?;
                f.write_str(sq.name())?;
            }
        }
        if self.exits {
            f.write_str("-off")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

/// A move as written, `c3-d4` or `c3xe5xg7`, before it is matched against the
/// legal moves of a position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MoveText {
    pub squares: Vec<Square>,
    pub jump: bool,
    /// Written with a last `-off`: the checker leaves the board.
    pub exits: bool,
}

impl FromStr for MoveText {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<MoveText, ParseError> {
        let text = s.trim().to_ascii_lowercase();
        let (text, exits) = match text.strip_suffix("-off") {
            Some(rest) => (rest.to_string(), true),
            None => (text, false),
        };
        let jump = text.contains('x');
        let squares = text
            .split(['-', 'x'])
            .map(|part| part.parse::<Square>().map_err(|e| e.to_string()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("'{s}' is not a move ({e}); write steps like c3-d4 and jumps like c3xe5xg7"))?;
        if squares.len() < 2 - usize::from(exits) || (text.contains('x') && text.contains('-')) {
            return Err(ParseError(format!("'{s}' is not a move; write steps like c3-d4 and jumps like c3xe5xg7")));
        }
        Ok(MoveText { squares, jump, exits })
    }
}

impl MoveText {
    /// Does this text name `mv`? A jump may be abbreviated to its start and end.
    pub fn matches(&self, mv: &Move) -> bool {
        if self.jump != mv.is_jump() || self.squares[0] != mv.from() || self.exits != mv.exits() {
            return false;
        }
        let rest = &self.squares[1..];
        if rest.is_empty() {
            return mv.to() == mv.from() && !mv.is_jump();
        }
        rest.iter().copied().eq(mv.landings()) || (rest.len() == 1 && rest[0] == mv.to())
    }
}

impl Serialize for Move {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A move read back (from a save or a question answer) without a position: the
/// captured squares are those between consecutive landings.
impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        let text: MoveText = String::deserialize(d)?.parse().map_err(serde::de::Error::custom)?;
        Move::from_text(&text).map_err(|e| serde::de::Error::custom(e.0))
    }
}

impl Move {
    /// Rebuilds a move from its full written form, without a position.
    pub fn from_text(text: &MoveText) -> RuleResult<Move> {
        let from = text.squares[0];
        let hops = &text.squares[1..];
        if hops.is_empty() {
            // `a1-off`: leaving the board from where it stands.
            return Move::offered(from, &[from], Bitboard::EMPTY, text.exits);
        }
        if hops.len() > MAX_JUMPS || (!text.jump && hops.len() != 1) {
            refuse!("a move has one step or at most {MAX_JUMPS} jumps");
        }
        let mut mv = Move::step(from, hops[0]);
        mv.len = hops.len() as u8;
        mv.exits = text.exits;
        let mut at = from;
        for (i, &to) in hops.iter().enumerate() {
            mv.landings[i] = to.index() as u8;
            let between = super::rulebook::line_between(at, to);
            // A step may go anywhere a deck's moves or a script allow; the
            // position's move list says whether it is legal.
            if at == to || (text.jump && between.is_empty()) {
                refuse!("{at} to {to} is not a {}", if text.jump { "capture along a line" } else { "step" });
            }
            if text.jump {
                // The checker next to the landing: exact for a short jump,
                // an estimate for a flying one (see `Move`).
                let before = between
                    .into_iter()
                    .min_by_key(|sq| (sq.file() - to.file()).abs().max((sq.rank() - to.rank()).abs()));
                mv.captured |= Bitboard::from(before.expect("a capture passes a square"));
            }
            at = to;
        }
        Ok(mv)
    }
}

/// What playing a move did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Played {
    /// Opposing checkers captured.
    pub captures: u32,
    /// Whether the moving checker was an emperor (R9.4 counts its captures).
    pub by_emperor: bool,
}

/// Which checkers may move, from cards (R4.8): `Bitboard::ALL` when unconstrained.
pub type MoverMask = Bitboard;

/// How lasting effects change the deck's moves for one player: plain data the
/// move generator reads (cards/README.md, "Lasting effects"). With
/// [`MoveRules::STANDARD`] on American checkers ([`Movement::AMERICAN`]) the
/// generator takes R4's own path; three switches keep that path, added moves
/// (`pawns`, `kings`) or another deck's movement take the general one
/// (rulebook.rs).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MoveRules {
    /// Pawns may also step (not jump) one square diagonally backward.
    pub pawns_step_back: bool,
    /// Squares no checker may move onto, by a step or a jump's landing.
    pub closed: Bitboard,
    /// Capture is not compulsory (R4.3 lifted): steps are offered beside jumps.
    pub capture_optional: bool,
    /// Ways, reach or flight added to pawns' moves.
    pub pawns: PieceMoves,
    /// Ways, reach or flight added to kings' and emperors' moves.
    pub kings: PieceMoves,
}

impl MoveRules {
    pub const STANDARD: MoveRules = MoveRules {
        pawns_step_back: false,
        closed: Bitboard::EMPTY,
        capture_optional: false,
        pawns: PieceMoves::NONE,
        kings: PieceMoves::NONE,
    };

    /// Whether these rules need the general generator on `board`.
    #[inline]
    fn general(&self, board: &Board) -> bool {
        !board.moves_american() || !self.pawns.is_none() || !self.kings.is_none()
    }

    /// The deck's `movement` with these changes.
    pub fn applied_to(&self, movement: Movement) -> Movement {
        let mut m = movement.with(self.pawns, self.kings);
        if self.pawns_step_back {
            m.pawns.steps = m.pawns.steps.union(Ways::BACKWARD_DIAGONALS);
        }
        if self.capture_optional {
            m.capture = Capturing::Optional;
        }
        m
    }

    /// Both sets of changes at once.
    pub fn with(self, other: MoveRules) -> MoveRules {
        MoveRules {
            pawns_step_back: self.pawns_step_back || other.pawns_step_back,
            closed: self.closed | other.closed,
            capture_optional: self.capture_optional || other.capture_optional,
            pawns: self.pawns.with(other.pawns),
            kings: self.kings.with(other.kings),
        }
    }
}

/// R4: the legal checker moves of `player` among checkers in `allowed`.
/// Capture is compulsory among the allowed checkers (R4.3, R4.8).
///
/// Moves are pushed onto `out` (cleared first). A `Vec` rather than a fixed array:
/// the number of distinct jump chains has no small proven bound once kings and
/// emperors roam, and the buffer is reused by callers so hot loops do not allocate.
pub fn legal_moves(board: &Board, player: Player, allowed: MoverMask, out: &mut Vec<Move>) {
    if !board.moves_american() {
        return Rulebook::new(board, player, allowed, &MoveRules::STANDARD).legal(out);
    }
    out.clear();
    let generator = Generator::new(board, player, allowed);
    generator.jumps(out);
    if out.is_empty() {
        generator.steps(out);
    }
}

/// [`legal_moves`] under the changes `rules` makes; with capture optional,
/// steps follow the jumps.
pub fn legal_moves_under(board: &Board, player: Player, allowed: MoverMask, rules: &MoveRules, out: &mut Vec<Move>) {
    if *rules == MoveRules::STANDARD {
        return legal_moves(board, player, allowed, out);
    }
    if rules.general(board) {
        return Rulebook::new(board, player, allowed, rules).legal(out);
    }
    out.clear();
    let generator = Generator::new(board, player, allowed).under(rules);
    generator.jumps(out);
    if out.is_empty() || rules.capture_optional {
        generator.steps(out);
    }
}

/// Whether [`legal_moves_under`] would list any move, without listing them: a
/// checker with a first jump has a jump chain, else any step will do.
pub fn any_legal_move_under(board: &Board, player: Player, allowed: MoverMask, rules: &MoveRules) -> bool {
    if rules.general(board) {
        return Rulebook::new(board, player, allowed, rules).any_move();
    }
    let generator = Generator::new(board, player, allowed).under(rules);
    !generator.jumpers().is_empty() || Dir::DIAGONALS.iter().any(|&d| !generator.step_targets(d).is_empty())
}

/// Whether [`legal_moves_under`] would list a jump (they come first, R4.3),
/// without making any jump chain: a checker with a first jump has one.
pub fn any_jump_under(board: &Board, player: Player, allowed: MoverMask, rules: &MoveRules) -> bool {
    if rules.general(board) {
        let mut moves = Vec::new();
        Rulebook::new(board, player, allowed, rules).captures(&mut moves);
        return !moves.is_empty();
    }
    !Generator::new(board, player, allowed).under(rules).jumpers().is_empty()
}

/// Whether [`legal_moves_under`] would list `mv`, generating only the moves of
/// its checker: a step is legal only when no mover has a jump (R4.3), unless
/// `rules` make capture optional.
pub fn is_legal_under(board: &Board, player: Player, allowed: MoverMask, rules: &MoveRules, mv: &Move) -> bool {
    if !allowed.contains(mv.from()) {
        return false;
    }
    if rules.general(board) {
        // The preferences compare captures of different checkers: list them all.
        let mut moves = Vec::new();
        Rulebook::new(board, player, allowed, rules).legal(&mut moves);
        return moves.contains(mv);
    }
    let own = Generator::new(board, player, Bitboard::from_square(mv.from())).under(rules);
    if mv.is_jump() {
        let mut chains = Vec::new();
        own.collect_jumps(&mut chains);
        return chains.contains(mv);
    }
    let capture_due =
        !rules.capture_optional && !Generator::new(board, player, allowed).under(rules).jumpers().is_empty();
    !capture_due
        && Dir::DIAGONALS.iter().any(|&d| mv.from().step(d) == Some(mv.to()) && own.step_targets(d).contains(mv.to()))
}

/// Orders jump chains by start square, then landings, so listings read naturally.
fn sort_jumps(out: &mut [Move]) {
    if out.len() > 1 {
        out.sort_unstable_by_key(|m| (m.from, m.len, m.landings));
    }
}

/// Like [`legal_moves`], but moves ending in `avoid` are not allowed; capture is
/// compulsory among the moves that are (R4.8's reading, used by R8.16).
pub fn legal_moves_avoiding(
    board: &Board,
    player: Player,
    allowed: MoverMask,
    avoid: Bitboard,
    rules: &MoveRules,
    out: &mut Vec<Move>,
) {
    out.clear();
    if rules.general(board) {
        let book = Rulebook::new(board, player, allowed, rules);
        book.captures(out);
        out.retain(|m| !avoid.contains(m.to()));
        if out.is_empty() || book.capture_optional() {
            book.steps(out);
            out.retain(|m| !avoid.contains(m.to()));
        }
        return;
    }
    let generator = Generator::new(board, player, allowed).under(rules);
    generator.jumps(out);
    out.retain(|m| !avoid.contains(m.to()));
    if out.is_empty() || rules.capture_optional {
        generator.steps(out);
        out.retain(|m| !avoid.contains(m.to()));
    }
}

/// Whether [`legal_moves_avoiding`] would list any move, without listing them.
/// It lists the jumps not ending in `avoid`, or if there are none the steps not
/// ending there, so a move exists exactly when either kind does: a step is
/// looked for first (bitboards only), jump chains only when there is none.
pub fn any_legal_move_avoiding(
    board: &Board,
    player: Player,
    allowed: MoverMask,
    avoid: Bitboard,
    rules: &MoveRules,
    buf: &mut Vec<Move>,
) -> bool {
    if rules.general(board) {
        legal_moves_avoiding(board, player, allowed, avoid, rules, buf);
        return !buf.is_empty();
    }
    let generator = Generator::new(board, player, allowed).under(rules);
    if Dir::DIAGONALS.iter().any(|&d| (generator.step_targets(d) - avoid).any()) {
        return true;
    }
    if generator.jumpers().is_empty() {
        return false;
    }
    buf.clear();
    generator.collect_jumps(buf);
    buf.iter().any(|m| !avoid.contains(m.to()))
}

/// The number of legal moves, faster than generating them when there is no jump.
pub fn count_moves(board: &Board, player: Player, buf: &mut Vec<Move>) -> usize {
    if !board.moves_american() {
        return Rulebook::new(board, player, Bitboard::ALL, &MoveRules::STANDARD).count(buf);
    }
    let generator = Generator::new(board, player, Bitboard::ALL);
    if generator.jumpers().is_empty() {
        return Dir::DIAGONALS.iter().map(|&d| generator.step_targets(d).count() as usize).sum();
    }
    buf.clear();
    generator.jumps(buf);
    buf.len()
}

pub(super) struct Generator<'a> {
    board: &'a Board,
    player: Player,
    empty: Bitboard,
    /// Per `Dir::DIAGONALS` index: squares from which the step is blocked.
    blocked: [Bitboard; 4],
    /// Per `Dir::DIAGONALS` index: movers that may go that way (kings, or pawns forward).
    may_go: [Bitboard; 4],
    /// Per `Dir::DIAGONALS` index: movers that may step that way (`may_go`, and
    /// pawns backward under [`MoveRules::pawns_step_back`]).
    may_step: [Bitboard; 4],
    /// Where a step or a jump may land: empty and not closed.
    landing: Bitboard,
    /// Squares no move may land on ([`MoveRules::closed`]).
    closed: Bitboard,
}

impl<'a> Generator<'a> {
    #[inline]
    pub(super) fn new(board: &'a Board, player: Player, allowed: MoverMask) -> Generator<'a> {
        // R4.7: frozen checkers do not move.
        let movers = (board.checkers(player) & allowed) - board.tokens(super::board::Token::Hippo);
        let orientation = board.orientation();
        let blocked = Dir::DIAGONALS.map(|d| board.blocked_for(player, d));
        let may_go =
            Dir::DIAGONALS.map(|d| if orientation.is_forward(player, d) { movers } else { movers & board.kings() });
        let empty = board.empty_squares();
        Generator { board, player, empty, blocked, may_go, may_step: may_go, landing: empty, closed: Bitboard::EMPTY }
    }

    /// The same generator under the changes `rules` makes.
    pub(super) fn under(mut self, rules: &MoveRules) -> Generator<'a> {
        if rules.pawns_step_back {
            let movers = self.may_go.iter().fold(Bitboard::EMPTY, |all, &m| all | m);
            self.may_step = [movers; 4];
        }
        self.landing = self.empty - rules.closed;
        self.closed = rules.closed;
        self
    }

    #[inline]
    fn step_targets(&self, i_dir: Dir) -> Bitboard {
        let i = dir_index(i_dir);
        (self.may_step[i] - self.blocked[i]).shift(i_dir) & self.landing
    }

    /// Pushes every step after what `out` holds.
    ///
    /// Ordered by source square, then target, so listings read naturally: each
    /// source's targets are taken in the order of their index offsets (-9, -7,
    /// +7, +9), which is their square order, so nothing needs sorting.
    fn steps(&self, out: &mut Vec<Move>) {
        const BY_TARGET: [Dir; 4] = [Dir::SW, Dir::SE, Dir::NW, Dir::NE];
        let sources = BY_TARGET.map(|d| self.step_targets(d).shift(d.opposite()));
        for from in sources[0] | sources[1] | sources[2] | sources[3] {
            for (&dir, movers) in BY_TARGET.iter().zip(&sources) {
                if movers.contains(from) {
                    out.push(Move::step(from, from.step(dir).expect("a source has a target")));
                }
            }
        }
    }

    /// Movers with at least one first jump (R4.2, R4.5, R4.6, R5.5).
    pub(super) fn jumpers(&self) -> Bitboard {
        let opp = self.board.checkers(!self.player);
        let emperors = self.board.emperors();
        let mut found = Bitboard::EMPTY;
        for (i, dir) in Dir::DIAGONALS.into_iter().enumerate() {
            let back = dir.opposite();
            let landing_ok = self.landing.shift(back).shift(back);
            let mid_plain = (opp - emperors).shift(back) & !self.blocked[i].shift(back);
            let mid_any = opp.shift(back) & !self.blocked[i].shift(back);
            let go = self.may_go[i] - self.blocked[i];
            let mine_emp = go & emperors;
            // Landing squares are two steps away; the mid square's step must be unblocked too.
            found |= go & mid_plain & landing_ok;
            found |= mine_emp & mid_any & landing_ok;
        }
        found
    }

    fn jumps(&self, out: &mut Vec<Move>) {
        self.collect_jumps(out);
        sort_jumps(out);
    }

    fn collect_jumps(&self, out: &mut Vec<Move>) {
        let start = out.len();
        for from in self.jumpers() {
            let Some(checker) = self.board.checker(from) else {
                continue;
            };
            let opp = self.board.checkers(!self.player);
            // R4.6: an emperor can be jumped only by an emperor.
            let prey = if checker.kind == Kind::Emperor { opp } else { opp - self.board.emperors() };
            let dirs: &[Dir] = if checker.kind == Kind::Pawn {
                &self.board.orientation().pawn_dirs(self.player)
            } else {
                &Dir::DIAGONALS
            };
            let mut chain = Chain {
                mv: Move::step(from, from),
                prey,
                // The jumper's own square is vacated as soon as it leaves (a king may loop back).
                empty: self.landing | (Bitboard::from_square(from) - self.closed),
                dirs,
                king_row: if checker.kind == Kind::Pawn {
                    self.board.orientation().king_row(self.player)
                } else {
                    Bitboard::EMPTY
                },
            };
            chain.mv.len = 0;
            self.extend(&mut chain, from, out, start);
        }
    }

    fn extend(&self, chain: &mut Chain, at: Square, out: &mut Vec<Move>, start: usize) {
        let mut continued = false;
        for &dir in chain.dirs {
            let i = dir_index(dir);
            let Some(mid) = at.step(dir) else { continue };
            let Some(land) = mid.step(dir) else { continue };
            if !chain.prey.contains(mid)
                || chain.mv.captured.contains(mid)
                || !chain.empty.contains(land)
                || self.blocked[i].contains(at)
                || self.blocked[i].contains(mid)
            {
                continue;
            }
            continued = true;
            let saved = chain.mv;
            chain.mv.landings[chain.mv.len as usize] = land.index() as u8;
            chain.mv.len += 1;
            chain.mv.captured.insert(mid);
            if chain.king_row.contains(land) || chain.mv.len as usize == MAX_JUMPS {
                // R4.4: reaching the king row ends the move, even mid-chain.
                push_unique(out, start, chain.mv);
            } else {
                self.extend(chain, land, out, start);
            }
            chain.mv = saved;
        }
        if !continued && chain.mv.len > 0 {
            push_unique(out, start, chain.mv);
        }
    }
}

struct Chain<'d> {
    mv: Move,
    prey: Bitboard,
    empty: Bitboard,
    dirs: &'d [Dir],
    king_row: Bitboard,
}

/// Two chains that capture the same checkers between the same squares leave the
/// same position; list them once. Only loops (four or more captures) can repeat.
fn push_unique(out: &mut Vec<Move>, start: usize, mv: Move) {
    if mv.captured.count() >= 4
        && out[start..].iter().any(|m| m.from == mv.from && m.to() == mv.to() && m.captured == mv.captured)
    {
        return;
    }
    out.push(mv);
}

#[inline]
fn dir_index(dir: Dir) -> usize {
    match dir {
        Dir::NE => 0,
        Dir::SE => 1,
        Dir::SW => 2,
        Dir::NW => 3,
        _ => unreachable!("checker moves are diagonal"),
    }
}

/// One hop of a move played hop by hop ([`Board::play_hop`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Hop {
    /// Where the move began.
    pub start: Square,
    pub from: Square,
    pub to: Square,
    /// The checker this hop jumps, if it is a jump.
    pub taken: Option<Square>,
    /// From 1.
    pub number: u8,
    /// The last hop of the move as chosen.
    pub last: bool,
}

impl Board {
    /// Plays a legal move for its mover: captured checkers go to their owner's
    /// reserve (R4.9), then waiting pawns are crowned (R4.4, R6.2).
    ///
    /// The caller passes a move from [`legal_moves`] for this board; the checks
    /// here only keep the board's invariants if it does not.
    pub fn play(&mut self, mv: &Move, log: &mut impl Journal) -> RuleResult<Played> {
        if !self.moves_american() || mv.captured().contains(mv.to()) || mv.exits() {
            return self.play_as_the_deck_says(mv, log);
        }
        let Some(checker) = self.checker(mv.from()) else { refuse!("there is no checker on {}", mv.from()) };
        if mv.to() != mv.from() && !self.is_empty(mv.to()) {
            refuse!("{} is not empty (R4.5)", mv.to());
        }
        let played = Played { captures: mv.captured().count(), by_emperor: checker.kind == Kind::Emperor };
        // Told as the move, then what it captured (the order the player reads);
        // redone in that order the board comes out the same.
        log.record(|| BoardEvent::Moved {
            from: mv.from(),
            to: mv.to(),
            via: mv.landings().take(mv.len as usize - 1).collect(),
            id: checker.id,
            hops: false,
        });
        self.capture_all(mv.captures_in_order(), mv.from(), log);
        self.shift_checker(mv.from(), mv.to());
        self.settle_crowns(log);
        Ok(played)
    }

    /// Whether the pawn making `mv` is crowned on its way under the deck's
    /// moves (a pawn that reaches its king row mid-capture goes on as a king).
    pub fn crowns_on_the_way(&self, mv: &Move) -> bool {
        self.checker(mv.from()).is_some_and(|c| super::rulebook::crowned_on_the_way(self, mv, c.kind, c.owner))
    }

    /// One hop of a move played hop by hop (the game's `on_landed` handlers
    /// run between hops): the checker on `from` takes the checker on `taken`,
    /// if any, and lands on `to`. `start` is where the move began, `hop` the
    /// hop's number from 1. No crowning: it comes when the move is over.
    pub fn play_hop(&mut self, hop: Hop, log: &mut impl Journal) -> RuleResult<()> {
        let Some(checker) = self.checker(hop.from) else { refuse!("there is no checker on {}", hop.from) };
        if hop.to != hop.from && !self.is_empty(hop.to) {
            refuse!("{} is not empty (R4.5)", hop.to);
        }
        if let Some(taken) = hop.taken
            && self.owner(taken) != Some(!checker.owner)
        {
            refuse!("{taken} holds no opposing checker to take");
        }
        let Hop { start, from, to, number, last, .. } = hop;
        log.record(|| BoardEvent::Landed { from, at: to, hop: number, last, id: checker.id });
        if let Some(taken) = hop.taken {
            self.capture_by([(taken, to)], start, checker.id, log);
        }
        self.shift_checker(from, to);
        Ok(())
    }

    /// [`Board::play`] under a deck's movement: a capture may end where a
    /// checker it took stood (removal at once), and a pawn crowned on the way
    /// goes on as a king. Apart so that American checkers' path stays small.
    #[cold]
    #[inline(never)]
    fn play_as_the_deck_says(&mut self, mv: &Move, log: &mut impl Journal) -> RuleResult<Played> {
        let Some(checker) = self.checker(mv.from()) else { refuse!("there is no checker on {}", mv.from()) };
        if mv.to() != mv.from() && !self.is_empty(mv.to()) && !mv.captured().contains(mv.to()) {
            refuse!("{} is not empty (R4.5)", mv.to());
        }
        if (mv.captured() - self.checkers(!checker.owner)).any() {
            refuse!("{mv} would capture squares without an opposing checker");
        }
        let played = Played { captures: mv.captured().count(), by_emperor: checker.kind == Kind::Emperor };
        let crowned_on_the_way = crowned_on_the_way(self, mv, checker.kind, checker.owner);
        // A capture that ends where a checker it took stood is told after its
        // captures, so that redoing them in order does not take the mover.
        let moved = || BoardEvent::Moved {
            from: mv.from(),
            to: mv.to(),
            via: mv.landings().take(mv.len as usize - 1).collect(),
            id: checker.id,
            hops: false,
        };
        let ends_where_one_stood = mv.captured().contains(mv.to());
        if !ends_where_one_stood {
            log.record(moved);
        }
        self.capture_all(mv.captures_in_order(), mv.from(), log);
        if ends_where_one_stood {
            log.record(moved);
        }
        self.shift_checker(mv.from(), mv.to());
        if mv.exits() {
            let checker = self.checker(mv.to()).expect("the mover stands on its last landing");
            self.lift(mv.to(), checker, super::pools::Leaving::Exited);
            log.record(|| BoardEvent::Removed { at: mv.to(), checker, reason: super::event::Removal::Exited });
        } else if crowned_on_the_way {
            // With no piece in the reserve to crown with it stays a pawn (R6.1).
            self.crown_pawn(mv.to(), log).ok();
        }
        self.settle_crowns(log);
        Ok(played)
    }
}
