//! A game being played: the engine, the state, and the record that rebuilds it
//! (ARCHITECTURE.md invariant 2: a game is its deck, its scripts' hashes, its seed
//! and its decisions). Undo, save, load and reload all replay that record.
//!
//! A save also holds the state digest after the deal and after every decision,
//! so that replaying it on changed scripts can say where the game first differs.
//!
//! Loading never changes anything before it succeeds: a save that cannot be read
//! (truncated, corrupt, from a newer version, hand-edited into nonsense) is an
//! error; so is an edited save — one that contradicts itself whatever its
//! scripts ([`Replay::edited`]) — unless it is accepted outright ([`Edits`]).
//! When scripts did change, the save loads, the changed files are named and the
//! first difference is reported ([`Replay`]).

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use crate::content::{ContentRoot, Problems};
use crate::game::{Choice, Decision, EndReason, Event, EventLog, GameEvent, GameState, Logged, Outcome, Step};
use crate::kernel::{Bitboard, Board, Player};
use crate::script::ScriptEngine;

/// The save format's name and version; a newer version is refused.
pub const SAVE_FORMAT: &str = "alien-checkers-save";
/// Version 1 had no `digests`; version 2 added them (an older program refuses
/// the field, so the version says why instead); version 3 added `ended`, and is
/// written only when a game ended at the table (so other saves stay readable by
/// version-2 programs); version 4 added `root`, written only for a game played
/// on content other than the shipped. All are read.
pub const SAVE_VERSION: u32 = 4;
/// Largest save file read.
const MAX_SAVE_BYTES: u64 = 16 * 1024 * 1024;
/// The most characters of a save's deck, and of one of its decisions, that a
/// message quotes (text::excerpt).
const SHOWN_DECK: usize = 200;
const SHOWN_DECISION: usize = 60;

/// What went wrong playing, saving or loading a game. Each variant holds the
/// message shown for it, which names the file when there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionError {
    /// The deck's content did not load: its problems, one a line.
    Content(String),
    /// A save file could not be read, or is not a save this program reads.
    Read(String),
    /// A save's deck could not be loaded.
    Deck(String),
    /// A save was edited, and loading it was not asked for ([`Replay::refusal`]).
    Edited(String),
    /// A file could not be written.
    Write(String),
    /// The game refused the decision.
    Illegal(String),
    /// A script ran past the time guard: the engine's metering has a bug,
    /// and the session cannot go on ([`ScriptEngine::broken`]). The game is
    /// as it was before the decision.
    Broken(String),
    /// The game cannot end at the table that way, or now.
    TableEnd(String),
}

impl std::fmt::Display for SessionError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            SessionError::Content(m)
            | SessionError::Read(m)
            | SessionError::Deck(m)
            | SessionError::Edited(m)
            | SessionError::Write(m)
            | SessionError::Illegal(m)
            | SessionError::Broken(m)
            | SessionError::TableEnd(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for SessionError {}

/// The message, for callers that report failures as text.
impl From<SessionError> for String {
    fn from(e: SessionError) -> String {
        e.to_string()
    }
}

/// What a save file holds. Never code: decisions are written as the options were
/// shown (`c3-d4`, `card water`, `answer d4`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub format: String,
    pub version: u32,
    /// The deck by name, or by absolute path (a relative path in saves made
    /// before decks were recorded so, resolved against `root` on load).
    pub deck: String,
    /// Content hash (FNV-1a) of every manifest and script, by file relative to
    /// the content root.
    pub hashes: BTreeMap<String, u64>,
    pub seed: u64,
    /// Who sits where (`human`, `random`, a computer level); informational for loaders.
    #[serde(default)]
    pub seats: BTreeMap<Player, String>,
    pub decisions: Vec<String>,
    /// The state digest after the deal and after each decision (one more than
    /// there are decisions; since version 2). Optional: a save without it still
    /// loads, and only decisions that no longer apply are reported.
    #[serde(default)]
    pub digests: Vec<u64>,
    /// A game ended at the table after the last decision: a resignation or an
    /// agreed draw (since version 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<Outcome>,
    /// The content root the game was played on, as an absolute path, when it
    /// is not the shipped content (since version 4): loading finds a modded
    /// game's cards there without `--root`, while that folder holds them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root: Option<PathBuf>,
}

impl Record {
    /// The save file's text (pretty JSON, so a player can read it).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record serializes")
    }

    /// Whether `later` is this game, as it is or played on: the same deck,
    /// content root and seed, this record's decisions the first of `later`'s,
    /// and this record's end (a resignation, a draw) `later`'s too. Writing
    /// `later` over this record loses nothing.
    pub fn is_continued_by(&self, later: &Record) -> bool {
        let same_deal = (&self.deck, &self.root, self.seed) == (&later.deck, &later.root, later.seed);
        let ended_alike = self.ended.is_none() || (self.ended == later.ended && self.decisions == later.decisions);
        same_deal && ended_alike && later.decisions.starts_with(&self.decisions)
    }

    /// "another game (deck standard, seed 7, 12 decisions)", to say what a file
    /// holds (its deck made visible, text.rs: the file may hold anything).
    pub fn summary(&self) -> String {
        let deck = crate::text::excerpt(&self.deck, SHOWN_DECK);
        format!("another game (deck {deck}, seed {}, {} decisions)", self.seed, self.decisions.len())
    }
}

/// A game with its engine and its decisions so far.
pub struct Session {
    pub engine: ScriptEngine,
    /// The deck as given (shown to the player).
    deck: String,
    /// The deck as saves record it: a path made absolute, so that the save
    /// loads from any folder; a name as it is.
    saved_deck: String,
    seed: u64,
    state: GameState,
    /// What the deal made.
    dealt: Made,
    /// Each decision so far, with what it made.
    history: Vec<Decided>,
    /// A resignation or agreed draw after the last decision.
    table_end: Option<Outcome>,
    /// The decision pending now, worked out once per change of the state.
    pending: Option<Decision>,
    /// How many times the state has changed (decisions, undo, a new deal, …).
    changes: u64,
}

/// What the deal or a decision made: what happened, and the board and the
/// state's digest after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Made {
    pub events: Vec<Logged>,
    /// The board after it, where the next decision's events start.
    pub board: Board,
    pub digest: u64,
}

/// One decision of the game: what was chosen, by whom, its line in the log,
/// and what it made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decided {
    pub choice: Choice,
    pub decider: Player,
    /// `Dark moves c3-d4`, `Light uses Water`.
    pub line: String,
    pub made: Made,
    /// For an answer: the card whose script asked (a card's `play`, or the
    /// handler of a lasting effect or deck rule it made).
    pub asked_by: Option<crate::game::CardId>,
}

/// Where a move of the record began ([`Session::move_start`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveStart {
    /// The decisions made before it began, and the one that began it: the
    /// position after them is the first in which the move's player decides.
    pub decisions: usize,
    /// The board exactly as the move began.
    pub board: Board,
}

/// How a loaded or reloaded record compares with the scripts it now runs on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replay {
    /// Files (relative to the content root) whose content changed, appeared or
    /// disappeared since the record was made, sorted.
    pub changed: Vec<String>,
    /// The first decision (1-based) that could not be replayed, with why; the
    /// game stops before it.
    pub diverged: Option<(usize, String)>,
    /// The first decision (1-based; 0 for the deal) after which the replayed game
    /// is not the recorded one, though its decisions still applied, with a
    /// description. Needs the record's digests.
    pub differs: Option<(usize, String)>,
    /// The save contradicts itself whatever its scripts, so it was edited (or
    /// damaged): the first decision (1-based; 0 for the deal) from which the game
    /// may not be the one played, with why. Set when it differs or stops though
    /// no file changed; when its digests are missing from a format that always
    /// has them; and when, whatever changed, the saved position after a decision
    /// is the one another option gives (that option was played).
    pub edited: Option<(usize, String)>,
    /// The save has no digests, as format 1 had none: the game cannot be
    /// checked against the one played.
    pub unchecked: bool,
}

impl Replay {
    /// Whether the replayed game is exactly the recorded one.
    pub fn same_game(&self) -> bool {
        self.diverged.is_none() && self.differs.is_none()
    }

    /// Why the save at `path` is not loaded unless accepted: it was edited.
    pub fn refusal(&self, path: &Path) -> Option<String> {
        let (_, why) = self.edited.as_ref()?;
        Some(format!(
            "{}: {why}; it is not loaded (--accept-edited, or 'load!' in a game, loads it anyway)",
            path.display()
        ))
    }

    /// What loading an edited save anyway means, to be said when it is done.
    pub fn edited_note(&self) -> Option<String> {
        let note = match self.edited.as_ref()? {
            (0, _) => "loading an edited save: its deal and decisions may not be the game that was played".into(),
            (n, _) => format!("loading an edited save: decisions from {n} on may not be the game that was played"),
        };
        Some(note)
    }
}

/// Whether a load takes an edited save ([`Replay::edited`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edits {
    /// Refuse it, saying from which decision it may not be the game played.
    Refuse,
    /// Load it: the player asked for it (`--accept-edited`, `load!`).
    Accept,
}

impl Session {
    /// Deals a new game of `deck` with `seed`.
    pub fn new(root: &ContentRoot, deck: &str, seed: u64) -> Result<Session, SessionError> {
        let engine = ScriptEngine::load(root, deck).map_err(|p| SessionError::Content(p.to_string()))?;
        Ok(Session::deal(engine, deck, seed))
    }

    /// Deals a new game of `deck` (which `engine` was loaded from) with `seed`.
    fn deal(engine: ScriptEngine, deck: &str, seed: u64) -> Session {
        // A deck given as a path is the manifest path itself (ContentRoot::deck_path).
        let saved_deck = match std::path::absolute(deck) {
            Ok(absolute) if engine.content().deck_path == Path::new(deck) => {
                absolute.to_str().map_or_else(|| deck.to_string(), str::to_string)
            }
            _ => deck.to_string(),
        };
        let state = GameState::new(&engine.content().setup(), seed);
        let mut session = Session {
            // Made by `restart`, below.
            dealt: Made { events: Vec::new(), board: state.board, digest: 0 },
            state,
            engine,
            deck: deck.to_string(),
            saved_deck,
            seed,
            history: Vec::new(),
            pending: None,
            changes: 0,
            table_end: None,
        };
        session.restart();
        session
    }

    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// Sets the engine's budgets for the decisions to come (tools and tests).
    pub fn set_budgets(&mut self, budgets: crate::script::Budgets) {
        self.engine.set_budgets(budgets);
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn deck(&self) -> &str {
        &self.deck
    }

    /// The deck as a save records it: a path made absolute; a name as it is.
    pub fn saved_deck(&self) -> &str {
        &self.saved_deck
    }

    /// Each decision so far, oldest first, with what it made.
    pub fn history(&self) -> &[Decided] {
        &self.history
    }

    /// What stood after the first `decisions` decisions (0: the deal).
    fn after(&self, decisions: usize) -> &Made {
        decisions.checked_sub(1).map_or(&self.dealt, |i| &self.history[i].made)
    }

    /// The decisions so far, oldest first.
    pub fn decisions(&self) -> impl DoubleEndedIterator<Item = &Choice> + ExactSizeIterator {
        self.history.iter().map(|d| &d.choice)
    }

    /// Human-readable lines, one per decision, oldest first.
    pub fn log(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator {
        self.history.iter().map(|d| d.line.as_str())
    }

    /// A number that changes whenever the state does, for a display to know
    /// whether it is out of date without comparing states.
    pub fn changes(&self) -> u64 {
        self.changes
    }

    /// The decision pending now (`None` when the game is over). Kept with the
    /// state, so asking costs nothing: the REPL asks on every line.
    pub fn pending(&self) -> Option<&Decision> {
        self.pending.as_ref()
    }

    /// Who decides now: the player to move, except that a lasting effect's
    /// question is its owner's, even in the other player's turn (game/react.rs).
    /// After the end, the player who was to move.
    pub fn decider(&self) -> Player {
        self.pending.as_ref().map_or(self.state.to_move, |d| d.player)
    }

    /// The state digest now (FNV-1a over the state's JSON form; ARCHITECTURE.md
    /// invariant 7). Equal digests mean equal games, whichever process made them.
    pub fn digest(&self) -> u64 {
        self.state.digest()
    }

    /// What happened in the deal (first) and in each decision since.
    pub fn events(&self) -> impl DoubleEndedIterator<Item = &[Logged]> {
        let decided = self.history.iter().map(|d| d.made.events.as_slice());
        std::iter::once(self.dealt.events.as_slice()).chain(decided)
    }

    /// The board of the deal, where the events start.
    pub fn start_board(&self) -> Board {
        GameState::new(&self.engine.content().setup(), self.seed).board
    }

    /// What decision `i` (0-based) did, one line per event, as `viewer` is told
    /// it (narrate.rs): from the board it started on, knowing the card in play.
    pub fn told(&self, i: usize, viewer: Player) -> Vec<String> {
        let Some(decided) = self.history.get(i) else { return Vec::new() };
        let before = self.after(i).board;
        crate::narrate::Narrator::new(self.engine.content(), before, Some(viewer))
            .decision_lines(&decided.choice, &decided.made.events)
    }

    /// The squares changed in the previous turn and in this one so far (moves,
    /// captures, card effects), for marking on the board.
    pub fn recent_squares(&self) -> Bitboard {
        let all: Vec<&Event> = self.events().flatten().map(|logged| &logged.event).collect();
        let turn_starts: Vec<usize> = all
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e, Event::Game(GameEvent::TurnBegan { .. })))
            .map(|(i, _)| i)
            .collect();
        let from = turn_starts.len().checked_sub(2).map_or(0, |k| turn_starts[k]);
        let mut marks = Bitboard::EMPTY;
        for event in &all[from..] {
            if let Event::Board(e) = event {
                for sq in e.squares() {
                    marks.insert(sq);
                }
            }
        }
        marks
    }

    /// The game so far as turns, in `viewer`'s frame (`None`: neutral).
    pub fn turns(&self, viewer: Option<Player>) -> Vec<crate::narrate::TurnRecord> {
        let decided = self.history.iter().map(|d| (Some(&d.choice), d.made.events.as_slice()));
        let batches = std::iter::once((None, self.dealt.events.as_slice())).chain(decided);
        crate::narrate::turns(self.engine.content(), self.start_board(), batches, viewer)
    }

    /// Takes one option of the pending decision; returns the log line.
    pub fn apply(&mut self, choice: &Choice) -> Result<String, SessionError> {
        let who = self.decider();
        let secret = self.answers_in_secret();
        let asked_by = match &self.state.step {
            Step::Resolving(r) => Some(r.card),
            _ => None,
        };
        // A 2×2 block by its name, the same for both players (narrate::block_name).
        let block = match (&self.state.step, choice) {
            (Step::Resolving(r), Choice::Answer(crate::game::Answer::Square(anchor)))
                if r.question.kind == crate::game::QuestionKind::Block =>
            {
                Some(crate::narrate::block_name(*anchor))
            }
            _ => None,
        };
        self.not_broken()?;
        let before = self.state.clone();
        let applied = self.state.apply(&self.engine, choice).map(|()| self.state.pending(&self.engine));
        if let Err(broken) = self.not_broken() {
            self.state = before;
            return Err(broken);
        }
        self.pending = applied.map_err(|e| SessionError::Illegal(e.to_string()))?;
        self.changes += 1;
        let made =
            Made { events: self.state.journal_mut().take(), board: self.state.board, digest: self.state.digest() };
        let line = match (block, choice) {
            (Some(name), _) if !secret => format!("{} answers {name}", self.side(who)),
            // A move as the record writes it: on to where Ice slid it (`d4-c5~b6`).
            (_, Choice::Move(m)) => {
                format!(
                    "{}{}",
                    self.describe(who, secret, choice),
                    crate::narrate::slides(self.engine.content(), m, &made.events)
                )
            }
            _ => self.describe(who, secret, choice),
        };
        self.history.push(Decided { choice: choice.clone(), decider: who, line: line.clone(), made, asked_by });
        Ok(line)
    }

    /// An error when the engine is broken ([`SessionError::Broken`]).
    pub fn not_broken(&self) -> Result<(), SessionError> {
        self.engine.broken().map_or(Ok(()), |m| Err(SessionError::Broken(m)))
    }

    /// How a decision reads in the log: `Dark moves c3-d4`, `Light uses Water`;
    /// a `secret` answer without what it was.
    pub fn describe(&self, who: Player, secret: bool, choice: &Choice) -> String {
        crate::narrate::decision_line(self.engine.content(), who, secret, choice)
    }

    /// Whether the pending decision is a question whose answers the other
    /// player must not see: one asked with `opts.secret`, or one of a card
    /// whose manifest says `secret_answers` (Foresight's order of the draw
    /// pile, R8.20).
    pub fn answers_in_secret(&self) -> bool {
        crate::narrate::answers_in_secret(self.engine.content(), &self.state)
    }

    pub fn card_name(&self, card: crate::game::CardId) -> String {
        self.engine.content().card(card).map_or_else(|| format!("card #{}", card.0), |c| c.manifest.name.clone())
    }

    /// What a card's lasting effect does, from its manifest: its `effect`, or
    /// with `or_text` its `text` when it has none.
    pub fn effect_text(&self, effect: &crate::game::Effect, or_text: bool) -> Option<String> {
        let manifest = &self.engine.content().card(effect.card)?.manifest;
        let text = manifest.effect.clone().or_else(|| or_text.then(|| manifest.text.clone()))?;
        Some(crate::content::with_effect(&text, effect))
    }

    /// How long `effect` lasts in its manifest's words (`effect_lasts`), filled
    /// in from its data; `None` when the manifest leaves it to the game.
    pub fn effect_lasts(&self, effect: &crate::game::Effect) -> Option<String> {
        let manifest = &self.engine.content().card(effect.card)?.manifest;
        manifest.effect_lasts.as_deref().map(|text| crate::content::with_effect(text, effect))
    }

    /// The state, to set up a scene in a unit test.
    #[cfg(test)]
    pub(crate) fn state_mut(&mut self) -> &mut GameState {
        &mut self.state
    }

    /// Where move `number` of the record began (Dark's turn of it, R1.3; the
    /// record numbers moves so, narrate::record_text), if the game has come that
    /// far: the board exactly as that turn began, after everything the move
    /// before did (its last card included) and before anything of the new turn
    /// (its start-of-turn effects are the move's own, told under it in `log`).
    ///
    /// Replays the record's events: the board after the decision before the one
    /// that began the turn, then that decision's events up to the turn's start.
    /// Move 1 begins when the deal is done.
    pub fn move_start(&self, number: u32) -> Option<MoveStart> {
        if number == 1 {
            return Some(MoveStart { decisions: 0, board: self.dealt.board });
        }
        let turn = number.checked_mul(2)?.checked_sub(1)?;
        let begins = |l: &Logged| matches!(l.event, Event::Game(GameEvent::TurnBegan { turn: t, .. }) if t == turn);
        self.events().enumerate().find_map(|(batch, events)| {
            let at = events.iter().position(begins)?;
            // Batch 0 is the deal's; batch i > 0 is decision i's, which starts on
            // the board the decision before left.
            let mut board = if batch == 0 { self.start_board() } else { self.after(batch - 1).board };
            for logged in &events[..at] {
                if let Event::Board(e) = &logged.event {
                    e.redo(&mut board);
                }
            }
            Some(MoveStart { decisions: batch, board })
        })
    }

    /// The board as move `number` began ([`Session::move_start`]).
    pub fn board_at_move(&self, number: u32) -> Option<Board> {
        self.move_start(number).map(|m| m.board)
    }

    /// `player`'s secret answers (to questions asked with `opts.secret`, or of
    /// a card whose manifest says `secret_answers`), one entry per question
    /// or order: the move number, the asking card's name and the answers as
    /// typed.
    pub fn secret_answers(&self, player: Player) -> Vec<(u32, String, Vec<String>)> {
        let content = self.engine.content();
        let mut turn = 0;
        let mut found: Vec<(usize, u32, String, Vec<String>)> = Vec::new();
        for (i, decided) in self.history.iter().enumerate() {
            // What happened before it: in the deal or the decision before.
            for logged in &self.after(i).events {
                if let Event::Game(GameEvent::TurnBegan { turn: t, .. }) = logged.event {
                    turn = t;
                }
            }
            let Choice::Answer(answer) = &decided.choice else { continue };
            if decided.decider != player || !decided.line.ends_with("answers in secret") {
                continue;
            }
            let text = match answer {
                crate::game::Answer::Option(id) => {
                    content.card_id(id).map_or_else(|| id.to_string(), |c| self.card_name(c))
                }
                other => other.to_string(),
            };
            let card = decided.asked_by.map(|c| self.card_name(c));
            match found.last_mut() {
                Some((last, _, _, answers)) if *last + 1 == i => {
                    answers.push(text);
                    *last = i;
                }
                _ => found.push((i, turn.div_ceil(2).max(1), card.unwrap_or_default(), vec![text])),
            }
        }
        found.into_iter().map(|(_, number, card, answers)| (number, card, answers)).collect()
    }

    /// The last checker move played, by either player.
    pub fn last_move(&self) -> Option<&crate::kernel::Move> {
        self.decisions().rev().find_map(|c| match c {
            Choice::Move(m) => Some(m),
            _ => None,
        })
    }

    /// The text a decision is saved as: the one textual form (choice_text.rs) with the kind in front of a card
    /// (`card water`) or an answer (`answer d4`), as saves have always had it.
    pub fn choice_text(&self, choice: &Choice) -> String {
        let text = crate::choice_text::write(self.engine.content(), choice);
        match choice {
            Choice::Move(_) => text,
            Choice::Card(_) => format!("card {text}"),
            Choice::Answer(_) => format!("answer {text}"),
            Choice::GiveUp => text,
        }
    }

    /// The pending option written as `text`, if there is one (or giving up,
    /// which is never listed).
    pub fn find_choice(&self, text: &str) -> Option<Choice> {
        let decision = self.pending.as_ref()?;
        if text == crate::game::GIVE_UP {
            return Some(Choice::GiveUp);
        }
        decision.options.iter().find(|c| self.choice_text(c) == text).cloned()
    }

    /// Who made each decision so far.
    pub fn deciders(&self) -> impl DoubleEndedIterator<Item = Player> + ExactSizeIterator {
        self.history.iter().map(|d| d.decider)
    }

    /// Goes back `n` decisions by replaying the rest from the deal; returns how
    /// many were taken back.
    pub fn undo(&mut self, n: usize) -> usize {
        let before = self.history.len();
        let keep = before.saturating_sub(n);
        let decisions: Vec<Choice> = self.decisions().take(keep).cloned().collect();
        self.restart();
        for choice in &decisions {
            if self.apply(choice).is_err() {
                break;
            }
        }
        before - self.history.len()
    }

    fn restart(&mut self) {
        let setup = self.engine.content().setup();
        self.state = GameState::new(&setup, self.seed);
        *self.state.journal_mut() = EventLog::recording();
        self.state.begin(&setup, &self.engine);
        // Nothing has happened yet for a lasting effect to refuse.
        let _ = self.state.settle(&self.engine);
        self.history.clear();
        let digest = self.state.digest();
        self.dealt = Made { events: self.state.journal_mut().take(), board: self.state.board, digest };
        self.pending = self.state.pending(&self.engine);
        self.changes += 1;
        self.table_end = None;
    }

    /// Ends the game in progress by resignation (`winner` is the opponent of the
    /// one who resigns) or agreed draw (`winner` None). Undo takes it back.
    pub fn end_at_table(&mut self, outcome: Outcome) -> Result<(), SessionError> {
        let refused = |why: &str| Err(SessionError::TableEnd(why.into()));
        match (outcome.reason, outcome.winner) {
            (EndReason::Resigned, Some(_)) | (EndReason::Agreed, None) => {}
            (EndReason::Resigned, None) => return refused("a resignation has a winner"),
            (EndReason::Agreed, Some(_)) => return refused("an agreed draw has no winner"),
            _ => return refused("only a resignation or an agreed draw ends a game at the table"),
        }
        if self.state.outcome().is_some() {
            return refused("the game is already over");
        }
        self.state.end_at_table(outcome);
        self.pending = None;
        self.changes += 1;
        let events = self.state.journal_mut().take();
        let last = self.history.last_mut().map_or(&mut self.dealt, |d| &mut d.made);
        last.events.extend(events);
        self.table_end = Some(outcome);
        Ok(())
    }

    /// Starts a new game of the same deck.
    pub fn new_game(&mut self, seed: u64) {
        self.seed = seed;
        self.restart();
    }

    /// The record that rebuilds this game.
    pub fn record(&self, seats: BTreeMap<Player, String>) -> Record {
        let root = self.engine.content().root.outside_shipped();
        Record {
            format: SAVE_FORMAT.into(),
            version: match (&root, self.table_end) {
                (Some(_), _) => 4,
                (None, Some(_)) => 3,
                (None, None) => 2,
            },
            deck: self.saved_deck.clone(),
            hashes: self.engine.content().hashes(),
            seed: self.seed,
            seats,
            decisions: self.decisions().map(|c| self.choice_text(c)).collect(),
            digests: self.digests(),
            ended: self.table_end,
            root,
        }
    }

    /// The state digest after the deal and after each decision.
    fn digests(&self) -> Vec<u64> {
        std::iter::once(&self.dealt).chain(self.history.iter().map(|d| &d.made)).map(|m| m.digest).collect()
    }

    /// Writes the record atomically: a temporary file in the same folder, flushed
    /// to disk, then renamed over `path`. A crash leaves the old save whole.
    pub fn save(&self, path: &Path, seats: BTreeMap<Player, String>) -> Result<(), SessionError> {
        write_safely(path, self.record(seats).to_json().as_bytes())
    }

    /// Like [`Session::save`], but only to a file that does not exist yet:
    /// `Ok(false)`, with nothing written, when `path` exists (even if it appeared
    /// a moment ago, written by another process).
    pub fn save_new(&self, path: &Path, seats: BTreeMap<Player, String>) -> Result<bool, SessionError> {
        write_file(path, self.record(seats).to_json().as_bytes(), Replace::No, &mut |_| Ok(()))
    }

    /// Reads a save and replays it on the scripts as they are now. Fails, leaving
    /// everything as it was, when the file cannot be read as a save, when its deck
    /// cannot be loaded, or when it was edited ([`Replay::edited`]; see
    /// [`Session::open`] to load such a save anyway).
    pub fn load(root: &ContentRoot, path: &Path) -> Result<(Session, Replay, Record), SessionError> {
        Session::open(root, path, Edits::Refuse)
    }

    /// [`Session::load`], with an edited save refused or accepted as `edits` says.
    pub fn open(root: &ContentRoot, path: &Path, edits: Edits) -> Result<(Session, Replay, Record), SessionError> {
        let record = read_record(path)?;
        let cannot = |why: &str| {
            let deck = crate::text::excerpt(&record.deck, SHOWN_DECK);
            SessionError::Deck(format!("{}: cannot load its deck '{deck}': {why}", path.display()))
        };
        let deck = saved_deck(&record).map_err(cannot)?;
        let engine = ScriptEngine::load(root, &deck).map_err(|p| cannot(&deck_problems(&deck, &p)))?;
        let mut session = Session::deal(engine, &deck, record.seed);
        let replay = session.replay(&record);
        match (edits, replay.refusal(path)) {
            (Edits::Refuse, Some(refusal)) => Err(SessionError::Edited(refusal)),
            _ => Ok((session, replay, record)),
        }
    }

    /// Replays `record`'s decisions from the deal, stopping at the first that no
    /// longer applies, and compares each position with the recorded digests.
    pub fn replay(&mut self, record: &Record) -> Replay {
        let now = self.engine.content().hashes();
        // The record's file names are shown as the save holds them, made visible.
        let mut changed: Vec<String> = record
            .hashes
            .iter()
            .filter(|(file, hash)| now.get(*file) != Some(hash))
            .map(|(file, _)| crate::text::excerpt(file, SHOWN_DECK))
            .collect();
        changed.extend(now.keys().filter(|f| !record.hashes.contains_key(*f)).cloned());
        changed.sort();
        self.restart();
        let mut differs = match record.digests.first() {
            Some(&d) if d != self.state.digest() => Some((0, "the deal is not the one saved".to_string())),
            _ => None,
        };
        let mut diverged = None;
        // The first decision whose saved position another option gives, with that
        // option's text: looked for only when files changed (when none did, any
        // difference shows an edit already).
        let mut played_instead: Option<(usize, String)> = None;
        let look_for_edits = !changed.is_empty();
        for (i, text) in record.decisions.iter().enumerate() {
            let saved = record.digests.get(i + 1).copied();
            let shown = crate::text::excerpt(text, SHOWN_DECISION);
            let Some(choice) = self.find_choice(text) else {
                if look_for_edits && differs.is_none() {
                    played_instead = self.option_giving(&self.state, saved, None).map(|o| (i + 1, o));
                }
                let offered = self.pending.as_ref().map_or_else(
                    || "the game was already over".to_string(),
                    |d| {
                        format!(
                            "offered: {}",
                            d.options.iter().map(|c| self.choice_text(c)).collect::<Vec<_>>().join(", ")
                        )
                    },
                );
                diverged = Some((i + 1, format!("decision {} '{shown}' is not possible now ({offered})", i + 1)));
                break;
            };
            let before = (look_for_edits && differs.is_none()).then(|| self.state.clone());
            if let Err(e) = self.apply(&choice) {
                diverged = Some((i + 1, format!("decision {} '{shown}' failed: {e}", i + 1)));
                break;
            }
            if differs.is_none()
                && let Some(saved) = saved
                && saved != self.state.digest()
            {
                let what = self.history.last().map(|d| d.line.clone()).unwrap_or_default();
                differs = Some((i + 1, format!("after decision {} ({what}) the game is not the one saved", i + 1)));
                if let Some(before) = before {
                    played_instead = self.option_giving(&before, Some(saved), Some(&choice)).map(|o| (i + 1, o));
                }
            }
        }
        if let (None, Some(outcome)) = (&diverged, record.ended)
            && let Err(e) = self.end_at_table(outcome)
        {
            diverged = Some((record.decisions.len(), format!("the recorded end ({e})")));
        }
        let edited = edited(record, &changed, &differs, &diverged, played_instead);
        let unchecked = record.digests.is_empty() && edited.is_none();
        Replay { changed, diverged, differs, edited, unchecked }
    }

    /// The text of an option of the decision pending in `before`, other than
    /// `except`, that leads to the position whose digest is `saved`.
    fn option_giving(&self, before: &GameState, saved: Option<u64>, except: Option<&Choice>) -> Option<String> {
        let saved = saved?;
        let decision = before.pending(&self.engine)?;
        let gives = |option: &Choice| {
            let mut state = before.clone();
            state.apply(&self.engine, option).is_ok() && state.digest() == saved
        };
        let option = decision.options.iter().filter(|o| Some(*o) != except).find(|o| gives(o))?;
        Some(self.choice_text(option))
    }

    /// Reloads the scripts from disk and replays this game's decisions on them.
    pub fn reload(&mut self) -> Result<Replay, SessionError> {
        let record = self.record(BTreeMap::new());
        self.engine.reload().map_err(|p| SessionError::Content(p.to_string()))?;
        Ok(self.replay(&record))
    }

    /// A resignation or agreed draw that ended this game, if any.
    pub fn table_end(&self) -> Option<Outcome> {
        self.table_end
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }

    /// What the table calls `player`: the deck's side name (White, Black), or
    /// Dark/Light.
    pub fn side(&self, player: Player) -> String {
        self.engine.content().side_name(player)
    }

    /// `Dark wins: Venus (four snookles)…` style summary of how the game ended.
    pub fn describe_outcome(&self, outcome: &Outcome) -> String {
        let how = match outcome.reason {
            EndReason::Capture => "the opponent has no checker left (R10.1)".to_string(),
            EndReason::FiveKings => {
                // The kings and emperors that won, where they stand.
                let kings =
                    outcome.winner.map_or(Bitboard::EMPTY, |w| self.state.board.checkers(w) & self.state.board.kings());
                let at: Vec<String> = kings.into_iter().map(|s| self.engine.content().square_name(s)).collect();
                format!("five kings and emperors on the board, on {} (R10.1)", at.join(" "))
            }
            EndReason::Planet(p) => {
                let planet = self.engine.content().planet(p);
                let name = planet.map_or("?", |p| p.manifest.name.as_str());
                // Where it holds, when the planet's script says (`squares`).
                let holder = outcome.winner.unwrap_or(self.state.to_move);
                match self.engine.planet_squares(&self.state, p, holder) {
                    Ok(squares) if !squares.is_empty() => {
                        let at: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
                        format!("planet {name} holds on {} (R9)", at.join(" "))
                    }
                    _ => format!("planet {name} holds (R9)"),
                }
            }
            EndReason::NoMoves => "neither player can move (R10.3)".to_string(),
            EndReason::Stuck => "the opponent cannot move (R11)".to_string(),
            EndReason::MoveLimit => format!("the move limit of {} turns (R10.4)", self.state.rules.move_limit),
            EndReason::Resigned => {
                format!("{} resigned", outcome.winner.map_or(String::from("a player"), |w| self.side(!w)))
            }
            EndReason::Agreed => "agreed by both players".to_string(),
            EndReason::Unplayable => "no option works: a script fails, and nothing is left to give up".to_string(),
            EndReason::Repetition => crate::narrate::repetition_text(self.engine.content()),
            EndReason::KingsOnly => crate::narrate::kings_only_text(self.engine.content()),
            EndReason::Rule { victory, by } => {
                let victory = crate::narrate::victory_text(self.engine.content(), victory, outcome.winner);
                match by {
                    Some(scored) => {
                        format!("{victory} (the deck's verdict when {})", crate::narrate::scored_text(scored))
                    }
                    None => format!("{victory} (a rule of the deck ended the game)"),
                }
            }
            EndReason::Unscored(scored) => {
                format!("{}, and no verdict of the deck scores it", crate::narrate::scored_text(scored))
            }
        };
        match outcome.winner {
            Some(p) => format!("{} wins: {how}", self.side(p)),
            None => format!("Draw: {how}"),
        }
    }

    /// A player's planet name and text, for `planet` and the end of the game.
    pub fn planet_text(&self, player: Player) -> Option<(String, String)> {
        let p = self.engine.content().planet(self.state.planet(player)?)?;
        Some((p.manifest.name.clone(), p.manifest.text.clone()))
    }

    /// Errors from `can_play` and planet checks since the last call.
    /// Script failures since the last call that `may_see` allows: a
    /// planet's failure only to its holder (R2.3), the rest to everyone.
    pub fn script_errors(&self, may_see: impl Fn(Player) -> bool) -> Vec<String> {
        let problems = self.engine.take_problems().into_iter();
        problems.filter(|p| p.secret_of.is_none_or(&may_see)).map(|p| p.text).collect()
    }
}

/// The content root to load the save at `path` from
/// ([`ContentRoot::for_saved_deck`]); a save that cannot be read gets `root` or
/// `named`, and loading it then says why.
pub fn root_for_save(root: Option<&Path>, path: &Path, named: impl FnOnce() -> ContentRoot) -> ContentRoot {
    match read_record(path) {
        Ok(record) => {
            let deck = saved_deck(&record).unwrap_or_else(|_| record.deck.clone());
            ContentRoot::for_saved_deck(root, &deck, record.root.as_deref(), named)
        }
        Err(_) => root.map_or_else(named, ContentRoot::new),
    }
}

/// The deck a save names, to be loaded: a name as it is; a path only to a deck
/// manifest (a `.yaml` file: the save may name any file). A relative path
/// (saves made before decks were recorded as absolute paths) is taken from
/// the recorded content root when it is there.
fn saved_deck(record: &Record) -> Result<String, &'static str> {
    let deck = &record.deck;
    let as_path = Path::new(deck);
    if !deck.contains('/') && !deck.ends_with(".yaml") {
        return Ok(deck.clone());
    }
    if as_path.extension().is_none_or(|e| e != "yaml") {
        return Err("that is not a deck manifest (a deck is a name, or a path to a .yaml file)");
    }
    let in_root = record.root.as_deref().filter(|_| as_path.is_relative()).map(|root| root.join(as_path));
    let found = in_root.filter(|p| p.is_file()).and_then(|p| p.to_str().map(str::to_string));
    Ok(found.unwrap_or_else(|| deck.clone()))
}

/// Why a save's deck did not load, each problem on a line. The deck's own file
/// may be any file (the save names it), so a problem located in its text is
/// given by place only, never with the words it quotes; its name is made
/// visible (text.rs).
fn deck_problems(deck: &str, problems: &Problems) -> String {
    let shown: Vec<String> = problems
        .0
        .iter()
        .map(|p| match (p.line, p.column) {
            (Some(line), column) if p.file == Path::new(deck) => format!(
                "{}:{line}:{}: not a deck manifest this program reads ('alien-checkers check {}' says why)",
                crate::text::excerpt(deck, SHOWN_DECK),
                column.unwrap_or(1),
                crate::text::shell_word(deck)
            ),
            _ => p.to_string(),
        })
        .collect();
    shown.join("\n")
}

/// Whether, and from which decision, a replayed save was edited
/// ([`Replay::edited`]).
fn edited(
    record: &Record,
    changed: &[String],
    differs: &Option<(usize, String)>,
    diverged: &Option<(usize, String)>,
    played_instead: Option<(usize, String)>,
) -> Option<(usize, String)> {
    if changed.is_empty()
        && let Some((n, why)) = differs.as_ref().or(diverged.as_ref())
    {
        let why = format!(
            "{why}, though no script or manifest changed since it was saved: the file was edited or damaged (or this program's rules changed)"
        );
        return Some((*n, why));
    }
    if record.version >= 2 && record.digests.is_empty() {
        let why = format!(
            "it has no position digests, though saves of its format (version {}) always have them: the file was edited, and its decisions cannot be checked",
            record.version
        );
        return Some((0, why));
    }
    let (n, other) = played_instead?;
    let text = crate::text::excerpt(record.decisions.get(n - 1).map_or("", String::as_str), SHOWN_DECISION);
    let why = format!(
        "decision {n} '{text}' is not the one played: the position saved after it is the one '{other}' gives, whatever scripts changed, so the file was edited"
    );
    Some((n, why))
}

/// Reads and checks a save file: size, format, version, fields, and that it has
/// one digest per position. Every error names the file, and the line and column
/// when the problem is in its text.
pub fn read_record(path: &Path) -> Result<Record, SessionError> {
    let shown = path.display();
    let unread = SessionError::Read;
    let meta = fs::metadata(path).map_err(|e| unread(format!("cannot read {shown}: {e}")))?;
    if !meta.is_file() {
        return Err(unread(format!("{shown} is not a file")));
    }
    if meta.len() > MAX_SAVE_BYTES {
        return Err(unread(format!("{shown} is {} bytes, more than a save can be ({MAX_SAVE_BYTES})", meta.len())));
    }
    let bytes = fs::read(path).map_err(|e| unread(format!("cannot read {shown}: {e}")))?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(unread(format!("{shown} is empty: not a save (was it cut short?)")));
    }
    let value: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|e| unread(format!("{shown} is not a save (corrupt or truncated): {e}")))?;
    if value.get("format").and_then(|f| f.as_str()) != Some(SAVE_FORMAT) {
        return Err(unread(format!("{shown} is not an alien-checkers save (no \"format\": \"{SAVE_FORMAT}\")")));
    }
    match value.get("version").and_then(|v| v.as_u64()) {
        Some(v) if v > u64::from(SAVE_VERSION) => {
            return Err(unread(format!(
                "{shown} was written by a newer version (save format {v}; this program reads up to {SAVE_VERSION})"
            )));
        }
        Some(0) => return Err(unread(format!("{shown} has save format version 0, which never existed"))),
        Some(_) => {}
        None => return Err(unread(format!("{shown} has no save format version"))),
    }
    // Parsed again from the text, so that a wrong field is located.
    let record: Record = serde_json::from_slice(&bytes)
        .map_err(|e| unread(format!("{shown} is damaged: {}", crate::content::clip_quoted(&e.to_string()))))?;
    if !record.digests.is_empty() && record.digests.len() != record.decisions.len() + 1 {
        return Err(unread(format!(
            "{shown} is damaged: it has {} decisions but {} position digests (expected {})",
            record.decisions.len(),
            record.digests.len(),
            record.decisions.len() + 1
        )));
    }
    Ok(record)
}

/// Whether a write may take the place of a file already at its path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Replace {
    Yes,
    /// Write only a new file; one already there is left alone.
    No,
}

/// Writes `bytes` to a temporary file beside `path`, syncs it, and renames it over
/// `path`. `fail_after` lets tests break the write partway (it sees the bytes
/// written so far); a failure removes the temporary file and leaves `path` alone.
/// The temporary file is a new one of a random name ([`create_temporary`]);
/// those that saves killed midway left are removed first ([`remove_stale_temporaries`]).
pub fn write_atomically(
    path: &Path,
    bytes: &[u8],
    fail_after: &mut dyn FnMut(usize) -> std::io::Result<()>,
) -> Result<(), SessionError> {
    write_file(path, bytes, Replace::Yes, fail_after).map(|_| ())
}

/// [`write_atomically`] with nothing to break it: the one way this program
/// writes a whole file (saves, simulation reports), so that no write follows a
/// link planted where its temporary file would go.
pub fn write_safely(path: &Path, bytes: &[u8]) -> Result<(), SessionError> {
    write_atomically(path, bytes, &mut |_| Ok(()))
}

/// A file written as it goes and given its name only when done: a new
/// temporary file of a random name beside it (links not followed), synced and
/// renamed by [`SafeFile::commit`]. Dropped uncommitted, it leaves nothing
/// behind and the old file as it was. Every file this program writes goes
/// through it.
pub struct SafeFile {
    path: PathBuf,
    tmp: PathBuf,
    file: Option<std::io::BufWriter<File>>,
    /// How its errors name what failed: "write" or "save to".
    verb: &'static str,
}

impl SafeFile {
    pub fn create(path: &Path) -> Result<SafeFile, SessionError> {
        SafeFile::open(path, "write")
    }

    fn open(path: &Path, verb: &'static str) -> Result<SafeFile, SessionError> {
        if path.is_dir() || path.as_os_str().to_string_lossy().ends_with(std::path::MAIN_SEPARATOR) {
            let example = if verb == "save to" { ", such as game.json" } else { "" };
            return Err(SessionError::Write(format!(
                "cannot {verb} {}: that is a folder; give a file name{example}",
                path.display()
            )));
        }
        let name =
            path.file_name().ok_or_else(|| SessionError::Write(format!("{} is not a file name", path.display())))?;
        let dir = folder_of(path);
        remove_stale_temporaries(dir);
        let (tmp, file) = create_temporary(dir, &name.to_string_lossy()).map_err(|e| write_error(verb, path, e))?;
        Ok(SafeFile { path: path.to_path_buf(), tmp, file: Some(std::io::BufWriter::new(file)), verb })
    }

    /// Syncs the file and gives it its name, in place of any file that had it.
    pub fn commit(self) -> Result<(), SessionError> {
        self.place(Replace::Yes).map(|_| ())
    }

    /// Syncs the file and gives it its name; with `Replace::No`, `Ok(false)`
    /// and nothing placed when a file has it.
    fn place(mut self, replace: Replace) -> Result<bool, SessionError> {
        let file = self.file.take().expect("a file not placed yet");
        let placed = (|| -> std::io::Result<bool> {
            let file = file.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()?;
            let placed = match replace {
                Replace::Yes => fs::rename(&self.tmp, &self.path).map(|()| true)?,
                Replace::No => place_new(&self.tmp, &self.path)?,
            };
            if let Ok(dir) = File::open(folder_of(&self.path)) {
                let _ = dir.sync_all();
            }
            Ok(placed)
        })();
        // After a rename the temporary name is gone; otherwise it goes now.
        let _ = fs::remove_file(&self.tmp);
        placed.map_err(|e| write_error(self.verb, &self.path, e))
    }
}

impl Write for SafeFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.as_mut().expect("a file not placed yet").write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().expect("a file not placed yet").flush()
    }
}

impl Drop for SafeFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

fn write_error(verb: &str, path: &Path, e: std::io::Error) -> SessionError {
    SessionError::Write(format!("cannot {verb} {}: {e}", path.display()))
}

/// The folder a file goes in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// The prefix of this program's temporary files beside `name`; a random token
/// follows ([`temporary_name`]).
const TMP_MARK: &str = ".tmp-";
/// How long a temporary file of a process that may still be alive is left
/// alone before it is taken for the remains of a crash.
const STALE_AFTER: Duration = Duration::from_secs(3600);

/// [`write_atomically`], or with `Replace::No` a write that never takes the place
/// of a file: `Ok(false)`, with nothing written, when `path` exists.
fn write_file(
    path: &Path,
    bytes: &[u8],
    replace: Replace,
    fail_after: &mut dyn FnMut(usize) -> std::io::Result<()>,
) -> Result<bool, SessionError> {
    let mut file = SafeFile::open(path, "save to")?;
    let mut written = 0;
    // Chunk by chunk to the disk, so that a failure midway is a real one.
    for chunk in bytes.chunks(4096) {
        file.write_all(chunk)
            .and_then(|()| file.flush())
            .and_then(|()| fail_after(written + chunk.len()))
            .map_err(|e| write_error("save to", path, e))?;
        written += chunk.len();
    }
    file.place(replace)
}

/// Gives the written temporary file `tmp` the name `path` unless a file has it:
/// a hard link fails rather than replace one. Where hard links are not to be had
/// (some file systems), a rename after a look, which a file appearing in
/// between would lose to.
fn place_new(tmp: &Path, path: &Path) -> std::io::Result<bool> {
    match fs::hard_link(tmp, path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == ErrorKind::AlreadyExists => Ok(false),
        Err(_) if fs::symlink_metadata(path).is_ok() => Ok(false),
        Err(_) => fs::rename(tmp, path).map(|()| true),
    }
}

/// `.NAME.tmp-<pid>-<16 random hex digits>`: no one can guess it and plant a
/// link there first.
fn temporary_name(name: &str) -> String {
    format!(".{name}{TMP_MARK}{}-{:016x}", std::process::id(), rand::random::<u64>())
}

/// Creates a temporary file beside `name` in `dir`: a new file (never one that
/// is there, nor a link's target), under a fresh random name.
fn create_temporary(dir: &Path, name: &str) -> std::io::Result<(PathBuf, File)> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        /// O_NOFOLLOW on Linux: a link at the last component is refused, not followed.
        const O_NOFOLLOW: i32 = 0o400000;
        options.custom_flags(O_NOFOLLOW);
    }
    let mut last = None;
    // A name taken already is a collision of 64 random bits, or a planted file.
    for _ in 0..8 {
        let tmp = dir.join(temporary_name(name));
        match options.open(&tmp) {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}

/// Removes this program's temporary files in `dir` left by saves that died
/// midway: those of a process that is gone, or older than [`STALE_AFTER`]. A
/// save in progress in another process is left alone. Failures are ignored:
/// this is tidying, not saving.
fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(temporary_pid) else { continue };
        let Ok(meta) = fs::symlink_metadata(entry.path()) else { continue };
        let age = meta.modified().ok().and_then(|m| SystemTime::now().duration_since(m).ok());
        let old = age.is_some_and(|a| a > STALE_AFTER);
        if !meta.is_dir() && (old || process_is_gone(pid)) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The process id in a name of this program's temporary files
/// (`.NAME.tmp-<pid>-<hex>`), or `None` for any other name.
fn temporary_pid(name: &str) -> Option<u32> {
    let (before, after) = name.rsplit_once(TMP_MARK)?;
    let (pid, token) = after.split_once('-')?;
    let hex = !token.is_empty() && token.bytes().all(|b| b.is_ascii_hexdigit());
    if before.len() > 1 && before.starts_with('.') && hex { pid.parse().ok() } else { None }
}

/// Whether no process has the id `pid` (Linux: no /proc entry, /proc being
/// there). Elsewhere unknown, so `false`: only age makes such files stale.
fn process_is_gone(pid: u32) -> bool {
    cfg!(target_os = "linux") && Path::new("/proc/self").exists() && !Path::new("/proc").join(pid.to_string()).exists()
}
