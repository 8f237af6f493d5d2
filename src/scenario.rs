//! Scenario files: a card or planet tested in isolation (`<id>.test.yaml` beside
//! its manifest). A scenario draws a board, sets any other state the script needs,
//! gives the answers to the card's questions in order, and says what must follow.
//!
//! ```yaml
//! card: water
//! scenarios:
//!   - name: fills an empty square (R8.1)
//!     board: |
//!       ...diagram (see src/diagram.rs)...
//!     answers: [fill, d4]
//!     expect:
//!       board: |
//!         ...
//! ```
//!
//! A scenario fails if the card asks a question its answers do not cover (unless
//! `expect.question` names it), if an answer is not among the options asked, or if
//! an answer is left over because no question asked for it.
//!
//! A *whole-turn* scenario gives `decisions` instead of `answers`: moves, cards
//! and answers of both players, played through the game's own decision loop
//! (`GameState::apply`) from the scene, with `point`s between them where the
//! game is checked, and `expect` checked at the end (the board, the events, the
//! winner and why). A file that names neither a card nor a planet holds only
//! whole-turn scenarios (the turn rules, R3 and R10).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::choice_text::Unread;
use crate::content::{Content, ContentRoot, Problems, problem_parse_yaml};
use crate::diagram;
use crate::game::{
    ActsFor, Affected, Answer, CardId, Catalogue, Choice, Constraint, CounterId, Data, DecisionKind, Effect, EventKind,
    EventLog, Face, GameState, ItemId, Items, Lasting, Logged, Moved, Pile, Place, Resolution, Step, ZoneId,
};
use crate::kernel::{Bitboard, Dir, MoveRules, Orientation, Player, Square, Supply, Unrecorded};
use crate::narrate::Narrator;
use crate::script::ScriptEngine;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// The card under test (a card id), or
    #[serde(default)]
    pub card: Option<String>,
    /// the planet under test (a planet id).
    #[serde(default)]
    pub planet: Option<String>,
    /// The deck whose supply and cards set the scene (default `standard`).
    #[serde(default)]
    pub deck: Option<String>,
    pub scenarios: Vec<Scenario>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    /// The deck of this scenario, if not the file's: by name, or as a path
    /// relative to the scenario file.
    #[serde(default)]
    pub deck: Option<String>,
    /// Start from this seed's deal (R2): its board, planets, piles and the
    /// deal's hooks; what the scenario gives besides is then set on it.
    #[serde(default)]
    pub deal: Option<u64>,
    /// The board as a diagram (required unless `deal` gives it).
    #[serde(default)]
    pub board: Option<String>,
    /// Who uses the card (default dark).
    #[serde(default)]
    pub to_move: Option<Player>,
    /// For planets: whose condition is checked (default `to_move`).
    #[serde(default)]
    pub player: Option<Player>,
    /// Dark's forward direction (R2.2; default n).
    #[serde(default, deserialize_with = "cardinal")]
    pub orientation: Option<Dir>,
    /// Pieces in reserve (default: 12 less those on the board).
    #[serde(default)]
    pub reserve: Option<BTreeMap<Player, u8>>,
    /// Pieces in the deck's pools by name (`{dark: {captured: 3}}`; default: none).
    #[serde(default)]
    pub pools: Option<PoolCounts>,
    /// The deck's items: exactly those written, on squares and in zones, the
    /// rest out of play (default: each in its start zone, or the deal's).
    #[serde(default)]
    pub items: Option<ItemsSpec>,
    /// Tokens left in the supply (default: the deck's less those on the board).
    #[serde(default)]
    pub supply: Option<SupplyCounts>,
    #[serde(default)]
    pub counters: Option<BTreeMap<Player, BTreeMap<String, u32>>>,
    /// The checker moved this turn (R8.11).
    #[serde(default)]
    pub moved: Option<Moved>,
    /// Card ids in the piles (default: the card face up, the rest of the deck to draw).
    #[serde(default)]
    pub draw: Option<Vec<String>>,
    #[serde(default)]
    pub face_up: Option<Vec<String>>,
    #[serde(default)]
    pub discard: Option<Vec<String>>,
    /// Answers to the card's questions, in order, as written in the REPL.
    #[serde(default)]
    pub answers: Vec<String>,
    /// A whole-turn scenario: decisions of both players, as typed (`c3-d4`, a
    /// card's id, an answer in board terms), and points where the game is checked.
    #[serde(default)]
    pub decisions: Option<Vec<Play>>,
    /// Whole-turn: the step the scene starts at (default `move`).
    #[serde(default)]
    pub step: Option<StartStep>,
    /// Whole-turn: squares of the checkers that must move this turn if able (R4.8).
    #[serde(default)]
    pub constraint: Option<Vec<Square>>,
    /// Whole-turn: the same for the opponent's next turn.
    #[serde(default)]
    pub next_constraint: Option<Vec<Square>>,
    /// Whole-turn: each player's secret planet (R2.3), by planet id.
    #[serde(default)]
    pub planets: Option<BTreeMap<Player, String>>,
    /// Whole-turn: the number of the turn the scene is in, counted as
    /// `ctx:turn()` and events count it (the first turn is 1; default 1).
    #[serde(default)]
    pub turn: Option<u32>,
    /// Each player's planet's own data (game/deal.rs), as its script keeps it.
    #[serde(default)]
    pub planet_data: Option<BTreeMap<Player, Data>>,
    /// Lasting effects in force in the scene (made before it began).
    #[serde(default)]
    pub effects: Vec<EffectSpec>,
    /// What must hold at the end (nothing more than that the card or the
    /// decisions run through, when left out).
    #[serde(default)]
    pub expect: Expect,
}

/// A lasting effect in a scene, as a card's script would have made it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EffectSpec {
    /// The card that made it (its id).
    pub card: String,
    pub owner: Player,
    /// Whose moves it changes (default: its owner's).
    #[serde(default)]
    pub affects: Option<Affected>,
    #[serde(default)]
    pub moves: MovesSpec,
    /// A number of its owner's turns still to come, `game`, or `{ends_at: kind}`.
    pub lasts: LastsSpec,
    /// The effect's own data, as its script keeps it.
    #[serde(default)]
    pub data: Data,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovesSpec {
    #[serde(default)]
    pub pawns_step_back: bool,
    #[serde(default)]
    pub closed: Vec<Square>,
    #[serde(default)]
    pub capture_optional: bool,
    #[serde(default)]
    pub pawns: crate::kernel::PieceMoves,
    #[serde(default)]
    pub kings: crate::kernel::PieceMoves,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum LastsSpec {
    Turns(u32),
    Game(GameWord),
    Until { ends_at: String },
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameWord {
    Game,
}

/// Where a whole-turn scene starts.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum StartStep {
    Move,
    Card,
}

/// One item of a whole-turn scenario: a decision as typed, or a named point
/// where the game is checked.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Play {
    Decision(String),
    Point(Box<Point>),
    Refused(Box<Refusal>),
}

/// A decision that must be refused, with nothing changed: `refused` as typed,
/// `because` a part of the reason given.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Refusal {
    pub refused: String,
    pub because: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Point {
    /// What the point is called in failure messages ("after Light's reply").
    pub point: String,
    pub expect: Expect,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The board after the card.
    #[serde(default)]
    pub board: Option<String>,
    /// The card fails with a message containing this.
    #[serde(default)]
    pub error: Option<String>,
    /// The card stops at a question whose prompt contains this.
    #[serde(default)]
    pub question: Option<String>,
    /// With `question`: exactly these options, in order. In a whole-turn
    /// scenario: the pending decision's options (moves, card ids, answers).
    #[serde(default)]
    pub options: Option<Vec<String>>,
    /// `can_play` says this (R8.0, R8.19).
    #[serde(default)]
    pub playable: Option<bool>,
    /// For planets: the condition holds.
    #[serde(default)]
    pub holds: Option<bool>,
    /// For planets: `progress` says this, to the decimals written (0.67 is
    /// 0.665 to 0.675).
    #[serde(default)]
    pub progress: Option<f64>,
    #[serde(default)]
    pub reserve: Option<BTreeMap<Player, u8>>,
    /// Pieces in the deck's pools; only the pools named are compared.
    #[serde(default)]
    pub pools: Option<PoolCounts>,
    /// The deck's items; only the squares and zones written are compared.
    #[serde(default)]
    pub items: Option<ItemsSpec>,
    /// Tokens left in the supply; only the kinds named are compared.
    #[serde(default)]
    pub supply: Option<SupplyCounts>,
    #[serde(default)]
    pub counters: Option<BTreeMap<Player, BTreeMap<String, u32>>>,
    /// Each player's planet's own data, compared whole for the players named.
    #[serde(default)]
    pub planet_data: Option<BTreeMap<Player, Data>>,
    #[serde(default, deserialize_with = "cardinal")]
    pub orientation: Option<Dir>,
    /// Squares the opponent must move from next turn (R4.8).
    #[serde(default)]
    pub constraint: Option<Vec<Square>>,
    #[serde(default)]
    pub draw: Option<Vec<String>>,
    #[serde(default)]
    pub face_up: Option<Vec<String>>,
    #[serde(default)]
    pub discard: Option<Vec<String>>,
    /// What the card's user is told, line by line, in their frame (narrate.rs):
    /// directions as the board is drawn for them, "your" for their checkers.
    /// In a whole-turn scenario: everything told since the previous point, in the
    /// frame of the player who started the scene.
    #[serde(default)]
    pub narration: Option<Vec<String>>,
    /// Whole-turn: none of these events (`kind` or `kind by cause`) happened
    /// since the previous point.
    #[serde(default)]
    pub no_events: Option<Vec<String>>,
    /// Whole-turn: each player was told these lines, in this order among
    /// others, since the previous point: the decisions as the log tells them
    /// and the narration in that player's frame.
    #[serde(default)]
    pub told: Option<BTreeMap<Player, Vec<String>>>,
    /// Whole-turn: nothing told to each player since the previous point holds
    /// any of these texts (a secret planet, a secret answer).
    #[serde(default)]
    pub not_told: Option<BTreeMap<Player, Vec<String>>>,
    /// Whole-turn: these event kinds (cards/README.md, "Events") happened in this order
    /// since the previous point, among others; `kind by cause` also names the
    /// cause (`turn`, `card <id>`, `effect <card id>`, `rule <card id>`, `planet <id>`).
    #[serde(default)]
    pub events: Option<Vec<String>>,
    /// Whole-turn: the game is over and this player won (`dark`, `light`), or
    /// `draw` (R10).
    #[serde(default)]
    pub winner: Option<String>,
    /// Whole-turn: why it ended: `capture`, `five_kings`, `planet`, `no_moves`,
    /// `stuck`, `move_limit`, `unplayable` (R10), `unscored`, or one of the
    /// deck's victories (cards/README.md, "Endings as deck rules").
    #[serde(default)]
    pub reason: Option<String>,
    /// Whole-turn: whose decision is pending (the game is not over).
    #[serde(default)]
    pub to_move: Option<Player>,
    /// Whole-turn: which decision is pending: `move`, `card` or `question`.
    #[serde(default)]
    pub pending: Option<String>,
    /// The lasting effects in force, by card id, oldest first (`[]`: none).
    #[serde(default)]
    pub effects: Option<Vec<String>>,
}

/// Supply counts in a scenario; each kind is optional. Walls are per player.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SupplyCounts {
    #[serde(default)]
    pub walls: Option<BTreeMap<Player, u8>>,
    #[serde(default)]
    pub rings: Option<u8>,
    #[serde(default)]
    pub snookles: Option<u8>,
    #[serde(default)]
    pub hippos: Option<u8>,
    #[serde(default)]
    pub water: Option<u8>,
    #[serde(default)]
    pub fire: Option<u8>,
    #[serde(default)]
    pub monolith: Option<u8>,
    /// Markers of the deck's own kinds left, by kind name.
    #[serde(default)]
    pub markers: Option<BTreeMap<String, u8>>,
}

impl SupplyCounts {
    /// The marker kinds named, with their counts.
    fn marker_counts(&self, content: &Content) -> Result<Vec<(crate::kernel::MarkerKind, u8)>, String> {
        let mut out = Vec::new();
        for (name, &n) in self.markers.iter().flatten() {
            let def = content.marker(name).ok_or_else(|| {
                let known: Vec<String> = content.markers().iter().map(|m| m.name().to_string()).collect();
                format!("supply: no marker kind is called '{name}' in this deck ({})", known.join(", "))
            })?;
            out.push((def.kind, n));
        }
        Ok(out)
    }

    /// `supply` with the counts named here put in.
    fn apply(&self, mut supply: Supply) -> Supply {
        for (&p, &n) in self.walls.iter().flatten() {
            supply.walls[p.index()] = n;
        }
        let set = |slot: &mut u8, v: Option<u8>| {
            if let Some(v) = v {
                *slot = v;
            }
        };
        set(&mut supply.rings, self.rings);
        set(&mut supply.snookles, self.snookles);
        set(&mut supply.hippos, self.hippos);
        set(&mut supply.water, self.water);
        set(&mut supply.fire, self.fire);
        set(&mut supply.monolith, self.monolith);
        supply
    }
}

/// The result of one scenario. Its name and failure are made visible
/// (text.rs): a scenario file is a mod's, and what it says is quoted in them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub file: PathBuf,
    pub name: String,
    /// `None` when it passed; otherwise what differed, a line each.
    pub failure: Option<String>,
}

impl Outcome {
    fn new(file: &Path, name: &str, failure: Option<String>) -> Outcome {
        let failure = failure.map(|f| f.lines().map(visible).collect::<Vec<_>>().join("\n"));
        Outcome { file: file.into(), name: visible(name).into_owned(), failure }
    }
}

/// Text a scenario gives (a decision, an answer, an expected line) as a
/// failure quotes it: made visible, on its line.
fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    crate::text::visible(text)
}

/// Lines a scenario gives, each made visible, joined by `with`.
fn visible_all(lines: &[String], with: &str) -> String {
    lines.iter().map(|l| visible(l)).collect::<Vec<_>>().join(with)
}

/// Every `*.test.yaml` under `paths` (files or folders), sorted.
pub fn find_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut entries: Vec<PathBuf> =
                std::fs::read_dir(path).into_iter().flatten().flatten().map(|e| e.path()).collect();
            entries.sort();
            for entry in entries {
                if entry.is_dir() {
                    out.extend(find_files(&[entry]));
                } else if entry.to_string_lossy().ends_with(".test.yaml") {
                    out.push(entry);
                }
            }
        } else {
            out.push(path.clone());
        }
    }
    out
}

/// Runs every scenario of one file. A file that cannot be read is one failure.
pub fn run_file(root: &ContentRoot, path: &Path) -> Vec<Outcome> {
    let fail = |name: &str, message: String| Outcome::new(path, name, Some(message));
    let mut problems = Problems::default();
    let Some(text) = problems.read_text(path, None) else { return vec![fail("(file)", problems.to_string())] };
    let file: ScenarioFile = match problem_parse_yaml(&text) {
        Ok(f) => f,
        Err(e) => {
            return vec![fail("(file)", format!("{}:{e}", path.display()))];
        }
    };
    if file.card.is_some() && file.planet.is_some() {
        return vec![fail("(file)", "name at most one of `card:` or `planet:`".into())];
    }
    // Each deck's engine is built once, for the scenarios that name it.
    let mut engines: BTreeMap<String, Result<(ScriptEngine, Subject), String>> = BTreeMap::new();
    let mut out = Vec::new();
    for s in &file.scenarios {
        let deck = match s.deck.as_ref().or(file.deck.as_ref()) {
            None => "standard".to_string(),
            Some(d) => match deck_beside(root, path, d) {
                Ok(deck) => deck,
                Err(e) => {
                    out.push(Outcome::new(path, &s.name, Some(e)));
                    continue;
                }
            },
        };
        let built = engines.entry(deck.clone()).or_insert_with(|| engine_for(root, &deck, &file));
        let failure = match built {
            Ok((engine, subject)) => run_one(engine, *subject, s).err(),
            Err(e) => Some(e.clone()),
        };
        out.push(Outcome::new(path, &s.name, failure));
    }
    out
}

/// A deck a scenario names: by name, or by a path taken from the scenario
/// file's folder. A path must lead inside the content root: it is refused,
/// unread, naming the scenario file and the path as written, when its
/// canonical form (links and `..` resolved) lies outside the root, so that a
/// scenario cannot have any file read and quoted in its failure. The canonical
/// path is what is loaded.
fn deck_beside(root: &ContentRoot, scenario: &Path, deck: &str) -> Result<String, String> {
    if !(deck.ends_with(".yaml") || deck.contains('/')) {
        return Ok(deck.to_string());
    }
    let folder = scenario.parent().unwrap_or(Path::new(""));
    let refuse = |why: String| format!("{}: deck '{}': {why}", scenario.display(), crate::text::visible(deck));
    let canonical = std::fs::canonicalize(folder.join(deck)).map_err(|e| refuse(format!("cannot be read: {e}")))?;
    if !root.holds(&canonical) {
        let shown = if root.path().as_os_str().is_empty() { Path::new(".") } else { root.path() };
        return Err(refuse(format!(
            "outside the content root {}; a scenario's deck must lie in it (a path from the scenario's folder, \
             or a deck's name)",
            shown.display()
        )));
    }
    Ok(canonical.display().to_string())
}

/// The engine of `deck` with the file's card or planet loaded, and the subject.
fn engine_for(root: &ContentRoot, deck: &str, file: &ScenarioFile) -> Result<(ScriptEngine, Subject), String> {
    let mut content = Content::load(root, deck).map_err(|p| format!("deck {deck}: {p}"))?;
    let mut problems = Problems::default();
    let subject = match (&file.card, &file.planet) {
        (Some(card), _) => content.load_card(card, &mut problems).map(Subject::Card),
        (_, Some(planet)) => content.load_planet(planet, &mut problems).map(Subject::Planet),
        (None, None) => Some(Subject::Rules),
    };
    let subject = subject.ok_or_else(|| problems.to_string())?;
    let engine = ScriptEngine::new(content).map_err(|p| p.to_string())?;
    Ok((engine, subject))
}

#[derive(Clone, Copy, Debug)]
enum Subject {
    Card(CardId),
    Planet(crate::game::PlanetId),
    /// The turn rules: whole-turn scenarios only.
    Rules,
}

fn ids(content: &Content, names: &[String]) -> Result<Vec<CardId>, String> {
    names.iter().map(|n| content.card_id(n).ok_or_else(|| format!("'{n}' is not a card of the deck"))).collect()
}

fn names(content: &Content, cards: &[CardId]) -> Vec<String> {
    cards.iter().map(|&c| content.card(c).map_or("?".into(), |d| d.id.clone())).collect()
}

/// An orientation: Dark's forward direction, one of the four a board can face
/// (R2.2), so that a diagonal is refused with the four, not the eight directions.
fn cardinal<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Dir>, D::Error> {
    let text = String::deserialize(d)?;
    match text.parse::<Dir>().ok().filter(|&dir| Orientation::with_dark_forward(dir).is_some()) {
        Some(dir) => Ok(Some(dir)),
        None => Err(serde::de::Error::custom(format!("'{text}' is not an orientation: n, e, s or w (R2.2)"))),
    }
}

/// Builds the scene a scenario describes.
/// Pieces per player per pool name.
pub type PoolCounts = BTreeMap<Player, BTreeMap<String, u8>>;

/// `items:` of a scene or an expectation: `squares: {c3: 7S, e5: QS up, d6:
/// 9C known}`, then each zone by name, a list for a shared zone or one per
/// player (`stockpile: {dark: [2H, 9S]}`), top first.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ItemsSpec {
    #[serde(default)]
    pub squares: BTreeMap<Square, String>,
    #[serde(flatten)]
    pub zones: BTreeMap<String, ZoneSpec>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum ZoneSpec {
    Shared(Vec<String>),
    PerPlayer(BTreeMap<Player, Vec<String>>),
}

/// A square's item as a scenario writes it: `7S` or `7S down` (face down,
/// unknown to both), `7S up`, `7S known` (face down, known to both); `none`
/// for no item (expectations only).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum SquareItem {
    None,
    Down(ItemId),
    Up(ItemId),
    Known(ItemId),
}

fn square_item(catalogue: &Catalogue, sq: Square, text: &str) -> Result<SquareItem, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let item = |id: &str| {
        catalogue
            .item_named(id)
            .ok_or_else(|| format!("items: {sq}: no {} of this deck is called '{id}'", catalogue.label))
    };
    match words.as_slice() {
        ["none"] => Ok(SquareItem::None),
        [id] | [id, "down"] => Ok(SquareItem::Down(item(id)?)),
        [id, "up"] => Ok(SquareItem::Up(item(id)?)),
        [id, "known"] => Ok(SquareItem::Known(item(id)?)),
        _ => Err(format!("items: {sq}: write an item's id, then up, down or known ('{text}')")),
    }
}

/// Each zone the spec names, with the items it lists, by (zone, owner).
/// A zone of a player (or shared) and the items a scenario lists for it.
type ZoneList = (ZoneId, Option<Player>, Vec<ItemId>);

fn zone_lists(catalogue: &Catalogue, spec: &ItemsSpec) -> Result<Vec<ZoneList>, String> {
    let mut out = Vec::new();
    for (name, zone_spec) in &spec.zones {
        let zone = catalogue.zone_named(name).ok_or_else(|| {
            let known: Vec<&str> = catalogue.zones.iter().map(|z| z.name.as_str()).collect();
            format!("items: '{name}' is not a zone of this deck ({}), nor squares", known.join(", "))
        })?;
        let ids = |list: &[String]| -> Result<Vec<ItemId>, String> {
            list.iter()
                .map(|id| {
                    catalogue
                        .item_named(id)
                        .ok_or_else(|| format!("items: {name}: no {} is called '{id}'", catalogue.label))
                })
                .collect()
        };
        match (zone_spec, catalogue.zone(zone).per_player) {
            (ZoneSpec::Shared(list), false) => out.push((zone, None, ids(list)?)),
            (ZoneSpec::PerPlayer(by), true) => {
                for (&p, list) in by {
                    out.push((zone, Some(p), ids(list)?));
                }
            }
            (ZoneSpec::Shared(_), true) => {
                return Err(format!("items: {name} is kept per player: give dark: and light:"));
            }
            (ZoneSpec::PerPlayer(_), false) => return Err(format!("items: {name} is shared: give one list")),
        }
    }
    Ok(out)
}

/// The items of a scene: exactly those `spec` writes, the rest out of play.
fn scene_items(content: &Content, start: Option<&Items>, spec: &ItemsSpec) -> Result<Items, String> {
    let (Some(catalogue), Some(start)) = (content.items(), start) else {
        return Err("items: this deck has no items".into());
    };
    let mut items = start.clone();
    for i in 0..catalogue.items.len() {
        let item = ItemId(i as u8);
        items.put(item, Place::OUT, true)?;
        items.set_known(item, [false; 2]);
    }
    let mut placed = Vec::new();
    let mut place = |item: ItemId, where_: String| -> Result<(), String> {
        if placed.contains(&item) {
            return Err(format!("items: {} is given twice ({where_})", catalogue.item(item).id));
        }
        placed.push(item);
        Ok(())
    };
    for (&sq, text) in &spec.squares {
        let (item, face, known) = match square_item(catalogue, sq, text)? {
            SquareItem::None => continue,
            SquareItem::Down(item) => (item, Face::Down, false),
            SquareItem::Up(item) => (item, Face::Up, true),
            SquareItem::Known(item) => (item, Face::Down, true),
        };
        place(item, sq.to_string())?;
        items.put(item, Place::Square { square: sq, face }, false)?;
        if known {
            items.set_known(item, [true; 2]);
        }
    }
    for (zone, owner, list) in zone_lists(catalogue, spec)? {
        for &item in &list {
            place(item, catalogue.zone(zone).name.clone())?;
            items.put(item, Place::Zone { zone, owner }, true)?;
        }
    }
    Ok(items)
}

/// Compares the squares and zones `spec` writes with `items`.
fn compare_items(content: &Content, items: Option<&Items>, spec: &ItemsSpec) -> Result<(), String> {
    let (Some(catalogue), Some(items)) = (content.items(), items) else {
        return Err("items: this deck has no items".into());
    };
    let mut problems = Vec::new();
    let name = |item: ItemId| catalogue.item(item).id.clone();
    for (&sq, text) in &spec.squares {
        let want = square_item(catalogue, sq, text)?;
        let got = items.at(sq);
        let ok = match (want, got) {
            (SquareItem::None, None) => true,
            (SquareItem::Down(w), Some(g)) => g.held.item == w && g.face == Face::Down,
            (SquareItem::Up(w), Some(g)) => g.held.item == w && g.face == Face::Up,
            (SquareItem::Known(w), Some(g)) => g.held.item == w && g.face == Face::Down && g.held.known == [true; 2],
            _ => false,
        };
        if !ok {
            let got = match got {
                None => "nothing".to_string(),
                Some(g) => {
                    let how = match (g.face, g.held.known) {
                        (Face::Up, _) => "up",
                        (Face::Down, [true, true]) => "known",
                        (Face::Down, _) => "down",
                    };
                    format!("{} {how}", name(g.held.item))
                }
            };
            problems.push(format!("expected {sq} to hold {text}, it holds {got}"));
        }
    }
    for (zone, owner, want) in zone_lists(catalogue, spec)? {
        let got = items.zone(zone, owner)?;
        if got != want {
            let whose = owner.map_or(String::new(), |p| format!("{p}'s "));
            problems.push(format!(
                "expected {whose}{} to hold [{}], it holds [{}]",
                catalogue.zone(zone).name,
                catalogue.ids_text(want),
                catalogue.ids_text(got)
            ));
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n")) }
}

fn pool_index(content: &crate::content::Content, name: &str) -> Result<usize, String> {
    content
        .pool_index(name)
        .ok_or_else(|| format!("pools: '{name}' is not a pool of this deck ({})", content.pool_names().join(", ")))
}

fn scene(engine: &ScriptEngine, subject: Subject, s: &Scenario) -> Result<GameState, String> {
    let content = engine.content();
    let setup = content.setup();
    // From a seed's deal, with its hooks (planets, piles, the deck's rules), or
    // from a blank one whose board, planets and piles the scenario gives.
    let dealt = s.deal.map(|seed| GameState::deal(&setup, seed, engine));
    let mut state = dealt.clone().unwrap_or_else(|| GameState::new(&setup, 1));
    let mut board = match (&s.board, &dealt) {
        // A drawn board is dealt as a game's is: its checkers move as the deck says.
        (Some(text), _) => {
            let mut drawn = diagram::parse_with(text, setup.supply, setup.crowning, &content.marker_glyphs())
                .map_err(|e| format!("board: {e}"))?;
            drawn.set_movement(setup.movement);
            if let Some(routes) = setup.routes {
                drawn.declare_pools(routes);
            }
            // Numbered as a deal numbers them: in square order, a1 first.
            drawn.number_checkers();
            drawn
        }
        (None, Some(dealt)) => dealt.board,
        (None, None) => return Err("a scenario needs a board, or a deal to take it from".into()),
    };
    if let Some(dir) = s.orientation {
        board.set_orientation(Orientation::with_dark_forward(dir).ok_or("orientation must be n, e, s or w")?);
    }
    for (&p, &n) in s.reserve.iter().flatten() {
        let on_board = board.pieces_on_board(p);
        if on_board + u32::from(n) > 12 {
            return Err(format!(
                "reserve: {p} has {on_board} pieces on the board, so at most {} in reserve (R1.3)",
                12u32.saturating_sub(on_board)
            ));
        }
        board.set_reserve(p, n);
    }
    for (&p, counts) in s.pools.iter().flatten() {
        for (name, &n) in counts {
            let pool = pool_index(content, name)?;
            board.set_pool(p, pool, n).map_err(|e| format!("pools: {e}"))?;
        }
    }
    if let Some(counts) = &s.supply {
        board.set_supply(counts.apply(*board.supply()));
        for (kind, n) in counts.marker_counts(content)? {
            board.set_marker_supply(kind, n);
        }
    }
    if let Some(spec) = &s.items {
        let items = scene_items(content, state.items(), spec)?;
        state.set_items(items);
    }
    // R6.2: a pawn drawn on its king row is crowned at once if its reserve allows,
    // as it would have been in play.
    board.settle_crowns(&mut Unrecorded);
    state.position_mut().board = board;
    *state.journal_mut() = EventLog::recording();
    for spec in &s.effects {
        let card = content.card_id(&spec.card).ok_or_else(|| format!("'{}' is not a card of the deck", spec.card))?;
        let moves = MoveRules {
            pawns_step_back: spec.moves.pawns_step_back,
            closed: spec.moves.closed.iter().copied().collect(),
            capture_optional: spec.moves.capture_optional,
            pawns: spec.moves.pawns,
            kings: spec.moves.kings,
        };
        let lasts = match &spec.lasts {
            LastsSpec::Turns(n) => Lasting::OwnerTurns(*n),
            LastsSpec::Game(_) => Lasting::Game,
            LastsSpec::Until { ends_at } => {
                Lasting::Until(EventKind::named(ends_at).ok_or_else(|| format!("no event is called '{ends_at}'"))?)
            }
        };
        let affects = spec.affects.unwrap_or(Affected::Owner);
        // Made before the scene, so the scene's first turn counts.
        let effect = Effect {
            id: 0,
            card,
            owner: spec.owner,
            affects,
            moves,
            lasts,
            made: None,
            data: spec.data.clone(),
            deck: false,
            acts_for: ActsFor::Owner,
        };
        // A scene is held to the rules play keeps (at most 16 effects, each
        // lasting at least a turn, data within its bounds).
        state.check_new_effect(&effect).map_err(|e| e.to_string())?;
        let position = state.position_mut();
        position.effect_serial += 1;
        position.effects.push(Effect { id: position.effect_serial, ..effect });
    }
    state.position_mut().to_move = s.to_move.unwrap_or(Player::Dark);
    state.position_mut().step = if dealt.is_some() && s.decisions.is_some() { Step::Move } else { Step::Card };
    state.position_mut().moved = s.moved;
    for (&p, data) in s.planet_data.iter().flatten() {
        crate::game::check_data(data).map_err(|e| format!("planet_data: {e}"))?;
        state.hidden_mut().planet_data.set(p, data.clone());
    }
    for (&p, counts) in s.counters.iter().flatten() {
        for (name, &n) in counts {
            let id = counter_named(content, name)?;
            state.position_mut().counters[p.index()].0[usize::from(id.0)] = n;
        }
    }
    // Piles not given: the deal's, or the card face up (for a card scenario),
    // and the rest of the deck, less what the other piles hold, as the draw pile.
    if dealt.is_some() {
        if let Some(n) = &s.face_up {
            state.hidden_mut().piles.face_up = ids(content, n)?.into();
        }
        if let Some(n) = &s.discard {
            state.hidden_mut().piles.discard = ids(content, n)?.into();
        }
        if let Some(n) = &s.draw {
            state.hidden_mut().piles.draw = ids(content, n)?.into();
        }
        return Ok(state);
    }
    state.hidden_mut().piles.face_up = match (&s.face_up, subject) {
        (Some(n), _) => ids(content, n)?.into(),
        (None, Subject::Card(card)) => [card].into_iter().collect(),
        (None, _) => Pile::new(),
    };
    state.hidden_mut().piles.discard = ids(content, s.discard.as_deref().unwrap_or(&[]))?.into();
    state.hidden_mut().piles.draw = match &s.draw {
        Some(n) => ids(content, n)?.into(),
        None => {
            let mut draw: Pile = setup.deck.iter().copied().collect();
            for card in state.piles().face_up.iter().chain(&state.piles().discard) {
                if let Some(i) = draw.iter().position(|c| c == card) {
                    draw.remove(i);
                }
            }
            draw
        }
    };
    Ok(state)
}

fn run_one(engine: &ScriptEngine, subject: Subject, s: &Scenario) -> Result<(), String> {
    all_checked(subject, s)?;
    let state = scene(engine, subject, s)?;
    if let Some(plays) = &s.decisions {
        return run_turns(engine, state, s, plays);
    }
    match subject {
        Subject::Rules => Err("a scenario without a card or planet needs `decisions`".into()),
        Subject::Planet(planet) => {
            let player = s.player.unwrap_or(state.to_move);
            if s.expect.holds.is_none() && s.expect.progress.is_none() {
                return Err("a planet scenario needs expect.holds or expect.progress".into());
            }
            if let Some(want) = s.expect.holds {
                let holds = engine.check_planet(&state, planet, player)?;
                if holds != want {
                    return Err(format!(
                        "expected the planet to {}hold for {player}, but it does{}",
                        if want { "" } else { "not " },
                        if holds { "" } else { " not" }
                    ));
                }
            }
            if let Some(want) = s.expect.progress {
                let got = f64::from(engine.planet_progress(&state, planet, player)?);
                if (got - want).abs() > as_written(want) {
                    return Err(format!("expected progress {want} for {player}, got {got}"));
                }
            }
            Ok(())
        }
        Subject::Card(card) => {
            if let Some(want) = s.expect.playable {
                let got = engine.can_play(&state, card)?;
                if got != want {
                    return Err(format!("expected can_play to say {want}, it said {got}"));
                }
                // Nothing else expected: `play` need not run.
                if given(&s.expect) == ["playable"] {
                    return Ok(());
                }
            }
            run_card(engine, &state, card, s)
        }
    }
}

/// The expectations an `expect` gives, by their names in the file.
fn given(e: &Expect) -> Vec<&'static str> {
    let fields = [
        ("board", e.board.is_some()),
        ("error", e.error.is_some()),
        ("question", e.question.is_some()),
        ("options", e.options.is_some()),
        ("playable", e.playable.is_some()),
        ("holds", e.holds.is_some()),
        ("progress", e.progress.is_some()),
        ("reserve", e.reserve.is_some()),
        ("pools", e.pools.is_some()),
        ("items", e.items.is_some()),
        ("supply", e.supply.is_some()),
        ("counters", e.counters.is_some()),
        ("planet_data", e.planet_data.is_some()),
        ("orientation", e.orientation.is_some()),
        ("constraint", e.constraint.is_some()),
        ("draw", e.draw.is_some()),
        ("face_up", e.face_up.is_some()),
        ("discard", e.discard.is_some()),
        ("effects", e.effects.is_some()),
        ("narration", e.narration.is_some()),
        ("events", e.events.is_some()),
        ("no_events", e.no_events.is_some()),
        ("told", e.told.is_some()),
        ("not_told", e.not_told.is_some()),
        ("winner", e.winner.is_some()),
        ("reason", e.reason.is_some()),
        ("to_move", e.to_move.is_some()),
        ("pending", e.pending.is_some()),
    ];
    fields.into_iter().filter(|&(_, set)| set).map(|(name, _)| name).collect()
}

/// What `check_state` compares: the game after a card, or at a point of turns.
const STATE_CHECKS: &[&str] = &[
    "board",
    "reserve",
    "pools",
    "items",
    "supply",
    "counters",
    "planet_data",
    "orientation",
    "constraint",
    "draw",
    "face_up",
    "discard",
    "effects",
];

/// Refuses an expectation the scenario's kind never checks, so that no test
/// passes on what it did not look at: which ones a kind checks, and why.
fn all_checked(subject: Subject, s: &Scenario) -> Result<(), String> {
    let turns: Vec<&str> = STATE_CHECKS
        .iter()
        .copied()
        .chain([
            "winner",
            "reason",
            "to_move",
            "pending",
            "options",
            "events",
            "no_events",
            "told",
            "not_told",
            "narration",
        ])
        .collect();
    let card: Vec<&str> = STATE_CHECKS.iter().copied().chain(["narration", "playable"]).collect();
    let mut expects: Vec<(&str, &Expect)> = vec![("expect", &s.expect)];
    let (checked, why): (Vec<&str>, &str) = match (subject, &s.decisions) {
        (_, Some(plays)) => {
            expects.extend(plays.iter().filter_map(|p| match p {
                Play::Point(point) => Some(("a point's expect", &point.expect)),
                Play::Decision(_) | Play::Refused(_) => None,
            }));
            (
                turns,
                "whole turns check the state and winner, reason, to_move, pending, options, events, no_events, told, \
                 not_told and narration",
            )
        }
        (Subject::Planet(_), None) => (vec!["holds", "progress"], "a planet scenario checks holds and progress"),
        (Subject::Card(_), None) if s.expect.error.is_some() => {
            (vec!["error", "playable"], "a card expected to fail is checked by its error alone (and playable)")
        }
        (Subject::Card(_), None) if s.expect.question.is_some() => (
            vec!["question", "options", "playable"],
            "a card expected to stop at a question is checked by the question and its options (and playable)",
        ),
        (Subject::Card(_), None) => (
            card,
            "a card scenario checks the state after the card, its narration and playable; \
             winner, reason, to_move, pending and events need whole turns (decisions)",
        ),
        (Subject::Rules, None) => return Ok(()),
    };
    for (place, expect) in expects {
        if let Some(name) = given(expect).into_iter().find(|name| !checked.contains(name)) {
            return Err(format!("{place}.{name} would not be checked here: {why}"));
        }
    }
    Ok(())
}

/// Plays a whole-turn scenario through the decision loop from its scene.
fn run_turns(engine: &ScriptEngine, mut state: GameState, s: &Scenario, plays: &[Play]) -> Result<(), String> {
    let content = engine.content();
    state.position_mut().step = match s.step.unwrap_or(StartStep::Move) {
        StartStep::Move => Step::Move,
        StartStep::Card => Step::Card,
    };
    state.position_mut().turn = match s.turn {
        None => 0,
        Some(0) => return Err("turn: the first turn is 1".into()),
        Some(n) => n - 1,
    };
    let card = content.setup().deck.first().copied().unwrap_or(CardId(0));
    let constraint = |squares: &Option<Vec<Square>>| {
        squares.as_ref().map(|q| Constraint { card, movers: q.iter().copied().collect() })
    };
    state.position_mut().constraint = constraint(&s.constraint);
    state.position_mut().next_constraint = constraint(&s.next_constraint);
    // No planet is in play unless the scenario names it or deals it.
    if s.deal.is_none() {
        state.hidden_mut().planets = [None, None];
    }
    for (&p, id) in s.planets.iter().flatten() {
        state.hidden_mut().planets[p.index()] =
            Some(content.planet_id(id).ok_or_else(|| format!("'{id}' is not a planet of the deck"))?);
    }
    // The deck's draws count from the scene's position, its first.
    state.restart_draw_count();
    let viewer = state.to_move;
    state.settle(engine).map_err(|e| format!("the scene could not begin: {e}"))?;
    let mut since = Checked::from(&state);
    since.events = state.journal_mut().take();
    let mut decisions = 0;
    for play in plays {
        match play {
            Play::Decision(text) => {
                decisions += 1;
                let choice = typed_choice(engine, &state, text).map_err(|e| format!("decision {decisions}: {e}"))?;
                let (who, secret) = (state.decider(), crate::narrate::answers_in_secret(content, &state));
                let before = state.board;
                state
                    .apply(engine, &choice)
                    .map_err(|e| format!("decision {decisions} '{}' was refused: {e}", visible(text)))?;
                let events = state.journal_mut().take();
                for seat in Player::BOTH {
                    let told = &mut since.told[seat.index()];
                    told.push(crate::narrate::decision_line(content, who, secret && seat != who, &choice));
                    told.extend(Narrator::new(content, before, Some(seat)).decision_lines(&choice, &events));
                }
                since.events.extend(events);
            }
            Play::Refused(r) => {
                let refusal = match typed_choice(engine, &state, &r.refused) {
                    Err(why) => why,
                    Ok(choice) => match state.clone().apply(engine, &choice) {
                        Err(why) => why.to_string(),
                        Ok(()) => return Err(format!("'{}' was to be refused, but it was taken", visible(&r.refused))),
                    },
                };
                if !refusal.contains(&r.because) {
                    let (refused, because) = (visible(&r.refused), visible(&r.because));
                    return Err(format!("'{refused}' was refused, but not because '{because}': {refusal}"));
                }
            }
            Play::Point(point) => {
                check_point(engine, &state, &point.expect, &since, viewer)
                    .map_err(|e| format!("at '{}' (after {decisions} decisions): {e}", visible(&point.point)))?;
                since = Checked::from(&state);
            }
        }
    }
    check_point(engine, &state, &s.expect, &since, viewer).map_err(|e| format!("at the end: {e}"))
}

/// What happened since the last check: the board then, the events since, and
/// what each player was told of them (by [`Player::index`]).
struct Checked {
    board: crate::kernel::Board,
    events: Vec<Logged>,
    told: [Vec<String>; 2],
}

impl Checked {
    /// Nothing yet since `state`.
    fn from(state: &GameState) -> Checked {
        Checked { board: state.board, events: Vec::new(), told: [Vec::new(), Vec::new()] }
    }
}

/// The pending option a scenario's decision names: a move (`c3-d4`,
/// `c3xe5xg7`), a card by id or name, or an answer as the option is written.
fn typed_choice(engine: &ScriptEngine, state: &GameState, text: &str) -> Result<Choice, String> {
    let decision =
        state.pending(engine).ok_or_else(|| format!("'{}' was given, but the game is over", visible(text)))?;
    crate::choice_text::read(engine.content(), &decision, text).map_err(|why| match why {
        Unread::NotAMove(e) => e,
        _ => {
            let offered: Vec<String> = decision.options.iter().map(|o| choice_text(engine, o)).collect();
            format!("'{}' is not one of {}'s options: {}", visible(text.trim()), decision.player, offered.join(", "))
        }
    })
}

/// An option as a scenario writes it (the one textual form, choice_text.rs).
fn choice_text(engine: &ScriptEngine, option: &Choice) -> String {
    crate::choice_text::write(engine.content(), option)
}

/// Checks the game at a point of a whole-turn scenario.
fn check_point(
    engine: &ScriptEngine,
    state: &GameState,
    expect: &Expect,
    since: &Checked,
    viewer: Player,
) -> Result<(), String> {
    let mut problems: Vec<String> = check_state(engine, state, expect).err().into_iter().collect();
    let outcome = state.outcome();
    if let Some(want) = &expect.winner {
        let got = match outcome {
            None => "no one (the game goes on)".to_string(),
            Some(o) => o.winner.map_or("draw".into(), |p| p.to_string().to_ascii_lowercase()),
        };
        if *want != got {
            problems.push(format!("expected the winner {}, got {got}", visible(want)));
        }
    }
    if let Some(want) = &expect.reason {
        let victories = &engine.content().deck.rules.victories;
        let got = outcome.map_or("none (the game goes on)", |o| o.reason.name(victories));
        if *want != got {
            problems.push(format!("expected the game to end by {}, got {got}", visible(want)));
        }
    }
    if expect.to_move.is_some() || expect.pending.is_some() {
        match state.pending(engine) {
            None => problems.push("expected a pending decision, but the game is over".into()),
            Some(d) => {
                if let Some(p) = expect.to_move.filter(|&p| p != d.player) {
                    problems.push(format!("expected {p} to decide, but {} does", d.player));
                }
                let kind = match d.kind {
                    DecisionKind::Move => "move",
                    DecisionKind::Card => "card",
                    DecisionKind::Question => "question",
                };
                if let Some(want) = expect.pending.as_deref().filter(|&w| w != kind) {
                    problems.push(format!("expected a {} decision, but a {kind} decision is pending", visible(want)));
                }
            }
        }
    }
    if let Some(want) = &expect.options
        && let Some(d) = state.pending(engine)
    {
        let got: Vec<String> = d.options.iter().map(|o| choice_text(engine, o)).collect();
        if *want != got {
            problems.push(format!("expected the options [{}], got [{}]", visible_all(want, ", "), got.join(", ")));
        }
    }
    if let Some(want) = &expect.events {
        let told: Vec<(String, String)> = since
            .events
            .iter()
            .map(|e| (e.kind().name().to_string(), cause_text(engine.content(), &e.cause)))
            .collect();
        let mut rest = told.iter();
        if let Some(missing) = want.iter().find(|w| !rest.any(|(kind, cause)| event_matches(w, kind, cause))) {
            let all: Vec<String> = told.iter().map(|(kind, cause)| format!("{kind} by {cause}")).collect();
            problems.push(format!(
                "expected the events [{}] in this order; '{}' is missing from [{}]",
                visible_all(want, ", "),
                visible(missing),
                all.join(", ")
            ));
        }
    }
    if let Some(unwanted) = &expect.no_events {
        for event in &since.events {
            let (kind, cause) = (event.kind().name(), cause_text(engine.content(), &event.cause));
            if let Some(w) = unwanted.iter().find(|w| event_matches(w, kind, &cause)) {
                problems.push(format!("expected no '{}' event, but {kind} by {cause} happened", visible(w)));
            }
        }
    }
    for (&seat, want) in expect.told.iter().flatten() {
        let told = &since.told[seat.index()];
        let mut rest = told.iter();
        if let Some(missing) = want.iter().find(|w| !rest.any(|line| line == *w)) {
            problems.push(format!(
                "expected {seat} to be told [{}] in this order; '{}' is not in [{}]",
                visible_all(want, " | "),
                visible(missing),
                told.join(" | ")
            ));
        }
    }
    for (&seat, secrets) in expect.not_told.iter().flatten() {
        for line in &since.told[seat.index()] {
            if let Some(secret) = secrets.iter().find(|s| line.contains(s.as_str())) {
                problems.push(format!("{seat} was told '{}': {line}", visible(secret)));
            }
        }
    }
    if let Some(want) = &expect.narration {
        let mut narrator = Narrator::new(engine.content(), since.board, Some(viewer));
        let got: Vec<String> = since.events.iter().filter_map(|e| narrator.line(e)).collect();
        if *want != got {
            problems.push(format!(
                "expected the narration\n  {}\ngot\n  {}",
                visible_all(want, "\n  "),
                got.join("\n  ")
            ));
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n")) }
}

fn run_card(engine: &ScriptEngine, state: &GameState, card: CardId, s: &Scenario) -> Result<(), String> {
    let snapshot = state.card_snapshot(card);
    let mut answers: Vec<Answer> = Vec::new();
    let mut given = s.answers.iter();
    let after = loop {
        match engine.run_card(&snapshot, card, &answers).resolution {
            Resolution::Done(after) => {
                if let Some(extra) = given.next() {
                    return Err(format!("answer '{}' was given but no question asked for it", visible(extra)));
                }
                if let Some(q) = &s.expect.question {
                    return Err(format!("expected the question '{}', but the card finished", visible(q)));
                }
                break after;
            }
            Resolution::Failed(message) => {
                return match &s.expect.error {
                    Some(want) if message.contains(want.as_str()) => Ok(()),
                    Some(want) => Err(format!("expected an error containing '{}', got: {message}", visible(want))),
                    None => Err(message),
                };
            }
            Resolution::Ask(question) => {
                let options: Vec<String> = question.options.iter().map(ToString::to_string).collect();
                let Some(text) = given.next() else {
                    let Some(want) = &s.expect.question else {
                        return Err(format!(
                            "unanswered question '{}' (options: {})",
                            question.prompt,
                            options.join(", ")
                        ));
                    };
                    if !question.prompt.contains(want.as_str()) {
                        return Err(format!("expected the question '{}', got '{}'", visible(want), question.prompt));
                    }
                    if let Some(want) = &s.expect.options
                        && *want != options
                    {
                        return Err(format!(
                            "expected options [{}], got [{}]",
                            visible_all(want, ", "),
                            options.join(", ")
                        ));
                    }
                    return Ok(());
                };
                let pick = question.options.iter().find(|o| o.to_string().eq_ignore_ascii_case(text.trim()));
                let Some(pick) = pick else {
                    return Err(format!(
                        "answer '{}' is not among the options of '{}': {}",
                        visible(text),
                        question.prompt,
                        options.join(", ")
                    ));
                };
                answers.push(pick.clone());
            }
        }
    };
    if let Some(want) = &s.expect.error {
        return Err(format!("expected an error containing '{}', but the card finished", visible(want)));
    }
    check_state(engine, &after, &s.expect)?;
    if let Some(want) = &s.expect.narration {
        let mut narrator = Narrator::new(engine.content(), snapshot.board, Some(snapshot.to_move));
        let got: Vec<String> = after.journal().events().iter().filter_map(|e| narrator.line(e)).collect();
        if *want != got {
            return Err(format!(
                "expected the narration\n  {}\ngot\n  {}",
                visible_all(want, "\n  "),
                got.join("\n  ")
            ));
        }
    }
    Ok(())
}

fn check_state(engine: &ScriptEngine, after: &GameState, expect: &Expect) -> Result<(), String> {
    let content = engine.content();
    let mut problems = String::new();
    if let Some(want) = &expect.board {
        let setup = content.setup();
        let markers = content.marker_glyphs();
        let glyphs: Vec<char> = markers.iter().map(|m| m.glyph).collect();
        match diagram::parse_with(want, setup.supply, setup.crowning, &markers) {
            Err(e) => {
                let _ = writeln!(problems, "expected board: {e}");
            }
            Ok(wanted) => {
                let (got, want) = (diagram::render_with(&after.board, &glyphs), diagram::render_with(&wanted, &glyphs));
                if got != want {
                    let _ = writeln!(problems, "the board differs:\n{}", side_by_side(&want, &got));
                }
            }
        }
    }
    if let Some(spec) = &expect.items
        && let Err(e) = compare_items(content, after.items(), spec)
    {
        let _ = writeln!(problems, "{e}");
    }
    for (&p, counts) in expect.pools.iter().flatten() {
        for (name, &n) in counts {
            match pool_index(content, name) {
                Ok(pool) if after.board.pool(p, pool) != n => {
                    let _ = writeln!(problems, "expected {p}'s {name} {n}, got {}", after.board.pool(p, pool));
                }
                Ok(_) => {}
                Err(e) => {
                    let _ = writeln!(problems, "{e}");
                }
            }
        }
    }
    for (&p, &n) in expect.reserve.iter().flatten() {
        if after.board.reserve(p) != n {
            let _ = writeln!(problems, "expected {p}'s reserve {n}, got {}", after.board.reserve(p));
        }
    }
    if let Some(counts) = &expect.supply {
        let got = *after.board.supply();
        if counts.apply(got) != got {
            let _ = writeln!(problems, "expected the supply to hold {counts:?}, it holds {got:?}");
        }
        match counts.marker_counts(engine.content()) {
            Ok(markers) => {
                for (kind, want) in markers {
                    let left = after.board.marks().supply[usize::from(kind.0)];
                    if left != want {
                        let _ = writeln!(problems, "expected {want} markers of kind #{} left, {left} are", kind.0);
                    }
                }
            }
            Err(e) => {
                let _ = writeln!(problems, "{e}");
            }
        }
    }
    for (&p, want) in expect.planet_data.iter().flatten() {
        let got = after.planet_data().of(p);
        if got != want {
            let _ = writeln!(problems, "expected {p}'s planet data {want:?}, got {got:?}");
        }
    }
    for (&p, counts) in expect.counters.iter().flatten() {
        for (name, &want) in counts {
            match counter_named(engine.content(), name) {
                Ok(id) if after.counters(p).get(id) == want => {}
                Ok(id) => {
                    let _ = writeln!(problems, "expected {p}'s {name} {want}, got {}", after.counters(p).get(id));
                }
                Err(e) => {
                    let _ = writeln!(problems, "{e}");
                }
            }
        }
    }
    if let Some(dir) = expect.orientation
        && after.board.orientation().forward(Player::Dark) != dir
    {
        let _ = writeln!(
            problems,
            "expected Dark's forward {dir}, got {}",
            after.board.orientation().forward(Player::Dark)
        );
    }
    if let Some(squares) = &expect.constraint {
        // An empty list means no constraint at all.
        let want: Option<Bitboard> = (!squares.is_empty()).then(|| squares.iter().copied().collect());
        let got = after.next_constraint.map(|c: Constraint| c.movers);
        if got != want {
            let _ = writeln!(
                problems,
                "expected a constraint on {squares:?}, got {:?}",
                got.map(|b| b.collect::<Vec<_>>())
            );
        }
    }
    for (label, want, got) in [
        ("draw pile", &expect.draw, &after.piles().draw),
        ("face-up row", &expect.face_up, &after.piles().face_up),
        ("discard pile", &expect.discard, &after.piles().discard),
    ] {
        if let Some(want) = want
            && *want != names(content, got)
        {
            let _ = writeln!(problems, "expected the {label} {want:?}, got {:?}", names(content, got));
        }
    }
    if let Some(want) = &expect.effects {
        let got: Vec<String> = names(content, &after.effects.iter().map(|e| e.card).collect::<Vec<_>>());
        if *want != got {
            let _ = writeln!(problems, "expected the lasting effects {want:?}, got {got:?}");
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems.trim_end().to_string()) }
}

fn side_by_side(want: &str, got: &str) -> String {
    let mut out = format!("{:<44}   {}\n", "expected", "got");
    for (a, b) in want.lines().zip(got.lines()) {
        let mark = if a == b { ' ' } else { '≠' };
        let _ = writeln!(out, "{a:<44} {mark} {b}");
    }
    out
}

/// The deck's counter called `name`.
fn counter_named(content: &Content, name: &str) -> Result<CounterId, String> {
    content.counter(name).map(|c| c.id).ok_or_else(|| {
        let known: Vec<String> = content.counters().into_iter().map(|c| c.name).collect();
        format!("no counter is called '{name}' in this deck ({})", known.join(", "))
    })
}

/// A cause as a scenario writes it: `turn`, `card <id>`, `effect <card id>`,
/// `rule <card id>`, `planet <id>`.
fn cause_text(content: &Content, cause: &crate::game::Cause) -> String {
    use crate::game::Cause;
    let card = |c: CardId| content.card(c).map_or_else(|| format!("#{}", c.0), |d| d.id.clone());
    match *cause {
        Cause::Turn => "turn".into(),
        Cause::Card { card: c } => format!("card {}", card(c)),
        Cause::Effect { card: c, .. } => format!("effect {}", card(c)),
        Cause::Rule { card: c, .. } => format!("rule {}", card(c)),
        Cause::Planet { planet } => format!("planet {}", content.planet(planet).map_or("?", |p| p.id.as_str())),
    }
}

/// Whether an expected event (`kind`, or `kind by cause`) is this one.
fn event_matches(want: &str, kind: &str, cause: &str) -> bool {
    match want.split_once(" by ") {
        Some((k, c)) => k.trim() == kind && c.trim() == cause,
        None => want.trim() == kind,
    }
}

/// Half a unit of the last decimal `x` is written with (its shortest form):
/// 0.67 stands for 0.665 to 0.675. A value the engine computes at single
/// precision is compared as the scenario wrote it.
fn as_written(x: f64) -> f64 {
    let text = format!("{x}");
    let decimals = text.split_once('.').map_or(0, |(_, d)| d.len());
    // At least the precision of the engine's numbers (f32).
    (0.5 * 10f64.powi(-(decimals as i32))).max(1e-6)
}
