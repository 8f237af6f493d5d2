//! Alien Checkers: a rules kernel in Rust with cards and planets as Lua scripts.
//!
//! See ARCHITECTURE.md for the map of modules and the invariants they keep.

pub mod ai;
pub mod choice_text;
pub mod content;
pub mod diagram;
pub mod game;
pub mod hash;
pub mod kernel;
pub mod narrate;
pub mod pdn;
pub mod plain;
pub mod repl;
pub mod scenario;
pub mod script;
pub mod session;
pub mod simulate;
pub mod spots;
pub mod text;
