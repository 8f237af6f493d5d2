//! Planets and decks that remember and react (cards/README.md, "Planets that
//! remember", "A deck's own rules", "At the deal"): Io's tally across a save
//! and a load, a planet's data kept secret from the other player, `game_begins`
//! hooks at the deal, and when an effect hears the turn it was made in.

use alien_checkers::ai::Observation;
use alien_checkers::game::{Choice, Datum, GameState, Step};
use alien_checkers::kernel::Player;
use alien_checkers::session::Session;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use crate::common;
use crate::hostile_scripts::engine;

/// The kings Io's holder has taken, by its own data.
fn kings(state: &GameState, holder: Player) -> i64 {
    match state.planet_data().of(holder).get("kings") {
        Some(Datum::Int(n)) => *n,
        _ => 0,
    }
}

/// Io keeps its tally in its planet's data, which a save keeps and a load
/// rebuilds: the game goes on the same way after the load, to the same end.
#[test]
fn io_counts_kings_across_a_save_and_a_load() {
    let root = common::repo();
    let dir = common::scratch_dir("mods", "io");
    let io = alien_checkers::game::PlanetId(9);
    let mut tried = 0;
    for seed in 0..400u64 {
        let mut session = Session::new(&root, "moons", seed).unwrap();
        assert_eq!(session.engine.content().planet(io).map(|p| p.id.as_str()), Some("io"));
        let Some(holder) = Player::BOTH.into_iter().find(|&p| session.state().planet(p) == Some(io)) else { continue };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let pick = |session: &Session, rng: &mut ChaCha8Rng| -> Option<Choice> {
            let decision = session.state().pending(&session.engine)?;
            Some(decision.options[(rng.next_u32() as usize) % decision.options.len()].clone())
        };
        // Play until Io has counted a king, with the game still going.
        while kings(session.state(), holder) == 0 {
            let Some(choice) = pick(&session, &mut rng) else { break };
            session.apply(&choice).unwrap();
        }
        if kings(session.state(), holder) == 0 || session.state().outcome().is_some() {
            continue;
        }
        tried += 1;
        let file = dir.join(format!("io-{seed}.json"));
        session.save(&file, Default::default()).unwrap();
        let (mut loaded, replay, _) = Session::load(&root, &file).unwrap();
        assert!(replay.same_game(), "seed {seed}");
        assert_eq!(loaded.state(), session.state(), "seed {seed}: the load rebuilds the planet's data too");
        assert_eq!(loaded.state().digest(), session.state().digest());
        while let Some(choice) = pick(&session, &mut rng) {
            session.apply(&choice).unwrap();
            loaded.apply(&choice).unwrap();
            assert_eq!(loaded.state().planet_data(), session.state().planet_data(), "seed {seed}");
        }
        assert_eq!(loaded.state().outcome(), session.state().outcome());
        if tried == 3 {
            return;
        }
    }
    panic!("only {tried} games of the moons deck had Io count a king");
}

/// A planet's data is its holder's secret (R2.3): what the other player may
/// know of the game blanks it, as it blanks the planet.
#[test]
fn a_planets_data_is_secret_with_the_planet() {
    let root = common::repo();
    let session = Session::new(&root, "moons", 1).unwrap();
    let mut state = session.state().clone();
    let io = session.engine.content().planet_id("io").unwrap();
    state.hidden_mut().planets = [Some(io), None];
    state.hidden_mut().planet_data.set(Player::Dark, [("kings".to_string(), Datum::Int(2))].into_iter().collect());
    let theirs = Observation::new(&state, Player::Light);
    assert!(theirs.state().planet_data().of(Player::Dark).is_empty(), "Light cannot read Dark's planet's data");
    let mine = Observation::new(&state, Player::Dark);
    assert_eq!(mine.state().planet_data().of(Player::Dark).get("kings"), Some(&Datum::Int(2)));
}

/// `game_begins` runs at the deal: a card's (in the deck's order) may change
/// the game, and a planet's sets its own data; a hook that fails is told and
/// left out, and the game starts all the same.
#[test]
fn game_begins_runs_at_the_deal_and_a_broken_one_is_left_out() {
    let setter = "function play(ctx) end\nfunction game_begins(ctx)\n  ctx:place_terrain('d4', 'water')\nend";
    let broken = "function play(ctx) end\nfunction game_begins(ctx)\n  error('no')\nend";
    let planet = "function game_begins(ctx, player)\n  ctx:set_planet_data{ started = player }\nend\n\
        function check(ctx, player) return ctx:planet_data().started == 'nobody' end";
    let engine = engine(&[("setter", setter), ("broken", broken)], &[("starter", planet), ("other", planet)]);
    let setup = engine.content().setup();
    let mut state = GameState::new(&setup, 3);
    *state.journal_mut() = alien_checkers::game::EventLog::recording();
    state.begin(&setup, &engine);
    assert!(state.board.terrain_at(common::sq("d4")).is_some(), "the setter's hook ran");
    let told: Vec<String> = state
        .journal_mut()
        .take()
        .into_iter()
        .filter_map(|e| match e.event {
            alien_checkers::game::Event::Game(alien_checkers::game::GameEvent::Message { text, .. }) => Some(text),
            _ => None,
        })
        .collect();
    assert!(told.iter().any(|t| t.contains("broken's game_begins is left out") && t.contains("no")), "{told:?}");
    for p in Player::BOTH {
        let want = Datum::Text(p.to_string().to_ascii_lowercase());
        assert_eq!(state.planet_data().of(p).get("started"), Some(&want), "{p}");
    }
    assert_eq!(state.step, Step::Move);
    assert!(state.pending(&engine).is_some(), "the game starts");
}

/// A lasting effect hears the end of the turn it was made in (cards/README.md,
/// "Triggers"): `lasts = {ends_at = "turn_ended"}` lasts to the end of this turn.
#[test]
fn an_effect_hears_the_end_of_the_turn_that_made_it() {
    let card = "function play(ctx)\n  ctx:add_effect{ lasts = 'game' }\nend\n\
        function on_turn_ended(ctx, event)\n  ctx:log('ended ' .. event.turn .. ' at ' .. ctx:turn())\nend";
    let engine = engine(&[("listener", card)], &[]);
    let mut state = crate::hostile_scripts::at_card_step(&engine);
    *state.journal_mut() = alien_checkers::game::EventLog::recording();
    let id = engine.content().card_id("listener").unwrap();
    state.apply(&engine, &Choice::Card(id)).unwrap();
    let told: Vec<String> = state
        .journal_mut()
        .take()
        .into_iter()
        .filter_map(|e| match e.event {
            alien_checkers::game::Event::Game(alien_checkers::game::GameEvent::Message { text, .. }) => Some(text),
            _ => None,
        })
        .collect();
    // Turn numbers are one base everywhere: the event's and ctx:turn() agree.
    assert_eq!(told, ["ended 1 at 1"], "the effect heard its own turn's end");
}
