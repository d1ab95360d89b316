//! Trait filters and facets: the `trait` parameter every NFT list takes, and
//! `GET /api/nft/facets`, the counts beside each trait value.
//!
//! A filter is one `trait=Name:Value` per value, repeated: several values of one trait match
//! any of them, several traits must all match. The name ends at the first `:` not escaped; a
//! `:` or `\` in a name is written `\:` or `\\` (the value is taken as it is, colons and all).
//!
//! Facets are a call of their own, not part of each page: a page turn does not recount them,
//! they are cached apart from the pages (the same filters give the same facets for every page
//! and sort order), and a list that does not show them (the landing page's) does not pay for
//! them.

use axum::{extract::State, response::Response};
use projections::queries::{
    nft::{self, Explore, SaleFilter, SortBy, TraitFilter},
    profiles::{self, Tab},
};
use utoipa::openapi::{
    Required, Type,
    path::{Parameter, ParameterBuilder, ParameterIn},
    schema::{ArrayBuilder, ObjectBuilder},
};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{
    limits::MAX_QUERY_TEXT,
    nft::{FORM_OF_SALE, SEARCH, db_error},
    openapi::{BadRequest, NotFound},
    params::{Choice, Number, Params, Text, query_params},
};
use crate::{
    AppState,
    error::{ApiError, Envelope, ok},
};

/// The most `trait` parameters a request may give.
pub const MAX_TRAIT_FILTERS: usize = 16;

/// The `trait` parameter (repeated).
pub(super) struct TraitParam;

/// The filter parameter.
pub(super) const TRAIT: TraitParam = TraitParam;

impl TraitParam {
    /// Its OpenAPI description: an array, one `Name:Value` per item, exploded (`trait=a:1&trait=b:2`).
    pub fn doc(&self) -> Parameter {
        let item = ObjectBuilder::new().schema_type(Type::String).max_length(Some(MAX_QUERY_TEXT)).pattern(Some("^.+:.+$"));
        let schema = ArrayBuilder::new().items(item).max_items(Some(MAX_TRAIT_FILTERS));
        ParameterBuilder::new()
            .name("trait")
            .parameter_in(ParameterIn::Query)
            .required(Required::False)
            .description(Some(
                "A property to match, `Name:Value`, repeated (`trait=Background:Blue&trait=Background:Red&trait=Eyes:Laser`): \
                 any of the values of one trait, all the traits. A `:` or `\\` in the name is written `\\:` or `\\\\`; the \
                 value is everything after the first unescaped `:`. At most 16, each at most 200 characters.",
            ))
            .schema(Some(schema))
            .explode(Some(true))
            .build()
    }
}

/// The trait filters a query gives (grouped by name), or a 400 naming the bad one.
pub(super) fn trait_filters(params: &Params) -> Result<Vec<TraitFilter>, ApiError> {
    let given: Vec<&str> = params.all("trait").collect();
    if given.len() > MAX_TRAIT_FILTERS {
        return Err(ApiError::BadRequest(format!("trait: at most {MAX_TRAIT_FILTERS} filters")));
    }
    let mut filters: Vec<TraitFilter> = Vec::new();
    for raw in given {
        let (name, value) = parse(raw).ok_or_else(|| {
            ApiError::BadRequest(format!("trait must be Name:Value (a `:` or `\\` in the name escaped with `\\`), not {raw:?}"))
        })?;
        match filters.iter_mut().find(|f| f.name == name) {
            Some(filter) if !filter.values.contains(&value) => filter.values.push(value),
            Some(_) => {}
            None => filters.push(TraitFilter { name, values: vec![value] }),
        }
    }
    Ok(filters)
}

/// `Name:Value` with the name's escapes undone; both trimmed, neither empty.
fn parse(raw: &str) -> Option<(String, String)> {
    let mut name = String::new();
    let mut chars = raw.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some((_, escaped @ (':' | '\\'))) => name.push(escaped),
                _ => return None,
            },
            ':' => {
                let (name, value) = (name.trim(), raw[at + 1..].trim());
                return (!name.is_empty() && !value.is_empty()).then(|| (name.to_owned(), value.to_owned()));
            }
            c => name.push(c),
        }
    }
    None
}

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
            request.within = Some(projections::queries::collections::shown_nfts(&state.read, &id.to_string()).await.map_err(db_error)?);
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

/// The facets answer (the document's shape of [`Facets`]).
#[derive(utoipa::ToSchema)]
#[schema(rename_all = "camelCase")]
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
struct FacetValueDoc {
    /// The value.
    value: String,
    /// NFTs with it that every other filter keeps.
    count: u64,
    /// Whether the request filters by it.
    selected: bool,
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn a_trait_is_a_name_and_a_value_split_at_the_first_unescaped_colon() {
        let pair = |n: &str, v: &str| Some((n.to_owned(), v.to_owned()));
        assert_eq!(parse("Background:Blue"), pair("Background", "Blue"));
        assert_eq!(parse(" Time : 12:30 "), pair("Time", "12:30"));
        assert_eq!(parse(r"a\:b:c"), pair("a:b", "c"));
        assert_eq!(parse(r"a\\:b"), pair(r"a\", "b"));
        for bad in ["Blue", ":Blue", "Background:", " : ", r"a\b:c", r"a\", ""] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }
}
