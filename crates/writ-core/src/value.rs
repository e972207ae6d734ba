//! `Value`: JSON plus `undefined`, shared cheaply between engines.

use std::fmt;

use triomphe::Arc;

use crate::{Object, Str};

/// A JSON value, or JavaScript's `undefined`.
///
/// This is the one value type every writ engine reads and writes: an output of a plan node
/// reaches a predicate, a JSONata expression or a Lua chunk as the same `Value`, without a deep
/// copy. Strings, arrays and objects are reference-counted, so cloning a `Value` costs at most a
/// reference-count increment, and a `Value` is 16 bytes.
///
/// Numbers are `f64`, as in JavaScript; `-0`, `NaN` and the infinities are representable
/// (JSON text writes the last three as `null`, as `JSON.stringify` does).
///
/// `PartialEq` is identity of content: `NaN` equals `NaN`, `-0` differs from `0`, and objects
/// must list the same entries in the same order. Language equality (`===`, JSONata's `=`) is
/// each engine's to define.
#[derive(Clone, Default)]
pub enum Value {
    /// JavaScript's `undefined`: no value. JSONata's "no result" is this too.
    #[default]
    Undefined,
    /// JSON `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A double-precision number.
    Number(f64),
    /// A string of UTF-16 code units.
    String(Str),
    /// An array.
    Array(Array),
    /// An object.
    Object(Object),
}

const _: () = assert!(std::mem::size_of::<Value>() == 16);

/// An immutable, reference-counted array of values.
///
/// Cloning is a reference-count increment. [`Array::make_mut`] gives a `Vec` to change, copying
/// the elements first only when the array is shared.
#[derive(Clone, Default)]
pub struct Array(Arc<Vec<Value>>);

impl Array {
    /// An empty array.
    pub fn new() -> Array {
        Array::default()
    }

    /// The elements, which the array may share with others.
    #[inline]
    pub fn as_slice(&self) -> &[Value] {
        &self.0
    }

    /// The number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when the array has no elements.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The element at `idx`.
    #[inline]
    pub fn get(&self, idx: usize) -> Option<&Value> {
        self.0.get(idx)
    }

    /// The elements as a `Vec` to change, copied first if this array is shared.
    pub fn make_mut(&mut self) -> &mut Vec<Value> {
        Arc::make_mut(&mut self.0)
    }

    /// The elements as an owned `Vec`, copied only if this array is shared.
    pub fn into_vec(mut self) -> Vec<Value> {
        match Arc::get_mut(&mut self.0) {
            Some(elements) => std::mem::take(elements),
            None => self.0.to_vec(),
        }
    }

    /// True when both handles point at the same allocation.
    pub fn ptr_eq(&self, other: &Array) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Drop for Array {
    /// Takes nested containers apart one level at a time, so that dropping a value nested a
    /// million levels deep needs no more stack than dropping a flat one.
    fn drop(&mut self) {
        // A shared container is taken out too: this array may hold the last two references
        // to it (`[x, x]`), and dropping it in place would recurse once per level of such
        // sharing. In `dismantle` it only loses a reference unless this was the last.
        if let Some(elements) = Arc::get_mut(&mut self.0).filter(|elements| elements.iter().any(Value::is_container)) {
            dismantle(std::mem::take(elements));
        }
    }
}

/// Drops `pending` and everything only it holds, emptying each unshared container before it
/// drops, so that no drop recurses more than one level.
pub(crate) fn dismantle(mut pending: Vec<Value>) {
    while let Some(mut value) = pending.pop() {
        match &mut value {
            Value::Array(array) => {
                if let Some(elements) = Arc::get_mut(&mut array.0) {
                    pending.append(elements);
                }
            }
            Value::Object(object) => object.take_unshared_values(&mut pending),
            _ => {}
        }
    }
}

impl std::ops::Deref for Array {
    type Target = [Value];

    fn deref(&self) -> &[Value] {
        &self.0
    }
}

impl From<Vec<Value>> for Array {
    fn from(elements: Vec<Value>) -> Array {
        Array(Arc::new(elements))
    }
}

impl FromIterator<Value> for Array {
    fn from_iter<I: IntoIterator<Item = Value>>(elements: I) -> Array {
        Array(Arc::new(elements.into_iter().collect()))
    }
}

impl PartialEq for Array {
    fn eq(&self, other: &Array) -> bool {
        self.ptr_eq(other) || self.as_slice() == other.as_slice()
    }
}

impl fmt::Debug for Array {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The kind of a [`Value`], for messages and dispatch.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ValueKind {
    /// `undefined`.
    Undefined,
    /// `null`.
    Null,
    /// A boolean.
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl ValueKind {
    /// The kind with its article, as messages say it: "a string", "an array", "null".
    pub fn described(self) -> &'static str {
        match self {
            ValueKind::Undefined => "undefined",
            ValueKind::Null => "null",
            ValueKind::Bool => "a boolean",
            ValueKind::Number => "a number",
            ValueKind::String => "a string",
            ValueKind::Array => "an array",
            ValueKind::Object => "an object",
        }
    }
}

impl Value {
    /// The kind of this value.
    pub fn kind(&self) -> ValueKind {
        match self {
            Value::Undefined => ValueKind::Undefined,
            Value::Null => ValueKind::Null,
            Value::Bool(_) => ValueKind::Bool,
            Value::Number(_) => ValueKind::Number,
            Value::String(_) => ValueKind::String,
            Value::Array(_) => ValueKind::Array,
            Value::Object(_) => ValueKind::Object,
        }
    }

    /// True for arrays and objects.
    #[inline]
    pub fn is_container(&self) -> bool {
        matches!(self, Value::Array(_) | Value::Object(_))
    }

    /// True for `undefined`.
    pub fn is_undefined(&self) -> bool {
        matches!(self, Value::Undefined)
    }

    /// The number, if this is one.
    #[inline]
    pub fn as_number(&self) -> Option<f64> {
        match self {
            Value::Number(number) => Some(*number),
            _ => None,
        }
    }

    /// The string, if this is one.
    #[inline]
    pub fn as_str(&self) -> Option<&Str> {
        match self {
            Value::String(text) => Some(text),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(flag) => Some(*flag),
            _ => None,
        }
    }

    /// The array, if this is one.
    #[inline]
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Value::Array(array) => Some(array),
            _ => None,
        }
    }

    /// The object, if this is one.
    #[inline]
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Value::Object(object) => Some(object),
            _ => None,
        }
    }

    /// JavaScript truthiness: `false`, `0`, `-0`, `NaN`, `""`, `null` and `undefined` are
    /// false; everything else, `[]` and `{}` included, is true.
    pub fn is_truthy(&self) -> bool {
        match self {
            Value::Undefined | Value::Null => false,
            Value::Bool(flag) => *flag,
            Value::Number(number) => *number != 0.0 && !number.is_nan(),
            Value::String(text) => !text.is_empty(),
            Value::Array(_) | Value::Object(_) => true,
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Undefined, Value::Undefined) | (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Number(a), Value::Number(b)) => a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => a == b,
            (Value::Object(a), Value::Object(b)) => a == b,
            _ => false,
        }
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Undefined => f.write_str("undefined"),
            Value::Null => f.write_str("null"),
            Value::Bool(flag) => write!(f, "{flag}"),
            Value::Number(number) => f.write_str(&crate::js_number_to_string(*number)),
            Value::String(text) => fmt::Debug::fmt(text, f),
            Value::Array(array) => fmt::Debug::fmt(array, f),
            Value::Object(object) => fmt::Debug::fmt(object, f),
        }
    }
}

impl fmt::Display for Value {
    /// Writes the value as `JSON.stringify` would, and `undefined` as `undefined`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_json_string() {
            Some(text) => f.write_str(&text),
            None => f.write_str("undefined"),
        }
    }
}

impl From<bool> for Value {
    fn from(flag: bool) -> Value {
        Value::Bool(flag)
    }
}

impl From<f64> for Value {
    fn from(number: f64) -> Value {
        Value::Number(number)
    }
}

impl From<i32> for Value {
    fn from(number: i32) -> Value {
        Value::Number(f64::from(number))
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Value {
        Value::String(Str::from(text))
    }
}

impl From<String> for Value {
    fn from(text: String) -> Value {
        Value::String(Str::from(text))
    }
}

impl From<Str> for Value {
    fn from(text: Str) -> Value {
        Value::String(text)
    }
}

impl From<Array> for Value {
    fn from(array: Array) -> Value {
        Value::Array(array)
    }
}

impl From<Vec<Value>> for Value {
    fn from(elements: Vec<Value>) -> Value {
        Value::Array(Array::from(elements))
    }
}

impl From<Object> for Value {
    fn from(object: Object) -> Value {
        Value::Object(object)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clone_shares_containers() {
        let array = Value::from(vec![Value::from("x"); 1000]);
        let copy = array.clone();
        match (&array, &copy) {
            (Value::Array(a), Value::Array(b)) => assert!(a.ptr_eq(b)),
            _ => unreachable!("both are arrays"),
        }
    }

    #[test]
    fn dropping_a_deep_value_needs_no_deep_stack() {
        let mut deep = Value::Null;
        for level in 0..1_000_000 {
            deep = if level % 2 == 0 {
                Value::from(vec![deep, Value::from(1.0)])
            } else {
                let mut object = Object::new();
                object.insert("next".into(), deep);
                Value::from(object)
            };
        }
        // A test thread has a 2 MiB stack; a recursive drop of a million levels would overflow it.
        drop(deep);
    }

    #[test]
    fn dropping_a_deep_value_that_holds_each_level_twice_needs_no_deep_stack() {
        // Found by varying a JSONata fuzz find: `{'a': $s, 'b': $s}` built by an endless tail call. Each
        // level is held twice by the level above, so neither reference alone frees it.
        let mut deep = Value::Null;
        for level in 0..1_000_000 {
            deep = if level % 2 == 0 {
                Value::from(vec![deep.clone(), deep])
            } else {
                let mut object = Object::new();
                object.insert("a".into(), deep.clone());
                object.insert("b".into(), deep);
                Value::from(object)
            };
        }
        drop(deep);
    }

    #[test]
    fn truthiness_follows_javascript() {
        let falsy = [
            Value::Undefined,
            Value::Null,
            Value::Bool(false),
            Value::from(0.0),
            Value::from(-0.0),
            Value::from(f64::NAN),
            Value::from(""),
        ];
        assert!(falsy.iter().all(|value| !value.is_truthy()));
        let truthy = [
            Value::from(vec![]),
            Value::from(Object::new()),
            Value::from("0"),
            Value::from(-1.0),
        ];
        assert!(truthy.iter().all(Value::is_truthy));
    }

    #[test]
    fn equality_is_identity_of_content() {
        assert_eq!(Value::from(f64::NAN), Value::from(f64::NAN));
        assert_ne!(Value::from(0.0), Value::from(-0.0));
        assert_ne!(Value::Null, Value::Undefined);
    }
}
