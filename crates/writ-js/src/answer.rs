//! What an answer costs to write: a value that holds one container (or one long string) many
//! times over is exponentially longer written out than it is in memory (`xs.reduce((a) =>
//! [a, a], 1)` over 60 items is 60 small arrays and 2^60 leaves). Writing the answer, or a host
//! call's argument, is part of the evaluation, so its text is measured and charged before it
//! leaves, with the evaluation's own meter: each container is visited once (its written length
//! kept by identity), and every occurrence past the first, the text writing adds beyond what is
//! already in memory, is charged to the total allocation.

use std::collections::{HashMap, HashSet};

use foldhash::fast::FixedState;

use writ_core::{Meter, Object, Str, Value};

use crate::error::{Error, Result};

/// Containers visited between two readings of the clock.
const NODES_PER_CLOCK_CHECK: u32 = 4096;

/// The most items a container inside a shallow one may hold ([`is_flat`]).
const FLAT_MAX: usize = 8;

/// The most items, its containers' included, a container measured where it stands may hold
/// ([`is_shallow`]).
const SHALLOW_MAX: usize = 16;

/// Strings at least this long are counted once however often they occur; shorter ones are
/// counted each time, as the text they are.
const SHARED_STRING_MIN: usize = 64;

/// Charges writing `value`: reads the clock as the walk goes, and charges the text that its
/// repeated parts add to the total allocation.
#[inline]
pub(crate) fn charge(meter: &mut Meter, value: &Value) -> Result<()> {
    if value.is_container() {
        charge_container(meter, value)
    } else {
        Ok(())
    }
}

/// [`charge`] for an array or object: kept out of line, so that an evaluation answering a
/// scalar (most predicates) pays one test.
fn charge_container(meter: &mut Meter, value: &Value) -> Result<()> {
    // Most answers hold each part once (rows of the input returned as they are, a list just
    // built): written out, they add nothing past what is in memory. A walk that only looks for
    // a part met twice settles that without measuring any text.
    if !Repeats::default().any(meter, value)? {
        return Ok(());
    }
    let mut walk = Walk::default();
    let written = walk.measure(meter, value)?;
    let repeated = written.saturating_sub(walk.distinct);
    if repeated > 0 && meter.charge_allocation(repeated).is_err() {
        return Err(Error::budget(format!(
            "the answer holds the same values many times over: written out it is at least {written} characters \
             where {} are in memory, past the allocation budget — return each part once, or a count or summary of it",
            walk.distinct
        )));
    }
    Ok(())
}

/// A walk that looks for what [`Walk`] charges for: a container kept by identity, or a long
/// string, met a second time. Shallow parts are not kept, only looked into for long strings.
#[derive(Default)]
struct Repeats {
    containers: HashSet<usize, FixedState>,
    strings: HashSet<usize, FixedState>,
    /// Containers visited since the clock was last read.
    visited: u32,
}

impl Repeats {
    /// Whether `root` holds a repeat, without recursion.
    fn any(&mut self, meter: &mut Meter, root: &Value) -> Result<bool> {
        let mut pending: Vec<&[Value]> = match self.look(root) {
            Look::Settled => return Ok(false),
            Look::Repeat => return Ok(true),
            Look::Walk(children) => vec![children],
        };
        while let Some(children) = pending.pop() {
            for child in children {
                match self.look(child) {
                    Look::Settled => {}
                    Look::Repeat => return Ok(true),
                    Look::Walk(grandchildren) => {
                        self.visited += 1;
                        if self.visited >= NODES_PER_CLOCK_CHECK {
                            self.visited = 0;
                            meter.check_clock()?;
                        }
                        pending.push(grandchildren);
                    }
                }
            }
        }
        Ok(false)
    }

    /// What `value` needs: nothing more, or a walk through what it holds (a container that
    /// is not shallow, met for the first time), or it is a repeat.
    fn look<'v>(&mut self, value: &'v Value) -> Look<'v> {
        let (identity, children) = match value {
            Value::Array(items) => (items.as_slice().as_ptr() as usize, items.as_slice()),
            Value::Object(object) => (object.identity(), object.value_slice()),
            Value::String(text) if self.long_string_again(text) => return Look::Repeat,
            _ => return Look::Settled,
        };
        match self.shallow(children) {
            Shallow::Yes => Look::Settled,
            Shallow::WithARepeat => Look::Repeat,
            Shallow::No if self.containers.insert(identity) => Look::Walk(children),
            Shallow::No => Look::Repeat,
        }
    }

    /// Whether the container holding `children` is [shallow](is_shallow), and then whether
    /// one of its long strings was met before.
    fn shallow(&mut self, children: &[Value]) -> Shallow {
        match shallow_part(children) {
            None => Shallow::No,
            // Long strings are rare: only then is the container looked into again, once it is
            // known to be shallow, so that a container that is not records none of them.
            Some(true) if children.iter().any(|child| self.holds_a_long_string_again(child)) => Shallow::WithARepeat,
            Some(_) => Shallow::Yes,
        }
    }

    /// Whether a value of a shallow container holds a long string already met.
    fn holds_a_long_string_again(&mut self, value: &Value) -> bool {
        match value {
            Value::String(text) => self.long_string_again(text),
            Value::Array(items) => items.iter().any(|item| self.holds_a_long_string_again(item)),
            Value::Object(object) => object.values().any(|item| self.holds_a_long_string_again(item)),
            _ => false,
        }
    }

    /// Whether `text` is long and was met before.
    fn long_string_again(&mut self, text: &Str) -> bool {
        text.len_utf16() >= SHARED_STRING_MIN && !self.strings.insert(text.identity())
    }
}

/// What [`Repeats::look`] found.
enum Look<'v> {
    /// Nothing here repeats, and nothing more needs looking at.
    Settled,
    /// A repeat.
    Repeat,
    /// A container to walk through, holding these values.
    Walk(&'v [Value]),
}

/// What [`Repeats::shallow`] found.
enum Shallow {
    /// Shallow, with no long string met before.
    Yes,
    /// Shallow, holding a long string met before.
    WithARepeat,
    /// Not shallow: kept by identity and walked.
    No,
}

/// The walk's memory: written lengths of the containers seen, by identity, and the long
/// strings seen.
#[derive(Default)]
struct Walk {
    lengths: HashMap<usize, u64, FixedState>,
    strings: HashSet<usize, FixedState>,
    /// Characters of text the distinct parts make, each written once.
    distinct: u64,
    /// Containers visited since the clock was last read.
    visited: u32,
}

/// A container being measured: its identity, the text so far, and the items still to visit.
struct Frame<'a> {
    identity: usize,
    length: u64,
    items: Items<'a>,
}

enum Items<'a> {
    Array(std::slice::Iter<'a, Value>),
    Object(Box<dyn Iterator<Item = &'a Value> + 'a>),
}

impl<'a> Items<'a> {
    fn next(&mut self) -> Option<&'a Value> {
        match self {
            Items::Array(items) => items.next(),
            Items::Object(values) => values.next(),
        }
    }
}

impl Walk {
    /// The written length of `root` (a lower bound: escapes and long numbers count short),
    /// without recursion.
    fn measure<'a>(&mut self, meter: &mut Meter, root: &'a Value) -> Result<u64> {
        let mut stack: Vec<Frame<'a>> = Vec::new();
        let mut next = self.enter(meter, root, &mut stack)?;
        loop {
            if let Some(length) = next {
                match stack.last_mut() {
                    Some(frame) => frame.length = frame.length.saturating_add(length),
                    None => return Ok(length),
                }
            }
            let Some(frame) = stack.last_mut() else {
                return Ok(0);
            };
            next = match frame.items.next() {
                Some(item) => self.enter(meter, item, &mut stack)?,
                None => {
                    let done = stack.pop().map_or(0, |frame| {
                        // The root is visited once; only what it holds can repeat.
                        if !stack.is_empty() {
                            self.lengths.insert(frame.identity, frame.length);
                        }
                        frame.length
                    });
                    Some(done)
                }
            };
        }
    }

    /// The written length of `value` when it is known at once; `None` when a frame was pushed
    /// for it.
    fn enter<'a>(&mut self, meter: &mut Meter, value: &'a Value, stack: &mut Vec<Frame<'a>>) -> Result<Option<u64>> {
        if is_shallow(value) {
            return Ok(Some(self.in_place(value)));
        }
        let (identity, own, items) = match value {
            Value::Array(items) => {
                let own = 2 + items.len().saturating_sub(1) as u64;
                let identity = items.as_slice().as_ptr() as usize;
                (identity, own, Items::Array(items.as_slice().iter()))
            }
            Value::Object(object) => (
                object.identity(),
                object_overhead(object),
                Items::Object(Box::new(object.values())),
            ),
            other => return Ok(Some(self.scalar(other))),
        };
        if let Some(&length) = self.lengths.get(&identity) {
            return Ok(Some(length));
        }
        self.visited += 1;
        if self.visited >= NODES_PER_CLOCK_CHECK {
            self.visited = 0;
            meter.check_clock()?;
        }
        self.distinct = self.distinct.saturating_add(own);
        stack.push(Frame {
            identity,
            length: own,
            items,
        });
        Ok(None)
    }

    /// The written length of a [shallow](is_shallow) value, measured where it stands and
    /// counted as distinct.
    fn in_place(&mut self, value: &Value) -> u64 {
        match value {
            Value::Array(items) => {
                let own = 2 + items.len().saturating_sub(1) as u64;
                self.distinct = self.distinct.saturating_add(own);
                items
                    .iter()
                    .fold(own, |sum, item| sum.saturating_add(self.in_place(item)))
            }
            Value::Object(object) => {
                let own = object_overhead(object);
                self.distinct = self.distinct.saturating_add(own);
                object
                    .values()
                    .fold(own, |sum, item| sum.saturating_add(self.in_place(item)))
            }
            other => self.scalar(other),
        }
    }

    /// The written length of a value that is not a container, counted as distinct unless it is
    /// a long string already seen.
    fn scalar(&mut self, value: &Value) -> u64 {
        let (length, shared) = match value {
            Value::String(text) => {
                let shared = text.len_utf16() >= SHARED_STRING_MIN && !self.strings.insert(text.identity());
                (text.len_utf16() as u64 + 2, shared)
            }
            other => (leaf_length(other), false),
        };
        if !shared {
            self.distinct = self.distinct.saturating_add(length);
        }
        length
    }
}

/// Whether a value is a scalar, or a small container whose containers hold no container and
/// which holds at most [`SHALLOW_MAX`] items in all: measured where it stands, without being
/// kept by identity. Each occurrence is then counted as distinct, which bounds what its
/// repeats add to a constant times the slots that hold it (slots the evaluation paid for); a
/// row of data returned as is, a list of tags among its fields, costs no lookup.
fn is_shallow(value: &Value) -> bool {
    match value {
        Value::Array(items) => shallow_part(items.as_slice()).is_some(),
        Value::Object(object) => shallow_part(object.value_slice()).is_some(),
        _ => true,
    }
}

/// For the items of a container: `None` unless they are at most [`SHALLOW_MAX`] with their
/// own items, and none of them holds a container of more than [`FLAT_MAX`] items or any
/// container; else whether a string of at least [`SHARED_STRING_MIN`] is among them, found in
/// the same pass.
fn shallow_part(children: &[Value]) -> Option<bool> {
    let mut items = children.len();
    if items > SHALLOW_MAX {
        return None;
    }
    let mut long = false;
    for child in children {
        let inner = match child {
            Value::String(text) => {
                long |= text.len_utf16() >= SHARED_STRING_MIN;
                continue;
            }
            Value::Array(inner) => inner.as_slice(),
            Value::Object(inner) => inner.value_slice(),
            _ => continue,
        };
        items += inner.len();
        if inner.len() > FLAT_MAX || items > SHALLOW_MAX {
            return None;
        }
        for leaf in inner {
            match leaf {
                Value::String(text) => long |= text.len_utf16() >= SHARED_STRING_MIN,
                Value::Array(_) | Value::Object(_) => return None,
                _ => {}
            }
        }
    }
    Some(long)
}

/// Braces, quoted keys, colons and commas.
fn object_overhead(object: &Object) -> u64 {
    let keys: u64 = object.keys().map(|key| key.len_utf16() as u64 + 3).sum();
    2 + keys + object.len().saturating_sub(1) as u64
}

/// The written length of a value that is not a container or a string, at least.
fn leaf_length(value: &Value) -> u64 {
    match value {
        Value::Bool(false) => 5,
        Value::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => {
            // Exact below 2^53, and an integer's logarithm is a few comparisons, not `log10`.
            let digits = u64::from((n.abs() as u64).checked_ilog10().unwrap_or(0)) + 1;
            digits + u64::from(*n < 0.0)
        }
        Value::Number(_) => 4,
        _ => 4,
    }
}

#[cfg(test)]
mod tests {
    use writ_core::{Limits, Str};

    use super::*;

    fn meter() -> Meter {
        Meter::new(&Limits {
            max_total_allocation: Some(10_000),
            ..Limits::UNLIMITED
        })
    }

    fn row(name: Value) -> Value {
        let mut row = Object::new();
        row.insert(Str::from("name"), name);
        row.insert(Str::from("price"), Value::Number(12.5));
        Value::Object(row)
    }

    #[test]
    fn parts_held_once_cost_nothing_however_many() {
        let rows: Vec<Value> = (0..5_000)
            .map(|i| row(Value::from(format!("row {i}").as_str())))
            .collect();
        let mut meter = meter();
        assert!(charge(&mut meter, &Value::from(rows)).is_ok());
        assert_eq!(meter.allocated(), 0);
    }

    #[test]
    fn a_long_string_held_by_many_rows_is_charged_each_time_past_the_first() {
        for text in ["x".repeat(1_000), "é".repeat(1_000)] {
            let long = Value::from(text.as_str());
            let rows: Vec<Value> = (0..20).map(|_| row(long.clone())).collect();
            assert!(charge(&mut meter(), &Value::from(rows)).is_err(), "{:.3}…", text);
        }
    }

    #[test]
    fn a_container_held_twice_is_charged_for_its_second_text() {
        let inner: Vec<Value> = (0..100).map(|i| row(Value::Number(f64::from(i)))).collect();
        let inner = Value::from(inner);
        let mut meter = meter();
        let twice = Value::from(vec![inner.clone(), inner]);
        assert_eq!(charge(&mut meter, &twice).map_err(|error| error.to_string()), Ok(()));
        assert!(meter.allocated() > 2_000, "{}", meter.allocated());
    }
}
