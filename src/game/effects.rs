//! Game-level effects that cards use, beyond the board: extra checker moves that
//! keep the counters planets read, and the piles (R8.18, R8.20).

use super::GameState;
use super::{CounterId, GameError, GameEvent, Pile, Piles};
use crate::kernel::{Bitboard, Dir, Move, Player, Square, any_legal_move_avoiding, legal_moves_under};

impl GameState {
    /// Legal moves of `player` among checkers in `allowed`, with capture compulsory
    /// among them (R4.3), for cards that grant a move (R8.9, R8.16).
    pub fn moves_of(&self, player: Player, allowed: Bitboard) -> Vec<Move> {
        let mut out = Vec::new();
        legal_moves_under(&self.position.board, player, allowed, &self.move_rules(player), &mut out);
        out
    }

    /// Like [`GameState::moves_of`], but moves ending on a square in `avoid` are not
    /// allowed, and capture is compulsory among the moves that are (as R4.8 does
    /// for constraints; R8.16).
    pub fn moves_avoiding(&self, player: Player, allowed: Bitboard, avoid: Bitboard) -> Vec<Move> {
        let mut out = Vec::with_capacity(crate::kernel::TYPICAL_MOVES);
        let rules = self.move_rules(player);
        crate::kernel::legal_moves_avoiding(&self.position.board, player, allowed, avoid, &rules, &mut out);
        out
    }

    /// Plays a move outside the move step, counting emperor captures (R9.4).
    pub fn play_extra_move(&mut self, player: Player, mv: &Move) -> Result<(), GameError> {
        let played = self.position.board.play(mv, &mut self.journal).map_err(|e| GameError::Illegal(e.to_string()))?;
        if played.by_emperor {
            let _ = self.add_to_counter(player, CounterId::EMPEROR_CAPTURES, played.captures);
        }
        Ok(())
    }

    /// One jump in any direction by a card (R8.10), counting emperor captures.
    pub fn jump_by_card(&mut self, from: Square, dir: Dir) -> Result<Square, GameError> {
        let owner = self.position.board.owner(from);
        let (land, played) =
            self.position.board.jump(from, dir, &mut self.journal).map_err(|e| GameError::Illegal(e.to_string()))?;
        if let (Some(owner), true) = (owner, played.by_emperor) {
            let _ = self.add_to_counter(owner, CounterId::EMPEROR_CAPTURES, played.captures);
        }
        Ok(land)
    }

    /// R8.18: discards, face-up cards and draw pile become one shuffled draw pile,
    /// and its top card is turned face up.
    pub fn reshuffle_all(&mut self) {
        let Piles { draw, face_up, discard } = std::mem::take(&mut self.hidden.piles);
        let mut all: Pile = discard.into_iter().chain(face_up).chain(draw).collect();
        self.hidden.rng.shuffle(&mut all);
        self.journal.push(|| GameEvent::Reshuffled { cards: all.len(), everything: true });
        let top: Pile = all.drain(..all.len().min(1)).collect();
        if let Some(&card) = top.first() {
            self.journal.push(|| GameEvent::CardDrawn { card });
        }
        self.hidden.piles = Piles { draw: all, face_up: top, discard: Pile::new() };
    }

    /// R8.20: puts the draw pile in a new order, which must hold the same cards.
    pub fn reorder_draw_pile(&mut self, order: Vec<super::CardId>) -> Result<(), GameError> {
        let order = Pile::from_vec(order);
        let (mut a, mut b) = (order.clone(), self.hidden.piles.draw.clone());
        a.sort();
        b.sort();
        if a != b {
            return Err(GameError::Illegal("the new order must hold exactly the cards of the draw pile".into()));
        }
        self.hidden.piles.draw = order;
        self.journal.push(|| GameEvent::DrawPileReordered);
        Ok(())
    }
}

impl super::state::Position {
    /// The checkers among `candidates` whose lifting (R8.16) leaves `player` a
    /// legal move that does not end on their square: with the checker set
    /// aside, the moves [`GameState::moves_avoiding`] would give are not none.
    pub fn lifts_leaving_a_move(&self, player: Player, candidates: Bitboard) -> Bitboard {
        let rules = self.move_rules(player);
        let mut moves = Vec::with_capacity(crate::kernel::TYPICAL_MOVES);
        let mut kept = Bitboard::EMPTY;
        for sq in candidates {
            let mut board = self.board;
            if board.set_aside(sq, &mut crate::kernel::Unrecorded).is_err() {
                continue; // no checker there to lift
            }
            let avoid = Bitboard::from_square(sq);
            kept.set(sq, any_legal_move_avoiding(&board, player, Bitboard::ALL, avoid, &rules, &mut moves));
        }
        kept
    }
}
