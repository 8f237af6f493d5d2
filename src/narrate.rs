//! Events told to people: one short line per event in a seated player's frame
//! ("your d4", directions as the drawn board shows them), the game record as
//! numbered move pairs, and events as JSON lines for tools.
//!
//! Architecture invariant: text only. Everything said here is read off the
//! events and the board they were recorded on; nothing here decides anything.

use serde_json::{Map, Value};

use crate::content::Content;
use crate::game::{
    Answer, CardId, Cause, Choice, EndReason, Event, Face, GameEvent, ItemId, Logged, Place, PlanetId, QuestionKind,
    Scored, SkipReason, SkippedStep, VictoryId, ZoneId,
};
use crate::kernel::{
    Bitboard, Board, BoardEvent, Checker, Clearing, Dir, Edge, EdgePair, Kind, MarkerKind, Orientation, Player,
    Removal, Square, block,
};

/// A 2×2 block's name, the same for every player and however the board is
/// turned: its `a1`-most square and the square diagonally across (`c3-d4`).
pub fn block_name(anchor: Square) -> String {
    let far = anchor.step(Dir::NE).unwrap_or(anchor);
    format!("{anchor}-{far}")
}

/// The anchor of the block `text` names: two opposite corners in either
/// order (`c3-d4`, `d4 c3`, `c3d4`).
pub fn block_named(text: &str) -> Option<Square> {
    let letters: String = text.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    if letters.len() != 4 {
        return None;
    }
    let a: Square = letters[..2].parse().ok()?;
    let b: Square = letters[2..].parse().ok()?;
    let anchor = Square::at(a.file().min(b.file()), a.rank().min(b.rank()))?;
    let opposite = (a.file() - b.file()).abs() == 1 && (a.rank() - b.rank()).abs() == 1;
    (opposite && block(anchor).is_some()).then_some(anchor)
}

/// The board as RULES.md prints it: north up, east right. A neutral record
/// names wall spots in it, with the board's own directions ([`compass_words`]).
const NORTH_UP: Frame = Frame { viewer: Player::Dark, orientation: Orientation::ALL[0] };

/// A spot's name in [`NORTH_UP`] (`d4 up-right`) with its screen word as the
/// board's direction (`d4 north-east`).
fn compass_words(text: &str) -> String {
    match text.rsplit_once(' ') {
        Some((squares, word)) => match NORTH_UP.dir(word) {
            Some(dir) => format!("{squares} {}", dir.long_name()),
            None => text.to_string(),
        },
        None => text.to_string(),
    }
}

/// How a player sees the board: which way is up on their screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    pub viewer: Player,
    pub orientation: Orientation,
}

impl Frame {
    /// The board direction drawn upward: the viewer's forward (R2.2).
    pub fn up(self) -> Dir {
        self.orientation.forward(self.viewer)
    }

    /// The board direction drawn to the right.
    pub fn right(self) -> Dir {
        self.up().clockwise()
    }

    /// Where `sq` is drawn: (column from the left, row from the bottom), up to a shift.
    fn screen(self, sq: Square) -> (i8, i8) {
        let dot = |d: Dir| {
            let (f, r) = d.delta();
            sq.file() * f + sq.rank() * r
        };
        (dot(self.right()), dot(self.up()))
    }

    /// `dir` as the viewer sees it on the drawn board: `up`, `down-left`, …
    pub fn word(self, dir: Dir) -> &'static str {
        let (df, dr) = dir.delta();
        let along = |d: Dir| {
            let (f, r) = d.delta();
            df * f + dr * r
        };
        match (along(self.right()).signum(), along(self.up()).signum()) {
            (0, 1) => "up",
            (0, _) => "down",
            (1, 0) => "right",
            (_, 0) => "left",
            (1, 1) => "up-right",
            (-1, 1) => "up-left",
            (1, _) => "down-right",
            _ => "down-left",
        }
    }

    /// The direction a player names: a screen word (`left`, `up-right`; `l`, `u`
    /// for short) in this frame, or the board's own `n`, `e`, `s`, `w`, ….
    pub fn dir(self, text: &str) -> Option<Dir> {
        let text = text.trim().to_ascii_lowercase();
        let short = match text.as_str() {
            "u" => "up",
            "d" => "down",
            "l" => "left",
            "r" => "right",
            other => other,
        };
        Dir::ALL.into_iter().find(|&d| self.word(d) == short).or_else(|| text.parse().ok())
    }

    /// The square drawn lower left of the 2×2 block whose board anchor is `anchor`.
    pub fn block_corner(self, anchor: Square) -> Square {
        let squares = block(anchor).unwrap_or(Bitboard::from_square(anchor));
        squares.into_iter().min_by_key(|&s| (self.screen(s).1, self.screen(s).0)).unwrap_or(anchor)
    }

    /// The board anchor of the block drawn with `corner` lower left, if it fits.
    pub fn block_from_corner(self, corner: Square) -> Option<Square> {
        let right = corner.step(self.right())?;
        let up = corner.step(self.up())?;
        let far = right.step(self.up())?;
        [corner, right, up, far].into_iter().min_by_key(|s| (s.rank(), s.file()))
    }

    /// A compass for a board drawn turned: which board edge is up, right, down
    /// and left. `None` when north is up (the board as printed in RULES.md).
    pub fn compass(self) -> Option<[String; 3]> {
        if self.up() == Dir::N {
            return None;
        }
        let name = |d: Dir| d.to_string().to_ascii_uppercase();
        Some([
            format!("    {}", name(self.up())),
            format!("  {} + {}", name(self.right().opposite()), name(self.right())),
            format!("    {}", name(self.up().opposite())),
        ])
    }
}

/// Tells events as lines, keeping the board they happen on up to date.
pub struct Narrator<'a> {
    content: &'a Content,
    board: Board,
    /// Whose frame: "your d4" and screen directions; `None` for a neutral record
    /// (player names and board directions).
    viewer: Option<Player>,
    /// The card whose script made the event being told (from its cause).
    card: Option<CardId>,
}

impl<'a> Narrator<'a> {
    /// A narrator for events that start on `board`.
    pub fn new(content: &'a Content, board: Board, viewer: Option<Player>) -> Narrator<'a> {
        Narrator { content, board, viewer, card: None }
    }

    fn card_name(&self, card: CardId) -> String {
        self.content.card(card).map_or_else(|| format!("card #{}", card.0), |c| c.manifest.name.clone())
    }

    fn marker_name(&self, kind: MarkerKind) -> String {
        self.content
            .markers()
            .get(usize::from(kind.0))
            .map_or_else(|| "a marker".into(), |m| format!("{} {} marker", article(m.name()), m.name()))
    }

    fn planet_name(&self, planet: PlanetId) -> String {
        self.content.planet(planet).map_or_else(|| format!("planet #{}", planet.0), |p| p.manifest.name.clone())
    }

    fn whose(&self, p: Player) -> String {
        if self.viewer == Some(p) { "your".into() } else { format!("{}'s", self.content.side_name(p)) }
    }

    fn piece(&self, c: &Checker, at: Square) -> String {
        format!("{} {} on {}", self.whose(c.owner), self.content.kind_name(c.kind, false), self.square(at))
    }

    fn at(&self, sq: Square) -> String {
        match self.board.checker(sq) {
            Some(c) => self.piece(&c, sq),
            None => self.square(sq),
        }
    }

    /// A square as the table names it (the deck's numbers, or `a1`–`h8`).
    fn square(&self, sq: Square) -> String {
        self.content.square_name(sq)
    }

    /// The viewer's frame on the board as it is now, if there is a viewer.
    fn frame(&self) -> Option<Frame> {
        self.viewer.map(|viewer| Frame { viewer, orientation: self.board.orientation() })
    }

    fn direction(&self, dir: Dir) -> String {
        match self.viewer {
            Some(viewer) => Frame { viewer, orientation: self.board.orientation() }.word(dir).to_string(),
            None => dir.long_name().to_string(),
        }
    }

    /// A wall spot (R5.2) as play names it: as the viewer types it on the
    /// board drawn for them (`d4 up-right`), or in a neutral record with the
    /// board's own directions (`d4 north-east`).
    fn spot(&self, pair: EdgePair) -> String {
        match self.frame() {
            Some(frame) => crate::spots::pair_text(frame, pair),
            None => compass_words(&crate::spots::pair_text(NORTH_UP, pair)),
        }
    }

    /// One wall's edge as play names it (`d4 up`; neutral: `d4 north`).
    fn edge(&self, edge: Edge) -> String {
        match self.frame() {
            Some(frame) => crate::spots::edge_text(frame, edge),
            None => compass_words(&crate::spots::edge_text(NORTH_UP, edge)),
        }
    }

    /// The line for `event` (`None` for events with nothing to tell), then the
    /// board moves on past it.
    pub fn line(&mut self, logged: &Logged) -> Option<String> {
        self.card = match logged.cause {
            Cause::Card { card } | Cause::Effect { card, .. } | Cause::Rule { card, .. } => Some(card),
            Cause::Turn | Cause::Planet { .. } => None,
        };
        let event = &logged.event;
        let line = match event {
            Event::Board(e) => Some(self.board_line(e)),
            Event::Game(e) => self.game_line(e),
        };
        if let Event::Board(e) = event {
            e.redo(&mut self.board);
        }
        line
    }

    /// Lines for the events of one decision, leaving out the move that the
    /// decision itself names (its captures and crownings are told) and the end
    /// of the game (the REPL's end screen tells it).
    pub fn decision_lines(&mut self, decision: &Choice, events: &[Logged]) -> Vec<String> {
        let mut named_move = matches!(decision, Choice::Move(_));
        let mut out = Vec::new();
        for event in events {
            if matches!(event.event, Event::Game(GameEvent::GameOver { .. })) {
                continue;
            }
            if named_move && event.cause == Cause::Turn && matches!(event.event, Event::Board(BoardEvent::Moved { .. }))
            {
                named_move = false;
                self.line(event);
                continue;
            }
            out.extend(self.line(event));
        }
        out
    }

    fn board_line(&self, event: &BoardEvent) -> String {
        match event {
            // A move played hop by hop was told as it landed; this says it is over.
            BoardEvent::Moved { from, to, via, hops: true, .. } => {
                let mut path = vec![self.square(*from)];
                path.extend(via.iter().chain([to]).map(|&sq| self.square(sq)));
                format!("the move {} is over", path.join("-"))
            }
            BoardEvent::Landed { from, at, .. } => format!("{} lands on {at}", self.at(*from)),
            BoardEvent::Moved { from, to, via, .. } if self.card.is_some() && via.is_empty() => {
                // A card's move: told with its direction when it goes in a line.
                let line = Dir::ALL.into_iter().find(|&d| {
                    let mut at = *from;
                    while let Some(next) = at.step(d) {
                        if next == *to {
                            return true;
                        }
                        at = next;
                    }
                    false
                });
                match line {
                    Some(d) => format!("{} moves {} to {to}", self.at(*from), self.direction(d)),
                    None => format!("{} moves from {from} to {to}", self.at(*from)),
                }
            }
            BoardEvent::Moved { from, to, via, .. } => {
                let mut path = vec![self.square(*from)];
                path.extend(via.iter().chain([to]).map(|&sq| self.square(sq)));
                format!("{} moves {}", self.at(*from), path.join("-"))
            }
            BoardEvent::Captured { at, checker, .. } => format!("{} is captured", self.piece(checker, *at)),
            BoardEvent::Removed { at, checker, reason: cause } => {
                let how = match cause {
                    Removal::PushedOff => "is pushed off the board".to_string(),
                    Removal::PushedIntoWall => "is pushed against a wall and leaves the board".to_string(),
                    Removal::PushedIntoWater => "is pushed into water and leaves the board".to_string(),
                    Removal::PushedIntoFire => "is pushed into fire and leaves the board".to_string(),
                    Removal::Sacrificed => "leaves the board to crown an emperor".to_string(),
                    Removal::Exited => "moves off the board".to_string(),
                    Removal::Card => match self.card {
                        Some(card) => format!("is removed by {}", self.card_name(card)),
                        None => "is removed".to_string(),
                    },
                };
                format!("{} {how}", self.piece(checker, *at))
            }
            BoardEvent::Pushed { from, to, .. } => {
                let dir = Dir::ALL.into_iter().find(|&d| from.step(d) == Some(*to)).unwrap_or(Dir::N);
                format!("{} is pushed {} to {to}", self.at(*from), self.direction(dir))
            }
            BoardEvent::Crowned { at, owner, .. } => format!(
                "{} {} on {} is crowned {}",
                self.whose(*owner),
                self.content.kind_name(Kind::Pawn, false),
                self.square(*at),
                self.content.kind_name(Kind::King, false)
            ),
            BoardEvent::MadeEmperor { king, pawn } => {
                format!("{} becomes an emperor with the piece of the pawn from {pawn}", self.at(*king))
            }
            BoardEvent::Revived { at, owner, .. } => format!("{} pawn comes back on {at}", self.whose(*owner)),
            BoardEvent::TokenPlaced { at, token } => format!("a {} goes on {}", token.name(), self.at(*at)),
            BoardEvent::TokenRemoved { at, token, reason: cause } => {
                let why = if *cause == Clearing::Snookle { " (a snookle arrived, R8.8)" } else { "" };
                format!("the {} leaves {}{why}", token.name(), self.at(*at))
            }
            BoardEvent::TerrainPlaced { at, terrain } => format!("{} fills {at}", terrain.name()),
            BoardEvent::TerrainRemoved { at, terrain, reason: cause } => {
                let why = if *cause == Clearing::Monolith { " under the monolith" } else { "" };
                format!("the {} on {at} is gone{why}", terrain.name())
            }
            BoardEvent::WallsPlaced { owner, edges } => {
                format!("{} walls go up at {}", self.whose(*owner), self.spot(*edges))
            }
            BoardEvent::WallRemoved { edge, owner, reason: cause } => {
                let why = if *cause == Clearing::Monolith { " as the monolith passes" } else { "" };
                format!("{} wall at {} comes down{why}", self.whose(*owner), self.edge(*edge))
            }
            BoardEvent::MonolithPlaced { at } => format!("the monolith lands on {}", block_name(*at)),
            BoardEvent::MonolithMoved { to, dir, .. } => {
                format!("the monolith moves {} to {}", self.direction(*dir), block_name(*to))
            }
            BoardEvent::MonolithBlocked { .. } => "the monolith cannot move any way, so it stays (R7.6)".to_string(),
            BoardEvent::Rotated { rotation, orientation } => {
                let way =
                    if *rotation == crate::kernel::Rotation::Clockwise { "clockwise" } else { "counterclockwise" };
                format!("the board turns {way}: {}", orientation.describe())
            }
            BoardEvent::MarkerPlaced { at, marker } => {
                format!("{} goes on {}", self.marker_name(*marker), self.at(*at))
            }
            BoardEvent::MarkerRemoved { at, marker, .. } => {
                format!("{} leaves {at}", self.marker_name(*marker))
            }
            BoardEvent::SetAside { at, checker } => format!("{} is lifted off the board", self.piece(checker, *at)),
            BoardEvent::PutBack { at, checker } => format!("{} comes back", self.piece(checker, *at)),
            BoardEvent::OwnerChanged { at, owner, .. } => {
                format!("{} changes sides: it is now {owner}'s", self.at(*at))
            }
        }
    }

    fn game_line(&mut self, event: &GameEvent) -> Option<String> {
        Some(match event {
            GameEvent::TurnBegan { .. }
            | GameEvent::ConstraintMet { .. }
            | GameEvent::TurnEnded { .. }
            | GameEvent::CardUsed { .. }
            | GameEvent::CardDiscarded { .. } => return None,
            GameEvent::EffectReacted { card, .. } => format!("{} reacts", self.card_name(*card)),
            GameEvent::GameOver { winner, reason, planets, also_held } => {
                let result = match winner {
                    Some(p) => format!("{} wins", self.content.side_name(*p)),
                    None => "drawn".to_string(),
                };
                let why = |reason: &EndReason| match reason {
                    EndReason::Capture => "no checker left (R10.1)".to_string(),
                    EndReason::FiveKings => {
                        // The winner's kings and emperors, where they stand.
                        let kings = winner.map_or(Bitboard::EMPTY, |w| self.board.checkers(w) & self.board.kings());
                        let at: Vec<String> = kings.into_iter().map(|sq| self.square(sq)).collect();
                        format!("five kings and emperors, on {} (R10.1)", at.join(" "))
                    }
                    EndReason::Planet(p) => format!("{} holds (R9)", self.planet_name(*p)),
                    EndReason::NoMoves => "neither player can move (R10.3)".to_string(),
                    EndReason::Stuck => "the opponent cannot move (R11)".to_string(),
                    EndReason::MoveLimit => "the move limit (R10.4)".to_string(),
                    EndReason::Resigned => "resignation".to_string(),
                    EndReason::Agreed => "agreement".to_string(),
                    EndReason::Unplayable => "no option works, a script fails".to_string(),
                    EndReason::Repetition => repetition_text(self.content),
                    EndReason::KingsOnly => kings_only_text(self.content),
                    EndReason::Rule { victory, by: Some(scored) } => format!(
                        "{}, the deck's verdict when {}",
                        victory_text(self.content, *victory, *winner),
                        scored_text(*scored)
                    ),
                    EndReason::Rule { victory, by: None } => {
                        let by = self.card.map_or_else(|| "a rule of the deck".to_string(), |c| self.card_name(c));
                        format!("{}, ended by {by}", victory_text(self.content, *victory, *winner))
                    }
                    EndReason::Unscored(scored) => {
                        format!("{}, and no verdict of the deck scores it", scored_text(*scored))
                    }
                };
                let tie = match (winner, also_held) {
                    (Some(w), Some(theirs)) => {
                        let held = match theirs {
                            EndReason::Planet(p) => format!("planet {}", self.planet_name(*p)),
                            EndReason::FiveKings => "five kings and emperors".to_string(),
                            _ => "win".to_string(),
                        };
                        format!(
                            "; {}'s {held} held too, and when both win at once the player whose turn it is wins (R10.2)",
                            !*w
                        )
                    }
                    _ => String::new(),
                };
                let why = format!("{}{tie}", why(reason));
                let revealed: Vec<String> = Player::BOTH
                    .iter()
                    .zip(planets)
                    .filter_map(|(p, planet)| {
                        Some(format!("{}'s planet was {}", self.content.side_name(*p), self.planet_name((*planet)?)))
                    })
                    .collect();
                let revealed =
                    if revealed.is_empty() { String::new() } else { format!("; {} (R10.5)", revealed.join(", ")) };
                format!("the game is over, {result}: {why}{revealed}")
            }
            GameEvent::CardDrawn { card } => format!("{} is turned face up", self.card_name(*card)),
            GameEvent::Reshuffled { cards, everything: false } => {
                format!("the draw pile is empty: the {cards} discarded cards are shuffled into a new one (R3.2)")
            }
            GameEvent::Reshuffled { cards, everything: true } => {
                format!("all {cards} cards are shuffled into a new draw pile")
            }
            GameEvent::DrawPileReordered => "the draw pile is put in a new, secret order".to_string(),
            GameEvent::AnsweredAutomatically { prompt, secret_of: Some(p), .. } if self.viewer != Some(*p) => {
                format!("{prompt} only one answer was possible, so it was taken")
            }
            GameEvent::AnsweredAutomatically { prompt, question, answer, .. } => {
                let answer = match (answer, question, self.frame()) {
                    (Answer::Dir(d), _, _) => format!("{} ({d})", self.direction(*d)),
                    (Answer::Square(anchor), QuestionKind::Block, _) => format!("the block {}", block_name(*anchor)),
                    (Answer::Edges(pair), _, _) => self.spot(*pair),
                    (Answer::Edge(edge), _, _) => self.edge(*edge),
                    (other, _, _) => other.to_string(),
                };
                format!("{prompt} only {answer} was possible, so it was taken")
            }
            GameEvent::StepSkipped { step: SkippedStep::Move, .. } => {
                "no checker can move: the move step is skipped (R3.1)".to_string()
            }
            GameEvent::StepSkipped { step: SkippedStep::Card, reason } => match reason {
                SkipReason::NoFaceUpCard => "no card is face up: the card step is skipped (R3.3)".to_string(),
                SkipReason::FirstTurn => "this deck has no card step in the first turn: it is skipped".to_string(),
                _ => "no face-up card can be used now: the card step is skipped (R3.3)".to_string(),
            },
            GameEvent::ConstraintSet { card, constrained, movers } => {
                let squares: Vec<String> = movers.iter().map(Square::to_string).collect();
                let who = if self.viewer == Some(*constrained) { "you".to_string() } else { constrained.to_string() };
                format!(
                    "on the next turn {who} must move a checker from {} if able ({}, R4.8)",
                    squares.join(" "),
                    self.card_name(*card)
                )
            }
            GameEvent::ConstraintLapsed { card } => {
                format!(
                    "none of the checkers {} named can move, so its constraint lapses (R4.8)",
                    self.card_name(*card)
                )
            }
            // Told to one player only (`ctx:tell`): not in a neutral record.
            GameEvent::Message { to: Some(p), .. } if self.viewer != Some(*p) => return None,
            GameEvent::Message { text, to: Some(_) } => format!("\"{text}\" (told to you only)"),
            GameEvent::Message { text, to: None } => format!("\"{text}\""),
            GameEvent::CounterAdded { owner, counter, total, .. } => {
                let label = self.content.counters().into_iter().find(|c| c.id == *counter).map(|c| c.label);
                format!("{} {} count is now {total}", self.whose(*owner), label.unwrap_or_else(|| "counter".into()))
            }
            GameEvent::EffectStarted { card, owner } => {
                format!("{} {} is in force", self.whose(*owner), self.card_name(*card))
            }
            GameEvent::EffectEnded { card, owner } => format!("{} {} ends", self.whose(*owner), self.card_name(*card)),
            GameEvent::ItemMoved { item, from, to, known } => {
                let item = self.item_name(*item, *known);
                format!("{item} goes from {} to {}", self.place(from), self.place(to))
            }
            GameEvent::ItemTurned { at, item, face: Face::Up, .. } => {
                format!("the {} on {at} is turned face up: {}", self.item_label(), self.item_name(*item, [true; 2]))
            }
            GameEvent::ItemTurned { at, item, face: Face::Down, known } => {
                let seen = if known.iter().all(|k| *k) {
                    format!(" ({})", self.item_name(*item, *known))
                } else {
                    String::new()
                };
                format!("the {} on {at} is turned face down{seen}", self.item_label())
            }
            GameEvent::ItemsShuffled { zone, owner } => format!("{} is shuffled", self.zone_name(*zone, *owner)),
            GameEvent::ItemRevealed { item, to } => {
                let mut known = [false; 2];
                known[to.index()] = true;
                let who = if self.viewer == Some(*to) { "you are".to_string() } else { format!("{to} is") };
                format!("{who} shown {}", self.item_name(*item, known))
            }
        })
    }

    /// What one item is called ("card").
    fn item_label(&self) -> String {
        self.content.items().map_or_else(|| "item".to_string(), |c| c.label.clone())
    }

    /// An item's id for a viewer who knows it (`known`, by player; a neutral
    /// record tells what both know), else "a card".
    fn item_name(&self, item: ItemId, known: [bool; 2]) -> String {
        let told = match self.viewer {
            Some(p) => known[p.index()],
            None => known.iter().all(|k| *k),
        };
        match self.content.items() {
            Some(c) if told && usize::from(item.0) < c.items.len() => c.item(item).id.clone(),
            _ => format!("{} {}", article(&self.item_label()), self.item_label()),
        }
    }

    /// "your stockpile", "Light's discard pile", "c3 (face down)".
    fn place(&self, place: &Place) -> String {
        match place {
            Place::Square { square, face: Face::Up } => format!("{square} (face up)"),
            Place::Square { square, face: Face::Down } => format!("{square} (face down)"),
            Place::Zone { zone, owner } => self.zone_name(*zone, *owner),
            Place::Out { .. } => "out of play".to_string(),
        }
    }

    fn zone_name(&self, zone: ZoneId, owner: Option<Player>) -> String {
        let label = self
            .content
            .items()
            .and_then(|c| c.zones.get(usize::from(zone.0)).map(|z| z.label.clone()))
            .unwrap_or_else(|| "zone".to_string());
        match owner {
            Some(p) => format!("{} {label}", self.whose(p)),
            None => format!("the {label}"),
        }
    }
}

/// How a decision reads in the log, to both players: `Dark moves c3-d4`,
/// `Light uses Water`; a `secret` answer without what it was.
pub fn decision_line(content: &Content, who: Player, secret: bool, choice: &Choice) -> String {
    let card_name = |c: CardId| content.card(c).map_or_else(|| format!("card #{}", c.0), |d| d.manifest.name.clone());
    let who = content.side_name(who);
    match choice {
        Choice::Move(m) => format!("{who} moves {}", content.move_name(m)),
        Choice::Card(c) => format!("{who} uses {}", card_name(*c)),
        Choice::Answer(_) if secret => format!("{who} answers in secret"),
        Choice::Answer(a) => format!("{who} answers {a}"),
        Choice::GiveUp => format!("{who} gives up this step: every option fails"),
    }
}

/// Whether the pending decision of `state` is a question whose answers the
/// other player must not see: one asked with `opts.secret`, or one of a card
/// whose manifest says `secret_answers` (Foresight's order of the draw pile,
/// R8.20).
pub fn answers_in_secret(content: &Content, state: &crate::game::GameState) -> bool {
    let crate::game::Step::Resolving(r) = &state.step else { return false };
    r.question.secret || content.card(r.card).is_some_and(|c| c.manifest.secret_answers)
}

/// One player's turn in the record: the move, then what the cards did.
#[derive(Clone, Debug, Default)]
pub struct TurnRecord {
    pub player: Option<Player>,
    /// The player as the table names them (the deck's side name).
    pub who: String,
    /// The move as played (`c3-d4`, `d4-c5~b6` when Ice slid it on, [`slides`]),
    /// or `--` when the move step was skipped.
    pub mv: Option<String>,
    /// The moves the turn's card made (Second move's, Flight's, …), written
    /// as moves are (`g3-h4`, `e1xg3` when it captured).
    pub card_moves: Vec<String>,
    /// What happened after the move: the card used and its effects.
    pub lines: Vec<String>,
}

/// The game as numbered turns, from its events and decisions: `batches` holds
/// the deal's events (with no decision), then each decision with its events.
pub fn turns<'a>(
    content: &Content,
    start: Board,
    batches: impl IntoIterator<Item = (Option<&'a Choice>, &'a [Logged])>,
    viewer: Option<Player>,
) -> Vec<TurnRecord> {
    let mut narrator = Narrator::new(content, start, viewer);
    let mut turns =
        vec![TurnRecord { player: Some(Player::Dark), who: content.side_name(Player::Dark), ..TurnRecord::default() }];
    for (decision, batch) in batches {
        // The move's own events: its notation (c3xe5) tells them already.
        let mut played = None;
        match decision {
            Some(Choice::Move(m)) => {
                if let Some(t) = turns.last_mut() {
                    t.mv = Some(format!("{}{}", content.move_name(m), slides(content, m, batch)));
                }
                played = Some(m.from());
            }
            Some(Choice::Card(c)) => {
                let name = narrator.card_name(*c);
                if let Some(t) = turns.last_mut() {
                    t.lines.push(format!("uses {name}"));
                }
            }
            _ => {}
        }
        // The card's last move: where it started, and its place in the turn's list.
        let mut card_move: Option<(Square, usize)> = None;
        for event in batch {
            match &event.event {
                Event::Game(GameEvent::TurnBegan { player, .. }) => {
                    let who = content.side_name(*player);
                    turns.push(TurnRecord { player: Some(*player), who, ..TurnRecord::default() });
                }
                Event::Game(GameEvent::StepSkipped { step: SkippedStep::Move, .. }) => {
                    if let Some(t) = turns.last_mut() {
                        t.mv = Some("--".into());
                    }
                }
                Event::Board(BoardEvent::Moved { from, .. } | BoardEvent::Captured { by: from, .. })
                    if played == Some(*from) && event.cause == Cause::Turn =>
                {
                    narrator.line(event);
                    continue;
                }
                Event::Board(BoardEvent::Moved { from, to, via, .. }) if matches!(event.cause, Cause::Card { .. }) => {
                    if let Some(t) = turns.last_mut() {
                        let path: Vec<String> =
                            [from].into_iter().chain(via).chain([to]).map(|&sq| content.square_name(sq)).collect();
                        card_move = Some((*from, t.card_moves.len()));
                        t.card_moves.push(path.join("-"));
                    }
                }
                // The card's move captured: written as a capture.
                Event::Board(BoardEvent::Captured { by, .. }) if matches!(event.cause, Cause::Card { .. }) => {
                    if let (Some((from, i)), Some(t)) = (card_move, turns.last_mut())
                        && from == *by
                        && let Some(text) = t.card_moves.get_mut(i)
                    {
                        *text = text.replace('-', "x");
                    }
                }
                _ => {}
            }
            if let Some(line) = narrator.line(event)
                && let Some(t) = turns.last_mut()
            {
                t.lines.push(line);
            }
        }
    }
    turns.retain(|t| t.mv.is_some() || !t.lines.is_empty());
    turns
}

/// Where a move's checker went on after it landed, in the decision that
/// played `mv` (its `events`), moved on by a lasting effect or a rule and not
/// by a card played after: Ice's slide. Each square it went on to follows a
/// `~`, as the record writes it after the move (`d4-c5~b6`); empty when the
/// checker stayed where the move put it.
pub fn slides(content: &Content, mv: &crate::kernel::Move, events: &[Logged]) -> String {
    let mut out = String::new();
    let mut at = None;
    for event in events {
        let Event::Board(BoardEvent::Moved { from, to, .. }) = &event.event else { continue };
        match (event.cause, at) {
            (Cause::Turn, None) if *from == mv.from() => at = Some(*to),
            (Cause::Effect { .. } | Cause::Rule { .. } | Cause::Planet { .. }, Some(here)) if *from == here => {
                out.push('~');
                out.push_str(&content.square_name(*to));
                at = Some(*to);
            }
            _ => {}
        }
    }
    out
}

/// The record as checkers players write it: `1. c3-d4 f6-e5`, each side's card
/// and its effects indented under the move pair.
pub fn record_text(turns: &[TurnRecord]) -> String {
    let mut out = String::new();
    let mut pairs: Vec<(usize, Vec<&TurnRecord>)> = Vec::new();
    for (i, t) in turns.iter().enumerate() {
        // Dark moves first (R1.3), so turn 2k and 2k+1 make move k+1.
        let number = i / 2 + 1;
        match pairs.last_mut() {
            Some((n, group)) if *n == number => group.push(t),
            _ => pairs.push((number, vec![t])),
        }
    }
    for (number, group) in pairs {
        let moves: Vec<&str> = group.iter().map(|t| t.mv.as_deref().unwrap_or("--")).collect();
        out.push_str(&format!("{number:>3}. {}\n", moves.join(" ")));
        for t in group {
            if t.lines.is_empty() {
                continue;
            }
            out.push_str(&format!("       {}: {}\n", t.who, t.lines.join("; ")));
        }
    }
    out
}

/// Events as JSON objects, one per event, as handlers receive them
/// ([`event_json`]), with `move` (the move number) beside them.
pub fn events_json<'a>(content: &Content, events: impl IntoIterator<Item = &'a [Logged]>) -> Vec<Value> {
    let mut out = Vec::new();
    let (mut turn, mut player) = (1u32, Player::Dark);
    for event in events.into_iter().flatten() {
        if let Event::Game(GameEvent::TurnBegan { turn: t, player: p }) = event.event {
            (turn, player) = (t, p);
        }
        let Value::Object(mut object) = event_json(content, event, player) else { continue };
        object.insert("move".into(), Value::from(turn.div_ceil(2)));
        out.push(Value::Object(object));
    }
    out
}

/// One event as JSON: `kind`, its fields, `cause` (`{by = "turn" | "card" |
/// "effect" | "rule" | "planet", card =, effect =, planet =}`) and `player`,
/// whose turn it happened in; card, planet and marker numbers as their ids.
/// `replay --events` and handlers' event tables (script/lasting.rs) both come
/// from it, so they carry the same fields.
pub fn event_json(content: &Content, event: &Logged, player: Player) -> Value {
    let Ok(Value::Object(fields)) = serde_json::to_value(event) else { return Value::Null };
    let mut object = Map::new();
    object.insert("player".into(), Value::from(player.to_string().to_ascii_lowercase()));
    for (key, value) in fields {
        let value = named_ids(content, &key, value, &mut object);
        object.insert(key, value);
    }
    Value::Object(object)
}

/// What ended a scored game, as a verdict is told it: `{why = "stuck", who = "light"}`.
fn scored_json(scored: Scored) -> Value {
    let mut by = Map::new();
    by.insert("why".into(), Value::from(scored.why()));
    if let Some(who) = scored.who() {
        by.insert("who".into(), Value::from(who.to_string().to_ascii_lowercase()));
    }
    Value::Object(by)
}

/// A field's value with card, planet and marker numbers as their ids.
fn named_ids(content: &Content, key: &str, value: Value, object: &mut Map<String, Value>) -> Value {
    let card_id = |c: CardId| content.card(c).map_or_else(|| format!("#{}", c.0), |d| d.id.clone());
    let planet_id = |n: u64| content.planet(PlanetId(n as u16)).map_or_else(|| format!("#{n}"), |d| d.id.clone());
    match (key, value) {
        ("card", Value::Number(n)) => Value::from(card_id(CardId(n.as_u64().unwrap_or(0) as u16))),
        ("planet", Value::Number(n)) => Value::from(planet_id(n.as_u64().unwrap_or(0))),
        ("counter", Value::Number(n)) => {
            let counters = content.counters();
            counters.get(n.as_u64().unwrap_or(0) as usize).map_or(Value::Number(n), |c| Value::from(c.name.as_str()))
        }
        ("item", Value::Number(n)) => match content.items() {
            Some(c) if (n.as_u64().unwrap_or(u64::MAX) as usize) < c.items.len() => {
                Value::from(c.items[n.as_u64().unwrap_or(0) as usize].id.as_str())
            }
            _ => Value::Number(n),
        },
        ("zone", Value::Number(n)) => match content.items() {
            Some(c) if (n.as_u64().unwrap_or(u64::MAX) as usize) < c.zones.len() => {
                Value::from(c.zones[n.as_u64().unwrap_or(0) as usize].name.as_str())
            }
            _ => Value::Number(n),
        },
        // An item's place: `{square =, face =}` or `{zone =, owner =}`.
        ("from" | "to", Value::Object(fields)) => {
            let mut inner = Map::new();
            for (k, v) in fields {
                let v = named_ids(content, &k, v, &mut inner);
                inner.insert(k, v);
            }
            Value::Object(inner)
        }
        ("marker", Value::Number(n)) => {
            let markers = content.markers();
            markers.get(n.as_u64().unwrap_or(0) as usize).map_or(Value::Number(n), |m| Value::from(m.name()))
        }
        ("cause", Value::Object(fields)) => {
            let mut inner = Map::new();
            for (k, v) in fields {
                let v = named_ids(content, &k, v, &mut inner);
                inner.insert(k, v);
            }
            Value::Object(inner)
        }
        // R10.5: the planets revealed, by player and id.
        ("planets", Value::Array(both)) => {
            let named = |v: &Value| v.as_u64().map_or(Value::Null, |n| Value::from(planet_id(n)));
            let mut by_player = Map::new();
            for (p, v) in Player::BOTH.iter().zip(&both) {
                by_player.insert(p.to_string().to_ascii_lowercase(), named(v));
            }
            Value::Object(by_player)
        }
        // A planet win: `reason: planet` with the planet's id beside it.
        ("reason", Value::Object(o)) if o.contains_key("planet") => {
            let n = o["planet"].as_u64().unwrap_or(0);
            object.insert("planet".into(), Value::from(planet_id(n)));
            Value::from("planet")
        }
        // A deck's rule: `reason: rule` with the victory's name, and what
        // ended the game (`scored`, as a verdict's `why` and `who`) when it scored one.
        ("reason", Value::Object(o)) if o.contains_key("rule") => {
            let rule = &o["rule"];
            let victory = rule["victory"].as_u64().unwrap_or(0) as usize;
            let name = content.deck.rules.victories.get(victory).map_or("?", String::as_str);
            object.insert("victory".into(), Value::from(name));
            if let Some(Ok(scored)) = rule.get("by").map(|b| serde_json::from_value::<Scored>(b.clone())) {
                object.insert("scored".into(), scored_json(scored));
            }
            Value::from("rule")
        }
        ("reason", Value::Object(o)) if o.contains_key("unscored") => {
            if let Ok(scored) = serde_json::from_value::<Scored>(o["unscored"].clone()) {
                object.insert("scored".into(), scored_json(scored));
            }
            Value::from("unscored")
        }
        // The loser's planet that held too (R10.2): `{planet = id}`.
        ("also_held", Value::Object(o)) if o.contains_key("planet") => {
            let n = o["planet"].as_u64().unwrap_or(0);
            serde_json::json!({ "planet": planet_id(n) })
        }
        (_, value) => value,
    }
}

/// A deck's victory as players read it: `majority victory` for a win, the
/// name alone for a draw (`even`), `_` written as a space.
pub fn victory_text(content: &Content, victory: VictoryId, winner: Option<Player>) -> String {
    let name = content.deck.rules.victories.get(usize::from(victory.0)).map_or("?", String::as_str).replace('_', " ");
    if winner.is_some() { format!("{name} victory") } else { name }
}

/// The deck's repetition draw as players read it: `threefold repetition (the
/// same position a third time)`.
pub fn repetition_text(content: &Content) -> String {
    let times = content.deck.rules.options().ends.repetition;
    let (fold, nth) = match times {
        2 => ("twofold".to_string(), "a second time".to_string()),
        3 => ("threefold".to_string(), "a third time".to_string()),
        n => (format!("{n}-fold"), format!("{n} times")),
    };
    format!("{fold} repetition (the same position {nth})")
}

/// The deck's kings-only draw as players read it: `only kings moved for 30
/// turns (15 moves each), nothing captured or crowned`.
pub fn kings_only_text(content: &Content) -> String {
    let turns = content.deck.rules.options().ends.kings_only;
    let each = if turns.is_multiple_of(2) { format!(" ({} moves each)", turns / 2) } else { String::new() };
    format!("only kings moved for {turns} turns{each}, nothing captured or crowned")
}

/// What ended a game the deck scores: `Light has no move`.
pub fn scored_text(scored: Scored) -> String {
    match scored {
        Scored::NoCheckers(Some(p)) => format!("{p} has no checker left"),
        Scored::NoCheckers(None) => "no checker is left on the board".to_string(),
        Scored::Stuck(p) => format!("{p} has no move"),
        Scored::MoveLimit => "the move limit is reached (R10.4)".to_string(),
    }
}

/// "a" or "an" before `word`, by its first letter (an ice marker, a bomb marker).
fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Rotation;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn frame(viewer: Player, dark_forward: Dir) -> Frame {
        Frame { viewer, orientation: Orientation::with_dark_forward(dark_forward).unwrap() }
    }

    #[test]
    fn directions_are_named_as_the_board_is_drawn_for_the_viewer() {
        // Dark at rank 1 (R2.1): north is up, east is right.
        let dark = frame(Player::Dark, Dir::N);
        assert_eq!([Dir::N, Dir::E, Dir::S, Dir::W].map(|d| dark.word(d)), ["up", "right", "down", "left"]);
        assert_eq!(
            [Dir::NE, Dir::NW, Dir::SE, Dir::SW].map(|d| dark.word(d)),
            ["up-right", "up-left", "down-right", "down-left"]
        );
        // Light sits across the board: the same board directions read the other way.
        let light = frame(Player::Light, Dir::N);
        assert_eq!([Dir::N, Dir::E, Dir::S, Dir::W].map(|d| light.word(d)), ["down", "left", "up", "right"]);
        // After a clockwise turn (R8.21) Dark faces file a: west is up, north is right.
        let turned = Orientation::default().rotated(Rotation::Clockwise);
        let dark = Frame { viewer: Player::Dark, orientation: turned };
        assert_eq!([Dir::W, Dir::N, Dir::E, Dir::S].map(|d| dark.word(d)), ["up", "right", "down", "left"]);
        assert_eq!(dark.dir("left"), Some(Dir::S));
        assert_eq!(dark.dir("u"), Some(Dir::W));
        assert_eq!(dark.dir("up-right"), Some(Dir::NW));
        // The board's own names still work, whatever the frame.
        assert_eq!(dark.dir("s"), Some(Dir::S));
        assert_eq!(dark.dir("ne"), Some(Dir::NE));
        assert_eq!(dark.dir("sideways"), None);
    }

    #[test]
    fn every_frame_names_every_direction_once_and_reads_its_own_words_back() {
        for viewer in Player::BOTH {
            for forward in [Dir::N, Dir::E, Dir::S, Dir::W] {
                let f = frame(viewer, forward);
                let mut words: Vec<&str> = Dir::ALL.iter().map(|&d| f.word(d)).collect();
                words.sort();
                words.dedup();
                assert_eq!(words.len(), 8, "{viewer:?} {forward:?}");
                for d in Dir::ALL {
                    assert_eq!(f.dir(f.word(d)), Some(d));
                }
                assert_eq!(f.word(f.up()), "up");
            }
        }
    }

    #[test]
    fn blocks_are_named_by_the_corner_drawn_lower_left() {
        // The block d4 e4 d5 e5 (anchor d4) as four viewers see it.
        assert_eq!(frame(Player::Dark, Dir::N).block_corner(sq("d4")), sq("d4"));
        assert_eq!(frame(Player::Light, Dir::N).block_corner(sq("d4")), sq("e5"));
        assert_eq!(frame(Player::Dark, Dir::E).block_corner(sq("d4")), sq("d5"));
        assert_eq!(frame(Player::Dark, Dir::W).block_corner(sq("d4")), sq("e4"));
        for viewer in Player::BOTH {
            for forward in [Dir::N, Dir::E, Dir::S, Dir::W] {
                let f = frame(viewer, forward);
                for anchor in Square::all().filter(|&a| block(a).is_some()) {
                    assert_eq!(f.block_from_corner(f.block_corner(anchor)), Some(anchor));
                }
            }
        }
        // A corner drawn at the top or right edge starts no block.
        assert_eq!(frame(Player::Dark, Dir::N).block_from_corner(sq("h4")), None);
        assert_eq!(frame(Player::Light, Dir::N).block_from_corner(sq("a4")), None);
    }

    #[test]
    fn a_compass_is_drawn_only_when_north_is_not_up() {
        assert_eq!(frame(Player::Dark, Dir::N).compass(), None);
        let compass = frame(Player::Light, Dir::N).compass().unwrap();
        assert_eq!(compass, ["    S".to_string(), "  E + W".to_string(), "    N".to_string()]);
    }
}
