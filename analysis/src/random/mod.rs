//! Seeded randomness for tests: a small deterministic generator ([`Rng`])
//! and, with an allocator, random descriptor chains of every transform kind
//! ([`chain`]).
//!
//! The same seed always gives the same values on every platform, so a
//! failure found from a seed is reproduced from it. The `proptest` feature's
//! strategies (the tools crate's `strategy`) draw their seeds from proptest
//! and build through these functions; the sampled checks of
//! the tools crate's `check::property` draw their samples from [`Rng`].

#[cfg(feature = "alloc")]
pub mod chain;

/// A deterministic generator of 64-bit values (splitmix64): fast, seedable,
/// and the same on every platform. Not for cryptography.
///
/// ```
/// use cktile_analysis::random::Rng;
/// let mut a = Rng::new(7);
/// let mut b = Rng::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rng(u64);

impl Rng {
    /// A generator starting from `seed`.
    ///
    /// ```
    /// assert_ne!(cktile_analysis::random::Rng::new(1).next_u64(), cktile_analysis::random::Rng::new(2).next_u64());
    /// ```
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    ///
    /// ```
    /// let mut r = cktile_analysis::random::Rng::new(0);
    /// assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
    /// ```
    pub const fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `[0, n)` (0 when `n` is 0).
    ///
    /// ```
    /// let mut r = cktile_analysis::random::Rng::new(3);
    /// assert!((0..100).all(|_| r.below(6) < 6));
    /// assert_eq!(r.below(0), 0);
    /// ```
    pub const fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next_u64() % n }
    }

    /// A `usize` in `[0, n)` (0 when `n` is 0).
    ///
    /// ```
    /// let mut r = cktile_analysis::random::Rng::new(3);
    /// assert!(r.index(4) < 4);
    /// ```
    pub const fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// One of `items` (`None` when it is empty).
    ///
    /// ```
    /// let mut r = cktile_analysis::random::Rng::new(5);
    /// assert!([1, 2, 3].contains(r.pick(&[1, 2, 3]).unwrap()));
    /// assert_eq!(r.pick::<u8>(&[]), None);
    /// ```
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        let i = self.index(items.len());
        items.get(i)
    }

    /// Shuffles `items` in place (Fisher-Yates).
    ///
    /// ```
    /// let mut v = [1, 2, 3, 4];
    /// cktile_analysis::random::Rng::new(9).shuffle(&mut v);
    /// v.sort();
    /// assert_eq!(v, [1, 2, 3, 4]);
    /// ```
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }
}
