//! The command REPL: play a game in a terminal, hot-seat or against the computer,
//! or pipe commands in (when standard input is not a terminal, lines are read one
//! by one and the game runs to its end or to the end of input).
//!
//! Architecture invariant: a thin shell over [`Session`]; no rules live here.

mod input;
mod palette;
pub mod render;
pub mod review;
pub mod table;

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use crate::ai::{Agent, mix_seed};
use crate::ai::{Budget, make_agent};
use crate::choice_text::{self, Unread};
use crate::content::ContentRoot;
use crate::game::{Answer, Choice, DecisionKind, Piles, QuestionKind};
use crate::kernel::{Board, Player};
use crate::script::engine_factory;
use crate::session::{Edits, Session};
use crate::spots;
use input::{Input, Line};
use render::View;

/// Who plays a side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    /// `random`, `greedy`, `easy`, `normal` or `hard`.
    Computer(String),
}

impl std::str::FromStr for Seat {
    type Err = String;
    fn from_str(s: &str) -> Result<Seat, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "human" => Ok(Seat::Human),
            level @ ("random" | "greedy" | "easy" | "normal" | "hard") => Ok(Seat::Computer(level.to_string())),
            // A save's seat may be anything: quoted as written, made visible.
            _ => Err(format!(
                "'{}' is not a player (human, random, greedy, easy, normal, hard)",
                crate::text::excerpt(s.trim(), 40)
            )),
        }
    }
}

impl std::fmt::Display for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Computer(level) => f.write_str(level),
        }
    }
}

/// How to start.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    pub root: ContentRoot,
    pub deck: String,
    pub seed: Option<u64>,
    /// The seats given; the rest are the saved game's, or human Dark and `normal` Light.
    pub dark: Option<Seat>,
    pub light: Option<Seat>,
    /// A save to continue instead of dealing a new game.
    pub load: Option<PathBuf>,
    /// Whether that save loads if it was edited (`--accept-edited`).
    pub edits: Edits,
}

/// Who sits where when nobody says: a human Dark against the `normal` computer.
fn default_seat(p: Player) -> Seat {
    match p {
        Player::Dark => Seat::Human,
        Player::Light => Seat::Computer("normal".to_string()),
    }
}

/// A saved game's seat for `p`; one that names no player is told (wrapped to
/// `columns`) and left to the default.
fn saved_seat(seats: &BTreeMap<Player, String>, p: Player, columns: usize) -> Option<Seat> {
    let saved = seats.get(&p)?;
    saved
        .parse()
        .map_err(|e| print!("{}", render::wrap(&format!("The save's seat for {p} is not used: {e}\n"), columns)))
        .ok()
}

/// A seed for a new game when none is given: from the clock and the process id.
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    (nanos ^ (u64::from(std::process::id()) << 32)) % 1_000_000_000
}

struct Repl {
    session: Session,
    seats: [Seat; 2],
    agents: [Option<Box<dyn Agent>>; 2],
    colour: bool,
    /// The session's change count when the screen was last drawn.
    shown_state: Option<u64>,
    /// The board and piles last drawn.
    shown_board: Option<(Board, Piles)>,
    ended_shown: bool,
    /// Standard input and output are terminals.
    interactive: bool,
    terminal_out: bool,
    /// Hot-seat: the player the screen was last handed to.
    handed_to: Option<Player>,
    /// Hot-seat: how many decisions each player had seen told when last
    /// prompted; a hand-over tells them everything after (a hand-over clears
    /// what was printed after their last prompt).
    seen_until: [usize; 2],
    /// The autosave this game was continued from, if any: brought up to date
    /// when the game ends, so that it is no longer offered as unfinished.
    continued_from: Option<PathBuf>,
    /// The terminal's width, which long lines are wrapped to.
    columns: usize,
    /// The terminal's height, which the screen is fitted to (`usize::MAX`: not known).
    rows: usize,
    /// Secret answers given so far to the question being answered (told as one line).
    secret_answers: usize,
    /// A question was answered by the game itself since the last prompt, so
    /// lines typed ahead for it are dropped (on a terminal).
    answered_for_you: bool,
}

/// Runs the REPL until `quit`, Ctrl-D or the end of input.
pub fn run(options: PlayOptions) -> Result<(), String> {
    let interactive = std::io::stdin().is_terminal();
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut input = Input::new(interactive);
    let columns = input.columns();
    let say = |text: &str| print!("{}", render::wrap(text, columns));
    let (session, seats) = match &options.load {
        Some(path) => {
            let (session, replay, record) = Session::open(&options.root, path, Edits::Accept)?;
            if let Some(refusal) = replay.refusal(path).filter(|_| options.edits == Edits::Refuse) {
                // What was found, then why it is not played on.
                say(&replay_report(&replay, "this game was saved"));
                return Err(refusal);
            }
            if let Some(note) = replay.edited_note() {
                println!("{note}");
            }
            say(&replay_report(&replay, "this game was saved"));
            // A seat given on the command line wins over the saved one.
            let seat = |p: Player, given: &Option<Seat>| {
                given.clone().or_else(|| saved_seat(&record.seats, p, columns)).unwrap_or_else(|| default_seat(p))
            };
            let seats = [seat(Player::Dark, &options.dark), seat(Player::Light, &options.light)];
            (session, seats)
        }
        None => {
            let seed = options.seed.unwrap_or_else(fresh_seed);
            let seat = |p: Player, given: &Option<Seat>| given.clone().unwrap_or_else(|| default_seat(p));
            (
                Session::new(&options.root, &options.deck, seed)?,
                [seat(Player::Dark, &options.dark), seat(Player::Light, &options.light)],
            )
        }
    };
    let mut repl = Repl {
        session,
        seats,
        agents: [None, None],
        colour,
        shown_state: None,
        shown_board: None,
        ended_shown: false,
        interactive,
        terminal_out: std::io::stdout().is_terminal(),
        handed_to: None,
        seen_until: [0; 2],
        continued_from: options.load.clone().filter(|f| table::is_autosave(f)),
        columns,
        rows: input.rows(),
        secret_answers: 0,
        answered_for_you: false,
    };
    repl.make_agents();
    // The deck as given, or as a save names it: made visible (text.rs).
    repl.say(&format!(
        "Alien Checkers: deck {}, seed {} (replay it with --seed {}). {}: {}, {}: {}. Type 'help' for commands.\n",
        crate::text::excerpt(repl.session.deck(), 200),
        repl.session.seed(),
        repl.session.seed(),
        repl.session.side(Player::Dark),
        repl.seats[0],
        repl.session.side(Player::Light),
        repl.seats[1]
    ));
    // A deck's own side names (made visible when the deck was loaded) say who
    // moves first, which Dark and Light did by R1.3.
    if repl.session.engine.content().spoken().is_some_and(|n| n.sides.is_some()) {
        repl.say(&format!("{} moves first.\n", repl.session.side(Player::Dark)));
    }
    if options.load.is_none() {
        repl.offer_autosaves(&mut input);
    }
    loop {
        repl.columns = input.columns();
        repl.rows = input.rows();
        repl.play_computers();
        if std::mem::take(&mut repl.answered_for_you) && input.discard_type_ahead() {
            println!("(a question was answered for you, so what you typed ahead was dropped)");
        }
        if !repl.hand_over(&mut input) {
            break;
        }
        repl.show_if_changed();
        let prompt = repl.prompt();
        if let Some(p) = repl.handed_to {
            repl.seen_until[p.index()] = repl.session.history().len();
        }
        input.set_words(table::Candidates::of(&repl.session));
        match input.read(&prompt) {
            Line::Eof => {
                if repl.leave(&mut input) {
                    break;
                }
            }
            Line::Interrupted => {
                println!("(line cancelled; Ctrl-D or 'quit' leaves)");
                continue;
            }
            Line::Text(line) => {
                let line = line.trim();
                if !interactive && !line.is_empty() {
                    println!("{prompt}{}", clipped(line));
                }
                if line.chars().count() > MAX_LINE {
                    println!(
                        "that line is {} characters long; no command or answer is longer than {MAX_LINE}",
                        line.chars().count()
                    );
                } else if !repl.command(line, &mut input) {
                    break;
                }
            }
        }
    }
    input.finish();
    Ok(())
}

/// The longest line read as a command or an answer; a longer one is refused
/// without being echoed whole.
const MAX_LINE: usize = 200;

/// `line` as echoed back: at most 60 characters, then an ellipsis.
fn clipped(line: &str) -> String {
    match line.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_string(),
    }
}

/// How a replayed record compares with the scripts now, a line each (to be
/// wrapped: it quotes the record); `since` names when the record was made
/// ("this game was saved", "this game started").
fn replay_report(replay: &crate::session::Replay, since: &str) -> String {
    let mut out = String::new();
    let mut line = |text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    if !replay.changed.is_empty() {
        line(format!("Scripts changed since {since}: {}", replay.changed.join(", ")));
    }
    match &replay.differs {
        Some((_, why)) if replay.changed.is_empty() => line(format!(
            "The game now differs: {why}, though no script or manifest changed (the file was edited, or this program's rules changed)."
        )),
        Some((_, why)) => line(format!("The game now differs: {why}.")),
        None => {}
    }
    if let Some((_, why)) = &replay.diverged {
        line(format!("The replay stops: {why}. The game continues from there."));
    }
    if replay.same_game() && !replay.changed.is_empty() {
        line("Every decision replays as before.".into());
    }
    if replay.unchecked {
        line("This save has no position digests (format 1): the game cannot be checked against the one played.".into());
    }
    out
}

impl Repl {
    /// The computer seats' agents, for the current game and scripts (`hard`
    /// searches on two threads, the second with its own engine).
    fn make_agents(&mut self) {
        let content = self.session.engine.content();
        let planets = content.setup().planets;
        let seed = self.session.seed();
        let helpers = engine_factory(content);
        self.agents = [Player::Dark, Player::Light].map(|p| {
            let Seat::Computer(level) = &self.seats[p.index()] else { return None };
            let seed = mix_seed(seed, p.index() as u64 + 1);
            make_agent(level, seed, planets.clone(), Budget::Interactive, Some(helpers.clone())).ok()
        });
    }

    /// Against the computer: from the human's side; hot-seat: from the side of
    /// the player to decide (the last mover's when the game is over).
    fn view(&self) -> View {
        let viewer = if self.hot_seat() {
            self.session.decider()
        } else if self.seats[0] != Seat::Human && self.seats[1] == Seat::Human {
            Player::Light
        } else {
            Player::Dark
        };
        View { viewer, colour: self.colour }
    }

    /// Tells the script failures since the last decision that the player at
    /// the keyboard may know of: a planet's only to its holder (R2.3).
    fn tell_script_problems(&self) {
        let at_keyboard = self.handed_to.filter(|_| self.hot_seat());
        let may_see = |p: Player| at_keyboard.map_or(self.is_human(p), |me| p == me);
        for e in self.session.script_errors(may_see) {
            self.say(&format!("script problem: {e}\n"));
        }
    }

    fn is_human(&self, p: Player) -> bool {
        self.seats[p.index()] == Seat::Human
    }

    /// Lets computer seats decide until a human must, or the game ends.
    fn play_computers(&mut self) {
        let mut acted = false;
        while let Some(decision) = self.session.pending() {
            let p = decision.player;
            if self.is_human(p) {
                break;
            }
            let Some(agent) = self.agents[p.index()].as_mut() else { break };
            let Some(choice) = agent.choose(self.session.state(), &self.session.engine) else {
                println!("{p} ({}) found nothing to do; the game stops here.", self.seats[p.index()]);
                break;
            };
            let tag = format!("   [{}]", self.seats[p.index()]);
            if let Err(e) = self.apply_and_tell(&choice, &tag) {
                // A card whose script fails is abandoned with the game unchanged
                // (cards/README.md); the computer then takes the first other
                // option that works, so that a broken mod cannot stall the game.
                let chose = self.session.choice_text(&choice);
                self.say(&format!("{p} ({}) chose {chose}, which failed: {e}\n", self.seats[p.index()]));
                let options = self.session.pending().map(|d| d.options.clone()).unwrap_or_default();
                let others: Vec<Choice> = options.into_iter().filter(|o| *o != choice).collect();
                if !others.into_iter().any(|other| self.apply_and_tell(&other, &tag).is_ok()) {
                    // Every option fails: the step is given up (GameState::give_up).
                    if let Err(e) = self.apply_and_tell(&Choice::GiveUp, &tag) {
                        self.say(&format!(
                            "{p} has no option that works, and giving up failed: {e}; the game stops here.\n"
                        ));
                        break;
                    }
                }
            }
            acted = true;
        }
        self.tell_script_problems();
        if acted {
            self.shown_state = None;
        }
    }

    /// Draws the board and panel when the board changed since they were last
    /// drawn; when only the step changed (a card's next question), just the options.
    fn show_if_changed(&mut self) {
        if self.shown_state == Some(self.session.changes()) {
            return;
        }
        let state = render::shown_state(&self.session);
        let unchanged = self.shown_board.as_ref().is_some_and(|(b, p)| *b == state.board && *p == *state.piles());
        // A short terminal gets the whole (compact) screen at every prompt, so
        // that the board never scrolls away.
        let short = !render::fits(&render::screen(&self.session, self.view(), self.columns), self.columns, self.rows);
        if unchanged && state.outcome().is_none() && !short {
            // A question answered on the board shows the board with its answers marked.
            if render::candidates(&self.session).any() {
                print!("{}", render::board_and_legend(&self.session, self.view(), self.columns));
            }
            self.say(&render::options(&self.session));
        } else {
            self.show();
        }
        let state = render::shown_state(&self.session);
        self.shown_state = Some(self.session.changes());
        self.shown_board = Some((state.board, state.piles().clone()));
    }

    /// Forgets what was drawn, so the next prompt draws everything.
    fn redraw(&mut self) {
        self.shown_state = None;
        self.shown_board = None;
    }

    fn show(&mut self) {
        let full = render::screen(&self.session, self.view(), self.columns);
        let short = !render::fits(&full, self.columns, self.rows);
        let ending = self.session.outcome().filter(|_| !self.ended_shown);
        let planets = |repl: &Self| {
            for p in Player::BOTH {
                if let Some((name, text)) = repl.session.planet_text(p) {
                    repl.say(&format!("  {p}'s planet was {name}: {}\n", text.trim()));
                }
            }
        };
        // A short terminal tells the planets before the board, so that the
        // board, the end line and the prompt stay on screen together.
        if ending.is_some() && short {
            planets(self);
        }
        let screen = if short { render::compact(&self.session, self.view(), self.columns, self.rows) } else { full };
        print!("{screen}");
        if let Some(outcome) = ending {
            self.ended_shown = true;
            self.say(&format!("{}\n", self.session.describe_outcome(&outcome)));
            if !short {
                planets(self);
            }
            println!("Type 'new' for another game, 'undo' to take back, 'review' to step through it, 'quit' to leave.");
            self.finish_autosave();
        }
    }

    /// Whether the pending question is answered with an edge or a wall spot,
    /// named in several words (`crate::spots`).
    fn asks_for_edges(&self) -> bool {
        matches!(render::question_kind(&self.session), Some(QuestionKind::Edge | QuestionKind::Edges))
    }

    /// Prints `text` wrapped to the terminal's width ([`render::wrap`]): every
    /// line that holds mod text, or text from a file, is printed so.
    fn say(&self, text: &str) {
        print!("{}", render::wrap(text, self.columns));
    }

    fn prompt(&self) -> String {
        match self.session.pending() {
            None => "game over> ".into(),
            Some(d) => match d.kind {
                DecisionKind::Move => format!("{} move> ", self.session.side(d.player)),
                DecisionKind::Card => format!("{} card> ", self.session.side(d.player)),
                DecisionKind::Question => format!("{} answer> ", self.session.side(d.player)),
            },
        }
    }

    fn seats_record(&self) -> BTreeMap<Player, String> {
        Player::BOTH.into_iter().map(|p| (p, self.seats[p.index()].to_string())).collect()
    }

    /// Runs one command line; false to leave.
    fn command(&mut self, line: &str, input: &mut Input) -> bool {
        let command = match parse_command(line) {
            // A one-letter command (`q`, `b`, `o`, `?`) gives way to a question's
            // option of that name: a card may offer one called Q.
            Command::Quit | Command::Board | Command::Options | Command::Help(_) if self.names_an_option(line) => {
                Command::Decide(line.trim().to_string())
            }
            other => other,
        };
        match command {
            Command::Empty => {}
            Command::Quit => return !self.leave(input),
            Command::QuitWithoutSaving => return false,
            Command::Help(topic) => self.say(&format!("{}\n", help(&topic))),
            Command::Board => self.show(),
            Command::Panel => {
                let view = self.view();
                let marks = render::Marks::of(&self.session);
                print!("{}", render::wrap(&render::legend(&self.session, view, &marks), self.columns));
                print!("{}", render::wrap(&render::panel_within(&self.session, view, self.columns), self.columns));
            }
            Command::Options => self.say(&render::options_listed(&self.session, true)),
            Command::Cards => self.list_cards(),
            Command::Card(name) => self.card_text(&name),
            Command::Planet => self.show_planet(input),
            Command::Log(None) => self.show_log(),
            Command::Log(Some(number)) => self.show_board_at(number),
            Command::Undo(times) => {
                for _ in 0..times {
                    if !self.undo(input) {
                        break;
                    }
                }
            }
            Command::Save(file) => self.save(&file, table::Over::Ask, input),
            Command::SaveOver(file) => self.save(&file, table::Over::Anything, input),
            Command::Load(file) => self.load(&file, Edits::Refuse),
            Command::LoadEdited(file) => self.load(&file, Edits::Accept),
            Command::New(seed) => self.new_game(seed),
            Command::Reload => self.reload(),
            Command::Digest => {
                println!("digest {:016x} after {} decisions", self.session.digest(), self.session.history().len())
            }
            Command::Use(text) => match self.session.pending().map(|d| d.kind) {
                Some(DecisionKind::Card) => self.decide(&text),
                _ => println!("no card can be used now: cards are used after the move, at the card step (R3.3)"),
            },
            Command::Decide(text) => self.decide(&text),
            Command::Resign => self.resign(input),
            Command::Draw => self.offer_draw(input),
            Command::Hint => self.hint(),
            Command::Review(file) => self.review(file.as_deref(), input),
            Command::Invalid(message) => self.say(&format!("{message}\n")),
        }
        true
    }

    fn list_cards(&self) {
        let content = self.session.engine.content();
        for (id, copies) in content.deck.cards.iter() {
            if let Some(card) = content.card_id(id).and_then(|c| content.card(c)) {
                self.say(&format!("{:<16} x{copies}  {}\n", card.manifest.name, card.manifest.text.trim()));
            }
        }
    }

    fn card_text(&self, name: &str) {
        let content = self.session.engine.content();
        match content.find_card(name).and_then(|c| content.card(c)) {
            Some(card) => {
                self.say(&format!(
                    "{} ({}): {}\n",
                    card.manifest.name,
                    card.manifest.rule.as_deref().unwrap_or("variant"),
                    card.manifest.text.trim()
                ));
                for ruling in &card.manifest.rulings {
                    self.say(&format!("  ruling: {ruling}\n"));
                }
            }
            None => self.say(&format!("no card '{name}' in this deck; 'cards' lists them\n")),
        }
    }

    fn show_planet(&mut self, input: &mut Input) {
        let humans: Vec<Player> = Player::BOTH.into_iter().filter(|&p| self.is_human(p)).collect();
        let player = match humans.as_slice() {
            [] => {
                println!("no human is playing, so there is no secret planet of yours to show");
                return;
            }
            [one] => *one,
            // Hot-seat: the screen was handed to the player to decide (`hand_over`).
            _ => return self.show_hot_seat_planet(input),
        };
        match self.session.planet_text(player) {
            Some((name, text)) => self.say(&format!("{player}'s secret planet is {name}: {}\n", text.trim())),
            None => println!("this deck has no planets"),
        }
    }

    /// Applies `choice` and tells it and what it did (see [`Repl::tell_last`]).
    fn apply_and_tell(&mut self, choice: &Choice, tag: &str) -> Result<(), String> {
        // An answer as the seated player reads it: directions and blocks as drawn for them.
        let frame =
            crate::narrate::Frame { viewer: self.view().viewer, orientation: self.session.state().board.orientation() };
        let shown = render::option_text_in(&self.session, choice, frame);
        let who = self.session.decider();
        let secret = self.session.answers_in_secret();
        let line = self.session.apply(choice)?;
        let auto = |l: &crate::game::Logged| {
            matches!(l.event, crate::game::Event::Game(crate::game::GameEvent::AnsweredAutomatically { .. }))
        };
        if self.is_human(who) && self.session.history().last().is_some_and(|d| d.made.events.iter().any(auto)) {
            self.answered_for_you = true;
        }
        if secret {
            // A secret order is told once, when it is complete, not answer by answer.
            self.secret_answers += 1;
            if self.session.answers_in_secret() && self.session.decider() == who {
                return Ok(());
            }
            let n = std::mem::take(&mut self.secret_answers);
            let line = format!("{who} answers in secret ({n} answer{})", if n == 1 { "" } else { "s" });
            self.tell_last(&line, tag);
            return Ok(());
        }
        let line = if matches!(choice, Choice::Answer(_)) { format!("{who} answers {shown}") } else { line };
        self.tell_last(&line, tag);
        Ok(())
    }

    /// Tells the last decision (`line`, then `tag`) and what it did, one line per
    /// event, in the seated player's frame.
    fn tell_last(&self, line: &str, tag: &str) {
        let Some(last) = self.session.history().len().checked_sub(1) else { return };
        // Hot-seat: the screen is still the decider's until it is handed over.
        let viewer = match self.session.deciders().next_back() {
            Some(decider) if self.hot_seat() => decider,
            _ => self.view().viewer,
        };
        self.say(&format!("{line}{tag}\n"));
        for line in self.session.told(last, viewer) {
            self.say(&format!("  * {line}\n"));
        }
    }

    fn show_log(&self) {
        if self.session.history().is_empty() {
            println!("nothing has happened yet");
        }
        // In the reader's frame: directions and wall spots as they type them.
        self.say(&crate::narrate::record_text(&self.session.turns(Some(self.view().viewer))));
        // Your own secret answers (Foresight's order), which only you may read.
        let you = if self.hot_seat() { self.handed_to } else { Player::BOTH.into_iter().find(|&p| self.is_human(p)) };
        if let Some(you) = you {
            for (number, card, answers) in self.session.secret_answers(you) {
                self.say(&format!("  your secret answers at move {number} ({card}): {}\n", answers.join(" ")));
            }
        }
    }

    /// `log N`: the board as move `number` began, and that move's line of the record.
    fn show_board_at(&self, number: u32) {
        let Some(board) = review::board_at_move(&self.session, number, self.view()) else {
            let moves = self.session.state().turn / 2 + 1;
            println!("there is no move {number} yet; this game is at move {moves}");
            return;
        };
        println!("the board as move {number} began:");
        print!("{board}");
        // In the reader's frame, as `log` and play name directions and walls.
        let record = crate::narrate::record_text(&self.session.turns(Some(self.view().viewer)));
        let heading = format!("{number:>3}. ");
        let mut lines = record.lines().skip_while(|l| !l.starts_with(&heading));
        if let Some(first) = lines.next() {
            self.say(&format!("{first}\n"));
            lines.take_while(|l| l.starts_with("       ")).for_each(|l| self.say(&format!("{l}\n")));
        }
    }

    /// Against the computer: back to the human's previous decision; hot-seat: one
    /// decision. False when there was nothing to take back.
    fn undo(&mut self, input: &mut Input) -> bool {
        if self.session.table_end().is_some() {
            self.session.undo(0);
            self.ended_shown = false;
            self.redraw();
            println!("took back the end of the game (resignation or agreed draw)");
            return true;
        }
        // The player at the keyboard takes back their own last decision and
        // what followed it: in hot-seat the one the screen was handed to, not
        // the other human, who is told at their next hand-over.
        let history = self.session.history();
        let at_keyboard = self.handed_to.filter(|_| self.hot_seat());
        let mine = |p: Player| at_keyboard.map_or(self.is_human(p), |me| p == me);
        let Some(last) = history.iter().rposition(|d| mine(d.decider)) else {
            println!("{}", if at_keyboard.is_some() { "you have no decision to take back" } else { "nothing to undo" });
            return false;
        };
        let theirs: Vec<(Player, String)> = history[last..]
            .iter()
            .filter(|d| !mine(d.decider) && self.is_human(d.decider))
            .map(|d| (d.decider, d.line.clone()))
            .collect();
        // Hot-seat: the other player's decisions go only with their consent.
        if let (Some(me), Some((other, _))) = (at_keyboard, theirs.first()) {
            let mut ask = format!("{me} asks to take back a decision, and with it these of {other}'s:\n");
            for (_, line) in &theirs {
                ask.push_str(&format!("  {line}\n"));
            }
            self.say(&ask);
            if !self.ask_yes(input, &format!("{other}, do you agree? [y/N] ")) {
                println!("{other} does not agree; nothing was taken back");
                return false;
            }
        }
        let undone = self.session.undo(history.len() - last);
        self.ended_shown = false;
        self.redraw();
        println!("took back {undone} decision{}", if undone == 1 { "" } else { "s" });
        true
    }

    /// `save FILE` (`over`: ask before saving over another game) and `save! FILE`.
    fn save(&self, file: &str, over: table::Over, input: &mut Input) {
        if !self.may_save_over(file, over, input) {
            return;
        }
        match self.session.save(&PathBuf::from(file), self.seats_record()) {
            Ok(()) => println!("saved {} decisions to {file}", self.session.history().len()),
            Err(e) => println!("{e}"),
        }
    }

    /// `load FILE` (an edited save refused) and `load! FILE` (accepted).
    fn load(&mut self, file: &str, edits: Edits) {
        let current = || self.session.engine.content().root.clone();
        let root = crate::session::root_for_save(None, Path::new(file), current);
        match Session::open(&root, &PathBuf::from(file), edits) {
            Ok((session, replay, record)) => {
                if let Err(e) = self.keep_unfinished(Some(Path::new(file))) {
                    println!("{e}; the current game is kept (save it elsewhere with 'save <file>' first)");
                    return;
                }
                if let Some(note) = replay.edited_note() {
                    println!("{note}");
                }
                self.say(&replay_report(&replay, "this game was saved"));
                for p in Player::BOTH {
                    if let Some(seat) = saved_seat(&record.seats, p, self.columns) {
                        self.seats[p.index()] = seat;
                    }
                }
                self.session = session;
                self.make_agents();
                self.handed_to = None;
                self.seen_until = [self.session.history().len(); 2];
                self.continued_from = Some(PathBuf::from(file)).filter(|f| table::is_autosave(f));
                self.ended_shown = false;
                self.redraw();
                println!("loaded {file}: {} decisions", self.session.history().len());
            }
            Err(e) => self.say(&format!("{e}; the current game is unchanged\n")),
        }
    }

    fn new_game(&mut self, seed: Option<u64>) {
        if let Err(e) = self.keep_unfinished(None) {
            println!("{e}; the current game is kept (save it elsewhere with 'save <file>' first)");
            return;
        }
        let seed = seed.unwrap_or_else(fresh_seed);
        self.session.new_game(seed);
        self.make_agents();
        self.handed_to = None;
        self.seen_until = [0; 2];
        self.continued_from = None;
        self.ended_shown = false;
        self.redraw();
        println!("new game, seed {seed}");
    }

    fn reload(&mut self) {
        match self.session.reload() {
            Ok(replay) => {
                println!("reloaded the scripts");
                self.say(&replay_report(&replay, "the scripts were last loaded"));
                self.make_agents();
                if replay.changed.is_empty() {
                    println!("no script or manifest changed");
                }
                self.redraw();
                self.ended_shown = false;
            }
            Err(e) => self.say(&format!("reload failed, the old scripts stay: {e}\n")),
        }
    }

    /// A move, a card, an answer or an option number.
    /// Whether `line`, one character, names an option of the question a human
    /// at the keyboard is asked.
    fn names_an_option(&self, line: &str) -> bool {
        let text = line.trim();
        if text.chars().count() != 1 {
            return false;
        }
        let Some(decision) = self.session.pending() else { return false };
        decision.kind == DecisionKind::Question
            && self.is_human(decision.player)
            && decision.options.iter().any(|o| render::option_text(&self.session, o).eq_ignore_ascii_case(text))
    }

    fn decide(&mut self, text: &str) {
        let Some(decision) = self.session.pending() else {
            println!("the game is over; 'new' starts another, 'undo' takes back a decision");
            return;
        };
        if !self.is_human(decision.player) {
            println!("it is the computer's turn");
            return;
        }
        let several = text.split_whitespace().nth(1).is_some();
        let choice = match parse_choice(&self.session, text) {
            Ok(c) => c,
            // Several answers in one line (a whole order, as Foresight asks),
            // maybe after the name of the card that asks.
            Err(_) if decision.kind == DecisionKind::Question && several && !self.asks_for_edges() => {
                let automatic = self.answered_automatically();
                return self.decide_many(self.without_asking_card(text), automatic);
            }
            // A card named by the first words, then the answers to its questions.
            Err(_) if decision.kind == DecisionKind::Card && several => {
                return self.use_and_answer(text);
            }
            Err(e) => {
                self.say(&format!("{e}\n"));
                return;
            }
        };
        if let Err(e) = self.apply_and_tell(&choice, "") {
            // When no option works at all, the step is given up
            // (GameState::give_up), so that a broken script cannot stop the game.
            if self.apply_and_tell(&Choice::GiveUp, "").is_ok() {
                self.say(&format!("{e}; no other option works either, so the step was given up\n"));
            } else {
                self.say(&format!("{e}; choose again ('options' lists what is possible)\n"));
            }
        }
        self.tell_script_problems();
    }
}

/// One command line, parsed without looking at the game. A line that is not a
/// command is a decision (a move, a card, an answer or an option number), read
/// against the pending options by [`parse_choice`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A blank line.
    Empty,
    Quit,
    /// `quit!`: leave at once, saving nothing.
    QuitWithoutSaving,
    /// `help [topic]`.
    Help(String),
    Board,
    /// `panel`: the legend and the whole panel (a short terminal's screen cuts them).
    Panel,
    Options,
    Cards,
    /// `card <name>`.
    Card(String),
    Planet,
    /// `log [n]`: the record, or the board as move n began.
    Log(Option<u32>),
    /// `undo [n]`: take back the last decision (with the computer's replies), n times.
    Undo(usize),
    /// `save <file>`: asks before saving over another game.
    Save(String),
    /// `save! <file>`: saves over whatever the file holds.
    SaveOver(String),
    /// `load <file>`: an edited save is refused.
    Load(String),
    /// `load! <file>`: an edited save is loaded, saying so.
    LoadEdited(String),
    /// `new [seed]`: `None` for a fresh seed.
    New(Option<u64>),
    Reload,
    /// `digest`: the state digest, for determinism checks (not in `help`'s list).
    Digest,
    /// `use <card|number>`.
    Use(String),
    /// `resign`: the human to decide gives up.
    Resign,
    /// `draw`: offer a draw.
    Draw,
    /// `hint`: the computer's suggestion, not applied.
    Hint,
    /// `review [file]`: step through this game, or a saved one (review.rs).
    Review(Option<String>),
    /// Anything else: a decision.
    Decide(String),
    /// A command with missing or bad arguments; the message says how to write it.
    Invalid(String),
}

/// Reads one command line. Total: every line is some [`Command`].
pub fn parse_command(line: &str) -> Command {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).map_or((line, ""), |(w, r)| (w, r.trim()));
    let needs_file = |command: &str, make: fn(String) -> Command| {
        if rest.is_empty() {
            Command::Invalid(format!("{command} needs a file name: {command} <file>, e.g. {command} game.json"))
        } else {
            make(rest.to_string())
        }
    };
    match word.to_ascii_lowercase().as_str() {
        "" => Command::Empty,
        "quit" | "exit" | "q" => Command::Quit,
        "quit!" | "exit!" => Command::QuitWithoutSaving,
        "help" | "?" => Command::Help(rest.to_string()),
        "board" | "b" => Command::Board,
        "panel" => Command::Panel,
        "options" | "o" | "moves" => Command::Options,
        "cards" => Command::Cards,
        "card" if !rest.is_empty() => Command::Card(rest.to_string()),
        "card" => Command::Invalid("card needs a name: card <name>, e.g. card water ('cards' lists them)".into()),
        "planet" => Command::Planet,
        "log" if rest.is_empty() => Command::Log(None),
        "log" => match rest.parse() {
            Ok(number @ 1..) => Command::Log(Some(number)),
            _ => Command::Invalid(format!("'{rest}' is not a move number; write log or log <move>, e.g. log 12")),
        },
        "undo" if rest.is_empty() => Command::Undo(1),
        "undo" => match rest.parse() {
            Ok(times @ 1..=1000) => Command::Undo(times),
            _ => Command::Invalid(format!("'{rest}' is not a count; write undo or undo <1 to 1000>")),
        },
        "save" => needs_file("save", Command::Save),
        "save!" => needs_file("save!", Command::SaveOver),
        "load" => needs_file("load", Command::Load),
        "load!" => needs_file("load!", Command::LoadEdited),
        "new" if rest.is_empty() => Command::New(None),
        "new" => match rest.parse() {
            Ok(seed) => Command::New(Some(seed)),
            Err(_) => Command::Invalid(format!("'{rest}' is not a seed; write new or new <number>")),
        },
        "reload" => Command::Reload,
        "digest" => Command::Digest,
        "use" => Command::Use(rest.to_string()),
        "resign" => Command::Resign,
        "draw" => Command::Draw,
        "hint" => Command::Hint,
        "review" => Command::Review((!rest.is_empty()).then(|| rest.to_string())),
        // The explicit form of a decision, as saves write answers: an option that
        // is also a command's name (`answer board`) can be given so.
        "answer" if !rest.is_empty() => Command::Decide(rest.to_string()),
        "answer" => Command::Invalid("answer needs the option: answer <option>, e.g. answer d4".into()),
        _ => Command::Decide(line.to_string()),
    }
}

/// The one card among `options` whose name or id starts with `text` (letters
/// and digits compared, case aside): `second` for Second move.
fn card_by_start(session: &Session, options: &[Choice], text: &str) -> Option<Choice> {
    let key: String = text.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect();
    if key.is_empty() {
        return None;
    }
    let content = session.engine.content();
    let starts = |s: &str| {
        s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect::<String>().starts_with(&key)
    };
    let mut found = options.iter().filter(|o| match o {
        Choice::Card(c) => content.card(*c).is_some_and(|d| starts(&d.id) || starts(&d.manifest.name)),
        _ => false,
    });
    match (found.next(), found.next()) {
        (Some(one), None) => Some(one.clone()),
        _ => None,
    }
}

/// The pending option that `text` names: its number in the list, a move
/// (`c3-d4`, `c3xe5xg7`, or start and end when only one chain fits), a card by
/// name or id, or an answer. The error says what to type instead.
pub fn parse_choice(session: &Session, text: &str) -> Result<Choice, String> {
    let Some(decision) = session.pending() else {
        return Err("the game is over; 'new' starts another, 'undo' takes back a decision".into());
    };
    let (options, kind) = (&decision.options, decision.kind);
    let text = text.trim();
    if text.is_empty() {
        return Err("type an option (its number or name), or 'help'".into());
    }
    // An option named as typed wins over a number: a card may offer "2".
    let named = |o: &&Choice| render::option_text(session, o).eq_ignore_ascii_case(text);
    if kind == DecisionKind::Question
        && let Some(option) = options.iter().find(named)
    {
        return Ok(option.clone());
    }
    if let Ok(n) = text.parse::<usize>() {
        return options
            .get(n.wrapping_sub(1))
            .cloned()
            .ok_or_else(|| format!("there is no option {n}; choose 1 to {}", options.len()));
    }
    let option_name = |option: &Choice| render::option_text(session, option);
    let listed = || {
        let names: Vec<String> = options.iter().take(12).map(option_name).collect();
        let more = if options.len() > 12 { ", ..." } else { "" };
        format!("{}{more}", names.join(", "))
    };
    let content = session.engine.content();
    // `c3d4`: two squares run together name a move from the one to the other.
    let joined = text.len() == 4
        && text.is_char_boundary(2)
        && [&text[..2], &text[2..]].iter().all(|s| s.parse::<crate::kernel::Square>().is_ok());
    let dashed;
    let text = if kind == DecisionKind::Move && joined {
        dashed = format!("{}-{}", &text[..2], &text[2..]);
        dashed.as_str()
    } else {
        text
    };
    match kind {
        DecisionKind::Move => match choice_text::read(content, decision, text) {
            Ok(choice) => Ok(choice),
            Err(Unread::NotAMove(_)) if text.split_whitespace().count() == 1 && !text.contains(['-', 'x', ':']) => {
                Err(format!("unknown command '{text}'; type 'help' for commands or a move like c3-d4"))
            }
            Err(Unread::NotAMove(e)) => Err(e),
            Err(Unread::Ambiguous(several)) => Err(format!(
                "{text} could mean {}; write every landing square",
                several.iter().map(|c| render::option_text(session, c)).collect::<Vec<_>>().join(" or ")
            )),
            Err(Unread::NotOffered) => Err(format!("{text} is not a legal move now; legal: {}", listed())),
        },
        DecisionKind::Card => choice_text::read(content, decision, text)
            .or_else(|_| card_by_start(session, options, text).ok_or(()))
            .map_err(|_| format!("'{text}' is not a card you can use now; choose one of: {}", listed())),
        DecisionKind::Question => {
            // Directions and blocks are named as the board is drawn for the decider;
            // the board's own n/e/s/w still work.
            let frame = render::decider_frame(session);
            let question_kind = render::question_kind(session);
            // A pair of edges is the same pair written either way round.
            let typed_pair: Option<crate::kernel::EdgePair> = text.to_ascii_lowercase().parse().ok();
            let wanted = |a: &Answer| match (a, frame.dir(text)) {
                (Answer::Dir(d), Some(typed)) => *d == typed,
                (Answer::Edges(pair), _) if typed_pair.is_some() => Some(*pair) == typed_pair,
                _ => a.to_string().eq_ignore_ascii_case(text),
            };
            // A block by its name (`c3-d4`), or by the corner drawn lower left.
            let block = crate::narrate::block_named(text)
                .or_else(|| text.parse().ok().and_then(|corner| frame.block_from_corner(corner)));
            let as_shown = |o: &Choice| render::option_text(session, o).eq_ignore_ascii_case(text);
            options
                .iter()
                .find(|o| as_shown(o))
                .or_else(|| match question_kind {
                    Some(QuestionKind::Block) => {
                        options.iter().find(|o| matches!(o, Choice::Answer(Answer::Square(a)) if Some(*a) == block))
                    }
                    _ => options.iter().find(|o| matches!(o, Choice::Answer(a) if wanted(a))),
                })
                .or_else(|| {
                    let answer = match question_kind {
                        Some(QuestionKind::Edges) => spots::pair(frame, text).map(Answer::Edges),
                        Some(QuestionKind::Edge) => spots::edge(frame, text).map(Answer::Edge),
                        _ => None,
                    }?;
                    options.iter().find(|o| matches!(o, Choice::Answer(a) if *a == answer))
                })
                .or_else(|| table::option_by_card(session, options, text))
                .cloned()
                .ok_or_else(|| format!("'{text}' is not an answer here; choose one of: {}", listed()))
        }
    }
}

/// (command, arguments, what it does)
pub(crate) const COMMANDS: &[(&str, &str, &str)] = &[
    ("help", "[command]", "list the commands, or explain one"),
    ("board", "", "draw the board and the game panel again"),
    ("panel", "", "the legend and the whole game panel (a terminal under 30 rows shows what fits beside the board)"),
    ("options", "", "list what you can choose now, numbered (also: moves)"),
    ("use", "<card|number>", "use a face-up card (typing its name or number alone works too)"),
    ("cards", "", "every card of this deck with its text"),
    ("card", "<name>", "one card's text and rulings"),
    ("planet", "", "your secret planet (in hot-seat it asks first)"),
    (
        "log",
        "[n]",
        "the game record: numbered move pairs, each side's card and what it did; with a number, the board as that move began",
    ),
    (
        "undo",
        "[n]",
        "take back your last decision and what followed it (the computer's replies; in hot-seat, the other player's with their consent), or your last n",
    ),
    (
        "save",
        "<file>",
        "save the game (deck, script hashes, seed, decisions); over a file holding another game it asks first (piped: refuses)",
    ),
    ("save!", "<file>", "save the game over whatever the file holds, without asking"),
    (
        "load",
        "<file>",
        "continue a saved game; a save edited by hand is refused, naming the first decision that differs",
    ),
    ("load!", "<file>", "continue a saved game even if it was edited, saying from which decision it may differ"),
    ("new", "[seed]", "start a new game with the same deck and players"),
    ("reload", "", "reload the card scripts and replay this game on them"),
    (
        "<card> <answers>",
        "",
        "use a card and answer its questions in one line, e.g. water d4, or a whole order (keep leaves the rest)",
    ),
    (
        "review",
        "[file]",
        "step through this game, or a saved one: n/Enter next, p back, first, last, go <move>, export <file> (PDN for draughts decks), q leaves",
    ),
    ("hint", "", "ask the computer (at normal) what it would choose; nothing is played"),
    ("answer", "<option>", "give this answer, also when it is a command's name (answer board)"),
    ("resign", "", "give up the game, once you confirm: your opponent wins"),
    ("draw", "", "offer a draw (a human opponent is asked; the computer accepts when it is not ahead)"),
    (
        "quit",
        "",
        "leave (also: exit, Ctrl-D); an unfinished game is first saved to a file of its own, alien-checkers-autosave-[<deck>-]<seed>[-<n>].json, never over another game (at a terminal you are asked, and 'discard' leaves without saving)",
    ),
    ("quit!", "", "leave at once without saving the game"),
];

fn help(topic: &str) -> String {
    if topic.is_empty() {
        let mut out = String::from(
            "Type a move (c3-d4, or c3xe5xg7 for jumps), a card's name, an answer (a square like d4, a direction like n, an option's name) or the number of a listed option. Commands:\n",
        );
        for (name, args, what) in COMMANDS {
            out.push_str(&format!("  {:<22} {what}\n", format!("{name} {args}")));
        }
        out.push_str("Tab completes commands and the answers to the pending decision; Ctrl-C cancels the line.");
        return out;
    }
    let topic = topic.trim().to_ascii_lowercase();
    match COMMANDS.iter().find(|(name, _, _)| *name == topic) {
        Some((name, args, what)) => format!("{name} {args}: {what}"),
        None if topic == "digest" => {
            "digest: print the state digest (FNV-1a of the game state) and the number of decisions, to check that two runs played the same game".into()
        }
        None if topic == "move" || topic == "moves" => {
            "Moves: c3-d4 steps; c3xe5 or c3xe5xg7 jumps (the start and end are enough when only one chain fits). Capture is compulsory (R4.3) unless a card in force lifts it (Truce).".into()
        }
        None => format!("no command '{topic}'; 'help' lists them"),
    }
}
