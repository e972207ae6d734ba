//! Graph reading over a plan view: adjacency, entries, reachability, cycles, dominators and
//! the routes by which a node executes.
//!
//! Every walk here is iterative: a plan read from the wire is bounded at freeze, but these
//! functions also run on views that have not been checked yet. Nothing here takes more than
//! linear time per question asked, however many routes a plan has: routes are counted, capped,
//! never enumerated.

use std::cell::OnceCell;
use std::collections::{HashMap, HashSet, VecDeque};

use crate::model::{Edge, Node, NodeKind, PlanView};
use crate::value::{BranchId, JoinSegment, RouteSegment};

/// A plan's edges indexed by node, built once and read by the checks.
#[derive(Debug)]
pub struct Graph<'v> {
    view: &'v PlanView,
    outgoing: HashMap<&'v str, Vec<&'v Edge>>,
    incoming: HashMap<&'v str, Vec<&'v Edge>>,
    /// The position of each node id: the first node in the view with that id.
    position: HashMap<&'v str, usize>,
    /// For each node position, the view positions of the edges leaving it whose target exists.
    out_edges: Vec<Vec<usize>>,
    /// For each node position, the view positions of the edges arriving at it whose source exists.
    in_edges: Vec<Vec<usize>>,
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
        let mut position = HashMap::with_capacity(view.nodes.len());
        for (at, node) in view.nodes.iter().enumerate() {
            position.entry(node.id.as_str()).or_insert(at);
        }
        let mut out_edges = vec![Vec::new(); view.nodes.len()];
        let mut in_edges = vec![Vec::new(); view.nodes.len()];
        for (at, edge) in view.edges.iter().enumerate() {
            if let (Some(&from), Some(&to)) = (position.get(edge.from.as_str()), position.get(edge.to.as_str())) {
                out_edges[from].push(at);
                in_edges[to].push(at);
            }
        }
        Graph {
            view,
            outgoing,
            incoming,
            position,
            out_edges,
            in_edges,
        }
    }

    /// The position in the view's node list of the node with this id (the first, if two
    /// nodes share it).
    pub fn position(&self, id: &str) -> Option<usize> {
        self.position.get(id).copied()
    }

    /// The node with this id (the first, if two nodes share it), found by its position.
    pub fn node(&self, id: &str) -> Option<&'v Node> {
        self.position(id).map(|at| &self.view.nodes[at])
    }

    fn kind_at(&self, at: usize) -> NodeKind {
        self.view.nodes[at].kind
    }

    fn id_at(&self, at: usize) -> &'v str {
        &self.view.nodes[at].id
    }

    fn edge_target(&self, edge: usize) -> usize {
        self.position[self.view.edges[edge].to.as_str()]
    }

    fn edge_source(&self, edge: usize) -> usize {
        self.position[self.view.edges[edge].from.as_str()]
    }

    /// Every edge that closes a cycle, over edges of every handle (an `error` or `default` edge
    /// back to an ancestor closes a cycle too), in the order a depth-first walk meets them.
    ///
    /// The walk starts at the entry nodes, then at every node not yet seen, in view order, and
    /// follows edges in view order; an edge to a node still on the walk's path closes a cycle.
    /// Removing every edge returned leaves the graph acyclic, and does not change what an entry
    /// reaches. A diamond (two routes meeting again) is not a cycle.
    pub fn back_edges(&self) -> Vec<&'v Edge> {
        self.back_edge_positions()
            .into_iter()
            .map(|edge| &self.view.edges[edge])
            .collect()
    }

    /// The first edge that closes a cycle, if the graph has one (see [`Graph::back_edges`]).
    pub fn find_cycle(&self) -> Option<&'v Edge> {
        self.back_edges().into_iter().next()
    }

    fn back_edge_positions(&self) -> Vec<usize> {
        const UNSEEN: u8 = 0;
        const ON_PATH: u8 = 1;
        const DONE: u8 = 2;
        let count = self.view.nodes.len();
        let mut state = vec![UNSEEN; count];
        let mut back = Vec::new();
        let roots = (0..count)
            .filter(|&at| self.kind_at(at) == NodeKind::Entry)
            .chain(0..count);
        for root in roots {
            if state[root] != UNSEEN {
                continue;
            }
            state[root] = ON_PATH;
            // Each frame: a node and how many of its edges have been followed.
            let mut stack = vec![(root, 0usize)];
            while let Some(top) = stack.len().checked_sub(1) {
                let (node, next) = stack[top];
                let Some(&edge) = self.out_edges[node].get(next) else {
                    state[node] = DONE;
                    stack.pop();
                    continue;
                };
                stack[top].1 += 1;
                let target = self.edge_target(edge);
                match state[target] {
                    UNSEEN => {
                        state[target] = ON_PATH;
                        stack.push((target, 0));
                    }
                    ON_PATH => back.push(edge),
                    _ => {}
                }
            }
        }
        back
    }

    /// The routes of the plan from `entry`, read over the graph without its cycle-closing
    /// edges ([`Graph::back_edges`]); `None` when no node has that id.
    pub fn routes(&self, entry: &str) -> Option<Routes<'_, 'v>> {
        Routes::new(self, self.position(entry)?)
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
        self.reachable_from_any(self.entries())
    }

    /// Every node reachable from any of `starts` over edges of any handle, the starts included
    /// (one walk, however many starts).
    pub fn reachable_from_any<'s>(&self, starts: impl IntoIterator<Item = &'s str>) -> HashSet<&'v str> {
        let mut seen = vec![false; self.view.nodes.len()];
        let mut stack: Vec<usize> = Vec::new();
        for start in starts {
            if let Some(at) = self.position(start)
                && !seen[at]
            {
                seen[at] = true;
                stack.push(at);
            }
        }
        while let Some(node) = stack.pop() {
            for &edge in &self.out_edges[node] {
                let target = self.edge_target(edge);
                if !seen[target] {
                    seen[target] = true;
                    stack.push(target);
                }
            }
        }
        (0..seen.len())
            .filter(|&at| seen[at])
            .map(|at| self.id_at(at))
            .collect()
    }
}

/// How many routes [`Routes`] counts before it stops: past this, "more than 10,000" is all a
/// check needs to know.
pub const ROUTE_CAP: u64 = 10_000;

/// The routes of a plan from its entry, over the graph without its cycle-closing edges: which
/// nodes the entry reaches, each node's immediate dominator, how many routes run between two
/// nodes, and the routes (branch ids) under which each node executes.
///
/// A node executes once per route by which it is reached — except a join, which merges the
/// arrivals of one execution of its fork into one execution. Its branch id is the route of
/// that fork execution followed by a join segment `{"join": id, "of": [every incoming edge id,
/// sorted]}`, so a join and every node after it execute once per execution of the join's fork,
/// however many routes lead through the diamond.
pub struct Routes<'g, 'v> {
    graph: &'g Graph<'v>,
    entry: usize,
    /// For each edge position: does it close a cycle (and so is left out)?
    back: Vec<bool>,
    /// Node positions in a topological order of the acyclic graph.
    order: Vec<usize>,
    /// Each node position's place in `order`.
    rank: Vec<usize>,
    /// For each node position: does the entry reach it?
    reachable: Vec<bool>,
    /// For each reachable node position other than the entry: its immediate dominator.
    idom: Vec<Option<usize>>,
    /// For each node position: how many executions it has, capped at [`ROUTE_CAP`].
    executions: Vec<u64>,
    /// A few routes of each node, computed when a message first needs them.
    samples: OnceCell<Samples>,
    /// For each node position, the bit set of its ancestors, computed when first needed.
    ancestors: OnceCell<Vec<u64>>,
}

/// How many sample routes per node [`Routes::sample_routes`] gives.
const SAMPLES: usize = 2;

/// A few routes of each node, held as a tree of steps shared between routes (a route is its
/// last step; each step points to the route it extends), so finding them costs a few steps per
/// edge however long the routes are.
struct Samples {
    /// Each step: the route it extends (`None` for the entry's empty route) and the segment
    /// it adds (`None` for the empty route itself).
    steps: Vec<(Option<usize>, Option<Step>)>,
    /// For each node position, the steps that end its sample routes.
    ends: Vec<Vec<usize>>,
}

#[derive(Clone, Copy)]
enum Step {
    /// The edge at this view position.
    Edge(usize),
    /// The join at this node position.
    Join(usize),
}

/// Why a branch id names no execution of a node: which segment fails, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouteMismatch {
    /// The position of the failing segment in the branch id; the number of segments when the
    /// route is well formed but ends at another node.
    pub segment: usize,
    /// What is wrong, in words.
    pub reason: String,
}

impl<'g, 'v> Routes<'g, 'v> {
    fn new(graph: &'g Graph<'v>, entry: usize) -> Option<Routes<'g, 'v>> {
        let count = graph.view.nodes.len();
        let mut back = vec![false; graph.view.edges.len()];
        for edge in graph.back_edge_positions() {
            back[edge] = true;
        }
        // Kahn's algorithm over the edges that remain, nodes released in view order.
        let mut pending: Vec<usize> = (0..count)
            .map(|at| graph.in_edges[at].iter().filter(|&&e| !back[e]).count())
            .collect();
        let mut ready: VecDeque<usize> = (0..count).filter(|&at| pending[at] == 0).collect();
        let mut order = Vec::with_capacity(count);
        while let Some(node) = ready.pop_front() {
            order.push(node);
            for &edge in &graph.out_edges[node] {
                if back[edge] {
                    continue;
                }
                let target = graph.edge_target(edge);
                pending[target] -= 1;
                if pending[target] == 0 {
                    ready.push_back(target);
                }
            }
        }
        // Removing every back edge of a depth-first walk leaves no cycle, so every node is
        // ordered; should that ever fail, there are no routes to speak of.
        if order.len() != count {
            return None;
        }
        let mut rank = vec![0; count];
        for (place, &node) in order.iter().enumerate() {
            rank[node] = place;
        }
        let mut routes = Routes {
            graph,
            entry,
            back,
            order,
            rank,
            reachable: vec![false; count],
            idom: vec![None; count],
            executions: vec![0; count],
            samples: OnceCell::new(),
            ancestors: OnceCell::new(),
        };
        routes.walk_from_entry();
        Some(routes)
    }

    /// The edges that remain into `node`, from nodes the entry reaches.
    fn preds(&self, node: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.graph.in_edges[node]
            .iter()
            .filter(|&&edge| !self.back[edge])
            .map(|&edge| (edge, self.graph.edge_source(edge)))
            .filter(|&(_, source)| self.reachable[source])
    }

    /// Reachability, dominators and execution counts, in one pass in topological order: every
    /// node's dominators and predecessors come before it.
    fn walk_from_entry(&mut self) {
        let start = self.rank[self.entry];
        self.reachable[self.entry] = true;
        self.executions[self.entry] = 1;
        for place in start + 1..self.order.len() {
            let node = self.order[place];
            let mut idom: Option<usize> = None;
            let mut executions: u64 = 0;
            for (_, source) in self.preds(node).collect::<Vec<_>>() {
                idom = Some(match idom {
                    None => source,
                    Some(current) => self.intersect(current, source),
                });
                executions = executions.saturating_add(self.executions[source]).min(ROUTE_CAP + 1);
            }
            let Some(idom) = idom else { continue };
            self.reachable[node] = true;
            self.idom[node] = Some(idom);
            self.executions[node] = if self.graph.kind_at(node) == NodeKind::Join {
                self.executions[idom]
            } else {
                executions
            };
        }
    }

    /// The nearest common dominator of two reachable nodes.
    fn intersect(&self, mut a: usize, mut b: usize) -> usize {
        while a != b {
            while self.rank[a] > self.rank[b] {
                a = self.idom[a].unwrap_or(self.entry);
            }
            while self.rank[b] > self.rank[a] {
                b = self.idom[b].unwrap_or(self.entry);
            }
        }
        a
    }

    /// The entry node's id.
    pub fn entry(&self) -> &'v str {
        self.graph.id_at(self.entry)
    }

    /// Whether the entry reaches `node`.
    pub fn reaches(&self, node: &str) -> bool {
        self.graph.position(node).is_some_and(|at| self.reachable[at])
    }

    /// The immediate dominator of `node`: the nearest node every route from the entry to it
    /// passes through. For a join, this is its fork. `None` for the entry itself and for
    /// nodes the entry does not reach.
    pub fn immediate_dominator(&self, node: &str) -> Option<&'v str> {
        let at = self.graph.position(node)?;
        self.idom[at].map(|idom| self.graph.id_at(idom))
    }

    /// How many routes lead from `from` to `to`, counted up to `cap` (a count above `cap` is
    /// reported as `cap + 1`). Linear in the plan's size, however many routes there are.
    pub fn count_routes(&self, from: &str, to: &str, cap: u64) -> u64 {
        let (Some(from), Some(to)) = (self.graph.position(from), self.graph.position(to)) else {
            return 0;
        };
        if self.rank[to] < self.rank[from] {
            return 0;
        }
        let mut count = vec![0u64; self.order.len()];
        count[from] = 1;
        for place in self.rank[from] + 1..=self.rank[to] {
            let node = self.order[place];
            let mut sum: u64 = 0;
            for &edge in &self.graph.in_edges[node] {
                if !self.back[edge] {
                    sum = sum
                        .saturating_add(count[self.graph.edge_source(edge)])
                        .min(cap.saturating_add(1));
                }
            }
            count[node] = sum;
        }
        count[to]
    }

    /// The nodes strictly inside the routes from `from` to `to` (every node on some route
    /// between them, the two ends left out), in view order.
    pub fn between(&self, from: &str, to: &str) -> Vec<&'v str> {
        let (Some(from), Some(to)) = (self.graph.position(from), self.graph.position(to)) else {
            return Vec::new();
        };
        let ancestors = self.ancestor_bits();
        (0..self.order.len())
            .filter(|&at| at != from && at != to)
            .filter(|&at| self.is_ancestor(ancestors, from, at) && self.is_ancestor(ancestors, at, to))
            .map(|at| self.graph.id_at(at))
            .collect()
    }

    /// Whether some route leads from `ancestor` to `node` (a node is not its own ancestor).
    pub fn is_upstream(&self, ancestor: &str, node: &str) -> bool {
        match (self.graph.position(ancestor), self.graph.position(node)) {
            (Some(ancestor), Some(node)) => self.is_ancestor(self.ancestor_bits(), ancestor, node),
            _ => false,
        }
    }

    fn words(&self) -> usize {
        self.order.len().div_ceil(64)
    }

    fn is_ancestor(&self, bits: &[u64], ancestor: usize, node: usize) -> bool {
        bits[node * self.words() + ancestor / 64] & (1 << (ancestor % 64)) != 0
    }

    /// For each node, the set of nodes with a route to it, as bits: one pass in topological
    /// order, each edge merging its source's set into its target's.
    fn ancestor_bits(&self) -> &[u64] {
        self.ancestors.get_or_init(|| {
            let words = self.words();
            let mut bits = vec![0u64; words * self.order.len()];
            for &node in &self.order {
                for &edge in &self.graph.in_edges[node] {
                    if self.back[edge] {
                        continue;
                    }
                    let source = self.graph.edge_source(edge);
                    bits[node * words + source / 64] |= 1 << (source % 64);
                    for word in 0..words {
                        let merged = bits[source * words + word];
                        bits[node * words + word] |= merged;
                    }
                }
            }
            bits
        })
    }

    /// How many times `node` executes in a run that takes every route: one per distinct branch
    /// id, capped at [`ROUTE_CAP`] (a count above is reported as `ROUTE_CAP + 1`). Zero for a
    /// node the entry does not reach.
    pub fn executions(&self, node: &str) -> u64 {
        self.graph.position(node).map_or(0, |at| self.executions[at])
    }

    /// Up to two of the branch ids under which `node` executes, in a fixed order (the first
    /// routes by view edge order), for messages that must show the author what to write.
    pub fn sample_routes(&self, node: &str) -> Vec<BranchId> {
        let Some(at) = self.graph.position(node) else {
            return Vec::new();
        };
        let samples = self.samples.get_or_init(|| self.compute_samples());
        samples.ends[at]
            .iter()
            .map(|&end| {
                let mut segments = Vec::new();
                let mut step = Some(end);
                while let Some(current) = step {
                    let (previous, segment) = samples.steps[current];
                    match segment {
                        Some(Step::Edge(edge)) => {
                            segments.push(RouteSegment::Edge(self.graph.view.edges[edge].id.as_str().into()))
                        }
                        Some(Step::Join(join)) => segments.push(self.join_segment(join)),
                        None => {}
                    }
                    step = previous;
                }
                segments.reverse();
                BranchId { segments }
            })
            .collect()
    }

    fn compute_samples(&self) -> Samples {
        let mut samples = Samples {
            steps: vec![(None, None)],
            ends: vec![Vec::new(); self.order.len()],
        };
        samples.ends[self.entry].push(0);
        for &node in &self.order[self.rank[self.entry] + 1..] {
            if !self.reachable[node] {
                continue;
            }
            let mut found = Vec::with_capacity(SAMPLES);
            if self.graph.kind_at(node) == NodeKind::Join {
                let fork = self.idom[node].unwrap_or(self.entry);
                for index in 0..samples.ends[fork].len() {
                    let previous = samples.ends[fork][index];
                    samples.steps.push((Some(previous), Some(Step::Join(node))));
                    found.push(samples.steps.len() - 1);
                }
            } else {
                'edges: for (edge, source) in self.preds(node).collect::<Vec<_>>() {
                    for index in 0..samples.ends[source].len() {
                        if found.len() == SAMPLES {
                            break 'edges;
                        }
                        let previous = samples.ends[source][index];
                        samples.steps.push((Some(previous), Some(Step::Edge(edge))));
                        found.push(samples.steps.len() - 1);
                    }
                }
            }
            samples.ends[node] = found;
        }
        samples
    }

    /// The segment a join adds to the route of its fork: the join and every edge into it,
    /// sorted.
    fn join_segment(&self, join: usize) -> RouteSegment {
        RouteSegment::join(self.graph.id_at(join).to_owned(), self.join_inputs(join))
    }

    /// The ids of the edges into a join, sorted: what its join segment lists.
    fn join_inputs(&self, join: usize) -> Vec<String> {
        let mut of: Vec<String> = self.graph.in_edges[join]
            .iter()
            .map(|&edge| self.graph.view.edges[edge].id.clone())
            .collect();
        of.sort_unstable();
        of
    }

    /// Checks that `branch` is a route under which `node` executes: each edge segment leaves
    /// the node reached so far (and does not arrive at a join — a join's execution is named by
    /// its join segment), each join segment's join has the node reached so far as its fork and
    /// lists exactly its incoming edges, sorted, and the route ends at `node`.
    pub fn check_branch(&self, node: &str, branch: &BranchId) -> Result<(), RouteMismatch> {
        let mut at = self.entry;
        for (index, segment) in branch.segments.iter().enumerate() {
            let here = self.graph.id_at(at);
            let fail = |reason: String| Err(RouteMismatch { segment: index, reason });
            match segment {
                RouteSegment::Edge(id) => {
                    let leaving = self.graph.out_edges[at]
                        .iter()
                        .copied()
                        .find(|&edge| !self.back[edge] && *self.graph.view.edges[edge].id == **id);
                    let Some(edge) = leaving else {
                        return match self.graph.view.edges.iter().find(|edge| *edge.id == **id) {
                            None => fail(format!("there is no edge \"{id}\"")),
                            Some(edge) if edge.from != here => fail(format!(
                                "edge \"{id}\" leaves \"{}\", but the route has reached \"{here}\"",
                                edge.from
                            )),
                            Some(_) => fail(format!("edge \"{id}\" closes a cycle, so no run follows it")),
                        };
                    };
                    let target = self.graph.edge_target(edge);
                    if self.graph.kind_at(target) == NodeKind::Join {
                        return fail(format!(
                            "edge \"{id}\" arrives at the join \"{}\", whose execution is named by a join \
                             segment after its fork's route, not by the edge",
                            self.graph.id_at(target)
                        ));
                    }
                    at = target;
                }
                RouteSegment::Join(joined) => {
                    let JoinSegment { join, of } = &**joined;
                    let Some(join_at) = self
                        .graph
                        .position(join)
                        .filter(|&j| self.graph.kind_at(j) == NodeKind::Join)
                    else {
                        return fail(format!("there is no join node \"{join}\""));
                    };
                    if self.idom[join_at] != Some(at) {
                        return fail(match self.idom[join_at] {
                            Some(fork) => format!(
                                "the join \"{join}\" closes the fork \"{}\", but the route has reached \"{here}\"",
                                self.graph.id_at(fork)
                            ),
                            None => format!("the entry does not reach the join \"{join}\""),
                        });
                    }
                    let expected = self.join_inputs(join_at);
                    if *of != expected {
                        return fail(format!(
                            "the join segment of \"{join}\" lists every edge into it, sorted: [{}]",
                            expected
                                .iter()
                                .map(|id| format!("\"{id}\""))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ));
                    }
                    at = join_at;
                }
            }
        }
        if at == self.graph.position(node).unwrap_or(usize::MAX) {
            Ok(())
        } else {
            Err(RouteMismatch {
                segment: branch.segments.len(),
                reason: format!("the route ends at \"{}\", not at \"{node}\"", self.graph.id_at(at)),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Edge, Handle, Node};
    use std::collections::BTreeMap;

    fn plan(nodes: &[(&str, NodeKind)], edges: &[(&str, &str, &str, Handle)]) -> PlanView {
        let mut view = PlanView::empty("plan-g");
        view.nodes = nodes
            .iter()
            .map(|(id, kind)| Node {
                id: (*id).into(),
                kind: *kind,
                phase: None,
                definition: BTreeMap::new(),
            })
            .collect();
        view.edges = edges
            .iter()
            .map(|(id, from, to, handle)| Edge {
                id: (*id).into(),
                from: (*from).into(),
                to: (*to).into(),
                handle: handle.clone(),
            })
            .collect();
        view
    }

    use NodeKind::{Branch, Call, Entry, Join};

    /// entry → a; a → b, a → c; b, c → j; j → after (the canonical diamond).
    fn diamond() -> PlanView {
        plan(
            &[
                ("entry", Entry),
                ("a", Call),
                ("b", Call),
                ("c", Call),
                ("j", Join),
                ("after", Call),
            ],
            &[
                ("e0", "entry", "a", Handle::Always),
                ("e1", "a", "b", Handle::Always),
                ("e2", "a", "c", Handle::Always),
                ("e3", "b", "j", Handle::Always),
                ("e4", "c", "j", Handle::Always),
                ("e5", "j", "after", Handle::Always),
            ],
        )
    }

    #[test]
    fn a_join_and_what_follows_it_execute_once_per_fork_execution() {
        let view = diamond();
        let graph = Graph::new(&view);
        assert!(graph.find_cycle().is_none());
        let routes = graph.routes("entry").unwrap();
        assert_eq!(routes.immediate_dominator("j"), Some("a"));
        assert_eq!(routes.count_routes("a", "j", ROUTE_CAP), 2);
        assert_eq!(routes.count_routes("entry", "after", ROUTE_CAP), 2);
        assert_eq!(routes.between("a", "j"), ["b", "c"]);
        for node in ["entry", "a", "b", "c", "j", "after"] {
            assert_eq!(routes.executions(node), 1, "{node}");
        }
        let after = &routes.sample_routes("after")[0];
        assert_eq!(after.key(), "e2:e0j1:j(e2:e3e2:e4)e2:e5");
        assert_eq!(routes.check_branch("after", after), Ok(()));
        assert!(routes.is_upstream("b", "after"));
        assert!(!routes.is_upstream("b", "c"));
        assert!(!routes.is_upstream("after", "after"));
        // Naming the join's arrival edge instead of its join segment names no execution.
        let wrong = BranchId {
            segments: vec![
                RouteSegment::Edge("e0".into()),
                RouteSegment::Edge("e1".into()),
                RouteSegment::Edge("e3".into()),
            ],
        };
        let mismatch = routes.check_branch("j", &wrong).unwrap_err();
        assert_eq!(mismatch.segment, 2);
        assert!(mismatch.reason.contains("join segment"), "{}", mismatch.reason);
    }

    #[test]
    fn a_diamond_may_fork_at_the_entry() {
        let view = plan(
            &[("entry", Entry), ("b", Call), ("c", Call), ("j", Join)],
            &[
                ("e0", "entry", "b", Handle::Always),
                ("e1", "entry", "c", Handle::Always),
                ("e2", "b", "j", Handle::Always),
                ("e3", "c", "j", Handle::Always),
            ],
        );
        let graph = Graph::new(&view);
        let routes = graph.routes("entry").unwrap();
        assert_eq!(routes.immediate_dominator("j"), Some("entry"));
        assert_eq!(routes.count_routes("entry", "j", ROUTE_CAP), 2);
        assert_eq!(routes.executions("j"), 1);
        assert_eq!(routes.sample_routes("j")[0].key(), "j1:j(e2:e2e2:e3)");
    }

    #[test]
    fn fan_in_without_a_join_executes_once_per_route() {
        let view = plan(
            &[("entry", Entry), ("a", Call), ("b", Call), ("c", Call)],
            &[
                ("e0", "entry", "a", Handle::Always),
                ("e1", "entry", "b", Handle::Always),
                ("e2", "a", "c", Handle::Always),
                ("e3", "b", "c", Handle::Always),
            ],
        );
        let graph = Graph::new(&view);
        let routes = graph.routes("entry").unwrap();
        assert_eq!(routes.executions("c"), 2);
        let keys: Vec<String> = routes.sample_routes("c").iter().map(BranchId::key).collect();
        assert_eq!(keys, ["e2:e0e2:e2", "e2:e1e2:e3"]);
        let mismatch = routes.check_branch("c", &routes.sample_routes("a")[0]).unwrap_err();
        assert_eq!(mismatch.segment, 1);
    }

    #[test]
    fn every_edge_closing_a_cycle_is_found_over_every_handle() {
        let view = plan(
            &[("entry", Entry), ("a", Call), ("b", Branch), ("c", Call)],
            &[
                ("e0", "entry", "a", Handle::Always),
                ("e1", "a", "b", Handle::Always),
                ("back", "b", "a", Handle::NoMatch),
                ("e2", "b", "c", Handle::Match),
                ("oops", "c", "a", Handle::Error),
                ("self", "c", "c", Handle::Always),
            ],
        );
        let graph = Graph::new(&view);
        let back: Vec<&str> = graph.back_edges().iter().map(|edge| edge.id.as_str()).collect();
        assert_eq!(back, ["back", "oops", "self"]);
        assert_eq!(graph.find_cycle().map(|edge| edge.id.as_str()), Some("back"));
        let routes = graph.routes("entry").unwrap();
        assert_eq!(routes.executions("c"), 1);
    }

    #[test]
    fn a_ladder_is_counted_not_walked() {
        // 128 rungs, each doubling the routes: 2^127 routes from the entry to the last node.
        let mut nodes = vec![("n0".to_string(), Entry)];
        let mut edges = Vec::new();
        for rung in 0..127 {
            let (here, left, right, next) = (
                format!("n{}", rung * 2),
                format!("l{rung}"),
                format!("r{rung}"),
                format!("n{}", rung * 2 + 2),
            );
            nodes.push((left.clone(), Call));
            nodes.push((right.clone(), Call));
            nodes.push((next.clone(), Call));
            for (to, from) in [(&left, &here), (&right, &here), (&next, &left), (&next, &right)] {
                edges.push((format!("e{}", edges.len()), from.clone(), to.clone(), Handle::Always));
            }
        }
        let nodes: Vec<(&str, NodeKind)> = nodes.iter().map(|(id, kind)| (id.as_str(), *kind)).collect();
        let edges: Vec<(&str, &str, &str, Handle)> = edges
            .iter()
            .map(|(id, from, to, handle)| (id.as_str(), from.as_str(), to.as_str(), handle.clone()))
            .collect();
        let view = plan(&nodes, &edges);
        let graph = Graph::new(&view);
        let routes = graph.routes("n0").unwrap();
        assert_eq!(routes.count_routes("n0", "n254", ROUTE_CAP), ROUTE_CAP + 1);
        assert_eq!(routes.count_routes("n0", "n8", ROUTE_CAP), 16);
        assert_eq!(routes.executions("n254"), ROUTE_CAP + 1);
        assert_eq!(routes.sample_routes("n254").len(), 2);
        assert_eq!(routes.immediate_dominator("n254"), Some("n252"));
        assert_eq!(routes.between("n250", "n254").len(), 5);
    }
}
