//! `alien-checkers simulate`: many games between two players on one deck, for
//! deck designers. A progress bar goes to stderr; the report to stdout.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use std::path::PathBuf;

use clap::Args;

use alien_checkers::ai::AGENTS;
use alien_checkers::content::ContentRoot;
use alien_checkers::simulate::{self, Plan};

use super::{Outcome, stdout};

#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// The deck, by name or path.
    #[arg(long, default_value = "standard")]
    deck: String,
    /// Side A: random, greedy, easy, normal or hard (plays Dark in even games).
    #[arg(long, default_value = "normal")]
    a: String,
    /// Side B: random, greedy, easy, normal or hard.
    #[arg(long, default_value = "random")]
    b: String,
    /// Number of games (colours alternate), at least 1.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Seed of the match; the same seed gives the same report.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// The content root (the folder holding cards/ and planets/); default: the
    /// deck's own, for a deck given as a path, else the current folder if it
    /// holds cards/, else the shipped content.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
}

pub fn run(args: &SimulateArgs) -> Outcome {
    for name in [&args.a, &args.b] {
        if !AGENTS.contains(&name.as_str()) {
            anyhow::bail!("'{name}' is not a player ({})", AGENTS.join(", "));
        }
    }
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let plan = Plan {
        root: ContentRoot::for_deck(args.root.as_deref(), &args.deck).map_err(anyhow::Error::msg)?,
        deck: args.deck.clone(),
        a: args.a.clone(),
        b: args.b.clone(),
        games: args.games,
        seed: args.seed,
        threads,
    };
    let start = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let mut progress = |done: u32, total: u32| {
        let width = 30;
        let filled = (done as usize * width) / total.max(1) as usize;
        let bar = format!("[{}{}] {done}/{total} games", "#".repeat(filled), " ".repeat(width - filled));
        if terminal {
            eprint!("\r{bar}");
        } else if done == total || done.is_multiple_of((total / 10).max(1)) {
            eprintln!("{bar}");
        }
        let _ = std::io::stderr().flush();
    };
    let games = simulate::run(&plan, &mut progress).map_err(anyhow::Error::msg)?;
    if terminal {
        eprintln!();
    }
    eprintln!("{} games in {:.1} s on {threads} thread(s)", games.len(), start.elapsed().as_secs_f64());
    let report = simulate::report(&plan, &games);
    let mut out = stdout();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        write!(out, "{}", simulate::table(&report))?;
    }
    Ok(())
}
