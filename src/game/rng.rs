//! The game's one source of randomness (R2.4), stored as plain data.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// A ChaCha8 stream kept as (seed, position), so the state stays small, `Clone`,
/// serializable and portable: ChaCha's output is specified, unlike `StdRng`'s.
/// Index sampling and shuffling are written here rather than taken from `rand`,
/// whose algorithms may change between versions and would change saved games.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct GameRng {
    seed: u64,
    /// How many 32-bit words of the stream have been used.
    position: u64,
}

impl GameRng {
    pub fn new(seed: u64) -> GameRng {
        GameRng { seed, position: 0 }
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    fn next_u64(&mut self) -> u64 {
        let mut stream = ChaCha8Rng::seed_from_u64(self.seed);
        stream.set_word_pos(u128::from(self.position));
        let value = stream.next_u64();
        self.position += 2;
        value
    }

    /// A uniform index below `n` (`n > 0`), without modulo bias.
    pub fn below(&mut self, n: usize) -> usize {
        let n = n.max(1) as u64;
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.next_u64();
            if x < zone {
                return (x % n) as usize;
            }
        }
    }

    /// Fisher–Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_shuffles_are_permutations() {
        let (mut a, mut b) = (GameRng::new(7), GameRng::new(7));
        let mut xs: Vec<u32> = (0..21).collect();
        let mut ys = xs.clone();
        a.shuffle(&mut xs);
        b.shuffle(&mut ys);
        assert_eq!(xs, ys);
        let mut sorted = xs.clone();
        sorted.sort();
        assert_eq!(sorted, (0..21).collect::<Vec<_>>());
        assert_ne!(xs, (0..21).collect::<Vec<_>>(), "a shuffle of 21 cards moved something");
    }
}
