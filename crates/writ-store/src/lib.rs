//! writ-store: where plans live between edits, reviews, approvals and runs.
//!
//! A stored plan is an op log plus its lifecycle: **editable** (ops may be appended), then
//! **reviewable** once frozen at a digest, then **executable** once an operator's
//! [`ApprovalRecord`] is accepted, and at most one run, ever. [`PlanStore`] is the contract;
//! [`MemoryStore`] and [`SqliteStore`] implement it, and [`conformance`] is the one suite every
//! implementation must pass. [`lifecycle::freeze`] runs the fold's checks and freeze's above a
//! store before moving a plan to reviewable.
//!
//! The store never keeps a view or a digest it did not compute: every answer about a plan's
//! content is the fold ([`writ_plan::fold`]) of the ops stored for it, made again for each call.
//! A store that was written to by hand, or by a writ whose fold differs, therefore cannot pass
//! off one plan's approval as another's.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod checkpoint;
mod compact;
pub mod conformance;
mod error;
pub mod flow;
pub mod lifecycle;
mod memory;
mod rules;
pub mod run;
mod sqlite;

use std::fmt;
use std::sync::Arc;

use serde_json::{Map as JsonMap, Value as Json};
use writ_plan::{ApprovalRecord, Op, PlanView, Provenance};

pub use error::StoreError;
pub use memory::MemoryStore;
pub use run::{RunBatch, RunEvent, RunStore, RunSummary};
pub use sqlite::{BUSY_TIMEOUT, Durability, SqliteStore};

/// Where a plan is in its lifecycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlanState {
    /// Ops may be appended.
    Editable,
    /// Frozen at a digest: readable by a reviewer, waiting for approval; no edits.
    Reviewable,
    /// Approved: the one run may be claimed; no edits.
    Executable,
}

impl PlanState {
    /// The state's wire name.
    pub fn name(self) -> &'static str {
        match self {
            PlanState::Editable => "editable",
            PlanState::Reviewable => "reviewable",
            PlanState::Executable => "executable",
        }
    }

    /// The state with this wire name.
    pub fn from_name(name: &str) -> Option<PlanState> {
        [PlanState::Editable, PlanState::Reviewable, PlanState::Executable]
            .into_iter()
            .find(|state| state.name() == name)
    }
}

impl fmt::Display for PlanState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a new plan starts with besides its empty op log.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NewPlan {
    /// A label for people listing plans; not plan content, not digested.
    pub label: Option<String>,
    /// Where the plan came from (digested with it), for a plan imported with its lineage.
    pub provenance: Option<Provenance>,
}

/// A plan's state as the store holds it, with its content's digest computed afresh.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanSummary {
    /// The plan's id.
    pub plan_id: String,
    /// Where it is in its lifecycle.
    pub state: PlanState,
    /// The digest of the fold of its stored ops ([`writ_plan::digest`]).
    pub digest: String,
    /// How many distinct ops are stored.
    pub revision: u64,
    /// The label given at creation.
    pub label: Option<String>,
    /// Where it came from, if it is a clone or was imported with a lineage.
    pub provenance: Option<Provenance>,
    /// The approval that made it executable (only while it is executable).
    pub approval: Option<ApprovalRecord>,
    /// The id of its one run, once claimed.
    pub run_id: Option<String>,
}

impl PlanSummary {
    /// The summary as `writ plan … --json` prints it: `{"planId", "state", "digest", "revision",
    /// "label"?, "provenance"?, "approval"?, "runId"?}`.
    pub fn to_json(&self) -> Json {
        let mut object = JsonMap::new();
        object.insert("planId".into(), Json::String(self.plan_id.clone()));
        object.insert("state".into(), Json::String(self.state.name().into()));
        object.insert("digest".into(), Json::String(self.digest.clone()));
        object.insert("revision".into(), Json::from(self.revision));
        if let Some(label) = &self.label {
            object.insert("label".into(), Json::String(label.clone()));
        }
        if let Some(provenance) = &self.provenance {
            object.insert("provenance".into(), provenance.to_wire());
        }
        if let Some(approval) = &self.approval {
            object.insert("approval".into(), approval.to_wire());
        }
        if let Some(run_id) = &self.run_id {
            object.insert("runId".into(), Json::String(run_id.clone()));
        }
        Json::Object(object)
    }
}

/// A stored plan read whole: its summary and the view its ops fold to.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredPlan {
    /// State, digest, revision and the rest.
    pub summary: PlanSummary,
    /// The fold of the stored ops with the stored provenance, shared with the store's kept fold:
    /// a run's start reads a plan of hundreds of nodes, and copying it cost more than the run's
    /// first steps.
    pub view: Arc<PlanView>,
    /// What the fold reported about the ops ([`writ_plan::Folded::issues`]).
    pub fold_issues: Vec<writ_plan::PlanIssue>,
}

/// The plan store contract. Every implementation passes [`conformance`]; a new backend (a
/// Postgres store, say) must keep every rule below, which is written without reference to any
/// one database.
///
/// - **Atomic calls.** Each method either does all it says or changes nothing, and concurrent
///   calls from any number of threads or processes behave as if they ran one at a time. A
///   refused call leaves state, digest, revision, approval and run exactly as they were.
/// - **The view is always recomputed.** Digest, revision and authority set are computed from
///   the stored ops (and provenance) by [`writ_plan::fold`] at each call that reports or checks
///   them; nothing derived is trusted from storage.
/// - **Op log.** Ops are kept once each, in the order first appended; a revision is a count of
///   distinct ops, so revision `n` is the first `n` ops. An op appended again with the same
///   `opId` and the same content is a no-op; the same `opId` with other content is refused
///   (`op_conflict`). A batch whose every op is already stored succeeds whatever the expected
///   revision, so a retried append is safe.
/// - **Lifecycle.** editable → reviewable (`freeze`, only at the digest the caller checked) →
///   executable (`approve`, only with a record that names this plan, its current digest and
///   exactly its authority set). `unfreeze` returns a reviewable plan to editable; it also
///   returns an approved plan whose run was never claimed, and that voids the approval (the
///   route back to executable passes the approval gate again). Once a run is claimed the plan
///   stays executable for good: to change it, clone it.
/// - **One run per plan, ever.** Of any number of concurrent `claim_run` calls on a plan
///   exactly one wins; every other gets `run_already_claimed` naming the winner's run id. Run
///   ids are unique across the store.
/// - **Clone** copies an op prefix into a new editable plan with clone provenance, no approval
///   and no run.
///
/// Errors are [`StoreError`]s with stable snake_case codes.
pub trait PlanStore: Send + Sync {
    /// Creates plan `plan_id`: editable, revision 0, an empty op log. Refused with
    /// `duplicate_id` when the id is taken.
    fn create(&self, plan_id: &str, new: NewPlan) -> Result<PlanSummary, StoreError>;

    /// Appends ops to an editable plan (`not_editable` otherwise). With `expected_revision`, the
    /// append is refused with `revision_moved` unless the plan is at that revision (a batch
    /// that is wholly stored already succeeds regardless). Returns the summary after the append.
    fn append_ops(&self, plan_id: &str, ops: &[Op], expected_revision: Option<u64>) -> Result<PlanSummary, StoreError>;

    /// The stored ops in the order first appended: all of them, or the first
    /// `through_revision` (`revision_missing` when the plan has fewer).
    fn read_ops(&self, plan_id: &str, through_revision: Option<u64>) -> Result<Vec<Op>, StoreError>;

    /// The plan read whole: summary, folded view and fold issues.
    fn read_plan(&self, plan_id: &str) -> Result<StoredPlan, StoreError>;

    /// The plan's summary.
    fn read_state(&self, plan_id: &str) -> Result<PlanSummary, StoreError> {
        Ok(self.read_plan(plan_id)?.summary)
    }

    /// Moves an editable plan to reviewable, only if its digest is `expected_digest`
    /// (`digest_mismatch` otherwise, `state_mismatch` if it is not editable). The store does
    /// not run the freeze checks: [`lifecycle::freeze`] runs them on the view it read, then
    /// calls this with that view's digest, so a plan that changed in between is not frozen
    /// unchecked.
    fn freeze(&self, plan_id: &str, expected_digest: &str) -> Result<PlanSummary, StoreError>;

    /// Returns a reviewable plan, or an executable one whose run was never claimed, to
    /// editable, voiding any approval. `illegal_transition` once a run was claimed;
    /// `state_mismatch` if it is already editable.
    fn unfreeze(&self, plan_id: &str) -> Result<PlanSummary, StoreError>;

    /// Makes a reviewable plan executable with `record`, after checking that it names this
    /// plan (`plan_mismatch`), its current digest, which is also the digest it was frozen at
    /// (`digest_mismatch`), and exactly its authority set (`authority_mismatch`). The record
    /// is kept as the plan's approval.
    fn approve(&self, plan_id: &str, record: &ApprovalRecord) -> Result<PlanSummary, StoreError>;

    /// Claims the plan's one run as `run_id`: the plan must be executable (`not_executable`)
    /// at `expected_digest`, which must be its approved digest (`digest_mismatch`), and no run
    /// may have been claimed before (`run_already_claimed`, naming it). `duplicate_id` if
    /// another plan's run has this id.
    fn claim_run(&self, plan_id: &str, expected_digest: &str, run_id: &str) -> Result<PlanSummary, StoreError>;

    /// Creates plan `new_id` from the first `at_revision` ops of `source` (all of them when
    /// `None`): editable, no approval, no run, with provenance naming the source, its digest at
    /// that revision and the revision. `source_missing`, `revision_missing`, `duplicate_id`.
    /// Its `completedAtClone` names the nodes the source's run settled `ok` by now, each once and
    /// sorted (empty when the source has no run or its run settled nothing): running the clone
    /// performs them again.
    fn clone_plan(&self, source: &str, new_id: &str, at_revision: Option<u64>) -> Result<PlanSummary, StoreError>;

    /// Every plan's summary, ordered by plan id (byte order).
    fn list(&self) -> Result<Vec<PlanSummary>, StoreError>;
}
