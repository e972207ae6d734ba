//! The embedded plan store: one SQLite file.
//!
//! Every mutation is one `BEGIN IMMEDIATE` transaction, which takes the database's write lock
//! before it reads, so two writers — threads sharing a store, or processes sharing the file —
//! never decide on the same state; the one run claim is also a conditional update under a
//! unique constraint. The file is in WAL mode, so readers do not wait for a writer, and a
//! writer that finds the lock taken waits up to [`BUSY_TIMEOUT`] before giving up with
//! `store_unavailable`.
//!
//! Schema (version 1, recorded in `writ_schema`):
//! - `plans(plan_id PRIMARY KEY, state, label, provenance, frozen_digest, approval, run_id
//!   UNIQUE)`, provenance and approval as their JSON wire forms;
//! - `plan_ops(plan_id, seq, op_id, op, PRIMARY KEY (plan_id, seq), UNIQUE (plan_id, op_id))`,
//!   each op as its JSON wire form, `seq` counting from 0 in append order.

use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};
use serde_json::Value as Json;
use writ_plan::{ApprovalRecord, Op, Provenance};

use crate::rules::{self, Record};
use crate::{NewPlan, PlanState, PlanStore, PlanSummary, StoreError, StoredPlan};

/// How long a call waits for another writer's lock before it fails with `store_unavailable`.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// The schema version this writ writes and reads.
const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE plans (
    plan_id TEXT PRIMARY KEY NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('editable', 'reviewable', 'executable')),
    label TEXT,
    provenance TEXT,
    frozen_digest TEXT,
    approval TEXT,
    run_id TEXT UNIQUE
);
CREATE TABLE plan_ops (
    plan_id TEXT NOT NULL REFERENCES plans (plan_id),
    seq INTEGER NOT NULL,
    op_id TEXT NOT NULL,
    op TEXT NOT NULL,
    PRIMARY KEY (plan_id, seq),
    UNIQUE (plan_id, op_id)
);
";

/// A [`PlanStore`] in one SQLite file, safe to share between threads and to open from several
/// processes at once.
#[derive(Debug)]
pub struct SqliteStore {
    connection: Mutex<Connection>,
}

fn db(error: rusqlite::Error) -> StoreError {
    StoreError::Unavailable {
        detail: error.to_string(),
    }
}

fn corrupt(plan_id: &str, detail: String) -> StoreError {
    StoreError::Corrupt {
        plan_id: Some(plan_id.to_owned()),
        detail,
    }
}

fn parse_json(plan_id: &str, what: &str, text: &str) -> Result<Json, StoreError> {
    serde_json::from_str(text).map_err(|error| corrupt(plan_id, format!("its {what} is not JSON: {error}")))
}

impl SqliteStore {
    /// Opens (creating if needed) the store in the file at `path`, switching it to WAL mode and
    /// creating the schema on first use. Refused with `schema_too_new` when a newer writ wrote
    /// the file.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        let mut connection = Connection::open(path).map_err(db)?;
        connection.busy_timeout(BUSY_TIMEOUT).map_err(db)?;
        connection
            .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get::<_, String>(0))
            .map_err(db)?;
        connection.pragma_update(None, "foreign_keys", true).map_err(db)?;
        let tx = connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        tx.execute(
            "CREATE TABLE IF NOT EXISTS writ_schema (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)",
            [],
        )
        .map_err(db)?;
        let version: Option<i64> = tx
            .query_row("SELECT version FROM writ_schema WHERE id = 1", [], |row| row.get(0))
            .optional()
            .map_err(db)?;
        match version {
            None => {
                tx.execute_batch(SCHEMA).map_err(db)?;
                tx.execute("INSERT INTO writ_schema (id, version) VALUES (1, ?1)", [SCHEMA_VERSION])
                    .map_err(db)?;
            }
            Some(SCHEMA_VERSION) => {}
            Some(found) if found > SCHEMA_VERSION => {
                return Err(StoreError::SchemaTooNew {
                    found,
                    supported: SCHEMA_VERSION,
                });
            }
            Some(found) => {
                return Err(StoreError::Corrupt {
                    plan_id: None,
                    detail: format!("unknown schema version {found}"),
                });
            }
        }
        tx.commit().map_err(db)?;
        Ok(SqliteStore {
            connection: Mutex::new(connection),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while the lock was held dropped its transaction, which rolled back.
        self.connection.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs `body` in one transaction that holds the write lock from its start.
    fn write<T>(&self, body: impl FnOnce(&Transaction<'_>) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let mut connection = self.lock();
        let tx = connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let value = body(&tx)?;
        tx.commit().map_err(db)?;
        Ok(value)
    }

    /// Runs `body` in one read transaction (a consistent snapshot).
    fn read<T>(&self, body: impl FnOnce(&Transaction<'_>) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let mut connection = self.lock();
        let tx = connection.transaction().map_err(db)?;
        body(&tx)
    }
}

/// The plan's record and revision, or `None` when there is no such plan.
fn load(tx: &Transaction<'_>, plan_id: &str) -> Result<Option<(Record, u64)>, StoreError> {
    type Row = (
        String,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        i64,
    );
    let row: Option<Row> = tx
        .query_row(
            "SELECT state, label, provenance, frozen_digest, approval, run_id,
                    (SELECT COUNT(*) FROM plan_ops WHERE plan_id = ?1)
             FROM plans WHERE plan_id = ?1",
            [plan_id],
            |row| {
                Ok((
                    row.get(0)?,
                    row.get(1)?,
                    row.get(2)?,
                    row.get(3)?,
                    row.get(4)?,
                    row.get(5)?,
                    row.get(6)?,
                ))
            },
        )
        .optional()
        .map_err(db)?;
    let Some((state, label, provenance, frozen_digest, approval, run_id, revision)) = row else {
        return Ok(None);
    };
    let state =
        PlanState::from_name(&state).ok_or_else(|| corrupt(plan_id, format!("its state \"{state}\" is unknown")))?;
    let provenance = match provenance {
        None => None,
        Some(text) => Some(
            Provenance::from_wire(&parse_json(plan_id, "provenance", &text)?)
                .map_err(|error| corrupt(plan_id, format!("its provenance: {error}")))?,
        ),
    };
    let approval = match approval {
        None => None,
        Some(text) => Some(
            ApprovalRecord::from_wire(&parse_json(plan_id, "approval", &text)?)
                .map_err(|error| corrupt(plan_id, format!("its approval: {error}")))?,
        ),
    };
    let record = Record {
        plan_id: plan_id.to_owned(),
        state,
        label,
        provenance,
        frozen_digest,
        approval,
        run_id,
    };
    Ok(Some((record, revision.unsigned_abs())))
}

fn load_existing(tx: &Transaction<'_>, plan_id: &str) -> Result<(Record, u64), StoreError> {
    load(tx, plan_id)?.ok_or_else(|| StoreError::PlanMissing {
        plan_id: plan_id.to_owned(),
    })
}

fn parse_op(plan_id: &str, text: &str) -> Result<Op, StoreError> {
    Op::from_wire(&parse_json(plan_id, "op log", text)?)
        .map_err(|error| corrupt(plan_id, format!("a stored op: {error}")))
}

/// The first `count` ops of the plan, in append order.
fn load_ops(tx: &Transaction<'_>, plan_id: &str, count: u64) -> Result<Vec<Op>, StoreError> {
    let mut statement = tx
        .prepare_cached("SELECT op FROM plan_ops WHERE plan_id = ?1 ORDER BY seq LIMIT ?2")
        .map_err(db)?;
    let rows = statement
        .query_map(params![plan_id, i64::try_from(count).unwrap_or(i64::MAX)], |row| {
            row.get::<_, String>(0)
        })
        .map_err(db)?;
    let mut ops = Vec::new();
    for text in rows {
        ops.push(parse_op(plan_id, &text.map_err(db)?)?);
    }
    Ok(ops)
}

fn insert_plan(tx: &Transaction<'_>, record: &Record) -> Result<(), StoreError> {
    let taken: bool = tx
        .query_row(
            "SELECT EXISTS (SELECT 1 FROM plans WHERE plan_id = ?1)",
            [&record.plan_id],
            |row| row.get(0),
        )
        .map_err(db)?;
    if taken {
        return Err(StoreError::DuplicateId {
            what: "plan",
            id: record.plan_id.clone(),
        });
    }
    tx.execute(
        "INSERT INTO plans (plan_id, state, label, provenance) VALUES (?1, ?2, ?3, ?4)",
        params![
            record.plan_id,
            record.state.name(),
            record.label,
            record.provenance.as_ref().map(|p| p.to_wire().to_string())
        ],
    )
    .map_err(db)?;
    Ok(())
}

fn insert_ops(tx: &Transaction<'_>, plan_id: &str, from_seq: u64, ops: &[Op]) -> Result<(), StoreError> {
    let mut statement = tx
        .prepare_cached("INSERT INTO plan_ops (plan_id, seq, op_id, op) VALUES (?1, ?2, ?3, ?4)")
        .map_err(db)?;
    for (seq, op) in (from_seq..).zip(ops) {
        let seq = i64::try_from(seq).map_err(|_| corrupt(plan_id, "too many ops".into()))?;
        statement
            .execute(params![plan_id, seq, op.op_id, op.to_wire().to_string()])
            .map_err(db)?;
    }
    Ok(())
}

/// Writes the fields a transition may change.
fn save(tx: &Transaction<'_>, record: &Record) -> Result<(), StoreError> {
    tx.execute(
        "UPDATE plans SET state = ?2, frozen_digest = ?3, approval = ?4 WHERE plan_id = ?1",
        params![
            record.plan_id,
            record.state.name(),
            record.frozen_digest,
            record.approval.as_ref().map(|a| a.to_wire().to_string())
        ],
    )
    .map_err(db)?;
    Ok(())
}

impl SqliteStore {
    fn transition(
        &self,
        plan_id: &str,
        rule: impl FnOnce(&mut Record, &StoredPlan) -> Result<(), StoreError>,
    ) -> Result<PlanSummary, StoreError> {
        self.write(|tx| {
            let (mut record, revision) = load_existing(tx, plan_id)?;
            let ops = load_ops(tx, plan_id, revision)?;
            let plan = record.read(&ops);
            rule(&mut record, &plan)?;
            save(tx, &record)?;
            Ok(record.read(&ops).summary)
        })
    }
}

impl PlanStore for SqliteStore {
    fn create(&self, plan_id: &str, new: NewPlan) -> Result<PlanSummary, StoreError> {
        rules::check_id("plan", plan_id)?;
        let record = Record::new(plan_id, new.label, new.provenance);
        self.write(|tx| insert_plan(tx, &record))?;
        Ok(record.read(&[]).summary)
    }

    fn append_ops(&self, plan_id: &str, ops: &[Op], expected_revision: Option<u64>) -> Result<PlanSummary, StoreError> {
        self.write(|tx| {
            let (record, revision) = load_existing(tx, plan_id)?;
            let fresh = {
                let mut find = tx
                    .prepare_cached("SELECT op FROM plan_ops WHERE plan_id = ?1 AND op_id = ?2")
                    .map_err(db)?;
                rules::new_ops(&record, revision, ops, expected_revision, |op_id| {
                    let text: Option<String> = find
                        .query_row([plan_id, op_id], |row| row.get(0))
                        .optional()
                        .map_err(db)?;
                    text.map(|text| parse_op(plan_id, &text)).transpose()
                })?
            };
            insert_ops(tx, plan_id, revision, &fresh)?;
            let ops = load_ops(tx, plan_id, revision + fresh.len() as u64)?;
            Ok(record.read(&ops).summary)
        })
    }

    fn read_ops(&self, plan_id: &str, through_revision: Option<u64>) -> Result<Vec<Op>, StoreError> {
        self.read(|tx| {
            let (_, revision) = load_existing(tx, plan_id)?;
            let count = rules::prefix_len(plan_id, revision, through_revision)?;
            load_ops(tx, plan_id, count)
        })
    }

    fn read_plan(&self, plan_id: &str) -> Result<StoredPlan, StoreError> {
        self.read(|tx| {
            let (record, revision) = load_existing(tx, plan_id)?;
            Ok(record.read(&load_ops(tx, plan_id, revision)?))
        })
    }

    fn freeze(&self, plan_id: &str, expected_digest: &str) -> Result<PlanSummary, StoreError> {
        self.transition(plan_id, |record, plan| rules::freeze(record, plan, expected_digest))
    }

    fn unfreeze(&self, plan_id: &str) -> Result<PlanSummary, StoreError> {
        self.transition(plan_id, |record, _| rules::unfreeze(record))
    }

    fn approve(&self, plan_id: &str, approval: &ApprovalRecord) -> Result<PlanSummary, StoreError> {
        self.transition(plan_id, |record, plan| rules::approve(record, plan, approval))
    }

    fn claim_run(&self, plan_id: &str, expected_digest: &str, run_id: &str) -> Result<PlanSummary, StoreError> {
        self.write(|tx| {
            let (mut record, revision) = load_existing(tx, plan_id)?;
            let ops = load_ops(tx, plan_id, revision)?;
            let plan = record.read(&ops);
            rules::claim_run(&mut record, &plan, expected_digest, run_id)?;
            let taken: bool = tx
                .query_row(
                    "SELECT EXISTS (SELECT 1 FROM plans WHERE run_id = ?1)",
                    [run_id],
                    |row| row.get(0),
                )
                .map_err(db)?;
            if taken {
                return Err(StoreError::DuplicateId {
                    what: "run",
                    id: run_id.to_owned(),
                });
            }
            // The write lock is held, so the plan has no run; the condition states the rule in
            // the database as well.
            let claimed = tx
                .execute(
                    "UPDATE plans SET run_id = ?2 WHERE plan_id = ?1 AND run_id IS NULL",
                    [plan_id, run_id],
                )
                .map_err(db)?;
            if claimed != 1 {
                return Err(StoreError::Corrupt {
                    plan_id: Some(plan_id.to_owned()),
                    detail: "its run changed under the write lock".into(),
                });
            }
            Ok(record.read(&ops).summary)
        })
    }

    fn clone_plan(&self, source: &str, new_id: &str, at_revision: Option<u64>) -> Result<PlanSummary, StoreError> {
        rules::check_id("plan", new_id)?;
        self.write(|tx| {
            let (parent, revision) = load(tx, source)?.ok_or_else(|| StoreError::SourceMissing {
                plan_id: source.to_owned(),
            })?;
            let count = rules::prefix_len(source, revision, at_revision)?;
            let prefix = load_ops(tx, source, count)?;
            let record = rules::clone_record(&parent, &prefix, new_id);
            insert_plan(tx, &record)?;
            insert_ops(tx, new_id, 0, &prefix)?;
            Ok(record.read(&prefix).summary)
        })
    }

    fn list(&self) -> Result<Vec<PlanSummary>, StoreError> {
        self.read(|tx| {
            let ids: Vec<String> = {
                let mut statement = tx.prepare("SELECT plan_id FROM plans ORDER BY plan_id").map_err(db)?;
                let rows = statement.query_map([], |row| row.get(0)).map_err(db)?;
                rows.collect::<Result<_, _>>().map_err(db)?
            };
            ids.iter()
                .map(|plan_id| {
                    let (record, revision) = load_existing(tx, plan_id)?;
                    Ok(record.read(&load_ops(tx, plan_id, revision)?).summary)
                })
                .collect()
        })
    }
}
