//! Drawing the game for a terminal: the board from a seated player's view (R2.2:
//! rotating the board turns the drawing, square names stay on their squares) and
//! a panel with everything else a player needs.

use std::fmt::Write as _;

use super::palette::{self, Ground, Ink};
use crate::diagram;
use crate::game::{Affected, Answer, Choice, DecisionKind, GameState, Lasting, QuestionKind, Step};
use crate::kernel::{Bitboard, Board, Dir, Edge, Kind, MoveRules, Player, Square, Terrain};
use crate::narrate::Frame;
use crate::session::Session;
use crate::spots;
use textwrap::core::display_width;

/// How to draw: whose side is at the bottom, and whether to use ANSI colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    pub viewer: Player,
    pub colour: bool,
}

const RESET: &str = "\x1b[0m";

fn paint(on: bool, code: &str, text: &str) -> String {
    if on { format!("\x1b[{code}m{text}{RESET}") } else { text.to_string() }
}

/// What the board shows besides what stands on it, and how the deck draws
/// its squares and checkers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Marks {
    /// Changed in the previous turn or this one: `*` before the code.
    pub changed: Bitboard,
    /// The last checker move's start and end: a ground of their own in
    /// colour, `[ ]` around the code without.
    pub last_move: Bitboard,
    /// The squares that answer the pending question: `?` before the code.
    pub candidates: Bitboard,
    /// Closed to moves by a lasting effect (R4.8's closed squares): `x` after the code.
    pub closed: Bitboard,
    /// The squares drawn as the board's dark ones, with a dot when empty:
    /// the deck's playing squares (R1.1's dark squares unless its start says
    /// otherwise: Italian draughts plays on the others, Turkish on all).
    pub playing: Bitboard,
    /// The letters of Dark's and Light's checkers: `d` and `l`, or the
    /// initials of the deck's side names (`w` and `b`).
    pub letters: [char; 2],
    /// The option numbers of the candidate 2×2 blocks, by the index of the
    /// block's anchor (0: not a candidate), each drawn where the block's four
    /// squares meet: one crossing, one block (issue 38, item 11).
    pub blocks: [u8; 64],
}

impl Default for Marks {
    fn default() -> Marks {
        Marks {
            changed: Bitboard::EMPTY,
            last_move: Bitboard::EMPTY,
            candidates: Bitboard::EMPTY,
            closed: Bitboard::EMPTY,
            playing: Bitboard::DARK,
            letters: ['d', 'l'],
            blocks: [0; 64],
        }
    }
}

impl Marks {
    /// Only squares changed lately, as a scenario or a test draws them.
    pub fn changed(changed: Bitboard) -> Marks {
        Marks { changed, ..Marks::default() }
    }

    /// No marks, with the deck's squares and letters.
    pub fn of_deck(session: &Session) -> Marks {
        let content = session.engine.content();
        let initial = |p: Player| content.side_name(p).chars().next().map(|c| c.to_ascii_lowercase());
        let letters =
            match (content.spoken().and_then(|n| n.sides.as_ref()), initial(Player::Dark), initial(Player::Light)) {
                // Letters that no token, mark or marker of the deck's reads as.
                (Some(_), Some(d), Some(l))
                    if d != l
                        && [d, l].iter().all(|c| c.is_ascii_lowercase() && !"rshx".contains(*c))
                        && !glyphs(session).iter().any(|g| [d, l].contains(&g.to_ascii_lowercase())) =>
                {
                    [d, l]
                }
                _ => ['d', 'l'],
            };
        Marks { playing: content.deck.rules.start.squares.squares(), letters, ..Marks::default() }
    }

    /// Everything `session` has to show.
    pub fn of(session: &Session) -> Marks {
        let state = session.state();
        let last_move = session.last_move().map_or(Bitboard::EMPTY, |m| {
            let mut squares = Bitboard::from_square(m.from());
            squares.insert(m.to());
            squares
        });
        let closed = state.effects.iter().fold(Bitboard::EMPTY, |all, e| all | e.moves.closed);
        let mut blocks = [0; 64];
        if let Step::Resolving(r) = &state.step
            && r.question.kind == QuestionKind::Block
        {
            for (i, answer) in r.question.options.iter().enumerate() {
                if let Answer::Square(anchor) = answer {
                    blocks[anchor.index()] = u8::try_from(i + 1).unwrap_or(0);
                }
            }
        }
        // A block is named by its number, not by a `?` on one of its squares.
        let candidates = if blocks.iter().any(|&n| n > 0) { Bitboard::EMPTY } else { candidates(session) };
        Marks { changed: session.recent_squares(), last_move, candidates, closed, blocks, ..Marks::of_deck(session) }
    }
}

/// The squares that answer the pending question: squares and checkers as
/// asked, a 2×2 block by its square drawn lower left for the decider.
pub fn candidates(session: &Session) -> Bitboard {
    let Step::Resolving(r) = &session.state().step else { return Bitboard::EMPTY };
    let frame = decider_frame(session);
    let mut marked = Bitboard::EMPTY;
    for answer in &r.question.options {
        if let Answer::Square(sq) = answer {
            marked.insert(if r.question.kind == QuestionKind::Block { frame.block_corner(*sq) } else { *sq });
        }
    }
    marked
}

/// The square at column `x`, row `y` (0 = nearest the viewer) of the viewer's frame.
fn square_at(board: &Board, viewer: Player, x: i8, y: i8) -> Square {
    let forward = board.orientation().forward(viewer);
    let right = forward.clockwise();
    let corner = Square::all()
        .find(|s| s.step(forward.opposite()).is_none() && s.step(right.opposite()).is_none())
        .expect("a board has four corners");
    let (rf, rr) = right.delta();
    let (ff, fr) = forward.delta();
    Square::at(corner.file() + x * rf + y * ff, corner.rank() + x * rr + y * fr).expect("inside the board")
}

/// What varies along a direction: file letters for east-west, rank numbers otherwise.
fn label(sq: Square, along: Dir) -> char {
    match along {
        Dir::E | Dir::W => (b'a' + sq.file() as u8) as char,
        _ => (b'1' + sq.rank() as u8) as char,
    }
}

fn wall(board: &Board, a: Square, b: Square, plain: &str, colour: bool) -> String {
    let edge = Edge::between(a, b).expect("neighbours in the viewer's frame");
    match board.wall_owner(edge) {
        None => plain.to_string(),
        Some(owner) => {
            let mark = if owner == Player::Dark { "D" } else { "L" }.repeat(plain.chars().count());
            let mark =
                if colour { if plain == "|" { "┃".to_string() } else { "━".repeat(plain.len()) } } else { mark };
            paint(colour, palette::player_text(owner), &mark)
        }
    }
}

/// A square's text before centring: `[`, the `?` or `*` mark, the diagram's
/// code, `x` when closed, `]`.
fn cell_text(board: &Board, sq: Square, marks: &Marks, colour: bool, glyphs: &[char]) -> String {
    let mut code = diagram::cell_with(board, sq, glyphs);
    if code.is_empty() || code == "." {
        // An empty square: dotted when it is one the deck plays on.
        code = if marks.playing.contains(sq) { ".".into() } else { String::new() };
    } else if let Some(c) = board.checker(sq) {
        // The checker's letters (one, two for an emperor) in the deck's own.
        let letter = marks.letters[c.owner.index()];
        let letter = if c.kind == Kind::Pawn { letter } else { letter.to_ascii_uppercase() };
        let n = if c.kind == Kind::Emperor { 2 } else { 1 };
        code = std::iter::repeat_n(letter, n).chain(code.chars().skip(n)).collect();
    }
    let last = marks.last_move.contains(sq);
    let flag = if marks.candidates.contains(sq) {
        "?"
    } else if marks.changed.contains(sq) && !last {
        "*"
    } else {
        ""
    };
    // A mark on an empty square stands alone, without the dot.
    if code == "." && (!flag.is_empty() || marks.closed.contains(sq)) {
        code.clear();
    }
    if marks.closed.contains(sq) {
        code.push('x');
    }
    if last && !colour { format!("[{flag}{code}]") } else { format!("{flag}{code}") }
}

/// A square's `width` characters, painted on its ground.
fn cell(board: &Board, sq: Square, marks: &Marks, colour: bool, glyphs: &[char], width: usize) -> String {
    let text = format!("{:^width$}", cell_text(board, sq, marks, colour, glyphs));
    if !colour {
        return text;
    }
    let ground = if board.monolith_block().contains(sq) {
        Ground::Monolith
    } else {
        match board.terrain_at(sq) {
            Some(Terrain::Water) => Ground::Water,
            Some(Terrain::Fire) => Ground::Fire,
            None if marks.last_move.contains(sq) => Ground::LastMove(drawn_colour(sq, marks)),
            None => Ground::Square(drawn_colour(sq, marks)),
        }
    };
    let ink = board.checker(sq).map_or(Ink::Mark, |c| Ink::Piece(c.owner));
    paint(true, &ground.style(ink), &text)
}

/// The colour `sq` is drawn in: dark where the deck plays.
fn drawn_colour(sq: Square, marks: &Marks) -> crate::kernel::Colour {
    if marks.playing.contains(sq) { crate::kernel::Colour::Dark } else { crate::kernel::Colour::Light }
}

/// The board in the viewer's frame with labels that follow the rotation and
/// the `marks`; a compass beside it when north is not up.
pub fn board(state: &GameState, view: View, marks: &Marks, glyphs: &[char]) -> String {
    let b = &state.board;
    let forward = b.orientation().forward(view.viewer);
    let right = forward.clockwise();
    // Four characters a cell, or more when a code and its marks need them.
    let width = Square::all()
        .map(|sq| cell_text(b, sq, marks, view.colour, glyphs).chars().count())
        .fold(diagram::CELL, usize::max);
    let plain = "-".repeat(width);
    let mut out = String::new();
    for y in (0..8).rev() {
        // The rule above row y.
        out.push_str("  +");
        for x in 0..8 {
            // A candidate block's number at the crossing after this segment,
            // ending on it; the segment gives way to its first digits.
            let number = (y < 7 && x < 7)
                .then(|| {
                    let four =
                        [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)].map(|(x, y)| square_at(b, view.viewer, x, y));
                    let anchor = four.into_iter().min_by_key(|s| (s.rank(), s.file())).expect("four squares");
                    marks.blocks[anchor.index()]
                })
                .filter(|&n| n > 0)
                .map(|n| n.to_string());
            let shrink = number.as_ref().map_or(0, |n| n.len() - 1);
            let plain = "-".repeat(width - shrink);
            let seg = if y == 7 {
                plain
            } else {
                wall(b, square_at(b, view.viewer, x, y), square_at(b, view.viewer, x, y + 1), &plain, view.colour)
            };
            out.push_str(&seg);
            match number {
                Some(n) => out.push_str(&paint(view.colour, "1", &n)),
                None => out.push('+'),
            }
        }
        out.push('\n');
        let _ = write!(out, "{} |", label(square_at(b, view.viewer, 0, y), forward));
        for x in 0..8 {
            let sq = square_at(b, view.viewer, x, y);
            out.push_str(&cell(b, sq, marks, view.colour, glyphs, width));
            if x < 7 {
                out.push_str(&wall(b, sq, square_at(b, view.viewer, x + 1, y), "|", view.colour));
            } else {
                out.push('|');
            }
        }
        out.push('\n');
    }
    let _ = writeln!(out, "  +{}", format!("{plain}+").repeat(8));
    out.push_str("   ");
    for x in 0..8 {
        let _ = write!(out, " {}{}", label(square_at(b, view.viewer, x, 0), right), " ".repeat(width - 1));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// What the drawn board's codes and marks mean, for those on it now.
pub fn legend(session: &Session, view: View, marks: &Marks) -> String {
    let state = shown_state(session);
    let b = &state.board;
    let checkers: Vec<_> = Square::all().filter_map(|sq| b.checker(sq)).collect();
    let has = |kind: Kind| checkers.iter().any(|c| c.kind == kind);
    let mut items = Vec::new();
    let [d, l] = marks.letters;
    for kind in [Kind::Pawn, Kind::King, Kind::Emperor] {
        if has(kind) {
            let (d, l) = if kind == Kind::Pawn { (d, l) } else { (d.to_ascii_uppercase(), l.to_ascii_uppercase()) };
            let n = if kind == Kind::Emperor { 2 } else { 1 };
            let name = session.engine.content().kind_name(kind, true);
            items.push(format!("{} {} {name}", d.to_string().repeat(n), l.to_string().repeat(n)));
        }
    }
    for (on, text) in [
        (checkers.iter().any(|c| c.ring), "r ring"),
        (checkers.iter().any(|c| c.snookle), "s snookle"),
        (checkers.iter().any(|c| c.hippo), "h hippo (frozen)"),
        (Square::all().any(|sq| b.terrain_at(sq) == Some(Terrain::Water)), "~~ water"),
        (Square::all().any(|sq| b.terrain_at(sq) == Some(Terrain::Fire)), "^^ fire"),
        (b.monolith_block().any(), "## monolith"),
    ] {
        if on {
            items.push(text.to_string());
        }
    }
    for marker in session.engine.content().markers() {
        if b.marks().at(marker.kind).any() {
            items.push(format!("{} {}", marker.glyph(), marker.name()));
        }
    }
    // Whose walls are whose, in words: drawn in the owner's colour, or as the
    // owner's letter without colour (NO_COLOR).
    for owner in Player::BOTH {
        if !b.walls(owner).is_empty() {
            let mark = if view.colour {
                paint(true, palette::player_text(owner), "━┃")
            } else {
                let letter = if owner == Player::Dark { "D" } else { "L" };
                letter.repeat(4)
            };
            items.push(format!("{mark} {}'s walls", session.side(owner)));
        }
    }
    if marks.closed.any() {
        items.push("x closed to moves".into());
    }
    if marks.candidates.any() {
        items.push("? an answer".into());
    }
    if marks.blocks.iter().any(|&n| n > 0) {
        items.push("1 2 ... a block's number, where its four squares meet".into());
    }
    if marks.last_move.any() {
        items.push(if view.colour { "blue: the last move".into() } else { "[ ] the last move".into() });
    }
    if (marks.changed - marks.last_move - marks.candidates).any() {
        items.push("* changed this turn or the last".into());
    }
    if items.is_empty() { String::new() } else { format!("  {}\n", items.join(", ")) }
}

/// The last `rows` moves, one line per turn (`12. c3-d4 Water`, `d4-c5~b6`
/// for a move Ice slid on, `c7-b6 Second move f8-e7` with the moves a card
/// made), for the column beside the board.
pub fn history(session: &Session, viewer: Player, rows: usize) -> Vec<String> {
    let turns = session.turns(Some(viewer));
    let start = turns.len().saturating_sub(rows);
    turns[start..]
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let index = start + i;
            // Dark's turn opens a move number; Light's follows it (R1.3).
            let number =
                if t.player == Some(Player::Dark) { format!("{:>3}.", index / 2 + 1) } else { "    ".to_string() };
            let mv = t.mv.as_deref().unwrap_or("--");
            let card = t.lines.iter().find_map(|l| l.strip_prefix("uses ")).unwrap_or("");
            // What the card moved (Second move's extra move) follows its name.
            let moved = t.card_moves.join(" ");
            format!("{number} {mv:<9}{card} {moved}").trim_end().to_string()
        })
        .collect()
}

/// Puts `column` beside `left`, starting at the first line, `gap` columns
/// after the widest line of `left` (ANSI codes take no room).
fn beside(left: &str, column: &[String], gap: usize) -> String {
    let lines: Vec<&str> = left.lines().collect();
    let width = lines.iter().map(|l| display_width(l)).max().unwrap_or(0);
    let mut out = String::new();
    for i in 0..lines.len().max(column.len()) {
        let line = lines.get(i).copied().unwrap_or("");
        match column.get(i) {
            Some(text) => {
                let pad = width + gap - display_width(line);
                let _ = writeln!(out, "{line}{}{text}", " ".repeat(pad));
            }
            None => {
                let _ = writeln!(out, "{line}");
            }
        }
    }
    out
}

/// The whole screen for `view`: the board with the compass (when turned) and
/// the recent moves beside it, the legend, the panel and the pending options,
/// each line at most `columns` wide (the board itself excepted).
pub fn screen(session: &Session, view: View, columns: usize) -> String {
    let state = shown_state(session);
    let marks = Marks::of(session);
    let drawn = board(&state, view, &marks, &glyphs(session));
    let frame = Frame { viewer: view.viewer, orientation: state.board.orientation() };
    let mut column: Vec<String> = frame.compass().map(|c| c.to_vec()).unwrap_or_default();
    if !column.is_empty() {
        column.push(String::new());
    }
    let rows = drawn.lines().count().saturating_sub(column.len() + 1);
    // Beside the board when the terminal is wide enough for both.
    let room = drawn.lines().map(display_width).max().unwrap_or(0) + 4 + 24;
    let moves = if columns >= room { history(session, view.viewer, rows) } else { Vec::new() };
    if !moves.is_empty() {
        column.push("Moves".to_string());
        column.extend(moves);
    }
    let mut out = beside(&drawn, &column, 4);
    out.push_str(&wrap(&legend(session, view, &marks), columns));
    out.push_str(&wrap(&panel_within(session, view, columns), columns));
    if state.outcome().is_none() {
        out.push_str(&wrap(&options(session), columns));
    }
    out
}

/// Whether `text` and a prompt after it fit `rows` rows of `columns`.
pub fn fits(text: &str, columns: usize, rows: usize) -> bool {
    rows == usize::MAX || screen_rows(text, columns) < rows
}

/// The rows `text` takes on a terminal `columns` wide (a wider line takes more).
fn screen_rows(text: &str, columns: usize) -> usize {
    text.lines().map(|l| display_width(l).max(1).div_ceil(columns.max(1))).sum()
}

/// The fewest columns beside the board worth putting the panel in.
const SIDE_COLUMN: usize = 28;

/// The screen for a terminal too short for [`screen`] (80×24): the board
/// whole, with the compass, the panel and the legend beside it where the
/// width allows (below it, as many lines as fit, where it does not), then the
/// options in the rows left above the prompt. A line of the panel too long
/// for its room is split at its `|`s and wrapped; what does not fit is cut,
/// with a last line naming `panel`, which shows it all.
///
/// Invariant: when the terminal has room for the board, the options' heading
/// and the prompt, the result and the prompt take at most `rows` rows.
pub fn compact(session: &Session, view: View, columns: usize, rows: usize) -> String {
    let state = shown_state(session);
    let marks = Marks::of(session);
    let drawn = board(&state, view, &marks, &glyphs(session));
    let height = drawn.lines().count();
    let width = drawn.lines().map(display_width).max().unwrap_or(0);
    let gap = 3;
    // The rows below the board, the prompt's aside.
    let below = rows.saturating_sub(height + 1);
    let options = if state.outcome().is_none() { options_within(session, columns, below) } else { String::new() };
    // The panel's move line, the legend, the rest of the panel.
    let panel = panel_within(session, view, columns);
    let mut info: Vec<String> = panel.lines().take(1).map(str::to_string).collect();
    info.extend(legend(session, view, &marks).lines().map(str::to_string));
    info.extend(panel.lines().skip(1).map(str::to_string));
    let mut out;
    if columns != usize::MAX && columns >= width + gap + SIDE_COLUMN {
        let side = columns - width - gap;
        let frame = Frame { viewer: view.viewer, orientation: state.board.orientation() };
        let mut column: Vec<String> = frame.compass().map(|c| c.to_vec()).unwrap_or_default();
        if !column.is_empty() {
            column.push(String::new());
        }
        let room = height.saturating_sub(column.len());
        column.extend(fit(&info, side, room));
        out = beside(&drawn, &column, gap);
    } else {
        out = drawn;
        let room = below.saturating_sub(screen_rows(&options, columns));
        for line in fit(&info, columns, room) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out.push_str(&options);
    out
}

/// `lines` in at most `rows` rows of `width`, each without its indentation:
/// a line too wide split at its ` | `s, then wrapped. When they do not all
/// fit, the first and the last line stay (the panel's move line and its
/// latest actions), the lines between them as far as they fit in order, and
/// a row where lines were left out says that `panel` shows them.
fn fit(lines: &[String], width: usize, rows: usize) -> Vec<String> {
    let groups: Vec<Vec<String>> = lines
        .iter()
        .map(|line| {
            let line = line.trim_start();
            let parts: Vec<&str> = if display_width(line) > width { line.split(" | ").collect() } else { vec![line] };
            parts.iter().flat_map(|part| wrap(part, width).lines().map(str::to_string).collect::<Vec<_>>()).collect()
        })
        .collect();
    if groups.iter().map(Vec::len).sum::<usize>() <= rows {
        return groups.concat();
    }
    let cut = "... ('panel' shows it all)".chars().take(width).collect::<String>();
    let (Some((first, rest)), true) = (groups.split_first(), rows > 1) else {
        return groups.concat().into_iter().take(rows.saturating_sub(1)).chain(std::iter::once(cut)).collect();
    };
    let (last, middle) = rest.split_last().map_or((&[][..], &[][..]), |(l, m)| (l.as_slice(), m));
    let mut room = rows.saturating_sub(first.len() + last.len() + 1);
    let mut out = first.clone();
    let mut left_out = false;
    for group in middle {
        if !left_out && group.len() <= room {
            room -= group.len();
            out.extend(group.iter().cloned());
        } else {
            left_out = true;
        }
    }
    out.push(cut);
    out.extend(last.iter().cloned());
    out.truncate(rows);
    out
}

/// The pending options in at most `rows` rows of `columns` (one at least):
/// as [`options`] lists them when that fits, else the heading and the
/// options packed along the rows, numbered, as many as fit, the last row
/// saying how many more `options` lists.
pub fn options_within(session: &Session, columns: usize, rows: usize) -> String {
    let listed = wrap(&options(session), columns);
    let Some(decision) = session.pending() else { return listed };
    if screen_rows(&listed, columns) <= rows {
        return listed;
    }
    let width = if columns == usize::MAX { 80 } else { columns.max(20) };
    let mut out: Vec<String> =
        wrap(listed.lines().next().unwrap_or_default(), columns).lines().map(str::to_string).collect();
    out.truncate(rows.max(1));
    let room = rows.saturating_sub(out.len());
    // Rows of items, each row a list of the items on it.
    let mut packed: Vec<Vec<String>> = Vec::new();
    let row_width = |row: &[String]| row.iter().map(|i| 2 + display_width(i)).sum::<usize>();
    for (i, option) in decision.options.iter().enumerate() {
        let item = format!("{}. {}", i + 1, option_text(session, option));
        match packed.last_mut() {
            Some(row) if row_width(row) + 2 + display_width(&item) <= width => row.push(item),
            _ => packed.push(vec![item]),
        }
    }
    let total = decision.options.len();
    if packed.len() > room {
        packed.truncate(room);
        // The last row gives way to saying how many more there are.
        let shown = |packed: &[Vec<String>]| packed.iter().map(Vec::len).sum::<usize>();
        while !packed.is_empty() {
            let tail = format!("  ... {} more: 'options'", total - shown(&packed));
            let row = packed.last_mut().expect("a last row");
            if row.is_empty() || row_width(row) + tail.len() <= width {
                break;
            }
            row.pop();
        }
        let tail = format!("  ... {} more: 'options'", total - shown(&packed));
        if let Some(row) = packed.last_mut() {
            row.push(tail.trim_start().to_string());
        }
    }
    let packed: Vec<String> =
        packed.iter().map(|row| format!(" {}", row.iter().map(|i| format!(" {i}")).collect::<String>())).collect();
    out.extend(packed);
    out.iter().map(|l| format!("{l}\n")).collect()
}

/// The state as it is shown: while a card asks, with the board its earlier
/// answers have made (Monolith twice's first push), which the game takes on
/// when the card is done.
pub fn shown_state(session: &Session) -> std::borrow::Cow<'_, GameState> {
    let state = session.state();
    match &state.step {
        Step::Resolving(r) if r.question.so_far.0.as_deref().is_some_and(|b| *b != state.board) => {
            let mut shown = state.clone();
            shown.position_mut().board = *r.question.so_far.0.clone().expect("checked above");
            std::borrow::Cow::Owned(shown)
        }
        _ => std::borrow::Cow::Borrowed(state),
    }
}

/// The glyphs of the deck's own marker kinds, in their order (diagram.rs).
pub fn glyphs(session: &Session) -> Vec<char> {
    session.engine.content().markers().iter().map(|m| m.glyph()).collect()
}

/// The board and its legend alone, for a question answered on it.
pub fn board_and_legend(session: &Session, view: View, columns: usize) -> String {
    let marks = Marks::of(session);
    let mut out = board(&shown_state(session), view, &marks, &glyphs(session));
    out.push_str(&wrap(&legend(session, view, &marks), columns));
    out
}

/// `text` with each line wrapped to `columns` (at least 20), so that the
/// terminal never wraps a line itself; `usize::MAX` (the width is not known)
/// leaves it as it is.
///
/// Invariant: mod text (already made visible, text.rs) in a line cannot pass
/// for a line of the game's own. A line that fits is printed as it is. A
/// line that does not fit is broken between words only (never at a word's
/// hyphen; a word longer than the line is cut where the line ends): its runs of spaces
/// are first collapsed to one (its indentation kept, up to half the width),
/// so padding cannot choose the word a line starts with, and every
/// continuation line is indented two more than the line it continues, so
/// nothing continued ever stands at column 0, and no line is wider than
/// `columns`.
pub fn wrap(text: &str, columns: usize) -> String {
    if columns == usize::MAX {
        return text.to_string();
    }
    let width = columns.max(20);
    let mut out = String::new();
    for line in text.lines() {
        if textwrap::core::display_width(line) <= width {
            out.push_str(line.trim_end_matches(' '));
            out.push('\n');
            continue;
        }
        let words = line.trim_start_matches(' ');
        let indent = " ".repeat((line.len() - words.len()).min(width / 2));
        let collapsed = format!("{indent}{}", words.split(' ').filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" "));
        let rest = format!("{indent}  ");
        // Between words only: a move (`d4-c5~b6`) or a card's id is never cut at its hyphen.
        let options =
            textwrap::Options::new(width).subsequent_indent(&rest).word_splitter(textwrap::WordSplitter::NoHyphenation);
        for piece in textwrap::wrap(&collapsed, options) {
            out.push_str(&piece);
            out.push('\n');
        }
    }
    out
}

/// Whose turn, which step, the cards, piles, reserves, counters, constraint and
/// the last few actions.
pub fn panel(session: &Session, view: View) -> String {
    panel_within(session, view, 80)
}

/// [`panel`] with the lines that are cut (card texts, effects) cut to fit
/// `columns` (at least 80).
pub fn panel_within(session: &Session, view: View, columns: usize) -> String {
    let cut = columns.clamp(80, 200) - 4;
    let state = session.state();
    let mut out = String::new();
    let step = match &state.step {
        Step::Move => "move a checker".to_string(),
        Step::Card => "use a face-up card".to_string(),
        Step::Resolving(r) => format!("answer for {}", session.card_name(r.card)),
        Step::Over(_) => "game over".to_string(),
    };
    let named = |p: Player| paint(view.colour, palette::player_text(p), &session.side(p));
    // A question may be the other player's, in this player's turn: put to them
    // (`opts.to`), or a lasting effect's acting for them.
    let who = match session.decider() {
        decider if decider != state.to_move => format!("{}'s turn; {}", named(state.to_move), named(decider)),
        _ => named(state.to_move),
    };
    // Moves as checkers players count them: Dark's and Light's turns make one (R10.4's
    // limit counts turns).
    let (number, limit) = (state.turn / 2 + 1, state.rules.move_limit.div_ceil(2));
    match state.step {
        Step::Over(_) => {
            // The move limit ends the game after the last turn it allows, before
            // the next move begins (R10.4).
            let last = match state.outcome() {
                Some(o) if o.reason.by_move_limit() => state.turn.div_ceil(2),
                _ => number,
            };
            let _ = writeln!(out, "Game over at move {last}");
        }
        _ => {
            let _ = writeln!(out, "Move {number} of {limit}: {who} to {step}");
        }
    }
    if state.rules.cards {
        let content = session.engine.content();
        // Whole, on as many lines as it takes (the screen wraps them to its width).
        for (i, &card) in state.piles().face_up.iter().enumerate() {
            let text = content.card(card).map_or(String::new(), |c| c.manifest.text.clone());
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            let _ = writeln!(out, "  face up {}: {} - {text}", i + 1, session.card_name(card));
        }
        let s = state.board.supply();
        let _ = writeln!(
            out,
            "  draw pile {}, discard pile {} | reserves: Dark {}, Light {} | walls left: Dark {}, Light {}",
            state.piles().draw.len(),
            state.piles().discard.len(),
            state.board.reserve(Player::Dark),
            state.board.reserve(Player::Light),
            s.walls[0],
            s.walls[1],
        );
        let _ = writeln!(
            out,
            "  supply: rings {}, snookles {}, hippos {}, water {}, fire {}, monolith {}",
            s.rings, s.snookles, s.hippos, s.water, s.fire, s.monolith
        );
    }
    // What any deck may have, cards or not: its items, pools, counters and
    // lasting effects (its own rules among them).
    {
        items_panel(&mut out, session, view.viewer, cut);
        let pools = session.engine.content().pool_names();
        if pools.len() > 1 {
            let of = |p: Player| {
                let counts: Vec<String> =
                    pools.iter().enumerate().map(|(i, name)| format!("{name} {}", state.board.pool(p, i))).collect();
                format!("{p} {}", counts.join(", "))
            };
            let _ = writeln!(out, "  pools: {} | {}", of(Player::Dark), of(Player::Light));
        }
        let counts: Vec<String> = session
            .engine
            .content()
            .counters()
            .iter()
            // The game's own count of emperor captures (R9.4) matters only with cards.
            .filter(|d| state.rules.cards || d.id != crate::game::CounterId::EMPEROR_CAPTURES)
            .map(|d| {
                let of = |p: Player| state.counters(p).get(d.id);
                format!("{}: Dark {}, Light {}", d.label, of(Player::Dark), of(Player::Light))
            })
            .collect();
        if !counts.is_empty() {
            let _ = writeln!(out, "  {}", counts.join(" | "));
        }
        let constraint = |label: &str, c: Option<crate::game::Constraint>, who: Player| {
            c.map(|c| {
                let squares: Vec<String> = c.movers.map(|s| s.to_string()).collect();
                format!(
                    "  {label}: {who} must move one of {} ({}) if able\n",
                    squares.join(" "),
                    session.card_name(c.card)
                )
            })
            .unwrap_or_default()
        };
        // A constraint binds the move step only (R4.8): met or lapsed, it is spent.
        if state.step == Step::Move {
            out.push_str(&constraint("in force", state.constraint, state.to_move));
        }
        // One line each, so that the board and panel fit a terminal of 50 rows
        // with every effect the game allows in force ('card <name>' has the rest).
        for line in effect_lines(session) {
            let _ = writeln!(out, "  {}", shorten(&format!("in force: {line}"), cut));
        }
        out.push_str(&constraint("next turn", state.next_constraint, !state.to_move));
    }
    let history = session.history();
    if !history.is_empty() {
        let from = history.len().saturating_sub(4);
        let recent: Vec<String> = (from..history.len()).map(|i| decision_line(session, i, view.viewer)).collect();
        let _ = writeln!(out, "  last: {}", recent.join("; "));
    }
    out
}

/// The squares an effect is about: those it closes, and those its data names
/// as `square` or `squares` (cards/README.md, "Lasting effects").
pub fn effect_squares(effect: &crate::game::Effect) -> Bitboard {
    use crate::game::Datum;
    let mut squares = effect.moves.closed;
    let named = |d: &Datum| match d {
        Datum::Text(t) => t.parse::<Square>().ok(),
        _ => None,
    };
    let listed = effect.data.get("squares").into_iter().flat_map(|d| match d {
        Datum::List(items) => items.iter().filter_map(named).collect(),
        other => named(other).into_iter().collect::<Vec<_>>(),
    });
    for sq in effect.data.get("square").and_then(named).into_iter().chain(listed) {
        squares.insert(sq);
    }
    squares
}

/// The lasting effects in force, one line per card and owner that say the
/// same: where and how long first, then what it does: `Ice (Dark) on c5 e3
/// (for the rest of the game): …`. A manifest's `effect_lasts` says how long
/// in its own words, from the effect's data (Time bomb's fuse).
pub fn effect_lines(session: &Session) -> Vec<String> {
    let state = session.state();
    let mut lines: Vec<(String, Bitboard, String)> = Vec::new();
    for effect in &state.effects {
        let lasts = match (&effect.lasts, session.effect_lasts(effect)) {
            (_, Some(text)) => text,
            (Lasting::OwnerTurns(n), None) => format!("{n} more of {}'s turns", effect.owner),
            (Lasting::Game, None) => "for the rest of the game".to_string(),
            (Lasting::Until(kind), None) => format!("until the next {}", kind.name().replace('_', " ")),
        };
        let whose = match effect.affects {
            Affected::Owner => format!("{}'s", effect.owner),
            Affected::Opponent => format!("{}'s", !effect.owner),
            Affected::Both => "both players'".to_string(),
        };
        let mut what = Vec::new();
        if let Some(text) = session.effect_text(effect, effect.moves == MoveRules::STANDARD) {
            what.push(text.trim_end_matches('.').to_string());
        }
        if effect.moves.pawns_step_back {
            what.push(format!("{whose} pawns may step back"));
        }
        if effect.moves.capture_optional {
            what.push(format!("capture is optional for {whose} moves"));
        }
        if effect.moves.closed.any() {
            what.push(format!("{whose} checkers may not move onto it"));
        }
        // A deck's rule holds for both players; Dark holds it only so that its
        // handlers act for someone (game/deal.rs).
        let holder = match (effect.deck, effect.acts_for) {
            (true, crate::game::ActsFor::Mover) => "the deck's rule, for the player to move".to_string(),
            (true, crate::game::ActsFor::Owner) => "the deck's rule".to_string(),
            (false, crate::game::ActsFor::Mover) => format!("{}, for the player to move", effect.owner),
            (false, crate::game::ActsFor::Owner) => effect.owner.to_string(),
        };
        let head = format!("{} ({holder})", session.card_name(effect.card));
        let tail = format!("{lasts}): {}", what.join(", "));
        let squares = effect_squares(effect);
        // The same card of the same owner saying the same: one line, the squares together.
        match lines.iter_mut().find(|(h, _, t)| *h == head && *t == tail) {
            Some((_, all, _)) => *all |= squares,
            None => lines.push((head, squares, tail)),
        }
    }
    lines
        .into_iter()
        .map(|(head, squares, tail)| {
            let at: Vec<String> = squares.into_iter().map(|s| s.to_string()).collect();
            if at.is_empty() { format!("{head} ({tail}") } else { format!("{head} on {} ({tail}", at.join(" ")) }
        })
        .collect()
}

/// The pending options, numbered, with the question's prompt.
pub fn options(session: &Session) -> String {
    options_listed(session, false)
}

/// Most options listed one by one; a question with more is answered by naming
/// squares on the drawn board (or `options` lists them all).
const MOST_LISTED: usize = 12;

/// The pending options: with `all`, every one numbered; otherwise a question
/// with many squares, edges or wall spots says how to name them instead.
pub fn options_listed(session: &Session, all: bool) -> String {
    let Some(decision) = session.pending() else { return String::new() };
    let mut out = String::new();
    let heading = match decision.kind {
        DecisionKind::Move => format!("{} moves", session.side(decision.player)),
        DecisionKind::Card => format!("{} uses a card", session.side(decision.player)),
        DecisionKind::Question => {
            let prompt = decision.prompt.clone().unwrap_or_default();
            match question_kind(session) {
                Some(QuestionKind::Block) => {
                    format!(
                        "{prompt} (a block by its number on the board, where its four squares meet, or by two opposite corners)"
                    )
                }
                Some(QuestionKind::Direction) => format!("{prompt} (as the board is drawn for you)"),
                _ => prompt,
            }
        }
    };
    // A question ends in its own mark and needs no colon after it.
    let colon = if heading.ends_with('?') { "" } else { ":" };
    let _ = writeln!(out, "{heading}{colon}");
    let many = decision.options.len() > MOST_LISTED && !all;
    let decline = if decision.options.contains(&Choice::Answer(Answer::Decline)) { ", or none" } else { "" };
    let count = decision.options.iter().filter(|o| **o != Choice::Answer(Answer::Decline)).count();
    // The first option as the player would type it.
    let example = || decision.options.first().map(|o| option_text(session, o)).unwrap_or_default();
    match question_kind(session) {
        Some(QuestionKind::Block) if many => {
            let _ = writeln!(out, "  name one of the {count} blocks numbered on the board{decline}");
            return out;
        }
        Some(QuestionKind::Square | QuestionKind::Checker) if many => {
            let _ = writeln!(out, "  name one of the {count} squares marked ? on the board{decline}");
            return out;
        }
        Some(QuestionKind::Edges) if many => {
            let _ = writeln!(
                out,
                "  name a square and a corner as drawn (the two sides of the square meeting there), or two squares side by side and the side both edges are on{decline}; {count} spots, e.g. {}; 'options' lists them",
                example()
            );
            return out;
        }
        Some(QuestionKind::Edge) if many => {
            let _ = writeln!(
                out,
                "  name a square and a side as drawn, or the two squares the edge is between{decline}; {count} edges, e.g. {}",
                example()
            );
            return out;
        }
        _ => {}
    }
    let mut line = String::new();
    for (i, option) in decision.options.iter().enumerate() {
        let text = option_text(session, option);
        let item = format!("{:>3}. {text:<12}", i + 1);
        if line.len() + item.len() > 78 {
            let _ = writeln!(out, "{}", line.trim_end());
            line.clear();
        }
        line.push_str(&item);
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// The kind of the pending card question, if one is pending.
pub(super) fn question_kind(session: &Session) -> Option<QuestionKind> {
    match &session.state().step {
        Step::Resolving(r) => Some(r.question.kind),
        _ => None,
    }
}

/// The frame of the player who decides now: questions are asked of them, so
/// directions and corners are named as the board is drawn for them.
pub fn decider_frame(session: &Session) -> Frame {
    let state = session.state();
    Frame { viewer: session.decider(), orientation: state.board.orientation() }
}

/// An option as the player reads it: a card by name; a direction as drawn for
/// the decider (`left (w)`); a 2×2 block by its name (`c3-d4`).
pub fn option_text(session: &Session, option: &Choice) -> String {
    option_text_in(session, option, decider_frame(session))
}

/// Decision `i`'s line as `viewer` reads it: an edge, a wall spot or a
/// direction answered is named as `viewer` types it on the board as it then
/// stood (`c5 d5 up`), one name in play, on the panel and in hand-overs.
pub fn decision_line(session: &Session, i: usize, viewer: Player) -> String {
    let history = session.history();
    let decided = &history[i];
    let board = i.checked_sub(1).map_or_else(|| session.start_board(), |b| history[b].made.board);
    let frame = Frame { viewer, orientation: board.orientation() };
    let text = match &decided.choice {
        Choice::Answer(Answer::Dir(d)) => frame.word(*d).to_string(),
        Choice::Answer(Answer::Edges(pair)) => spots::pair_text(frame, *pair),
        Choice::Answer(Answer::Edge(edge)) => spots::edge_text(frame, *edge),
        _ => return decided.line.clone(),
    };
    // A secret answer's line does not say what it was, and stays so.
    if decided.line != session.describe(decided.decider, false, &decided.choice) {
        return decided.line.clone();
    }
    format!("{} answers {text}", decided.decider)
}

/// An option of the pending decision as `frame`'s player reads it.
pub fn option_text_in(session: &Session, option: &Choice, frame: Frame) -> String {
    match (option, question_kind(session)) {
        (Choice::Card(c), _) => session.card_name(*c),
        (Choice::Answer(Answer::Dir(d)), _) => format!("{} ({d})", frame.word(*d)),
        (Choice::Answer(Answer::Square(anchor)), Some(QuestionKind::Block)) => crate::narrate::block_name(*anchor),
        (Choice::Answer(Answer::Edges(pair)), _) => spots::pair_text(frame, *pair),
        (Choice::Answer(Answer::Edge(edge)), _) => spots::edge_text(frame, *edge),
        // An option that is a card's id (Foresight's order) reads as the card's name.
        (Choice::Answer(Answer::Option(id)), _) if session.engine.content().card_id(id).is_some() => {
            session.engine.content().card_id(id).map_or_else(|| id.to_string(), |c| session.card_name(c))
        }
        (Choice::Move(m), _) => session.engine.content().move_name(m),
        (other, _) => other.to_string(),
    }
}

/// `text` cut at a word boundary to at most `max` characters, with "..." when cut
/// (`card <name>` shows the whole text).
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out = String::new();
    for word in text.split_whitespace() {
        if out.chars().count() + word.chars().count() + 1 > max.saturating_sub(3) {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out.push_str("...");
    out
}

/// The deck's items as `viewer` may know them (cards/README.md, "Items and
/// zones"): the squares' items face up, those face down that the viewer knows,
/// how many it does not; each zone's items it knows, and how many others.
fn items_panel(out: &mut String, session: &Session, viewer: Player, cut: usize) {
    let (Some(catalogue), Some(items)) = (session.engine.content().items(), session.state().items()) else {
        return;
    };
    let name = |item: crate::game::ItemId| catalogue.item(item).id.as_str();
    let (mut up, mut known, mut unknown) = (Vec::new(), Vec::new(), 0);
    for sq in Square::all() {
        let Some(on) = items.at(sq) else { continue };
        match (on.face, on.held.known[viewer.index()]) {
            (crate::game::Face::Up, _) => up.push(format!("{sq} {}", name(on.held.item))),
            (_, true) => known.push(format!("{sq} {}", name(on.held.item))),
            (_, false) => unknown += 1,
        }
    }
    let label = &catalogue.label;
    let mut line = format!("{label}s face up: {}", if up.is_empty() { "none".into() } else { up.join(" ") });
    if !known.is_empty() {
        line.push_str(&format!(" | face down, known to you: {}", known.join(" ")));
    }
    line.push_str(&format!(" | face down: {unknown}"));
    let _ = writeln!(out, "  {}", shorten(&line, cut));
    let mut zones = Vec::new();
    for (z, def) in catalogue.zones.iter().enumerate() {
        let owners: Vec<Option<Player>> = if def.per_player { vec![Some(viewer), Some(!viewer)] } else { vec![None] };
        for owner in owners {
            let zone = crate::game::ZoneId(z as u8);
            let (mut seen, mut hidden) = (Vec::new(), 0);
            for item in items.zone(zone, owner).unwrap_or_default() {
                if items.knows(item, viewer) { seen.push(name(item)) } else { hidden += 1 }
            }
            let whose = match owner {
                Some(p) if p == viewer => "your ".to_string(),
                Some(p) => format!("{p}'s "),
                None => String::new(),
            };
            let mut text = format!("{whose}{}: ", def.label);
            text.push_str(&match (seen.is_empty(), hidden) {
                (true, 0) => "none".to_string(),
                (true, n) => format!("{n} unseen"),
                (false, 0) => seen.join(" "),
                (false, n) => format!("{} and {n} unseen", seen.join(" ")),
            });
            zones.push(text);
        }
    }
    for chunk in zones.chunks(2) {
        let _ = writeln!(out, "  {}", shorten(&chunk.join(" | "), cut));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A word that fits a line is never cut, hyphens and all (a move
    /// `d4-c5~b6`, a card's id); only a word longer than a line is cut, where
    /// the line ends.
    #[test]
    fn a_long_line_is_broken_between_words_and_only_an_overlong_word_within_it() {
        let line = "Move d4-c5~b6 then e3-f4 and g5-h6 or the up-right walls with second-move and \
                    monolith-twice, then b2-c3 and the up-left long-winded card-text d4-e5 x-y w-z more-words";
        for columns in 20..120 {
            let wrapped = wrap(line, columns);
            let words: Vec<&str> = wrapped.split_whitespace().collect();
            assert_eq!(words, line.split(' ').collect::<Vec<_>>(), "at {columns}:\n{wrapped}");
            assert!(wrapped.lines().all(|l| display_width(l) <= columns), "{wrapped}");
        }
        let wrapped = wrap("moved second-move-and-then-more", 20);
        assert_eq!(wrapped, "moved\n  second-move-and-th\n  en-more\n");
    }

    /// Issue 38, item 9: a column beside the board starts at one screen column
    /// on every line, whatever the line's characters take in bytes (walls are
    /// drawn with box-drawing characters, colours with escape codes).
    #[test]
    fn a_column_beside_lines_of_wide_bytes_stays_straight() {
        let left = "+----+----+\n+\u{1b}[33m\u{2501}\u{2501}\u{2501}\u{2501}\u{1b}[0m+----+\n| d  |    |";
        let column = ["N".to_string(), "W + E".to_string(), "S".to_string()];
        let out = beside(left, &column, 4);
        let starts: Vec<usize> = out
            .lines()
            .zip(&column)
            .map(|(line, text)| display_width(&line[..line.rfind(text.as_str()).unwrap()]))
            .collect();
        assert_eq!(starts, [15, 15, 15], "{out}");
    }
    /// Issue 38, item 11: each candidate 2×2 block's number stands where its
    /// four squares meet, so that f4-g5 and g3-h4 (g4 lies in both) are told
    /// apart, for either player's view.
    #[test]
    fn a_candidate_block_is_numbered_where_its_four_squares_meet() {
        let session = session();
        let mut marks = Marks::default();
        marks.blocks["f4".parse::<Square>().unwrap().index()] = 1;
        marks.blocks["g3".parse::<Square>().unwrap().index()] = 12;
        for viewer in Player::BOTH {
            let drawn = board(session.state(), View { viewer, colour: false }, &marks, &[]);
            let lines: Vec<&str> = drawn.lines().collect();
            // The rule below the row labelled `row`, at the crossing after the column labelled `col`.
            let crossing = |row: char, col: char| {
                let y = lines.iter().position(|l| l.starts_with(&format!("{row} |"))).unwrap();
                let x = lines.last().unwrap().chars().position(|c| c == col).unwrap();
                lines[y + 1].chars().nth(x + 3).unwrap()
            };
            let (f4g5, g3h4) = if viewer == Player::Dark {
                (crossing('5', 'f'), [crossing('4', 'g')])
            } else {
                (crossing('4', 'g'), [crossing('3', 'h')])
            };
            assert_eq!(f4g5, '1', "{drawn}");
            assert_eq!(g3h4, ['2'], "the last digit on the crossing: {drawn}");
            assert!(!drawn.contains('?'), "{drawn}");
            assert_eq!(drawn.matches('+').count() + 2, 9 * 9, "two crossings hold numbers: {drawn}");
        }
    }

    use crate::game::{Affected, Datum, Effect, Lasting, MAX_EFFECTS};
    use crate::kernel::MoveRules;

    fn session() -> Session {
        let root = crate::content::ContentRoot::new(env!("CARGO_MANIFEST_DIR"));
        Session::new(&root, "nightmare", 7).expect("the nightmare deck loads")
    }

    fn effect(session: &Session, card: &str, owner: Player, n: usize) -> Effect {
        let id = session.engine.content().card_id(card).expect("a nightmare card");
        let square = |k: usize| {
            let dark = Square::all().filter(|s| s.colour() == crate::kernel::Colour::Dark);
            Datum::Text(dark.clone().nth(k % 32).expect("32 dark squares").to_string())
        };
        let mut effect = Effect {
            id: 0,
            card: id,
            owner,
            affects: Affected::Both,
            moves: MoveRules::STANDARD,
            lasts: Lasting::Game,
            made: None,
            data: Default::default(),
            deck: false,
            acts_for: Default::default(),
        };
        match card {
            "ice" => {
                effect.data.insert("square".into(), square(n));
            }
            "time_bomb" => {
                effect.data.insert("square".into(), square(n + 8));
                effect.data.insert("fuse".into(), Datum::Int(2));
            }
            "quicksand" => {
                effect.moves.closed.insert("d4".parse().unwrap());
                effect.lasts = Lasting::OwnerTurns(3);
            }
            "truce" => effect.moves.capture_optional = true,
            "backwards" => effect.moves.pawns_step_back = true,
            _ => {}
        }
        effect
    }

    /// The nightmare deck's worst case: as many effects as the game allows,
    /// of every card that makes them, for both players. Board, panel, options
    /// and the prompt fit 50 rows of 80 columns; each effect says where it is.
    #[test]
    fn the_whole_screen_fits_fifty_rows_with_every_effect_in_force() {
        let mut session = session();
        let cards = ["ice", "time_bomb", "quicksand", "truce", "backwards", "mirror", "vengeance", "nuclear"];
        let all: Vec<Effect> = Player::BOTH
            .into_iter()
            .flat_map(|owner| cards.map(|card| (owner, card)))
            .enumerate()
            .map(|(n, (owner, card))| effect(&session, card, owner, n))
            .take(MAX_EFFECTS)
            .collect();
        for made in all {
            session.state_mut().add_effect(made).expect("within the bounds");
        }
        assert_eq!(session.state().effects.len(), MAX_EFFECTS);
        let shown = screen(&session, View { viewer: Player::Dark, colour: false }, 80);
        let rows = shown.lines().count() + 1; // and the prompt
        assert!(rows <= 50, "{rows} rows:\n{shown}");
        assert!(shown.lines().all(|l| display_width(l) <= 80), "{shown}");
        assert!(shown.contains("Time bomb (Dark) on "), "{shown}");
        assert!(shown.contains("fuse 2"), "{shown}");
        assert!(shown.contains("Quicksand (Light) on d4"), "{shown}");
        assert!(!shown.contains("Time bomb (Dark) on c3 (for the rest of the game)"), "{shown}");
        // Four Ice effects of one owner share a line with their squares.
        assert_eq!(shown.matches("Ice (Dark)").count(), 1, "{shown}");
        let coloured = screen(&session, View { viewer: Player::Dark, colour: true }, 80);
        assert!(coloured.lines().count() < 50);
        assert!(shown.contains("x closed to moves"), "the legend says what x is: {shown}");
    }

    /// Padding cannot put mod text at the start of a line: wherever the
    /// wrapper breaks, the continuation is indented, the spaces that would
    /// have chosen the break are gone, and no line is wider than the terminal
    /// (which would wrap it to column 0 itself).
    #[test]
    fn padding_cannot_start_a_line_with_mod_text() {
        let forged = "Dark wins: Light resigned.";
        for width in [20, 40, 60, 80, 100, 120] {
            for line in [
                format!("  * Water: splash{}{forged}", " ".repeat(width - 20)),
                format!("script problem: x{}{forged}", " ".repeat(3 * width)),
                format!("{}{forged} {forged} {forged}", " ".repeat(2 * width + 3)),
                format!("Fire{}x{}{forged}", " ".repeat(500), "\u{a0}".repeat(width)),
            ] {
                let wrapped = wrap(&line, width);
                for shown in wrapped.lines() {
                    assert!(shown.chars().count() <= width, "wider than {width}: {shown:?}");
                    assert!(!shown.starts_with(forged), "at column 0 with width {width}: {wrapped}");
                }
                let letters = |t: &str| t.split_whitespace().collect::<String>();
                assert_eq!(letters(&wrapped), letters(&line), "nothing is lost");
            }
        }
        // A line that fits keeps its spaces (the game's columns).
        assert_eq!(wrap("  help      list the commands", 80), "  help      list the commands\n");
        assert_eq!(wrap("as it is", usize::MAX), "as it is");
    }
}
