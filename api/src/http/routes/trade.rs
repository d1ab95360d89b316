//! Trading writes: the IPFS upload of a new NFT, the record calls that follow each chain
//! transaction (mint, purchase, bid, sale update, stop, burn), and the caller's bids.
//!
//! A record call trusts nothing the client says about the chain. It reads the transaction's
//! receipt over RPC ([`crate::chain::receipts`]), and [`domain::trade::decide`] checks it: it
//! succeeded, was sent to our contract from a wallet linked to the caller, and emitted the
//! expected event for that token. The call then appends what only the server knows (which user
//! did it; for a mint the title, description, category and properties from the stored
//! metadata) in the transaction's own stream, expected new, so a transaction is recorded once.
//! A call finding the stream there already asks [`domain::trade::retry`]: the same user's same
//! record again (its first answer was lost) is answered as the first was, appending nothing;
//! any other is refused.
//! The chain facts themselves come from the indexer, which the call nudges to the receipt's
//! block; it answers once the projector has folded both.

mod offers;

use std::collections::{BTreeSet, HashMap};

use axum::{
    body::Bytes,
    extract::{
        DefaultBodyLimit, FromRequest, Multipart, Path, Query, Request, State, multipart::MultipartRejection, rejection::QueryRejection,
    },
    http::{HeaderMap, header},
    response::Response,
};
use domain::{
    ExpectedVersion, Metadata, NewEvent, StoreError, StreamAppend,
    catalog::{CatalogEvent, Property},
    chain::SaleType,
    trade::{self, Claim, Recorder, TradeEvent},
};
use projections::queries::{Page, nft, nft::NftView};
use serde::{Deserialize, Deserializer, Serialize, de::DeserializeOwned};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::{
    router::{OpenApiRouter, UtoipaMethodRouterExt},
    routes,
};
use uuid::Uuid;

use super::{
    limits::{self, form_text},
    nft::{NftCard, card, flags_of},
    openapi::{BadRequest, PayloadTooLarge, SignedIn},
    params::{Number, Params, query_params},
};
use crate::{
    chain::receipts::{self, ReceiptError},
    files,
    http::{
        AppState,
        auth::{AuthUser, MaybeUser, Payload, load_signed_in},
        error::{ApiError, Envelope, Null, ok, ok_bytes},
    },
};

/// Room for the text fields and multipart framing beside the image.
const FORM_OVERHEAD: usize = 1024 * 1024;
/// Most properties an NFT may have.
const MAX_PROPERTIES: usize = 100;
/// Longest key or value of a property (characters).
const MAX_PROPERTY_TEXT: usize = 200;

/// The trading routes; the upload refuses bodies over an image of `max_file_bytes` before
/// reading them.
pub fn router(max_file_bytes: usize) -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(ipfs_upload).layer(DefaultBodyLimit::max(max_file_bytes.saturating_add(FORM_OVERHEAD))))
        .routes(routes!(record_generation))
        .routes(routes!(record_purchase))
        .routes(routes!(record_bid))
        .routes(routes!(record_update))
        .routes(routes!(record_stop_sale))
        .routes(routes!(record_burn))
        .routes(routes!(my_bids))
        .merge(offers::router())
}

fn internal(err: impl Into<anyhow::Error>) -> ApiError {
    ApiError::Internal(err.into())
}

// ------------------------------------------------------------------------------------ upload

/// The create form's first step, as uploaded.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "documents the multipart fields ipfs_upload reads one by one")]
struct UploadForm {
    /// The NFT's name.
    #[schema(max_length = 500)]
    title: String,
    /// Its description.
    #[schema(max_length = 10000)]
    description: String,
    /// A category id (or its name).
    #[schema(max_length = 64)]
    nft_category: String,
    /// JSON text: a list of `{key, value}` (rows with both blank are dropped); at most 100
    /// properties, each key and value at most 200 characters.
    #[schema(max_length = 50000)]
    properties: Option<String>,
    /// The image: PNG, JPEG, GIF, WebP or a safe SVG, checked by content; at most
    /// `MAX_NFT_FILE_BYTES`.
    #[schema(value_type = String, format = Binary, content_media_type = "application/octet-stream")]
    file: Vec<u8>,
}

/// Where the uploaded image and metadata are.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Uploaded {
    /// The token URI to mint with: `ipfs://<metadataCid>`.
    meta_data: String,
    /// The metadata on this server: `/ipfs/<metadataCid>`.
    metadata_url: String,
    /// The image on this server: `/ipfs/<imageCid>`.
    file: String,
    /// The image's CID.
    image_cid: String,
    /// The metadata JSON's CID.
    metadata_cid: String,
}

/// ERC-721 metadata, as stored beside the image.
#[derive(Serialize, Deserialize)]
struct Erc721Metadata {
    name: String,
    description: String,
    image: String,
    #[serde(default)]
    attributes: Vec<Attribute>,
}

/// An ERC-721 attribute.
#[derive(Serialize, Deserialize)]
struct Attribute {
    trait_type: String,
    value: Value,
}

/// A property row as the create form sends it (with its local id, ignored).
#[derive(Deserialize)]
struct PropertyRow {
    #[serde(default)]
    key: Option<Value>,
    #[serde(default)]
    value: Option<Value>,
}

fn text_of(value: Option<Value>) -> Result<String, ApiError> {
    match value {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.trim().to_owned()),
        Some(Value::Number(n)) => Ok(n.to_string()),
        Some(Value::Bool(b)) => Ok(b.to_string()),
        Some(_) => Err(ApiError::BadRequest("properties: each key and value must be text".into())),
    }
}

fn check_property(key: &str, value: &str) -> Result<(), ApiError> {
    if key.chars().count() > MAX_PROPERTY_TEXT || value.chars().count() > MAX_PROPERTY_TEXT {
        return Err(ApiError::BadRequest(format!("properties: each key and value at most {MAX_PROPERTY_TEXT} characters")));
    }
    Ok(())
}

/// The properties field: JSON text of `[{key, value}]`; blank rows dropped, half-filled ones refused.
fn parse_properties(text: Option<&str>) -> Result<Vec<Property>, ApiError> {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else { return Ok(Vec::new()) };
    let rows: Vec<PropertyRow> =
        serde_json::from_str(text).map_err(|e| ApiError::BadRequest(format!("properties: must be a JSON list of {{key, value}}: {e}")))?;
    let mut properties = Vec::new();
    for row in rows {
        let (key, value) = (text_of(row.key)?, text_of(row.value)?);
        check_property(&key, &value)?;
        match (key.is_empty(), value.is_empty()) {
            (true, true) => {}
            (false, false) => properties.push(Property { key, value }),
            _ => return Err(ApiError::BadRequest("properties: each property needs both a key and a value".into())),
        }
    }
    if properties.len() > MAX_PROPERTIES {
        return Err(ApiError::BadRequest(format!("properties: at most {MAX_PROPERTIES} properties")));
    }
    Ok(properties)
}

/// The category a request names (by id, or by its name as the create form shows it), if it exists.
async fn category(state: &AppState, given: &str) -> Result<Option<String>, ApiError> {
    let categories = nft::categories(&state.read).await.map_err(internal)?;
    Ok(categories.into_iter().find(|c| c.id == given || c.category_name.eq_ignore_ascii_case(given.trim())).map(|c| c.id))
}

/// Reads the file field, refusing it past `max` bytes without buffering more, and refusing
/// anything that is not an image by content.
async fn read_file(mut field: axum::extract::multipart::Field<'_>, max: usize) -> Result<Vec<u8>, ApiError> {
    let mut bytes = Vec::new();
    while let Some(chunk) = field.chunk().await? {
        if bytes.len() + chunk.len() > max {
            return Err(ApiError::PayloadTooLarge(format!("file: the image is larger than {max} bytes")));
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

fn check_image(bytes: &[u8]) -> Result<(), ApiError> {
    match files::image_type(bytes) {
        None => Err(ApiError::BadRequest("file: not an image (PNG, JPEG, GIF, WebP or SVG), whatever its name".into())),
        Some("image/svg+xml") => match files::svg::problem(bytes) {
            Some(problem) => Err(ApiError::BadRequest(format!("file: this SVG cannot be accepted: {problem}"))),
            None => Ok(()),
        },
        Some(_) => Ok(()),
    }
}

/// Stores a new NFT's image and its ERC-721 metadata in the file store; the wallet then mints
/// with `metaData`. Every check runs before anything is stored.
#[utoipa::path(
    post,
    path = "/api/nft/ipfsupload",
    tag = "trade",
    request_body(content = UploadForm, content_type = "multipart/form-data"),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The image and metadata, stored under their CIDs", body = Envelope<Uploaded>),
        (status = 400, response = BadRequest),
        SignedIn,
        (status = 413, response = PayloadTooLarge),
    ),
)]
async fn ipfs_upload(
    State(state): State<AppState>,
    me: AuthUser,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let mut multipart = multipart?;
    let max = state.config.max_nft_file_bytes;
    let (mut title, mut description, mut nft_category, mut properties, mut file) = (None, None, None, None, None);
    while let Some(field) = multipart.next_field().await? {
        let name = field.name().unwrap_or_default().to_owned();
        match name.as_str() {
            "title" => title = Some(form_text::<UploadForm>(field).await?),
            "description" => description = Some(form_text::<UploadForm>(field).await?),
            "nftCategory" => nft_category = Some(form_text::<UploadForm>(field).await?),
            "properties" => properties = Some(form_text::<UploadForm>(field).await?),
            "file" => file = Some(read_file(field, max).await?),
            _ => {}
        }
    }
    // The create form's checks, in its order and with its messages.
    let title = title.as_deref().map(str::trim).unwrap_or_default().to_owned();
    if title.is_empty() {
        return Err(ApiError::BadRequest("title: NFT name can't be empty.".into()));
    }
    let description = description.as_deref().map(str::trim).unwrap_or_default().to_owned();
    if description.is_empty() {
        return Err(ApiError::BadRequest("description: NFT description can't be empty.".into()));
    }
    let nft_category = nft_category.as_deref().map(str::trim).unwrap_or_default().to_owned();
    if nft_category.is_empty() {
        return Err(ApiError::BadRequest("nftCategory: NFT category can't be empty.".into()));
    }
    let file = file.filter(|f| !f.is_empty()).ok_or_else(|| ApiError::BadRequest("file: Please upload image.".into()))?;
    if category(&state, &nft_category).await?.is_none() {
        return Err(ApiError::BadRequest(format!("nftCategory: no category {nft_category}")));
    }
    let properties = parse_properties(properties.as_deref())?;
    check_image(&file)?;

    let image = files::store_upload(&state.files, &state.renditions, file).await.map_err(internal)?;
    let metadata = Erc721Metadata {
        name: title,
        description,
        image: format!("ipfs://{}", image.cid),
        attributes: properties.into_iter().map(|p| Attribute { trait_type: p.key, value: Value::String(p.value) }).collect(),
    };
    let json = serde_json::to_vec_pretty(&metadata).map_err(internal)?;
    let stored = state.files.put(json).await.map_err(internal)?;
    let body = Uploaded {
        meta_data: format!("ipfs://{}", stored.cid),
        metadata_url: stored.url(),
        file: image.url(),
        image_cid: image.cid,
        metadata_cid: stored.cid,
    };
    Ok(ok(body, "Uploaded to IPFS"))
}

// ------------------------------------------------------------------------------ record calls

/// A request body as JSON, as a form (`application/x-www-form-urlencoded`), or as
/// `multipart/form-data` text fields (the spec's default body); 400 in the envelope otherwise.
struct Fields<T>(T);

impl<T: DeserializeOwned + ToSchema + Send + 'static> FromRequest<AppState> for Fields<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let multipart =
            req.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("multipart/form-data"));
        if !multipart {
            let Payload(value) = Payload::<T>::from_request(req, state).await?;
            return Ok(Self(value));
        }
        let mut multipart = Multipart::from_request(req, state).await?;
        let mut fields = serde_json::Map::new();
        while let Some(field) = multipart.next_field().await? {
            let name = field.name().unwrap_or_default().to_owned();
            fields.insert(name, Value::String(field.text().await?));
        }
        let fields = Value::Object(fields);
        limits::check::<T>(&fields)?;
        serde_json::from_value(fields).map(Self).map_err(|e| ApiError::BadRequest(format!("Invalid form body: {e}")))
    }
}

/// A number sent as a JSON number or as text (forms send text).
#[derive(Clone, Debug)]
struct NumberText(String);

impl<'de> Deserialize<'de> for NumberText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = NumberText;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number or a numeric string")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<NumberText, E> {
                Ok(NumberText(v.trim().to_owned()))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<NumberText, E> {
                Ok(NumberText(v.to_string()))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<NumberText, E> {
                Ok(NumberText(v.to_string()))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<NumberText, E> {
                Ok(NumberText(v.to_string()))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// MATIC (decimal text, up to 18 decimals) in wei; `None` if it is not such a number.
fn matic_to_wei(text: &str) -> Option<String> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !digits(whole) || !digits(fraction) || fraction.len() > 18 {
        return None;
    }
    let wei = format!("{whole}{fraction:0<18}");
    let wei = wei.trim_start_matches('0');
    Some(if wei.is_empty() { "0".to_owned() } else { wei.to_owned() })
}

/// An auction end as the update body sends it: ISO 8601 (RFC 3339), the answers' format, or
/// milliseconds since the Unix epoch, the spec's; empty counts as absent.
fn auction_end(text: &str) -> Result<Option<chrono::DateTime<chrono::Utc>>, ApiError> {
    if text.is_empty() {
        return Ok(None);
    }
    let parsed = match text.parse::<i64>() {
        Ok(ms) => chrono::DateTime::from_timestamp_millis(ms),
        Err(_) => chrono::DateTime::parse_from_rfc3339(text).ok().map(|t| t.to_utc()),
    };
    parsed.map(Some).ok_or_else(|| {
        ApiError::BadRequest("auctionEndHours: must be an ISO 8601 time (2026-01-31T18:00:00Z) or milliseconds since 1970".into())
    })
}

/// Reads a numeric field: a non-negative decimal.
fn amount(field: &str, value: &NumberText) -> Result<String, ApiError> {
    matic_to_wei(&value.0).ok_or_else(|| ApiError::BadRequest(format!("{field}: must be a non-negative number with at most 18 decimals")))
}

/// The token id in an NFT id (`{chain}-{token}`, or a bare token id), on this server's chain.
fn token_id(state: &AppState, field: &str, nft_id: &str) -> Result<String, ApiError> {
    let nft_id = nft_id.trim();
    let bad = || ApiError::BadRequest(format!("{field}: not an NFT id of this marketplace ({}-<token id>)", state.chain.chain_id));
    let token = match nft_id.split_once('-') {
        Some((chain, token)) if chain == state.chain.chain_id.to_string() => token,
        Some(_) => return Err(bad()),
        None => nft_id,
    };
    let token = token.parse::<alloy::primitives::U256>().map_err(|_| bad())?;
    if !nft_id.chars().all(|c| c.is_ascii_digit() || c == '-') {
        return Err(bad());
    }
    Ok(token.to_string())
}

/// A transaction hash: 0x and 64 hex digits.
fn tx_hash(text: &str) -> Result<alloy::primitives::B256, ApiError> {
    let text = text.trim();
    let valid = text.len() == 66 && text.starts_with("0x") && text[2..].chars().all(|c| c.is_ascii_hexdigit());
    valid
        .then(|| text.parse().ok())
        .flatten()
        .ok_or_else(|| ApiError::BadRequest("transactionHash: must be a transaction hash (0x and 64 hex digits)".into()))
}

/// What a verified transaction adds to the log.
struct Verified {
    tx: trade::Transaction,
    event: TradeEvent,
    nft_id: String,
    token_id: String,
    metadata: Metadata,
}

/// Reads `hash`'s receipt and checks it against `claim` for the signed-in user.
async fn verify(state: &AppState, me: AuthUser, hash: &str, claim: &Claim) -> Result<Verified, ApiError> {
    let hash = tx_hash(hash)?;
    let user = load_signed_in(state, me).await?;
    let (Some(rpc_url), Some(contract)) = (state.chain.rpc_url.as_deref(), state.chain.contract_address.as_deref()) else {
        return Err(internal(anyhow::anyhow!("a record call needs a chain: RPC_URL and CONTRACT_ADDRESS are not set")));
    };
    let contract_address = contract.parse().map_err(|e| internal(anyhow::anyhow!("CONTRACT_ADDRESS {contract}: {e}")))?;
    let tx = receipts::fetch(rpc_url, contract_address, hash).await.map_err(|e| match e {
        ReceiptError::Unknown(_) | ReceiptError::Pending(_) => ApiError::BadRequest(e.to_string()),
        ReceiptError::Rpc(_) | ReceiptError::Decode(_) => internal(e),
    })?;
    let wallets: Vec<String> = user.wallets.iter().map(|w| w.address.clone()).collect();
    let recorder = Recorder { chain_id: state.chain.chain_id, contract, user_id: me.0, wallets: &wallets };
    let event = trade::decide(&recorder, &tx, claim).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let TradeEvent::ChainActionRecorded { nft_id, .. } = &event;
    let nft_id = nft_id.clone();
    let token_id = nft_id.rsplit('-').next().unwrap_or_default().to_owned();
    let metadata = Metadata { actor: Some(me.0.to_string()), correlation_id: Some(Uuid::now_v7()), ..Metadata::default() };
    Ok(Verified { tx, event, nft_id, token_id, metadata })
}

/// Appends the record (and `more`, in the same atomic append, each stream expected new), lets
/// the indexer record the transaction's block, and waits until the read tables show both. If
/// the transaction is recorded already, appends nothing: a retry of that very record goes on to
/// answer as the first call did, anything else is refused.
async fn commit(state: &AppState, verified: &Verified, more: Vec<StreamAppend>) -> Result<(), ApiError> {
    let record = verified.event.to_new_event(verified.metadata.clone())?;
    let stream_id = verified.event.stream_id();
    let mut writes = vec![StreamAppend { stream_id: stream_id.clone(), expected: ExpectedVersion::NoStream, events: vec![record] }];
    writes.extend(more);
    let mut position = match state.store.append_streams(writes).await {
        Ok(outcome) => outcome.last_position,
        Err(StoreError::WrongExpectedVersion { .. }) => {
            let first = state.store.read_stream(&stream_id, 1, 1).await?.into_iter().next().ok_or_else(|| {
                // Only a mint appends to a second stream (its token's details), and only its
                // own transaction can mint that token: a conflict there alone is a broken log.
                internal(anyhow::anyhow!("{stream_id} conflicted but holds no record"))
            })?;
            let recorded: TradeEvent = first.payload()?;
            trade::retry(&recorded, &verified.event).map_err(|e| ApiError::BadRequest(e.to_string()))?;
            first.position
        }
        Err(err) => return Err(err.into()),
    };
    match &state.indexer {
        Some(indexer) => match indexer.sync_to(verified.tx.block).await {
            Ok(indexed) => position = position.max(indexed),
            // Recorded all the same: the indexer catches up on its own.
            Err(err) => tracing::warn!(%err, block = verified.tx.block, "answering before the indexer reached the transaction's block"),
        },
        None => tracing::warn!("no indexer: the transaction's chain events are not indexed"),
    }
    state.projected(position).await;
    Ok(())
}

/// A record call on an existing token: reads the token from the NFT id `nft_id` (named `field`
/// in errors), checks the transaction `hash` against the claim `claim` makes of that token, and
/// records it.
async fn record_on_token(
    state: &AppState,
    me: AuthUser,
    (field, nft_id): (&str, &str),
    hash: &str,
    claim: impl FnOnce(String) -> Claim,
) -> Result<Verified, ApiError> {
    let token_id = token_id(state, field, nft_id)?;
    let verified = verify(state, me, hash, &claim(token_id)).await?;
    commit(state, &verified, vec![]).await?;
    Ok(verified)
}

/// The NFT card as `/api/nft/detail` answers it to the caller, or `null` once burned.
async fn card_answer(state: &AppState, me: AuthUser, nft_id: &str, message: &str) -> Result<Response, ApiError> {
    let view = nft::detail(&state.read, nft_id).await.map_err(internal)?;
    Ok(match &view {
        Some(view) => ok(card(state, view, flags_of(state, MaybeUser(Some(me.0)), &[nft_id]).await?.of(nft_id)), message),
        None => ok(Null, message),
    })
}

/// The mint record's body (form-urlencoded per the spec, or JSON). Only the transaction, the
/// metadata URI and the category are read: prices, sale and royalties are the chain's.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct GenerationRequest {
    /// The token URI minted with: `ipfs://<metadataCid>` from `/api/nft/ipfsupload`.
    #[schema(max_length = 128)]
    meta_data: String,
    /// The category id (or name).
    #[schema(max_length = 64)]
    nft_category: String,
    /// The mint's receipt as the wallet returned it (JSON, or JSON text); its
    /// `transactionHash` is read.
    #[schema(value_type = Option<MintResponse>)]
    mint_response: Option<Value>,
    /// The mint transaction's hash, when `mintResponse` is not sent.
    #[schema(max_length = 66)]
    transaction_hash: Option<String>,
}

/// The mint's receipt: an object with its `transactionHash` (its other fields are not read),
/// or the same as JSON text (a form sends text).
#[derive(Deserialize, ToSchema)]
#[serde(untagged)]
#[allow(dead_code, reason = "a schema only; mint_hash reads the value")]
enum MintResponse {
    Receipt(MintReceipt),
    Text(#[schema(inline)] ReceiptText),
}

/// The receipt as JSON text (a few KB with its logs; longer is refused).
#[derive(Deserialize)]
#[allow(dead_code, reason = "a schema only")]
struct ReceiptText(String);

impl utoipa::PartialSchema for ReceiptText {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .max_length(Some(100_000))
            .description(Some("The receipt as JSON text."))
            .into()
    }
}

impl ToSchema for ReceiptText {}

/// A transaction receipt as a wallet returns it.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct MintReceipt {
    /// The mint transaction's hash.
    #[schema(example = "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060", max_length = 66)]
    transaction_hash: String,
}

fn mint_hash(request: &GenerationRequest) -> Result<String, ApiError> {
    if let Some(hash) = request.transaction_hash.as_deref().filter(|h| !h.trim().is_empty()) {
        return Ok(hash.to_owned());
    }
    let missing = || ApiError::BadRequest("transactionHash: missing; send it, or mintResponse with its transactionHash".into());
    let receipt = match &request.mint_response {
        Some(Value::String(text)) if !text.trim().is_empty() => {
            serde_json::from_str::<Value>(text).map_err(|e| ApiError::BadRequest(format!("mintResponse: not JSON: {e}")))?
        }
        Some(value @ Value::Object(_)) => value.clone(),
        None | Some(Value::Null) | Some(Value::String(_)) => return Err(missing()),
        Some(_) => return Err(ApiError::BadRequest("mintResponse: must be the mint's receipt (a JSON object)".into())),
    };
    match &receipt["transactionHash"] {
        Value::String(hash) => Ok(hash.clone()),
        Value::Null => Err(missing()),
        _ => Err(ApiError::BadRequest("mintResponse: transactionHash must be text".into())),
    }
}

/// The stored metadata a token URI names: its CID and parsed content.
async fn stored_metadata(state: &AppState, uri: &str) -> Result<(String, Erc721Metadata), ApiError> {
    let cid = uri
        .trim()
        .strip_prefix("ipfs://")
        .filter(|cid| files::cid::is_cid_v1(cid))
        .ok_or_else(|| ApiError::BadRequest("metaData: must be the ipfs://<cid> URI /api/nft/ipfsupload answered".into()))?;
    let bytes = state
        .files
        .get(cid)
        .await
        .map_err(internal)?
        .ok_or_else(|| ApiError::BadRequest("metaData: no such metadata here; upload it with /api/nft/ipfsupload first".into()))?;
    let metadata: Erc721Metadata =
        serde_json::from_slice(&bytes).map_err(|e| ApiError::BadRequest(format!("metaData: not ERC-721 metadata: {e}")))?;
    Ok((cid.to_owned(), metadata))
}

/// Records a mint: the creator, and the title, description, image and properties of the
/// metadata it was minted with; answers the new NFT.
#[utoipa::path(
    post,
    path = "/api/nft/generation",
    tag = "trade",
    request_body(content((GenerationRequest = "application/x-www-form-urlencoded"), (GenerationRequest = "application/json"))),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The new NFT (null if its block is not indexed yet)", body = Envelope<Option<NftCard>>),
        (status = 400, response = BadRequest),
        SignedIn,
    ),
)]
async fn record_generation(
    State(state): State<AppState>,
    me: AuthUser,
    Payload(request): Payload<GenerationRequest>,
) -> Result<Response, ApiError> {
    let hash = mint_hash(&request)?;
    let category = category(&state, &request.nft_category)
        .await?
        .ok_or_else(|| ApiError::BadRequest(format!("nftCategory: no category {}", request.nft_category.trim())))?;
    let (metadata_cid, metadata) = stored_metadata(&state, &request.meta_data).await?;
    // Metadata from the IPFS network need not have been uploaded here: the upload's limits hold.
    let refused = |e: ApiError| ApiError::BadRequest(format!("metaData: {e}"));
    limits::check_field::<UploadForm>("title", &metadata.name).map_err(refused)?;
    limits::check_field::<UploadForm>("description", &metadata.description).map_err(refused)?;
    if metadata.attributes.len() > MAX_PROPERTIES {
        return Err(refused(ApiError::BadRequest(format!("at most {MAX_PROPERTIES} properties"))));
    }
    let image = metadata
        .image
        .strip_prefix("ipfs://")
        .map(|cid| format!("/ipfs/{cid}"))
        .ok_or_else(|| ApiError::BadRequest("metaData: its image is not an ipfs:// URI".into()))?;
    let properties = metadata
        .attributes
        .into_iter()
        .map(|a| Property {
            key: a.trait_type,
            value: match a.value {
                Value::String(text) => text,
                other => other.to_string(),
            },
        })
        .collect::<Vec<_>>();
    for property in &properties {
        check_property(&property.key, &property.value).map_err(refused)?;
    }

    let verified = verify(&state, me, &hash, &Claim::Mint { token_uri: request.meta_data.trim().to_owned() }).await?;
    let details = CatalogEvent::NftDetailsRecorded {
        chain_id: state.chain.chain_id,
        token_id: verified.token_id.clone(),
        title: metadata.name,
        description: metadata.description,
        category_id: category,
        file: image,
        metadata_url: format!("/ipfs/{metadata_cid}"),
        properties,
        creator_user_id: Some(me.0),
    };
    let event: NewEvent = details.to_new_event(verified.metadata.clone())?;
    commit(
        &state,
        &verified,
        vec![StreamAppend { stream_id: details.stream_id(), expected: ExpectedVersion::NoStream, events: vec![event] }],
    )
    .await?;
    card_answer(&state, me, &verified.nft_id, "NFT created").await
}

/// The sale a purchase closes.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types, clippy::upper_case_acronyms, reason = "a schema only, its values named as they are sent")]
enum PurchaseForm {
    FIXEDPRICE,
    AUCTION,
}

/// The sale a bid is for.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types, clippy::upper_case_acronyms, reason = "a schema only, its values named as they are sent")]
enum BidForm {
    AUCTION,
}

/// A purchase record's body.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct PurchaseRequest {
    /// `FIXEDPRICE`, or `AUCTION` for a buy-now.
    #[schema(value_type = Option<PurchaseForm>)]
    form_of_sale: Option<String>,
    /// The NFT (`{chainId}-{tokenId}`).
    #[schema(max_length = 100)]
    nftid: String,
    /// Always 1 (each NFT is unique).
    #[schema(value_type = Option<String>, max_length = 40)]
    sale_quantity: Option<NumberText>,
    /// The purchase transaction.
    #[schema(max_length = 66)]
    transaction_hash: String,
}

fn check_form_of_sale(value: Option<&str>, allowed: &[&str]) -> Result<(), ApiError> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        Some(v) if !allowed.contains(&v) => Err(ApiError::BadRequest(format!("formOfSale: must be one of {}", allowed.join(", ")))),
        _ => Ok(()),
    }
}

/// Records a purchase (fixed price or buy-now) sent by one of the caller's wallets; answers
/// the NFT, now theirs.
#[utoipa::path(
    post,
    path = "/api/nft/fixedsale/purchase",
    tag = "trade",
    request_body(content(
        (PurchaseRequest = "application/json"),
        (PurchaseRequest = "application/x-www-form-urlencoded"),
        (PurchaseRequest = "multipart/form-data"),
    )),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The NFT, as it is now", body = Envelope<Option<NftCard>>),
        (status = 400, response = BadRequest),
        SignedIn,
    ),
)]
async fn record_purchase(
    State(state): State<AppState>,
    me: AuthUser,
    Fields(request): Fields<PurchaseRequest>,
) -> Result<Response, ApiError> {
    check_form_of_sale(request.form_of_sale.as_deref(), &["FIXEDPRICE", "AUCTION"])?;
    if let Some(quantity) = &request.sale_quantity
        && quantity.0 != "1"
    {
        return Err(ApiError::BadRequest("saleQuantity: must be 1 (each NFT is unique)".into()));
    }
    let verified =
        record_on_token(&state, me, ("nftid", &request.nftid), &request.transaction_hash, |token_id| Claim::Purchase { token_id }).await?;
    card_answer(&state, me, &verified.nft_id, "Congratulations!!! You are now the owner of this NFT.").await
}

/// A bid record's body.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct BidRequest {
    /// `AUCTION`.
    #[schema(value_type = Option<BidForm>)]
    form_of_sale: Option<String>,
    /// The NFT (`{chainId}-{tokenId}`).
    #[schema(max_length = 100)]
    nftid: String,
    /// The bid in MATIC; when sent it must be the amount bid on chain.
    #[schema(value_type = Option<String>, max_length = 40)]
    bid_amount: Option<NumberText>,
    /// The bid transaction.
    #[schema(max_length = 66)]
    transaction_hash: String,
}

/// Records a bid sent by one of the caller's wallets; answers the NFT with its new top bid.
#[utoipa::path(
    post,
    path = "/api/nft/auction/placebid",
    tag = "trade",
    request_body(content(
        (BidRequest = "application/json"),
        (BidRequest = "application/x-www-form-urlencoded"),
        (BidRequest = "multipart/form-data"),
    )),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The NFT, as it is now", body = Envelope<Option<NftCard>>),
        (status = 400, response = BadRequest),
        SignedIn,
    ),
)]
async fn record_bid(State(state): State<AppState>, me: AuthUser, Fields(request): Fields<BidRequest>) -> Result<Response, ApiError> {
    check_form_of_sale(request.form_of_sale.as_deref(), &["AUCTION"])?;
    let amount = request.bid_amount.as_ref().map(|a| amount("bidAmount", a)).transpose()?;
    let verified =
        record_on_token(&state, me, ("nftid", &request.nftid), &request.transaction_hash, |token_id| Claim::Bid { token_id, amount })
            .await?;
    card_answer(&state, me, &verified.nft_id, "Successfully bidded for the token").await
}

/// An update record's body: the sale the owner set on chain.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct UpdateRequest {
    /// `FIXEDPRICE`, `AUCTION` or `NOT_FOR_SALE`: must be what the transaction set.
    #[schema(value_type = super::nft::FormOfSale)]
    form_of_sale: String,
    /// Fixed (or buy-now) price in MATIC: when sent for a fixed sale or an auction, it must be
    /// the price the transaction set (the chain's value is the one recorded).
    #[schema(value_type = Option<String>, max_length = 40)]
    fixed_price: Option<NumberText>,
    /// Auction base price in MATIC: when sent for an auction listed by the transaction, it must
    /// be the base price it set.
    #[schema(value_type = Option<String>, max_length = 40)]
    auction_start_price: Option<NumberText>,
    /// Auction end: ISO 8601 (as answers show it, e.g. `2026-01-31T18:00:00Z`) or, as the spec
    /// sends it, milliseconds since the Unix epoch. Checked for form only: the end recorded is
    /// the one the transaction set.
    #[schema(value_type = Option<String>, example = "2026-01-31T18:00:00Z", max_length = 40)]
    auction_end_hours: Option<NumberText>,
    /// The sale coin code (1).
    #[schema(value_type = Option<String>, max_length = 20)]
    sale_coin: Option<NumberText>,
    /// The `toggleForSale` (or `changeTokenPrice`) transaction.
    #[schema(max_length = 66)]
    transaction_hash: String,
}

/// Records a sale change (listed at a fixed price, put on auction, repriced) the caller made
/// as the owner; answers the NFT.
#[utoipa::path(
    put,
    path = "/api/nft/update/{nftId}",
    tag = "trade",
    params(("nftId" = String, Path, description = "The NFT (`{chainId}-{tokenId}`)")),
    request_body(content((UpdateRequest = "application/json"), (UpdateRequest = "application/x-www-form-urlencoded"))),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The NFT, as it is now", body = Envelope<Option<NftCard>>),
        (status = 400, response = BadRequest),
        SignedIn,
    ),
)]
async fn record_update(
    State(state): State<AppState>,
    me: AuthUser,
    Path(id): Path<String>,
    Payload(request): Payload<UpdateRequest>,
) -> Result<Response, ApiError> {
    let sale_type = match request.form_of_sale.trim() {
        "FIXEDPRICE" => SaleType::FixedPrice,
        "AUCTION" => SaleType::Auction,
        "NOT_FOR_SALE" => SaleType::NotForSale,
        _ => return Err(ApiError::BadRequest("formOfSale: must be one of FIXEDPRICE, AUCTION, NOT_FOR_SALE".into())),
    };
    let price = request.fixed_price.as_ref().map(|v| amount("fixedPrice", v)).transpose()?;
    let base_price = request.auction_start_price.as_ref().map(|v| amount("auctionStartPrice", v)).transpose()?;
    if request.sale_coin.as_ref().is_some_and(|v| v.0.parse::<u64>().is_err()) {
        return Err(ApiError::BadRequest("saleCoin: must be a whole number".into()));
    }
    if let Some(end) = &request.auction_end_hours {
        auction_end(&end.0)?;
    }
    let claim = |token_id| Claim::UpdateSale { token_id, sale_type, price, base_price };
    let verified = record_on_token(&state, me, ("nftId", &id), &request.transaction_hash, claim).await?;
    card_answer(&state, me, &verified.nft_id, "NFT updated!").await
}

/// The transaction of a stop or a burn.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct TransactionRequest {
    /// The transaction's hash.
    #[schema(max_length = 66)]
    transaction_hash: String,
}

/// Records a stopped sale (the owner's `toggleForSale` to not for sale); answers the NFT.
#[utoipa::path(
    put,
    path = "/api/nft/stopsale/{nftId}",
    tag = "trade",
    params(("nftId" = String, Path, description = "The NFT (`{chainId}-{tokenId}`)")),
    request_body(content((TransactionRequest = "application/json"), (TransactionRequest = "application/x-www-form-urlencoded"))),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The NFT, now not for sale", body = Envelope<Option<NftCard>>),
        (status = 400, response = BadRequest),
        SignedIn,
    ),
)]
async fn record_stop_sale(
    State(state): State<AppState>,
    me: AuthUser,
    Path(id): Path<String>,
    Payload(request): Payload<TransactionRequest>,
) -> Result<Response, ApiError> {
    let verified = record_on_token(&state, me, ("nftId", &id), &request.transaction_hash, |token_id| Claim::StopSale { token_id }).await?;
    card_answer(&state, me, &verified.nft_id, "Sale Stopped!").await
}

/// The burn's transaction in the query string, when no body is sent.
#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
struct BurnQuery {
    /// The burn transaction (else in a JSON body).
    #[param(max_length = 66)]
    transaction_hash: Option<String>,
}

/// Records a burn by its owner; answers `null` (the NFT is gone).
#[utoipa::path(
    delete,
    path = "/api/nft/burnnft/{nftId}",
    tag = "trade",
    params(("nftId" = String, Path, description = "The NFT (`{chainId}-{tokenId}`)"), BurnQuery),
    request_body(content((TransactionRequest = "application/json"), (TransactionRequest = "application/x-www-form-urlencoded"))),
    security(("bearer" = [])),
    responses((status = 200, description = "Burned", body = Envelope<Null>), (status = 400, response = BadRequest), SignedIn),
)]
async fn record_burn(
    State(state): State<AppState>,
    me: AuthUser,
    Path(id): Path<String>,
    query: Result<Query<BurnQuery>, QueryRejection>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let Query(query) = query?;
    let hash = if body.iter().all(u8::is_ascii_whitespace) {
        query.transaction_hash.ok_or_else(|| ApiError::BadRequest("transactionHash: missing (in the body or the query)".into()))?
    } else {
        let mut request = Request::new(axum::body::Body::from(body));
        if let Some(content_type) = headers.get(header::CONTENT_TYPE) {
            request.headers_mut().insert(header::CONTENT_TYPE, content_type.clone());
        }
        let Payload(request) = Payload::<TransactionRequest>::from_request(request, &state).await?;
        request.transaction_hash
    };
    record_on_token(&state, me, ("nftId", &id), &hash, |token_id| Claim::Burn { token_id }).await?;
    Ok(ok(Null, "NFT Burned!"))
}

// ---------------------------------------------------------------------------------- my bids

const PAGE: Number = Number { name: "page", default: 1, min: 1, max: 1_000_000, description: "Page number, from 1" };
const LIMIT: Number = Number { name: "limit", default: 10, min: 1, max: 100, description: "Items per page" };

query_params!(
    /// My bids' query.
    MyBidsQuery: PAGE, LIMIT
);

/// One of my bids.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MyBidRow<'a> {
    id: i64,
    nft_id: &'a str,
    nft_data: Option<super::nft::Card<'a>>,
    bid_amount: &'a str,
    bid_amount_wei: &'a str,
    status: &'a str,
    transaction_hash: &'a str,
    created_at: &'a str,
    auction_id: &'a str,
    auction_highest_bid: &'a str,
    auction_highest_bid_wei: &'a str,
}

/// The caller's bids from every wallet linked to their account, newest first, each with the
/// NFT it was for and its status.
#[utoipa::path(
    get,
    path = "/api/nft/mybids",
    tag = "trade",
    params(MyBidsQuery),
    security(("bearer" = [])),
    responses((status = 200, description = "A page of bids", body = Envelope<MyBidsPage>), (status = 400, response = BadRequest), SignedIn),
)]
async fn my_bids(State(state): State<AppState>, me: AuthUser, params: Params) -> Result<Response, ApiError> {
    load_signed_in(&state, me).await?;
    let page = Page { page: params.number(&PAGE)?, limit: params.number(&LIMIT)? };
    super::own_answer(&state, me.0, &format!("my bids {page:?}"), async || my_bids_page(&state, me, page).await).await
}

/// A page of the caller's bids with their NFTs' cards, serialized, and when a card changes by
/// the clock.
async fn my_bids_page(state: &AppState, me: AuthUser, page: Page) -> Result<(axum::body::Bytes, Option<i64>), ApiError> {
    let bids = projections::queries::bids::my_bids(&state.read, &me.0.to_string(), page).await.map_err(internal)?;
    // The page's NFTs in one query (one per bid was twenty round trips a page).
    let wanted: Vec<&str> = bids.data.iter().map(|bid| bid.nft_id.as_str()).collect::<BTreeSet<_>>().into_iter().collect();
    let views: HashMap<String, NftView> =
        nft::cards(&state.read, &wanted).await.map_err(internal)?.into_iter().map(|view| (view.id.clone(), view)).collect();
    let ids: Vec<&str> = views.keys().map(String::as_str).collect();
    let flags = flags_of(state, MaybeUser(Some(me.0)), &ids).await?;
    let body = bids.map_rows(|bid| MyBidRow {
        id: bid.id,
        nft_id: &bid.nft_id,
        nft_data: views.get(&bid.nft_id).map(|view| card(state, view, flags.of(&bid.nft_id))),
        bid_amount: &bid.bid_amount,
        bid_amount_wei: &bid.bid_amount_wei,
        status: &bid.status,
        transaction_hash: &bid.transaction_hash,
        created_at: &bid.created_at,
        auction_id: &bid.auction_id,
        auction_highest_bid: &bid.auction_highest_bid,
        auction_highest_bid_wei: &bid.auction_highest_bid_wei,
    });
    // A card's running auction ends by the clock: the answer holds until the first does.
    let until = views.values().filter_map(NftView::changes_at).min();
    Ok((ok_bytes(body, "Bids fetched")?, until))
}

/// A page of my bids.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct MyBidsPage {
    /// This page's bids.
    data: Vec<MyBidItem>,
    /// Bids on this page.
    count: u64,
    /// Bids on all pages.
    total_items: u64,
    /// This page's number.
    current_page: u32,
    /// Whether no page follows.
    last_page: bool,
    /// Same as `count`.
    current_item_count: u64,
}

/// One of my bids.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
struct MyBidItem {
    /// Its log position.
    id: i64,
    /// The NFT (`{chainId}-{tokenId}`).
    nft_id: String,
    /// The NFT as cards show it (null once burned).
    nft_data: Option<NftCard>,
    /// Amount in MATIC.
    bid_amount: String,
    /// The same in wei.
    bid_amount_wei: String,
    /// Standing, won or refunded.
    status: super::nft::BidStatus,
    /// The bid's transaction.
    transaction_hash: String,
    /// When (ISO 8601).
    created_at: String,
    /// The contract's id of the auction the bid was for (the NFT's `currentAuction` while it
    /// runs).
    auction_id: String,
    /// That auction's top bid now, in MATIC ("0" when none stands): what a raise must beat, or
    /// what won.
    auction_highest_bid: String,
    /// The same in wei.
    auction_highest_bid_wei: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matic_amounts_become_exact_wei_and_anything_else_is_refused() {
        assert_eq!(matic_to_wei("1.5").as_deref(), Some("1500000000000000000"));
        assert_eq!(matic_to_wei("0.000000000000000001").as_deref(), Some("1"));
        assert_eq!(matic_to_wei("2").as_deref(), Some("2000000000000000000"));
        assert_eq!(matic_to_wei("0").as_deref(), Some("0"));
        for bad in ["", ".", "-1", "1e5", "abc", "0.0000000000000000001", "1.2.3"] {
            assert_eq!(matic_to_wei(bad), None, "{bad}");
        }
    }

    #[test]
    fn an_auction_end_is_iso_8601_or_milliseconds() {
        let end = chrono::DateTime::parse_from_rfc3339("2026-01-31T18:00:00Z").unwrap().to_utc();
        assert_eq!(auction_end("2026-01-31T18:00:00Z").unwrap(), Some(end));
        assert_eq!(auction_end("2026-01-31T19:00:00+01:00").unwrap(), Some(end));
        assert_eq!(auction_end(&end.timestamp_millis().to_string()).unwrap(), Some(end));
        assert_eq!(auction_end("").unwrap(), None);
        for bad in ["tomorrow", "2026-01-31", "1.5", "2026-13-01T00:00:00Z"] {
            assert!(auction_end(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn properties_are_a_json_list_of_keys_and_values() {
        let parsed = parse_properties(Some(r#"[{"key":"Color","value":"Pink","id":1},{"key":"","value":""},{"key":"Size","value":3}]"#));
        assert_eq!(
            parsed.unwrap(),
            vec![Property { key: "Color".into(), value: "Pink".into() }, Property { key: "Size".into(), value: "3".into() }]
        );
        assert_eq!(parse_properties(None).unwrap(), vec![]);
        assert!(parse_properties(Some(r#"[{"key":"Color","value":""}]"#)).is_err());
        assert!(parse_properties(Some(r#"{"key":"Color"}"#)).is_err());
        assert!(parse_properties(Some("not json")).is_err());
    }
}
