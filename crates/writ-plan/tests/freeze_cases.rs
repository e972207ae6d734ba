//! The freeze corpus: each file in testdata/freeze/ holds cases (a case, or a list of them)
//! `{"name", "plan": <plan document>, "tools"?: [names], "expect": [{"code", "nodeId"?,
//! "edgeId"?}], "note"?}`. Each plan is read and folded as `writ plan check` does, then checked
//! with the real predicate cells wired; the issues of all three (reading, folding, freezing)
//! must be exactly the expected ones — the same codes on the same nodes and edges, no more, no
//! fewer — every time, each freeze issue blocking with a message that names its node or edge.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use serde_json::Value as Json;
use writ_cells::{JexlCell, JsCell, JsonataCell, LuaCell, Registry, StructuredCell};
use writ_plan::{FreezeInputs, PlanIssue, Severity, check, read_document};

/// Every code freeze can return from a plan document, each of which some case must expect.
const CODES: &[&str] = &[
    "no_entry",
    "multiple_entries",
    "entry_has_incoming",
    "duplicate_node_id",
    "invalid_node_id",
    "invalid_edge_id",
    "duplicate_edge_id",
    "dangling_edge",
    "invalid_handle",
    "unknown_case",
    "select_missing_default",
    "cycle",
    "unreachable_node",
    "join_no_fork",
    "join_not_diamond",
    "nested_join",
    "join_reconvergence",
    "invalid_definition",
    "unresolved_param",
    "scaffold_placeholder",
    "missing_reference",
    "undeclared_field",
    "reference_not_upstream",
    "first_last_across_join",
    "ambiguous_reference",
    "unknown_branch_id",
    "tainted_call_arg",
    "undeclared_declassify",
    "unknown_tool",
    "missing_replay_safe",
    "missing_on_indeterminate",
    "retry_unsafe_repeat",
    "unwired_evaluator",
    "evaluator_error",
    "max_nodes_exceeded",
    "max_edges_exceeded",
    "max_encoded_bytes_exceeded",
    "unreachable_call",
];

fn registry() -> Registry {
    let mut registry = Registry::new();
    registry.register(Arc::new(StructuredCell::default())).unwrap();
    registry.register(Arc::new(JexlCell::default())).unwrap();
    registry.register(Arc::new(JsCell::default())).unwrap();
    registry.register(Arc::new(JsonataCell::default())).unwrap();
    registry.register(Arc::new(LuaCell::default())).unwrap();
    registry
}

type Key = (String, Option<String>, Option<String>);

fn key_of(issue: &PlanIssue) -> Key {
    (issue.code.to_string(), issue.node_id.clone(), issue.edge_id.clone())
}

fn expected_key(expect: &Json) -> Key {
    let text = |key: &str| expect.get(key).and_then(Json::as_str).map(str::to_owned);
    (
        text("code").expect("an expectation has a code"),
        text("nodeId"),
        text("edgeId"),
    )
}

fn sorted(mut keys: Vec<Key>) -> Vec<Key> {
    keys.sort();
    keys
}

#[test]
fn freeze_cases() {
    let registry = registry();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/freeze");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no cases in {}", dir.display());
    let mut failures = Vec::new();
    let mut names = BTreeSet::new();
    let mut expected_codes = BTreeSet::new();
    let mut passing = 0;
    let mut total = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let json: Json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let cases = match json {
            Json::Array(cases) => cases,
            case => vec![case],
        };
        let file_name = file.file_name().unwrap().to_string_lossy().into_owned();
        for case in cases {
            total += 1;
            let name = case["name"].as_str().expect("a case has a name").to_owned();
            let label = format!("{file_name}: {name}");
            assert!(names.insert(name.clone()), "two cases are named {name:?}");
            let folded = match read_document(&case["plan"]) {
                Ok(source) => source.fold(),
                Err(error) => {
                    failures.push(format!("{label}: the plan does not read: {error}"));
                    continue;
                }
            };
            let view = &folded.view;
            let tools: Option<Vec<String>> = case.get("tools").map(|tools| {
                tools
                    .as_array()
                    .expect("tools are a list")
                    .iter()
                    .map(|tool| tool.as_str().expect("a tool is a name").to_owned())
                    .collect()
            });
            let mut inputs = FreezeInputs::new(&registry);
            if let Some(tools) = &tools {
                inputs = inputs.with_tools(tools);
            }
            let frozen = check(view, &inputs);
            let issues: Vec<&PlanIssue> = folded.issues.iter().chain(&frozen).collect();
            let expect: Vec<Key> = case["expect"]
                .as_array()
                .expect("a case has an expect list")
                .iter()
                .map(expected_key)
                .collect();
            expected_codes.extend(expect.iter().map(|(code, _, _)| code.clone()));
            if expect.is_empty() {
                passing += 1;
            }
            let actual: Vec<Key> = issues.iter().copied().map(key_of).collect();
            if sorted(actual.clone()) != sorted(expect.clone()) {
                failures.push(format!(
                    "{label}\n  expected {expect:?}\n  got      {actual:?}\n  messages:\n{}",
                    issues.iter().map(|i| format!("    {i}")).collect::<Vec<_>>().join("\n")
                ));
                continue;
            }
            if check(view, &inputs) != frozen {
                failures.push(format!("{label}: a second check gives other issues or another order"));
            }
            for issue in &frozen {
                let names_its_place = issue
                    .node_id
                    .as_ref()
                    .is_none_or(|id| issue.message.contains(id.as_str()))
                    && issue
                        .edge_id
                        .as_ref()
                        .is_none_or(|id| issue.message.contains(id.as_str()));
                if issue.severity != Severity::Blocking || issue.message.len() < 40 || !names_its_place {
                    failures.push(format!("{label}: a message that does not name its place: {issue}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} cases failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    println!("{total} cases in {} files, {passing} of them clean", files.len());
    let missing: Vec<&&str> = CODES.iter().filter(|code| !expected_codes.contains(**code)).collect();
    let unknown: Vec<&String> = expected_codes
        .iter()
        .filter(|code| !CODES.contains(&code.as_str()))
        .collect();
    assert!(missing.is_empty(), "no case expects {missing:?}");
    assert!(
        unknown.is_empty(),
        "cases expect codes the harness does not list: {unknown:?}"
    );
    assert_eq!(
        CODES.iter().collect::<BTreeSet<_>>().len(),
        CODES.len(),
        "a code is listed twice"
    );
}
