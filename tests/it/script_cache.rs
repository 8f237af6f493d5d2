//! Resuming a card run suspended at its question is only an accelerator
//! (src/script/mod.rs): with it on or off, every game, every card run and every
//! failure comes out the same.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use alien_checkers::content::ContentRoot;
use alien_checkers::game::{Answer, CardHost, CardId, Choice, GameState, PlanetId, Resolution, Step};
use alien_checkers::kernel::Player;
use alien_checkers::script::{Accelerators, ScriptEngine, ShortcutsTaken};

use crate::common;

fn shipped(deck: &str, resume: bool) -> ScriptEngine {
    let mut engine =
        ScriptEngine::load(&ContentRoot::new(env!("CARGO_MANIFEST_DIR")), deck).unwrap_or_else(|p| panic!("{p}"));
    engine.set_accelerators(Accelerators { resume, memo: resume });
    engine
}

/// One random game; with `probe`, before each decision another option is tried
/// on a copy (as a search does), which interleaves runs that cannot resume.
fn random_game(engine: &ScriptEngine, seed: u64, probe: bool) -> (Vec<Choice>, Vec<u64>, GameState) {
    let mut state = GameState::new(&engine.content().setup(), seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xcac4e);
    let (mut decisions, mut digests) = (Vec::new(), Vec::new());
    while let Some(decision) = state.pending(engine) {
        let n = decision.options.len();
        if probe && rng.next_u32() % 3 == 0 {
            let mut copy = state.clone();
            let other = &decision.options[(rng.next_u32() as usize) % n];
            copy.apply(engine, other).unwrap_or_else(|e| panic!("seed {seed}: probe {other} failed: {e}"));
        }
        let pick = decision.options[(rng.next_u32() as usize) % n].clone();
        state.apply(engine, &pick).unwrap_or_else(|e| panic!("seed {seed}: {pick} failed: {e}"));
        decisions.push(pick);
        digests.push(state.digest());
        assert!(decisions.len() < 20_000, "seed {seed}: the game ends");
    }
    (decisions, digests, state)
}

#[test]
fn random_games_are_the_same_with_and_without_resuming() {
    let (on, off) = (shipped("standard", true), shipped("standard", false));
    for seed in 0..150 {
        let probe = seed % 2 == 1;
        let (d1, h1, s1) = random_game(&on, seed, probe);
        let (d2, h2, s2) = random_game(&off, seed, probe);
        assert_eq!(d1, d2, "seed {seed}: the same decisions");
        assert_eq!(h1, h2, "seed {seed}: the same states after each decision");
        assert_eq!(s1.digest(), s2.digest(), "seed {seed}: the same end");
        assert_eq!(s1, s2);
    }
    // The shortcuts were really taken (and never with them off).
    let taken = on.shortcuts_taken();
    assert!(taken.resumed > 150 * 30 && taken.remembered > 150 * 100, "{taken:?}");
    assert_eq!(off.shortcuts_taken(), ShortcutsTaken::default());
}

#[test]
fn every_shipped_deck_is_the_same_with_and_without_resuming() {
    let root = ContentRoot::new(env!("CARGO_MANIFEST_DIR"));
    for deck in root.deck_names() {
        let (on, off) = (shipped(&deck, true), shipped(&deck, false));
        for seed in 0..8 {
            let (d1, h1, _) = random_game(&on, 500 + seed, seed % 2 == 0);
            let (d2, h2, _) = random_game(&off, 500 + seed, seed % 2 == 0);
            assert_eq!((d1, h1), (d2, h2), "deck {deck}, seed {}", 500 + seed);
        }
    }
}

/// Everything a card run reports, as text.
fn report(engine: &ScriptEngine, state: &GameState, card: CardId, answers: &[Answer]) -> String {
    let run = engine.run_card(state, card, answers);
    let resolution = match run.resolution {
        Resolution::Done(after) => format!("done {}", after.digest()),
        other => format!("{other:?}"),
    };
    format!("{resolution} log {:?}", run.log)
}

/// Answers every question of `card` from `state` at random, comparing each run
/// of a resuming engine with a fresh run of one that does not resume.
fn answer_through(on: &ScriptEngine, off: &ScriptEngine, state: &GameState, card: CardId, rng: &mut ChaCha8Rng) {
    let mut answers = Vec::new();
    loop {
        let (a, b) = (report(on, state, card, &answers), report(off, state, card, &answers));
        assert_eq!(a, b, "card #{} with answers {answers:?}", card.0);
        match on.run_card(state, card, &answers).resolution {
            Resolution::Ask(q) => answers.push(q.options[(rng.next_u32() as usize) % q.options.len()].clone()),
            _ => return,
        }
    }
}

#[test]
fn card_runs_report_the_same_resolution_and_log() {
    let (on, off) = (shipped("standard", true), shipped("standard", false));
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for seed in 0..12 {
        let (decisions, _, _) = random_game(&off, seed, false);
        let mut state = GameState::new(&off.content().setup(), seed);
        for (i, choice) in decisions.iter().enumerate() {
            if i % 7 == 0 && state.step == Step::Card {
                for card in state.playable_cards(&off) {
                    answer_through(&on, &off, &state.card_snapshot(card), card, &mut rng);
                }
            }
            state.apply(&off, choice).unwrap();
        }
    }
}

/// A content root in a fresh temporary folder with the given cards (id, Lua source)
/// and two planets that never hold, and a deck `test` holding them all.
fn content_with(cards: &[(&str, &str)]) -> ContentRoot {
    content_with_planets(cards, &[("home", NEVER), ("away", NEVER)])
}

const NEVER: &str = "function check(ctx, player) return false end";

fn content_with_planets(cards: &[(&str, &str)], planets: &[(&str, &str)]) -> ContentRoot {
    common::scratch_content("cache", cards, planets)
}

fn engines(cards: &[(&str, &str)]) -> (ScriptEngine, ScriptEngine) {
    let root = content_with(cards);
    let load = |resume| {
        let mut e = ScriptEngine::load(&root, "test").unwrap_or_else(|p| panic!("{p}"));
        e.set_accelerators(Accelerators { resume, memo: resume });
        e
    };
    (load(true), load(false))
}

fn start(engine: &ScriptEngine) -> GameState {
    GameState::new(&engine.content().setup(), 7).card_snapshot(CardId(0))
}

/// Runs card `id` with each prefix of `answers` (as the game does) on both
/// engines; returns the last report, the same for both.
fn both(engines: &(ScriptEngine, ScriptEngine), id: &str, answers: &[&str]) -> String {
    let (on, off) = engines;
    let card = on.content().card_id(id).unwrap();
    let state = start(on);
    let mut last = String::new();
    for n in 0..=answers.len() {
        let given: Vec<Answer> = answers[..n].iter().map(|a| parse(a)).collect();
        let (a, b) = (report(on, &state, card, &given), report(off, &state, card, &given));
        assert_eq!(a, b, "{id} with {n} answers");
        last = a;
    }
    last
}

fn parse(text: &str) -> Answer {
    match text.parse() {
        Ok(sq) => Answer::Square(sq),
        Err(_) => Answer::Option(text.into()),
    }
}

const ASK: &str = "ctx:ask_square('where?', { 'd4', 'e5' })";

#[test]
fn questions_where_the_run_cannot_yield_still_work() {
    let e = engines(&[
        (
            "in_pcall",
            &format!(
                "function play(ctx)\n  local ok, sq = pcall(function() return {ASK} end)\n  assert(ok)\n  ctx:place_terrain(sq, 'water')\nend"
            ),
        ),
        (
            "in_coroutine",
            &format!(
                "function play(ctx)\n  local sq = coroutine.wrap(function() return {ASK} end)()\n  ctx:place_terrain(sq, 'water')\nend"
            ),
        ),
        (
            "in_sort",
            &format!(
                "function play(ctx)\n  local t = {{ 2, 1 }}\n  local sq\n  table.sort(t, function(a, b) sq = sq or {ASK}; return a < b end)\n  ctx:place_terrain(sq, 'water')\nend"
            ),
        ),
        (
            "twice",
            &format!(
                "function play(ctx)\n  local a = {ASK}\n  local ok, b = pcall(function() return ctx:ask_square('and?', {{ 'd4', 'e5', 'e4' }}) end)\n  ctx:place_terrain(a, 'water')\n  ctx:place_terrain(b, 'fire')\nend"
            ),
        ),
    ]);
    for id in ["in_pcall", "in_coroutine", "in_sort"] {
        assert!(both(&e, id, &[]).contains("where?"), "{id} asks");
        assert!(both(&e, id, &["e5"]).starts_with("done"), "{id} finishes");
    }
    assert!(both(&e, "twice", &["d4"]).contains("and?"));
    assert!(both(&e, "twice", &["d4", "e4"]).starts_with("done"));
}

#[test]
fn scripts_cannot_see_or_leave_the_engines_coroutine() {
    let e = engines(&[
        (
            "looks",
            &format!(
                "function play(ctx)\n  assert(coroutine.isyieldable() == false)\n  local co, main = coroutine.running()\n  assert(main == true)\n  assert(coroutine.status(co) == 'running')\n  assert(not coroutine.resume(co))\n  stash = co\n  local ok, e = pcall(coroutine.yield, 1)\n  assert(not ok and e == 'attempt to yield from outside a coroutine', e)\n  local sq = {ASK}\n  assert(coroutine.isyieldable() == false)\n  assert(not coroutine.resume(stash))\n  local inner = coroutine.wrap(function() coroutine.yield(coroutine.isyieldable()) end)\n  assert(inner() == true)\n  ctx:place_terrain(sq, 'water')\nend"
            ),
        ),
        ("leaves", &format!("function play(ctx)\n  local sq = {ASK}\n  coroutine.yield(sq)\nend")),
    ]);
    assert!(both(&e, "looks", &["d4"]).starts_with("done"));
    let m = both(&e, "leaves", &["d4"]);
    // As on the main thread, where Lua gives this error no place.
    assert!(m.contains("failed: attempt to yield from outside a coroutine"), "{m}");
}

#[test]
fn the_budget_covers_the_whole_run_across_a_question() {
    let burn = "local n = 0\n  for i = 1, 1600000 do n = n + i end";
    let e = engines(&[
        (
            "long",
            &format!(
                "function play(ctx)\n  {burn}\n  local sq = {ASK}\n  {burn}\n  ctx:place_terrain(sq, 'water')\nend"
            ),
        ),
        ("short", &format!("function play(ctx)\n  {burn}\n  local sq = {ASK}\n  ctx:place_terrain(sq, 'water')\nend")),
    ]);
    assert!(both(&e, "long", &[]).contains("where?"));
    let m = both(&e, "long", &["d4"]);
    assert!(m.contains("ran too long") && m.contains("long.lua:6"), "{m}");
    assert!(both(&e, "short", &["d4"]).starts_with("done"));
}

#[test]
fn orders_state_and_failures_continue_as_a_fresh_run_would() {
    let e = engines(&[
        (
            "order",
            "function play(ctx)\n  ctx:log('start')\n  local order = ctx:ask_order('order', { 'b', 'a', 'c', 'a' })\n  ctx:log(table.concat(order, ','))\n  ctx:set_draw_order({})\nend",
        ),
        (
            "lifts",
            &format!(
                "function play(ctx)\n  ctx:lift('c3')\n  ctx:random(6)\n  local sq = {ASK}\n  ctx:log('at ' .. sq .. ' ' .. ctx:random(6))\n  ctx:put_back('c3')\n  ctx:place_terrain(sq, 'fire')\nend"
            ),
        ),
        ("refuses", &format!("function play(ctx)\n  local sq = {ASK}\n  ctx:place_terrain(sq, 'lava')\nend")),
    ]);
    for answers in [&["a"][..], &["a", "b"], &["c", "a", "b"], &["a", "a"], &["d"]] {
        both(&e, "order", answers);
    }
    assert!(both(&e, "lifts", &["e5"]).starts_with("done"));
    assert!(both(&e, "refuses", &["e5"]).contains("'lava' is not a terrain"));
    // An answer that is not an option fails the same way.
    assert!(both(&e, "refuses", &["a1"]).contains("'a1' is not an answer to 'where?'"));
}

#[test]
fn other_scripts_running_in_between_do_not_disturb_a_suspended_run() {
    let (on, off) = engines(&[(
        "counts",
        "function play(ctx)\n  seen = (rawget(_G, 'seen') or 0) + 1\n  local sq = ctx:ask_square('where?', { 'd4', 'e5' })\n  ctx:log('seen ' .. seen)\n  ctx:place_terrain(sq, 'water')\nend\nfunction can_play(ctx)\n  seen = 100\n  return true\nend",
    )]);
    let card = on.content().card_id("counts").unwrap();
    let state = start(&on);
    let answers = [Answer::Square("d4".parse().unwrap())];
    for engine in [&on, &off] {
        assert!(matches!(engine.run_card(&state, card, &[]).resolution, Resolution::Ask(_)));
        // Scripts run in between (here the same card's can_play, setting the
        // global in its own run's environment, and a planet check).
        assert!(engine.playable(&state, card));
        assert!(!engine.planet_holds(&state, PlanetId(0), Player::Dark));
        // Every run starts from a fresh environment, so the answered run is the
        // card's first run with one answer, whether resumed or run again.
        let run = engine.run_card(&state, card, &answers);
        assert_eq!(run.log, vec!["seen 1".to_string()], "a run saw what another run left behind");
    }
}

#[test]
fn remembered_checks_answer_as_the_scripts_would() {
    // Checks that read through functions the memo can replay, through one it
    // cannot (checkers), and that read differently depending on what they read.
    let planets = [
        ("kings", "function check(ctx, player) return ctx:count{ owner = player, kind = 'crowned' } >= 1 end"),
        (
            "mixed",
            "function check(ctx, player)\n  if ctx:turn() % 2 == 0 then return #ctx:squares{ empty = true, half = player } > 14 end\n  return ctx:checker('d4') ~= nil\nend",
        ),
        ("listed", "function check(ctx, player) return #ctx:checkers{ owner = player } < 11 end"),
        (
            "corners",
            "function check(ctx, player)\n  local n = 0\n  for _, sq in ipairs(ctx:checker_squares{ owner = player }) do\n    if sq == 'a1' or sq == 'h8' then n = n + 1 end\n  end\n  return n > 0 and ctx:reserve(player) < 12\nend",
        ),
    ];
    let root = content_with_planets(&[("pass", "function play(ctx) end")], &planets);
    let load = |memo| {
        let mut e = ScriptEngine::load(&root, "test").unwrap_or_else(|p| panic!("{p}"));
        e.set_accelerators(Accelerators { resume: true, memo });
        e
    };
    let (on, off) = (load(true), load(false));
    for seed in 0..20 {
        let mut state = GameState::new(&off.content().setup(), seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while let Some(d) = state.pending(&off) {
            for planet in 0..planets.len() as u16 {
                for player in Player::BOTH {
                    let (a, b) = (
                        on.check_planet(&state, PlanetId(planet), player),
                        off.check_planet(&state, PlanetId(planet), player),
                    );
                    assert_eq!(a, b, "seed {seed}, turn {}, planet {planet}, {player}", state.turn);
                }
            }
            let pick = d.options[(rng.next_u32() as usize) % d.options.len()].clone();
            state.apply(&off, &pick).unwrap();
        }
    }
    assert!(on.shortcuts_taken().remembered > 100, "{:?}", on.shortcuts_taken());
}

#[test]
fn shipped_planet_progress_is_remembered_faithfully_and_full_exactly_when_the_planet_holds() {
    let (on, off) = (shipped("standard", true), shipped("standard", false));
    let planets = off.content().planets.len() as u16;
    for seed in 0..12 {
        let mut state = GameState::new(&off.content().setup(), seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while let Some(d) = state.pending(&off) {
            for planet in (0..planets).map(PlanetId) {
                for player in Player::BOTH {
                    let here = format!("seed {seed}, turn {}, planet {}, {player}", state.turn, planet.0);
                    let (a, b) =
                        (on.planet_progress(&state, planet, player), off.planet_progress(&state, planet, player));
                    assert_eq!(a, b, "{here}");
                    let progress = b.unwrap_or_else(|e| panic!("{here}: {e}"));
                    assert!((0.0..=1.0).contains(&progress), "{here}: {progress}");
                    let holds = off.check_planet(&state, planet, player).unwrap();
                    assert_eq!(progress == 1.0, holds, "{here}: progress {progress}, holds {holds}");
                }
            }
            let pick = d.options[(rng.next_u32() as usize) % d.options.len()].clone();
            state.apply(&off, &pick).unwrap();
        }
    }
    assert!(on.shortcuts_taken().remembered > 1000, "{:?}", on.shortcuts_taken());
}

#[test]
fn every_question_kind_suspends_the_run_and_resumes_it() {
    // Each ask_* function is one question of the loop: the run stops there and the
    // answer continues it (a kind the prelude did not wrap would fail its caller and
    // be re-run from the start instead).
    let cards = [
        ("square", "function play(ctx)\n  ctx:place_terrain(ctx:ask_square('where?', { 'd4', 'f4' }), 'water')\nend"),
        ("block", "function play(ctx)\n  ctx:place_monolith(ctx:ask_block('which?', { 'd4', 'f4' }))\nend"),
        ("checker", "function play(ctx)\n  ctx:put_token(ctx:ask_checker('which?', { 'a1', 'c1' }), 'ring')\nend"),
        ("direction", "function play(ctx)\n  ctx:log(ctx:ask_direction('which way?', { 'n', 's' }))\nend"),
        ("option", "function play(ctx)\n  ctx:log(ctx:ask_option('which?', { 'yes', 'no' }))\nend"),
    ];
    let root = content_with(&cards);
    let engine = ScriptEngine::load(&root, "test").unwrap_or_else(|p| panic!("{p}"));
    let state = start(&engine);
    for (id, answer) in [("square", "d4"), ("block", "d4"), ("checker", "a1"), ("direction", "n"), ("option", "yes")] {
        let card = engine.content().card_id(id).unwrap();
        let before = engine.shortcuts_taken().resumed;
        let asked = engine.run_card(&state, card, &[]).resolution;
        assert!(matches!(asked, Resolution::Ask(_)), "{id}: {asked:?}");
        let answer = match id {
            "direction" => Answer::Dir(answer.parse().unwrap()),
            _ => parse(answer),
        };
        let done = engine.run_card(&state, card, &[answer]).resolution;
        assert!(matches!(done, Resolution::Done(_)), "{id}: {done:?}");
        assert_eq!(engine.shortcuts_taken().resumed, before + 1, "{id}: the suspended run was resumed");
    }
}
