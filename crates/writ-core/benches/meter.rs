//! The Meter's hot paths: what one charged step costs, and what one deadline check costs.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use writ_core::{Limits, Meter};

const STEPS: u64 = 1_000_000;

fn limits() -> Limits {
    Limits {
        steps: Some(u64::MAX / 2),
        time: Some(Duration::from_secs(3600)),
        ..Limits::UNLIMITED
    }
}

fn meter(c: &mut Criterion) {
    let mut group = c.benchmark_group("meter");
    group.throughput(Throughput::Elements(STEPS));
    group.bench_function("step/1m", |b| {
        b.iter(|| {
            let mut meter = Meter::new(&limits());
            for _ in 0..STEPS {
                if meter.step().is_err() {
                    unreachable!("the limit is far away");
                }
            }
            assert_eq!(black_box(&meter).steps_used(), STEPS);
        });
    });
    group.bench_function("steps-by-16/1m", |b| {
        b.iter(|| {
            let mut meter = Meter::new(&limits());
            for _ in 0..STEPS / 16 {
                if meter.steps(black_box(16)).is_err() {
                    unreachable!("the limit is far away");
                }
            }
            assert_eq!(black_box(&meter).steps_used(), STEPS);
        });
    });
    group.finish();

    let mut group = c.benchmark_group("meter");
    group.bench_function("deadline-check", |b| {
        let mut meter = Meter::new(&limits());
        b.iter(|| {
            assert!(black_box(&mut meter).check_clock().is_ok());
        });
    });
    group.finish();
}

criterion_group!(benches, meter);
criterion_main!(benches);
