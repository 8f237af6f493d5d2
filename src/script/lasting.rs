//! The conversions behind lasting effects, kept apart from `ctx`'s
//! registration: an effect's spec and data from Lua tables, and its data and
//! the events handlers receive as Lua tables. Pure: none of them reads the run.

use std::collections::BTreeMap;

use mlua::{Lua, Table, Value};
use serde_json::Value as Json;

use crate::content::Content;
use crate::game::{ActsFor, Affected, Data, Datum, Lasting, MAX_DATA_DEPTH, Tally};
use crate::game::{Effect, EventKind, Logged};
use crate::kernel::{MoveRules, PieceMoves, Player};
use crate::script::convert::squares_of;

type R<T> = mlua::Result<T>;

fn err(message: impl Into<String>) -> mlua::Error {
    mlua::Error::runtime(message.into())
}

fn bound(e: crate::game::BoundError) -> mlua::Error {
    mlua::Error::runtime(e.0)
}

/// `ctx:add_effect`'s table, read.
pub struct EffectSpec {
    pub affects: Affected,
    pub acts_for: ActsFor,
    pub moves: MoveRules,
    pub lasts: Lasting,
    pub data: Data,
}

/// Reads `ctx:add_effect`'s table: `lasts` (a number of the user's turns from 1
/// to 100, `"game"`, or `{ends_at = kind}`), `affects` (`"user"`, the default,
/// `"opponent"` or `"both"`), `acts_for` (`"user"`, the default, or `"mover"`),
/// `moves` (`pawns_step_back`, `closed`, `capture_optional`) and `data` (the
/// effect's own plain values). Any other key is an error, so a misspelt rule
/// is not silently ignored.
pub fn effect_spec(lua: &mlua::Lua, spec: &Table) -> R<EffectSpec> {
    only_keys(
        spec,
        &["lasts", "affects", "acts_for", "moves", "data"],
        "an effect has only lasts, affects, acts_for, moves and data",
    )?;
    let lasts = match spec.raw_get::<Value>("lasts")? {
        Value::Integer(n) if (1..=100).contains(&n) => Lasting::OwnerTurns(n as u32),
        Value::String(s) if s.as_bytes().as_ref() == b"game" => Lasting::Game,
        Value::Table(t) => {
            only_keys(&t, &["ends_at"], "lasts = {ends_at = kind} has only ends_at")?;
            let kind: String = t.raw_get::<Option<String>>("ends_at")?.unwrap_or_default();
            let kind = EventKind::named(&kind)
                .ok_or_else(|| err(format!("lasts: no event is called '{kind}' (README, \"Events\")")))?;
            Lasting::Until(kind)
        }
        _ => {
            return Err(err("an effect's lasts is a number of turns from 1 to 100, \"game\" or {ends_at = kind}"));
        }
    };
    let affects = match spec.raw_get::<Option<String>>("affects")?.as_deref() {
        None | Some("user") => Affected::Owner,
        Some("opponent") => Affected::Opponent,
        Some("both") => Affected::Both,
        Some(other) => {
            return Err(err(format!("'{other}' is not whose moves an effect changes (user, opponent, both)")));
        }
    };
    let acts_for = match spec.raw_get::<Option<String>>("acts_for")?.as_deref() {
        None | Some("user") => ActsFor::Owner,
        Some("mover") => ActsFor::Mover,
        Some(other) => {
            return Err(err(format!("'{other}' is not whom an effect's handlers act for (user, mover)")));
        }
    };
    let mut moves = MoveRules::STANDARD;
    if let Some(m) = spec.raw_get::<Option<Table>>("moves")? {
        only_keys(&m, &MOVE_KEYS, "an effect's moves are pawns_step_back, closed, capture_optional, pawns and kings")?;
        moves.pawns_step_back = flag(&m, "pawns_step_back")?;
        moves.capture_optional = flag(&m, "capture_optional")?;
        moves.closed = squares_of(lua, m.raw_get::<Option<Table>>("closed")?)?;
        moves.pawns = piece_moves(lua, &m, "pawns")?;
        moves.kings = piece_moves(lua, &m, "kings")?;
    }
    let data = match spec.raw_get::<Option<Table>>("data")? {
        Some(t) => data_of(&t)?,
        None => Data::new(),
    };
    Ok(EffectSpec { affects, acts_for, moves, lasts, data })
}

/// The keys of an effect's `moves` table.
pub const MOVE_KEYS: [&str; 5] = ["pawns_step_back", "closed", "capture_optional", "pawns", "kings"];

/// `moves.pawns` or `moves.kings`: ways, reach and flight added to how those
/// checkers move, written as in a deck's `moves:` (cards/README.md, "Moves as data").
fn piece_moves(lua: &Lua, moves: &Table, key: &str) -> R<PieceMoves> {
    use mlua::LuaSerdeExt;
    match moves.raw_get::<Value>(key)? {
        Value::Nil => Ok(PieceMoves::NONE),
        value @ Value::Table(_) => {
            lua.from_value(value).map_err(|e| err(format!("moves.{key}: {}", e.to_string().trim_end_matches('.'))))
        }
        _ => Err(err(format!("moves.{key} is a table like {{steps = \"forward_diagonals\", reach = 2}}"))),
    }
}

/// The first key of a `moves = { … }` table written in `source` that is not
/// one of [`MOVE_KEYS`], with its line: found when the script is loaded (and by
/// `check`), not only when the card runs. Comments and strings are skipped;
/// a table built some other way is still checked when it is used.
pub fn unknown_move_key(source: &str) -> Option<(usize, String)> {
    let code = code_only(source);
    let mut at = 0;
    while let Some(found) = code[at..].find("moves") {
        let start = at + found;
        at = start + 5;
        let before = code[..start].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == ':') {
            continue;
        }
        let rest = code[at..].trim_start();
        let Some(rest) = rest.strip_prefix('=').map(str::trim_start) else { continue };
        let Some(body) = rest.strip_prefix('{') else { continue };
        let body_start = code.len() - body.len();
        let mut depth = 0usize;
        let mut end = body_start;
        for (i, c) in body.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    end = body_start + i;
                    break;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        // Keys at the table's own level: `name =` (not `==`).
        let table = &code[body_start..end];
        let mut level = 0usize;
        let mut word_start: Option<usize> = None;
        let bytes = table.as_bytes();
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'{' => level += 1,
                b'}' => level = level.saturating_sub(1),
                b if level == 0 && (b.is_ascii_alphanumeric() || b == b'_') => {
                    word_start.get_or_insert(i);
                    continue;
                }
                _ => {}
            }
            if let Some(s) = word_start.take() {
                let word = &table[s..i];
                let after = table[i..].trim_start();
                let before = table[..s].trim_end();
                let is_key = after.starts_with('=')
                    && !after.starts_with("==")
                    && (before.is_empty() || before.ends_with(',') || before.ends_with(';'));
                if level == 0 && is_key && !MOVE_KEYS.contains(&word) {
                    let line = source[..body_start + s].lines().count().max(1);
                    return Some((line, word.to_string()));
                }
            }
        }
    }
    None
}

/// `source` with comments and string contents blanked to spaces (newlines
/// kept), so a scan of the code finds no word inside them.
fn code_only(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut chars = source.chars().peekable();
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while let Some(c) = chars.next() {
        match c {
            '-' if chars.peek() == Some(&'-') => {
                out.push(' ');
                for c in chars.by_ref() {
                    out.push(blank(c));
                    if c == '\n' {
                        break;
                    }
                }
            }
            '"' | '\'' => {
                let quote = c;
                out.push(' ');
                let mut escaped = false;
                for c in chars.by_ref() {
                    out.push(blank(c));
                    match c {
                        '\\' if !escaped => escaped = true,
                        c if c == quote && !escaped => break,
                        _ => escaped = false,
                    }
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// A rule switch: `true`, `false` or absent (false). Anything else is refused,
/// so no value that merely looks true (a function, a table) switches a rule on.
fn flag(t: &Table, key: &str) -> R<bool> {
    match t.raw_get::<Value>(key)? {
        Value::Nil => Ok(false),
        Value::Boolean(b) => Ok(b),
        other => Err(err(format!("moves.{key} is true or false, not a {}", other.type_name()))),
    }
}

pub(super) fn only_keys(t: &Table, keys: &[&str], message: &str) -> R<()> {
    for pair in t.clone().pairs::<Value, Value>() {
        let (key, _) = pair?;
        if !matches!(&key, Value::String(k) if keys.iter().any(|n| k.as_bytes().as_ref() == n.as_bytes())) {
            return Err(err(message));
        }
    }
    Ok(())
}

/// An effect's data from a Lua table with string keys. Values are booleans,
/// whole numbers, strings, lists and such tables; the bounds of game/data.rs
/// hold (so a cyclic table is refused by its depth, a huge one by its size,
/// before it is read through).
pub fn data_of(table: &Table) -> R<Data> {
    let mut tally = Tally::default();
    match datum_of(&Value::Table(table.clone()), 0, &mut tally)? {
        Datum::Table(map) => Ok(map),
        Datum::List(items) if items.is_empty() => Ok(Data::new()),
        _ => Err(err("an effect's data is a table with string keys")),
    }
}

fn datum_of(value: &Value, depth: usize, tally: &mut Tally) -> R<Datum> {
    // The data's own table is not one of its values.
    if depth > 0 {
        tally.value().map_err(bound)?;
    }
    Ok(match value {
        Value::Boolean(b) => Datum::Bool(*b),
        Value::Integer(i) => Datum::Int(*i),
        Value::Number(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Datum::Int(*n as i64),
        Value::Number(n) => return Err(err(format!("an effect's data holds whole numbers only, not {n}"))),
        Value::String(s) => {
            tally.bytes_of(s.as_bytes().len()).map_err(bound)?;
            Datum::Text(s.to_str()?.to_string())
        }
        Value::Table(t) => {
            if depth >= MAX_DATA_DEPTH {
                return Err(err(format!("an effect's data nests at most {MAX_DATA_DEPTH} tables deep")));
            }
            let length = t.raw_len();
            let mut list = Vec::new();
            let mut map = BTreeMap::new();
            for pair in t.clone().pairs::<Value, Value>() {
                let (key, v) = pair?;
                if let Value::String(k) = &key {
                    tally.bytes_of(k.as_bytes().len()).map_err(bound)?;
                }
                let item = datum_of(&v, depth + 1, tally)?;
                match key {
                    Value::String(k) => {
                        map.insert(k.to_str()?.to_string(), item);
                    }
                    Value::Integer(i) if i >= 1 && (i as usize) <= length => list.push((i, item)),
                    other => {
                        return Err(err(format!(
                            "an effect's data has string keys or list positions, not a {} key",
                            other.type_name()
                        )));
                    }
                }
            }
            match (list.is_empty(), map.is_empty()) {
                (true, _) => Datum::Table(map),
                (false, true) => {
                    list.sort_by_key(|(i, _)| *i);
                    Datum::List(list.into_iter().map(|(_, v)| v).collect())
                }
                (false, false) => {
                    return Err(err("a table in an effect's data is a list or has string keys, not both"));
                }
            }
        }
        Value::Nil => return Err(err("an effect's data cannot hold nil")),
        other => return Err(err(format!("an effect's data holds plain values, not a {}", other.type_name()))),
    })
}

/// An effect's data as a fresh Lua table.
pub fn data_to_lua(lua: &Lua, data: &Data) -> R<Table> {
    // Made with room for its fields (growing a table one key at a time resizes it each time).
    let table = lua.create_table_with_capacity(0, data.len())?;
    for (k, v) in data {
        table.raw_set(k.as_str(), datum_to_lua(lua, v)?)?;
    }
    Ok(table)
}

fn datum_to_lua(lua: &Lua, datum: &Datum) -> R<Value> {
    Ok(match datum {
        Datum::Bool(b) => Value::Boolean(*b),
        Datum::Int(i) => Value::Integer(*i),
        Datum::Text(t) => Value::String(lua.create_string(t)?),
        Datum::List(items) => {
            Value::Table(lua.create_sequence_from(items.iter().map(|d| datum_to_lua(lua, d)).collect::<R<Vec<_>>>()?)?)
        }
        Datum::Table(map) => Value::Table(data_to_lua(lua, map)?),
    })
}

/// The event a handler receives: the fields `replay --events` gives it
/// (`narrate::event_json`: squares by name, checkers as `{owner, kind, …}`, card
/// and planet ids, `cause`), and `player`, whose turn it happened in.
pub fn event_to_lua(lua: &Lua, content: &Content, event: &Logged, player: Player) -> R<Table> {
    match json_to_lua(lua, &crate::narrate::event_json(content, event, player))? {
        Value::Table(table) => Ok(table),
        _ => Err(err("an event could not be read")),
    }
}

fn json_to_lua(lua: &Lua, value: &Json) -> R<Value> {
    Ok(match value {
        Json::Null => Value::Nil,
        Json::Bool(b) => Value::Boolean(*b),
        Json::Number(n) => n.as_i64().map_or_else(|| Value::Number(n.as_f64().unwrap_or(0.0)), Value::Integer),
        Json::String(s) => Value::String(lua.create_string(s)?),
        Json::Array(items) => {
            Value::Table(lua.create_sequence_from(items.iter().map(|v| json_to_lua(lua, v)).collect::<R<Vec<_>>>()?)?)
        }
        Json::Object(map) => {
            let t = lua.create_table_with_capacity(0, map.len())?;
            for (k, v) in map {
                t.raw_set(k.as_str(), json_to_lua(lua, v)?)?;
            }
            Value::Table(t)
        }
    })
}

/// The `effect` a handler receives: `{id, card, owner, data}`.
pub fn effect_to_lua(lua: &Lua, content: &Content, effect: &Effect, owner: &str) -> R<Table> {
    let table = lua.create_table_with_capacity(0, 4)?;
    table.raw_set("id", effect.id)?;
    table.raw_set("card", content.card(effect.card).map_or_else(|| format!("#{}", effect.card.0), |c| c.id.clone()))?;
    table.raw_set("owner", owner)?;
    table.raw_set("data", data_to_lua(lua, &effect.data)?)?;
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_move_keys_are_found_in_the_source_with_their_line() {
        let good = "function play(ctx)\n  ctx:add_effect{ lasts = 1, moves = { pawns_step_back = true, closed = {'d4'} } }\nend";
        assert_eq!(unknown_move_key(good), None);
        let bad = "function play(ctx)\n  -- moves = { nothing = true }\n  local s = 'moves = { nope = 1 }'\n\
                   ctx:add_effect{ lasts = 1,\n    moves = { pawns_dash = true } }\nend";
        assert_eq!(unknown_move_key(bad), Some((5, "pawns_dash".to_string())));
        let compare = "local moves = {}\nif moves == nil then end\nlocal t = { moves = { capture_optional = x == 1 } }";
        assert_eq!(unknown_move_key(compare), None);
    }
}
