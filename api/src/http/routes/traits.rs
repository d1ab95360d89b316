//! Facets: `GET /api/nft/facets`, the counts beside each value of the trait filters every NFT
//! list takes ([`super::lists::TRAIT`]).
//!
//! Facets are a call of their own, not part of each page: a page turn does not recount them,
//! they are cached apart from the pages (the same filters give the same facets for every page
//! and sort order), and a list that does not show them (the landing page's) does not pay for
//! them.

use axum::{extract::State, response::Response};
use projections::queries::{
    nft::{self, Explore, SaleFilter, SortBy},
    profiles::{self, Tab},
};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{
    lists::{FORM_OF_SALE, SEARCH, TRAIT, trait_filters},
    openapi::{BadRequest, NotFound},
    params::{Choice, Number, Params, Text, query_params},
};
use crate::http::{
    AppState,
    error::{ApiError, Envelope, db_error, ok},
};

/// The facets routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(facets))
}

/// Which list the facets are for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    Explore,
    Collection,
    Created,
    Owned,
}

const SCOPE: Choice<Scope> = Choice {
    name: "scope",
    default: "explore",
    values: &["explore", "collection", "created", "owned"],
    allowed: "explore, collection, created, owned",
    parse: |v| match v {
        "explore" => Some(Scope::Explore),
        "collection" => Some(Scope::Collection),
        "created" => Some(Scope::Created),
        "owned" => Some(Scope::Owned),
        _ => None,
    },
    description: "The list: explore (and the auction page, formOfSale=AUCTION), a collection's NFTs (with collectionId), a \
        user's created or owned NFTs (with userId)",
};

/// The facets' sale filter: every sale type by default (a list's own default differs: send
/// the list's).
const FACETS_SALE: Choice<SaleFilter> = Choice { default: "ALL", ..FORM_OF_SALE };

const CATEGORY: Text = Text { name: "nftCategory", description: "Category id; omitted or `all` for every category" };
const COLLECTION_ID: Text = Text { name: "collectionId", description: "The collection (scope=collection)" };
const USER_ID: Text = Text { name: "userId", description: "The user (scope=created or owned)" };
const VALUES: Number = Number {
    name: "values",
    default: 10,
    min: 1,
    max: 200,
    description: "Values shown per trait, the most matched first (the chosen ones always)",
};

query_params!(
    /// The facets' query: a list's filters and scope.
    FacetsQuery: SCOPE, COLLECTION_ID, USER_ID, CATEGORY, FACETS_SALE, SEARCH, TRAIT, VALUES
);

/// The facets of an NFT list: for each trait among the NFTs the list's other filters keep,
/// its values with how many NFTs each would match, counted with every filter applied but that
/// trait's own (so the values of a trait already chosen keep their counts, and choosing one
/// more widens the list by that count), the most matched first. `total` is the list's length
/// with every filter.
///
/// The filters are the list's: `formOfSale=AUCTION` in the explore scope is the auction page's
/// (auctions still taking bids); a collection lists the NFTs its creator still holds.
#[utoipa::path(
    get,
    path = "/api/nft/facets",
    tag = "nft",
    security(()),
    params(FacetsQuery),
    responses(
        (status = 200, description = "The facets", body = Envelope<FacetsBody>),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
    ),
)]
async fn facets(State(state): State<AppState>, params: Params) -> Result<Response, ApiError> {
    let scope = params.choice(&SCOPE)?;
    let sale = match (scope, params.choice(&FACETS_SALE)?) {
        (Scope::Explore, SaleFilter::Auction) => SaleFilter::LiveAuction,
        (_, sale) => sale,
    };
    let mut request = Explore {
        category: params.text(&CATEGORY).filter(|c| *c != "all").map(str::to_owned),
        sale,
        search: params.text(&SEARCH).map(str::to_owned),
        traits: trait_filters(&params)?,
        ..Explore::all(SortBy::Date)
    };
    let per_trait = params.number(&VALUES)? as usize;
    let at = state.read_version().position;
    match scope {
        Scope::Explore => {}
        Scope::Collection => {
            let id =
                params.text(&COLLECTION_ID).ok_or_else(|| ApiError::BadRequest("collectionId is required with scope=collection".into()))?;
            let id = super::collection::collection_id(id)?;
            super::collection::card(&state, id, None).await?;
            request.within =
                Some(projections::queries::collections::shown_nfts(&state.read, &id.to_string()).await.map_err(db_error)?.into());
        }
        Scope::Created | Scope::Owned => {
            let user =
                params.text(&USER_ID).ok_or_else(|| ApiError::BadRequest("userId is required with scope=created or owned".into()))?;
            let wallets = profiles::wallets(&state.read, user)
                .await
                .map_err(db_error)?
                .ok_or_else(|| ApiError::NotFound(format!("No user with id {user}")))?;
            request = if scope == Scope::Created {
                profiles::on_tab(request, Tab::Created, wallets)
            } else {
                profiles::on_tab(request, Tab::Owned, wallets)
            };
        }
    }
    let facets = nft::facets(&state.read, &request, per_trait, at).await.map_err(db_error)?;
    Ok(ok(facets, "Facets fetched"))
}

/// The facets answer: the list's length and, per trait, its values with their counts.
#[derive(utoipa::ToSchema)]
#[schema(as = Facets, rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
pub(super) struct FacetsBody {
    /// NFTs matching every filter.
    total: u64,
    /// The traits with a value among the NFTs the other filters keep, by name.
    traits: Vec<FacetDoc>,
}

/// One trait's values.
#[derive(utoipa::ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
#[schema(as = Facet)]
struct FacetDoc {
    /// The property key.
    name: String,
    /// Its values with the most matches (most first, then by value), at most `values` of them,
    /// and the chosen ones.
    values: Vec<FacetValueDoc>,
    /// How many of its values have matches (or are chosen): more than `values` holds when cut.
    distinct: u64,
}

/// A value and its count.
#[derive(utoipa::ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
#[schema(as = FacetValue)]
struct FacetValueDoc {
    /// The value.
    value: String,
    /// NFTs with it that every other filter keeps.
    count: u64,
    /// Whether the request filters by it.
    selected: bool,
}
