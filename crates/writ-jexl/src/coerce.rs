//! JavaScript's conversions and comparisons over writ values, as jexl-js gets them from V8:
//! `ToString`, `ToNumber`, `==`, `===`, `<`, and property reads.
//!
//! Every walk over a string or an array charges the meter (a step per element, a step per 16
//! code units), and text is checked against the string cap before it grows.

use writ_core::js::{self, LooseEquality};
use writ_core::{Array, Bound, BudgetExceeded, Meter, Object, Str, Value, js_number_to_string};

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

/// Code units below which copying or scanning text is too quick to charge in time.
const BULK_UNITS: usize = 1 << 16;

/// About how long copying, converting or scanning one code unit takes.
const NANOS_PER_UNIT: u64 = 2;

/// Charges, in time and before it starts, work over `len` code units that cannot stop halfway
/// (one copy, one case mapping, one search): a piece that would not finish before the deadline
/// is refused instead of run past it.
#[inline]
pub(crate) fn reserve_units(meter: &mut Meter, len: usize) -> Result<()> {
    if len >= BULK_UNITS {
        meter.reserve_time(std::time::Duration::from_nanos(
            (len as u64).saturating_mul(NANOS_PER_UNIT),
        ))?;
    }
    Ok(())
}

/// Makes room for `additional` more items in `items`, answering an allocation the system
/// refuses as the total-allocation bound instead of aborting the process.
pub(crate) fn reserve<T>(items: &mut Vec<T>, additional: usize, meter: &mut Meter) -> Result<()> {
    if items.try_reserve(additional).is_err() {
        let exceeded = BudgetExceeded {
            bound: Bound::TotalAllocation,
            limit: meter.allocated(),
        };
        meter.record_exceeded(exceeded);
        return Err(exceeded.into());
    }
    Ok(())
}

/// The code units of `text`, in a vector the system may refuse (a budget error, not an abort).
pub(crate) fn units_of(text: &Str, meter: &mut Meter) -> Result<Vec<u16>> {
    let mut units = Vec::new();
    reserve(&mut units, text.len_utf16(), meter)?;
    units.extend(text.code_units());
    Ok(units)
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
        reserve_units(meter, len)?;
        reserve(&mut self.units, len, meter)?;
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
        reserve_units(meter, self.units.len())?;
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

/// JavaScript's `StringToNumber`, charged a step per 16 code units read.
#[inline]
pub(crate) fn string_to_number(text: &Str, meter: &mut Meter) -> Result<f64> {
    charge_scan(meter, text.len_utf16())?;
    Ok(js::string_to_number(text))
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
    js::loose_equals(&mut Operands(meter), a, b)
}

/// What `==` reads and converts, charged to the meter: an array or object becomes its string.
struct Operands<'m>(&'m mut Meter);

impl LooseEquality for Operands<'_> {
    type Error = Error;

    fn read_text(&mut self, len: usize) -> Result<()> {
        charge_scan(self.0, len)
    }

    fn to_primitive(&mut self, value: &Value) -> Result<Value> {
        to_primitive(value, self.0)
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
        reserve_units(meter, haystack.len())?;
        return Ok(haystack.contains(needle));
    }
    reserve_units(meter, haystack.len_utf16())?;
    let haystack = units_of(haystack, meter)?;
    let needle = units_of(needle, meter)?;
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
    Ok(match js::array_index(&text) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use writ_core::Limits;

    #[test]
    fn a_capacity_the_system_refuses_is_a_budget_error_not_an_abort() {
        let mut meter = Meter::new(&Limits::UNLIMITED);
        let mut units: Vec<u16> = Vec::new();
        let error = reserve(&mut units, usize::MAX / 2, &mut meter).expect_err("no such allocation");
        assert_eq!(
            error.budget().map(|exceeded| exceeded.bound),
            Some(Bound::TotalAllocation)
        );
        // The meter fails from then on, as after any bound.
        assert!(meter.step().is_err());
        let mut fine = Meter::new(&Limits::UNLIMITED);
        assert!(reserve(&mut units, 16, &mut fine).is_ok());
    }
}
