//! Balance simulation for deck designers: many games between two players on
//! one deck, with every figure's 95 % interval, colour (Dark/Light) beside
//! side (A/B) throughout, one record a game, cards withheld from one side in
//! paired games (ablation), and runs that split into shards and merge back.
//!
//! Games run on every core, each worker with its own script engine (Lua
//! states are not shared between threads). Game `i` is dealt with
//! `game_seed(seed, i)`, side A plays Dark when `i` is even, and the agents
//! are seeded from the deal, so a game depends only on the plan and its
//! index: never on which worker played it, nor on which other games were
//! played. Results are folded in index order, so the report, the per-game
//! file and a sequential test's stop are the same on any number of threads,
//! and the games `[first, first + n)` of one run are the same games as in any
//! other run of the plan that covers them (`merge` relies on it).

mod baseline;
pub mod host;
pub mod paired;
mod report;
pub mod stats;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::ai::{AgentSpec, Budget, Side, game_seed, make_agent, mix_seed};
use crate::content::{Content, ContentRoot};
use crate::game::{Choice, EndReason, GameState};
use crate::kernel::Player;
use crate::script::ScriptEngine;

pub use baseline::Baseline;
pub use host::{SimHost, Withheld};
pub use report::{
    Ablation, ByAColour, BySeat, CardCell, Comparison, Counts, Difference, Figures, Meta, PlanetCell, REPORT_FORMAT,
    Report, Tally, Turns, compare, compare_table, figures, merge, read_report, read_row, table,
};
pub use stats::{Estimate, Pentanomial, Sprt, SprtState};

/// What to simulate. Two runs whose plans agree on everything but
/// `first_game`, `games` and `threads` play the same game at the same index.
#[derive(Clone, Debug)]
pub struct Plan {
    pub root: ContentRoot,
    pub deck: String,
    /// Player specs ([`AgentSpec`]) for side A and side B; A plays Dark in
    /// even-numbered games.
    pub a: String,
    pub b: String,
    /// How many games, from game `first_game` on.
    pub games: u32,
    pub first_game: u32,
    pub seed: u64,
    pub threads: usize,
    /// Cards to withhold from side A: each game is also played once per card
    /// with that card unusable for A (same seed), and the pair compared.
    pub ablate: Vec<String>,
    /// Stop at the first game after which this test on A's score decides.
    pub sprt: Option<Sprt>,
    /// Each deal played twice, the seats swapped: games `2k` and `2k + 1` are
    /// dealt alike (A plays Dark in the first), and the players' generators
    /// are seeded by side, so the second game is not the first's mirror.
    pub swap_seats: bool,
    /// An earlier run of this plan (`--baseline`): its games are taken, not played again.
    pub baseline: Option<Baseline>,
}

impl Plan {
    /// A plan of `games` games from game 0 on every core, without ablation or sequential stop.
    pub fn new(root: ContentRoot, deck: &str, a: &str, b: &str, games: u32, seed: u64) -> Plan {
        Plan {
            root,
            deck: deck.to_string(),
            a: a.to_string(),
            b: b.to_string(),
            games,
            first_game: 0,
            seed,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            ablate: Vec::new(),
            sprt: None,
            swap_seats: false,
            baseline: None,
        }
    }

    /// The seed game `index` is dealt with: its own, or its pair's with seats swapped.
    pub fn deal_seed(&self, index: u32) -> u64 {
        game_seed(self.seed, if self.swap_seats { index / 2 } else { index })
    }

    /// The colour side A plays in game `index`.
    pub fn a_colour(index: u32) -> Player {
        if index.is_multiple_of(2) { Player::Dark } else { Player::Light }
    }

    /// The command line that plays this plan's game `index` again and saves it
    /// (`--save-game`), then replays the save.
    pub fn replay_command(&self, index: u32) -> String {
        let mut words = vec!["alien-checkers".to_string(), "simulate".into(), "--deck".into(), quote(&self.deck)];
        if let Some(root) = self.root.outside_shipped() {
            words.extend(["--root".into(), quote(&root.display().to_string())]);
        }
        let file = format!("game-{}-{index}.json", self.seed);
        words.extend([
            "--a".into(),
            quote(&self.a),
            "--b".into(),
            quote(&self.b),
            "--seed".into(),
            self.seed.to_string(),
        ]);
        if self.swap_seats {
            words.push("--swap-seats".into());
        }
        words.extend([
            "--save-game".into(),
            index.to_string(),
            "--save-as".into(),
            file.clone(),
            "&&".into(),
            "alien-checkers".into(),
            "replay".into(),
            file,
        ]);
        words.join(" ")
    }
}

/// A word for a POSIX shell: as it is when it is plain, else in single quotes.
fn quote(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c)) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// How one side used one card in a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardUse {
    pub uses: u32,
    /// Uses whose resolution left the game as it was (the card was spent and
    /// changed nothing else).
    pub idle: u32,
}

/// Something said of each side, A and B.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sides<T> {
    pub a: T,
    pub b: T,
}

impl<T> Sides<T> {
    pub fn of_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::A => &mut self.a,
            Side::B => &mut self.b,
        }
    }
}

/// How a game ended: by the rules (R10), or abandoned. Written as a line of
/// `--games-out` and the report's ways of ending name it: `capture`, `planet
/// jupiter`, `rule total` (a deck's victory), `move limit`, `abandoned: …`
/// ([`Ending::WORDS`] and the three with text of their own).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    Capture,
    FiveKings,
    /// The winner's planet held; its id (`?` for one the deck does not have).
    Planet(String),
    NoMoves,
    Stuck,
    MoveLimit,
    Resigned,
    Agreed,
    /// Drawn: every option of a step failed and nothing could be given up.
    Unplayable,
    /// A deck's rule ended it with this victory of the deck's (`rules:
    /// victories:`): by its verdict or by `ctx:end_game`.
    Rule(String),
    /// Drawn: an end the deck scores, which no verdict scored.
    Unscored,
    /// Drawn: the same position the deck's number of times.
    Repetition,
    /// Drawn: the deck's number of turns with only kings moved.
    KingsOnly,
    /// The game could not go on, and why.
    Abandoned(String),
}

impl Ending {
    /// The endings written as one word or phrase, with it.
    const WORDS: [(&'static str, Ending); 11] = [
        ("capture", Ending::Capture),
        ("five kings", Ending::FiveKings),
        ("no moves", Ending::NoMoves),
        ("opponent stuck", Ending::Stuck),
        ("move limit", Ending::MoveLimit),
        ("resigned", Ending::Resigned),
        ("agreed draw", Ending::Agreed),
        ("unplayable", Ending::Unplayable),
        ("unscored", Ending::Unscored),
        ("repetition", Ending::Repetition),
        ("kings only", Ending::KingsOnly),
    ];

    /// A game's end by the rules, its planet named by `content`'s id, a
    /// deck's victory by its name.
    pub fn by(reason: EndReason, content: &Content) -> Ending {
        match reason {
            EndReason::Capture => Ending::Capture,
            EndReason::FiveKings => Ending::FiveKings,
            EndReason::Planet(p) => Ending::Planet(content.planet(p).map_or("?", |p| p.id.as_str()).to_string()),
            EndReason::NoMoves => Ending::NoMoves,
            EndReason::Stuck => Ending::Stuck,
            EndReason::MoveLimit => Ending::MoveLimit,
            EndReason::Resigned => Ending::Resigned,
            EndReason::Agreed => Ending::Agreed,
            EndReason::Unplayable => Ending::Unplayable,
            EndReason::Rule { .. } => Ending::Rule(reason.name(&content.deck.rules.victories).to_string()),
            EndReason::Unscored(_) => Ending::Unscored,
            EndReason::Repetition => Ending::Repetition,
            EndReason::KingsOnly => Ending::KingsOnly,
        }
    }

    pub fn is_abandoned(&self) -> bool {
        matches!(self, Ending::Abandoned(_))
    }
}

impl std::fmt::Display for Ending {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Ending::Planet(id) => write!(f, "planet {id}"),
            Ending::Rule(victory) => write!(f, "rule {victory}"),
            Ending::Abandoned(why) => write!(f, "abandoned: {why}"),
            other => {
                let (word, _) = Ending::WORDS.iter().find(|(_, e)| e == other).expect("every other ending has a word");
                f.write_str(word)
            }
        }
    }
}

impl std::str::FromStr for Ending {
    type Err = String;

    fn from_str(text: &str) -> Result<Ending, String> {
        if let Some(why) = text.strip_prefix("abandoned: ") {
            return Ok(Ending::Abandoned(why.to_string()));
        }
        if let Some(id) = text.strip_prefix("planet ") {
            return Ok(Ending::Planet(id.to_string()));
        }
        if let Some(victory) = text.strip_prefix("rule ") {
            return Ok(Ending::Rule(victory.to_string()));
        }
        let found = Ending::WORDS.iter().find(|(word, _)| *word == text);
        found.map(|(_, e)| e.clone()).ok_or_else(|| format!("'{text}' is not a way a game ends"))
    }
}

impl Serialize for Ending {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Ending {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Ending, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

/// One game: a line of `--games-out`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRow {
    /// The game's index in the run (its place in the plan).
    pub index: u32,
    /// The seed the game was dealt with (R2.4).
    pub seed: u64,
    /// The run's content hash (the report's `meta.content_hash`): rows merge
    /// only with rows of the same content.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub content: String,
    /// The colour side A played; B played the other.
    pub a_colour: Player,
    /// Planet ids held by Dark and Light.
    pub dark_planet: Option<String>,
    pub light_planet: Option<String>,
    /// `A`, `B`, or none for a draw or an abandoned game.
    pub winner: Option<Side>,
    pub winner_colour: Option<Player>,
    /// How it ended: `capture`, `planet jupiter`, `move limit`, …, or
    /// `abandoned: …` when it could not go on.
    pub end: Ending,
    /// Turns played (R3), the turn the game ended in included: a game Dark
    /// wins during its first turn has 1, one that ends as Light's first turn
    /// begins (before Light does anything) has 1 too.
    pub turns: u32,
    pub decisions: u32,
    /// How often the side ahead in material ([`material`]) changed, measured
    /// at the end of each turn and of the game; a level position does not
    /// end a lead (Ludii's lead changes).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lead_changes: u32,
    /// The winner was behind in material at one of those measures (drama).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub winner_trailed: bool,
    /// Card id → uses, for each side.
    pub cards: Sides<BTreeMap<String, CardUse>>,
    /// The card withheld from side A in this game (an ablation game), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withheld: Option<String>,
    /// The command that plays this game again, saves it and replays the save
    /// (only for games played as dealt, not ablation games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A side's material for the design metrics: a man 1, a king (emperors too) 2.
pub fn material(board: &crate::kernel::Board, player: Player) -> i32 {
    let mine = board.checkers(player);
    (mine - board.kings()).count() as i32 + 2 * (mine & board.kings()).count() as i32
}

/// Who is ahead in material through a game, measured once a turn.
#[derive(Default)]
struct Leads {
    /// The side last ahead (a level position keeps it).
    ahead: Option<Player>,
    changes: u32,
    /// Whether each colour (by index) has been behind.
    trailed: [bool; 2],
}

impl Leads {
    fn measure(&mut self, board: &crate::kernel::Board) {
        self.measure_lead(material(board, Player::Dark) - material(board, Player::Light));
    }

    /// `lead`: Dark's material less Light's.
    fn measure_lead(&mut self, lead: i32) {
        let now = match lead.signum() {
            1 => Player::Dark,
            -1 => Player::Light,
            _ => return,
        };
        self.trailed[(!now).index()] = true;
        if self.ahead.is_some_and(|p| p != now) {
            self.changes += 1;
        }
        self.ahead = Some(now);
    }
}

impl GameRow {
    /// The colour of a side in this game.
    pub fn colour(&self, side: Side) -> Player {
        side.colour(self.a_colour)
    }

    pub fn abandoned(&self) -> bool {
        self.end.is_abandoned()
    }

    /// A's score: 2 for a win, 1 for a draw, 0 for a loss, in halves; `None`
    /// when abandoned.
    pub fn a_score_halves(&self) -> Option<i64> {
        match self.winner {
            _ if self.abandoned() => None,
            Some(Side::A) => Some(2),
            Some(Side::B) => Some(0),
            None => Some(1),
        }
    }

    /// Won (not drawn) by the end of turn [`paired::EARLY_TURNS`]: `turns`
    /// counts the turn the game ended in, so a win during Dark's second turn
    /// (turn 3) is early, one during Light's second (turn 4) is not.
    pub fn early_win(&self) -> bool {
        self.winner.is_some() && self.turns <= paired::EARLY_TURNS
    }

    /// One character for the run's outcome string: `A`, `B`, `=` (draw), `x` (abandoned).
    pub fn outcome_char(&self) -> char {
        match self.winner {
            _ if self.abandoned() => 'x',
            Some(Side::A) => 'A',
            Some(Side::B) => 'B',
            None => '=',
        }
    }
}

/// Plays game `index` of the plan on `engine`, with `withheld` unusable for
/// side A; `decisions`, when given, receives every choice made.
fn play_one(
    engine: &ScriptEngine,
    plan: &Plan,
    index: u32,
    withheld: Option<&str>,
    mut decisions: Option<&mut Vec<Choice>>,
) -> Result<GameRow, String> {
    let content = engine.content();
    let setup = content.setup();
    let seed = plan.deal_seed(index);
    let a_colour = Plan::a_colour(index);
    let side = |p: Player| Side::playing(p, a_colour);
    let withheld = match withheld {
        Some(id) => Some(Withheld {
            card: content.card_id(id).ok_or_else(|| format!("the deck has no card '{id}' to withhold"))?,
            from: a_colour,
        }),
        None => None,
    };
    let host = SimHost::new(engine, withheld);
    let mut agents = Vec::with_capacity(2);
    for p in [Player::Dark, Player::Light] {
        let name = if p == a_colour { &plan.a } else { &plan.b };
        agents.push(make_agent(
            name,
            // By colour; by side when the seats swap (salts 3 and 4), so that
            // the pair's second game is played afresh, not mirrored.
            mix_seed(seed, if plan.swap_seats { 3 + side(p) as u64 } else { p.index() as u64 + 1 }),
            setup.planets.clone(),
            Budget::Reproducible,
            None,
        )?);
    }
    let mut state = GameState::deal(&setup, seed, &host);
    // Nothing has happened yet for a lasting effect to refuse.
    let _ = state.settle(&host);
    let planet = |p: Player| state.planet(p).and_then(|id| content.planet(id)).map(|p| p.id.clone());
    let mut row = GameRow {
        index,
        seed,
        content: String::new(),
        a_colour,
        dark_planet: planet(Player::Dark),
        light_planet: planet(Player::Light),
        winner: None,
        winner_colour: None,
        // Unless the loop below says why it stopped, or the game ended.
        end: Ending::Abandoned("no decision pending and no outcome".into()),
        turns: 0,
        decisions: 0,
        lead_changes: 0,
        winner_trailed: false,
        cards: Sides::default(),
        withheld: withheld.and_then(|w| content.card(w.card)).map(|c| c.id.clone()),
        replay: withheld.is_none().then(|| plan.replay_command(index)),
    };
    // The card whose resolution is under way, with its user: its use is
    // counted when the resolution finishes (idle or not).
    let mut resolving: Option<(Side, String)> = None;
    // The turn (counted from 0) of the last decision applied.
    let mut last_turn: Option<u32> = None;
    // Material is measured as each turn ends (lead changes, drama).
    let (mut leads, mut measured) = (Leads::default(), state.turn);
    while let Some(decision) = state.pending(&host) {
        if row.decisions >= crate::ai::MAX_DECISIONS {
            row.end = Ending::Abandoned(format!("{} decisions", crate::ai::MAX_DECISIONS));
            break;
        }
        let player = decision.player;
        let Some(choice) = agents[player.index()].choose(&state, &host) else {
            row.end = Ending::Abandoned(format!("{player} had no choice"));
            break;
        };
        host.watch();
        let turn = state.turn;
        let choice = match state.apply_or_fall_back(&host, &choice) {
            Ok((applied, _)) => applied,
            Err(e) => {
                let chose = crate::choice_text::write(content, &choice);
                row.end = Ending::Abandoned(format!("{player} chose {chose}, which failed: {e}"));
                break;
            }
        };
        if let Choice::Card(card) = choice {
            resolving = Some((side(player), content.card(card).map_or("?".into(), |c| c.id.clone())));
        }
        if let Some(idle) = host.last_idle()
            && let Some((user, card)) = resolving.take()
        {
            let entry = row.cards.of_mut(user).entry(card).or_default();
            entry.uses += 1;
            entry.idle += u32::from(idle);
        }
        if let Some(d) = decisions.as_deref_mut() {
            d.push(choice);
        }
        row.decisions += 1;
        last_turn = Some(turn);
        if state.turn != measured {
            measured = state.turn;
            leads.measure(&state.board);
        }
    }
    leads.measure(&state.board);
    row.lead_changes = leads.changes;
    // A card given up or cut short still counts as used.
    if let Some((user, card)) = resolving {
        row.cards.of_mut(user).entry(card).or_default().uses += 1;
    }
    // `state.turn` counts the turns completed; a game that ended during a
    // turn in which something was done played that turn too.
    row.turns = state.turn.max(last_turn.map_or(0, |t| t + 1));
    if let Some(outcome) = state.outcome() {
        row.winner = outcome.winner.map(side);
        row.winner_colour = outcome.winner;
        row.winner_trailed = outcome.winner.is_some_and(|w| leads.trailed[w.index()]);
        row.end = Ending::by(outcome.reason, content);
    }
    Ok(row)
}

#[cfg(test)]
mod lead_tests {
    use super::*;

    #[test]
    fn a_lead_changes_only_when_the_other_side_gets_ahead() {
        let mut leads = Leads::default();
        for lead in [0, 1, 0, 2, -1, -3] {
            leads.measure_lead(lead);
        }
        assert_eq!(leads.changes, 1);
        assert_eq!(leads.trailed, [true, true]);
    }
}

/// One index of a run: the game as dealt and its ablation games, in the
/// plan's order of `ablate`.
#[derive(Clone, Debug)]
pub struct Played {
    pub game: GameRow,
    pub ablated: Vec<GameRow>,
}

/// Plays game `index` and its ablation games, or takes those the baseline
/// holds; their rows carry `content`, the content hash.
fn play_index(engine: &ScriptEngine, plan: &Plan, content: &str, index: u32) -> Result<Played, String> {
    let game_of = |withheld: Option<&str>| match plan.baseline.as_ref().and_then(|b| b.row(index, withheld)) {
        Some(row) => Ok(row.clone()),
        None => play_one(engine, plan, index, withheld, None),
    };
    let mut game = game_of(None)?;
    let mut ablated: Vec<GameRow> = plan.ablate.iter().map(|card| game_of(Some(card))).collect::<Result<_, _>>()?;
    for row in std::iter::once(&mut game).chain(&mut ablated) {
        row.content = content.to_string();
    }
    Ok(Played { game, ablated })
}

/// Where a run's results go besides the report it returns.
pub struct Sinks<'a> {
    /// Told of each game folded into the report: (games done, games planned).
    pub progress: Option<&'a mut dyn FnMut(u32, u32)>,
    /// `--games-out`: one JSON line per game, in index order (ablation games
    /// after the game they pair with).
    pub rows: Option<&'a mut dyn Write>,
    /// The report file, rewritten whole (atomically) at most this often while
    /// the run goes, so an interrupted run keeps the games it finished.
    pub partial: Option<(PathBuf, Duration)>,
    /// Set from outside to stop the run: the games folded so far are the report.
    pub stop: Option<&'a AtomicBool>,
    /// Stop after this many games have been folded (an interruption, for tests).
    pub stop_after: Option<u32>,
}

impl Sinks<'_> {
    /// Nothing but the report.
    pub fn none<'b>() -> Sinks<'b> {
        Sinks { progress: None, rows: None, partial: None, stop: None, stop_after: None }
    }
}

/// Plays the plan's games on `plan.threads` workers and returns the report of
/// the games `[first_game, first_game + k)`: all of them, or fewer when the
/// sequential test decided or the run was stopped.
pub fn run(plan: &Plan, sinks: Sinks<'_>) -> Result<Report, String> {
    let Sinks { mut progress, mut rows, partial, stop, stop_after } = sinks;
    for spec in [&plan.a, &plan.b] {
        spec.parse::<AgentSpec>()?;
    }
    // Load once here so content problems are reported before any thread starts.
    let engine = ScriptEngine::load(&plan.root, &plan.deck).map_err(|p| p.to_string())?;
    for card in &plan.ablate {
        if engine.content().card_id(card).is_none() {
            return Err(format!("--ablate: the deck '{}' has no card '{card}'", plan.deck));
        }
    }
    let mut report = Report::new(plan, engine.content());
    drop(engine);
    if let Some(baseline) = &plan.baseline {
        baseline.check(plan, &report.meta.content_hash)?;
    }
    let end = plan.first_game.checked_add(plan.games).ok_or("--first-game + --games is past the last game index")?;
    // The report file is written before the first game, so a folder that is
    // missing or not writable is said before any game is played.
    if let Some((path, _)) = &partial {
        write_report(path, &unfinished(&report))?;
    }
    let next_to_play = AtomicU32::new(plan.first_game);
    let halt = AtomicBool::new(false);
    let stopped = || halt.load(Ordering::SeqCst) || stop.is_some_and(|s| s.load(Ordering::SeqCst));
    let (sender, receiver) = mpsc::channel::<(u32, Result<Played, String>)>();
    let mut failure = None;
    let mut last_write = Instant::now();
    let content_hash = report.meta.content_hash.clone();
    std::thread::scope(|scope| {
        for _ in 0..plan.threads.max(1) {
            let sender = sender.clone();
            let (next_to_play, stopped, content) = (&next_to_play, &stopped, &content_hash);
            scope.spawn(move || {
                let engine = match ScriptEngine::load(&plan.root, &plan.deck) {
                    Ok(e) => e,
                    Err(p) => {
                        let _ = sender.send((plan.first_game, Err(p.to_string())));
                        return;
                    }
                };
                loop {
                    if stopped() {
                        return;
                    }
                    let i = next_to_play.fetch_add(1, Ordering::SeqCst);
                    if i >= end {
                        return;
                    }
                    if sender.send((i, play_index(&engine, plan, content, i))).is_err() {
                        return;
                    }
                }
            });
        }
        drop(sender);
        let mut waiting: BTreeMap<u32, Played> = BTreeMap::new();
        let mut next_to_fold = plan.first_game;
        for (i, result) in receiver {
            match result {
                Ok(played) => {
                    waiting.insert(i, played);
                }
                Err(e) => {
                    failure.get_or_insert(e);
                    halt.store(true, Ordering::SeqCst);
                }
            }
            if halt.load(Ordering::SeqCst) {
                continue;
            }
            let mut folded_any = false;
            while let Some(played) = waiting.remove(&next_to_fold) {
                report.fold(&played);
                if let Some(out) = rows.as_deref_mut() {
                    for row in std::iter::once(&played.game).chain(&played.ablated) {
                        let line = serde_json::to_string(row).expect("a game row serializes");
                        if let Err(e) = writeln!(out, "{line}") {
                            failure.get_or_insert(format!("cannot write a game's row: {e}"));
                            halt.store(true, Ordering::SeqCst);
                        }
                    }
                }
                next_to_fold += 1;
                folded_any = true;
                let done = next_to_fold - plan.first_game;
                if let Some(progress) = progress.as_deref_mut() {
                    progress(done, plan.games);
                }
                if report.sprt_decided() || stop_after.is_some_and(|n| done >= n) {
                    halt.store(true, Ordering::SeqCst);
                    break;
                }
            }
            if let (Some((path, every)), true) = (&partial, folded_any)
                && last_write.elapsed() >= *every
            {
                if let Some(out) = rows.as_deref_mut() {
                    let _ = out.flush();
                }
                if let Err(e) = write_report(path, &unfinished(&report)) {
                    failure.get_or_insert(e);
                    halt.store(true, Ordering::SeqCst);
                }
                last_write = Instant::now();
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    if let Some(out) = rows {
        out.flush().map_err(|e| format!("cannot write the games' rows: {e}"))?;
    }
    let held = report.counts.games;
    if report.meta.stopped.is_none() && held < u64::from(plan.games) {
        report.meta.stopped = Some(format!("interrupted after {held} of {} games", plan.games));
    }
    if let Some((path, _)) = &partial {
        write_report(path, &report)?;
    }
    Ok(report)
}

/// Two plans that differ only in their content, played on the same deals, with their games' rows.
pub struct SideBySide {
    pub base: Report,
    pub other: Report,
    pub base_rows: Vec<GameRow>,
    pub other_rows: Vec<GameRow>,
}

/// Plays `base` and `other` (the same plan on other content: `--against-deck`,
/// `--against-root`) on the same deals, in chunks of games, and folds both in
/// game order. `test`, when given, is told each pair of games in game order
/// and the run stops at the first game after which it decides, so the stop is
/// the same on any number of threads. `progress` is told (games done, games planned).
pub fn run_side_by_side(
    base: &Plan,
    other: &Plan,
    mut test: Option<&mut paired::FigureSprt>,
    progress: &mut dyn FnMut(u32, u32),
) -> Result<SideBySide, String> {
    let plain = |plan: &Plan| Plan { ablate: Vec::new(), sprt: None, ..plan.clone() };
    let (base, other) = (plain(base), plain(other));
    let report = |plan: &Plan| -> Result<Report, String> {
        let engine = ScriptEngine::load(&plan.root, &plan.deck).map_err(|p| p.to_string())?;
        Ok(Report::new(plan, engine.content()))
    };
    let mut out =
        SideBySide { base: report(&base)?, other: report(&other)?, base_rows: Vec::new(), other_rows: Vec::new() };
    let end = base.first_game.checked_add(base.games).ok_or("--first-game + --games is past the last game index")?;
    let chunk = if test.is_some() { 16 } else { 64 } * base.threads.max(1) as u32;
    let mut at = base.first_game;
    'chunks: while at < end {
        let n = chunk.min(end - at);
        let mut rows: [Vec<GameRow>; 2] = Default::default();
        for (plan, rows) in [&base, &other].into_iter().zip(rows.iter_mut()) {
            let mut lines = Vec::new();
            run(&Plan { first_game: at, games: n, ..plan.clone() }, Sinks { rows: Some(&mut lines), ..Sinks::none() })?;
            *rows = String::from_utf8_lossy(&lines).lines().map(read_row).collect::<Result<_, _>>()?;
        }
        let [base_rows, other_rows] = rows;
        for (x, y) in base_rows.into_iter().zip(other_rows) {
            out.base.fold(&Played { game: x.clone(), ablated: Vec::new() });
            out.other.fold(&Played { game: y.clone(), ablated: Vec::new() });
            let decided = test.as_deref_mut().map(|t| {
                t.add(&x, &y);
                t.state()
            });
            out.base_rows.push(x);
            out.other_rows.push(y);
            progress(out.base_rows.len() as u32, base.games);
            if let Some(state) = decided.filter(|s| *s != SprtState::Continue) {
                let h = if state == SprtState::AcceptH1 { "H1" } else { "H0" };
                let why = format!("sprt on {}: {h} accepted", test.as_ref().map_or(String::new(), |t| t.figure.name()));
                out.base.meta.stopped = Some(why.clone());
                out.other.meta.stopped = Some(why);
                break 'chunks;
            }
        }
        at += n;
    }
    Ok(out)
}

/// The report as written while the run goes: if the run is killed, the file
/// says the run did not finish, and after how many games.
fn unfinished(report: &Report) -> Report {
    let mut report = report.clone();
    if report.meta.stopped.is_none() {
        let (held, games) = (report.counts.games, report.meta.games);
        report.meta.stopped =
            Some(format!("unfinished: written after {held} of {games} games while the run went (killed?)"));
    }
    report
}

/// Writes a report's JSON to `path` atomically, as saves are written
/// ([`crate::session::write_safely`]: a new temporary file of a random name
/// beside it, links not followed, synced, then renamed over it), so a reader
/// (or an interruption) never sees half a file.
pub fn write_report(path: &Path, report: &Report) -> Result<(), String> {
    let text = serde_json::to_string_pretty(report).map_err(|e| e.to_string())? + "\n";
    crate::session::write_safely(path, text.as_bytes()).map_err(|e| e.to_string())
}

/// Plays game `index` of the plan again and saves it as a game the REPL
/// (`--load`) and `replay` read; returns its row.
pub fn save_game(plan: &Plan, index: u32, path: &Path) -> Result<GameRow, String> {
    let engine = ScriptEngine::load(&plan.root, &plan.deck).map_err(|p| p.to_string())?;
    let mut decisions = Vec::new();
    let mut row = play_one(&engine, plan, index, None, Some(&mut decisions))?;
    row.content = report::content_hash(engine.content());
    let mut session = crate::session::Session::new(&plan.root, &plan.deck, row.seed)?;
    for (n, choice) in decisions.iter().enumerate() {
        session.apply(choice).map_err(|e| format!("game {index}: decision {} does not replay: {e}", n + 1))?;
    }
    let name = |side: &str| side.parse::<AgentSpec>().map_or_else(|_| side.to_string(), |s| s.name);
    let seats = BTreeMap::from([(row.a_colour, name(&plan.a)), (!row.a_colour, name(&plan.b))]);
    session.save(path, seats)?;
    Ok(row)
}

/// The words of a row's replay command that say which run it belongs to
/// (players, seed, seating): without the deck and the content root, whose
/// spelling differs from machine to machine (the content hash says which
/// content), and without the game's own index and file.
fn run_words(replay: &str) -> String {
    let mut words = Vec::new();
    let mut it = replay.split(' ');
    while let Some(word) = it.next() {
        match word {
            "--root" | "--deck" => {
                // A quoted path may hold spaces: skip to its closing quote.
                let mut path = it.next().unwrap_or_default().to_string();
                while path.starts_with('\'') && (path.len() < 2 || !path.ends_with('\'')) {
                    let Some(more) = it.next() else { break };
                    path = format!("{path} {more}");
                }
            }
            "--save-game" => break,
            _ => words.push(word),
        }
    }
    words.join(" ")
}

/// Merges the `--games-out` files of parts of one run (`simulate
/// merge-games`): every line, as written, in game order (a game's ablation
/// rows stay after it). Refuses, naming the file and line, a line that is not
/// a game's row, rows of another content (`content`) or another run (the
/// replay command's players and seed), and a game in two files.
/// `files` are (name, text) pairs.
pub fn merge_games(files: &[(String, String)]) -> Result<String, String> {
    // (index, file number, line number) → line, and the run they belong to.
    let mut lines: Vec<(u32, usize, usize, &str)> = Vec::new();
    // The first row's place and content; the first replay command's place and run.
    let mut first: Option<(String, String)> = None;
    let mut first_run: Option<(String, String)> = None;
    // Which file (by its place in `files`) each game is in.
    let mut owner: BTreeMap<u32, usize> = BTreeMap::new();
    for (f, (name, text)) in files.iter().enumerate() {
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let at = format!("{name}, line {}", n + 1);
            let row = report::read_row(line).map_err(|e| format!("{at}: not a game's row ({e})"))?;
            if row.content.is_empty() {
                return Err(format!("{at}: the row has no content hash (written by an older version); run it again"));
            }
            match &first {
                None => first = Some((at.clone(), row.content.clone())),
                Some((first_at, content)) if *content != row.content => {
                    return Err(format!(
                        "{at}: not part of the same run as {first_at}: its content hash is '{}', not '{content}'",
                        crate::text::visible(&row.content)
                    ));
                }
                Some(_) => {}
            }
            if let Some(run) = row.replay.as_deref().map(run_words) {
                match &first_run {
                    None => first_run = Some((at.clone(), run)),
                    Some((first_at, first)) if *first != run => {
                        let (run, first) = (crate::text::visible(&run), crate::text::visible(first));
                        return Err(format!(
                            "{at}: not part of the same run as {first_at}: it was played by '{run}', not '{first}'"
                        ));
                    }
                    Some(_) => {}
                }
            }
            match owner.get(&row.index) {
                Some(&other) if other != f => {
                    let other = &files[other].0;
                    return Err(format!("{at}: game {} is also in {other}; each game may be merged once", row.index));
                }
                _ => {
                    owner.insert(row.index, f);
                }
            }
            lines.push((row.index, f, n, line));
        }
    }
    lines.sort_by_key(|&(index, f, n, _)| (index, f, n));
    Ok(lines.iter().map(|l| format!("{}\n", l.3)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_are_written_as_before_and_read_back() {
        let endings = [
            (Ending::Capture, "capture"),
            (Ending::FiveKings, "five kings"),
            (Ending::Planet("jupiter".into()), "planet jupiter"),
            (Ending::Planet("?".into()), "planet ?"),
            (Ending::NoMoves, "no moves"),
            (Ending::Stuck, "opponent stuck"),
            (Ending::MoveLimit, "move limit"),
            (Ending::Resigned, "resigned"),
            (Ending::Agreed, "agreed draw"),
            (Ending::Rule("total".into()), "rule total"),
            (Ending::Unscored, "unscored"),
            (Ending::Abandoned("Dark had no choice".into()), "abandoned: Dark had no choice"),
        ];
        for (ending, text) in endings {
            assert_eq!(ending.to_string(), text);
            assert_eq!(serde_json::to_string(&ending).unwrap(), format!("\"{text}\""));
            assert_eq!(serde_json::from_str::<Ending>(&format!("\"{text}\"")).unwrap(), ending);
            assert_eq!(ending.is_abandoned(), text.starts_with("abandoned"));
        }
        assert!("checkmate".parse::<Ending>().is_err());
        assert_eq!(serde_json::to_string(&[Some(Side::A), Some(Side::B), None]).unwrap(), r#"["A","B",null]"#);
    }
}
