//! Text from outside the program — what mods bring (manifests, `ctx:log`,
//! questions, script errors, effect data) and what files bring (saves,
//! scenarios, simulation reports, the names of files found in a folder) — is
//! shown, never obeyed: [`visible`] writes every character that could act on
//! the terminal or hide or reorder text as a visible escape, before any of it
//! reaches the terminal, a log or a save's record.
//!
//! Where the REPL wraps lines, runs of spaces cannot choose where a line
//! breaks and nothing continued stands at column 0 (`repl::render::wrap`).

use std::borrow::Cow;
use std::fmt::Write;

/// Format characters (general category Cf) and the line and paragraph
/// separators (Zl, Zp), as inclusive ranges: characters that draw nothing of
/// their own but reorder text (bidi embeddings, overrides and isolates, the
/// marks), hide it (zero-width spaces and joiners, word joiner, invisible
/// operators, byte order mark, soft hyphen, tags) or break it.
const FORMAT: &[(char, char)] = &[
    ('\u{ad}', '\u{ad}'),
    ('\u{600}', '\u{605}'),
    ('\u{61c}', '\u{61c}'),
    ('\u{6dd}', '\u{6dd}'),
    ('\u{70f}', '\u{70f}'),
    ('\u{890}', '\u{891}'),
    ('\u{8e2}', '\u{8e2}'),
    ('\u{180e}', '\u{180e}'),
    ('\u{200b}', '\u{200f}'),
    ('\u{2028}', '\u{202e}'),
    ('\u{2060}', '\u{2064}'),
    ('\u{2066}', '\u{206f}'),
    ('\u{feff}', '\u{feff}'),
    ('\u{fff9}', '\u{fffb}'),
    ('\u{110bd}', '\u{110bd}'),
    ('\u{110cd}', '\u{110cd}'),
    ('\u{13430}', '\u{1343f}'),
    ('\u{1bca0}', '\u{1bca3}'),
    ('\u{1d173}', '\u{1d17a}'),
    ('\u{e0001}', '\u{e0001}'),
    ('\u{e0020}', '\u{e007f}'),
];

/// Whether `c` is written as an escape by [`visible`]: a control character
/// (C0, DEL, C1) or one of [`FORMAT`].
fn hidden(c: char) -> bool {
    c.is_control() || (c >= '\u{ad}' && FORMAT.iter().any(|&(from, to)| (from..=to).contains(&c)))
}

/// `text` with every control character (C0, DEL, C1: ESC, BEL, CR, LF, …) and
/// every format character that can reorder, hide or break text (right-to-left
/// override U+202E and the other bidi controls, zero-width spaces and joiners,
/// the byte order mark, the soft hyphen, the line separator, …) made visible
/// as an escape such as `\x1b` or `\u{202e}`; other text unchanged. Applied
/// twice it gives what it gave once.
///
/// ```
/// use alien_checkers::text::visible;
/// assert_eq!(visible("Fire\x1b[2J\n"), "Fire\\x1b[2J\\x0a");
/// assert_eq!(visible("abc\u{202e}fed"), "abc\\u{202e}fed");
/// assert_eq!(visible("plain text"), "plain text");
/// ```
pub fn visible(text: &str) -> Cow<'_, str> {
    // Most text is printable ASCII: one pass over the bytes tells.
    if text.bytes().all(|b| (0x20..0x7f).contains(&b)) || !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            c if !hidden(c) => out.push(c),
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

/// `text` as a message quotes it: [`visible`], each run of whitespace one
/// space, and cut to its first `max` characters and `…` when longer (a save
/// or a scenario may hold a line of any length).
///
/// ```
/// use alien_checkers::text::excerpt;
/// assert_eq!(excerpt("c3-d4\x1b[2J   now", 40), "c3-d4\\x1b[2J now");
/// assert_eq!(excerpt("abcdef", 3), "abc…");
/// ```
pub fn excerpt(text: &str, max: usize) -> String {
    let shown = visible(text);
    let mut out = String::with_capacity(shown.len().min(4 * max + 3));
    for (i, word) in shown.split_whitespace().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(word);
        if out.len() > 4 * max {
            break;
        }
    }
    match out.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &out[..cut]),
        None => out,
    }
}

/// `word` as one word of a POSIX shell command line, made [`visible`]: as it
/// is when it holds only letters, digits and `_ - . / , : = + @ %`; else in
/// single quotes, a quote in it written `'\''`.
///
/// ```
/// use alien_checkers::text::shell_word;
/// assert_eq!(shell_word("alien-checkers-autosave-7.json"), "alien-checkers-autosave-7.json");
/// assert_eq!(shell_word("it's; rm -rf ~"), r"'it'\''s; rm -rf ~'");
/// ```
pub fn shell_word(word: &str) -> Cow<'_, str> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./,:=+@%".contains(c);
    let shown = visible(word);
    if !shown.is_empty() && shown.chars().all(plain) {
        return shown;
    }
    Cow::Owned(format!("'{}'", shown.replace('\'', r"'\''")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(visible("a\x1b[31mb\x07\r\n\x7f"), "a\\x1b[31mb\\x07\\x0d\\x0a\\x7f");
        assert_eq!(visible("\u{9b}2J\u{85}"), "\\u{9b}2J\\u{85}");
    }

    /// A right-to-left override would show `Light wins` written backwards
    /// after it as if it were something else; it and every other bidi
    /// control, zero-width and format character are shown as escapes.
    #[test]
    fn bidi_overrides_and_other_format_characters_are_escaped() {
        let shown = visible("Water\u{202e}sniw thgiL");
        assert_eq!(shown, "Water\\u{202e}sniw thgiL");
        assert!(!shown.contains('\u{202e}'));
        for c in [
            '\u{202a}',
            '\u{202b}',
            '\u{202c}',
            '\u{202d}',
            '\u{202e}',
            '\u{2066}',
            '\u{2067}',
            '\u{2068}',
            '\u{2069}',
            '\u{200e}',
            '\u{200f}',
            '\u{61c}',
            '\u{200b}',
            '\u{200c}',
            '\u{200d}',
            '\u{2060}',
            '\u{2061}',
            '\u{2062}',
            '\u{2063}',
            '\u{2064}',
            '\u{feff}',
            '\u{ad}',
            '\u{2028}',
            '\u{2029}',
            '\u{206a}',
            '\u{fff9}',
            '\u{e0001}',
            '\u{e0041}',
            '\u{600}',
            '\u{180e}',
        ] {
            let text = format!("a{c}b");
            let shown = visible(&text);
            assert!(!shown.contains(c), "U+{:04X} is shown as {shown}", c as u32);
            assert_eq!(shown, format!("a\\u{{{:x}}}b", c as u32));
        }
    }

    #[test]
    fn other_text_is_unchanged_and_escaping_twice_is_escaping_once() {
        for text in ["plain", "Café — 3 × 4 ≠ 12 …", "水火 🔥", "\u{a0}non-breaking", "e\u{301}"] {
            assert!(matches!(visible(text), Cow::Borrowed(t) if t == text), "{text}");
        }
        let once = visible("x\x1b\u{202e}y").into_owned();
        assert_eq!(visible(&once), once);
    }

    #[test]
    fn shell_words_are_quoted_unless_plain() {
        assert_eq!(shell_word("saves/game-1.json"), "saves/game-1.json");
        assert_eq!(shell_word("my game.json"), "'my game.json'");
        assert_eq!(shell_word("a'b"), r"'a'\''b'");
        assert_eq!(shell_word("$(reboot)"), "'$(reboot)'");
        assert_eq!(shell_word(""), "''");
        assert_eq!(shell_word("x\x1b[2J.json"), r"'x\x1b[2J.json'");
        assert_eq!(shell_word("\u{202e}nosj.json"), r"'\u{202e}nosj.json'");
    }
}
