//! Workflow runs (writ-flow): each run's specification and every completed node's output, in
//! SQLite tables of their own beside the plan store's.
//!
//! A run is created once with its specification (the document, named workflows, input, limits,
//! events and answers, as JSON text the runtime writes and reads back); each completed node is
//! one step, numbered by the order in which the run executed nodes, with its output and the
//! host reads (`$now()`, `$millis()`, `$random()`) made since the previous step; the run ends
//! with its result. The tables are created on first use (`CREATE TABLE IF NOT EXISTS`) and are
//! not part of the plan store's schema version.
//!
//! One process at a time drives a run: it holds the run's lease (an owner and a time it runs
//! out), taken when the run is created or resumed and renewed by every append. An append or a
//! finish by a process that no longer holds the lease is refused (`lease_lost`), so a run taken
//! over from a process thought dead cannot be written by both.

use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

/// How long a write waits for another process's transaction.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS flow_runs (
    run_id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
    result TEXT,
    lease_owner TEXT,
    lease_until_ms INTEGER
);
CREATE TABLE IF NOT EXISTS flow_steps (
    run_id TEXT NOT NULL REFERENCES flow_runs (run_id),
    seq INTEGER NOT NULL,
    node_id TEXT NOT NULL,
    output TEXT NOT NULL,
    meta TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
";

/// A workflow-run store failure: what went wrong, for a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowStoreError {
    kind: ErrorKind,
    message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ErrorKind {
    Failed,
    InUse,
    LeaseLost,
}

impl FlowStoreError {
    fn failed(message: String) -> FlowStoreError {
        FlowStoreError {
            kind: ErrorKind::Failed,
            message,
        }
    }

    /// The stable code: `run_in_use` when another live process holds the run's lease,
    /// `lease_lost` when this process held it and another took it over, else `store_failed`.
    pub fn code(&self) -> &'static str {
        match self.kind {
            ErrorKind::Failed => "store_failed",
            ErrorKind::InUse => "run_in_use",
            ErrorKind::LeaseLost => "lease_lost",
        }
    }

    /// What went wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for FlowStoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FlowStoreError {}

fn db(error: rusqlite::Error) -> FlowStoreError {
    FlowStoreError::failed(format!("the workflow store failed: {error}"))
}

/// Who drives a run, and for how long at a time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    /// The process, as leases name it (writ-run's `process_owner`: host, pid and start time).
    pub owner: String,
    /// How long the lease lasts past each renewal.
    pub lease: Duration,
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| i64::try_from(since.as_millis()).unwrap_or(i64::MAX))
}

fn until_ms(lease: Duration) -> i64 {
    now_ms().saturating_add(i64::try_from(lease.as_millis()).unwrap_or(i64::MAX))
}

/// A run's lease as stored: its owner and when it runs out (milliseconds since the epoch),
/// both empty when no process holds it.
type StoredLease = (Option<String>, Option<i64>);

/// The lease of `run_id` as stored; `None` for no run.
fn read_lease(tx: &Connection, run_id: &str) -> Result<Option<StoredLease>, FlowStoreError> {
    tx.query_row(
        "SELECT lease_owner, lease_until_ms FROM flow_runs WHERE run_id = ?1",
        [run_id],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )
    .optional()
    .map_err(db)
}

fn no_run(run_id: &str) -> FlowStoreError {
    FlowStoreError::failed(format!("there is no workflow run named '{run_id}'"))
}

/// How a stored run stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlowStatus {
    /// Created, not ended (running now, or killed).
    Running,
    /// Ended with an output.
    Completed,
    /// Ended with an error.
    Failed,
}

impl FlowStatus {
    fn as_str(self) -> &'static str {
        match self {
            FlowStatus::Running => "running",
            FlowStatus::Completed => "completed",
            FlowStatus::Failed => "failed",
        }
    }
}

/// A stored run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowRun {
    /// Its specification, as the runtime wrote it.
    pub spec: String,
    /// How it stands.
    pub status: FlowStatus,
    /// Its result once it ended, as the runtime wrote it.
    pub result: Option<String>,
}

/// One completed node of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowStep {
    /// Its place in the order the run's nodes completed, from 1.
    pub seq: u64,
    /// The node's id.
    pub node_id: String,
    /// Its output, as the runtime wrote it.
    pub output: String,
    /// What else the runtime keeps with the step (its cost, the host reads made since the
    /// previous step), as the runtime wrote it.
    pub meta: String,
}

/// The workflow runs of one SQLite file.
#[derive(Debug)]
pub struct FlowStore {
    connection: Connection,
    /// The lease this store's process holds, once it created, acquired or took over a run.
    holder: Option<Holder>,
}

impl FlowStore {
    /// Opens (creating if needed) the file at `path` in WAL mode with `synchronous=NORMAL`
    /// (a commit survives a killed process), and creates the tables on first use.
    ///
    /// # Errors
    ///
    /// `store_failed` when SQLite cannot open or write the file.
    pub fn open(path: impl AsRef<Path>) -> Result<FlowStore, FlowStoreError> {
        let mut connection = Connection::open(path).map_err(db)?;
        connection.busy_timeout(BUSY_TIMEOUT).map_err(db)?;
        connection
            .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get::<_, String>(0))
            .map_err(db)?;
        connection.pragma_update(None, "synchronous", "NORMAL").map_err(db)?;
        connection.pragma_update(None, "foreign_keys", true).map_err(db)?;
        connection.execute_batch(SCHEMA).map_err(db)?;
        add_lease_columns(&mut connection)?;
        Ok(FlowStore {
            connection,
            holder: None,
        })
    }

    /// Creates the run `run_id` with its specification, its lease held by `holder`.
    ///
    /// # Errors
    ///
    /// `store_failed` when a run of that id exists, or SQLite fails.
    pub fn create(&mut self, run_id: &str, spec: &str, holder: Holder) -> Result<(), FlowStoreError> {
        let tx = self
            .connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let exists: Option<i64> = tx
            .query_row("SELECT 1 FROM flow_runs WHERE run_id = ?1", [run_id], |row| row.get(0))
            .optional()
            .map_err(db)?;
        if exists.is_some() {
            return Err(FlowStoreError::failed(format!(
                "a workflow run named '{run_id}' exists already; resume it (writ flow resume {run_id}) or choose another --run-id"
            )));
        }
        tx.execute(
            "INSERT INTO flow_runs (run_id, spec, status, lease_owner, lease_until_ms) VALUES (?1, ?2, 'running', ?3, ?4)",
            params![run_id, spec, holder.owner, until_ms(holder.lease)],
        )
        .map_err(db)?;
        tx.commit().map_err(db)?;
        self.holder = Some(holder);
        Ok(())
    }

    /// Takes the lease of `run_id` for `holder`: a free lease, one that ran out, or the
    /// holder's own.
    ///
    /// # Errors
    ///
    /// `run_in_use` when another owner's lease is live (the message names the owner: if that
    /// process is known dead, [`FlowStore::take_over`] takes it at once); `store_failed` when
    /// there is no such run or SQLite fails.
    pub fn acquire(&mut self, run_id: &str, holder: Holder) -> Result<(), FlowStoreError> {
        self.take(run_id, holder, None)
    }

    /// Takes the lease of `run_id` from `dead_owner`, a process known to be dead, even though
    /// its lease has not run out; from anyone else only as [`FlowStore::acquire`] would.
    ///
    /// # Errors
    ///
    /// As [`FlowStore::acquire`]: `run_in_use` when a live lease is held by another owner
    /// than `dead_owner` (one that took the run over first).
    pub fn take_over(&mut self, run_id: &str, holder: Holder, dead_owner: &str) -> Result<(), FlowStoreError> {
        self.take(run_id, holder, Some(dead_owner))
    }

    fn take(&mut self, run_id: &str, holder: Holder, dead_owner: Option<&str>) -> Result<(), FlowStoreError> {
        let tx = self
            .connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let (owner, until) = read_lease(&tx, run_id)?.ok_or_else(|| no_run(run_id))?;
        if let (Some(owner), Some(until)) = (owner, until)
            && owner != holder.owner
            && until > now_ms()
            && dead_owner != Some(owner.as_str())
        {
            return Err(FlowStoreError {
                kind: ErrorKind::InUse,
                message: format!(
                    "workflow run '{run_id}' is being driven by {owner} for {} ms more; resume it once that \
                     process has stopped",
                    until - now_ms()
                ),
            });
        }
        tx.execute(
            "UPDATE flow_runs SET lease_owner = ?2, lease_until_ms = ?3 WHERE run_id = ?1",
            params![run_id, holder.owner, until_ms(holder.lease)],
        )
        .map_err(db)?;
        tx.commit().map_err(db)?;
        self.holder = Some(holder);
        Ok(())
    }

    /// The owner of `run_id`'s lease while it is live, for telling whether that process is dead.
    ///
    /// # Errors
    ///
    /// `store_failed` when SQLite fails.
    pub fn lease_owner(&self, run_id: &str) -> Result<Option<String>, FlowStoreError> {
        Ok(match read_lease(&self.connection, run_id)? {
            Some((Some(owner), Some(until))) if until > now_ms() => Some(owner),
            _ => None,
        })
    }

    /// Extends `holder`'s lease on `run_id`: what a process in a long call does between
    /// appends, from a connection of its own.
    ///
    /// # Errors
    ///
    /// `lease_lost` when another process holds the run; `store_failed` when SQLite fails.
    pub fn renew(&mut self, run_id: &str, holder: &Holder) -> Result<(), FlowStoreError> {
        let tx = self
            .connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        check_and_renew(&tx, run_id, Some(holder))?;
        tx.commit().map_err(db)
    }

    /// The run `run_id`, if there is one.
    ///
    /// # Errors
    ///
    /// `store_failed` when SQLite fails or the row is not one this code wrote.
    pub fn run(&self, run_id: &str) -> Result<Option<FlowRun>, FlowStoreError> {
        let row: Option<(String, String, Option<String>)> = self
            .connection
            .query_row(
                "SELECT spec, status, result FROM flow_runs WHERE run_id = ?1",
                [run_id],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
            )
            .optional()
            .map_err(db)?;
        let Some((spec, status, result)) = row else {
            return Ok(None);
        };
        let status = match status.as_str() {
            "running" => FlowStatus::Running,
            "completed" => FlowStatus::Completed,
            "failed" => FlowStatus::Failed,
            other => {
                return Err(FlowStoreError::failed(format!(
                    "workflow run '{run_id}' has an unknown status '{other}'"
                )));
            }
        };
        Ok(Some(FlowRun { spec, status, result }))
    }

    /// Writes steps in one transaction, renewing the lease; a step of a number stored already
    /// replaces it (a call entered, then completed).
    ///
    /// # Errors
    ///
    /// `lease_lost` when this store does not hold the run's lease (another process took it
    /// over); `store_failed` when SQLite fails.
    pub fn append(&mut self, run_id: &str, steps: &[FlowStep]) -> Result<(), FlowStoreError> {
        if steps.is_empty() {
            return Ok(());
        }
        let tx = self
            .connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        check_and_renew(&tx, run_id, self.holder.as_ref())?;
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT OR REPLACE INTO flow_steps (run_id, seq, node_id, output, meta) VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(db)?;
            for step in steps {
                let seq =
                    i64::try_from(step.seq).map_err(|_| FlowStoreError::failed("a step number past 2^63".into()))?;
                insert
                    .execute(params![run_id, seq, step.node_id, step.output, step.meta])
                    .map_err(db)?;
            }
        }
        tx.commit().map_err(db)
    }

    /// Every stored step of `run_id`, in order.
    ///
    /// # Errors
    ///
    /// `store_failed` when SQLite fails.
    pub fn steps(&self, run_id: &str) -> Result<Vec<FlowStep>, FlowStoreError> {
        let mut select = self
            .connection
            .prepare_cached("SELECT seq, node_id, output, meta FROM flow_steps WHERE run_id = ?1 ORDER BY seq")
            .map_err(db)?;
        let rows = select
            .query_map([run_id], |row| {
                Ok(FlowStep {
                    seq: u64::try_from(row.get::<_, i64>(0)?).unwrap_or(0),
                    node_id: row.get(1)?,
                    output: row.get(2)?,
                    meta: row.get(3)?,
                })
            })
            .map_err(db)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(db)
    }

    /// Ends the run with `status` and `result`, and gives its lease up.
    ///
    /// # Errors
    ///
    /// `lease_lost` when this store does not hold the run's lease; `store_failed` when SQLite
    /// fails.
    pub fn finish(&mut self, run_id: &str, status: FlowStatus, result: &str) -> Result<(), FlowStoreError> {
        let tx = self
            .connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        check_and_renew(&tx, run_id, self.holder.as_ref())?;
        tx.execute(
            "UPDATE flow_runs SET status = ?2, result = ?3, lease_owner = NULL, lease_until_ms = NULL WHERE run_id = ?1",
            params![run_id, status.as_str(), result],
        )
        .map_err(db)?;
        tx.commit().map_err(db)
    }
}

/// Refuses a write by a store that does not hold `run_id`'s lease, and renews it otherwise.
fn check_and_renew(tx: &Connection, run_id: &str, holder: Option<&Holder>) -> Result<(), FlowStoreError> {
    let (owner, _) = read_lease(tx, run_id)?.ok_or_else(|| no_run(run_id))?;
    let Some(holder) = holder.filter(|holder| owner.as_deref() == Some(holder.owner.as_str())) else {
        return Err(FlowStoreError {
            kind: ErrorKind::LeaseLost,
            message: format!(
                "workflow run '{run_id}' is no longer this process's to write: {} holds it now, so this \
                 process stops; the run goes on from where that one drives it",
                owner.as_deref().unwrap_or("no process")
            ),
        });
    };
    tx.execute(
        "UPDATE flow_runs SET lease_until_ms = ?2 WHERE run_id = ?1",
        params![run_id, until_ms(holder.lease)],
    )
    .map_err(db)?;
    Ok(())
}

/// Adds the lease columns to a file written before runs had leases.
fn add_lease_columns(connection: &mut Connection) -> Result<(), FlowStoreError> {
    // In a write transaction, so that two processes opening an old file add them once.
    let tx = connection
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(db)?;
    let names = {
        let mut columns = tx.prepare("PRAGMA table_info(flow_runs)").map_err(db)?;
        columns
            .query_map([], |row| row.get::<_, String>(1))
            .map_err(db)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(db)?
    };
    if !names.iter().any(|name| name == "lease_owner") {
        tx.execute_batch(
            "ALTER TABLE flow_runs ADD COLUMN lease_owner TEXT; \
                 ALTER TABLE flow_runs ADD COLUMN lease_until_ms INTEGER;",
        )
        .map_err(db)?;
    }
    tx.commit().map_err(db)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh_file(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("writ-flow-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
        path
    }

    fn holder(owner: &str, lease: Duration) -> Holder {
        Holder {
            owner: owner.into(),
            lease,
        }
    }

    const LONG: Duration = Duration::from_secs(60);

    fn step(seq: u64) -> FlowStep {
        FlowStep {
            seq,
            node_id: format!("n{seq}"),
            output: "\"out\"".into(),
            meta: "{}".into(),
        }
    }

    #[test]
    fn a_run_keeps_its_spec_steps_and_result() {
        let path = fresh_file("flows.db");
        let mut store = FlowStore::open(&path).unwrap();
        store.create("r1", "{\"spec\":1}", holder("a", LONG)).unwrap();
        assert!(
            store.create("r1", "{}", holder("a", LONG)).is_err(),
            "a run id is used once"
        );
        store.append("r1", &[step(1), step(2)]).unwrap();
        store.append("r1", &[step(2)]).unwrap();
        drop(store);
        let mut store = FlowStore::open(&path).unwrap();
        assert_eq!(store.steps("r1").unwrap(), vec![step(1), step(2)]);
        store.acquire("r1", holder("a", LONG)).unwrap();
        assert_eq!(store.run("r1").unwrap().unwrap().status, FlowStatus::Running);
        store.finish("r1", FlowStatus::Completed, "\"done\"").unwrap();
        let run = store.run("r1").unwrap().unwrap();
        assert_eq!(
            (run.status, run.result.as_deref()),
            (FlowStatus::Completed, Some("\"done\""))
        );
        assert!(store.run("r2").unwrap().is_none());
    }

    #[test]
    fn one_process_at_a_time_drives_a_run() {
        let path = fresh_file("leases.db");
        let mut first = FlowStore::open(&path).unwrap();
        first.create("r1", "{}", holder("first", LONG)).unwrap();
        let mut second = FlowStore::open(&path).unwrap();
        let refused = second.acquire("r1", holder("second", LONG)).unwrap_err();
        assert_eq!(refused.code(), "run_in_use");
        assert!(refused.message().contains("first"), "{refused}");
        assert_eq!(second.lease_owner("r1").unwrap().as_deref(), Some("first"));
        assert_eq!(
            second.append("r1", &[step(1)]).unwrap_err().code(),
            "lease_lost",
            "a store that never took the lease cannot write"
        );
        first.append("r1", &[step(1)]).unwrap();

        // The first process is known dead: its live lease is taken over, and it is fenced off.
        assert_eq!(
            second
                .take_over("r1", holder("second", LONG), "someone else")
                .unwrap_err()
                .code(),
            "run_in_use"
        );
        second.take_over("r1", holder("second", LONG), "first").unwrap();
        assert_eq!(first.append("r1", &[step(2)]).unwrap_err().code(), "lease_lost");
        assert_eq!(
            first.renew("r1", &holder("first", LONG)).unwrap_err().code(),
            "lease_lost"
        );
        assert_eq!(
            first.finish("r1", FlowStatus::Completed, "1").unwrap_err().code(),
            "lease_lost"
        );
        second.append("r1", &[step(2)]).unwrap();
        second.renew("r1", &holder("second", LONG)).unwrap();
        assert_eq!(second.steps("r1").unwrap(), vec![step(1), step(2)]);
        second.finish("r1", FlowStatus::Failed, "{}").unwrap();
        assert_eq!(second.lease_owner("r1").unwrap(), None, "a finished run holds no lease");
        first.acquire("r1", holder("first", LONG)).unwrap();
    }

    #[test]
    fn a_lease_that_ran_out_is_free() {
        let path = fresh_file("expiry.db");
        let mut first = FlowStore::open(&path).unwrap();
        first
            .create("r1", "{}", holder("first", Duration::from_millis(30)))
            .unwrap();
        let mut second = FlowStore::open(&path).unwrap();
        assert_eq!(
            second.acquire("r1", holder("second", LONG)).unwrap_err().code(),
            "run_in_use"
        );
        std::thread::sleep(Duration::from_millis(80));
        assert_eq!(second.lease_owner("r1").unwrap(), None);
        second.acquire("r1", holder("second", LONG)).unwrap();
        assert_eq!(first.append("r1", &[step(1)]).unwrap_err().code(), "lease_lost");
    }

    #[test]
    fn a_file_from_before_leases_gains_them() {
        let path = fresh_file("old.db");
        {
            let connection = Connection::open(&path).unwrap();
            connection
                .execute_batch(
                    "CREATE TABLE flow_runs (run_id TEXT PRIMARY KEY, spec TEXT NOT NULL, status TEXT NOT NULL \
                     CHECK (status IN ('running', 'completed', 'failed')), result TEXT); \
                     INSERT INTO flow_runs (run_id, spec, status) VALUES ('old', '{}', 'running');",
                )
                .unwrap();
        }
        let mut store = FlowStore::open(&path).unwrap();
        FlowStore::open(&path).unwrap();
        store.acquire("old", holder("me", LONG)).unwrap();
        store.append("old", &[step(1)]).unwrap();
        assert_eq!(store.steps("old").unwrap(), vec![step(1)]);
    }
}
