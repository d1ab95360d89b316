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
    sync::{Arc, RwLock, RwLockReadGuard},
};

use domain::Position;
use roaring::{MultiOps, RoaringBitmap};
use sqlx::{AnyPool, Row, any::AnyRow};
use tokio::sync::Mutex;
use unicode_normalization::{UnicodeNormalization, char::is_combining_mark};

use super::{
    Page,
    rarity::{self, Rank},
    scores::Scores,
};
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
    /// Rarity rank in [`Explore::collection`] (OpenRarity's, [`super::rarity`]): descending is
    /// the rarest first; tokens without a rank there come last.
    Rarity,
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
    /// Only these tokens (a user's bookmarks), by id. Shared, so that the index keeps the set
    /// it makes of a list asked for again (a user's bookmarks are kept while the tables stay).
    pub within: Option<Arc<[String]>>,
    /// Only tokens with these trait values: any of the values of one trait, all the traits.
    pub traits: Vec<TraitFilter>,
    /// The collection whose rarity ranks the cards show and [`SortBy::Rarity`] orders by (it
    /// does not filter: `within` does).
    pub collection: Option<String>,
    /// The viewer's wallets: tokens moderators hid still show to their owner.
    pub viewer: Option<Vec<String>>,
}

/// One trait's wanted values (a property `key` and any of its `values`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TraitFilter {
    /// The property key.
    pub name: String,
    /// The values, any of which matches.
    pub values: Vec<String>,
}

impl Explore {
    /// Every token of every sale type, sorted by `sort_by`, newest (highest) first.
    pub fn all(sort_by: SortBy) -> Self {
        Self {
            category: None,
            sale: SaleFilter::All,
            sort_by,
            ascending: false,
            search: None,
            owners: None,
            creators: None,
            within: None,
            traits: Vec::new(),
            collection: None,
            viewer: None,
        }
    }
}

/// The words of a text as the index keeps them and a search looks them up: runs of letters,
/// digits and the marks on them, lower-cased, the accents of Latin, Greek and Cyrillic letters
/// dropped ("Café" is "cafe", "Ёлка" is "елка"). Any other mark stays: the vowel signs and
/// viramas of Devanagari, Bengali or Tamil are letters of the word ("कमाल" is not "कमल").
pub(crate) fn words(text: &str) -> Vec<String> {
    let mut folded = String::with_capacity(text.len());
    // Whether the last base letter is Latin, Greek or Cyrillic: its marks are accents.
    let mut accented_script = false;
    for c in text.nfd() {
        if is_combining_mark(c) {
            if !accented_script {
                folded.push(c);
            }
        } else {
            accented_script = is_latin_greek_or_cyrillic(c);
            folded.push(c);
        }
    }
    let folded: String = folded.nfc().collect::<String>().to_lowercase();
    folded
        .split(|c: char| !(c.is_alphanumeric() || is_combining_mark(c)))
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .map(str::to_owned)
        .collect()
}

/// Whether `c` is in a block of Latin, Greek or Cyrillic letters (whose marks search ignores).
fn is_latin_greek_or_cyrillic(c: char) -> bool {
    matches!(
        u32::from(c),
        // Basic Latin to Latin Extended-B, IPA and spacing modifiers.
        0x0041..=0x02FF
            // Greek and Coptic, Cyrillic, Cyrillic Supplement.
            | 0x0370..=0x052F
            // Phonetic extensions, Latin Extended Additional, Greek Extended.
            | 0x1D00..=0x1DBF
            | 0x1E00..=0x1FFF
            // Cyrillic Extended-C, Latin Extended-C, Cyrillic Extended-A and -B, Latin Extended-D and -E.
            | 0x1C80..=0x1C8F
            | 0x2C60..=0x2C7F
            | 0x2DE0..=0x2DFF
            | 0xA640..=0xA69F
            | 0xA720..=0xA7FF
            | 0xAB30..=0xAB6F
            // Fullwidth Latin letters.
            | 0xFF21..=0xFF3A
            | 0xFF41..=0xFF5A
    )
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
    /// Hidden by a moderator: shown to its owner only.
    hidden: bool,
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
    /// Its distinct trait values `(name, value)` (its properties), in their order.
    traits: Vec<(String, String)>,
    /// The collections it was put in.
    collections: Vec<String>,
}

/// The columns a [`Token`] is read from (popularity as `SortBy::Popularity` orders by it).
const COLUMNS: &str = "n.nft_id, n.sale_type, n.price_key, n.minted_at, n.total_likes + n.bid_count + 2 * n.sales, n.burned, \
    n.owner, n.creator, COALESCE(d.category_id, ''), COALESCE(d.title, ''), COALESCE(d.description, ''), n.listed_at, n.end_time, \
    COALESCE(d.properties, '[]'), COALESCE(m.hidden, 0)";

/// Joins a token's moderation row (to [`COLUMNS`]' `m`), by the id column `on`.
fn moderated_join(on: &str) -> String {
    format!("LEFT JOIN moderated m ON m.target_kind = 'nft' AND m.target_id = {on}")
}

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
        traits: traits_of(&row.try_get::<String, _>(at + 13)?),
        hidden: row.try_get::<i64, _>(at + 14)? != 0,
        collections: Vec::new(),
    }))
}

/// The distinct `(key, value)` pairs of a token's properties (JSON `[{key, value}]`), trimmed,
/// in their order; rows with an empty key or value, or that are not text (a number counts as
/// its digits), are left out.
pub(crate) fn traits_of(properties: &str) -> Vec<(String, String)> {
    let Ok(serde_json::Value::Array(rows)) = serde_json::from_str::<serde_json::Value>(properties) else {
        return Vec::new();
    };
    let text = |v: Option<&serde_json::Value>| match v {
        Some(serde_json::Value::String(s)) => Some(s.trim().to_owned()),
        Some(serde_json::Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let mut traits: Vec<(String, String)> = Vec::new();
    for row in &rows {
        if let (Some(key), Some(value)) = (text(row.get("key")), text(row.get("value")))
            && !key.is_empty()
            && !value.is_empty()
            && !traits.iter().any(|(k, v)| *k == key && *v == value)
        {
            traits.push((key, value));
        }
    }
    traits
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
        // Not an order the index keeps (`Index::by_rarity` sorts its matches).
        Some(SortBy::Rarity) | None => a.popularity.cmp(&b.popularity).then(a.minted_at.cmp(&b.minted_at)),
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
    /// Tokens not burned and not hidden: what visitors see.
    live: RoaringBitmap,
    /// Tokens not burned that a moderator hid: their owners still see them.
    hidden: RoaringBitmap,
    sales: [RoaringBitmap; 3],
    categories: HashMap<String, RoaringBitmap>,
    owners: HashMap<String, RoaringBitmap>,
    creators: HashMap<String, RoaringBitmap>,
    words: BTreeMap<String, RoaringBitmap>,
    /// A bitmap per value of each trait name.
    traits: BTreeMap<String, BTreeMap<String, RoaringBitmap>>,
    /// The members of each collection (burned ones too: rarity counts the live ones).
    collections: HashMap<String, RoaringBitmap>,
    /// Each collection's ranks by slot, computed when first asked after a change.
    rarity: std::sync::Mutex<HashMap<String, Arc<HashMap<u32, Rank>>>>,
    /// The trending order of the scores last asked for, sorted when first asked after a change.
    trending: std::sync::Mutex<Option<Arc<TrendingOrder>>>,
    /// The sets of slots of the id lists last asked for ([`Explore::within`]), by the list's
    /// address, with the list.
    within: std::sync::Mutex<HashMap<usize, KeptSet>>,
    /// Every occupied slot ([`in_order`]) in ascending order of each key of [`KEYS`], then of
    /// [`TRENDING`].
    orders: [Vec<u32>; 6],
}

/// An id list and the set of its tokens' slots.
type KeptSet = (Arc<[String]>, Arc<RoaringBitmap>);

/// How many id lists' sets the index keeps (then it starts again).
const KEPT_LISTS: usize = 256;

/// The scored tokens of some trending scores in their order.
struct TrendingOrder {
    /// The scores it ranks (kept scores are replaced, never changed: compared by address).
    scores: Arc<Scores>,
    /// Slots with a positive score, highest first.
    slots: Vec<u32>,
    /// The same slots.
    scored: RoaringBitmap,
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
        match (token.burned, token.hidden) {
            (false, false) => self.live.insert(slot),
            (false, true) => self.hidden.insert(slot),
            (true, _) => false,
        };
        self.sales[token.sale].insert(slot);
        self.categories.entry(token.category.clone()).or_default().insert(slot);
        self.owners.entry(token.owner.clone()).or_default().insert(slot);
        self.creators.entry(token.creator.clone()).or_default().insert(slot);
        for word in &token.words {
            self.words.entry(word.clone()).or_default().insert(slot);
        }
        for (name, value) in &token.traits {
            self.traits.entry(name.clone()).or_default().entry(value.clone()).or_default().insert(slot);
        }
        for collection in &token.collections {
            self.collections.entry(collection.clone()).or_default().insert(slot);
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
        self.hidden.remove(slot);
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
        for (name, value) in &token.traits {
            if let Some(values) = self.traits.get_mut(name) {
                unset_in(values, value, slot);
                if values.is_empty() {
                    self.traits.remove(name);
                }
            }
        }
        for collection in &token.collections {
            unset(&mut self.collections, collection, slot);
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
        // Any change may move a collection's ranks (a member's traits, its burn, a member more
        // or less): they are computed again when next asked.
        self.rarity.get_mut().unwrap_or_else(|e| e.into_inner()).clear();
        // And any may move a token in the trending order (its popularity breaks ties), or free
        // or take a slot of a listed id.
        *self.trending.get_mut().unwrap_or_else(|e| e.into_inner()) = None;
        self.within.get_mut().unwrap_or_else(|e| e.into_inner()).clear();
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

    /// The bitmaps every filter but the traits keeps (`None`: one of them keeps nothing), and
    /// how many of the auctions by end have ended at `now` (to take out of the intersection).
    fn base_sets(&self, request: &Explore, now: i64) -> Option<(Vec<Cow<'_, RoaringBitmap>>, usize)> {
        let key = request.sort_by;
        let visible = match &request.viewer {
            // The viewer's own hidden tokens join what everyone sees.
            Some(wallets) if !self.hidden.is_empty() => {
                let own: RoaringBitmap = wallets.iter().filter_map(|w| self.owners.get(&w.to_lowercase())).union();
                Cow::Owned(&self.live | &(own & &self.hidden))
            }
            _ => Cow::Borrowed(&self.live),
        };
        let mut sets: Vec<Cow<'_, RoaringBitmap>> = vec![visible];
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
                None => return None,
            }
        }
        // A set of addresses (a user's wallets) is the union of their bitmaps; addresses are
        // kept lower-case.
        for (bitmaps, wanted) in [(&self.owners, &request.owners), (&self.creators, &request.creators)] {
            if let Some(addresses) = wanted {
                let mut found = addresses.iter().filter_map(|address| bitmaps.get(&address.to_lowercase()));
                let set = match (found.next(), found.next()) {
                    (None, _) => return None,
                    (Some(only), None) => Cow::Borrowed(only),
                    (first, second) => Cow::Owned(first.into_iter().chain(second).chain(found).union()),
                };
                sets.push(set);
            }
        }
        if let Some(ids) = &request.within {
            sets.push(Cow::Owned(self.within_set(ids).as_ref().clone()));
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
        Some((sets, ended))
    }

    /// The tokens with any of `filter`'s values (none: an empty set).
    fn trait_set(&self, filter: &TraitFilter) -> Cow<'_, RoaringBitmap> {
        let Some(values) = self.traits.get(&filter.name) else {
            return Cow::Owned(RoaringBitmap::new());
        };
        let mut found = filter.values.iter().filter_map(|value| values.get(value));
        match (found.next(), found.next()) {
            (None, _) => Cow::Owned(RoaringBitmap::new()),
            (Some(only), None) => Cow::Borrowed(only),
            (first, second) => Cow::Owned(first.into_iter().chain(second).chain(found).union()),
        }
    }

    /// The intersection of `sets` (one at least), less the first `ended` auctions by end.
    fn intersect(&self, mut sets: Vec<Cow<'_, RoaringBitmap>>, ended: usize) -> RoaringBitmap {
        sets.sort_by_key(|set| set.len());
        let mut sets = sets.into_iter();
        let mut matches = sets.next().expect("live is always there").into_owned();
        for set in sets {
            matches &= set.as_ref();
        }
        for slot in &self.orders[ENDING][..ended] {
            matches.remove(*slot);
        }
        matches
    }

    /// `page` of `matches` by rarity in the request's collection: the rarest first unless
    /// ascending; tokens without a rank there last either way; then by id.
    fn by_rarity(&self, request: &Explore, matches: RoaringBitmap, page: Page) -> (Vec<String>, u64) {
        let total = matches.len();
        let ranks = request.collection.as_deref().map(|c| self.ranks(c)).unwrap_or_default();
        let id = |slot: u32| self.tokens[slot as usize].as_ref().map_or("", |t| t.nft_id.as_str());
        let mut all: Vec<(bool, u32, u32)> = matches
            .iter()
            .map(|slot| match ranks.get(&slot) {
                Some(r) if request.ascending => (false, u32::MAX - r.rank, slot),
                Some(r) => (false, r.rank, slot),
                None => (true, 0, slot),
            })
            .collect();
        all.sort_unstable_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then_with(|| id(a.2).cmp(id(b.2))));
        let ids = all
            .into_iter()
            .skip(page.offset().max(0) as usize)
            .take(page.limit as usize)
            .filter_map(|(_, _, slot)| self.tokens[slot as usize].as_ref().map(|t| t.nft_id.clone()))
            .collect();
        (ids, total)
    }

    /// The ranks of a collection's live members, by slot (computed once after each change).
    fn ranks(&self, collection: &str) -> Arc<HashMap<u32, Rank>> {
        let mut cache = self.rarity.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(ranks) = cache.get(collection) {
            return ranks.clone();
        }
        let members: Vec<(u32, Vec<(String, String)>)> = self
            .collections
            .get(collection)
            .map(|bitmap| {
                (bitmap & &self.live)
                    .iter()
                    .filter_map(|slot| self.tokens[slot as usize].as_ref().map(|t| (slot, rarity::first_per_name(&t.traits))))
                    .collect()
            })
            .unwrap_or_default();
        let traits: Vec<&[(String, String)]> = members.iter().map(|(_, t)| t.as_slice()).collect();
        let ranks: HashMap<u32, Rank> = members.iter().map(|(slot, _)| *slot).zip(rarity::rank(&traits)).collect();
        let ranks = Arc::new(ranks);
        cache.insert(collection.to_owned(), ranks.clone());
        ranks
    }

    /// The rarity of token `nft_id` in `collection`, or, without one, in the first of its
    /// collections (by id) where it has a rank: `(collection, rank, members ranked)`.
    fn rarity_of(&self, nft_id: &str, collection: Option<&str>) -> Option<(String, Rank, usize)> {
        let slot = *self.slots.get(nft_id)?;
        let token = self.tokens[slot as usize].as_ref()?;
        let mut candidates: Vec<&String> = match collection {
            Some(c) => token.collections.iter().filter(|m| *m == c).collect(),
            None => token.collections.iter().collect(),
        };
        candidates.sort();
        candidates.into_iter().find_map(|c| {
            let ranks = self.ranks(c);
            ranks.get(&slot).map(|rank| (c.clone(), *rank, ranks.len()))
        })
    }

    /// The facets of `request` at `now`: for each trait, the count of matches of each value
    /// with every filter applied but that trait's own (so choosing a value leaves its
    /// siblings' counts alone), the `per_trait` highest counts (the chosen values always),
    /// and the total of matches with every filter.
    fn facets(&self, request: &Explore, now: i64, per_trait: usize) -> Facets {
        let Some((sets, ended)) = self.base_sets(request, now) else {
            return Facets { total: 0, traits: Vec::new() };
        };
        let base = self.intersect(sets, ended);
        // The filters by name (a name given twice: either list's values).
        let filters = merged(&request.traits);
        let chosen: BTreeMap<&str, Vec<&str>> =
            filters.iter().map(|f| (f.name.as_str(), f.values.iter().map(String::as_str).collect())).collect();
        let wanted: BTreeMap<&str, RoaringBitmap> = filters.iter().map(|f| (f.name.as_str(), self.trait_set(f).into_owned())).collect();
        let all_but = |skip: Option<&str>| {
            let mut set = base.clone();
            for (name, bitmap) in &wanted {
                if Some(*name) != skip {
                    set &= bitmap;
                }
            }
            set
        };
        let matches = all_but(None);
        let mut traits = Vec::new();
        for (name, values) in &self.traits {
            let selected = chosen.get(name.as_str());
            let within = if selected.is_some() { Cow::Owned(all_but(Some(name))) } else { Cow::Borrowed(&matches) };
            let is_selected = |value: &str| selected.is_some_and(|s| s.contains(&value));
            let mut counts: Vec<(&str, u64)> = if values.len() as u64 <= within.len() {
                let mut counts: Vec<(&str, u64)> =
                    values.iter().map(|(value, bitmap)| (value.as_str(), bitmap.intersection_len(&within))).collect();
                // A chosen value no token has (a stale link) shows, with none, to be unchosen.
                counts.extend(selected.into_iter().flatten().filter(|v| !values.contains_key(**v)).map(|v| (*v, 0)));
                counts
            } else {
                // More values than matches (an edition number, a serial): count the matches'.
                let mut by_value: HashMap<&str, u64> = HashMap::new();
                for slot in within.iter() {
                    if let Some(token) = &self.tokens[slot as usize] {
                        for (_, value) in token.traits.iter().filter(|(n, _)| n == name) {
                            *by_value.entry(value.as_str()).or_default() += 1;
                        }
                    }
                }
                for value in selected.into_iter().flatten() {
                    by_value.entry(value).or_default();
                }
                by_value.into_iter().collect()
            };
            counts.retain(|(value, count)| *count > 0 || is_selected(value));
            if counts.is_empty() {
                continue;
            }
            counts.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            let distinct = counts.len();
            let mut shown: Vec<FacetValue> = Vec::with_capacity(per_trait.min(distinct));
            for (i, (value, count)) in counts.into_iter().enumerate() {
                let selected = is_selected(value);
                if i < per_trait || selected {
                    shown.push(FacetValue { value: value.to_owned(), count, selected });
                }
            }
            traits.push(Facet { name: name.clone(), values: shown, distinct });
        }
        Facets { total: matches.len(), traits }
    }

    /// The ids of `page` of the tokens `request` matches at time `now` (Unix seconds), in its
    /// order, and how many match.
    fn find(&self, request: &Explore, page: Page, now: i64) -> (Vec<String>, u64) {
        let key = request.sort_by;
        let Some((mut sets, ended)) = self.base_sets(request, now) else {
            return (Vec::new(), 0);
        };
        for filter in merged(&request.traits) {
            sets.push(Cow::Owned(self.trait_set(&filter).into_owned()));
        }
        let matches = self.intersect(sets, ended);

        if key == SortBy::Rarity {
            return self.by_rarity(request, matches, page);
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
    /// all descending, and how many there are. The scored tokens are sorted once for these scores
    /// and this state of the index ([`Index::trending_order`]), each page then walks that order;
    /// the others are read off the [`TRENDING`] order, which already ranks them.
    fn trending(&self, sale: Option<&str>, scores: &Arc<Scores>, page: Page) -> (Vec<String>, u64) {
        let mut matches = self.live.clone();
        if let Some(sale) = sale {
            matches &= &self.sales[sale_index(sale)];
        }
        let total = matches.len();
        let order = self.trending_order(scores);
        let (offset, limit) = (page.offset().max(0) as usize, page.limit as usize);
        let mut slots: Vec<u32> = order.slots.iter().copied().filter(|slot| matches.contains(*slot)).skip(offset).take(limit).collect();
        if slots.len() < limit {
            let scored_matches = order.scored.intersection_len(&matches) as usize;
            matches -= &order.scored;
            let (skip, take) = (offset.saturating_sub(scored_matches), limit - slots.len());
            slots.extend(self.orders[TRENDING].iter().rev().filter(|slot| matches.contains(**slot)).skip(skip).take(take));
        }
        let ids = slots.into_iter().filter_map(|slot| self.tokens[slot as usize].as_ref().map(|t| t.nft_id.clone())).collect();
        (ids, total)
    }

    /// The slots of the tokens `ids`: made once per list while the index stays the same (a
    /// user's 20,000 bookmarks are 20,000 look-ups), for the lists last asked.
    fn within_set(&self, ids: &Arc<[String]>) -> Arc<RoaringBitmap> {
        let key = Arc::as_ptr(ids) as *const String as usize;
        let mut kept = self.within.lock().unwrap_or_else(|e| e.into_inner());
        // The list is kept beside its set, so its address names no other list meanwhile.
        if let Some((_, set)) = kept.get(&key).filter(|(list, _)| Arc::ptr_eq(list, ids)) {
            return set.clone();
        }
        let set: Arc<RoaringBitmap> = Arc::new(ids.iter().filter_map(|id| self.slots.get(id).copied()).collect());
        if kept.len() >= KEPT_LISTS {
            kept.clear();
        }
        kept.insert(key, (ids.clone(), set.clone()));
        set
    }

    /// The tokens with a positive score in `scores`, highest first (ties in the [`TRENDING`]
    /// order), sorted when first asked for these scores since the index last changed.
    fn trending_order(&self, scores: &Arc<Scores>) -> Arc<TrendingOrder> {
        let mut kept = self.trending.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(order) = kept.as_ref().filter(|o| Arc::ptr_eq(&o.scores, scores)) {
            return order.clone();
        }
        let mut scored: Vec<(f64, u32)> = scores
            .nfts
            .iter()
            .filter(|(_, score)| **score > 0.0)
            .filter_map(|(id, score)| self.slots.get(id).map(|slot| (*score, *slot)))
            .collect();
        scored.sort_unstable_by(|a, b| {
            b.0.partial_cmp(&a.0).unwrap_or(Ordering::Equal).then_with(|| compare_in(&self.tokens, TRENDING, b.1, a.1))
        });
        let slots: Vec<u32> = scored.into_iter().map(|(_, slot)| slot).collect();
        let order = Arc::new(TrendingOrder { scores: scores.clone(), scored: slots.iter().copied().collect(), slots });
        *kept = Some(order.clone());
        order
    }
}

/// The filters by trait name, each name once with the values of every filter on it (a name
/// given twice wants any of both lists' values), in name order.
fn merged(filters: &[TraitFilter]) -> Vec<TraitFilter> {
    let mut by_name: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for filter in filters {
        let values = by_name.entry(filter.name.as_str()).or_default();
        for value in &filter.values {
            if !values.contains(value) {
                values.push(value.clone());
            }
        }
    }
    by_name.into_iter().map(|(name, values)| TraitFilter { name: name.to_owned(), values }).collect()
}

/// Takes `slot` out of the bitmap of `key` in a sorted map, dropping the bitmap once empty.
fn unset_in(bitmaps: &mut BTreeMap<String, RoaringBitmap>, key: &str, slot: u32) {
    if let Some(bitmap) = bitmaps.get_mut(key) {
        bitmap.remove(slot);
        if bitmap.is_empty() {
            bitmaps.remove(key);
        }
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

/// The facets of a browse request: its traits' values with their counts.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Facets {
    /// Tokens matching every filter.
    pub total: u64,
    /// The traits with a value among the tokens the other filters keep, by name.
    pub traits: Vec<Facet>,
}

/// One trait's values.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Facet {
    /// The property key.
    pub name: String,
    /// The values with the most matches (most first, then by value), and the chosen ones.
    pub values: Vec<FacetValue>,
    /// How many values have matches (or are chosen): more than `values` holds when cut.
    pub distinct: usize,
}

/// A trait value and how many tokens would match with it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FacetValue {
    /// The value.
    pub value: String,
    /// Tokens with this value that every other trait's filter and the request's other filters
    /// keep.
    pub count: u64,
    /// Whether the request filters by it.
    pub selected: bool,
}

/// The browse index of a [`crate::ReadDb`], shared by its clones.
#[derive(Default)]
pub(crate) struct BrowseIndex {
    index: RwLock<Index>,
    /// One catch-up at a time: the others wait for it and then find the index current.
    catching_up: Mutex<()>,
    /// The trending scores last computed (`queries::trending::recent_scores`): held while they
    /// are computed, so concurrent requests wait for one computation.
    pub(crate) trending_scores: Mutex<Option<super::kept::Kept<Arc<super::scores::Scored>>>>,
    /// Users' bookmarks as browsing last read them, by user (`queries::social::bookmarked`).
    pub(crate) bookmarks: std::sync::Mutex<HashMap<String, super::kept::Kept<Arc<[String]>>>>,
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

    /// [`Index::facets`] from read tables of `generation` (behind `pool`) that include
    /// position `at` at least.
    pub(crate) async fn facets(
        &self,
        generation: &str,
        pool: &AnyPool,
        request: &Explore,
        per_trait: usize,
        at: Position,
    ) -> Result<Facets, sqlx::Error> {
        self.cover(generation, pool, at).await?;
        Ok(self.read().facets(request, chrono::Utc::now().timestamp(), per_trait))
    }

    /// The rarity of each of these tokens in `collection` (or, without one, in the first of its
    /// collections where it is ranked), as the index stands: call it after [`Self::find`].
    pub(crate) fn rarity(&self, nft_ids: &[&str], collection: Option<&str>) -> HashMap<String, (String, Rank, usize)> {
        let index = self.read();
        nft_ids.iter().filter_map(|id| index.rarity_of(id, collection).map(|r| ((*id).to_owned(), r))).collect()
    }

    /// A token's rarity in each of its collections where it is ranked, by collection id, as
    /// the index stands.
    pub(crate) fn rarities(&self, nft_id: &str) -> Vec<(String, Rank, usize)> {
        let index = self.read();
        let Some(token) = index.slots.get(nft_id).and_then(|slot| index.tokens[*slot as usize].as_ref()) else {
            return Vec::new();
        };
        let mut collections = token.collections.clone();
        collections.sort();
        collections.into_iter().filter_map(|c| index.rarity_of(nft_id, Some(&c))).collect()
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
        scores: &Arc<Scores>,
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
                 LEFT JOIN nft_details d ON d.nft_id = c.nft_id {} WHERE c.position > $1",
                moderated_join("c.nft_id")
            );
            let rows = sqlx::query(&sql).bind(since).fetch_all(pool).await?;
            let mut changes = rows.iter().map(|row| Ok((row.try_get(0)?, token(row, 1)?))).collect::<Result<Vec<_>, sqlx::Error>>()?;
            let members = memberships(
                pool,
                "SELECT cn.nft_id, cn.collection_id FROM collection_nfts cn JOIN nft_changes c ON c.nft_id = cn.nft_id WHERE c.position > $1",
                Some(since),
            )
            .await?;
            for (_, token) in &mut changes {
                if let Some(token) = token {
                    token.collections = members.get(&token.nft_id).cloned().unwrap_or_default();
                }
            }
            let mut index = self.index.write().unwrap_or_else(|e| e.into_inner());
            index.apply(changes);
            index.position = position;
        } else {
            let sql = format!("SELECT {COLUMNS} FROM nfts n LEFT JOIN nft_details d ON d.nft_id = n.nft_id {}", moderated_join("n.nft_id"));
            let rows = sqlx::query(&sql).fetch_all(pool).await?;
            let mut tokens = rows.iter().filter_map(|row| token(row, 0).transpose()).collect::<Result<Vec<_>, _>>()?;
            let mut members = memberships(pool, "SELECT nft_id, collection_id FROM collection_nfts", None).await?;
            for token in &mut tokens {
                token.collections = members.remove(&token.nft_id).unwrap_or_default();
            }
            let index = Index::built(generation, position, tokens);
            *self.index.write().unwrap_or_else(|e| e.into_inner()) = index;
        }
        Ok(())
    }
}

/// The collections of tokens, from `sql` (rows `(nft_id, collection_id)`, `since` bound as $1
/// when given).
async fn memberships(pool: &AnyPool, sql: &str, since: Option<i64>) -> Result<HashMap<String, Vec<String>>, sqlx::Error> {
    let mut query = sqlx::query(sql);
    if let Some(since) = since {
        query = query.bind(since);
    }
    let mut members: HashMap<String, Vec<String>> = HashMap::new();
    for row in query.fetch_all(pool).await? {
        members.entry(row.try_get(0)?).or_default().push(row.try_get(1)?);
    }
    Ok(members)
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
            hidden: false,
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
            traits: Vec::new(),
            collections: Vec::new(),
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
                    && has_traits(t, &request.traits, None)
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

    /// Whether `t` has, for each trait filtered but `skip`, one of the values any filter on
    /// that trait names.
    fn has_traits(t: &Token, filters: &[TraitFilter], skip: Option<&str>) -> bool {
        filters.iter().filter(|f| Some(f.name.as_str()) != skip).all(|f| {
            t.traits.iter().any(|(name, value)| *name == f.name && filters.iter().any(|g| g.name == f.name && g.values.contains(value)))
        })
    }

    /// A seeded generator (splitmix64): random data that is the same on every run.
    struct Random(u64);

    impl Random {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Trait names and how many values each takes: few (bitmap per value counted) and many (a
    /// serial: the matches' own values counted).
    const TRAITS: [(&str, usize); 4] = [("Background", 5), ("Eyes", 4), ("Hat", 12), ("Serial", 1_000)];

    /// `n` tokens with random traits (each trait on about 3 in 4, a second value sometimes) and
    /// random memberships of three collections.
    fn random_tokens(random: &mut Random, n: u32) -> Vec<Token> {
        sample(n)
            .into_iter()
            .map(|mut t| {
                for (name, values) in TRAITS {
                    if random.below(4) > 0 {
                        t.traits.push((name.into(), format!("{name} {}", random.below(values))));
                        if random.below(10) == 0 {
                            let second = (name.to_owned(), format!("{name} {}", random.below(values)));
                            if !t.traits.contains(&second) {
                                t.traits.push(second);
                            }
                        }
                    }
                }
                for c in ["c1", "c2", "c3"] {
                    if random.below(3) == 0 {
                        t.collections.push(c.into());
                    }
                }
                t.burned = random.below(20) == 0;
                t
            })
            .collect()
    }

    /// A random browse request with zero to three trait filters of one to three values (now
    /// and then a value no token has).
    fn random_request(random: &mut Random) -> Explore {
        let sale = [SaleFilter::All, SaleFilter::FixedPrice, SaleFilter::Auction, SaleFilter::LiveAuction][random.below(4)];
        let search = [None, None, Some("tiger"), Some("caf")][random.below(4)];
        let mut request = request(sale, KEYS[random.below(KEYS.len())], random.below(2) == 0, search);
        if random.below(4) == 0 {
            request.category = Some("art".into());
        }
        for _ in 0..random.below(4) {
            let (name, values) = TRAITS[random.below(3)];
            let wanted = (0..1 + random.below(3)).map(|_| format!("{name} {}", random.below(values + 1))).collect();
            request.traits.push(TraitFilter { name: name.into(), values: wanted });
        }
        request
    }

    /// The facets by brute force: every trait of every token, every value counted over the
    /// tokens that every filter but that trait's own keeps.
    fn naive_facets(index: &Index, request: &Explore) -> Facets {
        let without_traits = Explore { traits: Vec::new(), ..request.clone() };
        let all = Page { page: 1, limit: u32::MAX };
        let (base, _) = naive(index, &without_traits, all);
        let base: Vec<&Token> = base.iter().map(|id| index.tokens[index.slots[id] as usize].as_ref().unwrap()).collect();
        let total = base.iter().filter(|t| has_traits(t, &request.traits, None)).count() as u64;
        let mut names: Vec<&str> = index.tokens.iter().flatten().flat_map(|t| t.traits.iter().map(|(n, _)| n.as_str())).collect();
        names.sort_unstable();
        names.dedup();
        let mut traits = Vec::new();
        for name in names {
            let chosen: Vec<&String> = request.traits.iter().filter(|f| f.name == name).flat_map(|f| &f.values).collect();
            let mut counts: BTreeMap<String, u64> = BTreeMap::new();
            for t in base.iter().filter(|t| has_traits(t, &request.traits, Some(name))) {
                for (_, value) in t.traits.iter().filter(|(n, _)| n == name) {
                    *counts.entry(value.clone()).or_default() += 1;
                }
            }
            for value in &chosen {
                counts.entry((*value).clone()).or_default();
            }
            if counts.is_empty() {
                continue;
            }
            let mut values: Vec<FacetValue> =
                counts.into_iter().map(|(value, count)| FacetValue { selected: chosen.contains(&&value), value, count }).collect();
            values.sort_by(|a, b| b.count.cmp(&a.count).then(a.value.cmp(&b.value)));
            traits.push(Facet { name: name.into(), distinct: values.len(), values });
        }
        Facets { total, traits }
    }

    #[test]
    fn trait_filters_and_facet_counts_equal_a_brute_force_count_on_random_data() {
        let mut random = Random(19);
        let mut index = Index::built("g", 1, random_tokens(&mut random, 600));
        for round in 0..300 {
            if round == 150 {
                // Half-way, change a third of the tokens: the index must follow.
                let changes = random_tokens(&mut random, 200).into_iter().map(|t| (t.nft_id.clone(), Some(t))).collect();
                index.apply(changes);
            }
            let request = random_request(&mut random);
            let expected = naive_facets(&index, &request);
            assert_eq!(index.facets(&request, NOW, usize::MAX), expected, "{request:?}");
            let page = Page { page: 1 + random.below(3) as u32, limit: 9 };
            let (ids, total) = index.find(&request, page, NOW);
            assert_eq!((ids.clone(), total), naive(&index, &request, page), "{request:?}");
            assert_eq!(total, expected.total);
        }
    }

    #[test]
    fn facets_show_the_top_values_and_always_the_chosen_ones() {
        let mut random = Random(7);
        let index = Index::built("g", 1, random_tokens(&mut random, 600));
        let mut request = request(SaleFilter::All, SortBy::Date, false, None);
        let full = index.facets(&request, NOW, usize::MAX);
        let hats = full.traits.iter().find(|f| f.name == "Hat").unwrap();
        let rarest = hats.values.last().unwrap().value.clone();
        request.traits.push(TraitFilter { name: "Hat".into(), values: vec![rarest.clone()] });
        let cut = index.facets(&request, NOW, 3);
        let hat = cut.traits.iter().find(|f| f.name == "Hat").unwrap();
        assert_eq!(hat.distinct, hats.distinct, "the count of values is not cut");
        assert_eq!(hat.values.len(), 4, "the top three and the chosen one");
        assert_eq!(&hat.values[..3], &hats.values[..3], "a trait's own choice leaves its counts alone");
        assert!(hat.values[3].selected && hat.values[3].value == rarest);
        let serial = cut.traits.iter().find(|f| f.name == "Serial").unwrap();
        assert!(serial.values.len() <= 3 && serial.values.iter().all(|v| v.count > 0));
    }

    #[test]
    fn rarity_ranks_a_collections_live_members_and_sorts_by_them() {
        let mut random = Random(3);
        let tokens = random_tokens(&mut random, 300);
        let index = Index::built("g", 1, tokens.clone());
        let members: Vec<&Token> = tokens.iter().filter(|t| !t.burned && t.collections.contains(&"c2".to_owned())).collect();
        let traits: Vec<Vec<(String, String)>> = members.iter().map(|t| rarity::first_per_name(&t.traits)).collect();
        let borrowed: Vec<&[(String, String)]> = traits.iter().map(Vec::as_slice).collect();
        let expected = rarity::rank(&borrowed);
        for (token, rank) in members.iter().zip(&expected) {
            let (collection, got, of) = index.rarity_of(&token.nft_id, Some("c2")).unwrap();
            assert_eq!((collection.as_str(), got, of), ("c2", *rank, members.len()));
        }
        let mut sorted: Vec<(u32, &str)> = members.iter().zip(&expected).map(|(t, r)| (r.rank, t.nft_id.as_str())).collect();
        sorted.sort();
        let within: Vec<String> = members.iter().map(|t| t.nft_id.clone()).collect();
        let by_rarity =
            Explore { within: Some(within.into()), collection: Some("c2".into()), ..request(SaleFilter::All, SortBy::Rarity, false, None) };
        let (ids, total) = index.find(&by_rarity, Page { page: 2, limit: 7 }, NOW);
        assert_eq!(total, members.len() as u64);
        assert_eq!(ids, sorted.iter().skip(7).take(7).map(|(_, id)| id.to_string()).collect::<Vec<_>>());
        let (common_first, _) = index.find(&Explore { ascending: true, ..by_rarity }, Page { page: 1, limit: 500 }, NOW);
        let ranks: Vec<u32> = common_first.iter().map(|id| index.rarity_of(id, Some("c2")).unwrap().1.rank).collect();
        assert!(ranks.windows(2).all(|w| w[0] >= w[1]), "the most common first");
    }

    #[test]
    fn a_members_change_moves_the_ranks() {
        let mut tokens = sample(4);
        for (i, t) in tokens.iter_mut().enumerate() {
            t.collections = vec!["c".into()];
            t.traits = vec![("Colour".into(), if i < 2 { "red".into() } else { format!("blue {i}") })];
        }
        let mut index = Index::built("g", 1, tokens.clone());
        let rank = |index: &Index, id: &str| index.rarity_of(id, None).map(|(_, r, of)| (r.rank, of));
        assert_eq!(rank(&index, "1-000"), Some((3, 4)), "red is the commonest");
        // Token 2 turns red; token 3 is burned; token 1 leaves the collection.
        let mut changed = tokens.clone();
        changed[2].traits = vec![("Colour".into(), "red".into())];
        changed[3].burned = true;
        changed[1].collections.clear();
        index.apply(changed.into_iter().skip(1).map(|t| (t.nft_id.clone(), Some(t))).collect());
        assert_eq!(rank(&index, "1-000"), Some((1, 2)), "two members left, both red");
        assert_eq!(rank(&index, "1-001"), None);
        assert_eq!(rank(&index, "1-003"), None);
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

    /// The titles a search for `term` finds among `titles`.
    fn found<'t>(titles: &[&'t str], term: &str) -> Vec<&'t str> {
        let tokens: Vec<Token> = titles.iter().enumerate().map(|(i, title)| token(i as u32, 1, 1, title)).collect();
        let index = Index::built("g", 1, tokens);
        let (ids, _) = index.find(&request(SaleFilter::All, SortBy::Date, true, Some(term)), Page { page: 1, limit: 50 }, NOW);
        ids.iter().map(|id| titles[id[2..].parse::<usize>().unwrap()]).collect()
    }

    #[test]
    fn english_search_folds_case_only_where_there_is_nothing_else() {
        let titles = ["Golden Tiger", "golden hour", "Gold Rush", "Goldfinch"];
        assert_eq!(found(&titles, "GOLDEN"), ["Golden Tiger", "golden hour"]);
        assert_eq!(found(&titles, "gold"), titles);
        assert_eq!(words("Naïve résumé"), ["naive", "resume"]);
    }

    #[test]
    fn french_search_folds_accents() {
        let titles = ["Café crème", "Crémerie du coin", "Été indien", "Cafard"];
        assert_eq!(found(&titles, "creme"), ["Café crème", "Crémerie du coin"]);
        assert_eq!(found(&titles, "ÉTÉ"), ["Été indien"]);
        assert_eq!(found(&titles, "café"), ["Café crème"]);
    }

    #[test]
    fn portuguese_search_folds_accents_and_the_cedilla() {
        let titles = ["Coração de São Paulo", "Coracão", "Ação rápida", "Acaso"];
        assert_eq!(found(&titles, "coracao"), ["Coração de São Paulo", "Coracão"]);
        assert_eq!(found(&titles, "acao"), ["Ação rápida"]);
        assert_eq!(found(&titles, "sao"), ["Coração de São Paulo"]);
    }

    #[test]
    fn german_search_folds_umlauts() {
        let titles = ["Über den Wolken", "Überraschung", "Uber alles", "Größe"];
        assert_eq!(found(&titles, "über"), ["Über den Wolken", "Überraschung", "Uber alles"]);
        assert_eq!(found(&titles, "grosse"), Vec::<&str>::new(), "ß is no accent");
        assert_eq!(found(&titles, "größe"), ["Größe"]);
        assert_eq!(found(&titles, "große"), ["Größe"]);
    }

    #[test]
    fn hindi_vowel_signs_and_viramas_stay_part_of_the_word() {
        // kamal (lotus), kamaal (wonder), kaam (work), hindi: without the vowel signs the first
        // two are one word.
        let titles = ["कमल का फूल", "कमाल की बात", "काम", "हिन्दी"];
        assert_eq!(found(&titles, "कमल"), ["कमल का फूल"]);
        assert_eq!(found(&titles, "कमाल"), ["कमाल की बात"]);
        assert_eq!(found(&titles, "का"), ["कमल का फूल", "काम"]);
        assert_eq!(words("हिन्दी"), ["हिन्दी"], "the virama does not split the word");
        assert_eq!(found(&titles, "हिन्"), ["हिन्दी"]);
    }

    #[test]
    fn bengali_vowel_signs_stay_part_of_the_word() {
        // kal (tomorrow) and kol (tap); bon (forest) and baan (flood); the sign o (U+09CB) is
        // the same letter written decomposed.
        let titles = ["কাল সকালে", "কল", "বন", "বান", "বোন"];
        assert_eq!(found(&titles, "কাল"), ["কাল সকালে"]);
        assert_eq!(found(&titles, "কল"), ["কল"]);
        assert_eq!(found(&titles, "বন"), ["বন"]);
        assert_eq!(found(&titles, "বো"), ["বোন"]);
        assert_eq!(found(&titles, "\u{9AC}\u{9C7}\u{9BE}\u{9A8}"), ["বোন"], "decomposed o finds the composed one");
    }

    #[test]
    fn tamil_vowel_signs_and_the_pulli_stay_part_of_the_word() {
        // kal (stone) and kaal (leg); padam (picture) and paadam (lesson).
        let titles = ["கல்", "கால்", "படம்", "பாடம்"];
        assert_eq!(found(&titles, "கல்"), ["கல்"]);
        assert_eq!(found(&titles, "கால்"), ["கால்"]);
        assert_eq!(found(&titles, "படம்"), ["படம்"]);
        assert_eq!(found(&titles, "பா"), ["பாடம்"]);
    }

    #[test]
    fn greek_and_cyrillic_accents_fold_too() {
        assert_eq!(words("Ἀθῆναι Ёлка"), ["αθηναι", "елка"]);
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
        let ids: Option<Arc<[String]>> = Some((0..300).step_by(7).map(|i| format!("1-{i:03}")).chain(["1-none".into()]).collect());
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
            Explore { within: Some(Arc::from(Vec::new())), ..request(SaleFilter::All, SortBy::Date, false, None) },
        ] {
            assert_eq!(index.find(&empty, Page { page: 1, limit: 9 }, NOW), (vec![], 0), "{empty:?}");
        }
        let counted = Explore { owners: owners(&["0xowner1", "0xowner3"]), ..request(SaleFilter::All, SortBy::Date, false, None) };
        assert_eq!(index.find(&counted, Page { page: 1, limit: 0 }, NOW), (vec![], 150), "a count alone reads no page");

        // The set kept for a list follows the index: a listed token gone, its slot taken by
        // another, and a listed id that was not there minted.
        let mut index = index;
        let listed: Arc<[String]> = Arc::from(vec!["1-007".to_owned(), "1-014".to_owned(), "1-later".to_owned()]);
        let within = Explore { within: Some(listed), ..request(SaleFilter::All, SortBy::Date, false, None) };
        let page = Page { page: 1, limit: 9 };
        assert_eq!(index.find(&within, page, NOW).1, 2);
        index.apply(vec![
            ("1-007".into(), None),
            ("1-other".into(), Some(Token { nft_id: "1-other".into(), ..token(997, 1, 5, "other") })),
            ("1-later".into(), Some(Token { nft_id: "1-later".into(), ..token(998, 1, 5, "later") })),
        ]);
        assert_eq!(index.find(&within, page, NOW), naive(&index, &within, page));
        assert_eq!(index.find(&within, page, NOW).1, 2, "1-014 and 1-later");
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
        let mut index = Index::built("g", 1, tokens);
        // Scores for 40 tokens, some equal, one not positive, one for a token that is not there.
        let mut scores: HashMap<String, f64> = (0..40u32).map(|i| (format!("1-{:03}", i * 7), f64::from(i % 9) + 0.5)).collect();
        scores.insert("1-014".into(), 0.0);
        scores.insert("1-nothing".into(), 99.0);
        let kept = Arc::new(Scores { nfts: scores.clone(), ..Scores::default() });
        let check = |index: &Index| {
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
                        assert_eq!(index.trending(sale, &kept, page), (expected, all.len() as u64), "{sale:?} {page:?}");
                    }
                }
            }
        };
        check(&index);
        // A change moves tokens in the order kept for these scores: it is sorted again. Two
        // scored tokens of equal score swap by popularity; an unscored one passes the others.
        let mut changed: Vec<(String, Option<Token>)> = Vec::new();
        for (id, popularity) in [("1-070", 1_000), ("1-133", 2_000), ("1-005", 3_000)] {
            let mut token = index.tokens.iter().flatten().find(|t| t.nft_id == id).unwrap().clone();
            token.popularity = popularity;
            changed.push((id.to_owned(), Some(token)));
        }
        index.apply(changed);
        check(&index);
    }
}
