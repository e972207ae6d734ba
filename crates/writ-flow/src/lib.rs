//! writ-flow: seed 001's JSON workflow runtime — documents checked before they run, JSONata
//! expressions under limits, tools and models behind one seam.
//!
//! A workflow document is `{"version": 1, "root": <node>}`. [`check`] refuses every unknown
//! kind and field with its JSON Pointer ([`Issue`]); [`Workflow::parse`] builds the checked,
//! compiled form; [`run`] runs it over an input and gives its [`Output`]. Named workflows
//! ([`Workflows`]) are what `subflow` nodes call, themselves included.
//!
//! ```
//! use writ_core::parse_json;
//! use writ_flow::{Output, RunOptions, Workflow, Workflows, run};
//!
//! let document = parse_json(r#"{
//!   "version": 1,
//!   "root": {
//!     "kind": "loop", "id": "count", "maxIterations": "infinity",
//!     "body": {"kind": "compute", "id": "step", "expr": "{ 'n': n - 1, 'sum': sum + n }"},
//!     "until": {"kind": "expr", "expr": "n = 0"}
//!   }
//! }"#)?;
//! let workflow = Workflow::parse(&document).expect("a valid document");
//! let input = Output::text_output(r#"{"n": 4, "sum": 0}"#);
//! let output = run(&workflow, &Workflows::new(), input, &RunOptions::default())?;
//! assert_eq!(output.text().to_string_lossy(), r#"{"n":0,"sum":10}"#);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Nodes
//!
//! Every node has `kind` and `id` (unique in its document, since `$steps` reads outputs by id)
//! and may have `emitItems`. A node gets an input and gives an output; text passes between
//! nodes, and an expression reads text that parses as JSON as that value.
//!
//! | kind | fields | output |
//! |---|---|---|
//! | `compute` | `expr` | the result: a string as it is, anything else written as JSON text; no value is `EXPRESSION_FAILED` |
//! | `loop` | `body`, `until`?, `maxIterations`? (a positive integer or `"infinity"`; default 100) | the last iteration's output; each iteration's output is the next one's input; `until` is read after each iteration, on its output; reaching `maxIterations` ends the loop normally |
//! | `conditional` | `routes` (each exactly one of `match` or `expr`, and `target`), `default`? | the first passing route's target's output, else the default's; with neither, the input passes through |
//! | `sequence` | `steps` | the last step's output; each step's output is the next one's input |
//! | `subflow` | `ref` | the named workflow's output over this input; its nodes' outputs are its own `$steps`; nesting past `maxRecursionDepth` (default 100) is `WORKFLOW_RECURSION_LIMIT` |
//! | `callModel` | `instructions` | the model's answer: `instructions` is the system message, the input's text the user's |
//! | `call` | `connection` (a name, or `{"$expr": …}` giving one), `op`, `args`? | the tool's result; `args` values may be `{"$expr": …}`, at any depth, evaluated over the input (no value leaves the key out) |
//! | `wait` | `filter`? | the first event not yet taken that the filter accepts; the filter reads `{"event", "input"}`; none is `no-event` |
//! | `decide` | `question`? | the run's answer for this node's id, read as is |
//! | `fanOut` | `connections`, `body` | an array of the body's outputs over the input, one per connection in order, with `$item` the connection's name |
//!
//! A connection is an MCP server of the tools manifest, or `"tools"` for its inline command
//! tools ([`Connections`]); `op` is one of its tools. Fan-out paths run one after another, in
//! the order the connections are listed, so a run repeats.
//!
//! # Predicates
//!
//! `until` is a predicate: `{"kind": "expr", "expr"}` (a test), `{"kind": "any"|"all",
//! "predicates": […]}` (short-circuiting, in order), `{"kind": "maxDuration", "duration": ms}`
//! (holds once the loop has run that long, on the host's clock), `{"kind": "maxCost", "cost":
//! n}` (holds once the calls and model calls made since the loop started cost that much; writ
//! counts 1 per call, see [`Effects`]).
//!
//! # Expressions
//!
//! Expressions are JSONata 2.2.2 (writ-jsonata, through writ-core's engine seam). What one
//! reads: a string that parses as JSON is that value, any other string itself, a value that is
//! not a string as is. A compute node, a route, and a call's `$expr` read the node's input; an
//! until predicate reads the last iteration's output; a wait filter reads `{"event", "input"}`;
//! an `onStart` hook reads the node's input and `onDone` its output. Bindings: `$steps` (the
//! outputs of the nodes of the enclosing workflow that have completed, by id, read the same
//! way; `{}` before anything ran), `$refId(x)` (the id in a connection ref: `x` is an object
//! whose `$ref` is the id as a string, or an object with an `id` string; no value otherwise),
//! and `$item` inside a fan-out. `$now()`, `$millis()` and `$random()` come from
//! [`RunOptions::host`]: fixed by default, and a [`writ_core::RecordingHost`] records them so
//! that a [`writ_core::ReplayingHost`] gives a replayed run the same values.
//!
//! A route `expr`, an `expr` predicate and a wait `filter` are tests: true passes, false or no
//! value fails, anything else is `EXPRESSION_FAILED`.
//!
//! An emitItems hook (`{"item"?, "onStart"?, "onDone"?}`) gives what the node emits
//! ([`Emitted`]): with an `item`, its value as is (one event of the item on start, its final
//! fields on done); without one, message text written as compute output is. No value emits
//! nothing.
//!
//! # Limits
//!
//! Each evaluation runs under four limits ([`ExpressionLimits`], defaults
//! [`DEFAULT_EXPRESSION_LIMITS`]): `timeout` ms, `depth`, `steps`, and `sequence`; a range is
//! capped at 10,000,000 items whatever the limits. Crossing one is
//! `EXPRESSION_LIMIT_EXCEEDED`. [`RunLimits::from_json`] reads per-run overrides, where unset
//! fields keep their defaults and each value is a positive integer or `"Infinity"` (anything
//! else is `INVALID_EXPRESSION_LIMITS`). A limit bounds one evaluation; `maxDuration` and
//! `maxCost` bound a loop, `maxRecursionDepth` subflow nesting.
//!
//! # Errors
//!
//! | code | meaning | an input that triggers it | what to write instead |
//! |---|---|---|---|
//! | `EXPRESSION_FAILED` | JSONata threw (its code and position quoted), a test gave something other than a boolean or no value, a compute gave no value | `"expr": "'a' - 1"` | an expression that types, a comparison written out |
//! | `EXPRESSION_LIMIT_EXCEEDED` | an evaluation crossed a limit, or a range passed 10,000,000 | `[1..100000000]` | less work, or higher limits |
//! | `INVALID_EXPRESSION_LIMITS` | a limit that is not a positive integer or `"Infinity"`, or no limit's name | `{"timeout": 0}` | `{"timeout": 5000}` |
//! | `WORKFLOW_RECURSION_LIMIT` | subflows nested past `maxRecursionDepth` | a recursion without a base case | a base case, or a higher `maxRecursionDepth` |
//! | `unsupported-version` | not an object, or `version` is not 1 | `{"version": 2, …}` | `"version": 1` |
//! | `unknown-field` | a field the node, predicate, route or document does not have | `"exprs"` | the field named in the help |
//! | `missing-field` | a required field is absent | a compute without `expr` | the field |
//! | `invalid-field` | a field of the wrong kind, or a route with both `match` and `expr` | `"maxIterations": 0` | the kind the message names |
//! | `unknown-node-kind` | a `kind` no node has | `"kind": "map"` | one of the kinds above |
//! | `unknown-predicate-kind` | a predicate `kind` no predicate has | `"kind": "timeout"` | one of the predicate kinds |
//! | `duplicate-node-id` | two nodes share an id | two `"id": "step"` | distinct ids |
//! | `unknown-workflow` | a subflow names a workflow not given | `"ref": "sum"` without it | the workflow in `--workflows` |
//! | `invalid-expression` | an expression does not parse (JSONata's S-code quoted) | `"expr": "n ="` | JSONata that parses |
//! | `unbounded-loop` | `"maxIterations": "infinity"` without `until` | | an until predicate |
//! | `unknown-connection` | a connection or op the tools do not have | `"connection": "fs"` without it | a server of the manifest and one of its tools |
//! | `no-event` | a wait found no event its filter accepts | an empty `--events` | the event |
//! | `no-answer` | a decide node has no answer | no `--answers` | `{"<id>": …}` |
//! | `no-model` | a callModel ran without a model | no `--model` | a model file |
//! | `run-aborted` | the host raised the run's interrupt | | |
//! | `store-failed` | the run store failed or has no such run | | |
//! | tool and model codes | a call or model call failed (`tool_failed`, `invalid_args`, …) | | what the message says |
//!
//! The checker reports every issue, sorted by JSON Pointer and then by code.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod document;
mod effects;
mod error;
mod expr;
mod interp;
mod limits;
mod output;

use std::collections::BTreeMap;
use std::sync::Arc;

use writ_core::{FixedHost, Host, Interrupt, Object, Value};

pub use document::{DEFAULT_MAX_ITERATIONS, NODE_KINDS, PREDICATE_KINDS, Workflow};
pub use effects::{Connections, Effects, INLINE_TOOLS, NoEffects};
pub use error::{Code, Error, Issue};
pub use limits::{DEFAULT_EXPRESSION_LIMITS, DEFAULT_MAX_RECURSION_DEPTH, ExpressionLimits, RunLimits};
pub use output::Output;

/// The JSON Schema of the workflow document format (draft 2020-12).
pub const WORKFLOW_SCHEMA: &str = include_str!("../schemas/workflow.schema.json");

/// The named workflows `subflow` nodes call, by name.
#[derive(Clone, Debug, Default)]
pub struct Workflows {
    by_name: BTreeMap<String, Workflow>,
}

impl Workflows {
    /// No named workflows.
    pub fn new() -> Workflows {
        Workflows::default()
    }

    /// Adds (or replaces) the workflow `name`.
    pub fn insert(&mut self, name: impl Into<String>, workflow: Workflow) {
        self.by_name.insert(name.into(), workflow);
    }

    /// The workflow `name`.
    pub fn get(&self, name: &str) -> Option<&Workflow> {
        self.by_name.get(name)
    }

    /// The names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.by_name.keys().map(String::as_str)
    }
}

/// Checks `document` as a workflow whose subflows call `workflows`: every issue, each with a
/// JSON Pointer, sorted by path and then by code; empty when the document can run.
///
/// ```
/// use writ_core::parse_json;
/// use writ_flow::{Workflows, check};
///
/// let document = parse_json(r#"{"version": 1, "root": {"kind": "compute", "id": "step", "exprs": "1"}}"#)?;
/// let issues = check(&document, &Workflows::new());
/// let found: Vec<(&str, &str)> = issues.iter().map(|i| (i.code.as_str(), i.path.as_str())).collect();
/// assert_eq!(found, [("missing-field", "/root/expr"), ("unknown-field", "/root/exprs")]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check(document: &Value, workflows: &Workflows) -> Vec<Issue> {
    let names: Vec<&str> = workflows.names().collect();
    check_names(document, &names)
}

/// As [`check`], where only the names of the workflows subflows may call are known (a
/// directory listing, say).
pub fn check_names(document: &Value, workflow_names: &[&str]) -> Vec<Issue> {
    let unknown = |name: &str| -> Option<Vec<String>> {
        if workflow_names.contains(&name) {
            None
        } else {
            Some(workflow_names.iter().map(|name| (*name).to_string()).collect())
        }
    };
    document::check_document(document, &unknown)
}

/// Which hook emitted an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hook {
    /// `onStart`, over the node's input.
    OnStart,
    /// `onDone`, over the node's output.
    OnDone,
}

impl Hook {
    /// `"onStart"` or `"onDone"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Hook::OnStart => "onStart",
            Hook::OnDone => "onDone",
        }
    }
}

/// What an emitItems hook emitted.
#[derive(Clone, Debug, PartialEq)]
pub struct Emitted {
    /// The node's id.
    pub node: String,
    /// Which hook.
    pub hook: Hook,
    /// The item the node names, if any.
    pub item: Option<String>,
    /// With an item, the hook's value as is; without one, message text (a string).
    pub value: Value,
}

/// A sink for emitted items.
pub type EmitSink = Arc<dyn Fn(&Emitted) + Send + Sync>;

/// How a run runs.
#[derive(Clone)]
pub struct RunOptions {
    /// The expression limits and the recursion depth.
    pub limits: RunLimits,
    /// Where `$now()`, `$millis()`, `$random()` and the clock of `maxDuration` and the
    /// timeouts come from. [`FixedHost`] by default, so a run repeats.
    pub host: Arc<dyn Host>,
    /// Tools and models.
    pub effects: Arc<dyn Effects>,
    /// The events wait nodes can take, in arrival order.
    pub events: Vec<Value>,
    /// The answers decide nodes read, by node id.
    pub answers: Object,
    /// Where emitted items go (nowhere by default).
    pub on_emit: Option<EmitSink>,
    /// A flag the host may raise to stop the run before its next node (`run-aborted`).
    pub interrupt: Option<Interrupt>,
    /// The run's id: the first part of every call's idempotency key.
    pub run_id: String,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            limits: RunLimits::default(),
            host: Arc::new(FixedHost::default()),
            effects: Arc::new(NoEffects),
            events: Vec::new(),
            answers: Object::new(),
            on_emit: None,
            interrupt: None,
            run_id: "run".to_string(),
        }
    }
}

impl std::fmt::Debug for RunOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunOptions")
            .field("limits", &self.limits)
            .field("events", &self.events.len())
            .field("run_id", &self.run_id)
            .finish_non_exhaustive()
    }
}

/// Runs `workflow` over `input`, its subflows calling `workflows`.
///
/// # Errors
///
/// The first failure, with its code (see the crate's table) and a message naming the node.
pub fn run(workflow: &Workflow, workflows: &Workflows, input: Output, options: &RunOptions) -> Result<Output, Error> {
    interp::run(workflow, workflows, input, options, None)
}

/// Where a durable run keeps its completed nodes, and where a resumed run finds them.
///
/// A node's step number is its place in the order the run's nodes completed. A run is
/// deterministic given what it reads from outside — its calls' and model calls' answers, its
/// events and answers, and its host's reads — so a resumed run runs again from the start,
/// taking each call and model call that completed before from [`Journal::replayed`] instead of
/// making it again, and replaying the recorded host reads (a [`writ_core::ReplayingHost`]);
/// everything else is computed again and gives the same outputs.
///
/// What a replay does not repeat exactly: emitItems hooks of the nodes it computes again emit
/// again (emission is at least once), and a `maxDuration` counts from when the resumed run
/// reached its loop, on this process's clock.
pub trait Journal {
    /// The output and cost recorded for step `step`, the call or model call `node_id`; `None`
    /// when nothing was recorded there (the run goes on live from that step).
    ///
    /// # Errors
    ///
    /// `store-failed` when the store fails, or when the recorded step is another node's (the
    /// document changed under the run).
    fn replayed(&mut self, step: u64, node_id: &str) -> Result<Option<(Output, f64)>, Error>;

    /// Marks that the call or model call `node_id` is about to run as step `step`: everything
    /// recorded so far, and the host reads made since, must be durable when this returns, so a
    /// resume that finds the call entered and not completed repeats it with the same arguments
    /// (and the same idempotency key).
    ///
    /// # Errors
    ///
    /// `store-failed` when the store fails.
    fn entered(&mut self, step: u64, node_id: &str) -> Result<(), Error>;

    /// Records that node `node_id` completed as step `step` with `output`. An `effect` (a call
    /// or model call) must be durable when this returns; other steps, which a resume computes
    /// again, may be kept and written with the next durable one.
    ///
    /// # Errors
    ///
    /// `store-failed` when the store fails.
    fn record(&mut self, step: u64, node_id: &str, output: &Output, cost: f64, effect: bool) -> Result<(), Error>;

    /// How many calls and model calls the journal held completed when the run started: a
    /// resumed run replays them, and what it emits before the last of them completes was
    /// emitted before the run stopped, so it is not emitted again. What it emits from there
    /// on is emitted again (at least once: the run may have stopped before or after it).
    fn recorded_calls(&self) -> u64;

    /// Writes whatever [`Journal::record`] kept.
    ///
    /// # Errors
    ///
    /// `store-failed` when the store fails.
    fn flush(&mut self) -> Result<(), Error>;
}

/// Runs `workflow` over `input` as [`run`] does, recording each completed node in `journal`
/// and taking the calls and model calls it already holds from it (see [`Journal`]).
///
/// # Errors
///
/// As [`run`], and `store-failed` from the journal.
pub fn run_durable(
    workflow: &Workflow,
    workflows: &Workflows,
    input: Output,
    options: &RunOptions,
    journal: &mut dyn Journal,
) -> Result<Output, Error> {
    interp::run(workflow, workflows, input, options, Some(journal))
}
