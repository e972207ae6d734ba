//! The store's refusals and failures, each with a stable code and a message that says what to do.

use std::fmt;

use writ_plan::AuthorityClaim;

use crate::PlanState;

/// Why a store call was refused or failed. [`StoreError::code`] is stable; the message names
/// the plan and says what to do next.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreError {
    /// `plan_missing`: no plan has this id.
    PlanMissing {
        /// The id asked for.
        plan_id: String,
    },
    /// `source_missing`: the plan to clone does not exist.
    SourceMissing {
        /// The id asked for.
        plan_id: String,
    },
    /// `duplicate_id`: a plan (or, for a run id, a run) already has this id.
    DuplicateId {
        /// What the id names: `"plan"` or `"run"`.
        what: &'static str,
        /// The id.
        id: String,
    },
    /// `invalid_id`: an id is empty.
    InvalidId {
        /// What the id names.
        what: &'static str,
    },
    /// `revision_missing`: the plan has fewer ops than the revision asked for.
    RevisionMissing {
        /// The plan.
        plan_id: String,
        /// The revision asked for.
        revision: u64,
        /// The plan's revision.
        latest: u64,
    },
    /// `not_editable`: ops were appended to a plan that is not editable.
    NotEditable {
        /// The plan.
        plan_id: String,
        /// Its state.
        state: PlanState,
        /// Its revision.
        revision: u64,
    },
    /// `revision_moved`: the plan is not at the revision the caller expected.
    RevisionMoved {
        /// The plan.
        plan_id: String,
        /// The revision the caller expected.
        expected: u64,
        /// The plan's revision.
        actual: u64,
        /// Its state.
        state: PlanState,
    },
    /// `op_conflict`: an op id is already stored with other content.
    OpConflict {
        /// The plan.
        plan_id: String,
        /// The op id.
        op_id: String,
    },
    /// `state_mismatch`: the plan is not in the state the transition starts from.
    StateMismatch {
        /// The plan.
        plan_id: String,
        /// The state the transition needs.
        expected: PlanState,
        /// The plan's state.
        actual: PlanState,
    },
    /// `digest_mismatch`: the plan's digest is not the one given.
    DigestMismatch {
        /// The plan.
        plan_id: String,
        /// The digest the caller gave (or the record named).
        expected: String,
        /// The plan's digest.
        actual: String,
    },
    /// `authority_mismatch`: an approval's authority set is not the plan's.
    AuthorityMismatch {
        /// The plan.
        plan_id: String,
        /// Claims the plan makes that the approval does not grant.
        missing: Vec<AuthorityClaim>,
        /// Claims the approval grants that the plan does not make.
        extra: Vec<AuthorityClaim>,
    },
    /// `plan_mismatch`: an approval names another plan.
    PlanMismatch {
        /// The plan being approved.
        plan_id: String,
        /// The plan the record names.
        record_plan_id: String,
    },
    /// `illegal_transition`: the lifecycle has no such step from here.
    IllegalTransition {
        /// The plan.
        plan_id: String,
        /// Its state.
        from: PlanState,
        /// The state asked for.
        to: PlanState,
        /// Why not, and what to do instead.
        reason: &'static str,
    },
    /// `not_executable`: a run was claimed on a plan that is not approved.
    NotExecutable {
        /// The plan.
        plan_id: String,
        /// Its state.
        state: PlanState,
    },
    /// `run_already_claimed`: the plan's one run is taken.
    RunAlreadyClaimed {
        /// The plan.
        plan_id: String,
        /// The run that claimed it.
        run_id: String,
    },
    /// `run_missing`: no plan claimed a run with this id.
    RunMissing {
        /// The id asked for.
        run_id: String,
    },
    /// `run_in_use`: another process holds the run's lease and is driving it.
    RunInUse {
        /// The run.
        run_id: String,
        /// The lease's owner.
        owner: String,
        /// How long until the lease runs out unless renewed, in milliseconds.
        expires_in_ms: u64,
    },
    /// `run_already_settled`: the run completed or failed; it cannot be driven again.
    RunAlreadySettled {
        /// The run.
        run_id: String,
        /// How it ended (`completed` or `failed`).
        outcome: &'static str,
    },
    /// `lease_lost`: the caller no longer holds the run's lease (another process resumed it).
    LeaseLost {
        /// The run.
        run_id: String,
        /// Who holds it now, if anyone.
        owner: Option<String>,
    },
    /// `store_corrupt`: stored data cannot be read back (written by hand or by another program).
    Corrupt {
        /// The plan, when the damage is in one.
        plan_id: Option<String>,
        /// What could not be read.
        detail: String,
    },
    /// `schema_too_new`: the database was written by a newer writ.
    SchemaTooNew {
        /// The database's schema version.
        found: i64,
        /// The newest version this writ reads.
        supported: i64,
    },
    /// `store_unavailable`: the backend failed (file unreadable, locked for too long, disk full).
    Unavailable {
        /// The backend's message.
        detail: String,
    },
}

impl StoreError {
    /// The stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            StoreError::PlanMissing { .. } => "plan_missing",
            StoreError::SourceMissing { .. } => "source_missing",
            StoreError::DuplicateId { .. } => "duplicate_id",
            StoreError::InvalidId { .. } => "invalid_id",
            StoreError::RevisionMissing { .. } => "revision_missing",
            StoreError::NotEditable { .. } => "not_editable",
            StoreError::RevisionMoved { .. } => "revision_moved",
            StoreError::OpConflict { .. } => "op_conflict",
            StoreError::StateMismatch { .. } => "state_mismatch",
            StoreError::DigestMismatch { .. } => "digest_mismatch",
            StoreError::AuthorityMismatch { .. } => "authority_mismatch",
            StoreError::PlanMismatch { .. } => "plan_mismatch",
            StoreError::IllegalTransition { .. } => "illegal_transition",
            StoreError::NotExecutable { .. } => "not_executable",
            StoreError::RunAlreadyClaimed { .. } => "run_already_claimed",
            StoreError::RunMissing { .. } => "run_missing",
            StoreError::RunInUse { .. } => "run_in_use",
            StoreError::RunAlreadySettled { .. } => "run_already_settled",
            StoreError::LeaseLost { .. } => "lease_lost",
            StoreError::Corrupt { .. } => "store_corrupt",
            StoreError::SchemaTooNew { .. } => "schema_too_new",
            StoreError::Unavailable { .. } => "store_unavailable",
        }
    }
}

fn claims(list: &[AuthorityClaim]) -> String {
    list.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.code())?;
        match self {
            StoreError::PlanMissing { plan_id } => {
                write!(f, "no plan \"{plan_id}\"; list the plans to find its id, or create it")
            }
            StoreError::SourceMissing { plan_id } => {
                write!(
                    f,
                    "cannot clone \"{plan_id}\": no such plan; list the plans to find its id"
                )
            }
            StoreError::DuplicateId { what, id } => {
                write!(f, "a {what} \"{id}\" already exists; choose another id")
            }
            StoreError::InvalidId { what } => write!(f, "a {what} id is a non-empty string"),
            StoreError::RevisionMissing {
                plan_id,
                revision,
                latest,
            } => write!(
                f,
                "plan \"{plan_id}\" has no revision {revision}: it is at revision {latest}; ask for a revision from 0 to {latest}"
            ),
            StoreError::NotEditable {
                plan_id,
                state,
                revision,
            } => write!(
                f,
                "plan \"{plan_id}\" is {state} at revision {revision}, so it cannot be edited; unfreeze it first \
                 (or clone it, if its run was claimed)"
            ),
            StoreError::RevisionMoved {
                plan_id,
                expected,
                actual,
                ..
            } => write!(
                f,
                "plan \"{plan_id}\" is at revision {actual}, not {expected}: someone else edited it; read its ops again, \
                 then append against revision {actual}"
            ),
            StoreError::OpConflict { plan_id, op_id } => write!(
                f,
                "plan \"{plan_id}\" already has an op \"{op_id}\" with other content; give each edit its own opId"
            ),
            StoreError::StateMismatch {
                plan_id,
                expected,
                actual,
            } => write!(
                f,
                "plan \"{plan_id}\" is {actual}, but this step needs it {expected}; read its state and take the step \
                 that state allows"
            ),
            StoreError::DigestMismatch {
                plan_id,
                expected,
                actual,
            } => write!(
                f,
                "plan \"{plan_id}\" has digest {actual}, not {expected}: it is not the plan that was checked or \
                 reviewed; review it as it is now and use that digest"
            ),
            StoreError::AuthorityMismatch {
                plan_id,
                missing,
                extra,
            } => {
                write!(f, "the approval's authority set is not plan \"{plan_id}\"'s")?;
                if !missing.is_empty() {
                    write!(f, "; it omits {} which the plan's calls claim", claims(missing))?;
                }
                if !extra.is_empty() {
                    write!(f, "; it grants {} which no reachable call claims", claims(extra))?;
                }
                f.write_str("; approve exactly the plan's authority set")
            }
            StoreError::PlanMismatch {
                plan_id,
                record_plan_id,
            } => write!(
                f,
                "the approval is for plan \"{record_plan_id}\", not \"{plan_id}\"; approve \"{plan_id}\" with a record \
                 that names it"
            ),
            StoreError::IllegalTransition {
                plan_id,
                from,
                to,
                reason,
            } => write!(f, "plan \"{plan_id}\" cannot go from {from} to {to}: {reason}"),
            StoreError::NotExecutable { plan_id, state } => write!(
                f,
                "plan \"{plan_id}\" is {state}, not executable; freeze it, have it approved, then run it"
            ),
            StoreError::RunAlreadyClaimed { plan_id, run_id } => write!(
                f,
                "plan \"{plan_id}\" already has its one run, \"{run_id}\"; resume that run, or clone the plan to run it \
                 again"
            ),
            StoreError::RunMissing { run_id } => {
                write!(f, "no run \"{run_id}\"; list the runs to find its id")
            }
            StoreError::RunInUse {
                run_id,
                owner,
                expires_in_ms,
            } => write!(
                f,
                "run \"{run_id}\" is being driven by {owner}, whose lease runs for {expires_in_ms} ms more; wait for it \
                 to finish, or, if that process is gone, resume once the lease has run out"
            ),
            StoreError::RunAlreadySettled { run_id, outcome } => write!(
                f,
                "run \"{run_id}\" has {outcome}, so there is nothing to resume; clone its plan to run it again"
            ),
            StoreError::LeaseLost { run_id, owner } => match owner {
                Some(owner) => write!(
                    f,
                    "this process no longer drives run \"{run_id}\": {owner} took it over after the lease ran out; \
                     nothing more was written"
                ),
                None => write!(
                    f,
                    "this process does not hold run \"{run_id}\"'s lease; acquire the run before writing to it"
                ),
            },
            StoreError::Corrupt { plan_id, detail } => match plan_id {
                Some(plan_id) => write!(
                    f,
                    "the stored data of plan \"{plan_id}\" cannot be read ({detail}); restore the store from a backup"
                ),
                None => write!(f, "the store cannot be read ({detail}); restore it from a backup"),
            },
            StoreError::SchemaTooNew { found, supported } => write!(
                f,
                "the store has schema version {found}, newer than the {supported} this writ reads; use a newer writ"
            ),
            StoreError::Unavailable { detail } => write!(f, "the store failed ({detail}); check the file and retry"),
        }
    }
}

impl std::error::Error for StoreError {}
