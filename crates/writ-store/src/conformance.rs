//! The conformance suite every [`PlanStore`] passes: the store contract as cases, written once.
//!
//! Each case is a public function taking a fresh, empty store;
//! [`plan_store_conformance!`](crate::plan_store_conformance) turns the whole list into
//! `#[test]`s for one implementation:
//!
//! ```text
//! writ_store::plan_store_conformance!(Box::new(writ_store::MemoryStore::new()));
//! ```
//!
//! The expression is evaluated once per case and must dereference to the store (a `Box`, or a
//! guard that removes a database file when dropped). The cases cover reference/adk.md §6 cases
//! 29–30 where they concern stores and approval: concurrent run claims, appends refused unless
//! editable, approvals refused for a set that omits or adds a claim, a stale digest or another
//! plan (leaving everything unchanged), the exact set in another order accepted, clones, and a
//! duplicated op.
//!
//! The cases panic on a broken rule, as tests do; this module is meant for test code.

use std::sync::Barrier;

use serde_json::{Value as Json, json};
use writ_plan::{ApprovalRecord, AuthorityClaim, Op, PlanView, Provenance, Verb, digest};

use crate::{NewPlan, PlanState, PlanStore, PlanSummary, StoreError};

/// Expands to one `#[test]` per conformance case, each given a fresh store from `$make` (an
/// expression dereferencing to a [`PlanStore`], evaluated once per case).
#[macro_export]
macro_rules! plan_store_conformance {
    ($make:expr) => {
        $crate::plan_store_conformance!(@cases $make;
            a_new_plan_is_editable_at_revision_zero,
            a_taken_or_empty_id_is_refused,
            a_missing_plan_is_named,
            appends_advance_the_revision_in_append_order,
            a_moved_revision_refuses_the_append,
            a_duplicated_op_changes_nothing,
            authoring_order_changes_neither_digest_nor_authority,
            an_op_id_reused_for_other_content_is_refused,
            appends_are_refused_unless_editable,
            freeze_needs_the_checked_digest,
            unfreeze_returns_a_reviewed_plan_to_editing,
            the_exact_authority_set_in_any_order_is_approved,
            a_set_that_omits_or_adds_a_claim_is_refused,
            a_stale_digest_after_an_edit_is_refused,
            another_plans_record_is_refused,
            only_a_reviewable_plan_is_approved,
            unfreezing_an_approved_plan_voids_its_approval,
            a_run_needs_an_approved_plan_at_its_digest,
            concurrent_claims_have_one_winner,
            a_plan_runs_once_ever,
            run_ids_are_unique_across_plans,
            a_clone_is_editable_unapproved_and_runless,
            a_clone_at_a_revision_copies_that_prefix,
            a_clone_can_be_frozen_and_approved,
            clone_refusals_are_named,
            list_gives_every_plan_by_id,
        );
    };
    (@cases $make:expr; $($case:ident),* $(,)?) => {
        $(
            #[test]
            fn $case() {
                let store = $make;
                $crate::conformance::$case(&*store);
            }
        )*
    };
}

const AT: &str = "2026-12-02T04:00:00Z";

/// An op from its wire fields (`op` and the op's own fields) with the stamp given.
fn op(op_id: &str, lamport: u64, fields: Json) -> Op {
    let mut wire = json!({"opId": op_id, "actorId": "ann", "lamport": lamport, "at": AT});
    if let (Json::Object(wire), Json::Object(fields)) = (&mut wire, fields) {
        wire.extend(fields);
    }
    Op::from_wire(&wire).unwrap_or_else(|error| panic!("fixture op {op_id}: {error}"))
}

fn call(op_id: &str, lamport: u64, id: &str, authority: Json) -> Op {
    op(
        op_id,
        lamport,
        json!({"op": "add_node", "node": {"id": id, "kind": "call", "definition": {
            "tool": id, "args": {"path": "a scratch folder"}, "authority": authority,
            "replaySafe": true, "onIndeterminate": "retry"}}}),
    )
}

fn claim(capability: &str, scope: &str, verb: Verb) -> AuthorityClaim {
    AuthorityClaim {
        capability: capability.into(),
        scope: scope.into(),
        verb,
    }
}

/// The plan of reference/adk.md §6 case 30: entry → fetch_report → notify, plus an orphan call
/// whose `delete` claim is not reachable. Its authority set is [inbox/ops/create,
/// report/quarterly/read].
pub fn plan_ops() -> Vec<Op> {
    vec![
        op(
            "o1",
            1,
            json!({"op": "add_node", "node": {"id": "entry", "kind": "entry", "definition": {
                "input": [{"path": "folder", "type": "string"}]}}}),
        ),
        call(
            "o2",
            2,
            "fetch_report",
            json!([{"capability": "report", "scope": "quarterly", "verb": "read"}]),
        ),
        call(
            "o3",
            3,
            "notify",
            json!([{"capability": "inbox", "scope": "ops", "verb": "create"}]),
        ),
        call(
            "o4",
            4,
            "orphan",
            json!([{"capability": "fs", "scope": "/", "verb": "delete"}]),
        ),
        op(
            "o5",
            5,
            json!({"op": "add_edge", "edge": {"id": "e0", "from": "entry", "to": "fetch_report", "handle": "always"}}),
        ),
        op(
            "o6",
            6,
            json!({"op": "add_edge", "edge": {"id": "e1", "from": "fetch_report", "to": "notify", "handle": "always"}}),
        ),
    ]
}

/// An edit of `fetch_report`'s path argument, as in case 29's stale-digest refusal.
fn dangerous_edit() -> Op {
    op(
        "o7",
        7,
        json!({"op": "set_node_field", "nodeId": "fetch_report", "path": "args.path",
               "value": "a scratch folder/DANGEROUS"}),
    )
}

fn code<T: std::fmt::Debug>(result: Result<T, StoreError>) -> &'static str {
    match result {
        Ok(value) => panic!("expected a refusal, got {value:?}"),
        Err(error) => {
            assert!(
                error.to_string().starts_with(error.code()),
                "the message opens with its code: {error}"
            );
            error.code()
        }
    }
}

fn editable(store: &impl PlanStore, plan_id: &str) -> PlanSummary {
    store.create(plan_id, NewPlan::default()).expect("create");
    store.append_ops(plan_id, &plan_ops(), Some(0)).expect("append")
}

fn frozen(store: &impl PlanStore, plan_id: &str) -> PlanSummary {
    let summary = editable(store, plan_id);
    store.freeze(plan_id, &summary.digest).expect("freeze")
}

fn view(store: &impl PlanStore, plan_id: &str) -> PlanView {
    store.read_plan(plan_id).expect("read").view
}

fn record(store: &impl PlanStore, plan_id: &str) -> ApprovalRecord {
    ApprovalRecord::for_view(&view(store, plan_id), "ann", AT)
}

fn approved(store: &impl PlanStore, plan_id: &str) -> PlanSummary {
    frozen(store, plan_id);
    store.approve(plan_id, &record(store, plan_id)).expect("approve")
}

fn unchanged(store: &impl PlanStore, before: &PlanSummary) {
    assert_eq!(
        &store.read_state(&before.plan_id).expect("read"),
        before,
        "a refusal changes nothing"
    );
}

/// A new plan is editable at revision 0 with the empty log's digest, no approval, no run.
pub fn a_new_plan_is_editable_at_revision_zero(store: &impl PlanStore) {
    let new = NewPlan {
        label: Some("quarterly".into()),
        provenance: None,
    };
    let summary = store.create("plan-a", new).expect("create");
    assert_eq!(summary.state, PlanState::Editable);
    assert_eq!(summary.revision, 0);
    assert_eq!(summary.digest, digest(&PlanView::empty("plan-a")));
    assert_eq!(summary.label.as_deref(), Some("quarterly"));
    assert_eq!((summary.approval.as_ref(), summary.run_id.as_ref()), (None, None));
    assert_eq!(store.read_state("plan-a").expect("read"), summary);
    assert_eq!(store.read_ops("plan-a", None).expect("ops"), []);
}

/// A plan id is taken once; an empty id is refused.
pub fn a_taken_or_empty_id_is_refused(store: &impl PlanStore) {
    let first = editable(store, "plan-a");
    assert_eq!(code(store.create("plan-a", NewPlan::default())), "duplicate_id");
    unchanged(store, &first);
    assert_eq!(code(store.create("", NewPlan::default())), "invalid_id");
}

/// Every call on a plan that does not exist names it with `plan_missing`.
pub fn a_missing_plan_is_named(store: &impl PlanStore) {
    assert_eq!(code(store.read_state("plan-x")), "plan_missing");
    assert_eq!(code(store.read_ops("plan-x", None)), "plan_missing");
    assert_eq!(code(store.append_ops("plan-x", &plan_ops(), None)), "plan_missing");
    assert_eq!(code(store.freeze("plan-x", "00")), "plan_missing");
    assert_eq!(code(store.unfreeze("plan-x")), "plan_missing");
    assert_eq!(code(store.claim_run("plan-x", "00", "run-1")), "plan_missing");
    let error = store.read_state("plan-x").unwrap_err();
    assert!(error.to_string().contains("plan-x"), "{error}");
}

/// Appends count distinct ops; ops are read back in append order, whole or as a prefix.
pub fn appends_advance_the_revision_in_append_order(store: &impl PlanStore) {
    store.create("plan-a", NewPlan::default()).expect("create");
    let ops = plan_ops();
    // Appended out of lamport order: the log keeps append order, the fold sorts.
    let reversed: Vec<Op> = ops.iter().rev().cloned().collect();
    let after_first = store.append_ops("plan-a", &reversed[..2], None).expect("append");
    assert_eq!(after_first.revision, 2);
    let summary = store.append_ops("plan-a", &reversed[2..], Some(2)).expect("append");
    assert_eq!(summary.revision, 6);
    assert_ne!(summary.digest, after_first.digest);
    assert_eq!(summary.digest, digest(&writ_plan::fold("plan-a", &ops, None).view));
    assert_eq!(store.read_ops("plan-a", None).expect("ops"), reversed);
    assert_eq!(store.read_ops("plan-a", Some(2)).expect("ops"), reversed[..2]);
    assert_eq!(store.read_ops("plan-a", Some(0)).expect("ops"), []);
    assert_eq!(code(store.read_ops("plan-a", Some(7))), "revision_missing");
}

/// An append against a revision the plan has moved past is refused, and changes nothing.
pub fn a_moved_revision_refuses_the_append(store: &impl PlanStore) {
    let before = editable(store, "plan-a");
    let error = store.append_ops("plan-a", &[dangerous_edit()], Some(5)).unwrap_err();
    assert_eq!(
        error,
        StoreError::RevisionMoved {
            plan_id: "plan-a".into(),
            expected: 5,
            actual: 6,
            state: PlanState::Editable
        }
    );
    unchanged(store, &before);
}

/// An op appended twice (in one batch or two, even against a stale revision) is kept once:
/// revision and digest do not change.
pub fn a_duplicated_op_changes_nothing(store: &impl PlanStore) {
    let before = editable(store, "plan-a");
    let again = store.append_ops("plan-a", &plan_ops()[..1], None).expect("append");
    assert_eq!(again, before);
    let retried = store.append_ops("plan-a", &plan_ops()[2..4], Some(2)).expect("append");
    assert_eq!(
        retried, before,
        "a wholly stored batch is a retry, whatever revision it expected"
    );
    let edit = dangerous_edit();
    let summary = store
        .append_ops("plan-a", &[edit.clone(), edit], Some(6))
        .expect("append");
    assert_eq!(summary.revision, 7);
    assert_eq!(store.read_ops("plan-a", None).expect("ops").len(), 7);
}

/// The same ops appended in another order (and in other batches) give the same digest and the
/// same authority set; the revision counts them alike.
pub fn authoring_order_changes_neither_digest_nor_authority(store: &impl PlanStore) {
    let forward = editable(store, "plan-a");
    store.create("plan-b", NewPlan::default()).expect("create");
    let mut shuffled = plan_ops();
    shuffled.rotate_left(4);
    shuffled.swap(0, 3);
    for op in shuffled.iter().rev() {
        store
            .append_ops("plan-b", std::slice::from_ref(op), None)
            .expect("append");
    }
    let backward = store.read_plan("plan-b").expect("read");
    assert_eq!(backward.summary.revision, forward.revision);
    let renamed = PlanView {
        plan_id: "plan-a".into(),
        ..backward.view.clone()
    };
    assert_eq!(digest(&renamed), forward.digest, "only the plan id differs");
    assert_eq!(
        writ_plan::authority_set(&backward.view),
        writ_plan::authority_set(&view(store, "plan-a"))
    );
}

/// An op id stored once cannot be reused for an op with other content.
pub fn an_op_id_reused_for_other_content_is_refused(store: &impl PlanStore) {
    let before = editable(store, "plan-a");
    let mut other = dangerous_edit();
    other.op_id = "o1".into();
    assert_eq!(code(store.append_ops("plan-a", &[other.clone()], None)), "op_conflict");
    let mut twin = other.clone();
    twin.op_id = "o9".into();
    other.op_id = "o9".into();
    twin.lamport += 1;
    assert_eq!(code(store.append_ops("plan-a", &[other, twin], None)), "op_conflict");
    unchanged(store, &before);
}

/// Ops are refused with `not_editable` while a plan is reviewable or executable.
pub fn appends_are_refused_unless_editable(store: &impl PlanStore) {
    let reviewable = frozen(store, "plan-a");
    let error = store.append_ops("plan-a", &[dangerous_edit()], None).unwrap_err();
    assert_eq!(
        error,
        StoreError::NotEditable {
            plan_id: "plan-a".into(),
            state: PlanState::Reviewable,
            revision: 6
        }
    );
    unchanged(store, &reviewable);
    let executable = approved(store, "plan-b");
    assert_eq!(
        code(store.append_ops("plan-b", &[dangerous_edit()], None)),
        "not_editable"
    );
    unchanged(store, &executable);
}

/// Freeze moves editable to reviewable only at the digest the caller checked.
pub fn freeze_needs_the_checked_digest(store: &impl PlanStore) {
    let before = editable(store, "plan-a");
    let stale = digest(&PlanView::empty("plan-a"));
    assert_eq!(code(store.freeze("plan-a", &stale)), "digest_mismatch");
    unchanged(store, &before);
    let frozen = store.freeze("plan-a", &before.digest).expect("freeze");
    assert_eq!(frozen.state, PlanState::Reviewable);
    assert_eq!((frozen.digest.as_str(), frozen.revision), (before.digest.as_str(), 6));
    assert_eq!(code(store.freeze("plan-a", &before.digest)), "state_mismatch");
}

/// Unfreeze returns a reviewable plan to editable; an editable one is refused.
pub fn unfreeze_returns_a_reviewed_plan_to_editing(store: &impl PlanStore) {
    let frozen = frozen(store, "plan-a");
    let editable = store.unfreeze("plan-a").expect("unfreeze");
    assert_eq!(editable.state, PlanState::Editable);
    assert_eq!(editable.digest, frozen.digest);
    assert_eq!(code(store.unfreeze("plan-a")), "state_mismatch");
    store
        .append_ops("plan-a", &[dangerous_edit()], Some(6))
        .expect("append");
}

/// The exact authority set, given in reverse order, approves the plan; the record is kept.
pub fn the_exact_authority_set_in_any_order_is_approved(store: &impl PlanStore) {
    let frozen = frozen(store, "plan-a");
    let mut approval = record(store, "plan-a");
    assert_eq!(
        approval.authority_set,
        [
            claim("inbox", "ops", Verb::Create),
            claim("report", "quarterly", Verb::Read)
        ],
        "reachable calls only, deduplicated and sorted"
    );
    approval.authority_set.reverse();
    let executable = store.approve("plan-a", &approval).expect("approve");
    assert_eq!(executable.state, PlanState::Executable);
    assert_eq!(
        (executable.digest.as_str(), executable.revision),
        (frozen.digest.as_str(), 6)
    );
    assert_eq!(executable.approval, Some(approval));
    assert_eq!(store.read_state("plan-a").expect("read"), executable);
}

/// A record whose set omits a claim, or grants one no reachable call makes, is refused with
/// `authority_mismatch`, and state, digest and revision stay as they were.
pub fn a_set_that_omits_or_adds_a_claim_is_refused(store: &impl PlanStore) {
    let before = frozen(store, "plan-a");
    let mut omits = record(store, "plan-a");
    omits.authority_set.retain(|claim| claim.capability != "inbox");
    let error = store.approve("plan-a", &omits).unwrap_err();
    assert_eq!(
        error,
        StoreError::AuthorityMismatch {
            plan_id: "plan-a".into(),
            missing: vec![claim("inbox", "ops", Verb::Create)],
            extra: vec![]
        }
    );
    assert!(error.to_string().contains("inbox:ops:create"), "{error}");
    unchanged(store, &before);
    let mut adds = record(store, "plan-a");
    adds.authority_set.push(claim("fs", "/", Verb::Delete));
    assert_eq!(code(store.approve("plan-a", &adds)), "authority_mismatch");
    unchanged(store, &before);
}

/// After unfreeze, an edit of `args.path` and a new freeze, the old record's digest is stale:
/// refused with `digest_mismatch`, nothing changed.
pub fn a_stale_digest_after_an_edit_is_refused(store: &impl PlanStore) {
    frozen(store, "plan-a");
    let old = record(store, "plan-a");
    store.unfreeze("plan-a").expect("unfreeze");
    let edited = store.append_ops("plan-a", &[dangerous_edit()], Some(6)).expect("edit");
    let refrozen = store.freeze("plan-a", &edited.digest).expect("refreeze");
    assert_ne!(refrozen.digest, old.digest);
    let error = store.approve("plan-a", &old).unwrap_err();
    assert_eq!(
        error,
        StoreError::DigestMismatch {
            plan_id: "plan-a".into(),
            expected: old.digest.clone(),
            actual: refrozen.digest.clone()
        }
    );
    unchanged(store, &refrozen);
    store
        .approve("plan-a", &record(store, "plan-a"))
        .expect("approve the plan as it is");
}

/// A record naming another plan is refused with `plan_mismatch`, nothing changed.
pub fn another_plans_record_is_refused(store: &impl PlanStore) {
    let before = frozen(store, "plan-a");
    frozen(store, "plan-b");
    let for_b = record(store, "plan-b");
    assert_eq!(code(store.approve("plan-a", &for_b)), "plan_mismatch");
    let mut renamed = record(store, "plan-a");
    renamed.plan_id = "plan-b".into();
    assert_eq!(code(store.approve("plan-a", &renamed)), "plan_mismatch");
    unchanged(store, &before);
}

/// Only a reviewable plan can be approved: an editable or an executable one is refused.
pub fn only_a_reviewable_plan_is_approved(store: &impl PlanStore) {
    let before = editable(store, "plan-a");
    let approval = record(store, "plan-a");
    assert_eq!(code(store.approve("plan-a", &approval)), "state_mismatch");
    unchanged(store, &before);
    let executable = approved(store, "plan-b");
    assert_eq!(
        code(store.approve("plan-b", &record(store, "plan-b"))),
        "state_mismatch"
    );
    unchanged(store, &executable);
}

/// Unfreezing an approved plan that has not run returns it to editable and voids its approval;
/// it must be frozen and approved again before it can run.
pub fn unfreezing_an_approved_plan_voids_its_approval(store: &impl PlanStore) {
    let executable = approved(store, "plan-a");
    let editable = store.unfreeze("plan-a").expect("unfreeze");
    assert_eq!(editable.state, PlanState::Editable);
    assert_eq!(editable.approval, None);
    assert_eq!(
        code(store.claim_run("plan-a", &executable.digest, "run-1")),
        "not_executable"
    );
    store.freeze("plan-a", &executable.digest).expect("freeze");
    assert_eq!(
        code(store.claim_run("plan-a", &executable.digest, "run-1")),
        "not_executable"
    );
    store.approve("plan-a", &record(store, "plan-a")).expect("approve");
    store.claim_run("plan-a", &executable.digest, "run-1").expect("claim");
}

/// A run is claimed only on an executable plan, at its approved digest.
pub fn a_run_needs_an_approved_plan_at_its_digest(store: &impl PlanStore) {
    let editable = editable(store, "plan-a");
    assert_eq!(
        code(store.claim_run("plan-a", &editable.digest, "run-1")),
        "not_executable"
    );
    let reviewable = store.freeze("plan-a", &editable.digest).expect("freeze");
    assert_eq!(
        code(store.claim_run("plan-a", &editable.digest, "run-1")),
        "not_executable"
    );
    unchanged(store, &reviewable);
    let executable = store.approve("plan-a", &record(store, "plan-a")).expect("approve");
    let other = digest(&PlanView::empty("plan-a"));
    assert_eq!(code(store.claim_run("plan-a", &other, "run-1")), "digest_mismatch");
    assert_eq!(code(store.claim_run("plan-a", &executable.digest, "")), "invalid_id");
    unchanged(store, &executable);
    let claimed = store.claim_run("plan-a", &executable.digest, "run-1").expect("claim");
    assert_eq!(claimed.run_id.as_deref(), Some("run-1"));
    assert_eq!(claimed.state, PlanState::Executable);
}

/// Of three claims made at once from three threads, exactly one wins; the others are told the
/// winner's run id.
pub fn concurrent_claims_have_one_winner(store: &impl PlanStore) {
    let digest = approved(store, "plan-a").digest;
    let contenders = ["run-1", "run-2", "run-3"];
    let barrier = Barrier::new(contenders.len());
    let results: Vec<Result<PlanSummary, StoreError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = contenders
            .iter()
            .map(|run_id| {
                let (barrier, digest) = (&barrier, &digest);
                scope.spawn(move || {
                    barrier.wait();
                    store.claim_run("plan-a", digest, run_id)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().expect("a claim thread"))
            .collect()
    });
    let winners: Vec<&PlanSummary> = results.iter().filter_map(|result| result.as_ref().ok()).collect();
    assert_eq!(winners.len(), 1, "{results:?}");
    let winner = winners[0].run_id.clone().expect("the winner's run id");
    for result in &results {
        if let Err(error) = result {
            assert_eq!(
                *error,
                StoreError::RunAlreadyClaimed {
                    plan_id: "plan-a".into(),
                    run_id: winner.clone()
                }
            );
        }
    }
    assert_eq!(store.read_state("plan-a").expect("read").run_id, Some(winner));
}

/// A plan has one run, ever: a second claim is refused naming the first, and a plan that ran
/// cannot be unfrozen (clone it instead).
pub fn a_plan_runs_once_ever(store: &impl PlanStore) {
    let executable = approved(store, "plan-a");
    let claimed = store.claim_run("plan-a", &executable.digest, "run-1").expect("claim");
    let error = store.claim_run("plan-a", &executable.digest, "run-2").unwrap_err();
    assert_eq!(
        error,
        StoreError::RunAlreadyClaimed {
            plan_id: "plan-a".into(),
            run_id: "run-1".into()
        }
    );
    assert_eq!(
        code(store.claim_run("plan-a", &executable.digest, "run-1")),
        "run_already_claimed"
    );
    assert_eq!(code(store.unfreeze("plan-a")), "illegal_transition");
    unchanged(store, &claimed);
}

/// A run id names one run in the whole store.
pub fn run_ids_are_unique_across_plans(store: &impl PlanStore) {
    let a = approved(store, "plan-a");
    let b = approved(store, "plan-b");
    store.claim_run("plan-a", &a.digest, "run-1").expect("claim");
    assert_eq!(code(store.claim_run("plan-b", &b.digest, "run-1")), "duplicate_id");
    unchanged(store, &b);
    store.claim_run("plan-b", &b.digest, "run-2").expect("claim");
}

/// A clone of an executed plan is editable, unapproved and run-less, with provenance naming
/// the parent, its digest and its revision; its digest covers that provenance.
pub fn a_clone_is_editable_unapproved_and_runless(store: &impl PlanStore) {
    let parent = approved(store, "plan-a");
    store.claim_run("plan-a", &parent.digest, "run-1").expect("claim");
    let clone = store.clone_plan("plan-a", "plan-b", None).expect("clone");
    assert_eq!(clone.plan_id, "plan-b");
    assert_eq!(clone.state, PlanState::Editable);
    assert_eq!((clone.approval.as_ref(), clone.run_id.as_ref()), (None, None));
    assert_eq!(clone.revision, 6);
    assert_eq!(
        clone.provenance,
        Some(Provenance::Clone {
            parent: "plan-a".into(),
            parent_digest: parent.digest.clone(),
            parent_revision: 6,
            completed_at_clone: vec![],
        })
    );
    assert_eq!(store.read_ops("plan-b", None).expect("ops"), plan_ops());
    let plan = store.read_plan("plan-b").expect("read");
    assert_eq!(plan.view.provenance, clone.provenance);
    assert_eq!(clone.digest, digest(&plan.view));
    assert_ne!(clone.digest, parent.digest);
    store
        .append_ops("plan-b", &[dangerous_edit()], Some(6))
        .expect("a clone is editable");
    let parent_now = store.read_state("plan-a").expect("read");
    assert_eq!((parent_now.revision, parent_now.digest), (6, parent.digest));
}

/// A clone at a revision copies that prefix of the log and records the parent's digest there.
pub fn a_clone_at_a_revision_copies_that_prefix(store: &impl PlanStore) {
    editable(store, "plan-a");
    let clone = store.clone_plan("plan-a", "plan-b", Some(3)).expect("clone");
    assert_eq!(clone.revision, 3);
    assert_eq!(store.read_ops("plan-b", None).expect("ops"), plan_ops()[..3]);
    let at_three = writ_plan::fold("plan-a", &plan_ops()[..3], None).view;
    let Some(Provenance::Clone {
        parent_digest,
        parent_revision,
        ..
    }) = clone.provenance
    else {
        panic!("a clone has clone provenance")
    };
    assert_eq!((parent_digest, parent_revision), (digest(&at_three), 3));
    let empty = store.clone_plan("plan-a", "plan-c", Some(0)).expect("clone");
    assert_eq!(empty.revision, 0);
}

/// A clone goes through the lifecycle like any plan: frozen at its digest, approved, run.
pub fn a_clone_can_be_frozen_and_approved(store: &impl PlanStore) {
    let parent = approved(store, "plan-a");
    store.claim_run("plan-a", &parent.digest, "run-1").expect("claim");
    let clone = store.clone_plan("plan-a", "plan-b", None).expect("clone");
    let frozen = store.freeze("plan-b", &clone.digest).expect("freeze");
    assert_eq!(frozen.state, PlanState::Reviewable);
    let executable = store.approve("plan-b", &record(store, "plan-b")).expect("approve");
    store.claim_run("plan-b", &executable.digest, "run-2").expect("claim");
}

/// Cloning names what is wrong: no source, no such revision, a taken id.
pub fn clone_refusals_are_named(store: &impl PlanStore) {
    editable(store, "plan-a");
    store.create("plan-b", NewPlan::default()).expect("create");
    assert_eq!(code(store.clone_plan("plan-x", "plan-c", None)), "source_missing");
    assert_eq!(code(store.clone_plan("plan-a", "plan-c", Some(7))), "revision_missing");
    assert_eq!(code(store.clone_plan("plan-a", "plan-b", None)), "duplicate_id");
    assert_eq!(code(store.clone_plan("plan-a", "", None)), "invalid_id");
    assert_eq!(code(store.read_state("plan-c")), "plan_missing");
    assert_eq!(store.read_state("plan-b").expect("read").revision, 0);
}

/// `list` gives every plan's summary, ordered by plan id (byte order).
pub fn list_gives_every_plan_by_id(store: &impl PlanStore) {
    assert_eq!(store.list().expect("list"), []);
    let b = frozen(store, "plan-b");
    let a = editable(store, "plan-a");
    let c = store.clone_plan("plan-a", "plan-c", Some(1)).expect("clone");
    assert_eq!(store.list().expect("list"), [a, b, c]);
}
