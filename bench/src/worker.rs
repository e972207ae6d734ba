//! `writ-bench worker`: times one workload in this process, on writ or on jlens-core, and
//! prints one JSON line.
//!
//! The protocol, shared with `bench/peers/node.mjs`: load the data (untimed), run one
//! warm-up iteration and calibrate on it, run the samples (fewer, but at least
//! [`MIN_SAMPLES`], once they have taken [`SLOW_SAMPLING`]), then print
//! `{"median_ns": <per iteration>, "check": "<string>", "samples_ns": [...], "iterations": n}`.

use std::fs;
use std::time::{Duration, Instant};

use writ_core::{Object, Value};

use crate::stats::median;
use crate::workloads::{self, Task};

/// How long one sample aims to take.
pub const SAMPLE_TARGET: Duration = Duration::from_millis(20);

/// How long the samples may take before the worker stops at [`MIN_SAMPLES`]: an iteration
/// that takes seconds (jsonata-js grouping 200,000 items) would otherwise hold one process for
/// minutes. Samples of [`SAMPLE_TARGET`] never come near it.
pub const SLOW_SAMPLING: Duration = Duration::from_secs(10);

/// The fewest samples a worker takes.
pub const MIN_SAMPLES: usize = 3;

/// The usage line of a worker.
const USAGE: &str = "usage: writ-bench worker [--side writ|jlens] <workload> <data-file> <samples>";

/// Runs `worker [--side writ|jlens] <workload> <data-file> <samples>` and prints the result
/// line.
///
/// # Errors
///
/// A message for bad arguments, an unknown workload or one the side does not run, or
/// unreadable data.
pub fn run(args: &[String]) -> Result<(), String> {
    let (side, args) = match args {
        [flag, side, rest @ ..] if flag == "--side" => (side.as_str(), rest),
        _ => ("writ", args),
    };
    let [name, data_file, samples] = args else {
        return Err(USAGE.to_string());
    };
    let workload = workloads::find(name).ok_or_else(|| format!("unknown workload {name:?}"))?;
    let load = match side {
        "writ" => workload.load,
        "jlens" => workload.jlens.ok_or_else(|| format!("jlens does not run {name}"))?,
        _ => return Err(format!("unknown side {side:?}\n{USAGE}")),
    };
    let samples: usize = samples
        .parse()
        .ok()
        .filter(|&samples| samples > 0)
        .ok_or_else(|| format!("samples must be a positive integer, not {samples:?}"))?;
    let text = fs::read_to_string(data_file).map_err(|error| format!("cannot read {data_file}: {error}"))?;
    let mut task = load(text)?;

    let warm_up_ns = timed(&mut *task).as_nanos().max(1);
    let iterations = (SAMPLE_TARGET.as_nanos() / warm_up_ns).max(1);

    let mut samples_ns = Vec::with_capacity(samples);
    let sampling = Instant::now();
    for _ in 0..samples {
        let sample = if task.prepares() {
            (0..iterations).map(|_| timed(&mut *task)).sum()
        } else {
            let start = Instant::now();
            for _ in 0..iterations {
                task.iterate();
            }
            start.elapsed()
        };
        samples_ns.push(sample.as_nanos() as f64 / iterations as f64);
        if samples_ns.len() >= MIN_SAMPLES && sampling.elapsed() >= SLOW_SAMPLING {
            break;
        }
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

/// One iteration's time, its preparation (if the task has one) untimed.
fn timed(task: &mut dyn Task) -> Duration {
    if task.prepares() {
        task.prepare();
    }
    let start = Instant::now();
    task.iterate();
    start.elapsed()
}
