//! Limits that are the same on every machine and in every history (issue 36):
//! a run resumed at an answer counts as one run afresh with it, no wall clock
//! decides a game, and the time guard only ever stops the engine's work.

use alien_checkers::game::{Answer, Resolution};
use alien_checkers::script::{Accelerators, Budgets, ScriptEngine};
use alien_checkers::session::{Session, SessionError};

use crate::hostile_scripts::{at_card_step, card, engine};

/// Asks two numbers, then loops `1000 + 40 a + b` times: across the answers
/// the run ends anywhere from well inside its budget to well past it, at
/// every phase of the hook's period.
const BURNER: &str = "local function digits()\n  local t = {}\n  for i = 0, 39 do t[#t + 1] = tostring(i) end\n  return t\nend\n\
function play(ctx)\n  local a = tonumber(ctx:ask_option('tens', digits()))\n  local b = tonumber(ctx:ask_option('ones', digits()))\n\
  local x = 0\n  for i = 1, 1000 + 40 * a + b do x = x + i end\n  ctx:log('sum ' .. x)\nend";

fn burner_engine(resume: bool) -> ScriptEngine {
    let mut engine = engine(&[("burner", BURNER)], &[]);
    engine.set_budgets(Budgets { card: 5_000, ..Budgets::default() });
    engine.set_accelerators(Accelerators { resume, ..Accelerators::default() });
    engine
}

/// What a resolution comes to: the log line or the failure.
fn outcome(run: alien_checkers::script::CardRun) -> String {
    match run.resolution {
        Resolution::Done(_) => run.log.join("; "),
        Resolution::Failed(message) => message,
        Resolution::Ask(q) => panic!("asked '{}' again", q.prompt),
    }
}

#[test]
fn a_run_resumed_at_its_answers_counts_exactly_as_a_run_afresh() {
    // Item 4: the same answers, two ways: continuing the run suspended at each
    // question, and running the card afresh with every answer (as after
    // `hint`, or when the search ran scripts in between).
    let (resuming, fresh) = (burner_engine(true), burner_engine(false));
    let state = at_card_step(&resuming);
    let burner = card(&resuming, "burner");
    let number = |n: u32| Answer::Option(n.to_string().into());
    let (mut finished, mut stopped) = (0, 0);
    for a in 0..40 {
        for b in 0..40 {
            let answers = [number(a), number(b)];
            for asked in 0..2 {
                let run = resuming.run_card(&state, burner, &answers[..asked]);
                assert!(matches!(run.resolution, Resolution::Ask(_)), "{a} {b}: question {}", asked + 1);
            }
            let resumed = outcome(resuming.run_card(&state, burner, &answers));
            let afresh = outcome(fresh.run_card(&state, burner, &answers));
            assert_eq!(resumed, afresh, "answers {a} and {b}");
            if resumed.starts_with("sum") { finished += 1 } else { stopped += 1 }
        }
    }
    assert_eq!(resuming.shortcuts_taken().resumed, 2 * 40 * 40, "every answer resumed the run");
    assert!(
        finished > 100 && stopped > 100,
        "the budget falls inside the range: {finished} finished, {stopped} stopped"
    );
}

#[test]
fn the_time_guard_stops_the_engines_work_and_changes_no_decision() {
    // Items 1 to 3: the wall clock decides nothing; it only guards against a
    // bug in the metering. Here the budget is made endless to stand for such
    // a bug: the planet check runs until the guard stops it, and from then on
    // the session refuses to work, naming the script, with the game as it was.
    let endless = "function check(ctx, player)\n  while true do end\nend";
    let root = crate::hostile_scripts::content(
        &[crate::hostile_scripts::GOOD_CARD],
        &[("endless", endless), ("never", crate::hostile_scripts::NEVER)],
    );
    let mut session = Session::new(&root, "test", 5).expect("the deck loads");
    let before = (session.state().digest(), session.history().len());
    let first = session.pending().expect("a decision").options[0].clone();
    let guard = std::time::Duration::from_millis(100);
    session.set_budgets(Budgets { check: u64::MAX / 2, time_guard: guard, ..Budgets::default() });
    let broken = session.apply(&first).expect_err("the guard stopped the engine");
    let SessionError::Broken(message) = &broken else { panic!("{broken:?}") };
    assert!(message.contains("endless.lua:2") && message.contains("time guard"), "{message}");
    assert_eq!((session.state().digest(), session.history().len()), before, "nothing of the decision was kept");
    assert_eq!(session.apply(&first), Err(broken), "the engine stays stopped");
}

/// Cards and planets that spend their limits every way there is: the budget
/// (cards, a planet's check, a question's answers), the bytes of `..`, and a
/// deal hook that does almost a whole budget's work.
fn hostile_deck() -> alien_checkers::content::ContentRoot {
    let cards = [
        ("burn", "function play(ctx)\n  while true do end\nend"),
        ("asker", BURNER),
        (
            "joiner",
            "function play(ctx)\n  local s = string.rep('x', 1 << 20)\n  for i = 1, 100 do local t = s .. s end\nend",
        ),
        (
            "begins",
            "function game_begins(ctx)\n  local x = 0\n  for i = 1, 2000000 do x = x + i end\n  ctx:log('begun ' .. x)\nend\n\
             function play(ctx)\n  ctx:place_terrain('d4', 'water')\nend",
        ),
        crate::hostile_scripts::GOOD_CARD,
    ];
    let planets = [
        (
            "heavy",
            "function check(ctx, player)\n  local x = 0\n  for i = 1, 200000 do x = x + i end\n  return false\nend",
        ),
        ("endless", "function check(ctx, player)\n  while true do end\nend"),
    ];
    let root = crate::hostile_scripts::content(&cards, &planets);
    // Short games: every decision runs the planets' checks to their budgets.
    let deck = root.path().join("cards/decks/test.yaml");
    let text = std::fs::read_to_string(&deck).unwrap().replace("move_limit: 200", "move_limit: 30");
    std::fs::write(&deck, text).unwrap();
    root
}

/// A game played with the hostile deck, saved and loaded again, and a
/// simulation over it: the save's bytes, the loaded game's log, the report's.
fn play_everything(root: &alien_checkers::content::ContentRoot, tag: &str) -> (String, String, String) {
    use alien_checkers::game::Choice;
    use alien_checkers::simulate::{Plan, Sinks, run, write_report};
    let mut session = Session::new(root, "test", 17).expect("the deck deals");
    for turn in 0..40 {
        let Some(decision) = session.pending() else { break };
        let options = decision.options.clone();
        let picked = (0..options.len()).map(|i| &options[(turn * 7 + i) % options.len()]).cloned().find_map(|o| {
            let applied = session.apply(&o);
            assert!(!matches!(applied, Err(SessionError::Broken(_))), "{applied:?}");
            applied.ok()
        });
        if picked.is_none() {
            session.apply(&Choice::GiveUp).expect("a step whose options all fail is given up");
        }
    }
    let dir = std::env::temp_dir().join(format!("alien-metering-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("game.json");
    session.save(&save, Default::default()).expect("saved");
    let (loaded, replay, _) = Session::load(root, &save).expect("the save loads");
    assert!(replay.diverged.is_none() && replay.differs.is_none(), "{replay:?}");
    let log = loaded.history().iter().map(|d| d.line.as_str()).collect::<Vec<_>>().join("\n");
    let mut plan = Plan::new(root.clone(), "test", "random", "random", 4, 3);
    plan.threads = 1;
    let report = run(&plan, Sinks::none()).expect("the games are played");
    let out = dir.join("report.json");
    write_report(&out, &report).expect("written");
    (std::fs::read_to_string(&save).unwrap(), log, std::fs::read_to_string(&out).unwrap())
}

#[test]
fn the_same_hostile_games_on_an_idle_and_a_loaded_machine_are_byte_identical() {
    // Issue 36: nothing a game does depends on how busy the machine is.
    let root = hostile_deck();
    let idle = play_everything(&root, "idle");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let spinners: Vec<_> = (0..2)
        .map(|_| {
            let stop = std::sync::Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            })
        })
        .collect();
    let loaded = play_everything(&root, "loaded");
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    spinners.into_iter().for_each(|s| s.join().unwrap());
    assert_eq!(idle.0, loaded.0, "the saves");
    assert_eq!(idle.1, loaded.1, "the replayed games");
    assert_eq!(idle.2, loaded.2, "the simulation reports");
}
