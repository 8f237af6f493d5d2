//! `ctx`'s reading methods: who and when, checkers, squares and terrain, the
//! monolith and walls, counters and piles, and the move helpers.

use mlua::{LuaString, Table, Value};

use super::{ApiBuilder, add, counter_id, legal_moves_for};
use crate::game::GameEvent;
use crate::kernel::{Checker, Colour, Edge, EdgePair, Player, Square};
use crate::script::convert::{block_filter, checker_filter, dir, dirs, move_filter, player, square, square_filter};
use crate::script::memo::Read;
use crate::script::names::{checker_values, list, move_list, names, square_list};
use crate::script::run::{Cx, R, Run, err, read, user, with_run, writing};

/// Lines `ctx:log` keeps from one run, and characters from one line.
const MAX_LOG_LINES: usize = 64;
const MAX_LOG_CHARS: usize = 200;

pub(super) fn register(m: &mut ApiBuilder) {
    // Names come back as interned Lua strings: a string made after the call
    // returns would be made with the memory limit in place, which is slow.
    // Functions that read through `read` (or only `user`) can be replayed by
    // the memo of read-only runs; the others go through `with_run`.
    add(m, "player", |lua, ()| Ok(names(lua).player(user(lua)?)));
    add(m, "opponent", |lua, ()| Ok(names(lua).player(!user(lua)?)));
    add(m, "turn", |lua, ()| read(lua, |s| (s.turn + 1, Read::Turn(s.turn))));
    add(m, "to_move", |lua, ()| Ok(names(lua).player(read(lua, |s| (s.to_move, Read::ToMove(s.to_move)))?)));

    // ---- checkers ----
    // The prelude's ctx turns these values into `{square, owner, kind, ring,
    // snookle, hippo}` tables: Lua builds small tables faster than Rust can.
    add(m, "checker", |lua, sq: String| {
        let sq = square(&sq)?;
        let c = read(lua, |s| {
            let c = s.board.checker(sq);
            (c, Read::Checker(sq, c))
        })?;
        Ok(match c {
            Some(c) => {
                let (square, owner, kind, ring, snookle, hippo) = checker_values(names(lua), sq, &c);
                (Some(square), Some(owner), Some(kind), ring, snookle, hippo)
            }
            None => (None, None, None, false, false, false),
        })
    });
    add(m, "checkers", |lua, filter: Option<Table>| {
        let filter = checker_filter(lua, filter)?;
        let found: Vec<(Square, Checker)> = with_run(lua, |r| {
            let board = &r.state.board;
            Ok(filter.apply(&r.state).filter_map(|sq| Some((sq, board.checker(sq)?))).collect())
        })?;
        let names = names(lua);
        let t = lua.create_table_with_capacity(found.len() * 6, 0)?;
        for (i, (sq, c)) in found.iter().enumerate() {
            let (square, owner, kind, ring, snookle, hippo) = checker_values(names, *sq, c);
            let at = i * 6;
            t.raw_set(at + 1, square)?;
            t.raw_set(at + 2, owner)?;
            t.raw_set(at + 3, kind)?;
            t.raw_set(at + 4, ring)?;
            t.raw_set(at + 5, snookle)?;
            t.raw_set(at + 6, hippo)?;
        }
        Ok(t)
    });
    add(m, "checker_squares", |lua, filter: Option<Table>| {
        let filter = checker_filter(lua, filter)?;
        let set = read(lua, |s| {
            let set = filter.apply(s);
            (set, Read::CheckerSquares(filter, set))
        })?;
        square_list(lua, set)
    });
    add(m, "count", |lua, filter: Option<Table>| {
        let filter = checker_filter(lua, filter)?;
        read(lua, |s| {
            let n = filter.apply(s).count();
            (n, Read::Count(filter, n))
        })
    });
    add(m, "reserve", |lua, p: String| {
        let p = player(&p)?;
        read(lua, |s| {
            let n = s.board.reserve(p);
            (n, Read::Reserve(p, n))
        })
    });

    // ---- squares and terrain ----
    add(m, "is_empty", |lua, sq: String| {
        let sq = square(&sq)?;
        read(lua, |s| {
            let empty = s.board.is_empty(sq);
            (empty, Read::IsEmpty(sq, empty))
        })
    });
    add(m, "squares", |lua, filter: Option<Table>| {
        let filter = square_filter(lua, filter)?;
        let set = read(lua, |s| {
            let set = filter.apply(&s.board);
            (set, Read::Squares(filter, set))
        })?;
        square_list(lua, set)
    });
    add(m, "count_squares", |lua, filter: Option<Table>| {
        let filter = square_filter(lua, filter)?;
        read(lua, |s| {
            let n = filter.apply(&s.board).count();
            (n, Read::CountSquares(filter, n))
        })
    });
    add(m, "terrain", |lua, sq: String| {
        let sq = square(&sq)?;
        let t = read(lua, |s| {
            let t = s.board.terrain_at(sq);
            (t, Read::Terrain(sq, t))
        })?;
        t.map(|t| names(lua).word(lua, t.name())).transpose()
    });
    add(m, "colour", |lua, sq: String| {
        let colour = if square(&sq)?.colour() == Colour::Dark { Player::Dark } else { Player::Light };
        Ok(names(lua).player(colour))
    });
    add(m, "neighbour", |lua, (sq, dir): (String, String)| {
        let next = square(&sq)?.step(self::dir(&dir)?);
        Ok(next.map(|s| names(lua).square(s)))
    });
    add(m, "orientation", |lua, ()| {
        let forward = with_run(lua, |r| Ok(r.state.board.orientation().forward(Player::Dark)))?;
        names(lua).word(lua, forward.name())
    });
    add(m, "supply", |lua, (kind, owner): (String, Option<String>)| {
        with_run(lua, |r| {
            let s = r.state.board.supply();
            Ok(match kind.as_str() {
                "walls" => s.walls[owner.map(|o| player(&o)).transpose()?.unwrap_or(r.user).index()],
                "rings" => s.rings,
                "snookles" => s.snookles,
                "hippos" => s.hippos,
                "water" => s.water,
                "fire" => s.fire,
                "monolith" => s.monolith,
                _ => {
                    return Err(err(format!(
                        "'{kind}' is not in the supply (walls, rings, snookles, hippos, water, fire, monolith)"
                    )));
                }
            })
        })
    });

    // ---- the monolith and walls ----
    add(m, "monolith", |lua, ()| {
        let at = read(lua, |s| (s.board.monolith(), Read::Monolith(s.board.monolith())))?;
        Ok(at.map(|s| names(lua).square(s)))
    });
    add(m, "monolith_squares", |lua, ()| {
        let block = with_run(lua, |r| Ok(r.state.board.monolith_block()))?;
        square_list(lua, block)
    });
    add(m, "monolith_spots", |lua, ()| {
        let spots = with_run(lua, |r| Ok(r.state.board.monolith_spots()))?;
        square_list(lua, spots)
    });
    add(m, "monolith_directions", |lua, ()| {
        let dirs = with_run(lua, |r| Ok(r.state.board.monolith_directions()))?;
        list(lua, dirs)
    });
    add(m, "blocks", |lua, filter: Option<Table>| {
        let filter = block_filter(lua, filter)?;
        let anchors = read(lua, |s| {
            let set = filter.apply(&s.board);
            (set, Read::Blocks(filter, set))
        })?;
        square_list(lua, anchors)
    });
    // Only how many: a check such as Antimatter's `can_play` is then remembered
    // for as long as the number stays the same (memo.rs).
    add(m, "count_blocks", |lua, filter: Option<Table>| {
        let filter = block_filter(lua, filter)?;
        read(lua, |s| {
            let n = filter.apply(&s.board).count();
            (n, Read::CountBlocks(filter, n))
        })
    });
    add(m, "block_squares", |lua, anchor: String| {
        let anchor = square(&anchor)?;
        let block = crate::kernel::block(anchor)
            .ok_or_else(|| err(format!("no 2×2 block has {anchor} as its lower-left square")))?;
        square_list(lua, block)
    });
    add(m, "walls", |lua, owner: Option<String>| {
        let edges: Vec<Edge> = with_run(lua, |r| {
            let owners = match owner {
                Some(o) => vec![player(&o)?],
                None => Player::BOTH.to_vec(),
            };
            let mut edges: Vec<Edge> = owners.iter().flat_map(|&p| r.state.board.walls(p).edges()).collect();
            edges.sort();
            Ok(edges)
        })?;
        list(lua, edges)
    });
    add(m, "count_wall_spots", |lua, ()| with_run(lua, |r| Ok(r.state.board.wall_spots().count())));
    add(m, "wall_spots", |lua, ()| {
        let spots: Vec<_> = with_run(lua, |r| Ok(r.state.board.wall_spots().collect()))?;
        let names = names(lua);
        // Both lists are in `EdgePair::all()` order: walk them together.
        let mut all = EdgePair::all().iter().zip(&names.pairs);
        let spots: Vec<&LuaString> =
            spots.iter().filter_map(|p| all.by_ref().find(|(q, _)| *q == p).map(|(_, name)| name)).collect();
        lua.create_sequence_from(spots)
    });

    // ---- counters, piles, this turn ----
    add(m, "counter", |lua, (p, name): (String, String)| {
        let p = player(&p)?;
        let counter = counter_id(lua, &name)?;
        read(lua, |s| {
            let n = s.counters(p).get(counter);
            (n, Read::Counter(p, counter, n))
        })
    });
    add(m, "piles", |lua, ()| {
        let (draw, face_up, discard) = with_run(lua, |r| {
            r.beyond_position();
            let p = &r.state.piles;
            Ok((p.draw.clone(), p.face_up.clone(), p.discard.clone()))
        })?;
        // Tables of known fields are made with room for them: a table grown
        // one key at a time is resized for each.
        let t = lua.create_table_with_capacity(0, 3)?;
        t.raw_set("draw", card_list(lua, &draw)?)?;
        t.raw_set("face_up", card_list(lua, &face_up)?)?;
        t.raw_set("discard", card_list(lua, &discard)?)?;
        Ok(t)
    });
    add(m, "pile", |lua, name: LuaString| {
        let pile = with_run(lua, |r| pile_named(r, &name).cloned())?;
        card_list(lua, &pile)
    });
    add(m, "count_cards", |lua, name: LuaString| with_run(lua, |r| Ok(pile_named(r, &name)?.len())));
    add(m, "moved", |lua, ()| {
        let moved = with_run(lua, |r| Ok(r.state.moved))?;
        moved
            .map(|m| {
                let t = lua.create_table_with_capacity(0, 2)?;
                t.raw_set("start", names(lua).square(m.start))?;
                t.raw_set("now", names(lua).square(m.now))?;
                Ok(t)
            })
            .transpose()
    });
    add(m, "random", |lua, n: i64| {
        if !(1..=1_000_000).contains(&n) {
            return Err(err("ctx:random(n) needs n from 1 to 1000000"));
        }
        writing(lua, |r| {
            r.beyond_position();
            Ok(r.state.rng.below(n as usize) + 1)
        })
    });
    // At most MAX_LOG_LINES lines a run, the last of them saying that more were
    // left out; a line longer than MAX_LOG_CHARS is cut and ends in "…". Both
    // players read it: `{user}` and `{opponent}` become the players' names.
    // Only the line's first bytes are read (each character is at most four, so
    // they hold more than MAX_LOG_CHARS of them): the host's work does not grow
    // with the string the script chose.
    add(m, "log", |lua, text: mlua::LuaString| {
        let bytes = text.as_bytes();
        let text = String::from_utf8_lossy(&bytes[..bytes.len().min(8 * MAX_LOG_CHARS)]).into_owned();
        with_run(lua, |r| {
            let text = crate::content::with_names(&crate::text::visible(&text), r.user);
            let text = match r.log.len() + 1 {
                n if n < MAX_LOG_LINES && text.chars().count() > MAX_LOG_CHARS => {
                    text.chars().take(MAX_LOG_CHARS - 1).chain(['…']).collect()
                }
                n if n < MAX_LOG_LINES => text,
                MAX_LOG_LINES => "(more messages from this script are left out)".to_string(),
                _ => return Ok(()),
            };
            r.state.journal.push(|| GameEvent::Message { text: text.clone() });
            r.log.push(text);
            Ok(())
        })
    });

    // ---- move helpers ----
    add(m, "legal_moves", |lua, filter: Option<Table>| {
        let filter = move_filter(lua, filter)?;
        let moves = with_run(lua, |r| legal_moves_for(r, filter))?;
        move_list(lua, &moves)
    });
    add(m, "count_moves", |lua, filter: Option<Table>| {
        let filter = move_filter(lua, filter)?;
        with_run(lua, |r| Ok(legal_moves_for(r, filter)?.len()))
    });
    add(m, "step_targets", |lua, (sq, d): (String, Value)| {
        let (sq, d) = (square(&sq)?, dirs(lua, d)?);
        let targets = with_run(lua, |r| Ok(r.state.board.step_targets(sq, &d)))?;
        square_list(lua, targets)
    });
    add(m, "slide_targets", |lua, (sq, d): (String, Value)| {
        let (sq, d) = (square(&sq)?, dirs(lua, d)?);
        let targets = with_run(lua, |r| Ok(r.state.board.slide_targets(sq, &d)))?;
        square_list(lua, targets)
    });
    add(m, "jump_targets", |lua, (sq, d): (String, Value)| {
        let (sq, d) = (square(&sq)?, dirs(lua, d)?);
        let targets = with_run(lua, |r| Ok(r.state.board.jump_targets(sq, &d)))?;
        square_list(lua, targets)
    });
    // The same for every checker a filter picks, in one call: `{[sq] = targets}`
    // for the checkers that have any.
    for (name, jumps) in [("step_targets_of", false), ("jump_targets_of", true)] {
        add(m, name, move |lua, (filter, d): (Option<Table>, Value)| {
            let (filter, d) = (checker_filter(lua, filter)?, dirs(lua, d)?);
            let found: Vec<(Square, Vec<Square>)> = with_run(lua, |r| {
                let board = &r.state.board;
                let targets = |sq| if jumps { board.jump_targets(sq, &d) } else { board.step_targets(sq, &d) };
                Ok(filter.apply(&r.state).map(|sq| (sq, targets(sq))).filter(|(_, t)| !t.is_empty()).collect())
            })?;
            let t = lua.create_table_with_capacity(0, found.len())?;
            for (sq, targets) in found {
                t.raw_set(names(lua).square(sq), square_list(lua, targets)?)?;
            }
            Ok(t)
        });
    }
}

/// The pile `name` names (`draw`, `face_up`, `discard`); reading one takes the
/// run beyond the position (the search shuffles the draw pile).
fn pile_named<'r>(run: &'r mut Run, name: &LuaString) -> R<&'r crate::game::Pile> {
    run.beyond_position();
    let piles = &run.state.piles;
    match name.as_bytes().as_ref() {
        b"draw" => Ok(&piles.draw),
        b"face_up" => Ok(&piles.face_up),
        b"discard" => Ok(&piles.discard),
        _ => Err(err(format!("'{}' is not a pile (draw, face_up, discard)", name.to_string_lossy()))),
    }
}

/// A pile as a list of card ids, from the interned names.
fn card_list(lua: &Cx, cards: &crate::game::Pile) -> R<Table> {
    let names = names(lua);
    let mut ids: Vec<&LuaString> = Vec::with_capacity(cards.len());
    ids.extend(cards.iter().filter_map(|c| names.cards.get(usize::from(c.0))));
    lua.create_sequence_from(ids)
}
