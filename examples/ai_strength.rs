//! Strength and speed of the computer opponent, for README figures.
//!
//! ```text
//! cargo run --release --example ai_strength -- --rules plain --a normal --b random --games 200
//! ```
//!
//! Agents: `random`, `greedy`, `easy`, `normal`, `hard`, `capped-LEVEL` (the
//! level with its time cap), or `mcts:KEY=VALUE,...` (see `custom`). Games run
//! on `--jobs` threads, each game's agents single- or multi-threaded as their
//! level says. Prints A's wins, B's wins, draws, the ends by reason, and for
//! search agents iterations/s and ms per decision.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;

use alien_checkers::ai::{
    Agent, Evaluator, GameEnd, GreedyAgent, HostFactory, Level, MatchResult, MctsAgent, RandomAgent, SearchConfig,
    Side, Weights, game_seed, mix_seed, play_game,
};
use alien_checkers::content::ContentRoot;
use alien_checkers::game::{BlankCards, CardHost, Choice, GameState, PlanetId, Setup};
use alien_checkers::kernel::Player;
use alien_checkers::script::ScriptEngine;

#[derive(Parser, Debug)]
struct Args {
    /// `plain` (R11), `alien` (21 blank cards, no planets) or a deck name
    /// such as `standard` (its card and planet scripts).
    #[arg(long, default_value = "plain")]
    rules: String,
    #[arg(long, default_value = "normal")]
    a: String,
    #[arg(long, default_value = "random")]
    b: String,
    #[arg(long, default_value_t = 20)]
    games: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (each on its own thread).
    #[arg(long, default_value_t = 1)]
    jobs: u32,
    /// Start no new game after this many seconds (the summary covers the games played).
    #[arg(long)]
    seconds: Option<u64>,
    /// Override: threads per search (1 = single-threaded search).
    #[arg(long)]
    search_threads: Option<usize>,
}

/// Search time and iterations, summed over decisions that needed a search.
#[derive(Default, Debug, Clone, Copy)]
struct Timing {
    searches: u64,
    iterations: u64,
    elapsed: Duration,
    slowest: Duration,
}

struct Timed {
    agent: MctsAgent,
    timing: Arc<Mutex<Timing>>,
}

impl Agent for Timed {
    fn name(&self) -> String {
        self.agent.name()
    }

    fn choose(&mut self, state: &GameState, host: &dyn CardHost) -> Option<Choice> {
        let report = self.agent.search(state, host)?;
        if report.iterations > 0
            && let Ok(mut t) = self.timing.lock()
        {
            t.searches += 1;
            t.iterations += report.iterations;
            t.elapsed += report.elapsed;
            t.slowest = t.slowest.max(report.elapsed);
        }
        Some(report.choice)
    }
}

/// `mcts:KEY=VALUE,...` over the normal level: `it` (iterations), `rollout`,
/// `quiet`, `c` (exploration), `scale` (eval scale), `t` (temperature), `ms` (time limit),
/// `tactics` (1: leaves scored with the board's forced captures and shots), and the
/// evaluator weights `hunt`, `trade`, `king`, `guard`, `centre`, `fk` (five kings), `planet`.
fn custom(spec: &str) -> Option<(SearchConfig, Weights)> {
    let mut config = SearchConfig::level(Level::Normal);
    let mut w = Weights::STANDARD;
    for pair in spec.strip_prefix("mcts:")?.split(',').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=')?;
        match key {
            "it" => config.iterations = value.parse().ok()?,
            "rollout" => config.rollout_plies = value.parse().ok()?,
            "quiet" => config.quiet_plies = value.parse().ok()?,
            "c" => config.exploration = value.parse().ok()?,
            "scale" => config.eval_scale = value.parse().ok()?,
            "t" => config.temperature = value.parse().ok()?,
            "ms" => config.time_limit = Some(Duration::from_millis(value.parse().ok()?)),
            "tactics" => config.tactics = value.parse::<u8>().ok()? != 0,
            "hunt" => w.hunt = value.parse().ok()?,
            "trade" => w.trade_down = value.parse().ok()?,
            "king" => w.king = value.parse().ok()?,
            "pawn" => w.pawn = value.parse().ok()?,
            "emperor" => w.emperor = value.parse().ok()?,
            // Eight weights by rows from the back row, separated by '/'.
            "advance" => {
                let values: Vec<f32> = value.split('/').map(str::parse).collect::<Result<_, _>>().ok()?;
                w.advance = values.try_into().ok()?;
            }
            "guard" => w.back_guard = value.parse().ok()?,
            "centre" => w.centre = value.parse().ok()?,
            "fk" => w.five_kings = value.parse().ok()?,
            "planet" => w.planet = value.parse().ok()?,
            _ => return None,
        }
    }
    Some((config, w))
}

/// The card host of the chosen rules: blank cards, or a deck's scripts.
fn host(rules: &str) -> Box<dyn CardHost> {
    match rules {
        "plain" | "alien" => Box::new(BlankCards),
        deck => Box::new(ScriptEngine::load(&ContentRoot::discover(), deck).unwrap_or_else(|p| panic!("{p}"))),
    }
}

fn make_agent(
    spec: &str,
    seed: u64,
    threads: Option<usize>,
    timing: &Arc<Mutex<Timing>>,
    rules: &str,
    planets: &[PlanetId],
) -> Box<dyn Agent> {
    let (config, weights) = match spec {
        "random" => return Box::new(RandomAgent::new(seed)),
        "greedy" => return Box::new(GreedyAgent::new(seed)),
        "easy" | "normal" | "hard" => (SearchConfig::level(spec.parse::<Level>().expect("a level")), Weights::STANDARD),
        capped if capped.starts_with("capped-") => {
            let level = capped["capped-".len()..].parse::<Level>().expect("a level");
            (SearchConfig::interactive(level), Weights::STANDARD)
        }
        other => custom(other).unwrap_or_else(|| panic!("unknown agent {other}")),
    };
    let config = SearchConfig { threads: threads.unwrap_or(config.threads), ..config };
    let rules = rules.to_string();
    let factory: HostFactory = Arc::new(move || host(&rules));
    let evaluator = Evaluator::new(weights);
    let agent =
        MctsAgent::new(config, planets.to_vec(), seed).with_host_factory(factory).with_heuristic(Arc::new(evaluator));
    Box::new(Timed { agent, timing: Arc::clone(timing) })
}

fn main() {
    let args = Args::parse();
    let setup = match args.rules.as_str() {
        "plain" => Setup::plain(),
        "alien" => Setup::blank(21),
        deck => match ScriptEngine::load(&ContentRoot::discover(), deck) {
            Ok(engine) => engine.content().setup(),
            Err(problems) => panic!("{problems}"),
        },
    };
    let timings: [Arc<Mutex<Timing>>; 2] = Default::default();
    let start = Instant::now();
    let jobs = args.jobs.clamp(1, 16);
    let results: Vec<MatchResult> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| {
                // Even game counts per job keep colours balanced.
                let share = (args.games / 2).div_ceil(jobs) * 2;
                let games = share.min(args.games.saturating_sub(j * share));
                let (setup, args, timings, start) = (&setup, &args, &timings, &start);
                scope.spawn(move || {
                    let seed = mix_seed(args.seed, u64::from(j));
                    let host = host(&args.rules);
                    let (threads, rules, planets) = (args.search_threads, &args.rules, &setup.planets);
                    let mut a = make_agent(&args.a, mix_seed(seed, 1), threads, &timings[0], rules, planets);
                    let mut b = make_agent(&args.b, mix_seed(seed, 2), threads, &timings[1], rules, planets);
                    // Games one by one (colours alternating), reported as they finish.
                    let mut result = MatchResult::default();
                    for i in 0..games {
                        if args.seconds.is_some_and(|limit| start.elapsed().as_secs() >= limit) {
                            break;
                        }
                        let game = game_seed(seed, i);
                        let mut record = if i % 2 == 0 {
                            play_game(setup, &*host, &mut *a, &mut *b, game)
                        } else {
                            play_game(setup, &*host, &mut *b, &mut *a, game)
                        };
                        record.a_plays = if i % 2 == 0 { Player::Dark } else { Player::Light };
                        result.games.push(record);
                        let last: Vec<String> = result.games[result.games.len() - 1..]
                            .iter()
                            .map(|g| match &g.end {
                                GameEnd::Over(o) => format!("{:?} {:?} t{}", g.winner(), o.reason, g.turns),
                                GameEnd::Aborted(m) => format!("aborted: {m}"),
                            })
                            .collect();
                        eprintln!(
                            "job {j}: {} games, A {} B {} draws {}; last: {}",
                            result.games.len(),
                            result.wins(Side::A),
                            result.wins(Side::B),
                            result.draws(),
                            last.join(", ")
                        );
                    }
                    result
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a match thread")).collect()
    });
    let all = MatchResult { games: results.into_iter().flat_map(|r| r.games).collect() };
    let n = all.games.len();
    println!(
        "{} rules, A={} vs B={}: {} games in {:.1} s",
        args.rules,
        args.a,
        args.b,
        n,
        start.elapsed().as_secs_f64()
    );
    println!(
        "A wins {} ({:.1}%), B wins {}, draws {}, aborted {}; A's score {:.1}%",
        all.wins(Side::A),
        100.0 * all.wins(Side::A) as f64 / n.max(1) as f64,
        all.wins(Side::B),
        all.draws(),
        all.aborted(),
        100.0 * all.score_a()
    );
    let mut reasons: Vec<(String, usize)> = Vec::new();
    for g in &all.games {
        let key = match &g.end {
            GameEnd::Over(o) => format!("{:?}", o.reason),
            GameEnd::Aborted(m) => format!("aborted: {m}"),
        };
        match reasons.iter_mut().find(|(k, _)| *k == key) {
            Some((_, c)) => *c += 1,
            None => reasons.push((key, 1)),
        }
    }
    println!("ends: {reasons:?}");
    let turns: Vec<f64> = all.games.iter().map(|g| f64::from(g.turns)).collect();
    println!("turns per game: mean {:.1}", turns.iter().sum::<f64>() / n.max(1) as f64);
    for (name, timing) in [("A", &timings[0]), ("B", &timings[1])] {
        let t = *timing.lock().expect("timing");
        if t.searches > 0 {
            let secs = t.elapsed.as_secs_f64();
            println!(
                "{name}: {} searches, {:.0} iterations/s per search, {:.1} ms per decision (slowest {:.0} ms)",
                t.searches,
                t.iterations as f64 / secs,
                1000.0 * secs / t.searches as f64,
                t.slowest.as_secs_f64() * 1000.0
            );
        }
    }
}
