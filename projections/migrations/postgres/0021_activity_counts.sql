-- How many activity rows there are of each kind, kept by the projector as it writes and deletes
-- `nft_history` rows: the feed's total for a kind (or for every row) is read here, where a count
-- walked a million index entries per request at a million NFTs (seconds on Postgres).
CREATE TABLE activity_counts (
    kind TEXT PRIMARY KEY,
    total BIGINT NOT NULL
);
INSERT INTO activity_counts (kind, total) SELECT kind, COUNT(*) FROM nft_history GROUP BY kind;
