//! Edges and wall spots named as a player sees them on the drawn board (R5):
//! an edge by a square and a side (`d4 up`) or by its two squares (`d4 d5`);
//! a pair of edges meeting at a corner (R5.2) by a square and that corner
//! (`d4 up-right`: the two sides of d4 that meet there), or by two squares
//! side by side and the side both edges are on (`d4 e4 up`). Directions are
//! the frame's words (`up`, `u`, `up-right`), or the board's own (`n`, `ne`).
//! The REPL reads these names and the screen and the narrator write them, so
//! a name shown is a name that reads back.

use crate::kernel::{Dir, Edge, EdgePair, Square};
use crate::narrate::Frame;

/// The squares and the one direction word of `text`, in order; `None` when a
/// word is neither or a second direction is given.
fn words(frame: Frame, text: &str) -> Option<(Vec<Square>, Option<Dir>)> {
    let mut squares = Vec::new();
    let mut dir = None;
    for word in text.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()) {
        if let Ok(sq) = word.to_ascii_lowercase().parse::<Square>() {
            squares.push(sq);
        } else if dir.is_none() {
            dir = Some(frame.dir(word)?);
        } else {
            return None;
        }
    }
    Some((squares, dir))
}

fn is_orthogonal(dir: Dir) -> bool {
    matches!(dir, Dir::N | Dir::E | Dir::S | Dir::W)
}

/// The edge `text` names in `frame`: `d4 up` or `d4 d5`.
pub fn edge(frame: Frame, text: &str) -> Option<Edge> {
    match words(frame, text)? {
        (squares, Some(dir)) if squares.len() == 1 && is_orthogonal(dir) => {
            Edge::between(squares[0], squares[0].step(dir)?)
        }
        (squares, None) if squares.len() == 2 => Edge::between(squares[0], squares[1]),
        _ => None,
    }
}

/// The pair of edges `text` names in `frame`: `d4 up-right` or `d4 e4 up`.
pub fn pair(frame: Frame, text: &str) -> Option<EdgePair> {
    let (squares, dir) = words(frame, text)?;
    let dir = dir?;
    match squares.as_slice() {
        // The two sides of the square that meet at that corner.
        [sq] if !is_orthogonal(dir) => {
            let (df, dr) = dir.delta();
            let across = Dir::ALL.into_iter().find(|d| d.delta() == (df, 0))?;
            let along = Dir::ALL.into_iter().find(|d| d.delta() == (0, dr))?;
            EdgePair::new(Edge::between(*sq, sq.step(across)?)?, Edge::between(*sq, sq.step(along)?)?)
        }
        // Two neighbours and the side both edges lie on, across their line.
        [a, b] if is_orthogonal(dir) && Edge::between(*a, *b).is_some() => {
            let (df, dr) = dir.delta();
            let (lf, lr) = (b.file() - a.file(), b.rank() - a.rank());
            if df * lf + dr * lr != 0 {
                return None;
            }
            EdgePair::new(Edge::between(*a, a.step(dir)?)?, Edge::between(*b, b.step(dir)?)?)
        }
        _ => None,
    }
}

/// `edge` as typed in `frame`: the lower or left of its squares as drawn and
/// the side toward the other (`d4 up`).
pub fn edge_text(frame: Frame, edge: Edge) -> String {
    let (a, b) = edge.squares();
    let toward = Dir::ALL.into_iter().find(|&d| a.step(d) == Some(b)).expect("an edge's squares are neighbours");
    match frame.word(toward) {
        "down" | "left" => format!("{b} {}", frame.word(toward.opposite())),
        word => format!("{a} {word}"),
    }
}

/// `pair` as typed in `frame`: `d4 up-right` for an L, `d4 e4 up` for a line.
pub fn pair_text(frame: Frame, pair: EdgePair) -> String {
    let (a, b) = (pair.0.squares(), pair.1.squares());
    let common = [a.0, a.1].into_iter().find(|s| *s == b.0 || *s == b.1);
    if let Some(sq) = common {
        let other = |e: (Square, Square)| if e.0 == sq { e.1 } else { e.0 };
        let (x, y) = (other(a), other(b));
        let corner = Square::at(x.file() + y.file() - sq.file(), x.rank() + y.rank() - sq.rank());
        let dir = corner.and_then(|c| Dir::ALL.into_iter().find(|&d| sq.step(d) == Some(c)));
        if let Some(dir) = dir {
            return format!("{sq} {}", frame.word(dir));
        }
    }
    // A line: both edges on the same side of two neighbours; named from the
    // side drawn up or right of them when it can be.
    for (near, far) in [(a.0, a.1), (a.1, a.0)] {
        let side = Dir::ALL.into_iter().find(|&d| near.step(d) == Some(far)).expect("neighbours");
        let partner = [b.0, b.1].into_iter().find(|&s| Edge::between(near, s).is_some());
        if let Some(partner) = partner
            && matches!(frame.word(side), "up" | "right")
        {
            let (first, second) =
                if frame_order(frame, near) <= frame_order(frame, partner) { (near, partner) } else { (partner, near) };
            return format!("{first} {second} {}", frame.word(side));
        }
    }
    pair.to_string()
}

/// Left to right, then bottom to top, as drawn.
fn frame_order(frame: Frame, sq: Square) -> (i8, i8) {
    let (rf, rr) = frame.right().delta();
    let (uf, ur) = frame.up().delta();
    (sq.file() * rf + sq.rank() * rr, sq.file() * uf + sq.rank() * ur)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{Orientation, Player};

    fn frames() -> Vec<Frame> {
        let mut all = Vec::new();
        for viewer in Player::BOTH {
            for forward in [Dir::N, Dir::E, Dir::S, Dir::W] {
                let orientation = Orientation::with_dark_forward(forward).expect("a side of the board");
                all.push(Frame { viewer, orientation });
            }
        }
        all
    }

    #[test]
    fn every_pair_and_edge_reads_back_in_every_frame() {
        for frame in frames() {
            for &p in EdgePair::all() {
                let text = pair_text(frame, p);
                assert_eq!(pair(frame, &text), Some(p), "{text} in {frame:?}");
            }
            for &p in EdgePair::all() {
                for e in [p.0, p.1] {
                    let text = edge_text(frame, e);
                    assert_eq!(edge(frame, &text), Some(e), "{text} in {frame:?}");
                }
            }
        }
    }

    #[test]
    fn pairs_are_named_as_drawn() {
        let dark = Frame { viewer: Player::Dark, orientation: Orientation::default() };
        let light = Frame { viewer: Player::Light, orientation: Orientation::default() };
        let l: EdgePair = "d4/d5+d4/e4".parse().unwrap();
        assert_eq!(pair(dark, "d4 up-right"), Some(l));
        assert_eq!(pair(dark, "d4 ne"), Some(l));
        // Light sits across the board: d4's north-east corner is drawn lower left.
        assert_eq!(pair(light, "d4 down-left"), Some(l));
        let line: EdgePair = "d4/d5+e4/e5".parse().unwrap();
        assert_eq!(pair(dark, "d4 e4 up"), Some(line));
        assert_eq!(pair(dark, "e5 d5 down"), Some(line));
        assert_eq!(pair(dark, "d4 e4 right"), None, "a side along their line is no wall spot");
        assert_eq!(edge(dark, "d4 d5"), Some(l.0));
        assert_eq!(edge(light, "d4 down"), Some(l.0));
        assert_eq!(edge(dark, "d4 up-right"), None);
    }
}
