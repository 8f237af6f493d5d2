//! `alien-checkers bench`: figures for README.md. Each figure is the median of
//! several timed runs; no test depends on timing.

use std::time::Instant;

use clap::Args;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use alien_checkers::plain::{Position, perft, random_playout};

use super::Failure;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Perft depth from the start position (single thread).
    #[arg(long, default_value_t = 11)]
    perft_depth: u32,
    /// Random plain-checkers games per run.
    #[arg(long, default_value_t = 100_000)]
    playouts: u32,
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

pub fn run(args: &BenchArgs) -> Result<(), Failure> {
    let start = Position::start();
    let (rate, leaves) = median_rate(args.runs.min(3), || perft(&start, args.perft_depth));
    println!("perft({}) = {leaves} leaves: {:.1} million leaves/s (median, 1 thread)", args.perft_depth, rate / 1e6);

    let mut seed = 0;
    let mut buf = Vec::with_capacity(48);
    let (rate, games) = median_rate(args.runs, || {
        seed += 1;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..args.playouts {
            random_playout(&start, &mut rng, 200, &mut buf);
        }
        u64::from(args.playouts)
    });
    println!("random plain playouts: {games} games per run, {:.0} games/s (median, 1 thread)", rate);
    Ok(())
}
