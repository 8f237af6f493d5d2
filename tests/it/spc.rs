//! Saving Private Checkers (cards/decks/saving_private_checkers.yaml): the
//! deal for every seed (S2-S4), what each player may know of it, and the
//! computer's choices in positions where the deck's own moves and questions
//! decide (rescue, strikes, a queen's backward capture, the discard).

use alien_checkers::ai::{Budget, Observation, make_agent};
use alien_checkers::diagram;
use alien_checkers::game::{Answer, Choice, Face, GameState, ItemId, Place};
use alien_checkers::kernel::{Colour, Player, Square};
use alien_checkers::script::ScriptEngine;

use crate::common;

fn engine() -> ScriptEngine {
    ScriptEngine::load(&common::repo(), "saving_private_checkers").unwrap()
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn suit(engine: &ScriptEngine, item: ItemId) -> char {
    engine.content().items().unwrap().item(item).id.chars().last().unwrap()
}

fn zone(engine: &ScriptEngine, name: &str, owner: Player) -> Place {
    Place::Zone { zone: engine.content().items().unwrap().zone_named(name).unwrap(), owner: Some(owner) }
}

fn zone_items(engine: &ScriptEngine, state: &GameState, name: &str, owner: Player) -> Vec<ItemId> {
    let Place::Zone { zone, owner } = zone(engine, name, owner) else { unreachable!() };
    state.items().unwrap().zone(zone, owner).unwrap()
}

/// S2-S4 for twenty seeds: Dark's half holds hearts and spades, Light's
/// diamonds and clubs, face down and unknown to both; each stockpile holds
/// the other ten of its owner's half-deck, known to its owner only.
#[test]
fn every_deal_lays_each_half_deck_under_its_owners_half() {
    let engine = engine();
    for seed in 1..=20 {
        let state = GameState::deal(&engine.content().setup(), seed, &engine);
        let items = state.items().unwrap();
        for square in Square::all().filter(|s| s.colour() == Colour::Dark) {
            let on = items.at(square).unwrap_or_else(|| panic!("seed {seed}: {square} holds no card"));
            let suits = if square.rank() < 4 { ['H', 'S'] } else { ['D', 'C'] };
            assert!(suits.contains(&suit(&engine, on.held.item)), "seed {seed}: {square}");
            assert_eq!((on.face, on.held.known), (Face::Down, [false; 2]), "seed {seed}: {square} is unseen (S3)");
        }
        for p in Player::BOTH {
            let stock = zone_items(&engine, &state, "stockpile", p);
            assert_eq!(stock.len(), 10, "seed {seed}: S4");
            let suits = if p == Player::Dark { ['H', 'S'] } else { ['D', 'C'] };
            for item in stock {
                assert!(suits.contains(&suit(&engine, item)));
                assert!(items.knows(item, p) && !items.knows(item, !p), "seed {seed}: only {p} sees {p}'s stockpile");
            }
            assert!(zone_items(&engine, &state, "half_deck", p).is_empty());
        }
    }
}

#[test]
fn the_computer_sees_neither_face_down_cards_nor_the_opponents_stockpile() {
    let engine = engine();
    let state = GameState::deal(&engine.content().setup(), 9, &engine);
    let light_stock = zone_items(&engine, &state, "stockpile", Player::Light);
    let on_e7 = state.items().unwrap().at(sq("e7")).unwrap().held.item;
    let on_g7 = state.items().unwrap().at(sq("g7")).unwrap().held.item;
    // A card of Light's stockpile for one under Light's half; two face-down cards.
    for changed in [common::swap_items(&state, light_stock[0], on_e7), common::swap_items(&state, on_e7, on_g7)] {
        assert_ne!(changed, state);
        assert_eq!(Observation::new(&changed, Player::Dark), Observation::new(&state, Player::Dark));
        let seed = 3;
        let mut a = make_agent("normal:iterations=60", seed, Vec::new(), Budget::Reproducible, None).unwrap();
        let mut b = make_agent("normal:iterations=60", seed, Vec::new(), Budget::Reproducible, None).unwrap();
        assert_eq!(a.choose(&state, &engine), b.choose(&changed, &engine), "the same decision either way");
    }
    let swapped = common::swap_items(&state, light_stock[0], on_e7);
    assert_ne!(
        Observation::new(&swapped, Player::Light),
        Observation::new(&state, Player::Light),
        "Light sees its own"
    );
}

/// A position of the deck: `pieces` as `(square, glyph)`, cards on squares
/// (face down unless `"ID up"`), Dark's stockpile, pools by name.
struct Scene<'a> {
    pieces: &'a [(&'a str, &'a str)],
    cards: &'a [(&'a str, &'a str)],
    dark_stock: &'a [&'a str],
    pools: &'a [(Player, &'a str, u8)],
    turn: u32,
}

fn drawn(pieces: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        out.push_str("+----+----+----+----+----+----+----+----+\n|");
        for file in 0..8 {
            let square = Square::at(file, rank).unwrap().to_string();
            let glyph = pieces.iter().find(|(s, _)| *s == square).map_or("", |(_, g)| *g);
            out.push_str(&format!(" {glyph:<3}|"));
        }
        out.push_str(&format!(" {}\n", rank + 1));
    }
    out.push_str("+----+----+----+----+----+----+----+----+\n");
    out
}

fn scene(engine: &ScriptEngine, s: Scene) -> GameState {
    let content = engine.content();
    let setup = content.setup();
    let mut state = GameState::new(&setup, 1);
    let mut board =
        diagram::parse_with(&drawn(s.pieces), setup.supply, setup.crowning, &content.marker_glyphs()).unwrap();
    board.set_movement(setup.movement);
    board.declare_pools(setup.routes.unwrap());
    board.number_checkers();
    for &(p, pool, n) in s.pools {
        board.set_pool(p, content.pool_index(pool).unwrap(), n).unwrap();
    }
    state.position_mut().board = board;
    state.position_mut().turn = s.turn;
    let catalogue = content.items().unwrap();
    let mut items = state.items().unwrap().clone();
    for &(square, card) in s.cards {
        let (id, face) = match card.split_once(' ') {
            Some((id, "up")) => (id, Face::Up),
            _ => (card, Face::Down),
        };
        let item = catalogue.item_named(id).unwrap();
        items.put(item, Place::Square { square: sq(square), face }, false).unwrap();
    }
    for id in s.dark_stock {
        items.put(catalogue.item_named(id).unwrap(), zone(engine, "stockpile", Player::Dark), true).unwrap();
    }
    state.set_items(items);
    state
}

fn normal_choice(state: &GameState, engine: &ScriptEngine, seed: u64) -> Choice {
    let mut agent = make_agent("normal", seed, Vec::new(), Budget::Reproducible, None).unwrap();
    agent.choose(state, engine).expect("a decision is pending")
}

fn move_text(choice: &Choice) -> String {
    match choice {
        Choice::Move(mv) => mv.to_string(),
        other => format!("{other:?}"),
    }
}

/// S12: on the last turn, a king that leaves from its home row wins the game
/// by survival; the computer takes it.
#[test]
fn the_computer_rescues_a_king_when_it_wins() {
    let engine = engine();
    let state = scene(
        &engine,
        Scene {
            pieces: &[("c1", "D"), ("a3", "d"), ("h8", "l"), ("b8", "l")],
            cards: &[],
            dark_stock: &[],
            pools: &[(Player::Light, "rescued", 1)],
            turn: 199,
        },
    );
    for seed in 1..=3 {
        assert_eq!(move_text(&normal_choice(&state, &engine, seed)), "c1-off", "seed {seed}");
    }
}

/// S18: a footman's strike takes a king where a plain jump takes a pawn.
#[test]
fn the_computer_strikes_a_king_rather_than_jump_a_pawn() {
    let engine = engine();
    let state = scene(
        &engine,
        Scene {
            pieces: &[("d4", "dF"), ("c3", "L"), ("a5", "d"), ("b6", "l"), ("a1", "d"), ("h8", "l")],
            cards: &[],
            dark_stock: &[],
            pools: &[],
            turn: 10,
        },
    );
    let options: Vec<String> = state.pending(&engine).unwrap().options.iter().map(move_text).collect();
    assert_eq!(options, ["a5xc7", "d4xc3xd4"], "a jump over a pawn, a strike at a king behind");
    for seed in 1..=3 {
        assert_eq!(move_text(&normal_choice(&state, &engine, seed)), "d4xc3xd4", "seed {seed}");
    }
}

/// S17: a queen's backward capture is safe where her forward one walks into
/// a recapture.
#[test]
fn the_computer_uses_a_queens_backward_capture() {
    let engine = engine();
    let state = scene(
        &engine,
        Scene {
            pieces: &[("d4", "dQ"), ("e5", "l"), ("g7", "l"), ("h8", "l"), ("c3", "l"), ("a1", "d")],
            cards: &[],
            dark_stock: &[],
            pools: &[],
            turn: 10,
        },
    );
    let options: Vec<String> = state.pending(&engine).unwrap().options.iter().map(move_text).collect();
    assert_eq!(options, ["d4xf6", "d4xb2"], "both captures are offered, forward and backward");
    for seed in 1..=3 {
        assert_eq!(move_text(&normal_choice(&state, &engine, seed)), "d4xb2", "seed {seed}");
    }
}

/// S8: facing a black 9, the computer discards a card that saves its king,
/// never the 2 that loses it.
#[test]
fn the_computer_discards_a_card_that_saves_its_piece() {
    let engine = engine();
    let mut state = scene(
        &engine,
        Scene {
            pieces: &[("c3", "D"), ("a1", "d"), ("h8", "l"), ("f8", "l")],
            cards: &[("d4", "9S")],
            dark_stock: &["2H", "10H", "KH"],
            pools: &[],
            turn: 10,
        },
    );
    let step = state.pending(&engine).unwrap().options.into_iter().find(|c| move_text(c) == "c3-d4").unwrap();
    state.apply(&engine, &step).unwrap();
    let question = state.pending(&engine).unwrap();
    assert_eq!(question.player, Player::Dark);
    for seed in 1..=3 {
        let choice = normal_choice(&state, &engine, seed);
        let Choice::Answer(Answer::Option(card)) = &choice else { panic!("{choice:?}") };
        assert_ne!(&**card, "2H", "seed {seed}: a 2 does not outbid a 9");
        let greedy =
            make_agent("greedy", seed, Vec::new(), Budget::Reproducible, None).unwrap().choose(&state, &engine);
        assert_ne!(greedy, Some(Choice::Answer(Answer::Option("2H".into()))), "seed {seed}: nor for greedy");
    }
}

#[test]
fn check_refuses_a_worth_for_the_reserve_or_an_unknown_pool() {
    let routes = |worth: &[(&str, u8)]| {
        let worth = worth.iter().map(|(n, w)| (n.to_string(), *w)).collect();
        let pools = ["surplus".to_string(), "captured".to_string()];
        alien_checkers::content::pools::routes(&pools, &Default::default(), &worth)
    };
    assert!(routes(&[("captured", 1)]).unwrap().is_some());
    assert!(routes(&[("surplus", 1)]).unwrap_err().1.contains("is the reserve"));
    assert!(routes(&[("rescued", 1)]).unwrap_err().1.contains("not among the pools"));
    assert!(routes(&[("captured", 11)]).unwrap_err().1.contains("0 to 10"));
}
