//! The fuzz targets' checks (fuzz/src/lib.rs) under plain `cargo test`: every
//! committed seed input, mutations of them, and property-test inputs. This keeps
//! the seed corpora as regression tests and covers the targets on machines
//! without cargo-fuzz (README.md, "Fuzzing").

#[path = "../../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod checks;

use std::path::Path;

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// The committed seed inputs of a target, and any crash or corpus files a fuzz
/// run left under fuzz/artifacts and fuzz/corpus (so a found crash becomes a
/// failing test here until it is fixed).
fn inputs(target: &str) -> Vec<Vec<u8>> {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut out = Vec::new();
    for dir in [fuzz.join("seeds").join(target), fuzz.join("artifacts").join(target)] {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect();
        paths.sort();
        out.extend(paths.iter().map(|p| std::fs::read(p).unwrap()));
    }
    out
}

/// `n` mutations of the seeds: bytes flipped, inserted, removed, duplicated,
/// spliced from another seed (what a fuzzer's first minutes do).
fn mutations(seeds: &[Vec<u8>], n: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pick = |k: usize| (rng.next_u32() as usize) % k.max(1);
    let interesting = [b'[', b'{', b':', b'-', b'\n', b'&', b'*', b'"', b'\'', b'#', 0, 0xff, b'K', b'x', b' '];
    (0..n)
        .map(|_| {
            let mut input = seeds[pick(seeds.len())].clone();
            for _ in 0..1 + pick(4) {
                let at = pick(input.len() + 1);
                match pick(5) {
                    0 if at < input.len() => input[at] ^= 1 << pick(8),
                    1 => input.insert(at, interesting[pick(interesting.len())]),
                    2 if at < input.len() => drop(input.remove(at)),
                    3 => {
                        let end = (at + pick(16)).min(input.len());
                        let piece = input[at.min(end)..end].to_vec();
                        input.splice(at..at, piece);
                    }
                    _ => {
                        let other = &seeds[pick(seeds.len())];
                        let from = pick(other.len());
                        let end = (from + pick(32)).min(other.len());
                        input.splice(at..at, other[from..end].iter().copied());
                    }
                }
            }
            input
        })
        .collect()
}

fn run_all(target: &str, check: fn(&[u8]), mutated: usize) {
    let seeds = inputs(target);
    assert!(!seeds.is_empty(), "no seed inputs for {target}");
    for input in seeds.iter().chain(mutations(&seeds, mutated, 6).iter()) {
        check(input);
    }
}

#[test]
fn manifest_seeds_and_mutations() {
    run_all("manifest", checks::manifest, 1500);
}

#[test]
fn fen_seeds_and_mutations() {
    run_all("fen", checks::fen, 4000);
}

#[test]
fn command_line_seeds_and_mutations() {
    run_all("command_line", checks::command_line, 1500);
}

#[test]
fn decision_seeds_and_mutations() {
    run_all("decisions", checks::decisions, 40);
}

#[test]
fn scenario_seeds_and_mutations() {
    run_all("scenario", checks::scenario, 60);
}

/// The scripts target's checks but its CPU-time one (tests are not timed; the
/// fuzz target keeps it, docs/fuzzing.md).
#[test]
fn script_seeds_and_mutations() {
    run_all("scripts", checks::scripts_agree, 150);
}

/// The generated decks of the script seeds and of more mutations of them
/// (decks are quicker to check than the scripts).
#[test]
fn deck_seeds_and_mutations() {
    run_all("scripts", checks::decks, 400);
}

/// Prints the outcome of every script seed and mutation, one a line; run by
/// [`generated_scripts_do_the_same_in_fresh_processes`] in two processes.
#[test]
#[ignore = "a helper: run through generated_scripts_do_the_same_in_fresh_processes"]
fn print_script_outcomes() {
    let seeds = inputs("scripts");
    for input in seeds.iter().chain(mutations(&seeds, 60, 9).iter()) {
        println!("OUTCOME {}", checks::script_outcome(input).0.replace('\n', " "));
        println!("OUTCOME deck {}", checks::deck_outcome(input).replace('\n', " "));
    }
}

/// The same generated scripts and decks give the same outcomes in two fresh
/// processes (other hash seeds, addresses and Lua string seeds).
#[test]
fn generated_scripts_do_the_same_in_fresh_processes() {
    let run = || {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--ignored", "--exact", "fuzz_corpora::print_script_outcomes", "--nocapture", "--test-threads=1"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let lines: Vec<String> = text.lines().filter(|l| l.starts_with("OUTCOME ")).map(str::to_string).collect();
        assert!(lines.len() > 60, "the outcomes were printed: {text}");
        lines
    };
    assert_eq!(run(), run());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn fen_of_fen_like_text(text in "[BWbwK:,0-9 -]{0,40}") {
        checks::fen(text.as_bytes());
    }

    #[test]
    fn fen_of_any_text(text in any::<String>()) {
        checks::fen(text.as_bytes());
    }

    #[test]
    fn command_lines(seed in any::<u8>(), steps in 0u8..40, line in "[a-z0-9 x-]{0,24}") {
        let mut data = vec![seed, steps];
        data.extend_from_slice(line.as_bytes());
        checks::command_line(&data);
    }
}

proptest! {
    // Each case loads a deck and plays a game twice.
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn decks_of_any_bytes(
        script in proptest::collection::vec(any::<u8>(), 0..40),
        deck in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        let mut data = script;
        data.extend_from_slice(checks::DECK_PART);
        data.extend_from_slice(&deck);
        checks::decks(&data);
    }
}
