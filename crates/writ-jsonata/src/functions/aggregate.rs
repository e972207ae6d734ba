//! Aggregates over arrays of numbers, and the boolean built-ins.
//!
//! The arithmetic is jsonata-js's: a left-to-right `f64` sum starting at zero (so results such
//! as `90.57000000000001` come out the same), and `Math.max`/`Math.min`, where `+0` beats `-0`.

use super::Builtin;
use crate::error::{Code, Error, Result};
use crate::eval::Cx;
use crate::value::{Val, boolean as truthy};

pub(super) const TABLE: &[Builtin] = &[
    Builtin {
        name: "sum",
        signature: "<a<n>:n>",
        imp: sum,
    },
    Builtin {
        name: "count",
        signature: "<a:n>",
        imp: count,
    },
    Builtin {
        name: "max",
        signature: "<a<n>:n>",
        imp: max,
    },
    Builtin {
        name: "min",
        signature: "<a<n>:n>",
        imp: min,
    },
    Builtin {
        name: "average",
        signature: "<a<n>:n>",
        imp: average,
    },
    Builtin {
        name: "boolean",
        signature: "<x-:b>",
        imp: boolean,
    },
    Builtin {
        name: "not",
        signature: "<x-:b>",
        imp: not,
    },
    Builtin {
        name: "exists",
        signature: "<x:b>",
        imp: exists,
    },
];

/// The numbers of an aggregate's argument, charged one step each; `None` when the argument is
/// absent. The signature has already made the argument an array of numbers; a lone number is
/// still taken as a one-item array so that a direct call agrees with a checked one.
fn numbers(cx: &mut Cx<'_>, arg: Option<&Val>) -> Result<Option<Vec<f64>>> {
    let arg = match arg {
        None | Some(Val::Undefined) => return Ok(None),
        Some(Val::Number(n)) => return Ok(Some(vec![*n])),
        Some(arg) => arg,
    };
    let items = arg.as_array().ok_or_else(|| not_numbers(cx, arg))?;
    cx.steps(items.len() as u64)?;
    items
        .iter()
        .map(|item| item.as_number().ok_or_else(|| not_numbers(cx, arg)))
        .collect::<Result<_>>()
        .map(Some)
}

/// The error for an argument that is not an array of numbers (T0412, as the signature raises).
fn not_numbers(cx: &Cx<'_>, arg: &Val) -> Error {
    Error::new(Code::T0412)
        .at(cx.position)
        .with_index(1)
        .with_value(format!("{arg:?}"))
}

/// `total += n` from zero, left to right, as JavaScript adds.
fn js_sum(numbers: &[f64]) -> f64 {
    numbers.iter().fold(0.0, |total, n| total + n)
}

/// `Math.max(...numbers)` for a non-empty list: `+0` is greater than `-0`.
fn js_max(numbers: &[f64]) -> f64 {
    numbers.iter().fold(f64::NEG_INFINITY, |best, &n| {
        if n > best || (n == 0.0 && best == 0.0 && best.is_sign_negative()) {
            n
        } else {
            best
        }
    })
}

/// `Math.min(...numbers)` for a non-empty list: `-0` is less than `+0`.
fn js_min(numbers: &[f64]) -> f64 {
    numbers.iter().fold(f64::INFINITY, |best, &n| {
        if n < best || (n == 0.0 && best == 0.0 && n.is_sign_negative()) {
            n
        } else {
            best
        }
    })
}

/// `$sum(array)`: zero for an empty array, no value for no argument.
fn sum(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    Ok(numbers(cx, args.first())?.map_or(Val::Undefined, |ns| Val::Number(js_sum(&ns))))
}

/// `$count(array)`: how many items; zero for no value, one for a lone value.
fn count(_cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let n = match args.first() {
        None | Some(Val::Undefined) => 0,
        Some(arg) => arg.as_array().map_or(1, |items| items.len()),
    };
    Ok(Val::Number(n as f64))
}

/// `$max(array)`: no value for an empty array.
fn max(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    Ok(match numbers(cx, args.first())? {
        Some(ns) if !ns.is_empty() => Val::Number(js_max(&ns)),
        _ => Val::Undefined,
    })
}

/// `$min(array)`: no value for an empty array.
fn min(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    Ok(match numbers(cx, args.first())? {
        Some(ns) if !ns.is_empty() => Val::Number(js_min(&ns)),
        _ => Val::Undefined,
    })
}

/// `$average(array)`: the JavaScript sum divided by the count; no value for an empty array.
fn average(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    Ok(match numbers(cx, args.first())? {
        Some(ns) if !ns.is_empty() => Val::Number(js_sum(&ns) / ns.len() as f64),
        _ => Val::Undefined,
    })
}

/// Charges the walk JSONata's truthiness makes over an array (it visits every item, nested
/// arrays included, in the worst case).
fn charge_truthiness(cx: &mut Cx<'_>, value: &Val) -> Result<()> {
    let mut pending: Vec<Val> = vec![value.clone()];
    while let Some(item) = pending.pop() {
        if let Some(items) = item.as_array() {
            cx.steps(items.len() as u64)?;
            pending.extend(items.iter().filter(Val::is_array));
        }
    }
    Ok(())
}

/// `$boolean(value)`: JSONata's truthiness; no value stays no value.
fn boolean(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let arg = args.first().unwrap_or(&Val::Undefined);
    charge_truthiness(cx, arg)?;
    Ok(truthy(arg).map_or(Val::Undefined, Val::Bool))
}

/// `$not(value)`: the negated truthiness; no value stays no value.
fn not(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let arg = args.first().unwrap_or(&Val::Undefined);
    charge_truthiness(cx, arg)?;
    Ok(truthy(arg).map_or(Val::Undefined, |b| Val::Bool(!b)))
}

/// `$exists(value)`: whether there is a value at all (`null` and `false` included).
fn exists(_cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    Ok(Val::Bool(!args.first().unwrap_or(&Val::Undefined).is_undefined()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{eval, eval_with};

    #[test]
    fn sums_left_to_right_in_doubles() {
        // The suite pins the rounding of this exact order of additions.
        assert_eq!(js_sum(&[68.9, 21.67]), 90.57000000000001);
        assert_eq!(js_sum(&[0.1, 0.2, 0.3]), 0.6000000000000001);
        assert_eq!(js_sum(&[]), 0.0);
        // 0 + -0 is +0, as `total = 0; total += -0` gives.
        assert!(js_sum(&[-0.0]).is_sign_positive());
    }

    #[test]
    fn max_and_min_order_signed_zeros_as_javascript_does() {
        assert_eq!(js_max(&[1.0, 3.0, 2.0]), 3.0);
        assert_eq!(js_max(&[-1.0, -5.0]), -1.0);
        assert_eq!(js_min(&[1.0, 3.0, 2.0]), 1.0);
        assert!(js_max(&[-0.0, 0.0]).is_sign_positive());
        assert!(js_max(&[0.0, -0.0]).is_sign_positive());
        assert!(js_max(&[-0.0]).is_sign_negative());
        assert!(js_min(&[0.0, -0.0]).is_sign_negative());
        assert!(js_min(&[-0.0, 0.0]).is_sign_negative());
        assert!(js_min(&[0.0]).is_sign_positive());
    }

    #[test]
    fn the_table_uses_jsonata_signatures() {
        let sig = |name: &str| TABLE.iter().find(|b| b.name == name).map(|b| b.signature);
        assert_eq!(sig("sum"), Some("<a<n>:n>"));
        assert_eq!(sig("count"), Some("<a:n>"));
        assert_eq!(sig("boolean"), Some("<x-:b>"));
        assert_eq!(sig("exists"), Some("<x:b>"));
    }

    #[test]
    fn aggregates_through_the_evaluator() {
        let data = r#"{"a":[68.9,21.67],"e":[]}"#;
        assert_eq!(eval("$sum(a)", data), "90.57000000000001");
        assert_eq!(eval("$sum(e)", data), "0");
        assert_eq!(eval("$sum(nothing)", data), "undefined");
        assert_eq!(eval("$sum(7)", data), "7");
        assert_eq!(eval("$sum([1,'2'])", data), "T0412");
        assert_eq!(eval("$count(nothing)", data), "0");
        assert_eq!(eval("$count(a)", data), "2");
        assert_eq!(eval("$count('x')", data), "1");
        assert_eq!(eval("$max(a)", data), "68.9");
        assert_eq!(eval("$min(a)", data), "21.67");
        assert_eq!(eval("$max(e)", data), "undefined");
        assert_eq!(eval("$average([1,2])", data), "1.5");
        assert_eq!(eval("$average(e)", data), "undefined");
    }

    #[test]
    fn booleans_through_the_evaluator() {
        assert_eq!(eval("$boolean([[0],[],''])", ""), "false");
        assert_eq!(eval("$boolean([0,[1]])", ""), "true");
        assert_eq!(eval("$boolean({})", ""), "false");
        assert_eq!(eval("$boolean($sum)", ""), "false");
        assert_eq!(eval("$boolean(nothing)", ""), "undefined");
        assert_eq!(eval("$not('')", ""), "true");
        assert_eq!(eval("$not(nothing)", ""), "undefined");
        assert_eq!(eval("$exists(null)", ""), "true");
        assert_eq!(eval("$exists(nothing)", ""), "false");
        assert_eq!(eval("$exists()", ""), "T0410");
    }

    #[test]
    fn aggregates_are_charged_per_item() {
        let limits = crate::JsonataLimits {
            steps: Some(2_000),
            ..crate::JsonataLimits::default()
        };
        assert_eq!(
            eval_with("$sum(a)", &format!("{{\"a\":[{}]}}", ["1"; 1_000].join(",")), limits),
            "1000"
        );
        assert_eq!(
            eval_with("$sum(a)", &format!("{{\"a\":[{}]}}", ["1"; 3_000].join(",")), limits),
            "U1006"
        );
    }
}
