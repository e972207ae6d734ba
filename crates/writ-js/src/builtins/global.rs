//! The callable globals (`Number`, `String`, `Boolean`, `parseInt`, `parseFloat`, `isNaN`,
//! `isFinite`, `encodeURIComponent`, `decodeURIComponent`) and the `Number` statics.
//!
//! `parseInt` gives V8's numbers (`writ_core::js::parse_int`).

use writ_core::{Str, Value, js};

use crate::coerce;
use crate::error::{Error, Result};
use crate::interp::{Args, Cx};
use crate::tables::{Global, NumberFn};

/// Runs the callable global `function(args)`.
pub(crate) fn call(cx: &mut Cx<'_>, function: Global, args: &Args<'_, '_>) -> Result<Value> {
    match function {
        Global::Number => {
            let number = if args.len() == 0 {
                0.0
            } else {
                coerce::to_number(cx, args.get(0))?
            };
            Ok(Value::Number(number))
        }
        Global::String => {
            if args.len() == 0 {
                return Ok(Value::String(Str::empty()));
            }
            let value = args.get(0);
            let text = coerce::to_string(cx, value)?;
            // A string comes back as it is and an array's join charged itself; the rest are
            // short texts written here.
            if !matches!(value, Value::String(_) | Value::Array(_)) {
                cx.string(text.len_utf16())?;
            }
            Ok(Value::String(text))
        }
        Global::Boolean => Ok(Value::Bool(args.get(0).is_truthy())),
        Global::ParseInt => Ok(Value::Number(parse_int(cx, args.get(0), args.get(1))?)),
        Global::ParseFloat => Ok(Value::Number(parse_float(cx, args.get(0))?)),
        Global::IsNaN => Ok(Value::Bool(coerce::to_number(cx, args.get(0))?.is_nan())),
        Global::IsFinite => Ok(Value::Bool(coerce::to_number(cx, args.get(0))?.is_finite())),
        Global::EncodeUriComponent => encode_uri_component(cx, args.get(0)),
        Global::DecodeUriComponent => decode_uri_component(cx, args.get(0)),
        // JavaScript throws a TypeError for these: they are not functions.
        Global::Math | Global::Json | Global::Undefined | Global::NaN | Global::Infinity => {
            Err(Error::type_error(format!(
                "\"{}\" is not a function: call one of its members instead, as in Math.max(a, b)",
                function.name()
            )))
        }
        // JavaScript would run these (Date() gives a string, Object() and Array() build values).
        Global::Object | Global::Array | Global::Date => Err(Error::guardrail(format!(
            "\"{}\" cannot be called: write a literal ({{}} or []) or call one of its functions, as in {}.{}(…)",
            function.name(),
            function.name(),
            match function {
                Global::Object => "keys",
                Global::Array => "from",
                _ => "parse",
            }
        ))),
    }
}

/// Runs `Number.function(args)`.
pub(crate) fn call_number(cx: &mut Cx<'_>, function: NumberFn, args: &Args<'_, '_>) -> Result<Value> {
    // The predicates do not convert: anything but a number answers false.
    let number = args.get(0).as_number();
    Ok(match function {
        NumberFn::IsInteger => Value::Bool(number.is_some_and(is_integral)),
        NumberFn::IsFinite => Value::Bool(number.is_some_and(f64::is_finite)),
        NumberFn::IsNaN => Value::Bool(number.is_some_and(f64::is_nan)),
        NumberFn::IsSafeInteger => {
            Value::Bool(number.is_some_and(|n| is_integral(n) && n.abs() <= 9_007_199_254_740_991.0))
        }
        NumberFn::ParseInt => Value::Number(parse_int(cx, args.get(0), args.get(1))?),
        NumberFn::ParseFloat => Value::Number(parse_float(cx, args.get(0))?),
    })
}

/// Whether `n` is a finite number with no fraction.
fn is_integral(n: f64) -> bool {
    n.is_finite() && n.trunc() == n
}

/// The text argument of `parseInt`, `parseFloat` and the URI functions, charged for reading.
fn text_argument(cx: &mut Cx<'_>, value: &Value) -> Result<Str> {
    let text = coerce::to_string(cx, value)?;
    cx.text(text.len_utf16())?;
    Ok(text)
}

/// `parseInt(text, radix)`.
fn parse_int(cx: &mut Cx<'_>, text: &Value, radix: &Value) -> Result<f64> {
    let text = text_argument(cx, text)?;
    let radix = coerce::to_int32(coerce::to_number(cx, radix)?);
    Ok(js::parse_int(text.code_units(), radix))
}

/// `parseFloat(text)`: the longest prefix of the trimmed text that is a decimal literal.
fn parse_float(cx: &mut Cx<'_>, text: &Value) -> Result<f64> {
    let text = text_argument(cx, text)?;
    let units = text.code_units().skip_while(|&u| js::is_space(u));
    // Only ASCII can belong to the literal; collect up to the first other unit.
    let prefix: Vec<u8> = units.take_while(|&u| u < 0x80).map(|u| u as u8).collect();
    Ok(decimal_prefix_value(&prefix))
}

/// The value of the longest `StrDecimalLiteral` at the start of `bytes`, or NaN.
fn decimal_prefix_value(bytes: &[u8]) -> f64 {
    let mut at = 0;
    let negative = match bytes.first() {
        Some(b'-') => {
            at = 1;
            true
        }
        Some(b'+') => {
            at = 1;
            false
        }
        _ => false,
    };
    let signed = |magnitude: f64| if negative { -magnitude } else { magnitude };
    if bytes[at..].starts_with(b"Infinity") {
        return signed(f64::INFINITY);
    }
    let count_digits = |from: usize| {
        bytes
            .get(from..)
            .map_or(0, |tail| tail.iter().take_while(|b| b.is_ascii_digit()).count())
    };
    let start = at;
    let integer_digits = count_digits(at);
    at += integer_digits;
    let mut fraction_digits = 0;
    if bytes.get(at) == Some(&b'.') {
        fraction_digits = count_digits(at + 1);
        if integer_digits + fraction_digits > 0 {
            at += 1 + fraction_digits;
        }
    }
    if integer_digits + fraction_digits == 0 {
        return f64::NAN;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(bytes.get(at + 1), Some(b'+' | b'-')));
        let exponent_digits = count_digits(at + 1 + sign);
        if exponent_digits > 0 {
            at += 1 + sign + exponent_digits;
        }
    }
    // The slice is ASCII digits with an optional point and exponent: Rust's parser reads that
    // grammar, correctly rounded, whatever its length.
    let literal = std::str::from_utf8(&bytes[start..at]).unwrap_or("");
    signed(literal.parse::<f64>().unwrap_or(f64::NAN))
}

/// Whether `encodeURIComponent` leaves `unit` as it is: `A–Z a–z 0–9 - _ . ! ~ * ' ( )`.
fn is_unreserved(unit: u16) -> bool {
    matches!(unit, 0x30..=0x39 | 0x41..=0x5A | 0x61..=0x7A | 0x2D | 0x5F | 0x2E | 0x21 | 0x7E | 0x2A | 0x27 | 0x28 | 0x29)
}

/// `encodeURIComponent(text)`: UTF-8 bytes as `%XX`, the unreserved set as it is; a lone
/// surrogate is a URIError.
fn encode_uri_component(cx: &mut Cx<'_>, value: &Value) -> Result<Value> {
    let text = text_argument(cx, value)?;
    let units: Vec<u16> = text.code_units().collect();
    // Size the result first (it can be up to three times as long), then charge, then build.
    let mut length = 0usize;
    let mut index = 0;
    while let Some(&unit) = units.get(index) {
        let (code_point, width) = code_point_at(&units, index).ok_or_else(|| lone_surrogate(unit, index))?;
        length = length.saturating_add(if is_unreserved(unit) {
            1
        } else {
            3 * utf8_len(code_point)
        });
        index += width;
    }
    cx.string(length)?;
    let mut out: Vec<u8> = Vec::with_capacity(length);
    let mut index = 0;
    while let Some(&unit) = units.get(index) {
        let (code_point, width) = code_point_at(&units, index).ok_or_else(|| lone_surrogate(unit, index))?;
        if is_unreserved(unit) {
            out.push(unit as u8);
        } else {
            let mut buffer = [0u8; 4];
            let encoded = char::from_u32(code_point)
                .unwrap_or('\u{FFFD}')
                .encode_utf8(&mut buffer);
            for &byte in encoded.as_bytes() {
                out.push(b'%');
                out.push(HEX_UPPER[usize::from(byte >> 4)]);
                out.push(HEX_UPPER[usize::from(byte & 0xF)]);
            }
        }
        index += width;
    }
    Ok(Value::String(Str::from_ascii(&out).unwrap_or_default()))
}

/// Upper-case hexadecimal digits, as `encodeURIComponent` writes them.
const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// The code point starting at `index` and how many units it takes, or `None` for a lone
/// surrogate.
fn code_point_at(units: &[u16], index: usize) -> Option<(u32, usize)> {
    let unit = *units.get(index)?;
    match unit {
        0xD800..=0xDBFF => match units.get(index + 1) {
            Some(&low @ 0xDC00..=0xDFFF) => Some((
                0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00),
                2,
            )),
            _ => None,
        },
        0xDC00..=0xDFFF => None,
        _ => Some((u32::from(unit), 1)),
    }
}

/// How many bytes UTF-8 takes for `code_point`.
fn utf8_len(code_point: u32) -> usize {
    match code_point {
        0..=0x7F => 1,
        0x80..=0x7FF => 2,
        0x800..=0xFFFF => 3,
        _ => 4,
    }
}

/// The URIError for a lone surrogate at `index`.
fn lone_surrogate(unit: u16, index: usize) -> Error {
    Error::uri_error(format!(
        "encodeURIComponent() cannot encode the lone surrogate \\u{unit:04X} at index {index} (URIError: URI malformed): \
         the text is not well-formed; repair it first, as in encodeURIComponent(text.toWellFormed())"
    ))
}

/// `decodeURIComponent(text)`: every `%XX` escape decoded, reserved characters included; a
/// malformed escape or invalid UTF-8 is a URIError.
fn decode_uri_component(cx: &mut Cx<'_>, value: &Value) -> Result<Value> {
    let text = text_argument(cx, value)?;
    let units: Vec<u16> = text.code_units().collect();
    // A first pass checks the escapes and sizes the result, so that it is charged before it
    // is built.
    let length = decode(&units, None)?;
    cx.string(length)?;
    let mut out: Vec<u16> = Vec::with_capacity(length);
    decode(&units, Some(&mut out))?;
    Ok(Value::String(Str::from_utf16(&out)))
}

/// Decodes `units`, appending to `out` when given; returns the length of the result.
fn decode(units: &[u16], mut out: Option<&mut Vec<u16>>) -> Result<usize> {
    let mut length = 0usize;
    let mut index = 0;
    while let Some(&unit) = units.get(index) {
        if unit != u16::from(b'%') {
            if let Some(out) = out.as_deref_mut() {
                out.push(unit);
            }
            length += 1;
            index += 1;
            continue;
        }
        let start = index;
        let lead = escaped_byte(units, index).ok_or_else(|| malformed(units, start))?;
        index += 3;
        let (count, initial) = match lead {
            0x00..=0x7F => (1, u32::from(lead)),
            0xC0..=0xDF => (2, u32::from(lead & 0x1F)),
            0xE0..=0xEF => (3, u32::from(lead & 0x0F)),
            0xF0..=0xF7 => (4, u32::from(lead & 0x07)),
            _ => return Err(malformed(units, start)),
        };
        let mut code_point = initial;
        for _ in 1..count {
            let byte = escaped_byte(units, index).ok_or_else(|| malformed(units, start))?;
            if byte & 0xC0 != 0x80 {
                return Err(malformed(units, start));
            }
            code_point = (code_point << 6) | u32::from(byte & 0x3F);
            index += 3;
        }
        let shortest = match count {
            1 => 0,
            2 => 0x80,
            3 => 0x800,
            _ => 0x10000,
        };
        if code_point < shortest || (0xD800..=0xDFFF).contains(&code_point) || code_point > 0x10FFFF {
            return Err(malformed(units, start));
        }
        if code_point >= 0x10000 {
            let offset = code_point - 0x10000;
            if let Some(out) = out.as_deref_mut() {
                out.push(0xD800 + (offset >> 10) as u16);
                out.push(0xDC00 + (offset & 0x3FF) as u16);
            }
            length += 2;
        } else {
            if let Some(out) = out.as_deref_mut() {
                out.push(code_point as u16);
            }
            length += 1;
        }
    }
    Ok(length)
}

/// The byte `%XX` at `index` spells, if it is one.
fn escaped_byte(units: &[u16], index: usize) -> Option<u8> {
    if units.get(index) != Some(&u16::from(b'%')) {
        return None;
    }
    let high = hex_value(*units.get(index + 1)?)?;
    let low = hex_value(*units.get(index + 2)?)?;
    Some((high << 4) | low)
}

/// The value of a hexadecimal digit.
fn hex_value(unit: u16) -> Option<u8> {
    match unit {
        0x30..=0x39 => Some((unit - 0x30) as u8),
        0x41..=0x46 => Some((unit - 0x41) as u8 + 10),
        0x61..=0x66 => Some((unit - 0x61) as u8 + 10),
        _ => None,
    }
}

/// The URIError for the escape sequence starting at `start`.
fn malformed(units: &[u16], start: usize) -> Error {
    let end = units.len().min(start + 12);
    let shown = String::from_utf16_lossy(units.get(start..end).unwrap_or_default());
    Error::uri_error(format!(
        "decodeURIComponent() found a malformed escape at index {start} (\"{shown}\"; URIError: URI malformed): \
         each % must start %XX escapes that spell UTF-8 — write %25 for a literal %"
    ))
}

/// Checks against node's answers (tests/data, from tests/number-gen.js) and the corners by hand.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Program;
    use writ_core::{Limits, Meter};

    /// Runs the built-in under `limits`.
    fn run_with(limits: &Limits, function: Global, args: &[Value]) -> Result<Value> {
        let program = Program::empty();
        let mut cx = Cx::new(Meter::new(limits), &program, &[]);
        let args = Args {
            values: args,
            callback: None,
            name: function.name(),
        };
        call(&mut cx, function, &args)
    }

    /// Runs the built-in with no limits.
    fn run(function: Global, args: &[Value]) -> Result<Value> {
        run_with(&Limits::UNLIMITED, function, args)
    }

    /// Runs a `Number` static with no limits.
    fn run_number(function: NumberFn, args: &[Value]) -> Result<Value> {
        let program = Program::empty();
        let mut cx = Cx::new(Meter::new(&Limits::UNLIMITED), &program, &[]);
        let args = Args {
            values: args,
            callback: None,
            name: function.name(),
        };
        call_number(&mut cx, function, &args)
    }

    /// A string value.
    fn s(text: &str) -> Value {
        Value::String(Str::from(text))
    }

    /// The number a call answers (panics on anything else).
    fn number(result: Result<Value>) -> f64 {
        match result {
            Ok(Value::Number(n)) => n,
            other => panic!("not a number: {other:?}"),
        }
    }

    /// The string a call answers (panics on anything else).
    fn text(result: Result<Value>) -> String {
        match result {
            Ok(Value::String(t)) => t.to_string_lossy().into_owned(),
            other => panic!("not a string: {other:?}"),
        }
    }

    /// Runs each row of a tests/data/parse-*.json table (from tests/number-gen.js, node's
    /// answers) through `function`, comparing bit patterns.
    fn check_table(file: &str, function: Global) {
        let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
        let data = std::fs::read_to_string(path).expect("test data");
        let rows = writ_core::parse_json(&data).expect("json");
        let rows = rows.as_array().expect("rows");
        let mut failures = Vec::new();
        for row in rows.iter() {
            let row = row.as_array().expect("row");
            let input = row[0].clone();
            let mut args = vec![input.clone()];
            if !row[1].as_str().is_some_and(|r| r.eq_str("none")) {
                args.push(row[1].clone());
            }
            let expected = u64::from_str_radix(&row[2].as_str().expect("bits").to_string_lossy(), 16).expect("hex");
            let got = number(run(function, &args));
            let same = got.to_bits() == expected || (got.is_nan() && f64::from_bits(expected).is_nan());
            if !same {
                failures.push(format!(
                    "{}({:?}): got {got:e}, node {:e}",
                    function.name(),
                    &args,
                    f64::from_bits(expected)
                ));
            }
        }
        assert!(rows.len() > 3000, "the table is there");
        assert!(
            failures.is_empty(),
            "{} failures:\n{}",
            failures.len(),
            failures[..failures.len().min(20)].join("\n")
        );
    }

    /// Parse int matches node on generated table.
    #[test]
    fn parse_int_matches_node_on_generated_table() {
        check_table("parse-int.json", Global::ParseInt);
    }

    /// Parse float matches node on generated table.
    #[test]
    fn parse_float_matches_node_on_generated_table() {
        check_table("parse-float.json", Global::ParseFloat);
    }

    /// Parse int corners.
    #[test]
    fn parse_int_corners() {
        assert!(number(run(Global::ParseInt, &[s("-0")])).is_sign_negative());
        assert_eq!(number(run(Global::ParseInt, &[s("0x1f")])), 31.0);
        assert_eq!(number(run(Global::ParseInt, &[s("0x1f"), Value::Number(15.0)])), 0.0);
        assert!(number(run(Global::ParseInt, &[s("0x")])).is_nan());
        assert!(number(run(Global::ParseInt, &[s("12"), Value::Number(37.0)])).is_nan());
        assert_eq!(number(run(Global::ParseInt, &[s("  -42px")])), -42.0);
        assert_eq!(
            number(run(Global::ParseInt, &[Value::Array(vec![s("7"), s("8")].into())])),
            7.0
        );
        assert_eq!(number(run(Global::ParseInt, &[s(&"1".repeat(500))])), f64::INFINITY);
        assert_eq!(
            number(run_number(NumberFn::ParseInt, &[s("ff"), Value::Number(16.0)])),
            255.0
        );
    }

    /// Parse float corners.
    #[test]
    fn parse_float_corners() {
        assert!(number(run(Global::ParseFloat, &[s("-0")])).is_sign_negative());
        assert_eq!(number(run(Global::ParseFloat, &[s("1.e5")])), 1e5);
        assert_eq!(number(run(Global::ParseFloat, &[s("-.5e-1x")])), -0.05);
        assert_eq!(
            number(run(Global::ParseFloat, &[s("1e99999999999999999999")])),
            f64::INFINITY
        );
        assert_eq!(number(run(Global::ParseFloat, &[s("0e99999999999999999999")])), 0.0);
        assert_eq!(number(run(Global::ParseFloat, &[s("-Infinityx")])), f64::NEG_INFINITY);
        assert!(number(run(Global::ParseFloat, &[s(".e5")])).is_nan());
        assert_eq!(number(run_number(NumberFn::ParseFloat, &[s("3.25rem")])), 3.25);
    }

    /// Conversions.
    #[test]
    fn conversions() {
        assert_eq!(number(run(Global::Number, &[])), 0.0);
        assert_eq!(number(run(Global::Number, &[s(" 0x10 ")])), 16.0);
        assert!(number(run(Global::Number, &[Value::Undefined])).is_nan());
        assert_eq!(text(run(Global::String, &[])), "");
        assert_eq!(text(run(Global::String, &[Value::Number(-0.0)])), "0");
        assert_eq!(text(run(Global::String, &[Value::Null])), "null");
        assert_eq!(
            text(run(
                Global::String,
                &[Value::Array(vec![Value::Number(1.0), Value::Null].into())]
            )),
            "1,"
        );
        assert_eq!(run(Global::Boolean, &[]), Ok(Value::Bool(false)));
        assert_eq!(run(Global::Boolean, &[Value::Number(f64::NAN)]), Ok(Value::Bool(false)));
        assert_eq!(run(Global::Boolean, &[s("0")]), Ok(Value::Bool(true)));
        assert_eq!(run(Global::IsNaN, &[s("abc")]), Ok(Value::Bool(true)));
        assert_eq!(run(Global::IsNaN, &[s("12")]), Ok(Value::Bool(false)));
        assert_eq!(run(Global::IsFinite, &[s("12")]), Ok(Value::Bool(true)));
        assert_eq!(run(Global::IsFinite, &[Value::Null]), Ok(Value::Bool(true)));
        // Unreachable from source (the parser refuses `Math()`), but still the TypeError
        // JavaScript throws.
        assert_eq!(
            run(Global::Math, &[]).map_err(|e| (e.reason(), e.thrown())),
            Err((crate::Reason::ExpressionRuntime, Some(crate::Thrown::TypeError)))
        );
        assert_eq!(
            run(Global::Date, &[]).map_err(|e| e.reason()),
            Err(crate::Reason::GuardrailViolation)
        );
    }

    /// Number predicates do not convert.
    #[test]
    fn number_predicates_do_not_convert() {
        let cases: &[(NumberFn, Value, bool)] = &[
            (NumberFn::IsInteger, Value::Number(5.0), true),
            (NumberFn::IsInteger, Value::Number(5.5), false),
            (NumberFn::IsInteger, Value::Number(f64::INFINITY), false),
            (NumberFn::IsInteger, s("5"), false),
            (NumberFn::IsInteger, Value::Number(1e300), true),
            (NumberFn::IsFinite, s("5"), false),
            (NumberFn::IsFinite, Value::Number(5.0), true),
            (NumberFn::IsNaN, s("abc"), false),
            (NumberFn::IsNaN, Value::Number(f64::NAN), true),
            (NumberFn::IsSafeInteger, Value::Number(9007199254740991.0), true),
            (NumberFn::IsSafeInteger, Value::Number(9007199254740992.0), false),
            (NumberFn::IsSafeInteger, Value::Number(-9007199254740991.0), true),
            (NumberFn::IsSafeInteger, Value::Bool(true), false),
        ];
        for (function, value, expected) in cases {
            assert_eq!(
                run_number(*function, std::slice::from_ref(value)),
                Ok(Value::Bool(*expected)),
                "{function:?} {value:?}"
            );
        }
        assert_eq!(run_number(NumberFn::IsNaN, &[]), Ok(Value::Bool(false)));
    }

    /// Uri components.
    #[test]
    fn uri_components() {
        let encoded = text(run(Global::EncodeUriComponent, &[s("a b&c=d/é€😀-_.!~*'()")]));
        assert_eq!(encoded, "a%20b%26c%3Dd%2F%C3%A9%E2%82%AC%F0%9F%98%80-_.!~*'()");
        let decoded = text(run(Global::DecodeUriComponent, &[s(&encoded)]));
        assert_eq!(decoded, "a b&c=d/é€😀-_.!~*'()");
        assert_eq!(text(run(Global::DecodeUriComponent, &[s("%2f%3B%23")])), "/;#");
        assert_eq!(text(run(Global::EncodeUriComponent, &[Value::Number(1.5)])), "1.5");
        let lone = Value::String(Str::from_utf16(&[0x61, 0xD800, 0x62]));
        let error = run(Global::EncodeUriComponent, &[lone]).expect_err("URIError");
        assert_eq!(error.reason(), crate::Reason::ExpressionRuntime);
        assert_eq!(error.thrown(), Some(crate::Thrown::UriError));
        let lone_low = Value::String(Str::from_utf16(&[0xDC00]));
        assert!(run(Global::EncodeUriComponent, &[lone_low]).is_err());
        // A lone surrogate passes through decoding untouched, as in JavaScript.
        let kept = Value::String(Str::from_utf16(&[0xD800, 0x25, 0x34, 0x31]));
        assert_eq!(
            run(Global::DecodeUriComponent, &[kept]),
            Ok(Value::String(Str::from_utf16(&[0xD800, 0x41])))
        );
        for bad in [
            "%",
            "%4",
            "%G1",
            "%C3",
            "%C3%28",
            "%80",
            "%C0%AF",
            "%ED%A0%80",
            "%F4%90%80%80",
            "%F8%80%80%80%80",
            "%E2%82",
        ] {
            let error = run(Global::DecodeUriComponent, &[s(bad)]).expect_err(bad);
            assert_eq!(error.reason(), crate::Reason::ExpressionRuntime, "{bad}");
            assert_eq!(error.thrown(), Some(crate::Thrown::UriError), "{bad}");
        }
    }

    /// Encoding is charged before it is built.
    #[test]
    fn encoding_is_charged_before_it_is_built() {
        let limits = Limits {
            max_string_length: Some(20),
            ..Limits::UNLIMITED
        };
        // 10 characters in, 30 out.
        let error = run_with(&limits, Global::EncodeUriComponent, &[s("éééééééééé")]).expect_err("too long");
        assert_eq!(error.reason(), crate::Reason::BudgetExceeded);
        assert!(run_with(&limits, Global::EncodeUriComponent, &[s("abcdefghij")]).is_ok());
        let steps = Limits {
            steps: Some(10),
            ..Limits::UNLIMITED
        };
        let error = run_with(&steps, Global::ParseFloat, &[s(&"1".repeat(1000))]).expect_err("reading costs");
        assert_eq!(error.reason(), crate::Reason::BudgetExceeded);
    }
}
