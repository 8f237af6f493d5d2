//! The computer opponent: single-observer information-set Monte Carlo tree
//! search (SO-ISMCTS, Cowling, Powley & Whitehouse 2012) over the engine's
//! decision loop.
//!
//! Every decision (a checker move, which card to use, each answer a card asks
//! for) is a [`Choice`] edge of one tree; the search has no per-card code.
//! Each iteration deals a fresh determinization of what the deciding player
//! cannot see ([`Determinizer`]), walks the tree with UCB1 over the children
//! legal in that determinization (counting availability, not parent visits),
//! expands one untried option, plays out pending captures (and, if configured,
//! a few random decisions), and scores the end by the result or by the
//! [`Heuristic`] (and, if configured, what forced play on the board wins,
//! [`Tactics`]).
//!
//! A move step where nothing is hidden and no script can change the moves
//! ([`fully_visible`]: plain checkers, the card-free draughts decks) is a
//! game of perfect information: there `normal` and `hard` search with
//! alpha-beta instead ([`SearchConfig::exact`], alphabeta.rs), remembering
//! the game's positions so as not to repeat them when ahead.

use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use crate::game::{CardHost, Choice, GameState, PlanetId, Step};
use crate::kernel::Player;

use super::Agent;
use super::alphabeta::{AlphaBeta, Limit, Tactics, fully_visible, position_key};
use super::eval::{Evaluator, Heuristic, expected_result};
use super::observe::{Determinizer, Observation};
use super::pool::{HostFactory, Pool, Task};
use super::recall::Recall;
use super::rng::{AgentRng, mix_seed};

/// The playing strengths the game offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// 150 iterations, and the option played is sampled by visit counts
    /// rather than the best: beatable.
    Easy,
    /// 1500 iterations on one thread: "challenging but fallible"; on fully
    /// visible move steps alpha-beta with [`NORMAL_NODES`].
    Normal,
    /// 10 000 iterations on two threads (root-parallel, given a host factory);
    /// on fully visible move steps alpha-beta with [`HARD_NODES`], or paced by
    /// the clock when interactive.
    Hard,
}

impl Level {
    /// The thinking-time cap for interactive play ([`SearchConfig::interactive`]).
    /// `normal` should decide within a second; the cap leaves room
    /// for the work around the search.
    pub fn time_limit(self) -> Duration {
        match self {
            Level::Easy => Duration::from_millis(500),
            Level::Normal => Duration::from_millis(900),
            Level::Hard => Duration::from_secs(5),
        }
    }
}

impl std::str::FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "easy" => Ok(Level::Easy),
            "normal" => Ok(Level::Normal),
            "hard" => Ok(Level::Hard),
            _ => Err(format!("'{s}' is not a level (easy, normal or hard)")),
        }
    }
}

/// How hard the search works. A search runs at least one iteration whatever
/// `iterations` says (unless the time limit has already passed).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// Iterations in all, split evenly between threads.
    pub iterations: u32,
    /// Stop early when this much time has passed (then decisions depend on speed).
    pub time_limit: Option<Duration>,
    /// Threads for root-parallel search; extra threads need a [`HostFactory`].
    pub threads: usize,
    /// The UCB1 exploration constant (results are in `[0, 1]`).
    pub exploration: f64,
    /// Random decisions played after leaving the tree.
    pub rollout_plies: u32,
    /// Then at most this many more while a capture is pending, so the position
    /// scored is quiet.
    pub quiet_plies: u32,
    /// Logistic scale from heuristic pawns to an expected result.
    pub eval_scale: f32,
    /// 0: play the most visited option. Above 0: sample options with
    /// probability proportional to `visits^(1/temperature)` (the noise of `easy`).
    pub temperature: f64,
    /// Stop as soon as the most visited option cannot be overtaken by the
    /// iterations left, which chooses exactly what the whole budget would
    /// (only a search on one thread at temperature 0 stops so).
    pub stop_when_decided: bool,
    /// Add to a leaf's heuristic what forced play on the board wins or loses
    /// ([`Tactics`]: captures, shots), when the leaf is at a move or card
    /// step and no lasting effect changes the moves. Off at every level: on
    /// the standard deck it scored 50.5% (99-97-4) against the same search
    /// without it, at 7% more time a decision (`ai_strength --rules standard
    /// --a mcts:tactics=1 --b normal --games 200`).
    pub tactics: bool,
    /// How a move step with nothing hidden and nothing scripted
    /// ([`fully_visible`]: plain checkers, the card-free draughts decks) is
    /// decided.
    pub exact: Exact,
}

/// How [`SearchConfig::exact`] decides the move steps alpha-beta can search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exact {
    /// By the tree search, like every other decision.
    Off,
    /// By alpha-beta (alphabeta.rs) with this many nodes: reproducible.
    Nodes(u64),
    /// By alpha-beta paced by the clock within [`SearchConfig::time_limit`]
    /// ([`Limit::Paced`]); without a time limit, as `Nodes(HARD_NODES)`.
    Paced,
}

/// `normal`'s alpha-beta budget: 40 to 70 ms a move on plain checkers (`bench`).
pub const NORMAL_NODES: u64 = 150_000;
/// `hard`'s reproducible alpha-beta budget: half a second to 0.8 s a move (`bench`).
pub const HARD_NODES: u64 = 1_500_000;

impl SearchConfig {
    /// The settings of a level: budgets in iterations and no time limit, so
    /// that a seed replays the same decisions on any machine (for `simulate`
    /// and tests). See [`SearchConfig::interactive`] for play.
    pub fn level(level: Level) -> SearchConfig {
        let base = SearchConfig {
            iterations: 1500,
            time_limit: None,
            threads: 1,
            exploration: 0.6,
            // Scoring the leaf (once captures are played out) beat random
            // plies before it on the standard deck: 35-5 against greedy where
            // four plies went 23-5 of 28, at twice the iterations per second.
            rollout_plies: 0,
            quiet_plies: 8,
            eval_scale: 0.9,
            temperature: 0.0,
            stop_when_decided: true,
            tactics: false,
            exact: Exact::Nodes(NORMAL_NODES),
        };
        match level {
            // Between `greedy` and `normal` (docs/simulate.md, "The levels'
            // strength"): at temperature 1 it lost to `greedy` (42.5 % of 200
            // games on the standard deck); without noise, 68.8 %.
            Level::Easy => SearchConfig { iterations: 150, temperature: 0.25, exact: Exact::Off, ..base },
            Level::Normal => base,
            Level::Hard => SearchConfig { iterations: 10_000, threads: 2, exact: Exact::Nodes(HARD_NODES), ..base },
        }
    }

    /// [`SearchConfig::level`] with the level's time cap: for a human waiting
    /// on the computer. Slow card scripts then cost strength rather than time,
    /// and a decision depends on the machine's speed only when the cap is hit.
    /// `hard` paces its alpha-beta by the clock there.
    pub fn interactive(level: Level) -> SearchConfig {
        let base = SearchConfig { time_limit: Some(level.time_limit()), ..SearchConfig::level(level) };
        match level {
            Level::Hard => SearchConfig { exact: Exact::Paced, ..base },
            _ => base,
        }
    }

    /// The alpha-beta limit for a fully visible move step, if alpha-beta decides it.
    fn exact_limit(&self) -> Option<Limit> {
        match (self.exact, self.time_limit) {
            (Exact::Off, _) => None,
            (Exact::Nodes(n), _) => Some(Limit::Nodes(n)),
            (Exact::Paced, Some(t)) => Some(Limit::Paced(t)),
            (Exact::Paced, None) => Some(Limit::Nodes(HARD_NODES)),
        }
    }

    fn budget(&self) -> u32 {
        self.iterations.max(1)
    }
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig::level(Level::Normal)
    }
}

/// What one search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport {
    /// The option chosen: one of the pending options.
    pub choice: Choice,
    /// Iterations run, all threads together (alpha-beta: nodes searched).
    pub iterations: u64,
    pub elapsed: Duration,
    /// The root options the search tried, summed over threads.
    pub root: Vec<RootStat>,
}

/// One root option's statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct RootStat {
    pub choice: Choice,
    pub visits: u64,
    /// Mean result for the deciding player, in `[0, 1]`.
    pub mean: f64,
}

/// The ISMCTS opponent.
pub struct MctsAgent {
    config: SearchConfig,
    planet_deck: Vec<PlanetId>,
    rng: AgentRng,
    heuristic: Arc<dyn Heuristic>,
    /// Helper threads for `config.threads > 1`; `None` without a host factory.
    pool: Option<Pool>,
    /// The searcher of fully visible move steps, made when first needed.
    alphabeta: Option<Box<AlphaBeta>>,
    /// The positions of this game met at those steps, before and after the
    /// agent's moves: met again, they score as draws.
    memory: GameMemory,
}

/// The positions ([`position_key`]) of the game an agent is playing, as seen at
/// its fully visible move steps; forgotten when a state comes from before the
/// last one (another game, or an undo).
#[derive(Clone, Debug, Default)]
struct GameMemory {
    turn: u32,
    keys: Vec<u64>,
}

impl GameMemory {
    fn note(&mut self, state: &GameState) {
        if state.turn < self.turn || self.keys.is_empty() {
            self.keys.clear();
        }
        self.turn = state.turn;
        self.keys.push(position_key(&state.board, state.to_move));
    }
}

/// A clone has the same settings and generator state, and its own helper
/// threads (started when it first searches).
impl Clone for MctsAgent {
    fn clone(&self) -> MctsAgent {
        MctsAgent {
            config: self.config.clone(),
            planet_deck: self.planet_deck.clone(),
            rng: self.rng.clone(),
            heuristic: Arc::clone(&self.heuristic),
            pool: self.pool.as_ref().map(|p| Pool::new(p.factory())),
            alphabeta: None,
            memory: self.memory.clone(),
        }
    }
}

impl MctsAgent {
    /// `planet_deck` is the variant's planet deck (the state holds only the two
    /// dealt planets); the opponent's planet is guessed from it.
    pub fn new(config: SearchConfig, planet_deck: Vec<PlanetId>, seed: u64) -> MctsAgent {
        MctsAgent {
            config,
            planet_deck,
            rng: AgentRng::new(seed),
            heuristic: Arc::new(Evaluator::default()),
            pool: None,
            alphabeta: None,
            memory: GameMemory::default(),
        }
    }

    pub fn with_heuristic(mut self, heuristic: Arc<dyn Heuristic>) -> MctsAgent {
        self.heuristic = heuristic;
        self
    }

    /// Lets the search use `config.threads` threads: the caller's and
    /// helpers that each make one host with `factory` and keep it.
    pub fn with_host_factory(mut self, factory: HostFactory) -> MctsAgent {
        self.pool = Some(Pool::new(factory));
        self
    }

    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Searches the pending decision of `state`; `None` when nothing is pending.
    /// Reads only what the deciding player may know ([`Observation`]).
    pub fn search(&mut self, state: &GameState, host: &dyn CardHost) -> Option<SearchReport> {
        let start = Instant::now();
        let decision = state.pending(host)?;
        let seed = self.rng.next_u64();
        let mut options = decision.options;
        if options.len() <= 1 {
            let choice = options.pop()?;
            return Some(SearchReport { choice, iterations: 0, elapsed: start.elapsed(), root: Vec::new() });
        }
        if let Some(limit) = self.config.exact_limit()
            && fully_visible(state)
            && let Some(report) = self.search_exactly(state, &options, limit, start)
        {
            return Some(report);
        }
        let determinizer = Determinizer::new(Observation::new(state, decision.player), &self.planet_deck, host);
        let deadline = self.config.time_limit.map(|limit| start + limit);
        let threads = if self.pool.is_some() { self.config.threads.clamp(1, 64) } else { 1 };
        let per_thread = self.config.budget().div_ceil(threads as u32);
        let job = Arc::new(Job {
            determinizer,
            heuristic: Arc::clone(&self.heuristic),
            config: self.config.clone(),
            // With helpers, another thread may favour another option; at a
            // temperature every visit changes the odds.
            stop_when_decided: self.config.stop_when_decided && threads == 1 && self.config.temperature == 0.0,
        });
        let (reply, replies) = mpsc::channel();
        let mut sent = 0;
        if let Some(pool) = &mut self.pool {
            for t in 1..threads {
                let (job, reply) = (Arc::clone(&job), reply.clone());
                let seed = mix_seed(seed, t as u64);
                let task: Task = Box::new(move |host| {
                    let result = job.run(host, seed, per_thread, deadline);
                    // The searcher may have given up waiting; nothing to do then.
                    let _ = reply.send((t, result));
                });
                sent += usize::from(pool.submit(t - 1, task));
            }
        }
        drop(reply);
        let mut results = vec![job.run(host, mix_seed(seed, 0), per_thread, deadline)];
        // A helper that died (a broken host) only loses its statistics: its
        // reply sender is dropped and the iterator ends. Thread order keeps the
        // sums reproducible.
        let mut helped: Vec<(usize, ThreadResult)> = replies.iter().take(sent).collect();
        helped.sort_by_key(|(t, _)| *t);
        results.extend(helped.into_iter().map(|(_, r)| r));
        let iterations = results.iter().map(|r| r.iterations).sum();
        let root = merge(&options, results);
        let choice = self.pick(&root).unwrap_or_else(|| options.swap_remove(0));
        Some(SearchReport { choice, iterations, elapsed: start.elapsed(), root })
    }

    /// A fully visible move step by alpha-beta; `None` if it found no move
    /// among `options` (it lists the same moves, so never).
    fn search_exactly(
        &mut self,
        state: &GameState,
        options: &[Choice],
        limit: Limit,
        start: Instant,
    ) -> Option<SearchReport> {
        self.memory.note(state);
        let searcher = self.alphabeta.get_or_insert_with(Default::default);
        let found = searcher.search(state, &self.memory.keys, limit)?;
        let choice = Choice::Move(found.best);
        if !options.contains(&choice) {
            return None;
        }
        let mut after = state.board;
        if after.play(&found.best, &mut crate::kernel::Unrecorded).is_ok() {
            self.memory.keys.push(position_key(&after, !state.to_move));
        }
        let mean = f64::from(expected_result(found.score as f32 / 100.0, self.config.eval_scale));
        let root = vec![RootStat { choice: choice.clone(), visits: found.nodes, mean }];
        Some(SearchReport { choice, iterations: found.nodes, elapsed: start.elapsed(), root })
    }

    /// The most visited option, or at a temperature a sample weighted by visits.
    fn pick(&mut self, root: &[RootStat]) -> Option<Choice> {
        if root.is_empty() {
            return None;
        }
        let t = self.config.temperature;
        if t > 0.0 {
            let weights: Vec<f64> = root.iter().map(|s| (s.visits as f64).powf(1.0 / t)).collect();
            let total: f64 = weights.iter().sum();
            if total.is_finite() && total > 0.0 {
                let mut x = self.rng.unit() * total;
                for (stat, w) in root.iter().zip(&weights) {
                    if x < *w {
                        return Some(stat.choice.clone());
                    }
                    x -= w;
                }
            }
        }
        let best = root
            .iter()
            .enumerate()
            .max_by(|(i, a), (j, b)| a.visits.cmp(&b.visits).then(a.mean.total_cmp(&b.mean)).then(j.cmp(i)))?;
        Some(best.1.choice.clone())
    }
}

impl Agent for MctsAgent {
    fn name(&self) -> String {
        format!("mcts({} iterations)", self.config.iterations)
    }

    fn choose(&mut self, state: &GameState, host: &dyn CardHost) -> Option<Choice> {
        self.search(state, host).map(|report| report.choice)
    }
}

/// Sums the threads' root statistics, listed in the order of `options`.
fn merge(options: &[Choice], results: Vec<ThreadResult>) -> Vec<RootStat> {
    let mut root: Vec<RootStat> = Vec::new();
    for option in options {
        let (mut visits, mut reward) = (0u64, 0f64);
        for result in &results {
            if let Some((_, v, r)) = result.root.iter().find(|(c, _, _)| c == option) {
                visits += u64::from(*v);
                reward += r;
            }
        }
        if visits > 0 {
            root.push(RootStat { choice: option.clone(), visits, mean: reward / visits as f64 });
        }
    }
    root
}

/// One search, shared read-only by its threads.
struct Job {
    determinizer: Determinizer,
    heuristic: Arc<dyn Heuristic>,
    config: SearchConfig,
    /// Stop once the choice is decided ([`SearchConfig::stop_when_decided`]).
    stop_when_decided: bool,
}

/// One thread's findings.
struct ThreadResult {
    iterations: u64,
    /// Root children: choice, visits, summed reward for the decider.
    root: Vec<(Choice, u32, f64)>,
}

impl Job {
    fn run(&self, host: &dyn CardHost, seed: u64, iterations: u32, deadline: Option<Instant>) -> ThreadResult {
        let mut tree = Searcher::new(self, host, seed);
        let mut done = 0u64;
        for i in 0..iterations {
            // Reading the clock costs; look every 16 iterations.
            if i % 16 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            // The most visited option is played (ties by mean, then option
            // order); once it leads the next by more than the iterations left,
            // nothing they do can change the choice.
            if self.stop_when_decided && i % 16 == 0 && i > 0 {
                let (first, second) = tree.top_two_visits();
                if first > second + (iterations - i) {
                    break;
                }
            }
            tree.iterate();
            done += 1;
        }
        ThreadResult { iterations: done, root: tree.root_stats() }
    }
}

const NONE: u32 = u32::MAX;
const ROOT: u32 = 0;

/// A tree node: the edge from its parent (`choice`, taken by `mover`) and its
/// statistics. Children form a singly linked list through `next_sibling`.
/// Invariant: `reward` is the sum of the `visits` results, each in `[0, 1]`
/// and seen from `mover`'s side.
struct Node {
    choice: Option<Choice>,
    /// `choice_hash` of the choice (0 for the root), so that options are
    /// matched with children by hash before any choice is compared.
    hash: u64,
    mover: Player,
    visits: u32,
    /// Iterations in which this node's choice was legal when its parent was passed.
    avail: u32,
    reward: f64,
    first_child: u32,
    next_sibling: u32,
}

/// One thread's tree and reusable buffers.
struct Searcher<'a> {
    job: &'a Job,
    /// The host, remembering card resolutions by position: each iteration
    /// replays its path from the root (recall.rs).
    host: Recall<'a>,
    rng: AgentRng,
    nodes: Vec<Node>,
    state: GameState,
    path: Vec<u32>,
    available: Vec<u32>,
    untried: Vec<usize>,
    /// A node's children as (hash, id), to match them with the options.
    children: Vec<(u64, u32)>,
    tactics: Tactics,
}

/// A choice's hash, to find a node's child among many options without comparing
/// each option with each child.
fn choice_hash(choice: &Choice) -> u64 {
    crate::hash::fx(choice)
}

impl<'a> Searcher<'a> {
    fn new(job: &'a Job, host: &'a dyn CardHost, seed: u64) -> Searcher<'a> {
        let root = Node {
            choice: None,
            hash: 0,
            mover: job.determinizer.observation().viewer(),
            visits: 0,
            avail: 0,
            reward: 0.0,
            first_child: NONE,
            next_sibling: NONE,
        };
        let mut nodes = Vec::with_capacity(job.config.budget().min(1 << 20) as usize + 1);
        nodes.push(root);
        Searcher {
            job,
            host: Recall::new(host),
            rng: AgentRng::new(seed),
            nodes,
            state: job.determinizer.observation().state().clone(),
            path: Vec::with_capacity(64),
            available: Vec::with_capacity(64),
            untried: Vec::with_capacity(64),
            children: Vec::with_capacity(64),
            tactics: Tactics::default(),
        }
    }

    fn child(&self, node: u32, choice: &Choice, hash: u64) -> Option<u32> {
        let mut c = self.nodes[node as usize].first_child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            if n.hash == hash && n.choice.as_ref() == Some(choice) {
                return Some(c);
            }
            c = n.next_sibling;
        }
        None
    }

    /// Sorts `options` into `node`'s children that made them (`available`) and
    /// the indices of those not tried yet (`untried`), both in option order. A
    /// question may offer hundreds of answers: then children are found by hash
    /// rather than by comparing every option with every child.
    fn match_children(&mut self, node: u32, options: &[Choice]) {
        self.available.clear();
        self.untried.clear();
        if options.len() <= 16 {
            for (i, option) in options.iter().enumerate() {
                match self.child(node, option, choice_hash(option)) {
                    Some(c) => self.available.push(c),
                    None => self.untried.push(i),
                }
            }
            return;
        }
        self.children.clear();
        let mut c = self.nodes[node as usize].first_child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            self.children.push((n.hash, c));
            c = n.next_sibling;
        }
        self.children.sort_unstable();
        for (i, option) in options.iter().enumerate() {
            let hash = choice_hash(option);
            let start = self.children.partition_point(|&(h, _)| h < hash);
            let same = self.children[start..].iter().take_while(|&&(h, _)| h == hash);
            let nodes = &self.nodes;
            match same.map(|&(_, c)| c).find(|&c| nodes[c as usize].choice.as_ref() == Some(option)) {
                Some(c) => self.available.push(c),
                None => self.untried.push(i),
            }
        }
    }

    fn add_child(&mut self, parent: u32, choice: Choice, mover: Player) -> u32 {
        let id = self.nodes.len() as u32;
        let next_sibling = self.nodes[parent as usize].first_child;
        self.nodes.push(Node {
            hash: choice_hash(&choice),
            choice: Some(choice),
            mover,
            visits: 0,
            avail: 1,
            reward: 0.0,
            first_child: NONE,
            next_sibling,
        });
        self.nodes[parent as usize].first_child = id;
        id
    }

    /// UCB1 with availability counts (SO-ISMCTS) over `self.available`.
    fn select(&self) -> u32 {
        let c = self.job.config.exploration;
        let mut best = (f64::NEG_INFINITY, self.available[0]);
        for &id in &self.available {
            let n = &self.nodes[id as usize];
            let visits = f64::from(n.visits.max(1));
            let value = n.reward / visits + c * (f64::from(n.avail.max(1)).ln() / visits).sqrt();
            if value > best.0 {
                best = (value, id);
            }
        }
        best.1
    }

    /// One iteration: determinize, select, expand, play out, back up.
    fn iterate(&mut self) {
        self.job.determinizer.sample(&mut self.rng, &mut self.state);
        self.path.clear();
        let mut node = ROOT;
        // Who made a choice the engine refused in this determinization (a
        // failing card script): that line counts as a loss for them.
        let mut refused: Option<Player> = None;
        while let Some(decision) = self.state.pending(&self.host) {
            let mover = decision.player;
            let mut options = decision.options;
            if options.is_empty() {
                break;
            }
            self.match_children(node, &options);
            for &c in &self.available {
                self.nodes[c as usize].avail += 1;
            }
            if !self.untried.is_empty() {
                let pick = self.untried[self.rng.below(self.untried.len())];
                let choice = options.swap_remove(pick);
                let result = self.state.apply(&self.host, &choice);
                let child = self.add_child(node, choice, mover);
                self.path.push(child);
                if result.is_err() {
                    refused = Some(mover);
                }
                break;
            }
            let child = self.select();
            self.path.push(child);
            let choice = self.nodes[child as usize].choice.as_ref();
            let refused_here = choice.is_none_or(|c| self.state.apply(&self.host, c).is_err());
            if refused_here {
                refused = Some(mover);
                break;
            }
            node = child;
        }
        let dark = match refused {
            Some(Player::Dark) => 0.0,
            Some(Player::Light) => 1.0,
            None => self.playout(),
        };
        for &id in &self.path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.reward += if n.mover == Player::Dark { dark } else { 1.0 - dark };
        }
        self.nodes[ROOT as usize].visits += 1;
    }

    /// Plays on from `self.state` and returns the expected result for Dark:
    /// `rollout_plies` random decisions, then pending captures (at most
    /// `quiet_plies` decisions, so the position scored is quiet), then the
    /// result if the game is over or else the heuristic.
    fn playout(&mut self) -> f64 {
        let (rollout, quiet) = (self.job.config.rollout_plies, self.job.config.quiet_plies);
        for _ in 0..rollout {
            if !self.random_step() {
                break;
            }
        }
        for _ in 0..quiet {
            if self.is_quiet() || !self.random_step() {
                break;
            }
        }
        self.value_for_dark()
    }

    /// Quiet: a checker move is due and none of the legal ones captures (R4.3
    /// makes captures compulsory, so the first legal move tells).
    fn is_quiet(&self) -> bool {
        match self.state.step {
            Step::Move => !self.state.capture_due(self.host.host()),
            Step::Over(_) => true,
            _ => false,
        }
    }

    /// Takes a uniformly random pending option (a capture when one is due, by
    /// R4.3); false when the game is over or the engine refused.
    /// Playouts go to the host directly: their random lines are seldom met
    /// again, so remembering their resolutions would cost more than it saves.
    fn random_step(&mut self) -> bool {
        let host = self.host.host();
        let rng = &mut self.rng;
        let Some(pick) = self.state.pending_option(host, |n| rng.below(n)) else { return false };
        self.state.apply(host, &pick).is_ok()
    }

    fn value_for_dark(&mut self) -> f64 {
        match self.state.outcome() {
            Some(outcome) => match outcome.winner {
                Some(Player::Dark) => 1.0,
                Some(Player::Light) => 0.0,
                None => 0.5,
            },
            None => {
                let score =
                    self.job.heuristic.score(&self.state, Player::Dark, self.host.host()) + self.tactics_for_dark();
                let value = f64::from(expected_result(score, self.job.config.eval_scale));
                // A heuristic that returns NaN must not poison the statistics.
                if value.is_finite() { value } else { 0.5 }
            }
        }
    }

    /// What forced play on the board wins for Dark from the leaf, in pawns
    /// ([`SearchConfig::tactics`]): at a move step for the player to move, at
    /// a card step for the other (who moves next on the board).
    fn tactics_for_dark(&mut self) -> f32 {
        let state = &self.state;
        if !self.job.config.tactics || !state.effects.is_empty() || state.constraint.is_some() {
            return 0.0;
        }
        let mover = match state.step {
            Step::Move => state.to_move,
            Step::Card => !state.to_move,
            _ => return 0.0,
        };
        let rules = [state.move_rules(Player::Dark), state.move_rules(Player::Light)];
        let swing = self.tactics.swing(&state.board, mover, &rules) as f32 / 100.0;
        if mover == Player::Dark { swing } else { -swing }
    }

    /// The visits of the two most visited root options (0 for none).
    fn top_two_visits(&self) -> (u32, u32) {
        let (mut first, mut second) = (0, 0);
        let mut c = self.nodes[ROOT as usize].first_child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            if n.visits > first {
                (first, second) = (n.visits, first);
            } else if n.visits > second {
                second = n.visits;
            }
            c = n.next_sibling;
        }
        (first, second)
    }

    fn root_stats(&self) -> Vec<(Choice, u32, f64)> {
        let mut out = Vec::new();
        let mut c = self.nodes[ROOT as usize].first_child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            if let Some(choice) = &n.choice {
                out.push((choice.clone(), n.visits, n.reward));
            }
            c = n.next_sibling;
        }
        out
    }
}
