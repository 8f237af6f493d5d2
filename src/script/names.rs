//! Values going back to Lua: names made once as Lua strings (squares, edge
//! pairs, players, kinds, card ids) and the lists and checker values built from
//! them.

use std::fmt;
use std::sync::Arc;

use mlua::{Either, Lua, LuaString, Table};

use crate::game::CardId;
use crate::kernel::{Checker, Dir, EdgePair, MAX_JUMPS, Move, Player, Square, Terrain};
use crate::script::run::{Cx, R, err};
use crate::script::stack::Text;

pub(super) fn list<T: ToString>(lua: &Lua, items: impl IntoIterator<Item = T>) -> R<Table> {
    lua.create_sequence_from(items.into_iter().map(|i| i.to_string()))
}

/// A list of moves as their texts (`c3-d4`, `c3xe5xg7`), each written on the
/// stack rather than in a `String` of its own.
pub(super) fn move_list(lua: &Lua, moves: &[Move]) -> R<Table> {
    let mut texts = Vec::with_capacity(moves.len());
    for mv in moves {
        let mut text = MoveBuffer { bytes: [0; 2 + 3 * MAX_JUMPS], len: 0 };
        fmt::Write::write_fmt(&mut text, format_args!("{mv}")).map_err(|_| err("a move's text is too long"))?;
        texts.push(text);
    }
    lua.create_sequence_from(texts.iter().map(MoveBuffer::as_str))
}

/// Room for the longest move's text: a square, then `x` and a square per jump.
struct MoveBuffer {
    bytes: [u8; 2 + 3 * MAX_JUMPS],
    len: usize,
}

impl MoveBuffer {
    fn as_str(&self) -> &str {
        // Only whole `&str`s are written in (`write_str`).
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default()
    }
}

impl fmt::Write for MoveBuffer {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// A list of texts as Lua strings: a card id the host handed out is its own
/// string again, any other text is made (with no copy on the way).
pub(super) fn texts(lua: &Lua, names: &Names, items: &[Arc<str>]) -> R<Table> {
    lua.create_sequence_from(items.iter().map(|item| match names.card_string(item) {
        Some(card) => Either::Left(card),
        None => Either::Right(&**item),
    }))
}

/// Where a shared text's bytes are (the same for every clone of the `Arc`).
fn text_address(text: &Arc<str>) -> usize {
    text.as_ptr() as usize
}

/// The names' maps are keyed by addresses, hashed a word at a time.
type ByAddress<K, V> = std::collections::HashMap<K, V, crate::hash::FxBuild>;

/// Lua strings made once and reused, so that reading the board allocates little.
/// Lua interns every short string, so a script's string with the same text as
/// an edge pair's here is the same string: `pair` finds the pair by address,
/// without parsing.
pub(super) struct Names {
    /// The sentinel `ask_*` return to stop a run.
    pub(super) halt: Table,
    pub(super) squares: Vec<LuaString>,
    /// By index in `EdgePair::all()`.
    pub(super) pairs: Vec<LuaString>,
    pub(super) players: [LuaString; 2],
    pub(super) kinds: [LuaString; 3],
    /// Other names ctx functions return (terrains, directions, colours).
    pub(super) words: Vec<(&'static str, LuaString)>,
    /// Card ids by `CardId`, as Lua strings and as shared texts.
    pub(super) cards: Vec<LuaString>,
    card_texts: Vec<Arc<str>>,
    /// A card's index by the address of its Lua string, so that a list of card
    /// ids (a pile, an order) is read back without copying…
    card_at: ByAddress<usize, usize>,
    /// …and by the address of its shared text, so that one goes back to Lua
    /// as the same string without making it again.
    card_of_text: ByAddress<usize, usize>,
    /// The address of each edge pair's string.
    pub(super) pair_at: ByAddress<usize, EdgePair>,
}

impl Names {
    pub fn new(lua: &Lua, halt: Table, card_ids: &[String]) -> R<Names> {
        let squares: Vec<LuaString> = Square::all().map(|s| lua.create_string(s.to_string())).collect::<R<_>>()?;
        let pairs: Vec<LuaString> =
            EdgePair::all().iter().map(|p| lua.create_string(p.to_string())).collect::<R<_>>()?;
        let mut pair_at = ByAddress::default();
        for (p, name) in EdgePair::all().iter().zip(&pairs) {
            pair_at.insert(name.to_pointer() as usize, *p);
        }
        let mut words = Vec::new();
        let names = [Terrain::Water.name(), Terrain::Fire.name()].into_iter().chain(Dir::ALL.map(Dir::name));
        for word in names {
            words.push((word, lua.create_string(word)?));
        }
        let cards: Vec<LuaString> = card_ids.iter().map(|id| lua.create_string(id)).collect::<R<_>>()?;
        let card_texts: Vec<Arc<str>> = card_ids.iter().map(|id| Arc::from(&**id)).collect();
        let card_at = cards.iter().enumerate().map(|(i, s)| (s.to_pointer() as usize, i)).collect();
        let card_of_text = card_texts.iter().enumerate().map(|(i, t)| (text_address(t), i)).collect();
        Ok(Names {
            halt,
            squares,
            pairs,
            players: [lua.create_string("dark")?, lua.create_string("light")?],
            kinds: [lua.create_string("pawn")?, lua.create_string("king")?, lua.create_string("emperor")?],
            words,
            cards,
            card_texts,
            card_at,
            card_of_text,
            pair_at,
        })
    }

    /// The edge pair `text` names, found by address.
    pub(super) fn pair(&self, address: *const std::ffi::c_void) -> Option<EdgePair> {
        self.pair_at.get(&(address as usize)).copied()
    }

    /// The card id whose string in `cards` is at `address` (the strings live as
    /// long as the names, so an address names one string).
    pub(super) fn card_text(&self, address: *const std::ffi::c_void) -> Option<&Arc<str>> {
        self.card_at.get(&(address as usize)).map(|&i| &self.card_texts[i])
    }

    /// The card a script's text names: by the address of the string when it
    /// is one the host handed out, else by comparing the text.
    pub(super) fn card_named(&self, text: Text<'_>) -> Option<CardId> {
        let index = match self.card_at.get(&(text.address as usize)) {
            Some(&i) => Some(i),
            None => self.card_texts.iter().position(|t| t.as_bytes() == text.bytes),
        };
        index.map(|i| CardId(i as u16))
    }

    /// The Lua string of a card id given as the shared text `card_text` gave.
    fn card_string(&self, text: &Arc<str>) -> Option<&LuaString> {
        self.card_of_text.get(&text_address(text)).map(|&i| &self.cards[i])
    }

    /// A player's name as a Lua string (also a square colour's: `dark`, `light`).
    pub fn player(&self, p: Player) -> LuaString {
        self.players[p.index()].clone()
    }

    /// A square's name as a Lua string.
    pub(super) fn square(&self, sq: Square) -> LuaString {
        self.squares[sq.index()].clone()
    }

    /// A terrain's or direction's name as a Lua string.
    pub(super) fn word(&self, lua: &Lua, word: &'static str) -> R<LuaString> {
        match self.words.iter().find(|(w, _)| *w == word) {
            Some((_, s)) => Ok(s.clone()),
            None => lua.create_string(word),
        }
    }
}

pub(super) fn names<'a>(cx: &'a Cx) -> &'a Names {
    &cx.shared.names
}

/// A list of square names, from the interned strings.
pub(super) fn square_list(lua: &Cx, squares: impl IntoIterator<Item = Square>) -> R<Table> {
    let names = names(lua);
    // Collected first so that the table is made at its full size: growing it
    // one rehash at a time costs several times more.
    let (mut list, mut n) = ([Square::A1; 64], 0);
    let mut squares = squares.into_iter();
    for sq in squares.by_ref() {
        list[n] = sq;
        n += 1;
        if n == list.len() {
            break;
        }
    }
    // (Never more than the 64 squares, unless a caller repeats some.)
    let more: Vec<Square> = squares.collect();
    lua.create_sequence_from(list[..n].iter().chain(&more).map(|s| &names.squares[s.index()]))
}

/// A checker as the seven values the prelude's `ctx` makes a table of: square,
/// owner, kind, ring, snookle, hippo, id (0 where checkers are not numbered).
pub(super) type CheckerValues = (LuaString, LuaString, LuaString, bool, bool, bool, u8);

pub(super) fn checker_values(names: &Names, sq: Square, c: &Checker) -> CheckerValues {
    (
        names.square(sq),
        names.player(c.owner),
        names.kinds[c.kind as usize - 1].clone(),
        c.ring,
        c.snookle,
        c.hippo,
        c.id,
    )
}
