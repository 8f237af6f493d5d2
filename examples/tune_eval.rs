//! Fits the evaluator's weights to the results of games (Texel tuning).
//!
//! ```text
//! cargo run --release --features tools --example tune_eval -- play --rules standard --games 400 --out positions.csv
//! cargo run --release --features tools --example tune_eval -- fit positions.csv
//! ```
//!
//! `play` plays games between two agents (colours alternating) and writes one
//! line per quiet move step: the game's result for Dark (1, 0.5 or 0), then
//! [`Terms`] from Dark's side, with both planets known (the tool sees the whole
//! state; no agent does). `fit` finds the weights whose
//! `expected_result(terms · weights, scale)` best predicts those results (log
//! loss, pulled toward the current weights), and prints them beside today's.

use std::io::{BufRead, BufWriter, Write};
use std::sync::{Arc, Mutex};

use clap::{Parser, Subcommand};

use alien_checkers::ai::{
    Agent, Budget, Evaluator, GameEnd, SearchConfig, Terms, Weights, expected_result, game_seed, make_agent, play_game,
};
use alien_checkers::content::ContentRoot;
use alien_checkers::game::{CardHost, Choice, GameState, Step};
use alien_checkers::kernel::Player;
use alien_checkers::script::ScriptEngine;

#[derive(Parser, Debug)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play games and write their quiet positions' terms and results.
    Play {
        #[arg(long, default_value = "standard")]
        rules: String,
        /// Both players (an agent spec such as `normal:iterations=500`).
        #[arg(long, default_value = "normal:iterations=500")]
        agent: String,
        #[arg(long, default_value_t = 200)]
        games: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 2)]
        jobs: u32,
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Fit the weights to a file `play` wrote.
    Fit {
        positions: std::path::PathBuf,
        /// How strongly the fit is pulled toward today's weights.
        #[arg(long, default_value_t = 1e-4)]
        pull: f64,
        /// Fit only these terms (comma-separated names from the table), the
        /// others keep today's weights; `scale` fits one factor for all.
        #[arg(long)]
        only: Option<String>,
        /// The logistic scale the weights are fitted for (the search's `eval_scale`).
        #[arg(long)]
        scale: Option<f64>,
    },
}

/// Records Dark's terms at each quiet move step, then decides as `inner`.
struct Recorder {
    inner: Box<dyn Agent>,
    evaluator: Evaluator,
    rows: Arc<Mutex<Vec<Terms>>>,
}

impl Agent for Recorder {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn choose(&mut self, state: &GameState, host: &dyn CardHost) -> Option<Choice> {
        if state.step == Step::Move
            && !state.capture_due(host)
            && let Ok(mut rows) = self.rows.lock()
        {
            rows.push(self.evaluator.terms(state, Player::Dark, host));
        }
        self.inner.choose(state, host)
    }
}

fn play(rules: &str, agent: &str, games: u32, seed: u64, jobs: u32, out: &std::path::Path) {
    let root = ContentRoot::discover();
    let file = std::fs::File::create(out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    let writer = Mutex::new(BufWriter::new(file));
    let next = Mutex::new(0u32);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                let engine = ScriptEngine::load(&root, rules).unwrap_or_else(|p| panic!("{p}"));
                let setup = engine.content().setup();
                loop {
                    let index = {
                        let mut next = next.lock().unwrap();
                        if *next >= games {
                            break;
                        }
                        *next += 1;
                        *next - 1
                    };
                    let seed = game_seed(seed, index);
                    let rows = Arc::new(Mutex::new(Vec::new()));
                    let mut players = [0u64, 1].map(|salt| Recorder {
                        inner: make_agent(agent, seed ^ salt, setup.planets.clone(), Budget::Reproducible, None)
                            .unwrap_or_else(|e| panic!("{e}")),
                        evaluator: Evaluator::default(),
                        rows: Arc::clone(&rows),
                    });
                    let [dark, light] = &mut players;
                    let record = play_game(&setup, &engine, dark, light, seed);
                    let result = match record.end {
                        GameEnd::Over(outcome) => match outcome.winner {
                            Some(Player::Dark) => 1.0,
                            Some(Player::Light) => 0.0,
                            None => 0.5,
                        },
                        GameEnd::Aborted(_) => continue,
                    };
                    let mut writer = writer.lock().unwrap();
                    for terms in rows.lock().unwrap().iter() {
                        let line: Vec<String> = terms.to_vec().iter().map(|t| t.to_string()).collect();
                        writeln!(writer, "{result},{}", line.join(",")).expect("the positions file is writable");
                    }
                    eprintln!("game {index}: {result} after {} turns", record.turns);
                }
            });
        }
    });
    writer.into_inner().unwrap().flush().expect("the positions file is writable");
}

fn fit(path: &std::path::Path, pull: f64, only: Option<&str>, scale: Option<f64>) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let rows: Vec<(f64, Vec<f64>)> = std::io::BufReader::new(file)
        .lines()
        .map(|line| {
            let line = line.expect("a readable file");
            let mut fields = line.split(',').map(|f| f.parse::<f64>().expect("a number"));
            let result = fields.next().expect("a result");
            (result, fields.collect())
        })
        .collect();
    let scale = scale.unwrap_or(f64::from(SearchConfig::default().eval_scale));
    let today: Vec<f64> = Weights::STANDARD.to_vec().into_iter().map(f64::from).collect();
    // The expected result of a position's terms `x` under weights `w`, as the search reads it.
    let predict = |x: &[f64], w: &[f64]| {
        let score: f64 = x.iter().zip(w).map(|(x, w)| x * w).sum();
        f64::from(expected_result(score as f32, scale as f32))
    };
    let loss = |w: &[f64]| -> f64 {
        let total: f64 = rows
            .iter()
            .map(|(y, x)| {
                let p = predict(x, w).clamp(1e-6, 1.0 - 1e-6);
                -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
            })
            .sum();
        total / rows.len() as f64
    };
    if only == Some("scale") {
        for k in 1..=20 {
            let factor = f64::from(k) * 0.05;
            let scaled: Vec<f64> = today.iter().map(|w| w * factor).collect();
            println!("today's weights times {factor:.2}: log loss {:.5}", loss(&scaled));
        }
        return;
    }
    let free: Vec<bool> = match only {
        Some(names) => Terms::NAMES
            .iter()
            .map(|n| names.split(',').any(|m| m == *n || (m == "advance" && n.starts_with("advance"))))
            .collect(),
        None => vec![true; today.len()],
    };
    let mut w = today.clone();
    let (mut rate, n) = (0.5, rows.len() as f64);
    let mut current = loss(&w);
    println!("{} positions; log loss with today's weights {current:.5}", rows.len());
    for step in 0..3000 {
        let mut gradient = vec![0.0; w.len()];
        for (y, x) in &rows {
            let p = predict(x, &w);
            for (g, x) in gradient.iter_mut().zip(x) {
                *g += (p - y) * scale * x / n;
            }
        }
        for (((g, w), t), free) in gradient.iter_mut().zip(&w).zip(&today).zip(&free) {
            *g = if *free { *g + 2.0 * pull * (w - t) } else { 0.0 };
        }
        let trial: Vec<f64> = w.iter().zip(&gradient).map(|(w, g)| w - rate * g).collect();
        let next = loss(&trial);
        if next < current {
            (w, current) = (trial, next);
            rate *= 1.1;
        } else {
            rate *= 0.5;
        }
        if step % 500 == 0 {
            eprintln!("step {step}: loss {current:.5}");
        }
    }
    println!("log loss after the fit {current:.5}");
    println!("{:<12} {:>8} {:>8}", "term", "today", "fitted");
    for ((name, t), f) in Terms::NAMES.iter().zip(&today).zip(&w) {
        println!("{name:<12} {t:>8.3} {f:>8.3}");
    }
}

fn main() {
    match Args::parse().command {
        Command::Play { rules, agent, games, seed, jobs, out } => play(&rules, &agent, games, seed, jobs, &out),
        Command::Fit { positions, pull, only, scale } => fit(&positions, pull, only.as_deref(), scale),
    }
}
