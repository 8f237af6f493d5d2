//! `simulate`: the report depends on the seed only, not on the
//! number of worker threads, and it counts what it claims to count.

use alien_checkers::content::ContentRoot;
use alien_checkers::simulate::{Plan, report, run};

fn plan(threads: usize, seed: u64) -> Plan {
    Plan {
        root: ContentRoot::new(env!("CARGO_MANIFEST_DIR")),
        deck: "standard".into(),
        a: "greedy".into(),
        b: "random".into(),
        games: 12,
        seed,
        threads,
    }
}

#[test]
fn same_seed_same_report_on_any_number_of_threads() {
    let one = run(&plan(1, 5), &mut |_, _| {}).unwrap();
    let two = run(&plan(2, 5), &mut |_, _| {}).unwrap();
    let (a, b) = (report(&plan(1, 5), &one), report(&plan(2, 5), &two));
    assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
    let other = report(&plan(2, 6), &run(&plan(2, 6), &mut |_, _| {}).unwrap());
    assert_ne!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&other).unwrap(), "the seed matters");
}

#[test]
fn the_report_adds_up() {
    let mut seen = Vec::new();
    let games = run(&plan(2, 9), &mut |done, total| seen.push((done, total))).unwrap();
    assert_eq!(seen.last(), Some(&(12, 12)), "progress reaches the end");
    let r = report(&plan(2, 9), &games);
    assert_eq!(r.games, 12);
    assert_eq!(r.wins_a + r.wins_b + r.draws + r.abandoned, 12);
    assert_eq!(r.wins_by_colour[0] + r.wins_by_colour[1], r.wins_a + r.wins_b);
    let by_way: usize = r.ways.values().map(|w| w[0] + w[1] + w[2]).sum();
    assert_eq!(by_way, 12);
    assert_eq!(r.planets.values().map(|p| p.held).sum::<usize>(), 24, "each game deals two planets");
    let uses: usize = r.cards.values().map(|c| c.uses).sum();
    assert_eq!(uses, games.iter().map(|g| g.cards.len()).sum::<usize>());
    assert!(r.turns_min <= r.turns_max && r.turns_mean >= f64::from(r.turns_min));
}

#[test]
fn hard_searches_with_helper_engines_and_answers_a_pending_option() {
    use alien_checkers::ai::{Budget, make_agent};
    use alien_checkers::game::GameState;
    use alien_checkers::script::ScriptEngine;
    use alien_checkers::script::engine_factory;

    let engine = ScriptEngine::load(&ContentRoot::new(env!("CARGO_MANIFEST_DIR")), "standard").unwrap();
    let setup = engine.content().setup();
    let state = GameState::new(&setup, 3);
    let options = state.pending(&engine).unwrap().options;
    let helpers = Some(engine_factory(engine.content()));
    let mut hard = make_agent("hard", 1, setup.planets.clone(), Budget::Reproducible, helpers.clone()).unwrap();
    let choice = hard.choose(&state, &engine).expect("a decision is pending");
    assert!(options.contains(&choice), "{choice} is not an option");
    // The helper thread's engine is compiled from the same content, so a second
    // agent with the same seed decides the same.
    let mut again = make_agent("hard", 1, setup.planets.clone(), Budget::Reproducible, helpers).unwrap();
    assert_eq!(again.choose(&state, &engine), Some(choice));
    assert!(make_agent("wizard", 1, setup.planets, Budget::Reproducible, None).is_err());
}
