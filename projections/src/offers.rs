//! `offers`: the offers on NFTs, folded from the `Offer*` facts of the `nft-{chain}-{token}`
//! streams (see `migrations/*/0009_offers.sql` for the table).
//!
//! Each fact is one statement that never reads the table back (a replacement and a closing
//! change the offerer's live row wherever it is), so a fresh generation fills it in its pipeline
//! like any other. An accepted offer's sale is an ordinary `NftSold` for the NFT model; here it
//! only closes the offer. Each offer made is also a row of `nft_history`, the activity feed
//! (`OFFER_MADE`, which the spec's history leaves out). Every offer fact stamps its NFT in
//! `nft_changes`, so the NFT's page and lists hear of it over the stream like a bid.

use async_trait::async_trait;
use domain::{RecordedEvent, chain::ChainEvent};

use crate::{
    ProjectionError, ReadModel,
    read_model::nft_of,
    sql::{self, Conn, Value},
};

/// The offers table.
#[derive(Default)]
pub struct Offers;

/// What a new offer sets (`seller` and `closed_at` stay NULL until it closes).
const COLUMNS: [&str; 12] = [
    "position",
    "nft_id",
    "offerer",
    "amount",
    "expires_at",
    "fee_bps",
    "state",
    "replaced",
    "made_at",
    "updated_at",
    "made_tx",
    "last_tx",
];

/// The `nft_history` row of an offer made (see `crate::nft`): the activity feed's.
const ACTIVITY_COLUMNS: [&str; 8] = ["position", "nft_id", "type_of_event", "address", "tx_hash", "at", "kind", "price"];

/// Changes the offerer's live offer on the NFT.
const REPLACE: &str = "UPDATE offers SET amount = $1, expires_at = $2, fee_bps = $3, replaced = replaced + 1, updated_at = $4, \
                       last_tx = $5 WHERE nft_id = $6 AND offerer = $7 AND state = 'ACTIVE'";
/// Closes the offerer's live offer on the NFT, noting whom it was made to: the NFT's owner at
/// the closing fact `$7` (its last owner before it in `owner_history`, which the NFT model wrote
/// first, in log order: exact however the log is batched).
const CLOSE: &str = "UPDATE offers SET state = $1, seller = $2, updated_at = $3, closed_at = $3, last_tx = $4, \
                     closed_owner = (SELECT h.owner FROM owner_history h WHERE h.nft_id = $5 AND h.position < $7 \
                     ORDER BY h.position DESC LIMIT 1) \
                     WHERE nft_id = $5 AND offerer = $6 AND state = 'ACTIVE'";

#[async_trait]
impl ReadModel for Offers {
    fn handles(&self, event_type: &str) -> bool {
        matches!(event_type, "OfferMade" | "OfferCancelled" | "OfferRejected" | "OfferAccepted")
    }

    async fn apply(&self, conn: &mut Conn<'_>, events: &[&RecordedEvent]) -> Result<(), ProjectionError> {
        // Closing an offer looks up the owner by token in `owner_history`.
        sql::build_fold_indexes(conn).await?;
        let mut touched: Vec<(&str, i64)> = Vec::with_capacity(events.len());
        let mut offers_made = 0;
        for event in events {
            let nft_id = nft_of(event)?;
            touched.push((nft_id, event.position as i64));
            let parsed: ChainEvent = event.payload().map_err(|e| ProjectionError::malformed(event, e.to_string()))?;
            let (state, offerer, seller, origin) = match parsed {
                ChainEvent::OfferMade { offerer, amount, expires_at, fee_bps, replaced_amount, origin, .. } => {
                    // Every offer made, a replacement too, is a row of the activity feed.
                    let activity: Vec<Value<'_>> = vec![
                        (event.position as i64).into(),
                        nft_id.into(),
                        "OFFER_MADE".into(),
                        (&offerer).into(),
                        (&origin.tx_hash).into(),
                        origin.block_time.into(),
                        "OFFER".into(),
                        (&amount).into(),
                    ];
                    sql::insert(conn, "nft_history", &ACTIVITY_COLUMNS, "", &[activity]).await?;
                    offers_made += 1;
                    let fee_bps = i64::from(fee_bps);
                    if replaced_amount != "0" {
                        let values = [
                            (&amount).into(),
                            expires_at.into(),
                            fee_bps.into(),
                            origin.block_time.into(),
                            (&origin.tx_hash).into(),
                            nft_id.into(),
                            (&offerer).into(),
                        ];
                        sql::execute(conn, REPLACE, &values).await?;
                        continue;
                    }
                    let row: Vec<Value<'_>> = vec![
                        (event.position as i64).into(),
                        nft_id.into(),
                        (&offerer).into(),
                        (&amount).into(),
                        expires_at.into(),
                        fee_bps.into(),
                        "ACTIVE".into(),
                        0_i64.into(),
                        origin.block_time.into(),
                        origin.block_time.into(),
                        (&origin.tx_hash).into(),
                        (&origin.tx_hash).into(),
                    ];
                    sql::insert(conn, "offers", &COLUMNS, "", &[row]).await?;
                    continue;
                }
                ChainEvent::OfferCancelled { offerer, origin, .. } => ("CANCELLED", offerer, None, origin),
                ChainEvent::OfferRejected { offerer, origin, .. } => ("REJECTED", offerer, None, origin),
                ChainEvent::OfferAccepted { offerer, seller, origin, .. } => ("ACCEPTED", offerer, Some(seller), origin),
                _ => return Err(ProjectionError::malformed(event, "not an offer fact")),
            };
            let values = [
                state.into(),
                (&seller).into(),
                origin.block_time.into(),
                (&origin.tx_hash).into(),
                nft_id.into(),
                (&offerer).into(),
                (event.position as i64).into(),
            ];
            sql::execute(conn, CLOSE, &values).await?;
        }
        crate::nft::count_activity(conn, std::iter::repeat_n("OFFER", offers_made)).await?;
        crate::nft::mark_changed(conn, touched).await
    }

    async fn forget_stream(&self, conn: &mut Conn<'_>, stream_id: &str, _at: i64) -> Result<(), ProjectionError> {
        let Some(nft_id) = stream_id.strip_prefix("nft-") else {
            return Ok(());
        };
        sql::execute(conn, "DELETE FROM offers WHERE nft_id = $1", &[nft_id.into()]).await
    }
}
