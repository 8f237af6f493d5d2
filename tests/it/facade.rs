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
        let message = engine.check_planet(&state, probe, alien_checkers::kernel::Player::Dark).unwrap_err().to_string();
        assert!(message.contains("may only read") || message.contains("only a planet's handlers"), "{name}: {message}");
    }
}

/// `check` refuses what would only fail when the script runs: a planet's
/// manifest with a card's fields, an effect's `moves` key that does not exist.
#[test]
fn check_refuses_card_fields_in_a_planet_and_unknown_move_keys() {
    let dash = "function play(ctx)\n  ctx:add_effect{ lasts = 1,\n    moves = { pawns_dash = true } }\nend";
    let root = common::scratch_content("check", &[("dash", dash)], &[("p1", "function check() return false end")]);
    let planets = root.path().join("planets");
    std::fs::write(planets.join("p2.yaml"), "name: P2\ntext: t\neffect: lasts\n").unwrap();
    std::fs::write(planets.join("p2.lua"), "function check() return false end").unwrap();
    let deck = root.path().join("cards/decks/test.yaml");
    let text = std::fs::read_to_string(&deck).unwrap().replace("planets: [p1]", "planets: [p1, p2]");
    std::fs::write(&deck, text).unwrap();
    let problems = match ScriptEngine::load(&root, "test") {
        Ok(_) => panic!("the deck loads"),
        Err(p) => p.to_string(),
    };
    assert!(problems.contains("p2.yaml:3:1: 'effect' is for cards"), "{problems}");
    let problems = ScriptEngine::load(&root, "test").err().map(|p| p.to_string()).unwrap_or_default();
    let fixed = std::fs::read_to_string(&deck).unwrap().replace("planets: [p1, p2]", "planets: [p1, p1b]");
    std::fs::write(&deck, fixed).unwrap();
    std::fs::write(planets.join("p1b.yaml"), "name: P1b\ntext: t\n").unwrap();
    std::fs::write(planets.join("p1b.lua"), "function check() return false end").unwrap();
    let scripts = ScriptEngine::load(&root, "test").err().map(|p| p.to_string()).unwrap_or_default();
    assert!(scripts.contains("dash.lua:3:1: moves = { pawns_dash = … }"), "{scripts}\n{problems}");
}

/// The question protocol keeps two words for itself: `none` declines an
/// optional question and `keep` keeps the rest of an order. They are answers
/// of their own (`Answer::Decline`, `Answer::KeepTheRest`), so no option a
/// script offers, no item it orders and no card id may be named so.
#[test]
fn none_and_keep_cannot_be_the_names_of_real_options() {
    use alien_checkers::game::{Answer, Choice};
    let offers = "function play(ctx)\n  ctx:ask_option('which?', { 'fill', 'none' })\nend";
    let orders = "function play(ctx)\n  ctx:ask_order('which?', { 'a', 'keep' })\nend";
    let declines = "function play(ctx)\n  local a = ctx:ask_option('which?', { 'a', 'b' }, { optional = true })\n  \
        if a == nil then ctx:log('declined') end\nend";
    let engine = crate::hostile_scripts::engine(&[("offers", offers), ("orders", orders), ("declines", declines)], &[]);
    let state = crate::hostile_scripts::at_card_step(&engine);
    for (card, word) in [("offers", "none"), ("orders", "keep")] {
        let id = crate::hostile_scripts::card(&engine, card);
        let error = state.clone().apply(&engine, &Choice::Card(id)).unwrap_err().to_string();
        assert!(error.contains(&format!("named '{word}'")), "{card}: {error}");
    }
    let id = crate::hostile_scripts::card(&engine, "declines");
    let mut asked = state.clone();
    asked.apply(&engine, &Choice::Card(id)).unwrap();
    let options = asked.pending(&engine).unwrap().options;
    assert_eq!(options.last(), Some(&Choice::Answer(Answer::Decline)));
    assert_eq!(Answer::Decline.to_string(), "none");
    *asked.journal_mut() = alien_checkers::game::EventLog::recording();
    asked.apply(&engine, &Choice::Answer(Answer::Decline)).unwrap();
    let root = common::scratch_content("reserved", &[("keep", "function play(ctx) end")], &[]);
    let problems = ScriptEngine::load(&root, "test").err().map(|p| p.to_string()).unwrap_or_default();
    assert!(problems.contains("'keep' is not a valid card id") && problems.contains("kept for answers"), "{problems}");
}

/// A planet the deck's supply makes impossible is refused by `check`
/// (Neptune needs three waters, R9.7).
#[test]
fn check_refuses_a_deck_whose_supply_makes_a_planet_impossible() {
    let root = common::scratch_content("needs", &[crate::hostile_scripts::GOOD_CARD], &[]);
    for id in ["neptune", "mercury"] {
        for ext in ["yaml", "lua"] {
            let from = common::repo().path().join(format!("planets/{id}.{ext}"));
            std::fs::copy(from, root.path().join(format!("planets/{id}.{ext}"))).unwrap();
        }
    }
    let deck = root.path().join("cards/decks/test.yaml");
    let text = std::fs::read_to_string(&deck).unwrap().replace("planets: []", "planets: [neptune, mercury]");
    std::fs::write(
        &deck,
        format!("{text}supply: {{walls: 8, rings: 15, snookles: 10, water: 0, fire: 4, hippos: 3, monolith: 1}}\n"),
    )
    .unwrap();
    let problems = ScriptEngine::load(&root, "test").err().map(|p| p.to_string()).unwrap_or_default();
    assert!(
        problems.contains("planet 'neptune' needs 3 water in the supply") && problems.contains("holds 0"),
        "{problems}"
    );
    assert!(!problems.contains("mercury"), "{problems}");
}

/// A deck may take the card step from the first turn (`first_card_step:
/// false`), a handicap for Dark, who moves first: Dark's first turn skips it,
/// saying why, and every later turn has it.
#[test]
fn a_deck_may_take_the_card_step_from_the_first_turn() {
    use alien_checkers::game::{DecisionKind, EventLog, GameEvent, GameState, SkipReason};
    let engine = ScriptEngine::load(&common::repo(), "standard").unwrap();
    let mut setup = engine.content().setup();
    setup.rules.first_card_step = false;
    for seed in 0..20 {
        let mut state = GameState::deal(&setup, seed, &engine);
        *state.journal_mut() = EventLog::recording();
        let first = state.pending(&engine).unwrap().options[0].clone();
        state.apply(&engine, &first).unwrap();
        let skipped = state.journal_mut().take().iter().any(|e| {
            matches!(
                e.event,
                alien_checkers::game::Event::Game(GameEvent::StepSkipped { reason: SkipReason::FirstTurn, .. })
            )
        });
        assert!(skipped, "seed {seed}: Dark's first card step is skipped, and told why");
        assert_eq!(state.to_move, alien_checkers::kernel::Player::Light);
        let light = state.pending(&engine).unwrap().options[0].clone();
        state.apply(&engine, &light).unwrap();
        let withheld = state.journal_mut().take().iter().any(|e| {
            matches!(
                e.event,
                alien_checkers::game::Event::Game(GameEvent::StepSkipped { reason: SkipReason::FirstTurn, .. })
            )
        });
        assert!(!withheld, "seed {seed}: Light's first turn keeps its card step");
    }
    // With the option off (the default), some deal gives Dark a card to use.
    setup.rules.first_card_step = true;
    let some = (0..20).any(|seed| {
        let mut state = GameState::deal(&setup, seed, &engine);
        let first = state.pending(&engine).unwrap().options[0].clone();
        state.apply(&engine, &first).unwrap();
        state.pending(&engine).is_some_and(|d| d.kind == DecisionKind::Card)
    });
    assert!(some, "by default Dark's first turn has its card step");
}

/// A deck's pools are checked where it names them (cards/README.md, "Piece
/// pools"): a route to a pool the deck does not list, a pool listed twice and
/// more than four pools are refused, naming the key.
#[test]
fn check_refuses_routes_to_unknown_pools_and_too_many_pools() {
    let root = common::scratch_content("pools", &[("c", "function play(ctx) end")], &[]);
    let deck = root.path().join("cards/decks/test.yaml");
    let plain = std::fs::read_to_string(&deck).unwrap();
    let with = |rules: &str| {
        let text = plain.replace("move_limit: 200}", &format!("move_limit: 200, {rules}}}"));
        std::fs::write(&deck, text).unwrap();
        ScriptEngine::load(&root, "test").err().map(|p| p.to_string()).unwrap_or_default()
    };
    let unknown = with("pools: [reserve, captured], pieces_go: {captured: {pool: captrued, of: capturer}}");
    assert!(unknown.contains("names pool 'captrued', which is not among the pools: reserve, captured"), "{unknown}");
    let twice = with("pools: [reserve, taken, taken]");
    assert!(twice.contains("pool 'taken' is listed twice"), "{twice}");
    let many = with("pools: [a, b, c, d, e]");
    assert!(many.contains("at most 4 pools"), "{many}");
    assert_eq!(with("pools: [surplus, taken], pieces_go: {captured: {pool: taken, of: capturer}}"), "");
}
