//! Runs: the event log of a plan's one run, and the lease that says who is running it.
//!
//! A run is what the runtime did, written down as it did it: a list of [`RunEvent`]s appended
//! in batches, each batch committed whole or not at all. Everything else about a run — the
//! status of each node, its outputs, what is still to do, whether a call's fate is unknown — is
//! a fold of that list, so a run read back after a crash is exactly the run that was written.
//!
//! A run is driven by one process at a time. The driver holds a **lease** on the run, renewed
//! while it works; every batch it appends names it as the owner, and a batch from an owner whose
//! lease was taken over is refused (`lease_lost`), so a stalled process that wakes up cannot
//! write into a run another process resumed. A run whose lease ran out without a `run_settled`
//! event was abandoned: its process died ([`RunStatus::Abandoned`]).

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use writ_plan::BranchId;

use crate::{PlanStore, StoreError};

/// One execution of a node: the node and the route by which it was reached.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FrameRef {
    /// The node the frame runs.
    pub node_id: String,
    /// The node's kind (`entry`, `call`, `reason`, `branch`, `select`, `join`).
    pub kind: String,
    /// The route from the entry to this execution, shared: a frame is named in several events
    /// and tables, and a long chain's route is long.
    #[serde(with = "branch_wire")]
    pub branch_id: Arc<BranchId>,
    /// The edge followed into the frame; `None` for the entry frame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via_edge_id: Option<String>,
}

impl FrameRef {
    /// The frame's identity `nodeId:branchKey`, under which its output is filed.
    pub fn key(&self) -> String {
        frame_key(&self.node_id, &self.branch_id)
    }
}

/// The identity `nodeId:branchKey` of node `node_id` reached by `branch`.
pub fn frame_key(node_id: &str, branch: &BranchId) -> String {
    format!("{node_id}:{}", branch.key())
}

/// A branch id in its wire form (`BranchId::to_wire`), written straight to the serializer:
/// every event naming a frame writes its route, so no intermediate JSON tree.
pub(crate) mod branch_wire {
    use std::sync::Arc;

    use serde::ser::{SerializeMap, SerializeSeq};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_json::Value as Json;
    use writ_plan::{BranchId, JoinSegment, RouteSegment};

    /// Route segments in their wire form.
    pub(crate) struct Segments<'a>(pub(crate) &'a [RouteSegment]);

    impl Serialize for Segments<'_> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
            for segment in self.0 {
                seq.serialize_element(&Segment(segment))?;
            }
            seq.end()
        }
    }

    struct Segment<'a>(&'a RouteSegment);

    impl Serialize for Segment<'_> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            match self.0 {
                RouteSegment::Edge(id) => {
                    let mut map = serializer.serialize_map(Some(1))?;
                    map.serialize_entry("edge", &**id)?;
                    map.end()
                }
                RouteSegment::Join(joined) => {
                    let mut map = serializer.serialize_map(Some(2))?;
                    let JoinSegment { join, of } = &**joined;
                    map.serialize_entry("join", join)?;
                    map.serialize_entry("of", of)?;
                    map.end()
                }
            }
        }
    }

    pub fn serialize<S: Serializer>(branch: &Arc<BranchId>, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("segments", &Segments(&branch.segments))?;
        map.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Arc<BranchId>, D::Error> {
        let json = Json::deserialize(deserializer)?;
        BranchId::from_wire(&json)
            .map(Arc::new)
            .map_err(serde::de::Error::custom)
    }
}

/// Why a node failed, as the run records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeError {
    /// A stable snake_case code (`tool_failed`, `invalid_result`, `missing_value`, `timeout`, …).
    pub code: String,
    /// What happened, for the person reading the run.
    pub message: String,
}

/// How a frame ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum NodeOutcome {
    /// It produced these items (each item's data).
    Ok {
        /// The items.
        output: Vec<Json>,
    },
    /// It failed; `handled` when an `error` edge carried the run on.
    Failed {
        /// Whether an `error` edge took over.
        handled: bool,
        /// Why.
        error: NodeError,
    },
    /// It was not run to an end: a call whose fate was unknown at resume and whose
    /// `onIndeterminate` is `skip`.
    Skipped {
        /// Why (`indeterminate_skip`).
        reason: String,
    },
    /// A join arrival, merged into the frame `into` when its barrier closed.
    Merged {
        /// The merged frame's key.
        into: String,
    },
}

/// A join barrier still waiting for arrivals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JoinState {
    /// The join node.
    pub node_id: String,
    /// The barrier's identity: the join and the route up to its fork.
    pub correlation_key: String,
    /// How many arrivals close it.
    pub required: u64,
    /// The keys of the arrival frames parked so far.
    pub arrivals: Vec<String>,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunOutcome {
    /// Every frame settled and no barrier is left open.
    Completed,
    /// A bound or a policy stopped it (`maxSteps`, an unsatisfiable join, an indeterminate call
    /// whose `onIndeterminate` is `halt`); it may be resumed.
    Halted,
    /// A node failed with no `error` edge to take over.
    Failed,
    /// It was stopped from outside (an abort); it may be resumed.
    Interrupted,
}

impl RunOutcome {
    /// The outcome's wire name.
    pub fn name(self) -> &'static str {
        match self {
            RunOutcome::Completed => "completed",
            RunOutcome::Halted => "halted",
            RunOutcome::Failed => "failed",
            RunOutcome::Interrupted => "interrupted",
        }
    }

    /// The outcome with this wire name.
    pub(crate) fn from_name(name: &str) -> Option<RunOutcome> {
        [
            RunOutcome::Completed,
            RunOutcome::Halted,
            RunOutcome::Failed,
            RunOutcome::Interrupted,
        ]
        .into_iter()
        .find(|outcome| outcome.name() == name)
    }

    /// Whether a run that ended so may be resumed.
    pub fn resumable(self) -> bool {
        matches!(self, RunOutcome::Halted | RunOutcome::Interrupted)
    }
}

/// One thing that happened in a run. `at` is milliseconds since the Unix epoch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RunEvent {
    /// The run began: the first event of every run, written once.
    RunStarted {
        /// The run.
        #[serde(rename = "runId")]
        run_id: String,
        /// The plan it runs.
        #[serde(rename = "planId")]
        plan_id: String,
        /// The approved digest it runs at.
        digest: String,
        /// The entry's input.
        input: Json,
        /// When.
        at: u64,
    },
    /// A frame began. For a call, `idempotencyKey` is the key passed to the tool, so a retried
    /// call after a resume passes the same one.
    NodeEntered {
        /// The frame.
        frame: FrameRef,
        /// The frames whose outputs this one reads (its predecessor; a merged join's arrivals).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        parents: Vec<String>,
        /// The call's idempotency key.
        #[serde(default, rename = "idempotencyKey", skip_serializing_if = "Option::is_none")]
        idempotency_key: Option<String>,
        /// When.
        at: u64,
    },
    /// A frame ended.
    NodeSettled {
        /// The frame's key.
        frame: String,
        /// How it ended.
        outcome: NodeOutcome,
        /// What a branch or select decided (`{"matched": bool}`, `{"case": label|null}`), and
        /// the cell's fault when it faulted (a fault is the negative verdict, not a failure).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        verdict: Option<Json>,
        /// Values the host handed an evaluation (`$now()`, `$random()`), in order, so a
        /// replay reads the same ones.
        #[serde(default, rename = "hostReads", skip_serializing_if = "Vec::is_empty")]
        host_reads: Vec<Json>,
        /// How many attempts a reason node's model needed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attempts: Option<u64>,
        /// When.
        at: u64,
    },
    /// An edge fired: frame `to` is now due, reading the outputs of frame `from`.
    EdgeTaken {
        /// The edge.
        #[serde(rename = "edgeId")]
        edge_id: String,
        /// Its handle (`always`, `match`, `case_<label>`, `error`, …).
        handle: String,
        /// The key of the frame it leaves.
        from: String,
        /// The frame it makes due.
        to: FrameRef,
        /// When.
        at: u64,
    },
    /// The join barriers left open after this batch.
    FrontierSnapshot {
        /// The open barriers.
        joins: Vec<JoinState>,
        /// When.
        at: u64,
    },
    /// Why the run stopped short of completing (or, for `process_death`, why it stopped before
    /// a resume).
    RunInterrupted {
        /// `turn_abort`, `budget_exhausted`, `node_failed`, `join_unsatisfiable`,
        /// `indeterminate_halt` or `process_death`.
        cause: String,
        /// The node concerned, if one is.
        #[serde(default, rename = "nodeId", skip_serializing_if = "Option::is_none")]
        node_id: Option<String>,
        /// What happened, for a person.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
        /// When.
        at: u64,
    },
    /// The run ended (for now: a halted or interrupted run may be resumed).
    RunSettled {
        /// How.
        outcome: RunOutcome,
        /// When.
        at: u64,
    },
}

impl RunEvent {
    /// The event's wire form: one JSON object with a `type` member.
    pub fn to_json_string(&self) -> String {
        serde_json::to_string(self).expect("run events hold only JSON-writable data")
    }

    /// Reads an event from its wire form.
    ///
    /// # Errors
    ///
    /// The parser's message when the text is not a run event.
    pub fn from_json_str(text: &str) -> Result<RunEvent, String> {
        serde_json::from_str(text).map_err(|error| error.to_string())
    }
}

/// Where a run is, as the store sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RunStatus {
    /// A process holds its lease and is driving it.
    Running,
    /// It settled with this outcome (the last `run_settled` event).
    Settled(RunOutcome),
    /// It has no `run_settled` event and nobody holds its lease: its process died, or was
    /// killed, mid-run. It may be resumed.
    Abandoned,
}

impl RunStatus {
    /// The status's wire name: `running`, `abandoned`, or the outcome's name.
    pub fn name(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Settled(outcome) => outcome.name(),
            RunStatus::Abandoned => "abandoned",
        }
    }
}

impl fmt::Display for RunStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A run as listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSummary {
    /// The run.
    pub run_id: String,
    /// The plan it runs.
    pub plan_id: String,
    /// Where it is.
    pub status: RunStatus,
    /// How many events it has.
    pub events: u64,
}

/// Events to append to one run, as one unit.
#[derive(Clone, Copy, Debug)]
pub struct RunBatch<'a> {
    /// The run.
    pub run_id: &'a str,
    /// The events, in order.
    pub events: &'a [RunEvent],
}

/// The run half of the store contract; [`crate::conformance`] checks it on every store.
///
/// - **A run exists once claimed** ([`PlanStore::claim_run`]); its log starts empty.
/// - **Batches are atomic and ordered.** [`append_run_events`](RunStore::append_run_events)
///   commits every batch it is given together or none of them; events are read back in the
///   order appended. Several runs' batches may share one commit.
/// - **Leases fence writers.** Appending requires the caller to own the run's lease
///   (`lease_lost` otherwise, naming the owner), so two processes never write one run.
///   [`acquire_run`](RunStore::acquire_run) takes a lease that is free, expired, or already
///   the caller's; a live lease of another owner refuses it with `run_in_use`.
/// - **Settled runs stay settled.** A run whose last `run_settled` says `completed` or `failed`
///   cannot be acquired again (`run_already_settled`).
/// - **Status is derived**: from the last `run_settled` and the lease, never stored apart
///   from the events it summarises ([`settled_outcome`]).
pub trait RunStore: PlanStore {
    /// Takes the lease on `run_id` for `owner` for `lease`, returning the run's summary.
    /// `run_missing` when no plan claimed the run; `run_in_use` when another owner's lease is
    /// live; `run_already_settled` when it completed or failed.
    fn acquire_run(&self, run_id: &str, owner: &str, lease: Duration) -> Result<RunSummary, StoreError>;

    /// Takes the lease on `run_id` from `from`, live or not, for `owner`: for a caller that
    /// knows `from` is dead (its process is gone) and need not wait for its lease to run out.
    /// `lease_lost` when `from` does not hold the lease (someone else took it first);
    /// `run_already_settled` as for [`acquire_run`](RunStore::acquire_run).
    fn take_over_run(&self, run_id: &str, owner: &str, lease: Duration, from: &str) -> Result<RunSummary, StoreError>;

    /// Extends `owner`'s lease on `run_id` to `lease` from now; `lease_lost` when another
    /// owner took it.
    fn renew_run(&self, run_id: &str, owner: &str, lease: Duration) -> Result<(), StoreError>;

    /// Gives the lease up (the run stays as its events say). A no-op when `owner` does not
    /// hold it.
    fn release_run(&self, run_id: &str, owner: &str) -> Result<(), StoreError>;

    /// Appends each batch to its run, all in one commit, in order. Every run named must be
    /// leased to `owner` (`lease_lost`) and exist (`run_missing`); on any refusal nothing is
    /// appended.
    fn append_run_events(&self, owner: &str, batches: &[RunBatch<'_>]) -> Result<(), StoreError>;

    /// The run's events, in the order appended (`run_missing`).
    fn read_run_events(&self, run_id: &str) -> Result<Vec<RunEvent>, StoreError>;

    /// The run's summary (`run_missing`).
    fn read_run(&self, run_id: &str) -> Result<RunSummary, StoreError>;

    /// Every run, or every run of `plan_id`, ordered by run id.
    fn list_runs(&self, plan_id: Option<&str>) -> Result<Vec<RunSummary>, StoreError>;
}

/// The outcome a run's log ends on: `Some` when its last event is a `run_settled` (a run
/// resumed after halting has events past it, and is not settled).
pub fn settled_outcome(events: &[RunEvent]) -> Option<RunOutcome> {
    match events.last() {
        Some(RunEvent::RunSettled { outcome, .. }) => Some(*outcome),
        _ => None,
    }
}

/// The nodes a run's log settled `ok`, each once, sorted: what a clone of its plan records as
/// `completedAtClone`. A frame's key is `nodeId:branchKey` and a node id never holds a `:`
/// (freeze refuses one, and only a frozen plan runs), so the node id is the key up to its first
/// `:`.
pub(crate) fn completed_nodes(events: &[RunEvent]) -> Vec<String> {
    let mut nodes: Vec<String> = events
        .iter()
        .filter_map(|event| match event {
            RunEvent::NodeSettled {
                frame,
                outcome: NodeOutcome::Ok { .. },
                ..
            } => Some(
                frame
                    .split_once(':')
                    .map_or(frame.as_str(), |(node_id, _)| node_id)
                    .to_owned(),
            ),
            _ => None,
        })
        .collect();
    nodes.sort_unstable();
    nodes.dedup();
    nodes
}

/// Who drives a run, and until when (milliseconds since the Unix epoch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Lease {
    pub(crate) owner: String,
    pub(crate) until_ms: u64,
}

/// The store's clock for leases: milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| u64::try_from(since.as_millis()).unwrap_or(u64::MAX))
}

/// The lease `owner` gets for `lease` from `now`.
pub(crate) fn lease_until(now: u64, lease: Duration) -> u64 {
    now.saturating_add(u64::try_from(lease.as_millis()).unwrap_or(u64::MAX))
}

/// Whether `owner` may take run `run_id`'s lease: it is free, expired or already `owner`'s, and
/// the run is not settled for good.
pub(crate) fn check_acquire(
    run_id: &str,
    settled: Option<RunOutcome>,
    lease: Option<&Lease>,
    owner: &str,
    now: u64,
) -> Result<(), StoreError> {
    if let Some(outcome) = settled.filter(|outcome| !outcome.resumable()) {
        return Err(StoreError::RunAlreadySettled {
            run_id: run_id.to_owned(),
            outcome: outcome.name(),
        });
    }
    match lease {
        Some(lease) if lease.owner != owner && lease.until_ms > now => Err(StoreError::RunInUse {
            run_id: run_id.to_owned(),
            owner: lease.owner.clone(),
            expires_in_ms: lease.until_ms - now,
        }),
        _ => Ok(()),
    }
}

/// Whether `owner` holds run `run_id`'s lease, so it may write or renew. An expired lease still
/// held by `owner` counts: nobody took it over, so nobody else wrote.
pub(crate) fn check_owner(run_id: &str, lease: Option<&Lease>, owner: &str) -> Result<(), StoreError> {
    match lease {
        Some(lease) if lease.owner == owner => Ok(()),
        other => Err(StoreError::LeaseLost {
            run_id: run_id.to_owned(),
            owner: other.map(|lease| lease.owner.clone()),
        }),
    }
}

/// A run's status from how its log ends and its lease.
pub(crate) fn status(settled: Option<RunOutcome>, lease: Option<&Lease>, now: u64) -> RunStatus {
    match settled {
        Some(outcome) => RunStatus::Settled(outcome),
        None if lease.is_some_and(|lease| lease.until_ms > now) => RunStatus::Running,
        None => RunStatus::Abandoned,
    }
}

#[cfg(test)]
mod tests {
    use writ_plan::RouteSegment;

    use super::*;

    #[test]
    fn a_frame_writes_its_route_in_the_branch_ids_wire_form() {
        let branch = BranchId {
            segments: vec![
                RouteSegment::Edge("e0".into()),
                RouteSegment::join("j".into(), vec!["a".into(), "b".into()]),
            ],
        };
        let frame = FrameRef {
            node_id: "n".into(),
            kind: "call".into(),
            branch_id: Arc::new(branch.clone()),
            via_edge_id: Some("e0".into()),
        };
        let json = serde_json::to_value(&frame).expect("serializes");
        assert_eq!(json["branchId"], branch.to_wire());
        let back: FrameRef = serde_json::from_value(json).expect("reads back");
        assert_eq!(back, frame);
    }
}
