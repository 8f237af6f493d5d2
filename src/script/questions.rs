//! The question protocol: a question's options read and de-duplicated, the
//! answer taken from the run's answers, or the run halted so that the question
//! becomes the game's pending decision (ARCHITECTURE.md invariant 3).

use std::sync::Arc;

use mlua::{Table, Value};

use crate::game::{Answer, Question, QuestionKind};
use crate::kernel::{Bitboard, Edge, EdgePair, MoveText, Side};
use crate::script::convert::{QuestionOpts, each_text, room_for, rule, square, utf8};
use crate::script::names::{Names, names};
use crate::script::run::{Cx, Halted, Ordering, R, Run, err, with_run};
use crate::script::sandbox::Stop;

/// Removes repeated answers, keeping the first of each, without hashing in the
/// common cases of squares, edge pairs and short lists.
pub(super) fn dedup_keep_first(options: &mut Vec<Answer>) {
    if options.iter().all(|o| matches!(o, Answer::Square(_))) {
        let mut seen = Bitboard::EMPTY;
        options.retain(|o| match o {
            Answer::Square(sq) => {
                let new = !seen.contains(*sq);
                seen.insert(*sq);
                new
            }
            _ => true,
        });
    } else if options.iter().all(|o| matches!(o, Answer::Edges(_))) {
        // An edge is one of 128 (square, side); a pair one of 128 × 128.
        let edge = |e: Edge| e.square().index() * 2 + usize::from(e.side() == Side::East);
        let mut seen = [0u64; 128 * 128 / 64];
        options.retain(|o| match o {
            Answer::Edges(EdgePair(a, b)) => {
                let key = edge(*a) * 128 + edge(*b);
                let (word, bit) = (key / 64, 1u64 << (key % 64));
                let new = seen[word] & bit == 0;
                seen[word] |= bit;
                new
            }
            _ => true,
        });
    } else if options.len() <= 32 {
        let mut kept: Vec<Answer> = Vec::with_capacity(options.len());
        for o in options.drain(..) {
            if !kept.contains(&o) {
                kept.push(o);
            }
        }
        *options = kept;
    } else {
        let mut seen =
            std::collections::HashSet::with_capacity_and_hasher(options.len(), crate::hash::FxBuild::default());
        options.retain(|o| seen.insert(o.clone()));
    }
}

/// The pending answer to a question, or a halt that turns the question into the
/// game's pending decision (ARCHITECTURE.md invariant 3). `None` means "none" was
/// chosen for an optional question.
/// `options` are without repeats; `table` is the address of the script's table
/// of options, to know the same call again (see [`Halted`]).
pub(super) fn ask(
    lua: &Cx,
    kind: QuestionKind,
    mut prompt: String,
    options: Vec<Answer>,
    opts: QuestionOpts,
    table: usize,
) -> R<Asked> {
    let optional = opts.optional;
    crate::text::make_visible(&mut prompt);
    if options.is_empty() && !optional {
        return Err(err(format!("the question '{prompt}' has no possible answer; check for that before asking")));
    }
    with_run(lua, |run| {
        if !run.kind.writable() {
            return Err(err("can_play and planet checks cannot ask questions"));
        }
        let value = |a: &Answer| Asked::Answer(Some(a.clone()));
        if options.len() == 1 && !optional {
            // A secret answer is told only to the player asked: the one named,
            // else the run's user (the player to move, or whom a handler acts for).
            let secret_of = opts.secret.then(|| opts.to.unwrap_or(run.user));
            run.state.answered_automatically(&prompt, kind, &options[0], secret_of);
            return Ok(value(&options[0]));
        }
        let Some(answer) = run.answers.get(run.cursor) else {
            run.halted = Some(Halted::Ask { table, kind, prompt: prompt.clone(), options: options.clone(), optional });
            let mut options = options;
            if optional {
                options.push(Answer::Decline);
            }
            // Record the stop; the caller returns the HALT sentinel and the
            // script's ctx proxy stops the run (no Rust error, so no traceback).
            let mut question = Question::new(prompt, kind, options);
            (question.to, question.secret) = (opts.to, opts.secret);
            let automatic = run.state.journal_mut().events().iter().filter_map(|l| match &l.event {
                crate::game::Event::Game(crate::game::GameEvent::AnsweredAutomatically { answer, .. }) => {
                    Some(answer.clone())
                }
                _ => None,
            });
            let automatic = automatic.collect();
            question.so_far = crate::game::SoFar(Some(Box::new(run.state.board)), automatic);
            lua.shared.meter.borrow_mut().mark(Stop::Asked(question));
            return Ok(Asked::Halt);
        };
        run.cursor += 1;
        match taken(answer, &options, optional) {
            Some(value) => Ok(Asked::Answer(value)),
            None => Err(err(format!("'{answer}' is not an answer to '{prompt}'"))),
        }
    })
}

/// What a question with `options` (without repeats, without `none`) returns for
/// `answer`: `Some(None)` for nil ([`Answer::Decline`] to an optional question),
/// `Some(answer)`, or `None` when it is not an answer to the question.
fn taken(answer: &Answer, options: &[Answer], optional: bool) -> Option<Option<Answer>> {
    match answer {
        Answer::Decline if optional => Some(None),
        _ => options.contains(answer).then(|| Some(answer.clone())),
    }
}

/// What a run suspended at a question does with one more answer, worked out
/// here so that the question call need not be made again (its result goes back
/// with the resume, and the prelude's proxy returns it).
pub(super) enum OnResume {
    /// What a one-answer question returns (`None`: nil).
    Answer(Option<Answer>),
    /// The order an `ask_order` returns, now complete.
    Ordered(Vec<Arc<str>>),
    /// The `ask_order` needs another answer: the run stays suspended, asking this.
    Ask(Question),
    /// The call must be made again: it refuses the answer, and raises the error
    /// where the script made the call.
    CallAgain,
}

pub(super) fn on_resume(run: &mut Run) -> OnResume {
    match run.halted.take() {
        Some(Halted::Ask { options, optional, table, kind, prompt }) => {
            match run.answers.get(run.cursor).and_then(|a| taken(a, &options, optional)) {
                Some(value) => {
                    run.cursor += 1;
                    OnResume::Answer(value)
                }
                None => {
                    run.halted = Some(Halted::Ask { options, optional, table, kind, prompt });
                    OnResume::CallAgain
                }
            }
        }
        Some(Halted::Order(mut o)) => match place_items(run, &mut o) {
            Ok(None) => OnResume::Ordered(o.order),
            Ok(Some(question)) => {
                run.halted = Some(Halted::Order(o));
                OnResume::Ask(question)
            }
            Err(_) => {
                run.halted = Some(Halted::Order(o));
                OnResume::CallAgain
            }
        },
        None => OnResume::CallAgain,
    }
}

/// Places `o`'s items with the run's next answers, one answer per place: each
/// answer names the item for the next place (the first copy of it, as a pile may
/// hold a card twice, R1.6), or is [`Answer::KeepTheRest`]: the items not yet placed follow in
/// their present order. Places left with one distinct item take it unasked.
/// Returns the question for the next place when an answer is missing.
pub(super) fn place_items(run: &mut Run, o: &mut Ordering) -> R<Option<Question>> {
    if !run.kind.writable() {
        return Err(err("can_play and planet checks cannot ask questions"));
    }
    while !o.left.is_empty() {
        let pick = if o.left.iter().all(|s| *s == o.left[0]) {
            Some(0)
        } else {
            let Some(answer) = run.answers.get(run.cursor) else { return Ok(Some(order_question(o))) };
            // A refused answer is not used up: the call made again refuses it too.
            let item = match answer {
                Answer::Option(name) => o.left.iter().position(|s| s == name),
                _ => None,
            };
            let pick = match answer {
                _ if item.is_some() => item,
                Answer::KeepTheRest => None,
                other => return Err(err(format!("'{other}' is not an answer to '{}'", order_prompt(o)))),
            };
            run.cursor += 1;
            pick
        };
        match pick {
            Some(i) => {
                let item = o.left.remove(i);
                o.order.push(item);
            }
            None => o.order.append(&mut o.left),
        }
    }
    Ok(None)
}

/// `<prompt> (position <n> of <total>)`, written piece by piece: the search
/// asks it once per place of every Foresight it tries, and `format!` cost
/// several times more.
fn order_prompt(o: &Ordering) -> String {
    let mut prompt = String::with_capacity(o.prompt.len() + 24);
    prompt.push_str(&o.prompt);
    prompt.push_str(" (position ");
    push_number(&mut prompt, o.order.len() + 1);
    prompt.push_str(" of ");
    push_number(&mut prompt, o.total);
    prompt.push(')');
    prompt
}

/// Appends `n` in decimal.
fn push_number(out: &mut String, n: usize) {
    if n >= 10 {
        push_number(out, n / 10);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

/// The question for `o`'s next place: each item once, then `keep`.
fn order_question(o: &Ordering) -> Question {
    let mut options = Vec::with_capacity(o.left.len() + 1);
    for (i, name) in o.left.iter().enumerate() {
        if !o.left[..i].contains(name) {
            options.push(Answer::Option(Arc::clone(name)));
        }
    }
    options.push(Answer::KeepTheRest);
    let mut question = Question::new(order_prompt(o), QuestionKind::Option, options);
    (question.to, question.secret) = (o.opts.to, o.opts.secret);
    question
}

/// What `ask` found: an answer (`None` for "none"), or that the run must stop.
pub(super) enum Asked {
    Answer(Option<Answer>),
    Halt,
}

pub(super) fn answer_value(lua: &Cx, asked: Asked) -> R<Value> {
    match asked {
        Asked::Halt => Ok(Value::Table(halt_sentinel(lua)?)),
        Asked::Answer(answer) => answer_to_lua(lua, names(lua), answer),
    }
}

/// An answer as the script gets it: a square's interned name, nil for "none",
/// or the answer's text.
pub(super) fn answer_to_lua(lua: &mlua::Lua, names: &Names, answer: Option<Answer>) -> R<Value> {
    Ok(match answer {
        None => Value::Nil,
        Some(Answer::Square(sq)) => Value::String(names.square(sq)),
        Some(Answer::Option(name)) => Value::String(lua.create_string(&*name)?),
        Some(a) => Value::String(lua.create_string(a.to_string())?),
    })
}

pub(super) fn halt_sentinel(lua: &Cx) -> R<Table> {
    Ok(names(lua).halt.clone())
}

/// The options of a question, read from its table.
pub(super) fn read_options(lua: &Cx, kind: QuestionKind, options: &Table) -> R<Vec<Answer>> {
    let names = names(lua);
    let mut parsed = Vec::with_capacity(room_for(options));
    each_text(lua, options, |item| {
        // Edge pairs come by the hundred, each costly to parse: found by address.
        let pair = if kind == QuestionKind::Edges { names.pair(item.address) } else { None };
        parsed.push(match pair {
            Some(pair) => Answer::Edges(pair),
            None => parse_answer(kind, utf8(item.bytes)?)?,
        });
        Ok(())
    })?;
    Ok(parsed)
}

/// A question's option, parsed by kind so the answer type is checked once here.
pub(super) fn parse_answer(kind: QuestionKind, text: &str) -> R<Answer> {
    Ok(match kind {
        QuestionKind::Square | QuestionKind::Checker => Answer::Square(square(text)?),
        QuestionKind::Block => {
            let anchor = square(text)?;
            crate::kernel::block(anchor)
                .ok_or_else(|| err(format!("no 2x2 block has {anchor} as its lower-left square")))?;
            Answer::Square(anchor)
        }
        QuestionKind::Edge => Answer::Edge(rule(text.parse())?),
        QuestionKind::Edges => Answer::Edges(rule(text.parse())?),
        QuestionKind::Direction => Answer::Dir(rule(text.parse())?),
        QuestionKind::Move => {
            let parsed: MoveText = rule(text.parse())?;
            Answer::Move(rule(crate::kernel::Move::from_text(&parsed))?)
        }
        QuestionKind::Option => {
            if text.is_empty() || text.len() > 80 {
                return Err(err("an option's name must be 1 to 80 characters"));
            }
            if Answer::is_reserved(text) {
                return Err(err(format!(
                    "an option cannot be named '{text}': players type none to decline and keep to keep the rest"
                )));
            }
            // Shown, never obeyed: control characters become escapes (text.rs).
            Answer::Option(crate::text::visible(text).into())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::push_number;

    #[test]
    fn push_number_writes_decimal_as_format_does() {
        for n in [0, 7, 9, 10, 64, 99, 100, 1234] {
            let mut out = String::from("x");
            push_number(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }
}
