//! What cards did, told where players look for it (issue 38, items 13 and 16):
//! the moves column beside the board, `log` and `log N`, the panel, the
//! legend, the hand-over and the end line.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use alien_checkers::game::{Cause, Choice, EndReason, Event};
use alien_checkers::kernel::{BoardEvent, Player};
use alien_checkers::narrate::record_text;
use alien_checkers::repl::render::{self, Marks, View};
use alien_checkers::session::Session;

use crate::common;

/// Runs the binary on `args`, feeding `input`; its standard output.
fn run(args: &[&str], input: &str) -> String {
    let dir = common::scratch_dir("history", &args.join("-"));
    let run = common::run_binary(&dir, args, &[], input);
    assert!(run.success, "{}", run.stderr);
    run.stdout
}

/// Random games of `deck` from seed 0 on, each decision taken at random, until
/// `found` says yes after a decision (given the session and the decision's
/// index); the session there.
fn find(deck: &str, seeds: u64, found: impl Fn(&Session, usize) -> bool) -> Session {
    for seed in 0..seeds {
        let mut session = Session::new(&common::repo(), deck, seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while let Some(decision) = session.pending().cloned() {
            let pick = &decision.options[(rng.next_u32() as usize) % decision.options.len()];
            session.apply(pick).unwrap();
            if found(&session, session.history().len() - 1) {
                return session;
            }
        }
    }
    panic!("no random game of {deck} in {seeds} seeds does what is wanted");
}

/// Item 16a: Second move's extra move stands in the moves column beside the
/// board, after the card's name, as moves are written (`Second move g3-h4`).
#[test]
fn second_moves_extra_move_is_in_the_moves_column() {
    let second_move = |s: &Session| s.engine.content().card_id("second_move").unwrap();
    let session = find("standard", 200, |s, i| {
        s.history()[i].made.events.iter().any(|l| {
            l.cause == Cause::Card { card: second_move(s) } && matches!(l.event, Event::Board(BoardEvent::Moved { .. }))
        })
    });
    let last = session.history().last().unwrap();
    let (from, to) = last
        .made
        .events
        .iter()
        .find_map(|l| match l.event {
            Event::Board(BoardEvent::Moved { from, to, .. }) if matches!(l.cause, Cause::Card { .. }) => {
                Some((from, to))
            }
            _ => None,
        })
        .unwrap();
    let column = render::history(&session, Player::Dark, 1000);
    let line = column.last().unwrap();
    let shown = [format!("Second move {from}-{to}"), format!("Second move {from}x{to}")];
    assert!(shown.iter().any(|s| line.ends_with(s.as_str())), "{line}\n{}", column.join("\n"));
}

/// Item 16b: a move that Ice slid on is written where the checker went
/// (`d4-c5~b6`), the same in the decision's line (the log, the panel's
/// `last:`, review), the moves column and the record (`log`, `replay`).
#[test]
fn an_ice_slide_is_written_where_the_piece_went() {
    let session = find("nightmare", 400, |s, i| {
        let decided = &s.history()[i];
        let Choice::Move(m) = &decided.choice else { return false };
        decided.made.events.iter().any(|l| {
            matches!(l.cause, Cause::Effect { .. })
                && matches!(l.event, Event::Board(BoardEvent::Moved { from, .. }) if from == m.to())
        })
    });
    let decided = session.history().last().unwrap();
    let Choice::Move(m) = &decided.choice else { unreachable!() };
    let slid = decided
        .made
        .events
        .iter()
        .find_map(|l| match l.event {
            Event::Board(BoardEvent::Moved { from, to, .. }) if from == m.to() && l.cause != Cause::Turn => Some(to),
            _ => None,
        })
        .unwrap();
    let written = format!("{m}~{slid}");
    assert!(decided.line.contains(&format!("moves {written}")), "{}", decided.line);
    let column = render::history(&session, decided.decider, 1000);
    assert!(column.last().unwrap().contains(&written), "{}", column.join("\n"));
    assert!(record_text(&session.turns(None)).contains(&written), "{}", record_text(&session.turns(None)));
}

/// Item 16c: a face-up card's text is on the panel whole, wrapped to the
/// terminal's width, never cut short.
#[test]
fn face_up_card_texts_are_shown_whole_and_wrapped() {
    let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut long = 0;
    for seed in 0..12 {
        let session = Session::new(&common::repo(), "standard", seed).unwrap();
        let screen = render::screen(&session, View { viewer: Player::Dark, colour: false }, 80);
        assert!(screen.lines().all(|l| textwrap::core::display_width(l) <= 80), "{screen}");
        for &card in &session.state().piles().face_up {
            let text = words(&session.engine.content().card(card).unwrap().manifest.text);
            long += usize::from(text.len() > 80);
            assert!(words(&screen).contains(&text), "seed {seed}: {text}\n{screen}");
        }
    }
    assert!(long > 0, "some card's text is longer than a line");
}

/// Item 16d: the legend says whose walls are whose in words, with colour and
/// without (NO_COLOR draws them in their owner's letter).
#[test]
fn the_legend_says_whose_walls_are_whose() {
    let out = run(&["--seed", "1", "--dark", "human", "--light", "human"], "c3-d4\nwalls\nplace\nc5 d5 up\nquit!\n");
    let light = out.find("Pass to Light").expect("handed to Light");
    assert!(out[light..].contains(", DDDD Dark's walls,"), "{}", &out[light..]);
    assert!(!out[light..].contains("Light's walls"), "Light has none: {}", &out[light..]);
    let mut session = Session::new(&common::repo(), "standard", 1).unwrap();
    for line in ["c3-d4", "walls", "place", "c5 d5 up"] {
        let choice = alien_checkers::repl::parse_choice(&session, line).unwrap();
        session.apply(&choice).unwrap();
    }
    let view = View { viewer: Player::Light, colour: true };
    let legend = render::legend(&session, view, &Marks::of(&session));
    assert!(legend.contains("\u{1b}[0m Dark's walls"), "the coloured mark, then whose: {legend:?}");
}

/// Item 16e: in hot-seat each handed screen starts with the game's seed (the
/// hand-over clears the opening line away).
#[test]
fn hot_seat_shows_the_seed_on_each_handed_screen() {
    let out = run(&["--seed", "9", "--dark", "human", "--light", "human"], "quit!\n");
    let dark = out.rfind("Pass to Dark, press Enter").expect("handed to Dark");
    assert!(out[dark..].contains("seed 9 (replay it with --seed 9)"), "{}", &out[dark..]);
}

/// Item 16f: a five-kings win names the squares of the kings and emperors
/// that won (R10.1), in the end line and in the record's last line.
#[test]
fn a_five_kings_win_names_the_kings_squares() {
    let session = find("standard", 400, |s, _| s.outcome().is_some_and(|o| o.reason == EndReason::FiveKings));
    let outcome = session.outcome().unwrap();
    let winner = outcome.winner.unwrap();
    let board = &session.state().board;
    let kings: Vec<String> = (board.checkers(winner) & board.kings()).into_iter().map(|s| s.to_string()).collect();
    assert!(kings.len() >= 5, "{kings:?}");
    let end = session.describe_outcome(&outcome);
    assert!(end.contains(&format!("on {} (R10.1)", kings.join(" "))), "{end}");
    let record = record_text(&session.turns(None));
    assert!(record.contains(&format!("five kings and emperors, on {} (R10.1)", kings.join(" "))), "{record}");
}

/// Item 13: walls are named in what is told and in `log` and `log N` as the
/// reader types them in play (`c5 d5 up`; Light, across the board, `d6 c6 up`),
/// never as edge pairs (`c5/c6`).
#[test]
fn walls_are_told_and_logged_as_play_names_them() {
    let input = "c3-d4\nwalls\nplace\nc5 d5 up\nlog\nlog 1\nquit!\n";
    let out = run(&["--seed", "1", "--dark", "human", "--light", "human"], input);
    assert!(out.contains("  * your walls go up at c5 d5 up\n"), "{out}");
    let light = out.find("Pass to Light").expect("handed to Light");
    let logged = out[light..].matches("Dark's walls go up at d6 c6 up").count();
    assert_eq!(logged, 3, "in the hand-over, `log` and `log 1`: {}", &out[light..]);
    assert!(!out.contains("c5/c6"), "{out}");
}

/// Item 13: Mirror's duration reads on the panel as on the card: until the
/// opponent's next card has resolved.
#[test]
fn mirrors_duration_reads_on_the_panel_as_on_the_card() {
    let session = find("nightmare", 200, |s, _| {
        let mirror = s.engine.content().card_id("mirror").unwrap();
        s.state().effects.iter().any(|e| e.card == mirror)
    });
    let mirror = session.engine.content().card_id("mirror").unwrap();
    let owner = session.state().effects.iter().find(|e| e.card == mirror).unwrap().owner;
    let text = &session.engine.content().card(mirror).unwrap().manifest.text;
    assert!(text.starts_with("Until your opponent's next card has resolved"), "{text}");
    let lines = render::effect_lines(&session);
    let line = lines.iter().find(|l| l.starts_with("Mirror")).unwrap();
    assert!(line.contains(&format!("(until {}'s next card has resolved)", !owner)), "{line}");
}
