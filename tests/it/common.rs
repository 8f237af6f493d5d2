//! Helpers shared by the integration tests: boards read from diagrams, compared
//! as diagrams, and move lists as sorted text.

use alien_checkers::diagram;
use alien_checkers::kernel::Unrecorded;
use alien_checkers::kernel::{Bitboard, Board, Crowning, Edge, EdgePair, Player, Square, Supply, legal_moves};

pub fn sq(name: &str) -> Square {
    name.parse().unwrap_or_else(|e| panic!("{e}"))
}

pub fn edge(name: &str) -> Edge {
    name.parse().unwrap_or_else(|e| panic!("{e}"))
}

pub fn pair(name: &str) -> EdgePair {
    name.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// An Alien Checkers board (standard supply, crowning from the reserve) read from
/// a diagram; each reserve holds the pieces not drawn (12 in all, R1.3).
pub fn board(text: &str) -> Board {
    board_with(text, Supply::STANDARD, Crowning::FromReserve)
}

pub fn board_with(text: &str, supply: Supply, crowning: Crowning) -> Board {
    let board = diagram::parse(text, supply, crowning).unwrap_or_else(|e| panic!("bad test diagram: {e}\n{text}"));
    board.validate().unwrap_or_else(|e| panic!("test diagram breaks an invariant: {e}\n{text}"));
    board
}

/// A diagram reduced to what it says: the file-letter line and blank lines
/// dropped, dots (empty dark squares) blanked, runs of spaces collapsed, so
/// expected diagrams may be indented and aligned by hand.
pub fn normalise(text: &str) -> String {
    text.lines()
        .map(|l| l.replace('.', " ").split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty() && !l.starts_with(|c: char| c.is_ascii_lowercase()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Asserts that `board` draws as `expected` (see [`normalise`]).
#[track_caller]
pub fn assert_diagram(board: &Board, expected: &str) {
    let actual = diagram::render(board);
    assert!(
        normalise(&actual) == normalise(expected),
        "the board differs from the expected diagram\n--- actual ---\n{actual}--- expected ---\n{expected}"
    );
}

/// The legal moves of `player` (R4), as sorted text: `c3-d4`, `c3xe5xg7`.
pub fn moves(board: &Board, player: Player) -> Vec<String> {
    moves_of(board, player, Bitboard::ALL)
}

pub fn moves_of(board: &Board, player: Player, allowed: Bitboard) -> Vec<String> {
    let mut out = Vec::new();
    legal_moves(board, player, allowed, &mut out);
    let mut names: Vec<String> = out.iter().map(|m| m.to_string()).collect();
    names.sort();
    names
}

/// Plays the legal move of `player` written `text` (R4); panics if it is not legal.
#[track_caller]
pub fn play(board: &mut Board, player: Player, text: &str) {
    let mut out = Vec::new();
    legal_moves(board, player, Bitboard::ALL, &mut out);
    let mv = out.iter().find(|m| m.to_string() == text).unwrap_or_else(|| {
        let legal: Vec<String> = out.iter().map(|m| m.to_string()).collect();
        panic!("{text} is not legal for {player}; legal: {legal:?}")
    });
    board.play(mv, &mut Unrecorded).unwrap_or_else(|e| panic!("{text}: {e}"));
}

/// A set of squares from names.
pub fn squares(names: &[&str]) -> Bitboard {
    names.iter().map(|n| sq(n)).collect()
}

/// A content root in a fresh temporary folder (named after `tag`): the `cards`
/// and `planets` given as (id, Lua source), and a deck `test` holding them all.
pub fn scratch_content(
    tag: &str,
    cards: &[(&str, &str)],
    planets: &[(&str, &str)],
) -> alien_checkers::content::ContentRoot {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let root = std::env::temp_dir().join(format!("alien-{tag}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("cards/decks")).unwrap();
    std::fs::create_dir_all(root.join("planets")).unwrap();
    let mut deck = String::from("name: test\ncards:\n");
    for (id, source) in cards {
        std::fs::write(root.join(format!("cards/{id}.yaml")), format!("name: {id}\ntext: a test card\n")).unwrap();
        std::fs::write(root.join(format!("cards/{id}.lua")), source).unwrap();
        deck.push_str(&format!("  {id}: 1\n"));
    }
    for (id, source) in planets {
        std::fs::write(root.join(format!("planets/{id}.yaml")), format!("name: {id}\ntext: a test planet\n")).unwrap();
        std::fs::write(root.join(format!("planets/{id}.lua")), source).unwrap();
    }
    let names: Vec<&str> = planets.iter().map(|(id, _)| *id).collect();
    deck.push_str(&format!(
        "planets: [{}]\nrules: {{crowning: from_reserve, cards: true, five_kings_win: true, when_stuck: skip, move_limit: 200}}\n",
        names.join(", ")
    ));
    std::fs::write(root.join("cards/decks/test.yaml"), deck).unwrap();
    alien_checkers::content::ContentRoot::new(root)
}

/// The project's own content root (the shipped cards, planets and decks).
pub fn repo() -> alien_checkers::content::ContentRoot {
    alien_checkers::content::ContentRoot::new(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh, empty folder for one test: `tag` names the test file, `name` the test.
pub fn scratch_dir(tag: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("alien-{tag}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What one run of the `alien-checkers` binary printed, and how it exited.
pub struct BinaryRun {
    pub stdout: String,
    pub stderr: String,
    pub success: bool,
}

/// Runs the binary in `dir` with `args` and extra environment (`NO_COLOR` is
/// set), feeding `input` on standard input. A panic fails the test.
pub fn run_binary(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)], input: &str) -> BinaryRun {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_alien-checkers"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // The binary may end before it reads its input (a refused --load): a
    // broken pipe then is no failure.
    if let Err(e) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "writing the binary's input: {e}");
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "the binary panicked:\n{stderr}");
    BinaryRun { stdout: String::from_utf8_lossy(&out.stdout).into_owned(), stderr, success: out.status.success() }
}

/// `state` with items `a` and `b` in each other's places; what each player
/// knows stays with the place (a guess at hidden items changes no more).
pub fn swap_items(
    state: &alien_checkers::game::GameState,
    a: alien_checkers::game::ItemId,
    b: alien_checkers::game::ItemId,
) -> alien_checkers::game::GameState {
    use alien_checkers::game::Place;
    use alien_checkers::kernel::Player;
    let mut items = state.items().expect("the deck has items").clone();
    let known = |item| Player::BOTH.map(|p| items.knows(item, p));
    let (known_a, known_b) = (known(a), known(b));
    let (place_a, place_b) = (items.find(a), items.find(b));
    items.put(a, Place::OUT, true).unwrap();
    items.put(b, place_a, false).unwrap();
    items.put(a, place_b, false).unwrap();
    items.set_known(b, known_a);
    items.set_known(a, known_b);
    let mut swapped = state.clone();
    swapped.set_items(items);
    swapped
}
