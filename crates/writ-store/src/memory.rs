//! A plan store in memory: for tests, and for runs that keep nothing.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use writ_plan::{ApprovalRecord, Op};

use crate::rules::{self, FoldedPlan, Record};
use crate::run::{self, Lease, RunBatch, RunEvent, RunStore, RunSummary};
use crate::{NewPlan, PlanStore, PlanSummary, StoreError, StoredPlan};

/// A [`PlanStore`] and [`RunStore`] in memory. One lock guards every plan, so each call is atomic; nothing
/// survives the value.
#[derive(Debug, Default)]
pub struct MemoryStore {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    plans: BTreeMap<String, Stored>,
    runs: BTreeMap<String, StoredRun>,
}

#[derive(Debug)]
struct StoredRun {
    plan_id: String,
    events: Vec<RunEvent>,
    lease: Option<Lease>,
}

impl StoredRun {
    fn summary(&self, run_id: &str, now: u64) -> RunSummary {
        RunSummary {
            run_id: run_id.to_owned(),
            plan_id: self.plan_id.clone(),
            status: run::status(run::settled_outcome(&self.events), self.lease.as_ref(), now),
            events: self.events.len() as u64,
        }
    }
}

#[derive(Debug)]
struct Stored {
    record: Record,
    ops: Vec<Op>,
    by_op_id: HashMap<String, usize>,
    /// The fold of `ops`, made at the first read after they last changed.
    folded: OnceLock<FoldedPlan>,
}

impl Stored {
    fn new(record: Record, ops: Vec<Op>) -> Stored {
        let by_op_id = ops.iter().enumerate().map(|(at, op)| (op.op_id.clone(), at)).collect();
        Stored {
            record,
            ops,
            by_op_id,
            folded: OnceLock::new(),
        }
    }

    fn folded(&self) -> &FoldedPlan {
        self.folded.get_or_init(|| self.record.fold(&self.ops))
    }

    fn read(&self) -> StoredPlan {
        self.record.read_folded(self.folded())
    }

    fn summary(&self) -> PlanSummary {
        self.record.summary(self.folded())
    }
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // Every call changes the map only after all its checks passed, so a panic elsewhere
        // while the lock was held cannot have left a plan half-changed.
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Inner {
    fn run(&mut self, run_id: &str) -> Result<&mut StoredRun, StoreError> {
        self.runs.get_mut(run_id).ok_or_else(|| StoreError::RunMissing {
            run_id: run_id.to_owned(),
        })
    }

    fn plan(&mut self, plan_id: &str) -> Result<&mut Stored, StoreError> {
        self.plans.get_mut(plan_id).ok_or_else(|| StoreError::PlanMissing {
            plan_id: plan_id.to_owned(),
        })
    }

    /// Applies a rule to a copy of the plan's record and keeps the copy only if the rule passed.
    fn transition(
        &mut self,
        plan_id: &str,
        rule: impl FnOnce(&mut Record, &StoredPlan) -> Result<(), StoreError>,
    ) -> Result<PlanSummary, StoreError> {
        let stored = self.plan(plan_id)?;
        let plan = stored.read();
        let mut record = stored.record.clone();
        rule(&mut record, &plan)?;
        stored.record = record;
        Ok(stored.summary())
    }
}

impl PlanStore for MemoryStore {
    fn create(&self, plan_id: &str, new: NewPlan) -> Result<PlanSummary, StoreError> {
        rules::check_id("plan", plan_id)?;
        let mut inner = self.lock();
        if inner.plans.contains_key(plan_id) {
            return Err(StoreError::DuplicateId {
                what: "plan",
                id: plan_id.to_owned(),
            });
        }
        let stored = Stored::new(Record::new(plan_id, new.label, new.provenance), Vec::new());
        let summary = stored.summary();
        inner.plans.insert(plan_id.to_owned(), stored);
        Ok(summary)
    }

    fn append_ops(&self, plan_id: &str, ops: &[Op], expected_revision: Option<u64>) -> Result<PlanSummary, StoreError> {
        let mut inner = self.lock();
        let stored = inner.plan(plan_id)?;
        let revision = stored.ops.len() as u64;
        let fresh = rules::new_ops(&stored.record, revision, ops, expected_revision, |op_id| {
            Ok(stored.by_op_id.get(op_id).map(|&at| stored.ops[at].clone()))
        })?;
        for op in fresh {
            stored.by_op_id.insert(op.op_id.clone(), stored.ops.len());
            stored.ops.push(op);
            stored.folded = OnceLock::new();
        }
        Ok(stored.summary())
    }

    fn read_ops(&self, plan_id: &str, through_revision: Option<u64>) -> Result<Vec<Op>, StoreError> {
        let mut inner = self.lock();
        let stored = inner.plan(plan_id)?;
        let len = rules::prefix_len(plan_id, stored.ops.len() as u64, through_revision)?;
        Ok(stored.ops[..len as usize].to_vec())
    }

    fn read_plan(&self, plan_id: &str) -> Result<StoredPlan, StoreError> {
        Ok(self.lock().plan(plan_id)?.read())
    }

    fn freeze(&self, plan_id: &str, expected_digest: &str) -> Result<PlanSummary, StoreError> {
        self.lock()
            .transition(plan_id, |record, plan| rules::freeze(record, plan, expected_digest))
    }

    fn unfreeze(&self, plan_id: &str) -> Result<PlanSummary, StoreError> {
        self.lock().transition(plan_id, |record, _| rules::unfreeze(record))
    }

    fn approve(&self, plan_id: &str, approval: &ApprovalRecord) -> Result<PlanSummary, StoreError> {
        self.lock()
            .transition(plan_id, |record, plan| rules::approve(record, plan, approval))
    }

    fn claim_run(&self, plan_id: &str, expected_digest: &str, run_id: &str) -> Result<PlanSummary, StoreError> {
        let mut inner = self.lock();
        let taken = inner.runs.contains_key(run_id);
        let summary = inner.transition(plan_id, |record, plan| {
            rules::claim_run(record, plan, expected_digest, run_id)?;
            if taken {
                return Err(StoreError::DuplicateId {
                    what: "run",
                    id: run_id.to_owned(),
                });
            }
            Ok(())
        })?;
        inner.runs.insert(
            run_id.to_owned(),
            StoredRun {
                plan_id: plan_id.to_owned(),
                events: Vec::new(),
                lease: None,
            },
        );
        Ok(summary)
    }

    fn clone_plan(&self, source: &str, new_id: &str, at_revision: Option<u64>) -> Result<PlanSummary, StoreError> {
        rules::check_id("plan", new_id)?;
        let mut inner = self.lock();
        let parent = inner.plans.get(source).ok_or_else(|| StoreError::SourceMissing {
            plan_id: source.to_owned(),
        })?;
        let len = rules::prefix_len(source, parent.ops.len() as u64, at_revision)?;
        let prefix = parent.ops[..len as usize].to_vec();
        let completed = parent
            .record
            .run_id
            .as_ref()
            .and_then(|run_id| inner.runs.get(run_id))
            .map_or_else(Vec::new, |run| run::completed_nodes(&run.events));
        let record = rules::clone_record(&parent.record, &prefix, new_id, completed);
        if inner.plans.contains_key(new_id) {
            return Err(StoreError::DuplicateId {
                what: "plan",
                id: new_id.to_owned(),
            });
        }
        let stored = Stored::new(record, prefix);
        let summary = stored.summary();
        inner.plans.insert(new_id.to_owned(), stored);
        Ok(summary)
    }

    fn list(&self) -> Result<Vec<PlanSummary>, StoreError> {
        Ok(self.lock().plans.values().map(Stored::summary).collect())
    }
}

impl RunStore for MemoryStore {
    fn acquire_run(&self, run_id: &str, owner: &str, lease: Duration) -> Result<RunSummary, StoreError> {
        let mut inner = self.lock();
        let stored = inner.run(run_id)?;
        let now = run::now_ms();
        run::check_acquire(
            run_id,
            run::settled_outcome(&stored.events),
            stored.lease.as_ref(),
            owner,
            now,
        )?;
        stored.lease = Some(Lease {
            owner: owner.to_owned(),
            until_ms: run::lease_until(now, lease),
        });
        Ok(stored.summary(run_id, now))
    }

    fn take_over_run(&self, run_id: &str, owner: &str, lease: Duration, from: &str) -> Result<RunSummary, StoreError> {
        let mut inner = self.lock();
        let stored = inner.run(run_id)?;
        let now = run::now_ms();
        run::check_acquire(run_id, run::settled_outcome(&stored.events), None, owner, now)?;
        run::check_owner(run_id, stored.lease.as_ref(), from)?;
        stored.lease = Some(Lease {
            owner: owner.to_owned(),
            until_ms: run::lease_until(now, lease),
        });
        Ok(stored.summary(run_id, now))
    }

    fn renew_run(&self, run_id: &str, owner: &str, lease: Duration) -> Result<(), StoreError> {
        let mut inner = self.lock();
        let stored = inner.run(run_id)?;
        run::check_owner(run_id, stored.lease.as_ref(), owner)?;
        stored.lease = Some(Lease {
            owner: owner.to_owned(),
            until_ms: run::lease_until(run::now_ms(), lease),
        });
        Ok(())
    }

    fn release_run(&self, run_id: &str, owner: &str) -> Result<(), StoreError> {
        let mut inner = self.lock();
        let stored = inner.run(run_id)?;
        if stored.lease.as_ref().is_some_and(|lease| lease.owner == owner) {
            stored.lease = None;
        }
        Ok(())
    }

    fn append_run_events(&self, owner: &str, batches: &[RunBatch<'_>]) -> Result<(), StoreError> {
        let mut inner = self.lock();
        for batch in batches {
            let stored = inner.run(batch.run_id)?;
            run::check_owner(batch.run_id, stored.lease.as_ref(), owner)?;
        }
        for batch in batches {
            inner.run(batch.run_id)?.events.extend_from_slice(batch.events);
        }
        Ok(())
    }

    fn read_run_events(&self, run_id: &str) -> Result<Vec<RunEvent>, StoreError> {
        Ok(self.lock().run(run_id)?.events.clone())
    }

    fn read_run(&self, run_id: &str) -> Result<RunSummary, StoreError> {
        Ok(self.lock().run(run_id)?.summary(run_id, run::now_ms()))
    }

    fn list_runs(&self, plan_id: Option<&str>) -> Result<Vec<RunSummary>, StoreError> {
        let now = run::now_ms();
        Ok(self
            .lock()
            .runs
            .iter()
            .filter(|(_, stored)| plan_id.is_none_or(|plan_id| stored.plan_id == plan_id))
            .map(|(run_id, stored)| stored.summary(run_id, now))
            .collect())
    }
}
