//! Per-step overhead of the runtime: a chain of no-op calls, and a fan of concurrent ones, on the
//! memory store and on SQLite (safe against a killed process, and against power loss). The
//! chain's calls are replay-safe (their events may be committed behind them, several steps to a
//! commit) or not (`-unsafe`: each step committed before its call, one commit a step).

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

fn call(tool: &str, replay_safe: bool) -> Json {
    json!({"tool": tool, "args": {}, "output": [], "onMissingValue": "fail",
           "authority": [{"capability": "bench", "scope": "noop", "verb": if replay_safe { "read" } else { "create" }}],
           "replaySafe": replay_safe, "onIndeterminate": if replay_safe { "retry" } else { "halt" }})
}

/// entry → c0 → c1 → … (a chain), or entry → each of c0 … (a fan).
fn plan(id: &str, calls: usize, chain: bool, replay_safe: bool) -> Json {
    let mut nodes = vec![json!({"id": "entry", "kind": "entry", "definition": {"input": []}})];
    let mut edges = Vec::new();
    for i in 0..calls {
        nodes.push(json!({"id": format!("c{i}"), "kind": "call", "definition": call("noop", replay_safe)}));
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

/// One store for every run of a benchmark, as a deployment keeps one: each run's plan is
/// approved in it beforehand, untimed, and a SQLite store's log grows (and is checkpointed)
/// across the runs.
enum Store {
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

    /// A fresh scratch directory named after `what`.
    pub fn new(what: &str) -> Dir {
        let dir = std::env::temp_dir().join(format!("writ-run-bench-{}-{what}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch dir");
        Dir(dir)
    }
}

impl Store {
    fn new(kind: &str) -> Store {
        match kind {
            "memory" => Store::Memory(Arc::new(MemoryStore::new())),
            durability => {
                let dir = tempdir::new(durability);
                let mode = if durability == "sqlite-powerloss" {
                    Durability::PowerLoss
                } else {
                    Durability::Process
                };
                let store = SqliteStore::open_with(dir.0.join("runs.db"), mode).expect("open");
                Store::Sqlite {
                    store: Arc::new(store),
                    _dir: dir,
                }
            }
        }
    }

    /// Approves a copy of `document` under a fresh plan id, ready to run once.
    fn approve(&self, document: &Json, registry: &Registry, serial: &mut u64) -> String {
        *serial += 1;
        let mut document = document.clone();
        document["planId"] = json!(format!("{}-{serial}", document["planId"].as_str().unwrap_or("plan")));
        match self {
            Store::Memory(store) => approve(&**store, &document, registry),
            Store::Sqlite { store, .. } => approve(&**store, &document, registry),
        }
    }

    fn runs(&self) -> Arc<dyn RunStore> {
        match self {
            Store::Memory(store) => store.clone(),
            Store::Sqlite { store, .. } => store.clone(),
        }
    }
}

fn run_once(
    runtime: &tokio::runtime::Runtime,
    store: Arc<dyn RunStore>,
    plan_id: &str,
    tools: &Arc<Toolbox>,
    registry: &Arc<Registry>,
) {
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

    let noop = toolbox(Duration::ZERO);
    for (name, replay_safe) in [("noop", true), ("noop-unsafe", false)] {
        let chain = plan("chain", STEPS, true, replay_safe);
        let mut group = c.benchmark_group(format!("run/chain-{STEPS}-{name}"));
        group.sample_size(20);
        for kind in ["memory", "sqlite-process", "sqlite-powerloss"] {
            let store = Store::new(kind);
            group.bench_function(kind, |b| {
                b.iter_batched(
                    || store.approve(&chain, &registry, &mut serial),
                    |plan_id| run_once(&runtime, store.runs(), &plan_id, &noop, &registry),
                    BatchSize::PerIteration,
                );
            });
        }
        group.finish();
    }

    // What power-loss safety costs at the least: one write and flush of a log page, in the
    // same directory the power-loss store's file is in. A step of the unsafe chain in that mode
    // commits once.
    let mut group = c.benchmark_group("fsync");
    group.sample_size(20);
    let dir = tempdir::new("fsync");
    let mut log = std::fs::File::create(dir.0.join("log")).expect("a log file");
    let page = vec![0x5a_u8; 4096];
    group.bench_function("write-4KiB-and-sync_data", |b| {
        b.iter(|| {
            std::io::Write::write_all(&mut log, &page).expect("written");
            log.sync_data().expect("flushed");
        });
    });
    group.finish();

    let fan = plan("fan", 32, false, true);
    let slow = toolbox(Duration::from_millis(50));
    let mut group = c.benchmark_group("run/fan-32-of-50ms");
    group.sample_size(10);
    let store = Store::new("sqlite-process");
    group.bench_function("sqlite-process", |b| {
        b.iter_batched(
            || store.approve(&fan, &registry, &mut serial),
            |plan_id| run_once(&runtime, store.runs(), &plan_id, &slow, &registry),
            BatchSize::PerIteration,
        );
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
