//! The node oracle: runs cases through the reference implementations.
//!
//! The oracle is the node program in the repository's `oracle/` directory (see its README). It
//! evaluates JSON Lines cases as plain JavaScript, with jsonata 2.2.2 or with jexl 2.3.0, and
//! writes the same result envelopes as `writ eval --batch`, so an engine's tests can compare writ
//! with the reference case by case:
//!
//! ```no_run
//! use writ_testkit::oracle::{Language, run_batch};
//!
//! let outcomes = run_batch(Language::Jsonata, "{\"expr\": \"$sum([1, 2])\"}\n").unwrap();
//! assert_eq!(outcomes[0].to_envelope(), r#"{"ok":true,"value":3}"#);
//! ```
//!
//! Tests that use the oracle fail, never skip, when node or the oracle's packages are missing;
//! `npm ci --prefix oracle` installs them.

use std::fmt;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use writ_core::Outcome;

/// A language the oracle evaluates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// Plain JavaScript in node (V8).
    Js,
    /// jsonata 2.2.2.
    Jsonata,
    /// jexl 2.3.0.
    Jexl,
}

impl Language {
    /// The name `--lang` takes.
    pub fn name(self) -> &'static str {
        match self {
            Language::Js => "js",
            Language::Jsonata => "jsonata",
            Language::Jexl => "jexl",
        }
    }

    /// The reference implementation, as reports name it.
    pub fn reference(self) -> &'static str {
        match self {
            Language::Js => "node",
            Language::Jsonata => "jsonata 2.2.2",
            Language::Jexl => "jexl 2.3.0",
        }
    }
}

/// The oracle could not answer.
#[derive(Debug)]
pub struct OracleError(String);

impl fmt::Display for OracleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OracleError {}

/// The repository's `oracle/` directory.
pub fn oracle_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../oracle")
}

fn check_installed() -> Result<(), OracleError> {
    let modules = oracle_dir().join("node_modules");
    if !modules.join("jsonata").is_dir() || !modules.join("jexl").is_dir() {
        return Err(OracleError(format!(
            "the node oracle's packages are missing from {} (run `npm ci --prefix oracle` in the repository)",
            modules.display()
        )));
    }
    Ok(())
}

/// How long one oracle run may take, by default, before it is stopped.
pub const ORACLE_TIME_LIMIT: Duration = Duration::from_secs(120);

/// Runs `node <script> <args>` with `input` on stdin and returns its stdout.
fn run_node(script: &str, args: &[&str], input: &str, time_limit: Duration) -> Result<String, OracleError> {
    // Date.parse reads local time for some forms; writ reads them as UTC, so node must too.
    let mut child = Command::new("node")
        .env("TZ", "UTC")
        .arg(oracle_dir().join(script))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| {
            OracleError(format!(
                "could not start node (is node 20 installed and on PATH?): {error}"
            ))
        })?;
    let mut stdin = child
        .stdin
        .take()
        .ok_or_else(|| OracleError("node's stdin was not piped".into()))?;
    // Write and read from threads, so a large input cannot deadlock against a full pipe, while
    // this thread enforces the time limit.
    let input = input.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let mut stdout = child
        .stdout
        .take()
        .ok_or_else(|| OracleError("node's stdout was not piped".into()))?;
    let mut stderr = child
        .stderr
        .take()
        .ok_or_else(|| OracleError("node's stderr was not piped".into()))?;
    let stdout_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        stdout.read_to_end(&mut bytes).map(|_| bytes)
    });
    let stderr_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        stderr.read_to_end(&mut bytes).map(|_| bytes)
    });
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > time_limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(OracleError(format!(
                    "node {script} ran past {} ms and was stopped (does a case loop forever?)",
                    time_limit.as_millis()
                )));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(error) => return Err(OracleError(format!("node did not finish: {error}"))),
        }
    };
    let joined = |name: &str| OracleError(format!("the {name} thread panicked"));
    let written = writer.join().map_err(|_| joined("stdin writer"))?;
    let output = std::process::Output {
        status,
        stdout: stdout_reader
            .join()
            .map_err(|_| joined("stdout reader"))?
            .map_err(|error| OracleError(format!("could not read node's output: {error}")))?,
        stderr: stderr_reader
            .join()
            .map_err(|_| joined("stderr reader"))?
            .unwrap_or_default(),
    };
    if !output.status.success() {
        return Err(OracleError(format!(
            "node {script} failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )));
    }
    written.map_err(|error| OracleError(format!("could not write to node: {error}")))?;
    String::from_utf8(output.stdout).map_err(|_| OracleError(format!("node {script} wrote invalid UTF-8")))
}

/// Evaluates JSON Lines cases with the reference implementation of `language`, one outcome per
/// non-blank line, in order.
///
/// # Errors
///
/// When node or the oracle's packages are missing, when node fails, or when it writes a line
/// that is not an envelope.
pub fn run_batch(language: Language, jsonl: &str) -> Result<Vec<Outcome>, OracleError> {
    run_batch_within(language, jsonl, ORACLE_TIME_LIMIT)
}

/// [`run_batch`], stopping node once `time_limit` has passed.
///
/// # Errors
///
/// As [`run_batch`], and when the time limit passes.
pub fn run_batch_within(language: Language, jsonl: &str, time_limit: Duration) -> Result<Vec<Outcome>, OracleError> {
    check_installed()?;
    let stdout = run_node("run.mjs", &["--lang", language.name(), "-"], jsonl, time_limit)?;
    stdout
        .lines()
        .map(|line| Outcome::parse_envelope(line).map_err(|error| OracleError(format!("{error}: {line}"))))
        .collect()
}

/// JavaScript's `String(x)` for each number, computed by node.
///
/// # Errors
///
/// When node fails or answers with the wrong number of lines.
pub fn js_number_strings(numbers: &[f64]) -> Result<Vec<String>, OracleError> {
    let mut input = String::with_capacity(numbers.len() * 17);
    for number in numbers {
        input.push_str(&format!("{:016x}\n", number.to_bits()));
    }
    let stdout = run_node("numbers.mjs", &[], &input, ORACLE_TIME_LIMIT)?;
    let strings: Vec<String> = stdout.lines().map(str::to_owned).collect();
    if strings.len() != numbers.len() {
        return Err(OracleError(format!(
            "node answered {} lines for {} numbers",
            strings.len(),
            numbers.len()
        )));
    }
    Ok(strings)
}
