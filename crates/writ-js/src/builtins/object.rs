//! The `Object` functions: keys, values, entries, fromEntries, groupBy, hasOwn, is.
//!
//! Receivers are plain objects, arrays (index keys) and strings (index keys, as JavaScript
//! boxes them). Seed 004 pins one divergence: a number or boolean is refused rather than
//! boxed (`Object.keys(1)`), while `null` and `undefined` fail as they do in JavaScript.

use std::collections::HashMap;

use writ_core::{Array, Object, Str, Value};

use crate::coerce::{self, describe};
use crate::error::{Error, Result};
use crate::interp::{Args, Cx, code_points, first_code_point};
use crate::ops;
use crate::tables::ObjectFn;

/// Runs `Object.function(args)`.
pub(crate) fn call<'r>(cx: &mut Cx<'r>, function: ObjectFn, args: &Args<'_, 'r>) -> Result<Value> {
    match function {
        ObjectFn::Keys => {
            let receiver = receiver(args.get(0), "keys")?;
            let len = receiver.len();
            cx.array(len)?;
            let keys: Vec<Value> = match receiver {
                Receiver::Object(object) => object.keys().map(|key| Value::String(key.clone())).collect(),
                Receiver::Array(_) | Receiver::String(_) => (0..len)
                    .map(|index| Value::String(coerce::number_to_str(index as f64)))
                    .collect(),
            };
            Ok(Value::Array(Array::from(keys)))
        }
        ObjectFn::Values => {
            let receiver = receiver(args.get(0), "values")?;
            cx.array(receiver.len())?;
            let values: Vec<Value> = match receiver {
                Receiver::Object(object) => object.values().cloned().collect(),
                Receiver::Array(items) => items.as_slice().to_vec(),
                Receiver::String(text) => code_units(text),
            };
            Ok(Value::Array(Array::from(values)))
        }
        ObjectFn::Entries => {
            let receiver = receiver(args.get(0), "entries")?;
            let len = receiver.len();
            cx.steps(len as u64)?;
            cx.array(len)?;
            // Each entry is a pair: two more elements apiece.
            cx.meter.charge_allocation(2 * len as u64)?;
            let pair = |key: Str, value: Value| Value::Array(Array::from(vec![Value::String(key), value]));
            let entries: Vec<Value> = match receiver {
                Receiver::Object(object) => object
                    .iter()
                    .map(|(key, value)| pair(key.clone(), value.clone()))
                    .collect(),
                Receiver::Array(items) => items
                    .iter()
                    .enumerate()
                    .map(|(index, item)| pair(coerce::number_to_str(index as f64), item.clone()))
                    .collect(),
                Receiver::String(text) => code_units(text)
                    .into_iter()
                    .enumerate()
                    .map(|(index, unit)| pair(coerce::number_to_str(index as f64), unit))
                    .collect(),
            };
            Ok(Value::Array(Array::from(entries)))
        }
        ObjectFn::FromEntries => from_entries(cx, args.get(0)),
        ObjectFn::GroupBy => group_by(cx, args),
        ObjectFn::HasOwn => {
            let receiver = receiver(args.get(0), "hasOwn")?;
            let key = coerce::to_string(cx, args.get(1))?;
            let owned = match receiver {
                Receiver::Object(object) => object.contains_key(&key),
                // Arrays and strings own their indices and their `length`.
                Receiver::Array(_) | Receiver::String(_) => {
                    key.eq_str("length")
                        || writ_core::js::array_index(&key).is_some_and(|index| (index as usize) < receiver.len())
                }
            };
            Ok(Value::Bool(owned))
        }
        ObjectFn::Is => Ok(Value::Bool(ops::same_value(args.get(0), args.get(1)))),
    }
}

/// What `Object.keys` and its kin read from.
#[derive(Clone, Copy)]
enum Receiver<'v> {
    Object(&'v Object),
    Array(&'v Array),
    String(&'v Str),
}

impl Receiver<'_> {
    /// How many own enumerable keys it has.
    fn len(&self) -> usize {
        match self {
            Receiver::Object(object) => object.len(),
            Receiver::Array(items) => items.len(),
            Receiver::String(text) => text.len_utf16(),
        }
    }
}

/// The receiver of `Object.function`: JavaScript's `ToObject`, except that a number or a
/// boolean is refused instead of boxed (seed 004).
fn receiver<'v>(value: &'v Value, function: &str) -> Result<Receiver<'v>> {
    match value {
        Value::Object(object) => Ok(Receiver::Object(object)),
        Value::Array(items) => Ok(Receiver::Array(items)),
        Value::String(text) => Ok(Receiver::String(text)),
        Value::Null | Value::Undefined => Err(Error::type_error(format!(
            "Cannot convert undefined or null to object: Object.{function} takes an object, an array or \
             a string, and got {}; guard it, as in Object.{function}(row ?? {{}})",
            describe(value)
        ))),
        Value::Number(_) | Value::Bool(_) => Err(Error::guardrail(format!(
            "Object.{function} takes an object, an array or a string, not {}: a number or boolean has \
             no keys of its own here",
            describe(value)
        ))),
    }
}

/// A string's code units, each as a one-unit string (what its index keys hold).
fn code_units(text: &Str) -> Vec<Value> {
    text.code_units()
        .map(|unit| Value::String(Str::from_utf16(&[unit])))
        .collect()
}

/// `Object.fromEntries(entries)`: an array of `[key, value]` pairs (or objects with `0` and
/// `1`); keys convert as property keys do, so a computed `"__proto__"` is an own key.
fn from_entries(cx: &mut Cx<'_>, source: &Value) -> Result<Value> {
    let entries: &[Value] = match source {
        Value::Array(items) => items.as_slice(),
        // A string iterates its characters, and a character is not an entry.
        Value::String(text) if text.is_empty() => &[],
        Value::String(text) => {
            let first = Value::String(first_code_point(text));
            return Err(not_an_entry(&first));
        }
        other => {
            return Err(Error::type_error(format!(
                "{} is not iterable: Object.fromEntries takes an array of [key, value] pairs, as in \
                 Object.fromEntries(rows.map(r => [r.id, r.name]))",
                match other {
                    Value::Undefined => "undefined".to_owned(),
                    Value::Null => "object null".to_owned(),
                    Value::Object(_) => "object".to_owned(),
                    other => format!("{} {}", coerce::type_of(other), describe(other)),
                }
            )));
        }
    };
    let mut pairs: Vec<(Str, Value)> = Vec::with_capacity(entries.len());
    for entry in entries {
        cx.steps(1)?;
        let (key, value) = match entry {
            Value::Array(pair) => (
                pair.get(0).cloned().unwrap_or(Value::Undefined),
                pair.get(1).cloned().unwrap_or(Value::Undefined),
            ),
            Value::Object(pair) => (
                pair.get_str("0").cloned().unwrap_or(Value::Undefined),
                pair.get_str("1").cloned().unwrap_or(Value::Undefined),
            ),
            other => return Err(not_an_entry(other)),
        };
        pairs.push((coerce::to_string(cx, &key)?, value));
    }
    cx.meter.charge_allocation(pairs.len() as u64)?;
    Ok(Value::Object(Object::from_entries(pairs)))
}

/// JavaScript's TypeError for an item of `fromEntries` that is not a pair.
fn not_an_entry(value: &Value) -> Error {
    let shown = match value {
        Value::String(text) => text.to_string_lossy().into_owned(),
        other => describe(other),
    };
    Error::type_error(format!(
        "Iterator value {shown} is not an entry object: each item of Object.fromEntries must be a \
         [key, value] pair, as in Object.fromEntries([[\"a\", 1], [\"b\", 2]])"
    ))
}

/// `Object.groupBy(items, callback)`: items an array or a string (by code point); the key is
/// the callback's answer as a string; groups keep the order their keys were first seen in.
fn group_by<'r>(cx: &mut Cx<'r>, args: &Args<'_, 'r>) -> Result<Value> {
    let source = args.get(0);
    if matches!(source, Value::Undefined | Value::Null) {
        return Err(Error::type_error(format!(
            "Object.groupBy cannot group {}: it takes an array or a string, as in \
             Object.groupBy(rows, r => r.status)",
            describe(source)
        )));
    }
    let Some(callback) = args.callback else {
        return Err(Error::type_error(format!(
            "{} is not a function: Object.groupBy takes a callback as its second argument, as in \
             Object.groupBy(rows, r => r.status)",
            describe(args.get(1))
        )));
    };
    let items: Vec<Value> = match source {
        Value::Array(items) => items.as_slice().to_vec(),
        Value::String(text) => code_points(cx, text)?,
        other => {
            return Err(Error::type_error(format!(
                "{} is not iterable: Object.groupBy takes an array or a string, as in \
                 Object.groupBy(rows, r => r.status)",
                match other {
                    Value::Object(_) => "object".to_owned(),
                    other => format!("{} {}", coerce::type_of(other), describe(other)),
                }
            )));
        }
    };
    cx.array(items.len())?;
    let mut groups: Vec<(Str, Vec<Value>)> = Vec::new();
    let mut positions: HashMap<Str, usize> = HashMap::new();
    for (index, item) in items.into_iter().enumerate() {
        let answer = match callback.arity() {
            0 => cx.call(callback, &mut [])?,
            1 => cx.call(callback, &mut [item.clone()])?,
            _ => cx.call(callback, &mut [item.clone(), Value::Number(index as f64)])?,
        };
        let key = coerce::to_string(cx, &answer)?;
        match positions.get(&key) {
            Some(&position) => {
                if let Some((_, group)) = groups.get_mut(position) {
                    group.push(item);
                }
            }
            None => {
                positions.insert(key.clone(), groups.len());
                groups.push((key, vec![item]));
            }
        }
    }
    let object: Object = groups
        .into_iter()
        .map(|(key, group)| (key, Value::Array(Array::from(group))))
        .collect();
    cx.mark_null_prototype(&object);
    Ok(Value::Object(object))
}

#[cfg(test)]
mod tests {
    use writ_core::{Limits, Meter};

    use super::*;
    use crate::error::Reason;

    fn run_with(limits: Limits, function: ObjectFn, values: &[Value]) -> Result<Value> {
        let program = crate::ast::Program::empty();
        let mut cx = Cx::new(Meter::new(&limits), &program, &[]);
        call(
            &mut cx,
            function,
            &Args {
                values,
                callback: None,
                name: function.name(),
            },
        )
    }

    fn run(function: ObjectFn, values: &[Value]) -> Result<Value> {
        run_with(
            Limits {
                steps: Some(1_000_000),
                ..Limits::UNLIMITED
            },
            function,
            values,
        )
    }

    fn json(text: &str) -> Value {
        writ_core::parse_json(text).unwrap_or(Value::Null)
    }

    fn reason(function: ObjectFn, values: &[Value]) -> Option<Reason> {
        run(function, values).err().map(|e| e.reason())
    }

    #[test]
    fn keys_values_and_entries_of_objects_arrays_and_strings() {
        let object = json(r#"{"b":1,"2":"x","a":[true],"1":null}"#);
        assert_eq!(
            run(ObjectFn::Keys, std::slice::from_ref(&object)),
            Ok(json(r#"["1","2","b","a"]"#))
        );
        assert_eq!(
            run(ObjectFn::Values, std::slice::from_ref(&object)),
            Ok(json(r#"[null,"x",1,[true]]"#))
        );
        assert_eq!(
            run(ObjectFn::Entries, &[object]),
            Ok(json(r#"[["1",null],["2","x"],["b",1],["a",[true]]]"#))
        );
        let array = json(r#"[5,"six",null]"#);
        assert_eq!(
            run(ObjectFn::Keys, std::slice::from_ref(&array)),
            Ok(json(r#"["0","1","2"]"#))
        );
        assert_eq!(run(ObjectFn::Values, std::slice::from_ref(&array)), Ok(array.clone()));
        assert_eq!(
            run(ObjectFn::Entries, &[array]),
            Ok(json(r#"[["0",5],["1","six"],["2",null]]"#))
        );
        // A string's keys are its code units, as JavaScript boxes it.
        let emoji = Value::from("a\u{1F600}");
        assert_eq!(
            run(ObjectFn::Keys, std::slice::from_ref(&emoji)),
            Ok(json(r#"["0","1","2"]"#))
        );
        assert_eq!(
            run(ObjectFn::Values, std::slice::from_ref(&emoji)),
            Ok(json(r#"["a","\ud83d","\ude00"]"#))
        );
        assert_eq!(
            run(ObjectFn::Entries, &[emoji]),
            Ok(json(r#"[["0","a"],["1","\ud83d"],["2","\ude00"]]"#))
        );
        assert_eq!(run(ObjectFn::Keys, &[json("{}")]), Ok(json("[]")));
    }

    #[test]
    fn nullish_fails_as_in_javascript_and_primitives_are_refused() {
        for function in [ObjectFn::Keys, ObjectFn::Values, ObjectFn::Entries, ObjectFn::HasOwn] {
            assert_eq!(reason(function, &[Value::Null]), Some(Reason::ExpressionRuntime));
            assert_eq!(reason(function, &[Value::Undefined]), Some(Reason::ExpressionRuntime));
            assert_eq!(reason(function, &[]), Some(Reason::ExpressionRuntime));
            assert_eq!(reason(function, &[Value::from(1.0)]), Some(Reason::GuardrailViolation));
            assert_eq!(reason(function, &[Value::Bool(true)]), Some(Reason::GuardrailViolation));
        }
        let error = run(ObjectFn::Keys, &[Value::Null]).unwrap_err();
        assert!(
            error
                .message()
                .starts_with("Cannot convert undefined or null to object")
        );
    }

    #[test]
    fn from_entries_takes_pairs() {
        let entries = json(r#"[["a",1],["b"],[2,true],[null,0],[["x","y"],"joined"],{"0":"o","1":"obj"},["a",9]]"#);
        let object = run(ObjectFn::FromEntries, &[entries]).unwrap_or_default();
        assert_eq!(
            object,
            json(r#"{"2":true,"a":9,"b":null,"null":0,"x,y":"joined","o":"obj"}"#)
                .as_object()
                .map_or(Value::Null, |expected| {
                    // `["b"]` has no value: undefined, which JSON cannot write.
                    let mut expected = expected.clone();
                    expected.insert("b".into(), Value::Undefined);
                    Value::Object(expected)
                })
        );
        // A computed `__proto__` is an own key.
        let proto = run(ObjectFn::FromEntries, &[json(r#"[["__proto__",{"polluted":true}]]"#)]).unwrap_or_default();
        assert_eq!(
            proto
                .as_object()
                .map(|o| o.keys().map(|k| k.to_string()).collect::<Vec<_>>()),
            Some(vec!["__proto__".to_owned()])
        );
        assert_eq!(run(ObjectFn::FromEntries, &[Value::from("")]), Ok(json("{}")));
        assert_eq!(run(ObjectFn::FromEntries, &[json("[]")]), Ok(json("{}")));
        for bad in [
            json("[1]"),
            json(r#"["ab"]"#),
            json("[null]"),
            Value::from("ab"),
            Value::from(5.0),
            json("{}"),
            Value::Null,
        ] {
            assert_eq!(
                reason(ObjectFn::FromEntries, std::slice::from_ref(&bad)),
                Some(Reason::ExpressionRuntime),
                "{bad:?}"
            );
        }
        assert!(
            run(ObjectFn::FromEntries, &[json("[1]")])
                .unwrap_err()
                .message()
                .starts_with("Iterator value 1 is not an entry object")
        );
        let limits = Limits {
            steps: Some(50),
            ..Limits::UNLIMITED
        };
        let many = Value::Array((0..100).map(|i| json(&format!(r#"["k{i}",{i}]"#))).collect());
        assert_eq!(
            run_with(limits, ObjectFn::FromEntries, &[many]).unwrap_err().reason(),
            Reason::BudgetExceeded
        );
    }

    #[test]
    fn has_own_and_is() {
        let object = json(r#"{"a":1,"u":null}"#);
        let has = |receiver: &Value, key: Value| run(ObjectFn::HasOwn, &[receiver.clone(), key]);
        assert_eq!(has(&object, Value::from("a")), Ok(Value::Bool(true)));
        assert_eq!(has(&object, Value::from("u")), Ok(Value::Bool(true)));
        assert_eq!(has(&object, Value::from("toString")), Ok(Value::Bool(false)));
        assert_eq!(has(&object, Value::from("__proto__")), Ok(Value::Bool(false)));
        let array = json("[1,2]");
        assert_eq!(has(&array, Value::from(1.0)), Ok(Value::Bool(true)));
        assert_eq!(has(&array, Value::from(2.0)), Ok(Value::Bool(false)));
        assert_eq!(has(&array, Value::from("length")), Ok(Value::Bool(true)));
        assert_eq!(has(&array, Value::from("01")), Ok(Value::Bool(false)));
        assert_eq!(has(&Value::from("ab"), Value::from("length")), Ok(Value::Bool(true)));
        assert_eq!(has(&Value::from("ab"), Value::from(1.0)), Ok(Value::Bool(true)));
        assert_eq!(has(&Value::from("ab"), Value::from(2.0)), Ok(Value::Bool(false)));
        let is = |a: Value, b: Value| run(ObjectFn::Is, &[a, b]);
        assert_eq!(
            is(Value::Number(f64::NAN), Value::Number(f64::NAN)),
            Ok(Value::Bool(true))
        );
        assert_eq!(is(Value::from(0.0), Value::from(-0.0)), Ok(Value::Bool(false)));
        assert_eq!(is(json("{}"), json("{}")), Ok(Value::Bool(false)));
        assert_eq!(is(array.clone(), array), Ok(Value::Bool(true)));
        assert_eq!(run(ObjectFn::Is, &[]), Ok(Value::Bool(true)));
    }

    #[test]
    fn group_by_checks_its_arguments_as_javascript_does() {
        assert_eq!(
            reason(ObjectFn::GroupBy, &[Value::Null, Value::from(5.0)]),
            Some(Reason::ExpressionRuntime)
        );
        // Without a written callback, the callback is "not a function".
        let error = run(ObjectFn::GroupBy, &[json("[1]"), Value::from(5.0)]).unwrap_err();
        assert_eq!(error.reason(), Reason::ExpressionRuntime);
        assert!(error.message().starts_with("5 is not a function"));
    }

    #[test]
    fn results_are_charged_before_they_are_built() {
        let big = Value::Array((0..1_000).map(|i| Value::from(f64::from(i))).collect());
        let limits = Limits {
            steps: Some(1_000_000),
            max_array_length: Some(500),
            ..Limits::UNLIMITED
        };
        for function in [ObjectFn::Keys, ObjectFn::Values, ObjectFn::Entries] {
            assert_eq!(
                run_with(limits, function, std::slice::from_ref(&big))
                    .unwrap_err()
                    .reason(),
                Reason::BudgetExceeded
            );
        }
        let limits = Limits {
            steps: Some(1_000_000),
            max_total_allocation: Some(2_500),
            ..Limits::UNLIMITED
        };
        assert_eq!(
            run_with(limits, ObjectFn::Entries, &[big]).unwrap_err().reason(),
            Reason::BudgetExceeded
        );
    }

    /// `Object.groupBy` and kin end to end, against what node printed (with a `groupBy` that
    /// follows the proposal, which node 20 lacks).
    #[test]
    fn group_by_and_friends_give_nodes_answers() {
        let rows = json(
            r#"[{"name":"Mug","stock":4,"status":"open"},{"name":"Kettle","stock":0,"status":"sold"},{"name":"Beans","stock":12,"status":"open"}]"#,
        );
        let context: Object = std::iter::once((Str::from("rows"), rows)).collect();
        let cases: &[(&str, &str)] = &[
            (
                "Object.groupBy(rows, r => r.status)",
                r#"{"open":[{"name":"Mug","stock":4,"status":"open"},{"name":"Beans","stock":12,"status":"open"}],"sold":[{"name":"Kettle","stock":0,"status":"sold"}]}"#,
            ),
            (
                "Object.groupBy(rows, r => r.stock > 0 ? \"in\" : \"out\")",
                r#"{"in":[{"name":"Mug","stock":4,"status":"open"},{"name":"Beans","stock":12,"status":"open"}],"out":[{"name":"Kettle","stock":0,"status":"sold"}]}"#,
            ),
            (
                "Object.groupBy([1, 2, 3, 4], (x, i) => i % 2)",
                r#"{"0":[1,3],"1":[2,4]}"#,
            ),
            (
                "Object.groupBy(\"hello\", c => c)",
                r#"{"h":["h"],"e":["e"],"l":["l","l"],"o":["o"]}"#,
            ),
            ("Object.groupBy([], x => x)", r#"{}"#),
            (
                "Object.keys(Object.groupBy([3, 1, 2, 10], x => x))",
                r#"["1","2","3","10"]"#,
            ),
            (
                "JSON.stringify(Object.groupBy(rows, r => r.status), null, 2)",
                r#""{\n  \"open\": [\n    {\n      \"name\": \"Mug\",\n      \"stock\": 4,\n      \"status\": \"open\"\n    },\n    {\n      \"name\": \"Beans\",\n      \"stock\": 12,\n      \"status\": \"open\"\n    }\n  ],\n  \"sold\": [\n    {\n      \"name\": \"Kettle\",\n      \"stock\": 0,\n      \"status\": \"sold\"\n    }\n  ]\n}""#,
            ),
            (
                "Object.entries(Object.groupBy(rows, r => r.status)).map(([k, v]) => k + \":\" + v.length)",
                r#"["open:2","sold:1"]"#,
            ),
            (
                "Object.fromEntries(rows.map(r => [r.name, r.stock]))",
                r#"{"Mug":4,"Kettle":0,"Beans":12}"#,
            ),
            (
                "Object.fromEntries(Object.entries({ a: 1, b: 2 }).map(([k, v]) => [k, v * 2]))",
                r#"{"a":2,"b":4}"#,
            ),
            ("rows.map(r => Object.keys(r).length)", r#"[3,3,3]"#),
            ("rows.every(r => Object.hasOwn(r, \"name\"))", r#"true"#),
        ];
        let evaluator = crate::Evaluator::new();
        for (source, expected) in cases {
            let got = evaluator.eval(source, &[&context]).map(|value| value.to_json_string());
            assert_eq!(got, Ok(Some((*expected).to_owned())), "{source}");
        }
        for source in [
            "Object.groupBy(rows, 5)",
            "Object.groupBy(null, r => r)",
            "Object.groupBy(5, r => r)",
        ] {
            let error = evaluator.eval(source, &[&context]).unwrap_err();
            assert_eq!(error.reason(), Reason::ExpressionRuntime, "{source}");
        }
        assert_eq!(
            evaluator.eval("Object.keys(1)", &[]).map_err(|e| e.reason()),
            Err(Reason::GuardrailViolation)
        );
    }
}
