-- Collections, folded from the `collection-<uuid>` streams. A deleted collection's rows go.
CREATE TABLE collections (
    collection_id   TEXT PRIMARY KEY,
    creator_user_id TEXT NOT NULL,
    title           TEXT NOT NULL,
    title_lower     TEXT NOT NULL,     -- for case-insensitive search on both databases
    image           TEXT NOT NULL,     -- CID in the file store
    created_at      BIGINT NOT NULL,   -- Unix seconds
    updated_at      BIGINT NOT NULL,
    total_likes     BIGINT NOT NULL
);
CREATE INDEX collections_creator ON collections (creator_user_id, created_at);
CREATE INDEX collections_created ON collections (created_at);

-- Membership: which NFTs were put in which collection. Whether a member still shows (not
-- burned, still owned by a wallet of the creator) is decided when reading.
CREATE TABLE collection_nfts (
    collection_id TEXT NOT NULL,
    nft_id        TEXT NOT NULL,
    added_at      BIGINT NOT NULL,
    PRIMARY KEY (collection_id, nft_id)
);
CREATE INDEX collection_nfts_nft ON collection_nfts (nft_id);

CREATE TABLE collection_likes (
    collection_id TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    liked_at      BIGINT NOT NULL,
    PRIMARY KEY (collection_id, user_id)
);
CREATE INDEX collection_likes_user ON collection_likes (user_id);
