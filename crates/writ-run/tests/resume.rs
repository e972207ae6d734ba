//! Stopping a run and resuming it: what is retried, what is not, and who may resume.

mod support;

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value as Json, json};
use support::{Calls, approve, call, outputs, plan, runtime, tool, toolbox};
use writ_run::{Abort, FrameStatus};
use writ_store::run::RunOutcome;
use writ_store::{MemoryStore, RunStore};

/// entry → act (slow on its first call) → report.
fn plan_with(replay_safe: bool, on_indeterminate: &str) -> Json {
    plan(
        "acting",
        json!([]),
        &[
            (
                "act",
                "call",
                call(
                    "act",
                    json!({"what": "send"}),
                    json!([{"path": "sent", "type": "boolean"}]),
                    replay_safe,
                    on_indeterminate,
                ),
            ),
            (
                "report",
                "call",
                call("report", json!({"done": true}), json!([]), true, "retry"),
            ),
        ],
        &[("e0", "entry", "act", "always"), ("e1", "act", "report", "always")],
    )
}

/// Runs the plan, aborting while `act` is in its (first, slow) call.
async fn interrupted(replay_safe: bool, on_indeterminate: &str) -> (Arc<MemoryStore>, Arc<writ_tools::Toolbox>, Calls) {
    let calls = Calls::default();
    let first = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let act = tool(&calls, "act", None, Duration::ZERO, |_| Ok(json!({"sent": true})));
    let slow_first = {
        let first = first.clone();
        let calls = calls.clone();
        Arc::new(writ_tools::FnTool::new(
            act_spec(),
            move |call: writ_tools::ToolCall| {
                let slow = first.swap(false, std::sync::atomic::Ordering::SeqCst);
                let act = act.clone();
                let _ = &calls;
                async move {
                    if slow {
                        // Record the call, then hang as a tool does when its process is killed.
                        let _ = writ_tools::Tool::call(&*act, call).await;
                        tokio::time::sleep(Duration::from_secs(60)).await;
                        unreachable!("the run is aborted first");
                    }
                    writ_tools::Tool::call(&*act, call).await
                }
            },
        ))
    };
    let tools = toolbox(vec![
        slow_first,
        tool(&calls, "report", None, Duration::ZERO, |_| Ok(json!({}))),
    ]);
    let store = Arc::new(MemoryStore::new());
    let plan_id = approve(&*store, &plan_with(replay_safe, on_indeterminate), &tools);
    let abort = Abort::new();
    let watcher = {
        let abort = abort.clone();
        let calls = calls.clone();
        tokio::spawn(async move {
            while calls.count("act") == 0 {
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            abort.abort();
        })
    };
    let view = runtime(&store, &tools, "first")
        .start(&plan_id, json!({}), Some("run-1"), &abort)
        .await
        .unwrap();
    watcher.await.unwrap();
    assert_eq!(view.outcome, Some(RunOutcome::Interrupted));
    assert_eq!(view.interruption.as_ref().unwrap().cause, "turn_abort");
    assert_eq!(view.indeterminate, vec!["act:e2:e0".to_owned()]);
    assert_eq!(view.nodes["act"], FrameStatus::Running);
    (store, tools, calls)
}

fn act_spec() -> writ_tools::ToolSpec {
    writ_tools::ToolSpec {
        name: "act".into(),
        description: "acts once".into(),
        input_schema: json!({"type": "object"}),
        output_schema: None,
    }
}

#[tokio::test]
async fn a_replay_safe_call_is_retried_with_the_same_idempotency_key() {
    let (store, tools, calls) = interrupted(true, "retry").await;
    let view = runtime(&store, &tools, "second")
        .resume("run-1", &Abort::new())
        .await
        .unwrap();
    assert_eq!(view.outcome, Some(RunOutcome::Completed), "{view:?}");
    let acts: Vec<_> = calls.all().into_iter().filter(|(name, _, _)| name == "act").collect();
    assert_eq!(acts.len(), 2);
    assert_eq!(acts[0].2, acts[1].2, "a retry passes the key of the first attempt");
    assert_eq!(calls.count("report"), 1);
    assert_eq!(outputs(&view)["act:e2:e0"], vec![json!({"sent": true})]);
    // The abort stays on record after the run completed.
    assert_eq!(view.interruption.unwrap().cause, "turn_abort");
}

#[tokio::test]
async fn a_call_that_is_not_replay_safe_is_never_called_twice() {
    for policy in ["halt", "skip"] {
        let (store, tools, calls) = interrupted(false, policy).await;
        let view = runtime(&store, &tools, "second")
            .resume("run-1", &Abort::new())
            .await
            .unwrap();
        assert_eq!(calls.count("act"), 1, "{policy}");
        assert_eq!(calls.count("report"), 0, "{policy}");
        if policy == "halt" {
            assert_eq!(view.outcome, Some(RunOutcome::Halted));
            let interruption = view.interruption.unwrap();
            assert_eq!(interruption.cause, "indeterminate_halt");
            assert_eq!(interruption.node_id.as_deref(), Some("act"));
            // Halting again on every resume, until a person decides.
            let again = runtime(&store, &tools, "third")
                .resume("run-1", &Abort::new())
                .await
                .unwrap();
            assert_eq!(again.outcome, Some(RunOutcome::Halted));
            assert_eq!(calls.count("act"), 1);
        } else {
            assert_eq!(view.outcome, Some(RunOutcome::Completed));
            assert_eq!(view.nodes["act"], FrameStatus::Skipped);
        }
    }
}

#[tokio::test]
async fn a_run_driven_by_a_live_process_cannot_be_resumed_and_a_dead_ones_can() {
    let (store, tools, calls) = interrupted(true, "retry").await;
    store
        .acquire_run("run-1", "someone-else", Duration::from_secs(60))
        .unwrap();
    let refused = runtime(&store, &tools, "second")
        .resume("run-1", &Abort::new())
        .await
        .unwrap_err();
    assert_eq!(refused.code(), "run_in_use");
    assert!(refused.to_string().contains("someone-else"));
    assert_eq!(store.read_run("run-1").unwrap().status.name(), "interrupted");

    // A lease that ran out is a dead process's: the run can be taken over.
    store
        .acquire_run("run-1", "someone-else", Duration::from_millis(1))
        .unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;
    let view = runtime(&store, &tools, "second")
        .resume("run-1", &Abort::new())
        .await
        .unwrap();
    assert_eq!(view.outcome, Some(RunOutcome::Completed));
    assert_eq!(calls.count("report"), 1);
    // The process it was taken from can no longer write.
    let refused = store
        .append_run_events(
            "someone-else",
            &[writ_store::RunBatch {
                run_id: "run-1",
                events: &[],
            }],
        )
        .unwrap_err();
    assert_eq!(refused.code(), "lease_lost");
}
