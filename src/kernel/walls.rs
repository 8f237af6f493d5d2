//! Edges, vertices and walls (R1.2, R5).
//!
//! An interior edge is named by the square below it or to its left and a side: the
//! north edge of `d4` lies between `d4` and `d5`, the east edge of `d4` between `d4`
//! and `e4`. One player's walls are two bitboards of such squares, from which the
//! set of blocked steps in each direction follows by shifts (R5.4, R5.6).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::bitboard::Bitboard;
use super::square::{Dir, ParseError, Square};

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Side {
    North,
    East,
}

/// An interior edge (R1.2). Invariant: a `North` edge is not on rank 8 and an `East`
/// edge is not on file h, so both squares beside it exist.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Edge {
    square: Square,
    side: Side,
}

impl Edge {
    pub fn new(square: Square, side: Side) -> Option<Edge> {
        let inside = match side {
            Side::North => square.rank() < 7,
            Side::East => square.file() < 7,
        };
        inside.then_some(Edge { square, side })
    }

    /// The edge between two orthogonally adjacent squares.
    pub fn between(a: Square, b: Square) -> Option<Edge> {
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        match hi.index() - lo.index() {
            8 => Edge::new(lo, Side::North),
            1 if lo.file() < 7 => Edge::new(lo, Side::East),
            _ => None,
        }
    }

    /// The edge a one-square orthogonal step from `from` in `dir` crosses.
    pub fn crossed(from: Square, dir: Dir) -> Option<Edge> {
        from.step(dir).and_then(|to| Edge::between(from, to))
    }

    pub fn square(self) -> Square {
        self.square
    }

    pub fn side(self) -> Side {
        self.side
    }

    /// The two squares either side of the edge, lower first.
    pub fn squares(self) -> (Square, Square) {
        let other = match self.side {
            Side::North => self.square.step(Dir::N),
            Side::East => self.square.step(Dir::E),
        };
        (self.square, other.expect("Edge invariant: both squares exist"))
    }

    /// The two end points as vertex coordinates (0..=8 on each axis).
    pub fn vertices(self) -> [(i8, i8); 2] {
        let (f, r) = (self.square.file(), self.square.rank());
        match self.side {
            Side::North => [(f, r + 1), (f + 1, r + 1)],
            Side::East => [(f + 1, r), (f + 1, r + 1)],
        }
    }

    /// Every interior edge: 56 north edges then 56 east edges.
    pub fn all() -> impl Iterator<Item = Edge> {
        let north = Square::all().filter_map(|s| Edge::new(s, Side::North));
        let east = Square::all().filter_map(|s| Edge::new(s, Side::East));
        north.chain(east)
    }
}

impl fmt::Display for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = self.squares();
        f.write_str(a.name())?;
        f.write_str("/")?;
        f.write_str(b.name())
    }
}

impl FromStr for Edge {
    type Err = ParseError;
    /// `d4/d5` (either order): the edge between two orthogonal neighbours.
    fn from_str(s: &str) -> Result<Edge, ParseError> {
        let (a, b) = s
            .split_once('/')
            .ok_or_else(|| format!("'{s}' is not an edge (write the two squares beside it, like d4/d5)"))?;
        let a: Square = a.parse().map_err(|e| format!("{e}"))?;
        let b: Square = b.parse().map_err(|e| format!("{e}"))?;
        Edge::between(a, b).ok_or_else(|| {
            ParseError(format!("{a} and {b} are not orthogonal neighbours, so no edge lies between them"))
        })
    }
}

impl Serialize for Edge {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Edge {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Edge, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

/// Two edges that may take a pair of walls (R5.2): they share a vertex and form an
/// "L" (two edges of one square) or a straight segment two edges long.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub struct EdgePair(pub Edge, pub Edge);

impl EdgePair {
    /// The pair, ordered, if the two edges share a vertex.
    pub fn new(a: Edge, b: Edge) -> Option<EdgePair> {
        if a == b {
            return None;
        }
        let shares = a.vertices().iter().any(|v| b.vertices().contains(v));
        shares.then(|| if a < b { EdgePair(a, b) } else { EdgePair(b, a) })
    }

    pub fn is_straight(self) -> bool {
        self.0.side == self.1.side
    }

    /// Every pair of interior edges that share a vertex, in a fixed order
    /// (computed once).
    pub fn all() -> &'static [EdgePair] {
        static ALL: std::sync::OnceLock<Vec<EdgePair>> = std::sync::OnceLock::new();
        ALL.get_or_init(EdgePair::compute_all)
    }

    fn compute_all() -> Vec<EdgePair> {
        let edges: Vec<Edge> = Edge::all().collect();
        let mut pairs = Vec::new();
        for (i, &a) in edges.iter().enumerate() {
            for &b in &edges[i + 1..] {
                if let Some(p) = EdgePair::new(a, b) {
                    pairs.push(p);
                }
            }
        }
        pairs.sort();
        pairs
    }
}

impl fmt::Display for EdgePair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}", self.0, self.1)
    }
}

impl FromStr for EdgePair {
    type Err = ParseError;
    /// `d4/d5+d5/e5`
    fn from_str(s: &str) -> Result<EdgePair, ParseError> {
        let (a, b) =
            s.split_once('+').ok_or_else(|| format!("'{s}' is not a pair of edges (write them like d4/d5+d5/e5)"))?;
        let (a, b): (Edge, Edge) = (a.parse()?, b.parse()?);
        EdgePair::new(a, b).ok_or_else(|| ParseError(format!("edges {a} and {b} do not meet at a corner (R5.2)")))
    }
}

/// One player's walls. Invariant: only bits of interior edges are set (no north
/// edge on rank 8, no east edge on file h).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct Walls {
    north: Bitboard,
    east: Bitboard,
}

impl Walls {
    fn bits(&mut self, side: Side) -> &mut Bitboard {
        match side {
            Side::North => &mut self.north,
            Side::East => &mut self.east,
        }
    }

    pub fn contains(&self, edge: Edge) -> bool {
        match edge.side {
            Side::North => self.north.contains(edge.square),
            Side::East => self.east.contains(edge.square),
        }
    }

    pub fn insert(&mut self, edge: Edge) {
        self.bits(edge.side).insert(edge.square);
    }

    pub fn remove(&mut self, edge: Edge) {
        self.bits(edge.side).remove(edge.square);
    }

    pub fn count(&self) -> u32 {
        self.north.count() + self.east.count()
    }

    pub fn is_empty(&self) -> bool {
        self.north.is_empty() && self.east.is_empty()
    }

    pub fn edges(&self) -> impl Iterator<Item = Edge> + '_ {
        let north = self.north.map(|s| Edge { square: s, side: Side::North });
        let east = self.east.map(|s| Edge { square: s, side: Side::East });
        north.chain(east)
    }

    /// The edges between two squares of `squares` (a monolith's inner edges,
    /// where no wall can go, R7.1).
    pub fn inside(squares: Bitboard) -> Walls {
        // An edge's squares are its square and the one north (or east) of it.
        Walls { north: squares & squares.shift(Dir::S), east: squares & squares.shift(Dir::W) }
    }

    pub fn union(self, other: Walls) -> Walls {
        Walls { north: self.north | other.north, east: self.east | other.east }
    }

    /// Squares from which a one-square step in `dir` is blocked by these walls.
    ///
    /// Orthogonal steps (R5.6) are blocked by the wall on the crossed edge. A
    /// diagonal step passes one vertex V with edges N, S, W, E around it; the step
    /// SW↔NE is blocked iff (W or N) and (S or E), the step NW↔SE iff (N or E) and
    /// (W or S) (R5.4).
    #[inline]
    pub fn blocked(&self, dir: Dir) -> Bitboard {
        let (n, e) = (self.north.0, self.east.0);
        // Step from s to NE (s+9), V = NE corner of s: W = n[s], N = e[s+8], S = e[s], E = n[s+1].
        let ne = || (n | e >> 8) & (e | n >> 1) & !(Bitboard::FILE_H.0 | Bitboard::RANK_8.0);
        // Step from s to NW (s+7), V = NW corner of s: N = e[s+7], E = n[s], W = n[s-1], S = e[s-1].
        let nw = || (e >> 7 | n) & (n << 1 | e << 1) & !(Bitboard::FILE_A.0 | Bitboard::RANK_8.0);
        Bitboard(match dir {
            Dir::N => n,
            Dir::E => e,
            Dir::S => n << 8,
            Dir::W => (e << 1) & !Bitboard::FILE_A.0,
            Dir::NE => ne(),
            Dir::NW => nw(),
            // The reverse steps cross the same vertex between the same two squares.
            Dir::SW => ne() << 9,
            Dir::SE => nw() << 7,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    fn edge(s: &str) -> Edge {
        s.parse().unwrap()
    }

    /// The vertex rule of R5.4 written out literally, one step at a time.
    fn blocked_by_definition(walls: &Walls, from: Square, dir: Dir) -> bool {
        let Some(to) = from.step(dir) else {
            return false;
        };
        if !dir.is_diagonal() {
            return walls.contains(Edge::between(from, to).unwrap());
        }
        // Vertex V: lower-left square of the 2×2 block around it.
        let sw = Square::at(from.file().min(to.file()), from.rank().min(to.rank())).unwrap();
        let (se, nw, ne) = (sw.step(Dir::E).unwrap(), sw.step(Dir::N).unwrap(), sw.step(Dir::NE).unwrap());
        let has = |a: Square, b: Square| walls.contains(Edge::between(a, b).unwrap());
        let (n, s, w, e) = (has(nw, ne), has(sw, se), has(sw, nw), has(se, ne));
        if matches!(dir, Dir::NE | Dir::SW) { (w || n) && (s || e) } else { (n || e) && (w || s) }
    }

    #[test]
    fn masks_agree_with_the_vertex_rule_for_every_pair_at_every_vertex() {
        for &pair in EdgePair::all() {
            let mut walls = Walls::default();
            walls.insert(pair.0);
            walls.insert(pair.1);
            for dir in Dir::ALL {
                for from in Square::all() {
                    assert_eq!(
                        walls.blocked(dir).contains(from),
                        blocked_by_definition(&walls, from, dir),
                        "pair {pair}, step {from} {dir}"
                    );
                }
            }
        }
    }

    #[test]
    fn l_blocks_across_its_corner_straight_blocks_both() {
        // R5.4: an L on the north and east edges of d4 meets at the d4/e5 vertex.
        let mut l = Walls::default();
        l.insert(edge("d4/d5"));
        l.insert(edge("d4/e4"));
        assert!(l.blocked(Dir::NE).contains(sq("d4")), "the step across the corner");
        assert!(!l.blocked(Dir::NW).contains(sq("e4")), "the step that skims past");
        // A straight segment d4/e4 + d5/e5 passes through the same vertex.
        let mut straight = Walls::default();
        straight.insert(edge("d4/e4"));
        straight.insert(edge("d5/e5"));
        assert!(straight.blocked(Dir::NE).contains(sq("d4")));
        assert!(straight.blocked(Dir::NW).contains(sq("e4")));
        // One wall alone blocks no diagonal.
        let mut one = Walls::default();
        one.insert(edge("d4/e4"));
        assert!(one.blocked(Dir::NE).is_empty() && one.blocked(Dir::NW).is_empty());
        assert!(one.blocked(Dir::E).contains(sq("d4")) && one.blocked(Dir::W).contains(sq("e4")));
    }

    #[test]
    fn edges_and_pairs_parse_and_count() {
        assert_eq!(Edge::all().count(), 112);
        assert_eq!(edge("d5/d4"), edge("d4/d5"));
        assert!("d4/e5".parse::<Edge>().is_err());
        assert!("h1/a2".parse::<Edge>().is_err());
        let pair: EdgePair = "d4/d5+d4/e4".parse().unwrap();
        assert!(!pair.is_straight());
        assert!("a1/a2+h7/h8".parse::<EdgePair>().is_err());
        // 49 interior vertices × (4 L + 2 straight); a rim vertex has one interior edge.
        let pairs = EdgePair::all();
        assert!(pairs.iter().all(|p| p.to_string().parse::<EdgePair>() == Ok(*p)));
        assert_eq!(pairs.len(), 49 * 6);
    }

    #[test]
    fn inside_holds_the_edges_with_both_squares_in_the_set() {
        // Every 2×2 block (the monolith's places), and some ragged sets along the edges.
        let mut sets: Vec<Bitboard> = Square::all().filter_map(crate::kernel::block).collect();
        sets.extend([Bitboard::ALL, Bitboard::FILE_A | Bitboard::FILE_H, Bitboard::rank(0) | Bitboard::rank(7)]);
        sets.push(Square::all().filter(|s| (s.index() * 7) % 5 < 2).fold(Bitboard::EMPTY, |mut b, s| {
            b.insert(s);
            b
        }));
        for set in sets {
            let inside = Walls::inside(set);
            for e in Edge::all() {
                let (a, b) = e.squares();
                assert_eq!(inside.contains(e), set.contains(a) && set.contains(b), "{e} in {set:?}");
            }
        }
    }
}
