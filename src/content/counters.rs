//! Counters: the built-in ones (game/state.rs, [`BUILT_IN_COUNTERS`]) and those
//! card, planet and deck manifests declare (`counters:`), collected for the deck
//! in load order and handed to the game by index ([`CounterId`]).

use std::path::PathBuf;

use super::Content;
use super::manifest::CounterManifest;
use crate::game::{BUILT_IN_COUNTERS, CounterId, MAX_COUNTERS};

/// One counter of the loaded content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CounterDef {
    pub id: CounterId,
    pub name: String,
    pub label: String,
}

/// What is wrong with one declaration on its own, if anything.
fn check_declaration(c: &CounterManifest) -> Option<String> {
    let name = &c.name;
    if name.is_empty()
        || name.len() > 32
        || !name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    {
        return Some(format!("counter name '{name}' must be 1 to 32 of a-z, 0-9 and _"));
    }
    if c.label.is_empty() || c.label.chars().count() > 40 {
        return Some(format!("counter '{name}': its label must be 1 to 40 characters"));
    }
    None
}

impl Content {
    /// Every declaration, with the file that makes it: the deck's, then the
    /// cards' and the planets', in load order.
    fn counter_declarations(&self) -> impl Iterator<Item = (PathBuf, &CounterManifest)> {
        let deck = self.deck.counters.iter().map(|c| (self.deck_path.clone(), c));
        let cards =
            self.cards.iter().flat_map(|d| d.manifest.counters.iter().map(|c| (self.root.card_manifest(&d.id), c)));
        let planets =
            self.planets.iter().flat_map(|d| d.manifest.counters.iter().map(|c| (self.root.planet_manifest(&d.id), c)));
        deck.chain(cards).chain(planets)
    }

    /// The deck's counters: the built-in ones, then each declared one once.
    /// Declarations with a problem are left out ([`Content::counter_problems`]).
    pub fn counters(&self) -> Vec<CounterDef> {
        let mut out: Vec<CounterDef> = BUILT_IN_COUNTERS
            .iter()
            .enumerate()
            .map(|(i, (name, label))| CounterDef {
                id: CounterId(i as u8),
                name: name.to_string(),
                label: label.to_string(),
            })
            .collect();
        for (_, c) in self.counter_declarations() {
            if out.len() < MAX_COUNTERS && check_declaration(c).is_none() && !out.iter().any(|d| d.name == c.name) {
                out.push(CounterDef { id: CounterId(out.len() as u8), name: c.name.clone(), label: c.label.clone() });
            }
        }
        out
    }

    /// The counter called `name`.
    pub fn counter(&self, name: &str) -> Option<CounterDef> {
        self.counters().into_iter().find(|c| c.name == name)
    }

    /// Each problem with the counter declarations, with the manifest that has it.
    pub fn counter_problems(&self) -> Vec<(PathBuf, String)> {
        let mut problems = Vec::new();
        let mut kept: Vec<(PathBuf, &CounterManifest)> = Vec::new();
        for (who, c) in self.counter_declarations() {
            if let Some(problem) = check_declaration(c) {
                problems.push((who, problem));
            } else if let Some((i, _)) = BUILT_IN_COUNTERS.iter().enumerate().find(|(_, (n, _))| *n == c.name) {
                let (_, label) = BUILT_IN_COUNTERS[i];
                if c.label != label {
                    problems.push((who, format!("counter '{}' is built in, with the label '{label}'", c.name)));
                }
            } else if let Some((other, same)) = kept.iter().find(|(_, k)| k.name == c.name) {
                if *same != c {
                    let message = format!(
                        "counter '{}' is declared with another label by {} (declare it alike)",
                        c.name,
                        other.display()
                    );
                    problems.push((who, message));
                }
            } else if kept.len() + BUILT_IN_COUNTERS.len() == MAX_COUNTERS {
                problems.push((who, format!("a deck may have at most {MAX_COUNTERS} counters, the built-in included")));
            } else {
                kept.push((who, c));
            }
        }
        problems
    }
}
