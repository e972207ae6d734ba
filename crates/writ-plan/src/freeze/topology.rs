//! The checks on the plan's shape: its entry, ids, edges and handles, cycles, reachability and
//! joins.

use std::collections::{HashMap, HashSet};

use crate::freeze::{listed, nearest, quoted};
use crate::graph::{Graph, ROUTE_CAP, Routes};
use crate::model::{Edge, Handle, NodeKind, PlanIssue, PlanView};
use crate::value::StagedValue;

/// `no_entry`, `multiple_entries`, `entry_has_incoming`.
pub(super) fn entry(graph: &Graph<'_>, issues: &mut Vec<PlanIssue>) {
    let entries = graph.entries();
    match entries.len() {
        0 => issues.push(PlanIssue::blocking(
            "no_entry",
            "The plan has no entry node, so no run can start. Add one node of kind \"entry\" that declares the \
             run's input fields (\"input\": [{\"path\": …, \"type\": …}]) and an edge from it to the first step.",
        )),
        1 => {}
        n => issues.push(PlanIssue::blocking(
            "multiple_entries",
            format!(
                "The plan has {n} entry nodes ({}); a run starts at exactly one. Keep one entry, declare all the \
                 run's input fields on it, and remove the others or change their kind.",
                quoted(&entries)
            ),
        )),
    }
    let mut seen = HashSet::new();
    for entry in entries {
        if !seen.insert(entry) {
            continue;
        }
        let incoming = graph.incoming(entry);
        if !incoming.is_empty() {
            issues.push(
                PlanIssue::blocking(
                    "entry_has_incoming",
                    format!(
                        "Entry node \"{entry}\" has incoming edges ({}); a run starts at the entry, so nothing may lead \
                         into it. Remove these edges, or point them at another node.",
                        incoming
                            .iter()
                            .map(|edge| format!("\"{}\" from \"{}\"", edge.id, edge.from))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
                .on_node(entry),
            );
        }
    }
}

/// Whether `id` is a node id: `^[a-z0-9_]+$`. Ids are cited verbatim by models and people, so
/// none may look like a path.
pub(crate) fn valid_node_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// Whether `id` is an edge id: `^[A-Za-z0-9_-]{1,64}$`. Branch keys are built from edge ids,
/// so none may carry the characters they are built with.
pub(crate) fn valid_edge_id(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// An id rewritten into the allowed alphabet, for a message's suggestion.
fn suggest_id(id: &str, keep: impl Fn(char) -> bool, max: usize) -> String {
    let mut out: String = id
        .chars()
        .map(|c| c.to_ascii_lowercase())
        .map(|c| if keep(c) { c } else { '_' })
        .take(max)
        .collect();
    if out.is_empty() {
        out.push_str("step");
    }
    out
}

/// `duplicate_node_id`, `invalid_node_id`, `invalid_edge_id`, `duplicate_edge_id`.
pub(super) fn ids(view: &PlanView, issues: &mut Vec<PlanIssue>) {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for node in &view.nodes {
        let count = seen.entry(node.id.as_str()).or_default();
        *count += 1;
        if *count == 2 {
            issues.push(
                PlanIssue::blocking(
                    "duplicate_node_id",
                    format!(
                        "More than one node has the id \"{}\"; an id names one node (edges and references find nodes \
                         by it). Rename all but one.",
                        node.id
                    ),
                )
                .on_node(&node.id),
            );
        }
    }
    for node in &view.nodes {
        if !valid_node_id(&node.id) {
            let suggestion = suggest_id(
                &node.id,
                |c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_',
                64,
            );
            issues.push(
                PlanIssue::blocking(
                    "invalid_node_id",
                    format!(
                        "Node id \"{}\" is not a node id: ids use lowercase letters, digits and \"_\" only, so none can \
                         be mistaken for a path. Rename it, e.g. \"{suggestion}\".",
                        node.id
                    ),
                )
                .on_node(&node.id),
            );
        }
    }
    let mut edges_by_id: HashMap<&str, Vec<&Edge>> = HashMap::new();
    for edge in &view.edges {
        edges_by_id.entry(edge.id.as_str()).or_default().push(edge);
    }
    let mut reported = HashSet::new();
    for edge in &view.edges {
        if !valid_edge_id(&edge.id) {
            let suggestion = suggest_id(&edge.id, |c| c.is_ascii_alphanumeric() || c == '_' || c == '-', 64);
            issues.push(
                PlanIssue::blocking(
                    "invalid_edge_id",
                    format!(
                        "Edge id \"{}\" is not an edge id: ids are 1 to 64 letters, digits, \"_\" or \"-\" (branch ids \
                         are built from them). Rename it, e.g. \"{suggestion}\".",
                        edge.id
                    ),
                )
                .on_edge(&edge.id),
            );
        }
        let same = &edges_by_id[edge.id.as_str()];
        if same.len() > 1 && reported.insert(edge.id.as_str()) {
            issues.push(
                PlanIssue::blocking(
                    "duplicate_edge_id",
                    format!(
                        "Edge id \"{}\" is used by {} edges ({}); an id names one edge (branch ids name routes by \
                         their edges). Rename all but one.",
                        edge.id,
                        same.len(),
                        same.iter()
                            .map(|edge| format!("{} → {} on {}", edge.from, edge.to, edge.handle))
                            .collect::<Vec<_>>()
                            .join("; ")
                    ),
                )
                .on_edge(&edge.id),
            );
        }
    }
}

/// The handles a node kind's edges may use, for messages.
fn handles_of(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Entry => "\"always\"",
        NodeKind::Call | NodeKind::Reason | NodeKind::Join => "\"always\" or \"error\"",
        NodeKind::Branch => "\"match\", \"no_match\", \"default\" or \"error\"",
        NodeKind::Select => "\"case_<label>\" for each of its cases, \"default\" or \"error\"",
    }
}

fn handle_applies(kind: NodeKind, handle: &Handle) -> bool {
    match handle {
        Handle::Always => matches!(
            kind,
            NodeKind::Entry | NodeKind::Call | NodeKind::Reason | NodeKind::Join
        ),
        Handle::Error => kind != NodeKind::Entry,
        Handle::Match | Handle::NoMatch => kind == NodeKind::Branch,
        Handle::Default => matches!(kind, NodeKind::Branch | NodeKind::Select),
        Handle::Case(_) => kind == NodeKind::Select,
        Handle::Unknown(_) => false,
    }
}

/// A select's case labels, read leniently (a malformed list is a definition issue).
pub(crate) fn select_cases(definition: &std::collections::BTreeMap<String, StagedValue>) -> Vec<&str> {
    match definition.get("cases") {
        Some(StagedValue::Array(items)) => items
            .iter()
            .filter_map(|item| match item {
                StagedValue::String(label) => Some(label.as_str()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// `dangling_edge`, `invalid_handle`, `unknown_case`, `select_missing_default`.
pub(super) fn edges(view: &PlanView, graph: &Graph<'_>, issues: &mut Vec<PlanIssue>) {
    let node_ids = || view.nodes.iter().map(|node| node.id.as_str());
    for edge in &view.edges {
        for (end, id) in [("leaves", &edge.from), ("arrives at", &edge.to)] {
            if graph.node(id).is_none() {
                issues.push(
                    PlanIssue::blocking(
                        "dangling_edge",
                        format!(
                            "Edge \"{}\" {end} \"{id}\", which is not a node of the plan. Point it at an existing \
                             node (nearest: {}) or remove it.",
                            edge.id,
                            quoted(nearest(id, node_ids(), 3))
                        ),
                    )
                    .on_edge(&edge.id),
                );
            }
        }
        let Some(source) = graph.node(&edge.from) else { continue };
        if let Handle::Unknown(name) = &edge.handle {
            issues.push(
                PlanIssue::blocking(
                    "invalid_handle",
                    format!(
                        "Edge \"{}\" has the handle \"{name}\", which is not a handle. It leaves the {} node \"{}\", \
                         whose edges use {}.",
                        edge.id,
                        source.kind,
                        source.id,
                        handles_of(source.kind)
                    ),
                )
                .on_edge(&edge.id),
            );
        } else if !handle_applies(source.kind, &edge.handle) {
            issues.push(
                PlanIssue::blocking(
                    "invalid_handle",
                    format!(
                        "Edge \"{}\" leaves the {} node \"{}\" on \"{}\", which a {} node does not have; its edges use \
                         {}.",
                        edge.id,
                        source.kind,
                        source.id,
                        edge.handle,
                        source.kind,
                        handles_of(source.kind)
                    ),
                )
                .on_edge(&edge.id),
            );
        } else if let Handle::Case(label) = &edge.handle {
            let cases = select_cases(&source.definition);
            if !cases.contains(&label.as_str()) {
                let suggestion = match nearest(label, cases.iter().copied(), 1).first() {
                    Some(case) => format!("Write \"case_{case}\" if that is the case meant, or add"),
                    None => "Add".to_string(),
                };
                issues.push(
                    PlanIssue::blocking(
                        "unknown_case",
                        format!(
                            "Edge \"{}\" leaves select \"{}\" on \"case_{label}\", but \"{label}\" is not one of its \
                             cases ({}), so the edge is never taken. {suggestion} \"{label}\" to the select's \
                             \"cases\".",
                            edge.id,
                            source.id,
                            if cases.is_empty() {
                                "it declares none".to_string()
                            } else {
                                quoted(&cases)
                            }
                        ),
                    )
                    .on_edge(&edge.id),
                );
            }
        }
    }
    for node in &view.nodes {
        if node.kind == NodeKind::Select && !graph.outgoing(&node.id).iter().any(|e| e.handle == Handle::Default) {
            issues.push(
                PlanIssue::blocking(
                    "select_missing_default",
                    format!(
                        "Select node \"{}\" has no \"default\" edge; the run takes it when no case holds or the \
                         predicate faults. Add an edge {{\"from\": \"{}\", \"to\": …, \"handle\": \"default\"}}.",
                        node.id, node.id
                    ),
                )
                .on_node(&node.id),
            );
        }
    }
}

/// `cycle`, `unreachable_node`, and the join checks: `join_no_fork`, `join_not_diamond`,
/// `nested_join`, `join_reconvergence`.
pub(super) fn shape(
    view: &PlanView,
    graph: &Graph<'_>,
    entry: Option<&str>,
    routes: Option<&Routes<'_, '_>>,
    issues: &mut Vec<PlanIssue>,
) {
    for edge in graph.back_edges() {
        issues.push(
            PlanIssue::blocking(
                "cycle",
                format!(
                    "Edge \"{}\" ({} → {} on {}) closes a cycle: \"{}\" already leads back to \"{}\", and a run never \
                     enters a step twice on one route. Remove the edge or point it at a step that does not lead back; \
                     an error or default edge back to an earlier step is a cycle too.",
                    edge.id, edge.from, edge.to, edge.handle, edge.to, edge.from
                ),
            )
            .on_edge(&edge.id),
        );
    }
    let Some(entry) = entry else { return };
    let reachable = graph.reachable_from(entry);
    let mut reported = HashSet::new();
    for node in &view.nodes {
        if node.id != entry && !reachable.contains(node.id.as_str()) && reported.insert(node.id.as_str()) {
            issues.push(
                PlanIssue::blocking(
                    "unreachable_node",
                    format!(
                        "Node \"{}\" is not reachable from the entry \"{entry}\": no edge leads to it from a step that \
                         runs, so it never runs. Add an edge to it from the step it should follow, or remove it.",
                        node.id
                    ),
                )
                .on_node(&node.id),
            );
        }
    }
    let Some(routes) = routes else { return };
    let mut seen = HashSet::new();
    for join in view.nodes.iter().filter(|node| node.kind == NodeKind::Join) {
        if !seen.insert(join.id.as_str()) {
            continue;
        }
        let Some(fork) = routes.immediate_dominator(&join.id) else {
            issues.push(
                PlanIssue::blocking(
                    "join_no_fork",
                    format!(
                        "Join \"{}\" has no fork: the entry does not reach it. A join merges the routes that leave \
                         one earlier step (its fork); connect both routes from that step to the join, or remove it.",
                        join.id
                    ),
                )
                .on_node(&join.id),
            );
            continue;
        };
        let count = routes.count_routes(fork, &join.id, ROUTE_CAP);
        if count <= 1 {
            let before = graph.incoming(&join.id).first().map_or(fork, |edge| edge.from.as_str());
            issues.push(
                PlanIssue::blocking(
                    "join_not_diamond",
                    format!(
                        "Join \"{}\" has only one route from its fork \"{fork}\" (the last step every route to it \
                         passes), so there is nothing to merge. Remove the join and connect \"{before}\" straight to \
                         what follows it, or add a second route from \"{fork}\" to the join.",
                        join.id
                    ),
                )
                .on_node(&join.id),
            );
            continue;
        }
        let region = routes.between(fork, &join.id);
        let (nested, others): (Vec<&str>, Vec<&str>) = region
            .iter()
            .partition(|id| graph.node(id).is_some_and(|node| node.kind == NodeKind::Join));
        if !nested.is_empty() {
            issues.push(
                PlanIssue::blocking(
                    "nested_join",
                    format!(
                        "Join \"{}\" has the join{} {} inside its diamond (between its fork \"{fork}\" and itself); \
                         diamonds do not nest. Close the inner diamond before the outer routes part (fork, routes, \
                         join, then the next fork), or merge all the routes at \"{}\" alone.",
                        join.id,
                        if nested.len() > 1 { "s" } else { "" },
                        listed(&nested),
                        join.id
                    ),
                )
                .on_node(&join.id),
            );
        }
        let meeting: Vec<&str> = others.into_iter().filter(|id| graph.incoming(id).len() > 1).collect();
        if !meeting.is_empty() {
            issues.push(
                PlanIssue::blocking(
                    "join_reconvergence",
                    format!(
                        "Join \"{}\": routes from its fork \"{fork}\" meet again at {} before the join, where each \
                         route would run the step separately and the join would wait for arrivals that never come. \
                         Give each route its own steps up to the join, or make the meeting point the join.",
                        join.id,
                        listed(&meeting)
                    ),
                )
                .on_node(&join.id),
            );
        }
    }
}

/// `unreachable_call`: a call no route from the entry reaches. Its tool never runs, yet its
/// authority would be approved with the plan. Worked out by its own walk over the edge list,
/// apart from [`Graph`]'s, as the original does: a second derivation of the fact that decides
/// which authority is approved.
pub(super) fn unreachable_calls(view: &PlanView, entry: Option<&str>, issues: &mut Vec<PlanIssue>) {
    let Some(entry) = entry else { return };
    let mut by_source: Vec<(&str, &str)> = view
        .edges
        .iter()
        .map(|edge| (edge.from.as_str(), edge.to.as_str()))
        .collect();
    by_source.sort_unstable();
    let mut reached: HashSet<&str> = HashSet::from([entry]);
    let mut frontier = vec![entry];
    while let Some(node) = frontier.pop() {
        let start = by_source.partition_point(|(from, _)| *from < node);
        for &(_, to) in by_source[start..].iter().take_while(|(from, _)| *from == node) {
            if reached.insert(to) {
                frontier.push(to);
            }
        }
    }
    let mut reported = HashSet::new();
    for node in &view.nodes {
        if node.kind == NodeKind::Call && !reached.contains(node.id.as_str()) && reported.insert(node.id.as_str()) {
            issues.push(
                PlanIssue::blocking(
                    "unreachable_call",
                    format!(
                        "Call node \"{}\" can never run: no route from the entry \"{entry}\" reaches it, yet approving \
                         the plan would approve the authority it claims. Connect it after the step it should follow, \
                         or remove it.",
                        node.id
                    ),
                )
                .on_node(&node.id),
            );
        }
    }
}
