//! `alien-checkers bench`: figures for README.md. Each figure is the median of
//! several timed runs; no test depends on timing.

use std::time::Instant;

use clap::Args;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use alien_checkers::ai::{Level, MctsAgent, SearchConfig, search_position};
use alien_checkers::content::ContentRoot;
use alien_checkers::game::{Choice, DecisionKind, EventLog, GameState};
use alien_checkers::plain::{Position, perft, random_playout};
use alien_checkers::script::ScriptEngine;
use rand_chacha::rand_core::Rng;

use super::Outcome;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Perft depth from the start position (single thread).
    #[arg(long, default_value_t = 11)]
    perft_depth: u32,
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

/// Runs `work` `runs` times and returns the median of (count / seconds).
fn median_rate(runs: usize, mut work: impl FnMut() -> u64) -> (f64, u64) {
    let mut rates = Vec::with_capacity(runs);
    let mut count = 0;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        count = work();
        rates.push(count as f64 / start.elapsed().as_secs_f64());
    }
    rates.sort_by(f64::total_cmp);
    (rates[rates.len() / 2], count)
}

pub fn run(args: &BenchArgs) -> Outcome {
    // The deck first, so that a misspelt one fails at once, not after perft.
    let root = ContentRoot::discover();
    let engine = ScriptEngine::load(&root, &args.deck).map_err(|p| anyhow::anyhow!("{p}"))?;
    let start = Position::start();
    let (rate, leaves) = median_rate(args.runs.min(3), || perft(&start, args.perft_depth));
    println!("perft({}) = {leaves} leaves: {:.1} million leaves/s (median, 1 thread)", args.perft_depth, rate / 1e6);

    let mut seed = 0;
    let mut buf = Vec::with_capacity(48);
    let (plain_rate, games) = median_rate(args.runs, || {
        seed += 1;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..args.playouts {
            random_playout(&start, &mut rng, 200, &mut buf);
        }
        u64::from(args.playouts)
    });
    println!("random plain playouts: {games} games per run, {:.0} games/s (median, 1 thread)", plain_rate);

    let mut decisions = 0u64;
    let mut scripted = |record: bool| {
        let mut seed = 0;
        median_rate(args.runs, || {
            for _ in 0..args.games {
                seed += 1;
                decisions += scripted_game(&engine, seed, record, None);
            }
            u64::from(args.games)
        })
    };
    let (rate, games) = scripted(false);
    println!(
        "random {}-deck games: {games} games per run, {rate:.0} games/s (median, 1 thread); {:.4} of the plain playout rate",
        args.deck,
        rate / plain_rate
    );
    let (recorded, _) = scripted(true);
    println!(
        "the same games with every event recorded: {recorded:.0} games/s ({:+.1}%; search and the figure above record nothing)",
        (recorded / rate - 1.0) * 100.0
    );
    // The card steps timed one by one, in the first run's games again (apart, so
    // that the clock's cost is in neither figure above).
    let mut card_costs: Vec<f64> = Vec::new();
    for seed in 1..=u64::from(args.games) {
        scripted_game(&engine, seed, false, Some(&mut card_costs));
    }
    card_costs.sort_by(f64::total_cmp);
    let median = card_costs.get(card_costs.len() / 2).copied().unwrap_or(0.0);
    println!(
        "card resolution (using a card or answering its question): median {:.1} µs over {} resolutions; {:.0} decisions per game",
        median * 1e6,
        card_costs.len(),
        decisions as f64 / (2.0 * f64::from(args.games) * args.runs.max(1) as f64)
    );

    let plain = ScriptEngine::load(&root, "plain").map_err(|p| anyhow::anyhow!("{p}"))?;
    let plain_search = search_rate(&plain, args);
    let standard_search = search_rate(&engine, args);
    println!(
        "search at normal ({} searches per run, 1 thread): plain {plain_search:.0}, {} deck {standard_search:.0} iterations/s (medians); {}/plain {:.3}",
        args.searches,
        args.deck,
        args.deck,
        standard_search / plain_search
    );
    Ok(())
}

/// Iterations per second of `normal`'s search (one thread, iteration budget) from
/// positions of random games: the median over the runs.
fn search_rate(engine: &ScriptEngine, args: &BenchArgs) -> f64 {
    let setup = engine.content().setup();
    let positions: Vec<GameState> =
        (0..u64::from(args.searches)).map(|seed| search_position(engine, &setup, seed)).collect();
    let planets = setup.planets;
    let (rate, _) = median_rate(args.runs, || {
        let mut iterations = 0;
        for (i, state) in positions.iter().enumerate() {
            let mut agent = MctsAgent::new(SearchConfig::level(Level::Normal), planets.clone(), i as u64);
            iterations += agent.search(state, engine).map_or(0, |r| r.iterations);
        }
        iterations
    });
    rate
}

/// One random game through the full decision loop, recording events or not;
/// with `card_costs`, the card steps are timed into it.
fn scripted_game(engine: &ScriptEngine, seed: u64, record: bool, mut card_costs: Option<&mut Vec<f64>>) -> u64 {
    let mut state = GameState::new(&engine.content().setup(), seed);
    if record {
        state.journal = EventLog::recording();
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
        state.journal.take();
        decisions += 1;
    }
    decisions
}
