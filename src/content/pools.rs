//! A deck's piece pools as written in its manifest (`rules: pools:` and
//! `rules: pieces_go:`), checked and turned into the kernel's [`Routes`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::kernel::{MAX_POOLS, Route, Routes, Whose};

/// The most a piece in a pool may be worth, in pawns.
const MAX_WORTH: u8 = 10;

/// The one pool of a deck that names none.
pub const RESERVE: &str = "reserve";

/// `pieces_go:`: for each way of leaving the board, whose pool of which.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PiecesGo {
    #[serde(default)]
    pub captured: Option<RouteManifest>,
    #[serde(default)]
    pub removed: Option<RouteManifest>,
    #[serde(default)]
    pub exited: Option<RouteManifest>,
}

/// `{pool: captured, of: opponent}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteManifest {
    pub pool: String,
    #[serde(default = "owner")]
    pub of: Whose,
}

fn owner() -> Whose {
    Whose::Owner
}

/// The pools' names, the reserve's first: the deck's `pools:`, or `reserve` alone.
pub fn names(pools: &[String]) -> Vec<String> {
    if pools.is_empty() { vec![RESERVE.to_string()] } else { pools.to_vec() }
}

/// The kernel's routes for a deck's `pools:` and `pieces_go:`, or `None` when
/// the deck has one pool and routes nothing (every piece to its owner's
/// reserve, R4.9). Errors name the key and what is wrong.
pub fn routes(
    pools: &[String],
    go: &PiecesGo,
    worth: &BTreeMap<String, u8>,
) -> Result<Option<Routes>, (&'static str, String)> {
    let names = names(pools);
    if names.len() > MAX_POOLS {
        return Err((
            "pools",
            format!("a deck has at most {MAX_POOLS} pools, the reserve included; this one lists {}", names.len()),
        ));
    }
    for (i, name) in names.iter().enumerate() {
        if !super::valid_id(name) {
            return Err(("pools", format!("'{name}' is not a valid pool name (use a-z, 0-9 and _)")));
        }
        if names[..i].contains(name) {
            return Err(("pools", format!("pool '{name}' is listed twice")));
        }
    }
    if names.len() == 1 && *go == PiecesGo::default() && worth.is_empty() {
        return Ok(None);
    }
    let mut worths = [0; MAX_POOLS - 1];
    for (name, &w) in worth {
        match names.iter().position(|n| n == name) {
            Some(0) => {
                let message =
                    format!("'{name}' is the reserve, whose pieces come back into play: it has no worth of its own");
                return Err(("pool_worth", message));
            }
            Some(i) if w <= MAX_WORTH => worths[i - 1] = w,
            Some(_) => {
                return Err(("pool_worth", format!("a pool's worth is 0 to {MAX_WORTH} pawns a piece, not {w}")));
            }
            None => {
                let message = format!("pool_worth names '{name}', which is not among the pools: {}", names.join(", "));
                return Err(("pool_worth", message));
            }
        }
    }
    let route = |key: &'static str, given: &Option<RouteManifest>| -> Result<Route, (&'static str, String)> {
        let Some(given) = given else { return Ok(Route::RESERVE) };
        let pool = names.iter().position(|n| *n == given.pool).ok_or_else(|| {
            (
                key,
                format!(
                    "pieces_go: {key} names pool '{}', which is not among the pools: {}",
                    given.pool,
                    names.join(", ")
                ),
            )
        })?;
        Ok(Route { pool: pool as u8, of: given.of })
    };
    Ok(Some(Routes {
        captured: route("captured", &go.captured)?,
        removed: route("removed", &go.removed)?,
        exited: route("exited", &go.exited)?,
        worth: worths,
    }))
}
