//! Untrusted documents never overflow the stack: deep nesting is checked and run on stack
//! segments that grow on the heap, and deep recursion through subflows is bounded only by
//! `maxRecursionDepth`.

use writ_core::{Value, parse_json};
use writ_flow::{Output, RunLimits, RunOptions, Workflow, Workflows, check, run};

/// A document whose root is `depth` sequences, one inside the other, around one compute.
fn nested(depth: usize) -> Value {
    let mut text = String::new();
    for level in 0..depth {
        text.push_str(&format!(r#"{{"kind": "sequence", "id": "s{level}", "steps": ["#));
    }
    text.push_str(r#"{"kind": "compute", "id": "leaf", "expr": "n + 1"}"#);
    for _ in 0..depth {
        text.push_str("]}");
    }
    parse_json(&format!(r#"{{"version": 1, "root": {text}}}"#)).expect("nesting within the JSON reader's depth")
}

#[test]
fn deeply_nested_documents_check_and_run() {
    // 250 nodes deep is 500 levels of JSON (a node and its steps array), near the reader's cap.
    let document = nested(250);
    assert!(check(&document, &Workflows::new()).is_empty());
    let workflow = Workflow::parse(&document).expect("valid");
    let output = run(
        &workflow,
        &Workflows::new(),
        Output::text_output(r#"{"n": 1}"#),
        &RunOptions::default(),
    )
    .expect("runs");
    assert_eq!(output.text().to_string_lossy(), "2");
}

#[test]
fn unbounded_recursion_depth_does_not_overflow_the_stack() {
    let countdown = parse_json(
        r#"{"version": 1, "root": {"kind": "conditional", "id": "base",
            "routes": [{"expr": "n = 0", "target": {"kind": "compute", "id": "done", "expr": "'bottom'"}}],
            "default": {"kind": "sequence", "id": "recurse", "steps": [
              {"kind": "compute", "id": "step", "expr": "{'n': n - 1}"},
              {"kind": "subflow", "id": "again", "ref": "countdown"}]}}}"#,
    )
    .unwrap();
    let workflow = Workflow::parse(&countdown).unwrap();
    let mut workflows = Workflows::new();
    workflows.insert("countdown", workflow.clone());
    let options = RunOptions {
        limits: RunLimits::from_json(&parse_json(r#"{"maxRecursionDepth": "Infinity"}"#).unwrap()).unwrap(),
        ..RunOptions::default()
    };
    let output = run(&workflow, &workflows, Output::text_output(r#"{"n": 20000}"#), &options).expect("runs");
    assert_eq!(output.text().to_string_lossy(), "bottom");
}
