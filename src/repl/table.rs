//! The table around a game: resigning, offering a draw, leaving with an
//! autosave (never over another game), saving over a file only when that loses
//! nothing or the player says so, handing the screen over in hot-seat, hints,
//! and the words Tab completes. No rules live here: the game ends through
//! [`Session::end_at_table`], hints come from an agent that only reads the state.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::input::{Input, Line};
use super::{COMMANDS, Repl, Seat, render};
use crate::ai::{Budget, accepts_draw, make_agent, mix_seed};
use crate::content::ContentRoot;
use crate::game::{Answer, Choice, DecisionKind, EndReason, Outcome};
use crate::kernel::Player;
use crate::script::engine_factory;
use crate::session::{Record, Session, read_record};
use crate::text::{shell_word, visible};

/// ANSI: clear the screen and the terminal's scrollback (`ESC[3J`), so that a
/// secret shown before a hand-over cannot be scrolled back to, and put the
/// cursor top left.
const CLEAR: &str = "\x1b[2J\x1b[3J\x1b[H";
/// Printed instead of clearing the screen when output is not a terminal.
pub const SEPARATOR: &str = "----------------------------------------";

/// How every autosave file's name begins.
const AUTOSAVE_PREFIX: &str = "alien-checkers-autosave-";
/// How many autosave names a game tries before giving up.
const AUTOSAVE_NAMES: u32 = 1000;

/// The `n`th (from 1) name `quit`, Ctrl-D, `new` and `load` may autosave an
/// unfinished game of `deck` with `seed` to, in the current folder:
/// `alien-checkers-autosave-<seed>.json` for the standard deck,
/// `alien-checkers-autosave-<deck>-<seed>.json` for another, and `-<n>` before
/// `.json` from the second on.
pub fn autosave_file(deck: &str, seed: u64, n: u32) -> PathBuf {
    let tag = deck_tag(deck);
    let deck = if tag.is_empty() || tag == "standard" { String::new() } else { format!("{tag}-") };
    let count = if n > 1 { format!("-{n}") } else { String::new() };
    PathBuf::from(format!("{AUTOSAVE_PREFIX}{deck}{seed}{count}.json"))
}

/// Whether `file` is named as an autosave is.
pub fn is_autosave(file: &Path) -> bool {
    file.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(AUTOSAVE_PREFIX) && n.ends_with(".json"))
}

/// A deck's name as a part of a file name: a path's file stem, with letters,
/// digits, `_` and `-` only, at most 32 of them.
fn deck_tag(deck: &str) -> String {
    let stem = Path::new(deck).file_stem().map_or_else(|| deck.into(), |s| s.to_string_lossy());
    stem.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-').take(32).collect()
}

/// Whether `save` asks before saving over a file that holds another game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Over {
    /// `save FILE`: ask (piped: refuse) when the file holds another game.
    Ask,
    /// `save! FILE`: save over whatever the file holds.
    Anything,
}

/// A yes to a y/N question.
fn is_yes(answer: &str) -> bool {
    matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes")
}

/// Whether the computer playing `player` accepts a draw ([`accepts_draw`]):
/// the evaluation is even or worse for it, or the position is a dead draw.
pub fn computer_accepts_draw(session: &Session, player: Player) -> bool {
    accepts_draw(session.state(), &session.engine, player)
}

/// The option a card's name or id names, when a question's options are card
/// ids (Foresight's): the answer is accepted by name as everywhere else.
pub fn option_by_card<'a>(session: &Session, options: &'a [Choice], text: &str) -> Option<&'a Choice> {
    let content = session.engine.content();
    let id = &content.card(content.find_card(text)?)?.id;
    options.iter().find(|o| matches!(o, Choice::Answer(Answer::Option(name)) if **name == **id))
}

/// What Tab can offer in the present position, by where the cursor is: the
/// first word (command words and the pending decision's answers), after `use`
/// (the playable cards), after `card` (every card), after `help` (the commands),
/// and after a first answer to a question (the answers again: a Foresight order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Candidates {
    first: Vec<String>,
    cards: Vec<String>,
    usable: Vec<String>,
    commands: Vec<String>,
    more_answers: Vec<String>,
}

impl Candidates {
    pub fn of(session: &Session) -> Candidates {
        let pending = session.pending();
        let frame = render::decider_frame(session);
        let answers: Vec<String> = pending.as_ref().map_or_else(Vec::new, |d| {
            d.options
                .iter()
                .flat_map(|o| match o {
                    Choice::Card(c) => {
                        vec![session.engine.content().card(*c).map_or_else(|| o.to_string(), |c| c.id.clone())]
                    }
                    // As the decider sees the board, and the board's own letter.
                    Choice::Answer(Answer::Dir(d)) => vec![frame.word(*d).to_string(), d.to_string()],
                    // Named options as one word each (a card's id rather than its name).
                    Choice::Answer(Answer::Option(name)) => vec![name.to_string()],
                    _ => vec![render::option_text(session, o)],
                })
                .filter(|t| !t.is_empty() && !t.contains(char::is_whitespace))
                .collect()
        });
        let kind = pending.map(|d| d.kind);
        let commands: Vec<String> = COMMANDS.iter().map(|(c, _, _)| c.to_string()).collect();
        let mut first = commands.clone();
        first.extend(answers.iter().cloned());
        Candidates {
            first,
            cards: session.engine.content().cards.iter().map(|c| c.id.clone()).collect(),
            usable: if kind == Some(DecisionKind::Card) { answers.clone() } else { Vec::new() },
            commands,
            more_answers: if kind == Some(DecisionKind::Question) { answers } else { Vec::new() },
        }
    }

    /// The candidates for the word being typed at the end of `line` (the text
    /// before the cursor), sorted, those that start with it (any case).
    pub fn complete(&self, line: &str) -> Vec<String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let typing = if line.is_empty() || line.ends_with(char::is_whitespace) { "" } else { words[words.len() - 1] };
        let before = if typing.is_empty() { words.len() } else { words.len() - 1 };
        let list = match words.first().map(|w| w.to_ascii_lowercase()) {
            _ if before == 0 => &self.first,
            Some(w) if w == "card" => &self.cards,
            Some(w) if w == "use" => &self.usable,
            Some(w) if w == "help" => &self.commands,
            _ => &self.more_answers,
        };
        let lower = typing.to_ascii_lowercase();
        let mut found: Vec<String> =
            list.iter().filter(|c| c.to_ascii_lowercase().starts_with(&lower)).cloned().collect();
        found.sort();
        found.dedup();
        found
    }
}

/// What Tab offers for `line` in `session`'s present position.
pub fn candidates(session: &Session, line: &str) -> Vec<String> {
    Candidates::of(session).complete(line)
}

impl Repl {
    /// Hot-seat: two humans share the screen.
    pub(super) fn hot_seat(&self) -> bool {
        self.seats.iter().all(|s| *s == Seat::Human)
    }

    /// Clears the screen on a terminal; a separator line otherwise.
    pub(super) fn clear_screen(&self) {
        if self.terminal_out {
            // Flushed at once: the line editor writes its prompt to the
            // terminal directly, which must not show before the screen is clear.
            print!("{CLEAR}");
            let _ = std::io::Write::flush(&mut std::io::stdout());
        } else {
            println!("{SEPARATOR}");
        }
    }

    /// Hot-seat: when the player to decide is not the one the screen was last
    /// handed to, clears the screen and asks to pass it (waits for Enter on a
    /// terminal; a piped run has nobody to wait for and goes on). Ctrl-D there
    /// is a wish to leave, as at any prompt: false when the player leaves.
    pub(super) fn hand_over(&mut self, input: &mut Input) -> bool {
        if !self.hot_seat() {
            return true;
        }
        let Some(p) = self.session.pending().map(|d| d.player) else { return true };
        if self.handed_to == Some(p) {
            return true;
        }
        self.clear_screen();
        if self.interactive {
            loop {
                match input.read(&format!("Pass to {}, press Enter ", self.session.side(p))) {
                    Line::Eof if self.leave(input) => return false,
                    Line::Eof | Line::Interrupted => continue,
                    Line::Text(_) => break,
                }
            }
            self.clear_screen();
        } else {
            println!("Pass to {}, press Enter", self.session.side(p));
        }
        self.handed_to = Some(p);
        // The clear took the opening line away: the game's seed heads each
        // handed screen, as it heads the screen against the computer.
        self.say(&format!(
            "deck {}, seed {} (replay it with --seed {})\n",
            crate::text::excerpt(self.session.deck(), 200),
            self.session.seed(),
            self.session.seed()
        ));
        self.redraw();
        self.tell_since_last(p);
        true
    }

    /// Hot-seat: every decision told since `p` was last prompted, told again in
    /// `p`'s frame on `p`'s screen (what was printed after that prompt, a
    /// hand-over clears): `p`'s own last decision and what it began (a bomb
    /// going off as the other's turn began), the other player's moves and
    /// cards, and what began `p`'s turn.
    fn tell_since_last(&self, p: Player) {
        let history = self.session.history();
        let since = self.seen_until[p.index()].min(history.len());
        if since >= history.len() {
            return;
        }
        println!("since you last saw the board:");
        for i in since..history.len() {
            println!("  {}", render::decision_line(&self.session, i, p));
            for line in self.session.told(i, p) {
                println!("    * {line}");
            }
        }
    }

    /// `planet` in hot-seat: the secret of the player the screen was handed to,
    /// then (on a terminal) Enter hides it and the screen is cleared.
    pub(super) fn show_hot_seat_planet(&mut self, input: &mut Input) {
        let Some(p) = self.handed_to else {
            println!("no player has the screen now");
            return;
        };
        if self.interactive {
            let asked = format!("{p}: only you should see the screen now; press Enter to show your planet ");
            if !matches!(input.read(&asked), super::input::Line::Text(_)) {
                return;
            }
        }
        match self.session.planet_text(p) {
            Some((name, text)) => println!("{p}'s secret planet is {name}: {}", text.trim()),
            None => {
                println!("this deck has no planets");
                return;
            }
        }
        if self.interactive {
            let _ = input.read("press Enter to hide it ");
            self.clear_screen();
            self.redraw();
        }
    }

    /// Several answers in one line, applied one after another, each a decision
    /// of its own (so the record is as if typed one per line). An answer may be
    /// several words (a card named "Monolith twice"): the most words that make
    /// one answer are taken. Stops at the first that does not fit, or when no
    /// question of the same player is pending.
    /// `<card> <answers…>` at the card step: the card named by the first words
    /// (the longest run that names a face-up card), then its questions
    /// answered with the rest ([`Repl::decide_many`]).
    pub(super) fn use_and_answer(&mut self, text: &str) {
        let words: Vec<&str> = text.split_whitespace().collect();
        let card =
            (1..words.len()).rev().find_map(|n| match super::parse_choice(&self.session, &words[..n].join(" ")) {
                Ok(choice @ Choice::Card(_)) => Some((n, choice)),
                _ => None,
            });
        let Some((used, choice)) = card else {
            if let Err(e) = super::parse_choice(&self.session, text) {
                self.say(&format!("{e}\n"));
            }
            return;
        };
        if let Err(e) = self.apply_and_tell(&choice, "") {
            self.say(&format!("{e}\n"));
            return;
        }
        if self.session.pending().is_some_and(|d| d.kind == DecisionKind::Question) {
            let automatic = self.answered_automatically();
            self.decide_many(&words[used..].join(" "), automatic);
        } else {
            println!("the card asked nothing; not used: {}", words[used..].join(" "));
        }
    }

    /// `text` without the leading words that name the card whose question is
    /// pending (`foresight ring water` answers Foresight's question as `ring water`).
    pub(super) fn without_asking_card<'t>(&self, text: &'t str) -> &'t str {
        let crate::game::Step::Resolving(r) = &self.session.state().step else { return text };
        let content = self.session.engine.content();
        let words: Vec<(usize, &str)> =
            text.split_whitespace().map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w)).collect();
        for n in (1..words.len()).rev() {
            let (start, last) = words[n - 1];
            let prefix = &text[..start + last.len()];
            if content.find_card(prefix) == Some(r.card) && super::parse_choice(&self.session, prefix).is_err() {
                return text[start + last.len()..].trim_start();
            }
        }
        text
    }

    /// Several answers in one line, each to the question then pending;
    /// `automatic` are the answers the game gave by itself before the first.
    pub(super) fn decide_many(&mut self, text: &str, mut automatic: std::collections::VecDeque<String>) {
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some(player) = self.session.pending().map(|d| d.player) else { return };
        let (mut i, mut taken) = (0, 0);
        // The answers the game gave by itself to questions these words may
        // answer too (Fire's "burn" when there is no water to dry): skipped
        // where they stand, in their order (issue 38, item 10).
        while i < words.len() {
            let word = words[i];
            if let Some(n) = automatic.front().and_then(|a| answer_words(&words[i..], a)) {
                println!("'{}' was answered for you", words[i..i + n].join(" "));
                automatic.pop_front();
                i += n;
                continue;
            }
            let still = self.session.pending();
            if !still.is_some_and(|d| d.kind == DecisionKind::Question && d.player == player) {
                println!("the question was settled before '{}'; not used: {}", word, words[i..].join(" "));
                return;
            }
            if !self.is_human(player) {
                println!("it is the computer's turn");
                return;
            }
            // The longest run of words (at most four) that names an answer.
            let longest = (1..=4.min(words.len() - i))
                .rev()
                .find_map(|n| super::parse_choice(&self.session, &words[i..i + n].join(" ")).ok().map(|c| (n, c)));
            let (used, choice) = match longest {
                Some(found) => found,
                None => {
                    if let Err(e) = super::parse_choice(&self.session, word) {
                        self.say(&format!("{e}\n"));
                    }
                    if taken > 0 {
                        println!(
                            "the {taken} answer(s) before '{word}' were taken; 'undo' takes them back one at a time"
                        );
                    }
                    return;
                }
            };
            match self.apply_and_tell(&choice, "") {
                Ok(()) => {}
                Err(e) => {
                    self.say(&format!("{e}; choose again ('options' lists what is possible)\n"));
                    return;
                }
            }
            i += used;
            taken += 1;
            automatic.extend(self.answered_automatically());
        }
    }

    /// The answers the game gave by itself before the pending question, in the
    /// run of the card that asks it, as typed.
    pub(super) fn answered_automatically(&self) -> std::collections::VecDeque<String> {
        let crate::game::Step::Resolving(r) = &self.session.state().step else { return Default::default() };
        r.question.so_far.1.iter().map(|a| render::option_text(&self.session, &Choice::Answer(a.clone()))).collect()
    }

    /// Asks `question` and reads the answer, yes or not (piped, the question
    /// and the answer read are echoed, as a terminal would show them).
    pub(super) fn ask_yes(&self, input: &mut Input, question: &str) -> bool {
        match input.read(question) {
            Line::Text(t) => {
                if !self.interactive {
                    println!("{question}{}", t.trim());
                }
                is_yes(&t)
            }
            _ => false,
        }
    }

    /// `resign`: the human to decide gives up, once they confirm; the opponent wins.
    pub(super) fn resign(&mut self, input: &mut Input) {
        let Some(p) = self.human_to_decide() else { return };
        let name = self.session.side(p);
        if !self.ask_yes(input, &format!("{name}, resign the game? [y/N] ")) {
            println!("not resigned; play on");
            return;
        }
        let outcome = Outcome { winner: Some(!p), reason: EndReason::Resigned };
        match self.session.end_at_table(outcome) {
            Ok(()) => {
                println!("{name} resigns.");
                self.redraw();
            }
            Err(e) => println!("{e}"),
        }
    }

    /// `draw`: the human to decide offers a draw; a human opponent is asked, the
    /// computer accepts iff [`computer_accepts_draw`].
    pub(super) fn offer_draw(&mut self, input: &mut Input) {
        let Some(p) = self.human_to_decide() else { return };
        let other = !p;
        let accepted = if self.is_human(other) {
            let (p, other) = (self.session.side(p), self.session.side(other));
            self.ask_yes(input, &format!("{p} offers a draw. {other}, do you accept? [y/N] "))
        } else {
            computer_accepts_draw(&self.session, other)
        };
        if !accepted {
            println!("{} declines the draw; play on.", self.session.side(other));
            return;
        }
        match self.session.end_at_table(Outcome { winner: None, reason: EndReason::Agreed }) {
            Ok(()) => {
                println!("{} accepts the draw.", self.session.side(other));
                self.redraw();
            }
            Err(e) => println!("{e}"),
        }
    }

    /// `hint`: the computer's choice at `normal` for the human to decide, not applied.
    pub(super) fn hint(&mut self) {
        let Some(p) = self.human_to_decide() else { return };
        let content = self.session.engine.content();
        let seed = mix_seed(self.session.seed(), 0x4849_4e54 + self.session.history().len() as u64);
        let agent =
            make_agent("normal", seed, content.setup().planets, Budget::Interactive, Some(engine_factory(content)));
        let choice = agent.ok().and_then(|mut a| a.choose(self.session.state(), &self.session.engine));
        match choice {
            Some(c) => self.say(&format!(
                "hint (normal) for {}: {}\n",
                self.session.side(p),
                render::option_text(&self.session, &c)
            )),
            None => println!("no hint: the computer found nothing to suggest"),
        }
    }

    /// The human who must decide now, or a message why there is none.
    fn human_to_decide(&self) -> Option<Player> {
        match self.session.pending() {
            None => {
                println!("the game is over; 'new' starts another, 'undo' takes back a decision");
                None
            }
            Some(d) if !self.is_human(d.player) => {
                println!("it is the computer's turn");
                None
            }
            Some(d) => Some(d.player),
        }
    }

    /// Saves an unfinished game to its autosave file, before it is left or
    /// replaced (`new`, `load`), and tells how to continue it; `Ok` too when
    /// there is nothing to keep (a finished game, or one with no decision yet).
    /// `loading` is a save being loaded in its place, never written over.
    pub(super) fn keep_unfinished(&self, loading: Option<&Path>) -> Result<(), String> {
        if self.session.outcome().is_some() || self.session.history().is_empty() {
            return Ok(());
        }
        let file = self.autosave(loading)?;
        println!("saved the game to {}; continue it with: {}", file.display(), self.continue_command(&file));
        Ok(())
    }

    /// Writes this game to [`Repl::autosave_target`]; the file written.
    fn autosave(&self, loading: Option<&Path>) -> Result<PathBuf, String> {
        // A name found free may be taken by another process before the write
        // (which then leaves it alone): the next is tried.
        for _ in 0..3 {
            let (file, free) = self.autosave_target(loading)?;
            if !free {
                self.session.save(&file, self.seats_record())?;
                return Ok(file);
            }
            if self.session.save_new(&file, self.seats_record())? {
                return Ok(file);
            }
        }
        Err("cannot autosave: other processes keep taking the autosave names in this folder".into())
    }

    /// Where this game is autosaved: the first of its [`autosave_file`] names
    /// that is free (`true`) or holds this game as it is or earlier, so that
    /// saving over it loses nothing (`false`). Never `loading`, nor a file that
    /// holds anything else (another game, or a file that is not a save).
    pub(super) fn autosave_target(&self, loading: Option<&Path>) -> Result<(PathBuf, bool), String> {
        let record = self.session.record(self.seats_record());
        let loaded = loading.and_then(|l| std::fs::canonicalize(l).ok());
        let is_loading = |f: &Path| loaded.is_some() && std::fs::canonicalize(f).ok() == loaded;
        for n in 1..=AUTOSAVE_NAMES {
            let file = autosave_file(self.session.saved_deck(), self.session.seed(), n);
            if is_loading(&file) {
                continue;
            }
            match std::fs::symlink_metadata(&file) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((file, true)),
                Err(_) => {}
                Ok(_) if read_record(&file).is_ok_and(|saved| saved.is_continued_by(&record)) => {
                    return Ok((file, false));
                }
                Ok(_) => {}
            }
        }
        let first = autosave_file(self.session.saved_deck(), self.session.seed(), 1);
        Err(format!("cannot autosave: {} and the {} names after it are taken", first.display(), AUTOSAVE_NAMES - 1))
    }

    /// The command that continues the game saved in `file`: `--root` too when
    /// `--load` alone would look for the deck elsewhere. The file and the root
    /// are shell words (text::shell_word): quoted unless plain, made visible.
    fn continue_command(&self, file: &Path) -> String {
        let root = self.session.engine.content().root.clone();
        let saved = root.outside_shipped();
        let deck = self.session.saved_deck();
        let found = ContentRoot::for_saved_deck(None, deck, saved.as_deref(), ContentRoot::discover);
        let flag = match root.path().to_str() {
            _ if found.same_folder(&root) => String::new(),
            Some("") => " --root .".to_string(),
            _ => format!(" --root {}", shell_word(&root.path().display().to_string())),
        };
        format!("alien-checkers --load {}{flag}", shell_word(&file.display().to_string()))
    }

    /// Start-up: the unfinished games of this deck autosaved in the current
    /// folder, newest first (at most three), each with the command that
    /// continues it. On standard error: what it says depends on the folder, not
    /// on the game, and standard output stays the game's alone (the same game
    /// prints the same wherever it is played). A file's name may be anything:
    /// it is made visible, and wrapped (render::wrap).
    pub(super) fn offer_autosaves(&mut self, input: &mut Input) {
        const SHOWN: usize = 3;
        let this = self.session.record(BTreeMap::new());
        let Ok(entries) = std::fs::read_dir(".") else { return };
        let mut found: Vec<(SystemTime, PathBuf, Record)> = entries
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name().into_string().ok()?;
                if !name.starts_with(AUTOSAVE_PREFIX) || !name.ends_with(".json") {
                    return None;
                }
                let saved = read_record(Path::new(&name)).ok()?;
                let unfinished = saved.ended.is_none() && !saved.decisions.is_empty();
                let ours = (&saved.deck, &saved.root) == (&this.deck, &this.root);
                let when = entry.metadata().and_then(|m| m.modified()).unwrap_or(SystemTime::UNIX_EPOCH);
                (unfinished && ours).then(|| (when, PathBuf::from(name), saved))
            })
            .collect();
        found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        for (_, file, saved) in found.iter().take(SHOWN) {
            let offer = format!(
                "An unfinished game of this deck was saved in {} (seed {}, {} decisions); continue it with: {}\n",
                visible(&file.display().to_string()),
                saved.seed,
                saved.decisions.len(),
                self.continue_command(file)
            );
            eprint!("{}", render::wrap(&offer, self.columns));
        }
        if found.len() > SHOWN {
            eprintln!("({} more unfinished games of this deck are autosaved in this folder)", found.len() - SHOWN);
        }
        // At a terminal, the newest may be continued at once (issue 38, item 14).
        if let Some((_, file, _)) = found.first().filter(|_| self.interactive) {
            let name = visible(&file.display().to_string()).into_owned();
            if self.ask_yes(input, &format!("Continue the game saved in {name}? [y/N] ")) {
                self.load(&file.display().to_string(), crate::session::Edits::Refuse);
            } else {
                println!("a new game, then");
            }
        }
    }

    /// At the end of a game continued from an autosave: the autosave is
    /// brought up to the finished game (it held this game earlier), so it is
    /// no longer offered as unfinished.
    pub(super) fn finish_autosave(&mut self) {
        let Some(file) = self.continued_from.take() else { return };
        let record = self.session.record(self.seats_record());
        if read_record(&file).is_ok_and(|saved| saved.is_continued_by(&record))
            && self.session.save(&file, self.seats_record()).is_ok()
        {
            println!("(the autosave {} now holds the finished game)", visible(&file.display().to_string()));
        }
    }

    /// Whether `save` may write `file`: yes when it is not there, is a folder
    /// (which saving refuses, saying so), or holds this game as it is or
    /// earlier; else, with [`Over::Ask`], the player is asked (piped, nobody can
    /// answer: no, saying how to insist).
    pub(super) fn may_save_over(&self, file: &str, over: Over, input: &mut Input) -> bool {
        let path = Path::new(file);
        let Ok(meta) = std::fs::symlink_metadata(path) else { return true };
        if over == Over::Anything || meta.is_dir() {
            return true;
        }
        let this = self.session.record(self.seats_record());
        let held = match read_record(path) {
            Ok(saved) if saved.is_continued_by(&this) => return true,
            // Taken back since (`undo`): saving would lose the decisions after.
            Ok(saved) if this.is_continued_by(&saved) => {
                format!("this game further on ({} decisions; now {})", saved.decisions.len(), this.decisions.len())
            }
            Ok(saved) => saved.summary(),
            // Its contents are not quoted: it may be anything.
            Err(_) => "a file that is not a save of this game".to_string(),
        };
        if !self.interactive {
            self.say(&format!("{file} holds {held}; not saved ('save! {file}' saves over it)\n"));
            return false;
        }
        match input.read(&format!("{file} holds {held}. Save over it? [y/N] ")) {
            Line::Text(t) if is_yes(&t) => true,
            _ => {
                println!("not saved");
                false
            }
        }
    }

    /// `quit`, `exit` or end of input: true to leave. A finished game (or one
    /// with no decision yet) leaves at once. An unfinished game on a terminal asks
    /// first (a second Ctrl-D is yes); piped, nobody can answer, so it saves
    /// without asking. Either way it is saved to its autosave file
    /// ([`Repl::autosave_target`]) and the command that continues it is printed.
    pub(super) fn leave(&mut self, input: &mut Input) -> bool {
        if self.session.outcome().is_some() || self.session.history().is_empty() {
            return true;
        }
        if self.interactive {
            let to =
                self.autosave_target(None).map_or_else(|_| "an autosave file".into(), |(f, _)| f.display().to_string());
            let question = format!(
                "The game is not over. Leave and save it to {to}? [y: save and leave, 'discard': leave without saving, N: play on] "
            );
            match input.read(&question) {
                Line::Eof => {}
                Line::Text(t) if is_yes(&t) => {}
                Line::Text(t) if t.trim().eq_ignore_ascii_case("discard") => {
                    println!("left without saving");
                    return true;
                }
                _ => {
                    println!("play on");
                    return false;
                }
            }
        }
        match self.keep_unfinished(None) {
            Ok(()) => true,
            Err(e) if self.interactive => {
                println!("{e}; not leaving (use 'save <file>' elsewhere, or 'quit' again after that)");
                false
            }
            Err(e) => {
                println!("{e}; the game was not saved");
                true
            }
        }
    }
}

/// How many of `words` (from the first) spell `answer`, ignoring case.
fn answer_words(words: &[&str], answer: &str) -> Option<usize> {
    let n = answer.split_whitespace().count();
    (n > 0 && words.len() >= n && words[..n].join(" ").eq_ignore_ascii_case(answer.trim())).then_some(n)
}

#[cfg(test)]
mod tests {
    /// A hand-over clears the scrollback too (ESC[3J): the other player cannot
    /// scroll back to a planet, a secret order or a typed answer.
    #[test]
    fn clearing_the_screen_clears_the_scrollback() {
        let (screen, scrollback, home) = ("\x1b[2J", "\x1b[3J", "\x1b[H");
        assert!(super::CLEAR.contains(screen) && super::CLEAR.contains(scrollback));
        assert!(super::CLEAR.ends_with(home), "the cursor goes home after clearing");
    }
}
