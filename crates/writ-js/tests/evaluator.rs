//! The `Evaluator` API: contexts, compile, validate, the parse cache, budgets and host
//! functions, as a host uses them.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;
use writ_core::{Object, Value, parse_json};
use writ_js::{Budget, Evaluator, HostFunction, Reason};

fn object(text: &str) -> Object {
    parse_json(text)
        .expect("test JSON")
        .as_object()
        .expect("an object")
        .clone()
}

fn json_of(value: &Value) -> String {
    value.to_json_string().unwrap_or_else(|| "undefined".into())
}

#[test]
fn the_seeds_examples_give_the_seeds_answers() {
    let evaluator = Evaluator::new();
    let rows = object(
        r#"{"rows": [{"name": "Mug", "stock": 4, "status": "open"}, {"name": "Kettle", "stock": 0, "status": "sold"},
            {"name": "Beans", "stock": 12, "status": "open"}]}"#,
    );
    let eval = |source: &str| evaluator.eval(source, &[&rows]);
    assert_eq!(json_of(&eval("rows.filter(r => r.stock > 0).length").unwrap()), "2");
    assert_eq!(
        json_of(&eval("rows.map(r => r.name).join(', ')").unwrap()),
        r#""Mug, Kettle, Beans""#
    );
    assert_eq!(
        json_of(&eval("`${rows.length} items, ${rows.filter(r => !r.stock).length} sold out`").unwrap()),
        r#""3 items, 1 sold out""#
    );
    let error = eval(r#"rows["pu" + "sh"]({ stock: 9 })"#).unwrap_err();
    assert_eq!(error.reason(), Reason::GuardrailViolation);
    assert!(
        error.message().contains("\"push\" is not an available method"),
        "{error}"
    );
}

#[test]
fn a_later_context_shadows_an_earlier_one_and_globals() {
    let evaluator = Evaluator::new();
    let first = object(r#"{"a": 1, "b": 2}"#);
    let second = object(r#"{"b": 20, "Math": 7}"#);
    assert_eq!(json_of(&evaluator.eval("a + b", &[&first, &second]).unwrap()), "21");
    assert_eq!(json_of(&evaluator.eval("Math", &[&first, &second]).unwrap()), "7");
    assert_eq!(json_of(&evaluator.eval("Math.max(a, b)", &[&first]).unwrap()), "2");
}

#[test]
fn compile_once_run_many_with_a_fresh_budget_each_time() {
    let evaluator = Evaluator::builder()
        .budget(Budget {
            steps: 50,
            ..Budget::default()
        })
        .build()
        .unwrap();
    let compiled = evaluator.compile("xs.map(x => x * 2).length").unwrap();
    let small = object(r#"{"xs": [1, 2, 3]}"#);
    for _ in 0..100 {
        assert_eq!(json_of(&compiled.eval(&[&small]).unwrap()), "3");
    }
    let large = object(&format!("{{\"xs\": [{}]}}", vec!["1"; 100].join(",")));
    assert_eq!(compiled.eval(&[&large]).unwrap_err().reason(), Reason::BudgetExceeded);
    assert_eq!(json_of(&compiled.eval(&[&small]).unwrap()), "3");
    assert_eq!(evaluator.compile("a +").unwrap_err().reason(), Reason::ExpressionSyntax);
}

#[test]
fn validate_names_free_identifiers_and_host_calls() {
    let lookup = HostFunction::new("lookup", "Looks up", |input: Value| async move { Ok(input) });
    let evaluator = Evaluator::builder().function(lookup).build().unwrap();
    let facts = evaluator
        .validate("rows.filter(r => r.id > min).length > 0 ? lookup({ min }) : Math.PI")
        .unwrap();
    assert_eq!(facts.free_names, ["rows", "min", "lookup", "Math"]);
    assert_eq!(facts.host_calls, ["lookup"]);
    assert!(evaluator.validate("rows.push(1)").is_err());
}

#[test]
fn unknown_names_fail_only_when_evaluated() {
    let evaluator = Evaluator::new();
    assert_eq!(json_of(&evaluator.eval("true || nope", &[]).unwrap()), "true");
    let error = evaluator.eval("nope", &[]).unwrap_err();
    assert_eq!(error.reason(), Reason::UnknownReference);
    let error = evaluator.eval("typeof nope", &[]).unwrap_err();
    assert_eq!(error.reason(), Reason::UnknownReference);
}

#[test]
fn source_length_is_checked_before_parsing() {
    let evaluator = Evaluator::builder().max_source_length(10).build().unwrap();
    assert_eq!(json_of(&evaluator.eval("1 + 2", &[]).unwrap()), "3");
    let error = evaluator.eval("1 + 2 + 3 + 4", &[]).unwrap_err();
    assert_eq!(error.reason(), Reason::ExpressionSyntax);
    assert!(error.message().contains("too long"), "{error}");
}

#[test]
fn the_parse_cache_is_bounded_and_answers_stay_right_after_eviction() {
    let evaluator = Evaluator::new();
    for round in 0..2 {
        for n in 0..(writ_js::PARSE_CACHE_SIZE + 50) {
            let value = evaluator.eval(&format!("{n} + {round}"), &[]).unwrap();
            assert_eq!(value, Value::Number((n + round) as f64));
        }
    }
}

fn tools(calls: Arc<AtomicUsize>) -> Evaluator {
    let get_user = HostFunction::new("getUser", "Look up a user by id", move |input: Value| {
        let calls = Arc::clone(&calls);
        async move {
            calls.fetch_add(1, Ordering::SeqCst);
            let id = input
                .as_object()
                .and_then(|o| o.get_str("id"))
                .and_then(Value::as_number)
                .unwrap_or(0.0);
            if id == 13.0 {
                return Err(String::from("no user 13"));
            }
            if id == 99.0 {
                return Ok(Value::from(json!({"id": "ninety-nine"})));
            }
            Ok(Value::from(json!({"id": id, "name": "Ada"})))
        }
    })
    .with_input_schema(json!({"type": "object", "properties": {"id": {"type": "number"}}, "required": ["id"]}))
    .unwrap()
    .with_output_schema(json!({"type": "object", "properties": {"id": {"type": "number"}}}))
    .unwrap();
    Evaluator::builder().function(get_user).build().unwrap()
}

#[test]
fn host_functions_run_only_in_result_position_with_checked_input_and_output() {
    let calls = Arc::new(AtomicUsize::new(0));
    let evaluator = tools(Arc::clone(&calls));
    let user = evaluator.eval("getUser({ id: 7 })", &[]).unwrap();
    assert_eq!(json_of(&user), r#"{"id":7,"name":"Ada"}"#);
    let cached = object(r#"{"cached": null}"#);
    assert_eq!(
        json_of(&evaluator.eval("cached ?? getUser({ id: 8 })", &[&cached]).unwrap()),
        r#"{"id":8,"name":"Ada"}"#
    );
    assert_eq!(calls.load(Ordering::SeqCst), 2);

    let refused = [
        ("getUser({ id: 'seven' })", Reason::InvalidArguments),
        ("getUser({ id: 13 })", Reason::HostFunction),
        ("getUser({ id: 99 })", Reason::HostFunction),
        ("getUser({ id: 7 }).name", Reason::GuardrailViolation),
        ("[1, 2].map(id => getUser({ id }))", Reason::GuardrailViolation),
        ("getUser", Reason::GuardrailViolation),
        ("getUser({ id: 1 }, 2)", Reason::GuardrailViolation),
    ];
    for (source, reason) in refused {
        let error = evaluator.eval(source, &[]).unwrap_err();
        assert_eq!(error.reason(), reason, "{source}: {error}");
    }
    // Refused calls never ran: only the three that passed their input check did.
    assert_eq!(calls.load(Ordering::SeqCst), 4);
}

#[test]
fn host_function_names_are_screened_at_construction() {
    for name in ["1abc", "a-b", "class", "Math", ""] {
        let function = HostFunction::new(name, "", |input: Value| async move { Ok(input) });
        let error = Evaluator::builder().function(function).build().unwrap_err();
        assert_eq!(error.reason(), Reason::HostFunction, "{name}");
    }
    let twice = HostFunction::new("f", "", |input: Value| async move { Ok(input) });
    let error = Evaluator::builder()
        .function(twice.clone())
        .function(twice)
        .build()
        .unwrap_err();
    assert_eq!(error.reason(), Reason::HostFunction);
}

#[test]
fn compiled_expressions_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<writ_js::Compiled>();
    assert_send_sync::<Evaluator>();
}
