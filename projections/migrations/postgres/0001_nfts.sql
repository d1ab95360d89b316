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
    mint_tx         TEXT NOT NULL
);
CREATE INDEX nfts_sale_price ON nfts (sale_type, price_key);
CREATE INDEX nfts_sale_minted ON nfts (sale_type, minted_at);
CREATE INDEX nfts_owner ON nfts (owner);
CREATE INDEX nfts_creator ON nfts (creator);

-- Events a reorg retracted: folds skip them when a stream is rebuilt.
CREATE TABLE retracted_events (
    event_id TEXT PRIMARY KEY
);
