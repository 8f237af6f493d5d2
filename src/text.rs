//! Text that mods bring (manifests, `ctx:log`, questions, script errors) is
//! shown, never obeyed: control characters are written as visible escapes
//! before any of it reaches the terminal, a log or a save's record.

use std::borrow::Cow;
use std::fmt::Write;

/// `text` with every control character (C0, DEL, C1: ESC, BEL, CR, LF, …) made
/// visible as an escape such as `\x1b` or `\u{9b}`; other text unchanged.
///
/// ```
/// use alien_checkers::text::visible;
/// assert_eq!(visible("Fire\x1b[2J\n"), "Fire\\x1b[2J\\x0a");
/// assert_eq!(visible("plain text"), "plain text");
/// ```
pub fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            c if !c.is_control() => out.push(c),
            c if (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    Cow::Owned(out)
}

/// [`visible`] in place.
pub fn make_visible(text: &mut String) {
    if let Cow::Owned(shown) = visible(text) {
        *text = shown;
    }
}
