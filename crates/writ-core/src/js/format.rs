//! The digits `Number.prototype` writes: `toFixed`, `toExponential`, `toPrecision` and
//! `toString(radix)`, exactly as V8 writes them.
//!
//! `toFixed`, `toExponential` and `toPrecision` round the double's exact binary value, not a
//! shorter decimal reading of it: `(1.005).toFixed(2)` is `"1.00"` because the double is a
//! little below 1.005. The exact value needs more than 64 bits (a subnormal times `10^100`), so
//! the file carries a small unsigned big integer, [`Big`], with just the operations the
//! rounding needs. `toString(radix)` follows the algorithm V8 uses for radixes other than 10,
//! which works in doubles and stops once the digits identify the double.

use std::cmp::Ordering;

use crate::js_number_to_string;

/// `Number.prototype.toFixed(fraction_digits)`: the integer `n` nearest `x × 10^f` (the larger
/// on a tie, from the exact binary value) written with `f` digits after the point; `String(x)`
/// for NaN, the infinities and magnitudes from `1e21` up. JavaScript accepts `f` in 0..=100
/// (the caller throws its RangeError outside it); any `f` gives the exact digits.
///
/// ```
/// use writ_core::js::to_fixed;
/// assert_eq!(to_fixed(1.005, 2), "1.00");
/// assert_eq!(to_fixed(-0.0, 1), "0.0");
/// assert_eq!(to_fixed(1e21, 2), "1e+21");
/// ```
pub fn to_fixed(x: f64, fraction_digits: u32) -> String {
    if !x.is_finite() || x.abs() >= 1e21 {
        return js_number_to_string(x);
    }
    match scaled_integer(x, fraction_digits) {
        Some(n) => short_fixed(x, n, fraction_digits as usize),
        None => exact_fixed(x, fraction_digits),
    }
}

/// The powers of ten a double holds exactly.
const EXACT_POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// The integer `n` for which `n / 10^places` reads back as `x`, when there is one below
/// 10^15: `x` is then a decimal of at most `places` places and fifteen digits in all, whose
/// exact binary value lies far inside half a unit of its last place (the 15-digit decimals are
/// spaced wider than a double's precision), so rounding it to `places` gives that decimal.
fn scaled_integer(x: f64, places: u32) -> Option<u64> {
    let scale = *EXACT_POWERS_OF_TEN.get(places as usize)?;
    let n = (x * scale).round();
    // Both operands are exact, so the division rounds the exact decimal once, as reading its
    // text would.
    (n.abs() < 1e15 && n / scale == x).then_some(n.abs() as u64)
}

/// `toFixed` of `x` when `|x| × 10^places` is exactly the integer `n`.
fn short_fixed(x: f64, n: u64, places: usize) -> String {
    let mut out = String::with_capacity(places + 18);
    if x < 0.0 {
        out.push('-');
    }
    let digits = n.to_string();
    if places == 0 {
        out.push_str(&digits);
        return out;
    }
    let whole = digits.len().saturating_sub(places);
    out.push_str(if whole == 0 { "0" } else { &digits[..whole] });
    out.push('.');
    out.extend(std::iter::repeat_n('0', places.saturating_sub(digits.len())));
    out.push_str(&digits[whole..]);
    out
}

/// [`to_fixed`] from the exact binary value, for a finite `x` below `1e21` in magnitude.
fn exact_fixed(x: f64, fraction_digits: u32) -> String {
    let mut out = String::new();
    // -0 is not below zero, so `(-0).toFixed(2)` has no sign, while -0.0001 keeps its sign.
    if x < 0.0 {
        out.push('-');
    }
    let n = match Exact::of(x.abs()) {
        None => Big::zero(),
        Some(exact) => {
            let mut numerator = Big::from_u64(exact.mantissa);
            numerator.shl(exact.exp2.max(0).unsigned_abs());
            numerator.mul_pow10(fraction_digits);
            round_div(&numerator, exact.exp2.min(0).unsigned_abs(), 0)
        }
    };
    let mut digits = n.to_decimal();
    let f = fraction_digits as usize;
    if f == 0 {
        out.push_str(&digits);
        return out;
    }
    if digits.len() <= f {
        let zeros = "0".repeat(f + 1 - digits.len());
        digits.insert_str(0, &zeros);
    }
    let point = digits.len() - f;
    out.push_str(&digits[..point]);
    out.push('.');
    out.push_str(&digits[point..]);
    out
}

/// `Number.prototype.toExponential(fraction_digits)`: `None` (the argument left out) asks for
/// as many digits as it takes to identify the double; `String(x)` for NaN and the infinities.
/// JavaScript accepts 0..=100 digits (the caller throws its RangeError outside it).
pub fn to_exponential(x: f64, fraction_digits: Option<u32>) -> String {
    if !x.is_finite() {
        return js_number_to_string(x);
    }
    let mut out = String::new();
    if x < 0.0 {
        out.push('-');
    }
    let (digits, exponent) = match fraction_digits {
        None => shortest_digits(x.abs()),
        Some(f) => rounded_digits(x.abs(), f + 1),
    };
    push_exponential(&mut out, &digits, exponent);
    out
}

/// `Number.prototype.toPrecision(precision)` for `precision` in 1..=100 (the caller throws its
/// RangeError outside it); `String(x)` for NaN and the infinities.
pub fn to_precision(x: f64, precision: u32) -> String {
    if !x.is_finite() {
        return js_number_to_string(x);
    }
    let precision = precision.max(1);
    let mut out = String::new();
    if x < 0.0 {
        out.push('-');
    }
    let (digits, e) = rounded_digits(x.abs(), precision);
    let p = precision as i32;
    if e < -6 || e >= p {
        push_exponential(&mut out, &digits, e);
    } else if e == p - 1 {
        out.push_str(&digits);
    } else if e >= 0 {
        let point = (e + 1) as usize;
        out.push_str(&digits[..point]);
        out.push('.');
        out.push_str(&digits[point..]);
    } else {
        out.push_str("0.");
        out.push_str(&"0".repeat((-(e + 1)) as usize));
        out.push_str(&digits);
    }
    out
}

/// Writes `d[.ddd]e±x` for the significant digits `digits` and decimal exponent `exponent`.
fn push_exponential(out: &mut String, digits: &str, exponent: i32) {
    out.push_str(&digits[..1]);
    if digits.len() > 1 {
        out.push('.');
        out.push_str(&digits[1..]);
    }
    out.push('e');
    out.push(if exponent < 0 { '-' } else { '+' });
    out.push_str(&exponent.unsigned_abs().to_string());
}

/// The shortest digits that read back as `x` (non-negative, finite) and the decimal exponent
/// of the first one, taken from JavaScript's own `String(x)`.
fn shortest_digits(x: f64) -> (String, i32) {
    if x == 0.0 {
        return ("0".to_owned(), 0);
    }
    let text = js_number_to_string(x);
    let (mantissa, exp_part) = match text.split_once('e') {
        Some((m, e)) => (m, e.trim_start_matches('+').parse::<i32>().unwrap_or(0)),
        None => (text.as_str(), 0),
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all: String = format!("{int_part}{frac_part}");
    let leading = all.bytes().take_while(|&b| b == b'0').count();
    // The first significant digit sits `int_part.len() - 1 - leading` places above the units.
    let exponent = exp_part + int_part.len() as i32 - 1 - leading as i32;
    let digits = all[leading..].trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    (digits.to_owned(), exponent)
}

/// The `count` digits `n` and exponent `e` with `n × 10^(e - count + 1)` nearest `x`
/// (non-negative, finite), the larger on a tie, as ECMA-262 asks of `toExponential` and
/// `toPrecision`. Zero gives `count` zeros and exponent 0.
fn rounded_digits(x: f64, count: u32) -> (String, i32) {
    let Some(exact) = Exact::of(x) else {
        return ("0".repeat(count as usize), 0);
    };
    let mut e = exact.floor_log10(x);
    let scale = count as i32 - 1 - e;
    let mut numerator = Big::from_u64(exact.mantissa);
    numerator.shl(exact.exp2.max(0).unsigned_abs());
    if scale >= 0 {
        numerator.mul_pow10(scale.unsigned_abs());
    }
    let n = round_div(
        &numerator,
        exact.exp2.min(0).unsigned_abs(),
        scale.min(0).unsigned_abs(),
    );
    let mut digits = n.to_decimal();
    if digits.len() > count as usize {
        // Rounding carried into a new digit: 9.96 to two digits is 10, written 1.0e+1.
        digits.truncate(count as usize);
        e += 1;
    }
    (digits, e)
}

/// A positive finite double as `mantissa × 2^exp2`, exactly.
#[derive(Clone, Copy, Debug)]
struct Exact {
    mantissa: u64,
    exp2: i32,
}

impl Exact {
    /// The exact form of `x`, or `None` for zero (and for what is not finite).
    fn of(x: f64) -> Option<Exact> {
        if x == 0.0 || !x.is_finite() {
            return None;
        }
        let bits = x.abs().to_bits();
        let biased = ((bits >> 52) & 0x7ff) as i32;
        let fraction = bits & ((1u64 << 52) - 1);
        Some(if biased == 0 {
            Exact {
                mantissa: fraction,
                exp2: -1074,
            }
        } else {
            Exact {
                mantissa: fraction | (1u64 << 52),
                exp2: biased - 1075,
            }
        })
    }

    /// How `self` compares with `10^e10`, exactly.
    fn cmp_pow10(self, e10: i32) -> Ordering {
        let mut left = Big::from_u64(self.mantissa);
        left.shl(self.exp2.max(0).unsigned_abs());
        left.mul_pow10(e10.min(0).unsigned_abs());
        let mut right = Big::from_u64(1);
        right.shl(self.exp2.min(0).unsigned_abs());
        right.mul_pow10(e10.max(0).unsigned_abs());
        left.cmp(&right)
    }

    /// `floor(log10(x))`, exactly: the floating-point logarithm can be one off near powers of ten.
    fn floor_log10(self, x: f64) -> i32 {
        let mut e = x.log10().floor() as i32;
        // The estimate is within one of the answer; a few rounds settle it either way.
        for _ in 0..4 {
            if self.cmp_pow10(e) == Ordering::Less {
                e -= 1;
            } else if self.cmp_pow10(e + 1) != Ordering::Less {
                e += 1;
            } else {
                break;
            }
        }
        e
    }
}

/// `numerator / (2^pow2 × 10^pow10)` rounded to the nearest integer, halves up.
fn round_div(numerator: &Big, pow2: u32, pow10: u32) -> Big {
    let mut quotient = numerator.clone();
    quotient.shr(pow2);
    let mut left = pow10;
    while left > 0 {
        let step = left.min(9);
        quotient.div_small(10u32.pow(step));
        left -= step;
    }
    // The remainder is what the truncated quotient leaves of the numerator.
    let mut back = quotient.clone();
    back.mul_pow10(pow10);
    back.shl(pow2);
    let mut remainder = numerator.clone();
    remainder.sub(&back);
    remainder.shl(1);
    let mut divisor = Big::from_u64(1);
    divisor.mul_pow10(pow10);
    divisor.shl(pow2);
    if remainder.cmp(&divisor) != Ordering::Less {
        quotient.add_small(1);
    }
    quotient
}

/// `Number.prototype.toString(radix)` for a radix from 2 to 36, with V8's digits: for radix
/// 10, `String(value)`; for NaN and the infinities, their names.
///
/// For the other radixes, V8 writes the integer part exactly while it fits in 53 bits and pads
/// with zeros above that; it writes fraction digits only while they still tell the double apart
/// from its neighbours (the gap to the next double, halved, scaled along with the fraction) and
/// rounds the last digit half to even, carrying into the digits already written and into the
/// integer part.
///
/// ```
/// use writ_core::js::to_radix_string;
/// assert_eq!(to_radix_string(255.5, 16), "ff.8");
/// assert_eq!(to_radix_string(-0.0, 2), "0");
/// ```
pub fn to_radix_string(value: f64, radix: u32) -> String {
    if radix == 10 || !value.is_finite() || !(2..=36).contains(&radix) {
        return js_number_to_string(value);
    }
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let base = f64::from(radix);
    let negative = value < 0.0;
    let magnitude = value.abs();
    let mut integer = magnitude.floor();
    let mut fraction = magnitude - integer;
    // Half the distance to the next double: digits below it carry no information.
    let mut delta = (0.5 * (magnitude.next_up() - magnitude)).max(f64::from_bits(1));
    let mut fraction_digits: Vec<u32> = Vec::new();
    if fraction >= delta {
        loop {
            fraction *= base;
            delta *= base;
            let digit = fraction as u32;
            fraction_digits.push(digit);
            fraction -= f64::from(digit);
            let above_half = fraction > 0.5 || (fraction == 0.5 && digit & 1 == 1);
            if above_half && fraction + delta > 1.0 {
                // Round up, carrying through the digits written so far.
                loop {
                    match fraction_digits.pop() {
                        None => {
                            integer += 1.0;
                            break;
                        }
                        Some(last) if last + 1 < radix => {
                            fraction_digits.push(last + 1);
                            break;
                        }
                        Some(_) => {}
                    }
                }
                break;
            }
            if fraction < delta {
                break;
            }
        }
    }
    // Integer digits, lowest first: beyond 2^53 the low digits are not represented, so V8
    // writes zeros for them.
    let mut integer_digits: Vec<u8> = Vec::new();
    let two_53 = 9_007_199_254_740_992.0;
    while integer / base >= two_53 {
        integer /= base;
        integer_digits.push(b'0');
    }
    loop {
        let remainder = integer % base;
        integer_digits.push(DIGITS.get(remainder as usize).copied().unwrap_or(b'0'));
        integer = (integer - remainder) / base;
        if integer <= 0.0 {
            break;
        }
    }
    let mut out = String::with_capacity(integer_digits.len() + fraction_digits.len() + 2);
    if negative {
        out.push('-');
    }
    out.extend(integer_digits.iter().rev().map(|&b| char::from(b)));
    if !fraction_digits.is_empty() {
        out.push('.');
        out.extend(
            fraction_digits
                .iter()
                .map(|&d| char::from(DIGITS.get(d as usize).copied().unwrap_or(b'0'))),
        );
    }
    out
}

/// An unsigned big integer, 32-bit limbs, least significant first, no trailing zero limbs.
///
/// Sized for this file's needs: at most a double's mantissa shifted by 1074 bits or multiplied
/// by `10^424`, a few hundred limbs at worst.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Big {
    limbs: Vec<u32>,
}

impl Big {
    /// Zero.
    fn zero() -> Big {
        Big { limbs: Vec::new() }
    }

    /// `value` as a big integer.
    fn from_u64(value: u64) -> Big {
        let mut big = Big {
            limbs: vec![value as u32, (value >> 32) as u32],
        };
        big.trim();
        big
    }

    /// Drops high zero limbs, so that comparison can go by length first.
    fn trim(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }

    /// Whether the value is zero.
    fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    /// `self *= factor`.
    fn mul_small(&mut self, factor: u32) {
        let mut carry = 0u64;
        for limb in &mut self.limbs {
            let product = u64::from(*limb) * u64::from(factor) + carry;
            *limb = product as u32;
            carry = product >> 32;
        }
        if carry > 0 {
            self.limbs.push(carry as u32);
        }
        self.trim();
    }

    /// `self *= 10^power`.
    fn mul_pow10(&mut self, power: u32) {
        let mut left = power;
        while left > 0 {
            let step = left.min(9);
            self.mul_small(10u32.pow(step));
            left -= step;
        }
    }

    /// `self += value`.
    fn add_small(&mut self, value: u32) {
        let mut carry = u64::from(value);
        for limb in &mut self.limbs {
            if carry == 0 {
                break;
            }
            let sum = u64::from(*limb) + carry;
            *limb = sum as u32;
            carry = sum >> 32;
        }
        if carry > 0 {
            self.limbs.push(carry as u32);
        }
    }

    /// `self -= other`, which must not exceed `self` (it never does here: the quotient's
    /// multiple is at most the numerator); saturates at zero otherwise.
    fn sub(&mut self, other: &Big) {
        if (*self).cmp(other) == Ordering::Less {
            self.limbs.clear();
            return;
        }
        let mut borrow = 0i64;
        for (i, limb) in self.limbs.iter_mut().enumerate() {
            let subtrahend = i64::from(other.limbs.get(i).copied().unwrap_or(0)) + borrow;
            let mut difference = i64::from(*limb) - subtrahend;
            if difference < 0 {
                difference += 1i64 << 32;
                borrow = 1;
            } else {
                borrow = 0;
            }
            *limb = difference as u32;
        }
        self.trim();
    }

    /// `self <<= bits`.
    fn shl(&mut self, bits: u32) {
        if self.is_zero() {
            return;
        }
        let whole = (bits / 32) as usize;
        let part = bits % 32;
        if part > 0 {
            let mut carry = 0u32;
            for limb in &mut self.limbs {
                let next = *limb >> (32 - part);
                *limb = (*limb << part) | carry;
                carry = next;
            }
            if carry > 0 {
                self.limbs.push(carry);
            }
        }
        if whole > 0 {
            self.limbs.splice(0..0, std::iter::repeat_n(0, whole));
        }
    }

    /// `self >>= bits`, dropping the bits shifted out.
    fn shr(&mut self, bits: u32) {
        let whole = (bits / 32) as usize;
        if whole >= self.limbs.len() {
            self.limbs.clear();
            return;
        }
        self.limbs.drain(..whole);
        let part = bits % 32;
        if part > 0 {
            let mut carry = 0u32;
            for limb in self.limbs.iter_mut().rev() {
                let next = *limb << (32 - part);
                *limb = (*limb >> part) | carry;
                carry = next;
            }
        }
        self.trim();
    }

    /// `self /= divisor` (non-zero), returning the remainder.
    fn div_small(&mut self, divisor: u32) -> u32 {
        let divisor = u64::from(divisor.max(1));
        let mut remainder = 0u64;
        for limb in self.limbs.iter_mut().rev() {
            let current = (remainder << 32) | u64::from(*limb);
            *limb = (current / divisor) as u32;
            remainder = current % divisor;
        }
        self.trim();
        remainder as u32
    }

    /// The value in decimal, `"0"` for zero.
    fn to_decimal(&self) -> String {
        if self.is_zero() {
            return "0".to_owned();
        }
        let mut rest = self.clone();
        let mut chunks: Vec<u32> = Vec::new();
        while !rest.is_zero() {
            chunks.push(rest.div_small(1_000_000_000));
        }
        let mut out = String::new();
        for (i, chunk) in chunks.iter().rev().enumerate() {
            if i == 0 {
                out.push_str(&chunk.to_string());
            } else {
                out.push_str(&format!("{chunk:09}"));
            }
        }
        out
    }
}

/// Numeric order, as [`Ord`].
impl PartialOrd for Big {
    fn partial_cmp(&self, other: &Big) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Numeric order: more limbs is larger, then limb by limb from the top.
impl Ord for Big {
    fn cmp(&self, other: &Big) -> Ordering {
        self.limbs
            .len()
            .cmp(&other.limbs.len())
            .then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_decimals_fix_as_the_exact_algorithm_does() {
        let mut x: u64 = 0x5851_F42D_4C95_7F2D;
        for i in 0..20_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let value = match i % 3 {
                0 => (x % 10_000_000) as f64 / 10f64.powi((x >> 40) as i32 % 8),
                1 => -((x % 100_000) as f64) / 100.0,
                _ => f64::from_bits(x),
            };
            if !value.is_finite() || value.abs() >= 1e21 {
                continue;
            }
            for places in [0u32, 1, 2, 3, 5, 9, 14, 22] {
                assert_eq!(
                    to_fixed(value, places),
                    exact_fixed(value, places),
                    "{value} to {places}"
                );
            }
        }
    }

    #[test]
    fn big_integer_arithmetic() {
        let mut a = Big::from_u64(u64::MAX);
        a.mul_pow10(30);
        assert_eq!(a.to_decimal(), format!("{}{}", u64::MAX, "0".repeat(30)));
        let mut b = a.clone();
        b.shl(77);
        b.shr(77);
        assert_eq!(a, b);
        assert_eq!(round_div(&Big::from_u64(25), 0, 1).to_decimal(), "3");
        assert_eq!(round_div(&Big::from_u64(24), 0, 1).to_decimal(), "2");
        assert_eq!(round_div(&Big::from_u64(5), 1, 0).to_decimal(), "3");
        assert_eq!(round_div(&Big::from_u64(5), 3, 0).to_decimal(), "1");
        assert_eq!(Big::zero().to_decimal(), "0");
    }
}
