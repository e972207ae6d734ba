//! JavaScript's number-to-string conversion (`Number.prototype.toString()` with radix 10).

use std::fmt::Write;

/// Appends `number` to `out` exactly as JavaScript's `String(number)` writes it.
///
/// The digits are the shortest that read back as the same double; the layout follows
/// ECMA-262 `Number::toString`: plain digits up to 1e21, exponent form from 1e21 and below
/// 1e-6, `-0` as `0`, and `NaN`, `Infinity`, `-Infinity` spelled out.
///
/// # Example
///
/// ```
/// let mut out = String::new();
/// writ_core::write_js_number(1e21, &mut out);
/// out.push(' ');
/// writ_core::write_js_number(0.000001, &mut out);
/// out.push(' ');
/// writ_core::write_js_number(1e-7, &mut out);
/// assert_eq!(out, "1e+21 0.000001 1e-7");
/// ```
pub fn write_js_number(number: f64, out: &mut String) {
    if number.is_nan() {
        out.push_str("NaN");
        return;
    }
    if number == 0.0 {
        out.push('0');
        return;
    }
    if number.is_infinite() {
        out.push_str(if number > 0.0 { "Infinity" } else { "-Infinity" });
        return;
    }
    // Integers below 2^53 are the common case and print as themselves.
    if number.fract() == 0.0 && number.abs() < 9_007_199_254_740_992.0 {
        let _ = write!(out, "{}", number as i64);
        return;
    }
    if number < 0.0 {
        out.push('-');
    }
    let mut digits = DigitBuffer::default();
    // `{:e}` writes the shortest round-trip digits as `d[.ddd]e<exp>`.
    let _ = write!(digits, "{:e}", number.abs());
    let (mantissa, exponent) = digits.split();
    let mut even = [0u8; 20];
    let mantissa = break_tie_to_even(mantissa, exponent, number.abs(), &mut even);
    let n_digits = mantissa.len() as i32;
    // JavaScript's n: the value is 0.d1d2... times 10^n.
    let n = exponent + 1;
    if n_digits <= n && n <= 21 {
        push_digits(out, mantissa);
        for _ in 0..(n - n_digits) {
            out.push('0');
        }
    } else if 0 < n && n <= 21 {
        let (int_part, frac_part) = mantissa.split_at(n as usize);
        push_digits(out, int_part);
        out.push('.');
        push_digits(out, frac_part);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        for _ in 0..(-n) {
            out.push('0');
        }
        push_digits(out, mantissa);
    } else {
        push_digits(out, &mantissa[..1]);
        if n_digits > 1 {
            out.push('.');
            push_digits(out, &mantissa[1..]);
        }
        out.push('e');
        out.push(if n > 0 { '+' } else { '-' });
        let _ = write!(out, "{}", (n - 1).abs());
    }
}

/// Returns `number` as JavaScript's `String(number)` writes it.
pub fn js_number_to_string(number: f64) -> String {
    let mut out = String::new();
    write_js_number(number, &mut out);
    out
}

/// Rust's shortest digits round a tie up; ECMA-262 takes the even one.
///
/// When the double lies exactly halfway between two shortest decimal forms (2^-25 is
/// 2.98023223876953125e-8, between ...5312 and ...5313), JavaScript writes the form whose last
/// digit is even. A tie means the exact decimal expansion is the lower form followed by a single
/// 5, so it needs an exact expansion of at most 18 significant digits; [`short_exact_digits`]
/// finds those cheaply. The even form must also read back as the same double (2^-24 is a decimal
/// tie whose even form does not), or the odd one stands.
fn break_tie_to_even<'a>(digits: &'a [u8], exponent: i32, number: f64, even: &'a mut [u8; 20]) -> &'a [u8] {
    let Some((&last, leading)) = digits.split_last() else {
        return digits;
    };
    if (last - b'0').is_multiple_of(2) || digits.len() >= even.len() {
        return digits;
    }
    let Some((exact_digits, exact_exponent)) = short_exact_digits(number) else {
        return digits;
    };
    let k = digits.len();
    let is_tie = exact_exponent == exponent
        && exact_digits.len() == k + 1
        && exact_digits[..k - 1] == *leading
        && exact_digits[k - 1] == last - 1
        && exact_digits[k] == b'5';
    if !is_tie {
        return digits;
    }
    even[..k].copy_from_slice(digits);
    even[k - 1] = last - 1;
    let candidate: String = even[..k].iter().map(|&digit| char::from(digit)).collect();
    if format!("0.{candidate}e{}", exponent + 1).parse::<f64>().ok() != Some(number) {
        return digits;
    }
    &even[..k]
}

/// The exact decimal expansion of a positive finite double, as significant digits and a
/// scientific exponent, when it has at most 18 significant digits; `None` when it has more.
fn short_exact_digits(number: f64) -> Option<(Vec<u8>, i32)> {
    const MAX_DIGITS: usize = 18;
    let bits = number.to_bits();
    let biased = ((bits >> 52) & 0x7FF) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    let (mut mantissa, mut power_of_two) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), biased - 1075)
    };
    if mantissa == 0 {
        return None;
    }
    let trailing = mantissa.trailing_zeros();
    mantissa >>= trailing;
    power_of_two += trailing as i32;
    // number = mantissa * 2^power_of_two, mantissa odd.
    let (integer, decimal_shift): (u128, i32) = if power_of_two < 0 {
        // mantissa * 5^k / 10^k: odd times a power of five has no trailing zeros, so 5^26
        // alone (19 digits) already makes the expansion too long.
        let k = -power_of_two;
        if k > 25 {
            return None;
        }
        (u128::from(mantissa) * 5u128.pow(k as u32), -k)
    } else if power_of_two + 53 < 127 {
        (u128::from(mantissa) << power_of_two, 0)
    } else {
        // Too large for u128; its decimal form ends in zeros only if 5 divides the mantissa.
        if mantissa % 5 != 0 {
            return None;
        }
        let exact = format!("{number:.800e}");
        let (digits, exponent) = exact.split_once('e')?;
        let mut digits: Vec<u8> = digits.bytes().filter(u8::is_ascii_digit).collect();
        while digits.len() > 1 && digits.last() == Some(&b'0') {
            digits.pop();
        }
        return (digits.len() <= MAX_DIGITS).then_some((digits, exponent.parse().ok()?));
    };
    let mut digits = integer.to_string().into_bytes();
    let n_integer_digits = digits.len() as i32;
    while digits.len() > 1 && digits.last() == Some(&b'0') {
        digits.pop();
    }
    if digits.len() > MAX_DIGITS {
        return None;
    }
    Some((digits, n_integer_digits - 1 + decimal_shift))
}

fn push_digits(out: &mut String, digits: &[u8]) {
    out.extend(digits.iter().map(|&digit| char::from(digit)));
}

/// A stack buffer for the `{:e}` form of a finite double: at most 17 digits, a point, `e`, a
/// sign and three exponent digits.
#[derive(Default)]
struct DigitBuffer {
    bytes: [u8; 32],
    len: usize,
}

impl Write for DigitBuffer {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        let end = self.len + text.len();
        if end > self.bytes.len() {
            return Err(std::fmt::Error);
        }
        self.bytes[self.len..end].copy_from_slice(text.as_bytes());
        self.len = end;
        Ok(())
    }
}

impl DigitBuffer {
    /// Splits `d.ddde±x` into its digits (point removed, in place) and its decimal exponent.
    fn split(&mut self) -> (&[u8], i32) {
        let written = &self.bytes[..self.len];
        let e_idx = written.iter().position(|&byte| byte == b'e').unwrap_or(written.len());
        let mut exponent: i32 = 0;
        let mut negative = false;
        for &byte in &written[(e_idx + 1).min(written.len())..] {
            match byte {
                b'-' => negative = true,
                b'0'..=b'9' => exponent = exponent * 10 + i32::from(byte - b'0'),
                _ => {}
            }
        }
        if negative {
            exponent = -exponent;
        }
        let mut n_digits = 0;
        for idx in 0..e_idx {
            let byte = self.bytes[idx];
            if byte.is_ascii_digit() {
                self.bytes[n_digits] = byte;
                n_digits += 1;
            }
        }
        (&self.bytes[..n_digits], exponent)
    }
}

#[cfg(test)]
mod tests {
    use super::js_number_to_string as show;

    #[test]
    fn matches_javascript_layout() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "0"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (1.0, "1"),
            (-42.0, "-42"),
            (100.0, "100"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1.5e21, "1.5e+21"),
            (123456789012345680000.0, "123456789012345680000"),
            (0.1 + 0.2, "0.30000000000000004"),
            (0.000001, "0.000001"),
            (1e-7, "1e-7"),
            (1.25e-7, "1.25e-7"),
            (-1.5, "-1.5"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (9007199254740992.0, "9007199254740992"),
            (9007199254740994.0, "9007199254740994"),
            (18014398509481984.0, "18014398509481984"),
            (1.2345678901234567e-5, "0.000012345678901234568"),
            (123.456, "123.456"),
            (2f64.powi(-25), "2.9802322387695312e-8"),
            (264_955_140_992_239.0 + 0.625, "264955140992239.62"),
            (264_955_140_992_239.0 + 0.375, "264955140992239.38"),
            (2f64.powi(-24), "5.960464477539063e-8"),
        ];
        for &(number, expected) in cases {
            assert_eq!(show(number), expected, "formatting {number:e}");
        }
    }
}
