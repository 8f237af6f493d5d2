//! Content: card, planet and deck manifests (YAML) and the scripts they name.
//!
//! Layout (relative to a content root, normally the repository):
//! `cards/<id>.yaml` + `cards/<id>.lua`, `planets/<id>.yaml` + `planets/<id>.lua`,
//! decks in `cards/decks/<name>.yaml`. A card's or planet's id is its file stem.
//!
//! Architecture invariant: this module turns files into plain data and reports
//! every problem with its file, line and column; it runs no script.

mod counters;
pub mod items;
mod manifest;
mod markers;
pub mod pools;
mod problem;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use counters::CounterDef;
pub use manifest::{
    CardManifest, CounterManifest, DeckManifest, KingsOnlyManifest, MAX_REPETITION, MarkerManifest, MarkerPlace,
    PlanetManifest, RepetitionManifest, RuleActsFor, RuleEntry, RulesManifest, ScriptManifest, SupplyManifest,
    UniqueMap,
};
pub use markers::{MarkerDef, RESERVED_GLYPHS};
pub use problem::{
    MAX_FILE_BYTES, Problem, Problems, YamlError, clip_quoted, parse_yaml as problem_parse_yaml, plain_type,
};

use crate::game::{CardId, PlanetId, Setup};
use crate::kernel::{Crowning, Player, Supply};
use crate::plain::Variant;

/// Where content lives: the folder that holds `cards/` and `planets/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentRoot(PathBuf);

impl ContentRoot {
    pub fn new(path: impl Into<PathBuf>) -> ContentRoot {
        ContentRoot(path.into())
    }

    /// The current folder if it holds `cards/`, else the folder this program was
    /// built from (so `cargo run` and `cargo test` find the shipped content).
    pub fn discover() -> ContentRoot {
        if Path::new("cards").is_dir() {
            ContentRoot(PathBuf::new())
        } else {
            ContentRoot(PathBuf::from(env!("CARGO_MANIFEST_DIR")))
        }
    }

    /// Where `deck`'s cards and planets are found: `root` when given (`--root`);
    /// for a deck given as a path, the content root it lies in — the folder that
    /// holds its `cards/decks/` folder (README, "Modding"); else
    /// [`ContentRoot::discover`]. A deck path outside any `cards/decks/` folder
    /// needs `--root`.
    pub fn for_deck(root: Option<&Path>, deck: &str) -> Result<ContentRoot, Problem> {
        if let Some(root) = root {
            return Ok(ContentRoot::new(root));
        }
        if !is_deck_path(deck) {
            return Ok(ContentRoot::discover());
        }
        ContentRoot::lying_around(deck)
    }

    /// Where a saved game's deck is found again: `root` when given (`--root`);
    /// for a deck saved as a path, the content root it lies in, as when the game
    /// was started ([`ContentRoot::for_deck`]); for a named deck, `named`.
    ///
    /// `saved` is the root the save says the game was played on, if it says one
    /// (a modded game's): it is used when it still holds content and no deck
    /// path says otherwise.
    pub fn for_saved_deck(
        root: Option<&Path>,
        deck: &str,
        saved: Option<&Path>,
        named: impl FnOnce() -> ContentRoot,
    ) -> ContentRoot {
        if let Some(root) = root {
            return ContentRoot::new(root);
        }
        if is_deck_path(deck)
            && let Ok(found) = ContentRoot::lying_around(deck)
        {
            return found;
        }
        match saved.filter(|s| s.join("cards").is_dir()) {
            Some(saved) => ContentRoot::new(saved),
            None => named(),
        }
    }

    /// This root as an absolute path, when it is not the shipped content (which
    /// every copy of the program finds by itself): what a save records.
    pub fn outside_shipped(&self) -> Option<PathBuf> {
        let absolute = self.absolute().ok()?;
        let shipped = std::fs::canonicalize(env!("CARGO_MANIFEST_DIR")).ok();
        (shipped.as_ref() != Some(&absolute)).then_some(absolute)
    }

    /// Whether two roots name the same folder (`.` and its absolute path alike).
    pub fn same_folder(&self, other: &ContentRoot) -> bool {
        let absolute = |r: &ContentRoot| r.absolute().unwrap_or_else(|_| r.0.clone());
        absolute(self) == absolute(other)
    }

    /// Whether `canonical`, a canonical path (`std::fs::canonicalize`), lies
    /// inside this root; `false` when the root itself cannot be found.
    pub fn holds(&self, canonical: &Path) -> bool {
        self.absolute().is_ok_and(|root| canonical.starts_with(root))
    }

    /// This root as a canonical path (the current folder for the empty path).
    fn absolute(&self) -> std::io::Result<PathBuf> {
        std::fs::canonicalize(if self.0.as_os_str().is_empty() { Path::new(".") } else { &self.0 })
    }

    /// The content root a deck path lies in: the folder holding its `cards/decks/`.
    fn lying_around(deck: &str) -> Result<ContentRoot, Problem> {
        let path = Path::new(deck);
        let decks = path.parent().filter(|d| d.file_name().is_some_and(|n| n == "decks"));
        let cards = decks.and_then(Path::parent).filter(|c| c.file_name().is_some_and(|n| n == "cards"));
        match cards.and_then(Path::parent) {
            Some(root) => Ok(ContentRoot::new(root)),
            None => Err(Problem::file(
                path,
                "a deck given as a path must lie in a content root's cards/decks/ folder, where its cards and \
                 planets are found; or say where they are with --root DIR",
            )),
        }
    }

    /// The content root of a scenario file: `root` when given; the folder above
    /// the `cards/` or `planets/` folder that holds it; else [`ContentRoot::discover`].
    pub fn for_file(root: Option<&Path>, file: &Path) -> ContentRoot {
        if let Some(root) = root {
            return ContentRoot::new(root);
        }
        let folder = file.parent().filter(|d| d.file_name().is_some_and(|n| n == "cards" || n == "planets"));
        match folder.and_then(Path::parent) {
            Some(root) => ContentRoot::new(root),
            None => ContentRoot::discover(),
        }
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn card_manifest(&self, id: &str) -> PathBuf {
        self.0.join("cards").join(format!("{id}.yaml"))
    }

    pub fn planet_manifest(&self, id: &str) -> PathBuf {
        self.0.join("planets").join(format!("{id}.yaml"))
    }

    /// A deck by name (`standard`) or by path to its manifest.
    pub fn deck_path(&self, deck: &str) -> PathBuf {
        let as_path = PathBuf::from(deck);
        if is_deck_path(deck) { as_path } else { self.0.join("cards").join("decks").join(format!("{deck}.yaml")) }
    }

    /// Names of the shipped decks, sorted.
    pub fn deck_names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.0.join("cards").join("decks"))
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.path().file_name()?.to_str()?.strip_suffix(".yaml").map(str::to_string))
            .collect();
        names.sort();
        names
    }
}

/// Whether a deck is named by a path to its manifest rather than by name.
fn is_deck_path(deck: &str) -> bool {
    deck.ends_with(".yaml") || deck.contains('/')
}

/// A script to compile: what it belongs to, its file and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    pub path: PathBuf,
    pub source: String,
}

/// A loaded card or planet: its id, manifest and script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptDef {
    pub id: String,
    pub manifest: ScriptManifest,
    pub script: Script,
    /// FNV-1a of the manifest's text as it was read.
    pub manifest_hash: u64,
}

pub type CardDef = ScriptDef;
pub type PlanetDef = ScriptDef;

/// A deck with every card and planet it names, ready to deal and to run.
///
/// Invariant: `cards[i]` is the card with `CardId(i)`, `planets[i]` the planet with
/// `PlanetId(i)`; ids are unique; every id the deck names is loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Content {
    pub root: ContentRoot,
    pub deck_name: String,
    pub deck_path: PathBuf,
    pub deck: DeckManifest,
    pub cards: Vec<CardDef>,
    pub planets: Vec<PlanetDef>,
    /// FNV-1a of the deck manifest's text as it was read.
    pub deck_hash: u64,
    /// The deck's items and zones (items.rs), if it has any.
    pub items: Option<std::sync::Arc<crate::game::Catalogue>>,
}

/// Bounds on what a deck may describe, so that a hostile deck cannot make the
/// loader or a game large or slow (R1.6 decks have 21 cards and 9 planets).
pub const MAX_CARD_ENTRIES: usize = 256;
pub const MAX_COPIES: u32 = 100;
pub const MAX_DECK_CARDS: u64 = 1000;
pub const MAX_PLANETS: usize = 64;
/// Most deck rules (`effects:`), each a lasting effect in force from the
/// deal: half of what may be in force at once (`game::MAX_EFFECTS`), so the
/// cards keep room for theirs.
pub const MAX_DECK_RULES: usize = crate::game::MAX_EFFECTS / 2;
/// The longest move limit a deck may set, in turns (R10.4): every game ends,
/// and a simulation of many games ends in reasonable time.
pub const MAX_MOVE_LIMIT: u32 = 10_000;

/// `text` with `{user}` and `{opponent}` as `user`'s and the other player's
/// names: what a card tells is read by both players, so it names them rather
/// than saying "you" (`ctx:log` and the manifests' `effect` lines).
pub fn with_names(text: &str, user: Player) -> String {
    if !text.contains('{') {
        return text.to_string();
    }
    text.replace("{user}", &user.to_string()).replace("{opponent}", &(!user).to_string())
}

/// A lasting effect's text as players read it: on one line, `{user}` and
/// `{opponent}` named, and each `{key}` of the effect's data given its value
/// (Time bomb's `{fuse}`; a text made visible, text.rs); a key the data lacks
/// stays as written.
pub fn with_effect(text: &str, effect: &crate::game::Effect) -> String {
    use crate::game::Datum;
    let mut text = with_names(&text.split_whitespace().collect::<Vec<_>>().join(" "), effect.owner);
    for (key, value) in &effect.data {
        let shown = match value {
            Datum::Int(n) => n.to_string(),
            // Text a script set: shown, never obeyed (text.rs), its spaces as one.
            Datum::Text(t) => crate::text::visible(t).split_whitespace().collect::<Vec<_>>().join(" "),
            Datum::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
            Datum::List(_) | Datum::Table(_) => continue,
        };
        text = text.replace(&format!("{{{key}}}"), &shown);
    }
    text
}

impl Content {
    /// Loads a deck and everything it names, collecting every problem.
    pub fn load(root: &ContentRoot, deck: &str) -> Result<Content, Problems> {
        let (content, problems) = Content::load_what_can_be(root, deck);
        match content {
            Some(content) => problems.into_result(content),
            None => Err(problems),
        }
    }

    /// Loads what of `deck` can be loaded, with every problem found: the content
    /// without the cards and planets whose manifests have problems (`None` when
    /// the deck's own manifest cannot be read), so that `check` can compile the
    /// scripts of the rest and list all problems at once.
    pub fn load_what_can_be(root: &ContentRoot, deck: &str) -> (Option<Content>, Problems) {
        let deck_path = root.deck_path(deck);
        let mut problems = Problems::default();
        let deck_read: Option<(DeckManifest, String)> = problems.read_yaml_text(&deck_path, None);
        let Some((mut deck_manifest, deck_text)) = deck_read else { return (None, problems) };
        deck_manifest.make_visible();
        let mut content = Content {
            root: root.clone(),
            deck_name: deck_path.file_stem().and_then(|s| s.to_str()).unwrap_or(deck).to_string(),
            deck_path: deck_path.clone(),
            deck: deck_manifest.clone(),
            cards: Vec::new(),
            planets: Vec::new(),
            deck_hash: crate::hash::fnv1a(deck_text.as_bytes()),
            items: None,
        };
        let rules = &deck_manifest.rules;
        let at = |problems: &mut Problems, key: &str, message: &str| {
            problems.at_key(&deck_path, &deck_text, key, message);
        };
        if rules.cards && deck_manifest.cards.is_empty() {
            at(&mut problems, "cards", "a deck with cards on must list at least one card");
        }
        let limit = rules.limit().turns;
        let given = rules.move_limit.is_some() || rules.ends.is_some_and(|e| e.move_limit.is_some());
        if given && !(1..=MAX_MOVE_LIMIT).contains(&limit) {
            let message = format!(
                "move_limit is the turns in all after which the game ends, so that every game ends (R10.4): \
                 1 to {MAX_MOVE_LIMIT}, not {limit}"
            );
            at(&mut problems, "move_limit", &message);
        }
        if let Err((key, message)) = pools::routes(&rules.pools, &rules.pieces_go, &rules.pool_worth) {
            at(&mut problems, key, &message);
        }
        check_ends(rules, &mut |key, message| at(&mut problems, key, message));
        if let Some(Err(message)) = rules.notation.as_ref().map(crate::plain::Notation::check) {
            at(&mut problems, "notation", &message);
        }
        match items::catalogue(deck_manifest.items.as_ref(), &deck_manifest.zones) {
            Ok(catalogue) => content.items = catalogue.map(std::sync::Arc::new),
            Err((key, message)) => at(&mut problems, key, &message),
        }
        if deck_manifest.supply.monolith > 1 {
            at(&mut problems, "supply", "the supply holds at most one monolith (R1.5, R7)");
        }
        if rules.cards && deck_manifest.planets.len() == 1 {
            at(&mut problems, "planets", "each player draws a planet: list none or at least two");
        }
        if !rules.cards && !deck_manifest.planets.is_empty() {
            let message = "planets are dealt only with cards on (R11 turns both off): remove them or set cards: true";
            at(&mut problems, "planets", message);
        }
        let total: u64 = deck_manifest.cards.iter().map(|(_, &n)| u64::from(n)).sum();
        if deck_manifest.cards.len() > MAX_CARD_ENTRIES {
            let message = format!(
                "a deck lists at most {MAX_CARD_ENTRIES} different cards; this one lists {}",
                deck_manifest.cards.len()
            );
            at(&mut problems, "cards", &message);
        } else if total > MAX_DECK_CARDS {
            at(&mut problems, "cards", &format!("a deck holds at most {MAX_DECK_CARDS} cards; this one holds {total}"));
        }
        let listed = if deck_manifest.cards.len() > MAX_CARD_ENTRIES { 0 } else { deck_manifest.cards.len() };
        for (id, &copies) in deck_manifest.cards.iter().take(listed) {
            if copies == 0 {
                at(&mut problems, id, &format!("card '{id}' has 0 copies; remove it or give a count"));
            } else if copies > MAX_COPIES {
                at(&mut problems, id, &format!("card '{id}' has {copies} copies; at most {MAX_COPIES}"));
            }
            if !valid_id(id) {
                at(
                    &mut problems,
                    id,
                    &format!("'{id}' is not a valid card id (use a-z, 0-9 and _; none and keep are kept for answers)"),
                );
            } else if root.card_manifest(id).exists() {
                content.load_card(id, &mut problems);
            } else {
                let message = format!("unknown card '{id}': there is no {}", root.card_manifest(id).display());
                at(&mut problems, id, &message);
            }
        }
        if deck_manifest.planets.len() > MAX_PLANETS {
            let message =
                format!("a deck lists at most {MAX_PLANETS} planets; this one lists {}", deck_manifest.planets.len());
            at(&mut problems, "planets", &message);
        }
        let mut seen = BTreeMap::new();
        let listed = if deck_manifest.planets.len() > MAX_PLANETS { 0 } else { deck_manifest.planets.len() };
        for id in deck_manifest.planets.iter().take(listed) {
            if seen.insert(id.clone(), ()).is_some() {
                at(&mut problems, id, &format!("planet '{id}' is listed twice"));
            } else if !valid_id(id) {
                at(
                    &mut problems,
                    id,
                    &format!(
                        "'{id}' is not a valid planet id (use a-z, 0-9 and _; none and keep are kept for answers)"
                    ),
                );
            } else if root.planet_manifest(id).exists() {
                content.load_planet(id, &mut problems);
            } else {
                let message = format!("unknown planet '{id}': there is no {}", root.planet_manifest(id).display());
                at(&mut problems, id, &message);
            }
        }
        if deck_manifest.effects.len() > MAX_DECK_RULES {
            let message = format!(
                "a deck has at most {MAX_DECK_RULES} rules in effects; this one lists {}",
                deck_manifest.effects.len()
            );
            at(&mut problems, "effects", &message);
        }
        let listed = if deck_manifest.effects.len() > MAX_DECK_RULES { 0 } else { deck_manifest.effects.len() };
        let mut rules_seen = BTreeMap::new();
        for id in deck_manifest.effects.iter().take(listed).map(|r| &r.card) {
            if rules_seen.insert(id.clone(), ()).is_some() {
                at(&mut problems, "effects", &format!("rule '{id}' is listed twice in effects"));
            } else if !valid_id(id) {
                at(
                    &mut problems,
                    "effects",
                    &format!(
                        "'{id}' in effects is not a valid card id (use a-z, 0-9 and _; none and keep are kept for answers)"
                    ),
                );
            } else if root.card_manifest(id).exists() {
                content.load_card(id, &mut problems);
            } else {
                let message =
                    format!("unknown card '{id}' in effects: there is no {}", root.card_manifest(id).display());
                at(&mut problems, "effects", &message);
            }
        }
        content.check_needs(&deck_path, &deck_text, &mut problems);
        for (path, message) in content.counter_problems() {
            match std::fs::read_to_string(&path) {
                Ok(text) => problems.at_key(&path, &text, "counters", &message),
                Err(_) => problems.push(Problem::file(&path, message)),
            }
        }
        (Some(content), problems)
    }

    /// Each card and planet whose `needs:` the deck's supply does not meet, as
    /// a problem at the deck's `supply`; an unknown supply kind at the manifest.
    fn check_needs(&self, deck_path: &Path, deck_text: &str, problems: &mut Problems) {
        let supply = self.deck.supply;
        let held = |kind: &str| -> Option<u8> {
            Some(match kind {
                "walls" => supply.walls,
                "rings" => supply.rings,
                "snookles" => supply.snookles,
                "water" => supply.water,
                "fire" => supply.fire,
                "hippos" => supply.hippos,
                "monolith" => supply.monolith,
                _ => return None,
            })
        };
        let cards = self.cards.iter().map(|d| ("card", d, self.root.card_manifest(&d.id)));
        let planets = self.planets.iter().map(|d| ("planet", d, self.root.planet_manifest(&d.id)));
        for (what, def, manifest) in cards.chain(planets) {
            for (kind, &needed) in def.manifest.needs.iter() {
                match held(kind) {
                    None => {
                        let message = format!(
                            "needs: '{kind}' is not in the supply (walls, rings, snookles, water, fire, hippos, monolith)"
                        );
                        problems.push(Problem::file(&manifest, message));
                    }
                    Some(n) if n < needed => {
                        let message = format!(
                            "{what} '{}' needs {needed} {kind} in the supply to be possible at all; this deck holds {n} \
                             (raise it, or leave the {what} out)",
                            def.id
                        );
                        problems.at_key(deck_path, deck_text, "supply", &message);
                    }
                    Some(_) => {}
                }
            }
        }
    }

    /// Loads a card that is not in the deck (for scenarios of new cards); returns its id.
    pub fn load_card(&mut self, id: &str, problems: &mut Problems) -> Option<CardId> {
        if let Some(found) = self.card_id(id) {
            return Some(found);
        }
        self.cards.push(read_def(&self.root.card_manifest(id), id, problems)?);
        let card = CardId((self.cards.len() - 1) as u16);
        let manifest = self.root.card_manifest(id);
        for (_, message) in self.marker_problems().into_iter().filter(|(c, _)| *c == card) {
            // At the manifest's `markers:` (read again: a problem is rare).
            match std::fs::read_to_string(&manifest) {
                Ok(text) => problems.at_key(&manifest, &text, "markers", &message),
                Err(_) => problems.push(Problem::file(&manifest, message)),
            }
        }
        Some(card)
    }

    /// Loads a planet that is not in the deck; returns its id.
    pub fn load_planet(&mut self, id: &str, problems: &mut Problems) -> Option<PlanetId> {
        if let Some(found) = self.planet_id(id) {
            return Some(found);
        }
        let path = self.root.planet_manifest(id);
        let def = read_def(&path, id, problems)?;
        // What only a card's manifest means would be silently ignored here.
        let m = &def.manifest;
        let card_only =
            [("effect", m.effect.is_some()), ("markers", !m.markers.is_empty()), ("secret_answers", m.secret_answers)];
        let mut refused = false;
        for (key, given) in card_only {
            if given {
                let message = format!("'{key}' is for cards; a planet has no lasting effect, markers or questions");
                match std::fs::read_to_string(&path) {
                    Ok(text) => problems.at_key(&path, &text, key, &message),
                    Err(_) => problems.push(Problem::file(&path, message)),
                }
                refused = true;
            }
        }
        if refused {
            return None;
        }
        self.planets.push(def);
        Some(PlanetId((self.planets.len() - 1) as u16))
    }

    pub fn card_id(&self, id: &str) -> Option<CardId> {
        self.cards.iter().position(|c| c.id == id).map(|i| CardId(i as u16))
    }

    pub fn planet_id(&self, id: &str) -> Option<PlanetId> {
        self.planets.iter().position(|p| p.id == id).map(|i| PlanetId(i as u16))
    }

    pub fn card(&self, id: CardId) -> Option<&CardDef> {
        self.cards.get(usize::from(id.0))
    }

    pub fn planet(&self, id: PlanetId) -> Option<&PlanetDef> {
        self.planets.get(usize::from(id.0))
    }

    /// The card a player means by a name or id, ignoring case and spaces.
    pub fn find_card(&self, name: &str) -> Option<CardId> {
        let key = normalise(name);
        self.cards
            .iter()
            .position(|c| normalise(&c.id) == key || normalise(&c.manifest.name) == key)
            .map(|i| CardId(i as u16))
    }

    /// How to deal a game of this deck.
    pub fn setup(&self) -> Setup {
        let rules = &self.deck.rules;
        let deck = self
            .deck
            .cards
            .iter()
            .flat_map(|(id, &n)| std::iter::repeat_n(self.card_id(id), n as usize))
            .flatten()
            .collect();
        let planets = self.deck.planets.iter().filter_map(|id| self.planet_id(id)).collect();
        let markers = self.markers().iter().map(MarkerDef::rules).collect();
        let effects = self
            .deck
            .effects
            .iter()
            .filter_map(|r| Some(crate::game::DeckRule { card: self.card_id(&r.card)?, acts_for: r.acts_for() }))
            .collect();
        Setup {
            effects,
            rules: rules.options(),
            crowning: rules.crowning,
            supply: self.deck.supply.to_supply(),
            deck,
            planets,
            markers,
            movement: rules.moves,
            start: rules.start.clone(),
            routes: pools::routes(&rules.pools, &rules.pieces_go, &rules.pool_worth).ok().flatten(),
            items: self.items.clone(),
        }
    }

    /// The deck's items and zones, if it has any.
    pub fn items(&self) -> Option<&crate::game::Catalogue> {
        self.items.as_deref()
    }

    /// The players' pools by name, the reserve first (pools.rs).
    pub fn pool_names(&self) -> Vec<String> {
        pools::names(&self.deck.rules.pools)
    }

    /// The index of the pool called `name`.
    pub fn pool_index(&self, name: &str) -> Option<usize> {
        self.pool_names().iter().position(|n| n == name)
    }

    /// The deck's notation when it gives one: then the table speaks it (its
    /// sides' and pieces' names, its squares and capture sign); without one,
    /// the table's own Dark and Light, pawns and kings, `a1`–`h8`.
    pub fn spoken(&self) -> Option<&crate::plain::Notation> {
        self.deck.rules.notation.as_ref()
    }

    /// What the table calls `player`: the deck's side name, or Dark/Light.
    pub fn side_name(&self, player: Player) -> String {
        match self.spoken() {
            Some(n) if n.sides.is_some() => n.side_names()[player.index()].to_string(),
            _ => player.to_string(),
        }
    }

    /// What the table calls a checker of `kind`, one or `several`.
    pub fn kind_name(&self, kind: crate::kernel::Kind, several: bool) -> String {
        use crate::kernel::Kind;
        let names = self.spoken().and_then(|n| n.pieces.as_ref());
        match (kind, names) {
            (Kind::Pawn, Some(n)) => if several { &n.pawns } else { &n.pawn }.clone(),
            (Kind::King, Some(n)) => if several { &n.kings } else { &n.king }.clone(),
            _ => format!("{}{}", kind.name(), if several { "s" } else { "" }),
        }
    }

    /// A square as the table names it: its number on a numbered deck that
    /// the table speaks, else `a1`–`h8`.
    pub fn square_name(&self, sq: crate::kernel::Square) -> String {
        match self.spoken() {
            Some(_) => self.variant().name(sq),
            None => sq.to_string(),
        }
    }

    /// A move as the table writes it: in the deck's notation when spoken
    /// (`22-18`, `c3:e5`), else as the kernel writes it (`c3xe5`).
    pub fn move_name(&self, mv: &crate::kernel::Move) -> String {
        match self.spoken() {
            Some(_) if !mv.exits() => self.variant().move_text(mv),
            _ => mv.to_string(),
        }
    }

    /// A move typed at the table in the deck's notation, rewritten as the
    /// kernel reads moves (`22-18` → `d3-c4`, `c3:e5` → `c3xe5`); any other
    /// text as it is.
    pub fn kernel_move_text<'t>(&self, text: &'t str) -> std::borrow::Cow<'t, str> {
        match self.spoken().and_then(|_| self.variant().kernel_move_text(text)) {
            Some(rewritten) => rewritten.into(),
            None => text.into(),
        }
    }

    /// The deck's board: how checkers move and start, and how positions are written.
    pub fn variant(&self) -> Variant {
        let rules = &self.deck.rules;
        Variant {
            movement: rules.moves,
            start: rules.start.clone(),
            notation: rules.notation.clone().unwrap_or_default(),
            crowning: rules.crowning,
        }
    }

    /// A digest of every manifest and script this content was loaded from, by file
    /// relative to the content root (so that a copy of the content elsewhere has
    /// the same names; a deck given by a path outside the root keeps its path).
    /// Digests are of the texts as they were read, not as the files are now.
    pub fn hashes(&self) -> BTreeMap<String, u64> {
        let root = self.root.path();
        let name = |path: &Path| path.strip_prefix(root).unwrap_or(path).display().to_string();
        let mut out = BTreeMap::new();
        out.insert(name(&self.deck_path), self.deck_hash);
        for (def, manifest) in self
            .cards
            .iter()
            .map(|c| (c, self.root.card_manifest(&c.id)))
            .chain(self.planets.iter().map(|p| (p, self.root.planet_manifest(&p.id))))
        {
            out.insert(name(&manifest), def.manifest_hash);
            out.insert(name(&def.script.path), crate::hash::fnv1a(def.script.source.as_bytes()));
        }
        out
    }
}

/// Reads a card's or planet's manifest and the script it names.
fn read_def(manifest_path: &Path, id: &str, problems: &mut Problems) -> Option<ScriptDef> {
    if !valid_id(id) {
        problems.push(Problem::file(
            manifest_path,
            format!("'{id}' is not a valid id (use a-z, 0-9 and _; none and keep are kept for answers)"),
        ));
        return None;
    }
    // A card's or planet's manifest lies in the root's cards/ or planets/.
    let root = manifest_path.parent().and_then(Path::parent);
    let (mut manifest, text): (ScriptManifest, String) = problems.read_yaml_text(manifest_path, root)?;
    manifest.make_visible();
    let script = problems.read_script(manifest_path, &text, manifest.script.as_deref(), id, root)?;
    Some(ScriptDef { id: id.to_string(), manifest, script, manifest_hash: crate::hash::fnv1a(text.as_bytes()) })
}

/// The problems of a deck's ends (cards/README.md, "Endings as deck rules"),
/// each given to `at` with the key it is found at: what a stuck player does
/// and the move limit said once each (`when_stuck`/`move_limit` or under
/// `ends:`), `of: either` ending the game, and the victories a scored end
/// needs, each a name of its own.
fn check_ends(rules: &RulesManifest, at: &mut dyn FnMut(&str, &str)) {
    use crate::game::{EndReason, MAX_VICTORIES, StuckOf, WhenStuck};
    let ends = rules.ends.unwrap_or_default();
    match (rules.when_stuck, ends.stuck) {
        (Some(_), Some(_)) => at(
            "when_stuck",
            "when_stuck and ends: stuck: both say what a player with no move does; keep one (ends: stuck: says more)",
        ),
        (None, None) => at("rules", "rules: needs when_stuck (skip or lose), or ends: stuck: {of: mover, then: …}"),
        (Some(WhenStuck::Score), None) => at(
            "when_stuck",
            "a scored end is written under ends: (ends: {stuck: {of: mover, then: score}}, cards/README.md, \
             \"Endings as deck rules\")",
        ),
        _ => {}
    }
    if let Some(stuck) = ends.stuck
        && stuck.of == StuckOf::Either
        && stuck.then == WhenStuck::Skip
    {
        at(
            "stuck",
            "stuck: {of: either} ends the game when the player not to move has no move: then: lose or score, not skip",
        );
    }
    match (rules.move_limit, ends.move_limit) {
        (Some(_), Some(_)) => at("move_limit", "move_limit and ends: move_limit: both set the move limit; keep one"),
        (None, None) => at("rules", "rules: needs move_limit (R10.4), or ends: move_limit: {turns: N, then: …}"),
        _ => {}
    }
    if let Some(r) = ends.repetition
        && !(2..=MAX_REPETITION).contains(&r.times)
    {
        let message = format!(
            "repetition: {{times: N}} draws when the same position is met N times: 2 to {MAX_REPETITION}, not {}",
            r.times
        );
        at("repetition", &message);
    }
    if let Some(k) = ends.kings_only
        && !(1..=MAX_MOVE_LIMIT).contains(&u32::from(k.turns))
    {
        let message = format!(
            "kings_only: {{turns: N}} draws after N turns in a row with only kings moved (both players' turns \
             count): 1 to {MAX_MOVE_LIMIT}, not {}",
            k.turns
        );
        at("kings_only", &message);
    }
    let victories = &rules.victories;
    if victories.len() > MAX_VICTORIES {
        at("victories", &format!("a deck declares at most {MAX_VICTORIES} victories; this one {}", victories.len()));
    }
    for (i, name) in victories.iter().enumerate() {
        let valid = !name.is_empty()
            && name.len() <= 64
            && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !valid {
            let name = crate::text::visible(name);
            at("victories", &format!("'{name}' is not a valid victory name (use a-z, 0-9 and _)"));
        } else if EndReason::ENGINE_NAMES.contains(&name.as_str()) {
            at("victories", &format!("'{name}' names one of the engine's own ends; call the victory something else"));
        } else if victories[..i].contains(name) {
            at("victories", &format!("victory '{name}' is declared twice"));
        }
    }
    if rules.options().ends.scores(rules.stuck().then) && victories.is_empty() {
        at(
            "ends",
            "an end the deck scores needs victories: the reasons its verdict may give (rules: victories: [...])",
        );
    }
}

/// An id of a card or planet: a-z, 0-9 and _, and not one of the words the
/// question protocol keeps for itself (`none`, `keep`: a card id can be an
/// answer, Foresight's).
fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        && !crate::game::Answer::is_reserved(id)
}

fn normalise(s: &str) -> String {
    s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

impl Default for SupplyManifest {
    fn default() -> SupplyManifest {
        SupplyManifest::from_supply(&Supply::STANDARD)
    }
}

impl RulesManifest {
    pub fn is_plain(&self) -> bool {
        !self.cards && self.crowning == Crowning::Free
    }
}
