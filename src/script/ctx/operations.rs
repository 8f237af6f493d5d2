//! `ctx`'s operations: each goes through a kernel or game operation that
//! enforces the rules (a refusal is an error, with nothing changed) and
//! records its events; then lasting effects, markers, planets' data and the
//! piles (ctx/mod.rs, [`operation`]).

use mlua::{Table, Value};

use super::{
    ApiBuilder, Runs, Sees, acting_card, counter_id, direction, handler_effect, legal_moves_for, marker_kind,
    operation, victory_id,
};
use crate::game::Effect;
use crate::kernel::{Edge, EdgePair, MoveText, Removal, Rotation};
use crate::script::convert::{card_ids, dir, move_filter, player, rule, square, squares_of, terrain, token};
use crate::script::lasting::{EffectSpec, data_of, effect_spec, only_keys};
use crate::script::names::{names, square_list};
use crate::script::run::{bound, err};
use crate::script::sandbox::Stop;

/// Lines `ctx:log` keeps from one run, and characters from one line.
const MAX_LOG_LINES: usize = 64;
const MAX_LOG_CHARS: usize = 200;

pub(super) fn register(m: &mut ApiBuilder) {
    // Each board operation is a kernel method given the state's journal, to
    // which it reports every change it makes (kernel/event.rs).
    operation(m, "place_terrain", Runs::Cards, Sees::Position, |_, r, (sq, t): (String, String)| {
        let (sq, t) = (square(&sq)?, terrain(&t)?);
        rule(r.state.change_board(|b, log| b.place_terrain(sq, t, log)))
    });
    operation(m, "remove_terrain", Runs::Cards, Sees::Position, |lua, r, sq: String| {
        let sq = square(&sq)?;
        let t = rule(r.state.change_board(|b, log| b.remove_terrain(sq, log)))?;
        names(lua).word(lua, t.name())
    });
    operation(m, "put_token", Runs::Cards, Sees::Position, |_, r, (sq, t): (String, String)| {
        let (sq, t) = (square(&sq)?, token(&t)?);
        rule(r.state.change_board(|b, log| b.put_token(sq, t, log)))
    });
    operation(m, "remove_token", Runs::Cards, Sees::Position, |_, r, (sq, t): (String, String)| {
        let (sq, t) = (square(&sq)?, token(&t)?);
        rule(r.state.change_board(|b, log| b.remove_token(sq, t, log)))
    });
    operation(m, "remove_checker", Runs::Cards, Sees::Position, |_, r, sq: String| {
        let sq = square(&sq)?;
        rule(r.state.change_board(|b, log| b.remove_checker(sq, Removal::Card, log))).map(|_| ())
    });
    operation(m, "place_from_reserve", Runs::Cards, Sees::Position, |_, r, sq: String| {
        let (user, sq) = (r.user, square(&sq)?);
        rule(r.state.change_board(|b, log| b.place_from_reserve(user, sq, log)))
    });
    operation(m, "end_move", Runs::Cards, Sees::Position, |_, r, ()| {
        r.state.end_move().map_err(|e| err(e.to_string()))
    });
    operation(m, "set_owner", Runs::Cards, Sees::Position, |_, r, (sq, p): (String, String)| {
        let (sq, p) = (square(&sq)?, player(&p)?);
        rule(r.state.change_board(|b, log| b.set_owner(sq, p, log)))
    });
    operation(m, "relocate", Runs::Cards, Sees::Position, |_, r, (from, to): (String, String)| {
        let (from, to) = (square(&from)?, square(&to)?);
        rule(r.state.change_board(|b, log| b.relocate(from, to, log)))
    });
    operation(m, "crown", Runs::Cards, Sees::Position, |_, r, sq: String| {
        let sq = square(&sq)?;
        rule(r.state.change_board(|b, log| b.crown_pawn(sq, log)))
    });
    operation(m, "make_emperor", Runs::Cards, Sees::Position, |_, r, (pawn, king): (String, String)| {
        let (pawn, king) = (square(&pawn)?, square(&king)?);
        rule(r.state.change_board(|b, log| b.make_emperor(pawn, king, log)))
    });
    operation(m, "place_monolith", Runs::Cards, Sees::Position, |_, r, sq: String| {
        let sq = square(&sq)?;
        rule(r.state.change_board(|b, log| b.place_monolith(sq, log)))
    });
    operation(m, "move_monolith", Runs::Cards, Sees::Position, |lua, r, dir: String| {
        let dir = self::dir(&dir)?;
        let report = rule(r.state.change_board(|b, log| b.move_monolith(dir, log)))?;
        let t = lua.create_table_with_capacity(0, 2)?;
        t.raw_set("removed", square_list(lua, report.removed)?)?;
        t.raw_set("pushed", report.pushed.len())?;
        Ok(t)
    });
    operation(m, "monolith_blocked", Runs::Cards, Sees::Position, |_, r, ()| {
        rule(r.state.change_board(|b, log| b.monolith_stays(log)))
    });
    operation(m, "place_walls", Runs::Cards, Sees::Position, |_, r, pair: String| {
        let (user, pair) = (r.user, rule(pair.parse::<EdgePair>())?);
        rule(r.state.change_board(|b, log| b.place_walls(user, pair, log)))
    });
    operation(m, "remove_wall", Runs::Cards, Sees::Position, |lua, r, edge: String| {
        let edge = rule(edge.parse::<Edge>())?;
        let owner = rule(r.state.change_board(|b, log| b.remove_wall(edge, log)))?;
        Ok(names(lua).player(owner))
    });
    operation(m, "rotate", Runs::Cards, Sees::Position, |_, r, way: String| {
        let rotation = match way.as_str() {
            "clockwise" => Rotation::Clockwise,
            "counterclockwise" => Rotation::Counterclockwise,
            _ => return Err(err(format!("'{way}' is not a rotation (clockwise, counterclockwise)"))),
        };
        r.state
            .change_board(|b, log| {
                b.rotate(rotation, log);
                Ok::<(), crate::kernel::RuleError>(())
            })
            .map_err(|e| err(e.to_string()))
    });
    // A counter only grows (R9.2, R9.4): a negative `n` is refused by its type,
    // one that would wrap by the game.
    operation(m, "add_counter", Runs::Cards, Sees::Position, |lua, r, (p, name, n): (String, String, u32)| {
        let counter = counter_id(lua, &name)?;
        r.state
            .add_to_counter(player(&p)?, counter, n)
            .map(|_| ())
            .map_err(|_| err(format!("the counter {name} cannot grow by {n}")))
    });
    operation(m, "play_move", Runs::Cards, Sees::Position, |lua, r, (text, filter): (String, Option<Table>)| {
        let wanted: MoveText = rule(text.parse())?;
        let filter = move_filter(lua, filter)?;
        let mut legal = legal_moves_for(&r.state, r.user, filter)?;
        legal.retain(|m| wanted.matches(m));
        let [mv] = legal[..] else {
            return Err(err(format!("{text} is not one legal move here")));
        };
        let user = r.user;
        rule(r.state.play_extra_move(user, &mv))
    });
    operation(m, "jump", Runs::Cards, Sees::Position, |lua, r, (from, landing): (String, String)| {
        let (from, landing) = (square(&from)?, square(&landing)?);
        let dir = direction(from, landing, 2).ok_or_else(|| err(format!("{landing} is not a jump from {from}")))?;
        let at = rule(r.state.jump_by_card(from, dir))?;
        Ok(names(lua).square(at))
    });
    operation(m, "lift", Runs::Cards, Sees::Position, |_, r, sq: String| {
        let sq = square(&sq)?;
        let c = rule(r.state.change_board(|b, log| b.set_aside(sq, log)))?;
        r.lifted.push((sq, c));
        Ok(())
    });
    operation(m, "put_back", Runs::Cards, Sees::Position, |_, r, sq: String| {
        let sq = square(&sq)?;
        let i =
            r.lifted.iter().position(|(s, _)| *s == sq).ok_or_else(|| err(format!("no checker lifted from {sq}")))?;
        let (_, c) = r.lifted.remove(i);
        rule(r.state.change_board(|b, log| b.put_back(sq, c, log)))
    });
    operation(m, "set_constraint", Runs::Cards, Sees::Position, |lua, r, squares: Table| {
        let movers = squares_of(lua, Some(squares))?;
        let card = acting_card(r)?;
        r.state.set_constraint(card, !r.user, movers);
        Ok(())
    });
    operation(m, "random", Runs::Cards, Sees::Hidden, |_, r, n: i64| {
        if !(1..=1_000_000).contains(&n) {
            return Err(err("ctx:random(n) needs n from 1 to 1000000"));
        }
        Ok(r.state.draw_random(n as usize) + 1)
    });
    // At most MAX_LOG_LINES lines a run, the last of them saying that more were
    // left out; a line longer than MAX_LOG_CHARS is cut and ends in "…". Both
    // players read it: `{user}` and `{opponent}` become the players' names.
    // Any run may log; only a changing run's lines reach the players.
    operation(m, "log", Runs::Any, Sees::Position, |_, r, text: mlua::LuaString| {
        message(r, &text, None);
        Ok(())
    });
    // The same, told to `player` only (cards/README.md, "Acting and asking
    // for the player concerned"); its lines count with `log`'s.
    operation(m, "tell", Runs::Cards, Sees::Position, |_, r, (to, text): (String, mlua::LuaString)| {
        let to = player(&to)?;
        message(r, &text, Some(to));
        Ok(())
    });

    // ---- lasting effects (game/lasting.rs, game/react.rs) ----
    operation(m, "add_effect", Runs::Cards, Sees::Position, |lua, r, spec: Table| {
        let EffectSpec { affects, acts_for, moves, lasts, data } = effect_spec(lua, &spec)?;
        let made = Some(r.state.turn);
        let card = acting_card(r)?;
        let effect = Effect { id: 0, card, owner: r.user, affects, moves, lasts, made, data, deck: false, acts_for };
        r.state.add_effect(effect).map_err(bound)
    });
    operation(m, "end_effect", Runs::Cards, Sees::Position, |_, r, ()| {
        let id = handler_effect(r)?;
        r.state.end_effect(id);
        Ok(())
    });
    operation(m, "set_effect_data", Runs::Cards, Sees::Position, |_, r, table: Table| {
        let id = handler_effect(r)?;
        let data = data_of(&table)?;
        r.state.set_effect_data(id, data).map_err(bound)
    });
    operation(m, "set_planet_data", Runs::PlanetHandlers, Sees::Position, |_, r, table: Table| {
        let data = data_of(&table)?;
        let user = r.user;
        r.state.set_planet_data(user, data).map_err(bound)
    });

    // ---- the end of the game (cards/README.md, "Endings as deck rules") ----
    // The game is over at once with one of the deck's victories: the run stops
    // here (as at a question, nothing can catch it) and what it did stands.
    operation(m, "end_game", Runs::Cards, Sees::Position, |lua, r, spec: Table| {
        only_keys(&spec, &["winner", "reason"], "ctx:end_game takes {winner = player or nil, reason = victory}")?;
        let winner = match spec.raw_get::<Value>("winner")? {
            Value::Nil => None,
            Value::String(s) => Some(player(&s.to_string_lossy())?),
            other => return Err(err(format!("end_game's winner is a {}, not a player or nil", other.type_name()))),
        };
        let victory = match spec.raw_get::<Value>("reason")? {
            Value::String(s) => victory_id(lua, &s.to_string_lossy())?,
            Value::Nil => return Err(err("ctx:end_game needs a reason: one of the deck's victories")),
            other => return Err(err(format!("end_game's reason is a {}, not a victory's name", other.type_name()))),
        };
        if let Some((sq, _)) = r.lifted.first() {
            return Err(err(format!("the game cannot end with the checker lifted from {sq} not put back")));
        }
        r.state.end_by_rule(winner, victory);
        lua.shared.meter.borrow_mut().mark(Stop::Ended);
        Err::<(), _>(err("the script was stopped"))
    });

    // ---- markers of the deck's own kinds (content/markers.rs) ----
    operation(m, "place_marker", Runs::Cards, Sees::Position, |lua, r, (name, sq): (String, String)| {
        let kind = marker_kind(lua, &name)?;
        let sq = square(&sq)?;
        rule(r.state.change_board(|b, log| b.place_marker(kind, sq, log)))
    });
    operation(m, "remove_marker", Runs::Cards, Sees::Position, |lua, r, (name, sq): (String, String)| {
        let kind = marker_kind(lua, &name)?;
        let sq = square(&sq)?;
        rule(r.state.change_board(|b, log| b.remove_marker(kind, sq, log)))
    });

    // ---- the piles (R8.18, R8.20) ----
    operation(m, "reshuffle", Runs::Cards, Sees::Hidden, |_, r, ()| {
        r.state.reshuffle_all();
        Ok(())
    });
    operation(m, "set_draw_order", Runs::Cards, Sees::Hidden, |lua, r, order: Table| {
        let order = card_ids(lua, &order)?;
        rule(r.state.reorder_draw_pile(order))
    });
}

/// Records a line of `ctx:log` (`to`: `None`) or `ctx:tell`, as the run's
/// next message. Only the text's first bytes are read (each character is at
/// most four, so they hold more than MAX_LOG_CHARS of them): the host's work
/// does not grow with the string the script chose.
fn message(r: &mut crate::script::run::Run, text: &mlua::LuaString, to: Option<crate::kernel::Player>) {
    let bytes = text.as_bytes();
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(8 * MAX_LOG_CHARS)]).into_owned();
    let text = crate::content::with_names(&crate::text::visible(&text), r.user);
    let text = match r.log.len() + 1 {
        n if n < MAX_LOG_LINES && text.chars().count() > MAX_LOG_CHARS => {
            text.chars().take(MAX_LOG_CHARS - 1).chain(['…']).collect()
        }
        n if n < MAX_LOG_LINES => text,
        MAX_LOG_LINES => "(more messages from this script are left out)".to_string(),
        _ => return,
    };
    // The note that more are left out goes to both: it tells no secret.
    r.state.tell(&text, if r.log.len() + 1 == MAX_LOG_LINES { None } else { to });
    r.log.push(text);
}
