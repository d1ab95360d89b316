//! `GET /api/openapi.json`: the OpenAPI 3.1 document of every route the app serves.
//!
//! Each handler carries its `#[utoipa::path]` and each resource registers its handlers with
//! utoipa-axum's `routes!`, which adds the handler to the router and its operation to the
//! document in one step: a route registered that way cannot be served undocumented. A plain
//! `.route(...)` would be, so `tests/openapi` reads the sources for those and fails.

use std::collections::BTreeMap;

use axum::{Extension, body::Bytes, http::header, response::IntoResponse, response::Response};
use utoipa::{
    IntoResponses, Modify, OpenApi, ToResponse,
    openapi::{
        self, ContentBuilder, RefOr, ResponseBuilder,
        path::Paths,
        security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme},
    },
};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::http::{
    AppState,
    error::{Envelope, Null},
};

/// The name of the bearer security scheme that `security(...)` in annotations refers to.
pub const BEARER: &str = "bearer";
/// The name of the API key scheme (`X-API-Key`).
pub const API_KEY: &str = "apiKey";
/// The extension naming, on each operation that acts as a person, the scope an API key needs
/// there (or `none`: no key may).
const KEY_SCOPE: &str = "x-api-key-scope";

/// The document's fixed parts: info, tags, the security scheme and the shared error answers.
/// The paths come from the routers.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "NFT marketplace API",
        description = "Every answer but `/metrics`, `/ipfs/{cid}`, `/rpc`, `/api/openapi.json` and \
            `/api/contract/abi` is the envelope `{statuscode, body, message}` with the HTTP status equal \
            to `statuscode`; errors carry `body: null` and a message (a 400 names the field). A 401 or \
            410 means the bearer token is missing, invalid or expired: the UI logs out. A command may \
            answer 409 when concurrent changes to the same thing kept it from going through for a few \
            seconds (nothing was changed; try again). Any route may also answer 500 with a generic \
            message. Other `/api` paths answer 404; other GET paths serve the built UI. A write's answer \
            names the log position of its events in a `Log-Position` header: send it back as a request \
            header and reads are answered from read tables that include it (read replicas too). Amounts are \
            decimal text: MATIC with its wei beside it (`fixedPrice` and `fixedPriceWei`, ...); times \
            are ISO 8601. The flows (which contract call, then which record call) are in \
            `docs/integrating.md`; the contract's ABI is at `/api/contract/abi`.",
    ),
    servers((url = "/", description = "This server: the paths are relative to where this document was fetched")),
    tags(
        (name = "auth", description = "Sign-up, sign-in, passwords and e-mail"),
        (name = "account", description = "Profiles and wallet links"),
        (name = "nft", description = "NFT reads"),
        (name = "trade", description = "Creating and trading NFTs: uploads, the record calls after each transaction, my bids"),
        (name = "collection", description = "Collections of NFTs, their likes and their NFTs"),
        (name = "misc", description = "Reference data, contact and client error reports"),
        (name = "moderation", description = "Reports, the moderators' queue and decisions, appeals, staff roles, verified badges, and the public record"),
        (name = "chain", description = "Chain settings and the JSON-RPC proxy"),
        (name = "webhooks", description = "Signed webhooks: endpoints that get the stream's changes and your notices, their delivery log, redelivery and tests"),
        (name = "ops", description = "Health, metrics, files and this document"),
        (name = "dev", description = "Only served by a dev server: the dev mailbox (no SMTP configured) and the dev wallet's accounts (local chain)"),
    ),
    components(responses(BadRequest, Unauthorized, TokenExpired, Forbidden, NotFound, Conflict, PayloadTooLarge, TooManyRequests, Unavailable)),
    modifiers(&BearerScheme),
)]
struct ApiDoc;

struct BearerScheme;

impl Modify for BearerScheme {
    fn modify(&self, doc: &mut openapi::OpenApi) {
        let scheme = HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .bearer_format("JWT")
            .description(Some(
                "The access token from login, verification or Google sign-in; or an API key (`mk_live_...`), \
                 which acts as its person within its scopes (see `apiKey`).",
            ))
            .build();
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(BEARER, SecurityScheme::Http(scheme));
        let key = ApiKeyValue::with_description(
            "X-API-Key",
            "An API key made in the settings (`POST /api/account/keys`), also accepted as `Authorization: Bearer <key>`. \
             It acts as its person wherever a bearer token is documented, if it has the scope named by the operation's \
             `x-api-key-scope` (`read`, `trades`, `notifications`, `webhooks`; `none`: never with a key, as for the \
             account's own routes: 403 naming the scope). Public routes answer any key. An unknown or revoked key is 401. \
             Every answer to a key carries `RateLimit-Policy` and `RateLimit`; past the key's budget, 429 with `Retry-After`.",
        );
        components.add_security_scheme(API_KEY, SecurityScheme::ApiKey(ApiKey::Header(key)));
    }
}

/// An empty router carrying the document's fixed parts, for the resource routers to merge into.
pub fn base() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
}

/// Adds `/api/openapi.json` to `router`, then serves the document of everything in it.
pub fn serve(router: OpenApiRouter<AppState>) -> axum::Router<AppState> {
    let (router, doc) = router.routes(routes!(openapi_json)).split_for_parts();
    let mut doc = serde_json::to_value(&doc).expect("the OpenAPI document serialises");
    fold_aliases(&mut doc);
    key_scopes(&mut doc);
    link_components(&mut doc);
    rename_generics(&mut doc);
    let json = serde_json::to_vec(&doc).expect("the OpenAPI document serialises");
    router.layer(Extension(Document(Bytes::from(json))))
}

/// Makes every copy of a component schema a `$ref` to it, then drops the components nothing
/// refers to. utoipa writes a generic answer (`Envelope<Paged<NftCard>>`) with its arguments
/// inlined, so without this a generated client would get a type per copy (one `NftCard` per
/// list) and the named components would go unused.
fn link_components(doc: &mut serde_json::Value) {
    use serde_json::{Value, json};
    let Some(schemas) = doc.pointer("/components/schemas").and_then(Value::as_object).cloned() else { return };
    // Larger first: a copy of a card is replaced whole, not part by part.
    let mut named: Vec<(String, Value)> =
        schemas.into_iter().filter(|(_, schema)| schema.get("properties").is_some() || schema.get("oneOf").is_some()).collect();
    named.sort_by_key(|(_, schema)| std::cmp::Reverse(schema.to_string().len()));
    for (name, schema) in &named {
        let reference = json!({ "$ref": format!("#/components/schemas/{name}") });
        replace_copies(&mut doc["paths"], schema, &reference);
        replace_copies(&mut doc["components"]["responses"], schema, &reference);
        for (other, definition) in doc["components"]["schemas"].as_object_mut().into_iter().flatten() {
            if other != name {
                replace_copies(definition, schema, &reference);
            }
        }
    }
    // Dropping one unused component may leave another unused.
    loop {
        let text = doc.to_string();
        let schemas = doc["components"]["schemas"].as_object_mut().expect("components.schemas");
        let unused: Vec<String> =
            schemas.keys().filter(|name| !text.contains(&format!("\"#/components/schemas/{name}\""))).cloned().collect();
        if unused.is_empty() {
            break;
        }
        unused.iter().for_each(|name| {
            schemas.remove(name);
        });
    }
}

/// Gives the schemas utoipa names after a generic type and its arguments
/// (`Envelope_Paged_NftCard`) a name a generated client can use as a type: `NftCardPageAnswer`.
fn rename_generics(doc: &mut serde_json::Value) {
    use serde_json::{Map, Value};
    let Some(schemas) = doc.pointer_mut("/components/schemas").and_then(Value::as_object_mut) else { return };
    let renames: Vec<(String, String)> = schemas
        .keys()
        .filter(|name| name.contains('_'))
        .map(|name| (name.clone(), readable(&name.split('_').collect::<Vec<_>>())))
        .collect();
    let mut renamed = Map::new();
    for (name, schema) in std::mem::take(schemas) {
        let name = renames.iter().find(|(from, _)| *from == name).map_or(name, |(_, to)| to.clone());
        assert!(!renamed.contains_key(&name), "two schemas named {name}");
        renamed.insert(name, schema);
    }
    *schemas = renamed;
    let references: std::collections::HashMap<String, String> =
        renames.into_iter().map(|(from, to)| (format!("#/components/schemas/{from}"), format!("#/components/schemas/{to}"))).collect();
    rewrite_references(doc, &references);
}

/// The readable name of a generic schema's parts (`["Envelope", "Vec", "Coin"]`: `CoinListAnswer`).
fn readable(parts: &[&str]) -> String {
    match parts {
        ["Envelope", inner @ ..] if !inner.is_empty() => format!("{}Answer", readable(inner)),
        ["Vec", inner @ ..] if !inner.is_empty() => format!("{}List", readable(inner)),
        ["Paged", inner @ ..] if !inner.is_empty() => format!("{}Page", readable(inner)),
        ["Option", inner @ ..] if !inner.is_empty() => format!("{}OrNull", readable(inner)),
        ["Null"] => "Empty".to_owned(),
        parts => parts.concat(),
    }
}

fn rewrite_references(value: &mut serde_json::Value, references: &std::collections::HashMap<String, String>) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match v {
                    Value::String(reference) if key == "$ref" => {
                        if let Some(to) = references.get(reference.as_str()) {
                            *reference = to.clone();
                        }
                    }
                    v => rewrite_references(v, references),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rewrite_references(v, references)),
        _ => {}
    }
}

/// Replaces every sub-value of `value` equal to `schema` by `reference`.
fn replace_copies(value: &mut serde_json::Value, schema: &serde_json::Value, reference: &serde_json::Value) {
    use serde_json::Value;
    if value == schema {
        *value = reference.clone();
        return;
    }
    match value {
        Value::Object(map) => map.values_mut().for_each(|v| replace_copies(v, schema, reference)),
        Value::Array(items) => items.iter_mut().for_each(|v| replace_copies(v, schema, reference)),
        _ => {}
    }
}

/// The serialised document, built once at start.
#[derive(Clone)]
struct Document(Bytes);

/// This document.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "ops",
    security(()),
    responses((status = 200, description = "The OpenAPI 3.1 document of this server", content_type = "application/json", body = Object)),
)]
async fn openapi_json(Extension(Document(json)): Extension<Document>) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], json).into_response()
}

/// Names on every operation behind a bearer token the scope an API key needs there, from the
/// one map the server enforces ([`crate::http::auth::api_keys::required`]).
fn key_scopes(doc: &mut serde_json::Value) {
    use crate::http::auth::api_keys::{Access, required};
    let Some(paths) = doc["paths"].as_object_mut() else { return };
    for (path, item) in paths.iter_mut() {
        for (method, operation) in item.as_object_mut().into_iter().flatten() {
            let bearer = operation["security"].as_array().is_some_and(|list| list.iter().any(|r| r.get(BEARER).is_some()));
            let Ok(method) = method.to_uppercase().parse::<axum::http::Method>() else { continue };
            if !bearer {
                continue;
            }
            let scope = match required(&method, path) {
                Access::Scope(scope) => scope.as_str(),
                Access::Account => "none",
            };
            operation[KEY_SCOPE] = serde_json::Value::String(scope.to_owned());
        }
    }
}

/// Marks an operation served at an alias: the path it is an alias of.
const ALIAS_OF: &str = "x-alias-of";

/// The same operations also served at `alias` (the spec writes some paths with a trailing slash;
/// they answer without it too). The router serves both paths; the document shows the
/// operation once, at its own path, and its description names the alias ([`fold_aliases`]).
pub fn also_at<S>(
    (schemas, paths, router): utoipa_axum::router::UtoipaMethodRouter<S>,
    alias: &str,
) -> utoipa_axum::router::UtoipaMethodRouter<S> {
    let mut aliased = Paths::new();
    for (path, item) in paths.paths {
        let mut copy = item.clone();
        for operation in [&mut copy.get, &mut copy.put, &mut copy.post, &mut copy.delete, &mut copy.patch].into_iter().flatten() {
            let extensions = operation.extensions.get_or_insert_with(Default::default);
            extensions.insert(ALIAS_OF.to_owned(), serde_json::Value::String(path.clone()));
        }
        aliased.paths.insert(path, item);
        aliased.paths.insert(alias.to_owned(), copy);
    }
    (schemas, aliased, router)
}

/// Takes the paths [`also_at`] served out of the document, and names each alias in the
/// description of the operation it is an alias of: one path per operation.
fn fold_aliases(doc: &mut serde_json::Value) {
    use serde_json::Value;
    let Some(paths) = doc["paths"].as_object_mut() else { return };
    let aliases: Vec<(String, String)> = paths
        .iter()
        .filter_map(|(alias, item)| {
            let of = item.as_object()?.values().find_map(|operation| operation[ALIAS_OF].as_str())?;
            Some((alias.clone(), of.to_owned()))
        })
        .collect();
    for (alias, of) in aliases {
        paths.remove(&alias);
        for operation in paths.get_mut(&of).and_then(Value::as_object_mut).into_iter().flat_map(|item| item.values_mut()) {
            let description = operation["description"].as_str().map(|d| format!("{d}\n\n")).unwrap_or_default();
            operation["description"] = Value::String(format!("{description}Also served at `{alias}`."));
        }
    }
}

fn error_response(status: u16, description: &str, message: &str) -> RefOr<openapi::Response> {
    let content = ContentBuilder::new()
        .schema(Some(<Envelope<Null> as utoipa::PartialSchema>::schema()))
        .example(Some(serde_json::json!({ "statuscode": status, "body": null, "message": message })))
        .build();
    ResponseBuilder::new().description(description).content("application/json", content).build().into()
}

/// Declares the shared error answers, each a `ToResponse` that annotations reference by name.
macro_rules! error_responses {
    ($($name:ident: $status:literal, $description:literal, $example:literal;)+) => {$(
        #[doc = concat!("The ", stringify!($status), " answer: ", $description, ".")]
        pub struct $name;

        impl<'r> ToResponse<'r> for $name {
            fn response() -> (&'r str, RefOr<openapi::Response>) {
                (stringify!($name), error_response($status, $description, $example))
            }
        }
    )+};
}

error_responses! {
    BadRequest: 400, "Invalid input; the message names the field", "email: Enter a valid email";
    Unauthorized: 401, "No valid bearer token (missing, malformed, forged or ended); the UI logs out", "Unauthorized";
    TokenExpired: 410, "The bearer token has expired; the UI logs out", "Token expired";
    Forbidden: 403, "Not allowed for this account (unverified, signed in with Google, or not the creator of the collection)", "You can't change your email";
    NotFound: 404, "No such resource", "User not found";
    Conflict: 409, "Taken by another account (e-mail, username or wallet), or concurrent changes to the same thing kept the command from going through (nothing was changed; try again)", "Username is not Available";
    PayloadTooLarge: 413, "The body or an uploaded file is over its limit", "Request body is too large";
    TooManyRequests: 429, "Rate limited, per client address and per account", "Too many requests, please try again in a minute";
    Unavailable: 451, "Hidden by the market's moderators (the public record, `/api/transparency`, lists the decision)", "This NFT was hidden by the moderators: A copy of another artist's work";
}

/// A user shown beside what they did or made (an activity row, a collection's creator).
#[derive(utoipa::ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only")]
pub struct Person {
    /// User id.
    user_id: String,
    /// Username.
    username: String,
    /// Full name.
    full_name: String,
    /// Avatar URL (`/ipfs/<cid>`) or "".
    avatar: String,
    /// Verified by the market's admins (a badge beside the name).
    verified: bool,
}

/// The answers of every route behind a bearer token: 401 and 410.
pub struct SignedIn;

impl IntoResponses for SignedIn {
    fn responses() -> BTreeMap<String, RefOr<openapi::Response>> {
        [("401", "Unauthorized"), ("410", "TokenExpired")]
            .into_iter()
            .map(|(status, name)| (status.to_owned(), RefOr::Ref(openapi::Ref::from_response_name(name))))
            .collect()
    }
}
