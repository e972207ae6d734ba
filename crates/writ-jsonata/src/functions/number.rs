//! Numeric built-ins: `$number`, `$abs`, `$floor`, `$ceil`, `$round`, `$power`, `$sqrt`,
//! `$random`, and the number pictures `$formatNumber`, `$formatBase`, `$formatInteger` and
//! `$parseInteger`. Every number written as text is written as jsonata-js writes it.

pub(super) use writ_core::math as fdlibm;
mod format_number;
pub(super) mod jsnum;
pub(super) mod picture;
pub(super) mod text;

use writ_core::{Str, js, js_number_to_string, write_json_string};

use super::Builtin;
use crate::error::{Code, Error, Result};
use crate::eval::Cx;
use crate::value::Val;

/// The numeric built-ins.
pub(super) const TABLE: &[Builtin] = &[
    Builtin {
        name: "number",
        signature: "<(nsb)-:n>",
        imp: number,
    },
    Builtin {
        name: "abs",
        signature: "<n-:n>",
        imp: abs,
    },
    Builtin {
        name: "floor",
        signature: "<n-:n>",
        imp: floor,
    },
    Builtin {
        name: "ceil",
        signature: "<n-:n>",
        imp: ceil,
    },
    Builtin {
        name: "round",
        signature: "<n-n?:n>",
        imp: round,
    },
    Builtin {
        name: "power",
        signature: "<n-n:n>",
        imp: power,
    },
    Builtin {
        name: "sqrt",
        signature: "<n-:n>",
        imp: sqrt,
    },
    Builtin {
        name: "random",
        signature: "<:n>",
        imp: random,
    },
    Builtin {
        name: "formatNumber",
        signature: "<n-so?:s>",
        imp: format_number,
    },
    Builtin {
        name: "formatBase",
        signature: "<n-n?:s>",
        imp: format_base,
    },
    Builtin {
        name: "formatInteger",
        signature: "<n-s:s>",
        imp: format_integer,
    },
    Builtin {
        name: "parseInteger",
        signature: "<s-s:n>",
        imp: parse_integer,
    },
];

/// Argument `i` as a number, `None` when absent or undefined.
fn number_arg(args: &[Val], i: usize) -> Option<f64> {
    args.get(i).and_then(Val::as_number)
}

/// Argument `i` as UTF-16 text, `None` when absent or undefined.
fn text_arg(args: &[Val], i: usize) -> Option<Vec<u16>> {
    args.get(i).and_then(Val::as_str).map(Str::to_utf16)
}

/// A required picture argument; jsonata-js fails with a `TypeError` on a missing one.
fn picture_arg(cx: &Cx<'_>, args: &[Val], i: usize) -> Result<Vec<u16>> {
    text_arg(args, i).ok_or_else(|| jsnum::native_error(cx, "the picture argument is missing"))
}

/// A number as an error's value (JSON).
fn number_value(n: f64) -> String {
    js_number_to_string(n)
}

/// Applies `f` to a number argument; undefined stays undefined.
fn unary(args: &[Val], f: impl FnOnce(f64) -> f64) -> Result<Val> {
    Ok(number_arg(args, 0).map_or(Val::Undefined, |n| Val::Number(f(n))))
}

/// `$number(arg)`: numbers as they are; strings in JSON's number grammar, or `0x`/`0o`/`0b`
/// integers; booleans as 1 and 0; D3030 for anything else.
fn number(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let arg = args.first().cloned().unwrap_or_default();
    Ok(Val::Number(match &arg {
        Val::Undefined => return Ok(Val::Undefined),
        Val::Number(n) => *n,
        Val::Bool(b) => f64::from(u8::from(*b)),
        Val::String(s) => {
            let units = s.to_utf16();
            cx.steps(units.len() as u64)?;
            let value = js::utf16_to_number(&units);
            if (is_json_number(&units) && value.is_finite()) || looks_radix_prefixed(&units) {
                value
            } else {
                let mut text = String::new();
                write_json_string(s, &mut text);
                return Err(Error::new(Code::D3030).with_value(text).with_index(1).at(cx.position));
            }
        }
        _ => return Err(Error::new(Code::D3030).with_index(1).at(cx.position)),
    }))
}

/// `-?[0-9]+(\.[0-9]+)?([Ee][-+]?[0-9]+)?`, the whole text.
fn is_json_number(text: &[u16]) -> bool {
    let digits = |from: usize| {
        text.get(from..)
            .map_or(0, |t| t.iter().take_while(|u| (0x30..=0x39).contains(*u)).count())
    };
    let mut i = usize::from(text.first() == Some(&0x2D));
    let int = digits(i);
    if int == 0 {
        return false;
    }
    i += int;
    if text.get(i) == Some(&0x2E) {
        let frac = digits(i + 1);
        if frac == 0 {
            return false;
        }
        i += 1 + frac;
    }
    if matches!(text.get(i), Some(0x45 | 0x65)) {
        i += 1;
        if matches!(text.get(i), Some(0x2B | 0x2D)) {
            i += 1;
        }
        let exp = digits(i);
        if exp == 0 {
            return false;
        }
        i += exp;
    }
    i == text.len()
}

/// jsonata-js's test for radix literals, whose alternatives are anchored loosely: it starts
/// with `0x` and a hex digit, or holds `0o` and an octal digit anywhere, or ends with `0b` and
/// binary digits. (What passes is then converted by `Number`, which may give NaN.)
fn looks_radix_prefixed(text: &[u16]) -> bool {
    let is = |u: Option<&u16>, f: fn(char) -> bool| u.and_then(|&u| char::from_u32(u32::from(u))).is_some_and(f);
    let starts_hex = matches!(text, [0x30, 0x78 | 0x58, ..]) && is(text.get(2), |c| c.is_ascii_hexdigit());
    let has_octal = text
        .windows(3)
        .any(|w| w[0] == 0x30 && matches!(w[1], 0x6F | 0x4F) && (0x30..=0x37).contains(&w[2]));
    let binary_digits = text.iter().rev().take_while(|&&u| u == 0x30 || u == 0x31).count();
    let ends_binary = binary_digits > 0
        && text.len() >= binary_digits + 2
        && matches!(text[text.len() - binary_digits - 1], 0x62 | 0x42)
        && text[text.len() - binary_digits - 2] == 0x30;
    starts_hex || has_octal || ends_binary
}

/// `$abs(n)`.
fn abs(_cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    unary(args, f64::abs)
}

/// `$floor(n)`.
fn floor(_cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    unary(args, f64::floor)
}

/// `$ceil(n)`.
fn ceil(_cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    unary(args, f64::ceil)
}

/// `$round(n, precision?)`: half to even.
fn round(_cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let precision = number_arg(args, 1).unwrap_or(0.0);
    unary(args, |n| jsnum::round_half_even(n, precision))
}

/// `$power(base, exponent)`: D3061 when the result is not a finite number.
fn power(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(base) = number_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    let exponent = number_arg(args, 1).unwrap_or(f64::NAN);
    let result = fdlibm::pow(base, exponent);
    if !result.is_finite() {
        return Err(Error::new(Code::D3061)
            .with_value(number_value(base))
            .with_value2(number_value(exponent))
            .with_index(1)
            .at(cx.position));
    }
    Ok(Val::Number(result))
}

/// `$sqrt(n)`: D3060 for a negative number.
fn sqrt(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    match number_arg(args, 0) {
        None => Ok(Val::Undefined),
        Some(n) if n < 0.0 => Err(Error::new(Code::D3060)
            .with_value(number_value(n))
            .with_index(1)
            .at(cx.position)),
        Some(n) => Ok(Val::Number(n.sqrt())),
    }
}

/// `$random()`: from the host.
fn random(cx: &mut Cx<'_>, _args: &[Val]) -> Result<Val> {
    Ok(Val::Number(cx.random()))
}

/// `$formatNumber(n, picture, options?)`.
fn format_number(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(value) = number_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    let picture = picture_arg(cx, args, 1)?;
    let options = args.get(2).cloned().unwrap_or_default();
    let text = format_number::format_number(cx, value, &picture, &options)?;
    Ok(Val::String(Str::from_utf16(&text)))
}

/// `$formatBase(n, radix?)`: both rounded half to even; D3100 unless the radix is 2 to 36.
fn format_base(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(value) = number_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    let value = jsnum::round_half_even(value, 0.0);
    let radix = number_arg(args, 1).map_or(10.0, |r| jsnum::round_half_even(r, 0.0));
    if !(2.0..=36.0).contains(&radix) {
        return Err(Error::new(Code::D3100).with_value(number_value(radix)).at(cx.position));
    }
    let text = js::to_radix_string(value, radix as u32);
    jsnum::reserve(cx, text.len())?;
    Ok(Val::String(Str::from(text.as_str())))
}

/// `$formatInteger(n, picture)`: `n` floored, then written per the integer picture.
fn format_integer(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(value) = number_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    let format = picture::analyse(cx, &picture_arg(cx, args, 1)?)?;
    let text = picture::format(cx, value.floor(), &format)?;
    Ok(Val::String(Str::from_utf16(&text)))
}

/// `$parseInteger(text, picture)`: the integer `text` writes in the picture's format (NaN for
/// text that does not fit it).
fn parse_integer(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(text) = text_arg(args, 0) else {
        return Ok(Val::Undefined);
    };
    let format = picture::analyse(cx, &picture_arg(cx, args, 1)?)?;
    Ok(Val::Number(picture::parse(cx, &text, &format)?))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use writ_core::Value;

    use super::*;
    use crate::{Expression, FixedHost, JsonataLimits, Options};

    /// Evaluates `source` with no input: the result as JSON, `undefined`, or the error's code.
    fn run_with(source: &str, limits: JsonataLimits) -> String {
        let options = Options {
            limits,
            host: Arc::new(FixedHost::new(0.0, 7)),
            ..Options::default()
        };
        match Expression::compile(source).and_then(|e| e.evaluate(&Value::Undefined, &options)) {
            Ok(Value::Undefined) => "undefined".to_owned(),
            Ok(value) => value.to_json_string().unwrap_or_default(),
            Err(error) => error.details().code.as_str().to_owned(),
        }
    }

    /// [`run_with`] under the default limits.
    fn run(source: &str) -> String {
        run_with(source, JsonataLimits::default())
    }

    #[test]
    fn casts_to_numbers() {
        assert_eq!(run(r#"$number("0x1F")"#), "31");
        assert_eq!(run(r#"$number("-1.5e2")"#), "-150");
        assert_eq!(run("$number(true)"), "1");
        assert_eq!(run(r#"$number("1e400")"#), "D3030");
        assert_eq!(run(r#"$number(" 1")"#), "D3030");
        assert_eq!(run("$number(nothing)"), "undefined");
        let Err(error) =
            Expression::compile(r#"$number("abc")"#).and_then(|e| e.evaluate(&Value::Undefined, &Options::default()))
        else {
            panic!("abc is not a number");
        };
        assert_eq!(error.details().value.as_deref(), Some(r#""abc""#));
    }

    #[test]
    fn arithmetic_like_javascript() {
        assert_eq!(run("$round(2.5)"), "2");
        assert_eq!(run("$round(-7.5)"), "-8");
        assert_eq!(run("$round(4.525, 2)"), "4.52");
        assert_eq!(run("$round(12350, -2)"), "12400");
        assert_eq!(run("$power(2, 10)"), "1024");
        assert_eq!(run("$power(-8, 1/3)"), "D3061");
        assert_eq!(run("$power(10, 400)"), "D3061");
        assert_eq!(run("$sqrt(-1)"), "D3060");
        assert_eq!(run("$sqrt(2)"), "1.4142135623730951");
        assert_eq!(run("[$floor(-3.5), $ceil(-3.5), $abs(-3.5)]"), "[-4,-3,3.5]");
        assert_eq!(run("$random() < 1"), "true");
    }

    #[test]
    fn formats_numbers_with_pictures() {
        assert_eq!(run(r##"$formatNumber(12345.6, "#,###.00")"##), r#""12,345.60""#);
        assert_eq!(run(r##"$formatNumber(1234.5678, "00.000e0")"##), r#""12.346e2""#);
        assert_eq!(
            run(r##"$formatNumber(-1234.5, "#,##0.0;(#,##0.0)")"##),
            r#""(1,234.5)""#
        );
        assert_eq!(run(r##"$formatNumber(0.125, "#.00")"##), r#"".12""#);
        assert_eq!(
            run(r##"$formatNumber(1234.5, "#.##0,00", {"decimal-separator": ",", "grouping-separator": "."})"##),
            r#""1.234,50""#
        );
        assert_eq!(
            run(r##"$formatNumber(1234, "#,##٠", {"zero-digit": "٠"})"##),
            r#""١,٢٣٤""#
        );
        // An ASCII 0 is not of that family: it is passive, a suffix.
        assert_eq!(
            run(r##"$formatNumber(1234, "#,##0", {"zero-digit": "٠"})"##),
            r#""١٢,٣٤0""#
        );
        assert_eq!(run(r##"$formatNumber(1e21, "#,###")"##), r#""1e,+21""#);
        assert_eq!(run(r##"$formatNumber(1, "#;#;#")"##), "D3080");
        assert_eq!(run(r##"$formatNumber(1, "#0.#0")"##), "D3091");
        assert_eq!(run(r##"$formatNumber(1, "0.0e0%")"##), "D3092");
        assert_eq!(run(r##"$formatNumber(1, "0." & $pad("", 101, "0"))"##), "D3137");
    }

    #[test]
    fn formats_integers_with_pictures() {
        assert_eq!(run("$formatBase(255, 16)"), r#""ff""#);
        assert_eq!(run("$formatBase(99.5, 2.5)"), r#""1100100""#);
        assert_eq!(run("$formatBase(1, 37)"), "D3100");
        // Found by fuzzing: an infinity once looped, writing zeros until memory ran out.
        assert_eq!(run("$formatBase(1/0, 2)"), r#""Infinity""#);
        assert_eq!(run("$formatBase(-1/0, 36)"), r#""-Infinity""#);
        assert_eq!(run("$formatBase(0/0, 16)"), r#""NaN""#);
        assert_eq!(run("$formatInteger(1234567, '#,##0')"), r#""1,234,567""#);
        assert_eq!(run("$formatInteger(12, '#:###,##0')"), r#"",:12""#);
        assert_eq!(run("$formatInteger(112, '0;o')"), r#""112th""#);
        assert_eq!(
            run("$formatInteger(3731, 'Ww;o')"),
            r#""Three Thousand, Seven Hundred and Thirty-First""#
        );
        assert_eq!(run("$formatInteger(1984, 'I')"), r#""MCMLXXXIV""#);
        assert_eq!(run("$formatInteger(28, 'A')"), r#""AB""#);
        assert_eq!(run("$formatInteger(12, '٠٠٠')"), r#""٠١٢""#);
        assert_eq!(run("$formatInteger(12, '#0٠')"), "D3131");
        assert_eq!(run("$formatInteger(12, '#')"), "D3130");
    }

    #[test]
    fn parses_integers_with_pictures() {
        assert_eq!(run("$parseInteger('1,234,567', '#,##0')"), "1234567");
        assert_eq!(run("$parseInteger('twenty-first', 'w;o')"), "21");
        assert_eq!(
            run("$parseInteger('one thousand, nine hundred and eighty-four', 'w')"),
            "1984"
        );
        assert_eq!(run("$parseInteger('xcix', 'i')"), "99");
        assert_eq!(run("$parseInteger('AB', 'A')"), "28");
        assert_eq!(run("$parseInteger('0x1A', '0')"), "26");
        assert_eq!(run("$parseInteger('12', '#')"), "D3130");
    }

    #[test]
    fn big_pictures_are_charged() {
        assert_eq!(run("$formatInteger(1e300, 'I')"), "U1007");
        assert_eq!(run("$formatInteger(1e11, 'I')"), "U1006");
        let few_steps = JsonataLimits {
            steps: Some(1000),
            ..JsonataLimits::default()
        };
        assert_eq!(run_with("$formatInteger(1, $pad('', 5000, '0'))", few_steps), "U1006");
        assert_eq!(run_with("$formatNumber(1, $pad('', 5000, '0'))", few_steps), "U1006");
        assert_eq!(run("$length($formatInteger(1, $pad('', 100000, '0')))"), "100000");
    }

    fn u(s: &str) -> Vec<u16> {
        text::units(s)
    }

    #[test]
    fn json_number_grammar() {
        for ok in ["0", "-0.05", "1e2", "1.0e-2", "000.00123000", "-007", "10e500"] {
            assert!(is_json_number(&u(ok)), "{ok}");
        }
        for bad in ["", "1.", ".5", "1e", "+1", "1/2", "1234 hello", "[1]", "0x12", " 1"] {
            assert!(!is_json_number(&u(bad)), "{bad}");
        }
    }

    #[test]
    fn radix_literal_test_is_loosely_anchored() {
        for ok in ["0x12", "0X1g", "0x12 ", "ab0o7", "xx0b1", "0B101", "0O12"] {
            assert!(looks_radix_prefixed(&u(ok)), "{ok}");
        }
        for bad in ["0x", " 0x12", "-0x12", "0b", "0b2", "12", "0o8"] {
            assert!(!looks_radix_prefixed(&u(bad)), "{bad}");
        }
    }
}
