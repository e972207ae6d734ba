//! Both stores pass the one conformance suite; the SQLite store also keeps its state on disk,
//! across connections.

mod memory {
    writ_store::plan_store_conformance!(Box::new(writ_store::MemoryStore::new()));
}

mod sqlite {
    use super::TempDb;

    writ_store::plan_store_conformance!(TempDb::new());
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
    raw.execute("UPDATE writ_schema SET version = 2", []).expect("bump");
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
