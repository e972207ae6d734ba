//! The plan runtime's workloads: a chain of 200 calls to a no-op tool, run by writ-run on the
//! memory store or on SQLite (`synchronous=NORMAL`: safe against a killed process), against
//! LangGraph running the same chain with its in-memory or SQLite checkpointer
//! (`bench/peers/langgraph_peer.py`).
//!
//! - `run/chain-200/<store>`: the calls are replay-safe with `onIndeterminate: retry`, so a
//!   resume may make them again, and their events may be committed behind them, several steps
//!   to a commit (LangGraph's default, `durability="async"`, also persists a step while the next
//!   one runs).
//! - `run/chain-200-unsafe/sqlite`: the calls are not replay-safe, so each step's events are
//!   committed before its call: one commit a step (LangGraph with `durability="sync"`).
//!
//! One store serves every iteration, as a deployment keeps one. A plan runs once, so each
//! iteration's plan is approved beforehand, untimed ([`Task::prepare`]); the iteration is the
//! run: the claim, the 200 steps, every event committed, the release. The check is the number
//! of calls that settled.

use std::sync::Arc;

use serde_json::{Value as Json, json};
use writ_cells::Registry;
use writ_plan::{ApprovalRecord, FreezeInputs};
use writ_run::{Abort, FrameStatus, Runtime};
use writ_store::lifecycle::freeze;
use writ_store::{MemoryStore, NewPlan, PlanStore, RunStore, SqliteStore};
use writ_tools::{FnTool, ToolCall, ToolSpec, Toolbox};

use crate::workloads::Task;

/// The chain's length.
const STEPS: usize = 200;

/// `entry → c0 → c1 → … → c199`, each a call to `noop`, replay-safe or not, under plan id
/// `plan_id`.
fn chain(plan_id: &str, replay_safe: bool) -> Json {
    let mut nodes = vec![json!({"id": "entry", "kind": "entry", "definition": {"input": []}})];
    let mut edges = Vec::new();
    for index in 0..STEPS {
        nodes.push(json!({"id": format!("c{index}"), "kind": "call", "definition": {
            "tool": "noop", "args": {}, "output": [], "onMissingValue": "fail",
            "authority": [{"capability": "bench", "scope": "noop", "verb": if replay_safe { "read" } else { "create" }}],
            "replaySafe": replay_safe, "onIndeterminate": if replay_safe { "retry" } else { "halt" }}}));
        let from = if index == 0 {
            "entry".to_owned()
        } else {
            format!("c{}", index - 1)
        };
        edges.push(json!({"id": format!("e{index}"), "from": from, "to": format!("c{index}"), "handle": "always"}));
    }
    json!({"planId": plan_id, "nodes": nodes, "edges": edges,
           "bounds": {"maxNodes": 1024, "maxEdges": 1024, "maxSteps": 4096, "maxConcurrentFrames": 32}})
}

struct Chain<S> {
    runtime: tokio::runtime::Runtime,
    store: Arc<S>,
    runs: Runtime,
    registry: Arc<Registry>,
    /// The scratch directory of a SQLite store, removed when the task is dropped.
    scratch: Option<std::path::PathBuf>,
    serial: u64,
    replay_safe: bool,
    next_plan: Option<String>,
    settled_calls: usize,
}

/// writ's side of `run/chain-200/<store>` (`replay_safe`) and `run/chain-200-unsafe/<store>`.
pub fn load_chain(store: &str, replay_safe: bool) -> Result<Box<dyn Task>, String> {
    match store {
        "memory" => Ok(Box::new(Chain::new(Arc::new(MemoryStore::new()), None, replay_safe)?)),
        "sqlite" => {
            let scratch = std::env::temp_dir().join(format!("writ-bench-run-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&scratch);
            std::fs::create_dir_all(&scratch).map_err(|error| format!("cannot make {}: {error}", scratch.display()))?;
            let sqlite = SqliteStore::open(scratch.join("runs.db")).map_err(|error| error.to_string())?;
            Ok(Box::new(Chain::new(Arc::new(sqlite), Some(scratch), replay_safe)?))
        }
        other => Err(format!("no store {other:?}")),
    }
}

impl<S: PlanStore + RunStore + 'static> Chain<S> {
    fn new(bench_store: Arc<S>, scratch: Option<std::path::PathBuf>, replay_safe: bool) -> Result<Chain<S>, String> {
        let mut toolbox = Toolbox::new();
        toolbox
            .add(Arc::new(FnTool::new(
                ToolSpec {
                    name: "noop".into(),
                    description: "does nothing".into(),
                    input_schema: json!({"type": "object"}),
                    output_schema: None,
                },
                |_call: ToolCall| async { Ok(json!({})) },
            )))
            .map_err(|error| error.to_string())?;
        let registry = Arc::new(Registry::new());
        let run_store: Arc<dyn RunStore> = bench_store.clone();
        // The runtime `writ run` drives runs on.
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|error| error.to_string())?;
        Ok(Chain {
            runtime,
            runs: Runtime::new(run_store, Arc::new(toolbox), registry.clone()),
            store: bench_store,
            registry,
            scratch,
            serial: 0,
            replay_safe,
            next_plan: None,
            settled_calls: 0,
        })
    }

    fn approve(&mut self) -> Result<String, String> {
        self.serial += 1;
        let source = writ_plan::read_document(&chain(&format!("chain-{}", self.serial), self.replay_safe))
            .map_err(|error| format!("{error:?}"))?;
        let store = &*self.store;
        let fail = |error: writ_store::StoreError| error.to_string();
        store.create(&source.plan_id, NewPlan::default()).map_err(fail)?;
        store.append_ops(&source.plan_id, &source.ops, None).map_err(fail)?;
        let tools = ["noop".to_owned()];
        freeze(
            store,
            &source.plan_id,
            &FreezeInputs::new(&self.registry).with_tools(&tools),
        )
        .map_err(|error| format!("{error:?}"))?;
        let view = store.read_plan(&source.plan_id).map_err(fail)?.view;
        store
            .approve(
                &source.plan_id,
                &ApprovalRecord::for_view(&view, "bench", "2026-12-02T00:00:00Z"),
            )
            .map_err(fail)?;
        Ok(source.plan_id)
    }
}

impl<S: PlanStore + RunStore + 'static> Task for Chain<S> {
    fn prepares(&self) -> bool {
        true
    }

    fn prepare(&mut self) {
        self.next_plan = Some(
            self.approve()
                .unwrap_or_else(|error| panic!("the chain is approved: {error}")),
        );
    }

    fn iterate(&mut self) {
        let plan_id = self.next_plan.take().expect("prepare runs before each iteration");
        let view = self
            .runtime
            .block_on(self.runs.start(&plan_id, json!({}), None, &Abort::new()))
            .unwrap_or_else(|error| panic!("the run starts: {error}"));
        self.settled_calls = view
            .nodes
            .iter()
            .filter(|(node, status)| node.starts_with('c') && **status == FrameStatus::Done)
            .count();
    }

    fn check(&self) -> String {
        format!("steps:{}", self.settled_calls)
    }
}

impl<S> Drop for Chain<S> {
    fn drop(&mut self) {
        if let Some(scratch) = &self.scratch {
            let _ = std::fs::remove_dir_all(scratch);
        }
    }
}
