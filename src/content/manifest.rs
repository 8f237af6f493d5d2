//! The YAML manifest formats. Unknown fields and duplicate keys are errors.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

use super::pools::PiecesGo;
use crate::game::{AtMoveLimit, Ends, NoCheckers, RuleOptions, StuckOf, WhenStuck};
use crate::kernel::{Crowning, Movement, StartLayout, Supply};
use crate::plain::Notation;

/// `cards/<id>.yaml` and `planets/<id>.yaml`: what a player reads and where the
/// script is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptManifest {
    /// The name players see, e.g. "Galactic hippo".
    pub name: String,
    /// What the card does, or the planet's victory condition, in the project's words.
    pub text: String,
    /// The rule it implements, e.g. "R8.7".
    #[serde(default)]
    pub rule: Option<String>,
    /// The script file beside the manifest (default `<id>.lua`).
    #[serde(default)]
    pub script: Option<String>,
    /// Rulings this project made where RULES.md is silent.
    #[serde(default)]
    pub rulings: Vec<String>,
    /// For a card that leaves a lasting effect: what the effect does while it is
    /// in force, shown in the REPL's panel (default: the card's `text`).
    #[serde(default)]
    pub effect: Option<String>,
    /// How long the effect lasts, in the card's own words, when the game's
    /// phrase ("for the rest of the game") would mislead: a script that ends
    /// its effect itself says when (Time bomb: "goes off in {fuse} turns").
    /// `{key}` is the effect's data (content::with_effect).
    #[serde(default)]
    pub effect_lasts: Option<String>,
    /// Marker kinds of the modder's own that the card's script uses (markers.rs).
    #[serde(default)]
    pub markers: Vec<MarkerManifest>,
    /// Counters of the modder's own that the script reads or raises (counters.rs).
    #[serde(default)]
    pub counters: Vec<CounterManifest>,
    /// What the deck's supply must hold for it to be possible at all (Neptune
    /// needs three waters): `check` refuses a deck that holds less.
    #[serde(default)]
    pub needs: UniqueMap<u8>,
    /// For a card whose questions show hidden things (Foresight shows the draw
    /// pile): the answers are told to the other player only as "answers in
    /// secret", never by name.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub secret_answers: bool,
}

impl ScriptManifest {
    /// Every text players read, made visible (text.rs).
    pub fn make_visible(&mut self) {
        use crate::text::make_visible;
        make_visible(&mut self.name);
        make_visible(&mut self.text);
        self.counters.iter_mut().for_each(|c| make_visible(&mut c.label));
        self.rule
            .iter_mut()
            .chain(self.effect.iter_mut())
            .chain(self.effect_lasts.iter_mut())
            .chain(self.rulings.iter_mut())
            .for_each(make_visible);
    }
}

/// A marker kind as a card manifest declares it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarkerManifest {
    /// The name scripts and the REPL use, e.g. `ice` (a-z, 0-9 and _).
    pub name: String,
    /// The one character that draws it on the board and in scenario diagrams.
    pub glyph: char,
    /// How many the supply holds.
    pub supply: u8,
    /// `square` (it stays on its square) or `checker` (it rides on a checker).
    pub on: MarkerPlace,
    /// Whether no checker may move onto its square.
    #[serde(default)]
    pub blocks: bool,
}

/// A counter as a manifest declares it: kept per player, only growing, shown
/// in the panel under its label.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterManifest {
    /// The name scripts use, e.g. `pawns_revived` (a-z, 0-9 and _).
    pub name: String,
    /// What the panel calls it, e.g. "pawns revived".
    pub label: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MarkerPlace {
    Square,
    Checker,
}

pub type CardManifest = ScriptManifest;
pub type PlanetManifest = ScriptManifest;

/// `cards/decks/<name>.yaml`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeckManifest {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Card id → number of copies (R1.6).
    #[serde(default)]
    pub cards: UniqueMap<u32>,
    /// Planet ids in the planet deck (R1.6).
    #[serde(default)]
    pub planets: Vec<String>,
    /// The token supply (R1.5).
    #[serde(default)]
    pub supply: SupplyManifest,
    pub rules: RulesManifest,
    /// The deck's own rules: cards (by id, in `cards/`) whose lasting effects
    /// are in force from the deal, for the whole game, for both players. They
    /// are not in the draw pile.
    #[serde(default)]
    pub effects: Vec<RuleEntry>,
    /// Counters the deck's rules read or raise (counters.rs).
    #[serde(default)]
    pub counters: Vec<CounterManifest>,
    /// Things the deck deals besides checkers (items.rs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<super::items::ItemsManifest>,
    /// Where items are kept, and who sees them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<super::items::ZoneManifest>,
}

impl DeckManifest {
    /// Every text players read, made visible (text.rs): the deck's name and
    /// description, its counters' labels and its sides' names.
    pub fn make_visible(&mut self) {
        use crate::text::make_visible;
        make_visible(&mut self.name);
        make_visible(&mut self.description);
        self.counters.iter_mut().for_each(|c| make_visible(&mut c.label));
        if let Some(n) = &mut self.rules.notation {
            n.sides.iter_mut().flatten().for_each(make_visible);
            if let Some(p) = &mut n.pieces {
                [&mut p.pawn, &mut p.pawns, &mut p.king, &mut p.kings].into_iter().for_each(make_visible);
            }
        }
    }
}

/// One entry of a deck's `effects:`: a card id (`first_blood`), or a map that
/// also says for whom its handlers act (`{card: spc_rules, acts_for: mover}`).
/// Written back as it was read: an id alone when it acts for Dark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleEntry {
    pub card: String,
    pub acts_for: RuleActsFor,
}

/// For whom a deck rule's handlers act: `dark`, who holds every deck rule
/// (the default), or `mover`, the player whose turn the event happened in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleActsFor {
    #[default]
    Dark,
    Mover,
}

impl RuleEntry {
    pub fn acts_for(&self) -> crate::game::ActsFor {
        match self.acts_for {
            RuleActsFor::Dark => crate::game::ActsFor::Owner,
            RuleActsFor::Mover => crate::game::ActsFor::Mover,
        }
    }
}

/// The map form of [`RuleEntry`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleMap {
    card: String,
    #[serde(default)]
    acts_for: RuleActsFor,
}

impl Serialize for RuleEntry {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.acts_for {
            RuleActsFor::Dark => s.serialize_str(&self.card),
            acts_for => RuleMap { card: self.card.clone(), acts_for }.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for RuleEntry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct EntryVisitor;
        impl<'de> Visitor<'de> for EntryVisitor {
            type Value = RuleEntry;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a card id, or a map such as {card: my_rule, acts_for: mover}")
            }
            fn visit_str<E: de::Error>(self, card: &str) -> Result<RuleEntry, E> {
                Ok(RuleEntry { card: card.to_string(), acts_for: RuleActsFor::Dark })
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RuleEntry, A::Error> {
                let RuleMap { card, acts_for } = RuleMap::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(RuleEntry { card, acts_for })
            }
        }
        d.deserialize_any(EntryVisitor)
    }
}

/// R1.5 as written in a deck: walls are per player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SupplyManifest {
    pub walls: u8,
    pub rings: u8,
    pub snookles: u8,
    pub water: u8,
    pub fire: u8,
    pub hippos: u8,
    pub monolith: u8,
}

impl SupplyManifest {
    pub fn from_supply(s: &Supply) -> SupplyManifest {
        SupplyManifest {
            walls: s.walls[0],
            rings: s.rings,
            snookles: s.snookles,
            water: s.water,
            fire: s.fire,
            hippos: s.hippos,
            monolith: s.monolith,
        }
    }

    pub fn to_supply(self) -> Supply {
        Supply {
            walls: [self.walls; 2],
            rings: self.rings,
            snookles: self.snookles,
            water: self.water,
            fire: self.fire,
            hippos: self.hippos,
            monolith: self.monolith,
        }
    }
}

fn notation_or_default<S: serde::Serializer>(n: &Option<Notation>, s: S) -> Result<S::Ok, S::Error> {
    n.clone().unwrap_or_default().serialize(s)
}

/// A deck's rule options (R6, R10.4, R11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesManifest {
    /// `from_reserve` (R6) or `free` (R11).
    pub crowning: Crowning,
    /// Whether turns have the draw and card steps.
    pub cards: bool,
    pub five_kings_win: bool,
    /// `skip` (R3.1, R10.3) or `lose` (R11); given here or by `ends: stuck:`,
    /// not both (checked when the deck loads).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when_stuck: Option<WhenStuck>,
    /// R10.4: turns in all before a draw, 1 to `MAX_MOVE_LIMIT`; given here or
    /// by `ends: move_limit:`, not both (checked when the deck loads).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_limit: Option<u32>,
    /// Whether Dark's first turn has its card step (default true); false is a
    /// handicap for the side that moves first.
    #[serde(default = "yes")]
    pub first_card_step: bool,
    /// How checkers move (default: R4, American checkers).
    #[serde(default)]
    pub moves: Movement,
    /// Where the checkers stand at the start (default: R2.1).
    #[serde(default)]
    pub start: StartLayout,
    /// How positions of this deck are written (FEN, square numbers); given,
    /// the table speaks it too (side and piece names, moves). Absent, R11's
    /// notation (written out as such) and the table's own names.
    #[serde(default, serialize_with = "notation_or_default")]
    pub notation: Option<Notation>,
    /// The players' piece pools by name, the reserve first (pools.rs;
    /// default: `reserve` alone).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pools: Vec<String>,
    /// Whose pool of which the pieces of a checker leaving the board go to.
    #[serde(default, skip_serializing_if = "is_default")]
    pub pieces_go: PiecesGo,
    /// What a piece in each pool after the reserve is worth to its holder, in
    /// pawns, for the computer (pools.rs; default 0).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub pool_worth: std::collections::BTreeMap<String, u8>,
    /// The ends the deck makes its own (cards/README.md, "Endings as deck rules").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ends: Option<EndsManifest>,
    /// The reasons a deck's rule may end the game with: its verdicts'
    /// and `ctx:end_game`'s.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub victories: Vec<String>,
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// `rules: ends:`: each key left out is R10's own end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndsManifest {
    /// `lose` (R10.1) or `score`.
    #[serde(default)]
    pub no_checkers: NoCheckers,
    #[serde(default)]
    pub stuck: Option<StuckManifest>,
    #[serde(default)]
    pub move_limit: Option<MoveLimitManifest>,
    /// `repetition: {times: N}`: the same position met N times draws.
    #[serde(default)]
    pub repetition: Option<RepetitionManifest>,
    /// `kings_only: {turns: N}`: N turns in a row with only kings moved draw.
    #[serde(default)]
    pub kings_only: Option<KingsOnlyManifest>,
}

/// `repetition: {times: N}` (2 to [`MAX_REPETITION`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RepetitionManifest {
    pub times: u8,
}

/// Most times a deck may ask the same position to be met before the draw.
pub const MAX_REPETITION: u8 = 9;

/// `kings_only: {turns: N}`: both players' turns count, so a rule of "15
/// moves" by each player is 30 turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KingsOnlyManifest {
    pub turns: u16,
}

/// `stuck: {of: mover | either, then: skip | lose | score}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StuckManifest {
    #[serde(default)]
    pub of: StuckOf,
    pub then: WhenStuck,
}

/// `move_limit: {turns: N, then: draw | score}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveLimitManifest {
    pub turns: u32,
    #[serde(default)]
    pub then: AtMoveLimit,
}

fn yes() -> bool {
    true
}

impl RulesManifest {
    pub fn options(&self) -> RuleOptions {
        let ends = self.ends.unwrap_or_default();
        let stuck = self.stuck();
        RuleOptions {
            cards: self.cards,
            five_kings_win: self.five_kings_win,
            when_stuck: stuck.then,
            move_limit: self.limit().turns,
            first_card_step: self.first_card_step,
            ends: Ends {
                no_checkers: ends.no_checkers,
                stuck_of: stuck.of,
                at_move_limit: self.limit().then,
                repetition: ends.repetition.map_or(0, |r| r.times),
                kings_only: ends.kings_only.map_or(0, |k| k.turns),
            },
        }
    }

    /// What a player with no move does: `ends: stuck:`, else `when_stuck`
    /// (of the player to move; `skip` if neither is given, which loading refuses).
    pub fn stuck(&self) -> StuckManifest {
        match self.ends.and_then(|e| e.stuck) {
            Some(stuck) => stuck,
            None => StuckManifest { of: StuckOf::Mover, then: self.when_stuck.unwrap_or(WhenStuck::Skip) },
        }
    }

    /// The move limit: `ends: move_limit:`, else `move_limit` (a draw; 0 if
    /// neither is given, which loading refuses).
    pub fn limit(&self) -> MoveLimitManifest {
        match self.ends.and_then(|e| e.move_limit) {
            Some(limit) => limit,
            None => MoveLimitManifest { turns: self.move_limit.unwrap_or(0), then: AtMoveLimit::Draw },
        }
    }
}

/// A string-keyed map that keeps its keys in file order and rejects a key
/// written twice (serde_yaml would silently keep the last).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UniqueMap<V>(pub Vec<(String, V)>);

impl<V> Default for UniqueMap<V> {
    fn default() -> Self {
        UniqueMap(Vec::new())
    }
}

impl<V> UniqueMap<V> {
    pub fn iter(&self) -> impl Iterator<Item = (&String, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for UniqueMap<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct UniqueVisitor<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for UniqueVisitor<V> {
            type Value = UniqueMap<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map of names to values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries: Vec<(String, V)> = Vec::new();
                let mut seen = std::collections::BTreeSet::new();
                while let Some(key) = map.next_key::<String>()? {
                    if !seen.insert(key.clone()) {
                        return Err(de::Error::custom(format!("duplicate key '{key}'")));
                    }
                    let value = map.next_value()?;
                    entries.push((key, value));
                }
                Ok(UniqueMap(entries))
            }
        }
        d.deserialize_map(UniqueVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::super::problem::{YamlError, parse_yaml};
    use super::*;

    #[test]
    fn duplicate_keys_unknown_fields_and_types_are_located() {
        let dup = "name: x\nrules: {crowning: free, cards: false, five_kings_win: false, when_stuck: lose, move_limit: 0}\ncards:\n  water: 1\n  water: 2\n";
        let YamlError { line, message: msg, .. } = parse_yaml::<DeckManifest>(dup).unwrap_err();
        assert!(msg.contains("duplicate key 'water'"), "{msg}");
        assert!(line >= 4, "line {line}");
        let YamlError { line, column: col, message: msg } =
            parse_yaml::<CardManifest>("name: Water\ntext: t\ncolour: blue\n").unwrap_err();
        assert!(msg.contains("unknown field `colour`"), "{msg}");
        assert_eq!((line, col), (3, 1));
        let YamlError { line, message: msg, .. } =
            parse_yaml::<CardManifest>("name: Water\nname: Fire\ntext: t\n").unwrap_err();
        assert!(msg.contains("duplicate field `name`"), "{msg}");
        assert_eq!(line, 2);
        let YamlError { message: msg, .. } = parse_yaml::<SupplyManifest>(
            "walls: many\nrings: 1\nsnookles: 1\nwater: 1\nfire: 1\nhippos: 1\nmonolith: 1\n",
        )
        .unwrap_err();
        assert!(msg.contains("walls"), "{msg}");
    }
}
