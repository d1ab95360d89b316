//! My bids: a user's bids across every wallet linked to their account, newest first, with the
//! status the `bids` read model derives (BID while it stands, ALLOTED when it won, REFUNDED
//! when it was outbid, rejected or cleared).

use serde::Serialize;
use sqlx::Row;

use super::{Page, Paged, iso, wei_to_matic};
use crate::ReadDb;

/// One of a user's bids.
#[derive(Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct MyBid {
    /// Its log position.
    pub id: i64,
    /// The token (`{chain}-{token}`).
    pub nft_id: String,
    /// The auction.
    pub auction_id: String,
    /// Amount in MATIC.
    pub bid_amount: String,
    /// The same in wei.
    pub bid_amount_wei: String,
    /// The wallet it came from.
    pub bidder_address: String,
    /// `BID`, `ALLOTED` or `REFUNDED`.
    pub status: String,
    /// The bid's transaction.
    pub transaction_hash: String,
    /// When (ISO 8601).
    pub created_at: String,
    /// The auction's top bid now, in MATIC ("0" when it has none standing): what a raise must
    /// beat, or what won.
    pub auction_highest_bid: String,
    /// The same in wei.
    pub auction_highest_bid_wei: String,
}

/// The bids of `user_id` from any of their linked wallets, newest first, a page at a time.
pub async fn my_bids(db: &ReadDb, user_id: &str, page: Page) -> Result<Paged<MyBid>, sqlx::Error> {
    let pool = db.reader().await;
    let wallets = super::wallets_of(&pool, user_id).await?;
    if wallets.is_empty() {
        return Ok(Paged::new(Vec::new(), 0, page));
    }
    // The page's bids first, then only they are joined to their auctions (SQL computes every
    // selected column of every row it sorts). One branch per wallet, each read in order off
    // `bids_bidder (bidder, position)` and merged: a page reads its own rows and those before it
    // (a join of the wallets to the bids sorted all of a bidder's thousands).
    let branches: Vec<String> = (1..=wallets.len()).map(|n| format!("SELECT position FROM bids WHERE bidder = ${n}")).collect();
    let sql = format!(
        "SELECT b.position, b.nft_id, b.auction_id, b.amount, b.bidder, b.status, b.tx_hash, b.created_at, \
         COALESCE(a.highest_bid, '0') \
         FROM (SELECT position AS page_position FROM ({}) mine ORDER BY position DESC LIMIT {} OFFSET {}) page \
         JOIN bids b ON b.position = page.page_position \
         LEFT JOIN auctions a ON a.nft_id = b.nft_id AND a.auction_id = b.auction_id ORDER BY b.position DESC",
        branches.join(" UNION ALL "),
        page.limit,
        page.offset()
    );
    let rows = wallets.iter().fold(sqlx::query(&sql), |query, wallet| query.bind(wallet)).fetch_all(&pool).await?;
    let count = format!("SELECT COUNT(*) FROM bids WHERE bidder IN ({})", super::placeholders(wallets.len()));
    let total: i64 = wallets.iter().fold(sqlx::query_scalar(&count), |query, wallet| query.bind(wallet)).fetch_one(&pool).await?;
    let data = rows
        .iter()
        .map(|row| {
            let amount: String = row.try_get(3)?;
            let highest: String = row.try_get(8)?;
            Ok(MyBid {
                id: row.try_get(0)?,
                nft_id: row.try_get(1)?,
                auction_id: row.try_get(2)?,
                bid_amount: wei_to_matic(&amount),
                bid_amount_wei: amount,
                bidder_address: row.try_get(4)?,
                status: row.try_get(5)?,
                transaction_hash: row.try_get(6)?,
                created_at: iso(row.try_get(7)?),
                auction_highest_bid: wei_to_matic(&highest),
                auction_highest_bid_wei: highest,
            })
        })
        .collect::<Result<_, sqlx::Error>>()?;
    Ok(Paged::new(data, total, page))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use domain::{
        EventStore, ExpectedVersion, Metadata,
        accounts::{AuthProvider, UserEvent, WalletProvider, user_stream},
        chain::{ChainEvent, Origin, SaleType},
    };
    use uuid::Uuid;

    use super::*;
    use crate::Projector;

    const ALICE_1: &str = "0xa1";
    const ALICE_2: &str = "0xa2";
    const BOB: &str = "0xb0";
    const SELLER: &str = "0x5e";
    const MATIC: &str = "000000000000000000";

    fn origin(block: u64) -> Origin {
        Origin { block_number: block, block_time: 1_700_000_000 + block as i64, tx_hash: format!("0x{block:064x}"), log_index: 0 }
    }

    fn bid(token: &str, bidder: &str, matic: u32, block: u64) -> ChainEvent {
        ChainEvent::BidPlaced {
            token_id: token.into(),
            auction_id: format!("a{token}"),
            bidder: bidder.into(),
            amount: format!("{matic}{MATIC}"),
            end_time: 1_800_000_000,
            origin: origin(block),
        }
    }

    fn refund(token: &str, bidder: &str, matic: u32, block: u64) -> ChainEvent {
        ChainEvent::BidRefunded {
            token_id: token.into(),
            auction_id: format!("a{token}"),
            bidder: bidder.into(),
            amount: format!("{matic}{MATIC}"),
            origin: origin(block),
        }
    }

    /// Alice has two wallets; on token 1 she bids from one, Bob outbids her, she outbids Bob
    /// from the other and wins; on token 2 she bids and stays on top.
    async fn fold_and_query(read_url: &str) {
        let dir = tempfile::tempdir().unwrap();
        let store: Arc<dyn EventStore> =
            domain::store::open(&format!("sqlite://{}", dir.path().join("events.db").display())).await.unwrap();
        let alice = Uuid::now_v7();
        let at = chrono::Utc::now();
        let user = [
            UserEvent::UserRegistered {
                user_id: alice,
                email: "alice@example.com".into(),
                username: "alice".into(),
                full_name: "Alice".into(),
                password_hash: "x".into(),
                auth_provider: AuthProvider::Email,
                at,
            },
            UserEvent::WalletLinked { provider: WalletProvider::Other, address: ALICE_1.into(), at },
            UserEvent::WalletLinked { provider: WalletProvider::Metamask, address: ALICE_2.into(), at },
        ];
        let user = user.iter().map(|e| e.to_new_event(Metadata::default()).unwrap()).collect();
        store.append(&user_stream(alice), ExpectedVersion::NoStream, user).await.unwrap();
        let mut chain = Vec::new();
        for token in ["1", "2"] {
            chain.push(ChainEvent::NftMinted {
                token_id: token.into(),
                creator: SELLER.into(),
                token_uri: "ipfs://m".into(),
                royalties: vec![],
                origin: origin(0),
            });
            chain.push(ChainEvent::SaleUpdated {
                token_id: token.into(),
                sale_type: SaleType::Auction,
                price: format!("100{MATIC}"),
                base_price: format!("1{MATIC}"),
                end_time: 1_800_000_000,
                auction_id: format!("a{token}"),
                origin: origin(0),
            });
        }
        for event in [
            bid("1", ALICE_1, 1, 1),
            bid("1", BOB, 2, 2),
            refund("1", ALICE_1, 1, 2),
            bid("1", ALICE_2, 3, 3),
            refund("1", BOB, 2, 3),
            ChainEvent::AuctionEnded {
                token_id: "1".into(),
                auction_id: "a1".into(),
                winner: ALICE_2.into(),
                amount: format!("3{MATIC}"),
                origin: origin(4),
            },
            bid("2", ALICE_1, 5, 5),
        ] {
            chain.push(event);
        }
        for event in chain {
            let new_event = event.to_new_event(Uuid::now_v7(), Metadata::default()).unwrap();
            store.append(&event.stream_id(80001), ExpectedVersion::Any, vec![new_event]).await.unwrap();
        }
        let db = ReadDb::open(read_url).await.unwrap();
        Projector::new(store, db.clone()).await.unwrap().catch_up().await.unwrap();

        let page = my_bids(&db, &alice.to_string(), Page { page: 1, limit: 2 }).await.unwrap();
        let rows: Vec<_> = page
            .data
            .iter()
            .map(|b| {
                (b.nft_id.as_str(), b.bid_amount.as_str(), b.status.as_str(), b.bidder_address.as_str(), b.auction_highest_bid.as_str())
            })
            .collect();
        assert_eq!(rows, [("80001-2", "5", "BID", ALICE_1, "5"), ("80001-1", "3", "ALLOTED", ALICE_2, "3")]);
        assert_eq!(page.data[0].bid_amount_wei, format!("5{MATIC}"), "the amount in wei beside the MATIC");
        assert_eq!((page.total_items, page.last_page), (3, false));
        let next = my_bids(&db, &alice.to_string(), Page { page: 2, limit: 2 }).await.unwrap();
        let rows: Vec<_> = next
            .data
            .iter()
            .map(|b| (b.nft_id.as_str(), b.bid_amount.as_str(), b.status.as_str(), b.auction_highest_bid.as_str()))
            .collect();
        assert_eq!(rows, [("80001-1", "1", "REFUNDED", "3")], "an outbid bid shows the top bid that beat it");
        assert!(next.last_page);
        assert!(next.data[0].transaction_hash.starts_with("0x"));

        let nobody = my_bids(&db, &Uuid::now_v7().to_string(), Page { page: 1, limit: 10 }).await.unwrap();
        assert_eq!((nobody.total_items, nobody.data.len()), (0, 0));
    }

    #[tokio::test]
    async fn my_bids_cover_every_linked_wallet_newest_first_with_their_status_on_sqlite() {
        let dir = tempfile::tempdir().unwrap();
        fold_and_query(&format!("sqlite://{}", dir.path().join("read.db").display())).await;
    }

    #[tokio::test]
    async fn my_bids_cover_every_linked_wallet_newest_first_with_their_status_on_postgres() {
        let db = domain::test_utils::TestPostgres::create().await;
        fold_and_query(&db.url).await;
    }
}
