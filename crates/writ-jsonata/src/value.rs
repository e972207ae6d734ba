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

    /// [`Val::to_value`] of a value that is data already or no value, taking it rather than
    /// sharing it; a built list or object is converted as `to_value` does.
    pub(crate) fn into_value(self) -> Value {
        if let Some(scalar) = self.scalar_value() {
            self.discard();
            return scalar;
        }
        match self {
            Val::String(s) => Value::String(s),
            Val::Array(a) => Value::Array(a),
            Val::Object(o) => Value::Object(o),
            Val::Function(_) => Value::Undefined,
            built => built.to_value(),
        }
    }

    /// The value of a number, a boolean, `null` or no value, which holds nothing to share or
    /// convert; `None` for anything else.
    #[inline(always)]
    pub(crate) fn scalar_value(&self) -> Option<Value> {
        match self {
            Val::Undefined => Some(Value::Undefined),
            Val::Null => Some(Value::Null),
            Val::Bool(b) => Some(Value::Bool(*b)),
            Val::Number(n) => Some(Value::Number(*n)),
            _ => None,
        }
    }

    /// Drops the value, calling its drop out of line only when it holds something shared: a
    /// scalar, what most operators and tests drop, has nothing to free, but the drop call
    /// cannot see that.
    #[inline(always)]
    pub(crate) fn discard(self) {
        if matches!(self, Val::Undefined | Val::Null | Val::Bool(_) | Val::Number(_)) {
            std::mem::forget(self);
        } else {
            drop(self);
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
#[inline]
pub(crate) fn boolean(value: &Val) -> Option<bool> {
    match value {
        // The answer of a comparison, what `and`, `or` and tests mostly read: no walk to set up.
        Val::Bool(b) => Some(*b),
        _ => Truthiness::default().of(value, false),
    }
}

/// JSONata's truthiness, whose answer for an array is whether any item is truthy at any
/// depth: a list that holds one list many times over (2^60 leaves in sixty lists, built by
/// doubling) is looked into once per list, each nested list's answer kept by its address.
#[derive(Default)]
struct Truthiness {
    known: ByAddress<bool>,
}

impl Truthiness {
    fn of(&mut self, value: &Val, nested: bool) -> Option<bool> {
        Some(match value {
            Val::Undefined => return None,
            Val::Null => false,
            Val::Bool(b) => *b,
            Val::Number(n) => *n != 0.0,
            Val::String(s) => !s.is_empty(),
            Val::Array(_) | Val::List(..) => {
                let address = match value {
                    Val::List(items, _) => Rc::as_ptr(items) as usize,
                    Val::Array(array) => array.as_slice().as_ptr() as usize,
                    _ => 0,
                };
                if nested && let Some(&known) = self.known.get(&address) {
                    return Some(known);
                }
                let items = value.as_array().expect("an array");
                let answer = match items.len() {
                    0 => false,
                    1 => self.deeper(&items.get(0).expect("one item")).unwrap_or(false),
                    _ => items.iter().any(|item| self.deeper(&item) == Some(true)),
                };
                if nested {
                    self.known.insert(address, answer);
                }
                answer
            }
            Val::Object(_) | Val::Record(_) => !value.as_object().expect("an object").is_empty(),
            Val::Function(_) => false,
        })
    }

    fn deeper(&mut self, item: &Val) -> Option<bool> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.of(item, true))
    }
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

/// Deep equality as [`deep_equal`] decides it, walked with an explicit stack and charged one
/// step per pair of values compared, so that neither deep nor large values go unbounded. Two
/// handles on the same container are equal without a walk, so comparing a value built by
/// doubling with itself is one step; two such values built apart are walked pair by pair, and
/// the charge stops them within the budget.
///
/// # Errors
///
/// What `charge` answers.
pub(crate) fn equal_metered(
    lhs: &Val,
    rhs: &Val,
    charge: &mut impl FnMut(u64) -> crate::error::Result<()>,
) -> crate::error::Result<bool> {
    let mut pending = vec![(lhs.clone(), rhs.clone())];
    while let Some((a, b)) = pending.pop() {
        charge(1)?;
        if let (Some(x), Some(y)) = (a.as_array(), b.as_array()) {
            if same_container(&a, &b) {
                continue;
            }
            if x.len() != y.len() {
                return Ok(false);
            }
            pending.extend(x.iter().zip(y.iter()));
        } else if let (Some(x), Some(y)) = (a.as_object(), b.as_object()) {
            if same_container(&a, &b) {
                continue;
            }
            if x.len() != y.len() {
                return Ok(false);
            }
            for (key, value) in x.entries() {
                match y.get(&key) {
                    Some(other) => pending.push((value, other)),
                    None => return Ok(false),
                }
            }
        } else if !deep_equal(&a, &b) {
            // Scalars, functions (equal only to themselves) and values of different kinds: no
            // walk.
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether `a` and `b` are handles on one container (which is then equal to itself: values
/// never change, and no number in one is NaN).
fn same_container(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::List(x, _), Val::List(y, _)) => Rc::ptr_eq(x, y),
        (Val::Record(x), Val::Record(y)) => Rc::ptr_eq(x, y),
        (Val::Array(x), Val::Array(y)) => x.ptr_eq(y),
        (Val::Object(x), Val::Object(y)) => x.ptr_eq(y),
        _ => false,
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

/// A hasher for addresses: they are already spread, so one multiply mixes them enough, where
/// the default hasher would cost more than the rest of a conversion's step.
#[derive(Default, Clone, Copy)]
pub(crate) struct AddressHasher(u64);

impl std::hash::Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(byte)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_usize(&mut self, address: usize) {
        self.0 = (address as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }
}

/// A map keyed by the address of a shared container.
type ByAddress<T> = std::collections::HashMap<usize, T, std::hash::BuildHasherDefault<AddressHasher>>;

/// What [`to_data`] does with a function it meets.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Functions {
    /// Answers `None`: the value must stay a [`Val`] (an object holding it is a [`Val::Record`]).
    Refuse,
    /// Leaves it out as `JSON.stringify` does: out of an object, `null` in an array.
    Drop,
}

/// `value` as writ-core data, charging `charge` one step for every list or object it converts
/// and one for each of its items. A list or object held in several places is converted once
/// and the result shared the same way, so a value built by doubling (sixty levels of `[$a, $a]`)
/// converts in time and memory of its distinct parts, not of the 2^60 paths through it. `None`
/// when a function is met and `functions` refuses it.
///
/// # Errors
///
/// What `charge` answers, and U1007 when memory for the copy cannot be had.
pub(crate) fn to_data(
    value: &Val,
    functions: Functions,
    charge: &mut impl FnMut(u64) -> crate::error::Result<()>,
) -> crate::error::Result<Option<Value>> {
    match value {
        Val::List(..) | Val::Record(_) => {
            let mut converter = Converter {
                converted: ByAddress::default(),
                functions,
                charge,
            };
            converter.convert(value, false)
        }
        Val::Function(_) if functions == Functions::Refuse => Ok(None),
        other => Ok(Some(other.to_value())),
    }
}

/// The state of one [`to_data`].
struct Converter<'c, C> {
    /// What each shared list and object became, by its address (alive for the whole walk, so an
    /// address names one container).
    converted: ByAddress<Value>,
    functions: Functions,
    charge: &'c mut C,
}

impl<C: FnMut(u64) -> crate::error::Result<()>> Converter<'_, C> {
    fn convert(&mut self, value: &Val, in_container: bool) -> crate::error::Result<Option<Value>> {
        let (address, shared, len) = match value {
            Val::List(items, _) => (Rc::as_ptr(items) as usize, Rc::strong_count(items) > 1, items.len()),
            Val::Record(entries) => (
                Rc::as_ptr(entries) as usize,
                Rc::strong_count(entries) > 1,
                entries.len(),
            ),
            Val::Function(_) if self.functions == Functions::Refuse => return Ok(None),
            Val::Function(_) | Val::Undefined if in_container => return Ok(Some(Value::Null)),
            other => return Ok(Some(other.to_value())),
        };
        if shared && let Some(done) = self.converted.get(&address) {
            (self.charge)(1)?;
            return Ok(Some(done.clone()));
        }
        (self.charge)(len as u64 + 1)?;
        let converted = match value {
            Val::List(items, _) => {
                let mut out: Vec<Value> = Vec::new();
                out.try_reserve_exact(items.len()).map_err(|_| out_of_memory())?;
                for item in items.iter() {
                    match self.deeper(item)? {
                        Some(item) => out.push(item),
                        None => return Ok(None),
                    }
                }
                Value::from(out)
            }
            Val::Record(entries) => {
                if self.functions == Functions::Refuse {
                    // A record is an object that holds a function somewhere.
                    return Ok(None);
                }
                let mut out: Vec<(Str, Value)> = Vec::new();
                out.try_reserve_exact(entries.len()).map_err(|_| out_of_memory())?;
                for (key, item) in entries.iter() {
                    if matches!(item, Val::Undefined | Val::Function(_)) {
                        continue;
                    }
                    match self.deeper(item)? {
                        Some(item) => out.push((key.clone(), item)),
                        None => return Ok(None),
                    }
                }
                Value::Object(Object::from_entries(out))
            }
            _ => unreachable!("only containers get here"),
        };
        if shared {
            self.converted.insert(address, converted.clone());
        }
        Ok(Some(converted))
    }

    /// An item of a container, converted on a stack with room to recurse.
    fn deeper(&mut self, item: &Val) -> crate::error::Result<Option<Value>> {
        if matches!(item, Val::List(..) | Val::Record(_)) {
            stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.convert(item, true))
        } else {
            self.convert(item, true)
        }
    }
}

/// A vector with room for `len` items, or U1007 when the allocator refuses the memory: a
/// capacity an expression asks for (with limits a host raised) is an answer, never an abort.
///
/// # Errors
///
/// U1007 when the memory cannot be had.
pub(crate) fn vec_for<T>(len: usize) -> crate::error::Result<Vec<T>> {
    let mut items = Vec::new();
    items.try_reserve_exact(len).map_err(|_| out_of_memory())?;
    Ok(items)
}

/// The error of a copy whose memory the allocator refused.
pub(crate) fn out_of_memory() -> crate::error::Error {
    crate::error::Error::new(crate::error::Code::U1007)
}

/// The size of a value's JSON text: its bytes, and how many values are written in it (a value
/// held in several places is written, and counted, each time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TextSize {
    /// The bytes of the text.
    pub(crate) bytes: u64,
    /// The values written: every scalar, array and object, once per place it is written.
    pub(crate) values: u64,
}

/// How long `value`'s JSON text is as writ-core writes it, or `None` once its bytes pass
/// `limit`; charging `charge` one step per item of each distinct array or object, and a step
/// per eight code units of each string. A container held in several places is measured once,
/// so a value built by doubling is measured in the time of its distinct parts.
///
/// # Errors
///
/// What `charge` answers.
pub(crate) fn json_len(
    value: &Value,
    limit: u64,
    charge: &mut impl FnMut(u64) -> crate::error::Result<()>,
) -> crate::error::Result<Option<TextSize>> {
    let mut measure = Measure {
        measured: ByAddress::default(),
        limit,
        charge,
    };
    measure.len(value)
}

/// An upper bound on the size of `value`'s JSON text, when it holds at most `max_values`
/// values (each place a shared one is written counted); `None` for a larger value. The count of
/// values is exact; a string counts six bytes a code unit (the longest escape), a number the
/// longest a number is written. It reads no text, so a small answer is bounded in a few
/// nanoseconds a value.
pub(crate) fn small_text_bound(value: &Value, max_values: u64) -> Option<TextSize> {
    /// Adds a container's bound, its scalars counted in the loop rather than each by a call.
    fn container(value: &Value, size: &mut TextSize, max_values: u64) -> bool {
        let item = |item: &Value, size: &mut TextSize| {
            if item.is_container() {
                container(item, size, max_values)
            } else {
                size.values += 1;
                size.bytes += scalar_bound(item);
                size.values <= max_values
            }
        };
        size.values += 1;
        if size.values > max_values {
            return false;
        }
        match value {
            Value::Array(items) => {
                size.bytes += 2 + items.len() as u64;
                items.iter().all(|value| item(value, size))
            }
            Value::Object(object) => {
                size.bytes += 2 + object.len() as u64;
                object.iter().all(|(key, value)| {
                    size.bytes += quoted_bound(key) + 1;
                    item(value, size)
                })
            }
            scalar => {
                size.bytes += scalar_bound(scalar);
                true
            }
        }
    }
    let mut size = TextSize { bytes: 0, values: 0 };
    container(value, &mut size, max_values).then_some(size)
}

/// The most bytes a value that is not a container is written in.
fn scalar_bound(value: &Value) -> u64 {
    match value {
        Value::String(text) => quoted_bound(text),
        Value::Number(_) => LONGEST_NUMBER,
        _ => 5,
    }
}

/// The most bytes `text` is written in, quoted: six a code unit (the longest escape).
fn quoted_bound(text: &Str) -> u64 {
    6 * text.len_utf16() as u64 + 2
}

/// The longest text of a number, `-2.2250738585072014e-308`.
const LONGEST_NUMBER: u64 = 24;

/// From how many bytes of text a measured container is kept for its next occurrence.
const MEASURED_KEPT: u64 = 256;

/// The state of one [`json_len`].
struct Measure<'c, C> {
    measured: ByAddress<TextSize>,
    limit: u64,
    charge: &'c mut C,
}

/// Counts the bytes a quoted string takes.
struct QuotedLen(u64);

impl writ_core::js::QuoteSink for QuotedLen {
    fn ascii(&mut self, text: &[u8]) {
        self.0 += text.len() as u64;
    }

    fn char(&mut self, ch: char) {
        self.0 += ch.len_utf8() as u64;
    }
}

impl<C: FnMut(u64) -> crate::error::Result<()>> Measure<'_, C> {
    fn quoted(&mut self, text: &Str) -> crate::error::Result<u64> {
        (self.charge)(text.len_utf16() as u64 / 8 + 1)?;
        let mut counted = QuotedLen(0);
        writ_core::js::quote(&mut counted, text);
        Ok(counted.0)
    }

    fn len(&mut self, value: &Value) -> crate::error::Result<Option<TextSize>> {
        let scalar = |bytes: u64| Ok(Some(TextSize { bytes, values: 1 }));
        let address = match value {
            Value::Undefined | Value::Null => return scalar(4),
            Value::Bool(b) => return scalar(if *b { 4 } else { 5 }),
            // An integer below 10^15 is written digit for digit: its length is a logarithm,
            // not a formatted string.
            Value::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => {
                let digits = u64::from((n.abs() as u64).checked_ilog10().unwrap_or(0)) + 1;
                return scalar(digits + u64::from(*n < 0.0));
            }
            Value::Number(n) if n.is_finite() => return scalar(writ_core::js_number_to_string(*n).len() as u64),
            Value::Number(_) => return scalar(4),
            Value::String(text) => {
                let bytes = self.quoted(text)?;
                return scalar(bytes);
            }
            Value::Array(array) => array.as_slice().as_ptr() as usize,
            Value::Object(object) => object.identity(),
        };
        if !self.measured.is_empty()
            && let Some(&size) = self.measured.get(&address)
        {
            (self.charge)(1)?;
            return Ok(Some(size));
        }
        let mut total = TextSize { bytes: 2, values: 1 };
        let add = |total: &mut TextSize, bytes: u64, size: TextSize| {
            total.bytes = total.bytes.saturating_add(bytes).saturating_add(size.bytes);
            total.values = total.values.saturating_add(size.values);
        };
        match value {
            Value::Array(array) => {
                (self.charge)(array.len() as u64 + 1)?;
                for (i, item) in array.iter().enumerate() {
                    let Some(size) = self.deeper(item)? else {
                        return Ok(None);
                    };
                    // A comma before every item but the first.
                    add(&mut total, u64::from(i > 0), size);
                    if total.bytes > self.limit {
                        return Ok(None);
                    }
                }
            }
            Value::Object(object) => {
                (self.charge)(object.len() as u64 + 1)?;
                let mut written = false;
                for (key, item) in object.iter() {
                    if item.is_undefined() {
                        continue;
                    }
                    let Some(size) = self.deeper(item)? else {
                        return Ok(None);
                    };
                    // `"key":value`, and a comma before every entry but the first.
                    let key = self.quoted(key)? + 1 + u64::from(written);
                    add(&mut total, key, size);
                    written = true;
                    if total.bytes > self.limit {
                        return Ok(None);
                    }
                }
            }
            _ => unreachable!("only containers get here"),
        }
        // Only what is long enough to matter is kept: below that, measuring again costs no
        // more than looking it up, and most answers then keep nothing.
        if total.bytes >= MEASURED_KEPT {
            self.measured.insert(address, total);
        }
        Ok(Some(total))
    }

    /// An item of a container, measured on a stack with room to recurse.
    fn deeper(&mut self, item: &Value) -> crate::error::Result<Option<TextSize>> {
        if item.is_container() {
            stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.len(item))
        } else {
            self.len(item)
        }
    }
}

#[cfg(test)]
mod tests {
    use writ_core::parse_json;

    use super::*;

    fn exact(value: &Value) -> TextSize {
        json_len(value, u64::MAX, &mut |_| Ok(())).unwrap().unwrap()
    }

    #[test]
    fn a_small_texts_bound_is_never_below_its_length() {
        let texts = [
            r#"{"n":-2.2250738585072014e-308,"s":"\u0000\u001f\"\\","list":[null,true,false,[],{}]}"#,
            r#"[1,-0.5,1e21,"é\ud83d\ude00",{"a":{"b":{"c":["x"]}}}]"#,
            r#"{"OrderID":"order103","Total":90.57000000000001}"#,
        ];
        for text in texts {
            let value = parse_json(text).unwrap();
            let bound = small_text_bound(&value, 64).unwrap();
            let exact = exact(&value);
            assert_eq!(bound.values, exact.values, "{text}");
            assert!(bound.bytes >= exact.bytes, "{text}: {} < {}", bound.bytes, exact.bytes);
            assert!(exact.bytes >= text.len() as u64 / 2, "{text}");
        }
    }

    #[test]
    fn a_value_of_empty_lists_held_many_times_over_has_no_bound() {
        let mut doubled = Value::from(Vec::new());
        for _ in 0..60 {
            doubled = Value::from(vec![doubled.clone(), doubled]);
        }
        assert_eq!(small_text_bound(&doubled, 256), None);
    }

    #[test]
    fn a_larger_value_has_no_bound() {
        let value = parse_json(&format!("[{}0]", "0,".repeat(300))).unwrap();
        assert_eq!(small_text_bound(&value, 256), None);
        assert_eq!(small_text_bound(&value, 302).map(|size| size.values), Some(302));
    }
}
