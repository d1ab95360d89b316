//! `/api/trendingcreators`: trending sellers and creators, by the trending score (see
//! `projections::queries::trending` and docs/architecture.md).

use axum::{extract::State, response::Response};
use projections::queries::{
    Page,
    social::ViewerFlags,
    trending::{self, PeopleKind},
};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{
    lists::{PAGE, limit},
    nft::{CardsPage, Paged, shared_answer, trending_until},
    openapi::BadRequest,
    params::{Choice, Params, query_params},
};
use crate::http::{
    AppState,
    error::{ApiError, Envelope, db_error, ok_from_bytes},
};

/// Page size of the trending sellers and creators.
const PAGE_SIZE: u32 = 10;

const KIND: Choice<PeopleKind> = Choice {
    name: "type",
    default: "SELLER",
    values: &["SELLER", "CREATOR"],
    allowed: "SELLER, CREATOR",
    parse: PeopleKind::parse,
    description: "SELLER: users who sold, by their sales; CREATOR: users who created NFTs, by their NFTs' sales, royalties and likes",
};

query_params!(
    /// The trending people query.
    PeopleQuery: PAGE, limit(PAGE_SIZE), KIND
);

/// The trending route.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(trending_people))
}

/// Trending sellers or creators, 10 per page.
#[utoipa::path(
    get,
    path = "/api/trendingcreators",
    tag = "nft",
    security(()),
    params(PeopleQuery),
    responses((status = 200, description = "A page of seller or creator cards", body = Envelope<Paged<PersonCard>>), (status = 400, response = BadRequest)),
)]
async fn trending_people(State(state): State<AppState>, params: Params) -> Result<Response, ApiError> {
    let page = Page { page: params.number(&PAGE)?, limit: params.number(&limit(PAGE_SIZE))? };
    let kind = params.choice(&KIND)?;
    // The same for everyone until the read tables change, kept at most TRENDING_KEPT_SECONDS (the
    // window and the shown scores move with the clock).
    let answer = shared_answer(&state, format!("trending people {kind:?} {page:?}"), async |version, now| {
        let paged = trending::people(&state.read, kind, page, now, version.position).await.map_err(db_error)?;
        let message = if kind == PeopleKind::Seller { "Trending sellers fetched" } else { "Trending creators fetched" };
        let bytes = serde_json::to_vec(&Envelope { statuscode: 200, body: paged, message: message.into() })
            .map_err(|e| ApiError::Internal(e.into()))?;
        Ok((CardsPage::without_cards(bytes.into()), Some(trending_until(now, None))))
    })
    .await?;
    Ok(ok_from_bytes(answer.for_viewer(&ViewerFlags::default())))
}

/// A seller or creator card.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct PersonCard {
    /// The user's id.
    id: String,
    /// The same.
    user_id: String,
    /// Username.
    username: String,
    /// Full name.
    full_name: String,
    /// Avatar URL (`/ipfs/<cid>`) or "".
    avatar: String,
    /// Cover image URL or "".
    cover_image: String,
    /// Their bio.
    info: String,
    /// Sales made from their wallets.
    total_sold: i64,
    /// Their collections.
    total_collection: i64,
    /// NFTs they created (not burned).
    total_creations: i64,
    /// Their trending score now: Σ weight × exp(−age/τ) over their recent sales (and, for
    /// creators, their NFTs' royalties and likes).
    score: f64,
}
