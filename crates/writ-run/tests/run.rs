//! Running approved plans: what runs, in what order, with what values, and how runs end.

mod support;

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value as Json, json};
use support::{Calls, Concurrency, approve, call, outputs, plan, runtime, tool, toolbox};
use writ_run::{Abort, FrameStatus, RunView};
use writ_store::run::{RunEvent, RunOutcome};
use writ_store::{MemoryStore, PlanStore, RunStore};
use writ_tools::ToolError;

fn count_tool(calls: &Calls, name: &str, count: i64) -> Arc<writ_tools::FnTool> {
    tool(calls, name, None, Duration::ZERO, move |_| Ok(json!({"count": count})))
}

fn echo_tool(calls: &Calls, name: &str) -> Arc<writ_tools::FnTool> {
    tool(calls, name, None, Duration::ZERO, |args| Ok(json!({"echo": args})))
}

fn linear_plan() -> Json {
    plan(
        "linear",
        json!([{"path": "topic", "type": "string", "maxBytes": 20}]),
        &[
            (
                "list",
                "call",
                call(
                    "list",
                    json!({"dir": "/q3"}),
                    json!([{"path": "count", "type": "number"}]),
                    true,
                    "retry",
                ),
            ),
            (
                "report",
                "call",
                call(
                    "echo",
                    json!({"n": {"$ref": {"node": "list", "select": "first", "path": "count"}}, "label": "files"}),
                    json!([]),
                    true,
                    "retry",
                ),
            ),
        ],
        &[("e0", "entry", "list", "always"), ("e1", "list", "report", "always")],
    )
}

async fn start(store: &Arc<MemoryStore>, tools: &Arc<writ_tools::Toolbox>, plan_id: &str, input: Json) -> RunView {
    runtime(store, tools, "test")
        .start(plan_id, input, Some("run-1"), &Abort::new())
        .await
        .unwrap()
}

#[tokio::test]
async fn a_linear_plan_runs_with_resolved_references_and_idempotency_keys() {
    let calls = Calls::default();
    let tools = toolbox(vec![count_tool(&calls, "list", 3), echo_tool(&calls, "echo")]);
    let store = Arc::new(MemoryStore::new());
    let plan_id = approve(&*store, &linear_plan(), &tools);
    let view = start(&store, &tools, &plan_id, json!({"topic": "sales"})).await;
    assert_eq!(view.outcome, Some(RunOutcome::Completed));
    let outputs = outputs(&view);
    assert_eq!(outputs["entry:"], vec![json!({"topic": "sales"})]);
    assert_eq!(outputs["list:e2:e0"], vec![json!({"count": 3})]);
    assert_eq!(
        outputs["report:e2:e0e2:e1"],
        vec![json!({"echo": {"label": "files", "n": 3}})]
    );
    let all = calls.all();
    assert_eq!(all.len(), 2);
    assert_eq!(
        all[1].2,
        writ_run::idempotency_key("run-1", "report:e2:e0e2:e1", all[1].1.as_object().unwrap())
    );
    assert_ne!(all[0].2, all[1].2);
    // The key is also in the log, so a retry after a crash passes the same one.
    let events = store.read_run_events("run-1").unwrap();
    assert!(events.iter().any(|event| matches!(event,
        RunEvent::NodeEntered { idempotency_key: Some(key), .. } if *key == all[1].2)));
    assert_eq!(RunView::from_events(&events).unwrap(), view);
    assert_eq!(store.read_run("run-1").unwrap().status.name(), "completed");
}

#[tokio::test]
async fn only_an_approved_plan_runs_and_a_refused_input_does_not_use_up_the_run() {
    let calls = Calls::default();
    let tools = toolbox(vec![count_tool(&calls, "list", 3), echo_tool(&calls, "echo")]);
    let store = Arc::new(MemoryStore::new());
    let source = writ_plan::read_document(&linear_plan()).unwrap();
    store.create("linear", writ_store::NewPlan::default()).unwrap();
    store.append_ops("linear", &source.ops, None).unwrap();
    let refused = runtime(&store, &tools, "test")
        .start("linear", json!({"topic": "x"}), None, &Abort::new())
        .await
        .unwrap_err();
    assert_eq!(refused.code(), "not_executable");

    let store = Arc::new(MemoryStore::new());
    let plan_id = approve(&*store, &linear_plan(), &tools);
    let runtime = runtime(&store, &tools, "test");
    for (input, problem) in [
        (json!({}), "\"topic\" is missing"),
        (json!({"topic": 7}), "should be a string"),
        (json!({"topic": "x".repeat(21)}), "over its maxBytes of 20"),
        (json!(["topic"]), "not an object"),
    ] {
        let error = runtime.start(&plan_id, input, None, &Abort::new()).await.unwrap_err();
        assert_eq!(error.code(), "invalid_input");
        assert!(error.to_string().contains(problem), "{error}");
    }
    assert!(calls.all().is_empty());
    let view = runtime
        .start(&plan_id, json!({"topic": "ok"}), None, &Abort::new())
        .await
        .unwrap();
    assert_eq!(view.outcome, Some(RunOutcome::Completed));
    let again = runtime
        .start(&plan_id, json!({"topic": "ok"}), None, &Abort::new())
        .await
        .unwrap_err();
    assert_eq!(again.code(), "run_already_claimed");
}

fn branch_plan(predicate: Json) -> Json {
    plan(
        "branchy",
        json!([]),
        &[
            (
                "list",
                "call",
                call(
                    "list",
                    json!({}),
                    json!([{"path": "count", "type": "number"}]),
                    true,
                    "retry",
                ),
            ),
            (
                "gate",
                "branch",
                json!({"evaluator": "structured", "predicate": predicate}),
            ),
            (
                "yes",
                "call",
                call("echo", json!({"said": "yes"}), json!([]), true, "retry"),
            ),
            (
                "no",
                "call",
                call("echo", json!({"said": "no"}), json!([]), true, "retry"),
            ),
        ],
        &[
            ("e0", "entry", "list", "always"),
            ("e1", "list", "gate", "always"),
            ("e2", "gate", "yes", "match"),
            ("e3", "gate", "no", "no_match"),
        ],
    )
}

#[tokio::test]
async fn a_branch_routes_on_its_verdict() {
    for (count, said) in [(3, "yes"), (0, "no")] {
        let calls = Calls::default();
        let tools = toolbox(vec![count_tool(&calls, "list", count), echo_tool(&calls, "echo")]);
        let store = Arc::new(MemoryStore::new());
        let document = branch_plan(json!({"path": "list:e2:e0.count", "op": "gt", "value": 0}));
        let plan_id = approve(&*store, &document, &tools);
        let view = start(&store, &tools, &plan_id, json!({})).await;
        assert_eq!(view.outcome, Some(RunOutcome::Completed), "{view:?}");
        assert_eq!(calls.of("echo"), vec![json!({"said": said})]);
        let gate = view.frames.iter().find(|frame| frame.node_id == "gate").unwrap();
        assert_eq!(gate.status, FrameStatus::Done);
        assert_eq!(gate.verdict, Some(json!({"matched": count > 0})));
        assert_eq!(outputs(&view)["gate:e2:e0e2:e1"], vec![json!({"matched": count > 0})]);
    }
}

#[tokio::test]
async fn a_predicate_fault_at_run_time_takes_the_default_route_and_is_recorded() {
    let calls = Calls::default();
    let tools = toolbox(vec![count_tool(&calls, "list", 3), echo_tool(&calls, "echo")]);
    let store = Arc::new(MemoryStore::new());
    let document = plan(
        "faulting",
        json!([]),
        &[
            (
                "list",
                "call",
                call(
                    "list",
                    json!({}),
                    json!([{"path": "count", "type": "number"}]),
                    true,
                    "retry",
                ),
            ),
            // Answers a label that is not a case: a fault, so the select takes its default.
            (
                "size",
                "select",
                json!({"evaluator": "jexl", "cases": ["small", "large"], "predicate": "list.count > 1 ? 'huge' : 'small'"}),
            ),
            (
                "small",
                "call",
                call("echo", json!({"took": "small"}), json!([]), true, "retry"),
            ),
            (
                "other",
                "call",
                call("echo", json!({"took": "other"}), json!([]), true, "retry"),
            ),
        ],
        &[
            ("e0", "entry", "list", "always"),
            ("e1", "list", "size", "always"),
            ("e2", "size", "small", "case_small"),
            ("e3", "size", "other", "default"),
        ],
    );
    let plan_id = approve(&*store, &document, &tools);
    let view = start(&store, &tools, &plan_id, json!({})).await;
    assert_eq!(view.outcome, Some(RunOutcome::Completed));
    assert_eq!(calls.of("echo"), vec![json!({"took": "other"})]);
    let size = view.frames.iter().find(|frame| frame.node_id == "size").unwrap();
    assert_eq!(size.status, FrameStatus::Done);
    let verdict = size.verdict.as_ref().unwrap();
    assert_eq!(verdict["case"], Json::Null);
    assert_eq!(verdict["fault"]["kind"], json!("predicate-bad-result"), "{verdict}");
    assert!(
        verdict["fault"]["message"].as_str().unwrap().contains("huge"),
        "{verdict}"
    );
}

#[tokio::test]
async fn a_select_takes_its_case_or_its_default() {
    for (count, expected) in [(5, "small"), (500, "large"), (-1, "other")] {
        let calls = Calls::default();
        let tools = toolbox(vec![count_tool(&calls, "list", count), echo_tool(&calls, "echo")]);
        let store = Arc::new(MemoryStore::new());
        let document = plan(
            "selecting",
            json!([]),
            &[
                (
                    "list",
                    "call",
                    call(
                        "list",
                        json!({}),
                        json!([{"path": "count", "type": "number"}]),
                        true,
                        "retry",
                    ),
                ),
                (
                    "size",
                    "select",
                    json!({"evaluator": "jexl", "cases": ["small", "large"],
                           "predicate": "list.count < 0 ? null : (list.count > 100 ? 'large' : 'small')"}),
                ),
                (
                    "small",
                    "call",
                    call("echo", json!({"took": "small"}), json!([]), true, "retry"),
                ),
                (
                    "large",
                    "call",
                    call("echo", json!({"took": "large"}), json!([]), true, "retry"),
                ),
                (
                    "other",
                    "call",
                    call("echo", json!({"took": "other"}), json!([]), true, "retry"),
                ),
            ],
            &[
                ("e0", "entry", "list", "always"),
                ("e1", "list", "size", "always"),
                ("e2", "size", "small", "case_small"),
                ("e3", "size", "large", "case_large"),
                ("e4", "size", "other", "default"),
            ],
        );
        let plan_id = approve(&*store, &document, &tools);
        let view = start(&store, &tools, &plan_id, json!({})).await;
        assert_eq!(view.outcome, Some(RunOutcome::Completed));
        assert_eq!(calls.of("echo"), vec![json!({"took": expected})]);
    }
}

fn diamond(fork_at_entry: bool) -> Json {
    let mut nodes = vec![
        ("a", "call", call("echo", json!({"arm": "a"}), json!([]), true, "retry")),
        ("b", "call", call("echo", json!({"arm": "b"}), json!([]), true, "retry")),
        ("j", "join", json!({})),
        (
            "after",
            "call",
            call("echo", json!({"arm": "after"}), json!([]), true, "retry"),
        ),
    ];
    let mut edges = vec![
        ("e3", "a", "j", "always"),
        ("e4", "b", "j", "always"),
        ("e5", "j", "after", "always"),
    ];
    if fork_at_entry {
        edges.extend([("e1", "entry", "a", "always"), ("e2", "entry", "b", "always")]);
    } else {
        nodes.push((
            "start",
            "call",
            call("echo", json!({"arm": "start"}), json!([]), true, "retry"),
        ));
        edges.extend([
            ("e0", "entry", "start", "always"),
            ("e1", "start", "a", "always"),
            ("e2", "start", "b", "always"),
        ]);
    }
    plan("diamond", json!([]), &nodes, &edges)
}

#[tokio::test]
async fn a_join_settles_once_under_its_merged_identity_even_when_the_fork_is_the_entry() {
    for fork_at_entry in [false, true] {
        let calls = Calls::default();
        let tools = toolbox(vec![echo_tool(&calls, "echo")]);
        let store = Arc::new(MemoryStore::new());
        let plan_id = approve(&*store, &diamond(fork_at_entry), &tools);
        let view = start(&store, &tools, &plan_id, json!({})).await;
        assert_eq!(view.outcome, Some(RunOutcome::Completed), "{view:?}");
        assert_eq!(calls.of("echo").iter().filter(|args| args["arm"] == "after").count(), 1);
        let prefix = if fork_at_entry { "" } else { "e2:e0" };
        let merged = format!("j:{prefix}j1:j(e2:e3e2:e4)");
        let outputs = outputs(&view);
        let join_output = &outputs[&merged];
        assert_eq!(join_output.len(), 2);
        assert_eq!(join_output[0]["via"], json!("e3"));
        assert_eq!(join_output[0]["from"], json!("a"));
        assert_eq!(join_output[1]["via"], json!("e4"));
        assert!(outputs.contains_key(&format!("after:{prefix}j1:j(e2:e3e2:e4)e2:e5")));
        assert_eq!(view.nodes["j"], FrameStatus::Done);
        assert!(view.joins.is_empty());
    }
}

#[tokio::test]
async fn fan_in_without_a_join_runs_the_node_once_per_route() {
    let calls = Calls::default();
    let tools = toolbox(vec![echo_tool(&calls, "echo")]);
    let store = Arc::new(MemoryStore::new());
    let document = plan(
        "fan-in",
        json!([]),
        &[
            ("a", "call", call("echo", json!({"n": "a"}), json!([]), true, "retry")),
            ("b", "call", call("echo", json!({"n": "b"}), json!([]), true, "retry")),
            ("c", "call", call("echo", json!({"n": "c"}), json!([]), true, "retry")),
        ],
        &[
            ("e1", "entry", "a", "always"),
            ("e2", "entry", "b", "always"),
            ("e3", "a", "c", "always"),
            ("e4", "b", "c", "always"),
        ],
    );
    let plan_id = approve(&*store, &document, &tools);
    let view = start(&store, &tools, &plan_id, json!({})).await;
    assert_eq!(view.outcome, Some(RunOutcome::Completed));
    assert_eq!(calls.of("echo").iter().filter(|args| args["n"] == "c").count(), 2);
    let outputs = outputs(&view);
    assert!(outputs.contains_key("c:e2:e1e2:e3") && outputs.contains_key("c:e2:e2e2:e4"));
}

fn wide_plan(width: usize, max_concurrent: u64) -> Json {
    let nodes: Vec<(String, Json)> = (0..width)
        .map(|i| (format!("w{i}"), call("slow", json!({"i": i}), json!([]), true, "retry")))
        .collect();
    let edges: Vec<(String, String)> = (0..width).map(|i| (format!("e{i}"), format!("w{i}"))).collect();
    let node_refs: Vec<(&str, &str, Json)> = nodes
        .iter()
        .map(|(id, def)| (id.as_str(), "call", def.clone()))
        .collect();
    let edge_refs: Vec<(&str, &str, &str, &str)> = edges
        .iter()
        .map(|(id, to)| (id.as_str(), "entry", to.as_str(), "always"))
        .collect();
    let mut document = plan("wide", json!([]), &node_refs, &edge_refs);
    document["bounds"] = json!({"maxConcurrentFrames": max_concurrent});
    document
}

#[tokio::test]
async fn frames_run_concurrently_up_to_max_concurrent_frames() {
    for (bound, expected) in [(16, 16), (4, 4), (1, 1)] {
        let concurrency = Concurrency::default();
        let tools = toolbox(vec![concurrency.tool("slow", Duration::from_millis(40))]);
        let store = Arc::new(MemoryStore::new());
        let plan_id = approve(&*store, &wide_plan(16, bound), &tools);
        let view = start(&store, &tools, &plan_id, json!({})).await;
        assert_eq!(view.outcome, Some(RunOutcome::Completed));
        assert_eq!(view.outputs.len(), 17);
        assert_eq!(concurrency.most(), expected, "maxConcurrentFrames {bound}");
    }
}

#[tokio::test]
async fn max_steps_halts_the_run_and_a_resume_halts_again() {
    let calls = Calls::default();
    let tools = toolbox(vec![count_tool(&calls, "list", 3), echo_tool(&calls, "echo")]);
    let store = Arc::new(MemoryStore::new());
    let mut document = linear_plan();
    document["bounds"] = json!({"maxSteps": 2});
    let plan_id = approve(&*store, &document, &tools);
    let view = start(&store, &tools, &plan_id, json!({"topic": "x"})).await;
    assert_eq!(view.outcome, Some(RunOutcome::Halted));
    assert_eq!(view.interruption.as_ref().unwrap().cause, "budget_exhausted");
    assert_eq!(calls.count("echo"), 0);
    assert_eq!(view.frontier, vec!["report:e2:e0e2:e1".to_owned()]);
    let json = view.to_json(None);
    assert_eq!(json["status"], "halted");
    assert!(json["halt"]["reason"].as_str().unwrap().starts_with("budget_exhausted"));
    let resumed = runtime(&store, &tools, "test")
        .resume("run-1", &Abort::new())
        .await
        .unwrap();
    assert_eq!(resumed.outcome, Some(RunOutcome::Halted));
    assert_eq!(calls.count("echo"), 0);
}

#[tokio::test]
async fn max_steps_is_a_bound_a_run_may_reach() {
    // The linear plan runs three frames (entry, list, report): a maxSteps of 3 lets it finish,
    // and 2 stops it before its last frame.
    for (max_steps, outcome, echoes) in [(3, RunOutcome::Completed, 1), (2, RunOutcome::Halted, 0)] {
        let calls = Calls::default();
        let tools = toolbox(vec![count_tool(&calls, "list", 3), echo_tool(&calls, "echo")]);
        let store = Arc::new(MemoryStore::new());
        let mut document = linear_plan();
        document["bounds"] = json!({"maxSteps": max_steps});
        let plan_id = approve(&*store, &document, &tools);
        let view = start(&store, &tools, &plan_id, json!({"topic": "x"})).await;
        assert_eq!(view.outcome, Some(outcome), "maxSteps {max_steps}: {view:?}");
        assert_eq!(view.steps, 3.min(max_steps), "maxSteps {max_steps}");
        assert_eq!(calls.count("echo"), echoes, "maxSteps {max_steps}");
    }
}

#[tokio::test]
async fn failures_follow_error_edges_or_fail_the_run() {
    let failing = |calls: &Calls| {
        tool(calls, "list", None, Duration::ZERO, |_| {
            Err(ToolError::failed("the disk is on fire"))
        })
    };
    // Unhandled: the run fails, naming the node and the tool's message.
    let calls = Calls::default();
    let tools = toolbox(vec![failing(&calls), echo_tool(&calls, "echo")]);
    let store = Arc::new(MemoryStore::new());
    let plan_id = approve(&*store, &linear_plan(), &tools);
    let view = start(&store, &tools, &plan_id, json!({"topic": "x"})).await;
    assert_eq!(view.outcome, Some(RunOutcome::Failed));
    let interruption = view.interruption.clone().unwrap();
    assert_eq!(
        (interruption.cause.as_str(), interruption.node_id.as_deref()),
        ("node_failed", Some("list"))
    );
    assert!(interruption.detail.unwrap().contains("the disk is on fire"));
    let resumed = runtime(&store, &tools, "other")
        .resume("run-1", &Abort::new())
        .await
        .unwrap_err();
    assert_eq!(resumed.code(), "run_already_settled");

    // Handled: an error edge carries the run on.
    let calls = Calls::default();
    let tools = toolbox(vec![failing(&calls), echo_tool(&calls, "echo")]);
    let store = Arc::new(MemoryStore::new());
    let mut document = linear_plan();
    document["nodes"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "recover", "kind": "call",
        "definition": call("echo", json!({"recovered": true}), json!([]), true, "retry")}));
    document["edges"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "e9", "from": "list", "to": "recover", "handle": "error"}));
    let plan_id = approve(&*store, &document, &tools);
    let view = start(&store, &tools, &plan_id, json!({"topic": "x"})).await;
    assert_eq!(view.outcome, Some(RunOutcome::Completed));
    assert_eq!(calls.of("echo"), vec![json!({"recovered": true})]);
    assert_eq!(view.nodes["list"], FrameStatus::Failed);
}

#[tokio::test]
async fn a_panicking_tool_fails_its_node_and_the_run_goes_on_by_error_edges() {
    let calls = Calls::default();
    let tools = toolbox(vec![
        tool(&calls, "list", None, Duration::ZERO, |_| {
            panic!("the host's closure has a bug")
        }),
        echo_tool(&calls, "echo"),
    ]);
    let store = Arc::new(MemoryStore::new());
    let plan_id = approve(&*store, &linear_plan(), &tools);
    let view = start(&store, &tools, &plan_id, json!({"topic": "x"})).await;
    assert_eq!(view.outcome, Some(RunOutcome::Failed));
    let list = view.frames.iter().find(|frame| frame.node_id == "list").unwrap();
    let error = list.error.as_ref().unwrap();
    assert_eq!(error.code, "node_panicked");
    assert!(
        error.message.contains("the host's closure has a bug"),
        "{}",
        error.message
    );
    assert!(calls.of("echo").is_empty());
}

#[tokio::test]
async fn declared_outputs_are_checked_and_missing_values_fail_or_are_omitted() {
    // The tool answers a string where the call declares a number.
    let calls = Calls::default();
    let tools = toolbox(vec![
        tool(&calls, "list", None, Duration::ZERO, |_| Ok(json!({"count": "three"}))),
        echo_tool(&calls, "echo"),
    ]);
    let store = Arc::new(MemoryStore::new());
    let plan_id = approve(&*store, &linear_plan(), &tools);
    let view = start(&store, &tools, &plan_id, json!({"topic": "x"})).await;
    assert_eq!(view.outcome, Some(RunOutcome::Failed));
    let list = view.frames.iter().find(|frame| frame.node_id == "list").unwrap();
    assert_eq!(list.error.as_ref().unwrap().code, "invalid_output");
    assert!(
        list.error
            .as_ref()
            .unwrap()
            .message
            .contains("\"count\" should be a number")
    );

    // The reference finds nothing: `fail` fails the call, `omit` drops the argument.
    for (policy, outcome, args) in [
        ("fail", RunOutcome::Failed, None),
        ("omit", RunOutcome::Completed, Some(json!({"label": "files"}))),
    ] {
        let calls = Calls::default();
        let tools = toolbox(vec![count_tool(&calls, "list", 3), echo_tool(&calls, "echo")]);
        let store = Arc::new(MemoryStore::new());
        let mut document = linear_plan();
        // The tool answers one item; the reference reads a fourth.
        document["nodes"][2]["definition"]["args"]["n"]["$ref"]["select"] = json!({"index": 3});
        document["nodes"][2]["definition"]["onMissingValue"] = json!(policy);
        let plan_id = approve(&*store, &document, &tools);
        let view = start(&store, &tools, &plan_id, json!({"topic": "x"})).await;
        assert_eq!(view.outcome, Some(outcome), "{policy}");
        assert_eq!(calls.of("echo").first().cloned(), args, "{policy}");
        if policy == "fail" {
            let report = view.frames.iter().find(|frame| frame.node_id == "report").unwrap();
            assert_eq!(report.error.as_ref().unwrap().code, "missing_value");
        }
    }
}

#[tokio::test]
async fn a_node_that_outlives_its_timeout_fails() {
    let calls = Calls::default();
    let tools = toolbox(vec![
        tool(&calls, "list", None, Duration::from_secs(30), |_| {
            Ok(json!({"count": 1}))
        }),
        echo_tool(&calls, "echo"),
    ]);
    let store = Arc::new(MemoryStore::new());
    let plan_id = approve(&*store, &linear_plan(), &tools);
    let options = writ_run::RunOptions {
        node_timeout: Duration::from_millis(50),
        ..writ_run::RunOptions::default()
    };
    let store_dyn: Arc<dyn RunStore> = store.clone();
    let view = writ_run::Runtime::new(store_dyn, tools, support::cells())
        .with_options(options)
        .start(&plan_id, json!({"topic": "x"}), None, &Abort::new())
        .await
        .unwrap();
    assert_eq!(view.outcome, Some(RunOutcome::Failed));
    let list = view.frames.iter().find(|frame| frame.node_id == "list").unwrap();
    assert_eq!(list.error.as_ref().unwrap().code, "node_timeout");
}
