//! Likes and bookmarks as queries see them: a viewer's flags on a page of NFTs, a token's like
//! count, a user's bookmarks, and the users behind history rows.

use std::{
    collections::{HashMap, HashSet},
    sync::Arc,
};

use sqlx::Row;

use super::{
    Page, Paged,
    kept::Kept,
    nft::{Explore, NftView, Person, explore},
    placeholders,
};
use crate::{ProjectionError, ReadDb};
use domain::Position;

/// Which of a page's NFTs the viewer likes and bookmarked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewerFlags {
    /// Liked NFT ids.
    pub liked: HashSet<String>,
    /// Bookmarked NFT ids.
    pub bookmarked: HashSet<String>,
}

impl ViewerFlags {
    /// `(isLiked, isBookmarked)` of one NFT.
    pub fn of(&self, nft_id: &str) -> (bool, bool) {
        (self.liked.contains(nft_id), self.bookmarked.contains(nft_id))
    }
}

/// The viewer's likes and bookmarks among `nft_ids`: one query (on SQLite read in place, as the
/// page's rows are).
pub async fn viewer_flags(db: &ReadDb, user_id: &str, nft_ids: &[&str]) -> Result<ViewerFlags, ProjectionError> {
    let mut flags = ViewerFlags::default();
    if nft_ids.is_empty() {
        return Ok(flags);
    }
    let n = nft_ids.len();
    // `$1` is the user, `$2`... the ids, each used in both tables (SQLite, too, binds a `$n`
    // that appears twice once).
    let list = (2..2 + n).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ");
    let sql = format!(
        "SELECT nft_id, 1 FROM likes WHERE user_id = $1 AND nft_id IN ({list}) \
         UNION ALL SELECT nft_id, 2 FROM bookmarks WHERE user_id = $1 AND nft_id IN ({list})"
    );
    let mut params: Vec<&str> = Vec::with_capacity(1 + n);
    params.push(user_id);
    params.extend_from_slice(nft_ids);
    let current = db.reading().await;
    let rows: Vec<(String, i64)> = if let Some(readers) = &current.sqlite {
        readers.read(|conn| {
            let mut statement = conn.prepare_cached(&sql)?;
            let rows = statement.query_map(rusqlite::params_from_iter(&params), |row| Ok((row.get(0)?, row.get(1)?)))?;
            rows.collect()
        })?
    } else {
        let mut query = sqlx::query(&sql);
        for param in &params {
            query = query.bind(*param);
        }
        query
            .fetch_all(&current.pool)
            .await?
            .iter()
            .map(|row| Ok((row.try_get(0)?, row.try_get(1)?)))
            .collect::<Result<_, sqlx::Error>>()?
    };
    for (nft_id, kind) in rows {
        if kind == 1 {
            flags.liked.insert(nft_id);
        } else {
            flags.bookmarked.insert(nft_id);
        }
    }
    Ok(flags)
}

/// A token's like count (`None`: no such token).
pub async fn total_likes(db: &ReadDb, nft_id: &str) -> Result<Option<i64>, ProjectionError> {
    Ok(sqlx::query_scalar("SELECT total_likes FROM nfts WHERE nft_id = $1").bind(nft_id).fetch_optional(&db.reader().await).await?)
}

/// How many users besides `user_id` like a token: with the user's own like as a command just
/// decided it, the count a toggle answers (never at odds with its `isLiked`, whatever the
/// user's other toggles in flight have reached the read tables).
pub async fn likes_by_others(db: &ReadDb, nft_id: &str, user_id: &str) -> Result<i64, ProjectionError> {
    Ok(sqlx::query_scalar("SELECT COUNT(*) FROM likes WHERE nft_id = $1 AND user_id <> $2")
        .bind(nft_id)
        .bind(user_id)
        .fetch_one(&db.reader().await)
        .await?)
}

/// Whether a token can be liked or bookmarked: minted and not burned.
pub async fn likeable(db: &ReadDb, nft_id: &str) -> Result<bool, ProjectionError> {
    let found: Option<i64> =
        sqlx::query_scalar("SELECT burned FROM nfts WHERE nft_id = $1").bind(nft_id).fetch_optional(&db.reader().await).await?;
    Ok(found == Some(0))
}

/// How many users' bookmarks are kept for browsing (then they are read again).
const KEPT_BOOKMARKS: usize = 1_024;

/// A page of the NFTs `user_id` bookmarked, filtered and sorted as browsing is (`request`'s
/// own set of tokens, if any, is replaced by the bookmarks).
pub async fn bookmarked(db: &ReadDb, user_id: &str, request: Explore, page: Page, at: Position) -> Result<Paged<NftView>, ProjectionError> {
    let generation = db.generation();
    let kept = {
        let kept = db.browse().bookmarks.lock().unwrap_or_else(|e| e.into_inner());
        kept.get(user_id).and_then(|k| k.at(&generation, at)).cloned()
    };
    let ids = match kept {
        Some(ids) => ids,
        None => {
            // On the primary, like the browse index the list is kept beside (see `ReadDb::reader`).
            let ids: Vec<String> =
                sqlx::query_scalar("SELECT nft_id FROM bookmarks WHERE user_id = $1").bind(user_id).fetch_all(&db.pool()).await?;
            let ids: Arc<[String]> = ids.into();
            let mut kept = db.browse().bookmarks.lock().unwrap_or_else(|e| e.into_inner());
            if kept.len() >= KEPT_BOOKMARKS {
                kept.clear();
            }
            kept.insert(user_id.to_owned(), Kept::new(generation, at, ids.clone()));
            ids
        }
    };
    explore(db, &Explore { within: Some(ids), ..request }, page, at).await
}

/// The users with these ids (those that exist), for history rows: one query.
pub async fn people_by_id(db: &ReadDb, user_ids: &[String]) -> Result<HashMap<String, Person>, ProjectionError> {
    let mut unique: Vec<&String> = user_ids.iter().collect();
    unique.sort();
    unique.dedup();
    if unique.is_empty() {
        return Ok(HashMap::new());
    }
    let sql = format!(
        "SELECT u.user_id, u.username, u.full_name, u.avatar, COALESCE(m.verified, 0) FROM users u \
         LEFT JOIN moderated m ON m.target_kind = 'user' AND m.target_id = u.user_id WHERE u.user_id IN ({})",
        placeholders(unique.len())
    );
    let mut query = sqlx::query(&sql);
    for id in unique {
        query = query.bind(id.as_str());
    }
    let rows = query.fetch_all(&db.reader().await).await?;
    rows.iter()
        .map(|row| {
            let avatar: Option<String> = row.try_get(3)?;
            let person = Person {
                user_id: row.try_get(0)?,
                username: row.try_get(1)?,
                full_name: row.try_get(2)?,
                avatar: avatar.map(|cid| format!("/ipfs/{cid}")).unwrap_or_default(),
                verified: row.try_get::<i64, _>(4)? != 0,
            };
            Ok((person.user_id.clone(), person))
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(Into::into)
}
