//! What one evaluation costs: the workloads of uicast's own benchmark (a simple check, a member
//! read, a template, an object literal, filter / map / reduce over 1,000 rows, a 1,000-row
//! table of 5 expressions per row), a filter over 200,000 rows, and the locale methods over
//! 1,000 rows (one format, one collation, and formats in more locales than the caches hold).
//!
//! Every expression is compiled outside the timing; one bench also goes through
//! `Evaluator::eval`, whose parse cache hits after the first call.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use writ_core::{Object, Shape, Str, Value};
use writ_js::{Budget, Compiled, Evaluator};

/// A budget large enough for the 200,000-row workload, as uicast's benchmark sets one.
const BUDGET: Budget = Budget {
    steps: 50_000_000,
    ms: 60_000,
    max_string_length: 1_000_000,
    max_array_length: 1_000_000,
    max_total_allocation: 100_000_000,
};

/// The 32-bit mulberry32 generator, so the rows are the same on every run.
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

const NAMES: [&str; 6] = ["Mug", "Kettle", "Lamp", "Café Table", "Notebook", "Teapot"];
const STATUSES: [&str; 4] = ["open", "sold", "hold", "draft"];
const TAGS: [&str; 5] = ["sale", "new", "eco", "gift", "bulk"];

/// `count` rows of `{id, name, price, qty, status, tags}`, sharing one key list as rows read
/// from JSON text do.
fn rows(count: usize) -> Vec<Object> {
    let mut rng = Mulberry32(20_261_130);
    let keys: Vec<Str> = ["id", "name", "price", "qty", "status", "tags"]
        .into_iter()
        .map(Str::from)
        .collect();
    let shape = Shape::new(&keys).expect("distinct keys");
    (0..count)
        .map(|idx| {
            let name = format!("{} {}", NAMES[rng.below(NAMES.len() as u32) as usize], rng.below(1000));
            let tags: Vec<Value> = (0..rng.below(4))
                .map(|_| Value::from(TAGS[rng.below(TAGS.len() as u32) as usize]))
                .collect();
            let row = [
                ("id", Value::from((idx + 1) as f64)),
                ("name", Value::from(name)),
                ("price", Value::from(f64::from(rng.below(10_001)) / 100.0)),
                ("qty", Value::from(f64::from(rng.below(20)))),
                (
                    "status",
                    Value::from(STATUSES[rng.below(STATUSES.len() as u32) as usize]),
                ),
                ("tags", Value::from(tags)),
            ]
            .into_iter()
            .map(|(_, value)| value);
            shape.build(row)
        })
        .collect()
}

/// `{ rows: [...] }`.
fn rows_context(rows: &[Object]) -> Object {
    let rows: Vec<Value> = rows.iter().cloned().map(Value::from).collect();
    [(Str::from("rows"), Value::from(rows))].into_iter().collect()
}

/// `{ root: { count: 3, user: { id: 7, name: "Ada" } } }`.
fn root_context() -> Object {
    let user: Object = [
        (Str::from("id"), Value::from(7.0)),
        (Str::from("name"), Value::from("Ada")),
    ]
    .into_iter()
    .collect();
    let root: Object = [
        (Str::from("count"), Value::from(3.0)),
        (Str::from("user"), Value::from(user)),
    ]
    .into_iter()
    .collect();
    [(Str::from("root"), Value::from(root))].into_iter().collect()
}

/// Compiles `source`, runs it once over `contexts` and checks it succeeds, so that a bench
/// never times an error path.
fn compile(evaluator: &Evaluator, source: &str, contexts: &[&Object]) -> Compiled {
    let compiled = evaluator
        .compile(source)
        .unwrap_or_else(|error| panic!("{source}: {error}"));
    if let Err(error) = compiled.eval(contexts) {
        panic!("{source}: {error}");
    }
    compiled
}

/// The scope workloads: one small expression over one context.
const SCOPE: [(&str, &str); 4] = [
    ("check/simple", "root.count > 0"),
    ("member/read", "root.user.name"),
    ("template/two", "`${root.user.name} has ${root.count} items`"),
    (
        "object/literal",
        "({ id: root.user.id, name: root.user.name, total: root.count * 2 })",
    ),
];

/// The list workloads over 1,000 rows.
const LISTS: [(&str, &str); 3] = [
    ("filter/rows-1k", "rows.filter(r => r.price > 50)"),
    ("map/rows-1k", "rows.map(r => r.price * r.qty)"),
    ("reduce/rows-1k", "rows.reduce((sum, r) => sum + r.price * r.qty, 0)"),
];

/// The five expressions of the table, evaluated with each row as the context.
const TABLE: [&str; 5] = [
    "price * qty",
    "`${name} × ${qty}`",
    "status === \"open\" && qty > 0",
    "tags.length > 0 ? tags[0] : \"none\"",
    "({ id, total: price * qty, label: name })",
];

fn scope(c: &mut Criterion) {
    let evaluator = Evaluator::builder()
        .budget(BUDGET)
        .build()
        .expect("no host functions to refuse");
    let context = root_context();
    let mut group = c.benchmark_group("js");
    for (name, source) in SCOPE {
        let compiled = compile(&evaluator, source, &[&context]);
        group.bench_function(name, |b| b.iter(|| compiled.eval(black_box(&[&context]))));
    }
    let (_, simple) = SCOPE[0];
    group.bench_function("check/simple-eval", |b| {
        b.iter(|| evaluator.eval(black_box(simple), &[&context]))
    });
    group.finish();
}

fn lists(c: &mut Criterion) {
    let evaluator = Evaluator::builder()
        .budget(BUDGET)
        .build()
        .expect("no host functions to refuse");
    let rows = rows(1_000);
    let context = rows_context(&rows);
    let mut group = c.benchmark_group("js");
    group.throughput(Throughput::Elements(rows.len() as u64));
    for (name, source) in LISTS {
        let compiled = compile(&evaluator, source, &[&context]);
        group.bench_function(name, |b| b.iter(|| compiled.eval(black_box(&[&context]))));
    }

    let table: Vec<Compiled> = TABLE
        .iter()
        .map(|source| compile(&evaluator, source, &[&rows[0]]))
        .collect();
    group.throughput(Throughput::Elements((rows.len() * table.len()) as u64));
    group.bench_function("table/rows-1k-x5", |b| {
        let mut results = Vec::with_capacity(rows.len() * table.len());
        b.iter(|| {
            results.clear();
            for row in black_box(&rows) {
                for compiled in &table {
                    results.push(compiled.eval(&[row]));
                }
            }
            assert!(results.iter().all(Result::is_ok));
        });
    });
    group.finish();
}

fn big(c: &mut Criterion) {
    let evaluator = Evaluator::builder()
        .budget(BUDGET)
        .build()
        .expect("no host functions to refuse");
    let rows = rows(200_000);
    let context = rows_context(&rows);
    let source = "rows.filter(r => r.price > 50).length";
    let compiled = compile(&evaluator, source, &[&context]);
    let mut group = c.benchmark_group("js");
    group.sample_size(10);
    group.throughput(Throughput::Elements(rows.len() as u64));
    group.bench_with_input(BenchmarkId::new("filter", "rows-200k"), &context, |b, context| {
        b.iter(|| compiled.eval(black_box(&[context])));
    });
    group.finish();
}

/// The locale workloads over 1,000 rows: the caches hit in the first two; the third asks in
/// turn for 100 locales, more than the caches keep, so every call resolves its locale and reads
/// the locale tables.
const LOCALE: [(&str, &str); 3] = [
    (
        "locale/format-rows-1k",
        "rows.map(r => r.price.toLocaleString(\"de-DE\", { style: \"currency\", currency: \"EUR\" }))",
    ),
    (
        "locale/compare-rows-1k",
        "rows.map(r => r.name).toSorted((a, b) => a.localeCompare(b, \"fr\"))",
    ),
    (
        "locale/resolve-rows-1k",
        "rows.map(r => r.price.toLocaleString(locales[r.id % locales.length], { style: \"currency\", currency: \"USD\" }))",
    ),
];

/// The languages of the resolving workload, each asked for alone and in four regions.
const LANGUAGES: [&str; 20] = [
    "af", "ar", "bn", "ca", "de", "en", "es", "fa", "fr", "hi", "it", "ja", "ko", "ml", "nl", "pt", "ru", "sr", "ta",
    "zh",
];

fn locale(c: &mut Criterion) {
    let evaluator = Evaluator::builder()
        .budget(BUDGET)
        .build()
        .expect("no host functions to refuse");
    let rows = rows(1_000);
    let mut context = rows_context(&rows);
    let regions = ["", "-US", "-GB", "-CH", "-FR"];
    let locales: Vec<Value> = regions
        .iter()
        .flat_map(|region| {
            LANGUAGES
                .iter()
                .map(move |language| Value::from(format!("{language}{region}")))
        })
        .collect();
    context.insert(Str::from("locales"), Value::from(locales));
    let mut group = c.benchmark_group("js");
    group.throughput(Throughput::Elements(rows.len() as u64));
    for (name, source) in LOCALE {
        let compiled = compile(&evaluator, source, &[&context]);
        group.bench_function(name, |b| b.iter(|| compiled.eval(black_box(&[&context]))));
    }
    group.finish();
}

criterion_group!(benches, scope, lists, big, locale);
criterion_main!(benches);
