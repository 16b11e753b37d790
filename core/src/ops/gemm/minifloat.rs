//! The 8-bit floating-point formats that GPU matrix instructions read (OCP's
//! E4M3FN and E5M2, and the FNUZ variants with one NaN and no negative zero),
//! as one codec written over a format's parameters ([`Format`]): the exact
//! value of each encoding ([`Format::decode`]) and the saturating conversion
//! from `f32`, round to nearest with ties to even ([`Format::encode`]).

/// How a format spends its largest exponent field and its sign bit on
/// special values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Specials {
    /// IEEE 754's rules: the all-ones exponent field is ±infinity with a
    /// zero mantissa and NaN with any other; both zeros exist.
    Ieee,
    /// Finite (OCP's "FN"): no infinities; the all-ones exponent field holds
    /// ordinary values but for the all-ones mantissa, which is NaN (either
    /// sign); both zeros exist.
    Fn,
    /// Finite with an unsigned zero ("FNUZ"): no infinities and no negative
    /// zero; the encoding that would be -0 (`0x80`) is the only NaN, and
    /// every other encoding is an ordinary value.
    Fnuz,
}

/// An 8-bit floating-point format: a sign bit, `exp_bits` of exponent and
/// `man_bits` of mantissa (the two add up to 7), the exponent's bias, and
/// the rule for special values. A normal encoding (exponent field `e > 0`)
/// is `(1 + m / 2^man_bits) * 2^(e - bias)`; a subnormal one (`e = 0`) is
/// `m / 2^man_bits * 2^(1 - bias)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Format {
    /// The width of the exponent field.
    pub(crate) exp_bits: u32,
    /// The width of the mantissa field.
    pub(crate) man_bits: u32,
    /// The exponent's bias.
    pub(crate) bias: i32,
    /// Which encodings are infinities and NaNs.
    pub(crate) specials: Specials,
}

/// OCP's E4M3 (`fp8_t` on gfx950 and NVIDIA's `e4m3`): bias 7, no
/// infinities, NaN is `S.1111.111` (`0x7f`, `0xff`), the largest finite value
/// is 448 (`0x7e`), and -0 (`0x80`) exists.
pub(crate) const E4M3FN: Format = Format { exp_bits: 4, man_bits: 3, bias: 7, specials: Specials::Fn };

/// OCP's E5M2 (`bf8_t` on gfx950 and NVIDIA's `e5m2`): bias 15 and IEEE's
/// specials, so `0x7c` is infinity and `0x7d..=0x7f` are NaNs (either sign);
/// the largest finite value is 57344 (`0x7b`).
pub(crate) const E5M2: Format = Format { exp_bits: 5, man_bits: 2, bias: 15, specials: Specials::Ieee };

/// E4M3FNUZ (CK's `fp8_t` on gfx94x): bias 8, no infinities, no negative
/// zero, the only NaN is `0x80`; the largest finite value is 240 (`0x7f`).
pub(crate) const E4M3FNUZ: Format = Format { exp_bits: 4, man_bits: 3, bias: 8, specials: Specials::Fnuz };

/// E5M2FNUZ (CK's `bf8_t` on gfx94x): bias 16, no infinities, no negative
/// zero, the only NaN is `0x80`; the largest finite value is 57344 (`0x7f`).
pub(crate) const E5M2FNUZ: Format = Format { exp_bits: 5, man_bits: 2, bias: 16, specials: Specials::Fnuz };

/// `2^k` as an `f32`: exact from 2^-149 to 2^127, zero below, infinity above.
fn pow2(k: i64) -> f32 {
    if k > 127 {
        f32::INFINITY
    } else if k >= -126 {
        // In range: the biased exponent is 1..=254.
        f32::from_bits(((k + 127) as u32) << 23)
    } else if k >= -149 {
        f32::from_bits(1u32 << (k + 149))
    } else {
        0.0
    }
}

/// The `width` low bits set (at most 7: the fields of an 8-bit format).
fn low_mask(width: u32) -> u32 {
    (1u32 << width.min(7)) - 1
}

impl Format {
    /// The mantissa field's width, kept below 8 so that no shift overflows
    /// (a format whose fields do not add up to 7 is not an 8-bit format, and
    /// its values mean nothing, but it does not panic).
    fn man(self) -> u32 {
        self.man_bits.min(7)
    }

    /// The encoding's fields without the sign: (exponent, mantissa).
    fn fields(self, bits: u8) -> (u32, u32) {
        let magnitude = u32::from(bits & 0x7f);
        ((magnitude >> self.man()) & low_mask(self.exp_bits), magnitude & low_mask(self.man_bits))
    }

    /// Whether `bits` is a NaN encoding.
    fn is_nan(self, bits: u8) -> bool {
        let (e, m) = self.fields(bits);
        let top = low_mask(self.exp_bits);
        match self.specials {
            Specials::Ieee => e == top && m != 0,
            Specials::Fn => e == top && m == low_mask(self.man_bits),
            Specials::Fnuz => bits == 0x80,
        }
    }

    /// The positive encoding of the largest finite value; the encodings of
    /// the non-negative values ascend with their bits up to it.
    fn max_code(self) -> u32 {
        let top = low_mask(self.exp_bits) << self.man();
        let mantissa = low_mask(self.man_bits);
        match self.specials {
            // One binade below infinity's, all of its mantissa.
            Specials::Ieee => (top - (1 << self.man())) | mantissa,
            // One below the NaN, S.1..1.1..1.
            Specials::Fn => (top | mantissa).saturating_sub(1),
            Specials::Fnuz => top | mantissa,
        }
    }

    /// The format's NaN for a value whose sign bit (as the encoding's top bit)
    /// is `sign`.
    fn nan_code(self, sign: u8) -> u8 {
        let top = low_mask(self.exp_bits) << self.man();
        let code = match self.specials {
            // A quiet NaN: the top mantissa bit set.
            Specials::Ieee => top | ((1 << self.man()) >> 1),
            Specials::Fn => top | low_mask(self.man_bits),
            Specials::Fnuz => return 0x80,
        };
        sign | (code & 0x7f) as u8
    }

    /// The value of `bits`, exactly (every value of these formats is an
    /// `f32`). A NaN encoding is NaN (with its sign, where the format has
    /// signed NaNs); E5M2's infinities are `f32`'s.
    pub(crate) fn decode(self, bits: u8) -> f32 {
        let sign = u32::from(bits >> 7) << 31;
        if self.is_nan(bits) {
            return match self.specials {
                Specials::Fnuz => f32::NAN,
                Specials::Ieee | Specials::Fn => f32::from_bits(sign | 0x7fc0_0000),
            };
        }
        let (e, m) = self.fields(bits);
        if self.specials == Specials::Ieee && e == low_mask(self.exp_bits) {
            return f32::from_bits(sign | 0x7f80_0000);
        }
        let man = i64::from(self.man());
        // The value is `significand * 2^exponent` with an integer
        // significand below 2^8: both factors, and their product, are exact.
        let (significand, exponent) = if e == 0 {
            (m, 1 - i64::from(self.bias) - man)
        } else {
            (m | (1 << man), i64::from(e) - i64::from(self.bias) - man)
        };
        let magnitude = (significand as f32) * pow2(exponent);
        f32::from_bits(magnitude.to_bits() | sign)
    }

    /// `value` rounded to the nearest encoding, ties to the even one, and
    /// saturating: a value (finite or infinite) whose rounded magnitude would
    /// pass the largest finite value becomes ± that value, as NVIDIA's
    /// `cvt.rn.satfinite` and CK's saturating conversion do. NaN becomes the
    /// format's NaN (E4M3FN's `0x7f` and E5M2's quiet `0x7e`, with the sign
    /// kept; FNUZ's `0x80`). Subnormals are rounded exactly: a value below half
    /// the least subnormal becomes zero, and exactly half of it is a tie that
    /// goes to zero, the even encoding. A FNUZ format has no negative zero:
    /// whatever rounds to zero, of either sign, is `0x00`.
    pub(crate) fn encode(self, value: f32) -> u8 {
        let bits = value.to_bits();
        let sign = ((bits >> 31) as u8) << 7;
        let magnitude = bits & 0x7fff_ffff;
        if magnitude > 0x7f80_0000 {
            return self.nan_code(sign);
        }
        let max_code = self.max_code();
        let code = if magnitude == 0x7f80_0000 { max_code } else { self.round_magnitude(magnitude).min(max_code) };
        if code == 0 && self.specials == Specials::Fnuz { 0 } else { sign | (code & 0x7f) as u8 }
    }

    /// The positive encoding nearest the finite, non-negative `f32` whose bits
    /// are `magnitude` (ties to even), as if the format's exponent had no top:
    /// it may pass [`max_code`](Self::max_code), and the caller saturates.
    fn round_magnitude(self, magnitude: u32) -> u32 {
        // The value is `significand * 2^ulp`, a 24-bit integer significand.
        let biased = magnitude >> 23;
        let (significand, ulp) = if biased == 0 {
            (magnitude, -149i64)
        } else {
            ((magnitude & 0x7f_ffff) | 0x80_0000, i64::from(biased) - 150)
        };
        if significand == 0 {
            return 0;
        }
        let man = i64::from(self.man());
        // The exponent of the value's binade, and the format's least normal
        // one: below it the format's step is its subnormals'.
        let binade = ulp + i64::from(31 - significand.leading_zeros());
        let least_normal = 1 - i64::from(self.bias);
        let target_binade = binade.max(least_normal);
        // The format's step in that binade is 2^(target_binade - man): the
        // significand loses `shift` bits to reach it.
        let shift = target_binade - man - ulp;
        let significand = u64::from(significand);
        let steps = if shift <= 0 {
            // A finer step than the f32's: exact (and, shifted this far,
            // past any finite value).
            significand << (-shift).min(40)
        } else if shift > 40 {
            // Less than half a step (the significand is below 2^24).
            0
        } else {
            let kept = significand >> shift;
            let rest = significand & ((1u64 << shift) - 1);
            let half = 1u64 << (shift - 1);
            if rest > half || (rest == half && kept & 1 == 1) { kept + 1 } else { kept }
        };
        // A normal binade's steps run from 2^man to 2^(man + 1) (a carry out of
        // the mantissa lands on the next binade's first encoding); a
        // subnormal's from 0 to 2^man (the last is the least normal value).
        let code = ((target_binade - least_normal) << man) + (steps.min(1 << 40) as i64);
        code.clamp(0, i64::from(u32::MAX)) as u32
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    extern crate std;

    use super::{E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ, Format, Specials};
    use std::vec::Vec;

    const FORMATS: [(&str, Format); 4] =
        [("E4M3FN", E4M3FN), ("E5M2", E5M2), ("E4M3FNUZ", E4M3FNUZ), ("E5M2FNUZ", E5M2FNUZ)];

    impl Format {
        /// The largest finite value (the encoding saturation clamps to).
        fn max_finite(self) -> f32 {
            self.decode((self.max_code() & 0x7f) as u8)
        }
    }

    /// What an encoding is, worked out apart from the module's code.
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Reference {
        Nan,
        Infinity { negative: bool },
        Finite(f64),
    }

    /// The specials of each format spelled out by encoding (OFP8 and LLVM's
    /// Float8E4M3FNUZ / Float8E5M2FNUZ), not from [`Specials`].
    fn reference(name: &str, format: Format, bits: u8) -> Reference {
        let magnitude = bits & 0x7f;
        let negative = bits & 0x80 != 0;
        match name {
            "E4M3FN" if magnitude == 0x7f => return Reference::Nan,
            "E5M2" if magnitude == 0x7c => return Reference::Infinity { negative },
            "E5M2" if magnitude > 0x7c => return Reference::Nan,
            "E4M3FNUZ" | "E5M2FNUZ" if bits == 0x80 => return Reference::Nan,
            _ => {}
        }
        let e = i32::from(magnitude >> format.man_bits);
        let m = f64::from(magnitude & ((1 << format.man_bits) - 1));
        let scale = f64::from(1u32 << format.man_bits);
        let value = if e == 0 {
            m / scale * 2f64.powi(1 - format.bias)
        } else {
            (1.0 + m / scale) * 2f64.powi(e - format.bias)
        };
        Reference::Finite(if negative { -value } else { value })
    }

    /// The format's finite non-negative values and their encodings, ascending
    /// (from [`reference`]).
    fn table(name: &str, format: Format) -> Vec<(f64, u8)> {
        let mut values: Vec<(f64, u8)> = (0u8..0x80)
            .filter_map(|b| match reference(name, format, b) {
                Reference::Finite(v) => Some((v, b)),
                _ => None,
            })
            .collect();
        values.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
        assert!(values.windows(2).all(|w| w[0].0 < w[1].0), "{name}: repeated values");
        values
    }

    /// The encoding nearest `x >= 0` (ties to the even encoding), saturating.
    fn nearest(values: &[(f64, u8)], x: f64) -> u8 {
        let (max, max_code) = values[values.len() - 1];
        if x >= max {
            return max_code;
        }
        // values[i].0 <= x < values[i + 1].0; the differences are exact.
        let i = values.partition_point(|&(v, _)| v <= x) - 1;
        let (lo, lo_code) = values[i];
        let (hi, hi_code) = values[i + 1];
        let (below, above) = (x - lo, hi - x);
        if below < above {
            lo_code
        } else if above < below {
            hi_code
        } else if lo_code % 2 == 0 {
            lo_code
        } else {
            hi_code
        }
    }

    #[test]
    fn every_encoding_decodes_to_its_fields_and_round_trips() {
        let mut checked = 0;
        for (name, format) in FORMATS {
            let mut nans = 0;
            for bits in 0..=255u8 {
                let decoded = format.decode(bits);
                match reference(name, format, bits) {
                    Reference::Nan => {
                        nans += 1;
                        assert!(decoded.is_nan(), "{name} {bits:#04x}: {decoded}");
                    }
                    Reference::Infinity { negative } => {
                        assert_eq!(decoded, if negative { f32::NEG_INFINITY } else { f32::INFINITY });
                        // Saturates: infinity becomes the largest finite value.
                        assert_eq!(format.encode(decoded), (bits & 0x80) | 0x7b, "{name} {bits:#04x}");
                    }
                    Reference::Finite(v) => {
                        assert_eq!(f64::from(decoded), v, "{name} {bits:#04x}");
                        // Zeros too: the sign bit is the encoding's (0x00 is FNUZ's only zero).
                        assert_eq!(decoded.is_sign_negative(), bits & 0x80 != 0, "{name} {bits:#04x}");
                        assert_eq!(format.encode(decoded), bits, "{name} {bits:#04x}: {decoded}");
                    }
                }
                checked += 1;
            }
            let expected_nans = match format.specials {
                Specials::Ieee => 6,
                Specials::Fn => 2,
                Specials::Fnuz => 1,
            };
            assert_eq!(nans, expected_nans, "{name}");
        }
        assert_eq!(checked, 4 * 256);
    }

    #[test]
    fn largest_finite_values() {
        assert_eq!(E4M3FN.max_finite(), 448.0);
        assert_eq!(E5M2.max_finite(), 57344.0);
        assert_eq!(E4M3FNUZ.max_finite(), 240.0);
        assert_eq!(E5M2FNUZ.max_finite(), 57344.0);
        for (name, format) in FORMATS {
            let values = table(name, format);
            assert_eq!(f64::from(format.max_finite()), values[values.len() - 1].0, "{name}");
        }
    }

    /// The f32s to round: a stride through the positive range, and around
    /// every value of the format: the value, its f32 neighbours, `v (1 ± 2^-k)`,
    /// and the midpoints (with their neighbours) between consecutive values
    /// and past the largest.
    fn probes(values: &[(f64, u8)]) -> Vec<f32> {
        let mut xs: Vec<f32> = (0..0x7f80_0000u32).step_by(4099).map(f32::from_bits).collect();
        xs.extend((1..0x7f80_0000u32).step_by(65_537).map(f32::from_bits));
        xs.extend([0.0, f32::from_bits(1), f32::MIN_POSITIVE, f32::MAX, f32::INFINITY]);
        let neighbours = |xs: &mut Vec<f32>, x: f32| {
            let b = x.to_bits();
            for d in 0..=3 {
                xs.push(f32::from_bits(b + d));
                if b >= d {
                    xs.push(f32::from_bits(b - d));
                }
            }
        };
        let (max, _) = values[values.len() - 1];
        let step = max - values[values.len() - 2].0;
        let mut points: Vec<f64> = values.iter().map(|&(v, _)| v).collect();
        // Past the largest value: where the next encodings would be.
        points.extend([max + step, max + 2.0 * step, 2.0 * max]);
        for w in points.windows(2) {
            let mid = (w[0] + w[1]) / 2.0;
            assert_eq!(f64::from(mid as f32), mid);
            neighbours(&mut xs, mid as f32);
        }
        for &v in &points {
            assert_eq!(f64::from(v as f32), v);
            neighbours(&mut xs, v as f32);
            for k in 1..=30 {
                let e = 2f64.powi(-k);
                xs.push((v * (1.0 + e)) as f32);
                xs.push((v * (1.0 - e)) as f32);
            }
        }
        xs
    }

    #[test]
    fn rounds_to_nearest_even_and_saturates() {
        for (name, format) in FORMATS {
            let values = table(name, format);
            let xs = probes(&values);
            let mut ties = 0;
            for &x in &xs {
                assert!(x >= 0.0);
                let expected = nearest(&values, f64::from(x));
                let got = format.encode(x);
                assert_eq!(got, expected, "{name}: {x:e} ({:#010x})", x.to_bits());
                // The negative mirrors it with the sign bit; a FNUZ zero has none.
                let negative = if format.specials == Specials::Fnuz && expected == 0 { 0 } else { expected | 0x80 };
                assert_eq!(format.encode(-x), negative, "{name}: {:e}", -x);
                let i = values.partition_point(|&(v, _)| v <= f64::from(x));
                if i > 0 && i < values.len() && f64::from(x) * 2.0 == values[i - 1].0 + values[i].0 {
                    ties += 1;
                }
            }
            // Every midpoint between consecutive values was a probe.
            assert!(ties >= values.len() - 1, "{name}: {ties} ties");
        }
    }

    #[test]
    fn nans_become_the_formats_nan() {
        for bits in [0x7fc0_0000u32, 0x7f80_0001, 0x7fff_ffff, 0x7fa0_0000] {
            for sign in [0, 0x8000_0000u32] {
                let nan = f32::from_bits(bits | sign);
                let s = if sign == 0 { 0 } else { 0x80 };
                assert_eq!(E4M3FN.encode(nan), 0x7f | s);
                assert_eq!(E5M2.encode(nan), 0x7e | s);
                assert_eq!(E4M3FNUZ.encode(nan), 0x80);
                assert_eq!(E5M2FNUZ.encode(nan), 0x80);
            }
        }
        assert!(E5M2.decode(0x7e).is_nan() && E5M2.decode(0xfd).is_nan() && E4M3FN.decode(0xff).is_nan());
    }

    #[test]
    fn known_values() {
        assert_eq!(E4M3FN.encode(448.0), 0x7e);
        assert_eq!(E4M3FN.encode(1e9), 0x7e);
        assert_eq!(E4M3FN.encode(-1e9), 0xfe);
        assert_eq!(E4M3FN.encode(464.0), 0x7e); // rounds to 0x7f's place, a NaN: saturates
        assert_eq!(E4M3FN.encode(f32::NEG_INFINITY), 0xfe);
        assert_eq!(E4M3FN.decode(0x01), 2f32.powi(-9));
        assert_eq!(E4M3FN.encode(1.0), 0x38);
        assert_eq!(E4M3FN.encode(-0.0), 0x80);
        assert_eq!(E4M3FN.encode(2f32.powi(-10)), 0x00); // half the least subnormal: a tie, to zero
        assert_eq!(E4M3FN.encode(-2f32.powi(-10)), 0x80);
        assert_eq!(E4M3FN.encode(3.0 * 2f32.powi(-10)), 0x02); // 1.5 subnormal steps: a tie, to 2

        assert_eq!(E5M2.decode(0x7c), f32::INFINITY);
        assert_eq!(E5M2.decode(0xfc), f32::NEG_INFINITY);
        assert_eq!(E5M2.encode(f32::INFINITY), 0x7b);
        assert_eq!(E5M2.encode(f32::NEG_INFINITY), 0xfb);
        assert_eq!(E5M2.encode(61440.0), 0x7b); // a tie that would round to infinity: saturates
        assert_eq!(E5M2.decode(0x01), 2f32.powi(-16));
        assert_eq!(E5M2.encode(1.0), 0x3c);

        assert_eq!(E4M3FNUZ.decode(0x7f), 240.0);
        assert_eq!(E4M3FNUZ.decode(0x01), 2f32.powi(-10));
        assert!(E4M3FNUZ.decode(0x80).is_nan());
        assert_eq!(E4M3FNUZ.encode(-0.0), 0x00);
        assert_eq!(E4M3FNUZ.encode(-2f32.powi(-12)), 0x00);
        assert_eq!(E4M3FNUZ.encode(1.0), 0x40);
        assert_eq!(E4M3FNUZ.encode(-1e9), 0xff);

        assert_eq!(E5M2FNUZ.decode(0x01), 2f32.powi(-17));
        assert_eq!(E5M2FNUZ.encode(1.0), 0x40);
        assert_eq!(E5M2FNUZ.decode(0x7f), 57344.0);
        assert!(E5M2FNUZ.decode(0x80).is_nan());
        assert_eq!(E5M2FNUZ.encode(f32::INFINITY), 0x7f);
    }
}
