//! Freeze: every check a plan must pass before anyone is asked to approve it.
//!
//! [`check`] reads a folded [`PlanView`] and returns every issue at once, in a fixed order,
//! each with a stable code, the node or edge it is about and a message that says what is wrong
//! and what to write instead — written for the model that authored the plan as much as for a
//! person. It changes nothing and does no I/O; the cells it asks to validate predicates answer
//! at once (their futures are driven on the calling thread).
//!
//! # The checks, in the order issues are returned
//!
//! | group | codes (new in writ: *italic*) |
//! |---|---|
//! | entry | `no_entry`, `multiple_entries`, `entry_has_incoming` |
//! | ids | *`duplicate_node_id`*, `invalid_node_id`, `invalid_edge_id`, `duplicate_edge_id` |
//! | edges | *`dangling_edge`*, `invalid_handle`, *`unknown_case`*, `select_missing_default` |
//! | shape | `cycle` (one per edge that closes one), `unreachable_node`, `join_no_fork`, `join_not_diamond`, `nested_join`, `join_reconvergence`, *`too_large_to_check`* |
//! | nodes | *`invalid_definition`*, `unencodable_value`, *`unresolved_param`*, `scaffold_placeholder` |
//! | references | `missing_reference`, `undeclared_field`, *`reference_not_upstream`*, `first_last_across_join`, `ambiguous_reference`, *`unknown_branch_id`* |
//! | taint | `tainted_call_arg`, *`undeclared_declassify`* |
//! | calls | `unknown_tool`, `missing_replay_safe`, `missing_on_indeterminate`, `retry_unsafe_repeat` |
//! | predicates | `unwired_evaluator`, `evaluator_error` |
//! | bounds | *`max_nodes_exceeded`*, *`max_edges_exceeded`*, *`max_encoded_bytes_exceeded`* |
//! | reach | `unreachable_call` |
//!
//! Within a group, issues follow the view's node and edge order. Every issue is blocking.
//!
//! # Where writ differs from the original
//!
//! - Duplicate edge ids are reported (the original's fold hid them), and so are duplicate node
//!   ids and edges whose ends name no node. A folded view has none of these — the document
//!   reader and the fold report them ([`crate::read_document`], [`crate::fold`]) and keep one —
//!   but [`check`] reads any view, however it was built.
//! - A diamond whose fork is the entry is valid.
//! - A `case_<label>` edge must name one of its select's `cases` (`unknown_case`).
//! - A reference without a `branchId` is ambiguous only when its node executes more than once
//!   in a run — not merely because several routes reach it. A join merges the arrivals of one
//!   execution of its fork, so the join and every node after it execute once per execution of
//!   the fork, and need no `branchId` when the fork executes once (see [`crate::Routes`]). A
//!   `branchId` must name a route under which the node executes (`unknown_branch_id`).
//! - A reference must read a node that has run, and succeeded, by then: one with a route to
//!   the reader that does not leave it on its `error` edge (`reference_not_upstream`).
//! - Taint is per field through dotted paths too, and a declared sanitiser must declare the
//!   fields it declassifies (see [`crate::taint`]).
//! - Bounds are enforced: `maxNodes`, `maxEdges` and `maxEncodedBytes` (against
//!   [`crate::encoded_len`], the length of the canonical encoding the digest hashes) here,
//!   `maxSteps` and `maxConcurrentFrames` by the runtime.
//! - Counting routes never takes exponential time: routes are counted over the acyclic graph
//!   in one pass, capped at [`crate::ROUTE_CAP`]. The checks that ask about routes run on plans
//!   of up to [`MAX_ROUTE_CHECKED_NODES`] nodes and [`MAX_ROUTE_CHECKED_EDGES`] edges (far
//!   beyond the default bounds); a larger plan gets `too_large_to_check` instead.
//! - The original's transform checks and `media_feeds_fields` have no counterpart (writ has no
//!   transform nodes and no typed tool results), nor has `cyclic_value` (a staged value is a
//!   tree).

mod nodes;
mod references;
mod topology;

use writ_cells::Registry;

use crate::graph::Graph;
use crate::model::{PlanIssue, PlanView};

/// The most nodes a plan may have for the checks that ask about routes to run on it.
pub const MAX_ROUTE_CHECKED_NODES: usize = 4_096;

/// The most edges a plan may have for the checks that ask about routes to run on it.
pub const MAX_ROUTE_CHECKED_EDGES: usize = 16_384;

/// What freeze checks a plan against, beyond the plan itself.
#[derive(Clone, Copy)]
pub struct FreezeInputs<'a> {
    /// The names of the tools a call may name (from a tools manifest). `None` when no catalogue
    /// is given: tool names are then not checked.
    pub tools: Option<&'a [String]>,
    /// The predicate cells a branch or select may name; each node's predicate is validated by
    /// the cell it names.
    pub evaluators: &'a Registry,
}

impl<'a> FreezeInputs<'a> {
    /// Inputs with no tool catalogue and these cells.
    pub fn new(evaluators: &'a Registry) -> FreezeInputs<'a> {
        FreezeInputs {
            tools: None,
            evaluators,
        }
    }

    /// The same inputs, checking tool names against `tools`.
    pub fn with_tools(mut self, tools: &'a [String]) -> FreezeInputs<'a> {
        self.tools = Some(tools);
        self
    }
}

/// Checks `view` and returns every issue found, in a fixed order (see the module docs). An
/// empty list means the plan may be frozen.
pub fn check(view: &PlanView, inputs: &FreezeInputs<'_>) -> Vec<PlanIssue> {
    let graph = Graph::new(view);
    let mut issues = Vec::new();
    topology::entry(&graph, &mut issues);
    topology::ids(view, &mut issues);
    topology::edges(view, &graph, &mut issues);
    let entry = graph.entry();
    let checkable = view.nodes.len() <= MAX_ROUTE_CHECKED_NODES && view.edges.len() <= MAX_ROUTE_CHECKED_EDGES;
    let routes = if checkable {
        entry.and_then(|entry| graph.routes(entry))
    } else {
        None
    };
    topology::shape(view, &graph, entry, routes.as_ref(), &mut issues);
    if !checkable {
        issues.push(PlanIssue::blocking(
            "too_large_to_check",
            format!(
                "The plan has {} nodes and {} edges; freeze checks the routes of plans of at most \
                 {MAX_ROUTE_CHECKED_NODES} nodes and {MAX_ROUTE_CHECKED_EDGES} edges. Split the work into \
                 smaller plans.",
                view.nodes.len(),
                view.edges.len()
            ),
        ));
    }
    nodes::values(view, &mut issues);
    references::check(view, &graph, routes.as_ref(), &mut issues);
    nodes::taint(view, &graph, &mut issues);
    nodes::calls(view, inputs.tools, &mut issues);
    nodes::predicates(view, inputs.evaluators, &mut issues);
    nodes::bounds(view, &mut issues);
    topology::unreachable_calls(view, entry, &mut issues);
    issues
}

/// The names among `candidates` nearest to `name` (by edit distance, then by name), at most
/// `limit` of them: what a message suggests in place of a name it does not know.
pub(crate) fn nearest<'c>(name: &str, candidates: impl IntoIterator<Item = &'c str>, limit: usize) -> Vec<&'c str> {
    // Names are compared by their first 64 characters: enough to rank suggestions, and it
    // keeps each comparison small however long an untrusted name is.
    let clip = |s: &str| s.chars().take(64).collect::<Vec<char>>();
    let target = clip(name);
    let mut ranked: Vec<(usize, &str)> = candidates
        .into_iter()
        .map(|candidate| (edit_distance(&target, &clip(candidate)), candidate))
        .collect();
    ranked.sort_unstable();
    ranked.dedup_by(|a, b| a.1 == b.1);
    ranked.into_iter().take(limit).map(|(_, name)| name).collect()
}

fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Names as a message lists them when there may be many: the first few, then how many more.
pub(crate) fn listed<S: AsRef<str>>(names: &[S]) -> String {
    const SHOWN: usize = 6;
    if names.len() <= SHOWN {
        quoted(names)
    } else {
        format!("{} and {} more", quoted(&names[..SHOWN]), names.len() - SHOWN)
    }
}

/// Names as a message lists them: `"a", "b", "c"`.
pub(crate) fn quoted<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> String {
    names
        .into_iter()
        .map(|name| format!("\"{}\"", name.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_names_rank_by_edit_distance_then_name() {
        let names = ["list_files", "read_file", "write_file", "delete_file"];
        assert_eq!(nearest("list_file", names, 2), ["list_files", "read_file"]);
        assert_eq!(nearest("", names, 1), ["read_file"]);
        assert_eq!(quoted(["a", "b"]), "\"a\", \"b\"");
    }
}
