//! Agents by name, for everything that seats a computer player: the REPL,
//! `simulate` and the tools.

use super::{Agent, GreedyAgent, HostFactory, Level, MctsAgent, RandomAgent, SearchConfig};
use crate::game::PlanetId;

/// The players a simulation or a REPL seat can use.
pub const AGENTS: [&str; 5] = ["random", "greedy", "easy", "normal", "hard"];

/// How a search agent is limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// By iterations only: the same seed gives the same decisions (simulations).
    Reproducible,
    /// Also by time, so a player never waits long (the REPL).
    Interactive,
}

/// An agent by name: `random`, `greedy`, or a search level `easy`, `normal`,
/// `hard`. With `helpers`, a level that searches on more than one thread
/// (`hard`) makes its extra hosts with it; without, it searches on one thread
/// (as `simulate` wants, which plays games side by side instead).
pub fn make_agent(
    name: &str,
    seed: u64,
    planet_deck: Vec<PlanetId>,
    budget: Budget,
    helpers: Option<HostFactory>,
) -> Result<Box<dyn Agent>, String> {
    Ok(match name {
        "random" => Box::new(RandomAgent::new(seed)),
        "greedy" => Box::new(GreedyAgent::new(seed)),
        level => {
            let level: Level =
                level.parse().map_err(|_| format!("'{name}' is not a player ({})", AGENTS.join(", ")))?;
            let config = match budget {
                Budget::Reproducible => SearchConfig::level(level),
                Budget::Interactive => SearchConfig::interactive(level),
            };
            let agent = MctsAgent::new(config, planet_deck, seed);
            match helpers {
                Some(factory) if agent.config().threads > 1 => Box::new(agent.with_host_factory(factory)),
                _ => Box::new(agent),
            }
        }
    })
}
