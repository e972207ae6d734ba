//! `writ flow …`: check and run JSON workflow documents (seed 001).
//!
//! `writ flow run` prints the workflow's output text to stdout (with `--json`,
//! `{"ok":true,"output":<text>}` or `{"ok":false,"error":{"code","message"}}`) and exits 1
//! when the run failed. Items a node's emitItems hooks emit go to stderr as JSON Lines,
//! `{"type":"emit","node","hook","item"?,"value"}`, as they happen. `writ flow check` prints
//! every issue (with `--json`, `{"ok","issues":[{"code","path","message"}]}`) and exits 1 when
//! there is one.
//!
//! The host's inputs are files: `--events` holds JSON Lines (one event a line, in arrival
//! order), `--answers` a JSON object keyed by decide node id; `-` reads either from stdin.
//! Without `--input` or `--input-file` the input is the empty text.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, Subcommand};
use serde_json::Value as Json;
use writ_core::{RecordingHost, SystemHost, Value, parse_json};
use writ_flow::{Connections, Emitted, Error, Output, RunLimits, RunOptions, Workflow, Workflows};

use crate::{CommandError, ExitStatus, UsageError};

/// `writ flow`: JSON workflows.
#[derive(Args, Debug)]
pub struct FlowArgs {
    #[command(subcommand)]
    command: FlowCommand,
}

#[derive(Subcommand, Debug)]
enum FlowCommand {
    /// Run a workflow document over an input and print its output.
    ///
    /// Exits 0 when the run completed, 1 when it failed, 2 when it could not start.
    Run(RunFlags),
    /// Check a workflow document: every unknown kind and field, with its JSON Pointer.
    ///
    /// Exits 0 when it can run, 1 when it has issues, 2 when it cannot be read as JSON.
    Check {
        /// The workflow document.
        workflow: PathBuf,
        /// The named workflows subflows call: one file DIR/<name>.json each.
        #[arg(long, value_name = "DIR")]
        workflows: Option<PathBuf>,
        /// Print {"ok", "issues": [{"code", "path", "message"}]}.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args, Debug)]
struct RunFlags {
    /// The workflow document.
    workflow: PathBuf,
    /// The input text.
    #[arg(long, value_name = "TEXT", conflicts_with = "input_file")]
    input: Option<String>,
    /// A file holding the input text (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    input_file: Option<PathBuf>,
    /// The named workflows subflows call: one file DIR/<name>.json each.
    #[arg(long, value_name = "DIR")]
    workflows: Option<PathBuf>,
    /// Expression limits for this run: {"timeout", "depth", "steps", "sequence",
    /// "maxRecursionDepth"}; unset fields keep their defaults.
    #[arg(long, value_name = "JSON")]
    limits: Option<String>,
    /// Print {"ok":true,"output":…} or {"ok":false,"error":{"code","message"}}.
    #[arg(long)]
    json: bool,
    /// A tools manifest: each MCP server is a connection, the inline tools are "tools".
    #[arg(long, value_name = "M")]
    tools: Option<PathBuf>,
    /// A model file for callModel nodes.
    #[arg(long, value_name = "FILE")]
    model: Option<PathBuf>,
    /// The events wait nodes take: JSON Lines in arrival order (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    events: Option<PathBuf>,
    /// The answers decide nodes read: a JSON object keyed by node id (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    answers: Option<PathBuf>,
}

/// Runs a `writ flow` command.
pub fn run(args: FlowArgs) -> Result<ExitStatus, CommandError> {
    match args.command {
        FlowCommand::Run(flags) => run_flow(&flags),
        FlowCommand::Check {
            workflow,
            workflows,
            json,
        } => check_flow(&workflow, workflows.as_deref(), json),
    }
}

fn read_text(path: &Path, what: &str) -> Result<String, UsageError> {
    if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|error| UsageError(format!("cannot read {what} from stdin: {error}")))?;
        return Ok(text);
    }
    std::fs::read_to_string(path).map_err(|error| UsageError(format!("cannot read {what} {}: {error}", path.display())))
}

fn read_json(path: &Path, what: &str) -> Result<Value, UsageError> {
    let text = read_text(path, what)?;
    parse_json(&text).map_err(|error| UsageError(format!("{what} {} is not JSON: {error}", path.display())))
}

/// The `.json` files of `dir`, as (name, path), sorted by name.
fn named_files(dir: &Path) -> Result<Vec<(String, PathBuf)>, UsageError> {
    let entries = std::fs::read_dir(dir).map_err(|error| {
        UsageError(format!(
            "cannot read the workflows directory {}: {error}",
            dir.display()
        ))
    })?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|error| {
                UsageError(format!(
                    "cannot read the workflows directory {}: {error}",
                    dir.display()
                ))
            })?
            .path();
        if path.extension().is_some_and(|ext| ext == "json")
            && let Some(name) = path.file_stem()
        {
            files.push((name.to_string_lossy().into_owned(), path.clone()));
        }
    }
    files.sort();
    Ok(files)
}

fn check_flow(path: &Path, dir: Option<&Path>, json: bool) -> Result<ExitStatus, CommandError> {
    let document = read_json(path, "the workflow")?;
    // A subflow's name only has to exist here; each named workflow is checked on its own.
    let names = match dir {
        Some(dir) => named_files(dir)?.into_iter().map(|(name, _)| name).collect(),
        None => Vec::new(),
    };
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let issues = writ_flow::check_names(&document, &names);
    let mut out = std::io::stdout().lock();
    if json {
        let issues: Vec<Json> = issues
            .iter()
            .map(|issue| serde_json::json!({"code": issue.code.as_str(), "path": issue.path, "message": issue.message}))
            .collect();
        writeln!(
            out,
            "{}",
            serde_json::json!({"ok": issues.is_empty(), "issues": issues})
        )?;
    } else if issues.is_empty() {
        writeln!(out, "ok: {} can run", path.display())?;
    } else {
        for issue in &issues {
            let at = if issue.path.is_empty() {
                "/"
            } else {
                issue.path.as_str()
            };
            writeln!(out, "{} at {at}: {}", issue.code, issue.message)?;
        }
    }
    Ok(if issues.is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}

/// Everything a run needs, read from the flags before anything runs.
struct Prepared {
    workflow: Workflow,
    workflows: Workflows,
    input: Output,
    options: RunOptions,
}

fn run_flow(flags: &RunFlags) -> Result<ExitStatus, CommandError> {
    // The tokio runtime drives MCP servers and model requests; the interpreter runs on this
    // thread and blocks on it for each call.
    let tokio = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| UsageError(format!("cannot start the async runtime: {error}")))?;
    let prepared = match prepare(flags, &tokio)? {
        Ok(prepared) => prepared,
        Err(error) => return answer(Err(error), flags.json),
    };
    let result = writ_flow::run(
        &prepared.workflow,
        &prepared.workflows,
        prepared.input,
        &prepared.options,
    );
    let status = answer(result, flags.json);
    // MCP servers are children of the runtime's tasks; dropping the options' connections
    // first stops them, then the runtime.
    drop(prepared.options);
    tokio.shutdown_background();
    status
}

fn prepare(flags: &RunFlags, tokio: &tokio::runtime::Runtime) -> Result<Result<Prepared, Error>, CommandError> {
    let document = read_json(&flags.workflow, "the workflow")?;
    let mut workflows = Workflows::new();
    if let Some(dir) = &flags.workflows {
        for (name, path) in named_files(dir)? {
            let named = read_json(&path, "the workflow")?;
            match Workflow::parse(&named) {
                Ok(workflow) => workflows.insert(name, workflow),
                Err(issues) => {
                    let error = writ_flow::Issue::into_error(&issues);
                    return Ok(Err(Error::new(
                        error.kind(),
                        format!("named workflow {}: {}", path.display(), error.message()),
                    )));
                }
            }
        }
    }
    let issues = writ_flow::check(&document, &workflows);
    if !issues.is_empty() {
        return Ok(Err(writ_flow::Issue::into_error(&issues)));
    }
    let workflow = match Workflow::parse(&document) {
        Ok(workflow) => workflow,
        Err(issues) => return Ok(Err(writ_flow::Issue::into_error(&issues))),
    };
    let limits = match &flags.limits {
        None => RunLimits::default(),
        Some(text) => match parse_json(text) {
            Ok(json) => match RunLimits::from_json(&json) {
                Ok(limits) => limits,
                Err(error) => return Ok(Err(error)),
            },
            Err(error) => {
                return Ok(Err(Error::new(
                    writ_flow::Code::InvalidExpressionLimits,
                    format!("--limits is not JSON ({error:?}); write an object such as {{\"timeout\": 5000}}"),
                )));
            }
        },
    };
    let input = match (&flags.input, &flags.input_file) {
        (Some(text), _) => Output::text_output(text.as_str()),
        (None, Some(path)) => Output::text_output(read_text(path, "the input")?),
        (None, None) => Output::text_output(""),
    };
    let events = match &flags.events {
        None => Vec::new(),
        Some(path) => {
            let text = read_text(path, "the events")?;
            let mut events = Vec::new();
            for (idx, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let event = parse_json(line).map_err(|error| {
                    UsageError(format!(
                        "line {} of the events {} is not JSON: {error:?}",
                        idx + 1,
                        path.display()
                    ))
                })?;
                events.push(event);
            }
            events
        }
    };
    let answers = match &flags.answers {
        None => writ_core::Object::new(),
        Some(path) => match read_json(path, "the answers")? {
            Value::Object(answers) => answers,
            other => {
                return Err(UsageError(format!(
                    "the answers {} are a JSON object keyed by decide node id, found {}",
                    path.display(),
                    other.kind().described()
                ))
                .into());
            }
        },
    };
    let mut connections = match &flags.tools {
        None => Connections::new(tokio.handle().clone()),
        Some(path) => {
            let text = read_text(path, "the tools manifest")?;
            let manifest: Json = serde_json::from_str(&text)
                .map_err(|error| UsageError(format!("the tools manifest {} is not JSON: {error}", path.display())))?;
            let base = std::env::current_dir()
                .map_err(|error| UsageError(format!("cannot read the current directory: {error}")))?;
            tokio
                .block_on(Connections::from_manifest(&manifest, &base, tokio.handle().clone()))
                .map_err(|error| UsageError(format!("the tools manifest {}: {error}", path.display())))?
        }
    };
    if let Some(path) = &flags.model {
        let text = read_text(path, "the model file")?;
        let json: Json = serde_json::from_str(&text)
            .map_err(|error| UsageError(format!("the model file {} is not JSON: {error}", path.display())))?;
        let model = writ_model::model_from_file(&json)
            .map_err(|error| UsageError(format!("the model file {}: {error}", path.display())))?;
        connections = connections.with_model(model);
    }
    let options = RunOptions {
        limits,
        host: Arc::new(RecordingHost::new(SystemHost::default())),
        effects: Arc::new(connections),
        events,
        answers,
        on_emit: Some(Arc::new(print_emitted)),
        interrupt: None,
        run_id: format!("flow-{}", std::process::id()),
    };
    Ok(Ok(Prepared {
        workflow,
        workflows,
        input,
        options,
    }))
}

/// Writes one emitted item to stderr as a JSON line.
fn print_emitted(item: &Emitted) {
    let mut line = serde_json::json!({"type": "emit", "node": item.node, "hook": item.hook.as_str()});
    if let Some(name) = &item.item {
        line["item"] = Json::String(name.clone());
    }
    line["value"] = item.value.to_serde_json();
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// Prints a run's answer and gives its exit status.
fn answer(result: Result<Output, Error>, json: bool) -> Result<ExitStatus, CommandError> {
    let mut out = std::io::stdout().lock();
    match result {
        Ok(output) => {
            let text = output.text().to_string_lossy().into_owned();
            if json {
                writeln!(out, "{}", serde_json::json!({"ok": true, "output": text}))?;
            } else {
                writeln!(out, "{text}")?;
            }
            Ok(ExitStatus::Success)
        }
        Err(error) => {
            if json {
                writeln!(
                    out,
                    "{}",
                    serde_json::json!({"ok": false, "error": {"code": error.code(), "message": error.message()}})
                )?;
            } else {
                drop(out);
                writeln!(std::io::stderr().lock(), "writ: {}: {}", error.code(), error.message())?;
            }
            Ok(ExitStatus::Failure)
        }
    }
}
