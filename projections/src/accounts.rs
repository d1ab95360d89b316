//! The `users`, `user_wallets`, `api_keys` and `webhook_endpoints` tables, folded from the `user-<uuid>` streams, and
//! the profile and API key queries the API serves.
//!
//! A user's e-mail and mobile number are stored here for the user's own profile; the public
//! query ([`public_profile`]) never selects them.

use async_trait::async_trait;
use domain::{RecordedEvent, accounts::UserEvent};
use sqlx::Row;

use crate::{
    ProjectionError, ReadDb, ReadModel,
    sql::{self, Conn, Value},
};

/// The accounts tables.
pub struct Accounts;

#[async_trait]
impl ReadModel for Accounts {
    fn handles(&self, event_type: &str) -> bool {
        matches!(
            event_type,
            "UserRegistered"
                | "GoogleAccountRegistered"
                | "AccountVerified"
                | "EmailChanged"
                | "ProfileUpdated"
                | "WalletLinked"
                | "WalletUnlinked"
                | "ApiKeyCreated"
                | "ApiKeyRevoked"
                | "WebhookEndpointRegistered"
                | "WebhookEndpointUpdated"
                | "WebhookEndpointDeleted"
                | "AccountErased"
        )
    }

    /// Accounts change rarely (a user acting), and `users` has unique e-mails and usernames that
    /// a multi-row upsert could trip over in passing (two users swapping names in one batch), so
    /// this model keeps a statement or two per event.
    async fn apply(&self, conn: &mut Conn<'_>, events: &[&RecordedEvent]) -> Result<(), ProjectionError> {
        for event in events {
            apply_one(conn, event).await?;
        }
        Ok(())
    }
}

/// Folds one account event.
async fn apply_one(conn: &mut Conn<'_>, event: &RecordedEvent) -> Result<(), ProjectionError> {
    let user_id =
        event.stream_id.strip_prefix("user-").ok_or_else(|| ProjectionError::malformed(event, "not in a user-<uuid> stream"))?.to_owned();
    let user = Value::from(&user_id);
    let parsed: UserEvent = event.payload().map_err(|e| ProjectionError::malformed(event, e.to_string()))?;
    match parsed {
        UserEvent::UserRegistered { email, username, full_name, auth_provider, at, .. }
        | UserEvent::GoogleAccountRegistered { email, username, full_name, auth_provider, at, .. } => {
            let verified = matches!(auth_provider, domain::accounts::AuthProvider::Google);
            let (email, username) = (or_erased_email(email, &user_id), or_erased_username(username, &user_id));
            let lower = username.to_lowercase();
            sql::execute(
                conn,
                "INSERT INTO users (user_id, email, username, username_lower, full_name, mobile_number, bio, avatar, \
                 cover_image, auth_provider, verified, created_at) \
                 VALUES ($1, $2, $3, $4, $5, '', '', NULL, NULL, $6, $7, $8)",
                &[
                    user,
                    (&email).into(),
                    (&username).into(),
                    (&lower).into(),
                    (&full_name).into(),
                    auth_provider.as_str().into(),
                    i64::from(verified).into(),
                    at.timestamp().into(),
                ],
            )
            .await?;
        }
        UserEvent::AccountVerified { .. } => {
            sql::execute(conn, "UPDATE users SET verified = 1 WHERE user_id = $1", &[user]).await?;
        }
        UserEvent::EmailChanged { new_email, .. } => {
            let new_email = or_erased_email(new_email, &user_id);
            sql::execute(conn, "UPDATE users SET email = $2 WHERE user_id = $1", &[user, (&new_email).into()]).await?;
        }
        UserEvent::ProfileUpdated { full_name, username, bio, mobile_number, avatar, cover_image } => {
            let username = or_erased_username(username, &user_id);
            let lower = username.to_lowercase();
            sql::execute(
                conn,
                "UPDATE users SET full_name = $2, username = $3, username_lower = $4, bio = $5, mobile_number = $6, \
                 avatar = $7, cover_image = $8 WHERE user_id = $1",
                &[
                    user,
                    (&full_name).into(),
                    (&username).into(),
                    (&lower).into(),
                    (&bio).into(),
                    (&mobile_number).into(),
                    (&avatar).into(),
                    (&cover_image).into(),
                ],
            )
            .await?;
        }
        UserEvent::WalletLinked { provider, address, at } => {
            sql::execute(
                conn,
                "INSERT INTO user_wallets (address, user_id, provider, linked_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (address) DO UPDATE SET user_id = excluded.user_id, provider = excluded.provider, \
                 linked_at = excluded.linked_at",
                &[(&address).into(), user, provider.as_str().into(), at.timestamp().into()],
            )
            .await?;
        }
        UserEvent::WalletUnlinked { address, .. } => {
            sql::execute(conn, "DELETE FROM user_wallets WHERE address = $1 AND user_id = $2", &[(&address).into(), user]).await?;
        }
        UserEvent::ApiKeyCreated { key_id, name, scopes, key_hash, prefix, at } => {
            let scopes: Vec<&str> = scopes.iter().map(|s| s.as_str()).collect();
            let (key_id, scopes) = (key_id.to_string(), scopes.join(","));
            sql::execute(
                conn,
                "INSERT INTO api_keys (key_id, user_id, name, scopes, key_hash, prefix, created_at, revoked_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, NULL)",
                &[(&key_id).into(), user, (&name).into(), (&scopes).into(), (&key_hash).into(), (&prefix).into(), at.timestamp().into()],
            )
            .await?;
        }
        UserEvent::ApiKeyRevoked { key_id, at } => {
            let key_id = key_id.to_string();
            sql::execute(
                conn,
                "UPDATE api_keys SET revoked_at = $3 WHERE key_id = $1 AND user_id = $2 AND revoked_at IS NULL",
                &[(&key_id).into(), user, at.timestamp().into()],
            )
            .await?;
        }
        UserEvent::WebhookEndpointRegistered { endpoint_id, url, topics, notice_kinds, secret_salt, at } => {
            let (id, topics, kinds) = (endpoint_id.to_string(), topics.join(","), notice_kinds.join(","));
            sql::execute(
                conn,
                "INSERT INTO webhook_endpoints (endpoint_id, user_id, url, topics, notice_kinds, secret_salt, created_at, \
                 updated_at, deleted_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7, NULL)",
                &[(&id).into(), user, (&url).into(), (&topics).into(), (&kinds).into(), (&secret_salt).into(), at.timestamp().into()],
            )
            .await?;
        }
        UserEvent::WebhookEndpointUpdated { endpoint_id, url, topics, notice_kinds, at } => {
            let (id, topics, kinds) = (endpoint_id.to_string(), topics.join(","), notice_kinds.join(","));
            sql::execute(
                conn,
                "UPDATE webhook_endpoints SET url = $3, topics = $4, notice_kinds = $5, updated_at = $6 \
                 WHERE endpoint_id = $1 AND user_id = $2",
                &[(&id).into(), user, (&url).into(), (&topics).into(), (&kinds).into(), at.timestamp().into()],
            )
            .await?;
        }
        UserEvent::WebhookEndpointDeleted { endpoint_id, at } => {
            let id = endpoint_id.to_string();
            sql::execute(
                conn,
                "UPDATE webhook_endpoints SET deleted_at = $3 WHERE endpoint_id = $1 AND user_id = $2 AND deleted_at IS NULL",
                &[(&id).into(), user, at.timestamp().into()],
            )
            .await?;
        }
        UserEvent::AccountErased { at } => {
            let (email, username) = (erased_email(&user_id), erased_username(&user_id));
            sql::execute(
                conn,
                "UPDATE users SET email = $2, username = $3, username_lower = $3, full_name = '', mobile_number = '', bio = '', \
                 avatar = NULL, cover_image = NULL, erased_at = $4 WHERE user_id = $1",
                &[user, (&email).into(), (&username).into(), at.timestamp().into()],
            )
            .await?;
        }
        _ => {}
    }
    Ok(())
}

/// What the `email` column holds for an erased person: their id (unique, and no address).
fn erased_email(user_id: &str) -> String {
    user_id.to_owned()
}

/// What the `username` column holds for an erased person: `deleted-` and 22 characters of the
/// id (unique; no one may register a name with that prefix).
pub fn erased_username(user_id: &str) -> String {
    let simple: String = user_id.chars().filter(|c| *c != '-').collect();
    format!("{}{}", domain::accounts::validate::DELETED_PREFIX, &simple[..22.min(simple.len())])
}

/// A live account always has an e-mail: an empty one is a sealed field whose key was forgotten
/// (a replay after an erasure).
fn or_erased_email(email: String, user_id: &str) -> String {
    if email.is_empty() { erased_email(user_id) } else { email }
}

/// As [`or_erased_email`], for the username.
fn or_erased_username(username: String, user_id: &str) -> String {
    if username.is_empty() { erased_username(user_id) } else { username }
}

/// A linked wallet as profiles show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkedWallet {
    /// `Metamask`, `Coinbase` or `Other`.
    pub provider: String,
    /// Lower-case 0x address.
    pub address: String,
}

/// A user's row with their wallets. `email` and `mobile_number` are private: only the user's
/// own profile query fills them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserProfile {
    /// The id.
    pub user_id: String,
    /// E-mail (empty in public profiles).
    pub email: String,
    /// Username.
    pub username: String,
    /// Display name.
    pub full_name: String,
    /// Phone number (empty in public profiles).
    pub mobile_number: String,
    /// About text.
    pub bio: String,
    /// Avatar CID.
    pub avatar: Option<String>,
    /// Cover image CID.
    pub cover_image: Option<String>,
    /// `EMAIL` or `GOOGLE`.
    pub auth_provider: String,
    /// Whether the e-mail is verified.
    pub verified: bool,
    /// Sign-up time, Unix seconds.
    pub created_at: i64,
    /// Linked wallets, oldest first.
    pub wallets: Vec<LinkedWallet>,
    /// When the account was erased (Unix seconds): a deleted user, nothing personal left.
    pub erased_at: Option<i64>,
}

async fn wallets(db: &ReadDb, user_id: &str) -> Result<Vec<LinkedWallet>, ProjectionError> {
    let rows = sqlx::query("SELECT provider, address FROM user_wallets WHERE user_id = $1 ORDER BY linked_at, address")
        .bind(user_id)
        .fetch_all(&db.reader().await)
        .await?;
    rows.iter().map(|r| Ok(LinkedWallet { provider: r.try_get("provider")?, address: r.try_get("address")? })).collect()
}

async fn profile_row(db: &ReadDb, user_id: &str, private: bool) -> Result<Option<UserProfile>, ProjectionError> {
    // The public query does not even select the private columns.
    let sql = if private {
        "SELECT user_id, email, username, full_name, mobile_number, bio, avatar, cover_image, auth_provider, verified, \
         created_at, erased_at FROM users WHERE user_id = $1"
    } else {
        "SELECT user_id, '' AS email, username, full_name, '' AS mobile_number, bio, avatar, cover_image, auth_provider, \
         verified, created_at, erased_at FROM users WHERE user_id = $1"
    };
    let Some(row) = sqlx::query(sql).bind(user_id).fetch_optional(&db.reader().await).await? else {
        return Ok(None);
    };
    Ok(Some(UserProfile {
        user_id: row.try_get("user_id")?,
        email: row.try_get("email")?,
        username: row.try_get("username")?,
        full_name: row.try_get("full_name")?,
        mobile_number: row.try_get("mobile_number")?,
        bio: row.try_get("bio")?,
        avatar: row.try_get("avatar")?,
        cover_image: row.try_get("cover_image")?,
        auth_provider: row.try_get("auth_provider")?,
        verified: row.try_get::<i64, _>("verified")? != 0,
        created_at: row.try_get("created_at")?,
        wallets: wallets(db, user_id).await?,
        erased_at: row.try_get("erased_at")?,
    }))
}

/// The user's own profile, e-mail and mobile number included.
pub async fn own_profile(db: &ReadDb, user_id: &str) -> Result<Option<UserProfile>, ProjectionError> {
    profile_row(db, user_id, true).await
}

/// Anyone's view of a profile: never the e-mail or the mobile number.
pub async fn public_profile(db: &ReadDb, user_id: &str) -> Result<Option<UserProfile>, ProjectionError> {
    profile_row(db, user_id, false).await
}

/// The user a wallet address is linked to, if any.
pub async fn user_by_wallet(db: &ReadDb, address: &str) -> Result<Option<String>, ProjectionError> {
    Ok(sqlx::query_scalar("SELECT user_id FROM user_wallets WHERE address = $1")
        .bind(address.to_lowercase())
        .fetch_optional(&db.reader().await)
        .await?)
}

/// An API key as its owner's list shows it (never its hash).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiKeyRow {
    /// Its id.
    pub key_id: String,
    /// Whose.
    pub user_id: String,
    /// The name given.
    pub name: String,
    /// Scope names, sorted.
    pub scopes: Vec<String>,
    /// `mk_live_` and four characters.
    pub prefix: String,
    /// Unix seconds.
    pub created_at: i64,
    /// Unix seconds, if revoked.
    pub revoked_at: Option<i64>,
}

const KEY_COLUMNS: &str = "key_id, user_id, name, scopes, prefix, created_at, revoked_at";

fn key_row(row: &sqlx::any::AnyRow) -> Result<ApiKeyRow, ProjectionError> {
    let scopes: String = row.try_get("scopes")?;
    Ok(ApiKeyRow {
        key_id: row.try_get("key_id")?,
        user_id: row.try_get("user_id")?,
        name: row.try_get("name")?,
        scopes: scopes.split(',').filter(|s| !s.is_empty()).map(str::to_owned).collect(),
        prefix: row.try_get("prefix")?,
        created_at: row.try_get("created_at")?,
        revoked_at: row.try_get("revoked_at")?,
    })
}

/// The API key whose SHA-256 is `key_hash` (revoked or not), if any.
pub async fn api_key_by_hash(db: &ReadDb, key_hash: &str) -> Result<Option<ApiKeyRow>, ProjectionError> {
    let sql = format!("SELECT {KEY_COLUMNS} FROM api_keys WHERE key_hash = $1");
    // The primary: a key revoked a moment ago must not still work on a replica's older rows.
    let row = sqlx::query(&sql).bind(key_hash).fetch_optional(&db.pool()).await?;
    row.as_ref().map(key_row).transpose()
}

/// A user's API keys that still work, newest first.
pub async fn api_keys_of(db: &ReadDb, user_id: &str) -> Result<Vec<ApiKeyRow>, ProjectionError> {
    let sql = format!("SELECT {KEY_COLUMNS} FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC, key_id");
    let rows = sqlx::query(&sql).bind(user_id).fetch_all(&db.reader().await).await?;
    rows.iter().map(key_row).collect()
}

/// A webhook endpoint as the read table holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebhookEndpointRow {
    /// Its id.
    pub endpoint_id: String,
    /// Whose.
    pub user_id: String,
    /// Where deliveries go.
    pub url: String,
    /// The stream's topics it wants, sorted.
    pub topics: Vec<String>,
    /// The notice kinds it wants, sorted.
    pub notice_kinds: Vec<String>,
    /// The salt its signing secret is derived from (with the server's secret).
    pub secret_salt: String,
    /// Unix seconds.
    pub created_at: i64,
    /// Unix seconds.
    pub updated_at: i64,
}

const WEBHOOK_COLUMNS: &str = "endpoint_id, user_id, url, topics, notice_kinds, secret_salt, created_at, updated_at";

fn webhook_row(row: &sqlx::any::AnyRow) -> Result<WebhookEndpointRow, ProjectionError> {
    let list = |text: String| text.split(',').filter(|s| !s.is_empty()).map(str::to_owned).collect();
    Ok(WebhookEndpointRow {
        endpoint_id: row.try_get("endpoint_id")?,
        user_id: row.try_get("user_id")?,
        url: row.try_get("url")?,
        topics: list(row.try_get("topics")?),
        notice_kinds: list(row.try_get("notice_kinds")?),
        secret_salt: row.try_get("secret_salt")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
    })
}

/// A user's webhook endpoints (not deleted), oldest first.
pub async fn webhook_endpoints_of(db: &ReadDb, user_id: &str) -> Result<Vec<WebhookEndpointRow>, ProjectionError> {
    let sql = format!(
        "SELECT {WEBHOOK_COLUMNS} FROM webhook_endpoints WHERE user_id = $1 AND deleted_at IS NULL ORDER BY created_at, endpoint_id"
    );
    let rows = sqlx::query(&sql).bind(user_id).fetch_all(&db.reader().await).await?;
    rows.iter().map(webhook_row).collect()
}

/// Every webhook endpoint not deleted: what the delivery worker serves.
pub async fn live_webhook_endpoints(db: &ReadDb) -> Result<Vec<WebhookEndpointRow>, ProjectionError> {
    let sql = format!("SELECT {WEBHOOK_COLUMNS} FROM webhook_endpoints WHERE deleted_at IS NULL ORDER BY created_at, endpoint_id");
    let rows = sqlx::query(&sql).fetch_all(&db.pool().clone()).await?;
    rows.iter().map(webhook_row).collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use domain::{EventStore, ExpectedVersion, Metadata, accounts::UserEvent};
    use serde_json::json;

    use super::*;
    use crate::Projector;

    const USER: &str = "0190c0de-0000-7000-8000-000000000001";

    fn event(value: serde_json::Value) -> domain::NewEvent {
        let event: UserEvent = serde_json::from_value(value).unwrap();
        event.to_new_event(Metadata::default()).unwrap()
    }

    /// The same events folded on either backend give the same profiles.
    async fn fold_and_query(read_url: &str) {
        let dir = tempfile::tempdir().unwrap();
        let store: Arc<dyn EventStore> =
            domain::store::open(&format!("sqlite://{}", dir.path().join("events.db").display())).await.unwrap();
        let at = "2026-01-01T00:00:00Z";
        let events = vec![
            event(json!({ "type": "UserRegistered", "userId": USER, "email": "a@example.com", "username": "Alice",
                "fullName": "Alice", "passwordHash": "$argon2id$x", "authProvider": "EMAIL", "at": at })),
            event(json!({ "type": "AccountVerified", "at": at })),
            event(json!({ "type": "ProfileUpdated", "fullName": "Alice L", "username": "Alicia", "bio": "hi",
                "mobileNumber": "+1 555", "avatar": "bafyavatar", "coverImage": null })),
            event(json!({ "type": "WalletLinked", "provider": "Metamask", "address": "0xab", "at": at })),
            event(json!({ "type": "WalletLinked", "provider": "Other", "address": "0xcd", "at": at })),
            event(json!({ "type": "WalletUnlinked", "address": "0xab", "at": at })),
            event(json!({ "type": "EmailChanged", "oldEmail": "a@example.com", "newEmail": "b@example.com", "at": at })),
        ];
        store.append(&format!("user-{USER}"), ExpectedVersion::NoStream, events).await.unwrap();
        let db = ReadDb::open(read_url).await.unwrap();
        Projector::new(store, db.clone()).await.unwrap().catch_up().await.unwrap();

        let own = own_profile(&db, USER).await.unwrap().unwrap();
        assert_eq!(own.email, "b@example.com");
        assert_eq!((own.username.as_str(), own.full_name.as_str(), own.bio.as_str()), ("Alicia", "Alice L", "hi"));
        assert_eq!(own.mobile_number, "+1 555");
        assert_eq!(own.avatar.as_deref(), Some("bafyavatar"));
        assert_eq!(own.cover_image, None);
        assert!(own.verified);
        assert_eq!(own.auth_provider, "EMAIL");
        assert_eq!(own.created_at, 1_767_225_600);
        assert_eq!(own.wallets, vec![LinkedWallet { provider: "Other".into(), address: "0xcd".into() }]);

        let public = public_profile(&db, USER).await.unwrap().unwrap();
        assert_eq!((public.email.as_str(), public.mobile_number.as_str()), ("", ""));
        assert_eq!(public.username, "Alicia");
        assert_eq!(user_by_wallet(&db, "0xCD").await.unwrap().as_deref(), Some(USER));
        assert_eq!(user_by_wallet(&db, "0xab").await.unwrap(), None);
        assert_eq!(own_profile(&db, "nobody").await.unwrap(), None);
    }

    #[tokio::test]
    async fn profiles_fold_on_sqlite() {
        let dir = tempfile::tempdir().unwrap();
        fold_and_query(&format!("sqlite://{}", dir.path().join("read.db").display())).await;
    }

    #[tokio::test]
    async fn profiles_fold_on_postgres() {
        let db = domain::test_utils::TestPostgres::create().await;
        fold_and_query(&db.url).await;
    }
}
