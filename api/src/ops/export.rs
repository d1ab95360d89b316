//! `marketplace export`: a read table, or a query's result, from the current generation of the
//! read models to a file.
//!
//! - **CSV** (RFC 4180): a header row, fields quoted when they hold a comma, a quote or a line
//!   break; NULL as an empty field. A text cell (a title, a name: anyone may have written it)
//!   starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a `'` before it, so a
//!   spreadsheet shows it instead of running it as a formula (OWASP's rule against CSV
//!   injection); numbers (integer, real and NUMERIC columns) are written as they are, a negative
//!   one included.
//! - **Parquet**, written column by column with the `parquet` crate's low-level writer (no
//!   Arrow): every column OPTIONAL (NULL is a definition level of 0), Snappy-compressed, row
//!   groups of [`ROW_GROUP_ROWS`] rows. Column types: integers INT64; reals DOUBLE; booleans
//!   BOOLEAN; Postgres timestamps INT64 TIMESTAMP(MICROS) (UTC-adjusted for `timestamptz`); text
//!   and every other type (NUMERIC, UUID, JSON, tsvector, ...) BYTE_ARRAY UTF8 as the database
//!   prints it. Wei amounts are decimal text in the read tables and stay UTF8 strings: they
//!   exceed 64 bits, and a DECIMAL wide enough for 256-bit values (78 digits) is beyond what
//!   common readers take (Arrow's widest decimal holds 76). Times in the read tables are Unix
//!   seconds (BIGINT), so they come out as INT64, as stored. On SQLite a column's type is its
//!   values' storage class (integers with reals: DOUBLE; any text: UTF8); a column with no
//!   value takes its declared type. On Postgres it is the column's SQL type.
//!
//! Either way the file appears only once complete: it is written beside its name and renamed
//! at the end, so a bad table or query, or a failure halfway, leaves no file (and an older
//! file of that name as it was). The query runs in a transaction that is rolled back: an
//! export changes nothing.

use std::{
    io::Write,
    path::{Path, PathBuf},
    sync::Arc,
};

use parquet::{
    basic::{Compression, LogicalType, Repetition, TimeUnit, Type as PhysicalType},
    data_type::{BoolType, ByteArray, ByteArrayType, DataType, DoubleType, Int64Type},
    file::{
        properties::WriterProperties,
        writer::{SerializedColumnWriter, SerializedFileWriter},
    },
    schema::types::Type,
};
use projections::{
    ReadDb,
    queries::csv::{field, inert},
};
use sqlx::{Column, Executor, Row, Statement, ValueRef, any::AnyRow, any::AnyTypeInfoKind};

/// Rows per Parquet row group: small enough that a reader can split a large export, large
/// enough that each column chunk compresses well and the footer stays small.
pub const ROW_GROUP_ROWS: usize = 65_536;

/// Everything exporting can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The table name is not a read table.
    #[error("no read table named {0:?}")]
    NoSuchTable(String),
    /// Two columns of the result have the same name (a Parquet schema needs distinct names).
    #[error("the result has two columns named {0:?}: give them distinct names with AS")]
    DuplicateColumn(String),
    /// The query failed.
    #[error("query failed")]
    Query(#[from] sqlx::Error),
    /// The Parquet writer failed.
    #[error("writing Parquet")]
    Parquet(#[from] parquet::errors::ParquetError),
    /// The file could not be written.
    #[error("writing the file")]
    Io(#[from] std::io::Error),
}

/// What to export.
pub enum Source {
    /// A whole read table, in its primary key's order.
    Table(String),
    /// The rows of a query.
    Query(String),
}

/// The file formats `export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// RFC 4180 CSV, every value as text.
    Csv,
    /// Apache Parquet, typed columns, Snappy-compressed.
    Parquet,
}

/// Writes `source` as `format` to the file `out`, which appears only once complete; returns the
/// rows written. On any error nothing is left at `out` (an older file there stays as it was).
pub async fn to_file(read: &ReadDb, source: &Source, format: Format, out: &Path) -> Result<u64, ExportError> {
    let partial = partial_path(out);
    let written = async {
        let rows = match format {
            Format::Csv => {
                // The query runs before the file is created: a bad one creates nothing.
                let (columns, rows) = csv_rows(read, source).await?;
                let mut file = std::io::BufWriter::new(std::fs::File::create(&partial)?);
                write_csv(&columns, &rows, &mut file)?;
                file.into_inner().map_err(std::io::IntoInnerError::into_error)?.sync_all()?;
                rows.len() as u64
            }
            Format::Parquet => {
                let columns = typed_columns(read, source).await?;
                let file = std::fs::File::create(&partial)?;
                let rows = write_parquet(&columns, &file)?;
                file.sync_all()?;
                rows
            }
        };
        std::fs::rename(&partial, out)?;
        Ok(rows)
    }
    .await;
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

/// Where a file is written before it is complete: beside it (same file system, so the rename
/// is atomic), hidden, and named for this process.
fn partial_path(out: &Path) -> PathBuf {
    let name = out.file_name().map_or_else(|| "export".into(), |n| n.to_string_lossy().into_owned());
    out.with_file_name(format!(".{name}.{}.partial", std::process::id()))
}

/// The SQL that reads `source`: a table is checked against the read tables first.
async fn source_sql(read: &ReadDb, source: &Source) -> Result<String, ExportError> {
    match source {
        Source::Table(table) => {
            let tables = read_tables(read).await?;
            if !tables.contains(table) {
                return Err(ExportError::NoSuchTable(table.clone()));
            }
            Ok(format!("SELECT * FROM \"{table}\" ORDER BY 1"))
        }
        Source::Query(sql) => Ok(sql.trim().trim_end_matches(';').to_owned()),
    }
}

/// Writes `source` from `read`'s current generation as CSV to `out`; returns the rows written.
pub async fn csv(read: &ReadDb, source: &Source, out: &mut impl Write) -> Result<u64, ExportError> {
    let (columns, rows) = csv_rows(read, source).await?;
    write_csv(&columns, &rows, out)?;
    Ok(rows.len() as u64)
}

/// The column names and every value as a cell.
async fn csv_rows(read: &ReadDb, source: &Source) -> Result<(Vec<String>, Vec<Vec<Option<Cell>>>), ExportError> {
    let sql = source_sql(read, source).await?;
    let (columns, rows) = rows_as_cells(read, &sql).await?;
    let columns = match (columns.is_empty(), source) {
        // No rows: the header still says what a table's columns are.
        (true, Source::Table(table)) => column_names(read, table).await?,
        _ => columns,
    };
    Ok((columns, rows))
}

fn write_csv(columns: &[String], rows: &[Vec<Option<Cell>>], out: &mut impl Write) -> std::io::Result<()> {
    if !columns.is_empty() {
        writeln!(out, "{}", columns.iter().map(|c| field(&inert(c))).collect::<Vec<_>>().join(","))?;
    }
    for row in rows {
        let fields: Vec<String> = row.iter().map(|cell| cell.as_ref().map(Cell::csv_field).unwrap_or_default()).collect();
        writeln!(out, "{}", fields.join(","))?;
    }
    out.flush()
}

/// A column of a result, typed for Parquet: its name and its values (None for NULL).
#[derive(Debug, Clone, PartialEq)]
pub struct TypedColumn {
    /// The column's name in the result.
    pub name: String,
    /// Its values, one per row.
    pub values: Values,
}

/// A column's values, all of one Parquet type.
#[derive(Debug, Clone, PartialEq)]
pub enum Values {
    /// INT64.
    Int64(Vec<Option<i64>>),
    /// DOUBLE.
    Double(Vec<Option<f64>>),
    /// BOOLEAN.
    Bool(Vec<Option<bool>>),
    /// BYTE_ARRAY annotated UTF8 (String).
    Text(Vec<Option<String>>),
    /// INT64 annotated TIMESTAMP(MICROS).
    TimestampMicros {
        /// Microseconds since the Unix epoch.
        micros: Vec<Option<i64>>,
        /// Adjusted to UTC (`timestamptz`), or a local `timestamp`.
        utc: bool,
    },
}

impl Values {
    fn len(&self) -> usize {
        match self {
            Self::Int64(v) | Self::TimestampMicros { micros: v, .. } => v.len(),
            Self::Double(v) => v.len(),
            Self::Bool(v) => v.len(),
            Self::Text(v) => v.len(),
        }
    }

    /// The Parquet field for a column of these values.
    fn parquet_type(&self, name: &str) -> Result<Type, parquet::errors::ParquetError> {
        let (physical, logical) = match self {
            Self::Int64(_) => (PhysicalType::INT64, None),
            Self::Double(_) => (PhysicalType::DOUBLE, None),
            Self::Bool(_) => (PhysicalType::BOOLEAN, None),
            Self::Text(_) => (PhysicalType::BYTE_ARRAY, Some(LogicalType::String)),
            Self::TimestampMicros { utc, .. } => {
                (PhysicalType::INT64, Some(LogicalType::Timestamp { is_adjusted_to_u_t_c: *utc, unit: TimeUnit::MICROS }))
            }
        };
        Type::primitive_type_builder(name, physical).with_repetition(Repetition::OPTIONAL).with_logical_type(logical).build()
    }
}

/// Reads `source` from the current generation with each column typed (see the module's
/// comment), in a transaction that is rolled back.
pub async fn typed_columns(read: &ReadDb, source: &Source) -> Result<Vec<TypedColumn>, ExportError> {
    let sql = source_sql(read, source).await?;
    let columns = if read.is_sqlite() { sqlite_columns(read, &sql).await? } else { postgres_columns(read, &sql).await? };
    let mut names = std::collections::HashSet::new();
    if let Some(twice) = columns.iter().find(|c| !names.insert(c.name.as_str())) {
        return Err(ExportError::DuplicateColumn(twice.name.clone()));
    }
    Ok(columns)
}

/// A SQLite value as the driver gave it.
enum Scalar {
    Int(i64),
    Real(f64),
    Bool(bool),
    Text(String),
}

/// SQLite: each column typed by its values' storage classes (its declared type when it holds
/// nothing but NULL).
async fn sqlite_columns(read: &ReadDb, sql: &str) -> Result<Vec<TypedColumn>, ExportError> {
    let mut tx = read.pool().begin().await?;
    let statement = (&mut *tx).prepare(sql).await?;
    let declared: Vec<(String, AnyTypeInfoKind)> =
        statement.columns().iter().map(|c| (c.name().to_owned(), c.type_info().kind())).collect();
    let rows = sqlx::query(sql).fetch_all(&mut *tx).await?;
    tx.rollback().await?;
    let mut columns = Vec::with_capacity(declared.len());
    for (i, (name, declared)) in declared.into_iter().enumerate() {
        let scalars = rows.iter().map(|row| scalar(row, i)).collect::<Result<Vec<_>, _>>()?;
        columns.push(TypedColumn { name, values: sqlite_values(scalars, declared) });
    }
    Ok(columns)
}

fn scalar(row: &AnyRow, i: usize) -> Result<Option<Scalar>, sqlx::Error> {
    let raw = row.try_get_raw(i)?;
    if raw.is_null() {
        return Ok(None);
    }
    Ok(Some(match raw.type_info().kind() {
        AnyTypeInfoKind::Bool => Scalar::Bool(row.try_get(i)?),
        AnyTypeInfoKind::SmallInt | AnyTypeInfoKind::Integer | AnyTypeInfoKind::BigInt => Scalar::Int(row.try_get(i)?),
        AnyTypeInfoKind::Real | AnyTypeInfoKind::Double => Scalar::Real(row.try_get(i)?),
        AnyTypeInfoKind::Blob => Scalar::Text(hex::encode(row.try_get::<Vec<u8>, _>(i)?)),
        AnyTypeInfoKind::Text | AnyTypeInfoKind::Null => Scalar::Text(row.try_get(i)?),
    }))
}

/// One Parquet type for a SQLite column's values: the narrowest that holds them all.
fn sqlite_values(scalars: Vec<Option<Scalar>>, declared: AnyTypeInfoKind) -> Values {
    let widest = scalars.iter().flatten().map(Scalar::class).max().unwrap_or(match declared {
        AnyTypeInfoKind::Bool => Class::Bool,
        AnyTypeInfoKind::SmallInt | AnyTypeInfoKind::Integer | AnyTypeInfoKind::BigInt => Class::Int,
        AnyTypeInfoKind::Real | AnyTypeInfoKind::Double => Class::Real,
        AnyTypeInfoKind::Text | AnyTypeInfoKind::Blob | AnyTypeInfoKind::Null => Class::Text,
    });
    let values = scalars.into_iter();
    match widest {
        Class::Bool => Values::Bool(values.map(|s| s.and_then(|s| s.as_i64()).map(|v| v != 0)).collect()),
        Class::Int => Values::Int64(values.map(|s| s.and_then(|s| s.as_i64())).collect()),
        Class::Real => Values::Double(values.map(|s| s.and_then(|s| s.as_f64())).collect()),
        Class::Text => Values::Text(values.map(|s| s.map(Scalar::into_text)).collect()),
    }
}

/// What a column's values need, narrowest first: each class holds the ones before it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Bool,
    Int,
    Real,
    Text,
}

impl Scalar {
    fn class(&self) -> Class {
        match self {
            Self::Bool(_) => Class::Bool,
            Self::Int(_) => Class::Int,
            Self::Real(_) => Class::Real,
            Self::Text(_) => Class::Text,
        }
    }

    /// As an integer (None for a real or text: their columns are never integer columns).
    fn as_i64(&self) -> Option<i64> {
        match *self {
            Self::Bool(v) => Some(i64::from(v)),
            Self::Int(v) => Some(v),
            Self::Real(_) | Self::Text(_) => None,
        }
    }

    /// As a real (None for text: a column with text is a text column).
    fn as_f64(&self) -> Option<f64> {
        match *self {
            Self::Real(v) => Some(v),
            Self::Bool(_) | Self::Int(_) => self.as_i64().map(|v| v as f64),
            Self::Text(_) => None,
        }
    }

    fn into_text(self) -> String {
        match self {
            Self::Int(v) => v.to_string(),
            Self::Real(v) => v.to_string(),
            Self::Bool(v) => v.to_string(),
            Self::Text(v) => v,
        }
    }
}

/// Postgres: the query becomes a temporary view, whose columns' SQL types choose the Parquet
/// types; the rows are then read with each column cast to what the driver decodes exactly
/// (NUMERIC and the rest as text). The transaction is rolled back, dropping the view.
async fn postgres_columns(read: &ReadDb, sql: &str) -> Result<Vec<TypedColumn>, ExportError> {
    let mut tx = read.pool().begin().await?;
    sqlx::query(&format!("CREATE TEMPORARY VIEW marketplace_export AS {sql}")).execute(&mut *tx).await?;
    let described: Vec<(String, String)> = sqlx::query_as(
        "SELECT CAST(attname AS TEXT), CAST(CAST(atttypid AS REGTYPE) AS TEXT) FROM pg_attribute \
         WHERE attrelid = CAST('pg_temp.marketplace_export' AS REGCLASS) AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
    )
    .fetch_all(&mut *tx)
    .await?;
    let kinds: Vec<PgKind> = described.iter().map(|(_, sql_type)| PgKind::of(sql_type)).collect();
    let select: Vec<String> =
        described.iter().zip(&kinds).map(|((name, _), kind)| kind.select(&format!("\"{}\"", name.replace('"', "\"\"")))).collect();
    let rows = if select.is_empty() {
        Vec::new()
    } else {
        sqlx::query(&format!("SELECT {} FROM pg_temp.marketplace_export", select.join(", "))).fetch_all(&mut *tx).await?
    };
    tx.rollback().await?;
    let mut columns = Vec::with_capacity(described.len());
    for (i, ((name, _), kind)) in described.into_iter().zip(kinds).enumerate() {
        let values = match kind {
            PgKind::Int64 => Values::Int64(rows.iter().map(|r| r.try_get(i)).collect::<Result<_, _>>()?),
            PgKind::Double => Values::Double(rows.iter().map(|r| r.try_get(i)).collect::<Result<_, _>>()?),
            PgKind::Bool => Values::Bool(rows.iter().map(|r| r.try_get(i)).collect::<Result<_, _>>()?),
            PgKind::Text => Values::Text(rows.iter().map(|r| r.try_get(i)).collect::<Result<_, _>>()?),
            PgKind::Timestamp { utc } => {
                Values::TimestampMicros { micros: rows.iter().map(|r| r.try_get(i)).collect::<Result<_, _>>()?, utc }
            }
        };
        columns.push(TypedColumn { name, values });
    }
    Ok(columns)
}

/// How a Postgres column is read and written.
#[derive(Clone, Copy)]
enum PgKind {
    Int64,
    Double,
    Bool,
    Text,
    Timestamp { utc: bool },
}

impl PgKind {
    /// From the type's name as `regtype` prints it.
    fn of(sql_type: &str) -> Self {
        match sql_type {
            "smallint" | "integer" | "bigint" => Self::Int64,
            "real" | "double precision" => Self::Double,
            "boolean" => Self::Bool,
            "timestamp with time zone" => Self::Timestamp { utc: true },
            "timestamp without time zone" => Self::Timestamp { utc: false },
            _ => Self::Text,
        }
    }

    /// The select-list expression that reads `column` (quoted) as this kind.
    fn select(self, column: &str) -> String {
        match self {
            Self::Int64 => format!("CAST({column} AS BIGINT)"),
            Self::Double => format!("CAST({column} AS DOUBLE PRECISION)"),
            Self::Bool => column.to_owned(),
            Self::Text => format!("CAST({column} AS TEXT)"),
            // Microseconds exactly: the epoch's seconds are NUMERIC with six decimals.
            Self::Timestamp { .. } => format!("CAST(EXTRACT(EPOCH FROM {column}) * 1000000 AS BIGINT)"),
        }
    }
}

/// Writes `columns` as a Parquet file to `out`; returns the rows written.
pub fn write_parquet(columns: &[TypedColumn], out: impl Write + Send) -> Result<u64, ExportError> {
    let rows = columns.first().map_or(0, |c| c.values.len());
    let fields = columns.iter().map(|c| c.values.parquet_type(&c.name).map(Arc::new)).collect::<Result<Vec<_>, _>>()?;
    let schema = Arc::new(Type::group_type_builder("schema").with_fields(fields).build()?);
    let properties = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_created_by(format!("marketplace {}", env!("CARGO_PKG_VERSION")))
        .build();
    let mut writer = SerializedFileWriter::new(out, schema, Arc::new(properties))?;
    for start in (0..rows).step_by(ROW_GROUP_ROWS) {
        let end = (start + ROW_GROUP_ROWS).min(rows);
        let mut group = writer.next_row_group()?;
        for column in columns {
            let mut writer = group.next_column()?.expect("the schema has a column writer per column");
            match &column.values {
                Values::Int64(v) | Values::TimestampMicros { micros: v, .. } => {
                    write_column::<Int64Type, _>(&mut writer, &v[start..end], |&v| v)?
                }
                Values::Double(v) => write_column::<DoubleType, _>(&mut writer, &v[start..end], |&v| v)?,
                Values::Bool(v) => write_column::<BoolType, _>(&mut writer, &v[start..end], |&v| v)?,
                Values::Text(v) => write_column::<ByteArrayType, _>(&mut writer, &v[start..end], |v| ByteArray::from(v.as_str()))?,
            }
            writer.close()?;
        }
        group.close()?;
    }
    writer.close()?;
    Ok(rows as u64)
}

/// One column chunk: a definition level per row (0: NULL) and the values that are there.
fn write_column<T: DataType, V>(
    writer: &mut SerializedColumnWriter<'_>,
    values: &[Option<V>],
    parquet_value: impl Fn(&V) -> T::T,
) -> Result<(), parquet::errors::ParquetError> {
    let levels: Vec<i16> = values.iter().map(|v| i16::from(v.is_some())).collect();
    let present: Vec<T::T> = values.iter().flatten().map(&parquet_value).collect();
    writer.typed::<T>().write_batch(&present, Some(&levels), None)?;
    Ok(())
}

/// Runs `sql` on the current generation and returns its column names (empty when there are no
/// rows) and every value as text (None for NULL), exactly: on Postgres each row goes through
/// `to_json` and `json_each_text`, so `NUMERIC` sums of wei keep every digit (and types the
/// `Any` driver cannot decode still come out).
pub async fn rows_as_text(read: &ReadDb, sql: &str) -> Result<(Vec<String>, Vec<Vec<Option<String>>>), sqlx::Error> {
    let (columns, rows) = rows_as_cells(read, sql).await?;
    Ok((columns, rows.into_iter().map(|row| row.into_iter().map(|cell| cell.map(|c| c.text)).collect()).collect()))
}

/// One value of a result: as text, and whether the database holds it as a number.
#[derive(Debug, Clone, PartialEq)]
struct Cell {
    text: String,
    number: bool,
}

impl Cell {
    /// The cell as a CSV field: a number as it is, text made [`inert`], then quoted when it must be.
    fn csv_field(&self) -> String {
        if self.number { field(&self.text) } else { field(&inert(&self.text)) }
    }
}

/// [`rows_as_text`], each value with whether it is a number.
async fn rows_as_cells(read: &ReadDb, sql: &str) -> Result<(Vec<String>, Vec<Vec<Option<Cell>>>), sqlx::Error> {
    let mut columns = Vec::new();
    let mut rows: Vec<Vec<Option<Cell>>> = Vec::new();
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
        "SELECT r.n, j.key, j.value, json_typeof(r.doc -> j.key) = 'number' FROM \
         (SELECT row_number() OVER () AS n, to_json(q) AS doc FROM ({sql}) q) r, \
         json_each_text(r.doc) WITH ORDINALITY AS j(key, value, k) ORDER BY r.n, j.k"
    );
    let mut current = None;
    for row in sqlx::query(&wrapped).fetch_all(&read.pool()).await? {
        let (n, key, value): (i64, String, Option<String>) = (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
        let number = row.try_get::<Option<bool>, _>(3)?.unwrap_or(false);
        if current != Some(n) {
            current = Some(n);
            rows.push(Vec::new());
        }
        if rows.len() == 1 {
            columns.push(key);
        }
        rows.last_mut().expect("pushed above").push(value.map(|text| Cell { text, number }));
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

/// A value as a cell (None for NULL), whatever its SQL type.
fn text(row: &AnyRow, i: usize) -> Option<Cell> {
    if row.try_get_raw(i).map_or(true, |v| v.is_null()) {
        return None;
    }
    let text = |text: String| Some(Cell { text, number: false });
    let number = |text: String| Some(Cell { text, number: true });
    if let Ok(v) = row.try_get::<String, _>(i) {
        return text(v);
    }
    if let Ok(v) = row.try_get::<i64, _>(i) {
        return number(v.to_string());
    }
    if let Ok(v) = row.try_get::<f64, _>(i) {
        return number(v.to_string());
    }
    if let Ok(v) = row.try_get::<bool, _>(i) {
        return text(v.to_string());
    }
    if let Ok(v) = row.try_get::<Vec<u8>, _>(i) {
        return text(hex::encode(v));
    }
    None
}

#[cfg(test)]
mod tests {
    use parquet::{
        file::reader::{FileReader, SerializedFileReader},
        record::Field,
    };

    use super::{ROW_GROUP_ROWS, TypedColumn, Values, field, write_parquet};

    #[test]
    fn parquet_files_split_into_row_groups_and_keep_nulls_in_every_one() {
        let rows = ROW_GROUP_ROWS * 2 + 10;
        let columns = vec![
            TypedColumn { name: "n".into(), values: Values::Int64((0..rows as i64).map(Some).collect()) },
            TypedColumn {
                name: "every_third".into(),
                values: Values::Text((0..rows).map(|i| (i % 3 == 0).then(|| format!("row {i}"))).collect()),
            },
            TypedColumn { name: "half".into(), values: Values::Double((0..rows).map(|i| Some(i as f64 / 2.0)).collect()) },
            TypedColumn { name: "odd".into(), values: Values::Bool((0..rows).map(|i| (i % 5 != 0).then_some(i % 2 == 1)).collect()) },
        ];
        let file = tempfile::tempfile().unwrap();
        assert_eq!(write_parquet(&columns, &file).unwrap(), rows as u64);

        let reader = SerializedFileReader::new(file).unwrap();
        assert_eq!(reader.metadata().num_row_groups(), 3);
        assert_eq!(reader.metadata().row_group(2).num_rows(), 10);
        let mut read = 0;
        for (i, row) in reader.get_row_iter(None).unwrap().enumerate() {
            let fields: Vec<Field> = row.unwrap().get_column_iter().map(|(_, f)| f.clone()).collect();
            let text = if i % 3 == 0 { Field::Str(format!("row {i}")) } else { Field::Null };
            let odd = if i % 5 == 0 { Field::Null } else { Field::Bool(i % 2 == 1) };
            assert_eq!(fields, vec![Field::Long(i as i64), text, Field::Double(i as f64 / 2.0), odd], "row {i}");
            read += 1;
        }
        assert_eq!(read, rows);
    }

    #[test]
    fn an_empty_result_is_a_file_with_its_schema_and_no_row_group() {
        let columns = vec![TypedColumn { name: "price".into(), values: Values::Text(Vec::new()) }];
        let file = tempfile::tempfile().unwrap();
        assert_eq!(write_parquet(&columns, &file).unwrap(), 0);
        let reader = SerializedFileReader::new(file).unwrap();
        assert_eq!(reader.metadata().num_row_groups(), 0);
        assert_eq!(reader.metadata().file_metadata().schema_descr().column(0).name(), "price");
    }

    #[test]
    fn fields_with_commas_quotes_or_line_breaks_are_quoted() {
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("two\nlines"), "\"two\nlines\"");
    }
}
