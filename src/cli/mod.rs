//! Command-line parsing and the subcommands. Each subcommand is a thin shell over
//! the library; no rules live here (ARCHITECTURE.md).

mod bench;
mod content;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use alien_checkers::plain::{Position, pdn_move, perft};

#[derive(Parser, Debug)]
#[command(
    name = "alien-checkers",
    version,
    about = "Alien Checkers: checkers with rule-bending cards and secret planets"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count leaf positions of plain checkers (R11) to a depth; the last line is the count.
    Perft {
        #[arg(long)]
        depth: u32,
        /// Position in PDN FEN (default: the start), e.g. B:W21,22,K30:B1,2,K5
        #[arg(long)]
        fen: Option<String>,
    },
    /// List the legal moves of a plain-checkers position in PDN numbers, one per line.
    Moves {
        #[arg(long)]
        fen: String,
    },
    /// Measure move generation and playouts and print the figures (medians).
    Bench(bench::BenchArgs),
    /// Load decks and compile their scripts; report every problem (exit 1 if any).
    Check(content::CheckArgs),
    /// Run card and planet scenario files; the last line is `N passed, M failed`.
    Test(content::TestArgs),
}

/// A failure to report in one line, with exit status 2.
pub struct Failure(pub String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Failure {
        Failure(e.to_string())
    }
}

pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let text = e.to_string();
            eprintln!("{}", text.lines().next().unwrap_or("error: bad arguments"));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Some(Command::Perft { depth, fen }) => run_perft(depth, fen.as_deref()),
        Some(Command::Moves { fen }) => run_moves(&fen),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Check(args)) => content::check(&args),
        Some(Command::Test(args)) => content::test(&args),
        None => Err(Failure("error: the game REPL is not built yet; try --help".into())),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(message)) => {
            let line = message.lines().next().unwrap_or("failed");
            if line.starts_with("error") {
                eprintln!("{line}")
            } else {
                eprintln!("error: {line}")
            }
            ExitCode::from(2)
        }
    }
}

fn read_fen(fen: Option<&str>) -> Result<Position, Failure> {
    Ok(fen.map(str::parse).transpose()?.unwrap_or_else(Position::start))
}

fn run_perft(depth: u32, fen: Option<&str>) -> Result<(), Failure> {
    let position = read_fen(fen)?;
    if depth > 20 {
        return Err(Failure(format!("--depth {depth} is too deep; use 0 to 20")));
    }
    println!("{}", perft(&position, depth));
    Ok(())
}

fn run_moves(fen: &str) -> Result<(), Failure> {
    let position = read_fen(Some(fen))?;
    for mv in position.legal_moves() {
        println!("{}", pdn_move(&mv));
    }
    Ok(())
}
