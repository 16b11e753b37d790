//! The distributions the tile windows' and distributed tensors' examples
//! share, small enough to follow by hand: [`RowPerLane`], [`TwoPerLane`]
//! and [`TwoByFour`].

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

crate::tile_distribution_encoding! {
    /// 64 lanes over a row of 128 elements, lane `l` holding elements
    /// `2l` and `2l + 1`: one X of lengths (64, 2), its first H the lane
    /// (the P) and its second the register (the Y).
    ///
    /// ```
    /// use cktile_core::distribution::Distribution;
    /// use cktile_core::distribution::typed::TileEncoding;
    /// use cktile_core::tile::example::TwoPerLane;
    /// let d = Distribution::new(TwoPerLane::ENCODING)?;
    /// // Lane 5, register 1: element 11.
    /// assert_eq!(d.calculate_index(&[5, 1])?.as_slice(), &[11]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub struct TwoPerLane { rs_lengths: [], hs_lengthss: [[64, 2]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[0]], ys_to_rhs_major: [1], ys_to_rhs_minor: [1] }
}

crate::tile_distribution_encoding! {
    /// 16 lanes over a 32 x 16 tile, each holding 2 x 4 elements: rows
    /// split (2, 16) with the lane on the 16, and each lane's 2 rows (the
    /// first Y) by the 4 columns (the second Y).
    ///
    /// ```
    /// use cktile_core::distribution::Distribution;
    /// use cktile_core::distribution::typed::TileEncoding;
    /// use cktile_core::tile::example::TwoByFour;
    /// let d = Distribution::new(TwoByFour::ENCODING)?;
    /// // Lane 3, registers (1, 2): row 16 + 3, column 2.
    /// assert_eq!(d.calculate_index(&[3, 1, 2])?.as_slice(), &[19, 2]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub struct TwoByFour { rs_lengths: [], hs_lengthss: [[2, 16], [4]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1, 2], ys_to_rhs_minor: [0, 0] }
}
