//! The `Math` functions.
//!
//! Results equal V8's bit for bit. `sqrt`, `fround`, the roundings and the integer functions
//! are exact in IEEE arithmetic; the transcendental functions follow fdlibm, whose algorithms
//! V8 uses (and node 20 answers with), in `writ_core::math`, because the platform's libm rounds
//! differently in the last bit for some inputs. `hypot` is V8's normalised Kahan sum,
//! `f16round` rounds half to even onto binary16, and `sumPrecise` adds exactly, in integers of
//! 2^-1074, and rounds once.

use writ_core::Value;
use writ_core::math as fdlibm;

use crate::coerce::{self, describe};
use crate::error::{Error, Result};
use crate::interp::{Args, Cx};
use crate::tables::MathFn;

/// Runs `Math.function(args)`.
pub(crate) fn call(cx: &mut Cx<'_>, function: MathFn, args: &Args<'_, '_>) -> Result<Value> {
    use MathFn as M;
    let n = match function {
        M::Abs => arg(cx, args, 0)?.abs(),
        M::Ceil => arg(cx, args, 0)?.ceil(),
        M::Floor => arg(cx, args, 0)?.floor(),
        M::Round => round(arg(cx, args, 0)?),
        M::Trunc => arg(cx, args, 0)?.trunc(),
        M::Sign => sign(arg(cx, args, 0)?),
        M::Sqrt => arg(cx, args, 0)?.sqrt(),
        M::Cbrt => fdlibm::cbrt(arg(cx, args, 0)?),
        M::Pow => {
            let base = arg(cx, args, 0)?;
            pow(base, arg(cx, args, 1)?)
        }
        M::Min => min_max(cx, args, false)?,
        M::Max => min_max(cx, args, true)?,
        M::Hypot => {
            let mut values = Vec::with_capacity(args.len());
            for index in 0..args.len() {
                values.push(arg(cx, args, index)?);
            }
            hypot(&values)
        }
        M::Log => fdlibm::log(arg(cx, args, 0)?),
        M::Log2 => fdlibm::log2(arg(cx, args, 0)?),
        M::Log10 => fdlibm::log10(arg(cx, args, 0)?),
        M::Log1p => fdlibm::log1p(arg(cx, args, 0)?),
        M::Exp => fdlibm::exp(arg(cx, args, 0)?),
        M::Expm1 => fdlibm::expm1(arg(cx, args, 0)?),
        M::Sin => fdlibm::sin(arg(cx, args, 0)?),
        M::Cos => fdlibm::cos(arg(cx, args, 0)?),
        M::Tan => fdlibm::tan(arg(cx, args, 0)?),
        M::Asin => fdlibm::asin(arg(cx, args, 0)?),
        M::Acos => fdlibm::acos(arg(cx, args, 0)?),
        M::Atan => fdlibm::atan(arg(cx, args, 0)?),
        M::Atan2 => {
            let y = arg(cx, args, 0)?;
            fdlibm::atan2(y, arg(cx, args, 1)?)
        }
        M::Sinh => fdlibm::sinh(arg(cx, args, 0)?),
        M::Cosh => fdlibm::cosh(arg(cx, args, 0)?),
        M::Tanh => fdlibm::tanh(arg(cx, args, 0)?),
        M::Asinh => fdlibm::asinh(arg(cx, args, 0)?),
        M::Acosh => fdlibm::acosh(arg(cx, args, 0)?),
        M::Atanh => fdlibm::atanh(arg(cx, args, 0)?),
        M::Fround => f64::from(arg(cx, args, 0)? as f32),
        M::F16round => f16_round(arg(cx, args, 0)?),
        M::Clz32 => f64::from(coerce::to_uint32(arg(cx, args, 0)?).leading_zeros()),
        M::Imul => {
            let a = coerce::to_int32(arg(cx, args, 0)?);
            f64::from(a.wrapping_mul(coerce::to_int32(arg(cx, args, 1)?)))
        }
        M::SumPrecise => sum_precise(cx, args.get(0))?,
    };
    Ok(Value::Number(n))
}

/// Argument `index` as a number, charged for what the conversion reads.
fn arg(cx: &mut Cx<'_>, args: &Args<'_, '_>, index: usize) -> Result<f64> {
    coerce::to_number(cx, args.get(index))
}

/// `Math.round`: halves round toward +Infinity and the sign of zero is kept (V8's
/// `ceil(x)`, less one when that is more than half above `x`).
pub(crate) fn round(x: f64) -> f64 {
    let up = x.ceil();
    if up - 0.5 <= x { up } else { up - 1.0 }
}

/// `Math.sign`: NaN and both zeros are their own sign.
fn sign(x: f64) -> f64 {
    if x.is_nan() || x == 0.0 { x } else { x.signum() }
}

/// `Math.min` or `Math.max`: every argument converted, NaN wins, -0 is below +0.
fn min_max(cx: &mut Cx<'_>, args: &Args<'_, '_>, max: bool) -> Result<f64> {
    let mut result = if max { f64::NEG_INFINITY } else { f64::INFINITY };
    for index in 0..args.len() {
        let n = arg(cx, args, index)?;
        if n.is_nan() || result.is_nan() {
            result = f64::NAN;
        } else if n == result && n == 0.0 {
            // ±0 ties: max prefers +0, min prefers -0.
            if n.is_sign_negative() != max {
                result = n;
            }
        } else if (n > result) == max && n != result {
            result = n;
        }
    }
    Ok(result)
}

/// `x ** y` and `Math.pow(x, y)` as V8 computes them (fdlibm's `pow`): a NaN exponent gives
/// NaN, and so does `(±1) ** ±Infinity`.
pub(crate) fn pow(x: f64, y: f64) -> f64 {
    fdlibm::pow(x, y)
}

/// `Math.hypot` as V8 computes it: NaN unless an argument is infinite, else the square root of
/// a Kahan sum of the squares, each normalised by the largest magnitude.
fn hypot(values: &[f64]) -> f64 {
    let mut max = 0.0f64;
    let mut any_nan = false;
    for &value in values {
        if value.is_nan() {
            any_nan = true;
        } else if value.abs() > max {
            max = value.abs();
        }
    }
    if max == f64::INFINITY {
        return f64::INFINITY;
    }
    if any_nan {
        return f64::NAN;
    }
    if max == 0.0 {
        return 0.0;
    }
    let mut sum = 0.0f64;
    let mut compensation = 0.0f64;
    for &value in values {
        let n = value.abs() / max;
        let summand = n * n - compensation;
        let preliminary = sum + summand;
        compensation = (preliminary - sum) - summand;
        sum = preliminary;
    }
    sum.sqrt() * max
}

/// `Math.f16round`: the nearest binary16 value, ties to even, as a double; magnitudes from
/// 65520 up overflow to ±Infinity.
pub(crate) fn f16_round(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let magnitude = x.abs();
    if magnitude >= 65520.0 {
        return f64::INFINITY.copysign(x);
    }
    // The spacing of binary16 values around `magnitude`: 2^-24 below 2^-14 (subnormals),
    // else 2^(exponent - 10).
    let exponent = ((magnitude.to_bits() >> 52) & 0x7FF) as i32 - 1023;
    let quantum_exponent = if exponent < -14 { -24 } else { exponent - 10 };
    let quantum = f64::from_bits(((quantum_exponent + 1023) as u64) << 52);
    // Dividing and multiplying by a power of two is exact here.
    let rounded = (magnitude / quantum).round_ties_even() * quantum;
    rounded.copysign(x)
}

/// `Math.sumPrecise(items)`: the exact sum of an array of numbers, rounded once.
fn sum_precise(cx: &mut Cx<'_>, items: &Value) -> Result<f64> {
    let items: &[Value] = match items {
        Value::Array(items) => items.as_slice(),
        Value::String(text) if text.is_empty() => &[],
        Value::String(text) => {
            let first = text.slice(0, 1);
            return Err(Error::type_error(format!(
                "Math.sumPrecise adds numbers only, and \"{first}\" is a string: it takes an array of numbers, \
                 as in Math.sumPrecise(rows.map(r => r.amount))"
            )));
        }
        other => {
            return Err(Error::type_error(format!(
                "{} is not iterable: Math.sumPrecise takes an array of numbers, as in \
                 Math.sumPrecise(rows.map(r => r.amount))",
                describe(other)
            )));
        }
    };
    cx.steps(items.len() as u64)?;
    let mut sum = ExactSum::new();
    let (mut nan, mut positive_infinity, mut negative_infinity) = (false, false, false);
    let mut all_negative_zero = true;
    for item in items {
        let Value::Number(n) = item else {
            return Err(Error::type_error(format!(
                "Math.sumPrecise adds numbers only, and got {}: convert first, as in \
                 Math.sumPrecise(values.map(Number))",
                describe(item)
            )));
        };
        let n = *n;
        if n.is_nan() {
            nan = true;
        } else if n == f64::INFINITY {
            positive_infinity = true;
        } else if n == f64::NEG_INFINITY {
            negative_infinity = true;
        } else if n != 0.0 || n.is_sign_positive() {
            all_negative_zero = false;
            sum.add(n);
        }
    }
    Ok(if nan || (positive_infinity && negative_infinity) {
        f64::NAN
    } else if positive_infinity {
        f64::INFINITY
    } else if negative_infinity {
        f64::NEG_INFINITY
    } else if all_negative_zero {
        -0.0
    } else {
        sum.to_f64()
    })
}

/// 64-bit words of an [`ExactSum`]: 2304 bits hold any double in units of 2^-1074 (2098
/// bits) with room for 2^205 of them.
const SUM_WORDS: usize = 36;

/// An exact sum of doubles: a two's-complement integer counting units of 2^-1074, the
/// smallest subnormal, so every finite double is a whole number of them.
struct ExactSum {
    words: [u64; SUM_WORDS],
}

impl ExactSum {
    /// Zero.
    fn new() -> ExactSum {
        ExactSum { words: [0; SUM_WORDS] }
    }

    /// Adds a finite `x`.
    fn add(&mut self, x: f64) {
        let bits = x.to_bits();
        let biased = ((bits >> 52) & 0x7FF) as usize;
        let fraction = bits & ((1 << 52) - 1);
        // x = significand × 2^shift units.
        let (significand, shift) = if biased == 0 {
            (fraction, 0)
        } else {
            (fraction | (1 << 52), biased - 1)
        };
        let wide = u128::from(significand) << (shift % 64);
        let (low, high) = (wide as u64, (wide >> 64) as u64);
        let word = shift / 64;
        if x.is_sign_negative() {
            self.subtract_at(word, low, high);
        } else {
            self.add_at(word, low, high);
        }
    }

    /// Adds the 128-bit `high:low` at 64-bit word `word`, carrying up.
    fn add_at(&mut self, word: usize, low: u64, high: u64) {
        let mut carry = false;
        for (offset, addend) in [low, high].into_iter().enumerate() {
            if let Some(slot) = self.words.get_mut(word + offset) {
                let (sum, c1) = slot.overflowing_add(addend);
                let (sum, c2) = sum.overflowing_add(u64::from(carry));
                *slot = sum;
                carry = c1 || c2;
            }
        }
        for slot in self.words.iter_mut().skip(word + 2) {
            if !carry {
                break;
            }
            let (sum, c) = slot.overflowing_add(1);
            *slot = sum;
            carry = c;
        }
    }

    /// Subtracts the 128-bit `high:low` at 64-bit word `word`, borrowing up.
    fn subtract_at(&mut self, word: usize, low: u64, high: u64) {
        let mut borrow = false;
        for (offset, subtrahend) in [low, high].into_iter().enumerate() {
            if let Some(slot) = self.words.get_mut(word + offset) {
                let (difference, b1) = slot.overflowing_sub(subtrahend);
                let (difference, b2) = difference.overflowing_sub(u64::from(borrow));
                *slot = difference;
                borrow = b1 || b2;
            }
        }
        for slot in self.words.iter_mut().skip(word + 2) {
            if !borrow {
                break;
            }
            let (difference, b) = slot.overflowing_sub(1);
            *slot = difference;
            borrow = b;
        }
    }

    /// The sum rounded to the nearest double, ties to even; ±Infinity past the largest.
    fn to_f64(&self) -> f64 {
        let negative = self.words[SUM_WORDS - 1] >> 63 == 1;
        let mut magnitude = self.words;
        if negative {
            // Two's complement: invert and add one.
            let mut carry = true;
            for word in &mut magnitude {
                let (sum, c) = (!*word).overflowing_add(u64::from(carry));
                *word = sum;
                carry = c;
            }
        }
        let Some(top_word) = magnitude.iter().rposition(|&word| word != 0) else {
            return 0.0;
        };
        let top_bit = top_word * 64 + (63 - magnitude[top_word].leading_zeros() as usize);
        let bit = |index: usize| magnitude[index / 64] >> (index % 64) & 1 == 1;
        let result = if top_bit < 53 {
            // At most 53 bits: exact, and the bit pattern of a double below 2^-1021 is its
            // count of 2^-1074 units.
            f64::from_bits(magnitude[0])
        } else {
            let shift = top_bit - 52;
            let mut significand = 0u64;
            for index in (shift..=top_bit).rev() {
                significand = significand << 1 | u64::from(bit(index));
            }
            let round = bit(shift - 1);
            let sticky = (0..shift - 1).any(bit);
            let mut shift = shift;
            if round && (sticky || significand & 1 == 1) {
                significand += 1;
                if significand == 1 << 53 {
                    significand >>= 1;
                    shift += 1;
                }
            }
            let biased = shift as u64 + 1;
            if biased >= 0x7FF {
                f64::INFINITY
            } else {
                f64::from_bits(biased << 52 | (significand - (1 << 52)))
            }
        };
        if negative { -result } else { result }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(hex: &Value) -> f64 {
        let text = hex
            .as_str()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        f64::from_bits(u64::from_str_radix(&text, 16).unwrap_or(0))
    }

    fn same(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    /// Every transcendental function against node's answers in tests/data/math-*.json.
    #[test]
    fn transcendental_functions_match_node_bit_for_bit() {
        type Unary = (&'static str, fn(f64) -> f64);
        type Binary = (&'static str, fn(f64, f64) -> f64);
        let one: &[Unary] = &[
            ("sqrt", f64::sqrt),
            ("cbrt", fdlibm::cbrt),
            ("log", fdlibm::log),
            ("log2", fdlibm::log2),
            ("log10", fdlibm::log10),
            ("log1p", fdlibm::log1p),
            ("exp", fdlibm::exp),
            ("expm1", fdlibm::expm1),
            ("sin", fdlibm::sin),
            ("cos", fdlibm::cos),
            ("tan", fdlibm::tan),
            ("asin", fdlibm::asin),
            ("acos", fdlibm::acos),
            ("atan", fdlibm::atan),
            ("sinh", fdlibm::sinh),
            ("cosh", fdlibm::cosh),
            ("tanh", fdlibm::tanh),
            ("asinh", fdlibm::asinh),
            ("acosh", fdlibm::acosh),
            ("atanh", fdlibm::atanh),
            ("fround", |x| f64::from(x as f32)),
        ];
        let two: &[Binary] = &[("pow", pow), ("atan2", fdlibm::atan2), ("hypot", |x, y| hypot(&[x, y]))];
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
        let mut failures = Vec::new();
        let mut checked = 0;
        for (name, function) in one {
            let text = std::fs::read_to_string(dir.join(format!("math-{name}.json"))).unwrap_or_default();
            let data = writ_core::parse_json(&text).unwrap_or(Value::Null);
            let cases = data
                .as_object()
                .and_then(|o| o.get_str("cases"))
                .and_then(Value::as_array)
                .cloned();
            let cases = cases.unwrap_or_default();
            assert!(cases.len() >= 2000, "math-{name}.json has too few cases");
            let mut bad = 0;
            for case in cases.iter() {
                let case = case.as_array().cloned().unwrap_or_default();
                let (x, want) = (bits(&case[0]), bits(&case[1]));
                checked += 1;
                if !same(function(x), want) {
                    bad += 1;
                    if bad <= 3 {
                        failures.push(format!("{name}({x:e}) = {:e}, node says {want:e}", function(x)));
                    }
                }
            }
            if bad > 0 {
                failures.push(format!("{name}: {bad} of {} differ", cases.len()));
            }
        }
        for (name, function) in two {
            let text = std::fs::read_to_string(dir.join(format!("math-{name}.json"))).unwrap_or_default();
            let data = writ_core::parse_json(&text).unwrap_or(Value::Null);
            let cases = data
                .as_object()
                .and_then(|o| o.get_str("cases"))
                .and_then(Value::as_array)
                .cloned();
            let cases = cases.unwrap_or_default();
            assert!(cases.len() >= 2000, "math-{name}.json has too few cases");
            let mut bad = 0;
            for case in cases.iter() {
                let case = case.as_array().cloned().unwrap_or_default();
                let (x, y, want) = (bits(&case[0]), bits(&case[1]), bits(&case[2]));
                checked += 1;
                if !same(function(x, y), want) {
                    bad += 1;
                    if bad <= 3 {
                        failures.push(format!(
                            "{name}({x:e}, {y:e}) = {:e}, node says {want:e}",
                            function(x, y)
                        ));
                    }
                }
            }
            if bad > 0 {
                failures.push(format!("{name}: {bad} of {} differ", cases.len()));
            }
        }
        assert!(failures.is_empty(), "{checked} checked:\n{}", failures.join("\n"));
    }

    fn with_cx<T>(f: impl FnOnce(&mut Cx<'_>) -> T) -> T {
        let program = crate::ast::Program::empty();
        let limits = writ_core::Limits {
            steps: Some(10_000_000),
            ..writ_core::Limits::UNLIMITED
        };
        let mut cx = Cx::new(writ_core::Meter::new(&limits), &program, &[]);
        f(&mut cx)
    }

    fn run(function: MathFn, values: &[Value]) -> Result<Value> {
        with_cx(|cx| {
            call(
                cx,
                function,
                &Args {
                    values,
                    callback: None,
                    name: function.name(),
                },
            )
        })
    }

    fn number(function: MathFn, values: &[Value]) -> f64 {
        run(function, values)
            .ok()
            .and_then(|v| v.as_number())
            .unwrap_or(f64::from_bits(1))
    }

    fn cases(name: &str) -> Vec<Value> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/math-{name}.json"));
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let data = writ_core::parse_json(&text).unwrap_or(Value::Null);
        let cases = data
            .as_object()
            .and_then(|o| o.get_str("cases"))
            .and_then(Value::as_array)
            .cloned();
        cases.map(|c| c.as_slice().to_vec()).unwrap_or_default()
    }

    /// `f16round` against binary16 rounding done by Python's `struct` (node 20 has none).
    #[test]
    fn f16round_rounds_half_to_even_onto_binary16() {
        let cases = cases("f16round");
        assert!(cases.len() >= 2000);
        for case in &cases {
            let case = case.as_array().cloned().unwrap_or_default();
            let (x, want) = (bits(&case[0]), bits(&case[1]));
            assert!(
                same(f16_round(x), want),
                "f16round({x:e}) = {:e}, want {want:e}",
                f16_round(x)
            );
        }
        assert!(same(f16_round(-1e-10), -0.0));
        assert_eq!(f16_round(65519.99), 65504.0);
        assert_eq!(f16_round(65520.0), f64::INFINITY);
        assert_eq!(f16_round(1.337), 1.3369140625);
    }

    /// `sumPrecise` against exact sums of Fractions rounded once.
    #[test]
    fn sum_precise_is_exact() {
        let cases = cases("sumPrecise");
        assert!(cases.len() >= 1000);
        for case in &cases {
            let case = case.as_array().cloned().unwrap_or_default();
            let items: Vec<Value> = case[0]
                .as_array()
                .map(|a| a.iter().map(|h| Value::Number(bits(h))).collect())
                .unwrap_or_default();
            let want = bits(&case[1]);
            let got = number(MathFn::SumPrecise, &[Value::Array(items.clone().into())]);
            assert!(same(got, want), "sumPrecise({items:?}) = {got:e}, want {want:e}");
        }
    }

    #[test]
    fn sum_precise_refuses_what_is_not_an_array_of_numbers() {
        for bad in [
            vec![Value::Array(vec![Value::from(1.0), Value::from("2")].into())],
            vec![Value::Array(vec![Value::Number(f64::NAN), Value::Null].into())],
            vec![Value::from("12")],
            vec![Value::from(5.0)],
            vec![],
        ] {
            let error = run(MathFn::SumPrecise, &bad).unwrap_err();
            assert_eq!(error.reason(), crate::error::Reason::ExpressionRuntime, "{bad:?}");
        }
        assert!(same(number(MathFn::SumPrecise, &[Value::from("")]), -0.0));
    }

    #[test]
    fn roundings_keep_the_sign_of_zero() {
        let n = |f: MathFn, x: f64| number(f, &[Value::Number(x)]);
        assert!(same(n(MathFn::Round, -0.5), -0.0));
        assert!(same(n(MathFn::Round, -0.2), -0.0));
        assert!(same(n(MathFn::Round, 0.49999999999999994), 0.0));
        assert_eq!(n(MathFn::Round, 2.5), 3.0);
        assert_eq!(n(MathFn::Round, -2.5), -2.0);
        assert_eq!(n(MathFn::Round, 4503599627370495.5), 4503599627370496.0);
        assert!(same(n(MathFn::Round, -0.0), -0.0));
        assert!(same(n(MathFn::Ceil, -0.5), -0.0));
        assert!(same(n(MathFn::Trunc, -0.5), -0.0));
        assert!(same(n(MathFn::Floor, -0.0), -0.0));
        assert!(same(n(MathFn::Sign, -0.0), -0.0));
        assert_eq!(n(MathFn::Sign, -3.0), -1.0);
        assert!(n(MathFn::Sign, f64::NAN).is_nan());
        assert_eq!(n(MathFn::Abs, -3.5), 3.5);
    }

    #[test]
    fn min_and_max_follow_javascript() {
        let n = |f: MathFn, xs: &[f64]| number(f, &xs.iter().map(|&x| Value::Number(x)).collect::<Vec<_>>());
        assert_eq!(n(MathFn::Max, &[]), f64::NEG_INFINITY);
        assert_eq!(n(MathFn::Min, &[]), f64::INFINITY);
        assert!(same(n(MathFn::Max, &[-0.0, 0.0]), 0.0));
        assert!(same(n(MathFn::Max, &[0.0, -0.0]), 0.0));
        assert!(same(n(MathFn::Min, &[0.0, -0.0]), -0.0));
        assert!(same(n(MathFn::Min, &[-0.0, 0.0]), -0.0));
        assert!(n(MathFn::Max, &[1.0, f64::NAN, 3.0]).is_nan());
        assert_eq!(n(MathFn::Max, &[1.0, 7.0, 3.0]), 7.0);
        assert_eq!(n(MathFn::Min, &[1.0, -7.0, 3.0]), -7.0);
        // Arguments convert as numbers: strings, booleans, null, arrays.
        let mixed = [
            Value::from("12"),
            Value::Bool(true),
            Value::Null,
            Value::Array(vec![Value::from(40.0)].into()),
        ];
        assert_eq!(number(MathFn::Max, &mixed), 40.0);
        assert!(number(MathFn::Max, &[Value::from(1.0), Value::Undefined]).is_nan());
    }

    #[test]
    fn pow_and_hypot_special_cases() {
        let p = |x: f64, y: f64| number(MathFn::Pow, &[Value::Number(x), Value::Number(y)]);
        assert!(p(1.0, f64::NAN).is_nan());
        assert!(p(-1.0, f64::INFINITY).is_nan());
        assert!(p(1.0, f64::NEG_INFINITY).is_nan());
        assert_eq!(p(f64::NAN, 0.0), 1.0);
        assert_eq!(p(2.0, 10.0), 1024.0);
        assert!(same(p(-0.0, 3.0), -0.0));
        assert!(p(-8.0, 1.0 / 3.0).is_nan());
        // V8's pow is not correctly rounded, and node answers these.
        assert_eq!(p(10.0, -4.0), 0.00009999999999999999);
        assert_eq!(p(1e16, -2.0), 9.999999999999999e-33);
        assert_eq!(pow(2.0, -1074.0), 5e-324);
        let h = |xs: &[f64]| number(MathFn::Hypot, &xs.iter().map(|&x| Value::Number(x)).collect::<Vec<_>>());
        assert_eq!(h(&[]), 0.0);
        assert_eq!(h(&[3.0, 4.0]), 5.0);
        assert_eq!(h(&[f64::NAN, f64::NEG_INFINITY]), f64::INFINITY);
        assert!(h(&[f64::NAN, 1.0]).is_nan());
        assert!(same(h(&[-0.0]), 0.0));
        assert_eq!(h(&[1e200, 1e200]), 1.414213562373095e200);
    }

    #[test]
    fn integer_functions() {
        let n = |f: MathFn, xs: &[Value]| number(f, xs);
        assert_eq!(n(MathFn::Clz32, &[Value::from(1.0)]), 31.0);
        assert_eq!(n(MathFn::Clz32, &[Value::from(0.0)]), 32.0);
        assert_eq!(n(MathFn::Clz32, &[Value::from(-1.0)]), 0.0);
        assert_eq!(n(MathFn::Clz32, &[Value::from(4294967296.5)]), 32.0);
        assert_eq!(n(MathFn::Clz32, &[]), 32.0);
        assert_eq!(
            n(MathFn::Imul, &[Value::from(0xffffffff_u32 as f64), Value::from(5.0)]),
            -5.0
        );
        assert_eq!(n(MathFn::Imul, &[Value::from(3.7), Value::from(-4.2)]), -12.0);
        assert_eq!(n(MathFn::Imul, &[Value::from(1e10), Value::from(1e10)]), 1661992960.0);
        assert_eq!(n(MathFn::Fround, &[Value::from(5.5)]), 5.5);
        assert_eq!(n(MathFn::Fround, &[Value::from(5.05)]), 5.050000190734863);
        assert_eq!(n(MathFn::Fround, &[Value::from(1e40)]), f64::INFINITY);
    }

    #[test]
    fn conversions_are_charged_and_bad_text_is_nan() {
        assert!(number(MathFn::Sqrt, &[Value::from("abc")]).is_nan());
        assert_eq!(number(MathFn::Sqrt, &[Value::from(" 16 ")]), 4.0);
        assert!(number(MathFn::Abs, &[]).is_nan());
        let long = Value::from("1".repeat(1600));
        let used = with_cx(|cx| {
            let before = cx.meter.steps_used();
            call(
                cx,
                MathFn::Abs,
                &Args {
                    values: std::slice::from_ref(&long),
                    callback: None,
                    name: "abs",
                },
            )
            .ok();
            cx.meter.steps_used() - before
        });
        assert!(
            used >= 100,
            "reading 1600 characters costs at least 100 steps, cost {used}"
        );
    }
}
