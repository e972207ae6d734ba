//! The fold: an op log becomes a plan view.
//!
//! The fold is convergent: the same set of ops gives the same view whatever order the ops
//! arrive in and however many times each arrives. It sorts the ops by `(lamport, actorId,
//! opId)` ([`Op::order`]), folds an op delivered more than once (equal in every field) once,
//! and applies them in that order, so the last writer wins per element and per field. Adding is
//! not favoured over removing: a re-add at a higher key beats an earlier remove, and a remove at
//! a higher key beats an earlier add.
//!
//! Nodes and edges keep the order a JavaScript `Map` would give them, because that order is
//! digested: an element keeps the position of its first insertion when it is replaced, and moves
//! to the end when it is removed and added again.
//!
//! What the fold cannot make sense of it reports as issues, never by failing:
//! - `conflicting_op_id` (blocking): two different ops share one op id. Both are applied, the
//!   pair ordered by their canonical encoding, so the view still does not depend on arrival order.
//! - `duplicate_edge_id` (blocking): an `add_edge` replaced a present edge that had the same id
//!   but other endpoints or another handle. The later one is kept; changing an edge is written
//!   as `remove_edge` followed by `add_edge`.
//! - `value_too_deep` (blocking): a `set_node_field` would nest its value deeper than
//!   [`MAX_WIRE_DEPTH`]; the op is not applied.
//! - `dangling_edge` (advisory): an edge whose endpoint is not in the plan is dropped.
//! - `unknown_node` (advisory): a `set_node_*` op names a node the final plan does not have.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::BTreeMap;

// foldhash, seeded per process, rather than SipHash: the fold hashes an id or two for every op,
// and SipHash was a tenth of its time.
use foldhash::{HashMap, HashMapExt, HashSet};

use crate::digest::encode_op;
use crate::model::{DEFAULT_PLAN_BOUNDS, Edge, Node, PlanIssue, PlanView, Provenance};
use crate::ops::{Change, Op};
use crate::value::{MAX_WIRE_DEPTH, StagedValue};

/// A folded plan: the view, and what the fold had to report about the ops.
#[derive(Clone, Debug, PartialEq)]
pub struct Folded {
    /// The plan as the ops leave it.
    pub view: PlanView,
    /// What the fold found wrong with the ops, in a deterministic order.
    pub issues: Vec<PlanIssue>,
}

/// Folds an op log into the view of plan `plan_id` (see the module documentation). An empty log
/// gives [`PlanView::empty`]: no nodes, no edges, [`DEFAULT_PLAN_BOUNDS`]. The caller's ops are
/// only read.
pub fn fold(plan_id: &str, ops: &[Op], provenance: Option<Provenance>) -> Folded {
    let mut issues = Vec::new();
    let ordered = distinct_in_order(ops, &mut issues);
    // Nodes are borrowed from the ops until an op edits them, and edges are never edited, so
    // the fold copies a node once at most and an edge only into the view.
    let mut nodes: Table<'_, Cow<'_, Node>> = Table::default();
    let mut edges: Table<'_, &Edge> = Table::default();
    // For each present edge, the different edges with its id that it replaced since it was
    // last added fresh.
    let mut displaced: HashMap<&str, Vec<&Edge>> = HashMap::new();
    let mut bounds = DEFAULT_PLAN_BOUNDS;
    // The nodes the `set_node_*` ops edit, each with the first op's name, in fold order.
    let mut targeted: Vec<(&str, &'static str)> = Vec::new();
    for op in &ordered {
        match &op.change {
            Change::AddNode(node) => {
                nodes.insert(&node.id, Cow::Borrowed(node));
            }
            Change::RemoveNode {
                node_id,
                incident_edge_ids,
            } => {
                nodes.remove(node_id);
                for edge_id in incident_edge_ids {
                    edges.remove(edge_id);
                    if !displaced.is_empty() {
                        displaced.remove(edge_id.as_str());
                    }
                }
            }
            Change::SetNodeField { node_id, path, value } => {
                let Some(node) = nodes.edit(node_id, &mut targeted, op.change.name()) else {
                    continue;
                };
                let depth = path.split('.').count() - 1 + height(value);
                if depth > MAX_WIRE_DEPTH {
                    issues.push(
                        PlanIssue::blocking(
                            "value_too_deep",
                            format!(
                                "op \"{}\" sets {node_id}.{path} to a value that would nest {depth} levels deep, more \
                                 than the {MAX_WIRE_DEPTH} a plan allows; it was not applied. Use a shorter path or a \
                                 flatter value.",
                                op.op_id
                            ),
                        )
                        .on_node(node_id.clone()),
                    );
                    continue;
                }
                set_path(&mut node.to_mut().definition, path, value.clone());
            }
            Change::SetNodeDefinition { node_id, definition } => {
                if let Some(node) = nodes.edit(node_id, &mut targeted, op.change.name()) {
                    node.to_mut().definition = definition.clone();
                }
            }
            Change::SetNodePhase { node_id, phase } => {
                if let Some(node) = nodes.edit(node_id, &mut targeted, op.change.name()) {
                    node.to_mut().phase = phase.clone();
                }
            }
            Change::AddEdge(edge) => match edges.insert(&edge.id, edge) {
                Some(old) if !same_link(old, edge) => {
                    let earlier = displaced.entry(&edge.id).or_default();
                    if !earlier.iter().any(|e| same_link(e, old)) {
                        earlier.push(old);
                    }
                }
                Some(_) => {}
                None => {
                    if !displaced.is_empty() {
                        displaced.remove(edge.id.as_str());
                    }
                }
            },
            Change::RemoveEdge { edge_id } => {
                edges.remove(edge_id);
                if !displaced.is_empty() {
                    displaced.remove(edge_id.as_str());
                }
            }
            Change::SetBounds(new_bounds) => bounds = *new_bounds,
        }
    }

    let nodes: Vec<Node> = nodes.into_values().map(Cow::into_owned).collect();
    let present: HashSet<&str> = nodes.iter().map(|node| node.id.as_str()).collect();
    let mut kept_edges = Vec::new();
    let mut dangling = Vec::new();
    for edge in edges.into_values() {
        let missing = [&edge.from, &edge.to]
            .into_iter()
            .find(|id| !present.contains(id.as_str()))
            .cloned();
        match missing {
            Some(missing) => dangling.push(
                PlanIssue::advisory(
                    "dangling_edge",
                    format!(
                        "edge \"{}\" ({}) leads {} node \"{missing}\", which the plan does not have, so it was \
                         dropped; add the node, or remove the edge",
                        edge.id,
                        describe(edge),
                        if missing == edge.from { "from" } else { "to" },
                    ),
                )
                .on_edge(edge.id.clone()),
            ),
            None => kept_edges.push(edge),
        }
    }
    for edge in &kept_edges {
        let Some(earlier) = displaced.get(edge.id.as_str()) else {
            continue;
        };
        let others: Vec<String> = earlier
            .iter()
            .filter(|e| !same_link(e, edge))
            .map(|e| describe(e))
            .collect();
        if others.is_empty() {
            continue;
        }
        issues.push(
            PlanIssue::blocking(
                "duplicate_edge_id",
                format!(
                    "edge id \"{}\" is used by different edges: {} and {}; the last written ({}) was kept. Give \
                     each edge its own id; to change an edge, remove_edge it before adding the new one",
                    edge.id,
                    others.join(", "),
                    describe(edge),
                    describe(edge),
                ),
            )
            .on_edge(edge.id.clone()),
        );
    }
    issues.extend(dangling);
    for (node_id, op_name) in targeted {
        if !present.contains(node_id) {
            issues.push(
                PlanIssue::advisory(
                    "unknown_node",
                    format!(
                        "a {op_name} op edits node \"{node_id}\", which the plan does not have (it was never added, \
                         or it was removed), so the edit has no effect; add the node first, or drop the edit"
                    ),
                )
                .on_node(node_id),
            );
        }
    }

    Folded {
        view: PlanView {
            plan_id: plan_id.to_owned(),
            revision: ordered.len() as u64,
            nodes,
            edges: kept_edges.into_iter().cloned().collect(),
            bounds,
            provenance,
        },
        issues,
    }
}

/// The distinct ops in fold order. Ops equal in every field are one op; different ops that
/// share an op id are all kept (ordered by their canonical encoding) and reported.
fn distinct_in_order<'o>(ops: &'o [Op], issues: &mut Vec<PlanIssue>) -> Vec<&'o Op> {
    fn compare(a: &Op, b: &Op) -> Ordering {
        a.order(b).then_with(|| {
            if a == b {
                Ordering::Equal
            } else {
                encode_op(a).cmp(&encode_op(b))
            }
        })
    }
    // Sorted by lamport first, with the lamport beside each reference so that this sort reads
    // no op; only ops that share a lamport are then compared in full, which reads their ids.
    let mut keyed: Vec<(u64, &Op)> = ops.iter().map(|op| (op.lamport, op)).collect();
    keyed.sort_unstable_by_key(|&(lamport, _)| lamport);
    for run in keyed.chunk_by_mut(|a, b| a.0 == b.0) {
        // Unstable is enough: ops that compare equal are equal in every field.
        run.sort_unstable_by(|(_, a), (_, b)| compare(a, b));
    }
    keyed.dedup_by(|(later_lamport, later), (earlier_lamport, earlier)| {
        later_lamport == earlier_lamport && compare(earlier, later) == Ordering::Equal
    });
    let ordered: Vec<&Op> = keyed.into_iter().map(|(_, op)| op).collect();

    let mut by_id: HashMap<&str, usize> = HashMap::with_capacity(ordered.len());
    let mut conflicts: Vec<Vec<&Op>> = Vec::new();
    let mut conflict_of: HashMap<&str, usize> = HashMap::new();
    for (index, op) in ordered.iter().enumerate() {
        let Some(&first) = by_id.get(op.op_id.as_str()) else {
            by_id.insert(&op.op_id, index);
            continue;
        };
        let group = *conflict_of.entry(&op.op_id).or_insert_with(|| {
            conflicts.push(vec![ordered[first]]);
            conflicts.len() - 1
        });
        conflicts[group].push(op);
    }
    for group in conflicts {
        let described: Vec<String> = group
            .iter()
            .map(|op| format!("{} by \"{}\" at lamport {}", op.change.name(), op.actor_id, op.lamport))
            .collect();
        issues.push(PlanIssue::blocking(
            "conflicting_op_id",
            format!(
                "op id \"{}\" names {} different ops ({}); an op id is unique per edit, so give each of these edits \
                 its own op id",
                group[0].op_id,
                group.len(),
                described.join("; ")
            ),
        ));
    }
    ordered
}

/// Whether two edges link the same nodes on the same handle.
fn same_link(a: &Edge, b: &Edge) -> bool {
    a.from == b.from && a.to == b.to && a.handle == b.handle
}

fn describe(edge: &Edge) -> String {
    format!("{}→{} ({})", edge.from, edge.to, edge.handle)
}

/// How many levels of arrays, objects, maps and sets a value nests below itself.
fn height(value: &StagedValue) -> usize {
    if !matches!(
        value,
        StagedValue::Array(_) | StagedValue::Set(_) | StagedValue::Object(_) | StagedValue::Map(_)
    ) {
        return 0;
    }
    let mut deepest = 0;
    let mut stack = vec![(value, 0usize)];
    while let Some((value, depth)) = stack.pop() {
        deepest = deepest.max(depth);
        match value {
            StagedValue::Array(items) | StagedValue::Set(items) => {
                stack.extend(items.iter().map(|item| (item, depth + 1)));
            }
            StagedValue::Object(fields) => stack.extend(fields.values().map(|item| (item, depth + 1))),
            StagedValue::Map(entries) => {
                for (key, value) in entries {
                    stack.push((key, depth + 1));
                    stack.push((value, depth + 1));
                }
            }
            _ => {}
        }
    }
    deepest
}

/// Sets the field at a dot path of a definition. Each intermediate that is missing or is not a
/// plain object becomes an empty object, as in the original (an array is not an object here:
/// `args.0` names a key `"0"`, never an index).
fn set_path(definition: &mut BTreeMap<String, StagedValue>, path: &str, value: StagedValue) {
    let (parents, last) = match path.rsplit_once('.') {
        Some((parents, last)) => (Some(parents), last),
        None => (None, path),
    };
    let mut fields = definition;
    for segment in parents.into_iter().flat_map(|parents| parents.split('.')) {
        if !fields.contains_key(segment) {
            fields.insert(segment.to_owned(), StagedValue::Null);
        }
        let Some(slot) = fields.get_mut(segment) else {
            unreachable!("the key was inserted just above")
        };
        if !matches!(slot, StagedValue::Object(_)) {
            *slot = StagedValue::Object(BTreeMap::new());
        }
        let StagedValue::Object(inner) = slot else {
            unreachable!("the slot was made an object just above")
        };
        fields = inner;
    }
    // Replacing a field in place keeps its key, so the common edit allocates no key.
    match fields.get_mut(last) {
        Some(slot) => *slot = value,
        None => {
            fields.insert(last.to_owned(), value);
        }
    }
}

/// Elements by id in the order a JavaScript `Map` keeps them: replacing keeps the first
/// insertion's place; removing and adding again moves to the end.
///
/// Ids are borrowed from the ops, and an id keeps its entry when its element is removed, so
/// that each op hashes its id once, whether it adds, removes or edits.
struct Table<'o, T> {
    slots: Vec<Option<T>>,
    index: HashMap<&'o str, Place>,
}

/// Where an id's element is, and whether a `set_node_*` op named the id.
#[derive(Clone, Copy)]
struct Place {
    /// The element's slot, `None` while it is removed (or was never added).
    slot: Option<usize>,
    edited: bool,
}

impl<T> Default for Table<'_, T> {
    fn default() -> Self {
        Table {
            slots: Vec::new(),
            index: HashMap::new(),
        }
    }
}

impl<'o, T> Table<'o, T> {
    /// Inserts or replaces; returns the element replaced.
    fn insert(&mut self, id: &'o str, value: T) -> Option<T> {
        let place = self.index.entry(id).or_insert(Place {
            slot: None,
            edited: false,
        });
        match place.slot {
            Some(slot) => self.slots[slot].replace(value),
            None => {
                place.slot = Some(self.slots.len());
                self.slots.push(Some(value));
                None
            }
        }
    }

    fn remove(&mut self, id: &str) -> Option<T> {
        let slot = self.index.get_mut(id)?.slot.take()?;
        self.slots[slot].take()
    }

    /// The element to edit, if present; the first edit of an id, present or not, is recorded
    /// in `edited` with the op's name.
    fn edit(
        &mut self,
        id: &'o str,
        edited: &mut Vec<(&'o str, &'static str)>,
        op_name: &'static str,
    ) -> Option<&mut T> {
        let place = self.index.entry(id).or_insert(Place {
            slot: None,
            edited: false,
        });
        if !place.edited {
            place.edited = true;
            edited.push((id, op_name));
        }
        self.slots[place.slot?].as_mut()
    }

    fn into_values(self) -> impl Iterator<Item = T> {
        self.slots.into_iter().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Handle, Severity};
    use serde_json::{Value as Json, json};

    /// An op from its wire form, with the usual envelope.
    fn op(id: &str, actor: &str, lamport: u64, body: Json) -> Op {
        let mut json = json!({"opId": id, "actorId": actor, "lamport": lamport, "at": ""});
        json.as_object_mut().unwrap().extend(body.as_object().unwrap().clone());
        Op::from_wire(&json).unwrap_or_else(|e| panic!("{json}: {e}"))
    }

    fn add_node(id: &str, actor: &str, lamport: u64, node: &str) -> Op {
        op(
            id,
            actor,
            lamport,
            json!({"op": "add_node", "node": {"id": node, "kind": "call", "definition": {}}}),
        )
    }

    fn add_edge(id: &str, lamport: u64, edge: &str, from: &str, to: &str) -> Op {
        op(
            id,
            "ann",
            lamport,
            json!({"op": "add_edge", "edge": {"id": edge, "from": from, "to": to, "handle": "always"}}),
        )
    }

    fn ids(view: &PlanView) -> (Vec<&str>, Vec<&str>) {
        (
            view.nodes.iter().map(|n| n.id.as_str()).collect(),
            view.edges.iter().map(|e| e.id.as_str()).collect(),
        )
    }

    fn codes(folded: &Folded) -> Vec<(&'static str, Severity)> {
        folded.issues.iter().map(|i| (i.code, i.severity)).collect()
    }

    #[test]
    fn an_empty_log_is_the_empty_view() {
        let folded = fold("p", &[], None);
        assert_eq!(folded.view, PlanView::empty("p"));
        assert!(folded.issues.is_empty());
    }

    #[test]
    fn the_order_is_lamport_then_actor_then_op_id() {
        let ops = [
            op(
                "o2",
                "ann",
                1,
                json!({"op": "set_node_phase", "nodeId": "a", "phase": "two"}),
            ),
            op(
                "o1",
                "ann",
                1,
                json!({"op": "set_node_phase", "nodeId": "a", "phase": "one"}),
            ),
            op(
                "o0",
                "bob",
                1,
                json!({"op": "set_node_phase", "nodeId": "a", "phase": "bob"}),
            ),
            add_node("o9", "zed", 0, "a"),
        ];
        let folded = fold("p", &ops, None);
        assert_eq!(folded.view.nodes[0].phase.as_deref(), Some("bob"));
        let mut reversed = ops.clone();
        reversed.reverse();
        assert_eq!(fold("p", &reversed, None), folded);
    }

    #[test]
    fn a_duplicated_op_is_folded_and_counted_once() {
        let ops = [add_node("o1", "ann", 1, "a"), add_node("o2", "ann", 2, "b")];
        let twice = [ops[0].clone(), ops[1].clone(), ops[0].clone(), ops[0].clone()];
        let once = fold("p", &ops, None);
        assert_eq!(once.view.revision, 2);
        assert_eq!(fold("p", &twice, None), once);
    }

    #[test]
    fn last_writer_wins_per_element_not_add_wins() {
        let removed = [
            add_node("o1", "ann", 1, "a"),
            op(
                "o2",
                "bob",
                2,
                json!({"op": "remove_node", "nodeId": "a", "incidentEdgeIds": []}),
            ),
        ];
        assert!(fold("p", &removed, None).view.nodes.is_empty());
        let re_added = [removed[0].clone(), removed[1].clone(), add_node("o3", "ann", 3, "a")];
        assert_eq!(ids(&fold("p", &re_added, None).view).0, ["a"]);
    }

    #[test]
    fn remove_node_cascades_through_its_recorded_edges() {
        let ops = [
            add_node("o1", "ann", 1, "a"),
            add_node("o2", "ann", 2, "b"),
            add_edge("o3", 3, "e1", "a", "b"),
            // Recorded by an author who saw e1; the cascade does not depend on the fold's state.
            op(
                "o4",
                "ann",
                4,
                json!({"op": "remove_node", "nodeId": "b", "incidentEdgeIds": ["e1"]}),
            ),
            add_node("o5", "ann", 5, "b"),
        ];
        let folded = fold("p", &ops, None);
        assert_eq!(ids(&folded.view), (vec!["a", "b"], vec![]));
        assert!(folded.issues.is_empty(), "{:?}", folded.issues);
    }

    #[test]
    fn set_node_field_builds_its_path() {
        let ops = [
            add_node("o1", "ann", 1, "a"),
            op(
                "o2",
                "ann",
                2,
                json!({"op": "set_node_field", "nodeId": "a", "path": "args", "value": [1]}),
            ),
            op(
                "o3",
                "ann",
                3,
                json!({"op": "set_node_field", "nodeId": "a", "path": "args.dir.name", "value": "q3"}),
            ),
            op(
                "o4",
                "ann",
                4,
                json!({"op": "set_node_field", "nodeId": "a", "path": "tool", "value": "ls"}),
            ),
        ];
        let folded = fold("p", &ops, None);
        assert_eq!(
            folded.view.nodes[0].to_wire()["definition"],
            json!({"args": {"dir": {"name": "q3"}}, "tool": "ls"})
        );
        // The caller's ops are untouched: a prefix still folds to what it said.
        let prefix = fold("p", &ops[..2], None);
        assert_eq!(prefix.view.nodes[0].to_wire()["definition"], json!({"args": [1]}));
    }

    #[test]
    fn definition_and_phase_ops() {
        let ops = [
            add_node("o1", "ann", 1, "a"),
            op(
                "o2",
                "ann",
                2,
                json!({"op": "set_node_phase", "nodeId": "a", "phase": "gather"}),
            ),
            op(
                "o3",
                "ann",
                3,
                json!({"op": "set_node_definition", "nodeId": "a", "definition": {"tool": "x"}}),
            ),
            op(
                "o4",
                "ann",
                4,
                json!({"op": "set_node_phase", "nodeId": "a", "phase": null}),
            ),
            op("o5", "ann", 5, json!({"op": "set_bounds", "bounds": {"maxSteps": 9}})),
        ];
        let view = fold("p", &ops, None).view;
        assert_eq!(view.nodes[0].phase, None);
        assert_eq!(view.nodes[0].to_wire()["definition"], json!({"tool": "x"}));
        assert_eq!(view.bounds.max_steps, 9);
        assert_eq!(view.bounds.max_nodes, DEFAULT_PLAN_BOUNDS.max_nodes);
    }

    #[test]
    fn order_is_the_order_of_a_javascript_map() {
        let ops = [
            add_node("o1", "ann", 1, "a"),
            add_node("o2", "ann", 2, "b"),
            add_node("o3", "ann", 3, "c"),
            add_node("o4", "ann", 4, "a"),
            op(
                "o5",
                "ann",
                5,
                json!({"op": "remove_node", "nodeId": "b", "incidentEdgeIds": []}),
            ),
            add_node("o6", "ann", 6, "b"),
            add_edge("o7", 7, "x", "a", "b"),
            add_edge("o8", 8, "y", "a", "c"),
            op("o9", "ann", 9, json!({"op": "remove_edge", "edgeId": "x"})),
            add_edge("o10", 10, "x", "a", "b"),
            add_edge("o11", 11, "y", "a", "c"),
        ];
        assert_eq!(ids(&fold("p", &ops, None).view), (vec!["a", "c", "b"], vec!["y", "x"]));
    }

    #[test]
    fn a_dangling_edge_is_dropped_and_named() {
        let ops = [
            add_node("o1", "ann", 1, "a"),
            add_node("o2", "ann", 2, "b"),
            add_edge("o3", 3, "e1", "a", "b"),
            add_edge("o4", 4, "e2", "a", "ghost"),
            op(
                "o5",
                "ann",
                5,
                json!({"op": "remove_node", "nodeId": "b", "incidentEdgeIds": []}),
            ),
        ];
        let folded = fold("p", &ops, None);
        assert!(folded.view.edges.is_empty());
        assert_eq!(
            codes(&folded),
            [
                ("dangling_edge", Severity::Advisory),
                ("dangling_edge", Severity::Advisory)
            ]
        );
        assert_eq!(folded.issues[1].edge_id.as_deref(), Some("e2"));
        assert!(folded.issues[1].message.contains("\"ghost\""), "{}", folded.issues[1]);
    }

    #[test]
    fn an_edit_of_a_missing_node_is_ignored_and_named() {
        let ops = [
            op(
                "o1",
                "ann",
                1,
                json!({"op": "set_node_field", "nodeId": "ghost", "path": "tool", "value": "x"}),
            ),
            op(
                "o2",
                "ann",
                2,
                json!({"op": "set_node_phase", "nodeId": "ghost", "phase": "p"}),
            ),
        ];
        let folded = fold("p", &ops, None);
        assert!(folded.view.nodes.is_empty());
        assert_eq!(codes(&folded), [("unknown_node", Severity::Advisory)]);
        assert_eq!(folded.issues[0].node_id.as_deref(), Some("ghost"));
    }

    #[test]
    fn one_edge_id_for_two_edges_blocks() {
        let base = [
            add_node("o1", "ann", 1, "n1"),
            add_node("o2", "ann", 2, "n2"),
            add_node("o3", "ann", 3, "n3"),
        ];
        let mut ops = base.to_vec();
        ops.push(add_edge("o4", 4, "dup", "n1", "n2"));
        ops.push(op(
            "o5",
            "bob",
            4,
            json!({"op": "add_edge", "edge": {"id": "dup", "from": "n1", "to": "n3", "handle": "always"}}),
        ));
        let folded = fold("p", &ops, None);
        assert_eq!(folded.view.edges[0].to, "n3");
        assert_eq!(codes(&folded), [("duplicate_edge_id", Severity::Blocking)]);
        let message = &folded.issues[0].message;
        assert!(
            message.contains("n1→n2 (always)") && message.contains("n1→n3 (always)"),
            "{message}"
        );
        // Re-adding the same edge, or changing it by removing it first, is not a collision.
        let mut ops = base.to_vec();
        ops.push(add_edge("o4", 4, "e", "n1", "n2"));
        ops.push(add_edge("o5", 5, "e", "n1", "n2"));
        ops.push(op("o6", "ann", 6, json!({"op": "remove_edge", "edgeId": "e"})));
        ops.push(add_edge("o7", 7, "e", "n1", "n3"));
        let folded = fold("p", &ops, None);
        assert!(folded.issues.is_empty(), "{:?}", folded.issues);
        assert_eq!(folded.view.edges[0].handle, Handle::Always);
    }

    #[test]
    fn two_ops_with_one_id_block_and_fold_alike_in_any_order() {
        let a = add_node("same", "ann", 1, "a");
        let b = add_node("same", "ann", 1, "b");
        let ab = fold("p", &[a.clone(), b.clone()], None);
        let ba = fold("p", &[b, a.clone(), a], None);
        assert_eq!(ab, ba);
        assert_eq!(ab.view.revision, 2);
        assert_eq!(codes(&ab), [("conflicting_op_id", Severity::Blocking)]);
    }

    #[test]
    fn a_path_too_deep_is_not_applied() {
        let path = vec!["a"; MAX_WIRE_DEPTH + 2].join(".");
        let ops = [
            add_node("o1", "ann", 1, "n"),
            op(
                "o2",
                "ann",
                2,
                json!({"op": "set_node_field", "nodeId": "n", "path": path, "value": 1}),
            ),
        ];
        let folded = fold("p", &ops, None);
        assert!(folded.view.nodes[0].definition.is_empty());
        assert_eq!(codes(&folded), [("value_too_deep", Severity::Blocking)]);
    }
}
