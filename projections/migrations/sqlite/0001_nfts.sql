-- Where the projector is: advanced in the same transaction as the rows it changed.
CREATE TABLE projector_checkpoint (
    name     TEXT PRIMARY KEY,
    position BIGINT NOT NULL
);

-- One row per token, folded from its `nft-{chain}-{token}` stream.
CREATE TABLE nfts (
    nft_id          TEXT PRIMARY KEY,   -- "{chain}-{token}": the public id
    chain_id        BIGINT NOT NULL,
    token_id        TEXT NOT NULL,
    token_uri       TEXT NOT NULL,
    creator         TEXT NOT NULL,      -- addresses, lower-case
    owner           TEXT NOT NULL,
    previous_owner  TEXT,
    sale_type       TEXT NOT NULL,      -- NOT_FOR_SALE | FIXEDPRICE | AUCTION
    price           TEXT NOT NULL,      -- wei
    price_key       TEXT NOT NULL,      -- wei left-padded to 78 digits: exact ordering as text
    base_price      TEXT NOT NULL,
    end_time        BIGINT NOT NULL,
    auction_id      TEXT NOT NULL,
    highest_bid     TEXT NOT NULL,
    highest_bidder  TEXT,
    royalties       TEXT NOT NULL,      -- JSON [{receiver, bps}]
    transfers       BIGINT NOT NULL,
    burned          BIGINT NOT NULL,    -- 0 or 1 (portable across the Any driver)
    minted_at       BIGINT NOT NULL,    -- block time, Unix seconds
    updated_at      BIGINT NOT NULL,
    mint_tx         TEXT NOT NULL,
    bid_count       BIGINT NOT NULL DEFAULT 0,
    sales           BIGINT NOT NULL DEFAULT 0,
    total_likes     BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX nfts_sale_price ON nfts (sale_type, price_key);
CREATE INDEX nfts_sale_minted ON nfts (sale_type, minted_at);
CREATE INDEX nfts_owner ON nfts (owner);
CREATE INDEX nfts_creator ON nfts (creator);

-- Events a reorg retracted: folds skip them when a stream is rebuilt.
CREATE TABLE retracted_events (
    event_id TEXT PRIMARY KEY
);

-- What the creator wrote about a token (off-chain, from `nft-details-*` streams).
CREATE TABLE nft_details (
    nft_id          TEXT PRIMARY KEY,
    title           TEXT NOT NULL,
    description     TEXT NOT NULL,
    category_id     TEXT NOT NULL,
    file            TEXT NOT NULL,
    metadata_url    TEXT NOT NULL,
    properties      TEXT NOT NULL,      -- JSON [{key, value}]
    creator_user_id TEXT
);
CREATE INDEX nft_details_category ON nft_details (category_id);
-- Full-text search over title and description (FTS5; kept in step with nft_details).
CREATE VIRTUAL TABLE nft_search USING fts5(nft_id UNINDEXED, title, description, tokenize = 'unicode61 remove_diacritics 2');

CREATE TABLE categories (
    id       TEXT PRIMARY KEY,
    name     TEXT NOT NULL,
    position BIGINT NOT NULL            -- display order: the order they were added
);

-- One row per auction a token has been in.
CREATE TABLE auctions (
    nft_id        TEXT NOT NULL,
    auction_id    TEXT NOT NULL,
    start_price   TEXT NOT NULL,
    buy_now_price TEXT NOT NULL,
    end_time      BIGINT NOT NULL,
    highest_bid   TEXT NOT NULL,
    winner        TEXT,
    ended         BIGINT NOT NULL,      -- 0 or 1
    started_at    BIGINT NOT NULL,
    PRIMARY KEY (nft_id, auction_id)
);

-- Rows derived from one event are keyed by its log position: unique, ordered, and the same
-- again when a stream is refolded after a reorg. (INTEGER PRIMARY KEY: in SQLite the position
-- is then the row id itself, one b-tree less to write per row.)
CREATE TABLE bids (
    position   INTEGER PRIMARY KEY,
    nft_id     TEXT NOT NULL,
    auction_id TEXT NOT NULL,
    bidder     TEXT NOT NULL,
    amount     TEXT NOT NULL,
    tx_hash    TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    status     TEXT NOT NULL            -- BID | ALLOTED | REFUNDED
);
CREATE INDEX bids_nft_auction ON bids (nft_id, auction_id, position);
CREATE INDEX bids_bidder ON bids (bidder, position);

CREATE TABLE nft_history (
    position      INTEGER PRIMARY KEY,
    nft_id        TEXT NOT NULL,
    type_of_event TEXT NOT NULL,        -- MINTED, PUT_ON_AUCTION, PUT_ON_FIXEDSALE, REMOVED_FROM_SALE, BIDDED_FOR, PURCHASED, WON_AUCTION, TRANSFERRED, BURNED
    address       TEXT NOT NULL,        -- who did it
    tx_hash       TEXT NOT NULL,
    at            BIGINT NOT NULL
);
CREATE INDEX nft_history_nft ON nft_history (nft_id, position);

CREATE TABLE owner_history (
    position INTEGER PRIMARY KEY,
    nft_id   TEXT NOT NULL,
    owner    TEXT NOT NULL,
    tx_hash  TEXT NOT NULL,
    at       BIGINT NOT NULL
);
CREATE INDEX owner_history_nft ON owner_history (nft_id, position);

CREATE TABLE sales (
    position   INTEGER PRIMARY KEY,
    nft_id     TEXT NOT NULL,
    auction_id TEXT NOT NULL,
    seller     TEXT NOT NULL,
    buyer      TEXT NOT NULL,
    price      TEXT NOT NULL,
    fee        TEXT NOT NULL,
    royalties  TEXT NOT NULL,
    at         BIGINT NOT NULL
);
CREATE INDEX sales_nft ON sales (nft_id);
CREATE INDEX sales_seller ON sales (seller);
