//! A hostile mod can neither hang, fork nor crash a game: one test per way an
//! attack on the sandbox got through (unmetered work inside one library call,
//! memory, stops a script's own coroutine caught, text that reaches the
//! terminal, files that are not plain files inside the content root). Each
//! failed, hung or crashed on the code before the script library was cut down
//! to metered functions (cards/README.md, "The script library").

use alien_checkers::content::ContentRoot;
use alien_checkers::game::{Answer, Choice, GameError, GameEvent, Step};
use alien_checkers::script::ScriptEngine;

use crate::common;
use crate::hostile_scripts::{GOOD_CARD, asks, engine, engine_still_works, failure, short, use_card};

/// A card whose `play` is `body`.
fn play(body: &str) -> String {
    format!("function play(ctx)\n{body}\nend\n")
}

/// Uses card `id` in a game that records its events; the lines it logged.
fn logged(engine: &ScriptEngine, id: &str) -> (Result<(), GameError>, alien_checkers::game::GameState, Vec<String>) {
    let mut state = crate::hostile_scripts::at_card_step(engine);
    *state.journal_mut() = alien_checkers::game::EventLog::recording();
    let result = state.apply(engine, &Choice::Card(crate::hostile_scripts::card(engine, id)));
    let lines = messages(&state);
    (result, state, lines)
}

/// The lines scripts logged in the events `state` recorded.
fn messages(state: &alien_checkers::game::GameState) -> Vec<String> {
    state
        .journal()
        .events()
        .iter()
        .filter_map(|e| match &e.event {
            alien_checkers::game::Event::Game(GameEvent::Message { text, .. }) => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// Card `id` (with `body` as its `play`) fails, and the message says `wanted`.
#[track_caller]
fn refused(id: &str, body: &str, wanted: &str) -> String {
    let source = play(body);
    let engine = engine(&[(id, &source), GOOD_CARD], &[]);
    let m = failure(&engine, id);
    assert!(m.contains(wanted), "{id}: {}", short(&m));
    engine_still_works(&engine);
    m
}

// ---- unmetered work inside one C call ----

#[test]
fn a_plain_find_is_charged_for_its_quadratic_worst_case() {
    let body = "  local s = string.rep('a', 2000000)\n  local p = string.rep('a', 1000000) .. 'b'\n  string.find(s, p, 1, true)";
    let m = refused("plainfind", body, "instruction budget");
    assert!(m.contains("plainfind.lua:4"), "the stop names the line of the call: {m}");
    // The same work at a script's top level stops `check` (the load budget).
    let top = "local s = string.rep('a', 2000000)\nlocal p = string.rep('a', 1000000) .. 'b'\nstring.find(s, p, 1, true)\nfunction play(ctx) end";
    let root = common::scratch_content(
        "plainfind-top",
        &[("top", top)],
        &[("a", "function check() return false end"), ("b", "function check() return false end")],
    );
    let problems = ScriptEngine::load(&root, "test").err().expect("the load is refused").to_string();
    assert!(problems.contains("top.lua:3") && problems.contains("budget"), "{problems}");
}

#[test]
fn counts_given_as_numeric_strings_are_charged_as_the_numbers_c_reads() {
    refused("movestr", "  table.move({}, '1', '4611686018427387904', 1, {})", "instruction budget");
    refused("repstr", "  string.rep('', '4611686018427387904')", "instruction budget");
    refused("repfloat", "  string.rep('x', 2^40)", "instruction budget");
}

#[test]
fn a_length_that_changes_between_reads_is_read_once() {
    // `__len` answers 0, then 2^62: table.insert reads the length once, as 0.
    let body = "  local n = 0\n  local t = setmetatable({}, { __len = function() n = n + 1; if n == 1 then return 0 end return 2^62 end })\n  table.insert(t, 1, 'x')\n  ctx:log(tostring(rawget(t, 1)) .. ' ' .. n)";
    let source = play(body);
    let engine = engine(&[("shifty", &source), GOOD_CARD], &[]);
    let (result, _, lines) = logged(&engine, "shifty");
    result.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(lines, ["x 1"], "inserted at 1 after one read of the length");
}

#[test]
fn a_table_cannot_be_its_own_call_metamethod() {
    refused("selfcall", "  local t = {}\n  setmetatable(t, { __call = t })\n  t()", "__call must be a function");
}

#[test]
fn the_pattern_estimate_counts_the_pattern_length() {
    // (find would take its plain path: no pattern character in the pattern.)
    let body = "  local s = string.rep('a', 7000000)\n  string.match(s, string.rep('a', 255) .. 'b')";
    let m = refused("longpattern", body, "pattern too costly");
    assert!(m.contains("longpattern.lua:3"), "{m}");
}

/// Effects whose handlers each do about `copies` copies of a 16 MiB string:
/// work the instruction budget does not count.
fn slow_handlers(copies: u32) -> String {
    format!(
        "function play(ctx)\n  for i = 1, 6 do ctx:add_effect{{ lasts = 'game' }} end\nend\n\
         function on_moved(ctx, event)\n  local s = string.rep('x', 2^23)\n  for i = 1, {copies} do local t = s .. s end\nend\n"
    )
}

#[test]
fn work_one_instruction_does_is_counted_in_bytes_and_the_game_goes_on() {
    // Issue 36, item 1: copies of a 16 MiB string cost the instruction budget
    // nothing; each is counted in the bytes a run allocates, so every handler
    // stops at the same copy on any machine, and the effects that fail are
    // given up as any other failure is: the move is played, no decision is
    // refused, the engine is not broken.
    let source = slow_handlers(40);
    let engine = engine(&[("slow", &source), GOOD_CARD], &[]);
    let (result, state) = use_card(&engine, "slow");
    result.unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(state.step, Step::Move), "{:?}", state.step);
    let mv = state.pending(&engine).expect("a move").options[0].clone();
    let refused = state.clone().apply(&engine, &mv).expect_err("the effects' handlers fail").to_string();
    assert!(refused.contains("card 'slow'") && refused.contains("ran out of memory"), "{refused}");
    let play = || {
        let mut played = state.clone();
        let (applied, _) = played.apply_or_fall_back(&engine, &mv).expect("a fall-back applies");
        (applied, played.digest(), played.effects.len(), played.step.clone())
    };
    let (applied, digest, effects, step) = play();
    assert_eq!(applied, Choice::GiveUp, "every move fails in the effects: they are given up");
    assert_eq!(effects, 5, "the first failing effect of the six was removed");
    assert!(matches!(step, Step::Move), "play goes on: {step:?}");
    assert_eq!(engine.broken(), None);
    assert_eq!(play(), (applied, digest, effects, step), "the same again");
}

// ---- memory ----

#[test]
fn effect_data_bounds_count_keys_and_their_bytes() {
    refused(
        "bigkey",
        "  ctx:add_effect{ lasts = 'game', data = { [string.rep('k', 7000000)] = 1 } }",
        "at most 256 bytes",
    );
    refused(
        "manykeys",
        "  local d = {}\n  for i = 1, 20 do d[string.rep('k', 250) .. i] = i end\n  ctx:add_effect{ lasts = 'game', data = d }",
        "4096 bytes",
    );
}

#[test]
fn a_yaml_alias_bomb_is_refused_by_the_bytes_it_expands_to() {
    let root = common::scratch_content("aliasbomb", &[("bomb", "function play(ctx) end")], &[]);
    let mut manifest = format!("name: bomb\ntext: &big \"{}\"\nrulings:\n", "x".repeat(50_000));
    while manifest.len() < 240_000 {
        manifest.push_str("- *big\n");
    }
    std::fs::write(root.path().join("cards/bomb.yaml"), manifest).unwrap();
    let problems = ScriptEngine::load(&root, "test").err().expect("refused").to_string();
    assert!(problems.contains("bomb.yaml") && problems.contains("aliases expanded"), "{}", short(&problems));
}

// ---- determinism: stops a script's own coroutine cannot catch ----

#[test]
fn a_question_inside_a_scripts_coroutine_is_not_caught() {
    // The card catches the halt of its first question in a coroutine of its
    // own and asks a second: the same answers must give the same game whether
    // the engine resumes the suspended run or runs the script again.
    let body = "  local co = coroutine.create(function() return ctx:ask_square('where?', { 'd4', 'e5' }) end)\n  \
                local ok, where = coroutine.resume(co)\n  \
                if not ok then where = ctx:ask_square('again?', { 'a1', 'h8' }) end\n  \
                ctx:place_terrain(where, 'fire')";
    let source = play(body);
    let mut games = Vec::new();
    for resume in [true, false] {
        let mut engine = engine(&[("coask", &source), GOOD_CARD], &[]);
        engine.set_accelerators(alien_checkers::script::Accelerators { resume, memo: resume });
        let (mut state, options) = asks(&engine, "coask");
        assert_eq!(options, [Answer::Square("d4".parse().unwrap()), Answer::Square("e5".parse().unwrap())]);
        state.apply(&engine, &Choice::Answer(options[0].clone())).unwrap();
        assert!(matches!(state.step, Step::Move), "one question only: {:?}", state.step);
        assert!(state.board.terrain_at("d4".parse().unwrap()).is_some(), "the answer reached the first question");
        games.push(state.digest());
    }
    assert_eq!(games[0], games[1], "the same game with and without resuming");
    // The same with coroutine.wrap.
    let wrapped = play(
        "  local f = coroutine.wrap(function() return ctx:ask_square('where?', { 'd4', 'e5' }) end)\n  \
         local ok, where = pcall(f)\n  \
         if ok then ctx:place_terrain(where, 'water') else ctx:place_terrain('e5', 'fire') end",
    );
    let engine = crate::hostile_scripts::engine(&[("cowrap", &wrapped), GOOD_CARD], &[]);
    let (_, options) = asks(&engine, "cowrap");
    assert_eq!(options.len(), 2);
}

#[test]
fn running_out_of_memory_inside_a_scripts_coroutine_stops_the_run() {
    // Doubling a string is one instruction a time: memory runs out long
    // before the budget does.
    let body = "  local co = coroutine.create(function()\n    local s = 'x'\n    \
                for i = 1, 40 do s = s .. s end\n  end)\n  \
                local ok = coroutine.resume(co)\n  ctx:place_terrain('d4', 'water')";
    refused("cooom", body, "out of memory");
}

// ---- text from mods is shown, never obeyed ----

#[test]
fn control_characters_from_a_mod_are_made_visible() {
    let body = "  ctx:log('\\27]52;c;cm0gLXJmIH4=\\7\\nLight resigns')\n  \
                ctx:ask_option('\\27[2Jpick', { 'one\\27[31m', 'two' })";
    let source = play(body);
    let root = common::scratch_content("ctrl", &[("ctrl", &source), GOOD_CARD], &[]);
    std::fs::write(root.path().join("cards/ctrl.yaml"), "name: \"Ctrl\\e[2J\"\ntext: \"bell\\a and\\r return\"\n")
        .unwrap();
    let engine = ScriptEngine::load(&root, "test").unwrap_or_else(|p| panic!("{p}"));
    let card = engine.content().card_id("ctrl").unwrap();
    let manifest = &engine.content().card(card).unwrap().manifest;
    assert_eq!(manifest.name, "Ctrl\\x1b[2J");
    assert_eq!(manifest.text, "bell\\x07 and\\x0d return");
    let (result, mut state, _) = logged(&engine, "ctrl");
    result.unwrap_or_else(|e| panic!("{e}"));
    let Step::Resolving(r) = &state.step else { unreachable!() };
    assert_eq!(r.question.prompt, "\\x1b[2Jpick");
    assert_eq!(r.question.options[0], Answer::Option("one\\x1b[31m".into()));
    // The card's log is told when it is done.
    state.apply(&engine, &Choice::Answer(Answer::Option("two".into()))).unwrap();
    assert_eq!(messages(&state), ["\\x1b]52;c;cm0gLXJmIH4=\\x07\\x0aLight resigns"]);
    // A script's error message too.
    let m = refused("ctrlerr", "  error('\\27[2Jboom')", "boom");
    assert!(!m.contains('\x1b') && m.contains("\\x1b[2Jboom"), "{m}");
}

/// The line a mod would forge: the game's own words for an ending.
const FORGED: &str = "Dark wins: Light resigned.";

/// A hot-seat game on a hostile deck, piped to a terminal 100 columns wide:
/// its sides' names, a counter's label, a card's name (with a right-to-left
/// override), its text (padded so that a terminal wrapping it would put
/// [`FORGED`] at column 0) and its effect's data hold control and format
/// characters. Dark moves, uses the card, lists the cards and quits. What
/// it printed, run once for the tests below.
fn hostile_table() -> &'static str {
    static OUT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    OUT.get_or_init(|| {
        let source =
            "function play(ctx)\n  ctx:add_effect{ lasts = 'game', data = { note = '\\27[2J\\u{202E}e\\nx' } }\nend\n";
        let root = common::scratch_content("texts", &[("mark", source)], &[]);
        let pad = " ".repeat(120);
        std::fs::write(
            root.path().join("cards/mark.yaml"),
            format!("name: \"Mark\\u202EkraM\"\ntext: \"Burns.{pad}{FORGED}\"\neffect: \"note {{note}}\"\n"),
        )
        .unwrap();
        std::fs::write(
            root.path().join("cards/decks/test.yaml"),
            "name: test\ncards: {mark: 3}\ncounters: [{name: fuses, label: \"fuses\\e[2J\\u202E\"}]\n\
             rules: {crowning: from_reserve, cards: true, five_kings_win: true, when_stuck: skip, move_limit: 200,\n\
             \x20 notation: {sides: [\"Red\\e]0;pwned\\a\", \"Blue\\u2066\"]}}\n",
        )
        .unwrap();
        let root = root.path().to_str().unwrap();
        let dir = common::scratch_dir("mods", "hostile_table");
        let args = ["--root", root, "--deck", "test", "--seed", "1", "--dark", "human", "--light", "human"];
        let run = common::run_binary(&dir, &args, &[("COLUMNS", "100")], "c3-d4\nmark\ncards\ncard mark\nquit\n");
        assert!(run.success, "{}\n{}", run.stdout, run.stderr);
        // The deck's notation names the sides at the table.
        assert!(run.stdout.contains("Red\\x1b]0;pwned\\x07 uses Mark"), "the card was used: {}", run.stdout);
        run.stdout
    })
}

/// Whether `out` holds no character that acts on a terminal or reorders text.
#[track_caller]
fn nothing_obeyed(out: &str, shown: &str) {
    for c in ['\x1b', '\x07', '\u{202e}', '\u{2066}'] {
        assert!(!out.contains(c), "U+{:04X} reached the terminal: {out}", c as u32);
    }
    assert!(out.contains(shown), "{shown} is shown: {out}");
}

#[test]
fn a_card_name_with_a_right_to_left_override_is_shown_escaped() {
    nothing_obeyed(hostile_table(), "Mark\\u{202e}kraM");
}

#[test]
fn a_decks_notation_sides_are_shown_escaped() {
    nothing_obeyed(hostile_table(), "Red\\x1b]0;pwned\\x07 moves first.");
    nothing_obeyed(hostile_table(), "Pass to Blue\\u{2066}, press Enter");
}

#[test]
fn a_decks_counter_label_is_shown_escaped() {
    nothing_obeyed(hostile_table(), "fuses\\x1b[2J\\u{202e}: Dark 0, Light 0");
}

/// Text a script keeps in its effect's data, put into the manifest's
/// `effect:` line, is escaped and kept on the line.
#[test]
fn effect_data_in_an_effect_line_is_shown_escaped_on_its_line() {
    nothing_obeyed(
        hostile_table(),
        "in force: Mark\\u{202e}kraM (Dark) (for the rest of the game): note \\x1b[2J\\u{202e}e\\x0ax",
    );
}

/// Padding a card's text with spaces cannot put the game's words at the
/// start of a line (`cards` and `card` print the text whole): no line is
/// wider than the terminal, which would wrap it itself and put them at
/// column 0, and the spaces that were to choose the break are collapsed.
#[test]
fn padding_cannot_put_a_forged_line_at_column_0() {
    let out = hostile_table();
    let listed = out.lines().skip_while(|l| !l.ends_with("> cards")).nth(1).unwrap_or_else(|| panic!("{out}"));
    assert!(listed.starts_with("Mark\\u{202e}kraM") && listed.contains("Burns."), "{out}");
    let card = out.lines().skip_while(|l| !l.ends_with("> card mark")).nth(1).unwrap_or_else(|| panic!("{out}"));
    assert!(card.contains("Burns."), "{out}");
    for line in out.lines().filter(|l| l.contains("Burns.") || l.contains(FORGED)) {
        assert!(line.chars().count() <= 100, "wider than the terminal, which would wrap it: {line:?}");
    }
    assert!(!out.lines().any(|l| l.starts_with(FORGED)), "the forged words stand at column 0: {out}");
}

// ---- content files are plain files inside the content root ----

#[cfg(unix)]
#[test]
fn links_out_of_the_root_and_special_files_are_refused() {
    use std::os::unix::fs::symlink;
    let root = common::scratch_content("links", &[("water", "function play(ctx) end"), GOOD_CARD], &[]);
    let cards = root.path().join("cards");
    // A script that is a link out of the root (to a file whose size says 0).
    std::fs::remove_file(cards.join("water.lua")).unwrap();
    symlink("/proc/self/pagemap", cards.join("water.lua")).unwrap();
    let problems = ScriptEngine::load(&root, "test").err().expect("refused").to_string();
    assert!(problems.contains("water.lua") && problems.contains("outside the content root"), "{problems}");
    // A manifest that is a device.
    std::fs::remove_file(cards.join("water.lua")).unwrap();
    std::fs::write(cards.join("water.lua"), "function play(ctx) end").unwrap();
    std::fs::remove_file(cards.join("water.yaml")).unwrap();
    symlink("/dev/zero", cards.join("water.yaml")).unwrap();
    let problems = ScriptEngine::load(&root, "test").err().expect("refused").to_string();
    assert!(problems.contains("water.yaml") && problems.contains("not a plain file"), "{problems}");
    // A manifest that is a FIFO: refused, not waited on.
    std::fs::remove_file(cards.join("water.yaml")).unwrap();
    let made = std::process::Command::new("mkfifo").arg(cards.join("water.yaml")).status();
    if made.is_ok_and(|s| s.success()) {
        let problems = ScriptEngine::load(&root, "test").err().expect("refused").to_string();
        assert!(problems.contains("water.yaml") && problems.contains("not a plain file"), "{problems}");
    }
    // A link that stays inside the root is a plain file of the root.
    std::fs::remove_file(cards.join("water.yaml")).unwrap();
    std::fs::write(cards.join("water_manifest.txt"), "name: water\ntext: a test card\n").unwrap();
    symlink(cards.join("water_manifest.txt"), cards.join("water.yaml")).unwrap();
    ScriptEngine::load(&root, "test").unwrap_or_else(|p| panic!("{p}"));
}

fn empty_diagram() -> String {
    use alien_checkers::kernel::{Board, Crowning, Supply};
    alien_checkers::diagram::render(&Board::empty(Supply::STANDARD, Crowning::FromReserve))
}

#[test]
fn a_diagram_indented_with_a_wide_space_is_refused_not_a_panic() {
    let board = empty_diagram();
    let mut lines: Vec<String> = board.lines().map(|l| format!(" {l}")).collect();
    lines[3] = format!("\u{3000}{}", lines[3].trim_start());
    let text = lines.join("\n");
    let parsed = std::panic::catch_unwind(|| {
        alien_checkers::diagram::parse(
            &text,
            alien_checkers::kernel::Supply::STANDARD,
            alien_checkers::kernel::Crowning::FromReserve,
        )
    });
    assert!(parsed.expect("no panic").is_err());
}

#[test]
fn a_scene_is_held_to_the_rules_of_play() {
    let root = common::scratch_content("scenes", &[GOOD_CARD], &[]);
    let effect = "      - { card: good, owner: dark, lasts: 2 }\n";
    let board: String = empty_diagram().lines().map(|l| format!("      {l}\n")).collect();
    let scene = |effects: &str| {
        format!(
            "card: good\ndeck: test\nscenarios:\n  - name: scene\n    board: |\n{board}    effects:\n{effects}    expect:\n      playable: true\n"
        )
    };
    for (tag, effects, wanted) in [
        ("forty", effect.repeat(40), "at most 16"),
        ("zero", "      - { card: good, owner: dark, lasts: 0 }\n".into(), "at least one turn"),
    ] {
        let path = root.path().join(format!("cards/{tag}.test.yaml"));
        std::fs::write(&path, scene(&effects)).unwrap();
        let outcomes = alien_checkers::scenario::run_file(&root, &path);
        let failure = outcomes[0].failure.clone().unwrap_or_default();
        assert!(failure.contains(wanted), "{tag}: {failure}");
    }
}

#[test]
fn a_stop_inside_a_library_call_names_the_cards_line() {
    // The budget runs out inside the library's sort (Lua code of the
    // prelude), and inside a charge made for a C function called by pcall.
    let m = refused(
        "sortstop",
        "  local t = {}\n  for i = 1, 200000 do t[i] = -i end\n  table.sort(t)",
        "instruction budget",
    );
    assert!(m.contains("sortstop.lua:4"), "{m}");
    assert!(!m.contains("prelude") && !m.contains("[C]"), "{m}");
    let m = refused("repstop", "  local ok = pcall(string.rep, 'x', 1e12)", "instruction budget");
    assert!(m.contains("repstop.lua:2"), "{m}");
    assert!(!m.contains("prelude") && !m.contains("[C]"), "{m}");
}

#[test]
fn a_scripts_library_holds_only_what_cards_reference_lists() {
    // Everything a script can reach in the libraries, against the list in
    // cards/README.md ("The script library").
    let body = "  for _, lib in ipairs({ 'string', 'table', 'math', 'utf8', 'coroutine' }) do\n    \
                for k in pairs(_ENV[lib]) do ctx:log(lib .. '.' .. k) end\n  end";
    let source = play(body);
    let engine = engine(&[("lister", &source), GOOD_CARD], &[]);
    let (result, _, lines) = logged(&engine, "lister");
    result.unwrap_or_else(|e| panic!("{e}"));
    let mut reached: Vec<&str> = lines.iter().map(String::as_str).collect();
    reached.sort_unstable();
    let readme =
        std::fs::read_to_string(ContentRoot::new(env!("CARGO_MANIFEST_DIR")).path().join("cards/README.md")).unwrap();
    let section = readme.split("## The script library").nth(1).expect("cards/README.md has the section");
    let section = section.split("\n## ").next().unwrap();
    // Each row's first cell names functions in backquotes.
    let mut documented: Vec<&str> = section
        .lines()
        .filter(|l| l.starts_with("| `"))
        .filter_map(|l| l.split('|').nth(1))
        .flat_map(|cell| cell.split('`').skip(1).step_by(2))
        .filter(|name| name.contains('.'))
        .map(|name| name.split('(').next().unwrap())
        .collect();
    documented.sort_unstable();
    assert_eq!(reached, documented, "cards/README.md lists exactly the library");
}

// ---- every game ends ----

#[test]
fn when_every_option_fails_the_step_is_given_up_and_play_goes_on() {
    use alien_checkers::game::GameState;
    // A card that always fails, alone face up: discarded unused, the turn goes on.
    let broken = play("  error('always broken')");
    let fragile = "function play(ctx)\n  ctx:add_effect{ lasts = 'game' }\nend\n\
                   function on_moved(ctx, event)\n  error('fragile breaks')\nend\n";
    let engine = engine(&[("broken", &broken), ("fragile", fragile), GOOD_CARD], &[]);
    let id = crate::hostile_scripts::card(&engine, "broken");
    let mut state = GameState::new(&engine.content().setup(), 7);
    state.hidden_mut().piles.face_up = [id].into_iter().collect();
    state.position_mut().step = Step::Card;
    let mover = state.to_move;
    assert!(state.apply(&engine, &Choice::Card(id)).is_err());
    state.apply(&engine, &Choice::GiveUp).unwrap_or_else(|e| panic!("{e}"));
    assert!(state.piles().discard.contains(&id), "the broken card is discarded");
    assert!(state.to_move != mover && matches!(state.step, Step::Move), "the next turn began: {:?}", state.step);
    // While an option works, giving up is refused.
    assert!(state.clone().apply(&engine, &Choice::GiveUp).is_err());
    // A lasting effect whose handler fails on every move: removed, then the move plays.
    let (result, mut state) = use_card(&engine, "fragile");
    result.unwrap_or_else(|e| panic!("{e}"));
    let mv = state.pending(&engine).expect("a move").options[0].clone();
    assert!(matches!(state.clone().apply(&engine, &mv), Err(GameError::EffectFailed { .. })));
    state.apply(&engine, &Choice::GiveUp).unwrap_or_else(|e| panic!("{e}"));
    assert!(state.effects.is_empty(), "the failing effect is removed");
    state.apply(&engine, &mv).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn a_game_against_a_broken_deck_reaches_its_end_in_the_repl() {
    let root = common::scratch_content(
        "broken-deck",
        &[("broken", "function play(ctx)\n  error('always broken')\nend")],
        &[("a", "function check() return false end"), ("b", "function check() return false end")],
    );
    let deck = root.path().join("cards/decks/test.yaml");
    let run = common::run_binary(
        root.path(),
        &["--deck", deck.to_str().unwrap(), "--seed", "3", "--dark", "random", "--light", "random"],
        &[],
        "",
    );
    assert!(run.stdout.contains("gives up this step"), "{}", &run.stdout[run.stdout.len().saturating_sub(2000)..]);
    assert!(!run.stdout.contains("the game stops here"), "{}", &run.stdout[run.stdout.len().saturating_sub(2000)..]);
    assert!(run.stdout.contains("wins") || run.stdout.contains("drawn"), "the game ended");
}

/// A planet whose check always fails with `word` in its message.
fn failing_planet(word: &str) -> String {
    format!("function check(ctx, player)\n  error('{word}')\nend\n")
}

#[test]
fn a_secret_planets_failure_is_told_only_to_its_holder() {
    // Issue "no clock decides a game", item 12: the REPL printed "script
    // problem: planet …" for the computer's planet too, giving it away (R2.3).
    let (mine, theirs) = (failing_planet("alpha-breaks"), failing_planet("beta-breaks"));
    let root =
        common::scratch_content("secret-failure", &[("good", GOOD_CARD.1)], &[("alpha", &mine), ("beta", &theirs)]);
    let dir = common::scratch_dir("hostile_mods", "secret_failure");
    for seed in ["1", "2", "3"] {
        let args = ["--root", root.path().to_str().unwrap(), "--deck", "test", "--seed", seed, "--light", "random"];
        let run = common::run_binary(&dir, &args, &[], "planet\nc3-d4\nquit\n");
        let dark_holds = if run.stdout.contains("secret planet is alpha") { "alpha" } else { "beta" };
        let (own, other) = if dark_holds == "alpha" { ("alpha", "beta") } else { ("beta", "alpha") };
        assert!(run.stdout.contains(&format!("{own}-breaks")), "seed {seed}: the holder is told: {}", run.stdout);
        assert!(
            !run.stdout.contains(&format!("{other}-breaks")),
            "seed {seed}: the opponent's planet leaks: {}",
            run.stdout
        );
    }
}

/// The messages card `body` fails with, each run in a fresh engine (a fresh
/// Lua state, whose table order follows a hash seed of its own).
fn failures_in_fresh_engines(body: &str) -> std::collections::BTreeSet<String> {
    let source = play(body);
    (0..12).map(|_| failure(&engine(&[("keys", &source), GOOD_CARD], &[]), "keys")).collect()
}

#[test]
fn pairs_refuses_keys_without_order_the_same_way_whatever_the_hash_seed() {
    // Issue "no clock decides a game", item 5: `pairs` raised at the first
    // table or function key `next` met, so pcall read a coin flipped by the
    // Lua state's hash seed.
    let body = "  local t = { [{}] = 1, [function() end] = 2, [{}] = 3, [function() end] = 4, a = 5 }\n  \
                local ok, e = pcall(function() for k in pairs(t) do end end)\n  error(e)";
    let seen = failures_in_fresh_engines(body);
    assert_eq!(seen.len(), 1, "one message whatever the order: {seen:#?}");
    assert!(seen.iter().all(|m| m.contains("function or table keys has no fixed order")), "{seen:#?}");
}

#[test]
fn setmetatable_refuses_the_same_metamethod_whatever_the_hash_seed() {
    let body = "  local f = function() end\n  \
                local ok, e = pcall(setmetatable, {}, { __gc = f, __mode = 'k', __close = f, __index = {} })\n  \
                error(e)";
    let seen = failures_in_fresh_engines(body);
    assert_eq!(seen.len(), 1, "one message whatever the order: {seen:#?}");
    assert!(seen.iter().all(|m| m.contains("__close metamethods are not allowed")), "{seen:#?}");
}

#[test]
fn a_stop_inside_a_tail_call_names_the_cards_file() {
    // The tail call replaces the script's frame with the library's, so no
    // line of the script is on the stack when the charge stops the run: the
    // message named "?" instead of the card's file.
    let m = refused("tailrep", "  return string.rep('', 2^62)", "ran too long");
    assert!(m.contains("tailrep.lua"), "names the card's file: {m}");
}
