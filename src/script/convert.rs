//! Pure conversions of a script's Lua values to the kernel's types: squares,
//! players, directions, filters. They read values only (never run script code)
//! and name what is wrong in their errors.

use mlua::{LuaString, Table, Value};

use crate::kernel::{Bitboard, Dir, Player, Square, Terrain, Token};
use crate::script::ctx::marker_kind;
use crate::script::memo::{BlockFilter, CheckerFilter, CounterName, KindFilter, MarkerFilter, SquareFilter};
use crate::script::run::{Cx, R, err};

pub(super) fn rule<T, E: std::fmt::Display>(r: Result<T, E>) -> R<T> {
    r.map_err(|e| err(e.to_string()))
}

pub(super) fn square(s: &str) -> R<Square> {
    match square_named(s.as_bytes()) {
        Some(sq) => Ok(sq),
        None => rule(s.parse::<Square>()),
    }
}

pub(super) fn player(s: &str) -> R<Player> {
    match s {
        // The names the API itself gives, without the kernel parser's allocation.
        "dark" => Ok(Player::Dark),
        "light" => Ok(Player::Light),
        _ => rule(s.parse::<Player>()),
    }
}

/// A script's value as text without running any of its code: strings and numbers
/// only. (`Value::to_string` would call a `__tostring` metamethod, letting script
/// code run inside a host function, and shows a table's address.)
pub(super) fn text_of(v: &Value) -> R<String> {
    match v {
        Value::String(s) => Ok(s.to_str()?.to_string()),
        Value::Integer(i) => Ok(i.to_string()),
        Value::Number(n) => Ok(n.to_string()),
        other => Err(err(format!("expected a string, got a {}", other.type_name()))),
    }
}

/// A filter's player value: a string naming one, as `player` reads it.
pub(super) fn player_value(v: &Value) -> R<Player> {
    match v {
        Value::String(s) if s.as_bytes().as_ref() == b"dark" => Ok(Player::Dark),
        Value::String(s) if s.as_bytes().as_ref() == b"light" => Ok(Player::Light),
        other => player(&text_of(other)?),
    }
}

pub(super) fn token(s: &str) -> R<Token> {
    Token::ALL
        .into_iter()
        .find(|t| t.name() == s)
        .ok_or_else(|| err(format!("'{s}' is not a token (ring, snookle, hippo)")))
}

pub(super) fn terrain(s: &str) -> R<Terrain> {
    match s {
        "water" => Ok(Terrain::Water),
        "fire" => Ok(Terrain::Fire),
        _ => Err(err(format!("'{s}' is not a terrain (water, fire)"))),
    }
}

/// A direction's name; the kernel's parser (which also knows `north`, `up`, …)
/// for anything but the eight short names.
pub(super) fn dir(s: &str) -> R<Dir> {
    match Dir::ALL.into_iter().find(|d| d.name() == s) {
        Some(d) => Ok(d),
        None => rule(s.parse::<Dir>()),
    }
}

/// `"diagonal"`, `"orthogonal"`, `"all"`, one direction, or a list of directions.
pub(super) fn dirs(value: Value) -> R<Vec<Dir>> {
    match value {
        Value::String(s) => match s.to_str()?.as_ref() {
            "diagonal" => Ok(Dir::DIAGONALS.to_vec()),
            "orthogonal" => Ok(Dir::ORTHOGONALS.to_vec()),
            "all" => Ok(Dir::ALL.to_vec()),
            one => Ok(vec![dir(one)?]),
        },
        Value::Table(t) => t.sequence_values::<LuaString>().map(|d| dir(&d?.to_str()?)).collect(),
        other => Err(err(format!("expected directions, got {}", other.type_name()))),
    }
}

pub(super) fn squares_of(lua: &mlua::Lua, value: Option<Table>) -> R<Bitboard> {
    let mut out = Bitboard::EMPTY;
    if let Some(t) = value {
        each_text(lua, &t, |item| {
            out.insert(square_text(item.text)?);
            Ok(())
        })?;
    }
    Ok(out)
}

/// [`square`] of a list item's or a Lua string's bytes.
fn square_text(text: &[u8]) -> R<Square> {
    match square_named(text) {
        Some(sq) => Ok(sq),
        None => square(utf8(text)?),
    }
}

/// `{owner=, kind=, ring=, snookle=, hippo=, colour=, can_take=}`: which checkers to list or count.
pub(super) fn checker_filter(cx: &Cx, filter: Option<Table>) -> R<CheckerFilter> {
    let mut parsed = CheckerFilter::default();
    let Some(f) = filter else { return Ok(parsed) };
    // Only the keys present are visited, so a small filter costs little.
    f.for_each::<LuaString, Value>(|key, value| {
        let text = |v: &Value| -> R<String> { text_of(v) };
        match key.as_bytes().as_ref() {
            b"owner" => parsed.owner = Some(player_value(&value)?),
            b"kind" => {
                parsed.kind = Some(match text(&value)?.as_str() {
                    "pawn" => KindFilter::Pawn,
                    "king" => KindFilter::King,
                    "emperor" => KindFilter::Emperor,
                    "crowned" => KindFilter::Crowned,
                    other => return Err(err(format!("'{other}' is not a kind (pawn, king, emperor, crowned)"))),
                })
            }
            b"colour" => parsed.colour = Some(colour_mask(&text(&value)?)?),
            b"can_take" => parsed.can_take = Some(token(&text(&value)?)?),
            b"markers" => parsed.markers = marker_filter(cx, &value)?,
            other => {
                let name = String::from_utf8_lossy(other);
                let Some(i) = Token::ALL.into_iter().position(|t| t.name() == name) else {
                    return Err(err(format!(
                        "'{name}' is not a checker filter (owner, kind, colour, ring, snookle, hippo, can_take, markers)"
                    )));
                };
                match value {
                    Value::Boolean(b) => parsed.tokens[i] = Some(b),
                    _ => return Err(err(format!("the filter's {name} must be true or false"))),
                }
            }
        }
        Ok(())
    })?;
    Ok(parsed)
}

pub(super) fn counter_name(name: &str) -> R<CounterName> {
    match name {
        "pawns_revived" => Ok(CounterName::PawnsRevived),
        "emperor_captures" => Ok(CounterName::EmperorCaptures),
        _ => Err(err(format!("'{name}' is not a counter (pawns_revived, emperor_captures)"))),
    }
}

pub(super) fn colour_mask(colour: &str) -> R<Bitboard> {
    match colour {
        "dark" => Ok(Bitboard::DARK),
        "light" => Ok(Bitboard::LIGHT),
        _ => Err(err(format!("'{colour}' is not a square colour (dark, light)"))),
    }
}

/// `{empty=, colour=, half=, back_row=, king_row=, terrain=}`: which squares.
pub(super) fn square_filter(cx: &Cx, filter: Option<Table>) -> R<SquareFilter> {
    let mut parsed = SquareFilter::default();
    let Some(f) = filter else { return Ok(parsed) };
    f.for_each::<LuaString, Value>(|key, value| {
        let text = || -> R<String> { text_of(&value) };
        match key.as_bytes().as_ref() {
            b"empty" => match value {
                Value::Boolean(b) => parsed.empty = Some(b),
                _ => return Err(err("the filter's empty must be true or false")),
            },
            b"colour" => parsed.colour = Some(colour_mask(&text()?)?),
            b"half" => parsed.half = Some(player_value(&value)?),
            b"back_row" => parsed.back_row = Some(player_value(&value)?),
            b"king_row" => parsed.king_row = Some(player_value(&value)?),
            b"terrain" => {
                parsed.terrain = Some(match text()?.as_str() {
                    "any" => None,
                    other => Some(terrain(other)?),
                })
            }
            b"markers" => parsed.markers = marker_filter(cx, &value)?,
            other => {
                return Err(err(format!(
                    "'{}' is not a square filter (empty, colour, half, back_row, king_row, terrain, markers)",
                    String::from_utf8_lossy(other)
                )));
            }
        }
        Ok(())
    })?;
    Ok(parsed)
}

/// `markers = {name = true/false, …}`: the deck's marker kinds by name.
fn marker_filter(cx: &Cx, value: &Value) -> R<MarkerFilter> {
    let Value::Table(t) = value else {
        return Err(err("the filter's markers must be a table of names and true/false"));
    };
    let mut parsed = MarkerFilter::default();
    t.for_each::<LuaString, Value>(|name, wanted| {
        let kind = marker_kind(cx, &name.to_str()?)?;
        match wanted {
            Value::Boolean(b) => parsed.0[usize::from(kind.0)] = Some(b),
            _ => return Err(err(format!("the filter's markers.{} must be true or false", name.to_str()?))),
        }
        Ok(())
    })?;
    Ok(parsed)
}

/// `{owners = {players…}, empty = bool}` for 2×2 blocks: `owners` asks for at
/// least one checker of each player named (R8.19), `empty` for four empty
/// squares (R4.5, R7.1).
pub(super) fn block_filter(lua: &mlua::Lua, filter: Option<Table>) -> R<BlockFilter> {
    let mut parsed = BlockFilter::default();
    if let Some(f) = filter {
        if let Some(t) = f.raw_get::<Option<Table>>("owners")? {
            for p in strings(lua, &t)? {
                parsed.owners[player(&p)?.index()] = true;
            }
        }
        parsed.empty = f.raw_get::<Option<bool>>("empty")?;
    }
    Ok(parsed)
}

pub(super) fn optional(opts: &Option<Table>) -> R<bool> {
    Ok(match opts {
        Some(t) => t.raw_get::<Option<bool>>("optional")?.unwrap_or(false),
        None => false,
    })
}

pub(super) fn strings(lua: &mlua::Lua, t: &Table) -> R<Vec<String>> {
    let mut out = Vec::new();
    each_text(lua, t, |item| {
        out.push(utf8(item.text)?.to_string());
        Ok(())
    })?;
    Ok(out)
}

/// A list item's text as a `&str`.
pub(super) fn utf8(text: &[u8]) -> R<&str> {
    std::str::from_utf8(text).map_err(|_| err("a list item is not valid UTF-8 text"))
}

/// One item of a list read by [`each_text`].
pub(super) struct Item<'a> {
    /// The item as text (a number as Rust writes it, as [`text_of`] does).
    pub(super) text: &'a [u8],
    /// Where the item's Lua string keeps its text (null for a number), as
    /// `LuaString::to_pointer` gives it: an interned name is known by it (names.rs).
    pub(super) address: *const std::ffi::c_void,
}

/// The most items a list read by [`each_text`] may hold.
pub(super) const MAX_ITEMS: usize = 4096;

/// Calls `f` with each item of the list `t` (`t[1]`, `t[2]`, … up to the first
/// nil), each a string or a number. Lists of names are what scripts hand the host
/// most (a question's options, hundreds of edge pairs), so they are read straight
/// off the Lua stack: no Lua reference and no Rust string per item, and no
/// script code runs (raw reads, no metamethods).
pub(super) fn each_text(lua: &mlua::Lua, t: &Table, mut f: impl FnMut(Item) -> R<()>) -> R<()> {
    use mlua::ffi;
    let mut result = Ok(());
    let mut number = String::new();
    // SAFETY: `exec_raw` pushes `t` and runs the closure in protected mode. Each
    // step reads index -1 (the table) raw, which neither allocates nor raises,
    // and pops what it pushed; a string's bytes are read while it is on the
    // stack, so it cannot be collected meanwhile. `f` sees bytes only, never the
    // Lua state, and its errors are Rust values: nothing raises a Lua error here.
    unsafe {
        lua.exec_raw::<()>(t, |state| {
            for i in 1..=MAX_ITEMS + 1 {
                let kind = ffi::lua_rawgeti(state, -1, i as ffi::lua_Integer);
                let step = match kind {
                    ffi::LUA_TNIL => {
                        ffi::lua_pop(state, 1);
                        return;
                    }
                    _ if i > MAX_ITEMS => Err(err(format!("a list may hold at most {MAX_ITEMS} items"))),
                    ffi::LUA_TSTRING => {
                        let mut len = 0;
                        let ptr = ffi::lua_tolstring(state, -1, &mut len);
                        let text = std::slice::from_raw_parts(ptr as *const u8, len);
                        f(Item { text, address: ptr.cast() })
                    }
                    ffi::LUA_TNUMBER => {
                        number.clear();
                        if ffi::lua_isinteger(state, -1) != 0 {
                            number.push_str(&ffi::lua_tointegerx(state, -1, std::ptr::null_mut()).to_string());
                        } else {
                            number.push_str(&ffi::lua_tonumberx(state, -1, std::ptr::null_mut()).to_string());
                        }
                        f(Item { text: number.as_bytes(), address: std::ptr::null() })
                    }
                    _ => {
                        let name = std::ffi::CStr::from_ptr(ffi::lua_typename(state, kind)).to_string_lossy();
                        Err(err(format!("item {i} of the list is a {name}, not a string")))
                    }
                };
                ffi::lua_pop(state, 1);
                if step.is_err() {
                    result = step;
                    return;
                }
            }
        })?;
    }
    result
}

/// `{only = {squares}, exclude = {squares}, not_to = {squares}}`: the squares
/// whose checkers may move, and those no move may end on. Read before the run is
/// borrowed, since reading a table can run a script's metamethod.
/// Which of the user's moves a move helper lists (cards/README.md, "Moves").
#[derive(Clone, Copy)]
pub(super) struct MoveFilter {
    /// Checkers that may move (`only` less `exclude`).
    pub(super) allowed: Bitboard,
    /// Squares a move may not end on.
    pub(super) not_to: Bitboard,
    /// A checker to count as absent (R8.16), without lifting it.
    pub(super) without: Option<Square>,
}

pub(super) fn move_filter(lua: &mlua::Lua, filter: Option<Table>) -> R<MoveFilter> {
    let mut parsed = MoveFilter { allowed: Bitboard::ALL, not_to: Bitboard::EMPTY, without: None };
    let Some(f) = filter else { return Ok(parsed) };
    let mut exclude = Bitboard::EMPTY;
    // Only the keys present are visited; a misspelt one is an error, not ignored.
    f.for_each::<LuaString, Value>(|key, value| {
        let squares = |value: Value| match value {
            Value::Table(t) => squares_of(lua, Some(t)),
            _ => Err(err(format!("the move filter's {} must be a list of squares", key.display()))),
        };
        match key.as_bytes().as_ref() {
            b"only" => parsed.allowed = squares(value)?,
            b"exclude" => exclude = squares(value)?,
            b"not_to" => parsed.not_to = squares(value)?,
            b"without" => match value {
                Value::String(s) => parsed.without = Some(square_text(&s.as_bytes())?),
                _ => return Err(err("the move filter's without must be a square")),
            },
            other => {
                return Err(err(format!(
                    "'{}' is not a move filter (only, exclude, not_to, without)",
                    String::from_utf8_lossy(other)
                )));
            }
        }
        Ok(())
    })?;
    parsed.allowed = parsed.allowed - exclude;
    Ok(parsed)
}

/// The square a name such as `d4` (as the API writes it) names, without
/// allocating; `None` for any other text, which the kernel's parser reads.
pub(super) fn square_named(name: &[u8]) -> Option<Square> {
    match name {
        [file @ b'a'..=b'h', rank @ b'1'..=b'8'] => Square::at((file - b'a') as i8, (rank - b'1') as i8),
        _ => None,
    }
}
