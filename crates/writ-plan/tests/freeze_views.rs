//! Freeze on views built in code rather than read from a document: what the reader and the
//! fold would have refused or repaired (duplicate ids, dangling edges, values the wire cannot
//! carry), plans too large for the route checks, and route counts far past the cap.

use std::collections::BTreeMap;

use writ_cells::Registry;
use writ_plan::{
    Bounds, DEFAULT_PLAN_BOUNDS, Edge, FreezeInputs, Handle, MAX_ROUTE_CHECKED_NODES, Node, NodeKind, NodeRef,
    PlanView, ROUTE_CAP, Select, StagedValue, Taint, check,
};

fn node(id: &str, kind: NodeKind, definition: &[(&str, StagedValue)]) -> Node {
    Node {
        id: id.into(),
        kind,
        phase: None,
        definition: definition.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect(),
    }
}

fn s(text: &str) -> StagedValue {
    StagedValue::String(text.into())
}

fn entry() -> Node {
    let field = StagedValue::Object(BTreeMap::from([
        ("path".into(), s("topic")),
        ("type".into(), s("string")),
    ]));
    node("entry", NodeKind::Entry, &[("input", StagedValue::Array(vec![field]))])
}

fn call(id: &str, args: &[(&str, StagedValue)]) -> Node {
    let args = StagedValue::Object(args.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect());
    node(
        id,
        NodeKind::Call,
        &[
            ("tool", s(id)),
            ("args", args),
            ("onMissingValue", s("fail")),
            ("replaySafe", StagedValue::Bool(true)),
            ("onIndeterminate", s("halt")),
        ],
    )
}

fn edge(id: &str, from: &str, to: &str) -> Edge {
    Edge {
        id: id.into(),
        from: from.into(),
        to: to.into(),
        handle: Handle::Always,
    }
}

fn view(nodes: Vec<Node>, edges: Vec<Edge>) -> PlanView {
    let mut view = PlanView::empty("plan-views");
    view.nodes = nodes;
    view.edges = edges;
    view
}

fn codes(view: &PlanView) -> Vec<(&'static str, Option<String>, Option<String>)> {
    let registry = Registry::new();
    check(view, &FreezeInputs::new(&registry))
        .into_iter()
        .map(|issue| (issue.code, issue.node_id, issue.edge_id))
        .collect()
}

fn on_node(code: &'static str, id: &str) -> (&'static str, Option<String>, Option<String>) {
    (code, Some(id.into()), None)
}

fn on_edge(code: &'static str, id: &str) -> (&'static str, Option<String>, Option<String>) {
    (code, None, Some(id.into()))
}

#[test]
fn duplicate_ids_and_dangling_edges_in_a_view_are_named() {
    let plan = view(
        vec![entry(), call("a", &[]), call("a", &[]), call("b", &[])],
        vec![edge("e0", "entry", "a"), edge("e1", "a", "b"), edge("e1", "a", "ghost")],
    );
    assert_eq!(
        codes(&plan),
        [
            on_node("duplicate_node_id", "a"),
            on_edge("duplicate_edge_id", "e1"),
            on_edge("dangling_edge", "e1"),
        ]
    );
}

#[test]
fn a_typed_value_in_a_raw_field_is_unencodable_not_a_bad_definition() {
    let predicate = StagedValue::Object(BTreeMap::from([
        ("path".into(), s("check:e2:e0.when")),
        ("op".into(), s("lt")),
        ("value".into(), StagedValue::Date(0)),
    ]));
    let plan = view(
        vec![
            entry(),
            call("check", &[("limit", StagedValue::Number(f64::INFINITY))]),
            node(
                "gate",
                NodeKind::Branch,
                &[("evaluator", s("structured")), ("predicate", predicate)],
            ),
            call("yes", &[]),
        ],
        vec![
            edge("e0", "entry", "check"),
            edge("e1", "check", "gate"),
            Edge {
                handle: Handle::Match,
                ..edge("e2", "gate", "yes")
            },
        ],
    );
    let registry = Registry::new();
    let issues = check(&plan, &FreezeInputs::new(&registry));
    let found: Vec<(&str, Option<&str>)> = issues.iter().map(|i| (i.code, i.node_id.as_deref())).collect();
    // The cell is not wired here, so the predicate is not validated either way.
    assert_eq!(
        found,
        [
            ("unencodable_value", Some("check")),
            ("unencodable_value", Some("gate")),
            ("unwired_evaluator", Some("gate")),
        ]
    );
    assert!(issues[0].message.contains("args.limit"), "{}", issues[0]);
    assert!(issues[1].message.contains("predicate.value"), "{}", issues[1]);
}

#[test]
fn a_value_too_deep_for_the_wire_is_named_and_not_walked() {
    let mut deep = StagedValue::Null;
    for _ in 0..50_000 {
        deep = StagedValue::Array(vec![deep]);
    }
    // Built in place: cloning a value this deep would recurse.
    let mut a = call("a", &[]);
    if let Some(StagedValue::Object(args)) = a.definition.get_mut("args") {
        args.insert("deep".into(), deep);
    }
    let mut plan = view(vec![entry(), a], vec![edge("e0", "entry", "a")]);
    plan.bounds.max_encoded_bytes = u64::MAX;
    assert_eq!(codes(&plan), [on_node("unencodable_value", "a")]);
    // Dropping a value this deep recurses; it is taken apart by hand instead.
    let mut node = plan.nodes.pop().unwrap();
    let Some(StagedValue::Object(mut args)) = node.definition.remove("args") else {
        panic!("no args")
    };
    let mut value = args.remove("deep").unwrap();
    while let StagedValue::Array(mut items) = value {
        value = items.pop().unwrap_or(StagedValue::Null);
    }
}

#[test]
fn a_plan_past_the_route_ceiling_is_refused_whole() {
    let count = MAX_ROUTE_CHECKED_NODES + 1;
    let mut nodes = vec![entry()];
    let mut edges = Vec::new();
    let mut previous = "entry".to_string();
    for i in 1..count {
        let id = format!("n{i}");
        nodes.push(call(&id, &[]));
        edges.push(edge(&format!("e{i}"), &previous, &id));
        previous = id;
    }
    let mut plan = view(nodes, edges);
    plan.bounds = Bounds {
        max_nodes: count as u64,
        max_edges: count as u64,
        ..DEFAULT_PLAN_BOUNDS
    };
    assert_eq!(codes(&plan), [("too_large_to_check", None, None)]);
    plan.bounds.max_nodes = 10;
    let found = codes(&plan);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[1].0, "max_nodes_exceeded");
}

#[test]
fn a_ladder_of_routes_is_refused_with_a_capped_count() {
    // 127 rungs of two arms without joins: the last node runs 2^127 times.
    let mut nodes = vec![entry()];
    let mut edges = Vec::new();
    for rung in 0..127 {
        let here = if rung == 0 {
            "entry".to_string()
        } else {
            format!("m{rung}")
        };
        let next = format!("m{}", rung + 1);
        for arm in ["l", "r"] {
            let id = format!("{arm}{rung}");
            nodes.push(call(&id, &[]));
            edges.push(edge(&format!("e{}", edges.len()), &here, &id));
            edges.push(edge(&format!("e{}", edges.len()), &id, &next));
        }
        nodes.push(call(&next, &[]));
    }
    let reference = StagedValue::NodeRef(NodeRef {
        node: "m127".into(),
        select: Select::All,
        path: None,
        branch_id: None,
    });
    nodes.push(call("read", &[("x", reference)]));
    edges.push(edge("last", "m127", "read"));
    let mut plan = view(nodes, edges);
    plan.bounds = Bounds {
        max_nodes: 1_000,
        max_edges: 1_000,
        ..DEFAULT_PLAN_BOUNDS
    };
    let registry = Registry::new();
    let issues = check(&plan, &FreezeInputs::new(&registry));
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].code, "ambiguous_reference");
    assert!(
        issues[0].message.contains(&format!("more than {ROUTE_CAP}")),
        "{}",
        issues[0]
    );
}

#[test]
fn the_sanitisers_are_named_for_the_operator() {
    let topic = StagedValue::NodeRef(NodeRef {
        node: "entry".into(),
        select: Select::First,
        path: Some("topic".into()),
        branch_id: None,
    });
    let mut san = call("clean", &[("text", topic)]);
    let field = StagedValue::Object(BTreeMap::from([
        ("path".into(), s("safe")),
        ("type".into(), s("string")),
    ]));
    san.definition.insert("output".into(), StagedValue::Array(vec![field]));
    san.definition
        .insert("declassifies".into(), StagedValue::Array(vec![s("safe")]));
    let plan = view(vec![entry(), san], vec![edge("e0", "entry", "clean")]);
    assert_eq!(codes(&plan), []);
    let taint = Taint::compute(&plan);
    let sanitisers = taint.sanitisers();
    assert_eq!(sanitisers.len(), 1);
    assert_eq!(sanitisers[0].call, "clean");
    assert_eq!(sanitisers[0].declassifies, ["safe"]);
    assert_eq!(sanitisers[0].reads_from, ["entry"]);
}
