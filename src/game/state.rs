//! The game state: plain data, `Clone` and serializable (ARCHITECTURE.md invariant 1).

use serde::{Deserialize, Serialize};

use super::data::{BoundError, Data, PlanetData, check_data};
use super::decision::{Answer, CardId, PlanetId, Question, QuestionKind};
use super::draws::DrawCount;
use super::event::{EventLog, GameEvent};
use super::hooks::HookedMoves;
use super::hops::Hopping;
use super::items::{Items, Table};
use super::lasting::Effect;
use super::react::Reacting;
use super::rng::GameRng;
use super::{GameError, GameState};
use crate::kernel::{Bitboard, Board, Player, Square};

/// What a variant switches on or off (R10.4, R11).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleOptions {
    /// Whether turns have the draw and card steps (R3.2, R3.3).
    pub cards: bool,
    /// R10.1: five kings and emperors on the board win.
    pub five_kings_win: bool,
    /// What happens to a player with no legal checker move.
    pub when_stuck: WhenStuck,
    /// R10.4: the game is drawn after this many turns in all (0: no limit).
    pub move_limit: u32,
    /// Whether the first turn of the game (Dark's, R1.3) has its card step;
    /// a deck may take it away, a handicap for the side that moves first.
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub first_card_step: bool,
    /// The ends a deck makes its own (`rules: ends:`); R10 as written by
    /// default, and then not written (saves and digests stay the same).
    #[serde(default, skip_serializing_if = "Ends::as_written")]
    pub ends: Ends,
}

impl RuleOptions {
    /// R10.1's wins for `player` that the board alone shows: the opponent has
    /// no checker left, or five kings and emperors where the deck counts them.
    /// (A planet, R9, needs the card host: `GameState::check_end`.)
    pub fn board_win(&self, board: &Board, player: Player) -> Option<EndReason> {
        if board.checkers(!player).is_empty() && self.ends.no_checkers == NoCheckers::Lose {
            return Some(EndReason::Capture);
        }
        (self.five_kings_win && (board.checkers(player) & board.kings()).count() >= 5).then_some(EndReason::FiveKings)
    }
}

fn yes() -> bool {
    true
}

fn is_yes(b: &bool) -> bool {
    *b
}

impl RuleOptions {
    /// Alien Checkers as in RULES.md.
    pub const ALIEN: RuleOptions = RuleOptions {
        cards: true,
        five_kings_win: true,
        when_stuck: WhenStuck::Skip,
        move_limit: 200,
        first_card_step: true,
        ends: Ends::R10,
    };
    /// R11: standard American checkers.
    pub const PLAIN: RuleOptions = RuleOptions {
        cards: false,
        five_kings_win: false,
        when_stuck: WhenStuck::Lose,
        move_limit: 200,
        first_card_step: true,
        ends: Ends::R10,
    };

    /// Whether every end is R10's as written (R11's `when_stuck: lose`
    /// included) or one of the deck's draws ([`Ends::repetition`],
    /// [`Ends::kings_only`]): what the kernel-only search (ai/alphabeta.rs)
    /// knows how to score.
    pub fn ends_as_written(&self) -> bool {
        Ends { repetition: 0, kings_only: 0, ..self.ends }.as_written() && self.when_stuck != WhenStuck::Score
    }
}

/// A player with no legal checker move either skips the step (R3.1; R10.3 draws
/// when neither can move) or, in plain checkers (R11), loses; or the deck
/// scores the game then ([`Scored::Stuck`]). Whose lack of a move counts is
/// [`Ends::stuck_of`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WhenStuck {
    Skip,
    Lose,
    Score,
}

/// The ends a deck makes its own (cards/README.md, "Endings as deck rules").
/// A scored end is decided by the verdict of the deck's rules
/// ([`GameState::score`](super::GameState)).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ends {
    /// A player with no checker on the board: loses (R10.1) or the game is scored.
    #[serde(default)]
    pub no_checkers: NoCheckers,
    /// Whose lack of a move [`RuleOptions::when_stuck`] looks at.
    #[serde(default)]
    pub stuck_of: StuckOf,
    /// What the move limit does: draws (R10.4) or scores the game.
    #[serde(default)]
    pub at_move_limit: AtMoveLimit,
    /// The deck's repetition draw: the same position ([`super::draws`]) met
    /// this many times, the game is drawn as the turn begins (0: no such draw).
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub repetition: u8,
    /// The deck's kings-only draw: this many turns in a row in which no
    /// pawn moved, none was crowned and nothing was captured, the game is
    /// drawn (0: no such draw).
    #[serde(default, skip_serializing_if = "is_zero_u16")]
    pub kings_only: u16,
}

fn is_zero_u8(n: &u8) -> bool {
    *n == 0
}

fn is_zero_u16(n: &u16) -> bool {
    *n == 0
}

impl Ends {
    /// R10 as written.
    pub const R10: Ends = Ends {
        no_checkers: NoCheckers::Lose,
        stuck_of: StuckOf::Mover,
        at_move_limit: AtMoveLimit::Draw,
        repetition: 0,
        kings_only: 0,
    };

    /// Whether the deck has a draw the game counts turns for
    /// ([`super::draws::DrawCount`]).
    pub fn counts_draws(&self) -> bool {
        self.repetition > 0 || self.kings_only > 0
    }

    pub fn as_written(&self) -> bool {
        *self == Ends::R10
    }

    /// Whether any end is scored (then the deck must declare victories).
    pub fn scores(&self, when_stuck: WhenStuck) -> bool {
        self.no_checkers == NoCheckers::Score
            || when_stuck == WhenStuck::Score
            || self.at_move_limit == AtMoveLimit::Score
    }
}

/// What a player with no checker on the board does to the game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NoCheckers {
    /// R10.1: that player loses.
    #[default]
    Lose,
    /// The game ends, scored ([`Scored::NoCheckers`]).
    Score,
}

/// Whose lack of a move ends or skips: the player to move's (R3.1), or, when
/// each turn begins, either player's (the player to move looked at first).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StuckOf {
    #[default]
    Mover,
    Either,
}

/// What the move limit (R10.4) does.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AtMoveLimit {
    #[default]
    Draw,
    Score,
}

/// One of the deck's declared victories (`rules: victories:`), by its place
/// in that list: the reasons a deck's rule may end the game with.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct VictoryId(pub u8);

/// Most victories a deck may declare.
pub const MAX_VICTORIES: usize = 16;

/// What ended a game the deck scores: what its verdict is told (`why`, and
/// `who` where a player is concerned).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scored {
    /// This player (`None`: both) has no checker on the board.
    NoCheckers(Option<Player>),
    /// This player has no move as a turn begins.
    Stuck(Player),
    /// The move limit (R10.4).
    MoveLimit,
}

impl Scored {
    /// The `why` a verdict is given.
    pub fn why(self) -> &'static str {
        match self {
            Scored::NoCheckers(_) => "no_checkers",
            Scored::Stuck(_) => "stuck",
            Scored::MoveLimit => "move_limit",
        }
    }

    /// The player it concerns, if one.
    pub fn who(self) -> Option<Player> {
        match self {
            Scored::NoCheckers(who) => who,
            Scored::Stuck(who) => Some(who),
            Scored::MoveLimit => None,
        }
    }
}

/// A deck rule's verdict: who won (`None`: a draw), with which victory.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Verdict {
    pub winner: Option<Player>,
    pub victory: VictoryId,
}

/// The action deck's three piles (R2.4, R3.2), as card ids. Index 0 of `draw` is
/// the top of the draw pile.
#[derive(PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct Piles {
    pub draw: Pile,
    pub face_up: Pile,
    pub discard: Pile,
}

impl Clone for Piles {
    /// Copied slice by slice (`SmallVec`'s own `clone` goes card by card).
    fn clone(&self) -> Piles {
        Piles {
            draw: Pile::from_slice(&self.draw),
            face_up: Pile::from_slice(&self.face_up),
            discard: Pile::from_slice(&self.discard),
        }
    }
}

/// A pile of cards, held inline up to 32 cards (every bundled deck fits), so
/// that copying a state — a card run copies it several times — allocates
/// nothing for its piles.
pub type Pile = smallvec::SmallVec<[CardId; 32]>;

/// Most counters a deck may have, the built-in one included.
pub const MAX_COUNTERS: usize = 8;

/// A counter of the deck: an index into [`Counters`]. Counters other than the
/// built-in ones are declared in manifests (`counters:`), each kept per player,
/// only growing, and shown in the panel; `content` gives their names.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct CounterId(pub u8);

impl CounterId {
    /// R9.4: checkers captured by a player's emperors, counted by the game itself
    /// whenever an emperor captures. Every deck has it.
    pub const EMPEROR_CAPTURES: CounterId = CounterId(0);
}

/// The counters the game keeps itself, by [`CounterId`]: name and panel label.
pub const BUILT_IN_COUNTERS: [(&str, &str); 1] = [("emperor_captures", "emperor captures")];

/// One player's counts, by [`CounterId`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct Counters(pub [u32; MAX_COUNTERS]);

impl Counters {
    pub fn get(&self, counter: CounterId) -> u32 {
        self.0.get(usize::from(counter.0)).copied().unwrap_or(0)
    }
}

/// A card's restriction on which checker moves next turn (R4.8).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Constraint {
    /// The card that set it, for display.
    pub card: CardId,
    /// Squares of the checkers that may move.
    pub movers: Bitboard,
}

/// The checker moved in this turn's move step (R8.11).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Moved {
    pub start: Square,
    pub now: Square,
}

/// Why the game ended (R10).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// R10.1: the loser has no checker on the board.
    Capture,
    /// R10.1: five kings and emperors.
    FiveKings,
    /// R10.1, R9: the winner's planet holds.
    Planet(PlanetId),
    /// R10.3: neither player can move.
    NoMoves,
    /// R11: the loser could not move.
    Stuck,
    /// R10.4.
    MoveLimit,
    /// The loser resigned at the table (the REPL's `resign`; not a rule of play).
    Resigned,
    /// Both players agreed to a draw (the REPL's `draw`).
    Agreed,
    /// Drawn because play could not go on: every option of a step failed in
    /// a script and nothing could be given up (`GameState::give_up`).
    Unplayable,
    /// A deck's rule decided, with one of the deck's victories: its verdict
    /// on an end the deck scores (`by`), or its script's `ctx:end_game`.
    Rule {
        victory: VictoryId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<Scored>,
    },
    /// An end the deck scores, drawn because no verdict scored it (no rule
    /// gives one, or it failed).
    Unscored(Scored),
    /// Drawn: the same position the deck's number of times (`ends: repetition:`).
    Repetition,
    /// Drawn: the deck's number of turns with only kings moved, nothing
    /// captured and none crowned (`ends: kings_only:`).
    KingsOnly,
}

impl EndReason {
    /// The names of the engine's own ends, as scenarios and `check` name
    /// them; a deck's victory may not take one.
    pub const ENGINE_NAMES: [&'static str; 12] = [
        "capture",
        "five_kings",
        "planet",
        "no_moves",
        "stuck",
        "move_limit",
        "resigned",
        "agreed",
        "unplayable",
        "unscored",
        "repetition",
        "kings_only",
    ];

    /// This end's name as scenarios give it: one of [`EndReason::ENGINE_NAMES`],
    /// or for a deck's rule the victory's name among `victories` (the deck's
    /// `rules: victories:`).
    pub fn name(self, victories: &[String]) -> &str {
        let i = match self {
            EndReason::Capture => 0,
            EndReason::FiveKings => 1,
            EndReason::Planet(_) => 2,
            EndReason::NoMoves => 3,
            EndReason::Stuck => 4,
            EndReason::MoveLimit => 5,
            EndReason::Resigned => 6,
            EndReason::Agreed => 7,
            EndReason::Unplayable => 8,
            EndReason::Unscored(_) => 9,
            EndReason::Repetition => 10,
            EndReason::KingsOnly => 11,
            EndReason::Rule { victory, .. } => {
                return victories.get(usize::from(victory.0)).map_or("?", String::as_str);
            }
        };
        EndReason::ENGINE_NAMES[i]
    }

    /// Whether the move limit ended the game (R10.4), drawn or scored.
    pub fn by_move_limit(self) -> bool {
        matches!(
            self,
            EndReason::MoveLimit
                | EndReason::Rule { by: Some(Scored::MoveLimit), .. }
                | EndReason::Unscored(Scored::MoveLimit)
        )
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Player>,
    pub reason: EndReason,
}

/// A card whose script has asked a question: the state is still the card-start
/// snapshot; the answers so far replay the script up to its next question
/// (ARCHITECTURE.md invariant 3).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Resolving {
    pub card: CardId,
    pub answers: Vec<Answer>,
    pub question: Question,
    /// Set when the question is a lasting effect's handler's (react.rs), not a
    /// card's: where the reactions and the turn stand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reaction: Option<Box<Reacting>>,
}

/// Where in the turn the game stands (R3).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    Move,
    Card,
    Resolving(Resolving),
    Over(Outcome),
}

/// The public part of a game: everything both players see and the rules
/// read to list and play moves. [`GameState::same_position`] compares it.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub board: Board,
    pub rules: RuleOptions,
    pub counters: [Counters; 2],
    /// The restriction on this turn's move step.
    pub constraint: Option<Constraint>,
    /// A restriction a card set for the opponent's next turn.
    pub next_constraint: Option<Constraint>,
    /// Turns completed so far.
    pub turn: u32,
    pub to_move: Player,
    pub step: Step,
    pub moved: Option<Moved>,
    /// Lasting effects in force, oldest first (lasting.rs).
    pub effects: Vec<Effect>,
    /// The id of the last effect put in force (0: none yet).
    pub effect_serial: u32,
    /// The moves scripts offer and forbid in this position, for a script run
    /// that lists moves ([`HookedMoves`]); derived from the rest, never
    /// compared or saved.
    pub hooked: HookedMoves,
    /// A move being played hop by hop (hops.rs), between its hops.
    pub hopping: Option<Box<Hopping>>,
    /// What both players know of the deck's items (items.rs), worked out
    /// from [`Hidden::items`]; `None` when the deck has none.
    pub table: Option<Box<Table>>,
    /// What the deck's draws have counted (draws.rs); `None` when the deck
    /// has none of them, and then not written (saves and digests as before).
    pub draws: Option<Box<DrawCount>>,
}

/// The hidden part of a game, listed once: what one player may not know of
/// the other's (the planets and their data, R2.3) or of the future (the draw
/// pile's order and the generator, R2.4). The piles are here whole, though the
/// face-up cards and discards are public: an observer blanks only the order of
/// the draw pile ([`Hidden::seen_by`]).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Hidden {
    pub piles: Piles,
    /// Each player's secret planet (R2.3), `None` when planets are off.
    pub planets: [Option<PlanetId>; 2],
    /// Each player's planet's own data, which only its handlers change.
    pub planet_data: PlanetData,
    pub rng: GameRng,
    /// Every item of the deck and where it is (items.rs); `None` when the deck has none.
    pub items: Option<Box<Items>>,
}

impl Hidden {
    /// What `viewer` may know of it: the opponent's planet and its data
    /// blanked, the draw pile sorted by card id, the generator reset to a
    /// fixed seed, the items the viewer does not know swapped for a fixed
    /// choice of those it might be (ai/observe.rs).
    pub fn seen_by(&self, viewer: Player) -> Hidden {
        let mut seen = self.clone();
        if let Some(items) = &mut seen.items {
            **items = items.seen_by(viewer);
        }
        seen.planets[(!viewer).index()] = None;
        seen.planet_data.set(!viewer, Default::default());
        seen.piles.draw.sort_unstable();
        seen.rng = GameRng::new(0);
        seen
    }
}

impl std::ops::Deref for GameState {
    type Target = Position;

    fn deref(&self) -> &Position {
        &self.position
    }
}

/// The JSON form of a state (digests, `replay --events`' states): one flat
/// object, the fields in the order they have always had, so digests do not
/// depend on how the state is split into parts.
#[derive(Serialize)]
struct Flat<'a> {
    board: &'a Board,
    rules: &'a RuleOptions,
    piles: &'a Piles,
    planets: &'a [Option<PlanetId>; 2],
    counters: &'a [Counters; 2],
    constraint: &'a Option<Constraint>,
    next_constraint: &'a Option<Constraint>,
    turn: u32,
    to_move: Player,
    step: &'a Step,
    moved: &'a Option<Moved>,
    rng: &'a GameRng,
    #[serde(skip_serializing_if = "no_effects")]
    effects: &'a Vec<Effect>,
    #[serde(skip_serializing_if = "is_zero")]
    effect_serial: u32,
    #[serde(skip_serializing_if = "no_planet_data")]
    planet_data: &'a PlanetData,
    #[serde(skip_serializing_if = "Option::is_none")]
    hopping: &'a Option<Box<Hopping>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    items: &'a Option<Box<Items>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    draws: &'a Option<Box<DrawCount>>,
}

fn no_effects(effects: &&Vec<Effect>) -> bool {
    effects.is_empty()
}

fn no_planet_data(data: &&PlanetData) -> bool {
    data.is_empty()
}

/// [`Flat`], read back.
#[derive(Deserialize)]
struct FlatOwned {
    board: Board,
    rules: RuleOptions,
    piles: Piles,
    planets: [Option<PlanetId>; 2],
    counters: [Counters; 2],
    constraint: Option<Constraint>,
    next_constraint: Option<Constraint>,
    turn: u32,
    to_move: Player,
    step: Step,
    moved: Option<Moved>,
    rng: GameRng,
    #[serde(default)]
    effects: Vec<Effect>,
    #[serde(default)]
    effect_serial: u32,
    #[serde(default)]
    planet_data: PlanetData,
    #[serde(default)]
    hopping: Option<Box<Hopping>>,
    #[serde(default)]
    items: Option<Box<Items>>,
    #[serde(default)]
    draws: Option<Box<DrawCount>>,
}

impl Serialize for GameState {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (p, h) = (&self.position, &self.hidden);
        Flat {
            board: &p.board,
            rules: &p.rules,
            piles: &h.piles,
            planets: &h.planets,
            counters: &p.counters,
            constraint: &p.constraint,
            next_constraint: &p.next_constraint,
            turn: p.turn,
            to_move: p.to_move,
            step: &p.step,
            moved: &p.moved,
            rng: &h.rng,
            effects: &p.effects,
            effect_serial: p.effect_serial,
            planet_data: &h.planet_data,
            hopping: &p.hopping,
            items: &h.items,
            draws: &p.draws,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for GameState {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<GameState, D::Error> {
        let f = FlatOwned::deserialize(d)?;
        Ok(GameState::from_parts(
            Position {
                board: f.board,
                rules: f.rules,
                counters: f.counters,
                constraint: f.constraint,
                next_constraint: f.next_constraint,
                turn: f.turn,
                to_move: f.to_move,
                step: f.step,
                moved: f.moved,
                effects: f.effects,
                effect_serial: f.effect_serial,
                hooked: HookedMoves::default(),
                hopping: f.hopping,
                table: f.items.as_ref().map(|items| Box::new(items.public())),
                draws: f.draws,
            },
            Hidden { piles: f.piles, planets: f.planets, planet_data: f.planet_data, rng: f.rng, items: f.items },
        ))
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl GameState {
    /// Changes the board through a kernel operation, which reports each change
    /// it makes to the state's journal (kernel/event.rs): the one way scripts'
    /// operations reach the board.
    pub fn change_board<T, E>(&mut self, op: impl FnOnce(&mut Board, &mut EventLog) -> Result<T, E>) -> Result<T, E> {
        op(&mut self.position.board, &mut self.journal)
    }

    /// A card restricts `constrained`'s next move to the checkers on `movers` (R4.8).
    pub fn set_constraint(&mut self, card: CardId, constrained: Player, movers: Bitboard) {
        self.position.next_constraint = Some(Constraint { card, movers });
        self.journal.push(|| GameEvent::ConstraintSet { card, constrained, movers: movers.into_iter().collect() });
    }

    /// Records what a script wrote: with `ctx:log` (`to` is `None`), told to
    /// both players; with `ctx:tell`, told to `to` only.
    pub fn tell(&mut self, text: &str, to: Option<Player>) {
        self.journal.push(|| GameEvent::Message { text: text.to_string(), to });
    }

    /// Records that a question with one possible answer was not asked; the
    /// answer of a secret question is told to `secret_of` only.
    pub fn answered_automatically(
        &mut self,
        prompt: &str,
        question: QuestionKind,
        answer: &Answer,
        secret_of: Option<Player>,
    ) {
        self.journal.push(|| GameEvent::AnsweredAutomatically {
            prompt: prompt.to_string(),
            question,
            answer: answer.clone(),
            secret_of,
        });
    }

    /// A number below `n` from the game's generator (R2.4).
    pub fn draw_random(&mut self, n: usize) -> usize {
        self.hidden.rng.below(n)
    }

    /// Replaces the data of effect `id` (its handler's `ctx:set_effect_data`);
    /// refused for data out of bounds or an effect no longer in force.
    pub fn set_effect_data(&mut self, id: u32, data: Data) -> Result<(), BoundError> {
        check_data(&data)?;
        let effect = self
            .position
            .effects
            .iter_mut()
            .find(|e| e.id == id)
            .ok_or_else(|| BoundError(format!("effect {id} is no longer in force")))?;
        effect.data = data;
        Ok(())
    }

    /// Replaces `player`'s planet's data (its handlers' `ctx:set_planet_data`).
    pub fn set_planet_data(&mut self, player: Player, data: Data) -> Result<(), BoundError> {
        check_data(&data)?;
        self.hidden.planet_data.set(player, data);
        Ok(())
    }

    /// Adds `by` to `player`'s `counter` (counters only grow) and records it;
    /// refused, with nothing changed, for a counter the deck does not have room
    /// for or a count that would overflow.
    pub fn add_to_counter(&mut self, player: Player, counter: CounterId, by: u32) -> Result<u32, GameError> {
        let slot = self.position.counters[player.index()]
            .0
            .get_mut(usize::from(counter.0))
            .ok_or(GameError::Illegal(format!("there is no counter #{}", counter.0)))?;
        let total = slot
            .checked_add(by)
            .ok_or_else(|| GameError::Illegal(format!("counter #{} cannot grow by {by}", counter.0)))?;
        *slot = total;
        if by > 0 {
            self.journal.push(|| GameEvent::CounterAdded { owner: player, counter, by, total });
        }
        Ok(total)
    }

    pub fn planet(&self, player: Player) -> Option<PlanetId> {
        self.hidden.planets[player.index()]
    }

    pub fn outcome(&self) -> Option<Outcome> {
        match self.position.step {
            Step::Over(outcome) => Some(outcome),
            _ => None,
        }
    }

    /// Whether `other` has the same [`Position`]: all but the [`Hidden`]
    /// part and the event log, which are what a search determinizes
    /// (ai/observe.rs) or what a card resolution rarely reads ([`super::Inputs`]).
    pub fn same_position(&self, other: &GameState) -> bool {
        self.position == other.position
    }

    /// A hash of the position ([`GameState::same_position`]), for hash maps.
    pub fn position_hash(&self) -> u64 {
        crate::hash::fx(&self.position)
    }

    /// A state from its parts, with an empty event log (scenes, saves' states).
    pub fn from_parts(position: Position, hidden: Hidden) -> GameState {
        GameState { position, hidden, journal: EventLog::default() }
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position, to build a scene (scenarios, tests): the game's own
    /// changes go through its methods, which record their events.
    pub fn position_mut(&mut self) -> &mut Position {
        &mut self.position
    }

    pub fn hidden(&self) -> &Hidden {
        &self.hidden
    }

    /// The hidden part, to build a scene or a determinization (ai/observe.rs).
    pub fn hidden_mut(&mut self) -> &mut Hidden {
        &mut self.hidden
    }

    /// The action deck's piles (part of [`Hidden`]: the draw pile's order is secret).
    pub fn piles(&self) -> &Piles {
        &self.hidden.piles
    }

    /// Both players' planets (secret, R2.3).
    pub fn planets(&self) -> [Option<PlanetId>; 2] {
        self.hidden.planets
    }

    /// The planets' own data (secret with them).
    pub fn planet_data(&self) -> &PlanetData {
        &self.hidden.planet_data
    }

    /// The game's generator (its seed fixes every future shuffle, R2.4).
    pub fn rng(&self) -> &GameRng {
        &self.hidden.rng
    }

    /// The events recorded since the log was last taken.
    pub fn journal(&self) -> &EventLog {
        &self.journal
    }

    pub fn journal_mut(&mut self) -> &mut EventLog {
        &mut self.journal
    }

    /// A stable 64-bit digest of the whole state (FNV-1a over its JSON form), for
    /// determinism checks and saves. Independent of hash-map order and addresses.
    pub fn digest(&self) -> u64 {
        let bytes = serde_json::to_vec(self).expect("the state serializes");
        crate::hash::fnv1a(&bytes)
    }
}

impl Position {
    pub fn counters(&self, player: Player) -> &Counters {
        &self.counters[player.index()]
    }
}
