//! `StringToNumber` and `parseInt`: numbers read out of text, rounded as V8 rounds them.

use super::text::is_space;
use crate::Str;

/// JavaScript's `StringToNumber` (`Number(text)`, `+text`, and `ToNumber` of a string): white
/// space and line terminators trimmed, empty text is 0, then a decimal literal with an
/// optional sign (`12`, `-1.5e3`, `.5`, `5.`), `Infinity` with an optional sign, or an unsigned
/// `0x`, `0o` or `0b` integer; anything else is NaN. Every form is correctly rounded, however
/// many digits it has (`0x1fffffffffffff1` is 144115188075855860, not ...870).
#[inline]
pub fn string_to_number(text: &Str) -> f64 {
    match text.ascii_bytes() {
        Some(bytes) => body_to_number(trim_ascii(bytes)),
        None => {
            let len = text.len_utf16();
            let unit = |idx: usize| text.code_unit(idx).unwrap_or(0);
            let start = (0..len).find(|&idx| !is_space(unit(idx))).unwrap_or(len);
            let end = (start..len)
                .rev()
                .find(|&idx| !is_space(unit(idx)))
                .map_or(start, |idx| idx + 1);
            wide_body_to_number((start..end).map(unit))
        }
    }
}

/// [`string_to_number`] of text held as UTF-16 code units.
#[inline]
pub fn utf16_to_number(units: &[u16]) -> f64 {
    let start = units.iter().position(|&unit| !is_space(unit)).unwrap_or(units.len());
    let end = units
        .iter()
        .rposition(|&unit| !is_space(unit))
        .map_or(start, |idx| idx + 1);
    wide_body_to_number(units[start..end].iter().copied())
}

/// `bytes` without the JavaScript white space at either end (in ASCII: tab, line feed,
/// vertical tab, form feed, carriage return and space).
fn trim_ascii(bytes: &[u8]) -> &[u8] {
    let is_space = |byte: &u8| matches!(byte, 0x09..=0x0D | 0x20);
    let start = bytes.iter().position(|byte| !is_space(byte)).unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|byte| !is_space(byte))
        .map_or(start, |idx| idx + 1);
    &bytes[start..end]
}

/// How long a trimmed body is read on the stack; longer ones (long decimals) are copied to the
/// heap once.
const STACK_BODY: usize = 64;

/// [`body_to_number`] of trimmed UTF-16 text: every valid form is ASCII.
fn wide_body_to_number(body: impl ExactSizeIterator<Item = u16>) -> f64 {
    let len = body.len();
    if len <= STACK_BODY {
        let mut bytes = [0u8; STACK_BODY];
        for (slot, unit) in bytes.iter_mut().zip(body) {
            if unit >= 0x80 {
                return f64::NAN;
            }
            *slot = unit as u8;
        }
        return body_to_number(&bytes[..len]);
    }
    let mut bytes = Vec::with_capacity(len);
    for unit in body {
        if unit >= 0x80 {
            return f64::NAN;
        }
        bytes.push(unit as u8);
    }
    body_to_number(&bytes)
}

/// `StringToNumber` of trimmed text.
fn body_to_number(body: &[u8]) -> f64 {
    if body.is_empty() {
        return 0.0;
    }
    if let [b'0', prefix, digits @ ..] = body {
        let bits = match prefix {
            b'x' | b'X' => 4,
            b'o' | b'O' => 3,
            b'b' | b'B' => 1,
            _ => 0,
        };
        if bits > 0 {
            let radix = 1 << bits;
            if digits.is_empty() || !digits.iter().all(|&byte| digit_value(byte).is_some_and(|d| d < radix)) {
                return f64::NAN;
            }
            return power_of_two_value(digits.iter().map(|&byte| digit_value(byte).unwrap_or(0)), bits);
        }
    }
    let (negative, unsigned) = match body {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, body),
    };
    let magnitude = if unsigned == b"Infinity" {
        f64::INFINITY
    } else if is_decimal_literal(unsigned) {
        // The grammar is checked, so Rust's reader (correctly rounded at any length) reads
        // exactly the literal; what it accepts beyond the grammar (`inf`, `nan`) never gets here.
        std::str::from_utf8(unsigned)
            .ok()
            .and_then(|text| text.parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    } else {
        f64::NAN
    };
    if negative { -magnitude } else { magnitude }
}

/// `StrUnsignedDecimalLiteral` without `Infinity`: digits with an optional fraction (or a
/// fraction alone, at least one digit in all) and an optional signed exponent with at least
/// one digit.
fn is_decimal_literal(bytes: &[u8]) -> bool {
    let digits = |from: usize| {
        bytes
            .get(from..)
            .map_or(0, |rest| rest.iter().take_while(|byte| byte.is_ascii_digit()).count())
    };
    let int_digits = digits(0);
    let mut at = int_digits;
    let mut frac_digits = 0;
    if bytes.get(at) == Some(&b'.') {
        frac_digits = digits(at + 1);
        at += 1 + frac_digits;
    }
    if int_digits + frac_digits == 0 {
        return false;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        let exp_digits = digits(at);
        if exp_digits == 0 {
            return false;
        }
        at += exp_digits;
    }
    at == bytes.len()
}

/// The value of an ASCII letter or digit as a digit of radix 36 (`0`-`9`, then `a`-`z` in
/// either case).
#[inline]
fn digit_value(byte: u8) -> Option<u32> {
    match byte {
        b'0'..=b'9' => Some(u32::from(byte - b'0')),
        b'a'..=b'z' => Some(u32::from(byte - b'a') + 10),
        b'A'..=b'Z' => Some(u32::from(byte - b'A') + 10),
        _ => None,
    }
}

/// JavaScript's `parseInt(text, radix)` once `text` is a string (given as its code units) and
/// `radix` is `ToInt32` of the radix argument: white space skipped, a sign, a `0x` prefix when
/// the radix is 0 or 16, then as many digits of the radix as there are; NaN without one, or
/// for a radix outside 2..=36 other than 0 (which means 10).
///
/// The value is V8's, which the specification leaves partly to the engine: radix 10 and the
/// power-of-two radixes are correctly rounded, and the other radixes accumulate in doubles, a
/// 32-bit chunk at a time, exactly as V8 does, so large values round the same way.
pub fn parse_int(text: impl IntoIterator<Item = u16>, radix: i32) -> f64 {
    let mut units = text.into_iter().skip_while(|&unit| is_space(unit)).peekable();
    let negative = units.peek() == Some(&u16::from(b'-'));
    if negative || units.peek() == Some(&u16::from(b'+')) {
        units.next();
    }
    let (mut radix, strip_prefix) = match radix {
        0 => (10, true),
        16 => (16, true),
        2..=36 => (radix.unsigned_abs(), false),
        _ => return f64::NAN,
    };
    let mut digits: Vec<u8> = Vec::new();
    if strip_prefix && units.peek() == Some(&u16::from(b'0')) {
        units.next();
        match units.peek() {
            Some(0x58 | 0x78) => {
                units.next();
                radix = 16;
            }
            _ => digits.push(0),
        }
    }
    let ascii_digit = |unit: u16| u8::try_from(unit).ok().and_then(digit_value).filter(|&d| d < radix);
    digits.extend(units.map_while(ascii_digit).map(|digit| digit as u8));
    if digits.is_empty() {
        return f64::NAN;
    }
    let significant = digits
        .iter()
        .position(|&digit| digit != 0)
        .map_or(&[][..], |start| &digits[start..]);
    let magnitude = integer_value(significant, radix);
    if negative { -magnitude } else { magnitude }
}

/// The value of `digits` (digit values, no leading zeros) in `radix`, as V8 computes it.
fn integer_value(digits: &[u8], radix: u32) -> f64 {
    if digits.is_empty() {
        return 0.0;
    }
    match radix {
        2 | 4 | 8 | 16 | 32 => power_of_two_value(digits.iter().map(|&digit| u32::from(digit)), radix.trailing_zeros()),
        10 => {
            // More than 309 significant digits is at least 1e309, past the largest double.
            if digits.len() > 309 {
                return f64::INFINITY;
            }
            let text: String = digits.iter().map(|&digit| char::from(b'0' + digit)).collect();
            text.parse::<f64>().unwrap_or(f64::NAN)
        }
        _ => chunked_value(digits, radix),
    }
}

/// Digits (their values) in radix `2^bits_per_digit`, correctly rounded, halves to even.
fn power_of_two_value(mut digits: impl Iterator<Item = u32>, bits_per_digit: u32) -> f64 {
    let mut mantissa: u64 = 0;
    // Leading zeros keep the mantissa at zero; once it has room for no more digit of up to 5
    // bits below 2^63, the rest only count as a scale and a sticky bit.
    let mut rest_len: u64 = 0;
    let mut sticky = false;
    for digit in digits.by_ref() {
        if mantissa < (1u64 << 58) {
            mantissa = (mantissa << bits_per_digit) | u64::from(digit);
        } else {
            rest_len += 1;
            sticky |= digit != 0;
        }
    }
    let mut exponent = rest_len.saturating_mul(u64::from(bits_per_digit));
    let width = 64 - mantissa.leading_zeros();
    if width > 53 {
        let shift = width - 53;
        let dropped = mantissa & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        mantissa >>= shift;
        exponent += u64::from(shift);
        if dropped > half || (dropped == half && (sticky || mantissa & 1 == 1)) {
            mantissa += 1;
        }
    }
    scale_by_power_of_two(mantissa, exponent)
}

/// `mantissa × 2^exponent` for a mantissa of at most 2^53: exact, or Infinity past the range.
fn scale_by_power_of_two(mantissa: u64, exponent: u64) -> f64 {
    if exponent > 1023 {
        return if mantissa == 0 { 0.0 } else { f64::INFINITY };
    }
    // 2^exponent is a normal double for exponent in 0..=1023.
    mantissa as f64 * f64::from_bits((exponent + 1023) << 52)
}

/// V8's value for the radixes that are neither 10 nor a power of two: digits are gathered into
/// 32-bit parts whose multiplier stays below `u32::MAX / 36`, and each part is folded into a
/// double accumulator, `result * multiplier + part`, rounding at every fold.
fn chunked_value(digits: &[u8], radix: u32) -> f64 {
    const MAX_MULTIPLIER: u32 = u32::MAX / 36;
    let mut result = 0.0f64;
    let mut idx = 0;
    while idx < digits.len() {
        let mut part: u32 = 0;
        let mut multiplier: u32 = 1;
        while let Some(&digit) = digits.get(idx) {
            let next = multiplier.saturating_mul(radix);
            if next > MAX_MULTIPLIER {
                break;
            }
            part = part * radix + u32::from(digit);
            multiplier = next;
            idx += 1;
        }
        result = result * f64::from(multiplier) + f64::from(part);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_reads_the_same_from_ascii_wide_and_utf16_text() {
        for text in [
            " 12 ",
            "",
            "1.",
            ".5",
            "-1e3",
            "0x1F",
            "0B101",
            "0o17",
            "-Infinity",
            "1e400",
            "x",
            "0x",
            "-0x1",
            "1_0",
            "0x1fffffffffffff1",
            "\u{a0}7\u{2028}",
            "\u{feff}",
            "\u{180e}1",
        ] {
            let units: Vec<u16> = text.encode_utf16().collect();
            let wide = Str::from_utf16(&[&units[..], &[0x3000]].concat());
            let expected = string_to_number(&Str::from(text));
            for got in [utf16_to_number(&units), string_to_number(&wide)] {
                assert!(
                    got.to_bits() == expected.to_bits() || (got.is_nan() && expected.is_nan()),
                    "{text:?}: {got} vs {expected}"
                );
            }
        }
        let long = format!("  0.{}1  ", "0".repeat(100));
        let units: Vec<u16> = long.encode_utf16().chain([0x2029]).collect();
        assert_eq!(utf16_to_number(&units), 1e-101);
    }
}
