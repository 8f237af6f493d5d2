//! Alpha-beta search for the move steps where nothing is hidden and no card
//! can matter: a deck without cards, planets, lasting effects or constraints
//! (plain checkers, R11, and the card-free draughts decks). There the game is
//! one of perfect information over the kernel's [`Board`], and a depth-first
//! search over the kernel's own move generator ([`legal_moves_under`],
//! [`Board::play`]) sees further than sampling can.
//!
//! - Negamax with principal-variation windows, iterative deepening and a
//!   transposition table (cleared at each decision, so a decision depends on
//!   its position, the game's earlier positions and the budget only).
//! - Captures are compulsory (R4.3), so a position with a capture due is
//!   never scored: the search goes on through every capture (quiescence), a
//!   forced reply costs no depth, and a quiet position whose opponent
//!   threatens a capture is searched one move further once, which is what
//!   shows a two-for-one shot before it is walked into.
//! - Ordering: the table's move, captures by size, two killers a ply, history.
//! - The game's end as the state's rules say: no checker left (R10.1), five
//!   kings where they win, a player without a move losing (R11) or passing
//!   (R3.1, R10.3), the move limit (R10.4) and the deck's kings-only draw
//!   (counted along the path from the state's count; the table does not key
//!   on it, as it does not on the turn).
//! - A position met before, in the game or on the path, scores as a draw: a
//!   side that is ahead does not shuffle back and forth, and one behind is
//!   glad to (the deck's repetition draw, `ends: repetition:`, needs more
//!   meetings: the search is stricter than the rule).
//! - The evaluation ([`evaluate`]) adds to material and structure an ending
//!   drive for the side ahead: trade down, bring the kings to the enemy, take
//!   the opposing kings' room, get them out of the double corner.
//!
//! [`dead_draw`] asks the search whether a level ending is drawn, for the
//! computer's answer to a draw offer.
//!
//! A budget in nodes makes a decision the same on every machine (architecture
//! invariant: decisions reproducible without a time limit); with a time limit
//! [`Limit::Paced`] spends a share of it, more when the best move changes or
//! its score falls, never past the limit.

use std::time::{Duration, Instant};

use rustc_hash::FxHashSet;

use crate::game::{GameState, RuleOptions, Step, WhenStuck};
use crate::kernel::{Bitboard, Board, Move, MoveRules, Player, Unrecorded, any_jump_under, legal_moves_under};

/// A won game's score at the root; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are wins or losses found by the search.
const WON: i32 = WIN - 1_000;
/// Deepest path, quiescence included.
const MAX_PLY: usize = 96;
/// Deepest iteration.
const MAX_DEPTH: i32 = 64;

/// Whether alpha-beta can decide `state`'s pending decision (nothing hidden, nothing scripted): a move step, no
/// cards or planets in the game (so nothing is hidden, R2.3, R2.4), no
/// lasting effect or constraint, whose scripts could change the moves, and
/// every end R10's own (a deck that scores an end asks its rules for a verdict).
pub fn fully_visible(state: &GameState) -> bool {
    matches!(state.step, Step::Move)
        && !state.rules.cards
        && state.rules.ends_as_written()
        && state.planets() == [None, None]
        && state.effects.is_empty()
        && state.constraint.is_none()
        && state.next_constraint.is_none()
}

/// How long a search may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// At most this many nodes: the same decision on every machine.
    Nodes(u64),
    /// By the clock, given the time limit: about an eighth of it, up to three
    /// times more while the best move changes or its score falls, and never
    /// past nine tenths of it.
    Paced(Duration),
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub best: Move,
    /// For the player to move, in hundredths of a pawn; `WIN - n`: a win in `n` plies.
    pub score: i32,
    /// The deepest iteration completed (0: the only move, not searched).
    pub depth: u32,
    pub nodes: u64,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: i16,
    depth: i8,
    bound: u8,
    /// Index of the best move in the position's move list (generation order is fixed), or `NO_MOVE`.
    best: u8,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;
const NO_MOVE: u8 = u8::MAX;

/// A position: the board, who moves, the turns played (for R10.4) and the
/// turns in a row with only kings moved (for the deck's kings-only draw).
#[derive(Clone, Copy)]
struct Pos {
    board: Board,
    to_move: Player,
    turn: u32,
    quiet: u16,
}

/// The searcher and its reusable tables; one per agent.
pub struct AlphaBeta {
    table: Vec<Entry>,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<u32>,
    lists: Vec<Vec<Move>>,
    path: Vec<u64>,
    /// Positions earlier in the game, by [`position_key`].
    seen: FxHashSet<u64>,
    rules: [MoveRules; 2],
    /// The game's rules: when it ends (R10), and what a stuck player does.
    game: RuleOptions,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
}

impl Default for AlphaBeta {
    fn default() -> AlphaBeta {
        AlphaBeta::new()
    }
}

impl AlphaBeta {
    pub fn new() -> AlphaBeta {
        AlphaBeta {
            table: Vec::new(),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 64 * 64],
            lists: (0..=MAX_PLY).map(|_| Vec::with_capacity(crate::kernel::TYPICAL_MOVES)).collect(),
            path: vec![0; MAX_PLY + 1],
            seen: FxHashSet::default(),
            rules: [MoveRules::STANDARD; 2],
            game: RuleOptions::PLAIN,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
        }
    }

    /// The best move of `state` (for which [`fully_visible`] holds) within `limit`;
    /// `earlier` are the game's earlier positions ([`position_key`]), which
    /// score as draws when met again. `None` when there is no legal move.
    pub fn search(&mut self, state: &GameState, earlier: &[u64], limit: Limit) -> Option<Found> {
        let start = Instant::now();
        self.rules = [state.move_rules(Player::Dark), state.move_rules(Player::Light)];
        self.game = state.rules;
        self.seen.clear();
        self.seen.extend(earlier.iter().copied());
        let quiet = state.draw_count().map_or(0, |c| c.quiet());
        let root = Pos { board: state.board, to_move: state.to_move, turn: state.turn, quiet };
        let mut moves = Vec::new();
        legal_moves_under(&root.board, root.to_move, Bitboard::ALL, &self.rules[root.to_move.index()], &mut moves);
        let first = *moves.first()?;
        if moves.len() == 1 {
            return Some(Found { best: first, score: 0, depth: 0, nodes: 0 });
        }
        let (node_limit, pace) = match limit {
            Limit::Nodes(n) => (n.max(1), None),
            Limit::Paced(limit) => (u64::MAX, Some(limit)),
        };
        self.prepare(node_limit);
        self.deadline = pace.map(|limit| start + limit.mul_f64(0.9));
        let mut found = Found { best: first, score: 0, depth: 0, nodes: 0 };
        let mut order: Vec<usize> = (0..moves.len()).collect();
        let mut last_score = None;
        for depth in 1..=MAX_DEPTH {
            let (score, best) = self.root(&root, &moves, &mut order, depth);
            let changed = best.is_some_and(|b| b != found.best);
            if let Some(best) = best {
                found.best = best;
                found.score = score;
            }
            if self.stopped {
                break;
            }
            found.depth = depth as u32;
            if found.score.abs() > WON && depth > 2 * (WIN - found.score.abs()) {
                break; // A forced result, seen to its end.
            }
            if let Some(limit) = pace {
                let mut share = limit.mul_f64(0.125);
                if changed && depth > 4 {
                    share = share.mul_f64(2.0);
                }
                if last_score.is_some_and(|s: i32| found.score < s - 30) {
                    share = share.mul_f64(1.5);
                }
                // The next iteration takes a few times this one: start it only if it may end in time.
                if start.elapsed() * 2 > share {
                    break;
                }
            }
            last_score = Some(found.score);
        }
        found.nodes = self.nodes;
        Some(found)
    }

    /// Clears the tables for a new decision; the table's size follows the budget.
    fn prepare(&mut self, node_limit: u64) {
        let bits = (64 - node_limit.min(1 << 40).leading_zeros()).clamp(14, 21);
        let size = 1usize << bits;
        if self.table.len() != size {
            self.table = vec![Entry::default(); size];
        } else {
            self.table.fill(Entry::default());
        }
        self.killers.fill([None; 2]);
        self.history.fill(0);
        self.nodes = 0;
        self.node_limit = node_limit;
        self.stopped = false;
    }

    /// One iteration at the root: the moves in `order` (the last best first).
    /// Returns the score and best move, `None` if stopped before any move was searched.
    fn root(&mut self, pos: &Pos, moves: &[Move], order: &mut [usize], depth: i32) -> (i32, Option<Move>) {
        self.path[0] = position_key(&pos.board, pos.to_move);
        let mut alpha = -WIN - 1;
        let beta = WIN + 1;
        let mut best: Option<(usize, i32)> = None;
        for (n, &i) in order.iter().enumerate() {
            let score = if n == 0 {
                self.child(pos, &moves[i], depth - 1, alpha, beta, 0, false)
            } else {
                let probe = self.child(pos, &moves[i], depth - 1, alpha, alpha + 1, 0, false);
                if probe > alpha && !self.stopped {
                    self.child(pos, &moves[i], depth - 1, alpha, beta, 0, false)
                } else {
                    probe
                }
            };
            if self.stopped {
                break;
            }
            if score > alpha {
                alpha = score;
                best = Some((n, score));
            }
        }
        match best {
            Some((n, score)) => {
                order[..=n].rotate_right(1);
                (score, Some(moves[order[0]]))
            }
            None => (alpha, None),
        }
    }

    /// The score for `mover` if the game is over after their move (R10.1,
    /// R10.2: the mover's win is checked first; R10.4; the deck's kings-only
    /// draw after `quiet` such turns).
    fn ended(&self, board: &Board, mover: Player, turn: u32, quiet: u16, ply: usize) -> Option<i32> {
        let win = WIN - ply as i32;
        let wins = |p: Player| self.game.board_win(board, p).is_some();
        if wins(mover) {
            return Some(win);
        }
        if wins(!mover) {
            return Some(-win);
        }
        let kings_only = self.game.ends.kings_only;
        ((self.game.move_limit > 0 && turn >= self.game.move_limit) || (kings_only > 0 && quiet >= kings_only))
            .then_some(0)
    }

    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.node_limit
            || (self.nodes & 2047 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn negamax(&mut self, pos: &Pos, depth: i32, alpha: i32, beta: i32, ply: usize, extended: bool) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let key = position_key(&pos.board, pos.to_move);
        self.path[ply] = key;
        if self.repeated(key, ply) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(&pos.board, pos.to_move);
        }
        let mut moves = std::mem::take(&mut self.lists[ply]);
        legal_moves_under(&pos.board, pos.to_move, Bitboard::ALL, &self.rules[pos.to_move.index()], &mut moves);
        let score = self.search_moves(pos, &moves, key, Window { depth, alpha, beta }, ply, extended);
        self.lists[ply] = moves;
        score
    }

    /// Whether `key` (at `ply`, the same player to move) was met earlier in the
    /// game or on this path.
    fn repeated(&self, key: u64, ply: usize) -> bool {
        if ply == 0 {
            return false;
        }
        self.seen.contains(&key) || (2..=ply).step_by(2).any(|back| self.path[ply - back] == key)
    }

    fn search_moves(&mut self, pos: &Pos, moves: &[Move], key: u64, w: Window, ply: usize, extended: bool) -> i32 {
        let Window { mut depth, mut alpha, beta } = w;
        if moves.is_empty() {
            return self.stuck(pos, depth, alpha, beta, ply);
        }
        let mut extended = extended;
        if depth <= 0 && !moves[0].is_jump() {
            let them = !pos.to_move;
            let threatened = !extended && any_jump_under(&pos.board, them, Bitboard::ALL, &self.rules[them.index()]);
            if !threatened {
                return evaluate(&pos.board, pos.to_move);
            }
            // A quiet position under threat: one more move, once on this path.
            extended = true;
            depth = 1;
        }
        // A forced reply costs no depth.
        let next_depth = if moves.len() == 1 { depth } else { depth - 1 };
        let slot = (key as usize) & (self.table.len() - 1);
        let entry = self.table[slot];
        let mut tt_best = NO_MOVE;
        if entry.key == key {
            tt_best = entry.best;
            if i32::from(entry.depth) >= depth.max(0) {
                let s = from_table(entry.score, ply);
                let usable = match entry.bound {
                    EXACT => true,
                    LOWER => s >= beta,
                    UPPER => s <= alpha,
                    _ => false,
                };
                if usable {
                    return s;
                }
            }
        }
        let original_alpha = alpha;
        // (ordering key, move index); at most 64 moves are looked at, far above any real position.
        let n = moves.len().min(64);
        let mut order = [(0i64, 0u8); 64];
        for (i, m) in moves.iter().take(n).enumerate() {
            let rank = if i as u8 == tt_best {
                1 << 40
            } else if m.is_jump() {
                (1 << 30) + i64::from(m.captured().count())
            } else if self.killers[ply][0] == Some(*m) {
                1 << 29
            } else if self.killers[ply][1] == Some(*m) {
                1 << 28
            } else {
                i64::from(self.history[m.from().index() * 64 + m.to().index()])
            };
            order[i] = (rank, i as u8);
        }
        let mut best_score = -WIN - 1;
        let mut best_index = NO_MOVE;
        for k in 0..n {
            let pick = (k..n).max_by_key(|&j| (order[j].0, std::cmp::Reverse(j))).unwrap_or(k);
            order.swap(k, pick);
            let i = order[k].1;
            let mv = &moves[usize::from(i)];
            let score = if k == 0 {
                self.child(pos, mv, next_depth, alpha, beta, ply, extended)
            } else {
                let probe = self.child(pos, mv, next_depth, alpha, alpha + 1, ply, extended);
                if probe > alpha && probe < beta && !self.stopped {
                    self.child(pos, mv, next_depth, alpha, beta, ply, extended)
                } else {
                    probe
                }
            };
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_index = i;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if !mv.is_jump() {
                    let killers = &mut self.killers[ply];
                    if killers[0] != Some(*mv) {
                        killers[1] = killers[0];
                        killers[0] = Some(*mv);
                    }
                    let h = &mut self.history[mv.from().index() * 64 + mv.to().index()];
                    *h = h.saturating_add((depth.max(1) * depth.max(1)) as u32);
                }
                break;
            }
        }
        let bound = if best_score >= beta {
            LOWER
        } else if best_score > original_alpha {
            EXACT
        } else {
            UPPER
        };
        self.table[slot] =
            Entry { key, score: to_table(best_score, ply), depth: depth.clamp(0, 100) as i8, bound, best: best_index };
        best_score
    }

    /// Plays `mv` from `pos` and scores it for the mover, within the mover's
    /// window: the game's end if it ends (R10.1, R10.4), else the search of the
    /// position after it. `ext`: the threat extension was used on this path.
    #[allow(clippy::too_many_arguments)]
    fn child(&mut self, pos: &Pos, mv: &Move, depth: i32, alpha: i32, beta: i32, ply: usize, ext: bool) -> i32 {
        let mut board = pos.board;
        if board.play(mv, &mut Unrecorded).is_err() {
            return -WIN; // Not a move of this board: never chosen.
        }
        let mover = pos.to_move;
        // A king's move that captures nothing (it cannot crown) keeps the pawns and material as they were.
        let quiet =
            if !mv.is_jump() && pos.board.kings().contains(mv.from()) { pos.quiet.saturating_add(1) } else { 0 };
        if let Some(score) = self.ended(&board, mover, pos.turn + 1, quiet, ply + 1) {
            return score;
        }
        let next = Pos { board, to_move: !mover, turn: pos.turn + 1, quiet };
        -self.negamax(&next, depth, -beta, -alpha, ply + 1, ext)
    }

    /// The player to move has no legal move: they lose (R11), or pass if the
    /// other can move, else the game is drawn (R3.1, R10.3).
    fn stuck(&mut self, pos: &Pos, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.game.when_stuck == WhenStuck::Lose {
            return -(WIN - ply as i32);
        }
        let them = !pos.to_move;
        let mut theirs = std::mem::take(&mut self.lists[ply + 1]);
        legal_moves_under(&pos.board, them, Bitboard::ALL, &self.rules[them.index()], &mut theirs);
        let can_move = !theirs.is_empty();
        self.lists[ply + 1] = theirs;
        if !can_move {
            return 0;
        }
        let turn = pos.turn + 1;
        if self.game.move_limit > 0 && turn >= self.game.move_limit {
            return 0;
        }
        let quiet = pos.quiet.saturating_add(1);
        let kings_only = self.game.ends.kings_only;
        if kings_only > 0 && quiet >= kings_only {
            return 0;
        }
        let next = Pos { board: pos.board, to_move: them, turn, quiet };
        -self.negamax(&next, depth - 1, -beta, -alpha, ply + 1, false)
    }
}

/// A search window at a depth.
#[derive(Clone, Copy)]
struct Window {
    depth: i32,
    alpha: i32,
    beta: i32,
}

/// Win scores are kept in the table as distances from the position, not the root.
fn to_table(score: i32, ply: usize) -> i16 {
    let s = if score > WON {
        score + ply as i32
    } else if score < -WON {
        score - ply as i32
    } else {
        score
    };
    s.clamp(-(WIN + 1), WIN + 1) as i16
}

fn from_table(score: i16, ply: usize) -> i32 {
    let s = i32::from(score);
    if s > WON {
        s - ply as i32
    } else if s < -WON {
        s + ply as i32
    } else {
        s
    }
}

/// A hash of the checkers and who moves: what makes positions the same for the
/// search (card-free decks have no tokens, terrain or walls, [`fully_visible`]).
pub fn position_key(board: &Board, to_move: Player) -> u64 {
    let mix = |mut x: u64| {
        // splitmix64's finaliser
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    };
    let dark = board.checkers(Player::Dark).0;
    let light = board.checkers(Player::Light).0;
    let kings = board.kings().0;
    mix(dark)
        ^ mix(light ^ 0x9e37_79b9_7f4a_7c15).rotate_left(17)
        ^ mix(kings ^ 0x6a09_e667_f3bc_c909).rotate_left(41)
        ^ if to_move == Player::Dark { 0 } else { 0x5851_f42d_4c95_7f2d }
}

/// The alpha-beta budget of [`dead_draw`]: about a tenth of a second.
pub const DRAW_NODES: u64 = 200_000;
/// How far from even, in hundredths of a pawn, a searched score of a level
/// ending may be and the position still count as a dead draw: less than
/// what a pawn's advance and the centre add up to, far less than a pawn.
const DRAWN_MARGIN: i32 = 60;

/// Whether `state`'s position is a dead draw by the search: a fully visible
/// move step ([`fully_visible`]) in an ending where each player has a king,
/// the material is level (pawns and kings counted), and a search of
/// [`DRAW_NODES`] finds nothing better for the player to move than within
/// [`DRAWN_MARGIN`] of even — neither side can win material by force, and a
/// king on each side stops the other's pawn from running in. Reproducible:
/// the budget is in nodes.
pub fn dead_draw(state: &GameState) -> bool {
    let board = &state.board;
    let has_king = |p: Player| (board.checkers(p) & board.kings()).any();
    if !fully_visible(state) || material_lead(board, Player::Dark) != 0 || !Player::BOTH.into_iter().all(has_king) {
        return false;
    }
    AlphaBeta::new().search(state, &[], Limit::Nodes(DRAW_NODES)).is_some_and(|found| found.score.abs() <= DRAWN_MARGIN)
}

/// Hundredths of a pawn.
const MAN: i32 = 100;
const KING: i32 = 135;
/// A man's bonus by rows from its back row (R2.2); doubled in the ending.
const ADVANCE: [i32; 8] = [0, 1, 3, 6, 10, 15, 22, 0];
/// Per man on its back row while the opponent has men to crown: it keeps them out.
const BACK_GUARD: i32 = 6;
/// More for the two back squares that guard best (American checkers' bridge: c1 and g1 for Dark).
const BRIDGE: i32 = 8;
const CENTRE_BONUS: i32 = 3;
/// The side ahead: per square between a king of theirs and the nearest opposing checker.
const HUNT: i32 = 4;
/// The side ahead: per empty square next to an opposing king (its room).
const ROOM: i32 = 3;
/// The side ahead: per opposing king sheltering in a double corner.
const SHELTER: i32 = 10;

const CENTRE: Bitboard = Bitboard(0x0000_3c3c_3c3c_0000);
/// The double corners of the dark squares: g1, h2 and a7, b8 (R2.1).
const DOUBLE_CORNERS: Bitboard = Bitboard((1 << 6) | (1 << 15) | (1 << 48) | (1 << 57));
/// c1, g1 for Dark and their mirror b8, f8 for Light.
const BRIDGE_SQUARES: [Bitboard; 2] = [Bitboard((1 << 2) | (1 << 6)), Bitboard((1 << 57) | (1 << 61))];

/// How good `board` is for `player`, in hundredths of a pawn: material (a king
/// 1.35 men), men's advance (more in the ending, so that they crown), back-row
/// guards while the opponent has men, the centre, and for the side a man or
/// more ahead the ending drive: trading down pays, its kings close in on the
/// nearest opposing checker, the opposing kings' room and shelter in a
/// double corner count against it. Antisymmetric: `evaluate(b, p) == -evaluate(b, !p)`.
pub fn evaluate(board: &Board, player: Player) -> i32 {
    let lead = material_lead(board, player);
    let pieces = board.occupied().count() as i32;
    let mut score = lead + side(board, player, pieces) - side(board, !player, pieces);
    if lead.abs() >= MAN - 10 {
        let leader = if lead > 0 { player } else { !player };
        let sign = if leader == player { 1 } else { -1 };
        let prey = board.checkers(!leader);
        let prey_kings = prey & board.kings();
        let mut drive = lead.abs() * (24 - pieces).max(0) / 40;
        drive -= HUNT * super::eval::hunting_distance(board, leader) as i32;
        let empty = !board.occupied() & Bitboard::DARK;
        let room = crate::kernel::Dir::DIAGONALS.iter().map(|&d| (prey_kings.shift(d) & empty).count()).sum::<u32>();
        drive -= ROOM * room as i32;
        drive -= SHELTER * (prey_kings & DOUBLE_CORNERS).count() as i32;
        score += sign * drive;
    }
    score
}

/// One side's structure: advance, back-row guard, centre.
fn side(board: &Board, player: Player, pieces: i32) -> i32 {
    let orientation = board.orientation();
    let mine = board.checkers(player);
    let men = mine - board.kings();
    let ending = if pieces <= 12 { 2 } else { 1 };
    let forward = orientation.forward(player);
    let mut score = 0;
    for sq in men {
        let rows = match forward {
            crate::kernel::Dir::N => sq.rank(),
            crate::kernel::Dir::S => 7 - sq.rank(),
            crate::kernel::Dir::E => sq.file(),
            _ => 7 - sq.file(),
        };
        score += ADVANCE[rows as usize] * ending;
    }
    let their_men = board.checkers(!player) - board.kings();
    if their_men.any() && pieces > 8 {
        score += (men & orientation.back_row(player)).count() as i32 * BACK_GUARD;
        if orientation == crate::kernel::Orientation::default() {
            score += (men & BRIDGE_SQUARES[player.index()]).count() as i32 * BRIDGE;
        }
    }
    score + (mine & CENTRE).count() as i32 * CENTRE_BONUS
}

/// Material in hundredths of a pawn of `player` less the opponent's (kings [`KING`]).
fn material_lead(board: &Board, player: Player) -> i32 {
    let material = |p: Player| {
        let mine = board.checkers(p);
        (mine - board.kings()).count() as i32 * MAN + (mine & board.kings()).count() as i32 * KING
    };
    material(player) - material(!player)
}

/// A small search of the board alone for what forced play wins: every capture
/// (R4.3 makes them compulsory, so a side with one due cannot stand pat), and
/// at a quiet position the moves that force the opponent to capture (a
/// sacrifice, the first half of a two-for-one shot), once on a path, or every
/// move when the opponent threatens a capture. The tree search adds it to its
/// leaves' scores, so that a shot about to fall counts before it falls.
pub struct Tactics {
    lists: Vec<Vec<Move>>,
    nodes: u32,
}

/// Deepest line of captures and forcing moves followed.
const TACTICS_PLY: usize = 16;
/// Nodes per leaf: a bound on the cost in a position with many captures.
const TACTICS_NODES: u32 = 400;

impl Default for Tactics {
    fn default() -> Tactics {
        Tactics { lists: (0..TACTICS_PLY).map(|_| Vec::with_capacity(16)).collect(), nodes: 0 }
    }
}

impl Tactics {
    /// The material forced play wins (positive) or loses for `to_move` on
    /// `board`, in hundredths of a pawn, under each player's `rules`.
    pub fn swing(&mut self, board: &Board, to_move: Player, rules: &[MoveRules; 2]) -> i32 {
        self.nodes = 0;
        let stand = material_lead(board, to_move);
        self.search(board, to_move, rules, -WIN, WIN, 0, 1) - stand
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        board: &Board,
        me: Player,
        rules: &[MoveRules; 2],
        mut alpha: i32,
        beta: i32,
        ply: usize,
        shots: u8,
    ) -> i32 {
        self.nodes += 1;
        let stand = material_lead(board, me);
        if ply + 1 >= TACTICS_PLY || self.nodes >= TACTICS_NODES {
            return stand;
        }
        if board.checkers(me).is_empty() {
            return -WIN / 2;
        }
        let mut moves = std::mem::take(&mut self.lists[ply]);
        legal_moves_under(board, me, Bitboard::ALL, &rules[me.index()], &mut moves);
        let capture = moves.first().is_some_and(Move::is_jump);
        let threatened = !capture && any_jump_under(board, !me, Bitboard::ALL, &rules[(!me).index()]);
        // A side with a capture due, or under threat (while shots are left), must move.
        let must_move = capture || (threatened && shots > 0);
        let mut best = if must_move { -WIN } else { stand };
        if !must_move {
            alpha = alpha.max(stand);
        }
        if best < beta && (capture || shots > 0) {
            for mv in &moves {
                let mut after = *board;
                if after.play(mv, &mut Unrecorded).is_err() {
                    continue;
                }
                // A quiet move is looked at only if it forces a capture, or when under threat.
                if !must_move && !any_jump_under(&after, !me, Bitboard::ALL, &rules[(!me).index()]) {
                    continue;
                }
                let left = if capture { shots } else { shots - 1 };
                let score = -self.search(&after, !me, rules, -beta, -alpha, ply + 1, left);
                best = best.max(score);
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.lists[ply] = moves;
        // No move searched (none legal, or the node budget ran out): the material stands.
        if best == -WIN { stand } else { best }
    }
}
