//! `ctx`'s queries: who and when, checkers, squares and terrain, the monolith
//! and walls, counters and piles, the move helpers, and the data of the
//! running effect or planet. Each reads the state only (ctx/mod.rs, [`query`]).

use mlua::{LuaString, Table, Value};

use super::{
    ApiBuilder, Sees, Shape, counter_id, handler_effect, legal_moves_for, marker_kind, pool_index, pure, query,
    run_kind, shaped_query,
};
use crate::game::{CardId, CounterId, Data, Moved, Pile, Piles, Position};
use crate::kernel::{Checker, Colour, Dir, Edge, EdgePair, MarkerKind, Move, Player, Square, Terrain, Token};
use crate::script::ScriptError;
use crate::script::convert::{
    MoveFilter, block_filter, checker_filter, dir, dirs, move_filter, player, square, square_filter, token,
};
use crate::script::lasting::data_to_lua;
use crate::script::memo::{BlockFilter, CheckerFilter, SquareFilter};
use crate::script::names::{checker_values, list, move_list, names, square_list};
use crate::script::run::{Cx, R, RunKind, current, err, user};

/// The arguments of a query that takes none.
fn none(_: &Cx, _: ()) -> R<()> {
    Ok(())
}

/// Returns a value as it is.
fn same<T>(_: &Cx, value: T) -> R<T> {
    Ok(value)
}

fn one_square(_: &Cx, sq: String) -> R<Square> {
    square(&sq)
}

pub(super) fn register(m: &mut ApiBuilder) {
    // Names come back as interned Lua strings: a string made after the call
    // returns would be made with the memory limit in place, which is slow.
    pure(m, "player", |lua, ()| Ok(names(lua).player(user(lua)?)));
    pure(m, "opponent", |lua, ()| Ok(names(lua).player(!user(lua)?)));
    // One base everywhere: the first turn is 1, in events and scenarios too.
    query(m, "turn", Sees::Position, none, |s, _, _| s.turn + 1, same);
    query(m, "to_move", Sees::Position, none, |s, _, _| s.to_move, |lua, p| Ok(names(lua).player(p)));

    // ---- checkers ----
    // The prelude's ctx turns these values into `{square, owner, kind, ring,
    // snookle, hippo}` tables: Lua builds small tables faster than Rust can.
    shaped_query(
        m,
        "checker",
        Sees::Position,
        Shape::Checker,
        one_square,
        |s, _, sq: &Square| s.board.checker(*sq).map(|c| (*sq, c)),
        |lua, found: Option<(Square, Checker)>| {
            Ok(match found {
                Some((sq, c)) => {
                    let (square, owner, kind, ring, snookle, hippo, id) = checker_values(names(lua), sq, &c);
                    (Some(square), Some(owner), Some(kind), ring, snookle, hippo, id)
                }
                None => (None, None, None, false, false, false, 0),
            })
        },
    );
    shaped_query(
        m,
        "checkers",
        Sees::Position,
        Shape::Checkers,
        |lua, filter: Option<Table>| checker_filter(lua, filter),
        |s, _, filter: &CheckerFilter| -> Vec<(Square, Checker)> {
            filter.apply(s).filter_map(|sq| Some((sq, s.board.checker(sq)?))).collect()
        },
        |lua, found: Vec<(Square, Checker)>| {
            let names = names(lua);
            let t = lua.create_table_with_capacity(found.len() * 7, 0)?;
            for (i, (sq, c)) in found.iter().enumerate() {
                let (square, owner, kind, ring, snookle, hippo, id) = checker_values(names, *sq, c);
                let at = i * 7;
                t.raw_set(at + 1, square)?;
                t.raw_set(at + 2, owner)?;
                t.raw_set(at + 3, kind)?;
                t.raw_set(at + 4, ring)?;
                t.raw_set(at + 5, snookle)?;
                t.raw_set(at + 6, hippo)?;
                t.raw_set(at + 7, id)?;
            }
            Ok(t)
        },
    );
    query(
        m,
        "find_checker",
        Sees::Position,
        |_, id: i64| {
            u8::try_from(id)
                .ok()
                .filter(|&id| id != 0)
                .ok_or_else(|| err(format!("{id} is not a checker's number (1 to 255)")))
        },
        |s, _, id: &u8| s.board.find_checker(*id),
        |lua, found: Option<Square>| Ok(found.map(|sq| names(lua).square(sq))),
    );
    query(
        m,
        "checker_squares",
        Sees::Position,
        |lua, filter: Option<Table>| checker_filter(lua, filter),
        |s, _, filter: &CheckerFilter| filter.apply(s),
        square_list,
    );
    query(
        m,
        "count",
        Sees::Position,
        |lua, filter: Option<Table>| checker_filter(lua, filter),
        |s, _, filter: &CheckerFilter| filter.apply(s).count(),
        same,
    );
    query(m, "reserve", Sees::Position, |_, p: String| player(&p), |s, _, p| s.board.reserve(*p), same);
    query(
        m,
        "pool",
        Sees::Position,
        |cx, (p, name): (String, String)| Ok((player(&p)?, pool_index(cx, &name)?)),
        |s, _, (p, pool): &(Player, usize)| s.board.pool(*p, *pool),
        same,
    );

    // ---- squares and terrain ----
    query(m, "is_empty", Sees::Position, one_square, |s, _, sq| s.board.is_empty(*sq), same);
    query(
        m,
        "squares",
        Sees::Position,
        |lua, filter: Option<Table>| square_filter(lua, filter),
        |s, _, filter: &SquareFilter| filter.apply(&s.board),
        square_list,
    );
    query(
        m,
        "count_squares",
        Sees::Position,
        |lua, filter: Option<Table>| square_filter(lua, filter),
        |s, _, filter: &SquareFilter| filter.apply(&s.board).count(),
        same,
    );
    query(
        m,
        "terrain",
        Sees::Position,
        one_square,
        |s, _, sq| s.board.terrain_at(*sq),
        |lua, t: Option<Terrain>| t.map(|t| names(lua).word(lua, t.name())).transpose(),
    );
    pure(m, "colour", |lua, sq: String| {
        let colour = if square(&sq)?.colour() == Colour::Dark { Player::Dark } else { Player::Light };
        Ok(names(lua).player(colour))
    });
    pure(m, "neighbour", |lua, (sq, dir): (String, String)| {
        let next = square(&sq)?.step(self::dir(&dir)?);
        Ok(next.map(|s| names(lua).square(s)))
    });
    query(
        m,
        "orientation",
        Sees::Position,
        none,
        |s, _, _| s.board.orientation().forward(Player::Dark),
        |lua, forward: Dir| names(lua).word(lua, forward.name()),
    );
    query(
        m,
        "supply",
        Sees::Position,
        |_, (kind, owner): (String, Option<String>)| Ok((supply_kind(&kind)?, owner.map(|o| player(&o)).transpose()?)),
        |s, user, (kind, owner): &(SupplyKind, Option<Player>)| {
            let supply = s.board.supply();
            match kind {
                SupplyKind::Walls => supply.walls[owner.unwrap_or(user).index()],
                SupplyKind::Rings => supply.rings,
                SupplyKind::Snookles => supply.snookles,
                SupplyKind::Hippos => supply.hippos,
                SupplyKind::Water => supply.water,
                SupplyKind::Fire => supply.fire,
                SupplyKind::Monolith => supply.monolith,
            }
        },
        same,
    );

    // ---- the monolith and walls ----
    query(
        m,
        "monolith",
        Sees::Position,
        none,
        |s, _, _| s.board.monolith(),
        |lua, at: Option<Square>| Ok(at.map(|s| names(lua).square(s))),
    );
    query(m, "monolith_squares", Sees::Position, none, |s, _, _| s.board.monolith_block(), square_list);
    query(m, "monolith_spots", Sees::Position, none, |s, _, _| s.board.monolith_spots(), square_list);
    query(
        m,
        "monolith_directions",
        Sees::Position,
        none,
        |s, _, _| s.board.monolith_directions(),
        |lua, d| list(lua, d),
    );
    query(
        m,
        "blocks",
        Sees::Position,
        |lua, filter: Option<Table>| block_filter(lua, filter),
        |s, _, filter: &BlockFilter| filter.apply(&s.board),
        square_list,
    );
    // Only how many: a check such as Antimatter's `can_play` is then remembered
    // for as long as the number stays the same (memo.rs).
    query(
        m,
        "count_blocks",
        Sees::Position,
        |lua, filter: Option<Table>| block_filter(lua, filter),
        |s, _, filter: &BlockFilter| filter.apply(&s.board).count(),
        same,
    );
    pure(m, "block_squares", |lua, anchor: String| {
        let anchor = square(&anchor)?;
        let block = crate::kernel::block(anchor)
            .ok_or_else(|| err(format!("no 2×2 block has {anchor} as its lower-left square")))?;
        square_list(lua, block)
    });
    query(
        m,
        "walls",
        Sees::Position,
        |_, owner: Option<String>| owner.map(|o| player(&o)).transpose(),
        |s, _, owner: &Option<Player>| {
            let owners = owner.map_or(Player::BOTH.to_vec(), |o| vec![o]);
            let mut edges: Vec<Edge> = owners.iter().flat_map(|&p| s.board.walls(p).edges()).collect();
            edges.sort();
            edges
        },
        |lua, edges| list(lua, edges),
    );
    // Whether walls stand in the way of one step from `sq` towards `dir`:
    // of `mover`'s checker (the other player's walls, R5.3-R5.6), or, with no
    // player named, of anything (either player's walls, as for the monolith's
    // push, R7.4). The board's edge is not a wall (`neighbour` tells that).
    query(
        m,
        "wall_blocks",
        Sees::Position,
        |_, (sq, dir, mover): (String, String, Option<String>)| {
            Ok((square(&sq)?, self::dir(&dir)?, mover.map(|p| player(&p)).transpose()?))
        },
        |s, _, (sq, dir, mover): &(Square, Dir, Option<Player>)| {
            let blocked = match mover {
                Some(p) => s.board.blocked_for(*p, *dir),
                None => s.board.blocked_by_any(*dir),
            };
            blocked.contains(*sq)
        },
        same,
    );
    query(m, "count_wall_spots", Sees::Position, none, |s, _, _| s.board.wall_spots().count(), same);
    query(
        m,
        "wall_spots",
        Sees::Position,
        none,
        |s, _, _| s.board.wall_spots().collect::<Vec<EdgePair>>(),
        |lua, spots| {
            let names = names(lua);
            // Both lists are in `EdgePair::all()` order: walk them together.
            let mut all = EdgePair::all().iter().zip(&names.pairs);
            let spots: Vec<&LuaString> =
                spots.iter().filter_map(|p| all.by_ref().find(|(q, _)| *q == p).map(|(_, name)| name)).collect();
            lua.create_sequence_from(spots)
        },
    );
    query(
        m,
        "can_take_token",
        Sees::Position,
        |_, (sq, t): (String, String)| Ok((square(&sq)?, token(&t)?)),
        |s, _, (sq, t): &(Square, Token)| s.board.can_take_token(*sq, *t),
        same,
    );

    // ---- counters, piles, this turn ----
    query(
        m,
        "counter",
        Sees::Position,
        |lua, (p, name): (String, String)| Ok((player(&p)?, counter_id(lua, &name)?)),
        |s, _, (p, counter): &(Player, CounterId)| s.counters(*p).get(*counter),
        same,
    );
    query(
        m,
        "piles",
        Sees::Hidden,
        none,
        |s, _, _| s.piles().clone(),
        |lua, piles: Piles| {
            // Tables of known fields are made with room for them: a table grown
            // one key at a time is resized for each.
            let t = lua.create_table_with_capacity(0, 3)?;
            t.raw_set("draw", card_list(lua, &piles.draw)?)?;
            t.raw_set("face_up", card_list(lua, &piles.face_up)?)?;
            t.raw_set("discard", card_list(lua, &piles.discard)?)?;
            Ok(t)
        },
    );
    query(
        m,
        "pile",
        Sees::Hidden,
        |_, name: LuaString| pile_named(&name),
        |s, _, pile| pile.of(s.piles()).clone(),
        |lua, pile: Pile| card_list(lua, &pile),
    );
    query(
        m,
        "count_cards",
        Sees::Hidden,
        |_, name: LuaString| pile_named(&name),
        |s, _, pile| pile.of(s.piles()).len(),
        same,
    );
    query(
        m,
        "moved",
        Sees::Position,
        none,
        |s, _, _| s.moved,
        |lua, moved: Option<Moved>| {
            moved
                .map(|m| {
                    let t = lua.create_table_with_capacity(0, 2)?;
                    t.raw_set("start", names(lua).square(m.start))?;
                    t.raw_set("now", names(lua).square(m.now))?;
                    Ok(t)
                })
                .transpose()
        },
    );

    // ---- move helpers ----
    query(
        m,
        "legal_moves",
        Sees::Position,
        |lua, filter: Option<Table>| move_filter(lua, filter),
        |s, user, filter: &MoveFilter| legal_moves_for(s, user, *filter).map_err(|e| ScriptError::new(e.to_string())),
        |lua, moves: Result<Vec<Move>, ScriptError>| move_list(lua, &moves.map_err(err)?),
    );
    query(
        m,
        "count_moves",
        Sees::Position,
        |lua, filter: Option<Table>| move_filter(lua, filter),
        |s, user, filter: &MoveFilter| {
            legal_moves_for(s, user, *filter).map(|m| m.len()).map_err(|e| ScriptError::new(e.to_string()))
        },
        |_, n: Result<usize, ScriptError>| n.map_err(err),
    );
    for (name, targets) in [
        ("step_targets", step_targets as fn(&Position, Player, &(Square, Vec<Dir>)) -> Vec<Square>),
        ("slide_targets", |s, _, (sq, d)| s.board.slide_targets(*sq, d)),
        ("jump_targets", |s, _, (sq, d)| s.board.jump_targets(*sq, d)),
    ] {
        query(
            m,
            name,
            Sees::Position,
            |lua, (sq, d): (String, Value)| Ok((square(&sq)?, dirs(lua, d)?)),
            targets,
            |lua, targets: Vec<Square>| square_list(lua, targets),
        );
    }
    // The same for every checker a filter picks, in one call: `{[sq] = targets}`
    // for the checkers that have any.
    for (name, targets) in [
        ("step_targets_of", step_targets_of as fn(&Position, Player, &(CheckerFilter, Vec<Dir>)) -> Targets),
        ("jump_targets_of", |s, _, (filter, d)| {
            filter.apply(s).map(|sq| (sq, s.board.jump_targets(sq, d))).filter(|(_, t)| !t.is_empty()).collect()
        }),
    ] {
        query(
            m,
            name,
            Sees::Position,
            |lua, (filter, d): (Option<Table>, Value)| Ok((checker_filter(lua, filter)?, dirs(lua, d)?)),
            targets,
            |lua, found: Targets| {
                let t = lua.create_table_with_capacity(0, found.len())?;
                for (sq, targets) in found {
                    t.raw_set(names(lua).square(sq), square_list(lua, targets)?)?;
                }
                Ok(t)
            },
        );
    }

    // ---- markers of the deck's own kinds (content/markers.rs) ----
    query(
        m,
        "markers",
        Sees::Position,
        |lua, name: String| marker_kind(lua, &name),
        |s, _, kind: &MarkerKind| s.board.marks().at(*kind),
        square_list,
    );
    query(
        m,
        "has_marker",
        Sees::Position,
        |lua, (name, sq): (String, String)| Ok((marker_kind(lua, &name)?, square(&sq)?)),
        |s, _, (kind, sq): &(MarkerKind, Square)| s.board.marks().at(*kind).contains(*sq),
        same,
    );
    query(
        m,
        "markers_left",
        Sees::Position,
        |lua, name: String| marker_kind(lua, &name),
        |s, _, kind: &MarkerKind| s.board.marks().supply[usize::from(kind.0)],
        same,
    );

    // ---- the running effect's or planet's own data ----
    query(
        m,
        "effect_data",
        Sees::Position,
        |lua, ()| current(lua, |r| handler_effect(r)),
        |s, _, id: &u32| s.effect(*id).map(|e| e.data.clone()).unwrap_or_default(),
        |lua, data: Data| data_to_lua(lua, &data),
    );
    query(
        m,
        "planet_data",
        Sees::Hidden,
        |lua, ()| match run_kind(lua)? {
            RunKind::Planet | RunKind::PlanetHandler(_) => Ok(()),
            _ => Err(err("only a planet's script can read its planet's data")),
        },
        |s, user, _| s.planet_data().of(user).clone(),
        |lua, data: Data| data_to_lua(lua, &data),
    );
}

/// Each checker's targets, for the checkers that have any.
type Targets = Vec<(Square, Vec<Square>)>;

fn step_targets(s: &Position, _: Player, (sq, d): &(Square, Vec<Dir>)) -> Vec<Square> {
    s.board.step_targets(*sq, d)
}

fn step_targets_of(s: &Position, _: Player, (filter, d): &(CheckerFilter, Vec<Dir>)) -> Targets {
    filter.apply(s).map(|sq| (sq, s.board.step_targets(sq, d))).filter(|(_, t)| !t.is_empty()).collect()
}

/// Declares [`SupplyKind`] and its names ([`SUPPLY_KINDS`]) from one list.
macro_rules! supply_kinds {
    ($($kind:ident = $name:literal,)*) => {
        /// What `ctx:supply` counts.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum SupplyKind {
            $($kind,)*
        }

        /// Each kind in the supply by the name scripts give it.
        const SUPPLY_KINDS: &[(&str, SupplyKind)] = &[$(($name, SupplyKind::$kind),)*];
    };
}

supply_kinds! {
    Walls = "walls",
    Rings = "rings",
    Snookles = "snookles",
    Hippos = "hippos",
    Water = "water",
    Fire = "fire",
    Monolith = "monolith",
}

fn supply_kind(kind: &str) -> R<SupplyKind> {
    match SUPPLY_KINDS.iter().find(|(name, _)| *name == kind) {
        Some(&(_, found)) => Ok(found),
        None => {
            let names: Vec<&str> = SUPPLY_KINDS.iter().map(|(name, _)| *name).collect();
            Err(err(format!("'{kind}' is not in the supply ({})", names.join(", "))))
        }
    }
}

/// One of the three piles (R2.4, R3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PileName {
    Draw,
    FaceUp,
    Discard,
}

impl PileName {
    fn of(self, piles: &Piles) -> &Pile {
        match self {
            PileName::Draw => &piles.draw,
            PileName::FaceUp => &piles.face_up,
            PileName::Discard => &piles.discard,
        }
    }
}

/// The pile `name` names (`draw`, `face_up`, `discard`).
fn pile_named(name: &LuaString) -> R<PileName> {
    match name.as_bytes().as_ref() {
        b"draw" => Ok(PileName::Draw),
        b"face_up" => Ok(PileName::FaceUp),
        b"discard" => Ok(PileName::Discard),
        _ => Err(err(format!("'{}' is not a pile (draw, face_up, discard)", name.to_string_lossy()))),
    }
}

/// A pile as a list of card ids, from the interned names.
fn card_list(lua: &Cx, cards: &[CardId]) -> R<Table> {
    let names = names(lua);
    let mut ids: Vec<&LuaString> = Vec::with_capacity(cards.len());
    ids.extend(cards.iter().filter_map(|c| names.cards.get(usize::from(c.0))));
    lua.create_sequence_from(ids)
}
