//! What lasting effects' scripts change in the move step's list
//! (cards/README.md, "Moves a script offers", "Moves a script forbids"): the
//! moves `extra_moves` offers and the moves `forbid_moves` takes away, as
//! plain data the listing (`Position::moves_with`) reads.

use crate::kernel::{Move, MoveText, Player, Square};

/// A kind of move `forbid_moves` takes away: every key given must match.
/// Invariant (kept by whoever builds one): at least one key is given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MovePattern {
    /// The move starts here.
    pub from: Option<Square>,
    /// The move ends on this square (a move that leaves the board ends on none).
    pub to: Option<Square>,
    /// The move captures (true) or does not (false).
    pub captures: Option<bool>,
    /// The checker leaves the board (true) or stays on it (false).
    pub leaves: Option<bool>,
}

impl MovePattern {
    pub fn matches(&self, mv: &Move) -> bool {
        self.from.is_none_or(|sq| mv.from() == sq)
            && self.to.is_none_or(|sq| !mv.exits() && mv.to() == sq)
            && self.captures.is_none_or(|c| mv.is_jump() == c)
            && self.leaves.is_none_or(|l| mv.exits() == l)
    }
}

/// One entry of what `forbid_moves` returns: a move as players write it (a
/// jump may be written by its start and end alone, as at the prompt), or a
/// [`MovePattern`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forbidden {
    Written(MoveText),
    Pattern(MovePattern),
}

impl Forbidden {
    pub fn matches(&self, mv: &Move) -> bool {
        match self {
            Forbidden::Written(text) => text.matches(mv),
            Forbidden::Pattern(pattern) => pattern.matches(mv),
        }
    }
}

/// What the lasting effects in force for one player do to the move step's
/// list in one state: the moves their scripts offer and those they forbid.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveHooks {
    pub offered: Vec<Move>,
    pub forbidden: Vec<Forbidden>,
}

impl MoveHooks {
    pub fn is_empty(&self) -> bool {
        self.offered.is_empty() && self.forbidden.is_empty()
    }

    /// Whether some entry of `forbidden` matches `mv`.
    pub fn forbids(&self, mv: &Move) -> bool {
        self.forbidden.iter().any(|f| f.matches(mv))
    }
}

/// The [`MoveHooks`] of one player in a state, worked out by the script host
/// before a card's script runs (a script cannot run another while it runs),
/// so that the moves a card grants (Second move, Phase, `ctx:legal_moves`)
/// are listed as the move step's are ([`super::Position::moves_granted`]).
/// Like the event log, it is not part of the state's value: never compared,
/// hashed or saved.
#[derive(Clone, Debug, Default)]
pub struct HookedMoves(Option<std::sync::Arc<(Player, MoveHooks)>>);

impl HookedMoves {
    pub fn new(player: Player, hooks: MoveHooks) -> HookedMoves {
        HookedMoves((!hooks.is_empty()).then(|| std::sync::Arc::new((player, hooks))))
    }

    /// The hooks worked out for `player`, none if they were not.
    pub fn of(&self, player: Player) -> Option<&MoveHooks> {
        match &self.0 {
            Some(hooked) if hooked.0 == player => Some(&hooked.1),
            _ => None,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }
}

impl PartialEq for HookedMoves {
    fn eq(&self, _: &HookedMoves) -> bool {
        true
    }
}

impl Eq for HookedMoves {}

impl std::hash::Hash for HookedMoves {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        Move::from_text(&text.parse().unwrap()).unwrap()
    }

    #[test]
    fn a_pattern_matches_when_every_key_given_matches() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let from_c3 = MovePattern { from: Some(sq("c3")), ..Default::default() };
        assert!(from_c3.matches(&mv("c3-d4")) && from_c3.matches(&mv("c3xe5")) && !from_c3.matches(&mv("e3-d4")));
        let to_d4 = MovePattern { to: Some(sq("d4")), ..Default::default() };
        assert!(to_d4.matches(&mv("c3-d4")) && to_d4.matches(&mv("e3-d4")) && !to_d4.matches(&mv("c3-b4")));
        assert!(!MovePattern { to: Some(sq("a1")), ..Default::default() }.matches(&mv("a1-off")), "it ends off");
        let both = MovePattern { from: Some(sq("c3")), to: Some(sq("d4")), ..Default::default() };
        assert!(both.matches(&mv("c3-d4")) && !both.matches(&mv("e3-d4")) && !both.matches(&mv("c3-b4")));
        let captures = MovePattern { captures: Some(true), ..Default::default() };
        assert!(captures.matches(&mv("c3xe5xc7")) && !captures.matches(&mv("c3-d4")));
        let quiet = MovePattern { captures: Some(false), ..Default::default() };
        assert!(quiet.matches(&mv("c3-d4")) && quiet.matches(&mv("a1-off")) && !quiet.matches(&mv("c3xe5")));
        let leaves = MovePattern { leaves: Some(true), ..Default::default() };
        assert!(leaves.matches(&mv("a1-off")) && !leaves.matches(&mv("a1-b2")));
    }

    #[test]
    fn a_written_move_matches_as_at_the_prompt() {
        let written = |t: &str| Forbidden::Written(t.parse().unwrap());
        assert!(written("c3-d4").matches(&mv("c3-d4")) && !written("c3-d4").matches(&mv("c3-b4")));
        assert!(written("a3xe7").matches(&mv("a3xc5xe7")), "a jump by its start and end");
        assert!(!written("a3xc5xe7").matches(&mv("a3xc5xa7")));
        assert!(written("a1-off").matches(&mv("a1-off")) && !written("a1-off").matches(&mv("a1-b2")));
    }
}
