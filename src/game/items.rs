//! Items and zones (cards/README.md, "Items and zones"): things a deck deals
//! besides checkers — a poker card on each square, a hand of tokens, a
//! discard pile — and who knows which is where.
//!
//! The truth ([`Items`]) is part of the hidden state; what both players know
//! of it ([`Table`]) is part of the position, worked out from the truth after
//! every change ([`Items::public`]), so the two never disagree.
//!
//! Invariants: every item of the catalogue is held in exactly one place (a
//! square, a zone of a player or a shared zone, or out of play); a square
//! holds at most one item; an item face up is known to both players.
//! Knowledge belongs to the place, not to the item: an observer's guess
//! (ai/observe.rs) swaps unknown items among unknown places and leaves what
//! each player knows of each place as it was.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::GameEvent;
use super::rng::GameRng;
use crate::kernel::{Player, Square};

/// Most items a deck may have.
pub const MAX_ITEMS: usize = 256;
/// Most zones a deck may have.
pub const MAX_ZONES: usize = 8;

/// An item of the deck's catalogue, by its place in it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub struct ItemId(pub u8);

/// A zone of the deck, by its place in `zones:`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub struct ZoneId(pub u8);

/// Who sees what a zone holds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeenBy {
    /// The player whose zone it is (a hand, a stockpile); a shared zone's: nobody.
    Owner,
    All,
    Nobody,
}

/// One item as the deck defines it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemDef {
    pub id: String,
    pub value: i64,
    pub tags: Vec<String>,
}

/// One zone as the deck defines it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZoneDef {
    pub name: String,
    pub label: String,
    /// One zone for each player, or one both share.
    pub per_player: bool,
    pub seen_by: SeenBy,
}

/// The deck's items and zones (content/items.rs makes it from the manifest).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Catalogue {
    /// What one item is called ("card").
    pub label: String,
    pub items: Vec<ItemDef>,
    pub zones: Vec<ZoneDef>,
    /// Where each item starts, by [`ItemId`].
    pub start: Vec<(ZoneId, Option<Player>)>,
}

impl Catalogue {
    pub fn item_named(&self, id: &str) -> Option<ItemId> {
        self.items.iter().position(|i| i.id == id).map(|i| ItemId(i as u8))
    }

    pub fn zone_named(&self, name: &str) -> Option<ZoneId> {
        self.zones.iter().position(|z| z.name == name).map(|i| ZoneId(i as u8))
    }

    pub fn item(&self, item: ItemId) -> &ItemDef {
        &self.items[usize::from(item.0)]
    }

    pub fn zone(&self, zone: ZoneId) -> &ZoneDef {
        &self.zones[usize::from(zone.0)]
    }

    /// The items' ids, joined with ", " (for messages).
    pub fn ids_text(&self, items: impl IntoIterator<Item = ItemId>) -> String {
        items.into_iter().map(|i| self.item(i).id.as_str()).collect::<Vec<_>>().join(", ")
    }

    /// The state's items at the start of a game: each in its start zone, in
    /// catalogue order (a deck's `game_begins` shuffles and lays them out).
    pub fn starting_items(&self) -> Items {
        let rules = ItemRules {
            zones: self.zones.iter().map(|z| (z.per_player, z.seen_by)).collect(),
            group: self.start.iter().map(|&(z, p)| slot_of(z, p)).collect(),
        };
        let mut items = Items::empty(Arc::new(rules));
        for (i, &(zone, owner)) in self.start.iter().enumerate() {
            let slot = slot_of(zone, owner);
            let known = items.sight(slot);
            items.slots[usize::from(slot)].push(Held { item: ItemId(i as u8), known });
        }
        items
    }
}

/// The index of a zone's list in [`Items::slots`]: two per zone (a shared
/// zone uses the first); the last slot is out of play.
fn slot_of(zone: ZoneId, owner: Option<Player>) -> u8 {
    zone.0 * 2 + owner.map_or(0, |p| p.index() as u8)
}

/// Where an item is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Place {
    Square { square: Square, face: Face },
    Zone { zone: ZoneId, owner: Option<Player> },
    Out { out: bool },
}

impl Place {
    pub const OUT: Place = Place::Out { out: true };
}

/// Which side of an item on a square shows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Face {
    Up,
    Down,
}

/// An item where it is held, and whether each player (by index) knows it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Held {
    pub item: ItemId,
    pub known: [bool; 2],
}

/// An item on a square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct OnSquare {
    #[serde(flatten)]
    pub held: Held,
    pub face: Face,
}

/// What the state needs of the deck's zones and items to keep knowledge and
/// guess: each zone's kind and sight, and each item's group (the slot it
/// starts in), among which an observer's guesses swap unknown items.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct ItemRules {
    zones: Vec<(bool, SeenBy)>,
    group: Vec<u8>,
}

/// Every item of the deck and where it is: part of the hidden state.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(into = "ItemsForm", try_from = "ItemsForm")]
pub struct Items {
    squares: [Option<OnSquare>; 64],
    /// Each zone's items, top first, by [`slot_of`]; the last slot is out of play.
    slots: Vec<Vec<Held>>,
    rules: Arc<ItemRules>,
}

/// What both players know of the items: part of the position.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Table {
    /// Each square's item: its face, and its id when both players know it.
    pub squares: [Option<(Face, Option<ItemId>)>; 64],
    /// Each zone slot's items, top first, as ids known to both or `None`.
    pub slots: Vec<Vec<Option<ItemId>>>,
}

impl Table {
    pub fn at(&self, square: Square) -> Option<(Face, Option<ItemId>)> {
        self.squares[square.index()]
    }

    pub fn count(&self, zone: ZoneId, owner: Option<Player>) -> usize {
        self.slots.get(usize::from(slot_of(zone, owner))).map_or(0, Vec::len)
    }
}

impl Items {
    fn empty(rules: Arc<ItemRules>) -> Items {
        let slots = vec![Vec::new(); rules.zones.len() * 2 + 1];
        Items { squares: [None; 64], slots, rules }
    }

    fn out_slot(&self) -> usize {
        self.slots.len() - 1
    }

    /// Who sees what the slot holds, by player index.
    fn sight(&self, slot: u8) -> [bool; 2] {
        let Some(&(per_player, seen_by)) = self.rules.zones.get(usize::from(slot / 2)) else {
            return [false; 2];
        };
        match seen_by {
            SeenBy::All => [true; 2],
            SeenBy::Nobody => [false; 2],
            SeenBy::Owner if per_player => {
                let mut known = [false; 2];
                known[usize::from(slot % 2)] = true;
                known
            }
            SeenBy::Owner => [false; 2],
        }
    }

    fn slot(&self, zone: ZoneId, owner: Option<Player>) -> Result<u8, String> {
        let Some(&(per_player, _)) = self.rules.zones.get(usize::from(zone.0)) else {
            return Err("no such zone".into());
        };
        match (per_player, owner) {
            (true, None) => Err("this zone is kept per player: name whose".into()),
            (false, Some(_)) => Err("this zone is shared: name no player".into()),
            _ => Ok(slot_of(zone, owner)),
        }
    }

    /// The item on `square`, with its face.
    pub fn at(&self, square: Square) -> Option<OnSquare> {
        self.squares[square.index()]
    }

    /// A zone's items, top first.
    pub fn zone(&self, zone: ZoneId, owner: Option<Player>) -> Result<Vec<ItemId>, String> {
        let slot = self.slot(zone, owner)?;
        Ok(self.slots[usize::from(slot)].iter().map(|h| h.item).collect())
    }

    /// Where `item` is.
    pub fn find(&self, item: ItemId) -> Place {
        if let Some(square) = Square::all().find(|sq| self.at(*sq).is_some_and(|s| s.held.item == item)) {
            let face = self.at(square).map_or(Face::Down, |s| s.face);
            return Place::Square { square, face };
        }
        for (slot, held) in self.slots.iter().enumerate() {
            if held.iter().any(|h| h.item == item) && slot != self.out_slot() {
                let zone = ZoneId((slot / 2) as u8);
                let per_player = self.rules.zones[slot / 2].0;
                let owner = per_player.then(|| Player::BOTH[slot % 2]);
                return Place::Zone { zone, owner };
            }
        }
        Place::OUT
    }

    /// Takes `item` from where it is: where it was, and who knew it.
    fn lift(&mut self, item: ItemId) -> (Place, [bool; 2]) {
        let place = self.find(item);
        if let Place::Square { square, .. } = place {
            let held = self.squares[square.index()].take().map_or([false; 2], |s| s.held.known);
            return (place, held);
        }
        for list in &mut self.slots {
            if let Some(i) = list.iter().position(|h| h.item == item) {
                let held = list.remove(i);
                return (place, held.known);
            }
        }
        (place, [false; 2])
    }

    /// Puts `item` at `to` (on top of a zone, or at its bottom when
    /// `bottom`): where it was. Who knew it still does; a zone's sight adds
    /// who sees it there; face up, both know it.
    pub fn put(&mut self, item: ItemId, to: Place, bottom: bool) -> Result<Place, String> {
        match to {
            Place::Square { square, .. } if self.at(square).is_some_and(|s| s.held.item != item) => {
                return Err(format!("{square} already holds one"));
            }
            Place::Zone { zone, owner } => {
                self.slot(zone, owner)?;
            }
            _ => {}
        }
        let (from, mut known) = self.lift(item);
        match to {
            Place::Square { square, face } => {
                if face == Face::Up {
                    known = [true; 2];
                }
                self.squares[square.index()] = Some(OnSquare { held: Held { item, known }, face });
            }
            Place::Zone { zone, owner } => {
                let slot = slot_of(zone, owner);
                let sight = self.sight(slot);
                let held = Held { item, known: [known[0] || sight[0], known[1] || sight[1]] };
                let list = &mut self.slots[usize::from(slot)];
                if bottom { list.push(held) } else { list.insert(0, held) }
            }
            Place::Out { .. } => {
                let out = self.out_slot();
                self.slots[out].push(Held { item, known });
            }
        }
        Ok(from)
    }

    /// Turns the item on `square` to `face`: its id. Turned up, both players
    /// know it; turned down, whoever knew it still does.
    pub fn turn(&mut self, square: Square, face: Face) -> Result<ItemId, String> {
        let on = self.squares[square.index()].as_mut().ok_or_else(|| format!("{square} holds nothing"))?;
        if on.face == face {
            let side = if face == Face::Up { "up" } else { "down" };
            return Err(format!("the one on {square} already lies face {side}"));
        }
        on.face = face;
        if face == Face::Up {
            on.held.known = [true; 2];
        }
        Ok(on.held.item)
    }

    /// Shuffles a zone: a player who does not see the zone no longer knows
    /// where in it any item is.
    pub fn shuffle(&mut self, zone: ZoneId, owner: Option<Player>, rng: &mut GameRng) -> Result<(), String> {
        let slot = self.slot(zone, owner)?;
        let sight = self.sight(slot);
        let list = &mut self.slots[usize::from(slot)];
        rng.shuffle(list);
        for held in list {
            held.known = sight;
        }
        Ok(())
    }

    /// `player` is shown `item`, wherever it is.
    pub fn reveal(&mut self, item: ItemId, player: Player) {
        let p = player.index();
        for on in self.squares.iter_mut().flatten() {
            if on.held.item == item {
                on.held.known[p] = true;
            }
        }
        for held in self.slots.iter_mut().flatten() {
            if held.item == item {
                held.known[p] = true;
            }
        }
    }

    /// Sets who knows `item`, wherever it is (a scene's set-up); face up, both do.
    pub fn set_known(&mut self, item: ItemId, known: [bool; 2]) {
        for on in self.squares.iter_mut().flatten() {
            if on.held.item == item {
                on.held.known = if on.face == Face::Up { [true; 2] } else { known };
            }
        }
        for held in self.slots.iter_mut().flatten() {
            if held.item == item {
                held.known = known;
            }
        }
    }

    /// Whether `player` knows the item at `place`'s square (for narration).
    pub fn knows(&self, item: ItemId, player: Player) -> bool {
        let p = player.index();
        self.squares
            .iter()
            .flatten()
            .map(|s| s.held)
            .chain(self.slots.iter().flatten().copied())
            .any(|h| h.item == item && h.known[p])
    }

    /// Whether some item is held where `viewer` does not know it.
    pub fn any_unknown_to(&self, viewer: Player) -> bool {
        let p = viewer.index();
        self.squares.iter().flatten().any(|s| !s.held.known[p]) || self.slots.iter().flatten().any(|h| !h.known[p])
    }

    /// What both players know.
    pub fn public(&self) -> Table {
        let both = |h: &Held| (h.known[0] && h.known[1]).then_some(h.item);
        let mut squares = [None; 64];
        for (i, on) in self.squares.iter().enumerate() {
            squares[i] = on.map(|on| (on.face, both(&on.held)));
        }
        // The out-of-play slot is no zone: nothing of it is public.
        let zones = self.slots.len() - 1;
        let slots = self.slots[..zones].iter().map(|list| list.iter().map(both).collect()).collect();
        Table { squares, slots }
    }

    /// The items as `viewer` may know them: every item the viewer does not
    /// know swapped for the unknown items of its group in id order, so states
    /// that differ only in what the viewer cannot see give equal results.
    pub fn seen_by(&self, viewer: Player) -> Items {
        let mut seen = self.clone();
        seen.refill(viewer, |_| {});
        seen
    }

    /// A guess at the items for `viewer`: the unknown items of each group
    /// shuffled over the places they hold.
    pub fn guess(&mut self, viewer: Player, shuffle: &mut dyn FnMut(&mut [ItemId])) {
        self.refill(viewer, shuffle);
    }

    /// Puts the unknown items of each group, sorted and then given to
    /// `order`, back over the places unknown items of that group hold, in
    /// place order (squares a1 first, then the zones).
    fn refill(&mut self, viewer: Player, order: impl FnMut(&mut [ItemId])) {
        let mut order = order;
        let p = viewer.index();
        let groups = self.rules.group.iter().copied().max().map_or(0, |g| usize::from(g) + 1);
        let mut by_group: Vec<Vec<ItemId>> = vec![Vec::new(); groups];
        let unknown = |h: &Held| !h.known[p];
        for held in self.squares.iter().flatten().map(|s| &s.held).chain(self.slots.iter().flatten()) {
            if unknown(held) {
                by_group[usize::from(self.rules.group[usize::from(held.item.0)])].push(held.item);
            }
        }
        for items in &mut by_group {
            items.sort_unstable();
            order(items);
            items.reverse();
        }
        let group = Arc::clone(&self.rules);
        let mut next = |held: &mut Held| {
            if unknown(held) {
                let g = usize::from(group.group[usize::from(held.item.0)]);
                if let Some(item) = by_group[g].pop() {
                    held.item = item;
                }
            }
        };
        for on in self.squares.iter_mut().flatten() {
            next(&mut on.held);
        }
        for held in self.slots.iter_mut().flatten() {
            next(held);
        }
    }

    /// Every item held exactly once; a face-up one known to both.
    pub fn validate(&self) -> Result<(), String> {
        let mut seen = vec![false; self.rules.group.len()];
        let mut note = |item: ItemId| -> Result<(), String> {
            match seen.get_mut(usize::from(item.0)) {
                None => Err(format!("item #{} is not in the deck", item.0)),
                Some(true) => Err(format!("item #{} is held twice", item.0)),
                Some(s) => {
                    *s = true;
                    Ok(())
                }
            }
        };
        for on in self.squares.iter().flatten() {
            note(on.held.item)?;
            if on.face == Face::Up && on.held.known != [true; 2] {
                return Err(format!("item #{} lies face up but is not known to both", on.held.item.0));
            }
        }
        for held in self.slots.iter().flatten() {
            note(held.item)?;
        }
        match seen.iter().position(|s| !s) {
            Some(i) => Err(format!("item #{i} is nowhere")),
            None => Ok(()),
        }
    }
}

/// How [`Items`] is saved: squares by name.
#[derive(Serialize, Deserialize)]
struct ItemsForm {
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    squares: std::collections::BTreeMap<Square, OnSquare>,
    slots: Vec<Vec<Held>>,
    rules: Arc<ItemRules>,
}

impl From<Items> for ItemsForm {
    fn from(items: Items) -> ItemsForm {
        let squares = Square::all().filter_map(|sq| Some((sq, items.squares[sq.index()]?))).collect();
        ItemsForm { squares, slots: items.slots, rules: items.rules }
    }
}

impl TryFrom<ItemsForm> for Items {
    type Error = String;

    fn try_from(form: ItemsForm) -> Result<Items, String> {
        let mut squares = [None; 64];
        for (square, on) in form.squares {
            squares[square.index()] = Some(on);
        }
        if form.slots.len() != form.rules.zones.len() * 2 + 1 {
            return Err("items: the zones do not match the deck's".into());
        }
        let items = Items { squares, slots: form.slots, rules: form.rules };
        items.validate().map_err(|e| format!("items: {e}"))?;
        Ok(items)
    }
}

impl super::GameState {
    /// Every item and where it is (hidden: ask [`super::Position::table`] for
    /// what both players know); `None` when the deck has none.
    pub fn items(&self) -> Option<&Items> {
        self.hidden.items.as_deref()
    }

    /// Replaces every item's place (a scene's set-up).
    pub fn set_items(&mut self, items: Items) {
        self.position.table = Some(Box::new(items.public()));
        self.hidden.items = Some(Box::new(items));
    }

    /// Changes the items and makes the position's [`Table`] agree.
    fn change_items<T>(&mut self, op: impl FnOnce(&mut Items, &mut GameRng) -> Result<T, String>) -> Result<T, String> {
        let items = self.hidden.items.as_deref_mut().ok_or("this deck has no items (items: in its manifest)")?;
        let out = op(items, &mut self.hidden.rng)?;
        self.position.table = Some(Box::new(items.public()));
        Ok(out)
    }

    /// Moves `item` to `to` (a zone's top, or its bottom when `bottom`).
    pub fn move_item(&mut self, item: ItemId, to: Place, bottom: bool) -> Result<(), String> {
        let from = self.change_items(|items, _| items.put(item, to, bottom))?;
        let known = self.known_to_each(item);
        self.journal.push(|| GameEvent::ItemMoved { item, from, to, known });
        Ok(())
    }

    /// Turns the item on `square` to `face`: its id.
    pub fn turn_item(&mut self, square: Square, face: Face) -> Result<ItemId, String> {
        let item = self.change_items(|items, _| items.turn(square, face))?;
        let known = self.known_to_each(item);
        self.journal.push(|| GameEvent::ItemTurned { at: square, item, face, known });
        Ok(item)
    }

    /// Shuffles a zone with the game's generator (R2.4).
    pub fn shuffle_items(&mut self, zone: ZoneId, owner: Option<Player>) -> Result<(), String> {
        self.change_items(|items, rng| items.shuffle(zone, owner, rng))?;
        self.journal.push(|| GameEvent::ItemsShuffled { zone, owner });
        Ok(())
    }

    /// Shows `item` to `player`.
    pub fn reveal_item(&mut self, item: ItemId, player: Player) -> Result<(), String> {
        self.change_items(|items, _| {
            items.reveal(item, player);
            Ok(())
        })?;
        self.journal.push(|| GameEvent::ItemRevealed { item, to: player });
        Ok(())
    }

    /// Whether each player knows `item` now (what narration may tell them).
    fn known_to_each(&self, item: ItemId) -> [bool; 2] {
        self.items().map_or([false; 2], |items| Player::BOTH.map(|p| items.knows(item, p)))
    }
}
