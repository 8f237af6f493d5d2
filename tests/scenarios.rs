//! Runs every card and planet scenario (`cards/*.test.yaml`, `planets/*.test.yaml`),
//! as `alien-checkers test` does, so `cargo test` covers the scripts too, and the
//! whole-turn scenarios of the turn rules (`tests/rules/*.test.yaml`, R3, R10).

use alien_checkers::content::ContentRoot;
use alien_checkers::scenario::{find_files, run_file};

#[test]
fn every_shipped_scenario_passes() {
    let root = ContentRoot::new(env!("CARGO_MANIFEST_DIR"));
    let files = find_files(&[root.path().join("cards"), root.path().join("planets"), root.path().join("tests/rules")]);
    assert!(!files.is_empty(), "scenario files are shipped beside the cards");
    let outcomes: Vec<_> = files.iter().flat_map(|f| run_file(&root, f)).collect();
    let failures: Vec<String> = outcomes
        .iter()
        .filter_map(|o| o.failure.as_ref().map(|why| format!("{}: {}\n{why}", o.file.display(), o.name)))
        .collect();
    println!("{} passed, {} failed", outcomes.len() - failures.len(), failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_shipped_deck_checks_clean() {
    let root = ContentRoot::new(env!("CARGO_MANIFEST_DIR"));
    let decks = root.deck_names();
    assert!(decks.contains(&"standard".to_string()) && decks.contains(&"plain".to_string()));
    for deck in decks {
        if let Err(problems) = alien_checkers::script::ScriptEngine::load(&root, &deck) {
            panic!("deck {deck}:\n{problems}");
        }
    }
}
