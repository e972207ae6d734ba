//! The API a host relies on: thread safety, compile once and evaluate many, the names an
//! expression calls, registrations, errors, the CLI envelope, and the dialect linter.

use std::sync::Arc;

use writ_core::{Limits, Meter, Outcome, Str, Value, parse_json};
use writ_jexl::{DEFAULT_LIMITS, Error, Expression, Jexl, Lint, lint, outcome};

/// `text` as a value.
fn json(text: &str) -> Value {
    parse_json(text).expect("test JSON")
}

#[test]
fn engines_and_expressions_cross_threads() {
    /// Compiles only for thread-safe, cloneable types.
    fn send_sync<T: Send + Sync + Clone>() {}
    send_sync::<Jexl>();
    send_sync::<Expression>();
    /// Compiles only for errors a host can box and send.
    fn error_traits<T: std::error::Error + Send + Sync + 'static>() {}
    error_traits::<Error>();

    let expression = Arc::new(Jexl::new().compile("items[.n > k][0].n").expect("compiles"));
    let handles: Vec<_> = [0, 2, 6, 9]
        .into_iter()
        .map(|k| {
            let expression = Arc::clone(&expression);
            std::thread::spawn(move || {
                let context = json(&format!(
                    r#"{{"k": {k}, "items": [{{"n": 1}}, {{"n": 5}}, {{"n": 9}}]}}"#
                ));
                expression.evaluate(&context).expect("evaluates")
            })
        })
        .collect();
    let answers: Vec<Value> = handles
        .into_iter()
        .map(|handle| handle.join().expect("no panic"))
        .collect();
    assert_eq!(
        answers,
        vec![Value::from(1.0), Value::from(5.0), Value::from(9.0), Value::Undefined]
    );
}

#[test]
fn one_compile_serves_many_contexts_and_shares_their_values() {
    let expression = Jexl::new().compile("users[.age >= 30]").expect("compiles");
    let context = json(r#"{"users": [{"name": "ada", "age": 36}, {"name": "bo", "age": 20}]}"#);
    let first = expression.evaluate(&context).expect("evaluates");
    let second = expression.evaluate(&context).expect("evaluates again");
    assert_eq!(first, second);
    let (Some(kept), Some(users)) = (first.as_array(), context.as_object().and_then(|c| c.get_str("users"))) else {
        panic!("an array over an array");
    };
    let (Some(Value::Object(kept)), Some(Value::Object(original))) =
        (kept.first(), users.as_array().and_then(|u| u.first()))
    else {
        panic!("objects");
    };
    assert!(
        kept.ptr_eq(original),
        "the filter keeps the context's own element, not a copy"
    );
    let other = json(r#"{"users": [{"age": 99}]}"#);
    assert_eq!(
        expression.evaluate(&other).expect("evaluates"),
        json(r#"[{"age": 99}]"#)
    );
}

#[test]
fn an_expression_lists_the_transforms_and_functions_it_calls_in_order() {
    let jexl = Jexl::new();
    let expression = jexl
        .compile("a|upper + b|trim(1)|upper + f(g(1), a|trim) + x|t.y(2)")
        .expect("compiles without registrations");
    assert_eq!(expression.transforms(), vec![Str::from("upper"), Str::from("trim")]);
    // `x|t.y(2)` calls the function `y` on nothing: jexl drops `x|t` (and never calls `t`).
    assert_eq!(
        expression.functions(),
        vec![Str::from("f"), Str::from("g"), Str::from("y")]
    );
}

#[test]
fn unregistered_calls_fail_only_when_reached() {
    let jexl = Jexl::new();
    let skipped = jexl.eval("false && x|nope", &Value::Null).expect("short-circuited");
    assert_eq!(skipped, Value::Bool(false));
    let error = jexl.eval("1|nope", &Value::Null).expect_err("unknown transform");
    assert_eq!(
        (error.code().as_str(), error.position()),
        ("jexl-unknown-transform", Some(2))
    );
    assert!(error.message().contains("'nope'"), "{error}");
    let error = jexl.eval("nope(1)", &Value::Null).expect_err("unknown function");
    assert_eq!(error.code().as_str(), "jexl-unknown-function");
}

#[test]
fn registrations_resolve_when_compiled() {
    let before = Jexl::new();
    let expression = before.compile("2|twice").expect("compiles");
    let after = before.clone().with_transform("twice", |value, _| {
        Ok(Value::from(value.as_number().unwrap_or(0.0) * 2.0))
    });
    assert_eq!(
        expression.evaluate(&Value::Null).map_err(|e| e.code().as_str()),
        Err("jexl-unknown-transform")
    );
    assert_eq!(after.eval("2|twice", &Value::Null).ok(), Some(Value::from(4.0)));
    assert_eq!(before.transform_names().count(), 0);
    assert_eq!(after.transform_names().collect::<Vec<_>>(), vec!["twice"]);
    let functions = after
        .with_function("b", |_| Ok(Value::Null))
        .with_function("a", |_| Ok(Value::Null));
    assert_eq!(functions.function_names().collect::<Vec<_>>(), vec!["a", "b"]);
    assert_eq!(functions.transform_names().collect::<Vec<_>>(), vec!["twice"]);
}

#[test]
fn host_errors_become_transform_errors() {
    let jexl = Jexl::new()
        .with_transform("fail", |_, _| Err("the service is down".to_owned()))
        .with_function("boom", |_| Err("no".to_owned()));
    let error = jexl.eval("x|fail", &Value::Null).expect_err("fails");
    assert_eq!(error.code().as_str(), "jexl-transform");
    assert!(error.message().contains("the service is down"), "{error}");
    assert_eq!(
        jexl.eval("boom()", &Value::Null).map_err(|e| e.code().as_str()),
        Err("jexl-transform")
    );
}

#[test]
fn standard_transforms_are_registered_by_name_only() {
    let error = Jexl::new()
        .with_standard_transforms(&["upper", "reverse"])
        .expect_err("reverse is not standard");
    assert_eq!(error.code().as_str(), "jexl-unknown-transform");
    assert!(error.message().contains("reverse"), "{error}");
    let jexl = Jexl::new()
        .with_standard_transforms(&["upper", "lower", "split", "join", "length"])
        .expect("all five");
    let cases = [
        ("'straße'|upper", json(r#""STRASSE""#)),
        ("'ΑΣ'|lower", json(r#""ας""#)),
        ("[1, [2, 3], null]|upper", json(r#""1,2,3,""#)),
        ("'a--b--'|split('--')", json(r#"["a","b",""]"#)),
        ("'ab'|split('')", json(r#"["a","b"]"#)),
        ("'ab'|split", json(r#"["ab"]"#)),
        ("[1, [2, 3], {}]|join(' ')", json(r#""1 2,3 [object Object]""#)),
        ("[1, 2]|join", json(r#""1,2""#)),
        ("'😀'|length", json("2")),
        ("5|length", Value::Undefined),
    ];
    for (source, want) in cases {
        assert_eq!(jexl.eval(source, &Value::Null).ok(), Some(want), "{source}");
    }
    for source in ["'a'|join(',')", "missing|length", "null|length"] {
        assert_eq!(
            jexl.eval(source, &Value::Null).map_err(|e| e.code().as_str()),
            Err("jexl-transform"),
            "{source}"
        );
    }
}

#[test]
fn a_shared_meter_charges_every_evaluation() {
    let expression = Jexl::new().compile("1 + 2").expect("compiles");
    let mut meter = Meter::new(&Limits {
        steps: Some(7),
        ..Limits::UNLIMITED
    });
    assert!(expression.evaluate_with(&Value::Null, &mut meter).is_ok());
    assert!(expression.evaluate_with(&Value::Null, &mut meter).is_ok());
    let error = expression
        .evaluate_with(&Value::Null, &mut meter)
        .expect_err("three nodes each, seven steps");
    assert_eq!(error.code().as_str(), "budget-exceeded");
    assert_eq!(meter.steps_used(), 7);
}

#[test]
fn a_failed_evaluation_leaves_a_shared_meter_at_depth_zero() {
    let context = json(r#"{"rows": [{"list": [1]}, {"list": []}]}"#);
    let mut meter = Meter::new(&Limits::UNLIMITED);
    for source in [
        "rows[.list.x == 1]",
        "[1, rows[1].list.x]",
        "{a: !(rows[.list.x])}",
        "rows[1].list.x + 1",
    ] {
        let error = Jexl::new()
            .compile(source)
            .expect("compiles")
            .evaluate_with(&context, &mut meter)
            .expect_err("element 0 of an empty list");
        assert_eq!(error.code().as_str(), "jexl-runtime", "{source}");
        assert_eq!(meter.depth(), 0, "{source}");
    }
}

#[test]
fn the_envelope_is_the_clis() {
    let jexl = Jexl::new();
    let context = json(r#"{"a": {"b": [1, 2]}}"#);
    assert_eq!(
        outcome(&jexl, "a.b", &context).to_envelope(),
        r#"{"ok":true,"value":[1,2]}"#
    );
    assert_eq!(outcome(&jexl, "a.c", &context), Outcome::Undefined);
    assert_eq!(
        outcome(&jexl, "[0/0, 1/0, missing]", &context).to_envelope(),
        r#"{"ok":true,"value":[null,null,null]}"#
    );
    assert_eq!(
        outcome(&jexl, "{x: missing, y: 1}", &context).to_envelope(),
        r#"{"ok":true,"value":{"y":1}}"#
    );
    let Outcome::Error { code, message } = outcome(&jexl, "a +", &context) else {
        panic!("a syntax error");
    };
    assert_eq!(code, "jexl-syntax");
    assert!(message.contains("ends too early"), "{message}");
}

#[test]
fn errors_say_what_and_where() {
    let error = Jexl::new().compile("a + * b").expect_err("two operators");
    assert_eq!(error.code().as_str(), "jexl-syntax");
    assert_eq!(error.position(), Some(4));
    assert!(error.message().contains("expected a value"), "{error}");
    assert_eq!(error.to_string(), format!("jexl-syntax: {}", error.message()));
    let error = Jexl::new()
        .eval("list.name", &json(r#"{"list": []}"#))
        .expect_err("element 0 is missing");
    assert_eq!(error.code().as_str(), "jexl-runtime");
    assert!(error.message().contains("reading 'name'"), "{error}");
}

#[test]
fn default_limits_are_documented_values() {
    assert_eq!(DEFAULT_LIMITS.steps, Some(10_000_000));
    assert_eq!(DEFAULT_LIMITS.time, Some(std::time::Duration::from_secs(1)));
    assert_eq!(DEFAULT_LIMITS.max_string_length, Some(10_000_000));
    assert_eq!(DEFAULT_LIMITS.max_array_length, Some(10_000_000));
    assert_eq!(DEFAULT_LIMITS.max_depth, Some(500));
    assert_eq!(Jexl::new().limits(), &DEFAULT_LIMITS);
}

/// The code of the first lint in `source`.
fn lint_code(source: &str) -> Option<&'static str> {
    lint(source).map(|found| found.code)
}

#[test]
fn the_linter_names_both_javascript_habits() {
    let found = lint("order.total === 100").expect("strict equality");
    assert_eq!(
        found,
        Lint {
            code: "jexl-dialect-strict-equality",
            message: "'===' at byte 12: JEXL's equality operator is '=='; replace '===' with '=='".to_owned(),
            position: 12,
        }
    );
    assert_eq!(lint_code("a!==b"), Some("jexl-dialect-strict-equality"));
    assert!(lint("a !== b").is_some_and(|found| found.message.contains("replace '!==' with '!='")));
    assert_eq!(lint_code("a ==== b"), Some("jexl-dialect-strict-equality"));
    let found = lint("ctx.order.total > 100").expect("ctx prefix");
    assert_eq!((found.code, found.position), ("jexl-dialect-ctx-prefix", 0));
    assert!(
        found
            .message
            .contains("write 'order.total' rather than 'ctx.order.total'"),
        "{}",
        found.message
    );
    assert_eq!(lint_code("ready && ctx . order"), Some("jexl-dialect-ctx-prefix"));
    // The first mistake in the source wins.
    assert_eq!(lint_code("ctx.a === 1"), Some("jexl-dialect-ctx-prefix"));
}

#[test]
fn the_linter_reads_tokens_not_text() {
    for source in [
        "note == 'a === b'",
        "\"ctx.order\" == label",
        "a || b",
        "a|| b|upper",
        "a == b",
        "a != b",
        "a.ctx.b",
        "myctx.total",
        "ctx",
        "ctx == 1",
        "'it\\'s ===' + x",
    ] {
        assert_eq!(lint(source), None, "{source}");
    }
}

#[test]
fn a_parse_error_the_linter_explains_is_a_dialect_error() {
    let jexl = Jexl::new();
    let error = jexl.compile("status === 'ready'").expect_err("=== does not parse");
    assert_eq!((error.code().as_str(), error.position()), ("jexl-dialect", Some(7)));
    assert!(error.message().contains("replace '===' with '=='"));
    let error = jexl.compile("ctx.a +").expect_err("incomplete");
    assert_eq!(error.code().as_str(), "jexl-dialect");
    // `ctx.a` alone is valid Jexl (a name that is usually undefined): only a failed parse is
    // reported as a dialect error; hosts that refuse it call `lint` themselves.
    assert_eq!(jexl.eval("ctx.a", &Value::Null).ok(), Some(Value::Undefined));
    assert_eq!(
        jexl.compile("a = b").map_err(|e| e.code().as_str()).err(),
        Some("jexl-syntax")
    );
}
