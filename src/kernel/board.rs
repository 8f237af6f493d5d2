//! Everything on the table: checkers with their tokens, terrain, the monolith,
//! walls, reserves and the token supply (R1), with the operations that change them.
//!
//! Every operation checks its preconditions first and changes nothing when it
//! returns an error. After any change that can make crowning possible, waiting
//! pawns are crowned (R6.2). Every change an operation makes is told to the
//! [`Journal`] it is given, in order (see `event.rs`).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::bitboard::Bitboard;
use super::event::{BoardEvent, Clearing, Journal, Removal};
use super::marks::{MAX_MARKER_KINDS, MarkerKind, MarkerRules, Marks};
use super::movement::Movement;
use super::player::{Orientation, Player, Rotation};
use super::pools::{Leaving, MAX_POOLS, Pools, Routes};
use super::square::{Dir, Square};
use super::walls::{Edge, EdgePair, Walls};

/// A rule-enforcing operation was refused; the message says which rule and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleError(pub String);

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RuleError {}

pub type RuleResult<T> = Result<T, RuleError>;

macro_rules! refuse {
    ($($arg:tt)*) => { return Err($crate::kernel::RuleError(format!($($arg)*))) };
}
pub(crate) use refuse;

/// R1.4: how many pieces a checker stacks.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Pawn = 1,
    King = 2,
    Emperor = 3,
}

impl Kind {
    pub const fn pieces(self) -> u8 {
        self as u8
    }

    pub const fn name(self) -> &'static str {
        match self {
            Kind::Pawn => "pawn",
            Kind::King => "king",
            Kind::Emperor => "emperor",
        }
    }
}

/// Markers that ride on a checker (R1.4).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Token {
    Ring,
    Snookle,
    Hippo,
}

impl Token {
    pub const ALL: [Token; 3] = [Token::Ring, Token::Snookle, Token::Hippo];

    pub const fn name(self) -> &'static str {
        match self {
            Token::Ring => "ring",
            Token::Snookle => "snookle",
            Token::Hippo => "hippo",
        }
    }
}

/// What may fill an otherwise empty square (R8.1, R8.2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Terrain {
    Water,
    Fire,
}

impl Terrain {
    pub const fn name(self) -> &'static str {
        match self {
            Terrain::Water => "water",
            Terrain::Fire => "fire",
        }
    }
}

/// The checker on one square, as read from the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Checker {
    pub owner: Player,
    pub kind: Kind,
    pub ring: bool,
    pub snookle: bool,
    pub hippo: bool,
    /// Riding markers of a modder's kinds (bit `i` for kind `i`, marks.rs).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub marks: u8,
    /// Which checker this is ([`Ids`]); 0 on a board whose checkers are not numbered.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub id: u8,
}

fn is_zero(value: &u8) -> bool {
    *value == 0
}

impl Checker {
    pub const fn new(owner: Player, kind: Kind) -> Checker {
        Checker { owner, kind, ring: false, snookle: false, hippo: false, marks: 0, id: 0 }
    }

    pub const fn has(&self, token: Token) -> bool {
        match token {
            Token::Ring => self.ring,
            Token::Snookle => self.snookle,
            Token::Hippo => self.hippo,
        }
    }
}

/// R6: whether crowning takes a piece from the reserve (Alien Checkers) or is free
/// (plain checkers, R11).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Crowning {
    #[default]
    FromReserve,
    Free,
}

/// The shared, finite token supply (R1.5): what is not on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Supply {
    /// Walls per player, indexed by `Player::index`.
    pub walls: [u8; 2],
    pub rings: u8,
    pub snookles: u8,
    pub water: u8,
    pub fire: u8,
    pub hippos: u8,
    pub monolith: u8,
}

impl Supply {
    /// R1.5's counts.
    pub const STANDARD: Supply =
        Supply { walls: [8, 8], rings: 15, snookles: 10, water: 3, fire: 4, hippos: 3, monolith: 1 };
    pub const NONE: Supply = Supply { walls: [0, 0], rings: 0, snookles: 0, water: 0, fire: 0, hippos: 0, monolith: 0 };

    fn token(&mut self, token: Token) -> &mut u8 {
        match token {
            Token::Ring => &mut self.rings,
            Token::Snookle => &mut self.snookles,
            Token::Hippo => &mut self.hippos,
        }
    }

    fn terrain(&mut self, terrain: Terrain) -> &mut u8 {
        match terrain {
            Terrain::Water => &mut self.water,
            Terrain::Fire => &mut self.fire,
        }
    }
}

impl Default for Supply {
    fn default() -> Supply {
        Supply::STANDARD
    }
}

/// What a monolith move did (R7), for logs and tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MonolithReport {
    pub pushed: Vec<(Square, Square)>,
    pub removed: Vec<Square>,
    pub walls_removed: Vec<Edge>,
    pub terrain_removed: Vec<Square>,
}

/// What the kernel's operations conserve, counted on the board and beside it.
/// Tests and fuzz targets compare it before and after play.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Totals {
    /// Each player's pieces on the board and in their pools (the reserve and a
    /// deck's own, pools.rs). With crowning from the reserve both together are
    /// always as many as were dealt (R1.3, R4.9, R6.1; 24 on R2.1's start, as
    /// many as a deck's `start:` places otherwise); one player's alone change
    /// when pieces go to the other's pool or a checker changes sides. Free
    /// crowning (R11) adds one.
    pub pieces: [u32; 2],
    /// On the board plus in the supply (R1.5): rings, snookles, hippos, water,
    /// fire, the monolith, Dark's walls, Light's walls.
    pub supply: [u32; 8],
    /// Each declared marker kind on the board plus in its supply.
    pub markers: [u32; MAX_MARKER_KINDS],
}

/// The board and everything on or beside it.
///
/// Invariants (checked by [`Board::validate`], kept by every operation):
/// - the two players' checkers are disjoint; `kings` ⊆ checkers; `emperors` ⊆ `kings`;
/// - tokens sit only on checkers; no checker has both a hippo and a snookle (R8.8);
/// - water, fire, the monolith's block and checkers are pairwise disjoint (R4.5);
/// - each interior edge holds at most one wall (R5.1), never one inside the
///   monolith's block (R7.1);
/// - with `Crowning::FromReserve`, no pawn waits on its king row while its owner's
///   reserve holds a piece (R6.2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Board {
    checkers: [Bitboard; 2],
    kings: Bitboard,
    emperors: Bitboard,
    rings: Bitboard,
    snookles: Bitboard,
    hippos: Bitboard,
    water: Bitboard,
    fire: Bitboard,
    /// The lower-left (`a1`-most) square of the monolith's 2×2 block.
    monolith: Option<Square>,
    walls: [Walls; 2],
    reserve: [u8; 2],
    supply: Supply,
    orientation: Orientation,
    crowning: Crowning,
    /// Markers of the deck's own kinds (marks.rs).
    #[serde(default, skip_serializing_if = "Marks::is_empty")]
    marks: Marks,
    /// How checkers move, the deck's rules (movement.rs), when they are not
    /// R4's: `None` is American checkers, the one the hot paths test for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    movement: Option<Movement>,
    /// Which checker is which, once numbered (a game's deal numbers them).
    #[serde(default, skip_serializing_if = "Ids::is_unnumbered")]
    ids: Ids,
    /// A deck's pools beyond the reserves and where pieces go (pools.rs);
    /// `None`: every piece goes to its owner's reserve (R4.9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pools: Option<Pools>,
}

/// The identity of each checker on the board: a number from 1 to 255 that a
/// checker keeps while it stays on the board (moves, chains, pushes, card
/// moves, crowning, rotation, being set aside and put back). A checker that
/// comes onto the board from a reserve is a new one and gets the next number
/// not on the board, counting on from the last one given, so a number is not
/// given again soon after its checker left.
///
/// Invariant: `at` is non-zero exactly on occupied squares once numbered, and
/// zero everywhere before; no two squares share a number.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(into = "IdsForm", try_from = "IdsForm")]
pub struct Ids {
    at: [u8; 64],
    numbered: bool,
    /// The last number given.
    last: u8,
}

/// How [`Ids`] are saved, once numbered: `{last: 7, on: {a1: 1, c1: 2, …}}`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct IdsForm {
    last: u8,
    on: std::collections::BTreeMap<Square, u8>,
}

impl From<Ids> for IdsForm {
    fn from(ids: Ids) -> IdsForm {
        let on = Square::all().filter(|sq| ids.at[sq.index()] != 0).map(|sq| (sq, ids.at[sq.index()])).collect();
        IdsForm { last: ids.last, on }
    }
}

impl TryFrom<IdsForm> for Ids {
    type Error = String;

    fn try_from(form: IdsForm) -> Result<Ids, String> {
        let mut ids = Ids { at: [0; 64], numbered: true, last: form.last };
        for (sq, id) in form.on {
            if id == 0 || ids.at.contains(&id) {
                return Err(format!("checker number {id} on {sq} is 0 or given twice"));
            }
            ids.at[sq.index()] = id;
        }
        Ok(ids)
    }
}

impl Default for Ids {
    fn default() -> Ids {
        Ids { at: [0; 64], numbered: false, last: 0 }
    }
}

impl Ids {
    fn is_unnumbered(&self) -> bool {
        !self.numbered
    }

    /// The number for a checker coming onto the board: 0 on an unnumbered
    /// board; else the next after `last` (1 follows 255) not on the board.
    fn fresh(&mut self) -> u8 {
        if self.is_unnumbered() {
            return 0;
        }
        let mut id = self.last;
        loop {
            id = id.checked_add(1).unwrap_or(1);
            // At most 64 numbers are on the board, so one of 65 tries is free.
            if !self.at.contains(&id) {
                self.last = id;
                return id;
            }
        }
    }
}

/// Which squares checkers are set out on and numbered over: the dark ones
/// (`a1` is dark, R1.1), the light ones, or all 64.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayingSquares {
    #[default]
    Dark,
    Light,
    All,
}

impl PlayingSquares {
    pub const fn squares(self) -> Bitboard {
        match self {
            PlayingSquares::Dark => Bitboard::DARK,
            PlayingSquares::Light => Bitboard::LIGHT,
            PlayingSquares::All => Bitboard::ALL,
        }
    }
}

/// Where the checkers stand at the start: on the playing squares of the
/// rows listed, counted from each player's own edge (R2.1: rows 1 to 3).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartLayout {
    #[serde(default)]
    pub squares: PlayingSquares,
    #[serde(default = "first_three_rows", deserialize_with = "rows")]
    pub rows: Vec<u8>,
}

fn first_three_rows() -> Vec<u8> {
    vec![1, 2, 3]
}

fn rows<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    let rows = Vec::<u8>::deserialize(d)?;
    if rows.iter().any(|r| !(1..=4).contains(r)) {
        return Err(serde::de::Error::custom("start rows are numbered 1 to 4 from each player's own edge"));
    }
    Ok(rows)
}

impl Default for StartLayout {
    fn default() -> StartLayout {
        StartLayout { squares: PlayingSquares::Dark, rows: first_three_rows() }
    }
}

impl StartLayout {
    /// The squares `player`'s checkers start on, with Dark at rank 1 (R2.2).
    pub fn squares_of(&self, player: Player) -> Bitboard {
        let rows = self.rows.iter().fold(Bitboard::EMPTY, |b, &r| {
            b | Bitboard::rank(if player == Player::Dark { r as i8 - 1 } else { 8 - r as i8 })
        });
        rows & self.squares.squares()
    }
}

/// The 2×2 block whose lower-left square is `anchor`, if it fits on the board.
pub fn block(anchor: Square) -> Option<Bitboard> {
    (anchor.file() < 7 && anchor.rank() < 7).then(|| {
        let b = Bitboard::from_square(anchor);
        b | b.shift(Dir::E) | b.shift(Dir::N) | b.shift(Dir::NE)
    })
}

/// The four edges inside a 2×2 block.
fn inner_edges(anchor: Square) -> [Edge; 4] {
    let at = |d: Option<Dir>| d.map_or(Some(anchor), |d| anchor.step(d)).expect("block fits on the board");
    let (sw, se, nw, ne) = (at(None), at(Some(Dir::E)), at(Some(Dir::N)), at(Some(Dir::NE)));
    [(sw, se), (nw, ne), (sw, nw), (se, ne)].map(|(a, b)| Edge::between(a, b).expect("neighbours"))
}

impl Board {
    /// An empty board: no checkers, the given supply, Dark at rank 1.
    pub fn empty(supply: Supply, crowning: Crowning) -> Board {
        Board {
            checkers: [Bitboard::EMPTY; 2],
            kings: Bitboard::EMPTY,
            emperors: Bitboard::EMPTY,
            rings: Bitboard::EMPTY,
            snookles: Bitboard::EMPTY,
            hippos: Bitboard::EMPTY,
            water: Bitboard::EMPTY,
            fire: Bitboard::EMPTY,
            monolith: None,
            walls: [Walls::default(); 2],
            reserve: [0; 2],
            supply,
            orientation: Orientation::default(),
            crowning,
            marks: Marks::default(),
            movement: None,
            ids: Ids::default(),
            pools: None,
        }
    }

    /// R2.1: Dark on the dark squares of ranks 1–3, Light on those of ranks 6–8.
    pub fn start(supply: Supply, crowning: Crowning) -> Board {
        let mut board = Board::empty(supply, crowning);
        board.checkers[0] = Bitboard(0x0000_0000_00ff_ffff) & Bitboard::DARK;
        board.checkers[1] = Bitboard(0xffff_ff00_0000_0000) & Bitboard::DARK;
        board
    }

    /// A deck's start: its checkers set out as `layout` says, moving as `movement` says.
    pub fn start_as(supply: Supply, crowning: Crowning, layout: &StartLayout, movement: Movement) -> Board {
        let mut board = Board::empty(supply, crowning);
        for player in Player::BOTH {
            board.checkers[player.index()] = layout.squares_of(player);
        }
        board.set_movement(movement);
        board
    }

    /// Gives every checker on the board its number, 1 up in square order (`a1`
    /// first), and numbers every checker that comes onto the board from now on
    /// ([`Ids`]). A game's deal and a scenario's scene do this once.
    pub fn number_checkers(&mut self) {
        let mut ids = Ids { numbered: true, ..Ids::default() };
        for sq in self.occupied() {
            ids.last += 1;
            ids.at[sq.index()] = ids.last;
        }
        self.ids = ids;
    }

    /// A number for a checker coming onto the board ([`Ids`]).
    pub(super) fn fresh_id(&mut self) -> u8 {
        self.ids.fresh()
    }

    /// The same board with its checkers not numbered: what the board is
    /// without saying which checker is which (the repetition draw compares it).
    pub fn unnumbered(&self) -> Board {
        Board { ids: Ids::default(), ..*self }
    }

    /// Whether the checkers are numbered ([`Board::number_checkers`]).
    pub fn numbered(&self) -> bool {
        self.ids.numbered
    }

    /// The square of the checker numbered `id`, if it is on the board.
    pub fn find_checker(&self, id: u8) -> Option<Square> {
        if id == 0 {
            return None;
        }
        self.ids.at.iter().position(|&at| at == id).and_then(|i| Square::new(i as u8))
    }

    // ---- reading ----

    pub fn checkers(&self, player: Player) -> Bitboard {
        self.checkers[player.index()]
    }

    pub fn occupied(&self) -> Bitboard {
        self.checkers[0] | self.checkers[1]
    }

    pub fn kings(&self) -> Bitboard {
        self.kings
    }

    pub fn emperors(&self) -> Bitboard {
        self.emperors
    }

    pub fn pawns(&self) -> Bitboard {
        self.occupied() - self.kings
    }

    pub fn tokens(&self, token: Token) -> Bitboard {
        match token {
            Token::Ring => self.rings,
            Token::Snookle => self.snookles,
            Token::Hippo => self.hippos,
        }
    }

    pub fn terrain(&self, terrain: Terrain) -> Bitboard {
        match terrain {
            Terrain::Water => self.water,
            Terrain::Fire => self.fire,
        }
    }

    pub fn terrain_at(&self, sq: Square) -> Option<Terrain> {
        if self.water.contains(sq) {
            Some(Terrain::Water)
        } else if self.fire.contains(sq) {
            Some(Terrain::Fire)
        } else {
            None
        }
    }

    pub fn monolith(&self) -> Option<Square> {
        self.monolith
    }

    pub fn monolith_block(&self) -> Bitboard {
        self.monolith.and_then(block).unwrap_or_default()
    }

    pub fn walls(&self, owner: Player) -> &Walls {
        &self.walls[owner.index()]
    }

    pub fn wall_owner(&self, edge: Edge) -> Option<Player> {
        Player::BOTH.into_iter().find(|p| self.walls[p.index()].contains(edge))
    }

    pub fn reserve(&self, player: Player) -> u8 {
        self.reserve[player.index()]
    }

    /// Pieces in `player`'s pool `pool` (pools.rs): 0 is the reserve; a pool
    /// the deck does not have holds nothing.
    pub fn pool(&self, player: Player, pool: usize) -> u8 {
        match (pool, &self.pools) {
            (0, _) => self.reserve(player),
            (_, Some(pools)) if pool < MAX_POOLS => pools.held[player.index()][pool - 1],
            _ => 0,
        }
    }

    /// How many pools each player has, the reserve included.
    pub fn pool_count(&self) -> usize {
        if self.pools.is_some() { MAX_POOLS } else { 1 }
    }

    /// The deck's pools beyond the reserves, if it declares any.
    pub fn pools(&self) -> Option<&Pools> {
        self.pools.as_ref()
    }

    /// Where the pieces of each way of leaving the board go.
    pub fn routes(&self) -> Routes {
        self.pools.map_or(Routes::RESERVE, |p| p.routes)
    }

    pub fn supply(&self) -> &Supply {
        &self.supply
    }

    pub fn orientation(&self) -> Orientation {
        self.orientation
    }

    pub fn movement(&self) -> &Movement {
        self.movement.as_ref().unwrap_or(&Movement::AMERICAN)
    }

    /// Whether checkers move as in American checkers (R4): a test of one byte.
    #[inline]
    pub fn moves_american(&self) -> bool {
        self.movement.is_none()
    }

    pub fn crowning(&self) -> Crowning {
        self.crowning
    }

    /// R4.5: no checker, monolith, water or fire.
    #[inline]
    pub fn empty_squares(&self) -> Bitboard {
        !(self.checkers[0] | self.checkers[1] | self.water | self.fire | self.monolith_block())
    }

    pub fn is_empty(&self, sq: Square) -> bool {
        self.empty_squares().contains(sq)
    }

    pub fn owner(&self, sq: Square) -> Option<Player> {
        Player::BOTH.into_iter().find(|p| self.checkers[p.index()].contains(sq))
    }

    #[inline(always)]
    pub fn checker(&self, sq: Square) -> Option<Checker> {
        let owner = self.owner(sq)?;
        let kind = if self.emperors.contains(sq) {
            Kind::Emperor
        } else if self.kings.contains(sq) {
            Kind::King
        } else {
            Kind::Pawn
        };
        Some(Checker {
            owner,
            kind,
            ring: self.rings.contains(sq),
            snookle: self.snookles.contains(sq),
            hippo: self.hippos.contains(sq),
            marks: self.marks.riders(sq),
            id: self.ids.at[sq.index() & 63],
        })
    }

    /// Pieces of `player` standing on the board (pawn 1, king 2, emperor 3).
    /// See [`Totals`].
    pub fn totals(&self) -> Totals {
        let s = &self.supply;
        let n = |x: u8| u32::from(x);
        Totals {
            pieces: Player::BOTH
                .map(|p| self.pieces_on_board(p) + (0..self.pool_count()).map(|i| n(self.pool(p, i))).sum::<u32>()),
            supply: [
                n(s.rings) + self.rings.count(),
                n(s.snookles) + self.snookles.count(),
                n(s.hippos) + self.hippos.count(),
                n(s.water) + self.water.count(),
                n(s.fire) + self.fire.count(),
                n(s.monolith) + u32::from(self.monolith.is_some()),
                n(s.walls[0]) + self.walls[0].count(),
                n(s.walls[1]) + self.walls[1].count(),
            ],
            markers: std::array::from_fn(|i| n(self.marks.supply[i]) + self.marks.on[i].count()),
        }
    }

    /// The kernel's invariants against the totals of the deal (`dealt`, from
    /// [`Board::totals`] then): [`Board::validate`]; tokens and walls conserved
    /// (R1.5), and the deck's own markers; with crowning from the reserve, the
    /// pieces dealt on the board or in the pools (R1.3, R4.9, R6.1: 24 on
    /// R2.1's start; free crowning, R11, makes kings without one).
    /// The one check every test and fuzz target makes after each change.
    pub fn check_conservation(&self, dealt: &Totals) -> RuleResult<()> {
        self.validate()?;
        let now = self.totals();
        if now.supply != dealt.supply {
            return Err(RuleError(format!("the supply is not conserved: {:?}, dealt {:?}", now.supply, dealt.supply)));
        }
        if now.markers != dealt.markers {
            return Err(RuleError(format!("markers are not conserved: {:?}, dealt {:?}", now.markers, dealt.markers)));
        }
        if self.crowning == Crowning::FromReserve && now.pieces.iter().sum::<u32>() != dealt.pieces.iter().sum::<u32>()
        {
            return Err(RuleError(format!(
                "pieces on the board and in the pools: {:?}, dealt {:?}",
                now.pieces, dealt.pieces
            )));
        }
        Ok(())
    }

    pub fn pieces_on_board(&self, player: Player) -> u32 {
        let mine = self.checkers(player);
        mine.count() + (mine & self.kings).count() + (mine & self.emperors).count()
    }

    /// Squares from which a step of `player`'s checker in `dir` is blocked by the
    /// opponent's walls (R5.3: own walls never block).
    #[inline]
    pub fn blocked_for(&self, player: Player, dir: Dir) -> Bitboard {
        self.walls[(!player).index()].blocked(dir)
    }

    /// Squares from which a step in `dir` crosses a wall of either player (R7.4).
    pub fn blocked_by_any(&self, dir: Dir) -> Bitboard {
        self.walls[0].union(self.walls[1]).blocked(dir)
    }

    // ---- raw setup (for diagrams, FEN and tests); checks emptiness, not supply ----

    /// Puts a checker on an empty square without touching reserve or supply.
    pub fn set_checker(&mut self, sq: Square, checker: Checker) -> RuleResult<()> {
        if !self.is_empty(sq) {
            refuse!("{sq} is not empty (R4.5)");
        }
        if checker.hippo && checker.snookle {
            refuse!("a checker cannot carry both a hippo and a snookle (R8.8)");
        }
        // On a numbered board it is a new checker, whatever number it carried.
        let id = self.ids.fresh();
        self.write_checker(sq, Some(Checker { id, ..checker }));
        Ok(())
    }

    pub fn set_reserve(&mut self, player: Player, pieces: u8) {
        self.reserve[player.index()] = pieces;
    }

    /// Gives the board a deck's pools (empty) and routes (pools.rs).
    pub fn declare_pools(&mut self, routes: Routes) {
        self.pools = Some(Pools::new(routes));
    }

    /// Sets `player`'s pool `pool` (0: the reserve) to `pieces`, for scenes.
    pub fn set_pool(&mut self, player: Player, pool: usize, pieces: u8) -> RuleResult<()> {
        match (pool, self.pools.as_mut()) {
            (0, _) => self.reserve[player.index()] = pieces,
            (_, Some(pools)) if pool < MAX_POOLS => pools.held[player.index()][pool - 1] = pieces,
            _ => refuse!("this deck has no pool {pool}"),
        }
        Ok(())
    }

    pub fn set_supply(&mut self, supply: Supply) {
        self.supply = supply;
    }

    /// Sets how many markers of `kind` the supply holds (a scenario's scene).
    pub fn set_marker_supply(&mut self, kind: MarkerKind, left: u8) {
        if let Some(slot) = self.marks.supply.get_mut(usize::from(kind.0)) {
            *slot = left;
        }
    }

    /// Sets how checkers move (a deck's rules, before play).
    pub fn set_movement(&mut self, movement: Movement) {
        self.movement = (!movement.is_american()).then_some(movement);
    }

    pub fn set_orientation(&mut self, orientation: Orientation) {
        self.orientation = orientation;
    }

    /// Puts terrain on an empty square without touching the supply.
    pub fn set_terrain(&mut self, sq: Square, terrain: Terrain) -> RuleResult<()> {
        if !self.is_empty(sq) {
            refuse!("{sq} is not empty (R4.5)");
        }
        self.write_terrain(sq, Some(terrain));
        Ok(())
    }

    /// Puts a wall without touching the supply.
    pub fn set_wall(&mut self, owner: Player, edge: Edge) -> RuleResult<()> {
        self.check_wall_edge(edge)?;
        self.walls[owner.index()].insert(edge);
        Ok(())
    }

    /// Puts the monolith without touching the supply (R7.1 still holds).
    pub fn set_monolith(&mut self, anchor: Square) -> RuleResult<()> {
        self.put_monolith(anchor, &mut super::event::Unrecorded)
    }

    fn put_monolith(&mut self, anchor: Square, log: &mut impl Journal) -> RuleResult<()> {
        let Some(area) = block(anchor) else { refuse!("a monolith at {anchor} would leave the board (R7.2)") };
        if self.monolith.is_some() {
            refuse!("the monolith is already on the board");
        }
        if (area - self.empty_squares()).any() {
            refuse!("the 2×2 block at {anchor} is not empty (R7.1)");
        }
        for edge in inner_edges(anchor) {
            self.take_wall(edge, Clearing::Monolith, log);
        }
        self.monolith = Some(anchor);
        Ok(())
    }

    #[inline]
    pub(super) fn write_checker(&mut self, sq: Square, checker: Option<Checker>) {
        let c = checker.as_ref();
        for p in Player::BOTH {
            self.checkers[p.index()].set(sq, c.is_some_and(|c| c.owner == p));
        }
        self.kings.set(sq, c.is_some_and(|c| c.kind >= Kind::King));
        self.emperors.set(sq, c.is_some_and(|c| c.kind == Kind::Emperor));
        self.rings.set(sq, c.is_some_and(|c| c.ring));
        self.snookles.set(sq, c.is_some_and(|c| c.snookle));
        self.hippos.set(sq, c.is_some_and(|c| c.hippo));
        self.marks.set_riders(sq, c.map_or(0, |c| c.marks));
        self.ids.at[sq.index() & 63] = c.map_or(0, |c| c.id);
    }

    fn write_terrain(&mut self, sq: Square, terrain: Option<Terrain>) {
        self.water.set(sq, terrain == Some(Terrain::Water));
        self.fire.set(sq, terrain == Some(Terrain::Fire));
    }

    fn take_wall(&mut self, edge: Edge, cause: Clearing, log: &mut impl Journal) -> Option<Player> {
        let owner = self.wall_owner(edge)?;
        self.walls[owner.index()].remove(edge);
        self.supply.walls[owner.index()] += 1;
        log.record(|| BoardEvent::WallRemoved { edge, owner, reason: cause });
        Some(owner)
    }

    fn check_wall_edge(&self, edge: Edge) -> RuleResult<()> {
        if let Some(owner) = self.wall_owner(edge) {
            refuse!("edge {edge} already holds a wall of {owner} (R5.1)");
        }
        let (a, b) = edge.squares();
        let block = self.monolith_block();
        if block.contains(a) && block.contains(b) {
            refuse!("edge {edge} is inside the monolith (R7.1)");
        }
        Ok(())
    }

    // ---- checkers ----

    /// R4.9: a removed checker's pieces go to its owner's reserve, its tokens to the
    /// supply. Then waiting pawns are crowned (R6.2).
    pub fn remove_checker(&mut self, sq: Square, cause: Removal, log: &mut impl Journal) -> RuleResult<Checker> {
        let Some(checker) = self.checker(sq) else { refuse!("there is no checker on {sq}") };
        self.lift(sq, checker, cause.leaving());
        log.record(|| BoardEvent::Removed { at: sq, checker, reason: cause });
        self.settle_crowns(log);
        Ok(checker)
    }

    /// Takes a checker off the board, its pieces into the pool its way of
    /// leaving goes to (the owner's reserve unless the deck routes it, pools.rs),
    /// its tokens and markers to the supply; without crowning.
    pub(super) fn lift(&mut self, sq: Square, checker: Checker, why: Leaving) {
        self.write_checker(sq, None);
        let pieces = checker.kind.pieces();
        match self.pools.as_mut() {
            None => self.reserve[checker.owner.index()] += pieces,
            Some(pools) => {
                let route = pools.routes.route(why);
                let to = route.player(checker.owner).index();
                match usize::from(route.pool) {
                    0 => self.reserve[to] += pieces,
                    i => pools.held[to][i - 1] += pieces,
                }
            }
        }
        for token in Token::ALL {
            if checker.has(token) {
                *self.supply.token(token) += 1;
            }
        }
        if checker.marks != 0 {
            for kind in MarkerKind::all().filter(|k| checker.marks & k.bit() != 0) {
                self.marks.supply[usize::from(kind.0)] += 1;
            }
        }
    }

    /// The checker on `sq` changes sides: it becomes `player`'s, keeping its kind,
    /// tokens, markers and number. Then waiting pawns are crowned (R6.2), from
    /// the new owner's reserve.
    pub fn set_owner(&mut self, sq: Square, player: Player, log: &mut impl Journal) -> RuleResult<()> {
        let Some(checker) = self.checker(sq) else { refuse!("there is no checker on {sq}") };
        if checker.owner == player {
            refuse!("the checker on {sq} is {player}'s already");
        }
        self.change_owner(sq, player);
        log.record(|| BoardEvent::OwnerChanged { at: sq, id: checker.id, owner: player });
        self.settle_crowns(log);
        Ok(())
    }

    pub(super) fn change_owner(&mut self, sq: Square, player: Player) {
        if let Some(checker) = self.checker(sq) {
            self.write_checker(sq, Some(Checker { owner: player, ..checker }));
        }
    }

    /// R8.4: one piece from `player`'s reserve onto an empty square as a pawn.
    pub fn place_from_reserve(&mut self, player: Player, sq: Square, log: &mut impl Journal) -> RuleResult<()> {
        if self.reserve(player) == 0 {
            refuse!("{player}'s reserve is empty");
        }
        if !self.is_empty(sq) {
            refuse!("{sq} is not empty (R4.5)");
        }
        let id = self.revive(sq, player);
        log.record(|| BoardEvent::Revived { at: sq, owner: player, id });
        self.settle_crowns(log);
        Ok(())
    }

    /// A new checker (a new number, [`Ids`]) from the reserve; returns its number.
    pub(super) fn revive(&mut self, sq: Square, player: Player) -> u8 {
        self.reserve[player.index()] -= 1;
        let id = self.ids.fresh();
        self.write_checker(sq, Some(Checker { id, ..Checker::new(player, Kind::Pawn) }));
        id
    }

    /// Moves a checker with its tokens to an empty square (a card's move; no walls
    /// are checked here, the card decides its path). R4.7: a frozen checker cannot
    /// be moved.
    pub fn relocate(&mut self, from: Square, to: Square, log: &mut impl Journal) -> RuleResult<()> {
        let Some(checker) = self.checker(from) else { refuse!("there is no checker on {from}") };
        if checker.hippo {
            refuse!("the checker on {from} is frozen by a galactic hippo (R4.7)");
        }
        if !self.is_empty(to) {
            refuse!("{to} is not empty (R4.5)");
        }
        self.write_checker(from, None);
        self.write_checker(to, Some(checker));
        log.record(|| BoardEvent::Moved { from, to, via: Vec::new(), id: checker.id, hops: false });
        self.settle_crowns(log);
        Ok(())
    }

    /// R8.3: the pawn on `pawn` leaves the board and its piece goes onto the king on
    /// `king`, which becomes an emperor. The pawn's tokens return to the supply.
    pub fn make_emperor(&mut self, pawn: Square, king: Square, log: &mut impl Journal) -> RuleResult<()> {
        let (Some(p), Some(k)) = (self.checker(pawn), self.checker(king)) else {
            refuse!("an emperor needs a pawn and a king of the same player");
        };
        if p.kind != Kind::Pawn || k.kind != Kind::King || p.owner != k.owner {
            refuse!("{pawn} must hold a pawn and {king} a king of the same player (R8.3)");
        }
        self.sacrifice(pawn, p);
        log.record(|| BoardEvent::Removed { at: pawn, checker: p, reason: Removal::Sacrificed });
        self.emperors.insert(king);
        log.record(|| BoardEvent::MadeEmperor { king, pawn });
        Ok(())
    }

    /// R8.3: a pawn leaves the board for an emperor; its piece does not go to the
    /// reserve, its tokens go back to the supply.
    pub(super) fn sacrifice(&mut self, sq: Square, pawn: Checker) {
        self.write_checker(sq, None);
        for token in Token::ALL {
            if pawn.has(token) {
                *self.supply.token(token) += 1;
            }
        }
    }

    pub(super) fn crown_emperor(&mut self, king: Square) {
        self.emperors.insert(king);
    }

    /// R6.2: crown every pawn waiting on its king row, in square order, while the
    /// reserve lasts (or always, with free crowning).
    pub fn settle_crowns(&mut self, log: &mut impl Journal) {
        for player in Player::BOTH {
            let waiting = self.checkers(player) & self.orientation.king_row(player) & !self.kings;
            for sq in waiting {
                if self.crowning == Crowning::FromReserve && self.reserve[player.index()] == 0 {
                    break;
                }
                self.crown(sq, player);
                log.record(|| BoardEvent::Crowned { at: sq, owner: player, id: self.ids.at[sq.index()] });
            }
        }
    }

    /// A card or a deck's rule crowns the pawn on `sq` wherever it stands, as
    /// R6.1 crowns: with a piece from its owner's reserve, or none where
    /// crowning is free (R11).
    pub fn crown_pawn(&mut self, sq: Square, log: &mut impl Journal) -> RuleResult<()> {
        let Some(checker) = self.checker(sq) else { refuse!("there is no checker on {sq}") };
        if checker.kind != Kind::Pawn {
            refuse!("the checker on {sq} is already crowned (R6.4)");
        }
        let owner = checker.owner;
        if self.crowning == Crowning::FromReserve && self.reserve[owner.index()] == 0 {
            refuse!("{owner} has no piece in reserve to crown with (R6.1)");
        }
        self.crown(sq, owner);
        log.record(|| BoardEvent::Crowned { at: sq, owner, id: checker.id });
        Ok(())
    }

    /// Makes the pawn on `sq` a king, taking the piece from the reserve unless
    /// crowning is free.
    pub(super) fn crown(&mut self, sq: Square, player: Player) {
        if self.crowning == Crowning::FromReserve {
            self.reserve[player.index()] -= 1;
        }
        self.kings.insert(sq);
    }

    // ---- tokens ----

    /// R8.7, R8.8, R8.17: put a token from the supply on a checker.
    pub fn put_token(&mut self, sq: Square, token: Token, log: &mut impl Journal) -> RuleResult<()> {
        let Some(checker) = self.checker(sq) else { refuse!("there is no checker on {sq}") };
        if checker.has(token) {
            refuse!("the checker on {sq} already carries a {}", token.name());
        }
        if token == Token::Hippo && checker.snookle {
            refuse!("a checker with a snookle cannot get a hippo (R8.8)");
        }
        if *self.supply.token(token) == 0 {
            refuse!("no {} is left in the supply (R1.5)", token.name());
        }
        if token == Token::Snookle && checker.hippo {
            // R8.8: the hippo leaves the checker that gets a snookle.
            self.set_token(sq, Token::Hippo, false);
            log.record(|| BoardEvent::TokenRemoved { at: sq, token: Token::Hippo, reason: Clearing::Snookle });
        }
        self.set_token(sq, token, true);
        log.record(|| BoardEvent::TokenPlaced { at: sq, token });
        Ok(())
    }

    pub fn remove_token(&mut self, sq: Square, token: Token, log: &mut impl Journal) -> RuleResult<()> {
        if !self.tokens(token).contains(sq) {
            refuse!("there is no {} on {sq}", token.name());
        }
        self.set_token(sq, token, false);
        log.record(|| BoardEvent::TokenRemoved { at: sq, token, reason: Clearing::Card });
        Ok(())
    }

    /// Moves a token between the supply and the checker on `sq`.
    pub(super) fn set_token(&mut self, sq: Square, token: Token, on: bool) {
        let bits = match token {
            Token::Ring => &mut self.rings,
            Token::Snookle => &mut self.snookles,
            Token::Hippo => &mut self.hippos,
        };
        bits.set(sq, on);
        let supply = self.supply.token(token);
        *supply = if on { *supply - 1 } else { *supply + 1 };
    }

    // ---- markers of the deck's own kinds (marks.rs) ----

    pub fn marks(&self) -> &Marks {
        &self.marks
    }

    /// Declares the deck's marker kinds: each kind's supply, and which ride on
    /// checkers and which close their squares. Clears every marker.
    pub fn declare_markers(&mut self, kinds: &[MarkerRules]) {
        let mut marks = Marks::default();
        for (i, kind) in kinds.iter().take(MAX_MARKER_KINDS).enumerate() {
            let bit = 1 << i;
            marks.supply[i] = kind.supply;
            marks.declared |= bit;
            if kind.rides {
                marks.riding |= bit;
            }
            if kind.blocks {
                marks.blocking |= bit;
            }
        }
        self.marks = marks;
    }

    /// Puts a marker of `kind` from the supply on `sq` (a riding kind on the checker there).
    pub fn place_marker(&mut self, kind: MarkerKind, sq: Square, log: &mut impl Journal) -> RuleResult<()> {
        let i = usize::from(kind.0);
        if self.marks.declared & kind.bit() == 0 {
            refuse!("no marker kind #{} is declared", kind.0);
        }
        if self.marks.on[i].contains(sq) {
            refuse!("{sq} already holds that marker");
        }
        if self.marks.riding & kind.bit() != 0 && self.is_empty(sq) {
            refuse!("that marker rides on a checker, and there is none on {sq}");
        }
        if self.marks.supply[i] == 0 {
            refuse!("no marker of that kind is left in the supply");
        }
        self.set_marker(sq, kind, true);
        log.record(|| BoardEvent::MarkerPlaced { at: sq, marker: kind });
        Ok(())
    }

    /// Takes the marker of `kind` on `sq` back to the supply.
    pub fn remove_marker(&mut self, kind: MarkerKind, sq: Square, log: &mut impl Journal) -> RuleResult<()> {
        if !self.marks.at(kind).contains(sq) {
            refuse!("there is no such marker on {sq}");
        }
        self.set_marker(sq, kind, false);
        log.record(|| BoardEvent::MarkerRemoved { at: sq, marker: kind, reason: Clearing::Card });
        Ok(())
    }

    /// Moves a marker between the supply and `sq`.
    pub(super) fn set_marker(&mut self, sq: Square, kind: MarkerKind, on: bool) {
        let i = usize::from(kind.0);
        self.marks.on[i].set(sq, on);
        let supply = &mut self.marks.supply[i];
        *supply = if on { *supply - 1 } else { *supply + 1 };
    }

    // ---- terrain ----

    /// R8.1, R8.2: fill an empty square from the supply.
    pub fn place_terrain(&mut self, sq: Square, terrain: Terrain, log: &mut impl Journal) -> RuleResult<()> {
        if !self.is_empty(sq) {
            refuse!("{sq} is not empty (R4.5)");
        }
        if *self.supply.terrain(terrain) == 0 {
            refuse!("no {} is left in the supply (R1.5)", terrain.name());
        }
        self.move_terrain(sq, terrain, true);
        log.record(|| BoardEvent::TerrainPlaced { at: sq, terrain });
        Ok(())
    }

    pub fn remove_terrain(&mut self, sq: Square, log: &mut impl Journal) -> RuleResult<Terrain> {
        self.clear_terrain(sq, Clearing::Card, log)
    }

    fn clear_terrain(&mut self, sq: Square, cause: Clearing, log: &mut impl Journal) -> RuleResult<Terrain> {
        let Some(terrain) = self.terrain_at(sq) else { refuse!("{sq} holds no water or fire") };
        self.move_terrain(sq, terrain, false);
        log.record(|| BoardEvent::TerrainRemoved { at: sq, terrain, reason: cause });
        Ok(terrain)
    }

    /// Moves terrain between the supply and `sq`.
    pub(super) fn move_terrain(&mut self, sq: Square, terrain: Terrain, on: bool) {
        self.write_terrain(sq, on.then_some(terrain));
        let supply = self.supply.terrain(terrain);
        *supply = if on { *supply - 1 } else { *supply + 1 };
    }

    // ---- walls ----

    /// R5.2: two walls of `owner` from the supply on two edges that meet at a corner.
    pub fn place_walls(&mut self, owner: Player, pair: EdgePair, log: &mut impl Journal) -> RuleResult<()> {
        self.check_wall_edge(pair.0)?;
        self.check_wall_edge(pair.1)?;
        if self.supply.walls[owner.index()] < 2 {
            refuse!("{owner} has fewer than two walls left in the supply (R1.5)");
        }
        self.move_wall(owner, pair.0, true);
        self.move_wall(owner, pair.1, true);
        log.record(|| BoardEvent::WallsPlaced { owner, edges: pair });
        Ok(())
    }

    /// Moves a wall of `owner` between their supply and `edge`.
    pub(super) fn move_wall(&mut self, owner: Player, edge: Edge, on: bool) {
        let supply = &mut self.supply.walls[owner.index()];
        if on {
            *supply -= 1;
            self.walls[owner.index()].insert(edge);
        } else {
            *supply += 1;
            self.walls[owner.index()].remove(edge);
        }
    }

    /// Takes a wall off the board back to its owner's supply.
    pub fn remove_wall(&mut self, edge: Edge, log: &mut impl Journal) -> RuleResult<Player> {
        match self.take_wall(edge, Clearing::Card, log) {
            Some(owner) => Ok(owner),
            None => refuse!("there is no wall on {edge}"),
        }
    }

    // ---- the monolith (R7) ----

    /// R7.1: put the monolith from the supply on an empty 2×2 block.
    pub fn place_monolith(&mut self, anchor: Square, log: &mut impl Journal) -> RuleResult<()> {
        if self.supply.monolith == 0 {
            refuse!("the monolith is not in the supply");
        }
        self.put_monolith(anchor, log)?;
        self.supply.monolith -= 1;
        log.record(|| BoardEvent::MonolithPlaced { at: anchor });
        Ok(())
    }

    /// Puts the monolith at `anchor` (taking it from the supply when `from_supply`),
    /// or off the board; changes nothing else.
    pub(super) fn shift_monolith(&mut self, anchor: Option<Square>, from_supply: bool) {
        if from_supply {
            self.supply.monolith -= 1;
        }
        self.monolith = anchor;
    }

    /// Anchors of every empty 2×2 block where the monolith could be placed (R7.1).
    pub fn monolith_spots(&self) -> Vec<Square> {
        let empty = self.empty_squares();
        Square::all().filter(|&a| block(a).is_some_and(|b| (b - empty).is_empty())).collect()
    }

    /// R7.2, R7.5: the directions the monolith may move in now.
    pub fn monolith_directions(&self) -> Vec<Dir> {
        Dir::ORTHOGONALS.into_iter().filter(|&d| self.plan_monolith_move(d).is_ok()).collect()
    }

    /// R7.2–R7.5: move the monolith one square, pushing checkers in chains.
    pub fn move_monolith(&mut self, dir: Dir, log: &mut impl Journal) -> RuleResult<MonolithReport> {
        let plan = self.plan_monolith_move(dir)?;
        let anchor = self.monolith.expect("planned moves have a monolith");
        let mut report = MonolithReport::default();
        let target = plan.target;
        let old = block(anchor).expect("monolith invariant");
        let new = block(target).expect("planned target fits");
        // R7.3: walls on crossed edges go, and so do walls inside the new block (R7.1).
        let mut edges: Vec<Edge> = (new - old).filter_map(|s| Edge::crossed(s, dir.opposite())).collect();
        edges.extend(inner_edges(target));
        for edge in edges {
            if self.take_wall(edge, Clearing::Monolith, log).is_some() {
                report.walls_removed.push(edge);
            }
        }
        // R7.4: each chain moves from its far end; a checker that cannot land is removed.
        for chain in &plan.chains {
            if let (Some(&last), Some(cause)) = (chain.squares.last(), chain.removal) {
                let checker = self.checker(last).expect("planned chain holds checkers");
                self.lift(last, checker, Leaving::Removed);
                log.record(|| BoardEvent::Removed { at: last, checker, reason: cause });
                report.removed.push(last);
            }
            let moving =
                if chain.removal.is_some() { &chain.squares[..chain.squares.len() - 1] } else { &chain.squares[..] };
            for &sq in moving.iter().rev() {
                let to = sq.step(dir).expect("planned push stays on the board");
                self.shift_checker(sq, to);
                log.record(|| BoardEvent::Pushed { from: sq, to, id: self.ids.at[to.index()] });
                report.pushed.push((sq, to));
            }
        }
        for sq in new - old {
            if self.terrain_at(sq).is_some() && self.clear_terrain(sq, Clearing::Monolith, log).is_ok() {
                report.terrain_removed.push(sq);
            }
        }
        self.monolith = Some(target);
        log.record(|| BoardEvent::MonolithMoved { from: anchor, to: target, dir });
        self.settle_crowns(log);
        Ok(report)
    }

    /// R7.6: a monolith move when no direction is allowed does nothing; this
    /// records that it was tried. Refused when the monolith is off the board or
    /// could move.
    pub fn monolith_stays(&self, log: &mut impl Journal) -> RuleResult<()> {
        let Some(at) = self.monolith else { refuse!("the monolith is not on the board") };
        if let Some(dir) = self.monolith_directions().first() {
            refuse!("the monolith can move {dir}, so it must (R7.2)");
        }
        log.record(|| BoardEvent::MonolithBlocked { at });
        Ok(())
    }

    fn plan_monolith_move(&self, dir: Dir) -> RuleResult<MonolithPlan> {
        let Some(anchor) = self.monolith else { refuse!("the monolith is not on the board") };
        if dir.is_diagonal() {
            refuse!("the monolith moves only orthogonally (R7.2)");
        }
        let target = anchor.step(dir).filter(|&t| block(t).is_some());
        let Some(target) = target else { refuse!("the monolith cannot move {dir}: it would leave the board (R7.2)") };
        let entered = block(target).expect("checked") - block(anchor).expect("monolith invariant");
        let walled = self.blocked_by_any(dir);
        let mut chains = Vec::with_capacity(2);
        for start in entered {
            let mut chain = Chain { squares: Vec::new(), removal: None };
            let mut sq = start;
            while self.occupied().contains(sq) {
                if self.hippos.contains(sq) {
                    refuse!("the monolith cannot move {dir}: it would push the frozen checker on {sq} (R7.5)");
                }
                chain.squares.push(sq);
                chain.removal = match sq.step(dir) {
                    None => Some(Removal::PushedOff),
                    Some(_) if walled.contains(sq) => Some(Removal::PushedIntoWall),
                    Some(next) if self.water.contains(next) => Some(Removal::PushedIntoWater),
                    Some(next) if self.fire.contains(next) => Some(Removal::PushedIntoFire),
                    Some(next) => {
                        sq = next;
                        continue;
                    }
                };
                break;
            }
            chains.push(chain);
        }
        Ok(MonolithPlan { target, chains })
    }

    // ---- orientation ----

    /// R2.2, R8.21: turn the board 90°, then crown (R6.2).
    pub fn rotate(&mut self, rotation: Rotation, log: &mut impl Journal) {
        self.orientation = self.orientation.rotated(rotation);
        log.record(|| BoardEvent::Rotated { rotation, orientation: self.orientation });
        self.settle_crowns(log);
    }

    /// Checks every invariant listed on [`Board`]; for tests and loaded data.
    pub fn validate(&self) -> RuleResult<()> {
        let occupied = self.occupied();
        if (self.checkers[0] & self.checkers[1]).any() {
            refuse!("a square holds checkers of both players");
        }
        if (self.kings - occupied).any() || (self.emperors - self.kings).any() {
            refuse!("a king or emperor marker stands on no checker");
        }
        if ((self.rings | self.snookles | self.hippos) - occupied).any() {
            refuse!("a token stands on no checker");
        }
        for kind in MarkerKind::all() {
            let on = self.marks.at(kind);
            if self.marks.declared & kind.bit() == 0 && on.any() {
                refuse!("a marker of an undeclared kind is on the board");
            }
            if self.marks.riding & kind.bit() != 0 && (on - occupied).any() {
                refuse!("a riding marker stands on no checker");
            }
        }
        if (self.hippos & self.snookles).any() {
            refuse!("a checker carries both a hippo and a snookle (R8.8)");
        }
        let numbered = Bitboard(self.ids.at.iter().enumerate().fold(0, |b, (i, &id)| b | u64::from(id != 0) << i));
        if numbered != if self.ids.numbered { occupied } else { Bitboard::EMPTY } {
            refuse!("the checkers' numbers do not match the checkers on the board");
        }
        let mut seen = [false; 256];
        for &id in self.ids.at.iter().filter(|&&id| id != 0) {
            if std::mem::replace(&mut seen[usize::from(id)], true) {
                refuse!("two checkers have number {id}");
            }
        }
        let layers = [occupied, self.water, self.fire, self.monolith_block()];
        for (i, a) in layers.iter().enumerate() {
            if layers[i + 1..].iter().any(|b| (*a & *b).any()) {
                refuse!("a square holds two things (R4.5)");
            }
        }
        if self.monolith.is_some_and(|a| block(a).is_none()) {
            refuse!("the monolith leaves the board (R7.2)");
        }
        if self.walls[0].edges().any(|e| self.walls[1].contains(e)) {
            refuse!("an edge holds two walls (R5.1)");
        }
        if let Some(anchor) = self.monolith
            && inner_edges(anchor).iter().any(|&e| self.wall_owner(e).is_some())
        {
            refuse!("a wall lies inside the monolith (R7.1)");
        }
        if self.crowning == Crowning::FromReserve {
            for p in Player::BOTH {
                let waiting = self.checkers(p) & self.orientation.king_row(p) & !self.kings;
                if waiting.any() && self.reserve(p) > 0 {
                    refuse!("a pawn of {p} waits on its king row while its reserve holds a piece (R6.2)");
                }
            }
        }
        Ok(())
    }
}

struct Chain {
    squares: Vec<Square>,
    /// Why the last checker of the chain leaves the board, if it does (R7.4).
    removal: Option<Removal>,
}

struct MonolithPlan {
    target: Square,
    chains: Vec<Chain>,
}

impl Board {
    /// R4.9: the checker starting on `by` captures the checkers on `captures`
    /// (each a taken square and where its capturer stood once it took it),
    /// which go to the reserves, without crowning; told in the order given.
    pub(super) fn capture_all(
        &mut self,
        captures: impl IntoIterator<Item = (Square, Square)>,
        by: Square,
        log: &mut impl Journal,
    ) {
        self.capture_by(captures, by, self.ids.at[by.index()], log);
    }

    /// [`Board::capture_all`] by the checker numbered `capturer`, wherever it stands.
    pub(super) fn capture_by(
        &mut self,
        captures: impl IntoIterator<Item = (Square, Square)>,
        by: Square,
        capturer: u8,
        log: &mut impl Journal,
    ) {
        for (sq, landed) in captures {
            if let Some(checker) = self.checker(sq) {
                self.lift(sq, checker, Leaving::Captured);
                log.record(|| BoardEvent::Captured { at: sq, checker, by, landed, capturer });
            }
        }
    }

    /// Moves a checker with its tokens; `to` must be empty or `from` itself.
    pub(super) fn shift_checker(&mut self, from: Square, to: Square) {
        let checker = self.checker(from);
        self.write_checker(from, None);
        self.write_checker(to, checker);
    }
}
