//! A game being played: the engine, the state, and the record that rebuilds it
//! (ENGINEERING.md invariant 2: a game is its deck, its scripts' hashes, its seed
//! and its decisions). Undo, save, load and reload all replay that record.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::content::ContentRoot;
use crate::game::{Answer, CardHost, Choice, DecisionKind, EndReason, GameState, Outcome};
use crate::kernel::Player;
use crate::script::ScriptEngine;

/// The save format's name and version; a newer version is refused.
pub const SAVE_FORMAT: &str = "alien-checkers-save";
pub const SAVE_VERSION: u32 = 1;
/// Largest save file read.
const MAX_SAVE_BYTES: u64 = 16 * 1024 * 1024;

/// What a save file holds. Never code: decisions are written as the options were
/// shown (`c3-d4`, `card water`, `answer d4`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub format: String,
    pub version: u32,
    /// The deck by name or path.
    pub deck: String,
    /// Content hash of every manifest and script, by file.
    pub hashes: BTreeMap<String, u64>,
    pub seed: u64,
    /// Who sits where (`human`, `random`, a computer level); informational for loaders.
    #[serde(default)]
    pub seats: BTreeMap<Player, String>,
    pub decisions: Vec<String>,
}

/// A game with its engine and its decisions so far.
pub struct Session {
    pub engine: ScriptEngine,
    deck: String,
    seed: u64,
    state: GameState,
    decisions: Vec<Choice>,
    /// Who made each decision.
    deciders: Vec<Player>,
    log: Vec<String>,
}

/// How a loaded or reloaded record compares with the scripts it now runs on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replay {
    /// Files whose content changed since the record was made.
    pub changed: Vec<String>,
    /// The first decision that could not be replayed, with why (the game stops there).
    pub diverged: Option<(usize, String)>,
}

impl Session {
    /// Deals a new game of `deck` with `seed`.
    pub fn new(root: &ContentRoot, deck: &str, seed: u64) -> Result<Session, String> {
        let engine = ScriptEngine::load(root, deck).map_err(|p| p.to_string())?;
        let mut state = GameState::new(&engine.content().setup(), seed);
        state.settle(&engine);
        Ok(Session {
            engine,
            deck: deck.to_string(),
            seed,
            state,
            decisions: Vec::new(),
            deciders: Vec::new(),
            log: Vec::new(),
        })
    }

    pub fn state(&self) -> &GameState {
        &self.state
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn deck(&self) -> &str {
        &self.deck
    }

    pub fn decisions(&self) -> &[Choice] {
        &self.decisions
    }

    /// Human-readable lines, one per decision, oldest first.
    pub fn log(&self) -> &[String] {
        &self.log
    }

    /// Takes one option of the pending decision; returns the log line.
    pub fn apply(&mut self, choice: &Choice) -> Result<String, String> {
        let who = self.state.to_move;
        let kind = self.state.pending(&self.engine).map(|d| d.kind);
        self.state.apply(&self.engine, choice).map_err(|e| e.to_string())?;
        self.decisions.push(choice.clone());
        self.deciders.push(who);
        let line = self.describe(who, kind, choice);
        self.log.push(line.clone());
        Ok(line)
    }

    /// How a decision reads in the log: `Dark moves c3-d4`, `Light uses Water`.
    pub fn describe(&self, who: Player, kind: Option<DecisionKind>, choice: &Choice) -> String {
        match (kind, choice) {
            (_, Choice::Move(m)) => format!("{who} moves {m}"),
            (_, Choice::Card(c)) => format!("{who} uses {}", self.card_name(*c)),
            (_, Choice::Answer(a)) => format!("{who} answers {a}"),
        }
    }

    pub fn card_name(&self, card: crate::game::CardId) -> String {
        self.engine.content().card(card).map_or_else(|| format!("card #{}", card.0), |c| c.manifest.name.clone())
    }

    /// The text a decision is saved as, the way its option is offered.
    pub fn choice_text(&self, choice: &Choice) -> String {
        match choice {
            Choice::Move(m) => m.to_string(),
            Choice::Card(c) => format!("card {}", self.engine.content().card(*c).map_or("?", |d| d.id.as_str())),
            Choice::Answer(a) => format!("answer {a}"),
        }
    }

    /// The pending option written as `text`, if there is one.
    pub fn find_choice(&self, text: &str) -> Option<Choice> {
        let decision = self.state.pending(&self.engine)?;
        decision.options.into_iter().find(|c| self.choice_text(c) == text)
    }

    /// Who made each decision so far.
    pub fn deciders(&self) -> &[Player] {
        &self.deciders
    }

    /// Goes back `n` decisions by replaying the rest from the deal; returns how
    /// many were taken back.
    pub fn undo(&mut self, n: usize) -> usize {
        let before = self.decisions.len();
        let keep = before.saturating_sub(n);
        let decisions: Vec<Choice> = self.decisions[..keep].to_vec();
        self.restart();
        for choice in &decisions {
            if self.apply(choice).is_err() {
                break;
            }
        }
        before - self.decisions.len()
    }

    fn restart(&mut self) {
        self.state = GameState::new(&self.engine.content().setup(), self.seed);
        self.state.settle(&self.engine);
        self.decisions.clear();
        self.deciders.clear();
        self.log.clear();
    }

    /// Starts a new game of the same deck.
    pub fn new_game(&mut self, seed: u64) {
        self.seed = seed;
        self.restart();
    }

    /// The record that rebuilds this game.
    pub fn record(&self, seats: BTreeMap<Player, String>) -> Record {
        Record {
            format: SAVE_FORMAT.into(),
            version: SAVE_VERSION,
            deck: self.deck.clone(),
            hashes: self.engine.content().hashes(),
            seed: self.seed,
            seats,
            decisions: self.decisions.iter().map(|c| self.choice_text(c)).collect(),
        }
    }

    /// Writes the record atomically: a temporary file in the same folder, flushed
    /// to disk, then renamed over `path`. A crash leaves the old save whole.
    pub fn save(&self, path: &Path, seats: BTreeMap<Player, String>) -> Result<(), String> {
        let text = serde_json::to_string_pretty(&self.record(seats)).map_err(|e| e.to_string())?;
        write_atomically(path, text.as_bytes(), &mut |_| Ok(()))
    }

    /// Reads a save and replays it on the scripts as they are now.
    pub fn load(root: &ContentRoot, path: &Path) -> Result<(Session, Replay, Record), String> {
        let record = read_record(path)?;
        let mut session = Session::new(root, &record.deck, record.seed)?;
        let replay = session.replay(&record);
        Ok((session, replay, record))
    }

    /// Replays `record`'s decisions from the deal, stopping at the first that no
    /// longer applies.
    pub fn replay(&mut self, record: &Record) -> Replay {
        let now = self.engine.content().hashes();
        let mut changed: Vec<String> = record
            .hashes
            .iter()
            .filter(|(file, hash)| now.get(*file) != Some(hash))
            .map(|(file, _)| file.clone())
            .collect();
        changed.extend(now.keys().filter(|f| !record.hashes.contains_key(*f)).cloned());
        self.restart();
        let mut diverged = None;
        for (i, text) in record.decisions.iter().enumerate() {
            let Some(choice) = self.find_choice(text) else {
                let offered = self.state.pending(&self.engine).map_or_else(
                    || "the game was already over".to_string(),
                    |d| {
                        format!(
                            "offered: {}",
                            d.options.iter().map(|c| self.choice_text(c)).collect::<Vec<_>>().join(", ")
                        )
                    },
                );
                diverged = Some((i + 1, format!("decision {} '{text}' is not possible now ({offered})", i + 1)));
                break;
            };
            if let Err(e) = self.apply(&choice) {
                diverged = Some((i + 1, format!("decision {} '{text}' failed: {e}", i + 1)));
                break;
            }
        }
        Replay { changed, diverged }
    }

    /// Reloads the scripts from disk and replays this game's decisions on them.
    pub fn reload(&mut self) -> Result<Replay, String> {
        let record = self.record(BTreeMap::new());
        self.engine.reload().map_err(|p| p.to_string())?;
        Ok(self.replay(&record))
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }

    /// `Dark wins: Venus (four snookles)…` style summary of how the game ended.
    pub fn describe_outcome(&self, outcome: &Outcome) -> String {
        let how = match outcome.reason {
            EndReason::Capture => "the opponent has no checker left (R10.1)".to_string(),
            EndReason::FiveKings => "five kings and emperors on the board (R10.1)".to_string(),
            EndReason::Planet(p) => {
                let planet = self.engine.content().planet(p);
                format!("planet {} holds (R9)", planet.map_or("?", |p| p.manifest.name.as_str()))
            }
            EndReason::NoMoves => "neither player can move (R10.3)".to_string(),
            EndReason::Stuck => "the opponent cannot move (R11)".to_string(),
            EndReason::MoveLimit => format!("the move limit of {} turns (R10.4)", self.state.rules.move_limit),
        };
        match outcome.winner {
            Some(p) => format!("{p} wins: {how}"),
            None => format!("Draw: {how}"),
        }
    }

    /// A player's planet name and text, for `planet` and the end of the game.
    pub fn planet_text(&self, player: Player) -> Option<(String, String)> {
        let p = self.engine.content().planet(self.state.planet(player)?)?;
        Some((p.manifest.name.clone(), p.manifest.text.clone()))
    }

    /// Errors from `can_play` and planet checks since the last call.
    pub fn script_errors(&self) -> Vec<String> {
        self.engine.take_errors()
    }

    pub fn host(&self) -> &dyn CardHost {
        &self.engine
    }

    /// The answer `text` means for the pending question, if any.
    pub fn parse_answer(&self, text: &str) -> Option<Answer> {
        let decision = self.state.pending(&self.engine)?;
        decision.options.into_iter().find_map(|c| match c {
            Choice::Answer(a) if a.to_string().eq_ignore_ascii_case(text) => Some(a),
            _ => None,
        })
    }
}

/// Reads and checks a save file: size, format, version, fields.
pub fn read_record(path: &Path) -> Result<Record, String> {
    let meta = fs::metadata(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if meta.len() > MAX_SAVE_BYTES {
        return Err(format!("{} is {} bytes, more than a save can be", path.display(), meta.len()));
    }
    let text = fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a save (corrupt or truncated): {e}", path.display()))?;
    if value.get("format").and_then(|f| f.as_str()) != Some(SAVE_FORMAT) {
        return Err(format!("{} is not an alien-checkers save", path.display()));
    }
    match value.get("version").and_then(|v| v.as_u64()) {
        Some(v) if v > u64::from(SAVE_VERSION) => {
            return Err(format!(
                "{} was written by a newer version (save format {v}; this program reads up to {SAVE_VERSION})",
                path.display()
            ));
        }
        Some(_) => {}
        None => return Err(format!("{} has no save format version", path.display())),
    }
    serde_json::from_value(value).map_err(|e| format!("{} is damaged: {e}", path.display()))
}

/// Writes `bytes` to a temporary file beside `path`, syncs it, and renames it over
/// `path`. `fail_after` lets tests break the write partway (it sees the bytes
/// written so far); a failure removes the temporary file and leaves `path` alone.
pub fn write_atomically(
    path: &Path,
    bytes: &[u8],
    fail_after: &mut dyn FnMut(usize) -> std::io::Result<()>,
) -> Result<(), String> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().ok_or_else(|| format!("{} is not a file name", path.display()))?;
    let tmp: PathBuf = dir.join(format!(".{}.tmp-{}", name.to_string_lossy(), std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut file = File::create(&tmp)?;
        for chunk in bytes.chunks(4096) {
            file.write_all(chunk)?;
            fail_after(chunk.len())?;
        }
        file.sync_all()?;
        fs::rename(&tmp, path)?;
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        format!("cannot save to {}: {e}", path.display())
    })
}
