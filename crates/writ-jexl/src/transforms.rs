//! writ's standard transforms, which behave as their JavaScript one-liners do:
//!
//! | name | JavaScript |
//! |---|---|
//! | `upper` | `String(v).toUpperCase()` |
//! | `lower` | `String(v).toLowerCase()` |
//! | `split(sep)` | `String(v).split(sep)` |
//! | `join(sep)` | `v.join(sep)`, an error unless `v` is an array |
//! | `length` | `v.length` of a string or an array, `undefined` for other values, an error for `null` and `undefined` |
//!
//! Case mapping is Unicode's full mapping, locale-independent, with lone surrogates kept as they
//! are. Each one charges the meter for the text it walks and the text and arrays it builds.

use writ_core::{Meter, Str, Value};

use crate::ast::Standard;
use crate::coerce::{TextBuilder, charge_scan, find_units, join_into, reserve, reserve_units, to_js_string, units_of};
use crate::error::{Code, Error, Result};

/// Looks a standard transform up by name.
pub(crate) fn standard(name: &str) -> Option<Standard> {
    Some(match name {
        "upper" => Standard::Upper,
        "lower" => Standard::Lower,
        "split" => Standard::Split,
        "join" => Standard::Join,
        "length" => Standard::Length,
        _ => return None,
    })
}

/// The names of the standard transforms.
pub(crate) const STANDARD_NAMES: [&str; 5] = ["upper", "lower", "split", "join", "length"];

/// Applies `transform` to `value` with `args`.
///
/// # Errors
///
/// `jexl-transform` where the JavaScript would throw; `budget-exceeded`.
pub(crate) fn apply(transform: Standard, value: &Value, args: &[Value], meter: &mut Meter) -> Result<Value> {
    match transform {
        Standard::Upper | Standard::Lower => {
            let text = to_js_string(value, meter)?;
            Ok(Value::String(change_case(&text, transform == Standard::Upper, meter)?))
        }
        Standard::Split => split(value, args.first().unwrap_or(&Value::Undefined), meter),
        Standard::Join => {
            let Value::Array(array) = value else {
                return Err(failed(
                    "join",
                    format!("join expects an array, but got {}", value.kind().described()),
                ));
            };
            let separator = match args.first() {
                None | Some(Value::Undefined) => None,
                Some(separator) => Some(to_js_string(separator, meter)?),
            };
            let mut text = TextBuilder::new();
            join_into(&mut text, array, separator.as_ref(), meter)?;
            Ok(Value::String(text.finish(meter)?))
        }
        Standard::Length => match value {
            Value::Undefined | Value::Null => Err(failed(
                "length",
                format!(
                    "length of {}: guard it, e.g. 'x ? x|length : 0'",
                    value.kind().described()
                ),
            )),
            Value::String(text) => Ok(Value::Number(text.len_utf16() as f64)),
            Value::Array(array) => Ok(Value::Number(array.len() as f64)),
            _ => Ok(Value::Undefined),
        },
    }
}

/// A failure of the standard transform `name`.
fn failed(name: &str, message: String) -> Error {
    Error::new(Code::Transform, format!("transform '{name}' failed: {message}"))
}

/// Full Unicode case mapping of `text`, keeping lone surrogates.
fn change_case(text: &Str, upper: bool, meter: &mut Meter) -> Result<Str> {
    // Mapping a run of text, and the conversions around it, cannot stop halfway.
    reserve_units(meter, text.len_utf16().saturating_mul(4))?;
    if let Some(ascii) = text.as_ascii_str() {
        // ASCII maps to ASCII of the same length, so the result is charged before it is built.
        charge_scan(meter, ascii.len())?;
        meter.charge_string(ascii.len())?;
        let mapped = if upper {
            ascii.to_ascii_uppercase()
        } else {
            ascii.to_ascii_lowercase()
        };
        return Ok(Str::from(mapped));
    }
    let mut out = TextBuilder::new();
    let mut run = String::new();
    for decoded in char::decode_utf16(text.code_units()) {
        match decoded {
            Ok(c) => run.push(c),
            Err(lone) => {
                flush_case(&mut out, &mut run, upper, meter)?;
                out.push_units(meter, std::iter::once(lone.unpaired_surrogate()))?;
            }
        }
    }
    flush_case(&mut out, &mut run, upper, meter)?;
    out.finish(meter)
}

/// Maps the well-formed `run` and appends it.
fn flush_case(out: &mut TextBuilder, run: &mut String, upper: bool, meter: &mut Meter) -> Result<()> {
    if run.is_empty() {
        return Ok(());
    }
    let mapped = if upper { run.to_uppercase() } else { run.to_lowercase() };
    run.clear();
    out.push_str(meter, &mapped)
}

/// `String(value).split(separator)`.
fn split(value: &Value, separator: &Value, meter: &mut Meter) -> Result<Value> {
    let text = to_js_string(value, meter)?;
    if separator.is_undefined() {
        meter.charge_array(1)?;
        return Ok(Value::from(vec![Value::String(text)]));
    }
    let separator = to_js_string(separator, meter)?;
    reserve_units(meter, text.len_utf16())?;
    let units = units_of(&text, meter)?;
    let sep = units_of(&separator, meter)?;
    charge_scan(meter, units.len())?;
    let mut pieces = Vec::new();
    if sep.is_empty() {
        meter.charge_array(units.len())?;
        reserve(&mut pieces, units.len(), meter)?;
        for &unit in &units {
            meter.step()?;
            pieces.push(Value::String(Str::from_utf16(&[unit])));
        }
        return Ok(Value::from(pieces));
    }
    let mut start = 0;
    while let Some(found) = find_units(&units, &sep, start, meter)? {
        pieces.push(piece(&units, start, found, meter)?);
        start = found + sep.len();
    }
    pieces.push(piece(&units, start, units.len(), meter)?);
    meter.charge_array(pieces.len())?;
    Ok(Value::from(pieces))
}

/// One piece of a split, charged.
fn piece(units: &[u16], start: usize, end: usize, meter: &mut Meter) -> Result<Value> {
    meter.step()?;
    let slice = units.get(start..end).unwrap_or(&[]);
    meter.charge_string(slice.len())?;
    Ok(Value::String(Str::from_utf16(slice)))
}
