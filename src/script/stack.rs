//! Reading a script's tables straight off the Lua stack: filters, lists of
//! names, question options. These are what scripts hand the host most, and
//! mlua's general readers (`Table::for_each`, `Lua::exec_raw`) wrap each read in
//! a protected call and make a reference per value: for a move filter that was
//! four fifths of `ctx:count_moves`.
//!
//! Invariant: nothing here can raise a Lua error, so no protected call is
//! needed. Only raw reads are made (`lua_rawgeti`, `lua_next` with the key it
//! gave, `lua_type`, `lua_toboolean`, `lua_tointegerx`, `lua_tonumberx`, and
//! `lua_tolstring` on strings only, which neither converts nor allocates); none
//! allocates, runs a metamethod or script code, and stack room is checked
//! first with `lua_checkstack`, which reports rather than raises. Text read
//! here is borrowed from a string on the stack, so it stays valid (and the
//! collector cannot run) for as long as the closure that sees it.
//!
//! The stack is reached through mlua's `exec_raw_lua` and `RawLua` (public,
//! partly hidden from mlua's documentation; the version is pinned by
//! Cargo.lock, and a change of signature would not compile).

use std::ffi::{CStr, c_int, c_void};
use std::marker::PhantomData;

use mlua::{Lua, Table, ffi};

use crate::script::run::{R, err};

/// The most items a list read here may hold.
pub(super) const MAX_ITEMS: usize = 4096;

/// A table on the Lua stack, for as long as the closure given it runs.
pub(super) struct TableAt<'a> {
    state: *mut ffi::lua_State,
    /// Its absolute stack index.
    index: c_int,
    _stack: PhantomData<&'a ()>,
}

/// A value read off the stack; text is borrowed from the Lua string.
pub(super) enum Raw<'a> {
    Nil,
    Bool(bool),
    Int(i64),
    Num(f64),
    Str(Text<'a>),
    Table(TableAt<'a>),
    /// Any other type, by Lua's name for it.
    Other(&'static str),
}

/// A Lua string's bytes and where Lua keeps them (an interned name is known by
/// that address, names.rs).
#[derive(Clone, Copy)]
pub(super) struct Text<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) address: *const c_void,
}

impl Raw<'_> {
    /// Lua's name for the value's type, for errors.
    pub(super) fn type_name(&self) -> &'static str {
        match self {
            Raw::Nil => "nil",
            Raw::Bool(_) => "boolean",
            Raw::Int(_) => "integer",
            Raw::Num(_) => "number",
            Raw::Str(_) => "string",
            Raw::Table(_) => "table",
            Raw::Other(name) => name,
        }
    }
}

/// Calls `f` with `t` on the stack (see the module's invariant).
pub(super) fn read<T>(lua: &Lua, t: &Table, f: impl for<'a> FnOnce(&TableAt<'a>) -> R<T>) -> R<T> {
    lua.exec_raw_lua(|raw| {
        let state = raw.state();
        // SAFETY: the module's invariant; the stack is put back as it was.
        unsafe {
            let top = ffi::lua_gettop(state);
            if ffi::lua_checkstack(state, 2) == 0 {
                return Err(err("out of Lua stack space"));
            }
            raw.push(t)?;
            let table = TableAt { state, index: ffi::lua_absindex(state, -1), _stack: PhantomData };
            let result = f(&table);
            ffi::lua_settop(state, top);
            result
        }
    })
}

impl TableAt<'_> {
    /// `f(i, t[i])` for `i = 1, 2, …` up to the first nil; more than
    /// [`MAX_ITEMS`] items are an error.
    pub(super) fn items(&self, mut f: impl FnMut(usize, Raw<'_>) -> R<()>) -> R<()> {
        let state = self.state;
        // SAFETY: the module's invariant; each step leaves the stack as it found
        // it, so room checked once serves every step (a nested read checks its own).
        unsafe {
            let top = ffi::lua_gettop(state);
            if ffi::lua_checkstack(state, 3) == 0 {
                return Err(err("out of Lua stack space"));
            }
            for i in 1..=MAX_ITEMS + 1 {
                let kind = ffi::lua_rawgeti(state, self.index, i as ffi::lua_Integer);
                let step = match kind {
                    ffi::LUA_TNIL => {
                        ffi::lua_settop(state, top);
                        return Ok(());
                    }
                    _ if i > MAX_ITEMS => Err(err(format!("a list may hold at most {MAX_ITEMS} items"))),
                    _ => f(i, value_at(state, kind)),
                };
                ffi::lua_settop(state, top);
                step?;
            }
        }
        Ok(())
    }

    /// `f(item)` for each item of the list, each a string or a number (a
    /// number as Rust writes it).
    pub(super) fn texts(&self, mut f: impl FnMut(Text<'_>) -> R<()>) -> R<()> {
        let mut number = String::new();
        self.items(|i, value| match value {
            Raw::Str(text) => f(text),
            Raw::Int(n) => f(number_text(&mut number, n)),
            Raw::Num(n) => f(number_text(&mut number, n)),
            other => Err(err(format!("item {i} of the list is a {}, not a string", other.type_name()))),
        })
    }

    /// `f(key, value)` for each field, in Lua's order (raw: no metamethod).
    /// Keys are names; a numeric key is given as its text, anything else is
    /// an error. A value is never nil (a nil field is no field).
    pub(super) fn pairs(&self, mut f: impl FnMut(&[u8], Raw<'_>) -> R<()>) -> R<()> {
        let state = self.state;
        let mut number = String::new();
        // SAFETY: the module's invariant. `lua_next` is given only keys it gave
        // (the table is not changed meanwhile), so it cannot raise.
        unsafe {
            let top = ffi::lua_gettop(state);
            if ffi::lua_checkstack(state, 4) == 0 {
                return Err(err("out of Lua stack space"));
            }
            ffi::lua_pushnil(state);
            while ffi::lua_next(state, self.index) != 0 {
                let step = match value_at_index(state, -2) {
                    Raw::Str(key) => f(key.bytes, value_at_index(state, -1)),
                    Raw::Int(n) => f(number_text(&mut number, n).bytes, value_at_index(state, -1)),
                    key => Err(err(format!("a {} cannot name a field here", key.type_name()))),
                };
                ffi::lua_settop(state, top + 1); // keep the key for the next step
                if step.is_err() {
                    ffi::lua_settop(state, top);
                    return step;
                }
            }
            ffi::lua_settop(state, top);
        }
        Ok(())
    }
}

/// A number's text, as [`TableAt::texts`] and [`TableAt::pairs`] give it.
fn number_text(out: &mut String, n: impl ToString) -> Text<'_> {
    *out = n.to_string();
    Text { bytes: out.as_bytes(), address: std::ptr::null() }
}

/// The value at the top of the stack, of type `kind`.
///
/// # Safety
/// The stack's top holds a value of type `kind`.
unsafe fn value_at<'a>(state: *mut ffi::lua_State, kind: c_int) -> Raw<'a> {
    unsafe { value_of(state, -1, kind) }
}

/// # Safety
/// `index` is a valid stack index.
unsafe fn value_at_index<'a>(state: *mut ffi::lua_State, index: c_int) -> Raw<'a> {
    unsafe { value_of(state, index, ffi::lua_type(state, index)) }
}

/// # Safety
/// `index` is a valid stack index holding a value of type `kind`.
unsafe fn value_of<'a>(state: *mut ffi::lua_State, index: c_int, kind: c_int) -> Raw<'a> {
    unsafe {
        match kind {
            ffi::LUA_TNIL | ffi::LUA_TNONE => Raw::Nil,
            ffi::LUA_TBOOLEAN => Raw::Bool(ffi::lua_toboolean(state, index) != 0),
            ffi::LUA_TNUMBER => {
                if ffi::lua_isinteger(state, index) != 0 {
                    Raw::Int(ffi::lua_tointegerx(state, index, std::ptr::null_mut()))
                } else {
                    Raw::Num(ffi::lua_tonumberx(state, index, std::ptr::null_mut()))
                }
            }
            ffi::LUA_TSTRING => {
                let mut len = 0;
                let ptr = ffi::lua_tolstring(state, index, &mut len);
                Raw::Str(Text { bytes: std::slice::from_raw_parts(ptr.cast::<u8>(), len), address: ptr.cast() })
            }
            ffi::LUA_TTABLE => {
                Raw::Table(TableAt { state, index: ffi::lua_absindex(state, index), _stack: PhantomData })
            }
            other => Raw::Other(CStr::from_ptr(ffi::lua_typename(state, other)).to_str().unwrap_or("value")),
        }
    }
}
