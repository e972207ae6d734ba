//! `Object`: a shared, ordered map from [`Str`] keys to [`Value`]s, in JavaScript's key order.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::BuildHasher;
use std::sync::OnceLock;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use triomphe::{Arc, HeaderSliceWithLengthProtected, ThinArc};

use crate::js::array_index;
use crate::str::{ascii_tag, tag_is_whole, wide_prefix_tag};
use crate::{Str, Value};

/// Key lists with more keys than this get a hash index beside their slots.
const INDEX_THRESHOLD: usize = 12;

/// An immutable, reference-counted JSON object.
///
/// Entries keep JavaScript's own-property order, which every reference implementation behind
/// writ's languages exposes: keys that are array indices (`"0"`, `"17"`, up to 4294967294)
/// come first in ascending numeric order, then every other key in insertion order. An object
/// read from JSON text therefore writes back in the order `JSON.stringify(JSON.parse(text))`
/// would give.
///
/// An object is one allocation holding its values, which points at a list of its keys. Objects
/// read from JSON with the same keys in the same order, such as the rows of a table, share one
/// key list, so a lookup row after row compares keys that are already in cache and touches
/// only the row's own values. Small key lists are searched linearly, which beats hashing for
/// the handful of keys typical rows have; larger ones add a hash index. Cloning is a
/// reference-count increment; the `insert` and `remove` methods copy the values (and the keys,
/// when another object shares them) first when the object is shared (copy on write), and leave
/// spare room so that building an object key by key takes amortised constant time per key.
///
/// # Example
///
/// ```
/// use writ_core::{Object, Value};
///
/// let mut row = Object::new();
/// row.insert("name".into(), Value::from("Mug"));
/// row.insert("2".into(), Value::from(2.0));
/// row.insert("1".into(), Value::from(1.0));
/// let keys: Vec<String> = row.keys().map(|key| key.to_string()).collect();
/// assert_eq!(keys, ["1", "2", "name"]);
/// assert_eq!(row.get_str("name"), Some(&Value::from("Mug")));
/// ```
#[derive(Clone)]
pub struct Object(
    // The values, in key order; slots past the key list's length are spare room for `insert`
    // and hold `undefined`.
    ThinArc<Keys, Value>,
);

/// The keys of an object, in order, shared by the objects that have the same keys in the same
/// order.
#[derive(Clone)]
pub(crate) struct Keys(ThinArc<KeysHeader, KeySlot>);

struct KeysHeader {
    /// Slots in use; the rest are spare room.
    len: usize,
    /// How many leading keys are array indices.
    n_index_keys: usize,
    /// True only when every key is ASCII without `"`, `\` and control characters, which JSON
    /// text spells byte for byte: the reader then matches keys in place and the writer copies
    /// them. False is always safe.
    plain: bool,
    /// Present once the list is long.
    index: Option<Box<Index>>,
}

#[derive(Default)]
struct KeySlot {
    /// [`Str::tag`] of `key`: compared before the key itself, so a lookup rarely leaves the
    /// slots.
    tag: u64,
    /// `None` only in the spare slots.
    key: Option<Str>,
}

impl KeySlot {
    fn new(key: Str) -> KeySlot {
        KeySlot {
            tag: key.tag(),
            key: Some(key),
        }
    }

    fn cloned(&self) -> KeySlot {
        KeySlot {
            tag: self.tag,
            key: self.key.clone(),
        }
    }
}

impl Drop for Object {
    /// Takes nested containers apart one level at a time (`value::dismantle`), so dropping never recurses.
    fn drop(&mut self) {
        // A shared object is only released here, never taken apart. Its values are taken out
        // when any is a container, shared or not: `{a: x, b: x}` may hold the last two
        // references to `x`.
        if self.is_unique() && self.value_slice().iter().any(Value::is_container) {
            let mut pending = Vec::new();
            self.take_unshared_values(&mut pending);
            crate::value::dismantle(pending);
        }
    }
}

/// Key position by hash: open addressing with linear probing over positions plus one (zero
/// is empty), at most half full. The hash is keyed per index, so crafted keys cannot make
/// every lookup probe the whole table.
struct Index {
    hasher: RandomState,
    table: Box<[usize]>,
}

impl Index {
    fn build(slots: &[KeySlot]) -> Index {
        let mut index = Index {
            hasher: RandomState::new(),
            table: vec![0; (slots.len() * 2).next_power_of_two()].into_boxed_slice(),
        };
        for position in 0..slots.len() {
            index.put(slots, position);
        }
        index
    }

    fn home(&self, bytes: &[u8]) -> usize {
        self.hasher.hash_one(bytes) as usize & (self.table.len() - 1)
    }

    /// Records the key at `position`, which must not be recorded yet.
    fn put(&mut self, slots: &[KeySlot], position: usize) {
        let Some(key) = slots.get(position).and_then(|slot| slot.key.as_ref()) else {
            return;
        };
        let mask = self.table.len() - 1;
        let mut at = self.home(key.bytes());
        while self.table[at] != 0 {
            at = (at + 1) & mask;
        }
        self.table[at] = position + 1;
    }

    /// Records the key at `position`, the last of `slots`, growing the table as needed.
    fn push(&mut self, slots: &[KeySlot], position: usize) {
        if (position + 1) * 2 > self.table.len() {
            *self = Index::build(slots);
        } else {
            self.put(slots, position);
        }
    }

    /// The position of the key with these stored bytes for which `is_key` holds.
    fn find(&self, slots: &[KeySlot], bytes: &[u8], is_key: impl Fn(&KeySlot) -> bool) -> Option<usize> {
        let mask = self.table.len() - 1;
        let mut at = self.home(bytes);
        loop {
            let position = self.table[at].checked_sub(1)?;
            if slots.get(position).is_some_and(&is_key) {
                return Some(position);
            }
            at = (at + 1) & mask;
        }
    }
}

/// An iterator with a known length, which `ThinArc` needs to allocate once.
struct Exact<I> {
    inner: I,
    remaining: usize,
}

impl<I: Iterator> Exact<I> {
    fn new(inner: I, len: usize) -> Exact<I> {
        Exact { inner, remaining: len }
    }
}

impl<I: Iterator> Iterator for Exact<I> {
    type Item = I::Item;

    #[inline]
    fn next(&mut self) -> Option<I::Item> {
        let item = self.inner.next()?;
        self.remaining -= 1;
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<I: Iterator> ExactSizeIterator for Exact<I> {}

/// Runs `edit` on the contents of `arc` if no one else holds it.
fn with_unique<H, T, R>(
    arc: &mut ThinArc<H, T>,
    edit: impl FnOnce(&mut HeaderSliceWithLengthProtected<H, T>) -> R,
) -> Option<R> {
    arc.with_arc_mut(|arc| Arc::get_mut(arc).map(edit))
}

/// The capacity for a buffer of `len` that needs room for `spare` more.
///
/// A copy of a shared buffer gets exactly that, for the common "copy and add a field"; a
/// buffer that is already this object's own, or empty, grows geometrically, so that adding
/// keys one by one takes amortised constant time.
fn new_capacity(len: usize, spare: usize, own: bool) -> usize {
    if own || len == 0 {
        (len + len / 2).max(len + spare).max(4)
    } else {
        len + spare
    }
}

/// True when JSON text spells `key` byte for byte, with no escapes.
fn is_plain(key: &Str) -> bool {
    key.ascii_bytes()
        .is_some_and(|bytes| bytes.iter().all(|&byte| byte >= 0x20 && byte != b'"' && byte != b'\\'))
}

/// True when `keys` are already in JavaScript's order as they stand: no array indices and no
/// key twice.
pub(crate) fn keys_are_simple(keys: &[Str]) -> bool {
    if keys.iter().any(|key| array_index(key).is_some()) {
        return false;
    }
    if keys.len() > INDEX_THRESHOLD {
        let mut seen = HashSet::with_capacity(keys.len());
        return keys.iter().all(|key| seen.insert(key));
    }
    // Comparing tags first makes the quadratic scan cheap for the few keys it sees.
    keys.iter().enumerate().all(|(idx, key)| {
        let tag = key.tag();
        keys[..idx].iter().all(|earlier| earlier.tag() != tag || earlier != key)
    })
}

impl Keys {
    fn empty() -> Keys {
        static EMPTY: OnceLock<Keys> = OnceLock::new();
        EMPTY.get_or_init(|| Keys::from_slots(0, std::iter::empty())).clone()
    }

    /// A key list of the slots `slots`, which are in order and distinct, `n_index_keys` of them
    /// array indices at the front.
    fn from_slots(n_index_keys: usize, slots: impl ExactSizeIterator<Item = KeySlot>) -> Keys {
        let header = KeysHeader {
            len: slots.len(),
            n_index_keys,
            plain: false,
            index: None,
        };
        let mut keys = Keys(ThinArc::from_header_and_iter(header, slots));
        with_unique(&mut keys.0, |data| {
            let slots = data.slice();
            let plain = slots.iter().all(|slot| slot.key.as_ref().is_some_and(is_plain));
            let index = (slots.len() > INDEX_THRESHOLD).then(|| Box::new(Index::build(slots)));
            let header = data.header_mut();
            header.plain = plain;
            header.index = index;
        });
        keys
    }

    /// An empty key list with room for `capacity` keys.
    fn with_capacity(capacity: usize) -> Keys {
        let header = KeysHeader {
            len: 0,
            n_index_keys: 0,
            plain: true,
            index: None,
        };
        let slots = std::iter::repeat_with(KeySlot::default).take(capacity);
        Keys(ThinArc::from_header_and_iter(header, Exact::new(slots, capacity)))
    }

    /// A key list of `keys`, which [`keys_are_simple`] accepted.
    pub(crate) fn from_simple(keys: impl ExactSizeIterator<Item = Str>) -> Keys {
        Keys::from_slots(0, keys.map(KeySlot::new))
    }

    #[inline]
    fn header(&self) -> &KeysHeader {
        &self.0.header.header
    }

    /// The number of keys.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.header().len
    }

    /// See [`KeysHeader::plain`].
    #[inline]
    pub(crate) fn is_plain(&self) -> bool {
        self.header().plain
    }

    #[inline]
    fn slots(&self) -> &[KeySlot] {
        &self.0.slice[..self.len()]
    }

    /// The key at `position`.
    #[inline]
    pub(crate) fn get(&self, position: usize) -> Option<&Str> {
        self.slots().get(position)?.key.as_ref()
    }

    /// The key at `position` and its tag.
    #[inline]
    pub(crate) fn get_tagged(&self, position: usize) -> Option<(u64, &Str)> {
        let slot = self.slots().get(position)?;
        Some((slot.tag, slot.key.as_ref()?))
    }

    /// The keys in order.
    #[inline]
    pub(crate) fn iter(&self) -> KeyIter<'_> {
        KeyIter(self.slots().iter())
    }

    /// True when both are the same list.
    #[inline]
    pub(crate) fn ptr_eq(&self, other: &Keys) -> bool {
        std::ptr::eq(self.0.ptr(), other.0.ptr())
    }

    /// True when the list is exactly `keys`, in order.
    pub(crate) fn equals(&self, keys: &[Str]) -> bool {
        self.len() == keys.len()
            && self
                .slots()
                .iter()
                .zip(keys)
                .all(|(slot, key)| slot.tag == key.tag() && slot.key.as_ref() == Some(key))
    }

    #[inline]
    fn position(&self, key: &Str) -> Option<usize> {
        if let Some(index) = &self.header().index {
            return self.position_indexed(index, key);
        }
        let tag = key.tag();
        let slots = self.slots();
        if tag_is_whole(tag) {
            slots.iter().position(|slot| slot.tag == tag)
        } else {
            slots
                .iter()
                .position(|slot| slot.tag == tag && slot.key.as_ref() == Some(key))
        }
    }

    #[inline]
    fn position_str(&self, key: &str) -> Option<usize> {
        if let Some(index) = &self.header().index {
            return self.position_indexed_str(index, key);
        }
        let slots = self.slots();
        if key.is_ascii() {
            let tag = ascii_tag(key.as_bytes());
            // A short ASCII key is its tag, so the tag alone decides.
            if key.len() <= 7 {
                return slots.iter().position(|slot| slot.tag == tag);
            }
            return slots
                .iter()
                .position(|slot| slot.tag == tag && slot.key.as_ref().is_some_and(|known| known.eq_str(key)));
        }
        // A Rust string has no lone surrogates, so its wide form is well formed.
        let tag = wide_prefix_tag(key.encode_utf16(), key.encode_utf16().count(), true);
        slots
            .iter()
            .position(|slot| slot.tag == tag && slot.key.as_ref().is_some_and(|known| known.eq_str(key)))
    }

    // The indexed lookups stay out of line, so that the linear scan, which rows of a table
    // take, inlines small.
    #[inline(never)]
    fn position_indexed(&self, index: &Index, key: &Str) -> Option<usize> {
        let tag = key.tag();
        index.find(self.slots(), key.bytes(), |slot| {
            slot.tag == tag && slot.key.as_ref() == Some(key)
        })
    }

    #[inline(never)]
    fn position_indexed_str(&self, index: &Index, key: &str) -> Option<usize> {
        if !key.is_ascii() {
            return self.position_indexed(index, &Str::from(key));
        }
        let tag = ascii_tag(key.as_bytes());
        index.find(self.slots(), key.as_bytes(), |slot| {
            slot.tag == tag && slot.key.as_ref().is_some_and(|known| known.eq_str(key))
        })
    }

    /// Where a new `key` goes: after the array indices below it when it is one, else last.
    fn insertion_point(&self, key: &Str) -> (usize, bool) {
        match array_index(key) {
            Some(number) => {
                let indices = &self.slots()[..self.header().n_index_keys];
                let at = indices.partition_point(|slot| slot.key.as_ref().and_then(array_index) < Some(number));
                (at, true)
            }
            None => (self.len(), false),
        }
    }

    /// Makes this list unshared with room for `spare` more keys, copying it when needed.
    fn reserve(&mut self, spare: usize) {
        let len = self.len();
        let capacity = self.0.slice.len();
        let unique = ThinArc::strong_count(&self.0) == 1;
        if unique && capacity >= len + spare {
            return;
        }
        let header = self.header();
        let (n_index_keys, plain) = (header.n_index_keys, header.plain);
        let new_capacity = new_capacity(len, spare, unique);
        let header = KeysHeader {
            len,
            n_index_keys,
            plain,
            index: None,
        };
        // Filled with spare slots first and then given the keys, which moves them as whole
        // slices rather than one by one through an iterator.
        let spares = std::iter::repeat_with(KeySlot::default).take(new_capacity);
        let mut grown = ThinArc::from_header_and_iter(header, Exact::new(spares, new_capacity));
        let filled = with_unique(&mut grown, |fresh| {
            let moved = with_unique(&mut self.0, |data| {
                fresh.slice_mut()[..len].swap_with_slice(&mut data.slice_mut()[..len]);
                data.header_mut().index.take()
            });
            let index = match moved {
                Some(index) => index,
                None => {
                    for (slot, known) in fresh.slice_mut()[..len].iter_mut().zip(self.slots()) {
                        *slot = known.cloned();
                    }
                    (len > INDEX_THRESHOLD).then(|| Box::new(Index::build(self.slots())))
                }
            };
            fresh.header_mut().index = index;
        });
        debug_assert!(filled.is_some(), "a new key list is unshared");
        self.0 = grown;
    }

    /// Puts the new `key` at `at`, as [`Keys::insertion_point`] chose.
    fn insert(&mut self, at: usize, key: Str, is_index: bool) {
        self.reserve(1);
        let plain = is_plain(&key);
        let done = with_unique(&mut self.0, |data| {
            let len = data.header().len;
            let slots = &mut data.slice_mut()[at..=len];
            slots[len - at] = KeySlot::new(key);
            slots.rotate_right(1);
            let header = data.header_mut();
            header.len = len + 1;
            header.n_index_keys += usize::from(is_index);
            header.plain &= plain;
            let index = header.index.take();
            let slots = &data.slice()[..=len];
            let index = match index {
                Some(mut index) if at == len => {
                    index.push(slots, len);
                    Some(index)
                }
                _ if len + 1 > INDEX_THRESHOLD => Some(Box::new(Index::build(slots))),
                _ => None,
            };
            data.header_mut().index = index;
        });
        debug_assert!(done.is_some(), "reserve leaves the key list unshared");
    }

    /// Removes the key at `position`.
    fn remove(&mut self, position: usize) {
        self.reserve(0);
        let done = with_unique(&mut self.0, |data| {
            let len = data.header().len;
            let slots = &mut data.slice_mut()[position..len];
            slots.rotate_left(1);
            let removed = std::mem::take(&mut slots[len - position - 1]);
            let header = data.header_mut();
            header.len = len - 1;
            if removed.key.as_ref().and_then(array_index).is_some() {
                header.n_index_keys -= 1;
            }
            header.index = None;
            if len - 1 > INDEX_THRESHOLD {
                let index = Index::build(&data.slice()[..len - 1]);
                data.header_mut().index = Some(Box::new(index));
            }
        });
        debug_assert!(done.is_some(), "reserve leaves the key list unshared");
    }
}

/// The keys of a key list, in order.
pub(crate) struct KeyIter<'a>(std::slice::Iter<'a, KeySlot>);

impl<'a> Iterator for KeyIter<'a> {
    type Item = &'a Str;

    #[inline]
    fn next(&mut self) -> Option<&'a Str> {
        self.0.next()?.key.as_ref()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for KeyIter<'_> {}

impl Default for Object {
    fn default() -> Object {
        // A fresh allocation, not a shared empty object: `ptr_eq` is identity, and two objects
        // made apart must not be one (`{} === {}` is false).
        Object(ThinArc::from_header_and_iter(Keys::empty(), std::iter::empty()))
    }
}

impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object::default()
    }

    /// An empty object with room for `capacity` entries.
    pub fn with_capacity(capacity: usize) -> Object {
        Object(ThinArc::from_header_and_iter(
            Keys::with_capacity(capacity),
            Exact::new(std::iter::repeat_with(|| Value::Undefined).take(capacity), capacity),
        ))
    }

    /// An object with the keys `keys` and the values `values`, one per key, in order.
    pub(crate) fn from_keys(keys: Keys, values: impl ExactSizeIterator<Item = Value>) -> Object {
        debug_assert_eq!(keys.len(), values.len());
        Object(ThinArc::from_header_and_iter(keys, values))
    }

    /// [`Object::from_keys`] with the values moved out of `values`, which are left `undefined`.
    pub(crate) fn from_keys_taking(keys: Keys, values: &mut [Value]) -> Object {
        debug_assert_eq!(keys.len(), values.len());
        // Filled with `undefined` first and then given the values as a whole slice, which
        // compiles to plain copies where an iterator moves them one by one.
        let len = values.len();
        let mut object = ThinArc::from_header_and_iter(
            keys,
            Exact::new(std::iter::repeat_with(|| Value::Undefined).take(len), len),
        );
        let filled = with_unique(&mut object, |fresh| fresh.slice_mut().swap_with_slice(values));
        debug_assert!(filled.is_some(), "a new object is unshared");
        Object(object)
    }

    /// The key list.
    #[inline]
    pub(crate) fn key_list(&self) -> &Keys {
        &self.0.header.header
    }

    /// The values in key order.
    #[inline]
    pub(crate) fn is_unique(&self) -> bool {
        ThinArc::strong_count(&self.0) == 1
    }

    /// The values in key order, as a slice.
    #[inline]
    pub fn value_slice(&self) -> &[Value] {
        &self.0.slice[..self.len()]
    }

    /// Moves the values into `pending` when no one else holds this object, leaving
    /// `undefined` behind; see [`crate::value::dismantle`].
    pub(crate) fn take_unshared_values(&mut self, pending: &mut Vec<Value>) {
        let len = self.len();
        with_unique(&mut self.0, |data| {
            pending.extend(data.slice_mut()[..len].iter_mut().map(std::mem::take));
        });
    }

    /// The number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.key_list().len()
    }

    /// True when the object has no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value under `key`.
    #[inline]
    pub fn get(&self, key: &Str) -> Option<&Value> {
        let position = self.key_list().position(key)?;
        self.0.slice.get(position)
    }

    /// The value under the key spelled `key`.
    #[inline]
    pub fn get_str(&self, key: &str) -> Option<&Value> {
        let position = self.key_list().position_str(key)?;
        self.0.slice.get(position)
    }

    /// The value under `key`, looked for first where the key was found last: a read that runs
    /// over many objects of one shape, rows of a table, takes no scan.
    #[inline]
    pub fn get_hinted(&self, key: &HintedKey) -> Option<&Value> {
        let keys = self.key_list();
        let guess = key.position.load(Relaxed) as usize;
        // The hint is only a guess: the slot's key decides, so a hint from another shape, or
        // from another thread, finds the right value or none.
        if let Some(slot) = keys.slots().get(guess)
            && slot.tag == key.tag
            && (tag_is_whole(key.tag) || slot.key.as_ref() == Some(&key.key))
        {
            return self.0.slice.get(guess);
        }
        let position = keys.position(&key.key)?;
        key.position.store(u32::try_from(position).unwrap_or(u32::MAX), Relaxed);
        self.0.slice.get(position)
    }

    /// True when `key` is present.
    pub fn contains_key(&self, key: &Str) -> bool {
        self.key_list().position(key).is_some()
    }

    /// Makes this object unshared with room for `spare` more values, copying it when needed.
    fn reserve(&mut self, spare: usize) {
        let len = self.len();
        let capacity = self.0.slice.len();
        let unique = ThinArc::strong_count(&self.0) == 1;
        if unique && capacity >= len + spare {
            return;
        }
        let new_capacity = new_capacity(len, spare, unique);
        // Filled with `undefined` first and then given the values, which moves them as whole
        // slices rather than one by one through an iterator.
        let spares = std::iter::repeat_with(|| Value::Undefined).take(new_capacity);
        let mut grown = ThinArc::from_header_and_iter(self.key_list().clone(), Exact::new(spares, new_capacity));
        let filled = with_unique(&mut grown, |fresh| {
            let fresh = &mut fresh.slice_mut()[..len];
            if with_unique(&mut self.0, |data| fresh.swap_with_slice(&mut data.slice_mut()[..len])).is_none() {
                fresh.clone_from_slice(self.value_slice());
            }
        });
        debug_assert!(filled.is_some(), "a new object is unshared");
        self.0 = grown;
    }

    /// Sets `key` to `value` and returns the value it replaces.
    ///
    /// A replaced key keeps its position; a new key goes where JavaScript would put it.
    pub fn insert(&mut self, key: Str, value: Value) -> Option<Value> {
        if let Some(position) = self.key_list().position(&key) {
            self.reserve(0);
            return with_unique(&mut self.0, |data| {
                std::mem::replace(&mut data.slice_mut()[position], value)
            });
        }
        let (at, is_index) = self.key_list().insertion_point(&key);
        let len = self.len();
        self.reserve(1);
        let done = with_unique(&mut self.0, |data| {
            let values = &mut data.slice_mut()[at..=len];
            values[len - at] = value;
            values.rotate_right(1);
            data.header_mut().insert(at, key, is_index);
        });
        debug_assert!(done.is_some(), "reserve leaves the object unshared");
        None
    }

    /// Removes `key` and returns its value.
    pub fn remove(&mut self, key: &Str) -> Option<Value> {
        let position = self.key_list().position(key)?;
        let len = self.len();
        self.reserve(0);
        with_unique(&mut self.0, |data| {
            let values = &mut data.slice_mut()[position..len];
            values.rotate_left(1);
            let removed = std::mem::take(&mut values[len - position - 1]);
            data.header_mut().remove(position);
            removed
        })
    }

    /// The entries in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&Str, &Value)> + '_ {
        self.key_list().iter().zip(self.value_slice())
    }

    /// The keys in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &Str> + '_ {
        self.key_list().iter()
    }

    /// The values in key order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Value> + '_ {
        self.value_slice().iter()
    }

    /// True when both handles point at the same allocation.
    pub fn ptr_eq(&self, other: &Object) -> bool {
        std::ptr::eq(self.0.ptr(), other.0.ptr())
    }

    /// This object's shape: its keys in order, shared with (not copied into) the objects built
    /// from it with [`Shape::build`], as a deep copy builds them.
    ///
    /// ```
    /// use writ_core::{Value, parse_json};
    ///
    /// let original = parse_json(r#"{"b": 1, "a": 2}"#)?;
    /// let object = original.as_object().unwrap();
    /// let copy = object.shape().build([Value::from(3.0), Value::from(4.0)].into_iter());
    /// assert_eq!(Value::Object(copy.clone()).to_json_string().unwrap(), r#"{"b":3,"a":4}"#);
    /// assert!(!copy.ptr_eq(object), "a fresh object");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shape(&self) -> Shape {
        Shape(self.key_list().clone())
    }

    /// A number that tells this object from every other object alive at the same time (its
    /// address): engines that edit a tree in place by identity, as JSONata's transform does,
    /// key their edits on it.
    pub fn identity(&self) -> usize {
        self.0.ptr() as *const u8 as usize
    }
}

/// A key read again and again, as a compiled property read (`row.price`) is: it keeps the
/// key's tag and the position the key was last found at, for [`Object::get_hinted`].
pub struct HintedKey {
    key: Str,
    tag: u64,
    position: AtomicU32,
}

impl HintedKey {
    /// A hint for `key`, with no position known yet.
    pub fn new(key: Str) -> HintedKey {
        HintedKey {
            tag: key.tag(),
            key,
            position: AtomicU32::new(0),
        }
    }

    /// The key.
    #[inline]
    pub fn key(&self) -> &Str {
        &self.key
    }
}

impl Clone for HintedKey {
    fn clone(&self) -> HintedKey {
        HintedKey {
            key: self.key.clone(),
            tag: self.tag,
            position: AtomicU32::new(self.position.load(Relaxed)),
        }
    }
}

impl fmt::Debug for HintedKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.key, f)
    }
}

impl Object {
    /// Builds an object from entries in one pass, as the JSON reader does: repeated keys keep
    /// their first position and last value, and array-index keys move to the front.
    pub fn from_entries(entries: Vec<(Str, Value)>) -> Object {
        let (keys, values): (Vec<Str>, Vec<Value>) = entries.into_iter().unzip();
        Object::from_read_order(keys.into_iter(), values.into_iter())
    }

    /// [`Object::from_entries`] with the keys and values apart, one value per key.
    pub(crate) fn from_read_order(
        keys: impl ExactSizeIterator<Item = Str> + AsRef<[Str]>,
        values: impl ExactSizeIterator<Item = Value>,
    ) -> Object {
        if keys_are_simple(keys.as_ref()) {
            // The common case: a few distinct, non-index keys, already in order.
            return Object::from_keys(Keys::from_simple(keys), values);
        }
        let large = keys.len() > INDEX_THRESHOLD;
        let mut built: Vec<(Str, Value)> = Vec::with_capacity(keys.len());
        let mut n_index_keys = 0;
        let mut seen: HashMap<Str, usize> = HashMap::new();
        for (key, value) in keys.zip(values) {
            let existing = if large {
                seen.get(&key).copied()
            } else {
                let tag = key.tag();
                built
                    .iter()
                    .position(|(earlier, _)| earlier.tag() == tag && *earlier == key)
            };
            match existing {
                Some(position) => built[position].1 = value,
                None => {
                    if array_index(&key).is_some() {
                        n_index_keys += 1;
                    }
                    if large {
                        seen.insert(key.clone(), built.len());
                    }
                    built.push((key, value));
                }
            }
        }
        if n_index_keys > 0 {
            // Stable: the other keys keep their insertion order behind the indices.
            built.sort_by_key(|(key, _)| array_index(key).map_or(u64::MAX, u64::from));
        }
        let (keys, values): (Vec<Str>, Vec<Value>) = built.into_iter().unzip();
        let keys = Keys::from_slots(n_index_keys, keys.into_iter().map(KeySlot::new));
        Object::from_keys(keys, values.into_iter())
    }
}

/// A key list prepared once and shared by every object built from it: the static keys of an
/// object literal, the columns of a table. Building from a shape allocates the object alone.
///
/// ```
/// use writ_core::{Shape, Str, Value};
///
/// let shape = Shape::new(&[Str::from("id"), Str::from("name")]).expect("distinct keys, no indices");
/// let row = shape.build([Value::from(7.0), Value::from("Ada")].into_iter());
/// assert_eq!(row.get_str("name"), Some(&Value::from("Ada")));
/// ```
#[derive(Clone)]
pub struct Shape(Keys);

impl Shape {
    /// The shape of objects with exactly `keys`, in this order; `None` when a key repeats or is
    /// an array index (JavaScript would reorder those), so the order as written is the order
    /// JavaScript gives.
    pub fn new(keys: &[Str]) -> Option<Shape> {
        keys_are_simple(keys).then(|| Shape(Keys::from_simple(keys.iter().cloned())))
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when the shape has no keys.
    pub fn is_empty(&self) -> bool {
        self.0.len() == 0
    }

    /// An object with this shape's keys and `values`, one per key, in key order.
    ///
    /// # Panics
    ///
    /// When `values` does not yield exactly one value per key: a caller's bug, not data's.
    pub fn build(&self, values: impl ExactSizeIterator<Item = Value>) -> Object {
        assert_eq!(values.len(), self.0.len(), "one value per key of the shape");
        Object::from_keys(self.0.clone(), values)
    }
}

impl std::fmt::Debug for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}

impl FromIterator<(Str, Value)> for Object {
    /// Builds an object; a repeated key keeps its first position and its last value, as in
    /// `JSON.parse`.
    fn from_iter<I: IntoIterator<Item = (Str, Value)>>(entries: I) -> Object {
        Object::from_entries(entries.into_iter().collect())
    }
}

impl PartialEq for Object {
    /// Same entries in the same order, values compared with [`Value`]'s `PartialEq`.
    fn eq(&self, other: &Object) -> bool {
        self.ptr_eq(other)
            || (self.len() == other.len()
                && (self.key_list().ptr_eq(other.key_list()) || self.keys().eq(other.keys()))
                && self.value_slice() == other.value_slice())
    }
}

impl fmt::Debug for Object {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(object: &Object) -> Vec<String> {
        object.keys().map(|key| key.to_string()).collect()
    }

    #[test]
    fn array_index_keys_sort_first() {
        let object: Object = ["b", "10", "a", "2", "01", "4294967295", "4294967294", "-1"]
            .into_iter()
            .map(|key| (Str::from(key), Value::Null))
            .collect();
        assert_eq!(
            keys(&object),
            ["2", "10", "4294967294", "b", "a", "01", "4294967295", "-1"]
        );
    }

    #[test]
    fn a_hinted_key_finds_its_value_whatever_shape_it_last_read() {
        let object = |entries: &[(&str, f64)]| {
            Object::from_entries(
                entries
                    .iter()
                    .map(|(key, value)| (Str::from(*key), Value::from(*value)))
                    .collect(),
            )
        };
        // Same length and first seven bytes: equal tags, told apart only by the key itself.
        let first = object(&[("abcdefgX", 1.0), ("abcdefgY", 2.0)]);
        let swapped = object(&[("abcdefgY", 3.0), ("abcdefgX", 4.0)]);
        let short = object(&[("id", 5.0), ("abcdefgX", 6.0)]);
        let without = object(&[("abcdefgY", 7.0)]);
        let wide = object(&[("é", 8.0), ("abcdefgX", 9.0)]);
        let key = HintedKey::new(Str::from("abcdefgX"));
        let read = |object: &Object| object.get_hinted(&key).and_then(Value::as_number);
        for _ in 0..2 {
            assert_eq!(read(&first), Some(1.0));
            assert_eq!(read(&swapped), Some(4.0));
            assert_eq!(read(&without), None);
            assert_eq!(read(&short), Some(6.0));
            assert_eq!(read(&wide), Some(9.0));
        }
        let wide_key = HintedKey::new(Str::from("é"));
        assert_eq!(wide.get_hinted(&wide_key).and_then(Value::as_number), Some(8.0));
        assert_eq!(short.get_hinted(&wide_key), None);
        assert_eq!(wide.get_hinted(&wide_key).and_then(Value::as_number), Some(8.0));
    }

    #[test]
    fn repeated_key_keeps_first_position_and_last_value() {
        let mut object = Object::new();
        object.insert("a".into(), Value::from(1.0));
        object.insert("b".into(), Value::from(2.0));
        object.insert("a".into(), Value::from(3.0));
        assert_eq!(keys(&object), ["a", "b"]);
        assert_eq!(object.get_str("a"), Some(&Value::from(3.0)));
    }

    #[test]
    fn large_objects_stay_consistent_with_their_index() {
        let mut object = Object::new();
        for idx in 0..100 {
            object.insert(Str::from(format!("k{idx}")), Value::from(idx as f64));
        }
        object.insert("7".into(), Value::Bool(true));
        assert!(object.remove(&Str::from("k50")).is_some());
        assert_eq!(object.len(), 100);
        assert_eq!(object.get_str("k99"), Some(&Value::from(99.0)));
        assert_eq!(object.get_str("7"), Some(&Value::Bool(true)));
        assert_eq!(object.get_str("k50"), None);
        assert_eq!(keys(&object)[0], "7");
    }

    #[test]
    fn bulk_building_agrees_with_inserting() {
        let long = "k".repeat(263);
        let names = [
            "b",
            "10",
            "a",
            "b",
            "2",
            "kkkkkkk",
            long.as_str(),
            "caf\u{e9}",
            "a",
            "0",
        ];
        let entries: Vec<(Str, Value)> = names
            .iter()
            .enumerate()
            .map(|(idx, key)| (Str::from(*key), Value::from(idx as f64)))
            .collect();
        let bulk = Object::from_entries(entries.clone());
        let inserted: Object = entries.into_iter().collect();
        assert_eq!(bulk, inserted);
        assert_eq!(
            keys(&bulk),
            ["0", "2", "10", "b", "a", "kkkkkkk", long.as_str(), "caf\u{e9}"]
        );
        assert_eq!(bulk.get_str("kkkkkkk"), Some(&Value::from(5.0)));
        assert_eq!(bulk.get_str(&long), Some(&Value::from(6.0)));
        assert_eq!(bulk.get_str("caf\u{e9}"), Some(&Value::from(7.0)));
        assert_eq!(bulk.get_str("a"), Some(&Value::from(8.0)));
        let many: Vec<(Str, Value)> = (0..40)
            .map(|idx| (Str::from(format!("key{}", idx % 30)), Value::from(idx)))
            .collect();
        let bulk = Object::from_entries(many.clone());
        assert_eq!(bulk, many.into_iter().collect::<Object>());
        assert_eq!(bulk.len(), 30);
    }

    #[test]
    fn objects_made_apart_are_not_one() {
        assert!(!Object::new().ptr_eq(&Object::new()));
        let value = crate::parse_json("[{}, {}]").expect("valid");
        let rows = value.as_array().expect("an array");
        assert!(
            !rows[0]
                .as_object()
                .expect("an object")
                .ptr_eq(rows[1].as_object().expect("an object"))
        );
        let empty = Object::new();
        assert!(empty.clone().ptr_eq(&empty));
    }

    #[test]
    fn insert_copies_a_shared_object() {
        let mut first = Object::new();
        first.insert("a".into(), Value::Null);
        let shared = first.clone();
        first.insert("b".into(), Value::Null);
        assert_eq!(shared.len(), 1);
        assert_eq!(first.len(), 2);
    }
}

#[cfg(test)]
mod model_tests {
    use super::*;
    use proptest::prelude::*;

    /// The keys the operations draw from: plain, array indices (and near misses), wide, long,
    /// and enough of them to cross the index threshold.
    fn key_pool() -> Vec<String> {
        let mut pool: Vec<String> = [
            "a",
            "b",
            "price",
            "0",
            "1",
            "2",
            "10",
            "01",
            "4294967295",
            "caf\u{e9}",
            "\u{1F600}",
        ]
        .into_iter()
        .map(String::from)
        .collect();
        pool.push("k".repeat(9));
        pool.push("k".repeat(300));
        pool.extend((0..20).map(|idx| format!("key{idx}")));
        pool
    }

    #[derive(Clone, Debug)]
    enum Op {
        Insert(usize, i32),
        Remove(usize),
        Snapshot,
    }

    fn op() -> impl Strategy<Value = Op> {
        let n = key_pool().len();
        prop_oneof![
            4 => (0..n, any::<i32>()).prop_map(|(key, value)| Op::Insert(key, value)),
            1 => (0..n).prop_map(Op::Remove),
            1 => Just(Op::Snapshot),
        ]
    }

    /// JavaScript's own-property order, the plain way: a list kept in order by hand.
    fn model_insert(model: &mut Vec<(String, i32)>, key: &str, value: i32) {
        if let Some(entry) = model.iter_mut().find(|(known, _)| known == key) {
            entry.1 = value;
            return;
        }
        let index = array_index(&Str::from(key));
        let at = match index {
            Some(number) => model
                .iter()
                .position(|(known, _)| array_index(&Str::from(known.as_str())).is_none_or(|other| other > number))
                .unwrap_or(model.len()),
            None => model.len(),
        };
        model.insert(at, (key.to_string(), value));
    }

    fn assert_matches(object: &Object, model: &[(String, i32)], pool: &[String]) {
        let entries: Vec<(String, Value)> = object
            .iter()
            .map(|(key, value)| (key.to_string(), value.clone()))
            .collect();
        let expected: Vec<(String, Value)> = model
            .iter()
            .map(|(key, value)| (key.clone(), Value::from(*value)))
            .collect();
        assert_eq!(entries, expected);
        assert_eq!(object.len(), model.len());
        assert_eq!(object.keys().len(), model.len());
        for key in pool {
            let expected = model
                .iter()
                .find(|(known, _)| known == key)
                .map(|(_, value)| Value::from(*value));
            assert_eq!(object.get_str(key), expected.as_ref(), "get_str {key}");
            assert_eq!(object.get(&Str::from(key.as_str())), expected.as_ref(), "get {key}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        #[test]
        fn operations_agree_with_a_plain_list(start in 0..3usize, ops in prop::collection::vec(op(), 0..80)) {
            let pool = key_pool();
            let mut object = match start {
                0 => Object::new(),
                1 => Object::with_capacity(3),
                _ => Object::with_capacity(40),
            };
            let mut model: Vec<(String, i32)> = Vec::new();
            let mut snapshots: Vec<(Object, Vec<(String, i32)>)> = Vec::new();
            for op in ops {
                match op {
                    Op::Insert(key, value) => {
                        let before = model.iter().find(|(known, _)| *known == pool[key]).map(|(_, value)| Value::from(*value));
                        let replaced = object.insert(Str::from(pool[key].as_str()), Value::from(value));
                        prop_assert_eq!(replaced, before);
                        model_insert(&mut model, &pool[key], value);
                    }
                    Op::Remove(key) => {
                        let before = model.iter().position(|(known, _)| *known == pool[key]).map(|at| Value::from(model.remove(at).1));
                        prop_assert_eq!(object.remove(&Str::from(pool[key].as_str())), before);
                    }
                    Op::Snapshot => snapshots.push((object.clone(), model.clone())),
                }
                assert_matches(&object, &model, &pool);
            }
            // Changing the object never changed a copy taken earlier.
            for (snapshot, model) in &snapshots {
                assert_matches(snapshot, model, &pool);
            }
            // Building in one go agrees with building key by key.
            let rebuilt: Object = object.iter().map(|(key, value)| (key.clone(), value.clone())).collect();
            prop_assert_eq!(&rebuilt, &object);
        }
    }
}
