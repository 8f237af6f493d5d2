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

    /// The differences as [`MeanSums`], whose figures these are.
    fn as_mean(&self) -> MeanSums {
        MeanSums {
            n: self.pairs,
            sum: self.sum_halves as f64 / 2.0,
            sum_of_squares: self.sum_squares_quarters as f64 / 4.0,
        }
    }

    /// The mean difference with a normal 95 % interval (the sample standard
    /// deviation over √n); `None` below two pairs.
    pub fn estimate(&self) -> Option<Estimate> {
        self.as_mean().estimate()
    }

    /// The likelihood that the true mean difference is above 0.
    pub fn superiority(&self) -> Option<f64> {
        self.as_mean().superiority()
    }
}

/// The Elo difference a score (in (0, 1)) stands for under the logistic
/// model: −400 log10(1/s − 1). Scores of 0 and 1 are read as a game's worth
/// from the edge (1e-6), so the figure stays finite.
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The Elo difference of a mean score with its 95 % interval, as
/// cutechess-cli computes it: a normal interval on the score (standard error
/// `se`), both ends turned into Elo.
pub fn elo_estimate(mean: f64, se: f64) -> Estimate {
    Estimate { value: elo(mean), low: elo(mean - Z95 * se), high: elo(mean + Z95 * se) }
}

/// A side's mean score and its variance per game from wins, draws and losses
/// (the trinomial model); `None` without games.
pub fn trinomial(wins: u64, draws: u64, losses: u64) -> Option<(f64, f64)> {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return None;
    }
    let (w, d, l) = (wins as f64 / n, draws as f64 / n, losses as f64 / n);
    let mean = w + d / 2.0;
    Some((mean, w * (1.0 - mean).powi(2) + d * (0.5 - mean).powi(2) + l * mean.powi(2)))
}

/// The Elo difference of a side with its interval from its wins, draws and losses.
pub fn trinomial_elo(wins: u64, draws: u64, losses: u64) -> Option<Estimate> {
    let n = wins + draws + losses;
    let (mean, variance) = trinomial(wins, draws, losses)?;
    Some(elo_estimate(mean, (variance / n as f64).sqrt()))
}

/// Game pairs (one deal played twice, the seats swapped) counted by the
/// points side A took from the pair, in halves: `counts[k]` pairs gave A
/// k/2 points (0, ½, 1, 1½ or 2). fishtest's pentanomial model: the two games
/// of a pair share their deal's luck, so a pair, not a game, is the unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

impl Pentanomial {
    pub fn add(&mut self, points_in_halves: usize) {
        self.counts[points_in_halves.min(4)] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The mean score a game (a pair's points over 2) and the variance of a
    /// pair's score (its points over 2: 0, ¼, ½, ¾ or 1); `None` without pairs.
    pub fn mean_and_variance(&self) -> Option<(f64, f64)> {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return None;
        }
        let x = |k: usize| k as f64 / 4.0;
        let mean = (0..5).map(|k| self.counts[k] as f64 * x(k)).sum::<f64>() / n;
        let variance = (0..5).map(|k| self.counts[k] as f64 * (x(k) - mean).powi(2)).sum::<f64>() / n;
        Some((mean, variance))
    }

    /// A's score with a normal interval on the pairs' scores; `None` without pairs.
    pub fn score(&self) -> Option<Estimate> {
        let (mean, variance) = self.mean_and_variance()?;
        let half = Z95 * (variance / self.pairs() as f64).sqrt();
        Some(Estimate { value: mean, low: mean - half, high: mean + half })
    }

    /// A's Elo difference with its interval.
    pub fn elo(&self) -> Option<Estimate> {
        let (mean, variance) = self.mean_and_variance()?;
        Some(elo_estimate(mean, (variance / self.pairs() as f64).sqrt()))
    }
}

/// A two-sided p-value from the likelihood of superiority `p` (the one-sided
/// normal probability that a difference is above 0): 2 min(p, 1 − p).
pub fn two_sided(superiority: f64) -> f64 {
    (2.0 * superiority.min(1.0 - superiority)).clamp(0.0, 1.0)
}

/// Holm's step-down correction for many tests at family-wise level `alpha`:
/// which of the hypotheses with these p-values are rejected. The smallest p is
/// tested at α/m, the next at α/(m − 1), …, stopping at the first that is not
/// rejected. Controls the chance of any false rejection at α whatever the
/// dependence between the tests.
pub fn holm(p_values: &[f64], alpha: f64) -> Vec<bool> {
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&i, &j| p_values[i].total_cmp(&p_values[j]).then(i.cmp(&j)));
    let mut rejected = vec![false; m];
    for (rank, &i) in order.iter().enumerate() {
        if p_values[i] > alpha / (m - rank) as f64 {
            break;
        }
        rejected[i] = true;
    }
    rejected
}

/// Sums of a paired difference of any size (a count, a rate's 0 or 1, a score):
/// the mean difference with a normal 95 % interval (sample sd over √n).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MeanSums {
    pub n: u64,
    pub sum: f64,
    pub sum_of_squares: f64,
}

impl MeanSums {
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        self.sum += x;
        self.sum_of_squares += x * x;
    }

    pub fn mean(&self) -> Option<f64> {
        (self.n > 0).then(|| self.sum / self.n as f64)
    }

    /// The sample variance; `None` below two values.
    pub fn variance(&self) -> Option<f64> {
        if self.n < 2 {
            return None;
        }
        let n = self.n as f64;
        let mean = self.sum / n;
        Some(((self.sum_of_squares - n * mean * mean) / (n - 1.0)).max(0.0))
    }

    /// The mean with its 95 % interval; `None` below two values.
    pub fn estimate(&self) -> Option<Estimate> {
        let (mean, variance) = (self.mean()?, self.variance()?);
        let half = Z95 * (variance / self.n as f64).sqrt();
        Some(Estimate { value: mean, low: mean - half, high: mean + half })
    }

    /// The likelihood that the true mean is above 0.
    pub fn superiority(&self) -> Option<f64> {
        let (mean, variance) = (self.mean()?, self.variance()?);
        Some(superiority_of(mean, (variance / self.n as f64).sqrt()))
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
        if wins == 0 || losses == 0 {
            return 0.0;
        }
        let Some((mean, variance)) = trinomial(wins, draws, losses) else { return 0.0 };
        self.llr_of(mean, variance, (wins + draws + losses) as f64)
    }

    /// The log-likelihood ratio of game pairs (pentanomial model): the same
    /// approximation with a pair as the unit and a pair's score (its points
    /// over 2) as the observation.
    pub fn llr_pentanomial(&self, pairs: &Pentanomial) -> f64 {
        let Some((mean, variance)) = pairs.mean_and_variance() else { return 0.0 };
        self.llr_of(mean, variance, pairs.pairs() as f64)
    }

    /// The generalised SPRT's LLR for `n` observations of this mean and
    /// variance between the scores of Elo `elo0` and `elo1`.
    fn llr_of(&self, mean: f64, variance: f64, n: f64) -> f64 {
        if variance <= 0.0 {
            return 0.0;
        }
        let score = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
        let (s0, s1) = (score(self.elo0), score(self.elo1));
        (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance / n)
    }

    /// Where the test stands at this LLR.
    pub fn state_at(&self, llr: f64) -> SprtState {
        let (low, high) = self.bounds();
        if llr >= high {
            SprtState::AcceptH1
        } else if llr <= low {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }

    pub fn state(&self, wins: u64, draws: u64, losses: u64) -> SprtState {
        self.state_at(self.llr(wins, draws, losses))
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

    #[test]
    fn elo_of_a_score_and_its_interval_as_cutechess_prints_it() {
        assert!(elo(0.5).abs() < 1e-12);
        assert!((elo(0.75) - 190.8485).abs() < 1e-3);
        // 30 wins, 10 losses: score 0.75, variance 0.1875 a game, se √(0.1875/40).
        let e = trinomial_elo(30, 0, 10).unwrap();
        assert!((e.value - 190.8485).abs() < 1e-3, "{e:?}");
        assert!((e.low - 81.9606).abs() < 1e-3 && (e.high - 353.1191).abs() < 1e-3, "{e:?}");
        assert!(elo(1.0).is_finite() && elo(0.0).is_finite());
        assert!(trinomial_elo(0, 0, 0).is_none());
    }

    #[test]
    fn pentanomial_mean_and_variance_on_known_counts() {
        // Pair scores 0, ¼, ½, ¾, 1 seen 1, 2, 4, 2, 1 times: mean ½, variance 0.75 / 10.
        let p = Pentanomial { counts: [1, 2, 4, 2, 1] };
        let (mean, variance) = p.mean_and_variance().unwrap();
        assert!((mean - 0.5).abs() < 1e-12 && (variance - 0.075).abs() < 1e-12, "{mean} {variance}");
        // 0, 1, 2, 3, 4 pairs: mean ¾, variance 0.0625; interval ¾ ± 1.96 √(0.0625/10).
        let p = Pentanomial { counts: [0, 1, 2, 3, 4] };
        let (mean, variance) = p.mean_and_variance().unwrap();
        assert!((mean - 0.75).abs() < 1e-12 && (variance - 0.0625).abs() < 1e-12);
        let s = p.score().unwrap();
        assert!((s.low - 0.595_051).abs() < 1e-6 && (s.high - 0.904_949).abs() < 1e-6, "{s:?}");
        let e = p.elo().unwrap();
        assert!((e.low - 66.8617).abs() < 1e-3 && (e.high - 391.4665).abs() < 1e-3, "{e:?}");
        assert!(Pentanomial::default().score().is_none());
        // Pairs that split 1-1 carry no deal luck: all ½, no variance, an LLR of 0.
        let even = Pentanomial { counts: [0, 0, 9, 0, 0] };
        assert_eq!(even.mean_and_variance(), Some((0.5, 0.0)));
        let sprt: Sprt = "0,20".parse().unwrap();
        assert_eq!(sprt.llr_pentanomial(&even), 0.0);
        assert!(sprt.llr_pentanomial(&Pentanomial { counts: [5, 20, 40, 60, 30] }) > 2.94);
    }

    #[test]
    fn holm_rejects_fewer_than_each_test_alone() {
        // All four are below 0.05 alone; Holm: 0.005 ≤ 0.05/4, 0.01 ≤ 0.05/3, 0.03 > 0.05/2: stop.
        assert_eq!(holm(&[0.01, 0.04, 0.03, 0.005], 0.05), vec![true, false, false, true]);
        assert_eq!(holm(&[0.2, 0.001], 0.05), vec![false, true]);
        assert!(holm(&[], 0.05).is_empty());
        assert!((two_sided(0.975) - 0.05).abs() < 1e-12 && (two_sided(0.5) - 1.0).abs() < 1e-12);
    }
}
