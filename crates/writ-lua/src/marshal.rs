//! Marshalling between writ's `Value` and Luau values, charged to the evaluation's meter and
//! depth-capped so neither direction can recurse without bound.

use std::borrow::Cow;

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

/// Converts the chunk's answer back: nil to undefined, numbers, booleans, strings (invalid
/// UTF-8 becomes U+FFFD), a table with keys exactly 1..n to an array, a table with string keys
/// to an object with its keys sorted, an empty table to an empty array. Anything else —
/// functions, threads, userdata, cyclic tables, tables whose keys mix kinds — is refused.
pub(crate) fn from_lua(value: &LuaValue, meter: &mut Meter) -> Result<Value, Fault> {
    let mut path = Vec::new();
    convert(value, meter, &mut path)
}

/// [`from_lua`] with the tables on the current path, to tell a cycle from a shared table.
fn convert(value: &LuaValue, meter: &mut Meter, path: &mut Vec<usize>) -> Result<Value, Fault> {
    Ok(match value {
        LuaValue::Nil => Value::Undefined,
        LuaValue::Boolean(b) => Value::Bool(*b),
        LuaValue::Integer(i) => Value::Number(*i as f64),
        LuaValue::Number(n) => Value::Number(*n),
        LuaValue::String(s) => {
            let bytes = s.as_bytes();
            charge(meter, bytes.len())?;
            Value::String(Str::from(String::from_utf8_lossy(&bytes).as_ref()))
        }
        LuaValue::Table(table) => convert_table(table, meter, path)?,
        other => {
            return Err(Fault::Unrepresentable(format!(
                "the chunk returned a {}, which has no JSON form; return a string, a number, a boolean, nil or a table \
                 of those",
                other.type_name()
            )));
        }
    })
}

/// A table as an array or an object, by its keys.
fn convert_table(table: &Table, meter: &mut Meter, path: &mut Vec<usize>) -> Result<Value, Fault> {
    let identity = table.to_pointer() as usize;
    if path.contains(&identity) {
        return Err(Fault::Unrepresentable(
            "the chunk returned a table that contains itself, which has no JSON form; return a tree of tables".into(),
        ));
    }
    charge(meter, 0)?;
    meter.enter()?;
    path.push(identity);
    let mut entries = Vec::new();
    for pair in table.pairs::<LuaValue, LuaValue>() {
        let pair = pair?;
        charge(meter, 0)?;
        entries.push(pair);
    }
    let result = if entries.iter().all(|(k, _)| matches!(k, LuaValue::String(_))) && !entries.is_empty() {
        let mut fields = Vec::with_capacity(entries.len());
        for (key, item) in &entries {
            let LuaValue::String(key) = key else { continue };
            let key = String::from_utf8_lossy(&key.as_bytes()).into_owned();
            fields.push((key, convert(item, meter, path)?));
        }
        meter.steps(fields.len() as u64)?;
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        Value::Object(Object::from_entries(
            fields.into_iter().map(|(k, v)| (Str::from(k), v)).collect(),
        ))
    } else {
        let n = entries.len();
        let mut slots: Vec<Option<Value>> = Vec::new();
        slots.resize_with(n, || None);
        for (key, item) in &entries {
            let index = match key {
                LuaValue::Integer(i) => usize::try_from(*i).ok(),
                LuaValue::Number(f) if f.fract() == 0.0 && *f >= 1.0 && *f <= n as f64 => Some(*f as usize),
                _ => None,
            };
            match index.and_then(|i| i.checked_sub(1)).and_then(|i| slots.get_mut(i)) {
                Some(slot) => *slot = Some(convert(item, meter, path)?),
                None => {
                    return Err(Fault::Unrepresentable(format!(
                        "the chunk returned a table with a {} key among {n}, which has no JSON form; return a sequence \
                         (keys 1..n) or a table whose keys are all strings",
                        describe_key(key)
                    )));
                }
            }
        }
        Value::Array(Array::from(slots.into_iter().flatten().collect::<Vec<_>>()))
    };
    path.pop();
    meter.leave();
    Ok(result)
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
