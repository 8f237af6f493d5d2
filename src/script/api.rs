//! `ctx`: the one object card and planet scripts use to read the game, change it
//! through the kernel's rule-enforcing operations, and ask questions.
//! Documented for modders in cards/README.md; keep the two in step.
//!
//! Every method works on the current [`Run`] (a scratch copy of the state), kept in
//! the Lua state's app data for the length of one script call.

use std::rc::Rc;

use mlua::{Error as LuaError, Lua, LuaString, Table, Value};

use super::sandbox::{Stop, halt};
use crate::game::{Answer, CardId, Constraint, GameState, Question, QuestionKind};
use crate::kernel::{
    Bitboard, Checker, Colour, Dir, Edge, EdgePair, MoveText, Player, Rotation, Square, Terrain, Token,
};

/// One script call in progress.
pub struct Run {
    /// The scratch state the script reads and changes.
    pub state: GameState,
    /// Who used the card, or whose planet is checked.
    pub user: Player,
    /// False for `can_play` and planet checks, which only read.
    pub writable: bool,
    /// Answers to this card's questions so far, and how many the script has used.
    pub answers: Vec<Answer>,
    pub cursor: usize,
    /// Checkers set aside by `ctx:lift`, to come back before the card ends.
    pub lifted: Vec<(Square, Checker)>,
    /// Lines the script logged.
    pub log: Vec<String>,
    /// Card ids (manifest file stems) by `CardId`.
    pub card_ids: Rc<[String]>,
    /// The card being used (for a planet check or `can_play`, the card asked about).
    pub card: CardId,
}

type R<T> = mlua::Result<T>;

fn err(message: impl Into<String>) -> LuaError {
    LuaError::runtime(message.into())
}

fn with_run<T>(lua: &Lua, f: impl FnOnce(&mut Run) -> R<T>) -> R<T> {
    let mut run = lua.app_data_mut::<Run>().ok_or_else(|| err("ctx can only be used while a card or planet runs"))?;
    f(&mut run)
}

fn writing<T>(lua: &Lua, f: impl FnOnce(&mut Run) -> R<T>) -> R<T> {
    with_run(lua, |run| {
        if !run.writable {
            return Err(err("can_play and planet checks may only read the game, not change it"));
        }
        f(run)
    })
}

fn rule<T, E: std::fmt::Display>(r: Result<T, E>) -> R<T> {
    r.map_err(|e| err(e.to_string()))
}

fn square(s: &str) -> R<Square> {
    rule(s.parse::<Square>())
}

fn player(s: &str) -> R<Player> {
    rule(s.parse::<Player>())
}

fn token(s: &str) -> R<Token> {
    Token::ALL
        .into_iter()
        .find(|t| t.name() == s)
        .ok_or_else(|| err(format!("'{s}' is not a token (ring, snookle, hippo)")))
}

fn terrain(s: &str) -> R<Terrain> {
    match s {
        "water" => Ok(Terrain::Water),
        "fire" => Ok(Terrain::Fire),
        _ => Err(err(format!("'{s}' is not a terrain (water, fire)"))),
    }
}

/// `"diagonal"`, `"orthogonal"`, `"all"`, one direction, or a list of directions.
fn dirs(value: Value) -> R<Vec<Dir>> {
    match value {
        Value::String(s) => match s.to_str()?.as_ref() {
            "diagonal" => Ok(Dir::DIAGONALS.to_vec()),
            "orthogonal" => Ok(Dir::ORTHOGONALS.to_vec()),
            "all" => Ok(Dir::ALL.to_vec()),
            one => Ok(vec![rule(one.parse::<Dir>())?]),
        },
        Value::Table(t) => t.sequence_values::<String>().map(|d| rule(d?.parse::<Dir>())).collect(),
        other => Err(err(format!("expected directions, got {}", other.type_name()))),
    }
}

fn squares_of(value: Option<Table>) -> R<Bitboard> {
    let mut out = Bitboard::EMPTY;
    if let Some(t) = value {
        for s in t.sequence_values::<String>() {
            out.insert(square(&s?)?);
        }
    }
    Ok(out)
}

fn list<T: ToString>(lua: &Lua, items: impl IntoIterator<Item = T>) -> R<Table> {
    lua.create_sequence_from(items.into_iter().map(|i| i.to_string()))
}

/// Lua strings made once and reused, so that reading the board allocates little.
pub struct Names {
    /// The sentinel `ask_*` return to stop a run.
    pub halt: Table,
    squares: Vec<LuaString>,
    /// By index in `EdgePair::all()`.
    pairs: Vec<LuaString>,
    players: [LuaString; 2],
    kinds: [LuaString; 3],
}

impl Names {
    pub fn new(lua: &Lua, halt: Table) -> R<Names> {
        Ok(Names {
            halt,
            squares: Square::all().map(|s| lua.create_string(s.to_string())).collect::<R<_>>()?,
            pairs: EdgePair::all().iter().map(|p| lua.create_string(p.to_string())).collect::<R<_>>()?,
            players: [lua.create_string("dark")?, lua.create_string("light")?],
            kinds: [lua.create_string("pawn")?, lua.create_string("king")?, lua.create_string("emperor")?],
        })
    }
}

/// A list of square names, from the interned strings.
fn square_list(lua: &Lua, squares: impl IntoIterator<Item = Square>) -> R<Table> {
    let names = lua.app_data_ref::<Names>().ok_or_else(|| err("square names are not set up"))?;
    lua.create_sequence_from(squares.into_iter().map(|s| names.squares[s.index()].clone()))
}

fn checker_table(lua: &Lua, sq: Square, c: &Checker) -> R<Table> {
    let names = lua.app_data_ref::<Names>().ok_or_else(|| err("square names are not set up"))?;
    let t = lua.create_table_with_capacity(0, 6)?;
    t.raw_set("square", names.squares[sq.index()].clone())?;
    t.raw_set("owner", names.players[c.owner.index()].clone())?;
    t.raw_set("kind", names.kinds[c.kind as usize - 1].clone())?;
    t.raw_set("ring", c.ring)?;
    t.raw_set("snookle", c.snookle)?;
    t.raw_set("hippo", c.hippo)?;
    Ok(t)
}

/// `{owner=, kind=, ring=, snookle=, hippo=, colour=}`: which checkers to list or count.
fn checker_filter(run: &Run, filter: Option<Table>) -> R<Bitboard> {
    let board = &run.state.board;
    let mut set = board.occupied();
    let Some(f) = filter else { return Ok(set) };
    // Only the keys present are visited, so a small filter costs little.
    for pair in f.pairs::<LuaString, Value>() {
        let (key, value) = pair?;
        let text = |v: &Value| -> R<String> { v.to_string() };
        match key.as_bytes().as_ref() {
            b"owner" => set &= board.checkers(player(&text(&value)?)?),
            b"kind" => {
                set &= match text(&value)?.as_str() {
                    "pawn" => board.pawns(),
                    "king" => board.kings() - board.emperors(),
                    "emperor" => board.emperors(),
                    "crowned" => board.kings(),
                    other => return Err(err(format!("'{other}' is not a kind (pawn, king, emperor, crowned)"))),
                }
            }
            b"colour" => set &= colour_mask(&text(&value)?)?,
            other => {
                let name = String::from_utf8_lossy(other);
                let Some(t) = Token::ALL.into_iter().find(|t| t.name() == name) else {
                    return Err(err(format!(
                        "'{name}' is not a checker filter (owner, kind, colour, ring, snookle, hippo)"
                    )));
                };
                match value {
                    Value::Boolean(true) => set &= board.tokens(t),
                    Value::Boolean(false) => set = set - board.tokens(t),
                    _ => return Err(err(format!("the filter's {name} must be true or false"))),
                }
            }
        }
    }
    Ok(set)
}

fn colour_mask(colour: &str) -> R<Bitboard> {
    match colour {
        "dark" => Ok(Bitboard::DARK),
        "light" => Ok(Bitboard::LIGHT),
        _ => Err(err(format!("'{colour}' is not a square colour (dark, light)"))),
    }
}

/// `{empty=, colour=, half=, back_row=, king_row=, terrain=}`: which squares.
fn square_filter(run: &Run, filter: Option<Table>) -> R<Bitboard> {
    let board = &run.state.board;
    let mut set = Bitboard::ALL;
    let Some(f) = filter else { return Ok(set) };
    let orientation = board.orientation();
    for pair in f.pairs::<LuaString, Value>() {
        let (key, value) = pair?;
        let text = || -> R<String> { value.to_string() };
        match key.as_bytes().as_ref() {
            b"empty" => match value {
                Value::Boolean(true) => set &= board.empty_squares(),
                Value::Boolean(false) => set = set - board.empty_squares(),
                _ => return Err(err("the filter's empty must be true or false")),
            },
            b"colour" => set &= colour_mask(&text()?)?,
            b"half" => set &= orientation.half(player(&text()?)?),
            b"back_row" => set &= orientation.back_row(player(&text()?)?),
            b"king_row" => set &= orientation.king_row(player(&text()?)?),
            b"terrain" => {
                set &= match text()?.as_str() {
                    "any" => board.terrain(Terrain::Water) | board.terrain(Terrain::Fire),
                    other => board.terrain(terrain(other)?),
                }
            }
            other => {
                return Err(err(format!(
                    "'{}' is not a square filter (empty, colour, half, back_row, king_row, terrain)",
                    String::from_utf8_lossy(other)
                )));
            }
        }
    }
    Ok(set)
}

/// Lower-left squares of the 2×2 blocks matching `{owners = {players…}, empty = bool}`:
/// `owners` asks for at least one checker of each player named (R8.19), `empty`
/// for four empty squares (R4.5, R7.1).
fn blocks(run: &Run, filter: Option<Table>) -> R<Vec<Square>> {
    let board = &run.state.board;
    let (owners, empty) = match filter {
        Some(f) => {
            let owners = match f.get::<Option<Table>>("owners")? {
                Some(t) => strings(t)?.iter().map(|p| player(p)).collect::<R<Vec<_>>>()?,
                None => Vec::new(),
            };
            (owners, f.get::<Option<bool>>("empty")?)
        }
        None => (Vec::new(), None),
    };
    let free = board.empty_squares();
    Ok(Square::all()
        .filter_map(|a| Some((a, crate::kernel::block(a)?)))
        .filter(|(_, b)| owners.iter().all(|&p| (*b & board.checkers(p)).any()))
        .filter(|(_, b)| match empty {
            Some(true) => (*b - free).is_empty(),
            Some(false) => (*b - free).any(),
            None => true,
        })
        .map(|(a, _)| a)
        .collect())
}

/// Removes repeated answers, keeping the first of each, without hashing in the
/// common case of squares.
fn dedup_keep_first(options: &mut Vec<Answer>) {
    let mut squares = Bitboard::EMPTY;
    if options.iter().all(|o| matches!(o, Answer::Square(_))) {
        options.retain(|o| match o {
            Answer::Square(sq) => {
                let new = !squares.contains(*sq);
                squares.insert(*sq);
                new
            }
            _ => true,
        });
    } else {
        let mut seen = std::collections::HashSet::with_capacity(options.len());
        options.retain(|o| seen.insert(o.clone()));
    }
}

/// The pending answer to a question, or a halt that turns the question into the
/// game's pending decision (ENGINEERING.md invariant 3). `None` means "none" was
/// chosen for an optional question.
fn ask(lua: &Lua, kind: QuestionKind, prompt: String, options: Vec<Answer>, optional: bool) -> R<Asked> {
    // The same answer offered twice is one option (keep the first of each).
    let mut options = options;
    dedup_keep_first(&mut options);
    if options.is_empty() && !optional {
        return Err(err(format!("the question '{prompt}' has no possible answer; check for that before asking")));
    }
    let none = Answer::Option("none".into());
    let answer = with_run(lua, |run| {
        if !run.writable {
            return Err(err("can_play and planet checks cannot ask questions"));
        }
        if options.len() == 1 && !optional {
            return Ok(Some(options[0].clone()));
        }
        let Some(answer) = run.answers.get(run.cursor).cloned() else { return Ok(None) };
        run.cursor += 1;
        if answer == none && optional {
            return Ok(Some(none.clone()));
        }
        if !options.contains(&answer) {
            return Err(err(format!("'{answer}' is not an answer to '{prompt}'")));
        }
        Ok(Some(answer))
    })?;
    match answer {
        Some(a) if a == none => Ok(Asked::Answer(None)),
        Some(a) => Ok(Asked::Answer(Some(a))),
        None => {
            if optional {
                options.push(none);
            }
            // Record the stop; the caller returns the HALT sentinel and the
            // script's ctx proxy raises it (no Rust error, so no traceback).
            let _ = halt(lua, Stop::Asked(Question { prompt, kind, options }));
            Ok(Asked::Halt)
        }
    }
}

/// What `ask` found: an answer (`None` for "none"), or that the run must stop.
enum Asked {
    Answer(Option<Answer>),
    Halt,
}

fn answer_value(lua: &Lua, asked: Asked) -> R<Value> {
    Ok(match asked {
        Asked::Halt => Value::Table(halt_sentinel(lua)?),
        Asked::Answer(None) => Value::Nil,
        Asked::Answer(Some(a)) => Value::String(lua.create_string(a.to_string())?),
    })
}

fn halt_sentinel(lua: &Lua) -> R<Table> {
    let names = lua.app_data_ref::<Names>().ok_or_else(|| err("names are not set up"))?;
    Ok(names.halt.clone())
}

fn optional(opts: &Option<Table>) -> R<bool> {
    Ok(match opts {
        Some(t) => t.get::<Option<bool>>("optional")?.unwrap_or(false),
        None => false,
    })
}

fn strings(t: Table) -> R<Vec<String>> {
    t.sequence_values::<String>().collect()
}

fn card_id(run: &Run, id: &str) -> R<CardId> {
    run.card_ids
        .iter()
        .position(|c| c == id)
        .map(|i| CardId(i as u16))
        .ok_or_else(|| err(format!("'{id}' is not a card of this game")))
}

/// Builds the table of host functions behind every script's `ctx`. Each function
/// ignores its first argument (the script's `ctx`, as in `ctx:checker(sq)`).
pub fn api_table(lua: &Lua) -> R<Table> {
    let mut builder = ApiBuilder { lua, table: lua.create_table()?, error: None };
    let m = &mut builder;
    {
        // Every method goes through `add`, which lifts the memory limit while it runs.
        // ---- who and when ----
        add(m, "player", |lua, ()| with_run(lua, |r| Ok(r.user.name())));
        add(m, "opponent", |lua, ()| with_run(lua, |r| Ok((!r.user).name())));
        add(m, "turn", |lua, ()| with_run(lua, |r| Ok(r.state.turn + 1)));
        add(m, "to_move", |lua, ()| with_run(lua, |r| Ok(r.state.to_move.name())));

        // ---- checkers ----
        add(m, "checker", |lua, sq: String| {
            let sq = square(&sq)?;
            let c = with_run(lua, |r| Ok(r.state.board.checker(sq)))?;
            c.map(|c| checker_table(lua, sq, &c)).transpose()
        });
        add(m, "checkers", |lua, filter: Option<Table>| {
            let found: Vec<(Square, Checker)> = with_run(lua, |r| {
                let set = checker_filter(r, filter)?;
                Ok(set.filter_map(|sq| Some((sq, r.state.board.checker(sq)?))).collect())
            })?;
            lua.create_sequence_from(found.iter().map(|(sq, c)| checker_table(lua, *sq, c)).collect::<R<Vec<_>>>()?)
        });
        add(m, "count", |lua, filter: Option<Table>| with_run(lua, |r| Ok(checker_filter(r, filter)?.count())));
        add(m, "reserve", |lua, p: String| with_run(lua, |r| Ok(r.state.board.reserve(player(&p)?))));

        // ---- squares and terrain ----
        add(m, "is_empty", |lua, sq: String| with_run(lua, |r| Ok(r.state.board.is_empty(square(&sq)?))));
        add(m, "squares", |lua, filter: Option<Table>| {
            let set = with_run(lua, |r| square_filter(r, filter))?;
            square_list(lua, set)
        });
        add(m, "terrain", |lua, sq: String| {
            with_run(lua, |r| Ok(r.state.board.terrain_at(square(&sq)?).map(Terrain::name)))
        });
        add(m, "colour", |_, sq: String| Ok(if square(&sq)?.colour() == Colour::Dark { "dark" } else { "light" }));
        add(m, "neighbour", |_, (sq, dir): (String, String)| {
            Ok(square(&sq)?.step(rule(dir.parse::<Dir>())?).map(|s| s.to_string()))
        });
        add(m, "orientation", |lua, ()| {
            with_run(lua, |r| Ok(r.state.board.orientation().forward(Player::Dark).name()))
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
        add(m, "monolith", |lua, ()| with_run(lua, |r| Ok(r.state.board.monolith().map(|s| s.to_string()))));
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
            let anchors = with_run(lua, |r| blocks(r, filter))?;
            square_list(lua, anchors)
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
        add(m, "wall_spots", |lua, ()| {
            let spots = with_run(lua, |r| Ok(r.state.board.wall_spots()))?;
            let names = lua.app_data_ref::<Names>().ok_or_else(|| err("names are not set up"))?;
            let all = EdgePair::all();
            lua.create_sequence_from(
                spots.iter().filter_map(|p| all.binary_search(p).ok()).map(|i| names.pairs[i].clone()),
            )
        });

        // ---- counters, piles, this turn ----
        add(m, "counter", |lua, (p, name): (String, String)| {
            with_run(lua, |r| {
                let c = r.state.counters(player(&p)?);
                match name.as_str() {
                    "pawns_revived" => Ok(c.pawns_revived),
                    "emperor_captures" => Ok(c.emperor_captures),
                    _ => Err(err(format!("'{name}' is not a counter (pawns_revived, emperor_captures)"))),
                }
            })
        });
        add(m, "piles", |lua, ()| {
            let (ids, draw, face_up, discard) = with_run(lua, |r| {
                let p = &r.state.piles;
                Ok((r.card_ids.clone(), p.draw.clone(), p.face_up.clone(), p.discard.clone()))
            })?;
            let named = |cards: Vec<CardId>| list(lua, cards.iter().map(|c| ids[usize::from(c.0)].clone()));
            let t = lua.create_table()?;
            t.raw_set("draw", named(draw)?)?;
            t.raw_set("face_up", named(face_up)?)?;
            t.raw_set("discard", named(discard)?)?;
            Ok(t)
        });
        add(m, "moved", |lua, ()| {
            let moved = with_run(lua, |r| Ok(r.state.moved))?;
            moved
                .map(|m| {
                    let t = lua.create_table()?;
                    t.raw_set("start", m.start.to_string())?;
                    t.raw_set("now", m.now.to_string())?;
                    Ok(t)
                })
                .transpose()
        });
        add(m, "random", |lua, n: i64| {
            if !(1..=1_000_000).contains(&n) {
                return Err(err("ctx:random(n) needs n from 1 to 1000000"));
            }
            writing(lua, |r| Ok(r.state.rng.below(n as usize) + 1))
        });
        add(m, "log", |lua, text: String| {
            with_run(lua, |r| {
                if r.log.len() < 64 {
                    r.log.push(text.chars().take(200).collect());
                }
                Ok(())
            })
        });

        // ---- move helpers ----
        add(m, "legal_moves", |lua, filter: Option<Table>| {
            let moves = with_run(lua, |r| moves_for(r, filter))?;
            list(lua, moves)
        });
        add(m, "step_targets", |lua, (sq, d): (String, Value)| {
            let (sq, d) = (square(&sq)?, dirs(d)?);
            let targets = with_run(lua, |r| Ok(r.state.board.step_targets(sq, &d)))?;
            square_list(lua, targets)
        });
        add(m, "slide_targets", |lua, (sq, d): (String, Value)| {
            let (sq, d) = (square(&sq)?, dirs(d)?);
            let targets = with_run(lua, |r| Ok(r.state.board.slide_targets(sq, &d)))?;
            square_list(lua, targets)
        });
        add(m, "jump_targets", |lua, (sq, d): (String, Value)| {
            let (sq, d) = (square(&sq)?, dirs(d)?);
            let targets = with_run(lua, |r| Ok(r.state.board.jump_targets(sq, &d)))?;
            square_list(lua, targets)
        });

        // ---- operations (each enforces the rules; a refusal is an error) ----
        add(m, "place_terrain", |lua, (sq, t): (String, String)| {
            writing(lua, |r| rule(r.state.board.place_terrain(square(&sq)?, terrain(&t)?)))
        });
        add(m, "remove_terrain", |lua, sq: String| {
            writing(lua, |r| rule(r.state.board.remove_terrain(square(&sq)?)).map(Terrain::name))
        });
        add(m, "put_token", |lua, (sq, t): (String, String)| {
            writing(lua, |r| rule(r.state.board.put_token(square(&sq)?, token(&t)?)))
        });
        add(m, "remove_token", |lua, (sq, t): (String, String)| {
            writing(lua, |r| rule(r.state.board.remove_token(square(&sq)?, token(&t)?)))
        });
        add(m, "can_take_token", |lua, (sq, t): (String, String)| {
            with_run(lua, |r| Ok(r.state.board.can_take_token(square(&sq)?, token(&t)?)))
        });
        add(m, "remove_checker", |lua, sq: String| {
            writing(lua, |r| rule(r.state.board.remove_checker(square(&sq)?)).map(|_| ()))
        });
        add(m, "place_from_reserve", |lua, sq: String| {
            writing(lua, |r| rule(r.state.board.place_from_reserve(r.user, square(&sq)?)))
        });
        add(m, "relocate", |lua, (from, to): (String, String)| {
            writing(lua, |r| rule(r.state.board.relocate(square(&from)?, square(&to)?)))
        });
        add(m, "make_emperor", |lua, (pawn, king): (String, String)| {
            writing(lua, |r| rule(r.state.board.make_emperor(square(&pawn)?, square(&king)?)))
        });
        add(m, "place_monolith", |lua, sq: String| writing(lua, |r| rule(r.state.board.place_monolith(square(&sq)?))));
        add(m, "move_monolith", |lua, dir: String| {
            let report = writing(lua, |r| rule(r.state.board.move_monolith(rule(dir.parse::<Dir>())?)))?;
            let t = lua.create_table()?;
            t.raw_set("removed", list(lua, report.removed)?)?;
            t.raw_set("pushed", report.pushed.len())?;
            Ok(t)
        });
        add(m, "place_walls", |lua, pair: String| {
            writing(lua, |r| rule(r.state.board.place_walls(r.user, rule(pair.parse::<EdgePair>())?)))
        });
        add(m, "remove_wall", |lua, edge: String| {
            writing(lua, |r| rule(r.state.board.remove_wall(rule(edge.parse::<Edge>())?)).map(|p| p.name()))
        });
        add(m, "rotate", |lua, way: String| {
            let rotation = match way.as_str() {
                "clockwise" => Rotation::Clockwise,
                "counterclockwise" => Rotation::Counterclockwise,
                _ => return Err(err(format!("'{way}' is not a rotation (clockwise, counterclockwise)"))),
            };
            writing(lua, |r| {
                r.state.board.rotate(rotation);
                Ok(())
            })
        });
        add(m, "add_counter", |lua, (p, name, n): (String, String, u32)| {
            writing(lua, |r| {
                let c = r.state.counters_mut(player(&p)?);
                match name.as_str() {
                    "pawns_revived" => c.pawns_revived += n,
                    "emperor_captures" => c.emperor_captures += n,
                    _ => return Err(err(format!("'{name}' is not a counter (pawns_revived, emperor_captures)"))),
                }
                Ok(())
            })
        });
        add(m, "play_move", |lua, (text, filter): (String, Option<Table>)| {
            let wanted: MoveText = rule(text.parse())?;
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
            writing(lua, |r| rule(r.state.jump_by_card(from, dir)).map(|s| s.to_string()))
        });
        add(m, "lift", |lua, sq: String| {
            let sq = square(&sq)?;
            writing(lua, |r| {
                let c = rule(r.state.board.set_aside(sq))?;
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
                rule(r.state.board.put_back(sq, c))
            })
        });
        add(m, "set_constraint", |lua, squares: Table| {
            let movers = squares_of(Some(squares))?;
            writing(lua, |r| {
                r.state.next_constraint = Some(Constraint { card: r.card, movers });
                Ok(())
            })
        });
        add(m, "reshuffle", |lua, ()| {
            writing(lua, |r| {
                r.state.reshuffle_all();
                Ok(())
            })
        });
        add(m, "set_draw_order", |lua, order: Table| {
            let order = strings(order)?;
            writing(lua, |r| {
                let ids = order.iter().map(|id| card_id(r, id)).collect::<R<Vec<_>>>()?;
                rule(r.state.reorder_draw_pile(ids))
            })
        });

        // ---- questions ----
        let simple: [(&str, QuestionKind); 7] = [
            ("ask_square", QuestionKind::Square),
            ("ask_checker", QuestionKind::Checker),
            ("ask_edge", QuestionKind::Edge),
            ("ask_edges", QuestionKind::Edges),
            ("ask_direction", QuestionKind::Direction),
            ("ask_move", QuestionKind::Move),
            ("ask_option", QuestionKind::Option),
        ];
        for (name, kind) in simple {
            add(m, name, move |lua, (prompt, options, opts): (String, Table, Option<Table>)| {
                if options.raw_len() > 4096 {
                    return Err(err("a question may offer at most 4096 answers"));
                }
                let options = options
                    .sequence_values::<LuaString>()
                    .map(|s| parse_answer(kind, &s?.to_str()?))
                    .collect::<R<Vec<_>>>()?;
                let answer = ask(lua, kind, prompt, options, optional(&opts)?)?;
                answer_value(lua, answer)
            });
        }
        add(m, "ask_order", |lua, (prompt, items): (String, Table)| {
            let mut left = strings(items)?;
            if left.len() > 64 {
                return Err(err("ask_order orders at most 64 items"));
            }
            let mut order = Vec::with_capacity(left.len());
            while !left.is_empty() {
                let position = order.len() + 1;
                let options = left.iter().map(|s| Answer::Option(s.clone())).collect();
                let q = format!("{prompt} (position {position} of {})", position + left.len() - 1);
                let pick = match ask(lua, QuestionKind::Option, q, options, false)? {
                    Asked::Halt => return Ok(Value::Table(halt_sentinel(lua)?)),
                    Asked::Answer(Some(Answer::Option(pick))) => pick,
                    Asked::Answer(_) => return Err(err("ask_order expected a named option")),
                };
                // Only the first copy: a pile may hold a card more than once (R1.6).
                if let Some(i) = left.iter().position(|s| *s == pick) {
                    left.remove(i);
                }
                order.push(pick);
            }
            Ok(Value::Table(list(lua, order)?))
        });
    }
    builder.finish()
}

struct ApiBuilder<'a> {
    lua: &'a Lua,
    table: Table,
    error: Option<LuaError>,
}

impl ApiBuilder<'_> {
    fn finish(self) -> R<Table> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.table),
        }
    }
}

/// Registers a `ctx` function. While it runs, the Lua memory limit is lifted: with
/// a limit set, mlua guards every allocation made from Rust with a protected call,
/// which made reading the board several times slower. Host functions allocate a
/// bounded amount (at most a few thousand short strings), and the limit is back
/// before any script code runs again, so scripts stay bounded.
fn add<A, T, F>(m: &mut ApiBuilder, name: &str, f: F)
where
    A: mlua::FromLuaMulti,
    T: mlua::IntoLuaMulti,
    F: Fn(&Lua, A) -> R<T> + 'static,
{
    let function = m.lua.create_function(move |lua, mut args: mlua::MultiValue| {
        args.pop_front(); // the script's ctx
        let args = A::from_lua_multi(args, lua)?;
        let _unlimited = Unlimited::new(lua);
        f(lua, args)
    });
    match function.and_then(|function| m.table.raw_set(name, function)) {
        Ok(()) => {}
        Err(e) => m.error = Some(e),
    }
}

/// Lifts the memory limit until dropped.
struct Unlimited<'a>(&'a Lua);

impl<'a> Unlimited<'a> {
    fn new(lua: &'a Lua) -> Unlimited<'a> {
        let _ = lua.set_memory_limit(0);
        Unlimited(lua)
    }
}

impl Drop for Unlimited<'_> {
    fn drop(&mut self) {
        let _ = self.0.set_memory_limit(super::sandbox::MEMORY_LIMIT);
    }
}

/// A question's option, parsed by kind so the answer type is checked once here.
fn parse_answer(kind: QuestionKind, text: &str) -> R<Answer> {
    Ok(match kind {
        QuestionKind::Square | QuestionKind::Checker => Answer::Square(square(text)?),
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
            Answer::Option(text.to_string())
        }
    })
}

/// `{only = {squares}, exclude = {squares}, not_to = {squares}}` for the card's user.
fn legal_moves_for(run: &Run, filter: Option<Table>) -> R<Vec<crate::kernel::Move>> {
    let (only, exclude, not_to) = match &filter {
        Some(f) => (
            f.get::<Option<Table>>("only")?,
            squares_of(f.get::<Option<Table>>("exclude")?)?,
            squares_of(f.get::<Option<Table>>("not_to")?)?,
        ),
        None => (None, Bitboard::EMPTY, Bitboard::EMPTY),
    };
    let allowed = if only.is_some() { squares_of(only)? } else { Bitboard::ALL };
    Ok(run.state.moves_avoiding(run.user, allowed - exclude, not_to))
}

fn moves_for(run: &Run, filter: Option<Table>) -> R<Vec<String>> {
    Ok(legal_moves_for(run, filter)?.iter().map(ToString::to_string).collect())
}

/// The direction from `from` to `to` if `to` is exactly `distance` steps away in a line.
fn direction(from: Square, to: Square, distance: i8) -> Option<Dir> {
    let (df, dr) = (to.file() - from.file(), to.rank() - from.rank());
    Dir::ALL.into_iter().find(|d| {
        let (x, y) = d.delta();
        x * distance == df && y * distance == dr
    })
}
