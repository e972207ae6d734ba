//! What an answer costs to write: a value that holds one container (or one long string) many
//! times over is exponentially longer written out than it is in memory (`xs.reduce((a) =>
//! [a, a], 1)` over 60 items is 60 small arrays and 2^60 leaves). Writing the answer, or a host
//! call's argument, is part of the evaluation, so its text is measured and charged before it
//! leaves, with the evaluation's own meter: each container is visited once (its written length
//! kept by identity), and every occurrence past the first, the text writing adds beyond what is
//! already in memory, is charged to the total allocation.

use std::collections::HashMap;

use foldhash::fast::FixedState;

use writ_core::{Meter, Object, Value};

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
pub(crate) fn charge(meter: &mut Meter, value: &Value) -> Result<()> {
    if !value.is_container() {
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

/// The walk's memory: written lengths of the containers seen, by identity, and the long
/// strings seen.
#[derive(Default)]
struct Walk {
    lengths: HashMap<usize, u64, FixedState>,
    strings: HashMap<usize, (), FixedState>,
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
                let shared = text.len_utf16() >= SHARED_STRING_MIN
                    && text
                        .ascii_bytes()
                        .is_some_and(|bytes| self.strings.insert(bytes.as_ptr() as usize, ()).is_some());
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
        Value::Array(array) => holds_little(array.as_slice().iter()),
        Value::Object(object) => holds_little(object.values()),
        _ => true,
    }
}

/// Whether `children` are at most [`SHALLOW_MAX`] items with their own items, and none of
/// them holds a container.
fn holds_little<'a>(children: impl ExactSizeIterator<Item = &'a Value>) -> bool {
    let mut items = children.len();
    if items > SHALLOW_MAX {
        return false;
    }
    for child in children {
        let flat = match child {
            Value::Array(inner) => {
                items += inner.len();
                is_flat(inner.as_slice().iter())
            }
            Value::Object(inner) => {
                items += inner.len();
                is_flat(inner.values())
            }
            _ => true,
        };
        if !flat || items > SHALLOW_MAX {
            return false;
        }
    }
    true
}

/// Whether a container is small and holds no container.
fn is_flat<'a>(mut items: impl ExactSizeIterator<Item = &'a Value>) -> bool {
    items.len() <= FLAT_MAX && items.all(|item| !item.is_container())
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
