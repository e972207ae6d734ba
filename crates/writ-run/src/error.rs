//! Why a run could not be started, resumed or driven on.
//!
//! These are refusals of the run as a whole. What goes wrong inside a node (a tool failing, a
//! model never answering to schema) is not an error here: it is the node's outcome, recorded in
//! the run, and the run settles `failed` unless an `error` edge takes over.

use std::fmt;

use writ_store::StoreError;

/// A refusal or failure of a whole run, with a stable snake_case [`code`](RunError::code).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum RunError {
    /// The store refused or failed (its own code: `not_executable`, `digest_mismatch`,
    /// `run_already_claimed`, `run_in_use`, `lease_lost`, `store_unavailable`, …).
    Store(StoreError),
    /// `invalid_input`: the input does not fit the entry's declared fields; nothing was
    /// claimed.
    InvalidInput {
        /// One line per problem.
        problems: Vec<String>,
    },
    /// `plan_not_runnable`: the stored plan cannot be run as it is (no entry node, a
    /// definition that does not read); freeze refuses such plans, so it was stored another way.
    PlanNotRunnable {
        /// The plan.
        plan_id: String,
        /// What is wrong.
        detail: String,
    },
    /// `run_not_started`: the run was claimed but its process died before writing its first
    /// event, so there is nothing to resume (not even its input).
    NeverStarted {
        /// The run.
        run_id: String,
    },
    /// `run_log_invalid`: the run's stored events do not make a run.
    LogInvalid {
        /// What is wrong.
        detail: String,
    },
}

impl RunError {
    /// The stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            RunError::Store(error) => error.code(),
            RunError::InvalidInput { .. } => "invalid_input",
            RunError::PlanNotRunnable { .. } => "plan_not_runnable",
            RunError::NeverStarted { .. } => "run_not_started",
            RunError::LogInvalid { .. } => "run_log_invalid",
        }
    }
}

impl From<StoreError> for RunError {
    fn from(error: StoreError) -> RunError {
        RunError::Store(error)
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Store(error) => error.fmt(f),
            RunError::InvalidInput { problems } => write!(
                f,
                "invalid_input: the input does not fit the entry's declared fields ({}); fix the input and start \
                 again (the plan's one run was not used)",
                problems.join("; ")
            ),
            RunError::PlanNotRunnable { plan_id, detail } => write!(
                f,
                "plan_not_runnable: plan \"{plan_id}\" cannot run: {detail}; check it with `writ plan check`"
            ),
            RunError::NeverStarted { run_id } => write!(
                f,
                "run_not_started: run \"{run_id}\" was claimed, but its process died before the run started, so \
                 there is nothing to resume; start it with `writ run start --run-id {run_id}` and its input"
            ),
            RunError::LogInvalid { detail } => write!(
                f,
                "run_log_invalid: the run's events cannot be read as a run ({detail}); the store was written by \
                 something other than writ"
            ),
        }
    }
}

impl std::error::Error for RunError {}
