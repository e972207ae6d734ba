//! What folding, freezing and digesting a plan cost: the fold of 1,000, 10,000 and 100,000 ops,
//! and the fold, freeze checks and digest of a plan at the default bounds (256 nodes, 512 edges)
//! built from 10,000 ops (the issue's goal: under 5 ms together).
//!
//! The fold is also measured on the same logs in lamport order, laid out in memory in that order.
//!
//! Every log builds the same plan: 256 nodes and 512 edges first, then edits (fields set,
//! phases set, nodes and edges removed and added again) by four actors whose lamports collide,
//! with about one op in twenty delivered twice, all arriving in a shuffled order.

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use writ_cells::Registry;
use writ_plan::{Change, Edge, FreezeInputs, Handle, Node, NodeKind, Op, StagedValue, check, digest, fold};

/// The 32-bit mulberry32 generator, so the logs are the same on every run.
struct Mulberry32(u32);

impl Mulberry32 {
    /// The next number below `bound`.
    fn below(&mut self, bound: u32) -> u32 {
        self.0 = self.0.wrapping_add(0x6D2B_79F5);
        let mut t = self.0;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        (t ^ (t >> 14)) % bound
    }
}

const NODES: u32 = 256;
const ACTORS: [&str; 4] = ["ann", "bob", "cy", "dee"];

/// The entry, or a call that freezes clean.
fn node(index: u32) -> Node {
    let text = |s: &str| StagedValue::String(s.to_owned());
    let mut definition = BTreeMap::from([("input".to_owned(), StagedValue::Array(Vec::new()))]);
    if index > 0 {
        let args = BTreeMap::from([
            ("dir".to_owned(), StagedValue::String(format!("/reports/{index}"))),
            ("limit".to_owned(), StagedValue::Number(f64::from(index))),
        ]);
        definition = BTreeMap::from([
            ("tool".to_owned(), StagedValue::String(format!("tool_{}", index % 17))),
            ("args".to_owned(), StagedValue::Object(args)),
            ("output".to_owned(), StagedValue::Array(Vec::new())),
            ("onMissingValue".to_owned(), text("fail")),
            ("authority".to_owned(), StagedValue::Array(Vec::new())),
            ("replaySafe".to_owned(), StagedValue::Bool(true)),
            ("onIndeterminate".to_owned(), text("halt")),
        ]);
    }
    Node {
        id: format!("n{index}"),
        kind: if index == 0 { NodeKind::Entry } else { NodeKind::Call },
        phase: None,
        definition,
    }
}

/// The 512 edges: each node to the next two, and three longer jumps, so every node is reachable
/// and there is no cycle.
fn edges() -> Vec<Edge> {
    let mut edges = Vec::new();
    for step in 1..=3 {
        for from in 0..NODES - step {
            if step == 3 && from >= 3 {
                break;
            }
            edges.push(Edge {
                id: format!("e{}", edges.len()),
                from: format!("n{from}"),
                to: format!("n{}", from + step),
                handle: Handle::Always,
            });
        }
    }
    assert_eq!(edges.len(), 512);
    edges
}

/// A shuffled log of `count` ops that folds to the 256-node, 512-edge plan.
fn log(count: usize) -> Vec<Op> {
    let mut rng = Mulberry32(20_261_202);
    let mut ops = Vec::with_capacity(count);
    let mut lamport = 0;
    fn push(ops: &mut Vec<Op>, lamport: u64, actor: &str, change: Change) {
        let op_id = format!("o{}", ops.len());
        ops.push(Op {
            op_id,
            actor_id: actor.to_owned(),
            lamport,
            at: String::new(),
            change,
        });
    }
    for index in 0..NODES {
        lamport += 1;
        push(&mut ops, lamport, "ann", Change::AddNode(node(index)));
    }
    for edge in edges() {
        lamport += 1;
        push(&mut ops, lamport, "ann", Change::AddEdge(edge));
    }
    let edges = edges();
    while ops.len() < count {
        // Four actors editing at once: lamports advance slowly, so they collide.
        lamport += u64::from(rng.below(2));
        let actor = ACTORS[rng.below(4) as usize];
        if ops.len() % 20 == 19 {
            let again = ops[rng.below(ops.len() as u32) as usize].clone();
            ops.push(again);
            continue;
        }
        let target = 1 + rng.below(NODES - 1);
        let change = match rng.below(10) {
            0..=5 => Change::SetNodeField {
                node_id: format!("n{target}"),
                path: if rng.below(2) == 0 { "args.limit" } else { "args.dir" }.to_owned(),
                value: StagedValue::Number(f64::from(rng.below(1000))),
            },
            6 => Change::SetNodePhase {
                node_id: format!("n{target}"),
                phase: Some(format!("phase {}", rng.below(4))),
            },
            7 => {
                // Removed and added again at once by one actor, as a replace would be.
                let edge = edges[rng.below(edges.len() as u32) as usize].clone();
                push(
                    &mut ops,
                    lamport,
                    actor,
                    Change::RemoveEdge {
                        edge_id: edge.id.clone(),
                    },
                );
                lamport += 1;
                Change::AddEdge(edge)
            }
            _ => Change::SetNodeField {
                node_id: format!("n{target}"),
                path: "tool".to_owned(),
                value: StagedValue::String(format!("tool_{}", rng.below(17))),
            },
        };
        push(&mut ops, lamport, actor, change);
    }
    ops.truncate(count);
    for index in (1..ops.len()).rev() {
        ops.swap(index, rng.below(index as u32 + 1) as usize);
    }
    ops
}

fn fold_sizes(c: &mut Criterion) {
    let mut group = c.benchmark_group("fold");
    for count in [1_000, 10_000, 100_000] {
        let ops = log(count);
        let folded = fold("bench", &ops, None);
        assert!(folded.issues.is_empty(), "{:?}", folded.issues.first());
        assert_eq!((folded.view.nodes.len(), folded.view.edges.len()), (256, 512));
        group.throughput(Throughput::Elements(count as u64));
        group.bench_with_input(BenchmarkId::from_parameter(count), &ops, |b, ops| {
            b.iter(|| fold("bench", black_box(ops), None))
        });
    }
    group.finish();
    // The same logs in lamport order, each op allocated after the one before it, as a log read
    // back from its file is: the fold then reads memory in order, which shows what the shuffled
    // logs above add in cache misses once a log outgrows the cache.
    let mut group = c.benchmark_group("fold-in-order");
    for count in [1_000, 10_000, 100_000] {
        let mut ops = log(count);
        ops.sort_by(|a, b| a.order(b));
        let ops = ops.to_vec();
        group.throughput(Throughput::Elements(count as u64));
        group.bench_with_input(BenchmarkId::from_parameter(count), &ops, |b, ops| {
            b.iter(|| fold("bench", black_box(ops), None))
        });
    }
    group.finish();
}

fn default_bounds(c: &mut Criterion) {
    let ops = log(10_000);
    let view = fold("bench", &ops, None).view;
    c.bench_function("digest/256 nodes 512 edges", |b| b.iter(|| digest(black_box(&view))));
    let registry = Registry::new();
    let inputs = FreezeInputs::new(&registry);
    let issues = check(&view, &inputs);
    assert!(issues.is_empty(), "{:?}", issues.first());
    c.bench_function("freeze/256 nodes 512 edges", |b| {
        b.iter(|| check(black_box(&view), &inputs))
    });
    c.bench_function("fold+digest/10000 ops", |b| {
        b.iter(|| {
            let folded = fold("bench", black_box(&ops), None);
            digest(&folded.view)
        })
    });
    c.bench_function("fold+freeze+digest/10000 ops", |b| {
        b.iter(|| {
            let folded = fold("bench", black_box(&ops), None);
            let issues = check(&folded.view, &inputs);
            (issues, digest(&folded.view))
        })
    });
}

criterion_group!(benches, fold_sizes, default_bounds);
criterion_main!(benches);
