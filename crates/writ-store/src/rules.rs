//! The lifecycle's rules, written once over a plan's stored fields so that every backend decides
//! the same way: a backend loads the fields inside its transaction, asks these functions, and
//! writes back what they changed.

use std::sync::Arc;

use writ_plan::{ApprovalRecord, ApprovalRefusal, Op, Provenance, digest, fold};

use crate::{PlanState, PlanSummary, StoreError, StoredPlan};

/// A plan's stored fields besides its ops.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Record {
    pub plan_id: String,
    pub state: PlanState,
    pub label: Option<String>,
    pub provenance: Option<Provenance>,
    /// The digest the plan was frozen at (reviewable and executable only): approval and the run
    /// claim also require the digest computed now to equal it.
    pub frozen_digest: Option<String>,
    pub approval: Option<ApprovalRecord>,
    pub run_id: Option<String>,
}

impl Record {
    /// A new editable plan.
    pub fn new(plan_id: &str, label: Option<String>, provenance: Option<Provenance>) -> Record {
        Record {
            plan_id: plan_id.to_owned(),
            state: PlanState::Editable,
            label,
            provenance,
            frozen_digest: None,
            approval: None,
            run_id: None,
        }
    }

    /// The plan read whole: the fold of `ops` (the stored ops, in append order).
    pub fn read(&self, ops: &[Op]) -> StoredPlan {
        self.read_folded(&self.fold(ops))
    }

    /// The fold of `ops` under this record's provenance, for a store to keep.
    pub fn fold(&self, ops: &[Op]) -> FoldedPlan {
        let folded = fold(&self.plan_id, ops, self.provenance.clone());
        FoldedPlan {
            digest: digest(&folded.view),
            view: Arc::new(folded.view),
            issues: folded.issues,
        }
    }

    /// The plan read whole from a fold of its ops kept earlier.
    pub fn read_folded(&self, folded: &FoldedPlan) -> StoredPlan {
        StoredPlan {
            summary: self.summary(folded),
            view: folded.view.clone(),
            fold_issues: folded.issues.clone(),
        }
    }

    /// The plan's summary, from a fold of its ops (without copying the view).
    pub fn summary(&self, folded: &FoldedPlan) -> PlanSummary {
        PlanSummary {
            plan_id: self.plan_id.clone(),
            state: self.state,
            digest: folded.digest.clone(),
            revision: folded.view.revision,
            label: self.label.clone(),
            provenance: self.provenance.clone(),
            approval: self.approval.clone(),
            run_id: self.run_id.clone(),
        }
    }
}

/// What a plan's ops fold to. Folding and digesting a plan of hundreds of nodes takes
/// milliseconds, and every run start, claim and lifecycle step reads the plan: the stores keep
/// the last fold of each plan and reuse it while its ops are unchanged.
#[derive(Debug)]
pub(crate) struct FoldedPlan {
    view: Arc<writ_plan::PlanView>,
    digest: String,
    issues: Vec<writ_plan::PlanIssue>,
}

/// Refuses an empty id.
pub(crate) fn check_id(what: &'static str, id: &str) -> Result<(), StoreError> {
    if id.is_empty() {
        Err(StoreError::InvalidId { what })
    } else {
        Ok(())
    }
}

/// Which of `ops` an append adds: those not stored yet, each once, in batch order. `stored`
/// finds an op already stored under an op id. Refuses unless the plan is editable, on an op id
/// stored (or repeated in the batch) with other content, and on a moved revision when anything
/// is new.
pub(crate) fn new_ops(
    record: &Record,
    revision: u64,
    ops: &[Op],
    expected_revision: Option<u64>,
    mut stored: impl FnMut(&str) -> Result<Option<Op>, StoreError>,
) -> Result<Vec<Op>, StoreError> {
    if record.state != PlanState::Editable {
        return Err(StoreError::NotEditable {
            plan_id: record.plan_id.clone(),
            state: record.state,
            revision,
        });
    }
    let mut fresh: Vec<Op> = Vec::new();
    for op in ops {
        let earlier = match fresh.iter().find(|other| other.op_id == op.op_id) {
            Some(other) => Some(other.clone()),
            None => stored(&op.op_id)?,
        };
        match earlier {
            Some(earlier) if earlier == *op => {}
            Some(_) => {
                return Err(StoreError::OpConflict {
                    plan_id: record.plan_id.clone(),
                    op_id: op.op_id.clone(),
                });
            }
            None => fresh.push(op.clone()),
        }
    }
    if let Some(expected) = expected_revision
        && expected != revision
        && !fresh.is_empty()
    {
        return Err(StoreError::RevisionMoved {
            plan_id: record.plan_id.clone(),
            expected,
            actual: revision,
            state: record.state,
        });
    }
    Ok(fresh)
}

/// Checks `through_revision` against a plan's revision and returns how many ops to read.
pub(crate) fn prefix_len(plan_id: &str, revision: u64, through_revision: Option<u64>) -> Result<u64, StoreError> {
    match through_revision {
        None => Ok(revision),
        Some(asked) if asked <= revision => Ok(asked),
        Some(asked) => Err(StoreError::RevisionMissing {
            plan_id: plan_id.to_owned(),
            revision: asked,
            latest: revision,
        }),
    }
}

/// editable → reviewable at `expected_digest`.
pub(crate) fn freeze(record: &mut Record, plan: &StoredPlan, expected_digest: &str) -> Result<(), StoreError> {
    if record.state != PlanState::Editable {
        return Err(StoreError::StateMismatch {
            plan_id: record.plan_id.clone(),
            expected: PlanState::Editable,
            actual: record.state,
        });
    }
    if plan.summary.digest != expected_digest {
        return Err(StoreError::DigestMismatch {
            plan_id: record.plan_id.clone(),
            expected: expected_digest.to_owned(),
            actual: plan.summary.digest.clone(),
        });
    }
    record.state = PlanState::Reviewable;
    record.frozen_digest = Some(plan.summary.digest.clone());
    Ok(())
}

/// reviewable → editable, or executable → editable while no run was claimed (voiding the
/// approval).
pub(crate) fn unfreeze(record: &mut Record) -> Result<(), StoreError> {
    match record.state {
        PlanState::Editable => {
            return Err(StoreError::StateMismatch {
                plan_id: record.plan_id.clone(),
                expected: PlanState::Reviewable,
                actual: PlanState::Editable,
            });
        }
        PlanState::Executable if record.run_id.is_some() => {
            return Err(StoreError::IllegalTransition {
                plan_id: record.plan_id.clone(),
                from: PlanState::Executable,
                to: PlanState::Editable,
                reason: "its one run was claimed, so it stays as it ran; clone it and edit the clone",
            });
        }
        PlanState::Reviewable | PlanState::Executable => {}
    }
    record.state = PlanState::Editable;
    record.frozen_digest = None;
    record.approval = None;
    Ok(())
}

/// The frozen digest must still be the digest computed now (a store altered underneath, or read
/// by a writ whose fold differs, must not approve or run what was reviewed).
fn still_frozen(record: &Record, plan: &StoredPlan) -> Result<(), StoreError> {
    match &record.frozen_digest {
        Some(frozen) if *frozen == plan.summary.digest => Ok(()),
        Some(frozen) => Err(StoreError::DigestMismatch {
            plan_id: record.plan_id.clone(),
            expected: frozen.clone(),
            actual: plan.summary.digest.clone(),
        }),
        None => Err(StoreError::Corrupt {
            plan_id: Some(record.plan_id.clone()),
            detail: format!("a {} plan has no frozen digest", record.state),
        }),
    }
}

/// reviewable → executable with `approval`.
pub(crate) fn approve(record: &mut Record, plan: &StoredPlan, approval: &ApprovalRecord) -> Result<(), StoreError> {
    if record.state != PlanState::Reviewable {
        return Err(StoreError::StateMismatch {
            plan_id: record.plan_id.clone(),
            expected: PlanState::Reviewable,
            actual: record.state,
        });
    }
    still_frozen(record, plan)?;
    approval.check(&plan.view).map_err(|refusal| match refusal {
        ApprovalRefusal::PlanMismatch { approved, .. } => StoreError::PlanMismatch {
            plan_id: record.plan_id.clone(),
            record_plan_id: approved,
        },
        ApprovalRefusal::DigestMoved { approved, actual } => StoreError::DigestMismatch {
            plan_id: record.plan_id.clone(),
            expected: approved,
            actual,
        },
        ApprovalRefusal::AuthorityMismatch { missing, extra } => StoreError::AuthorityMismatch {
            plan_id: record.plan_id.clone(),
            missing,
            extra,
        },
    })?;
    record.state = PlanState::Executable;
    record.approval = Some(approval.clone());
    Ok(())
}

/// Claims the run (the backend also makes sure no other plan's run has the id).
pub(crate) fn claim_run(
    record: &mut Record,
    plan: &StoredPlan,
    expected_digest: &str,
    run_id: &str,
) -> Result<(), StoreError> {
    check_id("run", run_id)?;
    if record.state != PlanState::Executable {
        return Err(StoreError::NotExecutable {
            plan_id: record.plan_id.clone(),
            state: record.state,
        });
    }
    if let Some(winner) = &record.run_id {
        return Err(StoreError::RunAlreadyClaimed {
            plan_id: record.plan_id.clone(),
            run_id: winner.clone(),
        });
    }
    still_frozen(record, plan)?;
    let approved = record.approval.as_ref().map(|approval| approval.digest.as_str());
    if approved != Some(plan.summary.digest.as_str()) {
        return Err(StoreError::DigestMismatch {
            plan_id: record.plan_id.clone(),
            expected: approved.unwrap_or_default().to_owned(),
            actual: plan.summary.digest.clone(),
        });
    }
    if expected_digest != plan.summary.digest {
        return Err(StoreError::DigestMismatch {
            plan_id: record.plan_id.clone(),
            expected: expected_digest.to_owned(),
            actual: plan.summary.digest.clone(),
        });
    }
    record.run_id = Some(run_id.to_owned());
    Ok(())
}

/// The record of a clone of `source` made from `prefix` (its first ops), whose run had completed
/// the nodes `completed_at_clone` ([`crate::run::completed_nodes`]).
pub(crate) fn clone_record(source: &Record, prefix: &[Op], new_id: &str, completed_at_clone: Vec<String>) -> Record {
    let parent = source.read(prefix);
    let provenance = Provenance::Clone {
        parent: source.plan_id.clone(),
        parent_digest: parent.summary.digest,
        parent_revision: parent.summary.revision,
        completed_at_clone,
    };
    Record::new(new_id, source.label.clone(), Some(provenance))
}
