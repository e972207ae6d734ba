//! What evaluating Jexl costs in writ alone: the seed's filter over 200,000 items, a comparison
//! over a context, a ternary, a filter with `&&` over 1,000 items, and compiling.
//!
//! Every expression is compiled outside the timings and checked to succeed once. writ-bench
//! (`bench/`) times the same workloads side by side with jexl-js.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use writ_core::{Object, Str, Value, parse_json};
use writ_jexl::{Expression, Jexl};

/// The 32-bit mulberry32 generator, so the items are the same on every run.
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

/// `{ items: [...] }` with `count` items of `{id, name, price, age, active}`.
fn items(count: usize) -> Value {
    let mut rng = Mulberry32(20_261_130);
    let items: Vec<Value> = (0..count)
        .map(|idx| {
            let item: Object = [
                ("id", Value::from((idx + 1) as f64)),
                ("name", Value::from(format!("item {}", rng.below(1000)))),
                ("price", Value::from(f64::from(rng.below(10_001)) / 100.0)),
                ("age", Value::from(f64::from(18 + rng.below(50)))),
                ("active", Value::Bool(rng.below(2) == 1)),
            ]
            .into_iter()
            .map(|(key, value)| (Str::from(key), value))
            .collect();
            Value::from(item)
        })
        .collect();
    Value::from(Object::from_iter([(Str::from("items"), Value::from(items))]))
}

/// Compiles `source` and evaluates it once over `context`, so a bench never times a failure.
fn compile(source: &str, context: &Value) -> Expression {
    let expression = Jexl::new()
        .compile(source)
        .unwrap_or_else(|error| panic!("{source}: {error}"));
    if let Err(error) = expression.evaluate(context) {
        panic!("{source}: {error}");
    }
    expression
}

/// The seed's filter over 200,000 items.
fn big(c: &mut Criterion) {
    let count = 200_000;
    let context = items(count);
    let expression = compile("items[.age >= 30]", &context);
    let mut group = c.benchmark_group("jexl/eval");
    group.sample_size(10);
    group.throughput(Throughput::Elements(count as u64));
    group.bench_with_input(BenchmarkId::new("filter", "items-200k"), &context, |b, context| {
        b.iter(|| expression.evaluate(black_box(context)));
    });
    group.finish();
}

/// A comparison and a ternary over one context, and a filter with `&&` over 1,000 items.
fn small(c: &mut Criterion) {
    let order =
        parse_json(r#"{"order": {"total": 120.5, "status": "ready", "items": 3}, "limit": 100}"#).expect("valid JSON");
    let cases = [
        ("comparison", "order.total > limit && order.status == 'ready'"),
        (
            "ternary",
            "order.items > 2 ? 'bulk' : order.total > limit ? 'large' : 'small'",
        ),
    ];
    let mut group = c.benchmark_group("jexl/eval");
    for (name, source) in cases {
        let expression = compile(source, &order);
        group.bench_function(name, |b| b.iter(|| expression.evaluate(black_box(&order))));
    }
    let thousand = items(1_000);
    let expression = compile("items[.age >= 30 && .active]", &thousand);
    group.throughput(Throughput::Elements(1_000));
    group.bench_function(BenchmarkId::new("filter-and", "items-1k"), |b| {
        b.iter(|| expression.evaluate(black_box(&thousand)));
    });
    group.finish();
}

/// Compiling a filter and a ternary.
fn compiling(c: &mut Criterion) {
    let jexl = Jexl::new();
    let mut group = c.benchmark_group("jexl/compile");
    for (name, source) in [
        ("filter", "items[.age >= 30][0].name == \"ada\""),
        (
            "ternary",
            "order.items > 2 ? 'bulk' : order.total > limit ? 'large' : 'small'",
        ),
    ] {
        group.bench_function(name, |b| b.iter(|| jexl.compile(black_box(source))));
    }
    group.finish();
}

criterion_group!(benches, big, small, compiling);
criterion_main!(benches);
