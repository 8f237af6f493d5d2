//! The intervals and tests the simulator reports: Wilson score intervals for
//! rates, Newcombe's hybrid interval for the difference of two independent
//! rates, a normal interval on paired differences, the likelihood of
//! superiority, and the sequential probability ratio test of cutechess-cli and
//! fishtest. Every function takes counts, so a report merged from shards gives
//! the same figures as the single run.

use serde::{Deserialize, Serialize};

/// The two-sided 95 % quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A figure with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Estimate {
    /// Whether the interval excludes `x` (the figure differs from it at the 5 % level).
    pub fn excludes(&self, x: f64) -> bool {
        x < self.low || x > self.high
    }

    /// `47.5% [42.6, 52.4]`: a rate and its interval in per cent.
    pub fn percent(&self) -> String {
        format!("{:.1}% [{:.1}, {:.1}]", 100.0 * self.value, 100.0 * self.low, 100.0 * self.high)
    }

    /// `+3.2 [-1.0, +7.4]`: a difference of rates in percentage points.
    pub fn points(&self) -> String {
        format!("{:+.1} [{:+.1}, {:+.1}]", 100.0 * self.value, 100.0 * self.low, 100.0 * self.high)
    }

    /// `12.3 [11.9, 12.7]`: a mean and its interval.
    pub fn plain(&self) -> String {
        format!("{:.1} [{:.1}, {:.1}]", self.value, self.low, self.high)
    }
}

/// The Wilson score interval of a rate: `successes` (a draw may count a half)
/// out of `n`. `None` when `n` is 0.
pub fn wilson(successes: f64, n: u64) -> Option<Estimate> {
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let p = (successes / n).clamp(0.0, 1.0);
    let z2 = Z95 * Z95;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
    Some(Estimate { value: p, low: (centre - half).max(0.0), high: (centre + half).min(1.0) })
}

/// The difference `p1 - p2` of two independent rates with Newcombe's hybrid
/// score interval (his method 10), built from the two Wilson intervals.
pub fn rate_difference(x1: f64, n1: u64, x2: f64, n2: u64) -> Option<Estimate> {
    let (a, b) = (wilson(x1, n1)?, wilson(x2, n2)?);
    let d = a.value - b.value;
    Some(Estimate {
        value: d,
        low: d - ((a.value - a.low).powi(2) + (b.high - b.value).powi(2)).sqrt(),
        high: d + ((a.high - a.value).powi(2) + (b.value - b.low).powi(2)).sqrt(),
    })
}

/// Paired differences summed as integers so that shards add up exactly: each
/// difference is counted in halves (a game's score is 0, ½ or 1, so a
/// difference of two scores is a whole number of halves).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedSums {
    pub pairs: u64,
    /// Sum of the differences, in halves.
    pub sum_halves: i64,
    /// Sum of the squared differences, in quarters.
    pub sum_squares_quarters: u64,
}

impl PairedSums {
    /// Adds one pair whose difference is `halves` / 2.
    pub fn add(&mut self, halves: i64) {
        self.pairs += 1;
        self.sum_halves += halves;
        self.sum_squares_quarters += (halves * halves) as u64;
    }

    pub fn merge(&mut self, other: &PairedSums) {
        self.pairs += other.pairs;
        self.sum_halves += other.sum_halves;
        self.sum_squares_quarters += other.sum_squares_quarters;
    }

    /// The mean difference with a normal 95 % interval (the sample standard
    /// deviation over √n); `None` below two pairs.
    pub fn estimate(&self) -> Option<Estimate> {
        if self.pairs < 2 {
            return None;
        }
        let n = self.pairs as f64;
        let mean = self.sum_halves as f64 / 2.0 / n;
        let variance = ((self.sum_squares_quarters as f64 / 4.0 - n * mean * mean) / (n - 1.0)).max(0.0);
        let half = Z95 * (variance / n).sqrt();
        Some(Estimate { value: mean, low: mean - half, high: mean + half })
    }

    /// The likelihood that the true mean difference is above 0.
    pub fn superiority(&self) -> Option<f64> {
        let e = self.estimate()?;
        let se = (e.high - e.value) / Z95;
        Some(superiority_of(e.value, se))
    }
}

/// The likelihood of superiority of a side with `wins` and `losses` (draws
/// do not count), as cutechess-cli reports it: Φ((W − L) / √(W + L)).
pub fn likelihood_of_superiority(wins: u64, losses: u64) -> Option<f64> {
    if wins + losses == 0 {
        return None;
    }
    Some(phi((wins as f64 - losses as f64) / ((wins + losses) as f64).sqrt()))
}

/// The likelihood that a rate measured as `d` with standard error `se` is above 0.
pub fn superiority_of(d: f64, se: f64) -> f64 {
    if se == 0.0 {
        if d > 0.0 {
            1.0
        } else if d < 0.0 {
            0.0
        } else {
            0.5
        }
    } else {
        phi(d / se)
    }
}

/// The standard normal distribution function.
pub fn phi(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// The error function, from the Chebyshev fit of erfc in Numerical Recipes
/// (`erfcc`, fractional error below 1.2e-7: plenty for a report).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.5 * x.abs());
    let y = 1.0
        - t * (-x * x - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { y } else { -y }
}

/// A sequential probability ratio test on a score (wins + ½ draws) between
/// two Elo hypotheses, as cutechess-cli and fishtest run it: the generalised
/// SPRT with the trinomial model's log-likelihood ratio approximated from the
/// sample mean and variance of the game scores.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where a sequential test stands.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtState {
    /// Not decided yet.
    Continue,
    /// H0 (Elo ≤ elo0) accepted.
    AcceptH0,
    /// H1 (Elo ≥ elo1) accepted.
    AcceptH1,
}

impl Sprt {
    /// The decision bounds of the log-likelihood ratio, lower and upper.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio after `wins`, `draws` and `losses`.
    pub fn llr(&self, wins: u64, draws: u64, losses: u64) -> f64 {
        let n = (wins + draws + losses) as f64;
        if wins == 0 || losses == 0 {
            return 0.0;
        }
        let (w, d, l) = (wins as f64 / n, draws as f64 / n, losses as f64 / n);
        let mean = w + d / 2.0;
        let variance = w * (1.0 - mean).powi(2) + d * (0.5 - mean).powi(2) + l * mean.powi(2);
        if variance <= 0.0 {
            return 0.0;
        }
        let score = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
        let (s0, s1) = (score(self.elo0), score(self.elo1));
        (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance / n)
    }

    pub fn state(&self, wins: u64, draws: u64, losses: u64) -> SprtState {
        let llr = self.llr(wins, draws, losses);
        let (low, high) = self.bounds();
        if llr >= high {
            SprtState::AcceptH1
        } else if llr <= low {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

impl std::str::FromStr for Sprt {
    type Err = String;

    /// `ELO0,ELO1` or `ELO0,ELO1,ALPHA,BETA` (α and β 0.05 by default).
    fn from_str(s: &str) -> Result<Sprt, String> {
        let parts: Vec<f64> = s
            .split(',')
            .map(|p| p.trim().parse::<f64>().map_err(|_| format!("'{p}' in '{s}' is not a number")))
            .collect::<Result<_, _>>()?;
        let sprt = match parts[..] {
            [elo0, elo1] => Sprt { elo0, elo1, alpha: 0.05, beta: 0.05 },
            [elo0, elo1, alpha, beta] => Sprt { elo0, elo1, alpha, beta },
            _ => return Err(format!("'{s}' is not ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA")),
        };
        if sprt.elo0.partial_cmp(&sprt.elo1) != Some(std::cmp::Ordering::Less) {
            return Err(format!("'{s}': ELO0 must be below ELO1"));
        }
        if !(0.0..0.5).contains(&sprt.alpha)
            || !(0.0..0.5).contains(&sprt.beta)
            || sprt.alpha == 0.0
            || sprt.beta == 0.0
        {
            return Err(format!("'{s}': α and β must be between 0 and 0.5"));
        }
        Ok(sprt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_published_values() {
        // Newcombe (1998), table I: 81 of 263 → 0.2553 to 0.3662.
        let e = wilson(81.0, 263).unwrap();
        assert!((e.low - 0.2553).abs() < 1e-4 && (e.high - 0.3662).abs() < 1e-4, "{e:?}");
        // 0 of 10 → 0 to 0.2775.
        let e = wilson(0.0, 10).unwrap();
        assert!(e.low == 0.0 && (e.high - 0.2775).abs() < 1e-4, "{e:?}");
        assert!(wilson(0.0, 0).is_none());
    }

    #[test]
    fn newcombe_difference_matches_his_example() {
        // Newcombe (1998), table II, example (a): 56/70 − 48/80 → 0.0524 to 0.3339.
        let e = rate_difference(56.0, 70, 48.0, 80).unwrap();
        assert!((e.value - 0.2).abs() < 1e-9);
        assert!((e.low - 0.0524).abs() < 1e-4 && (e.high - 0.3339).abs() < 1e-4, "{e:?}");
    }

    #[test]
    fn paired_sums_give_the_mean_and_a_symmetric_interval() {
        let mut s = PairedSums::default();
        for d in [2, 0, 0, -1, 1, 2, 0, 0] {
            s.add(d);
        }
        let e = s.estimate().unwrap();
        assert!((e.value - 0.25).abs() < 1e-12);
        assert!((e.high - e.value - (e.value - e.low)).abs() < 1e-12 && e.low < 0.25 && e.high > 0.25);
    }

    #[test]
    fn phi_and_los() {
        assert!((phi(0.0) - 0.5).abs() < 1e-7);
        assert!((phi(1.959_963_984_540_054) - 0.975).abs() < 1e-6);
        assert!((likelihood_of_superiority(10, 10).unwrap() - 0.5).abs() < 1e-7);
        assert!(likelihood_of_superiority(60, 40).unwrap() > 0.97);
    }

    #[test]
    fn sprt_accepts_the_true_hypothesis() {
        let sprt: Sprt = "0,20".parse().unwrap();
        // 60 % score over 1,000 games: well above 20 Elo (52.9 %).
        assert_eq!(sprt.state(550, 100, 350), SprtState::AcceptH1);
        // 40 %: below 0 Elo.
        assert_eq!(sprt.state(350, 100, 550), SprtState::AcceptH0);
        assert_eq!(sprt.state(5, 0, 5), SprtState::Continue);
        assert!("20,0".parse::<Sprt>().is_err() && "x".parse::<Sprt>().is_err());
    }
}
