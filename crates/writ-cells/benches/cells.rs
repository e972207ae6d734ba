//! What deciding a node costs in each cell: the structured predicate alone on a prepared
//! snapshot, and every cell's full `evaluate` (snapshot, cache lookup, evaluation, verdict)
//! for a typical branch predicate over the same output table.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use writ_cells::structured::{DEFAULT_LIMITS, Predicate};
use writ_cells::{
    JexlCell, JsCell, JsonataCell, LuaCell, OutputTable, PredicateContext, PredicateEvaluator, PredicateNode,
    StructuredCell,
};
use writ_core::{Meter, Value, block_on, parse_json};

/// A small plan's outputs: a fetch with a few fields and two items, a check, a summary.
fn outputs() -> OutputTable {
    let mut outputs = OutputTable::new();
    outputs.insert(
        "list_files",
        "e2:e0",
        [parse_json(
            r#"{"status": "ready", "count": 12, "folder": "inbox/ops",
                "files": [{"name": "a.txt", "size": 120}, {"name": "b.txt", "size": 4096}]}"#,
        )
        .unwrap()],
    );
    outputs.insert(
        "check",
        "e2:e0e2:e1",
        [parse_json(r#"{"status": "green", "score": 97}"#).unwrap()],
    );
    outputs.insert(
        "summarise",
        "e2:e0e2:e2",
        [
            parse_json(r#"{"headline": "alpha"}"#).unwrap(),
            parse_json(r#"{"words": 2}"#).unwrap(),
        ],
    );
    outputs
}

fn structured_predicate() -> Value {
    parse_json(
        r#"{"all": [{"path": "list_files:e2:e0.count", "op": "gt", "value": 0},
                   {"path": "list_files:e2:e0.status", "op": "eq", "value": "ready"}]}"#,
    )
    .unwrap()
}

fn structured_alone(c: &mut Criterion) {
    let predicate = Predicate::parse(&structured_predicate()).unwrap();
    let data = Value::Object(outputs().merged());
    c.bench_function("structured/predicate-on-prepared-snapshot", |b| {
        b.iter(|| {
            let mut meter = Meter::starting_at_first_check(&DEFAULT_LIMITS, None);
            black_box(predicate.evaluate(black_box(&data), &mut meter))
        })
    });
}

fn snapshots(c: &mut Criterion) {
    let outputs = outputs();
    c.bench_function("snapshot/merged", |b| {
        b.iter(|| black_box(black_box(&outputs).merged()))
    });
    c.bench_function("snapshot/expression-scope", |b| {
        b.iter(|| black_box(black_box(&outputs).expression_scope()))
    });
    c.bench_function("snapshot/table-value", |b| {
        b.iter(|| black_box(black_box(&outputs).to_value()))
    });
}

fn full_evaluate(c: &mut Criterion) {
    let context = PredicateContext {
        outputs: outputs(),
        ..PredicateContext::default()
    };
    let cells: Vec<(Arc<dyn PredicateEvaluator>, Value)> = vec![
        (Arc::new(StructuredCell::default()), structured_predicate()),
        (
            Arc::new(JexlCell::default()),
            Value::from("list_files.count > 0 && list_files.status == 'ready'"),
        ),
        (
            Arc::new(LuaCell::default()),
            Value::from("local out = ctx['list_files:e2:e0'][1].json return out.count > 0 and out.status == 'ready'"),
        ),
        (
            Arc::new(JsCell::default()),
            Value::from("list_files.count > 0 && list_files.status === 'ready'"),
        ),
        (
            Arc::new(JsonataCell::default()),
            Value::from("list_files.count > 0 and list_files.status = 'ready'"),
        ),
    ];
    for (cell, predicate) in cells {
        block_on(cell.load()).unwrap();
        let node = PredicateNode::branch("decide", cell.id(), predicate);
        block_on(cell.validate(&node)).unwrap();
        c.bench_function(&format!("{}/evaluate-branch", cell.id()), |b| {
            b.iter(|| black_box(block_on(cell.evaluate(black_box(&node), black_box(&context)))))
        });
    }
}

criterion_group!(benches, structured_alone, snapshots, full_evaluate);
criterion_main!(benches);
