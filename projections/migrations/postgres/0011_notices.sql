-- Notices (issue 21): the chain's facts addressed to the wallets they concern (an outbid bidder,
-- the owner a bid or an offer reached, a seller, a buyer...), one row per notice, keyed by the
-- log position of the fact and the wallet told. Whom a wallet's notices reach is read at query
-- time through `user_wallets`. Written by projections/src/notices.rs.
CREATE TABLE notices (
    position    BIGINT NOT NULL,
    recipient   TEXT NOT NULL,          -- lower-case 0x hex
    kind        TEXT NOT NULL,          -- OUTBID | BID_RECEIVED | SOLD | BOUGHT | BID_ACCEPTED | ...
    nft_id      TEXT NOT NULL,          -- "{chain}-{token}"
    amount      TEXT NOT NULL,          -- wei ("0" when none)
    counterpart TEXT,                   -- the other wallet (the new top bidder, the buyer...)
    tx_hash     TEXT NOT NULL,
    at          BIGINT NOT NULL,        -- block time, Unix seconds
    PRIMARY KEY (position, recipient)
);
CREATE INDEX notices_recipient ON notices (recipient, position);

-- What deciding a notice needs to know of each token, kept by the same model so it never reads
-- another model's tables: its owner, the auction's top bid (bidder and transaction: a refund in
-- that transaction is an outbid) and who was just told they won it (not told again they bought).
CREATE TABLE notice_tokens (
    nft_id     TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    bidder     TEXT,
    bid_tx     TEXT,
    told_buyer TEXT
);

-- A user's reads: every notice up to `read_up_to`, and single ones after it.
CREATE TABLE notice_reads (
    user_id    TEXT PRIMARY KEY,
    read_up_to BIGINT NOT NULL
);
CREATE TABLE notice_read (
    user_id  TEXT NOT NULL,
    position BIGINT NOT NULL,
    PRIMARY KEY (user_id, position)
);

-- A user's settings: kinds not shown, kinds also e-mailed (comma-separated, sorted).
CREATE TABLE notice_settings (
    user_id TEXT PRIMARY KEY,
    muted   TEXT NOT NULL,
    email   TEXT NOT NULL
);
