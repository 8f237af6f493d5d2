//! The report: the run's metadata, its counts (whole numbers only, so shards
//! add up to exactly the single run's counts), and the figures derived from
//! the counts with their intervals. Reading, merging and comparing reports.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::stats::{self, Estimate, PairedSums, Pentanomial, Sprt, SprtState, wilson};
use super::{Ending, GameRow, Plan, Played};
use crate::ai::Side;
use crate::content::Content;
use crate::kernel::Player;
use crate::text::visible;

/// The report file's format name and version.
pub const REPORT_FORMAT: &str = "alien-checkers-simulation";
pub const REPORT_VERSION: u32 = 1;

/// What a run was: enough to tell whether two reports can be merged, and to
/// play any of its games again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    /// The program and its version, `alien-checkers 0.1.0`.
    pub program: String,
    /// The deck: its name as given, or for a deck given as a path, that path
    /// from the content root (`cards/decks/x.yaml`) when the deck lies in
    /// it, else the file's name, however the path was spelled.
    pub deck: String,
    /// The deck manifest as loaded: its cards with their copies, planets, supply and rules.
    pub deck_contents: serde_json::Value,
    /// FNV-1a over the deck manifest's hash and every card's and planet's id,
    /// manifest hash and script hash (16 hex digits): two runs with the same
    /// content hash played the same cards and planets. It hashes what the
    /// files hold, never where they are: the same content under another root
    /// path, or a deck path spelled another way, has the same hash, and the
    /// report names no root, so shards from machines that mount the content
    /// at different paths merge.
    pub content_hash: String,
    /// The players as specs (`normal`, `normal:iterations=300`).
    pub a: String,
    pub b: String,
    /// Whether the games depend only on the plan (no player has a time limit).
    pub reproducible: bool,
    pub seed: u64,
    /// The games the run was asked for: `games` from `first_game`.
    pub first_game: u32,
    pub games: u32,
    /// The games the report holds, as `[from, to)` ranges, sorted.
    pub played: Vec<[u32; 2]>,
    /// Cards withheld from side A in paired games.
    #[serde(default)]
    pub ablate: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<Sprt>,
    /// Each deal played twice with the seats swapped (games `2k`, `2k + 1`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub swap_seats: bool,
    /// Why the run has fewer games than asked: `sprt: H1` (a sequential test
    /// decided), `interrupted …` (stopped by a signal), `unfinished …` (a
    /// report written while the run went: the run was killed before it
    /// wrote its last).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// Worker threads (the most of any merged shard). The run's time is
    /// printed, not kept: a report holds only what the plan decides, so the
    /// same plan gives the same bytes on any machine.
    pub threads: usize,
}

impl Meta {
    /// The games planned but not played, as `[from, to)` ranges (none after a
    /// sequential test decided).
    fn missing(&self) -> Vec<[u32; 2]> {
        let mut out = Vec::new();
        let mut at = self.first_game;
        for r in &self.played {
            if r[0] > at {
                out.push([at, r[0]]);
            }
            at = at.max(r[1]);
        }
        let end = self.first_game + self.games;
        if at < end && self.stopped.as_deref().is_none_or(|s| !s.starts_with("sprt")) {
            out.push([at, end]);
        }
        out
    }
}

/// Results from side A's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub a_wins: u64,
    pub b_wins: u64,
    pub draws: u64,
    pub abandoned: u64,
}

impl Tally {
    fn add(&mut self, outcome: char) {
        match outcome {
            'A' => self.a_wins += 1,
            'B' => self.b_wins += 1,
            '=' => self.draws += 1,
            _ => self.abandoned += 1,
        }
    }

    fn merge(&mut self, o: &Tally) {
        self.a_wins += o.a_wins;
        self.b_wins += o.b_wins;
        self.draws += o.draws;
        self.abandoned += o.abandoned;
    }

    pub fn games(&self) -> u64 {
        self.a_wins + self.b_wins + self.draws + self.abandoned
    }

    /// The same games seen from side B.
    fn swapped(&self) -> Tally {
        Tally { a_wins: self.b_wins, b_wins: self.a_wins, ..*self }
    }
}

/// Something counted separately for the games where A played Dark and those where A played Light.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByAColour<T> {
    pub a_dark: T,
    pub a_light: T,
}

impl<T> ByAColour<T> {
    fn get_mut(&mut self, a_colour: Player) -> &mut T {
        if a_colour == Player::Dark { &mut self.a_dark } else { &mut self.a_light }
    }
}

/// Something counted for a player by colour and side: Dark as A, Dark as B, Light as A, Light as B.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BySeat<T> {
    pub dark_a: T,
    pub dark_b: T,
    pub light_a: T,
    pub light_b: T,
}

impl<T> BySeat<T> {
    fn get_mut(&mut self, colour: Player, side: Side) -> &mut T {
        match (colour, side) {
            (Player::Dark, Side::A) => &mut self.dark_a,
            (Player::Dark, Side::B) => &mut self.dark_b,
            (Player::Light, Side::A) => &mut self.light_a,
            (Player::Light, Side::B) => &mut self.light_b,
        }
    }

    fn all(&self) -> [&T; 4] {
        [&self.dark_a, &self.dark_b, &self.light_a, &self.light_b]
    }
}

/// A planet, for the players who held it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanetCell {
    pub held: u64,
    /// Games the holder won by this planet's condition (R9).
    pub won_by_planet: u64,
    /// Games the holder won, any way.
    pub holder_won: u64,
    pub holder_lost: u64,
}

impl PlanetCell {
    fn merge(&mut self, o: &PlanetCell) {
        self.held += o.held;
        self.won_by_planet += o.won_by_planet;
        self.holder_won += o.holder_won;
        self.holder_lost += o.holder_lost;
    }
}

/// A card, for the players who used it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardCell {
    pub uses: u64,
    /// Uses whose resolution changed nothing but the card's place.
    pub idle_uses: u64,
    /// Games in which the player used the card at least once.
    pub users: u64,
    pub user_won: u64,
    pub user_lost: u64,
}

impl CardCell {
    fn merge(&mut self, o: &CardCell) {
        self.uses += o.uses;
        self.idle_uses += o.idle_uses;
        self.users += o.users;
        self.user_won += o.user_won;
        self.user_lost += o.user_lost;
    }
}

/// Game lengths in turns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turns {
    pub sum: u64,
    pub sum_of_squares: u64,
    pub min: u32,
    pub max: u32,
}

/// A card withheld from side A: the games without it beside the same games as dealt.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ablation {
    /// A's results with the card withheld.
    pub without: Tally,
    /// A's score as dealt minus A's score without the card, game by game
    /// (pairs where either game was abandoned are left out).
    pub effect: PairedSums,
}

/// Everything the report counts. Whole numbers only: the counts of shards add
/// up to the counts of the run they split.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub games: u64,
    pub results: ByAColour<Tally>,
    /// How games ended (`capture`, `planet jupiter`, …).
    pub ways: BTreeMap<String, ByAColour<Tally>>,
    pub planets: BTreeMap<String, BySeat<PlanetCell>>,
    pub cards: BTreeMap<String, BySeat<CardCell>>,
    pub turns: Turns,
    pub ablations: BTreeMap<String, ByAColour<Ablation>>,
    /// One character a game in the order of `played`: `A` or `B` won, `=` a
    /// draw, `x` abandoned. Lets two runs on the same seed be compared game by game.
    pub outcomes: String,
    /// The design metrics' counts; none in a report written before they were
    /// counted (or merged with one), whose metrics are then unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub design: Option<Design>,
}

/// Counts behind Ludii's design metrics, over the games not abandoned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Design {
    /// Lead changes in material, summed over the games.
    pub lead_changes: u64,
    /// Games won by a side that was behind in material at some turn.
    pub comebacks: u64,
    /// Games won in the first `EARLY_TURNS` turns.
    pub early_wins: u64,
}

impl Counts {
    fn fold(&mut self, played: &Played) {
        let g = &played.game;
        let outcome = g.outcome_char();
        if self.games == 0 {
            self.design = Some(Design::default());
        }
        if let Some(d) = self.design.as_mut().filter(|_| !g.abandoned()) {
            d.lead_changes += u64::from(g.lead_changes);
            d.comebacks += u64::from(g.winner.is_some() && g.winner_trailed);
            d.early_wins += u64::from(g.early_win());
        }
        self.games += 1;
        self.outcomes.push(outcome);
        self.results.get_mut(g.a_colour).add(outcome);
        self.ways.entry(g.end.to_string()).or_default().get_mut(g.a_colour).add(outcome);
        for (colour, planet) in [(Player::Dark, &g.dark_planet), (Player::Light, &g.light_planet)] {
            let Some(planet) = planet else { continue };
            let side = Side::playing(colour, g.a_colour);
            let cell = self.planets.entry(planet.clone()).or_default().get_mut(colour, side);
            cell.held += 1;
            match g.winner_colour {
                Some(w) if w == colour => {
                    cell.holder_won += 1;
                    if matches!(&g.end, Ending::Planet(id) if id == planet) {
                        cell.won_by_planet += 1;
                    }
                }
                Some(_) => cell.holder_lost += 1,
                None => {}
            }
        }
        for (side, uses) in [(Side::A, &g.cards.a), (Side::B, &g.cards.b)] {
            for (card, used) in uses {
                let cell = self.cards.entry(card.clone()).or_default().get_mut(g.colour(side), side);
                cell.uses += u64::from(used.uses);
                cell.idle_uses += u64::from(used.idle);
                cell.users += 1;
                match g.winner {
                    Some(w) if w == side => cell.user_won += 1,
                    Some(_) => cell.user_lost += 1,
                    None => {}
                }
            }
        }
        let t = &mut self.turns;
        if self.games == 1 {
            (t.min, t.max) = (g.turns, g.turns);
        }
        t.sum += u64::from(g.turns);
        t.sum_of_squares += u64::from(g.turns) * u64::from(g.turns);
        t.min = t.min.min(g.turns);
        t.max = t.max.max(g.turns);
        for ablated in &played.ablated {
            let card = ablated.withheld.clone().unwrap_or_default();
            let cell = self.ablations.entry(card).or_default().get_mut(g.a_colour);
            cell.without.add(ablated.outcome_char());
            if let (Some(with), Some(without)) = (g.a_score_halves(), ablated.a_score_halves()) {
                cell.effect.add(with - without);
            }
        }
    }

    /// Adds another part of the same run. `outcomes` is left to the caller,
    /// which knows the order of the parts.
    fn merge(&mut self, o: &Counts) {
        let (first, other_first) = (self.games == 0, o.games == 0);
        self.design = match (first, other_first, self.design, o.design) {
            (_, true, mine, _) => mine,
            (true, false, _, theirs) => theirs,
            (false, false, Some(m), Some(t)) => Some(Design {
                lead_changes: m.lead_changes + t.lead_changes,
                comebacks: m.comebacks + t.comebacks,
                early_wins: m.early_wins + t.early_wins,
            }),
            _ => None,
        };
        self.games += o.games;
        self.results.a_dark.merge(&o.results.a_dark);
        self.results.a_light.merge(&o.results.a_light);
        for (way, t) in &o.ways {
            let mine = self.ways.entry(way.clone()).or_default();
            mine.a_dark.merge(&t.a_dark);
            mine.a_light.merge(&t.a_light);
        }
        for (planet, seats) in &o.planets {
            let mine = self.planets.entry(planet.clone()).or_default();
            for (m, t) in [
                (&mut mine.dark_a, &seats.dark_a),
                (&mut mine.dark_b, &seats.dark_b),
                (&mut mine.light_a, &seats.light_a),
                (&mut mine.light_b, &seats.light_b),
            ] {
                m.merge(t);
            }
        }
        for (card, seats) in &o.cards {
            let mine = self.cards.entry(card.clone()).or_default();
            for (m, t) in [
                (&mut mine.dark_a, &seats.dark_a),
                (&mut mine.dark_b, &seats.dark_b),
                (&mut mine.light_a, &seats.light_a),
                (&mut mine.light_b, &seats.light_b),
            ] {
                m.merge(t);
            }
        }
        let t = &mut self.turns;
        match (first, other_first) {
            (_, true) => {}
            (true, false) => (t.min, t.max) = (o.turns.min, o.turns.max),
            (false, false) => (t.min, t.max) = (t.min.min(o.turns.min), t.max.max(o.turns.max)),
        }
        t.sum += o.turns.sum;
        t.sum_of_squares += o.turns.sum_of_squares;
        for (card, halves) in &o.ablations {
            let mine = self.ablations.entry(card.clone()).or_default();
            for (m, t) in [(&mut mine.a_dark, &halves.a_dark), (&mut mine.a_light, &halves.a_light)] {
                m.without.merge(&t.without);
                m.effect.merge(&t.effect);
            }
        }
    }
}

/// A simulation's report: what was run, what was counted, and (when written)
/// the figures derived from the counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub meta: Meta,
    pub counts: Counts,
}

/// The report as written: the figures are derived, never read back.
#[derive(Serialize)]
struct ReportOut<'a> {
    format: &'static str,
    version: u32,
    meta: &'a Meta,
    figures: Figures,
    counts: &'a Counts,
    #[serde(skip_serializing_if = "Option::is_none")]
    comparison: Option<&'a Comparison>,
}

#[derive(Deserialize)]
struct ReportIn {
    format: String,
    version: u32,
    meta: Meta,
    counts: Counts,
}

impl serde::Serialize for Report {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.out(None).serialize(s)
    }
}

impl Report {
    pub(super) fn new(plan: &Plan, content: &Content) -> Report {
        let reproducible =
            [&plan.a, &plan.b].iter().all(|s| s.parse::<crate::ai::AgentSpec>().map_or(true, |s| s.reproducible()));
        Report {
            meta: Meta {
                program: format!("alien-checkers {}", env!("CARGO_PKG_VERSION")),
                deck: deck_as_named(&plan.deck, content),
                deck_contents: deck_contents(content),
                content_hash: content_hash(content),
                a: canonical(&plan.a),
                b: canonical(&plan.b),
                reproducible,
                seed: plan.seed,
                first_game: plan.first_game,
                games: plan.games,
                played: Vec::new(),
                ablate: plan.ablate.clone(),
                sprt: plan.sprt,
                swap_seats: plan.swap_seats,
                stopped: None,
                threads: plan.threads,
            },
            counts: Counts::default(),
        }
    }

    pub(super) fn fold(&mut self, played: &Played) {
        let i = played.game.index;
        match self.meta.played.last_mut() {
            Some(range) if range[1] == i => range[1] = i + 1,
            _ => self.meta.played.push([i, i + 1]),
        }
        self.counts.fold(played);
        if let Some(sprt) = self.meta.sprt {
            let state = self.sprt_figures(&sprt).state;
            if state != SprtState::Continue {
                self.meta.stopped = Some(format!("sprt: {}", if state == SprtState::AcceptH1 { "H1" } else { "H0" }));
            }
        }
    }

    /// The sequential test where it stands: on games (trinomial), or on
    /// game pairs (pentanomial) when the seats swap.
    fn sprt_figures(&self, s: &Sprt) -> SprtFigures {
        let llr = match self.pentanomial() {
            Some(pairs) => s.llr_pentanomial(&pairs),
            None => {
                let t = total(&self.counts.results);
                s.llr(t.a_wins, t.draws, t.b_wins)
            }
        };
        let (lower_bound, upper_bound) = s.bounds();
        SprtFigures { llr, lower_bound, upper_bound, state: s.state_at(llr), pairs: self.meta.swap_seats }
    }

    /// With the seats swapped, the pairs both of whose games the report holds
    /// (neither abandoned), by the points A took from them.
    pub fn pentanomial(&self) -> Option<Pentanomial> {
        if !self.meta.swap_seats {
            return None;
        }
        let games = indexed(self);
        let mut pairs = Pentanomial::default();
        for (&i, &first) in games.range(..).filter(|(i, _)| i.is_multiple_of(2)) {
            let second = games.get(&(i + 1)).copied();
            if let (Some(x), Some(y)) = (halves(first, true), second.and_then(|c| halves(c, true))) {
                pairs.add((x + y) as usize);
            }
        }
        Some(pairs)
    }

    /// Every figure, with the sequential test and the pairs' figures as this run has them.
    pub fn figures(&self) -> Figures {
        let mut f = figures(&self.counts, None);
        f.sprt = self.meta.sprt.map(|s| self.sprt_figures(&s));
        f.pairs = self.pentanomial().map(|p| PairFigures {
            counts: p.counts,
            pairs: p.pairs(),
            score: p.score(),
            elo: p.elo(),
        });
        f
    }

    pub(super) fn sprt_decided(&self) -> bool {
        self.meta.stopped.is_some()
    }

    /// The games planned but not in the report, as `[from, to)` ranges: what
    /// is left to play after an interruption.
    pub fn missing(&self) -> Vec<[u32; 2]> {
        self.meta.missing()
    }

    fn out<'a>(&'a self, comparison: Option<&'a Comparison>) -> ReportOut<'a> {
        ReportOut {
            format: REPORT_FORMAT,
            version: REPORT_VERSION,
            meta: &self.meta,
            figures: self.figures(),
            counts: &self.counts,
            comparison,
        }
    }

    /// The report as pretty JSON, with a comparison if given.
    pub fn to_json(&self, comparison: Option<&Comparison>) -> String {
        serde_json::to_string_pretty(&self.out(comparison)).expect("a report serializes")
    }
}

/// The hash of what the content holds, by ids: the deck manifest's, then each
/// card's and planet's manifest and script, in the deck's order. No path goes
/// in (`Content::hashes`, which saves keep, names files).
pub fn content_hash(content: &Content) -> String {
    let fnv = crate::hash::fnv1a;
    let mut all = format!("deck {:016x}\n", content.deck_hash);
    for (kind, defs) in [("card", &content.cards), ("planet", &content.planets)] {
        for d in defs {
            let script = fnv(d.script.source.as_bytes());
            let _ = writeln!(all, "{kind} {} {:016x} {script:016x}", d.id, d.manifest_hash);
        }
    }
    format!("{:016x}", fnv(all.as_bytes()))
}

/// The deck as a report names it: a name as given; a path from the content
/// root when the deck lies in it (`cards/decks/x.yaml`, however the path was
/// spelled), else the file's name.
fn deck_as_named(deck: &str, content: &Content) -> String {
    if content.deck_path != Path::new(deck) {
        return deck.to_string();
    }
    let file_name = || content.deck_path.file_name().map_or(deck.to_string(), |n| n.to_string_lossy().into_owned());
    match (std::fs::canonicalize(&content.deck_path), std::fs::canonicalize(content.root.path())) {
        (Ok(path), Ok(root)) => path.strip_prefix(&root).map_or_else(|_| file_name(), |p| p.display().to_string()),
        _ => file_name(),
    }
}

/// The deck manifest as JSON with its cards as an object, card id → copies
/// (the manifest type writes them as pairs).
fn deck_contents(content: &Content) -> serde_json::Value {
    let mut value = serde_json::to_value(&content.deck).unwrap_or(serde_json::Value::Null);
    if let Some(cards) = value.get("cards").and_then(|c| c.as_array()) {
        let object: serde_json::Map<String, serde_json::Value> =
            cards.iter().filter_map(|pair| Some((pair.get(0)?.as_str()?.to_string(), pair.get(1)?.clone()))).collect();
        value["cards"] = serde_json::Value::Object(object);
    }
    value
}

fn canonical(spec: &str) -> String {
    spec.parse::<crate::ai::AgentSpec>().map_or_else(|_| spec.to_string(), |s| s.to_string())
}

fn sprt_state(sprt: &Sprt, c: &Counts) -> SprtState {
    let t = total(&c.results);
    sprt.state(t.a_wins, t.draws, t.b_wins)
}

fn total(r: &ByAColour<Tally>) -> Tally {
    let mut t = r.a_dark;
    t.merge(&r.a_light);
    t
}

/// Reads a report written by `simulate --json`, `--out` or `merge`. Every
/// error names the file and what is wrong.
pub fn read_report(path: &Path) -> Result<Report, String> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{name}: not JSON ({e}); a simulation report was expected"))?;
    match value.get("format").and_then(|f| f.as_str()) {
        Some(REPORT_FORMAT) => {}
        Some(other) => return Err(format!("{name}: a '{}' file, not a simulation report", visible(other))),
        None => return Err(format!("{name}: not a simulation report (no \"format\": \"{REPORT_FORMAT}\")")),
    }
    let report: ReportIn =
        serde_json::from_value(value).map_err(|e| format!("{name}: a damaged simulation report: {e}"))?;
    if report.version > REPORT_VERSION {
        return Err(format!(
            "{name}: report version {} is newer than this program's ({REPORT_VERSION})",
            report.version
        ));
    }
    let _ = report.format;
    let report = Report { meta: report.meta, counts: report.counts };
    check_report(&name.to_string(), &report)?;
    Ok(report)
}

/// Refuses a report that could not have been written by this program in the
/// ways `merge`, `compare` and `missing` rely on, naming the file (`name`) and
/// the field: a `played` range that runs backwards, `first_game` + `games`
/// beyond the largest game index, `outcomes` with a character other than `A`,
/// `B`, `=` or `x` (so that it may be cut by byte), and ranges, counts and
/// outcomes that do not hold the same number of games.
fn check_report(name: &str, report: &Report) -> Result<(), String> {
    let damaged = |what: String| Err(format!("{name}: a damaged simulation report: {what}"));
    let meta = &report.meta;
    if let Some(r) = meta.played.iter().find(|r| r[0] > r[1]) {
        return damaged(format!("its played range [{}, {}] runs backwards (it starts after its end)", r[0], r[1]));
    }
    if meta.first_game.checked_add(meta.games).is_none() {
        return damaged(format!(
            "its first_game {} and games {} go beyond the last game index {}",
            meta.first_game,
            meta.games,
            u32::MAX
        ));
    }
    let outcomes = &report.counts.outcomes;
    if let Some(c) = outcomes.chars().find(|c| !matches!(c, 'A' | 'B' | '=' | 'x')) {
        return damaged(format!("its outcomes hold '{}', not one of A, B, = or x (one a game)", c.escape_default()));
    }
    let in_played: u64 = meta.played.iter().map(|r| u64::from(r[1] - r[0])).sum();
    if in_played != report.counts.games || outcomes.len() as u64 != report.counts.games {
        return damaged(format!(
            "its ranges hold {in_played} games, its counts {} and its outcomes {}",
            report.counts.games,
            outcomes.len()
        ));
    }
    check_counts(report).map_err(|what| format!("{name}: its counts disagree with its games: {what}"))
}

/// A tally's four numbers with their names.
fn tally_fields(t: &Tally) -> [(&'static str, u64); 4] {
    [("a_wins", t.a_wins), ("b_wins", t.b_wins), ("draws", t.draws), ("abandoned", t.abandoned)]
}

/// Whether the counts agree with the games' outcomes (one a game, the ranges
/// saying which game, and so which colour A played): results and ways of
/// ending exactly; planets, cards, lengths and ablations within what the
/// games allow. Says the first figure that does not, by its JSON name.
fn check_counts(report: &Report) -> Result<(), String> {
    let (meta, c) = (&report.meta, &report.counts);
    let mut games = ByAColour::<Tally>::default();
    let mut outcomes = c.outcomes.chars();
    for i in meta.played.iter().flat_map(|r| r[0]..r[1]) {
        games.get_mut(Plan::a_colour(i)).add(outcomes.next().unwrap_or('x'));
    }
    let mut ways = ByAColour::<Tally>::default();
    for t in c.ways.values() {
        ways.a_dark.merge(&t.a_dark);
        ways.a_light.merge(&t.a_light);
    }
    for (colour, from_games, results, ways) in [
        ("a_dark", &games.a_dark, &c.results.a_dark, &ways.a_dark),
        ("a_light", &games.a_light, &c.results.a_light, &ways.a_light),
    ] {
        for ((field, played), ((_, counted), (_, by_ways))) in
            tally_fields(from_games).into_iter().zip(tally_fields(results).into_iter().zip(tally_fields(ways)))
        {
            if counted != played {
                return Err(format!(
                    "results.{colour}.{field} is {counted}, but its outcomes hold {played} such games"
                ));
            }
            if by_ways != played {
                return Err(format!(
                    "its ways of ending add up to {by_ways} {field} ({colour}), its outcomes to {played}"
                ));
            }
        }
    }
    // Each seat's games, wins and losses: Dark as A plays the games where A
    // is Dark, Dark as B those where A is Light, and so on.
    let seats = [
        ("dark_a", games.a_dark.games(), games.a_dark.a_wins, games.a_dark.b_wins),
        ("dark_b", games.a_light.games(), games.a_light.b_wins, games.a_light.a_wins),
        ("light_a", games.a_light.games(), games.a_light.a_wins, games.a_light.b_wins),
        ("light_b", games.a_dark.games(), games.a_dark.b_wins, games.a_dark.a_wins),
    ];
    let over = |what: String, n: u64, bound: u64, of: &str| {
        if n > bound { Err(format!("{what} is {n}, more than the {bound} {of}")) } else { Ok(()) }
    };
    let mut held = [0u64; 4];
    for (planet, cells) in &c.planets {
        for (k, (cell, (seat, played, won, lost))) in cells.all().into_iter().zip(seats).enumerate() {
            let at = |f: &str| format!("planets.{}.{seat}.{f}", visible(planet));
            held[k] = held[k].saturating_add(cell.held);
            over(at("held"), cell.held, played, "games of that seat")?;
            over(at("holder_won"), cell.holder_won, won, "wins of that seat")?;
            over(at("holder_lost"), cell.holder_lost, lost, "losses of that seat")?;
            over(at("won_by_planet"), cell.won_by_planet, cell.holder_won, "games its holder won")?;
        }
    }
    for (total, (seat, played, _, _)) in held.into_iter().zip(seats) {
        over(format!("the planets held in seat {seat}"), total, played, "games of that seat")?;
    }
    for (card, cells) in &c.cards {
        for (cell, (seat, played, won, lost)) in cells.all().into_iter().zip(seats) {
            let at = |f: &str| format!("cards.{}.{seat}.{f}", visible(card));
            over(at("users"), cell.users, played, "games of that seat")?;
            over(at("user_won"), cell.user_won, won, "wins of that seat")?;
            over(at("user_lost"), cell.user_lost, lost, "losses of that seat")?;
            over(at("idle_uses"), cell.idle_uses, cell.uses, "uses")?;
            over(at("users"), cell.users, cell.uses, "uses")?;
        }
    }
    let t = &c.turns;
    if c.games > 0 {
        let (low, high) = (u64::from(t.min).saturating_mul(c.games), u64::from(t.max).saturating_mul(c.games));
        if t.min > t.max || t.sum < low || t.sum > high {
            return Err(format!("turns.sum {} is not within {} games of {} to {} turns", t.sum, c.games, t.min, t.max));
        }
    }
    for (card, cells) in &c.ablations {
        for (colour, cell, played) in
            [("a_dark", &cells.a_dark, games.a_dark.games()), ("a_light", &cells.a_light, games.a_light.games())]
        {
            let at = |f: &str| format!("ablations.{}.{colour}.{f}", visible(card));
            if cell.without.games() != played {
                return Err(format!("{} holds {} games, its outcomes {played}", at("without"), cell.without.games()));
            }
            over(at("effect.pairs"), cell.effect.pairs, played, "games")?;
        }
    }
    Ok(())
}

/// Merges reports of parts of one run into the report of the games they hold
/// together. Refuses parts of different runs (deck, content, players, seed,
/// ablations, program) and parts that hold the same game, naming the file.
pub fn merge(parts: &[(String, Report)]) -> Result<Report, String> {
    let Some((first_name, first)) = parts.first() else { return Err("nothing to merge".into()) };
    for (name, part) in parts {
        check_report(name, part)?;
    }
    let key = |m: &Meta| {
        [
            ("program", m.program.clone()),
            ("deck", m.deck.clone()),
            ("content hash", m.content_hash.clone()),
            ("player A", m.a.clone()),
            ("player B", m.b.clone()),
            ("seed", m.seed.to_string()),
            ("ablated cards", m.ablate.join(",")),
            (
                "sequential test",
                m.sprt.map_or("none".into(), |t| format!("{},{},{},{}", t.elo0, t.elo1, t.alpha, t.beta)),
            ),
            ("seats swapped", m.swap_seats.to_string()),
        ]
    };
    for (name, part) in &parts[1..] {
        for ((what, mine), (_, theirs)) in key(&first.meta).iter().zip(key(&part.meta)) {
            if *mine != theirs {
                let (theirs, mine) = (visible(&theirs), visible(mine));
                return Err(format!(
                    "{name}: not part of the same run as {first_name}: its {what} is '{theirs}', not '{mine}'"
                ));
            }
        }
    }
    // Every range with its outcomes, to be put in game order.
    let mut chunks: Vec<([u32; 2], &str, &str)> = Vec::new();
    for (name, part) in parts {
        let mut at = 0;
        for r in &part.meta.played {
            // Checked above: the range runs forwards and the outcomes are
            // ASCII, one byte a game, as many as the ranges hold.
            let n = (r[1] - r[0]) as usize;
            let outcomes = part.counts.outcomes.get(at..at + n).ok_or_else(|| format!("{name}: outcomes too short"))?;
            chunks.push((*r, outcomes, name));
            at += n;
        }
    }
    chunks.sort_by_key(|c| c.0);
    for pair in chunks.windows(2) {
        let ((a, _, a_name), (b, _, b_name)) = (pair[0], pair[1]);
        if b[0] < a[1] {
            let (from, to) = (b[0], a[1].min(b[1]) - 1);
            let which = if a_name == b_name { format!("twice in {a_name}") } else { format!("also in {a_name}") };
            return Err(format!("{b_name}: games {from}-{to} are {which}; each game may be merged once"));
        }
    }
    let mut meta = first.meta.clone();
    let mut counts = Counts::default();
    meta.played.clear();
    for (range, _, _) in &chunks {
        match meta.played.last_mut() {
            Some(last) if last[1] == range[0] => last[1] = range[1],
            _ => meta.played.push(*range),
        }
    }
    for (_, part) in parts {
        counts.merge(&part.counts);
    }
    counts.outcomes = chunks.iter().map(|c| c.1).collect();
    meta.first_game = parts.iter().map(|(_, p)| p.meta.first_game).min().unwrap_or(0);
    let end = parts.iter().map(|(_, p)| p.meta.first_game + p.meta.games).max().unwrap_or(0);
    meta.games = end - meta.first_game;
    meta.threads = parts.iter().map(|(_, p)| p.meta.threads).max().unwrap_or(1);
    // A sequential test's stop holds for the whole; an interruption only
    // while games are still missing.
    let stops = || parts.iter().filter_map(|(_, p)| p.meta.stopped.clone());
    meta.stopped = stops().find(|s| s.starts_with("sprt"));
    if meta.stopped.is_none() && !meta.missing().is_empty() {
        meta.stopped = stops().next();
    }
    meta.reproducible = parts.iter().all(|(_, p)| p.meta.reproducible);
    Ok(Report { meta, counts })
}

/// A side's (or a colour's) results.
#[derive(Clone, Debug, Serialize)]
pub struct Record {
    pub games: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub abandoned: u64,
    /// Wins over games (abandoned games left out).
    pub win_rate: Option<Estimate>,
    /// (wins + draws / 2) over games (abandoned games left out).
    pub score: Option<Estimate>,
    /// The likelihood that this side is the stronger: Φ((W − L) / √(W + L)).
    pub superiority: Option<f64>,
    /// The Elo difference the score stands for, with its interval (as cutechess-cli).
    pub elo: Option<Estimate>,
}

fn record(t: &Tally) -> Record {
    let n = t.a_wins + t.b_wins + t.draws;
    Record {
        games: t.games(),
        wins: t.a_wins,
        losses: t.b_wins,
        draws: t.draws,
        abandoned: t.abandoned,
        win_rate: wilson(t.a_wins as f64, n),
        score: wilson(t.a_wins as f64 + t.draws as f64 / 2.0, n),
        superiority: stats::likelihood_of_superiority(t.a_wins, t.b_wins),
        elo: stats::trinomial_elo(t.a_wins, t.draws, t.b_wins),
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct LengthFigures {
    /// Mean turns with a normal 95 % interval.
    pub mean: Option<Estimate>,
    pub sd: f64,
    pub min: u32,
    pub max: u32,
}

#[derive(Clone, Debug, Serialize)]
pub struct WayFigures {
    pub games: u64,
    /// Share of all games.
    pub share: Option<Estimate>,
    pub a_wins: u64,
    pub b_wins: u64,
    pub dark_wins: u64,
    pub light_wins: u64,
    pub draws: u64,
}

/// A planet's holders, or those of one colour or side.
#[derive(Clone, Debug, Serialize)]
pub struct Holders {
    pub held: u64,
    pub won_by_planet: u64,
    /// Games won by the planet's condition, over games held.
    pub planet_win_rate: Option<Estimate>,
    /// Games won by its holder any way, over games held.
    pub holder_win_rate: Option<Estimate>,
}

fn holders(cells: &[&PlanetCell]) -> Holders {
    let mut c = PlanetCell::default();
    cells.iter().for_each(|x| c.merge(x));
    Holders {
        held: c.held,
        won_by_planet: c.won_by_planet,
        planet_win_rate: wilson(c.won_by_planet as f64, c.held),
        holder_win_rate: wilson(c.holder_won as f64, c.held),
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct PlanetFigures {
    pub all: Holders,
    pub dark: Holders,
    pub light: Holders,
    pub a: Holders,
    pub b: Holders,
}

/// A card's users, or those of one colour or side.
#[derive(Clone, Debug, Serialize)]
pub struct Users {
    pub uses: u64,
    pub idle_uses: u64,
    /// Players (one a side a game) who used it at least once.
    pub users: u64,
    /// Games won by its users over its users. Not an effect of the card: long
    /// games see more cards used (see `ablations` for effects).
    pub user_win_rate: Option<Estimate>,
}

fn users(cells: &[&CardCell]) -> Users {
    let mut c = CardCell::default();
    cells.iter().for_each(|x| c.merge(x));
    Users { uses: c.uses, idle_uses: c.idle_uses, users: c.users, user_win_rate: wilson(c.user_won as f64, c.users) }
}

#[derive(Clone, Debug, Serialize)]
pub struct CardFigures {
    pub uses_per_game: f64,
    pub all: Users,
    pub dark: Users,
    pub light: Users,
    pub a: Users,
    pub b: Users,
}

/// The effect of withholding a card from side A.
#[derive(Clone, Debug, Serialize)]
pub struct AblationFigures {
    pub pairs: u64,
    /// A's score in the games as dealt and with the card withheld.
    pub a_score_as_dealt: Option<Estimate>,
    pub a_score_without: Option<Estimate>,
    /// A's score as dealt minus without, paired by game: what the card is worth to its side.
    pub effect: Option<Estimate>,
    /// The likelihood that the card helps its side (the effect is above 0).
    pub superiority: Option<f64>,
    /// The effect for Dark (games where A played Dark) and for Light.
    pub effect_for_dark: Option<Estimate>,
    pub effect_for_light: Option<Estimate>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SprtFigures {
    pub llr: f64,
    pub lower_bound: f64,
    pub upper_bound: f64,
    pub state: SprtState,
    /// Tested on game pairs (pentanomial), the seats swapped.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pairs: bool,
}

/// A's results by game pair when each deal is played twice with the seats swapped.
#[derive(Clone, Debug, Serialize)]
pub struct PairFigures {
    /// Pairs by A's points from them: 0, ½, 1, 1½, 2.
    pub counts: [u64; 5],
    pub pairs: u64,
    /// A's score with the pentanomial interval, and its Elo.
    pub score: Option<Estimate>,
    pub elo: Option<Estimate>,
}

/// Every figure of a report, each with its 95 % interval where it is an estimate.
#[derive(Clone, Debug, Serialize)]
pub struct Figures {
    pub games: u64,
    pub a: Record,
    pub b: Record,
    pub a_as_dark: Record,
    pub a_as_light: Record,
    pub dark: Record,
    pub light: Record,
    pub length: LengthFigures,
    pub ways: BTreeMap<String, WayFigures>,
    pub planets: BTreeMap<String, PlanetFigures>,
    pub cards: BTreeMap<String, CardFigures>,
    pub ablations: BTreeMap<String, AblationFigures>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtFigures>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs: Option<PairFigures>,
    pub design: DesignFigures,
}

/// Ludii's design metrics and the planet balance, over the games not abandoned.
#[derive(Clone, Debug, Serialize)]
pub struct DesignFigures {
    /// Share of games not drawn.
    pub decisiveness: Option<Estimate>,
    /// Lead changes in material a game (unknown for reports without them).
    pub lead_changes: Option<f64>,
    /// Share of won games whose winner was behind in material at some turn.
    pub drama: Option<Estimate>,
    /// Share of games won in the first `EARLY_TURNS` turns.
    pub early_wins: Option<Estimate>,
    pub balance: super::paired::Balance,
}

fn design_figures(c: &Counts) -> DesignFigures {
    let all = total(&c.results);
    let played = all.a_wins + all.b_wins + all.draws;
    let won = all.a_wins + all.b_wins;
    let planets = c
        .planets
        .iter()
        .map(|(p, s)| {
            let h = holders_counts(&s.all());
            (p.clone(), h)
        })
        .collect();
    DesignFigures {
        decisiveness: wilson(won as f64, played),
        lead_changes: c.design.filter(|_| played > 0).map(|d| d.lead_changes as f64 / played as f64),
        drama: c.design.and_then(|d| wilson(d.comebacks as f64, won)),
        early_wins: c.design.and_then(|d| wilson(d.early_wins as f64, played)),
        balance: super::paired::balance_of_counts(&planets),
    }
}

/// A planet's holder results (wins, draws, losses) over these cells.
fn holders_counts(cells: &[&PlanetCell]) -> [u64; 3] {
    let (held, won, lost) =
        cells.iter().fold((0, 0, 0), |(h, w, l), c| (h + c.held, w + c.holder_won, l + c.holder_lost));
    [won, held.saturating_sub(won + lost), lost]
}

/// Dark's results from the results by A's colour.
fn dark_tally(r: &ByAColour<Tally>) -> Tally {
    let mut t = r.a_dark;
    t.merge(&r.a_light.swapped());
    t
}

pub fn figures(c: &Counts, sprt: Option<Sprt>) -> Figures {
    let all = total(&c.results);
    let dark = dark_tally(&c.results);
    let n = c.games as f64;
    let mean = if c.games == 0 { 0.0 } else { c.turns.sum as f64 / n };
    let sd =
        if c.games < 2 { 0.0 } else { ((c.turns.sum_of_squares as f64 - n * mean * mean) / (n - 1.0)).max(0.0).sqrt() };
    let half = if c.games < 2 { 0.0 } else { stats::Z95 * sd / n.sqrt() };
    Figures {
        games: c.games,
        a: record(&all),
        b: record(&all.swapped()),
        a_as_dark: record(&c.results.a_dark),
        a_as_light: record(&c.results.a_light),
        dark: record(&dark),
        light: record(&dark.swapped()),
        length: LengthFigures {
            mean: (c.games > 0).then_some(Estimate { value: mean, low: mean - half, high: mean + half }),
            sd,
            min: c.turns.min,
            max: c.turns.max,
        },
        ways: c
            .ways
            .iter()
            .map(|(way, t)| {
                let (s, d) = (total(t), dark_tally(t));
                let games = s.games();
                let f = WayFigures {
                    games,
                    share: wilson(games as f64, c.games),
                    a_wins: s.a_wins,
                    b_wins: s.b_wins,
                    dark_wins: d.a_wins,
                    light_wins: d.b_wins,
                    draws: s.draws,
                };
                (way.clone(), f)
            })
            .collect(),
        planets: c
            .planets
            .iter()
            .map(|(p, s)| {
                let f = PlanetFigures {
                    all: holders(&s.all()),
                    dark: holders(&[&s.dark_a, &s.dark_b]),
                    light: holders(&[&s.light_a, &s.light_b]),
                    a: holders(&[&s.dark_a, &s.light_a]),
                    b: holders(&[&s.dark_b, &s.light_b]),
                };
                (p.clone(), f)
            })
            .collect(),
        cards: c
            .cards
            .iter()
            .map(|(card, s)| {
                let all = users(&s.all());
                let f = CardFigures {
                    uses_per_game: if c.games == 0 { 0.0 } else { all.uses as f64 / n },
                    all,
                    dark: users(&[&s.dark_a, &s.dark_b]),
                    light: users(&[&s.light_a, &s.light_b]),
                    a: users(&[&s.dark_a, &s.light_a]),
                    b: users(&[&s.dark_b, &s.light_b]),
                };
                (card.clone(), f)
            })
            .collect(),
        ablations: c
            .ablations
            .iter()
            .map(|(card, h)| {
                let mut effect = h.a_dark.effect;
                effect.merge(&h.a_light.effect);
                let mut without = h.a_dark.without;
                without.merge(&h.a_light.without);
                let f = AblationFigures {
                    pairs: effect.pairs,
                    a_score_as_dealt: record(&all).score,
                    a_score_without: record(&without).score,
                    effect: effect.estimate(),
                    superiority: effect.superiority(),
                    effect_for_dark: h.a_dark.effect.estimate(),
                    effect_for_light: h.a_light.effect.estimate(),
                };
                (card.clone(), f)
            })
            .collect(),
        sprt: sprt.map(|s| {
            let (lower_bound, upper_bound) = s.bounds();
            SprtFigures {
                llr: s.llr(all.a_wins, all.draws, all.b_wins),
                lower_bound,
                upper_bound,
                state: sprt_state(&s, c),
                pairs: false,
            }
        }),
        pairs: None,
        design: design_figures(c),
    }
}

/// Where the sequential test stands, in words that match its numbers: the
/// LLR is between its bounds while undecided, at or past one when decided.
fn sprt_line(s: &SprtFigures) -> String {
    let (llr, low, high) = (s.llr, s.lower_bound, s.upper_bound);
    let on = if s.pairs { "A's score by deal pairs (pentanomial)" } else { "A's score" };
    match s.state {
        SprtState::Continue => {
            format!("SPRT on {on}: LLR {llr:.2}, between its bounds {low:.2} and {high:.2}: not decided yet")
        }
        SprtState::AcceptH1 => format!("SPRT on {on}: LLR {llr:.2} reached the upper bound {high:.2}: H1 accepted"),
        SprtState::AcceptH0 => format!("SPRT on {on}: LLR {llr:.2} reached the lower bound {low:.2}: H0 accepted"),
    }
}

fn opt(e: &Option<Estimate>, f: fn(&Estimate) -> String) -> String {
    e.as_ref().map_or_else(|| "-".into(), f)
}

/// `+12 [-8, +33]`: an Elo difference and its interval.
fn elo_text(e: &Estimate) -> String {
    format!("{:+.0} [{:+.0}, {:+.0}]", e.value, e.low, e.high)
}

fn pct_opt(p: Option<f64>) -> String {
    p.map_or_else(|| "-".into(), |p| format!("{:.1}%", 100.0 * p))
}

/// The report as a table a designer reads. Every rate is followed by its 95 %
/// interval in brackets. What a report file may hold as text (its deck,
/// players, program, the ways games ended, planets' and cards' ids) is made
/// visible (text.rs): a report read back, or merged, may come from anywhere.
pub fn table(r: &Report) -> String {
    let m = &r.meta;
    let f = r.figures();
    let mut out = String::new();
    let ranges: Vec<String> = m.played.iter().map(|r| format!("{}-{}", r[0], r[1].saturating_sub(1))).collect();
    let _ = writeln!(
        out,
        "{} games on deck {} (seed {}, games {}): A = {}, B = {}",
        f.games,
        visible(&m.deck),
        m.seed,
        if ranges.is_empty() { "none".into() } else { ranges.join(", ") },
        visible(&m.a),
        visible(&m.b)
    );
    let _ = writeln!(
        out,
        "{}, content {}{}; A played Dark in {} games and Light in {} (Dark in even-numbered games)",
        visible(&m.program),
        visible(&m.content_hash),
        if m.reproducible { "" } else { ", NOT reproducible (a player has a time limit)" },
        f.a_as_dark.games,
        f.a_as_light.games
    );
    if let Some(why) = &m.stopped {
        let _ = writeln!(out, "stopped early: {}", visible(why));
    }
    let _ = writeln!(out, "every rate: per cent [95% interval]; score = (wins + draws/2) / games");
    let _ = writeln!(
        out,
        "\n{:<12} {:>6} {:>6} {:>6} {:>6}  {:<22} {:<22} {:<20} {:>6}",
        "", "games", "wins", "losses", "draws", "win rate", "score", "Elo", "LOS"
    );
    for (label, rec) in [
        ("A", &f.a),
        ("B", &f.b),
        ("A as Dark", &f.a_as_dark),
        ("A as Light", &f.a_as_light),
        ("Dark", &f.dark),
        ("Light", &f.light),
    ] {
        let _ = writeln!(
            out,
            "{label:<12} {:>6} {:>6} {:>6} {:>6}  {:<22} {:<22} {:<20} {:>6}",
            rec.games,
            rec.wins,
            rec.losses,
            rec.draws,
            opt(&rec.win_rate, Estimate::percent),
            opt(&rec.score, Estimate::percent),
            opt(&rec.elo, elo_text),
            pct_opt(rec.superiority)
        );
    }
    let _ = writeln!(out, "Elo: the Elo difference the score stands for, and the score's interval in Elo");
    if let Some(p) = &f.pairs {
        let _ = writeln!(
            out,
            "A by deal pairs, seats swapped ({} pairs; A's points 0/0.5/1/1.5/2: {}): score {}, Elo {}",
            p.pairs,
            p.counts.map(|c| c.to_string()).join("/"),
            opt(&p.score, Estimate::percent),
            opt(&p.elo, elo_text)
        );
    }
    if f.a.abandoned > 0 {
        let _ = writeln!(out, "abandoned: {} games (left out of every rate)", f.a.abandoned);
    }
    if let Some(s) = &f.sprt {
        let _ = writeln!(out, "{}", sprt_line(s));
    }
    let _ = writeln!(
        out,
        "game length: {} turns (sd {:.1}, from {} to {})",
        opt(&f.length.mean, Estimate::plain),
        f.length.sd,
        f.length.min,
        f.length.max
    );
    let d = &f.design;
    let _ = writeln!(
        out,
        "design: decisiveness {}, lead changes {} a game, drama {}, won in the first {} turns {}",
        opt(&d.decisiveness, Estimate::percent),
        d.lead_changes.map_or_else(|| "-".into(), |x| format!("{x:.2}")),
        opt(&d.drama, Estimate::percent),
        super::paired::EARLY_TURNS,
        opt(&d.early_wins, Estimate::percent)
    );
    let _ = writeln!(
        out,
        "(decisiveness: games not drawn; lead changes: of the side ahead in material, once a turn; \
         drama: wins by a side once behind in material)"
    );
    if let Some(rms) = &d.balance.rms {
        let holders: Vec<String> = d
            .balance
            .planets
            .iter()
            .map(|(p, (_, s))| format!("{} {:.1}% ({:+.1})", visible(p), 100.0 * s, 100.0 * (s - 0.5)))
            .collect();
        let _ = writeln!(out, "planet balance: holder's score (distance from 50%): {}", holders.join(", "));
        let _ = writeln!(
            out,
            "planet balance: RMS distance from 50% {} (0 is balanced; interval resamples each planet's results)",
            Estimate::percent(rms)
        );
    }
    let _ = writeln!(
        out,
        "\n{:<22} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}  share",
        "how the game ended", "games", "A", "B", "Dark", "Light", "draw"
    );
    for (way, w) in &f.ways {
        let _ = writeln!(
            out,
            "{:<22} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}  {}",
            visible(way),
            w.games,
            w.a_wins,
            w.b_wins,
            w.dark_wins,
            w.light_wins,
            w.draws,
            opt(&w.share, Estimate::percent)
        );
    }
    if !f.planets.is_empty() {
        let _ = writeln!(
            out,
            "\n{:<10} {:>5} {:>5}  {:<22} {:<22} {:<22} {:<22}",
            "planet", "held", "won", "won by planet", "holder won", "holder won as Dark", "holder won as Light"
        );
        for (planet, p) in &f.planets {
            let _ = writeln!(
                out,
                "{:<10} {:>5} {:>5}  {:<22} {:<22} {:<22} {:<22}",
                visible(planet),
                p.all.held,
                p.all.won_by_planet,
                opt(&p.all.planet_win_rate, Estimate::percent),
                opt(&p.all.holder_win_rate, Estimate::percent),
                opt(&p.dark.holder_win_rate, Estimate::percent),
                opt(&p.light.holder_win_rate, Estimate::percent)
            );
        }
        let _ = writeln!(out, "(holder won by side: see --json, figures.planets.*.a and .b)");
    }
    if !f.cards.is_empty() {
        let _ = writeln!(
            out,
            "\n{:<14} {:>6} {:>5} {:>6} {:>6} {:>6}  {:<22} {:<22} {:<22}",
            "card", "uses", "idle", "/game", "users", "Dark", "user won", "as Dark", "as Light"
        );
        for (card, c) in &f.cards {
            let _ = writeln!(
                out,
                "{:<14} {:>6} {:>5} {:>6.2} {:>6} {:>6}  {:<22} {:<22} {:<22}",
                visible(card),
                c.all.uses,
                c.all.idle_uses,
                c.uses_per_game,
                c.all.users,
                c.dark.users,
                opt(&c.all.user_win_rate, Estimate::percent),
                opt(&c.dark.user_win_rate, Estimate::percent),
                opt(&c.light.user_win_rate, Estimate::percent)
            );
        }
        let _ = writeln!(
            out,
            "idle: uses that changed nothing but the card's place; users: players (a side a game) who used it;\n\
             \"user won\" is not the card's effect (long games see more cards): withhold it (--ablate) for that"
        );
    }
    if !f.ablations.is_empty() {
        let _ = writeln!(
            out,
            "\n{:<14} {:>6}  {:<22} {:<22} {:<22} {:<22} {:<22} {:>6}",
            "withheld from A",
            "pairs",
            "A's score as dealt",
            "A's score without",
            "effect (points)",
            "for Dark",
            "for Light",
            "P(>0)"
        );
        for (card, a) in &f.ablations {
            let _ = writeln!(
                out,
                "{:<14} {:>6}  {:<22} {:<22} {:<22} {:<22} {:<22} {:>6}",
                visible(card),
                a.pairs,
                opt(&a.a_score_as_dealt, Estimate::percent),
                opt(&a.a_score_without, Estimate::percent),
                opt(&a.effect, Estimate::points),
                opt(&a.effect_for_dark, Estimate::points),
                opt(&a.effect_for_light, Estimate::points),
                pct_opt(a.superiority)
            );
        }
        let _ = writeln!(out, "effect: A's score as dealt minus without the card, paired by game (same seed)");
    }
    out
}

/// One figure of two runs side by side.
#[derive(Clone, Debug, Serialize)]
pub struct Difference {
    pub figure: String,
    pub old: Option<Estimate>,
    pub new: Option<Estimate>,
    /// New minus old, with its 95 % interval.
    pub difference: Option<Estimate>,
    /// The likelihood that the new figure is above the old.
    pub superiority: Option<f64>,
    /// `paired` (game by game over the games both runs played with the same
    /// seed) or `independent` (Newcombe's interval).
    pub method: &'static str,
    /// The interval excludes 0 after Holm's correction over every row of the comparison.
    pub significant: bool,
}

/// A run compared with an earlier one.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    pub old: String,
    pub differences: Vec<Difference>,
}

/// A rate's successes and trials, from a Wilson estimate's counts.
fn independent(figure: String, old: (f64, u64), new: (f64, u64)) -> Difference {
    let difference = stats::rate_difference(new.0, new.1, old.0, old.1);
    let superiority = difference.map(|d| {
        let (p1, p2) = (new.0 / new.1 as f64, old.0 / old.1 as f64);
        let se = (p1 * (1.0 - p1) / new.1 as f64 + p2 * (1.0 - p2) / old.1 as f64).sqrt();
        stats::superiority_of(d.value, se)
    });
    Difference {
        figure,
        old: wilson(old.0, old.1),
        new: wilson(new.0, new.1),
        difference,
        superiority,
        method: "independent",
        significant: false,
    }
}

/// A side's score in one game from its outcome character, in halves.
fn halves(outcome: char, for_a: bool) -> Option<i64> {
    let a = match outcome {
        'A' => 2,
        'B' => 0,
        '=' => 1,
        _ => return None,
    };
    Some(if for_a { a } else { 2 - a })
}

/// Each game's index and outcome.
fn indexed(r: &Report) -> BTreeMap<u32, char> {
    let mut out = BTreeMap::new();
    let mut chars = r.counts.outcomes.chars();
    for range in &r.meta.played {
        for i in range[0]..range[1] {
            if let Some(c) = chars.next() {
                out.insert(i, c);
            }
        }
    }
    out
}

/// A score compared game by game over the games both runs played, when they
/// share a seed (the same deals and agent seeds where the decks allow).
fn paired(figure: String, old: &Report, new: &Report, dark: bool) -> Option<Difference> {
    if old.meta.seed != new.meta.seed {
        return None;
    }
    let (o, n) = (indexed(old), indexed(new));
    let mut sums = PairedSums::default();
    let (mut old_sum, mut new_sum, mut count) = (0i64, 0i64, 0u64);
    for (i, oc) in &o {
        let Some(nc) = n.get(i) else { continue };
        let for_a = !dark || Plan::a_colour(*i) == Player::Dark;
        let (Some(x), Some(y)) = (halves(*oc, for_a), halves(*nc, for_a)) else { continue };
        sums.add(y - x);
        old_sum += x;
        new_sum += y;
        count += 1;
    }
    if count < 2 {
        return None;
    }
    let same = if old.meta.content_hash == new.meta.content_hash { "same content" } else { "by game index" };
    Some(Difference {
        figure: format!("{figure} (paired, {same}, over {count} games)"),
        old: wilson(old_sum as f64 / 2.0, count),
        new: wilson(new_sum as f64 / 2.0, count),
        difference: sums.estimate(),
        superiority: sums.superiority(),
        method: "paired",
        significant: false,
    })
}

/// The figures of `new` against those of `old`: scores (paired when the runs
/// share a seed), ways of ending, planets, cards and ablation effects.
pub fn compare(old_name: &str, old: &Report, new: &Report) -> Result<Comparison, String> {
    check_report(old_name, old)?;
    check_report("the new report", new)?;
    let (fo, fnew) = (figures(&old.counts, None), figures(&new.counts, None));
    let mut differences = Vec::new();
    let score = |r: &Record| (r.wins as f64 + r.draws as f64 / 2.0, r.wins + r.losses + r.draws);
    let wins = |r: &Record| (r.wins as f64, r.wins + r.losses + r.draws);
    for (label, dark) in [("A's score", false), ("Dark's score", true)] {
        let (o, n) = if dark { (&fo.dark, &fnew.dark) } else { (&fo.a, &fnew.a) };
        differences.push(
            paired(label.into(), old, new, dark).unwrap_or_else(|| independent(label.into(), score(o), score(n))),
        );
    }
    differences.push(independent("A's score as Dark".into(), score(&fo.a_as_dark), score(&fnew.a_as_dark)));
    differences.push(independent("A's score as Light".into(), score(&fo.a_as_light), score(&fnew.a_as_light)));
    differences.push(independent("Dark's win rate".into(), wins(&fo.dark), wins(&fnew.dark)));
    let ways: std::collections::BTreeSet<&String> = fo.ways.keys().chain(fnew.ways.keys()).collect();
    for way in ways {
        let g = |f: &Figures| f.ways.get(way).map_or(0, |w| w.games) as f64;
        differences.push(independent(format!("ended by {way}"), (g(&fo), fo.games), (g(&fnew), fnew.games)));
    }
    let planets: std::collections::BTreeSet<&String> = fo.planets.keys().chain(fnew.planets.keys()).collect();
    for planet in planets {
        let h = |f: &Figures| {
            f.planets.get(planet).map_or((0.0, 0), |p| {
                let won = p.all.holder_win_rate.map_or(0.0, |e| e.value * p.all.held as f64);
                (won.round(), p.all.held)
            })
        };
        differences.push(independent(format!("planet {planet}: holder won"), h(&fo), h(&fnew)));
    }
    let cards: std::collections::BTreeSet<&String> = fo.cards.keys().chain(fnew.cards.keys()).collect();
    for card in cards {
        let u = |f: &Figures| {
            f.cards.get(card).map_or((0.0, 0), |c| {
                let won = c.all.user_win_rate.map_or(0.0, |e| e.value * c.all.users as f64);
                (won.round(), c.all.users)
            })
        };
        differences.push(independent(format!("card {card}: user won"), u(&fo), u(&fnew)));
    }
    for (card, a) in &fnew.ablations {
        let Some(o) = fo.ablations.get(card) else { continue };
        let (Some(x), Some(y)) = (o.effect, a.effect) else { continue };
        let (sx, sy) = ((x.high - x.value) / stats::Z95, (y.high - y.value) / stats::Z95);
        let se = (sx * sx + sy * sy).sqrt();
        let d = y.value - x.value;
        differences.push(Difference {
            figure: format!("effect of {card} for A"),
            old: Some(x),
            new: Some(y),
            difference: Some(Estimate { value: d, low: d - stats::Z95 * se, high: d + stats::Z95 * se }),
            superiority: Some(stats::superiority_of(d, se)),
            method: "independent",
            significant: false,
        });
    }
    let tested: Vec<usize> = (0..differences.len()).filter(|&i| differences[i].superiority.is_some()).collect();
    let p: Vec<f64> = tested.iter().filter_map(|&i| differences[i].superiority.map(stats::two_sided)).collect();
    for (&i, rejected) in tested.iter().zip(stats::holm(&p, 0.05)) {
        differences[i].significant = rejected;
    }
    Ok(Comparison { old: old_name.to_string(), differences })
}

/// The comparison as a table; the old report's name and the figures' names
/// (which name ways of ending, planets and cards) made visible (text.rs).
pub fn compare_table(c: &Comparison) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\ncompared with {} (new minus old; P = likelihood that new is above old)", visible(&c.old));
    let _ = writeln!(out, "{:<44} {:<22} {:<22} {:<22} {:>6}", "figure", "old", "new", "difference (points)", "P");
    for d in &c.differences {
        let significant = d.significant;
        let _ = writeln!(
            out,
            "{:<44} {:<22} {:<22} {:<22} {:>6}{}",
            visible(&d.figure),
            opt(&d.old, Estimate::percent),
            opt(&d.new, Estimate::percent),
            opt(&d.difference, Estimate::points),
            pct_opt(d.superiority),
            if significant { " *" } else { "" }
        );
    }
    let tested = c.differences.iter().filter(|d| d.superiority.is_some()).count();
    let _ = writeln!(
        out,
        "* significant after Holm's correction over the {tested} rows (family-wise 5%)\n\
         paired: the same game index of the same seed (the same deal where the content deals alike); the other \
         rows are independent:\ncompare with the old run's --games-out file (--compare OLD.jsonl) to pair every \
         figure by deal"
    );
    out
}

/// The row of a game as `--games-out` writes it, read back (for tests and tools).
pub fn read_row(line: &str) -> Result<GameRow, String> {
    serde_json::from_str(line).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::Sides;

    fn game(index: u32, winner: Option<Player>, turns: u32, lead_changes: u32, trailed: bool) -> Played {
        let a_colour = Plan::a_colour(index);
        let game = GameRow {
            index,
            seed: 1,
            a_colour,
            content: String::new(),
            dark_planet: Some("mars".into()),
            light_planet: Some("venus".into()),
            winner: winner.map(|w| Side::playing(w, a_colour)),
            winner_colour: winner,
            end: if winner.is_some() { Ending::Capture } else { Ending::MoveLimit },
            turns,
            decisions: 1,
            lead_changes,
            winner_trailed: trailed,
            cards: Sides::default(),
            withheld: None,
            replay: None,
        };
        Played { game, ablated: Vec::new() }
    }

    fn games() -> Vec<Played> {
        vec![
            game(0, Some(Player::Dark), 2, 0, false),
            game(1, Some(Player::Light), 40, 3, true),
            game(2, None, 100, 1, false),
            game(3, Some(Player::Dark), 30, 2, true),
        ]
    }

    #[test]
    fn a_win_by_the_end_of_turn_three_is_early() {
        assert!(game(0, Some(Player::Dark), 3, 0, false).game.early_win(), "Dark wins during its second turn");
        assert!(!game(1, Some(Player::Light), 4, 0, false).game.early_win(), "Light wins during its second turn");
        assert!(!game(2, None, 1, 0, false).game.early_win(), "a draw is no win");
    }

    #[test]
    fn design_metrics_count_whole_numbers_that_shards_add_up() {
        let mut whole = Counts::default();
        games().iter().for_each(|g| whole.fold(g));
        assert_eq!(whole.design, Some(Design { lead_changes: 6, comebacks: 2, early_wins: 1 }));
        let (mut one, mut two) = (Counts::default(), Counts::default());
        games()[..2].iter().for_each(|g| one.fold(g));
        games()[2..].iter().for_each(|g| two.fold(g));
        let mut merged = Counts::default();
        merged.merge(&one);
        merged.merge(&two);
        assert_eq!(merged.design, whole.design);
        let d = figures(&whole, None).design;
        assert_eq!(d.decisiveness.unwrap().value, 0.75);
        assert_eq!(d.lead_changes, Some(1.5));
        assert!((d.drama.unwrap().value - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(d.early_wins.unwrap().value, 0.25);
        // R9 holders: mars (Dark) won 2, drew 1, lost 1; venus the mirror.
        assert_eq!(d.balance.planets["mars"], (4, 0.625));
        assert_eq!(d.balance.planets["venus"], (4, 0.375));
        let rms = d.balance.rms.unwrap();
        assert!((rms.value - 0.125).abs() < 1e-12 && rms.low <= rms.high, "{rms:?}");
    }

    #[test]
    fn counts_without_design_metrics_still_read_and_leave_them_unknown() {
        let mut c = Counts::default();
        games().iter().for_each(|g| c.fold(g));
        let mut json = serde_json::to_value(&c).unwrap();
        json.as_object_mut().unwrap().remove("design");
        let old: Counts = serde_json::from_value(json).unwrap();
        assert_eq!(old.design, None);
        let mut merged = Counts::default();
        merged.merge(&old);
        merged.merge(&c);
        assert_eq!(merged.design, None, "a sum with unknown parts is unknown");
        let d = figures(&old, None).design;
        assert_eq!((d.lead_changes, d.drama.is_none()), (None, true));
        assert_eq!(d.decisiveness.unwrap().value, 0.75);
    }
}
