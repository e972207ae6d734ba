//! Limits hold on hostile input: huge filters under small step budgets, strings and arrays
//! built past their caps, and nesting far past the depth limit, which is refused at parse on a
//! 2 MiB stack rather than recursed into. Each bound is tested at N and N + 1.

use writ_core::{Bound, Limits, Object, Value};
use writ_jexl::{DEFAULT_LIMITS, Error, Jexl};

/// The limits of these tests: the defaults without the clock, so a slow machine cannot fail
/// them.
fn limits() -> Limits {
    Limits {
        time: None,
        ..DEFAULT_LIMITS
    }
}

/// The bound a budget error names.
fn bound(error: &Error) -> Option<Bound> {
    error.budget().map(|exceeded| exceeded.bound)
}

/// `{"items": [{"age": 0, "name": "n0"}, …]}` with `count` items.
fn items(count: usize) -> Value {
    let rows: Vec<Value> = (0..count)
        .map(|idx| {
            let mut row = Object::new();
            row.insert("age".into(), Value::from((idx % 50) as f64));
            row.insert("name".into(), Value::from(format!("n{idx}")));
            Value::Object(row)
        })
        .collect();
    let mut root = Object::new();
    root.insert("items".into(), Value::from(rows));
    Value::Object(root)
}

/// Runs `check` on a thread with a 2 MiB stack, as a host's worker thread might have.
fn on_small_stack(check: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(check)
        .expect("spawns")
        .join()
        .expect("no stack overflow, no panic");
}

#[test]
fn steps_hold_at_n_and_fail_at_n_plus_one() {
    // Three nodes, a step each.
    let at = Jexl::new().with_limits(Limits {
        steps: Some(3),
        ..limits()
    });
    assert_eq!(at.eval("1 + 2", &Value::Null).ok(), Some(Value::from(3.0)));
    let past = Jexl::new().with_limits(Limits {
        steps: Some(2),
        ..limits()
    });
    let error = past.eval("1 + 2", &Value::Null).expect_err("one step short");
    assert_eq!(
        (error.code().as_str(), bound(&error)),
        ("budget-exceeded", Some(Bound::Steps))
    );
    assert!(error.message().contains("step limit of 2"), "{error}");
    assert!(error.message().contains("raise the `steps` limit"), "{error}");
}

#[test]
fn a_huge_filter_stops_at_a_small_step_budget() {
    let context = items(200_000);
    let jexl = Jexl::new().with_limits(Limits {
        steps: Some(10_000),
        ..limits()
    });
    let error = jexl.eval("items[.age >= 30]", &context).expect_err("200,000 elements");
    assert_eq!(bound(&error), Some(Bound::Steps));
    // A filter costs a step per element plus one per node of its condition.
    let roomy = Jexl::new().with_limits(Limits {
        steps: Some(1_000_010),
        ..limits()
    });
    let kept = roomy.eval("items[.age >= 30]", &context).expect("within budget");
    assert_eq!(kept.as_array().map(|kept| kept.len()), Some(80_000));
}

#[test]
fn strings_hold_at_their_cap_and_fail_past_it() {
    let jexl = |cap| {
        Jexl::new().with_limits(Limits {
            max_string_length: Some(cap),
            ..limits()
        })
    };
    assert_eq!(
        jexl(4).eval("'ab' + 'cd'", &Value::Null).ok(),
        Some(Value::from("abcd"))
    );
    let error = jexl(4).eval("'ab' + 'cde'", &Value::Null).expect_err("five units");
    assert_eq!(bound(&error), Some(Bound::StringLength));
    assert_eq!(
        jexl(5).eval("'ab' + 3 + 'cd'", &Value::Null).ok(),
        Some(Value::from("ab3cd"))
    );
    assert_eq!(
        jexl(4).eval("'ab' + 3 + 'cd'", &Value::Null).map_err(|e| bound(&e)),
        Err(Some(Bound::StringLength))
    );
}

#[test]
fn string_blow_up_in_a_filter_is_stopped() {
    let context = items(50_000);
    // Each element doubles nothing, but together the concatenations would build gigabytes.
    let jexl = Jexl::new().with_limits(Limits {
        max_total_allocation: Some(1_000_000),
        ..limits()
    });
    let error = jexl
        .eval("items[.name + .name + .name + .name + .name + .name == 'x']", &context)
        .expect_err("the total is capped");
    assert_eq!(bound(&error), Some(Bound::TotalAllocation));
    let error = Jexl::new()
        .with_limits(Limits {
            max_string_length: Some(1_000),
            ..limits()
        })
        .eval("(items|join)", &context);
    assert_eq!(
        error.map_err(|e| e.code().as_str()).err(),
        Some("jexl-unknown-transform")
    );
    let joined = Jexl::new()
        .with_limits(Limits {
            max_string_length: Some(1_000),
            ..limits()
        })
        .with_standard_transforms(&["join"])
        .expect("standard")
        .eval("items|join", &context)
        .expect_err("50,000 × '[object Object]'");
    assert_eq!(bound(&joined), Some(Bound::StringLength));
}

#[test]
fn arrays_hold_at_their_cap_and_fail_past_it() {
    let jexl = |cap| {
        Jexl::new().with_limits(Limits {
            max_array_length: Some(cap),
            ..limits()
        })
    };
    assert!(jexl(3).eval("[1, 2, 3]", &Value::Null).is_ok());
    assert_eq!(
        jexl(3).eval("[1, 2, 3, 4]", &Value::Null).map_err(|e| bound(&e)),
        Err(Some(Bound::ArrayLength))
    );
    let context = items(10);
    assert!(jexl(10).eval("items[.age >= 0]", &context).is_ok());
    assert_eq!(
        jexl(9).eval("items[.age >= 0]", &context).map_err(|e| bound(&e)),
        Err(Some(Bound::ArrayLength))
    );
}

#[test]
fn depth_holds_at_n_and_fails_at_n_plus_one() {
    // `((x))` is three deep: two brackets around a name.
    let jexl = |depth| {
        Jexl::new().with_limits(Limits {
            max_depth: Some(depth),
            ..limits()
        })
    };
    for source in ["((x))", "!!x", "a.b.c", "[[1]]", "1 + 2 + 3", "a[.b[.c]]"] {
        assert!(jexl(3).compile(source).is_ok(), "{source} at 3");
        let error = jexl(2).compile(source).expect_err(source);
        assert_eq!(
            (error.code().as_str(), bound(&error)),
            ("budget-exceeded", Some(Bound::Depth)),
            "{source}"
        );
        assert!(error.message().contains("depth limit of 2"), "{error}");
    }
    // Brackets and operators add up.
    assert!(jexl(5).compile("((!!x))").is_ok());
    assert!(jexl(4).compile("((!!x))").is_err());
}

#[test]
fn evaluation_counts_depth_against_the_meter_too() {
    let expression = Jexl::new().compile("!!!!x").expect("five deep");
    let mut meter = writ_core::Meter::new(&Limits {
        max_depth: Some(3),
        ..limits()
    });
    let error = expression
        .evaluate_with(&Value::Null, &mut meter)
        .expect_err("four levels below the root");
    assert_eq!(bound(&error), Some(Bound::Depth));
    let mut meter = writ_core::Meter::new(&Limits {
        max_depth: Some(4),
        ..limits()
    });
    assert_eq!(
        expression.evaluate_with(&Value::Null, &mut meter).ok(),
        Some(Value::Bool(false))
    );
}

#[test]
fn a_hundred_thousand_levels_of_nesting_are_refused_on_a_small_stack() {
    on_small_stack(|| {
        let n = 100_000;
        let sources = [
            format!("{}1{}", "(".repeat(n), ")".repeat(n)),
            format!("{}1{}", "[".repeat(n), "]".repeat(n)),
            format!("{}x", "!".repeat(n)),
            format!("a{}", ".b".repeat(n)),
            format!("1{}", " + 1".repeat(n)),
            format!("x{}", "[.y".repeat(n)),
            format!("{}1", "x ? ".repeat(n)),
            "{a:".repeat(n),
            format!("x{}", "|t".repeat(n)),
        ];
        for unlimited in [false, true] {
            let jexl = if unlimited {
                Jexl::new().with_limits(Limits::UNLIMITED)
            } else {
                Jexl::new()
            };
            for source in &sources {
                let error = jexl.compile(source).expect_err("too deep or malformed");
                assert!(
                    matches!(error.code().as_str(), "budget-exceeded" | "jexl-syntax"),
                    "{}: {error}",
                    &source[..20]
                );
            }
        }
        // A run of signs is one negative number to jexl's lexer, however long.
        assert_eq!(
            Jexl::new().eval(&format!("{}1", "- ".repeat(n)), &Value::Null).ok(),
            Some(Value::from(-1.0))
        );
        // The same shapes within the cap evaluate on the same stack.
        let jexl = Jexl::new().with_limits(Limits {
            max_depth: Some(1_000),
            ..limits()
        });
        let deep = format!("{}x{}", "(!".repeat(300), ")".repeat(300));
        assert_eq!(jexl.eval(&deep, &Value::Null).ok(), Some(Value::Bool(false)));
        // At the hard cap, with no limits at all, every kind of node still fits the stack.
        let jexl = Jexl::new().with_limits(Limits::UNLIMITED);
        let at_cap = [
            (format!("{}x", "!".repeat(999)), Value::Bool(true)),
            (format!("1{}", " + 1".repeat(999)), Value::from(1000.0)),
            (format!("a{}", ".b".repeat(999)), Value::Undefined),
            (
                format!("{}x{}", "x ? ".repeat(999), " : 1".repeat(999)),
                Value::from(1.0),
            ),
            (format!("{}1{}", "[".repeat(999), "]".repeat(999)), Value::Undefined),
        ];
        for (source, want) in at_cap {
            let got = jexl
                .eval(&source, &Value::Null)
                .map(|value| if value.is_container() { Value::Undefined } else { value });
            assert_eq!(got.ok(), Some(want), "{}", &source[..10]);
        }
    });
}

#[test]
fn the_nesting_cap_is_a_thousand_whatever_the_limits() {
    let jexl = Jexl::new().with_limits(Limits::UNLIMITED);
    assert!(jexl.compile(&format!("{}x", "!".repeat(999))).is_ok());
    let error = jexl
        .compile(&format!("{}x", "!".repeat(1_000)))
        .expect_err("1,001 deep");
    assert!(error.message().contains("depth limit of 1000"), "{error}");
}

#[test]
fn in_on_long_strings_is_charged_per_position() {
    let haystack = "é".repeat(200_000);
    let needle = format!("{}x", "é".repeat(5_000));
    let mut context = Object::new();
    context.insert("h".into(), Value::from(haystack));
    context.insert("n".into(), Value::from(needle));
    let jexl = Jexl::new().with_limits(Limits {
        steps: Some(1_000_000),
        ..limits()
    });
    let error = jexl
        .eval("n in h", &Value::Object(context))
        .expect_err("a billion comparisons");
    assert_eq!(bound(&error), Some(Bound::Steps));
}
