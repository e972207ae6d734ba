//! What compiling and evaluating JSONata costs in writ alone: compiling the suite expressions
//! writ-bench times, evaluating them over the official suite's dataset5 and employees, and the
//! issue's filter-sum and grouping over 200,000 generated items.
//!
//! Every expression is compiled outside the evaluation timings and checked to succeed once, so
//! no bench times an error path. writ-bench (`bench/`) times the same expressions side by side
//! with jsonata-js and jlens-core.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use writ_core::{Object, Str, Value, parse_json};
use writ_jsonata::{Expression, Options};

/// Suite expressions over dataset5 (the case each comes from is in bench/src/jsonata.rs).
const DATASET5: [(&str, &str); 6] = [
    ("sum-path", "$sum(Account.Order.Product.(Price * Quantity))"),
    ("group-by", "Account.Order{OrderID: $sum(Product.(Price*Quantity))}"),
    (
        "map",
        "Account.Order.Product ~> $map(λ($prod, $index, $arr) { $index+1 & \"/\" & $count($arr) & \": \" & $prod.\"Product Name\" })",
    ),
    (
        "order-by",
        "Account.Order.Product^(Quantity, >Description.Colour).Description.Colour",
    ),
    (
        "predicate",
        "Account.Order.Product[$lowercase(Description.Colour) = \"purple\"][0].Price",
    ),
    (
        "parent",
        "Account.Order.Product.Description.{ 'Item': Colour & ' ' & %.`Product Name`, 'Discounted': (%.%.OrderID = 'order103') ? %.Price / 2 : %.Price }",
    ),
];

/// A join by `@` with a string join per group, over the suite's employees dataset.
const JOIN_STRINGS: &str =
    "Employee@$e.Contact@$c[$c.ssn = $e.SSN]{ $e.(FirstName & ' ' & Surname): $join($c.Phone.number, ', ') }";

/// The workloads over `{ items: [...] }`.
const ITEMS: [(&str, &str); 2] = [
    ("filter-sum", "$sum(items[price > 50].price)"),
    ("group-sum", "items{category: $sum(price)}"),
];

/// A dataset of the official suite, as the conformance tests keep it.
fn suite_dataset(name: &str) -> Value {
    let path = format!(
        "{}/tests/jsonata-suite/datasets/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    parse_json(&text).unwrap_or_else(|error| panic!("{path}: {error}"))
}

/// The 32-bit mulberry32 generator, so the items are the same on every run.
struct Mulberry32(u32);

impl Mulberry32 {
    fn below(&mut self, bound: u32) -> u32 {
        self.0 = self.0.wrapping_add(0x6D2B_79F5);
        let mut t = self.0;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        (t ^ (t >> 14)) % bound
    }
}

const CATEGORIES: [&str; 8] = [
    "kitchen", "office", "garden", "toys", "books", "sports", "tools", "health",
];

/// `{ items: [...] }` with `count` items of `{id, name, category, price}`.
fn items(count: usize) -> Value {
    let mut rng = Mulberry32(20_261_130);
    let items: Vec<Value> = (0..count)
        .map(|idx| {
            let item: Object = [
                ("id", Value::from((idx + 1) as f64)),
                ("name", Value::from(format!("item {}", rng.below(1000)))),
                (
                    "category",
                    Value::from(CATEGORIES[rng.below(CATEGORIES.len() as u32) as usize]),
                ),
                ("price", Value::from(f64::from(rng.below(10_001)) / 100.0)),
            ]
            .into_iter()
            .map(|(key, value)| (Str::from(key), value))
            .collect();
            Value::from(item)
        })
        .collect();
    Value::from(Object::from_iter([(Str::from("items"), Value::from(items))]))
}

/// Compiles `source` and evaluates it once over `input`, so a bench never times a failure.
fn compile(source: &str, input: &Value, options: &Options) -> Expression {
    let expression = Expression::compile(source).unwrap_or_else(|error| panic!("{source}: {error}"));
    if let Err(error) = expression.evaluate(input, options) {
        panic!("{source}: {error}");
    }
    expression
}

fn compiling(c: &mut Criterion) {
    let mut group = c.benchmark_group("jsonata/compile");
    for (name, source) in DATASET5.iter().copied().chain([("join-strings", JOIN_STRINGS)]) {
        group.bench_function(name, |b| b.iter(|| Expression::compile(black_box(source))));
    }
    group.finish();
}

fn small(c: &mut Criterion) {
    let options = Options::default();
    let mut group = c.benchmark_group("jsonata/eval");
    let dataset5 = suite_dataset("dataset5");
    for (name, source) in DATASET5 {
        let expression = compile(source, &dataset5, &options);
        group.bench_function(name, |b| b.iter(|| expression.evaluate(black_box(&dataset5), &options)));
    }
    let employees = suite_dataset("employees");
    let expression = compile(JOIN_STRINGS, &employees, &options);
    group.bench_function("join-strings", |b| {
        b.iter(|| expression.evaluate(black_box(&employees), &options))
    });
    group.finish();
}

fn big(c: &mut Criterion) {
    let options = Options::default();
    let count = 200_000;
    let input = items(count);
    let mut group = c.benchmark_group("jsonata/eval");
    group.sample_size(10);
    group.throughput(Throughput::Elements(count as u64));
    for (name, source) in ITEMS {
        let expression = compile(source, &input, &options);
        group.bench_with_input(BenchmarkId::new(name, "items-200k"), &input, |b, input| {
            b.iter(|| expression.evaluate(black_box(input), &options));
        });
    }
    group.finish();
}

criterion_group!(benches, compiling, small, big);
criterion_main!(benches);
