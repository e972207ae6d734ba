//! `Object`: a shared, ordered map from [`Str`] keys to [`Value`]s, in JavaScript's key order.

use std::collections::HashMap;
use std::fmt;

use triomphe::Arc;

use crate::{Str, Value};

/// Objects with more entries than this get a hash index beside their entry list.
const INDEX_THRESHOLD: usize = 12;

/// An immutable, reference-counted JSON object.
///
/// Entries keep JavaScript's own-property order, which every reference implementation behind
/// writ's languages exposes: keys that are array indices (`"0"`, `"17"`, up to 4294967294)
/// come first in ascending numeric order, then every other key in insertion order. An object
/// read from JSON text therefore writes back in the order `JSON.stringify(JSON.parse(text))`
/// would give.
///
/// Small objects are a vector of entries searched linearly, which beats hashing for the
/// handful of keys typical rows have; larger objects add a hash index. Cloning is a
/// reference-count increment; the `insert` and `remove` methods copy the entries first when
/// the object is shared (copy on write).
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
#[derive(Clone, Default)]
pub struct Object(Arc<ObjectData>);

#[derive(Clone, Default)]
struct ObjectData {
    entries: Vec<Entry>,
    /// How many leading entries have array-index keys.
    n_index_keys: usize,
    /// Key to entry position, present once the object is large.
    index: Option<HashMap<Str, usize>>,
}

#[derive(Clone)]
pub(crate) struct Entry {
    pub(crate) key: Str,
    /// [`key_tag`] of `key`: compared before the key itself, so a lookup rarely leaves the
    /// entry vector.
    pub(crate) tag: u64,
    pub(crate) value: Value,
}

impl Entry {
    pub(crate) fn new(key: Str, value: Value) -> Entry {
        Entry {
            tag: key_tag(&key),
            key,
            value,
        }
    }
}

/// A summary of a key that equal keys share. For an ASCII key of up to seven bytes it is the
/// whole key (length in the low byte, bytes above), so equal tags mean equal keys; wide keys
/// set the top bit, which ASCII bytes never do.
#[inline]
fn key_tag(key: &Str) -> u64 {
    if let Some(bytes) = key.ascii_bytes() {
        return bytes_tag(bytes);
    }
    let mut tag = key.len_utf16().min(255) as u64;
    {
        for (idx, unit) in key.code_units().take(3).enumerate() {
            tag |= u64::from(unit) << (8 + 16 * idx);
        }
        tag |= 1 << 63;
    }
    tag
}

/// [`key_tag`] of the key spelled `key`, without building a `Str`; `None` when not ASCII.
#[inline]
fn ascii_tag(key: &str) -> Option<u64> {
    key.is_ascii().then(|| bytes_tag(key.as_bytes()))
}

#[inline]
fn bytes_tag(bytes: &[u8]) -> u64 {
    let mut head = [0u8; 8];
    let n = bytes.len().min(7);
    head[1..=n].copy_from_slice(&bytes[..n]);
    head[0] = bytes.len().min(255) as u8;
    u64::from_le_bytes(head)
}

/// Parses `key` as a JavaScript array index: a canonical decimal below 2^32 - 1.
pub(crate) fn array_index(key: &Str) -> Option<u32> {
    let bytes = key.ascii_bytes()?;
    if bytes.is_empty() || bytes.len() > 10 || (bytes.len() > 1 && bytes[0] == b'0') {
        return None;
    }
    let mut number: u64 = 0;
    for &byte in bytes {
        if !byte.is_ascii_digit() {
            return None;
        }
        number = number * 10 + u64::from(byte - b'0');
    }
    if number < u64::from(u32::MAX) {
        Some(number as u32)
    } else {
        None
    }
}

impl ObjectData {
    fn position(&self, key: &Str) -> Option<usize> {
        if let Some(index) = &self.index {
            return index.get(key).copied();
        }
        let tag = key_tag(key);
        self.entries
            .iter()
            .position(|entry| entry.tag == tag && &entry.key == key)
    }

    fn position_str(&self, key: &str) -> Option<usize> {
        match ascii_tag(key) {
            Some(_) if self.index.is_some() => self.position(&Str::from(key)),
            // A short ASCII key is its tag, so the tag alone decides.
            Some(tag) if key.len() <= 7 => self.entries.iter().position(|entry| entry.tag == tag),
            Some(tag) => self
                .entries
                .iter()
                .position(|entry| entry.tag == tag && entry.key.eq_str(key)),
            None => self.entries.iter().position(|entry| entry.key.eq_str(key)),
        }
    }

    fn rebuild_index(&mut self) {
        if self.entries.len() > INDEX_THRESHOLD {
            let index = self
                .entries
                .iter()
                .enumerate()
                .map(|(position, entry)| (entry.key.clone(), position))
                .collect();
            self.index = Some(index);
        } else {
            self.index = None;
        }
    }

    fn insert(&mut self, key: Str, value: Value) -> Option<Value> {
        if let Some(position) = self.position(&key) {
            return Some(std::mem::replace(&mut self.entries[position].value, value));
        }
        let tag = key_tag(&key);
        match array_index(&key) {
            Some(number) => {
                let at =
                    self.entries[..self.n_index_keys].partition_point(|entry| array_index(&entry.key) < Some(number));
                self.entries.insert(at, Entry { key, tag, value });
                self.n_index_keys += 1;
                self.rebuild_index();
            }
            None => {
                let position = self.entries.len();
                self.entries.push(Entry {
                    key: key.clone(),
                    tag,
                    value,
                });
                match &mut self.index {
                    Some(index) => {
                        index.insert(key, position);
                    }
                    None => self.rebuild_index(),
                }
            }
        }
        None
    }
}

impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object::default()
    }

    /// An empty object with room for `capacity` entries.
    pub fn with_capacity(capacity: usize) -> Object {
        Object(Arc::new(ObjectData {
            entries: Vec::with_capacity(capacity),
            n_index_keys: 0,
            index: None,
        }))
    }

    /// The number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.entries.len()
    }

    /// True when the object has no entries.
    pub fn is_empty(&self) -> bool {
        self.0.entries.is_empty()
    }

    /// The value under `key`.
    #[inline]
    pub fn get(&self, key: &Str) -> Option<&Value> {
        let position = self.0.position(key)?;
        Some(&self.0.entries[position].value)
    }

    /// The value under the key spelled `key`.
    #[inline]
    pub fn get_str(&self, key: &str) -> Option<&Value> {
        let position = self.0.position_str(key)?;
        Some(&self.0.entries[position].value)
    }

    /// True when `key` is present.
    pub fn contains_key(&self, key: &Str) -> bool {
        self.0.position(key).is_some()
    }

    /// Sets `key` to `value` and returns the value it replaces.
    ///
    /// A replaced key keeps its position; a new key goes where JavaScript would put it.
    pub fn insert(&mut self, key: Str, value: Value) -> Option<Value> {
        Arc::make_mut(&mut self.0).insert(key, value)
    }

    /// Removes `key` and returns its value.
    pub fn remove(&mut self, key: &Str) -> Option<Value> {
        let position = self.0.position(key)?;
        let data = Arc::make_mut(&mut self.0);
        let removed = data.entries.remove(position);
        if array_index(&removed.key).is_some() {
            data.n_index_keys -= 1;
        }
        data.rebuild_index();
        Some(removed.value)
    }

    /// The entries in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&Str, &Value)> + '_ {
        self.0.entries.iter().map(|entry| (&entry.key, &entry.value))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &Str> + '_ {
        self.0.entries.iter().map(|entry| &entry.key)
    }

    /// The values in key order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Value> + '_ {
        self.0.entries.iter().map(|entry| &entry.value)
    }

    /// True when both handles point at the same allocation.
    pub fn ptr_eq(&self, other: &Object) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Object {
    /// Builds an object from entries in one pass, as the JSON reader does: repeated keys keep
    /// their first position and last value, and array-index keys move to the front.
    pub fn from_entries(entries: Vec<(Str, Value)>) -> Object {
        Object::from_entry_vec(entries.into_iter().map(|(key, value)| Entry::new(key, value)).collect())
    }

    pub(crate) fn from_entry_vec(entries: Vec<Entry>) -> Object {
        let large = entries.len() > INDEX_THRESHOLD;
        let simple = !large
            && entries.iter().enumerate().all(|(idx, entry)| {
                array_index(&entry.key).is_none()
                    && entries[..idx]
                        .iter()
                        .all(|earlier| earlier.tag != entry.tag || earlier.key != entry.key)
            });
        if simple {
            // The common case: a few distinct, non-index keys, already in order.
            return Object(Arc::new(ObjectData {
                entries,
                n_index_keys: 0,
                index: None,
            }));
        }
        let mut built: Vec<Entry> = Vec::with_capacity(entries.len());
        let mut n_index_keys = 0;
        let mut seen: HashMap<Str, usize> = HashMap::new();
        for Entry { key, tag, value } in entries {
            let existing = if large {
                seen.get(&key).copied()
            } else {
                built.iter().position(|entry| entry.tag == tag && entry.key == key)
            };
            match existing {
                Some(position) => built[position].value = value,
                None => {
                    if array_index(&key).is_some() {
                        n_index_keys += 1;
                    }
                    if large {
                        seen.insert(key.clone(), built.len());
                    }
                    built.push(Entry { key, tag, value });
                }
            }
        }
        if n_index_keys > 0 {
            // Stable: the other keys keep their insertion order behind the indices.
            built.sort_by_key(|entry| array_index(&entry.key).map_or(u64::MAX, u64::from));
        }
        let mut data = ObjectData {
            entries: built,
            n_index_keys,
            index: None,
        };
        data.rebuild_index();
        Object(Arc::new(data))
    }
}

impl FromIterator<(Str, Value)> for Object {
    /// Builds an object; a repeated key keeps its first position and its last value, as in
    /// `JSON.parse`.
    fn from_iter<I: IntoIterator<Item = (Str, Value)>>(entries: I) -> Object {
        let entries = entries.into_iter();
        let mut object = Object::with_capacity(entries.size_hint().0);
        for (key, value) in entries {
            object.insert(key, value);
        }
        object
    }
}

impl PartialEq for Object {
    /// Same entries in the same order, values compared with [`Value`]'s `PartialEq`.
    fn eq(&self, other: &Object) -> bool {
        self.ptr_eq(other)
            || (self.len() == other.len()
                && self
                    .iter()
                    .zip(other.iter())
                    .all(|((key_a, value_a), (key_b, value_b))| key_a == key_b && value_a == value_b))
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
    fn insert_copies_a_shared_object() {
        let mut first = Object::new();
        first.insert("a".into(), Value::Null);
        let shared = first.clone();
        first.insert("b".into(), Value::Null);
        assert_eq!(shared.len(), 1);
        assert_eq!(first.len(), 2);
    }
}
