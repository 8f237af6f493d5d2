//! The typed facade between scripts and the game (script/ctx/mod.rs): every
//! `ctx` method is declared once, as a query, an operation or a question, and
//! cards/README.md lists each under its kind.

use std::collections::BTreeSet;

use alien_checkers::script::{Access, ScriptEngine};

use crate::common;

/// The methods cards/README.md lists in the first column of the tables of one
/// `### ` section of "The `ctx` API".
fn documented(readme: &str, section: &str) -> BTreeSet<String> {
    let api = readme.split("## The `ctx` API").nth(1).expect("cards/README.md has the ctx API");
    let api = api.split("\n## ").next().unwrap_or(api);
    let part = api.split(&format!("### {section}\n")).nth(1).unwrap_or_else(|| panic!("no section {section}"));
    let part = part.split("\n### ").next().unwrap_or(part);
    let mut out = BTreeSet::new();
    for row in part.lines().filter(|l| l.starts_with("| `ctx:")) {
        let first = row.split(" | ").next().unwrap_or(row);
        for piece in first.split("ctx:").skip(1) {
            let name: String = piece.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            out.insert(name);
        }
    }
    out
}

#[test]
fn cards_readme_lists_every_ctx_method_under_its_kind() {
    let engine = ScriptEngine::load(&common::repo(), "standard").unwrap();
    let readme = std::fs::read_to_string(common::repo().path().join("cards/README.md")).unwrap();
    for (section, access) in
        [("Reading", Access::Query), ("Changing the game", Access::Operation), ("Asking", Access::Question)]
    {
        let declared: BTreeSet<String> =
            engine.ctx_methods().iter().filter(|(_, a)| *a == access).map(|(n, _)| n.to_string()).collect();
        assert_eq!(
            documented(&readme, section),
            declared,
            "cards/README.md, \"{section}\" lists the {access:?} methods"
        );
    }
    let names: Vec<&str> = engine.ctx_methods().iter().map(|(n, _)| *n).collect();
    let unique: BTreeSet<&str> = names.iter().copied().collect();
    assert_eq!(unique.len(), names.len(), "each method is declared once");
}

/// Every query may be called from a read-only run (a planet's check) and is
/// remembered by what it read; every operation is refused there, naming why.
#[test]
fn queries_read_and_operations_are_refused_in_a_planet_check() {
    let engine = ScriptEngine::load(&common::repo(), "standard").unwrap();
    for (name, access) in engine.ctx_methods() {
        if *access != Access::Operation || *name == "log" {
            continue;
        }
        let check = format!("function check(ctx, player)\n  ctx:{name}()\n  return true\nend");
        let engine = crate::hostile_scripts::engine(&[crate::hostile_scripts::GOOD_CARD], &[("probe", &check)]);
        let state = alien_checkers::game::GameState::new(&engine.content().setup(), 1);
        let probe = engine.content().planet_id("probe").unwrap();
        let message = engine.check_planet(&state, probe, alien_checkers::kernel::Player::Dark).unwrap_err();
        assert!(message.contains("may only read") || message.contains("only a planet's handlers"), "{name}: {message}");
    }
}
