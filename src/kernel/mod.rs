//! The rules kernel: board geometry, walls, the monolith, checkers and their moves.
//!
//! Architecture invariant: nothing here knows about Lua, YAML, files or the
//! terminal. Every operation that changes the board enforces the rules and leaves
//! the board unchanged when it refuses.

mod bitboard;
mod board;
mod card_moves;
mod event;
mod marks;
mod movement;
mod moves;
mod player;
mod pools;
mod rulebook;
pub use rulebook::{MAX_CAPTURE_STEPS, MAX_CAPTURES_LISTED, keep_preferred};
mod square;
mod walls;

pub use bitboard::Bitboard;
pub use board::{
    Board, Checker, Crowning, Kind, MonolithReport, PlayingSquares, RuleError, RuleResult, StartLayout, Supply,
    Terrain, Token, Totals, block,
};
pub use event::{BoardEvent, Clearing, Journal, Removal, Unrecorded};
pub use marks::{MAX_MARKER_KINDS, MarkerKind, MarkerRules, Marks};
pub use movement::{
    CapturePaths, CapturedRemoval, Capturing, CrownedMidCapture, FLYING, Movement, PieceMoves, Preference, Preferences,
    Ways,
};
pub use moves::{
    Hop, MAX_JUMPS, Move, MoveRules, MoveText, MoverMask, Played, TYPICAL_MOVES, any_jump_under,
    any_legal_move_avoiding, any_legal_move_under, count_moves, is_legal_under, legal_moves, legal_moves_avoiding,
    legal_moves_under,
};
pub use player::{Orientation, Player, Rotation};
pub use pools::{Leaving, MAX_POOLS, Pools, Route, Routes, Whose};
pub use square::{BadSquare, Colour, Dir, ParseError, Square};
pub use walls::{Edge, EdgePair, Side, Walls};
