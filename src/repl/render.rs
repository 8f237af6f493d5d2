//! Drawing the game for a terminal: the board from a seated player's view (R2.2:
//! rotating the board turns the drawing, square names stay on their squares) and
//! a panel with everything else a player needs.

use std::fmt::Write as _;

use crate::diagram;
use crate::game::{Affected, Answer, Choice, DecisionKind, GameState, Lasting, QuestionKind, Step};
use crate::kernel::{Bitboard, Board, Colour, Dir, Edge, MoveRules, Player, Square, Terrain};
use crate::narrate::Frame;
use crate::session::Session;

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

fn player_colour(p: Player) -> &'static str {
    match p {
        Player::Dark => "1;38;5;208",
        Player::Light => "1;38;5;45",
    }
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
            paint(colour, player_colour(owner), &mark)
        }
    }
}

/// A square's `width` characters; a marked square (changed last turn) starts with `*`.
fn cell(board: &Board, sq: Square, colour: bool, marked: bool, glyphs: &[char], width: usize) -> String {
    let code = diagram::cell_with(board, sq, glyphs);
    let text = if marked { format!("*{code:^w$}", w = width - 1) } else { format!("{code:^width$}") };
    if !colour {
        return text;
    }
    let bg = if sq.colour() == Colour::Dark { "48;5;94" } else { "48;5;180" };
    let style = if board.monolith_block().contains(sq) {
        "48;5;240;38;5;250".to_string()
    } else if let Some(t) = board.terrain_at(sq) {
        match t {
            Terrain::Water => "48;5;25;38;5;153".into(),
            Terrain::Fire => "48;5;160;38;5;226".into(),
        }
    } else if let Some(c) = board.checker(sq) {
        format!("{bg};{}", player_colour(c.owner))
    } else {
        format!("{bg};38;5;245")
    };
    paint(true, &style, &text)
}

/// The board in the viewer's frame with labels that follow the rotation, the
/// `marks` squares flagged, and a compass beside it when north is not up.
pub fn board(state: &GameState, view: View, marks: Bitboard, glyphs: &[char]) -> String {
    let b = &state.board;
    let forward = b.orientation().forward(view.viewer);
    let right = forward.clockwise();
    // Four characters a cell, or more when a code and its `*` need them.
    let width = Square::all()
        .map(|sq| diagram::cell_with(b, sq, glyphs).chars().count() + usize::from(marks.contains(sq)))
        .fold(diagram::CELL, usize::max);
    let plain = "-".repeat(width);
    let mut out = String::new();
    for y in (0..8).rev() {
        // The rule above row y.
        out.push_str("  +");
        for x in 0..8 {
            let seg = if y == 7 {
                plain.clone()
            } else {
                wall(b, square_at(b, view.viewer, x, y), square_at(b, view.viewer, x, y + 1), &plain, view.colour)
            };
            out.push_str(&seg);
            out.push('+');
        }
        out.push('\n');
        let _ = write!(out, "{} |", label(square_at(b, view.viewer, 0, y), forward));
        for x in 0..8 {
            let sq = square_at(b, view.viewer, x, y);
            out.push_str(&cell(b, sq, view.colour, marks.contains(sq), glyphs, width));
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
    let frame = Frame { viewer: view.viewer, orientation: b.orientation() };
    match frame.compass() {
        Some(compass) => {
            let mut lines: Vec<String> = out.lines().map(str::to_string).collect();
            for (i, text) in compass.iter().enumerate() {
                lines[1 + i].push_str(&format!("    {text}"));
            }
            lines.join("\n") + "\n"
        }
        None => out,
    }
}

/// Whose turn, which step, the cards, piles, reserves, counters, constraint and
/// the last few actions.
pub fn panel(session: &Session, view: View) -> String {
    let state = session.state();
    let mut out = String::new();
    let step = match &state.step {
        Step::Move => "move a checker".to_string(),
        Step::Card => "use a face-up card".to_string(),
        Step::Resolving(r) => format!("answer for {}", session.card_name(r.card)),
        Step::Over(_) => "game over".to_string(),
    };
    let named = |p: Player| paint(view.colour, player_colour(p), &p.to_string());
    // A lasting effect's question is its owner's, maybe in the other player's turn.
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
                Some(o) if o.reason == crate::game::EndReason::MoveLimit => state.turn.div_ceil(2),
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
        for (i, &card) in state.piles.face_up.iter().enumerate() {
            let text = content.card(card).map_or(String::new(), |c| c.manifest.text.clone());
            let _ = writeln!(out, "  face up {}: {} - {}", i + 1, session.card_name(card), shorten(text.trim(), 80));
        }
        let _ = writeln!(out, "  draw pile {}, discard pile {}", state.piles.draw.len(), state.piles.discard.len());
        let s = state.board.supply();
        let _ = writeln!(
            out,
            "  reserves: Dark {}, Light {} | supply: walls D{} L{}, rings {}, snookles {}, hippos {}, water {}, fire {}, monolith {}",
            state.board.reserve(Player::Dark),
            state.board.reserve(Player::Light),
            s.walls[0],
            s.walls[1],
            s.rings,
            s.snookles,
            s.hippos,
            s.water,
            s.fire,
            s.monolith
        );
        let counters = session.engine.content().counters();
        for p in Player::BOTH {
            let c = state.counters(p);
            let counts: Vec<String> = counters.iter().map(|d| format!("{} {}", d.label, c.get(d.id))).collect();
            let _ = writeln!(out, "  {p}: {}", counts.join(", "));
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
        for effect in &state.effects {
            let lasts = match &effect.lasts {
                Lasting::OwnerTurns(n) => format!("{n} more of {}'s turns", effect.owner),
                Lasting::Game => "for the rest of the game".to_string(),
                Lasting::Until(kind) => format!("until the next {}", kind.name().replace('_', " ")),
            };
            let whose = match effect.affects {
                Affected::Owner => format!("{}'s", effect.owner),
                Affected::Opponent => format!("{}'s", !effect.owner),
                Affected::Both => "both players'".to_string(),
            };
            let mut what = Vec::new();
            if let Some(text) = session.effect_text(effect.card, effect.moves == MoveRules::STANDARD) {
                // A manifest's sentence, joined to the rest of the line.
                let text = crate::content::with_names(&text, effect.owner);
                what.push(text.trim_end_matches('.').to_string());
            }
            if effect.moves.pawns_step_back {
                what.push(format!("{whose} pawns may step back"));
            }
            if effect.moves.capture_optional {
                what.push(format!("capture is optional for {whose} moves"));
            }
            if effect.moves.closed.any() {
                let squares: Vec<String> = effect.moves.closed.map(|s| s.to_string()).collect();
                what.push(format!("{whose} checkers may not move onto {}", squares.join(" ")));
            }
            let _ = writeln!(
                out,
                "  in force: {} ({}): {}; {lasts}",
                session.card_name(effect.card),
                effect.owner,
                what.join(", ")
            );
        }
        out.push_str(&constraint("next turn", state.next_constraint, !state.to_move));
    }
    let log = session.log();
    if !log.is_empty() {
        let recent: Vec<&str> = log.iter().rev().take(4).rev().map(String::as_str).collect();
        let _ = writeln!(out, "  last: {}", recent.join("; "));
    }
    out
}

/// The pending options, numbered, with the question's prompt.
pub fn options(session: &Session) -> String {
    let Some(decision) = session.pending() else { return String::new() };
    let mut out = String::new();
    let heading = match decision.kind {
        DecisionKind::Move => format!("{} moves", decision.player),
        DecisionKind::Card => format!("{} uses a card", decision.player),
        DecisionKind::Question => {
            let prompt = decision.prompt.clone().unwrap_or_default();
            match question_kind(session) {
                Some(QuestionKind::Block) => format!("{prompt} (each block by its square drawn lower left)"),
                Some(QuestionKind::Direction) => format!("{prompt} (as the board is drawn for you)"),
                _ => prompt,
            }
        }
    };
    // A question ends in its own mark and needs no colon after it.
    let colon = if heading.ends_with('?') { "" } else { ":" };
    let _ = writeln!(out, "{heading}{colon}");
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
fn question_kind(session: &Session) -> Option<QuestionKind> {
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
/// the decider (`left (w)`); a 2×2 block by its square drawn lower left.
pub fn option_text(session: &Session, option: &Choice) -> String {
    option_text_in(session, option, decider_frame(session))
}

/// An option of the pending decision as `frame`'s player reads it.
pub fn option_text_in(session: &Session, option: &Choice, frame: Frame) -> String {
    match (option, question_kind(session)) {
        (Choice::Card(c), _) => session.card_name(*c),
        (Choice::Answer(Answer::Dir(d)), _) => format!("{} ({d})", frame.word(*d)),
        (Choice::Answer(Answer::Square(anchor)), Some(QuestionKind::Block)) => frame.block_corner(*anchor).to_string(),
        // An option that is a card's id (Foresight's order) reads as the card's name.
        (Choice::Answer(Answer::Option(id)), _) if session.engine.content().card_id(id).is_some() => {
            session.engine.content().card_id(id).map_or_else(|| id.to_string(), |c| session.card_name(c))
        }
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
