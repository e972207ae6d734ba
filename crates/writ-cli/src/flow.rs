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
//!
//! With `--store DB` (or `--run-id`, which implies `./writ.db`) the run is durable: its
//! specification (document, named workflows, input, limits, events, answers) and every
//! completed node are stored (writ-store's workflow tables), each call and model call before it
//! runs and again when it completes, with the host reads made so far. `writ flow resume` runs a
//! killed or failed run again from the start, taking every completed call and model call from
//! the store and replaying `$now()`, `$millis()` and `$random()`, so it continues where the run
//! stopped; a call in flight at the kill runs again with the same idempotency key. What the
//! run emitted before its last stored call is not emitted again; from that call's `onDone` on,
//! items are emitted again (at least once: the kill may have landed before or after them). A
//! run that completed answers its stored output.
//!
//! One process drives a stored run at a time: it holds the run's lease, renewed every
//! [`LEASE`]/3 while it runs. A resume while another live process holds it is refused
//! (`run_in_use`); a resume on the same host after that process died takes the run over at
//! once (writ-run's `owner_is_dead`), and one on another host after the lease ran out.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, Subcommand};
use serde_json::Value as Json;
use std::collections::BTreeMap;

use writ_core::{HostRead, RecordingHost, ReplayingHost, SystemHost, Value, parse_json};
use writ_flow::{Connections, Emitted, Error, Journal, Output, RunLimits, RunOptions, Workflow, Workflows};
use writ_store::flow::{FlowStatus, FlowStep, FlowStore, Holder};

use crate::manifest::read_manifest;
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
    /// Continue a stored run that was killed or failed: completed calls are not made again.
    ///
    /// A run that completed prints its output again. Exits as `writ flow run` does.
    Resume(ResumeFlags),
    /// Check a workflow document: every unknown kind and field, with its JSON Pointer.
    ///
    /// Exits 0 when it can run, 1 when it has issues, 2 when it cannot be read as JSON.
    Check {
        /// The workflow document.
        workflow: PathBuf,
        /// The named workflows subflows call: one file DIR/NAME.json each, each checked too.
        #[arg(long, value_name = "DIR")]
        workflows: Option<PathBuf>,
        /// Print {"ok", "issues": [{"code", "path", "message", "workflow"?}]}; `workflow`
        /// names the named workflow an issue is in.
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
    /// The named workflows subflows call: one file DIR/NAME.json each.
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
    /// Store every completed node's output in this SQLite file, so `writ flow resume` can
    /// continue the run if it is killed.
    #[arg(long, value_name = "DB")]
    store: Option<PathBuf>,
    /// The run's id, chosen up front (implies --store writ.db); without it writ makes one and
    /// names it on stderr.
    #[arg(long, value_name = "ID")]
    run_id: Option<String>,
}

#[derive(Args, Debug)]
struct ResumeFlags {
    /// The run's id.
    run_id: String,
    /// A tools manifest: each MCP server is a connection, the inline tools are "tools".
    #[arg(long, value_name = "M")]
    tools: Option<PathBuf>,
    /// A model file for callModel nodes.
    #[arg(long, value_name = "FILE")]
    model: Option<PathBuf>,
    /// The events wait nodes take, instead of those the run started with.
    #[arg(long, value_name = "FILE")]
    events: Option<PathBuf>,
    /// The answers decide nodes read, instead of those the run started with.
    #[arg(long, value_name = "FILE")]
    answers: Option<PathBuf>,
    /// The SQLite file the run is stored in.
    #[arg(long, value_name = "DB", default_value = "writ.db")]
    store: PathBuf,
    /// Print {"ok":true,"output":…} or {"ok":false,"error":{"code","message"}}.
    #[arg(long)]
    json: bool,
}

/// Runs a `writ flow` command.
pub fn run(args: FlowArgs) -> Result<ExitStatus, CommandError> {
    match args.command {
        FlowCommand::Run(flags) => run_flow(&flags),
        FlowCommand::Resume(flags) => resume_flow(&flags),
        FlowCommand::Check {
            workflow,
            workflows,
            json,
        } => check_flow(&workflow, workflows.as_deref(), json),
    }
}

/// The text of the file at `path` (`-` is stdin); `what` names the file in errors.
pub(crate) fn read_text(path: &Path, what: &str) -> Result<String, UsageError> {
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
    let named = match dir {
        Some(dir) => named_files(dir)?,
        None => Vec::new(),
    };
    let names: Vec<&str> = named.iter().map(|(name, _)| name.as_str()).collect();
    // The document's issues, then each named workflow's: a subflow runs them, so they are
    // checked as the document is, their own subflows against the same directory.
    let mut issues: Vec<(Option<&str>, writ_flow::Issue)> = writ_flow::check_names(&document, &names)
        .into_iter()
        .map(|issue| (None, issue))
        .collect();
    for (name, file) in &named {
        let workflow = read_json(file, "the named workflow")?;
        issues.extend(
            writ_flow::check_names(&workflow, &names)
                .into_iter()
                .map(|issue| (Some(name.as_str()), issue)),
        );
    }
    let mut out = std::io::stdout().lock();
    if json {
        let issues: Vec<Json> = issues
            .iter()
            .map(|(workflow, issue)| {
                let mut said =
                    serde_json::json!({"code": issue.code.as_str(), "path": issue.path, "message": issue.message});
                if let Some(workflow) = workflow {
                    said["workflow"] = Json::from(*workflow);
                }
                said
            })
            .collect();
        writeln!(
            out,
            "{}",
            serde_json::json!({"ok": issues.is_empty(), "issues": issues})
        )?;
    } else if issues.is_empty() {
        writeln!(out, "ok: {} can run", path.display())?;
    } else {
        for (workflow, issue) in &issues {
            let at = if issue.path.is_empty() {
                "/"
            } else {
                issue.path.as_str()
            };
            match workflow {
                Some(workflow) => writeln!(
                    out,
                    "{} in named workflow '{workflow}' at {at}: {}",
                    issue.code, issue.message
                )?,
                None => writeln!(out, "{} at {at}: {}", issue.code, issue.message)?,
            }
        }
    }
    Ok(if issues.is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}

/// What a run is made of: what `writ flow run` reads from its flags, and what a stored run
/// keeps so that `writ flow resume` can run it again.
struct Spec {
    document: Value,
    workflows: Vec<(String, Value)>,
    input: String,
    limits: Option<Value>,
    events: Vec<Value>,
    answers: writ_core::Object,
}

impl Spec {
    fn from_flags(flags: &RunFlags) -> Result<Spec, UsageError> {
        let document = read_json(&flags.workflow, "the workflow")?;
        let mut workflows = Vec::new();
        if let Some(dir) = &flags.workflows {
            for (name, path) in named_files(dir)? {
                workflows.push((name, read_json(&path, "the workflow")?));
            }
        }
        let input = match (&flags.input, &flags.input_file) {
            (Some(text), _) => text.clone(),
            (None, Some(path)) => read_text(path, "the input")?,
            (None, None) => String::new(),
        };
        // Text that is not JSON is kept as a string: the run refuses it with the seed's code.
        let limits = flags
            .limits
            .as_ref()
            .map(|text| parse_json(text).unwrap_or_else(|_| Value::from(text.as_str())));
        Ok(Spec {
            document,
            workflows,
            input,
            limits,
            events: read_events(flags.events.as_deref())?.unwrap_or_default(),
            answers: read_answers(flags.answers.as_deref())?.unwrap_or_default(),
        })
    }

    fn to_json(&self) -> String {
        let workflows: serde_json::Map<String, Json> = self
            .workflows
            .iter()
            .map(|(name, document)| (name.clone(), document.to_serde_json()))
            .collect();
        serde_json::json!({
            "document": self.document.to_serde_json(),
            "workflows": workflows,
            "input": self.input,
            "limits": self.limits.as_ref().map(Value::to_serde_json),
            "events": self.events.iter().map(Value::to_serde_json).collect::<Vec<_>>(),
            "answers": Value::Object(self.answers.clone()).to_serde_json(),
        })
        .to_string()
    }

    fn from_json(run_id: &str, text: &str) -> Result<Spec, UsageError> {
        let corrupt = || UsageError(format!("the stored workflow run '{run_id}' is not one writ wrote"));
        let Ok(Value::Object(spec)) = parse_json(text) else {
            return Err(corrupt());
        };
        let field = |name: &str| spec.get_str(name).cloned().unwrap_or(Value::Undefined);
        let workflows = match field("workflows") {
            Value::Object(named) => named
                .iter()
                .map(|(name, document)| (name.to_string_lossy().into_owned(), document.clone()))
                .collect(),
            _ => return Err(corrupt()),
        };
        Ok(Spec {
            document: field("document"),
            workflows,
            input: field("input")
                .as_str()
                .map(|text| text.to_string_lossy().into_owned())
                .ok_or_else(corrupt)?,
            limits: match field("limits") {
                Value::Null | Value::Undefined => None,
                limits => Some(limits),
            },
            events: field("events")
                .as_array()
                .map(|events| events.iter().cloned().collect())
                .ok_or_else(corrupt)?,
            answers: field("answers").as_object().cloned().ok_or_else(corrupt)?,
        })
    }

    /// The checked workflow, its named workflows and its limits.
    fn build(&self) -> Result<(Workflow, Workflows, RunLimits), Error> {
        let mut workflows = Workflows::new();
        for (name, named) in &self.workflows {
            match Workflow::parse(named) {
                Ok(workflow) => workflows.insert(name.clone(), workflow),
                Err(issues) => {
                    let error = writ_flow::Issue::into_error(&issues);
                    return Err(Error::new(
                        error.kind(),
                        format!("named workflow '{name}': {}", error.message()),
                    ));
                }
            }
        }
        let issues = writ_flow::check(&self.document, &workflows);
        if !issues.is_empty() {
            return Err(writ_flow::Issue::into_error(&issues));
        }
        let workflow = Workflow::parse(&self.document).map_err(|issues| writ_flow::Issue::into_error(&issues))?;
        let limits = match &self.limits {
            None => RunLimits::default(),
            Some(Value::String(text)) => {
                return Err(Error::new(
                    writ_flow::Code::InvalidExpressionLimits,
                    format!(
                        "--limits is not JSON: {}; write an object such as {{\"timeout\": 5000}}",
                        text.to_string_lossy()
                    ),
                ));
            }
            Some(json) => RunLimits::from_json(json)?,
        };
        Ok((workflow, workflows, limits))
    }
}

fn read_events(path: Option<&Path>) -> Result<Option<Vec<Value>>, UsageError> {
    let Some(path) = path else {
        return Ok(None);
    };
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
    Ok(Some(events))
}

fn read_answers(path: Option<&Path>) -> Result<Option<writ_core::Object>, UsageError> {
    let Some(path) = path else {
        return Ok(None);
    };
    match read_json(path, "the answers")? {
        Value::Object(answers) => Ok(Some(answers)),
        other => Err(UsageError(format!(
            "the answers {} are a JSON object keyed by decide node id, found {}",
            path.display(),
            other.kind().described()
        ))),
    }
}

/// The connections of `--tools` and the model of `--model`.
fn connections(
    tools: Option<&Path>,
    model: Option<&Path>,
    tokio: &tokio::runtime::Runtime,
) -> Result<Connections, UsageError> {
    let mut connections = match tools {
        None => Connections::new(tokio.handle().clone()),
        Some(path) => {
            let manifest = read_manifest(path)?;
            tokio
                .block_on(Connections::from_manifest(
                    &manifest.json,
                    &manifest.base_dir,
                    tokio.handle().clone(),
                ))
                .map_err(|error| UsageError(format!("the tools manifest {}: {error}", path.display())))?
        }
    };
    if let Some(path) = model {
        let text = read_text(path, "the model file")?;
        let json: Json = serde_json::from_str(&text)
            .map_err(|error| UsageError(format!("the model file {} is not JSON: {error}", path.display())))?;
        let model = writ_model::model_from_file(&json)
            .map_err(|error| UsageError(format!("the model file {}: {error}", path.display())))?;
        connections = connections.with_model(model);
    }
    Ok(connections)
}

fn tokio_runtime() -> Result<tokio::runtime::Runtime, UsageError> {
    // The tokio runtime drives MCP servers and model requests; the interpreter runs on this
    // thread and blocks on it for each call.
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| UsageError(format!("cannot start the async runtime: {error}")))
}

fn options(
    limits: RunLimits,
    spec: &Spec,
    effects: Connections,
    host: Arc<dyn writ_core::Host>,
    run_id: String,
) -> RunOptions {
    RunOptions {
        limits,
        host,
        effects: Arc::new(effects),
        events: spec.events.clone(),
        answers: spec.answers.clone(),
        on_emit: Some(Arc::new(print_emitted)),
        interrupt: None,
        run_id,
    }
}

fn run_flow(flags: &RunFlags) -> Result<ExitStatus, CommandError> {
    let tokio = tokio_runtime()?;
    let spec = Spec::from_flags(flags)?;
    let (workflow, workflows, limits) = match spec.build() {
        Ok(built) => built,
        Err(error) => return answer(Err(error), flags.json),
    };
    let effects = connections(flags.tools.as_deref(), flags.model.as_deref(), &tokio)?;
    let input = Output::text_output(spec.input.as_str());
    let store = flags
        .store
        .clone()
        .or_else(|| flags.run_id.as_ref().map(|_| PathBuf::from("writ.db")));
    let result = match store {
        None => {
            let host = Arc::new(SystemHost::default());
            let options = options(limits, &spec, effects, host, format!("flow-{}", std::process::id()));
            writ_flow::run(&workflow, &workflows, input, &options)
        }
        Some(path) => {
            let run_id = match &flags.run_id {
                Some(run_id) => run_id.clone(),
                None => {
                    let millis = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |since| since.as_millis());
                    let run_id = format!("flow-{millis}-{}", std::process::id());
                    let _ = writeln!(
                        std::io::stderr(),
                        "writ: workflow run {run_id} (writ flow resume {run_id})"
                    );
                    run_id
                }
            };
            let mut store = FlowStore::open(&path).map_err(|error| UsageError(error.to_string()))?;
            let holder = this_process();
            store
                .create(&run_id, &spec.to_json(), holder.clone())
                .map_err(|error| UsageError(error.to_string()))?;
            let _keeper = LeaseKeeper::start(&path, &run_id, holder);
            let host = Arc::new(RecordingHost::new(SystemHost::default()));
            let options = options(limits, &spec, effects, host.clone(), run_id.clone());
            let mut journal = StoreJournal::new(store, run_id, Vec::new(), RunHost::Recording(host))?;
            let result = writ_flow::run_durable(&workflow, &workflows, input, &options, &mut journal);
            journal.finish(&result)?;
            result
        }
    };
    let status = answer(result, flags.json);
    tokio.shutdown_background();
    status
}

fn resume_flow(flags: &ResumeFlags) -> Result<ExitStatus, CommandError> {
    let mut store = FlowStore::open(&flags.store).map_err(|error| UsageError(error.to_string()))?;
    let run = store
        .run(&flags.run_id)
        .map_err(|error| UsageError(error.to_string()))?
        .ok_or_else(|| {
            UsageError(format!(
                "the store {} has no workflow run named '{}'",
                flags.store.display(),
                flags.run_id
            ))
        })?;
    if run.status == FlowStatus::Completed {
        let stored = run
            .result
            .as_deref()
            .and_then(|text| serde_json::from_str::<Json>(text).ok());
        if let Some(output) = stored.as_ref().and_then(|result| result["output"].as_str()) {
            return answer(Ok(Output::text_output(output)), flags.json);
        }
    }
    let holder = this_process();
    take_lease(&mut store, &flags.run_id, &holder)?;
    let _keeper = LeaseKeeper::start(&flags.store, &flags.run_id, holder);
    let tokio = tokio_runtime()?;
    let mut spec = Spec::from_json(&flags.run_id, &run.spec)?;
    if let Some(events) = read_events(flags.events.as_deref())? {
        spec.events = events;
    }
    if let Some(answers) = read_answers(flags.answers.as_deref())? {
        spec.answers = answers;
    }
    let (workflow, workflows, limits) = match spec.build() {
        Ok(built) => built,
        Err(error) => return answer(Err(error), flags.json),
    };
    let effects = connections(flags.tools.as_deref(), flags.model.as_deref(), &tokio)?;
    let steps = store
        .steps(&flags.run_id)
        .map_err(|error| UsageError(error.to_string()))?;
    let mut reads = Vec::new();
    for step in &steps {
        reads.extend(step_reads(&step.meta));
    }
    let host = Arc::new(ReplayingHost::new(reads, SystemHost::default()));
    let options = options(limits, &spec, effects, host.clone(), flags.run_id.clone());
    let mut journal = StoreJournal::new(store, flags.run_id.clone(), steps, RunHost::Replaying(host, 0))?;
    let input = Output::text_output(spec.input.as_str());
    let result = writ_flow::run_durable(&workflow, &workflows, input, &options, &mut journal);
    journal.finish(&result)?;
    let status = answer(result, flags.json);
    tokio.shutdown_background();
    status
}

/// How long a stored run's lease lasts unless renewed: how long a process that died on another
/// host holds its run before a resume may take it.
const LEASE: std::time::Duration = std::time::Duration::from_secs(15);

/// This process as the holder of a run's lease.
fn this_process() -> Holder {
    Holder {
        owner: writ_run::process_owner(),
        lease: LEASE,
    }
}

/// Takes a stored run's lease: a free or expired one, or a live one whose owner is a process
/// on this host that died.
fn take_lease(store: &mut FlowStore, run_id: &str, holder: &Holder) -> Result<(), UsageError> {
    match store.acquire(run_id, holder.clone()) {
        Err(error) if error.code() == "run_in_use" => {
            let owner = store
                .lease_owner(run_id)
                .map_err(|error| UsageError(error.to_string()))?;
            match owner {
                Some(owner) if writ_run::owner_is_dead(&owner) => store
                    .take_over(run_id, holder.clone(), &owner)
                    .map_err(|error| UsageError(format!("{}: {error}", error.code()))),
                // Ran out or was given up in between: take it as any free lease.
                None => store
                    .acquire(run_id, holder.clone())
                    .map_err(|error| UsageError(format!("{}: {error}", error.code()))),
                Some(_) => Err(UsageError(format!("{}: {error}", error.code()))),
            }
        }
        other => other.map_err(|error| UsageError(format!("{}: {error}", error.code()))),
    }
}

/// Renews a run's lease every third of [`LEASE`] from a thread and a connection of its own,
/// so that a call longer than the lease does not let another process take the run; stops
/// when dropped, or when the lease was lost (the run's next write then fails).
struct LeaseKeeper {
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl LeaseKeeper {
    fn start(path: &Path, run_id: &str, holder: Holder) -> LeaseKeeper {
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let (path, run_id) = (path.to_path_buf(), run_id.to_owned());
        let thread = std::thread::spawn(move || {
            let Ok(mut store) = FlowStore::open(&path) else { return };
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(holder.lease / 3) {
                if store.renew(&run_id, &holder).is_err() {
                    return;
                }
            }
        });
        LeaseKeeper {
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for LeaseKeeper {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Where a stored run's host reads come from: recorded as they are made, or replayed and then
/// recorded past the record.
enum RunHost {
    Recording(Arc<RecordingHost<SystemHost>>),
    /// The host, and how many of its fresh reads are stored already.
    Replaying(Arc<ReplayingHost<SystemHost>>, usize),
}

impl RunHost {
    /// The reads made since the last call, to store with the next step.
    fn take(&mut self) -> Vec<HostRead> {
        match self {
            RunHost::Recording(host) => host.take_reads(),
            RunHost::Replaying(host, taken) => {
                let fresh = host.fresh_reads();
                let new = fresh[(*taken).min(fresh.len())..].to_vec();
                *taken = fresh.len();
                new
            }
        }
    }
}

fn reads_json(reads: &[HostRead]) -> Json {
    Json::Array(
        reads
            .iter()
            .map(|read| serde_json::json!({read.kind(): read.value()}))
            .collect(),
    )
}

/// The host reads stored in a step's meta.
fn step_reads(meta: &str) -> Vec<HostRead> {
    let Ok(meta) = serde_json::from_str::<Json>(meta) else {
        return Vec::new();
    };
    meta["reads"]
        .as_array()
        .map(|reads| {
            reads
                .iter()
                .filter_map(|read| match (read["now"].as_f64(), read["random"].as_f64()) {
                    (Some(now), _) => Some(HostRead::NowMillis(now)),
                    (None, Some(random)) => Some(HostRead::Random(random)),
                    (None, None) => None,
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A run's journal in the store: completed steps are written in batches, each call or model
/// call (and everything before it) before it runs and again when it completes.
struct StoreJournal {
    store: FlowStore,
    run_id: String,
    /// Steps the store held when the run was resumed, by number.
    stored: BTreeMap<u64, FlowStep>,
    /// Steps recorded and not yet written.
    pending: Vec<FlowStep>,
    /// The reads stored with an entered call, by step, to store again when it completes.
    entered_reads: BTreeMap<u64, Vec<HostRead>>,
    host: RunHost,
}

/// Steps kept before a batch is written even without a call: bounds memory in a long pure loop.
const MAX_PENDING: usize = 1_000;

fn store_error(error: &writ_store::flow::FlowStoreError) -> Error {
    Error::new(writ_flow::Code::Store, error.message().to_string())
}

impl StoreJournal {
    fn new(store: FlowStore, run_id: String, steps: Vec<FlowStep>, host: RunHost) -> Result<StoreJournal, UsageError> {
        let mut entered_reads = BTreeMap::new();
        let mut stored = BTreeMap::new();
        for step in steps {
            if is_entered(&step.meta) {
                entered_reads.insert(step.seq, step_reads(&step.meta));
            } else {
                stored.insert(step.seq, step);
            }
        }
        Ok(StoreJournal {
            store,
            run_id,
            stored,
            pending: Vec::new(),
            entered_reads,
            host,
        })
    }

    fn write(&mut self) -> Result<(), Error> {
        let pending = std::mem::take(&mut self.pending);
        self.store
            .append(&self.run_id, &pending)
            .map_err(|error| store_error(&error))
    }

    /// Writes the run's end.
    fn finish(&mut self, result: &Result<Output, Error>) -> Result<(), UsageError> {
        self.write().map_err(|error| UsageError(error.message().to_string()))?;
        let (status, text) = match result {
            Ok(output) => (
                FlowStatus::Completed,
                serde_json::json!({"ok": true, "output": output.text().to_string_lossy()}),
            ),
            Err(error) => (
                FlowStatus::Failed,
                serde_json::json!({"ok": false, "error": {"code": error.code(), "message": error.message()}}),
            ),
        };
        self.store
            .finish(&self.run_id, status, &text.to_string())
            .map_err(|error| UsageError(error.to_string()))
    }
}

fn is_entered(meta: &str) -> bool {
    serde_json::from_str::<Json>(meta).is_ok_and(|meta| meta["entered"] == Json::Bool(true))
}

impl Journal for StoreJournal {
    fn replayed(&mut self, step: u64, node_id: &str) -> Result<Option<(Output, f64)>, Error> {
        let Some(stored) = self.stored.get(&step) else {
            return Ok(None);
        };
        if stored.node_id != node_id {
            return Err(Error::new(
                writ_flow::Code::Store,
                format!(
                    "step {step} of run '{}' was node '{}', and the resumed run reached node '{node_id}' there; \
                     the run cannot be resumed (start it again)",
                    self.run_id, stored.node_id
                ),
            ));
        }
        let cost = serde_json::from_str::<Json>(&stored.meta)
            .ok()
            .and_then(|meta| meta["cost"].as_f64())
            .unwrap_or(0.0);
        let output = match parse_json(&stored.output) {
            Ok(Value::String(text)) => Output::text_output(text),
            Ok(value) => Output::from_value(value).unwrap_or_else(|| Output::text_output("")),
            Err(_) => {
                return Err(Error::new(
                    writ_flow::Code::Store,
                    format!("step {step} of run '{}' is not JSON", self.run_id),
                ));
            }
        };
        Ok(Some((output, cost)))
    }

    fn entered(&mut self, step: u64, node_id: &str) -> Result<(), Error> {
        if self.entered_reads.contains_key(&step) {
            // Entered before the run stopped: its reads are stored and were replayed.
            return self.write();
        }
        let reads = self.host.take();
        self.pending.push(FlowStep {
            seq: step,
            node_id: node_id.to_string(),
            output: String::new(),
            meta: serde_json::json!({"entered": true, "reads": reads_json(&reads)}).to_string(),
        });
        self.entered_reads.insert(step, reads);
        self.write()
    }

    fn record(&mut self, step: u64, node_id: &str, output: &Output, cost: f64, effect: bool) -> Result<(), Error> {
        if self.stored.contains_key(&step) {
            return Ok(());
        }
        let mut reads = self.entered_reads.remove(&step).unwrap_or_default();
        reads.extend(self.host.take());
        self.pending.push(FlowStep {
            seq: step,
            node_id: node_id.to_string(),
            output: output.to_value().to_json_string().unwrap_or_else(|| "null".to_string()),
            meta: serde_json::json!({"cost": cost, "reads": reads_json(&reads)}).to_string(),
        });
        if effect || self.pending.len() >= MAX_PENDING {
            self.write()?;
        }
        Ok(())
    }

    fn recorded_calls(&self) -> u64 {
        self.stored.keys().next_back().copied().unwrap_or(0)
    }

    fn flush(&mut self) -> Result<(), Error> {
        self.write()
    }
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
