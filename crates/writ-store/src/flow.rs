//! Workflow runs (writ-flow): each run's specification and every completed node's output, in
//! SQLite tables of their own beside the plan store's.
//!
//! A run is created once with its specification (the document, named workflows, input, limits,
//! events and answers, as JSON text the runtime writes and reads back); each completed node is
//! one step, numbered by the order in which the run executed nodes, with its output and the
//! host reads (`$now()`, `$millis()`, `$random()`) made since the previous step; the run ends
//! with its result. The tables are created on first use (`CREATE TABLE IF NOT EXISTS`) and are
//! not part of the plan store's schema version.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

/// How long a write waits for another process's transaction.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS flow_runs (
    run_id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
    result TEXT
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
pub struct FlowStoreError(String);

impl FlowStoreError {
    /// The stable code: `store_failed`.
    pub fn code(&self) -> &'static str {
        "store_failed"
    }

    /// What went wrong.
    pub fn message(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for FlowStoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FlowStoreError {}

fn db(error: rusqlite::Error) -> FlowStoreError {
    FlowStoreError(format!("the workflow store failed: {error}"))
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
}

impl FlowStore {
    /// Opens (creating if needed) the file at `path` in WAL mode with `synchronous=NORMAL`
    /// (a commit survives a killed process), and creates the tables on first use.
    ///
    /// # Errors
    ///
    /// `store_failed` when SQLite cannot open or write the file.
    pub fn open(path: impl AsRef<Path>) -> Result<FlowStore, FlowStoreError> {
        let connection = Connection::open(path).map_err(db)?;
        connection.busy_timeout(BUSY_TIMEOUT).map_err(db)?;
        connection
            .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get::<_, String>(0))
            .map_err(db)?;
        connection.pragma_update(None, "synchronous", "NORMAL").map_err(db)?;
        connection.pragma_update(None, "foreign_keys", true).map_err(db)?;
        connection.execute_batch(SCHEMA).map_err(db)?;
        Ok(FlowStore { connection })
    }

    /// Creates the run `run_id` with its specification.
    ///
    /// # Errors
    ///
    /// `store_failed` when a run of that id exists, or SQLite fails.
    pub fn create(&mut self, run_id: &str, spec: &str) -> Result<(), FlowStoreError> {
        let tx = self
            .connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        let exists: Option<i64> = tx
            .query_row("SELECT 1 FROM flow_runs WHERE run_id = ?1", [run_id], |row| row.get(0))
            .optional()
            .map_err(db)?;
        if exists.is_some() {
            return Err(FlowStoreError(format!(
                "a workflow run named '{run_id}' exists already; resume it (writ flow resume {run_id}) or choose another --run-id"
            )));
        }
        tx.execute(
            "INSERT INTO flow_runs (run_id, spec, status) VALUES (?1, ?2, 'running')",
            params![run_id, spec],
        )
        .map_err(db)?;
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
                return Err(FlowStoreError(format!(
                    "workflow run '{run_id}' has an unknown status '{other}'"
                )));
            }
        };
        Ok(Some(FlowRun { spec, status, result }))
    }

    /// Writes steps in one transaction; a step of a number stored already replaces it (a call
    /// entered, then completed).
    ///
    /// # Errors
    ///
    /// `store_failed` when SQLite fails.
    pub fn append(&mut self, run_id: &str, steps: &[FlowStep]) -> Result<(), FlowStoreError> {
        if steps.is_empty() {
            return Ok(());
        }
        let tx = self
            .connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db)?;
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT OR REPLACE INTO flow_steps (run_id, seq, node_id, output, meta) VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(db)?;
            for step in steps {
                let seq = i64::try_from(step.seq).map_err(|_| FlowStoreError("a step number past 2^63".into()))?;
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

    /// Ends the run with `status` and `result`.
    ///
    /// # Errors
    ///
    /// `store_failed` when SQLite fails.
    pub fn finish(&mut self, run_id: &str, status: FlowStatus, result: &str) -> Result<(), FlowStoreError> {
        self.connection
            .execute(
                "UPDATE flow_runs SET status = ?2, result = ?3 WHERE run_id = ?1",
                params![run_id, status.as_str(), result],
            )
            .map_err(db)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_keeps_its_spec_steps_and_result() {
        let dir = std::env::temp_dir().join(format!("writ-flow-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("flows.db");
        let _ = std::fs::remove_file(&path);
        let mut store = FlowStore::open(&path).unwrap();
        store.create("r1", "{\"spec\":1}").unwrap();
        assert!(store.create("r1", "{}").is_err(), "a run id is used once");
        let step = |seq: u64| FlowStep {
            seq,
            node_id: format!("n{seq}"),
            output: "\"out\"".into(),
            meta: "{}".into(),
        };
        store.append("r1", &[step(1), step(2)]).unwrap();
        store.append("r1", &[step(2)]).unwrap();
        drop(store);
        let mut store = FlowStore::open(&path).unwrap();
        assert_eq!(store.steps("r1").unwrap(), vec![step(1), step(2)]);
        assert_eq!(store.run("r1").unwrap().unwrap().status, FlowStatus::Running);
        store.finish("r1", FlowStatus::Completed, "\"done\"").unwrap();
        let run = store.run("r1").unwrap().unwrap();
        assert_eq!(
            (run.status, run.result.as_deref()),
            (FlowStatus::Completed, Some("\"done\""))
        );
        assert!(store.run("r2").unwrap().is_none());
    }
}
