//! `marketplace export`: a read table, or a query's result, from the current generation of the
//! read models to a CSV file (RFC 4180: a header row, fields quoted when they hold a comma, a
//! quote or a line break; NULL as an empty field).

use std::io::Write;

use projections::ReadDb;
use sqlx::{Column, Row, ValueRef, any::AnyRow};

/// Everything exporting can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The table name is not a read table.
    #[error("no read table named {0:?}")]
    NoSuchTable(String),
    /// The query failed.
    #[error("query failed: {0}")]
    Query(#[from] sqlx::Error),
    /// The file could not be written.
    #[error("writing the file: {0}")]
    Io(#[from] std::io::Error),
}

/// What to export.
pub enum Source {
    /// A whole read table, in its primary key's order.
    Table(String),
    /// The rows of a query.
    Query(String),
}

/// Writes `source` from `read`'s current generation as CSV to `out`; returns the rows written.
pub async fn csv(read: &ReadDb, source: &Source, out: &mut impl Write) -> Result<u64, ExportError> {
    let sql = match source {
        Source::Table(table) => {
            let tables = read_tables(read).await?;
            if !tables.contains(table) {
                return Err(ExportError::NoSuchTable(table.clone()));
            }
            format!("SELECT * FROM \"{table}\" ORDER BY 1")
        }
        Source::Query(sql) => sql.clone(),
    };
    let (columns, rows) = rows_as_text(read, &sql).await?;
    let columns = match (columns.is_empty(), source) {
        // No rows: the header still says what a table's columns are.
        (true, Source::Table(table)) => column_names(read, table).await?,
        _ => columns,
    };
    if !columns.is_empty() {
        writeln!(out, "{}", columns.iter().map(|c| field(c)).collect::<Vec<_>>().join(","))?;
    }
    let mut written = 0;
    for row in &rows {
        let fields: Vec<String> = row.iter().map(|value| value.as_deref().map(field).unwrap_or_default()).collect();
        writeln!(out, "{}", fields.join(","))?;
        written += 1;
    }
    out.flush()?;
    Ok(written)
}

/// Runs `sql` on the current generation and returns its column names (empty when there are no
/// rows) and every value as text (None for NULL), exactly: on Postgres each row goes through
/// `to_json` and `json_each_text`, so `NUMERIC` sums of wei keep every digit (and types the
/// `Any` driver cannot decode still come out).
pub async fn rows_as_text(read: &ReadDb, sql: &str) -> Result<(Vec<String>, Vec<Vec<Option<String>>>), sqlx::Error> {
    let mut columns = Vec::new();
    let mut rows: Vec<Vec<Option<String>>> = Vec::new();
    if read.is_sqlite() {
        for row in sqlx::query(sql).fetch_all(&read.pool()).await? {
            if columns.is_empty() {
                columns = row.columns().iter().map(|c| c.name().to_owned()).collect();
            }
            rows.push((0..row.len()).map(|i| text(&row, i)).collect());
        }
        return Ok((columns, rows));
    }
    let wrapped = format!(
        "SELECT r.n, j.key, j.value FROM (SELECT row_number() OVER () AS n, to_json(q) AS doc FROM ({sql}) q) r, \
         json_each_text(r.doc) WITH ORDINALITY AS j(key, value, k) ORDER BY r.n, j.k"
    );
    let mut current = None;
    for row in sqlx::query(&wrapped).fetch_all(&read.pool()).await? {
        let (n, key, value): (i64, String, Option<String>) = (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
        if current != Some(n) {
            current = Some(n);
            rows.push(Vec::new());
        }
        if rows.len() == 1 {
            columns.push(key);
        }
        rows.last_mut().expect("pushed above").push(value);
    }
    Ok((columns, rows))
}

/// The read tables of the current generation (bookkeeping included).
async fn read_tables(read: &ReadDb) -> Result<Vec<String>, sqlx::Error> {
    let sql = if read.is_sqlite() {
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_sqlx%'"
    } else {
        "SELECT CAST(table_name AS TEXT) FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
    };
    sqlx::query_scalar(sql).fetch_all(&read.pool()).await
}

async fn column_names(read: &ReadDb, table: &str) -> Result<Vec<String>, sqlx::Error> {
    let sql = if read.is_sqlite() {
        "SELECT name FROM pragma_table_info($1) ORDER BY cid"
    } else {
        "SELECT CAST(column_name AS TEXT) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 \
         ORDER BY ordinal_position"
    };
    sqlx::query_scalar(sql).bind(table).fetch_all(&read.pool()).await
}

/// A value as text (None for NULL), whatever its SQL type.
fn text(row: &AnyRow, i: usize) -> Option<String> {
    if row.try_get_raw(i).map_or(true, |v| v.is_null()) {
        return None;
    }
    if let Ok(v) = row.try_get::<String, _>(i) {
        return Some(v);
    }
    if let Ok(v) = row.try_get::<i64, _>(i) {
        return Some(v.to_string());
    }
    if let Ok(v) = row.try_get::<f64, _>(i) {
        return Some(v.to_string());
    }
    if let Ok(v) = row.try_get::<bool, _>(i) {
        return Some(v.to_string());
    }
    if let Ok(v) = row.try_get::<Vec<u8>, _>(i) {
        return Some(hex::encode(v));
    }
    None
}

/// A CSV field, quoted when it must be.
fn field(value: &str) -> String {
    if value.contains([',', '"', '\n', '\r']) { format!("\"{}\"", value.replace('"', "\"\"")) } else { value.to_owned() }
}

#[cfg(test)]
mod tests {
    use super::field;

    #[test]
    fn fields_with_commas_quotes_or_line_breaks_are_quoted() {
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("two\nlines"), "\"two\nlines\"");
    }
}
