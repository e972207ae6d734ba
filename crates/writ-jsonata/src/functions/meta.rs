//! `$eval` and `$clone`: the built-ins that reach back into the evaluator.

use super::Builtin;
use crate::error::{Code, Error, Result};
use crate::eval::Cx;
use crate::value::Val;
use writ_core::Value;

pub(super) const TABLE: &[Builtin] = &[
    Builtin {
        name: "eval",
        signature: "<sx?:x>",
        imp: eval,
    },
    Builtin {
        name: "clone",
        signature: "<(oa)-:o>",
        imp: clone,
    },
];

/// `$eval(expr, context?)`: parses and evaluates `expr` under this evaluation's budget, in the
/// caller's scope, over `context` or the caller's context.
fn eval(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(Val::String(source)) = args.first() else {
        return Ok(Val::Undefined);
    };
    let input = match args.get(1) {
        Some(context) if !context.is_undefined() => context.clone(),
        _ => cx.input.clone(),
    };
    let source = source.to_string_lossy().into_owned();
    cx.charge_string(source.len())?;
    cx.eval_source(&source, input)
}

/// `$clone(value)`: a deep copy as jsonata-js makes it, through its JSON text: numbers pass
/// through `$string`'s fifteen significant digits, a function becomes `""`, an undefined field
/// vanishes (and is `null` in an array). Built directly rather than written and read back;
/// every container is a fresh one, which the transform operator relies on.
fn clone(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Some(value) = args.first() else {
        return Ok(Val::Undefined);
    };
    if value.is_undefined() {
        return Ok(Val::Undefined);
    }
    Ok(Val::from(fresh_copy(cx, value)?))
}

/// The JSON round trip of `value`, as fresh writ-core values.
fn fresh_copy(cx: &mut Cx<'_>, value: &Val) -> Result<Value> {
    match value {
        Val::Array(array) => return fresh_array(cx, array.as_slice()),
        Val::Object(object) if object.values().all(|item| !item.is_undefined()) => {
            return fresh_object(cx, object);
        }
        _ => {}
    }
    cx.step()?;
    Ok(match value {
        Val::Undefined | Val::Null => Value::Null,
        Val::Bool(b) => Value::Bool(*b),
        Val::Number(n) if n.is_nan() => Value::Null,
        Val::Number(n) if n.is_infinite() => {
            return Err(Error::new(Code::D1001).with_value(writ_core::js_number_to_string(*n)));
        }
        Val::Number(n) => Value::Number(if n.fract() == 0.0 {
            *n
        } else {
            super::string::fifteen_digits(*n)
        }),
        Val::String(text) => Value::String(text.clone()),
        Val::Function(_) => Value::String(writ_core::Str::empty()),
        Val::Array(_) | Val::List(..) => {
            let items = value.as_array().expect("an array");
            cx.charge_array(items.len())?;
            cx.charge_copied()?;
            let mut copied = Vec::with_capacity(items.len());
            for item in items.iter() {
                copied.push(stacker::maybe_grow(64 * 1024, 1024 * 1024, || fresh_copy(cx, &item))?);
            }
            Value::from(copied)
        }
        Val::Object(_) | Val::Record(_) => {
            let object = value.as_object().expect("an object");
            cx.charge_copied()?;
            let mut entries = Vec::with_capacity(object.len());
            for (key, item) in object.entries() {
                if item.is_undefined() {
                    continue;
                }
                entries.push((
                    key,
                    stacker::maybe_grow(64 * 1024, 1024 * 1024, || fresh_copy(cx, &item))?,
                ));
            }
            Value::Object(writ_core::Object::from_entries(entries))
        }
    })
}

/// [`fresh_copy`] of a value of the input, read where it lives.
fn fresh_data(cx: &mut Cx<'_>, value: &Value) -> Result<Value> {
    match value {
        Value::Array(array) => fresh_array(cx, array.as_slice()),
        Value::Object(object) if object.values().all(|item| !item.is_undefined()) => fresh_object(cx, object),
        Value::Object(_) => fresh_copy(cx, &Val::from(value)),
        Value::Number(n) if n.is_finite() && n.fract() != 0.0 => {
            cx.step()?;
            Ok(Value::Number(super::string::fifteen_digits(*n)))
        }
        Value::Number(n) if n.is_finite() => {
            cx.step()?;
            Ok(Value::Number(*n))
        }
        Value::String(text) => {
            cx.step()?;
            Ok(Value::String(text.clone()))
        }
        other => fresh_copy(cx, &Val::from(other)),
    }
}

/// A fresh copy of an input array.
fn fresh_array(cx: &mut Cx<'_>, items: &[Value]) -> Result<Value> {
    cx.step()?;
    cx.charge_copied()?;
    cx.charge_array(items.len())?;
    let mut copied = Vec::with_capacity(items.len());
    for item in items {
        copied.push(stacker::maybe_grow(64 * 1024, 1024 * 1024, || fresh_data(cx, item))?);
    }
    Ok(Value::from(copied))
}

/// A fresh copy of an input object with no undefined value: it shares the original's key
/// list, and only the values are new.
fn fresh_object(cx: &mut Cx<'_>, object: &writ_core::Object) -> Result<Value> {
    cx.step()?;
    cx.charge_copied()?;
    let mut values = Vec::with_capacity(object.len());
    for item in object.values() {
        values.push(stacker::maybe_grow(64 * 1024, 1024 * 1024, || fresh_data(cx, item))?);
    }
    Ok(Value::Object(object.shape().build(values.into_iter())))
}
