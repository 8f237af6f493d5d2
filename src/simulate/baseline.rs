//! `--baseline`: an ablation run that takes the games as dealt (and any
//! ablation game it asks for again) from an earlier run's `--games-out` file
//! instead of playing them again. Since a game depends only on the plan and
//! its index, the taken rows are the rows the run would have played: the
//! report and the per-game file are the same as without `--baseline`.
//!
//! A row is taken only when it is this plan's game: the same content hash,
//! the deal seed and colours of its index, and (by its replay command) the
//! same players, seed and seating. Anything else is refused with a sentence
//! naming the file and line, before any game is played.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{GameRow, Plan, read_row, run_words};

/// A game's place in a run: its index and the card withheld from side A
/// (`None` for the game as dealt).
type GameKey = (u32, Option<String>);

/// The rows of an earlier run, each with its line in the file.
#[derive(Clone, Debug)]
pub struct Baseline {
    /// The file's name, for messages.
    name: String,
    rows: Arc<BTreeMap<GameKey, (usize, GameRow)>>,
}

impl Baseline {
    /// Reads a `--games-out` file's text; `name` names it in messages.
    pub fn read(name: &str, text: &str) -> Result<Baseline, String> {
        let mut rows = BTreeMap::new();
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let at = format!("{name}, line {}", n + 1);
            let row = read_row(line).map_err(|e| {
                format!("{at}: not a game's row ({e}); --baseline takes the file a run wrote with --games-out")
            })?;
            let key = (row.index, row.withheld.clone());
            if rows.insert(key, (n + 1, row)).is_some() {
                return Err(format!("{at}: the same game is in the file twice"));
            }
        }
        if rows.is_empty() {
            return Err(format!("{name}: holds no games"));
        }
        Ok(Baseline { name: name.to_string(), rows: Arc::new(rows) })
    }

    /// The row of game `index` with `withheld` withheld from side A, if the
    /// baseline has it. Valid only after [`Baseline::check`] accepted the plan.
    pub fn row(&self, index: u32, withheld: Option<&str>) -> Option<&GameRow> {
        self.rows.get(&(index, withheld.map(str::to_string))).map(|(_, row)| row)
    }

    /// Refuses a baseline that is not an earlier run of `plan` (whose content
    /// hashes to `content`) covering its games: each game as dealt in
    /// `[first_game, first_game + games)` must be in it, and be the plan's.
    pub fn check(&self, plan: &Plan, content: &str) -> Result<(), String> {
        let end = plan.first_game.saturating_add(plan.games);
        let held: Vec<u32> = self.rows.keys().filter(|(_, w)| w.is_none()).map(|(i, _)| *i).collect();
        if let Some(missing) = (plan.first_game..end).find(|i| self.row(*i, None).is_none()) {
            return Err(format!(
                "{}: game {missing} is not in it ({}), so this run cannot take its games from it: \
                 ask for games within them (--first-game, --games), or give the games file of a run that covers them",
                self.name,
                describe_indices(&held)
            ));
        }
        let expected_run = run_words(&plan.replay_command(plan.first_game));
        for ((index, withheld), (line, row)) in self.rows.range((plan.first_game, None)..) {
            if *index >= end {
                break;
            }
            let at = format!("{}, line {line}", self.name);
            if row.content != content {
                let theirs = crate::text::visible(&row.content);
                return Err(format!(
                    "{at}: game {index} was played on other content (content hash '{theirs}', this run's is \
                     '{content}'): another deck, or its cards or planets changed since"
                ));
            }
            if row.seed != plan.deal_seed(*index) || row.a_colour != Plan::a_colour(*index) {
                return Err(format!(
                    "{at}: game {index} was dealt otherwise (seed {}, side A {}): not a game of seed {}{}",
                    row.seed,
                    row.a_colour,
                    plan.seed,
                    if plan.swap_seats { " with the seats swapped" } else { "" }
                ));
            }
            if withheld.is_none() {
                let run = row.replay.as_deref().map(run_words).unwrap_or_default();
                if run != expected_run {
                    let run = crate::text::visible(&run);
                    return Err(format!(
                        "{at}: game {index} was played by '{run}', not by this run's '{expected_run}'"
                    ));
                }
            }
        }
        Ok(())
    }

    /// The games of `plan` taken from the baseline: (as dealt, ablation games).
    pub fn taken(&self, plan: &Plan) -> (usize, usize) {
        let end = plan.first_game.saturating_add(plan.games);
        let in_range = self.rows.range((plan.first_game, None)..).take_while(|((i, _), _)| *i < end);
        let (mut dealt, mut ablated) = (0, 0);
        for ((_, withheld), _) in in_range {
            match withheld {
                None => dealt += 1,
                Some(card) if plan.ablate.contains(card) => ablated += 1,
                Some(_) => {}
            }
        }
        (dealt, ablated)
    }
}

/// Game indices as ranges: `games 0-99 and 200-249`.
fn describe_indices(indices: &[u32]) -> String {
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for &i in indices {
        match ranges.last_mut() {
            Some((_, last)) if *last + 1 == i => *last = i,
            _ => ranges.push((i, i)),
        }
    }
    let words: Vec<String> =
        ranges.iter().map(|&(a, b)| if a == b { a.to_string() } else { format!("{a}-{b}") }).collect();
    let list = match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.concat(),
    };
    format!("it holds game{} {list}", if indices.len() == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::describe_indices;

    #[test]
    fn indices_are_described_as_ranges() {
        assert_eq!(describe_indices(&[4]), "it holds game 4");
        assert_eq!(describe_indices(&[0, 1, 2, 5, 7, 8]), "it holds games 0-2, 5 and 7-8");
    }
}
