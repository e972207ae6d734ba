//! `writ plan …`: check, digest, render, and the plan lifecycle in a store.
//!
//! Every command that takes a FILE reads either a plan document or an op-log document
//! (DESIGN.md, "Plans and runs"). A plan in a store is named by its id.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, Subcommand, ValueEnum};
use serde_json::{Value as Json, json};
use writ_cells::{JexlCell, JsCell, JsonataCell, LuaCell, Registry, StructuredCell};
use writ_plan::{ApprovalRecord, FreezeInputs, PlanIssue, PlanView, Severity};
use writ_store::lifecycle::FreezeOutcome;
use writ_store::{NewPlan, PlanStore, SqliteStore, StoreError};

use crate::manifest::tool_names;
use crate::{CommandError, ExitStatus, UsageError};

/// `writ plan`: check, digest and render plans; import, freeze, approve and clone them.
#[derive(Args, Debug)]
pub struct PlanArgs {
    #[command(subcommand)]
    command: PlanCommand,
}

#[derive(Subcommand, Debug)]
enum PlanCommand {
    /// Fold the plan and run every freeze check; change nothing.
    ///
    /// Exits 0 when nothing blocks, 1 when something does, 2 when FILE is not a plan.
    Check {
        /// A plan document or an op-log document.
        file: PathBuf,
        /// A tools manifest: calls must name one of its tools (its MCP servers are started to
        /// list theirs; relative paths in it are read against the current directory).
        #[arg(long, value_name = "M")]
        tools: Option<PathBuf>,
        /// Print {"ok", "digest", "issues": [{"code", "severity", "nodeId"?, "edgeId"?, "message"}]}.
        #[arg(long)]
        json: bool,
    },
    /// Print the plan's digest (what an approval binds to), one hex line.
    Digest {
        /// A plan document or an op-log document.
        file: PathBuf,
        /// Print {"planId", "digest", "revision"}.
        #[arg(long)]
        json: bool,
    },
    /// Render the plan for the operator who approves it; the digest is stated.
    Render {
        /// A plan document or an op-log document.
        file: PathBuf,
        /// prose: every step, argument, authority and taint clearing; mermaid: a flowchart.
        #[arg(long, value_enum, default_value = "prose")]
        format: RenderFormat,
        /// Print {"planId", "digest", "format", "text"}.
        #[arg(long)]
        json: bool,
    },
    /// Store the plan (editable) and print its id.
    Import {
        /// A plan document or an op-log document.
        file: PathBuf,
        #[command(flatten)]
        store: StoreArg,
        /// Print the stored plan's summary {"planId", "state", "digest", "revision", …}.
        #[arg(long)]
        json: bool,
    },
    /// Run every freeze check and, when nothing blocks, make the plan reviewable.
    Freeze {
        /// The plan's id.
        id: String,
        /// A tools manifest: calls must name one of its tools (its MCP servers are started to
        /// list theirs; relative paths in it are read against the current directory).
        #[arg(long, value_name = "M")]
        tools: Option<PathBuf>,
        #[command(flatten)]
        store: StoreArg,
        /// Print {"ok", "state", "digest", "issues"}.
        #[arg(long)]
        json: bool,
    },
    /// Make a reviewable (or approved, not yet run) plan editable again; an approval is void.
    Unfreeze {
        /// The plan's id.
        id: String,
        /// Accepted for symmetry with freeze; unfreezing checks nothing.
        #[arg(long, value_name = "M")]
        tools: Option<PathBuf>,
        #[command(flatten)]
        store: StoreArg,
        /// Print {"ok", "state", "digest"}.
        #[arg(long)]
        json: bool,
    },
    /// Approve a reviewable plan at the digest you reviewed; it becomes executable.
    Approve {
        /// The plan's id.
        id: String,
        /// The digest you reviewed (from `writ plan render` or `writ plan digest`).
        #[arg(long, value_name = "HEX")]
        digest: String,
        /// Who approves.
        #[arg(long, value_name = "WHO")]
        by: String,
        #[command(flatten)]
        store: StoreArg,
        /// Print the plan's summary with its approval {"planId", "state", "digest", "approval", …}.
        #[arg(long)]
        json: bool,
    },
    /// Copy a plan's op log into a new editable plan and print the new id.
    Clone {
        /// The plan's id.
        id: String,
        #[command(flatten)]
        store: StoreArg,
        /// Print the clone's summary {"planId", "state", "digest", "provenance", …}.
        #[arg(long)]
        json: bool,
    },
}

/// The store flag shared by the lifecycle commands.
#[derive(Args, Debug)]
struct StoreArg {
    /// The SQLite store.
    #[arg(long, value_name = "DB", default_value = "writ.db")]
    store: PathBuf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum RenderFormat {
    Prose,
    Mermaid,
}

/// Runs a `writ plan` command.
pub fn run(args: PlanArgs) -> Result<ExitStatus, CommandError> {
    match args.command {
        PlanCommand::Check { file, tools, json } => check(&file, tools.as_deref(), json),
        PlanCommand::Digest { file, json } => {
            let loaded = load(&file)?;
            let digest = writ_plan::digest(&loaded.view);
            if json {
                print_line(
                    &json!({"planId": loaded.plan_id, "digest": digest, "revision": loaded.view.revision}).to_string(),
                )?;
            } else {
                print_line(&digest)?;
            }
            Ok(ExitStatus::Success)
        }
        PlanCommand::Render { file, format, json } => {
            let loaded = load(&file)?;
            let digest = writ_plan::digest(&loaded.view);
            let (name, text) = match format {
                RenderFormat::Prose => ("prose", writ_plan::render_prose(&loaded.view, &digest)),
                RenderFormat::Mermaid => ("mermaid", writ_plan::render_mermaid(&loaded.view, &digest)),
            };
            if json {
                print_line(
                    &json!({"planId": loaded.plan_id, "digest": digest, "format": name, "text": text}).to_string(),
                )?;
            } else {
                let mut out = std::io::stdout().lock();
                out.write_all(text.as_bytes())?;
                out.flush()?;
            }
            Ok(ExitStatus::Success)
        }
        PlanCommand::Import { file, store, json } => {
            let loaded = load(&file)?;
            let store = open_store(&store.store)?;
            let new = NewPlan {
                label: None,
                provenance: loaded.provenance.clone(),
            };
            let created = store
                .create(&loaded.plan_id, new)
                .and_then(|_| store.append_ops(&loaded.plan_id, &loaded.ops, Some(0)));
            match created {
                Ok(summary) => print_summary(&summary, json, &summary.plan_id),
                Err(error) => refused(&error),
            }
        }
        PlanCommand::Freeze { id, tools, store, json } => {
            let store = open_store(&store.store)?;
            let catalogue = tools.as_deref().map(tool_names).transpose()?;
            let cells = standard_cells();
            let mut inputs = FreezeInputs::new(&cells);
            if let Some(names) = catalogue.as_deref() {
                inputs = inputs.with_tools(names);
            }
            match writ_store::lifecycle::freeze(&store, &id, &inputs) {
                Ok(FreezeOutcome::Frozen { summary, issues }) => report_lifecycle(&summary, true, &issues, json),
                Ok(FreezeOutcome::Refused { summary, issues }) => report_lifecycle(&summary, false, &issues, json),
                Err(error) => refused(&error),
            }
        }
        PlanCommand::Unfreeze {
            id,
            tools: _,
            store,
            json,
        } => {
            let store = open_store(&store.store)?;
            match store.unfreeze(&id) {
                Ok(summary) => report_lifecycle(&summary, true, &[], json),
                Err(error) => refused(&error),
            }
        }
        PlanCommand::Approve {
            id,
            digest,
            by,
            store,
            json,
        } => {
            let store = open_store(&store.store)?;
            let plan = match store.read_plan(&id) {
                Ok(plan) => plan,
                Err(error) => return refused(&error),
            };
            // The operator consents to the digest they read and to the authority the plan
            // claims; the store refuses unless both are the plan's as it stands.
            let mut record = ApprovalRecord::for_view(&plan.view, by, now_rfc3339());
            record.digest = digest;
            match store.approve(&id, &record) {
                Ok(summary) => {
                    let line = format!(
                        "{id}: {} at digest {}, approved by {}",
                        summary.state, summary.digest, record.decided_by
                    );
                    print_summary(&summary, json, &line)
                }
                Err(error) => refused(&error),
            }
        }
        PlanCommand::Clone { id, store, json } => {
            let store = open_store(&store.store)?;
            // The first free `<id>-clone-<n>`.
            for n in 1..=10_000 {
                let new_id = format!("{id}-clone-{n}");
                match store.clone_plan(&id, &new_id, None) {
                    Ok(summary) => return print_summary(&summary, json, &summary.plan_id),
                    Err(StoreError::DuplicateId { .. }) => continue,
                    Err(error) => return refused(&error),
                }
            }
            Err(UsageError(format!(
                "plan {id} has 10,000 clones already; clone one of them instead"
            ))
            .into())
        }
    }
}

/// Prints a stored plan's summary as JSON, or `line`.
fn print_summary(summary: &writ_store::PlanSummary, json: bool, line: &str) -> Result<ExitStatus, CommandError> {
    if json {
        print_line(&summary.to_json().to_string())?;
    } else {
        print_line(line)?;
    }
    Ok(ExitStatus::Success)
}

/// A store's refusal: the command ran and the answer is no. Printed to stderr, exit status 1.
fn refused(error: &StoreError) -> Result<ExitStatus, CommandError> {
    let mut err = std::io::stderr().lock();
    writeln!(err, "writ: {error} ({})", error.code())?;
    Ok(ExitStatus::Failure)
}

/// The wall clock as RFC 3339 UTC, for an approval's informational `decidedAt`.
fn now_rfc3339() -> String {
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |elapsed| elapsed.as_millis() as f64);
    let fields = writ_core::date::UtcFields::of(millis);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        fields.year as i64,
        fields.month as i64 + 1,
        fields.day as i64,
        fields.hours as i64,
        fields.minutes as i64,
        fields.seconds as i64,
        fields.millis as i64
    )
}

/// A plan read from a file and folded.
struct Loaded {
    plan_id: String,
    ops: Vec<writ_plan::Op>,
    provenance: Option<writ_plan::Provenance>,
    view: PlanView,
    /// The reader's and the fold's issues.
    issues: Vec<PlanIssue>,
}

fn load(path: &Path) -> Result<Loaded, UsageError> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| UsageError(format!("cannot read the plan {}: {error}", path.display())))?;
    let json: Json =
        serde_json::from_str(&text).map_err(|error| UsageError(format!("{} is not JSON: {error}", path.display())))?;
    let source = writ_plan::read_document(&json).map_err(|error| {
        UsageError(format!(
            "{} is not a plan document or an op log: {error}",
            path.display()
        ))
    })?;
    let folded = source.fold();
    Ok(Loaded {
        plan_id: source.plan_id,
        ops: source.ops,
        provenance: source.provenance,
        view: folded.view,
        issues: folded.issues,
    })
}

fn check(file: &Path, tools: Option<&Path>, json: bool) -> Result<ExitStatus, CommandError> {
    let loaded = load(file)?;
    let catalogue = tools.map(tool_names).transpose()?;
    let cells = standard_cells();
    let mut inputs = FreezeInputs::new(&cells);
    if let Some(names) = catalogue.as_deref() {
        inputs = inputs.with_tools(names);
    }
    let mut issues = loaded.issues;
    for issue in writ_plan::check(&loaded.view, &inputs) {
        if !issues.contains(&issue) {
            issues.push(issue);
        }
    }
    let digest = writ_plan::digest(&loaded.view);
    let blocking = issues.iter().any(|issue| issue.severity == Severity::Blocking);
    let mut out = std::io::stdout().lock();
    if json {
        let report = json!({
            "ok": !blocking,
            "digest": digest,
            "issues": issues.iter().map(PlanIssue::to_json).collect::<Vec<_>>(),
        });
        writeln!(out, "{report}")?;
    } else {
        for issue in &issues {
            writeln!(out, "{issue}")?;
        }
        let verdict = if blocking { "blocked" } else { "ok" };
        writeln!(out, "{verdict}: {} issue(s); digest {digest}", issues.len())?;
    }
    out.flush()?;
    Ok(if blocking {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

fn report_lifecycle(
    summary: &writ_store::PlanSummary,
    ok: bool,
    issues: &[PlanIssue],
    json: bool,
) -> Result<ExitStatus, CommandError> {
    let mut out = std::io::stdout().lock();
    if json {
        let mut report = summary.to_json();
        if let Json::Object(fields) = &mut report {
            fields.insert("ok".into(), Json::Bool(ok));
            fields.insert(
                "issues".into(),
                Json::Array(issues.iter().map(PlanIssue::to_json).collect()),
            );
        }
        writeln!(out, "{report}")?;
    } else {
        for issue in issues {
            writeln!(out, "{issue}")?;
        }
        writeln!(
            out,
            "{}: {} at digest {}",
            summary.plan_id, summary.state, summary.digest
        )?;
    }
    out.flush()?;
    Ok(if ok { ExitStatus::Success } else { ExitStatus::Failure })
}

/// The five predicate cells with their default limits: what a plan's branch and select nodes
/// may name.
pub fn standard_cells() -> Registry {
    let mut registry = Registry::new();
    let cells: [Arc<dyn writ_cells::PredicateEvaluator>; 5] = [
        Arc::new(StructuredCell::default()),
        Arc::new(JexlCell::default()),
        Arc::new(LuaCell::default()),
        Arc::new(JsCell::default()),
        Arc::new(JsonataCell::default()),
    ];
    for cell in cells {
        // Five distinct ids: registering cannot collide.
        let _ = registry.register(cell);
    }
    registry
}

fn open_store(path: &Path) -> Result<SqliteStore, UsageError> {
    SqliteStore::open(path).map_err(|error| UsageError(format!("cannot open the store {}: {error}", path.display())))
}

fn print_line(line: &str) -> Result<(), std::io::Error> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()
}
