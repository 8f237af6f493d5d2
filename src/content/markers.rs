//! Marker kinds of a modder's own: declared in card manifests
//! (`markers:`), collected for the deck in the order its cards were loaded, and
//! handed to the kernel by index (kernel/marks.rs).

use super::manifest::{MarkerManifest, MarkerPlace};
use super::{CardId, Content};
use crate::kernel::{MAX_MARKER_KINDS, MarkerKind, MarkerRules};

/// Characters a marker's glyph may not be: the diagram already gives them a
/// meaning (checkers, tokens, terrain, the monolith, empty squares, rules),
/// and the marks the REPL adds: `*` (changed lately), `?` (an answer), `x`
/// (closed to moves) and `[ ]` (the last move).
pub const RESERVED_GLYPHS: &str = "dlDLrsh~^#.|-+*?x[]";

/// One marker kind of the loaded content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkerDef {
    pub kind: MarkerKind,
    pub manifest: MarkerManifest,
    /// The first card that declares it.
    pub card: CardId,
}

impl MarkerDef {
    pub fn name(&self) -> &str {
        &self.manifest.name
    }

    pub fn glyph(&self) -> char {
        self.manifest.glyph
    }

    pub fn rules(&self) -> MarkerRules {
        MarkerRules {
            supply: self.manifest.supply,
            rides: self.manifest.on == MarkerPlace::Checker,
            blocks: self.manifest.blocks,
        }
    }
}

/// What is wrong with one declaration on its own, if anything.
pub fn check_declaration(m: &MarkerManifest) -> Option<String> {
    let name = &m.name;
    if name.is_empty()
        || name.len() > 32
        || !name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    {
        return Some(format!("marker name '{name}' must be 1 to 32 of a-z, 0-9 and _"));
    }
    if !m.glyph.is_ascii_graphic() || RESERVED_GLYPHS.contains(m.glyph) {
        return Some(format!(
            "marker '{name}': glyph '{}' must be one printable ASCII character other than {RESERVED_GLYPHS}",
            m.glyph
        ));
    }
    if m.supply == 0 || m.supply > 64 {
        return Some(format!("marker '{name}': supply must be from 1 to 64"));
    }
    None
}

impl Content {
    /// The marker kinds the loaded cards declare, each once, in load order.
    /// Declarations that conflict or exceed the limit are left out (and reported
    /// by [`Content::marker_problems`]).
    pub fn markers(&self) -> Vec<MarkerDef> {
        let mut out: Vec<MarkerDef> = Vec::new();
        for (i, card) in self.cards.iter().enumerate() {
            for m in &card.manifest.markers {
                if out.len() < MAX_MARKER_KINDS
                    && check_declaration(m).is_none()
                    && !out.iter().any(|d| d.name() == m.name || d.glyph() == m.glyph)
                {
                    let kind = MarkerKind(out.len() as u8);
                    out.push(MarkerDef { kind, manifest: m.clone(), card: CardId(i as u16) });
                }
            }
        }
        out
    }

    pub fn marker(&self, name: &str) -> Option<MarkerDef> {
        self.markers().into_iter().find(|d| d.name() == name)
    }

    /// Each problem with the cards' marker declarations, with the card that has
    /// it (the later of two that disagree, which the message says the other of).
    pub fn marker_problems(&self) -> Vec<(CardId, String)> {
        let mut problems = Vec::new();
        let mut kept: Vec<(&str, &MarkerManifest)> = Vec::new();
        for (i, card) in self.cards.iter().enumerate() {
            let card_id = CardId(i as u16);
            for m in &card.manifest.markers {
                if let Some(problem) = check_declaration(m) {
                    problems.push((card_id, problem));
                } else if let Some((other, same)) = kept.iter().find(|(_, k)| k.name == m.name) {
                    if *same != m {
                        let message = format!(
                            "marker '{}' is declared differently by card '{other}' (cards that share a marker kind \
                             declare it alike)",
                            m.name
                        );
                        problems.push((card_id, message));
                    }
                } else if let Some((other, taken)) = kept.iter().find(|(_, k)| k.glyph == m.glyph) {
                    let message = format!(
                        "marker '{}': glyph '{}' is taken by marker '{}' of card '{other}'",
                        m.name, m.glyph, taken.name
                    );
                    problems.push((card_id, message));
                } else if kept.len() == MAX_MARKER_KINDS {
                    problems.push((card_id, format!("a deck may declare at most {MAX_MARKER_KINDS} marker kinds")));
                } else {
                    kept.push((&card.id, m));
                }
            }
        }
        problems
    }
}

impl Content {
    /// The marker kinds as diagrams read and draw them.
    pub fn marker_glyphs(&self) -> Vec<crate::diagram::MarkerGlyph> {
        self.markers().iter().map(|m| crate::diagram::MarkerGlyph { glyph: m.glyph(), rules: m.rules() }).collect()
    }
}
