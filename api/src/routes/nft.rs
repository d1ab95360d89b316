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
use std::collections::HashMap;

use projections::queries::nft::Person;
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

/// The users behind a set of addresses (those linked to an account).
async fn people(state: &AppState, addresses: Vec<String>) -> Result<HashMap<String, Person>, ApiError> {
    nft::people(&state.read, &addresses).await.map_err(db_error)
}

/// `{userId, username, fullName, avatar}` of the user behind `address`, nulls when none.
fn person(people: &HashMap<String, Person>, address: &str) -> Value {
    match people.get(address) {
        Some(p) => json!({ "userId": p.user_id, "username": p.username, "fullName": p.full_name, "avatar": p.avatar }),
        None => json!({ "userId": null, "username": null, "fullName": null, "avatar": null }),
    }
}

/// `value` (an object) with `extra`'s fields added.
fn with(mut value: Value, extra: Value) -> Value {
    if let (Some(object), Value::Object(extra)) = (value.as_object_mut(), extra) {
        object.extend(extra);
    }
    value
}

/// An NFT in the spec's shape: the read model's fields plus what the server adds (contract,
/// coin, the viewer's like and bookmark, users behind the addresses).
fn shape(state: &AppState, view: NftView, people: &HashMap<String, Person>) -> Result<Value, ApiError> {
    let mut value = serde_json::to_value(&view).map_err(|e| ApiError::Internal(e.into()))?;
    let object = value.as_object_mut().ok_or_else(|| ApiError::Internal(anyhow::anyhow!("an NFT is an object")))?;
    object.insert("contractAddress".into(), json!(state.chain.contract_address.clone().unwrap_or_default()));
    object.insert("contractType".into(), json!("ERC721"));
    object.insert("coinName".into(), json!("MATIC"));
    object.insert("saleCoin".into(), json!("1"));
    object.insert("isLiked".into(), json!(false));
    object.insert("isBookmarked".into(), json!(false));
    object.insert("creator".into(), with(person(people, &view.creator_address), json!({ "address": view.creator_address })));
    object.insert("currentOwner".into(), with(person(people, &view.owner_address), json!({ "ownerAddress": view.owner_address })));
    Ok(value)
}

async fn shape_page(state: &AppState, paged: projections::queries::Paged<NftView>) -> Result<Value, ApiError> {
    let projections::queries::Paged { data, count, total_items, current_page, last_page, current_item_count } = paged;
    let addresses = data.iter().flat_map(|v| [v.creator_address.clone(), v.owner_address.clone()]).collect();
    let people = people(state, addresses).await?;
    let data = data.into_iter().map(|v| shape(state, v, &people)).collect::<Result<Vec<_>, _>>()?;
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
    Ok(ok(shape_page(&state, paged).await?, "NFTs fetched"))
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
    let people = people(&state, vec![view.creator_address.clone(), view.owner_address.clone()]).await?;
    Ok(ok(shape(&state, view, &people)?, "NFT fetched"))
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
    let people = people(&state, bids.data.iter().map(|b| b.bidder_address.clone()).collect()).await?;
    let mut body = serde_json::to_value(&bids).map_err(|e| ApiError::Internal(e.into()))?;
    for (row, bid) in body["data"].as_array_mut().into_iter().flatten().zip(&bids.data) {
        row["bidder"] = person(&people, &bid.bidder_address);
    }
    Ok(ok(body, "Bids fetched"))
}

async fn history(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    known(&state, &id).await?;
    let history = nft::history(&state.read, &id).await.map_err(db_error)?;
    let people = people(&state, history.iter().map(|h| h.address.clone()).collect()).await?;
    let data: Vec<Value> = history
        .iter()
        .map(|h| {
            let p = person(&people, &h.address);
            with(serde_json::to_value(h).unwrap_or_default(), json!({ "username": p["username"], "fullName": p["fullName"], "avatar": p["avatar"], "userId": p["userId"] }))
        })
        .collect();
    Ok(ok(json!({ "data": data }), "History fetched"))
}

async fn owners(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    known(&state, &id).await?;
    Ok(ok(nft::owners(&state.read, &id).await.map_err(db_error)?, "Owners fetched"))
}

async fn trending(State(state): State<AppState>, params: Params) -> Result<Response, ApiError> {
    let paged = nft::trending(&state.read, sale(&params, SaleFilter::FixedPrice)?, page(&params, 10)?).await.map_err(db_error)?;
    Ok(ok(shape_page(&state, paged).await?, "Trending NFTs fetched"))
}

async fn statistics(State(state): State<AppState>) -> Result<Response, ApiError> {
    Ok(ok(nft::statistics(&state.read).await.map_err(db_error)?, "Statistics fetched"))
}
