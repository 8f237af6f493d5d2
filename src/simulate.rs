//! Balance simulation for deck designers: many games between two players on one
//! deck, with what won them, how often each planet wins when held, game lengths,
//! and how each card's users fared.
//!
//! Games run on every core, each worker with its own script engine (Lua states
//! are not shared between threads). Game `i` is dealt with `game_seed(seed, i)`
//! and its agents are seeded from that, so the report depends only on the seed,
//! never on which worker played which game.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;

use serde::Serialize;

use crate::ai::{Budget, game_seed, make_agent, mix_seed};
use crate::content::ContentRoot;
use crate::game::{Choice, EndReason, GameState};
use crate::kernel::Player;
use crate::script::ScriptEngine;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct Plan {
    pub root: ContentRoot,
    pub deck: String,
    /// Agent names for side A and side B; A plays Dark in even games.
    pub a: String,
    pub b: String,
    pub games: u32,
    pub seed: u64,
    pub threads: usize,
}

/// One game, as the report needs it.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    pub seed: u64,
    pub a_plays: Player,
    /// `A`, `B` or `None` for a draw or an abandoned game.
    pub winner: Option<char>,
    pub how: String,
    pub turns: u32,
    pub decisions: u32,
    /// Planet ids held by Dark and Light.
    pub planets: [Option<String>; 2],
    /// (side, card id) for every card used.
    pub cards: Vec<(char, String)>,
}

/// Plays game `index` of the plan.
fn play_one(engine: &ScriptEngine, plan: &Plan, index: u32) -> Result<GameSummary, String> {
    let content = engine.content();
    let setup = content.setup();
    let seed = game_seed(plan.seed, index);
    let a_plays = if index.is_multiple_of(2) { Player::Dark } else { Player::Light };
    let side = |p: Player| if p == a_plays { 'A' } else { 'B' };
    let mut agents = [Player::Dark, Player::Light].map(|p| {
        let name = if p == a_plays { &plan.a } else { &plan.b };
        make_agent(name, mix_seed(seed, p.index() as u64 + 1), setup.planets.clone(), Budget::Reproducible, None)
    });
    for agent in &agents {
        if let Err(e) = agent {
            return Err(e.clone());
        }
    }
    let mut state = GameState::deal(&setup, seed, engine);
    // Nothing has happened yet for a lasting effect to refuse.
    let _ = state.settle(engine);
    let mut summary = GameSummary {
        seed,
        a_plays,
        winner: None,
        how: String::new(),
        turns: 0,
        decisions: 0,
        planets: [Player::Dark, Player::Light]
            .map(|p| state.planet(p).and_then(|id| content.planet(id)).map(|p| p.id.clone())),
        cards: Vec::new(),
    };
    while let Some(decision) = state.pending(engine) {
        let player = decision.player;
        let Ok(agent) = agents[player.index()].as_mut() else { break };
        let Some(choice) = agent.choose(&state, engine) else {
            summary.how = format!("abandoned: {player} had no choice");
            break;
        };
        if let Err(e) = state.apply(engine, &choice) {
            let chose = crate::choice_text::write(content, &choice);
            summary.how = format!("abandoned: {player} chose {chose}, which failed: {e}");
            break;
        }
        if let Choice::Card(card) = choice {
            summary.cards.push((side(player), content.card(card).map_or("?".into(), |c| c.id.clone())));
        }
        summary.decisions += 1;
    }
    summary.turns = state.turn;
    if let Some(outcome) = state.outcome() {
        summary.winner = outcome.winner.map(side);
        summary.how = match outcome.reason {
            EndReason::Capture => "capture".into(),
            EndReason::FiveKings => "five kings".into(),
            EndReason::Planet(p) => format!("planet {}", content.planet(p).map_or("?", |p| p.id.as_str())),
            EndReason::NoMoves => "no moves".into(),
            EndReason::Stuck => "opponent stuck".into(),
            EndReason::MoveLimit => "move limit".into(),
            EndReason::Resigned => "resigned".into(),
            EndReason::Agreed => "agreed draw".into(),
        };
    }
    Ok(summary)
}

/// Plays every game of the plan on `plan.threads` workers; `progress` is told of
/// each finished game. Games come back in index order.
pub fn run(plan: &Plan, progress: &mut dyn FnMut(u32, u32)) -> Result<Vec<GameSummary>, String> {
    // Load once here so content problems are reported before any thread starts.
    ScriptEngine::load(&plan.root, &plan.deck).map_err(|p| p.to_string())?;
    let next = AtomicU32::new(0);
    let (sender, receiver) = mpsc::channel::<(u32, Result<GameSummary, String>)>();
    let mut results: Vec<Option<GameSummary>> = vec![None; plan.games as usize];
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..plan.threads.max(1) {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || {
                let engine = match ScriptEngine::load(&plan.root, &plan.deck) {
                    Ok(e) => e,
                    Err(p) => {
                        let _ = sender.send((0, Err(p.to_string())));
                        return;
                    }
                };
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= plan.games {
                        return;
                    }
                    if sender.send((i, play_one(&engine, plan, i))).is_err() {
                        return;
                    }
                }
            });
        }
        drop(sender);
        let mut done = 0;
        for (i, result) in receiver {
            match result {
                Ok(summary) => results[i as usize] = Some(summary),
                Err(e) => failure = Some(e),
            }
            done += 1;
            progress(done, plan.games);
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(results.into_iter().flatten().collect())
}

/// The report a deck designer reads.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub deck: String,
    pub a: String,
    pub b: String,
    pub games: usize,
    pub seed: u64,
    pub wins_a: usize,
    pub wins_b: usize,
    pub draws: usize,
    pub abandoned: usize,
    /// Wins by colour: Dark, Light.
    pub wins_by_colour: [usize; 2],
    /// Way of ending → (A wins, B wins, draws).
    pub ways: BTreeMap<String, [usize; 3]>,
    /// Planet → (times held, wins by its holder, rate).
    pub planets: BTreeMap<String, PlanetStat>,
    pub turns_mean: f64,
    pub turns_sd: f64,
    pub turns_min: u32,
    pub turns_max: u32,
    /// Card → use statistics.
    pub cards: BTreeMap<String, CardStat>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct PlanetStat {
    pub held: usize,
    pub won: usize,
    pub rate: f64,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct CardStat {
    /// Times used in all games.
    pub uses: usize,
    /// (game, side) pairs in which the side used it at least once.
    pub users: usize,
    /// How often such a side won the game.
    pub user_win_rate: f64,
}

pub fn report(plan: &Plan, games: &[GameSummary]) -> Report {
    let count = |pred: &dyn Fn(&GameSummary) -> bool| games.iter().filter(|g| pred(g)).count();
    let mut ways: BTreeMap<String, [usize; 3]> = BTreeMap::new();
    let mut planets: BTreeMap<String, PlanetStat> = BTreeMap::new();
    let mut cards: BTreeMap<String, CardStat> = BTreeMap::new();
    let mut card_wins: BTreeMap<String, usize> = BTreeMap::new();
    let mut wins_by_colour = [0; 2];
    for g in games {
        let slot = match g.winner {
            Some('A') => 0,
            Some(_) => 1,
            None => 2,
        };
        ways.entry(g.how.clone()).or_default()[slot] += 1;
        if let Some(w) = g.winner {
            let colour = if (w == 'A') == (g.a_plays == Player::Dark) { 0 } else { 1 };
            wins_by_colour[colour] += 1;
        }
        for (i, planet) in g.planets.iter().enumerate() {
            let Some(planet) = planet else { continue };
            let stat = planets.entry(planet.clone()).or_default();
            stat.held += 1;
            let holder_side = if (i == 0) == (g.a_plays == Player::Dark) { 'A' } else { 'B' };
            if g.how == format!("planet {planet}") && g.winner == Some(holder_side) {
                stat.won += 1;
            }
        }
        let mut users: Vec<(char, &str)> = g.cards.iter().map(|(s, c)| (*s, c.as_str())).collect();
        for (_, card) in &users {
            cards.entry(card.to_string()).or_default().uses += 1;
        }
        users.sort();
        users.dedup();
        for (side, card) in users {
            cards.entry(card.to_string()).or_default().users += 1;
            if g.winner == Some(side) {
                *card_wins.entry(card.to_string()).or_default() += 1;
            }
        }
    }
    for stat in planets.values_mut() {
        stat.rate = if stat.held == 0 { 0.0 } else { stat.won as f64 / stat.held as f64 };
    }
    for (card, stat) in cards.iter_mut() {
        let wins = card_wins.get(card).copied().unwrap_or(0);
        stat.user_win_rate = if stat.users == 0 { 0.0 } else { wins as f64 / stat.users as f64 };
    }
    let turns: Vec<f64> = games.iter().map(|g| f64::from(g.turns)).collect();
    let n = turns.len().max(1) as f64;
    let mean = turns.iter().sum::<f64>() / n;
    let sd = (turns.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / n).sqrt();
    Report {
        deck: plan.deck.clone(),
        a: plan.a.clone(),
        b: plan.b.clone(),
        games: games.len(),
        seed: plan.seed,
        wins_a: count(&|g| g.winner == Some('A')),
        wins_b: count(&|g| g.winner == Some('B')),
        draws: count(&|g| g.winner.is_none() && !g.how.starts_with("abandoned")),
        abandoned: count(&|g| g.how.starts_with("abandoned")),
        wins_by_colour,
        ways,
        planets,
        turns_mean: mean,
        turns_sd: sd,
        turns_min: games.iter().map(|g| g.turns).min().unwrap_or(0),
        turns_max: games.iter().map(|g| g.turns).max().unwrap_or(0),
        cards,
    }
}

/// The report as a readable table.
pub fn table(r: &Report) -> String {
    use std::fmt::Write as _;
    let pct = |a: usize, b: usize| if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
    let mut out = String::new();
    let _ = writeln!(out, "{} games on deck {} (seed {}): A = {}, B = {}", r.games, r.deck, r.seed, r.a, r.b);
    let _ = writeln!(
        out,
        "A wins {} ({:.1}%), B wins {} ({:.1}%), draws {} ({:.1}%){}",
        r.wins_a,
        pct(r.wins_a, r.games),
        r.wins_b,
        pct(r.wins_b, r.games),
        r.draws,
        pct(r.draws, r.games),
        if r.abandoned > 0 { format!(", abandoned {}", r.abandoned) } else { String::new() }
    );
    let _ = writeln!(out, "wins by colour: Dark {}, Light {}", r.wins_by_colour[0], r.wins_by_colour[1]);
    let _ = writeln!(
        out,
        "game length: {:.1} turns on average (sd {:.1}, from {} to {})",
        r.turns_mean, r.turns_sd, r.turns_min, r.turns_max
    );
    let _ = writeln!(out, "\n{:<24} {:>6} {:>6} {:>6}", "how the game ended", "A", "B", "draw");
    for (how, [a, b, d]) in &r.ways {
        let _ = writeln!(out, "{how:<24} {a:>6} {b:>6} {d:>6}");
    }
    if !r.planets.is_empty() {
        let _ = writeln!(out, "\n{:<12} {:>6} {:>6} {:>8}", "planet", "held", "won", "win rate");
        for (planet, s) in &r.planets {
            let _ = writeln!(out, "{planet:<12} {:>6} {:>6} {:>7.1}%", s.held, s.won, 100.0 * s.rate);
        }
    }
    if !r.cards.is_empty() {
        let _ = writeln!(out, "\n{:<16} {:>6} {:>10} {:>16}", "card", "uses", "per game", "user win rate");
        for (card, s) in &r.cards {
            let _ = writeln!(
                out,
                "{card:<16} {:>6} {:>10.2} {:>15.1}%",
                s.uses,
                s.uses as f64 / r.games.max(1) as f64,
                100.0 * s.user_win_rate
            );
        }
    }
    out
}
