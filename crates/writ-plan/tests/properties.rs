//! Properties of the fold and the wire forms, over random inputs.
//!
//! - The fold converges: any permutation of an op set, with any ops delivered again, folds to
//!   the same view, the same issues and the same digest.
//! - Staged values and ops read back from their wire form (and from its JSON text) unchanged.
//!
//! Case counts are kept so that the file runs in a few seconds in a debug build.

use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::Value as Json;
use writ_plan::{
    Bounds, BranchId, Change, Edge, Handle, Node, NodeKind, NodeRef, Op, ParamRef, RouteSegment, Select, StagedValue,
    digest, fold,
};

// ---- small id spaces, so that random ops collide on the same elements ----

fn actor() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["ann", "bob", "cy"]).prop_map(str::to_owned)
}

fn node_id() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["a", "b", "c", "d"]).prop_map(str::to_owned)
}

fn edge_id() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["e0", "e1", "e2"]).prop_map(str::to_owned)
}

fn small_value() -> impl Strategy<Value = StagedValue> {
    prop_oneof![
        Just(StagedValue::Null),
        (0..3i32).prop_map(|n| StagedValue::Number(f64::from(n))),
        prop::sample::select(vec!["x", "y"]).prop_map(|s| StagedValue::String(s.into())),
        (0..3i64).prop_map(StagedValue::Date),
        node_id().prop_map(|node| StagedValue::NodeRef(NodeRef {
            node,
            select: Select::First,
            path: None,
            branch_id: None,
        })),
    ]
}

fn small_definition() -> impl Strategy<Value = BTreeMap<String, StagedValue>> {
    prop::collection::btree_map(
        prop::sample::select(vec!["tool", "args", "prompt"]).prop_map(str::to_owned),
        small_value(),
        0..3,
    )
}

fn small_change() -> impl Strategy<Value = Change> {
    prop_oneof![
        3 => (node_id(), prop::sample::select(NodeKind::ALL.to_vec()), small_definition()).prop_map(|(id, kind, definition)| {
            Change::AddNode(Node { id, kind, phase: None, definition })
        }),
        2 => (node_id(), prop::collection::vec(edge_id(), 0..3)).prop_map(|(node_id, incident_edge_ids)| {
            Change::RemoveNode { node_id, incident_edge_ids }
        }),
        2 => (node_id(), prop::sample::select(vec!["tool", "args.x", "args.x.y", "args"]), small_value())
            .prop_map(|(node_id, path, value)| Change::SetNodeField { node_id, path: path.into(), value }),
        1 => (node_id(), small_definition()).prop_map(|(node_id, definition)| Change::SetNodeDefinition { node_id, definition }),
        1 => (node_id(), prop::option::of(prop::sample::select(vec!["p", "q"]))).prop_map(|(node_id, phase)| {
            Change::SetNodePhase { node_id, phase: phase.map(str::to_owned) }
        }),
        3 => (edge_id(), node_id(), node_id(), prop::sample::select(vec!["always", "match", "error"]))
            .prop_map(|(id, from, to, handle)| Change::AddEdge(Edge { id, from, to, handle: Handle::parse(handle) })),
        2 => edge_id().prop_map(|edge_id| Change::RemoveEdge { edge_id }),
        1 => (1..4u64).prop_map(|max_steps| Change::SetBounds(Bounds { max_steps, ..Bounds::default() })),
    ]
}

/// Ops over the small id spaces. Op ids come from a space about twice the log's length, so
/// some logs have two different ops with one id (a conflict the fold must still resolve
/// deterministically); lamports collide often.
fn op_log() -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec((0..24u32, actor(), 0..5u64, small_change()), 0..14).prop_map(|ops| {
        ops.into_iter()
            .map(|(id, actor_id, lamport, change)| Op {
                op_id: format!("o{id}"),
                actor_id,
                lamport,
                at: String::new(),
                change,
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn the_fold_converges(
        (ops, shuffled) in op_log().prop_flat_map(|ops| (Just(ops.clone()), Just(ops).prop_shuffle())),
        again in prop::collection::vec(any::<Index>(), 0..6),
    ) {
        let mut delivered = shuffled;
        if !delivered.is_empty() {
            for index in again {
                let op = index.get(&delivered).clone();
                let at = index.index(delivered.len() + 1);
                delivered.insert(at, op);
            }
        }
        let expected = fold("p", &ops, None);
        let folded = fold("p", &delivered, None);
        prop_assert_eq!(&folded, &expected);
        prop_assert_eq!(digest(&folded.view), digest(&expected.view));
    }
}

// ---- arbitrary staged values ----

fn leaf() -> impl Strategy<Value = StagedValue> {
    let number = prop_oneof![
        any::<i32>().prop_map(f64::from),
        prop::num::f64::NORMAL | prop::num::f64::SUBNORMAL | prop::num::f64::ZERO,
        (-9_007_199_254_740_992i64..=9_007_199_254_740_992).prop_map(|n| n as f64),
    ];
    prop_oneof![
        Just(StagedValue::Null),
        any::<bool>().prop_map(StagedValue::Bool),
        number.prop_map(StagedValue::Number),
        any::<String>().prop_map(StagedValue::String),
        node_ref().prop_map(StagedValue::NodeRef),
        any::<String>().prop_map(|path| StagedValue::ParamRef(ParamRef { path })),
        // The years an RFC 3339 date can write: 0000 to 9999.
        (-62_167_219_200_000i64..=253_402_300_799_999).prop_map(StagedValue::Date),
        (
            any::<String>(),
            prop::sample::subsequence(vec!['d', 'g', 'i', 'm', 's', 'u', 'v', 'y'], 0..4)
        )
            .prop_map(|(pattern, mut flags)| {
                if flags.contains(&'u') {
                    flags.retain(|f| *f != 'v');
                }
                StagedValue::Regex {
                    pattern,
                    flags: flags.into_iter().collect(),
                }
            }),
        prop_oneof![Just("0".to_owned()), "-?[1-9][0-9]{0,40}"].prop_map(StagedValue::BigInt),
        prop::collection::vec(any::<u8>(), 0..20).prop_map(StagedValue::Bytes),
    ]
}

fn node_ref() -> impl Strategy<Value = NodeRef> {
    let select = prop_oneof![
        Just(Select::First),
        Just(Select::Last),
        Just(Select::All),
        any::<u64>().prop_map(Select::Index),
    ];
    let segment = prop_oneof![
        any::<String>().prop_map(|id| RouteSegment::Edge(id.into())),
        (any::<String>(), prop::collection::vec(any::<String>(), 0..3))
            .prop_map(|(join, of)| RouteSegment::join(join, of)),
    ];
    let branch = prop::collection::vec(segment, 0..3).prop_map(|segments| BranchId { segments });
    (
        any::<String>(),
        select,
        prop::option::of(any::<String>()),
        prop::option::of(branch),
    )
        .prop_map(|(node, select, path, branch_id)| NodeRef {
            node,
            select,
            path,
            branch_id,
        })
}

/// Keeps the first of each run of equal keys: map keys and set members are distinct.
fn distinct<T>(items: Vec<T>, key: impl Fn(&T) -> &StagedValue) -> Vec<T> {
    let mut kept: Vec<T> = Vec::with_capacity(items.len());
    for item in items {
        if !kept.iter().any(|k| key(k) == key(&item)) {
            kept.push(item);
        }
    }
    kept
}

fn staged_value() -> impl Strategy<Value = StagedValue> {
    leaf().prop_recursive(4, 48, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(StagedValue::Array),
            prop::collection::btree_map(prop_oneof![any::<String>(), "\\$[a-z]{0,6}"], inner.clone(), 0..5)
                .prop_map(StagedValue::Object),
            prop::collection::vec((inner.clone(), inner.clone()), 0..4)
                .prop_map(|entries| StagedValue::Map(distinct(entries, |(k, _)| k))),
            prop::collection::vec(inner, 0..4).prop_map(|members| StagedValue::Set(distinct(members, |m| m))),
        ]
    })
}

/// Writes JSON to text and reads it back, as a plan file would be.
fn through_text(json: &Json) -> Json {
    serde_json::from_str(&serde_json::to_string(json).unwrap()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn staged_values_read_back_unchanged(value in staged_value()) {
        let wire = value.to_wire();
        prop_assert_eq!(&StagedValue::from_wire(&wire).unwrap(), &value);
        prop_assert_eq!(&StagedValue::from_wire(&through_text(&wire)).unwrap(), &value);
    }

    #[test]
    fn ops_read_back_unchanged(
        op_id in any::<String>(),
        actor_id in any::<String>(),
        lamport in any::<u64>(),
        at in any::<String>(),
        change in rich_change(),
    ) {
        let op = Op { op_id, actor_id, lamport, at, change };
        let wire = op.to_wire();
        prop_assert_eq!(&Op::from_wire(&wire).unwrap(), &op);
        prop_assert_eq!(&Op::from_wire(&through_text(&wire)).unwrap(), &op);
    }
}

/// A definition: staged values under ordinary field names, plain JSON under a raw field.
fn rich_definition() -> impl Strategy<Value = BTreeMap<String, StagedValue>> {
    let plain = prop_oneof![
        Just(StagedValue::Null),
        any::<String>().prop_map(StagedValue::String),
        prop::collection::btree_map(
            "\\$?[a-z]{1,5}",
            any::<i32>().prop_map(|n| StagedValue::Number(f64::from(n))),
            0..3
        )
        .prop_map(StagedValue::Object),
    ];
    (
        prop::collection::btree_map("[a-z][A-Za-z]{0,8}", staged_value(), 0..4),
        prop::option::of(plain),
    )
        .prop_map(|(mut fields, predicate)| {
            fields.retain(|key, _| !writ_plan::is_raw_field_path(key));
            if let Some(predicate) = predicate {
                fields.insert("predicate".into(), predicate);
            }
            fields
        })
}

fn rich_change() -> impl Strategy<Value = Change> {
    let bound = 1..=u64::MAX;
    prop_oneof![
        (
            any::<String>(),
            prop::sample::select(NodeKind::ALL.to_vec()),
            prop::option::of(any::<String>()),
            rich_definition()
        )
            .prop_map(|(id, kind, phase, definition)| Change::AddNode(Node {
                id,
                kind,
                phase,
                definition
            })),
        (any::<String>(), prop::collection::vec(any::<String>(), 0..3)).prop_map(|(node_id, incident_edge_ids)| {
            Change::RemoveNode {
                node_id,
                incident_edge_ids,
            }
        }),
        (
            any::<String>(),
            "[a-z][A-Za-z]{0,5}(\\.[A-Za-z0-9_$]{1,4}){0,3}",
            staged_value()
        )
            .prop_filter("a raw field holds plain JSON", |(_, path, _)| {
                !writ_plan::is_raw_field_path(path)
            })
            .prop_map(|(node_id, path, value)| Change::SetNodeField { node_id, path, value }),
        (any::<String>(), rich_definition())
            .prop_map(|(node_id, definition)| Change::SetNodeDefinition { node_id, definition }),
        (any::<String>(), prop::option::of(any::<String>()))
            .prop_map(|(node_id, phase)| Change::SetNodePhase { node_id, phase }),
        (any::<String>(), any::<String>(), any::<String>(), any::<String>()).prop_map(|(id, from, to, handle)| {
            Change::AddEdge(Edge {
                id,
                from,
                to,
                handle: Handle::parse(&handle),
            })
        }),
        any::<String>().prop_map(|edge_id| Change::RemoveEdge { edge_id }),
        (bound.clone(), bound.clone(), bound.clone(), bound.clone(), bound).prop_map(
            |(max_nodes, max_edges, max_steps, max_concurrent_frames, max_encoded_bytes)| {
                Change::SetBounds(Bounds {
                    max_nodes,
                    max_edges,
                    max_steps,
                    max_concurrent_frames,
                    max_encoded_bytes,
                })
            }
        ),
    ]
}
