//! The cells' behaviour as data: every case in `tests/cells/*.jsonl`, run through its cell.
//!
//! A case is one line:
//!
//! ```text
//! {"id", "cell", "node": {"kind": "branch"|"select", "cases"?, "predicate", "id"?},
//!  "outputs"?: {table key: [{"json": …}, …]}, "limits"?: {"steps": n},
//!  "expect": {"verdict": true|false|label|null, "fault": <FaultKind code>|null, "code"?: <engine code>}}
//! ```
//!
//! or, to pin what freeze says, `"expect": {"refused": null}` (the node validates) or
//! `"expect": {"refused": ["text", …]}` (validation refuses it with `predicate-invalid`, naming
//! the node, and the message contains every text).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use writ_cells::{
    Decision, JexlCell, JsCell, JsonataCell, LuaCell, OutputTable, PredicateContext, PredicateEvaluator, PredicateNode,
    StructuredCell, Verdict,
};
use writ_core::{Limits, Str, Value, block_on, parse_json};

/// One line of a case file, read.
struct Case {
    /// Where the case is, for failure messages.
    at: String,
    /// The cell's id.
    cell: String,
    /// The node the case decides or validates.
    node: PredicateNode,
    /// The table it reads.
    outputs: OutputTable,
    /// A step limit replacing the cell's default, if any.
    steps: Option<u64>,
    /// The `expect` object.
    expect: Value,
}

/// Every case file, in name order.
fn case_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cells");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("cannot list {}: {error}", dir.display()))
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
        .collect();
    files.sort();
    files
}

/// A member of `object` by name.
fn member<'v>(object: &'v Value, name: &str) -> Option<&'v Value> {
    object.as_object().and_then(|object| object.get_str(name))
}

/// Every case of every file; a malformed case fails the test.
fn read_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let mut ids: Vec<String> = Vec::new();
    for file in case_files() {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|error| panic!("{}: {error}", file.display()));
        for (idx, line) in text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()) {
            let at = format!("{}:{}", file.display(), idx + 1);
            let case = parse_json(line).unwrap_or_else(|error| panic!("{at}: {error}"));
            let text_of = |value: Option<&Value>, what: &str| -> String {
                value
                    .and_then(Value::as_str)
                    .map(ToString::to_string)
                    .unwrap_or_else(|| panic!("{at}: {what} must be a string"))
            };
            let id = text_of(member(&case, "id"), "id");
            assert!(!ids.contains(&id), "{at}: the id {id} is used twice");
            ids.push(id.clone());
            let cell = text_of(member(&case, "cell"), "cell");
            let node = member(&case, "node").unwrap_or_else(|| panic!("{at}: no node"));
            let node_id = member(node, "id").map_or_else(|| "n".to_string(), |id| text_of(Some(id), "node.id"));
            let predicate = member(node, "predicate").cloned().unwrap_or_default();
            let node = match text_of(member(node, "kind"), "node.kind").as_str() {
                "branch" => PredicateNode::branch(&node_id, &cell, predicate),
                "select" => {
                    let cases: Vec<String> = member(node, "cases")
                        .and_then(Value::as_array)
                        .unwrap_or_else(|| panic!("{at}: a select needs cases"))
                        .iter()
                        .map(|case| text_of(Some(case), "a case"))
                        .collect();
                    let cases: Vec<&str> = cases.iter().map(String::as_str).collect();
                    PredicateNode::select(&node_id, &cell, &cases, predicate)
                }
                other => panic!("{at}: unknown kind {other}"),
            };
            let outputs = member(&case, "outputs").map_or_else(OutputTable::new, |table| {
                OutputTable::from_value(table).unwrap_or_else(|error| panic!("{at}: {error}"))
            });
            let steps = member(&case, "limits")
                .and_then(|limits| member(limits, "steps"))
                .and_then(Value::as_number)
                .map(|steps| steps as u64);
            let expect = member(&case, "expect")
                .cloned()
                .unwrap_or_else(|| panic!("{at}: no expect"));
            cases.push(Case {
                at: format!("{at} ({id})"),
                cell,
                node,
                outputs,
                steps,
                expect,
            });
        }
    }
    cases
}

/// The cell `id`, with its default limits or a step limit of `steps`.
fn cell(id: &str, steps: Option<u64>) -> Arc<dyn PredicateEvaluator> {
    match (id, steps) {
        ("structured", None) => Arc::new(StructuredCell::default()),
        ("structured", Some(steps)) => Arc::new(StructuredCell::new(Limits {
            steps: Some(steps),
            ..writ_cells::structured::DEFAULT_LIMITS
        })),
        ("js", None) => Arc::new(JsCell::default()),
        ("js", Some(steps)) => Arc::new(JsCell::new(writ_js::Budget {
            steps,
            ..writ_js::Budget::default()
        })),
        ("jsonata", None) => Arc::new(JsonataCell::default()),
        ("jsonata", Some(steps)) => Arc::new(JsonataCell::new(writ_jsonata::JsonataLimits {
            steps: Some(steps),
            ..writ_jsonata::JsonataLimits::default()
        })),
        ("jexl", None) => Arc::new(JexlCell::default()),
        ("jexl", Some(steps)) => Arc::new(JexlCell::new(writ_jexl::Jexl::new().with_limits(Limits {
            steps: Some(steps),
            ..writ_jexl::DEFAULT_LIMITS
        }))),
        ("lua", None) => Arc::new(LuaCell::default()),
        ("lua", Some(steps)) => Arc::new(LuaCell::new(writ_lua::LuaLimits {
            instruction_limit: steps,
            ..writ_lua::DEFAULT_LIMITS
        })),
        (other, _) => panic!("no cell named {other}"),
    }
}

/// The verdict a case expects, read as the node's kind says.
fn expected_verdict(case: &Case) -> Verdict {
    let verdict = member(&case.expect, "verdict").unwrap_or(&Value::Undefined);
    match (&case.node.decision, verdict) {
        (Decision::Branch, Value::Bool(matched)) => Verdict::Branch { matched: *matched },
        (Decision::Select { .. }, Value::Null) => Verdict::Select { case: None },
        (Decision::Select { .. }, Value::String(label)) => Verdict::Select {
            case: Some(label.clone()),
        },
        _ => panic!("{}: a branch expects true or false, a select a label or null", case.at),
    }
}

#[test]
fn every_case_decides_as_expected() {
    let cases = read_cases();
    let mut decided = 0;
    for case in cases.iter().filter(|case| member(&case.expect, "refused").is_none()) {
        let cell = cell(&case.cell, case.steps);
        block_on(cell.load()).unwrap_or_else(|error| panic!("{}: {error}", case.at));
        let context = PredicateContext {
            outputs: case.outputs.clone(),
            ..PredicateContext::default()
        };
        let evaluation = block_on(cell.evaluate(&case.node, &context));
        let expected = expected_verdict(case);
        assert_eq!(evaluation.verdict, expected, "{}: {:?}", case.at, evaluation.fault);
        let expected_fault = member(&case.expect, "fault").and_then(Value::as_str);
        match (&evaluation.fault, expected_fault) {
            (None, None) => {}
            (Some(fault), Some(kind)) => {
                assert!(kind.eq_str(fault.kind.code()), "{}: fault {fault}", case.at);
                assert_eq!(
                    evaluation.verdict,
                    case.node.negative(),
                    "{}: a fault is negative",
                    case.at
                );
                assert!(!fault.message.is_empty(), "{}: a fault says why", case.at);
                if let Some(code) = member(&case.expect, "code").and_then(Value::as_str) {
                    assert!(code.eq_str(&fault.code), "{}: engine code {}", case.at, fault.code);
                }
            }
            (fault, expected) => panic!("{}: fault {fault:?}, expected {expected:?}", case.at),
        }
        decided += 1;
    }
    assert!(decided >= 100, "only {decided} evaluation cases");
}

#[test]
fn every_validation_case_is_accepted_or_refused_as_expected() {
    let mut checked = 0;
    for case in read_cases() {
        let Some(refused) = member(&case.expect, "refused") else {
            continue;
        };
        let cell = cell(&case.cell, case.steps);
        let result = block_on(cell.validate(&case.node));
        match (result, refused) {
            (Ok(()), Value::Null) => {}
            (Err(error), Value::Array(texts)) => {
                assert_eq!(error.code, "predicate-invalid", "{}", case.at);
                assert_eq!(error.node, Some(case.node.id.clone()), "{}", case.at);
                for text in texts.iter() {
                    let text = text.as_str().map(Str::to_string_lossy).unwrap_or_default();
                    assert!(
                        error.message.contains(text.as_ref()),
                        "{}: the refusal does not say {text:?}: {}",
                        case.at,
                        error.message
                    );
                }
            }
            (result, _) => panic!("{}: {result:?}", case.at),
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} validation cases");
}
