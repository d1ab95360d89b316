-- Browsing and search are answered from an in-memory index (`queries::browse`) built from these
-- tables, so the full-text column goes. The index follows the projector through `nft_changes`:
-- which tokens a batch touched, stamped with a position of that batch, so an index at
-- checkpoint P reloads exactly the tokens changed after P (removed ones included).
ALTER TABLE nft_details DROP COLUMN search;

CREATE TABLE nft_changes (
    nft_id   TEXT PRIMARY KEY,
    position BIGINT NOT NULL
);
CREATE INDEX nft_changes_position ON nft_changes (position);
