//! `ctx`: the one object card and planet scripts use to read the game, change it
//! through the kernel's rule-enforcing operations, and ask questions.
//! Documented for modders in cards/README.md; keep the two in step.
//!
//! Every method works on the current [`Run`] (a scratch copy of the state), kept in
//! the Lua state's app data for the length of one script call.

use std::rc::Rc;

use mlua::{Error as LuaError, Lua, LuaString, Table, UserData, UserDataMethods, Value};

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

/// The `ctx` userdata; all its state is in the current [`Run`].
pub struct Ctx;

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
    squares: Vec<LuaString>,
    players: [LuaString; 2],
    kinds: [LuaString; 3],
}

impl Names {
    pub fn new(lua: &Lua) -> R<Names> {
        Ok(Names {
            squares: Square::all().map(|s| lua.create_string(s.to_string())).collect::<R<_>>()?,
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

/// `{owner=, kind=, ring=, snookle=, hippo=}`: which checkers to list or count.
fn checker_filter(run: &Run, filter: Option<Table>) -> R<Bitboard> {
    let board = &run.state.board;
    let mut set = board.occupied();
    let Some(f) = filter else { return Ok(set) };
    if let Some(owner) = f.get::<Option<String>>("owner")? {
        set &= board.checkers(player(&owner)?);
    }
    if let Some(kind) = f.get::<Option<String>>("kind")? {
        set &= match kind.as_str() {
            "pawn" => board.pawns(),
            "king" => board.kings() - board.emperors(),
            "emperor" => board.emperors(),
            "crowned" => board.kings(),
            _ => return Err(err(format!("'{kind}' is not a kind (pawn, king, emperor, crowned)"))),
        };
    }
    for t in Token::ALL {
        match f.get::<Option<bool>>(t.name())? {
            Some(true) => set &= board.tokens(t),
            Some(false) => set = set - board.tokens(t),
            None => {}
        }
    }
    if let Some(colour) = f.get::<Option<String>>("colour")? {
        set &= colour_mask(&colour)?;
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
    match f.get::<Option<bool>>("empty")? {
        Some(true) => set &= board.empty_squares(),
        Some(false) => set = set - board.empty_squares(),
        None => {}
    }
    if let Some(colour) = f.get::<Option<String>>("colour")? {
        set &= colour_mask(&colour)?;
    }
    let orientation = board.orientation();
    if let Some(p) = f.get::<Option<String>>("half")? {
        set &= orientation.half(player(&p)?);
    }
    if let Some(p) = f.get::<Option<String>>("back_row")? {
        set &= orientation.back_row(player(&p)?);
    }
    if let Some(p) = f.get::<Option<String>>("king_row")? {
        set &= orientation.king_row(player(&p)?);
    }
    if let Some(t) = f.get::<Option<String>>("terrain")? {
        set &= match t.as_str() {
            "any" => board.terrain(Terrain::Water) | board.terrain(Terrain::Fire),
            other => board.terrain(terrain(other)?),
        };
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

/// The pending answer to a question, or a halt that turns the question into the
/// game's pending decision (ENGINEERING.md invariant 3). `None` means "none" was
/// chosen for an optional question.
fn ask(lua: &Lua, kind: QuestionKind, prompt: String, options: Vec<Answer>, optional: bool) -> R<Option<Answer>> {
    // The same answer offered twice is one option (keep the first of each).
    let mut options = options;
    let mut seen = std::collections::HashSet::new();
    options.retain(|o| seen.insert(o.clone()));
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
        Some(a) if a == none => Ok(None),
        Some(a) => Ok(Some(a)),
        None => {
            if optional {
                options.push(none);
            }
            Err(halt(lua, Stop::Asked(Question { prompt, kind, options })))
        }
    }
}

fn answer_value(lua: &Lua, answer: Option<Answer>) -> R<Value> {
    Ok(match answer {
        None => Value::Nil,
        Some(a) => Value::String(lua.create_string(a.to_string())?),
    })
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

impl UserData for Ctx {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        // ---- who and when ----
        m.add_method("player", |lua, _, ()| with_run(lua, |r| Ok(r.user.name())));
        m.add_method("opponent", |lua, _, ()| with_run(lua, |r| Ok((!r.user).name())));
        m.add_method("turn", |lua, _, ()| with_run(lua, |r| Ok(r.state.turn + 1)));
        m.add_method("to_move", |lua, _, ()| with_run(lua, |r| Ok(r.state.to_move.name())));

        // ---- checkers ----
        m.add_method("checker", |lua, _, sq: String| {
            let sq = square(&sq)?;
            let c = with_run(lua, |r| Ok(r.state.board.checker(sq)))?;
            c.map(|c| checker_table(lua, sq, &c)).transpose()
        });
        m.add_method("checkers", |lua, _, filter: Option<Table>| {
            let found: Vec<(Square, Checker)> = with_run(lua, |r| {
                let set = checker_filter(r, filter)?;
                Ok(set.filter_map(|sq| Some((sq, r.state.board.checker(sq)?))).collect())
            })?;
            lua.create_sequence_from(found.iter().map(|(sq, c)| checker_table(lua, *sq, c)).collect::<R<Vec<_>>>()?)
        });
        m.add_method("count", |lua, _, filter: Option<Table>| {
            with_run(lua, |r| Ok(checker_filter(r, filter)?.count()))
        });
        m.add_method("reserve", |lua, _, p: String| with_run(lua, |r| Ok(r.state.board.reserve(player(&p)?))));

        // ---- squares and terrain ----
        m.add_method("is_empty", |lua, _, sq: String| with_run(lua, |r| Ok(r.state.board.is_empty(square(&sq)?))));
        m.add_method("squares", |lua, _, filter: Option<Table>| {
            let set = with_run(lua, |r| square_filter(r, filter))?;
            square_list(lua, set)
        });
        m.add_method("terrain", |lua, _, sq: String| {
            with_run(lua, |r| Ok(r.state.board.terrain_at(square(&sq)?).map(Terrain::name)))
        });
        m.add_method("colour", |_, _, sq: String| {
            Ok(if square(&sq)?.colour() == Colour::Dark { "dark" } else { "light" })
        });
        m.add_method("neighbour", |_, _, (sq, dir): (String, String)| {
            Ok(square(&sq)?.step(rule(dir.parse::<Dir>())?).map(|s| s.to_string()))
        });
        m.add_method("orientation", |lua, _, ()| {
            with_run(lua, |r| Ok(r.state.board.orientation().forward(Player::Dark).name()))
        });
        m.add_method("supply", |lua, _, (kind, owner): (String, Option<String>)| {
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
        m.add_method("monolith", |lua, _, ()| with_run(lua, |r| Ok(r.state.board.monolith().map(|s| s.to_string()))));
        m.add_method("monolith_squares", |lua, _, ()| {
            let block = with_run(lua, |r| Ok(r.state.board.monolith_block()))?;
            square_list(lua, block)
        });
        m.add_method("monolith_spots", |lua, _, ()| {
            let spots = with_run(lua, |r| Ok(r.state.board.monolith_spots()))?;
            square_list(lua, spots)
        });
        m.add_method("monolith_directions", |lua, _, ()| {
            let dirs = with_run(lua, |r| Ok(r.state.board.monolith_directions()))?;
            list(lua, dirs)
        });
        m.add_method("blocks", |lua, _, filter: Option<Table>| {
            let anchors = with_run(lua, |r| blocks(r, filter))?;
            square_list(lua, anchors)
        });
        m.add_method("block_squares", |lua, _, anchor: String| {
            let anchor = square(&anchor)?;
            let block = crate::kernel::block(anchor)
                .ok_or_else(|| err(format!("no 2×2 block has {anchor} as its lower-left square")))?;
            square_list(lua, block)
        });
        m.add_method("walls", |lua, _, owner: Option<String>| {
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
        m.add_method("wall_spots", |lua, _, ()| {
            let spots = with_run(lua, |r| Ok(r.state.board.wall_spots()))?;
            list(lua, spots)
        });

        // ---- counters, piles, this turn ----
        m.add_method("counter", |lua, _, (p, name): (String, String)| {
            with_run(lua, |r| {
                let c = r.state.counters(player(&p)?);
                match name.as_str() {
                    "pawns_revived" => Ok(c.pawns_revived),
                    "emperor_captures" => Ok(c.emperor_captures),
                    _ => Err(err(format!("'{name}' is not a counter (pawns_revived, emperor_captures)"))),
                }
            })
        });
        m.add_method("piles", |lua, _, ()| {
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
        m.add_method("moved", |lua, _, ()| {
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
        m.add_method("random", |lua, _, n: i64| {
            if !(1..=1_000_000).contains(&n) {
                return Err(err("ctx:random(n) needs n from 1 to 1000000"));
            }
            writing(lua, |r| Ok(r.state.rng.below(n as usize) + 1))
        });
        m.add_method("log", |lua, _, text: String| {
            with_run(lua, |r| {
                if r.log.len() < 64 {
                    r.log.push(text.chars().take(200).collect());
                }
                Ok(())
            })
        });

        // ---- move helpers ----
        m.add_method("legal_moves", |lua, _, filter: Option<Table>| {
            let moves = with_run(lua, |r| moves_for(r, filter))?;
            list(lua, moves)
        });
        m.add_method("step_targets", |lua, _, (sq, d): (String, Value)| {
            let (sq, d) = (square(&sq)?, dirs(d)?);
            let targets = with_run(lua, |r| Ok(r.state.board.step_targets(sq, &d)))?;
            square_list(lua, targets)
        });
        m.add_method("slide_targets", |lua, _, (sq, d): (String, Value)| {
            let (sq, d) = (square(&sq)?, dirs(d)?);
            let targets = with_run(lua, |r| Ok(r.state.board.slide_targets(sq, &d)))?;
            square_list(lua, targets)
        });
        m.add_method("jump_targets", |lua, _, (sq, d): (String, Value)| {
            let (sq, d) = (square(&sq)?, dirs(d)?);
            let targets = with_run(lua, |r| Ok(r.state.board.jump_targets(sq, &d)))?;
            square_list(lua, targets)
        });

        // ---- operations (each enforces the rules; a refusal is an error) ----
        m.add_method("place_terrain", |lua, _, (sq, t): (String, String)| {
            writing(lua, |r| rule(r.state.board.place_terrain(square(&sq)?, terrain(&t)?)))
        });
        m.add_method("remove_terrain", |lua, _, sq: String| {
            writing(lua, |r| rule(r.state.board.remove_terrain(square(&sq)?)).map(Terrain::name))
        });
        m.add_method("put_token", |lua, _, (sq, t): (String, String)| {
            writing(lua, |r| rule(r.state.board.put_token(square(&sq)?, token(&t)?)))
        });
        m.add_method("remove_token", |lua, _, (sq, t): (String, String)| {
            writing(lua, |r| rule(r.state.board.remove_token(square(&sq)?, token(&t)?)))
        });
        m.add_method("can_take_token", |lua, _, (sq, t): (String, String)| {
            with_run(lua, |r| Ok(r.state.board.can_take_token(square(&sq)?, token(&t)?)))
        });
        m.add_method("remove_checker", |lua, _, sq: String| {
            writing(lua, |r| rule(r.state.board.remove_checker(square(&sq)?)).map(|_| ()))
        });
        m.add_method("place_from_reserve", |lua, _, sq: String| {
            writing(lua, |r| rule(r.state.board.place_from_reserve(r.user, square(&sq)?)))
        });
        m.add_method("relocate", |lua, _, (from, to): (String, String)| {
            writing(lua, |r| rule(r.state.board.relocate(square(&from)?, square(&to)?)))
        });
        m.add_method("make_emperor", |lua, _, (pawn, king): (String, String)| {
            writing(lua, |r| rule(r.state.board.make_emperor(square(&pawn)?, square(&king)?)))
        });
        m.add_method("place_monolith", |lua, _, sq: String| {
            writing(lua, |r| rule(r.state.board.place_monolith(square(&sq)?)))
        });
        m.add_method("move_monolith", |lua, _, dir: String| {
            let report = writing(lua, |r| rule(r.state.board.move_monolith(rule(dir.parse::<Dir>())?)))?;
            let t = lua.create_table()?;
            t.raw_set("removed", list(lua, report.removed)?)?;
            t.raw_set("pushed", report.pushed.len())?;
            Ok(t)
        });
        m.add_method("place_walls", |lua, _, pair: String| {
            writing(lua, |r| rule(r.state.board.place_walls(r.user, rule(pair.parse::<EdgePair>())?)))
        });
        m.add_method("remove_wall", |lua, _, edge: String| {
            writing(lua, |r| rule(r.state.board.remove_wall(rule(edge.parse::<Edge>())?)).map(|p| p.name()))
        });
        m.add_method("rotate", |lua, _, way: String| {
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
        m.add_method("add_counter", |lua, _, (p, name, n): (String, String, u32)| {
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
        m.add_method("play_move", |lua, _, (text, filter): (String, Option<Table>)| {
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
        m.add_method("jump", |lua, _, (from, landing): (String, String)| {
            let (from, landing) = (square(&from)?, square(&landing)?);
            let dir = direction(from, landing, 2).ok_or_else(|| err(format!("{landing} is not a jump from {from}")))?;
            writing(lua, |r| rule(r.state.jump_by_card(from, dir)).map(|s| s.to_string()))
        });
        m.add_method("lift", |lua, _, sq: String| {
            let sq = square(&sq)?;
            writing(lua, |r| {
                let c = rule(r.state.board.set_aside(sq))?;
                r.lifted.push((sq, c));
                Ok(())
            })
        });
        m.add_method("put_back", |lua, _, sq: String| {
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
        m.add_method("set_constraint", |lua, _, squares: Table| {
            let movers = squares_of(Some(squares))?;
            writing(lua, |r| {
                r.state.next_constraint = Some(Constraint { card: r.card, movers });
                Ok(())
            })
        });
        m.add_method("reshuffle", |lua, _, ()| {
            writing(lua, |r| {
                r.state.reshuffle_all();
                Ok(())
            })
        });
        m.add_method("set_draw_order", |lua, _, order: Table| {
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
            m.add_method(name, move |lua, _, (prompt, options, opts): (String, Table, Option<Table>)| {
                let options = strings(options)?.iter().map(|s| parse_answer(kind, s)).collect::<R<Vec<_>>>()?;
                if options.len() > 4096 {
                    return Err(err("a question may offer at most 4096 answers"));
                }
                let answer = ask(lua, kind, prompt, options, optional(&opts)?)?;
                answer_value(lua, answer)
            });
        }
        m.add_method("ask_order", |lua, _, (prompt, items): (String, Table)| {
            let mut left = strings(items)?;
            if left.len() > 64 {
                return Err(err("ask_order orders at most 64 items"));
            }
            let mut order = Vec::with_capacity(left.len());
            while !left.is_empty() {
                let position = order.len() + 1;
                let options = left.iter().map(|s| Answer::Option(s.clone())).collect();
                let q = format!("{prompt} (position {position} of {})", position + left.len() - 1);
                let Some(Answer::Option(pick)) = ask(lua, QuestionKind::Option, q, options, false)? else {
                    return Err(err("ask_order expected a named option"));
                };
                // Only the first copy: a pile may hold a card more than once (R1.6).
                if let Some(i) = left.iter().position(|s| *s == pick) {
                    left.remove(i);
                }
                order.push(pick);
            }
            list(lua, order)
        });
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
