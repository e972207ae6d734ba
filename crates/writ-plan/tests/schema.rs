//! The published JSON Schemas (schemas/plan.schema.json, schemas/oplog.schema.json) accept every
//! example plan and the wire form writ itself writes, and refuse what the readers refuse.

use std::path::Path;

use serde_json::{Value as Json, json};
use writ_plan::{Node, Op, StagedValue};

const PLAN_ID: &str = "https://writ.dev/schemas/plan.schema.json";

struct Schemas {
    plan: jsonschema::Validator,
    oplog: jsonschema::Validator,
}

fn schemas() -> Schemas {
    let plan: Json = serde_json::from_str(include_str!("../schemas/plan.schema.json")).unwrap();
    let oplog: Json = serde_json::from_str(include_str!("../schemas/oplog.schema.json")).unwrap();
    let registry = jsonschema::Registry::new()
        .add(PLAN_ID, plan.clone())
        .unwrap()
        .prepare()
        .unwrap();
    Schemas {
        plan: jsonschema::options().with_registry(&registry).build(&plan).unwrap(),
        oplog: jsonschema::options().with_registry(&registry).build(&oplog).unwrap(),
    }
}

fn errors(validator: &jsonschema::Validator, instance: &Json) -> Vec<String> {
    validator
        .iter_errors(instance)
        .map(|error| format!("{} at {}", error, error.instance_path()))
        .collect()
}

fn example_plans() -> Vec<(String, Json)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/plans");
    let mut plans = Vec::new();
    for dir in [root.clone(), root.join("refused")] {
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .collect();
        entries.sort();
        for path in entries
            .into_iter()
            .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        {
            let text = std::fs::read_to_string(&path).unwrap();
            plans.push((path.display().to_string(), serde_json::from_str(&text).unwrap()));
        }
    }
    plans
}

#[test]
fn every_example_plan_is_valid() {
    let schemas = schemas();
    let plans = example_plans();
    assert!(plans.len() >= 10, "examples/plans holds {} plans", plans.len());
    for (path, plan) in plans {
        let found = if plan.get("ops").is_some() {
            errors(&schemas.oplog, &plan)
        } else {
            errors(&schemas.plan, &plan)
        };
        assert!(found.is_empty(), "{path}: {found:#?}");
        // And what the schema accepts, writ reads.
        if let Some(nodes) = plan["nodes"].as_array() {
            for node in nodes {
                Node::from_wire(node).unwrap_or_else(|error| panic!("{path}: {error}"));
            }
        }
    }
}

#[test]
fn the_wire_form_writ_writes_is_valid() {
    let schemas = schemas();
    let staged = json!({"when": {"$date": "2026-01-31T09:30:00.000Z"}, "pattern": {"$regex": {"pattern": "^inv-\\d+$", "flags": "i"}},
        "m": {"$map": [["k", 1]]}, "s": {"$set": [1, 2]}, "n": {"$bigint": "123456789012345678901"}, "b": {"$bytes": "aGk="},
        "lit": {"$literal": {"$ref": "plain"}}, "r": {"$ref": {"node": "entry", "select": {"index": 0}, "path": "a.b",
        "branchId": {"segments": [{"edge": "e0"}, {"join": "j", "of": ["e1", "e2"]}]}}}});
    let args = StagedValue::from_wire(&staged).unwrap().to_wire();
    let node = Node::from_wire(
        &json!({"id": "c", "kind": "call", "definition": {"tool": "t", "args": args,
        "onMissingValue": "omit", "replaySafe": false, "onIndeterminate": "halt"}}),
    )
    .unwrap();
    let plan = json!({"planId": "p", "nodes": [node.to_wire()], "edges": [], "bounds": {"maxSteps": 3}});
    assert_eq!(errors(&schemas.plan, &plan), Vec::<String>::new());

    let ops = [
        json!({"opId": "o1", "actorId": "ann", "lamport": 1, "at": "", "op": "add_node", "node": node.to_wire()}),
        json!({"opId": "o2", "actorId": "bob", "lamport": 1, "at": "", "op": "set_node_field", "nodeId": "c", "path": "args.n", "value": 5}),
        json!({"opId": "o3", "actorId": "bob", "lamport": 2, "at": "", "op": "set_node_phase", "nodeId": "c", "phase": null}),
        json!({"opId": "o4", "actorId": "bob", "lamport": 3, "at": "", "op": "remove_node", "nodeId": "c", "incidentEdgeIds": []}),
    ];
    let ops: Vec<Json> = ops.iter().map(|op| Op::from_wire(op).unwrap().to_wire()).collect();
    assert_eq!(
        errors(&schemas.oplog, &json!({"planId": "p", "ops": ops})),
        Vec::<String>::new()
    );
}

#[test]
fn what_the_readers_refuse_the_schema_refuses() {
    let schemas = schemas();
    let call = |args: Json| {
        json!({"planId": "p", "edges": [], "nodes": [{"id": "c", "kind": "call", "definition": {"tool": "t", "args": args,
            "onMissingValue": "fail", "replaySafe": true, "onIndeterminate": "retry"}}]})
    };
    let refused = [
        call(json!({"x": {"$reff": {"node": "a", "select": "first"}}})),
        call(json!({"x": {"$ref": {"node": "a", "select": "first"}, "also": 1}})),
        call(json!({"x": {"$ref": {"node": "a", "select": "middle"}}})),
        call(json!({"x": {"$date": "yesterday"}})),
        call(json!({"x": {"$bigint": "007"}})),
        json!({"planId": "p", "edges": [], "nodes": [{"id": "t", "kind": "transform", "definition": {}}]}),
        json!({"planId": "p", "nodes": [], "edges": [{"id": "e0", "from": "a", "to": "b", "handle": "sometimes"}]}),
        json!({"planId": "p", "nodes": [], "edges": [], "bounds": {"maxSteps": 0}}),
        json!({"planId": "p", "nodes": [{"id": "Bad-Id", "kind": "join"}], "edges": []}),
        json!({"planId": "p", "edges": [], "nodes": [{"id": "c", "kind": "call", "definition": {"tool": "t", "onMissingValue": "fail"}}]}),
    ];
    for plan in refused {
        assert!(!schemas.plan.is_valid(&plan), "the schema accepts {plan}");
    }
}
