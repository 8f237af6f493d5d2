//! Piece pools: where the pieces of a checker that leaves the board go.
//!
//! Every player has pool 0, the *reserve*: crowning takes its piece from there
//! (R6.1) and a checker coming back onto the board comes from there (R8.4). A
//! deck may add up to [`MAX_POOLS`]` - 1` more per player (a captured area, a
//! rescued area) and say, for each way of leaving the board, whose pool of
//! which the pieces go to ([`Routes`]). Without them every piece goes to its
//! owner's reserve (R4.9).

use serde::{Deserialize, Serialize};

use super::player::Player;

/// Most pools per player, the reserve included.
pub const MAX_POOLS: usize = 4;

/// Whose pool: the leaving checker's owner's or the owner's opponent's (for a
/// capture, the capturer's).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Whose {
    Owner,
    #[serde(alias = "capturer")]
    Opponent,
}

/// A pool of one of the two players, relative to a leaving checker's owner.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Route {
    /// Index of the pool, 0 (the reserve) to `MAX_POOLS - 1`.
    pub pool: u8,
    pub of: Whose,
}

impl Route {
    /// The owner's reserve (R4.9).
    pub const RESERVE: Route = Route { pool: 0, of: Whose::Owner };

    /// The player whose pool it is, for a checker of `owner`.
    pub fn player(self, owner: Player) -> Player {
        match self.of {
            Whose::Owner => owner,
            Whose::Opponent => !owner,
        }
    }
}

/// Why a checker left the board, as far as routes tell ways apart.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Leaving {
    /// Jumped or taken in place by a move (R4.2).
    Captured,
    /// Taken off by a card, a rule or the monolith (R4.9, R7.4).
    Removed,
    /// Left the board by a move (`a1-off`).
    Exited,
}

/// Where pieces go for each way of leaving the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Routes {
    pub captured: Route,
    pub removed: Route,
    pub exited: Route,
    /// What a piece in each pool after the reserve is worth to its holder,
    /// in pawns, for the computer's evaluation (`rules: pool_worth:`).
    #[serde(default, skip_serializing_if = "no_worth")]
    pub worth: [u8; MAX_POOLS - 1],
}

fn no_worth(worth: &[u8; MAX_POOLS - 1]) -> bool {
    worth.iter().all(|w| *w == 0)
}

impl Routes {
    /// R4.9: everything to the owner's reserve.
    pub const RESERVE: Routes =
        Routes { captured: Route::RESERVE, removed: Route::RESERVE, exited: Route::RESERVE, worth: [0; MAX_POOLS - 1] };

    pub fn route(&self, why: Leaving) -> Route {
        match why {
            Leaving::Captured => self.captured,
            Leaving::Removed => self.removed,
            Leaving::Exited => self.exited,
        }
    }
}

/// A deck's pools beyond the reserves, with its routes. Kept on the board only
/// for decks that declare pools, so other decks' boards, saves and digests are
/// as they were.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pools {
    /// Pieces in pools 1.. of each player, by `Player::index`.
    pub held: [[u8; MAX_POOLS - 1]; 2],
    pub routes: Routes,
}

impl Pools {
    pub fn new(routes: Routes) -> Pools {
        Pools { held: [[0; MAX_POOLS - 1]; 2], routes }
    }
}
