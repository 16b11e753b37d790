//! A small deterministic generator (xorshift64) for the tests that build
//! random encodings: the same sequence on every machine and every run.

/// The generator's state; seed it with any non-zero value.
pub struct Rng(pub u64);

impl Rng {
    /// A value in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}
