//! Marshalling between writ's `Value` and Luau values, charged to the evaluation's meter and
//! depth-capped so neither direction can recurse without bound.

use std::borrow::Cow;
use std::collections::HashMap;

use mlua::{Lua, Table, Value as LuaValue};
use writ_core::{Array, Meter, Object, Str, Value};

use crate::error::{Code, Error};

/// The deepest nesting either direction converts: the depth writ's JSON reader accepts.
pub const MAX_DEPTH: u32 = 512;

/// Units of string length charged as one step, so a long string costs in proportion.
const BYTES_PER_STEP: usize = 64;

/// A failure while converting: a spent meter, or a value that has no counterpart.
pub(crate) enum Fault {
    /// The meter refused a charge (steps, time or depth).
    Budget(writ_core::BudgetExceeded),
    /// Luau refused an operation (the memory ceiling, most likely).
    Lua(mlua::Error),
    /// The value cannot cross: the message says which and what to return instead.
    Unrepresentable(String),
    /// The context would not fit under the memory ceiling.
    Memory,
    /// The answer, written out, would not fit under the memory ceiling.
    AnswerTooLarge,
}

impl From<writ_core::BudgetExceeded> for Fault {
    fn from(exceeded: writ_core::BudgetExceeded) -> Fault {
        Fault::Budget(exceeded)
    }
}

impl From<mlua::Error> for Fault {
    fn from(error: mlua::Error) -> Fault {
        Fault::Lua(error)
    }
}

impl Fault {
    /// This fault as the crate's error.
    pub(crate) fn into_error(self, ceiling: usize) -> Error {
        match self {
            Fault::Budget(exceeded) => Error::from_budget(exceeded),
            Fault::Lua(error) => Error::from_lua(&error, ceiling),
            Fault::Unrepresentable(message) => Error::new(Code::Unrepresentable, message),
            Fault::Memory => Error::memory(ceiling),
            Fault::AnswerTooLarge => Error::new(
                Code::Memory,
                format!(
                    "the chunk's answer, written out, passes the memory ceiling of {ceiling} bytes (a table returned \
                     in several places counts in each); return less, or the same table once"
                ),
            ),
        }
    }
}

/// Charges one value plus its length in bytes.
fn charge(meter: &mut Meter, bytes: usize) -> Result<(), Fault> {
    meter.steps(1 + (bytes / BYTES_PER_STEP) as u64)?;
    Ok(())
}

/// Bytes a string costs in the VM beyond its text.
const STRING_OVERHEAD: usize = 32;

/// Bytes a table costs in the VM before its slots.
const TABLE_OVERHEAD: usize = 64;

/// Bytes one array slot costs.
const ARRAY_SLOT: usize = 16;

/// Bytes one hash slot costs (Luau rounds the node count up to a power of two).
const HASH_SLOT: usize = 64;

/// Where a context value is converted: the VM, the meter, and the bytes the conversion may
/// still allocate. The VM runs with no memory limit while the context is built (mlua then
/// allocates without a protected call per value, several times faster), so this estimate
/// of the VM's allocations is what keeps the context within the memory ceiling, and well
/// within Luau's own size limits, which would raise an error outside any protected call.
pub(crate) struct Builder<'a> {
    /// The VM the tables and strings are made in.
    pub(crate) lua: &'a Lua,
    /// The evaluation's meter: a step per value and per 64 bytes of text.
    pub(crate) meter: &'a mut Meter,
    /// Bytes still allowed.
    pub(crate) room: usize,
}

impl Builder<'_> {
    /// Takes `bytes` from the room left, or fails with the memory ceiling.
    fn allocate(&mut self, bytes: usize) -> Result<(), Fault> {
        match self.room.checked_sub(bytes) {
            Some(left) => {
                self.room = left;
                Ok(())
            }
            None => Err(Fault::Memory),
        }
    }

    /// Converts a context value into a Luau value: objects to string-keyed tables, arrays to
    /// sequences from 1, null and undefined to nil, strings to UTF-8 (lone surrogates become
    /// U+FFFD).
    pub(crate) fn convert(&mut self, value: &Value) -> Result<LuaValue, Fault> {
        Ok(match value {
            Value::Undefined | Value::Null => LuaValue::Nil,
            Value::Bool(b) => LuaValue::Boolean(*b),
            Value::Number(n) => LuaValue::Number(*n),
            Value::String(s) => LuaValue::String(self.string(s)?),
            Value::Array(items) => {
                let len = items.len();
                charge(self.meter, 0)?;
                self.allocate(len.saturating_mul(ARRAY_SLOT).saturating_add(TABLE_OVERHEAD))?;
                self.meter.enter()?;
                let table = self.lua.create_table_with_capacity(len, 0)?;
                for (i, item) in items.as_slice().iter().enumerate() {
                    let converted = self.convert(item)?;
                    if !converted.is_nil() {
                        table.raw_set(i + 1, converted)?;
                    }
                }
                self.meter.leave();
                LuaValue::Table(table)
            }
            Value::Object(object) => {
                let len = object.len();
                charge(self.meter, 0)?;
                self.allocate(len.saturating_mul(HASH_SLOT).saturating_add(TABLE_OVERHEAD))?;
                self.meter.enter()?;
                let table = self.lua.create_table_with_capacity(0, len)?;
                for (key, item) in object.iter() {
                    let converted = self.convert(item)?;
                    if !converted.is_nil() {
                        table.raw_set(self.string(key)?, converted)?;
                    }
                }
                self.meter.leave();
                LuaValue::Table(table)
            }
        })
    }

    /// A Luau string holding `s` as UTF-8.
    fn string(&mut self, s: &Str) -> Result<mlua::LuaString, Fault> {
        charge(self.meter, s.len_utf16())?;
        let text: Cow<'_, str> = match s.as_ascii_str() {
            Some(ascii) => Cow::Borrowed(ascii),
            None => s.to_string_lossy(),
        };
        self.allocate(text.len().saturating_add(STRING_OVERHEAD))?;
        Ok(self.lua.create_string(text.as_bytes())?)
    }
}

/// Bytes one answer value costs written out in writ, beyond a string's or a key's text: a
/// `Value` slot, and an object key's handle beside it.
const ANSWER_SLOT: u64 = 16;

/// Converts the chunk's answer back: nil to undefined, numbers, booleans, strings (invalid
/// UTF-8 becomes U+FFFD), a table with keys exactly 1..n to an array, a table with string keys
/// to an object with its keys sorted, an empty table to an empty array. Anything else —
/// functions, threads, userdata, cyclic tables, tables whose keys mix kinds — is refused.
///
/// The answer is held to `ceiling` bytes as if written out in full: a table the chunk returns
/// in many places is converted once and shared, but counts once per place, because the answer
/// is written out (and its reader receives it) in full. So a few kilobytes of tables built by
/// doubling (`t = {t, t}`) are refused with the memory ceiling at once, rather than expanded
/// outside the VM's ceiling.
pub(crate) fn from_lua(value: &LuaValue, meter: &mut Meter, ceiling: usize) -> Result<Value, Fault> {
    let mut answer = Answer {
        meter,
        path: Vec::new(),
        converted: HashMap::new(),
        size: 0,
        ceiling: ceiling as u64,
    };
    let (value, _) = answer.convert(value)?;
    // Writing the answer out is part of the evaluation, and under a ceiling a host raised it
    // can take seconds: a long answer's writing is charged in time before the host starts it.
    if answer.size >= WRITE_CHARGED_FROM {
        let writing = std::time::Duration::from_nanos(answer.size.saturating_mul(WRITE_NANOS_PER_BYTE));
        answer.meter.reserve_time_after(writing)?;
    }
    Ok(value)
}

/// From how many bytes an answer's writing is charged in time.
const WRITE_CHARGED_FROM: u64 = 1 << 20;

/// What writing one byte of an answer, as counted here, costs at most (the count is about the
/// text's length, a little more for values in tables).
const WRITE_NANOS_PER_BYTE: u64 = 2;

/// One answer under conversion.
struct Answer<'m> {
    /// The evaluation's meter: a step per value and per 64 bytes of text.
    meter: &'m mut Meter,
    /// The tables on the current path, to tell a cycle from a shared table.
    path: Vec<usize>,
    /// Each table converted so far, by identity, with its size written out.
    converted: HashMap<usize, (Value, u64)>,
    /// The answer's size written out so far.
    size: u64,
    /// The most `size` may reach.
    ceiling: u64,
}

impl Answer<'_> {
    /// Counts `bytes` more of the answer written out, or fails at the ceiling.
    fn count(&mut self, bytes: u64) -> Result<u64, Fault> {
        self.size = self.size.saturating_add(bytes);
        if self.size > self.ceiling {
            return Err(Fault::AnswerTooLarge);
        }
        Ok(bytes)
    }

    /// A value and its size written out.
    fn convert(&mut self, value: &LuaValue) -> Result<(Value, u64), Fault> {
        Ok(match value {
            LuaValue::Nil => (Value::Undefined, self.count(ANSWER_SLOT)?),
            LuaValue::Boolean(b) => (Value::Bool(*b), self.count(ANSWER_SLOT)?),
            LuaValue::Integer(i) => (Value::Number(*i as f64), self.count(ANSWER_SLOT)?),
            LuaValue::Number(n) => (Value::Number(*n), self.count(ANSWER_SLOT)?),
            LuaValue::String(s) => {
                let bytes = s.as_bytes();
                let size = self.count(ANSWER_SLOT.saturating_add(bytes.len() as u64))?;
                charge(self.meter, bytes.len())?;
                (Value::String(Str::from(String::from_utf8_lossy(&bytes).as_ref())), size)
            }
            LuaValue::Table(table) => self.table(table)?,
            other => {
                return Err(Fault::Unrepresentable(format!(
                    "the chunk returned a {}, which has no JSON form; return a string, a number, a boolean, nil or a \
                     table of those",
                    other.type_name()
                )));
            }
        })
    }

    /// A table as an array or an object, by its keys; a table met before is shared.
    fn table(&mut self, table: &Table) -> Result<(Value, u64), Fault> {
        let identity = table.to_pointer() as usize;
        if let Some((value, size)) = self.converted.get(&identity) {
            let (value, size) = (value.clone(), *size);
            charge(self.meter, 0)?;
            return Ok((value, self.count(size)?));
        }
        if self.path.contains(&identity) {
            return Err(Fault::Unrepresentable(
                "the chunk returned a table that contains itself, which has no JSON form; return a tree of tables"
                    .into(),
            ));
        }
        charge(self.meter, 0)?;
        self.meter.enter()?;
        self.path.push(identity);
        let converted = self.entries(table);
        self.path.pop();
        self.meter.leave();
        let (value, size) = converted?;
        self.converted.insert(identity, (value.clone(), size));
        Ok((value, size))
    }

    /// The entries of a table not met before, converted, with the table's size written out.
    fn entries(&mut self, table: &Table) -> Result<(Value, u64), Fault> {
        let mut size = self.count(ANSWER_SLOT)?;
        let mut entries = Vec::new();
        for pair in table.pairs::<LuaValue, LuaValue>() {
            let pair = pair?;
            charge(self.meter, 0)?;
            entries.try_reserve(1).map_err(|_| Fault::AnswerTooLarge)?;
            entries.push(pair);
        }
        let value = if entries.iter().all(|(k, _)| matches!(k, LuaValue::String(_))) && !entries.is_empty() {
            let mut fields = Vec::new();
            fields
                .try_reserve_exact(entries.len())
                .map_err(|_| Fault::AnswerTooLarge)?;
            for (key, item) in &entries {
                let LuaValue::String(key) = key else { continue };
                let key = String::from_utf8_lossy(&key.as_bytes()).into_owned();
                size = size.saturating_add(self.count(ANSWER_SLOT.saturating_add(key.len() as u64))?);
                let (item, item_size) = self.convert(item)?;
                size = size.saturating_add(item_size);
                fields.push((key, item));
            }
            self.meter.steps(fields.len() as u64)?;
            fields.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(Object::from_entries(
                fields.into_iter().map(|(k, v)| (Str::from(k), v)).collect(),
            ))
        } else {
            let n = entries.len();
            let mut slots: Vec<Option<Value>> = Vec::new();
            // A sequence the system cannot hold is an answer too large, not an abort.
            slots.try_reserve_exact(n).map_err(|_| Fault::AnswerTooLarge)?;
            slots.resize_with(n, || None);
            for (key, item) in &entries {
                let index = match key {
                    LuaValue::Integer(i) => usize::try_from(*i).ok(),
                    LuaValue::Number(f) if f.fract() == 0.0 && *f >= 1.0 && *f <= n as f64 => Some(*f as usize),
                    _ => None,
                };
                let Some(slot) = index.and_then(|i| i.checked_sub(1)).and_then(|i| slots.get_mut(i)) else {
                    return Err(Fault::Unrepresentable(format!(
                        "the chunk returned a table with a {} key among {n}, which has no JSON form; return a \
                         sequence (keys 1..n) or a table whose keys are all strings",
                        describe_key(key)
                    )));
                };
                let (item, item_size) = self.convert(item)?;
                size = size.saturating_add(item_size);
                *slot = Some(item);
            }
            Value::Array(Array::from(slots.into_iter().flatten().collect::<Vec<_>>()))
        };
        Ok((value, size))
    }
}

/// How a key that fits neither an array nor an object reads in a message.
fn describe_key(key: &LuaValue) -> String {
    match key {
        LuaValue::String(s) => format!("string ({:?})", String::from_utf8_lossy(&s.as_bytes())),
        LuaValue::Integer(i) => format!("number ({i})"),
        LuaValue::Number(n) => format!("number ({n})"),
        other => other.type_name().to_owned(),
    }
}
