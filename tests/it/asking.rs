//! Handlers that act and ask for the player concerned (cards/README.md,
//! "Acting and asking for the player concerned"), on the test content root
//! `tests/data/asking`: who decides a question put to the player not to move,
//! in saves, at the table (hot-seat) and for the computer; and what a script
//! that misnames a player is told.

use std::path::Path;

use alien_checkers::ai::{Agent, Budget, GreedyAgent, play_game};
use alien_checkers::content::ContentRoot;
use alien_checkers::game::{Answer, CardHost, Choice, DecisionKind, Event, GameEvent, GameState, Step};
use alien_checkers::kernel::Player;
use alien_checkers::script::ScriptEngine;
use alien_checkers::session::Session;

use crate::common;

fn root() -> ContentRoot {
    ContentRoot::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/asking"))
}

/// Applies `lines`, each typed as a player would, to the session.
fn play(session: &mut Session, lines: &[&str]) {
    for line in lines {
        let decision = session.pending().expect("a decision is pending").clone();
        let choice = alien_checkers::choice_text::read(session.engine.content(), &decision, line)
            .unwrap_or_else(|e| panic!("{line}: {e:?}"));
        session.apply(&choice).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
}

/// Dark captures on its second move (`d4xf6`); the toll asks Dark, then the
/// herald asks Light, whose checker was taken, in Dark's turn.
const TO_HERALD: [&str; 6] = ["c3-d4", "quiet", "f6-e5", "boast", "d4xf6", "quiet"];

#[test]
fn a_question_put_to_light_in_darks_turn_survives_a_save() {
    let mut session = Session::new(&root(), "asking", 5).unwrap();
    play(&mut session, &TO_HERALD);
    assert_eq!(session.state().to_move, Player::Dark);
    assert_eq!(session.decider(), Player::Light, "the herald's question is Light's");
    let Step::Resolving(r) = &session.state().step else { panic!("a question is pending") };
    assert_eq!(r.question.to, Some(Player::Light));
    // What one player was told is in that player's record only, never in the
    // game's own (`log`, `replay`).
    let record = |viewer| alien_checkers::narrate::record_text(&session.turns(viewer));
    assert!(!record(None).contains("toll") && !record(None).contains("Your word"), "{}", record(None));
    assert!(record(Some(Player::Light)).contains("\"Dark paid the toll\" (told to you only)"));
    assert!(!record(Some(Player::Light)).contains("Your word for the record: quiet"));
    let dir = common::scratch_dir("asking", "save");
    let path = dir.join("game.json");
    session.save(&path, Default::default()).unwrap();
    let (mut loaded, replay, _) = Session::load(&root(), &path).unwrap_or_else(|e| panic!("{e}"));
    assert!(replay.diverged.is_none() && replay.differs.is_none(), "{replay:?}");
    assert_eq!(loaded.digest(), session.digest());
    assert_eq!(loaded.decider(), Player::Light);
    assert_eq!(loaded.pending().map(|d| d.kind), Some(DecisionKind::Question));
    play(&mut loaded, &["mourn"]);
    play(&mut session, &["mourn"]);
    assert_eq!(loaded.digest(), session.digest());
    assert_eq!(loaded.decider(), Player::Light, "then Light's own turn");
    assert_eq!(loaded.state().to_move, Player::Light);
}

/// A rule acting for the mover keeps that in its effect, and a question keeps
/// whom it is put to; a deck without either saves as it did: a pending
/// question of a lasting effect (Vengeance, acting for its owner) has no
/// `to`, no `secret` and its effects no `acts_for`.
#[test]
fn the_new_fields_are_saved_only_when_used() {
    let mut session = Session::new(&root(), "asking", 5).unwrap();
    play(&mut session, &TO_HERALD);
    let json = serde_json::to_string(session.state()).unwrap();
    assert!(json.contains(r#""acts_for":"mover""#) && json.contains(r#""to":"light""#), "{json}");
    for seed in 0..400 {
        let mut session = Session::new(&common::repo(), "nightmare", seed).unwrap();
        let mut rng = 0usize;
        while let Some(decision) = session.pending().cloned() {
            if let Step::Resolving(r) = &session.state().step
                && r.reaction.is_some()
            {
                let json = serde_json::to_string(session.state()).unwrap();
                for key in [r#""acts_for""#, r#""secret""#, r#""to":"#] {
                    assert!(!json.contains(key), "{key} in {json}");
                }
                return;
            }
            rng = rng.wrapping_mul(31).wrapping_add(7);
            session.apply(&decision.options[rng % decision.options.len()]).unwrap();
        }
    }
    panic!("no nightmare game asked an effect's question");
}

/// `game_begins` of a rule that acts for the mover still runs for Dark: Dark is
/// to move at the deal, and no one is asked anything there.
#[test]
fn a_rules_game_begins_acts_for_dark() {
    let session = Session::new(&root(), "asking", 5).unwrap();
    let told: Vec<&str> = session
        .events()
        .next()
        .unwrap()
        .iter()
        .filter_map(|l| match &l.event {
            Event::Game(GameEvent::Message { text, .. }) => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(told, ["Dark holds the herald at the deal"]);
}

/// A question's `opts` and `ctx:tell` refuse what names no player or is not
/// an option, at the script's line.
#[test]
fn misnamed_players_and_options_are_refused_at_the_line() {
    let bad = [
        ("to_number", "ctx:ask_option('?', { 'a', 'b' }, { to = 3 })", "to must be 'dark' or 'light'"),
        ("to_title", "ctx:ask_option('?', { 'a', 'b' }, { to = 'Light' })", "to must be 'dark' or 'light'"),
        ("secret_text", "ctx:ask_option('?', { 'a', 'b' }, { secret = 'yes' })", "secret must be true or false"),
        (
            "order_optional",
            "ctx:ask_order('?', { 'a', 'b' }, { optional = true })",
            "'optional' is not a question option (to, secret)",
        ),
        ("order_to", "ctx:ask_order('?', { 'a', 'b' }, { to = 'purple' })", "to must be 'dark' or 'light'"),
        ("tell_nobody", "ctx:tell('purple', 'hello')", "'purple' is not a player (dark or light)"),
    ];
    let cards: Vec<(String, String)> =
        bad.iter().map(|(id, body, _)| (id.to_string(), format!("function play(ctx)\n  {body}\nend"))).collect();
    let mut cards: Vec<(&str, &str)> = cards.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    cards.push(crate::hostile_scripts::GOOD_CARD);
    let engine = crate::hostile_scripts::engine(&cards, &[]);
    for (id, _, wanted) in bad {
        let message = crate::hostile_scripts::failure(&engine, id);
        assert!(message.contains(wanted) && message.contains(&format!("{id}.lua:2")), "{id}: {message}");
    }
}

/// `ask_order` with `to` and `secret`: every place is asked of that player,
/// and the answers are told to the other only as given in secret.
#[test]
fn an_order_put_to_the_opponent_is_theirs_at_every_place() {
    let order = "function play(ctx)\n  local o = ctx:ask_order('Order?', { 'a', 'b', 'c' }, { to = ctx:opponent(), secret = true })\n  \
                 ctx:tell(ctx:opponent(), table.concat(o, ' '))\nend";
    let engine = crate::hostile_scripts::engine(&[("order", order)], &[]);
    let mut state = crate::hostile_scripts::at_card_step(&engine);
    state.apply(&engine, &Choice::Card(crate::hostile_scripts::card(&engine, "order"))).unwrap();
    let content = engine.content();
    for answer in ["c", "a"] {
        assert_eq!((state.pending(&engine).unwrap().player, state.to_move), (Player::Light, Player::Dark));
        assert!(alien_checkers::narrate::answers_in_secret(content, &state));
        state.apply(&engine, &Choice::Answer(Answer::Option(answer.into()))).unwrap();
    }
    // The last place took b unasked; the card is done and so is Dark's turn.
    assert_eq!((state.step.clone(), state.to_move), (Step::Move, Player::Light));
}

/// The board of a diagram with these checkers (`d`, `l`, `D`, `L`).
fn diagram(pieces: &[(&str, &str)]) -> String {
    let line = "+----+----+----+----+----+----+----+----+\n";
    let mut out = String::from(line);
    for rank in (1..=8).rev() {
        for file in "abcdefgh".chars() {
            let at = format!("{file}{rank}");
            let glyph = pieces.iter().find(|(sq, _)| *sq == at).map_or("", |p| p.1);
            out.push_str(&format!("| {glyph:<3}"));
        }
        out.push_str(&format!("| {rank}\n{line}"));
    }
    out
}

/// Tithe: Dark uses it, and Light chooses which of its own checkers to lose.
/// The computer answering for Light keeps its king: the search scores the
/// question for the player it is put to, not the player to move.
#[test]
fn the_computer_answers_a_question_put_to_it_for_itself() {
    let engine = ScriptEngine::load(&root(), "dares").unwrap();
    let tithe = engine.content().card_id("tithe").unwrap();
    let mut state = GameState::new(&engine.content().setup(), 1);
    state.position_mut().board = common::board(&diagram(&[("c1", "d"), ("e1", "d"), ("b6", "l"), ("g7", "L")]));
    state.position_mut().step = Step::Card;
    state.hidden_mut().piles.face_up = [tithe].into_iter().collect();
    state.apply(&engine, &Choice::Card(tithe)).unwrap();
    let decision = state.pending(&engine).unwrap();
    assert_eq!((decision.player, state.to_move), (Player::Light, Player::Dark));
    let pawn = Choice::Answer(Answer::Square(common::sq("b6")));
    let mut greedy = GreedyAgent::new(3);
    assert_eq!(greedy.choose(&state, &engine), Some(pawn.clone()), "greedy gives up the pawn");
    // `easy` picks at random among good and bad options by design.
    for seed in [9, 10, 11] {
        let mut agent = alien_checkers::ai::make_agent("normal", seed, Vec::new(), Budget::Reproducible, None).unwrap();
        assert_eq!(agent.choose(&state, &engine), Some(pawn.clone()), "normal (seed {seed}) gives up the pawn");
    }
}

/// An agent that plays at random and notes each decision it is asked for
/// while the other player is to move; it must only ever be asked for its own.
struct Watched {
    me: Player,
    inner: alien_checkers::ai::RandomAgent,
    out_of_turn: u32,
}

impl Agent for Watched {
    fn name(&self) -> String {
        "watched".into()
    }

    fn choose(&mut self, state: &GameState, host: &dyn CardHost) -> Option<Choice> {
        let decision = state.pending(host)?;
        assert_eq!(decision.player, self.me, "an agent is asked only for its own player's decisions");
        if state.to_move != self.me {
            self.out_of_turn += 1;
        }
        self.inner.choose(state, host)
    }
}

/// In a match each question goes to the agent of the player it is put to:
/// Light's agent answers the herald in Dark's turns, and the other way round.
#[test]
fn matches_ask_the_agent_of_the_player_asked() {
    let engine = ScriptEngine::load(&root(), "asking").unwrap();
    let setup = engine.content().setup();
    let (mut dark_out, mut light_out) = (0, 0);
    for seed in 0..6 {
        let new = |me, s| Watched { me, inner: alien_checkers::ai::RandomAgent::new(s), out_of_turn: 0 };
        let (mut dark, mut light) = (new(Player::Dark, seed), new(Player::Light, seed + 100));
        let record = play_game(&setup, &engine, &mut dark, &mut light, seed);
        assert!(matches!(record.end, alien_checkers::ai::GameEnd::Over(_)), "seed {seed}: {:?}", record.end);
        dark_out += dark.out_of_turn;
        light_out += light.out_of_turn;
    }
    assert!(dark_out > 0 && light_out > 0, "both were asked in the other's turn: {dark_out} {light_out}");
}

/// Hot-seat: a question for the player not at the keyboard hands the screen
/// over (and back for the rest of the turn's owner's play), and each player's
/// `ctx:tell` lines and secret answers reach that player's screen only.
#[test]
fn hot_seat_hands_the_screen_to_the_player_asked() {
    let deck = root().path().join("cards/decks/asking.yaml");
    let mut input: Vec<&str> = TO_HERALD.to_vec();
    input.extend(["mourn", "quit"]);
    let dir = common::scratch_dir("asking", "repl");
    let run = common::run_binary(
        &dir,
        &["--deck", deck.to_str().unwrap(), "--seed", "5", "--dark", "human", "--light", "human"],
        &[],
        &(input.join("\n") + "\n"),
    );
    assert!(run.success, "{}", run.stderr);
    let out = run.stdout;
    let passes: Vec<&str> = out.match_indices("Pass to ").map(|(i, _)| &out[i + 8..i + 13]).collect();
    // Dark's move and toll; Light's; Dark's capture and toll, then Light for
    // the herald in Dark's turn, and Light keeps the screen for its own move.
    assert_eq!(passes, ["Dark,", "Light", "Dark,", "Light"], "{out}");
    let segments: Vec<&str> = out.split("Pass to ").skip(1).collect();
    for segment in &segments {
        let theirs = if segment.starts_with("Dark") { "boast" } else { "quiet" };
        assert!(!segment.contains(&format!("Your word for the record: {theirs}")), "{segment}");
    }
    assert!(segments[1].contains("\"Dark paid the toll\" (told to you only)"), "{}", segments[1]);
    assert!(segments[2].contains("Light answers in secret"), "{}", segments[2]);
    assert!(segments[2].contains("\"Your word for the record: quiet\" (told to you only)"), "{}", segments[2]);
    assert!(segments[3].contains("Herald: mourn or curse?"), "{}", segments[3]);
}

/// A card's lasting effect may act for the mover too (`acts_for = "mover"`):
/// Dark's card, and Light's move makes Light be asked.
#[test]
fn a_cards_effect_may_act_for_the_mover() {
    let pact = "function play(ctx)\n  ctx:add_effect{ lasts = 'game', acts_for = 'mover' }\nend\n\
                function on_moved(ctx, event)\n  \
                  if event.cause.by == 'turn' then ctx:ask_option(ctx:player() .. '?', { 'a', 'b' }) end\nend";
    let engine = crate::hostile_scripts::engine(&[("pact", pact)], &[]);
    let mut state = crate::hostile_scripts::at_card_step(&engine);
    state.apply(&engine, &Choice::Card(crate::hostile_scripts::card(&engine, "pact"))).unwrap();
    assert_eq!((state.to_move, state.step.clone()), (Player::Light, Step::Move));
    let mv = state.pending(&engine).unwrap().options[0].clone();
    state.apply(&engine, &mv).unwrap();
    let decision = state.pending(&engine).unwrap();
    assert_eq!((decision.player, decision.prompt.as_deref()), (Player::Light, Some("light?")));
}
