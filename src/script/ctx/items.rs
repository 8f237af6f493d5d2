//! `ctx`'s items and zones (cards/README.md, "Items and zones"): reading what
//! both players know (the position's table) or everything (the hidden
//! items, which the search guesses), and moving, turning, shuffling and
//! showing items.

use mlua::{Table, Value};

use super::{ApiBuilder, Runs, Sees, operation, pure, query};
use crate::game::{Catalogue, Face, ItemId, Place, ZoneId};
use crate::kernel::{Player, Square};
use crate::script::convert::{player, rule, square};
use crate::script::names::names;
use crate::script::run::{Cx, R, err};

/// The deck's catalogue, or the error of a deck without items.
fn catalogue<'a>(cx: &'a Cx) -> R<&'a Catalogue> {
    cx.shared.items.as_deref().ok_or_else(|| err("this deck has no items (items: and zones: in its manifest)"))
}

fn item_id(cx: &Cx, id: &str) -> R<ItemId> {
    let c = catalogue(cx)?;
    c.item_named(id).ok_or_else(|| {
        err(format!(
            "no {} of this deck is called '{}'",
            c.label,
            crate::text::visible(&id.chars().take(40).collect::<String>())
        ))
    })
}

/// A zone and whose, checked against the zone's kind.
fn zone_of(cx: &Cx, name: &str, owner: Option<String>) -> R<(ZoneId, Option<Player>)> {
    let c = catalogue(cx)?;
    let zone = c.zone_named(name).ok_or_else(|| {
        let known: Vec<&str> = c.zones.iter().map(|z| z.name.as_str()).collect();
        err(format!("'{}' is not a zone of this deck ({})", crate::text::visible(name), known.join(", ")))
    })?;
    let owner = owner.map(|p| player(&p)).transpose()?;
    match (c.zone(zone).per_player, owner) {
        (true, None) => Err(err(format!("zone '{name}' is kept per player: say whose (\"dark\" or \"light\")"))),
        (false, Some(_)) => Err(err(format!("zone '{name}' is shared: name no player"))),
        _ => Ok((zone, owner)),
    }
}

fn zone_args(cx: &Cx, (name, owner): (String, Option<String>)) -> R<(ZoneId, Option<Player>)> {
    zone_of(cx, &name, owner)
}

fn face(text: &str) -> R<Face> {
    match text {
        "up" => Ok(Face::Up),
        "down" => Ok(Face::Down),
        other => Err(err(format!("a face is \"up\" or \"down\", not '{}'", crate::text::visible(other)))),
    }
}

fn face_name(face: Face) -> &'static str {
    match face {
        Face::Up => "up",
        Face::Down => "down",
    }
}

fn one_square(_: &Cx, sq: String) -> R<Square> {
    square(&sq)
}

/// `{face = "up", id = "QS"}` (`id` only when known), or `nil`.
fn face_table(cx: &Cx, found: Option<(Face, Option<ItemId>)>) -> R<Value> {
    let Some((face, item)) = found else { return Ok(Value::Nil) };
    let t = cx.create_table_with_capacity(0, 2)?;
    t.raw_set("face", face_name(face))?;
    if let Some(item) = item {
        t.raw_set("id", catalogue(cx)?.item(item).id.as_str())?;
    }
    Ok(Value::Table(t))
}

fn id_list(cx: &Cx, items: Vec<ItemId>) -> R<Table> {
    let c = catalogue(cx)?;
    cx.create_sequence_from(items.into_iter().map(|i| c.item(i).id.as_str()))
}

/// `{square = "c3", face = "down"}`, `{zone = "stockpile", owner = "dark"}`, or `nil` (out of play).
fn place_table(cx: &Cx, place: Place) -> R<Value> {
    let t = cx.create_table_with_capacity(0, 2)?;
    match place {
        Place::Square { square, face } => {
            t.raw_set("square", names(cx).square(square))?;
            t.raw_set("face", face_name(face))?;
        }
        Place::Zone { zone, owner } => {
            t.raw_set("zone", catalogue(cx)?.zone(zone).name.as_str())?;
            if let Some(p) = owner {
                t.raw_set("owner", names(cx).player(p))?;
            }
        }
        Place::Out { .. } => return Ok(Value::Nil),
    }
    Ok(Value::Table(t))
}

/// Where `move_item` puts an item: `{zone =, owner =, at = "top"|"bottom"}`
/// or `{square =, face = "down"|"up"}`; and whether at a zone's bottom.
fn destination(cx: &Cx, to: &Table) -> R<(Place, bool)> {
    // A misspelt key is an error, not ignored.
    for pair in to.pairs::<Value, Value>() {
        let (key, _) = pair?;
        let name = match &key {
            Value::String(k) => k.to_string_lossy(),
            _ => String::from("a key that is not a name"),
        };
        if !["zone", "owner", "at", "square", "face"].contains(&name.as_str()) {
            return Err(err(format!(
                "'{}' is not part of move_item's destination (zone, owner and at, or square and face)",
                crate::text::visible(&name)
            )));
        }
    }
    if let Some(sq) = to.raw_get::<Option<String>>("square")? {
        if to.contains_key("zone")? || to.contains_key("owner")? || to.contains_key("at")? {
            return Err(err("move_item's destination is a square or a zone, not both"));
        }
        let face = to.raw_get::<Option<String>>("face")?.map_or(Ok(Face::Down), |f| face(&f))?;
        return Ok((Place::Square { square: square(&sq)?, face }, false));
    }
    let zone: String =
        to.raw_get::<Option<String>>("zone")?.ok_or_else(|| err("move_item's destination names a square or a zone"))?;
    if to.contains_key("face")? {
        return Err(err("an item in a zone has no face: face is for squares"));
    }
    let (zone, owner) = zone_of(cx, &zone, to.raw_get("owner")?)?;
    let bottom = match to.raw_get::<Option<String>>("at")?.as_deref() {
        None | Some("top") => false,
        Some("bottom") => true,
        Some(other) => return Err(err(format!("at is \"top\" or \"bottom\", not '{}'", crate::text::visible(other)))),
    };
    Ok((Place::Zone { zone, owner }, bottom))
}

pub(super) fn register(m: &mut ApiBuilder) {
    pure(m, "item", |cx, id: String| {
        let c = catalogue(cx)?;
        let def = c.item(item_id(cx, &id)?);
        let tags = cx.create_table_with_capacity(0, def.tags.len())?;
        for tag in &def.tags {
            tags.raw_set(tag.as_str(), true)?;
        }
        let t = cx.create_table_with_capacity(0, 3)?;
        t.raw_set("id", def.id.as_str())?;
        t.raw_set("value", def.value)?;
        t.raw_set("tags", tags)?;
        Ok(t)
    });
    query(m, "item_at", Sees::Position, one_square, |s, _, sq| s.table.as_ref().and_then(|t| t.at(*sq)), face_table);
    query(
        m,
        "secret_item_at",
        Sees::Hidden,
        one_square,
        |s, _, sq| s.items().and_then(|i| i.at(*sq)).map(|on| (on.face, Some(on.held.item))),
        face_table,
    );
    query(
        m,
        "count_items",
        Sees::Position,
        zone_args,
        |s, _, (zone, owner)| s.table.as_ref().map_or(0, |t| t.count(*zone, *owner)),
        |_, n: usize| Ok(n),
    );
    query(
        m,
        "items",
        Sees::Hidden,
        zone_args,
        |s, _, (zone, owner)| s.items().and_then(|i| i.zone(*zone, *owner).ok()).unwrap_or_default(),
        id_list,
    );
    query(
        m,
        "find_item",
        Sees::Hidden,
        |cx, id: String| item_id(cx, &id),
        |s, _, item| s.items().map_or(Place::OUT, |i| i.find(*item)),
        place_table,
    );
    operation(m, "move_item", Runs::Cards, Sees::Hidden, |cx, r, (id, to): (String, Table)| {
        let item = item_id(cx, &id)?;
        let (to, bottom) = destination(cx, &to)?;
        rule(r.state.move_item(item, to, bottom))
    });
    operation(m, "turn_item", Runs::Cards, Sees::Hidden, |cx, r, (sq, to): (String, String)| {
        let item = rule(r.state.turn_item(square(&sq)?, face(&to)?))?;
        Ok(catalogue(cx)?.item(item).id.clone())
    });
    operation(m, "shuffle_items", Runs::Cards, Sees::Hidden, |cx, r, args: (String, Option<String>)| {
        let (zone, owner) = zone_args(cx, args)?;
        rule(r.state.shuffle_items(zone, owner))
    });
    operation(m, "reveal_item", Runs::Cards, Sees::Hidden, |cx, r, (id, to): (String, String)| {
        let item = item_id(cx, &id)?;
        rule(r.state.reveal_item(item, player(&to)?))
    });
}
