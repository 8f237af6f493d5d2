//! The computer opponent: it never reads hidden information, it
//! answers every kind of question a card can ask, and it beats the baseline.

use std::sync::Arc;
use std::time::Duration;

use alien_checkers::ai::{
    Agent, AlphaBeta, Budget, Determinizer, GreedyAgent, HostFactory, Level, Limit, MctsAgent, Observation,
    RandomAgent, SearchConfig, SearchReport, Side, Tactics, WIN, make_agent, play_match,
};
use alien_checkers::content::ContentRoot;
use alien_checkers::game::{
    Answer, BlankCards, CardHost, CardId, Choice, DecisionKind, GameState, Outcome, PlanetId, Question, QuestionKind,
    Resolution, Setup, Step,
};
use alien_checkers::kernel::{Bitboard, Dir, Edge, EdgePair, Player, Side as EdgeSide, Square, Terrain};
use alien_checkers::kernel::{Move, MoveRules, Removal, Unrecorded};
use alien_checkers::plain::Variant;
use alien_checkers::script::ScriptEngine;

use crate::common;

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// Cards and planets whose hidden parts matter, so that a leak would show.
/// Planet `k` holds for a player with a checker on the dark square of rank 5
/// in file `2 * (k % 4)` (a5, c5, e5, g5): easy to reach. Card `k` with
/// `k % 3 == 0` removes the opponent's checker nearest `a1` (so the order of
/// the draw pile matters); the other cards do nothing.
struct HiddenMatters;

fn planet_square(planet: PlanetId) -> Square {
    Square::at(2 * (planet.0 % 4) as i8, 4).unwrap()
}

impl CardHost for HiddenMatters {
    fn playable(&self, _: &GameState, _: CardId) -> bool {
        true
    }

    fn resolve(&self, state: &GameState, card: CardId, _: &[Answer]) -> Resolution {
        let mut after = state.clone();
        if card.0.is_multiple_of(3)
            && let Some(victim) = after.board.checkers(!after.to_move).first()
            && let Err(e) = after.position_mut().board.remove_checker(victim, Removal::Card, &mut Unrecorded)
        {
            return Resolution::Failed(e.0);
        }
        Resolution::Done(Box::new(after))
    }

    fn planet_holds(&self, state: &GameState, planet: PlanetId, player: Player) -> bool {
        state.board.checkers(player).contains(planet_square(planet))
    }

    alien_checkers::no_scripts!();
}

fn planet_deck() -> Vec<PlanetId> {
    (0..9).map(PlanetId).collect()
}

fn alien_with_planets() -> Setup {
    Setup { planets: planet_deck(), ..Setup::blank(21) }
}

fn small(iterations: u32) -> SearchConfig {
    SearchConfig { iterations, ..SearchConfig::level(Level::Normal) }
}

/// Positions where Dark has a real choice (two options or more, move and card
/// steps): deals from `seed` on, played on by random decisions of both sides.
fn dark_decision_points(seed: u64, host: &dyn CardHost, count: usize) -> Vec<GameState> {
    let mut points = Vec::new();
    for seed in seed.. {
        let mut state = GameState::new(&alien_with_planets(), seed);
        state.settle(host).expect("a new game settles");
        let mut random = RandomAgent::new(seed);
        while points.len() < count {
            let Some(decision) = state.pending(host) else { break };
            if decision.player == Player::Dark && decision.options.len() > 1 {
                points.push(state.clone());
            }
            let choice = random.choose(&state, host).unwrap();
            state.apply(host, &choice).unwrap();
        }
        if points.len() >= count {
            break;
        }
    }
    points
}

/// The decisions of fresh agents seeded alike, one per state.
fn decisions(states: &[GameState], host: &dyn CardHost, make: &dyn Fn() -> Box<dyn Agent>) -> Vec<Choice> {
    states.iter().map(|s| make().choose(s, host).unwrap()).collect()
}

/// A planet whose square differs from those of `not` and of Dark's planet.
fn a_planet_other_than(state: &GameState, not: &[Option<PlanetId>]) -> PlanetId {
    let taken: Vec<Square> =
        not.iter().chain([&state.planet(Player::Dark)]).flatten().map(|&p| planet_square(p)).collect();
    (0..9).map(PlanetId).find(|&p| !taken.contains(&planet_square(p))).unwrap()
}

#[test]
fn decisions_do_not_depend_on_the_opponents_planet_or_the_draw_order() {
    let host = HiddenMatters;
    let real = dark_decision_points(11, &host, 8);
    assert_eq!(real.len(), 8);
    assert!(real.iter().any(|s| s.pending(&host).unwrap().kind == DecisionKind::Card), "card steps are covered");

    // Only Light's secret planet differs (R2.3).
    let other_planet: Vec<GameState> = real
        .iter()
        .map(|s| {
            let mut s = s.clone();
            s.hidden_mut().planets[1] = Some(a_planet_other_than(&s, &[s.planets()[1]]));
            s
        })
        .collect();
    // Only the hidden order of the draw pile differs, and the generator that
    // would shuffle it next (R2.4).
    let other_order: Vec<GameState> = real
        .iter()
        .map(|s| {
            let mut s = s.clone();
            s.hidden_mut().piles.draw.reverse();
            s.hidden_mut().piles.draw.rotate_left(3);
            s.hidden_mut().rng = alien_checkers::game::GameRng::new(999);
            s
        })
        .collect();
    for (a, (b, c)) in real.iter().zip(other_planet.iter().zip(&other_order)) {
        assert!(a != b && a != c, "the variants differ in hidden information");
        assert_eq!(Observation::new(a, Player::Dark), Observation::new(b, Player::Dark));
        assert_eq!(Observation::new(a, Player::Dark), Observation::new(c, Player::Dark));
    }

    // The whole search, not only its verdict, must be the same: every root
    // option's visits and mean result.
    let search = |states: &[GameState]| -> Vec<SearchReport> {
        states
            .iter()
            .map(|s| {
                let mut report = MctsAgent::new(small(300), planet_deck(), 5).search(s, &host).unwrap();
                report.elapsed = Duration::ZERO;
                report
            })
            .collect()
    };
    let seen = search(&real);
    assert_eq!(seen, search(&other_planet), "the opponent's planet leaked");
    assert_eq!(seen, search(&other_order), "the draw order leaked");
    let greedy = || Box::new(GreedyAgent::new(5)) as Box<dyn Agent>;
    let seen = decisions(&real, &host, &greedy);
    assert_eq!(seen, decisions(&other_planet, &host, &greedy), "the opponent's planet leaked to greedy");
    assert_eq!(seen, decisions(&other_order, &host, &greedy), "the draw order leaked to greedy");

    // Control: what Dark may know (its own planet) does change the search, so
    // the equalities above are not trivially true.
    let own_planet: Vec<GameState> = real
        .iter()
        .map(|s| {
            let mut s = s.clone();
            s.hidden_mut().planets[0] = Some(a_planet_other_than(&s, &[s.planets()[0], s.planets()[1]]));
            s
        })
        .collect();
    assert_ne!(search(&real), search(&own_planet));
}

#[test]
fn the_determinizer_deals_only_planets_the_opponent_may_hold() {
    let host = HiddenMatters;
    let mut state = GameState::new(&alien_with_planets(), 3);
    state.hidden_mut().planets = [Some(PlanetId(0)), Some(PlanetId(2))];
    // Light already stands on c5, where planets 1 and 5 hold: the game would be over.
    state.position_mut().board.remove_checker(sq("b6"), Removal::Card, &mut Unrecorded).unwrap();
    state
        .position_mut()
        .board
        .set_checker(sq("c5"), alien_checkers::kernel::Checker::new(Player::Light, alien_checkers::kernel::Kind::Pawn))
        .unwrap();
    let det = Determinizer::new(Observation::new(&state, Player::Dark), &planet_deck(), &host);
    let mut expected: Vec<PlanetId> = [2, 3, 4, 6, 7, 8].map(PlanetId).to_vec();
    expected.sort();
    let mut allowed = det.opponent_planets().to_vec();
    allowed.sort();
    assert_eq!(allowed, expected, "own planet 0 and holding planets 1 and 5 are excluded");

    let mut rng = alien_checkers::ai::AgentRng::new(1);
    let mut sample = state.clone();
    let mut seen = Vec::new();
    for _ in 0..200 {
        det.sample(&mut rng, &mut sample);
        assert_eq!(sample.planets()[0], Some(PlanetId(0)), "own planet kept");
        let p = sample.planets()[1].unwrap();
        assert!(expected.contains(&p));
        if !seen.contains(&p) {
            seen.push(p);
        }
        let (mut drawn, mut real) = (sample.piles().draw.clone(), state.piles().draw.clone());
        drawn.sort();
        real.sort();
        assert_eq!(drawn, real, "the draw pile is a permutation of the real one");
        assert_eq!((sample.board, &sample.piles().face_up), (state.board, &state.piles().face_up));
    }
    assert_eq!(seen.len(), expected.len(), "every possible planet is sampled");
}

/// Test cards, one per question kind (card `i` asks `KINDS[i]`), and card 8
/// that asks a direction and then a square in that direction from d4, where
/// it puts water (R8.1). Any other answer list is a script error.
struct QuestionCards;

const KINDS: [QuestionKind; 8] = [
    QuestionKind::Square,
    QuestionKind::Block,
    QuestionKind::Checker,
    QuestionKind::Edge,
    QuestionKind::Edges,
    QuestionKind::Direction,
    QuestionKind::Move,
    QuestionKind::Option,
];

fn question(state: &GameState, kind: QuestionKind) -> Question {
    let board = &state.board;
    let options: Vec<Answer> = match kind {
        QuestionKind::Square => board.empty_squares().map(Answer::Square).collect(),
        QuestionKind::Block => board.monolith_spots().into_iter().map(Answer::Square).collect(),
        QuestionKind::Checker => board.checkers(state.to_move).map(Answer::Square).collect(),
        QuestionKind::Edge => {
            ["c3", "d4", "e5"].iter().map(|s| Answer::Edge(Edge::new(sq(s), EdgeSide::North).unwrap())).collect()
        }
        QuestionKind::Edges => EdgePair::all().iter().copied().take(5).map(Answer::Edges).collect(),
        QuestionKind::Direction => Dir::ORTHOGONALS.iter().map(|&d| Answer::Dir(d)).collect(),
        QuestionKind::Move => state.kernel_moves().into_iter().map(Answer::Move).collect(),
        QuestionKind::Option => ["place", "remove", "skip"].iter().map(|o| Answer::Option((*o).into())).collect(),
    };
    Question::new(format!("{kind:?}?"), kind, options)
}

impl CardHost for QuestionCards {
    fn playable(&self, _: &GameState, _: CardId) -> bool {
        true
    }

    fn resolve(&self, state: &GameState, card: CardId, answers: &[Answer]) -> Resolution {
        if let Some(&kind) = KINDS.get(usize::from(card.0)) {
            return match answers {
                [] => Resolution::Ask(question(state, kind)),
                [a] if question(state, kind).options.contains(a) => Resolution::Done(Box::new(state.clone())),
                _ => Resolution::Failed(format!("card {} got {answers:?}", card.0)),
            };
        }
        match answers {
            [] => Resolution::Ask(question(state, QuestionKind::Direction)),
            [Answer::Dir(d)] => {
                let mut line = Bitboard::EMPTY;
                let mut at = sq("d4").step(*d);
                while let Some(s) = at {
                    line.insert(s);
                    at = s.step(*d);
                }
                let options: Vec<Answer> = (line & state.board.empty_squares()).map(Answer::Square).collect();
                if options.is_empty() {
                    return Resolution::Done(Box::new(state.clone()));
                }
                Resolution::Ask(Question::new(format!("square {d} of d4?"), QuestionKind::Square, options))
            }
            [Answer::Dir(_), Answer::Square(s)] => {
                let mut after = state.clone();
                match after.position_mut().board.place_terrain(*s, Terrain::Water, &mut Unrecorded) {
                    Ok(()) => Resolution::Done(Box::new(after)),
                    Err(e) => Resolution::Failed(e.0),
                }
            }
            _ => Resolution::Failed(format!("card 8 got {answers:?}")),
        }
    }

    fn planet_holds(&self, _: &GameState, _: PlanetId, _: Player) -> bool {
        false
    }

    alien_checkers::no_scripts!();
}

/// Plays `card`'s one-card deck with `agent` on both sides until it has
/// answered `want` questions; returns the kinds it answered, in order.
fn answer_card(agent: &mut dyn Agent, card: u16, want: usize) -> Vec<QuestionKind> {
    let host = QuestionCards;
    let setup = Setup { deck: vec![CardId(card)], ..Setup::blank(0) };
    let mut state = GameState::new(&setup, u64::from(card));
    state.settle(&host).expect("a new game settles");
    let mut answered = Vec::new();
    for _ in 0..400 {
        let Some(decision) = state.pending(&host) else { break };
        let choice = agent.choose(&state, &host).expect("a pending decision gets a choice");
        assert!(decision.options.contains(&choice), "{} chose {choice}, not an option", agent.name());
        if let Step::Resolving(r) = &state.step {
            answered.push(r.question.kind);
        }
        let turn = state.turn;
        state.apply(&host, &choice).unwrap_or_else(|e| panic!("{}: {e}", agent.name()));
        assert!(state.turn >= turn);
        if answered.len() >= want && matches!(state.step, Step::Move) {
            break;
        }
    }
    answered
}

#[test]
fn every_agent_answers_every_kind_of_question() {
    let factory: HostFactory = Arc::new(|| Box::new(QuestionCards) as Box<dyn CardHost>);
    let agents: Vec<Box<dyn Agent>> = vec![
        Box::new(RandomAgent::new(1)),
        Box::new(GreedyAgent::new(1)),
        Box::new(MctsAgent::new(SearchConfig { threads: 2, ..small(60) }, Vec::new(), 1).with_host_factory(factory)),
    ];
    for mut agent in agents {
        for (card, &kind) in KINDS.iter().enumerate() {
            let answered = answer_card(&mut *agent, card as u16, 3);
            assert!(answered.len() >= 3, "{}: card {card} was answered {} times", agent.name(), answered.len());
            assert!(answered.iter().all(|&k| k == kind), "{}: {answered:?}", agent.name());
        }
        // Two questions in a row: a direction, then a square that depends on it.
        let answered = answer_card(&mut *agent, 8, 4);
        assert!(answered.windows(2).any(|w| w == [QuestionKind::Direction, QuestionKind::Square]), "{answered:?}");
    }
}

#[test]
fn searches_are_reproducible_with_two_threads() {
    let factory: HostFactory = Arc::new(|| Box::new(BlankCards) as Box<dyn CardHost>);
    let state = dark_decision_points(4, &BlankCards, 3).pop().unwrap();
    let config = SearchConfig { threads: 2, ..small(400) };
    let run =
        || MctsAgent::new(config.clone(), Vec::new(), 9).with_host_factory(factory.clone()).search(&state, &BlankCards);
    let (a, b) = (run().unwrap(), run().unwrap());
    assert_eq!((&a.choice, &a.root, a.iterations), (&b.choice, &b.root, b.iterations));
    assert_eq!(a.iterations, 400, "two threads of 200");
    assert_eq!(a.root.iter().map(|r| r.visits).sum::<u64>(), 400);
    assert!(state.pending(&BlankCards).unwrap().options.contains(&a.choice));
}

#[test]
fn nothing_is_chosen_when_the_game_is_over() {
    let mut state = GameState::new(&Setup::plain(), 1);
    for sq in state.board.checkers(Player::Light) {
        state.position_mut().board.remove_checker(sq, Removal::Card, &mut Unrecorded).unwrap();
    }
    assert!(state.check_end(&BlankCards), "R10.1: Light has no checker");
    assert_eq!(MctsAgent::new(small(10), Vec::new(), 1).choose(&state, &BlankCards), None);
    assert_eq!(GreedyAgent::new(1).choose(&state, &BlankCards), None);
    assert_eq!(RandomAgent::new(1).choose(&state, &BlankCards), None);
}

#[test]
fn normal_search_beats_random_at_plain_checkers() {
    let mut normal = MctsAgent::new(small(300), Vec::new(), 7);
    let mut random = RandomAgent::new(7);
    let result = play_match(&Setup::plain(), &BlankCards, &mut normal, &mut random, 4, 1);
    assert_eq!(result.games.len(), 4);
    let colours: Vec<Player> = result.games.iter().map(|g| g.a_plays).collect();
    assert_eq!(colours, [Player::Dark, Player::Light, Player::Dark, Player::Light], "colours alternate");
    assert_eq!(result.wins(Side::A), 4, "{result:?}");
}

/// The computer plays a deck whose moves are data (Russian draughts: flying
/// kings, backward captures) with no code of its own for it.
#[test]
fn normal_search_beats_random_at_russian_draughts() {
    let engine = ScriptEngine::load(&crate::common::repo(), "russian").unwrap_or_else(|p| panic!("{p}"));
    let setup = engine.content().setup();
    let mut normal = MctsAgent::new(SearchConfig::level(Level::Normal), Vec::new(), 26);
    let mut random = RandomAgent::new(26);
    let result = play_match(&setup, &engine, &mut normal, &mut random, 10, 26);
    assert_eq!(result.wins(Side::A), 10, "{result:?}");
}

#[test]
fn search_beats_greedy_with_cards_on() {
    let mut normal = MctsAgent::new(small(300), Vec::new(), 3);
    let mut greedy = GreedyAgent::new(3);
    let result = play_match(&Setup::blank(21), &BlankCards, &mut normal, &mut greedy, 2, 2);
    assert_eq!(result.wins(Side::A), 2, "{result:?}");
}

/// A mid-game position of the standard deck: random decisions from the deal
/// of `seed` until `turns` turns have passed.
fn standard_midgame(engine: &ScriptEngine, seed: u64, turns: u32) -> Option<GameState> {
    let mut state = GameState::new(&engine.content().setup(), seed);
    state.settle(engine).expect("a new game settles");
    let mut random = RandomAgent::new(seed);
    while state.turn < turns {
        let choice = random.choose(&state, engine)?;
        state.apply(engine, &choice).ok()?;
    }
    (state.outcome().is_none()).then_some(state)
}

#[test]
fn the_search_uses_every_shipped_card_and_answers_its_questions() {
    let root = ContentRoot::new(env!("CARGO_MANIFEST_DIR"));
    let engine = ScriptEngine::load(&root, "standard").expect("the standard deck loads");
    let setup = engine.content().setup();
    let factory: HostFactory = {
        let root = root.clone();
        Arc::new(move || match ScriptEngine::load(&root, "standard") {
            Ok(engine) => Box::new(engine) as Box<dyn CardHost>,
            Err(_) => Box::new(BlankCards),
        })
    };
    let mut agent =
        MctsAgent::new(SearchConfig { threads: 2, ..small(24) }, setup.planets.clone(), 3).with_host_factory(factory);
    let mut kinds: Vec<QuestionKind> = Vec::new();
    let mut used_cards = 0;
    let mut cards = setup.deck.clone();
    cards.dedup();
    assert_eq!(cards.len(), 21);
    for (i, &card) in cards.iter().enumerate() {
        // Play to a move step of the mover, then make `card` the only face-up card.
        let mut state = (0..20).find_map(|k| standard_midgame(&engine, 100 + i as u64 * 20 + k, 24)).unwrap();
        while !matches!(state.step, Step::Move) {
            let choice = RandomAgent::new(1).choose(&state, &engine).unwrap();
            state.apply(&engine, &choice).unwrap();
        }
        let piles = &mut state.hidden_mut().piles;
        piles.discard.append(&mut piles.face_up);
        piles.draw.retain(|c| *c != card);
        piles.discard.retain(|c| *c != card);
        piles.draw.insert(0, card);
        let turn = state.turn;
        let (mut offered, mut used) = (false, false);
        while state.turn == turn && state.outcome().is_none() {
            let decision = state.pending(&engine).unwrap();
            let choice = agent.choose(&state, &engine).unwrap();
            assert!(decision.options.contains(&choice), "card {}: {choice} is not an option", card.0);
            if let Step::Resolving(r) = &state.step {
                kinds.push(r.question.kind);
            }
            offered |= decision.options.contains(&Choice::Card(card));
            used |= choice == Choice::Card(card);
            state.apply(&engine, &choice).unwrap_or_else(|e| panic!("card {}: {choice}: {e}", card.0));
        }
        // The only face-up card must be used when it is playable (R3.3).
        assert_eq!(used, offered, "card {}", card.0);
        used_cards += usize::from(used);
    }
    assert!(used_cards >= 20, "only {used_cards} of 21 cards were used (Antimatter may not be playable)");
    use QuestionKind as K;
    for kind in [K::Square, K::Checker, K::Direction, K::Move, K::Option] {
        assert!(kinds.contains(&kind), "no {kind:?} question was answered: {kinds:?}");
    }
    // Walls asks for one edge or a pair of edges, as the player chose before
    // (every kind is also answered directly in every_agent_answers_every_kind_of_question).
    assert!(kinds.contains(&K::Edge) || kinds.contains(&K::Edges), "no wall question was answered: {kinds:?}");
}

#[test]
fn levels_grow_in_budget_and_only_interactive_play_is_timed() {
    let [easy, normal, hard] = [Level::Easy, Level::Normal, Level::Hard].map(SearchConfig::level);
    assert!(easy.iterations < normal.iterations && normal.iterations < hard.iterations);
    assert!(easy.temperature > 0.0 && normal.temperature == 0.0 && hard.temperature == 0.0, "noise at easy only");
    assert!([&easy, &normal, &hard].iter().all(|c| c.time_limit.is_none()), "levels replay from a seed");
    let capped = SearchConfig::interactive(Level::Normal);
    assert!(capped.time_limit.is_some_and(|t| t <= Duration::from_secs(1)), "normal within a second");
    assert_eq!(SearchConfig { time_limit: None, ..capped }, normal);
}

#[test]
fn a_new_card_with_a_new_chain_of_questions_is_played_without_ai_changes() {
    // A card no shipped deck has: an order of three named options, then a
    // direction, then an optional square that depends on both. The search has
    // no code for it; it only sees decisions.
    let survey = r#"
function play(ctx)
  local order = ctx:ask_order("survey order?", { "fire", "water", "wall" })
  local dir = ctx:ask_direction("which way?", { "n", "e", "s", "w" })
  local squares = {}
  for _, sq in ipairs(ctx:squares({ empty = true, half = ctx:player() })) do
    if (dir == "n" or dir == "e") == (#squares % 2 == 0) then squares[#squares + 1] = sq end
  end
  local sq = ctx:ask_square("mark where (" .. order[1] .. " first)?", squares, { optional = true })
  if sq ~= nil and order[1] == "water" and ctx:supply("water") > 0 then ctx:place_terrain(sq, "water") end
  ctx:log("surveyed " .. table.concat(order, ","))
end"#;
    let root = common::scratch_content("ai-new-card", &[("survey", survey)], &[]);
    let engine = ScriptEngine::load(&root, "test").unwrap_or_else(|p| panic!("{p}"));
    let mut agent = MctsAgent::new(small(80), Vec::new(), 7);
    let mut state = GameState::new(&engine.content().setup(), 7);
    state.settle(&engine).expect("a new game settles");
    let mut kinds = Vec::new();
    let mut uses = 0;
    while uses < 6 && state.outcome().is_none() {
        let decision = state.pending(&engine).expect("the game goes on");
        let choice = agent.choose(&state, &engine).expect("a choice");
        assert!(decision.options.contains(&choice), "{choice} is not an option");
        if let Step::Resolving(r) = &state.step {
            kinds.push(r.question.kind);
        }
        uses += usize::from(matches!(choice, Choice::Card(_)));
        state.apply(&engine, &choice).unwrap_or_else(|e| panic!("{choice}: {e}"));
    }
    assert!(uses >= 3, "the card was used {uses} times");
    use QuestionKind as K;
    for kind in [K::Option, K::Direction, K::Square] {
        assert!(kinds.contains(&kind), "no {kind:?} question was answered: {kinds:?}");
    }
}

#[test]
fn stopping_once_decided_chooses_what_the_whole_budget_would() {
    let engine = ScriptEngine::load(&ContentRoot::new(env!("CARGO_MANIFEST_DIR")), "standard").unwrap();
    let setup = engine.content().setup();
    let config = SearchConfig { iterations: 300, ..SearchConfig::level(Level::Normal) };
    assert!(config.stop_when_decided, "normal stops once decided");
    let (mut saved, mut searched) = (0, 0);
    for seed in 0..12 {
        let state = alien_checkers::ai::search_position(&engine, &setup, seed);
        let mut stopping = MctsAgent::new(config.clone(), setup.planets.clone(), seed);
        let mut whole =
            MctsAgent::new(SearchConfig { stop_when_decided: false, ..config.clone() }, setup.planets.clone(), seed);
        let (a, b) = (stopping.search(&state, &engine).unwrap(), whole.search(&state, &engine).unwrap());
        assert_eq!(a.choice, b.choice, "seed {seed}: the early stop changed the choice");
        assert!(a.iterations <= b.iterations);
        saved += b.iterations - a.iterations;
        searched += b.iterations;
    }
    assert!(saved > 0, "no search of {searched} iterations stopped early");
}

// ---- Plain checkers: alpha-beta where nothing is hidden (alphabeta.rs) ----

/// A plain-checkers game (R11) from a PDN FEN (B = Dark moves first).
fn plain_game(fen: &str) -> GameState {
    let position = Variant::american().read_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut state = GameState::new(&Setup::plain(), 1);
    state.position_mut().board = position.board;
    state.position_mut().to_move = position.to_move;
    state
}

fn reproducible(spec: &str, seed: u64) -> Box<dyn Agent> {
    make_agent(spec, seed, Vec::new(), Budget::Reproducible, None).unwrap()
}

/// Plays `state` on with `dark` and `light` for at most `plies` plies; the outcome and the plies played.
fn play_out(state: &mut GameState, dark: &mut dyn Agent, light: &mut dyn Agent, plies: u32) -> (Option<Outcome>, u32) {
    for ply in 0..plies {
        if let Some(outcome) = state.outcome() {
            return (Some(outcome), ply);
        }
        let agent: &mut dyn Agent = if state.to_move == Player::Dark { &mut *dark } else { &mut *light };
        let choice = agent.choose(state, &BlankCards).expect("a move");
        state.apply(&BlankCards, &choice).unwrap();
    }
    (state.outcome(), plies)
}

#[test]
fn won_endings_are_won_before_the_move_limit() {
    // R10.1, R10.4: three kings and a man against a king in its double corner,
    // and four kings against one, used to end in shuffles until the move limit.
    for (fen, within) in [("B:WK32:BK18,K19,K22,9", 40), ("B:WK28:BK14,K15,K23,K24", 40), ("W:WK1:BK10,K11,K19", 50)] {
        let mut state = plain_game(fen);
        let mut normal = reproducible("normal", 3);
        let mut defender = reproducible("hard", 4);
        let (outcome, plies) = play_out(&mut state, &mut *normal, &mut *defender, within);
        let winner = outcome.and_then(|o| o.winner);
        assert_eq!(winner, Some(Player::Dark), "{fen}: not won within {within} plies ({outcome:?})");
        eprintln!("{fen}: won in {plies} plies");
    }
}

/// Whether Dark's `mv` walks into a shot: Light then has a quiet move (the
/// bait) after which Dark must capture (R4.3), and the captures that follow,
/// each side taking its best, leave Light a checker or more up on balance.
fn walks_into_a_shot(state: &GameState, mv: Move) -> bool {
    let mut after = state.clone();
    after.apply(&BlankCards, &Choice::Move(mv)).unwrap();
    if after.outcome().is_some() || after.kernel_capture_due() {
        return false;
    }
    let before = lead(&after, Player::Light);
    after.kernel_moves().into_iter().any(|bait| {
        let mut s = after.clone();
        s.apply(&BlankCards, &Choice::Move(bait)).unwrap();
        s.outcome().is_none() && s.kernel_capture_due() && -captures_settled(&s) > before
    })
}

/// Checkers of `player` less the other's.
fn lead(state: &GameState, player: Player) -> i32 {
    state.board.checkers(player).count() as i32 - state.board.checkers(!player).count() as i32
}

/// [`lead`] for the player to move once the captures due are played out, each
/// side choosing the best for itself (brute force).
fn captures_settled(state: &GameState) -> i32 {
    let me = state.to_move;
    if state.outcome().is_some() || !state.kernel_capture_due() {
        return lead(state, me);
    }
    state
        .kernel_moves()
        .into_iter()
        .map(|mv| {
            let mut s = state.clone();
            s.apply(&BlankCards, &Choice::Move(mv)).unwrap();
            if s.to_move == me { captures_settled(&s) } else { -captures_settled(&s) }
        })
        .max()
        .unwrap_or(0)
}

/// Positions of random plain games where Dark, to move, has both moves that
/// walk into a two-for-one shot and moves that do not.
fn shot_positions(count: usize) -> Vec<(GameState, Vec<Move>)> {
    let mut found = Vec::new();
    for seed in 0.. {
        let mut state = GameState::new(&Setup::plain(), seed);
        let mut random = RandomAgent::new(seed);
        while state.outcome().is_none() && found.len() < count {
            if state.to_move == Player::Dark && !state.kernel_capture_due() {
                let moves = state.kernel_moves();
                let bad: Vec<Move> = moves.iter().copied().filter(|&m| walks_into_a_shot(&state, m)).collect();
                if !bad.is_empty() && bad.len() < moves.len() {
                    found.push((state.clone(), bad));
                }
            }
            let choice = random.choose(&state, &BlankCards).unwrap();
            state.apply(&BlankCards, &choice).unwrap();
        }
        if found.len() >= count {
            return found;
        }
    }
    unreachable!()
}

#[test]
fn two_for_one_shots_are_seen() {
    let mut tactics = Tactics::default();
    let mut bad_moves = 0;
    for (i, (state, bad)) in shot_positions(12).into_iter().enumerate() {
        // The leaf search of the tree search sees each shot coming (Light to move after it).
        let rules = [MoveRules::STANDARD; 2];
        for mv in &bad {
            let mut board = state.board;
            board.play(mv, &mut Unrecorded).unwrap();
            let swing = tactics.swing(&board, Player::Light, &rules);
            assert!(swing >= 65, "position {i}: {mv} gives a shot, seen as {swing}");
            bad_moves += 1;
        }
        // And no level that searches walks into it.
        for spec in ["normal", "hard"] {
            let choice = reproducible(spec, i as u64).choose(&state, &BlankCards).unwrap();
            let Choice::Move(mv) = choice else { panic!("{choice:?}") };
            assert!(!bad.contains(&mv), "position {i}: {spec} walked into the shot {mv}\n{:?}", state.board);
        }
    }
    assert!(bad_moves >= 12);
}

#[test]
fn alpha_beta_decisions_are_reproducible() {
    let states: Vec<GameState> = shot_positions(4).into_iter().map(|(s, _)| s).collect();
    for spec in ["normal", "hard:nodes=300000"] {
        let first: Vec<Choice> = states.iter().map(|s| reproducible(spec, 9).choose(s, &BlankCards).unwrap()).collect();
        let again: Vec<Choice> =
            states.iter().map(|s| reproducible(spec, 10).choose(s, &BlankCards).unwrap()).collect();
        assert_eq!(first, again, "{spec}: the same positions, the same decisions");
    }
}

/// Brute force: the plies to a win the player to move can force within
/// `depth` plies (`Some(n)`), by the engine's own rules (`GameState::apply`).
fn forced_win(state: &GameState, depth: u32) -> Option<u32> {
    (1..=depth).find(|&d| wins_within(state, d))
}

/// Whether the player to move wins within `plies` plies whatever the other does.
fn wins_within(state: &GameState, plies: u32) -> bool {
    let me = state.to_move;
    if plies == 0 {
        return false;
    }
    state.kernel_moves().into_iter().any(|mv| {
        let mut s = state.clone();
        s.apply(&BlankCards, &Choice::Move(mv)).unwrap();
        match s.outcome() {
            Some(o) => o.winner == Some(me),
            None => plies >= 2 && loses_within(&s, plies - 1),
        }
    })
}

/// Whether the player to move loses within `plies` plies whatever they do.
fn loses_within(state: &GameState, plies: u32) -> bool {
    let me = state.to_move;
    state.kernel_moves().into_iter().all(|mv| {
        let mut s = state.clone();
        s.apply(&BlankCards, &Choice::Move(mv)).unwrap();
        match s.outcome() {
            Some(o) => o.winner == Some(!me),
            None => wins_within(&s, plies - 1),
        }
    })
}

#[test]
fn alpha_beta_finds_what_brute_force_finds() {
    // Small endings from random placements: wherever brute force finds a
    // forced win within five plies, alpha-beta scores a win that near and
    // plays a move that keeps it; where it finds none, alpha-beta claims none.
    let mut rng = alien_checkers::ai::AgentRng::new(5);
    let (mut wins, mut positions) = (0, 0);
    while positions < 60 {
        let mut squares: Vec<u8> = (1..=32).collect();
        rng.shuffle(&mut squares);
        let item = |n: u8, king: bool| if king { format!("K{n}") } else { n.to_string() };
        let dark: Vec<String> = squares[..3].iter().map(|&n| item(n, rng.below(2) == 0 || n > 28)).collect();
        let light: Vec<String> = squares[3..5].iter().map(|&n| item(n, rng.below(2) == 0 || n < 5)).collect();
        let fen = format!("B:W{}:B{}", light.join(","), dark.join(","));
        let state = plain_game(&fen);
        if state.kernel_moves().len() < 2 {
            continue;
        }
        positions += 1;
        let found = AlphaBeta::new().search(&state, &[], Limit::Nodes(200_000)).unwrap();
        match forced_win(&state, 5) {
            Some(plies) => {
                wins += 1;
                assert!(found.score >= WIN - plies as i32, "{fen}: a win in {plies} plies, scored {}", found.score);
                let mut after = state.clone();
                after.apply(&BlankCards, &Choice::Move(found.best)).unwrap();
                let kept = after.outcome().is_some_and(|o| o.winner == Some(Player::Dark))
                    || (plies >= 2 && loses_within(&after, plies - 1));
                assert!(kept, "{fen}: {} lets the win in {plies} go", found.best);
            }
            None => assert!(found.score < WIN - 5, "{fen}: no win within 5 plies, scored {}", found.score),
        }
    }
    assert!(wins >= 5, "only {wins} positions with a forced win");
}

/// Issue 39 (17): `greedy` pursues its planet by the rules, not by the
/// planet's `progress` hint alone. The planet here has no hint: it holds when
/// its player has a checker on f4. Dark's lone king on d2 may step to c3 or e3
/// (both central, scored alike by the heuristic); only from e3 is f4 a move
/// away, so every seed of `greedy` steps there.
#[test]
fn greedy_steps_toward_a_planet_without_a_hint() {
    use alien_checkers::kernel::{Checker, Kind, Supply};
    let root = common::scratch_content(
        "greedy-reach",
        &[("idle", "function play(ctx) end\n")],
        &[
            (
                "outpost",
                "function check(ctx, player)\n  local c = ctx:checker(\"f4\")\n  return c ~= nil and c.owner == player\nend\n",
            ),
            ("nowhere", "function check(ctx, player)\n  return false\nend\n"),
        ],
    );
    let engine =
        alien_checkers::script::ScriptEngine::new(alien_checkers::content::Content::load(&root, "test").unwrap())
            .unwrap();
    let mut state = GameState::deal(&engine.content().setup(), 1, &engine);
    let mut board =
        alien_checkers::kernel::Board::empty(Supply::STANDARD, alien_checkers::kernel::Crowning::FromReserve);
    board.set_checker(sq("d2"), Checker::new(Player::Dark, Kind::King)).unwrap();
    board.set_checker(sq("a7"), Checker::new(Player::Light, Kind::Pawn)).unwrap();
    board.set_checker(sq("b8"), Checker::new(Player::Light, Kind::Pawn)).unwrap();
    board.set_reserve(Player::Dark, 10);
    board.set_reserve(Player::Light, 10);
    state.position_mut().board = board;
    state.position_mut().to_move = Player::Dark;
    let outpost = engine.content().planet_id("outpost").unwrap();
    state.hidden_mut().planets = [Some(outpost), None];
    let picks: std::collections::BTreeSet<String> = (0..12)
        .map(|seed| match GreedyAgent::new(seed).choose(&state, &engine) {
            Some(Choice::Move(m)) => m.to_string(),
            other => panic!("a move, not {other:?}"),
        })
        .collect();
    assert_eq!(picks, ["d2-e3".to_string()].into(), "f4 is a move away only from e3");
}
