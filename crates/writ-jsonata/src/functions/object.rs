//! Object built-ins, the higher-order functions over objects, `$error`, `$assert` and `$type`.
//!
//! Objects built here keep JavaScript's property order, as jsonata-js's plain objects do:
//! array-index keys (`"0"`, `"17"`) first in ascending order, then the rest in the order they
//! were first set. `$keys`, `$lookup` and `$spread` descend through nested arrays with an
//! explicit stack, so deep input cannot exhaust the call stack.

use writ_core::{Object, Str, Value};

use super::Builtin;
use super::array::{hof_args, js_truthy};
use crate::error::{Code, Error, Result};
use crate::eval::Cx;
use crate::value::{Val, boolean};

pub(super) const TABLE: &[Builtin] = &[
    Builtin {
        name: "keys",
        signature: "<x-:a<s>>",
        imp: keys,
    },
    Builtin {
        name: "lookup",
        signature: "<x-s:x>",
        imp: lookup,
    },
    Builtin {
        name: "spread",
        signature: "<x-:a<o>>",
        imp: spread,
    },
    Builtin {
        name: "merge",
        signature: "<a<o>:o>",
        imp: merge,
    },
    Builtin {
        name: "each",
        signature: "<o-f:a>",
        imp: each,
    },
    Builtin {
        name: "sift",
        signature: "<o-f?:o>",
        imp: sift,
    },
    Builtin {
        name: "error",
        signature: "<s?:x>",
        imp: error,
    },
    Builtin {
        name: "assert",
        signature: "<bs?:x>",
        imp: assert,
    },
    Builtin {
        name: "type",
        signature: "<x:s>",
        imp: type_of,
    },
];

/// Argument `idx`, with a missing one read as no value.
fn arg(args: &[Val], idx: usize) -> Val {
    args.get(idx).cloned().unwrap_or_default()
}

/// Calls `visit` with each value in `value` that is not an array, depth first and in order,
/// looking inside nested arrays; a value that is not an array is visited itself. Each array
/// opened is charged its length first.
fn for_each_leaf(
    value: &Val,
    charge: &mut impl FnMut(u64) -> Result<()>,
    visit: &mut impl FnMut(Val) -> Result<()>,
) -> Result<()> {
    if !value.is_array() {
        return visit(value.clone());
    }
    charge(value.as_array().map_or(0, |items| items.len()) as u64)?;
    let mut stack: Vec<(Val, usize)> = vec![(value.clone(), 0)];
    while let Some((array, next)) = stack.last_mut() {
        let Some(item) = array.as_array().and_then(|items| items.get(*next)) else {
            stack.pop();
            continue;
        };
        *next += 1;
        if item.is_array() {
            charge(item.as_array().map_or(0, |items| items.len()) as u64)?;
            stack.push((item, 0));
        } else {
            visit(item)?;
        }
    }
    Ok(())
}

/// An object of `entries` in JavaScript's property order: a writ-core object unless some value
/// holds a function.
pub(super) fn build_object(cx: &mut Cx<'_>, entries: Vec<(Str, Val)>) -> Result<Val> {
    cx.steps(entries.len() as u64)?;
    cx.make_object(entries)
}

/// The keys of every object in `value` (through nested arrays), each once, in JavaScript's
/// order for an object that was given them in turn.
fn all_keys(value: &Val, charge: &mut impl FnMut(u64) -> Result<()>) -> Result<Vec<Str>> {
    if let Some(object) = value.as_object() {
        charge(object.len() as u64)?;
        return Ok(object.keys());
    }
    if !value.is_array() {
        return Ok(Vec::new());
    }
    let mut objects = Vec::new();
    for_each_leaf(value, charge, &mut |leaf| {
        if leaf.is_object() {
            objects.push(leaf);
        }
        Ok(())
    })?;
    // A writ-core object is the ordered set: a repeated key keeps its place.
    let mut union = Object::new();
    for object in objects.iter().filter_map(Val::as_object) {
        charge(object.len() as u64)?;
        for key in object.keys() {
            union.insert(key, Value::Null);
        }
    }
    Ok(union.keys().cloned().collect())
}

/// `$keys(object)`: its keys as a sequence; for an array, the keys of all its objects, each
/// once.
fn keys(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let keys = all_keys(&arg(args, 0), &mut |n| cx.steps(n))?;
    cx.charge_array(keys.len())?;
    Ok(Val::sequence(keys.into_iter().map(Val::String).collect()))
}

/// The values under `key` in the objects of `value`: for an array, those of every object in it
/// (through nested arrays), with array values spread one level into the result sequence; for
/// an object, its value as it is.
fn lookup_in(value: &Val, key: &Str, charge: &mut impl FnMut(u64) -> Result<()>) -> Result<Val> {
    if !value.is_array() {
        return Ok(value.as_object().and_then(|object| object.get(key)).unwrap_or_default());
    }
    let mut found = Vec::new();
    let mut charge_found = 0;
    for_each_leaf(value, charge, &mut |leaf| {
        match leaf.as_object().and_then(|object| object.get(key)) {
            Some(Val::Undefined) | None => {}
            Some(hit) => match hit.as_array() {
                Some(items) => {
                    charge_found += items.len() as u64;
                    found.extend(items.iter());
                }
                None => found.push(hit),
            },
        }
        Ok(())
    })?;
    charge(charge_found)?;
    Ok(Val::sequence(found))
}

/// `$lookup(object, key)`: the value under `key`; over an array, a sequence of the values in
/// each of its objects.
fn lookup(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let Val::String(key) = arg(args, 1) else {
        return Ok(Val::Undefined);
    };
    let found = lookup_in(&arg(args, 0), &key, &mut |n| cx.steps(n))?;
    if let Some(items) = found.as_array() {
        cx.charge_array(items.len())?;
    }
    Ok(found)
}

/// `{key: value}` as an object, a writ-core one unless the value holds a function.
fn one_key_object(cx: &mut Cx<'_>, key: Str, value: Val) -> Result<Val> {
    build_object(cx, vec![(key, value)])
}

/// `$spread(object)`: a sequence of one-key objects, one per key in order; for an array, the
/// spreads of its items joined into one array (items that are not objects kept as they
/// are); anything else unchanged.
fn spread(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let value = arg(args, 0);
    if let Some(object) = value.as_object() {
        let entries: Vec<_> = object.entries().collect();
        cx.charge_array(entries.len())?;
        let pieces = entries
            .into_iter()
            .map(|(k, v)| one_key_object(cx, k, v))
            .collect::<Result<_>>()?;
        return Ok(Val::sequence(pieces));
    }
    let Some(items) = value.as_array() else {
        return Ok(value);
    };
    // jsonata-js appends each item's spread to an empty sequence, and appending makes a plain
    // array: so the result is a sequence only when nothing was appended.
    let appended = items.iter().any(|item| !item.is_undefined());
    let mut leaves = Vec::new();
    for_each_leaf(&value, &mut |n| cx.steps(n), &mut |leaf| {
        if !leaf.is_undefined() {
            leaves.push(leaf);
        }
        Ok(())
    })?;
    let mut pieces = Vec::with_capacity(leaves.len());
    for leaf in leaves {
        match leaf.as_object() {
            Some(object) => {
                let entries: Vec<_> = object.entries().collect();
                cx.charge_array(pieces.len() + entries.len())?;
                for (k, v) in entries {
                    pieces.push(one_key_object(cx, k, v)?);
                }
            }
            None => pieces.push(leaf),
        }
    }
    cx.charge_array(pieces.len())?;
    Ok(if appended {
        Val::array(pieces)
    } else {
        Val::sequence(pieces)
    })
}

/// `$merge(objects)`: one object with every key of every object, later values winning.
fn merge(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let value = arg(args, 0);
    if value.is_undefined() {
        return Ok(Val::Undefined);
    }
    let mut entries = Vec::new();
    let mut add = |cx: &mut Cx<'_>, object: &Val| -> Result<()> {
        if let Some(object) = object.as_object() {
            cx.steps(object.len() as u64)?;
            entries.extend(object.entries());
        }
        Ok(())
    };
    match value.as_array() {
        Some(items) => {
            cx.steps(items.len() as u64)?;
            for item in items.iter() {
                add(cx, &item)?;
            }
        }
        None => add(cx, &value)?,
    }
    build_object(cx, entries)
}

/// `$each(object, function)`: the function's results for each entry (value, then key, then
/// the object when it takes them) that are values, as a sequence.
fn each(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let (object, function) = (arg(args, 0), arg(args, 1));
    let entries: Vec<_> = object
        .as_object()
        .map(|view| view.entries().collect())
        .unwrap_or_default();
    cx.steps(entries.len() as u64)?;
    cx.charge_array(entries.len())?;
    let mut results = Vec::with_capacity(entries.len());
    for (key, value) in entries {
        let result = cx.apply(&function, &hof_args(&function, value, Val::String(key), &object))?;
        if !result.is_undefined() {
            results.push(result);
        }
    }
    Ok(Val::sequence(results))
}

/// `$sift(object, predicate)`: the entries for which the predicate (value, then key, then the
/// object) is truthy; no value when none is.
fn sift(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let (object, function) = (arg(args, 0), arg(args, 1));
    let entries: Vec<_> = object
        .as_object()
        .map(|view| view.entries().collect())
        .unwrap_or_default();
    cx.steps(entries.len() as u64)?;
    let mut kept = Vec::new();
    for (key, value) in entries {
        let verdict = cx.apply(
            &function,
            &hof_args(&function, value.clone(), Val::String(key.clone()), &object),
        )?;
        if boolean(&verdict) == Some(true) {
            kept.push((key, value));
        }
    }
    if kept.is_empty() {
        return Ok(Val::Undefined);
    }
    build_object(cx, kept)
}

/// The message an expression gave `$error` or `$assert`, or `default` when it gave none or an
/// empty one.
fn message_or(message: Val, default: &str) -> String {
    match message {
        Val::String(s) if !s.is_empty() => s.to_string_lossy().into_owned(),
        _ => default.to_string(),
    }
}

/// `$error(message?)`: fails with D3137 and the message.
fn error(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    Err(Error::new(Code::D3137)
        .at(cx.position)
        .with_detail(message_or(arg(args, 0), "$error() function evaluated")))
}

/// `$assert(condition, message?)`: fails with D3141 and the message unless the condition holds.
fn assert(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    if js_truthy(&arg(args, 0)) {
        return Ok(Val::Undefined);
    }
    Err(Error::new(Code::D3141)
        .at(cx.position)
        .with_detail(message_or(arg(args, 1), "$assert() statement failed")))
}

/// `$type(value)`: `"null"`, `"number"`, `"string"`, `"boolean"`, `"array"`, `"object"` or
/// `"function"`; no value for no value.
fn type_of(_cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let value = arg(args, 0);
    Ok(if value.is_undefined() {
        Val::Undefined
    } else {
        Val::from(value.type_name())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::eval;
    use crate::value::in_js_order;

    /// A charge that never runs out, counting what it is charged.
    fn counting(total: &mut u64) -> impl FnMut(u64) -> Result<()> + '_ {
        move |n| {
            *total += n;
            Ok(())
        }
    }

    fn obj(json: &str) -> Val {
        Val::from(writ_core::parse_json(json).expect("valid JSON"))
    }

    fn json(value: &Val) -> String {
        format!("{value:?}")
    }

    #[test]
    fn javascript_order_puts_indices_first_and_keeps_first_places() {
        let entries = ["b", "1", "a", "0", "b", "01"].iter().enumerate();
        let ordered = in_js_order(entries.map(|(i, k)| (Str::from(*k), Val::Number(i as f64))).collect());
        let keys: Vec<String> = ordered.iter().map(|(k, _)| k.to_string()).collect();
        assert_eq!(keys, ["0", "1", "b", "a", "01"]);
        // "b" keeps its first place and its last value.
        assert_eq!(
            ordered
                .iter()
                .find(|(k, _)| k.eq_str("b"))
                .and_then(|(_, v)| v.as_number()),
            Some(4.0)
        );
    }

    #[test]
    fn leaves_are_visited_in_order_through_nested_arrays() {
        let value = obj(r#"[1, [2, [3, []], 4], 5]"#);
        let mut seen = Vec::new();
        let mut charged = 0;
        for_each_leaf(&value, &mut counting(&mut charged), &mut |leaf| {
            seen.push(leaf.as_number().unwrap_or(f64::NAN));
            Ok(())
        })
        .expect("no errors");
        assert_eq!(seen, [1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(charged, 3 + 3 + 2);
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let mut value = Val::Number(7.0);
        for _ in 0..200_000 {
            value = Val::array(vec![value]);
        }
        let mut seen = 0;
        for_each_leaf(&value, &mut counting(&mut 0), &mut |_| {
            seen += 1;
            Ok(())
        })
        .expect("no errors");
        assert_eq!(seen, 1);
        let data = crate::value::to_data(&value, crate::value::Functions::Refuse, &mut counting(&mut 0));
        assert!(data.expect("no errors").is_some(), "no function is found in it");
        assert_eq!(
            json(&lookup_in(&value, &Str::from("a"), &mut counting(&mut 0)).expect("no errors")),
            "seq[]"
        );
    }

    #[test]
    fn keys_of_arrays_are_a_union_in_javascript_order() {
        let mut charged = 0;
        let keys = all_keys(
            &obj(r#"[{"b":1,"1":2},[{"a":2,"0":1}],"x",{"b":3}]"#),
            &mut counting(&mut charged),
        )
        .expect("no errors");
        let keys: Vec<String> = keys.iter().map(Str::to_string).collect();
        assert_eq!(keys, ["0", "1", "b", "a"]);
        assert!(charged >= 5);
        assert!(
            all_keys(&Val::from("foo"), &mut counting(&mut 0))
                .expect("no errors")
                .is_empty()
        );
    }

    #[test]
    fn lookup_spreads_array_values_one_level() {
        let key = Str::from("a");
        let found = lookup_in(
            &obj(r#"[[{"a":[1,[2]]}],{"a":3},{"b":4},5]"#),
            &key,
            &mut counting(&mut 0),
        );
        assert_eq!(json(&found.expect("no errors")), "seq[1, [2], 3]");
        let single = lookup_in(&obj(r#"{"a":[1,[2]]}"#), &key, &mut counting(&mut 0)).expect("no errors");
        assert_eq!(json(&single), "[1, [2]]");
        assert!(
            lookup_in(&Val::from("a"), &key, &mut counting(&mut 0))
                .expect("no errors")
                .is_undefined()
        );
    }

    #[test]
    fn messages_fall_back_to_the_default_when_empty() {
        assert_eq!(message_or(Val::from("Too Expensive"), "d"), "Too Expensive");
        assert_eq!(message_or(Val::from(""), "d"), "d");
        assert_eq!(message_or(Val::Undefined, "d"), "d");
    }

    #[test]
    fn objects_through_the_evaluator() {
        let data = r#"{"a":{"b":1,"c":[2,3]},"l":[{"b":1},{"b":[2,3]},{"x":4}]}"#;
        assert_eq!(eval("$keys(a)", data), r#"["b","c"]"#);
        assert_eq!(eval("$keys(l)", data), r#"["b","x"]"#);
        assert_eq!(eval("$keys({'x':1})", data), r#""x""#);
        assert_eq!(eval("$keys('x')", data), "undefined");
        assert_eq!(eval("$lookup(a, 'c')", data), "[2,3]");
        assert_eq!(eval("$lookup(l, 'b')", data), "[1,2,3]");
        assert_eq!(eval("$lookup(l, 'zz')", data), "undefined");
        assert_eq!(eval("$spread(a)", data), r#"[{"b":1},{"c":[2,3]}]"#);
        assert_eq!(eval("$spread([{'b':1}, 5])", data), r#"[{"b":1},5]"#);
        assert_eq!(eval("$spread([])", data), "undefined");
        assert_eq!(eval("$spread('x')", data), r#""x""#);
        assert_eq!(
            eval("$merge([{'b':1,'a':1},{'1':2,'b':3}])", data),
            r#"{"1":2,"b":3,"a":1}"#
        );
        assert_eq!(eval("$merge([])", data), "{}");
        assert_eq!(eval("$merge(nothing)", data), "undefined");
        assert_eq!(eval("$keys($merge([{'b':$sum},{'1':2}]))", data), r#"["1","b"]"#);
        assert_eq!(eval("$type($lookup($merge([{'f':$sum}]), 'f'))", data), r#""function""#);
        assert_eq!(
            eval("$each(a, function($v,$k){$k & $count($v)})", data),
            r#"["b1","c2"]"#
        );
        assert_eq!(eval("$each({}, function($v){$v})", data), "undefined");
        assert_eq!(eval("$sift(a, function($v,$k){$k = 'c'})", data), r#"{"c":[2,3]}"#);
        assert_eq!(eval("$sift(a, function($v){false})", data), "undefined");
    }

    #[test]
    fn errors_types_and_assertions_through_the_evaluator() {
        let failure = |expr: &str| {
            let error = crate::Expression::compile(expr)
                .and_then(|e| e.evaluate(&Value::Undefined, &crate::Options::default()))
                .expect_err("fails");
            (error.details().code.as_str(), error.details().detail.clone())
        };
        assert_eq!(
            failure("$error('Too Expensive')"),
            ("D3137", Some("Too Expensive".to_string()))
        );
        assert_eq!(
            failure("$error()"),
            ("D3137", Some("$error() function evaluated".to_string()))
        );
        assert_eq!(
            failure("$assert(false)"),
            ("D3141", Some("$assert() statement failed".to_string()))
        );
        assert_eq!(failure("$assert(1 > 2, 'no')"), ("D3141", Some("no".to_string())));
        assert_eq!(eval("$assert(true)", ""), "undefined");
        assert_eq!(eval("$error(5)", ""), "T0410");
        let types = "[$type(null), $type(1), $type('s'), $type(true), $type([]), $type({}), $type($sum)]";
        assert_eq!(
            eval(types, ""),
            r#"["null","number","string","boolean","array","object","function"]"#
        );
        assert_eq!(eval("$type(nothing)", ""), "undefined");
    }
}
