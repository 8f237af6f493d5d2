//! A match of our computer player against an independent engine: the
//! English-draughts alpha-beta of the npm package `rapid-draughts`, run by a
//! small node script that speaks JSON lines (not part of this project: give
//! its path). The games are played by our rules (the `plain` deck, R11, its
//! move limit included) with our agent's real `choose`; the script keeps its
//! own game in step, and both sides' legal move lists are compared before
//! every move: a difference aborts the match.
//!
//! ```text
//! cargo run --release --features tools --example vs_rapid_draughts -- \
//!     --server /path/to/rd_server.mjs --ours hard --interactive --depth 8 --games 40
//! ```
//!
//! The server answers `{"cmd":"new"}` and `{"cmd":"play","move":M}` with
//! `{"moves":[M...]}`, and `{"cmd":"think","depth":D}` with `{"move":M}`, where
//! a move M is `{"origin":o,"destination":d,"captures":[c...]}` in the
//! package's square numbers, 0 to 31: PDN square numbers minus one (R11).
//!
//! Openings: the distinct three-ply starts that a search of ours rates within
//! `--balance` hundredths of a pawn, in move order, `--games / 2` of them
//! spread evenly; each is played twice, our player taking Dark, then Light.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::{Value, json};

use alien_checkers::ai::{AlphaBeta, Budget, Limit, make_agent};
use alien_checkers::content::ContentRoot;
use alien_checkers::game::{Choice, GameState};
use alien_checkers::kernel::{Move, Player, Square};
use alien_checkers::script::ScriptEngine;

#[derive(Parser, Debug)]
struct Args {
    /// The node script (see the module's comment).
    #[arg(long)]
    server: String,
    /// Our player, as `simulate` names it (`hard`, `normal`, `normal:nodes=…`).
    #[arg(long, default_value = "hard")]
    ours: String,
    /// With the level's time cap (as the REPL plays); else the reproducible budget.
    #[arg(long)]
    interactive: bool,
    /// The opponent's search depth (`alphaBeta({ maxDepth })`).
    #[arg(long, default_value_t = 8)]
    depth: u32,
    #[arg(long, default_value_t = 40)]
    games: u32,
    /// Openings rated further from even than this (hundredths of a pawn) are left out.
    #[arg(long, default_value_t = 60)]
    balance: i32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// A move as the package writes it: origin, destination, captured squares (sorted).
type Theirs = (u8, u8, Vec<u8>);

/// R11: PDN square `n` (1 to 32), seen from Dark's side: 1 = g1, 4 = a1, 5 = h2, 32 = b8.
fn pdn(sq: Square) -> u8 {
    let (file, rank) = (sq.file() as u8, sq.rank() as u8);
    let k = if rank % 2 == 0 { (6 - file) / 2 } else { (7 - file) / 2 };
    rank * 4 + k + 1
}

fn theirs(mv: &Move) -> Theirs {
    let mut caps: Vec<u8> = mv.captured().map(|s| pdn(s) - 1).collect();
    caps.sort_unstable();
    (pdn(mv.from()) - 1, pdn(mv.to()) - 1, caps)
}

fn parse_move(v: &Value) -> Theirs {
    let n = |v: &Value| v.as_u64().expect("a square number") as u8;
    let mut caps: Vec<u8> = v["captures"].as_array().expect("captures").iter().map(n).collect();
    caps.sort_unstable();
    (n(&v["origin"]), n(&v["destination"]), caps)
}

struct Server {
    _child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Server {
    fn start(path: &str) -> Server {
        let dir = std::path::Path::new(path).parent().expect("the script's folder");
        let mut child = Command::new("node")
            .arg(path)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("node runs");
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        Server { _child: child, input, output }
    }

    fn ask(&mut self, request: Value) -> Value {
        writeln!(self.input, "{request}").expect("the server reads");
        self.input.flush().expect("flush");
        let mut line = String::new();
        self.output.read_line(&mut line).expect("the server answers");
        let reply: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("bad reply {line:?}: {e}"));
        if let Some(error) = reply.get("error") {
            panic!("server error on {request}: {error}");
        }
        reply
    }

    fn moves(reply: &Value) -> BTreeSet<Theirs> {
        reply["moves"].as_array().expect("moves").iter().map(parse_move).collect()
    }
}

/// Our legal moves in the package's terms; panics (the match is void) if the lists differ.
fn check_sync(state: &GameState, server_moves: &BTreeSet<Theirs>, context: &str) {
    let ours: BTreeSet<Theirs> = state.kernel_moves().iter().map(theirs).collect();
    if &ours != server_moves {
        panic!("OUT OF SYNC {context}: ours {ours:?} theirs {server_moves:?}\n{:?}", state.board);
    }
}

fn to_ours(state: &GameState, mv: &Theirs) -> Move {
    *state.kernel_moves().iter().find(|m| theirs(m) == *mv).unwrap_or_else(|| panic!("{mv:?} is not legal for us"))
}

/// Three-ply starts from the initial position, rated near even by our search.
fn openings(setup_state: &GameState, host: &ScriptEngine, count: usize, balance: i32) -> Vec<[Move; 3]> {
    let mut all = Vec::new();
    let mut searcher = AlphaBeta::new();
    let plies = |s: &GameState| s.kernel_moves();
    for a in plies(setup_state) {
        let mut s1 = setup_state.clone();
        s1.apply(host, &Choice::Move(a)).expect("legal");
        for b in plies(&s1) {
            let mut s2 = s1.clone();
            s2.apply(host, &Choice::Move(b)).expect("legal");
            for c in plies(&s2) {
                let mut s3 = s2.clone();
                s3.apply(host, &Choice::Move(c)).expect("legal");
                let found = searcher.search(&s3, &[], Limit::Nodes(300_000)).expect("a move");
                if found.score.abs() <= balance {
                    all.push([a, b, c]);
                }
            }
        }
    }
    let n = all.len();
    eprintln!("{n} balanced three-ply openings");
    (0..count.min(n)).map(|i| all[i * n / count.min(n)]).collect()
}

fn main() {
    let args = Args::parse();
    let engine = ScriptEngine::load(&ContentRoot::discover(), "plain").unwrap_or_else(|p| panic!("{p}"));
    let setup = engine.content().setup();
    let mut server = Server::start(&args.server);
    let start_state = {
        let mut s = GameState::deal(&setup, args.seed, &engine);
        s.settle(&engine).expect("settles");
        s
    };
    let pairs = (args.games / 2).max(1) as usize;
    let openings = openings(&start_state, &engine, pairs, args.balance);
    let budget = if args.interactive { Budget::Interactive } else { Budget::Reproducible };
    let (mut wins, mut losses, mut draws, mut draws_ahead) = (0, 0, 0, 0);
    let (mut our_moves, mut our_time, mut slowest) = (0u32, Duration::ZERO, Duration::ZERO);
    let match_start = Instant::now();
    for (g, opening) in openings.iter().flat_map(|o| [o, o]).enumerate() {
        let ours = if g % 2 == 0 { Player::Dark } else { Player::Light };
        let seed = args.seed.wrapping_add(g as u64);
        let mut agent = make_agent(&args.ours, seed, Vec::new(), budget, None).expect("our player");
        let mut state = start_state.clone();
        let mut server_moves = Server::moves(&server.ask(json!({"cmd": "new"})));
        let mut record = Vec::new();
        let mut ply = 0;
        while state.outcome().is_none() {
            check_sync(&state, &server_moves, &format!("game {g} ply {ply}"));
            let mv = if ply < 3 {
                opening[ply]
            } else if state.to_move == ours {
                let t = Instant::now();
                let choice = agent.choose(&state, &engine).expect("a move");
                let spent = t.elapsed();
                our_moves += 1;
                our_time += spent;
                slowest = slowest.max(spent);
                match choice {
                    Choice::Move(m) => m,
                    other => panic!("not a move: {other:?}"),
                }
            } else {
                let reply = server.ask(json!({"cmd": "think", "depth": args.depth}));
                to_ours(&state, &parse_move(&reply["move"]))
            };
            let (o, d, caps) = theirs(&mv);
            let m = json!({"origin": o, "destination": d, "captures": caps});
            state.apply(&engine, &Choice::Move(mv)).expect("a legal move");
            server_moves = Server::moves(&server.ask(json!({"cmd": "play", "move": m})));
            record.push(mv.to_string());
            ply += 1;
        }
        let outcome = state.outcome().expect("over");
        let count = |p: Player| state.board.checkers(p).count() as i32;
        let lead = count(ours) - count(!ours);
        let result = match outcome.winner {
            Some(w) if w == ours => {
                wins += 1;
                "win"
            }
            Some(_) => {
                losses += 1;
                "loss"
            }
            None => {
                draws += 1;
                if lead >= 2 {
                    draws_ahead += 1;
                }
                "draw"
            }
        };
        println!(
            "game {g:2} ours={ours:5} opening {} {} {}: {result} ({:?}) after {} plies, pieces {}-{}; our avg {:.0} ms",
            opening[0],
            opening[1],
            opening[2],
            outcome.reason,
            ply,
            count(ours),
            count(!ours),
            1000.0 * our_time.as_secs_f64() / f64::from(our_moves.max(1)),
        );
        eprintln!("  {}", record.join(" "));
    }
    let games = wins + losses + draws;
    println!(
        "{} vs rapid-draughts depth {}: {games} games, W-L-D {wins}-{losses}-{draws}, score {:.1}%, \
         draws two or more pieces ahead {draws_ahead}; our moves {our_moves}, {:.0} ms average, slowest {:.0} ms; {:.0} s",
        args.ours,
        args.depth,
        100.0 * (f64::from(wins) + 0.5 * f64::from(draws)) / f64::from(games.max(1)),
        1000.0 * our_time.as_secs_f64() / f64::from(our_moves.max(1)),
        slowest.as_secs_f64() * 1000.0,
        match_start.elapsed().as_secs_f64()
    );
}
