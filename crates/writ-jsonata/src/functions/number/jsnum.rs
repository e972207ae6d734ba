//! JavaScript's number conversions as jsonata-js leans on them: `String(n)`, `+text`,
//! `parseInt`, `toFixed`, `toString(radix)`, `Math.round`, and JSONata's own `$round`, which
//! shifts the decimal point by rewriting the number's text.

use writ_core::js_number_to_string;

use super::text::{is_js_space, units};
use crate::error::Error;
use crate::eval::Cx;

/// The longest string V8 builds (`2^29 - 24` code units); past it JavaScript throws, and writ
/// stops here even when the evaluation's own string bound is off.
pub(in crate::functions) const MAX_STRING: usize = (1 << 29) - 24;

/// Charges building `len` code units of text: a step per unit, the string bound, and the hard
/// cap of [`MAX_STRING`].
pub(in crate::functions) fn reserve(cx: &mut Cx<'_>, len: usize) -> crate::error::Result<()> {
    if len > MAX_STRING {
        return Err(Error::new("U1007").value(MAX_STRING.to_string()).at(cx.position));
    }
    cx.steps(len as u64)?;
    cx.charge_string(len)
}

/// Units of work between two charges in a long loop: each charge past the meter's fuel reads
/// the clock, so a timeout holds inside a built-in's loops too.
const CHUNK: usize = 4096;

/// Charges a loop over `total` units as it goes: called at each index `i`, it charges the next
/// chunk's worth at the start of every chunk.
pub(in crate::functions) fn pace(cx: &mut Cx<'_>, i: usize, total: usize) -> crate::error::Result<()> {
    if i.is_multiple_of(CHUNK) {
        cx.steps(CHUNK.min(total.saturating_sub(i)) as u64)
    } else {
        Ok(())
    }
}

/// An error where jsonata-js fails with a native JavaScript exception (a `RangeError` or a
/// `TypeError`) rather than one of its coded errors: D3137 carries a free-form message.
pub(in crate::functions) fn native_error(cx: &Cx<'_>, message: &str) -> Error {
    Error::new("D3137").detail(message).at(cx.position)
}

/// `String(n)` as UTF-16 units.
pub(in crate::functions) fn number_units(n: f64) -> Vec<u16> {
    units(&js_number_to_string(n))
}

/// `Math.round`: the nearest integer, halves towards +∞, keeping `-0` for `-0.5 <= x < 0`.
pub(in crate::functions) fn math_round(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let floor = x.floor();
    let rounded = if x - floor >= 0.5 { floor + 1.0 } else { floor };
    if rounded == 0.0 && x < 0.0 { -0.0 } else { rounded }
}

/// JSONata's `$round(arg, precision)`: half to even at `precision` decimal places (0 when
/// absent), the point moved through the number's text so that no binary error creeps in.
pub(in crate::functions) fn round_half_even(arg: f64, precision: f64) -> f64 {
    // A number already written with no more decimals than asked, small enough that the shifted
    // text reads back as an exact integer, comes back as it is.
    if precision.fract() == 0.0
        && (0.0..=22.0).contains(&precision)
        && scaled_integer(arg, precision as usize).is_some()
    {
        return if arg == 0.0 { 0.0 } else { arg };
    }
    round_half_even_by_text(arg, precision)
}

/// [`round_half_even`] as jsonata-js computes it, for any arguments.
fn round_half_even_by_text(arg: f64, precision: f64) -> f64 {
    let shifted = precision != 0.0 && !precision.is_nan();
    let x = if shifted { shift_point(arg, precision) } else { arg };
    let mut result = math_round(x);
    if (result - x).abs() == 0.5 && (result % 2.0).abs() == 1.0 {
        result -= 1.0;
    }
    if shifted {
        result = shift_point(result, -precision);
    }
    if result == 0.0 { 0.0 } else { result }
}

/// `+(m + 'e' + (e + by))` where `String(x)` is `m` or `m + 'e' + e`: `x × 10^by` by text.
fn shift_point(x: f64, by: f64) -> f64 {
    if x.is_finite() && by.fract() == 0.0 && by.abs() <= 1e15 {
        // The common case, on one string: the exponent written is a plain integer, and the
        // text is a decimal literal that Rust reads with the same correct rounding as `+text`.
        let mut text = js_number_to_string(x);
        let exponent = match text.find('e') {
            Some(at) => {
                let exponent = text[at + 1..].parse::<i64>().unwrap_or_default();
                text.truncate(at);
                exponent
            }
            None => 0,
        };
        text.push('e');
        text.push_str(&(exponent + by as i64).to_string());
        return text.parse().unwrap_or(f64::NAN);
    }
    shift_point_by_text(x, by)
}

/// [`shift_point`] exactly as jsonata-js spells it, for any `by`.
fn shift_point_by_text(x: f64, by: f64) -> f64 {
    let text = js_number_to_string(x);
    let (mantissa, exponent) = match text.split_once('e') {
        Some((m, e)) => (m, string_to_number(&units(e)) + by),
        None => (text.as_str(), by),
    };
    let shifted = format!("{mantissa}e{}", js_number_to_string(exponent));
    string_to_number(&units(&shifted))
}

/// JavaScript's `StringToNumber` (`+text`, `Number(text)`): white space trimmed, empty is 0,
/// decimal literals, `Infinity`, and unsigned `0x`/`0o`/`0b` integers; NaN otherwise.
pub(in crate::functions) fn string_to_number(text: &[u16]) -> f64 {
    let start = text.iter().position(|&u| !is_js_space(u)).unwrap_or(text.len());
    let end = text.iter().rposition(|&u| !is_js_space(u)).map_or(start, |i| i + 1);
    let Some(body) = text.get(start..end) else {
        return f64::NAN;
    };
    if body.is_empty() {
        return 0.0;
    }
    if body.iter().any(|&u| u >= 0x80) {
        return f64::NAN;
    }
    let body: Vec<u8> = body.iter().map(|&u| u as u8).collect();
    if let [b'0', prefix, digits @ ..] = body.as_slice() {
        let bits = match prefix {
            b'x' | b'X' => 4,
            b'o' | b'O' => 3,
            b'b' | b'B' => 1,
            _ => 0,
        };
        if bits > 0 {
            return power_of_two_radix(digits, bits).unwrap_or(f64::NAN);
        }
    }
    let (negative, unsigned) = match body.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, body.as_slice()),
    };
    let magnitude = if unsigned == b"Infinity" {
        f64::INFINITY
    } else if is_decimal_literal(unsigned) {
        std::str::from_utf8(unsigned)
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    } else {
        f64::NAN
    };
    if negative { -magnitude } else { magnitude }
}

/// Digits with an optional fraction (at least one digit in all) and an optional signed
/// exponent with at least one digit.
fn is_decimal_literal(bytes: &[u8]) -> bool {
    let digits = |from: usize| {
        bytes
            .get(from..)
            .map_or(0, |rest| rest.iter().take_while(|b| b.is_ascii_digit()).count())
    };
    let int_digits = digits(0);
    let mut i = int_digits;
    let mut frac_digits = 0;
    if bytes.get(i) == Some(&b'.') {
        frac_digits = digits(i + 1);
        i += 1 + frac_digits;
    }
    if int_digits + frac_digits == 0 {
        return false;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp_digits = digits(i);
        if exp_digits == 0 {
            return false;
        }
        i += exp_digits;
    }
    i == bytes.len()
}

/// The value of `digits` in radix `2^bits`, rounded half to even as V8 rounds such literals;
/// `None` if there are no digits or one is not of the radix.
fn power_of_two_radix(digits: &[u8], bits: u32) -> Option<f64> {
    if digits.is_empty() {
        return None;
    }
    let radix = 1u32 << bits;
    let mut mantissa: u128 = 0;
    let mut dropped: i32 = 0;
    let mut sticky = false;
    for &byte in digits {
        let digit = char::from(byte).to_digit(radix)?;
        if mantissa >> (127 - bits) == 0 {
            mantissa = (mantissa << bits) | u128::from(digit);
        } else {
            dropped = dropped.saturating_add(bits as i32);
            sticky |= digit != 0;
        }
    }
    Some(round_to_double(mantissa, dropped, sticky))
}

/// `mantissa × 2^scale` as a double, rounded half to even, where `sticky` says that nonzero
/// bits were dropped below `mantissa`.
fn round_to_double(mantissa: u128, scale: i32, sticky: bool) -> f64 {
    let width = 128 - mantissa.leading_zeros() as i32;
    let (top, scale) = if width <= 53 {
        (mantissa as u64, scale)
    } else {
        let shift = (width - 53) as u32;
        let mut top = (mantissa >> shift) as u64;
        let rest = mantissa & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        if rest > half || (rest == half && (sticky || top & 1 == 1)) {
            top += 1;
        }
        (top, scale.saturating_add(shift as i32))
    };
    // `top` has at most 54 bits, so the conversion is exact and only the scaling can round
    // (overflow to infinity).
    (top as f64) * 2f64.powi(scale.min(2000))
}

/// `parseInt(text)` with no radix: leading white space, a sign, `0x` for hexadecimal, then as
/// many digits as there are; NaN without any.
pub(in crate::functions) fn parse_int(text: &[u16]) -> f64 {
    let start = text.iter().position(|&u| !is_js_space(u)).unwrap_or(text.len());
    let mut rest = text.get(start..).unwrap_or(&[]);
    let mut negative = false;
    if let Some((&sign, tail)) = rest.split_first()
        && (sign == 0x2B || sign == 0x2D)
    {
        negative = sign == 0x2D;
        rest = tail;
    }
    let hex = matches!(rest, [0x30, 0x78 | 0x58, ..]);
    if hex {
        rest = &rest[2..];
    }
    let radix = if hex { 16 } else { 10 };
    let count = rest
        .iter()
        .take_while(|&&u| u < 0x80 && char::from(u as u8).is_digit(radix))
        .count();
    let digits: Vec<u8> = rest[..count].iter().map(|&u| u as u8).collect();
    let magnitude = if digits.is_empty() {
        f64::NAN
    } else if hex {
        power_of_two_radix(&digits, 4).unwrap_or(f64::NAN)
    } else {
        std::str::from_utf8(&digits)
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    };
    if negative { -magnitude } else { magnitude }
}

/// `x.toFixed(digits)` for `digits` in 0..=100: the integer nearest `x × 10^digits` (the
/// larger on a tie, from the exact binary value) with the point put back; from `1e21` up,
/// `String(x)`.
pub(in crate::functions) fn to_fixed(x: f64, digits: usize) -> String {
    // `String(x)` with no more decimals than asked, and few enough digits that the exact
    // binary value lies well inside half a unit of the last place asked for: it is the answer,
    // padded with zeros.
    if let Some(n) = scaled_integer(x, digits) {
        let mut text = String::with_capacity(digits + 18);
        if x < 0.0 {
            text.push('-');
        }
        let units = (n.abs() as u64).to_string();
        if digits > 0 {
            let whole = units.len().saturating_sub(digits);
            text.push_str(if whole == 0 { "0" } else { &units[..whole] });
            text.push('.');
            text.extend(std::iter::repeat_n('0', digits.saturating_sub(units.len())));
            text.push_str(&units[whole..]);
        } else {
            text.push_str(&units);
        }
        return text;
    }
    to_fixed_exact(x, digits)
}

/// The powers of ten a double holds exactly.
const EXACT_POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// The integer `n` for which `n / 10^places` reads back as `x`, when there is one below
/// 10^15: `x` is then a decimal of at most `places` places and fifteen digits in all, whose
/// exact binary value lies far inside half a unit of its last place (the 15-digit decimals are
/// spaced wider than a double's precision), so rounding it to `places` or writing it with them
/// gives that decimal.
fn scaled_integer(x: f64, places: usize) -> Option<f64> {
    let scale = *EXACT_POWERS_OF_TEN.get(places)?;
    if !x.is_finite() {
        return None;
    }
    let n = (x * scale).round();
    // Both operands are exact, so the division rounds the exact decimal once, as reading its
    // text would.
    (n.abs() < 1e15 && n / scale == x).then_some(n)
}

/// [`to_fixed`] from the exact binary value, for any arguments.
fn to_fixed_exact(x: f64, digits: usize) -> String {
    if !x.is_finite() || x.abs() >= 1e21 {
        return js_number_to_string(x);
    }
    let mut out = String::new();
    if x < 0.0 {
        out.push('-');
    }
    let bits = x.abs().to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    let (mantissa, exp2) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), biased - 1075)
    };
    let mut n = Big::from(mantissa);
    if exp2 >= 0 {
        n.shl(exp2 as u32);
        n.mul_pow10(digits);
    } else {
        n.mul_pow10(digits);
        let shift = exp2.unsigned_abs();
        let round_up = n.bit(shift - 1);
        n.shr(shift);
        if round_up {
            n.add_one();
        }
    }
    let mut text = n.to_decimal();
    if digits > 0 {
        if text.len() <= digits {
            text.insert_str(0, &"0".repeat(digits + 1 - text.len()));
        }
        text.insert(text.len() - digits, '.');
    }
    out.push_str(&text);
    out
}

/// `value.toString(radix)` for an integral `value` and a radix from 2 to 36 other than 10, as
/// V8 writes it: exact digits while the quotient needs at most 53 bits, zeros below that.
pub(in crate::functions) fn integer_to_radix(value: f64, radix: u32) -> String {
    /// The digits of every radix up to 36.
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    if !value.is_finite() {
        // `Infinity`, `-Infinity` and `NaN` read the same in every radix.
        return writ_core::js_number_to_string(value);
    }
    let base = f64::from(radix);
    let mut integer = value.abs();
    let mut digits: Vec<u8> = Vec::new();
    while integer / base >= 9_007_199_254_740_992.0 {
        integer /= base;
        digits.push(b'0');
    }
    loop {
        let remainder = integer % base;
        digits.push(DIGITS.get(remainder as usize).copied().unwrap_or(b'0'));
        integer = (integer - remainder) / base;
        if integer <= 0.0 || !integer.is_finite() {
            break;
        }
    }
    if value < 0.0 {
        digits.push(b'-');
    }
    digits.iter().rev().map(|&b| char::from(b)).collect()
}

/// An unsigned big integer in 32-bit limbs, least significant first: just what `toFixed`
/// needs (a double's mantissa times at most `2^971 × 10^100`).
#[derive(Clone, Debug)]
struct Big(Vec<u32>);

impl From<u64> for Big {
    /// `value` as a big integer.
    fn from(value: u64) -> Big {
        let mut big = Big(vec![value as u32, (value >> 32) as u32]);
        big.trim();
        big
    }
}

impl Big {
    /// Drops high zero limbs.
    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    /// `self *= factor`.
    fn mul_small(&mut self, factor: u32) {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let product = u64::from(*limb) * u64::from(factor) + carry;
            *limb = product as u32;
            carry = product >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    /// `self *= 10^power`.
    fn mul_pow10(&mut self, power: usize) {
        let mut left = power;
        while left > 0 {
            let step = left.min(9);
            self.mul_small(10u32.pow(step as u32));
            left -= step;
        }
    }

    /// `self += 1`.
    fn add_one(&mut self) {
        for limb in &mut self.0 {
            let (sum, overflow) = limb.overflowing_add(1);
            *limb = sum;
            if !overflow {
                return;
            }
        }
        self.0.push(1);
    }

    /// Whether bit `index` is set.
    fn bit(&self, index: u32) -> bool {
        self.0
            .get((index / 32) as usize)
            .is_some_and(|limb| limb >> (index % 32) & 1 == 1)
    }

    /// `self <<= bits`.
    fn shl(&mut self, bits: u32) {
        let part = bits % 32;
        if part > 0 {
            let mut carry = 0u32;
            for limb in &mut self.0 {
                let next = *limb >> (32 - part);
                *limb = (*limb << part) | carry;
                carry = next;
            }
            if carry > 0 {
                self.0.push(carry);
            }
        }
        let whole = (bits / 32) as usize;
        if whole > 0 && !self.0.is_empty() {
            self.0.splice(0..0, std::iter::repeat_n(0, whole));
        }
    }

    /// `self >>= bits`, dropping what is shifted out.
    fn shr(&mut self, bits: u32) {
        let whole = ((bits / 32) as usize).min(self.0.len());
        self.0.drain(..whole);
        let part = bits % 32;
        if part > 0 {
            let mut carry = 0u32;
            for limb in self.0.iter_mut().rev() {
                let next = *limb << (32 - part);
                *limb = (*limb >> part) | carry;
                carry = next;
            }
        }
        self.trim();
    }

    /// `self /= divisor`, returning the remainder.
    fn div_small(&mut self, divisor: u32) -> u32 {
        let mut remainder = 0u64;
        for limb in self.0.iter_mut().rev() {
            let current = (remainder << 32) | u64::from(*limb);
            *limb = (current / u64::from(divisor)) as u32;
            remainder = current % u64::from(divisor);
        }
        self.trim();
        remainder as u32
    }

    /// The value in decimal.
    fn to_decimal(&self) -> String {
        let mut rest = self.clone();
        let mut chunks = Vec::new();
        while !rest.0.is_empty() {
            chunks.push(rest.div_small(1_000_000_000));
        }
        let mut out = chunks.last().map_or_else(|| "0".to_owned(), u32::to_string);
        for chunk in chunks.iter().rev().skip(1) {
            out.push_str(&format!("{chunk:09}"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(text: &str) -> f64 {
        string_to_number(&units(text))
    }

    #[test]
    fn string_to_number_follows_the_literal_grammar() {
        assert_eq!(num(" 12 "), 12.0);
        assert_eq!(num(""), 0.0);
        assert_eq!(num("1."), 1.0);
        assert_eq!(num(".5"), 0.5);
        assert_eq!(num("-1e3"), -1000.0);
        assert_eq!(num("0x1F"), 31.0);
        assert_eq!(num("0B101"), 5.0);
        assert_eq!(num("0o17"), 15.0);
        assert_eq!(num("-Infinity"), f64::NEG_INFINITY);
        assert_eq!(num("1e400"), f64::INFINITY);
        assert_eq!(num("1e-400"), 0.0);
        assert!(num("4.49e1e+21").is_nan());
        for bad in ["x", "inf", "nan", "1e", "e5", ".", "-0x1", "0x", "1_0", "١"] {
            assert!(num(bad).is_nan(), "{bad}");
        }
        // 2^53 + 1 rounds to even; one more set bit further down rounds up.
        assert_eq!(num("0x20000000000001"), 9_007_199_254_740_992.0);
        assert_eq!(
            num("0x20000000000001000000001"),
            (9_007_199_254_740_994u64 as f64) * 2f64.powi(36)
        );
        assert_eq!(num("0x20000000000003"), 9_007_199_254_740_996.0);
    }

    #[test]
    fn parse_int_reads_a_prefix() {
        let p = |t: &str| parse_int(&units(t));
        assert_eq!(p("  12abc"), 12.0);
        assert_eq!(p("-0500"), -500.0);
        assert_eq!(p("+0530"), 530.0);
        assert_eq!(p("0x1A"), 26.0);
        assert_eq!(p("1e3"), 1.0);
        assert!(p("abc").is_nan());
        assert!(p("").is_nan());
        assert!(p("-").is_nan());
        assert!(p("-0").is_sign_negative());
    }

    #[test]
    fn to_fixed_rounds_the_exact_binary_value_half_up() {
        assert_eq!(to_fixed(0.5, 0), "1");
        assert_eq!(to_fixed(2.5, 0), "3");
        assert_eq!(to_fixed(1.25, 1), "1.3");
        // 1.005 is below 1.005 in binary.
        assert_eq!(to_fixed(1.005, 2), "1.00");
        assert_eq!(to_fixed(0.0, 2), "0.00");
        assert_eq!(to_fixed(123.456, 0), "123");
        assert_eq!(to_fixed(1e20, 2), "100000000000000000000.00");
        assert_eq!(to_fixed(1e21, 2), "1e+21");
        assert_eq!(to_fixed(5e-324, 3), "0.000");
        assert_eq!(to_fixed(-1.5, 0), "-2");
        assert_eq!(to_fixed(0.1, 30), "0.100000000000000005551115123126");
    }

    #[test]
    fn radix_strings_pad_past_53_bits() {
        assert_eq!(integer_to_radix(100.0, 2), "1100100");
        assert_eq!(integer_to_radix(-100.0, 2), "-1100100");
        assert_eq!(integer_to_radix(100.0, 36), "2s");
        assert_eq!(integer_to_radix(0.0, 16), "0");
        assert_eq!(
            integer_to_radix(2e21, 2),
            "11011000110101110010011010110111000101110111101010000000000000000000000"
        );
        let text = integer_to_radix(1e300, 36);
        assert!(text.starts_with("fhgyjdfcg7s000"), "{text}");
        assert_eq!(text.len(), 193);
    }

    #[test]
    fn shifting_the_point_reads_as_the_rewritten_text_does() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for i in 0..20_000u32 {
            // A spread of doubles: random bits, and decimals with few digits.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let value = if i % 2 == 0 {
                f64::from_bits(x)
            } else {
                (x % 1_000_000) as f64 / 10f64.powi((x >> 40) as i32 % 9) - 5_000.0
            };
            if !value.is_finite() {
                continue;
            }
            for by in [-330.0, -24.0, -3.0, -1.0, 0.0, 1.0, 2.0, 7.0, 20.0, 330.0] {
                let (fast, text) = (shift_point(value, by), shift_point_by_text(value, by));
                assert!(
                    fast.to_bits() == text.to_bits() || (fast.is_nan() && text.is_nan()),
                    "{value} by {by}"
                );
            }
        }
    }

    #[test]
    fn short_decimals_round_and_fix_as_the_exact_algorithms_do() {
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
            if !value.is_finite() {
                continue;
            }
            for places in [0usize, 1, 2, 3, 5, 9, 14] {
                let rounded = round_half_even(value, places as f64);
                let by_text = round_half_even_by_text(value, places as f64);
                assert!(
                    rounded.to_bits() == by_text.to_bits() || (rounded.is_nan() && by_text.is_nan()),
                    "{value} at {places}"
                );
                assert_eq!(
                    to_fixed(value, places),
                    to_fixed_exact(value, places),
                    "{value} to {places}"
                );
            }
        }
    }

    #[test]
    fn round_is_half_even_at_a_precision() {
        assert_eq!(round_half_even(2.5, 0.0), 2.0);
        assert_eq!(round_half_even(3.5, 0.0), 4.0);
        assert_eq!(round_half_even(-0.5, 0.0).to_bits(), 0f64.to_bits());
        assert_eq!(round_half_even(-7.5, 0.0), -8.0);
        assert_eq!(round_half_even(4.525, 2.0), 4.52);
        assert_eq!(round_half_even(4.515, 2.0), 4.52);
        assert_eq!(round_half_even(12450.0, -2.0), 12400.0);
        assert_eq!(round_half_even(6.022e-23, 24.0), 6e-23);
        assert!(round_half_even(1e300, 100.0).is_nan());
        assert!(round_half_even(4.49, 1.5).is_nan());
        assert_eq!(math_round(-0.3).to_bits(), (-0f64).to_bits());
        assert_eq!(math_round(0.49999999999999994), 0.0);
        assert_eq!(math_round(-2.5), -2.0);
    }
}
