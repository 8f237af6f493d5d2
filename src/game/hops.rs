//! Moves played hop by hop (cards/README.md, "Hop by hop").
//!
//! When a lasting effect in force has a handler for `landed`, a move that is a
//! step or a chain of jumps is played one hop at a time: each hop takes the
//! checker it jumps and lands (a `landed` event), and the handlers react
//! before the next hop. A handler may end the move where it stands
//! (`ctx:end_move`); the move also ends when the mover has left the board or
//! changed sides, or when its next hop can no longer be made. The captures made
//! up to then stand. When it ends, crowning settles (R6.2) and a `moved` event
//! with `hops` says the move is over, so `on_moved` keeps its meaning.
//!
//! Invariant: `Position::hopping` is `Some` only between the hops of a move,
//! while `Then::Hop` is the point the turn goes on from (or, if the game ended
//! between two hops, in the finished game).

use serde::{Deserialize, Serialize};

use super::state::Moved;
use super::{CardHost, CounterId, EventKind, GameError, GameState};
use crate::kernel::{BoardEvent, Hop, Journal, Kind, Move, Player, Square};

/// A move being played hop by hop.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Hopping {
    /// Where the move began.
    pub start: Square,
    /// The mover's number (kernel `Ids`) and owner.
    pub id: u8,
    pub owner: Player,
    /// The landing of each hop, as chosen.
    pub path: Vec<Square>,
    /// The checker each hop jumps, if the move is a chain of jumps.
    pub taken: Vec<Square>,
    /// Hops played so far.
    pub done: u8,
    /// A handler ended the move (`ctx:end_move`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stopped: bool,
    /// A pawn that reaches its king row on the way is crowned there and goes
    /// on as a king, where the deck's moves say so (moves as data).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub crowns_on_the_way: bool,
}

impl GameState {
    /// Whether `mv` is played hop by hop: some effect in force listens to
    /// `landed`, and the move is a step or a chain with one capture per hop
    /// (a capture in place and leaving the board land nowhere). Crowning
    /// settles after each hop that can crown (R6.2), so a pawn that passes its
    /// king row mid-chain without being crowned (some decks' moves) is played
    /// whole.
    pub(super) fn plays_by_hops(&self, host: &dyn CardHost, mv: &Move) -> bool {
        let board = &self.position.board;
        let hops = mv.landings().count();
        let shape = !mv.exits()
            && !mv.captured().contains(mv.to())
            && (mv.captured().count() as usize == hops || (hops == 1 && !mv.is_jump()));
        let passes_king_row = board.checker(mv.from()).is_some_and(|c| {
            c.kind == Kind::Pawn
                && !board.crowns_on_the_way(mv)
                && mv.landings().take(hops - 1).any(|sq| board.orientation().king_row(c.owner).contains(sq))
        });
        shape && !passes_king_row && self.position.effects.iter().any(|e| host.reacts(e.card, EventKind::Landed))
    }

    /// Begins playing `mv` hop by hop; the turn goes on from `Then::Hop`.
    pub(super) fn start_hops(&mut self, mv: &Move) {
        self.tell_constraint(mv);
        let board = &self.position.board;
        let mover = board.checker(mv.from());
        let (id, owner) = mover.map_or((0, self.position.to_move), |c| (c.id, c.owner));
        let taken = mv.captures_in_order().iter().map(|&(taken, _)| taken).collect();
        self.position.hopping = Some(Box::new(Hopping {
            start: mv.from(),
            id,
            owner,
            path: mv.landings().collect(),
            taken,
            done: 0,
            stopped: false,
            crowns_on_the_way: board.crowns_on_the_way(mv),
        }));
    }

    /// Plays the next hop, or ends the move; says whether a hop was played.
    pub(super) fn next_hop(&mut self) -> bool {
        let Some(h) = self.position.hopping.as_deref() else { return false };
        let board = &self.position.board;
        let i = usize::from(h.done);
        let from = if i == 0 { h.start } else { h.path[i - 1] };
        // The mover is still on the board where its last hop left it, on its side.
        let mover = board.find_checker(h.id).filter(|&at| at == from).and_then(|at| board.checker(at));
        let goes_on = !h.stopped && i < h.path.len() && mover.is_some_and(|c| c.owner == h.owner);
        let hop = goes_on.then(|| Hop {
            start: h.start,
            from,
            to: h.path[i],
            taken: h.taken.get(i).copied(),
            number: h.done + 1,
            last: i + 1 == h.path.len(),
        });
        let by_emperor = mover.is_some_and(|c| c.kind == Kind::Emperor);
        match hop.map(|hop| self.position.board.play_hop(hop, &mut self.journal)) {
            Some(Ok(())) => {
                if let Some(h) = self.position.hopping.as_deref_mut() {
                    h.done += 1;
                    if h.crowns_on_the_way || usize::from(h.done) == h.path.len() {
                        self.position.board.settle_crowns(&mut self.journal);
                    }
                }
                if by_emperor && hop.is_some_and(|h| h.taken.is_some()) {
                    let _ = self.add_to_counter(self.position.to_move, CounterId::EMPEROR_CAPTURES, 1);
                }
                true
            }
            // Not possible any more (or refused by the kernel): the move ends here.
            Some(Err(_)) | None => {
                self.end_hops();
                false
            }
        }
    }

    /// The move played hop by hop is over: crowning settles (a pawn on its king
    /// row when the move was cut short) and `moved` says so.
    fn end_hops(&mut self) {
        let Some(h) = self.position.hopping.take() else { return };
        let played = usize::from(h.done);
        let now = if played == 0 { h.start } else { h.path[played - 1] };
        self.position.board.settle_crowns(&mut self.journal);
        let via = h.path[..played.saturating_sub(1)].to_vec();
        self.journal.record(|| BoardEvent::Moved { from: h.start, to: now, via, id: h.id, hops: true });
        self.position.moved = Some(Moved { start: h.start, now });
    }

    /// `ctx:end_move`: the move being played hop by hop ends where it stands.
    pub fn end_move(&mut self) -> Result<(), GameError> {
        match self.position.hopping.as_deref_mut() {
            Some(h) => {
                h.stopped = true;
                Ok(())
            }
            None => Err(GameError::Illegal(
                "no move is being made: end_move is for the handlers of a move played hop by hop (on_landed)".into(),
            )),
        }
    }
}
