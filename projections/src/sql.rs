//! Multi-row statements for folding a batch of events: one `SELECT ... IN (...)`,
//! `INSERT ... VALUES (...), (...)` or `DELETE ... IN (...)` per chunk of rows instead of one
//! statement per row. The same SQL runs on SQLite (through `rusqlite`) and Postgres (through sqlx's
//! Any driver).

use std::fmt::Write;

use sqlx::{AnyConnection, Row as _, any::AnyRow};

use crate::ProjectionError;

/// Bind parameters per statement: well under SQLite's limit (32,766) and Postgres's (65,535).
const MAX_PARAMS: usize = 4_096;

/// A value bound to a statement.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Value<'a> {
    Text(&'a str),
    /// Text or NULL.
    Opt(Option<&'a str>),
    Int(i64),
}

impl<'a> From<&'a str> for Value<'a> {
    fn from(text: &'a str) -> Self {
        Value::Text(text)
    }
}

impl<'a> From<&'a String> for Value<'a> {
    fn from(text: &'a String) -> Self {
        Value::Text(text)
    }
}

impl<'a> From<&'a Option<String>> for Value<'a> {
    fn from(text: &'a Option<String>) -> Self {
        Value::Opt(text.as_deref())
    }
}

impl From<i64> for Value<'_> {
    fn from(int: i64) -> Self {
        Value::Int(int)
    }
}

/// The placeholder of the `n`th value (from 1). Postgres numbers them (`$n`); SQLite gets
/// plain `?`, numbered in order: with `$n`, SQLite looks each name up in a list, which makes
/// preparing and binding a statement of thousands of values quadratic.
fn placeholder(sql: &mut String, sqlite: bool, n: usize) {
    if sqlite {
        sql.push('?');
    } else {
        let _ = write!(sql, "${n}");
    }
}

/// `($1, $2), ($3, $4)` (or `(?, ?), (?, ?)`): `rows` groups of `width` placeholders.
fn placeholders(sqlite: bool, rows: usize, width: usize) -> String {
    let mut sql = String::with_capacity(rows * width * 6);
    for row in 0..rows {
        sql.push_str(if row == 0 { "(" } else { ", (" });
        for column in 0..width {
            if column > 0 {
                sql.push_str(", ");
            }
            placeholder(&mut sql, sqlite, row * width + column + 1);
        }
        sql.push(')');
    }
    sql
}

/// The connection a read model writes with, inside the projector's transaction: sqlx's Any
/// driver (Postgres), or on SQLite a `rusqlite` connection of the projector's own, which binds
/// values and reads rows in place instead of converting each through the Any driver and sending
/// each statement to sqlx's worker thread (as the event store does). Both run the same SQL.
pub enum Conn<'c> {
    /// Through sqlx's Any driver.
    Any(&'c mut AnyConnection),
    /// SQLite, through `rusqlite`.
    Sqlite(&'c mut rusqlite::Connection),
    /// SQLite later: statements are recorded, to be run by [`Recording::run`]. Reads go to
    /// `reader`, another connection (which sees only what was committed), if any.
    Record {
        recording: &'c mut Recording,
        reader: Option<&'c mut rusqlite::Connection>,
        /// Deferred indexes the folds read through (by name, with their SQL), still to be built
        /// ([`build_fold_indexes`]).
        unbuilt: &'c mut Vec<(String, String)>,
    },
}

fn is_sqlite(conn: &Conn<'_>) -> bool {
    match conn {
        Conn::Any(conn) => conn.backend_name() == "SQLite",
        Conn::Sqlite(_) | Conn::Record { .. } => true,
    }
}

/// Statements and their values, recorded instead of run: while a fresh generation fills, the
/// projector folds one batch into a recording while another thread runs the previous one's.
/// Text values are copied into one buffer, so recording a row allocates nothing of its own.
#[derive(Default)]
pub struct Recording {
    statements: Vec<Recorded>,
    values: Vec<Stored>,
    text: String,
    /// The tokens the batch changed, each with its latest position: every model stamps the
    /// ones it changes (`nft::mark_changed`), and the batch writes each token's stamp once.
    pub(crate) changed: rustc_hash::FxHashMap<String, i64>,
}

struct Recorded {
    sql: String,
    /// Prepared once and kept (see [`run`]).
    keep: bool,
    /// Its values in [`Recording::values`].
    values: std::ops::Range<usize>,
}

/// A recorded value: text is a range of [`Recording::text`].
enum Stored {
    Text(std::ops::Range<usize>),
    Null,
    Int(i64),
}

impl Recording {
    /// Empties it, keeping its buffers for the next batch.
    pub fn clear(&mut self) {
        self.statements.clear();
        self.values.clear();
        self.text.clear();
        self.changed.clear();
    }

    fn record(&mut self, sql: &str, values: &[Value<'_>], keep: bool) {
        let start = self.values.len();
        for value in values {
            let stored = match *value {
                Value::Text(text) | Value::Opt(Some(text)) => {
                    let at = self.text.len();
                    self.text.push_str(text);
                    Stored::Text(at..self.text.len())
                }
                Value::Opt(None) => Stored::Null,
                Value::Int(int) => Stored::Int(int),
            };
            self.values.push(stored);
        }
        self.statements.push(Recorded { sql: sql.to_owned(), keep, values: start..self.values.len() });
    }

    /// Runs the recorded statements in order (inside the caller's transaction).
    pub fn run(&self, conn: &rusqlite::Connection) -> Result<(), rusqlite::Error> {
        let mut values = Vec::new();
        for statement in &self.statements {
            values.clear();
            values.extend(self.values[statement.values.clone()].iter().map(|value| match value {
                Stored::Text(range) => Value::Text(&self.text[range.clone()]),
                Stored::Null => Value::Opt(None),
                Stored::Int(int) => Value::Int(*int),
            }));
            run_sqlite(conn, &statement.sql, &values, false, statement.keep)?;
        }
        Ok(())
    }
}

/// A column's value in a [`Row`].
#[derive(Clone, Debug)]
pub(crate) enum Cell {
    Null,
    Int(i64),
    Text(String),
}

/// A row a `SELECT` returned, owned, whatever the connection.
#[derive(Debug)]
pub(crate) struct Row(Vec<Cell>);

/// What a [`Cell`] can be read as.
pub(crate) trait FromCell: Sized {
    fn from_cell(cell: &Cell) -> Option<Self>;
}

impl FromCell for i64 {
    fn from_cell(cell: &Cell) -> Option<Self> {
        match cell {
            Cell::Int(int) => Some(*int),
            _ => None,
        }
    }
}

impl FromCell for String {
    fn from_cell(cell: &Cell) -> Option<Self> {
        match cell {
            Cell::Text(text) => Some(text.clone()),
            _ => None,
        }
    }
}

impl<T: FromCell> FromCell for Option<T> {
    fn from_cell(cell: &Cell) -> Option<Self> {
        match cell {
            Cell::Null => Some(None),
            cell => T::from_cell(cell).map(Some),
        }
    }
}

impl Row {
    /// Column `i` (from 0) as a `T`.
    pub(crate) fn try_get<T: FromCell>(&self, i: usize) -> Result<T, ProjectionError> {
        self.0.get(i).and_then(T::from_cell).ok_or_else(|| {
            ProjectionError::Database(sqlx::Error::ColumnDecode {
                index: i.to_string(),
                source: format!("{:?} is not a {}", self.0.get(i), std::any::type_name::<T>()).into(),
            })
        })
    }

    fn of_any(row: &AnyRow) -> Result<Self, sqlx::Error> {
        (0..row.len())
            .map(|i| {
                Ok(match row.try_get::<Option<String>, _>(i) {
                    Ok(Some(text)) => Cell::Text(text),
                    Ok(None) => Cell::Null,
                    Err(_) => row.try_get::<Option<i64>, _>(i)?.map_or(Cell::Null, Cell::Int),
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map(Row)
    }

    fn of_sqlite(row: &rusqlite::Row<'_>, columns: usize) -> Result<Self, rusqlite::Error> {
        use rusqlite::types::ValueRef;
        (0..columns)
            .map(|i| {
                Ok(match row.get_ref(i)? {
                    ValueRef::Null => Cell::Null,
                    ValueRef::Integer(int) => Cell::Int(int),
                    ValueRef::Text(text) => Cell::Text(String::from_utf8_lossy(text).into_owned()),
                    other => {
                        return Err(rusqlite::Error::InvalidColumnType(i, String::new(), other.data_type()));
                    }
                })
            })
            .collect::<Result<_, _>>()
            .map(Row)
    }
}

impl rusqlite::ToSql for Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match *self {
            Value::Text(text) | Value::Opt(Some(text)) => ValueRef::Text(text.as_bytes()),
            Value::Opt(None) => ValueRef::Null,
            Value::Int(int) => ValueRef::Integer(int),
        }))
    }
}

/// Runs `sql` (or fetches its rows) with `values` bound in order. A full chunk's statement is
/// the same every time: it stays prepared; a last, partial one is prepared for once.
async fn run(conn: &mut Conn<'_>, sql: &str, values: &[Value<'_>], fetch: bool, full: bool) -> Result<Vec<Row>, ProjectionError> {
    match conn {
        Conn::Any(conn) => {
            let mut query = sqlx::query(sql).persistent(full);
            for value in values {
                query = match *value {
                    Value::Text(text) => query.bind(text),
                    Value::Opt(text) => query.bind(text),
                    Value::Int(int) => query.bind(int),
                };
            }
            if fetch {
                let rows = query.fetch_all(&mut **conn).await?;
                Ok(rows.iter().map(Row::of_any).collect::<Result<_, _>>()?)
            } else {
                query.execute(&mut **conn).await?;
                Ok(Vec::new())
            }
        }
        Conn::Sqlite(conn) => Ok(run_sqlite(conn, sql, values, fetch, full)?),
        Conn::Record { reader: Some(reader), .. } if fetch => Ok(run_sqlite(reader, sql, values, fetch, full)?),
        Conn::Record { reader: None, .. } if fetch => Err(ProjectionError::Unreadable(sql.to_owned())),
        Conn::Record { recording, .. } => {
            recording.record(sql, values, full);
            Ok(Vec::new())
        }
    }
}

/// [`run`] on SQLite: statements are prepared (and kept) by `rusqlite`, on this thread.
fn run_sqlite(conn: &rusqlite::Connection, sql: &str, values: &[Value<'_>], fetch: bool, full: bool) -> Result<Vec<Row>, rusqlite::Error> {
    let mut cached;
    let mut once;
    let statement: &mut rusqlite::Statement<'_> = if full {
        cached = conn.prepare_cached(sql)?;
        &mut cached
    } else {
        once = conn.prepare(sql)?;
        &mut once
    };
    for (i, value) in values.iter().enumerate() {
        statement.raw_bind_parameter(i + 1, value)?;
    }
    if !fetch {
        statement.raw_execute()?;
        return Ok(Vec::new());
    }
    let columns = statement.column_count();
    let mut rows = statement.raw_query();
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.push(Row::of_sqlite(row, columns)?);
    }
    Ok(out)
}

/// Runs one statement whose values are numbered `$1`, `$2`... in its text (on SQLite as `?1`,
/// `?2`...: bound by number, not in the order they appear).
pub(crate) async fn execute(conn: &mut Conn<'_>, sql: &str, values: &[Value<'_>]) -> Result<(), ProjectionError> {
    let sql = if is_sqlite(conn) { sql.replace('$', "?") } else { sql.to_owned() };
    run(conn, &sql, values, false, true).await.map(drop)
}

/// Forgets a deferred index once it is built (the projector's own SQLite connection runs it
/// too: `$1` binds by position there as well).
pub(crate) const DEFERRED_BUILT: &str = "DELETE FROM projector_deferred_indexes WHERE name = $1";

/// Builds the deferred indexes the folds read through, if some still are (filling: recorded, so
/// they are built before the statements recorded after this), before a statement that reads or
/// deletes through them.
pub(crate) async fn build_fold_indexes(conn: &mut Conn<'_>) -> Result<(), ProjectionError> {
    let Conn::Record { unbuilt, .. } = conn else { return Ok(()) };
    for (name, index) in std::mem::take(*unbuilt) {
        execute(conn, &index, &[]).await?;
        execute(conn, DEFERRED_BUILT, &[name.as_str().into()]).await?;
    }
    Ok(())
}

/// `INSERT INTO {table} ({columns}) VALUES (...), ... {tail}` for every row, in chunks; `tail`
/// is an `ON CONFLICT` clause or empty. Each row has one value per column.
pub(crate) async fn insert(
    conn: &mut Conn<'_>,
    table: &str,
    columns: &[&str],
    tail: &str,
    rows: &[Vec<Value<'_>>],
) -> Result<(), ProjectionError> {
    debug_assert!(rows.iter().all(|row| row.len() == columns.len()));
    let values: Vec<Value<'_>> = rows.iter().flatten().copied().collect();
    insert_flat(conn, table, columns, tail, &values).await
}

/// [`insert`] with the rows' values one after the other (one value per column, row after
/// row): no vector per row.
pub(crate) async fn insert_flat(
    conn: &mut Conn<'_>,
    table: &str,
    columns: &[&str],
    tail: &str,
    values: &[Value<'_>],
) -> Result<(), ProjectionError> {
    let width = columns.len();
    debug_assert_eq!(values.len() % width, 0);
    let per_chunk = (MAX_PARAMS / width).max(1);
    for chunk in values.chunks(per_chunk * width) {
        let rows = chunk.len() / width;
        let placeholders = placeholders(is_sqlite(conn), rows, width);
        let sql = format!("INSERT INTO {table} ({}) VALUES {placeholders} {tail}", columns.join(", "));
        run(conn, &sql, chunk, false, rows == per_chunk).await?;
    }
    Ok(())
}

/// `UPDATE {table} SET c = v.c ... FROM (VALUES (...), ...) AS v WHERE {table}.{key} = v.{key}`
/// for every row, in chunks: the first of `columns` is the key, the others are set.
pub(crate) async fn update(conn: &mut Conn<'_>, table: &str, columns: &[&str], rows: &[Vec<Value<'_>>]) -> Result<(), ProjectionError> {
    debug_assert!(rows.iter().all(|row| row.len() == columns.len()));
    let values: Vec<Value<'_>> = rows.iter().flatten().copied().collect();
    update_flat(conn, table, columns, &values).await
}

/// [`update`] with the rows' values one after the other (see [`insert_flat`]).
pub(crate) async fn update_flat(conn: &mut Conn<'_>, table: &str, columns: &[&str], values: &[Value<'_>]) -> Result<(), ProjectionError> {
    let width = columns.len();
    debug_assert_eq!(values.len() % width, 0);
    let per_chunk = (MAX_PARAMS / width).max(1);
    // A VALUES list's columns are named column1, column2... in both databases.
    let set: Vec<String> = columns.iter().enumerate().skip(1).map(|(i, c)| format!("{c} = v.column{}", i + 1)).collect();
    for chunk in values.chunks(per_chunk * width) {
        let rows = chunk.len() / width;
        let sql = format!(
            "UPDATE {table} SET {} FROM (VALUES {}) AS v WHERE {table}.{} = v.column1",
            set.join(", "),
            placeholders(is_sqlite(conn), rows, width),
            columns[0],
        );
        run(conn, &sql, chunk, false, rows == per_chunk).await?;
    }
    Ok(())
}

/// `ON CONFLICT ({key}) DO UPDATE SET c = excluded.c` for each of `columns` not in the key.
pub(crate) fn upsert(key: &[&str], columns: &[&str]) -> String {
    let set: Vec<String> = columns.iter().filter(|c| !key.contains(c)).map(|c| format!("{c} = excluded.{c}")).collect();
    format!("ON CONFLICT ({}) DO UPDATE SET {}", key.join(", "), set.join(", "))
}

/// The rows of `sql`, whose `IN ()` is filled with `keys`, a chunk at a time.
pub(crate) async fn select_in(conn: &mut Conn<'_>, sql: &str, keys: &[Value<'_>]) -> Result<Vec<Row>, ProjectionError> {
    let mut rows = Vec::new();
    for chunk in keys.chunks(MAX_PARAMS) {
        let sql = fill_in(is_sqlite(conn), sql, chunk.len());
        rows.extend(run(conn, &sql, chunk, true, chunk.len() == MAX_PARAMS).await?);
    }
    Ok(rows)
}

/// Runs `sql`, whose `IN ()` is filled with `keys`, a chunk at a time.
pub(crate) async fn execute_in(conn: &mut Conn<'_>, sql: &str, keys: &[Value<'_>]) -> Result<(), ProjectionError> {
    for chunk in keys.chunks(MAX_PARAMS) {
        let sql = fill_in(is_sqlite(conn), sql, chunk.len());
        run(conn, &sql, chunk, false, chunk.len() == MAX_PARAMS).await?;
    }
    Ok(())
}

/// `sql` with its `IN ()` holding `n` placeholders.
fn fill_in(sqlite: bool, sql: &str, n: usize) -> String {
    debug_assert!(sql.contains("IN ()"));
    let mut list = String::from("IN (");
    for i in 1..=n {
        if i > 1 {
            list.push_str(", ");
        }
        placeholder(&mut list, sqlite, i);
    }
    list.push(')');
    sql.replacen("IN ()", &list, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_number_rows_then_columns() {
        assert_eq!(placeholders(false, 2, 3), "($1, $2, $3), ($4, $5, $6)");
        assert_eq!(placeholders(true, 2, 2), "(?, ?), (?, ?)");
        assert_eq!(fill_in(false, "SELECT a FROM t WHERE k IN () AND b = 1", 2), "SELECT a FROM t WHERE k IN ($1, $2) AND b = 1");
        assert_eq!(fill_in(true, "SELECT a FROM t WHERE k IN ()", 2), "SELECT a FROM t WHERE k IN (?, ?)");
        assert_eq!(upsert(&["id"], &["id", "a", "b"]), "ON CONFLICT (id) DO UPDATE SET a = excluded.a, b = excluded.b");
    }
}
