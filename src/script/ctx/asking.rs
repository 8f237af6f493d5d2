//! `ctx`'s questions (`ask_*`), over the protocol of questions.rs.

use mlua::{Table, Value};

use super::{ApiBuilder, legal_moves_for, question};
use crate::game::{Answer, QuestionKind};
use crate::kernel::Bitboard;
use crate::script::convert::{checker_filter, move_filter, question_opts, square_filter, strings};
use crate::script::names::{names, texts};
use crate::script::questions::{answer_value, ask, dedup_keep_first, halt_sentinel, place_items, read_options};
use crate::script::run::{Cx, Halted, Ordering, R, err, with_run};
use crate::script::sandbox::Stop;

/// What `ask_wall_spot` keeps in place of its options table's address (which
/// is never null) when it halts.
const WALL_SPOTS: usize = 0;

/// A one-answer question through the protocol of questions.rs: the options the
/// same call kept when it halted (known by `table`, `kind` and `prompt`), or
/// `options()` worked out afresh.
fn ask_one(
    lua: &Cx,
    kind: QuestionKind,
    prompt: String,
    table: usize,
    opts: &Option<Table>,
    options: impl FnOnce() -> R<Vec<Answer>>,
) -> R<Value> {
    let kept = with_run(lua, |r| {
        Ok(r.take_halted(|h| {
            matches!(h, Halted::Ask { table: t, kind: k, prompt: p, .. } if *t == table && *k == kind && *p == prompt)
        }))
    })?;
    let options = match kept {
        Some(Halted::Ask { options, .. }) => options,
        _ => options()?,
    };
    let answer = ask(lua, kind, prompt, options, question_opts(lua, opts, false)?, table)?;
    answer_value(lua, answer)
}

/// A one-answer question whose options are the squares `on_board` finds for the
/// script's `filter` table, listed by the host: a filter's squares need not go
/// into Lua as a list only to come back as options.
fn ask_where(
    lua: &Cx,
    kind: QuestionKind,
    prompt: String,
    filter: Table,
    opts: &Option<Table>,
    on_board: impl FnOnce(&Cx, Table) -> R<Bitboard>,
) -> R<Value> {
    let table = filter.to_pointer() as usize;
    ask_one(lua, kind, prompt, table, opts, || Ok(on_board(lua, filter)?.into_iter().map(Answer::Square).collect()))
}

pub(super) fn register(m: &mut ApiBuilder) {
    // ---- questions ----
    let simple: [(&str, QuestionKind); 8] = [
        ("ask_square", QuestionKind::Square),
        ("ask_block", QuestionKind::Block),
        ("ask_checker", QuestionKind::Checker),
        ("ask_edge", QuestionKind::Edge),
        ("ask_edges", QuestionKind::Edges),
        ("ask_direction", QuestionKind::Direction),
        ("ask_move", QuestionKind::Move),
        ("ask_option", QuestionKind::Option),
    ];
    for (name, kind) in simple {
        question(m, name, move |lua, (prompt, options, opts): (String, Table, Option<Table>)| {
            if options.raw_len() > 4096 {
                return Err(err("a question may offer at most 4096 answers"));
            }
            let table = options.to_pointer() as usize;
            ask_one(lua, kind, prompt, table, &opts, || {
                let mut parsed = read_options(lua, kind, &options)?;
                // The same answer offered twice is one option (keep the first of each).
                dedup_keep_first(&mut parsed);
                // Squares are offered in board order (a1, b1, … h8), however the
                // script gathered them.
                if matches!(kind, QuestionKind::Square | QuestionKind::Checker | QuestionKind::Block) {
                    parsed.sort_by_key(|a| match a {
                        Answer::Square(sq) => sq.index(),
                        _ => usize::MAX,
                    });
                }
                Ok(parsed)
            })
        });
    }
    // One of `wall_spots()`, listed by the host: hundreds of edge pairs that
    // never need to cross into Lua and back.
    question(m, "ask_wall_spot", |lua, (prompt, opts): (String, Option<Table>)| {
        ask_one(lua, QuestionKind::Edges, prompt, WALL_SPOTS, &opts, || {
            with_run(lua, |r| Ok(r.state.board.wall_spots().map(Answer::Edges).collect()))
        })
    });
    // One of `squares(filter)` (the empty squares a terrain card offers) or of
    // `checker_squares(filter)` (the checkers a token card may pick).
    question(m, "ask_square_where", |lua, (prompt, filter, opts): (String, Table, Option<Table>)| {
        ask_where(lua, QuestionKind::Square, prompt, filter, &opts, |lua, filter| {
            let filter = square_filter(lua, Some(filter))?;
            with_run(lua, |r| Ok(filter.apply(&r.state.board)))
        })
    });
    question(m, "ask_checker_where", |lua, (prompt, filter, opts): (String, Table, Option<Table>)| {
        ask_where(lua, QuestionKind::Checker, prompt, filter, &opts, |lua, filter| {
            let filter = checker_filter(lua, Some(filter))?;
            with_run(lua, |r| Ok(filter.apply(&r.state)))
        })
    });
    // One of `legal_moves(filter)`, as the host lists them: the moves never
    // cross into Lua as text and back to be parsed.
    question(m, "ask_move_where", |lua, (prompt, filter, opts): (String, Table, Option<Table>)| {
        let table = filter.to_pointer() as usize;
        ask_one(lua, QuestionKind::Move, prompt, table, &opts, || {
            let filter = move_filter(lua, Some(filter))?;
            Ok(with_run(lua, |r| legal_moves_for(&r.state, r.user, filter))?.into_iter().map(Answer::Move).collect())
        })
    });
    question(m, "ask_order", |lua, (prompt, items, opts): (String, Table, Option<Table>)| {
        let key = items.to_pointer() as usize;
        // The same call made again when its suspended run resumes (prelude.lua)
        // goes on from where it halted instead of starting over.
        let again = with_run(lua, |r| {
            Ok(r.take_halted(|h| matches!(h, Halted::Order(o) if o.items == key && o.prompt == prompt)))
        })?;
        let mut o = match again {
            Some(Halted::Order(o)) => o,
            _ => {
                let left = strings(lua, &items)?;
                if let Some(reserved) = left.iter().find(|s| Answer::is_reserved(s)) {
                    return Err(err(format!(
                        "ask_order cannot order an item named '{reserved}': players type keep to keep the rest"
                    )));
                }
                if left.len() > 64 {
                    return Err(err("ask_order orders at most 64 items"));
                }
                let opts = question_opts(lua, &opts, true)?;
                let cursor = with_run(lua, |r| Ok(r.cursor))?;
                let order = Vec::with_capacity(left.len());
                Ordering { items: key, prompt, opts, total: left.len(), order, left, cursor }
            }
        };
        match with_run(lua, |r| place_items(r, &mut o))? {
            None => Ok(Value::Table(texts(lua, names(lua), &o.order)?)),
            Some(question) => {
                with_run(lua, |r| {
                    r.halted = Some(Halted::Order(o));
                    Ok(())
                })?;
                lua.shared.meter.borrow_mut().mark(Stop::Asked(question));
                Ok(Value::Table(halt_sentinel(lua)?))
            }
        }
    });
}
