//! Where command lines come from: rustyline with completion and a history file
//! on a terminal, plain lines from standard input otherwise.
//!
//! Lines sent at once are read one by one, as if typed: a bracketed paste of
//! several lines is split here, and bytes the terminal sent after a line stay
//! in rustyline's buffer (its `buffer-redux` feature). When the game answers a
//! question by itself, the rest of a bracketed paste and what was typed later
//! are dropped; what arrived with the line that was answered is kept.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{BufRead, Read};
use std::path::PathBuf;
use std::rc::Rc;

use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};

use super::table::Candidates;

/// Longest piped line kept, in bytes; the rest of a longer line is skipped.
const MAX_LINE: u64 = 64 * 1024;

/// One read.
pub enum Line {
    Text(String),
    /// Ctrl-C: the line is cancelled.
    Interrupted,
    /// Ctrl-D or the end of input.
    Eof,
}

/// Completes the word under the cursor from the present position's candidates.
pub struct Words(Rc<RefCell<Candidates>>);

impl Completer for Words {
    type Candidate = String;
    fn complete(&self, line: &str, pos: usize, _: &Context<'_>) -> rustyline::Result<(usize, Vec<String>)> {
        let start = line[..pos].rfind(char::is_whitespace).map_or(0, |i| i + 1);
        Ok((start, self.0.borrow().complete(&line[..pos])))
    }
}

impl Hinter for Words {
    type Hint = String;
}
impl Highlighter for Words {}
impl Validator for Words {}
impl Helper for Words {}

pub enum Input {
    Terminal {
        editor: Box<Editor<Words, DefaultHistory>>,
        words: Rc<RefCell<Candidates>>,
        history: Option<PathBuf>,
        /// The lines after the first of a paste of several (bracketed paste
        /// gives them as one line), read one by one as if typed.
        pasted: VecDeque<String>,
    },
    Piped(std::io::StdinLock<'static>),
}

/// The width of the terminal standard output is, if it is one.
fn output_columns() -> Option<usize> {
    output_size().map(|(columns, _)| columns)
}

/// The columns and rows of the terminal standard output is, if it is one.
fn output_size() -> Option<(usize, usize)> {
    let mut size = libc::winsize { ws_row: 0, ws_col: 0, ws_xpixel: 0, ws_ypixel: 0 };
    // SAFETY: TIOCGWINSZ writes one `winsize` to the pointer given, which
    // points to `size`, alive for the call; on a descriptor that is not a
    // terminal it fails and writes nothing.
    let found = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
    (found && size.ws_col > 0).then_some((usize::from(size.ws_col), usize::from(size.ws_row)))
}

fn history_file() -> Option<PathBuf> {
    std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".alien-checkers-history"))
}

impl Input {
    pub fn new(interactive: bool) -> Input {
        if interactive && let Ok(mut editor) = Editor::<Words, DefaultHistory>::new() {
            let words = Rc::new(RefCell::new(Candidates::default()));
            editor.set_helper(Some(Words(words.clone())));
            let history = history_file();
            if let Some(h) = &history {
                let _ = editor.load_history(h);
            }
            return Input::Terminal { editor: Box::new(editor), words, history, pasted: VecDeque::new() };
        }
        Input::Piped(std::io::stdin().lock())
    }

    pub fn set_words(&mut self, list: Candidates) {
        if let Input::Terminal { words, .. } = self {
            *words.borrow_mut() = list;
        }
    }

    pub fn read(&mut self, prompt: &str) -> Line {
        match self {
            Input::Terminal { editor, pasted, .. } => {
                if let Some(line) = pasted.pop_front() {
                    // Shown as if typed at the prompt.
                    println!("{prompt}{line}");
                    let _ = editor.add_history_entry(line.as_str());
                    return Line::Text(line);
                }
                match editor.readline(prompt) {
                    Ok(text) => {
                        let mut lines = split_lines(&text);
                        let line = lines.pop_front().unwrap_or_default();
                        *pasted = lines;
                        let _ = editor.add_history_entry(line.as_str());
                        Line::Text(line)
                    }
                    Err(ReadlineError::Interrupted) => Line::Interrupted,
                    Err(_) => Line::Eof,
                }
            }
            Input::Piped(stdin) => {
                // Bytes, not text: a line that is not UTF-8 is read with
                // replacement characters instead of ending the input, and only
                // the first MAX_LINE bytes of a longer line are kept.
                let mut bytes = Vec::new();
                match (&mut *stdin).take(MAX_LINE).read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => Line::Eof,
                    Ok(_) => {
                        if !bytes.ends_with(b"\n") {
                            let _ = stdin.skip_until(b'\n');
                        }
                        let text = String::from_utf8_lossy(&bytes);
                        Line::Text(text.trim_end_matches(['\n', '\r']).chars().take(4096).collect())
                    }
                }
            }
        }
    }

    /// The width to wrap lines to: the terminal's (standard output's, when
    /// input is piped), else `COLUMNS` when set (as shells export it), else no
    /// limit.
    pub fn columns(&mut self) -> usize {
        let from_env = || std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse().ok());
        match self {
            Input::Terminal { editor, .. } => {
                editor.dimensions().map(|(columns, _)| columns as usize).or_else(from_env)
            }
            Input::Piped(_) => output_columns().or_else(from_env),
        }
        .filter(|&c| c > 0)
        .unwrap_or(usize::MAX)
    }

    /// The terminal's height, which the screen is fitted to (render.rs's
    /// compact layout); no limit when output is not a terminal.
    pub fn rows(&mut self) -> usize {
        match self {
            Input::Terminal { editor, .. } => editor.dimensions().map(|(_, rows)| rows as usize),
            Input::Piped(_) => output_size().map(|(_, rows)| rows),
        }
        .filter(|&r| r > 0)
        .unwrap_or(usize::MAX)
    }

    /// Drops what was typed but not yet read, on a terminal: lines typed ahead
    /// for a question the game then answered by itself would otherwise land on
    /// the next prompt. True when something was dropped.
    pub fn discard_type_ahead(&mut self) -> bool {
        match self {
            Input::Terminal { pasted, .. } => {
                let had_pasted = !pasted.is_empty();
                pasted.clear();
                let mut waiting: libc::c_int = 0;
                // SAFETY: FIONREAD writes one int, to `waiting`, alive for the
                // call; on a descriptor that is not a terminal it fails and
                // writes nothing.
                let queued =
                    unsafe { libc::ioctl(libc::STDIN_FILENO, libc::FIONREAD, &mut waiting) } == 0 && waiting > 0;
                // SAFETY: tcflush only reads its two integer arguments; on a
                // descriptor that is not a terminal it fails and changes nothing.
                let flushed = queued && unsafe { libc::tcflush(libc::STDIN_FILENO, libc::TCIFLUSH) } == 0;
                had_pasted || flushed
            }
            Input::Piped(_) => false,
        }
    }

    /// Saves the history file.
    pub fn finish(&mut self) {
        if let Input::Terminal { editor, history: Some(h), .. } = self {
            let _ = editor.save_history(h);
        }
    }
}

/// The lines of what one read gave (several when a paste held line breaks),
/// without a last empty one: a paste that ends with a line break is its lines.
fn split_lines(text: &str) -> VecDeque<String> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut lines: VecDeque<String> = text.split('\n').map(str::to_string).collect();
    if lines.len() > 1 && lines.back().is_some_and(String::is_empty) {
        lines.pop_back();
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::split_lines;

    #[test]
    fn a_paste_of_several_lines_is_read_as_its_lines() {
        assert_eq!(split_lines("c3-d4"), ["c3-d4"]);
        assert_eq!(split_lines("c3-d4\nlog\n"), ["c3-d4", "log"]);
        assert_eq!(split_lines("c3-d4\r\nlog\rhelp"), ["c3-d4", "log", "help"]);
        assert_eq!(split_lines(""), [""]);
    }
}
