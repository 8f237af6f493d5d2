//! `check` and `test`: the modder's tools for decks, cards and planets.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use alien_checkers::content::{Content, ContentRoot};
use alien_checkers::scenario;
use alien_checkers::script::ScriptEngine;
use alien_checkers::text::visible;

use super::{Outcome, stdout};

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Decks to check, by name (`standard`) or path; default: every deck of the content root.
    decks: Vec<String>,
    /// The content root (the folder holding cards/ and planets/); default: the
    /// deck's own, for a deck given as a path, else the current folder if it
    /// holds cards/, else the shipped content.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct TestArgs {
    /// Scenario files or folders; default: cards/ and planets/ of the content root.
    paths: Vec<PathBuf>,
    /// The content root the scenarios' cards and planets come from; default: the
    /// one above the cards/ or planets/ folder holding each file, else the
    /// current folder if it holds cards/, else the shipped content.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
}

/// Loads each deck and compiles its scripts, printing every problem found.
pub fn check(args: &CheckArgs) -> Outcome {
    let decks = if args.decks.is_empty() {
        let root = ContentRoot::for_deck(args.root.as_deref(), "standard").map_err(anyhow::Error::msg)?;
        let names = root.deck_names();
        if names.is_empty() {
            anyhow::bail!("no decks to check: {} has no deck manifests", root.path().join("cards/decks").display());
        }
        names
    } else {
        args.decks.clone()
    };
    let mut out = stdout();
    let mut failed = 0;
    for deck in &decks {
        let root = ContentRoot::for_deck(args.root.as_deref(), deck).map_err(anyhow::Error::msg)?;
        // Manifest problems and script problems together: the scripts of what
        // loaded are compiled even when some manifest has a problem.
        let result = match Content::load_what_can_be(&root, deck) {
            (Some(content), problems) if problems.is_empty() => ScriptEngine::new(content),
            (Some(content), mut problems) => {
                if let Err(more) = ScriptEngine::new(content) {
                    problems.0.extend(more.0);
                }
                Err(problems)
            }
            (None, problems) => Err(problems),
        };
        // A deck's name may be a file's found in the decks' folder.
        let deck = visible(deck);
        match result {
            Ok(engine) => {
                let c = engine.content();
                // A deck's size counts every copy (R1.6); the kinds are said when fewer.
                let copies: u64 = c.deck.cards.iter().map(|(_, &n)| u64::from(n)).sum();
                let kinds = c.cards.len() as u64;
                let cards =
                    if copies == kinds { format!("{copies} cards") } else { format!("{copies} cards ({kinds} kinds)") };
                writeln!(out, "ok    {deck}: {cards}, {} planets", c.planets.len())?;
            }
            Err(problems) => {
                failed += 1;
                writeln!(out, "FAIL  {deck}: {} problem(s)", problems.0.len())?;
                for p in &problems.0 {
                    writeln!(out, "  {p}")?;
                }
            }
        }
    }
    if failed > 0 {
        anyhow::bail!("{failed} of {} deck(s) have problems", decks.len());
    }
    Ok(())
}

/// Runs scenario files and prints each result and a closing `N passed, M failed`.
pub fn test(args: &TestArgs) -> Outcome {
    let paths = if args.paths.is_empty() {
        let root = ContentRoot::for_deck(args.root.as_deref(), "standard").map_err(anyhow::Error::msg)?;
        vec![root.path().join("cards"), root.path().join("planets")]
    } else {
        args.paths.clone()
    };
    let mut out = stdout();
    let (mut passed, mut failed) = (0, 0);
    for file in scenario::find_files(&paths) {
        let root = ContentRoot::for_file(args.root.as_deref(), &file);
        for outcome in scenario::run_file(&root, &file) {
            // The name and the failure are made visible by the runner; the
            // file's name, found in a mod's folder, here.
            let label = format!("{}: {}", visible(&outcome.file.display().to_string()), outcome.name);
            match &outcome.failure {
                None => {
                    passed += 1;
                    writeln!(out, "ok    {label}")?;
                }
                Some(why) => {
                    failed += 1;
                    writeln!(out, "FAIL  {label}")?;
                    for line in why.lines() {
                        writeln!(out, "      {line}")?;
                    }
                }
            }
        }
    }
    writeln!(out, "{passed} passed, {failed} failed")?;
    if failed > 0 { Err(anyhow::anyhow!("{failed} scenario(s) failed")) } else { Ok(()) }
}
