//! The conformance suite every [`PlanStore`] and [`RunStore`] passes: the store contract as
//! cases, written once.
//!
//! Each case is a public function taking a fresh, empty store;
//! [`plan_store_conformance!`](crate::plan_store_conformance) and
//! [`run_store_conformance!`](crate::run_store_conformance) turn the whole lists into `#[test]`s
//! for one implementation:
//!
//! ```text
//! writ_store::plan_store_conformance!(Box::new(writ_store::MemoryStore::new()));
//! writ_store::run_store_conformance!(Box::new(writ_store::MemoryStore::new()));
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
use std::time::Duration;

use serde_json::{Value as Json, json};
use writ_plan::{ApprovalRecord, AuthorityClaim, BranchId, Op, PlanView, Provenance, RouteSegment, Verb, digest};

use crate::run::{FrameRef, NodeError, NodeOutcome, RunOutcome, RunStatus};
use crate::{NewPlan, PlanState, PlanStore, PlanSummary, RunBatch, RunEvent, RunStore, RunSummary, StoreError};

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
        $crate::conformance_cases!($make; $($case),*);
    };
}

/// Expands to one `#[test]` per run conformance case, each given a fresh store from `$make` (an
/// expression dereferencing to a [`RunStore`], evaluated once per case).
#[macro_export]
macro_rules! run_store_conformance {
    ($make:expr) => {
        $crate::conformance_cases!($make;
            a_claimed_run_starts_with_an_empty_log,
            run_events_are_read_back_in_append_order,
            a_batch_list_is_all_or_nothing,
            acquire_takes_a_free_own_or_expired_lease,
            a_dead_owners_live_lease_is_taken_over,
            a_taken_over_lease_fences_the_old_owner,
            release_gives_the_lease_up,
            status_follows_the_log_and_the_lease,
            completed_and_failed_runs_stay_settled,
            list_runs_orders_by_run_id_and_filters_by_plan,
            a_missing_run_is_named,
            a_clone_records_what_its_parents_run_completed,
        );
    };
}

/// The `#[test]`s of both conformance macros.
#[doc(hidden)]
#[macro_export]
macro_rules! conformance_cases {
    ($make:expr; $($case:ident),* $(,)?) => {
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
    PlanView::clone(&store.read_plan(plan_id).expect("read").view)
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
        ..PlanView::clone(&backward.view)
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

// Runs.

/// A lease long enough never to run out during a case.
const LONG: Duration = Duration::from_secs(600);

/// A lease that runs out during a case: cases that need it expired sleep [`EXPIRED`].
const SHORT: Duration = Duration::from_millis(50);

/// Long enough past [`SHORT`] for its lease to have run out.
const EXPIRED: Duration = Duration::from_millis(120);

fn claimed(store: &impl RunStore, plan_id: &str, run_id: &str) -> PlanSummary {
    let executable = approved(store, plan_id);
    store.claim_run(plan_id, &executable.digest, run_id).expect("claim")
}

fn frame(node_id: &str, edges: &[&str]) -> FrameRef {
    FrameRef {
        node_id: node_id.into(),
        kind: if node_id == "entry" { "entry" } else { "call" }.into(),
        branch_id: std::sync::Arc::new(BranchId {
            segments: edges.iter().map(|edge| RouteSegment::Edge((*edge).into())).collect(),
        }),
        via_edge_id: edges.last().map(|edge| (*edge).into()),
    }
}

fn started(run_id: &str, plan_id: &str) -> RunEvent {
    RunEvent::RunStarted {
        run_id: run_id.into(),
        plan_id: plan_id.into(),
        digest: "00".into(),
        input: json!({"folder": "a scratch folder"}),
        at: 1,
    }
}

fn entered(frame: &FrameRef) -> RunEvent {
    RunEvent::NodeEntered {
        frame: frame.clone(),
        parents: vec![],
        idempotency_key: (frame.kind == "call").then(|| format!("key-{}", frame.key())),
        at: 2,
    }
}

fn settled(frame: &FrameRef, outcome: NodeOutcome) -> RunEvent {
    RunEvent::NodeSettled {
        frame: frame.key(),
        outcome,
        verdict: None,
        host_reads: vec![],
        attempts: None,
        at: 3,
    }
}

fn ok(output: Json) -> NodeOutcome {
    NodeOutcome::Ok { output: vec![output] }
}

fn failed() -> NodeOutcome {
    NodeOutcome::Failed {
        handled: false,
        error: NodeError {
            code: "tool_failed".into(),
            message: "the tool answered 500".into(),
        },
    }
}

fn run_settled(outcome: RunOutcome) -> RunEvent {
    RunEvent::RunSettled { outcome, at: 9 }
}

/// A run's first events: started, the entry entered and settled, the edge to `fetch_report`.
fn opening(run_id: &str, plan_id: &str) -> Vec<RunEvent> {
    let entry = frame("entry", &[]);
    vec![
        started(run_id, plan_id),
        entered(&entry),
        settled(&entry, ok(json!({"folder": "a scratch folder"}))),
        RunEvent::EdgeTaken {
            edge_id: "e0".into(),
            handle: "always".into(),
            from: entry.key(),
            to: frame("fetch_report", &["e0"]),
            at: 4,
        },
    ]
}

fn append(store: &impl RunStore, owner: &str, run_id: &str, events: &[RunEvent]) -> Result<(), StoreError> {
    store.append_run_events(owner, &[RunBatch { run_id, events }])
}

fn status(store: &impl RunStore, run_id: &str) -> RunStatus {
    store.read_run(run_id).expect("read run").status
}

/// A claimed run exists with an empty log, belongs to its plan, and is listed; nobody holds its
/// lease until one acquires it.
pub fn a_claimed_run_starts_with_an_empty_log(store: &impl RunStore) {
    claimed(store, "plan-a", "run-1");
    let summary = store.read_run("run-1").expect("read run");
    assert_eq!(
        summary,
        RunSummary {
            run_id: "run-1".into(),
            plan_id: "plan-a".into(),
            status: RunStatus::Abandoned,
            events: 0,
        }
    );
    assert_eq!(store.read_run_events("run-1").expect("events"), []);
    assert_eq!(store.list_runs(None).expect("list"), [summary]);
    let acquired = store.acquire_run("run-1", "w1", LONG).expect("acquire");
    assert_eq!((acquired.status, acquired.events), (RunStatus::Running, 0));
}

/// Batches are read back in the order appended, one batch after another and batch by batch in
/// one call; the event count follows. Events read back equal those written, field for field.
pub fn run_events_are_read_back_in_append_order(store: &impl RunStore) {
    claimed(store, "plan-a", "run-1");
    store.acquire_run("run-1", "w1", LONG).expect("acquire");
    let mut log = opening("run-1", "plan-a");
    append(store, "w1", "run-1", &log[..1]).expect("append");
    append(store, "w1", "run-1", &[]).expect("an empty batch");
    let fetch = frame("fetch_report", &["e0"]);
    let tail = [
        entered(&fetch),
        settled(&fetch, ok(json!({"rows": [1, 2.5, "three", null, {"nested": [true]}]}))),
    ];
    store
        .append_run_events(
            "w1",
            &[
                RunBatch {
                    run_id: "run-1",
                    events: &log[1..],
                },
                RunBatch {
                    run_id: "run-1",
                    events: &tail,
                },
            ],
        )
        .expect("append two batches at once");
    log.extend(tail);
    assert_eq!(store.read_run_events("run-1").expect("events"), log);
    let summary = store.read_run("run-1").expect("read run");
    assert_eq!((summary.events, summary.status), (6, RunStatus::Running));
}

/// A list of batches commits whole or not at all: one missing run, or one run whose lease
/// another owner holds, and none of the batches — the other runs' included — is appended.
pub fn a_batch_list_is_all_or_nothing(store: &impl RunStore) {
    claimed(store, "plan-a", "run-1");
    claimed(store, "plan-b", "run-2");
    claimed(store, "plan-c", "run-3");
    store.acquire_run("run-1", "w1", LONG).expect("acquire");
    store.acquire_run("run-2", "w1", LONG).expect("acquire");
    store.acquire_run("run-3", "w2", LONG).expect("acquire");
    let one = opening("run-1", "plan-a");
    let two = opening("run-2", "plan-b");
    let missing = store.append_run_events(
        "w1",
        &[
            RunBatch {
                run_id: "run-1",
                events: &one,
            },
            RunBatch {
                run_id: "run-2",
                events: &two,
            },
            RunBatch {
                run_id: "run-x",
                events: &two,
            },
        ],
    );
    assert_eq!(missing, Err(StoreError::RunMissing { run_id: "run-x".into() }));
    let foreign = store.append_run_events(
        "w1",
        &[
            RunBatch {
                run_id: "run-1",
                events: &one,
            },
            RunBatch {
                run_id: "run-3",
                events: &two,
            },
            RunBatch {
                run_id: "run-2",
                events: &two,
            },
        ],
    );
    assert_eq!(
        foreign,
        Err(StoreError::LeaseLost {
            run_id: "run-3".into(),
            owner: Some("w2".into())
        })
    );
    for run_id in ["run-1", "run-2", "run-3"] {
        assert_eq!(store.read_run_events(run_id).expect("events"), [], "{run_id}");
        assert_eq!(store.read_run(run_id).expect("read run").events, 0, "{run_id}");
    }
    store
        .append_run_events(
            "w1",
            &[
                RunBatch {
                    run_id: "run-2",
                    events: &two,
                },
                RunBatch {
                    run_id: "run-1",
                    events: &one,
                },
            ],
        )
        .expect("append to both");
    assert_eq!(store.read_run_events("run-1").expect("events"), one);
    assert_eq!(store.read_run_events("run-2").expect("events"), two);
}

/// Acquire takes a free lease, renews the caller's own, and takes one that ran out; a live
/// lease of another owner refuses it with `run_in_use`, naming the owner.
pub fn acquire_takes_a_free_own_or_expired_lease(store: &impl RunStore) {
    claimed(store, "plan-a", "run-1");
    store.acquire_run("run-1", "w1", SHORT).expect("a free lease");
    store.acquire_run("run-1", "w1", LONG).expect("the caller's own lease");
    let error = store.acquire_run("run-1", "w2", LONG).unwrap_err();
    let StoreError::RunInUse {
        run_id,
        owner,
        expires_in_ms,
    } = &error
    else {
        panic!("expected run_in_use, got {error:?}")
    };
    assert_eq!((run_id.as_str(), owner.as_str()), ("run-1", "w1"));
    assert!(*expires_in_ms > 0 && *expires_in_ms <= 600_000, "{error}");
    assert!(error.to_string().contains("w1"), "{error}");
    store.renew_run("run-1", "w1", SHORT).expect("renew");
    std::thread::sleep(EXPIRED);
    let taken = store.acquire_run("run-1", "w2", LONG).expect("an expired lease");
    assert_eq!(taken.status, RunStatus::Running);
}

/// `take_over_run` takes a live lease from the owner named (a process known dead), and from
/// nobody else: when another owner got there first it answers `lease_lost`, naming it.
pub fn a_dead_owners_live_lease_is_taken_over(store: &impl RunStore) {
    claimed(store, "plan-a", "run-1");
    store.acquire_run("run-1", "dead", LONG).expect("acquire");
    assert_eq!(code(store.acquire_run("run-1", "w2", LONG)), "run_in_use");
    let taken = store.take_over_run("run-1", "w2", LONG, "dead").expect("take over");
    assert_eq!(taken.status, RunStatus::Running);
    assert_eq!(
        store.take_over_run("run-1", "w3", LONG, "dead"),
        Err(StoreError::LeaseLost {
            run_id: "run-1".into(),
            owner: Some("w2".into())
        })
    );
    assert_eq!(
        append(store, "dead", "run-1", &opening("run-1", "plan-a")),
        Err(StoreError::LeaseLost {
            run_id: "run-1".into(),
            owner: Some("w2".into())
        })
    );
    append(store, "w2", "run-1", &opening("run-1", "plan-a")).expect("the new owner appends");
}

/// Once another owner took a lease over, the old owner can neither renew it nor append, and
/// `lease_lost` names the new owner; the new owner appends.
pub fn a_taken_over_lease_fences_the_old_owner(store: &impl RunStore) {
    claimed(store, "plan-a", "run-1");
    store.acquire_run("run-1", "w1", SHORT).expect("acquire");
    let log = opening("run-1", "plan-a");
    append(store, "w1", "run-1", &log[..2]).expect("append");
    std::thread::sleep(EXPIRED);
    append(store, "w1", "run-1", &log[2..3]).expect("an expired lease nobody took is still held");
    store.acquire_run("run-1", "w2", LONG).expect("take over");
    let lost = StoreError::LeaseLost {
        run_id: "run-1".into(),
        owner: Some("w2".into()),
    };
    assert_eq!(store.renew_run("run-1", "w1", LONG), Err(lost.clone()));
    assert_eq!(append(store, "w1", "run-1", &log[3..]), Err(lost));
    assert_eq!(store.read_run("run-1").expect("read run").events, 3);
    append(store, "w2", "run-1", &log[3..]).expect("the new owner appends");
    assert_eq!(store.read_run_events("run-1").expect("events"), log);
    assert_eq!(
        code(store.acquire_run("run-1", "w1", LONG)),
        "run_in_use",
        "the old owner cannot take it back while the new one holds it"
    );
}

/// Release gives the lease up: another owner may acquire at once; releasing a lease the caller
/// does not hold changes nothing; after release nobody may append until one acquires.
pub fn release_gives_the_lease_up(store: &impl RunStore) {
    claimed(store, "plan-a", "run-1");
    store.acquire_run("run-1", "w1", LONG).expect("acquire");
    store.release_run("run-1", "w2").expect("a no-op");
    assert_eq!(code(store.acquire_run("run-1", "w2", LONG)), "run_in_use");
    assert_eq!(status(store, "run-1"), RunStatus::Running);
    store.release_run("run-1", "w1").expect("release");
    assert_eq!(status(store, "run-1"), RunStatus::Abandoned);
    assert_eq!(
        append(store, "w1", "run-1", &opening("run-1", "plan-a")),
        Err(StoreError::LeaseLost {
            run_id: "run-1".into(),
            owner: None
        })
    );
    assert_eq!(code(store.renew_run("run-1", "w1", LONG)), "lease_lost");
    store.acquire_run("run-1", "w2", LONG).expect("acquire after release");
    store.release_run("run-1", "w2").expect("release");
    store.release_run("run-1", "w2").expect("released twice");
}

/// Status is derived from the log's last event and the lease: running while a live lease is
/// held and no `run_settled` ends the log; the outcome once one does (lease or none);
/// abandoned when the lease ran out or was given up first. A halted run resumed has events past
/// its `run_settled` and is running again.
pub fn status_follows_the_log_and_the_lease(store: &impl RunStore) {
    claimed(store, "plan-a", "run-1");
    store.acquire_run("run-1", "w1", SHORT).expect("acquire");
    let mut log = opening("run-1", "plan-a");
    append(store, "w1", "run-1", &log).expect("append");
    assert_eq!(status(store, "run-1"), RunStatus::Running);
    std::thread::sleep(EXPIRED);
    assert_eq!(status(store, "run-1"), RunStatus::Abandoned, "its lease ran out");
    let resumed = store.acquire_run("run-1", "w2", LONG).expect("resume");
    assert_eq!((resumed.status, resumed.events), (RunStatus::Running, 4));
    let halt = [
        RunEvent::RunInterrupted {
            cause: "budget_exhausted".into(),
            node_id: None,
            detail: Some("maxSteps of 4 reached".into()),
            at: 8,
        },
        run_settled(RunOutcome::Halted),
    ];
    append(store, "w2", "run-1", &halt).expect("halt");
    log.extend(halt);
    assert_eq!(status(store, "run-1"), RunStatus::Settled(RunOutcome::Halted));
    store.release_run("run-1", "w2").expect("release");
    assert_eq!(status(store, "run-1"), RunStatus::Settled(RunOutcome::Halted));
    let again = store.acquire_run("run-1", "w3", LONG).expect("a halted run is resumed");
    assert_eq!(again.status, RunStatus::Settled(RunOutcome::Halted));
    let fetch = frame("fetch_report", &["e0"]);
    append(store, "w3", "run-1", &[entered(&fetch)]).expect("append");
    log.push(entered(&fetch));
    assert_eq!(status(store, "run-1"), RunStatus::Running, "events past run_settled");
    store.release_run("run-1", "w3").expect("release");
    assert_eq!(status(store, "run-1"), RunStatus::Abandoned);
    store.acquire_run("run-1", "w3", LONG).expect("acquire");
    append(store, "w3", "run-1", &[run_settled(RunOutcome::Interrupted)]).expect("abort");
    log.push(run_settled(RunOutcome::Interrupted));
    assert_eq!(status(store, "run-1"), RunStatus::Settled(RunOutcome::Interrupted));
    store
        .acquire_run("run-1", "w3", LONG)
        .expect("an interrupted run is resumed");
    let summary = store.read_run("run-1").expect("read run");
    assert_eq!(summary.events, 8);
    assert_eq!(store.read_run_events("run-1").expect("events"), log);
}

/// A run whose log ends in `run_settled` completed or failed cannot be acquired again, by
/// anyone, its last owner included (`run_already_settled`, naming the outcome).
pub fn completed_and_failed_runs_stay_settled(store: &impl RunStore) {
    for (plan_id, run_id, outcome) in [
        ("plan-a", "run-1", RunOutcome::Completed),
        ("plan-b", "run-2", RunOutcome::Failed),
    ] {
        claimed(store, plan_id, run_id);
        store.acquire_run(run_id, "w1", LONG).expect("acquire");
        let mut log = opening(run_id, plan_id);
        if outcome == RunOutcome::Failed {
            let fetch = frame("fetch_report", &["e0"]);
            log.extend([entered(&fetch), settled(&fetch, failed())]);
        }
        log.push(run_settled(outcome));
        append(store, "w1", run_id, &log).expect("append");
        assert_eq!(status(store, run_id), RunStatus::Settled(outcome));
        for owner in ["w1", "w2"] {
            let error = store.acquire_run(run_id, owner, LONG).unwrap_err();
            assert_eq!(
                error,
                StoreError::RunAlreadySettled {
                    run_id: run_id.into(),
                    outcome: outcome.name()
                }
            );
        }
        store.release_run(run_id, "w1").expect("release");
        assert_eq!(code(store.acquire_run(run_id, "w2", LONG)), "run_already_settled");
        assert_eq!(status(store, run_id), RunStatus::Settled(outcome));
    }
}

/// `list_runs` gives every run ordered by run id (byte order), or one plan's; each summary
/// names its plan, status and event count.
pub fn list_runs_orders_by_run_id_and_filters_by_plan(store: &impl RunStore) {
    assert_eq!(store.list_runs(None).expect("list"), []);
    claimed(store, "plan-a", "run-c");
    claimed(store, "plan-b", "run-a");
    claimed(store, "plan-c", "run-B");
    approved(store, "plan-d");
    store.acquire_run("run-a", "w1", LONG).expect("acquire");
    append(store, "w1", "run-a", &opening("run-a", "plan-b")).expect("append");
    let all = store.list_runs(None).expect("list");
    let ids: Vec<&str> = all.iter().map(|run| run.run_id.as_str()).collect();
    assert_eq!(ids, ["run-B", "run-a", "run-c"]);
    assert_eq!(
        all[1],
        RunSummary {
            run_id: "run-a".into(),
            plan_id: "plan-b".into(),
            status: RunStatus::Running,
            events: 4,
        }
    );
    assert_eq!((all[0].plan_id.as_str(), all[0].events), ("plan-c", 0));
    for summary in &all {
        assert_eq!(&store.read_run(&summary.run_id).expect("read run"), summary);
    }
    assert_eq!(store.list_runs(Some("plan-a")).expect("list"), [all[2].clone()]);
    assert_eq!(store.list_runs(Some("plan-d")).expect("list"), []);
    assert_eq!(store.list_runs(Some("plan-x")).expect("list"), []);
}

/// Every run call on a run id no plan claimed is refused with `run_missing`, naming it.
pub fn a_missing_run_is_named(store: &impl RunStore) {
    claimed(store, "plan-a", "run-1");
    assert_eq!(code(store.acquire_run("run-x", "w1", LONG)), "run_missing");
    assert_eq!(code(store.renew_run("run-x", "w1", LONG)), "run_missing");
    assert_eq!(code(store.release_run("run-x", "w1")), "run_missing");
    assert_eq!(code(append(store, "w1", "run-x", &[])), "run_missing");
    assert_eq!(code(store.read_run_events("run-x")), "run_missing");
    assert_eq!(code(store.read_run("run-x")), "run_missing");
    let error = store.read_run("run-x").unwrap_err();
    assert!(error.to_string().contains("run-x"), "{error}");
}

/// A clone of a plan whose run settled nodes lists, as `completedAtClone`, the nodes settled
/// `ok` — each once, sorted — and not those that failed, were skipped or merged; its digest
/// covers the list.
pub fn a_clone_records_what_its_parents_run_completed(store: &impl RunStore) {
    claimed(store, "plan-a", "run-1");
    store.acquire_run("run-1", "w1", LONG).expect("acquire");
    let fetch = frame("fetch_report", &["e0"]);
    let fetch_again = frame("fetch_report", &["e0", "e9"]);
    let notify = frame("notify", &["e0", "e1"]);
    let orphan = frame("orphan", &["e7"]);
    let mut log = opening("run-1", "plan-a");
    log.extend([
        entered(&notify),
        settled(&notify, failed()),
        entered(&fetch),
        settled(&fetch, ok(json!(1))),
        entered(&fetch_again),
        settled(&fetch_again, ok(json!(2))),
        entered(&orphan),
        settled(
            &orphan,
            NodeOutcome::Skipped {
                reason: "indeterminate_skip".into(),
            },
        ),
        settled(
            &frame("join", &["e3"]),
            NodeOutcome::Merged {
                into: "join:j4:join(e2:e3)".into(),
            },
        ),
    ]);
    append(store, "w1", "run-1", &log).expect("append");
    let clone = store.clone_plan("plan-a", "plan-b", None).expect("clone");
    let Some(Provenance::Clone { completed_at_clone, .. }) = &clone.provenance else {
        panic!("a clone has clone provenance")
    };
    assert_eq!(completed_at_clone, &["entry", "fetch_report"]);
    let plan = store.read_plan("plan-b").expect("read");
    assert_eq!(plan.view.provenance, clone.provenance);
    assert_eq!(clone.digest, digest(&plan.view));
    let at_two = store.clone_plan("plan-a", "plan-c", Some(2)).expect("clone");
    let Some(Provenance::Clone {
        completed_at_clone: at_two,
        ..
    }) = at_two.provenance
    else {
        panic!("a clone has clone provenance")
    };
    assert_eq!(
        at_two,
        ["entry", "fetch_report"],
        "the run's settlements, whatever the prefix"
    );
    let unrun = store.clone_plan("plan-b", "plan-d", None).expect("clone");
    let Some(Provenance::Clone {
        completed_at_clone: none,
        ..
    }) = unrun.provenance
    else {
        panic!("a clone has clone provenance")
    };
    assert_eq!(none, Vec::<String>::new(), "a plan that never ran completed nothing");
}
