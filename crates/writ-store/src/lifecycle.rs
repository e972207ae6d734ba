//! Lifecycle steps that need more than the store: freeze runs every check before the store's
//! transition.

use writ_plan::{FreezeInputs, PlanIssue, Severity, check};

use crate::{PlanState, PlanStore, PlanSummary, StoreError};

/// What [`freeze`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum FreezeOutcome {
    /// The plan is reviewable at the digest that was checked; `issues` holds the advisory
    /// issues found (none block).
    Frozen {
        /// The plan's summary, now reviewable.
        summary: PlanSummary,
        /// Advisory issues.
        issues: Vec<PlanIssue>,
    },
    /// Something blocks: the plan stays editable. `issues` holds every issue found, the
    /// fold's first, then the freeze checks', blocking and advisory alike.
    Refused {
        /// The plan's summary, unchanged.
        summary: PlanSummary,
        /// Every issue found.
        issues: Vec<PlanIssue>,
    },
}

/// Freezes plan `plan_id`: reads it, runs the fold's and every freeze check
/// ([`writ_plan::check`]) on the view it read, and, when nothing blocks, moves it to reviewable
/// at that view's digest. An edit that lands between the read and the transition makes the
/// store refuse with `digest_mismatch`, so no plan is frozen unchecked; read and freeze again.
/// A plan that is not editable is refused with `state_mismatch` before anything is checked.
pub fn freeze(store: &impl PlanStore, plan_id: &str, inputs: &FreezeInputs<'_>) -> Result<FreezeOutcome, StoreError> {
    let plan = store.read_plan(plan_id)?;
    if plan.summary.state != PlanState::Editable {
        return Err(StoreError::StateMismatch {
            plan_id: plan_id.to_owned(),
            expected: PlanState::Editable,
            actual: plan.summary.state,
        });
    }
    let mut issues = plan.fold_issues;
    for issue in check(&plan.view, inputs) {
        if !issues.contains(&issue) {
            issues.push(issue);
        }
    }
    if issues.iter().any(|issue| issue.severity == Severity::Blocking) {
        return Ok(FreezeOutcome::Refused {
            summary: plan.summary,
            issues,
        });
    }
    let summary = store.freeze(plan_id, &plan.summary.digest)?;
    Ok(FreezeOutcome::Frozen { summary, issues })
}
