//! writ-run: runs approved plans, durably.
//!
//! A [`Runtime`] takes a plan that a person approved (executable in a [`writ_store::RunStore`]
//! at its approved digest), claims its one run, and drives it: frames keyed
//! `nodeId:branchKey`, at most `maxConcurrentFrames` at once, at most `maxSteps` started, each
//! within a node timeout. Calls go to a [`writ_tools::Toolbox`] (arguments and results checked
//! against the tools' schemas, each call carrying an idempotency key), reason nodes to a
//! [`writ_model::Model`] (answers checked against the node's schema, with corrective retries),
//! branch and select nodes to the predicate cells of a [`writ_cells::Registry`] (a cell's fault
//! is the negative verdict, recorded, never a failed node).
//!
//! Everything the runtime does is an event ([`writ_store::RunEvent`]), committed before it does
//! anything a resume may not do again (work the plan declares repeatable, a predicate or a
//! replay-safe call, runs ahead of the log, several steps a commit), and everything it knows is
//! the fold of those events, so [`Runtime::resume`] after an abort, a halt or a killed process
//! continues from the last committed batch: no committed output is lost, and a call whose fate
//! is unknown is decided by its `onIndeterminate` — retried only when it is replay-safe, never
//! guessed at. [`RunView`] is what a person reads about a run.
//!
//! # Where writ differs from the original executor
//!
//! - Every bound holds: `maxConcurrentFrames` frames run at once (the original ran one),
//!   `maxSteps` halts, each node has a timeout, an abort cancels frames in flight.
//! - The entry's declared fields are checked for type, enum and `maxBytes`, not only presence;
//!   a call's declared output fields are checked on its result; `onMissingValue`,
//!   `onIndeterminate` and `replaySafe` are honoured.
//! - A diamond whose fork is the entry node joins (the original's barrier never closed).
//! - A join's merged frame is entered and settled like any frame, its arrivals settle `merged`,
//!   and its arrivals are ordered by incoming edge, so what a run computes does not depend on
//!   which route happened to arrive first.
//! - A crashed run is told apart from a live one by its lease ([`writ_store::run::RunStatus`]).
//! - Predicates read the output table ordered by key, not by settlement order.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod compiled;
mod engine;
mod error;
mod projection;
mod resolve;
mod state;
mod table;

pub use engine::{Abort, Observer, RunOptions, Runtime, idempotency_key, owner_is_dead, process_owner};
pub use error::RunError;
pub use projection::{FrameStatus, FrameView, RunView};
pub use state::Interruption;
