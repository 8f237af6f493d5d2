//! The one textual form of a choice, written and read the same way by saves,
//! scenarios and the REPL: a move as the kernel writes it (`c3-d4`,
//! `c3xe5xg7`), a card by its id (`water`), an answer as it displays (`d4`,
//! `clockwise`, `c3-d4`). Saves put the kind in front (`card water`,
//! `answer d4`, session.rs). The REPL reads moves and cards through it; it
//! reads moves in the deck's own notation as well (`22-18`, `c3:e5`), and
//! answers as the decider sees them (directions and blocks as drawn for
//! them, repl/mod.rs), and takes an option's number anywhere.

use crate::content::Content;
use crate::game::{Choice, Decision, DecisionKind};
use crate::kernel::{MoveText, ParseError};

/// `choice` in the one textual form.
pub fn write(content: &Content, choice: &Choice) -> String {
    match choice {
        Choice::Card(c) => content.card(*c).map_or_else(|| format!("#{}", c.0), |d| d.id.clone()),
        other => other.to_string(),
    }
}

/// Why a text names no option of a decision.
#[derive(Clone, Debug, PartialEq)]
pub enum Unread {
    /// At a move decision, the text is not a move (the parser's message).
    NotAMove(String),
    /// A move given by start and end that more than one jump chain fits.
    Ambiguous(Vec<Choice>),
    /// Nothing offered is written so.
    NotOffered,
}

/// The option of `decision` that `text` names: in the form [`write`] gives
/// (case aside), a move by its start and end when only one chain fits, or a
/// card by its name.
pub fn read(content: &Content, decision: &Decision, text: &str) -> Result<Choice, Unread> {
    let text = text.trim();
    let options = &decision.options;
    match decision.kind {
        DecisionKind::Move => {
            // In the deck's own notation too (`22-18`, `c3:e5`).
            let wanted: MoveText =
                content.kernel_move_text(text).parse().map_err(|e: ParseError| Unread::NotAMove(e.to_string()))?;
            let mut matching = options.iter().filter(|o| matches!(o, Choice::Move(m) if wanted.matches(m)));
            match (matching.next(), matching.next()) {
                (Some(one), None) => Ok(one.clone()),
                (None, _) => Err(Unread::NotOffered),
                (Some(first), Some(second)) => {
                    let mut all = vec![first.clone(), second.clone()];
                    all.extend(matching.cloned());
                    Err(Unread::Ambiguous(all))
                }
            }
        }
        DecisionKind::Card => {
            let card = content.find_card(text).ok_or(Unread::NotOffered)?;
            options.iter().find(|o| **o == Choice::Card(card)).cloned().ok_or(Unread::NotOffered)
        }
        DecisionKind::Question => {
            options.iter().find(|o| write(content, o).eq_ignore_ascii_case(text)).cloned().ok_or(Unread::NotOffered)
        }
    }
}
