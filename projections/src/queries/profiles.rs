//! A user's NFTs, as the profile tabs show them: those created and those owned by any of the
//! user's linked wallets, and the tabs' totals.
//!
//! Which tokens, in which order and how many come from the browse index (its owner and creator
//! bitmaps, one per address: a user's set is the union of their wallets'), so a profile page
//! costs what a browse page costs, whatever the user's number of wallets or tokens.

use serde::Serialize;
use sqlx::Row;

use super::{
    Page, Paged,
    nft::{Explore, NftView, SaleFilter, SortBy, explore},
};
use crate::{ProjectionError, ReadDb};
use domain::Position;

/// A profile tab listing NFTs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    /// Tokens a wallet of the user minted.
    Created,
    /// Tokens a wallet of the user holds now.
    Owned,
}

/// The user's linked wallet addresses (lower-case), or `None` when no such user exists.
pub async fn wallets(db: &ReadDb, user_id: &str) -> Result<Option<Vec<String>>, ProjectionError> {
    let pool = db.reader().await;
    let rows =
        sqlx::query("SELECT u.user_id, w.address FROM users u LEFT JOIN user_wallets w ON w.user_id = u.user_id WHERE u.user_id = $1")
            .bind(user_id)
            .fetch_all(&pool)
            .await?;
    if rows.is_empty() {
        return Ok(None);
    }
    let addresses = rows.iter().map(|row| row.try_get::<Option<String>, _>(1)).collect::<Result<Vec<_>, _>>()?;
    Ok(Some(addresses.into_iter().flatten().collect()))
}

/// `request` narrowed to one tab of a user with these wallets.
pub fn on_tab(request: Explore, tab: Tab, wallets: Vec<String>) -> Explore {
    match tab {
        Tab::Created => Explore { creators: Some(wallets), ..request },
        Tab::Owned => Explore { owners: Some(wallets), ..request },
    }
}

/// A page of a user's created or owned NFTs (`None`: no such user), from read tables at `at`
/// at least; `own` when the user looks at their own (tokens moderators hid show to them).
pub async fn user_nfts(
    db: &ReadDb,
    user_id: &str,
    tab: Tab,
    request: Explore,
    page: Page,
    at: Position,
    own: bool,
) -> Result<Option<Paged<NftView>>, ProjectionError> {
    let Some(wallets) = wallets(db, user_id).await? else { return Ok(None) };
    let request = Explore { viewer: own.then(|| wallets.clone()), ..request };
    Ok(Some(explore(db, &on_tab(request, tab, wallets), page, at).await?))
}

/// The totals of a profile's NFT tabs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfileCounts {
    /// Created (every sale type).
    pub created: u64,
    /// Owned (every sale type).
    pub owned: u64,
    /// Owned and in a running or ended, unsettled auction.
    pub in_auction: u64,
    /// Owned and for sale at a fixed price.
    pub in_sale: u64,
}

/// A user's tab totals (`None`: no such user), from the browse index at `at` at least: four
/// counts of bitmap intersections, no rows read.
pub async fn counts(db: &ReadDb, user_id: &str, at: Position) -> Result<Option<ProfileCounts>, ProjectionError> {
    let Some(wallets) = wallets(db, user_id).await? else { return Ok(None) };
    let count = |tab: Tab, sale: SaleFilter| {
        let request = Explore { sale, ..Explore::all(SortBy::Date) };
        let request = on_tab(request, tab, wallets.clone());
        async move { explore(db, &request, Page { page: 1, limit: 0 }, at).await.map(|page| page.total_items as u64) }
    };
    Ok(Some(ProfileCounts {
        created: count(Tab::Created, SaleFilter::All).await?,
        owned: count(Tab::Owned, SaleFilter::All).await?,
        in_auction: count(Tab::Owned, SaleFilter::Auction).await?,
        in_sale: count(Tab::Owned, SaleFilter::FixedPrice).await?,
    }))
}
