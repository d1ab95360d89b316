-- Metadata of tokens minted elsewhere (`nft-metadata-*` streams, see domain/src/metadata.rs).
--
-- Who wrote a token's details: 'creator' (the record-mint call, `NftDetailsRecorded`) or
-- 'metadata' (read from its token URI). The creator's own details win: metadata never
-- overwrites a 'creator' row, and the creator's details overwrite a 'metadata' one.
ALTER TABLE nft_details ADD COLUMN source TEXT NOT NULL DEFAULT 'creator';

-- Each minted token's metadata fetch: PENDING (to read; after a refresh too), RETRYING (failed,
-- `next_attempt_at` is due), FETCHED or FAILED (given up: `reason`).
CREATE TABLE nft_metadata (
    nft_id          TEXT PRIMARY KEY,
    chain_id        BIGINT NOT NULL,
    token_id        TEXT NOT NULL,
    token_uri       TEXT NOT NULL,
    status          TEXT NOT NULL,
    reason          TEXT NOT NULL,
    attempts        BIGINT NOT NULL,
    next_attempt_at BIGINT NOT NULL,  -- Unix seconds; 0: now
    updated_at      BIGINT NOT NULL   -- Unix seconds of the last event
);
-- The fetcher's question: what is due now.
CREATE INDEX nft_metadata_due ON nft_metadata (status, next_attempt_at);

-- Tokens minted before this table existed: to be read like new ones (the fetcher skips those
-- whose creator described them). A replay folds the same rows from their `NftMinted` events.
INSERT INTO nft_metadata (nft_id, chain_id, token_id, token_uri, status, reason, attempts, next_attempt_at, updated_at)
SELECT nft_id, chain_id, token_id, token_uri, 'PENDING', '', 0, 0, 0 FROM nfts;
