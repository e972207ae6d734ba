//! The harness: generates the data, runs every workload in writ and in the peer in fresh
//! processes, pass after pass, checks that both sides agree, and reports medians and ratios.

use std::path::{Path, PathBuf};
use std::process::Command;

use writ_core::{Object, Value, parse_json};

use crate::data::{self, DataSet};
use crate::stats::{human_ns, median};
use crate::workloads::{WORKLOADS, Workload};

/// The help text.
pub const USAGE: &str = "\
usage: writ-bench [--runs N] [--samples N] [--scale F] [--only SUBSTRING] [--json]
                  [--data-dir DIR] [--node PATH]
       writ-bench worker <workload> <data-file> <samples>

  --runs N          passes over every workload, each in fresh processes (default 3)
  --samples N       timed samples per process (default 7)
  --scale F         multiplies the item and number counts (default 1)
  --only SUBSTRING  runs only the workloads whose name contains SUBSTRING
  --json            prints one JSON object per workload instead of a table
  --data-dir DIR    where the generated data lives (default target/bench-data)
  --node PATH       the node executable (default node)";

/// The harness's options.
#[derive(Debug)]
pub struct Options {
    runs: usize,
    samples: usize,
    scale: f64,
    only: Option<String>,
    json: bool,
    data_dir: PathBuf,
    node: String,
}

impl Options {
    /// Reads the options from the arguments after the program name.
    ///
    /// # Errors
    ///
    /// A message for an unknown option or a bad value.
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut options = Options {
            runs: 3,
            samples: 7,
            scale: 1.0,
            only: None,
            json: false,
            data_dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-data"),
            node: "node".to_string(),
        };
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            let mut value = || args.next().cloned().ok_or_else(|| format!("{arg} needs a value"));
            match arg.as_str() {
                "--runs" => options.runs = positive(arg, &value()?)?,
                "--samples" => options.samples = positive(arg, &value()?)?,
                "--scale" => {
                    let text = value()?;
                    options.scale = text
                        .parse()
                        .ok()
                        .filter(|scale: &f64| scale.is_finite() && *scale > 0.0)
                        .ok_or_else(|| format!("--scale needs a positive number, not {text:?}"))?;
                }
                "--only" => options.only = Some(value()?),
                "--json" => options.json = true,
                "--data-dir" => options.data_dir = PathBuf::from(value()?),
                "--node" => options.node = value()?,
                _ => return Err(format!("unknown argument {arg:?}\n\n{USAGE}")),
            }
        }
        Ok(options)
    }
}

fn positive(option: &str, text: &str) -> Result<usize, String> {
    text.parse()
        .ok()
        .filter(|&count| count > 0)
        .ok_or_else(|| format!("{option} needs a positive integer, not {text:?}"))
}

/// The two systems every workload runs on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Writ,
    Peer,
}

/// What one worker process reported.
struct Report {
    samples_ns: Vec<f64>,
    check: String,
}

/// Everything gathered for one workload over all passes.
struct Tally {
    workload: &'static Workload,
    writ: Vec<Report>,
    peer: Vec<Report>,
}

impl Tally {
    fn reports(&mut self, side: Side) -> &mut Vec<Report> {
        match side {
            Side::Writ => &mut self.writ,
            Side::Peer => &mut self.peer,
        }
    }
}

/// Runs the harness and prints the report.
///
/// # Errors
///
/// A message when data cannot be written, a worker fails, or the two sides' checks differ.
pub fn run(options: &Options) -> Result<(), String> {
    let selected: Vec<&'static Workload> = WORKLOADS
        .iter()
        .filter(|workload| {
            options
                .only
                .as_ref()
                .is_none_or(|only| workload.name.contains(only.as_str()))
        })
        .collect();
    if selected.is_empty() {
        return Err(format!(
            "no workload matches --only {:?}",
            options.only.as_deref().unwrap_or("")
        ));
    }
    let files = data::ensure(&options.data_dir, options.scale)?;
    let data_file = |set: DataSet| -> PathBuf {
        files
            .iter()
            .find(|(candidate, _)| *candidate == set)
            .map(|(_, path)| path.clone())
            .unwrap_or_default()
    };
    let node_version = node_version(&options.node)?;
    let writ_exe = std::env::current_exe().map_err(|error| format!("cannot find writ-bench itself: {error}"))?;
    let peer_script = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/node.mjs");

    let sizes = DataSet::ALL
        .iter()
        .map(|set| format!("{} = {}", set.stem(), set.count(options.scale)))
        .collect::<Vec<_>>()
        .join(", ");
    let header = format!(
        "writ-bench: {} runs x {} samples, peer node {node_version}, scale {} ({sizes})",
        options.runs,
        options.samples,
        writ_core::js_number_to_string(options.scale),
    );
    if options.json {
        eprintln!("{header}");
    } else {
        println!("{header}");
    }

    let mut tallies: Vec<Tally> = selected
        .iter()
        .map(|&workload| Tally {
            workload,
            writ: Vec::new(),
            peer: Vec::new(),
        })
        .collect();
    let samples = options.samples.to_string();
    for pass in 0..options.runs {
        eprintln!("pass {}/{}", pass + 1, options.runs);
        // Alternate which side goes first, so neither always runs on a machine the other warmed.
        let order = if pass % 2 == 0 {
            [Side::Writ, Side::Peer]
        } else {
            [Side::Peer, Side::Writ]
        };
        for tally in &mut tallies {
            let file = data_file(tally.workload.data);
            for side in order {
                let mut command = match side {
                    Side::Writ => {
                        let mut command = Command::new(&writ_exe);
                        command.arg("worker");
                        command
                    }
                    Side::Peer => {
                        let mut command = Command::new(&options.node);
                        command.arg(&peer_script);
                        command
                    }
                };
                command.arg(tally.workload.name).arg(&file).arg(&samples);
                let report = run_worker(command, tally.workload.name, side)?;
                tally.reports(side).push(report);
            }
        }
    }

    let mut rows = Vec::with_capacity(tallies.len());
    let mut disagreements = Vec::new();
    for tally in &tallies {
        let name = tally.workload.name;
        let writ_check = agreed_check(name, "writ", &tally.writ)?;
        let peer_check = agreed_check(name, "node", &tally.peer)?;
        if writ_check != peer_check {
            // Reported after the figures, so a correctness bug does not hide the timings.
            disagreements.push(format!(
                "{name}: writ and node disagree: writ's check is {writ_check:?}, node's is {peer_check:?}"
            ));
        }
        let all_samples = |reports: &[Report]| {
            median(
                &reports
                    .iter()
                    .flat_map(|report| report.samples_ns.iter().copied())
                    .collect::<Vec<_>>(),
            )
        };
        rows.push(Row {
            name,
            writ_ns: all_samples(&tally.writ),
            peer_ns: all_samples(&tally.peer),
            writ_check,
            peer_check,
        });
    }
    if options.json {
        for row in rows {
            let mut line = Object::new();
            line.insert("workload".into(), Value::from(row.name));
            line.insert("writ_median_ns".into(), Value::from(row.writ_ns));
            line.insert("peer".into(), Value::from("node"));
            line.insert("peer_median_ns".into(), Value::from(row.peer_ns));
            line.insert("ratio".into(), Value::from(row.writ_ns / row.peer_ns));
            line.insert("checks_agree".into(), Value::from(row.writ_check == row.peer_check));
            line.insert("writ_check".into(), Value::from(row.writ_check));
            line.insert("peer_check".into(), Value::from(row.peer_check));
            line.insert("runs".into(), Value::from(options.runs as f64));
            line.insert("samples".into(), Value::from(options.samples as f64));
            println!("{}", Value::from(line));
        }
    } else {
        let width = rows
            .iter()
            .map(|row| row.name.len())
            .max()
            .unwrap_or(0)
            .max("workload".len());
        println!(
            "{:<width$}  {:>10}  {:>10}  {:>9}",
            "workload", "writ", "node", "writ/node"
        );
        for row in rows {
            let mut ratio = format!("{:.2}x", row.writ_ns / row.peer_ns);
            if row.writ_check != row.peer_check {
                ratio.push_str("  (checks differ)");
            }
            println!(
                "{:<width$}  {:>10}  {:>10}  {ratio:>9}",
                row.name,
                human_ns(row.writ_ns),
                human_ns(row.peer_ns),
            );
        }
    }
    if disagreements.is_empty() {
        Ok(())
    } else {
        Err(disagreements.join("\n"))
    }
}

/// One line of the report.
struct Row {
    name: &'static str,
    writ_ns: f64,
    peer_ns: f64,
    writ_check: String,
    peer_check: String,
}

/// The one check string every run of one side gave.
fn agreed_check(name: &str, side: &str, reports: &[Report]) -> Result<String, String> {
    let first = reports.first().map(|report| report.check.clone()).unwrap_or_default();
    match reports.iter().find(|report| report.check != first) {
        Some(other) => Err(format!(
            "{name}: {side} gave different checks in different runs: {first:?} and {:?}",
            other.check
        )),
        None => Ok(first),
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Writ => "writ",
        Side::Peer => "node",
    }
}

/// Runs one worker process and reads its result line.
fn run_worker(mut command: Command, name: &str, side: Side) -> Result<Report, String> {
    let who = format!("{name} ({})", side_name(side));
    let output = command
        .output()
        .map_err(|error| format!("{who}: cannot start {:?}: {error}", command.get_program()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!(
            "{who}: the worker failed ({}):\n{stderr}{stdout}",
            output.status
        ));
    }
    let line = stdout.lines().rev().find(|line| !line.trim().is_empty()).unwrap_or("");
    let parsed = parse_json(line).map_err(|error| format!("{who}: the worker printed {line:?}: {error}"))?;
    let field = |key: &str| parsed.as_object().and_then(|object| object.get_str(key));
    let samples_ns: Vec<f64> = field("samples_ns")
        .and_then(Value::as_array)
        .map(|samples| samples.iter().filter_map(Value::as_number).collect())
        .unwrap_or_default();
    let check = field("check")
        .and_then(Value::as_str)
        .map(|check| check.to_string_lossy().into_owned());
    match check {
        Some(check) if !samples_ns.is_empty() && field("median_ns").and_then(Value::as_number).is_some() => {
            Ok(Report { samples_ns, check })
        }
        _ => Err(format!(
            "{who}: the worker's line lacks median_ns, check or samples_ns: {line}"
        )),
    }
}

/// `node --version`, which also proves node can be started.
fn node_version(node: &str) -> Result<String, String> {
    let output = Command::new(node)
        .arg("--version")
        .output()
        .map_err(|error| format!("cannot run the peer {node:?} (is node 20 installed and on PATH?): {error}"))?;
    if !output.status.success() {
        return Err(format!("{node} --version failed ({})", output.status));
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
}
