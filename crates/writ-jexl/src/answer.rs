//! The answer's size written out, measured before the host writes it.
//!
//! A Jexl answer can hold one array or object many times over without having built it many
//! times (a context value the host shares, returned in several places), so its JSON text can be
//! exponentially longer than the memory it takes. Writing it is part of the evaluation: the
//! walk here visits each shared container once (keeping its size), reads the clock as it goes,
//! stops as soon as the text would pass [`MAX_ANSWER_BYTES`], and charges the writing in time
//! before the host starts it.

use std::collections::HashMap;
use std::time::Duration;

use writ_core::{MAX_ANSWER_BYTES, Meter, Value};

use crate::error::Result;

/// Nodes visited between two readings of the clock.
const NODES_PER_CLOCK: u32 = 4096;

/// Written bytes below which writing is too quick to charge in time.
const BULK_BYTES: u64 = 1 << 20;

/// About how long writing one byte of JSON takes.
const NANOS_PER_BYTE: u64 = 2;

/// About how long writing one value takes beyond its bytes (a value-dense answer, such as
/// nested arrays of small numbers, writes at 10–25 ns a byte, not 2).
const NANOS_PER_VALUE: u64 = 40;

/// Values below which writing is too quick to charge in time.
const BULK_VALUES: u64 = 1 << 15;

/// The answer is too long to write: its text passes [`MAX_ANSWER_BYTES`].
pub(crate) struct TooLong;

/// Measures `value` written out as JSON (numbers and strings as the writer writes them) and
/// charges the writing in time, by its bytes and its values. `Ok(Err(TooLong))` when the text would
/// pass [`MAX_ANSWER_BYTES`].
pub(crate) fn measure(value: &Value, meter: &mut Meter) -> Result<std::result::Result<(), TooLong>> {
    let mut walk = Walk {
        written: 0,
        values: 0,
        visits: 0,
        sizes: HashMap::new(),
    };
    let Some(written) = walk.run(value, meter)? else {
        return Ok(Err(TooLong));
    };
    if written >= BULK_BYTES || walk.values >= BULK_VALUES {
        let nanos = written
            .saturating_mul(NANOS_PER_BYTE)
            .saturating_add(walk.values.saturating_mul(NANOS_PER_VALUE));
        meter.reserve_time_after(Duration::from_nanos(nanos))?;
    }
    Ok(Ok(()))
}

/// One walk: the bytes counted so far, and each container measured, by its storage's address.
struct Walk {
    /// Bytes written out so far.
    written: u64,
    /// Values written out so far (a container's each time it is written).
    values: u64,
    /// Nodes visited since the clock was last read.
    visits: u32,
    /// The written size of each container met, in bytes and values, by the address of its
    /// first element.
    sizes: HashMap<usize, (u64, u64)>,
}

/// A container under measurement: its elements, the next one, and the bytes before it.
struct Frame<'v> {
    /// The elements (an object's values, with its keys counted on entry).
    items: Items<'v>,
    /// Where the container is kept in [`Walk::sizes`].
    address: usize,
    /// [`Walk::written`] when the container was entered.
    start: u64,
    /// [`Walk::values`] when the container was entered.
    start_values: u64,
}

/// A container's elements.
enum Items<'v> {
    /// An array's, written as `null` when undefined.
    Array(std::slice::Iter<'v, Value>),
    /// An object's values, omitted when undefined.
    Object(Box<dyn Iterator<Item = &'v Value> + 'v>),
}

impl Walk {
    /// The answer's written size, or `None` past [`MAX_ANSWER_BYTES`].
    fn run(&mut self, value: &Value, meter: &mut Meter) -> Result<Option<u64>> {
        let mut stack: Vec<Frame<'_>> = Vec::new();
        let mut next = Some((value, true));
        loop {
            if let Some((value, in_array)) = next.take()
                && let Some(frame) = self.visit(value, in_array, meter)?
            {
                stack.push(frame);
            }
            if self.written > MAX_ANSWER_BYTES as u64 {
                return Ok(None);
            }
            let Some(frame) = stack.last_mut() else {
                return Ok(Some(self.written));
            };
            next = match &mut frame.items {
                Items::Array(items) => items.next().map(|item| (item, true)),
                Items::Object(items) => items.next().map(|item| (item, false)),
            };
            if next.is_none() {
                let done = stack
                    .pop()
                    .map(|frame| (frame.address, frame.start, frame.start_values));
                if let Some((address, start, start_values)) = done {
                    self.sizes
                        .insert(address, (self.written - start, self.values - start_values));
                }
            }
        }
    }

    /// Counts `value` (an element of an array when `in_array`), and returns a frame for a
    /// container not measured before.
    fn visit<'v>(&mut self, value: &'v Value, in_array: bool, meter: &mut Meter) -> Result<Option<Frame<'v>>> {
        self.visits += 1;
        if self.visits >= NODES_PER_CLOCK {
            self.visits = 0;
            meter.check_clock()?;
        }
        // A separator or an object's `"key":` is counted with the container.
        let (bytes, frame) = match value {
            Value::Undefined => (if in_array { 4 } else { 0 }, None),
            Value::Null | Value::Bool(true) => (4, None),
            Value::Bool(false) => (5, None),
            // Counted as the writer writes them: a number can take 24 bytes, a string's
            // characters up to three bytes each and its escapes up to six, so a shorter
            // estimate would let an answer past the bound through.
            Value::Number(n) if n.is_finite() => (writ_core::js_number_to_string(*n).len() as u64, None),
            Value::Number(_) => (4, None),
            Value::String(text) => {
                let mut counted = QuotedLen(0);
                writ_core::js::quote(&mut counted, text);
                (counted.0, None)
            }
            Value::Array(array) => match array.as_slice().first() {
                None => (2, None),
                Some(first) => {
                    let address = std::ptr::from_ref(first) as usize;
                    if let Some(&(size, values)) = self.sizes.get(&address) {
                        // Counted once for the container itself below.
                        self.values += values.saturating_sub(1);
                        (size, None)
                    } else {
                        let frame = Frame {
                            items: Items::Array(array.as_slice().iter()),
                            address,
                            start: self.written,
                            start_values: self.values,
                        };
                        (1 + array.len() as u64, Some(frame))
                    }
                }
            },
            Value::Object(object) => match object.values().next() {
                None => (2, None),
                Some(first) => {
                    let address = std::ptr::from_ref(first) as usize;
                    if let Some(&(size, values)) = self.sizes.get(&address) {
                        // Counted once for the container itself below.
                        self.values += values.saturating_sub(1);
                        (size, None)
                    } else {
                        let keys: u64 = object.iter().map(|(key, _)| key.len_utf16() as u64 + 4).sum();
                        let frame = Frame {
                            items: Items::Object(Box::new(object.values())),
                            address,
                            start: self.written,
                            start_values: self.values,
                        };
                        (1 + keys, Some(frame))
                    }
                }
            },
        };
        self.written = self.written.saturating_add(bytes);
        self.values += 1;
        Ok(frame)
    }
}

/// Counts the bytes of a string written as a JSON string, quotes included.
struct QuotedLen(u64);

impl writ_core::js::QuoteSink for QuotedLen {
    fn ascii(&mut self, text: &[u8]) {
        self.0 += text.len() as u64;
    }

    fn char(&mut self, ch: char) {
        self.0 += ch.len_utf8() as u64;
    }
}
