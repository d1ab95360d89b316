-- Offers on NFTs (issue 20): one row per offer, keyed by the log position of the `OfferMade`
-- that opened it. A replacement (the same offerer's new `OfferMade` while one is live) changes
-- the live row's amount and expiry; the offer closes as ACCEPTED, REJECTED or CANCELLED. EXPIRED
-- is no stored state: an ACTIVE offer whose expiry has passed reads as EXPIRED (the contract
-- refuses to accept it from that second on; its offerer can still cancel it).
CREATE TABLE offers (
    position   BIGINT PRIMARY KEY,
    nft_id     TEXT NOT NULL,           -- "{chain}-{token}"
    offerer    TEXT NOT NULL,           -- lower-case 0x hex
    amount     TEXT NOT NULL,           -- wei, escrowed
    expires_at BIGINT NOT NULL,         -- Unix seconds
    fee_bps    BIGINT NOT NULL,         -- the service fee its sale pays
    state      TEXT NOT NULL,           -- ACTIVE | ACCEPTED | REJECTED | CANCELLED
    replaced   BIGINT NOT NULL,         -- how many times the offerer replaced it
    seller     TEXT,                    -- who accepted it
    made_at    BIGINT NOT NULL,         -- block times, Unix seconds
    updated_at BIGINT NOT NULL,
    closed_at  BIGINT,
    made_tx    TEXT NOT NULL,
    last_tx    TEXT NOT NULL            -- the transaction of its latest change
);
CREATE INDEX offers_nft ON offers (nft_id, position);
CREATE INDEX offers_offerer ON offers (offerer, position);
