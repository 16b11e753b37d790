//! [`BitPermute`]: a permutation of an index's low bits followed by a xor,
//! the functor transform's map (CK's `swap_warp_t`, `permute_bits_5`,
//! `swap_bit_positions`), with its arithmetic: applying it, its inverse,
//! its range over an interval, and [`BitMoves`], the masks and shifts that
//! compiled programs and generated code run. The validating constructors
//! ([`BitPermute::new`], [`BitPermute::swap`]) live with the kind, in
//! `kinds::functor`, which re-exports this module's items.

use crate::{Index, MAX_DIMS};

/// The most bits a [`BitPermute`] moves: a list's [`MAX_DIMS`] entries.
pub const MAX_BITS: usize = MAX_DIMS;

/// A map of the functor transform's family: permute the low `bits` bits
/// of an index (input bit `i` to output bit `targets[i]`), then XOR `flip`
/// into them; higher bits stay. Always valid: its constructors check that
/// `targets` is a permutation of `0..bits` and `flip < 2^bits`.
///
/// ```
/// use cktile_transforms::kinds::functor::BitPermute;
/// let p = BitPermute::PERMUTE_BITS_5;
/// assert_eq!(p.targets(), &[2, 3, 4, 0, 1]);
/// // Bits 4..0 of 0b01011 become bits 2, 1, 0, 4, 3: 0b01101.
/// assert_eq!(p.apply(0b01011), 0b01101);
/// assert_eq!(p.apply(32 + 0b01011), 32 + 0b01101); // higher bits stay
/// assert_eq!(BitPermute::SWAP_WARP.apply(6), 7);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BitPermute {
    pub(crate) bits: u8,
    pub(crate) targets: [u8; MAX_BITS],
    pub(crate) flip: u8,
}

impl BitPermute {
    /// CK's `swap_warp_t` (`v ^ 1`): bit 0 stays and flips.
    pub const SWAP_WARP: BitPermute = BitPermute { bits: 1, targets: [0; MAX_BITS], flip: 1 };

    /// CK's `permute_bits_5`: input bits 0..5 go to bits 2, 3, 4, 0, 1 (the
    /// low five bits rotated left by two).
    pub const PERMUTE_BITS_5: BitPermute = BitPermute { bits: 5, targets: [2, 3, 4, 0, 1, 0, 0, 0], flip: 0 };

    /// CK's `inverse_permute_bits_5`: input bits 0..5 go to bits 3, 4, 0,
    /// 1, 2.
    pub const INVERSE_PERMUTE_BITS_5: BitPermute = BitPermute { bits: 5, targets: [3, 4, 0, 1, 2, 0, 0, 0], flip: 0 };

    /// How many low bits the map moves (`n`).
    ///
    /// ```
    /// assert_eq!(cktile_transforms::kinds::functor::BitPermute::PERMUTE_BITS_5.bits(), 5);
    /// ```
    pub const fn bits(&self) -> u32 {
        self.bits as u32
    }

    /// Where each input bit goes, from bit 0 up.
    ///
    /// ```
    /// assert_eq!(cktile_transforms::kinds::functor::BitPermute::SWAP_WARP.targets(), &[0]);
    /// ```
    pub const fn targets(&self) -> &[u8] {
        self.targets.split_at(self.bits as usize % (MAX_BITS + 1)).0
    }

    /// The constant XORed into the permuted bits.
    ///
    /// ```
    /// assert_eq!(cktile_transforms::kinds::functor::BitPermute::SWAP_WARP.flip(), 1);
    /// ```
    pub const fn flip(&self) -> i64 {
        self.flip as i64
    }

    /// `2^n - 1`: the bits the map moves.
    const fn mask(&self) -> i64 {
        (1i64 << (self.bits as u32 % 64)) - 1
    }

    /// The size of the blocks the map keeps onto themselves: `2^n`.
    ///
    /// ```
    /// assert_eq!(cktile_transforms::kinds::functor::BitPermute::PERMUTE_BITS_5.block(), 32);
    /// ```
    pub const fn block(&self) -> i64 {
        self.mask() + 1
    }

    /// The map on an index: the meaning of the kind, which every other
    /// form (the compiled [`BitMoves`], the generated code) is held equal
    /// to. Any `x`, negative ones included (their bits as two's
    /// complement).
    ///
    /// ```
    /// use cktile_transforms::kinds::functor::BitPermute;
    /// assert_eq!(BitPermute::INVERSE_PERMUTE_BITS_5.apply(BitPermute::PERMUTE_BITS_5.apply(77)), 77);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn apply(&self, x: i64) -> i64 {
        let low = x & self.mask();
        let mut y = 0i64;
        let mut i = 0;
        while i < self.bits as usize && i < MAX_BITS {
            y |= ((low >> i) & 1) << (self.targets[i] as u32 % 64);
            i += 1;
        }
        (x & !self.mask()) | (y ^ self.flip as i64)
    }

    /// The inverse map: `P⁻¹`, then the flip `P⁻¹(flip)` (the permutation
    /// is linear, so `P⁻¹(y ^ flip) = P⁻¹(y) ^ P⁻¹(flip)`).
    ///
    /// ```
    /// use cktile_transforms::kinds::functor::BitPermute;
    /// assert_eq!(BitPermute::PERMUTE_BITS_5.inverse(), BitPermute::INVERSE_PERMUTE_BITS_5);
    /// assert_eq!(BitPermute::SWAP_WARP.inverse(), BitPermute::SWAP_WARP);
    /// ```
    pub const fn inverse(&self) -> BitPermute {
        let mut targets = [0u8; MAX_BITS];
        let mut i = 0;
        while i < self.bits as usize && i < MAX_BITS {
            targets[self.targets[i] as usize % MAX_BITS] = i as u8;
            i += 1;
        }
        let unflipped = BitPermute { bits: self.bits, targets, flip: 0 };
        BitPermute { flip: unflipped.apply(self.flip as i64) as u8, ..unflipped }
    }

    /// How many low bits, from bit 0 up, neither move nor flip: runs of
    /// `2^k` aligned indices stay contiguous.
    ///
    /// ```
    /// use cktile_transforms::{kinds::functor::BitPermute, Dims};
    /// assert_eq!(BitPermute::new(Dims::from_slice(&[0, 1, 3, 2])?, 0)?.fixed_bits(), 2);
    /// assert_eq!(BitPermute::new(Dims::from_slice(&[0, 1, 3, 2])?, 2)?.fixed_bits(), 1);
    /// assert_eq!(BitPermute::PERMUTE_BITS_5.fixed_bits(), 0);
    /// # Ok::<(), cktile_transforms::Error>(())
    /// ```
    pub const fn fixed_bits(&self) -> u32 {
        let mut k = 0;
        while k < self.bits as usize && k < MAX_BITS && self.targets[k] as usize == k && (self.flip >> k) & 1 == 0 {
            k += 1;
        }
        k as u32
    }

    /// The first index of `[0, len)` the map sends outside it (and where),
    /// if any: only the last, partial block of `2^n` can, and the map keeps
    /// `[0, len)` exactly when it sends none there.
    ///
    /// ```
    /// use cktile_transforms::kinds::functor::BitPermute;
    /// let p = BitPermute::PERMUTE_BITS_5;
    /// assert_eq!(p.escape(64), None);
    /// assert_eq!(p.escape(33), None); // 32 maps to itself
    /// assert_eq!(p.escape(40), Some((34, 40))); // 34 = 32 + 0b10 goes to 32 + 0b1000
    /// assert_eq!(p.escape(34), Some((33, 36)));
    /// assert_eq!(BitPermute::SWAP_WARP.escape(3), Some((2, 3)));
    /// ```
    pub const fn escape(&self, len: Index) -> Option<(Index, Index)> {
        let r = len & self.mask();
        let base = len - r;
        let mut j = 0;
        while j < r {
            let to = self.apply(base + j);
            if to >= len {
                return Some((base + j, to));
            }
            j += 1;
        }
        None
    }

    /// The nearest lengths below and above `len` that the map keeps (see
    /// [`escape`](Self::escape)), each `None` when there is none (from 1 to
    /// `len - 1`, from `len + 1` to the largest index).
    ///
    /// ```
    /// use cktile_transforms::kinds::functor::BitPermute;
    /// // 96 + 31 is kept: every index below 31 maps below 31.
    /// assert_eq!(BitPermute::PERMUTE_BITS_5.nearest_kept(100), (Some(97), Some(127)));
    /// assert_eq!(BitPermute::SWAP_WARP.nearest_kept(3), (Some(2), Some(4)));
    /// assert_eq!(BitPermute::SWAP_WARP.nearest_kept(1), (None, Some(2)));
    /// assert_eq!(BitPermute::SWAP_WARP.nearest_kept(i64::MAX), (Some(i64::MAX - 1), None));
    /// ```
    pub const fn nearest_kept(&self, len: Index) -> (Option<Index>, Option<Index>) {
        // A multiple of the block is always kept: each search takes at most
        // one block.
        let mut below = len - 1;
        while below > 0 && self.escape(below).is_some() {
            below -= 1;
        }
        let mut above = len;
        let found = loop {
            if above == Index::MAX {
                break None;
            }
            above += 1;
            if self.escape(above).is_none() {
                break Some(above);
            }
        };
        (if below > 0 { Some(below) } else { None }, found)
    }

    /// The exact range of the map over the indices `lo..=hi` (`lo <= hi`):
    /// every aligned block maps onto itself, so only the partial blocks at
    /// the ends are searched (at most `2^(n+1)` indices), in `i128` so that
    /// no bound wraps.
    ///
    /// ```
    /// use cktile_transforms::kinds::functor::BitPermute;
    /// // permute_bits_5 over 0..=4: 0, 4, 8, 12, 16.
    /// assert_eq!(BitPermute::PERMUTE_BITS_5.range(0, 4), (0, 16));
    /// assert_eq!(BitPermute::PERMUTE_BITS_5.range(3, 99), (1, 108)); // 8 -> 1, 96 + 3 -> 96 + 12
    /// ```
    pub const fn range(&self, lo: i128, hi: i128) -> (i128, i128) {
        let mask = self.mask() as i128;
        let (lo_block, hi_block) = (lo & !mask, hi & !mask);
        if lo_block == hi_block {
            self.block_range(lo_block, lo & mask, hi & mask)
        } else {
            (self.block_range(lo_block, lo & mask, mask).0, self.block_range(hi_block, 0, hi & mask).1)
        }
    }

    /// The smallest and largest image of `base + j` for `j` in
    /// `from..=to`, inside one block (`base` aligned).
    const fn block_range(&self, base: i128, from: i128, to: i128) -> (i128, i128) {
        let (mut lo, mut hi) = (i128::MAX, i128::MIN);
        let mut j = from;
        while j <= to {
            let v = base + self.apply(j as i64) as i128;
            if v < lo {
                lo = v;
            }
            if v > hi {
                hi = v;
            }
            j += 1;
        }
        (lo, hi)
    }

    /// The compiled form: the moves that evaluate the map as a few masks
    /// and shifts.
    ///
    /// ```
    /// use cktile_transforms::kinds::functor::BitPermute;
    /// let m = BitPermute::PERMUTE_BITS_5.moves();
    /// // Bits 0..3 move up by 2, bits 3..5 down by 3.
    /// assert!(m.moves().eq([(0b00111, 2), (0b11000, -3)]));
    /// ```
    pub const fn moves(&self) -> BitMoves {
        let mut masks = [0i64; MAX_BITS];
        let mut shifts = [0i8; MAX_BITS];
        let mut n = 0;
        let mut i = 0;
        while i < self.bits as usize && i < MAX_BITS {
            let shift = self.targets[i] as i8 - i as i8;
            let mut k = 0;
            while k < n && shifts[k] != shift {
                k += 1;
            }
            if k == n {
                shifts[n] = shift;
                n += 1;
            }
            masks[k] |= 1 << i;
            i += 1;
        }
        BitMoves { keep: !self.mask(), flip: self.flip as i64, n: n as u8, masks, shifts }
    }
}

/// The map as its spec arguments after the length: `(2,3,4,0,1),0`.
///
/// ```
/// use cktile_transforms::kinds::functor::BitPermute;
/// assert_eq!(BitPermute::PERMUTE_BITS_5.to_string(), "(2,3,4,0,1),0");
/// ```
impl core::fmt::Display for BitPermute {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("(")?;
        for (i, t) in self.targets().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{t}")?;
        }
        write!(f, "),{}", self.flip)
    }
}

/// A [`BitPermute`] as masks and shifts: the bits that move by the same
/// distance move together, so `permute_bits_5` is two moves. What compiled
/// programs run and generated code writes; a test holds
/// [`apply`](Self::apply) equal to [`BitPermute::apply`] on every map of up
/// to five bits and every index of their blocks.
///
/// ```
/// use cktile_transforms::kinds::functor::BitPermute;
/// let p = BitPermute::PERMUTE_BITS_5;
/// assert!((-70..70).all(|x| p.moves().apply(x) == p.apply(x)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BitMoves {
    /// The bits that stay: `!(2^n - 1)`.
    pub keep: i64,
    /// XORed in last.
    pub flip: i64,
    n: u8,
    masks: [i64; MAX_BITS],
    shifts: [i8; MAX_BITS],
}

impl BitMoves {
    /// Each move: the bits it takes (as a mask of the input) and how far
    /// left they go (right for a negative distance).
    ///
    /// ```
    /// let m = cktile_transforms::kinds::functor::BitPermute::SWAP_WARP.moves();
    /// assert!(m.moves().eq([(1, 0)]));
    /// assert_eq!((m.keep, m.flip), (!1, 1));
    /// ```
    pub fn moves(&self) -> impl Iterator<Item = (i64, i32)> + '_ {
        let n = (self.n as usize).min(MAX_BITS);
        self.masks[..n].iter().zip(&self.shifts[..n]).map(|(&m, &s)| (m, s as i32))
    }

    /// `((x & keep) | moved bits) ^ flip`.
    ///
    /// ```
    /// let m = cktile_transforms::kinds::functor::BitPermute::PERMUTE_BITS_5.moves();
    /// assert_eq!(m.apply(0b01011), 0b01101);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn apply(&self, x: i64) -> i64 {
        let mut y = x & self.keep;
        let mut k = 0;
        while k < self.n as usize && k < MAX_BITS {
            let (field, s) = (x & self.masks[k], self.shifts[k]);
            y |= if s >= 0 { field << (s as u32 % 64) } else { field >> (s.unsigned_abs() as u32 % 64) };
            k += 1;
        }
        y ^ self.flip
    }
}
