//! `ctx`'s operations: each goes through a kernel or game operation that
//! enforces the rules (a refusal is an error), then lasting effects and markers.

use mlua::Table;

use super::{ApiBuilder, acting_card, add, counter_id, direction, handler_effect, legal_moves_for, marker_kind};
use crate::game::{Constraint, Effect, GameEvent, check_data};
use crate::kernel::{Edge, EdgePair, MoveText, Removal, Rotation};
use crate::script::convert::{card_ids, dir, move_filter, player, rule, square, squares_of, terrain, token};
use crate::script::lasting::{EffectSpec, data_of, data_to_lua, effect_spec};
use crate::script::memo::Read;
use crate::script::names::{names, square_list};
use crate::script::run::{RunKind, bound, current, err, read, with_run, writing};

pub(super) fn register(m: &mut ApiBuilder) {
    // ---- operations (each enforces the rules; a refusal is an error) ----
    add(m, "place_terrain", |lua, (sq, t): (String, String)| {
        writing(lua, |r| rule(r.state.board.place_terrain(square(&sq)?, terrain(&t)?, &mut r.state.journal)))
    });
    add(m, "remove_terrain", |lua, sq: String| {
        let t = writing(lua, |r| rule(r.state.board.remove_terrain(square(&sq)?, &mut r.state.journal)))?;
        names(lua).word(lua, t.name())
    });
    add(m, "put_token", |lua, (sq, t): (String, String)| {
        writing(lua, |r| rule(r.state.board.put_token(square(&sq)?, token(&t)?, &mut r.state.journal)))
    });
    add(m, "remove_token", |lua, (sq, t): (String, String)| {
        writing(lua, |r| rule(r.state.board.remove_token(square(&sq)?, token(&t)?, &mut r.state.journal)))
    });
    add(m, "can_take_token", |lua, (sq, t): (String, String)| {
        with_run(lua, |r| Ok(r.state.board.can_take_token(square(&sq)?, token(&t)?)))
    });
    add(m, "remove_checker", |lua, sq: String| {
        writing(lua, |r| {
            rule(r.state.board.remove_checker(square(&sq)?, Removal::Card, &mut r.state.journal)).map(|_| ())
        })
    });
    add(m, "place_from_reserve", |lua, sq: String| {
        writing(lua, |r| rule(r.state.board.place_from_reserve(r.user, square(&sq)?, &mut r.state.journal)))
    });
    add(m, "relocate", |lua, (from, to): (String, String)| {
        writing(lua, |r| rule(r.state.board.relocate(square(&from)?, square(&to)?, &mut r.state.journal)))
    });
    add(m, "crown", |lua, sq: String| {
        writing(lua, |r| rule(r.state.board.crown_pawn(square(&sq)?, &mut r.state.journal)))
    });
    add(m, "make_emperor", |lua, (pawn, king): (String, String)| {
        writing(lua, |r| rule(r.state.board.make_emperor(square(&pawn)?, square(&king)?, &mut r.state.journal)))
    });
    add(m, "place_monolith", |lua, sq: String| {
        writing(lua, |r| rule(r.state.board.place_monolith(square(&sq)?, &mut r.state.journal)))
    });
    add(m, "move_monolith", |lua, dir: String| {
        let report = writing(lua, |r| rule(r.state.board.move_monolith(self::dir(&dir)?, &mut r.state.journal)))?;
        let t = lua.create_table_with_capacity(0, 2)?;
        t.raw_set("removed", square_list(lua, report.removed)?)?;
        t.raw_set("pushed", report.pushed.len())?;
        Ok(t)
    });
    add(m, "monolith_blocked", |lua, ()| writing(lua, |r| rule(r.state.board.monolith_stays(&mut r.state.journal))));
    add(m, "place_walls", |lua, pair: String| {
        writing(lua, |r| rule(r.state.board.place_walls(r.user, rule(pair.parse::<EdgePair>())?, &mut r.state.journal)))
    });
    add(m, "remove_wall", |lua, edge: String| {
        let owner =
            writing(lua, |r| rule(r.state.board.remove_wall(rule(edge.parse::<Edge>())?, &mut r.state.journal)))?;
        Ok(names(lua).player(owner))
    });
    add(m, "rotate", |lua, way: String| {
        let rotation = match way.as_str() {
            "clockwise" => Rotation::Clockwise,
            "counterclockwise" => Rotation::Counterclockwise,
            _ => return Err(err(format!("'{way}' is not a rotation (clockwise, counterclockwise)"))),
        };
        writing(lua, |r| {
            r.state.board.rotate(rotation, &mut r.state.journal);
            Ok(())
        })
    });
    // A counter only grows (R9.2, R9.4): a negative `n` is refused by its type,
    // one that would wrap by the game.
    add(m, "add_counter", |lua, (p, name, n): (String, String, u32)| {
        writing(lua, |_| Ok(()))?; // a read-only run is refused before the name is read
        let counter = counter_id(lua, &name)?;
        writing(lua, |r| {
            r.state
                .add_to_counter(player(&p)?, counter, n)
                .map_err(|_| err(format!("the counter {name} cannot grow by {n}")))
        })
    });
    add(m, "play_move", |lua, (text, filter): (String, Option<Table>)| {
        let wanted: MoveText = rule(text.parse())?;
        // Refused in a read-only run before the filter is read, as ever.
        writing(lua, |_| Ok(()))?;
        let filter = move_filter(lua, filter)?;
        writing(lua, |r| {
            let mut legal = legal_moves_for(r, filter)?;
            legal.retain(|m| wanted.matches(m));
            let [mv] = legal[..] else {
                return Err(err(format!("{text} is not one legal move here")));
            };
            let user = r.user;
            rule(r.state.play_extra_move(user, &mv))
        })
    });
    add(m, "jump", |lua, (from, landing): (String, String)| {
        let (from, landing) = (square(&from)?, square(&landing)?);
        let dir = direction(from, landing, 2).ok_or_else(|| err(format!("{landing} is not a jump from {from}")))?;
        let at = writing(lua, |r| rule(r.state.jump_by_card(from, dir)))?;
        Ok(names(lua).square(at))
    });
    add(m, "lift", |lua, sq: String| {
        let sq = square(&sq)?;
        writing(lua, |r| {
            let c = rule(r.state.board.set_aside(sq, &mut r.state.journal))?;
            r.lifted.push((sq, c));
            Ok(())
        })
    });
    add(m, "put_back", |lua, sq: String| {
        let sq = square(&sq)?;
        writing(lua, |r| {
            let i = r
                .lifted
                .iter()
                .position(|(s, _)| *s == sq)
                .ok_or_else(|| err(format!("no checker lifted from {sq}")))?;
            let (_, c) = r.lifted.remove(i);
            rule(r.state.board.put_back(sq, c, &mut r.state.journal))
        })
    });
    add(m, "set_constraint", |lua, squares: Table| {
        let movers = squares_of(lua, Some(squares))?;
        writing(lua, |r| {
            let card = acting_card(r)?;
            r.state.next_constraint = Some(Constraint { card, movers });
            r.state.journal.push(|| GameEvent::ConstraintSet {
                card,
                constrained: !r.user,
                movers: movers.into_iter().collect(),
            });
            Ok(())
        })
    });
    // ---- lasting effects (game/lasting.rs, game/react.rs) ----
    add(m, "add_effect", |lua, spec: Table| {
        let EffectSpec { affects, moves, lasts, data } = effect_spec(lua, &spec)?;
        writing(lua, |r| {
            let turn = Some(r.state.turn);
            let card = acting_card(r)?;
            let effect = Effect { id: 0, card, owner: r.user, affects, moves, lasts, made: turn, data, deck: false };
            r.state.add_effect(effect).map_err(bound)
        })
    });
    add(m, "end_effect", |lua, ()| {
        writing(lua, |r| {
            let id = handler_effect(r)?;
            r.state.end_effect(id);
            Ok(())
        })
    });
    add(m, "effect_data", |lua, ()| {
        let data = with_run(lua, |r| {
            let id = handler_effect(r)?;
            Ok(r.state.effect(id).map(|e| e.data.clone()).unwrap_or_default())
        })?;
        data_to_lua(lua, &data)
    });
    add(m, "set_effect_data", |lua, table: Table| {
        let data = data_of(&table)?;
        writing(lua, |r| {
            let id = handler_effect(r)?;
            check_data(&data).map_err(bound)?;
            if let Some(effect) = r.state.effects.iter_mut().find(|e| e.id == id) {
                effect.data = data;
            }
            Ok(())
        })
    });

    // ---- a planet's own data (game/deal.rs, game/react.rs) ----
    add(m, "planet_data", |lua, ()| {
        let data = current(lua, |r| match r.kind {
            RunKind::Planet | RunKind::PlanetHandler(_) => Ok(r.user),
            _ => Err(err("only a planet's script can read its planet's data")),
        })
        .and_then(|user| {
            read(lua, |s| {
                let data = s.planet_data[user.index()].clone();
                (data.clone(), Read::PlanetData(user, data))
            })
        })?;
        data_to_lua(lua, &data)
    });
    add(m, "set_planet_data", |lua, table: Table| {
        let data = data_of(&table)?;
        check_data(&data).map_err(bound)?;
        with_run(lua, |r| match r.kind {
            RunKind::PlanetHandler(_) => {
                r.state.planet_data[r.user.index()] = data;
                Ok(())
            }
            _ => {
                Err(err("only a planet's handlers and game_begins can change its data (check and progress only read)"))
            }
        })
    });

    // ---- markers of the deck's own kinds (content/markers.rs) ----
    add(m, "place_marker", |lua, (name, sq): (String, String)| {
        let kind = marker_kind(lua, &name)?;
        writing(lua, |r| rule(r.state.board.place_marker(kind, square(&sq)?, &mut r.state.journal)))
    });
    add(m, "remove_marker", |lua, (name, sq): (String, String)| {
        let kind = marker_kind(lua, &name)?;
        writing(lua, |r| rule(r.state.board.remove_marker(kind, square(&sq)?, &mut r.state.journal)))
    });
    add(m, "markers", |lua, name: String| {
        let kind = marker_kind(lua, &name)?;
        let on = with_run(lua, |r| Ok(r.state.board.marks().at(kind)))?;
        square_list(lua, on)
    });
    add(m, "has_marker", |lua, (name, sq): (String, String)| {
        let kind = marker_kind(lua, &name)?;
        with_run(lua, |r| Ok(r.state.board.marks().at(kind).contains(square(&sq)?)))
    });
    add(m, "markers_left", |lua, name: String| {
        let kind = marker_kind(lua, &name)?;
        read(lua, |s| {
            let left = s.board.marks().supply[usize::from(kind.0)];
            (left, Read::MarkersLeft(kind, left))
        })
    });
    add(m, "reshuffle", |lua, ()| {
        writing(lua, |r| {
            r.beyond_position();
            r.state.reshuffle_all();
            Ok(())
        })
    });
    add(m, "set_draw_order", |lua, order: Table| {
        writing(lua, |_| Ok(()))?; // a read-only run is refused before its list is read
        let order = card_ids(lua, &order)?;
        writing(lua, |r| {
            r.beyond_position();
            rule(r.state.reorder_draw_pile(order))
        })
    });
}
