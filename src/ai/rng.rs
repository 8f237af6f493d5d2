//! The agents' own randomness: a seeded ChaCha8 stream, kept apart from the
//! game's generator (R2.4) so that thinking never changes the game.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// A portable seeded generator for agents. ChaCha8's output is specified, and
/// the index and shuffle algorithms are written here, so a seed gives the same
/// decisions on every platform and `rand` version.
#[derive(Clone, Debug)]
pub struct AgentRng(ChaCha8Rng);

impl AgentRng {
    pub fn new(seed: u64) -> AgentRng {
        AgentRng(ChaCha8Rng::seed_from_u64(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// An index below `n` (`n == 0` is read as 1). Lemire's multiply-shift: its
    /// bias is below 2^-58 for the small `n` an agent draws from.
    pub fn below(&mut self, n: usize) -> usize {
        let n = n.max(1) as u128;
        ((u128::from(self.next_u64()) * n) >> 64) as usize
    }

    /// A uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Fisher–Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// SplitMix64's finaliser: spreads consecutive seeds (game numbers, thread
/// numbers) into unrelated ones.
pub fn mix_seed(seed: u64, salt: u64) -> u64 {
    let mut z = seed ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_stay_below_the_bound_and_cover_it() {
        let mut rng = AgentRng::new(3);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7)] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800), "roughly uniform: {seen:?}");
        assert_eq!(rng.below(0), 0, "an empty range reads as one option");
        assert!((0..1000).all(|_| (0.0..1.0).contains(&rng.unit())));
    }

    #[test]
    fn same_seed_same_stream_and_mixed_seeds_differ() {
        let (mut a, mut b) = (AgentRng::new(9), AgentRng::new(9));
        assert_eq!((0..8).map(|_| a.next_u64()).collect::<Vec<_>>(), (0..8).map(|_| b.next_u64()).collect::<Vec<_>>());
        assert_ne!(mix_seed(1, 0), mix_seed(1, 1));
        assert_ne!(mix_seed(1, 0), mix_seed(2, 0));
    }
}
