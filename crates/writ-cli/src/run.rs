//! `writ run …`: start, resume, show and list runs of approved plans.
//!
//! A run drives the plan's calls through the tools of `--tools` (MCP servers and inline
//! commands) and its reason nodes through the model of `--model` (or the `OPENAI_*`
//! environment), recording every step in the store so that `writ run resume` continues a run
//! that was stopped or killed.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::Value as Json;
use writ_run::{Abort, Observer, RunError, RunView, Runtime};
use writ_store::run::{NodeOutcome, RunEvent, RunOutcome};
use writ_store::{RunStore, SqliteStore};
use writ_tools::Toolbox;

use crate::manifest::load_tools;
use crate::plan::standard_cells;
use crate::{CommandError, ExitStatus, UsageError};

/// `writ run`: run approved plans, durably.
#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(subcommand)]
    command: RunCommand,
}

#[derive(Subcommand, Debug)]
enum RunCommand {
    /// Claim an approved plan's one run and run it.
    ///
    /// Exits 0 when the run completed, 1 when it halted, failed or was interrupted, 2 when it
    /// could not start.
    Start {
        /// The plan's id.
        plan_id: String,
        /// The entry's input, as JSON.
        #[arg(
            long,
            value_name = "JSON",
            conflicts_with = "input_file",
            required_unless_present = "input_file"
        )]
        input: Option<String>,
        /// A file holding the entry's input, as JSON.
        #[arg(long, value_name = "F")]
        input_file: Option<PathBuf>,
        /// The run's id, chosen up front (a caller killed before it reads the answer still knows
        /// which run to resume); without it writ makes one.
        #[arg(long, value_name = "ID")]
        run_id: Option<String>,
        #[command(flatten)]
        deps: Dependencies,
    },
    /// Continue a run that was interrupted, halted, or whose process died.
    Resume {
        /// The run's id.
        run_id: String,
        #[command(flatten)]
        deps: Dependencies,
    },
    /// Print a run as its events tell it: status, outputs, each node's status.
    Show {
        /// The run's id.
        run_id: String,
        #[command(flatten)]
        store: StoreArg,
        /// Print {"ok", "runId", "status", "outputs", "halt"?, "nodes", …}.
        #[arg(long)]
        json: bool,
    },
    /// List runs, optionally of one plan.
    List {
        /// Only this plan's run.
        #[arg(long = "plan", value_name = "PLAN_ID")]
        plan_id: Option<String>,
        #[command(flatten)]
        store: StoreArg,
        /// Print [{"runId", "planId", "status"}, …].
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args, Debug)]
struct StoreArg {
    /// The SQLite store.
    #[arg(long, value_name = "DB", default_value = "writ.db")]
    store: PathBuf,
}

/// What a run needs besides the store.
#[derive(Args, Debug)]
struct Dependencies {
    /// A tools manifest: MCP servers and inline command tools (DESIGN.md).
    #[arg(long, value_name = "M")]
    tools: Option<PathBuf>,
    /// A model file for reason nodes; without it, the OPENAI_BASE_URL, OPENAI_MODEL and
    /// OPENAI_API_KEY environment variables, if set.
    #[arg(long, value_name = "FILE")]
    model: Option<PathBuf>,
    #[command(flatten)]
    store: StoreArg,
    /// Print the run as JSON when it ends, and no progress.
    #[arg(long)]
    json: bool,
}

/// Runs a `writ run` command.
pub fn run(args: RunArgs) -> Result<ExitStatus, CommandError> {
    match args.command {
        RunCommand::Start {
            plan_id,
            input,
            input_file,
            run_id,
            deps,
        } => {
            let input = read_input(input.as_deref(), input_file.as_deref())?;
            drive(&deps, |runtime, abort| async move {
                runtime.start(&plan_id, input, run_id.as_deref(), &abort).await
            })
        }
        RunCommand::Resume { run_id, deps } => {
            drive(
                &deps,
                |runtime, abort| async move { runtime.resume(&run_id, &abort).await },
            )
        }
        RunCommand::Show { run_id, store, json } => {
            let store = open_store(&store.store)?;
            let summary = match store.read_run(&run_id) {
                Ok(summary) => summary,
                Err(error) => return refused(&error.into()),
            };
            let events = store
                .read_run_events(&run_id)
                .map_err(|error| UsageError(error.to_string()))?;
            let view = match RunView::from_events(&events) {
                Ok(view) => view,
                Err(error) => return refused(&error),
            };
            print_view(&view, Some(summary.status), json)?;
            Ok(ExitStatus::Success)
        }
        RunCommand::List { plan_id, store, json } => {
            let store = open_store(&store.store)?;
            let runs = match store.list_runs(plan_id.as_deref()) {
                Ok(runs) => runs,
                Err(error) => return refused(&error.into()),
            };
            let mut out = std::io::stdout().lock();
            if json {
                let list: Vec<Json> = runs
                    .iter()
                    .map(|run| serde_json::json!({"runId": run.run_id, "planId": run.plan_id, "status": run.status.name()}))
                    .collect();
                writeln!(out, "{}", Json::Array(list))?;
            } else {
                for run in &runs {
                    writeln!(out, "{}\t{}\t{}", run.run_id, run.plan_id, run.status)?;
                }
            }
            out.flush()?;
            Ok(ExitStatus::Success)
        }
    }
}

fn read_input(inline: Option<&str>, file: Option<&Path>) -> Result<Json, UsageError> {
    let (text, origin) = match (inline, file) {
        (Some(text), _) => (text.to_owned(), "--input".to_owned()),
        (None, Some(path)) => (
            std::fs::read_to_string(path)
                .map_err(|error| UsageError(format!("cannot read the input file {}: {error}", path.display())))?,
            path.display().to_string(),
        ),
        (None, None) => {
            return Err(UsageError(
                "give the run's input with --input JSON or --input-file F".into(),
            ));
        }
    };
    serde_json::from_str(&text).map_err(|error| UsageError(format!("{origin} is not JSON: {error}")))
}

/// Builds the runtime, runs `go` on it with Ctrl-C wired to an abort, and reports the run.
fn drive<F, Fut>(deps: &Dependencies, go: F) -> Result<ExitStatus, CommandError>
where
    F: FnOnce(Arc<Runtime>, Abort) -> Fut,
    Fut: std::future::Future<Output = Result<RunView, RunError>>,
{
    let store = Arc::new(open_store(&deps.store.store)?);
    let tokio = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| UsageError(format!("cannot start the async runtime: {error}")))?;
    let result = tokio.block_on(async {
        let tools = match &deps.tools {
            Some(path) => load_tools(path).await?,
            None => Toolbox::new(),
        };
        let model = load_model(deps.model.as_deref())?;
        let store_dyn: Arc<dyn RunStore> = store.clone();
        let mut runtime = Runtime::new(store_dyn, Arc::new(tools), Arc::new(standard_cells()));
        if let Some(model) = model {
            runtime = runtime.with_model(model);
        }
        let progress = (!deps.json && std::io::stderr().is_terminal()).then(|| Arc::new(Progress::new()));
        if let Some(progress) = &progress {
            runtime = runtime.with_observer(progress.clone());
        }
        let abort = Abort::new();
        let on_signal = abort.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                on_signal.abort();
            }
        });
        let result = go(Arc::new(runtime), abort).await;
        if let Some(progress) = progress {
            progress.bar.finish_and_clear();
        }
        Ok::<_, UsageError>(result)
    })?;
    // Drop the async runtime (and with it the tools' servers) before printing.
    drop(tokio);
    match result {
        Ok(view) => {
            print_view(&view, None, deps.json)?;
            Ok(if view.outcome == Some(RunOutcome::Completed) {
                ExitStatus::Success
            } else {
                ExitStatus::Failure
            })
        }
        Err(error) => refused(&error),
    }
}

fn load_model(path: Option<&Path>) -> Result<Option<Arc<dyn writ_model::Model>>, UsageError> {
    match path {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|error| UsageError(format!("cannot read the model file {}: {error}", path.display())))?;
            let json: Json = serde_json::from_str(&text)
                .map_err(|error| UsageError(format!("the model file {} is not JSON: {error}", path.display())))?;
            writ_model::model_from_file(&json)
                .map(Some)
                .map_err(|error| UsageError(format!("the model file {}: {error}", path.display())))
        }
        None if ["OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_API_KEY"]
            .iter()
            .any(|name| std::env::var_os(name).is_some()) =>
        {
            writ_model::model_from_env()
                .map(Some)
                .map_err(|error| UsageError(format!("the OPENAI_* environment: {error}")))
        }
        None => Ok(None),
    }
}

fn print_view(view: &RunView, status: Option<writ_store::run::RunStatus>, json: bool) -> Result<(), std::io::Error> {
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", view.to_json(status))?;
    } else {
        let shown = view.to_json(status);
        writeln!(
            out,
            "run {} of plan {}: {} ({} frames)",
            view.run_id,
            view.plan_id,
            shown["status"].as_str().unwrap_or("running"),
            view.steps
        )?;
        for (key, items) in &view.outputs {
            writeln!(out, "  {key} → {}", Json::Array(items.clone()))?;
        }
        if let Some(halt) = shown.get("halt") {
            writeln!(
                out,
                "  stopped{}: {}",
                halt.get("nodeId")
                    .and_then(Json::as_str)
                    .map(|node| format!(" at {node}"))
                    .unwrap_or_default(),
                halt["reason"].as_str().unwrap_or_default()
            )?;
        }
        if !view.indeterminate.is_empty() {
            writeln!(
                out,
                "  calls whose outcome is unknown: {}",
                view.indeterminate.join(", ")
            )?;
        }
    }
    out.flush()
}

fn refused(error: &RunError) -> Result<ExitStatus, CommandError> {
    let _ = writeln!(std::io::stderr(), "writ: {error}");
    Ok(ExitStatus::Error)
}

fn open_store(path: &Path) -> Result<SqliteStore, UsageError> {
    SqliteStore::open(path).map_err(|error| UsageError(format!("cannot open the store {}: {error}", path.display())))
}

/// A live line on the terminal: frames running, settled and failed.
struct Progress {
    bar: ProgressBar,
    counts: Mutex<(u64, u64, u64)>,
}

impl Progress {
    fn new() -> Progress {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        Progress {
            bar,
            counts: Mutex::new((0, 0, 0)),
        }
    }
}

impl Observer for Progress {
    fn committed(&self, run_id: &str, events: &[RunEvent]) {
        let mut counts = self.counts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let (running, settled, failed) = &mut *counts;
        for event in events {
            match event {
                RunEvent::NodeEntered { .. } => *running += 1,
                RunEvent::NodeSettled { outcome, .. } => {
                    *running = running.saturating_sub(1);
                    match outcome {
                        NodeOutcome::Failed { .. } => *failed += 1,
                        _ => *settled += 1,
                    }
                }
                _ => {}
            }
        }
        self.bar.set_message(format!(
            "{run_id}: {running} running · {settled} settled · {failed} failed"
        ));
    }
}
