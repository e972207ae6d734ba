//! Plans approved in a store, tools that record their calls, and a runtime over them.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value as Json, json};
use writ_cells::{JexlCell, Registry, StructuredCell};
use writ_plan::{ApprovalRecord, FreezeInputs};
use writ_run::{RunOptions, Runtime};
use writ_store::lifecycle::{FreezeOutcome, freeze};
use writ_store::{MemoryStore, NewPlan, PlanStore, RunStore};
use writ_tools::{FnTool, ToolCall, ToolError, ToolSpec, Toolbox};

/// The cells the tests' plans use.
pub fn cells() -> Arc<Registry> {
    let mut registry = Registry::new();
    registry.register(Arc::new(StructuredCell::default())).unwrap();
    registry.register(Arc::new(JexlCell::default())).unwrap();
    Arc::new(registry)
}

/// Imports, freezes and approves `document` in `store`, returning the plan id.
pub fn approve(store: &impl PlanStore, document: &Json, tools: &Toolbox) -> String {
    let source = writ_plan::read_document(document).expect("a plan document");
    store
        .create(
            &source.plan_id,
            NewPlan {
                label: None,
                provenance: source.provenance.clone(),
            },
        )
        .unwrap();
    store.append_ops(&source.plan_id, &source.ops, None).unwrap();
    let registry = cells();
    let names: Vec<String> = tools.names().map(str::to_owned).collect();
    match freeze(store, &source.plan_id, &FreezeInputs::new(&registry).with_tools(&names)).unwrap() {
        FreezeOutcome::Frozen { .. } => {}
        FreezeOutcome::Refused { issues, .. } => panic!("the test plan does not freeze: {issues:?}"),
    }
    let view = store.read_plan(&source.plan_id).unwrap().view;
    store
        .approve(
            &source.plan_id,
            &ApprovalRecord::for_view(&view, "tester", "2026-12-02T00:00:00Z"),
        )
        .unwrap();
    source.plan_id
}

/// Every call a [`Recorder`] tool received: tool name, arguments, idempotency key.
#[derive(Clone, Debug, Default)]
pub struct Calls(Arc<Mutex<Vec<(String, Json, String)>>>);

impl Calls {
    pub fn all(&self) -> Vec<(String, Json, String)> {
        self.0.lock().unwrap().clone()
    }

    pub fn of(&self, tool: &str) -> Vec<Json> {
        self.all()
            .into_iter()
            .filter(|(name, _, _)| name == tool)
            .map(|(_, args, _)| args)
            .collect()
    }

    pub fn count(&self, tool: &str) -> usize {
        self.of(tool).len()
    }
}

/// A tool that records each call, optionally waits, and answers with `answer(args)`.
pub fn tool(
    calls: &Calls,
    name: &str,
    output_schema: Option<Json>,
    delay: Duration,
    answer: impl Fn(&Json) -> Result<Json, ToolError> + Send + Sync + 'static,
) -> Arc<FnTool> {
    let calls = calls.clone();
    let tool_name = name.to_owned();
    let answer = Arc::new(answer);
    Arc::new(FnTool::new(
        ToolSpec {
            name: name.to_owned(),
            description: format!("test tool {name}"),
            input_schema: json!({"type": "object"}),
            output_schema,
        },
        move |call: ToolCall| {
            let calls = calls.clone();
            let answer = answer.clone();
            let name = tool_name.clone();
            async move {
                let args = Json::Object(call.args);
                calls.0.lock().unwrap().push((name, args.clone(), call.idempotency_key));
                if !delay.is_zero() {
                    tokio::time::sleep(delay).await;
                }
                answer(&args)
            }
        },
    ))
}

/// Counts calls in flight, keeping the most seen at once.
#[derive(Clone, Debug, Default)]
pub struct Concurrency {
    now: Arc<AtomicUsize>,
    most: Arc<AtomicUsize>,
}

impl Concurrency {
    pub fn most(&self) -> usize {
        self.most.load(Ordering::SeqCst)
    }

    /// A tool that holds each call for `delay` while counting it in flight.
    pub fn tool(&self, name: &str, delay: Duration) -> Arc<FnTool> {
        let counter = self.clone();
        Arc::new(FnTool::new(
            ToolSpec {
                name: name.to_owned(),
                description: "counts calls in flight".into(),
                input_schema: json!({"type": "object"}),
                output_schema: None,
            },
            move |_call: ToolCall| {
                let counter = counter.clone();
                async move {
                    let now = counter.now.fetch_add(1, Ordering::SeqCst) + 1;
                    counter.most.fetch_max(now, Ordering::SeqCst);
                    tokio::time::sleep(delay).await;
                    counter.now.fetch_sub(1, Ordering::SeqCst);
                    Ok(json!({"ok": true}))
                }
            },
        ))
    }
}

/// A toolbox of `tools`.
pub fn toolbox(tools: Vec<Arc<FnTool>>) -> Arc<Toolbox> {
    let mut toolbox = Toolbox::new();
    for tool in tools {
        toolbox.add(tool).unwrap();
    }
    Arc::new(toolbox)
}

/// A runtime over `store` with short leases, so a test can take over a dead run quickly.
pub fn runtime(store: &Arc<MemoryStore>, tools: &Arc<Toolbox>, owner: &str) -> Runtime {
    let store: Arc<dyn RunStore> = store.clone();
    Runtime::new(store, tools.clone(), cells()).with_options(RunOptions {
        node_timeout: Duration::from_secs(30),
        lease: Duration::from_secs(5),
        owner: owner.to_owned(),
    })
}

/// A call node's definition with the usual policy fields.
pub fn call(tool: &str, args: Json, output: Json, replay_safe: bool, on_indeterminate: &str) -> Json {
    json!({
        "tool": tool,
        "args": args,
        "output": output,
        "onMissingValue": "fail",
        "authority": [{"capability": "test", "scope": tool, "verb": if replay_safe { "read" } else { "create" }}],
        "replaySafe": replay_safe,
        "onIndeterminate": on_indeterminate,
    })
}

/// A plan document from `(id, kind, definition)` nodes and `(id, from, to, handle)` edges,
/// with an entry node `entry` taking `input`.
pub fn plan(plan_id: &str, input: Json, nodes: &[(&str, &str, Json)], edges: &[(&str, &str, &str, &str)]) -> Json {
    let mut all = vec![json!({"id": "entry", "kind": "entry", "definition": {"input": input}})];
    all.extend(
        nodes
            .iter()
            .map(|(id, kind, definition)| json!({"id": id, "kind": kind, "definition": definition})),
    );
    let edges: Vec<Json> = edges
        .iter()
        .map(|(id, from, to, handle)| json!({"id": id, "from": from, "to": to, "handle": handle}))
        .collect();
    json!({"planId": plan_id, "nodes": all, "edges": edges})
}

/// A run's outputs by frame key.
pub fn outputs(view: &writ_run::RunView) -> BTreeMap<String, Vec<Json>> {
    view.outputs.iter().cloned().collect()
}
