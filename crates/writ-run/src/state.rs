//! The fold of a run's events: the one place a run's state comes from.
//!
//! The executor never changes its state directly: it decides events, appends them, and applies
//! them here. A resume applies the stored events the same way, so a resumed run starts from
//! exactly the state the killed process had committed.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use foldhash::fast::RandomState;
use serde_json::Value as Json;
use writ_store::run::{FrameRef, JoinState, NodeOutcome, RunEvent, RunOutcome};

use crate::table::{Output, Table};

/// One frame as the events describe it.
#[derive(Clone, Debug)]
pub(crate) struct FrameRecord {
    pub(crate) frame: FrameRef,
    pub(crate) parents: Vec<String>,
    pub(crate) entered: bool,
    pub(crate) idempotency_key: Option<String>,
    pub(crate) outcome: Option<NodeOutcome>,
    pub(crate) verdict: Option<Json>,
    /// The outputs this frame reads.
    pub(crate) input: Table,
}

/// Why a run stopped short, as its last `run_interrupted` says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interruption {
    /// `turn_abort`, `budget_exhausted`, `node_failed`, `join_unsatisfiable`,
    /// `indeterminate_halt` or `process_death`.
    pub cause: String,
    /// The node concerned, if one is.
    pub node_id: Option<String>,
    /// What happened.
    pub detail: Option<String>,
}

/// A run's state, folded from its events.
#[derive(Debug, Default)]
pub(crate) struct RunState {
    pub(crate) run_id: String,
    pub(crate) plan_id: String,
    pub(crate) digest: String,
    pub(crate) input: Json,
    pub(crate) started: bool,
    /// Every frame, by key. Keys are as long as routes, and a step looks several up: foldhash
    /// reads them several times faster than SipHash.
    pub(crate) frames: HashMap<Arc<str>, FrameRecord, RandomState>,
    /// Frame keys in the order the events first named them.
    pub(crate) order: Vec<Arc<str>>,
    out_tables: HashMap<Arc<str>, Table, RandomState>,
    /// Frames made due and not yet entered, oldest first (entered ones are skipped lazily).
    pending: VecDeque<Arc<str>>,
    /// Entered, unsettled frames a resume runs again, ahead of the due ones.
    requeued: VecDeque<Arc<str>>,
    pub(crate) joins: Vec<JoinState>,
    pub(crate) interruption: Option<Interruption>,
    /// How the run settled, when its last event is a `run_settled`.
    pub(crate) settled: Option<RunOutcome>,
    /// Frames entered: what `maxSteps` bounds.
    pub(crate) steps: u64,
    /// The entry node, made due when the run starts (unknown to a fold without the plan).
    entry: Option<(String, String)>,
}

impl RunState {
    /// A state that makes the entry frame `(node id, kind)` due when the run starts.
    pub(crate) fn new(entry: Option<(String, String)>) -> RunState {
        RunState {
            entry,
            ..RunState::default()
        }
    }

    /// Applies every event in order.
    pub(crate) fn apply_all(&mut self, events: &[RunEvent]) {
        for event in events {
            self.apply(event);
        }
    }

    /// Applies one event.
    pub(crate) fn apply(&mut self, event: &RunEvent) {
        self.settled = None;
        match event {
            RunEvent::RunStarted {
                run_id,
                plan_id,
                digest,
                input,
                ..
            } => {
                self.run_id.clone_from(run_id);
                self.plan_id.clone_from(plan_id);
                self.digest.clone_from(digest);
                self.input = input.clone();
                self.started = true;
                if let Some((node_id, kind)) = self.entry.clone() {
                    let frame = FrameRef {
                        node_id,
                        kind,
                        branch_id: Arc::default(),
                        via_edge_id: None,
                    };
                    self.make_due(frame, Vec::new());
                }
            }
            RunEvent::NodeEntered {
                frame,
                parents,
                idempotency_key,
                ..
            } => {
                let key = self.known(frame, parents);
                let record = self.frames.get_mut(&key).expect("known just made sure");
                if !record.entered {
                    record.entered = true;
                    self.steps += 1;
                }
                if idempotency_key.is_some() {
                    record.idempotency_key.clone_from(idempotency_key);
                }
            }
            RunEvent::NodeSettled {
                frame,
                outcome,
                verdict,
                ..
            } => {
                let Some((key, record)) = self.frames.get_key_value(frame.as_str()) else {
                    return;
                };
                let key = key.clone();
                let out = match outcome {
                    NodeOutcome::Ok { output } => record.input.with(
                        key.clone(),
                        Arc::new(Output {
                            node_id: record.frame.node_id.as_str().into(),
                            items: output.clone(),
                        }),
                    ),
                    _ => record.input.clone(),
                };
                self.out_tables.insert(key.clone(), out);
                let record = self.frames.get_mut(&key).expect("looked up above");
                record.outcome = Some(outcome.clone());
                record.verdict.clone_from(verdict);
            }
            RunEvent::EdgeTaken { from, to, .. } => {
                self.make_due(to.clone(), vec![from.clone()]);
            }
            RunEvent::FrontierSnapshot { joins, .. } => self.joins.clone_from(joins),
            RunEvent::RunInterrupted {
                cause, node_id, detail, ..
            } => {
                self.interruption = Some(Interruption {
                    cause: cause.clone(),
                    node_id: node_id.clone(),
                    detail: detail.clone(),
                });
            }
            RunEvent::RunSettled { outcome, .. } => self.settled = Some(*outcome),
        }
    }

    /// The frame's key, recording the frame first if the events had not named it.
    fn known(&mut self, frame: &FrameRef, parents: &[String]) -> Arc<str> {
        let key: Arc<str> = frame.key().into();
        if !self.frames.contains_key(&key) {
            let input = Table::union(parents.iter().filter_map(|parent| self.out_tables.get(parent.as_str())));
            self.frames.insert(
                key.clone(),
                FrameRecord {
                    frame: frame.clone(),
                    parents: parents.to_vec(),
                    entered: false,
                    idempotency_key: None,
                    outcome: None,
                    verdict: None,
                    input,
                },
            );
            self.order.push(key.clone());
        }
        key
    }

    fn make_due(&mut self, frame: FrameRef, parents: Vec<String>) {
        let key = self.known(&frame, &parents);
        self.pending.push_back(key);
    }

    /// Puts an entered, unsettled frame back at the front of the queue (a resume running it
    /// again).
    pub(crate) fn requeue(&mut self, key: Arc<str>) {
        self.requeued.push_back(key);
    }

    /// The next frame to run: one a resume put back, else the oldest due frame not yet entered.
    pub(crate) fn next_due(&mut self) -> Option<Arc<str>> {
        if let Some(key) = self.requeued.pop_front() {
            return Some(key);
        }
        while let Some(key) = self.pending.pop_front() {
            if !self.frames[&key].entered {
                return Some(key);
            }
        }
        None
    }

    /// Whether any frame is waiting to run.
    pub(crate) fn has_due(&self) -> bool {
        !self.requeued.is_empty() || self.pending.iter().any(|key| !self.frames[key].entered)
    }

    /// Frames due and not yet entered, oldest first.
    pub(crate) fn due(&self) -> impl Iterator<Item = &FrameRecord> + '_ {
        self.requeued
            .iter()
            .chain(&self.pending)
            .map(|key| &self.frames[key])
            .filter(|record| !record.entered)
    }

    /// Frames entered and never settled, in the order first named (join arrivals waiting at
    /// their barrier excluded).
    pub(crate) fn unsettled(&self) -> impl Iterator<Item = &FrameRecord> + '_ {
        self.order
            .iter()
            .map(|key| &self.frames[key])
            .filter(|record| record.entered && record.outcome.is_none() && record.frame.kind != "join")
    }
}
