//! Items and zones (cards/README.md, "Items and zones") on the test content
//! root `tests/data/items`: saves keep them, what a player does not know
//! never reaches its observation, the computer's guesses keep what it knows
//! and swap the rest within their groups, and `check` refuses bad catalogues.

use std::path::Path;

use alien_checkers::ai::{AgentRng, Determinizer, Observation};
use alien_checkers::content::ContentRoot;
use alien_checkers::game::{Face, GameState, ItemId, Place};
use alien_checkers::kernel::{Player, Square};
use alien_checkers::script::ScriptEngine;

use crate::common;

fn root() -> ContentRoot {
    ContentRoot::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/items"))
}

fn engine() -> ScriptEngine {
    ScriptEngine::load(&root(), "treasure").unwrap()
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// Every item's place and face, by item.
fn places(state: &GameState) -> Vec<Place> {
    let items = state.items().unwrap();
    (0..6).map(|i| items.find(ItemId(i))).collect()
}

#[test]
fn the_deal_places_the_items_by_the_seed_and_a_save_keeps_them() {
    let engine = engine();
    let a = GameState::deal(&engine.content().setup(), 5, &engine);
    let b = GameState::deal(&engine.content().setup(), 5, &engine);
    assert_eq!(places(&a), places(&b), "the same seed deals the same items (R2.4)");
    let other = (6..40).map(|seed| GameState::deal(&engine.content().setup(), seed, &engine));
    assert!(other.into_iter().any(|c| places(&c) != places(&a)), "other seeds deal them otherwise");
    let items = a.items().unwrap();
    assert!(items.at(sq("d4")).is_some_and(|on| on.face == Face::Down && on.held.known == [false; 2]));
    for p in Player::BOTH {
        let purse = items.zone(engine.content().items().unwrap().zone_named("purse").unwrap(), Some(p)).unwrap();
        assert_eq!(purse.len(), 1);
        assert!(items.knows(purse[0], p) && !items.knows(purse[0], !p), "only {p} knows {p}'s purse");
    }
    let text = serde_json::to_string(&a).unwrap();
    let back: GameState = serde_json::from_str(&text).unwrap();
    assert_eq!(back, a, "a save keeps every item, where it is and who knows it");
    assert!(back.same_position(&a), "and what both know of them");
    assert_eq!(back.table, a.table);
}

#[test]
fn a_state_without_items_saves_as_before() {
    let engine = ScriptEngine::load(&common::repo(), "standard").unwrap();
    let state = GameState::deal(&engine.content().setup(), 3, &engine);
    let text = serde_json::to_string(&state).unwrap();
    assert!(!text.contains("\"items\""), "no items key in a deck without items");
}

#[test]
fn what_dark_does_not_know_never_reaches_darks_observation() {
    let engine = engine();
    let state = GameState::deal(&engine.content().setup(), 5, &engine);
    let catalogue = engine.content().items().unwrap();
    let purse = catalogue.zone_named("purse").unwrap();
    let items = state.items().unwrap();
    let light = items.zone(purse, Some(Player::Light)).unwrap()[0];
    let dark = items.zone(purse, Some(Player::Dark)).unwrap()[0];
    let on_d4 = items.at(sq("d4")).unwrap().held.item;
    // Light's secret token swapped with a face-down one: Dark cannot tell.
    let changed = common::swap_items(&state, light, on_d4);
    assert_ne!(changed, state);
    assert_eq!(Observation::new(&changed, Player::Dark), Observation::new(&state, Player::Dark));
    // Light can: it knows its own purse.
    assert_ne!(Observation::new(&changed, Player::Light), Observation::new(&state, Player::Light));
    // Dark's own token swapped: Dark sees the difference.
    let mine = common::swap_items(&state, dark, on_d4);
    assert_ne!(Observation::new(&mine, Player::Dark), Observation::new(&state, Player::Dark));
}

#[test]
fn the_computers_guesses_keep_what_it_knows_and_swap_the_rest() {
    let engine = engine();
    let mut state = GameState::deal(&engine.content().setup(), 5, &engine);
    // A token turned up on e5 is known to both: it is never guessed away.
    let _ = state.turn_item(sq("e5"), Face::Up).unwrap();
    let catalogue = engine.content().items().unwrap();
    let purse = catalogue.zone_named("purse").unwrap();
    let dark_token = state.items().unwrap().zone(purse, Some(Player::Dark)).unwrap()[0];
    let on_e5 = state.items().unwrap().at(sq("e5")).unwrap().held.item;
    let det = Determinizer::new(Observation::new(&state, Player::Dark), &[], &engine);
    let mut rng = AgentRng::new(7);
    let mut guess = state.clone();
    let mut seen_light = std::collections::BTreeSet::new();
    for _ in 0..200 {
        det.sample(&mut rng, &mut guess);
        let items = guess.items().unwrap();
        items.validate().unwrap();
        assert_eq!(items.zone(purse, Some(Player::Dark)).unwrap(), vec![dark_token], "Dark's own token stays");
        assert_eq!(items.at(sq("e5")).unwrap().held.item, on_e5, "the face-up token stays");
        assert!(items.at(sq("d4")).is_some(), "d4 still holds a token face down");
        seen_light.insert(items.zone(purse, Some(Player::Light)).unwrap()[0]);
        assert_eq!(guess.table, state.table, "a guess changes nothing both players know");
    }
    // The four tokens Dark has not seen each turn up in Light's purse.
    let unknown: std::collections::BTreeSet<ItemId> =
        (0..6).map(ItemId).filter(|&i| i != dark_token && i != on_e5).collect();
    assert_eq!(seen_light, unknown, "Light's token is guessed among all Dark has not seen");
}

/// A scratch copy of the test root with its deck's `items:`/`zones:` text
/// replaced by `catalogue`; what `check` says of it.
fn check_catalogue(name: &str, catalogue: &str) -> String {
    let scratch = std::env::temp_dir().join(format!("ac-items-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(scratch.join("cards/decks")).unwrap();
    for file in ["treasure.yaml", "treasure.lua"] {
        std::fs::copy(root().path().join("cards").join(file), scratch.join("cards").join(file)).unwrap();
    }
    let deck = std::fs::read_to_string(root().path().join("cards/decks/treasure.yaml")).unwrap();
    let head = &deck[..deck.find("items:").unwrap()];
    std::fs::write(scratch.join("cards/decks/treasure.yaml"), format!("{head}{catalogue}")).unwrap();
    let out = match ScriptEngine::load(&ContentRoot::new(&scratch), "treasure") {
        Ok(_) => String::new(),
        Err(problems) => problems.to_string(),
    };
    let _ = std::fs::remove_dir_all(&scratch);
    out
}

#[test]
fn check_names_what_is_wrong_with_items_and_zones() {
    let items = "items:\n  combine:\n    - [{id: a, tags: [x]}, {id: b}]\n";
    let cases = [
        ("nowhere", format!("{items}zones:\n  - {{name: bag, per: shared, seen_by: all, start: {{shared: [x]}}}}\n"), "item b starts in no zone"),
        (
            "twice",
            format!(
                "{items}zones:\n  - {{name: bag, per: shared, seen_by: all, start: {{shared: [a, b]}}}}\n  - {{name: hand, per: player, seen_by: owner, start: {{dark: [x]}}}}\n"
            ),
            "item a is given two places",
        ),
        ("unknown", format!("{items}zones:\n  - {{name: bag, per: shared, seen_by: all, start: {{shared: [a, b, zz]}}}}\n"), "'zz', which is no item's id or tag"),
        ("owner", format!("{items}zones:\n  - {{name: bag, per: shared, seen_by: all, start: {{dark: [a, b]}}}}\n"), "is shared: its start names shared"),
        ("no zones", items.to_string(), "every item starts in a zone"),
        (
            "too many",
            "items:\n  combine:\n    - [{id: a}, {id: b}, {id: c}, {id: d}, {id: e}, {id: f}, {id: g}, {id: h}, {id: i}, {id: j}, {id: k}, {id: l}, {id: m}, {id: n}, {id: o}, {id: p}, {id: q}]\n    - [{id: a}, {id: b}, {id: c}, {id: d}, {id: e}, {id: f}, {id: g}, {id: h}, {id: i}, {id: j}, {id: k}, {id: l}, {id: m}, {id: n}, {id: o}, {id: p}]\nzones:\n  - {name: bag, per: shared, seen_by: all}\n".to_string(),
            "at most 256 items; these lists make 272",
        ),
        ("same id", "items:\n  combine:\n    - [{id: a}, {id: a}]\nzones:\n  - {name: bag, per: shared, seen_by: all, start: {shared: [a]}}\n".to_string(), "two items have the id 'a'"),
    ];
    for (name, catalogue, wanted) in cases {
        let said = check_catalogue(name, &catalogue);
        assert!(said.contains(wanted), "{name}: expected '{wanted}' in:\n{said}");
        assert!(said.contains("treasure.yaml:"), "{name}: the problem names the file and line:\n{said}");
    }
}
