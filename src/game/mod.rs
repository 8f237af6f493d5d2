//! The game as a decision loop (ARCHITECTURE.md invariants 1–3): [`GameState::pending`]
//! says who decides and lists every option; [`GameState::apply`] takes one.
//!
//! Turn order is R3 (move, draw, use a card), end of game R10. Cards and planets
//! are asked of a [`CardHost`], so this module knows nothing about Lua.

mod data;
mod deal;
mod decision;
mod draws;
mod effects;
mod event;
mod hooks;
mod hops;
mod items;
mod lasting;
mod react;
mod rng;
mod state;

use std::fmt;

pub use data::{
    BoundError, Data, Datum, MAX_DATA_BYTES, MAX_DATA_DEPTH, MAX_DATA_VALUES, MAX_TEXT_BYTES, PlanetData, Tally,
    check_data,
};
pub use decision::{
    Answer, CardId, Choice, Decision, DecisionKind, GIVE_UP, KEEP, NONE, PlanetId, Question, QuestionKind, SoFar,
};
pub use draws::{DrawCount, position_key as repetition_key};
pub use event::{Cause, Event, EventKind, EventLog, GameEvent, Logged, SkipReason, SkippedStep};
pub use hooks::{Forbidden, HookedMoves, MoveHooks, MovePattern};
pub use hops::Hopping;
pub use items::{
    Catalogue, Face, Held, ItemDef, ItemId, Items, MAX_ITEMS, MAX_ZONES, OnSquare, Place, SeenBy, Table, ZoneDef,
    ZoneId,
};
pub use lasting::{ActsFor, Affected, DeckRule, Effect, Lasting, MAX_EFFECTS};
pub use react::{MAX_DEPTH, MAX_REACTIONS, Reacting, Reaction, Then};
pub use rng::GameRng;
pub use state::{
    AtMoveLimit, BUILT_IN_COUNTERS, Constraint, CounterId, Counters, EndReason, Ends, Hidden, MAX_COUNTERS,
    MAX_VICTORIES, Moved, NoCheckers, Outcome, Pile, Piles, Position, Resolving, RuleOptions, Scored, Step, StuckOf,
    Verdict, VictoryId, WhenStuck,
};

use crate::kernel::{
    Bitboard, Board, Crowning, MarkerRules, Move, MoveRules, Movement, Player, Routes, Square, StartLayout, Supply,
    any_jump_under, any_legal_move_under, is_legal_under, legal_moves_under,
};

/// Everything about a game in progress: its [`Position`], what both players
/// see and a search may take as it is, and its [`Hidden`] part, what some
/// player may not know (R2.3, R2.4), which a search determinizes.
///
/// Architecture invariant: the fields are private. The position is read
/// through `Deref` (`state.board`), the hidden part through accessors; the
/// game changes both through its own methods, and a scene is built with
/// [`GameState::position_mut`] and [`GameState::hidden_mut`] (scenarios and
/// tests, as shakmaty's `Setup` builds a position).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct GameState {
    position: Position,
    hidden: Hidden,
    /// What happened since the log was last taken (events.rs); not part of the
    /// state's value, so not compared, hashed or saved.
    journal: EventLog,
}

/// What runs cards and checks planets. The Lua layer implements it; tests and
/// plain checkers use [`BlankCards`].
///
/// Architecture invariant: no method has a default. A host that wraps another
/// (the search's `Recall`, the simulator's `SimHost`) must say what each one
/// does, so that forgetting one is a compile error rather than a slice of the
/// game its callers silently do not see. A host that runs no scripts at all
/// says so with [`no_scripts!`].
pub trait CardHost {
    /// R8.0: may this face-up card be used now? (Only Antimatter says no.)
    fn playable(&self, state: &GameState, card: CardId) -> bool;

    /// Runs the card from `state` (the card-start snapshot, with the card already
    /// taken off the face-up row) with the answers given so far.
    fn resolve(&self, state: &GameState, card: CardId, answers: &[Answer]) -> Resolution;

    /// [`CardHost::resolve`], also saying what the resolution depended on, for a
    /// caller that remembers resolutions (the search, ai/recall.rs).
    /// [`Inputs::Whole`] promises nothing.
    fn resolve_noting_inputs(&self, state: &GameState, card: CardId, answers: &[Answer]) -> (Resolution, Inputs);

    /// R9: does `player`'s planet condition hold? Must not change anything.
    fn planet_holds(&self, state: &GameState, planet: PlanetId, player: Player) -> bool;

    /// How far `player` has come toward the planet's condition, from 0 (nothing
    /// done) to 1 (it holds). Only the computer players ask, to steer toward
    /// their planet and away from the opponent's; no rule depends on it. Must
    /// not change anything.
    fn planet_progress(&self, state: &GameState, planet: PlanetId, player: Player) -> f32;

    /// Whether `card`'s script reacts to events of `kind` (react.rs).
    fn reacts(&self, card: CardId, kind: EventKind) -> bool;

    /// Runs the handler of `effect` for `event` from `state` with the answers so
    /// far, like [`CardHost::resolve`].
    fn react(&self, state: &GameState, effect: &Effect, event: &Logged, answers: &[Answer]) -> Resolution;

    /// Whether `card`'s script offers moves of its own while its lasting
    /// effects are in force (`extra_moves`).
    fn offers_moves(&self, card: CardId) -> bool;

    /// The moves `effect`'s script offers the player to move in `state`, as
    /// written (the game keeps those a move could be). Must not change anything.
    fn extra_moves(&self, state: &GameState, effect: &Effect) -> Vec<Move>;

    /// Whether `card`'s script forbids moves while its lasting effects are in
    /// force (`forbid_moves`).
    fn forbids_moves(&self, card: CardId) -> bool;

    /// The moves `effect`'s script forbids the player to move in `state`, as
    /// written or as patterns; none when the script fails. Must not change
    /// anything.
    fn forbidden_moves(&self, state: &GameState, effect: &Effect) -> Vec<Forbidden>;

    /// Whether `card`'s script defines `game_begins`, run at the deal (deal.rs).
    fn begins(&self, card: CardId) -> bool;

    /// Runs `card`'s `game_begins` from `state`, as a card's `play` runs (it may
    /// not ask questions: nobody is asked anything at the deal).
    fn game_begins(&self, state: &GameState, card: CardId) -> Resolution;

    /// Whether `planet`'s script has a handler for events of `kind`; for `None`,
    /// whether it has one for any kind (then the game keeps its events for it).
    fn planet_listens(&self, planet: PlanetId, kind: Option<EventKind>) -> bool;

    /// Whether `planet`'s script defines `game_begins`.
    fn planet_begins(&self, planet: PlanetId) -> bool;

    /// Runs `player`'s `planet`'s handler for `event` (its `game_begins` for
    /// `None`) on `state`: the planet's data after. A planet's script only reads
    /// the game and keeps its own data, so that it stays secret (R2.3).
    fn planet_hears(
        &self,
        state: &GameState,
        planet: PlanetId,
        player: Player,
        event: Option<&Logged>,
    ) -> Result<Data, GameError>;

    /// How a message names `card`: its id, where the host knows its cards.
    fn card_label(&self, card: CardId) -> String;

    /// Whether `card`'s script defines `verdict`, the deck's say on an end it
    /// scores (cards/README.md, "Endings as deck rules").
    fn judges(&self, card: CardId) -> bool;

    /// The verdict of the deck rule `effect` on the game `state` ended by
    /// `scored`: who won, with which of the deck's victories; the failure's
    /// message when the script fails or gives no victory of the deck. Must not
    /// change anything.
    fn verdict(&self, state: &GameState, effect: &Effect, scored: Scored) -> Result<Verdict, String>;
}

/// The [`CardHost`] methods of a host that runs no scripts: nothing reacts,
/// offers or forbids moves or begins, planets make no progress and hear nothing, and a
/// resolution promises nothing about what it read. Written inside the `impl`
/// by a host that says so (never by one that wraps another host).
#[macro_export]
macro_rules! no_scripts {
    () => {
        fn resolve_noting_inputs(
            &self,
            state: &$crate::game::GameState,
            card: $crate::game::CardId,
            answers: &[$crate::game::Answer],
        ) -> ($crate::game::Resolution, $crate::game::Inputs) {
            (self.resolve(state, card, answers), $crate::game::Inputs::Whole)
        }
        fn planet_progress(
            &self,
            _: &$crate::game::GameState,
            _: $crate::game::PlanetId,
            _: $crate::kernel::Player,
        ) -> f32 {
            0.0
        }
        fn reacts(&self, _: $crate::game::CardId, _: $crate::game::EventKind) -> bool {
            false
        }
        fn react(
            &self,
            _: &$crate::game::GameState,
            effect: &$crate::game::Effect,
            _: &$crate::game::Logged,
            _: &[$crate::game::Answer],
        ) -> $crate::game::Resolution {
            $crate::game::Resolution::Failed(format!("card #{} has no handlers", effect.card.0))
        }
        fn offers_moves(&self, _: $crate::game::CardId) -> bool {
            false
        }
        fn extra_moves(&self, _: &$crate::game::GameState, _: &$crate::game::Effect) -> Vec<$crate::kernel::Move> {
            Vec::new()
        }
        fn forbids_moves(&self, _: $crate::game::CardId) -> bool {
            false
        }
        fn forbidden_moves(
            &self,
            _: &$crate::game::GameState,
            _: &$crate::game::Effect,
        ) -> Vec<$crate::game::Forbidden> {
            Vec::new()
        }
        fn begins(&self, _: $crate::game::CardId) -> bool {
            false
        }
        fn game_begins(&self, _: &$crate::game::GameState, card: $crate::game::CardId) -> $crate::game::Resolution {
            $crate::game::Resolution::Failed(format!("card #{} has no game_begins", card.0))
        }
        fn planet_listens(&self, _: $crate::game::PlanetId, _: Option<$crate::game::EventKind>) -> bool {
            false
        }
        fn planet_begins(&self, _: $crate::game::PlanetId) -> bool {
            false
        }
        fn planet_hears(
            &self,
            state: &$crate::game::GameState,
            _: $crate::game::PlanetId,
            player: $crate::kernel::Player,
            _: Option<&$crate::game::Logged>,
        ) -> Result<$crate::game::Data, $crate::game::GameError> {
            Ok(state.planet_data().of(player).clone())
        }
        fn card_label(&self, card: $crate::game::CardId) -> String {
            format!("#{}", card.0)
        }
        fn judges(&self, _: $crate::game::CardId) -> bool {
            false
        }
        fn verdict(
            &self,
            _: &$crate::game::GameState,
            effect: &$crate::game::Effect,
            _: $crate::game::Scored,
        ) -> Result<$crate::game::Verdict, String> {
            Err(format!("card #{} has no verdict", effect.card.0))
        }
    };
}

/// The result of running a card script once.
#[derive(Debug)]
pub enum Resolution {
    /// The script finished; this is the state after the card.
    Done(Box<GameState>),
    /// The script needs one more answer.
    Ask(Question),
    /// The script failed; the message names the card and where.
    Failed(String),
}

/// What a card's resolution read and changed besides its answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inputs {
    /// Only the position ([`GameState::same_position`]): not the piles, the
    /// planets, the game's generator or the event log. The same card with the
    /// same answers from any state with an equal position resolves the same,
    /// leaving those parts as they were.
    Position,
    /// Possibly anything in the state.
    Whole,
}

/// Cards that do nothing and planets that never hold: the placeholder deck that
/// lets whole games run before any script exists.
#[derive(Clone, Copy, Debug, Default)]
pub struct BlankCards;

impl CardHost for BlankCards {
    fn playable(&self, _: &GameState, _: CardId) -> bool {
        true
    }

    fn resolve(&self, state: &GameState, _: CardId, _: &[Answer]) -> Resolution {
        Resolution::Done(Box::new(state.clone()))
    }

    fn planet_holds(&self, _: &GameState, _: PlanetId, _: Player) -> bool {
        false
    }

    crate::no_scripts!();
}

/// A refused `apply`; the state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The choice is not among the pending options.
    Illegal(String),
    /// A card script failed (R8, ARCHITECTURE.md "Safety of scripts").
    CardFailed(String),
    /// The handler of lasting effect `effect` failed, or set off too many
    /// reactions (react.rs); the message names its card.
    EffectFailed { effect: u32, message: String },
    /// A planet's handler or `game_begins` failed; the message names the planet.
    PlanetFailed(String),
    /// The game is over.
    Over,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Illegal(m)
            | GameError::CardFailed(m)
            | GameError::PlanetFailed(m)
            | GameError::EffectFailed { message: m, .. } => f.write_str(m),
            GameError::Over => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for GameError {}

/// Everything needed to deal a new game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub rules: RuleOptions,
    pub crowning: Crowning,
    pub supply: Supply,
    /// The action deck, one id per copy (R1.6).
    pub deck: Vec<CardId>,
    /// The planet deck (R1.6).
    pub planets: Vec<PlanetId>,
    /// The marker kinds the deck's cards declare (content/markers.rs).
    pub markers: Vec<MarkerRules>,
    /// The cards whose lasting effects are the deck's own rules, in force from
    /// the deal (`effects:` in the deck's manifest), and for whom each acts.
    pub effects: Vec<DeckRule>,
    /// How checkers move (R4 unless the deck says otherwise).
    pub movement: Movement,
    /// Where the checkers stand at the start (R2.1 unless the deck says otherwise).
    pub start: StartLayout,
    /// The deck's piece pools' routes (kernel/pools.rs); `None`: the reserves alone.
    pub routes: Option<Routes>,
    /// The deck's items and zones (items.rs); `None`: it has none.
    pub items: Option<std::sync::Arc<Catalogue>>,
}

impl Setup {
    /// R11: plain American checkers.
    pub fn plain() -> Setup {
        Setup {
            rules: RuleOptions::PLAIN,
            crowning: Crowning::Free,
            supply: Supply::NONE,
            deck: Vec::new(),
            planets: Vec::new(),
            markers: Vec::new(),
            effects: Vec::new(),
            movement: Movement::AMERICAN,
            start: StartLayout::default(),
            routes: None,
            items: None,
        }
    }

    /// Alien Checkers with `cards` blank cards: for tests before scripts exist.
    pub fn blank(cards: u16) -> Setup {
        Setup {
            rules: RuleOptions::ALIEN,
            crowning: Crowning::FromReserve,
            supply: Supply::STANDARD,
            deck: (0..cards).map(CardId).collect(),
            planets: Vec::new(),
            markers: Vec::new(),
            effects: Vec::new(),
            movement: Movement::AMERICAN,
            start: StartLayout::default(),
            routes: None,
            items: None,
        }
    }
}

impl GameState {
    /// Deals a game (R2): the start position, a shuffled draw pile with its top card
    /// face up, one secret planet each. All randomness comes from `seed` (R2.4).
    pub fn new(setup: &Setup, seed: u64) -> GameState {
        let mut rng = GameRng::new(seed);
        let mut piles = Piles { draw: setup.deck.iter().copied().collect(), ..Piles::default() };
        let mut planets = [None, None];
        if setup.rules.cards {
            rng.shuffle(&mut piles.draw);
            if !piles.draw.is_empty() {
                piles.face_up.push(piles.draw.remove(0));
            }
            let mut deck = setup.planets.clone();
            rng.shuffle(&mut deck);
            planets = [deck.first().copied(), deck.get(1).copied()];
        }
        let items = setup.items.as_ref().map(|catalogue| Box::new(catalogue.starting_items()));
        let mut board = Board::start_as(setup.supply, setup.crowning, &setup.start, setup.movement);
        board.number_checkers();
        if let Some(routes) = setup.routes {
            board.declare_pools(routes);
        }
        if !setup.markers.is_empty() {
            board.declare_markers(&setup.markers);
        }
        let position = Position {
            board,
            rules: setup.rules,
            counters: [Counters::default(); 2],
            constraint: None,
            next_constraint: None,
            turn: 0,
            to_move: Player::Dark,
            step: Step::Move,
            moved: None,
            effects: Vec::new(),
            effect_serial: 0,
            hooked: HookedMoves::default(),
            hopping: None,
            table: items.as_ref().map(|items| Box::new(items.public())),
            draws: None,
        };
        let hidden = Hidden { piles, planets, planet_data: Default::default(), rng, items };
        let mut state = GameState::from_parts(position, hidden);
        state.put_deck_rules_in_force(&setup.effects);
        state.restart_draw_count();
        state
    }

    /// The kernel's checker moves for the player to move now: those the
    /// constraint allows, or all if it cannot be met (R4.8), capture
    /// compulsory among them (R4.3). Without the moves scripts offer: the
    /// move step's options are [`GameState::move_options`].
    pub fn kernel_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(crate::kernel::TYPICAL_MOVES);
        let rules = self.move_rules(self.position.to_move);
        if let Some(c) = self.position.constraint {
            legal_moves_under(&self.position.board, self.position.to_move, c.movers, &rules, &mut out);
            if !out.is_empty() {
                return out;
            }
        }
        legal_moves_under(&self.position.board, self.position.to_move, Bitboard::ALL, &rules, &mut out);
        out
    }

    /// The checkers [`GameState::kernel_moves`] moves under `rules`: the
    /// constraint's if one of them can move, else all (R4.8).
    fn movers(&self, rules: &MoveRules) -> Bitboard {
        match self.position.constraint {
            Some(c) if any_legal_move_under(&self.position.board, self.position.to_move, c.movers, rules) => c.movers,
            _ => Bitboard::ALL,
        }
    }

    /// Whether [`GameState::kernel_moves`] lists `mv`, without listing them all.
    pub fn is_kernel_move(&self, mv: &Move) -> bool {
        let rules = self.move_rules(self.position.to_move);
        is_legal_under(&self.position.board, self.position.to_move, self.movers(&rules), &rules, mv)
    }

    /// The move [`GameState::kernel_moves`] lists that goes the way `mv` goes
    /// (a move read from text names a flying capture's checker only by its
    /// path), without listing them all where R4's own generator decides.
    #[inline]
    fn listed_move(&self, mv: &Move) -> Option<Move> {
        let rules = self.move_rules(self.position.to_move);
        if !is_legal_under(&self.position.board, self.position.to_move, self.movers(&rules), &rules, mv) {
            return None;
        }
        if self.position.board.moves_american() && rules.pawns.is_none() && rules.kings.is_none() {
            return Some(*mv);
        }
        self.kernel_moves().into_iter().find(|m| m == mv)
    }

    /// Whether a lasting effect in force for the player to move has a script
    /// that offers moves (`extra_moves`) or forbids them (`forbid_moves`):
    /// then the move step's options are not the kernel's alone.
    #[inline]
    fn moves_are_hooked(&self, host: &dyn CardHost) -> bool {
        let player = self.position.to_move;
        !self.position.effects.is_empty()
            && self
                .position
                .effects
                .iter()
                .any(|e| e.applies_to(player) && (host.offers_moves(e.card) || host.forbids_moves(e.card)))
    }

    /// The options of the move step, the one list every host plays from
    /// ([`Position::moves_with`]): the kernel's moves, those lasting effects'
    /// scripts offer added (cards/README.md, "Moves a script offers"), those
    /// they forbid taken away ("Moves a script forbids"); then compulsory
    /// capture (R4.3), the deck's capture preferences and the constraint
    /// (R4.8) over what is left. An offered capture is a capture as the
    /// kernel's are.
    #[inline]
    pub fn move_options(&self, host: &dyn CardHost) -> Vec<Move> {
        if !self.moves_are_hooked(host) {
            return self.kernel_moves();
        }
        self.options_with_hooks(&self.move_hooks(host))
    }

    #[inline(never)]
    fn options_with_hooks(&self, hooks: &MoveHooks) -> Vec<Move> {
        let tries = match self.position.constraint {
            Some(c) => [Some(c.movers), Some(Bitboard::ALL)],
            None => [Some(Bitboard::ALL), None],
        };
        let mut out = Vec::with_capacity(crate::kernel::TYPICAL_MOVES);
        for movers in tries.into_iter().flatten() {
            self.moves_with(self.position.to_move, &self.position.board, movers, Bitboard::EMPTY, hooks, &mut out);
            if !out.is_empty() {
                break;
            }
        }
        out
    }

    /// What effects' scripts offer and forbid `player` in this state, for
    /// [`HookedMoves`].
    pub fn hooks_for(&self, host: &dyn CardHost, player: Player) -> MoveHooks {
        if player == self.position.to_move {
            return if self.moves_are_hooked(host) { self.move_hooks(host) } else { MoveHooks::default() };
        }
        let theirs = self.with_to_move(player);
        if theirs.moves_are_hooked(host) { theirs.move_hooks(host) } else { MoveHooks::default() }
    }

    /// This state with `player` to move and no constraint (R4.8: it binds only
    /// the mover), and no event log: where to ask what that player could do
    /// now ([`GameState::hooks_for`], R10.3's check).
    fn with_to_move(&self, player: Player) -> GameState {
        let mut theirs =
            GameState { position: self.position.clone(), hidden: self.hidden.clone(), journal: EventLog::default() };
        theirs.position.to_move = player;
        theirs.position.constraint = None;
        theirs
    }

    /// What the effects in force for the player to move offer and forbid.
    fn move_hooks(&self, host: &dyn CardHost) -> MoveHooks {
        MoveHooks { offered: self.offered_moves(host), forbidden: self.forbidden_moves(host) }
    }

    /// The moves effects in force for the player to move offer from their
    /// scripts (`extra_moves`), kept where they could be moves: from a checker
    /// of the player's that is not frozen (R4.7), ending on an empty open
    /// square or where it started (a loop), capturing only opposing checkers,
    /// each path once, in the order offered. Forbidding, compulsory capture,
    /// preferences and the constraint are [`Position::moves_with`]'s.
    fn offered_moves(&self, host: &dyn CardHost) -> Vec<Move> {
        let player = self.position.to_move;
        let rules = self.move_rules(player);
        let movers = self.position.board.checkers(player) - self.position.board.tokens(crate::kernel::Token::Hippo);
        let opponents = self.position.board.checkers(!player);
        let mut out: Vec<Move> = Vec::new();
        for effect in self.position.effects.iter().filter(|e| e.applies_to(player) && host.offers_moves(e.card)) {
            for mv in host.extra_moves(self, effect) {
                let lands =
                    mv.to() == mv.from() || self.position.board.is_empty(mv.to()) || mv.captured().contains(mv.to());
                let fits = movers.contains(mv.from())
                    && lands
                    && !rules.closed.contains(mv.to())
                    && (mv.captured() - opponents).is_empty();
                if fits && !out.contains(&mv) {
                    out.push(mv);
                }
            }
        }
        out
    }

    /// What the effects in force for the player to move forbid from their
    /// scripts (`forbid_moves`), in the order of the effects.
    fn forbidden_moves(&self, host: &dyn CardHost) -> Vec<Forbidden> {
        let player = self.position.to_move;
        let forbidding = self.position.effects.iter().filter(|e| e.applies_to(player) && host.forbids_moves(e.card));
        forbidding.flat_map(|effect| host.forbidden_moves(self, effect)).collect()
    }

    /// Whether the first of [`GameState::move_options`] is a capture: a
    /// capture is due (R4.3), the kernel's or one a script offers.
    pub fn capture_due(&self, host: &dyn CardHost) -> bool {
        if self.moves_are_hooked(host) {
            return self.options_with_hooks(&self.move_hooks(host)).first().is_some_and(Move::is_jump);
        }
        self.kernel_capture_due()
    }

    /// Whether the first of [`GameState::kernel_moves`] is a capture, without
    /// listing them.
    pub fn kernel_capture_due(&self) -> bool {
        let rules = self.move_rules(self.position.to_move);
        any_jump_under(&self.position.board, self.position.to_move, self.movers(&rules), &rules)
    }

    /// Whether the player to move has a kernel move: [`GameState::kernel_moves`]
    /// is not empty (a constraint only narrows which checkers move, R4.8).
    pub fn has_kernel_move(&self) -> bool {
        any_legal_move_under(
            &self.position.board,
            self.position.to_move,
            Bitboard::ALL,
            &self.move_rules(self.position.to_move),
        )
    }

    /// Whether the player to move has any option at the move step
    /// ([`GameState::move_options`] is not empty).
    pub fn has_move(&self, host: &dyn CardHost) -> bool {
        if !self.moves_are_hooked(host) {
            return self.has_kernel_move();
        }
        let hooks = self.move_hooks(host);
        if hooks.forbidden.is_empty() {
            return self.has_kernel_move() || !hooks.offered.is_empty();
        }
        !self.options_with_hooks(&hooks).is_empty()
    }

    /// The pending decision, or `None` when the game is over.
    pub fn pending(&self, host: &dyn CardHost) -> Option<Decision> {
        let player = self.decider();
        let (kind, prompt, options) = match &self.position.step {
            Step::Over(_) => return None,
            Step::Move => (DecisionKind::Move, None, self.move_options(host).into_iter().map(Choice::Move).collect()),
            Step::Card => (DecisionKind::Card, None, self.playable_cards(host).into_iter().map(Choice::Card).collect()),
            Step::Resolving(r) => (
                DecisionKind::Question,
                Some(r.question.prompt.clone()),
                r.question.options.iter().cloned().map(Choice::Answer).collect(),
            ),
        };
        Some(Decision { player, kind, prompt, options })
    }

    /// The option of the pending decision at the index `pick` chooses for
    /// their number (as in [`GameState::pending`]'s options), without making the
    /// whole decision: the search's playouts take one option of many. `None`
    /// when the game is over or nothing is offered.
    pub fn pending_option(&self, host: &dyn CardHost, pick: impl FnOnce(usize) -> usize) -> Option<Choice> {
        match &self.position.step {
            Step::Over(_) => None,
            Step::Move => {
                let moves = self.move_options(host);
                (!moves.is_empty()).then(|| Choice::Move(moves[pick(moves.len())]))
            }
            Step::Card => {
                let cards = self.playable_cards(host);
                (!cards.is_empty()).then(|| Choice::Card(cards[pick(cards.len())]))
            }
            Step::Resolving(r) => {
                let options = &r.question.options;
                (!options.is_empty()).then(|| Choice::Answer(options[pick(options.len())].clone()))
            }
        }
    }

    /// Who decides now: the player to move, except at a question: the player
    /// it is put to (`opts.to`), if it names one; else, a lasting effect's
    /// question is answered by the player its handlers act for (its owner, or
    /// for `acts_for: mover` the player to move; react.rs).
    pub fn decider(&self) -> Player {
        let to_move = self.position.to_move;
        match &self.position.step {
            Step::Resolving(Resolving { question: Question { to: Some(to), .. }, .. }) => *to,
            Step::Resolving(Resolving { reaction: Some(r), .. }) => {
                r.queue.first().and_then(|q| self.effect(q.effect)).map_or(to_move, |e| e.acting_for(to_move))
            }
            _ => to_move,
        }
    }

    /// Whether the deck takes the card step from this turn: the first of the
    /// game, when its rules say `first_card_step: false`.
    pub fn card_step_withheld(&self) -> bool {
        !self.position.rules.first_card_step && self.position.turn == 0
    }

    /// The distinct face-up cards the player to move may use (R3.3, R8.0).
    pub fn playable_cards(&self, host: &dyn CardHost) -> Vec<CardId> {
        let mut cards: Vec<CardId> = Vec::new();
        if self.card_step_withheld() {
            return cards;
        }
        for &card in &self.hidden.piles.face_up {
            if !cards.contains(&card) && host.playable(self, card) {
                cards.push(card);
            }
        }
        cards
    }

    /// Takes one option of the pending decision. On error nothing changes.
    pub fn apply(&mut self, host: &dyn CardHost, choice: &Choice) -> Result<(), GameError> {
        self.journal.watch(self.listening(host));
        self.journal.mark_dispatched();
        if self.position.effects.is_empty() {
            return self.take(host, choice);
        }
        // Lasting effects may refuse the decision after it changed the state
        // (react.rs), so keep what to go back to.
        let before = self.clone();
        let result = self.take(host, choice);
        if result.is_err() {
            *self = before;
        }
        result
    }

    /// Applies `choice`; if the engine refuses it (a script failed), the first
    /// other option it accepts; if it refuses every option, gives the step up
    /// ([`GameState::give_up`]). The one way a computer player's decision is
    /// played, in matches and in `simulate` alike, so every game goes on.
    /// Returns what was applied (to record) and how many options were refused.
    pub fn apply_or_fall_back(&mut self, host: &dyn CardHost, choice: &Choice) -> Result<(Choice, u32), GameError> {
        let first_error = match self.apply(host, choice) {
            Ok(()) => return Ok((choice.clone(), 0)),
            Err(GameError::Over) => return Err(GameError::Over),
            Err(e) => e,
        };
        let options = self.pending(host).map(|d| d.options).unwrap_or_default();
        let mut refused = 1;
        for option in options.iter().filter(|&o| o != choice) {
            match self.apply(host, option) {
                Ok(()) => return Ok((option.clone(), refused)),
                Err(_) => refused += 1,
            }
        }
        self.apply(host, &Choice::GiveUp)
            .map_err(|e| GameError::Illegal(format!("{first_error}; giving up failed too: {e}")))?;
        Ok((Choice::GiveUp, refused))
    }

    fn take(&mut self, host: &dyn CardHost, choice: &Choice) -> Result<(), GameError> {
        match (&self.position.step, choice) {
            (Step::Over(_), _) => Err(GameError::Over),
            (_, Choice::GiveUp) => {
                let options = self.pending(host).map(|d| d.options).unwrap_or_default();
                let mut failures = Vec::with_capacity(options.len());
                for option in &options {
                    match self.clone().apply(host, option) {
                        Ok(()) => {
                            return Err(GameError::Illegal(format!("{option} still works; nothing to give up")));
                        }
                        Err(e) => failures.push(e),
                    }
                }
                self.give_up(host, &failures)
            }
            (Step::Move, Choice::Move(mv)) => {
                let found = if self.moves_are_hooked(host) {
                    self.options_with_hooks(&self.move_hooks(host)).into_iter().find(|m| m == mv)
                } else {
                    self.listed_move(mv)
                };
                let Some(mv) = found else {
                    return Err(GameError::Illegal(format!("{mv} is not a legal move now")));
                };
                if self.plays_by_hops(host, &mv) {
                    self.start_hops(&mv);
                    return self.carry_on(host, Then::Hop, u32::MAX);
                }
                self.play_move(&mv);
                self.carry_on(host, Then::AfterMove, u32::MAX)
            }
            (Step::Card, Choice::Card(card)) => {
                // The one card asked about, as `playable_cards` would judge it.
                if self.card_step_withheld() || !self.hidden.piles.face_up.contains(card) || !host.playable(self, *card)
                {
                    return Err(GameError::Illegal(format!("card '{}' cannot be used now", host.card_label(*card))));
                }
                self.run_card(host, *card, Vec::new())
            }
            (Step::Resolving(r), Choice::Answer(answer)) => {
                if !r.question.options.contains(answer) {
                    return Err(GameError::Illegal(format!("{answer} is not an answer to: {}", r.question.prompt)));
                }
                // Made at its final size: a clone and a push would grow it again.
                let mut answers = Vec::with_capacity(r.answers.len() + 1);
                answers.extend_from_slice(&r.answers);
                answers.push(answer.clone());
                match &r.reaction {
                    Some(reacting) => {
                        let reacting = (**reacting).clone();
                        self.answer_reaction(host, reacting, answers)
                    }
                    None => self.run_card(host, r.card, answers),
                }
            }
            (step, choice) => {
                Err(GameError::Illegal(format!("{choice} is not possible at the {} step", step_name(step))))
            }
        }
    }

    /// The state a card's script starts from: now, with the card off the
    /// face-up row, its log's events caused by the card.
    pub fn card_snapshot(&self, card: CardId) -> GameState {
        // Field by field, so a pending question (the step) is not copied only to
        // be replaced.
        let mut piles = self.hidden.piles.clone();
        if let Some(i) = piles.face_up.iter().position(|&c| c == card) {
            piles.face_up.remove(i);
        }
        let p = &self.position;
        GameState {
            position: Position {
                board: p.board,
                rules: p.rules,
                counters: p.counters,
                constraint: p.constraint,
                next_constraint: p.next_constraint,
                turn: p.turn,
                to_move: p.to_move,
                step: Step::Card,
                moved: p.moved,
                effects: p.effects.clone(),
                effect_serial: p.effect_serial,
                hooked: HookedMoves::default(),
                hopping: None,
                table: p.table.clone(),
                draws: p.draws.clone(),
            },
            hidden: Hidden {
                piles,
                planets: self.hidden.planets,
                planet_data: self.hidden.planet_data.clone(),
                rng: self.hidden.rng,
                items: self.hidden.items.clone(),
            },
            journal: self.journal.empty_caused(Cause::Card { card }),
        }
    }

    fn run_card(&mut self, host: &dyn CardHost, card: CardId, answers: Vec<Answer>) -> Result<(), GameError> {
        let snapshot = self.card_snapshot(card);
        match host.resolve(&snapshot, card, &answers) {
            Resolution::Done(after) => {
                // The script ran on a scratch copy; commit it whole (invariant 3),
                // its events after those recorded before it.
                if answers.is_empty() {
                    self.journal.push(|| GameEvent::CardUsed { card });
                }
                // The first effect may come from this card: then the turn's
                // reactions may refuse it, and this is the state to go back to.
                let before = (self.position.effects.is_empty() && !after.effects.is_empty()).then(|| self.clone());
                let newest = self.position.effect_serial;
                self.commit(*after);
                let ended = self.outcome();
                self.position.step = Step::Card;
                self.hidden.piles.discard.push(card);
                self.journal.push(|| GameEvent::CardDiscarded { card });
                // The card's script ended the game (`ctx:end_game`).
                if let Some(outcome) = ended {
                    self.finish_caused(outcome, Cause::Card { card });
                    return Ok(());
                }
                let result = self.carry_on(host, Then::AfterCard, newest);
                if let (Err(_), Some(before)) = (&result, before) {
                    *self = before;
                }
                result
            }
            Resolution::Ask(question) if question.options.is_empty() => Err(GameError::CardFailed(format!(
                "card '{}' asked '{}' with no possible answer",
                host.card_label(card),
                question.prompt
            ))),
            Resolution::Ask(question) => {
                if answers.is_empty() {
                    self.journal.push(|| GameEvent::CardUsed { card });
                }
                self.position.step = Step::Resolving(Resolving { card, answers, question, reaction: None });
                Ok(())
            }
            Resolution::Failed(message) => Err(GameError::CardFailed(message)),
        }
    }

    /// R4.8: a constraint in force is met or lapses with the move made.
    pub(super) fn tell_constraint(&mut self, mv: &Move) {
        if let Some(c) = self.position.constraint {
            let kept = if c.movers.contains(mv.from()) {
                GameEvent::ConstraintMet { card: c.card }
            } else {
                GameEvent::ConstraintLapsed { card: c.card }
            };
            self.journal.push(|| kept);
        }
    }

    fn play_move(&mut self, mv: &Move) {
        // R4.8: legal moves keep to the constraint unless none can, so the
        // mover says whether it was met or lapsed.
        self.tell_constraint(mv);
        let played = self.position.board.play(mv, &mut self.journal).expect("legal moves play");
        if played.by_emperor {
            let _ = self.add_to_counter(self.position.to_move, CounterId::EMPEROR_CAPTURES, played.captures);
        }
        self.position.moved = Some(Moved { start: mv.from(), now: mv.to() });
    }

    /// R3.2: turn the top card face up, reshuffling the discards if the pile is empty.
    fn draw_card(&mut self) {
        if self.hidden.piles.draw.is_empty() && !self.hidden.piles.discard.is_empty() {
            let mut discard = std::mem::take(&mut self.hidden.piles.discard);
            self.hidden.rng.shuffle(&mut discard);
            self.journal.push(|| GameEvent::Reshuffled { cards: discard.len(), everything: false });
            self.hidden.piles.draw = discard;
        }
        if !self.hidden.piles.draw.is_empty() {
            let top = self.hidden.piles.draw.remove(0);
            self.hidden.piles.face_up.push(top);
            self.journal.push(|| GameEvent::CardDrawn { card: top });
        }
    }

    /// Counts the turn for lasting effects and begins the next (R3); false
    /// when the move limit ended the game (R10.4), drawn or scored as the
    /// deck says, or one of the deck's draws did (draws.rs).
    fn next_turn(&mut self, host: &dyn CardHost) -> bool {
        if !self.position.effects.is_empty() {
            self.count_down_effects(self.position.to_move);
        }
        self.position.turn += 1;
        if self.position.turn >= self.position.rules.move_limit {
            match self.position.rules.ends.at_move_limit {
                AtMoveLimit::Draw => self.finish(Outcome { winner: None, reason: EndReason::MoveLimit }),
                AtMoveLimit::Score => self.score(host, Scored::MoveLimit),
            }
            return false;
        }
        self.position.to_move = !self.position.to_move;
        self.position.constraint = self.position.next_constraint.take();
        self.position.moved = None;
        self.position.step = Step::Move;
        self.journal.push(|| GameEvent::TurnBegan { turn: self.position.turn + 1, player: self.position.to_move });
        !self.count_for_draws()
    }

    /// R10: the game is over.
    /// Ends a game in progress by the players' agreement: a resignation or an
    /// agreed draw (not a rule of play; the session records it). No-op when over.
    pub fn end_at_table(&mut self, outcome: Outcome) {
        if self.outcome().is_none() {
            self.finish(outcome);
        }
    }

    fn finish(&mut self, outcome: Outcome) {
        self.finish_telling(outcome, None, Cause::Turn);
    }

    /// Ends the game by what `cause` did: a deck rule's verdict, or a
    /// script's `ctx:end_game`.
    fn finish_caused(&mut self, outcome: Outcome, cause: Cause) {
        self.finish_telling(outcome, None, cause);
    }

    /// Ends the game, telling the loser's own condition when it held too (R10.2).
    fn finish_telling(&mut self, outcome: Outcome, also_held: Option<EndReason>, cause: Cause) {
        self.position.step = Step::Over(outcome);
        self.position.constraint = None;
        self.position.next_constraint = None;
        let planets = self.hidden.planets;
        let cause = match outcome.reason {
            EndReason::Planet(planet) => Cause::Planet { planet },
            _ => cause,
        };
        self.journal.push_caused(cause, || GameEvent::GameOver {
            winner: outcome.winner,
            reason: outcome.reason,
            planets,
            also_held,
        });
    }

    /// Runs the steps that need no decision (a move step with no legal move, a card
    /// step with no playable card) until a decision is pending or the game ends.
    /// Lasting effects react as in play; if one fails, the state is unchanged.
    pub fn settle(&mut self, host: &dyn CardHost) -> Result<(), GameError> {
        self.journal.watch(self.listening(host));
        self.journal.mark_dispatched();
        if self.position.effects.is_empty() {
            return self.carry_on(host, Then::Settle, u32::MAX);
        }
        let before = self.clone();
        let result = self.carry_on(host, Then::Settle, u32::MAX);
        if result.is_err() {
            *self = before;
        }
        result
    }

    /// Gives up the pending step when every one of its options failed with
    /// `failures`, so that a broken script cannot stop a game for good (every
    /// game ends, R10.4; cards/README.md, "When a script fails"). Each give-up
    /// takes away something the same decision cannot bring back, or ends the
    /// game:
    ///
    /// - the lasting effects in force whose handlers failed are removed (then
    ///   the decision is asked again: its options may work now; if it has
    ///   none left, play goes on as [`GameState::settle`] goes on);
    /// - otherwise, at a card step the face-up cards that can be used are
    ///   discarded unused; at a card's question the card is discarded unused
    ///   with the state as before it; at a lasting effect's question the
    ///   effect is removed; play goes on, and an effect in force that fails
    ///   on the way is removed too;
    /// - where none of that is possible or play still cannot go on (a move
    ///   step whose every move fails in an effect the move itself made), the
    ///   game is drawn ([`EndReason::Unplayable`]).
    ///
    /// Each is told as a message that quotes the failure (with its file:line).
    pub fn give_up(&mut self, host: &dyn CardHost, failures: &[GameError]) -> Result<(), GameError> {
        if self.outcome().is_some() {
            return Err(GameError::Over);
        }
        let first = failures.first().map_or(String::new(), ToString::to_string);
        let in_force: Vec<(u32, String)> = failures
            .iter()
            .filter_map(|f| match f {
                GameError::EffectFailed { effect, message } if self.effect(*effect).is_some() => {
                    Some((*effect, message.clone()))
                }
                _ => None,
            })
            .collect();
        let before = self.clone();
        let went_on = match &self.position.step {
            _ if !in_force.is_empty() => {
                for (id, message) in in_force {
                    self.remove_failing_effect(host, id, &message);
                }
                // Without them the step may have no option left (an effect
                // offered the only moves): then play goes on as it settles.
                if self.pending(host).is_none_or(|d| !d.options.is_empty()) {
                    return Ok(());
                }
                self.go_on(host, |state, host| state.carry_on(host, Then::Settle, u32::MAX))
            }
            Step::Card => {
                let given_up: Vec<CardId> =
                    self.hidden.piles.face_up.iter().copied().filter(|&c| host.playable(self, c)).collect();
                for card in given_up {
                    self.hidden.piles.face_up.retain(|c| *c != card);
                    self.discard_unused(host, card, &first);
                }
                self.go_on(host, |state, host| state.carry_on(host, Then::Settle, u32::MAX))
            }
            Step::Resolving(r) if r.reaction.is_none() => {
                let card = r.card;
                self.position.step = Step::Card;
                self.discard_unused(host, card, &first);
                let newest = self.position.effect_serial;
                self.go_on(host, |state, host| state.carry_on(host, Then::AfterCard, newest))
            }
            Step::Resolving(r) => {
                let mut reacting = (**r.reaction.as_ref().expect("a reaction's question")).clone();
                if !reacting.queue.is_empty() {
                    let asking = reacting.queue.remove(0);
                    self.remove_failing_effect(host, asking.effect, &first);
                }
                self.position.step = (*reacting.step).clone();
                self.go_on(host, move |state, host| {
                    let queue = std::mem::take(&mut reacting.queue);
                    state.answer_reaction(host, Reacting { queue, ..reacting.clone() }, Vec::new())
                })
            }
            Step::Move | Step::Over(_) => Err(GameError::Illegal(first.clone())),
        };
        if let Err(e) = went_on {
            *self = before;
            let text = format!("the game cannot go on, every option fails: {e}");
            self.journal.push(|| GameEvent::Message { text, to: None });
            self.finish(Outcome { winner: None, reason: EndReason::Unplayable });
        }
        Ok(())
    }

    fn discard_unused(&mut self, host: &dyn CardHost, card: CardId, why: &str) {
        self.hidden.piles.discard.push(card);
        let text = format!("{} is discarded unused: {why}", host.card_label(card));
        self.journal.push(|| GameEvent::Message { text, to: None });
        self.journal.push(|| GameEvent::CardDiscarded { card });
    }

    fn remove_failing_effect(&mut self, host: &dyn CardHost, id: u32, message: &str) {
        let Some(card) = self.effect(id).map(|e| e.card) else { return };
        let text = format!("{}'s effect is removed: {message}", host.card_label(card));
        self.journal.push(|| GameEvent::Message { text, to: None });
        self.end_effect(id);
    }

    /// Runs `go` (the rest of a turn after a give-up); while it fails in a
    /// lasting effect in force, removes that effect and runs it again from
    /// where it started. Bounded: each retry removes an effect.
    fn go_on(
        &mut self,
        host: &dyn CardHost,
        mut go: impl FnMut(&mut GameState, &dyn CardHost) -> Result<(), GameError>,
    ) -> Result<(), GameError> {
        loop {
            let start = self.clone();
            match go(self, host) {
                Ok(()) => return Ok(()),
                Err(GameError::EffectFailed { effect, message }) if start.effect(effect).is_some() => {
                    *self = start;
                    self.remove_failing_effect(host, effect, &message);
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// A script's `ctx:end_game`: the game is over with `outcome` once the
    /// run that ended it is taken (the game then records the end, caused by
    /// that run: `GameState::finish_caused`). Nothing is recorded here, as the
    /// run's other changes are events of its own.
    pub fn end_by_rule(&mut self, winner: Option<Player>, victory: VictoryId) {
        self.position.step = Step::Over(Outcome { winner, reason: EndReason::Rule { victory, by: None } });
    }

    /// Ends the game the deck's way, for an end it scores: by the verdict of
    /// the first of the deck's rules in force whose script gives one, caused
    /// by that rule; drawn ([`EndReason::Unscored`]) when none gives one or it
    /// fails, the failure told.
    fn score(&mut self, host: &dyn CardHost, scored: Scored) {
        let judge = self.position.effects.iter().find(|e| e.deck && host.judges(e.card)).cloned();
        let unscored = Outcome { winner: None, reason: EndReason::Unscored(scored) };
        let Some(effect) = judge else { return self.finish(unscored) };
        match host.verdict(self, &effect, scored) {
            Ok(Verdict { winner, victory }) => {
                let reason = EndReason::Rule { victory, by: Some(scored) };
                self.finish_caused(Outcome { winner, reason }, effect.cause());
            }
            Err(message) => {
                let text = format!("the game is drawn: {message}");
                self.journal.push_caused(effect.cause(), || GameEvent::Message { text, to: None });
                self.finish(unscored);
            }
        }
    }

    /// R10.1–R10.2, R3.4: ends the game if either player has won, or, where
    /// the deck scores a side with no checker on the board, if one has none
    /// (after R10.1's other wins, which come first). True when the game is
    /// over (also when it already was: a script ended it).
    pub fn check_end(&mut self, host: &dyn CardHost) -> bool {
        if self.outcome().is_some() {
            return true;
        }
        let winning = |p: Player| -> Option<EndReason> {
            if let Some(reason) = self.position.rules.board_win(&self.position.board, p) {
                return Some(reason);
            }
            let planet = self.planet(p)?;
            host.planet_holds(self, planet, p).then_some(EndReason::Planet(planet))
        };
        let (mover, other) = (self.position.to_move, !self.position.to_move);
        // R10.2: if both win at the same check, the player whose turn it is wins.
        let (outcome, also_held) = match (winning(mover), winning(other)) {
            (Some(reason), also_held) => (Outcome { winner: Some(mover), reason }, also_held),
            (None, Some(reason)) => (Outcome { winner: Some(other), reason }, None),
            (None, None) => {
                if self.position.rules.ends.no_checkers == NoCheckers::Lose {
                    return false;
                }
                let board = &self.position.board;
                let scored = match Player::BOTH.map(|p| board.checkers(p).is_empty()) {
                    [false, false] => return false,
                    [true, true] => Scored::NoCheckers(None),
                    [true, false] => Scored::NoCheckers(Some(Player::Dark)),
                    [false, true] => Scored::NoCheckers(Some(Player::Light)),
                };
                self.score(host, scored);
                return true;
            }
        };
        self.finish_telling(outcome, also_held, Cause::Turn);
        true
    }
}

fn step_name(step: &Step) -> &'static str {
    match step {
        Step::Move => "move",
        Step::Card => "card",
        Step::Resolving(_) => "question",
        Step::Over(_) => "end",
    }
}

impl Position {
    /// `player`'s moves on `board` (the state's, or one with a checker set
    /// aside, R8.16) from checkers on `movers`, not ending on `avoid`, in
    /// this order: the kernel's moves; those of `hooks.offered` that still
    /// fit added; those `hooks.forbidden` matches taken away; capture
    /// compulsory over what is left (R4.3), the deck's preferences choosing
    /// among all its captures. So forbidding every capture leaves the steps.
    fn moves_with(
        &self,
        player: Player,
        board: &Board,
        movers: Bitboard,
        avoid: Bitboard,
        hooks: &MoveHooks,
        out: &mut Vec<Move>,
    ) {
        let rules = self.move_rules(player);
        let movement = rules.applied_to(*board.movement());
        let forbidding = !hooks.forbidden.is_empty();
        out.clear();
        if forbidding {
            // Every kernel move: capture is made compulsory, and the
            // preferences applied, once the forbidden moves are gone.
            let mut every = *board;
            every.set_movement(Movement { prefer: crate::kernel::Preferences::FREE, ..*board.movement() });
            let optional = MoveRules { capture_optional: true, ..rules };
            crate::kernel::legal_moves_avoiding(&every, player, movers, avoid, &optional, out);
        } else {
            crate::kernel::legal_moves_avoiding(board, player, movers, avoid, &rules, out);
        }
        let free = board.checkers(player) - board.tokens(crate::kernel::Token::Hippo);
        let opponents = board.checkers(!player);
        let mine: Vec<Move> = hooks
            .offered
            .iter()
            .copied()
            .filter(|m| {
                let lands = m.to() == m.from() || board.is_empty(m.to()) || m.captured().contains(m.to());
                (movers & free).contains(m.from())
                    && !avoid.contains(m.to())
                    && lands
                    && (m.captured() - opponents).is_empty()
                    && !out.contains(m)
            })
            .collect();
        if forbidding {
            out.extend(mine);
            out.retain(|m| !hooks.forbids(m));
            if movement.capture == crate::kernel::Capturing::Optional {
                // Captures first, as the kernel lists them; the preferences
                // choose among them.
                let steps: Vec<Move> = out.iter().copied().filter(|m| !m.is_jump()).collect();
                out.retain(Move::is_jump);
                crate::kernel::keep_preferred(board, &movement.prefer, out, 0);
                out.extend(steps);
            } else if out.iter().any(Move::is_jump) {
                out.retain(Move::is_jump);
                crate::kernel::keep_preferred(board, &movement.prefer, out, 0);
            }
        } else if movement.capture == crate::kernel::Capturing::Optional {
            out.extend(mine);
        } else if out.first().is_some_and(Move::is_jump) || mine.iter().any(Move::is_jump) {
            out.retain(Move::is_jump);
            out.extend(mine.into_iter().filter(Move::is_jump));
            crate::kernel::keep_preferred(board, &movement.prefer, out, 0);
        } else {
            out.extend(mine);
        }
    }

    /// The moves a card grants `player` (R8.9, R8.16, `ctx:legal_moves`):
    /// from checkers on `allowed`, not ending on `avoid`, with the checker on
    /// `without` set aside if any; listed as the move step's are, with what
    /// scripts offer and forbid in this state ([`HookedMoves`]).
    pub fn moves_granted(
        &self,
        player: Player,
        allowed: Bitboard,
        avoid: Bitboard,
        without: Option<Square>,
    ) -> Result<Vec<Move>, crate::kernel::RuleError> {
        let mut board = self.board;
        let mut hooks = self.hooked.of(player).cloned().unwrap_or_default();
        if let Some(absent) = without {
            board.set_aside(absent, &mut crate::kernel::Unrecorded)?;
            hooks.offered.retain(|m| !m.captured().contains(absent));
        }
        let mut out = Vec::with_capacity(crate::kernel::TYPICAL_MOVES);
        self.moves_with(player, &board, allowed, avoid, &hooks, &mut out);
        Ok(out)
    }
}
