//! Value hot paths: reading JSON, writing it, looking keys up, sharing values.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use writ_core::{Object, Str, Value, js_number_to_string, parse_json};

/// 10,000 rows shaped like a typical tool output, deterministic.
fn rows_text() -> String {
    let mut state: u32 = 20_261_130;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    let rows: Vec<Value> = (0..10_000)
        .map(|id| {
            let mut row = Object::new();
            row.insert("id".into(), Value::from(f64::from(id)));
            row.insert("name".into(), Value::from(format!("item-{}", next() % 100_000)));
            row.insert("price".into(), Value::from(f64::from(next() % 10_000) / 100.0));
            row.insert("stock".into(), Value::from(f64::from(next() % 50)));
            row.insert("active".into(), Value::Bool(next() % 2 == 0));
            Value::from(row)
        })
        .collect();
    Value::from(rows).to_json_string().unwrap_or_default()
}

fn value(c: &mut Criterion) {
    let text = rows_text();
    let parsed = parse_json(&text).expect("valid JSON");

    let mut group = c.benchmark_group("value");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("parse-json/rows-10k", |b| {
        b.iter(|| {
            let value = parse_json(black_box(&text)).expect("valid JSON");
            assert_eq!(value.as_array().map(|rows| rows.len()), Some(10_000));
        });
    });
    group.bench_function("to-json/rows-10k", |b| {
        b.iter(|| {
            let written = black_box(&parsed).to_json_string().unwrap_or_default();
            assert_eq!(written.len(), text.len());
        });
    });
    group.finish();

    let mut group = c.benchmark_group("value");
    let rows = parsed.as_array().expect("an array").clone();
    group.throughput(Throughput::Elements(rows.len() as u64));
    group.bench_function("filter-sum/rows-10k", |b| {
        let price = Str::from("price");
        b.iter(|| {
            let mut sum = 0.0;
            for row in black_box(&rows).iter() {
                if let Some(Value::Number(number)) = row.as_object().and_then(|row| row.get(&price))
                    && *number > 50.0
                {
                    sum += number;
                }
            }
            assert!(sum > 0.0);
        });
    });
    group.bench_function("clone-rows/rows-10k", |b| {
        b.iter(|| {
            let copies: Vec<Value> = black_box(&rows).iter().cloned().collect();
            assert_eq!(copies.len(), 10_000);
        });
    });
    group.bench_function("number-to-string/rows-10k", |b| {
        b.iter(|| {
            let mut total = 0;
            for row in black_box(&rows).iter() {
                if let Some(price) = row
                    .as_object()
                    .and_then(|row| row.get_str("price"))
                    .and_then(Value::as_number)
                {
                    total += js_number_to_string(price).len();
                }
            }
            assert!(total > 0);
        });
    });
    group.bench_function("build-insert/rows-10k", |b| {
        let keys: Vec<Str> = ["id", "name", "price", "stock", "active"]
            .into_iter()
            .map(Str::from)
            .collect();
        b.iter(|| {
            let built: Vec<Value> = black_box(&rows)
                .iter()
                .map(|row| {
                    let mut copy = Object::new();
                    for (key, value) in keys.iter().zip(row.as_object().into_iter().flat_map(Object::values)) {
                        copy.insert(key.clone(), value.clone());
                    }
                    Value::from(copy)
                })
                .collect();
            assert_eq!(built.len(), 10_000);
        });
    });
    group.bench_function("build-collect/rows-10k", |b| {
        b.iter(|| {
            let built: Vec<Value> = black_box(&rows)
                .iter()
                .filter_map(Value::as_object)
                .map(|row| {
                    Value::from(
                        row.iter()
                            .map(|(key, value)| (key.clone(), value.clone()))
                            .collect::<Object>(),
                    )
                })
                .collect();
            assert_eq!(built.len(), 10_000);
        });
    });
    group.finish();

    // Per-call costs: a small document, and lookups in an object wide enough to be indexed.
    let mut group = c.benchmark_group("value");
    let small = r#"{"id": 7, "name": "Mug", "price": 4.5, "tags": ["kitchen", "blue"], "stock": {"shelf": 3}}"#;
    group.throughput(Throughput::Bytes(small.len() as u64));
    group.bench_function("parse-json/small-object", |b| {
        b.iter(|| {
            let value = parse_json(black_box(small)).expect("valid JSON");
            assert!(value.as_object().is_some());
        });
    });
    let wide: Object = (0..40)
        .map(|idx| (Str::from(format!("column_{idx}")), Value::from(f64::from(idx))))
        .collect();
    let names: Vec<String> = (0..40).map(|idx| format!("column_{}", (idx * 7) % 40)).collect();
    group.throughput(Throughput::Elements(names.len() as u64));
    group.bench_function("get-str/object-40-keys", |b| {
        b.iter(|| {
            let mut total = 0.0;
            for name in black_box(&names) {
                total += black_box(&wide).get_str(name).and_then(Value::as_number).unwrap_or(0.0);
            }
            assert!(total > 0.0);
        });
    });
    group.finish();
}

criterion_group!(benches, value);
criterion_main!(benches);
