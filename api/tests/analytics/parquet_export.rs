//! `marketplace export --format parquet` on both databases: a table and a query written by the
//! binary, read back with the `parquet` crate's reader and compared value by value (NULLs and
//! 256-bit wei amounts included) with what the database holds; bad input writes no file.

use std::{path::Path, process::Command};

use domain::test_utils::TestPostgres;
use parquet::{
    basic::{LogicalType, Type as PhysicalType},
    file::reader::{FileReader, SerializedFileReader},
    record::Field,
};
use projections::ReadDb;

use crate::market;

/// The largest uint256: a wei amount no 64-bit (or 128-bit) integer holds.
const MAX_WEI: &str = "115792089237316195423570985008687907853269984665640564039457584007913129639935";

/// A Parquet file's columns (name, physical type, logical type) and rows.
struct ParquetFile {
    columns: Vec<(String, PhysicalType, Option<LogicalType>)>,
    rows: Vec<Vec<Field>>,
}

fn read_parquet(path: &Path) -> ParquetFile {
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let metadata = reader.metadata();
    let columns = metadata
        .file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .map(|c| (c.name().to_owned(), c.physical_type(), c.logical_type_ref().cloned()))
        .collect();
    let rows =
        reader.get_row_iter(None).unwrap().map(|row| row.unwrap().get_column_iter().map(|(_, field)| field.clone()).collect()).collect();
    ParquetFile { columns, rows }
}

/// A Parquet value as the database prints it as text (None for NULL); timestamps as Unix
/// microseconds.
fn as_text(field: &Field) -> Option<String> {
    match field {
        Field::Null => None,
        Field::Long(v) | Field::TimestampMicros(v) => Some(v.to_string()),
        Field::Double(v) => Some(v.to_string()),
        Field::Bool(v) => Some(v.to_string()),
        Field::Str(v) => Some(v.clone()),
        other => panic!("unexpected Parquet value {other:?}"),
    }
}

/// Checks that `file` holds exactly `expected` (as `export::rows_as_text` reads the database),
/// value by value.
fn assert_same(file: &ParquetFile, columns: &[String], expected: &[Vec<Option<String>>], what: &str) {
    let names: Vec<&str> = file.columns.iter().map(|(name, ..)| name.as_str()).collect();
    assert_eq!(names, columns.iter().map(String::as_str).collect::<Vec<_>>(), "{what}: columns");
    assert_eq!(file.rows.len(), expected.len(), "{what}: rows");
    for (n, (row, expected)) in file.rows.iter().zip(expected).enumerate() {
        for ((field, expected), name) in row.iter().zip(expected).zip(columns) {
            let got = as_text(field);
            match (field, expected) {
                // The database's text of a float may be shorter or longer: compare the numbers.
                (Field::Double(v), Some(text)) => assert_eq!(*v, text.parse::<f64>().unwrap(), "{what}: row {n} {name}"),
                _ => assert_eq!(got.as_ref(), expected.as_ref(), "{what}: row {n} {name}"),
            }
        }
    }
}

/// The physical and logical type of the column `name`.
fn column_type(file: &ParquetFile, name: &str) -> (PhysicalType, Option<LogicalType>) {
    let (_, physical, logical) = file.columns.iter().find(|(n, ..)| n == name).unwrap_or_else(|| panic!("no column {name}"));
    (*physical, logical.clone())
}

/// Runs `marketplace` on the given log and read databases; returns (success, stdout, stderr).
fn marketplace(log_url: &str, read_url: &str, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_marketplace"))
        .args(["--database-url", log_url, "--read-database-url", read_url])
        .args(args)
        .output()
        .unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Gives the first sale a 256-bit price and returns the sales table's size.
async fn with_max_wei_sale(read: &ReadDb) -> i64 {
    sqlx::query(&format!("UPDATE sales SET price = '{MAX_WEI}' WHERE position = (SELECT MIN(position) FROM sales)"))
        .execute(&read.pool())
        .await
        .unwrap();
    sqlx::query_scalar("SELECT COUNT(*) FROM sales").fetch_one(&read.pool()).await.unwrap()
}

/// The export of whole tables, the same on both databases: every value, and one schema.
async fn check_tables(read: &ReadDb, log_url: &str, read_url: &str, dir: &Path) -> Vec<Vec<(String, PhysicalType, Option<LogicalType>)>> {
    let mut schemas = Vec::new();
    for table in ["nfts", "sales", "auctions", "nft_details"] {
        let out = dir.join(format!("{table}.parquet"));
        let (ok, stdout, stderr) =
            marketplace(log_url, read_url, &["export", "--table", table, "--format", "parquet", "--out", out.to_str().unwrap()]);
        assert!(ok, "export {table}: {stderr}");
        let file = read_parquet(&out);
        let (columns, rows) = api::ops::export::rows_as_text(read, &format!("SELECT * FROM {table} ORDER BY 1")).await.unwrap();
        assert!(!rows.is_empty(), "the history fills {table}");
        assert!(stdout.starts_with(&format!("{} rows written", rows.len())), "{stdout}");
        assert_same(&file, &columns, &rows, table);
        if table == "nfts" {
            assert!(file.rows.iter().flatten().any(|f| *f == Field::Null), "the export met NULLs (tokens never transferred)");
        }
        schemas.push(file.columns);
    }
    schemas
}

/// The columns of `nfts`, `sales`, `auctions` and `nft_details` that must come out typed.
fn assert_table_types(schemas: &[Vec<(String, PhysicalType, Option<LogicalType>)>]) {
    let nfts = &schemas[0];
    let of = |name: &str| nfts.iter().find(|(n, ..)| n == name).map(|(_, p, l)| (*p, l.clone())).unwrap();
    assert_eq!(of("chain_id"), (PhysicalType::INT64, None));
    assert_eq!(of("minted_at"), (PhysicalType::INT64, None), "times as stored: Unix seconds");
    assert_eq!(of("price"), (PhysicalType::BYTE_ARRAY, Some(LogicalType::String)), "wei as decimal text");
    assert_eq!(of("previous_owner"), (PhysicalType::BYTE_ARRAY, Some(LogicalType::String)));
}

#[tokio::test]
async fn parquet_exports_of_tables_and_queries_hold_every_value_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let read_url = format!("sqlite://{}", dir.path().join("read.db").display());
    let log_url = format!("sqlite://{}", dir.path().join("events.db").display());
    let (_, read) = market(&log_url, &read_url, 60).await;
    let sales = with_max_wei_sale(&read).await;

    let schemas = check_tables(&read, &log_url, &read_url, dir.path()).await;
    assert_table_types(&schemas);

    // A query: an aggregate (a real on SQLite), a NULL-only column, an expression, the 256-bit price.
    let query = "SELECT s.nft_id, s.price, CAST(s.price AS NUMERIC) * 1.0 AS price_real, s.at % 7 AS bucket, \
                 NULL AS empty, n.previous_owner FROM sales s JOIN nfts n ON n.nft_id = s.nft_id ORDER BY s.position";
    let out = dir.path().join("query.parquet");
    let (ok, _, stderr) =
        marketplace(&log_url, &read_url, &["export", "--query", query, "--format", "parquet", "--out", out.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let file = read_parquet(&out);
    let (columns, rows) = api::ops::export::rows_as_text(&read, query).await.unwrap();
    assert_same(&file, &columns, &rows, "query");
    assert_eq!(file.rows.len() as i64, sales);
    assert_eq!(as_text(&file.rows[0][1]).as_deref(), Some(MAX_WEI), "a 256-bit price keeps every digit");
    assert_eq!(column_type(&file, "price_real").0, PhysicalType::DOUBLE);
    assert_eq!(column_type(&file, "bucket").0, PhysicalType::INT64);
    assert_eq!(column_type(&file, "empty"), (PhysicalType::BYTE_ARRAY, Some(LogicalType::String)));
    assert!(file.rows.iter().all(|r| r[4] == Field::Null));

    check_bad_input(&log_url, &read_url, dir.path());
    // A statement that writes runs in a transaction that is rolled back: it changes nothing.
    let out = dir.path().join("deleted.parquet");
    marketplace(
        &log_url,
        &read_url,
        &["export", "--query", "DELETE FROM sales RETURNING *", "--format", "parquet", "--out", out.to_str().unwrap()],
    );
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sales").fetch_one(&read.pool()).await.unwrap();
    assert_eq!(left, sales, "an export changes nothing");
}

#[tokio::test]
async fn parquet_exports_of_tables_and_queries_hold_every_value_on_postgres() {
    let db = TestPostgres::create().await;
    let dir = tempfile::tempdir().unwrap();
    let (_, read) = market(&db.url, &db.url, 60).await;
    let sales = with_max_wei_sale(&read).await;

    let schemas = check_tables(&read, &db.url, &db.url, dir.path()).await;
    assert_table_types(&schemas);

    // The SQLite run's schema for the same tables is the same (a dashboard reads either).
    let sqlite_dir = tempfile::tempdir().unwrap();
    let sqlite_read = format!("sqlite://{}", sqlite_dir.path().join("read.db").display());
    let sqlite_log = format!("sqlite://{}", sqlite_dir.path().join("events.db").display());
    let (_, sqlite) = market(&sqlite_log, &sqlite_read, 60).await;
    let sqlite_schemas = check_tables(&sqlite, &sqlite_log, &sqlite_read, sqlite_dir.path()).await;
    // (nft_details differs: Postgres keeps its search vector in the table.)
    assert_eq!(schemas[..3], sqlite_schemas[..3], "one schema per table on both databases");

    // A query with Postgres' own types: NUMERIC (exact), double, boolean, timestamptz, NULL.
    let query = "SELECT s.nft_id, CAST(s.price AS NUMERIC) * 1 AS price_numeric, CAST(s.at AS DOUBLE PRECISION) / 3 AS third, \
                 s.auction_id = '0' AS fixed_price, to_timestamp(s.at) AS sold_at, n.previous_owner, CAST(NULL AS BIGINT) AS empty \
                 FROM sales s JOIN nfts n ON n.nft_id = s.nft_id ORDER BY s.position";
    let out = dir.path().join("query.parquet");
    let (ok, _, stderr) =
        marketplace(&db.url, &db.url, &["export", "--query", query, "--format", "parquet", "--out", out.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let file = read_parquet(&out);
    assert_eq!(file.rows.len() as i64, sales);
    assert_eq!(column_type(&file, "price_numeric"), (PhysicalType::BYTE_ARRAY, Some(LogicalType::String)));
    assert_eq!(column_type(&file, "third").0, PhysicalType::DOUBLE);
    assert_eq!(column_type(&file, "fixed_price").0, PhysicalType::BOOLEAN);
    assert_eq!(
        column_type(&file, "sold_at"),
        (PhysicalType::INT64, Some(LogicalType::Timestamp { is_adjusted_to_u_t_c: true, unit: parquet::basic::TimeUnit::MICROS }))
    );
    assert_eq!(column_type(&file, "empty").0, PhysicalType::INT64);
    assert_eq!(as_text(&file.rows[0][1]).as_deref(), Some(MAX_WEI), "NUMERIC keeps every digit");
    // The timestamps against the seconds they came from; the rest as the database prints them.
    let expected_query = query.replace("to_timestamp(s.at) AS sold_at", "s.at * 1000000 AS sold_at");
    let (columns, rows) = api::ops::export::rows_as_text(&read, &expected_query).await.unwrap();
    assert_same(&file, &columns, &rows, "query");
    assert!(file.rows.iter().all(|r| r[6] == Field::Null));

    check_bad_input(&db.url, &db.url, dir.path());
    drop(read);
    drop(sqlite);
}

/// A bad format, table or query: a clear error, and no file (an older file stays as it was).
fn check_bad_input(log_url: &str, read_url: &str, dir: &Path) {
    let out = dir.join("bad.parquet");
    let kept = dir.join("kept.parquet");
    std::fs::write(&kept, "an older export").unwrap();
    let cases: [(&[&str], &str); 4] = [
        (&["--table", "sales", "--format", "xml"], "xml"),
        (&["--table", "no_such_table", "--format", "parquet"], "no read table named \"no_such_table\""),
        (&["--query", "SELECT no_such_column FROM sales", "--format", "parquet"], "no_such_column"),
        (&["--query", "SELECT 1 AS a, 2 AS a", "--format", "parquet"], "\"a\""),
    ];
    for (args, message) in cases {
        for target in [&out, &kept] {
            let mut all = vec!["export", "--out", target.to_str().unwrap()];
            all.extend_from_slice(args);
            let (ok, _, stderr) = marketplace(log_url, read_url, &all);
            assert!(!ok, "{args:?} must fail");
            assert!(stderr.contains(message), "{args:?}: {stderr}");
        }
        assert!(!out.exists(), "{args:?} wrote no file");
        assert_eq!(std::fs::read_to_string(&kept).unwrap(), "an older export", "{args:?} left the older file alone");
    }
    let partial = std::fs::read_dir(dir).unwrap().filter_map(Result::ok).any(|e| e.file_name().to_string_lossy().ends_with(".partial"));
    assert!(!partial, "no partial file is left behind");
}
