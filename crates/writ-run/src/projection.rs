//! The projection of a run: what a person (or `writ run show`) reads about it, folded from its
//! events alone.

use std::collections::BTreeMap;

use serde_json::{Map as JsonMap, Value as Json, json};
use writ_store::run::{JoinState, NodeError, NodeOutcome, RunEvent, RunOutcome, RunStatus};

use crate::error::RunError;
use crate::state::{Interruption, RunState};

/// Where one frame, or one node taken over all its frames, is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FrameStatus {
    /// Due, not yet started.
    Pending,
    /// Started, not settled (for a call after a crash: indeterminate).
    Running,
    /// A join arrival waiting at its barrier.
    Waiting,
    /// Settled with an output (or, for a join arrival, merged).
    Done,
    /// Failed.
    Failed,
    /// Not run to an end (an indeterminate call skipped at resume).
    Skipped,
}

impl FrameStatus {
    /// The status's wire name.
    pub fn name(self) -> &'static str {
        match self {
            FrameStatus::Pending => "pending",
            FrameStatus::Running => "running",
            FrameStatus::Waiting => "waiting",
            FrameStatus::Done => "done",
            FrameStatus::Failed => "failed",
            FrameStatus::Skipped => "skipped",
        }
    }
}

/// One frame of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameView {
    /// `nodeId:branchKey`.
    pub key: String,
    /// The node.
    pub node_id: String,
    /// The node's kind.
    pub kind: String,
    /// Where it is.
    pub status: FrameStatus,
    /// Why it failed, when it did.
    pub error: Option<NodeError>,
    /// What a branch or select decided.
    pub verdict: Option<Json>,
}

/// A run, as its events tell it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunView {
    /// The run.
    pub run_id: String,
    /// The plan it runs.
    pub plan_id: String,
    /// The approved digest it runs at.
    pub digest: String,
    /// How it settled, when its last event is a `run_settled`; `None` while it runs (or after
    /// its process died).
    pub outcome: Option<RunOutcome>,
    /// Every frame, in the order the events first named them.
    pub frames: Vec<FrameView>,
    /// Each node's status over its frames: running if any runs (or waits), else failed if any
    /// failed, else done when all are done or skipped, else pending.
    pub nodes: BTreeMap<String, FrameStatus>,
    /// Every output settled, by frame key, in settlement order.
    pub outputs: Vec<(String, Vec<Json>)>,
    /// Frames due and not yet started.
    pub frontier: Vec<String>,
    /// Join barriers still open.
    pub joins: Vec<JoinState>,
    /// Why it stopped short, if it did (kept after a later resume completes it, as a record).
    pub interruption: Option<Interruption>,
    /// Calls started and never settled: whether they acted is unknown until a resume decides
    /// by their `onIndeterminate`.
    pub indeterminate: Vec<String>,
    /// Frames started: what `maxSteps` bounds.
    pub steps: u64,
}

impl RunView {
    /// Folds a run's events.
    ///
    /// # Errors
    ///
    /// `run_log_invalid` when the log does not start with `run_started`.
    pub fn from_events(events: &[RunEvent]) -> Result<RunView, RunError> {
        if !matches!(events.first(), Some(RunEvent::RunStarted { .. })) {
            return Err(RunError::LogInvalid {
                detail: "its first event is not run_started".into(),
            });
        }
        let mut state = RunState::new(None);
        state.apply_all(events);
        Ok(RunView::from_state(&state))
    }

    pub(crate) fn from_state(state: &RunState) -> RunView {
        let mut frames = Vec::with_capacity(state.frames().len());
        let mut outputs = Vec::new();
        let mut nodes: BTreeMap<String, FrameStatus> = BTreeMap::new();
        let mut indeterminate = Vec::new();
        let mut settled_order: Vec<(usize, String, Vec<Json>)> = Vec::new();
        for (position, record) in state.frames().iter().enumerate() {
            let key = &record.key;
            let (status, error) = match &record.outcome {
                Some(NodeOutcome::Ok { output }) => {
                    settled_order.push((position, key.to_string(), output.clone()));
                    (FrameStatus::Done, None)
                }
                Some(NodeOutcome::Merged { .. }) => (FrameStatus::Done, None),
                Some(NodeOutcome::Failed { error, .. }) => (FrameStatus::Failed, Some(error.clone())),
                Some(NodeOutcome::Skipped { .. }) => (FrameStatus::Skipped, None),
                None if record.entered && record.frame.kind == "join" => (FrameStatus::Waiting, None),
                None if record.entered => {
                    if record.frame.kind == "call" {
                        indeterminate.push(key.to_string());
                    }
                    (FrameStatus::Running, None)
                }
                None => (FrameStatus::Pending, None),
            };
            let rolled = nodes.entry(record.frame.node_id.clone()).or_insert(status);
            *rolled = roll_up(*rolled, status);
            frames.push(FrameView {
                key: key.to_string(),
                node_id: record.frame.node_id.clone(),
                kind: record.frame.kind.clone(),
                status,
                error,
                verdict: record.verdict.clone(),
            });
        }
        for (_, key, output) in settled_order {
            outputs.push((key, output));
        }
        RunView {
            run_id: state.run_id.clone(),
            plan_id: state.plan_id.clone(),
            digest: state.digest.clone(),
            outcome: state.settled,
            frames,
            nodes,
            outputs,
            frontier: state.due().map(|record| record.key.to_string()).collect(),
            joins: state.joins.clone(),
            interruption: state.interruption.clone(),
            indeterminate,
            steps: state.steps,
        }
    }

    /// The run as `writ run start|resume|show --json` print it: `{"ok": true, "runId",
    /// "planId", "status", "outputs": {key: [item, …]}, "halt"?: {"nodeId", "reason"}, "nodes":
    /// {nodeId: status}, "frontier", "indeterminate", "interruption"?, "steps"}`. `status` is the
    /// store's view when given (`running`, `abandoned`), else the outcome.
    pub fn to_json(&self, status: Option<RunStatus>) -> Json {
        let status = match (status, self.outcome) {
            (Some(status), _) => status.name(),
            (None, Some(outcome)) => outcome.name(),
            (None, None) => "running",
        };
        let mut object = JsonMap::new();
        object.insert("ok".into(), Json::Bool(true));
        object.insert("runId".into(), Json::String(self.run_id.clone()));
        object.insert("planId".into(), Json::String(self.plan_id.clone()));
        object.insert("status".into(), Json::String(status.into()));
        let outputs: JsonMap<String, Json> = self
            .outputs
            .iter()
            .map(|(key, items)| (key.clone(), Json::Array(items.clone())))
            .collect();
        object.insert("outputs".into(), Json::Object(outputs));
        if let Some(halt) = self.halt() {
            object.insert("halt".into(), halt);
        }
        let nodes: JsonMap<String, Json> = self
            .nodes
            .iter()
            .map(|(node, status)| (node.clone(), Json::String(status.name().into())))
            .collect();
        object.insert("nodes".into(), Json::Object(nodes));
        object.insert("frontier".into(), json!(self.frontier));
        object.insert("indeterminate".into(), json!(self.indeterminate));
        if let Some(interruption) = &self.interruption {
            let mut cause = JsonMap::new();
            cause.insert("cause".into(), Json::String(interruption.cause.clone()));
            if let Some(node) = &interruption.node_id {
                cause.insert("nodeId".into(), Json::String(node.clone()));
            }
            if let Some(detail) = &interruption.detail {
                cause.insert("detail".into(), Json::String(detail.clone()));
            }
            object.insert("interruption".into(), Json::Object(cause));
        }
        object.insert("steps".into(), Json::from(self.steps));
        Json::Object(object)
    }

    /// `{"nodeId", "reason"}` when the run stopped short of completing.
    fn halt(&self) -> Option<Json> {
        let outcome = self.outcome?;
        if outcome == RunOutcome::Completed {
            return None;
        }
        let interruption = self.interruption.as_ref()?;
        let reason = match &interruption.detail {
            Some(detail) => format!("{}: {detail}", interruption.cause),
            None => interruption.cause.clone(),
        };
        let mut halt = JsonMap::new();
        if let Some(node) = &interruption.node_id {
            halt.insert("nodeId".into(), Json::String(node.clone()));
        }
        halt.insert("reason".into(), Json::String(reason));
        Some(Json::Object(halt))
    }
}

fn roll_up(current: FrameStatus, next: FrameStatus) -> FrameStatus {
    use FrameStatus::{Done, Failed, Pending, Running, Skipped, Waiting};
    let rank = |status: FrameStatus| match status {
        Running | Waiting => 4,
        Failed => 3,
        Pending => 2,
        Done | Skipped => 1,
    };
    if rank(next) > rank(current) { next } else { current }
}
