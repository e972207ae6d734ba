//! Both stores pass the one conformance suite; the SQLite store also keeps its state on disk,
//! across connections.

mod memory {
    writ_store::plan_store_conformance!(Box::new(writ_store::MemoryStore::new()));
    writ_store::run_store_conformance!(Box::new(writ_store::MemoryStore::new()));
}

mod sqlite {
    use super::TempDb;

    writ_store::plan_store_conformance!(TempDb::new());
    writ_store::run_store_conformance!(TempDb::new());
}

use std::ops::Deref;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use writ_store::{NewPlan, PlanState, PlanStore, SqliteStore};

/// A SQLite store in a fresh directory, removed when dropped.
struct TempDb {
    store: Option<SqliteStore>,
    dir: PathBuf,
}

impl TempDb {
    fn new() -> TempDb {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "writ-store-test-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let store = SqliteStore::open(dir.join("plans.db")).expect("open");
        TempDb {
            store: Some(store),
            dir,
        }
    }

    fn path(&self) -> PathBuf {
        self.dir.join("plans.db")
    }

    /// Closes this connection and opens the file again.
    fn reopen(&mut self) {
        self.store = None;
        self.store = Some(SqliteStore::open(self.path()).expect("reopen"));
    }
}

impl Deref for TempDb {
    type Target = SqliteStore;

    fn deref(&self) -> &SqliteStore {
        self.store.as_ref().expect("an open store")
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        self.store = None;
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn approved(store: &impl PlanStore, plan_id: &str) -> writ_store::PlanSummary {
    store.create(plan_id, NewPlan::default()).expect("create");
    let summary = store
        .append_ops(plan_id, &writ_store::conformance::plan_ops(), None)
        .expect("append");
    store.freeze(plan_id, &summary.digest).expect("freeze");
    let view = store.read_plan(plan_id).expect("read").view;
    let record = writ_plan::ApprovalRecord::for_view(&view, "ann", "2026-12-02T04:00:00Z");
    store.approve(plan_id, &record).expect("approve")
}

#[test]
fn a_reopened_file_gives_the_same_state() {
    let mut db = TempDb::new();
    let executable = approved(&*db, "plan-a");
    let claimed = db.claim_run("plan-a", &executable.digest, "run-1").expect("claim");
    db.create("plan-b", NewPlan::default()).expect("create");
    db.clone_plan("plan-a", "plan-c", Some(4)).expect("clone");
    let before = db.list().expect("list");
    let ops = db.read_ops("plan-a", None).expect("ops");
    db.reopen();
    assert_eq!(db.list().expect("list"), before);
    assert_eq!(db.read_state("plan-a").expect("read"), claimed);
    assert_eq!(db.read_ops("plan-a", None).expect("ops"), ops);
    assert_eq!(db.read_state("plan-c").expect("read").revision, 4);
    assert_eq!(
        db.claim_run("plan-a", &executable.digest, "run-2").unwrap_err().code(),
        "run_already_claimed"
    );
}

#[test]
fn connections_to_one_file_share_one_run_claim() {
    let db = TempDb::new();
    let executable = approved(&*db, "plan-a");
    let others: Vec<SqliteStore> = (0..3).map(|_| SqliteStore::open(db.path()).expect("open")).collect();
    assert_eq!(
        others[0].read_state("plan-a").expect("read").state,
        PlanState::Executable
    );
    let barrier = std::sync::Barrier::new(others.len());
    let results: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = others
            .iter()
            .enumerate()
            .map(|(n, store)| {
                let (barrier, digest) = (&barrier, &executable.digest);
                scope.spawn(move || {
                    barrier.wait();
                    store.claim_run("plan-a", digest, &format!("run-{n}"))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().expect("a claim thread"))
            .collect()
    });
    let winners: Vec<_> = results.iter().filter_map(|result| result.as_ref().ok()).collect();
    assert_eq!(winners.len(), 1, "{results:?}");
    let winner = winners[0].run_id.clone().expect("a run id");
    for error in results.iter().filter_map(|result| result.as_ref().err()) {
        assert_eq!(error.code(), "run_already_claimed");
        assert!(error.to_string().contains(&winner), "{error}");
    }
    assert_eq!(db.read_state("plan-a").expect("read").run_id, Some(winner));
}

#[test]
fn damaged_rows_are_named_not_trusted() {
    let db = TempDb::new();
    approved(&*db, "plan-a");
    let raw = rusqlite::Connection::open(db.path()).expect("open");
    raw.execute("UPDATE plan_ops SET op = '{\"opId\": 1}' WHERE seq = 2", [])
        .expect("damage");
    let error = db.read_state("plan-a").unwrap_err();
    assert_eq!(error.code(), "store_corrupt");
    assert!(error.to_string().contains("plan-a"), "{error}");
}

#[test]
fn an_edit_made_underneath_voids_the_frozen_digest() {
    let db = TempDb::new();
    let executable = approved(&*db, "plan-a");
    let raw = rusqlite::Connection::open(db.path()).expect("open");
    let text: String = raw
        .query_row("SELECT op FROM plan_ops WHERE seq = 1", [], |row| row.get(0))
        .expect("read");
    raw.execute(
        "UPDATE plan_ops SET op = ?1 WHERE seq = 1",
        [text.replace("a scratch folder", "/")],
    )
    .expect("edit");
    let now = db.read_state("plan-a").expect("read");
    assert_ne!(now.digest, executable.digest);
    let error = db.claim_run("plan-a", &executable.digest, "run-1").unwrap_err();
    assert_eq!(error.code(), "digest_mismatch");
    let error = db.claim_run("plan-a", &now.digest, "run-1").unwrap_err();
    assert_eq!(
        error.code(),
        "digest_mismatch",
        "the approved digest binds, not the one read now"
    );
}

#[test]
fn a_newer_schema_is_refused() {
    let db = TempDb::new();
    let raw = rusqlite::Connection::open(db.path()).expect("open");
    raw.execute("UPDATE writ_schema SET version = 5", []).expect("bump");
    let error = SqliteStore::open(db.path()).unwrap_err();
    assert_eq!(error.code(), "schema_too_new");
}

/// Three processes (this test binary, run again as a child for each) claim the run of one plan
/// in one file: one wins, the others are told its run id.
#[test]
fn processes_share_one_run_claim() {
    if let Ok(path) = std::env::var("WRIT_STORE_CLAIM_DB") {
        // The child: one claim, its outcome on stdout.
        let store = SqliteStore::open(path).expect("open");
        let digest = std::env::var("WRIT_STORE_CLAIM_DIGEST").expect("a digest");
        let run_id = std::env::var("WRIT_STORE_CLAIM_RUN").expect("a run id");
        match store.claim_run("plan-a", &digest, &run_id) {
            Ok(summary) => println!("claim-outcome won {}", summary.run_id.expect("a run id")),
            Err(error) => println!("claim-outcome {error}"),
        }
        return;
    }
    let db = TempDb::new();
    let executable = approved(&*db, "plan-a");
    let children: Vec<_> = (0..3)
        .map(|n| {
            std::process::Command::new(std::env::current_exe().expect("the test binary"))
                .args([
                    "--exact",
                    "processes_share_one_run_claim",
                    "--nocapture",
                    "--test-threads=1",
                ])
                .env("WRIT_STORE_CLAIM_DB", db.path())
                .env("WRIT_STORE_CLAIM_DIGEST", &executable.digest)
                .env("WRIT_STORE_CLAIM_RUN", format!("run-{n}"))
                .stdout(std::process::Stdio::piped())
                .spawn()
                .expect("a child process")
        })
        .collect();
    let outcomes: Vec<String> = children
        .into_iter()
        .map(|child| {
            let output = child.wait_with_output().expect("the child's output");
            assert!(output.status.success(), "{output:?}");
            String::from_utf8_lossy(&output.stdout)
                .lines()
                .find_map(|line| line.split_once("claim-outcome ").map(|(_, outcome)| outcome.to_owned()))
                .unwrap_or_else(|| panic!("no outcome in {output:?}"))
        })
        .collect();
    let winners: Vec<&str> = outcomes.iter().filter_map(|line| line.strip_prefix("won ")).collect();
    assert_eq!(winners.len(), 1, "{outcomes:?}");
    let winner = winners[0].to_owned();
    for outcome in outcomes.iter().filter(|line| !line.starts_with("won ")) {
        assert!(
            outcome.starts_with("run_already_claimed") && outcome.contains(&winner),
            "{outcome}"
        );
    }
    assert_eq!(db.read_state("plan-a").expect("read").run_id, Some(winner));
}

use std::time::Duration;

use writ_store::run::{FrameRef, NodeOutcome, RunStatus};
use writ_store::{Durability, RunBatch, RunEvent, RunStore};

fn entered(node_id: &str, at: u64) -> RunEvent {
    RunEvent::NodeEntered {
        frame: FrameRef {
            node_id: node_id.into(),
            kind: "call".into(),
            branch_id: std::sync::Arc::default(),
            via_edge_id: None,
        },
        parents: vec![],
        idempotency_key: Some(format!("key-{node_id}")),
        at,
    }
}

fn claimed(store: &impl RunStore, plan_id: &str, run_id: &str) {
    let executable = approved(store, plan_id);
    store.claim_run(plan_id, &executable.digest, run_id).expect("claim");
}

/// Two stores on one file (two connections, as two processes would hold) race to acquire one
/// run's lease: exactly one wins, the other is told who holds it, and only the winner appends.
#[test]
fn connections_to_one_file_share_one_lease() {
    let db = TempDb::new();
    claimed(&*db, "plan-a", "run-1");
    let stores: Vec<SqliteStore> = (0..2).map(|_| SqliteStore::open(db.path()).expect("open")).collect();
    for round in 0..20 {
        let barrier = std::sync::Barrier::new(stores.len());
        let results: Vec<_> = std::thread::scope(|scope| {
            let handles: Vec<_> = stores
                .iter()
                .enumerate()
                .map(|(n, store)| {
                    let barrier = &barrier;
                    scope.spawn(move || {
                        barrier.wait();
                        store.acquire_run("run-1", &format!("w{n}"), Duration::from_secs(600))
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|handle| handle.join().expect("an acquire thread"))
                .collect()
        });
        let winners: Vec<usize> = (0..results.len()).filter(|&n| results[n].is_ok()).collect();
        assert_eq!(winners.len(), 1, "round {round}: {results:?}");
        let (winner, loser) = (winners[0], 1 - winners[0]);
        let error = results[loser].as_ref().unwrap_err();
        assert_eq!(error.code(), "run_in_use", "round {round}");
        assert!(error.to_string().contains(&format!("w{winner}")), "{error}");
        let event = [entered("fetch_report", round)];
        let batch = [RunBatch {
            run_id: "run-1",
            events: &event,
        }];
        assert_eq!(
            stores[loser]
                .append_run_events(&format!("w{loser}"), &batch)
                .unwrap_err()
                .code(),
            "lease_lost"
        );
        stores[winner]
            .append_run_events(&format!("w{winner}"), &batch)
            .expect("the winner appends");
        stores[winner]
            .release_run("run-1", &format!("w{winner}"))
            .expect("release");
    }
    assert_eq!(db.read_run("run-1").expect("read run").events, 20);
}

/// A committed batch is in the file: a new connection reads it back, status and count included,
/// in both durability modes.
#[test]
fn a_batch_survives_reopening() {
    for durability in [Durability::Process, Durability::PowerLoss] {
        let mut db = TempDb::new();
        db.store = None;
        let store = SqliteStore::open_with(db.path(), durability).expect("open");
        claimed(&store, "plan-a", "run-1");
        store
            .acquire_run("run-1", "w1", Duration::from_secs(600))
            .expect("acquire");
        let events = [
            entered("fetch_report", 1),
            RunEvent::NodeSettled {
                frame: "fetch_report:".into(),
                outcome: NodeOutcome::Ok {
                    output: vec![serde_json::json!({"rows": [1, "two", null]})],
                },
                verdict: None,
                host_reads: vec![serde_json::json!(1_764_650_000_000_u64)],
                attempts: None,
                at: 2,
            },
            RunEvent::RunSettled {
                outcome: writ_store::run::RunOutcome::Halted,
                at: 3,
            },
        ];
        store
            .append_run_events(
                "w1",
                &[RunBatch {
                    run_id: "run-1",
                    events: &events,
                }],
            )
            .expect("append");
        let summary = store.read_run("run-1").expect("read run");
        drop(store);
        db.reopen();
        assert_eq!(db.read_run_events("run-1").expect("events"), events, "{durability:?}");
        let reread = db.read_run("run-1").expect("read run");
        assert_eq!(reread, summary);
        assert_eq!(reread.status, RunStatus::Settled(writ_store::run::RunOutcome::Halted));
        db.renew_run("run-1", "w1", Duration::from_secs(1))
            .expect("the lease is in the file too");
    }
}

/// A file written by a writ of schema version 1 (plans and op logs only, made here by hand) is
/// migrated in place when opened: its plans read as before, its claimed run exists with an
/// empty log and no lease, and runs can be driven.
#[test]
fn a_version_1_file_is_migrated() {
    let source = TempDb::new();
    let executable = approved(&*source, "plan-a");
    source.claim_run("plan-a", &executable.digest, "run-1").expect("claim");
    approved(&*source, "plan-b");
    source.create("plan-c", NewPlan::default()).expect("create");
    let plans = source.list().expect("list");

    let mut db = TempDb::new();
    db.store = None;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(db.dir.join(format!("plans.db{suffix}")));
    }
    let raw = rusqlite::Connection::open(db.path()).expect("open");
    raw.execute_batch(
        "
        CREATE TABLE writ_schema (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
        INSERT INTO writ_schema (id, version) VALUES (1, 1);
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
        ",
    )
    .expect("the version-1 schema");
    raw.execute(
        "ATTACH DATABASE ?1 AS source",
        [source.path().to_str().expect("a UTF-8 path")],
    )
    .expect("attach");
    raw.execute_batch(
        "INSERT INTO plans SELECT plan_id, state, label, provenance, frozen_digest, approval, run_id FROM source.plans;
         INSERT INTO plan_ops SELECT plan_id, seq, op_id, op FROM source.plan_ops;
         DETACH DATABASE source;",
    )
    .expect("copy the plans");
    drop(raw);

    db.reopen();
    assert_eq!(db.list().expect("list"), plans);
    let run = db.read_run("run-1").expect("the claimed run has its row");
    assert_eq!(
        (run.plan_id.as_str(), run.status, run.events),
        ("plan-a", RunStatus::Abandoned, 0)
    );
    assert_eq!(db.list_runs(None).expect("list runs"), [run]);
    db.acquire_run("run-1", "w1", Duration::from_secs(600))
        .expect("acquire");
    let event = [entered("fetch_report", 1)];
    db.append_run_events(
        "w1",
        &[RunBatch {
            run_id: "run-1",
            events: &event,
        }],
    )
    .expect("append");
    let b = db.read_state("plan-b").expect("read");
    db.claim_run("plan-b", &b.digest, "run-2")
        .expect("claim after migrating");
    assert_eq!(db.list_runs(None).expect("list runs").len(), 2);
    db.reopen();
    assert_eq!(db.read_run_events("run-1").expect("events"), event);
    let raw = rusqlite::Connection::open(db.path()).expect("open");
    let version: i64 = raw
        .query_row("SELECT version FROM writ_schema", [], |row| row.get(0))
        .expect("version");
    assert_eq!(version, 4);
}

/// Commits go to the write-ahead log; the store's own thread copies them into the file soon
/// after, with no commit needed to set it off.
#[test]
fn the_log_is_checkpointed_into_the_file_without_a_commit() {
    let db = TempDb::new();
    claimed(&*db, "plan-a", "run-1");
    db.acquire_run("run-1", "w", Duration::from_secs(600)).expect("acquire");
    let file_len = || std::fs::metadata(db.path()).expect("the file").len();
    // Let the thread catch up with the claim, so what follows is in the log only.
    std::thread::sleep(Duration::from_millis(600));
    let before = file_len();
    // About 2 MiB of events, well past the file's current size.
    let event = [entered(&"x".repeat(2000), 0)];
    for _ in 0..1000 {
        let batch = [RunBatch {
            run_id: "run-1",
            events: &event,
        }];
        db.append_run_events("w", &batch).expect("append");
    }
    let grown = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(50));
        file_len() > before + 1_000_000
    });
    assert!(grown, "the file stayed at {} bytes (it was {before})", file_len());
}
