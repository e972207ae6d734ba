//! Number methods: `toFixed`, `toExponential`, `toPrecision`, `toString(radix)`,
//! `toLocaleString` and `valueOf`, with JavaScript's (V8's) digits exactly.
//!
//! `toFixed`, `toExponential` and `toPrecision` round the double's exact binary value, not a
//! shorter decimal reading of it: `(1.005).toFixed(2)` is `"1.00"` because the double is a
//! little below 1.005. The exact value needs more than 64 bits (a subnormal times `10^100`), so
//! the file carries a small unsigned big integer, [`Big`], with just the operations the
//! rounding needs. `toString(radix)` follows the algorithm V8 uses for radixes other than 10,
//! which works in doubles and stops once the digits identify the double.

use std::cmp::Ordering;

use writ_core::{Str, Value, js_number_to_string};

use crate::coerce;
use crate::error::{Error, Result};
use crate::interp::{Args, Cx};
use crate::tables::NumberMethod;

/// Runs `this.method(args)`.
pub(crate) fn call(cx: &mut Cx<'_>, this: f64, method: NumberMethod, args: &Args<'_, '_>) -> Result<Value> {
    match method {
        NumberMethod::ToFixed => {
            let digits = integer_argument(cx, args.get(0))?;
            if !(0.0..=100.0).contains(&digits) {
                return Err(range_error(
                    "toFixed",
                    "digit count",
                    0,
                    100,
                    digits,
                    "price.toFixed(2)",
                ));
            }
            let text = if !this.is_finite() || this.abs() >= 1e21 {
                js_number_to_string(this)
            } else {
                to_fixed(this, digits as u32)
            };
            ascii_value(cx, &text)
        }
        NumberMethod::ToExponential => {
            let requested = args.get(0);
            let digits = integer_argument(cx, requested)?;
            if !this.is_finite() {
                return ascii_value(cx, &js_number_to_string(this));
            }
            if !(0.0..=100.0).contains(&digits) {
                return Err(range_error(
                    "toExponential",
                    "digit count",
                    0,
                    100,
                    digits,
                    "n.toExponential(3)",
                ));
            }
            let fraction_digits = if requested.is_undefined() {
                None
            } else {
                Some(digits as u32)
            };
            ascii_value(cx, &to_exponential(this, fraction_digits))
        }
        NumberMethod::ToPrecision => {
            let requested = args.get(0);
            if requested.is_undefined() {
                return ascii_value(cx, &js_number_to_string(this));
            }
            let precision = integer_argument(cx, requested)?;
            if !this.is_finite() {
                return ascii_value(cx, &js_number_to_string(this));
            }
            if !(1.0..=100.0).contains(&precision) {
                return Err(range_error(
                    "toPrecision",
                    "precision",
                    1,
                    100,
                    precision,
                    "n.toPrecision(3)",
                ));
            }
            ascii_value(cx, &to_precision(this, precision as u32))
        }
        NumberMethod::ToString => {
            let requested = args.get(0);
            let radix = if requested.is_undefined() {
                10.0
            } else {
                integer_argument(cx, requested)?
            };
            if !(2.0..=36.0).contains(&radix) {
                return Err(range_error("toString", "radix", 2, 36, radix, "n.toString(16)"));
            }
            if radix == 10.0 {
                let text = coerce::number_to_str(this);
                cx.string(text.len_utf16())?;
                return Ok(Value::String(text));
            }
            let text = if this.is_finite() {
                to_radix_string(this, radix as u32)
            } else {
                js_number_to_string(this)
            };
            ascii_value(cx, &text)
        }
        NumberMethod::ToLocaleString => {
            let text = crate::locale::number_to_locale_string(cx, this, args.get(0), args.get(1))?;
            Ok(Value::String(text))
        }
        NumberMethod::ValueOf => Ok(Value::Number(this)),
    }
}

/// `ToIntegerOrInfinity(ToNumber(value))`, charged for the text it reads.
fn integer_argument(cx: &mut Cx<'_>, value: &Value) -> Result<f64> {
    let number = coerce::to_number(cx, value)?;
    Ok(coerce::integer_or_infinity(number))
}

/// The RangeError JavaScript throws for an argument out of range, with an example to follow.
fn range_error(method: &str, what: &str, low: u32, high: u32, got: f64, example: &str) -> Error {
    Error::range_error(format!(
        "{method}() takes a {what} from {low} to {high}, not {}: write one in that range, as in {example}",
        js_number_to_string(got)
    ))
}

/// Charges the string and wraps ASCII text (every formatter here writes ASCII only).
fn ascii_value(cx: &mut Cx<'_>, text: &str) -> Result<Value> {
    cx.string(text.len())?;
    Ok(Value::String(Str::from(text)))
}

/// `Number.prototype.toFixed` for a finite `x` below `1e21` in magnitude: the integer `n`
/// nearest `x * 10^f` (the larger on a tie), written with `f` digits after the point.
fn to_fixed(x: f64, fraction_digits: u32) -> String {
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

/// `Number.prototype.toExponential` for a finite `x`: `None` asks for as many digits as it
/// takes to identify the double.
fn to_exponential(x: f64, fraction_digits: Option<u32>) -> String {
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

/// `Number.prototype.toPrecision` for a finite `x` and `precision` in 1..=100.
fn to_precision(x: f64, precision: u32) -> String {
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

/// `Number.prototype.toString(radix)` for a finite `value` and a radix other than 10, with
/// V8's digits.
///
/// V8 writes the integer part exactly while it fits in 53 bits and pads with zeros above that;
/// it writes fraction digits only while they still tell the double apart from its neighbours
/// (the gap to the next double, halved, scaled along with the fraction) and rounds the last
/// digit half to even, carrying into the digits already written and into the integer part.
fn to_radix_string(value: f64, radix: u32) -> String {
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

/// Checks against node's answers (tests/data, from tests/number-gen.js) and the corners by hand.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Program;
    use writ_core::{Limits, Meter};

    /// Runs the built-in under `limits`.
    fn run_with(limits: &Limits, this: f64, method: NumberMethod, args: &[Value]) -> Result<Value> {
        let program = Program::empty();
        let mut cx = Cx::new(Meter::new(limits), &program, &[]);
        let args = Args {
            values: args,
            callback: None,
            name: method.name(),
        };
        call(&mut cx, this, method, &args)
    }

    /// Runs the built-in with no limits.
    fn run(this: f64, method: NumberMethod, args: &[Value]) -> Result<Value> {
        run_with(&Limits::UNLIMITED, this, method, args)
    }

    /// The string a call answers (panics on anything else).
    fn text(this: f64, method: NumberMethod, args: &[Value]) -> String {
        match run(this, method, args) {
            Ok(Value::String(s)) => s.to_string_lossy().into_owned(),
            other => panic!("{this} {method:?} {args:?}: {other:?}"),
        }
    }

    /// A number value.
    fn n(x: f64) -> Value {
        Value::Number(x)
    }

    /// Every row of tests/data/number-format.json (generated by tests/number-gen.js from node).
    #[test]
    fn matches_node_on_generated_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/number-format.json");
        let data = std::fs::read_to_string(path).expect("test data");
        let rows = writ_core::parse_json(&data).expect("json");
        let rows = rows.as_array().expect("rows");
        let mut failures = Vec::new();
        for row in rows.iter() {
            let row = row.as_array().expect("row");
            let bits = u64::from_str_radix(&row[0].as_str().expect("bits").to_string_lossy(), 16).expect("hex");
            let x = f64::from_bits(bits);
            let method = NumberMethod::from_name(&row[1].as_str().expect("method").to_string_lossy()).expect("name");
            let args: Vec<Value> = match &row[2] {
                Value::Null => Vec::new(),
                other => vec![other.clone()],
            };
            let expected = row[3].as_str().expect("expected").to_string_lossy().into_owned();
            let got = text(x, method, &args);
            if got != expected {
                failures.push(format!(
                    "{x:e} ({bits:016x}).{}({args:?}): got {got}, node {expected}",
                    method.name()
                ));
            }
        }
        assert!(rows.len() > 10_000, "the table is there");
        assert!(
            failures.is_empty(),
            "{} failures:\n{}",
            failures.len(),
            failures[..failures.len().min(20)].join("\n")
        );
    }

    /// Rounds the exact binary value.
    #[test]
    fn rounds_the_exact_binary_value() {
        assert_eq!(text(1.005, NumberMethod::ToFixed, &[n(2.0)]), "1.00");
        assert_eq!(text(2.5, NumberMethod::ToFixed, &[n(0.0)]), "3");
        assert_eq!(text(-1.5, NumberMethod::ToFixed, &[n(0.0)]), "-2");
        assert_eq!(text(-0.0, NumberMethod::ToFixed, &[n(2.0)]), "0.00");
        assert_eq!(text(-0.0001, NumberMethod::ToFixed, &[n(2.0)]), "-0.00");
        assert_eq!(text(1e21, NumberMethod::ToFixed, &[n(2.0)]), "1e+21");
        assert_eq!(text(1.25, NumberMethod::ToExponential, &[n(1.0)]), "1.3e+0");
        assert_eq!(text(123.456, NumberMethod::ToExponential, &[]), "1.23456e+2");
        assert_eq!(text(0.0, NumberMethod::ToExponential, &[n(2.0)]), "0.00e+0");
        assert_eq!(text(-0.0, NumberMethod::ToPrecision, &[n(3.0)]), "0.00");
        assert_eq!(text(123456.0, NumberMethod::ToPrecision, &[n(2.0)]), "1.2e+5");
        assert_eq!(text(0.000001234, NumberMethod::ToPrecision, &[n(2.0)]), "0.0000012");
        assert_eq!(text(9.96, NumberMethod::ToPrecision, &[n(2.0)]), "10");
        assert_eq!(
            text(1.5, NumberMethod::ToFixed, &[Value::String(Str::from("2"))]),
            "1.50"
        );
    }

    /// Writes v8 radix digits.
    #[test]
    fn writes_v8_radix_digits() {
        assert_eq!(text(255.5, NumberMethod::ToString, &[n(16.0)]), "ff.8");
        assert_eq!(text(-255.5, NumberMethod::ToString, &[n(16.0)]), "-ff.8");
        assert_eq!(
            text(0.1, NumberMethod::ToString, &[n(3.0)]),
            "0.0022002200220022002200220022002201"
        );
        assert_eq!(text(-0.0, NumberMethod::ToString, &[n(2.0)]), "0");
        assert_eq!(
            text(9007199254740994.0, NumberMethod::ToString, &[n(7.0)]),
            "5350140446150306056"
        );
        assert_eq!(text(f64::NAN, NumberMethod::ToString, &[n(2.0)]), "NaN");
        assert_eq!(text(f64::NEG_INFINITY, NumberMethod::ToString, &[n(2.0)]), "-Infinity");
        assert_eq!(text(1.5, NumberMethod::ToString, &[n(10.9)]), "1.5");
        assert_eq!(text(1.5, NumberMethod::ToString, &[Value::Undefined]), "1.5");
        let tiny = text(5e-324, NumberMethod::ToString, &[n(2.0)]);
        assert_eq!(tiny.len(), 1076);
        assert!(tiny.starts_with("0.000") && tiny.ends_with("01"));
    }

    /// Range errors are runtime errors in javascripts order.
    #[test]
    fn range_errors_are_runtime_errors_in_javascripts_order() {
        let cases: &[(f64, NumberMethod, f64)] = &[
            (1.0, NumberMethod::ToFixed, 101.0),
            (f64::NAN, NumberMethod::ToFixed, 101.0),
            (1.0, NumberMethod::ToFixed, f64::INFINITY),
            (1.0, NumberMethod::ToExponential, -1.0),
            (1.0, NumberMethod::ToPrecision, 0.5),
            (1.0, NumberMethod::ToPrecision, 101.0),
            (1.0, NumberMethod::ToString, 1.0),
            (1.0, NumberMethod::ToString, 37.0),
            (f64::NAN, NumberMethod::ToString, 1.0),
        ];
        for &(x, method, arg) in cases {
            let error = run(x, method, &[n(arg)]).expect_err("RangeError");
            assert_eq!(error.reason(), crate::Reason::ExpressionRuntime, "{x} {method:?} {arg}");
            assert!(error.message().contains(method.name()), "{}", error.message());
        }
        // Non-finite receivers answer before the range check where JavaScript does.
        assert_eq!(text(f64::NAN, NumberMethod::ToExponential, &[n(101.0)]), "NaN");
        assert_eq!(text(f64::INFINITY, NumberMethod::ToPrecision, &[n(200.0)]), "Infinity");
        assert_eq!(text(1.0, NumberMethod::ToFixed, &[n(-0.5)]), "1");
    }

    /// Locale formatting goes to crate::locale with both arguments.
    #[test]
    fn to_locale_string_formats_through_the_locale_module() {
        let en = Value::String(Str::from("en-US"));
        assert_eq!(
            text(1234.5, NumberMethod::ToLocaleString, std::slice::from_ref(&en)),
            "1,234.5"
        );
        let de = Value::String(Str::from("de-DE"));
        assert_eq!(text(1234.5, NumberMethod::ToLocaleString, &[de]), "1.234,5");
        let options = Value::Object(writ_core::Object::from_entries(vec![(
            Str::from("maximumFractionDigits"),
            Value::Number(0.0),
        )]));
        assert_eq!(text(1234.5, NumberMethod::ToLocaleString, &[en, options]), "1,235");
    }

    /// Value of and budget.
    #[test]
    fn value_of_and_budget() {
        assert_eq!(run(2.5, NumberMethod::ValueOf, &[]), Ok(Value::Number(2.5)));
        let limits = Limits {
            max_string_length: Some(50),
            ..Limits::UNLIMITED
        };
        let error = run_with(&limits, 1e20, NumberMethod::ToFixed, &[n(100.0)]).expect_err("too long");
        assert_eq!(error.reason(), crate::Reason::BudgetExceeded);
        let error = run_with(&limits, 5e-324, NumberMethod::ToString, &[n(2.0)]).expect_err("too long");
        assert_eq!(error.reason(), crate::Reason::BudgetExceeded);
        assert!(run_with(&limits, 1e20, NumberMethod::ToFixed, &[n(2.0)]).is_ok());
    }

    /// Big integer arithmetic.
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
