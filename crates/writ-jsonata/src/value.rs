//! The values an evaluation works with.
//!
//! JSONata needs more than JSON: functions are values, and an evaluation tells *sequences*
//! (what a path yields, flattened and unwrapped when they hold one item) from arrays (what the
//! document or an array constructor holds). [`Val`] is that model, 16 bytes, over writ-core's
//! [`Value`] without copying it: the input's arrays and objects stay writ-core containers
//! ([`Val::Data`]-backed views), and only what an evaluation builds lives in [`Val::List`] or
//! [`Val::Record`].

use std::rc::Rc;

use writ_core::{Array, Object, Str, Value};

use crate::function::Function;

/// Marks on a list, as jsonata-js keeps them as properties on its arrays.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) struct Flags(u8);

impl Flags {
    /// A sequence: the result of a path or of a function over sequences. Flattened into an
    /// enclosing step, and unwrapped when it holds exactly one item (unless kept).
    pub(crate) const SEQUENCE: Flags = Flags(1);
    /// A sequence that stays an array even with one item (`[]` after a step).
    pub(crate) const KEEP_SINGLETON: Flags = Flags(2);
    /// An array built by an array constructor: a step never flattens it.
    pub(crate) const CONS: Flags = Flags(4);
    /// A sequence built around a value that was already an array (see `$append`/paths).
    pub(crate) const OUTER_WRAPPER: Flags = Flags(8);
    /// A tuple stream: each item a record of bindings with the item itself under `@`.
    pub(crate) const TUPLE_STREAM: Flags = Flags(16);

    pub(crate) const NONE: Flags = Flags(0);

    /// Whether every flag of `other` is set.
    pub(crate) fn has(self, other: Flags) -> bool {
        self.0 & other.0 == other.0 && other.0 != 0
    }

    /// These flags and `other`'s.
    pub(crate) fn with(self, other: Flags) -> Flags {
        Flags(self.0 | other.0)
    }
}

/// One value of an evaluation.
///
/// `Clone` is cheap: a scalar copy or a reference-count increment.
#[derive(Clone, Default)]
pub(crate) enum Val {
    /// No value: JSONata's "no result" (`undefined` in jsonata-js).
    #[default]
    Undefined,
    /// JSON `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number; never NaN or infinite once it leaves an operator (they raise D1001).
    Number(f64),
    /// A string of UTF-16 code units.
    String(Str),
    /// An array from the input document (or built without functions): shared, never copied.
    Array(Array),
    /// An object from the input document (or built without functions): shared, never copied.
    Object(Object),
    /// A list built by the evaluation: a sequence or an array, with its [`Flags`].
    List(Rc<Items>, Flags),
    /// An object built by the evaluation that holds a function, so writ-core cannot hold it.
    Record(Rc<Entries>),
    /// A function: a lambda, a built-in, a partial application, a regex, a composition.
    Function(Rc<Function>),
}

const _: () = assert!(std::mem::size_of::<Val>() == 16);

impl From<&Value> for Val {
    fn from(value: &Value) -> Val {
        match value {
            Value::Undefined => Val::Undefined,
            Value::Null => Val::Null,
            Value::Bool(b) => Val::Bool(*b),
            Value::Number(n) => Val::Number(*n),
            Value::String(s) => Val::String(s.clone()),
            Value::Array(a) => Val::Array(a.clone()),
            Value::Object(o) => Val::Object(o.clone()),
        }
    }
}

impl From<Value> for Val {
    fn from(value: Value) -> Val {
        match value {
            Value::Undefined => Val::Undefined,
            Value::Null => Val::Null,
            Value::Bool(b) => Val::Bool(b),
            Value::Number(n) => Val::Number(n),
            Value::String(s) => Val::String(s),
            Value::Array(a) => Val::Array(a),
            Value::Object(o) => Val::Object(o),
        }
    }
}

impl From<&str> for Val {
    fn from(text: &str) -> Val {
        Val::String(Str::from(text))
    }
}

impl From<f64> for Val {
    fn from(n: f64) -> Val {
        Val::Number(n)
    }
}

impl From<bool> for Val {
    fn from(b: bool) -> Val {
        Val::Bool(b)
    }
}

impl From<Str> for Val {
    fn from(s: Str) -> Val {
        Val::String(s)
    }
}

/// The items of a built list.
///
/// A list can hold lists nested as deep as an evaluation's steps allow (`$reduce` can nest
/// 100,000 levels in a few milliseconds), so dropping one must not recurse on the thread's
/// stack: the drop of nested containers moves onto heap-grown stack segments.
#[derive(Clone, Default, Debug)]
pub(crate) struct Items(pub(crate) Vec<Val>);

/// The entries of a built object, in key order; dropped like [`Items`].
#[derive(Clone, Default, Debug)]
pub(crate) struct Entries(pub(crate) Vec<(Str, Val)>);

/// Drops `dropped` on a stack segment with room to spare.
pub(crate) fn drop_deep<T>(dropped: T) {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, move || drop(dropped));
}

impl Drop for Items {
    fn drop(&mut self) {
        // One check of the stack costs less than a pass over the items to see whether any
        // could nest.
        if !self.0.is_empty() {
            drop_deep(std::mem::take(&mut self.0));
        }
    }
}

impl Drop for Entries {
    fn drop(&mut self) {
        if !self.0.is_empty() {
            drop_deep(std::mem::take(&mut self.0));
        }
    }
}

impl std::ops::Deref for Items {
    type Target = Vec<Val>;
    fn deref(&self) -> &Vec<Val> {
        &self.0
    }
}

impl std::ops::DerefMut for Items {
    fn deref_mut(&mut self) -> &mut Vec<Val> {
        &mut self.0
    }
}

impl std::ops::Deref for Entries {
    type Target = Vec<(Str, Val)>;
    fn deref(&self) -> &Vec<(Str, Val)> {
        &self.0
    }
}

impl std::ops::DerefMut for Entries {
    fn deref_mut(&mut self) -> &mut Vec<(Str, Val)> {
        &mut self.0
    }
}

/// A read-only view of either kind of array.
#[derive(Clone, Copy)]
pub(crate) enum ArrayView<'a> {
    /// A writ-core array.
    Data(&'a [Value]),
    /// A list built by the evaluation.
    Built(&'a [Val]),
}

impl<'a> ArrayView<'a> {
    /// How many items.
    pub(crate) fn len(self) -> usize {
        match self {
            ArrayView::Data(items) => items.len(),
            ArrayView::Built(items) => items.len(),
        }
    }

    /// Whether there are no items.
    pub(crate) fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The item at `idx`, if any.
    pub(crate) fn get(self, idx: usize) -> Option<Val> {
        match self {
            ArrayView::Data(items) => items.get(idx).map(Val::from),
            ArrayView::Built(items) => items.get(idx).cloned(),
        }
    }

    /// The items in order.
    pub(crate) fn iter(self) -> ArrayIter<'a> {
        match self {
            ArrayView::Data(items) => ArrayIter::Data(items.iter()),
            ArrayView::Built(items) => ArrayIter::Built(items.iter()),
        }
    }

    /// The items, collected.
    pub(crate) fn to_vec(self) -> Vec<Val> {
        self.iter().collect()
    }
}

/// The items of an [`ArrayView`].
pub(crate) enum ArrayIter<'a> {
    Data(std::slice::Iter<'a, Value>),
    Built(std::slice::Iter<'a, Val>),
}

impl Iterator for ArrayIter<'_> {
    type Item = Val;

    #[inline]
    fn next(&mut self) -> Option<Val> {
        match self {
            ArrayIter::Data(items) => items.next().map(Val::from),
            ArrayIter::Built(items) => items.next().cloned(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            ArrayIter::Data(items) => items.size_hint(),
            ArrayIter::Built(items) => items.size_hint(),
        }
    }
}

impl ExactSizeIterator for ArrayIter<'_> {}

impl DoubleEndedIterator for ArrayIter<'_> {
    fn next_back(&mut self) -> Option<Val> {
        match self {
            ArrayIter::Data(items) => items.next_back().map(Val::from),
            ArrayIter::Built(items) => items.next_back().cloned(),
        }
    }
}

/// A read-only view of either kind of object.
#[derive(Clone, Copy)]
pub(crate) enum ObjectView<'a> {
    /// A writ-core object.
    Data(&'a Object),
    /// An object built by the evaluation that holds functions.
    Built(&'a [(Str, Val)]),
}

impl<'a> ObjectView<'a> {
    /// How many keys.
    pub(crate) fn len(self) -> usize {
        match self {
            ObjectView::Data(o) => o.len(),
            ObjectView::Built(entries) => entries.len(),
        }
    }

    /// Whether there are no keys.
    pub(crate) fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The value under `key`, if any.
    pub(crate) fn get(self, key: &Str) -> Option<Val> {
        match self {
            ObjectView::Data(o) => o.get(key).map(Val::from),
            ObjectView::Built(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()),
        }
    }

    /// The entries in key order.
    pub(crate) fn entries(self) -> Box<dyn Iterator<Item = (Str, Val)> + 'a> {
        match self {
            ObjectView::Data(o) => Box::new(o.iter().map(|(k, v)| (k.clone(), Val::from(v)))),
            ObjectView::Built(entries) => Box::new(entries.iter().cloned()),
        }
    }

    /// The keys in order.
    pub(crate) fn keys(self) -> Vec<Str> {
        match self {
            ObjectView::Data(o) => o.keys().cloned().collect(),
            ObjectView::Built(entries) => entries.iter().map(|(k, _)| k.clone()).collect(),
        }
    }
}

impl Val {
    /// A sequence of `items`.
    pub(crate) fn sequence(items: Vec<Val>) -> Val {
        Val::List(Rc::new(Items(items)), Flags::SEQUENCE)
    }

    /// A list of `items` with `flags`.
    pub(crate) fn list(items: Vec<Val>, flags: Flags) -> Val {
        Val::List(Rc::new(Items(items)), flags)
    }

    /// A built object of `entries` (kept in the order given).
    pub(crate) fn record(entries: Vec<(Str, Val)>) -> Val {
        Val::Record(Rc::new(Entries(entries)))
    }

    /// A plain array of `items` (not a sequence).
    pub(crate) fn array(items: Vec<Val>) -> Val {
        Val::List(Rc::new(Items(items)), Flags::NONE)
    }

    /// Whether this is "no value".
    pub(crate) fn is_undefined(&self) -> bool {
        matches!(self, Val::Undefined)
    }

    /// Either kind of array, viewed.
    pub(crate) fn as_array(&self) -> Option<ArrayView<'_>> {
        match self {
            Val::Array(a) => Some(ArrayView::Data(a.as_slice())),
            Val::List(items, _) => Some(ArrayView::Built(items)),
            _ => None,
        }
    }

    /// Whether this is an array of either kind (sequences included).
    pub(crate) fn is_array(&self) -> bool {
        matches!(self, Val::Array(_) | Val::List(..))
    }

    /// Either kind of object, viewed.
    pub(crate) fn as_object(&self) -> Option<ObjectView<'_>> {
        match self {
            Val::Object(o) => Some(ObjectView::Data(o)),
            Val::Record(entries) => Some(ObjectView::Built(entries)),
            _ => None,
        }
    }

    /// Whether this is an object of either kind.
    pub(crate) fn is_object(&self) -> bool {
        matches!(self, Val::Object(_) | Val::Record(_))
    }

    /// The number, if this is one.
    pub(crate) fn as_number(&self) -> Option<f64> {
        match self {
            Val::Number(n) => Some(*n),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub(crate) fn as_str(&self) -> Option<&Str> {
        match self {
            Val::String(s) => Some(s),
            _ => None,
        }
    }

    /// The function, if this is one.
    pub(crate) fn as_function(&self) -> Option<&Rc<Function>> {
        match self {
            Val::Function(f) => Some(f),
            _ => None,
        }
    }

    /// The list flags (none for anything but a [`Val::List`]).
    pub(crate) fn flags(&self) -> Flags {
        match self {
            Val::List(_, flags) => *flags,
            _ => Flags::NONE,
        }
    }

    /// Whether this is a sequence (jsonata-js's `isSequence`).
    pub(crate) fn is_sequence(&self) -> bool {
        self.flags().has(Flags::SEQUENCE)
    }

    /// JSONata's type name, as `$type` gives it.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Val::Undefined => "undefined",
            Val::Null => "null",
            Val::Bool(_) => "boolean",
            Val::Number(_) => "number",
            Val::String(_) => "string",
            Val::Array(_) | Val::List(..) => "array",
            Val::Object(_) | Val::Record(_) => "object",
            Val::Function(_) => "function",
        }
    }

    /// The writ-core value this is, for results, as `JSON.stringify` writes what jsonata-js
    /// returns: sequences become arrays; a function (or undefined) is left out of an object,
    /// `null` in an array, and undefined on its own.
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Val::Undefined | Val::Function(_) => Value::Undefined,
            Val::Null => Value::Null,
            Val::Bool(b) => Value::Bool(*b),
            Val::Number(n) => Value::Number(*n),
            Val::String(s) => Value::String(s.clone()),
            Val::Array(a) => Value::Array(a.clone()),
            Val::Object(o) => Value::Object(o.clone()),
            Val::List(items, _) => Value::from(
                items
                    .iter()
                    .map(|item| item.to_value_in_container())
                    .collect::<Vec<_>>(),
            ),
            Val::Record(entries) => Value::Object(Object::from_entries(
                entries
                    .iter()
                    .filter(|(_, v)| !matches!(v, Val::Undefined | Val::Function(_)))
                    .map(|(k, v)| (k.clone(), v.to_value_in_container()))
                    .collect(),
            )),
        }
    }

    fn to_value_in_container(&self) -> Value {
        if matches!(self, Val::List(..) | Val::Record(_)) {
            return stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.to_value());
        }
        match self {
            Val::Function(_) | Val::Undefined => Value::Null,
            other => other.to_value(),
        }
    }
}

impl std::fmt::Debug for Val {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Val::Function(_) => f.write_str("<function>"),
            Val::List(_, flags) if flags.has(Flags::SEQUENCE) => write!(f, "seq{:?}", self.to_value()),
            other => write!(f, "{:?}", other.to_value()),
        }
    }
}

/// JSONata's truthiness (`$boolean`): empty strings, zero, null, false, empty arrays and
/// empty objects are false; an array is true when any item is; functions are false.
/// `None` for undefined (which `$boolean` leaves undefined).
pub(crate) fn boolean(value: &Val) -> Option<bool> {
    Some(match value {
        Val::Undefined => return None,
        Val::Null => false,
        Val::Bool(b) => *b,
        Val::Number(n) => *n != 0.0,
        Val::String(s) => !s.is_empty(),
        Val::Array(_) | Val::List(..) => {
            let items = value.as_array().expect("an array");
            let deeper = |item: &Val| stacker::maybe_grow(64 * 1024, 1024 * 1024, || boolean(item));
            match items.len() {
                0 => false,
                1 => deeper(&items.get(0).expect("one item")).unwrap_or(false),
                _ => items.iter().any(|item| deeper(&item) == Some(true)),
            }
        }
        Val::Object(_) | Val::Record(_) => !value.as_object().expect("an object").is_empty(),
        Val::Function(_) => false,
    })
}

/// Deep equality as JSONata's `=` and `$distinct` use it: numbers by value, strings by code
/// units, arrays item by item, objects key by key in any order; functions only to themselves.
pub(crate) fn deep_equal(lhs: &Val, rhs: &Val) -> bool {
    match (lhs, rhs) {
        (Val::Undefined, Val::Undefined) | (Val::Null, Val::Null) => true,
        (Val::Bool(a), Val::Bool(b)) => a == b,
        (Val::Number(a), Val::Number(b)) => a == b,
        (Val::String(a), Val::String(b)) => a == b,
        (Val::Function(a), Val::Function(b)) => Rc::ptr_eq(a, b),
        _ => {
            let deeper = |x: &Val, y: &Val| stacker::maybe_grow(64 * 1024, 1024 * 1024, || deep_equal(x, y));
            if let (Some(a), Some(b)) = (lhs.as_array(), rhs.as_array()) {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| deeper(&x, &y))
            } else if let (Some(a), Some(b)) = (lhs.as_object(), rhs.as_object()) {
                a.len() == b.len() && a.entries().all(|(k, v)| b.get(&k).is_some_and(|w| deeper(&v, &w)))
            } else {
                false
            }
        }
    }
}

/// Puts `entries` in JavaScript's property order, as assigning them one by one to a fresh
/// object would: a repeated key keeps its first place and takes its last value, and
/// array-index keys move to the front in ascending order.
pub(crate) fn in_js_order(entries: Vec<(Str, Val)>) -> Vec<(Str, Val)> {
    // A writ-core object already orders keys the JavaScript way; it holds each key's slot.
    let mut slots = Object::new();
    let mut values: Vec<Val> = Vec::with_capacity(entries.len());
    for (key, value) in entries {
        match slots.get(&key).and_then(Value::as_number) {
            Some(slot) => {
                if let Some(held) = values.get_mut(slot as usize) {
                    *held = value;
                }
            }
            None => {
                slots.insert(key, Value::Number(values.len() as f64));
                values.push(value);
            }
        }
    }
    slots
        .iter()
        .filter_map(|(key, slot)| {
            let value = values.get(slot.as_number()? as usize)?;
            Some((key.clone(), value.clone()))
        })
        .collect()
}
