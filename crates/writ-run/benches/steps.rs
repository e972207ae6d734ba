//! Per-step overhead of the runtime: a chain of no-op calls, and a fan of concurrent ones, on the
//! memory store and on SQLite (safe against a killed process, and against power loss).

use std::sync::Arc;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use serde_json::{Value as Json, json};
use writ_cells::Registry;
use writ_plan::{ApprovalRecord, FreezeInputs};
use writ_run::{Abort, Runtime};
use writ_store::lifecycle::freeze;
use writ_store::run::RunOutcome;
use writ_store::{Durability, MemoryStore, NewPlan, PlanStore, RunStore, SqliteStore};
use writ_tools::{FnTool, ToolCall, ToolSpec, Toolbox};

const STEPS: usize = 200;

fn call(tool: &str) -> Json {
    json!({"tool": tool, "args": {}, "output": [], "onMissingValue": "fail",
           "authority": [{"capability": "bench", "scope": "noop", "verb": "read"}],
           "replaySafe": true, "onIndeterminate": "retry"})
}

/// entry → c0 → c1 → … (a chain), or entry → each of c0 … (a fan).
fn plan(id: &str, calls: usize, chain: bool) -> Json {
    let mut nodes = vec![json!({"id": "entry", "kind": "entry", "definition": {"input": []}})];
    let mut edges = Vec::new();
    for i in 0..calls {
        nodes.push(json!({"id": format!("c{i}"), "kind": "call", "definition": call("noop")}));
        let from = if chain && i > 0 {
            format!("c{}", i - 1)
        } else {
            "entry".into()
        };
        edges.push(json!({"id": format!("e{i}"), "from": from, "to": format!("c{i}"), "handle": "always"}));
    }
    json!({"planId": id, "nodes": nodes, "edges": edges,
           "bounds": {"maxNodes": 1024, "maxEdges": 1024, "maxSteps": 4096, "maxConcurrentFrames": 32}})
}

fn approve(store: &impl PlanStore, document: &Json, registry: &Registry) -> String {
    let source = writ_plan::read_document(document).expect("a plan");
    store.create(&source.plan_id, NewPlan::default()).expect("create");
    store.append_ops(&source.plan_id, &source.ops, None).expect("append");
    let tools = ["noop".to_owned()];
    freeze(store, &source.plan_id, &FreezeInputs::new(registry).with_tools(&tools)).expect("freeze");
    let view = store.read_plan(&source.plan_id).expect("read").view;
    store
        .approve(
            &source.plan_id,
            &ApprovalRecord::for_view(&view, "bench", "2026-12-02T00:00:00Z"),
        )
        .expect("approve");
    source.plan_id
}

fn toolbox(delay: Duration) -> Arc<Toolbox> {
    let mut toolbox = Toolbox::new();
    toolbox
        .add(Arc::new(FnTool::new(
            ToolSpec {
                name: "noop".into(),
                description: "does nothing".into(),
                input_schema: json!({"type": "object"}),
                output_schema: None,
            },
            move |_call: ToolCall| async move {
                if !delay.is_zero() {
                    tokio::time::sleep(delay).await;
                }
                Ok(json!({}))
            },
        )))
        .expect("add");
    Arc::new(toolbox)
}

/// A store holding the plan approved, ready to run once.
enum Fresh {
    Memory(Arc<MemoryStore>),
    /// The directory is removed when the store is dropped.
    Sqlite {
        store: Arc<SqliteStore>,
        _dir: tempdir::Dir,
    },
}

mod tempdir {
    /// A directory removed when dropped.
    pub struct Dir(pub std::path::PathBuf);

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn fresh(kind: &str, document: &Json, registry: &Registry, serial: &mut u64) -> (Fresh, String) {
    *serial += 1;
    match kind {
        "memory" => {
            let store = Arc::new(MemoryStore::new());
            let plan_id = approve(&*store, document, registry);
            (Fresh::Memory(store), plan_id)
        }
        durability => {
            let dir = std::env::temp_dir().join(format!("writ-run-bench-{}-{serial}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).expect("a scratch dir");
            let mode = if durability == "sqlite-powerloss" {
                Durability::PowerLoss
            } else {
                Durability::Process
            };
            let store = Arc::new(SqliteStore::open_with(dir.join("runs.db"), mode).expect("open"));
            let plan_id = approve(&*store, document, registry);
            (
                Fresh::Sqlite {
                    store,
                    _dir: tempdir::Dir(dir),
                },
                plan_id,
            )
        }
    }
}

fn run_once(
    runtime: &tokio::runtime::Runtime,
    fresh: &Fresh,
    plan_id: &str,
    tools: &Arc<Toolbox>,
    registry: &Arc<Registry>,
) {
    let store: Arc<dyn RunStore> = match fresh {
        Fresh::Memory(store) => store.clone(),
        Fresh::Sqlite { store, .. } => store.clone(),
    };
    let view = runtime
        .block_on(Runtime::new(store, tools.clone(), registry.clone()).start(plan_id, json!({}), None, &Abort::new()))
        .expect("the run starts");
    assert_eq!(view.outcome, Some(RunOutcome::Completed));
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let registry = Arc::new(Registry::new());
    let mut serial = 0;

    let chain = plan("chain", STEPS, true);
    let noop = toolbox(Duration::ZERO);
    let mut group = c.benchmark_group(format!("run/chain-{STEPS}-noop"));
    group.sample_size(20);
    for kind in ["memory", "sqlite-process", "sqlite-powerloss"] {
        group.bench_function(kind, |b| {
            b.iter_batched_ref(
                || fresh(kind, &chain, &registry, &mut serial),
                |(fresh, plan_id)| run_once(&runtime, fresh, plan_id, &noop, &registry),
                BatchSize::PerIteration,
            );
        });
    }
    group.finish();

    let fan = plan("fan", 32, false);
    let slow = toolbox(Duration::from_millis(50));
    let mut group = c.benchmark_group("run/fan-32-of-50ms");
    group.sample_size(10);
    group.bench_function("sqlite-process", |b| {
        b.iter_batched_ref(
            || fresh("sqlite-process", &fan, &registry, &mut serial),
            |(fresh, plan_id)| run_once(&runtime, fresh, plan_id, &slow, &registry),
            BatchSize::PerIteration,
        );
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
