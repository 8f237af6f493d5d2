//! `log N` and review mode: the board as each move began, each step of a
//! saved game as play draws it, and PDN export read back (issue 38).

use std::collections::BTreeMap;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use alien_checkers::game::{Choice, Event, EventLog, GameEvent, GameState, Logged};
use alien_checkers::kernel::{Board, Player};
use alien_checkers::plain::Position;
use alien_checkers::repl::render::{self, Marks, View};
use alien_checkers::repl::review::{self, Review};
use alien_checkers::script::ScriptEngine;
use alien_checkers::session::Session;

use crate::common;

const VIEW: View = View { viewer: Player::Dark, colour: false };

/// A game of `deck` played to its end (or `cap` decisions) by uniformly
/// random choices seeded with `seed`.
fn random_game(deck: &str, seed: u64, cap: usize) -> Session {
    let mut session = Session::new(&common::repo(), deck, seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    while let Some(d) = session.pending() {
        if session.history().len() >= cap {
            break;
        }
        let pick = d.options[(rng.next_u32() as usize) % d.options.len()].clone();
        session.apply(&pick).unwrap();
    }
    session
}

/// The state after the deal and after each decision, and each decision's
/// events, by a replay of `choices` on a bare GameState (as Session::restart
/// deals, without the Session's record).
fn replayed(engine: &ScriptEngine, seed: u64, choices: &[Choice]) -> (Vec<GameState>, Vec<Vec<Logged>>) {
    let setup = engine.content().setup();
    let mut state = GameState::new(&setup, seed);
    *state.journal_mut() = EventLog::recording();
    state.begin(&setup, engine);
    let _ = state.settle(engine);
    let mut events = vec![state.journal_mut().take()];
    let mut states = vec![state.clone()];
    for choice in choices {
        state.apply(engine, choice).unwrap();
        events.push(state.journal_mut().take());
        states.push(state.clone());
    }
    (states, events)
}

/// The board at the start of turn `turn` (1-based; Dark's turn of move N is
/// 2N-1), from the replay: the board before the decision whose events begin
/// that turn, and those events up to the turn's start. `Some((board, plain))`
/// where `plain` says nothing after the turn's start changed the board in that
/// decision (so the board is the replayed state's after it).
fn board_at_turn(states: &[GameState], events: &[Vec<Logged>], turn: u32) -> Option<(Board, bool)> {
    let begins = |l: &Logged| matches!(l.event, Event::Game(GameEvent::TurnBegan { turn: t, .. }) if t == turn);
    let (k, at) = events.iter().enumerate().skip(1).find_map(|(k, e)| e.iter().position(begins).map(|at| (k, at)))?;
    let mut board = states[k - 1].board;
    let mut whole = board;
    for (i, logged) in events[k].iter().enumerate() {
        if let Event::Board(e) = &logged.event {
            if i < at {
                e.redo(&mut board);
            }
            e.redo(&mut whole);
        }
    }
    // Redoing a decision's events gives the state the replay reached.
    assert_eq!(whole, states[k].board, "decision {k}'s events redo to its board");
    let plain = !events[k][at..].iter().any(|l| matches!(l.event, Event::Board(_)));
    if plain {
        assert_eq!(board, states[k].board);
    }
    Some((board, plain))
}

fn drawn(session: &Session, board: Board) -> String {
    let mut state = session.state().clone();
    state.position_mut().board = board;
    render::board(&state, VIEW, &Marks::default(), &render::glyphs(session))
}

/// Issue 38, item 1: `log N` left out the last card of the move before
/// (standard seed 380577313: move 2's fire on e6 missing from `log 3`) and had
/// no move 1. For every move of 20 random standard and 20 nightmare games,
/// what `log N` draws is the board a replay of the record's first decisions
/// reaches as move N began (R1.3: Dark's turn 2N-1; R3.3: the move before
/// ends with its card).
#[test]
fn log_n_draws_the_board_as_move_n_began() {
    let mut after_a_card = 0;
    for deck in ["standard", "nightmare"] {
        let engine = ScriptEngine::load(&common::repo(), deck).unwrap();
        for seed in 0..20 {
            let session = random_game(deck, 1000 + seed, usize::MAX);
            let choices: Vec<Choice> = session.decisions().cloned().collect();
            let (states, events) = replayed(&engine, 1000 + seed, &choices);
            let mut n = 1;
            loop {
                let expected =
                    if n == 1 { Some((states[0].board, true)) } else { board_at_turn(&states, &events, 2 * n - 1) };
                let shown = review::board_at_move(&session, n, VIEW);
                let Some((board, _)) = expected else {
                    assert_eq!(shown, None, "{deck} seed {seed}: no move {n}");
                    break;
                };
                assert_eq!(shown.as_deref(), Some(drawn(&session, board).as_str()), "{deck} seed {seed}, log {n}");
                let start = session.move_start(n).unwrap();
                assert_eq!(start.board, board);
                if n > 1 && board != states[start.decisions - 1].board {
                    // The decision that began move N changed the board first:
                    // the board before it (what log N drew) was not the start.
                    after_a_card += 1;
                }
                n += 1;
            }
            assert!(n > 3, "{deck} seed {seed} has moves");
        }
    }
    assert!(after_a_card > 100, "the last card of a move changes the board often: {after_a_card}");
}

/// The game of the report, standard seed 380577313, as the computer plays it
/// on both sides (the reported game was a human's and cannot be replayed; the
/// test above covers any game): Light's last card of move 4 lands the
/// monolith on d4-e5, and `log 5` shows it; `log 1` shows the deal.
#[test]
fn log_5_of_seed_380577313_shows_the_monolith_of_move_4() {
    let dir = common::scratch_dir("review", "log5");
    let args = ["--deck", "standard", "--seed", "380577313", "--dark", "random", "--light", "random"];
    let run = common::run_binary(&dir, &args, &[], "log 1\nlog 4\nlog 5\nquit\n");
    assert!(run.success, "{}", run.stderr);
    let out = run.stdout;
    let board_of = |n: u32| {
        let from = out.find(&format!("the board as move {n} began:\n")).unwrap_or_else(|| panic!("log {n}: {out}"));
        out[from..].lines().skip(1).take(17).collect::<Vec<_>>().join("\n")
    };
    let monolith = |b: &str| b.lines().filter(|l| l.matches("##").count() == 2).count();
    assert!(out.contains("Light uses Monolith") || out.contains("uses Monolith; the monolith lands on d4-e5"), "{out}");
    assert_eq!(monolith(&board_of(4)), 0, "{}", board_of(4));
    // Rows 5 and 4: d5 e5 over d4 e5.
    assert_eq!(monolith(&board_of(5)), 2, "{}", board_of(5));
    assert!(board_of(1).contains("3 | d  |    | d  |    | d  |    | d  |"), "{}", board_of(1));
}

/// The board lines of a drawing, to be found at the start of the lines of a
/// screen that has a column beside them.
fn assert_board_in(screen: &str, board: &str, what: &str) {
    let lines: Vec<&str> = screen.lines().collect();
    let board: Vec<&str> = board.lines().collect();
    let first = lines.iter().position(|l| l.starts_with(board[0])).unwrap_or_else(|| panic!("{what}: {screen}"));
    for (i, row) in board.iter().enumerate() {
        assert!(
            lines.get(first + i).is_some_and(|l| l.starts_with(row)),
            "{what}, row {i}:\n{screen}\nexpected\n{}",
            board.join("\n")
        );
    }
}

/// Review mode steps through 20 saved games of every deck: at each step, and
/// after jumps back, it draws the board (with its marks) a replay of the
/// record's first decisions draws; leaving it gives the whole game back.
#[test]
fn review_draws_every_step_of_saved_games_of_every_deck_as_a_replay() {
    let dir = common::scratch_dir("review", "steps");
    let decks: Vec<String> = std::fs::read_dir(common::repo().path().join("cards/decks"))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".yaml").map(str::to_string))
        .collect();
    assert!(decks.len() >= 10 && decks.contains(&"russian".to_string()), "{decks:?}");
    let seats: BTreeMap<Player, String> =
        [(Player::Dark, "human".to_string()), (Player::Light, "random".to_string())].into();
    for deck in &decks {
        for seed in 0..20 {
            let played = random_game(deck, seed, 300);
            let choices: Vec<Choice> = played.decisions().cloned().collect();
            let file = dir.join(format!("{deck}-{seed}.json"));
            played.save(&file, seats.clone()).unwrap();
            // An independent replay, drawn step by step.
            let mut replay = Session::new(&common::repo(), deck, seed).unwrap();
            let draw = |s: &Session| render::board(&render::shown_state(s), VIEW, &Marks::of(s), &render::glyphs(s));
            let mut boards = vec![draw(&replay)];
            for choice in &choices {
                replay.apply(choice).unwrap();
                boards.push(draw(&replay));
            }
            let root = alien_checkers::session::root_for_save(None, &file, common::repo);
            let (mut loaded, _, record) = Session::open(&root, &file, alien_checkers::session::Edits::Refuse).unwrap();
            let (viewer, _) = review::viewer_of(&record.seats, None);
            assert_eq!(viewer, Player::Dark);
            let digest = loaded.digest();
            {
                let mut review = Review::new(&mut loaded, record.seats.clone(), VIEW, usize::MAX).unwrap();
                assert_eq!((review.at(), review.steps()), (0, choices.len()));
                for (k, board) in boards.iter().enumerate() {
                    review.go(k).unwrap();
                    assert_board_in(&review.shown(), board, &format!("{deck} seed {seed} step {k}"));
                }
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                for _ in 0..3 {
                    let k = (rng.next_u32() as usize) % boards.len();
                    review.go(k).unwrap();
                    assert_board_in(&review.shown(), &boards[k], &format!("{deck} seed {seed} back to step {k}"));
                }
                // At the deal no planet is told; at the end of a finished game both are.
                review.go(0).unwrap();
                assert!(!review.shown().contains("'s planet was"), "{deck} seed {seed}");
                review.go(choices.len()).unwrap();
                if review.session().outcome().is_some() && !review.session().engine.content().setup().planets.is_empty()
                {
                    assert!(review.shown().contains("Light's planet was"), "{deck} seed {seed}");
                }
                review.go(1.min(choices.len())).unwrap();
            }
            assert_eq!(loaded.digest(), digest, "{deck} seed {seed}: the whole game is back after the review");
            assert_eq!(loaded.history().len(), choices.len());
        }
    }
}

/// `go N` shows the board as move N began, the same as `log N`.
#[test]
fn review_go_n_is_the_start_of_move_n() {
    let mut session = random_game("standard", 7, usize::MAX);
    let starts: Vec<(usize, Board)> =
        (1..).map_while(|n| session.move_start(n)).map(|m| (m.decisions, m.board)).collect();
    let mut review = Review::new(&mut session, BTreeMap::new(), VIEW, usize::MAX).unwrap();
    for (i, (decisions, board)) in starts.iter().enumerate() {
        review.go_to_move(i as u32 + 1).unwrap();
        assert_eq!(review.at(), *decisions);
        // No start-of-turn effect in between: the step's board is the move's start.
        if review.session().state().board == *board {
            continue;
        }
        let events = review.session().history()[decisions - 1].made.events.clone();
        let began = events.iter().position(|l| matches!(l.event, Event::Game(GameEvent::TurnBegan { .. }))).unwrap();
        assert!(events[began..].iter().any(|l| matches!(l.event, Event::Board(_))), "move {}", i + 1);
    }
    assert!(review.go_to_move(starts.len() as u32 + 1).unwrap_err().contains("there is no move"));
}

/// Russian (and Italian, numbered squares) games exported as PDN and read
/// back by the deck's own FEN reader and legal moves: the same moves, the same
/// final position, the same result.
#[test]
fn pdn_export_reads_back_to_the_same_game() {
    for deck in ["russian", "italian", "plain"] {
        for seed in 0..5 {
            let session = random_game(deck, seed, usize::MAX);
            let seats: BTreeMap<Player, String> =
                [(Player::Dark, "human".to_string()), (Player::Light, "hard".to_string())].into();
            let text = review::pdn(&session, &seats).expect("a draughts deck exports PDN");
            let variant = session.engine.content().variant();
            let game =
                alien_checkers::pdn::read(&variant, &text).unwrap_or_else(|e| panic!("{deck} {seed}: {e}\n{text}"));
            let played: Vec<_> = session
                .decisions()
                .map(|c| match c {
                    Choice::Move(m) => *m,
                    other => panic!("{deck}: a draughts game has moves only, not {other:?}"),
                })
                .collect();
            assert_eq!(game.moves, played, "{deck} seed {seed}");
            let fen = |board: Board| variant.write_fen(&Position { board, to_move: Player::Dark });
            assert_eq!(fen(game.start.board), fen(variant.start().board), "{deck} seed {seed}");
            assert_eq!(fen(game.end.board), fen(session.state().board), "{deck} seed {seed}\n{text}");
            let over = session.outcome().map(|o| o.winner);
            assert_eq!(game.result, alien_checkers::pdn::result_text(&variant, over), "{deck} seed {seed}");
            assert!(text.contains("[SetUp \"1\"]") && text.contains("[White \""), "{text}");
        }
    }
    // Russian: White moves first (Dark), so a win of Dark's is 1-0.
    let variant = Session::new(&common::repo(), "russian", 0).unwrap().engine.content().variant();
    assert_eq!(alien_checkers::pdn::result_text(&variant, Some(Some(Player::Dark))), "1-0");
    assert_eq!(
        alien_checkers::pdn::result_text(&alien_checkers::plain::Variant::american(), Some(Some(Player::Dark))),
        "0-1"
    );
    // A move that is not legal is refused by name and number.
    let bad = "[FEN \"W:Wa1:Bh8\"]\n1. a1-b2 h8-g7 2. b2-a1 *\n";
    let e = alien_checkers::pdn::read(&variant, bad).unwrap_err().to_string();
    assert!(e.contains("move 2 'b2-a1'"), "{e}");
}

/// `alien-checkers review FILE --export OUT` writes PDN for a Russian game,
/// and the save format for a standard one; review reads piped commands.
#[test]
fn review_from_the_command_line_exports_and_steps() {
    let dir = common::scratch_dir("review", "cli");
    let seats: BTreeMap<Player, String> =
        [(Player::Dark, "random".to_string()), (Player::Light, "human".to_string())].into();
    let russian = random_game("russian", 3, usize::MAX);
    russian.save(&dir.join("r.json"), seats.clone()).unwrap();
    let run = common::run_binary(&dir, &["review", "r.json", "--export", "r.pdn"], &[], "");
    assert!(run.success && run.stdout.contains("(PDN)"), "{} {}", run.stdout, run.stderr);
    let text = std::fs::read_to_string(dir.join("r.pdn")).unwrap();
    let game = alien_checkers::pdn::read(&russian.engine.content().variant(), &text).unwrap();
    assert_eq!(game.moves.len(), russian.history().len());

    let standard = random_game("standard", 4, 40);
    standard.save(&dir.join("s.json"), seats).unwrap();
    let run =
        common::run_binary(&dir, &["review", "s.json"], &[], "n\nn\np\ngo 2\ngo 99\nlast\nwhat\nexport s2.json\nq\n");
    assert!(run.success, "{}", run.stderr);
    let out = run.stdout;
    // Light is the human seat: the review is Light's.
    assert!(out.contains("Your planet (Light)"), "{out}");
    assert!(out.contains("review 0/40> n\n") && out.contains("Review, step 1 of 40, move 1: Dark moves"), "{out}");
    assert!(out.contains("there is no move 99"), "{out}");
    assert!(out.contains("'what' is not a review command"), "{out}");
    assert!(out.contains("wrote the game to s2.json (the save format)"), "{out}");
    let record = alien_checkers::session::read_record(&dir.join("s2.json")).unwrap();
    assert_eq!(record.decisions.len(), 40);
}
