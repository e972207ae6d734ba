//! The embedded plan and run store: one SQLite file.
//!
//! Every mutation is one `BEGIN IMMEDIATE` transaction, which takes the database's write lock
//! before it reads, so two writers — threads sharing a store, or processes sharing the file —
//! never decide on the same state; the one run claim is also a conditional update under a
//! unique constraint, and a run's lease is checked inside the transaction that appends to it.
//! The file is in WAL mode, so readers do not wait for a writer, and a writer that finds the
//! lock taken waits up to [`BUSY_TIMEOUT`] before giving up with `store_unavailable`. How much
//! a commit survives is the store's [`Durability`].
//!
//! Schema (version 4, recorded in `writ_schema`; an older file is migrated when opened):
//! - `plans(plan_id PRIMARY KEY, state, label, provenance, frozen_digest, approval, run_id
//!   UNIQUE)`, provenance and approval as their JSON wire forms;
//! - `plan_ops(plan_id, seq, op_id, op, PRIMARY KEY (plan_id, seq), UNIQUE (plan_id, op_id))`,
//!   each op as its JSON wire form, `seq` counting from 0 in append order;
//! - `runs(run_id PRIMARY KEY, plan_id, lease_owner, lease_until_ms, settled)`, one row per
//!   claimed run, written in the claim's transaction: the lease, and the outcome of the last
//!   event when it is a `run_settled` (else NULL), written by the transaction that appends when
//!   it changes, so a run's status is read without reading its log. A run's number of events is
//!   its log's last `seq` plus one, read through the key; version 4 dropped the count the row
//!   kept, which cost every append a second page;
//! - `run_events(run_id, seq, event, PRIMARY KEY (run_id, seq))`, `seq` counting from 0 in
//!   append order, each event as its JSON wire form ([`RunEvent::to_json_string`]) in which
//!   frames the run named before are written as numbers (`compact.rs`; since version 3, so that
//!   an older writ refuses the file rather than misreads it; a version-2 log, written whole,
//!   reads as it is).

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde_json::Value as Json;
use writ_plan::{ApprovalRecord, Op, Provenance};

use crate::checkpoint::Checkpointer;
use crate::compact::RunFrames;
use crate::rules::{self, FoldedPlan, Record};
use crate::run::{self, Lease, RunBatch, RunEvent, RunOutcome, RunStore, RunSummary};
use crate::{NewPlan, PlanState, PlanStore, PlanSummary, StoreError, StoredPlan};

/// How long a call waits for another writer's lock before it fails with `store_unavailable`.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// The schema version this writ writes and reads.
const SCHEMA_VERSION: i64 = 4;

/// Version 1: plans and their op logs. A new file is made by this and every migration after it,
/// so a new file and a migrated one are the same.
const SCHEMA_V1: &str = "
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

/// Version 1 to 2: runs and their event logs. Every run a version-1 file claimed gets its row,
/// with an empty log and no lease.
const MIGRATE_V2: &str = "
CREATE TABLE runs (
    run_id TEXT PRIMARY KEY NOT NULL,
    plan_id TEXT NOT NULL REFERENCES plans (plan_id),
    lease_owner TEXT,
    lease_until_ms INTEGER,
    events INTEGER NOT NULL DEFAULT 0,
    settled TEXT
);
CREATE INDEX runs_by_plan ON runs (plan_id, run_id);
CREATE TABLE run_events (
    run_id TEXT NOT NULL REFERENCES runs (run_id),
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
INSERT INTO runs (run_id, plan_id) SELECT run_id, plan_id FROM plans WHERE run_id IS NOT NULL;
";

/// Version 3 to 4: a run's event count is read from its log, not kept in its row.
const MIGRATE_V4: &str = "ALTER TABLE runs DROP COLUMN events;";

/// A run's row as the run paths read it: its id, plan, lease, outcome and number of events (the
/// last `seq` plus one, a seek on the log's key).
const RUN_COLUMNS: &str = "run_id, plan_id, lease_owner, lease_until_ms, settled,
    (SELECT COALESCE(MAX(seq) + 1, 0) FROM run_events WHERE run_events.run_id = runs.run_id)";

/// What an append reads of its run: plan, lease owner, outcome and number of events. The count
/// seeks the log through the run's row (`runs.run_id`), not through the bound id: SQLite
/// prepares a statement that seeks `run_events` by a bound parameter again after each commit
/// that wrote the table, which cost an append more than all its writes.
const APPEND_FIND_RUN: &str = "SELECT plan_id, lease_owner, settled,
        (SELECT COALESCE(MAX(seq) + 1, 0) FROM run_events WHERE run_events.run_id = runs.run_id)
     FROM runs WHERE run_id = ?1";

/// What a committed transaction survives, and what that costs. Both modes keep the file
/// consistent whatever happens: a crash, at any moment, loses whole transactions or nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Durability {
    /// A commit survives the process being killed (`SIGKILL`, a panic, an abort) as soon as the
    /// call returns, but the last commits before a power loss or an operating-system crash may
    /// be lost (WAL, `synchronous=NORMAL`: the log is written at each commit and flushed to the
    /// disk only at checkpoints). A commit costs a write into the operating system's cache,
    /// microseconds. The default: a run resumed after its process died loses nothing it wrote.
    #[default]
    Process,
    /// A commit survives a power loss too (WAL, `synchronous=FULL`, and `fullfsync` where the
    /// platform has it): the log is flushed to the disk at every commit, before the call
    /// returns. A commit costs one flush, from tens of microseconds on a fast SSD to
    /// milliseconds on slower disks; batches given together to
    /// [`append_run_events`](RunStore::append_run_events) share one.
    PowerLoss,
}

/// How many pages the write-ahead log may hold before a commit itself checkpoints: only
/// when the checkpointing thread falls behind (or could not start).
const WAL_CHECKPOINT_PAGES: i64 = 10_000;

/// A [`PlanStore`] and [`RunStore`] in one SQLite file, safe to share between threads and to
/// open from several processes at once.
#[derive(Debug)]
pub struct SqliteStore {
    /// Declared first, so it stops before the store's connection closes (the last connection
    /// to close checkpoints and removes the log).
    _checkpointer: Option<Checkpointer>,
    connection: Mutex<Connection>,
    /// The last fold of each plan read, with the text of the ops it folds. Reading the ops'
    /// text is cheap; parsing and folding them is not. The text is compared, not trusted by
    /// revision, so an edit made to the file underneath is still seen.
    folds: Mutex<KeptFolds>,
    /// The numbered frames of each run this store appended to (`compact.rs`), with the number
    /// of events they cover: checked against the stored count in every append, so a run another
    /// process appended to is read again.
    run_frames: Mutex<HashMap<String, RunFrames>>,
}

/// Each plan's last fold, by plan id, with the text of the ops it folded.
type KeptFolds = HashMap<String, (Vec<String>, Arc<FoldedPlan>)>;

/// How many plans' folds a store keeps before it starts afresh.
const KEPT_FOLDS: usize = 256;

/// How many runs' numbered frames a store keeps before it starts afresh.
const KEPT_RUN_FRAMES: usize = 64;

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
    /// Opens (creating if needed) the store in the file at `path` with [`Durability::Process`]:
    /// see [`SqliteStore::open_with`].
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(path, Durability::Process)
    }

    /// Opens (creating if needed) the store in the file at `path`, switching it to WAL mode,
    /// creating the schema on first use and migrating a file an older writ wrote. Commits
    /// through this store are as durable as `durability` says (a setting of this connection, not
    /// of the file: another process may open the same file otherwise). Refused with
    /// `schema_too_new` when a newer writ wrote the file.
    pub fn open_with(path: impl AsRef<Path>, durability: Durability) -> Result<SqliteStore, StoreError> {
        let path = path.as_ref();
        let mut connection = Connection::open(path).map_err(db)?;
        connection.busy_timeout(BUSY_TIMEOUT).map_err(db)?;
        connection
            .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get::<_, String>(0))
            .map_err(db)?;
        let (synchronous, fullfsync) = match durability {
            Durability::Process => ("NORMAL", false),
            Durability::PowerLoss => ("FULL", true),
        };
        connection.pragma_update(None, "synchronous", synchronous).map_err(db)?;
        connection.pragma_update(None, "fullfsync", fullfsync).map_err(db)?;
        connection.pragma_update(None, "foreign_keys", true).map_err(db)?;
        // Checkpoints run on the store's own thread (`Checkpointer`); this is the backstop.
        connection
            .pragma_update(None, "wal_autocheckpoint", WAL_CHECKPOINT_PAGES)
            .map_err(db)?;
        // Every statement of the plan and run paths stays prepared.
        connection.set_prepared_statement_cache_capacity(40);
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
                tx.execute_batch(SCHEMA_V1).map_err(db)?;
                tx.execute_batch(MIGRATE_V2).map_err(db)?;
                tx.execute_batch(MIGRATE_V4).map_err(db)?;
                tx.execute("INSERT INTO writ_schema (id, version) VALUES (1, ?1)", [SCHEMA_VERSION])
                    .map_err(db)?;
            }
            Some(found @ 1..=3) => {
                if found == 1 {
                    tx.execute_batch(MIGRATE_V2).map_err(db)?;
                }
                // Version 3 changed how new events are written, not the tables.
                tx.execute_batch(MIGRATE_V4).map_err(db)?;
                tx.execute("UPDATE writ_schema SET version = ?1 WHERE id = 1", [SCHEMA_VERSION])
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
            _checkpointer: Checkpointer::start(path, BUSY_TIMEOUT),
            connection: Mutex::new(connection),
            folds: Mutex::default(),
            run_frames: Mutex::default(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while the lock was held dropped its transaction, which rolled back.
        self.connection.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs `body` in one transaction that holds the write lock from its start.
    fn write<T>(&self, body: impl FnOnce(&Connection) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let connection = self.lock();
        let tx = Tx::begin(&connection, "BEGIN IMMEDIATE")?;
        let value = body(&connection)?;
        tx.commit()?;
        Ok(value)
    }

    /// Runs `body` in one read transaction (a consistent snapshot).
    fn read<T>(&self, body: impl FnOnce(&Connection) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let connection = self.lock();
        let _tx = Tx::begin(&connection, "BEGIN")?;
        body(&connection)
    }
}

/// An open transaction on a connection, rolled back when dropped uncommitted (an error or a
/// panic in its body). Its `BEGIN`, `COMMIT` and `ROLLBACK` are cached statements, where
/// rusqlite's `Transaction` parses them again for every transaction.
struct Tx<'c> {
    connection: &'c Connection,
}

impl<'c> Tx<'c> {
    fn begin(connection: &'c Connection, begin: &str) -> Result<Tx<'c>, StoreError> {
        connection
            .prepare_cached(begin)
            .and_then(|mut begin| begin.execute([]))
            .map_err(db)?;
        Ok(Tx { connection })
    }

    fn commit(self) -> Result<(), StoreError> {
        self.connection
            .prepare_cached("COMMIT")
            .and_then(|mut commit| commit.execute([]))
            .map_err(db)?;
        Ok(())
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        // Nothing is open after a COMMIT; a failed one (SQLITE_BUSY) leaves the transaction
        // open, and it is rolled back too.
        if !self.connection.is_autocommit() {
            let _ = self
                .connection
                .prepare_cached("ROLLBACK")
                .and_then(|mut rollback| rollback.execute([]));
        }
    }
}

/// The plan's record and revision, or `None` when there is no such plan.
fn load(tx: &Connection, plan_id: &str) -> Result<Option<(Record, u64)>, StoreError> {
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

fn load_existing(tx: &Connection, plan_id: &str) -> Result<(Record, u64), StoreError> {
    load(tx, plan_id)?.ok_or_else(|| StoreError::PlanMissing {
        plan_id: plan_id.to_owned(),
    })
}

fn parse_op(plan_id: &str, text: &str) -> Result<Op, StoreError> {
    Op::from_wire(&parse_json(plan_id, "op log", text)?)
        .map_err(|error| corrupt(plan_id, format!("a stored op: {error}")))
}

/// The first `count` ops of the plan, in append order.
fn load_ops(tx: &Connection, plan_id: &str, count: u64) -> Result<Vec<Op>, StoreError> {
    load_op_texts(tx, plan_id, count)?
        .iter()
        .map(|text| parse_op(plan_id, text))
        .collect()
}

/// The plan's (`?1`) first `?2` ops' texts, in order.
const LOAD_OP_TEXTS: &str = "SELECT op FROM plan_ops WHERE plan_id = ?1 ORDER BY seq LIMIT ?2";

/// The text of the plan's first `count` ops, in order.
fn load_op_texts(tx: &Connection, plan_id: &str, count: u64) -> Result<Vec<String>, StoreError> {
    let mut statement = tx.prepare_cached(LOAD_OP_TEXTS).map_err(db)?;
    let rows = statement
        .query_map(params![plan_id, i64::try_from(count).unwrap_or(i64::MAX)], |row| {
            row.get::<_, String>(0)
        })
        .map_err(db)?;
    rows.collect::<Result<_, _>>().map_err(db)
}

fn insert_plan(tx: &Connection, record: &Record) -> Result<(), StoreError> {
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

fn insert_ops(tx: &Connection, plan_id: &str, from_seq: u64, ops: &[Op]) -> Result<(), StoreError> {
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
fn save(tx: &Connection, record: &Record) -> Result<(), StoreError> {
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
            let folded = self.fold(tx, &record, revision)?;
            let plan = record.read_folded(&folded);
            rule(&mut record, &plan)?;
            save(tx, &record)?;
            Ok(record.summary(&folded))
        })
    }

    /// The fold of the plan's first `revision` ops: kept from an earlier read of the same
    /// text, or made now.
    fn fold(&self, tx: &Connection, record: &Record, revision: u64) -> Result<Arc<FoldedPlan>, StoreError> {
        if let Some(folded) = self.kept_fold(tx, record, revision)? {
            return Ok(folded);
        }
        let texts = load_op_texts(tx, &record.plan_id, revision)?;
        let ops = texts
            .iter()
            .map(|op| parse_op(&record.plan_id, op))
            .collect::<Result<Vec<_>, _>>()?;
        let folded = Arc::new(record.fold(&ops));
        let mut folds = self.folds_lock();
        if folds.len() >= KEPT_FOLDS && !folds.contains_key(&record.plan_id) {
            folds.clear();
        }
        folds.insert(record.plan_id.clone(), (texts, folded.clone()));
        Ok(folded)
    }

    /// The kept fold of the plan's first `revision` ops, if the stored text of each is the
    /// text it was made from: compared row by row as SQLite holds it, nothing copied, since
    /// every run's start and claim reads its plan this way.
    fn kept_fold(
        &self,
        tx: &Connection,
        record: &Record,
        revision: u64,
    ) -> Result<Option<Arc<FoldedPlan>>, StoreError> {
        let folds = self.folds_lock();
        let Some((texts, folded)) = folds.get(&record.plan_id) else {
            return Ok(None);
        };
        if texts.len() as u64 != revision {
            return Ok(None);
        }
        let mut statement = tx.prepare_cached(LOAD_OP_TEXTS).map_err(db)?;
        let mut rows = statement
            .query(params![record.plan_id, i64::try_from(revision).unwrap_or(i64::MAX)])
            .map_err(db)?;
        let mut kept = texts.iter();
        while let Some(row) = rows.next().map_err(db)? {
            let stored = row.get_ref(0).map_err(db)?.as_str().map_err(|error| db(error.into()))?;
            if kept.next().map(String::as_str) != Some(stored) {
                return Ok(None);
            }
        }
        Ok(kept.next().is_none().then(|| folded.clone()))
    }

    fn folds_lock(&self) -> MutexGuard<'_, KeptFolds> {
        // A fold is inserted whole or not at all, so a panic elsewhere leaves the map usable.
        self.folds.lock().unwrap_or_else(PoisonError::into_inner)
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
            // Not kept: this transaction may yet fail to commit.
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
            Ok(record.read_folded(&*self.fold(tx, &record, revision)?))
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
            let folded = self.fold(tx, &record, revision)?;
            let plan = record.read_folded(&folded);
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
            tx.execute("INSERT INTO runs (run_id, plan_id) VALUES (?1, ?2)", [run_id, plan_id])
                .map_err(db)?;
            Ok(record.summary(&folded))
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
            let completed = match &parent.run_id {
                Some(run_id) => run::completed_nodes(&load_run_events(tx, source, run_id)?),
                None => Vec::new(),
            };
            let record = rules::clone_record(&parent, &prefix, new_id, completed);
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
                    Ok(record.summary(&*self.fold(tx, &record, revision)?))
                })
                .collect()
        })
    }
}

/// A run's row: its plan, lease, event count and settled outcome.
struct RunRow {
    plan_id: String,
    lease: Option<Lease>,
    events: u64,
    settled: Option<RunOutcome>,
}

impl RunRow {
    fn summary(self, run_id: &str, now: u64) -> RunSummary {
        RunSummary {
            run_id: run_id.to_owned(),
            status: run::status(self.settled, self.lease.as_ref(), now),
            plan_id: self.plan_id,
            events: self.events,
        }
    }
}

type RawRun = (String, String, Option<String>, Option<i64>, Option<String>, i64);

fn raw_run(row: &rusqlite::Row<'_>) -> rusqlite::Result<RawRun> {
    Ok((
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        row.get(4)?,
        row.get(5)?,
    ))
}

fn run_row((run_id, plan_id, owner, until_ms, settled, events): RawRun) -> Result<(String, RunRow), StoreError> {
    let settled = match settled {
        None => None,
        Some(name) => Some(RunOutcome::from_name(&name).ok_or_else(|| {
            corrupt(
                &plan_id,
                format!("its run \"{run_id}\" settled with an unknown outcome \"{name}\""),
            )
        })?),
    };
    let lease = owner.map(|owner| Lease {
        owner,
        until_ms: until_ms.unwrap_or(0).max(0).unsigned_abs(),
    });
    let row = RunRow {
        plan_id,
        lease,
        events: events.max(0).unsigned_abs(),
        settled,
    };
    Ok((run_id, row))
}

fn load_run(tx: &Connection, run_id: &str) -> Result<RunRow, StoreError> {
    let mut statement = tx
        .prepare_cached(&format!("SELECT {RUN_COLUMNS} FROM runs WHERE run_id = ?1"))
        .map_err(db)?;
    let raw = statement.query_row([run_id], raw_run).optional().map_err(db)?;
    match raw {
        Some(raw) => Ok(run_row(raw)?.1),
        None => Err(StoreError::RunMissing {
            run_id: run_id.to_owned(),
        }),
    }
}

fn save_lease(tx: &Connection, run_id: &str, lease: Option<&Lease>) -> Result<(), StoreError> {
    let mut statement = tx
        .prepare_cached("UPDATE runs SET lease_owner = ?2, lease_until_ms = ?3 WHERE run_id = ?1")
        .map_err(db)?;
    let until_ms = lease.map(|lease| i64::try_from(lease.until_ms).unwrap_or(i64::MAX));
    statement
        .execute(params![run_id, lease.map(|lease| lease.owner.as_str()), until_ms])
        .map_err(db)?;
    Ok(())
}

/// Inserts of one to [`INSERT_EVENTS`]`.len()` events of a run: `?1` the run, then each event's
/// `seq` and text.
const INSERT_EVENTS: [&str; 4] = [
    "INSERT INTO run_events (run_id, seq, event) VALUES (?1, ?2, ?3)",
    "INSERT INTO run_events (run_id, seq, event) VALUES (?1, ?2, ?3), (?1, ?4, ?5)",
    "INSERT INTO run_events (run_id, seq, event) VALUES (?1, ?2, ?3), (?1, ?4, ?5), (?1, ?6, ?7)",
    "INSERT INTO run_events (run_id, seq, event) VALUES (?1, ?2, ?3), (?1, ?4, ?5), (?1, ?6, ?7), (?1, ?8, ?9)",
];

/// Inserts `texts` into run `run_id`'s log from `seq` on, up to four rows a statement: a step's
/// batch (settled, edge taken, entered) is one statement, where a statement a row cost each
/// row a statement's start and end.
fn insert_events(tx: &Connection, run_id: &str, seq: i64, texts: &[String]) -> Result<(), StoreError> {
    let mut seqs = seq..;
    for chunk in texts.chunks(INSERT_EVENTS.len()) {
        let mut insert = tx.prepare_cached(INSERT_EVENTS[chunk.len() - 1]).map_err(db)?;
        insert.raw_bind_parameter(1, run_id).map_err(db)?;
        // The chunk first: it ends the zip before another `seq` is taken.
        for (index, (text, seq)) in chunk.iter().zip(seqs.by_ref()).enumerate() {
            insert.raw_bind_parameter(2 + 2 * index, seq).map_err(db)?;
            insert.raw_bind_parameter(3 + 2 * index, text).map_err(db)?;
        }
        insert.raw_execute().map_err(db)?;
    }
    Ok(())
}

/// Run `run_id`'s events, in append order (the run belongs to plan `plan_id`), and its frames
/// numbered as the log names them.
fn load_run_events_numbered(
    tx: &Connection,
    plan_id: &str,
    run_id: &str,
) -> Result<(Vec<RunEvent>, RunFrames), StoreError> {
    let mut statement = tx
        .prepare_cached("SELECT event FROM run_events WHERE run_id = ?1 ORDER BY seq")
        .map_err(db)?;
    let rows = statement
        .query_map([run_id], |row| row.get::<_, String>(0))
        .map_err(db)?;
    let mut frames = RunFrames::default();
    let mut events = Vec::new();
    for text in rows {
        let event = frames
            .read(&text.map_err(db)?)
            .map_err(|error| corrupt(plan_id, format!("an event of its run \"{run_id}\": {error}")))?;
        events.push(event);
    }
    Ok((events, frames))
}

/// Run `run_id`'s events, in append order (the run belongs to plan `plan_id`).
fn load_run_events(tx: &Connection, plan_id: &str, run_id: &str) -> Result<Vec<RunEvent>, StoreError> {
    Ok(load_run_events_numbered(tx, plan_id, run_id)?.0)
}

impl SqliteStore {
    fn run_frames_lock(&self) -> MutexGuard<'_, HashMap<String, RunFrames>> {
        // Frames are taken out while an append writes and put back whole after it commits.
        self.run_frames.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl RunStore for SqliteStore {
    fn acquire_run(&self, run_id: &str, owner: &str, lease: Duration) -> Result<RunSummary, StoreError> {
        self.write(|tx| {
            let mut row = load_run(tx, run_id)?;
            let now = run::now_ms();
            run::check_acquire(run_id, row.settled, row.lease.as_ref(), owner, now)?;
            row.lease = Some(Lease {
                owner: owner.to_owned(),
                until_ms: run::lease_until(now, lease),
            });
            save_lease(tx, run_id, row.lease.as_ref())?;
            Ok(row.summary(run_id, now))
        })
    }

    fn renew_run(&self, run_id: &str, owner: &str, lease: Duration) -> Result<(), StoreError> {
        self.write(|tx| {
            let row = load_run(tx, run_id)?;
            run::check_owner(run_id, row.lease.as_ref(), owner)?;
            let lease = Lease {
                owner: owner.to_owned(),
                until_ms: run::lease_until(run::now_ms(), lease),
            };
            save_lease(tx, run_id, Some(&lease))
        })
    }

    fn take_over_run(&self, run_id: &str, owner: &str, lease: Duration, from: &str) -> Result<RunSummary, StoreError> {
        self.write(|tx| {
            let mut row = load_run(tx, run_id)?;
            let now = run::now_ms();
            run::check_acquire(run_id, row.settled, None, owner, now)?;
            run::check_owner(run_id, row.lease.as_ref(), from)?;
            row.lease = Some(Lease {
                owner: owner.to_owned(),
                until_ms: run::lease_until(now, lease),
            });
            save_lease(tx, run_id, row.lease.as_ref())?;
            Ok(row.summary(run_id, now))
        })
    }

    fn release_run(&self, run_id: &str, owner: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            let row = load_run(tx, run_id)?;
            if row.lease.is_some_and(|lease| lease.owner == owner) {
                save_lease(tx, run_id, None)?;
            }
            Ok(())
        })
    }

    fn append_run_events(&self, owner: &str, batches: &[RunBatch<'_>]) -> Result<(), StoreError> {
        // Each run's numbered frames are taken out for the append and put back once it commits;
        // an append that fails drops them, and the next one reads them from the log again.
        let mut frames: Vec<RunFrames> = {
            let mut kept = self.run_frames_lock();
            batches
                .iter()
                .map(|batch| kept.remove(batch.run_id).unwrap_or_default())
                .collect()
        };
        // Written before the write lock is taken, so the lock is held only for the writes; each
        // batch's count of events written before it says whether its frames were up to date.
        let mut written: Vec<(u64, Vec<String>)> = batches
            .iter()
            .zip(&mut frames)
            .map(|(batch, frames)| {
                let before = frames.events;
                (before, batch.events.iter().map(|event| frames.write(event)).collect())
            })
            .collect();
        self.write(|tx| {
            let mut find = tx.prepare_cached(APPEND_FIND_RUN).map_err(db)?;
            let mut settle = tx
                .prepare_cached("UPDATE runs SET settled = ?2 WHERE run_id = ?1")
                .map_err(db)?;
            for ((batch, (before, texts)), frames) in batches.iter().zip(&mut written).zip(&mut frames) {
                type Found = (String, Option<String>, Option<String>, i64);
                let found: Option<Found> = find
                    .query_row([batch.run_id], |row| {
                        Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
                    })
                    .optional()
                    .map_err(db)?;
                let Some((plan_id, holder, was_settled, count)) = found else {
                    return Err(StoreError::RunMissing {
                        run_id: batch.run_id.to_owned(),
                    });
                };
                // The fence: checked under the write lock, so a lease taken over since this
                // process last looked refuses the whole commit.
                if holder.as_deref() != Some(owner) {
                    return Err(StoreError::LeaseLost {
                        run_id: batch.run_id.to_owned(),
                        owner: holder,
                    });
                }
                let Some(last) = batch.events.last() else {
                    continue;
                };
                if i64::try_from(*before).ok() != Some(count) {
                    // Another store (another process) appended since these frames were
                    // numbered, or none were kept: number them from the log.
                    *frames = load_run_events_numbered(tx, &plan_id, batch.run_id)?.1;
                    *texts = batch.events.iter().map(|event| frames.write(event)).collect();
                }
                insert_events(tx, batch.run_id, count, texts)?;
                let settled = match last {
                    RunEvent::RunSettled { outcome, .. } => Some(outcome.name()),
                    _ => None,
                };
                // Written only when it changes: most appends are steps of a running run.
                if was_settled.as_deref() != settled {
                    settle.execute(params![batch.run_id, settled]).map_err(db)?;
                }
            }
            Ok(())
        })?;
        let mut kept = self.run_frames_lock();
        if kept.len() + batches.len() > KEPT_RUN_FRAMES {
            kept.clear();
        }
        for (batch, frames) in batches.iter().zip(frames) {
            kept.insert(batch.run_id.to_owned(), frames);
        }
        Ok(())
    }

    fn read_run_events(&self, run_id: &str) -> Result<Vec<RunEvent>, StoreError> {
        self.read(|tx| {
            let row = load_run(tx, run_id)?;
            load_run_events(tx, &row.plan_id, run_id)
        })
    }

    fn read_run(&self, run_id: &str) -> Result<RunSummary, StoreError> {
        self.read(|tx| Ok(load_run(tx, run_id)?.summary(run_id, run::now_ms())))
    }

    fn list_runs(&self, plan_id: Option<&str>) -> Result<Vec<RunSummary>, StoreError> {
        self.read(|tx| {
            let mut statement = tx
                .prepare_cached(&format!(
                    "SELECT {RUN_COLUMNS} FROM runs WHERE ?1 IS NULL OR plan_id = ?1 ORDER BY run_id"
                ))
                .map_err(db)?;
            let rows = statement.query_map([plan_id], raw_run).map_err(db)?;
            let now = run::now_ms();
            let mut runs = Vec::new();
            for raw in rows {
                let (run_id, row) = run_row(raw.map_err(db)?)?;
                runs.push(row.summary(&run_id, now));
            }
            Ok(runs)
        })
    }
}

#[cfg(test)]
mod tests {
    use rusqlite::StatementStatus;
    use writ_plan::ApprovalRecord;

    use super::*;

    /// An empty scratch directory of this process for the test `name`.
    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("writ-store-unit-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        dir
    }

    /// A write whose body fails or panics leaves nothing behind, and the connection takes the
    /// next transaction.
    #[test]
    fn a_failed_or_panicking_write_rolls_back() {
        let dir = scratch("rollback");
        let store = SqliteStore::open(dir.join("plans.db")).expect("open");
        let insert = |connection: &Connection, plan_id: &str| {
            connection
                .execute("INSERT INTO plans (plan_id, state) VALUES (?1, 'editable')", [plan_id])
                .expect("insert");
        };
        let failed = store.write(|connection| {
            insert(connection, "failed");
            Err::<(), _>(StoreError::RunMissing { run_id: "r".into() })
        });
        assert!(failed.is_err());
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            store.write(|connection| -> Result<(), StoreError> {
                insert(connection, "panicked");
                panic!("a body that panics")
            })
        }));
        assert!(panicked.is_err());
        store
            .write(|connection| {
                insert(connection, "kept");
                Ok(())
            })
            .expect("the next write commits");
        let plans: Vec<String> = store
            .read(|connection| {
                let mut statement = connection.prepare("SELECT plan_id FROM plans").map_err(db)?;
                let rows = statement.query_map([], |row| row.get(0)).map_err(db)?;
                rows.collect::<Result<_, _>>().map_err(db)
            })
            .expect("read");
        assert_eq!(plans, ["kept"]);
        assert!(store.lock().is_autocommit());
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// An append's statements stay prepared across commits: each is prepared once, however many
    /// steps a run appends; and a batch is written in order, however many inserts it takes.
    #[test]
    fn appends_prepare_their_statements_once_and_keep_order() {
        let dir = scratch("prepare");
        let store = SqliteStore::open(dir.join("runs.db")).expect("open");
        store.create("plan-a", NewPlan::default()).expect("create");
        let summary = store
            .append_ops("plan-a", &crate::conformance::plan_ops(), None)
            .expect("append ops");
        store.freeze("plan-a", &summary.digest).expect("freeze");
        let view = store.read_plan("plan-a").expect("read").view;
        let approval = ApprovalRecord::for_view(&view, "ann", "2026-12-02T04:00:00Z");
        let executable = store.approve("plan-a", &approval).expect("approve");
        store.claim_run("plan-a", &executable.digest, "run-1").expect("claim");
        store
            .acquire_run("run-1", "me", Duration::from_secs(600))
            .expect("acquire");
        for at in 0..20 {
            let events = [RunEvent::FrontierSnapshot { joins: vec![], at }];
            store
                .append_run_events(
                    "me",
                    &[RunBatch {
                        run_id: "run-1",
                        events: &events,
                    }],
                )
                .expect("append");
        }
        {
            let connection = store.lock();
            let find = connection.prepare_cached(APPEND_FIND_RUN).expect("cached");
            assert_eq!(find.get_status(StatementStatus::RePrepare), 0);
        }
        // A batch longer than one insert statement takes is written in order.
        let events: Vec<RunEvent> = (20..29)
            .map(|at| RunEvent::FrontierSnapshot { joins: vec![], at })
            .collect();
        store
            .append_run_events(
                "me",
                &[RunBatch {
                    run_id: "run-1",
                    events: &events,
                }],
            )
            .expect("append nine");
        let read: Vec<u64> = store
            .read_run_events("run-1")
            .expect("read")
            .iter()
            .map(|event| match event {
                RunEvent::FrontierSnapshot { at, .. } => *at,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(read, (0..29).collect::<Vec<u64>>());
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
