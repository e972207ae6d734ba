//! The fold of a run's events: the one place a run's state comes from.
//!
//! The executor never changes its state directly: it decides events, appends them, and applies
//! them here. A resume applies the stored events the same way, so a resumed run starts from
//! exactly the state the killed process had committed.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use foldhash::fast::RandomState;
use serde_json::Value as Json;
use writ_plan::BranchId;
use writ_store::run::{FrameRef, JoinState, NodeOutcome, RunEvent, RunOutcome};

use crate::table::{Output, Table};

/// A frame's number in its run's frame table: frames are numbered in the order the events first
/// name them, so a step reaches its frames without building, hashing or copying their keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FrameId(usize);

/// One frame as the events describe it.
#[derive(Clone, Debug)]
pub(crate) struct FrameRecord {
    /// The frame's identity `nodeId:branchKey`, built once when the frame is first named.
    pub(crate) key: Arc<str>,
    pub(crate) frame: FrameRef,
    /// The keys of the frames whose outputs this one reads, as the events name them.
    pub(crate) parents: Vec<Arc<str>>,
    pub(crate) entered: bool,
    pub(crate) idempotency_key: Option<String>,
    pub(crate) outcome: Option<NodeOutcome>,
    pub(crate) verdict: Option<Json>,
    /// The outputs this frame reads.
    pub(crate) input: Table,
    /// The outputs its successors read, once it settled: its input plus its own output.
    output_table: Option<Table>,
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
    /// Every frame, in the order the events first named them.
    frames: Vec<FrameRecord>,
    /// Each frame's number, by key: for the events, which name frames by key. Keys are as long
    /// as routes: foldhash reads them several times faster than SipHash.
    ids: HashMap<Arc<str>, FrameId, RandomState>,
    /// Each frame's number, by the address of its route: an event that names a frame again with
    /// the route it was first named with (the runtime's own events do) finds it without its
    /// key. The address is only a hint (the frame is compared too, which the shared route makes
    /// cheap), and no other route can take it while the frame's record holds its route.
    by_route: HashMap<usize, FrameId, RandomState>,
    /// Frames made due and not yet entered, oldest first (entered ones are skipped lazily).
    pending: VecDeque<FrameId>,
    /// Entered, unsettled frames a resume runs again, ahead of the due ones.
    requeued: VecDeque<FrameId>,
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
                    self.make_due(&frame, &[]);
                }
            }
            RunEvent::NodeEntered {
                frame,
                parents,
                idempotency_key,
                ..
            } => {
                let id = self.known(frame, parents);
                let record = &mut self.frames[id.0];
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
                let Some(&id) = self.ids.get(frame.as_str()) else {
                    return;
                };
                let record = &mut self.frames[id.0];
                let output_table = match outcome {
                    NodeOutcome::Ok { output } => record.input.with(
                        record.key.clone(),
                        Arc::new(Output {
                            node_id: record.frame.node_id.as_str().into(),
                            items: output.clone(),
                        }),
                    ),
                    _ => record.input.clone(),
                };
                record.output_table = Some(output_table);
                record.outcome = Some(outcome.clone());
                record.verdict.clone_from(verdict);
            }
            RunEvent::EdgeTaken { from, to, .. } => self.make_due(to, std::slice::from_ref(from)),
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

    /// The frame's number, recording the frame first if the events had not named it.
    fn known(&mut self, frame: &FrameRef, parents: &[String]) -> FrameId {
        if let Some(&id) = self.by_route.get(&route_address(frame))
            && self.frames[id.0].frame == *frame
        {
            return id;
        }
        let parents: Vec<Arc<str>> = parents
            .iter()
            .map(|parent| match self.ids.get_key_value(parent.as_str()) {
                Some((key, _)) => key.clone(),
                None => parent.as_str().into(),
            })
            .collect();
        let key = self.key_of(frame, parents.first());
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let input = Table::union(
            parents
                .iter()
                .filter_map(|parent| self.record(parent)?.output_table.as_ref()),
        );
        let id = FrameId(self.frames.len());
        self.ids.insert(key.clone(), id);
        self.by_route.insert(route_address(frame), id);
        self.frames.push(FrameRecord {
            key,
            frame: frame.clone(),
            parents,
            entered: false,
            idempotency_key: None,
            outcome: None,
            verdict: None,
            input,
            output_table: None,
        });
        id
    }

    /// The key of `frame`. A frame is usually named first as a parent's successor, its route the
    /// parent's plus an edge, and the key of a route is its segments' keys one after another: so
    /// its key is the parent's, with the node id replaced and the new segments' key added,
    /// copied rather than built from the whole route.
    fn key_of(&self, frame: &FrameRef, parent: Option<&Arc<str>>) -> Arc<str> {
        let segments = &frame.branch_id.segments;
        if let Some(parent) = parent.and_then(|parent| self.record(parent)) {
            let shared = parent.frame.branch_id.segments.len();
            if segments.len() >= shared && segments[..shared] == parent.frame.branch_id.segments[..] {
                let parent_branch_key = &parent.key[parent.frame.node_id.len() + 1..];
                return BranchId::frame_key_extending(&frame.node_id, parent_branch_key, &segments[shared..]).into();
            }
        }
        frame.key().into()
    }

    fn make_due(&mut self, frame: &FrameRef, parents: &[String]) {
        let id = self.known(frame, parents);
        self.pending.push_back(id);
    }

    /// The number of the frame under `key`, if the events named it.
    pub(crate) fn id(&self, key: &str) -> Option<FrameId> {
        self.ids.get(key).copied()
    }

    /// The frame under `key`, if the events named it.
    pub(crate) fn record(&self, key: &str) -> Option<&FrameRecord> {
        self.ids.get(key).map(|id| &self.frames[id.0])
    }

    /// The frame numbered `id`.
    pub(crate) fn frame(&self, id: FrameId) -> &FrameRecord {
        &self.frames[id.0]
    }

    /// Every frame, in the order the events first named them.
    pub(crate) fn frames(&self) -> &[FrameRecord] {
        &self.frames
    }

    /// Puts an entered, unsettled frame back at the front of the queue (a resume running it
    /// again).
    pub(crate) fn requeue(&mut self, id: FrameId) {
        self.requeued.push_back(id);
    }

    /// The next frame to run: one a resume put back, else the oldest due frame not yet entered.
    pub(crate) fn next_due(&mut self) -> Option<FrameId> {
        if let Some(id) = self.requeued.pop_front() {
            return Some(id);
        }
        while let Some(id) = self.pending.pop_front() {
            if !self.frames[id.0].entered {
                return Some(id);
            }
        }
        None
    }

    /// Whether any frame is waiting to run.
    pub(crate) fn has_due(&self) -> bool {
        !self.requeued.is_empty() || self.pending.iter().any(|id| !self.frames[id.0].entered)
    }

    /// Frames due and not yet entered, oldest first.
    pub(crate) fn due(&self) -> impl Iterator<Item = &FrameRecord> + '_ {
        self.requeued
            .iter()
            .chain(&self.pending)
            .map(|id| &self.frames[id.0])
            .filter(|record| !record.entered)
    }

    /// Frames entered and never settled, in the order first named (join arrivals waiting at
    /// their barrier excluded).
    pub(crate) fn unsettled(&self) -> impl Iterator<Item = (FrameId, &FrameRecord)> + '_ {
        self.frames
            .iter()
            .enumerate()
            .filter(|(_, record)| record.entered && record.outcome.is_none() && record.frame.kind != "join")
            .map(|(id, record)| (FrameId(id), record))
    }
}

/// The address of `frame`'s route, for `RunState::by_route`.
fn route_address(frame: &FrameRef) -> usize {
    Arc::as_ptr(&frame.branch_id).addr()
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use writ_plan::RouteSegment;

    use super::*;

    fn frame(node_id: &str, segments: Vec<RouteSegment>) -> FrameRef {
        FrameRef {
            node_id: node_id.into(),
            kind: "call".into(),
            branch_id: Arc::new(BranchId { segments }),
            via_edge_id: None,
        }
    }

    fn edge(id: &str) -> RouteSegment {
        RouteSegment::Edge(id.into())
    }

    fn settled(key: &str) -> RunEvent {
        RunEvent::NodeSettled {
            frame: key.into(),
            outcome: NodeOutcome::Ok {
                output: vec![json!(key)],
            },
            verdict: None,
            host_reads: Vec::new(),
            attempts: None,
            at: 0,
        }
    }

    /// A key copied from the parent's is the key built from the whole route, whichever way the
    /// frame was named: after its parent, with a route that does not extend its parent's, or
    /// with no parent the fold knows.
    #[test]
    fn keys_copied_from_a_parent_are_the_keys_of_the_whole_route() {
        let mut state = RunState::new(Some(("entry".into(), "entry".into())));
        let a = frame("a", vec![edge("e1")]);
        let b = frame("b", vec![edge("e1"), edge("edge-two")]);
        let join = frame("j", vec![RouteSegment::join("j".into(), vec!["e1".into(), "x".into()])]);
        let stray = frame("s", vec![edge("e9")]);
        state.apply_all(&[
            RunEvent::RunStarted {
                run_id: "r".into(),
                plan_id: "p".into(),
                digest: "d".into(),
                input: json!({}),
                at: 0,
            },
            settled("entry:"),
            RunEvent::EdgeTaken {
                edge_id: "e1".into(),
                handle: "always".into(),
                from: "entry:".into(),
                to: a.clone(),
                at: 0,
            },
            settled(&a.key()),
            RunEvent::EdgeTaken {
                edge_id: "edge-two".into(),
                handle: "always".into(),
                from: a.key(),
                to: b.clone(),
                at: 0,
            },
            RunEvent::NodeEntered {
                frame: join.clone(),
                parents: vec![b.key()],
                idempotency_key: None,
                at: 0,
            },
            RunEvent::NodeEntered {
                frame: stray.clone(),
                parents: vec!["gone:e2:e0".into()],
                idempotency_key: None,
                at: 0,
            },
        ]);
        let keys: Vec<(String, String)> = state
            .frames()
            .iter()
            .map(|record| (record.key.to_string(), record.frame.key()))
            .collect();
        assert_eq!(keys.len(), 5);
        for (copied, built) in &keys {
            assert_eq!(copied, built);
        }
        assert_eq!(keys[2].0, "b:e2:e1e8:edge-two");
        let b_record = state.record(&b.key()).expect("b is known");
        assert_eq!(
            b_record.input.get(&a.key()).expect("a's output").items,
            vec![json!(a.key())]
        );
    }
}
