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

    /// The stream from the current position (a ChaCha block is made per read
    /// of a fresh stream, so reads in a row share one stream).
    fn stream(&self) -> ChaCha8Rng {
        let mut stream = ChaCha8Rng::seed_from_u64(self.seed);
        stream.set_word_pos(u128::from(self.position));
        stream
    }

    /// A uniform index below `n` (`n > 0`), without modulo bias.
    pub fn below(&mut self, n: usize) -> usize {
        let mut stream = self.stream();
        self.below_in(&mut stream, n)
    }

    /// [`GameRng::below`] reading from `stream`, which is at `self.position`.
    fn below_in(&mut self, stream: &mut ChaCha8Rng, n: usize) -> usize {
        let n = n.max(1) as u64;
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = stream.next_u64();
            self.position += 2;
            if x < zone {
                return (x % n) as usize;
            }
        }
    }

    /// Fisher–Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        let mut stream = self.stream();
        for i in (1..items.len()).rev() {
            let j = self.below_in(&mut stream, i + 1);
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

    #[test]
    fn a_shuffle_reads_the_stream_as_single_draws_would() {
        // Saved games depend on it: a shuffle is the draws `below` makes one by one.
        let (mut a, mut b) = (GameRng::new(11), GameRng::new(11));
        a.below(5);
        b.below(5);
        let mut xs: Vec<u32> = (0..30).collect();
        a.shuffle(&mut xs);
        let mut ys: Vec<u32> = (0..30).collect();
        for i in (1..ys.len()).rev() {
            let j = b.below(i + 1);
            ys.swap(i, j);
        }
        assert_eq!(xs, ys);
        assert_eq!(a, b, "both at the same place in the stream");
        assert_eq!(a.below(1000), b.below(1000));
    }
}
