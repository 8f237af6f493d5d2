//! `alien-checkers simulate`: many games between two players on one deck, for
//! deck designers; `simulate merge` puts the reports of a run's shards
//! together. Progress and timing go to stderr; the report to stdout.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::bail;
use clap::{Args, Subcommand};

use alien_checkers::ai::AgentSpec;
use alien_checkers::content::ContentRoot;
use alien_checkers::simulate::{self, Comparison, Plan, Report, Sinks, Sprt, paired};

use super::{Outcome, stdout};

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SimulateArgs {
    #[command(subcommand)]
    command: Option<SimulateCommand>,
    /// The deck, by name or path.
    #[arg(long, default_value = "standard")]
    deck: String,
    /// Side A: random, greedy, easy, normal or hard, a search level with a
    /// budget (normal:iterations=300, hard:time=200ms). A plays Dark in
    /// even-numbered games.
    #[arg(long, default_value = "greedy")]
    a: String,
    /// Side B, as side A.
    #[arg(long, default_value = "greedy")]
    b: String,
    /// Number of games, at least 1 (colours alternate: an odd number gives A
    /// one more game as Dark, which the report says).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Index of the first game: `--first-game 300 --games 100` plays games
    /// 300-399 of the run, the same games as any other run of the seed.
    #[arg(long, default_value_t = 0)]
    first_game: u32,
    /// Seed of the run; the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print the report as JSON (labelled fields, the run's metadata, the counts).
    #[arg(long)]
    json: bool,
    /// Also write the report as JSON to FILE, rewritten every second while the
    /// run goes: an interrupted run keeps the games it finished, and `simulate
    /// merge` puts it together with the rest.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Write one JSON line per game to FILE: seed, index, colours, planets,
    /// cards each side used, how it ended, turns, and the command that replays it.
    #[arg(long, value_name = "FILE")]
    games_out: Option<PathBuf>,
    /// Compare the report with an earlier one (a file written by --out, --json
    /// or merge): differences with their intervals and the likelihood of superiority.
    #[arg(long, value_name = "OLD.json")]
    compare: Option<PathBuf>,
    /// Withhold cards from side A, each in a second game of the same seed, and
    /// report what each card is worth to A (comma-separated card ids, or `all`).
    #[arg(long, value_name = "CARDS")]
    ablate: Option<String>,
    /// With --ablate: take the games as dealt (and any ablation game asked
    /// for again) from an earlier run's --games-out file of the same plan,
    /// instead of playing them again; only the ablation games are played.
    #[arg(long, value_name = "GAMES.jsonl", requires = "ablate")]
    baseline: Option<PathBuf>,
    /// Stop when a sequential test on A's score decides between Elo ELO0 and
    /// ELO1 (α = β = 0.05 unless given): `--sprt 0,20` or `--sprt 0,20,0.05,0.05`.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<Sprt>,
    /// Play each deal twice with the seats swapped (games 2k and 2k+1 share
    /// their deal): deal luck cancels, and A's score is also given by pair
    /// (pentanomial), for its interval, Elo and --sprt.
    #[arg(long)]
    swap_seats: bool,
    /// Play the same games (seed, players, deals) also on this deck and compare
    /// the two runs game by game: every figure paired, the planet balance, the
    /// significant rows after Holm's correction.
    #[arg(long, value_name = "DECK")]
    against_deck: Option<String>,
    /// The content root of --against-deck (default: as for --deck); alone, the
    /// same deck from another root (a copy with one planet changed).
    #[arg(long, value_name = "DIR")]
    against_root: Option<PathBuf>,
    /// The one figure of a game-by-game comparison tested alone at 5 % (words
    /// of its name: "jupiter holder", "dark score"); the other rows are corrected (Holm).
    #[arg(long, value_name = "FIGURE")]
    primary: Option<String>,
    /// With --against-deck or --against-root: stop when a sequential test on
    /// this figure's difference (against minus base) decides between D0 and D1
    /// percentage points (--sprt-points D0,D1[,α,β]).
    #[arg(long, value_name = "FIGURE", requires = "sprt_points")]
    sprt_figure: Option<String>,
    /// The hypotheses of --sprt-figure in percentage points: `--sprt-points=-5,0`.
    #[arg(long, value_name = "D0,D1", allow_hyphen_values = true, requires = "sprt_figure")]
    sprt_points: Option<Sprt>,
    /// Play game N of the run again and save it (for `replay` or `--load`)
    /// instead of simulating.
    #[arg(long, value_name = "N")]
    save_game: Option<u32>,
    /// Where --save-game saves (default: game-SEED-N.json).
    #[arg(long, value_name = "FILE", requires = "save_game")]
    save_as: Option<PathBuf>,
    /// The content root (the folder holding cards/ and planets/); default: the
    /// deck's own, for a deck given as a path, else the current folder if it
    /// holds cards/, else the shipped content.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// No progress bar and no timing line on stderr (for shards run side by
    /// side, whose bars would interleave); errors and notes still go there.
    #[arg(long)]
    quiet: bool,
}

#[derive(Subcommand, Debug)]
enum SimulateCommand {
    /// Merge reports of parts of one run (--first-game shards, an interrupted
    /// run and the rest) into the report of all their games.
    Merge {
        /// Report files (written by --out, --json or merge).
        #[arg(required = true, num_args = 1..)]
        files: Vec<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Also write the merged report as JSON to FILE.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Compare the merged report with an earlier one.
        #[arg(long, value_name = "OLD.json")]
        compare: Option<PathBuf>,
    },
    /// Merge the --games-out files of parts of one run into one file of all
    /// their games, in game order (printed, or written with --out).
    MergeGames {
        /// Files written by --games-out.
        #[arg(required = true, num_args = 1..)]
        files: Vec<PathBuf>,
        /// Write the merged rows to FILE instead of printing them.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

/// Set by SIGINT or SIGTERM while a run goes: the run stops after the games
/// under way, and its report says it was interrupted.
static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_stop_signal(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

/// The first SIGINT (Ctrl-C) or SIGTERM (a cluster's preemption) stops the
/// run cleanly; the handler is reset on delivery, so a second one ends the
/// program at once.
fn stop_on_signals() {
    // SAFETY: the handler only stores to an atomic (async-signal-safe); the
    // action struct is fully initialised before use.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_stop_signal as *const () as usize;
        action.sa_flags = libc::SA_RESETHAND;
        libc::sigemptyset(&mut action.sa_mask);
        for signal in [libc::SIGINT, libc::SIGTERM] {
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

pub fn run(args: &SimulateArgs) -> Outcome {
    if let Some(SimulateCommand::MergeGames { files, out }) = &args.command {
        let mut texts = Vec::new();
        for file in files {
            let text =
                std::fs::read_to_string(file).map_err(|e| anyhow::anyhow!("{}: cannot read: {e}", file.display()))?;
            texts.push((file.display().to_string(), text));
        }
        let merged = simulate::merge_games(&texts).map_err(anyhow::Error::msg)?;
        match out {
            Some(path) => alien_checkers::session::write_safely(path, merged.as_bytes())?,
            None => write!(stdout(), "{merged}")?,
        }
        return Ok(());
    }
    if let Some(SimulateCommand::Merge { files, json, out, compare }) = &args.command {
        let mut parts = Vec::new();
        for file in files {
            parts.push((file.display().to_string(), simulate::read_report(file).map_err(anyhow::Error::msg)?));
        }
        let report = simulate::merge(&parts).map_err(anyhow::Error::msg)?;
        return finish(&report, *json, out.as_ref(), compare.as_ref(), None, None);
    }
    for name in [&args.a, &args.b] {
        name.parse::<AgentSpec>().map_err(anyhow::Error::msg)?;
    }
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let root = ContentRoot::for_deck(args.root.as_deref(), &args.deck).map_err(anyhow::Error::msg)?;
    let ablate = match args.ablate.as_deref() {
        None => Vec::new(),
        Some("all") => {
            let content =
                alien_checkers::content::Content::load(&root, &args.deck).map_err(|p| anyhow::anyhow!("{p}"))?;
            content.cards.iter().map(|c| c.id.clone()).collect()
        }
        Some(list) => list.split(',').map(|c| c.trim().to_string()).filter(|c| !c.is_empty()).collect(),
    };
    let plan = Plan {
        root,
        deck: args.deck.clone(),
        a: args.a.clone(),
        b: args.b.clone(),
        games: args.games,
        first_game: args.first_game,
        seed: args.seed,
        threads,
        ablate,
        sprt: args.sprt,
        swap_seats: args.swap_seats,
        baseline: match &args.baseline {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| anyhow::anyhow!("{}: cannot read: {e}", path.display()))?;
                Some(simulate::Baseline::read(&path.display().to_string(), &text).map_err(anyhow::Error::msg)?)
            }
            None => None,
        },
    };
    if args.against_deck.is_some() || args.against_root.is_some() {
        return side_by_side(args, &plan);
    }
    if let Some(index) = args.save_game {
        let path = args.save_as.clone().unwrap_or_else(|| PathBuf::from(format!("game-{}-{index}.json", args.seed)));
        let row = simulate::save_game(&plan, index, &path).map_err(anyhow::Error::msg)?;
        let winner = row.winner_colour.map_or("nobody".to_string(), |w| w.to_string());
        writeln!(
            stdout(),
            "game {index} (seed {}): {} wins, {} after {} turns; saved to {} (alien-checkers replay {})",
            row.seed,
            winner,
            row.end,
            row.turns,
            path.display(),
            path.display()
        )?;
        return Ok(());
    }
    let (dark, light) = ((args.games + 1 - args.first_game % 2) / 2, (args.games + args.first_game % 2) / 2);
    if dark != light {
        eprintln!(
            "note: A plays Dark in even-numbered games, so of these {} games A plays Dark in {dark} and Light in {light}",
            args.games
        );
    }
    let start = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let mut progress = |done: u32, total: u32| {
        let width = 30;
        let filled = (done as usize * width) / total.max(1) as usize;
        let bar = format!(
            "[{}{}] {done}/{total} games",
            "#".repeat(filled.min(width)),
            " ".repeat(width - filled.min(width))
        );
        if terminal {
            eprint!("\r{bar}");
        } else if done == total || done.is_multiple_of((total / 10).max(1)) {
            eprintln!("{bar}");
        }
        let _ = std::io::stderr().flush();
    };
    let mut rows = match &args.games_out {
        Some(path) => Some(alien_checkers::session::SafeFile::create(path)?),
        None => None,
    };
    // A comparison with a --games-out file needs this run's rows too.
    let by_game = args.compare.as_deref().is_some_and(paired::is_rows_file);
    let mut kept = Tee { kept: Vec::new(), file: rows.as_mut() };
    let sinks = Sinks {
        progress: if args.quiet { None } else { Some(&mut progress) },
        rows: (by_game || kept.file.is_some()).then_some(&mut kept as &mut dyn Write),
        partial: args.out.clone().map(|p| (p, Duration::from_secs(1))),
        stop: Some(&STOP),
        stop_after: None,
    };
    stop_on_signals();
    let report = simulate::run(&plan, sinks);
    let kept = std::mem::take(&mut kept.kept);
    // The games played are kept even when the run failed midway.
    if let Some(rows) = rows {
        rows.commit()?;
    }
    let report = report.map_err(anyhow::Error::msg)?;
    if terminal && !args.quiet {
        eprintln!();
    }
    let seconds = start.elapsed().as_secs_f64();
    if let (Some(baseline), Some(path)) = (&plan.baseline, &args.baseline) {
        let (dealt, ablated) = baseline.taken(&plan);
        let again = if ablated > 0 { format!(" and {ablated} of its ablation games") } else { String::new() };
        eprintln!("taken from {}, not played again: {dealt} games as dealt{again}", path.display());
    }
    if let Some(why) = report.meta.stopped.as_deref().filter(|_| STOP.load(Ordering::SeqCst)) {
        eprintln!("{why}");
    }
    if !args.quiet {
        eprintln!(
            "{} games in {seconds:.1} s on {threads} thread(s) ({:.2} games/s)",
            report.counts.games,
            report.counts.games as f64 / seconds.max(1e-9)
        );
    }
    let rows = if by_game {
        let rows: Result<Vec<_>, _> = String::from_utf8_lossy(&kept).lines().map(simulate::read_row).collect();
        Some(rows.map_err(anyhow::Error::msg)?)
    } else {
        None
    };
    finish(&report, args.json, None, args.compare.as_ref(), rows.as_deref(), args.primary.as_deref())
}

/// `--games-out` and the rows a comparison by game needs.
struct Tee<'a> {
    kept: Vec<u8>,
    file: Option<&'a mut alien_checkers::session::SafeFile>,
}

impl Write for Tee<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.kept.extend_from_slice(buf);
        if let Some(f) = self.file.as_mut() {
            f.write_all(buf)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().map_or(Ok(()), |f| f.flush())
    }
}

/// `--against-deck` / `--against-root`: the plan played on two contents, the same deals, compared game by game.
fn side_by_side(args: &SimulateArgs, plan: &Plan) -> Outcome {
    for (given, flag) in [
        (args.ablate.is_some(), "--ablate"),
        (args.sprt.is_some(), "--sprt (use --sprt-figure)"),
        (args.save_game.is_some(), "--save-game"),
        (args.compare.is_some(), "--compare"),
        (args.out.is_some(), "--out"),
        (args.games_out.is_some(), "--games-out"),
    ] {
        if given {
            bail!("{flag} does not go with --against-deck or --against-root");
        }
    }
    let deck = args.against_deck.clone().unwrap_or_else(|| args.deck.clone());
    let root_given =
        args.against_root.as_deref().or(if args.against_deck.is_some() { None } else { args.root.as_deref() });
    let root = ContentRoot::for_deck(args.against_root.as_deref().or(root_given), &deck).map_err(anyhow::Error::msg)?;
    let other = Plan { root, deck: deck.clone(), ..plan.clone() };
    let name = |p: &Plan| match p.root.outside_shipped() {
        Some(root) => format!("{} ({})", p.deck, root.display()),
        None => p.deck.clone(),
    };
    let (base_name, other_name) = (name(plan), name(&other));
    let mut test = match (&args.sprt_figure, args.sprt_points) {
        (Some(figure), Some(points)) => {
            let load =
                |p: &Plan| alien_checkers::content::Content::load(&p.root, &p.deck).map_err(|e| anyhow::anyhow!("{e}"));
            let (a, b) = (load(plan)?, load(&other)?);
            let figures = paired::figures_for_contents(&[&a, &b]);
            Some(paired::FigureSprt::new(paired::find_figure(figure, &figures).map_err(anyhow::Error::msg)?, points))
        }
        _ => None,
    };
    let start = Instant::now();
    let mut progress = |done: u32, total: u32| {
        if done == total || done.is_multiple_of((total / 10).max(1)) {
            eprintln!("{done}/{total} deals played on both");
        }
    };
    let both = simulate::run_side_by_side(plan, &other, test.as_mut(), &mut progress).map_err(anyhow::Error::msg)?;
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "{} games on each deck in {seconds:.1} s on {} thread(s) ({:.2} games/s)",
        both.base.counts.games,
        plan.threads,
        2.0 * both.base.counts.games as f64 / seconds.max(1e-9)
    );
    let comparison =
        paired::compare_rows(&base_name, &both.base_rows, &other_name, &both.other_rows, args.primary.as_deref())
            .map_err(anyhow::Error::msg)?;
    let mut stdout = stdout();
    if args.json {
        let value = serde_json::json!({
            "base": serde_json::to_value(&both.base)?,
            "against": serde_json::to_value(&both.other)?,
            "paired": serde_json::to_value(&comparison)?,
            "sprt": test.as_ref().map(|t| t.describe()),
        });
        writeln!(stdout, "{}", serde_json::to_string_pretty(&value)?)?;
    } else {
        for (label, report) in [("base", &both.base), ("against", &both.other)] {
            let table = simulate::table(report);
            let head: Vec<&str> = table.lines().take(2).collect();
            writeln!(stdout, "{label}: {}", head.join("\n      "))?;
        }
        if let Some(t) = &test {
            writeln!(stdout, "{}", t.describe())?;
        }
        write!(stdout, "{}", paired::paired_table(&comparison))?;
    }
    Ok(())
}

/// Prints the report (and the comparison), and writes it to `out`. A
/// comparison with a `--games-out` file is made game by game from `rows`,
/// this run's games.
fn finish(
    report: &Report,
    json: bool,
    out: Option<&PathBuf>,
    compare: Option<&PathBuf>,
    rows: Option<&[simulate::GameRow]>,
    primary: Option<&str>,
) -> Outcome {
    let mut by_game = None;
    if let Some(old) = compare.filter(|p| paired::is_rows_file(p)) {
        let Some(rows) = rows else {
            bail!("{}: a games file compares game by game with a run's games: use --compare on the run", old.display());
        };
        let old_rows = paired::read_rows(old).map_err(anyhow::Error::msg)?;
        let c = paired::compare_rows(&old.display().to_string(), &old_rows, "this run", rows, primary);
        by_game = Some(c.map_err(anyhow::Error::msg)?);
    } else if primary.is_some() {
        bail!("--primary needs a comparison game by game: --compare OLD.jsonl (a --games-out file) or --against-deck");
    }
    let comparison: Option<Comparison> = match compare.filter(|_| by_game.is_none()) {
        Some(old) => {
            let old_report = simulate::read_report(old).map_err(anyhow::Error::msg)?;
            Some(simulate::compare(&old.display().to_string(), &old_report, report).map_err(anyhow::Error::msg)?)
        }
        None => None,
    };
    if let Some(path) = out {
        simulate::write_report(path, report).map_err(anyhow::Error::msg)?;
    }
    let missing = report.missing();
    if !missing.is_empty() {
        let ranges: Vec<String> =
            missing.iter().map(|r| format!("--first-game {} --games {}", r[0], r[1] - r[0])).collect();
        eprintln!("not in the report yet: play the rest with {} and merge", ranges.join("; "));
    }
    let mut stdout = stdout();
    if json {
        match &by_game {
            Some(c) => {
                let mut value: serde_json::Value = serde_json::from_str(&report.to_json(None))?;
                value["paired"] = serde_json::to_value(c)?;
                writeln!(stdout, "{}", serde_json::to_string_pretty(&value)?)?;
            }
            None => writeln!(stdout, "{}", report.to_json(comparison.as_ref()))?,
        }
    } else {
        write!(stdout, "{}", simulate::table(report))?;
        if let Some(c) = &comparison {
            write!(stdout, "{}", simulate::compare_table(c))?;
        }
        if let Some(c) = &by_game {
            write!(stdout, "{}", paired::paired_table(c))?;
        }
    }
    if report.counts.games == 0 {
        bail!("the report holds no games");
    }
    Ok(())
}
