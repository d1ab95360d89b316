//! The queries the API serves, over the read tables only.

pub mod activity;
pub mod bids;
pub(crate) mod browse;
pub mod collections;
pub mod csv;
pub mod insight;
mod kept;
pub mod metadata;
pub mod moderation;
pub mod nft;
pub mod notices;
pub mod offers;
pub mod privacy;
pub mod profiles;
pub mod rarity;
mod scores;
pub mod social;
pub mod trending;

use serde::Serialize;

/// Unix seconds as ISO 8601 (UTC, whole seconds), as every answer writes times.
pub(crate) fn iso(seconds: i64) -> String {
    chrono::DateTime::<chrono::Utc>::from_timestamp(seconds, 0).unwrap_or_default().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// A page request: `page` from 1, `limit` rows.
#[derive(Clone, Copy, Debug)]
pub struct Page {
    /// Page number, from 1.
    pub page: u32,
    /// Rows per page.
    pub limit: u32,
}

impl Page {
    fn offset(self) -> i64 {
        i64::from(self.page.saturating_sub(1)) * i64::from(self.limit)
    }
}

/// The spec's paged body: `{data, count, totalItems, currentPage, lastPage, currentItemCount}`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Paged<T> {
    /// This page's rows.
    pub data: Vec<T>,
    /// Rows on this page (the spec's `count`).
    pub count: usize,
    /// Rows on all pages.
    pub total_items: i64,
    /// This page's number.
    pub current_page: u32,
    /// Whether no page follows.
    pub last_page: bool,
    /// Same as `count` (the spec carries both).
    pub current_item_count: usize,
}

impl<T> Paged<T> {
    /// The same page with each row made into something else (which may borrow from it).
    pub fn map_rows<'a, U>(&'a self, row: impl FnMut(&'a T) -> U) -> Paged<U> {
        Paged {
            data: self.data.iter().map(row).collect(),
            count: self.count,
            total_items: self.total_items,
            current_page: self.current_page,
            last_page: self.last_page,
            current_item_count: self.current_item_count,
        }
    }

    fn new(data: Vec<T>, total_items: i64, page: Page) -> Self {
        let count = data.len();
        let last_page = i64::from(page.page) * i64::from(page.limit) >= total_items;
        Self { data, count, total_items, current_page: page.page, last_page, current_item_count: count }
    }
}

/// The wallets linked to `user_id`: a user's own lists read one ordered branch per wallet.
async fn wallets_of(pool: &sqlx::AnyPool, user_id: &str) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT address FROM user_wallets WHERE user_id = $1 ORDER BY address").bind(user_id).fetch_all(pool).await
}

/// `$1, $2, ..., $n`: the placeholders of an `IN (...)` list of `n` values.
fn placeholders(n: usize) -> String {
    (1..=n).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
}

/// Wei (decimal text) as MATIC with up to 18 decimals, trailing zeros trimmed: exact, no floats.
pub fn wei_to_matic(wei: &str) -> String {
    let digits = wei.trim_start_matches('0');
    if digits.is_empty() {
        return "0".into();
    }
    let padded = format!("{digits:0>19}");
    let (whole, fraction) = padded.split_at(padded.len() - 18);
    let fraction = fraction.trim_end_matches('0');
    if fraction.is_empty() { whole.to_owned() } else { format!("{whole}.{fraction}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wei_becomes_exact_matic() {
        assert_eq!(wei_to_matic("0"), "0");
        assert_eq!(wei_to_matic("1"), "0.000000000000000001");
        assert_eq!(wei_to_matic("1500000000000000000"), "1.5");
        assert_eq!(wei_to_matic("123000000000000000000000"), "123000");
    }

    #[test]
    fn the_last_page_is_known() {
        let page = Page { page: 2, limit: 9 };
        assert!(!Paged::new(vec![0; 9], 27, page).last_page);
        assert!(Paged::new(vec![0; 9], 18, page).last_page);
        assert!(Paged::new(Vec::<u8>::new(), 0, Page { page: 1, limit: 9 }).last_page);
    }
}
