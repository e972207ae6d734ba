//! The executor: drives a run's frames, at most `maxConcurrentFrames` at once, writing what
//! happens as events before acting on anything that may not happen twice.
//!
//! One task decides; the work of each frame (a tool call, a model, a predicate) is a future it
//! polls. Each turn of the loop settles every frame that finished and starts every frame that
//! may start. Their events are committed in one append (group commit) *before* a started frame
//! does work that must not be repeated: a call that is not replay-safe with `retry`, or a model.
//! Work a resume may simply do again (predicates, replay-safe calls) may run ahead of the log,
//! whose pending tail is committed before the driver waits on work in flight, every
//! [`GROUP_EVENTS`] events or [`GROUP_AGE`], and when the run stops. So the log on disk is
//! always a prefix of the run's events: a process killed at any point leaves a log from which a
//! resume loses no committed output, never repeats a call it may not repeat, and never guesses.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures_util::stream::{FuturesUnordered, StreamExt};
use futures_util::{FutureExt, future::BoxFuture};
use serde_json::{Map as JsonMap, Value as Json, json};
use sha2::{Digest, Sha256};
use tokio::sync::Notify;
use writ_cells::{OutputTable, PredicateContext, PredicateNode, Registry, Verdict};
use writ_model::Model;
use writ_plan::{BranchId, CallDefinition, Definition, Handle, OnIndeterminate, RouteSegment};
use writ_store::StoreError;
use writ_store::run::{FrameRef, JoinState, NodeError, NodeOutcome, RunBatch, RunEvent, RunOutcome, RunStore};
use writ_tools::{ToolCall, Toolbox};

use crate::compiled::{CompiledPlan, Decision, fires_on_success};
use crate::error::RunError;
use crate::projection::RunView;
use crate::resolve::{check_fields, render_prompt, resolve_args, result_items};
use crate::state::{FrameId, FrameRecord, RunState};

/// How a runtime drives runs.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The longest one node may run before it fails with `node_timeout` (default 5 minutes).
    pub node_timeout: Duration,
    /// How long a lease lasts unless renewed; it is renewed every third of it (default 15 s).
    /// A process that dies holds its run this long before a resume may take it.
    pub lease: Duration,
    /// Who this process is, in leases and messages (default [`process_owner`]).
    pub owner: String,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            node_timeout: Duration::from_secs(300),
            lease: Duration::from_secs(15),
            owner: process_owner(),
        }
    }
}

/// This process as a lease owner: `<host>/<pid>/<start>`, where `<start>` is when the process
/// started (Linux: `/proc/self/stat`'s start time, so a reused pid is a different owner). A
/// resume on the same host can then tell that a run's owner is dead and take the run over at
/// once, instead of waiting for the lease to run out.
pub fn process_owner() -> String {
    let pid = std::process::id();
    let start = process_start(pid).unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| u64::from(since.subsec_nanos()))
    });
    format!("{}/{pid}/{start}", host_name())
}

/// Whether `owner` ([`process_owner`]'s form) is a process on this host that no longer runs.
/// `false` whenever it cannot be told: another host, another form, no `/proc`.
pub fn owner_is_dead(owner: &str) -> bool {
    let mut parts = owner.rsplitn(3, '/');
    let (Some(start), Some(pid), Some(host)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let (Ok(pid), Ok(start)) = (pid.parse::<u32>(), start.parse::<u64>()) else {
        return false;
    };
    if host != host_name() || !std::path::Path::new("/proc/self/stat").exists() {
        return false;
    }
    process_start(pid) != Some(start)
}

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|name| name.trim().to_owned())
        .ok()
        .filter(|name| !name.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "localhost".into())
}

/// The start time of process `pid` in clock ticks since boot (field 22 of `/proc/<pid>/stat`).
fn process_start(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// Stops a run from outside: frames in flight are cancelled (a cancelled call's fate is then
/// decided at resume by its `onIndeterminate`), and the run settles `interrupted`.
#[derive(Clone, Debug, Default)]
pub struct Abort {
    inner: Arc<AbortInner>,
}

#[derive(Debug, Default)]
struct AbortInner {
    aborted: AtomicBool,
    notify: Notify,
}

impl Abort {
    /// A handle that has not aborted.
    pub fn new() -> Abort {
        Abort::default()
    }

    /// Aborts every run driven with this handle.
    pub fn abort(&self) {
        self.inner.aborted.store(true, Ordering::SeqCst);
        self.inner.notify.notify_waiters();
    }

    /// Whether [`abort`](Abort::abort) was called.
    pub fn is_aborted(&self) -> bool {
        self.inner.aborted.load(Ordering::SeqCst)
    }

    async fn aborted(&self) {
        loop {
            let notified = self.inner.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.is_aborted() {
                return;
            }
            notified.await;
        }
    }
}

/// Sees each batch of events once it is committed: a progress display, a log shipper.
pub trait Observer: Send + Sync {
    /// `events` were committed to run `run_id`.
    fn committed(&self, run_id: &str, events: &[RunEvent]);
}

/// Runs approved plans from a store, with tools, an optional model and predicate cells.
pub struct Runtime {
    store: Arc<dyn RunStore>,
    tools: Arc<Toolbox>,
    model: Option<Arc<dyn Model>>,
    cells: Arc<Registry>,
    options: RunOptions,
    observer: Option<Arc<dyn Observer>>,
}

impl Runtime {
    /// A runtime over `store`, calling `tools` and deciding predicates with `cells`.
    pub fn new(store: Arc<dyn RunStore>, tools: Arc<Toolbox>, cells: Arc<Registry>) -> Runtime {
        Runtime {
            store,
            tools,
            model: None,
            cells,
            options: RunOptions::default(),
            observer: None,
        }
    }

    /// Reason nodes ask `model`; without one they fail with `model_missing`.
    #[must_use]
    pub fn with_model(mut self, model: Arc<dyn Model>) -> Runtime {
        self.model = Some(model);
        self
    }

    /// Drives runs with `options`.
    #[must_use]
    pub fn with_options(mut self, options: RunOptions) -> Runtime {
        self.options = options;
        self
    }

    /// Tells `observer` of every committed batch.
    #[must_use]
    pub fn with_observer(mut self, observer: Arc<dyn Observer>) -> Runtime {
        self.observer = Some(observer);
        self
    }

    /// Runs plan `plan_id` on `input`, as run `run_id` (or a new id).
    ///
    /// The input is checked against the entry's declared fields before the plan's one run is
    /// claimed, so a refused input does not use it up. The plan must be executable at its
    /// approved digest.
    ///
    /// # Errors
    ///
    /// A [`RunError`] when the run cannot start or the store fails mid-run. A node failing is
    /// not an error: the returned view says `failed`.
    pub async fn start(
        &self,
        plan_id: &str,
        input: Json,
        run_id: Option<&str>,
        abort: &Abort,
    ) -> Result<RunView, RunError> {
        let stored = self.store.read_plan(plan_id)?;
        let plan = CompiledPlan::new(&stored.view, &stored.summary.digest)?;
        let problems = match (&plan.nodes[&plan.entry].definition, &input) {
            (Definition::Entry(entry), Json::Object(_)) => check_fields(&input, &entry.input),
            (_, other) => vec![format!(
                "the input is {}, not an object",
                crate::resolve::json_kind(other)
            )],
        };
        if !problems.is_empty() {
            return Err(RunError::InvalidInput { problems });
        }
        let run_id = run_id.map_or_else(new_run_id, str::to_owned);
        match self.store.claim_run(plan_id, &plan.digest, &run_id) {
            Ok(_) => {}
            // Claimed under this id by a start that died before the run's first event: the
            // caller named the run up front precisely to start it again.
            Err(StoreError::RunAlreadyClaimed { run_id: claimed, .. })
                if claimed == run_id && self.store.read_run_events(&run_id)?.is_empty() => {}
            Err(error) => return Err(error.into()),
        }
        self.acquire(&run_id)?;
        if !self.store.read_run_events(&run_id)?.is_empty() {
            // Another start under the same id got there first.
            self.store.release_run(&run_id, &self.options.owner)?;
            return Err(StoreError::RunAlreadyClaimed {
                plan_id: plan_id.to_owned(),
                run_id,
            }
            .into());
        }
        let mut driver = Driver::new(self, plan, run_id.clone());
        driver.emit(RunEvent::RunStarted {
            run_id,
            plan_id: plan_id.to_owned(),
            digest: driver.plan.digest.clone(),
            input,
            at: now_ms(),
        });
        let result = driver.drive(abort).await;
        driver.finish(result)
    }

    /// Takes the run's lease, from a dead owner on this host too (no need to wait for its lease
    /// to run out).
    fn acquire(&self, run_id: &str) -> Result<writ_store::RunSummary, StoreError> {
        match self.store.acquire_run(run_id, &self.options.owner, self.options.lease) {
            Err(StoreError::RunInUse { owner, .. }) if owner_is_dead(&owner) => {
                self.store
                    .take_over_run(run_id, &self.options.owner, self.options.lease, &owner)
            }
            other => other,
        }
    }

    /// Resumes run `run_id` after an abort, a halt or a crash, from its last committed batch.
    ///
    /// Frames that were started and never settled are decided first: a call by its
    /// `onIndeterminate` (`retry` calls it again with the same idempotency key, only when it is
    /// replay-safe; `halt` stops the run for a person to decide; `skip` settles it skipped and
    /// follows its `error` edges), any other node runs again (predicates and joins are
    /// deterministic; a reason node asks its model again).
    ///
    /// # Errors
    ///
    /// A [`RunError`]: the run is missing, settled for good (`run_already_settled`), driven by
    /// a live process (`run_in_use`), or its log is unreadable.
    pub async fn resume(&self, run_id: &str, abort: &Abort) -> Result<RunView, RunError> {
        let summary = self.acquire(run_id)?;
        let stored = self.store.read_plan(&summary.plan_id)?;
        let plan = CompiledPlan::new(&stored.view, &stored.summary.digest)?;
        let events = self.store.read_run_events(run_id)?;
        if !matches!(events.first(), Some(RunEvent::RunStarted { .. })) {
            let _ = self.store.release_run(run_id, &self.options.owner);
            return Err(RunError::NeverStarted {
                run_id: run_id.to_owned(),
            });
        }
        let mut driver = Driver::new(self, plan, run_id.to_owned());
        driver.state.apply_all(&events);
        if driver.state.settled.is_none() {
            driver.emit(RunEvent::RunInterrupted {
                cause: "process_death".into(),
                node_id: None,
                detail: Some("the process driving the run stopped before the run settled".into()),
                at: now_ms(),
            });
        }
        driver.decide_unsettled();
        let result = driver.drive(abort).await;
        driver.finish(result)
    }
}

/// A fresh run id: `run-` and 16 hex digits from the time, the process and a counter.
fn new_run_id() -> String {
    use std::sync::atomic::AtomicU64;
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = Sha256::new();
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos());
    hasher.update(nanos.to_le_bytes());
    hasher.update(std::process::id().to_le_bytes());
    hasher.update(COUNTER.fetch_add(1, Ordering::Relaxed).to_le_bytes());
    let digest = hasher.finalize();
    format!("run-{}", hex(&digest[..8]))
}

/// `bytes` in lowercase hex. A digit at a time from a table: every call's key is written so, and
/// the formatting machinery cost a step more than the rest of the key but the hash.
fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0xf)]));
    }
    out
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| u64::try_from(since.as_millis()).unwrap_or(u64::MAX))
}

/// The idempotency key of a call: SHA-256 over the run, the frame and the canonical JSON (RFC
/// 8785) of its arguments, so the same call in the same run always carries the same key and a
/// tool can recognise a retry.
pub fn idempotency_key(run_id: &str, frame_key: &str, args: &JsonMap<String, Json>) -> String {
    let canonical = writ_core::Value::from(&Json::Object(args.clone()))
        .to_canonical_json()
        .unwrap_or_else(|_| Json::Object(args.clone()).to_string());
    let mut hasher = Sha256::new();
    for part in ["writ.call.v1", run_id, frame_key, &canonical] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    hex(&hasher.finalize())
}

/// Why the loop stopped launching frames.
#[derive(Clone, Debug)]
enum Stop {
    Aborted,
    Budget,
    Failed { node_id: String, detail: String },
    Indeterminate { node_id: String, detail: String },
}

/// The most events a run holds uncommitted while its frames' work may run ahead of the log.
const GROUP_EVENTS: usize = 256;

/// The longest a run holds events uncommitted while its frames' work may run ahead of the log.
const GROUP_AGE: Duration = Duration::from_millis(10);

/// What a frame's task does.
enum Work {
    Entry(Json),
    Fail(NodeError),
    Call {
        tool: String,
        call: ToolCall,
        output: Vec<writ_plan::DeclaredField>,
        /// Replay-safe with `onIndeterminate: retry`: a resume may call it again.
        repeatable: bool,
    },
    Reason {
        prompt: String,
        schema: Json,
        max_attempts: u64,
    },
    Predicate {
        node: Arc<PredicateNode>,
        context: Box<PredicateContext>,
    },
}

impl Work {
    /// Whether this work may start before the events before it are committed: a resume that
    /// finds them missing does it again, which only work that may be repeated allows.
    fn may_run_ahead_of_the_log(&self) -> bool {
        match self {
            Work::Entry(_) | Work::Fail(_) | Work::Predicate { .. } => true,
            Work::Call { repeatable, .. } => *repeatable,
            // A model answers differently each time, and costs each time.
            Work::Reason { .. } => false,
        }
    }
}

/// Whether a resume may call `call` again when it was started and never settled: only when the
/// plan says it is replay-safe and its `onIndeterminate` is `retry`.
fn repeatable(call: &CallDefinition) -> bool {
    call.replay_safe == Some(true) && call.on_indeterminate == Some(OnIndeterminate::Retry)
}

/// A frame's work, done.
struct Done {
    items: Vec<Json>,
    decision: Decision,
    verdict: Option<Json>,
    attempts: Option<u64>,
}

/// Frames' work in flight: each its frame and how it ended (`Err` when it panicked).
type Running = FuturesUnordered<BoxFuture<'static, (FrameId, std::thread::Result<Result<Done, NodeError>>)>>;

struct Driver<'r> {
    runtime: &'r Runtime,
    plan: CompiledPlan,
    run_id: String,
    state: RunState,
    /// Events applied to the state and not yet committed.
    batch: Vec<RunEvent>,
    /// When the oldest event of `batch` was recorded.
    pending_since: Option<Instant>,
    /// Whether this driver has committed anything: until it has, no work starts ahead of the log.
    committed_any: bool,
    stop: Option<Stop>,
}

impl<'r> Driver<'r> {
    fn new(runtime: &'r Runtime, plan: CompiledPlan, run_id: String) -> Driver<'r> {
        let entry = plan.entry.clone();
        let kind = plan.nodes[&entry].kind.to_owned();
        Driver {
            runtime,
            plan,
            run_id,
            state: RunState::new(Some((entry, kind))),
            batch: Vec::new(),
            pending_since: None,
            committed_any: false,
            stop: None,
        }
    }

    /// Records an event: applied to the state now, committed at the next flush.
    fn emit(&mut self, event: RunEvent) {
        self.state.apply(&event);
        if self.batch.is_empty() {
            self.pending_since = Some(Instant::now());
        }
        self.batch.push(event);
    }

    /// Whether the pending events must be committed before `ready` starts.
    fn must_commit_before(&self, ready: &[(FrameId, Work)]) -> bool {
        !self.committed_any
            || self.batch.len() >= GROUP_EVENTS
            || self.pending_since.is_some_and(|since| since.elapsed() >= GROUP_AGE)
            || ready.iter().any(|(_, work)| !work.may_run_ahead_of_the_log())
    }

    fn flush(&mut self) -> Result<(), RunError> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let batch = RunBatch {
            run_id: &self.run_id,
            events: &self.batch,
        };
        self.runtime
            .store
            .append_run_events(&self.runtime.options.owner, std::slice::from_ref(&batch))?;
        if let Some(observer) = &self.runtime.observer {
            observer.committed(&self.run_id, &self.batch);
        }
        self.batch.clear();
        self.pending_since = None;
        self.committed_any = true;
        Ok(())
    }

    /// Decides, at resume, every frame that was started and never settled.
    fn decide_unsettled(&mut self) {
        let unsettled: Vec<(FrameId, String, String)> = self
            .state
            .unsettled()
            .map(|(id, record)| (id, record.frame.node_id.clone(), record.frame.kind.clone()))
            .collect();
        for (id, node_id, kind) in unsettled {
            if kind != "call" {
                self.state.requeue(id);
                continue;
            }
            let Definition::Call(call) = &self.plan.nodes[&node_id].definition else {
                continue;
            };
            match call.on_indeterminate {
                _ if repeatable(call) => self.state.requeue(id),
                Some(OnIndeterminate::Skip) => {
                    let error = NodeError {
                        code: "indeterminate_skip".into(),
                        message: format!(
                            "call \"{node_id}\" was started and never settled; its onIndeterminate is skip, so it \
                             was not called again"
                        ),
                    };
                    self.settle_failure(id, error, true);
                }
                policy => {
                    let detail = match policy {
                        Some(OnIndeterminate::Retry) => format!(
                            "call \"{node_id}\" was started and never settled, and it is not replay-safe, so it is \
                             not retried; check whether the tool acted, then clone the plan to go on"
                        ),
                        _ => format!(
                            "call \"{node_id}\" was started and never settled; its onIndeterminate is halt: check \
                             whether the tool acted, then clone the plan to go on"
                        ),
                    };
                    if self.stop.is_none() {
                        self.stop = Some(Stop::Indeterminate { node_id, detail });
                    }
                }
            }
        }
    }

    async fn drive(&mut self, abort: &Abort) -> Result<(), RunError> {
        let max_running = usize::try_from(self.plan.bounds.max_concurrent_frames.max(1)).unwrap_or(usize::MAX);
        // Frames' work is polled here, in the driver's own task, rather than spawned: a tool
        // call is I/O, a predicate runs on a blocking thread, and a spawn per frame cost a
        // cross-thread wake-up per step.
        let mut running = Running::new();
        let mut ready: Vec<(FrameId, Work)> = Vec::new();
        let renew_every = (self.runtime.options.lease / 3).max(Duration::from_millis(10));
        let mut renew = tokio::time::interval_at(tokio::time::Instant::now() + renew_every, renew_every);
        loop {
            if abort.is_aborted() {
                return self.aborted(running);
            }
            while self.stop.is_none() && running.len() + ready.len() < max_running {
                let Some(id) = self.state.next_due() else { break };
                let record = self.state.frame(id);
                if self.state.steps >= self.plan.bounds.max_steps && !record.entered {
                    self.state.requeue(id);
                    self.stop = Some(Stop::Budget);
                    break;
                }
                if record.frame.kind == "join" {
                    self.arrive(id);
                } else {
                    let work = self.enter(id);
                    ready.push((id, work));
                }
            }
            if self.must_commit_before(&ready) {
                self.flush()?;
            }
            for (id, work) in ready.drain(..) {
                let task = perform(
                    work,
                    self.runtime.tools.clone(),
                    self.runtime.model.clone(),
                    self.runtime.cells.clone(),
                );
                let timeout = self.runtime.options.node_timeout;
                running.push(
                    async move {
                        let timed = AssertUnwindSafe(tokio::time::timeout(timeout, task))
                            .catch_unwind()
                            .await;
                        let result = timed.map(|within| {
                            within.unwrap_or_else(|_| {
                                Err(NodeError {
                                    code: "node_timeout".into(),
                                    message: format!("the node did not finish within {} ms", timeout.as_millis()),
                                })
                            })
                        });
                        (id, result)
                    }
                    .boxed(),
                );
            }
            if running.is_empty() && (self.stop.is_some() || !self.state.has_due()) {
                return Ok(());
            }
            if running.is_empty() {
                continue;
            }
            // Work already done (an in-process tool, a failed argument) settles without a wait.
            if let Some(Some((id, ended))) = running.next().now_or_never() {
                self.settle_ended(id, ended);
                self.settle_done(&mut running);
                // A run whose work never waits still renews its lease on time.
                if renew.tick().now_or_never().is_some() {
                    self.renew_lease()?;
                }
                continue;
            }
            // The run is about to wait on work in flight: the log catches up first.
            self.flush()?;
            tokio::select! {
                biased;
                () = abort.aborted() => return self.aborted(running),
                _ = renew.tick() => {
                    if let Err(error) = self.renew_lease() {
                        // Dropping the frames' work cancels it.
                        drop(running);
                        return Err(error.into());
                    }
                }
                Some((id, ended)) = running.next() => {
                    self.settle_ended(id, ended);
                    self.settle_done(&mut running);
                }
            }
        }
    }

    /// Settles every frame whose work is already done, without waiting for the rest.
    fn settle_done(&mut self, running: &mut Running) {
        while let Some(Some((id, ended))) = running.next().now_or_never() {
            self.settle_ended(id, ended);
        }
    }

    fn renew_lease(&self) -> Result<(), StoreError> {
        self.runtime
            .store
            .renew_run(&self.run_id, &self.runtime.options.owner, self.runtime.options.lease)
    }

    /// Cancels every frame in flight; they stay unsettled, for a resume to decide.
    fn aborted(&mut self, running: Running) -> Result<(), RunError> {
        self.stop = Some(Stop::Aborted);
        drop(running);
        Ok(())
    }

    fn settle_ended(&mut self, id: FrameId, ended: std::thread::Result<Result<Done, NodeError>>) {
        match ended {
            Ok(Ok(done)) => self.settle_success(id, done),
            Ok(Err(error)) => self.settle_failure(id, error, false),
            // A tool (an embedding host's closure, say) panicked: the frame failed, and the
            // run goes on by its error edges like any other failure.
            Err(panic) => {
                let detail = panic
                    .downcast_ref::<&str>()
                    .map(|text| (*text).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "no message".into());
                let error = NodeError {
                    code: "node_panicked".into(),
                    message: format!("the node's work panicked ({detail}); the tool or host has a bug"),
                };
                self.settle_failure(id, error, false);
            }
        }
    }

    /// Starts frame `id`: records it entered and returns its work.
    fn enter(&mut self, id: FrameId) -> Work {
        let record = self.state.frame(id);
        let node = &self.plan.nodes[&record.frame.node_id];
        let mut idempotency = None;
        let work = match &node.definition {
            Definition::Entry(_) => Work::Entry(self.state.input.clone()),
            Definition::Call(call) => match resolve_args(&call.args, &record.input, call.on_missing_value) {
                Ok(args) => {
                    let idempotency_key = record
                        .idempotency_key
                        .clone()
                        .unwrap_or_else(|| idempotency_key(&self.run_id, &record.key, &args));
                    idempotency = Some(idempotency_key.clone());
                    Work::Call {
                        tool: call.tool.clone(),
                        call: ToolCall { args, idempotency_key },
                        output: call.output.clone(),
                        repeatable: repeatable(call),
                    }
                }
                Err(missing) => Work::Fail(NodeError {
                    code: "missing_value".into(),
                    message: format!(
                        "argument \"{}\" reads node \"{}\", which has no such value on this route; its onMissingValue \
                         is fail",
                        missing.at, missing.node
                    ),
                }),
            },
            Definition::Reason(reason) => Work::Reason {
                prompt: render_prompt(&reason.prompt, &record.input),
                schema: reason.output_schema.clone(),
                max_attempts: reason.max_attempts,
            },
            Definition::Branch(_) | Definition::Select(_) => {
                let predicate = node
                    .predicate
                    .clone()
                    .expect("branch and select nodes compile a predicate");
                Work::Predicate {
                    node: predicate,
                    context: Box::new(predicate_context(record)),
                }
            }
            Definition::Join => unreachable!("joins arrive, they are not entered as work"),
        };
        let event = RunEvent::NodeEntered {
            frame: record.frame.clone(),
            parents: record.parents.iter().map(ToString::to_string).collect(),
            idempotency_key: idempotency,
            at: now_ms(),
        };
        self.emit(event);
        work
    }

    /// A join arrival: parks at its barrier, or closes it and settles the merged frame.
    fn arrive(&mut self, id: FrameId) {
        let record = self.state.frame(id);
        let key = record.key.clone();
        let arrival_frame = record.frame.clone();
        let parents = record.parents.iter().map(ToString::to_string).collect();
        let node = &self.plan.nodes[&arrival_frame.node_id];
        let fork = node.fork.clone().unwrap_or_else(|| self.plan.entry.clone());
        let prefix = self.plan.prefix_to_fork(&arrival_frame.branch_id.segments, &fork);
        let correlation_key = format!(
            "{}@{}",
            arrival_frame.node_id,
            BranchId {
                segments: prefix.clone()
            }
            .key()
        );
        let mut joins = self.state.joins.clone();
        let at = match joins.iter().position(|join| join.correlation_key == correlation_key) {
            Some(at) => at,
            None => {
                joins.push(JoinState {
                    node_id: arrival_frame.node_id.clone(),
                    correlation_key: correlation_key.clone(),
                    required: node.incoming.len() as u64,
                    arrivals: Vec::new(),
                });
                joins.len() - 1
            }
        };
        if !joins[at].arrivals.iter().any(|arrival| **arrival == *key) {
            joins[at].arrivals.push(key.to_string());
        }
        let incoming = node.incoming.clone();
        self.emit(RunEvent::NodeEntered {
            frame: arrival_frame.clone(),
            parents,
            idempotency_key: None,
            at: now_ms(),
        });
        if (joins[at].arrivals.len() as u64) < joins[at].required {
            self.emit(RunEvent::FrontierSnapshot { joins, at: now_ms() });
            return;
        }
        let barrier = joins.remove(at);
        let mut arrivals: Vec<FrameRef> = barrier
            .arrivals
            .iter()
            .filter_map(|arrival| Some(self.state.record(arrival)?.frame.clone()))
            .collect();
        arrivals.sort_by_cached_key(|frame| (frame.via_edge_id.clone().unwrap_or_default(), frame.branch_id.key()));
        let mut segments = prefix;
        segments.push(RouteSegment::join(arrival_frame.node_id.clone(), incoming));
        let merged = FrameRef {
            node_id: arrival_frame.node_id.clone(),
            kind: "join".into(),
            branch_id: Arc::new(BranchId { segments }),
            via_edge_id: arrivals.last().and_then(|frame| frame.via_edge_id.clone()),
        };
        let merged_key: Arc<str> = merged.key().into();
        let output: Vec<Json> = arrivals
            .iter()
            .map(|frame| {
                let via = frame.via_edge_id.clone().unwrap_or_default();
                let from = self
                    .plan
                    .edges
                    .get(&via)
                    .map(|(from, _)| from.clone())
                    .unwrap_or_default();
                json!({"via": via, "from": from, "branch": frame.branch_id.key()})
            })
            .collect();
        let at_ms = now_ms();
        for frame in &arrivals {
            self.emit(RunEvent::NodeSettled {
                frame: frame.key(),
                outcome: NodeOutcome::Merged {
                    into: merged_key.to_string(),
                },
                verdict: None,
                host_reads: Vec::new(),
                attempts: None,
                at: at_ms,
            });
        }
        self.emit(RunEvent::NodeEntered {
            frame: merged,
            parents: arrivals.iter().map(FrameRef::key).collect(),
            idempotency_key: None,
            at: at_ms,
        });
        let Some(merged_id) = self.state.id(&merged_key) else {
            debug_assert!(false, "the merged frame was named by the event just emitted");
            return;
        };
        self.settle_success(
            merged_id,
            Done {
                items: output,
                decision: Decision::Plain,
                verdict: None,
                attempts: None,
            },
        );
        self.emit(RunEvent::FrontierSnapshot { joins, at: now_ms() });
    }

    fn settle_success(&mut self, id: FrameId, done: Done) {
        self.emit(RunEvent::NodeSettled {
            frame: self.state.frame(id).key.to_string(),
            outcome: NodeOutcome::Ok { output: done.items },
            verdict: done.verdict,
            host_reads: Vec::new(),
            attempts: done.attempts,
            at: now_ms(),
        });
        let outgoing = &self.plan.nodes[&self.state.frame(id).frame.node_id].outgoing;
        let mut fired: Vec<(String, Handle, String)> = outgoing
            .iter()
            .filter(|edge| fires_on_success(&edge.handle, &done.decision))
            .map(|edge| (edge.id.clone(), edge.handle.clone(), edge.to.clone()))
            .collect();
        if fired.is_empty() {
            fired = outgoing
                .iter()
                .filter(|edge| edge.handle == Handle::Default)
                .map(|edge| (edge.id.clone(), edge.handle.clone(), edge.to.clone()))
                .collect();
        }
        self.take_edges(id, fired);
    }

    /// Settles a frame failed (or skipped), following its `error` edges; with none, the run
    /// stops launching and settles failed.
    fn settle_failure(&mut self, id: FrameId, error: NodeError, skipped: bool) {
        let node_id = self.state.frame(id).frame.node_id.clone();
        let fired: Vec<(String, Handle, String)> = self.plan.nodes[&node_id]
            .outgoing
            .iter()
            .filter(|edge| edge.handle == Handle::Error)
            .map(|edge| (edge.id.clone(), edge.handle.clone(), edge.to.clone()))
            .collect();
        let handled = !fired.is_empty();
        let outcome = if skipped {
            NodeOutcome::Skipped {
                reason: "indeterminate_skip".into(),
            }
        } else {
            NodeOutcome::Failed {
                handled,
                error: error.clone(),
            }
        };
        self.emit(RunEvent::NodeSettled {
            frame: self.state.frame(id).key.to_string(),
            outcome,
            verdict: None,
            host_reads: Vec::new(),
            attempts: None,
            at: now_ms(),
        });
        if !handled && !skipped && !matches!(self.stop, Some(Stop::Failed { .. })) {
            self.stop = Some(Stop::Failed {
                node_id,
                detail: format!("{}: {}", error.code, error.message),
            });
        }
        self.take_edges(id, fired);
    }

    fn take_edges(&mut self, id: FrameId, fired: Vec<(String, Handle, String)>) {
        if fired.is_empty() {
            return;
        }
        let record = self.state.frame(id);
        let (key, branch) = (record.key.clone(), record.frame.branch_id.clone());
        let at = now_ms();
        for (edge_id, handle, to) in fired {
            let mut segments = Vec::with_capacity(branch.segments.len() + 1);
            segments.extend_from_slice(&branch.segments);
            segments.push(RouteSegment::Edge(edge_id.as_str().into()));
            let kind = self.plan.nodes.get(&to).map_or("call", |node| node.kind).to_owned();
            self.emit(RunEvent::EdgeTaken {
                edge_id: edge_id.clone(),
                handle: handle.name(),
                from: key.to_string(),
                to: FrameRef {
                    node_id: to,
                    kind,
                    branch_id: Arc::new(BranchId { segments }),
                    via_edge_id: Some(edge_id),
                },
                at,
            });
        }
    }

    /// Writes how the run ended and returns its view.
    fn finish(mut self, result: Result<(), RunError>) -> Result<RunView, RunError> {
        // Lease lost or the store failing: nothing more may be written by this process.
        result?;
        let open_join = self
            .state
            .joins
            .iter()
            .find(|join| (join.arrivals.len() as u64) < join.required)
            .map(|join| (join.node_id.clone(), join.arrivals.len(), join.required));
        let (cause, outcome) = match self.stop.take() {
            Some(Stop::Aborted) => (
                Some(("turn_abort", None, "the run was aborted; resume it to go on".to_owned())),
                RunOutcome::Interrupted,
            ),
            Some(Stop::Budget) => (
                Some((
                    "budget_exhausted",
                    None,
                    format!(
                        "the plan's maxSteps of {} frames was reached",
                        self.plan.bounds.max_steps
                    ),
                )),
                RunOutcome::Halted,
            ),
            Some(Stop::Failed { node_id, detail }) => {
                (Some(("node_failed", Some(node_id), detail)), RunOutcome::Failed)
            }
            Some(Stop::Indeterminate { node_id, detail }) => {
                (Some(("indeterminate_halt", Some(node_id), detail)), RunOutcome::Halted)
            }
            None => match open_join {
                Some((node_id, arrived, required)) => (
                    Some((
                        "join_unsatisfiable",
                        Some(node_id),
                        format!("{arrived} of its {required} routes arrived and no frame is left to bring the rest"),
                    )),
                    RunOutcome::Halted,
                ),
                None => (None, RunOutcome::Completed),
            },
        };
        let at = now_ms();
        if let Some((cause, node_id, detail)) = cause {
            self.emit(RunEvent::RunInterrupted {
                cause: cause.into(),
                node_id,
                detail: Some(detail),
                at,
            });
        }
        self.emit(RunEvent::RunSettled { outcome, at });
        self.flush()?;
        self.runtime
            .store
            .release_run(&self.run_id, &self.runtime.options.owner)?;
        Ok(RunView::from_state(&self.state))
    }
}

/// The data a predicate reads: the frame's outputs, ordered by key.
fn predicate_context(record: &FrameRecord) -> PredicateContext {
    let frame = &record.frame;
    let mut outputs = OutputTable::new();
    for (key, output) in record.input.sorted() {
        let branch_key = key.get(output.node_id.len() + 1..).unwrap_or("");
        outputs.insert(
            &output.node_id,
            branch_key,
            output.items.iter().map(writ_core::Value::from),
        );
    }
    PredicateContext {
        outputs,
        frame: writ_cells::FrameRef {
            node_id: frame.node_id.as_str().into(),
            branch_key: record.key[frame.node_id.len() + 1..].into(),
            via_edge: frame.via_edge_id.as_deref().map(Into::into),
        },
    }
}

async fn perform(
    work: Work,
    tools: Arc<Toolbox>,
    model: Option<Arc<dyn Model>>,
    cells: Arc<Registry>,
) -> Result<Done, NodeError> {
    match work {
        Work::Entry(input) => Ok(Done {
            items: vec![input],
            decision: Decision::Plain,
            verdict: None,
            attempts: None,
        }),
        Work::Fail(error) => Err(error),
        Work::Call { tool, call, output, .. } => {
            let result = tools.call(&tool, call).await.map_err(|error| NodeError {
                code: error.code().into(),
                message: error.to_string(),
            })?;
            let items = result_items(result, &output);
            for (index, item) in items.iter().enumerate() {
                let problems = check_fields(item, &output);
                if !problems.is_empty() {
                    return Err(NodeError {
                        code: "invalid_output".into(),
                        message: format!(
                            "tool \"{tool}\" returned item {index} that does not fit the call's declared output: {}",
                            problems.join("; ")
                        ),
                    });
                }
            }
            Ok(Done {
                items,
                decision: Decision::Plain,
                verdict: None,
                attempts: None,
            })
        }
        Work::Reason {
            prompt,
            schema,
            max_attempts,
        } => {
            let Some(model) = model else {
                return Err(NodeError {
                    code: "model_missing".into(),
                    message: "a reason node needs a model, and none was given; pass --model".into(),
                });
            };
            let reasoned = writ_model::reason(model.as_ref(), &prompt, &schema, max_attempts)
                .await
                .map_err(|error| NodeError {
                    code: error.code().into(),
                    message: error.to_string(),
                })?;
            Ok(Done {
                items: vec![reasoned.value],
                decision: Decision::Plain,
                verdict: None,
                attempts: Some(reasoned.attempts),
            })
        }
        Work::Predicate { node, context } => {
            let evaluation = tokio::task::spawn_blocking(move || writ_core::block_on(cells.evaluate(&node, &context)))
                .await
                .map_err(|error| NodeError {
                    code: "predicate_panicked".into(),
                    message: format!("the predicate's evaluation did not finish: {error}"),
                })?;
            let fault = evaluation
                .fault
                .map(|fault| json!({"kind": fault.kind.code(), "code": fault.code, "message": fault.message}));
            let (decision, mut verdict) = match evaluation.verdict {
                Verdict::Branch { matched } => (Decision::Branch(matched), json!({"matched": matched})),
                Verdict::Select { case } => {
                    let case = case.map(|case| case.to_string());
                    (Decision::Select(case.clone()), json!({"case": case}))
                }
            };
            let item = verdict.clone();
            if let (Some(fault), Json::Object(object)) = (fault, &mut verdict) {
                object.insert("fault".into(), fault);
            }
            Ok(Done {
                items: vec![item],
                decision,
                verdict: Some(verdict),
                attempts: None,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_alive_and_a_vanished_one_is_dead() {
        let me = process_owner();
        assert!(!owner_is_dead(&me), "{me}");
        let host = me.rsplitn(3, '/').nth(2).unwrap().to_owned();
        // Pids are below 2^22 on Linux.
        assert!(owner_is_dead(&format!("{host}/4194304/1")) || !std::path::Path::new("/proc/self/stat").exists());
        let pid = std::process::id();
        assert!(owner_is_dead(&format!("{host}/{pid}/1")) || !std::path::Path::new("/proc/self/stat").exists());
        assert!(!owner_is_dead(&format!("elsewhere.example/{pid}/1")));
        assert!(!owner_is_dead("not an owner"));
    }

    #[test]
    fn idempotency_keys_ignore_key_order_and_tell_runs_frames_and_arguments_apart() {
        let args = |json: Json| json.as_object().unwrap().clone();
        let key = idempotency_key("r", "call:e2:e0", &args(json!({"a": 1, "b": [1, 2]})));
        assert_eq!(
            key,
            idempotency_key("r", "call:e2:e0", &args(json!({"b": [1, 2], "a": 1})))
        );
        // Pinned: a key recorded before an upgrade must be the key computed after it.
        assert_eq!(key, "ca99c04a3d5a309e9466b6c14e95609bf03c45dbcbef0ee0d9440eebf852a7bf");
        assert_ne!(
            key,
            idempotency_key("r2", "call:e2:e0", &args(json!({"a": 1, "b": [1, 2]})))
        );
        assert_ne!(
            key,
            idempotency_key("r", "call:e2:e1", &args(json!({"a": 1, "b": [1, 2]})))
        );
        assert_ne!(
            key,
            idempotency_key("r", "call:e2:e0", &args(json!({"a": 1, "b": [2, 1]})))
        );
    }
}
