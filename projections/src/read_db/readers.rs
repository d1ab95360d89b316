//! Read-only `rusqlite` connections on one SQLite generation, for the hot queries.
//!
//! sqlx's SQLite driver runs every query on its connection's worker thread: the request's task
//! sends it there and waits to be woken with the rows, thread switches that cost more than the
//! query itself on a machine with few cores, and the rows go through `AnyRow`. A page of browse
//! results is a few primary-key look-ups (tens of microseconds, about what serializing it
//! takes), so these connections run it in place, on the calling thread, with their statements
//! kept prepared. Not through `block_in_place` either: handing the worker's other tasks to
//! another thread for every page cost as many switches as sqlx (measured: explore's
//! requests/s under load went from 0.30 to 0.31-0.36 of `/healthz` with it, 0.39-0.43 without).
//! Under WAL a reader never waits for the writer, so only short reads belong here.
//!
//! The connections belong to one generation: [`super::ReadDb::refresh`] replaces them with the
//! pool, and they close once the last query on the old one is done.

use std::{path::PathBuf, sync::Mutex, time::Duration};

use rusqlite::{Connection, OpenFlags};

/// Connections kept open between queries. A query runs on the calling thread, so as many are
/// in use at once as threads query (the runtime's workers); a connection returned beyond this
/// is closed.
const IDLE: usize = 8;

/// The read connections of one SQLite generation's file, opened on first use.
pub(crate) struct SqliteReaders {
    file: PathBuf,
    idle: Mutex<Vec<Connection>>,
}

impl SqliteReaders {
    pub(super) fn new(file: PathBuf) -> Self {
        Self { file, idle: Mutex::new(Vec::with_capacity(IDLE)) }
    }

    /// Runs `read` on one of the connections, on this thread: keep it short (see the module).
    pub(crate) fn read<T>(&self, read: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> rusqlite::Result<T> {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let conn = match idle {
            Some(conn) => conn,
            None => open(&self.file)?,
        };
        let result = read(&conn);
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < IDLE {
            idle.push(conn);
        }
        result
    }
}

/// A read-only connection with the pool's settings (see `read_db::connect`) and a memory map;
/// the pool created the file, in WAL mode, and migrated it.
fn open(file: &std::path::Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(file, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    conn.busy_timeout(Duration::from_secs(10))?;
    // Pages are read through a memory map (up to 16 GiB of the file): the OS's page cache, shared
    // by every connection, in place of a `read()` and a copy per page into each connection's
    // own cache (a new connection, or one after a switch, starts cold).
    conn.execute_batch("PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY; PRAGMA mmap_size = 17179869184;")?;
    // An explore page's `IN` list has a placeholder per row: a statement per page length.
    conn.set_prepared_statement_cache_capacity(64);
    Ok(conn)
}
