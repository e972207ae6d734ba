//! The workflow runtime's two workloads from issue 16, run by writ-flow alone: a
//! 100,000-iteration compute loop (the seed's summing loop: a compute body and an `until`
//! test), and a conditional routing 10,000 inputs (the seed's triage: two expression routes
//! that count errors and a default, each target a compute). Every iteration checks its answer.
//! The figures against jsonata-js are `writ-bench --only flow/`'s, kept in COMPARE.md.
//!
//! The routing inputs are JSON texts made once, outside the timed closure, and each run is
//! handed a clone of one: a clone shares the text's reading, so the first iteration parses
//! each input and the rest time runs over inputs already read. (writ-bench's routing
//! workload hands each item parsed, `Output::from_value`, to other expressions.)

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use writ_core::parse_json;
use writ_flow::{Output, RunOptions, Workflow, Workflows, run};

fn workflow(text: &str) -> Workflow {
    Workflow::parse(&parse_json(text).expect("JSON")).expect("a valid workflow")
}

fn compute_loop(c: &mut Criterion) {
    let summing = workflow(
        r#"{"version": 1, "root": {"kind": "loop", "id": "count", "maxIterations": "infinity",
            "body": {"kind": "compute", "id": "step", "expr": "{ 'n': n - 1, 'sum': sum + n }"},
            "until": {"kind": "expr", "expr": "n = 0"}}}"#,
    );
    let options = RunOptions::default();
    let workflows = Workflows::new();
    c.bench_function("flow/compute-loop/100k/writ", |b| {
        b.iter(|| {
            let output = run(
                &summing,
                &workflows,
                Output::text_output(r#"{"n":100000,"sum":0}"#),
                &options,
            )
            .expect("runs");
            assert_eq!(output.text().to_string_lossy(), r#"{"n":0,"sum":5000050000}"#);
            black_box(output)
        });
    });
}

fn routing(c: &mut Criterion) {
    let triage = workflow(
        r#"{"version": 1, "root": {"kind": "conditional", "id": "triage", "routes": [
            {"expr": "severity = 'high' and $count(errors) > 0", "target": {"kind": "compute", "id": "escalate", "expr": "{ 'action': 'escalate', 'n': $count(errors) }"}},
            {"expr": "$count(errors) > 0", "target": {"kind": "compute", "id": "fix", "expr": "{ 'action': 'fix', 'n': $count(errors) }"}}],
          "default": {"kind": "compute", "id": "ok", "expr": "{ 'status': 'ok' }"}}}"#,
    );
    let severities = ["high", "low", "medium"];
    let inputs: Vec<Output> = (0..10_000)
        .map(|idx| {
            let errors: Vec<String> = (0..idx % 4).map(|e| format!("\"e{e}\"")).collect();
            Output::text_output(format!(
                r#"{{"id":{idx},"severity":"{}","errors":[{}]}}"#,
                severities[idx % 3],
                errors.join(",")
            ))
        })
        .collect();
    let options = RunOptions::default();
    let workflows = Workflows::new();
    c.bench_function("flow/routing/10k/writ", |b| {
        b.iter(|| {
            let mut escalated = 0;
            for input in &inputs {
                let output = run(&triage, &workflows, input.clone(), &options).expect("runs");
                if output.text().to_string_lossy().contains("escalate") {
                    escalated += 1;
                }
            }
            // idx % 3 == 0 and idx % 4 != 0: 2,500 of the 3,334 high ones.
            assert_eq!(escalated, 2_500);
            black_box(escalated)
        });
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = compute_loop, routing
}
criterion_main!(benches);
