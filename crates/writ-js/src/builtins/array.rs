//! Array methods and the `Array` statics.
//!
//! Every method builds a new array or value; none changes its receiver. Results are charged
//! before they are built (`cx.array`, `cx.string`), scans a step per element, and callbacks by
//! `cx.call`. `toSorted` runs V8's TimSort step for step, so that it answers what node does
//! even for a comparator that is not consistent, and it never panics whatever the comparator
//! says.

use writ_core::{Array, Str, Value};

use crate::coerce;
use crate::error::{Error, Result};
use crate::interp::{Args, Callback, Cx, code_points, room};
use crate::ops;
use crate::tables::{ArrayFn, ArrayMethod};

/// The deepest `flat` goes, whatever depth is asked for: `flat(Infinity)` flattens this many
/// levels.
pub(crate) const MAX_FLAT_DEPTH: usize = 32;

/// `2^53 - 1`, where JavaScript's `ToLength` clamps.
const MAX_SAFE_LENGTH: f64 = 9007199254740991.0;

/// Runs `this.method(args)`; `this_value` is the same array as a value, for callbacks.
pub(crate) fn call<'r>(
    cx: &mut Cx<'r>,
    this: &Array,
    this_value: &Value,
    method: ArrayMethod,
    args: &Args<'_, 'r>,
) -> Result<Value> {
    use ArrayMethod as M;
    match method {
        M::Map => map(cx, this, this_value, args),
        M::Filter => filter(cx, this, this_value, args),
        M::Reduce => reduce(cx, this, this_value, args, false),
        M::ReduceRight => reduce(cx, this, this_value, args, true),
        M::Find => Ok(find(cx, this, this_value, args, false)?.map_or(Value::Undefined, |(_, item)| item)),
        M::FindLast => Ok(find(cx, this, this_value, args, true)?.map_or(Value::Undefined, |(_, item)| item)),
        M::FindIndex => Ok(index_value(
            find(cx, this, this_value, args, false)?.map(|(index, _)| index),
        )),
        M::FindLastIndex => Ok(index_value(
            find(cx, this, this_value, args, true)?.map(|(index, _)| index),
        )),
        M::Some => {
            let callback = args.callback(0)?;
            Ok(Value::Bool(
                first_where(cx, this, this_value, callback, true)?.is_some(),
            ))
        }
        M::Every => {
            let callback = args.callback(0)?;
            Ok(Value::Bool(
                first_where(cx, this, this_value, callback, false)?.is_none(),
            ))
        }
        M::Slice => slice(cx, this, args),
        M::Concat => concat(cx, this, args),
        M::Join => {
            let separator = match args.get(0) {
                Value::Undefined => Str::from(","),
                other => coerce::to_string(cx, other)?,
            };
            Ok(Value::String(coerce::join(cx, this, &separator)?))
        }
        M::ToString => Ok(Value::String(coerce::join(cx, this, &Str::from(","))?)),
        M::ToLocaleString => Ok(Value::String(crate::locale::array_to_locale_string(
            cx,
            this,
            args.get(0),
            args.get(1),
        )?)),
        M::ValueOf => Ok(this_value.clone()),
        M::Includes => includes(cx, this, args),
        M::IndexOf => index_of(cx, this, args),
        M::LastIndexOf => last_index_of(cx, this, args),
        M::At => {
            let len = this.len();
            let relative = integer_arg(cx, args.get(0))?;
            let index = if relative >= 0.0 {
                relative
            } else {
                len as f64 + relative
            };
            if index < 0.0 || index >= len as f64 {
                return Ok(Value::Undefined);
            }
            Ok(this.get(index as usize).cloned().unwrap_or(Value::Undefined))
        }
        M::Flat => flat(cx, this, args),
        M::FlatMap => flat_map(cx, this, this_value, args),
        M::ToSorted => to_sorted(cx, this, args),
        M::ToReversed => {
            cx.array(this.len())?;
            Ok(Value::Array(this.iter().rev().cloned().collect()))
        }
        M::ToSpliced => to_spliced(cx, this, args),
        M::With => with(cx, this, args),
    }
}

/// Runs `Array.function(args)`.
pub(crate) fn call_static<'r>(cx: &mut Cx<'r>, function: ArrayFn, args: &Args<'_, 'r>) -> Result<Value> {
    match function {
        ArrayFn::IsArray => Ok(Value::Bool(matches!(args.get(0), Value::Array(_)))),
        ArrayFn::Of => {
            cx.array(args.len())?;
            Ok(Value::Array(Array::from(args.values.to_vec())))
        }
        ArrayFn::From => from(cx, args),
    }
}

/// An index as JavaScript answers it: the number, or -1 for none.
fn index_value(index: Option<usize>) -> Value {
    Value::Number(index.map_or(-1.0, |index| index as f64))
}

/// `ToIntegerOrInfinity(ToNumber(value))`, charged for what the conversion reads.
fn integer_arg(cx: &mut Cx<'_>, value: &Value) -> Result<f64> {
    Ok(coerce::integer_or_infinity(coerce::to_number(cx, value)?))
}

/// A relative position (`slice`, `includes`, `toSpliced`): from the end when negative,
/// clamped to `0..=len`.
fn clamp_relative(relative: f64, len: usize) -> usize {
    let position = if relative < 0.0 {
        (len as f64 + relative).max(0.0)
    } else {
        relative.min(len as f64)
    };
    // The float is an integer in 0..=len here (or +0 for -Infinity), so the cast is exact.
    position as usize
}

/// `map(cb)`: the callback's answers, the result charged before it is built.
fn map<'r>(cx: &mut Cx<'r>, this: &Array, this_value: &Value, args: &Args<'_, 'r>) -> Result<Value> {
    let callback = args.callback(0)?;
    cx.array(this.len())?;
    let mut out = Vec::with_capacity(this.len());
    if let Some(lambda) = cx.plain_lambda(callback, 1) {
        cx.each_with(lambda, this, this_value, |_, answer| {
            out.push(answer);
            true
        })?;
    } else {
        for (index, item) in this.iter().enumerate() {
            out.push(cx.call_item(callback, item, index, this_value)?);
        }
    }
    Ok(Value::Array(Array::from(out)))
}

/// `filter(cb)`: the items the callback accepts.
fn filter<'r>(cx: &mut Cx<'r>, this: &Array, this_value: &Value, args: &Args<'_, 'r>) -> Result<Value> {
    let callback = args.callback(0)?;
    let mut out = Vec::new();
    if let Some(lambda) = cx.plain_lambda(callback, 1) {
        cx.each_with(lambda, this, this_value, |index, answer| {
            if answer.is_truthy()
                && let Some(item) = this.get(index)
            {
                out.push(item.clone());
            }
            true
        })?;
    } else {
        for (index, item) in this.iter().enumerate() {
            if cx.call_item(callback, item, index, this_value)?.is_truthy() {
                out.push(item.clone());
            }
        }
    }
    // Only known now; it is never longer than the receiver, which exists already.
    cx.array(out.len())?;
    Ok(Value::Array(Array::from(out)))
}

/// `reduce(cb, init?)` and, `from_end`, `reduceRight`: only the arguments the callback reads are built.
fn reduce<'r>(cx: &mut Cx<'r>, this: &Array, this_value: &Value, args: &Args<'_, 'r>, from_end: bool) -> Result<Value> {
    let callback = args.callback(0)?;
    let len = this.len();
    let position = |k: usize| if from_end { len - 1 - k } else { k };
    let mut k = 0;
    let mut accumulator = if args.len() >= 2 {
        args.get(1).clone()
    } else {
        let Some(first) = (len > 0).then(|| position(0)).and_then(|index| this.get(index)) else {
            return Err(Error::type_error(format!(
                "Reduce of empty array with no initial value: pass a starting value as the second \
                 argument, as in rows.{}((sum, r) => sum + r.price, 0)",
                args.name
            )));
        };
        k = 1;
        first.clone()
    };
    if !from_end && let Some(lambda) = cx.plain_lambda(callback, 2) {
        return cx.reduce_with(lambda, accumulator, this, this_value, k);
    }
    while k < len {
        let index = position(k);
        let item = this.get(index).unwrap_or(&Value::Undefined);
        accumulator = cx.call_reduce(callback, accumulator, item, index, this_value)?;
        k += 1;
    }
    Ok(accumulator)
}

/// The first (or, `from_end`, the last) item the callback accepts, with its index.
fn find<'r>(
    cx: &mut Cx<'r>,
    this: &Array,
    this_value: &Value,
    args: &Args<'_, 'r>,
    from_end: bool,
) -> Result<Option<(usize, Value)>> {
    let callback = args.callback(0)?;
    if !from_end {
        let found = first_where(cx, this, this_value, callback, true)?;
        return Ok(found.and_then(|index| Some((index, this.get(index)?.clone()))));
    }
    for index in (0..this.len()).rev() {
        let Some(item) = this.get(index) else { continue };
        if cx.call_item(callback, item, index, this_value)?.is_truthy() {
            return Ok(Some((index, item.clone())));
        }
    }
    Ok(None)
}

/// The index of the first item whose answer from the callback is as truthy as `truthy`.
fn first_where<'r>(
    cx: &mut Cx<'r>,
    this: &Array,
    this_value: &Value,
    callback: Callback<'r>,
    truthy: bool,
) -> Result<Option<usize>> {
    if let Some(lambda) = cx.plain_lambda(callback, 1) {
        let mut found = None;
        cx.each_with(lambda, this, this_value, |index, answer| {
            if answer.is_truthy() == truthy {
                found = Some(index);
            }
            found.is_none()
        })?;
        return Ok(found);
    }
    for (index, item) in this.iter().enumerate() {
        if cx.call_item(callback, item, index, this_value)?.is_truthy() == truthy {
            return Ok(Some(index));
        }
    }
    Ok(None)
}

/// `slice(start?, end?)`.
fn slice(cx: &mut Cx<'_>, this: &Array, args: &Args<'_, '_>) -> Result<Value> {
    let len = this.len();
    let start = clamp_relative(integer_arg(cx, args.get(0))?, len);
    let end = match args.get(1) {
        Value::Undefined => len,
        other => clamp_relative(integer_arg(cx, other)?, len),
    };
    let items = this.as_slice().get(start..end.max(start)).unwrap_or(&[]);
    cx.array(items.len())?;
    Ok(Value::Array(Array::from(items.to_vec())))
}

/// `concat(...items)`: array arguments spread one level, anything else is one item.
fn concat(cx: &mut Cx<'_>, this: &Array, args: &Args<'_, '_>) -> Result<Value> {
    let total = args.values.iter().fold(this.len(), |total, arg| {
        total.saturating_add(match arg {
            Value::Array(items) => items.len(),
            _ => 1,
        })
    });
    cx.array(total)?;
    let mut out = room(total)?;
    out.extend_from_slice(this.as_slice());
    for arg in args.values {
        match arg {
            // Only arrays spread: a string is one item, as in JavaScript.
            Value::Array(items) => out.extend_from_slice(items.as_slice()),
            other => out.push(other.clone()),
        }
    }
    Ok(Value::Array(Array::from(out)))
}

/// `includes(value, from?)` with SameValueZero; a step per element.
fn includes(cx: &mut Cx<'_>, this: &Array, args: &Args<'_, '_>) -> Result<Value> {
    let len = this.len();
    cx.steps(len as u64)?;
    let start = clamp_relative(integer_arg(cx, args.get(1))?, len);
    let target = args.get(0);
    let found = this
        .as_slice()
        .get(start..)
        .unwrap_or(&[])
        .iter()
        .any(|item| ops::same_value_zero(item, target));
    Ok(Value::Bool(found))
}

/// `indexOf(value, from?)` with `===`; a step per element.
fn index_of(cx: &mut Cx<'_>, this: &Array, args: &Args<'_, '_>) -> Result<Value> {
    let len = this.len();
    cx.steps(len as u64)?;
    let start = clamp_relative(integer_arg(cx, args.get(1))?, len);
    let target = args.get(0);
    let found = this
        .as_slice()
        .get(start..)
        .unwrap_or(&[])
        .iter()
        .position(|item| ops::strict_equals(item, target))
        .map(|offset| start + offset);
    Ok(index_value(found))
}

/// `lastIndexOf(value, from?)` with `===`; a step per element.
fn last_index_of(cx: &mut Cx<'_>, this: &Array, args: &Args<'_, '_>) -> Result<Value> {
    let len = this.len();
    cx.steps(len as u64)?;
    if len == 0 {
        return Ok(index_value(None));
    }
    // A missing position is the end; an explicit `undefined` is 0, as in JavaScript.
    let from = if args.len() > 1 {
        integer_arg(cx, args.get(1))?
    } else {
        len as f64 - 1.0
    };
    let last = if from >= 0.0 {
        from.min(len as f64 - 1.0)
    } else {
        len as f64 + from
    };
    if last < 0.0 {
        return Ok(index_value(None));
    }
    let target = args.get(0);
    let found = this
        .as_slice()
        .get(..=last as usize)
        .unwrap_or(&[])
        .iter()
        .rposition(|item| ops::strict_equals(item, target));
    Ok(index_value(found))
}

/// `flat(depth?)`, at most [`MAX_FLAT_DEPTH`] levels; the result is counted (a step per item
/// looked at) and charged before it is built.
fn flat(cx: &mut Cx<'_>, this: &Array, args: &Args<'_, '_>) -> Result<Value> {
    let depth = match args.get(0) {
        Value::Undefined => 1,
        other => {
            let depth = integer_arg(cx, other)?;
            if depth < 1.0 {
                0
            } else {
                depth.min(MAX_FLAT_DEPTH as f64) as usize
            }
        }
    };
    let total = flat_count(cx, this.as_slice(), depth)?;
    cx.array(total)?;
    let mut out = room(total)?;
    flat_into(&mut out, this.as_slice(), depth);
    Ok(Value::Array(Array::from(out)))
}

/// How many items flattening `items` `depth` levels gives, a step per item looked at; the
/// recursion is at most [`MAX_FLAT_DEPTH`] deep.
fn flat_count(cx: &mut Cx<'_>, items: &[Value], depth: usize) -> Result<usize> {
    cx.steps(items.len() as u64)?;
    let mut total = 0usize;
    for item in items {
        total = total.saturating_add(match item {
            Value::Array(inner) if depth > 0 => flat_count(cx, inner.as_slice(), depth - 1)?,
            _ => 1,
        });
    }
    Ok(total)
}

/// Appends `items` flattened `depth` levels to `out`.
fn flat_into(out: &mut Vec<Value>, items: &[Value], depth: usize) {
    for item in items {
        match item {
            Value::Array(inner) if depth > 0 => flat_into(out, inner.as_slice(), depth - 1),
            other => out.push(other.clone()),
        }
    }
}

/// `flatMap(cb)`: array answers spread one level.
fn flat_map<'r>(cx: &mut Cx<'r>, this: &Array, this_value: &Value, args: &Args<'_, 'r>) -> Result<Value> {
    let callback = args.callback(0)?;
    // Each result is charged as the callback builds it; the flat result once, before it is built.
    let mut results = Vec::with_capacity(this.len());
    let mut total = 0usize;
    for (index, item) in this.iter().enumerate() {
        let result = cx.call_item(callback, item, index, this_value)?;
        total = total.saturating_add(match &result {
            Value::Array(inner) => inner.len(),
            _ => 1,
        });
        results.push(result);
    }
    cx.array(total)?;
    let mut out = room(total)?;
    for result in results {
        match result {
            Value::Array(inner) => out.extend_from_slice(inner.as_slice()),
            other => out.push(other),
        }
    }
    Ok(Value::Array(Array::from(out)))
}

/// `toSpliced(start, skip?, ...items)`: a missing count and an `undefined` one differ.
fn to_spliced(cx: &mut Cx<'_>, this: &Array, args: &Args<'_, '_>) -> Result<Value> {
    let len = this.len();
    cx.steps(len as u64)?;
    let start = clamp_relative(integer_arg(cx, args.get(0))?, len);
    // No arguments removes nothing; a start alone removes the rest; an explicit `undefined`
    // count removes nothing (it is 0).
    let skip = match args.len() {
        0 => 0,
        1 => len - start,
        _ => {
            let count = integer_arg(cx, args.get(1))?;
            count.clamp(0.0, (len - start) as f64) as usize
        }
    };
    let inserted = args.values.get(2..).unwrap_or(&[]);
    let new_len = (len - skip).saturating_add(inserted.len());
    cx.array(new_len)?;
    let items = this.as_slice();
    let mut out = room(new_len)?;
    out.extend_from_slice(items.get(..start).unwrap_or(&[]));
    out.extend_from_slice(inserted);
    out.extend_from_slice(items.get(start + skip..).unwrap_or(&[]));
    Ok(Value::Array(Array::from(out)))
}

/// `with(index, value)`: a RangeError when the index is outside the array.
fn with(cx: &mut Cx<'_>, this: &Array, args: &Args<'_, '_>) -> Result<Value> {
    let len = this.len();
    cx.steps(len as u64)?;
    let relative = integer_arg(cx, args.get(0))?;
    let index = if relative >= 0.0 {
        relative
    } else {
        len as f64 + relative
    };
    if index < 0.0 || index >= len as f64 {
        return Err(Error::range_error(format!(
            "Invalid index : {}: \"with\" replaces an existing item, so the index must be from {} to {} \
             for this array of {len} items",
            coerce::number_to_str(relative),
            -(len as f64),
            len as f64 - 1.0,
        )));
    }
    cx.array(len)?;
    let mut out = this.as_slice().to_vec();
    if let Some(slot) = out.get_mut(index as usize) {
        *slot = args.get(1).clone();
    }
    Ok(Value::Array(Array::from(out)))
}

/// `Array.from(source, mapper?)`: an array, a string (by code point) or a `{length}` object.
fn from<'r>(cx: &mut Cx<'r>, args: &Args<'_, 'r>) -> Result<Value> {
    // A mapper that is written must be a function; `undefined` means none.
    let mapper = match (args.callback, args.get(1)) {
        (Some(callback), _) => Some(callback),
        (None, Value::Undefined) => None,
        (None, other) => {
            return Err(Error::type_error(format!(
                "{} is not a function: Array.from takes a mapper as its second argument, as in \
                 Array.from({{ length: 3 }}, (_, i) => i)",
                coerce::describe(other)
            )));
        }
    };
    let items: Vec<Value> = match args.get(0) {
        Value::Array(items) => {
            cx.array(items.len())?;
            items.as_slice().to_vec()
        }
        Value::String(text) => code_points(cx, text)?,
        Value::Object(object) => {
            let length = match object.get_str("length") {
                Some(length) => to_length(coerce::to_number(cx, length)?),
                None => 0.0,
            };
            if length > f64::from(u32::MAX) {
                return Err(Error::range_error(format!(
                    "Invalid array length: Array.from cannot make {} items; an array holds fewer than 2^32",
                    coerce::number_to_str(length)
                )));
            }
            // Charged before anything is made, so `{length: 1e9}` fails at once.
            cx.array(length as usize)?;
            let len = length as usize;
            if object.len() <= 1 {
                // Nothing but `length`: every item is a hole, read as `undefined`.
                let mut holes = room(len)?;
                holes.resize(len, Value::Undefined);
                holes
            } else {
                (0..len)
                    .map(|index| {
                        object
                            .get(&coerce::number_to_str(index as f64))
                            .cloned()
                            .unwrap_or(Value::Undefined)
                    })
                    .collect()
            }
        }
        Value::Number(_) | Value::Bool(_) => Vec::new(),
        nullish @ (Value::Undefined | Value::Null) => {
            return Err(Error::type_error(format!(
                "{} is not iterable: Array.from takes an array, a string or an object with a length, \
                 as in Array.from({{ length: 3 }}, (_, i) => i)",
                if nullish.is_undefined() {
                    "undefined"
                } else {
                    "object null"
                }
            )));
        }
    };
    let Some(mapper) = mapper else {
        return Ok(Value::Array(Array::from(items)));
    };
    let mut out = Vec::with_capacity(items.len());
    for (index, item) in items.into_iter().enumerate() {
        let mapped = match mapper.arity() {
            0 => cx.call(mapper, &mut [])?,
            1 => cx.call(mapper, &mut [item])?,
            _ => cx.call(mapper, &mut [item, Value::Number(index as f64)])?,
        };
        out.push(mapped);
    }
    Ok(Value::Array(Array::from(out)))
}

/// JavaScript's `ToLength` of a number already converted: an integer from 0 to 2^53 - 1.
fn to_length(n: f64) -> f64 {
    let n = coerce::integer_or_infinity(n);
    n.clamp(0.0, MAX_SAFE_LENGTH)
}

// ------------------------------------------------------------------ toSorted

/// `toSorted(cmp?)`: by the comparator, or by each item's text (computed once), `undefined` last.
fn to_sorted<'r>(cx: &mut Cx<'r>, this: &Array, args: &Args<'_, 'r>) -> Result<Value> {
    let comparator = match (args.callback, args.get(0)) {
        (Some(callback), _) => Some(callback),
        (None, Value::Undefined) => None,
        (None, other) => {
            return Err(Error::type_error(format!(
                "The comparison function must be either a function or undefined, not {}: write \
                 rows.toSorted((a, b) => a.price - b.price), or toSorted() to sort by text",
                coerce::describe(other)
            )));
        }
    };
    let len = this.len();
    cx.array(len)?;
    // `undefined` always sorts last and is never handed to the comparator.
    let defined: Vec<&Value> = this.iter().filter(|item| !item.is_undefined()).collect();
    let undefined_count = len - defined.len();
    let order = match comparator {
        Some(callback) => {
            cx.steps(2 * defined.len() as u64)?;
            tim_sort(defined.len(), |a, b| {
                cx.steps(1)?;
                let (Some(&x), Some(&y)) = (defined.get(a), defined.get(b)) else {
                    return Err(lost_track());
                };
                compare_with(cx, callback, x, y)
            })?
        }
        None => {
            let mut keys = Vec::with_capacity(defined.len());
            for item in &defined {
                keys.push(coerce::to_string(cx, item)?);
            }
            tim_sort(keys.len(), |a, b| {
                let (Some(x), Some(y)) = (keys.get(a), keys.get(b)) else {
                    return Err(lost_track());
                };
                let shorter = x.len_utf16().min(y.len_utf16());
                cx.steps(1 + shorter.div_ceil(crate::interp::CHARS_PER_STEP) as u64)?;
                Ok(match x.cmp(y) {
                    std::cmp::Ordering::Less => -1.0,
                    std::cmp::Ordering::Equal => 0.0,
                    std::cmp::Ordering::Greater => 1.0,
                })
            })?
        }
    };
    let mut out = room(len)?;
    for index in order {
        out.push(defined.get(index).map_or(Value::Undefined, |&item| item.clone()));
    }
    out.extend(std::iter::repeat_n(Value::Undefined, undefined_count));
    Ok(Value::Array(Array::from(out)))
}

/// `comparator(x, y)` as a number: NaN counts as 0 (equal), as in JavaScript.
fn compare_with<'r>(cx: &mut Cx<'r>, comparator: Callback<'r>, x: &Value, y: &Value) -> Result<f64> {
    let mut pair = [x.clone(), y.clone()];
    let arity = comparator.arity().min(2);
    let answer = cx.call(comparator, &mut pair[..arity])?;
    let order = coerce::to_number(cx, &answer)?;
    Ok(if order.is_nan() { 0.0 } else { order })
}

/// The error for a sort whose bookkeeping went out of bounds, which no comparator answer
/// can cause; it stands in for a panic.
#[cold]
fn lost_track() -> Error {
    Error::guardrail("toSorted lost track of its items (a bug in writ): sort with a comparator such as (a, b) => a - b")
}

/// When galloping starts, as in V8 (`kMinGallopWins`).
const MIN_GALLOP: usize = 7;

/// Sorts `0..len` by `compare`, which answers a number whose sign orders its two indices, as
/// V8's `Array.prototype.toSorted` does: TimSort with its run detection, binary insertion,
/// merges and galloping step for step, so that every comparator (consistent or not) sees the
/// same questions in the same order and gets the same permutation as in node. Returns the
/// order of the indices.
fn tim_sort(len: usize, compare: impl FnMut(usize, usize) -> Result<f64>) -> Result<Vec<usize>> {
    let mut sort = TimSort {
        work: (0..len).collect(),
        runs: Vec::new(),
        min_gallop: MIN_GALLOP,
        compare,
    };
    sort.run()?;
    Ok(sort.work)
}

/// The state of one [`tim_sort`].
struct TimSort<F> {
    /// The indices being sorted, in their current order.
    work: Vec<usize>,
    /// Pending runs: `(base, length)`, adjacent, left to right.
    runs: Vec<(usize, usize)>,
    /// When a merge starts galloping; adapts as V8's does.
    min_gallop: usize,
    compare: F,
}

/// How a merge ends (the `Succeed` and `Copy` labels of V8's merges).
enum MergeEnd {
    Succeed,
    CopyRest,
}

/// Reads `slice[index]`, where an out-of-range index is a bug rather than a panic.
fn at(slice: &[usize], index: isize) -> Result<usize> {
    usize::try_from(index)
        .ok()
        .and_then(|index| slice.get(index).copied())
        .ok_or_else(lost_track)
}

/// Writes `slice[index]`.
fn put(slice: &mut [usize], index: isize, value: usize) -> Result<()> {
    let slot = usize::try_from(index)
        .ok()
        .and_then(|index| slice.get_mut(index))
        .ok_or_else(lost_track)?;
    *slot = value;
    Ok(())
}

/// Copies `len` items from `source[from..]` to `target[to..]` (different slices).
fn copy_across(source: &[usize], from: isize, target: &mut [usize], to: isize, len: isize) -> Result<()> {
    let (Ok(from), Ok(to), Ok(len)) = (usize::try_from(from), usize::try_from(to), usize::try_from(len)) else {
        return Err(lost_track());
    };
    let source = source.get(from..from.saturating_add(len)).ok_or_else(lost_track)?;
    target
        .get_mut(to..to.saturating_add(len))
        .ok_or_else(lost_track)?
        .copy_from_slice(source);
    Ok(())
}

/// Copies `len` items of `slice` from `from..` to `to..`, which may overlap.
fn copy_within(slice: &mut [usize], from: isize, to: isize, len: isize) -> Result<()> {
    let (Ok(from), Ok(to), Ok(len)) = (usize::try_from(from), usize::try_from(to), usize::try_from(len)) else {
        return Err(lost_track());
    };
    if from.saturating_add(len) > slice.len() || to.saturating_add(len) > slice.len() {
        return Err(lost_track());
    }
    slice.copy_within(from..from + len, to);
    Ok(())
}

impl<F: FnMut(usize, usize) -> Result<f64>> TimSort<F> {
    /// Asks the comparator how `a` and `b` order.
    fn order(&mut self, a: usize, b: usize) -> Result<f64> {
        (self.compare)(a, b)
    }

    /// `work[to] = work[from]`.
    fn move_item(&mut self, from: isize, to: isize) -> Result<()> {
        let item = at(&self.work, from)?;
        put(&mut self.work, to, item)
    }

    /// Sorts `work`: natural runs, extended to the minimum run by insertion, merged as V8 merges them.
    fn run(&mut self) -> Result<()> {
        let len = self.work.len();
        if len < 2 {
            return Ok(());
        }
        let min_run = min_run_length(len);
        let mut low = 0;
        let mut remaining = len;
        while remaining != 0 {
            let mut run = self.count_and_make_run(low, low + remaining)?;
            if run < min_run {
                let forced = min_run.min(remaining);
                self.binary_insertion_sort(low, low + run, low + forced)?;
                run = forced;
            }
            self.runs.push((low, run));
            self.merge_collapse()?;
            low += run;
            remaining -= run;
        }
        self.merge_force_collapse()
    }

    /// Sorts `work[low..high]` by binary insertion, `work[low..start]` being sorted already.
    fn binary_insertion_sort(&mut self, low: usize, start: usize, high: usize) -> Result<()> {
        let start = if low == start { start + 1 } else { start };
        for start in start..high {
            let pivot = at(&self.work, start as isize)?;
            let (mut left, mut right) = (low, start);
            while left < right {
                let mid = left + (right - left) / 2;
                let other = at(&self.work, mid as isize)?;
                if self.order(pivot, other)? < 0.0 {
                    right = mid;
                } else {
                    left = mid + 1;
                }
            }
            self.work.get_mut(left..=start).ok_or_else(lost_track)?.rotate_right(1);
        }
        Ok(())
    }

    /// The length of the run starting at `low` (ascending, or strictly descending and then
    /// reversed), within `low..high`.
    fn count_and_make_run(&mut self, low: usize, high: usize) -> Result<usize> {
        let next = low + 1;
        if next == high {
            return Ok(1);
        }
        let mut run = 2;
        let mut previous = at(&self.work, next as isize)?;
        let first = at(&self.work, low as isize)?;
        let descending = self.order(previous, first)? < 0.0;
        for index in next + 1..high {
            let current = at(&self.work, index as isize)?;
            let order = self.order(current, previous)?;
            if descending {
                if order >= 0.0 {
                    break;
                }
            } else if order < 0.0 {
                break;
            }
            previous = current;
            run += 1;
        }
        if descending {
            self.work.get_mut(low..low + run).ok_or_else(lost_track)?.reverse();
        }
        Ok(run)
    }

    /// The length of pending run `index` (0 past the end).
    fn run_length(&self, index: usize) -> usize {
        self.runs.get(index).map_or(0, |&(_, len)| len)
    }

    /// Whether run `n - 2` is longer than runs `n - 1` and `n` together.
    fn invariant_holds(&self, n: usize) -> bool {
        n < 2 || self.run_length(n - 2) > self.run_length(n - 1) + self.run_length(n)
    }

    /// Merges pending runs until their lengths decrease fast enough (TimSort's invariants).
    fn merge_collapse(&mut self) -> Result<()> {
        while self.runs.len() > 1 {
            let mut n = self.runs.len() - 2;
            if !self.invariant_holds(n + 1) || !self.invariant_holds(n) {
                if n > 0 && self.run_length(n - 1) < self.run_length(n + 1) {
                    n -= 1;
                }
                self.merge_at(n)?;
            } else if self.run_length(n) <= self.run_length(n + 1) {
                self.merge_at(n)?;
            } else {
                break;
            }
        }
        Ok(())
    }

    /// Merges every pending run, at the end.
    fn merge_force_collapse(&mut self) -> Result<()> {
        while self.runs.len() > 1 {
            let mut n = self.runs.len() - 2;
            if n > 0 && self.run_length(n - 1) < self.run_length(n + 1) {
                n -= 1;
            }
            self.merge_at(n)?;
        }
        Ok(())
    }

    /// Merges runs `i` and `i + 1`.
    fn merge_at(&mut self, i: usize) -> Result<()> {
        let (Some(&(base_a, len_a)), Some(&(base_b, len_b))) = (self.runs.get(i), self.runs.get(i + 1)) else {
            return Err(lost_track());
        };
        if let Some(run) = self.runs.get_mut(i) {
            run.1 = len_a + len_b;
        }
        self.runs.remove(i + 1);
        let (base_a, len_a, base_b, len_b) = (base_a as isize, len_a as isize, base_b as isize, len_b as isize);
        // Where b's first item goes in a: the items of a before it are in place already.
        let key = at(&self.work, base_b)?;
        let k = gallop_right(&mut self.compare, &self.work, key, base_a, len_a, 0)?;
        let (base_a, len_a) = (base_a + k, len_a - k);
        if len_a == 0 {
            return Ok(());
        }
        // Where a's last item goes in b: the items of b after it are in place already.
        let key = at(&self.work, base_a + len_a - 1)?;
        let len_b = gallop_left(&mut self.compare, &self.work, key, base_b, len_b, len_b - 1)?;
        if len_b == 0 {
            return Ok(());
        }
        if len_a <= len_b {
            self.merge_low(base_a, len_a, base_b, len_b)
        } else {
            self.merge_high(base_a, len_a, base_b, len_b)
        }
    }

    /// Merges the runs at `base_a` and `base_b` (adjacent), `len_a <= len_b`, from the left.
    fn merge_low(&mut self, base_a: isize, len_a: isize, base_b: isize, len_b: isize) -> Result<()> {
        let (mut len_a, mut len_b) = (len_a, len_b);
        let temp: Vec<usize> = {
            let (Ok(from), Ok(len)) = (usize::try_from(base_a), usize::try_from(len_a)) else {
                return Err(lost_track());
            };
            self.work.get(from..from + len).ok_or_else(lost_track)?.to_vec()
        };
        let mut dest = base_a;
        let mut cursor_temp: isize = 0;
        let mut cursor_b = base_b;
        self.move_item(cursor_b, dest)?;
        dest += 1;
        cursor_b += 1;
        len_b -= 1;
        let end = 'merge: {
            if len_b == 0 {
                break 'merge MergeEnd::Succeed;
            }
            if len_a == 1 {
                break 'merge MergeEnd::CopyRest;
            }
            let mut min_gallop = self.min_gallop;
            loop {
                let mut wins_a = 0usize;
                let mut wins_b = 0usize;
                // One item at a time, until one run wins often enough in a row.
                loop {
                    let (b, a) = (at(&self.work, cursor_b)?, at(&temp, cursor_temp)?);
                    if self.order(b, a)? < 0.0 {
                        put(&mut self.work, dest, b)?;
                        dest += 1;
                        cursor_b += 1;
                        wins_b += 1;
                        len_b -= 1;
                        wins_a = 0;
                        if len_b == 0 {
                            break 'merge MergeEnd::Succeed;
                        }
                        if wins_b >= min_gallop {
                            break;
                        }
                    } else {
                        put(&mut self.work, dest, a)?;
                        dest += 1;
                        cursor_temp += 1;
                        wins_a += 1;
                        len_a -= 1;
                        wins_b = 0;
                        if len_a == 1 {
                            break 'merge MergeEnd::CopyRest;
                        }
                        if wins_a >= min_gallop {
                            break;
                        }
                    }
                }
                // Galloping, until neither run wins often enough.
                min_gallop += 1;
                let mut first = true;
                while wins_a >= MIN_GALLOP || wins_b >= MIN_GALLOP || first {
                    first = false;
                    min_gallop = min_gallop.saturating_sub(1).max(1);
                    self.min_gallop = min_gallop;
                    let key = at(&self.work, cursor_b)?;
                    let k = gallop_right(&mut self.compare, &temp, key, cursor_temp, len_a, 0)?;
                    wins_a = usize::try_from(k).map_err(|_| lost_track())?;
                    if k > 0 {
                        copy_across(&temp, cursor_temp, &mut self.work, dest, k)?;
                        dest += k;
                        cursor_temp += k;
                        len_a -= k;
                        if len_a == 1 {
                            break 'merge MergeEnd::CopyRest;
                        }
                        // Impossible for a consistent comparator, but not assumed.
                        if len_a == 0 {
                            break 'merge MergeEnd::Succeed;
                        }
                    }
                    self.move_item(cursor_b, dest)?;
                    dest += 1;
                    cursor_b += 1;
                    len_b -= 1;
                    if len_b == 0 {
                        break 'merge MergeEnd::Succeed;
                    }
                    let key = at(&temp, cursor_temp)?;
                    let k = gallop_left(&mut self.compare, &self.work, key, cursor_b, len_b, 0)?;
                    wins_b = usize::try_from(k).map_err(|_| lost_track())?;
                    if k > 0 {
                        copy_within(&mut self.work, cursor_b, dest, k)?;
                        dest += k;
                        cursor_b += k;
                        len_b -= k;
                        if len_b == 0 {
                            break 'merge MergeEnd::Succeed;
                        }
                    }
                    put(&mut self.work, dest, at(&temp, cursor_temp)?)?;
                    dest += 1;
                    cursor_temp += 1;
                    len_a -= 1;
                    if len_a == 1 {
                        break 'merge MergeEnd::CopyRest;
                    }
                }
                // Penalised for leaving galloping mode.
                min_gallop += 1;
                self.min_gallop = min_gallop;
            }
        };
        match end {
            MergeEnd::Succeed => {
                if len_a > 0 {
                    copy_across(&temp, cursor_temp, &mut self.work, dest, len_a)?;
                }
            }
            MergeEnd::CopyRest => {
                // The last item of run a goes after what is left of run b.
                copy_within(&mut self.work, cursor_b, dest, len_b)?;
                put(&mut self.work, dest + len_b, at(&temp, cursor_temp)?)?;
            }
        }
        Ok(())
    }

    /// Merges the runs at `base_a` and `base_b` (adjacent), `len_a > len_b`, from the right.
    fn merge_high(&mut self, base_a: isize, len_a: isize, base_b: isize, len_b: isize) -> Result<()> {
        let (mut len_a, mut len_b) = (len_a, len_b);
        let temp: Vec<usize> = {
            let (Ok(from), Ok(len)) = (usize::try_from(base_b), usize::try_from(len_b)) else {
                return Err(lost_track());
            };
            self.work.get(from..from + len).ok_or_else(lost_track)?.to_vec()
        };
        let mut dest = base_b + len_b - 1;
        let mut cursor_temp = len_b - 1;
        let mut cursor_a = base_a + len_a - 1;
        self.move_item(cursor_a, dest)?;
        dest -= 1;
        cursor_a -= 1;
        len_a -= 1;
        let end = 'merge: {
            if len_a == 0 {
                break 'merge MergeEnd::Succeed;
            }
            if len_b == 1 {
                break 'merge MergeEnd::CopyRest;
            }
            let mut min_gallop = self.min_gallop;
            loop {
                let mut wins_a = 0usize;
                let mut wins_b = 0usize;
                loop {
                    let (b, a) = (at(&temp, cursor_temp)?, at(&self.work, cursor_a)?);
                    if self.order(b, a)? < 0.0 {
                        put(&mut self.work, dest, a)?;
                        dest -= 1;
                        cursor_a -= 1;
                        wins_a += 1;
                        len_a -= 1;
                        wins_b = 0;
                        if len_a == 0 {
                            break 'merge MergeEnd::Succeed;
                        }
                        if wins_a >= min_gallop {
                            break;
                        }
                    } else {
                        put(&mut self.work, dest, b)?;
                        dest -= 1;
                        cursor_temp -= 1;
                        wins_b += 1;
                        len_b -= 1;
                        wins_a = 0;
                        if len_b == 1 {
                            break 'merge MergeEnd::CopyRest;
                        }
                        if wins_b >= min_gallop {
                            break;
                        }
                    }
                }
                min_gallop += 1;
                let mut first = true;
                while wins_a >= MIN_GALLOP || wins_b >= MIN_GALLOP || first {
                    first = false;
                    min_gallop = min_gallop.saturating_sub(1).max(1);
                    self.min_gallop = min_gallop;
                    let key = at(&temp, cursor_temp)?;
                    let k = gallop_right(&mut self.compare, &self.work, key, base_a, len_a, len_a - 1)?;
                    let won = len_a - k;
                    wins_a = usize::try_from(won).map_err(|_| lost_track())?;
                    if won > 0 {
                        dest -= won;
                        cursor_a -= won;
                        copy_within(&mut self.work, cursor_a + 1, dest + 1, won)?;
                        len_a -= won;
                        if len_a == 0 {
                            break 'merge MergeEnd::Succeed;
                        }
                    }
                    put(&mut self.work, dest, at(&temp, cursor_temp)?)?;
                    dest -= 1;
                    cursor_temp -= 1;
                    len_b -= 1;
                    if len_b == 1 {
                        break 'merge MergeEnd::CopyRest;
                    }
                    let key = at(&self.work, cursor_a)?;
                    let k = gallop_left(&mut self.compare, &temp, key, 0, len_b, len_b - 1)?;
                    let won = len_b - k;
                    wins_b = usize::try_from(won).map_err(|_| lost_track())?;
                    if won > 0 {
                        dest -= won;
                        cursor_temp -= won;
                        copy_across(&temp, cursor_temp + 1, &mut self.work, dest + 1, won)?;
                        len_b -= won;
                        if len_b == 1 {
                            break 'merge MergeEnd::CopyRest;
                        }
                        // Impossible for a consistent comparator, but not assumed.
                        if len_b == 0 {
                            break 'merge MergeEnd::Succeed;
                        }
                    }
                    self.move_item(cursor_a, dest)?;
                    dest -= 1;
                    cursor_a -= 1;
                    len_a -= 1;
                    if len_a == 0 {
                        break 'merge MergeEnd::Succeed;
                    }
                }
                min_gallop += 1;
                self.min_gallop = min_gallop;
            }
        };
        match end {
            MergeEnd::Succeed => {
                if len_b > 0 {
                    copy_across(&temp, 0, &mut self.work, dest - (len_b - 1), len_b)?;
                }
            }
            MergeEnd::CopyRest => {
                // The first item of run b goes before what is left of run a.
                dest -= len_a;
                cursor_a -= len_a;
                copy_within(&mut self.work, cursor_a + 1, dest + 1, len_a)?;
                put(&mut self.work, dest, at(&temp, cursor_temp)?)?;
            }
        }
        Ok(())
    }
}

/// The shortest run TimSort builds by insertion: `n` below 64, else between 32 and 64 so that
/// `n / minrun` is just below a power of two.
fn min_run_length(n: usize) -> usize {
    let mut n = n;
    let mut shifted_off = 0;
    while n >= 64 {
        shifted_off |= n & 1;
        n >>= 1;
    }
    n + shifted_off
}

/// Where `key` goes in the sorted `array[base..base + len]`, left of any equal items; the
/// search starts at `hint` and gallops out from it, as V8's `GallopLeft`.
fn gallop_left<F: FnMut(usize, usize) -> Result<f64>>(
    compare: &mut F,
    array: &[usize],
    key: usize,
    base: isize,
    len: isize,
    hint: isize,
) -> Result<isize> {
    let mut last = 0isize;
    let mut offset = 1isize;
    if compare(at(array, base + hint)?, key)? < 0.0 {
        // array[base + hint] < key: gallop right.
        let max = len - hint;
        while offset < max {
            if compare(at(array, base + hint + offset)?, key)? >= 0.0 {
                break;
            }
            last = offset;
            offset = offset.saturating_mul(2).saturating_add(1);
        }
        offset = offset.min(max);
        last += hint;
        offset += hint;
    } else {
        // key <= array[base + hint]: gallop left.
        let max = hint + 1;
        while offset < max {
            if compare(at(array, base + hint - offset)?, key)? < 0.0 {
                break;
            }
            last = offset;
            offset = offset.saturating_mul(2).saturating_add(1);
        }
        offset = offset.min(max);
        (last, offset) = (hint - offset, hint - last);
    }
    last += 1;
    while last < offset {
        let mid = last + (offset - last) / 2;
        if compare(at(array, base + mid)?, key)? < 0.0 {
            last = mid + 1;
        } else {
            offset = mid;
        }
    }
    Ok(offset)
}

/// As [`gallop_left`], but right of any items equal to `key` (V8's `GallopRight`).
fn gallop_right<F: FnMut(usize, usize) -> Result<f64>>(
    compare: &mut F,
    array: &[usize],
    key: usize,
    base: isize,
    len: isize,
    hint: isize,
) -> Result<isize> {
    let mut last = 0isize;
    let mut offset = 1isize;
    if compare(key, at(array, base + hint)?)? < 0.0 {
        // key < array[base + hint]: gallop left.
        let max = hint + 1;
        while offset < max {
            if compare(key, at(array, base + hint - offset)?)? >= 0.0 {
                break;
            }
            last = offset;
            offset = offset.saturating_mul(2).saturating_add(1);
        }
        offset = offset.min(max);
        (last, offset) = (hint - offset, hint - last);
    } else {
        // array[base + hint] <= key: gallop right.
        let max = len - hint;
        while offset < max {
            if compare(key, at(array, base + hint + offset)?)? < 0.0 {
                break;
            }
            last = offset;
            offset = offset.saturating_mul(2).saturating_add(1);
        }
        offset = offset.min(max);
        last += hint;
        offset += hint;
    }
    last += 1;
    while last < offset {
        let mid = last + (offset - last) / 2;
        if compare(key, at(array, base + mid)?)? < 0.0 {
            offset = mid;
        } else {
            last = mid + 1;
        }
    }
    Ok(offset)
}

#[cfg(test)]
mod tests {
    use writ_core::{Limits, Meter};

    use super::*;
    use crate::error::Reason;

    fn json(text: &str) -> Value {
        writ_core::parse_json(text).unwrap_or(Value::Null)
    }

    fn run_with(limits: Limits, this: &Value, method: ArrayMethod, values: &[Value]) -> Result<Value> {
        let program = crate::ast::Program::empty();
        let mut cx = Cx::new(Meter::new(&limits), &program, &[]);
        let Value::Array(items) = this else {
            return Err(Error::guardrail("not an array"));
        };
        call(
            &mut cx,
            items,
            this,
            method,
            &Args {
                values,
                callback: None,
                name: method.name(),
            },
        )
    }

    fn run(this: &str, method: ArrayMethod, values: &[Value]) -> Result<Value> {
        run_with(
            Limits {
                steps: Some(1_000_000),
                ..Limits::UNLIMITED
            },
            &json(this),
            method,
            values,
        )
    }

    fn run_static(function: ArrayFn, values: &[Value], limits: Limits) -> Result<Value> {
        let program = crate::ast::Program::empty();
        let mut cx = Cx::new(Meter::new(&limits), &program, &[]);
        call_static(
            &mut cx,
            function,
            &Args {
                values,
                callback: None,
                name: function.name(),
            },
        )
    }

    fn n(x: f64) -> Value {
        Value::Number(x)
    }

    #[test]
    fn slice_at_and_relative_positions() {
        use ArrayMethod::{At, Slice};
        assert_eq!(run("[1,2,3,4]", Slice, &[n(-2.0)]), Ok(json("[3,4]")));
        assert_eq!(run("[1,2,3,4]", Slice, &[n(1.0), n(-1.0)]), Ok(json("[2,3]")));
        assert_eq!(run("[1,2,3,4]", Slice, &[n(3.0), n(1.0)]), Ok(json("[]")));
        assert_eq!(
            run("[1,2,3,4]", Slice, &[Value::from("1.9"), Value::Undefined]),
            Ok(json("[2,3,4]"))
        );
        assert_eq!(
            run("[1,2,3,4]", Slice, &[n(f64::NEG_INFINITY), n(f64::INFINITY)]),
            Ok(json("[1,2,3,4]"))
        );
        assert_eq!(run("[1,2,3,4]", Slice, &[n(f64::NAN), n(2.0)]), Ok(json("[1,2]")));
        assert_eq!(run("[1,2,3]", At, &[n(-1.0)]), Ok(n(3.0)));
        assert_eq!(run("[1,2,3]", At, &[n(3.0)]), Ok(Value::Undefined));
        assert_eq!(run("[1,2,3]", At, &[n(-4.0)]), Ok(Value::Undefined));
        assert_eq!(run("[1,2,3]", At, &[]), Ok(n(1.0)));
        assert_eq!(run("[1,2,3]", At, &[n(1.5)]), Ok(n(2.0)));
    }

    #[test]
    fn searches_use_javascript_equality() {
        use ArrayMethod::{Includes, IndexOf, LastIndexOf};
        let nan = n(f64::NAN);
        let this = json("[1,2,1,0]");
        let search = |method, values: &[Value]| run_with(Limits::UNLIMITED, &this, method, values);
        assert_eq!(search(Includes, &[n(-0.0)]), Ok(Value::Bool(true)));
        assert_eq!(search(IndexOf, &[n(1.0), n(1.0)]), Ok(n(2.0)));
        assert_eq!(search(IndexOf, &[n(1.0), n(-2.0)]), Ok(n(2.0)));
        assert_eq!(search(IndexOf, &[n(1.0), n(f64::INFINITY)]), Ok(n(-1.0)));
        assert_eq!(search(LastIndexOf, &[n(1.0)]), Ok(n(2.0)));
        assert_eq!(search(LastIndexOf, &[n(1.0), Value::Undefined]), Ok(n(0.0)));
        assert_eq!(search(LastIndexOf, &[n(1.0), n(-3.0)]), Ok(n(0.0)));
        assert_eq!(search(LastIndexOf, &[n(1.0), n(-5.0)]), Ok(n(-1.0)));
        assert_eq!(search(LastIndexOf, &[n(1.0), n(f64::INFINITY)]), Ok(n(2.0)));
        assert_eq!(search(Includes, &[n(1.0), n(3.0)]), Ok(Value::Bool(false)));
        assert_eq!(search(Includes, &[Value::from("1")]), Ok(Value::Bool(false)));
        let with_nan = Value::Array(Array::from(vec![nan.clone()]));
        assert_eq!(
            run_with(Limits::UNLIMITED, &with_nan, Includes, std::slice::from_ref(&nan)),
            Ok(Value::Bool(true))
        );
        assert_eq!(
            run_with(Limits::UNLIMITED, &with_nan, IndexOf, std::slice::from_ref(&nan)),
            Ok(n(-1.0))
        );
        // Objects by identity.
        let inner = json("{}");
        let holder = Value::Array(Array::from(vec![json("{}"), inner.clone()]));
        assert_eq!(run_with(Limits::UNLIMITED, &holder, IndexOf, &[inner]), Ok(n(1.0)));
        assert_eq!(
            run_with(Limits::UNLIMITED, &holder, Includes, &[json("{}")]),
            Ok(Value::Bool(false))
        );
        // A step per element, charged up front.
        let big = Value::Array((0..1_000).map(|i| n(f64::from(i))).collect());
        let limits = Limits {
            steps: Some(500),
            ..Limits::UNLIMITED
        };
        assert_eq!(
            run_with(limits, &big, Includes, &[n(0.0)]).unwrap_err().reason(),
            Reason::BudgetExceeded
        );
    }

    #[test]
    fn concat_join_and_text() {
        use ArrayMethod::{Concat, Join, ToString, ValueOf};
        assert_eq!(
            run("[1,2]", Concat, &[n(3.0), json("[4,[5]]"), Value::from("ab")]),
            Ok(json(r#"[1,2,3,4,[5],"ab"]"#))
        );
        assert_eq!(run("[1,2]", Concat, &[]), Ok(json("[1,2]")));
        assert_eq!(
            run("[null,1,[2,[3,null]],true]", Join, &[]),
            Ok(Value::from(",1,2,3,,true"))
        );
        assert_eq!(run("[1,2]", Join, &[Value::Undefined]), Ok(Value::from("1,2")));
        assert_eq!(run("[1,2]", Join, &[Value::Null]), Ok(Value::from("1null2")));
        assert_eq!(run("[1,2]", Join, &[Value::from(" - ")]), Ok(Value::from("1 - 2")));
        assert_eq!(
            run(r#"[{"a":1},1.5]"#, ToString, &[]),
            Ok(Value::from("[object Object],1.5"))
        );
        let this = json("[1]");
        let same = run_with(Limits::UNLIMITED, &this, ValueOf, &[]);
        assert!(matches!((&same, &this), (Ok(Value::Array(a)), Value::Array(b)) if a.ptr_eq(b)));
        let limits = Limits {
            max_array_length: Some(3),
            ..Limits::UNLIMITED
        };
        assert_eq!(
            run_with(limits, &json("[1,2]"), Concat, &[json("[3,4]")])
                .unwrap_err()
                .reason(),
            Reason::BudgetExceeded
        );
    }

    #[test]
    fn flat_goes_as_deep_as_asked_up_to_the_cap() {
        use ArrayMethod::Flat;
        assert_eq!(run("[1,[2,[3,[4]]]]", Flat, &[]), Ok(json("[1,2,[3,[4]]]")));
        assert_eq!(run("[1,[2,[3,[4]]]]", Flat, &[n(f64::INFINITY)]), Ok(json("[1,2,3,4]")));
        assert_eq!(run("[1,[2,[3]]]", Flat, &[n(-1.0)]), Ok(json("[1,[2,[3]]]")));
        assert_eq!(run("[1,[2]]", Flat, &[Value::from("a")]), Ok(json("[1,[2]]")));
        assert_eq!(run("[[],[[]]]", Flat, &[n(2.0)]), Ok(json("[]")));
        let deep = format!("{}1{}", "[".repeat(40), "]".repeat(40));
        let flattened = format!(
            "[{}1{}]",
            "[".repeat(40 - 1 - MAX_FLAT_DEPTH),
            "]".repeat(40 - 1 - MAX_FLAT_DEPTH)
        );
        assert_eq!(run(&deep, Flat, &[n(f64::INFINITY)]), Ok(json(&flattened)));
        // The result is charged before it is built: a shared array flattened 2^20 times over.
        let mut doubling = json("[1,2]");
        for _ in 0..19 {
            doubling = Value::Array(Array::from(vec![doubling.clone(), doubling]));
        }
        let limits = Limits {
            steps: Some(100_000),
            ..Limits::UNLIMITED
        };
        assert_eq!(
            run_with(limits, &doubling, Flat, &[n(30.0)]).unwrap_err().reason(),
            Reason::BudgetExceeded
        );
    }

    #[test]
    fn copies_with_changes() {
        use ArrayMethod::{ToReversed, ToSpliced, With};
        assert_eq!(run("[1,2,3]", ToReversed, &[]), Ok(json("[3,2,1]")));
        assert_eq!(run("[1,2,3]", ToSpliced, &[]), Ok(json("[1,2,3]")));
        assert_eq!(run("[1,2,3]", ToSpliced, &[n(1.0)]), Ok(json("[1]")));
        assert_eq!(
            run("[1,2,3]", ToSpliced, &[n(1.0), Value::Undefined]),
            Ok(json("[1,2,3]"))
        );
        assert_eq!(
            run("[1,2,3]", ToSpliced, &[Value::Undefined, n(1.0), n(9.0)]),
            Ok(json("[9,2,3]"))
        );
        assert_eq!(
            run("[1,2,3]", ToSpliced, &[n(-1.0), n(5.0), n(7.0), n(8.0)]),
            Ok(json("[1,2,7,8]"))
        );
        assert_eq!(
            run("[1,2,3]", ToSpliced, &[n(5.0), n(-2.0), n(4.0)]),
            Ok(json("[1,2,3,4]"))
        );
        assert_eq!(run("[1,2,3]", With, &[n(-1.0), n(9.0)]), Ok(json("[1,2,9]")));
        assert_eq!(
            run("[1,2,3]", With, &[n(0.0)]),
            Ok(Value::Array(Array::from(vec![Value::Undefined, n(2.0), n(3.0)])))
        );
        for index in [3.0, -4.0, f64::INFINITY] {
            let error = run("[1,2,3]", With, &[n(index), n(0.0)]).unwrap_err();
            assert_eq!(error.reason(), Reason::ExpressionRuntime);
            assert!(error.message().starts_with("Invalid index : "), "{}", error.message());
        }
        assert_eq!(
            run("[]", With, &[n(0.0), n(0.0)]).unwrap_err().reason(),
            Reason::ExpressionRuntime
        );
    }

    #[test]
    fn callbacks_that_are_not_functions_fail_even_on_empty_arrays() {
        use ArrayMethod as M;
        for method in [
            M::Map,
            M::Filter,
            M::Reduce,
            M::ReduceRight,
            M::Find,
            M::FindIndex,
            M::FindLast,
            M::FindLastIndex,
            M::Some,
            M::Every,
            M::FlatMap,
        ] {
            let error = run("[]", method, &[n(5.0)]).unwrap_err();
            assert_eq!(error.reason(), Reason::ExpressionRuntime, "{method:?}");
            assert!(
                error.message().starts_with("5 is not a function"),
                "{}",
                error.message()
            );
        }
        let error = run("[]", M::ToSorted, &[n(5.0)]).unwrap_err();
        assert_eq!(error.reason(), Reason::ExpressionRuntime);
        assert!(
            error
                .message()
                .starts_with("The comparison function must be either a function or undefined")
        );
    }

    #[test]
    fn default_sort_orders_by_text_with_undefined_last() {
        let mut items = json(r#"[3,null,"b",10,1,"a",null,[2],null,"B"]"#)
            .as_array()
            .map(|a| a.as_slice().to_vec())
            .unwrap_or_default();
        items[1] = Value::Undefined;
        items[8] = Value::Undefined;
        let this = Value::Array(Array::from(items));
        let sorted = run_with(Limits::UNLIMITED, &this, ArrayMethod::ToSorted, &[]);
        let mut expected = json(r#"[1,10,[2],3,"B","a","b",null,null,null]"#)
            .as_array()
            .map(|a| a.as_slice().to_vec())
            .unwrap_or_default();
        expected[8] = Value::Undefined;
        expected[9] = Value::Undefined;
        assert_eq!(sorted, Ok(Value::Array(Array::from(expected))));
        // UTF-16 code-unit order: an astral character sorts below U+FFFF.
        assert_eq!(
            run(r#"["\ud83d\ude00","\uffff","a","\u00e9"]"#, ArrayMethod::ToSorted, &[]),
            Ok(json(r#"["a","\u00e9","\ud83d\ude00","\uffff"]"#))
        );
        assert_eq!(run("[]", ArrayMethod::ToSorted, &[Value::Undefined]), Ok(json("[]")));
        // Each comparison costs a step and more for long keys.
        let long: Vec<Value> = (0..200)
            .map(|i| Value::from(format!("{}{i}", "x".repeat(160))))
            .rev()
            .collect();
        let limits = Limits {
            steps: Some(5_000),
            ..Limits::UNLIMITED
        };
        let error = run_with(limits, &Value::Array(Array::from(long)), ArrayMethod::ToSorted, &[]).unwrap_err();
        assert_eq!(error.reason(), Reason::BudgetExceeded);
    }

    /// V8's TimSort, step for step: even comparators that are not consistent give node's
    /// answer (these were printed by node 20).
    #[test]
    fn tim_sort_matches_node_for_any_comparator() {
        let sort = |items: &[i64], compare: &dyn Fn(i64, i64) -> f64| -> Vec<i64> {
            let order = tim_sort(items.len(), |a, b| Ok(compare(items[a], items[b]))).unwrap_or_default();
            order.into_iter().map(|i| items[i]).collect()
        };
        let parse = |text: &str| -> Vec<i64> {
            json(text)
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_number).map(|x| x as i64).collect())
                .unwrap_or_default()
        };
        // `(a, b) => a > b` answers 1 or 0, never "less": V8 leaves most of the order alone.
        let a: Vec<i64> = (0..100).map(|i| (i * 37) % 101).collect();
        let expected = parse(
            "[0,37,74,10,47,84,20,57,94,30,67,3,40,77,13,50,87,23,60,97,33,70,6,43,80,16,53,90,26,63,100,36,73,9,46,83,19,56,93,29,66,2,39,76,12,49,86,22,59,96,32,69,5,42,79,15,52,89,25,62,99,35,72,8,45,82,18,55,92,28,65,1,38,75,11,48,85,21,58,95,31,68,4,41,78,14,51,88,24,61,98,34,71,7,44,81,17,54,91,27]",
        );
        assert_eq!(sort(&a, &|x, y| f64::from(u8::from(x > y))), expected);
        // A comparator that is no order at all, over 300 items (runs, merges, galloping).
        let b: Vec<i64> = (0..300).map(|i| (i * 7919) % 1009).collect();
        let expected = parse(
            "[0,856,703,550,397,244,91,947,794,641,488,335,182,29,885,732,579,426,273,120,976,823,670,517,364,211,58,914,761,608,455,302,149,1005,852,699,546,393,240,87,943,790,637,484,331,178,25,881,728,575,422,269,116,972,819,666,513,360,207,54,910,757,604,451,298,145,1001,848,695,542,389,236,83,939,786,633,480,327,174,21,877,724,571,418,265,112,968,815,662,509,356,203,50,906,753,600,447,294,141,997,844,691,538,385,232,79,935,782,629,476,323,170,17,873,720,567,414,261,108,964,811,658,505,352,199,46,902,749,596,443,290,137,993,840,687,534,381,228,75,931,778,625,472,319,166,13,869,716,563,410,257,104,960,807,654,501,348,195,42,898,745,592,439,286,133,989,836,683,530,377,224,71,927,774,621,468,315,162,9,865,712,559,406,253,100,956,803,650,497,344,191,38,894,741,588,435,282,129,985,832,679,526,373,220,67,923,770,617,464,311,158,5,861,708,555,402,249,96,952,799,646,493,340,187,34,890,737,584,431,278,125,981,828,675,522,369,216,63,919,766,613,460,307,154,1,857,704,551,398,245,92,948,795,642,489,336,183,30,886,733,580,427,274,121,977,824,671,518,365,212,59,915,762,609,456,303,150,1006,853,700,547,394,241,88,944,791,638,485,332,179,26,882,729,576,423,270,117,973,820,667]",
        );
        assert_eq!(sort(&b, &|x, y| ((x * 7 + y * 13) % 5 - 2) as f64), expected);
        // A consistent comparator with ties keeps equal items in order (stable).
        let c: Vec<i64> = (0..200).map(|i| if i % 50 < 25 { i } else { 1000 - i }).collect();
        let expected = parse(
            "[0,3,6,9,12,15,18,21,24,975,972,969,966,963,960,957,954,951,51,54,57,60,63,66,69,72,924,921,918,915,912,909,906,903,102,105,108,111,114,117,120,123,873,870,867,864,861,858,855,852,150,153,156,159,162,165,168,171,174,825,822,819,816,813,810,807,804,801,1,4,7,10,13,16,19,22,973,970,967,964,961,958,955,952,52,55,58,61,64,67,70,73,925,922,919,916,913,910,907,904,901,100,103,106,109,112,115,118,121,124,874,871,868,865,862,859,856,853,151,154,157,160,163,166,169,172,823,820,817,814,811,808,805,802,2,5,8,11,14,17,20,23,974,971,968,965,962,959,956,953,50,53,56,59,62,65,68,71,74,923,920,917,914,911,908,905,902,101,104,107,110,113,116,119,122,875,872,869,866,863,860,857,854,851,152,155,158,161,164,167,170,173,824,821,818,815,812,809,806,803]",
        );
        assert_eq!(sort(&c, &|x, y| (x % 3 - y % 3) as f64), expected);
        assert_eq!(sort(&[5, 3, 9, 1, 7, 2], &|_, _| -1.0), [2, 7, 1, 9, 3, 5]);
    }

    /// Whatever a comparator answers, the sort ends within n·log n comparisons and keeps
    /// every item exactly once.
    #[test]
    fn tim_sort_survives_any_comparator() {
        let mut state = 0x2545F4914F6CDD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for len in [0usize, 1, 2, 3, 10, 63, 64, 65, 200, 1_000, 5_000] {
            let mut comparisons = 0u64;
            let answers = [-1.0, 0.0, 1.0, f64::NAN, -0.0, f64::INFINITY];
            let order = tim_sort(len, |_, _| {
                comparisons += 1;
                Ok(answers[(next() % answers.len() as u64) as usize])
            });
            let mut order = order.unwrap_or_default();
            order.sort_unstable();
            assert_eq!(order, (0..len).collect::<Vec<_>>());
            let bound = (len as f64) * (len.max(2) as f64).log2() * 3.0 + len as f64;
            assert!(
                (comparisons as f64) <= bound,
                "{len} items took {comparisons} comparisons"
            );
        }
        // An error from the comparator stops the sort.
        let mut calls = 0;
        let stopped = tim_sort(100, |_, _| {
            calls += 1;
            if calls == 10 {
                Err(Error::type_error("boom"))
            } else {
                Ok(1.0)
            }
        });
        assert_eq!(stopped.map_err(|e| e.message().to_owned()), Err("boom".to_owned()));
    }

    #[test]
    fn array_statics() {
        let limits = Limits {
            steps: Some(1_000_000),
            ..Limits::UNLIMITED
        };
        assert_eq!(
            run_static(ArrayFn::IsArray, &[json("[]")], limits),
            Ok(Value::Bool(true))
        );
        assert_eq!(
            run_static(ArrayFn::IsArray, &[json("{}")], limits),
            Ok(Value::Bool(false))
        );
        assert_eq!(run_static(ArrayFn::IsArray, &[], limits), Ok(Value::Bool(false)));
        assert_eq!(
            run_static(ArrayFn::Of, &[n(1.0), Value::from("a")], limits),
            Ok(json(r#"[1,"a"]"#))
        );
        assert_eq!(run_static(ArrayFn::Of, &[], limits), Ok(json("[]")));
        let from = |values: &[Value]| run_static(ArrayFn::From, values, limits);
        assert_eq!(from(&[json("[1,2]")]), Ok(json("[1,2]")));
        assert_eq!(
            from(&[Value::from("a\u{1F600}b")]),
            Ok(json(r#"["a","\ud83d\ude00","b"]"#))
        );
        let lone = Value::String(Str::from_utf16(&[0x61, 0xD800]));
        assert_eq!(
            from(&[lone]),
            Ok(Value::Array(Array::from(vec![
                Value::from("a"),
                Value::String(Str::from_utf16(&[0xD800]))
            ])))
        );
        let holes = |len: usize| Value::Array(Array::from(vec![Value::Undefined; len]));
        assert_eq!(from(&[json(r#"{"length":3}"#)]), Ok(holes(3)));
        assert_eq!(from(&[json(r#"{"length":"2"}"#)]), Ok(holes(2)));
        assert_eq!(from(&[json(r#"{"length":-1}"#)]), Ok(holes(0)));
        assert_eq!(
            from(&[json(r#"{"length":2.7,"0":"a","x":1}"#)]),
            Ok(Value::Array(Array::from(vec![Value::from("a"), Value::Undefined])))
        );
        assert_eq!(from(&[json(r#"{"a":1}"#)]), Ok(holes(0)));
        assert_eq!(from(&[n(5.0)]), Ok(holes(0)));
        assert_eq!(from(&[Value::Bool(true)]), Ok(holes(0)));
        assert_eq!(from(&[json("[1]"), Value::Undefined]), Ok(json("[1]")));
        for bad in [vec![Value::Null], vec![], vec![json("[1]"), n(5.0)]] {
            assert_eq!(from(&bad).unwrap_err().reason(), Reason::ExpressionRuntime, "{bad:?}");
        }
        // `{length: 1e9}` fails before anything is made.
        let huge = json(r#"{"length":1e9}"#);
        let capped = Limits {
            steps: Some(1_000_000),
            max_array_length: Some(100_000),
            ..Limits::UNLIMITED
        };
        assert_eq!(
            run_static(ArrayFn::From, &[huge], capped).unwrap_err().reason(),
            Reason::BudgetExceeded
        );
        let unbounded = json(r#"{"length":1e300}"#);
        assert_eq!(
            run_static(ArrayFn::From, &[unbounded], Limits::UNLIMITED)
                .unwrap_err()
                .reason(),
            Reason::ExpressionRuntime
        );
    }

    /// The data of seed 004's examples.
    fn rows_context() -> writ_core::Object {
        let rows = json(
            r#"[{"name":"Mug","stock":4,"status":"open"},{"name":"Kettle","stock":0,"status":"sold"},{"name":"Beans","stock":12,"status":"open"}]"#,
        );
        std::iter::once((Str::from("rows"), rows)).collect()
    }

    /// Callback methods end to end, against what node 20 printed for each expression.
    #[test]
    fn callback_methods_give_nodes_answers() {
        let cases: &[(&str, &str)] = &[
            ("rows.map(r => r.name)", r#"["Mug","Kettle","Beans"]"#),
            ("rows.map(r => r.name).join(\", \")", r#""Mug, Kettle, Beans""#),
            ("rows.filter(r => r.stock > 0).length", r#"2"#),
            ("rows.filter(r => r.stock > 0).map(r => r.name)", r#"["Mug","Beans"]"#),
            ("rows.reduce((sum, r) => sum + r.stock, 0)", r#"16"#),
            ("rows.reduce((a, r) => a + r.name)", r#""[object Object]KettleBeans""#),
            ("rows.reduceRight((a, r) => a + r.name, \"\")", r#""BeansKettleMug""#),
            ("rows.reduce((acc, r, i, all) => acc + i * all.length, 0)", r#"9"#),
            ("rows.reduce(a => a + 1, 0)", r#"3"#),
            ("rows.reduce(() => 7)", r#"7"#),
            ("[].reduce((a, b) => a + b, \"init\")", r#""init""#),
            ("[5].reduce((a, b) => a + b)", r#"5"#),
            (
                "rows.find(r => r.stock === 0)",
                r#"{"name":"Kettle","stock":0,"status":"sold"}"#,
            ),
            ("rows.find(r => r.stock > 100)", r#"undefined"#),
            ("rows.findIndex(r => r.status === \"open\")", r#"0"#),
            (
                "rows.findLast(r => r.status === \"open\")",
                r#"{"name":"Beans","stock":12,"status":"open"}"#,
            ),
            ("rows.findLastIndex(r => r.status === \"open\")", r#"2"#),
            ("rows.findLastIndex(r => r.status === \"gone\")", r#"-1"#),
            ("rows.some(r => r.stock > 10)", r#"true"#),
            ("rows.every(r => r.stock > 10)", r#"false"#),
            ("[].every(x => false)", r#"true"#),
            ("[].some(x => true)", r#"false"#),
            (
                "rows.flatMap(r => [r.name, r.stock])",
                r#"["Mug",4,"Kettle",0,"Beans",12]"#,
            ),
            ("rows.flatMap(r => r.stock > 0 ? [r.name] : [])", r#"["Mug","Beans"]"#),
            ("[1, 2, 3].flatMap(x => [[x, x * 2]])", r#"[[1,2],[2,4],[3,6]]"#),
            ("[1, 2, 3].flatMap((x, i, a) => a.length + i)", r#"[3,4,5]"#),
            (
                "rows.toSorted((a, b) => a.stock - b.stock).map(r => r.name)",
                r#"["Kettle","Mug","Beans"]"#,
            ),
            (
                "rows.toSorted((a, b) => b.name < a.name ? -1 : 1).map(r => r.name)",
                r#"["Mug","Kettle","Beans"]"#,
            ),
            (
                "rows.toSorted((a, b) => a.name > b.name).map(r => r.name)",
                r#"["Mug","Kettle","Beans"]"#,
            ),
            ("rows.map(r => r.name).toSorted()", r#"["Beans","Kettle","Mug"]"#),
            ("[10, 9, 1, undefined, 2, 100].toSorted()", r#"[1,10,100,2,9,null]"#),
            (
                "[10, 9, 1, undefined, 2, 100].toSorted((a, b) => a - b)",
                r#"[1,2,9,10,100,null]"#,
            ),
            ("[3, 1, 2].toSorted(() => 0)", r#"[3,1,2]"#),
            (
                "[\"b\", \"a\", \"c\"].toSorted((a, b) => a.localeCompare(b))",
                r#"["a","b","c"]"#,
            ),
            ("[3, 1, 2].toSorted(Number)", r#"[3,1,2]"#),
            ("[3, 1, 2].map(String)", r#"["3","1","2"]"#),
            ("[\"1\", \"2\", \"x\"].map(Number)", r#"[1,2,null]"#),
            ("[0, 1, \"\", \"a\", null].filter(Boolean)", r#"[1,"a"]"#),
            ("Array.from({ length: 3 }, (_, i) => i * 2)", r#"[0,2,4]"#),
            ("Array.from({ length: 3 })", r#"[null,null,null]"#),
            ("Array.from(\"abc\", c => c + c)", r#"["aa","bb","cc"]"#),
            ("Array.from([1, 2], (x, i) => x * 10 + i)", r#"[10,21]"#),
            ("Array.from([1, 2], Number)", r#"[1,2]"#),
            (
                "Array.from({ length: 2, 0: \"a\", 1: \"b\" }, (v, i) => v + i)",
                r#"["a0","b1"]"#,
            ),
            ("rows.map((r, i, a) => a.length - i)", r#"[3,2,1]"#),
            ("rows.map((r, i, a) => a === rows)", r#"[true,true,true]"#),
            (
                "rows.map(({ name, stock = 1 }) => name + stock)",
                r#"["Mug4","Kettle0","Beans12"]"#,
            ),
            ("[[1, 2], [3]].reduce((acc, x) => acc.concat(x), [])", r#"[1,2,3]"#),
            ("[1, 2, 3].map((x) => [x]).flat()", r#"[1,2,3]"#),
            ("[1, [2, [3, [4, [5]]]]].flat(2)", r#"[1,2,3,[4,[5]]]"#),
            ("rows.filter((r, i) => i > 0).length", r#"2"#),
            ("[1, 2, 3, 4].filter((x, i, a) => a.indexOf(x) === i)", r#"[1,2,3,4]"#),
            ("rows.map(r => r.stock).reduce((a, b) => Math.max(a, b))", r#"12"#),
            (
                "rows.map(r => r.stock).toSorted((a, b) => b - a).slice(0, 2)",
                r#"[12,4]"#,
            ),
            (
                "JSON.stringify(rows.map(r => ({ n: r.name })))",
                r#""[{\"n\":\"Mug\"},{\"n\":\"Kettle\"},{\"n\":\"Beans\"}]""#,
            ),
            ("rows.map(r => r.name).includes(\"Mug\")", r#"true"#),
            ("rows.map(r => r.stock).indexOf(0)", r#"1"#),
            ("[1, 2, 3].map(x => x * 2).with(1, 0)", r#"[2,0,6]"#),
            ("[1, 2, 3].map(x => x * 2).toSpliced(1, 1)", r#"[2,6]"#),
            ("[1, 2, 3].map(x => x * 2).at(-1)", r#"6"#),
            ("[1, 2, 3].map(x => x * 2).toReversed()", r#"[6,4,2]"#),
            ("[5, 1, 4].toSorted().toReversed().join(\"-\")", r#""5-4-1""#),
            ("Math.max(...rows.map(r => r.stock))", r#"12"#),
            ("rows.map(r => Math.round(r.stock / 3))", r#"[1,0,4]"#),
            (
                "[1, 2, 3].map(x => Math.pow(x, 0.5))",
                r#"[1,1.4142135623730951,1.7320508075688772]"#,
            ),
            (
                "[1, 2, 3].map(x => Math.sin(x) + Math.cos(x))",
                r#"[1.3817732906760363,0.4931505902785393,-0.8488724885405782]"#,
            ),
            ("rows.find(r => r.name.startsWith(\"K\"))?.stock", r#"0"#),
            ("[1, 2, 3].reduce((a, b) => a + b, undefined)", r#"null"#),
            ("[1, 2, 3].find(x => x > 1, 99)", r#"2"#),
            (
                "[[3, \"c\"], [1, \"a\"], [2, \"b\"]].toSorted((x, y) => x[0] - y[0]).map(p => p[1]).join(\"\")",
                r#""abc""#,
            ),
            (
                "Array.from({ length: 40 }, (_, i) => (i * 17) % 13).toSorted((a, b) => a > b)",
                r#"[0,4,8,12,3,7,11,2,6,10,1,5,9,0,4,8,12,3,7,11,2,6,10,1,5,9,0,4,8,12,3,7,11,2,6,10,1,5,9,0]"#,
            ),
            (
                "Array.from({ length: 100 }, (_, i) => (i * 37) % 101).toSorted((a, b) => (a % 7) - (b % 7)).slice(0, 20)",
                r#"[0,84,77,70,63,56,49,42,35,28,21,14,98,7,91,57,50,43,36,29]"#,
            ),
        ];
        let context = rows_context();
        let evaluator = crate::Evaluator::new();
        for (source, expected) in cases {
            let got = evaluator.eval(source, &[&context]).map(|value| value.to_json_string());
            let expected = Some((*expected).to_owned()).filter(|text| text != "undefined");
            assert_eq!(got, Ok(expected), "{source}");
        }
    }

    #[test]
    fn callback_errors_are_javascripts() {
        let context = rows_context();
        let evaluator = crate::Evaluator::new();
        for source in [
            "[].reduce((a, b) => a + b)",
            "[].reduceRight((a, b) => a + b)",
            "[3, 2, 1].toSorted(5)",
            "rows.map(5)",
            "[1].map()",
            "rows.filter(\"x\")",
            "Array.from([1], 5)",
            "Array.from(null, x => x)",
            "[1, 2].with(2, 0)",
        ] {
            let error = evaluator.eval(source, &[&context]).unwrap_err();
            assert_eq!(error.reason(), Reason::ExpressionRuntime, "{source}: {error:?}");
        }
        // An error inside a callback stops the method.
        let error = evaluator
            .eval("rows.map(r => r.missing.name)", &[&context])
            .unwrap_err();
        assert_eq!(error.reason(), Reason::ExpressionRuntime);
    }

    #[test]
    fn callback_methods_are_charged() {
        let budget = |steps: u64| crate::Budget {
            steps,
            ms: 60_000,
            ..crate::Budget::default()
        };
        let small = crate::Evaluator::builder()
            .budget(budget(20_000))
            .build()
            .unwrap_or_default();
        for source in [
            "Array.from({ length: 1e6 })",
            "Array.from({ length: 100000 }, (_, i) => i)",
            "Array.from({ length: 3000 }, (_, i) => (i * 7919) % 3001).toSorted((a, b) => a - b)",
            "Array.from({ length: 5000 }, (_, i) => i).map(x => [x, x]).flat()",
            "Array.from({ length: 5000 }, (_, i) => i).flatMap(x => [x, x, x])",
        ] {
            let error = small.eval(source, &[]).unwrap_err();
            assert_eq!(error.reason(), Reason::BudgetExceeded, "{source}: {error:?}");
        }
        // A comparator that answers anything still ends.
        let roomy = crate::Evaluator::builder()
            .budget(budget(1_000_000))
            .build()
            .unwrap_or_default();
        let answer = roomy.eval(
            "Array.from({ length: 500 }, (_, i) => i).toSorted((a, b) => (a * b) % 3 - 1).length",
            &[],
        );
        assert_eq!(answer, Ok(Value::Number(500.0)));
    }
}
