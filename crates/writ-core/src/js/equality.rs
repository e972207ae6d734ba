//! `==`: ECMA-262's IsLooselyEqual over writ values, with the engine's own `ToPrimitive`.

use super::to_number::string_to_number;
use crate::Value;

/// What an engine lends [`loose_equals`]: its metering and its `ToPrimitive` of arrays and
/// objects, which differ from engine to engine (an object whose own `toString` holds a
/// non-function throws a TypeError in JavaScript, and an engine may charge the text it builds).
pub trait LooseEquality {
    /// The engine's error: a budget it ran out of, or the TypeError its `ToPrimitive` throws.
    type Error;

    /// Charges reading `len` code units of text: a string compared or converted to a number.
    ///
    /// # Errors
    ///
    /// When the engine's budget is spent.
    fn read_text(&mut self, len: usize) -> Result<(), Self::Error>;

    /// `ToPrimitive(value)` with no hint, for an array or an object: a primitive (arrays join
    /// their items, a plain object is `"[object Object]"` unless the engine says otherwise).
    ///
    /// # Errors
    ///
    /// Whatever the conversion throws, and the engine's budget.
    fn to_primitive(&mut self, value: &Value) -> Result<Value, Self::Error>;
}

/// JavaScript's `left == right` (IsLooselyEqual): `null` and `undefined` equal each other and
/// nothing else; numbers by value (`NaN` unequal to itself, `0` equal to `-0`); a boolean
/// compares as 0 or 1; a string meeting a number is read with `StringToNumber`; an array or an
/// object meeting a primitive is converted with the engine's `ToPrimitive`; two arrays or
/// objects are equal only when they are the same one.
///
/// # Errors
///
/// What `engine` raises while charging or converting.
#[inline]
pub fn loose_equals<E: LooseEquality + ?Sized>(engine: &mut E, left: &Value, right: &Value) -> Result<bool, E::Error> {
    Ok(match (left, right) {
        (Value::Number(a), Value::Number(b)) => a == b,
        (Value::Null | Value::Undefined, Value::Null | Value::Undefined) => true,
        (Value::Null | Value::Undefined, _) | (_, Value::Null | Value::Undefined) => false,
        (Value::String(a), Value::String(b)) => {
            engine.read_text(a.len_utf16().min(b.len_utf16()))?;
            a == b
        }
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Array(a), Value::Array(b)) => a.ptr_eq(b),
        (Value::Object(a), Value::Object(b)) => a.ptr_eq(b),
        (Value::Array(_), Value::Object(_)) | (Value::Object(_), Value::Array(_)) => false,
        (Value::Bool(flag), other) | (other, Value::Bool(flag)) => {
            return loose_equals(engine, &Value::Number(f64::from(u8::from(*flag))), other);
        }
        (Value::Number(number), Value::String(text)) | (Value::String(text), Value::Number(number)) => {
            engine.read_text(text.len_utf16())?;
            *number == string_to_number(text)
        }
        (container @ (Value::Array(_) | Value::Object(_)), primitive)
        | (primitive, container @ (Value::Array(_) | Value::Object(_))) => {
            let converted = engine.to_primitive(container)?;
            // ToPrimitive answers a primitive; an engine that answered a container would
            // otherwise be asked again and again.
            debug_assert!(!converted.is_container(), "ToPrimitive answered a container");
            if converted.is_container() {
                return Ok(false);
            }
            return loose_equals(engine, &converted, primitive);
        }
    })
}
