//! NFT reads: browse, detail, auctions, bid history, history, owners, trending, statistics.

use axum::{
    Router,
    extract::{Path, State},
    response::Response,
    routing::get,
};
use projections::queries::{
    Page,
    nft::{self, Explore, NftView, SaleFilter, SortBy},
};
use serde_json::{Value, json};

use super::params::Params;
use crate::{
    AppState,
    error::{ApiError, ok},
};

/// Page size of browse and profile lists.
pub const PAGE_SIZE: u32 = 9;
/// Page size of bid lists.
pub const BID_PAGE_SIZE: u32 = 10;
/// The largest page a client may ask for.
const MAX_LIMIT: u32 = 100;

/// The NFT read routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/nft/explore/", get(explore))
        .route("/api/nft/explore", get(explore))
        .route("/api/nft/detail/{id}", get(detail))
        .route("/api/nft/nftinauction/{id}", get(in_auction))
        .route("/api/nft/bidhistory/{nft_id}/{auction_id}/", get(bid_history))
        .route("/api/nft/bidhistory/{nft_id}/{auction_id}", get(bid_history))
        .route("/api/nft/nfthistory/{id}", get(history))
        .route("/api/nft/ownnerhistory/{id}", get(owners))
        .route("/api/nft/trendingnfts", get(trending))
        .route("/api/getmarketplacestatistics", get(statistics))
}

fn page(params: &Params, default_limit: u32) -> Result<Page, ApiError> {
    Ok(Page { page: params.number("page", 1, 1, 1_000_000)?, limit: params.number("limit", default_limit, 1, MAX_LIMIT)? })
}

fn sale(params: &Params, default: SaleFilter) -> Result<SaleFilter, ApiError> {
    params.choice("formOfSale", default, "ALL, FIXEDPRICE, AUCTION, NOT_FOR_SALE", SaleFilter::parse)
}

/// An NFT in the spec's shape: the read model's fields plus what the server adds (contract,
/// coin, the viewer's like and bookmark, users behind the addresses).
fn shape(state: &AppState, view: NftView) -> Result<Value, ApiError> {
    let mut value = serde_json::to_value(&view).map_err(|e| ApiError::Internal(e.into()))?;
    let object = value.as_object_mut().ok_or_else(|| ApiError::Internal(anyhow::anyhow!("an NFT is an object")))?;
    object.insert("contractAddress".into(), json!(state.chain.contract_address.clone().unwrap_or_default()));
    object.insert("contractType".into(), json!("ERC721"));
    object.insert("coinName".into(), json!("MATIC"));
    object.insert("saleCoin".into(), json!("1"));
    object.insert("isLiked".into(), json!(false));
    object.insert("isBookmarked".into(), json!(false));
    object.insert("creator".into(), json!({ "userId": null, "username": null, "fullName": null, "avatar": null, "address": view.creator_address }));
    object.insert(
        "currentOwner".into(),
        json!({ "userId": null, "username": null, "fullName": null, "avatar": null, "ownerAddress": view.owner_address }),
    );
    Ok(value)
}

fn shape_page(state: &AppState, paged: projections::queries::Paged<NftView>) -> Result<Value, ApiError> {
    let projections::queries::Paged { data, count, total_items, current_page, last_page, current_item_count } = paged;
    let data = data.into_iter().map(|v| shape(state, v)).collect::<Result<Vec<_>, _>>()?;
    Ok(json!({
        "data": data, "count": count, "totalItems": total_items, "currentPage": current_page,
        "lastPage": last_page, "currentItemCount": current_item_count,
    }))
}

fn db_error(err: sqlx::Error) -> ApiError {
    ApiError::Internal(err.into())
}

async fn explore(State(state): State<AppState>, params: Params) -> Result<Response, ApiError> {
    let request = Explore {
        category: params.text("nftCategory").filter(|c| *c != "all").map(str::to_owned),
        sale: sale(&params, SaleFilter::FixedPrice)?,
        sort_by: params.choice("sortBy", SortBy::Date, "DATE, PRICE, POPULARITY", SortBy::parse)?,
        ascending: params.choice("orderBy", false, "0 (newest / highest first), 1 (oldest / lowest first)", |v| match v {
            "0" => Some(false),
            "1" => Some(true),
            _ => None,
        })?,
        search: params.text("search").map(str::to_owned),
        owner: None,
        creator: None,
    };
    let paged = nft::explore(&state.read, &request, page(&params, PAGE_SIZE)?).await.map_err(db_error)?;
    Ok(ok(shape_page(&state, paged)?, "NFTs fetched"))
}

async fn known(state: &AppState, id: &str) -> Result<(), ApiError> {
    if nft::exists(&state.read, id).await.map_err(db_error)? {
        Ok(())
    } else {
        Err(ApiError::NotFound(format!("No NFT with id {id}")))
    }
}

async fn detail(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let view = nft::detail(&state.read, &id).await.map_err(db_error)?.ok_or_else(|| ApiError::NotFound(format!("No NFT with id {id}")))?;
    Ok(ok(shape(&state, view)?, "NFT fetched"))
}

async fn in_auction(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    known(&state, &id).await?;
    Ok(ok(nft::auctions(&state.read, &id).await.map_err(db_error)?, "Auctions fetched"))
}

async fn bid_history(
    State(state): State<AppState>,
    Path((nft_id, auction_id)): Path<(String, String)>,
    params: Params,
) -> Result<Response, ApiError> {
    known(&state, &nft_id).await?;
    let bids = nft::bid_history(&state.read, &nft_id, &auction_id, page(&params, BID_PAGE_SIZE)?).await.map_err(db_error)?;
    Ok(ok(bids, "Bids fetched"))
}

async fn history(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    known(&state, &id).await?;
    Ok(ok(json!({ "data": nft::history(&state.read, &id).await.map_err(db_error)? }), "History fetched"))
}

async fn owners(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    known(&state, &id).await?;
    Ok(ok(nft::owners(&state.read, &id).await.map_err(db_error)?, "Owners fetched"))
}

async fn trending(State(state): State<AppState>, params: Params) -> Result<Response, ApiError> {
    let paged = nft::trending(&state.read, sale(&params, SaleFilter::FixedPrice)?, page(&params, 10)?).await.map_err(db_error)?;
    Ok(ok(shape_page(&state, paged)?, "Trending NFTs fetched"))
}

async fn statistics(State(state): State<AppState>) -> Result<Response, ApiError> {
    Ok(ok(nft::statistics(&state.read).await.map_err(db_error)?, "Statistics fetched"))
}
