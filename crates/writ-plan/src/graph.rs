//! Graph reading over a plan view: adjacency, entries and reachability.
//!
//! Every walk here is iterative: a plan read from the wire is bounded at freeze, but these
//! functions also run on views that have not been checked yet.

use std::collections::{HashMap, HashSet};

use crate::model::{Edge, NodeKind, PlanView};

/// A plan's edges indexed by node, built once and read by the checks.
#[derive(Debug)]
pub struct Graph<'v> {
    view: &'v PlanView,
    outgoing: HashMap<&'v str, Vec<&'v Edge>>,
    incoming: HashMap<&'v str, Vec<&'v Edge>>,
}

impl<'v> Graph<'v> {
    /// Indexes the view's edges by source and by target, each list in the view's edge order.
    pub fn new(view: &'v PlanView) -> Graph<'v> {
        let mut outgoing: HashMap<&str, Vec<&Edge>> = HashMap::new();
        let mut incoming: HashMap<&str, Vec<&Edge>> = HashMap::new();
        for edge in &view.edges {
            outgoing.entry(edge.from.as_str()).or_default().push(edge);
            incoming.entry(edge.to.as_str()).or_default().push(edge);
        }
        Graph {
            view,
            outgoing,
            incoming,
        }
    }

    /// The view the graph reads.
    pub fn view(&self) -> &'v PlanView {
        self.view
    }

    /// The edges leaving `node`, in the view's edge order.
    pub fn outgoing(&self, node: &str) -> &[&'v Edge] {
        self.outgoing.get(node).map_or(&[], Vec::as_slice)
    }

    /// The edges arriving at `node`, in the view's edge order.
    pub fn incoming(&self, node: &str) -> &[&'v Edge] {
        self.incoming.get(node).map_or(&[], Vec::as_slice)
    }

    /// The ids of the entry nodes, in the view's node order.
    pub fn entries(&self) -> Vec<&'v str> {
        self.view
            .nodes
            .iter()
            .filter(|node| node.kind == NodeKind::Entry)
            .map(|node| node.id.as_str())
            .collect()
    }

    /// The single entry node's id, when there is exactly one.
    pub fn entry(&self) -> Option<&'v str> {
        match self.entries().as_slice() {
            [entry] => Some(entry),
            _ => None,
        }
    }

    /// Every node reachable from `start` over edges of any handle, `start` included.
    pub fn reachable_from(&self, start: &str) -> HashSet<&'v str> {
        let mut seen = HashSet::new();
        let Some(start) = self.view.nodes.iter().find(|node| node.id == start) else {
            return seen;
        };
        let mut stack = vec![start.id.as_str()];
        seen.insert(start.id.as_str());
        while let Some(node) = stack.pop() {
            for edge in self.outgoing(node) {
                if seen.insert(edge.to.as_str()) {
                    stack.push(edge.to.as_str());
                }
            }
        }
        seen
    }

    /// Every node reachable from any entry node over edges of any handle.
    pub fn reachable_from_entries(&self) -> HashSet<&'v str> {
        let mut seen = HashSet::new();
        for entry in self.entries() {
            seen.extend(self.reachable_from(entry));
        }
        seen
    }
}
