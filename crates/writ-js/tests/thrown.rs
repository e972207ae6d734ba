//! Which JavaScript error each runtime failure stands for ([`writ_js::Thrown`]), as a table:
//! `tests/thrown.jsonl` holds at least one case for every place writ-js raises an
//! `expression-runtime` error. One case is one line:
//!
//! ```text
//! {"id", "expr", "data"?: {name: value}, "limits"?: {"steps", "ms", "maxStringLength",
//!  "maxArrayLength", "maxTotalAllocation"}, "thrown": "TypeError"|"RangeError"|"SyntaxError"|"URIError"|
//!  "ReferenceError",
//!  "message": the start of writ's message}
//! ```
//!
//! `message` pins the place in writ-js the case reaches. The same cases run as plain JavaScript
//! through `tests/thrown.mjs` in node, whose `error.constructor.name` must be the table's kind, so
//! the table cannot drift from JavaScript. The host reads the kind to tell a `TypeError` (a type
//! mismatch) from every other runtime error without reading the message.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use writ_core::{Object, Value, parse_json};
use writ_js::{Budget, Evaluator, Reason, Thrown};

/// Every kind of [`Thrown`], so the table can be checked to use each.
const KINDS: [Thrown; 5] = [
    Thrown::TypeError,
    Thrown::RangeError,
    Thrown::SyntaxError,
    Thrown::UriError,
    Thrown::ReferenceError,
];

/// One line of the table.
struct Case {
    /// Unique in the table.
    id: String,
    /// The expression.
    expr: String,
    /// The names it reads.
    data: Object,
    /// The budget it runs under in writ.
    budget: Budget,
    /// The error JavaScript throws.
    thrown: Thrown,
    /// The start of writ's message.
    message: String,
}

/// The table file.
fn table_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/thrown.jsonl")
}

/// A string member of `object`, or a panic naming the case: the table is broken.
fn text(object: &Object, name: &str, at: &str) -> String {
    object
        .get_str(name)
        .and_then(Value::as_str)
        .map(ToString::to_string)
        .unwrap_or_else(|| panic!("{at}: \"{name}\" must be a string"))
}

/// The budget a case's `limits` set over the defaults.
fn budget(limits: Option<&Value>, at: &str) -> Budget {
    let mut budget = Budget::default();
    let Some(limits) = limits else {
        return budget;
    };
    let limits = limits
        .as_object()
        .unwrap_or_else(|| panic!("{at}: \"limits\" must be an object"));
    for (key, value) in limits.iter() {
        let n = value
            .as_number()
            .filter(|n| n.is_finite() && *n >= 0.0 && n.fract() == 0.0)
            .unwrap_or_else(|| panic!("{at}: limit {key:?} must be a whole number"));
        // Whole, non-negative and finite, so the conversion is exact below 2^53.
        let n = n as u64;
        match key.to_string_lossy().as_ref() {
            "steps" => budget.steps = n,
            "ms" => budget.ms = n,
            "maxStringLength" => budget.max_string_length = n,
            "maxArrayLength" => budget.max_array_length = n,
            "maxTotalAllocation" => budget.max_total_allocation = n,
            other => panic!("{at}: unknown limit {other:?}"),
        }
    }
    budget
}

/// The kind a constructor name stands for.
fn kind(name: &str, at: &str) -> Thrown {
    KINDS
        .into_iter()
        .find(|kind| kind.name() == name)
        .unwrap_or_else(|| panic!("{at}: \"thrown\" must name one of {KINDS:?}, not {name:?}"))
}

/// Every case of the table, its ids unique.
fn cases() -> Vec<Case> {
    let path = table_path();
    let file = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    let mut cases: Vec<Case> = Vec::new();
    for (idx, line) in file.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()) {
        let at = format!("{}:{}", path.display(), idx + 1);
        let line = parse_json(line).unwrap_or_else(|error| panic!("{at}: not JSON: {error}"));
        let object = line.as_object().unwrap_or_else(|| panic!("{at}: a case is an object"));
        let id = text(object, "id", &at);
        assert!(
            cases.iter().all(|case| case.id != id),
            "{at}: the id {id} is used twice"
        );
        let data = match object.get_str("data") {
            None => Object::new(),
            Some(Value::Object(data)) => data.clone(),
            Some(other) => panic!("{at}: \"data\" must be an object, not {other:?}"),
        };
        cases.push(Case {
            expr: text(object, "expr", &at),
            data,
            budget: budget(object.get_str("limits"), &at),
            thrown: kind(&text(object, "thrown", &at), &at),
            message: text(object, "message", &at),
            id,
        });
    }
    cases
}

#[test]
fn every_case_throws_its_kind_in_writ() {
    let mut failures: Vec<String> = Vec::new();
    for case in cases() {
        let evaluator = Evaluator::builder()
            .budget(case.budget)
            .build()
            .expect("an evaluator without host functions builds");
        let answer = evaluator.eval(&case.expr, &[&case.data]);
        let fine = answer.as_ref().is_err_and(|error| {
            error.reason() == Reason::ExpressionRuntime
                && error.thrown() == Some(case.thrown)
                && error.message().starts_with(&case.message)
        });
        if !fine {
            failures.push(format!(
                "{}: {} should fail with expression-runtime ({}) \"{}…\", but gave {answer:?}",
                case.id, case.expr, case.thrown, case.message
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of the table's cases fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Runs every line of the table through `tests/thrown.mjs` and returns node's answers by line.
fn node_answers(table: &str) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/thrown.mjs");
    let mut child = Command::new("node")
        .env("TZ", "UTC")
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| panic!("could not start node (is node 20 installed and on PATH?): {error}"));
    let mut stdin = child.stdin.take().expect("node's stdin is piped");
    // Written from another thread, so a full stdout pipe cannot block both sides.
    let input = table.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("node ran");
    writer
        .join()
        .expect("the writer thread finished")
        .expect("node read the table");
    assert!(
        output.status.success(),
        "node {} failed: {}",
        script.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| parse_json(line).unwrap_or_else(|error| panic!("node wrote {line:?}, not JSON: {error}")))
        .collect()
}

#[test]
fn every_kind_is_what_node_throws() {
    let table = std::fs::read_to_string(table_path()).expect("the table is readable");
    let cases = cases();
    let answers = node_answers(&table);
    assert_eq!(answers.len(), cases.len(), "node answered a different number of cases");
    let mut failures: Vec<String> = Vec::new();
    for (case, answer) in cases.iter().zip(&answers) {
        let answer = answer.as_object().expect("node answers with an object");
        assert_eq!(
            answer
                .get_str("id")
                .and_then(Value::as_str)
                .map(ToString::to_string)
                .as_deref(),
            Some(case.id.as_str()),
            "node answered out of order"
        );
        let thrown = answer
            .get_str("thrown")
            .and_then(Value::as_str)
            .map(ToString::to_string);
        if thrown.as_deref() != Some(case.thrown.name()) {
            let message = answer
                .get_str("message")
                .and_then(Value::as_str)
                .map(ToString::to_string);
            failures.push(format!(
                "{}: {} throws {} in node ({}), the table says {}",
                case.id,
                case.expr,
                thrown.as_deref().unwrap_or("nothing"),
                message.as_deref().unwrap_or(""),
                case.thrown
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "the table disagrees with node:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_table_uses_every_kind() {
    let cases = cases();
    for kind in KINDS {
        assert!(
            cases.iter().any(|case| case.thrown == kind),
            "no case in {} throws a {kind}",
            table_path().display()
        );
    }
}

/// Only a runtime error stands for a JavaScript error: syntax, refusals, unknown names, budget
/// stops and host failures carry none.
#[test]
fn other_reasons_carry_no_kind() {
    let tight = Evaluator::builder()
        .budget(Budget {
            steps: 5,
            ..Budget::default()
        })
        .build()
        .expect("an evaluator without host functions builds");
    let evaluator = Evaluator::new();
    for (evaluator, source, reason) in [
        (&evaluator, "1 +", Reason::ExpressionSyntax),
        (&evaluator, "[1].push(2)", Reason::GuardrailViolation),
        (&evaluator, "nope > 1", Reason::UnknownReference),
        (&tight, "1 + 2 + 3 + 4 + 5 + 6", Reason::BudgetExceeded),
    ] {
        let error = evaluator.eval(source, &[]).expect_err(source);
        assert_eq!(error.reason(), reason, "{source}: {error:?}");
        assert_eq!(error.thrown(), None, "{source}: {error:?}");
    }
}
