//! JavaScript's number-to-string conversion (`Number.prototype.toString()` with radix 10).

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
    write_js_number_into(number, out);
}

/// Somewhere number text can go: a `String`, or the JSON writer's byte buffer.
pub(crate) trait AsciiSink {
    /// Appends ASCII bytes.
    fn push_ascii(&mut self, bytes: &[u8]);
}

impl AsciiSink for String {
    fn push_ascii(&mut self, bytes: &[u8]) {
        self.extend(bytes.iter().map(|&byte| char::from(byte)));
    }
}

impl AsciiSink for Vec<u8> {
    fn push_ascii(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// [`write_js_number`] into any [`AsciiSink`].
pub(crate) fn write_js_number_into(number: f64, out: &mut impl AsciiSink) {
    if number.is_nan() {
        out.push_ascii(b"NaN");
        return;
    }
    if number == 0.0 {
        out.push_ascii(b"0");
        return;
    }
    if number.is_infinite() {
        out.push_ascii(if number > 0.0 { b"Infinity" } else { b"-Infinity" });
        return;
    }
    if number < 0.0 {
        out.push_ascii(b"-");
    }
    let magnitude = number.abs();
    // Integers below 2^53 are the common case, and their digits are all JavaScript writes.
    if magnitude.fract() == 0.0 && magnitude < 9_007_199_254_740_992.0 {
        push_integer(out, magnitude as u64);
        return;
    }
    let mut buffer = ryu::Buffer::new();
    let mut digits = [0u8; 32];
    let (mantissa, n) = shortest_digits(buffer.format_finite(magnitude), &mut digits);
    let n_digits = mantissa.len() as i32;
    if n_digits <= n && n <= 21 {
        out.push_ascii(mantissa);
        for _ in 0..(n - n_digits) {
            out.push_ascii(b"0");
        }
    } else if 0 < n && n <= 21 {
        let (int_part, frac_part) = mantissa.split_at(n as usize);
        out.push_ascii(int_part);
        out.push_ascii(b".");
        out.push_ascii(frac_part);
    } else if -6 < n && n <= 0 {
        out.push_ascii(b"0.");
        for _ in 0..(-n) {
            out.push_ascii(b"0");
        }
        out.push_ascii(mantissa);
    } else {
        out.push_ascii(&mantissa[..1]);
        if n_digits > 1 {
            out.push_ascii(b".");
            out.push_ascii(&mantissa[1..]);
        }
        out.push_ascii(if n > 0 { b"e+" } else { b"e-" });
        push_integer(out, u64::from((n - 1).unsigned_abs()));
    }
}

fn push_integer(out: &mut impl AsciiSink, mut rest: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.push_ascii(&digits[at..]);
}

/// Returns `number` as JavaScript's `String(number)` writes it.
pub fn js_number_to_string(number: f64) -> String {
    let mut out = String::new();
    write_js_number(number, &mut out);
    out
}

/// Splits ryu's shortest form of a positive double (`0.3`, `100.0`, `1.5e-7`, `1e21`) into its
/// significant digits and JavaScript's exponent n, where the value is 0.d1d2… × 10^n.
///
/// ryu picks, among the shortest digit strings that read back as the same double, the one
/// closest to it, and on an exact tie the one ending in an even digit: the choice ECMA-262's
/// `Number::toString` prescribes (`2^-25` prints as `2.9802322387695312e-8`). Rust's own `{:e}`
/// rounds such ties up instead.
fn shortest_digits<'a>(text: &str, digits: &'a mut [u8; 32]) -> (&'a [u8], i32) {
    let (mantissa, exponent) = match text.split_once('e') {
        Some((mantissa, exponent)) => (mantissa, exponent.parse::<i32>().unwrap_or(0)),
        None => (text, 0),
    };
    let mut n_digits = 0;
    let mut n_integer_digits = 0;
    let mut seen_point = false;
    for byte in mantissa.bytes() {
        match byte {
            b'.' => seen_point = true,
            b'0'..=b'9' if n_digits < digits.len() => {
                digits[n_digits] = byte;
                n_digits += 1;
                if !seen_point {
                    n_integer_digits += 1;
                }
            }
            _ => {}
        }
    }
    let mut n = n_integer_digits + exponent;
    let leading_zeros = digits[..n_digits].iter().take_while(|&&digit| digit == b'0').count();
    n -= leading_zeros as i32;
    let significant = &digits[leading_zeros..n_digits];
    let trailing_zeros = significant.iter().rev().take_while(|&&digit| digit == b'0').count();
    (&digits[leading_zeros..n_digits - trailing_zeros], n)
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
