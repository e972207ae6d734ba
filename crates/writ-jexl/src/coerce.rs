//! JavaScript's conversions and comparisons over writ values, as jexl-js gets them from V8:
//! `ToString`, `ToNumber`, `==`, `===`, `<`, and property reads.
//!
//! Every walk over a string or an array charges the meter (a step per element, a step per 16
//! code units), and text is checked against the string cap before it grows.

use writ_core::{Array, Meter, Object, Str, Value, js_number_to_string};

use crate::error::{Error, Result};

/// Code units per step when a string is scanned.
const UNITS_PER_STEP: usize = 16;

/// Charges the scan of `len` code units.
#[inline]
pub(crate) fn charge_scan(meter: &mut Meter, len: usize) -> Result<()> {
    if len >= UNITS_PER_STEP {
        meter.steps((len / UNITS_PER_STEP) as u64)?;
    }
    Ok(())
}

/// UTF-16 text under construction, held to the string cap as it grows.
pub(crate) struct TextBuilder {
    /// The code units so far.
    units: Vec<u16>,
}

impl TextBuilder {
    /// An empty builder.
    pub(crate) fn new() -> TextBuilder {
        TextBuilder { units: Vec::new() }
    }

    /// Appends `piece`, refusing first if the text would pass the cap.
    pub(crate) fn push_units(&mut self, meter: &mut Meter, piece: impl ExactSizeIterator<Item = u16>) -> Result<()> {
        let len = piece.len();
        meter.check_string_length(self.units.len().saturating_add(len))?;
        charge_scan(meter, len)?;
        self.units.extend(piece);
        Ok(())
    }

    /// Appends `text`.
    pub(crate) fn push_str(&mut self, meter: &mut Meter, text: &str) -> Result<()> {
        let units: Vec<u16> = text.encode_utf16().collect();
        self.push_units(meter, units.into_iter())
    }

    /// The text, charged to the total allocation.
    pub(crate) fn finish(self, meter: &mut Meter) -> Result<Str> {
        meter.charge_string(self.units.len())?;
        Ok(Str::from_utf16(&self.units))
    }
}

/// `ToString` of a primitive (everything but arrays and objects), without charging.
fn primitive_string(value: &Value) -> Option<Str> {
    Some(match value {
        Value::Undefined => Str::from("undefined"),
        Value::Null => Str::from("null"),
        Value::Bool(flag) => Str::from(if *flag { "true" } else { "false" }),
        Value::Number(number) => Str::from(js_number_to_string(*number)),
        Value::String(text) => text.clone(),
        Value::Array(_) | Value::Object(_) => return None,
    })
}

/// JavaScript's `String(value)`: arrays join their elements with commas (nested arrays too,
/// `null` and `undefined` as nothing), objects are `[object Object]`.
pub(crate) fn to_js_string(value: &Value, meter: &mut Meter) -> Result<Str> {
    match value {
        Value::Array(array) => {
            let mut text = TextBuilder::new();
            join_into(&mut text, array, None, meter)?;
            text.finish(meter)
        }
        Value::Object(_) => Ok(Str::from("[object Object]")),
        primitive => Ok(primitive_string(primitive).unwrap_or_default()),
    }
}

/// `Array.prototype.join`: the elements of `array` separated by `separator` (a comma when
/// `None`), nested arrays joined with commas, walked without recursion.
pub(crate) fn join_into(
    text: &mut TextBuilder,
    array: &Array,
    separator: Option<&Str>,
    meter: &mut Meter,
) -> Result<()> {
    let comma = Str::from(",");
    let mut stack: Vec<(&Array, usize)> = vec![(array, 0)];
    while let Some((current, next)) = stack.last_mut() {
        let Some(item) = current.get(*next) else {
            stack.pop();
            continue;
        };
        let first = *next == 0;
        *next += 1;
        meter.step()?;
        if !first {
            let sep = if stack.len() == 1 {
                separator.unwrap_or(&comma)
            } else {
                &comma
            };
            text.push_units(meter, sep.code_units())?;
        }
        match item {
            Value::Array(inner) => stack.push((inner, 0)),
            Value::Undefined | Value::Null => {}
            Value::Object(_) => text.push_str(meter, "[object Object]")?,
            primitive => {
                let piece = primitive_string(primitive).unwrap_or_default();
                text.push_units(meter, piece.code_units())?;
            }
        }
    }
    Ok(())
}

/// JavaScript's white space and line terminators, as `StringToNumber` trims them.
fn is_js_space_unit(unit: u16) -> bool {
    char::from_u32(u32::from(unit)).is_some_and(crate::lexer::is_js_space)
}

/// JavaScript's `StringToNumber`: trimmed, empty is 0, decimal with optional sign and exponent,
/// `Infinity` with optional sign, or `0x`/`0o`/`0b` integers without sign; anything else NaN.
pub(crate) fn string_to_number(text: &Str, meter: &mut Meter) -> Result<f64> {
    charge_scan(meter, text.len_utf16())?;
    let units: Vec<u16> = text.code_units().collect();
    let start = units
        .iter()
        .position(|&unit| !is_js_space_unit(unit))
        .unwrap_or(units.len());
    let end = units
        .iter()
        .rposition(|&unit| !is_js_space_unit(unit))
        .map_or(start, |last| last + 1);
    let trimmed = units.get(start..end).unwrap_or(&[]);
    if trimmed.is_empty() {
        return Ok(0.0);
    }
    // Every valid form is ASCII.
    let Some(ascii) = trimmed
        .iter()
        .map(|&unit| u8::try_from(unit).ok().filter(u8::is_ascii))
        .collect::<Option<Vec<u8>>>()
    else {
        return Ok(f64::NAN);
    };
    let Ok(text) = std::str::from_utf8(&ascii) else {
        return Ok(f64::NAN);
    };
    Ok(ascii_to_number(text))
}

/// `StringToNumber` of trimmed ASCII text.
fn ascii_to_number(text: &str) -> f64 {
    let radix = match text.get(..2) {
        Some("0x" | "0X") => 16,
        Some("0o" | "0O") => 8,
        Some("0b" | "0B") => 2,
        _ => 10,
    };
    if radix != 10 {
        let digits = text.get(2..).unwrap_or("");
        if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
            return f64::NAN;
        }
        let significant = digits.trim_start_matches('0');
        return match u64::from_str_radix(significant, radix) {
            // `u64 as f64` rounds to nearest, ties to even, as JavaScript does.
            Ok(value) => value as f64,
            Err(_) if significant.is_empty() => 0.0,
            // Past 64 bits: accumulate; exact to the double's precision for all but ties.
            Err(_) => significant
                .chars()
                .filter_map(|c| c.to_digit(radix))
                .fold(0.0, |acc, digit| acc * f64::from(radix) + f64::from(digit)),
        };
    }
    let (sign, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (-1.0, text.get(1..).unwrap_or("")),
        Some(b'+') => (1.0, text.get(1..).unwrap_or("")),
        _ => (1.0, text),
    };
    if unsigned == "Infinity" {
        return sign * f64::INFINITY;
    }
    if !is_decimal_literal(unsigned) {
        return f64::NAN;
    }
    unsigned.parse::<f64>().map_or(f64::NAN, |value| sign * value)
}

/// True for `StrUnsignedDecimalLiteral` without `Infinity`: digits with an optional fraction
/// (or a fraction alone) and an optional exponent.
fn is_decimal_literal(text: &str) -> bool {
    let bytes = text.as_bytes();
    let digits = |from: usize| {
        bytes
            .get(from..)
            .map_or(0, |rest| rest.iter().take_while(|b| b.is_ascii_digit()).count())
    };
    let whole = digits(0);
    let mut at = whole;
    let mut fraction = 0;
    if bytes.get(at) == Some(&b'.') {
        fraction = digits(at + 1);
        at += 1 + fraction;
    }
    if whole == 0 && fraction == 0 {
        return false;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        let exponent = digits(at);
        if exponent == 0 {
            return false;
        }
        at += exponent;
    }
    at == bytes.len()
}

/// JavaScript's `ToNumber` (through `ToPrimitive` for arrays and objects).
pub(crate) fn to_number(value: &Value, meter: &mut Meter) -> Result<f64> {
    Ok(match value {
        Value::Number(number) => *number,
        Value::Undefined => f64::NAN,
        Value::Null => 0.0,
        Value::Bool(flag) => f64::from(u8::from(*flag)),
        Value::String(text) => string_to_number(text, meter)?,
        Value::Object(_) => f64::NAN,
        Value::Array(_) => {
            let text = to_js_string(value, meter)?;
            string_to_number(&text, meter)?
        }
    })
}

/// `ToPrimitive` for the operators: arrays and objects become their strings.
pub(crate) fn to_primitive(value: &Value, meter: &mut Meter) -> Result<Value> {
    Ok(match value {
        Value::Array(_) | Value::Object(_) => Value::String(to_js_string(value, meter)?),
        primitive => primitive.clone(),
    })
}

/// Compares two strings for equality, charging the scan.
fn strings_equal(a: &Str, b: &Str, meter: &mut Meter) -> Result<bool> {
    if a.len_utf16() != b.len_utf16() {
        return Ok(false);
    }
    charge_scan(meter, a.len_utf16())?;
    Ok(a == b)
}

/// JavaScript's `===`: numbers by value (`NaN` unequal to itself, `0` equal to `-0`), strings
/// by content, arrays and objects by identity.
pub(crate) fn strict_equals(a: &Value, b: &Value, meter: &mut Meter) -> Result<bool> {
    Ok(match (a, b) {
        (Value::Undefined, Value::Undefined) | (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => x == y,
        (Value::String(x), Value::String(y)) => strings_equal(x, y, meter)?,
        (Value::Array(x), Value::Array(y)) => x.ptr_eq(y),
        (Value::Object(x), Value::Object(y)) => x.ptr_eq(y),
        _ => false,
    })
}

/// JavaScript's `==` over JSON values and `undefined`.
pub(crate) fn loose_equals(a: &Value, b: &Value, meter: &mut Meter) -> Result<bool> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => Ok(x == y),
        (Value::Undefined | Value::Null, other) | (other, Value::Undefined | Value::Null) => {
            Ok(matches!(other, Value::Undefined | Value::Null))
        }
        (Value::Array(_) | Value::Object(_), Value::Array(_) | Value::Object(_))
        | (Value::String(_), Value::String(_))
        | (Value::Bool(_), Value::Bool(_)) => strict_equals(a, b, meter),
        (Value::Bool(flag), other) | (other, Value::Bool(flag)) => {
            loose_equals(&Value::Number(f64::from(u8::from(*flag))), other, meter)
        }
        (Value::Number(number), Value::String(text)) | (Value::String(text), Value::Number(number)) => {
            Ok(*number == string_to_number(text, meter)?)
        }
        (Value::Array(_) | Value::Object(_), primitive) | (primitive, Value::Array(_) | Value::Object(_)) => {
            let converted = Value::String(to_js_string(if a.is_container() { a } else { b }, meter)?);
            loose_equals(&converted, primitive, meter)
        }
    }
}

/// JavaScript's abstract relational comparison `a < b`: `None` when either side is NaN.
pub(crate) fn less_than(a: &Value, b: &Value, meter: &mut Meter) -> Result<Option<bool>> {
    if let (Value::Number(x), Value::Number(y)) = (a, b) {
        return Ok(x.partial_cmp(y).map(|order| order.is_lt()));
    }
    let a = to_primitive(a, meter)?;
    let b = to_primitive(b, meter)?;
    if let (Value::String(x), Value::String(y)) = (&a, &b) {
        charge_scan(meter, x.len_utf16().min(y.len_utf16()))?;
        return Ok(Some(x < y));
    }
    let x = to_number(&a, meter)?;
    let y = to_number(&b, meter)?;
    Ok(x.partial_cmp(&y).map(|order| order.is_lt()))
}

/// The first position at or after `from` where `needle` (not empty) occurs in `haystack`.
///
/// Each position tried is charged a step plus one per 16 units of the needle, so a search
/// whose comparisons run long is stopped by the step budget and the clock.
pub(crate) fn find_units(haystack: &[u16], needle: &[u16], from: usize, meter: &mut Meter) -> Result<Option<usize>> {
    let per_position = 1 + (needle.len() / UNITS_PER_STEP) as u64;
    let Some(&first) = needle.first() else {
        return Ok(Some(from.min(haystack.len())));
    };
    let mut at = from;
    while at + needle.len() <= haystack.len() {
        meter.steps(per_position)?;
        if haystack.get(at) == Some(&first) && haystack.get(at..at + needle.len()) == Some(needle) {
            return Ok(Some(at));
        }
        at += 1;
    }
    Ok(None)
}

/// JavaScript's `haystack.indexOf(needle) !== -1`.
pub(crate) fn contains(haystack: &Str, needle: &Str, meter: &mut Meter) -> Result<bool> {
    if let (Some(haystack), Some(needle)) = (haystack.as_ascii_str(), needle.as_ascii_str()) {
        // The standard library's search is linear in the haystack.
        charge_scan(meter, haystack.len() + needle.len())?;
        return Ok(haystack.contains(needle));
    }
    let haystack: Vec<u16> = haystack.code_units().collect();
    let needle: Vec<u16> = needle.code_units().collect();
    Ok(find_units(&haystack, &needle, 0, meter)?.is_some())
}

/// A property key: an array index, or a name.
pub(crate) enum Key {
    /// A canonical array index (below 2^32 - 1).
    Index(u32),
    /// Any other key.
    Name(Str),
}

/// The largest array index plus one.
const INDEX_LIMIT: f64 = 4_294_967_295.0;

/// The index `text` spells canonically, if it spells one.
fn canonical_index(text: &Str) -> Option<u32> {
    let ascii = text.as_ascii_str()?;
    if ascii.is_empty() || ascii.len() > 10 || (ascii.len() > 1 && ascii.starts_with('0')) {
        return None;
    }
    if !ascii.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let index: u64 = ascii.parse().ok()?;
    u32::try_from(index).ok().filter(|&index| index != u32::MAX)
}

/// JavaScript's `ToPropertyKey` of a filter's result.
pub(crate) fn to_key(value: &Value, meter: &mut Meter) -> Result<Key> {
    if let Value::Number(number) = value
        && *number >= 0.0
        && *number < INDEX_LIMIT
        && number.fract() == 0.0
    {
        return Ok(Key::Index(*number as u32));
    }
    let text = to_js_string(value, meter)?;
    Ok(match canonical_index(&text) {
        Some(index) => Key::Index(index),
        None => Key::Name(text),
    })
}

/// Reads an own property `name` of `value` (a name written in the source: never an index).
///
/// Only data is reachable: an object's own keys, and `length` of an array or a string.
/// JavaScript would also find inherited members (`constructor`, methods); jexl's lexer refuses
/// those names as tokens, and a computed key reaching one reads `undefined` here.
#[inline]
pub(crate) fn read_name(value: &Value, name: &Str) -> Value {
    match value {
        Value::Object(object) => object.get(name).cloned().unwrap_or_default(),
        Value::Array(array) if name == "length" => Value::Number(array.len() as f64),
        Value::String(text) if name == "length" => Value::Number(text.len_utf16() as f64),
        _ => Value::Undefined,
    }
}

/// Reads the property `key` of `value` (not `undefined` or `null`).
pub(crate) fn read_key(value: &Value, key: &Key) -> Value {
    match key {
        Key::Name(name) => read_name(value, name),
        Key::Index(index) => {
            let idx = *index as usize;
            match value {
                Value::Array(array) => array.get(idx).cloned().unwrap_or_default(),
                Value::String(text) => text
                    .code_unit(idx)
                    .map_or(Value::Undefined, |unit| Value::String(Str::from_utf16(&[unit]))),
                Value::Object(object) => read_index_key(object, *index),
                _ => Value::Undefined,
            }
        }
    }
}

/// An object's property named by an index.
fn read_index_key(object: &Object, index: u32) -> Value {
    object.get(&Str::from(index.to_string())).cloned().unwrap_or_default()
}

/// How a message names a key.
pub(crate) fn describe_key(key: &Key) -> String {
    match key {
        Key::Index(index) => index.to_string(),
        Key::Name(name) => name.to_string_lossy().into_owned(),
    }
}

/// The error jexl-js throws reading a property of `undefined` or `null`.
pub(crate) fn read_of_nothing(base: &Value, key: &str, position: usize) -> Error {
    let what = if base.is_undefined() { "undefined" } else { "null" };
    Error::runtime(
        position,
        format!(
            "cannot read properties of {what} (reading '{key}') at byte {position}: the value before it is {what}; \
             guard the read, e.g. 'x ? x.{key} : null', or check the data"
        ),
    )
}
