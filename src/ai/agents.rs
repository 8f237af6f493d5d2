//! Agents by name, for everything that seats a computer player: the REPL,
//! `simulate` and the tools.

use std::fmt;
use std::time::Duration;

use super::{Agent, Exact, GreedyAgent, HostFactory, Level, MctsAgent, RandomAgent, SearchConfig};
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

/// A player as written on a command line: a name from [`AGENTS`], and for the
/// search levels an optional budget, `normal:iterations=300`,
/// `hard:time=200ms` or both (`easy:iterations=50,time=1s`); `nodes=N` is the
/// alpha-beta budget of the move steps where nothing is hidden or scripted
/// (plain checkers, [`super::fully_visible`]). A time budget makes decisions
/// depend on the machine's speed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    pub name: String,
    /// Iterations per decision, instead of the level's.
    pub iterations: Option<u32>,
    /// A time limit per decision, besides the iterations.
    pub time: Option<Duration>,
    /// Alpha-beta nodes per fully visible move step, instead of the level's.
    pub nodes: Option<u64>,
}

impl AgentSpec {
    /// The level's search settings with this spec's budget; `None` for the
    /// players that do not search.
    pub fn search_config(&self, budget: Budget) -> Option<SearchConfig> {
        let level: Level = self.name.parse().ok()?;
        let mut config = match budget {
            Budget::Reproducible => SearchConfig::level(level),
            Budget::Interactive => SearchConfig::interactive(level),
        };
        if let Some(n) = self.iterations {
            config.iterations = n;
        }
        if let Some(t) = self.time {
            config.time_limit = Some(t);
        }
        if let Some(n) = self.nodes {
            config.exact = Exact::Nodes(n);
        }
        Some(config)
    }

    /// Whether the same seed gives the same decisions on any machine (no time limit).
    pub fn reproducible(&self) -> bool {
        self.time.is_none()
    }
}

impl std::str::FromStr for AgentSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<AgentSpec, String> {
        let (name, options) = s.split_once(':').unwrap_or((s, ""));
        let name = name.trim().to_ascii_lowercase();
        if !AGENTS.contains(&name.as_str()) {
            return Err(format!("'{s}' is not a player ({})", AGENTS.join(", ")));
        }
        let mut spec = AgentSpec { name, iterations: None, time: None, nodes: None };
        for option in options.split(',').map(str::trim).filter(|o| !o.is_empty()) {
            if spec.name == "random" || spec.name == "greedy" {
                return Err(format!("'{s}': {} does not search, so it takes no budget", spec.name));
            }
            let (key, value) = option
                .split_once('=')
                .ok_or_else(|| format!("'{s}': '{option}' is not iterations=N or time=DURATION"))?;
            match key.trim() {
                "iterations" | "it" => {
                    let n: u32 = value.trim().parse().map_err(|_| format!("'{s}': '{value}' is not a count"))?;
                    if n == 0 {
                        return Err(format!("'{s}': a search needs at least 1 iteration"));
                    }
                    spec.iterations = Some(n);
                }
                "time" => spec.time = Some(parse_duration(value.trim()).map_err(|e| format!("'{s}': {e}"))?),
                "nodes" => {
                    let n: u64 = value.trim().parse().map_err(|_| format!("'{s}': '{value}' is not a count"))?;
                    if n == 0 {
                        return Err(format!("'{s}': a search needs at least 1 node"));
                    }
                    spec.nodes = Some(n);
                }
                other => return Err(format!("'{s}': unknown budget '{other}' (iterations, nodes, time)")),
            }
        }
        Ok(spec)
    }
}

/// `250ms`, `2s`, `1.5s`.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let bad = || format!("'{text}' is not a duration such as 250ms or 2s");
    let (number, scale) = if let Some(ms) = text.strip_suffix("ms") {
        (ms, 1e-3)
    } else if let Some(s) = text.strip_suffix('s') {
        (s, 1.0)
    } else {
        return Err(bad());
    };
    let seconds = number.trim().parse::<f64>().map_err(|_| bad())? * scale;
    if !(seconds > 0.0 && seconds < 86_400.0) {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// The canonical text: the name, then the budget given, iterations first,
/// time last (`normal:iterations=300,nodes=50000,time=200ms`).
impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        let mut options = Vec::new();
        if let Some(n) = self.iterations {
            options.push(format!("iterations={n}"));
        }
        if let Some(n) = self.nodes {
            options.push(format!("nodes={n}"));
        }
        if let Some(t) = self.time {
            options.push(format!("time={}ms", t.as_millis()));
        }
        if !options.is_empty() {
            write!(f, ":{}", options.join(","))?;
        }
        Ok(())
    }
}

/// An agent by name or spec ([`AgentSpec`]): `random`, `greedy`, or a search
/// level `easy`, `normal`, `hard` with an optional budget. With `helpers`, a
/// level that searches on more than one thread (`hard`) makes its extra hosts
/// with it; without, it searches on one thread (as `simulate` wants, which
/// plays games side by side instead).
pub fn make_agent(
    name: &str,
    seed: u64,
    planet_deck: Vec<PlanetId>,
    budget: Budget,
    helpers: Option<HostFactory>,
) -> Result<Box<dyn Agent>, String> {
    let spec: AgentSpec = name.parse()?;
    Ok(match spec.name.as_str() {
        "random" => Box::new(RandomAgent::new(seed)),
        "greedy" => Box::new(GreedyAgent::new(seed)),
        _ => {
            let config = spec.search_config(budget).expect("every other player is a search level");
            let agent = MctsAgent::new(config, planet_deck, seed);
            match helpers {
                Some(factory) if agent.config().threads > 1 => Box::new(agent.with_host_factory(factory)),
                _ => Box::new(agent),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_and_print_back() {
        let spec: AgentSpec = "normal:iterations=300,time=250ms".parse().unwrap();
        assert_eq!((spec.iterations, spec.time), (Some(300), Some(Duration::from_millis(250))));
        assert_eq!(spec.to_string(), "normal:iterations=300,time=250ms");
        assert!(!spec.reproducible());
        assert_eq!("hard:it=20".parse::<AgentSpec>().unwrap().to_string(), "hard:iterations=20");
        let spec: AgentSpec = "hard:time=2s,nodes=5000".parse().unwrap();
        assert_eq!(spec.to_string(), "hard:nodes=5000,time=2000ms");
        assert_eq!(spec.search_config(Budget::Reproducible).unwrap().exact, Exact::Nodes(5000));
        assert_eq!("Greedy".parse::<AgentSpec>().unwrap().to_string(), "greedy");
        let config = "easy:iterations=7".parse::<AgentSpec>().unwrap().search_config(Budget::Reproducible).unwrap();
        assert_eq!((config.iterations, config.temperature), (7, 0.25), "the level's other settings stay");
        for bad in [
            "wizard",
            "greedy:iterations=5",
            "normal:iterations=0",
            "normal:nodes=0",
            "normal:time=5",
            "normal:depth=3",
        ] {
            assert!(bad.parse::<AgentSpec>().is_err(), "{bad} should be refused");
        }
    }
}
