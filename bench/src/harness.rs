//! The harness: generates the data, runs every workload in writ and in its peers (node,
//! jlens-core for the JSONata workloads, LangGraph for the plan runtime's) in fresh processes, pass after pass, checks that every
//! side agrees, and reports medians and writ's ratio to each peer.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use writ_core::{Object, Value, parse_json};

use crate::data::{self, DataSet};
use crate::stats::{human_ns, median};
use crate::workloads::{WORKLOADS, Workload};

/// The jlens-core release the bench links, pinned in `bench/Cargo.toml`.
const JLENS_VERSION: &str = "0.26.0";

/// The help text.
pub const USAGE: &str = "\
usage: writ-bench [--runs N] [--samples N] [--scale F] [--only SUBSTRING] [--json]
                  [--data-dir DIR] [--node PATH] [--python PATH]
       writ-bench worker [--side writ|jlens] <workload> <data-file> <samples>

  --runs N          passes over every workload, each in fresh processes (default 3)
  --samples N       timed samples per process (default 7)
  --scale F         multiplies the item and number counts (default 1)
  --only SUBSTRING  runs only the workloads whose name contains SUBSTRING
  --json            prints one JSON object per workload instead of a table
  --data-dir DIR    where the generated data lives (default target/bench-data)
  --node PATH       the node executable (default node)
  --python PATH     the Python with LangGraph installed, for the run/ workloads
                    (default bench/peers/.venv/bin/python)";

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
    python: PathBuf,
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
            python: Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/.venv/bin/python"),
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
                "--python" => options.python = PathBuf::from(value()?),
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

/// The systems a workload may run on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Writ,
    Node,
    Jlens,
    LangGraph,
}

impl Side {
    /// Every side, in the order of the first pass; the next pass goes the other way round, so
    /// no side always runs on a machine another has warmed.
    const ALL: [Side; 4] = [Side::Writ, Side::Node, Side::Jlens, Side::LangGraph];

    /// The sides writ is compared with.
    const PEERS: [Side; 3] = [Side::Node, Side::Jlens, Side::LangGraph];

    fn name(self) -> &'static str {
        match self {
            Side::Writ => "writ",
            Side::Node => "node",
            Side::Jlens => "jlens",
            Side::LangGraph => "langgraph",
        }
    }

    fn index(self) -> usize {
        match self {
            Side::Writ => 0,
            Side::Node => 1,
            Side::Jlens => 2,
            Side::LangGraph => 3,
        }
    }

    fn runs(self, workload: &Workload) -> bool {
        match self {
            Side::Writ => true,
            Side::Node => workload.without_node.is_none(),
            Side::Jlens => workload.jlens.is_some(),
            Side::LangGraph => workload.langgraph,
        }
    }
}

/// What one worker process reported.
struct Report {
    samples_ns: Vec<f64>,
    check: String,
}

/// Everything gathered for one workload over all passes, by [`Side::index`].
struct Tally {
    workload: &'static Workload,
    reports: [Vec<Report>; 4],
}

/// One side's figures for one workload.
struct Figure {
    median_ns: f64,
    check: String,
}

/// One line of the report: each side's figures, absent for a side that does not run it.
struct Row {
    workload: &'static Workload,
    sides: [Option<Figure>; 4],
}

impl Row {
    fn side(&self, side: Side) -> Option<&Figure> {
        self.sides[side.index()].as_ref()
    }

    /// writ's median over `peer`'s, when both ran.
    fn ratio(&self, peer: Side) -> Option<f64> {
        Some(self.side(Side::Writ)?.median_ns / self.side(peer)?.median_ns)
    }

    /// Whether `peer` gave writ's check (true when it did not run).
    fn agrees(&self, peer: Side) -> bool {
        match (self.side(Side::Writ), self.side(peer)) {
            (Some(writ), Some(other)) => writ.check == other.check,
            _ => true,
        }
    }
}

/// Runs the harness and prints the report.
///
/// # Errors
///
/// A message when data cannot be written, a worker fails, or two sides' checks differ.
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
    let node_version = node_version(&options.node)?;
    let writ_exe = std::env::current_exe().map_err(|error| format!("cannot find writ-bench itself: {error}"))?;
    let peer_script = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/node.mjs");
    let langgraph_script = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/langgraph_peer.py");

    let sizes = DataSet::ALL
        .iter()
        .map(|set| format!("{} = {}", set.stem(), set.count(options.scale)))
        .collect::<Vec<_>>()
        .join(", ");
    let with_jlens = selected.iter().any(|workload| workload.jlens.is_some());
    let mut peers = if with_jlens {
        format!(
            "peers node {node_version} (jsonata-js {}) and jlens-core {JLENS_VERSION}",
            jsonata_version()?
        )
    } else {
        format!("peer node {node_version}")
    };
    let with_langgraph = selected.iter().any(|workload| workload.langgraph);
    if with_langgraph {
        peers.push_str(&format!(", LangGraph {}", langgraph_version(&options.python)?));
    }
    let header = format!(
        "writ-bench: {} runs x {} samples, {peers}, scale {} ({sizes}{})",
        options.runs,
        options.samples,
        writ_core::js_number_to_string(options.scale),
        if with_jlens {
            "; the JSONata suite's datasets unscaled"
        } else {
            ""
        },
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
            reports: [Vec::new(), Vec::new(), Vec::new(), Vec::new()],
        })
        .collect();
    let samples = options.samples.to_string();
    for pass in 0..options.runs {
        eprintln!("pass {}/{}", pass + 1, options.runs);
        let mut order = Side::ALL;
        if pass % 2 == 1 {
            order.reverse();
        }
        for tally in &mut tallies {
            let file = tally.workload.data.path(&files);
            for side in order.into_iter().filter(|side| side.runs(tally.workload)) {
                let mut command = match side {
                    Side::Writ | Side::Jlens => {
                        let mut command = Command::new(&writ_exe);
                        command.arg("worker");
                        if side == Side::Jlens {
                            command.args(["--side", "jlens"]);
                        }
                        command
                    }
                    Side::LangGraph => {
                        let mut command = Command::new(&options.python);
                        command.arg(&langgraph_script);
                        command
                    }
                    Side::Node => {
                        let mut command = Command::new(&options.node);
                        // wasmoon's WebAssembly, tiered up in the background, can leave node 20
                        // hung at exit; compiled optimized up front, it never does (see node.mjs).
                        command.arg("--no-wasm-dynamic-tiering").arg(&peer_script);
                        command
                    }
                };
                command.arg(tally.workload.name).arg(&file).arg(&samples);
                let report = run_worker(command, tally.workload.name, side)?;
                tally.reports[side.index()].push(report);
            }
        }
    }

    let mut rows = Vec::with_capacity(tallies.len());
    let mut disagreements = Vec::new();
    for tally in &tallies {
        let name = tally.workload.name;
        let mut sides = [None, None, None, None];
        for side in Side::ALL {
            let reports = &tally.reports[side.index()];
            if reports.is_empty() {
                continue;
            }
            let samples: Vec<f64> = reports
                .iter()
                .flat_map(|report| report.samples_ns.iter().copied())
                .collect();
            sides[side.index()] = Some(Figure {
                median_ns: median(&samples),
                check: agreed_check(name, side.name(), reports)?,
            });
        }
        let row = Row {
            workload: tally.workload,
            sides,
        };
        for peer in Side::PEERS {
            if let (false, Some(writ), Some(other)) = (row.agrees(peer), row.side(Side::Writ), row.side(peer)) {
                // Reported after the figures, so a correctness bug does not hide the timings.
                disagreements.push(format!(
                    "{name}: writ and {} disagree: writ's check is {:?}, {}'s is {:?}",
                    peer.name(),
                    writ.check,
                    peer.name(),
                    other.check
                ));
            }
        }
        rows.push(row);
    }
    if options.json {
        for row in &rows {
            println!("{}", json_line(row, options));
        }
    } else {
        print_table(&rows, with_jlens, with_langgraph);
    }
    if disagreements.is_empty() {
        Ok(())
    } else {
        Err(disagreements.join("\n"))
    }
}

/// One workload as a JSON object. The `peer_*` fields and `ratio` are node's, as they were
/// before jlens joined; `jlens_*` appear for the workloads jlens runs.
fn json_line(row: &Row, options: &Options) -> Value {
    let number_or_null = |number: Option<f64>| number.map_or(Value::Null, Value::from);
    let mut line = Object::new();
    line.insert("workload".into(), Value::from(row.workload.name));
    let writ = row.side(Side::Writ);
    line.insert(
        "writ_median_ns".into(),
        number_or_null(writ.map(|figure| figure.median_ns)),
    );
    line.insert("peer".into(), Value::from("node"));
    let node = row.side(Side::Node);
    line.insert(
        "peer_median_ns".into(),
        number_or_null(node.map(|figure| figure.median_ns)),
    );
    line.insert("ratio".into(), number_or_null(row.ratio(Side::Node)));
    if let Some(reason) = row.workload.without_node {
        line.insert("node_not_run".into(), Value::from(reason));
    }
    if row.workload.jlens.is_some() {
        let jlens = row.side(Side::Jlens);
        line.insert(
            "jlens_median_ns".into(),
            number_or_null(jlens.map(|figure| figure.median_ns)),
        );
        line.insert("jlens_ratio".into(), number_or_null(row.ratio(Side::Jlens)));
        line.insert(
            "jlens_check".into(),
            jlens.map_or(Value::Null, |figure| Value::from(figure.check.as_str())),
        );
    }
    if row.workload.langgraph {
        let langgraph = row.side(Side::LangGraph);
        line.insert(
            "langgraph_median_ns".into(),
            number_or_null(langgraph.map(|figure| figure.median_ns)),
        );
        line.insert("langgraph_ratio".into(), number_or_null(row.ratio(Side::LangGraph)));
        line.insert(
            "langgraph_check".into(),
            langgraph.map_or(Value::Null, |figure| Value::from(figure.check.as_str())),
        );
    }
    line.insert(
        "checks_agree".into(),
        Value::from(Side::PEERS.into_iter().all(|peer| row.agrees(peer))),
    );
    line.insert(
        "writ_check".into(),
        writ.map_or(Value::Null, |figure| Value::from(figure.check.as_str())),
    );
    line.insert(
        "peer_check".into(),
        node.map_or(Value::Null, |figure| Value::from(figure.check.as_str())),
    );
    line.insert("runs".into(), Value::from(options.runs as f64));
    line.insert("samples".into(), Value::from(options.samples as f64));
    Value::from(line)
}

/// A ratio with three significant digits at most, so that 1,000× apart still shows.
fn ratio_text(ratio: f64) -> String {
    if ratio >= 0.1 || ratio == 0.0 || !ratio.is_finite() {
        format!("{ratio:.2}x")
    } else {
        let decimals = (2.0 - ratio.log10().floor()) as usize;
        format!("{ratio:.decimals$}x")
    }
}

/// The table: each side's median and writ's ratio to each peer ("—" where a side did not run;
/// the jlens and LangGraph columns only when a selected workload has that side), then why node
/// skipped what it skipped.
fn print_table(rows: &[Row], with_jlens: bool, with_langgraph: bool) {
    let width = rows
        .iter()
        .map(|row| row.workload.name.len())
        .max()
        .unwrap_or(0)
        .max("workload".len());
    let peers: Vec<Side> = Side::PEERS
        .into_iter()
        .filter(|peer| match peer {
            Side::Jlens => with_jlens,
            Side::LangGraph => with_langgraph,
            _ => true,
        })
        .collect();
    let mut header = format!("{:<width$}  {:>10}", "workload", "writ");
    for peer in &peers {
        header.push_str(&format!("  {:>10}", peer.name()));
    }
    for peer in &peers {
        header.push_str(&format!("  {:>14}", format!("writ/{}", peer.name())));
    }
    println!("{}", header.trim_end());
    let time = |row: &Row, side: Side| {
        row.side(side)
            .map_or_else(|| "—".to_string(), |figure| human_ns(figure.median_ns))
    };
    for row in rows {
        let mut line = format!("{:<width$}  {:>10}", row.workload.name, time(row, Side::Writ));
        for &peer in &peers {
            line.push_str(&format!("  {:>10}", time(row, peer)));
        }
        for &peer in &peers {
            let mut ratio = row.ratio(peer).map_or_else(|| "—".to_string(), ratio_text);
            if !row.agrees(peer) {
                ratio.push_str(" (checks differ)");
            }
            line.push_str(&format!("  {ratio:>14}"));
        }
        println!("{}", line.trim_end());
    }
    for row in rows {
        if let Some(reason) = row.workload.without_node {
            println!("{}: node not run: {reason}", row.workload.name);
        }
    }
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

/// How long one worker may run: the slowest (jsonata-js on 200,000 items) takes under a minute,
/// so a worker still running after this is hung, and the harness says so instead of waiting.
const WORKER_DEADLINE: Duration = Duration::from_secs(300);

/// Runs one worker process and reads its result line.
fn run_worker(mut command: Command, name: &str, side: Side) -> Result<Report, String> {
    let who = format!("{name} ({})", side.name());
    let finished = output_within(&mut command, WORKER_DEADLINE, EXIT_GRACE)
        .map_err(|error| format!("{who}: {:?}: {error}", command.get_program()))?;
    let output = finished.output;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if finished.stopped_after_answer {
        eprintln!(
            "{who}: answered, then did not exit within {} s; stopped",
            EXIT_GRACE.as_secs()
        );
    } else if !output.status.success() {
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

/// How long a worker that has printed its answer may take to exit before it is stopped and its
/// answer kept: node 20 can hang at exit after running wasmoon, with V8 still busy in the
/// background (`--no-wasm-dynamic-tiering` makes it rarer, not impossible), and the answer is
/// complete once its line is out.
const EXIT_GRACE: Duration = Duration::from_secs(10);

/// What a worker process left: its output, and whether it had to be stopped after answering.
struct Finished {
    /// Exit status and both streams.
    output: Output,
    /// It printed its answer line but did not exit within the grace period, so it was killed.
    stopped_after_answer: bool,
}

/// [`Command::output`], but a process still running after `deadline` is killed and reported,
/// and one that printed its answer line (`{"median_ns"…`) but has not exited `grace` later is
/// killed and its output kept.
fn output_within(command: &mut Command, deadline: Duration, grace: Duration) -> Result<Finished, String> {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| format!("cannot start it: {error}"))?;
    let answered = Arc::new(AtomicBool::new(false));
    // Both pipes are drained as the process writes, so a full pipe cannot stall it; stdout line
    // by line, to see the answer as soon as it is written.
    let stdout = {
        let answered = Arc::clone(&answered);
        let pipe = child.stdout.take();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(pipe) = pipe {
                let mut reader = BufReader::new(pipe);
                let mut line = Vec::new();
                while reader.read_until(b'\n', &mut line).unwrap_or(0) > 0 {
                    if line.starts_with(b"{\"median_ns\"") && line.ends_with(b"\n") {
                        answered.store(true, Ordering::SeqCst);
                    }
                    bytes.append(&mut line);
                }
            }
            bytes
        })
    };
    let stderr = {
        let pipe = child.stderr.take();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let started = Instant::now();
    let mut answered_at = None;
    let mut stopped_after_answer = false;
    let status = loop {
        if let Some(status) = child
            .try_wait()
            .map_err(|error| format!("cannot wait for it: {error}"))?
        {
            break status;
        }
        if answered.load(Ordering::SeqCst) {
            let since = *answered_at.get_or_insert_with(Instant::now);
            if since.elapsed() > grace {
                let _ = child.kill();
                stopped_after_answer = true;
                break child.wait().map_err(|error| format!("cannot wait for it: {error}"))?;
            }
        } else if started.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "still running after {} s, so it was stopped",
                deadline.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ok(Finished {
        output: Output {
            status,
            stdout: stdout.join().unwrap_or_default(),
            stderr: stderr.join().unwrap_or_default(),
        },
        stopped_after_answer,
    })
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

/// The version of LangGraph that `python` imports.
fn langgraph_version(python: &Path) -> Result<String, String> {
    let output = Command::new(python)
        .args(["-c", "import importlib.metadata as m; print(m.version('langgraph'))"])
        .output()
        .map_err(|error| {
            format!(
                "cannot run {} for the LangGraph peer (python3 -m venv bench/peers/.venv && bench/peers/.venv/bin/pip install -r bench/peers/requirements.txt): {error}",
                python.display()
            )
        })?;
    if !output.status.success() {
        return Err(format!(
            "{} cannot import langgraph (pip install -r bench/peers/requirements.txt): {}",
            python.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// The version of the jsonata-js the node peer loads (from the oracle's `node_modules`).
fn jsonata_version() -> Result<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../oracle/node_modules/jsonata/package.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|error| format!("cannot read {} (run npm ci in oracle/): {error}", path.display()))?;
    let manifest = parse_json(&text).map_err(|error| format!("{}: {error}", path.display()))?;
    manifest
        .as_object()
        .and_then(|object| object.get_str("version"))
        .and_then(Value::as_str)
        .map(|version| version.to_string_lossy().into_owned())
        .ok_or_else(|| format!("{} has no version", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shell running `script`.
    fn shell(script: &str) -> Command {
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        command
    }

    #[test]
    fn a_worker_that_answers_and_hangs_is_stopped_and_its_answer_kept() {
        let line = r#"{"median_ns": 1, "check": "c", "samples_ns": [1], "iterations": 1}"#;
        let grace = Duration::from_millis(200);
        let hung = output_within(
            &mut shell(&format!("echo '{line}'; exec sleep 30")),
            WORKER_DEADLINE,
            grace,
        )
        .expect("stopped after answering");
        assert!(hung.stopped_after_answer);
        assert_eq!(String::from_utf8_lossy(&hung.output.stdout).trim(), line);
        let clean = output_within(&mut shell(&format!("echo '{line}'")), WORKER_DEADLINE, grace).expect("exits");
        assert!(!clean.stopped_after_answer && clean.output.status.success());
        let silent = output_within(
            &mut shell("echo working; exec sleep 30"),
            Duration::from_millis(300),
            grace,
        );
        assert_eq!(
            silent.err().as_deref(),
            Some("still running after 0 s, so it was stopped")
        );
    }

    #[test]
    fn a_peer_that_differs_from_writ_is_caught() {
        let workload = crate::workloads::find("jsonata/suite/map").expect("a workload");
        let figure = |check: &str| {
            Some(Figure {
                median_ns: 2.0,
                check: check.to_string(),
            })
        };
        let row = Row {
            workload,
            sides: [figure("a"), figure("a"), figure("b"), None],
        };
        assert!(row.agrees(Side::Node));
        assert!(!row.agrees(Side::Jlens));
        assert_eq!(row.ratio(Side::Node), Some(1.0));
        let without_node = Row {
            workload,
            sides: [figure("a"), None, figure("a"), None],
        };
        assert!(without_node.agrees(Side::Node));
        assert_eq!(without_node.ratio(Side::Node), None);
    }

    #[test]
    fn ratios_keep_three_significant_digits() {
        assert_eq!(ratio_text(1.234), "1.23x");
        assert_eq!(ratio_text(0.25), "0.25x");
        assert_eq!(ratio_text(0.0123), "0.0123x");
        assert_eq!(ratio_text(0.000_456_7), "0.000457x");
    }
}
