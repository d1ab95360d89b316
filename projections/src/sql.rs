//! Multi-row statements for folding a batch of events: one `SELECT ... IN (...)`,
//! `INSERT ... VALUES (...), (...)` or `DELETE ... IN (...)` per chunk of rows instead of one
//! statement per row. The same SQL runs on SQLite and Postgres through the Any driver.

use std::fmt::Write;

use sqlx::{AnyConnection, any::AnyRow};

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

fn is_sqlite(conn: &AnyConnection) -> bool {
    conn.backend_name() == "SQLite"
}

/// Runs `sql` (or fetches its rows) with `values` bound in order. A full chunk's statement is
/// the same every time: it stays prepared; a last, partial one is prepared for once.
async fn run(conn: &mut AnyConnection, sql: &str, values: &[Value<'_>], fetch: bool, full: bool) -> Result<Vec<AnyRow>, sqlx::Error> {
    let mut query = sqlx::query(sql).persistent(full);
    for value in values {
        query = match *value {
            Value::Text(text) => query.bind(text),
            Value::Opt(text) => query.bind(text),
            Value::Int(int) => query.bind(int),
        };
    }
    if fetch { query.fetch_all(conn).await } else { query.execute(conn).await.map(|_| Vec::new()) }
}

/// `INSERT INTO {table} ({columns}) VALUES (...), ... {tail}` for every row, in chunks; `tail`
/// is an `ON CONFLICT` clause or empty. Each row has one value per column.
pub(crate) async fn insert(
    conn: &mut AnyConnection,
    table: &str,
    columns: &[&str],
    tail: &str,
    rows: &[Vec<Value<'_>>],
) -> Result<(), sqlx::Error> {
    let width = columns.len();
    let per_chunk = (MAX_PARAMS / width).max(1);
    for chunk in rows.chunks(per_chunk) {
        let values = placeholders(is_sqlite(conn), chunk.len(), width);
        let sql = format!("INSERT INTO {table} ({}) VALUES {values} {tail}", columns.join(", "));
        let values: Vec<Value<'_>> = chunk.iter().flat_map(|row| row.iter().copied()).collect();
        debug_assert_eq!(values.len(), chunk.len() * width);
        run(conn, &sql, &values, false, chunk.len() == per_chunk).await?;
    }
    Ok(())
}

/// `UPDATE {table} SET c = v.c ... FROM (VALUES (...), ...) AS v WHERE {table}.{key} = v.{key}`
/// for every row, in chunks: the first of `columns` is the key, the others are set.
pub(crate) async fn update(conn: &mut AnyConnection, table: &str, columns: &[&str], rows: &[Vec<Value<'_>>]) -> Result<(), sqlx::Error> {
    let width = columns.len();
    let per_chunk = (MAX_PARAMS / width).max(1);
    // A VALUES list's columns are named column1, column2... in both databases.
    let set: Vec<String> = columns.iter().enumerate().skip(1).map(|(i, c)| format!("{c} = v.column{}", i + 1)).collect();
    for chunk in rows.chunks(per_chunk) {
        let sql = format!(
            "UPDATE {table} SET {} FROM (VALUES {}) AS v WHERE {table}.{} = v.column1",
            set.join(", "),
            placeholders(is_sqlite(conn), chunk.len(), width),
            columns[0],
        );
        let values: Vec<Value<'_>> = chunk.iter().flat_map(|row| row.iter().copied()).collect();
        debug_assert_eq!(values.len(), chunk.len() * width);
        run(conn, &sql, &values, false, chunk.len() == per_chunk).await?;
    }
    Ok(())
}

/// `ON CONFLICT ({key}) DO UPDATE SET c = excluded.c` for each of `columns` not in the key.
pub(crate) fn upsert(key: &[&str], columns: &[&str]) -> String {
    let set: Vec<String> = columns.iter().filter(|c| !key.contains(c)).map(|c| format!("{c} = excluded.{c}")).collect();
    format!("ON CONFLICT ({}) DO UPDATE SET {}", key.join(", "), set.join(", "))
}

/// The rows of `sql`, whose `IN ()` is filled with `keys`, a chunk at a time.
pub(crate) async fn select_in(conn: &mut AnyConnection, sql: &str, keys: &[Value<'_>]) -> Result<Vec<AnyRow>, sqlx::Error> {
    let mut rows = Vec::new();
    for chunk in keys.chunks(MAX_PARAMS) {
        let sql = fill_in(is_sqlite(conn), sql, chunk.len());
        rows.extend(run(conn, &sql, chunk, true, chunk.len() == MAX_PARAMS).await?);
    }
    Ok(rows)
}

/// Runs `sql`, whose `IN ()` is filled with `keys`, a chunk at a time.
pub(crate) async fn execute_in(conn: &mut AnyConnection, sql: &str, keys: &[Value<'_>]) -> Result<(), sqlx::Error> {
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
