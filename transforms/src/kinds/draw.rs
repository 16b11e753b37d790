//! [`Draw`]: what a kind draws a random example of itself from, for
//! cktile's random-chain generator (`cktile::random`). Each kind's struct
//! has a `draw` that builds one over the dimension it is offered, taking
//! more dimensions when it needs them; the generator implements `Draw`
//! and never names a kind.

use crate::Index;

/// A source of random transforms' values: the length of the dimension a
/// kind is offered, random numbers, and the other dimensions still free.
///
/// ```
/// use cktile_transforms::{Index, Kind, Transform};
/// use cktile_transforms::kinds::Draw;
/// // Offers a dimension of length 8, one free dimension of length 4, and
/// // always draws 0.
/// struct Fixed(Vec<Index>, Vec<Index>);
/// impl Draw for Fixed {
///     fn length(&self) -> Index { 8 }
///     fn below(&mut self, _n: u64) -> u64 { 0 }
///     fn take(&mut self, fits: &dyn Fn(Index) -> bool) -> Option<Index> {
///         let i = self.0.iter().position(|&l| fits(l))?;
///         let l = self.0.remove(i);
///         self.1.push(l);
///         Some(l)
///     }
/// }
/// let mut d = Fixed(vec![4], vec![]);
/// assert_eq!(Transform::draw(Kind::Merge, &mut d), Some(Transform::merge(&[8, 4]).unwrap()));
/// assert_eq!(d.1, [4]); // the merge took the free dimension
/// let mut d = Fixed(vec![], vec![]);
/// assert_eq!(Transform::draw(Kind::Merge, &mut d), None); // nothing to merge with
/// ```
pub trait Draw {
    /// The length of the dimension offered: the transform's first lower
    /// dimension (for a kind with no lower dimension, the generator keeps
    /// that dimension as it is).
    fn length(&self) -> Index;

    /// A random number in `[0, n)` (0 when `n` is 0).
    fn below(&mut self, n: u64) -> u64;

    /// Takes another free dimension whose length `fits` as the
    /// transform's next lower dimension, and gives its length; `None`
    /// when none is free or none fits.
    fn take(&mut self, fits: &dyn Fn(Index) -> bool) -> Option<Index>;

    /// A random `usize` in `[0, n)`.
    fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// The offered length as a `usize` (lengths are at least 1).
    fn offered(&self) -> usize {
        usize::try_from(self.length()).unwrap_or(1)
    }
}
