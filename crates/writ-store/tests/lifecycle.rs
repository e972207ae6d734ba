//! Freeze above a store: every issue at once, the plan frozen only when nothing blocks, and
//! only at the digest that was checked.

use serde_json::Value as Json;
use writ_cells::Registry;
use writ_plan::{FreezeInputs, Op, read_document};
use writ_store::lifecycle::{FreezeOutcome, freeze};
use writ_store::{MemoryStore, NewPlan, PlanState, PlanStore};

fn example(name: &str) -> (String, Vec<Op>) {
    let path = format!("{}/../../examples/plans/{name}", env!("CARGO_MANIFEST_DIR"));
    let json: Json = serde_json::from_str(&std::fs::read_to_string(&path).expect("an example")).expect("JSON");
    let source = read_document(&json).expect("a plan document");
    (source.plan_id, source.ops)
}

#[test]
fn a_clean_plan_is_frozen_at_the_digest_checked() {
    let store = MemoryStore::new();
    let (plan_id, ops) = example("declassify.json");
    store.create(&plan_id, NewPlan::default()).expect("create");
    let editable = store.append_ops(&plan_id, &ops, Some(0)).expect("append");
    let registry = Registry::new();
    let outcome = freeze(&store, &plan_id, &FreezeInputs::new(&registry)).expect("freeze");
    let FreezeOutcome::Frozen { summary, issues } = outcome else {
        panic!("a clean example is frozen: {outcome:?}")
    };
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(summary.state, PlanState::Reviewable);
    assert_eq!(summary.digest, editable.digest);
    let again = freeze(&store, &plan_id, &FreezeInputs::new(&registry)).unwrap_err();
    assert_eq!(again.code(), "state_mismatch");
}

#[test]
fn a_plan_with_blocking_issues_stays_editable_with_every_issue() {
    let store = MemoryStore::new();
    store.create("plan-a", NewPlan::default()).expect("create");
    let ops = writ_store::conformance::plan_ops();
    let before = store.append_ops("plan-a", &ops, None).expect("append");
    let registry = Registry::new();
    let outcome = freeze(&store, "plan-a", &FreezeInputs::new(&registry)).expect("freeze");
    let FreezeOutcome::Refused { summary, issues } = outcome else {
        panic!("the fixture has an orphan call: {outcome:?}")
    };
    assert_eq!(summary, before);
    assert_eq!(store.read_state("plan-a").expect("read"), before);
    let orphan: Vec<&str> = issues
        .iter()
        .filter(|issue| issue.node_id.as_deref() == Some("orphan"))
        .map(|issue| issue.code)
        .collect();
    assert!(orphan.contains(&"unreachable_node"), "{issues:?}");
    assert!(
        issues.len() > orphan.len(),
        "every issue is returned, not just the first: {issues:?}"
    );
}
