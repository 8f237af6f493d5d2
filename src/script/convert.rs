//! Pure conversions of a script's Lua values to the kernel's types: squares,
//! players, directions, filters. They read values only (never run script code)
//! and name what is wrong in their errors.

use std::borrow::Cow;
use std::sync::Arc;

use mlua::{Table, Value};

use crate::game::CardId;
use crate::kernel::{Bitboard, Dir, Player, Square, Terrain, Token};
use crate::script::ctx::marker_kind;
use crate::script::memo::{BlockFilter, CheckerFilter, Dirs, KindFilter, MarkerFilter, SquareFilter};
use crate::script::run::{Cx, R, err, user};
use crate::script::stack::{self, Raw, TableAt};

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

/// A value as text without running any of its code: strings and numbers only
/// (a `__tostring` metamethod would let script code run inside a host function).
fn raw_text<'a>(v: &Raw<'a>) -> R<Cow<'a, str>> {
    match v {
        Raw::Str(t) => Ok(Cow::Borrowed(utf8(t.bytes)?)),
        Raw::Int(i) => Ok(Cow::Owned(i.to_string())),
        Raw::Num(n) => Ok(Cow::Owned(n.to_string())),
        other => Err(err(format!("expected a string, got a {}", other.type_name()))),
    }
}

/// A filter's player value: a string naming one, as `player` reads it.
fn player_value(v: &Raw) -> R<Player> {
    match v {
        Raw::Str(t) if t.bytes == b"dark" => Ok(Player::Dark),
        Raw::Str(t) if t.bytes == b"light" => Ok(Player::Light),
        other => player(&raw_text(other)?),
    }
}

/// A filter's true or false, named in the error.
fn flag(v: &Raw, what: &str) -> R<bool> {
    match v {
        Raw::Bool(b) => Ok(*b),
        _ => Err(err(format!("the filter's {what} must be true or false"))),
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
pub(super) fn dirs(lua: &mlua::Lua, value: Value) -> R<Vec<Dir>> {
    match value {
        Value::String(s) => named_dirs(&s.to_str()?),
        Value::Table(t) => stack::read(lua, &t, dir_list),
        other => Err(err(format!("expected directions, got {}", other.type_name()))),
    }
}

/// `"diagonal"`, `"orthogonal"`, `"all"` or one direction.
fn named_dirs(name: &str) -> R<Vec<Dir>> {
    match name {
        "diagonal" => Ok(Dir::DIAGONALS.to_vec()),
        "orthogonal" => Ok(Dir::ORTHOGONALS.to_vec()),
        "all" => Ok(Dir::ALL.to_vec()),
        one => Ok(vec![dir(one)?]),
    }
}

/// [`dirs`] of a value read off the stack.
fn raw_dirs(value: &Raw) -> R<Vec<Dir>> {
    match value {
        Raw::Str(t) => named_dirs(utf8(t.bytes)?),
        Raw::Table(t) => dir_list(t),
        other => Err(err(format!("expected directions, got {}", other.type_name()))),
    }
}

/// A list of directions on the stack.
fn dir_list(t: &TableAt) -> R<Vec<Dir>> {
    let mut out = Vec::new();
    t.texts(|d| {
        out.push(dir(utf8(d.bytes)?)?);
        Ok(())
    })?;
    Ok(out)
}

pub(super) fn squares_of(lua: &mlua::Lua, value: Option<Table>) -> R<Bitboard> {
    match value {
        Some(t) => stack::read(lua, &t, squares_in),
        None => Ok(Bitboard::EMPTY),
    }
}

/// The squares a list on the stack names.
fn squares_in(t: &TableAt) -> R<Bitboard> {
    let mut out = Bitboard::EMPTY;
    t.texts(|item| {
        out.insert(square_text(item.bytes)?);
        Ok(())
    })?;
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
    stack::read(cx, &f, |f| {
        f.pairs(|key, value| {
            match key {
                b"owner" => parsed.owner = Some(player_value(&value)?),
                b"kind" => {
                    parsed.kind = Some(match &*raw_text(&value)? {
                        "pawn" => KindFilter::Pawn,
                        "king" => KindFilter::King,
                        "emperor" => KindFilter::Emperor,
                        "crowned" => KindFilter::Crowned,
                        other => return Err(err(format!("'{other}' is not a kind (pawn, king, emperor, crowned)"))),
                    })
                }
                b"colour" => parsed.colour = Some(colour_mask(&raw_text(&value)?)?),
                b"can_take" => parsed.can_take = Some(token(&raw_text(&value)?)?),
                b"markers" => parsed.markers = marker_filter(cx, &value)?,
                b"can_step" => parsed.can_step = Some(Dirs::of(&raw_dirs(&value)?)),
                b"can_jump" => parsed.can_jump = Some(Dirs::of(&raw_dirs(&value)?)),
                b"lift_leaves_move" => parsed.lift_leaves_move = Some((user(cx)?, flag(&value, "lift_leaves_move")?)),
                other => {
                    let name = String::from_utf8_lossy(other);
                    let Some(i) = Token::ALL.into_iter().position(|t| t.name() == name) else {
                        return Err(err(format!(
                            "'{name}' is not a checker filter (owner, kind, colour, ring, snookle, hippo, can_take, markers, can_step, can_jump, lift_leaves_move)"
                        )));
                    };
                    parsed.tokens[i] = Some(flag(&value, &name)?);
                }
            }
            Ok(())
        })
    })?;
    Ok(parsed)
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
    stack::read(cx, &f, |f| {
        f.pairs(|key, value| {
            match key {
                b"empty" => parsed.empty = Some(flag(&value, "empty")?),
                b"colour" => parsed.colour = Some(colour_mask(&raw_text(&value)?)?),
                b"half" => parsed.half = Some(player_value(&value)?),
                b"back_row" => parsed.back_row = Some(player_value(&value)?),
                b"king_row" => parsed.king_row = Some(player_value(&value)?),
                b"terrain" => {
                    parsed.terrain = Some(match &*raw_text(&value)? {
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
        })
    })?;
    Ok(parsed)
}

/// `markers = {name = true/false, …}`: the deck's marker kinds by name.
fn marker_filter(cx: &Cx, value: &Raw) -> R<MarkerFilter> {
    let Raw::Table(t) = value else {
        return Err(err("the filter's markers must be a table of names and true/false"));
    };
    let mut parsed = MarkerFilter::default();
    t.pairs(|name, wanted| {
        let name = utf8(name)?;
        let kind = marker_kind(cx, name)?;
        parsed.0[usize::from(kind.0)] = Some(flag(&wanted, &format!("markers.{name}"))?);
        Ok(())
    })?;
    Ok(parsed)
}

/// `{owners = {players…}, empty = bool}` for 2×2 blocks: `owners` asks for at
/// least one checker of each player named (R8.19), `empty` for four empty
/// squares (R4.5, R7.1).
pub(super) fn block_filter(lua: &mlua::Lua, filter: Option<Table>) -> R<BlockFilter> {
    let mut parsed = BlockFilter::default();
    let Some(f) = filter else { return Ok(parsed) };
    stack::read(lua, &f, |f| {
        f.pairs(|key, value| {
            match (key, value) {
                (b"owners", Raw::Table(t)) => t.texts(|p| {
                    parsed.owners[player(utf8(p.bytes)?)?.index()] = true;
                    Ok(())
                })?,
                (b"owners", other) => {
                    return Err(err(format!("the filter's owners must be a list, not a {}", other.type_name())));
                }
                (b"empty", value) => parsed.empty = Some(flag(&value, "empty")?),
                (other, _) => {
                    let other = String::from_utf8_lossy(other);
                    return Err(err(format!("'{other}' is not a block filter (owners, empty)")));
                }
            }
            Ok(())
        })
    })?;
    Ok(parsed)
}

/// `{optional = true}` in a question's options: whether `none` is an answer too.
/// A question's `opts` (cards/README.md, "Asking"), read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct QuestionOpts {
    /// `none` (nil) is an answer too.
    pub(super) optional: bool,
    /// The player the question is put to (`None`: the game's rule).
    pub(super) to: Option<Player>,
    /// The answer is told to the other player only as "answers in secret".
    pub(super) secret: bool,
}

/// Reads a question's `opts`: `optional`, `to` and `secret`; `ask_order`
/// (`orders`) has no `optional`. Any other key is an error naming it.
pub(super) fn question_opts(lua: &mlua::Lua, opts: &Option<Table>, orders: bool) -> R<QuestionOpts> {
    let Some(t) = opts else { return Ok(QuestionOpts::default()) };
    let mut read = QuestionOpts::default();
    let flag = |value: Raw, key: &str| match value {
        Raw::Bool(b) => Ok(b),
        _ => Err(err(format!("{key} must be true or false"))),
    };
    stack::read(lua, t, |t| {
        t.pairs(|key, value| {
            match key {
                b"optional" if !orders => read.optional = flag(value, "optional")?,
                b"secret" => read.secret = flag(value, "secret")?,
                b"to" => {
                    read.to = Some(match value {
                        Raw::Str(s) if s.bytes == b"dark" => Player::Dark,
                        Raw::Str(s) if s.bytes == b"light" => Player::Light,
                        _ => return Err(err("to must be 'dark' or 'light'")),
                    });
                }
                _ => {
                    let key = String::from_utf8_lossy(key);
                    let known = if orders { "to, secret" } else { "optional, to, secret" };
                    return Err(err(format!("'{key}' is not a question option ({known})")));
                }
            }
            Ok(())
        })
    })?;
    Ok(read)
}

/// A list of texts, shared so that questions built from them copy no text (a
/// card id the host handed out is the host's own shared text).
pub(super) fn strings(cx: &Cx, t: &Table) -> R<Vec<Arc<str>>> {
    let names = &cx.shared.names;
    let mut out = Vec::with_capacity(room_for(t));
    each_text(cx, t, |item| {
        out.push(match names.card_text(item.address) {
            Some(id) => Arc::clone(id),
            None => utf8(item.bytes)?.into(),
        });
        Ok(())
    })?;
    Ok(out)
}

/// A list of card ids as the cards they name; any other text is an error.
pub(super) fn card_ids(cx: &Cx, t: &Table) -> R<Vec<CardId>> {
    let names = &cx.shared.names;
    let mut out = Vec::with_capacity(room_for(t));
    each_text(cx, t, |item| {
        let card = names.card_named(item);
        out.push(
            card.ok_or_else(|| err(format!("'{}' is not a card of this game", String::from_utf8_lossy(item.bytes))))?,
        );
        Ok(())
    })?;
    Ok(out)
}

/// Room for a list's items: its length, but never more than a list may hold
/// (a table's length is any border, which a script can make huge, and the
/// items are read only after the room is made).
pub(super) fn room_for(t: &Table) -> usize {
    t.raw_len().min(stack::MAX_ITEMS)
}

/// A list item's text as a `&str`.
pub(super) fn utf8(text: &[u8]) -> R<&str> {
    std::str::from_utf8(text).map_err(|_| err("a list item is not valid UTF-8 text"))
}

/// Calls `f` with each item of the list `t` (`t[1]`, `t[2]`, … up to the first
/// nil), each a string or a number, read off the stack (stack.rs). Lists of
/// names are what scripts hand the host most: a question's options, hundreds
/// of edge pairs.
pub(super) fn each_text(lua: &mlua::Lua, t: &Table, f: impl FnMut(stack::Text) -> R<()>) -> R<()> {
    stack::read(lua, t, |t| t.texts(f))
}

/// Which of the user's moves a move helper lists (cards/README.md, "Reading":
/// `count_moves`, `legal_moves`, `ask_move_where`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct MoveFilter {
    /// Checkers that may move (`only` less `exclude`).
    pub(super) allowed: Bitboard,
    /// Squares a move may not end on.
    pub(super) not_to: Bitboard,
    /// A checker to count as absent (R8.16), without lifting it.
    pub(super) without: Option<Square>,
}

/// `{only = {squares}, exclude = {squares}, not_to = {squares}, without = square}`:
/// the squares whose checkers may move, those no move may end on, and a checker
/// to count as absent. Read before the run is borrowed, since reading a table
/// can run a script's metamethod.
pub(super) fn move_filter(lua: &mlua::Lua, filter: Option<Table>) -> R<MoveFilter> {
    let mut parsed = MoveFilter { allowed: Bitboard::ALL, not_to: Bitboard::EMPTY, without: None };
    let Some(f) = filter else { return Ok(parsed) };
    let mut exclude = Bitboard::EMPTY;
    // Only the keys present are visited; a misspelt one is an error, not ignored.
    stack::read(lua, &f, |f| {
        f.pairs(|key, value| {
            let squares = |value: Raw| match value {
                Raw::Table(t) => squares_in(&t),
                _ => Err(err(format!("the move filter's {} must be a list of squares", String::from_utf8_lossy(key)))),
            };
            match key {
                b"only" => parsed.allowed = squares(value)?,
                b"exclude" => exclude = squares(value)?,
                b"not_to" => parsed.not_to = squares(value)?,
                b"without" => match value {
                    Raw::Str(s) => parsed.without = Some(square_text(s.bytes)?),
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
        })
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
