//! JavaScript's number conversions as jsonata-js leans on them: `String(n)`, `parseInt`,
//! `Math.round`, and JSONata's own `$round`, which shifts the decimal point by rewriting the
//! number's text. `+text`, `toFixed` and `toString(radix)` are `writ_core::js`'s.

use writ_core::{js, js_number_to_string};

use super::text::units;
use crate::error::{Code, Error};
use crate::eval::Cx;

/// The longest string V8 builds (`2^29 - 24` code units); past it JavaScript throws, and writ
/// stops here even when the evaluation's own string bound is off.
pub(in crate::functions) const MAX_STRING: usize = (1 << 29) - 24;

/// Charges building `len` code units of text: a step per unit, the string bound, and the hard
/// cap of [`MAX_STRING`].
pub(in crate::functions) fn reserve(cx: &mut Cx<'_>, len: usize) -> crate::error::Result<()> {
    if len > MAX_STRING {
        return Err(Error::new(Code::U1007)
            .with_value(MAX_STRING.to_string())
            .at(cx.position));
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
    Error::new(Code::D3137).with_detail(message).at(cx.position)
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
        Some((m, e)) => (m, js::utf16_to_number(&units(e)) + by),
        None => (text.as_str(), by),
    };
    let shifted = format!("{mantissa}e{}", js_number_to_string(exponent));
    js::utf16_to_number(&units(&shifted))
}

/// `parseInt(text)` with no radix: leading white space, a sign, `0x` for hexadecimal, then as
/// many digits as there are; NaN without any.
pub(in crate::functions) fn parse_int(text: &[u16]) -> f64 {
    js::parse_int(text.iter().copied(), 0)
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn short_decimals_round_as_the_exact_algorithm_does() {
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
