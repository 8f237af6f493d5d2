//! The REPL on a real terminal (a pseudo-terminal): what only happens when a
//! person sits at one. Hot-seat hand-overs clear the scrollback, Ctrl-D at a
//! hand-over is a wish to leave, and lines typed ahead for a question the game
//! answered by itself are dropped.

use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use alien_checkers::game::{Choice, Event, GameEvent};
use alien_checkers::kernel::Player;
use alien_checkers::session::Session;

use crate::common;

/// The binary on a new pseudo-terminal, and the terminal's master side.
struct Terminal {
    child: Child,
    master: std::fs::File,
    seen: String,
}

impl Terminal {
    fn start(args: &[&str]) -> Terminal {
        let dir = common::scratch_dir("terminal", &format!("{}", args.join("-").len()));
        Terminal::start_in(&dir, args)
    }

    /// The binary started in `dir`.
    fn start_in(dir: &std::path::Path, args: &[&str]) -> Terminal {
        Terminal::start_sized(dir, args, None)
    }

    /// The binary started in `dir` on a terminal of `size` (columns, rows).
    fn start_sized(dir: &std::path::Path, args: &[&str], size: Option<(u16, u16)>) -> Terminal {
        let (mut master, mut slave) = (-1, -1);
        let mut window = size.map(|(ws_col, ws_row)| libc::winsize { ws_row, ws_col, ws_xpixel: 0, ws_ypixel: 0 });
        let window_ptr = window.as_mut().map_or(std::ptr::null_mut(), |w| w as *mut libc::winsize);
        // SAFETY: openpty writes two descriptors it opened, or fails; it
        // reads the window size, when given, from `window`, alive for the call.
        let opened =
            unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), window_ptr) };
        assert_eq!(opened, 0, "a pseudo-terminal is available");
        // SAFETY: both descriptors were just opened and are owned here alone.
        let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        let child = Command::new(env!("CARGO_BIN_EXE_alien-checkers"))
            .args(args)
            .current_dir(dir)
            .env("NO_COLOR", "1")
            .env("TERM", "xterm")
            .env("HOME", std::env::temp_dir())
            .stdin(Stdio::from(slave.try_clone().unwrap()))
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave))
            .spawn()
            .expect("the binary runs");
        // Reads never block for long: the master is polled.
        // SAFETY: fcntl on a descriptor owned here.
        unsafe {
            let flags = libc::fcntl(master.as_raw_fd(), libc::F_GETFL);
            libc::fcntl(master.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
        Terminal { child, master: std::fs::File::from(master), seen: String::new() }
    }

    /// Reads what the binary writes until `wanted` has appeared since `from`
    /// (answering the line editor's cursor queries); panics after 20 s.
    fn wait_for(&mut self, from: usize, wanted: &str) {
        self.wait_until(from, wanted, |seen| seen.contains(wanted));
    }

    /// Reads what the binary writes until what it wrote since `from` meets
    /// `done` (answering the line editor's cursor queries); panics, naming
    /// `what`, after 20 s.
    fn wait_until(&mut self, from: usize, what: &str, done: impl Fn(&str) -> bool) {
        let start = Instant::now();
        while !done(&self.seen[from.min(self.seen.len())..]) {
            assert!(start.elapsed() < Duration::from_secs(20), "waited for {what:?}; the screen:\n{}", self.seen);
            let mut buf = [0u8; 4096];
            match self.master.read(&mut buf) {
                Ok(0) => std::thread::sleep(Duration::from_millis(20)),
                Ok(n) => {
                    let text = String::from_utf8_lossy(&buf[..n]).into_owned();
                    if text.contains("\x1b[6n") {
                        self.master.write_all(b"\x1b[1;1R").unwrap();
                    }
                    self.seen.push_str(&text);
                }
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    }

    fn type_text(&mut self, text: &str) {
        self.master.write_all(text.as_bytes()).unwrap();
    }

    /// Waits for the binary to end; true when it ended by itself within 20 s.
    fn ended(&mut self) -> bool {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(20) {
            let mut buf = [0u8; 4096];
            if let Ok(n) = self.master.read(&mut buf) {
                self.seen.push_str(&String::from_utf8_lossy(&buf[..n]));
            }
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        false
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Hot-seat: a hand-over clears the screen and the scrollback (ESC[3J); Ctrl-D
/// at "Pass to …" asks whether to leave, as at any prompt, rather than
/// handing over.
#[test]
fn a_hand_over_clears_the_scrollback_and_ctrl_d_there_leaves() {
    let mut t = Terminal::start(&["--deck", "plain", "--seed", "1", "--dark", "human", "--light", "human"]);
    t.wait_for(0, "Pass to Dark, press Enter");
    t.type_text("\r");
    t.wait_for(0, "Dark move>");
    let mark = t.seen.len();
    t.type_text("c3-d4\r");
    t.wait_for(mark, "Pass to Light, press Enter");
    assert!(t.seen[mark..].contains("\x1b[3J"), "the scrollback is cleared at the hand-over");
    let mark = t.seen.len();
    t.type_text("\x04");
    t.wait_for(mark, "Leave and save it");
    t.type_text("y\r");
    assert!(t.ended(), "the game is left: {}", t.seen);
    assert!(t.seen[mark..].contains("saved the game to"), "{}", &t.seen[mark..]);
}

/// A seed and Dark's lines in a standard game against `greedy` (as the REPL
/// seats it) where Dark uses a card whose last question the game answers by
/// itself, ending Dark's turn.
fn card_answered_for_you() -> (u64, Vec<String>) {
    use alien_checkers::ai::{Budget, make_agent, mix_seed};
    for seed in 0..400 {
        let mut session = Session::new(&common::repo(), "standard", seed).unwrap();
        let planets = session.engine.content().setup().planets;
        let mut light = make_agent("greedy", mix_seed(seed, 2), planets, Budget::Interactive, None).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut lines = Vec::new();
        while let Some(decision) = session.pending().cloned() {
            if decision.player == Player::Light {
                let pick = light.choose(session.state(), &session.engine).unwrap();
                session.apply(&pick).unwrap();
                continue;
            }
            let pick = decision.options[(rng.next_u32() as usize) % decision.options.len()].clone();
            let text = match &pick {
                Choice::Move(m) => m.to_string(),
                Choice::Card(c) => session.engine.content().card(*c).unwrap().id.clone(),
                _ => alien_checkers::repl::render::option_text(&session, &pick),
            };
            lines.push(text);
            session.apply(&pick).unwrap();
            let automatic = session
                .events()
                .last()
                .unwrap()
                .iter()
                .any(|l| matches!(l.event, Event::Game(GameEvent::AnsweredAutomatically { .. })));
            let ends_the_turn = session.pending().is_some_and(|d| d.player == Player::Light);
            if automatic && ends_the_turn && matches!(pick, Choice::Card(_)) {
                return (seed, lines);
            }
            if lines.len() > 60 {
                break;
            }
        }
    }
    panic!("no game where a card's last question was answered by itself");
}

/// Lines typed ahead for a question that the game then answered by itself are
/// dropped (on a terminal), not taken at the next prompt, and the player is told.
#[test]
fn lines_typed_ahead_for_a_question_answered_for_you_are_dropped() {
    let (seed, lines) = card_answered_for_you();
    let (card, before) = lines.split_last().unwrap();
    let seed = seed.to_string();
    let mut t = Terminal::start(&["--seed", &seed, "--dark", "human", "--light", "greedy"]);
    let mut mark = 0;
    for line in before {
        t.wait_for(mark, "Dark ");
        t.wait_for(mark, "> ");
        mark = t.seen.len();
        t.type_text(&format!("{line}\r"));
    }
    t.wait_for(mark, "Dark card> ");
    let mark = t.seen.len();
    // The card, then a line for the question it will not ask, pasted together.
    t.type_text(&format!("\x1b[200~{card}\nplanet\x1b[201~\r"));
    t.wait_for(mark, "what you typed ahead was dropped");
    t.wait_for(mark, "Dark move> ");
    assert!(!t.seen[mark..].contains("secret planet"), "the dropped line did not run: {}", &t.seen[mark..]);
}

/// Issue 38, item 12: nothing typed ahead, nothing said to be dropped.
#[test]
fn nothing_is_said_to_be_dropped_when_nothing_was_typed_ahead() {
    let (seed, lines) = card_answered_for_you();
    let seed = seed.to_string();
    let mut t = Terminal::start(&["--seed", &seed, "--dark", "human", "--light", "greedy"]);
    let mut mark = 0;
    for line in &lines {
        t.wait_for(mark, "Dark ");
        t.wait_for(mark, "> ");
        mark = t.seen.len();
        t.type_text(&format!("{line}\r"));
    }
    // Light's reply, then Dark's next prompt: the card's question was answered for Dark.
    t.wait_for(mark, "Dark move> ");
    assert!(!t.seen[mark..].contains("dropped"), "{}", &t.seen[mark..]);
}

/// Issue 38, item 8: lines sent at once, as a terminal pastes them (bracketed)
/// or as a program types them (in one write), each run in turn.
#[test]
fn lines_sent_at_once_each_run_in_turn() {
    for paste in ["c3-d4\rlog\r", "\x1b[200~c3-d4\nlog\n\x1b[201~\r"] {
        let mut t = Terminal::start(&["--deck", "plain", "--seed", "1", "--dark", "human", "--light", "greedy"]);
        t.wait_for(0, "Dark move> ");
        let mark = t.seen.len();
        t.type_text(paste);
        // `log` lists Dark's move as the first of the game.
        t.wait_for(mark, "1. c3-d4 ");
    }
}

/// Issue 38, item 14: at a terminal, starting a game asks whether to continue
/// the newest unfinished autosave of the deck, and leaving asks whether to
/// save, with `discard` to leave without saving.
#[test]
fn starting_asks_to_continue_an_autosave_and_leaving_may_discard() {
    let dir = common::scratch_dir("terminal", "autosave-ask");
    let mut t = Terminal::start_in(&dir, &["--deck", "plain", "--seed", "5", "--light", "greedy"]);
    t.wait_for(0, "Dark move> ");
    t.type_text("c3-d4\r");
    t.wait_for(0, "Move 2 of 100");
    let mark = t.seen.find("Move 2 of 100").unwrap();
    t.wait_for(mark, "Dark move> ");
    t.type_text("quit\r");
    t.wait_for(mark, "Leave and save it");
    t.type_text("y\r");
    assert!(t.ended(), "{}", t.seen);
    // A new start offers it, and takes it up.
    let mut t = Terminal::start_in(&dir, &["--deck", "plain", "--light", "greedy"]);
    t.wait_for(0, "Continue the game saved in alien-checkers-autosave-plain-5.json? [y/N] ");
    t.type_text("y\r");
    t.wait_for(0, "loaded alien-checkers-autosave-plain-5.json: 2 decisions");
    let mark = t.seen.find("loaded alien-checkers-autosave").unwrap();
    t.wait_for(mark, "Dark move> ");
    t.type_text("quit\r");
    t.wait_for(mark, "'discard': leave without saving");
    t.type_text("discard\r");
    assert!(t.ended(), "{}", t.seen);
    assert!(t.seen[mark..].contains("left without saving"), "{}", &t.seen[mark..]);
    let saves =
        std::fs::read_dir(&dir).unwrap().flatten().filter(|e| e.file_name().to_string_lossy().ends_with(".json"));
    assert_eq!(saves.count(), 1, "nothing more was saved");
}

/// What the terminal shows of `text`: escape sequences (colours, cursor
/// moves) left out.
fn plain_text(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() || c == '~' {
                        break;
                    }
                }
            }
            continue;
        }
        if c != '\r' {
            out.push(c);
        }
    }
    out
}

/// Issue 38, item 6: at 80 and at 120 columns, a planet's text, a card's text
/// and rulings, the log and a list of options in an error are wrapped between
/// words, and no line is wider than the terminal.
#[test]
fn long_texts_wrap_between_words_at_80_and_120_columns() {
    for columns in [80u16, 120] {
        let dir = common::scratch_dir("terminal", &format!("wrap-{columns}"));
        let mut t = Terminal::start_sized(&dir, &["--seed", "42", "--light", "greedy"], Some((columns, 50)));
        t.wait_for(0, "Dark move> ");
        let steps = [
            ("planet", "secret planet is"),
            ("card walls", "ruling: Your own walls"),
            ("c3-d4", "Dark card> "),
            ("log", "1. c3-d4"),
            ("fire", "is not"),
        ];
        for (line, answer) in steps {
            let mark = t.seen.len();
            t.type_text(&format!("{line}\r"));
            t.wait_for(mark, answer);
        }
        let shown = plain_text(&t.seen);
        assert!(shown.contains("snookles") && shown.contains(" their "), "{shown}");
        for line in shown.lines().filter(|l| !l.contains("> ")) {
            assert!(textwrap::core::display_width(line) <= usize::from(columns), "wider than {columns}: {line:?}");
        }
    }
}

/// A small model of what a terminal of `columns` shows of `text`, as rows
/// (the last is the one the cursor is on): printable characters written at the
/// cursor, a line wider than the terminal wrapped onto the next row, `\r`
/// back to the row's start, `\n` to a new row, and of the escape sequences
/// the ones this program and its line editor write: erase to the end of the
/// row (`K`), cursor forward (`C`), clear the screen (`2J`); others (colours,
/// the cursor query) change no character.
fn screen_rows(text: &str, columns: usize) -> Vec<String> {
    let mut rows: Vec<Vec<char>> = vec![Vec::new()];
    let mut col = 0usize;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let row = rows.last_mut().expect("a row");
        match c {
            '\x1b' => {
                if chars.peek() != Some(&'[') {
                    chars.next();
                    continue;
                }
                chars.next();
                let mut arg = String::new();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() || c == '~' {
                        last = c;
                        break;
                    }
                    arg.push(c);
                }
                match last {
                    'K' => row.truncate(col),
                    'C' => col += arg.parse::<usize>().unwrap_or(1),
                    'J' if arg == "2" => {
                        rows = vec![Vec::new()];
                        col = 0;
                    }
                    _ => {}
                }
            }
            '\r' => col = 0,
            '\n' => {
                rows.push(Vec::new());
                col = 0;
            }
            c if c.is_control() => {}
            c => {
                if col >= columns {
                    rows.push(Vec::new());
                    col = 0;
                }
                let row = rows.last_mut().expect("a row");
                while row.len() < col {
                    row.push(' ');
                }
                if col < row.len() {
                    row[col] = c;
                } else {
                    row.push(c);
                }
                col += 1;
            }
        }
    }
    rows.into_iter().map(|r| r.into_iter().collect()).collect()
}

#[test]
fn the_screen_model_wraps_returns_and_erases() {
    let rows = screen_rows("abcdef\r\nxy\rz\x1b[K\nhello> \x1b[2J\x1b[Htop\n123456789", 4);
    assert_eq!(rows, ["top", "1234", "5678", "9"]);
    let rows = screen_rows("one\ntwo> \r\x1b[4Cxx", 80);
    assert_eq!(rows, ["one", "two>xx"]);
}

/// The first seed of a standard game that lasts past move 30 with Dark
/// always taking its first option and Light played by `greedy` (as the REPL
/// seats it).
fn thirty_moves_first_options() -> u64 {
    use alien_checkers::ai::{Budget, make_agent, mix_seed};
    (1..200)
        .find(|&seed| {
            let mut session = Session::new(&common::repo(), "standard", seed).unwrap();
            let planets = session.engine.content().setup().planets;
            let mut light = make_agent("greedy", mix_seed(seed, 2), planets, Budget::Interactive, None).unwrap();
            while let Some(decision) = session.pending().cloned() {
                if session.state().turn >= 60 {
                    return true;
                }
                let pick = match decision.player {
                    Player::Light => light.choose(session.state(), &session.engine).unwrap(),
                    Player::Dark => decision.options[0].clone(),
                };
                session.apply(&pick).unwrap();
            }
            false
        })
        .expect("a game of 30 moves")
}

/// Issue 38, item 7: at 80×24, after each decision of a 30-move standard game
/// (Dark played at the terminal, always its first option; Light by `greedy`),
/// the last 24 rows of the screen hold all eight ranks of the board with its
/// file letters, and the prompt on the last row.
#[test]
fn at_80_by_24_the_whole_board_and_the_prompt_stay_on_screen() {
    let dir = common::scratch_dir("terminal", "compact-80x24");
    let seed = thirty_moves_first_options().to_string();
    let mut t = Terminal::start_sized(&dir, &["--seed", &seed, "--light", "greedy"], Some((80, 24)));
    let mut mark = 0;
    let mut decisions = 0;
    loop {
        // A prompt on the row the cursor is on: the program waits for Dark.
        t.wait_until(mark, "a prompt", |seen| {
            screen_rows(seen, 80)
                .last()
                .is_some_and(|r| (r.starts_with("Dark ") || r.starts_with("game over")) && r.ends_with("> "))
        });
        let rows = screen_rows(&t.seen, 80);
        let shown = &rows[rows.len().saturating_sub(24)..];
        let prompt = shown.last().expect("a row");
        assert!(prompt.ends_with("> "), "the prompt is on the last row: {prompt:?}\n{}", shown.join("\n"));
        // The board's eight rows (a card may turn the board: files then
        // label its rows), each beginning with its label, and the labels
        // along the bottom (the panel may stand beside them).
        let labels: std::collections::BTreeSet<char> = shown
            .iter()
            .filter(|r| r.get(1..3) == Some(" |"))
            .filter_map(|r| r.chars().next().filter(char::is_ascii_alphanumeric))
            .collect();
        assert_eq!(
            labels.len(),
            8,
            "after {decisions} decisions the board is not all on screen:\n{}",
            shown.join("\n")
        );
        assert!(
            shown.iter().any(|r| {
                let words: Vec<&str> = r.split_whitespace().collect();
                words.len() >= 8 && words[..8].iter().all(|w| w.len() == 1) && r.starts_with("    ")
            }),
            "after {decisions} decisions the labels below the board are not on screen:\n{}",
            shown.join("\n")
        );
        assert!(!prompt.starts_with("game over"), "the game lasts 30 moves:\n{}", shown.join("\n"));
        if shown.iter().any(|r| r.contains("Move 31 of")) {
            break;
        }
        assert!(decisions < 200, "30 moves take fewer decisions");
        mark = t.seen.len();
        t.type_text("1\r");
        decisions += 1;
    }
    assert!(decisions >= 30, "{decisions} decisions");
}
