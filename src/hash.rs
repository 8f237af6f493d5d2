//! The project's hashes, in one place.
//!
//! FNV-1a, 64-bit: state digests and content hashes in saves; it is stable
//! across processes and platforms, which saves and determinism checks need
//! (SipHash's resistance to chosen keys is not needed here). FNV goes a byte
//! at a time, so what is hashed often and never kept beyond the process uses
//! [`Fx`] instead, a word at a time: the search's memory of card resolutions
//! (ai/recall.rs), its tree's choices (ai/mcts.rs) and the script layer's
//! maps of interned names and question options.

use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};

const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0100_0000_01b3;

/// The FNV-1a hash of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hasher = Fnv::default();
    hasher.write(bytes);
    hasher.finish()
}

/// FNV-1a as a `Hasher` and as the `BuildHasher` of hash maps.
#[derive(Clone, Copy, Debug)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(OFFSET_BASIS)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0 = bytes.iter().fold(self.0, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME));
    }
}

impl BuildHasher for Fnv {
    type Hasher = Fnv;

    fn build_hasher(&self) -> Fnv {
        Fnv::default()
    }
}

/// The fast in-memory hash (rustc-hash's Fx): for keys hashed often and never
/// kept beyond the process.
pub type Fx = rustc_hash::FxHasher;

/// The `BuildHasher` of hash maps keyed by [`fx`] values.
pub type FxBuild = BuildHasherDefault<Fx>;

/// The [`Fx`] hash of `value`.
pub fn fx(value: &impl Hash) -> u64 {
    let mut hasher = Fx::default();
    value.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // The published FNV-1a 64 test vectors.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
