//! Review mode, like an analysis board: step forward and back through a
//! finished or saved game, decision by decision, seeing the board as play drew
//! it, what each decision did, and only the viewing player's own secrets
//! (narrate.rs tells events to a viewer; the panel shows a viewer's items).
//!
//! A review works on a [`Session`] by taking decisions back and playing them
//! again (the record rebuilds the game, ARCHITECTURE.md invariant 2); leaving
//! it (or dropping it) puts the whole game back, its table end included.
//!
//! Export: a game of a deck without cards, items, planets or deck rules (the
//! draughts decks: plain, russian, …) is written as PDN (pdn.rs); any other as
//! this program's save, which `review`, `replay` and `--load` read.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::input::{Input, Line};
use super::render::{self, View};
use crate::content::ContentRoot;
use crate::game::{Choice, Outcome};
use crate::kernel::Player;
use crate::session::{Edits, Session, SessionError};

/// A game being reviewed: the session stepped to one of its positions.
pub struct Review<'s> {
    session: &'s mut Session,
    /// Every decision of the game, and its end at the table if it had one.
    all: Vec<Choice>,
    ended: Option<Outcome>,
    /// For each move of the record, from move 1: the decisions made when it
    /// began ([`Session::move_start`]).
    move_starts: Vec<usize>,
    /// The step shown: how many decisions have been made (0: the deal).
    at: usize,
    view: View,
    columns: usize,
    export: Export,
}

/// The game's record for `export`, made when the review starts.
struct Export {
    /// PDN for a draughts deck, else the save's JSON.
    text: String,
    pdn: bool,
}

/// What a line typed in review asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Next,
    Prev,
    First,
    Last,
    /// `go N`: the start of move N.
    Move(u32),
    Export(String),
    Help,
    Leave,
    /// Not a review command: the message says what is.
    Invalid(String),
}

/// The review commands, for `help` in review and the REPL's help.
pub const COMMANDS: &[(&str, &str)] = &[
    ("n, next, Enter", "the next decision"),
    ("p, prev, back", "the decision before"),
    ("first", "the deal, before any move"),
    ("last", "the end of the game"),
    ("go <n>", "the board as move n began"),
    ("export <file>", "write the game: PDN for a draughts deck, else a save file"),
    ("q, quit", "leave the review"),
];

/// Reads a line typed in review. Total.
pub fn parse(line: &str) -> Step {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).map_or((line, ""), |(w, r)| (w, r.trim()));
    match word.to_ascii_lowercase().as_str() {
        "" | "n" | "next" => Step::Next,
        "p" | "prev" | "previous" | "back" => Step::Prev,
        "first" | "start" => Step::First,
        "last" | "end" => Step::Last,
        "go" => match rest.parse() {
            Ok(n @ 1..) => Step::Move(n),
            _ => Step::Invalid(format!(
                "'{}' is not a move number; write go <move>, e.g. go 12",
                crate::text::excerpt(rest, 40)
            )),
        },
        "export" if rest.is_empty() => {
            Step::Invalid("export needs a file name: export <file>, e.g. export game.pdn".into())
        }
        "export" => Step::Export(rest.to_string()),
        "help" | "?" => Step::Help,
        "q" | "quit" | "exit" | "leave" => Step::Leave,
        _ => Step::Invalid(format!(
            "'{}' is not a review command; n, p, first, last, go <move>, export <file>, q (help lists them)",
            crate::text::excerpt(line, 40)
        )),
    }
}

/// Who views a saved game: the one asked for, else the save's only human
/// seat, else Dark; with a note when it was not asked and not plain.
pub fn viewer_of(seats: &BTreeMap<Player, String>, asked: Option<Player>) -> (Player, Option<String>) {
    if let Some(p) = asked {
        return (p, None);
    }
    let humans: Vec<Player> = Player::BOTH.into_iter().filter(|p| seats.get(p).is_some_and(|s| s == "human")).collect();
    match humans.as_slice() {
        [one] => (*one, None),
        _ => (
            Player::Dark,
            Some("viewing as Dark, whose secrets alone are shown ('--as light' views as Light)".to_string()),
        ),
    }
}

/// The board as move `number` began, drawn for `view` as play draws a board
/// (`log N`): `None` when the game has not come that far.
pub fn board_at_move(session: &Session, number: u32, view: View) -> Option<String> {
    let start = session.move_start(number)?;
    let mut state = session.state().clone();
    state.position_mut().board = start.board;
    Some(render::board(&state, view, &render::Marks::of_deck(session), &render::glyphs(session)))
}

/// Whether `session`'s deck is a draughts deck: nothing but checkers (no
/// cards, planets, items, pools or deck rules), so its record is its moves.
fn is_draughts(session: &Session) -> bool {
    let setup = session.engine.content().setup();
    !setup.rules.cards
        && setup.deck.is_empty()
        && setup.planets.is_empty()
        && setup.effects.is_empty()
        && setup.items.is_none()
        && setup.routes.is_none()
        && session.decisions().all(|c| matches!(c, Choice::Move(_)))
}

/// The game as PDN, when its deck is a draughts deck ([`is_draughts`]).
pub fn pdn(session: &Session, seats: &BTreeMap<Player, String>) -> Option<String> {
    if !is_draughts(session) {
        return None;
    }
    let variant = session.engine.content().variant();
    let start = crate::plain::Position { board: session.start_board(), to_move: Player::Dark };
    let moves: Vec<crate::kernel::Move> = session
        .decisions()
        .filter_map(|c| match c {
            Choice::Move(m) => Some(*m),
            _ => None,
        })
        .collect();
    let seat = |p: Player| seats.get(&p).map_or("?", String::as_str);
    let header = crate::pdn::Header {
        players: [seat(Player::Dark), seat(Player::Light)],
        deck: session.saved_deck(),
        seed: session.seed(),
        over: session.outcome().map(|o| o.winner),
    };
    Some(crate::pdn::write(&variant, &header, &start, &moves))
}

/// Writes the game to `path`: PDN for a draughts deck, else the save's record.
/// Returns what was written ("PDN" or "the save format").
pub fn export(session: &Session, seats: &BTreeMap<Player, String>, path: &Path) -> Result<&'static str, SessionError> {
    let export = export_of(session, seats.clone());
    crate::session::write_safely(path, export.text.as_bytes())?;
    Ok(if export.pdn { "PDN" } else { "the save format" })
}

fn export_of(session: &Session, seats: BTreeMap<Player, String>) -> Export {
    match pdn(session, &seats) {
        Some(text) => Export { text, pdn: true },
        None => Export { text: session.record(seats).to_json(), pdn: false },
    }
}

impl<'s> Review<'s> {
    /// A review of `session`'s whole game, seen by `view.viewer`, at the deal.
    pub fn new(
        session: &'s mut Session,
        seats: BTreeMap<Player, String>,
        view: View,
        columns: usize,
    ) -> Result<Review<'s>, SessionError> {
        let all: Vec<Choice> = session.decisions().cloned().collect();
        let ended = session.table_end();
        let move_starts = (1..).map_while(|n| session.move_start(n).map(|m| m.decisions)).collect();
        let export = export_of(session, seats);
        let at = all.len();
        let mut review = Review { session, all, ended, move_starts, at, view, columns, export };
        review.go(0)?;
        Ok(review)
    }

    /// The step shown: the decisions made (0: the deal).
    pub fn at(&self) -> usize {
        self.at
    }

    /// How many steps the game has after the deal: its decisions.
    pub fn steps(&self) -> usize {
        self.all.len()
    }

    /// The session as it stands at the step shown.
    pub fn session(&self) -> &Session {
        self.session
    }

    /// Shows the position after `step` decisions (the last when past it).
    pub fn go(&mut self, step: usize) -> Result<(), SessionError> {
        let step = step.min(self.all.len());
        let made = self.session.history().len();
        if step < made || self.session.table_end().is_some() {
            self.session.undo(made - step);
        }
        while self.session.history().len() < step {
            let next = self.all[self.session.history().len()].clone();
            self.session.apply(&next)?;
        }
        if step == self.all.len()
            && let Some(outcome) = self.ended
        {
            self.session.end_at_table(outcome)?;
        }
        if self.session.history().len() != step {
            return Err(SessionError::Illegal(format!("the game could not be replayed to decision {step}")));
        }
        self.at = step;
        Ok(())
    }

    /// Goes to the start of move `number` (as `log N` shows it).
    pub fn go_to_move(&mut self, number: u32) -> Result<(), String> {
        let Some(&step) = self.move_starts.get(number as usize - 1) else {
            return Err(format!("there is no move {number}; this game has {} moves", self.move_starts.len()));
        };
        self.go(step).map_err(|e| e.to_string())
    }

    /// The move of the record that decision `step` (1-based) was made in.
    fn move_of(&self, step: usize) -> usize {
        self.move_starts.iter().filter(|&&s| s < step).count().max(1)
    }

    /// What the step shows: the board and panel as play draws them (without
    /// the options), then the step, the decision and what it did as the
    /// viewer is told it, and at the end how the game ended.
    pub fn shown(&self) -> String {
        let session = &*self.session;
        let viewer = self.view.viewer;
        let screen = render::screen(session, self.view, self.columns);
        let options = render::wrap(&render::options(session), self.columns);
        let mut out = screen.strip_suffix(options.as_str()).unwrap_or(&screen).to_string();
        let mut say = |text: String| out.push_str(&render::wrap(&format!("{text}\n"), self.columns));
        let total = self.all.len();
        match self.at.checked_sub(1) {
            None => say(format!("Review, step 0 of {total}: the deal")),
            Some(i) => {
                let decided = &session.history()[i];
                let mut line = decided.line.clone();
                // Your own secret answers are yours to read again.
                if decided.decider == viewer && line.ends_with("answers in secret") {
                    let text = session.choice_text(&decided.choice);
                    line = format!("{line} (you answered {})", text.strip_prefix("answer ").unwrap_or(&text));
                }
                let begins = match self.move_starts.iter().position(|&s| s == self.at) {
                    Some(m) => format!(" (move {} begins)", m + 1),
                    None => String::new(),
                };
                say(format!("Review, step {} of {total}, move {}: {line}{begins}", self.at, self.move_of(self.at)));
                for told in session.told(i, viewer) {
                    say(format!("  * {told}"));
                }
            }
        }
        if let Some(outcome) = session.outcome() {
            say(session.describe_outcome(&outcome));
            // The rules reveal both planets at the end (R2.3).
            for p in Player::BOTH {
                if let Some((name, text)) = session.planet_text(p) {
                    say(format!("  {p}'s planet was {name}: {}", text.trim()));
                }
            }
        }
        out
    }

    /// Runs one line typed in review; false to leave.
    pub fn command(&mut self, line: &str) -> bool {
        let moved = match parse(line) {
            Step::Next if self.at == self.all.len() => {
                println!("this is the end of the game ('first' goes back to the deal, 'q' leaves)");
                return true;
            }
            Step::Prev if self.at == 0 => {
                println!("this is the deal, before any move ('n' steps forward)");
                return true;
            }
            Step::Next => self.go(self.at + 1).map_err(|e| e.to_string()),
            Step::Prev => self.go(self.at - 1).map_err(|e| e.to_string()),
            Step::First => self.go(0).map_err(|e| e.to_string()),
            Step::Last => self.go(self.all.len()).map_err(|e| e.to_string()),
            Step::Move(n) => self.go_to_move(n),
            Step::Export(file) => {
                self.write_export(Path::new(&file));
                return true;
            }
            Step::Help => {
                println!("Review commands:");
                for (name, what) in COMMANDS {
                    println!("  {name:<16} {what}");
                }
                return true;
            }
            Step::Leave => return false,
            Step::Invalid(message) => {
                print!("{}", render::wrap(&format!("{message}\n"), self.columns));
                return true;
            }
        };
        match moved {
            Ok(()) => print!("{}", self.shown()),
            Err(e) => print!("{}", render::wrap(&format!("{e}\n"), self.columns)),
        }
        true
    }

    fn write_export(&self, path: &Path) {
        match crate::session::write_safely(path, self.export.text.as_bytes()) {
            Ok(()) => {
                let what = if self.export.pdn { "PDN" } else { "the save format" };
                println!("wrote the game to {} ({what})", path.display());
            }
            Err(e) => print!("{}", render::wrap(&format!("{e}\n"), self.columns)),
        }
    }

    /// Reads review commands until `q` or the end of input; piped lines are
    /// echoed after the prompt, as play echoes them.
    pub fn run(&mut self, input: &mut Input, interactive: bool) {
        let viewer = self.view.viewer;
        if let Some((name, text)) = self.session.planet_text(viewer) {
            print!("{}", render::wrap(&format!("Your planet ({viewer}) is {name}: {}\n", text.trim()), self.columns));
        }
        print!("{}", self.shown());
        println!("Review: n or Enter steps forward, p back, first, last, go <move>, export <file>, q leaves.");
        loop {
            input.set_words(super::table::Candidates::default());
            let prompt = format!("review {}/{}> ", self.at, self.all.len());
            match input.read(&prompt) {
                Line::Eof => break,
                Line::Interrupted => println!("(line cancelled; 'q' leaves the review)"),
                Line::Text(line) => {
                    if !interactive && !line.trim().is_empty() {
                        println!("{prompt}{}", line.trim());
                    }
                    if !self.command(&line) {
                        break;
                    }
                }
            }
        }
    }
}

impl Drop for Review<'_> {
    /// The whole game again, as it was before the review.
    fn drop(&mut self) {
        let _ = self.go(self.all.len());
    }
}

/// How to review a saved game from the command line.
#[derive(Clone, Debug)]
pub struct ReviewOptions {
    pub root: ContentRoot,
    pub file: PathBuf,
    /// The viewer asked for (`--as`).
    pub viewer: Option<Player>,
    /// Write the game here and stop (`--export`).
    pub export: Option<PathBuf>,
    pub edits: Edits,
}

/// `alien-checkers review FILE`: loads the save and reviews it, or with
/// `--export` writes its record and stops.
pub fn run_file(options: ReviewOptions) -> Result<(), String> {
    let (mut session, replay, record) = Session::open(&options.root, &options.file, options.edits)?;
    if let Some(note) = replay.edited_note() {
        println!("{note}");
    }
    if let Some((_, why)) = &replay.diverged {
        println!("The replay stops: {why}. The review ends there.");
    }
    if let Some(out) = &options.export {
        let what = export(&session, &record.seats, out)?;
        println!("wrote the game to {} ({what})", out.display());
        return Ok(());
    }
    let interactive = std::io::IsTerminal::is_terminal(&std::io::stdin());
    let colour = std::io::IsTerminal::is_terminal(&std::io::stdout()) && std::env::var_os("NO_COLOR").is_none();
    let mut input = Input::new(interactive);
    let columns = input.columns();
    let (viewer, note) = viewer_of(&record.seats, options.viewer);
    if let Some(note) = note {
        println!("{note}");
    }
    let view = View { viewer, colour };
    let mut review = Review::new(&mut session, record.seats.clone(), view, columns)?;
    review.run(&mut input, interactive);
    drop(review);
    input.finish();
    Ok(())
}

impl super::Repl {
    /// `review`: this game, seen by the player at the keyboard; `review FILE`:
    /// a saved game, seen by its human seat. The game in play is unchanged.
    pub(super) fn review(&mut self, file: Option<&str>, input: &mut Input) {
        let columns = self.columns;
        let colour = self.colour;
        match file {
            None => {
                if self.session.history().is_empty() {
                    println!("nothing to review yet: no decision has been made");
                    return;
                }
                let viewer = self.handed_to.filter(|_| self.hot_seat()).unwrap_or(self.view().viewer);
                let seats = self.seats_record();
                match Review::new(&mut self.session, seats, View { viewer, colour }, columns) {
                    Ok(mut review) => review.run(input, self.interactive),
                    Err(e) => println!("{e}"),
                }
                self.redraw();
            }
            Some(file) => {
                let current = || self.session.engine.content().root.clone();
                let root = crate::session::root_for_save(None, Path::new(file), current);
                let (mut session, replay, record) = match Session::open(&root, Path::new(file), Edits::Refuse) {
                    Ok(loaded) => loaded,
                    Err(e) => return print!("{}", render::wrap(&format!("{e}\n"), columns)),
                };
                if let Some((_, why)) = &replay.diverged {
                    print!("{}", render::wrap(&format!("The replay stops: {why}. The review ends there.\n"), columns));
                }
                let (viewer, note) = viewer_of(&record.seats, None);
                if let Some(note) = note {
                    println!("{note}");
                }
                match Review::new(&mut session, record.seats.clone(), View { viewer, colour }, columns) {
                    Ok(mut review) => review.run(input, self.interactive),
                    Err(e) => println!("{e}"),
                }
                self.redraw();
            }
        }
        println!("left the review; back to the game");
    }
}
