//! Hostile scripts (ARCHITECTURE.md "Safety of scripts"): each is
//! stopped or refused with a clear message naming the card and `file:line`, and
//! the game state is exactly as before.

use alien_checkers::content::ContentRoot;
use alien_checkers::game::{CardHost, Choice, GameError, GameState, Step};
use alien_checkers::kernel::Player;
use alien_checkers::script::ScriptEngine;

use crate::common;

/// A content root with the given cards, two planets running `planet`, and a deck
/// `test` holding them all.
fn content_with(cards: &[(&str, &str)], planet: &str) -> ContentRoot {
    common::scratch_content("sandbox", cards, &[("home", planet), ("away", planet)])
}

const NEVER: &str = "function check(ctx, player) return false end";

fn engine(cards: &[(&str, &str)]) -> ScriptEngine {
    ScriptEngine::load(&content_with(cards, NEVER), "test").unwrap_or_else(|p| panic!("{p}"))
}

/// A game at Dark's card step with every card of the deck face up.
fn at_card_step(engine: &ScriptEngine) -> GameState {
    let mut state = GameState::new(&engine.content().setup(), 7);
    state.hidden_mut().piles.face_up =
        (0..engine.content().cards.len() as u16).map(alien_checkers::game::CardId).collect();
    state.hidden_mut().piles.draw.clear();
    state.position_mut().step = Step::Card;
    state
}

/// Uses card `id`; returns the failure message and checks the state is unchanged.
fn failure(engine: &ScriptEngine, id: &str) -> String {
    let mut state = at_card_step(engine);
    let before = state.digest();
    let card = engine.content().card_id(id).unwrap();
    let result = state.apply(engine, &Choice::Card(card));
    assert_eq!(state.digest(), before, "{id}: the state changed");
    match result {
        Err(GameError::CardFailed(message)) => {
            assert!(message.contains(&format!("card '{id}'")), "{id}: the message names the card: {message}");
            message
        }
        other => panic!("{id}: expected the card to fail, got {other:?}"),
    }
}

fn assert_stopped_at(message: &str, file_line: &str, says: &str) {
    assert!(message.contains(file_line), "expected {file_line} in: {message}");
    assert!(message.contains(says), "expected '{says}' in: {message}");
}

#[test]
fn endless_loops_are_stopped_plain_in_pcall_and_in_coroutines() {
    let e = engine(&[
        ("plain", "function play(ctx)\n  while true do end\nend"),
        ("in_pcall", "function play(ctx)\n  while true do\n    pcall(function() while true do end end)\n  end\nend"),
        (
            "in_xpcall",
            "function play(ctx)\n  while true do\n    xpcall(function() while true do end end, function() while true do end end)\n  end\nend",
        ),
        (
            "in_coroutine",
            "function play(ctx)\n  local co = coroutine.wrap(function() while true do end end)\n  co()\nend",
        ),
        (
            "resume_loop",
            "function play(ctx)\n  while true do\n    coroutine.resume(coroutine.create(function() while true do end end))\n  end\nend",
        ),
    ]);
    assert_stopped_at(&failure(&e, "plain"), "cards/plain.lua:2", "ran too long");
    assert_stopped_at(&failure(&e, "in_pcall"), "cards/in_pcall.lua:", "ran too long");
    assert_stopped_at(&failure(&e, "in_xpcall"), "cards/in_xpcall.lua:", "ran too long");
    assert_stopped_at(&failure(&e, "in_coroutine"), "cards/in_coroutine.lua:2", "ran too long");
    assert_stopped_at(&failure(&e, "resume_loop"), "cards/resume_loop.lua:", "ran too long");
}

#[test]
fn runaway_memory_is_stopped_even_inside_pcall_and_the_engine_stays_usable() {
    let e = engine(&[
        ("hog", "function play(ctx)\n  local t = {}\n  for i = 1, 1e9 do t[i] = string.rep('x', 4096) .. i end\nend"),
        (
            "hog_pcall",
            // Doubling by concatenation: string.rep is charged to the budget by
            // its length, which would stop this before memory runs out.
            "function play(ctx)\n  local t, s = {}, 'y'\n  pcall(function() while true do s = s .. s; t[#t + 1] = s end end)\n  ctx:place_terrain('d4', 'water')\nend",
        ),
        ("fine", "function play(ctx) ctx:place_terrain('d4', 'water') end"),
    ]);
    let m = failure(&e, "hog");
    assert!(m.contains("memory") || m.contains("ran too long"), "{m}");
    assert!(failure(&e, "hog_pcall").contains("memory"));
    let mut state = at_card_step(&e);
    state.apply(&e, &Choice::Card(e.content().card_id("fine").unwrap())).expect("a good card still runs");
}

#[test]
fn pathological_patterns_are_refused() {
    let e = engine(&[
        ("pattern", "function play(ctx)\n  string.find(string.rep('a', 5000), string.rep('a*', 12) .. 'b')\nend"),
        ("method", "function play(ctx)\n  local s = ('a'):rep(5000)\n  s:match(('a-'):rep(12) .. 'b')\nend"),
        ("gsub", "function play(ctx)\n  string.gsub(('a'):rep(20000), '(a*)*b', '')\nend"),
    ]);
    assert_stopped_at(&failure(&e, "pattern"), "cards/pattern.lua:2", "pattern too costly");
    assert_stopped_at(&failure(&e, "method"), "cards/method.lua:3", "pattern too costly");
    assert!(failure(&e, "gsub").contains("pattern too costly"));
}

#[test]
fn the_outside_world_is_out_of_reach() {
    let probes = [
        ("os", "os.execute('true')"),
        ("io", "io.open('/etc/passwd')"),
        ("load", "load('return 1')"),
        ("dofile", "dofile('/etc/passwd')"),
        ("loadfile", "loadfile('/etc/passwd')"),
        ("require", "require('os')"),
        ("debug", "debug.getinfo(1)"),
        ("collectgarbage", "collectgarbage('count')"),
        ("print", "print('hi')"),
        ("next", "next({})"),
        ("package", "package.loaded.os.exit()"),
    ];
    let cards: Vec<(String, String)> = probes
        .iter()
        .map(|(name, code)| (format!("use_{name}"), format!("function play(ctx)\n  {code}\nend")))
        .collect();
    let refs: Vec<(&str, &str)> = cards.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let e = engine(&refs);
    for (name, _) in probes {
        let m = failure(&e, &format!("use_{name}"));
        assert_stopped_at(&m, &format!("cards/use_{name}.lua:2"), &format!("undefined global '{name}'"));
    }
    let e = engine(&[
        ("dump", "function play(ctx)\n  return string.dump(play)\nend"),
        ("random", "function play(ctx)\n  return math.random(6)\nend"),
        ("addr", "function play(ctx)\n  local s = string.format('%p', {})\nend"),
    ]);
    assert_stopped_at(&failure(&e, "dump"), "cards/dump.lua:2", "dump");
    assert_stopped_at(&failure(&e, "random"), "cards/random.lua:2", "random");
    assert_stopped_at(&failure(&e, "addr"), "cards/addr.lua:2", "%p");
}

#[test]
fn binary_chunks_are_refused_at_load() {
    let root = content_with(&[("bytes", "\x1bLua\x54\x00 not text")], NEVER);
    let problems = ScriptEngine::load(&root, "test").err().expect("a binary chunk is refused").to_string();
    assert!(problems.contains("bytes.lua") && problems.contains("binary"), "{problems}");
}

#[test]
fn one_card_cannot_change_another() {
    let e = engine(&[
        (
            "vandal",
            "function play(ctx)\n  assert(not pcall(function() string.upper = function() return 'zz' end end))\n  assert(not pcall(function() table.insert = nil end))\n  assert(not pcall(function() math.floor = nil end))\n  assert(not pcall(function() ctx.place_terrain = nil end))\n  shared = 1\n  local ok = pcall(function() getmetatable('').__index = { upper = function() return 'zz' end } end)\n  assert(not ok)\n  assert(getmetatable('') == 'locked')\n  local ok2 = pcall(setmetatable, 'x', {})\n  assert(not ok2)\n  local mt = getmetatable(ctx)\n  if type(mt) == 'table' then pcall(function() mt.__index = nil end) end\nend",
        ),
        (
            "victim",
            "function play(ctx)\n  local sq = string.lower(string.upper('d4'))\n  local t = {}\n  table.insert(t, math.floor(1.5))\n  assert(rawget(_G, 'shared') == nil)\n  assert(('a'):upper() == 'A')\n  ctx:place_terrain(sq, 'water')\nend",
        ),
    ]);
    let mut state = at_card_step(&e);
    state
        .apply(&e, &Choice::Card(e.content().card_id("vandal").unwrap()))
        .expect("vandal's writes to shared tables are refused, the rest stays in its own run");
    let mut state = at_card_step(&e);
    state.apply(&e, &Choice::Card(e.content().card_id("victim").unwrap())).expect("the victim is unaffected");
    assert!(state.board.terrain_at("d4".parse().unwrap()).is_some());
}

#[test]
fn strange_errors_recursion_finalizers_and_huge_returns_are_contained() {
    let e = engine(&[
        ("table_error", "function play(ctx)\n  error({ code = 1 })\nend"),
        ("nil_error", "function play(ctx)\n  error(nil)\nend"),
        (
            "slow_tostring",
            "function play(ctx)\n  error(setmetatable({}, { __tostring = function() while true do end end }))\nend",
        ),
        ("recursion", "local function f(n) return 1 + f(n + 1) end\nfunction play(ctx)\n  return f(1)\nend"),
        ("finalizer", "function play(ctx)\n  setmetatable({}, { __gc = function() end })\nend"),
        ("typo", "function play(ctx)\n  ctxx:place_terrain('d4', 'water')\nend"),
        ("bad_op", "function play(ctx)\n  ctx:place_terrain('d4', 'lava')\nend"),
    ]);
    for id in ["table_error", "nil_error", "slow_tostring", "recursion"] {
        let m = failure(&e, id);
        assert!(m.len() < 400, "{id}: the message is one short line: {m}");
    }
    let recursion = failure(&e, "recursion");
    assert!(recursion.contains("stack overflow") || recursion.contains("ran out of memory"), "{recursion}");
    assert_stopped_at(&failure(&e, "finalizer"), "cards/finalizer.lua:2", "__gc");
    assert_stopped_at(&failure(&e, "typo"), "cards/typo.lua:2", "undefined global 'ctxx'");
    assert_stopped_at(&failure(&e, "bad_op"), "cards/bad_op.lua:2", "'lava' is not a terrain");
}

#[test]
fn planet_checks_and_can_play_only_read() {
    let writer = "function check(ctx, player)\n  ctx:place_terrain('d4', 'fire')\n  return true\nend";
    let root = content_with(
        &[("greedy", "function can_play(ctx)\n  ctx:remove_checker('a1')\n  return true\nend\nfunction play(ctx) end")],
        writer,
    );
    let e = ScriptEngine::load(&root, "test").unwrap();
    let state = at_card_step(&e);
    let before = state.digest();
    let card = e.content().card_id("greedy").unwrap();
    assert!(!e.playable(&state, card), "a can_play that writes fails, so the card is not playable");
    for planet in 0..2 {
        assert!(!e.planet_holds(&state, alien_checkers::game::PlanetId(planet), Player::Dark));
    }
    assert_eq!(state.digest(), before);
    let errors = e.take_errors().join("\n");
    assert!(errors.contains("may only read"), "{errors}");
    let huge = "function check(ctx, player)\n  local t = {}\n  for i = 1, 100000 do t[i] = i end\n  return t\nend";
    let e = ScriptEngine::load(&content_with(&[("ok", "function play(ctx) end")], huge), "test").unwrap();
    assert!(!e.planet_holds(&state, alien_checkers::game::PlanetId(0), Player::Dark));
    assert!(e.take_errors().join("\n").contains("returned a table"));
}

#[test]
fn a_failed_card_leaves_the_game_going_and_the_player_chooses_again() {
    let e = engine(&[("broken", "function play(ctx)\n  error('oops')\nend"), ("good", "function play(ctx) end")]);
    let mut state = at_card_step(&e);
    let before = state.digest();
    let broken = e.content().card_id("broken").unwrap();
    assert!(
        matches!(state.apply(&e, &Choice::Card(broken)), Err(GameError::CardFailed(m)) if m.contains("cards/broken.lua:2: oops"))
    );
    assert_eq!(state.digest(), before);
    let pending = state.pending(&e).expect("the game goes on");
    assert_eq!(pending.player, Player::Dark);
    assert!(pending.options.contains(&Choice::Card(e.content().card_id("good").unwrap())));
    state.apply(&e, &Choice::Card(e.content().card_id("good").unwrap())).unwrap();
    assert_eq!(state.to_move, Player::Light);
}
