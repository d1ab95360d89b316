//! The read models as an SQL interface: the example queries of `docs/analytics/queries.sql` on
//! both databases, the `analytics` schema and its read-only role on Postgres, `read-file` on
//! SQLite, and `marketplace export` (CSV here, Parquet in `parquet_export`).

mod parquet_export;

use std::{collections::BTreeMap, process::Command, sync::Arc};

use domain::{EventStore, test_utils::TestPostgres};
use projections::{Projector, ReadDb, test_utils::market_history};
use sqlx::{Connection, Row};

const QUERIES: &str = include_str!("../../../docs/analytics/queries.sql");

/// The example queries by name.
fn queries() -> BTreeMap<String, String> {
    let mut queries = BTreeMap::new();
    for part in QUERIES.split("-- name: ").skip(1) {
        let (name, sql) = part.split_once('\n').unwrap();
        let sql: String = sql.lines().filter(|l| !l.starts_with("--")).collect::<Vec<_>>().join("\n");
        queries.insert(name.trim().to_owned(), sql.trim().trim_end_matches(';').to_owned());
    }
    queries
}

/// A market history of `nfts` tokens in the log at `url`, projected into the read models at `read_url`.
async fn market(url: &str, read_url: &str, nfts: u64) -> (Arc<dyn EventStore>, ReadDb) {
    let store = domain::store::open(url).await.unwrap();
    for writes in market_history(nfts) {
        store.append_streams(writes).await.unwrap();
    }
    let read = ReadDb::open(read_url).await.unwrap();
    Projector::new(store.clone(), read.clone()).await.unwrap().catch_up().await.unwrap();
    (store, read)
}

/// What the example queries must answer, computed from the `sales` rows in Rust.
struct Expected {
    sales: u64,
    volume: u128,
    royalties: u128,
    wallet: String,
    wallet_trades: usize,
}

async fn expected(read: &ReadDb) -> Expected {
    let rows = sqlx::query("SELECT seller, buyer, price, royalties FROM sales").fetch_all(&read.pool()).await.unwrap();
    let mut by_wallet: BTreeMap<String, usize> = BTreeMap::new();
    let (mut volume, mut royalties) = (0u128, 0u128);
    for row in &rows {
        let (seller, buyer, price, paid): (String, String, String, String) = (row.get(0), row.get(1), row.get(2), row.get(3));
        volume += price.parse::<u128>().unwrap();
        royalties += paid.parse::<u128>().unwrap();
        *by_wallet.entry(seller.clone()).or_default() += 1;
        if buyer != seller {
            *by_wallet.entry(buyer).or_default() += 1;
        }
    }
    let (wallet, wallet_trades) = by_wallet.into_iter().max_by_key(|(_, n)| *n).unwrap();
    Expected { sales: rows.len() as u64, volume, royalties, wallet, wallet_trades }
}

/// Checks the example queries' answers, given as rows of (column -> text value).
fn check(answers: &BTreeMap<String, Vec<BTreeMap<String, String>>>, expected: &Expected) {
    let sum = |query: &str, column: &str| -> f64 { answers[query].iter().map(|r| r[column].parse::<f64>().unwrap()).sum() };
    let close = |a: f64, b: u128| (a - b as f64).abs() <= b as f64 * 1e-9;
    assert!(expected.sales > 0, "the history has sales");
    assert_eq!(sum("volume_per_day", "sales") as u64, expected.sales);
    assert!(close(sum("volume_per_day", "volume_wei"), expected.volume), "volume per day adds up to every sale");
    assert!(!answers["top_creators"].is_empty() && answers["top_creators"].len() <= 10);
    let top: Vec<f64> = answers["top_creators"].iter().map(|r| r["volume_wei"].parse().unwrap()).collect();
    assert!(top.windows(2).all(|w| w[0] >= w[1]), "top creators by volume, descending");
    assert_eq!(answers["wallet_trades"].len(), expected.wallet_trades, "every trade of {}", expected.wallet);
    assert!(close(sum("royalties_per_creator", "royalties_wei"), expected.royalties), "royalties add up");
}

fn text_rows(columns: &[String], rows: &[Vec<Option<String>>]) -> Vec<BTreeMap<String, String>> {
    rows.iter().map(|row| columns.iter().cloned().zip(row.iter().map(|v| v.clone().unwrap_or_default())).collect()).collect()
}

#[tokio::test]
async fn the_example_queries_answer_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let read_url = format!("sqlite://{}", dir.path().join("read.db").display());
    let (_, read) = market(&format!("sqlite://{}", dir.path().join("events.db").display()), &read_url, 300).await;
    let expected = expected(&read).await;

    let mut answers = BTreeMap::new();
    for (name, sql) in queries() {
        let sql = sql.replace("$1", &format!("'{}'", expected.wallet));
        let (columns, rows) = api::ops::export::rows_as_text(&read, &sql).await.unwrap_or_else(|e| panic!("{name}: {e}"));
        answers.insert(name, text_rows(&columns, &rows));
    }

    check(&answers, &expected);
}

#[tokio::test]
async fn the_example_queries_answer_on_postgres_as_the_read_only_analyst() {
    let db = TestPostgres::create().await;
    let (store, read) = market(&db.url, &db.url, 300).await;
    let expected = expected(&read).await;
    read.create_analyst_role().await.unwrap();
    let login = format!("analyst_{}", uuid::Uuid::new_v4().simple());
    let mut admin = sqlx::PgConnection::connect(&db.url).await.unwrap();
    sqlx::query(&format!("CREATE ROLE {login} LOGIN IN ROLE marketplace_analyst")).execute(&mut admin).await.unwrap();
    // The same server and database, as the analyst (the test server trusts local logins).
    let (scheme, rest) = db.url.split_once("://").unwrap();
    let host = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
    let analyst_url = format!("{scheme}://{login}@{host}");
    let mut analyst = sqlx::PgConnection::connect(&analyst_url).await.unwrap();
    sqlx::query("SET search_path TO analytics").execute(&mut analyst).await.unwrap();

    let mut answers = BTreeMap::new();
    for (name, sql) in queries() {
        let wrapped = format!("SELECT CAST(to_json(q) AS TEXT) FROM ({sql}) q");
        let rows: Vec<String> =
            sqlx::query_scalar(&wrapped).bind(&expected.wallet).fetch_all(&mut analyst).await.unwrap_or_else(|e| panic!("{name}: {e}"));
        let rows: Vec<BTreeMap<String, String>> = rows
            .iter()
            .map(|json| {
                let value: serde_json::Map<String, serde_json::Value> = serde_json::from_str(json).unwrap();
                value.into_iter().map(|(k, v)| (k, v.as_str().map_or_else(|| v.to_string(), str::to_owned))).collect()
            })
            .collect();
        answers.insert(name, rows);
    }
    check(&answers, &expected);

    // The analyst reads the views and nothing else.
    let denied = sqlx::query("SELECT count(*) FROM read_initial.nfts").execute(&mut analyst).await;
    assert!(denied.is_err(), "the generation schemas are closed to analysts");
    let denied = sqlx::query("DELETE FROM analytics.sales").execute(&mut analyst).await;
    assert!(denied.is_err(), "the views are read-only to analysts");

    // A replay's publish moves the views to the new generation atomically with the pointer.
    sqlx::query("DELETE FROM read_initial.sales").execute(&mut admin).await.unwrap();
    let emptied: i64 = sqlx::query_scalar("SELECT count(*) FROM analytics.sales").fetch_one(&mut analyst).await.unwrap();
    assert_eq!(emptied, 0, "the views show the current generation");
    let rebuilt = ReadDb::open_generation(&db.url, "g2").await.unwrap();
    Projector::new(store, rebuilt.clone()).await.unwrap().catch_up().await.unwrap();
    rebuilt.publish().await.unwrap();
    let sales: i64 = sqlx::query_scalar("SELECT count(*) FROM analytics.sales").fetch_one(&mut analyst).await.unwrap();
    assert_eq!(sales as u64, expected.sales, "after the publish the views show the rebuilt generation");
    drop(analyst);
    drop(read);
    drop(rebuilt);
    sqlx::query(&format!("DROP OWNED BY {login}")).execute(&mut admin).await.ok();
    drop(admin);
    drop(db);
    if let Ok(mut server) = sqlx::PgConnection::connect(&domain::test_utils::postgres_admin_url()).await {
        let _ = sqlx::query(&format!("DROP ROLE IF EXISTS {login}")).execute(&mut server).await;
    }
}

#[tokio::test]
async fn export_writes_a_table_and_a_query_as_csv_and_read_file_names_the_generation() {
    let dir = tempfile::tempdir().unwrap();
    let read_url = format!("sqlite://{}", dir.path().join("read.db").display());
    let log_url = format!("sqlite://{}", dir.path().join("events.db").display());
    let (_, read) = market(&log_url, &read_url, 50).await;
    let sales: i64 = sqlx::query_scalar("SELECT count(*) FROM sales").fetch_one(&read.pool()).await.unwrap();
    let marketplace = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_marketplace"))
            .args(["--database-url", &log_url, "--read-database-url", &read_url])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };

    let table = dir.path().join("sales.csv");
    marketplace(&["export", "--table", "sales", "--format", "csv", "--out", table.to_str().unwrap()]);
    let query = dir.path().join("q.csv");
    marketplace(&["export", "--query", "SELECT nft_id, title FROM nft_details ORDER BY nft_id LIMIT 3", "--out", query.to_str().unwrap()]);
    let file = marketplace(&["read-file"]);

    let table = std::fs::read_to_string(table).unwrap();
    let mut lines = table.lines();
    assert_eq!(lines.next(), Some("position,nft_id,auction_id,seller,buyer,price,fee,royalties,at"));
    assert_eq!(lines.count() as i64, sales);
    let query = std::fs::read_to_string(query).unwrap();
    assert_eq!(query.lines().count(), 4, "{query}");
    assert!(query.starts_with("nft_id,title\n"));
    assert_eq!(file.trim(), dir.path().join("read.db").display().to_string());
}

#[tokio::test]
async fn a_csv_export_keeps_text_that_looks_like_a_formula_inert_and_numbers_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let read_url = format!("sqlite://{}", dir.path().join("read.db").display());
    let log_url = format!("sqlite://{}", dir.path().join("events.db").display());
    let (_, read) = market(&log_url, &read_url, 3).await;
    // Titles anyone may have written, beside numeric columns (a negative amount among them).
    let query = "SELECT column1 AS title, column2 AS amount, column3 AS ratio, column4 AS \"-note\" FROM (VALUES \
        ('=HYPERLINK(\"https://evil.example\",\"x\")', -5, -1.5, '-5'), \
        ('+1+cmd', 7, 2.5, '@SUM(A1)'), \
        (char(9) || 'tabbed', 0, 0.0, char(13) || 'returned'), \
        ('plain, with a comma', -0, -0.25, 'safe'))"
        .to_owned();
    let mut out = Vec::new();
    api::ops::export::csv(&read, &api::ops::export::Source::Query(query.clone()), &mut out)
        .await
        .unwrap_or_else(|e| panic!("{query}: {e:?}"));
    let csv = String::from_utf8(out).unwrap();
    assert_eq!(
        csv,
        "title,amount,ratio,'-note\n\
         \"'=HYPERLINK(\"\"https://evil.example\"\",\"\"x\"\")\",-5,-1.5,'-5\n\
         '+1+cmd,7,2.5,'@SUM(A1)\n\
         '\ttabbed,0,0,\"'\rreturned\"\n\
         \"plain, with a comma\",0,-0.25,safe\n",
        "{csv}"
    );
}
