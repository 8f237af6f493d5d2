//! Two runs of the same seed compared game by game: every figure (A's and
//! Dark's score, the design metrics, each planet's holder score, each way of
//! ending, each card's uses and users' score) is a value a game, and a figure's
//! difference is the mean of its per-game differences over the games that
//! pair. A planet's row pairs only the games in which both runs dealt that
//! planet to the same colour (a card's users' row, the games in which the same
//! colours used it); each row says over how many of the games that hold it
//! in either run it paired. Many rows are tested at once, so the flags are
//! corrected by Holm's method; one primary figure may be named, tested alone.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Serialize;

use super::stats::{self, Estimate, MeanSums};
use super::{Ending, GameRow};
use crate::ai::{AgentRng, Side};
use crate::kernel::Player;
use crate::text::visible;

/// A win in one of a game's first `EARLY_TURNS` turns (R3: Dark's first
/// turn is turn 1) is an early win ([`GameRow::early_win`]).
pub const EARLY_TURNS: u32 = 3;
/// The family-wise level of the corrected flags and the primary figure's level.
pub const ALPHA: f64 = 0.05;
/// Resamples of the games for the balance figure's interval (a fixed seed:
/// the same rows give the same interval).
pub const BOOTSTRAP: usize = 1000;

/// A figure with a value in a game.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Figure {
    AScore,
    DarkScore,
    /// Games not drawn (decisiveness).
    Decisive,
    /// How often the side ahead in material changed ([`GameRow::lead_changes`]).
    LeadChanges,
    /// Whether the winner was behind in material at some turn (drama); only
    /// won games have it.
    Drama,
    /// Games won by either side in the first [`EARLY_TURNS`] turns.
    EarlyWin,
    /// The score of the player holding this planet.
    Holder(String),
    /// Whether the holder of this planet won in the first [`EARLY_TURNS`] turns.
    HolderEarly(String),
    /// Whether the game ended this way (`capture`, `planet jupiter`, …).
    Ended(String),
    /// The card's uses in the game, both sides.
    CardUses(String),
    /// The score of the players who used the card.
    CardUsers(String),
}

/// A figure's value in one game and the seat it is bound to (0 when it is
/// the game's as a whole; a colour, or the colours, otherwise): two games pair
/// on a figure when both have a value on the same seat.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Value {
    x: f64,
    seat: u8,
}

fn seat(colour: Player) -> u8 {
    1 << colour.index()
}

/// The score of `colour` in a game (1, ½, 0); `None` when abandoned.
fn score(row: &GameRow, colour: Player) -> Option<f64> {
    let a = row.a_score_halves()? as f64 / 2.0;
    Some(if Side::playing(colour, row.a_colour) == Side::A { a } else { 1.0 - a })
}

/// The colours that held `planet` in the game.
fn holders(row: &GameRow, planet: &str) -> Vec<Player> {
    let mut out = Vec::new();
    for (colour, p) in [(Player::Dark, &row.dark_planet), (Player::Light, &row.light_planet)] {
        if p.as_deref() == Some(planet) {
            out.push(colour);
        }
    }
    out
}

impl Figure {
    /// The figures of a game as a whole, in the order tables show them.
    const WHOLE_GAME: [Figure; 6] =
        [Figure::AScore, Figure::DarkScore, Figure::Decisive, Figure::LeadChanges, Figure::Drama, Figure::EarlyWin];

    pub fn name(&self) -> String {
        match self {
            Figure::AScore => "A's score".into(),
            Figure::DarkScore => "Dark's score".into(),
            Figure::Decisive => "decisive (not drawn)".into(),
            Figure::LeadChanges => "lead changes a game".into(),
            Figure::Drama => "drama (winner trailed)".into(),
            Figure::EarlyWin => format!("won in the first {EARLY_TURNS} turns"),
            Figure::Holder(p) => format!("planet {p}: holder's score"),
            Figure::HolderEarly(p) => format!("planet {p}: holder won in {EARLY_TURNS} turns"),
            Figure::Ended(w) => format!("ended by {w}"),
            Figure::CardUses(c) => format!("card {c}: uses a game"),
            Figure::CardUsers(c) => format!("card {c}: users' score"),
        }
    }

    /// Whether the figure is a rate or a score (shown in per cent) or a count.
    pub fn is_rate(&self) -> bool {
        !matches!(self, Figure::CardUses(_) | Figure::LeadChanges)
    }

    fn value(&self, row: &GameRow) -> Option<Value> {
        let whole = |x: f64| Some(Value { x, seat: 0 });
        match self {
            Figure::AScore => whole(row.a_score_halves()? as f64 / 2.0),
            Figure::DarkScore => whole(score(row, Player::Dark)?),
            Figure::Decisive => whole(f64::from(u8::from(row.a_score_halves()? != 1))),
            Figure::LeadChanges => whole(f64::from(row.lead_changes)).filter(|_| !row.abandoned()),
            Figure::Drama => row.winner.and_then(|_| whole(f64::from(u8::from(row.winner_trailed)))),
            Figure::EarlyWin => whole(f64::from(u8::from(row.early_win()))),
            Figure::Ended(way) => whole(f64::from(u8::from(row.end.to_string() == *way))),
            Figure::Holder(p) => match holders(row, p)[..] {
                [colour] => Some(Value { x: score(row, colour)?, seat: seat(colour) }),
                _ => None,
            },
            Figure::HolderEarly(p) => match holders(row, p)[..] {
                [colour] => {
                    let won = row.early_win() && row.winner_colour == Some(colour);
                    Some(Value { x: f64::from(u8::from(won)), seat: seat(colour) })
                }
                _ => None,
            },
            Figure::CardUses(c) => {
                let uses = [&row.cards.a, &row.cards.b].iter().filter_map(|m| m.get(c)).map(|u| u.uses).sum::<u32>();
                whole(f64::from(uses))
            }
            Figure::CardUsers(c) => {
                let mut seats = 0;
                let mut sum = 0.0;
                let mut n = 0.0;
                for (side, uses) in [(Side::A, &row.cards.a), (Side::B, &row.cards.b)] {
                    if uses.get(c).is_some_and(|u| u.uses > 0) {
                        let colour = row.colour(side);
                        seats |= seat(colour);
                        sum += score(row, colour)?;
                        n += 1.0;
                    }
                }
                (n > 0.0).then_some(Value { x: sum / n, seat: seats })
            }
        }
    }
}

/// Every figure the rows of two runs have: the fixed ones, then each planet,
/// way of ending and card either run saw.
pub fn figures_of<'a>(rows: impl IntoIterator<Item = &'a GameRow>) -> Vec<Figure> {
    let (mut planets, mut ways, mut cards) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    for row in rows {
        planets.extend(row.dark_planet.iter().chain(&row.light_planet).cloned());
        ways.insert(row.end.to_string());
        cards.extend(row.cards.a.keys().chain(row.cards.b.keys()).cloned());
    }
    let mut out = Figure::WHOLE_GAME.to_vec();
    for p in &planets {
        out.push(Figure::Holder(p.clone()));
        out.push(Figure::HolderEarly(p.clone()));
    }
    out.extend(ways.into_iter().map(Figure::Ended));
    for c in &cards {
        out.push(Figure::CardUses(c.clone()));
        out.push(Figure::CardUsers(c.clone()));
    }
    out
}

/// Every figure two decks may show: the fixed ones, each planet, each way of
/// ending (the rules' and each planet's), each card.
pub fn figures_for_contents(contents: &[&crate::content::Content]) -> Vec<Figure> {
    let (mut planets, mut cards) = (BTreeSet::new(), BTreeSet::new());
    for c in contents {
        planets.extend(c.planets.iter().map(|p| p.id.clone()));
        cards.extend(c.cards.iter().map(|c| c.id.clone()));
    }
    let mut out = Figure::WHOLE_GAME.to_vec();
    for p in &planets {
        out.push(Figure::Holder(p.clone()));
        out.push(Figure::HolderEarly(p.clone()));
        out.push(Figure::Ended(Ending::Planet(p.clone()).to_string()));
    }
    for way in ["capture", "five kings", "no moves", "opponent stuck", "move limit"] {
        out.push(Figure::Ended(way.into()));
    }
    for c in &cards {
        out.push(Figure::CardUses(c.clone()));
        out.push(Figure::CardUsers(c.clone()));
    }
    out
}

/// The one figure whose name holds every word of `text` (any case, in any
/// order): `"jupiter holder"` names `planet jupiter: holder's score`. An
/// error lists the figures when none or several match.
pub fn find_figure(text: &str, figures: &[Figure]) -> Result<Figure, String> {
    let words = |s: &str| -> Vec<String> {
        s.to_lowercase()
            .split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '-')
            .filter(|w| !w.is_empty())
            .map(|w| w.trim_end_matches("'s").to_string())
            .collect()
    };
    let wanted = words(text);
    if wanted.is_empty() {
        return Err("no figure named: give words of its name, e.g. \"jupiter holder\"".into());
    }
    let exact: Vec<&Figure> = figures.iter().filter(|f| f.name().eq_ignore_ascii_case(text.trim())).collect();
    if let [one] = exact[..] {
        return Ok(one.clone());
    }
    let found: Vec<&Figure> = figures
        .iter()
        .filter(|f| {
            let name = words(&f.name());
            wanted.iter().all(|w| name.contains(w))
        })
        .collect();
    match found[..] {
        [one] => Ok(one.clone()),
        [] => {
            let all: Vec<String> = figures.iter().map(Figure::name).collect();
            Err(format!("no figure is named '{}'; the figures: {}", visible(text), all.join("; ")))
        }
        _ => {
            let some: Vec<String> = found.iter().map(|f| f.name()).collect();
            Err(format!("'{}' names several figures: {}", visible(text), some.join("; ")))
        }
    }
}

/// A figure of two runs compared game by game.
#[derive(Clone, Debug, Serialize)]
pub struct PairedRow {
    pub figure: String,
    /// Games in which both runs have the figure on the same seat.
    pub paired: u64,
    /// Games in which either run has the figure.
    pub of: u64,
    /// The figure's mean over the paired games in each run.
    pub old: Option<f64>,
    pub new: Option<f64>,
    /// The mean of new − old over the paired games, with its 95 % interval.
    pub difference: Option<Estimate>,
    /// Two-sided p-value of the difference (normal).
    pub p: Option<f64>,
    pub rate: bool,
    pub primary: bool,
    /// Significant: the primary figure at [`ALPHA`] alone, any other after
    /// Holm's correction over the other rows.
    pub significant: bool,
}

/// The rows of two runs paired by game index, the figure's differences
/// summed over the games where it pairs.
pub struct Pairs<'a> {
    pub games: Vec<(&'a GameRow, &'a GameRow)>,
}

impl<'a> Pairs<'a> {
    /// The games both runs played, as dealt (ablation games left out). Refuses
    /// rows of different deals at the same index (another seed, or seats swapped in one run only).
    pub fn new(old: &'a [GameRow], new: &'a [GameRow]) -> Result<Pairs<'a>, String> {
        let dealt = |rows: &'a [GameRow]| -> BTreeMap<u32, &'a GameRow> {
            rows.iter().filter(|r| r.withheld.is_none()).map(|r| (r.index, r)).collect()
        };
        let (o, n) = (dealt(old), dealt(new));
        let mut games = Vec::new();
        for (i, a) in &o {
            let Some(b) = n.get(i) else { continue };
            if a.seed != b.seed || a.a_colour != b.a_colour {
                return Err(format!(
                    "game {i} was dealt with seed {} and A as {} in one run, seed {} and A as {} in the other: \
                     the runs are not of the same seed and seats, so their games do not pair",
                    a.seed, a.a_colour, b.seed, b.a_colour
                ));
            }
            games.push((*a, *b));
        }
        Ok(Pairs { games })
    }

    /// One figure's paired difference (new − old) and its counts.
    pub fn row(&self, figure: &Figure) -> PairedRow {
        let (mut d, mut old, mut new) = (MeanSums::default(), MeanSums::default(), MeanSums::default());
        let mut of = 0;
        for (a, b) in &self.games {
            let (x, y) = (figure.value(a), figure.value(b));
            if x.is_some() || y.is_some() {
                of += 1;
            }
            if let (Some(x), Some(y)) = (x, y)
                && x.seat == y.seat
            {
                d.add(y.x - x.x);
                old.add(x.x);
                new.add(y.x);
            }
        }
        PairedRow {
            figure: figure.name(),
            paired: d.n,
            of,
            old: old.mean(),
            new: new.mean(),
            difference: d.estimate(),
            p: d.superiority().map(stats::two_sided),
            rate: figure.is_rate(),
            primary: false,
            significant: false,
        }
    }
}

/// A deck's planet balance: each planet's holder score and its distance
/// from 50 %, and one figure, the root mean square of those distances.
#[derive(Clone, Debug, Serialize)]
pub struct Balance {
    /// Planet id → (games held, holder's score), abandoned games left out.
    pub planets: BTreeMap<String, (u64, f64)>,
    /// RMS distance of the holder scores from ½, with a bootstrap interval.
    pub rms: Option<Estimate>,
}

/// Per game: the planets' places in `names` held by Dark and Light, and Dark's score.
type Dealt = (Option<usize>, Option<usize>, f64);

fn dealt(row: &GameRow, names: &[String]) -> Option<Dealt> {
    let at = |p: &Option<String>| p.as_ref().and_then(|p| names.iter().position(|n| n == p));
    Some((at(&row.dark_planet), at(&row.light_planet), score(row, Player::Dark)?))
}

/// The RMS distance from ½ of the holder scores of these games (planets held in none are left out).
fn rms<'a>(games: impl Iterator<Item = &'a Dealt>, planets: usize) -> Option<f64> {
    let (mut held, mut sum) = (vec![0u64; planets], vec![0.0; planets]);
    for &(dark, light, s) in games {
        for (p, x) in [(dark, s), (light, 1.0 - s)] {
            if let Some(p) = p {
                held[p] += 1;
                sum[p] += x;
            }
        }
    }
    let distances: Vec<f64> = (0..planets).filter(|&p| held[p] > 0).map(|p| sum[p] / held[p] as f64 - 0.5).collect();
    (!distances.is_empty()).then(|| (distances.iter().map(|d| d * d).sum::<f64>() / distances.len() as f64).sqrt())
}

/// The percentile interval of `BOOTSTRAP` resamples of `n` games (drawn
/// with replacement by a fixed seed) of `statistic`, around `value`.
fn bootstrap(n: usize, value: f64, statistic: impl Fn(&[usize]) -> Option<f64>) -> Estimate {
    let mut rng = AgentRng::new(0x0062_616c_616e_6365);
    let mut values = Vec::with_capacity(BOOTSTRAP);
    let mut sample = vec![0; n];
    for _ in 0..BOOTSTRAP {
        sample.iter_mut().for_each(|i| *i = rng.below(n));
        if let Some(v) = statistic(&sample) {
            values.push(v);
        }
    }
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values.get(((values.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(value);
    Estimate { value, low: at(0.025), high: at(0.975) }
}

/// The planet balance of one run's games.
pub fn balance(rows: &[GameRow]) -> Balance {
    let rows: Vec<&GameRow> = rows.iter().filter(|r| r.withheld.is_none()).collect();
    let names: Vec<String> = rows
        .iter()
        .flat_map(|r| r.dark_planet.iter().chain(&r.light_planet))
        .cloned()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let games: Vec<Dealt> = rows.iter().filter_map(|r| dealt(r, &names)).collect();
    let mut planets = BTreeMap::new();
    for (p, name) in names.iter().enumerate() {
        let (mut held, mut sum) = (0u64, 0.0);
        for &(dark, light, s) in &games {
            for (q, x) in [(dark, s), (light, 1.0 - s)] {
                if q == Some(p) {
                    held += 1;
                    sum += x;
                }
            }
        }
        if held > 0 {
            planets.insert(name.clone(), (held, sum / held as f64));
        }
    }
    let rms = rms(games.iter(), names.len())
        .map(|v| bootstrap(games.len(), v, |sample| rms(sample.iter().map(|&i| &games[i]), names.len())));
    Balance { planets, rms }
}

/// The planet balance from a report's counts: each planet's holder results
/// (wins, draws, losses). The interval resamples each planet's holder results
/// on their own (a report keeps no games; [`balance`] of a `--games-out` file
/// resamples whole games).
pub fn balance_of_counts(planets: &BTreeMap<String, [u64; 3]>) -> Balance {
    let held: Vec<(&String, [u64; 3])> =
        planets.iter().filter(|(_, r)| r.iter().sum::<u64>() > 0).map(|(p, r)| (p, *r)).collect();
    let score = |[w, d, l]: [u64; 3]| (w as f64 + d as f64 / 2.0) / (w + d + l) as f64;
    let rms_of = |scores: &mut dyn Iterator<Item = f64>| {
        let d: Vec<f64> = scores.map(|s| (s - 0.5) * (s - 0.5)).collect();
        (!d.is_empty()).then(|| (d.iter().sum::<f64>() / d.len() as f64).sqrt())
    };
    let rms = rms_of(&mut held.iter().map(|(_, r)| score(*r))).map(|value| {
        let mut rng = AgentRng::new(0x0062_616c_616e_6365);
        let mut values = Vec::with_capacity(BOOTSTRAP);
        for _ in 0..BOOTSTRAP {
            let mut resampled = held.iter().map(|(_, [w, d, l])| {
                let n = w + d + l;
                let mut got = [0u64; 3];
                for _ in 0..n {
                    let x = rng.below(n as usize) as u64;
                    got[usize::from(x >= *w) + usize::from(x >= w + d)] += 1;
                }
                score(got)
            });
            values.extend(rms_of(&mut resampled));
        }
        values.sort_by(f64::total_cmp);
        let at = |q: f64| values[((values.len() as f64 - 1.0) * q).round() as usize];
        Estimate { value, low: at(0.025), high: at(0.975) }
    });
    let planets = held.into_iter().map(|(p, r)| (p.clone(), (r.iter().sum(), score(r)))).collect();
    Balance { planets, rms }
}

/// Two runs compared game by game.
#[derive(Clone, Debug, Serialize)]
pub struct PairedComparison {
    pub old: String,
    pub new: String,
    /// Games both runs played.
    pub games: u64,
    pub rows: Vec<PairedRow>,
    pub old_balance: Balance,
    pub new_balance: Balance,
    /// The balance figure's change (new − old), resampling the paired games together.
    pub balance_difference: Option<Estimate>,
    pub alpha: f64,
}

/// Compares the rows of two runs of the same seed game by game; `primary`
/// names the one figure tested alone (words of its name).
pub fn compare_rows(
    old_name: &str,
    old: &[GameRow],
    new_name: &str,
    new: &[GameRow],
    primary: Option<&str>,
) -> Result<PairedComparison, String> {
    let pairs = Pairs::new(old, new)?;
    if pairs.games.is_empty() {
        return Err(format!("{old_name} and {new_name} have no game in common to pair"));
    }
    let figures = figures_of(pairs.games.iter().flat_map(|(a, b)| [*a, *b]));
    let primary = primary.map(|p| find_figure(p, &figures)).transpose()?;
    let mut rows: Vec<PairedRow> = figures
        .iter()
        .map(|f| PairedRow { primary: primary.as_ref() == Some(f), ..pairs.row(f) })
        .filter(|r| r.paired > 0)
        .collect();
    // Holm over every row but the primary one, which is tested alone.
    let tested: Vec<usize> = (0..rows.len()).filter(|&i| !rows[i].primary && rows[i].p.is_some()).collect();
    let p_values: Vec<f64> = tested.iter().map(|&i| rows[i].p.unwrap_or(1.0)).collect();
    for (&i, rejected) in tested.iter().zip(stats::holm(&p_values, ALPHA)) {
        rows[i].significant = rejected;
    }
    for row in rows.iter_mut().filter(|r| r.primary) {
        row.significant = row.p.is_some_and(|p| p <= ALPHA);
    }
    // The balance of each run, and its change over the same resampled games.
    let old_rows: Vec<GameRow> = pairs.games.iter().map(|(a, _)| (*a).clone()).collect();
    let new_rows: Vec<GameRow> = pairs.games.iter().map(|(_, b)| (*b).clone()).collect();
    let (old_balance, new_balance) = (balance(&old_rows), balance(&new_rows));
    let names: Vec<String> = old_balance
        .planets
        .keys()
        .chain(new_balance.planets.keys())
        .cloned()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let both: Vec<(Option<Dealt>, Option<Dealt>)> =
        pairs.games.iter().map(|(a, b)| (dealt(a, &names), dealt(b, &names))).collect();
    let change = |sample: &mut dyn Iterator<Item = usize>| {
        let picked: Vec<&(Option<Dealt>, Option<Dealt>)> = sample.map(|i| &both[i]).collect();
        let x = rms(picked.iter().filter_map(|g| g.0.as_ref()), names.len())?;
        let y = rms(picked.iter().filter_map(|g| g.1.as_ref()), names.len())?;
        Some(y - x)
    };
    let balance_difference =
        change(&mut (0..both.len())).map(|v| bootstrap(both.len(), v, |sample| change(&mut sample.iter().copied())));
    Ok(PairedComparison {
        old: old_name.to_string(),
        new: new_name.to_string(),
        games: pairs.games.len() as u64,
        rows,
        old_balance,
        new_balance,
        balance_difference,
        alpha: ALPHA,
    })
}

fn figure_value(x: Option<f64>, rate: bool) -> String {
    match x {
        None => "-".into(),
        Some(x) if rate => format!("{:.1}%", 100.0 * x),
        Some(x) => format!("{x:.2}"),
    }
}

fn difference(e: &Option<Estimate>, rate: bool) -> String {
    match e {
        None => "-".into(),
        Some(e) if rate => e.points(),
        Some(e) => format!("{:+.2} [{:+.2}, {:+.2}]", e.value, e.low, e.high),
    }
}

/// The comparison as a table, then the balance and the corrected list of significant rows.
pub fn paired_table(c: &PairedComparison) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\npaired by game: {} minus {} over the {} games both played (the same deal and players' seeds)",
        visible(&c.new),
        visible(&c.old),
        c.games
    );
    let _ = writeln!(
        out,
        "{:<40} {:>13} {:>7} {:>7}  {:<22} {:>7}",
        "figure", "paired", "old", "new", "difference (points)", "p"
    );
    for r in &c.rows {
        let mark = match (r.significant, r.primary) {
            (true, true) => " * primary",
            (false, true) => "   primary",
            (true, false) => " *",
            (false, false) => "",
        };
        let _ = writeln!(
            out,
            "{:<40} {:>13} {:>7} {:>7}  {:<22} {:>7}{mark}",
            visible(&r.figure),
            format!("{} of {}", r.paired, r.of),
            figure_value(r.old, r.rate),
            figure_value(r.new, r.rate),
            difference(&r.difference, r.rate),
            r.p.map_or("-".into(), |p| format!("{p:.4}")),
        );
    }
    let _ = writeln!(
        out,
        "paired: games where both runs have the figure (a planet: dealt to the same colour; a card's users: \
         the same colours used it) of those where either has it"
    );
    let pct = |e: &Option<Estimate>| e.map_or("-".into(), |e| e.percent());
    let _ = writeln!(
        out,
        "\nplanet balance (RMS distance of the holders' scores from 50%, bootstrap {BOOTSTRAP} resamples):\n  \
         {}: {}\n  {}: {}\n  change: {}",
        visible(&c.old),
        pct(&c.old_balance.rms),
        visible(&c.new),
        pct(&c.new_balance.rms),
        difference(&c.balance_difference, true)
    );
    let planets: BTreeSet<&String> = c.old_balance.planets.keys().chain(c.new_balance.planets.keys()).collect();
    for p in planets {
        let show = |b: &Balance| {
            b.planets
                .get(p)
                .map_or("-".into(), |(held, s)| format!("{:.1}% ({:+.1}) of {held}", 100.0 * s, 100.0 * (s - 0.5)))
        };
        let _ = writeln!(out, "  {:<12} {:<24} {}", visible(p), show(&c.old_balance), show(&c.new_balance));
    }
    let tested = c.rows.iter().filter(|r| !r.primary && r.p.is_some()).count();
    let significant: Vec<&PairedRow> = c.rows.iter().filter(|r| r.significant && !r.primary).collect();
    let _ = writeln!(
        out,
        "\nsignificant after Holm's correction ({tested} rows, family-wise {:.0}%):{}",
        100.0 * c.alpha,
        if significant.is_empty() { " none" } else { "" }
    );
    for r in significant {
        let _ = writeln!(out, "  {:<40} {}", visible(&r.figure), difference(&r.difference, r.rate));
    }
    if let Some(r) = c.rows.iter().find(|r| r.primary) {
        let _ = writeln!(
            out,
            "primary figure, tested alone at {:.0}%: {} {} (p {}): {}",
            100.0 * c.alpha,
            visible(&r.figure),
            difference(&r.difference, r.rate),
            r.p.map_or("-".into(), |p| format!("{p:.4}")),
            if r.significant { "significant" } else { "not significant" }
        );
    }
    out
}

/// A sequential test of one figure's paired difference (new − old) between
/// two hypotheses `d0` < `d1` (in the figure's units: a rate's fraction):
/// the generalised SPRT with a normal model of the per-game differences,
/// LLR = (d1 − d0)(2 d̄ − d0 − d1) / (2 s² / n).
#[derive(Clone, Debug)]
pub struct FigureSprt {
    pub figure: Figure,
    pub test: stats::Sprt,
    pub sums: MeanSums,
}

impl FigureSprt {
    /// `test`'s `elo0` and `elo1` are read as the two differences in percentage points for a rate.
    pub fn new(figure: Figure, test: stats::Sprt) -> FigureSprt {
        FigureSprt { figure, test, sums: MeanSums::default() }
    }

    fn bounds(&self) -> (f64, f64) {
        let scale = if self.figure.is_rate() { 100.0 } else { 1.0 };
        (self.test.elo0 / scale, self.test.elo1 / scale)
    }

    /// Adds one pair of games (when the figure pairs in it).
    pub fn add(&mut self, old: &GameRow, new: &GameRow) {
        if let (Some(x), Some(y)) = (self.figure.value(old), self.figure.value(new))
            && x.seat == y.seat
        {
            self.sums.add(y.x - x.x);
        }
    }

    pub fn llr(&self) -> f64 {
        let (Some(mean), Some(variance)) = (self.sums.mean(), self.sums.variance()) else { return 0.0 };
        if variance <= 0.0 {
            return 0.0;
        }
        let (d0, d1) = self.bounds();
        (d1 - d0) * (2.0 * mean - d0 - d1) / (2.0 * variance / self.sums.n as f64)
    }

    pub fn state(&self) -> stats::SprtState {
        self.test.state_at(self.llr())
    }

    pub fn describe(&self) -> String {
        let (low, high) = self.test.bounds();
        let llr = self.llr();
        let state = match self.state() {
            stats::SprtState::AcceptH1 => "H1 accepted".to_string(),
            stats::SprtState::AcceptH0 => "H0 accepted".to_string(),
            stats::SprtState::Continue => "undecided".to_string(),
        };
        let relation = if llr < low || llr > high { "outside" } else { "within" };
        format!(
            "SPRT on {}: difference {} (H0) against {} (H1){}, over {} paired games: LLR {llr:.2}, {relation} \
             [{low:.2}, {high:.2}]: {state}",
            visible(&self.figure.name()),
            self.test.elo0,
            self.test.elo1,
            if self.figure.is_rate() { " points" } else { "" },
            self.sums.n
        )
    }
}

/// Reads a `--games-out` file, naming the file and line of anything wrong.
pub fn read_rows(path: &std::path::Path) -> Result<Vec<GameRow>, String> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            serde_json::from_str::<GameRow>(l).map_err(|e| format!("{name}, line {}: not a game's row: {e}", n + 1))
        })
        .collect()
}

/// Whether a file reads as `--games-out` rows (its first line is a game's row), not a report.
pub fn is_rows_file(path: &std::path::Path) -> bool {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| t.lines().find(|l| !l.trim().is_empty()).map(|l| serde_json::from_str::<GameRow>(l).is_ok()))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::{CardUse, Sides};

    /// A game's row: A as Dark in even games, the planets dealt, the winner's colour, the end, the turns.
    fn row(index: u32, planets: (&str, &str), winner: Option<Player>, end: &str, turns: u32) -> GameRow {
        let a_colour = if index.is_multiple_of(2) { Player::Dark } else { Player::Light };
        GameRow {
            index,
            seed: 100 + u64::from(index),
            content: String::new(),
            a_colour,
            dark_planet: Some(planets.0.into()),
            light_planet: Some(planets.1.into()),
            winner: winner.map(|w| Side::playing(w, a_colour)),
            winner_colour: winner,
            end: end.parse::<Ending>().unwrap(),
            turns,
            decisions: 10,
            lead_changes: 0,
            winner_trailed: false,
            cards: Sides::default(),
            withheld: None,
            replay: None,
        }
    }

    const D: Option<Player> = Some(Player::Dark);
    const L: Option<Player> = Some(Player::Light);

    fn old_and_new() -> (Vec<GameRow>, Vec<GameRow>) {
        let old = vec![
            row(0, ("jupiter", "mars"), D, "planet jupiter", 2),
            row(1, ("earth", "jupiter"), L, "capture", 20),
            row(2, ("mars", "earth"), None, "move limit", 90),
            row(3, ("jupiter", "earth"), D, "capture", 30),
        ];
        // Game 1 dealt Jupiter to Dark now (the changed deck deals otherwise there).
        let new = vec![
            row(0, ("jupiter", "mars"), L, "capture", 25),
            row(1, ("jupiter", "earth"), D, "capture", 22),
            row(2, ("mars", "earth"), D, "capture", 40),
            row(3, ("jupiter", "earth"), L, "capture", 31),
        ];
        (old, new)
    }

    #[test]
    fn every_figure_pairs_where_its_games_pair_and_says_over_how_many() {
        let (old, new) = old_and_new();
        let c = compare_rows("old", &old, "new", &new, None).unwrap();
        let get = |name: &str| c.rows.iter().find(|r| r.figure == name).unwrap_or_else(|| panic!("{name}"));
        // Dark's score, game by game: old 1, 0, ½, 1; new 0, 1, 1, 0: differences −1, +1, +½, −1.
        let dark = get("Dark's score");
        assert_eq!((dark.paired, dark.of), (4, 4));
        let d = dark.difference.unwrap();
        assert!((d.value - (-0.125)).abs() < 1e-12, "{d:?}");
        // sd of (−1, 1, ½, −1): mean −⅛, Σ(x − m)² = 0.765625 + 1.265625 + 0.390625 + 0.765625 = 3.1875.
        let half = stats::Z95 * (3.1875f64 / 3.0 / 4.0).sqrt();
        assert!((d.high - d.value - half).abs() < 1e-12);
        // Jupiter's holder: games 0 and 3 hold it on Dark in both; game 1 on Light, then Dark: not paired.
        let jupiter = get("planet jupiter: holder's score");
        assert_eq!((jupiter.paired, jupiter.of), (2, 3));
        assert_eq!((jupiter.old, jupiter.new), (Some(1.0), Some(0.0)));
        assert!((jupiter.difference.unwrap().value - (-1.0)).abs() < 1e-12);
        // Earth: games 1 (Dark, then Light: not paired), 2 (Light both), 3 (Light both).
        let earth = get("planet earth: holder's score");
        assert_eq!((earth.paired, earth.of), (2, 3));
        assert_eq!((earth.old, earth.new), (Some(0.25), Some(0.5)));
        // Endings pair over every game: capture 2 of 4 old, 4 of 4 new.
        let capture = get("ended by capture");
        assert_eq!((capture.paired, capture.of), (4, 4));
        assert!((capture.difference.unwrap().value - 0.5).abs() < 1e-12);
        assert!(c.rows.iter().any(|r| r.figure == "ended by planet jupiter"));
        // Early wins: game 0's Jupiter win in 2 turns, old only.
        let early = get("planet jupiter: holder won in 3 turns");
        assert_eq!((early.old, early.new), (Some(0.5), Some(0.0)));
    }

    #[test]
    fn design_metrics_pair_too_drama_over_games_won_in_both() {
        let (mut old, mut new) = old_and_new();
        (old[0].lead_changes, new[0].lead_changes) = (0, 2);
        (old[3].lead_changes, new[3].lead_changes) = (1, 1);
        (old[1].winner_trailed, new[1].winner_trailed) = (false, true);
        new[2].winner_trailed = true; // old game 2 was drawn: no drama to pair
        let c = compare_rows("old", &old, "new", &new, None).unwrap();
        let get = |name: &str| c.rows.iter().find(|r| r.figure == name).unwrap_or_else(|| panic!("{name}"));
        let leads = get("lead changes a game");
        assert_eq!((leads.paired, leads.old, leads.new), (4, Some(0.25), Some(0.75)));
        assert!(!leads.rate);
        let drama = get("drama (winner trailed)");
        assert_eq!((drama.paired, drama.of), (3, 4));
        assert_eq!((drama.old, drama.new), (Some(0.0), Some(1.0 / 3.0)));
        // Decisive: old drew game 2, new won every game.
        let decisive = get("decisive (not drawn)");
        assert_eq!((decisive.old, decisive.new), (Some(0.75), Some(1.0)));
    }

    #[test]
    fn card_rows_pair_on_the_colours_that_used_the_card() {
        let (mut old, mut new) = old_and_new();
        let used = |n| BTreeMap::from([("rotate".to_string(), CardUse { uses: n, idle: 0 })]);
        old[0].cards.a = used(2); // A = Dark in game 0
        new[0].cards.a = used(1);
        old[1].cards.b = used(1); // B = Dark in game 1
        new[1].cards.a = used(3); // A = Light: another colour, not paired
        let c = compare_rows("old", &old, "new", &new, None).unwrap();
        let users = c.rows.iter().find(|r| r.figure == "card rotate: users' score").unwrap();
        assert_eq!((users.paired, users.of), (1, 2));
        assert_eq!((users.old, users.new), (Some(1.0), Some(0.0)));
        let uses = c.rows.iter().find(|r| r.figure == "card rotate: uses a game").unwrap();
        assert_eq!((uses.paired, uses.of), (4, 4));
        assert!((uses.difference.unwrap().value - 0.25).abs() < 1e-12, "(−1 + 2) / 4");
    }

    #[test]
    fn the_primary_figure_is_tested_alone_and_the_rest_corrected() {
        // 40 games: Dark wins every game in the new run, half in the old: a clear difference.
        let old: Vec<GameRow> =
            (0..40).map(|i| row(i, ("jupiter", "mars"), if i % 4 < 2 { D } else { L }, "capture", 20)).collect();
        let new: Vec<GameRow> = (0..40).map(|i| row(i, ("jupiter", "mars"), D, "capture", 20)).collect();
        let c = compare_rows("old", &old, "new", &new, Some("jupiter holder score")).unwrap();
        let primary: Vec<&PairedRow> = c.rows.iter().filter(|r| r.primary).collect();
        assert_eq!(primary.len(), 1);
        assert_eq!(primary[0].figure, "planet jupiter: holder's score");
        assert!(primary[0].significant);
        assert!(c.rows.iter().find(|r| r.figure == "Dark's score").unwrap().significant);
        assert!(!c.rows.iter().find(|r| r.figure == "ended by capture").unwrap().significant, "no change");
        let text = paired_table(&c);
        assert!(text.contains("significant after Holm's correction"), "{text}");
        assert!(text.contains("primary figure, tested alone at 5%: planet jupiter: holder's score"), "{text}");
        // A name that fits several figures, or none, is refused with the candidates.
        assert!(compare_rows("old", &old, "new", &new, Some("jupiter")).unwrap_err().contains("several"));
        assert!(compare_rows("old", &old, "new", &new, Some("pluto")).unwrap_err().contains("no figure"));
    }

    #[test]
    fn holm_flags_fewer_rows_than_uncorrected_intervals() {
        // Three small differences each just past 5 % alone are not all kept after correction.
        let p = [0.03, 0.04, 0.045];
        assert!(p.iter().all(|&p| p < ALPHA));
        assert_eq!(stats::holm(&p, ALPHA), vec![false, false, false]);
    }

    #[test]
    fn balance_is_the_rms_distance_of_the_holders_scores_with_a_deterministic_interval() {
        // Jupiter's holder wins 3 of 4 (75 %), Mars's 1 of 4: both 25 points from 50 %: RMS 25 %.
        let rows: Vec<GameRow> = (0..4)
            .map(|i| {
                let (dark, light) = if i % 2 == 0 { ("jupiter", "mars") } else { ("mars", "jupiter") };
                let jupiter_wins = i < 3;
                let winner = match (jupiter_wins, dark == "jupiter") {
                    (true, true) | (false, false) => D,
                    _ => L,
                };
                row(i, (dark, light), winner, "capture", 20)
            })
            .collect();
        let b = balance(&rows);
        assert_eq!(b.planets["jupiter"], (4, 0.75));
        assert_eq!(b.planets["mars"], (4, 0.25));
        let rms = b.rms.unwrap();
        assert!((rms.value - 0.25).abs() < 1e-12);
        assert!(rms.low <= rms.value && rms.value <= rms.high && rms.high <= 0.5);
        assert_eq!(balance(&rows).rms, b.rms, "the same rows, the same interval");
    }

    #[test]
    fn rows_of_another_seed_do_not_pair() {
        let (old, mut new) = old_and_new();
        new[2].seed += 1;
        let e = compare_rows("old", &old, "new", &new, None).unwrap_err();
        assert!(e.contains("game 2") && e.contains("do not pair"), "{e}");
    }

    #[test]
    fn a_sequential_test_of_one_figure_decides() {
        let mut test = FigureSprt::new(Figure::DarkScore, "0,10".parse().unwrap());
        let (a, mut b) = (row(0, ("jupiter", "mars"), L, "capture", 20), row(0, ("jupiter", "mars"), D, "capture", 20));
        for i in 0..200 {
            // Dark's score is 0 in the old game, 1 in 3 of 4 new ones: +75 points a game on average.
            b.winner_colour = if i % 4 == 0 { L } else { D };
            b.winner = b.winner_colour.map(|w| Side::playing(w, b.a_colour));
            test.add(&a, &b);
            if test.state() != stats::SprtState::Continue {
                break;
            }
        }
        assert_eq!(test.state(), stats::SprtState::AcceptH1, "{}", test.describe());
        assert!(test.sums.n < 200 && test.describe().contains("outside"), "{}", test.describe());
    }
}
