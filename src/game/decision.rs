//! Decisions: who must choose now, from which complete list of options
//! (ARCHITECTURE.md invariant 2).

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::kernel::{Dir, Edge, EdgePair, Move, Player, Square};

/// Index of a card in the loaded content's card table.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CardId(pub u16);

/// Index of a planet in the loaded content's planet table.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlanetId(pub u16);

/// One answer to a card's question.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    Square(Square),
    Edge(Edge),
    Edges(EdgePair),
    Dir(Dir),
    Move(Move),
    /// One of named options, such as `place`, `remove`, `skip` or a card id
    /// (shared: options are copied into every decision that offers them).
    /// Never [`NONE`] or [`KEEP`], which name the two answers below.
    Option(Arc<str>),
    /// None of the options: declines an optional question (written [`NONE`]).
    Decline,
    /// In an order being chosen, the items not yet placed in their present
    /// order (written [`KEEP`]).
    KeepTheRest,
}

/// How [`Answer::Decline`] is written and typed; no option may be named so.
pub const NONE: &str = "none";
/// How [`Answer::KeepTheRest`] is written and typed; no option may be named so.
pub const KEEP: &str = "keep";

impl Answer {
    /// Whether `name` is one of the words the protocol keeps for itself.
    pub fn is_reserved(name: &str) -> bool {
        name.eq_ignore_ascii_case(NONE) || name.eq_ignore_ascii_case(KEEP)
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Square(s) => write!(f, "{s}"),
            Answer::Edge(e) => write!(f, "{e}"),
            Answer::Edges(p) => write!(f, "{p}"),
            Answer::Dir(d) => write!(f, "{d}"),
            Answer::Move(m) => write!(f, "{m}"),
            Answer::Option(o) => f.write_str(o),
            Answer::Decline => f.write_str(NONE),
            Answer::KeepTheRest => f.write_str(KEEP),
        }
    }
}

/// What kind of thing a question asks for; the options all have the matching
/// `Answer` variant.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum QuestionKind {
    Square,
    /// A 2×2 block, answered by its lower-left (`a1`-most) square on the board;
    /// players see and name it by the corner the drawn board shows lower left.
    Block,
    Checker,
    Edge,
    Edges,
    Direction,
    Move,
    Option,
}

/// A card script's question, with every legal answer.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Question {
    pub prompt: String,
    pub kind: QuestionKind,
    pub options: Vec<Answer>,
    /// The player it is put to (`opts.to`); `None`: the game's rule
    /// ([`crate::game::GameState::decider`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<Player>,
    /// Whether the answer is told to the other player only as "answers in
    /// secret" (`opts.secret`, or the card's manifest `secret_answers`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub secret: bool,
    /// The board as the script left it when it asked: what its earlier answers
    /// did (Monolith twice's first push), for showing. Not part of the game.
    #[serde(skip)]
    pub so_far: SoFar,
}

impl Question {
    pub fn new(prompt: String, kind: QuestionKind, options: Vec<Answer>) -> Question {
        Question { prompt, kind, options, to: None, secret: false, so_far: SoFar::default() }
    }
}

/// What a script's run did before it asked, kept for showing only: the board
/// it left, and the answers the game gave by itself to its earlier questions
/// (a line of answers typed for them skips them). Every two are equal and none
/// is hashed or saved, so that it never tells two states apart
/// (ARCHITECTURE.md invariant 1 holds for the rest of the state).
#[derive(Clone, Debug, Default)]
pub struct SoFar(pub Option<Box<crate::kernel::Board>>, pub Vec<Answer>);

impl PartialEq for SoFar {
    fn eq(&self, _: &SoFar) -> bool {
        true
    }
}

impl Eq for SoFar {}

impl std::hash::Hash for SoFar {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// One option of a decision.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Choice {
    /// R3.1: a checker move.
    Move(Move),
    /// R3.3: use this face-up card.
    Card(CardId),
    /// An answer to the question of the card being resolved.
    Answer(Answer),
    /// Give up the pending step because every one of its options fails
    /// ([`crate::game::GameState::give_up`]). Never among a decision's
    /// options; refused while any option works.
    GiveUp,
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Choice::Move(m) => write!(f, "{m}"),
            Choice::Card(c) => write!(f, "card #{}", c.0),
            Choice::Answer(a) => write!(f, "{a}"),
            Choice::GiveUp => f.write_str(GIVE_UP),
        }
    }
}

/// How [`Choice::GiveUp`] is written in saves and the log.
pub const GIVE_UP: &str = "give up";

/// What the game waits for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DecisionKind {
    Move,
    Card,
    Question,
}

/// The pending decision: who chooses, and the complete list of options.
#[derive(Clone, PartialEq, Debug)]
pub struct Decision {
    pub player: Player,
    pub kind: DecisionKind,
    /// The question's text, for `DecisionKind::Question`.
    pub prompt: Option<String>,
    pub options: Vec<Choice>,
}
