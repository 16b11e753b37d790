//! The distribution the tile windows' examples share: [`RowPerLane`],
//! small enough to follow by hand.

crate::tile_distribution_encoding! {
    /// Four lanes over a 4 x 8 tile, lane `l` holding row `l`'s 8
    /// elements: one P (the lane, along the rows) and one Y (the column,
    /// the register's index). CK's spelling:
    /// `tile_distribution_encoding<sequence<>, tuple<sequence<4>, sequence<8>>,
    /// tuple<sequence<1>>, tuple<sequence<0>>, sequence<2>, sequence<0>>`.
    ///
    /// ```
    /// use cktile_core::distribution::Distribution;
    /// use cktile_core::distribution::typed::TileEncoding;
    /// use cktile_core::tile::example::RowPerLane;
    /// let d = Distribution::new(RowPerLane::ENCODING)?;
    /// // Lane 2, register 5: row 2, column 5.
    /// assert_eq!(d.calculate_index(&[2, 5])?.as_slice(), &[2, 5]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub struct RowPerLane { rs_lengths: [], hs_lengthss: [[4], [8]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[0]], ys_to_rhs_major: [2], ys_to_rhs_minor: [0] }
}
