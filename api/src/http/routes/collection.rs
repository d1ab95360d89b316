//! `/api/collection/*`: collections (create, edit, delete, add and remove NFTs, like) and their
//! grids, and `/api/nft/browsebycollection/{collectionid}`, a collection's NFTs.
//!
//! Every rule is the domain's (`domain::collections::decide`); a handler gathers what the rules
//! need (the uploaded image's sniffed type and size, the NFTs' owners from the read tables, the
//! caller's linked wallets), decides, stores an accepted image, appends, and answers once the
//! read tables show the change.

use axum::{
    extract::{
        DefaultBodyLimit, Multipart, Path, State,
        multipart::{Field, MultipartRejection},
    },
    response::Response,
};
use chrono::Utc;
use domain::{
    Metadata,
    collections::{self, CollectionCommand, CollectionError, CommandError, Image, NftToAdd},
};
use projections::queries::{
    Page,
    collections::{self as queries, Browse, CollectionSort, CollectionView},
    nft::{self, Explore, SortBy},
};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::{
    router::{OpenApiRouter, UtoipaMethodRouterExt},
    routes,
};
use uuid::Uuid;

use super::{
    limits::form_text,
    lists::{FORM_OF_SALE, ORDER_BY, PAGE, PAGE_SIZE, SEARCH, TRAIT, VERIFIED_ONLY, limit, trait_filters},
    nft::{NftCard, Paged, page_answer},
    openapi::{BadRequest, Conflict, Forbidden, NotFound, PayloadTooLarge, Person, SignedIn, Unavailable},
    params::{Choice, Params, Text, query_params},
    social::LikeState,
};
use crate::{
    files,
    http::{
        AppState,
        auth::{AuthUser, MaybeUser, Payload, load_signed_in},
        error::{ApiError, Envelope, Null, db_error, ok},
    },
};

/// Room for the title and multipart framing beside the image.
const FORM_OVERHEAD: usize = 64 * 1024;
/// The most NFTs one add request may carry.
const MAX_ADD: usize = 100;

/// The collection routes; create and update refuse bodies over one image of
/// `max_image_bytes` before reading them.
pub fn router(max_image_bytes: usize) -> OpenApiRouter<AppState> {
    let form_limit = DefaultBodyLimit::max(max_image_bytes + FORM_OVERHEAD);
    OpenApiRouter::new()
        .routes(routes!(my_collections, create_collection).layer(form_limit))
        .routes(routes!(update_collection, delete_collection).layer(form_limit))
        .routes(routes!(add_nfts))
        .routes(routes!(remove_nft))
        .routes(routes!(browse_collections))
        .routes(routes!(browse_by_id))
        .routes(routes!(like_collection))
        .routes(routes!(browse_by_collection))
}

impl From<CollectionError> for ApiError {
    fn from(err: CollectionError) -> Self {
        let message = err.to_string();
        match err {
            CollectionError::NotFound => Self::NotFound(message),
            CollectionError::NotCreator => Self::Forbidden(message),
            CollectionError::ImageRequired
            | CollectionError::TitleRequired
            | CollectionError::UnsupportedImage
            | CollectionError::ImageTooLarge { .. }
            | CollectionError::AlreadyExists
            | CollectionError::NoNfts
            | CollectionError::UnknownNft(_)
            | CollectionError::NftNotOwned(_)
            | CollectionError::AlreadyInCollection(_)
            | CollectionError::NotInCollection(_) => Self::BadRequest(message),
        }
    }
}

impl From<CommandError> for ApiError {
    fn from(err: CommandError) -> Self {
        match err {
            CommandError::Rejected(err) => err.into(),
            CommandError::Store(err) => err.into(),
        }
    }
}

const COLLECTION_SORT: Choice<CollectionSort> = Choice {
    name: "sortBy",
    default: "DATE",
    values: &["DATE", "POPULARITY", "ITEMS", "TITLE"],
    allowed: "DATE, POPULARITY, ITEMS, TITLE",
    parse: CollectionSort::parse,
    description: "Sort key: DATE, creation time; POPULARITY, likes; ITEMS, the NFTs its page lists (`nftCount`); TITLE, \
        the title (orderBy 1: A to Z)",
};
const USER_ID: Text = Text { name: "userId", description: "Only this user's collections (a user id)" };
const TITLE_SEARCH: Text = Text { name: "search", description: "Text to look for in titles (case-insensitive)" };

query_params!(
    /// The signed-in user's grid query.
    MineQuery: PAGE, limit(PAGE_SIZE), COLLECTION_SORT, ORDER_BY, TITLE_SEARCH
);
query_params!(
    /// The public grid's query.
    BrowseQuery: USER_ID, PAGE, limit(PAGE_SIZE), COLLECTION_SORT, ORDER_BY, TITLE_SEARCH, VERIFIED_ONLY
);
query_params!(
    /// A collection's NFT list query: explore's, in the collection.
    NftsQuery: PAGE, limit(PAGE_SIZE), FORM_OF_SALE, NFT_SORT_BY, ORDER_BY, SEARCH, TRAIT
);

/// A collection's NFT sort keys: explore's and rarity in the collection.
const NFT_SORT_BY: Choice<SortBy> = Choice {
    name: "sortBy",
    default: "DATE",
    values: &["DATE", "PRICE", "POPULARITY", "RARITY"],
    allowed: "DATE, PRICE, POPULARITY, RARITY",
    parse: |v| match v {
        "RARITY" => Some(SortBy::Rarity),
        other => SortBy::parse(other),
    },
    description: "Sort key: mint time, price, likes, bids and sales, or RARITY, the rank in the collection by OpenRarity's \
        method (orderBy 0: the rarest first)",
};

fn page(params: &Params) -> Result<Page, ApiError> {
    Ok(Page { page: params.number(&PAGE)?, limit: params.number(&limit(PAGE_SIZE))? })
}

/// A collection id in a path: anything but a UUID names no collection.
pub(super) fn collection_id(raw: &str) -> Result<Uuid, ApiError> {
    raw.trim().parse().map_err(|_| CollectionError::NotFound.into())
}

fn metadata(user: Uuid) -> Metadata {
    Metadata { actor: Some(user.to_string()), correlation_id: Some(Uuid::now_v7()), ..Metadata::default() }
}

/// Runs a command on a collection and waits until the read tables show it.
async fn execute(state: &AppState, id: Uuid, user: Uuid, command: CollectionCommand) -> Result<collections::Executed, ApiError> {
    let executed = collections::execute(state.store.as_ref(), id, &metadata(user), |c| collections::decide(c, command.clone())).await?;
    if let Some(position) = executed.position {
        state.projected(position).await;
    }
    Ok(executed)
}

/// The collection as cards show it, for `viewer`.
pub(super) async fn card(state: &AppState, id: Uuid, viewer: Option<Uuid>) -> Result<CollectionView, ApiError> {
    let viewer = viewer.map(|v| v.to_string());
    queries::by_id(&state.read, &id.to_string(), viewer.as_deref()).await.map_err(db_error)?.ok_or_else(|| CollectionError::NotFound.into())
}

/// Reads an uploaded image, up to one byte past `max` (enough for the size rule to refuse it).
async fn read_image(mut field: Field<'_>, max: usize) -> Result<Option<(Vec<u8>, Image)>, ApiError> {
    let mut bytes = Vec::new();
    let mut size = 0;
    while let Some(chunk) = field.chunk().await? {
        size += chunk.len();
        if bytes.len() <= max {
            bytes.extend_from_slice(&chunk);
        }
    }
    if size == 0 {
        return Ok(None);
    }
    let image = Image { cid: files::cid::cid_v1(&bytes), content_type: files::image_type(&bytes).map(str::to_owned), size, max_size: max };
    Ok(Some((bytes, image)))
}

/// The create and update form's fields.
struct Form {
    title: Option<String>,
    image: Option<(Vec<u8>, Image)>,
}

async fn read_form(state: &AppState, multipart: Result<Multipart, MultipartRejection>) -> Result<Form, ApiError> {
    let mut multipart = multipart?;
    let mut form = Form { title: None, image: None };
    while let Some(field) = multipart.next_field().await? {
        match field.name().unwrap_or_default() {
            "title" => {
                // Text, once: a JSON value (an array sent for the title arrives as `[]`, typed
                // application/json), a file or a second title is not a title.
                let typed = field.content_type().map(|t| t.split(';').next().unwrap_or_default().trim().to_ascii_lowercase());
                if field.file_name().is_some() || typed.is_some_and(|t| t != "text/plain") {
                    return Err(ApiError::BadRequest("title: must be text".into()));
                }
                if form.title.is_some() {
                    return Err(ApiError::BadRequest("title: sent more than once".into()));
                }
                form.title = Some(form_text::<CollectionForm>(field).await?);
            }
            "image" => form.image = read_image(field, state.config.max_image_bytes).await?,
            _ => {}
        }
    }
    Ok(form)
}

/// A grid page as answered.
fn grid(paged: projections::queries::Paged<CollectionView>, message: &str) -> Response {
    ok(paged, message)
}

/// The signed-in user's collections (the grid on their profile, the add-to-collection dialog).
#[utoipa::path(
    get,
    path = "/api/collection",
    tag = "collection",
    params(MineQuery),
    security(("bearer" = [])),
    responses((status = 200, description = "A page of the user's collections", body = Envelope<Paged<CollectionCard>>), (status = 400, response = BadRequest), SignedIn),
)]
async fn my_collections(State(state): State<AppState>, me: AuthUser, params: Params) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let request = Browse {
        creator: Some(me.0.to_string()),
        search: params.text(&TITLE_SEARCH).map(str::to_owned),
        sort_by: params.choice(&COLLECTION_SORT)?,
        ascending: params.choice(&ORDER_BY)?,
        viewer: Some(me.0.to_string()),
        empty_last: false,
        verified_only: false,
    };
    let paged = queries::browse(&state.read, &request, page(&params)?, state.read_version().position).await.map_err(db_error)?;
    Ok(grid(paged, "Collections fetched"))
}

/// The create and update form (multipart).
#[derive(ToSchema)]
#[allow(dead_code, reason = "documents the multipart fields the handlers read one by one")]
struct CollectionForm {
    /// Title (required on create; not blank once trimmed). Left out on update: unchanged.
    #[schema(max_length = 100)]
    title: Option<String>,
    /// Image: PNG, JPEG or WebP by content (whatever its name), at most `MAX_IMAGE_BYTES`.
    /// Required on create; left out or empty on update: unchanged.
    #[schema(value_type = Option<String>, format = Binary, content_media_type = "application/octet-stream")]
    image: Option<Vec<u8>>,
}

/// Creates a collection for the signed-in user.
#[utoipa::path(
    post,
    path = "/api/collection",
    tag = "collection",
    request_body(content = CollectionForm, content_type = "multipart/form-data"),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The new collection", body = Envelope<CollectionCard>),
        (status = 400, response = BadRequest),
        SignedIn,
        (status = 413, response = PayloadTooLarge),
    ),
)]
async fn create_collection(
    State(state): State<AppState>,
    me: AuthUser,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let form = read_form(&state, multipart).await?;
    let id = Uuid::now_v7();
    let (bytes, image) = form.image.map_or((None, None), |(bytes, image)| (Some(bytes), Some(image)));
    let command = CollectionCommand::Create { collection_id: id, by: me.0, title: form.title.unwrap_or_default(), image, now: Utc::now() };
    // Every rule before the image is stored: a refused collection leaves nothing behind.
    collections::decide(&Default::default(), command.clone())?;
    if let Some(bytes) = bytes {
        crate::files::store_upload(&state.files, &state.renditions, bytes).await.map_err(|e| ApiError::Internal(e.into()))?;
    }
    execute(&state, id, me.0, command).await?;
    Ok(ok(card(&state, id, Some(me.0)).await?, "Collection Created!"))
}

/// Changes a collection's title or image (its creator only).
#[utoipa::path(
    put,
    path = "/api/collection/{collectionId}",
    tag = "collection",
    params(CollectionId),
    request_body(content = CollectionForm, content_type = "multipart/form-data"),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The collection as it is now", body = Envelope<CollectionCard>),
        (status = 400, response = BadRequest),
        SignedIn,
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 413, response = PayloadTooLarge),
    ),
)]
async fn update_collection(
    State(state): State<AppState>,
    me: AuthUser,
    Path(id): Path<String>,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let id = collection_id(&id)?;
    let form = read_form(&state, multipart).await?;
    let (bytes, image) = form.image.map_or((None, None), |(bytes, image)| (Some(bytes), Some(image)));
    let command = CollectionCommand::Update { by: me.0, title: form.title, image, now: Utc::now() };
    let (current, _) = collections::load(state.store.as_ref(), id).await?;
    collections::decide(&current, command.clone())?;
    if let Some(bytes) = bytes {
        crate::files::store_upload(&state.files, &state.renditions, bytes).await.map_err(|e| ApiError::Internal(e.into()))?;
    }
    execute(&state, id, me.0, command).await?;
    Ok(ok(card(&state, id, Some(me.0)).await?, "Collection updated!"))
}

/// Deletes a collection (its creator only); its NFTs are untouched.
#[utoipa::path(
    delete,
    path = "/api/collection/{collectionId}",
    tag = "collection",
    params(CollectionId),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Deleted", body = Envelope<Null>),
        SignedIn,
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
    ),
)]
async fn delete_collection(State(state): State<AppState>, me: AuthUser, Path(id): Path<String>) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let id = collection_id(&id)?;
    execute(&state, id, me.0, CollectionCommand::Delete { by: me.0, now: Utc::now() }).await?;
    Ok(ok(Null, "Collection deleted"))
}

/// One NFT to add.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct NftRef {
    /// `{chainId}-{tokenId}`.
    #[schema(example = "80001-1", max_length = 100)]
    nft_id: String,
}

/// Puts NFTs the creator owns (through a linked wallet) into their collection; all or none.
#[utoipa::path(
    put,
    path = "/api/collection/nft/{collectionId}",
    tag = "collection",
    params(("collectionId" = String, Path, description = "The collection's id")),
    request_body(content = Vec<NftRef>, content_type = "application/json"),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The collection as it is now", body = Envelope<CollectionCard>),
        (status = 400, response = BadRequest),
        SignedIn,
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
    ),
)]
async fn add_nfts(
    State(state): State<AppState>,
    me: AuthUser,
    Path(id): Path<String>,
    body: Result<Payload<Vec<NftRef>>, ApiError>,
) -> Result<Response, ApiError> {
    let user = load_signed_in(&state, me).await?;
    let id = collection_id(&id)?;
    let Payload(nfts) = body?;
    if nfts.len() > MAX_ADD {
        return Err(ApiError::BadRequest(format!("At most {MAX_ADD} NFTs can be added at once")));
    }
    let ids: Vec<String> = nfts.into_iter().map(|n| n.nft_id.trim().to_owned()).collect();
    let owners = queries::owners(&state.read, &ids).await.map_err(db_error)?;
    let nfts = ids.into_iter().map(|nft_id| NftToAdd { owner: owners.get(&nft_id).cloned(), nft_id }).collect();
    let wallets = user.wallets.iter().map(|w| w.address.clone()).collect();
    execute(&state, id, me.0, CollectionCommand::AddNfts { by: me.0, wallets, nfts, now: Utc::now() }).await?;
    Ok(ok(card(&state, id, Some(me.0)).await?, "NFT added to collection"))
}

/// Takes an NFT out of a collection (its creator only).
#[utoipa::path(
    put,
    path = "/api/collection/nft/{collectionId}/{nftId}",
    tag = "collection",
    params(("collectionId" = String, Path, description = "The collection's id"), ("nftId" = String, Path, description = "`{chainId}-{tokenId}`")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The collection as it is now", body = Envelope<CollectionCard>),
        (status = 400, response = BadRequest),
        SignedIn,
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
    ),
)]
async fn remove_nft(State(state): State<AppState>, me: AuthUser, Path((id, nft_id)): Path<(String, String)>) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let id = collection_id(&id)?;
    execute(&state, id, me.0, CollectionCommand::RemoveNft { by: me.0, nft_id: nft_id.trim().to_owned(), now: Utc::now() }).await?;
    Ok(ok(card(&state, id, Some(me.0)).await?, "NFT removed from collection"))
}

/// Everyone's collections, or one user's; `isLiked` for a signed-in viewer. Collections whose
/// page lists no NFT (`nftCount` 0) come after the others, whatever the order.
#[utoipa::path(
    get,
    path = "/api/collection/browse",
    tag = "collection",
    security((), ("bearer" = [])),
    params(BrowseQuery),
    responses((status = 200, description = "A page of collections", body = Envelope<Paged<CollectionCard>>), (status = 400, response = BadRequest)),
)]
async fn browse_collections(State(state): State<AppState>, viewer: MaybeUser, params: Params) -> Result<Response, ApiError> {
    let creator = match params.text(&USER_ID) {
        Some(raw) => Some(raw.parse::<Uuid>().map_err(|_| ApiError::BadRequest("userId must be a user id".into()))?.to_string()),
        None => None,
    };
    let request = Browse {
        creator,
        search: params.text(&TITLE_SEARCH).map(str::to_owned),
        sort_by: params.choice(&COLLECTION_SORT)?,
        ascending: params.choice(&ORDER_BY)?,
        viewer: viewer.0.map(|v| v.to_string()),
        empty_last: true,
        verified_only: params.choice(&VERIFIED_ONLY)?,
    };
    let paged = queries::browse(&state.read, &request, page(&params)?, state.read_version().position).await.map_err(db_error)?;
    Ok(grid(paged, "Collections fetched"))
}

/// One collection.
#[utoipa::path(
    get,
    path = "/api/collection/browsebyid/{collectionId}",
    tag = "collection",
    security((), ("bearer" = [])),
    params(CollectionId),
    responses((status = 200, description = "The collection", body = Envelope<CollectionCard>), (status = 404, response = NotFound), (status = 451, response = Unavailable)),
)]
async fn browse_by_id(State(state): State<AppState>, viewer: MaybeUser, Path(id): Path<String>) -> Result<Response, ApiError> {
    let id = collection_id(&id)?;
    super::nft::withheld(&state, MaybeUser(viewer.0), "collection", &id.to_string()).await?;
    Ok(ok(card(&state, id, viewer.0).await?, "Collection fetched"))
}

/// Likes a collection, or takes the like back.
#[utoipa::path(
    put,
    path = "/api/collection/like/{collectionId}",
    tag = "collection",
    params(CollectionId),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The like's new state", body = Envelope<LikeState>),
        SignedIn,
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
    ),
)]
async fn like_collection(State(state): State<AppState>, me: AuthUser, Path(id): Path<String>) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let id = collection_id(&id)?;
    let executed = execute(&state, id, me.0, CollectionCommand::ToggleLike { by: me.0, now: Utc::now() }).await?;
    let is_liked = executed.collection.likers.contains(&me.0);
    let total_likes = executed.collection.likers.len() as i64;
    Ok(ok(LikeState { is_liked, total_likes }, if is_liked { "Collection liked" } else { "Collection unliked" }))
}

/// A collection's NFTs (those its creator still owns), a page at a time: explore's filters,
/// search, order and shape.
#[utoipa::path(
    get,
    path = "/api/nft/browsebycollection/{collectionId}",
    tag = "collection",
    security((), ("bearer" = [])),
    params(("collectionId" = String, Path, description = "The collection's id"), NftsQuery),
    responses((status = 200, description = "A page of NFTs", body = Envelope<Paged<NftCard>>), (status = 400, response = BadRequest), (status = 404, response = NotFound)),
)]
async fn browse_by_collection(
    State(state): State<AppState>,
    viewer: MaybeUser,
    Path(id): Path<String>,
    params: Params,
) -> Result<Response, ApiError> {
    let id = collection_id(&id)?;
    let mut request = Explore::all(params.choice(&NFT_SORT_BY)?);
    request.sale = params.choice(&FORM_OF_SALE)?;
    request.ascending = params.choice(&ORDER_BY)?;
    request.search = params.text(&SEARCH).map(str::to_owned);
    request.traits = trait_filters(&params)?;
    request.collection = Some(id.to_string());
    let page = page(&params)?;
    card(&state, id, None).await?;
    request.within = Some(queries::shown_nfts(&state.read, &id.to_string()).await.map_err(db_error)?.into());
    let at = state.read_version().position;
    let paged = nft::explore(&state.read, &request, page, at).await.map_err(db_error)?;
    page_answer(&state, viewer, paged, "NFTs fetched").await
}

/// A collection id in a path.
#[derive(utoipa::IntoParams)]
#[into_params(names("collectionId"), parameter_in = Path)]
#[allow(dead_code, reason = "documents the path parameter; the handlers read it as a String")]
struct CollectionId(
    /// The collection's id (a UUID).
    String,
);

// The answers' shapes, for the document (the handlers serialize the read model's views).

/// A collection as cards and its detail show it.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct CollectionCard {
    /// Its id (a UUID).
    #[schema(rename = "_id")]
    id: String,
    /// Title.
    title: String,
    /// Image URL (`/ipfs/<cid>`).
    image: String,
    /// Who made it.
    creator: Person,
    /// Verified by the market's admins (a badge on its card and page).
    verified: bool,
    /// NFTs its page lists: members not burned, still owned by a wallet of its creator and for
    /// sale at a fixed price.
    nft_count: i64,
    /// The same.
    total_items: i64,
    /// Creation time (ISO 8601).
    created_at: String,
    /// Whether the signed-in viewer likes it (false when signed out).
    is_liked: bool,
    /// Likes.
    total_likes: i64,
    /// Images of up to three of the NFTs its page lists, latest added first.
    nft_images: Vec<String>,
    /// Its floor: the lowest fixed price among the NFTs its page lists (MATIC), or null.
    floor_price: Option<String>,
    /// The same in wei.
    floor_price_wei: Option<String>,
    /// Its volume of all time: the sales of its members (MATIC).
    volume: String,
    /// The same in wei.
    volume_wei: String,
}
