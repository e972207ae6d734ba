//! `writ-bench worker`: times one workload in this process and prints one JSON line.
//!
//! The protocol, shared with `bench/peers/node.mjs`: load the data (untimed), run one
//! warm-up iteration and calibrate on it, run the samples, then print
//! `{"median_ns": <per iteration>, "check": "<string>", "samples_ns": [...], "iterations": n}`.

use std::fs;
use std::time::{Duration, Instant};

use writ_core::{Object, Value};

use crate::stats::median;
use crate::workloads;

/// How long one sample aims to take.
pub const SAMPLE_TARGET: Duration = Duration::from_millis(20);

/// Runs `worker <workload> <data-file> <samples>` and prints the result line.
///
/// # Errors
///
/// A message for bad arguments, an unknown workload, or unreadable data.
pub fn run(args: &[String]) -> Result<(), String> {
    let [name, data_file, samples] = args else {
        return Err("usage: writ-bench worker <workload> <data-file> <samples>".to_string());
    };
    let workload = workloads::find(name).ok_or_else(|| format!("unknown workload {name:?}"))?;
    let samples: usize = samples
        .parse()
        .ok()
        .filter(|&samples| samples > 0)
        .ok_or_else(|| format!("samples must be a positive integer, not {samples:?}"))?;
    let text = fs::read_to_string(data_file).map_err(|error| format!("cannot read {data_file}: {error}"))?;
    let mut task = (workload.load)(text)?;

    let warm_up = Instant::now();
    task.iterate();
    let warm_up_ns = warm_up.elapsed().as_nanos().max(1);
    let iterations = (SAMPLE_TARGET.as_nanos() / warm_up_ns).max(1);

    let mut samples_ns = Vec::with_capacity(samples);
    for _ in 0..samples {
        let start = Instant::now();
        for _ in 0..iterations {
            task.iterate();
        }
        samples_ns.push(start.elapsed().as_nanos() as f64 / iterations as f64);
    }

    let mut line = Object::new();
    line.insert("median_ns".into(), Value::from(median(&samples_ns)));
    line.insert("check".into(), Value::from(task.check()));
    line.insert(
        "samples_ns".into(),
        Value::from(samples_ns.into_iter().map(Value::from).collect::<Vec<_>>()),
    );
    line.insert("iterations".into(), Value::from(iterations as f64));
    println!("{}", Value::from(line));
    Ok(())
}
