//! Checkpoints of a SQLite store's write-ahead log, on a thread of their own.
//!
//! In WAL mode a commit appends to the log; a checkpoint copies the log back into the database
//! file and flushes it. SQLite's automatic checkpoint runs inside whichever commit crosses the
//! threshold, so one step of a run now and then waited for the copy and the flush (at the
//! default threshold, about 40% on top of every commit). Here a thread with a connection of its
//! own checkpoints in `PASSIVE` mode, which never waits for or blocks a writer, every few
//! hundred milliseconds; the committing connection keeps an automatic checkpoint only as a
//! backstop, at a threshold this thread keeps the log below.

use std::path::Path;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::Connection;

/// How often the thread checkpoints.
const EVERY: Duration = Duration::from_millis(250);

/// The checkpointing thread of one store; dropping it stops the thread and waits for it.
#[derive(Debug)]
pub(crate) struct Checkpointer {
    stop: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    /// Starts checkpointing the database at `path`. `None` when the thread or its connection
    /// cannot be had: the store then relies on SQLite's automatic checkpoints alone.
    pub(crate) fn start(path: &Path, busy_timeout: Duration) -> Option<Checkpointer> {
        let connection = Connection::open(path).ok()?;
        connection.busy_timeout(busy_timeout).ok()?;
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        let signal = stop.clone();
        let thread = std::thread::Builder::new()
            .name("writ-store-checkpoint".into())
            .spawn(move || {
                let (stopped, wake) = &*signal;
                let mut stopped_now = stopped.lock().unwrap_or_else(PoisonError::into_inner);
                while !*stopped_now {
                    stopped_now = wake
                        .wait_timeout(stopped_now, EVERY)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0;
                    if !*stopped_now {
                        // A checkpoint that cannot run now (the file busy, a reader on old
                        // pages) simply runs at the next turn.
                        let _ = connection.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                    }
                }
            })
            .ok()?;
        Some(Checkpointer {
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        let (stopped, wake) = &*self.stop;
        *stopped.lock().unwrap_or_else(PoisonError::into_inner) = true;
        wake.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
