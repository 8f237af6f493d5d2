//! Static evaluation: how good a position is for one player, in pawns.
//!
//! [`Heuristic`] is what search and the greedy baseline call; [`Evaluator`] is
//! the built-in one (material, kings, advancement, back-row guard, centre, and
//! progress toward each player's planet as the card host reports it, which for
//! scripts is the planet's optional `progress` function).

use crate::game::{CardHost, GameState};
use crate::kernel::{Bitboard, Board, Dir, Player, Square};

/// Scores positions. Implementations must be pure functions of their
/// arguments and antisymmetric: `score(s, p, h) == -score(s, !p, h)`, so that
/// a search can read one number from both sides.
pub trait Heuristic: Send + Sync {
    /// How good `state` is for `player`, in pawns (positive: better for `player`).
    /// Called on states whose game is not over. It sees whatever state it is
    /// given: search passes determinized states, never the real hidden ones.
    /// `host` answers what only the content knows (planet progress).
    fn score(&self, state: &GameState, player: Player, host: &dyn CardHost) -> f32;
}

/// One field of [`Terms`]: a term, or a row of them (`advance`).
trait TermField {
    fn values(&self) -> &[f32];
    /// These terms times the weights `w`, summed.
    fn dot(&self, w: &Self) -> f32;
}

impl TermField for f32 {
    fn values(&self) -> &[f32] {
        std::slice::from_ref(self)
    }

    fn dot(&self, w: &f32) -> f32 {
        self * w
    }
}

impl<const N: usize> TermField for [f32; N] {
    fn values(&self) -> &[f32] {
        self
    }

    fn dot(&self, w: &[f32; N]) -> f32 {
        self.iter().zip(w).map(|(n, w)| n * w).sum()
    }
}

/// Declares [`Terms`] from one list of fields, each once: its type, its
/// standard weight, and its names in [`Terms::NAMES`] (the field's own name
/// unless listed, one a value). Generates the struct, `STANDARD`, `NAMES`,
/// `to_vec` and `weighted`.
macro_rules! terms {
    (
        $(#[$meta:meta])*
        pub struct Terms {
            $(
                $(#[$doc:meta])*
                $field:ident $([$($name:literal),*])?: $ty:ty = $standard:expr,
            )*
        }
    ) => {
        $(#[$meta])*
        pub struct Terms {
            $($(#[$doc])* pub $field: $ty,)*
        }

        // Each field has a name per value.
        $(const _: () = assert!(
            terms!(@names $field $([$($name),*])?).len() == size_of::<$ty>() / size_of::<f32>()
        );)*

        impl Terms {
            pub const STANDARD: Weights = Terms { $($field: $standard,)* };

            /// How many values the fields hold together.
            const LEN: usize = 0 $(+ terms!(@names $field $([$($name),*])?).len())*;

            /// A name per value, in the order of the fields.
            pub const NAMES: [&str; Self::LEN] = {
                let mut names = [""; Self::LEN];
                let mut i = 0;
                $(
                    let field = terms!(@names $field $([$($name),*])?);
                    let mut j = 0;
                    while j < field.len() {
                        names[i] = field[j];
                        (i, j) = (i + 1, j + 1);
                    }
                )*
                names
            };

            /// The fields in the order of [`Terms::NAMES`].
            pub fn to_vec(&self) -> Vec<f32> {
                let mut v = Vec::with_capacity(Self::LEN);
                $(v.extend_from_slice(self.$field.values());)*
                v
            }

            /// The score: these terms times `w`'s weights.
            pub fn weighted(&self, w: &Weights) -> f32 {
                // The sum field by field, in their order; -0.0 adds nothing,
                // not even a sign.
                let mut score = -0.0;
                $(score += self.$field.dot(&w.$field);)*
                score
            }
        }
    };
    (@names $field:ident) => {
        [stringify!($field)]
    };
    (@names $field:ident [$($name:literal),*]) => {
        [$($name),*]
    };
}

terms! {
    /// What [`Evaluator`] counts, a field per term. Counted in a position, each
    /// is the scoring player's count minus the opponent's ([`Evaluator::terms`]);
    /// as [`Weights`], what one unit of the term is worth, in pawns. The score is
    /// the two multiplied term by term and summed ([`Terms::weighted`]).
    #[derive(Clone, Copy, Debug, Default, PartialEq)]
    pub struct Terms {
        pawn: f32 = 1.0,
        king: f32 = 1.5,
        emperor: f32 = 2.2,
        /// Pawns by how many rows they stand from their back row (R2.2), index 0
        /// = back row. The last entry is for a pawn waiting on its king row for a
        /// reserve piece (R6.1).
        advance["advance0", "advance1", "advance2", "advance3", "advance4", "advance5", "advance6", "advance7"]:
            [f32; 8] = [0.0, 0.0, 0.02, 0.05, 0.09, 0.14, 0.2, 0.0],
        /// Own pawns on the own back row while the opponent still has pawns
        /// (they stop them from crowning).
        back_guard: f32 = 0.06,
        /// Checkers on the 16 central squares.
        centre: f32 = 0.04,
        /// When five kings win (R10.1): the squared share of five kings or
        /// emperors, the threat growing with their number (on top of `king`).
        five_kings: f32 = 3.0,
        /// Progress toward the player's planet (R9), 0 to 1, from
        /// [`CardHost::planet_progress`].
        planet: f32 = 3.0,
        /// Pieces in the pools a deck gives a worth (`rules: pool_worth:`),
        /// times that worth: what captures and rescues have banked.
        pools: f32 = 1.0,
        /// The material lead times the share of material already off the board:
        /// trading down pays when ahead.
        trade_down: f32 = 0.6,
        /// When one side leads by a pawn or more: minus the distance, summed over
        /// the leader's kings, to the nearest opposing checker, for the leader, so
        /// that a won ending is pressed home before the move limit (R10.4).
        hunt: f32 = 0.02,
    }
}

/// The weights of [`Evaluator`]: what one unit of each term is worth, in pawns.
pub type Weights = Terms;

/// The built-in heuristic.
#[derive(Clone, Debug)]
pub struct Evaluator {
    weights: Weights,
}

impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator::new(Weights::STANDARD)
    }
}

const CENTRE: Bitboard = Bitboard(0x0000_3c3c_3c3c_0000);

/// Material in pawns of `player` as the eval counts it (no positional terms).
fn material(w: &Weights, state: &GameState, player: Player) -> f32 {
    let board = &state.board;
    let mine = board.checkers(player);
    let emperors = (mine & board.emperors()).count() as f32;
    let kings = (mine & board.kings()).count() as f32 - emperors;
    let pawns = (mine - board.kings()).count() as f32;
    pawns * w.pawn + kings * w.king + emperors * w.emperor
}

/// Rows between `sq` and `player`'s back row, 0 to 7 (R2.2).
fn rows_from_back(state: &GameState, player: Player, sq: Square) -> usize {
    let (file, rank) = (sq.file() as usize, sq.rank() as usize);
    match state.board.orientation().forward(player) {
        Dir::N => rank,
        Dir::S => 7 - rank,
        Dir::E => file,
        _ => 7 - file,
    }
}

impl Evaluator {
    pub fn new(weights: Weights) -> Evaluator {
        Evaluator { weights }
    }

    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The terms of [`Heuristic::score`] for `state` from `player`'s side:
    /// the score is their dot product with the weights ([`Terms::weighted`]).
    /// The trade-down and hunt terms depend on the material weights.
    pub fn terms(&self, state: &GameState, player: Player, host: &dyn CardHost) -> Terms {
        let w = &self.weights;
        let mut terms = Terms::default();
        self.add_side(&mut terms, state, player, host, 1.0);
        self.add_side(&mut terms, state, !player, host, -1.0);
        let (mine, theirs) = (material(w, state, player), material(w, state, !player));
        let lead = mine - theirs;
        // 12 pawns a side at the start (R1.3).
        let off_board = (1.0 - (mine + theirs) / (24.0 * w.pawn)).clamp(0.0, 1.0);
        terms.trade_down = lead * off_board;
        if lead.abs() >= w.pawn {
            let leader = if lead > 0.0 { player } else { !player };
            let distance = hunting_distance(&state.board, leader) as f32;
            terms.hunt = if leader == player { -distance } else { distance };
        }
        terms
    }

    /// Adds one side's terms, times `sign`.
    fn add_side(&self, terms: &mut Terms, state: &GameState, player: Player, host: &dyn CardHost, sign: f32) {
        let board = &state.board;
        let orientation = board.orientation();
        let mine = board.checkers(player);
        let theirs = board.checkers(!player);
        let pawns = mine - board.kings();
        let emperors = (mine & board.emperors()).count() as f32;
        terms.pawn += sign * pawns.count() as f32;
        terms.king += sign * ((mine & board.kings()).count() as f32 - emperors);
        terms.emperor += sign * emperors;
        for sq in pawns {
            terms.advance[rows_from_back(state, player, sq)] += sign;
        }
        if (theirs - board.kings()).any() {
            terms.back_guard += sign * (pawns & orientation.back_row(player)).count() as f32;
        }
        terms.centre += sign * (mine & CENTRE).count() as f32;
        if state.rules.five_kings_win {
            let share = ((mine & board.kings()).count().min(5) as f32) / 5.0;
            terms.five_kings += sign * share * share;
        }
        if let Some(pools) = board.pools() {
            let held = pools.held[player.index()];
            let banked: u32 = held.iter().zip(pools.routes.worth).map(|(&n, w)| u32::from(n) * u32::from(w)).sum();
            terms.pools += sign * banked as f32;
        }
        if let Some(planet) = state.planet(player) {
            let progress = host.planet_progress(state, planet, player);
            // A broken host must not poison the score.
            if progress.is_finite() {
                terms.planet += sign * progress.clamp(0.0, 1.0);
            }
        }
    }
}

impl Heuristic for Evaluator {
    fn score(&self, state: &GameState, player: Player, host: &dyn CardHost) -> f32 {
        self.terms(state, player, host).weighted(&self.weights)
    }
}

/// The sum over `leader`'s kings of the distance (in king steps) to the
/// nearest opposing checker.
pub(super) fn hunting_distance(board: &Board, leader: Player) -> u32 {
    let prey = board.checkers(!leader);
    if prey.is_empty() {
        return 0;
    }
    let mut total = 0;
    for king in board.checkers(leader) & board.kings() {
        let nearest = prey
            .map(|p| (king.file() - p.file()).unsigned_abs().max((king.rank() - p.rank()).unsigned_abs()))
            .min()
            .unwrap_or(0);
        total += u32::from(nearest);
    }
    total
}

/// Turns a score in pawns into an expected result in `[0, 1]` (1 = win) by a
/// logistic curve: one pawn up is worth about 0.71 at `scale` 0.9.
pub fn expected_result(score: f32, scale: f32) -> f32 {
    1.0 / (1.0 + (-score * scale).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Answer, BlankCards, CardId, Effect, EventKind, Inputs, Logged, PlanetId, Resolution, Setup};
    use crate::kernel::{Removal, Unrecorded};

    #[test]
    fn the_start_is_even_and_scores_are_antisymmetric() {
        let eval = Evaluator::default();
        for setup in [Setup::plain(), Setup::blank(21)] {
            let mut state = GameState::new(&setup, 1);
            assert_eq!(eval.score(&state, Player::Dark, &BlankCards), 0.0, "R2.1: the start is symmetric");
            // Take one Light checker off: Dark is a pawn up, Light a pawn down.
            let victim = state.board.checkers(Player::Light).first().unwrap();
            state.position_mut().board.remove_checker(victim, Removal::Card, &mut Unrecorded).unwrap();
            let dark = eval.score(&state, Player::Dark, &BlankCards);
            assert!(dark > 0.9, "{dark}");
            assert_eq!(dark, -eval.score(&state, Player::Light, &BlankCards));
            assert!(expected_result(dark, 0.9) > 0.6 && expected_result(-dark, 0.9) < 0.4);
        }
    }

    #[test]
    fn the_score_is_the_terms_weighted() {
        use crate::kernel::{Checker, Kind};
        let eval = Evaluator::default();
        let mut state = GameState::new(&Setup::blank(21), 1);
        // Light loses two pawns; Dark's c3 pawn becomes a king on d4 (a centre square).
        for sq in ["b6", "d6"] {
            state.position_mut().board.remove_checker(sq.parse().unwrap(), Removal::Card, &mut Unrecorded).unwrap();
        }
        state.position_mut().board.remove_checker("c3".parse().unwrap(), Removal::Card, &mut Unrecorded).unwrap();
        state.position_mut().board.set_checker("d4".parse().unwrap(), Checker::new(Player::Dark, Kind::King)).unwrap();
        let terms = eval.terms(&state, Player::Dark, &BlankCards);
        assert_eq!((terms.pawn, terms.king, terms.emperor), (1.0, 1.0, 0.0), "11 pawns and a king against 10 pawns");
        assert_eq!(terms.centre, 1.0, "e3 and d4 against f6");
        assert_eq!(terms.advance[2], 1.0, "a3 e3 g3 against f6 h6");
        assert!((terms.five_kings - 0.04).abs() < 1e-6, "one king of five, squared (R10.1)");
        assert_eq!(terms.trade_down, 2.5 * (1.0 - 22.5 / 24.0), "a lead of 2.5 with 1.5 of 24 off the board");
        assert_eq!(terms.hunt, -2.0, "Dark leads; its king is two steps from f6");
        let light: Vec<f32> = eval.terms(&state, Player::Light, &BlankCards).to_vec();
        assert_eq!(light, terms.to_vec().iter().map(|t| -t).collect::<Vec<_>>(), "antisymmetric term by term");
        assert_eq!(eval.score(&state, Player::Dark, &BlankCards), terms.weighted(eval.weights()));
    }

    #[test]
    fn the_fields_names_values_and_sum_agree() {
        assert_eq!(Terms::NAMES.len(), Terms::STANDARD.to_vec().len());
        assert_eq!(Terms::NAMES[..4], ["pawn", "king", "emperor", "advance0"]);
        assert_eq!(
            Terms::NAMES[10..],
            ["advance7", "back_guard", "centre", "five_kings", "planet", "pools", "trade_down", "hunt"]
        );
        // The sum field by field, as the fields' products written out in order.
        let mut terms = Terms::default();
        for (i, t) in [&mut terms.pawn, &mut terms.king, &mut terms.hunt, &mut terms.advance[3]].into_iter().enumerate()
        {
            *t = -0.37 * (i as f32 + 1.0);
        }
        let w = &Weights::STANDARD;
        let advance: f32 = terms.advance.iter().zip(&w.advance).map(|(n, w)| n * w).sum();
        let written = terms.pawn * w.pawn
            + terms.king * w.king
            + terms.emperor * w.emperor
            + advance
            + terms.back_guard * w.back_guard
            + terms.centre * w.centre
            + terms.five_kings * w.five_kings
            + terms.planet * w.planet
            + terms.trade_down * w.trade_down
            + terms.hunt * w.hunt;
        assert_eq!(terms.weighted(w).to_bits(), written.to_bits());
        assert_eq!(Terms::default().weighted(w).to_bits(), 0.0f32.to_bits(), "no terms score +0.0, as written out");
    }

    #[test]
    fn planet_progress_counts_for_its_holder() {
        /// Planet 1 is half done for whoever holds it; the others not at all.
        struct Half;
        impl CardHost for Half {
            fn playable(&self, s: &GameState, c: CardId) -> bool {
                BlankCards.playable(s, c)
            }
            fn resolve(&self, s: &GameState, c: CardId, a: &[Answer]) -> Resolution {
                BlankCards.resolve(s, c, a)
            }
            fn resolve_noting_inputs(&self, s: &GameState, c: CardId, a: &[Answer]) -> (Resolution, Inputs) {
                BlankCards.resolve_noting_inputs(s, c, a)
            }
            fn planet_holds(&self, _: &GameState, _: PlanetId, _: Player) -> bool {
                false
            }
            fn planet_progress(&self, _: &GameState, planet: PlanetId, _: Player) -> f32 {
                if planet == PlanetId(1) { 0.5 } else { 0.0 }
            }
            fn reacts(&self, c: CardId, k: EventKind) -> bool {
                BlankCards.reacts(c, k)
            }
            fn react(&self, s: &GameState, e: &Effect, l: &Logged, a: &[Answer]) -> Resolution {
                BlankCards.react(s, e, l, a)
            }
            fn offers_moves(&self, c: CardId) -> bool {
                BlankCards.offers_moves(c)
            }
            fn extra_moves(&self, s: &GameState, e: &Effect) -> Vec<crate::kernel::Move> {
                BlankCards.extra_moves(s, e)
            }
            fn forbids_moves(&self, c: CardId) -> bool {
                BlankCards.forbids_moves(c)
            }
            fn forbidden_moves(&self, s: &GameState, e: &Effect) -> Vec<crate::game::Forbidden> {
                BlankCards.forbidden_moves(s, e)
            }
            fn begins(&self, c: CardId) -> bool {
                BlankCards.begins(c)
            }
            fn game_begins(&self, s: &GameState, c: CardId) -> Resolution {
                BlankCards.game_begins(s, c)
            }
            fn planet_listens(&self, p: PlanetId, k: Option<EventKind>) -> bool {
                BlankCards.planet_listens(p, k)
            }
            fn planet_begins(&self, p: PlanetId) -> bool {
                BlankCards.planet_begins(p)
            }
            fn planet_hears(
                &self,
                s: &GameState,
                p: PlanetId,
                who: Player,
                e: Option<&Logged>,
            ) -> Result<crate::game::Data, crate::game::GameError> {
                BlankCards.planet_hears(s, p, who, e)
            }
            fn card_label(&self, c: CardId) -> String {
                BlankCards.card_label(c)
            }
            fn judges(&self, c: CardId) -> bool {
                BlankCards.judges(c)
            }
            fn verdict(
                &self,
                s: &GameState,
                e: &Effect,
                why: crate::game::Scored,
            ) -> Result<crate::game::Verdict, String> {
                BlankCards.verdict(s, e, why)
            }
        }
        let eval = Evaluator::default();
        let mut state = GameState::new(&Setup::blank(21), 1);
        state.hidden_mut().planets = [Some(PlanetId(1)), Some(PlanetId(2))];
        assert_eq!(eval.score(&state, Player::Dark, &Half), 0.5 * Weights::STANDARD.planet);
        assert_eq!(eval.score(&state, Player::Light, &Half), -0.5 * Weights::STANDARD.planet);
        // An unknown planet (the opponent's, as a player sees it) counts nothing.
        state.hidden_mut().planets = [Some(PlanetId(2)), None];
        assert_eq!(eval.score(&state, Player::Dark, &Half), 0.0);
    }
}
