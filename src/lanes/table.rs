//! [`Table`]: every (P..., Y...) index of a distribution with its X
//! coordinate and thread-buffer index, enumerated once for printing
//! (`cktile distribution`) and for its JSON view.

use crate::Error;
use crate::distribution::{Distribution, MAX_ENUMERATED};
use alloc::vec::Vec;
use cktile_transforms::Index;

/// Every (P..., Y...) index of a distribution in row-major order (the last
/// Y fastest) with its X coordinate and thread-buffer index D.
///
/// ```
/// use cktile::distribution::{catalogue, Distribution};
/// use cktile::lanes::Table;
/// let t = Table::new(&Distribution::new(catalogue::mfma_a(16, 16)?)?)?;
/// assert_eq!(t.len(), 64 * 4);
/// // index 4 * 21 + 3 is lane 21, register 3: A(5, 7), D = 3.
/// assert_eq!((t.x(4 * 21 + 3), t.d(4 * 21 + 3)), (&[5, 7][..], 3));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    ndim_x: usize,
    xs: Vec<Index>,
    ds: Vec<Index>,
}

impl Table {
    /// Enumerates `d`, refusing more than [`MAX_ENUMERATED`] indices.
    ///
    /// ```
    /// use cktile::distribution::{catalogue, Distribution};
    /// use cktile::lanes::Table;
    /// let t = Table::new(&Distribution::new(catalogue::gemm_dram(256, 128, 32, 8)?)?)?;
    /// assert_eq!(t.len(), 128 * 32);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(d: &Distribution) -> Result<Table, Error> {
        let ndim_x = d.x_lengths().len();
        // Reserve only for a distribution that will be enumerated (for_each refuses the others).
        let n = d.index_count().filter(|&n| n <= MAX_ENUMERATED).unwrap_or(0) as usize;
        let mut xs = Vec::with_capacity(n * ndim_x);
        let mut ds = Vec::with_capacity(n);
        d.for_each(MAX_ENUMERATED, |_, x, dd| {
            xs.extend_from_slice(x);
            ds.push(dd);
        })?;
        Ok(Table { ndim_x, xs, ds })
    }

    /// The number of (P..., Y...) indices.
    ///
    /// ```
    /// use cktile::distribution::{catalogue, Distribution};
    /// use cktile::lanes::Table;
    /// assert!(!Table::new(&Distribution::new(catalogue::mfma_c(32, 8)?)?)?.is_empty());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.ds.len()
    }

    /// True when there are no indices (never, for a valid distribution).
    ///
    /// ```
    /// use cktile::distribution::{catalogue, Distribution};
    /// use cktile::lanes::Table;
    /// assert!(!Table::new(&Distribution::new(catalogue::mfma_c(16, 16)?)?)?.is_empty());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.ds.is_empty()
    }

    /// Number of X dimensions.
    ///
    /// ```
    /// use cktile::distribution::{catalogue, Distribution};
    /// use cktile::lanes::Table;
    /// assert_eq!(Table::new(&Distribution::new(catalogue::mfma_c(16, 16)?)?)?.ndim_x(), 2);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn ndim_x(&self) -> usize {
        self.ndim_x
    }

    /// The X coordinate of the `i`-th index (empty past the end).
    ///
    /// ```
    /// use cktile::distribution::{catalogue, Distribution};
    /// use cktile::lanes::Table;
    /// let t = Table::new(&Distribution::new(catalogue::mfma_c(16, 16)?)?)?;
    /// assert_eq!(t.x(0), &[0, 0]);
    /// assert!(t.x(t.len()).is_empty());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn x(&self, i: usize) -> &[Index] {
        self.xs.get(i * self.ndim_x..(i + 1) * self.ndim_x).unwrap_or(&[])
    }

    /// The thread-buffer index of the `i`-th index's Y (0 past the end).
    ///
    /// ```
    /// use cktile::distribution::{catalogue, Distribution};
    /// use cktile::lanes::Table;
    /// let t = Table::new(&Distribution::new(catalogue::mfma_c(32, 8)?)?)?;
    /// assert_eq!((t.d(15), t.d(16)), (15, 0)); // lane 0's last register, lane 1's first
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn d(&self, i: usize) -> Index {
        self.ds.get(i).copied().unwrap_or(0)
    }

    /// Every X coordinate, flat (`ndim_x` values per index).
    ///
    /// ```
    /// use cktile::distribution::{catalogue, Distribution};
    /// use cktile::lanes::Table;
    /// let t = Table::new(&Distribution::new(catalogue::mfma_c(16, 16)?)?)?;
    /// assert_eq!(t.xs_flat().len(), 2 * t.len());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn xs_flat(&self) -> &[Index] {
        &self.xs
    }

    /// Every thread-buffer index.
    ///
    /// ```
    /// use cktile::distribution::{catalogue, Distribution};
    /// use cktile::lanes::Table;
    /// let t = Table::new(&Distribution::new(catalogue::mfma_a(16, 16)?)?)?;
    /// assert_eq!(&t.ds()[..5], &[0, 1, 2, 3, 0]);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn ds(&self) -> &[Index] {
        &self.ds
    }
}
