//! Command-line parsing and the subcommands. Each subcommand is a thin shell over
//! the library; no rules live here (ARCHITECTURE.md).

mod bench;
mod content;
mod simulate;

use std::io::{ErrorKind, Write};
use std::process::ExitCode;

use anyhow::{anyhow, bail};

use clap::{Parser, Subcommand};

use alien_checkers::content::ContentRoot;
use alien_checkers::plain::{Position, Variant, perft};
use alien_checkers::repl::{PlayOptions, Seat};
use alien_checkers::session::Edits;

#[derive(Parser, Debug)]
#[command(
    name = "alien-checkers",
    version,
    about = "Alien Checkers: checkers with rule-bending cards and secret planets",
    long_about = "Alien Checkers: checkers with rule-bending cards and secret planets.\n\nWith no subcommand it starts a game in the terminal: you play Dark against the computer."
)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: PlayArgs,
}

/// Options for a game in the terminal (no subcommand, or `play`).
#[derive(clap::Args, Debug, Clone)]
struct PlayArgs {
    /// The deck: a name from cards/decks (standard, plain, ...) or a path to a deck manifest.
    #[arg(long, default_value = "standard")]
    deck: String,
    /// The seed for the deal and every shuffle (default: a fresh one, shown at the start).
    #[arg(long)]
    seed: Option<u64>,
    /// Who plays Dark: human, random, greedy, easy, normal or hard (default:
    /// human, or the saved game's seat with --load).
    #[arg(long)]
    dark: Option<Seat>,
    /// Who plays Light: human, random, greedy, easy, normal or hard (default:
    /// normal, or the saved game's seat with --load).
    #[arg(long)]
    light: Option<Seat>,
    /// Continue a saved game instead of dealing a new one.
    #[arg(long)]
    load: Option<std::path::PathBuf>,
    /// With --load: load the save even if it was edited (its decisions do not
    /// match its position digests), saying from which decision on it may not be
    /// the game that was played.
    #[arg(long, requires = "load")]
    accept_edited: bool,
    /// The content root (the folder holding cards/ and planets/); default: the
    /// deck's own, for a deck given as a path, else the current folder if it
    /// holds cards/, else the shipped content.
    #[arg(long, value_name = "DIR")]
    root: Option<std::path::PathBuf>,
}

/// Which board `perft` and `moves` use.
#[derive(clap::Args, Debug, Clone)]
struct BoardArgs {
    /// A deck whose moves, start and notation to use (russian, brazilian, …);
    /// default: plain checkers (R11).
    #[arg(long)]
    deck: Option<String>,
    /// The content root the deck comes from (as for play).
    #[arg(long, value_name = "DIR", requires = "deck")]
    root: Option<std::path::PathBuf>,
}

impl BoardArgs {
    fn variant(&self) -> anyhow::Result<Variant> {
        let Some(deck) = &self.deck else { return Ok(Variant::american()) };
        let root = ContentRoot::for_deck(self.root.as_deref(), deck).map_err(anyhow::Error::msg)?;
        let content = alien_checkers::content::Content::load(&root, deck).map_err(|p| anyhow!("{p}"))?;
        Ok(content.variant())
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a game in the terminal (the default when no subcommand is given).
    Play(PlayArgs),
    /// Count leaf positions to a depth, of plain checkers (R11) or a deck's board;
    /// the last line is the count.
    Perft {
        #[arg(long)]
        depth: u32,
        /// Position in the deck's PDN FEN (default: the start), e.g. B:W21,22,K30:B1,2,K5
        #[arg(long)]
        fen: Option<String>,
        #[command(flatten)]
        board: BoardArgs,
    },
    /// List the legal moves of a position in the deck's notation, one per line.
    Moves {
        #[arg(long)]
        fen: String,
        #[command(flatten)]
        board: BoardArgs,
    },
    /// Measure move generation and playouts and print the figures (medians).
    Bench(bench::BenchArgs),
    /// Load decks and compile their scripts; report every problem (exit status 2 if any).
    Check(content::CheckArgs),
    /// Run card and planet scenario files; the last line is `N passed, M failed`.
    Test(content::TestArgs),
    /// Play many games between two players on a deck and report what wins them.
    Simulate(Box<simulate::SimulateArgs>),
    /// Replay a saved game on the current scripts: what changed, the record (numbered
    /// move pairs with each side's card and its effects), and the state digest as the
    /// last line (`digest <16 hex digits> after N decisions`).
    Replay {
        /// The save file.
        file: std::path::PathBuf,
        /// Print the game's events instead, one JSON object per line (cards/README.md, "Events").
        #[arg(long)]
        events: bool,
        /// Replay the save even if it was edited (its decisions do not match its
        /// position digests); the first line says from which decision on.
        #[arg(long)]
        accept_edited: bool,
        /// The content root the save's deck comes from (default: the current
        /// folder if it holds cards/, else the shipped content).
        #[arg(long, value_name = "DIR")]
        root: Option<std::path::PathBuf>,
    },
    /// Step through a saved game forward and back (n, p, first, last, go <move>,
    /// q), seeing only one player's secrets; or write its record with --export.
    Review {
        /// The save file.
        file: std::path::PathBuf,
        /// Whose side to view from, and whose secrets to show: dark or light
        /// (default: the save's human seat; Dark when there is none or two).
        #[arg(long = "as", value_name = "SIDE", value_parser = parse_side)]
        side: Option<alien_checkers::kernel::Player>,
        /// Write the game to this file and stop: PDN for a draughts deck
        /// (plain, russian, …), else a save file.
        #[arg(long, value_name = "OUT")]
        export: Option<std::path::PathBuf>,
        /// Review the save even if it was edited.
        #[arg(long)]
        accept_edited: bool,
        /// The content root the save's deck comes from (as for replay).
        #[arg(long, value_name = "DIR")]
        root: Option<std::path::PathBuf>,
    },
}

/// `dark` or `light`, any case.
fn parse_side(text: &str) -> Result<alien_checkers::kernel::Player, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "dark" => Ok(alien_checkers::kernel::Player::Dark),
        "light" => Ok(alien_checkers::kernel::Player::Light),
        _ => Err("a side is dark or light".into()),
    }
}

/// What a command ends with: a failure is reported in one line (its context
/// chain, `outer: inner`), with exit status 2. The library's errors are typed
/// or plain messages; `anyhow` gathers them here, at the binary's edge.
pub type Outcome = anyhow::Result<()>;

/// When a script runs past the time guard (a bug in the metering, see
/// `script::TIME_GUARD`), the program stops there, whatever it was doing: the
/// game the REPL plays is as it was autosaved before the decision, and the
/// simulator writes no report.
fn stop_at_time_guard(place: &str) {
    let told = alien_checkers::script::time_guard_message(place, alien_checkers::script::TIME_GUARD);
    eprintln!("error: {told}. Nothing of this decision was kept.");
    std::process::exit(70);
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
            // One line: clap's first paragraph (the error and, for a missing
            // argument, the arguments it names), without the usage that follows.
            let text = e.to_string();
            let first: Vec<&str> = text.lines().take_while(|l| !l.trim().is_empty()).map(str::trim).collect();
            let line = if first.is_empty() { "error: bad arguments".to_string() } else { first.join(" ") };
            eprintln!("{line}");
            return ExitCode::from(2);
        }
    };
    alien_checkers::script::on_time_guard(stop_at_time_guard);
    let result = match cli.command {
        Some(Command::Perft { depth, fen, board }) => run_perft(depth, fen.as_deref(), &board),
        Some(Command::Moves { fen, board }) => run_moves(&fen, &board),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Check(args)) => content::check(&args),
        Some(Command::Test(args)) => content::test(&args),
        Some(Command::Simulate(args)) => simulate::run(&args),
        Some(Command::Replay { file, events, accept_edited, root }) => {
            replay(&file, events, edits(accept_edited), root.as_deref())
        }
        Some(Command::Review { file, side, export, accept_edited, root }) => {
            let options = alien_checkers::repl::review::ReviewOptions {
                root: alien_checkers::session::root_for_save(root.as_deref(), &file, ContentRoot::discover),
                file,
                viewer: side,
                export,
                edits: edits(accept_edited),
            };
            alien_checkers::repl::review::run_file(options).map_err(anyhow::Error::msg)
        }
        Some(Command::Play(args)) => play(args),
        None => play(cli.play),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader stopped early (`replay FILE --events | head`): nothing is wrong.
        Err(failure) if failure.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == ErrorKind::BrokenPipe) => {
            ExitCode::SUCCESS
        }
        Err(failure) => {
            let message = format!("{failure:#}");
            // Failures quote files and mods: shown, never obeyed (text.rs).
            let line = alien_checkers::text::visible(message.lines().next().unwrap_or("failed"));
            if line.starts_with("error") {
                eprintln!("{line}")
            } else {
                eprintln!("error: {line}")
            }
            ExitCode::from(2)
        }
    }
}

/// A command's standard output. Writes to it return errors instead of
/// panicking as `println!` does, so that a reader that stops early ends the
/// command quietly (`run`).
fn stdout() -> std::io::StdoutLock<'static> {
    std::io::stdout().lock()
}

fn read_fen(variant: &Variant, fen: Option<&str>) -> anyhow::Result<Position> {
    match fen {
        Some(fen) => variant.read_fen(fen).map_err(|e| anyhow!("{e}")),
        None => Ok(variant.start()),
    }
}

fn run_perft(depth: u32, fen: Option<&str>, board: &BoardArgs) -> Outcome {
    let position = read_fen(&board.variant()?, fen)?;
    if depth > 20 {
        bail!("--depth {depth} is too deep; use 0 to 20");
    }
    let mut out = stdout();
    writeln!(out, "{}", perft(&position, depth))?;
    Ok(())
}

fn run_moves(fen: &str, board: &BoardArgs) -> Outcome {
    let variant = board.variant()?;
    let position = read_fen(&variant, Some(fen))?;
    let mut out = stdout();
    for mv in position.legal_moves() {
        writeln!(out, "{}", variant.move_text(&mv))?;
    }
    Ok(())
}

/// `--accept-edited` given or not.
fn edits(accept_edited: bool) -> Edits {
    if accept_edited { Edits::Accept } else { Edits::Refuse }
}

fn replay(file: &std::path::Path, events: bool, edits: Edits, root: Option<&std::path::Path>) -> Outcome {
    let root = alien_checkers::session::root_for_save(root, file, ContentRoot::discover);
    let (session, replay, _) =
        alien_checkers::session::Session::open(&root, file, edits).map_err(|e| anyhow!("{e}"))?;
    let mut out = stdout();
    if let Some(note) = replay.edited_note() {
        // Standard output is the events' alone.
        if events {
            eprintln!("{note}");
        } else {
            writeln!(out, "{note}")?;
        }
    }
    if events {
        for event in alien_checkers::narrate::events_json(session.engine.content(), session.events()) {
            writeln!(out, "{event}")?;
        }
        return Ok(());
    }
    if !replay.changed.is_empty() {
        writeln!(out, "changed since the save: {}", replay.changed.join(", "))?;
    }
    if let Some((_, why)) = &replay.differs {
        writeln!(out, "differs: {why}")?;
    }
    if let Some((_, why)) = &replay.diverged {
        writeln!(out, "stops: {why}")?;
    }
    if replay.unchecked {
        writeln!(out, "unchecked: the save has no position digests (format 1); the game cannot be checked")?;
    }
    write!(out, "{}", alien_checkers::narrate::record_text(&session.turns(None)))?;
    writeln!(out, "digest {:016x} after {} decisions", session.digest(), session.history().len())?;
    Ok(())
}

fn play(args: PlayArgs) -> Outcome {
    let options = PlayOptions {
        root: match &args.load {
            Some(save) => alien_checkers::session::root_for_save(args.root.as_deref(), save, ContentRoot::discover),
            None => ContentRoot::for_deck(args.root.as_deref(), &args.deck).map_err(anyhow::Error::msg)?,
        },
        deck: args.deck,
        seed: args.seed,
        dark: args.dark,
        light: args.light,
        load: args.load,
        edits: edits(args.accept_edited),
    };
    alien_checkers::repl::run(options).map_err(anyhow::Error::msg)
}
