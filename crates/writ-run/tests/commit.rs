//! When a run's events reach the store: work that may not be repeated starts only once
//! everything before it is committed; work a resume may repeat runs ahead of the log, whose
//! tail is committed before the run waits and when it settles.

mod support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value as Json, json};
use support::{Calls, approve, call, plan, tool, toolbox};
use writ_run::{Abort, Observer, RunOptions, Runtime};
use writ_store::run::{RunEvent, RunOutcome};
use writ_store::{MemoryStore, RunStore};
use writ_tools::{FnTool, ToolCall, ToolSpec};

/// Counts the commits a run makes and the events in them.
#[derive(Default)]
struct Commits(Mutex<(usize, usize)>);

impl Observer for Commits {
    fn committed(&self, _run_id: &str, events: &[RunEvent]) {
        let mut seen = self.0.lock().unwrap();
        seen.0 += 1;
        seen.1 += events.len();
    }
}

fn runtime(store: &Arc<MemoryStore>, tools: &Arc<writ_tools::Toolbox>, commits: &Arc<Commits>) -> Runtime {
    let store: Arc<dyn RunStore> = store.clone();
    let observer: Arc<dyn Observer> = commits.clone();
    Runtime::new(store, tools.clone(), support::cells())
        .with_options(RunOptions {
            node_timeout: Duration::from_secs(30),
            lease: Duration::from_secs(5),
            owner: "tester".into(),
        })
        .with_observer(observer)
}

/// Approves `document`, runs it as `run-1` to completion, and returns its view and commits.
async fn completed(
    store: &Arc<MemoryStore>,
    tools: &Arc<writ_tools::Toolbox>,
    document: &Json,
) -> (writ_run::RunView, Arc<Commits>) {
    let plan_id = approve(&**store, document, tools);
    let commits = Arc::new(Commits::default());
    let view = runtime(store, tools, &commits)
        .start(&plan_id, json!({}), Some("run-1"), &Abort::new())
        .await
        .unwrap();
    assert_eq!(view.outcome, Some(RunOutcome::Completed));
    (view, commits)
}

/// Whether run `run_id`'s committed log has entered frame `node_id` (any route) and settled
/// every node in `settled`.
fn logged(store: &MemoryStore, run_id: &str, node_id: &str, settled: &[&str]) -> bool {
    let events = store.read_run_events(run_id).unwrap_or_default();
    let entered = events
        .iter()
        .any(|event| matches!(event, RunEvent::NodeEntered { frame, .. } if frame.node_id == node_id));
    let all_settled = settled.iter().all(|node| {
        events
            .iter()
            .any(|event| matches!(event, RunEvent::NodeSettled { frame, .. } if frame.starts_with(&format!("{node}:"))))
    });
    entered && all_settled
}

/// A tool that, when called, notes whether the committed log already holds its own frame
/// entered and `settled` settled, then answers `{"ok": true}`.
fn checking_tool(name: &str, store: &Arc<MemoryStore>, settled: &[&str], seen: &Arc<Mutex<Vec<bool>>>) -> Arc<FnTool> {
    let (store, seen, node) = (store.clone(), seen.clone(), name.to_owned());
    let settled: Vec<String> = settled.iter().map(|node| (*node).to_owned()).collect();
    Arc::new(FnTool::new(
        ToolSpec {
            name: name.to_owned(),
            description: "checks the log when called".into(),
            input_schema: json!({"type": "object"}),
            output_schema: None,
        },
        move |_call: ToolCall| {
            let settled: Vec<&str> = settled.iter().map(String::as_str).collect();
            seen.lock().unwrap().push(logged(&store, "run-1", &node, &settled));
            async { Ok(json!({"ok": true})) }
        },
    ))
}

fn instant(calls: &Calls, name: &str) -> Arc<FnTool> {
    tool(calls, name, None, Duration::ZERO, |_| Ok(json!({"ok": true})))
}

#[tokio::test]
async fn a_call_that_may_not_be_repeated_starts_only_once_everything_before_it_is_committed() {
    let calls = Calls::default();
    let store = Arc::new(MemoryStore::new());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let tools = toolbox(vec![
        instant(&calls, "read"),
        checking_tool("send", &store, &["entry", "a", "b"], &seen),
        instant(&calls, "after"),
    ]);
    let document = plan(
        "guarded",
        json!([]),
        &[
            ("a", "call", call("read", json!({}), json!([]), true, "retry")),
            (
                "b",
                "call",
                call("read", json!({"again": true}), json!([]), true, "retry"),
            ),
            ("send", "call", call("send", json!({}), json!([]), false, "halt")),
            ("c", "call", call("after", json!({}), json!([]), true, "retry")),
        ],
        &[
            ("e0", "entry", "a", "always"),
            ("e1", "a", "b", "always"),
            ("e2", "b", "send", "always"),
            ("e3", "send", "c", "always"),
        ],
    );
    completed(&store, &tools, &document).await;
    assert_eq!(
        *seen.lock().unwrap(),
        vec![true],
        "send saw its own entry and b settled in the log"
    );
}

#[tokio::test]
async fn replay_safe_steps_share_commits_and_every_event_is_committed_by_the_end() {
    const STEPS: usize = 40;
    let calls = Calls::default();
    let store = Arc::new(MemoryStore::new());
    let tools = toolbox(vec![instant(&calls, "noop")]);
    let nodes: Vec<(String, Json)> = (0..STEPS)
        .map(|index| (format!("c{index}"), call("noop", json!({}), json!([]), true, "retry")))
        .collect();
    let edges: Vec<(String, String, String)> = (0..STEPS)
        .map(|index| {
            let from = if index == 0 {
                "entry".to_owned()
            } else {
                format!("c{}", index - 1)
            };
            (format!("e{index}"), from, format!("c{index}"))
        })
        .collect();
    let node_refs: Vec<(&str, &str, Json)> = nodes
        .iter()
        .map(|(id, definition)| (id.as_str(), "call", definition.clone()))
        .collect();
    let edge_refs: Vec<(&str, &str, &str, &str)> = edges
        .iter()
        .map(|(id, from, to)| (id.as_str(), from.as_str(), to.as_str(), "always"))
        .collect();
    let (view, commits) = completed(&store, &tools, &plan("chain", json!([]), &node_refs, &edge_refs)).await;
    assert_eq!(calls.count("noop"), STEPS);
    let events = store.read_run_events("run-1").unwrap();
    let (batches, committed) = *commits.0.lock().unwrap();
    assert_eq!(committed, events.len(), "every event was committed, once");
    assert!(
        batches < STEPS / 4,
        "{batches} commits for {STEPS} steps that never wait: they should share commits"
    );
    assert_eq!(writ_run::RunView::from_events(&events).unwrap(), view);
}

#[tokio::test]
async fn a_run_commits_what_is_pending_before_it_waits_on_a_call() {
    let calls = Calls::default();
    let store = Arc::new(MemoryStore::new());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let slow = {
        let (store, seen) = (store.clone(), seen.clone());
        Arc::new(FnTool::new(
            ToolSpec {
                name: "slow".into(),
                description: "looks at the log while it works".into(),
                input_schema: json!({"type": "object"}),
                output_schema: None,
            },
            move |_call: ToolCall| {
                let (store, seen) = (store.clone(), seen.clone());
                async move {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    seen.lock()
                        .unwrap()
                        .push(logged(&store, "run-1", "slow", &["entry", "a"]));
                    Ok(json!({"ok": true}))
                }
            },
        ))
    };
    let tools = toolbox(vec![instant(&calls, "read"), slow]);
    let document = plan(
        "waiting",
        json!([]),
        &[
            ("a", "call", call("read", json!({}), json!([]), true, "retry")),
            ("slow", "call", call("slow", json!({}), json!([]), true, "retry")),
        ],
        &[("e0", "entry", "a", "always"), ("e1", "a", "slow", "always")],
    );
    completed(&store, &tools, &document).await;
    assert_eq!(
        *seen.lock().unwrap(),
        vec![true],
        "while the slow call worked, its entry and everything before it were committed"
    );
}
