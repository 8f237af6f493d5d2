//! What the kernel's operations did, as typed events: every operation that
//! changes the board tells a [`Journal`] each change it made, in the order it
//! made them.
//!
//! Invariant (tested on random games of every shipped deck): replaying the
//! events of a stretch of play onto the board it started from with
//! [`BoardEvent::redo`] gives the board it ended on — checkers, reserves,
//! tokens, terrain, walls, the monolith, the supply and the orientation.

use serde::{Deserialize, Serialize};

use super::board::{Board, Checker, Terrain, Token};
use super::marks::MarkerKind;
use super::player::{Orientation, Player, Rotation};
use super::pools::Leaving;
use super::square::{Dir, Square};
use super::walls::{Edge, EdgePair};

/// Why a checker left the board without being jumped (R4.9).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Removal {
    /// R7.4: pushed by the monolith off the edge of the board.
    PushedOff,
    /// R7.4: pushed by the monolith against a wall.
    PushedIntoWall,
    /// R7.4: pushed by the monolith into water.
    PushedIntoWater,
    /// R7.4: pushed by the monolith into fire.
    PushedIntoFire,
    /// A card's or an effect's script removed it (Antimatter, R8.19).
    Card,
    /// R8.3: the pawn gave its piece to a king, which became an emperor.
    Sacrificed,
    /// It moved off the board by a move a script offered (`a1-off`).
    Exited,
}

/// Why a wall, a token or terrain went back to the supply.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Clearing {
    /// A card's script took it away.
    Card,
    /// The monolith entered its square or crossed its edge (R7.1, R7.3).
    Monolith,
    /// R8.8: a snookle arrived on the hippo's checker.
    Snookle,
}

/// One change the kernel made to the board.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BoardEvent {
    /// The checker numbered `id` went from `from` to `to`; `via` holds the
    /// squares it landed on in between (jump chains), empty for a step or a
    /// card's move.
    Moved {
        from: Square,
        to: Square,
        via: Vec<Square>,
        #[serde(default, skip_serializing_if = "is_zero")]
        id: u8,
        /// The move was played hop by hop: its `landed` events moved the
        /// checker, and this one, told when the move is over, moves nothing.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        hops: bool,
    },
    /// One hop of a move played hop by hop: the checker numbered `id` went
    /// from `from` to `at`, its hop number `hop` (from 1), the last of the
    /// move as chosen when `last`.
    Landed {
        from: Square,
        at: Square,
        hop: u8,
        last: bool,
        #[serde(default, skip_serializing_if = "is_zero")]
        id: u8,
    },
    /// R4.2, R4.9: the checker on `at` was jumped by the checker numbered
    /// `capturer` that started on `by`, which stood on `landed` once it had
    /// taken it (the landing of that jump; for a capture in place, the square
    /// it went back to).
    Captured {
        at: Square,
        checker: Checker,
        by: Square,
        landed: Square,
        #[serde(default, skip_serializing_if = "is_zero")]
        capturer: u8,
    },
    /// R4.9: the checker on `at` left the board for its owner's reserve.
    Removed {
        at: Square,
        checker: Checker,
        reason: Removal,
    },
    /// R7.4: the monolith pushed the checker numbered `id` one square.
    Pushed {
        from: Square,
        to: Square,
        #[serde(default, skip_serializing_if = "is_zero")]
        id: u8,
    },
    /// R6: `owner`'s pawn on `at`, numbered `id`, became a king, with a piece
    /// from the reserve unless crowning is free (R11). (Not `player`: that is
    /// whose turn it was, in the JSON of events and in a script's event table.)
    Crowned {
        at: Square,
        owner: Player,
        #[serde(default, skip_serializing_if = "is_zero")]
        id: u8,
    },
    /// R8.3: the king on `king` became an emperor with the piece of the pawn that
    /// was on `pawn` (whose removal, reason `sacrificed`, comes just before).
    MadeEmperor {
        king: Square,
        pawn: Square,
    },
    /// R8.4: a piece from `owner`'s reserve came onto `at` as a pawn, a new
    /// checker numbered `id`.
    Revived {
        at: Square,
        owner: Player,
        #[serde(default, skip_serializing_if = "is_zero")]
        id: u8,
    },
    TokenPlaced {
        at: Square,
        token: Token,
    },
    TokenRemoved {
        at: Square,
        token: Token,
        reason: Clearing,
    },
    TerrainPlaced {
        at: Square,
        terrain: Terrain,
    },
    TerrainRemoved {
        at: Square,
        terrain: Terrain,
        reason: Clearing,
    },
    /// R5.2: two walls of `owner` from the supply.
    WallsPlaced {
        owner: Player,
        edges: EdgePair,
    },
    WallRemoved {
        edge: Edge,
        owner: Player,
        reason: Clearing,
    },
    /// R7.1: the monolith came onto the block whose lower-left square is `at`.
    MonolithPlaced {
        at: Square,
    },
    /// R7.2: the monolith moved one square; `from` and `to` are its lower-left squares.
    MonolithMoved {
        from: Square,
        to: Square,
        dir: Dir,
    },
    /// R7.6: the monolith was to move, but no direction was allowed; nothing changed.
    MonolithBlocked {
        at: Square,
    },
    /// R8.21: the board turned; `orientation` is the new one.
    Rotated {
        rotation: Rotation,
        orientation: Orientation,
    },
    /// A marker of a deck's own kind (marks.rs) came from the supply onto `at`.
    MarkerPlaced {
        at: Square,
        marker: MarkerKind,
    },
    MarkerRemoved {
        at: Square,
        marker: MarkerKind,
        reason: Clearing,
    },
    /// The checker on `at`, numbered `id`, changed sides: it is now `owner`'s.
    OwnerChanged {
        at: Square,
        #[serde(default, skip_serializing_if = "is_zero")]
        id: u8,
        owner: Player,
    },
    /// R8.16: a checker was lifted off the board, to come back.
    SetAside {
        at: Square,
        checker: Checker,
    },
    /// R8.16: the lifted checker came back.
    PutBack {
        at: Square,
        checker: Checker,
    },
}

fn is_zero(id: &u8) -> bool {
    *id == 0
}

/// Where kernel operations tell what they did. An operation passes the event
/// as a closure, so a journal that keeps nothing never builds it.
pub trait Journal {
    fn record(&mut self, event: impl FnOnce() -> BoardEvent);
}

/// A journal that keeps nothing: plain checkers, perft, and callers that only
/// want the board. Operations given it cost what they cost before events.
#[derive(Clone, Copy, Debug, Default)]
pub struct Unrecorded;

impl Journal for Unrecorded {
    #[inline(always)]
    fn record(&mut self, _: impl FnOnce() -> BoardEvent) {}
}

impl Journal for Vec<BoardEvent> {
    fn record(&mut self, event: impl FnOnce() -> BoardEvent) {
        self.push(event());
    }
}

impl Removal {
    /// How pools tell this way of leaving the board (pools.rs).
    pub fn leaving(self) -> Leaving {
        match self {
            Removal::Exited => Leaving::Exited,
            _ => Leaving::Removed,
        }
    }
}

impl BoardEvent {
    /// Makes this change again on `board` without checking any rule: the board is
    /// assumed to be the one the event was recorded on.
    pub fn redo(&self, board: &mut Board) {
        match *self {
            BoardEvent::Moved { hops: true, .. } => {}
            BoardEvent::Moved { from, to, .. }
            | BoardEvent::Pushed { from, to, .. }
            | BoardEvent::Landed { from, at: to, .. } => board.shift_checker(from, to),
            BoardEvent::Removed { at, checker, reason: Removal::Sacrificed } => board.sacrifice(at, checker),
            BoardEvent::Captured { at, checker, .. } => board.lift(at, checker, Leaving::Captured),
            BoardEvent::Removed { at, checker, reason } => board.lift(at, checker, reason.leaving()),
            BoardEvent::OwnerChanged { at, owner, .. } => board.change_owner(at, owner),
            BoardEvent::Crowned { at, owner, .. } => board.crown(at, owner),
            BoardEvent::MadeEmperor { king, .. } => board.crown_emperor(king),
            BoardEvent::Revived { at, owner, .. } => {
                board.revive(at, owner);
            }
            BoardEvent::TokenPlaced { at, token } => board.set_token(at, token, true),
            BoardEvent::TokenRemoved { at, token, .. } => board.set_token(at, token, false),
            BoardEvent::TerrainPlaced { at, terrain } => board.move_terrain(at, terrain, true),
            BoardEvent::TerrainRemoved { at, terrain, .. } => board.move_terrain(at, terrain, false),
            BoardEvent::WallsPlaced { owner, edges } => {
                board.move_wall(owner, edges.0, true);
                board.move_wall(owner, edges.1, true);
            }
            BoardEvent::WallRemoved { edge, owner, .. } => board.move_wall(owner, edge, false),
            BoardEvent::MonolithPlaced { at } => board.shift_monolith(Some(at), true),
            BoardEvent::MonolithMoved { to, .. } => board.shift_monolith(Some(to), false),
            BoardEvent::MonolithBlocked { .. } => {}
            BoardEvent::Rotated { orientation, .. } => board.set_orientation(orientation),
            BoardEvent::MarkerPlaced { at, marker } => board.set_marker(at, marker, true),
            BoardEvent::MarkerRemoved { at, marker, .. } => board.set_marker(at, marker, false),
            BoardEvent::SetAside { at, .. } => board.write_checker(at, None),
            BoardEvent::PutBack { at, checker } => board.write_checker(at, Some(checker)),
        }
    }

    /// The squares this event concerns, first the main one.
    pub fn squares(&self) -> Vec<Square> {
        match self {
            BoardEvent::Moved { from, to, via, .. } => {
                let mut out = vec![*from];
                out.extend(via.iter().copied());
                out.push(*to);
                out
            }
            BoardEvent::Pushed { from, to, .. } => vec![*from, *to],
            BoardEvent::Landed { from, at, .. } => vec![*at, *from],
            BoardEvent::MonolithMoved { from, to, .. } => vec![*from, *to],
            BoardEvent::MadeEmperor { pawn, king, .. } => vec![*king, *pawn],
            BoardEvent::Captured { at, .. }
            | BoardEvent::Removed { at, .. }
            | BoardEvent::Crowned { at, .. }
            | BoardEvent::Revived { at, .. }
            | BoardEvent::TokenPlaced { at, .. }
            | BoardEvent::TokenRemoved { at, .. }
            | BoardEvent::TerrainPlaced { at, .. }
            | BoardEvent::TerrainRemoved { at, .. }
            | BoardEvent::MonolithPlaced { at }
            | BoardEvent::MonolithBlocked { at }
            | BoardEvent::MarkerPlaced { at, .. }
            | BoardEvent::MarkerRemoved { at, .. }
            | BoardEvent::SetAside { at, .. }
            | BoardEvent::OwnerChanged { at, .. }
            | BoardEvent::PutBack { at, .. } => vec![*at],
            BoardEvent::WallsPlaced { edges, .. } => vec![edges.0.square(), edges.1.square()],
            BoardEvent::WallRemoved { edge, .. } => vec![edge.square()],
            BoardEvent::Rotated { .. } => Vec::new(),
        }
    }
}
