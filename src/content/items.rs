//! A deck's items and zones as written in its manifest (`items:` and
//! `zones:`), checked and turned into the game's [`Catalogue`]
//! (cards/README.md, "Items and zones").

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::game::{Catalogue, ItemDef, MAX_ITEMS, MAX_ZONES, SeenBy, ZoneDef, ZoneId};
use crate::kernel::Player;

/// The largest value a part may have (so sums stay exact in Lua).
const MAX_VALUE: i64 = 1_000_000;

/// `items:`: every combination of one part from each list of `combine`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemsManifest {
    /// What one item is called in narration ("card").
    #[serde(default = "item")]
    pub label: String,
    /// Lists of parts: an item's id joins its parts' ids, its value adds
    /// theirs, its tags are all of theirs. One list is a plain list of items.
    pub combine: Vec<Vec<PartManifest>>,
}

fn item() -> String {
    "item".to_string()
}

/// One part of an item: `{id: Q, value: 12, tags: [queen]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartManifest {
    pub id: String,
    #[serde(default)]
    pub value: i64,
    #[serde(default)]
    pub tags: Vec<String>,
}

/// One zone: `{name: stockpile, per: player, seen_by: owner, start: {dark: [hearts]}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZoneManifest {
    pub name: String,
    /// How players read it ("discard pile"); the name, `_` as a space, by default.
    #[serde(default)]
    pub label: Option<String>,
    pub per: Per,
    pub seen_by: SeenBy,
    /// The items it starts with, by owner (`dark`, `light`, or `shared` for a
    /// shared zone): item ids or tags.
    #[serde(default)]
    pub start: BTreeMap<String, Vec<String>>,
}

/// Whether a zone is kept for each player or shared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Per {
    Player,
    Shared,
}

/// The catalogue a deck's `items:` and `zones:` describe, or `None` when it
/// has neither. Errors name the key and what is wrong.
pub fn catalogue(
    items: Option<&ItemsManifest>,
    zones: &[ZoneManifest],
) -> Result<Option<Catalogue>, (&'static str, String)> {
    let Some(manifest) = items else {
        return match zones.is_empty() {
            true => Ok(None),
            false => Err(("zones", "zones hold items: the deck needs items: too".into())),
        };
    };
    let defs = combine(&manifest.combine)?;
    if zones.is_empty() {
        return Err(("items", "every item starts in a zone: the deck needs zones: too".into()));
    }
    if zones.len() > MAX_ZONES {
        return Err(("zones", format!("a deck has at most {MAX_ZONES} zones; this one lists {}", zones.len())));
    }
    let mut zone_defs = Vec::new();
    let mut start: Vec<Option<(ZoneId, Option<Player>)>> = vec![None; defs.len()];
    for (z, zone) in zones.iter().enumerate() {
        if !super::valid_id(&zone.name) {
            return Err(("zones", format!("'{}' is not a valid zone name (use a-z, 0-9 and _)", zone.name)));
        }
        if zones[..z].iter().any(|other| other.name == zone.name) {
            return Err(("zones", format!("zone '{}' is listed twice", zone.name)));
        }
        let per_player = zone.per == Per::Player;
        for (owner, entries) in &zone.start {
            let owner = match (owner.as_str(), per_player) {
                ("dark", true) => Some(Player::Dark),
                ("light", true) => Some(Player::Light),
                ("shared", false) => None,
                (other, true) => {
                    let message = format!(
                        "zone '{}' is kept per player: its start names dark or light, not '{other}'",
                        zone.name
                    );
                    return Err(("start", message));
                }
                (other, false) => {
                    let message = format!("zone '{}' is shared: its start names shared, not '{other}'", zone.name);
                    return Err(("start", message));
                }
            };
            for entry in entries {
                let matching: Vec<usize> =
                    (0..defs.len()).filter(|&i| defs[i].id == *entry || defs[i].tags.contains(entry)).collect();
                if matching.is_empty() {
                    let message = format!("zone '{}' starts with '{entry}', which is no item's id or tag", zone.name);
                    return Err(("start", message));
                }
                for i in matching {
                    let here = (ZoneId(z as u8), owner);
                    match start[i] {
                        Some(there) if there != here => {
                            let message = format!("item {} is given two places to start in", defs[i].id);
                            return Err(("start", message));
                        }
                        _ => start[i] = Some(here),
                    }
                }
            }
        }
        let label = zone.label.clone().unwrap_or_else(|| zone.name.replace('_', " "));
        zone_defs.push(ZoneDef { name: zone.name.clone(), label, per_player, seen_by: zone.seen_by });
    }
    let start = start
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            s.ok_or_else(|| {
                ("start", format!("item {} starts in no zone (a zone's start: names it or a tag of it)", defs[i].id))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(Catalogue { label: manifest.label.clone(), items: defs, zones: zone_defs, start }))
}

/// Every combination of one part from each list, first list outermost.
fn combine(lists: &[Vec<PartManifest>]) -> Result<Vec<ItemDef>, (&'static str, String)> {
    if lists.is_empty() || lists.iter().any(Vec::is_empty) {
        return Err(("combine", "combine lists at least one list of parts, none of them empty".into()));
    }
    let total = lists.iter().try_fold(1usize, |n, list| n.checked_mul(list.len())).unwrap_or(usize::MAX);
    if total > MAX_ITEMS {
        return Err(("combine", format!("a deck has at most {MAX_ITEMS} items; these lists make {total}")));
    }
    let mut defs = vec![ItemDef { id: String::new(), value: 0, tags: Vec::new() }];
    for list in lists {
        for part in list {
            if part.id.is_empty() || !part.id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(("combine", format!("'{}' is not a valid part id (use letters, digits and _)", part.id)));
            }
            if part.value.abs() > MAX_VALUE {
                return Err(("value", format!("part {}: a value lies between -{MAX_VALUE} and {MAX_VALUE}", part.id)));
            }
            if let Some(tag) = part.tags.iter().find(|t| !super::valid_id(t)) {
                return Err(("tags", format!("'{tag}' is not a valid tag (use a-z, 0-9 and _)")));
            }
        }
        defs = defs
            .iter()
            .flat_map(|def| {
                list.iter().map(move |part| {
                    let mut tags = def.tags.clone();
                    tags.extend(part.tags.iter().filter(|t| !def.tags.contains(t)).cloned());
                    ItemDef { id: format!("{}{}", def.id, part.id), value: def.value + part.value, tags }
                })
            })
            .collect();
    }
    let mut ids: Vec<&str> = defs.iter().map(|d| d.id.as_str()).collect();
    ids.sort_unstable();
    if let Some(pair) = ids.windows(2).find(|w| w[0] == w[1]) {
        return Err(("combine", format!("two items have the id '{}'", pair[0])));
    }
    Ok(defs)
}
