//! One game everywhere: the engine, the search's view of it (`Recall`) and the
//! simulator's (`SimHost`) list the same options at every decision, on every
//! shipped deck and on a test deck whose moves come partly from scripts
//! (tests/data/offers: a capture in place that ends on its start square, a
//! checker leaving the board, steps across the side edges, a card that grants
//! a move), on two whose rules forbid moves (tests/data/forbid) and on one
//! whose ends a rule scores (tests/data/endings); a game `simulate` plays saves and replays as the same game; and
//! offered moves are moves for the engine's own rules (R4.3, R10.3).

use std::path::{Path, PathBuf};

use alien_checkers::ai::{Agent, GreedyAgent, MctsAgent, RandomAgent, Recall, SearchConfig};
use alien_checkers::content::ContentRoot;
use alien_checkers::game::{CardHost, Choice, Decision, GameState, Step};
use alien_checkers::kernel::{Player, Square};
use alien_checkers::script::ScriptEngine;
use alien_checkers::session::Session;
use alien_checkers::simulate::{self, Plan, SimHost};

use crate::common;

const SHIPPED: [&str; 14] = [
    "standard",
    "plain",
    "monolith_mayhem",
    "nightmare",
    "moons",
    "hyperspace",
    "russian",
    "brazilian",
    "italian",
    "turkish",
    "offers",
    "endings",
    "truce",
    "sanctuary",
];

fn offers_deck() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/offers/cards/decks/offers.yaml")
}

/// The deck's engine: a shipped deck by name, `offers`, `endings`, `truce`
/// and `sanctuary` from their test roots.
fn engine(deck: &str) -> ScriptEngine {
    if deck == "truce" || deck == "sanctuary" {
        return crate::move_hooks::forbid_deck(deck);
    }
    if deck == "offers" || deck == "endings" {
        let path = if deck == "offers" { offers_deck() } else { crate::endings::deck("endings") };
        let root = ContentRoot::for_deck(None, path.to_str().unwrap()).unwrap();
        return ScriptEngine::load(&root, path.to_str().unwrap()).unwrap_or_else(|p| panic!("{p}"));
    }
    ScriptEngine::load(&ContentRoot::new(env!("CARGO_MANIFEST_DIR")), deck).unwrap_or_else(|p| panic!("{p}"))
}

fn options(state: &GameState, host: &dyn CardHost) -> Option<Decision> {
    state.pending(host)
}

/// Plays a game with `agent` on both sides, comparing at every decision what
/// the engine, the search's view and the simulator's view offer. Returns how
/// many decisions offered a move no kernel generator lists.
fn differential_game(engine: &ScriptEngine, seed: u64, agent: &mut dyn Agent) -> usize {
    let recall = Recall::new(engine);
    let sim = SimHost::new(engine, None);
    let mut state = GameState::deal(&engine.content().setup(), seed, engine);
    state.settle(engine).unwrap();
    let mut offered = 0;
    for n in 0..2000 {
        let Some(decision) = options(&state, engine) else { break };
        assert_eq!(options(&state, &recall).as_ref(), Some(&decision), "seed {seed}, decision {n}: search's view");
        assert_eq!(options(&state, &sim).as_ref(), Some(&decision), "seed {seed}, decision {n}: simulator's view");
        if matches!(state.step, Step::Move) {
            let kernel = state.kernel_moves();
            offered +=
                usize::from(decision.options.iter().any(|c| matches!(c, Choice::Move(m) if !kernel.contains(m))));
            assert_eq!(state.capture_due(engine), state.capture_due(&recall));
        }
        let choice = agent.choose(&state, &recall).expect("a pending decision has a choice");
        state.apply_or_fall_back(engine, &choice).unwrap_or_else(|e| panic!("seed {seed}, decision {n}: {e}"));
    }
    assert!(state.outcome().is_some(), "seed {seed}: every game ends");
    offered
}

#[test]
fn the_engine_the_search_and_the_simulator_offer_the_same_options() {
    for deck in SHIPPED {
        let engine = engine(deck);
        let mut offered = 0;
        for seed in 0..4u64 {
            offered += differential_game(&engine, seed, &mut RandomAgent::new(seed));
            offered += differential_game(&engine, 100 + seed, &mut GreedyAgent::new(seed));
        }
        if deck == "offers" {
            assert!(offered > 20, "the test deck's scripts offered moves at {offered} decisions only");
        }
    }
}

/// Every game of a `simulate` run on `deck` saves and replays as the same game.
fn saves_and_replays(deck: &str, root: ContentRoot, games: std::ops::Range<u32>) {
    let plan = Plan::new(root.clone(), deck, "random", "random", games.end, 1);
    let dir = common::scratch_dir("one_game", &format!("saves-{}-{}", games.start, games.end));
    for index in games {
        let path = dir.join(format!("{index}.json"));
        let row = simulate::save_game(&plan, index, &path).unwrap_or_else(|e| panic!("{deck}, game {index}: {e}"));
        let (session, replay, _) = Session::load(&root, &path).unwrap_or_else(|e| panic!("{deck}, game {index}: {e}"));
        assert!(replay.same_game(), "{deck}, game {index}: {replay:?}");
        assert_eq!(session.decisions().len() as u32, row.decisions, "{deck}, game {index}");
        assert!(session.outcome().is_some(), "{deck}, game {index} ended");
    }
}

#[test]
fn every_simulated_hyperspace_game_saves_and_replays() {
    let root = ContentRoot::new(env!("CARGO_MANIFEST_DIR"));
    std::thread::scope(|s| {
        let (a, b) = (root.clone(), root.clone());
        s.spawn(move || saves_and_replays("hyperspace", a, 0..100));
        s.spawn(move || saves_and_replays("hyperspace", b, 100..200));
    });
}

#[test]
fn every_simulated_game_of_the_offers_deck_saves_and_replays() {
    let path = offers_deck();
    let root = ContentRoot::for_deck(None, path.to_str().unwrap()).unwrap();
    saves_and_replays(path.to_str().unwrap(), root, 0..40);
}

// ---- offered moves are moves ----

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// Dark to move on `board` in the offers deck (its Strike rule in force).
fn offers_position(board: &str) -> (ScriptEngine, GameState) {
    let engine = engine("offers");
    let mut state = GameState::deal(&engine.content().setup(), 5, &engine);
    state.position_mut().board = common::board(board);
    state.position_mut().step = Step::Move;
    state.position_mut().to_move = Player::Dark;
    (engine, state)
}

const STRIKE: &str = "
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    | l  | 8
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 7
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 6
+----+----+----+----+----+----+----+----+
|    |    |    |    | l  |    |    |    | 5
+----+----+----+----+----+----+----+----+
|    |    |    | d  |    |    |    |    | 4
+----+----+----+----+----+----+----+----+
|    |    |    |    | d  |    | l  |    | 3
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 2
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 1
+----+----+----+----+----+----+----+----+
";

#[test]
fn an_offered_capture_is_compulsory_and_may_end_where_it_began() {
    // d4 can strike e5 in place; no kernel capture is possible (f6 is empty
    // but e5 is Light's and d4xf6 is a kernel capture: so empty f6 first).
    let (engine, state) = offers_position(STRIKE);
    let options: Vec<String> = state.move_options(&engine).iter().map(ToString::to_string).collect();
    // The kernel's capture d4xf6 and the strike d4xe5xd4, and no step (R4.3).
    assert!(options.contains(&"d4xe5xd4".to_string()), "{options:?}");
    assert!(options.iter().all(|m| m.contains('x')), "a capture is due, steps are not options: {options:?}");
    let mut played = state.clone();
    let strike = state.move_options(&engine).into_iter().find(|m| m.to_string() == "d4xe5xd4").unwrap();
    played.apply(&engine, &Choice::Move(strike)).unwrap();
    assert!(played.board.is_empty(sq("e5")), "the strike took e5");
    assert_eq!(played.board.owner(sq("d4")), Some(Player::Dark), "the striker stayed on d4");
    assert_eq!(played.board.checkers(Player::Light).count(), 2);
}

#[test]
fn an_offered_capture_alone_makes_a_capture_due() {
    // e3 strikes nothing, d4's only capture is the strike of e5 with f6 taken:
    // a Light checker on f6 blocks the kernel's jump.
    let board =
        STRIKE.replace("|    |    |    |    |    |    |    |    | 6", "|    |    |    |    |    | l  |    |    | 6");
    let (engine, state) = offers_position(&board);
    assert!(!state.kernel_capture_due(), "no kernel capture");
    assert!(state.capture_due(&engine), "the strike is a capture that is due (R4.3)");
    let options: Vec<String> = state.move_options(&engine).iter().map(ToString::to_string).collect();
    assert_eq!(options, ["d4xe5xd4"]);
}

#[test]
fn not_a_draw_while_the_opponent_has_an_offered_move_r10_3() {
    // Dark's checkers are all frozen (R4.7): Dark cannot move. Light's e5 has
    // no kernel move either (both steps blocked, both jumps too), but it may
    // strike d4 or f4: neither-can-move (R10.3) does not hold, Dark's step is skipped.
    let board = "
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 8
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 7
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 6
+----+----+----+----+----+----+----+----+
|    |    |    |    | l  |    |    |    | 5
+----+----+----+----+----+----+----+----+
|    |    |    | dh |    | dh |    |    | 4
+----+----+----+----+----+----+----+----+
|    |    | dh |    |    |    | dh |    | 3
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 2
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 1
+----+----+----+----+----+----+----+----+
";
    let (engine, mut state) = offers_position(board.replace("dh", "d ").as_str());
    let supply = alien_checkers::kernel::Supply { hippos: 4, ..alien_checkers::kernel::Supply::STANDARD };
    state.position_mut().board = common::board_with(board, supply, alien_checkers::kernel::Crowning::FromReserve);
    assert!(!state.has_move(&engine), "Dark cannot move");
    state.settle(&engine).unwrap();
    assert_eq!(state.outcome(), None, "Light's offered strike is a move: no R10.3 draw");
    let mut light = state.clone();
    light.position_mut().to_move = Player::Light;
    light.position_mut().step = Step::Move;
    let options: Vec<String> = light.move_options(&engine).iter().map(ToString::to_string).collect();
    assert_eq!(options, ["e5xf4xe5", "e5xd4xe5"], "Light's moves are its strikes");
}

#[test]
fn a_card_that_grants_a_move_grants_offered_moves_too() {
    // Again (as Second move, R8.9) after c3-d4: e3's strike of f4 is the one
    // move the card may grant (g5 blocks the kernel's jump; a capture is due,
    // R4.3), so it is played without asking.
    let board = "
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    | l  | 8
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 7
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 6
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    | l  |    | 5
+----+----+----+----+----+----+----+----+
|    |    |    | d  |    | l  |    |    | 4
+----+----+----+----+----+----+----+----+
|    |    |    |    | d  |    |    |    | 3
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 2
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 1
+----+----+----+----+----+----+----+----+
";
    let (engine, mut state) = offers_position(board);
    let again = engine.content().card_id("again").unwrap();
    state.position_mut().step = Step::Card;
    state.hidden_mut().piles.face_up = [again].into_iter().collect();
    state.position_mut().moved = Some(alien_checkers::game::Moved { start: sq("c3"), now: sq("d4") });
    state.apply(&engine, &Choice::Card(again)).unwrap();
    assert!(state.board.is_empty(sq("f4")), "Again struck f4");
    assert_eq!(state.board.owner(sq("e3")), Some(Player::Dark), "the striker stayed on e3");
    assert_eq!(state.board.owner(sq("d4")), Some(Player::Dark), "the checker moved this turn did not move again");
}

#[test]
fn normal_takes_material_with_an_offered_capture() {
    // Both captures take e5, but the kernel's d4xf6 lands where g7 takes it
    // back; the strike d4xe5xd4 wins the checker for nothing.
    let board = "
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    | l  | 8
+----+----+----+----+----+----+----+----+
| l  |    |    |    |    |    | l  |    | 7
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 6
+----+----+----+----+----+----+----+----+
|    |    |    |    | l  |    |    |    | 5
+----+----+----+----+----+----+----+----+
|    |    |    | d  |    |    |    |    | 4
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 3
+----+----+----+----+----+----+----+----+
|    |    |    |    |    |    |    |    | 2
+----+----+----+----+----+----+----+----+
|    |    | d  |    |    |    |    |    | 1
+----+----+----+----+----+----+----+----+
";
    let (engine, state) = offers_position(board);
    let options: Vec<String> = state.move_options(&engine).iter().map(ToString::to_string).collect();
    assert_eq!(options, ["d4xf6", "d4xe5xd4"]);
    let config = SearchConfig { iterations: 1500, ..SearchConfig::level(alien_checkers::ai::Level::Normal) };
    let mut normal = MctsAgent::new(config, Vec::new(), 3);
    let choice = normal.choose(&state, &engine).unwrap();
    assert_eq!(choice.to_string(), "d4xe5xd4", "normal takes the checker the strike wins");
}

// ---- every game ends ----

#[test]
fn a_card_whose_effect_fails_by_its_own_making_is_given_up_not_retried() {
    // Curse makes an effect that fails at the end of the turn that made it:
    // the use is refused, and giving up must not find "nothing to remove"
    // and ask the same decision again (that looped forever).
    let (engine, mut state) = offers_position(STRIKE);
    let curse = engine.content().card_id("curse").unwrap();
    state.position_mut().step = Step::Card;
    state.hidden_mut().piles.face_up = [curse].into_iter().collect();
    assert!(state.clone().apply(&engine, &Choice::Card(curse)).is_err(), "every use of Curse fails");
    let (applied, refused) = state.apply_or_fall_back(&engine, &Choice::Card(curse)).unwrap();
    assert_eq!((applied, refused), (Choice::GiveUp, 1));
    assert!(state.piles().discard.contains(&curse), "the card is discarded unused");
    assert!(state.effects.iter().all(|e| e.card != curse), "no cursed effect is left in force");
    assert_eq!(state.to_move, Player::Light, "play went on to Light's turn");
}

#[test]
fn giving_up_the_effect_that_offered_the_only_moves_goes_on_to_the_end() {
    // Found by the scripts fuzz target's generated decks: a deck's rule
    // offers the only moves (pawns here neither step nor capture), and its
    // handler fails on each. Giving up removes the rule; the move step was
    // then left pending with no option at all, and the game could not go on.
    let root = common::scratch_dir("one-game", "only-offers");
    std::fs::create_dir_all(root.join("cards/decks")).unwrap();
    std::fs::create_dir_all(root.join("planets")).unwrap();
    let leave = "function extra_moves(ctx, effect)\n  local moves = {}\n  \
                 for _, sq in ipairs(ctx:checker_squares{ owner = ctx:player() }) do\n    \
                 moves[#moves + 1] = { path = { sq }, off = true }\n  end\n  return moves\nend\n\
                 function on_removed(ctx, event, effect)\n  error('the exit is shut')\nend\n";
    std::fs::write(root.join("cards/leave.yaml"), "name: Leave\ntext: checkers may leave the board\n").unwrap();
    std::fs::write(root.join("cards/leave.lua"), leave).unwrap();
    let deck = "name: test\ncards: {}\nplanets: []\neffects: [leave]\n\
                rules:\n  crowning: free\n  cards: false\n  five_kings_win: false\n  when_stuck: lose\n  \
                move_limit: 200\n  moves: {pawns: {steps: none, captures: none}}\n";
    std::fs::write(root.join("cards/decks/test.yaml"), deck).unwrap();
    let engine = ScriptEngine::load(&ContentRoot::new(&root), "test").unwrap_or_else(|p| panic!("{p}"));
    let mut state = GameState::deal(&engine.content().setup(), 1, &engine);
    state.settle(&engine).unwrap();
    let options = state.pending(&engine).expect("a move to make").options;
    assert_eq!(options.len(), 12, "each checker may leave, and nothing else moves: {options:?}");
    let (applied, refused) = state.apply_or_fall_back(&engine, &options[0]).unwrap();
    assert_eq!((applied, refused), (Choice::GiveUp, 12));
    assert!(state.effects.is_empty(), "the failing rule is removed");
    assert_eq!(state.pending(&engine).map(|d| d.options), None, "no decision is left without options");
    let outcome = state.outcome().expect("Dark cannot move, and loses");
    assert_eq!(outcome.winner, Some(Player::Light), "{outcome:?}");
}

#[test]
fn games_with_a_card_that_always_fails_all_end() {
    let engine = engine("offers");
    for seed in 0..6u64 {
        let mut dark = RandomAgent::new(seed);
        let mut light = RandomAgent::new(seed + 50);
        let record = alien_checkers::ai::play_game(&engine.content().setup(), &engine, &mut dark, &mut light, seed);
        assert!(
            matches!(record.end, alien_checkers::ai::GameEnd::Over(_)),
            "seed {seed}: {:?} after {} decisions",
            record.end,
            record.decisions
        );
    }
}

#[test]
fn the_test_decks_scenarios_pass() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/offers");
    let content = ContentRoot::new(&root);
    for file in ["planets/dusk.test.yaml", "cards/strike.test.yaml"] {
        for outcome in alien_checkers::scenario::run_file(&content, &root.join(file)) {
            assert!(outcome.failure.is_none(), "{file}: {}: {:?}", outcome.name, outcome.failure);
        }
    }
}

#[test]
fn simulate_gives_up_as_the_table_does_and_abandons_nothing() {
    // The test deck's Curse fails at every use; `simulate` used to abandon
    // every game where a player picked it and leave those out of every rate.
    let path = offers_deck();
    let root = ContentRoot::for_deck(None, path.to_str().unwrap()).unwrap();
    let mut plan = Plan::new(root, path.to_str().unwrap(), "random", "greedy", 30, 4);
    plan.threads = 1;
    let mut rows = Vec::new();
    simulate::run(&plan, simulate::Sinks { rows: Some(&mut rows), ..simulate::Sinks::none() }).unwrap();
    let rows: Vec<_> = String::from_utf8(rows).unwrap().lines().map(|l| simulate::read_row(l).unwrap()).collect();
    assert_eq!(rows.len(), 30);
    // A use of Curse never finishes, so it is not counted as a use. Before
    // giving up was shared, all 30 of these games were abandoned at a Curse.
    for row in &rows {
        assert!(!row.end.is_abandoned(), "game {}: {}", row.index, row.end);
    }
}
