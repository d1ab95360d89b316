//! The browse index: which tokens a browse request matches, in which order, and how many,
//! answered in memory.
//!
//! Browsing filters by sale type, category, owner or creator, finds words by prefix, and sorts
//! by date, price or popularity, one page at a time with the total. In SQL, a common word means
//! building and counting its whole match set for every page asked (a third of all tokens, in
//! the benchmark's market). Here each filter value and each word is a compressed bitmap of
//! token slots: a request intersects a few bitmaps, counts the result, and reads its page off
//! an order kept sorted per key. The page's rows then come from SQL by id.
//!
//! The index is derived from the read tables, not from the log, and follows them through
//! `nft_changes`: each projector batch stamps the tokens it touched with one of its positions,
//! so an index built at checkpoint P reloads exactly the tokens stamped after P (removed ones
//! included). A query names the position it needs; the index catches up first when behind,
//! and rebuilds when a replay published a new generation.

use std::{
    borrow::Cow,
    cmp::Ordering,
    collections::{BTreeMap, HashMap},
    sync::{RwLock, RwLockReadGuard},
};

use domain::Position;
use roaring::{MultiOps, RoaringBitmap};
use sqlx::{AnyPool, Row, any::AnyRow};
use tokio::sync::Mutex;
use unicode_normalization::{UnicodeNormalization, char::is_combining_mark};

use super::Page;
use crate::checkpoint::checkpoint_in;

/// Which listings to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaleFilter {
    /// Every token that exists.
    All,
    /// Fixed-price listings.
    FixedPrice,
    /// Auctions.
    Auction,
    /// Auctions still taking bids: the public auction list (an auction past its end is no
    /// longer open, though it waits for its settlement).
    LiveAuction,
    /// Tokens not for sale.
    NotForSale,
}

impl SaleFilter {
    /// Parses the spec's `formOfSale` values.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "ALL" => Some(Self::All),
            "FIXEDPRICE" => Some(Self::FixedPrice),
            "AUCTION" => Some(Self::Auction),
            "NOT_FOR_SALE" => Some(Self::NotForSale),
            _ => None,
        }
    }

    pub(crate) fn sale_type(self) -> Option<&'static str> {
        match self {
            Self::All => None,
            Self::FixedPrice => Some("FIXEDPRICE"),
            Self::Auction | Self::LiveAuction => Some("AUCTION"),
            Self::NotForSale => Some("NOT_FOR_SALE"),
        }
    }
}

/// The spec's sort keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortBy {
    /// Mint time.
    Date,
    /// When last put on sale (fixed price or auction; mint time for a token never listed):
    /// explore's "most recent", where a relisted NFT comes back to the top.
    Listed,
    /// Price (exact, in wei).
    Price,
    /// Likes, bids and sales: `total_likes + bid_count + 2 * sales`.
    Popularity,
    /// Auction end. Lists only auctions still taking bids, whatever the sale filter.
    Ending,
}

impl SortBy {
    /// Parses `DATE`, `PRICE`, `POPULARITY`.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "DATE" => Some(Self::Date),
            "PRICE" => Some(Self::Price),
            "POPULARITY" => Some(Self::Popularity),
            _ => None,
        }
    }
}

/// A browse request.
#[derive(Clone, Debug)]
pub struct Explore {
    /// Category id; `None` for all.
    pub category: Option<String>,
    /// Sale type.
    pub sale: SaleFilter,
    /// Sort key.
    pub sort_by: SortBy,
    /// `true` for ascending (the spec's order 1), `false` for descending (order 0).
    pub ascending: bool,
    /// Words to find in title or description (prefix match, all words).
    pub search: Option<String>,
    /// Only tokens currently owned by one of these addresses (a user's wallets).
    pub owners: Option<Vec<String>>,
    /// Only tokens created by one of these addresses.
    pub creators: Option<Vec<String>>,
    /// Only these tokens (a user's bookmarks), by id.
    pub within: Option<Vec<String>>,
}

impl Explore {
    /// Every token of every sale type, sorted by `sort_by`, newest (highest) first.
    pub fn all(sort_by: SortBy) -> Self {
        Self { category: None, sale: SaleFilter::All, sort_by, ascending: false, search: None, owners: None, creators: None, within: None }
    }
}

/// The words of a text as the index keeps them and a search looks them up: runs of letters and
/// digits, lower-cased, without diacritics ("Café" is "cafe").
pub(crate) fn words(text: &str) -> Vec<String> {
    let folded: String = text.nfd().filter(|c| !is_combining_mark(*c)).collect::<String>().to_lowercase();
    folded.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_owned).collect()
}

/// The distinct words of a token's title and description, sorted.
fn distinct_words(title: &str, description: &str) -> Vec<String> {
    let mut distinct = words(title);
    distinct.extend(words(description));
    distinct.sort_unstable();
    distinct.dedup();
    distinct
}

/// The words of a search box: each is a prefix, all are required; at most eight count.
fn search_terms(search: &str) -> Vec<String> {
    let mut terms = words(search);
    terms.truncate(8);
    terms
}

/// The sale types, by their index in [`Token::sale`].
const SALES: [&str; 3] = ["NOT_FOR_SALE", "FIXEDPRICE", "AUCTION"];

/// The index in [`SALES`] of a sale type's name.
fn sale_index(name: &str) -> usize {
    SALES.iter().position(|s| *s == name).unwrap_or(0)
}

/// What a token's row says that browsing filters and sorts by.
#[cfg_attr(test, derive(Clone))]
struct Token {
    nft_id: String,
    sale: usize,
    burned: bool,
    /// Wei as three 26-digit parts, most significant first: exact order up to 78 digits.
    price: (u128, u128, u128),
    minted_at: i64,
    /// When last put on sale (its mint time if never).
    listed_at: i64,
    /// Its auction's end (Unix seconds), when it is in one.
    end_time: i64,
    popularity: i64,
    category: String,
    owner: String,
    creator: String,
    /// Its distinct words, title and description.
    words: Vec<String>,
}

/// The columns a [`Token`] is read from (popularity as `SortBy::Popularity` orders by it).
const COLUMNS: &str = "n.nft_id, n.sale_type, n.price_key, n.minted_at, n.total_likes + n.bid_count + 2 * n.sales, n.burned, \
    n.owner, n.creator, COALESCE(d.category_id, ''), COALESCE(d.title, ''), COALESCE(d.description, ''), n.listed_at, n.end_time";

/// The token in `row`, whose [`COLUMNS`] start at `at`; `None` when the token has no row (a
/// reorg removed it).
fn token(row: &AnyRow, at: usize) -> Result<Option<Token>, sqlx::Error> {
    let Some(nft_id) = row.try_get::<Option<String>, _>(at)? else {
        return Ok(None);
    };
    let sale_type: String = row.try_get(at + 1)?;
    let price_key: String = row.try_get(at + 2)?;
    Ok(Some(Token {
        nft_id,
        sale: sale_index(&sale_type),
        price: price_parts(&price_key),
        minted_at: row.try_get(at + 3)?,
        popularity: row.try_get(at + 4)?,
        burned: row.try_get::<i64, _>(at + 5)? != 0,
        owner: row.try_get(at + 6)?,
        creator: row.try_get(at + 7)?,
        category: row.try_get(at + 8)?,
        words: distinct_words(&row.try_get::<String, _>(at + 9)?, &row.try_get::<String, _>(at + 10)?),
        listed_at: row.try_get(at + 11)?,
        end_time: row.try_get(at + 12)?,
    }))
}

/// A price key (wei, zero-padded to 78 digits) as three numbers that compare like it.
fn price_parts(key: &str) -> (u128, u128, u128) {
    let padded = format!("{key:0>78}");
    let part = |range: std::ops::Range<usize>| padded.get(range).and_then(|digits| digits.parse().ok()).unwrap_or(u128::MAX);
    (part(0..26), part(26..52), part(52..78))
}

/// The sort keys, by their index in [`Index::orders`]. The [`SortBy::Ending`] order holds only
/// the tokens in an auction ([`in_order`]).
const KEYS: [SortBy; 5] = [SortBy::Date, SortBy::Listed, SortBy::Price, SortBy::Popularity, SortBy::Ending];

/// The index in [`Index::orders`] of the auctions by end.
const ENDING: usize = 4;

fn key_index(key: SortBy) -> usize {
    KEYS.iter().position(|k| *k == key).unwrap_or(0)
}

/// The index in [`Index::orders`] of trending's order among equal scores: popularity, then
/// mint time, then id (`queries::trending`), which explore's popularity order (popularity, then
/// id) is not.
const TRENDING: usize = KEYS.len();

/// Ascending by `key`, then by id: the order SQL's `ORDER BY key, nft_id` gives.
fn compare(tokens: &[Option<Token>], key: SortBy, a: u32, b: u32) -> Ordering {
    compare_in(tokens, key_index(key), a, b)
}

/// Ascending in the order of `orders[order]`.
fn compare_in(tokens: &[Option<Token>], order: usize, a: u32, b: u32) -> Ordering {
    let (Some(a), Some(b)) = (&tokens[a as usize], &tokens[b as usize]) else {
        unreachable!("orders hold occupied slots only");
    };
    let by_key = match KEYS.get(order) {
        Some(SortBy::Date) => a.minted_at.cmp(&b.minted_at),
        Some(SortBy::Listed) => a.listed_at.cmp(&b.listed_at),
        Some(SortBy::Price) => a.price.cmp(&b.price),
        Some(SortBy::Popularity) => a.popularity.cmp(&b.popularity),
        Some(SortBy::Ending) => a.end_time.cmp(&b.end_time),
        None => a.popularity.cmp(&b.popularity).then(a.minted_at.cmp(&b.minted_at)),
    };
    by_key.then_with(|| a.nft_id.cmp(&b.nft_id))
}

/// Whether `orders[order]` holds `token`: every order holds every token, but [`ENDING`] only
/// those in an auction.
fn in_order(order: usize, token: &Token) -> bool {
    order != ENDING || token.sale == sale_index("AUCTION")
}

/// The tokens of one generation of the read tables, at one checkpoint.
#[derive(Default)]
struct Index {
    /// The generation it was built from; empty until built (generation names never are).
    generation: String,
    /// The checkpoint the index reflects (it may show some later changes too).
    position: i64,
    /// Tokens by slot; a removed token frees its slot for the next one.
    tokens: Vec<Option<Token>>,
    slots: HashMap<String, u32>,
    free: Vec<u32>,
    /// Tokens not burned.
    live: RoaringBitmap,
    sales: [RoaringBitmap; 3],
    categories: HashMap<String, RoaringBitmap>,
    owners: HashMap<String, RoaringBitmap>,
    creators: HashMap<String, RoaringBitmap>,
    words: BTreeMap<String, RoaringBitmap>,
    /// Every occupied slot ([`in_order`]) in ascending order of each key of [`KEYS`], then of
    /// [`TRENDING`].
    orders: [Vec<u32>; 6],
}

/// Below this many changed tokens, each moves in the orders on its own; above, they are sorted
/// again whole.
const FEW_CHANGES: usize = 256;

impl Index {
    fn built(generation: &str, position: i64, tokens: impl IntoIterator<Item = Token>) -> Self {
        let mut index = Self { generation: generation.to_owned(), position, ..Self::default() };
        for token in tokens {
            index.add(token);
        }
        index.sort_orders();
        index
    }

    /// Puts `token` in a slot and in the bitmaps (not in the orders).
    fn add(&mut self, token: Token) -> u32 {
        let slot = self.free.pop().unwrap_or_else(|| {
            self.tokens.push(None);
            (self.tokens.len() - 1) as u32
        });
        if !token.burned {
            self.live.insert(slot);
        }
        self.sales[token.sale].insert(slot);
        self.categories.entry(token.category.clone()).or_default().insert(slot);
        self.owners.entry(token.owner.clone()).or_default().insert(slot);
        self.creators.entry(token.creator.clone()).or_default().insert(slot);
        for word in &token.words {
            self.words.entry(word.clone()).or_default().insert(slot);
        }
        self.slots.insert(token.nft_id.clone(), slot);
        self.tokens[slot as usize] = Some(token);
        slot
    }

    /// Takes a token out of its slot and the bitmaps (not out of the orders).
    fn remove(&mut self, slot: u32) {
        let Some(token) = self.tokens[slot as usize].take() else {
            return;
        };
        self.live.remove(slot);
        self.sales[token.sale].remove(slot);
        unset(&mut self.categories, &token.category, slot);
        unset(&mut self.owners, &token.owner, slot);
        unset(&mut self.creators, &token.creator, slot);
        for word in &token.words {
            if let Some(bitmap) = self.words.get_mut(word) {
                bitmap.remove(slot);
                if bitmap.is_empty() {
                    self.words.remove(word);
                }
            }
        }
        self.slots.remove(&token.nft_id);
        self.free.push(slot);
    }

    fn sort_orders(&mut self) {
        let occupied: Vec<u32> = (0..self.tokens.len() as u32).filter(|&s| self.tokens[s as usize].is_some()).collect();
        for (key, order) in self.orders.iter_mut().enumerate() {
            order.clone_from(&occupied);
            if key == ENDING {
                order.retain(|&s| self.tokens[s as usize].as_ref().is_some_and(|t| in_order(key, t)));
            }
            order.sort_unstable_by(|&a, &b| compare_in(&self.tokens, key, a, b));
        }
    }

    /// Replaces each changed token with what its row says now (`None`: it has no row).
    fn apply(&mut self, changes: Vec<(String, Option<Token>)>) {
        let few = changes.len() <= FEW_CHANGES;
        for (nft_id, token) in changes {
            if let Some(&slot) = self.slots.get(&nft_id) {
                if few {
                    for (key, order) in self.orders.iter_mut().enumerate() {
                        if let Ok(at) = order.binary_search_by(|&s| compare_in(&self.tokens, key, s, slot)) {
                            order.remove(at);
                        }
                    }
                }
                self.remove(slot);
            }
            if let Some(token) = token {
                let slot = self.add(token);
                if few {
                    for (key, order) in self.orders.iter_mut().enumerate() {
                        if !self.tokens[slot as usize].as_ref().is_some_and(|t| in_order(key, t)) {
                            continue;
                        }
                        let at = order.binary_search_by(|&s| compare_in(&self.tokens, key, s, slot)).unwrap_or_else(|at| at);
                        order.insert(at, slot);
                    }
                }
            }
        }
        if !few {
            self.sort_orders();
        }
    }

    /// The ids of `page` of the tokens `request` matches at time `now` (Unix seconds), in its
    /// order, and how many match.
    fn find(&self, request: &Explore, page: Page, now: i64) -> (Vec<String>, u64) {
        let mut sets: Vec<Cow<'_, RoaringBitmap>> = vec![Cow::Borrowed(&self.live)];
        let key = request.sort_by;
        // Live auctions only: the auctions, less those ended, which lead the order by end.
        let live_auctions = request.sale == SaleFilter::LiveAuction || key == SortBy::Ending;
        let ended = if live_auctions { self.ended_auctions(now) } else { 0 };
        if let Some(sale) = request.sale.sale_type() {
            sets.push(Cow::Borrowed(&self.sales[sale_index(sale)]));
        }
        if live_auctions && request.sale.sale_type() != Some("AUCTION") {
            sets.push(Cow::Borrowed(&self.sales[sale_index("AUCTION")]));
        }
        if let Some(category) = &request.category {
            match self.categories.get(category) {
                Some(bitmap) => sets.push(Cow::Borrowed(bitmap)),
                None => return (Vec::new(), 0),
            }
        }
        // A set of addresses (a user's wallets) is the union of their bitmaps; addresses are
        // kept lower-case.
        for (bitmaps, wanted) in [(&self.owners, &request.owners), (&self.creators, &request.creators)] {
            if let Some(addresses) = wanted {
                let mut found = addresses.iter().filter_map(|address| bitmaps.get(&address.to_lowercase()));
                let set = match (found.next(), found.next()) {
                    (None, _) => return (Vec::new(), 0),
                    (Some(only), None) => Cow::Borrowed(only),
                    (first, second) => Cow::Owned(first.into_iter().chain(second).chain(found).union()),
                };
                sets.push(set);
            }
        }
        if let Some(ids) = &request.within {
            let set: RoaringBitmap = ids.iter().filter_map(|id| self.slots.get(id).copied()).collect();
            sets.push(Cow::Owned(set));
        }
        for term in request.search.as_deref().map(search_terms).unwrap_or_default() {
            let mut prefixed = self.words.range(term.clone()..).take_while(|(word, _)| word.starts_with(&term)).map(|(_, bitmap)| bitmap);
            // A whole word is often the only one with its prefix: its bitmap serves as it is.
            let set = match (prefixed.next(), prefixed.next()) {
                (Some(only), None) => Cow::Borrowed(only),
                (first, second) => Cow::Owned(first.into_iter().chain(second).chain(prefixed).union()),
            };
            sets.push(set);
        }
        sets.sort_by_key(|set| set.len());
        let mut sets = sets.into_iter();
        let mut matches = sets.next().expect("live is always there").into_owned();
        for set in sets {
            matches &= set.as_ref();
        }
        for slot in &self.orders[ENDING][..ended] {
            matches.remove(*slot);
        }

        let total = matches.len();
        let (offset, limit) = (page.offset().max(0) as u64, u64::from(page.limit));
        if offset >= total || limit == 0 {
            return (Vec::new(), total);
        }
        // The live auctions by end are what follows the ended ones.
        let order = &self.orders[key_index(key)][if key == SortBy::Ending { ended } else { 0 }..];
        let end = (offset + limit).min(total);
        // Walking the sorted order meets a match every len/total slots; sorting the matches
        // costs about total·log(total) comparisons. Take the cheaper.
        let walk = end * order.len() as u64 / total;
        let sort = total * u64::from(64 - total.leading_zeros());
        let slots: Vec<u32> = if walk <= sort {
            // A bitmap finds a slot by searching its containers; a long walk past few matches
            // tests them in a plain array of bits, one per slot, instead (filled in `total` steps).
            let bits = (walk > total / 8).then(|| {
                let mut bits = vec![0u64; self.tokens.len().div_ceil(64)];
                for slot in &matches {
                    bits[slot as usize / 64] |= 1 << (slot % 64);
                }
                bits
            });
            let matching = |slot: &&u32| match &bits {
                Some(bits) => bits[**slot as usize / 64] & (1 << (**slot % 64)) != 0,
                None => matches.contains(**slot),
            };
            let (skip, take) = (offset as usize, (end - offset) as usize);
            if request.ascending {
                order.iter().filter(matching).skip(skip).take(take).copied().collect()
            } else {
                order.iter().rev().filter(matching).skip(skip).take(take).copied().collect()
            }
        } else {
            let ascending = request.ascending;
            let by = |a: &u32, b: &u32| {
                let ordering = compare(&self.tokens, key, *a, *b);
                if ascending { ordering } else { ordering.reverse() }
            };
            let mut all: Vec<u32> = matches.iter().collect();
            if (end as usize) < all.len() {
                all.select_nth_unstable_by(end as usize - 1, by);
                all.truncate(end as usize);
            }
            all.sort_unstable_by(by);
            all.split_off(offset as usize)
        };
        let ids = slots.into_iter().filter_map(|slot| self.tokens[slot as usize].as_ref().map(|t| t.nft_id.clone())).collect();
        (ids, total)
    }

    /// How many auctions have ended at `now`: they lead the [`ENDING`] order.
    fn ended_auctions(&self, now: i64) -> usize {
        self.orders[ENDING].partition_point(|&slot| self.tokens[slot as usize].as_ref().is_some_and(|t| t.end_time <= now))
    }

    /// When the next of the live auctions ends (after `now`), if one is running.
    fn next_auction_end(&self, now: i64) -> Option<i64> {
        let order = &self.orders[ENDING];
        order.get(self.ended_auctions(now)).and_then(|&slot| self.tokens[slot as usize].as_ref()).map(|t| t.end_time)
    }

    /// The ids of `page` of the live tokens on sale as `sale` (any when `None`), by `scores`
    /// descending (ids without a positive score count as 0), then popularity, mint time and id,
    /// all descending, and how many there are. Only the scored tokens are sorted; the others
    /// are read off the [`TRENDING`] order, which already ranks them.
    fn trending(&self, sale: Option<&str>, scores: &HashMap<String, f64>, page: Page) -> (Vec<String>, u64) {
        let mut matches = self.live.clone();
        if let Some(sale) = sale {
            matches &= &self.sales[sale_index(sale)];
        }
        let total = matches.len();
        let mut scored: Vec<(f64, u32)> = scores
            .iter()
            .filter(|(_, score)| **score > 0.0)
            .filter_map(|(id, score)| self.slots.get(id).filter(|slot| matches.contains(**slot)).map(|slot| (*score, *slot)))
            .collect();
        scored.sort_unstable_by(|a, b| {
            b.0.partial_cmp(&a.0).unwrap_or(Ordering::Equal).then_with(|| compare_in(&self.tokens, TRENDING, b.1, a.1))
        });
        for (_, slot) in &scored {
            matches.remove(*slot);
        }
        let (offset, limit) = (page.offset().max(0) as usize, page.limit as usize);
        let mut slots: Vec<u32> = scored.iter().skip(offset).take(limit).map(|(_, slot)| *slot).collect();
        let (skip, take) = (offset.saturating_sub(scored.len()), limit - slots.len());
        if take > 0 && !matches.is_empty() {
            slots.extend(self.orders[TRENDING].iter().rev().filter(|slot| matches.contains(**slot)).skip(skip).take(take));
        }
        let ids = slots.into_iter().filter_map(|slot| self.tokens[slot as usize].as_ref().map(|t| t.nft_id.clone())).collect();
        (ids, total)
    }
}

/// Takes `slot` out of the bitmap of `key`, dropping the bitmap once empty.
fn unset(bitmaps: &mut HashMap<String, RoaringBitmap>, key: &str, slot: u32) {
    if let Some(bitmap) = bitmaps.get_mut(key) {
        bitmap.remove(slot);
        if bitmap.is_empty() {
            bitmaps.remove(key);
        }
    }
}

/// The browse index of a [`crate::ReadDb`], shared by its clones.
#[derive(Default)]
pub(crate) struct BrowseIndex {
    index: RwLock<Index>,
    /// One catch-up at a time: the others wait for it and then find the index current.
    catching_up: Mutex<()>,
    /// The trending scores last computed (`queries::trending::recent_scores`): held while they
    /// are computed, so concurrent requests wait for one computation.
    pub(crate) trending_scores: Mutex<Option<super::scores::KeptScores>>,
}

impl BrowseIndex {
    /// The ids of `page` of the tokens `request` matches, in order, and how many match, from
    /// read tables of `generation` (behind `pool`) that include position `at` at least.
    pub(crate) async fn find(
        &self,
        generation: &str,
        pool: &AnyPool,
        request: &Explore,
        page: Page,
        at: Position,
    ) -> Result<(Vec<String>, u64), sqlx::Error> {
        self.cover(generation, pool, at).await?;
        Ok(self.read().find(request, page, chrono::Utc::now().timestamp()))
    }

    /// When the next live auction ends after `now`: lists of live auctions change then, with
    /// no change in the read tables. (The index as it stands: call it after [`Self::find`].)
    pub(crate) fn next_auction_end(&self, now: i64) -> Option<i64> {
        self.read().next_auction_end(now)
    }

    /// [`Index::trending`] from read tables of `generation` (behind `pool`) that include
    /// position `at` at least.
    pub(crate) async fn trending(
        &self,
        generation: &str,
        pool: &AnyPool,
        sale: Option<&str>,
        scores: &HashMap<String, f64>,
        page: Page,
        at: Position,
    ) -> Result<(Vec<String>, u64), sqlx::Error> {
        self.cover(generation, pool, at).await?;
        Ok(self.read().trending(sale, scores, page))
    }

    /// Brings the index to read tables of `generation` at `at` at least, if it is not there.
    pub(crate) async fn cover(&self, generation: &str, pool: &AnyPool, at: Position) -> Result<(), sqlx::Error> {
        if self.covers(generation, at) { Ok(()) } else { self.catch_up(generation, pool, at).await }
    }

    fn read(&self) -> RwLockReadGuard<'_, Index> {
        self.index.read().unwrap_or_else(|e| e.into_inner())
    }

    fn covers(&self, generation: &str, at: Position) -> bool {
        let index = self.read();
        index.generation == generation && index.position >= at as i64
    }

    async fn catch_up(&self, generation: &str, pool: &AnyPool, at: Position) -> Result<(), sqlx::Error> {
        let _one = self.catching_up.lock().await;
        if self.covers(generation, at) {
            return Ok(());
        }
        let (incremental, since) = {
            let index = self.read();
            (index.generation == generation, index.position)
        };
        // The checkpoint first: every row read after it reflects that position or a later one.
        let position = checkpoint_in(pool).await? as i64;
        if incremental {
            let sql = format!(
                "SELECT c.nft_id, {COLUMNS} FROM nft_changes c LEFT JOIN nfts n ON n.nft_id = c.nft_id \
                 LEFT JOIN nft_details d ON d.nft_id = c.nft_id WHERE c.position > $1"
            );
            let rows = sqlx::query(&sql).bind(since).fetch_all(pool).await?;
            let changes = rows.iter().map(|row| Ok((row.try_get(0)?, token(row, 1)?))).collect::<Result<Vec<_>, sqlx::Error>>()?;
            let mut index = self.index.write().unwrap_or_else(|e| e.into_inner());
            index.apply(changes);
            index.position = position;
        } else {
            let sql = format!("SELECT {COLUMNS} FROM nfts n LEFT JOIN nft_details d ON d.nft_id = n.nft_id");
            let rows = sqlx::query(&sql).fetch_all(pool).await?;
            let tokens = rows.iter().filter_map(|row| token(row, 0).transpose()).collect::<Result<Vec<_>, _>>()?;
            let index = Index::built(generation, position, tokens);
            *self.index.write().unwrap_or_else(|e| e.into_inner()) = index;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The time the tests browse at: about a third of the sample's auctions have ended by then.
    const NOW: i64 = 1_000 + 15;

    fn token(id: u32, sale: usize, price: u128, title: &str) -> Token {
        Token {
            nft_id: format!("1-{id:03}"),
            sale,
            burned: false,
            price: price_parts(&price.to_string()),
            minted_at: i64::from(id),
            // Listings in another order than mints, with ties.
            listed_at: i64::from((id * 7) % 53),
            end_time: if sale == 2 { 1_000 + i64::from((id * 13) % 47) } else { 0 },
            popularity: i64::from(id % 3),
            category: if id.is_multiple_of(2) { "art".into() } else { "music".into() },
            owner: format!("0xowner{}", id % 4),
            creator: "0xcreator".into(),
            words: distinct_words(title, ""),
        }
    }

    fn request(sale: SaleFilter, sort_by: SortBy, ascending: bool, search: Option<&str>) -> Explore {
        Explore { sale, ascending, search: search.map(Into::into), ..Explore::all(sort_by) }
    }

    /// What a plain filter-then-sort over every token gives: the reference the index must equal.
    fn naive(index: &Index, request: &Explore, page: Page) -> (Vec<String>, u64) {
        let terms = request.search.as_deref().map(search_terms).unwrap_or_default();
        let live_auctions = request.sale == SaleFilter::LiveAuction || request.sort_by == SortBy::Ending;
        let mut hits: Vec<u32> = (0..index.tokens.len() as u32)
            .filter(|&s| {
                let Some(t) = &index.tokens[s as usize] else {
                    return false;
                };
                !t.burned
                    && request.sale.sale_type().is_none_or(|sale| SALES[t.sale] == sale)
                    && (!live_auctions || (SALES[t.sale] == "AUCTION" && t.end_time > NOW))
                    && request.category.as_ref().is_none_or(|c| &t.category == c)
                    && request.owners.as_ref().is_none_or(|o| o.contains(&t.owner))
                    && request.creators.as_ref().is_none_or(|c| c.contains(&t.creator))
                    && request.within.as_ref().is_none_or(|w| w.contains(&t.nft_id))
                    && terms.iter().all(|term| t.words.iter().any(|w| w.starts_with(term.as_str())))
            })
            .collect();
        hits.sort_by(|&a, &b| {
            let o = compare(&index.tokens, request.sort_by, a, b);
            if request.ascending { o } else { o.reverse() }
        });
        let total = hits.len() as u64;
        let ids = hits
            .into_iter()
            .skip(page.offset() as usize)
            .take(page.limit as usize)
            .map(|s| index.tokens[s as usize].as_ref().unwrap().nft_id.clone())
            .collect();
        (ids, total)
    }

    fn sample(n: u32) -> Vec<Token> {
        const TITLES: [&str; 5] = ["Golden Tiger", "Café Dragon", "neon river", "Lunar tiger cub", "Velvet Mask"];
        (0..n).map(|i| token(i, (i % 3) as usize, u128::from((i * 7919) % 101) * 10u128.pow(18), TITLES[(i % 5) as usize])).collect()
    }

    #[test]
    fn words_fold_case_and_diacritics() {
        assert_eq!(words("Café  CRÈME-brûlée #42"), ["cafe", "creme", "brulee", "42"]);
        assert_eq!(words("e\u{301}te\u{301}"), ["ete"], "decomposed accents stay inside the word");
        assert_eq!(search_terms("a b c d e f g h i j"), ["a", "b", "c", "d", "e", "f", "g", "h"]);
    }

    #[test]
    fn price_parts_order_like_numbers() {
        let key = |wei: &str| price_parts(&format!("{wei:0>78}"));
        assert!(key("9") < key("10"));
        assert!(key("999999999999999999999999999") < key("1000000000000000000000000000"));
        assert!(key(&"9".repeat(78)) > key(&"9".repeat(77)));
    }

    #[test]
    fn every_page_equals_a_plain_filter_and_sort() {
        let index = Index::built("g", 1, sample(500));
        let searches = [None, Some("tiger"), Some("caf"), Some("CAFÉ"), Some("golden tig"), Some("nothing"), Some("t")];
        for search in searches {
            for sale in [SaleFilter::All, SaleFilter::FixedPrice, SaleFilter::Auction, SaleFilter::LiveAuction] {
                for sort_by in KEYS {
                    for ascending in [true, false] {
                        for page in [1, 2, 7, 60] {
                            let request = request(sale, sort_by, ascending, search);
                            let page = Page { page, limit: 9 };
                            assert_eq!(index.find(&request, page, NOW), naive(&index, &request, page), "{request:?} {page:?}");
                        }
                    }
                }
            }
        }
        let mut art = request(SaleFilter::All, SortBy::Price, true, Some("tiger"));
        art.category = Some("art".into());
        art.owners = Some(vec!["0xowner2".into()]);
        let page = Page { page: 1, limit: 9 };
        assert_eq!(index.find(&art, page, NOW), naive(&index, &art, page));
        art.category = Some("unknown".into());
        assert_eq!(index.find(&art, page, NOW), (vec![], 0));
    }

    #[test]
    fn live_auctions_leave_the_list_at_their_end_and_ending_soon_lists_the_soonest_first() {
        let index = Index::built("g", 1, sample(300));
        let everything = Page { page: 1, limit: 1_000 };
        let end_of = |id: &String| index.tokens[index.slots[id] as usize].as_ref().unwrap().end_time;
        let (auctions, all) = index.find(&request(SaleFilter::Auction, SortBy::Date, false, None), everything, NOW);
        let (live, open) = index.find(&request(SaleFilter::LiveAuction, SortBy::Date, false, None), everything, NOW);
        assert!(open > 0 && open < all, "{open} of {all} auctions still open");
        assert!(live.iter().all(|id| end_of(id) > NOW) && auctions.iter().filter(|id| end_of(id) > NOW).count() as u64 == open);

        // Ending soon lists the live auctions whatever the sale filter asks, the soonest first.
        let soonest = request(SaleFilter::All, SortBy::Ending, true, None);
        let (ending, total) = index.find(&soonest, everything, NOW);
        assert_eq!(total, open);
        assert!(ending.windows(2).all(|w| (end_of(&w[0]), &w[0]) < (end_of(&w[1]), &w[1])), "soonest end first");
        assert_eq!(index.next_auction_end(NOW), Some(end_of(&ending[0])));

        // At its end an auction leaves both lists.
        let later = end_of(&ending[0]);
        let (ending_later, total_later) = index.find(&soonest, everything, later);
        assert!(!ending_later.contains(&ending[0]) && total_later < total);
        assert_eq!(index.find(&request(SaleFilter::LiveAuction, SortBy::Price, true, None), everything, later).1, total_later);
        assert!(index.next_auction_end(later).is_some_and(|next| next > later));
        assert_eq!(index.next_auction_end(i64::MAX), None);
    }

    #[test]
    fn most_recent_listings_come_first_whatever_their_mint_time() {
        let mut tokens = sample(30);
        // Token 1 (fixed price), minted among the first, listed again last.
        tokens[1].listed_at = 10_000;
        let index = Index::built("g", 1, tokens);
        let recent = request(SaleFilter::FixedPrice, SortBy::Listed, false, None);
        let (ids, _) = index.find(&recent, Page { page: 1, limit: 3 }, NOW);
        assert_eq!(ids[0], "1-001");
        let (by_mint, _) = index.find(&request(SaleFilter::FixedPrice, SortBy::Date, false, None), Page { page: 1, limit: 3 }, NOW);
        assert_eq!(by_mint[0], "1-028", "by mint time it stays where it was");
    }

    #[test]
    fn sets_of_owners_creators_and_ids_match_a_plain_filter() {
        let index = Index::built("g", 1, sample(300));
        let owners = |list: &[&str]| Some(list.iter().map(|o| o.to_string()).collect::<Vec<_>>());
        let ids = Some((0..300).step_by(7).map(|i| format!("1-{i:03}")).chain(["1-none".into()]).collect::<Vec<_>>());
        let requests = [
            Explore { owners: owners(&["0xowner1", "0xOWNER3", "0xnobody"]), ..request(SaleFilter::All, SortBy::Price, true, None) },
            Explore { owners: owners(&["0xowner0"]), ..request(SaleFilter::FixedPrice, SortBy::Date, false, Some("tiger")) },
            Explore { creators: owners(&["0xcreator", "0xother"]), ..request(SaleFilter::Auction, SortBy::Popularity, false, None) },
            Explore { within: ids.clone(), ..request(SaleFilter::All, SortBy::Date, false, None) },
            Explore { within: ids, owners: owners(&["0xowner2"]), ..request(SaleFilter::All, SortBy::Price, false, Some("caf")) },
        ];
        for request in requests {
            for page in [1, 2, 5] {
                let page = Page { page, limit: 9 };
                // The naive filter compares addresses as given: give it the index's lower case.
                let lower =
                    Explore { owners: request.owners.clone().map(|o| o.iter().map(|a| a.to_lowercase()).collect()), ..request.clone() };
                assert_eq!(index.find(&request, page, NOW), naive(&index, &lower, page), "{request:?} {page:?}");
            }
        }
        for empty in [
            Explore { owners: owners(&[]), ..request(SaleFilter::All, SortBy::Date, false, None) },
            Explore { creators: owners(&["0xnobody"]), ..request(SaleFilter::All, SortBy::Date, false, None) },
            Explore { within: Some(vec![]), ..request(SaleFilter::All, SortBy::Date, false, None) },
        ] {
            assert_eq!(index.find(&empty, Page { page: 1, limit: 9 }, NOW), (vec![], 0), "{empty:?}");
        }
        let counted = Explore { owners: owners(&["0xowner1", "0xowner3"]), ..request(SaleFilter::All, SortBy::Date, false, None) };
        assert_eq!(index.find(&counted, Page { page: 1, limit: 0 }, NOW), (vec![], 150), "a count alone reads no page");
    }

    #[test]
    fn changes_keep_the_orders_as_a_rebuild_would() {
        for changed in [10, FEW_CHANGES + 1] {
            let mut index = Index::built("g", 1, sample(400));
            let mut changes: Vec<(String, Option<Token>)> = Vec::new();
            for i in 0..changed as u32 {
                let id = (i * 37) % 400;
                let mut replaced = token(id, ((id + 1) % 3) as usize, u128::from(i), "Solar flare");
                replaced.burned = i.is_multiple_of(5);
                changes.push((replaced.nft_id.clone(), (i % 7 != 0).then_some(replaced)));
            }
            changes.push(("1-new".into(), Some(Token { nft_id: "1-new".into(), ..token(999, 1, 5, "solar wind") })));
            changes.push(("1-never-was".into(), None));
            index.apply(changes);
            let rebuilt = Index::built("g", 1, index.tokens.iter().flatten().cloned());
            for search in [None, Some("solar"), Some("tiger")] {
                for sort_by in KEYS {
                    let request = request(SaleFilter::All, sort_by, false, search);
                    let page = Page { page: 1, limit: 50 };
                    assert_eq!(index.find(&request, page, NOW), naive(&index, &request, page), "{changed} changes, {request:?}");
                    assert_eq!(index.find(&request, page, NOW), rebuilt.find(&request, page, NOW));
                }
            }
        }
    }

    #[test]
    fn trending_pages_equal_a_full_sort_by_score_then_popularity_mint_time_and_id() {
        let mut tokens = sample(300);
        for (i, token) in tokens.iter_mut().enumerate() {
            // Few mint times, so that equal popularity and mint time fall back to the id.
            token.minted_at = (i % 4) as i64;
            token.burned = i % 11 == 0;
        }
        let index = Index::built("g", 1, tokens);
        // Scores for 40 tokens, some equal, one not positive, one for a token that is not there.
        let mut scores: HashMap<String, f64> = (0..40u32).map(|i| (format!("1-{:03}", i * 7), f64::from(i % 9) + 0.5)).collect();
        scores.insert("1-014".into(), 0.0);
        scores.insert("1-nothing".into(), 99.0);
        for sale in [None, Some("FIXEDPRICE"), Some("AUCTION"), Some("NOT_FOR_SALE")] {
            let mut all: Vec<&Token> =
                index.tokens.iter().flatten().filter(|t| !t.burned && sale.is_none_or(|s| SALES[t.sale] == s)).collect();
            let score = |t: &Token| scores.get(&t.nft_id).copied().unwrap_or(0.0);
            all.sort_by(|a, b| {
                score(b)
                    .partial_cmp(&score(a))
                    .unwrap()
                    .then(b.popularity.cmp(&a.popularity))
                    .then(b.minted_at.cmp(&a.minted_at))
                    .then(b.nft_id.cmp(&a.nft_id))
            });
            let scored = all.iter().filter(|t| score(t) > 0.0).count();
            assert!(scored > 5 && scored < all.len() - 20, "{sale:?}: scored and unscored tokens");
            for limit in [1, 7, 12] {
                for page in 1..=(all.len() as u32 / limit + 2) {
                    let page = Page { page, limit };
                    let expected: Vec<String> =
                        all.iter().skip(page.offset() as usize).take(limit as usize).map(|t| t.nft_id.clone()).collect();
                    assert_eq!(index.trending(sale, &scores, page), (expected, all.len() as u64), "{sale:?} {page:?}");
                }
            }
        }
    }
}
