//! The refusal corpus: every case in `tests/corpus/refusals/*.jsonl` (see the corpus README)
//! must give writ's expected answer — a refusal with its reason, a stop with budget-exceeded, or
//! for `harmless.jsonl` the harmless value writ reads — and must end well inside its budget:
//! an evaluation that takes longer than its time limit (the case's `ms`, default 100) plus 50 ms
//! fails, whatever it answered.
//!
//! Each case runs on an evaluator built with the case's limits and two host functions:
//! `getUser` (input `{ id: number }`, no other key; answers `{ id, name: "Ada" }`) and
//! `listOrders` (no input; answers `[{ id: 1 }, { id: 2 }]`).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::json;
use writ_core::{Object, Outcome, Value, parse_json};
use writ_js::{Budget, Evaluator, HostFunction};
use writ_testkit::corpus::{Case, mismatch, read_cases};

/// The time an evaluation may take beyond its `ms` limit before the case fails.
const SLACK: Duration = Duration::from_millis(50);

/// The refusal corpus folder.
fn refusals_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/refusals")
}

/// Every `*.jsonl` file in `dir`, sorted.
fn jsonl_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("cannot list {}: {error}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.is_file() && path.extension().is_some_and(|ext| ext == "jsonl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus files in {}", dir.display());
    files
}

/// Every refusal case, with its file's name.
fn all_cases() -> Vec<(String, Case)> {
    jsonl_files(&refusals_dir())
        .iter()
        .flat_map(|path| {
            let name = path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default();
            read_cases(path).into_iter().map(move |case| (name.clone(), case))
        })
        .collect()
}

/// The limits a case sets, on top of the defaults.
struct CaseLimits {
    budget: Budget,
    max_source_length: Option<usize>,
}

/// Reads a case's `limits`: `steps`, `ms`, `maxStringLength`, `maxArrayLength`,
/// `maxTotalAllocation`, `maxSourceLength`.
fn limits(case: &Case) -> CaseLimits {
    let mut limits = CaseLimits {
        budget: Budget::default(),
        max_source_length: None,
    };
    let object = match case.field("limits") {
        Value::Undefined => return limits,
        Value::Object(object) => object,
        other => panic!("case {}: \"limits\" must be an object, not {other:?}", case.id),
    };
    for (key, value) in object.iter() {
        let key = key.to_string_lossy();
        let number = value
            .as_number()
            .filter(|n| n.is_finite() && *n >= 0.0 && n.fract() == 0.0)
            .unwrap_or_else(|| panic!("case {}: limit {key} must be a whole number, not {value:?}", case.id));
        // Whole, non-negative and finite, so the conversion is exact below 2^53.
        let n = number as u64;
        match key.as_ref() {
            "steps" => limits.budget.steps = n,
            "ms" => limits.budget.ms = n,
            "maxStringLength" => limits.budget.max_string_length = n,
            "maxArrayLength" => limits.budget.max_array_length = n,
            "maxTotalAllocation" => limits.budget.max_total_allocation = n,
            "maxSourceLength" => limits.max_source_length = Some(usize::try_from(n).unwrap_or(usize::MAX)),
            other => panic!("case {}: unknown limit {other:?}", case.id),
        }
    }
    limits
}

/// `getUser`: takes `{ id: number }` and nothing else; answers `{ id, name: "Ada" }`.
fn get_user() -> HostFunction {
    HostFunction::new("getUser", "Look up a user by id", |input: Value| async move {
        let id = input
            .as_object()
            .and_then(|object| object.get_str("id"))
            .and_then(Value::as_number)
            .ok_or_else(|| String::from("getUser needs a numeric id"))?;
        let mut user = Object::new();
        user.insert("id".into(), Value::from(id));
        user.insert("name".into(), Value::from("Ada"));
        Ok(Value::from(user))
    })
    .with_input_schema(json!({
        "type": "object",
        "properties": {"id": {"type": "number"}},
        "required": ["id"],
        "additionalProperties": false
    }))
    .expect("getUser's input schema is valid")
}

/// `listOrders`: takes no input; answers `[{ id: 1 }, { id: 2 }]`.
fn list_orders() -> HostFunction {
    HostFunction::new("listOrders", "List the orders", |_input: Value| async move {
        parse_json(r#"[{"id": 1}, {"id": 2}]"#).map_err(|error| error.to_string())
    })
    .with_input_schema(json!({"type": "null"}))
    .expect("listOrders' input schema is valid")
}

/// The evaluator a case runs on.
fn evaluator(limits: &CaseLimits) -> Evaluator {
    let mut builder = Evaluator::builder()
        .functions([get_user(), list_orders()])
        .budget(limits.budget);
    if let Some(length) = limits.max_source_length {
        builder = builder.max_source_length(length);
    }
    builder.build().expect("the host functions bind")
}

/// The answer as an envelope carries it (see tests/corpus.rs).
fn outcome(result: Result<Value, writ_js::Error>) -> Outcome {
    let envelope = writ_js::outcome(result).to_envelope();
    Outcome::parse_envelope(&envelope)
        .unwrap_or_else(|error| panic!("writ wrote an envelope it cannot read ({error}): {envelope}"))
}

/// A short form of a text for failure reports (some expressions are 20,000 characters long).
fn short(text: &str) -> String {
    if text.chars().count() > 160 {
        format!(
            "{}… ({} chars)",
            text.chars().take(160).collect::<String>(),
            text.chars().count()
        )
    } else {
        text.to_string()
    }
}

fn show(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Error { code, message } if message.is_empty() => format!("error {code}"),
        Outcome::Error { code, message } => format!("error {code}: {}", short(message)),
        other => short(&other.to_envelope()),
    }
}

/// Runs one case, timing the evaluation alone (not building the evaluator).
fn run(case: &Case, source: &str, context: &Object) -> (Outcome, Duration, Duration) {
    let limits = limits(case);
    let evaluator = evaluator(&limits);
    let started = Instant::now();
    let result = evaluator.eval(source, &[context]);
    let elapsed = started.elapsed();
    (
        outcome(result),
        elapsed,
        Duration::from_millis(limits.budget.ms) + SLACK,
    )
}

#[test]
fn every_refusal_gives_its_reason_within_its_budget() {
    let cases = all_cases();
    let mut failures = Vec::new();
    let mut slowest: Vec<(Duration, String)> = Vec::new();
    for (file, case) in &cases {
        let source = match case.field("expr") {
            Value::String(text) => text.to_string_lossy().into_owned(),
            other => panic!("case {}: \"expr\" must be a string, not {other:?}", case.id),
        };
        let context = match case.field("data") {
            Value::Undefined => Object::new(),
            Value::Object(object) => object,
            other => panic!("case {}: \"data\" must be an object, not {other:?}", case.id),
        };
        let (mut got, mut elapsed, allowed) = run(case, &source, &context);
        if elapsed > allowed {
            // Once more, so that a scheduler hiccup on a busy machine is not taken for a bomb
            // that outran its budget: a real one is slow both times.
            (got, elapsed, _) = run(case, &source, &context);
        }
        slowest.push((elapsed, case.id.clone()));
        let mut problems = Vec::new();
        if mismatch(case, &got).is_some() {
            problems.push(format!("expected {}\n    got      {}", show(&case.expect), show(&got)));
        }
        if elapsed > allowed {
            problems.push(format!(
                "took {} ms; its budget allows {} ms",
                elapsed.as_millis(),
                allowed.as_millis()
            ));
        }
        if !problems.is_empty() {
            failures.push(format!(
                "{file} {}: {}\n    {}",
                case.id,
                short(&source),
                problems.join("\n    ")
            ));
        }
    }
    slowest.sort_by_key(|(elapsed, _)| std::cmp::Reverse(*elapsed));
    let slowest: Vec<String> = slowest
        .iter()
        .take(5)
        .map(|(elapsed, id)| format!("{id} {} ms", elapsed.as_millis()))
        .collect();
    println!("slowest evaluations: {}", slowest.join(", "));
    if failures.is_empty() {
        println!("refusals: {} of {} cases pass", cases.len(), cases.len());
        return;
    }
    let mut text = format!(
        "refusals: {} of {} cases pass, {} fail:\n",
        cases.len() - failures.len(),
        cases.len(),
        failures.len()
    );
    for failure in &failures {
        let _ = writeln!(text, "{failure}");
    }
    panic!("{text}");
}

#[test]
fn the_refusal_corpus_is_large_and_its_ids_are_unique() {
    let cases = all_cases();
    let refusals = cases.iter().filter(|(_, case)| !case.expect.is_ok()).count();
    assert!(
        refusals >= 300,
        "the refusal corpus has {refusals} refusals; it needs at least 300"
    );
    let mut ids = BTreeSet::new();
    let corpus = jsonl_files(&refusals_dir().join(".."));
    let differential = corpus.iter().flat_map(|path| read_cases(path));
    for case in cases.iter().map(|(_, case)| case.clone()).chain(differential) {
        assert!(
            ids.insert(case.id.clone()),
            "the id {} is used twice across the corpora",
            case.id
        );
    }
    // harmless.jsonl holds the reads that give undefined rather than failing; every other file
    // holds refusals only, apart from host.jsonl's calls in allowed positions.
    for (file, case) in &cases {
        if case.expect.is_ok() {
            assert!(
                file == "harmless.jsonl" || case.id.starts_with("ref-host-ok-"),
                "{file} {}: only harmless.jsonl and host.jsonl's ok group expect a value",
                case.id
            );
        }
    }
}
