//! A stored plan read once for running: each node's typed definition, its edges in view order,
//! each join's fork, and each predicate in the form its cell reads.

use std::collections::HashMap;
use std::sync::Arc;

use writ_cells::PredicateNode;
use writ_plan::{Bounds, Definition, Edge, Graph, Handle, PlanView, RouteSegment};

use crate::error::RunError;

/// One node, ready to run.
#[derive(Debug)]
pub(crate) struct CompiledNode {
    pub(crate) kind: &'static str,
    pub(crate) definition: Definition,
    /// Outgoing edges in view order (the order they fire in).
    pub(crate) outgoing: Vec<Edge>,
    /// A join's incoming edge ids, sorted: the `of` of its merged route.
    pub(crate) incoming: Vec<String>,
    /// A join's fork: the last node every route to it passes.
    pub(crate) fork: Option<String>,
    /// A branch's or select's predicate, for its cell.
    pub(crate) predicate: Option<Arc<PredicateNode>>,
}

/// A plan ready to run.
#[derive(Debug)]
pub(crate) struct CompiledPlan {
    pub(crate) digest: String,
    pub(crate) bounds: Bounds,
    pub(crate) entry: String,
    pub(crate) nodes: HashMap<String, CompiledNode>,
    /// Each edge's source and target, by edge id.
    pub(crate) edges: HashMap<String, (String, String)>,
}

impl CompiledPlan {
    /// Reads `view` for running.
    pub(crate) fn new(view: &PlanView, digest: &str) -> Result<CompiledPlan, RunError> {
        let not_runnable = |detail: String| RunError::PlanNotRunnable {
            plan_id: view.plan_id.clone(),
            detail,
        };
        let graph = Graph::new(view);
        let entry = graph
            .entry()
            .ok_or_else(|| not_runnable("it has no entry node".into()))?
            .to_owned();
        let routes = graph
            .routes(&entry)
            .ok_or_else(|| not_runnable("its routes from the entry cannot be traced".into()))?;
        let mut nodes = HashMap::with_capacity(view.nodes.len());
        for node in &view.nodes {
            let definition = Definition::read(node).map_err(|problems| {
                not_runnable(format!(
                    "node \"{}\" has a definition that does not read ({})",
                    node.id,
                    problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
                ))
            })?;
            let predicate = match &definition {
                Definition::Branch(branch) => Some(Arc::new(PredicateNode::branch(
                    &node.id,
                    &branch.evaluator,
                    writ_core::Value::from(&branch.predicate),
                ))),
                Definition::Select(select) => {
                    let cases: Vec<&str> = select.cases.iter().map(String::as_str).collect();
                    Some(Arc::new(PredicateNode::select(
                        &node.id,
                        &select.evaluator,
                        &cases,
                        writ_core::Value::from(&select.predicate),
                    )))
                }
                _ => None,
            };
            let is_join = matches!(definition, Definition::Join);
            let mut incoming: Vec<String> = Vec::new();
            if is_join {
                incoming = graph.incoming(&node.id).iter().map(|edge| edge.id.clone()).collect();
                incoming.sort();
            }
            nodes.insert(
                node.id.clone(),
                CompiledNode {
                    kind: node.kind.name(),
                    definition,
                    outgoing: graph.outgoing(&node.id).iter().map(|edge| (*edge).clone()).collect(),
                    incoming,
                    fork: is_join.then(|| routes.immediate_dominator(&node.id).unwrap_or(&entry).to_owned()),
                    predicate,
                },
            );
        }
        let edges = view
            .edges
            .iter()
            .map(|edge| (edge.id.clone(), (edge.from.clone(), edge.to.clone())))
            .collect();
        Ok(CompiledPlan {
            digest: digest.to_owned(),
            bounds: view.bounds,
            entry,
            nodes,
            edges,
        })
    }

    /// The part of a route to a join that leads up to and into its fork: arrivals with the same
    /// prefix belong to the same barrier. When the fork is the entry, the prefix is empty.
    pub(crate) fn prefix_to_fork(&self, route: &[RouteSegment], fork: &str) -> Vec<RouteSegment> {
        if fork == self.entry {
            return Vec::new();
        }
        for (at, segment) in route.iter().enumerate() {
            let reached = match segment {
                RouteSegment::Edge(id) => self.edges.get(&**id).map(|(_, to)| to.as_str()),
                RouteSegment::Join(joined) => Some(joined.join.as_str()),
            };
            if reached == Some(fork) {
                return route[..=at].to_vec();
            }
        }
        route.to_vec()
    }
}

/// Whether a success edge with `handle` fires for a node of `kind` that decided `decision`;
/// `default` edges are decided apart, after the others.
pub(crate) fn fires_on_success(handle: &Handle, decision: &Decision) -> bool {
    match (handle, decision) {
        (Handle::Always, Decision::Plain) => true,
        (Handle::Match, Decision::Branch(matched)) => *matched,
        (Handle::NoMatch, Decision::Branch(matched)) => !*matched,
        (Handle::Case(label), Decision::Select(Some(case))) => label == case,
        _ => false,
    }
}

/// What a settled node decided, for its success edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Decision {
    /// An entry, call, reason or join: its `always` edges fire.
    Plain,
    /// A branch's verdict.
    Branch(bool),
    /// A select's case (`None`: its `default`).
    Select(Option<String>),
}
