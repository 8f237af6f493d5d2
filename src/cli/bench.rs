//! `alien-checkers bench`: figures for README.md. Each figure is the median of
//! several timed runs; no test depends on timing.
//!
//! Figures that are compared with one another are measured in rounds: each
//! round runs every one of them once, so that a slow spell of a shared machine
//! falls on all of them alike, and a ratio is the median of the rounds' own
//! ratios (a paired measurement), not a ratio of medians taken at different times.

use std::cell::Cell;
use std::io::Write;
use std::rc::Rc;
use std::time::Instant;

use clap::Args;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use alien_checkers::ai::{Exact, Level, MctsAgent, SearchConfig, search_position};
use alien_checkers::content::ContentRoot;
use alien_checkers::game::{Choice, DecisionKind, EventLog, GameState};
use alien_checkers::plain::{Position, perft, random_playout};
use alien_checkers::script::ScriptEngine;
use rand_chacha::rand_core::Rng;

use super::{Outcome, stdout};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Perft depth from the start position (single thread).
    #[arg(long, default_value_t = 11)]
    perft_depth: u32,
    /// Perft depth from the start of the Russian draughts deck (moves as data,
    /// the general generator; single thread).
    #[arg(long, default_value_t = 10)]
    russian_depth: u32,
    /// Random plain-checkers games per run.
    #[arg(long, default_value_t = 100_000)]
    playouts: u32,
    /// Random full games per run, with this deck's cards and planets.
    #[arg(long, default_value_t = 2000)]
    games: u32,
    /// The deck of the scripted games and of the second search figure.
    #[arg(long, default_value = "standard")]
    deck: String,
    /// Searches at `normal` per run, each from a position of a random game.
    #[arg(long, default_value_t = 8)]
    searches: u32,
    /// Timed runs per figure; the median is reported.
    #[arg(long, default_value_t = 5)]
    runs: usize,
}

/// The rates (count / seconds) of each work in each of `runs` rounds (at least
/// one); a round runs every work once, in order. `rates[w][r]` is work `w` in
/// round `r`.
fn rounds<const N: usize>(runs: usize, mut works: [&mut dyn FnMut() -> u64; N]) -> [Vec<f64>; N] {
    let mut rates: [Vec<f64>; N] = std::array::from_fn(|_| Vec::with_capacity(runs));
    for _ in 0..runs.max(1) {
        for (work, rates) in works.iter_mut().zip(&mut rates) {
            let start = Instant::now();
            let count = work();
            rates.push(count as f64 / start.elapsed().as_secs_f64());
        }
    }
    rates
}

/// The median of a non-empty list (the upper one of an even list's middle two).
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

/// The median over the rounds of `a`'s rate over `b`'s in the same round.
fn median_ratio(a: &[f64], b: &[f64]) -> f64 {
    median(&a.iter().zip(b).map(|(a, b)| a / b).collect::<Vec<_>>())
}

pub fn run(args: &BenchArgs) -> Outcome {
    // The deck first, so that a misspelt one fails at once, not after perft.
    let root = ContentRoot::discover();
    let engine = ScriptEngine::load(&root, &args.deck).map_err(|p| anyhow::anyhow!("{p}"))?;
    let mut out = stdout();
    let start = Position::start();
    writeln!(out, "perft({}) = {}", args.perft_depth, perft_rate(&start, args.perft_depth, args.runs))?;
    let russian =
        alien_checkers::content::Content::load(&root, "russian").map_err(|p| anyhow::anyhow!("{p}"))?.variant().start();
    writeln!(
        out,
        "Russian draughts perft({}) = {}",
        args.russian_depth,
        perft_rate(&russian, args.russian_depth, args.runs)
    )?;

    // Plain playouts, the deck's games and the same games recorded, one of each per round.
    let mut buf = Vec::with_capacity(48);
    let mut plain_seed = 0;
    let mut plain = || {
        plain_seed += 1;
        let mut rng = ChaCha8Rng::seed_from_u64(plain_seed);
        for _ in 0..args.playouts {
            random_playout(&start, &mut rng, 200, &mut buf);
        }
        u64::from(args.playouts)
    };
    // Every round plays the same seeds unrecorded and recorded; both count decisions.
    let decisions = Cell::new(0u64);
    let scripted = |record: bool| {
        let (decisions, engine) = (&decisions, &engine);
        let mut seed = 0;
        move || {
            for _ in 0..args.games {
                seed += 1;
                decisions.set(decisions.get() + scripted_game(engine, seed, record, None));
            }
            u64::from(args.games)
        }
    };
    let [plain, games, recorded] = rounds(args.runs, [&mut plain, &mut scripted(false), &mut scripted(true)]);
    writeln!(
        out,
        "random plain playouts: {} games per run, {:.0} games/s (median, 1 thread)",
        args.playouts,
        median(&plain)
    )?;
    writeln!(
        out,
        "random {}-deck games: {} games per run, {:.0} games/s (median, 1 thread); {:.4} of the plain playout rate (median of the rounds)",
        args.deck,
        args.games,
        median(&games),
        median_ratio(&games, &plain)
    )?;
    writeln!(
        out,
        "the same games with every event recorded: {:.0} games/s ({:+.1}%, median of the rounds; search and the figure above record nothing)",
        median(&recorded),
        (median_ratio(&recorded, &games) - 1.0) * 100.0
    )?;
    // The card steps timed one by one, in the first run's games again (apart, so
    // that the clock's cost is in neither figure above).
    let mut card_costs: Vec<f64> = Vec::new();
    for seed in 1..=u64::from(args.games) {
        scripted_game(&engine, seed, false, Some(&mut card_costs));
    }
    card_costs.sort_by(f64::total_cmp);
    let card_median = card_costs.get(card_costs.len() / 2).copied().unwrap_or(0.0);
    writeln!(
        out,
        "card resolution (using a card or answering its question): median {:.1} µs over {} resolutions; {:.0} decisions per game",
        card_median * 1e6,
        card_costs.len(),
        decisions.get() as f64 / (2.0 * f64::from(args.games) * args.runs.max(1) as f64)
    )?;

    let plain_engine = ScriptEngine::load(&root, "plain").map_err(|p| anyhow::anyhow!("{p}"))?;
    let (mut plain_searches, _) = searches(&plain_engine, args, Exact::Off);
    let (mut deck_searches, deck_per_run) = searches(&engine, args, Exact::Off);
    let [plain_search, deck_search] = rounds(args.runs, [&mut plain_searches, &mut deck_searches]);
    writeln!(
        out,
        "search at normal ({} searches per run, 1 thread): plain {:.0}, {} deck {:.0} iterations/s (medians); {}/plain {:.3} (median of the rounds); {} deck {:.1} ms per decision (median)",
        args.searches,
        median(&plain_search),
        args.deck,
        median(&deck_search),
        args.deck,
        median_ratio(&deck_search, &plain_search),
        args.deck,
        1000.0 * deck_per_run.get() as f64 / median(&deck_search) / f64::from(args.searches.max(1)),
    )?;
    // Plain checkers as the levels play it: alpha-beta on the move steps (ai/alphabeta.rs).
    let (mut normal_ab, normal_per_run) = searches(&plain_engine, args, SearchConfig::level(Level::Normal).exact);
    let (mut hard_ab, hard_per_run) = searches(&plain_engine, args, SearchConfig::level(Level::Hard).exact);
    let [normal_ab, hard_ab] = rounds(args.runs, [&mut normal_ab, &mut hard_ab]);
    let ms = |rate: &[f64], per_run: &Cell<u64>| {
        1000.0 * per_run.get() as f64 / median(rate) / f64::from(args.searches.max(1))
    };
    writeln!(
        out,
        "alpha-beta on plain checkers ({} searches per run, 1 thread): normal {:.1} ms per decision, hard {:.1} ms per decision, {:.1} million nodes/s (medians)",
        args.searches,
        ms(&normal_ab, &normal_per_run),
        ms(&hard_ab, &hard_per_run),
        median(&hard_ab) / 1e6
    )?;
    Ok(())
}

/// Perft from `position` timed in at most three runs: the leaves and the median rate.
fn perft_rate(position: &Position, depth: u32, runs: usize) -> String {
    let mut leaves = 0;
    let [rates] = rounds(
        runs.min(3),
        [&mut || {
            leaves = perft(position, depth);
            leaves
        }],
    );
    format!("{leaves} leaves: {:.1} million leaves/s (median, 1 thread)", median(&rates) / 1e6)
}

/// One run of `normal`'s search (one thread, iteration budget) from each of
/// `args.searches` positions of random games, its fully visible move steps
/// decided as `exact` says; returns the run, which counts the iterations (or
/// alpha-beta nodes) it made, and the count of the last run.
fn searches<'a>(engine: &'a ScriptEngine, args: &BenchArgs, exact: Exact) -> (impl FnMut() -> u64 + 'a, Rc<Cell<u64>>) {
    let setup = engine.content().setup();
    let positions: Vec<GameState> =
        (0..u64::from(args.searches)).map(|seed| search_position(engine, &setup, seed)).collect();
    let planets = setup.planets;
    let counted = Rc::new(Cell::new(0));
    let last = Rc::clone(&counted);
    let run = move || {
        let mut iterations = 0;
        for (i, state) in positions.iter().enumerate() {
            let config = SearchConfig { exact, ..SearchConfig::level(Level::Normal) };
            let mut agent = MctsAgent::new(config, planets.clone(), i as u64);
            iterations += agent.search(state, engine).map_or(0, |r| r.iterations);
        }
        counted.set(iterations);
        iterations
    };
    (run, last)
}

/// One random game through the full decision loop, recording events or not;
/// with `card_costs`, the card steps are timed into it.
fn scripted_game(engine: &ScriptEngine, seed: u64, record: bool, mut card_costs: Option<&mut Vec<f64>>) -> u64 {
    let mut state = GameState::deal(&engine.content().setup(), seed, engine);
    if record {
        *state.journal_mut() = EventLog::recording();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut decisions = 0;
    while let Some(decision) = state.pending(engine) {
        let pick: &Choice = &decision.options[(rng.next_u32() as usize) % decision.options.len()];
        let timed = card_costs.is_some() && decision.kind != DecisionKind::Move;
        let start = timed.then(Instant::now);
        if state.apply(engine, pick).is_err() {
            break;
        }
        if let (Some(costs), Some(start)) = (card_costs.as_deref_mut(), start) {
            costs.push(start.elapsed().as_secs_f64());
        }
        state.journal_mut().take();
        decisions += 1;
    }
    decisions
}
