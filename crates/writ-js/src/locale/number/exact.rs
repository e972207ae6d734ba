//! Exact decimal rounding, with every rounding mode, increment and digit limit of `Intl.NumberFormat`.

use super::{Digits, RoundingMode, RoundingType};

/// An exact non-negative decimal: `digits × 10^exp`, most significant digit first, with no
/// leading or trailing zeros (zero has no digits).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Exact {
    /// The digits, most significant first.
    pub(super) digits: Vec<u8>,
    /// The magnitude of the last digit.
    pub(super) exp: i32,
}

/// A rounding direction for a magnitude (`GetUnsignedRoundingMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unsigned {
    /// Away from zero.
    Up,
    /// Toward zero.
    Down,
    /// To nearest, ties away from zero.
    HalfUp,
    /// To nearest, ties toward zero.
    HalfDown,
    /// To nearest, ties to an even digit.
    HalfEven,
}

impl Unsigned {
    /// The direction `mode` rounds the magnitude of a number of the given sign.
    pub(super) fn of(mode: RoundingMode, negative: bool) -> Unsigned {
        use RoundingMode as M;
        match (mode, negative) {
            (M::Ceil, false) | (M::Floor, true) | (M::Expand, _) => Unsigned::Up,
            (M::Ceil, true) | (M::Floor, false) | (M::Trunc, _) => Unsigned::Down,
            (M::HalfCeil, false) | (M::HalfFloor, true) | (M::HalfExpand, _) => Unsigned::HalfUp,
            (M::HalfCeil, true) | (M::HalfFloor, false) | (M::HalfTrunc, _) => Unsigned::HalfDown,
            (M::HalfEven, _) => Unsigned::HalfEven,
        }
    }
}

impl Exact {
    /// Zero.
    pub(super) fn zero() -> Exact {
        Exact {
            digits: Vec::new(),
            exp: 0,
        }
    }

    /// `digits × 10^exp`, normalized.
    pub(super) fn new(mut digits: Vec<u8>, mut exp: i32) -> Exact {
        let leading = digits.iter().take_while(|&&d| d == 0).count();
        digits.drain(..leading);
        while digits.last() == Some(&0) {
            digits.pop();
            exp += 1;
        }
        if digits.is_empty() {
            Exact::zero()
        } else {
            Exact { digits, exp }
        }
    }

    /// The shortest decimal that reads back as `x` (finite, not negative), as ICU starts from.
    pub(super) fn from_f64(x: f64) -> Exact {
        if x == 0.0 || !x.is_finite() {
            return Exact::zero();
        }
        // Rust writes the shortest round-trip digits.
        let text = format!("{x:e}");
        let (mantissa, exponent) = text.split_once('e').unwrap_or((text.as_str(), "0"));
        let digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).map(|b| b - b'0').collect();
        let exponent: i32 = exponent.parse().unwrap_or(0);
        let len = i32::try_from(digits.len()).unwrap_or(1);
        Exact::new(digits, exponent - (len - 1))
    }

    /// The digits ICU's fast conversion gives `x` (finite, positive) before it needs the exact
    /// ones: about 16 significant digits from double arithmetic. ICU rounds to an increment
    /// other than 1 or 5 from these (`DecimalQuantity::_setToDoubleFast`).
    pub(super) fn from_f64_fast(x: f64) -> Exact {
        /// The powers of ten a double holds exactly.
        const POWERS: [f64; 22] = [
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
            1e19, 1e20, 1e21,
        ];
        if x == 0.0 || !x.is_finite() {
            return Exact::zero();
        }
        let exponent = i32::try_from((x.to_bits() >> 52) & 0x7ff).unwrap_or(0) - 0x3ff;
        if exponent <= 52 && x.fract() == 0.0 {
            return Exact::from_integer(x as u64, 0);
        }
        if exponent == -1023 || exponent == 1024 {
            return Exact::from_f64(x);
        }
        // log2(10): the decimal digits of the binary exponent.
        let fraction_len = (f64::from(52 - exponent) / std::f64::consts::LOG2_10) as i32;
        let mut n = x;
        let mut i = fraction_len;
        if i >= 0 {
            while i >= 22 {
                n *= 1e22;
                i -= 22;
            }
            n *= POWERS.get(usize::try_from(i).unwrap_or(0)).copied().unwrap_or(1.0);
        } else {
            while i <= -22 {
                n /= 1e22;
                i += 22;
            }
            n /= POWERS.get(usize::try_from(-i).unwrap_or(0)).copied().unwrap_or(1.0);
        }
        // ICU's uprv_round.
        let rounded = (n + 0.5).floor();
        if !(0.0..1.8e19).contains(&rounded) {
            return Exact::from_f64(x);
        }
        Exact::from_integer(rounded as u64, -fraction_len)
    }

    /// `n × 10^exp`.
    pub(super) fn from_integer(n: u64, exp: i32) -> Exact {
        let digits: Vec<u8> = n.to_string().bytes().map(|b| b - b'0').collect();
        Exact::new(digits, exp)
    }

    /// Whether this is zero.
    pub(super) fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// The magnitude of the most significant digit (0 for zero).
    pub(super) fn msd(&self) -> i32 {
        if self.is_zero() {
            0
        } else {
            self.exp + i32::try_from(self.digits.len()).unwrap_or(0) - 1
        }
    }

    /// The digit at magnitude `m`.
    pub(super) fn digit_at(&self, m: i32) -> u8 {
        if self.is_zero() || m < self.exp || m > self.msd() {
            return 0;
        }
        usize::try_from(self.msd() - m)
            .ok()
            .and_then(|i| self.digits.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// `self × 10^k`.
    pub(super) fn shifted(&self, k: i32) -> Exact {
        if self.is_zero() {
            Exact::zero()
        } else {
            Exact {
                digits: self.digits.clone(),
                exp: self.exp + k,
            }
        }
    }

    /// `self × factor`.
    pub(super) fn times(&self, factor: u8) -> Exact {
        let mut out = vec![0u8; self.digits.len() + 3];
        let mut carry = 0u32;
        let mut at = out.len();
        for &d in self.digits.iter().rev() {
            let product = u32::from(d) * u32::from(factor) + carry;
            at -= 1;
            if let Some(slot) = out.get_mut(at) {
                *slot = (product % 10) as u8;
            }
            carry = product / 10;
        }
        while carry > 0 && at > 0 {
            at -= 1;
            if let Some(slot) = out.get_mut(at) {
                *slot = (carry % 10) as u8;
            }
            carry /= 10;
        }
        Exact::new(out, self.exp)
    }

    /// Rounds to a multiple of `10^unit` in direction `mode`.
    pub(super) fn round_at(&self, unit: i32, mode: Unsigned) -> Exact {
        if self.is_zero() || self.exp >= unit {
            return self.clone();
        }
        let len = self.digits.len();
        let drop = usize::try_from(unit - self.exp).unwrap_or(usize::MAX);
        let (kept, first, rest_nonzero) = if drop > len {
            // The first dropped digit lies above the number: zero, with the number after it.
            (&[][..], 0u8, true)
        } else {
            let split = len - drop;
            let first = self.digits.get(split).copied().unwrap_or(0);
            let rest = self.digits.get(split + 1..).unwrap_or(&[]);
            (
                self.digits.get(..split).unwrap_or(&[]),
                first,
                rest.iter().any(|&d| d != 0),
            )
        };
        let last_odd = kept.last().is_some_and(|&d| d % 2 == 1);
        let up = match mode {
            Unsigned::Up => first != 0 || rest_nonzero,
            Unsigned::Down => false,
            Unsigned::HalfUp => first >= 5,
            Unsigned::HalfDown => first > 5 || (first == 5 && rest_nonzero),
            Unsigned::HalfEven => first > 5 || (first == 5 && (rest_nonzero || last_odd)),
        };
        let mut digits = Vec::with_capacity(kept.len() + 1);
        digits.push(0);
        digits.extend_from_slice(kept);
        if up {
            for d in digits.iter_mut().rev() {
                if *d == 9 {
                    *d = 0;
                } else {
                    *d += 1;
                    break;
                }
            }
        }
        Exact::new(digits, unit)
    }

    /// Rounds to a multiple of `step × 10^unit` (`step` 1, 2, 5 or 25) in direction `mode`.
    pub(super) fn round(&self, unit: i32, step: u8, mode: Unsigned) -> Exact {
        let (factor, shift) = match step {
            2 => (5, 1),
            5 => (2, 1),
            25 => (4, 2),
            _ => return self.round_at(unit, mode),
        };
        // self / (step × 10^unit) = self × factor × 10^(-unit - shift)
        let quotient = self.times(factor).shifted(-unit - shift).round_at(0, mode);
        quotient.times(step).shifted(unit)
    }
}

/// A rounded number and the lowest magnitude it shows (0 or below).
pub(super) struct Shown {
    /// The rounded number.
    pub(super) value: Exact,
    /// The magnitude of the last digit shown.
    pub(super) lowest: i32,
}

/// `increment` as `step × 10^shift` with `step` 1, 2, 5 or 25.
fn split_increment(increment: u32) -> (u8, i32) {
    let mut value = increment.max(1);
    let mut shift = 0;
    while value.is_multiple_of(10) {
        value /= 10;
        shift += 1;
    }
    (u8::try_from(value).unwrap_or(1), shift)
}

/// A count of digits as a magnitude offset.
pub(super) fn count(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

impl Digits {
    /// `ToRawFixed`: rounded to the fraction digits (and increment); its rounding magnitude.
    pub(super) fn fixed(&self, x: &Exact, mode: Unsigned) -> (Shown, i32) {
        let (step, shift) = split_increment(self.increment);
        let value = x.round(shift - count(self.max_fraction), step, mode);
        let lowest_nonzero = if value.is_zero() { 0 } else { value.exp };
        let lowest = 0.min((-count(self.min_fraction)).min(lowest_nonzero.max(-count(self.max_fraction))));
        (Shown { value, lowest }, -count(self.max_fraction))
    }

    /// `ToRawPrecision`: rounded to the significant digits; its rounding magnitude.
    pub(super) fn precision(&self, x: &Exact, mode: Unsigned) -> (Shown, i32) {
        let max = count(self.max_significant);
        let min = count(self.min_significant);
        let value = if x.is_zero() {
            Exact::zero()
        } else {
            x.round_at(x.msd() - max + 1, mode)
        };
        let e = value.msd();
        let lowest_nonzero = if value.is_zero() { e } else { value.exp };
        let lowest = 0.min((e - min + 1).min(lowest_nonzero.max(e - max + 1)));
        (Shown { value, lowest }, e - max + 1)
    }

    /// `FormatNumericToString`'s rounding of the magnitude `x` of a number.
    pub(super) fn round(&self, x: &Exact, negative: bool) -> Shown {
        let mode = Unsigned::of(self.mode, negative);
        let mut shown = match self.rounding {
            RoundingType::FractionDigits => self.fixed(x, mode).0,
            RoundingType::SignificantDigits => self.precision(x, mode).0,
            RoundingType::MorePrecision | RoundingType::LessPrecision => {
                let (significant, significant_magnitude) = self.precision(x, mode);
                let (fixed, fixed_magnitude) = self.fixed(x, mode);
                let significant_wins = significant_magnitude <= fixed_magnitude;
                if significant_wins == (self.rounding == RoundingType::MorePrecision) {
                    significant
                } else {
                    fixed
                }
            }
        };
        if self.strip_if_integer && (shown.value.is_zero() || shown.value.exp >= 0) {
            shown.lowest = 0;
        }
        shown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact decimal rounding.
    #[test]
    fn exact_rounding_modes_and_increments() {
        let x = Exact::from_f64(2.5);
        assert_eq!(x.round_at(0, Unsigned::HalfEven), Exact::from_integer(2, 0));
        assert_eq!(x.round_at(0, Unsigned::HalfUp), Exact::from_integer(3, 0));
        assert_eq!(x.round_at(0, Unsigned::HalfDown), Exact::from_integer(2, 0));
        assert_eq!(x.round_at(0, Unsigned::Up), Exact::from_integer(3, 0));
        assert_eq!(x.round_at(0, Unsigned::Down), Exact::from_integer(2, 0));
        // 1.005 is 1.00499999999999989…, but ICU rounds its shortest decimal.
        assert_eq!(
            Exact::from_f64(1.005).round_at(-2, Unsigned::HalfUp),
            Exact::from_integer(101, -2)
        );
        assert_eq!(
            Exact::from_f64(9.996).round_at(-2, Unsigned::HalfUp),
            Exact::from_integer(10, 0)
        );
        assert_eq!(
            Exact::from_f64(1.13).round(-2, 25, Unsigned::HalfUp),
            Exact::from_integer(125, -2)
        );
        assert_eq!(
            Exact::from_f64(0.004).round_at(-1, Unsigned::Up),
            Exact::from_integer(1, -1)
        );
        assert_eq!(Exact::from_f64(0.004).round_at(-1, Unsigned::HalfUp), Exact::zero());
        assert_eq!(Exact::from_f64(5e-324).msd(), -324);
        assert_eq!(split_increment(2500), (25, 2));
    }
}
